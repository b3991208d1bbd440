/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * Mempool registration: the memory of a pool is registered once, one MR per
 * virtually contiguous chunk (page-aligned), when the pool becomes ready
 * (mempool events, mr_mempool_reg_en) or when a class driver asks; the MRs
 * go when the pool does. An mbuf lookup that misses its queue's caches asks
 * its pool's registration first: a walk of a short list, no global search.
 *
 * A chunk that another registration (another pool's, an explicit one)
 * covers already shares that MR, reference counted; on-demand MRs are never
 * shared, since a free of any part of their chunk invalidates them.
 *
 * A pool of pinned external buffers is ready before its mbufs point at the
 * buffers (rte_pktmbuf_pool_create_extbuf() initialises them afterwards):
 * the events register it at the first lookup of one of its mbufs instead.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_errno.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>

#include "mlx5_malloc.h"
#include "mlx5_common.h"
#include "mlx5_common_log.h"
#include "mlx5_common_mr_private.h"

/* Address ranges collected from a pool. */
struct mlx5_mempool_ranges {
	struct mlx5_mr_range *r;
	uint32_t n;
	uint32_t cap;
	int err;
	uintptr_t page;
};

/* Append [start, end), merging with the last range when they touch. */
static void
mlx5_mempool_ranges_push(struct mlx5_mempool_ranges *rs, uintptr_t start,
			 uintptr_t end)
{
	struct mlx5_mr_range *last = rs->n > 0 ? &rs->r[rs->n - 1] : NULL;

	start = RTE_ALIGN_FLOOR(start, rs->page);
	end = RTE_ALIGN_CEIL(end, rs->page);
	if (last != NULL && start >= last->start && start <= last->end) {
		last->end = RTE_MAX(last->end, end);
		return;
	}
	if (rs->err != 0)
		return;
	if (rs->n == rs->cap) {
		uint32_t cap = rs->cap != 0 ? rs->cap * 2 : 8;
		struct mlx5_mr_range *r = realloc(rs->r, cap * sizeof(*r));

		if (r == NULL) {
			rs->err = -ENOMEM;
			return;
		}
		rs->r = r;
		rs->cap = cap;
	}
	rs->r[rs->n++] = (struct mlx5_mr_range){ start, end, 0 };
}

static void
mlx5_mempool_chunk_cb(struct rte_mempool *mp, void *opaque,
		      struct rte_mempool_memhdr *memhdr, unsigned int idx)
{
	RTE_SET_USED(mp);
	RTE_SET_USED(idx);
	mlx5_mempool_ranges_push(opaque, (uintptr_t)memhdr->addr,
				 (uintptr_t)memhdr->addr + memhdr->len);
}

static void
mlx5_mempool_extbuf_cb(struct rte_mempool *mp, void *opaque, void *obj,
		       unsigned int idx)
{
	struct mlx5_mempool_ranges *rs = opaque;
	const struct rte_mbuf *mb = obj;

	RTE_SET_USED(mp);
	RTE_SET_USED(idx);
	if (mb->buf_addr == NULL || mb->buf_len == 0) {
		rs->err = -EAGAIN; /* Not initialised yet. */
		return;
	}
	mlx5_mempool_ranges_push(rs, (uintptr_t)mb->buf_addr,
				 (uintptr_t)mb->buf_addr + mb->buf_len);
}

static int
mlx5_mempool_range_cmp(const void *a, const void *b)
{
	const struct mlx5_mr_range *ra = a, *rb = b;

	return ra->start < rb->start ? -1 : ra->start > rb->start;
}

/* A pktmbuf pool whose mbufs point at pinned external buffers? */
static bool
mlx5_mempool_is_extbuf(struct rte_mempool *mp)
{
	return mp->private_data_size >=
	       sizeof(struct rte_pktmbuf_pool_private) &&
	       (rte_pktmbuf_priv_flags(mp) & RTE_PKTMBUF_POOL_F_PINNED_EXT_BUF);
}

/*
 * The virtually contiguous, page-aligned chunks of a pool's memory; for a
 * pool of pinned external buffers, of the buffers' memory (the pool itself
 * only holds the mbuf headers).
 */
static int
mlx5_mempool_ranges_get(struct rte_mempool *mp, struct mlx5_mempool_ranges *rs)
{
	long page = sysconf(_SC_PAGESIZE);
	uint32_t i, n;

	memset(rs, 0, sizeof(*rs));
	rs->page = page > 0 ? (uintptr_t)page : 4096;
	if (mlx5_mempool_is_extbuf(mp))
		rte_mempool_obj_iter(mp, mlx5_mempool_extbuf_cb, rs);
	else
		rte_mempool_mem_iter(mp, mlx5_mempool_chunk_cb, rs);
	if (rs->err != 0 || rs->n == 0) {
		free(rs->r);
		return rs->err != 0 ? rs->err : -EINVAL;
	}
	qsort(rs->r, rs->n, sizeof(*rs->r), mlx5_mempool_range_cmp);
	for (i = 1, n = 1; i < rs->n; i++) {
		if (rs->r[i].start <= rs->r[n - 1].end)
			rs->r[n - 1].end = RTE_MAX(rs->r[n - 1].end,
						   rs->r[i].end);
		else
			rs->r[n++] = rs->r[i];
	}
	rs->n = n;
	return 0;
}

/* The registration of @mp (mp lock held), or NULL. */
static struct mlx5_mempool_reg *
mlx5_mempool_reg_find(struct mlx5_mr_cache *cache,
		      const struct rte_mempool *mp)
{
	struct mlx5_mempool_reg *reg;

	TAILQ_FOREACH(reg, &cache->mempools, next)
		if (reg->mp == mp)
			return reg;
	return NULL;
}

/* A live MR that may be shared and covers @r, with a new reference. */
static struct mlx5_mr *
mlx5_mempool_share(struct mlx5_mr_cache *cache, const struct mlx5_mr_range *r)
{
	struct mlx5_mr *mr;

	rte_rwlock_write_lock(&cache->rwlock);
	TAILQ_FOREACH(mr, &cache->mrs, next)
		if (mr->kind != MLX5_MR_ON_DEMAND && mr->start <= r->start &&
		    r->end <= mr->end)
			break;
	if (mr != NULL)
		mr->refcnt++;
	rte_rwlock_write_unlock(&cache->rwlock);
	return mr;
}

/*
 * Drop the references of @reg's first @n MRs (mp write lock held). MRs
 * left without a holder are destroyed, unless registered explicitly; the
 * generation moves if any was in the table.
 */
static void
mlx5_mempool_reg_put(struct mlx5_mr_cache *cache, struct mlx5_mempool_reg *reg,
		     uint32_t n)
{
	struct mlx5_mr_list graveyard = TAILQ_HEAD_INITIALIZER(graveyard);
	bool republish = false;

	rte_rwlock_write_lock(&cache->rwlock);
	for (uint32_t i = 0; i < n; i++) {
		struct mlx5_mr *mr = reg->mrs[i];

		if (--mr->refcnt > 0)
			continue;
		if (mr->dead) {
			/* Invalidated while held: its key is gone already. */
			TAILQ_INSERT_TAIL(&graveyard, mr, next);
		} else if (mr->kind == MLX5_MR_MEMPOOL) {
			mlx5_mr_unlink(cache, mr, &graveyard);
			republish = true;
		}
	}
	if (republish)
		mlx5_mr_republish(cache);
	rte_rwlock_write_unlock(&cache->rwlock);
	mlx5_mr_retire(cache, &graveyard);
}

/* Register @mp: 0 or a negative errno (rte_errno set), logged. */
static int
mlx5_mempool_reg_create(struct mlx5_mr_cache *cache, struct rte_mempool *mp)
{
	struct mlx5_mempool_ranges rs;
	struct mlx5_mempool_reg *reg;
	uint32_t i;
	int ret;

	if (mp->populated_size < mp->size) {
		DRV_LOG(ERR, "%s: mempool %s is not populated (%u of %u objects)",
			cache->name, mp->name, mp->populated_size, mp->size);
		rte_errno = EINVAL;
		return -EINVAL;
	}
	ret = mlx5_mempool_ranges_get(mp, &rs);
	if (ret < 0) {
		DRV_LOG(ERR, "%s: cannot collect the memory chunks of mempool %s%s",
			cache->name, mp->name, ret == -EAGAIN ?
			": its mbufs do not point at their external buffers yet" :
			"");
		rte_errno = ret == -EAGAIN ? EINVAL : -ret;
		return -rte_errno;
	}
	reg = mlx5_malloc(cache->cdev, MLX5_MEM_ZERO,
			  sizeof(*reg) + rs.n * sizeof(reg->mrs[0]), 0,
			  SOCKET_ID_ANY);
	if (reg == NULL) {
		free(rs.r);
		rte_errno = ENOMEM;
		return -ENOMEM;
	}
	reg->mp = mp;
	rte_rwlock_write_lock(&cache->mp_rwlock);
	if (mlx5_mempool_reg_find(cache, mp) != NULL) {
		ret = -EEXIST;
		goto error;
	}
	for (i = 0; i < rs.n; i++) {
		struct mlx5_mr *mr = mlx5_mempool_share(cache, &rs.r[i]);

		if (mr == NULL) {
			mr = mlx5_mr_new(cache, rs.r[i].start, rs.r[i].end,
					 MLX5_MR_MEMPOOL);
			if (mr == NULL) {
				ret = -rte_errno;
				goto error;
			}
			mr->refcnt = 1;
			rte_rwlock_write_lock(&cache->rwlock);
			ret = mlx5_mr_insert(cache, mr);
			rte_rwlock_write_unlock(&cache->rwlock);
			if (ret < 0) {
				mlx5_mr_destroy(cache, mr);
				goto error;
			}
		}
		reg->mrs[reg->mrs_n++] = mr;
	}
	TAILQ_INSERT_TAIL(&cache->mempools, reg, next);
	cache->mempool_count++;
	rte_rwlock_write_unlock(&cache->mp_rwlock);
	DRV_LOG(DEBUG, "%s: mempool %s registered: %u chunk(s)", cache->name,
		mp->name, rs.n);
	free(rs.r);
	return 0;
error:
	mlx5_mempool_reg_put(cache, reg, reg->mrs_n);
	rte_rwlock_write_unlock(&cache->mp_rwlock);
	mlx5_free(reg);
	free(rs.r);
	if (ret == -EEXIST)
		DRV_LOG(ERR, "%s: mempool %s is already registered",
			cache->name, mp->name);
	else
		DRV_LOG(ERR, "%s: cannot register mempool %s: %s",
			cache->name, mp->name, strerror(-ret));
	rte_errno = -ret;
	return ret;
}

/* Unregister @mp: 0, or -ENOENT if it is not registered. */
static int
mlx5_mempool_reg_destroy(struct mlx5_mr_cache *cache,
			 const struct rte_mempool *mp)
{
	struct mlx5_mempool_reg *reg;

	rte_rwlock_write_lock(&cache->mp_rwlock);
	reg = mlx5_mempool_reg_find(cache, mp);
	if (reg != NULL) {
		TAILQ_REMOVE(&cache->mempools, reg, next);
		cache->mempool_count--;
		mlx5_mempool_reg_put(cache, reg, reg->mrs_n);
	}
	rte_rwlock_write_unlock(&cache->mp_rwlock);
	if (reg == NULL)
		return -ENOENT;
	DRV_LOG(DEBUG, "%s: mempool %s unregistered", cache->name, mp->name);
	mlx5_free(reg);
	return 0;
}

/* The MR cache an API call on @mp works with, or NULL (rte_errno set). */
static struct mlx5_mr_cache *
mlx5_mempool_api(struct mlx5_common_device *cdev,
		 const struct rte_mempool *mp, const char *fn)
{
	struct mlx5_mr_cache *cache = mlx5_mr_cache_of(cdev, fn);

	if (cache != NULL && mp == NULL) {
		DRV_LOG(ERR, "%s: NULL mempool", fn);
		rte_errno = EINVAL;
		return NULL;
	}
	return cache;
}

int
mlx5_mr_mempool_register(struct mlx5_common_device *cdev,
			 struct rte_mempool *mp)
{
	struct mlx5_mr_cache *cache = mlx5_mempool_api(cdev, mp, __func__);

	if (cache == NULL)
		return -rte_errno;
	if (cache->whole_mr != NULL)
		return 0; /* The whole-memory key covers it already. */
	return mlx5_mempool_reg_create(cache, mp);
}

int
mlx5_mr_mempool_unregister(struct mlx5_common_device *cdev,
			   struct rte_mempool *mp)
{
	struct mlx5_mr_cache *cache = mlx5_mempool_api(cdev, mp, __func__);

	if (cache == NULL)
		return -rte_errno;
	if (cache->whole_mr != NULL)
		return 0;
	if (mlx5_mempool_reg_destroy(cache, mp) != 0) {
		DRV_LOG(ERR, "%s: %s: mempool %s is not registered", __func__,
			cache->name, mp->name);
		rte_errno = ENOENT;
		return -ENOENT;
	}
	return 0;
}

/* The MR of @mp over @addr: 0, -ENOENT, or -ESRCH (@mp not registered). */
static int
mlx5_mempool_reg_lookup(struct mlx5_mr_cache *cache,
			const struct rte_mempool *mp, uintptr_t addr,
			struct mlx5_mr_range *r, uint32_t *gen)
{
	const struct mlx5_mempool_reg *reg;
	int ret = -ENOENT;

	rte_rwlock_read_lock(&cache->mp_rwlock);
	reg = mlx5_mempool_reg_find(cache, mp);
	if (reg == NULL)
		ret = -ESRCH;
	for (uint32_t i = 0; reg != NULL && i < reg->mrs_n; i++) {
		const struct mlx5_mr *mr = reg->mrs[i];

		if (addr < mr->start || addr >= mr->end)
			continue;
		rte_rwlock_read_lock(&cache->rwlock);
		if (!mr->dead) {
			*r = (struct mlx5_mr_range){ mr->start, mr->end,
						     mr->lkey };
			*gen = cache->gen;
			ret = 0;
		}
		rte_rwlock_read_unlock(&cache->rwlock);
		break;
	}
	rte_rwlock_read_unlock(&cache->mp_rwlock);
	return ret;
}

int
mlx5_mr_mempool_lookup(struct mlx5_mr_cache *cache, struct rte_mempool *mp,
		       uintptr_t addr, struct mlx5_mr_range *r, uint32_t *gen)
{
	int ret = mlx5_mempool_reg_lookup(cache, mp, addr, r, gen);

	/* A pinned-external-buffer pool the events left for its first use. */
	if (ret == -ESRCH && cache->mempool_events &&
	    mlx5_mempool_is_extbuf(mp)) {
		uint32_t now = __atomic_load_n(&cache->gen, __ATOMIC_ACQUIRE);

		if (__atomic_load_n(&cache->extbuf_failed_mp,
				    __ATOMIC_RELAXED) == mp &&
		    __atomic_load_n(&cache->extbuf_failed_gen,
				    __ATOMIC_RELAXED) == now)
			return ret; /* Failed already; go on below. */
		if (mlx5_mempool_reg_create(cache, mp) != 0) {
			__atomic_store_n(&cache->extbuf_failed_gen, now,
					 __ATOMIC_RELAXED);
			__atomic_store_n(&cache->extbuf_failed_mp, mp,
					 __ATOMIC_RELAXED);
			return ret;
		}
		ret = mlx5_mempool_reg_lookup(cache, mp, addr, r, gen);
	}
	return ret;
}

/* Mempool events: register I/O pools when ready, unregister them at the end. */
static void
mlx5_mempool_event_cb(enum rte_mempool_event event, struct rte_mempool *mp,
		      void *arg)
{
	struct mlx5_mr_cache *cache = arg;

	switch (event) {
	case RTE_MEMPOOL_EVENT_READY:
		if (mp->flags & RTE_MEMPOOL_F_NON_IO)
			return;
		if (mlx5_mempool_is_extbuf(mp)) {
			DRV_LOG(DEBUG, "%s: mempool %s has pinned external buffers: registered at the first lookup of its mbufs",
				cache->name, mp->name);
			return;
		}
		/* A failure is logged; the pool's mbufs then go on demand. */
		mlx5_mempool_reg_create(cache, mp);
		break;
	case RTE_MEMPOOL_EVENT_DESTROY:
		mlx5_mempool_reg_destroy(cache, mp);
		/* A new pool at the same address deserves its own try. */
		__atomic_compare_exchange_n(&cache->extbuf_failed_mp, &mp, NULL,
					    false, __ATOMIC_RELAXED,
					    __ATOMIC_RELAXED);
		break;
	}
}

/* Pools that were ready before the device was probed. */
static void
mlx5_mempool_walk_cb(struct rte_mempool *mp, void *arg)
{
	struct mlx5_mr_cache *cache = arg;

	if (mp->populated_size < mp->size || (mp->flags & RTE_MEMPOOL_F_NON_IO))
		return;
	rte_rwlock_read_lock(&cache->mp_rwlock);
	if (mlx5_mempool_reg_find(cache, mp) != NULL)
		mp = NULL;
	rte_rwlock_read_unlock(&cache->mp_rwlock);
	if (mp != NULL)
		mlx5_mempool_reg_create(cache, mp);
}

int
mlx5_mr_mempool_subscribe(struct mlx5_mr_cache *cache)
{
	int ret = rte_mempool_event_callback_register(mlx5_mempool_event_cb,
						      cache);

	if (ret != 0) {
		DRV_LOG(ERR, "%s: cannot subscribe to mempool events: %s",
			cache->name, rte_strerror(-ret));
		rte_errno = -ret;
		return ret;
	}
	cache->mempool_events = true;
	rte_mempool_walk(mlx5_mempool_walk_cb, cache);
	return 0;
}

void
mlx5_mr_mempool_unsubscribe(struct mlx5_mr_cache *cache)
{
	if (rte_mempool_event_callback_unregister(mlx5_mempool_event_cb,
						  cache) != 0)
		DRV_LOG(WARNING, "%s: cannot unsubscribe from mempool events",
			cache->name);
	cache->mempool_events = false;
}

void
mlx5_mr_mempool_release_all(struct mlx5_mr_cache *cache)
{
	struct mlx5_mempool_reg *reg;

	rte_rwlock_write_lock(&cache->mp_rwlock);
	while ((reg = TAILQ_FIRST(&cache->mempools)) != NULL) {
		TAILQ_REMOVE(&cache->mempools, reg, next);
		cache->mempool_count--;
		mlx5_mempool_reg_put(cache, reg, reg->mrs_n);
		mlx5_free(reg);
	}
	rte_rwlock_write_unlock(&cache->mp_rwlock);
}
