/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * The cost per call of marking an mbuf private IOVA, on a software device
 * (which registers the flag at probe):
 *   inline    rte_pmd_mlx5_mbuf_set_private_iova(), the header's inline
 *             over the cached mask;
 *   function  the same, the library's exported function (what a binary
 *             built without ALLOW_EXPERIMENTAL_API calls);
 *   lookup    what every call did before the mask was cached:
 *             rte_mbuf_dynflag_lookup() (a lock and a name search), then
 *             the two stores;
 *   plain     the anchor: the two stores with the mask in a local.
 * Natively each mode prints cycles per call (TSC, the median of 9 runs);
 * under callgrind each marks its dump bench:<mode>:<calls>
 * (devtools/run-api-bench.sh prints both side by side).
 *
 * Usage: dpdk-test-mlx5-api --inline|--function|--lookup|--plain N
 */

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_mbuf.h>
#include <rte_mbuf_dyn.h>

#include <rte_pmd_mlx5.h>

#ifdef HAVE_CALLGRIND
#include <valgrind/callgrind.h>
#else
#define CALLGRIND_ZERO_STATS do { } while (0)
#define CALLGRIND_DUMP_STATS_AT(s) do { RTE_SET_USED(s); } while (0)
#define RUNNING_ON_VALGRIND 0
#endif

#define API_MBUFS 32
#define API_RUNS 9

/* The library's exported setter, by its symbol (the header has the inline). */
int api_set_function(struct rte_mbuf *m, rte_iova_t iova)
	__asm__("rte_pmd_mlx5_mbuf_set_private_iova");

static struct rte_mbuf *mbufs[API_MBUFS];
static uint64_t mask;

static __rte_noinline int
api_inline(uint64_t calls)
{
	int ret = 0;

	for (uint64_t i = 0; i < calls; i++)
		ret |= rte_pmd_mlx5_mbuf_set_private_iova(
			mbufs[i & (API_MBUFS - 1)], rte_pmd_mlx5_mkey_to_iova(
			(uint32_t)i));
	return ret;
}

static __rte_noinline int
api_function(uint64_t calls)
{
	int ret = 0;

	for (uint64_t i = 0; i < calls; i++)
		ret |= api_set_function(mbufs[i & (API_MBUFS - 1)],
			rte_pmd_mlx5_mkey_to_iova((uint32_t)i));
	return ret;
}

static __rte_noinline int
api_lookup(uint64_t calls)
{
	for (uint64_t i = 0; i < calls; i++) {
		struct rte_mbuf *m = mbufs[i & (API_MBUFS - 1)];
		int bit = rte_mbuf_dynflag_lookup(RTE_PMD_MLX5_PRIVATE_IOVA,
						  NULL);

		if (bit < 0)
			return -1;
		m->buf_iova = rte_pmd_mlx5_mkey_to_iova((uint32_t)i);
		m->ol_flags |= RTE_BIT64(bit);
	}
	return 0;
}

static __rte_noinline int
api_plain(uint64_t calls)
{
	const uint64_t flag = mask;

	for (uint64_t i = 0; i < calls; i++) {
		struct rte_mbuf *m = mbufs[i & (API_MBUFS - 1)];

		m->buf_iova = rte_pmd_mlx5_mkey_to_iova((uint32_t)i);
		m->ol_flags |= flag;
	}
	return 0;
}

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

int
main(int argc, char **argv)
{
	static const struct {
		const char *opt;
		int (*fn)(uint64_t calls);
	} modes[] = {
		{ "--inline", api_inline },
		{ "--function", api_function },
		{ "--lookup", api_lookup },
		{ "--plain", api_plain },
	};
	char *eal_args[] = {
		argv[0], "--no-huge", "-m", "256", "--no-pci", "--no-shconf",
		"--vdev=mlx5_sim0", "--log-level=pmd.*:error", NULL,
	};
	struct rte_mempool *mp;
	uint64_t calls, cycles[API_RUNS];
	unsigned int m, r;
	char label[64];
	int ret = 0;

	if (argc != 3 || (calls = strtoull(argv[2], NULL, 0)) == 0) {
		fprintf(stderr, "usage: %s --inline|--function|--lookup|--plain N\n",
			argv[0]);
		return 2;
	}
	for (m = 0; m < RTE_DIM(modes); m++)
		if (strcmp(argv[1], modes[m].opt) == 0)
			break;
	if (m == RTE_DIM(modes)) {
		fprintf(stderr, "%s: unknown mode %s\n", argv[0], argv[1]);
		return 2;
	}
	if (rte_eal_init(RTE_DIM(eal_args) - 1, eal_args) < 0)
		return 1;
	mask = rte_pmd_mlx5_private_iova_flag();
	mp = rte_pktmbuf_pool_create("api_bench", 64, 0, 0, 256,
				     SOCKET_ID_ANY);
	if (mask == 0 || mp == NULL ||
	    rte_pktmbuf_alloc_bulk(mp, mbufs, API_MBUFS) != 0) {
		fprintf(stderr, "set-up failed (flag 0x%" PRIx64 ")\n", mask);
		return 1;
	}
	/* Warm: the inline's first call looks the flag up. */
	ret |= modes[m].fn(API_MBUFS);
	if (RUNNING_ON_VALGRIND) {
		CALLGRIND_ZERO_STATS;
		ret |= modes[m].fn(calls);
		snprintf(label, sizeof(label), "bench:%s:%" PRIu64,
			 modes[m].opt + 2, calls);
		CALLGRIND_DUMP_STATS_AT(label);
	} else {
		for (r = 0; r < API_RUNS; r++) {
			uint64_t t0 = rte_rdtsc_precise();

			ret |= modes[m].fn(calls);
			cycles[r] = rte_rdtsc_precise() - t0;
		}
		qsort(cycles, API_RUNS, sizeof(cycles[0]), cmp_u64);
		printf("%s %.2f cycles/call (median of %u runs, %" PRIu64
		       " calls)\n", modes[m].opt + 2,
		       (double)cycles[API_RUNS / 2] / (double)calls, API_RUNS,
		       calls);
	}
	if (ret != 0 || !(mbufs[0]->ol_flags & mask)) {
		fprintf(stderr, "the setter failed\n");
		return 1;
	}
	rte_pktmbuf_free_bulk(mbufs, API_MBUFS);
	rte_mempool_free(mp);
	rte_eal_cleanup();
	return 0;
}
