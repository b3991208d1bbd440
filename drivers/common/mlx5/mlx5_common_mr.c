/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * The MR cache of a device: MR objects, the global table of what they
 * cover, registration on demand over DPDK memory, invalidation when memory
 * goes away (EAL memory events, explicit unregistration). The cache's life
 * with the device (and the whole-memory key) is mlx5_common_mr_cache.c's,
 * a queue's lookups mlx5_common_mr_ctrl.c's; this file calls neither.
 *
 * Invalidation is the one protocol every other part relies on: under the
 * write lock the MRs over the range leave the list, the table is rebuilt
 * from the survivors and the generation moves; their keys are destroyed
 * before the caller gets control back. A queue checks the generation before
 * it trusts its caches (mlx5_common_mr.h), so once an invalidation returned
 * no lookup can produce one of those keys.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <rte_eal_memconfig.h>
#include <rte_errno.h>
#include <rte_fbarray.h>
#include <rte_memory.h>

#include "mlx5_malloc.h"
#include "mlx5_common.h"
#include "mlx5_common_log.h"
#include "mlx5_common_private.h"
#include "mlx5_common_mr_private.h"

/* Name of the EAL memory event callback (with the cache as argument). */
#define MLX5_MR_MEM_EVENT_NAME "mlx5_common_mr"

static const char *const mlx5_mr_kind_names[] = {
	[MLX5_MR_ON_DEMAND] = "on-demand",
	[MLX5_MR_MEMPOOL] = "mempool",
	[MLX5_MR_EXTERNAL] = "external",
};

struct mlx5_mr_cache *
mlx5_mr_cache_of(struct mlx5_common_device *cdev, const char *fn)
{
	if (cdev == NULL || cdev->mr_cache == NULL) {
		DRV_LOG(ERR, "%s: %s", fn, cdev == NULL ? "NULL device" :
			"device has no MR cache (not probed?)");
		rte_errno = cdev == NULL ? EINVAL : ENODEV;
		return NULL;
	}
	return cdev->mr_cache;
}

struct mlx5_mr *
mlx5_mr_new(struct mlx5_mr_cache *cache, uintptr_t start, uintptr_t end,
	    enum mlx5_mr_kind kind)
{
	const struct mlx5_glue *glue = cache->cdev->glue;
	/* Freed from EAL's memory event callbacks: no rte_free() there. */
	struct mlx5_mr *mr = mlx5_malloc(cache->cdev,
					 MLX5_MEM_SYS | MLX5_MEM_ZERO,
					 sizeof(*mr), 0, SOCKET_ID_ANY);

	if (mr == NULL) {
		rte_errno = ENOMEM;
		return NULL;
	}
	mr->ibv_mr = glue->reg_mr(cache->cdev->pd, (void *)start, end - start,
				  MLX5_MR_ACCESS);
	if (mr->ibv_mr == NULL) {
		rte_errno = errno != 0 ? errno : ENOMEM;
		DRV_LOG(ERR, "%s: cannot register %s memory [0x%" PRIxPTR
			", 0x%" PRIxPTR ") with the device: %s", cache->name,
			mlx5_mr_kind_names[kind], start, end,
			strerror(rte_errno));
		mlx5_free(mr);
		return NULL;
	}
	mr->start = start;
	mr->end = end;
	mr->lkey = mr->ibv_mr->lkey;
	mr->kind = kind;
	__atomic_fetch_add(&cache->created, 1, __ATOMIC_RELAXED);
	/* Asked first: rte_log() would find out after three calls. */
	if (rte_log_can_log(mlx5_common_logtype, RTE_LOG_DEBUG))
		DRV_LOG(DEBUG, "%s: %s MR [0x%" PRIxPTR ", 0x%" PRIxPTR
			") lkey 0x%08x", cache->name,
			mlx5_mr_kind_names[kind], start, end, mr->lkey);
	return mr;
}

/* Destroy the device registration of @mr (kept: the structure). */
static void
mlx5_mr_dereg(struct mlx5_mr_cache *cache, struct mlx5_mr *mr)
{
	int ret;

	if (mr->ibv_mr == NULL)
		return;
	ret = cache->cdev->glue->dereg_mr(mr->ibv_mr);
	if (ret != 0)
		DRV_LOG(WARNING, "%s: deregistering MR lkey 0x%08x failed: %s; the device keeps it until the context closes",
			cache->name, mr->lkey, strerror(ret));
	mr->ibv_mr = NULL;
	__atomic_fetch_add(&cache->destroyed, 1, __ATOMIC_RELAXED);
}

void
mlx5_mr_destroy(struct mlx5_mr_cache *cache, struct mlx5_mr *mr)
{
	mlx5_mr_dereg(cache, mr);
	mlx5_free(mr);
}

/*
 * Publish @mr (write lock held): into the list and the gaps it fills in the
 * global table. Returns the number of table entries added (0: other MRs
 * cover it all), or -ENOMEM with @mr not published.
 */
int
mlx5_mr_insert(struct mlx5_mr_cache *cache, struct mlx5_mr *mr)
{
	const struct mlx5_mr_range r = { mr->start, mr->end, mr->lkey };
	int ret = mlx5_mr_table_cover(&cache->table, &r);

	if (ret < 0)
		return ret;
	TAILQ_INSERT_TAIL(&cache->mrs, mr, next);
	cache->mr_count++;
	return ret;
}

/*
 * Take @mr out of the list (write lock held; the caller rebuilds the table
 * and moves the generation). An MR no mempool registration holds goes to
 * @graveyard, destroyed once the lock is released; a held one loses its key
 * now and stays, dead, until its last holder lets it go.
 */
void
mlx5_mr_unlink(struct mlx5_mr_cache *cache, struct mlx5_mr *mr,
	       struct mlx5_mr_list *graveyard)
{
	TAILQ_REMOVE(&cache->mrs, mr, next);
	cache->mr_count--;
	if (mr->kind == MLX5_MR_EXTERNAL)
		mlx5_mr_ext_index_del(&cache->ext, mr);
	mr->dead = true;
	if (mr->refcnt == 0)
		TAILQ_INSERT_TAIL(graveyard, mr, next);
	else
		mlx5_mr_dereg(cache, mr);
}

/* Destroy what mlx5_mr_unlink() set aside (no lock held). */
void
mlx5_mr_retire(struct mlx5_mr_cache *cache, struct mlx5_mr_list *graveyard)
{
	struct mlx5_mr *mr;

	while ((mr = TAILQ_FIRST(graveyard)) != NULL) {
		TAILQ_REMOVE(graveyard, mr, next);
		mlx5_mr_destroy(cache, mr);
	}
}

/* Rebuild the table and move the generation (write lock held). */
void
mlx5_mr_republish(struct mlx5_mr_cache *cache)
{
	if (mlx5_mr_table_rebuild(&cache->table, &cache->mrs) != 0)
		DRV_LOG(WARNING, "%s: no memory to rebuild the MR table: emptied, lookups register again",
			cache->name);
	/* Release: the new table is complete before anyone sees the gen. */
	__atomic_store_n(&cache->gen, cache->gen + 1, __ATOMIC_RELEASE);
}

/*
 * Invalidate every MR over any part of [start, start + len): keys destroyed
 * and the generation moved before this returns. Returns how many.
 */
static unsigned int
mlx5_mr_invalidate(struct mlx5_mr_cache *cache, uintptr_t start, size_t len,
		   const char *why)
{
	struct mlx5_mr_list graveyard = TAILQ_HEAD_INITIALIZER(graveyard);
	uintptr_t end = start + len;
	struct mlx5_mr *mr, *next_mr;
	unsigned int n = 0;

	rte_rwlock_write_lock(&cache->rwlock);
	for (mr = TAILQ_FIRST(&cache->mrs); mr != NULL; mr = next_mr) {
		next_mr = TAILQ_NEXT(mr, next);
		if (mr->start >= end || start >= mr->end)
			continue;
		DRV_LOG(DEBUG, "%s: %s: invalidating %s MR [0x%" PRIxPTR
			", 0x%" PRIxPTR ") lkey 0x%08x", cache->name, why,
			mlx5_mr_kind_names[mr->kind], mr->start, mr->end,
			mr->lkey);
		mlx5_mr_unlink(cache, mr, &graveyard);
		n++;
	}
	if (n > 0) {
		mlx5_mr_republish(cache);
		cache->invalidated += n;
	}
	rte_rwlock_write_unlock(&cache->rwlock);
	mlx5_mr_retire(cache, &graveyard);
	if (n > 0)
		DRV_LOG(INFO, "%s: %s [0x%" PRIxPTR ", 0x%" PRIxPTR
			"): %u MR(s) invalidated, generation %u", cache->name,
			why, start, end, n, cache->gen);
	return n;
}

/* EAL memory event: memory about to be freed takes its MRs with it. */
static void
mlx5_mr_mem_event_cb(enum rte_mem_event type, const void *addr, size_t len,
		     void *arg)
{
	if (type == RTE_MEM_EVENT_FREE)
		mlx5_mr_invalidate(arg, (uintptr_t)addr, len,
				   "memory freed by EAL");
}

/*
 * The chunk of DPDK memory an on-demand MR for @addr covers: the run of
 * allocated memory segments around it (mr_ext_memseg_en) or its segment.
 * Memory EAL may free without telling the driver is refused, with the way
 * to register it in the log. EAL memory lock held.
 */
static int
mlx5_mr_chunk(struct mlx5_mr_cache *cache, uintptr_t addr, uintptr_t *start,
	      uintptr_t *end)
{
	struct rte_memseg_list *msl = rte_mem_virt2memseg_list((void *)addr);
	const char *why = NULL;
	unsigned int idx, first, n;

	if (msl == NULL)
		why = "it is not DPDK memory";
	else if (msl->external && !msl->heap)
		why = "it is memory of rte_extmem_register(), which EAL frees without telling drivers";
	else if (msl->external && !cache->mem_events)
		why = "it is external heap memory, and without EAL memory events (legacy memory mode) the driver would not see it removed";
	if (why != NULL) {
		DRV_LOG(ERR, "%s: no MR covers address 0x%" PRIxPTR
			" and the driver does not register it on its own: %s;"
			" register it with rte_dev_dma_map() or mlx5_mr_ext_register()",
			cache->name, addr, why);
		rte_errno = ENOENT;
		return -ENOENT;
	}
	idx = (addr - (uintptr_t)msl->base_va) / msl->page_sz;
	if (rte_fbarray_is_used(&msl->memseg_arr, idx) != 1) {
		DRV_LOG(ERR, "%s: address 0x%" PRIxPTR " is in a DPDK memory segment that is not allocated",
			cache->name, addr);
		rte_errno = EFAULT;
		return -EFAULT;
	}
	first = idx;
	n = 1;
	if (cache->ext_memseg) {
		int back = rte_fbarray_find_rev_contig_used(&msl->memseg_arr,
							    idx);
		int fwd = rte_fbarray_find_contig_used(&msl->memseg_arr, idx);

		if (back > 0 && fwd > 0) {
			first = idx + 1 - back;
			n = back + fwd - 1;
		}
	}
	*start = (uintptr_t)msl->base_va + (uintptr_t)first * msl->page_sz;
	*end = *start + (uintptr_t)n * msl->page_sz;
	return 0;
}

int
mlx5_mr_register_addr(struct mlx5_mr_cache *cache, uintptr_t addr,
		      struct mlx5_mr_range *r, uint32_t *gen)
{
	uintptr_t start, end;
	struct mlx5_mr *mr;
	int found;
	int ret;

	/* The memory cannot be freed while the registration is made. */
	rte_mcfg_mem_read_lock();
	ret = mlx5_mr_chunk(cache, addr, &start, &end);
	if (ret != 0)
		goto out;
	/* Another queue may have registered it meanwhile. */
	if (mlx5_mr_lookup_global(cache, addr, r, gen) == 0)
		goto out;
	mr = mlx5_mr_new(cache, start, end, MLX5_MR_ON_DEMAND);
	if (mr == NULL) {
		ret = -rte_errno;
		goto out;
	}
	rte_rwlock_write_lock(&cache->rwlock);
	ret = mlx5_mr_insert(cache, mr);
	if (ret == 0) {
		/* Shadowed by a concurrent registration: not needed. */
		TAILQ_REMOVE(&cache->mrs, mr, next);
		cache->mr_count--;
	}
	found = mlx5_mr_table_get(cache, addr, r, gen);
	rte_rwlock_write_unlock(&cache->rwlock);
	if (ret <= 0)
		mlx5_mr_destroy(cache, mr);
	if (found != 0) {
		DRV_LOG(ERR, "%s: no memory for the MR table", cache->name);
		ret = -ENOMEM;
	} else {
		ret = 0;
	}
out:
	rte_mcfg_mem_read_unlock();
	if (ret < 0)
		rte_errno = -ret;
	return ret;
}

int
mlx5_mr_ext_register(struct mlx5_common_device *cdev, void *addr, size_t len)
{
	struct mlx5_mr_cache *cache = mlx5_mr_cache_of(cdev, __func__);
	uintptr_t start = (uintptr_t)addr;
	struct mlx5_mr *mr;
	int ret;

	if (cache == NULL)
		return -rte_errno;
	if (mlx5_range_check(__func__, addr, len) != 0)
		return -EINVAL;
	if (cache->whole_mr != NULL)
		return 0; /* The whole-memory key covers it already. */
	/* A duplicate is found under the write lock, below: checked first
	 * as well, it cost every registration a read lock. */
	mr = mlx5_mr_new(cache, start, start + len, MLX5_MR_EXTERNAL);
	if (mr == NULL)
		return -rte_errno;
	rte_rwlock_write_lock(&cache->rwlock);
	if (mlx5_mr_ext_index_find(&cache->ext, start, start + len) != NULL)
		ret = -EEXIST;
	else if (mlx5_mr_ext_index_add(&cache->ext, cache->cdev, mr) != 0)
		ret = -ENOMEM;
	else if ((ret = mlx5_mr_insert(cache, mr)) < 0)
		mlx5_mr_ext_index_del(&cache->ext, mr);
	rte_rwlock_write_unlock(&cache->rwlock);
	if (ret == -EEXIST) {
		mlx5_mr_destroy(cache, mr);
		goto exists;
	}
	if (ret < 0) {
		mlx5_mr_destroy(cache, mr);
		DRV_LOG(ERR, "%s: %s: no memory for the MR table", __func__,
			cache->name);
		rte_errno = ENOMEM;
		return -ENOMEM;
	}
	return 0;
exists:
	DRV_LOG(ERR, "%s: %s: [%p, +%zu) is already registered", __func__,
		cache->name, addr, len);
	rte_errno = EEXIST;
	return -EEXIST;
}

int
mlx5_mr_ext_unregister(struct mlx5_common_device *cdev, void *addr,
		       size_t len)
{
	struct mlx5_mr_cache *cache = mlx5_mr_cache_of(cdev, __func__);

	if (cache == NULL)
		return -rte_errno;
	if (mlx5_range_check(__func__, addr, len) != 0)
		return -EINVAL;
	if (cache->whole_mr != NULL)
		return 0;
	if (mlx5_mr_invalidate(cache, (uintptr_t)addr, len,
			       "unregistered") == 0) {
		DRV_LOG(ERR, "%s: %s: no MR covers any part of [%p, +%zu)",
			__func__, cache->name, addr, len);
		rte_errno = ENOENT;
		return -ENOENT;
	}
	return 0;
}

/* rte_dev_dma_map()/unmap() on a device held for the call. */
static int
mlx5_mr_dev_dma(struct rte_device *dev, void *addr, size_t len, bool map)
{
	struct mlx5_common_device *cdev = mlx5_common_dev_acquire(dev);
	int ret;

	if (cdev == NULL)
		return -ENODEV;
	ret = map ? mlx5_mr_ext_register(cdev, addr, len) :
		    mlx5_mr_ext_unregister(cdev, addr, len);
	mlx5_common_dev_release(cdev);
	return ret;
}

int
mlx5_mr_dev_dma_map(struct rte_device *dev, void *addr, uint64_t iova,
		    size_t len)
{
	RTE_SET_USED(iova);
	return mlx5_mr_dev_dma(dev, addr, len, true);
}

int
mlx5_mr_dev_dma_unmap(struct rte_device *dev, void *addr, uint64_t iova,
		      size_t len)
{
	RTE_SET_USED(iova);
	return mlx5_mr_dev_dma(dev, addr, len, false);
}

int
mlx5_mr_stats(struct mlx5_common_device *cdev, struct mlx5_mr_stats *st)
{
	struct mlx5_mr_cache *cache = mlx5_mr_cache_of(cdev, __func__);

	if (cache == NULL)
		return -rte_errno;
	if (st == NULL) {
		rte_errno = EINVAL;
		return -EINVAL;
	}
	rte_rwlock_read_lock(&cache->mp_rwlock);
	rte_rwlock_read_lock(&cache->rwlock);
	*st = (struct mlx5_mr_stats){
		.mrs = cache->mr_count,
		.segments = cache->table.len,
		.mempools = cache->mempool_count,
		.gen = cache->gen,
		.created = __atomic_load_n(&cache->created, __ATOMIC_RELAXED),
		.destroyed = __atomic_load_n(&cache->destroyed,
					     __ATOMIC_RELAXED),
		.invalidated = cache->invalidated,
		.mem_events = cache->mem_events,
		.mempool_events = cache->mempool_events,
		.whole_mem = cache->whole_mr != NULL,
		.whole_lkey = cache->whole_lkey,
	};
	rte_rwlock_read_unlock(&cache->rwlock);
	rte_rwlock_read_unlock(&cache->mp_rwlock);
	return 0;
}

/* Subscribe to EAL memory events; legacy memory mode has none. */
int
mlx5_mr_mem_events_subscribe(struct mlx5_mr_cache *cache)
{
	if (rte_mem_event_callback_register(MLX5_MR_MEM_EVENT_NAME,
					    mlx5_mr_mem_event_cb, cache) == 0) {
		cache->mem_events = true;
		return 0;
	}
	if (rte_errno == ENOTSUP) {
		DRV_LOG(INFO, "%s: EAL memory events are not available (legacy memory mode): DPDK's own memory is never freed in this mode; external memory is registered only explicitly or through mempools",
			cache->name);
		return 0;
	}
	DRV_LOG(ERR, "%s: cannot subscribe to EAL memory events: %s",
		cache->name, rte_strerror(rte_errno));
	return -rte_errno;
}

void
mlx5_mr_mem_events_unsubscribe(struct mlx5_mr_cache *cache)
{
	if (cache->mem_events &&
	    rte_mem_event_callback_unregister(MLX5_MR_MEM_EVENT_NAME,
					      cache) != 0)
		DRV_LOG(WARNING, "%s: cannot unsubscribe from EAL memory events: %s",
			cache->name, rte_strerror(rte_errno));
	cache->mem_events = false;
}
