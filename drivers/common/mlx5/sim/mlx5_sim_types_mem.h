/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * The model's types: memory objects and their handles (PDs, umems, UARs,
 * mkeys and their translation caches, DEVX object handles, MRs, mlx5dv
 * mkeys).
 */

#ifndef MLX5_SIM_TYPES_MEM_H_
#define MLX5_SIM_TYPES_MEM_H_

#include "mlx5_sim_types_caps.h"

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
	MLX5_SIM_ORIGIN_MW,     /* alloc_mw: a memory window. */
	MLX5_SIM_ORIGIN_MR,     /* reg_mr. */
	MLX5_SIM_ORIGIN_ALIAS,  /* CREATE_GENERAL_OBJECT alias. */
};

struct mlx5_sim_klm_entry {
	uint32_t byte_count;
	uint32_t mkey;
	uint64_t address;
};

/*
 * A repeated (strided) block layout of a KLM mkey, set by a UMR whose
 * inline list starts with a repeat block segment: @count repetitions of
 * @block bytes, each the entries' bytes in order, entry k of repetition r
 * at its address plus r times its stride.
 */
struct mlx5_sim_rb_entry {
	uint64_t address;
	uint32_t mkey;
	uint16_t byte_count;
	uint16_t stride;
};
struct mlx5_sim_rb {
	uint32_t count;
	uint32_t block;
	uint32_t num;
	struct mlx5_sim_rb_entry e[];
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
		uint64_t keytag;   /* The BSF's: the DEK's, if it has one. */
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
	struct mlx5_sim_rb *rb;    /* A repeated block layout, or NULL. */
	/* Released, in vhca->mkey_spare (mlx5_sim_mkey_release()). */
	struct mlx5_sim_mkey *spare_next;
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
	MLX5_SIM_OBJ_LOGIN,        /* index: the crypto login's object id. */
	MLX5_SIM_OBJ_RQT,          /* index: the rqtn. */
	MLX5_SIM_OBJ_TIR,          /* index: the tirn. */
	MLX5_SIM_OBJ_QCNT,         /* index: the counter set id. */
	MLX5_SIM_OBJ_SRQ,          /* index: the rmpn or XRC srqn (verbs only). */
	MLX5_SIM_OBJ_XRCD,         /* index: the xrcdn (verbs only). */
	MLX5_SIM_OBJ_FCNT,         /* index: the flow counter id. */
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
	bool imported;             /* ibv_import_mr()'s: not in file->mrs. */
	struct mlx5_sim_file *file;
	uint32_t index;
	uint64_t serial;
	TAILQ_ENTRY(mlx5_sim_mr) next;
};

/* A piece of device memory and the handles of it (mlx5_sim_dm.c). */
struct mlx5_sim_dm_piece {
	struct mlx5_sim_umem umem; /* Its bytes (MTT mkeys over it: users). */
	struct mlx5_sim_file *file;
	uint32_t handle;
	uint32_t handles;          /* ibv_dm handles of it. */
	TAILQ_ENTRY(mlx5_sim_dm_piece) next; /* In file->dm_pieces. */
};

struct mlx5_sim_dm {
	struct ibv_dm ibdm;
	uint32_t magic;
	struct mlx5_sim_dm_piece *piece;
};

struct mlx5_sim_dv_mkey {
	struct mlx5dv_mkey dv;
	struct ibv_mw mw;          /* A memory window's (alloc_mw), if one. */
	uint32_t num_desc;         /* Its translation entries (rdma-core's). */
	uint32_t magic;
	struct mlx5_sim_file *file;
	uint32_t index;
	uint64_t serial;
	TAILQ_ENTRY(mlx5_sim_dv_mkey) next;
};

#endif /* MLX5_SIM_TYPES_MEM_H_ */
