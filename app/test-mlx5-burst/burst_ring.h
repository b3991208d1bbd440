/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * What the burst benchmark knows of a queue: its rings, as the PRM lays
 * them out, and its burst functions. The benchmark plays the device on
 * these rings (it writes receive CQEs before the timed bursts, reads and
 * checks every send WQE after them and writes their completions), so the
 * bursts of two PMDs are timed over the same work. Also the interface of
 * the plugin that holds DPDK 22.11's own net/mlx5 bursts, compiled at
 * benchmark time from Debian's source (devtools/run-burst-bench.sh): plain
 * C types only, since DPDK's driver headers and this tree's cannot meet in
 * one file.
 */

#ifndef BURST_RING_H_
#define BURST_RING_H_

#include <stdint.h>

struct rte_mbuf;
struct rte_mempool;

typedef uint16_t (*burst_fn_t)(void *q, struct rte_mbuf **pkts, uint16_t n);

/* An Rx queue: a cyclic RQ of one 16-byte data segment per WQE. */
struct burst_rxq_ring {
	volatile void *cqes; /* 64-byte CQEs. */
	uint32_t log_cq;
	volatile void *wqes; /* struct mlx5_wqe_data_seg each. */
	uint32_t log_rq;
	volatile uint32_t *rq_db; /* BE: WQEs posted. */
};

/* A Tx queue: 64-byte WQE blocks and the CQ of their completions. */
struct burst_txq_ring {
	volatile void *wqes;
	uint32_t log_sq;	  /* In 64-byte blocks. */
	volatile uint32_t *sq_db; /* BE: blocks posted. */
	volatile void *cqes;
	uint32_t log_cq;
	volatile uint32_t *cq_db; /* BE: CQEs the PMD consumed. */
};

/* What the plugin's queues are made with. */
struct burst_ref_rxq_attr {
	struct rte_mempool *mp;
	uint16_t port_id;
	uint32_t log_desc;
	int compressed; /* Hash mini-CQEs. */
	int rss_hash;
	int csum;
	/* The one memory range of the pool, and its key (CPU order). */
	uintptr_t mr_start;
	uintptr_t mr_end;
	uint32_t lkey;
};

struct burst_ref_txq_attr {
	uint32_t log_desc;
	int fast_free;
	int inline_data; /* Inline as DPDK does from 8 queues. */
	int csum;
	uintptr_t mr_start;
	uintptr_t mr_end;
	uint32_t lkey;
};

#define BURST_REF_ABI 1

struct burst_ref_api {
	uint32_t abi;	     /* BURST_REF_ABI */
	const char *version; /* "DPDK <version> net/mlx5" */
	/*
	 * An Rx queue and its rings (WQEs posted, CQEs invalid), or NULL.
	 * @name: "scalar" (mlx5_rx_burst) or "vector" (mlx5_rx_burst_vec).
	 */
	void *(*rxq_create)(const struct burst_ref_rxq_attr *attr,
			    struct burst_rxq_ring *ring);
	burst_fn_t (*rx_fn)(const char *name);
	void (*rxq_destroy)(void *q);
	/*
	 * A Tx queue and its rings, or NULL. @name: a template of DPDK's
	 * mlx5_tx.c: "none", "none_empw", "i_empw", "none_mpw" ...
	 */
	void *(*txq_create)(const struct burst_ref_txq_attr *attr,
			    struct burst_txq_ring *ring);
	burst_fn_t (*tx_fn)(const char *name);
	void (*txq_destroy)(void *q);
	/* Calls of DPDK's MR bottom halves (a miss of the queue's cache). */
	uint64_t (*mr_misses)(void);
};

/* The one symbol of the plugin. */
#define BURST_REF_SYMBOL "burst_ref_api"

#endif /* BURST_RING_H_ */
