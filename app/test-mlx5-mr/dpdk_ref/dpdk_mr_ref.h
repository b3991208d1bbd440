/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * The interface between the MR benchmark and DPDK 22.11's own MR cache,
 * which devtools/run-mr-bench.sh compiles at benchmark time from Debian's
 * source package (dpdk_mr_ref.c and shim/ here, DPDK's files fetched, none
 * of them committed) into a plugin the benchmark loads with dlopen(). Plain
 * C types only: the two caches' headers cannot meet in one file.
 */

#ifndef DPDK_MR_REF_H_
#define DPDK_MR_REF_H_

#include <stddef.h>
#include <stdint.h>

struct rte_mempool;

/* Register [addr, addr + len) with the device behind @pd. */
typedef int (*dpdk_ref_reg_t)(void *pd, void *addr, size_t len,
			      uint32_t *lkey, void **handle);
typedef void (*dpdk_ref_dereg_t)(void *handle);

#define DPDK_MR_REF_ABI 1

struct dpdk_mr_ref_api {
	uint32_t abi;                 /* DPDK_MR_REF_ABI */
	/* A device: DPDK's shared MR cache over @pd. */
	void *(*dev_create)(void *pd, dpdk_ref_reg_t reg,
			    dpdk_ref_dereg_t dereg);
	void (*dev_destroy)(void *dev);
	/* rte_dev_dma_map() as DPDK 22.11's mlx5 common driver does it. */
	int (*dma_map)(void *dev, void *addr, size_t len);
	int (*mempool_register)(void *dev, struct rte_mempool *mp);
	int (*mempool_unregister)(void *dev, struct rte_mempool *mp);
	/* Entries of the global cache; whether it holds @addr. */
	uint32_t (*global_len)(void *dev);
	int (*global_has)(void *dev, uintptr_t addr);
	/* mlx5_mr_rebuild_cache(), as a memory free event would. */
	void (*global_rebuild)(void *dev);
	/* A queue's control (mlx5_mr_ctrl_init()). */
	void *(*ctrl_create)(void *dev);
	void (*ctrl_destroy)(void *ctrl);
	void (*ctrl_flush)(void *ctrl);
	/* The lookups (not inlined; lkey in DPDK's big-endian form). */
	uint32_t (*lookup_addr)(void *ctrl, uintptr_t addr);
	uint32_t (*lookup_mbuf)(void *ctrl, uintptr_t mbuf);
	uint32_t (*flush_lookup_addr)(void *ctrl, uintptr_t addr);
	/* "mlx5_common_mr.c <version>" */
	const char *version;
};

/* The one symbol of the plugin. */
#define DPDK_MR_REF_SYMBOL "dpdk_mr_ref_api"

#endif /* DPDK_MR_REF_H_ */
