/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * Packet pacing: the rate table of a vHCA, managed as the kernel does for
 * mlx5dv_pp_alloc()/mlx5dv_pp_free() (mlx5_rl_add_rate_raw()). Index 0
 * means "unlimited"; entries are 1..size-1. Every entry belongs to the DEVX
 * uid that made it: a shared entry is found again by its whole 48-byte
 * context (zero-padded) and the same uid, and reference counted; a
 * dedicated entry always takes a new index. SET_PP_RATE_LIMIT is issued
 * when an entry is programmed and, with a cleared context, when its last
 * reference goes: at mlx5dv_pp_free() or when the file closes.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>

#include "mlx5_sim_priv.h"

/* Find the entry to use, as the kernel's rate-limit table does. */
static struct mlx5_sim_pp_entry *
sim_pp_find(struct mlx5_sim_vhca *vhca, const uint8_t *raw, uint16_t uid,
	    bool dedicated)
{
	struct mlx5_sim_pp_entry *empty = NULL;
	uint32_t i;

	for (i = 0; i + 1u < vhca->caps.pp_table_size; i++) {
		struct mlx5_sim_pp_entry *e = &vhca->pp[i];

		if (e->refcount == 0) {
			if (dedicated)
				return e;
			if (empty == NULL)
				empty = e;
			continue;
		}
		if (!dedicated && !e->dedicated && e->uid == uid &&
		    memcmp(e->ctx, raw, sizeof(e->ctx)) == 0)
			return e;
	}
	return empty;
}

/* Program or clear an entry: one SET_PP_RATE_LIMIT (card lock held). */
static int
sim_pp_cmd(struct mlx5_sim_vhca *vhca)
{
	return mlx5_sim_cmd_kernel(vhca, MLX5_CMD_OP_SET_PP_RATE_LIMIT,
				   MLX5_SIM_SYND_OK);
}

struct mlx5dv_pp *
mlx5_sim_pp_alloc(struct ibv_context *ctx, size_t pp_context_sz,
		  const void *pp_context, uint32_t flags)
{
	struct mlx5_sim_ctx *sctx = mlx5_sim_ctx_get(ctx);
	uint8_t raw[MLX5_ST_SZ_BYTES(set_pp_rate_limit_context)] = { 0 };
	bool dedicated = flags & MLX5DV_PP_ALLOC_FLAGS_DEDICATED_INDEX;
	struct mlx5_sim_pp_entry *entry;
	struct mlx5_sim_vhca *vhca;
	struct mlx5_sim_pp *pp;
	uint16_t uid;
	uint32_t rate;
	int err;

	if (sctx == NULL) {
		errno = EINVAL;
		return NULL;
	}
	vhca = sctx->file->vhca;
	/* rdma-core refuses unknown flags before asking the kernel. */
	if (flags & ~MLX5DV_PP_ALLOC_FLAGS_DEDICATED_INDEX) {
		errno = EOPNOTSUPP;
		return NULL;
	}
	/* The kernel has a PP object only with qos, pacing and pp uid. */
	if (!vhca->caps.pacing || !vhca->caps.pp_uid) {
		errno = EOPNOTSUPP;
		return NULL;
	}
	/* An entry can be used only by a DEVX context. */
	if (!sctx->file->devx) {
		errno = EINVAL;
		return NULL;
	}
	/* The context attribute: 1..48 bytes. */
	if (pp_context == NULL || pp_context_sz == 0 ||
	    pp_context_sz > sizeof(raw)) {
		errno = EINVAL;
		return NULL;
	}
	/* A table without entries (size 0 or 1). */
	if (vhca->caps.pp_table_size < 2) {
		errno = EOPNOTSUPP;
		return NULL;
	}
	memcpy(raw, pp_context, pp_context_sz);
	rate = MLX5_GET(set_pp_rate_limit_context, raw, rate_limit);
	if (rate == 0 || rate < vhca->caps.pp_min_rate ||
	    rate > vhca->caps.pp_max_rate) {
		SIM_LOG(DEBUG, "%s: pp rate %u kbps outside [%u, %u]",
			vhca->ibdev.name, rate, vhca->caps.pp_min_rate,
			vhca->caps.pp_max_rate);
		errno = EINVAL;
		return NULL;
	}
	pp = calloc(1, sizeof(*pp));
	if (pp == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	mlx5_sim_vhca_lock(vhca);
	uid = sctx->file->uid;
	entry = sim_pp_find(vhca, raw, uid, dedicated);
	if (entry == NULL) {
		mlx5_sim_vhca_unlock(vhca);
		free(pp);
		errno = ENOSPC;
		return NULL;
	}
	if (entry->refcount == 0) {
		err = sim_pp_cmd(vhca);
		if (err != 0) {
			mlx5_sim_vhca_unlock(vhca);
			free(pp);
			errno = err;
			return NULL;
		}
		memcpy(entry->ctx, raw, sizeof(entry->ctx));
		entry->uid = uid;
		entry->dedicated = dedicated;
		vhca->live.pp_entries++;
	}
	entry->refcount++;
	pp->dv.index = (uint16_t)(entry - vhca->pp + 1);
	pp->magic = MLX5_SIM_MAGIC_PP;
	pp->file = sctx->file;
	TAILQ_INSERT_TAIL(&sctx->file->pps, pp, next);
	mlx5_sim_vhca_unlock(vhca);
	return &pp->dv;
}

/* Drop one reference; the entry is cleared at zero (card lock held). */
static bool
sim_pp_put(struct mlx5_sim_vhca *vhca, uint16_t index)
{
	struct mlx5_sim_pp_entry *entry = &vhca->pp[index - 1];

	if (--entry->refcount != 0)
		return false;
	memset(entry, 0, sizeof(*entry));
	vhca->live.pp_entries--;
	return true;
}

void
mlx5_sim_pp_free(struct mlx5dv_pp *dv)
{
	struct mlx5_sim_vhca *vhca;
	struct mlx5_sim_pp *pp;

	if (dv == NULL)
		return;
	pp = MLX5_SIM_OF(dv, struct mlx5_sim_pp, dv);
	if (pp->magic != MLX5_SIM_MAGIC_PP)
		return;
	vhca = pp->file->vhca;
	mlx5_sim_vhca_lock(vhca);
	/*
	 * Like the kernel, the entry is released even if clearing it fails:
	 * a refusal is counted and logged, nothing else can report it.
	 */
	if (vhca->pp[pp->dv.index - 1].refcount == 1)
		sim_pp_cmd(vhca);
	sim_pp_put(vhca, pp->dv.index);
	TAILQ_REMOVE(&pp->file->pps, pp, next);
	mlx5_sim_vhca_unlock(vhca);
	pp->magic = MLX5_SIM_MAGIC_DEAD;
	free(pp);
}

void
mlx5_sim_pp_reclaim(struct mlx5_sim_file *file)
{
	struct mlx5_sim_vhca *vhca = file->vhca;
	struct mlx5_sim_pp *pp;

	while ((pp = TAILQ_FIRST(&file->pps)) != NULL) {
		/*
		 * As at free: the last reference clears the entry with a
		 * command, counted and subject to faults, whose refusal
		 * nothing can report.
		 */
		if (vhca->pp[pp->dv.index - 1].refcount == 1)
			(void)sim_pp_cmd(vhca);
		if (sim_pp_put(vhca, pp->dv.index))
			vhca->reclaimed++;
		TAILQ_REMOVE(&file->pps, pp, next);
		pp->magic = MLX5_SIM_MAGIC_DEAD;
		free(pp);
	}
}
