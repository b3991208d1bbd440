/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * Receive memory pools (RMPs): what the kernel makes of a verbs SRQ on a
 * device of ISSI 1 (drivers/infiniband/hw/mlx5/srq_cmd.c: create_rmp_cmd,
 * query_rmp_cmd, arm_rmp_cmd). Created in the RDY state by the kernel for
 * ibv_create_srq() only (a DEVX CREATE_RMP is not modelled), queried
 * (QUERY_RMP), given a limit watermark (MODIFY_RMP of lwm, RDY to RDY) and
 * destroyed. QPs created on one receive through it (mlx5_sim_rc.c).
 *
 * XRC (IBTA's extended reliable connected transport): XRC domains
 * (ALLOC_XRCD) and XRC SRQs (CREATE_XRC_SRQ, as srq_cmd.c's
 * create_xrc_srq_cmd builds it for ibv_create_srq_ex() of IBV_SRQT_XRC).
 * An XRC SRQ is an SRQ with a CQ of its own and an XRC domain: a message
 * of an XRC initiator QP names it (the XRC segment of the WQE, the
 * packet's XRCETH) and an XRC target QP of the same domain receives the
 * message into it, its completion on the SRQ's CQ carrying the SRQ's
 * user_index. Its WQEs are an RMP's (a next segment, then data
 * segments); xrc_srqc.log_rq_stride counts 16 bytes (the kernel's
 * wqe_shift - 4). Its limit (ARM_XRC_SRQ) and DEVX on it are not
 * modelled.
 */

#include <stdlib.h>

#include "mlx5_sim_priv.h"

/* Receive WQE strides: the next segment and 1..31 data segments. */
#define SIM_RMP_LOG_STRIDE_MIN 5
#define SIM_RMP_LOG_STRIDE_MAX 9
#define SIM_RMP_LOG_MAX_SZ 15

static struct mlx5_sim_rmp *
sim_rmp_of(struct mlx5_sim_file *file, uint32_t rmpn)
{
	struct mlx5_sim_rmp *rmp = mlx5_sim_qnum_get(&file->vhca->qps, rmpn,
						     MLX5_SIM_Q_RMP);

	return rmp != NULL && rmp->wq.file == file ? rmp : NULL;
}

static struct mlx5_sim_rmp *
sim_xsrq_of(struct mlx5_sim_file *file, uint32_t srqn)
{
	struct mlx5_sim_rmp *srq = mlx5_sim_qnum_get(&file->vhca->qps, srqn,
						     MLX5_SIM_Q_XSRQ);

	return srq != NULL && srq->wq.file == file ? srq : NULL;
}

uint32_t
mlx5_sim_rmp_create(struct mlx5_sim_file *file, const void *in,
		    const struct mlx5_sim_umem_ref *ring,
		    const struct mlx5_sim_umem_ref *dbr, void *out,
		    struct mlx5_sim_devx_obj *obj)
{
	struct mlx5_sim_vhca *vhca = file->vhca;
	const void *rmpc = MLX5_ADDR_OF(create_rmp_in, in, ctx);
	const void *wq = MLX5_ADDR_OF(rmpc, rmpc, wq);
	struct mlx5_sim_file *owner = NULL;
	struct mlx5_sim_pd_obj *pd;
	struct mlx5_sim_rmp *rmp;
	uint8_t stride = MLX5_GET(wq, wq, log_wq_stride);
	uint8_t size = MLX5_GET(wq, wq, log_wq_sz);

	/* The kernel's verbs SRQ only: DEVX RMPs are not modelled. */
	if (ring == NULL)
		return MLX5_SIM_SYND_BAD_OPCODE;
	if (MLX5_GET(rmpc, rmpc, state) != MLX5_RMPC_STATE_RDY ||
	    MLX5_GET(wq, wq, wq_type) != MLX5_WQ_TYPE_LINKED_LIST ||
	    stride < SIM_RMP_LOG_STRIDE_MIN ||
	    stride > SIM_RMP_LOG_STRIDE_MAX || size > SIM_RMP_LOG_MAX_SZ ||
	    ((size_t)1 << (size + stride)) > ring->umem->size)
		return MLX5_SIM_SYND_RMP_PARAM;
	pd = mlx5_sim_pd_find(vhca, MLX5_GET(wq, wq, pd), &owner);
	if (pd == NULL || owner != file)
		return MLX5_SIM_SYND_RMP_PD;
	rmp = calloc(1, sizeof(*rmp));
	if (rmp == NULL || mlx5_sim_idtab_alloc(&vhca->qps, rmp, &rmp->rmpn)) {
		free(rmp);
		return MLX5_SIM_SYND_RMP_TABLE_FULL;
	}
	rmp->qkind = MLX5_SIM_Q_RMP;
	rmp->wq.file = file;
	rmp->wq.pd = pd;
	rmp->wq.pdn = MLX5_GET(wq, wq, pd);
	rmp->wq.ring = *ring;
	rmp->wq.dbr = *dbr;
	rmp->wq.wq_type = MLX5_WQ_TYPE_LINKED_LIST;
	rmp->wq.log_wq_stride = stride;
	rmp->wq.log_wq_sz = size;
	rmp->wq.state = MLX5_RMPC_STATE_RDY;
	rmp->lwm = MLX5_GET(wq, wq, lwm);
	pd->users++;
	ring->umem->users++;
	dbr->umem->users++;
	vhca->live.srqs++;
	MLX5_SET(create_rmp_out, out, rmpn, rmp->rmpn);
	obj->kind = MLX5_SIM_OBJ_SRQ;
	obj->index = rmp->rmpn;
	return MLX5_SIM_SYND_OK;
}

static void
sim_rmp_free(struct mlx5_sim_vhca *vhca, struct mlx5_sim_rmp *rmp)
{
	rmp->wq.pd->users--;
	rmp->wq.ring.umem->users--;
	rmp->wq.dbr.umem->users--;
	mlx5_sim_idtab_free(&vhca->qps, rmp->rmpn);
	vhca->live.srqs--;
	free(rmp);
}

static uint32_t
sim_rmp_query(struct mlx5_sim_rmp *rmp, void *out)
{
	void *rmpc = MLX5_ADDR_OF(query_rmp_out, out, rmp_context);
	void *wq = MLX5_ADDR_OF(rmpc, rmpc, wq);

	MLX5_SET(rmpc, rmpc, state, rmp->wq.state);
	MLX5_SET(wq, wq, wq_type, rmp->wq.wq_type);
	MLX5_SET(wq, wq, lwm, rmp->lwm);
	MLX5_SET(wq, wq, pd, rmp->wq.pdn);
	MLX5_SET(wq, wq, log_wq_stride, rmp->wq.log_wq_stride);
	MLX5_SET(wq, wq, log_wq_sz, rmp->wq.log_wq_sz);
	MLX5_SET64(wq, wq, dbr_addr,
		   rmp->wq.dbr.host - rmp->wq.dbr.umem->addr);
	return MLX5_SIM_SYND_OK;
}

/* The kernel's arm_rmp_cmd(): a new lwm, the RMP staying RDY. */
static uint32_t
sim_rmp_modify(struct mlx5_sim_rmp *rmp, const void *in)
{
	const void *rmpc = MLX5_ADDR_OF(modify_rmp_in, in, ctx);
	const void *wq = MLX5_ADDR_OF(rmpc, rmpc, wq);

	if (MLX5_GET(modify_rmp_in, in, rmp_state) != rmp->wq.state)
		return MLX5_SIM_SYND_RMP_STATE;
	if (MLX5_GET(rmpc, rmpc, state) != MLX5_RMPC_STATE_RDY ||
	    MLX5_GET(modify_rmp_in, in, bitmask.reserved_at_0) != 0 ||
	    MLX5_GET(modify_rmp_in, in, bitmask.reserved_at_20) != 0)
		return MLX5_SIM_SYND_RMP_BITMASK;
	if (MLX5_GET(modify_rmp_in, in, bitmask.lwm))
		rmp->lwm = MLX5_GET(wq, wq, lwm);
	return MLX5_SIM_SYND_OK;
}

uint32_t
mlx5_sim_cmd_rmp(struct mlx5_sim_file *file, uint16_t opcode, const void *in,
		 void *out)
{
	/* QUERY, MODIFY and DESTROY_RMP name the RMP at the same place. */
	struct mlx5_sim_rmp *rmp = sim_rmp_of(file,
		MLX5_GET(query_rmp_in, in, rmpn));

	if (rmp == NULL)
		return MLX5_SIM_SYND_RMP_UNKNOWN;
	switch (opcode) {
	case MLX5_CMD_OP_QUERY_RMP:
		return sim_rmp_query(rmp, out);
	case MLX5_CMD_OP_MODIFY_RMP:
		return sim_rmp_modify(rmp, in);
	case MLX5_CMD_OP_DESTROY_RMP:
		if (rmp->users != 0)
			return MLX5_SIM_SYND_RMP_BUSY;
		sim_rmp_free(file->vhca, rmp);
		return MLX5_SIM_SYND_OK;
	default:
		return MLX5_SIM_SYND_BAD_OPCODE;
	}
}

static void sim_xsrq_free(struct mlx5_sim_vhca *vhca,
			  struct mlx5_sim_rmp *srq);

void
mlx5_sim_rmp_reclaim(struct mlx5_sim_vhca *vhca,
		     const struct mlx5_sim_devx_obj *obj)
{
	struct mlx5_sim_rmp *rmp = sim_rmp_of(obj->file, obj->index);
	struct mlx5_sim_rmp *xsrq = sim_xsrq_of(obj->file, obj->index);

	if (rmp != NULL)
		sim_rmp_free(vhca, rmp);
	else if (xsrq != NULL)
		sim_xsrq_free(vhca, xsrq);
	else
		return;
	vhca->reclaimed++;
}

struct mlx5_sim_xrcd *
mlx5_sim_xrcd_of(struct mlx5_sim_file *file, uint32_t xrcdn)
{
	struct mlx5_sim_xrcd *x = mlx5_sim_idtab_get(&file->vhca->xrcds, xrcdn);

	return x != NULL && x->file == file ? x : NULL;
}

uint32_t
mlx5_sim_xsrq_create(struct mlx5_sim_file *file, const void *in,
		     const struct mlx5_sim_umem_ref *ring,
		     const struct mlx5_sim_umem_ref *dbr, void *out,
		     struct mlx5_sim_devx_obj *obj)
{
	struct mlx5_sim_vhca *vhca = file->vhca;
	const void *c = MLX5_ADDR_OF(create_xrc_srq_in, in,
				     xrc_srq_context_entry);
	/* 16-byte units: the WQE stride is 2^(log_rq_stride + 4) bytes. */
	uint32_t stride = MLX5_GET(xrc_srqc, c, log_rq_stride) + 4u;
	uint32_t size = MLX5_GET(xrc_srqc, c, log_xrc_srq_size);
	struct mlx5_sim_file *owner = NULL;
	struct mlx5_sim_pd_obj *pd;
	struct mlx5_sim_xrcd *xrcd;
	struct mlx5_sim_rmp *srq;
	struct mlx5_sim_cq *cq;

	/* The kernel's verbs XRC SRQ only: DEVX XRC SRQs are not modelled. */
	if (ring == NULL)
		return MLX5_SIM_SYND_BAD_OPCODE;
	if (MLX5_GET(xrc_srqc, c, state) != MLX5_XRC_SRQC_STATE_GOOD ||
	    stride < SIM_RMP_LOG_STRIDE_MIN ||
	    stride > SIM_RMP_LOG_STRIDE_MAX || size > SIM_RMP_LOG_MAX_SZ ||
	    ((size_t)1 << (size + stride)) > ring->umem->size)
		return MLX5_SIM_SYND_XSRQ_PARAM;
	xrcd = mlx5_sim_xrcd_of(file, MLX5_GET(xrc_srqc, c, xrcd));
	pd = mlx5_sim_pd_find(vhca, MLX5_GET(xrc_srqc, c, pd), &owner);
	cq = mlx5_sim_cq_of(file, MLX5_GET(xrc_srqc, c, cqn));
	if (xrcd == NULL || pd == NULL || owner != file || cq == NULL)
		return MLX5_SIM_SYND_XSRQ_RES;
	srq = calloc(1, sizeof(*srq));
	if (srq == NULL || mlx5_sim_idtab_alloc(&vhca->qps, srq, &srq->rmpn)) {
		free(srq);
		return MLX5_SIM_SYND_RMP_TABLE_FULL;
	}
	srq->qkind = MLX5_SIM_Q_XSRQ;
	srq->wq.file = file;
	srq->wq.pd = pd;
	srq->wq.pdn = MLX5_GET(xrc_srqc, c, pd);
	srq->wq.cqn = cq->cqn;
	srq->wq.user_index = MLX5_GET(xrc_srqc, c, user_index);
	srq->wq.ring = *ring;
	srq->wq.dbr = *dbr;
	srq->wq.wq_type = MLX5_WQ_TYPE_LINKED_LIST;
	srq->wq.log_wq_stride = (uint8_t)stride;
	srq->wq.log_wq_sz = (uint8_t)size;
	srq->wq.state = MLX5_XRC_SRQC_STATE_GOOD;
	srq->lwm = MLX5_GET(xrc_srqc, c, lwm);
	srq->xrcdn = xrcd->xrcdn;
	xrcd->users++;
	cq->users++;
	pd->users++;
	ring->umem->users++;
	dbr->umem->users++;
	vhca->live.srqs++;
	MLX5_SET(create_xrc_srq_out, out, xrc_srqn, srq->rmpn);
	obj->kind = MLX5_SIM_OBJ_SRQ;
	obj->index = srq->rmpn;
	return MLX5_SIM_SYND_OK;
}

static void
sim_xsrq_free(struct mlx5_sim_vhca *vhca, struct mlx5_sim_rmp *srq)
{
	struct mlx5_sim_xrcd *xrcd = mlx5_sim_idtab_get(&vhca->xrcds,
							srq->xrcdn);
	struct mlx5_sim_cq *cq = mlx5_sim_idtab_get(&vhca->cqs, srq->wq.cqn);

	/* No XRC target keeps it as the SRQ of a message. */
	for (uint32_t i = 0; i < vhca->qps.size; i++) {
		struct mlx5_sim_qp *qp =
			mlx5_sim_qnum_get(&vhca->qps, i, MLX5_SIM_Q_QP);

		if (qp != NULL && qp->xrc_srq == srq)
			qp->xrc_srq = NULL;
	}
	if (xrcd != NULL)
		xrcd->users--;
	if (cq != NULL)
		cq->users--;
	srq->wq.pd->users--;
	srq->wq.ring.umem->users--;
	srq->wq.dbr.umem->users--;
	mlx5_sim_idtab_free(&vhca->qps, srq->rmpn);
	vhca->live.srqs--;
	free(srq);
}

uint32_t
mlx5_sim_cmd_xsrq(struct mlx5_sim_file *file, uint16_t opcode, const void *in,
		  void *out)
{
	/* DESTROY and QUERY_XRC_SRQ name the SRQ at the same place. */
	struct mlx5_sim_rmp *srq = sim_xsrq_of(file,
		MLX5_GET(query_xrc_srq_in, in, xrc_srqn));
	void *c;

	if (srq == NULL)
		return MLX5_SIM_SYND_XSRQ_UNKNOWN;
	switch (opcode) {
	case MLX5_CMD_OP_QUERY_XRC_SRQ:
		c = MLX5_ADDR_OF(query_xrc_srq_out, out, xrc_srq_context_entry);
		MLX5_SET(xrc_srqc, c, state, srq->wq.state);
		MLX5_SET(xrc_srqc, c, log_xrc_srq_size, srq->wq.log_wq_sz);
		MLX5_SET(xrc_srqc, c, log_rq_stride, srq->wq.log_wq_stride - 4u);
		MLX5_SET(xrc_srqc, c, xrcd, srq->xrcdn);
		MLX5_SET(xrc_srqc, c, cqn, srq->wq.cqn);
		MLX5_SET(xrc_srqc, c, user_index, srq->wq.user_index);
		MLX5_SET(xrc_srqc, c, pd, srq->wq.pdn);
		MLX5_SET(xrc_srqc, c, lwm, srq->lwm);
		return MLX5_SIM_SYND_OK;
	case MLX5_CMD_OP_DESTROY_XRC_SRQ:
		sim_xsrq_free(file->vhca, srq);
		return MLX5_SIM_SYND_OK;
	default:
		return MLX5_SIM_SYND_BAD_OPCODE;
	}
}

uint32_t
mlx5_sim_cmd_xrcd(struct mlx5_sim_file *file, uint16_t opcode, const void *in,
		  void *out, struct mlx5_sim_devx_obj *obj)
{
	struct mlx5_sim_vhca *vhca = file->vhca;
	struct mlx5_sim_xrcd *x;

	switch (opcode) {
	case MLX5_CMD_OP_ALLOC_XRCD:
		x = calloc(1, sizeof(*x));
		if (x == NULL ||
		    mlx5_sim_idtab_alloc(&vhca->xrcds, x, &x->xrcdn) != 0) {
			free(x);
			return MLX5_SIM_SYND_XRCD_TABLE_FULL;
		}
		x->file = file;
		vhca->live.xrcds++;
		MLX5_SET(alloc_xrcd_out, out, xrcd, x->xrcdn);
		obj->kind = MLX5_SIM_OBJ_XRCD;
		obj->index = x->xrcdn;
		return MLX5_SIM_SYND_OK;
	case MLX5_CMD_OP_DEALLOC_XRCD:
		x = mlx5_sim_xrcd_of(file, MLX5_GET(dealloc_xrcd_in, in, xrcd));
		if (x == NULL)
			return MLX5_SIM_SYND_XRCD_UNKNOWN;
		if (x->users != 0)
			return MLX5_SIM_SYND_XRCD_BUSY;
		mlx5_sim_idtab_free(&vhca->xrcds, x->xrcdn);
		vhca->live.xrcds--;
		free(x);
		return MLX5_SIM_SYND_OK;
	default:
		return MLX5_SIM_SYND_BAD_OPCODE;
	}
}

void
mlx5_sim_xrcd_reclaim(struct mlx5_sim_vhca *vhca,
		      const struct mlx5_sim_devx_obj *obj)
{
	struct mlx5_sim_xrcd *x = mlx5_sim_xrcd_of(obj->file, obj->index);

	if (x == NULL)
		return;
	mlx5_sim_idtab_free(&vhca->xrcds, x->xrcdn);
	vhca->live.xrcds--;
	vhca->reclaimed++;
	free(x);
}
