/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * A queue's side of the MR cache: its control structure and the bottom half
 * of its lookups. Levels, cheapest first (the generation check and the
 * first level are inline, in mlx5_common_mr.h):
 *
 *   most recently used range -> queue table -> linear cache      (no lock)
 *   -> mempool registration (mbufs) -> global table   (device read locks)
 *   -> registration of the DPDK memory chunk                (write lock)
 *
 * Whatever a miss finds is learned by the queue: it becomes the most
 * recently used range, enters the queue table while there is room, and
 * takes the next slot of the linear cache. The table comes first: its
 * search costs the same eight steps for 1 or 255 ranges, about what a
 * scan of the four linear slots costs, so the linear cache earns its place
 * only for what the table could not take (once full, a table keeps its
 * ranges until the next flush). Before a queue uses anything it cached, it
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

	if (cache->whole_mr != NULL) {
		/* One key for every address: the first level always hits. */
		ctrl->mru_lo = 0;
		ctrl->mru_end = UINTPTR_MAX;
		ctrl->mru_lkey = cache->whole_lkey;
	} else {
		ctrl->mru_lo = UINTPTR_MAX;
		ctrl->mru_end = 0;
		ctrl->mru_lkey = MLX5_MR_LKEY_INVALID;
	}
	memset(ctrl->linear, 0, sizeof(ctrl->linear));
	ctrl->linear_next = 0;
	mlx5_mr_qtable_clear(&ctrl->table);
	if (ctrl->overflow != NULL)
		mlx5_mr_table_clear(ctrl->overflow);
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
	ctrl->dev_gen = &cache->gen;
	/* Registered at the first probe; 0 would only disable the test. */
	ctrl->private_iova_flag = rte_pmd_mlx5_private_iova_flag();
	mlx5_mr_ctrl_reset(ctrl, __atomic_load_n(&cache->gen,
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
		mlx5_mr_table_free(ctrl->overflow);
		mlx5_free(ctrl->overflow);
		ctrl->overflow = NULL;
	}
	ctrl->cache = NULL;
	ctrl->mru_lo = UINTPTR_MAX;
	ctrl->mru_end = 0;
	memset(ctrl->linear, 0, sizeof(ctrl->linear));
}

void
mlx5_mr_ctrl_flush(struct mlx5_mr_ctrl *ctrl)
{
	mlx5_mr_ctrl_reset(ctrl, __atomic_load_n(ctrl->dev_gen,
						 __ATOMIC_ACQUIRE));
}

/* Make (lo, end), i.e. [lo + 1, end), the most recently used range. */
static __rte_always_inline uint32_t
mlx5_mr_ctrl_use(struct mlx5_mr_ctrl *ctrl, uintptr_t lo, uintptr_t end,
		 uint32_t lkey)
{
	ctrl->mru_lo = lo;
	ctrl->mru_lkey = lkey;
	ctrl->mru_end = end;
	return lkey;
}

/*
 * The overflow table of a queue, made at its first need; NULL without
 * memory (the queue then asks the device's levels for those ranges).
 */
static struct mlx5_mr_table *
mlx5_mr_ctrl_overflow(struct mlx5_mr_ctrl *ctrl)
{
	struct mlx5_mr_table *t = ctrl->overflow;
	const struct mlx5_common_device *cdev = ctrl->cache->cdev;

	if (t != NULL)
		return t;
	t = mlx5_malloc(cdev, MLX5_MEM_SYS | MLX5_MEM_ZERO, sizeof(*t), 0,
			SOCKET_ID_ANY);
	if (t != NULL && mlx5_mr_table_init(t, cdev, 256) != 0) {
		mlx5_free(t);
		t = NULL;
	}
	ctrl->overflow = t;
	return t;
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
		mlx5_mr_table_cover(ctrl->overflow, r);
	ctrl->linear[ctrl->linear_next] = *r;
	ctrl->linear_next = (ctrl->linear_next + 1) % MLX5_MR_LINEAR_N;
	mlx5_mr_ctrl_use(ctrl, r->start - 1, r->end, r->lkey);
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
	if (ctrl->overflow != NULL && ctrl->overflow->len > 0) {
		const struct mlx5_mr_table *t = ctrl->overflow;
		int32_t i = mlx5_mr_table_find(t, addr);

		if (i >= 0)
			return mlx5_mr_ctrl_use(ctrl, t->starts[i] - 1,
						t->ends[i], t->lkeys[i]);
	}

	/* A clone's data lives in the pool of the mbuf it is attached to. */
	if (mb != NULL)
		mp = RTE_MBUF_CLONED(mb) ? rte_mbuf_from_indirect(mb)->pool :
					   mb->pool;
	if (mp != NULL)
		ret = mlx5_mr_mempool_lookup(cache, mp, addr, &r, &gen);
	if (ret != 0)
		ret = mlx5_mr_lookup_global(cache, addr, &r, &gen);
	if (ret != 0)
		ret = mlx5_mr_register_addr(cache, addr, &r, &gen);
	if (ret != 0) {
		rte_errno = -ret;
		return MLX5_MR_LKEY_INVALID;
	}
	mlx5_mr_ctrl_learn(ctrl, &r, gen);
	return r.lkey;
}

/*
 * The queue's levels below the first (generation checked by the caller):
 * the table, then the linear cache; on a miss, the levels below.
 */
static __rte_always_inline uint32_t
mlx5_mr_ctrl_lookup(struct mlx5_mr_ctrl *ctrl, uintptr_t addr,
		    struct rte_mbuf *mb)
{
	const uintptr_t *b = ctrl->table.nodes;
	uintptr_t node = mlx5_mr_qtable_node(&ctrl->table, addr);
	uintptr_t key = MLX5_MR_QT_KEY(b, node);
	uintptr_t end = MLX5_MR_QT_END(b, node);

	if (likely(addr < end))
		return mlx5_mr_ctrl_use(ctrl, key, end,
					MLX5_MR_QT_LKEY(b, node));
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
