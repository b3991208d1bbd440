/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * The model's types: queues and the objects around them (CQs, QPs, TDs,
 * TISes, SQs, RQs, RMPs, verbs queue objects, queue counters, RQTs, TIRs,
 * DEKs).
 */

#ifndef MLX5_SIM_TYPES_QUEUE_H_
#define MLX5_SIM_TYPES_QUEUE_H_

#include "mlx5_sim_types_mem.h"

/* A numbered table of objects (CQs, QPs): numbers 1..max-1. */
struct mlx5_sim_idtab {
	void **slot;
	uint32_t size;             /* Slots allocated. */
	uint32_t max;              /* Numbers below max. */
	uint32_t next;             /* Where the next search starts. */
	uint32_t count;
};

/* A memory range of a umem a queue uses (ring or doorbell record). */
struct mlx5_sim_umem_ref {
	struct mlx5_sim_umem *umem;
	uint8_t *host;             /* umem->addr + offset. */
};

/* A completion queue. */
struct mlx5_sim_cq {
	uint32_t cqn;
	struct mlx5_sim_file *file;
	struct mlx5_sim_umem_ref ring;
	struct mlx5_sim_umem_ref dbr;  /* [0]: consumer counter (BE). */
	uint32_t log_size;
	uint32_t uar_page;
	uint32_t eqn;
	bool oi;                   /* Overrun ignore. */
	uint8_t status;            /* 0 OK, MLX5_SIM_CQ_STATUS_OVERFLOW. */
	uint32_t pi;               /* CQEs written. */
	uint32_t ci_seen;          /* The consumer counter read last. */
	uint32_t users;            /* QPs completing here. */
	uint64_t lost;             /* CQEs dropped (overrun). */
	uint16_t cq_period;        /* Moderation (MODIFY_CQ), kept only. */
	uint16_t cq_max_count;
	/*
	 * Armed for one event (the next CQE written; with @armed_sol, the
	 * next solicited or error CQE); the event goes to @event (the
	 * kernel's completion handler of a verbs CQ), called with the card
	 * lock held. NULL: the CQ raises no event.
	 */
	bool armed;
	bool armed_sol;
	void (*event)(void *arg);
	void *event_arg;
	/*
	 * CQE compression (cqc.cqe_comp_en, mlx5_sim_engine.c): the mini-CQE
	 * format, the longest session (the cqe_comp shape key), and the
	 * session of receive CQEs the engine's doorbell is forming, not in
	 * the ring yet: its first CQE and @zip_n mini-CQEs, the first of them
	 * that CQE's. @zip_listed: on its card's list of CQs with a session
	 * open (struct mlx5_sim_card), linked by @zip_next.
	 */
	bool zip;
	bool zip_listed;
	uint8_t zip_fmt;
	uint16_t zip_max;
	uint16_t zip_n;
	struct mlx5_sim_cq *zip_next;
	/* The bytes a CQE must share with the session's first to join. */
	uint64_t zip_key[sizeof(struct mlx5_cqe64) / sizeof(uint64_t)];
	struct mlx5_cqe64 zip_title;
	struct mlx5_mini_cqe8 zip_mini[MLX5_SIM_CQE_COMP_MAX];
};

#define MLX5_SIM_CQ_STATUS_OVERFLOW 0x9
#define MLX5_SIM_CQ_STATUS_WRITE_FAIL 0xa

/*
 * QPs, SQs and RQs share one number space (a doorbell names a QP or an
 * SQ by that number): each starts with its kind.
 */
enum mlx5_sim_qkind {
	MLX5_SIM_Q_QP = 1,
	MLX5_SIM_Q_SQ,
	MLX5_SIM_Q_RQ,
	MLX5_SIM_Q_RMP,            /* The RMP of a verbs SRQ. */
	MLX5_SIM_Q_XSRQ,           /* An XRC SRQ (struct mlx5_sim_rmp). */
};

/* An RC, UC, UD or XRC queue pair. */
struct mlx5_sim_qp {
	uint8_t qkind;             /* MLX5_SIM_Q_QP. */
	uint32_t qpn;
	struct mlx5_sim_file *file;
	struct mlx5_sim_pd_obj *pd;
	uint32_t pdn;
	uint8_t state;             /* enum mlx5_qp_state. */
	uint8_t st;                /* MLX5_QP_ST_RC, _UC, _UD or _XRC. */
	uint32_t cqn_snd, cqn_rcv;
	uint32_t uar_page;
	struct mlx5_sim_umem_ref ring; /* RQ, then SQ. */
	struct mlx5_sim_rmp *rmp;  /* Receives through this SRQ, or NULL. */
	/*
	 * XRC. A target (no send queue) belongs to XRC domain @xrcdn; while
	 * it receives a message, @xrc_srq is the XRC SRQ the message's
	 * XRCETH named (its WQEs, CQ and PD serve the message), else NULL.
	 * An initiator's WQE in flight names that SRQ in @xrc_srqn.
	 */
	uint32_t xrcdn;
	struct mlx5_sim_rmp *xrc_srq;
	uint32_t xrc_srqn;
	struct mlx5_sim_umem_ref dbr;  /* [0]: receive, [1]: send (BE). */
	uint32_t log_sq_size;      /* WQE basic blocks. */
	uint32_t log_rq_size;
	uint32_t log_rq_stride;
	bool no_rq;
	bool no_sq;                /* An XRC target. */
	uint8_t ts_format;
	uint16_t sq_ci;            /* hw_sq_wqebb_counter. */
	uint32_t rq_ci;            /* hw_rq_counter. */
	/* Set by the transitions. */
	uint32_t remote_qpn;
	bool fl;                   /* Force loopback. */
	/* The path's destination MAC (RoCE; all zero: none was given). */
	uint8_t rmac[6];
	uint8_t rgid[16];          /* The path's GRH, kept for QUERY_QP. */
	uint8_t sgid_index, hop_limit;
	uint16_t pkey_index;
	uint32_t q_key;            /* UD: the key datagrams must carry. */
	uint32_t sq_psn, rq_psn;   /* next_send_psn, next_rcv_psn as set. */
	bool rnr_wait;             /* Sends stalled on an RNR NAK. */
	uint32_t rnr_pass;         /* The vHCA's rnr_pass when it stalled. */
	uint8_t rnr_left;          /* RNR retries left (rnr_retry < 7). */
	bool rre, rwe, rae;
	uint8_t port;
	uint8_t mtu;
	uint8_t log_msg_max;
	uint8_t retry_count, rnr_retry;
	uint8_t lag_port;          /* lag_tx_port_affinity, 0: none. */
	uint16_t udp_sport;        /* RTS2RTS optional parameter. */
	uint64_t msg_max;          /* 2^log_msg_max bytes, 2^31 at most. */
	struct mlx5_sim_xcache xc[MLX5_SIM_XCACHE_WAYS]; /* Local keys. */
};

/* An XRC domain (ALLOC_XRCD). */
struct mlx5_sim_xrcd {
	uint32_t xrcdn;
	struct mlx5_sim_file *file;
	uint32_t users;            /* XRC SRQs and XRC target QPs in it. */
};

/* A transport domain and a TIS. */
struct mlx5_sim_td {
	uint32_t tdn;
	struct mlx5_sim_file *file;
	uint32_t users;            /* TISes and TIRs in it. */
	bool kernel;               /* The kernel's (raw QPs): not counted. */
};

struct mlx5_sim_tis {
	uint32_t tisn;
	struct mlx5_sim_file *file;
	uint32_t tdn;
	struct mlx5_sim_pd_obj *pd; /* NULL: none. */
	uint8_t prio;
	uint8_t lag_tx_port_affinity;
	uint32_t users;            /* SQs sending through it. */
};


/* The work queue of an SQ or RQ. */
struct mlx5_sim_wq {
	struct mlx5_sim_file *file;
	struct mlx5_sim_pd_obj *pd;
	uint32_t pdn;
	uint32_t cqn;
	uint32_t uar_page;
	uint32_t user_index;
	struct mlx5_sim_umem_ref ring;
	/* The doorbell record: an RQ's counter at [0], an SQ's at [1] (BE). */
	struct mlx5_sim_umem_ref dbr;
	uint8_t wq_type;
	uint8_t log_wq_stride;
	uint8_t log_wq_sz;
	uint8_t state;             /* enum mlx5_wq_state. */
	uint32_t hw_counter;
	bool flush_in_error_en;
	uint8_t ts_format;         /* Of its CQEs' timestamps. */
	struct mlx5_sim_xcache xc[MLX5_SIM_XCACHE_WAYS];
};

struct mlx5_sim_sq {
	uint8_t qkind;             /* MLX5_SIM_Q_SQ. */
	uint32_t sqn;
	struct mlx5_sim_wq wq;
	uint32_t tisn;
	uint16_t rate_index;       /* Pacing entry, 0: none. */
	uint8_t min_wqe_inline_mode;
	bool allow_mpw;            /* sqc.allow_multi_pkt_send_wqe. */
	uint64_t vt_next_ns;       /* Paced: the earliest next departure. */
};

struct mlx5_sim_rq {
	uint8_t qkind;             /* MLX5_SIM_Q_RQ. */
	uint32_t rqn;
	struct mlx5_sim_wq wq;
	bool vsd, scatter_fcs;
	uint8_t counter_set_id;
	uint32_t users;            /* RQT entries and direct TIRs naming it. */
};

/*
 * A receive memory pool: what the kernel makes of a verbs SRQ on a device
 * of ISSI 1 (mlx5_sim_srq.c); or an XRC SRQ, which adds a CQ and an XRC
 * domain. Its number is from the QP number space.
 */
struct mlx5_sim_rmp {
	uint8_t qkind;             /* MLX5_SIM_Q_RMP or MLX5_SIM_Q_XSRQ. */
	uint32_t rmpn;
	/* An RMP: no CQ, state rmpc.state; an XRC SRQ: wq.cqn, wq.user_index. */
	struct mlx5_sim_wq wq;
	uint32_t xrcdn;            /* An XRC SRQ's domain. */
	uint16_t lwm;              /* Limit watermark: the SRQ limit. */
	uint32_t users;            /* QPs receiving through it. */
	/*
	 * The device's place in the linked list: the next WQE to take
	 * (each WQE's next segment names the one after it) and the WQEs
	 * taken, which the record's counter is compared with.
	 */
	uint16_t head;
	uint16_t taken;
};

/*
 * A verbs queue object (mlx5_sim_verbs.c): the caller's handle, the
 * device object behind it (@kind, @num) and the ring memory the provider
 * library allocated, pinned by the kernel as @mem (a umem of no number,
 * on no list, counted nowhere: the kernel's, not the caller's).
 */
struct mlx5_sim_vobj {
	uint32_t magic;            /* MLX5_SIM_MAGIC_VERBS. */
	enum mlx5_sim_obj_kind kind; /* CQ, QP, RQ (a WQ), RQT, SRQ, XRCD. */
	struct mlx5_sim_file *file;
	uint32_t num;              /* cqn, qpn, rqn, rqtn, rmpn or xrcdn. */
	uint32_t users;            /* The kernel's use count (EBUSY). */
	struct mlx5_sim_vobj **uses; /* Objects it counts on (n_uses). */
	uint32_t n_uses;
	struct mlx5_sim_pd_obj *pd; /* Verbs user of this PD, or NULL. */
	uint8_t kstate;            /* The kernel's QP state (enum ibv_qp_state). */
	uint32_t srq_max;          /* SRQ: WQEs (the limit stays below). */
	/*
	 * The user index libmlx5 gave its receive queue (an XRC SRQ, a raw
	 * packet QP's RQ, a WQ; 0: none), which its receive CQEs carry.
	 * An XRC domain opened on a file: that file's inode (the kernel
	 * finds the domain again by it).
	 */
	bool xrc;
	uint32_t uidx;
	bool xrcd_inode;
	int xrcd_fd;               /* A copy of its descriptor, held. */
	dev_t xrcd_dev;
	ino_t xrcd_ino;
	struct ibv_qp_cap qp_cap;  /* QP: the capacities granted at creation. */
	struct mlx5_sim_umem mem;  /* Ring, then doorbell record. */
	size_t huge_len;           /* Its huge page mapping (0: none). */
	struct mlx5_sim_umem rmem; /* CQ: the ring of its last resize. */
	/*
	 * QP: its rings (mlx5dv_init_obj()), WQEs and bytes a WQE; WQ: its
	 * ring; indirection table: its entries (rq_wqes).
	 */
	uint32_t sq_wqes, rq_wqes, rq_stride;
	/*
	 * A raw packet QP: no QP object but the kernel's parts (0: none),
	 * its number the SQ's (the RQ's without a send queue).
	 */
	bool raw;
	uint32_t raw_tisn, raw_sqn, raw_rqn, raw_tirn;
	/* A front's provider state, freed with the object (NULL: none). */
	void *prov;
	void (*prov_free)(void *prov);
	TAILQ_ENTRY(mlx5_sim_vobj) next;
	union {
		struct ibv_cq cq;
		struct ibv_cq_ex cqx;  /* A CQ of ibv_create_cq_ex(). */
		struct ibv_qp qp;
		struct ibv_qp_ex qpx;  /* A QP with send operations. */
		struct ibv_srq srq;
		struct ibv_wq wq;
		struct ibv_rwq_ind_table ind_tbl;
		struct ibv_xrcd xrcd;
	} ib;
};

/* A queue counter set (mlx5_sim_qcnt.c): qcnts[id - 1] of its vHCA. */
struct mlx5_sim_qcnt {
	struct mlx5_sim_file *file; /* NULL: not allocated. */
	uint32_t users;            /* RQs counting on it. */
	uint32_t out_of_buffer;    /* Wraps at 32 bits, as the PRM's. */
};

/* A flow counter (ALLOC_FLOW_COUNTER): what the rules counting on it took. */
struct mlx5_sim_fcnt {
	struct mlx5_sim_file *file;
	uint32_t users;            /* Rules counting on it. */
	uint64_t packets, octets;
};

/* An RQ table and a TIR. */
struct mlx5_sim_rqt {
	uint32_t rqtn;
	struct mlx5_sim_file *file;
	uint16_t max;
	uint16_t n;
	uint32_t *rqns;
	uint32_t users;            /* TIRs spreading over it. */
};

struct mlx5_sim_tir {
	uint32_t tirn;
	struct mlx5_sim_file *file;
	uint8_t disp_type;
	uint32_t inline_rqn;
	uint32_t rqtn;
	uint8_t hash_fn;
	bool symmetric;
	uint8_t key[MLX5_RSS_HASH_KEY_LEN];
	uint8_t l3_prot_type, l4_prot_type;
	uint32_t fields;
	uint32_t tdn;
	uint8_t self_lb_block;
	uint32_t flows;            /* Steering rules sending to it. */
};

/* A DEK (general object 0xc). */
struct mlx5_sim_dek {
	uint32_t id;
	struct mlx5_sim_file *file;
	struct mlx5_sim_pd_obj *pd;
	uint8_t key_size;          /* MLX5_DEK_KEY_SIZE_*. */
	bool has_keytag;
	uint64_t keytag;           /* With has_keytag: what a BSF must name. */
	uint64_t opaque;
	/* The key pair (unwrapped), then the key tag (big-endian). */
	uint8_t key[MLX5_FLD_SZ_BYTES(dek, key)];
	/*
	 * The cipher's contexts (EVP_CIPHER_CTX): decryption, encryption;
	 * AES-XTS, or AES-ECB of key 1 when the model's own XTS runs
	 * (xts_tweak, AES-ECB of key 2, set: mlx5_sim_dek_xts()).
	 */
	void *xts[2];
	void *xts_tweak;
};

/* The QP, SQ or RQ with number @n, or NULL (card lock held). */
static inline void *
mlx5_sim_qnum_get(const struct mlx5_sim_idtab *t, uint32_t n, uint8_t kind)
{
	const uint8_t *k = n < t->size ? t->slot[n] : NULL;

	return k != NULL && *k == kind ? (void *)(uintptr_t)k : NULL;
}

#endif /* MLX5_SIM_TYPES_QUEUE_H_ */
