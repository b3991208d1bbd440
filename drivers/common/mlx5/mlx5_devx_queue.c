/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * DEVX queue commands: CREATE/QUERY_CQ, CREATE/QUERY_QP and the QP state
 * transitions. The rings and doorbell records live in umems (the *_umem_*
 * fields); the kernel marks them valid on the way to firmware.
 */

#include <errno.h>

#include <rte_errno.h>

#include "mlx5_common.h"
#include "mlx5_common_log.h"
#include "mlx5_devx_cmds.h"

/* RC QP timers as DPDK and rdma-core's tests use them for loopback. */
#define MLX5_QP_ACK_TIMEOUT 14
#define MLX5_QP_RETRY_COUNT 7
#define MLX5_QP_RNR_RETRY 7

struct mlx5_devx_obj *
mlx5_devx_cmd_create_cq(struct mlx5_common_device *cdev,
			const struct mlx5_devx_cq_attr *attr)
{
	uint32_t in[MLX5_ST_SZ_DW(create_cq_in)] = { 0 };
	uint32_t out[MLX5_ST_SZ_DW(create_cq_out)];
	void *cqc = MLX5_ADDR_OF(create_cq_in, in, cq_context);
	struct mlx5_devx_obj *cq;

	if (cdev->caps.log_max_cq_sz != 0 &&
	    attr->log_cq_size > cdev->caps.log_max_cq_sz) {
		DRV_LOG(ERR, "CREATE_CQ: 2^%u CQEs, the device allows 2^%u",
			attr->log_cq_size, cdev->caps.log_max_cq_sz);
		rte_errno = EINVAL;
		return NULL;
	}
	MLX5_SET(create_cq_in, in, opcode, MLX5_CMD_OP_CREATE_CQ);
	MLX5_SET(cqc, cqc, cqe_sz, MLX5_CQE_SIZE_64B);
	MLX5_SET(cqc, cqc, oi, attr->overrun_ignore);
	if (attr->cqe_comp) {
		MLX5_SET(cqc, cqc, cqe_comp_en, 1);
		MLX5_SET(cqc, cqc, mini_cqe_res_format, attr->mini_cqe_format);
	}
	MLX5_SET(cqc, cqc, log_cq_size, attr->log_cq_size);
	MLX5_SET(cqc, cqc, uar_page, attr->uar_page_id);
	MLX5_SET(cqc, cqc, c_eqn_or_apu_element, attr->eqn);
	MLX5_SET(cqc, cqc, log_page_size, 0); /* 4 KiB pages. */
	MLX5_SET(cqc, cqc, dbr_umem_valid, 1);
	MLX5_SET(cqc, cqc, dbr_umem_id, attr->db_umem_id);
	MLX5_SET64(cqc, cqc, dbr_addr, attr->db_umem_offset);
	MLX5_SET(create_cq_in, in, cq_umem_valid, 1);
	MLX5_SET(create_cq_in, in, cq_umem_id, attr->q_umem_id);
	MLX5_SET64(create_cq_in, in, cq_umem_offset, attr->q_umem_offset);
	cq = MLX5_DEVX_OBJ_CREATE(cdev, create_cq, in, out);
	if (cq != NULL)
		cq->id = MLX5_GET(create_cq_out, out, cqn);
	return cq;
}

int
mlx5_devx_cmd_query_cq(struct mlx5_devx_obj *cq,
		       struct mlx5_devx_cq_info *info)
{
	uint32_t in[MLX5_ST_SZ_DW(query_cq_in)] = { 0 };
	uint32_t out[MLX5_ST_SZ_DW(query_cq_out)];
	const void *cqc = MLX5_ADDR_OF(query_cq_out, out, cq_context);
	int ret;

	MLX5_SET(query_cq_in, in, opcode, MLX5_CMD_OP_QUERY_CQ);
	MLX5_SET(query_cq_in, in, cqn, cq->id);
	ret = MLX5_DEVX_OBJ_QUERY(cq, query_cq, in, out);
	if (ret != 0)
		return ret;
	info->status = MLX5_GET(cqc, cqc, status);
	info->log_cq_size = MLX5_GET(cqc, cqc, log_cq_size);
	info->uar_page_id = MLX5_GET(cqc, cqc, uar_page);
	info->producer_counter = MLX5_GET(cqc, cqc, producer_counter);
	info->consumer_counter = MLX5_GET(cqc, cqc, consumer_counter);
	return 0;
}

struct mlx5_devx_obj *
mlx5_devx_cmd_create_qp(struct mlx5_common_device *cdev,
			const struct mlx5_devx_qp_attr *attr)
{
	uint32_t in[MLX5_ST_SZ_DW(create_qp_in)] = { 0 };
	uint32_t out[MLX5_ST_SZ_DW(create_qp_out)];
	void *qpc = MLX5_ADDR_OF(create_qp_in, in, qpc);
	uint8_t max = cdev->caps.log_max_qp_sz;
	struct mlx5_devx_obj *qp;

	if (max != 0 && (attr->log_sq_size > max ||
			 (!attr->no_rq && attr->log_rq_size > max))) {
		DRV_LOG(ERR, "CREATE_QP: 2^%u send / 2^%u receive WQEs, the"
			" device allows 2^%u", attr->log_sq_size,
			attr->no_rq ? 0 : attr->log_rq_size, max);
		rte_errno = EINVAL;
		return NULL;
	}
	MLX5_SET(create_qp_in, in, opcode, MLX5_CMD_OP_CREATE_QP);
	MLX5_SET(qpc, qpc, st, MLX5_QP_ST_RC);
	MLX5_SET(qpc, qpc, pm_state, MLX5_QP_PM_MIGRATED);
	/*
	 * As the kernel picks it: free running where that is the only
	 * format, else the device's default (a real-time-only device
	 * refuses free running).
	 */
	MLX5_SET(qpc, qpc, ts_format, cdev->caps.qp_ts_format ==
		 MLX5_QP_TS_FORMAT_CAP_FREE_RUNNING ?
		 MLX5_QPC_TIMESTAMP_FORMAT_FREE_RUNNING :
		 MLX5_QPC_TIMESTAMP_FORMAT_DEFAULT);
	MLX5_SET(qpc, qpc, pd, attr->pd);
	MLX5_SET(qpc, qpc, uar_page, attr->uar_page_id);
	MLX5_SET(qpc, qpc, log_page_size, 0); /* 4 KiB pages. */
	MLX5_SET(qpc, qpc, cqn_snd, attr->cqn_snd);
	MLX5_SET(qpc, qpc, cqn_rcv, attr->cqn_rcv);
	MLX5_SET(qpc, qpc, log_sq_size, attr->log_sq_size);
	if (attr->no_rq) {
		MLX5_SET(qpc, qpc, rq_type, MLX5_QP_RQ_TYPE_ZERO_SIZE);
	} else {
		MLX5_SET(qpc, qpc, rq_type, MLX5_QP_RQ_TYPE_REGULAR);
		MLX5_SET(qpc, qpc, log_rq_size, attr->log_rq_size);
		MLX5_SET(qpc, qpc, log_rq_stride, attr->log_rq_stride);
	}
	MLX5_SET(qpc, qpc, dbr_umem_valid, 1);
	MLX5_SET(qpc, qpc, dbr_umem_id, attr->db_umem_id);
	MLX5_SET64(qpc, qpc, dbr_addr, attr->db_umem_offset);
	MLX5_SET(create_qp_in, in, wq_umem_valid, 1);
	MLX5_SET(create_qp_in, in, wq_umem_id, attr->wq_umem_id);
	MLX5_SET64(create_qp_in, in, wq_umem_offset, attr->wq_umem_offset);
	qp = MLX5_DEVX_OBJ_CREATE(cdev, create_qp, in, out);
	if (qp != NULL)
		qp->id = MLX5_GET(create_qp_out, out, qpn);
	return qp;
}

/* One transition with a QP context (RST2INIT, INIT2RTR, RTR2RTS). */
static int
mlx5_devx_qp_modify_ctx(struct mlx5_devx_obj *qp, uint16_t opcode,
			uint32_t remote_qpn)
{
	uint32_t in[MLX5_ST_SZ_DW(rst2init_qp_in)] = { 0 };
	uint32_t out[MLX5_ST_SZ_DW(empty_out)];
	void *qpc = MLX5_ADDR_OF(rst2init_qp_in, in, qpc);

	RTE_BUILD_BUG_ON(MLX5_ST_SZ_BYTES(rst2init_qp_in) !=
			 MLX5_ST_SZ_BYTES(init2rtr_qp_in) ||
			 MLX5_ST_SZ_BYTES(rst2init_qp_in) !=
			 MLX5_ST_SZ_BYTES(rtr2rts_qp_in));
	MLX5_SET(rst2init_qp_in, in, opcode, opcode);
	MLX5_SET(rst2init_qp_in, in, qpn, qp->id);
	switch (opcode) {
	case MLX5_CMD_OP_RST2INIT_QP:
		MLX5_SET(qpc, qpc, primary_address_path.vhca_port_num, 1);
		MLX5_SET(qpc, qpc, rwe, 1);
		MLX5_SET(qpc, qpc, rre, 1);
		return MLX5_DEVX_OBJ_MODIFY(qp, rst2init_qp, in, out);
	case MLX5_CMD_OP_INIT2RTR_QP:
		MLX5_SET(qpc, qpc, mtu, MLX5_QP_MTU_1024);
		MLX5_SET(qpc, qpc, log_msg_max, 30);
		MLX5_SET(qpc, qpc, remote_qpn, remote_qpn);
		MLX5_SET(qpc, qpc, min_rnr_nak, 0);
		MLX5_SET(qpc, qpc, primary_address_path.vhca_port_num, 1);
		/*
		 * The peer is a QP of the same function: force loopback, no
		 * address (as DPDK's and the kernel's internal RC QPs).
		 */
		MLX5_SET(qpc, qpc, primary_address_path.fl, 1);
		return MLX5_DEVX_OBJ_MODIFY(qp, init2rtr_qp, in, out);
	default: /* MLX5_CMD_OP_RTR2RTS_QP */
		MLX5_SET(qpc, qpc, primary_address_path.ack_timeout,
			 MLX5_QP_ACK_TIMEOUT);
		MLX5_SET(qpc, qpc, retry_count, MLX5_QP_RETRY_COUNT);
		MLX5_SET(qpc, qpc, rnr_retry, MLX5_QP_RNR_RETRY);
		return MLX5_DEVX_OBJ_MODIFY(qp, rtr2rts_qp, in, out);
	}
}

int
mlx5_devx_cmd_modify_qp_state(struct mlx5_devx_obj *qp, uint16_t opcode,
			      uint32_t remote_qpn)
{
	uint32_t in[MLX5_ST_SZ_DW(qp_2err_in)] = { 0 };
	uint32_t out[MLX5_ST_SZ_DW(empty_out)];

	switch (opcode) {
	case MLX5_CMD_OP_RST2INIT_QP:
	case MLX5_CMD_OP_INIT2RTR_QP:
	case MLX5_CMD_OP_RTR2RTS_QP:
		return mlx5_devx_qp_modify_ctx(qp, opcode, remote_qpn);
	case MLX5_CMD_OP_2ERR_QP:
		MLX5_SET(qp_2err_in, in, opcode, opcode);
		MLX5_SET(qp_2err_in, in, qpn, qp->id);
		return MLX5_DEVX_OBJ_MODIFY(qp, qp_2err, in, out);
	case MLX5_CMD_OP_2RST_QP:
		MLX5_SET(qp_2rst_in, in, opcode, opcode);
		MLX5_SET(qp_2rst_in, in, qpn, qp->id);
		return MLX5_DEVX_OBJ_MODIFY(qp, qp_2rst, in, out);
	default:
		DRV_LOG(ERR, "QP 0x%x: 0x%x is not a QP state transition",
			qp->id, opcode);
		rte_errno = EINVAL;
		return -EINVAL;
	}
}

int
mlx5_devx_cmd_query_qp(struct mlx5_devx_obj *qp,
		       struct mlx5_devx_qp_info *info)
{
	uint32_t in[MLX5_ST_SZ_DW(query_qp_in)] = { 0 };
	uint32_t out[MLX5_ST_SZ_DW(query_qp_out)];
	const void *qpc = MLX5_ADDR_OF(query_qp_out, out, qpc);
	int ret;

	MLX5_SET(query_qp_in, in, opcode, MLX5_CMD_OP_QUERY_QP);
	MLX5_SET(query_qp_in, in, qpn, qp->id);
	ret = MLX5_DEVX_OBJ_QUERY(qp, query_qp, in, out);
	if (ret != 0)
		return ret;
	info->state = MLX5_GET(qpc, qpc, state);
	info->pd = MLX5_GET(qpc, qpc, pd);
	info->remote_qpn = MLX5_GET(qpc, qpc, remote_qpn);
	info->cqn_snd = MLX5_GET(qpc, qpc, cqn_snd);
	info->cqn_rcv = MLX5_GET(qpc, qpc, cqn_rcv);
	info->rre = MLX5_GET(qpc, qpc, rre);
	info->rwe = MLX5_GET(qpc, qpc, rwe);
	info->force_loopback = MLX5_GET(qpc, qpc, primary_address_path.fl);
	info->hw_sq_wqebb_counter = MLX5_GET(qpc, qpc, hw_sq_wqebb_counter);
	info->hw_rq_counter = MLX5_GET(qpc, qpc, hw_rq_counter);
	return 0;
}
