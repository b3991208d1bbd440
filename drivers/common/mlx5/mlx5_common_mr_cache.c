/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * The MR cache's life with its device: created at probe (the whole-memory
 * key, or EAL memory events, then mempool events), destroyed at remove in
 * the reverse order; a secondary process's cache, which asks the primary
 * through the lookup the cache's multi-process half registers
 * (mlx5_mr_remote_lookup_register(), mlx5_common_mr_mp.c). Above the MR
 * objects (mlx5_common_mr.c) and the mempool registrations
 * (mlx5_common_mr_mempool.c).
 */

#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <string.h>

#include <rte_errno.h>

#include "mlx5_malloc.h"
#include "mlx5_common.h"
#include "mlx5_common_log.h"
#include "mlx5_common_private.h"
#include "mlx5_common_mr_private.h"

/* How a secondary's cache asks the primary, when that half is linked. */
static mlx5_mr_remote_lookup_t *mlx5_mr_remote_lookup;

void
mlx5_mr_remote_lookup_register(mlx5_mr_remote_lookup_t *fn)
{
	mlx5_mr_remote_lookup = fn;
}

/*
 * mr_whole_mem_en: one implicit on-demand-paging MR over the whole address
 * space, local access only. Refused up front without the capability.
 */
static int
mlx5_mr_whole_mem_init(struct mlx5_mr_cache *cache)
{
	struct mlx5_common_device *cdev = cache->cdev;
	struct ibv_device_attr_ex attr;
	struct ibv_mr *mr;
	int ret;

	memset(&attr, 0, sizeof(attr));
	ret = cdev->glue->query_device_ex(cdev->ctx, NULL, &attr);
	if (ret != 0) {
		DRV_LOG(ERR,
			"%s: mr_whole_mem_en=1: cannot query the on-demand paging capabilities: %s",
			cache->name, strerror(ret));
		rte_errno = ret;
		return -ret;
	}
	if (!(attr.odp_caps.general_caps & IBV_ODP_SUPPORT_IMPLICIT)) {
		DRV_LOG(ERR,
			"%s: mr_whole_mem_en=1 needs implicit on-demand paging (ODP), which device %s does not support (general ODP caps 0x%" PRIx64
			"); remove the devarg to register memory per chunk",
			cache->name, cdev->ctx->device->name,
			attr.odp_caps.general_caps);
		rte_errno = ENOTSUP;
		return -ENOTSUP;
	}
	/* rdma-core's implicit ODP MR: address 0, length SIZE_MAX. */
	mr = cdev->glue->reg_mr(cdev->pd, NULL, SIZE_MAX,
				MLX5_MR_ACCESS | IBV_ACCESS_ON_DEMAND);
	if (mr == NULL) {
		rte_errno = errno != 0 ? errno : ENOMEM;
		DRV_LOG(ERR,
			"%s: mr_whole_mem_en=1: the device refused the implicit ODP memory region: %s",
			cache->name, strerror(rte_errno));
		return -rte_errno;
	}
	cache->whole_mr = mr;
	cache->whole_lkey = mr->lkey;
	__atomic_fetch_add(&cache->created, 1, __ATOMIC_RELAXED);
	DRV_LOG(INFO,
		"%s: one key 0x%08x for the whole address space (implicit ODP, local access only)",
		cache->name, mr->lkey);
	return 0;
}

/* An empty cache of @cdev in cdev->mr_cache: 0 or -ENOMEM. */
static int
mlx5_mr_cache_alloc(struct mlx5_common_device *cdev, unsigned int flags)
{
	struct mlx5_mr_cache *cache = mlx5_malloc(
		cdev, MLX5_MEM_ZERO | flags, sizeof(*cache), 0, SOCKET_ID_ANY);

	if (cache == NULL || mlx5_mr_table_init(&cache->table, cdev,
						MLX5_MR_GLOBAL_TABLE_N) != 0) {
		mlx5_free(cache);
		DRV_LOG(ERR, "%s: no memory for the MR cache", cdev->dev->name);
		rte_errno = ENOMEM;
		return -ENOMEM;
	}
	rte_rwlock_init(&cache->rwlock);
	rte_rwlock_init(&cache->mp_rwlock);
	TAILQ_INIT(&cache->mrs);
	TAILQ_INIT(&cache->mempools);
	cache->cdev = cdev;
	cache->name = cdev->dev->name;
	cache->ext_memseg = cdev->config.mr_ext_memseg_en;
	cdev->mr_cache = cache;
	return 0;
}

int
mlx5_mr_cache_create_secondary(struct mlx5_common_device *cdev)
{
	const struct mlx5_mr_cache *primary = cdev->primary->mr_cache;
	int ret;

	if (mlx5_mr_remote_lookup == NULL) {
		DRV_LOG(ERR,
			"%s: this build of the MR cache cannot ask a primary process",
			cdev->dev->name);
		rte_errno = ENOTSUP;
		return -ENOTSUP;
	}
	if (primary == NULL) {
		DRV_LOG(ERR, "%s: the primary's device has no MR cache",
			cdev->dev->name);
		rte_errno = ENODEV;
		return -ENODEV;
	}
	ret = mlx5_mr_cache_alloc(cdev, MLX5_MEM_SYS);
	if (ret != 0)
		return ret;
	cdev->mr_cache->remote = mlx5_mr_remote_lookup;
	cdev->mr_cache->remote_gen = &primary->gen;
	return 0;
}

int
mlx5_mr_cache_create(struct mlx5_common_device *cdev)
{
	struct mlx5_mr_cache *cache;
	int ret;

	/* In shared memory: secondary processes follow its generation. */
	ret = mlx5_mr_cache_alloc(cdev, MLX5_MEM_RTE);
	if (ret != 0)
		return ret;
	cache = cdev->mr_cache;
	if (cdev->config.mr_whole_mem_en)
		ret = mlx5_mr_whole_mem_init(cache);
	else
		ret = mlx5_mr_mem_events_subscribe(cache);
	if (ret == 0 && !cdev->config.mr_whole_mem_en &&
	    cdev->config.mr_mempool_reg_en)
		ret = mlx5_mr_mempool_subscribe(cache);
	if (ret != 0) {
		mlx5_mr_cache_destroy(cdev);
		rte_errno = -ret;
	}
	return ret;
}

void
mlx5_mr_cache_destroy(struct mlx5_common_device *cdev)
{
	struct mlx5_mr_cache *cache = cdev->mr_cache;
	struct mlx5_mr *mr;

	if (cache == NULL)
		return;
	if (cache->mempool_events)
		mlx5_mr_mempool_unsubscribe(cache);
	mlx5_mr_mem_events_unsubscribe(cache);
	mlx5_mr_mempool_release_all(cache);
	while ((mr = TAILQ_FIRST(&cache->mrs)) != NULL) {
		TAILQ_REMOVE(&cache->mrs, mr, next);
		mlx5_mr_destroy(cache, mr);
	}
	mlx5_mr_ext_index_free(&cache->ext);
	if (cache->whole_mr != NULL &&
	    cdev->glue->dereg_mr(cache->whole_mr) != 0)
		DRV_LOG(WARNING, "%s: deregistering the whole-memory MR failed",
			cache->name);
	mlx5_mr_table_free(&cache->table);
	mlx5_free(cache);
	cdev->mr_cache = NULL;
}
