/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * libmlx5.so.1 of the rdma-core front: the mlx5 direct-verbs calls
 * (DEVX commands and objects, umems, UARs, mkeys, pacing entries,
 * mlx5dv_init_obj, the flow calls, QPs with mkey send operations) over
 * the device model.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sim_rdma.h"

bool
mlx5dv_is_supported(struct ibv_device *device)
{
	return sim_rdma_dev_of(device) != NULL;
}

struct ibv_context *
mlx5dv_open_device(struct ibv_device *device, struct mlx5dv_context_attr *attr)
{
	struct ibv_context *ctx;

	if (sim_rdma_dev_of(device) == NULL) {
		errno = EOPNOTSUPP;
		return NULL;
	}
	ctx = sim_rdma_open(device, attr);
	return ctx != NULL ? sim_rdma_ctx_init(ctx) : NULL;
}

int
mlx5dv_query_device(struct ibv_context *ctx, struct mlx5dv_context *attrs)
{
	uint64_t asked = attrs->comp_mask;
	struct mlx5_sim_ctx *sctx = mlx5_sim_ctx_get(ctx);
	uint32_t zip_max;

	if (sctx == NULL)
		return EINVAL;
	zip_max = sctx->file->vhca->caps.cqe_comp_max;
	memset(attrs, 0, sizeof(*attrs));
	attrs->version = 0;
	/*
	 * CQE version 1. Multi-packet send as mlx5_ib reports the Ethernet
	 * capabilities: MPW_ALLOWED from multi_pkt_send_wqe, ENHANCED_MPW
	 * from enhanced_multi_pkt_send_wqe (the model sets both or none:
	 * the empw setting; it runs enhanced MPW WQEs, not the legacy ones).
	 */
	attrs->flags = MLX5DV_CONTEXT_FLAGS_CQE_V1;
	if (sctx->file->vhca->caps.empw)
		attrs->flags |= MLX5DV_CONTEXT_FLAGS_MPW_ALLOWED |
				MLX5DV_CONTEXT_FLAGS_ENHANCED_MPW;
	/* Of the optional fields, those the model can answer. */
	attrs->comp_mask = asked & (MLX5DV_CONTEXT_MASK_NUM_LAG_PORTS |
				    MLX5DV_CONTEXT_MASK_CQE_COMPRESION);
	if (attrs->comp_mask & MLX5DV_CONTEXT_MASK_NUM_LAG_PORTS)
		attrs->num_lag_ports = 0;
	/*
	 * CQE compression as mlx5_ib reports the cqe_compression
	 * capability: the session's maximum and the hash and checksum
	 * mini-CQEs (no stride index: no striding RQ); zeros without it.
	 */
	if (attrs->comp_mask & MLX5DV_CONTEXT_MASK_CQE_COMPRESION) {
		attrs->cqe_comp_caps.max_num = zip_max;
		attrs->cqe_comp_caps.supported_format =
			zip_max != 0 ? MLX5DV_CQE_RES_FORMAT_HASH |
					       MLX5DV_CQE_RES_FORMAT_CSUM :
				       0;
	}
	return 0;
}

struct ibv_qp *
mlx5dv_create_qp(struct ibv_context *ctx, struct ibv_qp_init_attr_ex *qp_attr,
		 struct mlx5dv_qp_init_attr *mlx5_qp_attr)
{
	if (mlx5_sim_ctx_get(ctx) == NULL || qp_attr == NULL) {
		errno = EINVAL;
		return NULL;
	}
	return sim_rdma_create_qp_dv(ctx, qp_attr, mlx5_qp_attr);
}

struct mlx5dv_qp_ex *
mlx5dv_qp_ex_from_ibv_qp_ex(struct ibv_qp_ex *qp)
{
	return sim_rdma_dv_qpx(qp);
}

int
mlx5dv_init_obj(struct mlx5dv_obj *obj, uint64_t obj_type)
{
	return mlx5_sim_dv_init_obj(obj, obj_type);
}

int
mlx5dv_devx_general_cmd(struct ibv_context *ctx, const void *in, size_t inlen,
			void *out, size_t outlen)
{
	return mlx5_sim_general_cmd(ctx, in, inlen, out, outlen);
}

struct mlx5dv_devx_obj *
mlx5dv_devx_obj_create(struct ibv_context *ctx, const void *in, size_t inlen,
		       void *out, size_t outlen)
{
	return mlx5_sim_obj_create(ctx, in, inlen, out, outlen);
}

int
mlx5dv_devx_obj_query(struct mlx5dv_devx_obj *obj, const void *in, size_t inlen,
		      void *out, size_t outlen)
{
	return mlx5_sim_obj_query(obj, in, inlen, out, outlen);
}

int
mlx5dv_devx_obj_modify(struct mlx5dv_devx_obj *obj, const void *in,
		       size_t inlen, void *out, size_t outlen)
{
	return mlx5_sim_obj_modify(obj, in, inlen, out, outlen);
}

int
mlx5dv_devx_obj_destroy(struct mlx5dv_devx_obj *obj)
{
	return mlx5_sim_obj_destroy(obj);
}

struct mlx5dv_devx_umem *
mlx5dv_devx_umem_reg(struct ibv_context *ctx, void *addr, size_t size,
		     uint32_t access)
{
	return mlx5_sim_umem_reg(ctx, addr, size, access);
}

struct mlx5dv_devx_umem *
mlx5dv_devx_umem_reg_ex(struct ibv_context *ctx, struct mlx5dv_devx_umem_in *in)
{
	/* A dma-buf umem needs a dma-buf exporter: the host has none. */
	if (in->comp_mask & MLX5DV_UMEM_MASK_DMABUF) {
		errno = EOPNOTSUPP;
		return NULL;
	}
	if (in->comp_mask != 0) {
		errno = EINVAL;
		return NULL;
	}
	return mlx5_sim_umem_reg(ctx, in->addr, in->size, in->access);
}

int
mlx5dv_devx_umem_dereg(struct mlx5dv_devx_umem *umem)
{
	return mlx5_sim_umem_dereg(umem);
}

struct mlx5dv_devx_uar *
mlx5dv_devx_alloc_uar(struct ibv_context *ctx, uint32_t flags)
{
	return mlx5_sim_alloc_uar(ctx, flags);
}

void
mlx5dv_devx_free_uar(struct mlx5dv_devx_uar *uar)
{
	mlx5_sim_free_uar(uar);
}

int
mlx5dv_devx_query_eqn(struct ibv_context *ctx, uint32_t vector, uint32_t *eqn)
{
	return mlx5_sim_query_eqn(ctx, vector, eqn);
}

struct mlx5dv_mkey *
mlx5dv_create_mkey(struct mlx5dv_mkey_init_attr *attr)
{
	return mlx5_sim_dv_create_mkey(attr);
}

int
mlx5dv_destroy_mkey(struct mlx5dv_mkey *mkey)
{
	return mlx5_sim_dv_destroy_mkey(mkey);
}

struct mlx5dv_pp *
mlx5dv_pp_alloc(struct ibv_context *ctx, size_t pp_context_sz,
		const void *pp_context, uint32_t flags)
{
	return mlx5_sim_pp_alloc(ctx, pp_context_sz, pp_context, flags);
}

void
mlx5dv_pp_free(struct mlx5dv_pp *pp)
{
	mlx5_sim_pp_free(pp);
}

int
mlx5dv_devx_qp_query(struct ibv_qp *qp, const void *in, size_t inlen, void *out,
		     size_t outlen)
{
	return mlx5_sim_qp_query(qp, in, inlen, out, outlen);
}

int
mlx5dv_devx_qp_modify(struct ibv_qp *qp, const void *in, size_t inlen,
		      void *out, size_t outlen)
{
	return mlx5_sim_qp_modify(qp, in, inlen, out, outlen);
}

int
mlx5dv_devx_cq_query(struct ibv_cq *cq, const void *in, size_t inlen, void *out,
		     size_t outlen)
{
	return mlx5_sim_cq_query(cq, in, inlen, out, outlen);
}

int
mlx5dv_devx_cq_modify(struct ibv_cq *cq, const void *in, size_t inlen,
		      void *out, size_t outlen)
{
	return mlx5_sim_cq_modify(cq, in, inlen, out, outlen);
}

int
mlx5dv_devx_srq_query(struct ibv_srq *srq, const void *in, size_t inlen,
		      void *out, size_t outlen)
{
	return mlx5_sim_srq_query(srq, in, inlen, out, outlen);
}

int
mlx5dv_devx_srq_modify(struct ibv_srq *srq, const void *in, size_t inlen,
		       void *out, size_t outlen)
{
	return mlx5_sim_srq_modify(srq, in, inlen, out, outlen);
}

int
mlx5dv_devx_wq_query(struct ibv_wq *wq, const void *in, size_t inlen, void *out,
		     size_t outlen)
{
	return mlx5_sim_wq_query(wq, in, inlen, out, outlen);
}

int
mlx5dv_devx_wq_modify(struct ibv_wq *wq, const void *in, size_t inlen,
		      void *out, size_t outlen)
{
	return mlx5_sim_wq_modify(wq, in, inlen, out, outlen);
}

int
mlx5dv_devx_ind_tbl_query(struct ibv_rwq_ind_table *ind_tbl, const void *in,
			  size_t inlen, void *out, size_t outlen)
{
	return mlx5_sim_ind_tbl_query(ind_tbl, in, inlen, out, outlen);
}

int
mlx5dv_devx_ind_tbl_modify(struct ibv_rwq_ind_table *ind_tbl, const void *in,
			   size_t inlen, void *out, size_t outlen)
{
	return mlx5_sim_ind_tbl_modify(ind_tbl, in, inlen, out, outlen);
}

int
mlx5dv_query_qp_lag_port(struct ibv_qp *qp, uint8_t *port_num,
			 uint8_t *active_port_num)
{
	return mlx5_sim_query_qp_lag_port(qp, port_num, active_port_num);
}

int
mlx5dv_modify_qp_lag_port(struct ibv_qp *qp, uint8_t port_num)
{
	return mlx5_sim_modify_qp_lag_port(qp, port_num);
}

int
mlx5dv_modify_qp_udp_sport(struct ibv_qp *qp, uint16_t udp_sport)
{
	return mlx5_sim_modify_qp_udp_sport(qp, udp_sport);
}

struct mlx5dv_flow_matcher *
mlx5dv_create_flow_matcher(struct ibv_context *ctx,
			   struct mlx5dv_flow_matcher_attr *attr)
{
	return mlx5_sim_flow_matcher_create(ctx, attr);
}

int
mlx5dv_destroy_flow_matcher(struct mlx5dv_flow_matcher *matcher)
{
	return mlx5_sim_flow_matcher_destroy(matcher);
}

struct ibv_flow *
mlx5dv_create_flow(struct mlx5dv_flow_matcher *matcher,
		   struct mlx5dv_flow_match_parameters *value,
		   size_t num_actions, struct mlx5dv_flow_action_attr actions[])
{
	return mlx5_sim_flow_create(matcher, value, num_actions, actions);
}

/*
 * mlx5dv_create_cq(): an extended CQ with libmlx5's vendor attributes
 * checked as libmlx5 and mlx5_ib check them against the device: CQE
 * compression with one mini-CQE format of those mlx5dv_query_device()
 * announces (libmlx5: a format it does not announce, or a device without
 * compression, EINVAL; mlx5_ib: more than one format EINVAL); CQE padding
 * (for 128-byte CQEs) and unknown fields or flags are EINVAL; 128-byte
 * CQEs are EOPNOTSUPP (the device writes 64-byte CQEs), another size
 * EINVAL (sim_rdma_cqe_size()).
 */
struct ibv_cq_ex *
mlx5dv_create_cq(struct ibv_context *ctx, struct ibv_cq_init_attr_ex *cq_attr,
		 struct mlx5dv_cq_init_attr *mlx5_cq_attr)
{
	const uint64_t known = MLX5DV_CQ_INIT_ATTR_MASK_COMPRESSED_CQE |
			       MLX5DV_CQ_INIT_ATTR_MASK_FLAGS |
			       MLX5DV_CQ_INIT_ATTR_MASK_CQE_SIZE;
	uint64_t mask = mlx5_cq_attr != NULL ? mlx5_cq_attr->comp_mask : 0;
	struct mlx5_sim_ctx *sctx = mlx5_sim_ctx_get(ctx);
	int mini_fmt = -1;

	if (sctx == NULL || (mask & ~known) ||
	    ((mask & MLX5DV_CQ_INIT_ATTR_MASK_FLAGS) &&
	     mlx5_cq_attr->flags != 0)) {
		errno = EINVAL;
		return NULL;
	}
	if (mask & MLX5DV_CQ_INIT_ATTR_MASK_COMPRESSED_CQE) {
		if (sctx->file->vhca->caps.cqe_comp_max == 0) {
			errno = EINVAL;
			return NULL;
		}
		switch (mlx5_cq_attr->cqe_comp_res_format) {
		case MLX5DV_CQE_RES_FORMAT_HASH:
			mini_fmt = MLX5_MINI_CQE_FORMAT_HASH;
			break;
		case MLX5DV_CQE_RES_FORMAT_CSUM:
			mini_fmt = MLX5_MINI_CQE_FORMAT_CSUM;
			break;
		default:
			errno = EINVAL;
			return NULL;
		}
	}
	/* Its CQE size, else the environment's (checked at creation). */
	return sim_rdma_cq_ex_new(ctx, cq_attr,
				  mask & MLX5DV_CQ_INIT_ATTR_MASK_CQE_SIZE ?
					  (int)mlx5_cq_attr->cqe_size :
					  -1,
				  mini_fmt);
}

/*
 * mlx5dv_create_wq(): a WQ with libmlx5's vendor attributes: a striding
 * (multi-packet) RQ, which the device does not announce (striding RQ
 * caps of 0, so any stride is out of range), is EINVAL as libmlx5 makes
 * it; an unknown field EINVAL.
 */
struct ibv_wq *
mlx5dv_create_wq(struct ibv_context *ctx, struct ibv_wq_init_attr *wq_attr,
		 struct mlx5dv_wq_init_attr *mlx5_wq_attr)
{
	if (mlx5_sim_ctx_get(ctx) == NULL ||
	    (mlx5_wq_attr != NULL && mlx5_wq_attr->comp_mask != 0)) {
		errno = EINVAL;
		return NULL;
	}
	return sim_rdma_create_wq(ctx, wq_attr);
}
