/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * Packet pacing: the rate table of a vHCA, managed as the kernel does for
 * mlx5dv_pp_alloc()/mlx5dv_pp_free(). Index 0 means "unlimited"; entries
 * are 1..size-1. A shared entry is found again by its whole 48-byte context
 * (zero-padded) and reference counted; a dedicated entry always takes a new
 * index and belongs to the DEVX uid of its context. SET_PP_RATE_LIMIT is
 * issued when an entry is programmed and when its last reference goes.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>

#include "mlx5_devx_cmds.h"
#include "mlx5_sim_priv.h"

/* The kernel's uid for entries shared by every context. */
#define SIM_PP_SHARED_UID 0xffff

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
static uint8_t
sim_pp_cmd(struct mlx5_sim_vhca *vhca)
{
	uint8_t status = 0;
	uint32_t synd = mlx5_sim_cmd_start(vhca, MLX5_CMD_OP_SET_PP_RATE_LIMIT,
					   &status);

	return mlx5_sim_cmd_finish(vhca, MLX5_CMD_OP_SET_PP_RATE_LIMIT, synd,
				   status);
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
	uint8_t status;

	if (sctx == NULL) {
		errno = EINVAL;
		return NULL;
	}
	vhca = sctx->file->vhca;
	/* rdma-core refuses unknown flags; no pacing, no pp object. */
	if ((flags & ~MLX5DV_PP_ALLOC_FLAGS_DEDICATED_INDEX) ||
	    !vhca->caps.pacing || vhca->caps.pp_table_size < 2) {
		errno = EOPNOTSUPP;
		return NULL;
	}
	/* The kernel: context of 1..48 bytes, DEVX contexts only. */
	if (pp_context == NULL || pp_context_sz == 0 ||
	    pp_context_sz > sizeof(raw) || !sctx->file->devx) {
		errno = EINVAL;
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
	uid = dedicated ? sctx->file->uid : SIM_PP_SHARED_UID;
	entry = sim_pp_find(vhca, raw, uid, dedicated);
	if (entry == NULL) {
		mlx5_sim_vhca_unlock(vhca);
		free(pp);
		errno = ENOSPC;
		return NULL;
	}
	if (entry->refcount == 0) {
		status = sim_pp_cmd(vhca);
		if (status != MLX5_CMD_STAT_OK) {
			mlx5_sim_vhca_unlock(vhca);
			free(pp);
			errno = mlx5_cmd_status_to_errno(status);
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
		/* Shared entries other files still use stay programmed. */
		if (sim_pp_put(vhca, pp->dv.index))
			vhca->reclaimed++;
		TAILQ_REMOVE(&file->pps, pp, next);
		pp->magic = MLX5_SIM_MAGIC_DEAD;
		free(pp);
	}
}
