/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * UAR pages: mlx5dv_devx_alloc_uar() and free (ALLOC_UAR/DEALLOC_UAR),
 * each a page of its own whose doorbell register the datapath writes.
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

/* Offset of the doorbell (BlueFlame) register in a UAR page. */
#define MLX5_SIM_UAR_BF_OFFSET 0x800


static bool
sim_uar_page_used(struct mlx5_sim_vhca *vhca, uint32_t page_id)
{
	struct mlx5_sim_file *file;
	struct mlx5_sim_uar *uar;

	TAILQ_FOREACH(file, &vhca->files, vhca_next) {
		if (file->ctx_uar != NULL &&
		    file->ctx_uar->dv.page_id == page_id)
			return true;
		TAILQ_FOREACH(uar, &file->uars, next)
			if (uar->dv.page_id == page_id)
				return true;
	}
	return false;
}

/* The UAR of @file with page @page_id (its context's too), or NULL. */
static struct mlx5_sim_uar *
sim_uar_of(const struct mlx5_sim_file *file, uint32_t page_id)
{
	struct mlx5_sim_uar *uar;

	if (file->ctx_uar != NULL && file->ctx_uar->dv.page_id == page_id)
		return file->ctx_uar;
	TAILQ_FOREACH(uar, &file->uars, next)
		if (uar->dv.page_id == page_id)
			return uar;
	return NULL;
}

int
mlx5_sim_uar_ring(uint16_t card, uint16_t vhca_id, uint32_t page_id,
		  uint64_t db)
{
	struct mlx5_sim_vhca *vhca = mlx5_sim_vhca_find(card, vhca_id);
	struct mlx5_sim_file *file;
	struct mlx5_sim_uar *uar;

	if (vhca == NULL)
		return -ENODEV;
	mlx5_sim_vhca_lock(vhca);
	TAILQ_FOREACH(file, &vhca->files, vhca_next) {
		uar = sim_uar_of(file, page_id);
		if (uar != NULL) {
			mlx5_sim_uar_kick_locked(uar, db);
			mlx5_sim_vhca_unlock(vhca);
			return 0;
		}
	}
	vhca->stray_doorbells++;
	mlx5_sim_vhca_unlock(vhca);
	return -ENOENT;
}

bool
mlx5_sim_uar_page_of(const struct mlx5_sim_file *file, uint32_t page)
{
	return sim_uar_of(file, page) != NULL;
}

struct mlx5_sim_uar *
mlx5_sim_uar_new(struct mlx5_sim_file *file, bool ctx)
{
	struct mlx5_sim_vhca *vhca = file->vhca;
	size_t page_size = mlx5_sim_page_size();
	struct mlx5_sim_uar *uar;
	int err;
	void *page;

	uar = calloc(1, sizeof(*uar));
	if (uar == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	page = mmap(NULL, page_size, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (page == MAP_FAILED) {
		free(uar);
		errno = ENOMEM;
		return NULL;
	}
	mlx5_sim_vhca_lock(vhca);
	err = mlx5_sim_cmd_kernel(vhca, MLX5_CMD_OP_ALLOC_UAR,
				  vhca->uar_count >= MLX5_SIM_MAX_UARS ?
				  MLX5_SIM_SYND_UAR_TABLE_FULL :
				  MLX5_SIM_SYND_OK);
	if (err != 0) {
		mlx5_sim_vhca_unlock(vhca);
		munmap(page, page_size);
		free(uar);
		errno = err;
		return NULL;
	}
	do {
		uar->dv.page_id = vhca->next_uar_page++ & 0xffffff;
	} while (uar->dv.page_id == 0 || sim_uar_page_used(vhca, uar->dv.page_id));
	uar->dv.base_addr = page;
	uar->dv.reg_addr = (uint8_t *)page + MLX5_SIM_UAR_BF_OFFSET;
	uar->dv.mmap_off = (off_t)uar->dv.page_id * (off_t)page_size;
	uar->magic = MLX5_SIM_MAGIC_UAR;
	uar->file = file;
	uar->page = page;
	vhca->uar_count++;
	/* The context's: the kernel's own, no object of the program's. */
	if (ctx) {
		file->ctx_uar = uar;
	} else {
		TAILQ_INSERT_TAIL(&file->uars, uar, next);
		vhca->live.uars++;
	}
	mlx5_sim_vhca_unlock(vhca);
	return uar;
}

struct mlx5dv_devx_uar *
mlx5_sim_alloc_uar(struct ibv_context *ctx, uint32_t flags)
{
	struct mlx5_sim_ctx *sctx = mlx5_sim_ctx_get(ctx);
	struct mlx5_sim_uar *uar;

	if (sctx == NULL) {
		errno = EINVAL;
		return NULL;
	}
	if (!sctx->file->devx ||
	    (flags != MLX5DV_UAR_ALLOC_TYPE_BF &&
	     flags != MLX5DV_UAR_ALLOC_TYPE_NC)) {
		errno = EOPNOTSUPP;
		return NULL;
	}
	uar = mlx5_sim_uar_new(sctx->file, false);
	return uar != NULL ? &uar->dv : NULL;
}

void
mlx5_sim_free_uar(struct mlx5dv_devx_uar *dv)
{
	struct mlx5_sim_vhca *vhca;
	struct mlx5_sim_uar *uar;

	if (dv == NULL)
		return;
	uar = MLX5_SIM_OF(dv, struct mlx5_sim_uar, dv);
	if (uar->magic != MLX5_SIM_MAGIC_UAR)
		return;
	vhca = uar->file->vhca;
	mlx5_sim_vhca_lock(vhca);
	/* No way to report a refusal: counted and logged, freed anyway. */
	(void)mlx5_sim_cmd_kernel(vhca, MLX5_CMD_OP_DEALLOC_UAR,
				  MLX5_SIM_SYND_OK);
	TAILQ_REMOVE(&uar->file->uars, uar, next);
	vhca->uar_count--;
	vhca->live.uars--;
	mlx5_sim_vhca_unlock(vhca);
	munmap(uar->page, mlx5_sim_page_size());
	uar->magic = MLX5_SIM_MAGIC_DEAD;
	free(uar);
}
