/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * The model's types: pacing entries, contexts and files, ports, steering,
 * and the vHCA and card that hold them all.
 */

#ifndef MLX5_SIM_TYPES_VHCA_H_
#define MLX5_SIM_TYPES_VHCA_H_

#include "mlx5_sim_types_queue.h"

/* Packet pacing: table entries per vHCA, handles per file. */
struct mlx5_sim_pp_entry {
	uint32_t refcount;
	bool dedicated;
	uint16_t uid;
	uint8_t ctx[MLX5_ST_SZ_BYTES(set_pp_rate_limit_context)];
};

struct mlx5_sim_pp {
	struct mlx5dv_pp dv;
	uint32_t magic;
	struct mlx5_sim_file *file;
	TAILQ_ENTRY(mlx5_sim_pp) next;
};

/*
 * A context handed to the caller: an extended verbs context, as a provider
 * allocates it (abi_compat marks it so), whose operation tables a front
 * fills (the rdma-core front: libibverbs' inline calls go through them);
 * the vdev adapter calls the model's functions and leaves them empty.
 */
struct mlx5_sim_ctx {
	struct verbs_context vctx;
	uint32_t magic;
	struct mlx5_sim_file *file;
	TAILQ_ENTRY(mlx5_sim_ctx) next;
};

/*
 * A context's crypto login (general object 0x1f), in wrapped import: the
 * import KEK its DEKs are unwrapped with. One a context at most.
 */
struct mlx5_sim_login {
	bool live;
	uint32_t id;
	uint32_t credential_pointer;
	uint32_t kek_ptr;
	uint8_t kek_len;
	uint8_t kek[MLX5_SIM_KEK_MAX];
};

/* The model of a uverbs file: what contexts share and objects belong to. */
struct mlx5_sim_file {
	TAILQ_ENTRY(mlx5_sim_file) next;       /* In the registry. */
	TAILQ_ENTRY(mlx5_sim_file) vhca_next;  /* In vhca->files. */
	struct mlx5_sim_vhca *vhca;
	dev_t st_dev;
	ino_t st_ino;
	bool devx;             /* A DEVX uid (uctx) was created. */
	uint16_t uid;
	uint32_t next_pd_handle;
	TAILQ_HEAD(, mlx5_sim_ctx) ctxs;
	TAILQ_HEAD(, mlx5_sim_pd_obj) pd_objs;
	TAILQ_HEAD(, mlx5_sim_pd) pds;
	TAILQ_HEAD(, mlx5_sim_mr) mrs;
	TAILQ_HEAD(, mlx5_sim_devx_obj) objs;
	TAILQ_HEAD(, mlx5_sim_dv_mkey) dv_mkeys;
	TAILQ_HEAD(, mlx5_sim_umem) umems;
	TAILQ_HEAD(, mlx5_sim_uar) uars;
	TAILQ_HEAD(, mlx5_sim_dm_piece) dm_pieces;
	uint32_t next_dm_handle;
	/* The UAR page the kernel gives the context, for verbs QPs. */
	struct mlx5_sim_uar *ctx_uar;
	/* The kernel's transport domain of the context's raw QPs (0: none). */
	uint32_t kernel_tdn;
	TAILQ_HEAD(, mlx5_sim_pp) pps;
	TAILQ_HEAD(, mlx5_sim_vobj) vobjs;   /* Verbs queue objects. */
	uint32_t tx_port_affinity; /* The kernel's round robin (RST2INIT). */
	uint32_t next_uidx;        /* libmlx5's user indexes (24 bits). */
	TAILQ_HEAD(, mlx5_sim_matcher) matchers;
	TAILQ_HEAD(, mlx5_sim_flow) flows;
	TAILQ_HEAD(, mlx5_sim_ftable) ftables;
	struct mlx5_sim_login login;   /* Wrapped import: its crypto login. */
};

/* Live object counts of a vHCA (guarded by the card lock). */
struct mlx5_sim_live {
	uint64_t contexts, pds, mrs, mkeys, umems, uars, general_objs;
	uint64_t pp_entries, allowed;
	uint64_t cqs, qps, sqs, rqs, tiss, tds, rqts, tirs;
	uint64_t flows, flow_tables, flow_counters;
	uint64_t q_counters;
	uint64_t srqs;             /* RMPs and XRC SRQs. */
	uint64_t dms;
	uint64_t xrcds;
};

/* A port: its cable, link speed, virtual wire clock and counters. */
struct mlx5_sim_port {
	uint32_t wire;             /* MLX5_SIM_WIRE_*, as cabled. */
	bool wire_given;           /* Cabled by a devarg (not by default). */
	struct mlx5_sim_vhca *peer; /* MLX5_SIM_WIRE_PEER: the far end. */
	uint8_t peer_port;         /* Its index (0-based). */
	/* Set administratively down (the netdev's `ip link set down`). */
	bool admin_down;
	uint32_t speed_mbps;
	/*
	 * The wire's virtual time (ns): each frame leaves when the wire and
	 * its SQ's pacing allow and occupies the wire for its length at the
	 * link speed. It is the time CQEs report; no wall clock is read.
	 */
	uint64_t vclock_ns;
	struct mlx5_sim_port_stats st;
};

/* Rules of one table, by priority (linked by vnext). */
struct mlx5_sim_flow;
TAILQ_HEAD(mlx5_sim_flow_list, mlx5_sim_flow);

/*
 * A flow table above the root, of one file (libmlx5's software steering
 * makes one, with a firmware table, for each of its tables of a level
 * above 0): its rules by priority. The root table of NIC receive is the
 * vHCA's (vhca->flows), the kernel's.
 */
struct mlx5_sim_ftable {
	uint32_t magic;            /* MLX5_SIM_MAGIC_FTABLE. */
	struct mlx5_sim_file *file;
	uint8_t type;              /* MLX5DV_FLOW_TABLE_TYPE_NIC_RX or _TX. */
	uint32_t level;            /* Above 0. */
	uint32_t matchers;         /* Matchers on it. */
	uint32_t users;            /* Rules forwarding to it. */
	struct mlx5_sim_flow_list flows;   /* Its rules, by priority. */
	TAILQ_ENTRY(mlx5_sim_ftable) next; /* In file->ftables. */
};

/* A flow matcher (the kernel's object: no firmware command). */
struct mlx5_sim_matcher {
	uint32_t magic;
	struct mlx5_sim_file *file;
	struct ibv_context *ctx;   /* Its rules' context (rdma-core's). */
	struct mlx5_sim_ftable *ft; /* Its table; NULL: the root table. */
	uint64_t seq;              /* Its creation order (vHCA-wide). */
	uint16_t priority;
	uint8_t criteria;          /* match_criteria_enable. */
	bool any;                  /* An empty mask: every frame matches. */
	uint8_t mask[MLX5_ST_SZ_BYTES(fte_match_param)];
	uint32_t users;            /* Rules made with it. */
	TAILQ_ENTRY(mlx5_sim_matcher) next;
};

/*
 * A steering rule of a NIC receive table: frames matching go to a TIR, to
 * a table of a higher level, to the kernel (the default miss) or are
 * dropped.
 */
struct mlx5_sim_flow {
	struct ibv_flow ibflow;
	uint32_t magic;
	struct mlx5_sim_file *file;
	struct mlx5_sim_matcher *matcher;
	uint8_t value[MLX5_ST_SZ_BYTES(fte_match_set_lyr_2_4)];
	/*
	 * Its actions: the fate (enum mlx5_sim_fate) with the TIR or table
	 * it names, and the flow tag its receive CQEs carry (0: none, the
	 * kernel's default tag; a later table's rule may set another).
	 */
	uint8_t fate;
	uint32_t tirn;
	struct mlx5_sim_ftable *dest_ft;
	uint32_t flow_tag;
	struct mlx5_sim_fcnt *fcnt; /* Its count action's counter, or NULL. */
	/*
	 * ibv_create_flow(): the raw packet QP it sends to (a verbs object
	 * counting it as a user) and its matcher, the kernel's, its own.
	 */
	struct mlx5_sim_vobj *qp;
	TAILQ_ENTRY(mlx5_sim_flow) next;     /* In file->flows. */
	/* In its table's rules (vhca->flows for the root), by priority. */
	TAILQ_ENTRY(mlx5_sim_flow) vnext;
};

struct mlx5_sim_vhca {
	struct ibv_device ibdev;               /* Name mlx5_sim_c<card>_v<id>. */
	TAILQ_ENTRY(mlx5_sim_vhca) next;       /* In the registry. */
	TAILQ_ENTRY(mlx5_sim_vhca) card_next;  /* In card->vhcas. */
	struct mlx5_sim_card *card;
	uint16_t vhca_id;
	struct mlx5_sim_caps caps;
	struct mlx5_sim_fault fault;
	TAILQ_HEAD(, mlx5_sim_file) files;
	/* Mkey table: slots[index], grown on demand up to the table size. */
	struct mlx5_sim_mkey **mkeys;
	uint32_t mkey_slots;
	uint32_t mkey_hint;
	/*
	 * Released mkey objects, taken again before a new allocation: a
	 * consumer that creates and destroys thousands of keys a queue
	 * (DPDK's crypto/mlx5, one per descriptor) otherwise fragments the
	 * heap, each aligned allocation slower than the last.
	 */
	struct mlx5_sim_mkey *mkey_spare;
	uint32_t mkey_count;
	uint64_t next_serial;
	uint8_t next_variant;
	/* Number spaces. */
	uint32_t next_pdn;
	uint32_t next_umem_id;
	uint32_t next_uar_page;
	uint32_t next_login_id;    /* Crypto logins: 1, 2, ... */
	uint16_t next_uid;
	uint32_t pd_count, umem_count, uar_count, uctx_count;
	/* Queues. */
	struct mlx5_sim_idtab cqs;
	struct mlx5_sim_idtab qps;     /* QPs, SQs and RQs: one space. */
	struct mlx5_sim_idtab tiss;
	struct mlx5_sim_idtab tds;
	struct mlx5_sim_idtab deks;
	struct mlx5_sim_idtab xrcds;
	struct mlx5_sim_idtab rqts;
	struct mlx5_sim_idtab tirs;
	struct mlx5_sim_qcnt qcnts[MLX5_SIM_MAX_Q_COUNTERS];
	struct mlx5_sim_idtab fcnts;   /* Flow counters, by id. */
	uint64_t matcher_seq;          /* The last matcher's seq. */
	uint8_t qcnt_next;         /* Where the next search starts. */
	uint64_t stray_doorbells;  /* Rung for no queue of the UAR. */
	uint32_t rnr_waiters;      /* QPs whose sends wait on an RNR NAK. */
	uint32_t rnr_pass;         /* Doorbells and device passes so far. */
	bool err_qps;              /* A QP may be in ERR (receives flushed). */
	uint64_t dm_used;          /* Device memory bytes allocated. */
	/* Translation generation (struct mlx5_sim_xcache), from 1. */
	uint64_t xgen;
	/* Ports and the vport: software MTU, steering rules by priority. */
	struct mlx5_sim_port port[MLX5_SIM_MAX_PORTS];
	uint16_t mtu;
	struct mlx5_sim_flow_list flows;
	/* Packet pacing table: entries[i] is index i + 1. */
	struct mlx5_sim_pp_entry *pp;
	/* Accounting. */
	struct mlx5_sim_live live;
	uint64_t reclaimed;
	uint64_t commands;
	uint64_t failed_commands;
	/* Compressed CQE sessions written, and the CQEs they held. */
	uint64_t zip_sessions;
	uint64_t zip_cqes;
};

struct mlx5_sim_card {
	uint16_t id;
	pthread_mutex_t lock;
	TAILQ_HEAD(, mlx5_sim_vhca) vhcas;
	/*
	 * CQs of the card's vHCAs with a compressed session open: only while
	 * an engine's doorbell runs, which writes them at its end
	 * (mlx5_sim_cq_zip_close_all()).
	 */
	struct mlx5_sim_cq *zip_open;
};

#endif /* MLX5_SIM_TYPES_VHCA_H_ */
