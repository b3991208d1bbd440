/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * Sorted tables of address ranges, each with the lkey that covers it:
 *
 * - a queue's table (at most 255 ranges, filled as the queue learns them):
 *   a sorted array, and the same ranges as a search tree in Eytzinger
 *   layout whose leaves hold the ranges, rebuilt in batches
 *   (MLX5_MR_QT_BATCH) so that a lookup is ceil(log2(ranges + 1))
 *   branch-free steps (eight at most) and the leaf's reads
 *   (mlx5_mr_qtable_leaf());
 * - the device's global table (grows): a partition of what the live MRs
 *   cover, so that a range covered by two MRs is looked up in one place;
 *   its arrays are kept apart (starts, ends, lkeys) so that the search,
 *   which reads only starts, walks a dense array (mlx5_mr_table_index()),
 *   with room on both sides so that registering in address order, either
 *   way, moves no entry; a queue's overflow table has the same form, and
 *   takes what it learns in batches (mlx5_mr_table_merge());
 * - the index of explicit MRs by start address (a hash table).
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

/* Entries a search of a table of @len entries may read: 2^depth. */
static uint32_t
mlx5_mr_table_reach(uint32_t len)
{
	return 1u << mlx5_mr_table_depth(len);
}

/*
 * Allocate arrays of @cap entries (a power of two, at least 4 times what
 * the table will hold); the table starts at a quarter, with room on both
 * sides, starts UINTPTR_MAX from there on. Nothing else is initialised:
 * a slot before front is written before it is ever read, and an end or a
 * key only once its start is.
 */
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
	t->starts_mem = mlx5_malloc(cdev, MLX5_MEM_SYS,
				    cap * sizeof(*t->starts), 0, SOCKET_ID_ANY);
	t->ends_mem = mlx5_malloc(cdev, MLX5_MEM_SYS,
				  cap * sizeof(*t->ends), 0, SOCKET_ID_ANY);
	t->lkeys_mem = mlx5_malloc(cdev, MLX5_MEM_SYS,
				   cap * sizeof(*t->lkeys), 0, SOCKET_ID_ANY);
	if (t->starts_mem == NULL || t->ends_mem == NULL ||
	    t->lkeys_mem == NULL) {
		mlx5_mr_table_free(t);
		return -ENOMEM;
	}
	for (uint32_t i = cap / 4; i < cap; i++)
		t->starts_mem[i] = UINTPTR_MAX;
	t->cap = cap;
	t->front = cap / 4;
	t->starts = t->starts_mem + t->front;
	t->ends = t->ends_mem + t->front;
	t->lkeys = t->lkeys_mem + t->front;
	t->len = 0;
	t->depth = 0;
	return 0;
}

/* Arrays for a table that is to hold @n entries. */
static uint32_t
mlx5_mr_table_cap(uint32_t n)
{
	return rte_align32pow2(RTE_MAX(4 * n, 64u));
}

int
mlx5_mr_table_init(struct mlx5_mr_table *t,
		   const struct mlx5_common_device *cdev, uint32_t cap)
{
	memset(t, 0, sizeof(*t));
	return mlx5_mr_table_alloc(t, cdev, mlx5_mr_table_cap(cap / 4));
}

void
mlx5_mr_table_free(struct mlx5_mr_table *t)
{
	const struct mlx5_common_device *cdev = t->cdev;

	mlx5_free(t->starts_mem);
	mlx5_free(t->ends_mem);
	mlx5_free(t->lkeys_mem);
	memset(t, 0, sizeof(*t));
	t->cdev = cdev;
}

/* Empty @t, back in the middle of its arrays (room on both sides). */
void
mlx5_mr_table_clear(struct mlx5_mr_table *t)
{
	for (uint32_t i = 0; i < t->len; i++)
		t->starts[i] = UINTPTR_MAX;
	t->len = 0;
	t->depth = 0;
	if (t->starts_mem == NULL)
		return;
	/* front only ever moved down from cap / 4: every start from the
	 * old front on is UINTPTR_MAX again, hence from cap / 4 on. */
	t->front = t->cap / 4;
	t->starts = t->starts_mem + t->front;
	t->ends = t->ends_mem + t->front;
	t->lkeys = t->lkeys_mem + t->front;
}

/*
 * Make room for @extra more entries on either side (global table only):
 * then no insertion allocates. A table without the room moves to bigger
 * arrays, in their middle.
 */
static int
mlx5_mr_table_reserve(struct mlx5_mr_table *t, uint32_t extra)
{
	uint32_t want = t->len + extra;
	struct mlx5_mr_table bigger;

	if (t->front >= extra &&
	    t->front + RTE_MAX(want, mlx5_mr_table_reach(want)) <= t->cap)
		return 0;
	if (mlx5_mr_table_alloc(&bigger, t->cdev,
				mlx5_mr_table_cap(want)) != 0)
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

/*
 * Insert an entry at @pos (room reserved by the caller): the entries
 * before it move one down when they are fewer, else those after it one
 * up.
 */
static void
mlx5_mr_table_insert(struct mlx5_mr_table *t, uint32_t pos, uintptr_t start,
		     uintptr_t end, uint32_t lkey)
{
	uint32_t tail = t->len - pos;

	if (pos < tail && t->front > 0) {
		t->front--;
		t->starts--;
		t->ends--;
		t->lkeys--;
		memmove(&t->starts[0], &t->starts[1], pos * sizeof(*t->starts));
		memmove(&t->ends[0], &t->ends[1], pos * sizeof(*t->ends));
		memmove(&t->lkeys[0], &t->lkeys[1], pos * sizeof(*t->lkeys));
	} else {
		memmove(&t->starts[pos + 1], &t->starts[pos],
			tail * sizeof(*t->starts));
		memmove(&t->ends[pos + 1], &t->ends[pos],
			tail * sizeof(*t->ends));
		memmove(&t->lkeys[pos + 1], &t->lkeys[pos],
			tail * sizeof(*t->lkeys));
	}
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
	if (mlx5_mr_table_reserve(t, gaps) != 0)
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
				mlx5_mr_table_cap(n)) != 0) {
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

/* True when an entry of @t overlaps [start, end); *pos: where it would go. */
static bool
mlx5_mr_table_overlaps(const struct mlx5_mr_table *t, uintptr_t start,
		       uintptr_t end, uint32_t *pos)
{
	uint32_t i = mlx5_mr_table_after(t, start);

	*pos = i;
	return (i > 0 && t->ends[i - 1] > start) ||
	       (i < t->len && t->starts[i] < end);
}

/*
 * Move every entry of @p (a small table, at most MLX5_MR_OVERFLOW_BATCH
 * entries) into @t, then empty @p. An entry over ranges @t covers is
 * covered as by mlx5_mr_table_cover() (rare: @p learned it because @t
 * missed one of its addresses); the others, disjoint from @t, go in by
 * one pass from the end, each run of @t between two of them moved once:
 * O(len) per batch, not per entry.
 *
 * Returns 0, or -ENOMEM (@t then holds what it did and perhaps some of
 * @p; @p is emptied either way: what it held is asked for again).
 */
int
mlx5_mr_table_merge(struct mlx5_mr_table *t, struct mlx5_mr_table *p)
{
	uint32_t pos[MLX5_MR_OVERFLOW_BATCH];
	uint32_t hi, n = 0;
	bool covered = false;

	if (p->len > MLX5_MR_OVERFLOW_BATCH)
		goto nomem;
	for (uint32_t j = 0; j < p->len; j++) {
		struct mlx5_mr_range r = { p->starts[j], p->ends[j],
					   p->lkeys[j] };

		if (!mlx5_mr_table_overlaps(t, r.start, r.end, &pos[j])) {
			n++;
			continue;
		}
		if (mlx5_mr_table_cover(t, &r) < 0)
			goto nomem;
		p->ends[j] = 0; /* Done. */
		covered = true;
	}
	if (n == 0)
		goto done;
	if (mlx5_mr_table_reserve(t, n) != 0)
		goto nomem;
	/* Where each goes, in the table as it is now (covers moved it). */
	for (uint32_t j = 0; covered && j < p->len; j++)
		if (p->ends[j] != 0)
			mlx5_mr_table_overlaps(t, p->starts[j], p->ends[j],
					       &pos[j]);
	/* From the end: entries [pos, hi) of t move up by the n still to
	 * place, then entry j of p goes just below them. */
	hi = t->len;
	for (uint32_t j = p->len; j-- > 0 && n > 0;) {
		uint32_t at = pos[j];

		if (p->ends[j] == 0)
			continue;
		memmove(&t->starts[at + n], &t->starts[at],
			(hi - at) * sizeof(*t->starts));
		memmove(&t->ends[at + n], &t->ends[at],
			(hi - at) * sizeof(*t->ends));
		memmove(&t->lkeys[at + n], &t->lkeys[at],
			(hi - at) * sizeof(*t->lkeys));
		n--;
		t->starts[at + n] = p->starts[j];
		t->ends[at + n] = p->ends[j];
		t->lkeys[at + n] = p->lkeys[j];
		t->len++;
		hi = at;
	}
	t->depth = mlx5_mr_table_depth(t->len);
done:
	mlx5_mr_table_clear(p);
	return 0;
nomem:
	mlx5_mr_table_clear(p);
	return -ENOMEM;
}

/*
 * A small table (a batch): add @r where it goes, one search and a move of
 * the shorter side; over an entry already there, as mlx5_mr_table_cover().
 * Returns the entries added, or -ENOMEM.
 */
int
mlx5_mr_table_add(struct mlx5_mr_table *t, const struct mlx5_mr_range *r)
{
	uint32_t pos;

	if (mlx5_mr_table_overlaps(t, r->start, r->end, &pos))
		return mlx5_mr_table_cover(t, r);
	if (mlx5_mr_table_reserve(t, 1) != 0)
		return -ENOMEM;
	mlx5_mr_table_insert(t, pos, r->start, r->end, r->lkey);
	return 1;
}

/* Queue tables. */

/* The tree of a queue table that holds nothing (after a flush). */
static const uintptr_t mlx5_mr_qt_empty[MLX5_MR_QT_WORDS] = {
	[0 ... MLX5_MR_QT_NODES - 1] = UINTPTR_MAX,                 /* keys */
	/* Leaf ends 0, then: */
	[2 * MLX5_MR_QT_NODES ... MLX5_MR_QT_WORDS - 1] = UINTPTR_MAX, /* los, lkeys */
};

int
mlx5_mr_qtable_init(struct mlx5_mr_qtable *t,
		    const struct mlx5_common_device *cdev, int socket)
{
	RTE_BUILD_BUG_ON(sizeof(mlx5_mr_qt_empty) !=
			 MLX5_MR_QT_NODES * (3 * sizeof(uintptr_t) +
					     sizeof(uint32_t)));
	memset(t, 0, sizeof(*t));
	/* On the queue's socket: the datapath reads them. */
	t->own = mlx5_malloc(cdev, 0, sizeof(mlx5_mr_qt_empty),
			     RTE_CACHE_LINE_SIZE, socket);
	t->sorted = mlx5_malloc(cdev, 0,
				MLX5_MR_QUEUE_TABLE_N * sizeof(*t->sorted), 0,
				socket);
	if (t->own == NULL || t->sorted == NULL) {
		mlx5_mr_qtable_free(t);
		return -ENOMEM;
	}
	mlx5_mr_qtable_clear(t);
	return 0;
}

void
mlx5_mr_qtable_free(struct mlx5_mr_qtable *t)
{
	mlx5_free(t->own);
	mlx5_free(t->sorted);
	memset(t, 0, sizeof(*t));
}

/* Forget every range: the search reads the shared empty tree. */
void
mlx5_mr_qtable_clear(struct mlx5_mr_qtable *t)
{
	t->nodes = mlx5_mr_qt_empty;
	t->depth = 0;
	t->top = MLX5_MR_QT_NODES;
	t->len = 0;
	t->stale = 0;
}

/*
 * The tree from the sorted ranges, all of them: node i of level d (2^d <=
 * i < 2^(d+1)) is the range of in-order rank (2 (i - 2^d) + 1) 2^(7 - d)
 * - 1; then the leaves that a search can reach (256 to 256 + len).
 */
static void
mlx5_mr_qtable_rebuild(struct mlx5_mr_qtable *t)
{
	for (uint32_t d = 0; d < 8; d++)
		for (uint32_t i = 1u << d, rank = (1u << (7 - d)) - 1;
		     i < 2u << d; i++, rank += 2u << (7 - d))
			MLX5_MR_QT_KEY(t->own, i) = rank < t->len ?
				t->sorted[rank].start - 1 : UINTPTR_MAX;
	/* Leaf MLX5_MR_QT_NODES + r: the range of rank r - 1 (r = 0: none). */
	MLX5_MR_QT_LO(t->own, MLX5_MR_QT_NODES) = UINTPTR_MAX;
	MLX5_MR_QT_END(t->own, MLX5_MR_QT_NODES) = 0;
	MLX5_MR_QT_LKEY_SET(t->own, MLX5_MR_QT_NODES, MLX5_MR_LKEY_INVALID);
	for (uint32_t r = 1; r <= t->len; r++) {
		const struct mlx5_mr_range *x = &t->sorted[r - 1];
		uint32_t leaf = MLX5_MR_QT_NODES + r;

		MLX5_MR_QT_LO(t->own, leaf) = x->start - 1;
		MLX5_MR_QT_END(t->own, leaf) = x->end;
		MLX5_MR_QT_LKEY_SET(t->own, leaf, x->lkey);
	}
	t->nodes = t->own;
	t->depth = t->len == 0 ? 0 : 32 - (uint32_t)__builtin_clz(t->len);
	t->top = MLX5_MR_QT_NODES >> t->depth;
	t->stale = 0;
}

/*
 * Position of the first sorted range starting after @addr. The halving
 * takes a conditional move, not a branch: the addresses a queue learns
 * come in no order, and a mispredicted step costs more than the search.
 */
static uint32_t
mlx5_mr_qtable_after(const struct mlx5_mr_qtable *t, uintptr_t addr)
{
	const struct mlx5_mr_range *base = t->sorted;
	uint32_t n = t->len;

	if (n == 0)
		return 0;
	while (n > 1) {
		uint32_t half = n / 2;

		base = base[half].start <= addr ? base + half : base;
		n -= half;
	}
	return (uint32_t)(base - t->sorted) + (base->start <= addr);
}

/*
 * Add @r to a queue's table, unless a range starts at the same address or
 * the table is full (the queue then keeps new ranges in its overflow
 * table until its next flush). The tree shows it once MLX5_MR_QT_BATCH
 * ranges wait, or at the first lookup that needs one of them: learning
 * 255 ranges rebuilds the tree twice, not 255 times.
 */
int
mlx5_mr_qtable_add(struct mlx5_mr_qtable *t, const struct mlx5_mr_range *r)
{
	uint32_t pos;

	if (t->len == MLX5_MR_QUEUE_TABLE_N)
		return -ENOSPC;
	if (r->start == 0)
		return -EINVAL; /* Its key would read "unused". */
	/*
	 * The range learned after a miss covers the missed address, which
	 * mlx5_mr_qtable_find_stale() placed: no range starts between the
	 * two, so that position is the range's, once checked against its
	 * neighbours.
	 */
	pos = t->hint;
	if (pos > t->len || (pos > 0 && t->sorted[pos - 1].start >= r->start) ||
	    (pos < t->len && t->sorted[pos].start <= r->start)) {
		pos = mlx5_mr_qtable_after(t, r->start);
		if (pos > 0 && t->sorted[pos - 1].start == r->start)
			return -EEXIST;
	}
	memmove(&t->sorted[pos + 1], &t->sorted[pos],
		(t->len - pos) * sizeof(*t->sorted));
	t->sorted[pos] = *r;
	t->len++;
	if (++t->stale >= MLX5_MR_QT_BATCH || t->len == MLX5_MR_QUEUE_TABLE_N)
		mlx5_mr_qtable_rebuild(t);
	return 0;
}

/*
 * A range of the table over @addr that its tree does not show yet: found,
 * the tree is rebuilt (0); or -ENOENT.
 */
int
mlx5_mr_qtable_find_stale(struct mlx5_mr_qtable *t, uintptr_t addr,
			  struct mlx5_mr_range *r)
{
	uint32_t pos;

	if (t->stale == 0)
		return -ENOENT;
	pos = mlx5_mr_qtable_after(t, addr);
	t->hint = pos;
	if (pos == 0 || addr >= t->sorted[pos - 1].end)
		return -ENOENT;
	*r = t->sorted[pos - 1];
	mlx5_mr_qtable_rebuild(t);
	return 0;
}

/* The explicit MRs' index. */

static uint32_t
mlx5_mr_ext_home(const struct mlx5_mr_ext_index *x, uintptr_t start)
{
	/* Fibonacci hashing of the page number. */
	return (uint32_t)(((uint64_t)(start >> 12) * 0x9e3779b97f4a7c15ull) >>
			  32) & x->mask;
}

static void
mlx5_mr_ext_put(struct mlx5_mr_ext_index *x, struct mlx5_mr *mr)
{
	uint32_t i = mlx5_mr_ext_home(x, mr->start);

	while (x->slots[i] != NULL)
		i = (i + 1) & x->mask;
	x->slots[i] = mr;
	x->n++;
}

/* Add @mr (rwlock held for writing): 0 or -ENOMEM. */
int
mlx5_mr_ext_index_add(struct mlx5_mr_ext_index *x,
		      const struct mlx5_common_device *cdev, struct mlx5_mr *mr)
{
	if (2 * (x->n + 1) > x->mask + 1 || x->slots == NULL) {
		struct mlx5_mr_ext_index bigger = {
			.mask = x->slots == NULL ? 63 : 2 * x->mask + 1,
		};

		/* System memory: unlinked from EAL's memory callbacks. */
		bigger.slots = mlx5_malloc(cdev, MLX5_MEM_SYS | MLX5_MEM_ZERO,
					   (bigger.mask + 1) *
					   sizeof(*bigger.slots), 0,
					   SOCKET_ID_ANY);
		if (bigger.slots == NULL)
			return -ENOMEM;
		for (uint32_t i = 0; x->slots != NULL && i <= x->mask; i++)
			if (x->slots[i] != NULL)
				mlx5_mr_ext_put(&bigger, x->slots[i]);
		mlx5_free(x->slots);
		*x = bigger;
	}
	mlx5_mr_ext_put(x, mr);
	return 0;
}

/* Remove @mr (rwlock held for writing), closing the gap it leaves. */
void
mlx5_mr_ext_index_del(struct mlx5_mr_ext_index *x, const struct mlx5_mr *mr)
{
	uint32_t i, j;

	if (x->slots == NULL)
		return;
	for (i = mlx5_mr_ext_home(x, mr->start); x->slots[i] != mr;
	     i = (i + 1) & x->mask)
		if (x->slots[i] == NULL)
			return;
	/* Move back each later entry of the run that may sit at i. */
	for (j = (i + 1) & x->mask; x->slots[j] != NULL; j = (j + 1) & x->mask) {
		uint32_t home = mlx5_mr_ext_home(x, x->slots[j]->start);

		if (((j - home) & x->mask) >= ((j - i) & x->mask)) {
			x->slots[i] = x->slots[j];
			i = j;
		}
	}
	x->slots[i] = NULL;
	x->n--;
}

/* The explicit MR of exactly [start, end) (rwlock held), or NULL. */
struct mlx5_mr *
mlx5_mr_ext_index_find(const struct mlx5_mr_ext_index *x, uintptr_t start,
		       uintptr_t end)
{
	if (x->slots == NULL)
		return NULL;
	for (uint32_t i = mlx5_mr_ext_home(x, start); x->slots[i] != NULL;
	     i = (i + 1) & x->mask)
		if (x->slots[i]->start == start && x->slots[i]->end == end)
			return x->slots[i];
	return NULL;
}

void
mlx5_mr_ext_index_free(struct mlx5_mr_ext_index *x)
{
	mlx5_free(x->slots);
	memset(x, 0, sizeof(*x));
}
