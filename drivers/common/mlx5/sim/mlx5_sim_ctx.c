/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * Contexts and what belongs to them: the "uverbs file" model (open, import
 * by cmd_fd, reclaim at last close), protection domains (alloc, import by
 * handle, pdn), verbs memory regions, umems and UAR pages.
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
#include <rte_errno.h>

#include "mlx5_sim_priv.h"

/* Offset of the doorbell (BlueFlame) register in a UAR page. */
#define MLX5_SIM_UAR_BF_OFFSET 0x800

/* Every open file; guarded by the registry lock. */
static TAILQ_HEAD(, mlx5_sim_file) sim_files =
	TAILQ_HEAD_INITIALIZER(sim_files);

struct mlx5_sim_ctx *
mlx5_sim_ctx_get(struct ibv_context *ctx)
{
	struct mlx5_sim_ctx *sctx;

	/* Only a context opened on a sim device may be read as ours. */
	if (ctx == NULL || mlx5_sim_vhca_of_device(ctx->device) == NULL)
		return NULL;
	sctx = MLX5_SIM_OF(ctx, struct mlx5_sim_ctx, ibctx);
	return sctx->magic == MLX5_SIM_MAGIC_CTX ? sctx : NULL;
}

bool
mlx5_sim_is_ctx(struct ibv_context *ctx)
{
	return mlx5_sim_ctx_get(ctx) != NULL;
}

int
mlx5_sim_vhca_id_of_ctx(struct ibv_context *ctx, uint16_t *card,
			uint16_t *vhca_id)
{
	struct mlx5_sim_ctx *sctx = mlx5_sim_ctx_get(ctx);

	if (sctx == NULL) {
		rte_errno = EINVAL;
		return -EINVAL;
	}
	if (card != NULL)
		*card = sctx->file->vhca->card->id;
	if (vhca_id != NULL)
		*vhca_id = sctx->file->vhca->vhca_id;
	return 0;
}

/* Allocate a context structure with its event channel fd. */
static struct mlx5_sim_ctx *
sim_ctx_new(struct mlx5_sim_vhca *vhca)
{
	struct mlx5_sim_ctx *sctx = calloc(1, sizeof(*sctx));

	if (sctx == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	/* The async event fd exists (callers poll it); nothing is posted. */
	sctx->ibctx.async_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (sctx->ibctx.async_fd < 0) {
		free(sctx);
		return NULL;
	}
	sctx->ibctx.device = &vhca->ibdev;
	sctx->ibctx.cmd_fd = -1;
	sctx->ibctx.num_comp_vectors = 1;
	pthread_mutex_init(&sctx->ibctx.mutex, NULL);
	sctx->magic = MLX5_SIM_MAGIC_CTX;
	return sctx;
}

static void
sim_ctx_free(struct mlx5_sim_ctx *sctx)
{
	if (sctx->ibctx.cmd_fd >= 0)
		close(sctx->ibctx.cmd_fd);
	close(sctx->ibctx.async_fd);
	pthread_mutex_destroy(&sctx->ibctx.mutex);
	sctx->magic = MLX5_SIM_MAGIC_DEAD;
	free(sctx);
}

static struct mlx5_sim_file *
sim_file_new(struct mlx5_sim_vhca *vhca, int fd)
{
	struct mlx5_sim_file *file;
	struct stat st;

	if (fstat(fd, &st) < 0)
		return NULL;
	file = calloc(1, sizeof(*file));
	if (file == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	file->vhca = vhca;
	file->st_dev = st.st_dev;
	file->st_ino = st.st_ino;
	file->next_pd_handle = 1;
	TAILQ_INIT(&file->ctxs);
	TAILQ_INIT(&file->pd_objs);
	TAILQ_INIT(&file->pds);
	TAILQ_INIT(&file->mrs);
	TAILQ_INIT(&file->objs);
	TAILQ_INIT(&file->dv_mkeys);
	TAILQ_INIT(&file->umems);
	TAILQ_INIT(&file->uars);
	TAILQ_INIT(&file->pps);
	return file;
}

/* A DEVX uid not used by another file of the vHCA (card lock held). */
static uint16_t
sim_uid_alloc(struct mlx5_sim_vhca *vhca)
{
	for (;;) {
		struct mlx5_sim_file *file;
		uint16_t uid = vhca->next_uid++;

		/* 0 is the kernel's uid; 0xffff its shared-resource uid. */
		if (uid == 0 || uid == UINT16_MAX)
			continue;
		TAILQ_FOREACH(file, &vhca->files, vhca_next)
			if (file->devx && file->uid == uid)
				break;
		if (file == NULL)
			return uid;
	}
}

struct ibv_context *
mlx5_sim_open_device(struct ibv_device *device,
		     struct mlx5dv_context_attr *attr)
{
	struct mlx5_sim_vhca *vhca = mlx5_sim_vhca_of_device(device);
	struct mlx5_sim_file *file;
	struct mlx5_sim_ctx *sctx;
	bool devx;
	int fd;

	if (vhca == NULL ||
	    (attr != NULL && (attr->flags & ~MLX5DV_CONTEXT_FLAGS_DEVX))) {
		errno = EOPNOTSUPP;
		return NULL;
	}
	devx = attr != NULL && (attr->flags & MLX5DV_CONTEXT_FLAGS_DEVX);
	sctx = sim_ctx_new(vhca);
	if (sctx == NULL)
		return NULL;
	/* The command fd is a real file: its inode names the uverbs file. */
	fd = memfd_create(vhca->ibdev.name, MFD_CLOEXEC);
	if (fd < 0) {
		sim_ctx_free(sctx);
		return NULL;
	}
	sctx->ibctx.cmd_fd = fd;
	file = sim_file_new(vhca, fd);
	if (file == NULL) {
		sim_ctx_free(sctx);
		return NULL;
	}
	mlx5_sim_registry_lock();
	mlx5_sim_vhca_lock(vhca);
	if (devx) {
		/* The kernel gives a DEVX context its uid with CREATE_UCTX. */
		int err = mlx5_sim_cmd_kernel(vhca,
			MLX5_SIM_CMD_OP_CREATE_UCTX,
			vhca->uctx_count >= MLX5_SIM_MAX_UCTX ?
			MLX5_SIM_SYND_UCTX_TABLE_FULL : MLX5_SIM_SYND_OK);

		if (err != 0) {
			mlx5_sim_vhca_unlock(vhca);
			mlx5_sim_registry_unlock();
			free(file);
			sim_ctx_free(sctx);
			errno = err;
			return NULL;
		}
		file->devx = true;
		file->uid = sim_uid_alloc(vhca);
		vhca->uctx_count++;
	}
	sctx->file = file;
	TAILQ_INSERT_TAIL(&file->ctxs, sctx, next);
	TAILQ_INSERT_TAIL(&vhca->files, file, vhca_next);
	TAILQ_INSERT_TAIL(&sim_files, file, next);
	vhca->live.contexts++;
	mlx5_sim_vhca_unlock(vhca);
	mlx5_sim_registry_unlock();
	return &sctx->ibctx;
}

struct ibv_context *
mlx5_sim_import_device(int cmd_fd)
{
	struct mlx5_sim_file *file;
	struct mlx5_sim_ctx *sctx;
	struct stat st;

	if (fstat(cmd_fd, &st) < 0)
		return NULL; /* errno EBADF from fstat. */
	mlx5_sim_registry_lock();
	TAILQ_FOREACH(file, &sim_files, next)
		if (file->st_ino == st.st_ino && file->st_dev == st.st_dev)
			break;
	if (file == NULL) {
		mlx5_sim_registry_unlock();
		errno = EINVAL;
		return NULL;
	}
	sctx = sim_ctx_new(file->vhca);
	if (sctx == NULL) {
		mlx5_sim_registry_unlock();
		return NULL;
	}
	mlx5_sim_vhca_lock(file->vhca);
	sctx->file = file;
	sctx->ibctx.cmd_fd = cmd_fd; /* Owned from now on, closed at close. */
	TAILQ_INSERT_TAIL(&file->ctxs, sctx, next);
	file->vhca->live.contexts++;
	mlx5_sim_vhca_unlock(file->vhca);
	mlx5_sim_registry_unlock();
	return &sctx->ibctx;
}

/* Free what a file still owns: the kernel's cleanup at last close. */
static void
sim_file_reclaim(struct mlx5_sim_file *file)
{
	struct mlx5_sim_vhca *vhca = file->vhca;
	struct mlx5_sim_devx_obj *obj;
	struct mlx5_sim_dv_mkey *dvmk;
	struct mlx5_sim_mr *mr;
	struct mlx5_sim_umem *umem;
	struct mlx5_sim_uar *uar;
	struct mlx5_sim_pd *pd;
	struct mlx5_sim_pd_obj *pd_obj;
	struct mlx5_sim_mkey *mkey;

	/* Keys first: they hold the umems and PDs. */
	while ((obj = TAILQ_FIRST(&file->objs)) != NULL) {
		/* A DEVX PD goes with the file's PDs below. */
		mkey = obj->kind == MLX5_SIM_OBJ_PD ? NULL :
		       mlx5_sim_mkey_at(vhca, obj->index);
		if (mkey != NULL && mkey->serial == obj->serial)
			mlx5_sim_mkey_reclaim(vhca, mkey);
		TAILQ_REMOVE(&file->objs, obj, next);
		obj->magic = MLX5_SIM_MAGIC_DEAD;
		free(obj);
	}
	while ((dvmk = TAILQ_FIRST(&file->dv_mkeys)) != NULL) {
		mkey = mlx5_sim_mkey_at(vhca, dvmk->index);
		if (mkey != NULL && mkey->serial == dvmk->serial)
			mlx5_sim_mkey_reclaim(vhca, mkey);
		TAILQ_REMOVE(&file->dv_mkeys, dvmk, next);
		dvmk->magic = MLX5_SIM_MAGIC_DEAD;
		free(dvmk);
	}
	while ((mr = TAILQ_FIRST(&file->mrs)) != NULL) {
		mkey = mlx5_sim_mkey_at(vhca, mr->index);
		if (mkey != NULL && mkey->serial == mr->serial)
			mlx5_sim_mkey_reclaim(vhca, mkey);
		TAILQ_REMOVE(&file->mrs, mr, next);
		mr->magic = MLX5_SIM_MAGIC_DEAD;
		free(mr);
	}
	mlx5_sim_pp_reclaim(file);
	while ((umem = TAILQ_FIRST(&file->umems)) != NULL) {
		TAILQ_REMOVE(&file->umems, umem, next);
		vhca->live.umems--;
		vhca->umem_count--;
		vhca->reclaimed++;
		umem->magic = MLX5_SIM_MAGIC_DEAD;
		free(umem);
	}
	while ((uar = TAILQ_FIRST(&file->uars)) != NULL) {
		TAILQ_REMOVE(&file->uars, uar, next);
		vhca->live.uars--;
		vhca->uar_count--;
		vhca->reclaimed++;
		munmap(uar->page, mlx5_sim_page_size());
		uar->magic = MLX5_SIM_MAGIC_DEAD;
		free(uar);
	}
	while ((pd = TAILQ_FIRST(&file->pds)) != NULL) {
		TAILQ_REMOVE(&file->pds, pd, next);
		pd->magic = MLX5_SIM_MAGIC_DEAD;
		free(pd);
	}
	while ((pd_obj = TAILQ_FIRST(&file->pd_objs)) != NULL) {
		TAILQ_REMOVE(&file->pd_objs, pd_obj, next);
		if (pd_obj->alive) {
			vhca->live.pds--;
			vhca->pd_count--;
			vhca->reclaimed++;
		}
		free(pd_obj);
	}
}

int
mlx5_sim_close_device(struct ibv_context *ctx)
{
	struct mlx5_sim_ctx *sctx = mlx5_sim_ctx_get(ctx);
	struct mlx5_sim_file *file;
	struct mlx5_sim_vhca *vhca;
	int err = 0;

	if (sctx == NULL) {
		errno = EINVAL;
		return -1;
	}
	file = sctx->file;
	vhca = file->vhca;
	mlx5_sim_registry_lock();
	mlx5_sim_vhca_lock(vhca);
	TAILQ_REMOVE(&file->ctxs, sctx, next);
	vhca->live.contexts--;
	if (!TAILQ_EMPTY(&file->ctxs)) {
		file = NULL; /* Other contexts keep the file. */
	} else {
		if (file->devx) {
			/*
			 * The kernel releases the file whatever the device
			 * answers: a refused DESTROY_UCTX is reported, the
			 * context is gone either way.
			 */
			err = mlx5_sim_cmd_kernel(vhca,
					MLX5_SIM_CMD_OP_DESTROY_UCTX,
					MLX5_SIM_SYND_OK);
			vhca->uctx_count--;
		}
		sim_file_reclaim(file);
		TAILQ_REMOVE(&vhca->files, file, vhca_next);
		TAILQ_REMOVE(&sim_files, file, next);
	}
	mlx5_sim_vhca_unlock(vhca);
	mlx5_sim_registry_unlock();
	free(file);
	sim_ctx_free(sctx);
	if (err != 0) {
		errno = err;
		return -1;
	}
	return 0;
}

/*
 * Extended device attributes: what rdma-core reports for an mlx5 device,
 * reduced to what the model has; odp_caps follows the odp devarg. A query
 * of cached attributes, not a firmware command.
 */
int
mlx5_sim_query_device_ex(struct ibv_context *ctx,
			 const struct ibv_query_device_ex_input *input,
			 struct ibv_device_attr_ex *attr)
{
	const uint32_t odp_transport = IBV_ODP_SUPPORT_SEND |
				       IBV_ODP_SUPPORT_RECV |
				       IBV_ODP_SUPPORT_WRITE |
				       IBV_ODP_SUPPORT_READ;
	struct mlx5_sim_ctx *sctx = mlx5_sim_ctx_get(ctx);
	struct mlx5_sim_vhca *vhca;

	if (sctx == NULL || attr == NULL || (input != NULL && input->comp_mask))
		return EINVAL;
	vhca = sctx->file->vhca;
	memset(attr, 0, sizeof(*attr));
	snprintf(attr->orig_attr.fw_ver, sizeof(attr->orig_attr.fw_ver),
		 "sim");
	attr->orig_attr.vendor_id = 0x02c9; /* Mellanox. */
	attr->orig_attr.max_mr_size = UINT64_MAX;
	attr->orig_attr.page_size_cap = mlx5_sim_page_size();
	attr->orig_attr.max_mr = MLX5_SIM_MKEY_TABLE_SIZE - 1;
	attr->orig_attr.max_pd = MLX5_SIM_MAX_PDS;
	attr->orig_attr.phys_port_cnt = 1;
	attr->phys_port_cnt_ex = 1;
	if (vhca->caps.odp) {
		attr->odp_caps.general_caps = IBV_ODP_SUPPORT |
					      IBV_ODP_SUPPORT_IMPLICIT;
		attr->odp_caps.per_transport_caps.rc_odp_caps = odp_transport;
		attr->odp_caps.per_transport_caps.ud_odp_caps =
			IBV_ODP_SUPPORT_SEND;
	}
	return 0;
}

/* Protection domains. */

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

/* Verbs memory regions: an mkey over the process's virtual addresses. */

#define SIM_MR_ACCESS (IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | \
		       IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_ATOMIC | \
		       IBV_ACCESS_MW_BIND | IBV_ACCESS_HUGETLB | \
		       IBV_ACCESS_OPTIONAL_RANGE | IBV_ACCESS_ON_DEMAND)

/*
 * rdma-core's implicit ODP MR: address 0 (NULL), length SIZE_MAX, with
 * IBV_ACCESS_ON_DEMAND; it translates every address of the process.
 */
static bool
sim_mr_implicit(const void *addr, size_t length, int access)
{
	return addr == NULL && length == SIZE_MAX &&
	       (access & IBV_ACCESS_ON_DEMAND);
}

struct ibv_mr *
mlx5_sim_reg_mr(struct ibv_pd *pd, void *addr, size_t length, int access)
{
	struct mlx5_sim_pd *spd = mlx5_sim_pd_get(pd);
	struct mlx5_sim_vhca *vhca;
	struct mlx5_sim_mkey *mkey = NULL;
	struct mlx5_sim_file *file;
	struct mlx5_sim_mr *mr;
	bool odp = access & IBV_ACCESS_ON_DEMAND;
	bool implicit = sim_mr_implicit(addr, length, access);
	int ret;

	if (spd == NULL || length == 0 ||
	    (uintptr_t)addr + length - 1 < (uintptr_t)addr ||
	    /* The whole space is an implicit ODP MR or nothing. */
	    (addr == NULL && length == SIZE_MAX && !implicit) ||
	    (access & ~SIM_MR_ACCESS) ||
	    /* Remote write and atomics need local write (IB spec). */
	    ((access & (IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_ATOMIC)) &&
	     !(access & IBV_ACCESS_LOCAL_WRITE))) {
		errno = EINVAL;
		return NULL;
	}
	file = spd->obj->file;
	vhca = file->vhca;
	/* The kernel refuses ODP on a device without it (ib_check_mr_access). */
	if (odp && !vhca->caps.odp) {
		errno = EOPNOTSUPP;
		return NULL;
	}
	/*
	 * ODP pins nothing: pages are checked when the device touches them.
	 * Otherwise the pin needs write access for a writable registration
	 * (the kernel's ib_access_writable()).
	 */
	errno = odp ? 0 : mlx5_sim_range_pinnable(addr, length,
		access & (IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
			  IBV_ACCESS_REMOTE_ATOMIC));
	if (errno != 0)
		return NULL;
	mr = calloc(1, sizeof(*mr));
	if (mr == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	ret = mlx5_sim_verbs_mkey_create(spd, MLX5_SIM_ORIGIN_MR,
					 MLX5_SIM_SYND_OK, &mkey);
	if (ret != 0) {
		free(mr);
		errno = ret;
		return NULL;
	}
	mkey->kind = MLX5_SIM_MKEY_VA;
	mkey->access_mode = MLX5_MKC_ACCESS_MODE_MTT;
	mkey->lw = !!(access & IBV_ACCESS_LOCAL_WRITE);
	mkey->rr = !!(access & IBV_ACCESS_REMOTE_READ);
	mkey->rw = !!(access & IBV_ACCESS_REMOTE_WRITE);
	mkey->a = !!(access & IBV_ACCESS_REMOTE_ATOMIC);
	mkey->start = (uintptr_t)addr;
	mkey->len = implicit ? 0 : length;
	mkey->length64 = implicit;
	mkey->odp = odp;
	vhca->live.mrs++;
	mr->ibmr.context = pd->context;
	mr->ibmr.pd = pd;
	mr->ibmr.addr = addr;
	mr->ibmr.length = length;
	mr->ibmr.handle = mkey->index;
	mr->ibmr.lkey = mkey->index << 8 | mkey->variant;
	mr->ibmr.rkey = mr->ibmr.lkey;
	mr->magic = MLX5_SIM_MAGIC_MR;
	mr->file = file;
	mr->index = mkey->index;
	mr->serial = mkey->serial;
	TAILQ_INSERT_TAIL(&file->mrs, mr, next);
	mlx5_sim_vhca_unlock(vhca);
	return &mr->ibmr;
}

int
mlx5_sim_dereg_mr(struct ibv_mr *ibmr)
{
	struct mlx5_sim_vhca *vhca;
	struct mlx5_sim_mkey *mkey;
	struct mlx5_sim_mr *mr;
	int err;

	if (ibmr == NULL)
		return EINVAL;
	mr = MLX5_SIM_OF(ibmr, struct mlx5_sim_mr, ibmr);
	if (mr->magic != MLX5_SIM_MAGIC_MR)
		return EINVAL;
	vhca = mr->file->vhca;
	mlx5_sim_vhca_lock(vhca);
	err = mlx5_sim_cmd_kernel(vhca, MLX5_CMD_OP_DESTROY_MKEY,
				  MLX5_SIM_SYND_OK);
	if (err != 0) {
		mlx5_sim_vhca_unlock(vhca);
		return err;
	}
	mkey = mlx5_sim_mkey_at(vhca, mr->index);
	if (mkey != NULL && mkey->serial == mr->serial)
		mlx5_sim_mkey_release(vhca, mkey);
	TAILQ_REMOVE(&mr->file->mrs, mr, next);
	mlx5_sim_vhca_unlock(vhca);
	mr->magic = MLX5_SIM_MAGIC_DEAD;
	free(mr);
	return 0;
}

/* Umems. */

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

/* UAR pages. */

static bool
sim_uar_page_used(struct mlx5_sim_vhca *vhca, uint32_t page_id)
{
	struct mlx5_sim_file *file;
	struct mlx5_sim_uar *uar;

	TAILQ_FOREACH(file, &vhca->files, vhca_next)
		TAILQ_FOREACH(uar, &file->uars, next)
			if (uar->dv.page_id == page_id)
				return true;
	return false;
}

struct mlx5dv_devx_uar *
mlx5_sim_alloc_uar(struct ibv_context *ctx, uint32_t flags)
{
	struct mlx5_sim_ctx *sctx = mlx5_sim_ctx_get(ctx);
	size_t page_size = mlx5_sim_page_size();
	struct mlx5_sim_vhca *vhca;
	struct mlx5_sim_uar *uar;
	int err;
	void *page;

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
	vhca = sctx->file->vhca;
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
	uar->file = sctx->file;
	uar->page = page;
	TAILQ_INSERT_TAIL(&sctx->file->uars, uar, next);
	vhca->uar_count++;
	vhca->live.uars++;
	mlx5_sim_vhca_unlock(vhca);
	return &uar->dv;
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
