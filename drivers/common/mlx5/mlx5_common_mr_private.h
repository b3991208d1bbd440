/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * Internal to the MR files (mlx5_common_mr*.c): the device's MR cache, the
 * MR objects and the operations the files share.
 *
 * Locking, outermost first:
 *   EAL memory lock (rte_mcfg_mem_*): held while a registration over DPDK
 *     memory is made, so the memory cannot go away meanwhile; EAL holds it
 *     while it runs a memory event callback;
 *   mp_rwlock: the mempool registrations;
 *   rwlock: the MR list, the global table and writes to gen.
 * A queue's own caches take no lock: one thread uses a queue at a time.
 */

#ifndef MLX5_COMMON_MR_PRIVATE_H_
#define MLX5_COMMON_MR_PRIVATE_H_

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/queue.h>

#include <rte_config.h>
#include <rte_rwlock.h>

#include "mlx5_common.h"
#include "mlx5_common_mr.h"

/*
 * The global table: disjoint ranges sorted by address, kept apart (starts,
 * ends, lkeys) so that the search reads a dense array. The arrays (*_mem)
 * hold cap entries with the table in the middle, from front on: an entry
 * is inserted by moving the shorter side, so that appending at either end
 * (registration in ascending or descending order) moves nothing. Entries
 * past len start at UINTPTR_MAX up to the end of the arrays, and
 * front + 2^depth <= cap, so that a search of depth ceil(log2(len)) never
 * needs a bounds check.
 */
struct mlx5_mr_table {
	uintptr_t *starts;          /* &starts_mem[front] */
	uintptr_t *ends;
	uint32_t *lkeys;
	uint32_t len;
	uint32_t depth;
	uint32_t cap;
	uint32_t front;
	uintptr_t *starts_mem;
	uintptr_t *ends_mem;
	uint32_t *lkeys_mem;
	const struct mlx5_common_device *cdev; /* Allocates for it. */
};

/*
 * A queue's overflow table (what it learns once its queue table is full):
 * a table like the global one, and the ranges learned since its last
 * merge, up to MLX5_MR_OVERFLOW_BATCH, in a small table of their own that
 * a lookup reads after the big one. Inserting into the big table moves
 * O(len) entries; merging a batch at once moves each entry once per
 * batch, not once per range learned.
 */
#define MLX5_MR_OVERFLOW_BATCH 64
struct mlx5_mr_overflow {
	struct mlx5_mr_table table;
	struct mlx5_mr_table pending;
};

/*
 * The explicit MRs (mlx5_mr_ext_register()) by start address, so that
 * registering one more finds a duplicate without walking the list: open
 * addressing, linear probing, at most half full.
 */
struct mlx5_mr_ext_index {
	struct mlx5_mr **slots;
	uint32_t mask;              /* Slots - 1 (a power of two, minus 1). */
	uint32_t n;
};

/* Where an MR comes from, which decides who may destroy it. */
enum mlx5_mr_kind {
	MLX5_MR_ON_DEMAND,  /* Over a DPDK memory chunk, made by a lookup. */
	MLX5_MR_MEMPOOL,    /* Over a mempool chunk, held by registrations. */
	MLX5_MR_EXTERNAL,   /* mlx5_mr_ext_register(). */
};

struct mlx5_mr {
	TAILQ_ENTRY(mlx5_mr) next;  /* In cache->mrs while alive. */
	struct ibv_mr *ibv_mr;      /* The device registration. */
	uintptr_t start;
	uintptr_t end;
	uint32_t lkey;
	enum mlx5_mr_kind kind;
	uint32_t refcnt;            /* Mempool registrations holding it. */
	bool dead;                  /* Invalidated: out of list and table. */
};

TAILQ_HEAD(mlx5_mr_list, mlx5_mr);

/* A registered mempool: its MRs sorted by address. */
struct mlx5_mempool_reg {
	TAILQ_ENTRY(mlx5_mempool_reg) next;
	struct rte_mempool *mp;
	uint32_t mrs_n;
	struct mlx5_mr *mrs[];
};

/* Initial size of the global table. */
#define MLX5_MR_GLOBAL_TABLE_N 64

/* Access of every MR: the device reads (tx) and writes (rx) locally. */
#define MLX5_MR_ACCESS IBV_ACCESS_LOCAL_WRITE

/*
 * A secondary process's miss, asked of the primary's cache: as
 * mlx5_mr_lookup_below() there. Registered by the MR cache's multi-process
 * half (mlx5_common_mr_mp.c) when it is linked; without it a secondary
 * process has no MR cache (mlx5_mr_cache_create_secondary(): -ENOTSUP).
 */
typedef int (mlx5_mr_remote_lookup_t)(struct mlx5_mr_cache *cache,
				      uintptr_t addr, struct rte_mempool *mp,
				      struct mlx5_mr_range *r, uint32_t *gen);
void mlx5_mr_remote_lookup_register(mlx5_mr_remote_lookup_t *fn);

/* The MR state of a common device (cdev->mr_cache). */
struct mlx5_mr_cache {
	uint32_t gen;                   /* Moves on every invalidation. */
	rte_rwlock_t rwlock;
	struct mlx5_mr_table table;     /* Disjoint ranges of the live MRs. */
	struct mlx5_mr_list mrs;
	uint32_t mr_count;
	struct mlx5_mr_ext_index ext;   /* Explicit MRs by start (rwlock). */
	rte_rwlock_t mp_rwlock;
	TAILQ_HEAD(, mlx5_mempool_reg) mempools;
	uint32_t mempool_count;
	struct mlx5_common_device *cdev;
	const char *name;               /* Device name, for logs. */
	bool ext_memseg;                /* mr_ext_memseg_en. */
	bool mem_events;                /* Subscribed to EAL memory events. */
	bool mempool_events;            /* Subscribed to mempool events. */
	/*
	 * The last pinned-external-buffer pool whose registration at first
	 * use failed, and the generation then: not retried on every lookup
	 * miss, only once memory changed (or after its DESTROY event).
	 */
	struct rte_mempool *extbuf_failed_mp;
	uint32_t extbuf_failed_gen;
	struct ibv_mr *whole_mr;        /* mr_whole_mem_en: implicit ODP MR. */
	uint32_t whole_lkey;
	uint64_t created;
	uint64_t destroyed;
	uint64_t invalidated;
	/*
	 * A secondary process's cache (mlx5_mr_cache_create_secondary()):
	 * it holds nothing; a queue's miss asks the primary through @remote,
	 * and the queues follow the primary's generation (in memory both
	 * processes map). NULL in the primary.
	 */
	mlx5_mr_remote_lookup_t *remote;
	const uint32_t *remote_gen;
};

/*
 * The global table's search below has an x86-64 assembly form for deep
 * tables and a portable C one (other architectures, or
 * -DMLX5_MR_PORTABLE); devtools/run-mr-asm-bench.sh measures both,
 * instructions and time, in one run.
 */

/*
 * The largest index i of global table @t with starts[i] <= addr (0 when
 * there is none): a binary search whose steps are unrolled, entered at the
 * table's depth. Indices up to 2^depth - 1 < cap are read; entries past len
 * are UINTPTR_MAX, so they never move i. @STEP(k) is one level.
 */
#define MLX5_MR_TABLE_LADDER(t, s, i, addr, STEP) do { \
	switch ((t)->depth) { \
	default: \
		/* Deeper than the ladder: halve down to it first. */ \
		for (uint32_t h = 1u << ((t)->depth - 1); h > (1u << 19); \
		     h >>= 1) \
			if ((s)[(i) + h] <= (addr)) \
				(i) += h; \
		__attribute__((fallthrough)); \
	STEP(20) STEP(19) STEP(18) STEP(17) STEP(16) STEP(15) STEP(14) \
	STEP(13) STEP(12) STEP(11) STEP(10) STEP(9) STEP(8) STEP(7) \
	STEP(6) STEP(5) STEP(4) STEP(3) STEP(2) STEP(1) \
	case 0: \
		break; \
	} \
} while (0)

/* A level with a branch: cheapest while the branches predict well. */
#define MLX5_MR_STEP_BRANCH(k) \
	case k: \
		if (s[i + (1u << ((k) - 1))] <= addr) \
			i += 1u << ((k) - 1); \
		__attribute__((fallthrough));

#if defined(RTE_ARCH_X86_64) && !defined(MLX5_MR_PORTABLE)
/*
 * lea, cmp, cmov: three instructions a level and no branch, for deep
 * tables, whose searches mispredict. Measured beside the branches
 * (devtools/run-mr-asm-bench.sh): about 25% faster at 10,000 MRs, about
 * 20% slower at 10 and 1,000; hence only from this depth on.
 */
#define MLX5_MR_CMOV_MIN_DEPTH 12
#define MLX5_MR_STEP_CMOV(k) \
	case k: { \
		uint32_t j; \
		__asm__("leal %c[h](%q[i]), %[j]\n\t" \
			"cmpq %[addr], (%[s], %q[j], 8)\n\t" \
			"cmovbe %[j], %[i]" \
			: [i] "+r" (i), [j] "=&r" (j) \
			: [h] "i" (1u << ((k) - 1)), [s] "r" (s), \
			  [addr] "r" (addr) \
			: "cc", "memory"); \
	} \
		__attribute__((fallthrough));
#endif

static __rte_always_inline uint32_t
mlx5_mr_table_index(const struct mlx5_mr_table *t, uintptr_t addr)
{
	const uintptr_t *s = t->starts;
	uint32_t i = 0;

#ifdef MLX5_MR_CMOV_MIN_DEPTH
	if (t->depth >= MLX5_MR_CMOV_MIN_DEPTH) {
		MLX5_MR_TABLE_LADDER(t, s, i, addr, MLX5_MR_STEP_CMOV);
		return i;
	}
#endif
	MLX5_MR_TABLE_LADDER(t, s, i, addr, MLX5_MR_STEP_BRANCH);
	return i;
}

/* The entry of global table @t covering @addr, or -1. */
static __rte_always_inline int32_t
mlx5_mr_table_find(const struct mlx5_mr_table *t, uintptr_t addr)
{
	uint32_t i = mlx5_mr_table_index(t, addr);

	if (t->starts[i] <= addr && addr < t->ends[i])
		return (int32_t)i;
	return -1;
}

/*
 * A queue table's tree block @b, of 3.5 * MLX5_MR_QT_NODES words: the keys
 * of nodes 1 to 255 (start - 1, UINTPTR_MAX for an unused node; slot 0
 * unused), then the leaves 256 to 511, where a search ends: leaf 256 + r
 * is the range of rank r - 1, the last one whose key is below an address
 * that exceeds r keys (leaf 256: none, lo UINTPTR_MAX and end 0). A leaf
 * is its end, its lo (start - 1) and its lkey, each indexed by the leaf
 * number itself, so that a hit reads them with no arithmetic.
 */
#define MLX5_MR_QT_NODES (MLX5_MR_QUEUE_TABLE_N + 1)
#define MLX5_MR_QT_WORDS (3 * MLX5_MR_QT_NODES + MLX5_MR_QT_NODES / 2)
#define MLX5_MR_QT_KEY(b, i) ((b)[i])
#define MLX5_MR_QT_END(b, leaf) ((b)[leaf])
#define MLX5_MR_QT_LO(b, leaf) ((b)[MLX5_MR_QT_NODES + (leaf)])
#define MLX5_MR_QT_LKEYS(b) ((const uint32_t *)&(b)[3 * MLX5_MR_QT_NODES])
#define MLX5_MR_QT_LKEY(b, leaf) \
	(MLX5_MR_QT_LKEYS(b)[(leaf) - MLX5_MR_QT_NODES])
#define MLX5_MR_QT_LKEY_SET(b, leaf, lkey) \
	(((uint32_t *)&(b)[3 * MLX5_MR_QT_NODES])[(leaf) - MLX5_MR_QT_NODES] = \
	 (lkey))

/*
 * The leaf of a queue table where a search for @addr ends: steps down the
 * tree, each going right when the node's key (start - 1) is below @addr;
 * the leaf holds the range that starts last at or before @addr
 * (MLX5_MR_QT_NODES + its rank + 1), or none. A table of n ranges gives
 * keys to the first n ranks only: on the levels above its depth,
 * ceil(log2(n + 1)), the leftmost path holds no range (its keys are
 * UINTPTR_MAX), so a search from the root would go left each time, to
 * node 2^(8 - depth). The search starts there: depth steps, not eight.
 */
static __rte_always_inline uintptr_t
mlx5_mr_qtable_leaf(const struct mlx5_mr_qtable *t, uintptr_t addr)
{
	const uintptr_t *keys = t->nodes;
	uintptr_t i = t->top;

	/*
	 * Unrolled, entered at the depth (one indirect jump, to the same
	 * place for as long as the tree stands), and written so that GCC
	 * makes each level a cmp, a lea and an adc (three instructions; a
	 * loop of the plain 2i + (key < addr) takes six). An x86-64 cmp/adc
	 * form (two a level) was no faster in cycles
	 * (devtools/run-mr-asm-bench.sh), so there is none.
	 */
#define MLX5_MR_QT_STEP_C(k) \
	case k: \
		i = 2 * i + 1 - (addr <= keys[i]); \
		__attribute__((fallthrough));
	switch (t->depth) {
	MLX5_MR_QT_STEP_C(8) MLX5_MR_QT_STEP_C(7) MLX5_MR_QT_STEP_C(6)
	MLX5_MR_QT_STEP_C(5) MLX5_MR_QT_STEP_C(4) MLX5_MR_QT_STEP_C(3)
	MLX5_MR_QT_STEP_C(2) MLX5_MR_QT_STEP_C(1)
	case 0:
		break;
	default:
		__builtin_unreachable(); /* No deeper tree. */
	}
#undef MLX5_MR_QT_STEP_C
	return i;
}

/* Ranges a queue table learns before its tree is rebuilt. */
#define MLX5_MR_QT_BATCH 128

/* Queue tables (mlx5_common_mr_table.c). */
int mlx5_mr_qtable_init(struct mlx5_mr_qtable *t,
			const struct mlx5_common_device *cdev, int socket);
void mlx5_mr_qtable_free(struct mlx5_mr_qtable *t);
void mlx5_mr_qtable_clear(struct mlx5_mr_qtable *t);
int mlx5_mr_qtable_add(struct mlx5_mr_qtable *t, const struct mlx5_mr_range *r);
int mlx5_mr_qtable_find_stale(struct mlx5_mr_qtable *t, uintptr_t addr,
			      struct mlx5_mr_range *r);

/* The global table (mlx5_common_mr_table.c). */
int mlx5_mr_table_init(struct mlx5_mr_table *t,
		       const struct mlx5_common_device *cdev, uint32_t cap);
void mlx5_mr_table_free(struct mlx5_mr_table *t);
void mlx5_mr_table_clear(struct mlx5_mr_table *t);
int mlx5_mr_table_cover(struct mlx5_mr_table *t, const struct mlx5_mr_range *r);
int mlx5_mr_table_rebuild(struct mlx5_mr_table *t,
			  const struct mlx5_mr_list *mrs);
int mlx5_mr_table_merge(struct mlx5_mr_table *t, struct mlx5_mr_table *p);
int mlx5_mr_table_add(struct mlx5_mr_table *t, const struct mlx5_mr_range *r);

/* The explicit MRs' index (mlx5_common_mr_table.c). */
int mlx5_mr_ext_index_add(struct mlx5_mr_ext_index *x,
			  const struct mlx5_common_device *cdev,
			  struct mlx5_mr *mr);
void mlx5_mr_ext_index_del(struct mlx5_mr_ext_index *x,
			   const struct mlx5_mr *mr);
struct mlx5_mr *mlx5_mr_ext_index_find(const struct mlx5_mr_ext_index *x,
				       uintptr_t start, uintptr_t end);
void mlx5_mr_ext_index_free(struct mlx5_mr_ext_index *x);

/* MRs and the global table (mlx5_common_mr.c). */
struct mlx5_mr *mlx5_mr_new(struct mlx5_mr_cache *cache, uintptr_t start,
			    uintptr_t end, enum mlx5_mr_kind kind);
void mlx5_mr_destroy(struct mlx5_mr_cache *cache, struct mlx5_mr *mr);
int mlx5_mr_insert(struct mlx5_mr_cache *cache, struct mlx5_mr *mr);
void mlx5_mr_unlink(struct mlx5_mr_cache *cache, struct mlx5_mr *mr,
		    struct mlx5_mr_list *graveyard);
void mlx5_mr_retire(struct mlx5_mr_cache *cache,
		    struct mlx5_mr_list *graveyard);
void mlx5_mr_republish(struct mlx5_mr_cache *cache);
/* EAL memory events of the cache (none in legacy memory mode). */
int mlx5_mr_mem_events_subscribe(struct mlx5_mr_cache *cache);
void mlx5_mr_mem_events_unsubscribe(struct mlx5_mr_cache *cache);

/*
 * What a queue's miss below its own levels finds (mempool registration,
 * global table, new registration), in the primary (mlx5_common_mr_ctrl.c).
 * 0 with the range and the generation it belongs to, or a negative errno.
 */
int mlx5_mr_lookup_below(struct mlx5_mr_cache *cache, uintptr_t addr,
			 struct rte_mempool *mp, struct mlx5_mr_range *r,
			 uint32_t *gen);
int mlx5_mr_register_addr(struct mlx5_mr_cache *cache, uintptr_t addr,
			  struct mlx5_mr_range *r, uint32_t *gen);
struct mlx5_mr_cache *mlx5_mr_cache_of(struct mlx5_common_device *cdev,
				       const char *fn);

/* Mempool registrations (mlx5_common_mr_mempool.c). */
int mlx5_mr_mempool_subscribe(struct mlx5_mr_cache *cache);
void mlx5_mr_mempool_unsubscribe(struct mlx5_mr_cache *cache);
void mlx5_mr_mempool_release_all(struct mlx5_mr_cache *cache);
int mlx5_mr_mempool_lookup(struct mlx5_mr_cache *cache, struct rte_mempool *mp,
			   uintptr_t addr, struct mlx5_mr_range *r,
			   uint32_t *gen);

/* The global table's range over @addr and the generation (lock held). */
static __rte_always_inline int
mlx5_mr_table_get(const struct mlx5_mr_cache *cache, uintptr_t addr,
		  struct mlx5_mr_range *r, uint32_t *gen)
{
	int32_t i = mlx5_mr_table_find(&cache->table, addr);

	if (i < 0)
		return -ENOENT;
	r->start = cache->table.starts[i];
	r->end = cache->table.ends[i];
	r->lkey = cache->table.lkeys[i];
	*gen = cache->gen;
	return 0;
}

/* The same under the cache's read lock (the miss path of every queue). */
static inline int
mlx5_mr_lookup_global(struct mlx5_mr_cache *cache, uintptr_t addr,
		      struct mlx5_mr_range *r, uint32_t *gen)
{
	int ret;

	rte_rwlock_read_lock(&cache->rwlock);
	ret = mlx5_mr_table_get(cache, addr, r, gen);
	rte_rwlock_read_unlock(&cache->rwlock);
	return ret;
}

#endif /* MLX5_COMMON_MR_PRIVATE_H_ */
