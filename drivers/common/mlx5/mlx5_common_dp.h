/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * Datapath helpers for class drivers: CQE ownership and the send doorbell.
 * Inline, no function call on a real device.
 */

#ifndef MLX5_COMMON_DP_H_
#define MLX5_COMMON_DP_H_

#include <stdint.h>

#include <infiniband/mlx5dv.h>

#include <rte_branch_prediction.h>
#include <rte_byteorder.h>
#include <rte_io.h>

#include "mlx5_common_devx.h"

/* Doorbell record slots of a QP. */
#define MLX5_RCV_DBR 0
#define MLX5_SND_DBR 1

/* What the CQE at the consumer index holds. */
enum mlx5_cqe_status {
	MLX5_CQE_STATUS_SW_OWN = 0,  /* A completion to handle. */
	MLX5_CQE_STATUS_HW_OWN = -1, /* Nothing yet. */
	MLX5_CQE_STATUS_ERR = -2,    /* An error completion. */
};

/**
 * Check the CQE at consumer index @p ci of a ring of 2^@p log_size CQEs:
 * the device owns it while its owner bit differs from the pass of @p ci
 * (or it still holds the invalid opcode it was created with). The read
 * barrier orders the owner check before any read of the CQE's fields.
 */
static __rte_always_inline enum mlx5_cqe_status
mlx5_cqe_status(volatile struct mlx5_cqe64 *cqe, uint32_t log_size,
		uint32_t ci)
{
	uint8_t op_own = cqe->op_own;
	uint8_t opcode = op_own >> 4;

	if (unlikely((op_own & MLX5_CQE_OWNER_MASK) !=
		     ((ci >> log_size) & 1)) || opcode == MLX5_CQE_INVALID)
		return MLX5_CQE_STATUS_HW_OWN;
	rte_io_rmb();
	if (unlikely(opcode == MLX5_CQE_REQ_ERR || opcode == MLX5_CQE_RESP_ERR))
		return MLX5_CQE_STATUS_ERR;
	return MLX5_CQE_STATUS_SW_OWN;
}

/** Tell the device the CQEs up to @p ci were consumed. */
static __rte_always_inline void
mlx5_cq_db_update(volatile uint32_t *db_rec, uint32_t ci)
{
	rte_io_wmb();
	db_rec[0] = rte_cpu_to_be_32(ci & 0xffffff);
}

/**
 * Ring the send doorbell: the WQEs are written; store the new send counter
 * @p pi in the doorbell record, make it visible, then write the first 8
 * bytes of the last WQE's control segment @p ctrl to the UAR. On the
 * software device, the UAR's kick hook then runs the device.
 */
static __rte_always_inline void
mlx5_doorbell_ring(struct mlx5_uar *uar, volatile uint32_t *db_rec,
		   uint16_t pi, const void *ctrl)
{
	uint64_t db = *(const volatile uint64_t *)ctrl;

	rte_io_wmb();
	*db_rec = rte_cpu_to_be_32(pi);
	rte_wmb();
	rte_write64_relaxed(db, uar->db);
	if (unlikely(uar->kick != NULL))
		uar->kick(uar->obj, db);
}

#endif /* MLX5_COMMON_DP_H_ */
