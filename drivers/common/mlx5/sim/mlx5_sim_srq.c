/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * Receive memory pools (RMPs): what the kernel makes of a verbs SRQ on a
 * device of ISSI 1 (drivers/infiniband/hw/mlx5/srq_cmd.c: create_rmp_cmd,
 * query_rmp_cmd, arm_rmp_cmd). Created in the RDY state by the kernel for
 * ibv_create_srq() only (a DEVX CREATE_RMP is not modelled), queried
 * (QUERY_RMP), given a limit watermark (MODIFY_RMP of lwm, RDY to RDY) and
 * destroyed. Nothing is received through an RMP: no QP uses one yet.
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

void
mlx5_sim_rmp_reclaim(struct mlx5_sim_vhca *vhca,
		     const struct mlx5_sim_devx_obj *obj)
{
	struct mlx5_sim_rmp *rmp = sim_rmp_of(obj->file, obj->index);

	if (rmp != NULL) {
		sim_rmp_free(vhca, rmp);
		vhca->reclaimed++;
	}
}
