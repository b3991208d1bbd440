/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * The MR cache and EAL memory events: memory EAL frees (rte_free() giving
 * hugepages back, rte_malloc_heap_memory_remove()) takes its MRs with it,
 * the device refuses their keys at once, and a queue looking up all the
 * while never gets one of them once the free returned.
 *
 * EAL has memory events only in dynamic memory mode, which needs hugepages
 * (--no-huge is legacy mode, where rte_mem_event_callback_register() fails
 * with ENOTSUP). Without hugepages the suite is skipped (exit code 77).
 * EAL initialisation is the one thing this suite does differently from the
 * harness's (mlx5_test_run()), so it runs its cases itself.
 */

#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include <rte_eal.h>
#include <rte_malloc.h>
#include <rte_memory.h>
#include <rte_random.h>

#include "mlx5_test.h"
#include "mlx5_test_mr.h"
#include "mlx5_test_sim.h"

#define CARD 61
#define HUGE (2u << 20)

static struct mlx5_common_device *cdev;

/* Does the device accept @lkey at @addr? Checks the key, touches nothing:
 * the memory may be gone. */
static int
dev_key_ok(uint32_t lkey, uintptr_t addr)
{
	uint8_t syn;

	return mlx5_sim_dma(cdev->ctx, cdev->pdn, lkey, addr, NULL, 0, false,
			    &syn);
}


static int
test_subscribed(void)
{
	TEST_ASSERT(mr_stats(cdev).mem_events, "dynamic memory: events subscribed");
	return TEST_SUCCESS;
}

/* rte_free() of hugepage memory: the MR over it goes, key and all. */
static int
test_rte_free(void)
{
	struct mlx5_mr_ctrl ctrl;
	uint8_t *buf = rte_malloc(NULL, 8 * HUGE, HUGE);
	uintptr_t addr = (uintptr_t)buf + 3 * HUGE + 100;
	struct mlx5_mr_stats st;
	uint32_t lkey;

	TEST_ASSERT_NOT_NULL(buf, "");
	TEST_ASSERT_SUCCESS(mlx5_mr_ctrl_init(&ctrl, cdev, SOCKET_ID_ANY), "");
	lkey = mlx5_mr_addr2lkey(&ctrl, addr);
	TEST_ASSERT(lkey != MLX5_MR_LKEY_INVALID, "%s", rte_strerror(rte_errno));
	TEST_ASSERT_SUCCESS(dev_key_ok(lkey, addr), "");
	st = mr_stats(cdev);
	rte_free(buf);
	TEST_ASSERT(mr_stats(cdev).invalidated > st.invalidated,
		    "EAL's free event invalidated the MR");
	TEST_ASSERT(mr_stats(cdev).gen != st.gen, "and moved the generation");
	TEST_ASSERT(dev_key_ok(lkey, addr) < 0, "the device refuses the key");
	TEST_ASSERT(mlx5_mr_addr2lkey(&ctrl, addr) != lkey,
		    "the queue does not return it");
	mlx5_mr_ctrl_free(&ctrl);
	return TEST_SUCCESS;
}

/* An external heap: memory removed from it takes its MRs with it. */
static int
test_external_heap(void)
{
	size_t len = 4 * HUGE;
	void *area = mmap(NULL, len, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct mlx5_mr_ctrl ctrl;
	uint32_t lkey;
	void *obj;

	TEST_ASSERT(area != MAP_FAILED, "");
	TEST_ASSERT_SUCCESS(rte_malloc_heap_create("mr_ext_heap"), "");
	TEST_ASSERT_SUCCESS(rte_malloc_heap_memory_add("mr_ext_heap", area, len,
						       NULL, 0, 4096), "");
	obj = rte_malloc_socket(NULL, 4096, 0,
				rte_malloc_heap_get_socket("mr_ext_heap"));
	TEST_ASSERT_NOT_NULL(obj, "");
	TEST_ASSERT_SUCCESS(mlx5_mr_ctrl_init(&ctrl, cdev, SOCKET_ID_ANY), "");
	lkey = mlx5_mr_addr2lkey(&ctrl, (uintptr_t)obj);
	TEST_ASSERT(lkey != MLX5_MR_LKEY_INVALID,
		    "external heap memory, registered on demand: %s",
		    rte_strerror(rte_errno));
	TEST_ASSERT_SUCCESS(dev_key_ok(lkey, (uintptr_t)obj), "");
	rte_free(obj);
	TEST_ASSERT_SUCCESS(rte_malloc_heap_memory_remove("mr_ext_heap", area,
							  len), "");
	TEST_ASSERT(dev_key_ok(lkey, (uintptr_t)obj) < 0,
		    "the device refuses the key once the memory left the heap");
	TEST_ASSERT_EQUAL(mlx5_mr_addr2lkey(&ctrl, (uintptr_t)obj),
			  MLX5_MR_LKEY_INVALID, "not DPDK memory any more");
	TEST_ASSERT_SUCCESS(rte_malloc_heap_destroy("mr_ext_heap"), "");
	mlx5_mr_ctrl_free(&ctrl);
	munmap(area, len);
	return TEST_SUCCESS;
}

struct race {
	uintptr_t base;
	size_t len;
	int freeing;
	int freed;
	int done;
	unsigned int lookups, after, stale;
};

static void *
race_reader(void *arg)
{
	struct race *r = arg;
	struct mlx5_mr_ctrl ctrl;

	if (mlx5_mr_ctrl_init(&ctrl, cdev, SOCKET_ID_ANY) != 0)
		return NULL;
	while (!__atomic_load_n(&r->done, __ATOMIC_ACQUIRE)) {
		int freed = __atomic_load_n(&r->freed, __ATOMIC_ACQUIRE);
		uintptr_t addr = r->base + rte_rand_max(r->len);
		uint32_t lkey = mlx5_mr_addr2lkey(&ctrl, addr);

		__atomic_fetch_add(&r->lookups, 1, __ATOMIC_RELEASE);
		if (!freed)
			continue;
		/* Started after rte_free() returned: a key must be good. */
		r->after++;
		if (lkey != MLX5_MR_LKEY_INVALID && dev_key_ok(lkey, addr) != 0)
			r->stale++;
	}
	mlx5_mr_ctrl_free(&ctrl);
	return NULL;
}

/* rte_free() while another thread keeps looking up in that memory. */
static int
test_free_while_looking_up(void)
{
	struct race r = { .len = 16 * HUGE };
	void *buf = rte_malloc(NULL, r.len, HUGE);
	pthread_t th;
	unsigned int seen;

	TEST_ASSERT_NOT_NULL(buf, "");
	r.base = (uintptr_t)buf;
	TEST_ASSERT_SUCCESS(pthread_create(&th, NULL, race_reader, &r), "");
	while (__atomic_load_n(&r.lookups, __ATOMIC_ACQUIRE) < 1000)
		sched_yield();
	/* Lookups of freed memory fail, each with a log line: keep quiet. */
	rte_log_set_level_pattern("pmd.common.mlx5*", RTE_LOG_CRIT);
	rte_free(buf);
	__atomic_store_n(&r.freed, 1, __ATOMIC_RELEASE);
	seen = __atomic_load_n(&r.lookups, __ATOMIC_ACQUIRE);
	while (__atomic_load_n(&r.lookups, __ATOMIC_ACQUIRE) < seen + 1000)
		sched_yield();
	__atomic_store_n(&r.done, 1, __ATOMIC_RELEASE);
	pthread_join(th, NULL);
	rte_log_set_level_pattern("pmd.common.mlx5*", RTE_LOG_INFO);
	printf("    %u lookups, %u after the free, %u stale\n", r.lookups,
	       r.after, r.stale);
	TEST_ASSERT_EQUAL(r.stale, 0, "no key of freed memory after the free");
	TEST_ASSERT(r.after > 0, "");
	return TEST_SUCCESS;
}

static const struct mlx5_test_case cases[] = {
	{ "subscribed", test_subscribed },
	{ "rte_free", test_rte_free },
	{ "external_heap", test_external_heap },
	{ "free_while_looking_up", test_free_while_looking_up },
	{ NULL, NULL },
};

int
main(int argc, char **argv)
{
	const char *huge_dir = getenv("MLX5_TEST_HUGE_DIR");
	char prefix[64];
	/*
	 * Not --in-memory: with it EAL 22.11 reserves address space for every
	 * hugepage size the kernel exposes (a 1 GB size with no page and no
	 * mount included: about 128 GB in all), which valgrind cannot give.
	 * A private hugetlbfs mount of one size limits EAL to that size.
	 */
	char *eal_args[] = {
		argv[0], "--huge-dir", (char *)(uintptr_t)huge_dir,
		"--huge-unlink", "--no-shconf", "--no-pci", "-l", "0",
		"--file-prefix", prefix, "--log-level",
		"pmd.common.mlx5*:info", NULL,
	};
	bool required = getenv("MLX5_TEST_REQUIRE_HUGEPAGES") != NULL;
	unsigned int passed = 0, failed = 0;

	(void)argc;
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (huge_dir == NULL || huge_dir[0] == '\0') {
		printf("mr_events: %s: EAL has memory events only in dynamic memory mode, which needs hugepages; set MLX5_TEST_HUGE_DIR to a hugetlbfs mount with free pages (the test command does so as root)\n",
		       required ? "FAILED" : "skipped");
		return required ? 1 : TEST_SKIPPED;
	}
	snprintf(prefix, sizeof(prefix), "mlx5mrev%d", (int)getpid());
	if (rte_eal_init(RTE_DIM(eal_args) - 1, eal_args) < 0) {
		/*
		 * Skip only where hugepages are known to be missing; where the
		 * test command reserved them (MLX5_TEST_REQUIRE_HUGEPAGES), a
		 * failed init is a failure, not a reason to skip.
		 */
		printf("mr_events: %s: EAL init with hugepages of %s failed: %s\n",
		       required ? "FAILED" : "skipped", huge_dir,
		       rte_strerror(rte_errno));
		return required ? 1 : TEST_SKIPPED;
	}
	if (sim_probe("mlx5_sim0", "card=61") != 0 ||
	    (cdev = sim_cdev("mlx5_sim0")) == NULL) {
		printf("mr_events: cannot probe mlx5_sim0\n");
		rte_eal_cleanup();
		return 1;
	}
	printf("suite mr_events\n");
	for (const struct mlx5_test_case *tc = cases; tc->name != NULL; tc++) {
		int ret = tc->fn();

		printf("  case %s: %s\n", tc->name,
		       ret == TEST_SUCCESS ? "passed" : "FAILED");
		ret == TEST_SUCCESS ? passed++ : failed++;
	}
	sim_remove("mlx5_sim0");
	if (sim_live(CARD, 0) != 0 || sim_reclaimed(CARD, 0) != 0) {
		printf("  the device is not empty after remove\n");
		failed++;
	}
	rte_eal_cleanup();
	printf("mr_events: %u passed, %u failed, 0 skipped\n", passed, failed);
	return failed ? 1 : 0;
}
