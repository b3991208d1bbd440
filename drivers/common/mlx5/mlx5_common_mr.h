/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * Memory regions (MRs) for the datapath: every buffer a queue hands to the
 * device needs the lkey of a registration that covers it. The lookup runs
 * per packet, so it is layered by cost:
 *
 *   1. the queue's most recently used range (inline, below);
 *   2. the range used before it, then the queue's sorted table, a search
 *      tree of up to 255 ranges walked in branch-free steps (eight at
 *      most, ceil(log2(n + 1)) for n ranges), then
 *      the queue's linear cache of the last ranges it learned, then the
 *      ranges it learned beyond 255 (a sorted table that grows, filled in
 *      batches; mlx5_common_mr_ctrl.c, no lock);
 *   3. for an mbuf, the registration of its mempool; then the device's
 *      global sorted table (read lock);
 *   4. a new registration over the DPDK memory chunk of the address.
 *
 * Every range a queue caches belongs to a generation of the device. When
 * memory goes away the device invalidates the MRs over it, destroys their
 * keys and moves its generation; a queue compares generations before it
 * trusts its caches, so no lookup started after the invalidation returns a
 * key of freed memory.
 *
 * With the mr_whole_mem_en devarg, one key (an implicit on-demand-paging MR
 * with local access only) covers the whole address space: every lookup hits
 * the first level and nothing is ever registered or invalidated.
 */

#ifndef MLX5_COMMON_MR_H_
#define MLX5_COMMON_MR_H_

#include <stdbool.h>
#include <stdint.h>

#include <rte_common.h>
#include <rte_compat.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>

#include "rte_pmd_mlx5.h"

struct mlx5_common_device;
struct mlx5_mr_cache;

/*
 * The bottom halves are called from the class drivers' datapath, across
 * shared objects: through the GOT, not a PLT stub (one jump less a miss;
 * GCC only, others use the PLT).
 */
#if defined(__GNUC__) && !defined(__clang__)
#define MLX5_MR_NOPLT __attribute__((noplt))
#else
#define MLX5_MR_NOPLT
#endif

/** The lkey every lookup function returns on failure (rte_errno is set). */
#define MLX5_MR_LKEY_INVALID UINT32_MAX

/** Entries of a queue's linear cache. */
#define MLX5_MR_LINEAR_N 4

/** Capacity of a queue's sorted table: a full tree of eight levels. */
#define MLX5_MR_QUEUE_TABLE_N 255

/** One cached range: [start, end) is covered by the key lkey. */
struct mlx5_mr_range {
	uintptr_t start;
	uintptr_t end;
	uint32_t lkey;
};

/**
 * A queue's sorted table: its ranges in address order (sorted), and the
 * same ranges as a binary search tree in Eytzinger layout (node i has the
 * children 2i and 2i + 1; nodes 1 to 255, in-order = address order, unused
 * nodes after the last range) whose search ends on a leaf (256 to 511)
 * that holds the range found: a tree block is the keys (start - 1,
 * UINTPTR_MAX for an unused node), then the leaves' ends, starts - 1 and
 * lkeys (mlx5_common_mr_private.h); leaf 256 stands for "no range" (end
 * 0). The search reads nodes: the queue's own block, or a shared empty one
 * after a flush. The tree is rebuilt from sorted in batches: the last
 * stale ranges learned are in sorted only.
 */
struct mlx5_mr_qtable {
	const uintptr_t *nodes;
	uintptr_t *own;
	struct mlx5_mr_range *sorted;
	uint32_t len;
	uint32_t stale;
	/*
	 * The position the last search of the sorted ranges for a missed
	 * address gave (mlx5_mr_qtable_find_stale()): where the range then
	 * learned goes, unless the table changed; checked before use.
	 */
	uint32_t hint;
	/* Levels a search of @nodes takes: ceil(log2(ranges + 1)), 0 to 8. */
	uint32_t depth;
	uint32_t top; /* The node it starts from: 2^(8 - depth). */
};

struct mlx5_mr_overflow;

/**
 * Per-queue MR control: embedded in a queue, used by one thread at a time
 * (the queue's), initialised with mlx5_mr_ctrl_init().
 */
struct mlx5_mr_ctrl {
	/* Read by every lookup (inline functions below). */
	/*
	 * The two ranges used last, (mru_lo[i], mru_end[i]), i.e.
	 * [mru_lo[i] + 1, mru_end[i]): mru_lo is the byte before the start,
	 * as the queue table keys are (a hit there stores the key as is).
	 * Slot 0 is checked inline, slot 1 first by the bottom half; a hit
	 * in slot 1 swaps them. A range the queue table finds takes the slot
	 * mru_next names, the two in turn, so that two ranges used in turn
	 * settle in the two slots.
	 */
	uintptr_t mru_lo[2];
	uintptr_t mru_end[2];
	uint32_t mru_lkey[2];
	uint32_t gen;                 /**< Device generation of the caches. */
	uint32_t mru_next;            /**< Slot the next table hit takes. */
	const uint32_t *dev_gen;      /**< The device's generation. */
	uint64_t private_iova_flag;   /**< ol_flags mask, 0 if unknown. */
	/* Bottom half (mlx5_common_mr_ctrl.c). */
	struct mlx5_mr_cache *cache;  /**< The device's MR cache. */
	uint32_t linear_next;         /**< Linear slot the next range takes. */
	struct mlx5_mr_range linear[MLX5_MR_LINEAR_N];
	struct mlx5_mr_qtable table;  /**< The ranges the queue learned. */
	/** The ranges learned once the table was full (grows). */
	struct mlx5_mr_overflow *overflow;
} __rte_cache_aligned;

/** What a device's MR cache holds (mlx5_mr_stats()). */
struct mlx5_mr_stats {
	uint32_t mrs;          /**< Live MRs (registered with the device). */
	uint32_t segments;     /**< Ranges in the global table. */
	uint32_t mempools;     /**< Registered mempools. */
	uint32_t gen;          /**< Current generation. */
	uint64_t created;      /**< MRs registered since probe. */
	uint64_t destroyed;    /**< MRs deregistered since probe. */
	uint64_t invalidated;  /**< MRs invalidated because memory went away. */
	bool mem_events;       /**< EAL memory events are subscribed. */
	bool mempool_events;   /**< Mempool events are subscribed. */
	bool whole_mem;        /**< mr_whole_mem_en: one key for everything. */
	uint32_t whole_lkey;   /**< That key, when whole_mem. */
};

/**
 * Initialise a queue's MR control for a device.
 *
 * @param ctrl
 *   Control to initialise (its previous content is ignored).
 * @param cdev
 *   Probed common device.
 * @param socket
 *   NUMA socket of the queue (unused: the table is touched first by the
 *   queue's own thread), or SOCKET_ID_ANY.
 *
 * @return
 *   0 on success, a negative errno value otherwise and rte_errno is set:
 *   EINVAL (NULL argument), ENODEV (device without an MR cache), ENOMEM.
 */
__rte_internal
int mlx5_mr_ctrl_init(struct mlx5_mr_ctrl *ctrl,
		      struct mlx5_common_device *cdev, int socket);

/**
 * Release what mlx5_mr_ctrl_init() allocated. Safe on a zeroed control and
 * twice in a row.
 */
__rte_internal
void mlx5_mr_ctrl_free(struct mlx5_mr_ctrl *ctrl);

/**
 * Forget every range a queue cached and take the device's current
 * generation (the lookups do it when the generation moved).
 */
__rte_internal MLX5_MR_NOPLT
void mlx5_mr_ctrl_flush(struct mlx5_mr_ctrl *ctrl);

/**
 * Bottom half of mlx5_mr_addr2lkey() (the generation was checked): the
 * queue's other caches, the global table, then a registration of the DPDK
 * memory chunk of @p addr.
 *
 * @return
 *   The lkey, or MLX5_MR_LKEY_INVALID with rte_errno set: ENOENT (not DPDK
 *   memory this device may register on its own; the log says what to do),
 *   EFAULT (address in a memory segment that is not allocated), ENOMEM, or
 *   the device's error.
 */
__rte_internal MLX5_MR_NOPLT
uint32_t mlx5_mr_addr2lkey_bh(struct mlx5_mr_ctrl *ctrl, uintptr_t addr);

/**
 * Bottom half of mlx5_mr_mb2lkey(): the queue's other caches, the
 * registration of the mbuf's mempool, then as mlx5_mr_addr2lkey_bh().
 *
 * @return
 *   As mlx5_mr_addr2lkey_bh().
 */
__rte_internal MLX5_MR_NOPLT
uint32_t mlx5_mr_mb2lkey_bh(struct mlx5_mr_ctrl *ctrl, struct rte_mbuf *mb);

/**
 * The lkey of the memory at @p addr.
 *
 * @return
 *   The lkey, or MLX5_MR_LKEY_INVALID with rte_errno set (see
 *   mlx5_mr_addr2lkey_bh()).
 */
static __rte_always_inline uint32_t
mlx5_mr_addr2lkey(struct mlx5_mr_ctrl *ctrl, uintptr_t addr)
{
	/* A relaxed load suffices: who frees memory under a running queue
	 * races anyway; who frees it before, synchronised with the queue's
	 * thread, made the new generation visible. */
	if (unlikely(__atomic_load_n(ctrl->dev_gen, __ATOMIC_RELAXED) !=
		     ctrl->gen))
		mlx5_mr_ctrl_flush(ctrl);
	if (likely(addr > ctrl->mru_lo[0] && addr < ctrl->mru_end[0]))
		return ctrl->mru_lkey[0];
	return mlx5_mr_addr2lkey_bh(ctrl, addr);
}

/**
 * The lkey of an mbuf's buffer. A buffer flagged private IOVA
 * (RTE_PMD_MLX5_PRIVATE_IOVA) carries its key in buf_iova: no lookup.
 *
 * @return
 *   The lkey, or MLX5_MR_LKEY_INVALID with rte_errno set (see
 *   mlx5_mr_addr2lkey_bh()).
 */
static __rte_always_inline uint32_t
mlx5_mr_mb2lkey(struct mlx5_mr_ctrl *ctrl, struct rte_mbuf *mb)
{
	uintptr_t addr;

	if (mb->ol_flags & ctrl->private_iova_flag)
		return rte_pmd_mlx5_iova_to_mkey(mb->buf_iova);
	if (unlikely(__atomic_load_n(ctrl->dev_gen, __ATOMIC_RELAXED) !=
		     ctrl->gen))
		mlx5_mr_ctrl_flush(ctrl);
	addr = (uintptr_t)mb->buf_addr;
	if (likely(addr > ctrl->mru_lo[0] && addr < ctrl->mru_end[0]))
		return ctrl->mru_lkey[0];
	return mlx5_mr_mb2lkey_bh(ctrl, mb);
}

/**
 * Register the memory of a mempool (one MR per virtually contiguous chunk;
 * for a pool of pinned external buffers, the chunks of the buffers, so its
 * mbufs must be initialised). A chunk already covered by another mempool's
 * or an explicit registration shares that MR. With mr_mempool_reg_en
 * (default) the driver does this by itself when a pool becomes ready (a
 * pool of pinned external buffers: at the first lookup of one of its
 * mbufs), and undoes it when the pool goes.
 *
 * @return
 *   0 on success, a negative errno value otherwise and rte_errno is set:
 *   EINVAL (NULL argument, pool not populated), ENODEV (device without an
 *   MR cache), EEXIST (already registered with this device), ENOMEM, or the
 *   device's error. Nothing is left registered on failure.
 */
__rte_internal
int mlx5_mr_mempool_register(struct mlx5_common_device *cdev,
			     struct rte_mempool *mp);

/**
 * Undo mlx5_mr_mempool_register(): MRs no other user holds are destroyed
 * and every queue's cache is flushed before its next lookup.
 *
 * @return
 *   0 on success, a negative errno value otherwise and rte_errno is set:
 *   EINVAL (NULL argument), ENODEV, ENOENT (not registered).
 */
__rte_internal
int mlx5_mr_mempool_unregister(struct mlx5_common_device *cdev,
			       struct rte_mempool *mp);

/**
 * Register memory the driver must not register on its own: memory of
 * rte_extmem_register(), pinned external buffers, any application memory.
 * The application keeps it mapped until mlx5_mr_ext_unregister().
 *
 * @return
 *   0 on success, a negative errno value otherwise and rte_errno is set:
 *   EINVAL (NULL address, zero length, wrapping range), ENODEV, EEXIST (this
 *   exact range is already registered explicitly), EFAULT (not mapped),
 *   ENOMEM, or the device's error.
 */
__rte_internal
int mlx5_mr_ext_register(struct mlx5_common_device *cdev, void *addr,
			 size_t len);

/**
 * Tell the device that [@p addr, @p addr + @p len) goes away: every MR of
 * the device over any part of it (explicit, on demand, a mempool's) is
 * invalidated, its key destroyed, and every queue's cache flushed before its
 * next lookup. The explicit way to do what an EAL memory free event does.
 *
 * @return
 *   0 on success, a negative errno value otherwise and rte_errno is set:
 *   EINVAL (bad range), ENODEV, ENOENT (no MR of the device overlaps it).
 */
__rte_internal
int mlx5_mr_ext_unregister(struct mlx5_common_device *cdev, void *addr,
			   size_t len);

/**
 * Read what a device's MR cache holds.
 *
 * @return
 *   0 on success, a negative errno value otherwise and rte_errno is set:
 *   EINVAL (NULL argument), ENODEV (device without an MR cache).
 */
__rte_internal
int mlx5_mr_stats(struct mlx5_common_device *cdev, struct mlx5_mr_stats *st);

/*
 * Called by the common layer's probe and remove (mlx5_common.c), not
 * exported; defined in mlx5_common_mr_cache.c: create the MR cache once the
 * PD is open (0 or a negative errno, nothing left on failure), destroy it
 * before the PD is closed.
 */
int mlx5_mr_cache_create(struct mlx5_common_device *cdev);
void mlx5_mr_cache_destroy(struct mlx5_common_device *cdev);
/* A secondary process's cache of @cdev (a secondary record): misses are
 * asked of the primary's cache (mlx5_common_mr_mp.c); -ENOTSUP in a build
 * without the multi-process layer. */
int mlx5_mr_cache_create_secondary(struct mlx5_common_device *cdev);

/**
 * DMA map/unmap of a bus driver (rte_dev_dma_map()/rte_dev_dma_unmap()):
 * mlx5_mr_ext_register()/mlx5_mr_ext_unregister() on the device's common
 * device; the IOVA is not used (mlx5 devices translate virtual addresses).
 * For the bus drivers of the backends (the rdma-core backend's, the
 * software device's adapter).
 */
__rte_internal
int mlx5_mr_dev_dma_map(struct rte_device *dev, void *addr, uint64_t iova,
			size_t len);
/** Undo mlx5_mr_dev_dma_map(). */
__rte_internal
int mlx5_mr_dev_dma_unmap(struct rte_device *dev, void *addr, uint64_t iova,
			  size_t len);

#endif /* MLX5_COMMON_MR_H_ */
