/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * DEVX commands of the Ethernet queue objects: transport domain, TIS, SQ
 * and RQ (create, modify, query), and the queue counters RQs count on.
 * Rings and doorbell records are in umems (wq.wq_umem_*, wq.dbr_umem_*),
 * as for CQs and QPs.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_errno.h>

#include "mlx5_common.h"
#include "mlx5_common_log.h"
#include "mlx5_devx_cmds.h"

struct mlx5_devx_obj *
mlx5_devx_cmd_alloc_td(struct mlx5_common_device *cdev)
{
	uint32_t in[MLX5_ST_SZ_DW(alloc_transport_domain_in)] = { 0 };
	uint32_t out[MLX5_ST_SZ_DW(alloc_transport_domain_out)];
	struct mlx5_devx_obj *td;

	MLX5_SET(alloc_transport_domain_in, in, opcode,
		 MLX5_CMD_OP_ALLOC_TRANSPORT_DOMAIN);
	td = MLX5_DEVX_OBJ_CREATE(cdev, alloc_transport_domain, in, out);
	if (td != NULL)
		td->id = MLX5_GET(alloc_transport_domain_out, out,
				  transport_domain);
	return td;
}

struct mlx5_devx_obj *
mlx5_devx_cmd_create_tis(struct mlx5_common_device *cdev,
			 const struct mlx5_devx_tis_attr *attr)
{
	uint32_t in[MLX5_ST_SZ_DW(create_tis_in)] = { 0 };
	uint32_t out[MLX5_ST_SZ_DW(create_tis_out)];
	void *tisc = MLX5_ADDR_OF(create_tis_in, in, ctx);
	struct mlx5_devx_obj *tis;

	MLX5_SET(create_tis_in, in, opcode, MLX5_CMD_OP_CREATE_TIS);
	MLX5_SET(tisc, tisc, prio, attr->prio);
	MLX5_SET(tisc, tisc, lag_tx_port_affinity, attr->lag_tx_port_affinity);
	MLX5_SET(tisc, tisc, transport_domain, attr->transport_domain);
	MLX5_SET(tisc, tisc, pd, attr->pd);
	tis = MLX5_DEVX_OBJ_CREATE(cdev, create_tis, in, out);
	if (tis != NULL)
		tis->id = MLX5_GET(create_tis_out, out, tisn);
	return tis;
}

/* The work queue context shared by SQs and RQs. */
static void
mlx5_devx_wq_fill(void *wq, const struct mlx5_devx_wq_attr *attr)
{
	MLX5_SET(wq, wq, wq_type, attr->wq_type);
	MLX5_SET(wq, wq, pd, attr->pd);
	MLX5_SET(wq, wq, uar_page, attr->uar_page_id);
	MLX5_SET(wq, wq, log_wq_stride, attr->log_wq_stride);
	MLX5_SET(wq, wq, log_wq_pg_sz, 0); /* 4 KiB pages. */
	MLX5_SET(wq, wq, log_wq_sz, attr->log_wq_sz);
	MLX5_SET(wq, wq, dbr_umem_valid, 1);
	MLX5_SET(wq, wq, dbr_umem_id, attr->db_umem_id);
	MLX5_SET64(wq, wq, dbr_addr, attr->db_umem_offset);
	MLX5_SET(wq, wq, wq_umem_valid, 1);
	MLX5_SET(wq, wq, wq_umem_id, attr->wq_umem_id);
	MLX5_SET64(wq, wq, wq_umem_offset, attr->wq_umem_offset);
}

struct mlx5_devx_obj *
mlx5_devx_cmd_create_sq(struct mlx5_common_device *cdev,
			const struct mlx5_devx_sq_attr *attr)
{
	uint32_t in[MLX5_ST_SZ_DW(create_sq_in)] = { 0 };
	uint32_t out[MLX5_ST_SZ_DW(create_sq_out)];
	void *sqc = MLX5_ADDR_OF(create_sq_in, in, ctx);
	struct mlx5_devx_obj *sq;

	MLX5_SET(create_sq_in, in, opcode, MLX5_CMD_OP_CREATE_SQ);
	MLX5_SET(sqc, sqc, flush_in_error_en, attr->flush_in_error_en);
	MLX5_SET(sqc, sqc, min_wqe_inline_mode, attr->min_wqe_inline_mode);
	MLX5_SET(sqc, sqc, allow_multi_pkt_send_wqe, attr->allow_empw);
	MLX5_SET(sqc, sqc, state, MLX5_WQ_STATE_RST);
	MLX5_SET(sqc, sqc, user_index, attr->user_index);
	MLX5_SET(sqc, sqc, cqn, attr->cqn);
	MLX5_SET(sqc, sqc, packet_pacing_rate_limit_index, attr->rate_index);
	MLX5_SET(sqc, sqc, tis_lst_sz, 1);
	MLX5_SET(sqc, sqc, tis_num_0, attr->tisn);
	mlx5_devx_wq_fill(MLX5_ADDR_OF(sqc, sqc, wq), &attr->wq);
	sq = MLX5_DEVX_OBJ_CREATE(cdev, create_sq, in, out);
	if (sq != NULL)
		sq->id = MLX5_GET(create_sq_out, out, sqn);
	return sq;
}

int
mlx5_devx_cmd_modify_sq(struct mlx5_devx_obj *sq,
			const struct mlx5_devx_sq_modify *m)
{
	uint32_t in[MLX5_ST_SZ_DW(modify_sq_in)] = { 0 };
	uint32_t out[MLX5_ST_SZ_DW(modify_sq_out)];
	void *sqc = MLX5_ADDR_OF(modify_sq_in, in, ctx);

	MLX5_SET(modify_sq_in, in, opcode, MLX5_CMD_OP_MODIFY_SQ);
	MLX5_SET(modify_sq_in, in, sq_state, m->cur_state);
	MLX5_SET(modify_sq_in, in, sqn, sq->id);
	MLX5_SET(sqc, sqc, state, m->new_state);
	/* RDY -> RDY with the rate-limit bit: a new pacing entry. */
	if (m->set_rate) {
		MLX5_SET64(modify_sq_in, in, modify_bitmask,
			MLX5_MODIFY_SQ_BITMASK_PACKET_PACING_RATE_LIMIT_INDEX);
		MLX5_SET(sqc, sqc, packet_pacing_rate_limit_index,
			 m->rate_index);
	}
	return MLX5_DEVX_OBJ_MODIFY(sq, modify_sq, in, out);
}

int
mlx5_devx_cmd_query_sq(struct mlx5_devx_obj *sq,
		       struct mlx5_devx_wq_info *info)
{
	uint32_t in[MLX5_ST_SZ_DW(query_sq_in)] = { 0 };
	uint32_t out[MLX5_ST_SZ_DW(query_sq_out)];
	const void *sqc = MLX5_ADDR_OF(query_sq_out, out, sq_context);
	int ret;

	MLX5_SET(query_sq_in, in, opcode, MLX5_CMD_OP_QUERY_SQ);
	MLX5_SET(query_sq_in, in, sqn, sq->id);
	ret = MLX5_DEVX_OBJ_QUERY(sq, query_sq, in, out);
	if (ret != 0)
		return ret;
	info->state = MLX5_GET(sqc, sqc, state);
	info->cqn = MLX5_GET(sqc, sqc, cqn);
	info->rate_index = MLX5_GET(sqc, sqc,
				    packet_pacing_rate_limit_index);
	info->hw_counter = MLX5_GET(sqc, sqc, wq.hw_counter);
	return 0;
}

struct mlx5_devx_obj *
mlx5_devx_cmd_create_rq(struct mlx5_common_device *cdev,
			const struct mlx5_devx_rq_attr *attr)
{
	uint32_t in[MLX5_ST_SZ_DW(create_rq_in)] = { 0 };
	uint32_t out[MLX5_ST_SZ_DW(create_rq_out)];
	void *rqc = MLX5_ADDR_OF(create_rq_in, in, ctx);
	struct mlx5_devx_obj *rq;

	MLX5_SET(create_rq_in, in, opcode, MLX5_CMD_OP_CREATE_RQ);
	MLX5_SET(rqc, rqc, vsd, attr->vsd);
	MLX5_SET(rqc, rqc, scatter_fcs, attr->scatter_fcs);
	MLX5_SET(rqc, rqc, flush_in_error_en, attr->flush_in_error_en);
	MLX5_SET(rqc, rqc, state, MLX5_WQ_STATE_RST);
	MLX5_SET(rqc, rqc, user_index, attr->user_index);
	MLX5_SET(rqc, rqc, cqn, attr->cqn);
	MLX5_SET(rqc, rqc, counter_set_id, attr->counter_set_id);
	mlx5_devx_wq_fill(MLX5_ADDR_OF(rqc, rqc, wq), &attr->wq);
	rq = MLX5_DEVX_OBJ_CREATE(cdev, create_rq, in, out);
	if (rq != NULL)
		rq->id = MLX5_GET(create_rq_out, out, rqn);
	return rq;
}

int
mlx5_devx_cmd_modify_rq(struct mlx5_devx_obj *rq, uint8_t cur_state,
			uint8_t new_state)
{
	uint32_t in[MLX5_ST_SZ_DW(modify_rq_in)] = { 0 };
	uint32_t out[MLX5_ST_SZ_DW(modify_rq_out)];
	void *rqc = MLX5_ADDR_OF(modify_rq_in, in, ctx);

	MLX5_SET(modify_rq_in, in, opcode, MLX5_CMD_OP_MODIFY_RQ);
	MLX5_SET(modify_rq_in, in, rq_state, cur_state);
	MLX5_SET(modify_rq_in, in, rqn, rq->id);
	MLX5_SET(rqc, rqc, state, new_state);
	return MLX5_DEVX_OBJ_MODIFY(rq, modify_rq, in, out);
}

int
mlx5_devx_cmd_query_rq(struct mlx5_devx_obj *rq,
		       struct mlx5_devx_wq_info *info)
{
	uint32_t in[MLX5_ST_SZ_DW(query_rq_in)] = { 0 };
	uint32_t out[MLX5_ST_SZ_DW(query_rq_out)];
	const void *rqc = MLX5_ADDR_OF(query_rq_out, out, rq_context);
	int ret;

	MLX5_SET(query_rq_in, in, opcode, MLX5_CMD_OP_QUERY_RQ);
	MLX5_SET(query_rq_in, in, rqn, rq->id);
	ret = MLX5_DEVX_OBJ_QUERY(rq, query_rq, in, out);
	if (ret != 0)
		return ret;
	info->state = MLX5_GET(rqc, rqc, state);
	info->cqn = MLX5_GET(rqc, rqc, cqn);
	info->rate_index = 0;
	info->hw_counter = MLX5_GET(rqc, rqc, wq.hw_counter);
	info->counter_set_id = MLX5_GET(rqc, rqc, counter_set_id);
	return 0;
}

int
mlx5_devx_cmd_query_nic_vport(struct mlx5_common_device *cdev,
			      struct mlx5_nic_vport_info *info)
{
	uint32_t in[MLX5_ST_SZ_DW(query_nic_vport_context_in)] = { 0 };
	uint32_t out[MLX5_ST_SZ_DW(query_nic_vport_context_out)];
	const void *ctx = MLX5_ADDR_OF(query_nic_vport_context_out, out,
				       nic_vport_context);
	const uint8_t *mac;
	int ret;

	MLX5_SET(query_nic_vport_context_in, in, opcode,
		 MLX5_CMD_OP_QUERY_NIC_VPORT_CONTEXT);
	ret = MLX5_DEVX_CMD(cdev, query_nic_vport_context, in, out);
	if (ret != 0)
		return ret;
	/* The MAC: the last 6 bytes of the 8-byte permanent_address. */
	mac = (const uint8_t *)MLX5_ADDR_OF(nic_vport_context, ctx,
					    permanent_address) + 2;
	memcpy(info->mac, mac, sizeof(info->mac));
	info->mtu = MLX5_GET(nic_vport_context, ctx, mtu);
	info->roce_en = MLX5_GET(nic_vport_context, ctx, roce_en);
	info->min_wqe_inline_mode = MLX5_GET(nic_vport_context, ctx,
					     min_wqe_inline_mode);
	info->promisc_uc = MLX5_GET(nic_vport_context, ctx, promisc_uc);
	info->promisc_mc = MLX5_GET(nic_vport_context, ctx, promisc_mc);
	info->promisc_all = MLX5_GET(nic_vport_context, ctx, promisc_all);
	return 0;
}

int
mlx5_devx_cmd_query_vport_state(struct mlx5_common_device *cdev,
				uint8_t *admin_state, uint8_t *state)
{
	uint32_t in[MLX5_ST_SZ_DW(query_vport_state_in)] = { 0 };
	uint32_t out[MLX5_ST_SZ_DW(query_vport_state_out)];
	int ret;

	MLX5_SET(query_vport_state_in, in, opcode,
		 MLX5_CMD_OP_QUERY_VPORT_STATE);
	ret = MLX5_DEVX_CMD(cdev, query_vport_state, in, out);
	if (ret != 0)
		return ret;
	if (admin_state != NULL)
		*admin_state = MLX5_GET(query_vport_state_out, out,
					admin_state);
	if (state != NULL)
		*state = MLX5_GET(query_vport_state_out, out, state);
	return 0;
}

/* A CREATE_RQT or MODIFY_RQT mailbox with @n RQ numbers after it. */
static void *
mlx5_devx_rqt_mbox(size_t base, uint32_t n, size_t *len)
{
	*len = base + (size_t)n * MLX5_ST_SZ_BYTES(rq_num);
	return calloc(1, *len);
}

static void
mlx5_devx_rqt_fill(void *rqtc, const uint32_t *rqns, uint32_t n,
		   uint32_t max)
{
	uint8_t *list = (uint8_t *)rqtc + MLX5_ST_SZ_BYTES(rqtc);

	MLX5_SET(rqtc, rqtc, rqt_max_size, max);
	MLX5_SET(rqtc, rqtc, rqt_actual_size, n);
	for (uint32_t i = 0; i < n; i++)
		MLX5_SET(rq_num, list + i * MLX5_ST_SZ_BYTES(rq_num), rq_num,
			 rqns[i]);
}

struct mlx5_devx_obj *
mlx5_devx_cmd_create_rqt(struct mlx5_common_device *cdev,
			 const uint32_t *rqns, uint32_t n, uint32_t max)
{
	uint32_t out[MLX5_ST_SZ_DW(create_rqt_out)];
	struct mlx5_devx_obj *rqt;
	size_t len;
	void *in;

	if (n == 0 || n > max || max > UINT16_MAX) {
		DRV_LOG(ERR, "%s: RQT of %u entries (room for %u)",
			cdev->dev->name, n, max);
		rte_errno = EINVAL;
		return NULL;
	}
	in = mlx5_devx_rqt_mbox(MLX5_ST_SZ_BYTES(create_rqt_in), n, &len);
	if (in == NULL) {
		rte_errno = ENOMEM;
		return NULL;
	}
	MLX5_SET(create_rqt_in, in, opcode, MLX5_CMD_OP_CREATE_RQT);
	mlx5_devx_rqt_fill(MLX5_ADDR_OF(create_rqt_in, in, rqt_context), rqns,
			   n, max);
	rqt = mlx5_devx_obj_create(cdev, "CREATE_RQT", in, len, out,
				   sizeof(out));
	free(in);
	if (rqt != NULL)
		rqt->id = MLX5_GET(create_rqt_out, out, rqtn);
	return rqt;
}

int
mlx5_devx_cmd_modify_rqt(struct mlx5_devx_obj *rqt, const uint32_t *rqns,
			 uint32_t n, uint32_t max)
{
	uint32_t out[MLX5_ST_SZ_DW(modify_rqt_out)];
	size_t len;
	void *in;
	int ret;

	if (n == 0 || n > max || max > UINT16_MAX) {
		rte_errno = EINVAL;
		return -EINVAL;
	}
	in = mlx5_devx_rqt_mbox(MLX5_ST_SZ_BYTES(modify_rqt_in), n, &len);
	if (in == NULL) {
		rte_errno = ENOMEM;
		return -ENOMEM;
	}
	MLX5_SET(modify_rqt_in, in, opcode, MLX5_CMD_OP_MODIFY_RQT);
	MLX5_SET(modify_rqt_in, in, rqtn, rqt->id);
	MLX5_SET64(modify_rqt_in, in, bitmask,
		   MLX5_MODIFY_RQT_BITMASK_RQN_LIST);
	mlx5_devx_rqt_fill(MLX5_ADDR_OF(modify_rqt_in, in, ctx), rqns, n,
			   max);
	ret = mlx5_devx_obj_modify(rqt, "MODIFY_RQT", in, len, out,
				   sizeof(out));
	free(in);
	return ret;
}

struct mlx5_devx_obj *
mlx5_devx_cmd_create_tir(struct mlx5_common_device *cdev,
			 const struct mlx5_devx_tir_attr *attr)
{
	uint32_t in[MLX5_ST_SZ_DW(create_tir_in)] = { 0 };
	uint32_t out[MLX5_ST_SZ_DW(create_tir_out)];
	void *tirc = MLX5_ADDR_OF(create_tir_in, in, ctx);
	void *sel = MLX5_ADDR_OF(tirc, tirc, rx_hash_field_selector_outer);
	struct mlx5_devx_obj *tir;

	MLX5_SET(create_tir_in, in, opcode, MLX5_CMD_OP_CREATE_TIR);
	MLX5_SET(tirc, tirc, disp_type, attr->disp_type);
	MLX5_SET(tirc, tirc, transport_domain, attr->transport_domain);
	MLX5_SET(tirc, tirc, self_lb_block, attr->self_lb_block);
	if (attr->disp_type == MLX5_TIRC_DISP_TYPE_DIRECT) {
		MLX5_SET(tirc, tirc, inline_rqn, attr->inline_rqn);
	} else {
		MLX5_SET(tirc, tirc, indirect_table, attr->indirect_table);
		MLX5_SET(tirc, tirc, rx_hash_fn, attr->rx_hash_fn);
		MLX5_SET(tirc, tirc, rx_hash_symmetric,
			 attr->rx_hash_symmetric);
		memcpy(MLX5_ADDR_OF(tirc, tirc, rx_hash_toeplitz_key),
		       attr->rx_hash_toeplitz_key, MLX5_RSS_HASH_KEY_LEN);
		MLX5_SET(rx_hash_field_select, sel, l3_prot_type,
			 attr->l3_prot_type);
		MLX5_SET(rx_hash_field_select, sel, l4_prot_type,
			 attr->l4_prot_type);
		MLX5_SET(rx_hash_field_select, sel, selected_fields,
			 attr->selected_fields);
	}
	tir = MLX5_DEVX_OBJ_CREATE(cdev, create_tir, in, out);
	if (tir != NULL)
		tir->id = MLX5_GET(create_tir_out, out, tirn);
	return tir;
}

struct mlx5_devx_obj *
mlx5_devx_cmd_queue_counter_alloc(struct mlx5_common_device *cdev)
{
	uint32_t in[MLX5_ST_SZ_DW(alloc_q_counter_in)] = { 0 };
	uint32_t out[MLX5_ST_SZ_DW(alloc_q_counter_out)];
	struct mlx5_devx_obj *dcs;

	if (cdev->caps.max_q_counters == 0) {
		DRV_LOG(ERR, "%s: queue counter: the device has none (max_qp_cnt 0)",
			cdev->dev->name);
		rte_errno = ENOTSUP;
		return NULL;
	}
	MLX5_SET(alloc_q_counter_in, in, opcode, MLX5_CMD_OP_ALLOC_Q_COUNTER);
	dcs = MLX5_DEVX_OBJ_CREATE(cdev, alloc_q_counter, in, out);
	if (dcs != NULL)
		dcs->id = MLX5_GET(alloc_q_counter_out, out, counter_set_id);
	return dcs;
}

int
mlx5_devx_cmd_queue_counter_query(struct mlx5_devx_obj *dcs, bool clear,
				  struct mlx5_devx_q_counter_info *info)
{
	uint32_t in[MLX5_ST_SZ_DW(query_q_counter_in)] = { 0 };
	uint32_t out[MLX5_ST_SZ_DW(query_q_counter_out)];
	int ret;

	if (dcs == NULL || info == NULL) {
		DRV_LOG(ERR, "queue counter query: no %s",
			dcs == NULL ? "counter set" : "place for the counters");
		rte_errno = EINVAL;
		return -EINVAL;
	}
	/* counter_set_id is 8 bits and 0 means none: not a counter set. */
	if (dcs->id == 0 || dcs->id > UINT8_MAX) {
		DRV_LOG(ERR, "queue counter query: object id 0x%x is not a counter set id",
			dcs->id);
		rte_errno = EINVAL;
		return -EINVAL;
	}
	MLX5_SET(query_q_counter_in, in, opcode, MLX5_CMD_OP_QUERY_Q_COUNTER);
	MLX5_SET(query_q_counter_in, in, clear, clear);
	MLX5_SET(query_q_counter_in, in, counter_set_id, dcs->id);
	ret = MLX5_DEVX_OBJ_QUERY(dcs, query_q_counter, in, out);
	if (ret != 0)
		return ret;
	info->out_of_buffer = MLX5_GET(query_q_counter_out, out, out_of_buffer);
	return 0;
}
