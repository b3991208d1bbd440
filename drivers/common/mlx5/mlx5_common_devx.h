/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * Queue helpers for class drivers: a UAR page prepared for doorbells, and
 * completion queues and queue pairs that own their ring, doorbell record
 * and DEVX object together (one allocation, one umem, one object), with
 * the state transitions and the recovery a queue needs after an error
 * completion. A loopback QP (connected to itself) moves bytes between two
 * keys of one PD by RDMA, synchronously: what a crypto queue pair and the
 * tests build on.
 *
 * The same code runs on a ConnectX/BlueField and on the software device:
 * the only difference is the UAR's kick hook (mlx5_common_dp.h).
 */

#ifndef MLX5_COMMON_DEVX_H_
#define MLX5_COMMON_DEVX_H_

#include <stdbool.h>
#include <stdint.h>

#include <infiniband/mlx5dv.h>

#include <rte_compat.h>

#include "mlx5_common.h"
#include "mlx5_devx_cmds.h"

/* A UAR page and its doorbell register. */
struct mlx5_uar {
	struct mlx5dv_devx_uar *obj;
	void *db;                  /* 8-byte doorbell register. */
	uint32_t page_id;          /* For CQ/QP/SQ contexts. */
	uint64_t mmap_off;         /* Its offset on the device's command fd. */
	/* The backend's doorbell hook: NULL on real devices. */
	void (*kick)(struct mlx5dv_devx_uar *uar, uint64_t db);
};

/* A completion queue of 64-byte CQEs and its doorbell record. */
struct mlx5_devx_cq {
	struct mlx5_devx_obj *obj;
	volatile struct mlx5_cqe64 *cqes;
	volatile uint32_t *db_rec; /* [0]: consumer counter, [1]: arm. */
	uint32_t log_size;
	uint32_t ci;               /* Consumer index (CQEs polled). */
	void *buf;                 /* Ring + doorbell record. */
	struct mlx5dv_devx_umem *umem;
	struct mlx5_common_device *cdev;
};

/* An RC queue pair: receive queue then send queue in one ring. */
struct mlx5_devx_qp {
	struct mlx5_devx_obj *obj;
	uint8_t *sq;               /* Send queue: 64-byte WQE basic blocks. */
	uint8_t *rq;               /* Receive queue (NULL without). */
	volatile uint32_t *db_rec; /* [0]: receive counter, [1]: send. */
	uint32_t log_sq_size;      /* log2 of WQE basic blocks. */
	uint32_t log_rq_size;
	uint32_t log_rq_stride;    /* Stride 16 << log_rq_stride. */
	uint16_t sq_pi;            /* Send counter (WQE basic blocks). */
	uint32_t remote_qpn;       /* As last connected. */
	struct mlx5_uar *uar;
	void *buf;
	struct mlx5dv_devx_umem *umem;
	struct mlx5_common_device *cdev;
};

/* What mlx5_devx_qp_create() builds. */
struct mlx5_devx_qp_params {
	uint32_t pd;               /* PD number (cdev->pdn or another). */
	uint32_t cqn;              /* Send and receive completions. */
	uint32_t log_sq_size;      /* log2 of 64-byte WQE basic blocks. */
	uint32_t log_rq_size;      /* log2 of receive WQEs; 0: no RQ. */
	uint32_t log_rq_stride;    /* Receive WQE stride 16 << this. */
	struct mlx5_uar *uar;
};

/**
 * Allocate a UAR page for doorbells (non-cached, as DPDK's PMDs use it)
 * and read the backend's doorbell hook.
 *
 * @return
 *   0 on success, a negative errno value otherwise and rte_errno is set.
 */
__rte_internal
int mlx5_uar_prepare(struct mlx5_common_device *cdev, struct mlx5_uar *uar);

/** Free a UAR page of mlx5_uar_prepare(); a zeroed one is a no-op. */
__rte_internal
void mlx5_uar_release(struct mlx5_common_device *cdev, struct mlx5_uar *uar);

/**
 * Make @uar, in a secondary process, ring the primary's UAR page @primary
 * (read from the primary's structures) of the device of @cdev, a secondary
 * record: the same doorbell register on a real device, the device's
 * doorbell on the software device.
 *
 * @return
 *   0, or a negative errno with rte_errno set (-ENOTSUP: the backend has
 *   no secondary processes).
 */
__rte_internal
int mlx5_uar_import(struct mlx5_common_device *cdev,
		    const struct mlx5_uar *primary, struct mlx5_uar *uar);

/** Undo mlx5_uar_import(); a zeroed @uar is a no-op. */
__rte_internal
void mlx5_uar_unimport(struct mlx5_common_device *cdev, struct mlx5_uar *uar);

/**
 * Create a CQ of 2^@p log_size CQEs on completion vector 0, its CQEs
 * marked invalid (owned by the device).
 *
 * @return
 *   0 on success, a negative errno value otherwise and rte_errno is set;
 *   nothing is left allocated on failure.
 */
__rte_internal
int mlx5_devx_cq_create(struct mlx5_common_device *cdev,
			struct mlx5_devx_cq *cq, uint32_t log_size,
			struct mlx5_uar *uar, int socket);

/**
 * mlx5_devx_cq_create() with CQE compression: the device may write its
 * receive CQEs in compressed sessions of mini-CQEs of format
 * @p mini_format (MLX5_MINI_CQE_FORMAT_HASH or _CSUM; mlx5_prm_rx.h has
 * the layout).
 *
 * @return
 *   0 on success, a negative errno value otherwise and rte_errno is set
 *   (-ENOTSUP: the device does not compress, caps.cqe_comp_max is 0).
 */
__rte_internal
int mlx5_devx_cq_create_comp(struct mlx5_common_device *cdev,
			     struct mlx5_devx_cq *cq, uint32_t log_size,
			     struct mlx5_uar *uar, uint8_t mini_format,
			     int socket);

/**
 * Destroy a CQ of mlx5_devx_cq_create(); a zeroed one is a no-op.
 *
 * @return
 *   0, or a negative errno if the device refused (a QP still completes
 *   on it): then nothing is freed, the ring stays for the device.
 */
__rte_internal
int mlx5_devx_cq_destroy(struct mlx5_devx_cq *cq);

/**
 * Create an RC QP in the RST state: at most 2^15 send blocks and 2^15
 * receive WQEs; a receive queue takes at least one 64-byte block.
 *
 * @return
 *   0 on success, a negative errno value otherwise and rte_errno is set;
 *   nothing is left allocated on failure.
 */
__rte_internal
int mlx5_devx_qp_create(struct mlx5_common_device *cdev,
			struct mlx5_devx_qp *qp,
			const struct mlx5_devx_qp_params *params, int socket);

/**
 * Destroy a QP of mlx5_devx_qp_create(); a zeroed one is a no-op.
 *
 * @return
 *   0, or a negative errno if the device refused: then nothing is freed.
 */
__rte_internal
int mlx5_devx_qp_destroy(struct mlx5_devx_qp *qp);

/**
 * Bring a QP from RST to RTS, connected to @p remote_qpn (its own number:
 * a loopback QP). The send and receive counters (and their doorbell
 * record) restart at 0 before the device sees the QP ready.
 *
 * @return
 *   0 on success, a negative errno value otherwise and rte_errno is set.
 */
__rte_internal
int mlx5_devx_qp_to_rts(struct mlx5_devx_qp *qp, uint32_t remote_qpn);

/**
 * Recover a QP after an error completion: to RST (the device forgets
 * every posted WQE), then back to RTS with the same peer.
 *
 * @return
 *   0 on success, a negative errno value otherwise and rte_errno is set.
 */
__rte_internal
int mlx5_devx_qp_recover(struct mlx5_devx_qp *qp);

/* An Ethernet send queue: ring of 64-byte blocks, doorbell record, SQ. */
struct mlx5_devx_sq {
	struct mlx5_devx_obj *obj;
	uint8_t *wqes;
	volatile uint32_t *db_rec; /* The send counter at [MLX5_SND_DBR]. */
	uint32_t log_size;         /* log2 of 64-byte WQE blocks. */
	uint16_t pi;
	uint8_t state;             /* As last moved (enum mlx5_wq_state). */
	void *buf;
	struct mlx5dv_devx_umem *umem;
	struct mlx5_common_device *cdev;
};

/* What mlx5_devx_sq_create() builds. */
struct mlx5_devx_sq_params {
	uint32_t pd;
	uint32_t cqn;
	uint32_t tisn;
	uint32_t log_size;         /* log2 of 64-byte WQE blocks (<= 15). */
	struct mlx5_uar *uar;
	/* Enhanced multi-packet WQEs allowed (needs caps.eth.empw). */
	bool allow_empw;
	/* sqc.min_wqe_inline_mode: what each WQE must hold inline. */
	uint8_t min_wqe_inline_mode;
};

/* An Ethernet receive queue of cyclic WQEs of 16 << log_stride bytes. */
struct mlx5_devx_rq {
	struct mlx5_devx_obj *obj;
	uint8_t *wqes;
	volatile uint32_t *db_rec; /* The receive counter at [MLX5_RCV_DBR]. */
	uint32_t log_size;
	uint32_t log_stride;       /* Bytes per WQE: 1 << log_stride. */
	uint8_t state;
	void *buf;
	struct mlx5dv_devx_umem *umem;
	struct mlx5_common_device *cdev;
};

/* What mlx5_devx_rq_create() builds. */
struct mlx5_devx_rq_params {
	uint32_t pd;
	uint32_t cqn;
	uint32_t log_size;         /* log2 of WQEs (<= 15). */
	uint32_t log_stride;       /* log2 of bytes per WQE, 4..11. */
	bool vlan_strip;           /* Needs caps.eth.vlan_cap. */
	bool scatter_fcs;
	uint8_t counter_set_id;    /* Queue counter (drops), 0: none. */
	uint32_t user_index;       /* Its receive CQEs carry it (24 bits). */
};

/**
 * Create an SQ (ring, doorbell record, object) in RST, then move it to RDY.
 *
 * @return
 *   0 on success, a negative errno value otherwise and rte_errno is set;
 *   nothing is left allocated on failure.
 */
__rte_internal
int mlx5_devx_sq_create(struct mlx5_common_device *cdev,
			struct mlx5_devx_sq *sq,
			const struct mlx5_devx_sq_params *params, int socket);

/**
 * Recover an SQ after an error completion: its state queried (the device
 * moved it to ERR), to RST, the send counter and doorbell record zeroed,
 * then RDY.
 *
 * @return
 *   0 on success, a negative errno value otherwise and rte_errno is set.
 */
__rte_internal
int mlx5_devx_sq_recover(struct mlx5_devx_sq *sq);

/**
 * Destroy an SQ of mlx5_devx_sq_create(); a zeroed one is a no-op.
 *
 * @return
 *   0, or a negative errno if the device refused: then nothing is freed.
 */
__rte_internal
int mlx5_devx_sq_destroy(struct mlx5_devx_sq *sq);

/**
 * Create an RQ (ring, doorbell record, object) in RST, then move it to
 * RDY; VLAN stripping is off unless asked (and then needs vlan_cap).
 *
 * @return
 *   0 on success, a negative errno value otherwise and rte_errno is set;
 *   nothing is left allocated on failure.
 */
__rte_internal
int mlx5_devx_rq_create(struct mlx5_common_device *cdev,
			struct mlx5_devx_rq *rq,
			const struct mlx5_devx_rq_params *params, int socket);

/**
 * Recover an RQ after an error completion: its state queried (the device
 * moved it to ERR), to RST (the device forgets the posted WQEs and its
 * counter restarts at 0), the doorbell record zeroed, then RDY. The
 * caller posts its WQEs again.
 *
 * @return
 *   0 on success, a negative errno value otherwise and rte_errno is set.
 */
__rte_internal
int mlx5_devx_rq_recover(struct mlx5_devx_rq *rq);

/**
 * Destroy an RQ of mlx5_devx_rq_create(); a zeroed one is a no-op.
 *
 * @return
 *   0, or a negative errno if the device refused (an RQT or TIR still
 *   names it): then nothing is freed.
 */
__rte_internal
int mlx5_devx_rq_destroy(struct mlx5_devx_rq *rq);

/* A loopback QP and its CQ: synchronous RDMA between keys of one PD. */
struct mlx5_devx_lbqp {
	struct mlx5_common_device *cdev;
	uint32_t pd;
	struct mlx5_uar uar;
	struct mlx5_devx_cq cq;
	struct mlx5_devx_qp qp;
	/* mlx5_devx_lbqp_copy()'s staging buffer, a DEVX mkey of the PD. */
	uint8_t *stage;
	size_t stage_len;
	struct mlx5dv_devx_umem *stage_umem;
	struct mlx5_devx_obj *stage_mkey;
};

/**
 * Create a loopback QP (and its UAR and CQ) on PD @p pd, in RTS.
 *
 * @return
 *   0 on success, a negative errno value otherwise and rte_errno is set
 *   (-ENOTSUP: the device has no force-loopback RC QP); nothing is left
 *   allocated on failure.
 */
__rte_internal
int mlx5_devx_lbqp_create(struct mlx5_common_device *cdev,
			  struct mlx5_devx_lbqp *lb, uint32_t pd);

/**
 * Destroy a loopback QP (and its staging buffer); a zeroed one is a no-op.
 *
 * @return
 *   0, or a negative errno if the device refused a destroy (what it
 *   still holds is kept).
 */
__rte_internal
int mlx5_devx_lbqp_destroy(struct mlx5_devx_lbqp *lb);

/**
 * Move @p len bytes with one RDMA operation on a loopback QP and wait for
 * its completion: MLX5_OPCODE_RDMA_WRITE reads (@p lkey, @p laddr) and
 * writes (@p rkey, @p raddr); MLX5_OPCODE_RDMA_READ reads (@p rkey,
 * @p raddr) and writes (@p lkey, @p laddr). The local key needs local
 * read (write) access, the remote one remote write (read) access, both in
 * the QP's PD.
 *
 * @param[out] syndrome
 *   The error completion's syndrome (MLX5_CQE_SYNDROME_*), 0 on success;
 *   may be NULL.
 *
 * @return
 *   0 on success; -EIO on an error completion (the QP is recovered before
 *   returning); -ETIMEDOUT if no completion came within a second (the QP
 *   is recovered); -EINVAL for another opcode, a length of 0 or above
 *   2^30 (or the device's largest message); rte_errno is set.
 */
__rte_internal
int mlx5_devx_lbqp_rdma(struct mlx5_devx_lbqp *lb, uint8_t opcode,
			uint32_t lkey, uint64_t laddr, uint32_t rkey,
			uint64_t raddr, uint32_t len, uint8_t *syndrome);

/**
 * The device reads (@p to_memory false) or writes @p len bytes at
 * (@p key, @p addr), the key used as the local key of an RDMA on the
 * loopback QP: a write through the key is an RDMA READ from a staging
 * buffer the call keeps (registered once, grown as needed, a DEVX mkey of
 * the QP's PD), a read an RDMA WRITE to it. @p buf is copied to or from
 * the staging buffer. What a key allows the device, tested as the device
 * does it; the examples and the test harness move bytes this way.
 *
 * @param[out] syndrome
 *   As for mlx5_devx_lbqp_rdma(); may be NULL.
 *
 * @return
 *   0 on success (nothing moves for @p len 0); -EIO on an error completion
 *   (the QP is recovered); -ENOMEM, -EINVAL (more than 2^30 bytes) or the
 *   errno of a refused staging registration; rte_errno is set.
 */
__rte_internal
int mlx5_devx_lbqp_copy(struct mlx5_devx_lbqp *lb, uint32_t key,
			uint64_t addr, void *buf, size_t len, bool to_memory,
			uint8_t *syndrome);

#endif /* MLX5_COMMON_DEVX_H_ */
