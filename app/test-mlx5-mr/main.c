/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * MR cache benchmark on the software device, this project's cache beside
 * DPDK 22.11's own (a plugin built from Debian's source at benchmark time,
 * see dpdk_ref/), same workloads, same address streams, in one run.
 *
 *   dpdk-test-mlx5-mr [--workloads] [--dpdk PLUGIN] [--repeats R]
 *                     [--n LOOKUPS] [--mt SECONDS] [--mempool N]
 *
 * --workloads (default): every workload of both caches ("ours", "dpdk"
 * when --dpdk names the plugin). Each measured loop runs between a
 * CALLGRIND_ZERO_STATS and a CALLGRIND_DUMP_STATS_AT(
 * "bench:<impl>:<workload>:<ops>"), so that under `valgrind
 * --tool=callgrind` each is a dump of its own; natively each runs R times
 * and the program prints "cycles <impl> <workload> <median cycles per op>"
 * (TSC). Lookups go through a function that is not inlined; the same loop
 * calling a function that returns its argument ("base") is what
 * devtools/run-mr-bench.sh subtracts from lookup workloads.
 *
 * --mt SECONDS: lookups per second of this project's cache on 1 and 2
 * threads (own queues, 1,000 ranges, more than a queue table's first
 * 255) while another thread registers and frees memory; every key is
 * checked (native only).
 *
 * --mempool N: time the registration of an N-mbuf pktmbuf pool and count
 * its MRs (run natively; 1M mbufs need about 4.3 GB with --no-huge, which
 * the program asks EAL for).
 */

#include <dlfcn.h>
#include <getopt.h>
#include <pthread.h>
#include <sched.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_bus.h>
#include <rte_bus_vdev.h>
#include <bus_driver.h>
#include <dev_driver.h>
#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_mbuf.h>

#include <mlx5_common.h>
#include <mlx5_common_mr.h>
#include <mlx5_common_mr_private.h>
#include <rte_pmd_mlx5.h>

#include "dpdk_ref/dpdk_mr_ref.h"

#ifdef HAVE_CALLGRIND
#include <valgrind/callgrind.h>
#else
#define CALLGRIND_ZERO_STATS do { } while (0)
#define CALLGRIND_DUMP_STATS_AT(s) do { RTE_SET_USED(s); } while (0)
#define RUNNING_ON_VALGRIND 0
#endif

/* A lookup the compiler can neither inline nor specialise. */
#ifdef __clang__
#define BENCH_NOINLINE __attribute__((noinline))
#else
#define BENCH_NOINLINE __attribute__((noinline, noclone))
#endif

#define PAGE ((size_t)4096)

static unsigned int nb_lookups = 1u << 18;
static unsigned int repeats = 1;
static volatile uint32_t bench_sink;

/* What the loops call: a lookup by address or by mbuf, or the twin. */
typedef uint32_t (*bench_fn_t)(void *ctrl, uintptr_t obj);

static BENCH_NOINLINE uint32_t
ours_lookup_addr(void *ctrl, uintptr_t addr)
{
	return mlx5_mr_addr2lkey(ctrl, addr);
}

static BENCH_NOINLINE uint32_t
ours_lookup_mbuf(void *ctrl, uintptr_t mb)
{
	return mlx5_mr_mb2lkey(ctrl, (struct rte_mbuf *)mb);
}

static BENCH_NOINLINE uint32_t
ours_flush_lookup_addr(void *ctrl, uintptr_t addr)
{
	mlx5_mr_ctrl_flush(ctrl);
	return mlx5_mr_addr2lkey(ctrl, addr);
}

/* The twin of every lookup: same call, same loop, no lookup. */
static BENCH_NOINLINE uint32_t
lookup_none(void *ctrl, uintptr_t obj)
{
	RTE_SET_USED(ctrl);
	return (uint32_t)obj;
}

/*
 * One MR cache behind the workloads: this project's, or DPDK 22.11's
 * through its plugin. A device is a fresh cache over a software device.
 */
struct impl {
	const char *name;
	void *(*dev_new)(void);
	void (*dev_del)(void *dev);
	int (*map)(void *dev, void *addr, size_t len);
	void *(*ctrl_new)(void *dev);
	void (*ctrl_del)(void *ctrl);
	int (*mempool_register)(void *dev, struct rte_mempool *mp);
	int (*mempool_unregister)(void *dev, struct rte_mempool *mp);
	bench_fn_t addr, mbuf, flush_addr;
	const struct dpdk_mr_ref_api *dpdk;
};

static int
cmp_name(const struct rte_device *dev, const void *name)
{
	return strcmp(dev->name, name);
}

static struct mlx5_common_device *
bench_probe(const char *name, const char *args)
{
	struct rte_bus *bus = rte_bus_find_by_name("vdev");
	struct mlx5_common_device *cdev = NULL;

	if (bus != NULL && rte_vdev_init(name, args) == 0)
		cdev = mlx5_common_dev_get(bus->find_device(NULL, cmp_name,
							    name));
	if (cdev == NULL) {
		fprintf(stderr, "cannot probe %s,%s: %s\n", name, args,
			rte_strerror(rte_errno));
		exit(EXIT_FAILURE);
	}
	return cdev;
}

/* This project's cache: one software device (vHCA) per cache. */
static void *
ours_dev_new(void)
{
	return bench_probe("mlx5_sim1", "card=90,vhca_id=1");
}

static void
ours_dev_del(void *dev)
{
	RTE_SET_USED(dev);
	rte_vdev_uninit("mlx5_sim1");
}

static int
ours_map(void *dev, void *addr, size_t len)
{
	return mlx5_mr_ext_register(dev, addr, len);
}

static void *
ours_ctrl_new(void *dev)
{
	struct mlx5_mr_ctrl *ctrl = aligned_alloc(RTE_CACHE_LINE_SIZE,
						  sizeof(*ctrl));

	if (ctrl == NULL || mlx5_mr_ctrl_init(ctrl, dev, SOCKET_ID_ANY) != 0) {
		fprintf(stderr, "cannot set up a queue's MR control\n");
		exit(EXIT_FAILURE);
	}
	return ctrl;
}

static void
ours_ctrl_del(void *ctrl)
{
	mlx5_mr_ctrl_free(ctrl);
	free(ctrl);
}

static int
ours_mempool_register(void *dev, struct rte_mempool *mp)
{
	RTE_SET_USED(dev);
	RTE_SET_USED(mp);
	return 0; /* Mempool events registered it when it became ready. */
}

static const struct impl ours = {
	.name = "ours",
	.dev_new = ours_dev_new,
	.dev_del = ours_dev_del,
	.map = ours_map,
	.ctrl_new = ours_ctrl_new,
	.ctrl_del = ours_ctrl_del,
	.mempool_register = ours_mempool_register,
	.mempool_unregister = ours_mempool_register,
	.addr = ours_lookup_addr,
	.mbuf = ours_lookup_mbuf,
	.flush_addr = ours_flush_lookup_addr,
};

/*
 * DPDK's cache registers through the same software device (its own vHCA),
 * with the same verbs call as ours: only the caches differ.
 */
static struct mlx5_common_device *dpdk_sim;
static struct impl dpdk;

static int
dpdk_reg(void *pd, void *addr, size_t len, uint32_t *lkey, void **handle)
{
	struct mlx5_common_device *cdev = pd;
	struct ibv_mr *mr = cdev->glue->reg_mr(cdev->pd, addr, len,
					       IBV_ACCESS_LOCAL_WRITE);

	if (mr == NULL)
		return -1;
	*lkey = mr->lkey;
	*handle = mr;
	return 0;
}

static void
dpdk_dereg(void *handle)
{
	dpdk_sim->glue->dereg_mr(handle);
}

static void *
dpdk_dev_new(void)
{
	void *dev = dpdk.dpdk->dev_create(dpdk_sim, dpdk_reg, dpdk_dereg);

	if (dev == NULL) {
		fprintf(stderr, "cannot create DPDK's MR cache\n");
		exit(EXIT_FAILURE);
	}
	return dev;
}

static void *
dpdk_ctrl_new(void *dev)
{
	void *ctrl = dpdk.dpdk->ctrl_create(dev);

	if (ctrl == NULL) {
		fprintf(stderr, "cannot set up DPDK's MR control\n");
		exit(EXIT_FAILURE);
	}
	return ctrl;
}

static void
dpdk_load(const char *path)
{
	void *so = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	const struct dpdk_mr_ref_api *api;

	api = so != NULL ? dlsym(so, DPDK_MR_REF_SYMBOL) : NULL;
	if (api == NULL || api->abi != DPDK_MR_REF_ABI) {
		fprintf(stderr, "cannot load DPDK's MR cache from %s: %s\n",
			path, so == NULL ? dlerror() : "wrong plugin");
		exit(EXIT_FAILURE);
	}
	dpdk = (struct impl){
		.name = "dpdk",
		.dev_new = dpdk_dev_new,
		.dev_del = api->dev_destroy,
		.map = api->dma_map,
		.ctrl_new = dpdk_ctrl_new,
		.ctrl_del = api->ctrl_destroy,
		.mempool_register = api->mempool_register,
		.mempool_unregister = api->mempool_unregister,
		.addr = api->lookup_addr,
		.mbuf = api->lookup_mbuf,
		.flush_addr = api->flush_lookup_addr,
		.dpdk = api,
	};
	dpdk_sim = bench_probe("mlx5_sim2", "card=90,vhca_id=2");
	printf("dpdk: %s\n", api->version);
}

/* Median of @n values (sorted in place). */
static double
median(double *v, unsigned int n)
{
	for (unsigned int i = 1; i < n; i++)
		for (unsigned int j = i; j > 0 && v[j - 1] > v[j]; j--) {
			double t = v[j];

			v[j] = v[j - 1];
			v[j - 1] = t;
		}
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Cycles per op of the repeats of the workload being measured. */
static double cycles[64];
static unsigned int cycles_n;

static void
measure_begin(uint64_t *t0)
{
	CALLGRIND_ZERO_STATS;
	*t0 = rte_rdtsc();
}

static void
measure_end(const struct impl *im, const char *wl, uint64_t t0,
	    unsigned int ops)
{
	uint64_t t1 = rte_rdtsc();
	char label[96];

	snprintf(label, sizeof(label), "bench:%s:%s:%u", im->name, wl, ops);
	CALLGRIND_DUMP_STATS_AT(label);
	if (cycles_n < RTE_DIM(cycles))
		cycles[cycles_n++] = (double)(t1 - t0) / ops;
}

static void
report(const struct impl *im, const char *wl, unsigned int bad)
{
	if (bad != 0)
		printf("failed %s %s %u\n", im->name, wl, bad);
	if (!RUNNING_ON_VALGRIND && cycles_n > 0)
		printf("cycles %s %s %.2f\n", im->name, wl,
		       median(cycles, cycles_n));
	cycles_n = 0;
}

/*
 * The loop: one body for every lookup workload and its twin, the function
 * called through a pointer. @objs are addresses or mbufs, @mask + 1 of
 * them. Returns the lookups that found no key.
 */
static BENCH_NOINLINE unsigned int
run(const struct impl *im, const char *wl, bench_fn_t fn, void *ctrl,
    const uintptr_t *objs, unsigned int mask, unsigned int n)
{
	uint32_t sum = 0, bad = 0;
	uint64_t t0;

	measure_begin(&t0);
	for (unsigned int i = 0; i < n; i++) {
		uint32_t lkey = fn(ctrl, objs[i & mask]);

		sum += lkey;
		bad += lkey == MLX5_MR_LKEY_INVALID;
	}
	measure_end(im, wl, t0, n);
	bench_sink = sum;
	return fn == lookup_none ? 0 : bad;
}

/* A steady workload: the same loop @repeats times. */
static void
run_steady(const struct impl *im, const char *wl, bench_fn_t fn, void *ctrl,
	   const uintptr_t *objs, unsigned int mask)
{
	unsigned int bad = 0;

	for (unsigned int r = 0; r < (RUNNING_ON_VALGRIND ? 1 : repeats); r++)
		bad += run(im, wl, fn, ctrl, objs, mask, nb_lookups);
	report(im, wl, bad);
}

/* Pages the ranges live in: range i is page 2i (page 2i + 1 a gap). */
#define RANGES_MAX 10000u
static uint8_t *mem;
static uintptr_t *addrs;
#define ADDRS_N (1u << 16)

static uintptr_t
range_addr(unsigned int i)
{
	return (uintptr_t)mem + 2 * i * PAGE;
}

/* A reproducible stream of random numbers (xorshift). */
static uint64_t
rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* A random permutation of 0..n-1 (same seed, same order, both caches). */
static void
shuffle(unsigned int *idx, unsigned int n)
{
	uint64_t s = 0x9e3779b97f4a7c15ull;

	for (unsigned int i = 0; i < n; i++)
		idx[i] = i;
	for (unsigned int i = n - 1; i > 0; i--) {
		unsigned int j = rnd(&s) % (i + 1);
		unsigned int t = idx[i];

		idx[i] = idx[j];
		idx[j] = t;
	}
}

/*
 * A cache with ranges 0..n-1 registered (in order). DPDK 22.11 loses
 * entries of its global cache when it grows (mlx5_mr_expand_cache()
 * leaves it with length 1): said once per size, then its table is rebuilt
 * with its own function, as a memory event would, so that its lookups
 * find what was registered.
 */
static void *
setup_ranges(const struct impl *im, unsigned int n)
{
	void *dev = im->dev_new();

	for (unsigned int i = 0; i < n; i++)
		if (im->map(dev, (void *)range_addr(i), PAGE) != 0) {
			fprintf(stderr, "%s: cannot register range %u\n",
				im->name, i);
			exit(EXIT_FAILURE);
		}
	if (im->dpdk != NULL) {
		unsigned int held = 0;

		for (unsigned int i = 0; i < n; i++)
			held += im->dpdk->global_has(dev, range_addr(i) + 8);
		if (held != n) {
			printf("note dpdk global cache after %u registrations holds %u of them (%u entries); rebuilt for the lookups\n",
			       n, held, im->dpdk->global_len(dev));
			im->dpdk->global_rebuild(dev);
		}
	}
	return dev;
}

/* Learn ranges @idx[0..n-1] in that order. */
static void
learn(const struct impl *im, void *ctrl, const unsigned int *idx,
      unsigned int n)
{
	for (unsigned int i = 0; i < n; i++)
		if (im->addr(ctrl, range_addr(idx[i]) + 64) ==
		    MLX5_MR_LKEY_INVALID) {
			fprintf(stderr, "%s: range %u not found\n", im->name,
				idx[i]);
			exit(EXIT_FAILURE);
		}
}

static unsigned int order[RANGES_MAX];

/* Most recent hit: by address, by mbuf of a registered mempool. */
static void
wl_mru(const struct impl *im)
{
	struct rte_mbuf *mbs[1024];
	uintptr_t objs[1024];
	struct rte_mempool *mp;
	void *dev = im->dev_new();
	void *ctrl = im->ctrl_new(dev);

	mp = rte_pktmbuf_pool_create("bench", 1024, 0, 0,
				     RTE_MBUF_DEFAULT_BUF_SIZE, SOCKET_ID_ANY);
	if (mp == NULL || rte_pktmbuf_alloc_bulk(mp, mbs, 1024) != 0 ||
	    im->mempool_register(dev, mp) != 0) {
		fprintf(stderr, "cannot set up the mbuf workloads\n");
		exit(EXIT_FAILURE);
	}
	for (unsigned int i = 0; i < ADDRS_N; i++)
		addrs[i] = (uintptr_t)mbs[(i * 37) % 1024]->buf_addr +
			   (i % 2048);
	for (unsigned int i = 0; i < 1024; i++)
		objs[i] = (uintptr_t)mbs[i];
	im->mbuf(ctrl, objs[0]);
	if (im == &ours)
		run_steady(im, "base", lookup_none, ctrl, addrs, ADDRS_N - 1);
	run_steady(im, "mru_mbuf", im->mbuf, ctrl, objs, 1023);
	/* The pool's memory as plain addresses (DPDK memory: registered
	 * on demand by both). */
	im->addr(ctrl, addrs[0]);
	run_steady(im, "mru_addr", im->addr, ctrl, addrs, ADDRS_N - 1);
	rte_pktmbuf_free_bulk(mbs, 1024);
	im->mempool_unregister(dev, mp);
	im->ctrl_del(ctrl);
	im->dev_del(dev);
	rte_mempool_free(mp);
}

/* Address @i of a walk over ranges 0..n-1 visiting them all in turn. */
static uintptr_t
cycle_addr(unsigned int n, unsigned int i)
{
	unsigned int k = (unsigned int)(((uint64_t)i * 7919) % n);

	return range_addr(k) + (i * 64) % PAGE;
}

/*
 * Per-queue hits: the queue learned @n ranges; a walk over all of them in
 * a fixed stride (never the same range twice in a row).
 */
static void
wl_queue_hits(const struct impl *im, unsigned int n, const char *wl)
{
	void *dev = setup_ranges(im, n);
	void *ctrl = im->ctrl_new(dev);

	shuffle(order, n);
	learn(im, ctrl, order, n);
	for (unsigned int i = 0; i < ADDRS_N; i++)
		addrs[i] = cycle_addr(n, i);
	run_steady(im, wl, im->addr, ctrl, addrs, ADDRS_N - 1);
	im->ctrl_del(ctrl);
	im->dev_del(dev);
}

/*
 * Random among @n ranges the queue learned: the stream a queue sees when
 * its packets come from n buffers' memory in no order.
 */
static void
wl_random(const struct impl *im, unsigned int n, const char *wl)
{
	void *dev = setup_ranges(im, n);
	void *ctrl = im->ctrl_new(dev);
	uint64_t s = 0x2545f4914f6cdd1dull;

	shuffle(order, n);
	learn(im, ctrl, order, n);
	for (unsigned int i = 0; i < ADDRS_N; i++)
		addrs[i] = range_addr(rnd(&s) % n) + rnd(&s) % PAGE;
	run_steady(im, wl, im->addr, ctrl, addrs, ADDRS_N - 1);
	im->ctrl_del(ctrl);
	im->dev_del(dev);
}

/*
 * Two ranges in turn while the queue holds many others: 248 others learned
 * first, then the two (for DPDK, whose last 8 ranges sit in a round-robin
 * array, 248 puts the two in its first two slots: its best case).
 */
static void
wl_two(const struct impl *im)
{
	unsigned int others = 248;
	void *dev = setup_ranges(im, others + 2);
	void *ctrl = im->ctrl_new(dev);

	for (unsigned int i = 0; i < others + 2; i++)
		order[i] = i;
	learn(im, ctrl, order, others + 2);
	for (unsigned int i = 0; i < ADDRS_N; i++)
		addrs[i] = range_addr(others + (i & 1)) + (i % 2048);
	run_steady(im, "two_in_turn", im->addr, ctrl, addrs, ADDRS_N - 1);
	im->ctrl_del(ctrl);
	im->dev_del(dev);
}

/*
 * A global hit: the queue was just flushed (it knows nothing), the
 * device has @n MRs; flush and lookup, a random range each time.
 */
static void
wl_global(const struct impl *im, unsigned int n, const char *wl)
{
	void *dev = setup_ranges(im, n);
	void *ctrl = im->ctrl_new(dev);
	uint64_t s = 0x853c49e6748fea9bull;

	for (unsigned int i = 0; i < ADDRS_N; i++)
		addrs[i] = range_addr(rnd(&s) % n) + rnd(&s) % PAGE;
	run_steady(im, wl, im->flush_addr, ctrl, addrs, ADDRS_N - 1);
	im->ctrl_del(ctrl);
	im->dev_del(dev);
}

/*
 * First touch after a flush: the queue learns @n ranges, each looked up
 * once, in random order, right after a flush. Per lookup.
 */
static void
wl_refill(const struct impl *im, unsigned int n, const char *wl)
{
	void *dev = setup_ranges(im, n);
	void *ctrl = im->ctrl_new(dev);
	unsigned int bad = 0;

	shuffle(order, n);
	for (unsigned int i = 0; i < n; i++)
		addrs[i] = range_addr(order[i]) + 64;
	for (unsigned int r = 0; r < (RUNNING_ON_VALGRIND ? 1 : repeats);
	     r++) {
		im->flush_addr(ctrl, addrs[0]);
		bad += run(im, wl, im->addr, ctrl, addrs + 1, UINT32_MAX,
			   n - 1);
	}
	report(im, wl, bad);
	im->ctrl_del(ctrl);
	im->dev_del(dev);
}

/*
 * Registration of one more MR at about @n MRs: 7/8 of them registered,
 * the last eighth measured, in ascending or descending address order.
 */
static void
wl_register(const struct impl *im, unsigned int n, bool descending,
	    const char *wl)
{
	unsigned int first = n - n / 8;

	for (unsigned int r = 0; r < (RUNNING_ON_VALGRIND ? 1 : repeats);
	     r++) {
		void *dev = im->dev_new();
		unsigned int bad = 0;
		uint64_t t0 = 0;

		for (unsigned int i = 0; i < n; i++) {
			unsigned int k = descending ? n - 1 - i : i;

			if (i == first)
				measure_begin(&t0);
			bad += im->map(dev, (void *)range_addr(k), PAGE) != 0;
		}
		measure_end(im, wl, t0, n - first);
		if (bad != 0)
			printf("failed %s %s %u\n", im->name, wl, bad);
		im->dev_del(dev);
	}
	report(im, wl, 0);
}

static void
workloads(const struct impl *im)
{
	static const unsigned int randoms[] = { 2, 8, 16, 255, 1000, 10000 };
	char wl[32];

	wl_mru(im);
	wl_queue_hits(im, 16, "table_16");
	wl_queue_hits(im, 255, "table_255");
	wl_two(im);
	wl_global(im, 10, "global_10");
	wl_global(im, 1000, "global_1000");
	wl_global(im, 10000, "global_10000");
	for (unsigned int i = 0; i < RTE_DIM(randoms); i++) {
		snprintf(wl, sizeof(wl), "random_%u", randoms[i]);
		wl_random(im, randoms[i], wl);
	}
	wl_refill(im, 255, "refill_255");
	wl_refill(im, 1000, "refill_1000");
	wl_refill(im, 10000, "refill_10000");
	wl_register(im, 1000, false, "reg_asc_1000");
	wl_register(im, 10000, false, "reg_asc_10000");
	wl_register(im, 1000, true, "reg_desc_1000");
	wl_register(im, 10000, true, "reg_desc_10000");
}

/*
 * Several queues look up while another thread registers and frees memory.
 * Readers: own queue each, random addresses among 1,000 ranges that stay,
 * every key compared with the range's; now and then the churned range,
 * whose key must be the live one or none.
 */
struct mt {
	struct mlx5_common_device *cdev;
	unsigned int n;
	uint32_t *keys;              /* Key of each stable range. */
	uint8_t *scratch;            /* The range registered and freed. */
	uint32_t seq;                /* Odd while the scratch changes. */
	uint32_t scratch_key;        /* Its key while registered. */
	int stop;
	uint64_t lookups[2];
	uint64_t wrong[2];
	uint64_t frees;
};

struct mt_reader {
	struct mt *mt;
	unsigned int id;
};

static void *
mt_reader(void *arg)
{
	struct mt_reader *rd = arg;
	struct mt *mt = rd->mt;
	struct mlx5_mr_ctrl *ctrl = ours_ctrl_new(mt->cdev);
	uint64_t s = 0x9e3779b97f4a7c15ull * (rd->id + 1);
	uint64_t n = 0, wrong = 0;

	while (!__atomic_load_n(&mt->stop, __ATOMIC_RELAXED)) {
		for (unsigned int i = 0; i < 255; i++) {
			unsigned int k = rnd(&s) % mt->n;
			uint32_t lkey = mlx5_mr_addr2lkey(ctrl, range_addr(k) +
							  (i * 64) % PAGE);

			wrong += lkey != mt->keys[k];
		}
		{
			uint32_t s1 = __atomic_load_n(&mt->seq,
						      __ATOMIC_ACQUIRE);
			uint32_t lkey = mlx5_mr_addr2lkey(ctrl,
				(uintptr_t)mt->scratch + 8);
			uint32_t key = __atomic_load_n(&mt->scratch_key,
						       __ATOMIC_RELAXED);

			if (s1 == __atomic_load_n(&mt->seq, __ATOMIC_ACQUIRE) &&
			    !(s1 & 1))
				wrong += lkey != ((s1 & 2) ? key :
						  MLX5_MR_LKEY_INVALID);
		}
		n += 256;
	}
	mt->lookups[rd->id] = n;
	mt->wrong[rd->id] = wrong;
	ours_ctrl_del(ctrl);
	return NULL;
}

/* Register the scratch range, look its key up, free it; again. */
static void *
mt_churn(void *arg)
{
	struct mt *mt = arg;
	struct mlx5_mr_ctrl *ctrl = ours_ctrl_new(mt->cdev);

	while (!__atomic_load_n(&mt->stop, __ATOMIC_RELAXED)) {
		__atomic_fetch_add(&mt->seq, 1, __ATOMIC_RELEASE);
		if (mlx5_mr_ext_register(mt->cdev, mt->scratch, 16 * PAGE) != 0)
			break;
		__atomic_store_n(&mt->scratch_key,
				 mlx5_mr_addr2lkey(ctrl, (uintptr_t)mt->scratch),
				 __ATOMIC_RELAXED);
		__atomic_fetch_add(&mt->seq, 1, __ATOMIC_RELEASE);
		rte_delay_us_block(20);
		__atomic_fetch_add(&mt->seq, 1, __ATOMIC_RELEASE);
		mlx5_mr_ext_unregister(mt->cdev, mt->scratch, 16 * PAGE);
		__atomic_fetch_add(&mt->seq, 1, __ATOMIC_RELEASE);
		mt->frees++;
		rte_delay_us_block(20);
	}
	ours_ctrl_del(ctrl);
	return NULL;
}

static void
bench_mt(double seconds)
{
	struct mt mt = { .n = 1000 };
	struct mlx5_mr_ctrl *ctrl;

	mt.cdev = bench_probe("mlx5_sim3", "card=90,vhca_id=3");
	mt.keys = calloc(mt.n, sizeof(*mt.keys));
	mt.scratch = aligned_alloc(PAGE, 16 * PAGE);
	if (mt.keys == NULL || mt.scratch == NULL)
		exit(EXIT_FAILURE);
	memset(mt.scratch, 0, 16 * PAGE);
	ctrl = ours_ctrl_new(mt.cdev);
	for (unsigned int i = 0; i < mt.n; i++) {
		if (mlx5_mr_ext_register(mt.cdev, (void *)range_addr(i),
					 PAGE) != 0)
			exit(EXIT_FAILURE);
		mt.keys[i] = mlx5_mr_addr2lkey(ctrl, range_addr(i));
	}
	ours_ctrl_del(ctrl);
	/* A lookup of the freed scratch range fails, with a log line. */
	rte_log_set_level_pattern("pmd.common.mlx5*", RTE_LOG_CRIT);
	for (unsigned int readers = 1; readers <= 2; readers++)
		for (int churn = 0; churn <= 1; churn++) {
			struct mt_reader rd[2];
			pthread_t th[3];
			uint64_t t0, t1, total = 0, wrong = 0;

			mt.stop = 0;
			mt.frees = 0;
			t0 = rte_rdtsc();
			for (unsigned int i = 0; i < readers; i++) {
				rd[i] = (struct mt_reader){ &mt, i };
				pthread_create(&th[i], NULL, mt_reader, &rd[i]);
			}
			if (churn)
				pthread_create(&th[2], NULL, mt_churn, &mt);
			rte_delay_us_sleep((unsigned int)(seconds * 1e6));
			__atomic_store_n(&mt.stop, 1, __ATOMIC_RELAXED);
			for (unsigned int i = 0; i < readers; i++)
				pthread_join(th[i], NULL);
			if (churn)
				pthread_join(th[2], NULL);
			t1 = rte_rdtsc();
			for (unsigned int i = 0; i < readers; i++) {
				total += mt.lookups[i];
				wrong += mt.wrong[i];
			}
			printf("mt readers %u churn %s lookups_per_s %.0f frees_per_s %.0f wrong %" PRIu64 "\n",
			       readers, churn ? "on" : "off",
			       (double)total * rte_get_tsc_hz() / (t1 - t0),
			       (double)mt.frees * rte_get_tsc_hz() / (t1 - t0),
			       wrong);
		}
	rte_log_set_level_pattern("pmd.common.mlx5*", RTE_LOG_WARNING);
	free(mt.keys);
	free(mt.scratch);
	rte_vdev_uninit("mlx5_sim3");
}

struct bench_chunks {
	uintptr_t start[64];
	uintptr_t end[64];
	unsigned int n;
};

static void
bench_chunk_cb(struct rte_mempool *mp, void *opaque,
	       struct rte_mempool_memhdr *memhdr, unsigned int idx)
{
	struct bench_chunks *c = opaque;

	RTE_SET_USED(mp);
	RTE_SET_USED(idx);
	if (c->n < RTE_DIM(c->start)) {
		c->start[c->n] = RTE_ALIGN_FLOOR((uintptr_t)memhdr->addr, PAGE);
		c->end[c->n] = RTE_ALIGN_CEIL((uintptr_t)memhdr->addr +
					      memhdr->len, PAGE);
		c->n++;
	}
}

/* Virtually contiguous chunks of @mp, counted apart from the driver. */
static unsigned int
bench_contiguous_chunks(struct rte_mempool *mp)
{
	struct bench_chunks c = { .n = 0 };
	unsigned int contiguous = 0;

	rte_mempool_mem_iter(mp, bench_chunk_cb, &c);
	for (unsigned int i = 0; i < c.n; i++) {
		bool joined = false;

		/* A chunk touching another one does not start a new range. */
		for (unsigned int j = 0; j < c.n; j++)
			joined |= j != i && c.start[j] < c.start[i] &&
				  c.end[j] >= c.start[i];
		contiguous += !joined;
	}
	return contiguous;
}

/* Register an @n-mbuf pool: time, MRs, chunks. */
static void
bench_mempool(unsigned int n)
{
	struct mlx5_common_device *cdev = bench_probe("mlx5_sim0",
		"card=91,vhca_id=0,mr_mempool_reg_en=0");
	struct rte_mempool *mp;
	struct mlx5_mr_stats st;
	uint64_t t0, t1;
	int ret;

	mp = rte_pktmbuf_pool_create("bench_1m", n, 256, 0,
				     RTE_MBUF_DEFAULT_BUF_SIZE, SOCKET_ID_ANY);
	if (mp == NULL) {
		fprintf(stderr, "cannot create a pool of %u mbufs: %s\n", n,
			rte_strerror(rte_errno));
		exit(EXIT_FAILURE);
	}
	t0 = rte_rdtsc();
	ret = mlx5_mr_mempool_register(cdev, mp);
	t1 = rte_rdtsc();
	if (ret != 0 || mlx5_mr_stats(cdev, &st) != 0) {
		fprintf(stderr, "registration failed: %s\n",
			rte_strerror(-ret));
		exit(EXIT_FAILURE);
	}
	printf("mempool %u mbufs: %u memory chunk(s), %u contiguous, %zu bytes of objects\n",
	       n, mp->nb_mem_chunks, bench_contiguous_chunks(mp),
	       (size_t)mp->populated_size *
	       (mp->header_size + mp->elt_size + mp->trailer_size));
	printf("mempool registration: %.3f ms, %u MR(s)\n",
	       (double)(t1 - t0) * 1e3 / (double)rte_get_tsc_hz(), st.mrs);
	t0 = rte_rdtsc();
	mlx5_mr_mempool_unregister(cdev, mp);
	t1 = rte_rdtsc();
	printf("mempool unregistration: %.3f ms\n",
	       (double)(t1 - t0) * 1e3 / (double)rte_get_tsc_hz());
	rte_mempool_free(mp);
	rte_vdev_uninit("mlx5_sim0");
}

int
main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "workloads", no_argument, NULL, 'w' },
		{ "dpdk", required_argument, NULL, 'd' },
		{ "repeats", required_argument, NULL, 'r' },
		{ "mt", required_argument, NULL, 't' },
		{ "mempool", required_argument, NULL, 'm' },
		{ "n", required_argument, NULL, 'n' },
		{ NULL, 0, NULL, 0 },
	};
	char mem_mb[16];
	char *eal_args[] = {
		argv[0], "--no-huge", "-m", mem_mb, "--no-pci", "--no-shconf",
		"-l", "0", "--no-telemetry", "--log-level", "pmd.common.mlx5*:warning",
		"--log-level", "lib.eal:warning", NULL,
	};
	const char *plugin = NULL;
	unsigned int mempool = 0;
	double mt_seconds = 0;
	bool wl = false;
	int opt;

	while ((opt = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (opt) {
		case 'w':
			wl = true;
			break;
		case 'd':
			plugin = optarg;
			break;
		case 'r':
			repeats = (unsigned int)strtoul(optarg, NULL, 0);
			if (repeats == 0 || repeats > RTE_DIM(cycles))
				repeats = RTE_DIM(cycles);
			break;
		case 't':
			mt_seconds = strtod(optarg, NULL);
			break;
		case 'm':
			mempool = (unsigned int)strtoul(optarg, NULL, 0);
			break;
		case 'n':
			nb_lookups = (unsigned int)strtoul(optarg, NULL, 0);
			break;
		default:
			fprintf(stderr, "usage: %s [--workloads] [--dpdk PLUGIN] [--repeats R] [--n LOOKUPS] [--mt SECONDS] [--mempool N]\n",
				argv[0]);
			return EXIT_FAILURE;
		}
	}
	if (mempool == 0 && mt_seconds <= 0)
		wl = true;
	/* 4 KB per mbuf without hugepages (objects do not cross pages). */
	snprintf(mem_mb, sizeof(mem_mb), "%u",
		 256 + (unsigned int)(((uint64_t)mempool * PAGE) >> 20) * 105 /
		 100);
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (rte_eal_init(RTE_DIM(eal_args) - 1, eal_args) < 0) {
		fprintf(stderr, "EAL init failed: %s\n", rte_strerror(rte_errno));
		return EXIT_FAILURE;
	}
	mem = aligned_alloc(PAGE, 2 * RANGES_MAX * PAGE);
	addrs = calloc(ADDRS_N, sizeof(*addrs));
	if (mem == NULL || addrs == NULL)
		return EXIT_FAILURE;
	memset(mem, 0, 2 * RANGES_MAX * PAGE);
	if (wl) {
		workloads(&ours);
		if (plugin != NULL) {
			dpdk_load(plugin);
			workloads(&dpdk);
		}
	}
	if (mt_seconds > 0)
		bench_mt(mt_seconds);
	if (mempool != 0)
		bench_mempool(mempool);
	if (dpdk_sim != NULL)
		rte_vdev_uninit("mlx5_sim2");
	free(addrs);
	free(mem);
	rte_eal_cleanup();
	return EXIT_SUCCESS;
}
