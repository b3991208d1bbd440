/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * Internal model of the software device, shared by the sim/ files.
 *
 * The model is the hardware (kernel + firmware): it includes no driver
 * header and calls no driver function (test/check-sim-model.sh, run by
 * the test command, enforces it). It speaks the PRM (mlx5_prm*.h) and
 * rdma-core's types; the vdev bus driver and the backend operations table
 * that connect it to the common layer are the adapter beside it
 * (mlx5_sim_vdev.c, mlx5_sim_adapter.h).
 *
 * Locking: the registry lock guards the card table, the list of every vHCA
 * and the list of every open "uverbs file". One lock per card guards the
 * state of all the vHCAs of that card (objects, tables, counters, fault
 * setting): cross-vHCA commands and DMA through crossing/alias keys read the
 * owner and the importer together, and a card is the unit of cross-vHCA
 * access, so one lock per card gives them a consistent view without lock
 * ordering between vHCAs. Order: registry lock, then card lock.
 *
 * Lifetime: cards and vHCAs are never freed. Objects belong to a file (the
 * model of a uverbs file, identified by the inode of a memfd) and are
 * reclaimed when the last context of the file closes. Links that cross vHCAs
 * (crossing and alias keys) hold (vHCA, mkey index, serial), never a pointer
 * to the target object, so a destroyed target is detected, never dereferenced.
 */

#ifndef MLX5_SIM_PRIV_H_
#define MLX5_SIM_PRIV_H_

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/queue.h>
#include <sys/types.h>

#include <rte_bitops.h>
#include <rte_branch_prediction.h>
#include <rte_common.h>

#include <infiniband/mlx5dv.h>
#include <infiniband/verbs.h>

/* The PRM layouts: the spec the device implements, shared with the driver. */
#include "mlx5_prm.h"
#include "mlx5_sim.h"

/*
 * The sim object that embeds rdma-core's public struct at @member. Unlike
 * DPDK's container_of(), the cast goes through void *: the public structs
 * (struct mlx5dv_pp, 2-byte aligned) are less aligned than ours, which
 * clang's -Wcast-align reports on a direct cast.
 */
#define MLX5_SIM_OF(ptr, type, member) \
	((type *)(void *)((char *)(ptr) - offsetof(type, member)))

/*
 * The device's log lines, through the sink its front installed
 * (mlx5_sim_log_set(), mlx5_sim_log.c): the model calls nothing of EAL.
 */
#define SIM_LOG(level, fmt, ...) \
	mlx5_sim_log(MLX5_SIM_LOG_ ## level, "mlx5_sim: " fmt "\n", \
		     ## __VA_ARGS__)
void mlx5_sim_log(int level, const char *fmt, ...) __rte_format_printf(2, 3);
/* Abort with a log line when @cond, an invariant of the model, fails. */
#define MLX5_SIM_VERIFY(cond) do { \
	if (unlikely(!(cond))) \
		mlx5_sim_die(__FILE__, __LINE__, #cond); \
} while (0)
__rte_noreturn void mlx5_sim_die(const char *file, int line, const char *what);

/* Ports of a vHCA. */
#define MLX5_SIM_MAX_PORTS 2
/* Table limits of a vHCA. */
#define MLX5_SIM_MKEY_TABLE_SIZE (1u << 16) /* Indices 1..size-1. */
#define MLX5_SIM_MAX_PDS 4096
#define MLX5_SIM_MAX_UMEMS 4096
#define MLX5_SIM_MAX_UARS 1024
#define MLX5_SIM_MAX_UCTX 4096
#define MLX5_SIM_MAX_KLM_ENTRIES (1u << 16)
#define MLX5_SIM_MAX_CQS (1u << 16)     /* Numbers 1..max-1. */
#define MLX5_SIM_MAX_QPS (1u << 16)
/* Queue counter sets: ids 1..128 (rqc.counter_set_id is 8 bits, 0 none). */
#define MLX5_SIM_MAX_Q_COUNTERS 128
/* Queue sizes (log2): CQEs per CQ, WQEs per QP queue. */
#define MLX5_SIM_LOG_MAX_CQ_SZ 22
#define MLX5_SIM_LOG_MAX_QP_SZ 15
#define MLX5_SIM_LOG_MAX_MSG 31
/* Completion vectors, each with its event queue (EQN base + vector). */
#define MLX5_SIM_NUM_COMP_VECTORS 4
#define MLX5_SIM_EQN_BASE 0x20
/* First PD number: far from PD handles, so that mixing them up shows. */
#define MLX5_SIM_PDN_BASE 0x100

/* Magic values of the handles given to callers. */
#define MLX5_SIM_MAGIC_CTX 0x53494d43u  /* "SIMC" */
#define MLX5_SIM_MAGIC_PD 0x53494d50u   /* "SIMP" */
#define MLX5_SIM_MAGIC_MR 0x53494d4du   /* "SIMM" */
#define MLX5_SIM_MAGIC_OBJ 0x53494d4fu  /* "SIMO" */
#define MLX5_SIM_MAGIC_UMEM 0x53494d55u /* "SIMU" */
#define MLX5_SIM_MAGIC_UAR 0x53494d52u  /* "SIMR" */
#define MLX5_SIM_MAGIC_DVMK 0x53494d4bu /* "SIMK" */
#define MLX5_SIM_MAGIC_PP 0x53494d51u   /* "SIMQ" */
#define MLX5_SIM_MAGIC_MATCHER 0x53494d46u /* "SIMF" */
#define MLX5_SIM_MAGIC_FLOW 0x53494d57u  /* "SIMW" */
#define MLX5_SIM_MAGIC_VERBS 0x53494d56u /* "SIMV": verbs queue objects. */
#define MLX5_SIM_MAGIC_DEAD 0xdeadbeefu

struct mlx5_sim_card;
struct mlx5_sim_vhca;
struct mlx5_sim_file;

/* Capabilities, fixed when the vHCA is created. */
struct mlx5_sim_caps {
	bool hca_cap_2;
	bool crossing;     /* Cross-vHCA caps (effective only with hca_cap_2). */
	bool pacing;
	bool pp_uid;       /* packet_pacing_uid: the PP object exists. */
	bool signature;    /* Signature offload (BLOCK_SIGNATURE mkeys). */
	/*
	 * What this vHCA's firmware requires of one of its mkeys before a
	 * crossing mkey of another vHCA may target it (MLX5_SIM_CROSS_*): no
	 * public source settles it, so it is a setting.
	 */
	uint8_t cross_rule;
	/*
	 * Complete every alias CREATE with this alias_context.status (0:
	 * none): firmware can create an alias it cannot use, and the driver
	 * must tell.
	 */
	uint8_t alias_status;
	bool update_tag;
	bool crypto;
	bool odp;          /* On-demand paging, implicit ODP included. */
	uint16_t pp_table_size;
	uint32_t pp_min_rate;
	uint32_t pp_max_rate;
	/*
	 * Pacing in wall-clock time: a paced SQ's WQE waits for its time
	 * (a later doorbell sends it) and CQEs carry wall-clock times;
	 * otherwise (default) time is the wire's virtual clock.
	 */
	bool pace_wall;
	uint32_t speed_mbps;       /* Link speed of the ports at creation. */
	/* Ports (1 or 2) and what each is cabled to (MLX5_SIM_WIRE_*). */
	uint8_t nports;
	uint32_t wire[MLX5_SIM_MAX_PORTS];
};

/*
 * What a port is cabled to: looped back to itself, nothing (link down),
 * or a port of another vHCA of the card (MLX5_SIM_WIRE_PEER()).
 */
#define MLX5_SIM_WIRE_LOOPBACK 0u
#define MLX5_SIM_WIRE_NONE 1u
#define MLX5_SIM_WIRE_PEER_FLAG RTE_BIT32(31)
#define MLX5_SIM_WIRE_PEER(vhca_id, port) \
	(MLX5_SIM_WIRE_PEER_FLAG | (uint32_t)(vhca_id) << 8 | (port))
#define MLX5_SIM_WIRE_IS_PEER(w) (((w) & MLX5_SIM_WIRE_PEER_FLAG) != 0)
#define MLX5_SIM_WIRE_VHCA(w) ((uint16_t)((w) >> 8))
#define MLX5_SIM_WIRE_PORT(w) ((uint8_t)((w) & 0xff))

/* Requirements of a crossing target (struct mlx5_sim_caps.cross_rule). */
#define MLX5_SIM_CROSS_GRANT RTE_BIT32(0) /* ALLOW_OTHER_VHCA_ACCESS. */
#define MLX5_SIM_CROSS_MARK RTE_BIT32(1)  /* mkc.crossed_side_mkey. */
#define MLX5_SIM_CROSS_BOTH (MLX5_SIM_CROSS_GRANT | MLX5_SIM_CROSS_MARK)

/* Fault injection setting. */
struct mlx5_sim_fault {
	bool armed;
	int opcode;        /* -1: any. */
	uint32_t nth;      /* 0: every matching command. */
	uint8_t status;
	uint32_t seen;     /* Matching commands since arming. */
};

/* A protection domain: one per ALLOC_PD, shared by its handles. */
struct mlx5_sim_pd_obj {
	TAILQ_ENTRY(mlx5_sim_pd_obj) next;  /* In file->pd_objs. */
	struct mlx5_sim_file *file;
	uint32_t handle;   /* ibv_pd.handle, per file. */
	uint32_t pdn;      /* PD number, per vHCA. */
	uint32_t users;    /* MRs, mkeys, alias objects using it: all. */
	/*
	 * The kernel's use count: verbs objects only (MRs, mlx5dv mkeys).
	 * DEALLOC_PD is EBUSY while it is non-zero; DEVX objects hold none.
	 */
	uint32_t verbs_users;
	uint32_t handles;  /* struct mlx5_sim_pd referring to it. */
	bool devx;         /* Allocated through DEVX (no verbs handle). */
	bool alive;        /* false once deallocated (handles may remain). */
};

/* A caller's ibv_pd: the allocating one or an import. */
struct mlx5_sim_pd {
	struct ibv_pd ibpd;
	uint32_t magic;
	bool imported;
	struct mlx5_sim_pd_obj *obj;
	TAILQ_ENTRY(mlx5_sim_pd) next;      /* In file->pds. */
};

/* A registered umem. */
struct mlx5_sim_umem {
	struct mlx5dv_devx_umem dv;
	uint32_t magic;
	struct mlx5_sim_file *file;
	uint8_t *addr;
	size_t size;
	uint32_t access;
	uint32_t users;    /* MTT mkeys over it. */
	TAILQ_ENTRY(mlx5_sim_umem) next;
};

/* A UAR page. */
struct mlx5_sim_uar {
	struct mlx5dv_devx_uar dv;
	uint32_t magic;
	struct mlx5_sim_file *file;
	void *page;
	TAILQ_ENTRY(mlx5_sim_uar) next;
};

/* How an mkey translates. */
enum mlx5_sim_mkey_kind {
	MLX5_SIM_MKEY_VA,       /* Verbs MR: the process's virtual addresses. */
	MLX5_SIM_MKEY_MTT,      /* Over a umem. */
	MLX5_SIM_MKEY_KLM,      /* Indirect: entries of other mkeys. */
	MLX5_SIM_MKEY_CROSSING, /* Another vHCA's mkey, same addresses. */
	MLX5_SIM_MKEY_ALIAS,    /* Alias object of another vHCA's mkey. */
};

/* Who created an mkey (and so how it is destroyed). */
enum mlx5_sim_mkey_origin {
	MLX5_SIM_ORIGIN_DEVX,   /* CREATE_MKEY through devx_obj_create. */
	MLX5_SIM_ORIGIN_DV,     /* mlx5dv_create_mkey. */
	MLX5_SIM_ORIGIN_MR,     /* reg_mr. */
	MLX5_SIM_ORIGIN_ALIAS,  /* CREATE_GENERAL_OBJECT alias. */
};

struct mlx5_sim_klm_entry {
	uint32_t byte_count;
	uint32_t mkey;
	uint64_t address;
};

/* A link to another vHCA's mkey: resolved at each use. */
struct mlx5_sim_remote {
	struct mlx5_sim_vhca *vhca;
	uint32_t index;
	uint64_t serial;
};

/*
 * A queue's cached translation of one key (the per-queue fast path): a
 * direct key (a verbs MR without ODP, or an MTT mkey) checked once for the
 * queue's PD and for local rights, valid while the vHCA's translation
 * generation is the one it was filled under. Destroying an mkey and
 * freeing a PD bump the generation, so no cached entry outlives a change
 * of any direct key (a UMR changes only an indirect key, never cached:
 * a crypto key's klm_xc, of its first entry, is made again by its UMR).
 */
struct mlx5_sim_xcache {
	uint64_t gen;              /* 0: empty. */
	uint32_t key;
	uint32_t pdn;
	bool lr, lw;
	uint64_t start, size;      /* The key's range [start, start + size). */
	uintptr_t delta;           /* Host address less device address. */
};
#define MLX5_SIM_XCACHE_WAYS 4

/*
 * One entry of the mkey table, allocated on a boundary of
 * MLX5_SIM_MKEY_ALIGN bytes (mlx5_sim_mkey_alloc()). Hot fields first:
 * what a UMR on a crypto key and a transfer through the key read and
 * write (the key, its rights and range, its list, its BSF, the cache of
 * its first entry) sit in its first three 64-byte lines, each an L1 miss
 * per operation when the ciphered buffers have pushed the key out. Cold
 * fields (creation, queries, cross-vHCA use) after them.
 */
#define MLX5_SIM_MKEY_ALIGN 64
struct mlx5_sim_mkey {
	uint32_t index;
	uint8_t variant;
	bool free, umr_en;
	uint8_t crypto_en;
	enum mlx5_sim_mkey_kind kind;
	uint32_t pdn;
	struct mlx5_sim_pd_obj *pd;
	uint64_t start;
	uint64_t len;
	uint32_t translations_octword_size;
	uint32_t bsf_octword_size; /* BSF room reserved at creation. */
	uint32_t umr_gen;          /* UMRs executed on this key. */
	bool a, rw, rr, lw, lr, en_rinval;
	bool length64;             /* [start, 2^64): len is not used. */
	bool bsf_en;               /* mkc.bsf_en, as created or by UMR. */
	union {
		struct {
			struct mlx5_sim_umem *umem;
			uint64_t offset;
		} mtt;
		struct {
			uint32_t num;
			struct mlx5_sim_klm_entry *entries;
		} klm;
	} u;
	/* UMR and crypto (mlx5_sim_umr.c). */
	struct {
		uint32_t dek_id;
		uint32_t data_unit; /* Bytes one tweak covers. */
		uint32_t raw_data_size;
		bool configured;   /* A UMR gave it a crypto BSF. */
		bool memory_encrypted; /* Ciphertext on the memory side. */
		uint8_t tweak[MLX5_CRYPTO_XTS_TWEAK_LEN]; /* LE 128 bits. */
	} crypto;
	/* u.klm.entries of a list of one entry (no allocation). */
	struct mlx5_sim_klm_entry klm_one;
	/*
	 * A UMR'd key of one KLM entry: the entry key's translation, filled
	 * by the UMR (mlx5_sim_umr.c), valid under the same generation rule.
	 */
	struct mlx5_sim_xcache klm_xc;
	/* Cold: not read by a crypto operation. */
	uint64_t serial;           /* Unique per vHCA: detects index reuse. */
	enum mlx5_sim_mkey_origin origin;
	uint32_t qpn;
	struct mlx5_sim_file *file;
	uint32_t dv_flags;         /* mlx5dv_create_mkey create_flags. */
	uint8_t access_mode;       /* PRM access mode as created. */
	uint8_t log_page_size;
	bool odp;                  /* Paged on access: unmapped memory faults. */
	/* ALLOW_OTHER_VHCA_ACCESS grant. */
	bool allowed;
	/* Created with mkc.crossed_side_mkey (a target of crossing). */
	bool crossed_side;
	uint8_t access_key[MLX5_ACCESS_KEY_LEN];
	/* The link of a crossing or alias key (kind). */
	union {
		struct {
			struct mlx5_sim_remote target;
			uint32_t key;      /* Target key as given (carried, not checked). */
			uint16_t vhca_id;
		} cross;
		struct {
			struct mlx5_sim_remote target;
			uint16_t vhca_id;
			uint32_t obj_id;
			uint8_t access_key[MLX5_ACCESS_KEY_LEN];
			/* Created with a bad status: never usable. */
			uint8_t bad_status;
		} alias;
	} r;
} __rte_aligned(MLX5_SIM_MKEY_ALIGN);

/* The caller's handle for a DEVX object. */
enum mlx5_sim_obj_kind {
	MLX5_SIM_OBJ_MKEY,
	MLX5_SIM_OBJ_ALIAS,
	MLX5_SIM_OBJ_PD,           /* index: the pdn. */
	MLX5_SIM_OBJ_CQ,           /* index: the cqn. */
	MLX5_SIM_OBJ_QP,           /* index: the qpn. */
	MLX5_SIM_OBJ_SQ,           /* index: the sqn. */
	MLX5_SIM_OBJ_RQ,           /* index: the rqn. */
	MLX5_SIM_OBJ_TIS,          /* index: the tisn. */
	MLX5_SIM_OBJ_TD,           /* index: the transport domain. */
	MLX5_SIM_OBJ_DEK,          /* index: the DEK's object id. */
	MLX5_SIM_OBJ_RQT,          /* index: the rqtn. */
	MLX5_SIM_OBJ_TIR,          /* index: the tirn. */
	MLX5_SIM_OBJ_QCNT,         /* index: the counter set id. */
	MLX5_SIM_OBJ_SRQ,          /* index: the rmpn (verbs SRQs only). */
};

struct mlx5_sim_devx_obj {
	uint32_t magic;
	enum mlx5_sim_obj_kind kind;
	struct mlx5_sim_file *file;
	uint32_t index;            /* mkey index (alias: obj_id). */
	uint64_t serial;
	uint16_t obj_type;         /* General object type (alias). */
	TAILQ_ENTRY(mlx5_sim_devx_obj) next;
};

/* Verbs MR and mlx5dv mkey handles. */
struct mlx5_sim_mr {
	struct ibv_mr ibmr;
	uint32_t magic;
	struct mlx5_sim_file *file;
	uint32_t index;
	uint64_t serial;
	TAILQ_ENTRY(mlx5_sim_mr) next;
};

struct mlx5_sim_dv_mkey {
	struct mlx5dv_mkey dv;
	uint32_t magic;
	struct mlx5_sim_file *file;
	uint32_t index;
	uint64_t serial;
	TAILQ_ENTRY(mlx5_sim_dv_mkey) next;
};

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
};

/* An RC queue pair. */
struct mlx5_sim_qp {
	uint8_t qkind;             /* MLX5_SIM_Q_QP. */
	uint32_t qpn;
	struct mlx5_sim_file *file;
	struct mlx5_sim_pd_obj *pd;
	uint32_t pdn;
	uint8_t state;             /* enum mlx5_qp_state. */
	uint32_t cqn_snd, cqn_rcv;
	uint32_t uar_page;
	struct mlx5_sim_umem_ref ring; /* RQ, then SQ. */
	struct mlx5_sim_umem_ref dbr;  /* [0]: receive, [1]: send (BE). */
	uint32_t log_sq_size;      /* WQE basic blocks. */
	uint32_t log_rq_size;
	uint32_t log_rq_stride;
	bool no_rq;
	uint8_t ts_format;
	uint16_t sq_ci;            /* hw_sq_wqebb_counter. */
	uint32_t rq_ci;            /* hw_rq_counter. */
	/* Set by the transitions. */
	uint32_t remote_qpn;
	bool fl;                   /* Force loopback. */
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

/* A transport domain and a TIS. */
struct mlx5_sim_td {
	uint32_t tdn;
	struct mlx5_sim_file *file;
	uint32_t users;            /* TISes and TIRs in it. */
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
 * of ISSI 1 (mlx5_sim_srq.c). Its number is from the QP number space.
 */
struct mlx5_sim_rmp {
	uint8_t qkind;             /* MLX5_SIM_Q_RMP. */
	uint32_t rmpn;
	struct mlx5_sim_wq wq;     /* No CQ; state is rmpc.state. */
	uint16_t lwm;              /* Limit watermark: the SRQ limit. */
	uint32_t users;            /* QPs receiving through it. */
};

/*
 * A verbs queue object (mlx5_sim_verbs.c): the caller's handle, the
 * device object behind it (@kind, @num) and the ring memory the provider
 * library allocated, pinned by the kernel as @mem (a umem of no number,
 * on no list, counted nowhere: the kernel's, not the caller's).
 */
struct mlx5_sim_vobj {
	uint32_t magic;            /* MLX5_SIM_MAGIC_VERBS. */
	enum mlx5_sim_obj_kind kind; /* CQ, QP, RQ (a WQ), RQT, SRQ. */
	struct mlx5_sim_file *file;
	uint32_t num;              /* cqn, qpn, rqn, rqtn or rmpn. */
	uint32_t users;            /* The kernel's use count (EBUSY). */
	struct mlx5_sim_vobj **uses; /* Objects it counts on (n_uses). */
	uint32_t n_uses;
	struct mlx5_sim_pd_obj *pd; /* Verbs user of this PD, or NULL. */
	uint8_t kstate;            /* The kernel's QP state (enum ibv_qp_state). */
	uint32_t srq_max;          /* SRQ: WQEs (the limit stays below). */
	struct mlx5_sim_umem mem;  /* Ring, then doorbell record. */
	TAILQ_ENTRY(mlx5_sim_vobj) next;
	union {
		struct ibv_cq cq;
		struct ibv_qp qp;
		struct ibv_srq srq;
		struct ibv_wq wq;
		struct ibv_rwq_ind_table ind_tbl;
	} ib;
};

/* A queue counter set (mlx5_sim_qcnt.c): qcnts[id - 1] of its vHCA. */
struct mlx5_sim_qcnt {
	struct mlx5_sim_file *file; /* NULL: not allocated. */
	uint32_t users;            /* RQs counting on it. */
	uint32_t out_of_buffer;    /* Wraps at 32 bits, as the PRM's. */
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
	uint64_t opaque;
	uint8_t key[MLX5_FLD_SZ_BYTES(dek, key)];
	/* The cipher's contexts (EVP_CIPHER_CTX): decryption, encryption. */
	void *xts[2];
};

/* The QP, SQ or RQ with number @n, or NULL (card lock held). */
static inline void *
mlx5_sim_qnum_get(const struct mlx5_sim_idtab *t, uint32_t n, uint8_t kind)
{
	const uint8_t *k = n < t->size ? t->slot[n] : NULL;

	return k != NULL && *k == kind ? (void *)(uintptr_t)k : NULL;
}

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

/* A context handed to the caller. */
struct mlx5_sim_ctx {
	struct ibv_context ibctx;
	uint32_t magic;
	struct mlx5_sim_file *file;
	TAILQ_ENTRY(mlx5_sim_ctx) next;
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
	TAILQ_HEAD(, mlx5_sim_pp) pps;
	TAILQ_HEAD(, mlx5_sim_vobj) vobjs;   /* Verbs queue objects. */
	uint32_t tx_port_affinity; /* The kernel's round robin (RST2INIT). */
	TAILQ_HEAD(, mlx5_sim_matcher) matchers;
	TAILQ_HEAD(, mlx5_sim_flow) flows;
};

/* Live object counts of a vHCA (guarded by the card lock). */
struct mlx5_sim_live {
	uint64_t contexts, pds, mrs, mkeys, umems, uars, general_objs;
	uint64_t pp_entries, allowed;
	uint64_t cqs, qps, sqs, rqs, tiss, tds, rqts, tirs;
	uint64_t flows;
	uint64_t q_counters;
	uint64_t srqs;
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

/* A flow matcher (the kernel's object: no firmware command). */
struct mlx5_sim_matcher {
	uint32_t magic;
	struct mlx5_sim_file *file;
	uint16_t priority;
	uint8_t criteria;          /* match_criteria_enable. */
	bool any;                  /* An empty mask: every frame matches. */
	uint8_t mask[MLX5_ST_SZ_BYTES(fte_match_param)];
	uint32_t users;            /* Rules made with it. */
	TAILQ_ENTRY(mlx5_sim_matcher) next;
};

/* A steering rule of the NIC receive table: frames matching go to a TIR. */
struct mlx5_sim_flow {
	struct ibv_flow ibflow;
	uint32_t magic;
	struct mlx5_sim_file *file;
	struct mlx5_sim_matcher *matcher;
	uint8_t value[MLX5_ST_SZ_BYTES(fte_match_set_lyr_2_4)];
	uint32_t tirn;
	TAILQ_ENTRY(mlx5_sim_flow) next;     /* In file->flows. */
	TAILQ_ENTRY(mlx5_sim_flow) vnext;    /* In vhca->flows, by priority. */
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
	uint32_t mkey_count;
	uint64_t next_serial;
	uint8_t next_variant;
	/* Number spaces. */
	uint32_t next_pdn;
	uint32_t next_umem_id;
	uint32_t next_uar_page;
	uint16_t next_uid;
	uint32_t pd_count, umem_count, uar_count, uctx_count;
	/* Queues. */
	struct mlx5_sim_idtab cqs;
	struct mlx5_sim_idtab qps;     /* QPs, SQs and RQs: one space. */
	struct mlx5_sim_idtab tiss;
	struct mlx5_sim_idtab tds;
	struct mlx5_sim_idtab deks;
	struct mlx5_sim_idtab rqts;
	struct mlx5_sim_idtab tirs;
	struct mlx5_sim_qcnt qcnts[MLX5_SIM_MAX_Q_COUNTERS];
	uint8_t qcnt_next;         /* Where the next search starts. */
	uint64_t stray_doorbells;  /* Rung for no queue of the UAR. */
	/* Translation generation (struct mlx5_sim_xcache), from 1. */
	uint64_t xgen;
	/* Ports and the vport: software MTU, steering rules by priority. */
	struct mlx5_sim_port port[MLX5_SIM_MAX_PORTS];
	uint16_t mtu;
	TAILQ_HEAD(, mlx5_sim_flow) flows;
	/* Packet pacing table: entries[i] is index i + 1. */
	struct mlx5_sim_pp_entry *pp;
	/* Accounting. */
	struct mlx5_sim_live live;
	uint64_t reclaimed;
	uint64_t commands;
	uint64_t failed_commands;
};

struct mlx5_sim_card {
	uint16_t id;
	pthread_mutex_t lock;
	TAILQ_HEAD(, mlx5_sim_vhca) vhcas;
};

/* Registry (mlx5_sim_card.c). */
void mlx5_sim_registry_lock(void);
void mlx5_sim_registry_unlock(void);
/* Lock/unlock the card of a vHCA. */
void mlx5_sim_vhca_lock(struct mlx5_sim_vhca *vhca);
void mlx5_sim_vhca_unlock(struct mlx5_sim_vhca *vhca);
/* The vHCA @vhca_id of card @card_id, or NULL (no lock held). */
struct mlx5_sim_vhca *mlx5_sim_vhca_find(uint16_t card_id, uint16_t vhca_id);
/* Find a vHCA of a card (card lock held). */
struct mlx5_sim_vhca *mlx5_sim_card_vhca(struct mlx5_sim_card *card,
					 uint16_t vhca_id);
/* The vHCA of a sim ibv_device, or NULL (registry lock not held). */
struct mlx5_sim_vhca *mlx5_sim_vhca_of_device(struct ibv_device *dev);
/* Create a vHCA, or find it and check its capabilities. */
int mlx5_sim_vhca_get(uint16_t card, uint16_t vhca_id,
		      const struct mlx5_sim_caps *caps, uint32_t caps_given,
		      struct mlx5_sim_vhca **vhca);
/* Replace the fault setting of a vHCA. */
void mlx5_sim_vhca_fault_arm(struct mlx5_sim_vhca *vhca,
			     const struct mlx5_sim_fault *fault);
/* Bits of caps_given: which capability devargs a probe named. */
enum {
	MLX5_SIM_CAP_HCA_CAP_2 = RTE_BIT32(0),
	MLX5_SIM_CAP_CROSSING = RTE_BIT32(1),
	MLX5_SIM_CAP_PACING = RTE_BIT32(2),
	MLX5_SIM_CAP_PP_TABLE_SIZE = RTE_BIT32(3),
	MLX5_SIM_CAP_PP_MIN_RATE = RTE_BIT32(4),
	MLX5_SIM_CAP_PP_MAX_RATE = RTE_BIT32(5),
	MLX5_SIM_CAP_UPDATE_TAG = RTE_BIT32(6),
	MLX5_SIM_CAP_CRYPTO = RTE_BIT32(7),
	MLX5_SIM_CAP_ODP = RTE_BIT32(8),
	MLX5_SIM_CAP_PP_UID = RTE_BIT32(9),
	MLX5_SIM_CAP_SIGNATURE = RTE_BIT32(10),
	MLX5_SIM_CAP_CROSS_RULE = RTE_BIT32(11),
	MLX5_SIM_CAP_ALIAS_STATUS = RTE_BIT32(12),
	MLX5_SIM_CAP_PORTS = RTE_BIT32(13),
	MLX5_SIM_CAP_WIRE1 = RTE_BIT32(14),
	MLX5_SIM_CAP_WIRE2 = RTE_BIT32(15),
	MLX5_SIM_CAP_PACE_CLOCK = RTE_BIT32(16),
	MLX5_SIM_CAP_SPEED = RTE_BIT32(17),
};
/* Effective cross-vHCA capability. */
static inline bool
mlx5_sim_vhca_crossing(const struct mlx5_sim_vhca *vhca)
{
	return vhca->caps.hca_cap_2 && vhca->caps.crossing;
}

/* Commands (mlx5_sim_card.c): accounting, faults, syndromes, names. */
uint32_t mlx5_sim_cmd_start(struct mlx5_sim_vhca *vhca, uint16_t opcode,
			    uint8_t *status);
uint8_t mlx5_sim_cmd_finish(struct mlx5_sim_vhca *vhca, uint16_t opcode,
			    uint32_t syndrome, uint8_t status);
uint8_t mlx5_sim_syndrome_status(uint32_t syndrome);
/* The kernel's errno of a command status (0 for OK). */
int mlx5_sim_status_errno(uint8_t status);
/*
 * One command the kernel issues for a verbs-style call, vHCA lock held:
 * counted, refused by an injected fault or else by @rule (a syndrome of the
 * device's rules, MLX5_SIM_SYND_OK to accept), logged when refused.
 * Returns 0, or the kernel's errno of the status (no mailbox).
 */
int mlx5_sim_cmd_kernel(struct mlx5_sim_vhca *vhca, uint16_t opcode,
			uint32_t rule);
const char *mlx5_sim_opcode_name(uint16_t opcode);
int mlx5_sim_opcode_parse(const char *name, uint16_t *opcode);
const char *mlx5_sim_status_name(uint8_t status);
int mlx5_sim_status_parse(const char *name, uint8_t *status);

/* Contexts and files (mlx5_sim_ctx.c). */
struct mlx5_sim_ctx *mlx5_sim_ctx_get(struct ibv_context *ctx);
struct mlx5_sim_pd *mlx5_sim_pd_get(struct ibv_pd *pd);
struct mlx5_sim_pd_obj *mlx5_sim_pd_find(struct mlx5_sim_vhca *vhca,
					 uint32_t pdn,
					 struct mlx5_sim_file **owner);
struct mlx5_sim_umem *mlx5_sim_umem_find(struct mlx5_sim_vhca *vhca,
					 uint32_t umem_id);

/* The process's memory as the device sees it (mlx5_sim_mem.c). */
size_t mlx5_sim_page_size(void);
/* DEVX ALLOC_PD and the DEALLOC_PD of its destroy (mlx5_sim_ctx.c). */
uint32_t mlx5_sim_cmd_alloc_pd(struct mlx5_sim_file *file, void *out,
			       struct mlx5_sim_devx_obj *obj);
uint32_t mlx5_sim_cmd_dealloc_pd(struct mlx5_sim_file *file, const void *in);
/* 0 if [addr, addr + len) is mapped in the process, else a positive errno. */
int mlx5_sim_range_mapped(const void *addr, size_t len);
/*
 * 0 if the kernel would pin [addr, addr + len) for a registration: every
 * page mapped and readable, and writable when @write. EFAULT otherwise.
 */
int mlx5_sim_range_pinnable(const void *addr, size_t len, bool write);
/* Install the fault guard of device accesses (once): 0 or -EFAULT. */
int mlx5_sim_guard_init(void);
/*
 * Run @fn(@arg), a copy on the process's memory, under the fault guard:
 * 0, or -EFAULT if it faulted (it may have copied part). @fn must touch
 * nothing but the memory it copies.
 */
int mlx5_sim_guarded(void (*fn)(void *arg), void *arg);
/*
 * memcpy() under the fault guard, for the device's own reads and writes of
 * application memory (rings, doorbell records): 0 or -EFAULT.
 */
int mlx5_sim_copy_guarded(void *dst, const void *src, size_t len);

/* Mkey table (mlx5_sim_mkey.c). */
/*
 * CREATE_MKEY of a key made through verbs (reg_mr, mlx5dv_create_mkey) on
 * PD @spd, counted and subject to faults like any command, refused with
 * @rule (a syndrome of the caller's device rules, or MLX5_SIM_SYND_OK) or
 * when the mkey table is full. On success the
 * vHCA lock is held and *out is the new mkey with its identity, PD, local
 * read and "any QP" filled; otherwise the lock is not held and the return
 * value is a positive errno.
 */
int mlx5_sim_verbs_mkey_create(struct mlx5_sim_pd *spd,
			       enum mlx5_sim_mkey_origin origin,
			       uint32_t rule, struct mlx5_sim_mkey **out);
/*
 * DESTROY_MKEY of a key made through verbs (dereg_mr, mlx5dv_destroy_mkey):
 * one path for both. On success the vHCA lock is held (the caller unlinks
 * its handle); otherwise it is not and the return value is the kernel's
 * errno of the refusal.
 */
int mlx5_sim_verbs_mkey_destroy(struct mlx5_sim_vhca *vhca, uint32_t index,
				uint64_t serial);
bool mlx5_sim_mkey_table_full(const struct mlx5_sim_vhca *vhca);
uint32_t mlx5_sim_mkey_alloc(struct mlx5_sim_vhca *vhca,
			     struct mlx5_sim_mkey **mkey);
void mlx5_sim_mkey_release(struct mlx5_sim_vhca *vhca,
			   struct mlx5_sim_mkey *mkey);
/* Free the KLM list of KLM key @mkey, unless it is the one in the key. */
void mlx5_sim_mkey_klm_free(struct mlx5_sim_mkey *mkey);
/* The mkey at table index @index, or NULL. */
static inline struct mlx5_sim_mkey *
mlx5_sim_mkey_at(const struct mlx5_sim_vhca *vhca, uint32_t index)
{
	return likely(index < vhca->mkey_slots) ? vhca->mkeys[index] : NULL;
}

/*
 * The mkey of key @key (index and variant), or NULL. Inline: every UMR
 * and every transfer through a key looks up a few.
 */
static inline struct mlx5_sim_mkey *
mlx5_sim_mkey_by_key(const struct mlx5_sim_vhca *vhca, uint32_t key)
{
	struct mlx5_sim_mkey *mkey = mlx5_sim_mkey_at(vhca,
						      MLX5_MKEY_INDEX(key));

	return mkey != NULL && mkey->variant == MLX5_MKEY_VARIANT(key) ?
	       mkey : NULL;
}
/*
 * May a crossing mkey of @importer reach @target (of vHCA @owner) now? The
 * owner's cross_rule decides; a vHCA crossing to its own mkeys needs
 * nothing (the kernel's data-direct MR does so with no grant).
 */
bool mlx5_sim_cross_permitted(const struct mlx5_sim_vhca *importer,
			      const struct mlx5_sim_vhca *owner,
			      const struct mlx5_sim_mkey *target);
struct mlx5_sim_mkey *mlx5_sim_remote_get(const struct mlx5_sim_remote *r);
uint32_t mlx5_sim_cmd_create_mkey(struct mlx5_sim_file *file, const void *in,
				  size_t inlen, void *out,
				  struct mlx5_sim_devx_obj *obj);
uint32_t mlx5_sim_cmd_query_mkey(struct mlx5_sim_file *file, const void *in,
				 void *out, size_t outlen);
uint32_t mlx5_sim_cmd_destroy_mkey(struct mlx5_sim_file *file,
				   const void *in);
void mlx5_sim_mkey_reclaim(struct mlx5_sim_vhca *vhca,
			   struct mlx5_sim_mkey *mkey);

/* General objects and cross-vHCA access (mlx5_sim_obj.c). */
uint32_t mlx5_sim_cmd_create_gobj(struct mlx5_sim_file *file, const void *in,
				  size_t inlen, void *out, size_t outlen,
				  struct mlx5_sim_devx_obj *obj);
uint32_t mlx5_sim_cmd_query_gobj(struct mlx5_sim_file *file, const void *in,
				 void *out, size_t outlen);
uint32_t mlx5_sim_cmd_modify_gobj(struct mlx5_sim_file *file, const void *in);
uint32_t mlx5_sim_cmd_destroy_gobj(struct mlx5_sim_file *file,
				   const void *in);
uint32_t mlx5_sim_cmd_allow_access(struct mlx5_sim_file *file,
				   const void *in);

/*
 * Device memory access with the vHCA lock held (mlx5_sim_dma.c): translate
 * (key, addr, len) in PD @pdn and copy to (@flags & MLX5_SIM_XFER_WRITE)
 * or from @buf, with local rights, or remote ones with
 * MLX5_SIM_XFER_REMOTE. Returns 0, -ENOENT (no such key), -EACCES (PD,
 * rights, state), -EFAULT (range, or memory gone) or -ENOMEM.
 */
#define MLX5_SIM_XFER_WRITE RTE_BIT32(0)
#define MLX5_SIM_XFER_REMOTE RTE_BIT32(1)
int mlx5_sim_xfer(struct mlx5_sim_vhca *vhca, uint32_t key, uint32_t pdn,
		  uint64_t addr, void *buf, size_t len, uint32_t flags);
/*
 * mlx5_sim_xfer() for a queue's local access, through its translation
 * cache @xc (MLX5_SIM_XCACHE_WAYS entries): same checks, same results.
 */
int mlx5_sim_xfer_q(struct mlx5_sim_vhca *vhca, struct mlx5_sim_xcache *xc,
		    uint32_t key, uint32_t pdn, uint64_t addr, void *buf,
		    size_t len, uint32_t flags);
/*
 * One side of a memory-to-memory transfer (mlx5_sim_xfer_mem_prep()): a
 * key, the PD it is checked against, the address, MLX5_SIM_XFER_* flags.
 */
struct mlx5_sim_xside {
	uint32_t key;
	uint32_t pdn;
	uint64_t addr;
	uint32_t flags;
};
/*
 * The cipher of bytes through a crypto mkey, as mlx5_sim_crypto_check()
 * allowed it (the card lock held since): the DEK's context for the
 * direction, the key's initial tweak and the data units from the key's
 * start to the first byte.
 */
struct mlx5_sim_xts {
	void *ctx;                 /* EVP_CIPHER_CTX; NULL: no cipher. */
	const uint8_t *tweak;      /* The key's, LE 128 bits. */
	uint64_t unit;             /* Added to the tweak for the first unit. */
	uint32_t data_unit;        /* Bytes one tweak covers. */
	int enc;
};
/*
 * A memory-to-memory move that mlx5_sim_xfer_mem_prep() checked: @len
 * bytes from host @src to host @dst, through the cipher @xts (of the
 * crypto key of either side) or, if @xts.ctx is NULL, copied.
 * @ret: what the move gave (mlx5_sim_xmove_armed()).
 */
struct mlx5_sim_xmove {
	const uint8_t *src;
	uint8_t *dst;
	size_t len;
	struct mlx5_sim_xts xts;
	int ret;
};
/*
 * @len bytes from @src straight to @dst (the WRITE flag of @dst set, not
 * that of @src), without a device buffer between them: both sides
 * translated and checked whole (the same checks as mlx5_sim_xfer()), a
 * crypto key on one side at most. 0: @m is the one cipher or copy to
 * make, under the fault guard of the caller's doorbell
 * (mlx5_sim_xmove_armed(), mlx5_sim_wqe.h). 1: nothing to move, the
 * caller moves the bytes the staged way (mlx5_sim_xfer() per side),
 * which repeats every check and reports the exact error: a side of
 * several segments, ranges that overlap without being the same, a check
 * that failed. @xc: the queue's cache for its local side, or NULL.
 */
int mlx5_sim_xfer_mem_prep(struct mlx5_sim_vhca *vhca,
			   struct mlx5_sim_xcache *xc,
			   const struct mlx5_sim_xside *src,
			   const struct mlx5_sim_xside *dst, size_t len,
			   struct mlx5_sim_xmove *m);
/*
 * After move @m faulted (memory gone from under a valid key, the
 * destination range partly written): true if its source side cannot be
 * read whole now, false if the destination side faulted.
 */
bool mlx5_sim_xmove_src_fault(const struct mlx5_sim_xmove *m);
/* Fill @c with the translation of key @key in PD @pdn if it may be cached. */
void mlx5_sim_xcache_fill(struct mlx5_sim_vhca *vhca,
			  struct mlx5_sim_xcache *c, uint32_t key,
			  uint32_t pdn);
/* Invalidate every cached translation of the vHCA. */
static inline void
mlx5_sim_xgen_bump(struct mlx5_sim_vhca *vhca)
{
	vhca->xgen++;
}

/*
 * A hit of cache entry @c for a local access to [addr, addr + len)? The
 * range by the offset in it: below start, the offset wraps above any
 * size; len - 1 wraps for len 0, which is no hit.
 */
static inline bool
mlx5_sim_xcache_hit(const struct mlx5_sim_vhca *vhca,
		    const struct mlx5_sim_xcache *c, uint32_t key, uint32_t pdn,
		    uint64_t addr, uint64_t len, bool write)
{
	uint64_t off = addr - c->start;

	return c->gen == vhca->xgen && c->key == key && c->pdn == pdn &&
	       (write ? c->lw : c->lr) && off <= c->size &&
	       len - 1 < c->size - off;
}

/* Where device address @addr of a hit of entry @c is in the process. */
static inline uint8_t *
mlx5_sim_xcache_at(const struct mlx5_sim_xcache *c, uint64_t addr)
{
	return (uint8_t *)(uintptr_t)((uintptr_t)addr + c->delta);
}

/*
 * Where a queue's local access to [addr, addr + len) through key @key is
 * in the process, from the queue's cache @xc; NULL when the cache cannot
 * say (mlx5_sim_xfer_q() then translates, checks and copies).
 */
static inline uint8_t *
mlx5_sim_xcache_host(const struct mlx5_sim_vhca *vhca,
		     const struct mlx5_sim_xcache *xc, uint32_t key,
		     uint32_t pdn, uint64_t addr, uint64_t len, bool write)
{
	const struct mlx5_sim_xcache *c =
		&xc[(key >> 8) & (MLX5_SIM_XCACHE_WAYS - 1)];

	return mlx5_sim_xcache_hit(vhca, c, key, pdn, addr, len, write) ?
	       mlx5_sim_xcache_at(c, addr) : NULL;
}

/* Queues (mlx5_sim_queue.c). */
int mlx5_sim_idtab_alloc(struct mlx5_sim_idtab *t, void *obj, uint32_t *id);
/* The object with id @id, or NULL. */
static inline void *
mlx5_sim_idtab_get(const struct mlx5_sim_idtab *t, uint32_t id)
{
	return id < t->size ? t->slot[id] : NULL;
}
void mlx5_sim_idtab_free(struct mlx5_sim_idtab *t, uint32_t id);
uint32_t mlx5_sim_cmd_create_cq(struct mlx5_sim_file *file, const void *in,
				void *out, struct mlx5_sim_devx_obj *obj);
uint32_t mlx5_sim_cmd_destroy_cq(struct mlx5_sim_file *file, const void *in);
uint32_t mlx5_sim_cmd_query_cq(struct mlx5_sim_file *file, const void *in,
			       void *out);
uint32_t mlx5_sim_cmd_create_qp(struct mlx5_sim_file *file, const void *in,
				void *out, struct mlx5_sim_devx_obj *obj);
uint32_t mlx5_sim_cmd_destroy_qp(struct mlx5_sim_file *file, const void *in);
uint32_t mlx5_sim_cmd_modify_qp(struct mlx5_sim_file *file, uint16_t opcode,
				const void *in);
uint32_t mlx5_sim_cmd_query_qp(struct mlx5_sim_file *file, const void *in,
			       void *out);
/* DEK objects (mlx5_sim_dek.c), vHCA lock held. */
uint32_t mlx5_sim_dek_create(struct mlx5_sim_file *file, const void *in,
			     size_t inlen, void *out,
			     struct mlx5_sim_devx_obj *obj);
uint32_t mlx5_sim_dek_query(struct mlx5_sim_file *file, const void *in,
			    void *out, size_t outlen);
uint32_t mlx5_sim_dek_destroy(struct mlx5_sim_file *file, uint32_t id);
bool mlx5_sim_dek_exists(struct mlx5_sim_file *file, uint32_t id);

/* Ethernet queue objects (mlx5_sim_eth.c). */
uint32_t mlx5_sim_cmd_eth(struct mlx5_sim_file *file, uint16_t opcode,
			  const void *in, size_t inlen, void *out,
			  struct mlx5_sim_devx_obj *obj);
void mlx5_sim_eth_reclaim(struct mlx5_sim_vhca *vhca,
			  const struct mlx5_sim_devx_obj *obj);
/* The CQ @cqn of @file, or NULL. */
struct mlx5_sim_cq *mlx5_sim_cq_of(struct mlx5_sim_file *file, uint32_t cqn);
/* Resolve a ring or doorbell range of a umem of @file (a syndrome). */
uint32_t mlx5_sim_umem_ref(struct mlx5_sim_file *file, uint32_t id,
			   uint64_t offset, uint64_t len,
			   struct mlx5_sim_umem_ref *ref);
/* Free a queue object at file close (vHCA lock held). */
void mlx5_sim_queue_reclaim(struct mlx5_sim_vhca *vhca,
			    const struct mlx5_sim_devx_obj *obj);
bool mlx5_sim_uar_page_of(const struct mlx5_sim_file *file, uint32_t page);

/*
 * Creation with memory the kernel pinned for a verbs object (@ring, @dbr;
 * NULL: the umems the mailbox names, as DEVX gives them); the kernel's
 * own UAR page is not checked. vHCA lock held.
 */
uint32_t mlx5_sim_cq_create(struct mlx5_sim_file *file, const void *in,
			    const struct mlx5_sim_umem_ref *ring,
			    const struct mlx5_sim_umem_ref *dbr, void *out,
			    struct mlx5_sim_devx_obj *obj);
uint32_t mlx5_sim_qp_create(struct mlx5_sim_file *file, const void *in,
			    const struct mlx5_sim_umem_ref *ring,
			    const struct mlx5_sim_umem_ref *dbr, void *out,
			    struct mlx5_sim_devx_obj *obj);
uint32_t mlx5_sim_rq_create(struct mlx5_sim_file *file, const void *in,
			    const struct mlx5_sim_umem_ref *ring,
			    const struct mlx5_sim_umem_ref *dbr, void *out,
			    struct mlx5_sim_devx_obj *obj);
/* QUERY_RQT (mlx5_sim_eth.c). */
uint32_t mlx5_sim_rqt_query(struct mlx5_sim_file *file, const void *in,
			    void *out, size_t outlen);
/* MODIFY_CQ: moderation only (mlx5_sim_queue.c). */
uint32_t mlx5_sim_cmd_modify_cq(struct mlx5_sim_file *file, const void *in);
/* Lag ports of a vHCA: its ports when there are two, else none. */
static inline uint8_t
mlx5_sim_lag_ports(const struct mlx5_sim_vhca *vhca)
{
	return vhca->caps.nports > 1 ? vhca->caps.nports : 0;
}

/* RMPs, the verbs SRQs (mlx5_sim_srq.c), vHCA lock held. */
uint32_t mlx5_sim_rmp_create(struct mlx5_sim_file *file, const void *in,
			     const struct mlx5_sim_umem_ref *ring,
			     const struct mlx5_sim_umem_ref *dbr, void *out,
			     struct mlx5_sim_devx_obj *obj);
uint32_t mlx5_sim_cmd_rmp(struct mlx5_sim_file *file, uint16_t opcode,
			  const void *in, void *out);
void mlx5_sim_rmp_reclaim(struct mlx5_sim_vhca *vhca,
			  const struct mlx5_sim_devx_obj *obj);

/* Verbs queue objects (mlx5_sim_verbs.c). */
uint32_t mlx5_sim_cmd_query_lag(struct mlx5_sim_file *file, void *out);
/*
 * At the last close, free the file's verbs objects with the device
 * objects behind them, users first (vHCA lock held).
 */
void mlx5_sim_verbs_reclaim(struct mlx5_sim_file *file);
/*
 * DEVX query/modify on a verbs object (mlx5_sim_cmd.c): the kernel's
 * checks, then the mailbox must name the object (@create_op, @num) the
 * handle stands for, else EINVAL; then the command.
 */
int mlx5_sim_verbs_devx_cmd(struct mlx5_sim_file *file, bool modify,
			    uint16_t create_op, uint32_t num, const void *in,
			    size_t inlen, void *out, size_t outlen);

/* The engine (mlx5_sim_engine.c), vHCA lock held. */
#define MLX5_SIM_WQEBB 64
/* A WQE holds at most 63 segments of 16 bytes (qpn_ds.ds is 6 bits). */
#define MLX5_SIM_WQE_MAX_BYTES (63 * 16)

/*
 * One send WQE as the engine parsed it (mlx5_sim_wqe_parse()): what the
 * engine tests of every WQE, small enough that the compiler keeps it in
 * registers where it is a local whose address reaches no call (the QP
 * engine's loop; the SQ engine keeps it in its run state). Its bytes are the
 * engine's own copy (struct mlx5_sim_ahead), unchanged until the next
 * WQE is read: what only a completion needs (wqe_index, the CQ update
 * flag) is read from its control segment then (mlx5_sim_wqe_index()).
 */
struct mlx5_sim_wqe {
	const uint8_t *bytes;      /* The control segment, then the others. */
	uint16_t bbs;              /* 64-byte basic blocks it spans. */
	uint8_t opcode;
	uint8_t ds;                /* 16-byte segments, control included. */
};

void mlx5_sim_engine_qp(struct mlx5_sim_vhca *vhca, struct mlx5_sim_qp *qp);
/* A 32-bit big-endian counter of a doorbell record; false if unmapped. */
bool mlx5_sim_dbr_read(const uint8_t *host, unsigned int idx, uint32_t *val);
/*
 * A requester completion of the WQE of @opcode and wqe_index @index of
 * queue @qn on CQ @cqn: good, or an error CQE with @syndrome; @ts is the
 * CQE timestamp. The fields by value: the caller's WQE stays in registers.
 */
void mlx5_sim_req_complete(struct mlx5_sim_vhca *vhca, uint32_t cqn,
			   uint32_t qn, uint8_t opcode, uint16_t index,
			   uint8_t syndrome, uint32_t byte_cnt, uint64_t ts);
/* The CQE syndrome of a failed local access (mlx5_sim_xfer()'s errno). */
uint8_t mlx5_sim_local_syndrome(int err);
/* Write one CQE (owner bit last) to CQ @cqn; errors stop the CQ. */
void mlx5_sim_cq_write(struct mlx5_sim_vhca *vhca, uint32_t cqn,
		       const struct mlx5_cqe64 *tmpl);

/*
 * Queue counters (mlx5_sim_qcnt.c), vHCA lock held. mlx5_sim_cmd_qcnt()
 * runs ALLOC/DEALLOC/QUERY_Q_COUNTER; an RQ checks the set it names with
 * mlx5_sim_qcnt_check() (0: none) and holds it while it names it.
 */
uint32_t mlx5_sim_cmd_qcnt(struct mlx5_sim_file *file, uint16_t opcode,
			   const void *in, void *out,
			   struct mlx5_sim_devx_obj *obj);
uint32_t mlx5_sim_qcnt_check(struct mlx5_sim_file *file, uint8_t id);
void mlx5_sim_qcnt_hold(struct mlx5_sim_vhca *vhca, uint8_t id, int d);
void mlx5_sim_qcnt_reclaim(struct mlx5_sim_vhca *vhca,
			   const struct mlx5_sim_devx_obj *obj);
/*
 * For the receive path: a frame reached an RQ counting on set
 * @counter_set_id with no posted WQE (dropped). 0 (none), or a set not
 * allocated, counts nothing.
 */
void mlx5_sim_q_counter_out_of_buffer(struct mlx5_sim_vhca *vhca,
				      uint8_t counter_set_id);

/* Doorbell record words: receive counter, send counter. */
#define MLX5_SIM_DBR_RCV 0
#define MLX5_SIM_DBR_SND 1

/* Ports and the Ethernet datapath (mlx5_sim_wire.c), vHCA lock held. */
void mlx5_sim_engine_sq(struct mlx5_sim_vhca *vhca, struct mlx5_sim_sq *sq);
/* Stop the pacing thread of pace_clock=wall (at exit). */
void mlx5_sim_pace_stop(void);
/* Ports of a new vHCA, as its caps say (before it is listed). */
void mlx5_sim_ports_init(struct mlx5_sim_vhca *vhca);
/*
 * Cable the ports of a new vHCA (card lock held, before it is listed):
 * its ports named by devargs (@given: MLX5_SIM_CAP_WIRE*) and the far
 * ends, or ports of older vHCAs cabled to it. -EINVAL (nothing changed)
 * when a far port is missing or cabled elsewhere.
 */
int mlx5_sim_ports_cable(struct mlx5_sim_vhca *vhca, uint32_t given);
/* Is port @pi (0-based) cabled to a port that exists? */
bool mlx5_sim_port_up(struct mlx5_sim_vhca *vhca, unsigned int pi);
/* Port attributes (backend operations): 0 or EINVAL. */
int mlx5_sim_port_link_get(struct ibv_context *ctx, uint8_t port,
			   uint32_t *speed_mbps, uint16_t *mtu, int *up);
int mlx5_sim_port_mtu_set(struct ibv_context *ctx, uint8_t port,
			  uint16_t mtu);
int mlx5_sim_port_link_set(struct ibv_context *ctx, uint8_t port, int up);
int mlx5_sim_port_speed_set(struct ibv_context *ctx, uint8_t port,
			    uint32_t speed_mbps);
/* The vport context's MTU field: the software MTU + 22. */
uint16_t mlx5_sim_vport_hw_mtu(const struct mlx5_sim_vhca *vhca);

/* Steering (mlx5_sim_flow.c). */
/* The TIR of the first rule @f matches, or NULL (vHCA lock held). */
struct mlx5_sim_tir *mlx5_sim_flow_steer(struct mlx5_sim_vhca *vhca,
					 const uint8_t *f, uint32_t len);
/* Free the rules and matchers of a closing file (vHCA lock held). */
void mlx5_sim_flow_reclaim(struct mlx5_sim_file *file);
/* Does a steering rule send to TIR @tirn? (vHCA lock held) */
bool mlx5_sim_tir_steered(struct mlx5_sim_vhca *vhca, uint32_t tirn);
struct mlx5dv_flow_matcher *
mlx5_sim_flow_matcher_create(struct ibv_context *ctx,
			     struct mlx5dv_flow_matcher_attr *attr);
int mlx5_sim_flow_matcher_destroy(struct mlx5dv_flow_matcher *matcher);
struct ibv_flow *
mlx5_sim_flow_create(struct mlx5dv_flow_matcher *matcher,
		     struct mlx5dv_flow_match_parameters *value,
		     size_t num_actions,
		     struct mlx5dv_flow_action_attr actions[]);
int mlx5_sim_flow_destroy(struct ibv_flow *flow);

/* Packet pacing (mlx5_sim_pp.c). */
void mlx5_sim_pp_reclaim(struct mlx5_sim_file *file);

/* UMR and crypto (mlx5_sim_umr.c), vHCA lock held. */
/*
 * Execute the UMR WQE @wqe (@ds 16-byte segments, control segment first)
 * posted on RC QP @qp: 0, or the syndrome of its error CQE; a refused UMR
 * changes nothing.
 */
uint8_t mlx5_sim_umr_exec(struct mlx5_sim_vhca *vhca,
			  const struct mlx5_sim_qp *qp, const void *wqe,
			  unsigned int ds);
/*
 * The cipher's context of @dek for direction @enc (1: encryption), made
 * at its first use and freed with the DEK; NULL if the cipher refuses
 * the key (OpenSSL takes no XTS key whose halves are equal) or no memory.
 */
void *mlx5_sim_dek_xts(struct mlx5_sim_vhca *vhca, struct mlx5_sim_dek *dek,
		       int enc);
/* Free the cipher's contexts of @dek (its key schedules), if any. */
void mlx5_sim_dek_cipher_free(struct mlx5_sim_dek *dek);

/*
 * @x modulo the data-unit size @dus: a mask for the usual powers of two
 * (512 B, 4 KiB, 1 MiB), a division for the others (520 B, 4048 B, ...).
 */
static inline uint64_t
mlx5_sim_du_mod(uint64_t x, uint32_t dus)
{
	return likely((dus & (dus - 1)) == 0) ? x & (dus - 1) : x % dus;
}

/* @x divided by the data-unit size @dus. */
static inline uint64_t
mlx5_sim_du_div(uint64_t x, uint32_t dus)
{
	return likely((dus & (dus - 1)) == 0) ?
	       x >> rte_bsf32(dus) : x / dus;
}

/*
 * May bytes at [addr, addr + len) go through crypto mkey @mkey now, to
 * memory (@to_memory) or from it: a configured BSF, the key's BSF
 * enabled, its DEK alive and of its PD, whole data units from a unit
 * boundary (a last partial one of a multiple of 16 bytes and at most the
 * unit less 16), the cipher taking the DEK's key. 0 with the cipher in
 * @x (for @len > 0), or -EACCES / -EINVAL. Inline: every transfer
 * through a crypto key makes these checks.
 */
static __rte_always_inline int
mlx5_sim_crypto_check(struct mlx5_sim_vhca *vhca,
		      const struct mlx5_sim_mkey *mkey, uint64_t addr,
		      size_t len, bool to_memory, struct mlx5_sim_xts *x)
{
	uint32_t dus = mkey->crypto.data_unit;
	uint32_t id = mkey->crypto.dek_id;
	uint64_t off = addr - mkey->start;
	struct mlx5_sim_dek *dek;
	size_t tail;
	int enc;

	/* Never configured, or its BSF disabled since: no cipher to use. */
	if (!mkey->crypto.configured || !mkey->bsf_en)
		return -EACCES;
	dek = likely(id < vhca->deks.size) ? vhca->deks.slot[id] : NULL;
	if (dek == NULL || dek->pd != mkey->pd)
		return -EACCES;
	if (len == 0)
		return 0;
	tail = mlx5_sim_du_mod(len, dus);
	if (mlx5_sim_du_mod(off, dus) != 0 ||
	    (tail != 0 && (len % 16 != 0 || tail > dus - 16)))
		return -EINVAL;
	/* Plaintext going into encrypted memory, or leaving encrypted wire. */
	enc = to_memory == mkey->crypto.memory_encrypted;
	x->ctx = dek->xts[enc];
	if (unlikely(x->ctx == NULL)) {
		x->ctx = mlx5_sim_dek_xts(vhca, dek, enc);
		if (x->ctx == NULL)
			return -EACCES;
	}
	x->tweak = mkey->crypto.tweak;
	x->unit = off != 0 ? mlx5_sim_du_div(off, dus) : 0;
	x->data_unit = dus;
	x->enc = enc;
	return 0;
}

/* Largest byte count of one data segment (2^31). */
#define MLX5_SIM_DMA_MAX_LEN (UINT64_C(1) << 31)

/* [addr, addr + len) inside the range of @p mkey, without wrapping? */
static inline bool
mlx5_sim_range_in(const struct mlx5_sim_mkey *mkey, uint64_t addr,
		  uint64_t len)
{
	if (addr < mkey->start || (len != 0 && addr + len - 1 < addr))
		return false;
	if (mkey->length64)
		return true;
	if (addr - mkey->start > mkey->len)
		return false;
	return len <= mkey->len - (addr - mkey->start);
}

/*
 * A crypto key of one KLM entry, configured by a UMR that cached the
 * entry's translation (mlx5_sim_umr.c): the host address of [addr, addr +
 * len), with the checks the whole translation (mlx5_sim_dma.c) makes of
 * the key itself, or NULL when the cache cannot answer (the whole
 * translation then does). A cache of the current generation says that the
 * key has a first entry: the key's last UMR filled it from that entry, or
 * emptied it for a key with no list.
 */
static __rte_always_inline uint8_t *
mlx5_sim_xlate_crypto_cached(const struct mlx5_sim_vhca *vhca,
			     const struct mlx5_sim_mkey *mkey, uint32_t pdn,
			     uint64_t addr, uint64_t len, uint32_t flags)
{
	const struct mlx5_sim_xcache *c = &mkey->klm_xc;
	const struct mlx5_sim_klm_entry *e = mkey->u.klm.entries;
	bool write = flags & MLX5_SIM_XFER_WRITE;
	bool remote = flags & MLX5_SIM_XFER_REMOTE;
	uint64_t off = addr - mkey->start;

	if (c->gen != vhca->xgen || mkey->kind != MLX5_SIM_MKEY_KLM ||
	    mkey->pdn != pdn || mkey->free ||
	    (mkey->pd != NULL && !mkey->pd->alive) ||
	    (remote ? (write ? !mkey->rw : !mkey->rr) :
	     (write ? !mkey->lw : !mkey->lr)) ||
	    !mlx5_sim_range_in(mkey, addr, len))
		return NULL;
	/* Inside the first entry, reached locally with the key's own PD. */
	if (len > e->byte_count || off > e->byte_count - len ||
	    !mlx5_sim_xcache_hit(vhca, c, e->mkey, mkey->pdn,
				 e->address + off, len, write))
		return NULL;
	return mlx5_sim_xcache_at(c, e->address + off);
}

/* Do the host ranges [s, s + len) and [d, d + len) overlap, not the same? */
static __rte_always_inline bool
mlx5_sim_half_over(const uint8_t *s, const uint8_t *d, size_t len)
{
	return s != d && (uintptr_t)s < (uintptr_t)d + len &&
	       (uintptr_t)d < (uintptr_t)s + len;
}

/*
 * A WRITE into a crypto key: an RDMA WRITE of @len bytes from [@laddr, ..)
 * of key @lkey (PD @lpdn), a key of the queue's cache @xc (never a crypto
 * key: the cache takes none), to [@raddr, ..) of crypto key @rkey (the
 * peer's PD @rpdn) a UMR configured, with every check
 * mlx5_sim_xfer_mem_prep() makes of it: 0 with @m, or 1 when either cache
 * cannot answer or a check refused it (mlx5_sim_xfer_mem_prep() then
 * decides). The source's hit says that its range is not empty and does
 * not wrap, mlx5_sim_range_in() that of the destination. Inline in the
 * engine's loop: the datapath of every crypto operation.
 */
static __rte_always_inline int
mlx5_sim_xfer_write_crypto(struct mlx5_sim_vhca *vhca,
			   const struct mlx5_sim_xcache *xc, uint32_t lkey,
			   uint32_t lpdn, uint64_t laddr, uint32_t rkey,
			   uint32_t rpdn, uint64_t raddr, size_t len,
			   struct mlx5_sim_xmove *m)
{
	const struct mlx5_sim_mkey *mkey;
	uint8_t *s, *d;

	if (unlikely(xc == NULL || len > MLX5_SIM_DMA_MAX_LEN))
		return 1;
	s = mlx5_sim_xcache_host(vhca, xc, lkey, lpdn, laddr, len, false);
	if (s == NULL)
		return 1;
	mkey = mlx5_sim_mkey_by_key(vhca, rkey);
	if (mkey == NULL || !mkey->crypto_en)
		return 1;
	d = mlx5_sim_xlate_crypto_cached(vhca, mkey, rpdn, raddr, len,
					 MLX5_SIM_XFER_REMOTE |
					 MLX5_SIM_XFER_WRITE);
	if (d == NULL ||
	    mlx5_sim_crypto_check(vhca, mkey, raddr, len, true, &m->xts) != 0)
		return 1;
	if (mlx5_sim_half_over(s, d, len))
		return 1;
	m->src = s;
	m->dst = d;
	m->len = len;
	return 0;
}

/*
 * AES-XTS over the @m->len bytes (> 0) of move @m, from @m->src to
 * @m->dst (may be the same): its cipher @m->xts, each data unit with its
 * own tweak. 0, or -EACCES if the cipher failed.
 */
int mlx5_sim_crypto_apply(const struct mlx5_sim_xmove *m);

/* Backend operations, spread over the files above. */
struct ibv_device **mlx5_sim_get_device_list(int *num_devices);
void mlx5_sim_free_device_list(struct ibv_device **list);
struct ibv_context *mlx5_sim_open_device(struct ibv_device *device,
					 struct mlx5dv_context_attr *attr);
int mlx5_sim_close_device(struct ibv_context *ctx);
struct ibv_context *mlx5_sim_import_device(int cmd_fd);
int mlx5_sim_query_device_ex(struct ibv_context *ctx,
			     const struct ibv_query_device_ex_input *input,
			     struct ibv_device_attr_ex *attr);
struct ibv_pd *mlx5_sim_alloc_pd(struct ibv_context *ctx);
int mlx5_sim_dealloc_pd(struct ibv_pd *pd);
struct ibv_pd *mlx5_sim_import_pd(struct ibv_context *ctx, uint32_t pd_handle);
void mlx5_sim_unimport_pd(struct ibv_pd *pd);
int mlx5_sim_query_pdn(struct ibv_pd *pd, uint32_t *pdn);
struct ibv_mr *mlx5_sim_reg_mr(struct ibv_pd *pd, void *addr, size_t length,
			       int access);
int mlx5_sim_dereg_mr(struct ibv_mr *mr);
struct mlx5dv_devx_umem *mlx5_sim_umem_reg(struct ibv_context *ctx,
					   void *addr, size_t size,
					   uint32_t access);
int mlx5_sim_umem_dereg(struct mlx5dv_devx_umem *umem);
struct mlx5dv_devx_uar *mlx5_sim_alloc_uar(struct ibv_context *ctx,
					   uint32_t flags);
void mlx5_sim_free_uar(struct mlx5dv_devx_uar *uar);
int mlx5_sim_query_eqn(struct ibv_context *ctx, uint32_t vector,
		       uint32_t *eqn);
void mlx5_sim_uar_kick(struct mlx5dv_devx_uar *uar, uint64_t db);
/* The same, the card lock held. */
void mlx5_sim_uar_kick_locked(struct mlx5_sim_uar *uar, uint64_t db);
/*
 * A doorbell written to UAR page @page_id of vHCA @vhca_id of card @card
 * from another process (a DPDK secondary process: the same page mapped
 * there). 0, -ENODEV (no such vHCA) or -ENOENT (no such page: counted as
 * a stray doorbell).
 */
int mlx5_sim_uar_ring(uint16_t card, uint16_t vhca_id, uint32_t page_id,
		      uint64_t db);
struct mlx5dv_devx_obj *mlx5_sim_obj_create(struct ibv_context *ctx,
					    const void *in, size_t inlen,
					    void *out, size_t outlen);
int mlx5_sim_obj_query(struct mlx5dv_devx_obj *obj, const void *in,
		       size_t inlen, void *out, size_t outlen);
int mlx5_sim_obj_modify(struct mlx5dv_devx_obj *obj, const void *in,
			size_t inlen, void *out, size_t outlen);
int mlx5_sim_obj_destroy(struct mlx5dv_devx_obj *obj);
int mlx5_sim_general_cmd(struct ibv_context *ctx, const void *in,
			 size_t inlen, void *out, size_t outlen);
struct mlx5dv_mkey *mlx5_sim_dv_create_mkey(struct mlx5dv_mkey_init_attr *attr);
int mlx5_sim_dv_destroy_mkey(struct mlx5dv_mkey *mkey);
struct mlx5dv_pp *mlx5_sim_pp_alloc(struct ibv_context *ctx,
				    size_t pp_context_sz,
				    const void *pp_context, uint32_t flags);
void mlx5_sim_pp_free(struct mlx5dv_pp *pp);
int mlx5_sim_qp_query(struct ibv_qp *qp, const void *in, size_t inlen,
		      void *out, size_t outlen);
int mlx5_sim_qp_modify(struct ibv_qp *qp, const void *in, size_t inlen,
		       void *out, size_t outlen);
int mlx5_sim_cq_query(struct ibv_cq *cq, const void *in, size_t inlen,
		      void *out, size_t outlen);
int mlx5_sim_cq_modify(struct ibv_cq *cq, const void *in, size_t inlen,
		       void *out, size_t outlen);
int mlx5_sim_srq_query(struct ibv_srq *srq, const void *in, size_t inlen,
		       void *out, size_t outlen);
int mlx5_sim_srq_modify(struct ibv_srq *srq, const void *in, size_t inlen,
			void *out, size_t outlen);
int mlx5_sim_wq_query(struct ibv_wq *wq, const void *in, size_t inlen,
		      void *out, size_t outlen);
int mlx5_sim_wq_modify(struct ibv_wq *wq, const void *in, size_t inlen,
		       void *out, size_t outlen);
int mlx5_sim_ind_tbl_query(struct ibv_rwq_ind_table *ind_tbl, const void *in,
			   size_t inlen, void *out, size_t outlen);
int mlx5_sim_ind_tbl_modify(struct ibv_rwq_ind_table *ind_tbl, const void *in,
			    size_t inlen, void *out, size_t outlen);
int mlx5_sim_query_qp_lag_port(struct ibv_qp *qp, uint8_t *port_num,
			       uint8_t *active_port_num);
int mlx5_sim_modify_qp_lag_port(struct ibv_qp *qp, uint8_t port_num);
int mlx5_sim_modify_qp_udp_sport(struct ibv_qp *qp, uint16_t udp_sport);
struct ibv_cq *mlx5_sim_create_cq(struct ibv_context *ctx, int cqe,
				  void *cq_context,
				  struct ibv_comp_channel *channel,
				  int comp_vector);
int mlx5_sim_destroy_cq(struct ibv_cq *cq);
struct ibv_qp *mlx5_sim_create_qp_ex(struct ibv_context *ctx,
				     struct ibv_qp_init_attr_ex *attr);
int mlx5_sim_modify_qp(struct ibv_qp *qp, struct ibv_qp_attr *attr,
		       int attr_mask);
int mlx5_sim_destroy_qp(struct ibv_qp *qp);
struct ibv_srq *mlx5_sim_create_srq(struct ibv_pd *pd,
				    struct ibv_srq_init_attr *attr);
int mlx5_sim_modify_srq(struct ibv_srq *srq, struct ibv_srq_attr *attr,
			int attr_mask);
int mlx5_sim_destroy_srq(struct ibv_srq *srq);
struct ibv_wq *mlx5_sim_create_wq(struct ibv_context *ctx,
				  struct ibv_wq_init_attr *attr);
int mlx5_sim_destroy_wq(struct ibv_wq *wq);
struct ibv_rwq_ind_table *
mlx5_sim_create_rwq_ind_table(struct ibv_context *ctx,
			      struct ibv_rwq_ind_table_init_attr *attr);
int mlx5_sim_destroy_rwq_ind_table(struct ibv_rwq_ind_table *ind_tbl);
int mlx5_sim_dv_init_obj(struct mlx5dv_obj *obj, uint64_t obj_type);

#endif /* MLX5_SIM_PRIV_H_ */
