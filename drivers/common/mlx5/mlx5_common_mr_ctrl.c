/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * A queue's side of the MR cache: its control structure and the bottom half
 * of its lookups. Levels, cheapest first (the generation check and the
 * first level are inline, in mlx5_common_mr.h):
 *
 *   most recently used range -> the one before it -> queue table
 *   -> linear cache -> overflow table                            (no lock)
 *   -> mempool registration (mbufs) -> global table   (device read locks)
 *   -> registration of the DPDK memory chunk                (write lock)
 *
 * Whatever a miss finds is learned by the queue: it becomes the most
 * recently used range (the one it replaces becomes the second), enters the
 * queue table while there is room (else the overflow table), and takes the
 * next slot of the linear cache. A range the table finds takes one of the
 * two most recent slots, in turn, so that two ranges used in turn end up
 * in both and cost no search; the second slot costs a table hit two
 * compares and the hit one more instruction (a xor). The table comes
 * before the linear cache: its search costs at most eight steps (255
 * ranges; four for 8 to 15), about what a scan of the four linear slots
 * costs, so the linear cache earns its place only for what the table
 * could not take (once full, a table keeps its ranges until the next
 * flush). Before a queue uses anything it cached, it
 * checks that the device's generation did not move; if it did, it forgets
 * everything.
 *
 * The queue's levels are a leaf: no call, no saved register, a tail call
 * to the levels below on a miss.
 */

#include <errno.h>
#include <string.h>

#include <rte_errno.h>

#include "mlx5_malloc.h"
#include "mlx5_common.h"
#include "mlx5_common_log.h"
#include "mlx5_common_mr_private.h"

/* Forget everything; the caches now belong to generation @gen. */
static void
mlx5_mr_ctrl_reset(struct mlx5_mr_ctrl *ctrl, uint32_t gen)
{
	struct mlx5_mr_cache *cache = ctrl->cache;

	for (unsigned int i = 0; i < 2; i++) {
		ctrl->mru_lo[i] = UINTPTR_MAX;
		ctrl->mru_end[i] = 0;
		ctrl->mru_lkey[i] = MLX5_MR_LKEY_INVALID;
	}
	if (cache->whole_mr != NULL) {
		/* One key for every address: the first level always hits. */
		ctrl->mru_lo[0] = 0;
		ctrl->mru_end[0] = UINTPTR_MAX;
		ctrl->mru_lkey[0] = cache->whole_lkey;
	}
	ctrl->mru_next = 1;
	memset(ctrl->linear, 0, sizeof(ctrl->linear));
	ctrl->linear_next = 0;
	mlx5_mr_qtable_clear(&ctrl->table);
	if (ctrl->overflow != NULL) {
		mlx5_mr_table_clear(&ctrl->overflow->table);
		mlx5_mr_table_clear(&ctrl->overflow->pending);
	}
	ctrl->gen = gen;
}

int
mlx5_mr_ctrl_init(struct mlx5_mr_ctrl *ctrl, struct mlx5_common_device *cdev,
		  int socket)
{
	struct mlx5_mr_cache *cache;

	if (ctrl == NULL) {
		DRV_LOG(ERR, "%s: NULL control", __func__);
		rte_errno = EINVAL;
		return -EINVAL;
	}
	cache = mlx5_mr_cache_of(cdev, __func__);
	if (cache == NULL)
		return -rte_errno;
	memset(ctrl, 0, sizeof(*ctrl));
	if (mlx5_mr_qtable_init(&ctrl->table, cdev, socket) != 0) {
		DRV_LOG(ERR, "%s: %s: no memory for a queue MR table",
			__func__, cache->name);
		rte_errno = ENOMEM;
		return -ENOMEM;
	}
	ctrl->cache = cache;
	ctrl->dev_gen = cache->remote ? cache->remote_gen : &cache->gen;
	/* Registered at the first probe; 0 would only disable the test. */
	ctrl->private_iova_flag = rte_pmd_mlx5_private_iova_flag();
	mlx5_mr_ctrl_reset(ctrl, __atomic_load_n(ctrl->dev_gen,
						 __ATOMIC_ACQUIRE));
	return 0;
}

void
mlx5_mr_ctrl_free(struct mlx5_mr_ctrl *ctrl)
{
	if (ctrl == NULL)
		return;
	mlx5_mr_qtable_free(&ctrl->table);
	if (ctrl->overflow != NULL) {
		mlx5_mr_table_free(&ctrl->overflow->table);
		mlx5_mr_table_free(&ctrl->overflow->pending);
		mlx5_free(ctrl->overflow);
		ctrl->overflow = NULL;
	}
	ctrl->cache = NULL;
	for (unsigned int i = 0; i < 2; i++) {
		ctrl->mru_lo[i] = UINTPTR_MAX;
		ctrl->mru_end[i] = 0;
	}
	memset(ctrl->linear, 0, sizeof(ctrl->linear));
}

void
mlx5_mr_ctrl_flush(struct mlx5_mr_ctrl *ctrl)
{
	mlx5_mr_ctrl_reset(ctrl, __atomic_load_n(ctrl->dev_gen,
						 __ATOMIC_ACQUIRE));
}

/*
 * Make (lo, end), i.e. [lo + 1, end), the most recently used range, in
 * slot 0; the one it replaces goes to slot 1 (below the table: not on the
 * hit paths).
 */
static uint32_t
mlx5_mr_ctrl_use(struct mlx5_mr_ctrl *ctrl, uintptr_t lo, uintptr_t end,
		 uint32_t lkey)
{
	ctrl->mru_lo[1] = ctrl->mru_lo[0];
	ctrl->mru_end[1] = ctrl->mru_end[0];
	ctrl->mru_lkey[1] = ctrl->mru_lkey[0];
	ctrl->mru_lo[0] = lo;
	ctrl->mru_end[0] = end;
	ctrl->mru_lkey[0] = lkey;
	ctrl->mru_next = 1;
	return lkey;
}

/* Slot 1 hit: the two swap, it goes to slot 0, the one checked inline. */
static __rte_noinline uint32_t
mlx5_mr_ctrl_swap(struct mlx5_mr_ctrl *ctrl)
{
	return mlx5_mr_ctrl_use(ctrl, ctrl->mru_lo[1], ctrl->mru_end[1],
				ctrl->mru_lkey[1]);
}

/*
 * The overflow table of a queue, made at its first need; NULL without
 * memory (the queue then asks the device's levels for those ranges).
 */
static struct mlx5_mr_overflow *
mlx5_mr_ctrl_overflow(struct mlx5_mr_ctrl *ctrl)
{
	struct mlx5_mr_overflow *o = ctrl->overflow;
	const struct mlx5_common_device *cdev = ctrl->cache->cdev;

	if (o != NULL)
		return o;
	o = mlx5_malloc(cdev, MLX5_MEM_SYS | MLX5_MEM_ZERO, sizeof(*o), 0,
			SOCKET_ID_ANY);
	if (o != NULL && (mlx5_mr_table_init(&o->table, cdev, 256) != 0 ||
			  mlx5_mr_table_init(&o->pending, cdev,
					     4 * MLX5_MR_OVERFLOW_BATCH) != 0)) {
		mlx5_mr_table_free(&o->table);
		mlx5_free(o);
		o = NULL;
	}
	ctrl->overflow = o;
	return o;
}

/* Add @r to the overflow table: to its batch, merged once full. */
static void
mlx5_mr_ctrl_overflow_add(struct mlx5_mr_overflow *o,
			  const struct mlx5_mr_range *r)
{
	if (mlx5_mr_table_add(&o->pending, r) > 0 &&
	    o->pending.len >= MLX5_MR_OVERFLOW_BATCH)
		mlx5_mr_table_merge(&o->table, &o->pending);
}

/* The overflow table's entry over @addr: 0 and *r, or -ENOENT. */
static int
mlx5_mr_ctrl_overflow_find(const struct mlx5_mr_overflow *o, uintptr_t addr,
			   struct mlx5_mr_range *r)
{
	const struct mlx5_mr_table *t = &o->table;
	int32_t i = t->len > 0 ? mlx5_mr_table_find(t, addr) : -1;

	if (i < 0 && o->pending.len > 0) {
		t = &o->pending;
		i = mlx5_mr_table_find(t, addr);
	}
	if (i < 0)
		return -ENOENT;
	*r = (struct mlx5_mr_range){ t->starts[i], t->ends[i], t->lkeys[i] };
	return 0;
}

/* Remember a range found below the queue, valid at generation @gen. */
static void
mlx5_mr_ctrl_learn(struct mlx5_mr_ctrl *ctrl, const struct mlx5_mr_range *r,
		   uint32_t gen)
{
	if (gen != ctrl->gen)
		mlx5_mr_ctrl_reset(ctrl, gen);
	/* A full table keeps what it has until the next flush; what comes
	 * after goes to the overflow table (made at the first need). */
	if (ctrl->table.len < MLX5_MR_QUEUE_TABLE_N)
		mlx5_mr_qtable_add(&ctrl->table, r);
	else if (mlx5_mr_ctrl_overflow(ctrl) != NULL)
		mlx5_mr_ctrl_overflow_add(ctrl->overflow, r);
	ctrl->linear[ctrl->linear_next] = *r;
	ctrl->linear_next = (ctrl->linear_next + 1) % MLX5_MR_LINEAR_N;
	mlx5_mr_ctrl_use(ctrl, r->start - 1, r->end, r->lkey);
}

int
mlx5_mr_lookup_below(struct mlx5_mr_cache *cache, uintptr_t addr,
		     struct rte_mempool *mp, struct mlx5_mr_range *r,
		     uint32_t *gen)
{
	int ret = -ENOENT;

	if (mp != NULL)
		ret = mlx5_mr_mempool_lookup(cache, mp, addr, r, gen);
	if (ret != 0)
		ret = mlx5_mr_lookup_global(cache, addr, r, gen);
	if (ret != 0)
		ret = mlx5_mr_register_addr(cache, addr, r, gen);
	return ret;
}

/*
 * Below the queue's table and linear cache: the ranges the table learned
 * since its tree was rebuilt, the overflow table (no lock: the queue's
 * own), then the device's levels, then a new registration.
 */
static __rte_noinline uint32_t
mlx5_mr_ctrl_miss(struct mlx5_mr_ctrl *ctrl, uintptr_t addr,
		  struct rte_mbuf *mb)
{
	struct mlx5_mr_cache *cache = ctrl->cache;
	struct rte_mempool *mp = NULL;
	struct mlx5_mr_range r;
	uint32_t gen;
	int ret = -ENOENT;

	if (mlx5_mr_qtable_find_stale(&ctrl->table, addr, &r) == 0)
		return mlx5_mr_ctrl_use(ctrl, r.start - 1, r.end, r.lkey);
	if (ctrl->overflow != NULL &&
	    mlx5_mr_ctrl_overflow_find(ctrl->overflow, addr, &r) == 0)
		return mlx5_mr_ctrl_use(ctrl, r.start - 1, r.end, r.lkey);

	/* A clone's data lives in the pool of the mbuf it is attached to. */
	if (mb != NULL)
		mp = RTE_MBUF_CLONED(mb) ? rte_mbuf_from_indirect(mb)->pool :
					   mb->pool;
	if (unlikely(cache->remote != NULL))
		ret = cache->remote(cache, addr, mp, &r, &gen);
	else
		ret = mlx5_mr_lookup_below(cache, addr, mp, &r, &gen);
	if (ret != 0) {
		rte_errno = -ret;
		return MLX5_MR_LKEY_INVALID;
	}
	mlx5_mr_ctrl_learn(ctrl, &r, gen);
	return r.lkey;
}

/*
 * The queue's levels below the first (generation checked by the caller):
 * the second most recent range, the table, then the linear cache; on a
 * miss, the levels below. A hit on the second range leaves both where
 * they are: two ranges used in turn then cost no store.
 */
static __rte_always_inline uint32_t
mlx5_mr_ctrl_lookup(struct mlx5_mr_ctrl *ctrl, uintptr_t addr,
		    struct rte_mbuf *mb)
{
	const uintptr_t *b;
	uintptr_t leaf;
	uintptr_t end;

	if (addr > ctrl->mru_lo[1] && addr < ctrl->mru_end[1])
		return mlx5_mr_ctrl_swap(ctrl);
	b = ctrl->table.nodes;
	leaf = mlx5_mr_qtable_leaf(&ctrl->table, addr);
	end = MLX5_MR_QT_END(b, leaf);
	if (likely(addr < end)) {
		uintptr_t t = ctrl->mru_next;
		uint32_t lkey;

		/* The slots in turn: the range found and the one before
		 * stay, whichever slot each is in. */
		ctrl->mru_lo[t] = MLX5_MR_QT_LO(b, leaf);
		ctrl->mru_end[t] = end;
		lkey = MLX5_MR_QT_LKEY(b, leaf);
		ctrl->mru_lkey[t] = lkey;
		/* Read again: one instruction (an xor in memory), not a copy
		 * of t and an xor and a store. */
		rte_compiler_barrier();
		ctrl->mru_next ^= 1;
		return lkey;
	}
	/*
	 * Unrolled, no loop counter; the barrier makes the hit path read the
	 * slot again, so that the compares take their operand from memory.
	 */
#define MLX5_MR_LINEAR_HIT(n) \
	if (addr >= ctrl->linear[n].start && addr < ctrl->linear[n].end) { \
		rte_compiler_barrier(); \
		return mlx5_mr_ctrl_use(ctrl, ctrl->linear[n].start - 1, \
					ctrl->linear[n].end, \
					ctrl->linear[n].lkey); \
	}
	RTE_BUILD_BUG_ON(MLX5_MR_LINEAR_N != 4);
	MLX5_MR_LINEAR_HIT(0);
	MLX5_MR_LINEAR_HIT(1);
	MLX5_MR_LINEAR_HIT(2);
	MLX5_MR_LINEAR_HIT(3);
#undef MLX5_MR_LINEAR_HIT
	return mlx5_mr_ctrl_miss(ctrl, addr, mb);
}

uint32_t
mlx5_mr_addr2lkey_bh(struct mlx5_mr_ctrl *ctrl, uintptr_t addr)
{
	return mlx5_mr_ctrl_lookup(ctrl, addr, NULL);
}

uint32_t
mlx5_mr_mb2lkey_bh(struct mlx5_mr_ctrl *ctrl, struct rte_mbuf *mb)
{
	return mlx5_mr_ctrl_lookup(ctrl, (uintptr_t)mb->buf_addr, mb);
}
