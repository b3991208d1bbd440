/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * MR cache benchmark on the software device.
 *
 *   dpdk-test-mlx5-mr [--lookups] [--mempool N] [--n LOOKUPS]
 *
 * --lookups (default): the lookup scenarios. Each runs LOOKUPS lookups
 * through a function that is not inlined, between a CALLGRIND_ZERO_STATS
 * and a CALLGRIND_DUMP_STATS_AT("bench:<scenario>:<lookups>"), so that under
 * `valgrind --tool=callgrind` every scenario is a dump of its own; the same
 * loop calling a function that returns its argument ("base") is the count
 * devtools/run-mr-bench.sh subtracts. Natively, the program prints
 * nanoseconds per lookup (TSC; noisy on a shared host).
 *
 * --mempool N: time the registration of an N-mbuf pktmbuf pool and count
 * its MRs (run natively; 1M mbufs need about 4.3 GB with --no-huge, which
 * the program asks EAL for).
 */

#include <getopt.h>
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
static volatile uint32_t bench_sink;

/* What the loops call: a lookup by address or by mbuf, or a twin. */
typedef uint32_t (*bench_fn_t)(struct mlx5_mr_ctrl *, uintptr_t);

static BENCH_NOINLINE uint32_t
lookup_addr(struct mlx5_mr_ctrl *ctrl, uintptr_t addr)
{
	return mlx5_mr_addr2lkey(ctrl, addr);
}

static BENCH_NOINLINE uint32_t
lookup_mbuf(struct mlx5_mr_ctrl *ctrl, uintptr_t mb)
{
	return mlx5_mr_mb2lkey(ctrl, (struct rte_mbuf *)mb);
}

/* The twin of both: same call, same loop, no lookup. */
static BENCH_NOINLINE uint32_t
lookup_none(struct mlx5_mr_ctrl *ctrl, uintptr_t obj)
{
	RTE_SET_USED(ctrl);
	return (uint32_t)obj;
}

/* Print a scenario's native time; under callgrind, mark its dump. */
static void
bench_report(const char *name, uint64_t cycles, uint32_t bad)
{
	char label[96];

	snprintf(label, sizeof(label), "bench:%s:%u", name, nb_lookups);
	CALLGRIND_DUMP_STATS_AT(label);
	if (bad != 0) {
		printf("%-28s FAILED: %u lookups returned no key\n", name, bad);
		exit(EXIT_FAILURE);
	}
	if (!RUNNING_ON_VALGRIND)
		printf("%-28s %8.2f ns/lookup\n", name,
		       (double)cycles * 1e9 / (double)rte_get_tsc_hz() /
		       nb_lookups);
}

/*
 * The loop: one body for every scenario and its twin, the function called
 * through a pointer, so that the difference is the lookup and only it.
 * @objs are addresses or mbufs, @mask + 1 of them.
 */
static BENCH_NOINLINE void
run(const char *name, bench_fn_t fn, struct mlx5_mr_ctrl *ctrl,
    const uintptr_t *objs, unsigned int mask)
{
	uint32_t sum = 0, bad = 0;
	uint64_t t0;

	CALLGRIND_ZERO_STATS;
	t0 = rte_rdtsc();
	for (unsigned int i = 0; i < nb_lookups; i++) {
		uint32_t lkey = fn(ctrl, objs[i & mask]);

		sum += lkey;
		bad += lkey == MLX5_MR_LKEY_INVALID;
	}
	bench_sink = sum;
	bench_report(name, rte_rdtsc() - t0, fn == lookup_none ? 0 : bad);
}

static int
bench_cmp_name(const struct rte_device *dev, const void *name)
{
	return strcmp(dev->name, name);
}

static struct mlx5_common_device *
bench_probe(const char *name, const char *args)
{
	struct rte_bus *bus = rte_bus_find_by_name("vdev");
	struct mlx5_common_device *cdev = NULL;

	if (bus != NULL && rte_vdev_init(name, args) == 0)
		cdev = mlx5_common_dev_get(bus->find_device(NULL,
							    bench_cmp_name,
							    name));
	if (cdev == NULL) {
		fprintf(stderr, "cannot probe %s,%s: %s\n", name, args,
			rte_strerror(rte_errno));
		exit(EXIT_FAILURE);
	}
	return cdev;
}

/*
 * @n ranges of a page, one page apart, registered explicitly with @cdev.
 * Returns the base of 2 * n pages.
 */
static uint8_t *
bench_ranges(struct mlx5_common_device *cdev, unsigned int n)
{
	uint8_t *mem = aligned_alloc(PAGE, 2 * n * PAGE);

	if (mem == NULL) {
		fprintf(stderr, "no memory for %u ranges\n", n);
		exit(EXIT_FAILURE);
	}
	memset(mem, 0, 2 * n * PAGE);
	for (unsigned int i = 0; i < n; i++)
		if (mlx5_mr_ext_register(cdev, mem + 2 * i * PAGE, PAGE) != 0) {
			fprintf(stderr, "cannot register range %u: %s\n", i,
				rte_strerror(rte_errno));
			exit(EXIT_FAILURE);
		}
	return mem;
}

static unsigned int
bench_gcd(unsigned int a, unsigned int b)
{
	while (b != 0) {
		unsigned int t = a % b;

		a = b;
		b = t;
	}
	return a;
}

/*
 * Address @i of a walk over @n ranges (n > 4) that visits them all before
 * it comes back: never the most recent range, never one of the last four.
 */
static uintptr_t
bench_cycle_addr(const uint8_t *mem, unsigned int n, unsigned int i)
{
	unsigned int step = 7919 % n;
	unsigned int k;

	while (step < 2 || bench_gcd(step, n) != 1)
		step++;
	k = (unsigned int)(((uint64_t)i * step) % n);
	return (uintptr_t)mem + 2 * k * PAGE + (i * 64) % PAGE;
}

static uintptr_t *addrs;
#define ADDRS_N (1u << 16)

/* Most recent hit and private IOVA: the pool of a ready mempool. */
static void
bench_mbufs(struct mlx5_common_device *cdev)
{
	struct rte_mbuf *mbs[1024];
	uintptr_t objs[1024];
	struct rte_mempool *mp;
	struct mlx5_mr_ctrl ctrl;
	uint64_t flag = rte_pmd_mlx5_private_iova_flag();

	mp = rte_pktmbuf_pool_create("bench", 1024, 0, 0,
				     RTE_MBUF_DEFAULT_BUF_SIZE, SOCKET_ID_ANY);
	if (mp == NULL || rte_pktmbuf_alloc_bulk(mp, mbs, 1024) != 0 ||
	    mlx5_mr_ctrl_init(&ctrl, cdev, SOCKET_ID_ANY) != 0) {
		fprintf(stderr, "cannot set up the mbuf scenarios\n");
		exit(EXIT_FAILURE);
	}
	for (unsigned int i = 0; i < ADDRS_N; i++)
		addrs[i] = (uintptr_t)mbs[(i * 37) % 1024]->buf_addr +
			   (i % 2048);
	for (unsigned int i = 0; i < 1024; i++)
		objs[i] = (uintptr_t)mbs[i];
	lookup_addr(&ctrl, addrs[0]);
	run("base", lookup_none, &ctrl, addrs, ADDRS_N - 1);
	run("mru_addr", lookup_addr, &ctrl, addrs, ADDRS_N - 1);
	run("mru_mbuf", lookup_mbuf, &ctrl, objs, 1023);
	for (unsigned int i = 0; i < 1024; i++)
		rte_pmd_mlx5_mbuf_set_private_iova(mbs[i],
			rte_pmd_mlx5_mkey_to_iova(0x1000 + i));
	if (ctrl.private_iova_flag != flag || flag == 0) {
		fprintf(stderr, "private-IOVA flag not registered\n");
		exit(EXIT_FAILURE);
	}
	run("private_iova", lookup_mbuf, &ctrl, objs, 1023);
	for (unsigned int i = 0; i < 1024; i++)
		mbs[i]->ol_flags &= ~flag;
	rte_pktmbuf_free_bulk(mbs, 1024);
	mlx5_mr_ctrl_free(&ctrl);
	rte_mempool_free(mp);
}

/* Lay ranges [0x10000 + 2 * rank pages, + 1 page) out in order. */
static void
bench_fill_node(struct mlx5_mr_qtable *t, uint32_t node, uint32_t *rank)
{
	if (node > MLX5_MR_QUEUE_TABLE_N)
		return;
	bench_fill_node(t, 2 * node, rank);
	MLX5_MR_QT_KEY(t, node) = 0x10000 + 2 * PAGE * *rank - 1;
	MLX5_MR_QT_END(t, node) = 0x10000 + 2 * PAGE * *rank + PAGE;
	MLX5_MR_QT_LKEY(t, node) = MLX5_MR_LKEY_INVALID;
	(*rank)++;
	bench_fill_node(t, 2 * node + 1, rank);
}

/*
 * Fill a queue's table with 255 ranges nobody looks up (by hand: a queue
 * keeps a full table until its next flush), all below the heap, so that
 * every search goes down to the last node and misses.
 */
static void
bench_fill_table(struct mlx5_mr_ctrl *ctrl)
{
	uint32_t rank = 0;

	bench_fill_node(&ctrl->table, 1, &rank);
	ctrl->table.len = MLX5_MR_QUEUE_TABLE_N;
}

/*
 * The linear cache, which holds what a full queue table could not take:
 * the table is full, ranges 0-3 learned afterwards sit in slots 0-3.
 * Alternating between two of them misses the most recent range and the
 * table every time and hits both slots: three pairs give each slot's cost
 * (the runner solves for slots 0 and 3).
 */
static void
bench_linear(struct mlx5_common_device *cdev)
{
	static const struct { const char *name; unsigned int a, b; } pairs[] = {
		{ "linear_0_1", 0, 1 },
		{ "linear_0_3", 0, 3 },
		{ "linear_1_3", 1, 3 },
	};
	uint8_t *mem = bench_ranges(cdev, 4);
	struct mlx5_mr_ctrl ctrl;

	for (unsigned int p = 0; p < RTE_DIM(pairs); p++) {
		if (mlx5_mr_ctrl_init(&ctrl, cdev, SOCKET_ID_ANY) != 0)
			exit(EXIT_FAILURE);
		bench_fill_table(&ctrl);
		for (unsigned int i = 0; i < 4; i++) {
			lookup_addr(&ctrl, (uintptr_t)mem + 2 * i * PAGE);
			if (ctrl.linear[i].start != (uintptr_t)mem + 2 * i * PAGE)
				exit(EXIT_FAILURE);
		}
		for (unsigned int i = 0; i < ADDRS_N; i++)
			addrs[i] = (uintptr_t)mem + (i % 2048) +
				   2 * PAGE * ((i & 1) ? pairs[p].b :
						       pairs[p].a);
		run(pairs[p].name, lookup_addr, &ctrl, addrs, ADDRS_N - 1);
		mlx5_mr_ctrl_free(&ctrl);
	}
	mlx5_mr_ext_unregister(cdev, mem, 8 * PAGE);
	free(mem);
}

/*
 * The queue table with @n ranges learned; the linear cache holds the last
 * four, the walk goes over the others: every lookup is a table hit.
 */
static void
bench_table(struct mlx5_common_device *cdev, unsigned int n, const char *name)
{
	uint8_t *mem = bench_ranges(cdev, n);
	struct mlx5_mr_ctrl ctrl;

	if (mlx5_mr_ctrl_init(&ctrl, cdev, SOCKET_ID_ANY) != 0)
		exit(EXIT_FAILURE);
	for (unsigned int i = 0; i < n; i++)
		lookup_addr(&ctrl, (uintptr_t)mem + 2 * i * PAGE);
	if (ctrl.table.len != n) {
		fprintf(stderr, "%s: the queue table holds %u ranges\n", name,
			ctrl.table.len);
		exit(EXIT_FAILURE);
	}
	for (unsigned int i = 0; i < ADDRS_N; i++)
		addrs[i] = bench_cycle_addr(mem, n - MLX5_MR_LINEAR_N, i);
	run(name, lookup_addr, &ctrl, addrs, ADDRS_N - 1);
	mlx5_mr_ctrl_free(&ctrl);
	mlx5_mr_ext_unregister(cdev, mem, 2 * n * PAGE);
	free(mem);
}

/*
 * The global table with @n MRs, on a device of its own. The queue table is
 * full of ranges nobody looks up and the walk never meets the linear
 * cache, so every lookup misses the queue and hits the global table.
 */
static void
bench_global(unsigned int n, const char *vdev, const char *args,
	     const char *name)
{
	struct mlx5_common_device *cdev = bench_probe(vdev, args);
	uint8_t *mem = bench_ranges(cdev, n);
	struct mlx5_mr_ctrl ctrl;
	struct mlx5_mr_stats st;

	if (mlx5_mr_stats(cdev, &st) != 0 || st.segments != n ||
	    mlx5_mr_ctrl_init(&ctrl, cdev, SOCKET_ID_ANY) != 0) {
		fprintf(stderr, "%s: cannot set up %u ranges\n", name, n);
		exit(EXIT_FAILURE);
	}
	bench_fill_table(&ctrl);
	for (unsigned int i = 0; i < ADDRS_N; i++)
		addrs[i] = bench_cycle_addr(mem, n, i);
	run(name, lookup_addr, &ctrl, addrs, ADDRS_N - 1);
	mlx5_mr_ctrl_free(&ctrl);
	mlx5_mr_ext_unregister(cdev, mem, 2 * n * PAGE);
	free(mem);
	rte_vdev_uninit(vdev);
}

/* mr_whole_mem_en: any address, one key. */
static void
bench_whole(void)
{
	struct mlx5_common_device *cdev = bench_probe("mlx5_sim9",
		"card=90,vhca_id=9,mr_whole_mem_en=1");
	uint8_t *mem = malloc(1 << 20);
	struct mlx5_mr_ctrl ctrl;

	if (mem == NULL || mlx5_mr_ctrl_init(&ctrl, cdev, SOCKET_ID_ANY) != 0)
		exit(EXIT_FAILURE);
	for (unsigned int i = 0; i < ADDRS_N; i++)
		addrs[i] = (uintptr_t)mem + (i * 4099) % (1 << 20);
	run("whole_mem", lookup_addr, &ctrl, addrs, ADDRS_N - 1);
	mlx5_mr_ctrl_free(&ctrl);
	free(mem);
	rte_vdev_uninit("mlx5_sim9");
}

static void
bench_lookups(void)
{
	struct mlx5_common_device *cdev = bench_probe("mlx5_sim0",
						      "card=90,vhca_id=0");

	addrs = calloc(ADDRS_N, sizeof(*addrs));
	if (addrs == NULL)
		exit(EXIT_FAILURE);
	bench_mbufs(cdev);
	bench_linear(cdev);
	bench_table(cdev, 16, "table_16");
	bench_table(cdev, MLX5_MR_QUEUE_TABLE_N, "table_255");
	bench_global(10, "mlx5_sim1", "card=90,vhca_id=1", "global_10");
	bench_global(1000, "mlx5_sim2", "card=90,vhca_id=2", "global_1000");
	bench_global(10000, "mlx5_sim3", "card=90,vhca_id=3", "global_10000");
	bench_whole();
	rte_vdev_uninit("mlx5_sim0");
	free(addrs);
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
		{ "lookups", no_argument, NULL, 'l' },
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
	unsigned int mempool = 0;
	bool lookups = false;
	int opt;

	while ((opt = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (opt) {
		case 'l':
			lookups = true;
			break;
		case 'm':
			mempool = (unsigned int)strtoul(optarg, NULL, 0);
			break;
		case 'n':
			nb_lookups = (unsigned int)strtoul(optarg, NULL, 0);
			break;
		default:
			fprintf(stderr, "usage: %s [--lookups] [--mempool N] [--n LOOKUPS]\n",
				argv[0]);
			return EXIT_FAILURE;
		}
	}
	if (mempool == 0)
		lookups = true;
	/* 4 KB per mbuf without hugepages (objects do not cross pages). */
	snprintf(mem_mb, sizeof(mem_mb), "%u",
		 256 + (unsigned int)(((uint64_t)mempool * PAGE) >> 20) * 105 /
		 100);
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (rte_eal_init(RTE_DIM(eal_args) - 1, eal_args) < 0) {
		fprintf(stderr, "EAL init failed: %s\n", rte_strerror(rte_errno));
		return EXIT_FAILURE;
	}
	if (lookups)
		bench_lookups();
	if (mempool != 0)
		bench_mempool(mempool);
	rte_eal_cleanup();
	return EXIT_SUCCESS;
}
