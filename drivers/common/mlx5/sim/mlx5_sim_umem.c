/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * DEVX umems: registration as the kernel pins it (flags, write rule,
 * CREATE_UMEM) and deregistration, refused while an mkey uses the umem.
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

/* What the kernel's umem registration takes (devx_umem_get()). */
#define SIM_UMEM_ACCESS (IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | \
			 IBV_ACCESS_REMOTE_READ | IBV_ACCESS_RELAXED_ORDERING)

struct mlx5_sim_umem *
mlx5_sim_umem_find(struct mlx5_sim_vhca *vhca, uint32_t umem_id)
{
	struct mlx5_sim_file *file;
	struct mlx5_sim_umem *umem;

	TAILQ_FOREACH(file, &vhca->files, vhca_next)
		TAILQ_FOREACH(umem, &file->umems, next)
			if (umem->dv.umem_id == umem_id)
				return umem;
	return NULL;
}

struct mlx5dv_devx_umem *
mlx5_sim_umem_reg(struct ibv_context *ctx, void *addr, size_t size,
		  uint32_t access)
{
	struct mlx5_sim_ctx *sctx = mlx5_sim_ctx_get(ctx);
	struct mlx5_sim_vhca *vhca;
	struct mlx5_sim_umem *umem;
	int err;

	if (sctx == NULL) {
		errno = EINVAL;
		return NULL;
	}
	/* The kernel registers umems for DEVX contexts only. */
	if (!sctx->file->devx) {
		errno = EINVAL;
		return NULL;
	}
	if (addr == NULL || size == 0 ||
	    (uintptr_t)addr + size - 1 < (uintptr_t)addr ||
	    (access & ~SIM_UMEM_ACCESS) ||
	    /* Remote write needs local write (ib_check_mr_access()). */
	    ((access & IBV_ACCESS_REMOTE_WRITE) &&
	     !(access & IBV_ACCESS_LOCAL_WRITE))) {
		errno = EINVAL;
		return NULL;
	}
	/* Pinned as an MR is: written by the device when writable. */
	errno = mlx5_sim_range_pinnable(addr, size,
		access & (IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE));
	if (errno != 0)
		return NULL;
	vhca = sctx->file->vhca;
	umem = calloc(1, sizeof(*umem));
	if (umem == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	mlx5_sim_vhca_lock(vhca);
	err = mlx5_sim_cmd_kernel(vhca, MLX5_CMD_OP_CREATE_UMEM,
				  vhca->umem_count >= MLX5_SIM_MAX_UMEMS ?
				  MLX5_SIM_SYND_UMEM_TABLE_FULL :
				  MLX5_SIM_SYND_OK);
	if (err != 0) {
		mlx5_sim_vhca_unlock(vhca);
		free(umem);
		errno = err;
		return NULL;
	}
	do {
		umem->dv.umem_id = vhca->next_umem_id++;
	} while (umem->dv.umem_id == 0 ||
		 mlx5_sim_umem_find(vhca, umem->dv.umem_id) != NULL);
	umem->magic = MLX5_SIM_MAGIC_UMEM;
	umem->file = sctx->file;
	umem->addr = addr;
	umem->size = size;
	umem->access = access;
	TAILQ_INSERT_TAIL(&sctx->file->umems, umem, next);
	vhca->umem_count++;
	vhca->live.umems++;
	mlx5_sim_vhca_unlock(vhca);
	return &umem->dv;
}

int
mlx5_sim_umem_dereg(struct mlx5dv_devx_umem *dv)
{
	struct mlx5_sim_umem *umem;
	struct mlx5_sim_vhca *vhca;
	int err;

	if (dv == NULL)
		return EINVAL;
	umem = MLX5_SIM_OF(dv, struct mlx5_sim_umem, dv);
	if (umem->magic != MLX5_SIM_MAGIC_UMEM)
		return EINVAL;
	vhca = umem->file->vhca;
	mlx5_sim_vhca_lock(vhca);
	/* The memory would be unpinned under a live mkey: refused. */
	err = mlx5_sim_cmd_kernel(vhca, MLX5_CMD_OP_DESTROY_UMEM,
				  umem->users != 0 ? MLX5_SIM_SYND_UMEM_BUSY :
				  MLX5_SIM_SYND_OK);
	if (err != 0) {
		mlx5_sim_vhca_unlock(vhca);
		return err;
	}
	TAILQ_REMOVE(&umem->file->umems, umem, next);
	vhca->umem_count--;
	vhca->live.umems--;
	mlx5_sim_vhca_unlock(vhca);
	umem->magic = MLX5_SIM_MAGIC_DEAD;
	free(umem);
	return 0;
}
