/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * The rdma-core backend operations: each entry is the libibverbs/libmlx5
 * call of the same meaning, so results and errno values are rdma-core's
 * own, unchanged. Where the prototypes already match, the table points at
 * rdma-core directly (the compiler checks the types); a wrapper exists only
 * where the call shape differs (query_pdn) or where rdma-core's header
 * routes the call through an inline helper (reg_mr, query_device_ex).
 *
 * This file is compiled into the common library (-Dibverbs_link=shared) or
 * alone into the glue module (-Dibverbs_link=dlopen). It must therefore not
 * call DPDK: the module links rdma-core only.
 */

#include <stddef.h>
#include <stdint.h>

#include "mlx5_os_glue.h"

/**
 * Register a memory region, as an application calling ibv_reg_mr() does.
 *
 * rdma-core's ibv_reg_mr() is a header macro that picks the entry point
 * from the access flags (flags of IBV_ACCESS_OPTIONAL_RANGE go to
 * ibv_reg_mr_iova2(), which drops them on kernels that do not know them);
 * calling the macro here keeps that behaviour for run-time flags.
 *
 * @param pd
 *   Protection domain.
 * @param addr
 *   Start of the memory to register.
 * @param length
 *   Length in bytes.
 * @param access
 *   IBV_ACCESS_* flags.
 *
 * @return
 *   The memory region, or NULL and errno is set by rdma-core.
 */
static struct ibv_mr *
mlx5_ibv_reg_mr(struct ibv_pd *pd, void *addr, size_t length, int access)
{
	return ibv_reg_mr(pd, addr, length, access);
}

/**
 * Read the PD number of a verbs protection domain
 * (mlx5dv_init_obj() with MLX5DV_OBJ_PD).
 *
 * @param pd
 *   Protection domain opened on an mlx5 device.
 * @param[out] pdn
 *   PD number for PRM commands; left untouched on failure.
 *
 * @return
 *   0 on success, otherwise the positive errno value rdma-core returned
 *   (EOPNOTSUPP for a PD that does not belong to an mlx5 device).
 */
static int
mlx5_ibv_query_pdn(struct ibv_pd *pd, uint32_t *pdn)
{
	struct mlx5dv_pd dv_pd = { .comp_mask = 0 };
	struct mlx5dv_obj obj = { .pd = { .in = pd, .out = &dv_pd } };
	int ret;

	ret = mlx5dv_init_obj(&obj, MLX5DV_OBJ_PD);
	if (ret != 0)
		return ret;
	*pdn = dv_pd.pdn;
	return 0;
}

/**
 * Query the extended device attributes (ibv_query_device_ex() is a header
 * inline that dispatches through the context's operations).
 *
 * @param ctx
 *   Device context.
 * @param input
 *   Extension input, or NULL.
 * @param[out] attr
 *   Attributes, among them odp_caps.
 *
 * @return
 *   0 on success, otherwise the positive errno value rdma-core returned.
 */
static int
mlx5_ibv_query_device_ex(struct ibv_context *ctx,
			 const struct ibv_query_device_ex_input *input,
			 struct ibv_device_attr_ex *attr)
{
	return ibv_query_device_ex(ctx, input, attr);
}

const char mlx5_ibv_glue_version[] = MLX5_GLUE_VERSION;

const struct mlx5_glue mlx5_ibv_glue = {
	.name = "rdma-core",

	/* Devices and contexts. */
	.get_device_list = ibv_get_device_list,
	.free_device_list = ibv_free_device_list,
	.dv_open_device = mlx5dv_open_device,
	.close_device = ibv_close_device,
	.import_device = ibv_import_device,
	.query_device_ex = mlx5_ibv_query_device_ex,

	/* Protection domains. */
	.alloc_pd = ibv_alloc_pd,
	.dealloc_pd = ibv_dealloc_pd,
	.import_pd = ibv_import_pd,
	.unimport_pd = ibv_unimport_pd,
	.query_pdn = mlx5_ibv_query_pdn,

	/* Memory regions (verbs). */
	.reg_mr = mlx5_ibv_reg_mr,
	.dereg_mr = ibv_dereg_mr,

	/* DEVX objects and commands. */
	.devx_obj_create = mlx5dv_devx_obj_create,
	.devx_obj_query = mlx5dv_devx_obj_query,
	.devx_obj_modify = mlx5dv_devx_obj_modify,
	.devx_obj_destroy = mlx5dv_devx_obj_destroy,
	.devx_general_cmd = mlx5dv_devx_general_cmd,
	.devx_umem_reg = mlx5dv_devx_umem_reg,
	.devx_umem_dereg = mlx5dv_devx_umem_dereg,
	.devx_alloc_uar = mlx5dv_devx_alloc_uar,
	.devx_free_uar = mlx5dv_devx_free_uar,
	.devx_query_eqn = mlx5dv_devx_query_eqn,
	.uar_kick = NULL, /* The UAR store reaches the device. */

	/* Indirect mkeys. */
	.dv_create_mkey = mlx5dv_create_mkey,
	.dv_destroy_mkey = mlx5dv_destroy_mkey,

	/* Packet pacing entries. */
	.dv_pp_alloc = mlx5dv_pp_alloc,
	.dv_pp_free = mlx5dv_pp_free,

	/* DEVX access to verbs-created queue objects. */
	.devx_qp_query = mlx5dv_devx_qp_query,
	.devx_qp_modify = mlx5dv_devx_qp_modify,
	.devx_cq_query = mlx5dv_devx_cq_query,
	.devx_cq_modify = mlx5dv_devx_cq_modify,
	.devx_srq_query = mlx5dv_devx_srq_query,
	.devx_srq_modify = mlx5dv_devx_srq_modify,
	.devx_wq_query = mlx5dv_devx_wq_query,
	.devx_wq_modify = mlx5dv_devx_wq_modify,
	.devx_ind_tbl_query = mlx5dv_devx_ind_tbl_query,
	.devx_ind_tbl_modify = mlx5dv_devx_ind_tbl_modify,
	.dv_query_qp_lag_port = mlx5dv_query_qp_lag_port,
	.dv_modify_qp_lag_port = mlx5dv_modify_qp_lag_port,
	.dv_modify_qp_udp_sport = mlx5dv_modify_qp_udp_sport,
};
