/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * The MR cache on the software device: every (lkey, address) a lookup
 * returns goes through the device's translation check (mlx5_sim_dma), keys
 * of invalidated MRs are refused by the device, a queue never returns a key
 * of memory that went away, mempools come and go without leaving an MR or
 * a device object, and the whole-memory key works where the device can page
 * on demand and is refused cleanly where it cannot.
 *
 * EAL runs with --no-huge, i.e. in legacy memory mode: EAL offers no memory
 * events there (test_mr_events.c covers them where hugepages exist), so
 * memory going away is told with mlx5_mr_ext_unregister(), the path
 * rte_dev_dma_unmap() takes.
 */

#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include <rte_dev.h>
#include <rte_malloc.h>
#include <rte_memory.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>
#include <rte_random.h>

#include <mlx5_common_mr.h>
#include <mlx5_common_mr_private.h>
#include <rte_pmd_mlx5.h>

#include "mlx5_test.h"
#include "mlx5_test_mr.h"
#include "mlx5_test_sim.h"

#define CARD 60
#define PAGE ((size_t)4096)

static struct mlx5_common_device *cdev;
static struct mlx5_mr_ctrl ctrl;

/* vHCAs of card 60 the cases use. */
#define VHCAS 7

static int
mr_case_setup(void)
{
	/* The previous case's teardown left nothing on any vHCA. */
	for (uint16_t v = 0; v < VHCAS; v++)
		if (sim_live(CARD, v) > 0 || sim_reclaimed(CARD, v) > 0) {
			printf("    vHCA %u: %ld objects alive, %ld reclaimed after the last teardown\n",
			       v, sim_live(CARD, v), sim_reclaimed(CARD, v));
			return TEST_FAILED;
		}
	if (sim_probe("mlx5_sim0", "card=60,vhca_id=0") != 0)
		return TEST_FAILED;
	cdev = sim_cdev("mlx5_sim0");
	if (cdev == NULL || mlx5_mr_ctrl_init(&ctrl, cdev, SOCKET_ID_ANY) != 0)
		return TEST_FAILED;
	return TEST_SUCCESS;
}

static void
mr_case_teardown(void)
{
	mlx5_mr_ctrl_free(&ctrl);
	sim_remove("mlx5_sim3");
	sim_remove("mlx5_sim2");
	sim_remove("mlx5_sim1");
	sim_remove("mlx5_sim0");
}

/*
 * The device moves @len bytes at @addr through @lkey (the translation check
 * of every access): reads them, or writes @pattern over them. 0 or a
 * negative errno; @len 0 checks the key only.
 */
static int
dev_dma(struct mlx5_common_device *d, uint32_t lkey, uintptr_t addr,
	size_t len, bool write, uint8_t pattern)
{
	uint8_t buf[PAGE];
	uint8_t syn;
	int ret;

	memset(buf, pattern, sizeof(buf));
	do {
		size_t n = RTE_MIN(len, sizeof(buf));

		ret = mlx5_sim_dma(d->ctx, d->pdn, lkey, addr, buf, n, write,
				   &syn);
		addr += n;
		len -= n;
	} while (ret == 0 && len > 0);
	return ret;
}

static int
dev_read(struct mlx5_common_device *d, uint32_t lkey, uintptr_t addr,
	 size_t len)
{
	return dev_dma(d, lkey, addr, len, false, 0);
}

static int
dev_write(struct mlx5_common_device *d, uint32_t lkey, uintptr_t addr,
	  size_t len, uint8_t pattern)
{
	return dev_dma(d, lkey, addr, len, true, pattern);
}

static long
dev_mrs(uint16_t vhca)
{
	struct mlx5_sim_stats st;

	if (mlx5_sim_vhca_stats(CARD, vhca, &st) != 0)
		return -1;
	return (long)st.mrs;
}

/* Remove @name: nothing alive on vHCA @vhca, nothing reclaimed (leaked). */
static int
remove_leaves_nothing(const char *name, uint16_t vhca)
{
	TEST_ASSERT_SUCCESS(sim_remove(name), "remove %s", name);
	TEST_ASSERT_EQUAL(sim_live(CARD, vhca), 0, "objects left on %s", name);
	TEST_ASSERT_EQUAL(sim_reclaimed(CARD, vhca), 0,
			  "objects %s leaked to the context close", name);
	return TEST_SUCCESS;
}

/* Nothing registered any more, in the driver nor on the device. */
static int
no_mr_left(struct mlx5_common_device *d, uint16_t vhca)
{
	TEST_ASSERT_EQUAL(mr_stats(d).mrs, 0, "MRs left in the driver");
	TEST_ASSERT_EQUAL(dev_mrs(vhca), 0, "MRs left on the device");
	return TEST_SUCCESS;
}

/* Unregister the ranges of @buf's @len bytes: nothing left, anywhere. */
static int
release_ranges(uint8_t *buf, size_t len)
{
	TEST_ASSERT_SUCCESS(mlx5_mr_ext_unregister(cdev, buf, len), "");
	TEST_ASSERT_SUCCESS(no_mr_left(cdev, 0), "");
	free(buf);
	return TEST_SUCCESS;
}

/* Random addresses of DPDK memory: registered on demand, device agrees. */
static int
test_lookup_dpdk_memory(void)
{
	size_t len = 1 << 20;
	uint8_t *a = rte_malloc(NULL, len, PAGE);
	uint8_t *b = rte_malloc(NULL, len, PAGE);
	uint32_t lkey, first = 0;

	TEST_ASSERT(a != NULL && b != NULL, "rte_malloc");
	memset(a, 0, len);
	for (unsigned int i = 0; i < 2000; i++) {
		uint8_t *buf = (i & 1) ? a : b;
		uintptr_t addr = (uintptr_t)buf + rte_rand_max(len - 64);

		lkey = mlx5_mr_addr2lkey(&ctrl, addr);
		TEST_ASSERT(lkey != MLX5_MR_LKEY_INVALID, "lookup %u: %s", i,
			    rte_strerror(rte_errno));
		TEST_ASSERT_SUCCESS(dev_read(cdev, lkey, addr, 64),
				    "device refuses (0x%08x, %#lx)", lkey,
				    (unsigned long)addr);
		first = first ? first : lkey;
	}
	/* The device really moves bytes through the key. */
	TEST_ASSERT_SUCCESS(dev_write(cdev, first, (uintptr_t)a + 100, 64, 0xa5),
			    "");
	TEST_ASSERT(a[99] == 0 && a[100] == 0xa5 && a[163] == 0xa5 &&
		    a[164] == 0, "the bytes landed where they should");
	/* mr_ext_memseg_en (default): one MR over the whole memory chunk. */
	TEST_ASSERT_EQUAL(mr_stats(cdev).mrs, 1, "one MR for all of it");
	TEST_ASSERT_EQUAL(mr_stats(cdev).created, 1, "");
	TEST_ASSERT_EQUAL(dev_mrs(0), 1, "and one on the device");
	rte_free(a);
	rte_free(b);
	return TEST_SUCCESS;
}

/* mr_ext_memseg_en=0: an MR covers its memory segment only. */
static int
test_lookup_memseg_only(void)
{
	struct mlx5_common_device *d;
	struct mlx5_mr_ctrl c;
	uint8_t *a = rte_malloc(NULL, 4 * PAGE, PAGE);
	uintptr_t p = (uintptr_t)a;
	uint32_t k0, k1;

	TEST_ASSERT_NOT_NULL(a, "");
	TEST_ASSERT_SUCCESS(sim_probe("mlx5_sim1",
			    "card=60,vhca_id=1,mr_ext_memseg_en=0"), "");
	d = sim_cdev("mlx5_sim1");
	TEST_ASSERT_SUCCESS(mlx5_mr_ctrl_init(&c, d, SOCKET_ID_ANY), "");
	k0 = mlx5_mr_addr2lkey(&c, p);
	k1 = mlx5_mr_addr2lkey(&c, p + PAGE);
	TEST_ASSERT(k0 != MLX5_MR_LKEY_INVALID && k1 != MLX5_MR_LKEY_INVALID,
		    "");
	TEST_ASSERT(k0 != k1, "two segments, two MRs");
	TEST_ASSERT_EQUAL(mr_stats(d).mrs, 2, "");
	TEST_ASSERT_SUCCESS(dev_read(d, k0, p, PAGE), "the first page");
	TEST_ASSERT(dev_read(d, k0, p, 2 * PAGE) < 0,
		    "the key ends where the segment ends");
	TEST_ASSERT_EQUAL(mlx5_mr_addr2lkey(&c, p + 10), k0, "cached");
	mlx5_mr_ctrl_free(&c);
	rte_free(a);
	return TEST_SUCCESS;
}

/* Memory the driver may not register on its own: a clear error. */
static int
test_lookup_unregistered(void)
{
	long mrs = dev_mrs(0);
	uint8_t *buf = aligned_alloc(PAGE, 8 * PAGE);
	uint32_t lkey, old;
	const char *log;

	TEST_ASSERT_NOT_NULL(buf, "");
	mlx5_test_log_capture_start();
	lkey = mlx5_mr_addr2lkey(&ctrl, (uintptr_t)buf + 10);
	log = mlx5_test_log_capture_stop();
	TEST_ASSERT_EQUAL(lkey, MLX5_MR_LKEY_INVALID, "malloc'd memory");
	TEST_ASSERT_EQUAL(rte_errno, ENOENT, "");
	TEST_ASSERT(strstr(log, "not DPDK memory") != NULL, "says why");
	TEST_ASSERT(strstr(log, "mlx5_mr_ext_register") != NULL,
		    "says what to do");
	TEST_ASSERT_EQUAL(dev_mrs(0), mrs, "nothing registered");
	/* Registered explicitly, it is found and the device agrees. */
	TEST_ASSERT_SUCCESS(mlx5_mr_ext_register(cdev, buf, 8 * PAGE), "");
	lkey = mlx5_mr_addr2lkey(&ctrl, (uintptr_t)buf + 5 * PAGE);
	TEST_ASSERT(lkey != MLX5_MR_LKEY_INVALID, "");
	TEST_ASSERT_SUCCESS(dev_write(cdev, lkey, (uintptr_t)buf, PAGE, 0x3c),
			    "");
	TEST_ASSERT(buf[PAGE - 1] == 0x3c, "");
	old = lkey;
	/* Unregistered, the key dies on the device and in every cache. */
	TEST_ASSERT_SUCCESS(mlx5_mr_ext_unregister(cdev, buf, 8 * PAGE), "");
	TEST_ASSERT_EQUAL(dev_read(cdev, old, (uintptr_t)buf, 64), -ENOENT,
			  "the device refuses the old key");
	lkey = mlx5_mr_addr2lkey(&ctrl, (uintptr_t)buf + 5 * PAGE);
	TEST_ASSERT_EQUAL(lkey, MLX5_MR_LKEY_INVALID,
			  "no stale key from the queue's cache");
	TEST_ASSERT_EQUAL(dev_mrs(0), mrs, "");
	free(buf);
	return TEST_SUCCESS;
}

static int
test_ext_register_errors(void)
{
	struct mlx5_mr_stats before = mr_stats(cdev);
	uint8_t *buf = aligned_alloc(PAGE, 4 * PAGE);
	void *hole;

	TEST_ASSERT_NOT_NULL(buf, "");
	TEST_ASSERT_EQUAL(mlx5_mr_ext_register(cdev, NULL, PAGE), -EINVAL, "");
	TEST_ASSERT_EQUAL(rte_errno, EINVAL, "");
	TEST_ASSERT_EQUAL(mlx5_mr_ext_register(cdev, buf, 0), -EINVAL, "");
	TEST_ASSERT_EQUAL(mlx5_mr_ext_register(cdev, (void *)(UINTPTR_MAX - 10),
					       100), -EINVAL, "wraps");
	TEST_ASSERT_EQUAL(mlx5_mr_ext_register(NULL, buf, PAGE), -EINVAL, "");
	hole = mmap(NULL, 2 * PAGE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS,
		    -1, 0);
	TEST_ASSERT(hole != MAP_FAILED, "");
	munmap(hole, 2 * PAGE);
	TEST_ASSERT_EQUAL(mlx5_mr_ext_register(cdev, hole, 2 * PAGE), -EFAULT,
			  "unmapped: the device refuses");
	TEST_ASSERT_SUCCESS(mlx5_mr_ext_register(cdev, buf, 4 * PAGE), "");
	TEST_ASSERT_EQUAL(mlx5_mr_ext_register(cdev, buf, 4 * PAGE), -EEXIST,
			  "twice");
	TEST_ASSERT_EQUAL(mlx5_mr_ext_unregister(cdev, buf, 0), -EINVAL, "");
	TEST_ASSERT_EQUAL(mlx5_mr_ext_unregister(NULL, buf, PAGE), -EINVAL,
			  "");
	TEST_ASSERT_SUCCESS(mlx5_mr_ext_unregister(cdev, buf, 4 * PAGE), "");
	TEST_ASSERT_EQUAL(mlx5_mr_ext_unregister(cdev, buf, 4 * PAGE), -ENOENT,
			  "twice");
	TEST_ASSERT_EQUAL(rte_errno, ENOENT, "");
	TEST_ASSERT_EQUAL(mr_stats(cdev).mrs, before.mrs, "nothing left");
	TEST_ASSERT_EQUAL(dev_mrs(0), before.mrs, "");
	TEST_ASSERT(mlx5_mr_ctrl_init(NULL, cdev, 0) == -EINVAL, "");
	TEST_ASSERT(mlx5_mr_stats(cdev, NULL) == -EINVAL, "");
	free(buf);
	return TEST_SUCCESS;
}

/*
 * Memory of rte_extmem_register(): EAL never says when it goes, so the
 * driver does not register it on its own; rte_dev_dma_map() does.
 */
static int
test_extmem_dma_map(void)
{
	struct rte_device *dev = sim_eal_dev("mlx5_sim0");
	size_t len = 16 * PAGE;
	void *area = mmap(NULL, len, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uintptr_t addr = (uintptr_t)area + 5 * PAGE + 12;
	const char *log;
	uint32_t lkey;

	TEST_ASSERT(area != MAP_FAILED, "");
	TEST_ASSERT_SUCCESS(rte_extmem_register(area, len, NULL, 0, PAGE), "");
	mlx5_test_log_capture_start();
	lkey = mlx5_mr_addr2lkey(&ctrl, addr);
	log = mlx5_test_log_capture_stop();
	TEST_ASSERT_EQUAL(lkey, MLX5_MR_LKEY_INVALID, "not on its own");
	TEST_ASSERT(strstr(log, "rte_extmem_register") != NULL, "says why");
	TEST_ASSERT(strstr(log, "rte_dev_dma_map") != NULL, "and what to do");
	TEST_ASSERT_SUCCESS(rte_dev_dma_map(dev, area, RTE_BAD_IOVA, len), "");
	lkey = mlx5_mr_addr2lkey(&ctrl, addr);
	TEST_ASSERT(lkey != MLX5_MR_LKEY_INVALID, "");
	TEST_ASSERT_SUCCESS(dev_write(cdev, lkey, (uintptr_t)area, len, 0x42),
			    "the whole area");
	TEST_ASSERT(((uint8_t *)area)[len - 1] == 0x42, "");
	TEST_ASSERT_SUCCESS(rte_dev_dma_unmap(dev, area, RTE_BAD_IOVA, len), "");
	TEST_ASSERT_EQUAL(dev_read(cdev, lkey, addr, 0), -ENOENT,
			  "the device refuses the key once unmapped");
	TEST_ASSERT_EQUAL(mlx5_mr_addr2lkey(&ctrl, addr), MLX5_MR_LKEY_INVALID,
			  "");
	TEST_ASSERT(rte_dev_dma_unmap(dev, area, RTE_BAD_IOVA, len) < 0,
		    "twice");
	TEST_ASSERT_SUCCESS(rte_extmem_unregister(area, len), "");
	TEST_ASSERT_EQUAL(mr_stats(cdev).mrs, 0, "");
	munmap(area, len);
	return TEST_SUCCESS;
}

/* Every level of a queue's cache is flushed when the generation moves. */
static int
test_generation_flush(void)
{
	uint8_t *buf = aligned_alloc(PAGE, 16 * PAGE);
	uintptr_t r[6];
	uint32_t keys[6];
	uint32_t gen;

	TEST_ASSERT_NOT_NULL(buf, "");
	/* Six ranges: more than the linear cache holds. */
	for (int i = 0; i < 6; i++) {
		r[i] = (uintptr_t)buf + 2 * i * PAGE;
		TEST_ASSERT_SUCCESS(mlx5_mr_ext_register(cdev, (void *)r[i],
							 PAGE), "");
	}
	for (int round = 0; round < 2; round++)
		for (int i = 0; i < 6; i++) {
			keys[i] = mlx5_mr_addr2lkey(&ctrl, r[i] + 8);
			TEST_ASSERT(keys[i] != MLX5_MR_LKEY_INVALID, "");
		}
	TEST_ASSERT_EQUAL(ctrl.table.len, 6, "the queue table learned them");
	TEST_ASSERT(mlx5_mr_addr2lkey(&ctrl, r[0] + PAGE) ==
		    MLX5_MR_LKEY_INVALID, "the gap between them is no one's");
	gen = mr_stats(cdev).gen;
	/* Range 0 goes (most recent, linear and table), range 5 too. */
	TEST_ASSERT_SUCCESS(mlx5_mr_ext_unregister(cdev, (void *)r[0], PAGE),
			    "");
	TEST_ASSERT_SUCCESS(mlx5_mr_ext_unregister(cdev, (void *)r[5], PAGE),
			    "");
	TEST_ASSERT(mr_stats(cdev).gen != gen, "the generation moved");
	TEST_ASSERT_EQUAL(mlx5_mr_addr2lkey(&ctrl, r[0] + 8),
			  MLX5_MR_LKEY_INVALID, "gone from every level");
	TEST_ASSERT_EQUAL(mlx5_mr_addr2lkey(&ctrl, r[5] + 8),
			  MLX5_MR_LKEY_INVALID, "");
	for (int i = 1; i < 5; i++) {
		uint32_t k = mlx5_mr_addr2lkey(&ctrl, r[i] + 8);

		TEST_ASSERT_EQUAL(k, keys[i], "the others survive");
		TEST_ASSERT_SUCCESS(dev_read(cdev, k, r[i], PAGE), "");
	}
	TEST_ASSERT_EQUAL(dev_read(cdev, keys[0], r[0], 8), -ENOENT, "");
	for (int i = 1; i < 5; i++)
		TEST_ASSERT_SUCCESS(mlx5_mr_ext_unregister(cdev, (void *)r[i],
							   PAGE), "");
	free(buf);
	return TEST_SUCCESS;
}

/* Many MRs: the global table, a full queue table, the partition. */
static int
many_ranges(unsigned int n)
{
	uint8_t *buf = aligned_alloc(PAGE, 2 * n * PAGE);
	unsigned int i;

	TEST_ASSERT_NOT_NULL(buf, "");
	/* Every other page, in a shuffled order. */
	for (i = 0; i < n; i++) {
		unsigned int k = (i * 7919) % n;

		TEST_ASSERT_SUCCESS(mlx5_mr_ext_register(cdev,
				    buf + 2 * k * PAGE, PAGE), "range %u", k);
	}
	TEST_ASSERT_EQUAL(mr_stats(cdev).segments, n, "");
	for (i = 0; i < 5000; i++) {
		unsigned int k = rte_rand_max(n);
		uintptr_t addr = (uintptr_t)buf + 2 * k * PAGE +
				 rte_rand_max(PAGE);
		uint32_t lkey = mlx5_mr_addr2lkey(&ctrl, addr);

		TEST_ASSERT(lkey != MLX5_MR_LKEY_INVALID, "range %u", k);
		TEST_ASSERT_SUCCESS(dev_read(cdev, lkey, addr & ~(PAGE - 1),
					     PAGE), "range %u", k);
		TEST_ASSERT_EQUAL(mlx5_mr_addr2lkey(&ctrl, addr + PAGE -
						    (addr & (PAGE - 1))),
				  MLX5_MR_LKEY_INVALID, "gap after %u", k);
	}
	TEST_ASSERT_EQUAL(ctrl.table.len, MLX5_MR_QUEUE_TABLE_N,
			  "the queue table filled up and kept working");
	/* A range over ten of them and their gaps: it fills the gaps only. */
	TEST_ASSERT_SUCCESS(mlx5_mr_ext_register(cdev, buf, 20 * PAGE), "");
	TEST_ASSERT_EQUAL(mr_stats(cdev).segments, n + 10, "");
	for (uintptr_t a = (uintptr_t)buf; a < (uintptr_t)buf + 20 * PAGE;
	     a += PAGE / 2) {
		uint32_t lkey = mlx5_mr_addr2lkey(&ctrl, a);

		TEST_ASSERT(lkey != MLX5_MR_LKEY_INVALID, "");
		TEST_ASSERT_SUCCESS(dev_read(cdev, lkey, a, PAGE / 2), "");
	}
	/* Without the big one, the gaps are gaps again. */
	TEST_ASSERT_SUCCESS(mlx5_mr_ext_unregister(cdev, buf + PAGE, PAGE),
			    "");
	TEST_ASSERT_EQUAL(mr_stats(cdev).segments, n, "");
	TEST_ASSERT_EQUAL(mlx5_mr_addr2lkey(&ctrl, (uintptr_t)buf + PAGE),
			  MLX5_MR_LKEY_INVALID, "");
	TEST_ASSERT(mlx5_mr_addr2lkey(&ctrl, (uintptr_t)buf + 2 * PAGE) !=
		    MLX5_MR_LKEY_INVALID, "");
	return release_ranges(buf, 2 * n * PAGE);
}

static int
test_many_ranges(void)
{
	return many_ranges(1000);
}

/* A global table deep enough for the branch-free search (x86-64). */
static int
test_many_ranges_deep(void)
{
	return many_ranges(3000);
}

/*
 * The global table grows at both ends and in the middle: registered in
 * descending, then ascending, then interleaved order, it keeps every
 * entry through every growth, and the index of explicit MRs finds every
 * duplicate, also after some of them went (their slots closed up).
 */
static int
test_register_orders(void)
{
	const unsigned int n = 3000;
	uint8_t *buf = aligned_alloc(PAGE, 2 * n * PAGE);
	struct mlx5_mr_ctrl c;
	unsigned int i, k;

	TEST_ASSERT_NOT_NULL(buf, "");
	memset(buf, 0, 2 * n * PAGE);
	rte_log_set_level_pattern("pmd.common.mlx5*", RTE_LOG_CRIT);
	/* Ranges n/3..2n/3 descending, then 2n/3..n ascending, then the
	 * first third every other one and the rest. */
	for (k = 2 * n / 3; k-- > n / 3;)
		TEST_ASSERT_SUCCESS(mlx5_mr_ext_register(cdev,
				    buf + 2 * k * PAGE, PAGE), "range %u", k);
	for (k = 2 * n / 3; k < n; k++)
		TEST_ASSERT_SUCCESS(mlx5_mr_ext_register(cdev,
				    buf + 2 * k * PAGE, PAGE), "range %u", k);
	for (i = 0; i < 2; i++)
		for (k = i; k < n / 3; k += 2)
			TEST_ASSERT_SUCCESS(mlx5_mr_ext_register(cdev,
					    buf + 2 * k * PAGE, PAGE),
					    "range %u", k);
	TEST_ASSERT_EQUAL(mr_stats(cdev).segments, n, "no entry lost");
	TEST_ASSERT_EQUAL(mr_stats(cdev).mrs, n, "");
	/* Every one found by a queue that knows nothing, and the device
	 * takes its key. */
	TEST_ASSERT_SUCCESS(mlx5_mr_ctrl_init(&c, cdev, SOCKET_ID_ANY), "");
	for (k = 0; k < n; k++) {
		uintptr_t a = (uintptr_t)buf + 2 * k * PAGE;
		uint32_t lkey;

		mlx5_mr_ctrl_flush(&c);
		lkey = mlx5_mr_addr2lkey(&c, a + k % PAGE);
		TEST_ASSERT(lkey != MLX5_MR_LKEY_INVALID, "range %u", k);
		TEST_ASSERT_SUCCESS(dev_read(cdev, lkey, a, PAGE), "range %u",
				    k);
		TEST_ASSERT_EQUAL(mlx5_mr_addr2lkey(&c, a + PAGE),
				  MLX5_MR_LKEY_INVALID, "gap after %u", k);
	}
	mlx5_mr_ctrl_free(&c);
	/* Duplicates are refused; a range of another length is not one. */
	for (k = 0; k < n; k += 7)
		TEST_ASSERT_EQUAL(mlx5_mr_ext_register(cdev,
				  buf + 2 * k * PAGE, PAGE), -EEXIST,
				  "range %u", k);
	/* Every third one goes: the others are still duplicates, the gone
	 * ones can come back. */
	for (k = 0; k < n; k += 3)
		TEST_ASSERT_SUCCESS(mlx5_mr_ext_unregister(cdev,
				    buf + 2 * k * PAGE, PAGE), "range %u", k);
	for (k = 0; k < n; k++)
		TEST_ASSERT_EQUAL(mlx5_mr_ext_register(cdev,
				  buf + 2 * k * PAGE, PAGE),
				  k % 3 == 0 ? 0 : -EEXIST, "range %u", k);
	TEST_ASSERT_EQUAL(mr_stats(cdev).segments, n, "");
	rte_log_set_level_pattern("pmd.common.mlx5*", RTE_LOG_INFO);
	return release_ranges(buf, 2 * n * PAGE);
}

/*
 * @count random addresses of ranges 0..n-1 (page 2k of @buf, key
 * @keys[k]): each gives its range's key, the page after it none.
 */
static int
check_pages(const uint8_t *buf, const uint32_t *keys, unsigned int n,
	    unsigned int count)
{
	for (unsigned int i = 0; i < count; i++) {
		unsigned int k = rte_rand_max(n);
		uintptr_t a = (uintptr_t)buf + 2 * k * PAGE +
			      rte_rand_max(PAGE);

		TEST_ASSERT_EQUAL(mlx5_mr_addr2lkey(&ctrl, a), keys[k],
				  "range %u", k);
		TEST_ASSERT_EQUAL(mlx5_mr_addr2lkey(&ctrl, a + PAGE -
						    (a & (PAGE - 1))),
				  MLX5_MR_LKEY_INVALID, "gap after %u", k);
	}
	return TEST_SUCCESS;
}

/* Ranges in a queue's overflow table, merged or waiting. */
static uint32_t
overflow_len(const struct mlx5_mr_ctrl *c)
{
	return c->overflow->table.len + c->overflow->pending.len;
}

/*
 * A queue's own levels: its table's tree is rebuilt in batches (a range
 * learned since is found all the same), a flush empties it at once, and
 * what comes after 255 ranges goes to the queue's overflow table, where
 * every key stays right until memory goes away.
 */
static int
test_queue_levels(void)
{
	const unsigned int n = 1000;
	uint8_t *buf = aligned_alloc(PAGE, 2 * n * PAGE);
	uint32_t *keys = calloc(n, sizeof(*keys));
	unsigned int k;

	TEST_ASSERT(buf != NULL && keys != NULL, "");
	memset(buf, 0, 2 * n * PAGE);
	for (k = 0; k < n; k++)
		TEST_ASSERT_SUCCESS(mlx5_mr_ext_register(cdev,
				    buf + 2 * k * PAGE, PAGE), "range %u", k);
	/* Fewer than a batch: in the sorted ranges, not yet in the tree. */
	for (k = 0; k < MLX5_MR_QT_BATCH - 1; k++)
		keys[k] = mlx5_mr_addr2lkey(&ctrl, (uintptr_t)buf +
					    2 * k * PAGE);
	TEST_ASSERT_EQUAL(ctrl.table.len, MLX5_MR_QT_BATCH - 1, "");
	TEST_ASSERT_EQUAL(ctrl.table.stale, MLX5_MR_QT_BATCH - 1, "");
	TEST_ASSERT(ctrl.table.nodes != ctrl.table.own, "tree still empty");
	TEST_ASSERT_EQUAL(mlx5_mr_addr2lkey(&ctrl, (uintptr_t)buf + 8),
			  keys[0], "a stale range is found");
	TEST_ASSERT_EQUAL(ctrl.table.stale, 0, "and the tree rebuilt");
	TEST_ASSERT(ctrl.table.nodes == ctrl.table.own, "");
	/* Beyond the table: the overflow table. */
	for (k = MLX5_MR_QT_BATCH - 1; k < n; k++)
		keys[k] = mlx5_mr_addr2lkey(&ctrl, (uintptr_t)buf +
					    2 * k * PAGE);
	TEST_ASSERT_EQUAL(ctrl.table.len, MLX5_MR_QUEUE_TABLE_N, "");
	TEST_ASSERT_NOT_NULL(ctrl.overflow, "");
	TEST_ASSERT_EQUAL(overflow_len(&ctrl), n - MLX5_MR_QUEUE_TABLE_N, "");
	TEST_ASSERT_SUCCESS(check_pages(buf, keys, n, 5000), "");
	TEST_ASSERT_SUCCESS(dev_read(cdev, keys[n - 1],
				     (uintptr_t)buf + 2 * (n - 1) * PAGE, PAGE),
			    "");
	TEST_ASSERT_EQUAL(overflow_len(&ctrl), n - MLX5_MR_QUEUE_TABLE_N,
			  "nothing learned twice");
	/* A range of the overflow goes: never returned again, its key dead
	 * on the device; the queue's levels were emptied. */
	k = n - 3;
	TEST_ASSERT_SUCCESS(mlx5_mr_ext_unregister(cdev, buf + 2 * k * PAGE,
						   PAGE), "");
	rte_log_set_level_pattern("pmd.common.mlx5*", RTE_LOG_CRIT);
	TEST_ASSERT_EQUAL(mlx5_mr_addr2lkey(&ctrl, (uintptr_t)buf +
					    2 * k * PAGE),
			  MLX5_MR_LKEY_INVALID, "");
	rte_log_set_level_pattern("pmd.common.mlx5*", RTE_LOG_INFO);
	TEST_ASSERT(dev_read(cdev, keys[k], (uintptr_t)buf + 2 * k * PAGE,
			     64) < 0, "");
	TEST_ASSERT_EQUAL(ctrl.table.len, 0, "flushed");
	TEST_ASSERT_EQUAL(overflow_len(&ctrl), 0, "flushed");
	TEST_ASSERT_EQUAL(mlx5_mr_addr2lkey(&ctrl, (uintptr_t)buf +
					    2 * (k + 1) * PAGE),
			  keys[k + 1], "the others survive");
	free(keys);
	return release_ranges(buf, 2 * n * PAGE);
}

/*
 * A queue table's search takes as many steps as its ranges need
 * (ceil(log2(n + 1))): for every size from 1 to 40 and some up to 255,
 * after a flush, the ranges learned in a scattered order, the tree
 * rebuilt at that size (by a lookup of a range it does not show yet);
 * then every range gives its key through the tree, the page after it
 * none.
 */
static int
test_queue_table_depths(void)
{
	static const unsigned int big[] = { 63, 64, 100, 127, 128, 200, 254,
					    255 };
	const unsigned int n_max = MLX5_MR_QUEUE_TABLE_N;
	uint8_t *buf = aligned_alloc(PAGE, 2 * n_max * PAGE);
	uint32_t *keys = calloc(n_max, sizeof(*keys));
	unsigned int n, k, i;

	TEST_ASSERT(buf != NULL && keys != NULL, "");
	memset(buf, 0, 2 * n_max * PAGE);
	for (k = 0; k < n_max; k++)
		TEST_ASSERT_SUCCESS(mlx5_mr_ext_register(cdev,
				    buf + 2 * k * PAGE, PAGE), "range %u", k);
	rte_log_set_level_pattern("pmd.common.mlx5*", RTE_LOG_CRIT);
	for (i = 0; i < 40 + RTE_DIM(big); i++) {
		n = i < 40 ? i + 1 : big[i - 40];
		mlx5_mr_ctrl_flush(&ctrl);
		for (unsigned int j = 0; j < n; j++) {
			k = (j * 7919) % n;
			keys[k] = mlx5_mr_addr2lkey(&ctrl, (uintptr_t)buf +
						    2 * k * PAGE + 8);
			TEST_ASSERT(keys[k] != MLX5_MR_LKEY_INVALID,
				    "%u ranges: range %u", n, k);
		}
		TEST_ASSERT_EQUAL(ctrl.table.len, n, "");
		/*
		 * The fifth learned from the last: past the linear cache and
		 * the two recent slots from 7 ranges on, and not in the tree
		 * rebuilt at 128 (none of these sizes is 129 to 132).
		 */
		k = n >= 5 ? ((n - 5) * 7919) % n : 0;
		TEST_ASSERT_EQUAL(mlx5_mr_addr2lkey(&ctrl, (uintptr_t)buf +
						    2 * k * PAGE + 16),
				  keys[k], "%u ranges: range %u", n, k);
		if (n >= 7)
			TEST_ASSERT(ctrl.table.stale == 0 &&
				    ctrl.table.depth ==
					    32u - (uint32_t)__builtin_clz(n),
				    "%u ranges: the tree rebuilt, depth %u", n,
				    ctrl.table.depth);
		for (k = 0; k < n; k++) {
			uintptr_t a = (uintptr_t)buf + 2 * k * PAGE + 32;

			TEST_ASSERT_EQUAL(mlx5_mr_addr2lkey(&ctrl, a), keys[k],
					  "%u ranges: range %u", n, k);
			TEST_ASSERT_EQUAL(mlx5_mr_addr2lkey(&ctrl, a + PAGE),
					  MLX5_MR_LKEY_INVALID,
					  "%u ranges: gap after %u", n, k);
		}
	}
	rte_log_set_level_pattern("pmd.common.mlx5*", RTE_LOG_INFO);
	free(keys);
	return release_ranges(buf, 2 * n_max * PAGE);
}

/*
 * Two ranges used in turn settle in the queue's two most recent slots,
 * wherever the table put them, and neither outlives its memory; ranges
 * learned beyond the queue table in no order are merged into the
 * overflow table in batches that keep it sorted and disjoint.
 */
static int
test_queue_slots_and_batches(void)
{
	const unsigned int n = 1000;
	uint8_t *buf = aligned_alloc(PAGE, 2 * n * PAGE);
	uint32_t *keys = calloc(n, sizeof(*keys));
	const struct mlx5_mr_table *t;
	unsigned int k, a = 3, b = 7;

	TEST_ASSERT(buf != NULL && keys != NULL, "");
	memset(buf, 0, 2 * n * PAGE);
	for (k = 0; k < n; k++)
		TEST_ASSERT_SUCCESS(mlx5_mr_ext_register(cdev,
				    buf + 2 * k * PAGE, PAGE), "range %u", k);
	/* Learned in a scattered order: the overflow's batches go in
	 * between entries already merged, not only at its end. */
	for (unsigned int i = 0; i < n; i++) {
		k = (unsigned int)(((uint64_t)i * 7919) % n);
		keys[k] = mlx5_mr_addr2lkey(&ctrl, (uintptr_t)buf +
					    2 * k * PAGE + 8);
		TEST_ASSERT(keys[k] != MLX5_MR_LKEY_INVALID, "range %u", k);
	}
	TEST_ASSERT_EQUAL(overflow_len(&ctrl), n - MLX5_MR_QUEUE_TABLE_N, "");
	TEST_ASSERT(ctrl.overflow->table.len >= n - MLX5_MR_QUEUE_TABLE_N -
		    MLX5_MR_OVERFLOW_BATCH, "merged in batches");
	t = &ctrl.overflow->table;
	for (unsigned int i = 0; i + 1 < t->len; i++)
		TEST_ASSERT(t->ends[i] <= t->starts[i + 1] &&
			    t->starts[i] < t->ends[i], "entry %u in order", i);
	TEST_ASSERT_EQUAL(t->starts[t->len], UINTPTR_MAX, "end marked");
	TEST_ASSERT_SUCCESS(check_pages(buf, keys, n, 4000), "");
	TEST_ASSERT_EQUAL(overflow_len(&ctrl), n - MLX5_MR_QUEUE_TABLE_N,
			  "nothing learned twice");
	/* Two in turn: after a few rounds both are in the two slots. */
	for (int round = 0; round < 4; round++) {
		TEST_ASSERT_EQUAL(mlx5_mr_addr2lkey(&ctrl, (uintptr_t)buf +
						    2 * a * PAGE + round),
				  keys[a], "");
		TEST_ASSERT_EQUAL(mlx5_mr_addr2lkey(&ctrl, (uintptr_t)buf +
						    2 * b * PAGE + round),
				  keys[b], "");
	}
	TEST_ASSERT(ctrl.mru_lo[0] + 1 == (uintptr_t)buf + 2 * b * PAGE &&
		    ctrl.mru_lo[1] + 1 == (uintptr_t)buf + 2 * a * PAGE,
		    "the last one inline, the other second");
	TEST_ASSERT_EQUAL(mlx5_mr_addr2lkey(&ctrl, (uintptr_t)buf +
					    2 * a * PAGE + 99), keys[a], "");
	TEST_ASSERT(ctrl.mru_lo[0] + 1 == (uintptr_t)buf + 2 * a * PAGE,
		    "a hit in the second slot moves it first");
	/* Either slot: once freed, never returned again. */
	TEST_ASSERT_SUCCESS(mlx5_mr_ext_unregister(cdev, buf + 2 * b * PAGE,
						   PAGE), "");
	rte_log_set_level_pattern("pmd.common.mlx5*", RTE_LOG_CRIT);
	TEST_ASSERT_EQUAL(mlx5_mr_addr2lkey(&ctrl, (uintptr_t)buf +
					    2 * b * PAGE + 8),
			  MLX5_MR_LKEY_INVALID, "second slot");
	TEST_ASSERT_EQUAL(mlx5_mr_addr2lkey(&ctrl, (uintptr_t)buf +
					    2 * a * PAGE + 8), keys[a], "");
	TEST_ASSERT_SUCCESS(mlx5_mr_ext_unregister(cdev, buf + 2 * a * PAGE,
						   PAGE), "");
	TEST_ASSERT_EQUAL(mlx5_mr_addr2lkey(&ctrl, (uintptr_t)buf +
					    2 * a * PAGE + 8),
			  MLX5_MR_LKEY_INVALID, "first slot");
	rte_log_set_level_pattern("pmd.common.mlx5*", RTE_LOG_INFO);
	TEST_ASSERT(dev_read(cdev, keys[a], (uintptr_t)buf + 2 * a * PAGE,
			     64) < 0, "");
	free(keys);
	return release_ranges(buf, 2 * n * PAGE);
}

static int
test_private_iova(void)
{
	uint64_t flag = rte_pmd_mlx5_private_iova_flag();
	uint8_t *data = rte_malloc(NULL, PAGE, PAGE);
	struct rte_mbuf m;
	uint32_t lkey;

	TEST_ASSERT(flag != 0, "registered at probe");
	TEST_ASSERT_EQUAL(ctrl.private_iova_flag, flag, "cached by the queue");
	TEST_ASSERT_NOT_NULL(data, "");
	memset(&m, 0, sizeof(m));
	/* A buffer address no MR covers: only buf_iova may be used. */
	m.buf_addr = (void *)(uintptr_t)0x1000;
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5_mbuf_set_private_iova(&m,
			    rte_pmd_mlx5_mkey_to_iova(0x123456)), "");
	TEST_ASSERT_EQUAL(mlx5_mr_mb2lkey(&ctrl, &m), 0x123456,
			  "the key from buf_iova, no lookup");
	TEST_ASSERT_EQUAL(mr_stats(cdev).created, 0, "nothing registered");
	/* Without the flag, the buffer is looked up. */
	m.ol_flags = 0;
	m.buf_addr = data;
	m.pool = NULL;
	lkey = mlx5_mr_mb2lkey(&ctrl, &m);
	TEST_ASSERT(lkey != MLX5_MR_LKEY_INVALID && lkey != 0x123456, "");
	TEST_ASSERT_SUCCESS(dev_read(cdev, lkey, (uintptr_t)data, PAGE), "");
	rte_free(data);
	return TEST_SUCCESS;
}

/* Check every mbuf of @mp: its key reaches its whole buffer. */
static int
check_pool_mbufs(struct mlx5_common_device *d, struct mlx5_mr_ctrl *c,
		 struct rte_mempool *mp, unsigned int n)
{
	struct rte_mbuf **mbs = calloc(n, sizeof(*mbs));
	int ret = TEST_SUCCESS;

	if (mbs == NULL || rte_pktmbuf_alloc_bulk(mp, mbs, n) != 0) {
		free(mbs);
		printf("    cannot allocate %u mbufs\n", n);
		return TEST_FAILED;
	}
	for (unsigned int i = 0; i < n && ret == TEST_SUCCESS; i++) {
		uint32_t lkey = mlx5_mr_mb2lkey(c, mbs[i]);
		uintptr_t addr = (uintptr_t)mbs[i]->buf_addr;

		if (lkey == MLX5_MR_LKEY_INVALID ||
		    dev_write(d, lkey, addr, mbs[i]->buf_len, (uint8_t)i) != 0 ||
		    ((uint8_t *)mbs[i]->buf_addr)[mbs[i]->buf_len - 1] !=
		    (uint8_t)i) {
			printf("    mbuf %u: lkey 0x%08x refused for %#lx +%u\n",
			       i, lkey, (unsigned long)addr, mbs[i]->buf_len);
			ret = TEST_FAILED;
		}
	}
	rte_pktmbuf_free_bulk(mbs, n);
	free(mbs);
	return ret;
}

/* A pool registers itself when ready; its mbufs use its MR. */
static int
test_mempool_events(void)
{
	struct mlx5_mr_stats st;
	struct rte_mempool *mp;
	struct rte_mbuf *m;
	uint32_t lkey;

	TEST_ASSERT(mr_stats(cdev).mempool_events, "mr_mempool_reg_en default");
	mp = rte_pktmbuf_pool_create("mr_events", 512, 0, 0,
				     RTE_MBUF_DEFAULT_BUF_SIZE, SOCKET_ID_ANY);
	TEST_ASSERT_NOT_NULL(mp, "");
	st = mr_stats(cdev);
	TEST_ASSERT_EQUAL(st.mempools, 1, "registered when ready");
	TEST_ASSERT_EQUAL(st.mrs, mp->nb_mem_chunks, "one MR per chunk");
	TEST_ASSERT_EQUAL(check_pool_mbufs(cdev, &ctrl, mp, 512), TEST_SUCCESS,
			  "");
	TEST_ASSERT_EQUAL(mr_stats(cdev).created, st.created,
			  "mbufs found their pool's MR: nothing on demand");
	m = rte_pktmbuf_alloc(mp);
	lkey = mlx5_mr_mb2lkey(&ctrl, m);
	rte_pktmbuf_free(m);
	rte_mempool_free(mp);
	st = mr_stats(cdev);
	TEST_ASSERT_EQUAL(st.mempools, 0, "unregistered when destroyed");
	TEST_ASSERT_SUCCESS(no_mr_left(cdev, 0), "");
	TEST_ASSERT_EQUAL(dev_read(cdev, lkey, 0, 0), -ENOENT,
			  "the device refuses the pool's old key");
	return TEST_SUCCESS;
}

/* Create/use/destroy cycles leave zero MRs and zero device objects. */
static int
test_mempool_cycles(void)
{
	long live = sim_live(CARD, 0);

	for (int i = 0; i < 16; i++) {
		char name[32];
		struct rte_mempool *mp;

		snprintf(name, sizeof(name), "mr_cycle%d", i);
		mp = rte_pktmbuf_pool_create(name, 128 + 64 * i, 0, 0,
					     RTE_MBUF_DEFAULT_BUF_SIZE,
					     SOCKET_ID_ANY);
		TEST_ASSERT_NOT_NULL(mp, "cycle %d", i);
		TEST_ASSERT_EQUAL(check_pool_mbufs(cdev, &ctrl, mp, 64),
				  TEST_SUCCESS, "cycle %d", i);
		rte_mempool_free(mp);
		TEST_ASSERT_EQUAL(mr_stats(cdev).mrs, 0, "cycle %d", i);
		TEST_ASSERT_EQUAL(mr_stats(cdev).mempools, 0, "cycle %d", i);
		TEST_ASSERT_EQUAL(sim_live(CARD, 0), live, "cycle %d", i);
	}
	TEST_ASSERT_EQUAL(sim_reclaimed(CARD, 0), 0, "");
	return TEST_SUCCESS;
}

/* mr_mempool_reg_en=0: the class driver registers pools itself. */
static int
test_mempool_explicit(void)
{
	struct mlx5_common_device *d;
	struct rte_mempool *mp, *empty;
	struct mlx5_mr_ctrl c;

	TEST_ASSERT_SUCCESS(sim_probe("mlx5_sim1",
			    "card=60,vhca_id=1,mr_mempool_reg_en=0"), "");
	d = sim_cdev("mlx5_sim1");
	TEST_ASSERT(!mr_stats(d).mempool_events, "");
	mp = rte_pktmbuf_pool_create("mr_explicit", 256, 0, 0,
				     RTE_MBUF_DEFAULT_BUF_SIZE, SOCKET_ID_ANY);
	TEST_ASSERT_NOT_NULL(mp, "");
	TEST_ASSERT_EQUAL(mr_stats(d).mempools, 0, "not by itself");
	TEST_ASSERT_SUCCESS(mlx5_mr_mempool_register(d, mp), "");
	TEST_ASSERT_EQUAL(mr_stats(d).mempools, 1, "");
	TEST_ASSERT_EQUAL(mlx5_mr_mempool_register(d, mp), -EEXIST, "");
	TEST_ASSERT_EQUAL(rte_errno, EEXIST, "");
	TEST_ASSERT_SUCCESS(mlx5_mr_ctrl_init(&c, d, SOCKET_ID_ANY), "");
	TEST_ASSERT_EQUAL(check_pool_mbufs(d, &c, mp, 256), TEST_SUCCESS, "");
	TEST_ASSERT_EQUAL(mr_stats(d).mrs, mp->nb_mem_chunks, "");
	TEST_ASSERT_EQUAL(mlx5_mr_mempool_register(d, NULL), -EINVAL, "");
	TEST_ASSERT_EQUAL(mlx5_mr_mempool_register(NULL, mp), -EINVAL, "");
	empty = rte_mempool_create_empty("mr_empty", 64, 2048, 0, 0,
					 SOCKET_ID_ANY, 0);
	TEST_ASSERT_NOT_NULL(empty, "");
	TEST_ASSERT_EQUAL(mlx5_mr_mempool_register(d, empty), -EINVAL,
			  "not populated");
	TEST_ASSERT_EQUAL(mlx5_mr_mempool_unregister(d, empty), -ENOENT, "");
	rte_mempool_free(empty);
	TEST_ASSERT_SUCCESS(mlx5_mr_mempool_unregister(d, mp), "");
	TEST_ASSERT_EQUAL(mlx5_mr_mempool_unregister(d, mp), -ENOENT, "");
	TEST_ASSERT_EQUAL(mr_stats(d).mrs, 0,
			  "its MRs went (the queue's next lookup re-learns)");
	/* Unregistered, its mbufs are found on demand, still right. */
	TEST_ASSERT_EQUAL(check_pool_mbufs(d, &c, mp, 64), TEST_SUCCESS, "");
	mlx5_mr_ctrl_free(&c);
	rte_mempool_free(mp);
	return TEST_SUCCESS;
}

/* One MR per virtually contiguous chunk of a pool, not per memory chunk. */
static int
test_mempool_chunks(void)
{
	const unsigned int k = 8; /* Objects per chunk. */
	const uint32_t flags = RTE_MEMPOOL_F_NO_IOVA_CONTIG;
	size_t len = (size_t)k * rte_mempool_calc_obj_size(2048, flags, NULL);
	size_t stride = RTE_ALIGN_CEIL(len, PAGE) + PAGE;
	uint8_t *mem = aligned_alloc(PAGE, 3 * stride);

	TEST_ASSERT_NOT_NULL(mem, "");
	for (int gap = 0; gap < 2; gap++) {
		struct rte_mempool *mp;
		char name[32];

		snprintf(name, sizeof(name), "mr_chunks%d", gap);
		mp = rte_mempool_create_empty(name, 3 * k, 2048, 0,
			sizeof(struct rte_pktmbuf_pool_private),
			SOCKET_ID_ANY, flags);
		TEST_ASSERT_NOT_NULL(mp, "");
		TEST_ASSERT_SUCCESS(rte_mempool_set_ops_byname(mp, "ring_mp_mc",
							       NULL), "");
		rte_pktmbuf_pool_init(mp, NULL);
		/* Three chunks, back to back or a page apart. */
		for (int i = 0; i < 3; i++)
			TEST_ASSERT_EQUAL(rte_mempool_populate_iova(mp,
				(char *)mem + i * (gap ? stride : len),
				RTE_BAD_IOVA, len, NULL, NULL), k, "");
		TEST_ASSERT_EQUAL(mp->nb_mem_chunks, 3, "");
		/* A pool without IOVA is no I/O pool: registered by hand. */
		TEST_ASSERT_EQUAL(mr_stats(cdev).mempools, 0, "");
		TEST_ASSERT_SUCCESS(mlx5_mr_mempool_register(cdev, mp), "");
		TEST_ASSERT_EQUAL(mr_stats(cdev).mrs, gap ? 3 : 1,
				  "%s chunks", gap ? "separate" : "adjacent");
		TEST_ASSERT_SUCCESS(mlx5_mr_mempool_unregister(cdev, mp), "");
		rte_mempool_free(mp);
		TEST_ASSERT_EQUAL(mr_stats(cdev).mrs, 0, "");
	}
	free(mem);
	return TEST_SUCCESS;
}

/* A pool of @n mbufs whose data buffers are the pinned area of @ext. */
static struct rte_mempool *
extbuf_pool(const char *name, unsigned int n, struct rte_pktmbuf_extmem *ext)
{
	return rte_pktmbuf_pool_create_extbuf(name, n, 0, 0,
					      RTE_MBUF_DEFAULT_BUF_SIZE,
					      SOCKET_ID_ANY, ext, 1);
}

/* Pinned external buffers: their memory is registered, and shared. */
static int
test_mempool_extbuf_share(void)
{
	const unsigned int n = 256;
	size_t len = n * RTE_MBUF_DEFAULT_BUF_SIZE;
	uint8_t *area = aligned_alloc(PAGE, RTE_ALIGN_CEIL(len, PAGE));
	struct rte_pktmbuf_extmem ext = {
		.buf_ptr = area,
		.buf_iova = (rte_iova_t)(uintptr_t)area,
		.buf_len = len,
		.elt_size = RTE_MBUF_DEFAULT_BUF_SIZE,
	};
	struct rte_mempool *a, *b;
	struct mlx5_mr_stats st;

	TEST_ASSERT_NOT_NULL(area, "");
	/* Alone: the pool registers the buffers' memory, one MR... */
	a = extbuf_pool("mr_ext_a", n, &ext);
	TEST_ASSERT_NOT_NULL(a, "%s", rte_strerror(rte_errno));
	TEST_ASSERT_EQUAL(mr_stats(cdev).mempools, 0,
			  "ready before its mbufs point at the buffers");
	/* ...at the first lookup of one of its mbufs. */
	TEST_ASSERT_EQUAL(check_pool_mbufs(cdev, &ctrl, a, n), TEST_SUCCESS,
			  "");
	st = mr_stats(cdev);
	TEST_ASSERT_EQUAL(st.mempools, 1, "");
	TEST_ASSERT_EQUAL(st.mrs, 1, "the buffers' chunk");
	/* A second pool over the same buffers shares the MR. */
	b = extbuf_pool("mr_ext_b", n, &ext);
	TEST_ASSERT_NOT_NULL(b, "");
	TEST_ASSERT_SUCCESS(mlx5_mr_mempool_register(cdev, b),
			    "explicitly, as a class driver at queue setup");
	TEST_ASSERT_EQUAL(mr_stats(cdev).mempools, 2, "");
	TEST_ASSERT_EQUAL(mr_stats(cdev).mrs, 1, "shared");
	TEST_ASSERT_EQUAL(mr_stats(cdev).created, st.created, "");
	rte_mempool_free(a);
	TEST_ASSERT_EQUAL(mr_stats(cdev).mrs, 1, "b still holds it");
	TEST_ASSERT_EQUAL(check_pool_mbufs(cdev, &ctrl, b, n), TEST_SUCCESS,
			  "");
	rte_mempool_free(b);
	TEST_ASSERT_EQUAL(mr_stats(cdev).mrs, 0, "");
	/* Registered explicitly first: the pool shares that MR. */
	TEST_ASSERT_SUCCESS(mlx5_mr_ext_register(cdev, area,
						 RTE_ALIGN_CEIL(len, PAGE)), "");
	a = extbuf_pool("mr_ext_c", n, &ext);
	TEST_ASSERT_NOT_NULL(a, "");
	TEST_ASSERT_EQUAL(check_pool_mbufs(cdev, &ctrl, a, n), TEST_SUCCESS,
			  "");
	TEST_ASSERT_EQUAL(mr_stats(cdev).mempools, 1, "");
	TEST_ASSERT_EQUAL(mr_stats(cdev).mrs, 1, "the explicit MR, shared");
	rte_mempool_free(a);
	TEST_ASSERT_EQUAL(mr_stats(cdev).mrs, 1,
			  "an explicit MR stays until unregistered");
	TEST_ASSERT_SUCCESS(mlx5_mr_ext_unregister(cdev, area, len), "");
	TEST_ASSERT_SUCCESS(no_mr_left(cdev, 0), "");
	free(area);
	return TEST_SUCCESS;
}

/*
 * A pinned-extbuf pool whose registration at first use is refused: the
 * next misses do not ask the device again until memory changes.
 */
static int
test_mempool_extbuf_refused(void)
{
	const unsigned int n = 64;
	size_t len = RTE_ALIGN_CEIL(n * RTE_MBUF_DEFAULT_BUF_SIZE, PAGE);
	uint8_t *area = aligned_alloc(PAGE, len);
	struct rte_pktmbuf_extmem ext = {
		.buf_ptr = area,
		.buf_iova = (rte_iova_t)(uintptr_t)area,
		.buf_len = len,
		.elt_size = RTE_MBUF_DEFAULT_BUF_SIZE,
	};
	struct mlx5_sim_stats before, after;
	long live = sim_live(CARD, 0);
	struct rte_mempool *mp;
	struct rte_mbuf *m;

	TEST_ASSERT_NOT_NULL(area, "");
	mp = extbuf_pool("mr_ext_refused", n, &ext);
	TEST_ASSERT_NOT_NULL(mp, "");
	m = rte_pktmbuf_alloc(mp);
	TEST_ASSERT_NOT_NULL(m, "");
	TEST_ASSERT_SUCCESS(mlx5_sim_fault_set(CARD, 0, MLX5_CMD_OP_CREATE_MKEY,
					       0, MLX5_CMD_STAT_NO_RES_ERR), "");
	mlx5_mr_ctrl_flush(&ctrl);
	TEST_ASSERT(mlx5_mr_mb2lkey(&ctrl, m) == MLX5_MR_LKEY_INVALID,
		    "the device refuses every registration");
	TEST_ASSERT_SUCCESS(mlx5_sim_vhca_stats(CARD, 0, &before), "");
	for (int i = 0; i < 10; i++)
		TEST_ASSERT(mlx5_mr_mb2lkey(&ctrl, m) == MLX5_MR_LKEY_INVALID,
			    "");
	TEST_ASSERT_SUCCESS(mlx5_sim_vhca_stats(CARD, 0, &after), "");
	TEST_ASSERT_EQUAL(after.commands, before.commands,
			  "no new attempt on every miss");
	TEST_ASSERT_SUCCESS(mlx5_sim_fault_clear(CARD, 0), "");
	rte_pktmbuf_free(m);
	rte_mempool_free(mp);
	/* A new pool over the same buffers gets its own try. */
	mp = extbuf_pool("mr_ext_refused", n, &ext);
	TEST_ASSERT_NOT_NULL(mp, "");
	TEST_ASSERT_EQUAL(check_pool_mbufs(cdev, &ctrl, mp, n), TEST_SUCCESS,
			  "");
	rte_mempool_free(mp);
	TEST_ASSERT_SUCCESS(no_mr_left(cdev, 0), "");
	TEST_ASSERT_EQUAL(sim_live(CARD, 0), live, "");
	free(area);
	return TEST_SUCCESS;
}

/* A registration the device refuses: logged, the pool works on demand. */
static int
test_mempool_refused(void)
{
	struct rte_mempool *mp;
	long live = sim_live(CARD, 0);

	TEST_ASSERT_SUCCESS(mlx5_sim_fault_set(CARD, 0, MLX5_CMD_OP_CREATE_MKEY,
					       1, MLX5_CMD_STAT_NO_RES_ERR), "");
	mlx5_test_log_capture_start();
	mp = rte_pktmbuf_pool_create("mr_refused", 128, 0, 0,
				     RTE_MBUF_DEFAULT_BUF_SIZE, SOCKET_ID_ANY);
	TEST_ASSERT(strstr(mlx5_test_log_capture_stop(),
			   "cannot register mempool mr_refused") != NULL, "");
	TEST_ASSERT_SUCCESS(mlx5_sim_fault_clear(CARD, 0), "");
	TEST_ASSERT_NOT_NULL(mp, "the pool itself is fine");
	TEST_ASSERT_EQUAL(mr_stats(cdev).mempools, 0, "");
	TEST_ASSERT_EQUAL(sim_live(CARD, 0), live, "nothing half-made");
	TEST_ASSERT_EQUAL(check_pool_mbufs(cdev, &ctrl, mp, 64), TEST_SUCCESS,
			  "on demand instead");
	rte_mempool_free(mp);
	return TEST_SUCCESS;
}

/*
 * Memory goes away while another thread keeps looking up: a lookup that
 * starts after the free returned never yields a key the device refuses.
 */
struct race {
	struct mlx5_common_device *cdev;
	uintptr_t base;
	size_t len;
	int freeing;             /* A free is in progress. */
	unsigned int frees;      /* Frees completed. */
	int done;
	unsigned int lookups_after;  /* Lookups started after a free. */
	unsigned int keys_after;     /* ... that returned a key. */
	unsigned int stale;          /* Keys the device refused. */
	unsigned int misses;         /* Failed lookups with no free around. */
	unsigned int lookups;
	bool misses_expected;        /* Freed memory is not registered again. */
};

static void *
race_reader(void *arg)
{
	struct race *r = arg;
	struct mlx5_mr_ctrl c;

	if (mlx5_mr_ctrl_init(&c, r->cdev, SOCKET_ID_ANY) != 0) {
		r->misses++;
		return NULL;
	}
	while (!__atomic_load_n(&r->done, __ATOMIC_ACQUIRE)) {
		unsigned int frees = __atomic_load_n(&r->frees,
						     __ATOMIC_ACQUIRE);
		int freeing = __atomic_load_n(&r->freeing, __ATOMIC_ACQUIRE);
		/* 64-byte aligned: a read never crosses into the next page,
		 * which may be another range (test_free_many_...). */
		uintptr_t addr = r->base +
				 (rte_rand_max(r->len - 64) & ~(uint64_t)63);
		uint32_t lkey = mlx5_mr_addr2lkey(&c, addr);
		int ret = lkey != MLX5_MR_LKEY_INVALID ?
			  dev_read(r->cdev, lkey, addr, 64) : -ENOENT;
		/* No free overlapped the lookup and its check. */
		bool quiet = !freeing &&
			     !__atomic_load_n(&r->freeing, __ATOMIC_ACQUIRE) &&
			     frees == __atomic_load_n(&r->frees,
						      __ATOMIC_ACQUIRE);

		__atomic_fetch_add(&r->lookups, 1, __ATOMIC_RELEASE);
		if (frees > 0 && !freeing) {
			r->lookups_after++;
			r->keys_after += lkey != MLX5_MR_LKEY_INVALID;
		}
		if (lkey == MLX5_MR_LKEY_INVALID)
			r->misses += quiet && !r->misses_expected;
		else if (ret != 0 && quiet)
			r->stale++; /* The device refused a key it should not. */
	}
	mlx5_mr_ctrl_free(&c);
	return NULL;
}

static int
run_race(struct race *r, unsigned int rounds, bool reregister)
{
	pthread_t th;
	uint32_t old;

	TEST_ASSERT_SUCCESS(pthread_create(&th, NULL, race_reader, r), "");
	for (unsigned int i = 0; i < rounds; i++) {
		unsigned int seen = __atomic_load_n(&r->lookups,
						    __ATOMIC_ACQUIRE);

		while (__atomic_load_n(&r->lookups, __ATOMIC_ACQUIRE) <
		       seen + 50)
			sched_yield();
		old = mlx5_mr_addr2lkey(&ctrl, r->base);
		__atomic_store_n(&r->freeing, 1, __ATOMIC_RELEASE);
		TEST_ASSERT_SUCCESS(mlx5_mr_ext_unregister(r->cdev,
				    (void *)r->base, r->len), "round %u", i);
		__atomic_store_n(&r->freeing, 0, __ATOMIC_RELEASE);
		__atomic_fetch_add(&r->frees, 1, __ATOMIC_RELEASE);
		TEST_ASSERT(dev_read(r->cdev, old, r->base, 64) < 0,
			    "round %u: the old key is dead on the device", i);
		if (reregister && i + 1 < rounds)
			TEST_ASSERT_SUCCESS(mlx5_mr_ext_register(r->cdev,
				(void *)r->base, r->len), "");
	}
	/* Let the reader look up after the last free too. */
	{
		unsigned int seen = __atomic_load_n(&r->lookups,
						    __ATOMIC_ACQUIRE);

		while (__atomic_load_n(&r->lookups, __ATOMIC_ACQUIRE) <
		       seen + 200)
			sched_yield();
	}
	__atomic_store_n(&r->done, 1, __ATOMIC_RELEASE);
	pthread_join(th, NULL);
	printf("    %u lookups, %u after a free (%u returned a key), %u stale\n",
	       r->lookups, r->lookups_after, r->keys_after, r->stale);
	TEST_ASSERT_EQUAL(r->stale, 0, "no stale key after a free");
	TEST_ASSERT_EQUAL(r->misses, 0, "no failed lookup with no free around");
	TEST_ASSERT(r->lookups_after > 0, "lookups after the frees");
	return TEST_SUCCESS;
}

/* DPDK memory: after each free the chunk is registered again on demand. */
static int
test_free_while_looking_up(void)
{
	size_t len = 256 * 1024;
	void *mem = rte_malloc(NULL, len, PAGE);
	struct race r = { .cdev = cdev, .base = (uintptr_t)mem, .len = len };
	int ret;

	TEST_ASSERT_NOT_NULL(mem, "");
	/* Warm the main queue so that it holds the old key too. */
	TEST_ASSERT(mlx5_mr_addr2lkey(&ctrl, r.base) != MLX5_MR_LKEY_INVALID,
		    "");
	ret = run_race(&r, 10, false);
	TEST_ASSERT(r.keys_after > 0, "new keys after the frees (on demand)");
	rte_free(mem);
	return ret;
}

/* External memory: after the free the lookup fails, with a reason. */
static int
test_free_external_while_looking_up(void)
{
	size_t len = 64 * PAGE;
	void *mem = aligned_alloc(PAGE, len);
	struct race r = { .cdev = cdev, .base = (uintptr_t)mem, .len = len,
			  .misses_expected = true };
	int ret;

	TEST_ASSERT_NOT_NULL(mem, "");
	TEST_ASSERT_SUCCESS(mlx5_mr_ext_register(cdev, mem, len), "");
	rte_log_set_level_pattern("pmd.common.mlx5*", RTE_LOG_CRIT);
	ret = run_race(&r, 10, true);
	rte_log_set_level_pattern("pmd.common.mlx5*", RTE_LOG_INFO);
	TEST_ASSERT_EQUAL(mr_stats(cdev).mrs, 0, "");
	free(mem);
	return ret;
}

/*
 * As above with 600 ranges, one a page: the reader's queue holds most of
 * them in its overflow table when the memory goes away.
 */
static int
test_free_many_while_looking_up(void)
{
	const unsigned int n = 600;
	size_t len = n * PAGE;
	uint8_t *mem = aligned_alloc(PAGE, len);
	struct race r = { .cdev = cdev, .base = (uintptr_t)mem, .len = len,
			  .misses_expected = true };
	int ret;

	TEST_ASSERT_NOT_NULL(mem, "");
	memset(mem, 0, len);
	for (unsigned int k = 0; k < n; k++)
		TEST_ASSERT_SUCCESS(mlx5_mr_ext_register(cdev, mem + k * PAGE,
							 PAGE), "");
	rte_log_set_level_pattern("pmd.common.mlx5*", RTE_LOG_CRIT);
	ret = run_race(&r, 6, true);
	rte_log_set_level_pattern("pmd.common.mlx5*", RTE_LOG_INFO);
	TEST_ASSERT_EQUAL(mr_stats(cdev).mrs, 0, "");
	free(mem);
	return ret;
}

/* mr_whole_mem_en: one implicit ODP key, every lookup hits at once. */
static int
test_whole_mem(void)
{
	struct mlx5_common_device *d;
	struct rte_mempool *mp;
	struct mlx5_mr_stats st;
	struct mlx5_mr_ctrl c;
	uint8_t *heap = malloc(3 * PAGE);
	uint8_t *dpdk = rte_malloc(NULL, PAGE, 0);
	uint8_t stack[64];
	void *hole;

	TEST_ASSERT(heap != NULL && dpdk != NULL, "");
	memset(heap, 0, 3 * PAGE);
	TEST_ASSERT_SUCCESS(sim_probe("mlx5_sim2",
			    "card=60,vhca_id=2,mr_whole_mem_en=1"), "");
	d = sim_cdev("mlx5_sim2");
	st = mr_stats(d);
	TEST_ASSERT(st.whole_mem, "");
	TEST_ASSERT(!st.mem_events && !st.mempool_events,
		    "nothing to follow: no MR is ever made");
	TEST_ASSERT_EQUAL(dev_mrs(2), 1, "one MR on the device");
	TEST_ASSERT_SUCCESS(mlx5_mr_ctrl_init(&c, d, SOCKET_ID_ANY), "");
	TEST_ASSERT_EQUAL(mlx5_mr_addr2lkey(&c, (uintptr_t)heap), st.whole_lkey,
			  "malloc'd memory");
	TEST_ASSERT_EQUAL(mlx5_mr_addr2lkey(&c, (uintptr_t)dpdk), st.whole_lkey,
			  "DPDK memory");
	TEST_ASSERT_EQUAL(mlx5_mr_addr2lkey(&c, (uintptr_t)stack),
			  st.whole_lkey, "the stack");
	TEST_ASSERT_SUCCESS(dev_write(d, st.whole_lkey, (uintptr_t)heap + 1,
				      3 * PAGE - 1, 0x77), "");
	TEST_ASSERT(heap[0] != 0x77 && heap[1] == 0x77 &&
		    heap[3 * PAGE - 1] == 0x77, "bytes landed");
	TEST_ASSERT_SUCCESS(dev_read(d, st.whole_lkey, (uintptr_t)dpdk, PAGE),
			    "");
	hole = mmap(NULL, PAGE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	TEST_ASSERT(hole != MAP_FAILED, "");
	munmap(hole, PAGE);
	TEST_ASSERT_EQUAL(dev_read(d, st.whole_lkey, (uintptr_t)hole, 64),
			  -EFAULT, "a page fault on unmapped memory fails");
	mp = rte_pktmbuf_pool_create("mr_whole", 64, 0, 0,
				     RTE_MBUF_DEFAULT_BUF_SIZE, SOCKET_ID_ANY);
	TEST_ASSERT_NOT_NULL(mp, "");
	TEST_ASSERT_SUCCESS(mlx5_mr_mempool_register(d, mp), "a no-op");
	TEST_ASSERT_EQUAL(check_pool_mbufs(d, &c, mp, 64), TEST_SUCCESS, "");
	TEST_ASSERT_SUCCESS(mlx5_mr_ext_register(d, heap, PAGE), "a no-op");
	TEST_ASSERT_SUCCESS(mlx5_mr_ext_unregister(d, heap, PAGE), "");
	rte_mempool_free(mp);
	st = mr_stats(d);
	TEST_ASSERT_EQUAL(st.mrs, 0, "");
	TEST_ASSERT_EQUAL(st.created, 1, "the one key, nothing else");
	TEST_ASSERT_EQUAL(dev_mrs(2), 1, "");
	mlx5_mr_ctrl_free(&c);
	TEST_ASSERT_SUCCESS(remove_leaves_nothing("mlx5_sim2", 2), "");
	free(heap);
	rte_free(dpdk);
	return TEST_SUCCESS;
}

/* Without on-demand paging, the probe says so and fails cleanly. */
static int
test_whole_mem_without_odp(void)
{
	const char *log;
	int ret;

	mlx5_test_log_capture_start();
	ret = sim_probe("mlx5_sim3", "card=60,vhca_id=3,odp=0,mr_whole_mem_en=1");
	log = mlx5_test_log_capture_stop();
	TEST_ASSERT_EQUAL(ret, -ENOTSUP, "");
	TEST_ASSERT(strstr(log, "implicit on-demand paging") != NULL,
		    "the log names the missing capability");
	TEST_ASSERT(strstr(log, "mr_whole_mem_en") != NULL, "and the devarg");
	TEST_ASSERT(sim_cdev("mlx5_sim3") == NULL, "");
	TEST_ASSERT_EQUAL(sim_live(CARD, 3), 0, "nothing left");
	/* The same device without the devarg probes. */
	TEST_ASSERT_SUCCESS(sim_probe("mlx5_sim3", "card=60,vhca_id=3,odp=0"),
			    "");
	/* And a refused implicit ODP registration fails the probe cleanly. */
	TEST_ASSERT_SUCCESS(sim_remove("mlx5_sim3"), "");
	TEST_ASSERT(sim_probe("mlx5_sim3",
		"card=60,vhca_id=4,mr_whole_mem_en=1,fail_cmd=CREATE_MKEY") < 0,
		"");
	TEST_ASSERT_EQUAL(sim_live(CARD, 4), 0, "");
	TEST_ASSERT_EQUAL(sim_reclaimed(CARD, 4), 0, "");
	return TEST_SUCCESS;
}

/* The device side: odp_caps and the implicit ODP MR rules. */
static int
test_sim_odp(void)
{
	const struct mlx5_glue *glue = cdev->glue;
	struct ibv_device_attr_ex attr;
	struct mlx5_common_device *no;
	struct ibv_mr *mr;

	TEST_ASSERT_SUCCESS(glue->query_device_ex(cdev->ctx, NULL, &attr), "");
	TEST_ASSERT(attr.odp_caps.general_caps & IBV_ODP_SUPPORT_IMPLICIT,
		    "odp=1 by default");
	TEST_ASSERT_SUCCESS(sim_probe("mlx5_sim1", "card=60,vhca_id=5,odp=0"),
			    "");
	no = sim_cdev("mlx5_sim1");
	TEST_ASSERT_SUCCESS(glue->query_device_ex(no->ctx, NULL, &attr), "");
	TEST_ASSERT_EQUAL(attr.odp_caps.general_caps, 0, "odp=0");
	errno = 0;
	mr = glue->reg_mr(no->pd, NULL, SIZE_MAX,
			  IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_ON_DEMAND);
	TEST_ASSERT(mr == NULL && errno == EOPNOTSUPP, "no ODP: EOPNOTSUPP");
	mr = glue->reg_mr(cdev->pd, NULL, SIZE_MAX, IBV_ACCESS_LOCAL_WRITE);
	TEST_ASSERT(mr == NULL && errno == EINVAL,
		    "the whole space without ON_DEMAND: EINVAL");
	mr = glue->reg_mr(cdev->pd, NULL, SIZE_MAX,
			  IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_ON_DEMAND);
	TEST_ASSERT_NOT_NULL(mr, "implicit ODP");
	TEST_ASSERT_SUCCESS(dev_read(cdev, mr->lkey, (uintptr_t)&attr,
				     sizeof(attr)), "");
	TEST_ASSERT_SUCCESS(glue->dereg_mr(mr), "");
	TEST_ASSERT_EQUAL(sim_probe("mlx5_sim2", "card=60,vhca_id=5,odp=1"),
			  -EEXIST, "capabilities are fixed at creation");
	TEST_ASSERT_EQUAL(sim_probe("mlx5_sim2", "card=60,vhca_id=6,odp=2"),
			  -EINVAL, "");
	TEST_ASSERT_EQUAL(sim_probe("mlx5_sim2",
			  "card=60,vhca_id=6,mr_whole_mem_en=yes"), -EINVAL, "");
	return TEST_SUCCESS;
}

/* Remove with MRs, registrations and queues' keys alive: nothing stays. */
static int
test_remove_with_mrs(void)
{
	struct rte_mempool *mp;
	uint8_t *ext = aligned_alloc(PAGE, 4 * PAGE);
	void *mem = rte_malloc(NULL, PAGE, 0);

	TEST_ASSERT(ext != NULL && mem != NULL, "");
	TEST_ASSERT(mlx5_mr_addr2lkey(&ctrl, (uintptr_t)mem) !=
		    MLX5_MR_LKEY_INVALID, "");
	/* A pool registration never shares an on-demand MR. */
	mp = rte_pktmbuf_pool_create("mr_remove", 64, 0, 0,
				     RTE_MBUF_DEFAULT_BUF_SIZE, SOCKET_ID_ANY);
	TEST_ASSERT_NOT_NULL(mp, "");
	TEST_ASSERT_SUCCESS(mlx5_mr_ext_register(cdev, ext, 4 * PAGE), "");
	TEST_ASSERT_EQUAL(mr_stats(cdev).mrs, 3, "pool, external, on demand");
	mlx5_mr_ctrl_free(&ctrl);
	TEST_ASSERT_SUCCESS(remove_leaves_nothing("mlx5_sim0", 0),
			    "destroyed, not leaked");
	/* A pool outliving the device is not the device's business. */
	rte_mempool_free(mp);
	free(ext);
	rte_free(mem);
	return TEST_SUCCESS;
}

static const struct mlx5_test_case mr_cases[] = {
	{ "lookup_dpdk_memory", test_lookup_dpdk_memory },
	{ "lookup_memseg_only", test_lookup_memseg_only },
	{ "lookup_unregistered", test_lookup_unregistered },
	{ "ext_register_errors", test_ext_register_errors },
	{ "extmem_dma_map", test_extmem_dma_map },
	{ "generation_flush", test_generation_flush },
	{ "many_ranges", test_many_ranges },
	{ "many_ranges_deep", test_many_ranges_deep },
	{ "register_orders", test_register_orders },
	{ "queue_levels", test_queue_levels },
	{ "queue_table_depths", test_queue_table_depths },
	{ "queue_slots_and_batches", test_queue_slots_and_batches },
	{ "private_iova", test_private_iova },
	{ "mempool_events", test_mempool_events },
	{ "mempool_cycles", test_mempool_cycles },
	{ "mempool_explicit", test_mempool_explicit },
	{ "mempool_chunks", test_mempool_chunks },
	{ "mempool_extbuf_share", test_mempool_extbuf_share },
	{ "mempool_refused", test_mempool_refused },
	{ "mempool_extbuf_refused", test_mempool_extbuf_refused },
	{ "free_while_looking_up", test_free_while_looking_up },
	{ "free_external_while_looking_up",
	  test_free_external_while_looking_up },
	{ "free_many_while_looking_up", test_free_many_while_looking_up },
	{ "whole_mem", test_whole_mem },
	{ "whole_mem_without_odp", test_whole_mem_without_odp },
	{ "sim_odp", test_sim_odp },
	{ "remove_with_mrs", test_remove_with_mrs },
	{ NULL, NULL },
};

static const struct mlx5_test_suite mr_suite = {
	.name = "mr",
	.case_setup = mr_case_setup,
	.case_teardown = mr_case_teardown,
	.cases = mr_cases,
};

MLX5_TEST_MAIN(mr_suite)
