/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * DPDK 22.11's own MR cache for the benchmark: its mlx5_common_mr.c, as
 * Debian ships it, compiled into this file with the shim headers of
 * ./shim standing in for the rest of its driver, plus the few lines of its
 * mlx5_common.c that register external memory (rte_dev_dma_map()), and
 * the datapath's top half as its mlx5_mr_mb2mr() is written. Built by
 * devtools/run-mr-bench.sh with the benchmark's compiler and flags and
 * -fvisibility=hidden: only dpdk_mr_ref_api is exported, so DPDK's
 * functions never bind to the driver's of the same names.
 */

#include <stdlib.h>

#include <rte_rwlock.h>

#ifndef DPDK_MR_SRC_VERSION
#define DPDK_MR_SRC_VERSION "?"
#endif

/* As DPDK builds it (and this project too): packed structures. */
#pragma GCC diagnostic ignored "-Waddress-of-packed-member"
/* DPDK's code as it is: its warnings are not this project's. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#pragma GCC diagnostic ignored "-Wunused-variable"
#pragma GCC diagnostic ignored "-Wunused-but-set-variable"
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wmissing-prototypes"
#pragma GCC diagnostic ignored "-Wcast-align"
#pragma GCC diagnostic ignored "-Wshadow"
#include "mlx5_common_mr.c"
#pragma GCC diagnostic pop

#include "dpdk_mr_ref.h"

int dpdk_ref_logtype;

static dpdk_ref_reg_t ref_reg;
static dpdk_ref_dereg_t ref_dereg;

static int
ref_reg_mr(void *pd, void *addr, size_t length, struct mlx5_pmd_mr *pmd_mr)
{
	uint32_t lkey;
	void *handle;

	memset(pmd_mr, 0, sizeof(*pmd_mr));
	if (ref_reg(pd, addr, length, &lkey, &handle) != 0)
		return -1;
	pmd_mr->lkey = lkey;
	pmd_mr->addr = addr;
	pmd_mr->len = length;
	pmd_mr->obj = handle;
	return 0;
}

static void
ref_dereg_mr(struct mlx5_pmd_mr *pmd_mr)
{
	if (pmd_mr->obj != NULL)
		ref_dereg(pmd_mr->obj);
	memset(pmd_mr, 0, sizeof(*pmd_mr));
}

void
mlx5_os_set_reg_mr_cb(mlx5_reg_mr_t *reg_mr_cb, mlx5_dereg_mr_t *dereg_mr_cb)
{
	*reg_mr_cb = ref_reg_mr;
	*dereg_mr_cb = ref_dereg_mr;
}

static void *
ref_dev_create(void *pd, dpdk_ref_reg_t reg, dpdk_ref_dereg_t dereg)
{
	struct mlx5_common_device *cdev = calloc(1, sizeof(*cdev));
	struct rte_device *dev = calloc(1, sizeof(*dev));

	if (cdev == NULL || dev == NULL)
		goto error;
	ref_reg = reg;
	ref_dereg = dereg;
	dev->name = "dpdk-22.11-mr";
	dev->numa_node = SOCKET_ID_ANY;
	cdev->dev = dev;
	cdev->pd = pd;
	cdev->config.mr_ext_memseg_en = 1;
	cdev->config.mr_mempool_reg_en = 1;
	if (mlx5_mr_create_cache(&cdev->mr_scache, SOCKET_ID_ANY) == 0)
		return cdev;
error:
	free(dev);
	free(cdev);
	return NULL;
}

static void
ref_dev_destroy(void *dev)
{
	struct mlx5_common_device *cdev = dev;

	mlx5_mr_release_cache(&cdev->mr_scache);
	free(cdev->dev);
	free(cdev);
}

/*
 * mlx5_common_dev_dma_map() of DPDK 22.11's mlx5_common.c, step by step:
 * an MR for the range, then under the write lock into the list and the
 * global cache, the cache expanded by one entry first when it is full.
 */
static int
ref_dma_map(void *dev, void *addr, size_t len)
{
	struct mlx5_common_device *cdev = dev;
	struct mlx5_mr_share_cache *sc = &cdev->mr_scache;
	struct mlx5_mr *mr;

	mr = mlx5_create_mr_ext(cdev->pd, (uintptr_t)addr, len, SOCKET_ID_ANY,
				sc->reg_mr_cb);
	if (mr == NULL)
		return -1;
	for (;;) {
		rte_rwlock_write_lock(&sc->rwlock);
		if (sc->cache.len < sc->cache.size)
			break;
		rte_rwlock_write_unlock(&sc->rwlock);
		if (mlx5_mr_expand_cache(sc, sc->cache.size + 1,
					 cdev->dev->numa_node) < 0) {
			mlx5_mr_free(mr, sc->dereg_mr_cb);
			return -1;
		}
	}
	LIST_INSERT_HEAD(&sc->mr_list, mr, mr);
	mlx5_mr_insert_cache(sc, mr);
	rte_rwlock_write_unlock(&sc->rwlock);
	return 0;
}

static int
ref_mempool_register(void *dev, struct rte_mempool *mp)
{
	return mlx5_mr_mempool_register(dev, mp, false);
}

static int
ref_mempool_unregister(void *dev, struct rte_mempool *mp)
{
	return mlx5_mr_mempool_unregister(dev, mp);
}

static uint32_t
ref_global_len(void *dev)
{
	struct mlx5_common_device *cdev = dev;

	/* Entry 0 is the search's sentinel. */
	return cdev->mr_scache.cache.len - 1;
}

static int
ref_global_has(void *dev, uintptr_t addr)
{
	struct mlx5_common_device *cdev = dev;
	struct mr_cache_entry entry;

	return mlx5_mr_lookup_cache(&cdev->mr_scache, &entry, addr) !=
	       UINT32_MAX;
}

/*
 * Its rebuild inserts every MR without checking the size of the table, so
 * the table is given room for all of them first (expanded, it holds
 * nothing until the rebuild).
 */
static void
ref_global_rebuild(void *dev)
{
	struct mlx5_common_device *cdev = dev;
	struct mlx5_mr *mr;
	uint32_t n = 1;

	LIST_FOREACH(mr, &cdev->mr_scache.mr_list, mr)
		n++;
	if (n > cdev->mr_scache.cache.size)
		mlx5_mr_expand_cache(&cdev->mr_scache, n, SOCKET_ID_ANY);
	rte_rwlock_write_lock(&cdev->mr_scache.rwlock);
	mlx5_mr_rebuild_cache(&cdev->mr_scache);
	++cdev->mr_scache.dev_gen;
	rte_rwlock_write_unlock(&cdev->mr_scache.rwlock);
}

static void *
ref_ctrl_create(void *dev)
{
	struct mlx5_common_device *cdev = dev;
	struct mlx5_mr_ctrl *ctrl = aligned_alloc(RTE_CACHE_LINE_SIZE,
		RTE_ALIGN_CEIL(sizeof(*ctrl), RTE_CACHE_LINE_SIZE));

	if (ctrl == NULL)
		return NULL;
	memset(ctrl, 0, sizeof(*ctrl));
	if (mlx5_mr_ctrl_init(ctrl, &cdev->mr_scache.dev_gen,
			      SOCKET_ID_ANY) != 0) {
		free(ctrl);
		return NULL;
	}
	return ctrl;
}

static void
ref_ctrl_destroy(void *ctrl)
{
	struct mlx5_mr_ctrl *c = ctrl;

	mlx5_mr_btree_free(&c->cache_bh);
	free(c);
}

static void
ref_ctrl_flush(void *ctrl)
{
	mlx5_mr_flush_local_cache(ctrl);
}

/* An address lookup: mlx5_mr_mb2mr()'s top half, then the address's
 * bottom half. */
static __rte_noinline uint32_t
ref_lookup_addr(void *ctrl, uintptr_t addr)
{
	struct mlx5_mr_ctrl *c = ctrl;
	uint32_t lkey;

	if (unlikely(*c->dev_gen_ptr != c->cur_gen))
		mlx5_mr_flush_local_cache(c);
	lkey = mlx5_mr_lookup_lkey(c->cache, &c->mru, MLX5_MR_CACHE_N, addr);
	if (likely(lkey != UINT32_MAX))
		return lkey;
	return mlx5_mr_addr2mr_bh(c, addr);
}

static __rte_noinline uint32_t
ref_lookup_mbuf(void *ctrl, uintptr_t mb)
{
	return mlx5_mr_mb2mr(ctrl, (struct rte_mbuf *)mb);
}

static __rte_noinline uint32_t
ref_flush_lookup_addr(void *ctrl, uintptr_t addr)
{
	mlx5_mr_flush_local_cache(ctrl);
	return ref_lookup_addr(ctrl, addr);
}

__attribute__((visibility("default")))
const struct dpdk_mr_ref_api dpdk_mr_ref_api = {
	.abi = DPDK_MR_REF_ABI,
	.dev_create = ref_dev_create,
	.dev_destroy = ref_dev_destroy,
	.dma_map = ref_dma_map,
	.mempool_register = ref_mempool_register,
	.mempool_unregister = ref_mempool_unregister,
	.global_len = ref_global_len,
	.global_has = ref_global_has,
	.global_rebuild = ref_global_rebuild,
	.ctrl_create = ref_ctrl_create,
	.ctrl_destroy = ref_ctrl_destroy,
	.ctrl_flush = ref_ctrl_flush,
	.lookup_addr = ref_lookup_addr,
	.lookup_mbuf = ref_lookup_mbuf,
	.flush_lookup_addr = ref_flush_lookup_addr,
	.version = "mlx5_common_mr.c of DPDK " DPDK_MR_SRC_VERSION,
};
