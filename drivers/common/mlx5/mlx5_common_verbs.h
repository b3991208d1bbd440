/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * Verbs queue objects of a common device: CQs, RC QPs, SRQs, WQs and RWQ
 * indirection tables made by the kernel through the device's backend
 * (ibv_create_cq(), ...), the DEVX commands that query and modify them
 * (mlx5dv_devx_qp_query(), ...), and a QP's lag port and UDP source port.
 * Class drivers use these instead of rdma-core or the backend table. Each
 * refusal is logged with the call, errno and, for DEVX commands, the
 * status and syndrome.
 */

#ifndef MLX5_COMMON_VERBS_H_
#define MLX5_COMMON_VERBS_H_

#include <stdint.h>

#include <rte_compat.h>

#include "mlx5_common.h"

/* The kinds of verbs queue object. */
enum mlx5_verbs_obj_type {
	MLX5_VERBS_OBJ_CQ,      /* struct ibv_cq */
	MLX5_VERBS_OBJ_QP,      /* struct ibv_qp */
	MLX5_VERBS_OBJ_SRQ,     /* struct ibv_srq */
	MLX5_VERBS_OBJ_WQ,      /* struct ibv_wq */
	MLX5_VERBS_OBJ_IND_TBL, /* struct ibv_rwq_ind_table */
};

/**
 * Create a completion queue of at least @p cqe entries on completion
 * vector @p comp_vector (no completion channel).
 *
 * @return
 *   The CQ (its cqe field holds the entries it has), or NULL with
 *   rte_errno set: EINVAL bad size or vector, ENOMEM, or the errno of the
 *   refused command.
 */
__rte_internal
struct ibv_cq *mlx5_verbs_cq_create(struct mlx5_common_device *cdev,
				    int cqe, int comp_vector);

/**
 * Create a queue pair (ibv_create_qp_ex()). With IBV_QP_INIT_ATTR_PD not
 * in attr->comp_mask, the device's PD is used (and the bit set).
 *
 * @return
 *   The QP in RESET (attr->cap updated to what it has), or NULL with
 *   rte_errno set: EINVAL bad attributes, EOPNOTSUPP a kind of QP the
 *   backend does not make, or the errno of the refused command.
 */
__rte_internal
struct ibv_qp *mlx5_verbs_qp_create(struct mlx5_common_device *cdev,
				    struct ibv_qp_init_attr_ex *attr);

/**
 * Move a QP as ibv_modify_qp() does (qp->state follows on success).
 *
 * @return
 *   0 on success, a negative errno value otherwise and rte_errno is set:
 *   -EINVAL a transition or attribute mask IB does not allow, -EOPNOTSUPP
 *   one the backend does not do, or the errno of the refused command.
 */
__rte_internal
int mlx5_verbs_qp_modify(struct mlx5_common_device *cdev, struct ibv_qp *qp,
			 struct ibv_qp_attr *attr, int attr_mask);

/**
 * Create a shared receive queue on the device's PD (ibv_create_srq()).
 *
 * @return
 *   The SRQ (attr->attr updated to what it has), or NULL with rte_errno
 *   set.
 */
__rte_internal
struct ibv_srq *mlx5_verbs_srq_create(struct mlx5_common_device *cdev,
				      struct ibv_srq_init_attr *attr);

/**
 * Set the limit of an SRQ (ibv_modify_srq() with IBV_SRQ_LIMIT).
 *
 * @return
 *   0 on success, a negative errno value otherwise and rte_errno is set:
 *   -EINVAL a limit not below the SRQ's size.
 */
__rte_internal
int mlx5_verbs_srq_limit_set(struct mlx5_common_device *cdev,
			     struct ibv_srq *srq, uint32_t limit);

/**
 * Create a receive work queue (ibv_create_wq()); attr->pd NULL means the
 * device's PD.
 *
 * @return
 *   The WQ in RESET, or NULL with rte_errno set.
 */
__rte_internal
struct ibv_wq *mlx5_verbs_wq_create(struct mlx5_common_device *cdev,
				    struct ibv_wq_init_attr *attr);

/**
 * Create an RWQ indirection table of 2^@p log_size WQs.
 *
 * @return
 *   The table, or NULL with rte_errno set.
 */
__rte_internal
struct ibv_rwq_ind_table *
mlx5_verbs_ind_tbl_create(struct mlx5_common_device *cdev,
			  struct ibv_wq **wqs, uint32_t log_size);

/**
 * Destroy a verbs queue object of @p type.
 *
 * @return
 *   0 on success, a negative errno value otherwise and rte_errno is set:
 *   -EBUSY another verbs object still uses it (destroy that first), or
 *   the errno of the refused command; the object stays.
 */
__rte_internal
int mlx5_verbs_obj_destroy(struct mlx5_common_device *cdev,
			   enum mlx5_verbs_obj_type type, void *obj);

/**
 * The number PRM commands name an object by: cqn (mlx5dv_init_obj()),
 * qp_num, srqn (mlx5dv_init_obj()), wq_num or ind_tbl_num.
 *
 * @return
 *   0 on success, a negative errno value otherwise and rte_errno is set.
 */
__rte_internal
int mlx5_verbs_obj_number(struct mlx5_common_device *cdev,
			  enum mlx5_verbs_obj_type type, void *obj,
			  uint32_t *num);

/**
 * Run a DEVX query or modify command on a verbs object. The mailbox must
 * name the object itself (the kernel refuses another with EINVAL). Prefer
 * MLX5_VERBS_DEVX_QUERY()/MLX5_VERBS_DEVX_MODIFY().
 *
 * @return
 *   0 on success, a negative errno value otherwise and rte_errno is set
 *   (a refused command is logged with its status and syndrome, which stay
 *   in @p out).
 */
__rte_internal
int mlx5_verbs_devx_query(struct mlx5_common_device *cdev,
			  enum mlx5_verbs_obj_type type, void *obj,
			  const char *name, const void *in, size_t inlen,
			  void *out, size_t outlen);
__rte_internal
int mlx5_verbs_devx_modify(struct mlx5_common_device *cdev,
			   enum mlx5_verbs_obj_type type, void *obj,
			   const char *name, const void *in, size_t inlen,
			   void *out, size_t outlen);

#define MLX5_VERBS_DEVX_QUERY(cdev, type, obj, typ, in, out) \
	mlx5_verbs_devx_query((cdev), (type), (obj), #typ, (in), \
			      MLX5_ST_SZ_BYTES(typ##_in), (out), \
			      MLX5_ST_SZ_BYTES(typ##_out))
#define MLX5_VERBS_DEVX_MODIFY(cdev, type, obj, typ, in, out) \
	mlx5_verbs_devx_modify((cdev), (type), (obj), #typ, (in), \
			       MLX5_ST_SZ_BYTES(typ##_in), (out), \
			       MLX5_ST_SZ_BYTES(typ##_out))

/**
 * The lag port a QP is configured to transmit on and the one it
 * transmits on now (mlx5dv_query_qp_lag_port()).
 *
 * @return
 *   0 on success, a negative errno value otherwise and rte_errno is set:
 *   -EOPNOTSUPP the device is not a LAG (fewer than two lag ports) or the
 *   QP has no lag port yet (before INIT).
 */
__rte_internal
int mlx5_verbs_qp_lag_port_get(struct mlx5_common_device *cdev,
			       struct ibv_qp *qp, uint8_t *port,
			       uint8_t *active_port);

/**
 * Choose the lag port a QP transmits on (mlx5dv_modify_qp_lag_port()).
 *
 * @return
 *   0 on success, a negative errno value otherwise and rte_errno is set:
 *   -EOPNOTSUPP not a LAG or the QP is not in RTS (as ibv_modify_qp()
 *   left it), -EINVAL a port other than 1..ports.
 */
__rte_internal
int mlx5_verbs_qp_lag_port_set(struct mlx5_common_device *cdev,
			       struct ibv_qp *qp, uint8_t port);

/**
 * Set the UDP source port of an RC QP's RoCE packets
 * (mlx5dv_modify_qp_udp_sport()).
 *
 * @return
 *   0 on success, a negative errno value otherwise and rte_errno is set:
 *   -EOPNOTSUPP the QP is not in RTS (as ibv_modify_qp() left it) or the
 *   device lacks rts2rts_qp_udp_sport.
 */
__rte_internal
int mlx5_verbs_qp_udp_sport_set(struct mlx5_common_device *cdev,
				struct ibv_qp *qp, uint16_t udp_sport);

#endif /* MLX5_COMMON_VERBS_H_ */
