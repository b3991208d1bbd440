/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * Sorted tables of address ranges, each with the lkey that covers it:
 *
 * - a queue's table (at most 255 ranges, filled as the queue learns them):
 *   a sorted array, and the same ranges as a search tree in Eytzinger
 *   layout, rebuilt at each insertion (rare: once per range and
 *   generation) so that a lookup is eight branch-free steps, whatever the
 *   number of ranges (mlx5_mr_qtable_node());
 * - the device's global table (grows): a partition of what the live MRs
 *   cover, so that a range covered by two MRs is looked up in one place;
 *   its arrays are kept apart (starts, ends, lkeys) so that the search,
 *   which reads only starts, walks a dense array (mlx5_mr_table_index()).
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>

#include "mlx5_malloc.h"
#include "mlx5_common_mr_private.h"

/* Search steps for @len entries: ceil(log2(len)). */
static uint32_t
mlx5_mr_table_depth(uint32_t len)
{
	return len <= 1 ? 0 : 32 - (uint32_t)__builtin_clz(len - 1);
}

/* Allocate arrays of @cap entries, starts all UINTPTR_MAX. */
static int
mlx5_mr_table_alloc(struct mlx5_mr_table *t,
		    const struct mlx5_common_device *cdev, uint32_t cap)
{
	/*
	 * System memory whatever sys_mem_en says: the global table is
	 * rebuilt from EAL's memory event callbacks, which run with EAL's
	 * memory lock held, where rte_malloc()/rte_free() would deadlock.
	 */
	t->cdev = cdev;
	t->starts = mlx5_malloc(cdev, MLX5_MEM_SYS,
				cap * sizeof(*t->starts), 0, SOCKET_ID_ANY);
	t->ends = mlx5_malloc(cdev, MLX5_MEM_SYS | MLX5_MEM_ZERO,
			      cap * sizeof(*t->ends), 0, SOCKET_ID_ANY);
	t->lkeys = mlx5_malloc(cdev, MLX5_MEM_SYS | MLX5_MEM_ZERO,
			       cap * sizeof(*t->lkeys), 0, SOCKET_ID_ANY);
	if (t->starts == NULL || t->ends == NULL || t->lkeys == NULL) {
		mlx5_mr_table_free(t);
		return -ENOMEM;
	}
	for (uint32_t i = 0; i < cap; i++)
		t->starts[i] = UINTPTR_MAX;
	t->cap = cap;
	t->len = 0;
	t->depth = 0;
	return 0;
}

int
mlx5_mr_table_init(struct mlx5_mr_table *t,
		   const struct mlx5_common_device *cdev, uint32_t cap)
{
	memset(t, 0, sizeof(*t));
	return mlx5_mr_table_alloc(t, cdev, rte_align32pow2(RTE_MAX(cap, 1u)));
}

void
mlx5_mr_table_free(struct mlx5_mr_table *t)
{
	const struct mlx5_common_device *cdev = t->cdev;

	mlx5_free(t->starts);
	mlx5_free(t->ends);
	mlx5_free(t->lkeys);
	memset(t, 0, sizeof(*t));
	t->cdev = cdev;
}

static void
mlx5_mr_table_clear(struct mlx5_mr_table *t)
{
	for (uint32_t i = 0; i < t->len; i++)
		t->starts[i] = UINTPTR_MAX;
	t->len = 0;
	t->depth = 0;
}

/* Make room for @want entries (global table only). */
static int
mlx5_mr_table_reserve(struct mlx5_mr_table *t, uint32_t want)
{
	struct mlx5_mr_table bigger;
	uint32_t cap = t->cap;

	if (want <= cap)
		return 0;
	while (cap < want)
		cap *= 2;
	if (cap == 0 || mlx5_mr_table_alloc(&bigger, t->cdev, cap) != 0)
		return -ENOMEM;
	memcpy(bigger.starts, t->starts, t->len * sizeof(*t->starts));
	memcpy(bigger.ends, t->ends, t->len * sizeof(*t->ends));
	memcpy(bigger.lkeys, t->lkeys, t->len * sizeof(*t->lkeys));
	bigger.len = t->len;
	bigger.depth = t->depth;
	mlx5_mr_table_free(t);
	*t = bigger;
	return 0;
}

/* Insert an entry at @pos (room checked by the caller). */
static void
mlx5_mr_table_insert(struct mlx5_mr_table *t, uint32_t pos, uintptr_t start,
		     uintptr_t end, uint32_t lkey)
{
	uint32_t tail = t->len - pos;

	memmove(&t->starts[pos + 1], &t->starts[pos], tail * sizeof(*t->starts));
	memmove(&t->ends[pos + 1], &t->ends[pos], tail * sizeof(*t->ends));
	memmove(&t->lkeys[pos + 1], &t->lkeys[pos], tail * sizeof(*t->lkeys));
	t->starts[pos] = start;
	t->ends[pos] = end;
	t->lkeys[pos] = lkey;
	t->len++;
	t->depth = mlx5_mr_table_depth(t->len);
}

/* Position of the first entry starting after @addr. */
static uint32_t
mlx5_mr_table_after(const struct mlx5_mr_table *t, uintptr_t addr)
{
	uint32_t i = mlx5_mr_table_index(t, addr);

	return t->starts[i] <= addr ? i + 1 : 0;
}

/*
 * Walk the gaps the table leaves in @r: count them, or fill them with
 * entries of @r's key.
 */
static uint32_t
mlx5_mr_table_gaps(struct mlx5_mr_table *t, const struct mlx5_mr_range *r,
		   bool fill)
{
	uint32_t pos = mlx5_mr_table_after(t, r->start);
	uintptr_t cursor = r->start;
	uint32_t gaps = 0;

	if (pos > 0 && t->ends[pos - 1] > cursor)
		cursor = t->ends[pos - 1];
	while (cursor < r->end) {
		uintptr_t next = pos < t->len ? t->starts[pos] : UINTPTR_MAX;

		if (next > cursor) {
			uintptr_t stop = RTE_MIN(next, r->end);

			/* The gap [cursor, stop) ends where entry pos starts. */
			if (fill)
				mlx5_mr_table_insert(t, pos++, cursor, stop,
						     r->lkey);
			gaps++;
			cursor = stop;
		} else {
			cursor = RTE_MAX(cursor, t->ends[pos]);
			pos++;
		}
	}
	return gaps;
}

/*
 * The global table: cover what @r covers and no entry does yet. All or
 * nothing: room is made before the first entry goes in.
 *
 * Returns the number of entries added (0: @r is shadowed entirely), or
 * -ENOMEM.
 */
int
mlx5_mr_table_cover(struct mlx5_mr_table *t, const struct mlx5_mr_range *r)
{
	uint32_t gaps = mlx5_mr_table_gaps(t, r, false);

	if (gaps == 0)
		return 0;
	if (mlx5_mr_table_reserve(t, t->len + gaps) != 0)
		return -ENOMEM;
	return (int)mlx5_mr_table_gaps(t, r, true);
}

static int
mlx5_mr_range_cmp(const void *a, const void *b)
{
	const struct mlx5_mr_range *ra = a, *rb = b;

	return ra->start < rb->start ? -1 : ra->start > rb->start;
}

/*
 * The global table from scratch, from the live MRs: sorted by start, then
 * swept so that each address covered by several MRs goes to one of them.
 * On -ENOMEM the table is emptied (lookups then miss, never go stale).
 */
int
mlx5_mr_table_rebuild(struct mlx5_mr_table *t, const struct mlx5_mr_list *mrs)
{
	struct mlx5_mr_range *ranges;
	struct mlx5_mr_table fresh;
	const struct mlx5_mr *mr;
	uintptr_t covered = 0;
	uint32_t n = 0;

	TAILQ_FOREACH(mr, mrs, next)
		n++;
	ranges = mlx5_malloc(t->cdev, MLX5_MEM_SYS,
			     RTE_MAX(n, 1u) * sizeof(*ranges), 0, SOCKET_ID_ANY);
	if (ranges == NULL ||
	    mlx5_mr_table_alloc(&fresh, t->cdev,
				rte_align32pow2(RTE_MAX(n, 1u))) != 0) {
		mlx5_free(ranges);
		mlx5_mr_table_clear(t);
		return -ENOMEM;
	}
	n = 0;
	TAILQ_FOREACH(mr, mrs, next)
		ranges[n++] = (struct mlx5_mr_range){ mr->start, mr->end,
						      mr->lkey };
	qsort(ranges, n, sizeof(*ranges), mlx5_mr_range_cmp);
	for (uint32_t i = 0; i < n; i++) {
		uintptr_t start = RTE_MAX(ranges[i].start, covered);

		if (ranges[i].end <= start)
			continue;
		fresh.starts[fresh.len] = start;
		fresh.ends[fresh.len] = ranges[i].end;
		fresh.lkeys[fresh.len] = ranges[i].lkey;
		fresh.len++;
		covered = ranges[i].end;
	}
	fresh.depth = mlx5_mr_table_depth(fresh.len);
	mlx5_free(ranges);
	mlx5_mr_table_free(t);
	*t = fresh;
	return 0;
}

/* Queue tables. */

int
mlx5_mr_qtable_init(struct mlx5_mr_qtable *t,
		    const struct mlx5_common_device *cdev, int socket)
{
	memset(t, 0, sizeof(*t));
	/* On the queue's socket: the datapath reads them. */
	t->nodes = mlx5_malloc(cdev, 0, MLX5_MR_QT_NODES *
			       (2 * sizeof(uintptr_t) + sizeof(uint32_t)),
			       RTE_CACHE_LINE_SIZE, socket);
	t->sorted = mlx5_malloc(cdev, 0,
				MLX5_MR_QUEUE_TABLE_N * sizeof(*t->sorted), 0,
				socket);
	if (t->nodes == NULL || t->sorted == NULL) {
		mlx5_mr_qtable_free(t);
		return -ENOMEM;
	}
	mlx5_mr_qtable_clear(t);
	return 0;
}

void
mlx5_mr_qtable_free(struct mlx5_mr_qtable *t)
{
	mlx5_free(t->nodes);
	mlx5_free(t->sorted);
	memset(t, 0, sizeof(*t));
}

void
mlx5_mr_qtable_clear(struct mlx5_mr_qtable *t)
{
	for (uint32_t i = 0; i < MLX5_MR_QT_NODES; i++) {
		MLX5_MR_QT_KEY(t, i) = UINTPTR_MAX;
		MLX5_MR_QT_END(t, i) = 0;
		MLX5_MR_QT_LKEY(t, i) = MLX5_MR_LKEY_INVALID;
	}
	t->len = 0;
}

/* Lay the sorted ranges out in the tree, in order from @node down. */
static void
mlx5_mr_qtable_fill(struct mlx5_mr_qtable *t, uint32_t node, uint32_t *rank)
{
	if (node > MLX5_MR_QUEUE_TABLE_N)
		return;
	mlx5_mr_qtable_fill(t, 2 * node, rank);
	if (*rank < t->len) {
		const struct mlx5_mr_range *r = &t->sorted[*rank];

		MLX5_MR_QT_KEY(t, node) = r->start - 1;
		MLX5_MR_QT_END(t, node) = r->end;
		MLX5_MR_QT_LKEY(t, node) = r->lkey;
	} else {
		MLX5_MR_QT_KEY(t, node) = UINTPTR_MAX;
		MLX5_MR_QT_END(t, node) = 0;
		MLX5_MR_QT_LKEY(t, node) = MLX5_MR_LKEY_INVALID;
	}
	(*rank)++;
	mlx5_mr_qtable_fill(t, 2 * node + 1, rank);
}

/*
 * Add @r to a queue's table, unless a range starts at the same address or
 * the table is full (the queue then serves new ranges from its linear
 * cache and the global table until its next flush).
 */
int
mlx5_mr_qtable_add(struct mlx5_mr_qtable *t, const struct mlx5_mr_range *r)
{
	uint32_t lo = 0, hi = t->len, rank = 0;

	if (t->len == MLX5_MR_QUEUE_TABLE_N)
		return -ENOSPC;
	if (r->start == 0)
		return -EINVAL; /* Its key would read "unused". */
	while (lo < hi) {
		uint32_t mid = (lo + hi) / 2;

		if (t->sorted[mid].start <= r->start)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo > 0 && t->sorted[lo - 1].start == r->start)
		return -EEXIST;
	memmove(&t->sorted[lo + 1], &t->sorted[lo],
		(t->len - lo) * sizeof(*t->sorted));
	t->sorted[lo] = *r;
	t->len++;
	mlx5_mr_qtable_fill(t, 1, &rank);
	return 0;
}
