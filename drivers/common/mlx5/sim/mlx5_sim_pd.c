/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * Protection domains: ALLOC_PD behind ibv_alloc_pd() and through DEVX,
 * import by handle, the pdn, and DEALLOC_PD with the kernel's use count
 * (verbs users only).
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <rte_common.h>

#include "mlx5_sim_priv.h"

struct mlx5_sim_pd *
mlx5_sim_pd_get(struct ibv_pd *pd)
{
	struct mlx5_sim_pd *spd;

	/*
	 * Handles reach the sim only through its own operations table, so
	 * the magic is enough; pd->context may be a closed context whose
	 * file lives on through an import.
	 */
	if (pd == NULL)
		return NULL;
	spd = MLX5_SIM_OF(pd, struct mlx5_sim_pd, ibpd);
	return spd->magic == MLX5_SIM_MAGIC_PD ? spd : NULL;
}

struct mlx5_sim_pd_obj *
mlx5_sim_pd_find(struct mlx5_sim_vhca *vhca, uint32_t pdn,
		 struct mlx5_sim_file **owner)
{
	struct mlx5_sim_file *file;
	struct mlx5_sim_pd_obj *obj;

	TAILQ_FOREACH(file, &vhca->files, vhca_next)
		TAILQ_FOREACH(obj, &file->pd_objs, next)
			if (obj->alive && obj->pdn == pdn) {
				if (owner != NULL)
					*owner = file;
				return obj;
			}
	return NULL;
}

/* A PD number not in use on the vHCA (card lock held). */
static uint32_t
sim_pdn_alloc(struct mlx5_sim_vhca *vhca)
{
	for (;;) {
		uint32_t pdn = vhca->next_pdn;

		vhca->next_pdn = (vhca->next_pdn + 1) & 0xffffff;
		if (vhca->next_pdn < MLX5_SIM_PDN_BASE)
			vhca->next_pdn = MLX5_SIM_PDN_BASE;
		if (mlx5_sim_pd_find(vhca, pdn, NULL) == NULL)
			return pdn;
	}
}

struct ibv_pd *
mlx5_sim_alloc_pd(struct ibv_context *ctx)
{
	struct mlx5_sim_ctx *sctx = mlx5_sim_ctx_get(ctx);
	struct mlx5_sim_vhca *vhca;
	struct mlx5_sim_file *file;
	struct mlx5_sim_pd_obj *obj;
	struct mlx5_sim_pd *spd;
	int err;

	if (sctx == NULL) {
		errno = EINVAL;
		return NULL;
	}
	file = sctx->file;
	vhca = file->vhca;
	obj = calloc(1, sizeof(*obj));
	spd = calloc(1, sizeof(*spd));
	if (obj == NULL || spd == NULL) {
		free(obj);
		free(spd);
		errno = ENOMEM;
		return NULL;
	}
	mlx5_sim_vhca_lock(vhca);
	err = mlx5_sim_cmd_kernel(vhca, MLX5_CMD_OP_ALLOC_PD,
				  vhca->pd_count >= MLX5_SIM_MAX_PDS ?
				  MLX5_SIM_SYND_PD_TABLE_FULL :
				  MLX5_SIM_SYND_OK);
	if (err != 0) {
		mlx5_sim_vhca_unlock(vhca);
		free(obj);
		free(spd);
		errno = err;
		return NULL;
	}
	obj->file = file;
	obj->pdn = sim_pdn_alloc(vhca);
	obj->handle = file->next_pd_handle++;
	obj->handles = 1;
	obj->alive = true;
	TAILQ_INSERT_TAIL(&file->pd_objs, obj, next);
	spd->ibpd.context = ctx;
	spd->ibpd.handle = obj->handle;
	spd->magic = MLX5_SIM_MAGIC_PD;
	spd->obj = obj;
	TAILQ_INSERT_TAIL(&file->pds, spd, next);
	vhca->pd_count++;
	vhca->live.pds++;
	mlx5_sim_vhca_unlock(vhca);
	return &spd->ibpd;
}

/* Drop a caller's PD handle (card lock held). */
static void
sim_pd_handle_free(struct mlx5_sim_pd *spd)
{
	struct mlx5_sim_pd_obj *obj = spd->obj;
	struct mlx5_sim_file *file = obj->file;

	TAILQ_REMOVE(&file->pds, spd, next);
	spd->magic = MLX5_SIM_MAGIC_DEAD;
	free(spd);
	/* Objects still naming the PD keep it until the file closes. */
	if (--obj->handles == 0 && !obj->alive && obj->users == 0) {
		TAILQ_REMOVE(&file->pd_objs, obj, next);
		free(obj);
	}
}

uint32_t
mlx5_sim_cmd_alloc_pd(struct mlx5_sim_file *file, void *out,
		      struct mlx5_sim_devx_obj *obj)
{
	struct mlx5_sim_vhca *vhca = file->vhca;
	struct mlx5_sim_pd_obj *pd;

	if (vhca->pd_count >= MLX5_SIM_MAX_PDS)
		return MLX5_SIM_SYND_PD_TABLE_FULL;
	pd = calloc(1, sizeof(*pd));
	if (pd == NULL)
		return MLX5_SIM_SYND_PD_TABLE_FULL; /* Out of device memory. */
	pd->file = file;
	pd->pdn = sim_pdn_alloc(vhca);
	pd->alive = true;
	pd->devx = true;
	TAILQ_INSERT_TAIL(&file->pd_objs, pd, next);
	vhca->pd_count++;
	vhca->live.pds++;
	MLX5_SET(alloc_pd_out, out, pd, pd->pdn);
	obj->kind = MLX5_SIM_OBJ_PD;
	obj->index = pd->pdn;
	return MLX5_SIM_SYND_OK;
}

uint32_t
mlx5_sim_cmd_dealloc_pd(struct mlx5_sim_file *file, const void *in)
{
	struct mlx5_sim_vhca *vhca = file->vhca;
	struct mlx5_sim_file *owner = NULL;
	struct mlx5_sim_pd_obj *pd;

	pd = mlx5_sim_pd_find(vhca, MLX5_GET(dealloc_pd_in, in, pd), &owner);
	if (pd == NULL || owner != file || !pd->devx)
		return MLX5_SIM_SYND_PD_UNKNOWN;
	pd->alive = false;
	mlx5_sim_xgen_bump(vhca);
	vhca->pd_count--;
	vhca->live.pds--;
	if (pd->users == 0) {
		TAILQ_REMOVE(&file->pd_objs, pd, next);
		free(pd);
	}
	return MLX5_SIM_SYND_OK;
}

int
mlx5_sim_dealloc_pd(struct ibv_pd *pd)
{
	struct mlx5_sim_pd *spd = mlx5_sim_pd_get(pd);
	struct mlx5_sim_vhca *vhca;
	struct mlx5_sim_pd_obj *obj;
	int err;

	if (spd == NULL)
		return EINVAL;
	obj = spd->obj;
	vhca = obj->file->vhca;
	mlx5_sim_vhca_lock(vhca);
	if (!obj->alive) {
		/* Deallocated through another handle: the kernel has no PD. */
		mlx5_sim_vhca_unlock(vhca);
		return EINVAL;
	}
	if (obj->verbs_users != 0) {
		mlx5_sim_vhca_unlock(vhca);
		return EBUSY;
	}
	err = mlx5_sim_cmd_kernel(vhca, MLX5_CMD_OP_DEALLOC_PD,
				  MLX5_SIM_SYND_OK);
	if (err != 0) {
		mlx5_sim_vhca_unlock(vhca);
		return err;
	}
	obj->alive = false;
	mlx5_sim_xgen_bump(vhca);
	vhca->pd_count--;
	vhca->live.pds--;
	sim_pd_handle_free(spd);
	mlx5_sim_vhca_unlock(vhca);
	return 0;
}

struct ibv_pd *
mlx5_sim_import_pd(struct ibv_context *ctx, uint32_t pd_handle)
{
	struct mlx5_sim_ctx *sctx = mlx5_sim_ctx_get(ctx);
	struct mlx5_sim_pd_obj *obj;
	struct mlx5_sim_file *file;
	struct mlx5_sim_pd *spd;

	if (sctx == NULL) {
		errno = EINVAL;
		return NULL;
	}
	file = sctx->file;
	spd = calloc(1, sizeof(*spd));
	if (spd == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	mlx5_sim_vhca_lock(file->vhca);
	/*
	 * Only a verbs PD has a handle: one made by DEVX ALLOC_PD is a DEVX
	 * object (handle field 0), which DEALLOC_PD frees whatever handles
	 * refer to it.
	 */
	TAILQ_FOREACH(obj, &file->pd_objs, next)
		if (obj->alive && !obj->devx && obj->handle == pd_handle)
			break;
	if (obj == NULL) {
		mlx5_sim_vhca_unlock(file->vhca);
		free(spd);
		errno = EINVAL;
		return NULL;
	}
	obj->handles++;
	spd->ibpd.context = ctx;
	spd->ibpd.handle = obj->handle;
	spd->magic = MLX5_SIM_MAGIC_PD;
	spd->imported = true;
	spd->obj = obj;
	TAILQ_INSERT_TAIL(&file->pds, spd, next);
	mlx5_sim_vhca_unlock(file->vhca);
	return &spd->ibpd;
}

void
mlx5_sim_unimport_pd(struct ibv_pd *pd)
{
	struct mlx5_sim_pd *spd = mlx5_sim_pd_get(pd);
	struct mlx5_sim_vhca *vhca;

	if (spd == NULL)
		return;
	vhca = spd->obj->file->vhca;
	mlx5_sim_vhca_lock(vhca);
	sim_pd_handle_free(spd);
	mlx5_sim_vhca_unlock(vhca);
}

int
mlx5_sim_query_pdn(struct ibv_pd *pd, uint32_t *pdn)
{
	struct mlx5_sim_pd *spd = mlx5_sim_pd_get(pd);
	struct mlx5_sim_vhca *vhca;
	int ret = 0;

	if (spd == NULL || pdn == NULL)
		return EINVAL;
	vhca = spd->obj->file->vhca;
	mlx5_sim_vhca_lock(vhca);
	if (spd->obj->alive)
		*pdn = spd->obj->pdn;
	else
		ret = EINVAL;
	mlx5_sim_vhca_unlock(vhca);
	return ret;
}
