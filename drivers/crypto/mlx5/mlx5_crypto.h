/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * The mlx5 crypto PMD (cryptodev driver "crypto_mlx5"): AES-XTS through
 * crypto-enabled indirect mkeys of the common device. Keys live in DEK
 * objects, one per session. Each queue pair owns a loopback RC QP, its
 * CQ and a bounded pool of crypto mkeys, one per operation in flight: an
 * operation is a UMR WQE that points its mkey at the destination and gives
 * it the session's DEK, the operation's tweak and the data-unit size,
 * then an RDMA WRITE of the source through that mkey, which the device
 * enciphers on the way to memory.
 */

#ifndef MLX5_CRYPTO_H_
#define MLX5_CRYPTO_H_

#include <stdbool.h>
#include <stdint.h>
#include <sys/queue.h>

#include <rte_common.h>
#include <rte_cryptodev.h>
#include <rte_log.h>
#include <rte_spinlock.h>
#include <cryptodev_pmd.h>

#include <mlx5_common.h>
#include <mlx5_common_devx.h>
#include <mlx5_common_mr.h>
#include <mlx5_common_umr.h>
#include <mlx5_devx_cmds.h>

#define MLX5_CRYPTO_DRIVER_NAME crypto_mlx5

extern int mlx5_crypto_logtype;
extern uint8_t mlx5_crypto_driver_id;

#define DRV_LOG(level, fmt, ...) \
	rte_log(RTE_LOG_ ## level, mlx5_crypto_logtype, \
		RTE_STR(MLX5_CRYPTO_DRIVER_NAME) ": " fmt "\n", ## __VA_ARGS__)

/* Devarg defaults and limits (documented in doc/guides/cryptodevs/mlx5.rst). */
#define MLX5_CRYPTO_MAX_QPS_DEFAULT 2
#define MLX5_CRYPTO_MAX_QPS_MAX 64
#define MLX5_CRYPTO_MAX_SEGS_DEFAULT 8
#define MLX5_CRYPTO_QP_MKEYS_DEFAULT 256
#define MLX5_CRYPTO_QP_MKEYS_MAX 4096

/* Wrapped keys (RFC 3394): the key pair, its 8-byte tag, 8 bytes more. */
#define MLX5_CRYPTO_WRAPPED_KEY_128 48
#define MLX5_CRYPTO_WRAPPED_KEY_256 80

/* AES-XTS: the tweak (IV) length, the cipher block. */
#define MLX5_CRYPTO_IV_LEN 16
#define MLX5_CRYPTO_XTS_BLOCK 16
/* Largest operation with dataunit_len 0: one data unit of the 1 MB code. */
#define MLX5_CRYPTO_WHOLE_OP_MAX (UINT32_C(1) << 20)

/* Per-device settings from the devargs. */
struct mlx5_crypto_config {
	uint16_t max_qps;   /* max_qps: queue pairs the device reports. */
	uint16_t max_segs;  /* max_segs (max_segs_num): mbuf segments per side. */
	uint32_t qp_mkeys;  /* qp_mkeys: crypto mkeys (ops in flight) per QP. */
	/* keytag: every DEK's key tag, which each operation's BSF names. */
	uint64_t keytag;
	/* Wrapped import: credential_id, import_kek_id and wcs_file. */
	struct mlx5_devx_crypto_login_attr login;
	bool wcs_given;
};

struct mlx5_crypto_session;

/* The cryptodev's private data. */
struct mlx5_crypto_priv {
	TAILQ_ENTRY(mlx5_crypto_priv) next;
	struct mlx5_common_device *cdev;
	struct rte_cryptodev *crypto_dev;
	struct mlx5_uar uar;           /* Doorbells of every queue pair. */
	struct mlx5_crypto_config cfg;
	bool tweak_be;                 /* The device takes a big-endian tweak. */
	uint16_t op_bbs_max;           /* WQE blocks of the largest operation. */
	uint32_t max_len;              /* Largest operation (the QP's message). */
	rte_spinlock_t sess_lock;
	LIST_HEAD(, mlx5_crypto_session) sessions; /* Live, for removal. */
	/* Wrapped import: the crypto login the sessions' DEKs are made in. */
	struct mlx5_devx_obj *login;
};

/* A session's private data: the DEK and what every UMR of it carries. */
struct mlx5_crypto_session {
	LIST_ENTRY(mlx5_crypto_session) next;
	struct mlx5_devx_obj *dek;
	/* The device of the DEK: an op on another one is INVALID_SESSION. */
	const struct mlx5_crypto_priv *priv;
	uint32_t dek_id;
	uint32_t dataunit_len;         /* 0: each operation is one data unit. */
	uint32_t max_len;              /* Longest operation the session takes. */
	/*
	 * The datapath's length test in one compare (mlx5_crypto_op_post()): for an
	 * operation of L bytes, ror32(L - 16, 4) < fast_blocks holds exactly
	 * when L is a positive multiple of 16 of at most max_len. It is
	 * max_len / 16 while the session has its DEK on a device that takes
	 * a little-endian tweak; otherwise 0, which no length passes: every
	 * operation then goes the general way, which refuses or handles it.
	 */
	uint32_t fast_blocks;
	uint16_t iv_offset;
	uint8_t block_size;            /* MLX5_CRYPTO_BLOCK_SIZE_* code. */
	uint8_t encryption_order;      /* Encrypt: RAW_MEMORY, decrypt: RAW_WIRE. */
	/*
	 * The UMR WQE of a one-entry operation of this session, built once
	 * by mlx5_umr_crypto_wqe_build(): an operation takes the session's
	 * constants from it (the DEK among them) and writes its own fields
	 * (counter, QP, mkey, length, entry, tweak) and the zeros around.
	 */
	uint8_t umr_tmpl[MLX5_UMR_CRYPTO_WQE_SIZE] __rte_aligned(16);
};

/* An operation in a queue pair: the op and the WQE blocks it holds. */
struct mlx5_crypto_op_slot {
	struct rte_crypto_op *op;
	uint16_t bbs;                  /* 0: refused at enqueue, not posted. */
	uint16_t wqe_pi;               /* Send counter of its first WQE block. */
	uint32_t mkey;                 /* Its crypto mkey, from the free stack. */
};

struct mlx5_crypto_qp {
	struct mlx5_crypto_priv *priv;
	struct mlx5_devx_qp qp;        /* Loopback RC QP (connected to itself). */
	struct mlx5_devx_cq cq;
	struct mlx5_mr_ctrl mr_ctrl;   /* mbuf addresses to lkeys. */
	struct rte_cryptodev_stats stats;
	uint32_t entries;              /* Pool size: ops in flight (2^n). */
	uint32_t pi;                   /* Operations enqueued. */
	uint32_t ci;                   /* Operations dequeued. */
	uint32_t done;                 /* Operations before it completed. */
	uint16_t qp_id;
	int socket;
	struct mlx5_devx_obj **mkeys;  /* The pool's crypto mkeys. */
	/*
	 * Ids of the mkeys no operation in flight holds, the last freed on
	 * top: an operation takes the top one, so the keys in use are the
	 * same few burst after burst (a small hot set of key contexts, in
	 * the device's cache as in ours), not every key of the pool in turn.
	 */
	uint32_t *mkey_free;
	uint32_t mkey_top;             /* Ids in mkey_free. */
	struct mlx5_crypto_op_slot *slots;
	struct mlx5_klm *klm_src;      /* Scratch lists of max_segs entries. */
	struct mlx5_klm *klm_dst;
	uint8_t *stage;                /* An operation's WQEs across the ring end. */
};

/* mlx5_crypto_qp.c */
int mlx5_crypto_qp_setup(struct rte_cryptodev *dev, uint16_t qp_id,
			 const struct rte_cryptodev_qp_conf *conf, int socket);
int mlx5_crypto_qp_release(struct rte_cryptodev *dev, uint16_t qp_id);
/*
 * Destroy every QP of @dev (close, removal), logging the operations still
 * enqueued: they are lost.
 */
void mlx5_crypto_qp_destroy_all(struct rte_cryptodev *dev);
uint16_t mlx5_crypto_enqueue_burst(void *queue_pair,
				   struct rte_crypto_op **ops, uint16_t nb_ops);
uint16_t mlx5_crypto_dequeue_burst(void *queue_pair,
				   struct rte_crypto_op **ops, uint16_t nb_ops);
/* Build @sess->umr_tmpl: 0, or a negative errno with rte_errno set. */
int mlx5_crypto_umr_tmpl_build(struct mlx5_crypto_session *sess);
/* WQE blocks of an operation of @segs segments on each side. */
uint16_t mlx5_crypto_op_bbs(uint32_t segs);

#endif /* MLX5_CRYPTO_H_ */
