/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * Device memory (MEMIC, the NIC's on-chip memory): ibv_alloc_dm() carves
 * a piece of the vHCA's dm_size bytes (ALLOC_MEMIC), which the program
 * reaches only through the device: ibv_memcpy_to_dm() and
 * ibv_memcpy_from_dm() (4-byte aligned offsets and lengths, within the
 * piece, as libmlx5 copies it in 32-bit words), and MRs registered on it
 * (ibv_reg_dm_mr(): zero-based addresses, IBV_ACCESS_ZERO_BASED
 * required), which the device translates as an MTT mkey over the piece.
 * A piece with an MR on it cannot be freed (EBUSY). ibv_import_dm() gives
 * another handle of a piece of the same file; the piece lives while a
 * handle does.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>

#include "mlx5_sim_priv.h"

/* Access flags a DM MR takes (ib_core's IB_ACCESS_SUPPORTED for DM). */
#define SIM_DM_MR_ACCESS (IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | \
			  IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_ATOMIC | \
			  IBV_ACCESS_ZERO_BASED)
/* libmlx5 copies 32-bit words: offsets 4-byte aligned. */
#define SIM_DM_ALIGN 4

static struct mlx5_sim_dm *
sim_dm_of(struct ibv_dm *ibdm)
{
	struct mlx5_sim_dm *dm;

	if (ibdm == NULL)
		return NULL;
	dm = MLX5_SIM_OF(ibdm, struct mlx5_sim_dm, ibdm);
	return dm->magic == MLX5_SIM_MAGIC_DM ? dm : NULL;
}

/* @len bytes at @off of @dm's piece: 0, EINVAL (alignment) or EFAULT. */
static int
sim_dm_range(const struct mlx5_sim_dm *dm, uint64_t off, size_t len)
{
	if (off % SIM_DM_ALIGN != 0 || len % SIM_DM_ALIGN != 0)
		return EINVAL;
	return off > dm->piece->umem.size ||
			       len > dm->piece->umem.size - off ?
		       EFAULT :
		       0;
}

static int
sim_dm_to(struct ibv_dm *ibdm, uint64_t off, const void *host, size_t len)
{
	struct mlx5_sim_dm *dm = sim_dm_of(ibdm);
	int err = dm != NULL ? sim_dm_range(dm, off, len) : EINVAL;

	if (err == 0)
		memcpy(dm->piece->umem.addr + off, host, len);
	return err;
}

static int
sim_dm_from(void *host, struct ibv_dm *ibdm, uint64_t off, size_t len)
{
	struct mlx5_sim_dm *dm = sim_dm_of(ibdm);
	int err = dm != NULL ? sim_dm_range(dm, off, len) : EINVAL;

	if (err == 0)
		memcpy(host, dm->piece->umem.addr + off, len);
	return err;
}

/* A handle of @piece on @ctx. */
static struct mlx5_sim_dm *
sim_dm_handle(struct ibv_context *ctx, struct mlx5_sim_dm_piece *piece)
{
	struct mlx5_sim_dm *dm = calloc(1, sizeof(*dm));

	if (dm == NULL)
		return NULL;
	dm->ibdm.context = ctx;
	dm->ibdm.memcpy_to_dm = sim_dm_to;
	dm->ibdm.memcpy_from_dm = sim_dm_from;
	dm->ibdm.handle = piece->handle;
	dm->magic = MLX5_SIM_MAGIC_DM;
	dm->piece = piece;
	piece->handles++;
	return dm;
}

struct ibv_dm *
mlx5_sim_alloc_dm(struct ibv_context *ctx, struct ibv_alloc_dm_attr *attr)
{
	struct mlx5_sim_ctx *sctx = mlx5_sim_ctx_get(ctx);
	struct mlx5_sim_dm_piece *piece;
	struct mlx5_sim_vhca *vhca;
	struct mlx5_sim_dm *dm;
	size_t len;
	bool full;
	int err;

	if (sctx == NULL || attr == NULL || attr->comp_mask != 0 ||
	    attr->length == 0) {
		errno = EINVAL;
		return NULL;
	}
	vhca = sctx->file->vhca;
	/* libmlx5: more than the device has is EINVAL; a piece is words. */
	if (attr->length > vhca->caps.dm_size) {
		errno = EINVAL;
		return NULL;
	}
	len = RTE_ALIGN_CEIL(attr->length, SIM_DM_ALIGN);
	piece = calloc(1, sizeof(*piece));
	if (piece != NULL)
		piece->umem.addr = calloc(1, len);
	if (piece == NULL || piece->umem.addr == NULL) {
		free(piece);
		errno = ENOMEM;
		return NULL;
	}
	piece->umem.size = len;
	piece->umem.access = IBV_ACCESS_LOCAL_WRITE;
	piece->umem.file = sctx->file;
	mlx5_sim_vhca_lock(vhca);
	full = len > vhca->caps.dm_size - vhca->dm_used;
	err = mlx5_sim_cmd_kernel(vhca, MLX5_CMD_OP_ALLOC_MEMIC,
				  full ? MLX5_SIM_SYND_DM_FULL :
				  MLX5_SIM_SYND_OK);
	/* The kernel's answer to a device out of room: ENOMEM. */
	if (err != 0 && full)
		err = ENOMEM;
	dm = err == 0 ? sim_dm_handle(ctx, piece) : NULL;
	if (err == 0 && dm == NULL)
		err = ENOMEM;
	if (err != 0) {
		mlx5_sim_vhca_unlock(vhca);
		free(piece->umem.addr);
		free(piece);
		errno = err;
		return NULL;
	}
	piece->file = sctx->file;
	piece->handle = ++sctx->file->next_dm_handle;
	dm->ibdm.handle = piece->handle;
	vhca->dm_used += len;
	vhca->live.dms++;
	TAILQ_INSERT_TAIL(&sctx->file->dm_pieces, piece, next);
	mlx5_sim_vhca_unlock(vhca);
	return &dm->ibdm;
}

/* Free @piece (lock held): its bytes back to the device. */
static void
sim_dm_piece_free(struct mlx5_sim_vhca *vhca, struct mlx5_sim_dm_piece *p)
{
	TAILQ_REMOVE(&p->file->dm_pieces, p, next);
	vhca->dm_used -= p->umem.size;
	vhca->live.dms--;
	free(p->umem.addr);
	free(p);
}

/*
 * A handle of @p gone (lock held): the piece goes with its last one (the
 * kernel's object lives while a handle, original or imported, holds it);
 * one an MR still uses (its last handle an unimported one) stays until
 * the file's last close.
 */
static void
sim_dm_handle_drop(struct mlx5_sim_vhca *vhca, struct mlx5_sim_dm_piece *p)
{
	if (--p->handles != 0 || p->umem.users != 0)
		return;
	(void)mlx5_sim_cmd_kernel(vhca, MLX5_CMD_OP_DEALLOC_MEMIC,
				  MLX5_SIM_SYND_OK);
	sim_dm_piece_free(vhca, p);
}

int
mlx5_sim_free_dm(struct ibv_dm *ibdm)
{
	struct mlx5_sim_dm *dm = sim_dm_of(ibdm);
	struct mlx5_sim_vhca *vhca;
	struct mlx5_sim_dm_piece *p;

	if (dm == NULL)
		return EINVAL;
	p = dm->piece;
	vhca = p->file->vhca;
	mlx5_sim_vhca_lock(vhca);
	/* An MR on it keeps it (the kernel's use count). */
	if (p->umem.users != 0) {
		mlx5_sim_vhca_unlock(vhca);
		return EBUSY;
	}
	sim_dm_handle_drop(vhca, p);
	mlx5_sim_vhca_unlock(vhca);
	dm->magic = MLX5_SIM_MAGIC_DEAD;
	free(dm);
	return 0;
}

struct ibv_dm *
mlx5_sim_import_dm(struct ibv_context *ctx, uint32_t handle)
{
	struct mlx5_sim_ctx *sctx = mlx5_sim_ctx_get(ctx);
	struct mlx5_sim_dm_piece *p;
	struct mlx5_sim_dm *dm = NULL;

	if (sctx == NULL) {
		errno = EINVAL;
		return NULL;
	}
	mlx5_sim_vhca_lock(sctx->file->vhca);
	TAILQ_FOREACH(p, &sctx->file->dm_pieces, next)
		if (p->handle == handle)
			break;
	if (p != NULL)
		dm = sim_dm_handle(ctx, p);
	mlx5_sim_vhca_unlock(sctx->file->vhca);
	if (dm == NULL)
		errno = p == NULL ? EINVAL : ENOMEM;
	return dm != NULL ? &dm->ibdm : NULL;
}

void
mlx5_sim_unimport_dm(struct ibv_dm *ibdm)
{
	struct mlx5_sim_dm *dm = sim_dm_of(ibdm);
	struct mlx5_sim_vhca *vhca;

	if (dm == NULL)
		return;
	vhca = dm->piece->file->vhca;
	mlx5_sim_vhca_lock(vhca);
	sim_dm_handle_drop(vhca, dm->piece);
	mlx5_sim_vhca_unlock(vhca);
	dm->magic = MLX5_SIM_MAGIC_DEAD;
	free(dm);
}

struct ibv_mr *
mlx5_sim_reg_dm_mr(struct ibv_pd *pd, struct ibv_dm *ibdm, uint64_t off,
		   size_t len, unsigned int access)
{
	struct mlx5_sim_pd *spd = mlx5_sim_pd_get(pd);
	struct mlx5_sim_dm *dm = sim_dm_of(ibdm);
	struct mlx5_sim_mkey *mkey;
	struct mlx5_sim_mr *mr;

	/*
	 * Zero-based addresses only; remote write and atomics need local
	 * write (IBTA); within the piece (an empty MR too, as the kernel's).
	 */
	if (spd == NULL || dm == NULL || dm->piece->file != spd->obj->file ||
	    !(access & IBV_ACCESS_ZERO_BASED) ||
	    (access & ~SIM_DM_MR_ACCESS) ||
	    ((access & (IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_ATOMIC)) &&
	     !(access & IBV_ACCESS_LOCAL_WRITE)) ||
	    off > dm->piece->umem.size || len > dm->piece->umem.size - off) {
		errno = EINVAL;
		return NULL;
	}
	mr = mlx5_sim_mr_make(spd, pd, access, 0, len, NULL, len, &mkey);
	if (mr == NULL)
		return NULL;
	mkey->kind = MLX5_SIM_MKEY_MTT;
	mkey->u.mtt.umem = &dm->piece->umem;
	mkey->u.mtt.offset = off;
	dm->piece->umem.users++;
	mlx5_sim_vhca_unlock(spd->obj->file->vhca);
	return &mr->ibmr;
}

void
mlx5_sim_dm_reclaim(struct mlx5_sim_file *file)
{
	struct mlx5_sim_dm_piece *p;

	while ((p = TAILQ_FIRST(&file->dm_pieces)) != NULL) {
		file->vhca->reclaimed++;
		sim_dm_piece_free(file->vhca, p);
	}
}
