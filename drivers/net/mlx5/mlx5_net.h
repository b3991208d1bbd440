/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * net/mlx5: the Ethernet class driver of the common device. One ethdev
 * port per common device (its port 1), whose queues are the common
 * layer's: an SQ per Tx queue, an RQ per Rx queue, each with its CQ; an
 * RQ table and a Toeplitz TIR spread received frames over the Rx queues;
 * steering rules (promiscuous, or own MAC, broadcast and all-multicast)
 * send frames to the TIR. The same code runs on a ConnectX and on the
 * software device: it calls the common layer only.
 */

#ifndef MLX5_NET_H_
#define MLX5_NET_H_

#include <stdbool.h>
#include <stdint.h>

#include <ethdev_driver.h>
#include <rte_branch_prediction.h>
#include <rte_common.h>
#include <rte_ether.h>
#include <rte_log.h>
#include <rte_mbuf.h>

#include <mlx5_common.h>
#include <mlx5_common_devx.h>
#include <mlx5_common_mp.h>
#include <mlx5_common_mr.h>
#include <mlx5_common_port.h>
#include <mlx5_common_pp.h>
#include <mlx5_devx_cmds.h>

extern int mlx5_net_logtype;

/* The PMD's log macro (mlx5_common_log.h says why DRV_LOG everywhere). */
#define DRV_LOG(level, fmt, ...) \
	rte_log(RTE_LOG_ ## level, mlx5_net_logtype, \
		"mlx5_net: " fmt "\n", ## __VA_ARGS__)

/* Queue and ring limits. */
#define MLX5_NET_MAX_QUEUES 64
#define MLX5_NET_MIN_DESC 64
#define MLX5_NET_MAX_DESC 32768
/* Rx: mbufs taken from the pool at once to replace received ones. */
#define MLX5_NET_RX_STASH 64
/* Rx: segments (mbufs) per receive WQE, at most. */
#define MLX5_NET_MAX_RX_SEGS 16
/* Tx: a WQE holds the control and Ethernet segments, inline header and
 * data segments; at most 4 blocks, so 16 segments minus the fixed ones. */
#define MLX5_NET_TX_MAX_WQE_BBS 4
/* Tx: ask for a completion at least every this many blocks. */
#define MLX5_NET_TX_COMP_THRESH 32
/*
 * Tx: packets of an enhanced multi-packet WQE, at most (DPDK's
 * MLX5_EMPW_MAX_PACKETS): 34 segments, 9 blocks.
 */
#define MLX5_NET_TX_EMPW_MAX 32
/* Largest inline header (txq_inline_min devarg). */
#define MLX5_NET_TX_INLINE_MAX 128
/* RETA entries: the device's largest RQT, at most. */
#define MLX5_NET_RETA_MAX 256
/* TISes: one per port of a LAG device (num_lag_ports is 4 bits). */
#define MLX5_NET_MAX_TIS 15
/*
 * Addresses a port receives: unicast (the port's own at index 0, added
 * ones after it) and the multicast list, as DPDK's mlx5 PMD bounds them.
 */
#define MLX5_NET_MAX_MAC 128
#define MLX5_NET_MAX_MC 128
/*
 * Rules of the receive table: promiscuous, or one per unicast address,
 * broadcast, one per multicast address and all-multicast.
 */
#define MLX5_NET_RULES (MLX5_NET_MAX_MAC + 1 + MLX5_NET_MAX_MC + 1)

struct mlx5_net_priv;

/* Statistics of a queue (read by the port's stats callbacks). */
/* Causes of error completions, from the CQE's syndrome (mlx5dv.h). */
enum mlx5_net_err_cause {
	MLX5_NET_ERR_LOCAL_LENGTH,     /* MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR */
	MLX5_NET_ERR_LOCAL_QP_OP,      /* ..._LOCAL_QP_OP_ERR */
	MLX5_NET_ERR_LOCAL_PROTECTION, /* ..._LOCAL_PROT_ERR: a key refused */
	MLX5_NET_ERR_LOCAL_ACCESS,     /* ..._LOCAL_ACCESS_ERR */
	MLX5_NET_ERR_REMOTE_ACCESS,    /* ..._REMOTE_ACCESS_ERR */
	MLX5_NET_ERR_OTHER,            /* Any other syndrome. */
	MLX5_NET_ERR_CAUSES,
};

struct mlx5_net_qstats {
	uint64_t packets;
	uint64_t bytes;
	uint64_t errors;       /* Packets dropped (error, flush, refusal). */
	uint64_t recoveries;   /* Queue recovered after an error. */
	uint64_t nombuf;       /* Rx: no mbuf to repost (frame dropped). */
	uint64_t err_cause[MLX5_NET_ERR_CAUSES]; /* Error completions. */
	uint64_t flushed;      /* Tx: posted after a failed WQE, dropped. */
	uint64_t refused;      /* Tx: dropped before the device (no key...). */
	/* Error completion log: at most one line a second, the rest counted. */
	uint64_t log_tsc;
	uint64_t log_suppressed;
};

/* Error completions of both bursts (mlx5_net_err.c). */
/* The cause of an error completion of syndrome @synd. */
enum mlx5_net_err_cause mlx5_net_err_cause_of(uint8_t synd);
/* The xstat name suffix of each cause ("err_local_protection", ...). */
extern const char *const mlx5_net_err_cause_names[MLX5_NET_ERR_CAUSES];
/*
 * Count an error completion of @cqe by its cause and log it: at most one
 * line a second per queue, with the number of lines suppressed since.
 */
void mlx5_net_err_note(struct mlx5_net_qstats *st, bool tx, uint16_t port,
		       uint16_t queue, volatile struct mlx5_cqe64 *cqe);

/*
 * The queue structures, on DPDK's model: what a burst reads and writes is
 * a hot, cache-aligned struct (mlx5_net_rxq, mlx5_net_txq), the queue
 * pointer the ethdev layer hands the burst; the rest (the DEVX objects,
 * setup state) is in a cold control struct around it (mlx5_net_rxq_ctrl,
 * mlx5_net_txq_ctrl; mlx5_net_rxq_ctrl_of() and mlx5_net_txq_ctrl_of()
 * from the hot one). The hot struct keeps its own copy of the rings'
 * addresses and the only copy of their counters: the DEVX objects'
 * counters (mlx5_devx_cq.ci, mlx5_devx_sq.pi) are not used. What every
 * burst reads is in its first two cache lines (the rings and pointers,
 * then counters, shape, flags and packet and byte counts) and the MR
 * cache's first line, which starts a line of its own.
 */
struct mlx5_net_rxq {
	/* Cache line 0: the rings, the pool, the Rx counters. */
	volatile struct mlx5_cqe64 *cqes;
	volatile uint32_t *cq_db;  /* The CQ's doorbell record. */
	uint8_t *wqes;             /* The RQ's ring. */
	volatile uint32_t *rq_db;  /* The RQ's receive counter (BE). */
	struct rte_mbuf **elts;    /* wqe_n * sges mbufs, by WQE. */
	struct rte_mempool *mp;
	/* rearm_data of a frame's mbufs: data_off, refcnt 1, nb_segs 1, port. */
	uint64_t mbuf_rearm;
	uint32_t cq_ci;            /* CQEs polled. */
	uint16_t pi;               /* WQEs posted. */
	uint16_t stash_n;
	/* Cache line 1: the queue's shape and offloads, its statistics. */
	uint8_t log_cq_n;          /* log2 of CQEs. */
	uint8_t log_wqe_n;
	uint8_t log_sges;          /* log2 of segments per WQE. */
	uint8_t log_stride;        /* log2 of a WQE's bytes. */
	uint32_t seg_len;          /* Bytes of a segment (mbuf data room). */
	bool csum;
	bool rss_hash;
	bool scatter;
	bool zip;                  /* The CQ compresses (hash mini-CQEs). */
	bool stopped;              /* rx_queue_stop: the RQ is in RST. */
	uint16_t port_id;
	uint16_t idx;
	int ts_offset;             /* Timestamp dynamic field, or -1. */
	uint64_t ts_flag;
	struct mlx5_net_qstats st; /* Packets and bytes first. */
	struct mlx5_mr_ctrl mr;
	/* Mbufs taken from the pool in bulk, handed to WQEs one by one. */
	struct rte_mbuf *stash[MLX5_NET_RX_STASH];
} __rte_cache_aligned;

/* An Rx queue's control struct: the hot one, then what setup keeps. */
struct mlx5_net_rxq_ctrl {
	struct mlx5_net_rxq rxq;   /* The burst's (ethdev's rx_queues[]). */
	struct mlx5_net_priv *priv;
	struct mlx5_devx_cq cq;
	struct mlx5_devx_rq rq;
	bool deferred;             /* rx_deferred_start: not started by start. */
};

static inline struct mlx5_net_rxq_ctrl *
mlx5_net_rxq_ctrl_of(struct mlx5_net_rxq *rxq)
{
	return container_of(rxq, struct mlx5_net_rxq_ctrl, rxq);
}

/* The packets of a Tx WQE (mlx5_net_txq.wqe_pkts). */
struct mlx5_net_tx_wqe_pkts {
	uint32_t first;            /* In the packet ring (e_head then). */
	uint32_t n;
};

struct mlx5_net_txq {
	/* Cache line 0: the rings, the doorbell, the packet ring's ends. */
	uint8_t *wqes;             /* The SQ's ring. */
	volatile uint32_t *sq_db;  /* The SQ's send counter (BE). */
	volatile struct mlx5_cqe64 *cqes;
	volatile uint32_t *cq_db;  /* The CQ's doorbell record. */
	/*
	 * The packets posted, in order: [e_tail, e_head) of a ring of
	 * elts_n, the descriptor count (as many as blocks: one eMPW block
	 * holds up to 4 packets, so the burst checks both rooms).
	 */
	struct rte_mbuf **elts;
	/*
	 * By WQE block, for the WQE that starts there: its first packet in
	 * elts and its packet count; meaningful in [ci, pi) only.
	 */
	struct mlx5_net_tx_wqe_pkts *wqe_pkts;
	struct mlx5_uar *uar;      /* The port's doorbells (the primary's). */
	uint32_t e_head, e_tail;
	/* Cache line 1: the queue's shape and state, its statistics. */
	uint32_t elts_n;
	uint32_t wqe_n;            /* Blocks in the ring. */
	uint32_t cq_ci;            /* CQEs polled. */
	/*
	 * The general path posted a packet not yet freed: packets up to
	 * general_end may be chains or of other pools.
	 */
	uint32_t general_end;
	uint32_t sqn;
	uint32_t qpn_ds3;          /* BE qpn_ds of a 3-segment WQE. */
	uint16_t pi;               /* Blocks posted. */
	uint16_t ci;               /* First block not completed. */
	uint16_t last_comp;        /* Block at which a CQE was last asked. */
	uint16_t inline_hdr;       /* Bytes of each packet inlined. */
	uint16_t port_id;
	uint16_t idx;
	uint8_t log_cq_n;          /* log2 of CQEs. */
	bool general_pending;
	/* Enhanced multi-packet WQEs (the SQ allows them; txq_mpw_en). */
	bool empw;
	bool stopped;              /* tx_queue_stop: the SQ is in RST. */
	bool fast_free;            /* MBUF_FAST_FREE: one pool, refcnt 1. */
	struct mlx5_net_qstats st; /* Packets and bytes first. */
	struct mlx5_mr_ctrl mr;
} __rte_cache_aligned;

/* A Tx queue's control struct: the hot one, then what setup keeps. */
struct mlx5_net_txq_ctrl {
	struct mlx5_net_txq txq;   /* The burst's (ethdev's tx_queues[]). */
	struct mlx5_net_priv *priv;
	struct mlx5_devx_cq cq;
	struct mlx5_devx_sq sq;
	bool deferred;             /* tx_deferred_start: not started by start. */
	uint32_t rate_mbps;        /* 0: not limited. */
	struct mlx5_pp_entry *pp;  /* The pacing entry of rate_mbps. */
};

static inline struct mlx5_net_txq_ctrl *
mlx5_net_txq_ctrl_of(struct mlx5_net_txq *txq)
{
	return container_of(txq, struct mlx5_net_txq_ctrl, txq);
}

struct mlx5_net_priv {
	struct mlx5_common_device *cdev;
	struct rte_eth_dev *eth;
	uint8_t phys_port;         /* Device port (1). */
	struct rte_ether_addr mac;
	/* Added unicast addresses by ethdev index (1..), zero when unused. */
	struct rte_ether_addr uc[MLX5_NET_MAX_MAC];
	struct rte_ether_addr mc[MLX5_NET_MAX_MC]; /* set_mc_addr_list. */
	uint32_t mc_n;
	struct mlx5_uar uar;       /* Doorbells of every queue. */
	struct mlx5_devx_obj *td;
	/*
	 * The Tx queues' TISes: on a LAG device one per port, each with its
	 * port affinity, Tx queue i on tis[i % n_tis] (as DPDK's mlx5 spreads
	 * queues over a bond's ports); otherwise one, any port.
	 */
	struct mlx5_devx_obj *tis[MLX5_NET_MAX_TIS];
	uint8_t n_tis;
	struct mlx5_devx_obj *rqt;
	struct mlx5_devx_obj *tir;
	struct mlx5_devx_obj *qcnt; /* Queue counter of every RQ, or NULL. */
	struct mlx5_flow_rx rules[MLX5_NET_RULES];
	uint8_t rss_key[MLX5_RSS_HASH_KEY_LEN];
	uint64_t rss_hf;
	uint16_t reta[MLX5_NET_RETA_MAX];
	uint16_t reta_size;
	bool started;
	/* Devargs. */
	uint16_t txq_inline_min;
	/* rxq_cqe_comp_en: Rx CQs compressed (hash mini-CQEs). */
	bool rxq_cqe_comp;
	/* rx_vec_en: the vector Rx burst. */
	bool rx_vec;
	/* txq_mpw_en: Tx by enhanced multi-packet WQEs where it can. */
	bool txq_empw;
	int ts_offset;             /* Rx timestamp dynamic field, or -1. */
	uint64_t ts_flag;
	uint64_t imissed;          /* out_of_buffer summed since the reset. */
};

/*
 * What a secondary process keeps of a port (eth->process_private): its
 * record of the device, the UAR page of the queues as it rings it, and an
 * MR cache per queue it uses (made at its first burst). The queues, the
 * port's private data and statistics are the primary's (shared memory).
 */
struct mlx5_net_proc {
	struct mlx5_common_device *cdev;
	struct mlx5_uar uar;
	struct mlx5_mr_ctrl *rxq_mr[MLX5_NET_MAX_QUEUES];
	struct mlx5_mr_ctrl *txq_mr[MLX5_NET_MAX_QUEUES];
};

/* Requests of a secondary process to the primary (mlx5_net_mp.c). */
enum mlx5_net_mp_op {
	MLX5_NET_MP_IMISSED = 1, /* Read the queue counter; val: imissed. */
	MLX5_NET_MP_RXQ_RECOVER, /* Recover Rx queue @queue. */
	MLX5_NET_MP_TXQ_RECOVER, /* Recover Tx queue @queue. */
};

/*
 * Secondary processes: the attach and the primary's half of the requests
 * (mlx5_net_mp.c, above the ethdev ops it shares with a secondary) ...
 */
int mlx5_net_probe_secondary(struct mlx5_common_device *cdev);
int mlx5_net_remove_secondary(struct rte_eth_dev *eth);
void mlx5_net_mp_request(struct mlx5_common_device *cdev,
			 struct mlx5_mp_class_msg *msg);
/*
 * ... and the secondary's own state and half (mlx5_net_proc.c, below
 * everything that asks). In a secondary process: ask the primary; 0 or a
 * negative errno.
 */
int mlx5_net_mp_ask(uint16_t port_id, enum mlx5_net_mp_op op,
		    uint16_t queue, uint64_t *val);
/* A secondary's MR cache of queue @idx (made if need be), or NULL. */
struct mlx5_mr_ctrl *mlx5_net_proc_mr(struct mlx5_net_proc *pp, bool tx,
				      uint16_t idx, int socket);
/*
 * A secondary's MR cache of its queue @idx for a burst: made at its first
 * burst (NULL, logged, if that fails).
 */
static __rte_always_inline struct mlx5_mr_ctrl *
mlx5_net_proc_queue_mr(struct mlx5_net_proc *pp, bool tx, uint16_t idx)
{
	struct mlx5_mr_ctrl *mr = tx ? pp->txq_mr[idx] : pp->rxq_mr[idx];

	if (unlikely(mr == NULL))
		mr = mlx5_net_proc_mr(pp, tx, idx, SOCKET_ID_ANY);
	return mr;
}
/* Free a secondary's state of a port (MR caches, imported UAR). */
void mlx5_net_proc_free(struct mlx5_net_proc *pp);
/* Port operations a secondary process shares (mlx5_net_ethdev.c). */
int mlx5_net_infos_get(struct rte_eth_dev *dev, struct rte_eth_dev_info *info);
int mlx5_net_stats_get(struct rte_eth_dev *dev, struct rte_eth_stats *st);
int mlx5_net_stats_reset(struct rte_eth_dev *dev);
int mlx5_net_xstats_get(struct rte_eth_dev *dev, struct rte_eth_xstat *xs,
			unsigned int size);
int mlx5_net_xstats_names(struct rte_eth_dev *dev,
			  struct rte_eth_xstat_name *names, unsigned int size);
int mlx5_net_rss_conf_get(struct rte_eth_dev *dev,
			  struct rte_eth_rss_conf *conf);
int mlx5_net_reta_query(struct rte_eth_dev *dev,
			struct rte_eth_rss_reta_entry64 *conf, uint16_t size);
/* The imissed count (the primary reads the queue counter). */
uint64_t mlx5_net_imissed(struct rte_eth_dev *dev);

/* Queues (mlx5_net_rxq.c, mlx5_net_txq.c). */
int mlx5_net_rx_queue_setup(struct rte_eth_dev *dev, uint16_t idx,
			    uint16_t nb_desc, unsigned int socket,
			    const struct rte_eth_rxconf *conf,
			    struct rte_mempool *mp);
void mlx5_net_rx_queue_release(struct rte_eth_dev *dev, uint16_t idx);
/*
 * Rx queue recovery, in the burst's file (mlx5_net_rx.c): a burst starts
 * it after an error completion, queue start/stop reuse its steps. Rx: fill
 * every WQE with the mbufs the queue holds and post them all; take every
 * CQE the device wrote; bring the RQ back (asked of the primary in a
 * secondary).
 */
int mlx5_net_rxq_post_all(struct mlx5_net_rxq *rxq);
void mlx5_net_rxq_cq_drain(struct mlx5_net_rxq *rxq);
int mlx5_net_rxq_recover(struct mlx5_net_rxq *rxq);
int mlx5_net_tx_queue_setup(struct rte_eth_dev *dev, uint16_t idx,
			    uint16_t nb_desc, unsigned int socket,
			    const struct rte_eth_txconf *conf);
void mlx5_net_tx_queue_release(struct rte_eth_dev *dev, uint16_t idx);
/* Free every packet the SQ still holds (nothing will complete them). */
void mlx5_net_txq_drain(struct mlx5_net_txq *txq);
/*
 * Bring an SQ back after an error (asked of the primary in a secondary;
 * mlx5_net_tx.c).
 */
int mlx5_net_txq_recover(struct mlx5_net_txq *txq);
int mlx5_net_txq_rate_apply(struct mlx5_net_txq *txq);
/*
 * Queue stop and start (rte_eth_dev_{rx,tx}_queue_{stop,start}): a stopped
 * RQ is in RST (the device drops the frames it would get), its mbufs kept
 * and posted again at start; a stopped SQ is in RST, what it held freed.
 */
int mlx5_net_rxq_stop(struct mlx5_net_rxq *rxq);
int mlx5_net_rxq_start(struct mlx5_net_rxq *rxq);
int mlx5_net_txq_stop(struct mlx5_net_txq *txq);
int mlx5_net_txq_start(struct mlx5_net_txq *txq);
/* Take the Tx completions and free what they cover (mlx5_net_tx.c). */
void mlx5_net_txq_complete(struct mlx5_net_txq *txq);

/*
 * Take the device's generation once per burst: the bursts then check the
 * range the queue used last without it (who frees memory under a running
 * queue races anyway).
 */
static __rte_always_inline void
mlx5_net_mr_gen_check(struct mlx5_mr_ctrl *mr)
{
	if (unlikely(__atomic_load_n(mr->dev_gen, __ATOMIC_RELAXED) !=
		     mr->gen))
		mlx5_mr_ctrl_flush(mr);
}

/* Rx burst (mlx5_net_rx.c). */
/*
 * The key to post fresh Rx mbuf @r with: its pool's own buffer (given back
 * if an application left another in it), never a private-IOVA key.
 */
uint32_t mlx5_net_rx_buf_lkey(struct mlx5_mr_ctrl *mr, struct rte_mbuf *r);
/*
 * rte_eth_rx_queue_count() and rte_eth_rx_descriptor_status() of Rx queue
 * @q: the completions written and not yet taken, from any process.
 */
uint32_t mlx5_net_rx_queue_count(void *q);
int mlx5_net_rx_descriptor_status(void *q, uint16_t offset);
/*
 * The Rx burst function of a port's queues, in a primary or a secondary
 * process: vector or scalar (rx_vec_en), and in a primary for the
 * offloads its queues have now (chosen when the port starts; one that
 * tests each queue's offloads with no queue, and in a secondary process).
 */
eth_rx_burst_t mlx5_net_rx_burst_fn(const struct mlx5_net_priv *priv,
				    bool secondary);
/*
 * What the Rx burst function mlx5_net_rx_burst_fn() gives handles, for
 * rx_burst_mode_get.
 */
const char *mlx5_net_rx_burst_name(const struct mlx5_net_priv *priv,
				   bool secondary);
const uint32_t *mlx5_net_ptypes(struct rte_eth_dev *dev);
/* Tx burst (mlx5_net_tx.c). */
uint16_t mlx5_net_tx_prepare(void *q, struct rte_mbuf **pkts, uint16_t n);
/* Mbuf segments a packet may have on a queue inlining @inline_hdr bytes. */
uint16_t mlx5_net_tx_max_segs(uint16_t inline_hdr);
/*
 * The Tx burst function of a port's queues, in a primary or a secondary
 * process: one for each way its devargs make them send (SEND WQEs,
 * enhanced multi-packet WQEs, an inline header), chosen at probe.
 */
eth_tx_burst_t mlx5_net_tx_burst_fn(const struct mlx5_net_priv *priv,
				    bool secondary);

/*
 * Port (mlx5_net_ethdev.c): the ethdev ops, the default RSS key, the
 * release of a port's resources; probe and remove (mlx5_net_probe.c) use
 * them.
 */
int mlx5_net_steering_apply(struct mlx5_net_priv *priv);
extern const struct eth_dev_ops mlx5_net_ops;
extern const uint8_t mlx5_net_rss_key_default[MLX5_RSS_HASH_KEY_LEN];
void mlx5_net_release(struct mlx5_net_priv *priv);

#endif /* MLX5_NET_H_ */
