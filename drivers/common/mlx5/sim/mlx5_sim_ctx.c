/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * Contexts: the "uverbs file" model (open, import by cmd_fd, reclaim of
 * everything a file still owns at its last close) and device queries. PDs,
 * MRs, umems and UARs have files of their own.
 */

#include <endian.h>
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
	sctx = MLX5_SIM_OF(ctx, struct mlx5_sim_ctx, vctx.context);
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
		errno = EINVAL;
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
	sctx->vctx.context.async_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (sctx->vctx.context.async_fd < 0) {
		free(sctx);
		return NULL;
	}
	sctx->vctx.context.device = &vhca->ibdev;
	sctx->vctx.context.abi_compat = __VERBS_ABI_IS_EXTENDED;
	sctx->vctx.sz = sizeof(sctx->vctx);
	sctx->vctx.context.cmd_fd = -1;
	/* As the kernel: one per completion EQ of the function. */
	sctx->vctx.context.num_comp_vectors = MLX5_SIM_NUM_COMP_VECTORS;
	pthread_mutex_init(&sctx->vctx.context.mutex, NULL);
	sctx->magic = MLX5_SIM_MAGIC_CTX;
	return sctx;
}

static void
sim_ctx_free(struct mlx5_sim_ctx *sctx)
{
	if (sctx->vctx.context.cmd_fd >= 0)
		close(sctx->vctx.context.cmd_fd);
	close(sctx->vctx.context.async_fd);
	pthread_mutex_destroy(&sctx->vctx.context.mutex);
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
	TAILQ_INIT(&file->dm_pieces);
	TAILQ_INIT(&file->pps);
	TAILQ_INIT(&file->vobjs);
	TAILQ_INIT(&file->matchers);
	TAILQ_INIT(&file->flows);
	TAILQ_INIT(&file->ftables);
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
	sctx->vctx.context.cmd_fd = fd;
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
	return &sctx->vctx.context;
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
	sctx->vctx.context.cmd_fd = cmd_fd; /* Owned from now on, closed at close. */
	TAILQ_INSERT_TAIL(&file->ctxs, sctx, next);
	file->vhca->live.contexts++;
	mlx5_sim_vhca_unlock(file->vhca);
	mlx5_sim_registry_unlock();
	return &sctx->vctx.context;
}

/*
 * The kernel's cleanup at a file's last close, one object family at a
 * time, in the order of sim_reclaim_order[]: each family goes before the
 * families its objects name (a steering rule names a TIR, a TIR an RQT, an
 * RQT its RQs, a queue its CQ and umems, a key its PD and umem, ...), so
 * that nothing is freed while something still names it.
 */

/* Steering rules: they name TIRs. */
static void
sim_reclaim_flows(struct mlx5_sim_file *file)
{
	mlx5_sim_flow_reclaim(file);
}

/*
 * DEVX queue objects, in passes of what nothing left names: QPs and TIRs,
 * then RQTs and SQs, then RQs and TISes, then CQs and transport domains.
 */
static const struct {
	uint8_t kind;
	uint8_t pass;
	void (*reclaim)(struct mlx5_sim_vhca *vhca,
			const struct mlx5_sim_devx_obj *obj);
} sim_reclaim_queue_kinds[] = {
	{ MLX5_SIM_OBJ_QP, 0, mlx5_sim_queue_reclaim },
	{ MLX5_SIM_OBJ_TIR, 0, mlx5_sim_eth_reclaim },
	{ MLX5_SIM_OBJ_RQT, 1, mlx5_sim_eth_reclaim },
	{ MLX5_SIM_OBJ_SQ, 1, mlx5_sim_eth_reclaim },
	{ MLX5_SIM_OBJ_RQ, 2, mlx5_sim_eth_reclaim },
	{ MLX5_SIM_OBJ_TIS, 2, mlx5_sim_eth_reclaim },
	{ MLX5_SIM_OBJ_CQ, 3, mlx5_sim_queue_reclaim },
	{ MLX5_SIM_OBJ_TD, 3, mlx5_sim_eth_reclaim },
};
#define SIM_RECLAIM_QUEUE_PASSES 4

static void
sim_reclaim_devx_queues(struct mlx5_sim_file *file)
{
	struct mlx5_sim_devx_obj *obj;

	for (unsigned int pass = 0; pass < SIM_RECLAIM_QUEUE_PASSES; pass++)
		TAILQ_FOREACH(obj, &file->objs, next)
			for (unsigned int k = 0;
			     k < RTE_DIM(sim_reclaim_queue_kinds); k++)
				if (sim_reclaim_queue_kinds[k].kind ==
				    obj->kind &&
				    sim_reclaim_queue_kinds[k].pass == pass)
					sim_reclaim_queue_kinds[k].reclaim(
						file->vhca, obj);
}

/* Verbs objects: DEVX ones may name them, not the reverse. */
static void
sim_reclaim_verbs(struct mlx5_sim_file *file)
{
	mlx5_sim_verbs_reclaim(file);
}

/*
 * The other DEVX objects and every handle: DEKs, queue counters (the RQs
 * counting on them went above), flow counters (the rules went first),
 * keys (they hold umems and PDs); a DEVX PD goes with the file's PDs
 * below.
 */
static void
sim_reclaim_devx_rest(struct mlx5_sim_file *file)
{
	struct mlx5_sim_vhca *vhca = file->vhca;
	struct mlx5_sim_devx_obj *obj;
	struct mlx5_sim_mkey *mkey;

	while ((obj = TAILQ_FIRST(&file->objs)) != NULL) {
		mkey = obj->kind == MLX5_SIM_OBJ_MKEY ||
		       obj->kind == MLX5_SIM_OBJ_ALIAS ?
		       mlx5_sim_mkey_at(vhca, obj->index) : NULL;
		if (obj->kind == MLX5_SIM_OBJ_DEK &&
		    mlx5_sim_dek_destroy(file, obj->index) == MLX5_SIM_SYND_OK)
			vhca->reclaimed++;
		if (obj->kind == MLX5_SIM_OBJ_LOGIN &&
		    mlx5_sim_login_destroy(file, obj->index) ==
		    MLX5_SIM_SYND_OK)
			vhca->reclaimed++;
		if (obj->kind == MLX5_SIM_OBJ_QCNT)
			mlx5_sim_qcnt_reclaim(vhca, obj);
		if (obj->kind == MLX5_SIM_OBJ_FCNT)
			mlx5_sim_fcnt_reclaim(vhca, obj);
		if (mkey != NULL && mkey->serial == obj->serial)
			mlx5_sim_mkey_reclaim(vhca, mkey);
		TAILQ_REMOVE(&file->objs, obj, next);
		obj->magic = MLX5_SIM_MAGIC_DEAD;
		free(obj);
	}
}

/* Keys of mlx5dv_create_mkey(). */
static void
sim_reclaim_dv_mkeys(struct mlx5_sim_file *file)
{
	struct mlx5_sim_vhca *vhca = file->vhca;
	struct mlx5_sim_dv_mkey *dvmk;
	struct mlx5_sim_mkey *mkey;

	while ((dvmk = TAILQ_FIRST(&file->dv_mkeys)) != NULL) {
		mkey = mlx5_sim_mkey_at(vhca, dvmk->index);
		if (mkey != NULL && mkey->serial == dvmk->serial)
			mlx5_sim_mkey_reclaim(vhca, mkey);
		TAILQ_REMOVE(&file->dv_mkeys, dvmk, next);
		dvmk->magic = MLX5_SIM_MAGIC_DEAD;
		free(dvmk);
	}
}

/* Memory regions (ibv_reg_mr()). */
static void
sim_reclaim_mrs(struct mlx5_sim_file *file)
{
	struct mlx5_sim_vhca *vhca = file->vhca;
	struct mlx5_sim_mkey *mkey;
	struct mlx5_sim_mr *mr;

	while ((mr = TAILQ_FIRST(&file->mrs)) != NULL) {
		mkey = mlx5_sim_mkey_at(vhca, mr->index);
		if (mkey != NULL && mkey->serial == mr->serial)
			mlx5_sim_mkey_reclaim(vhca, mkey);
		TAILQ_REMOVE(&file->mrs, mr, next);
		mr->magic = MLX5_SIM_MAGIC_DEAD;
		free(mr);
	}
}

/* Packet-pacing entries. */
static void
sim_reclaim_pp(struct mlx5_sim_file *file)
{
	mlx5_sim_pp_reclaim(file);
}

/* umems: every queue and key that named one went above. */
static void
sim_reclaim_umems(struct mlx5_sim_file *file)
{
	struct mlx5_sim_vhca *vhca = file->vhca;
	struct mlx5_sim_umem *umem;

	while ((umem = TAILQ_FIRST(&file->umems)) != NULL) {
		TAILQ_REMOVE(&file->umems, umem, next);
		vhca->live.umems--;
		vhca->umem_count--;
		vhca->reclaimed++;
		umem->magic = MLX5_SIM_MAGIC_DEAD;
		free(umem);
	}
}

/* UARs: their pages unmapped. */
static void
sim_reclaim_uars(struct mlx5_sim_file *file)
{
	struct mlx5_sim_vhca *vhca = file->vhca;
	struct mlx5_sim_uar *uar;

	while ((uar = TAILQ_FIRST(&file->uars)) != NULL) {
		TAILQ_REMOVE(&file->uars, uar, next);
		vhca->live.uars--;
		vhca->uar_count--;
		vhca->reclaimed++;
		munmap(uar->page, mlx5_sim_page_size());
		uar->magic = MLX5_SIM_MAGIC_DEAD;
		free(uar);
	}
	/* The context's own page (no object of the program's). */
	uar = file->ctx_uar;
	if (uar != NULL) {
		file->ctx_uar = NULL;
		vhca->uar_count--;
		munmap(uar->page, mlx5_sim_page_size());
		uar->magic = MLX5_SIM_MAGIC_DEAD;
		free(uar);
	}
}

/* PDs last: every object above may have named one. */
static void
sim_reclaim_pds(struct mlx5_sim_file *file)
{
	struct mlx5_sim_vhca *vhca = file->vhca;
	struct mlx5_sim_pd_obj *pd_obj;
	struct mlx5_sim_pd *pd;

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

/* The families in destroy order. */
static void (*const sim_reclaim_order[])(struct mlx5_sim_file *file) = {
	sim_reclaim_flows,
	sim_reclaim_devx_queues,
	sim_reclaim_verbs,
	sim_reclaim_devx_rest,
	sim_reclaim_dv_mkeys,
	sim_reclaim_mrs,
	mlx5_sim_dm_reclaim,
	sim_reclaim_pp,
	sim_reclaim_umems,
	sim_reclaim_uars,
	sim_reclaim_pds,
};

static void
sim_file_reclaim(struct mlx5_sim_file *file)
{
	for (unsigned int i = 0; i < RTE_DIM(sim_reclaim_order); i++)
		sim_reclaim_order[i](file);
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
				       IBV_ODP_SUPPORT_READ |
				       IBV_ODP_SUPPORT_SRQ_RECV;
	struct mlx5_sim_ctx *sctx = mlx5_sim_ctx_get(ctx);
	struct mlx5_sim_vhca *vhca;

	if (sctx == NULL || attr == NULL || (input != NULL && input->comp_mask))
		return EINVAL;
	vhca = sctx->file->vhca;
	memset(attr, 0, sizeof(*attr));
	snprintf(attr->orig_attr.fw_ver, sizeof(attr->orig_attr.fw_ver),
		 "sim");
	attr->orig_attr.node_guid = htobe64(mlx5_sim_vhca_guid(vhca));
	attr->orig_attr.sys_image_guid = htobe64(mlx5_sim_card_guid(vhca));
	attr->orig_attr.vendor_id = 0x02c9; /* Mellanox. */
	attr->orig_attr.vendor_part_id = vhca->caps.device_id;
	attr->orig_attr.max_mr_size = UINT64_MAX;
	attr->orig_attr.page_size_cap = mlx5_sim_page_size();
	/* The object tables' sizes, as mlx5_ib reports them from the caps. */
	attr->orig_attr.max_qp = MLX5_SIM_MAX_QPS - 1;
	attr->orig_attr.max_qp_wr = 1 << MLX5_SIM_LOG_MAX_QP_SZ;
	attr->orig_attr.max_sge = MLX5_SIM_MAX_SGE;
	attr->orig_attr.max_sge_rd = MLX5_SIM_MAX_SGE;
	attr->orig_attr.max_cq = MLX5_SIM_MAX_CQS - 1;
	attr->orig_attr.max_cqe = (1 << MLX5_SIM_LOG_MAX_CQ_SZ) - 1;
	attr->orig_attr.max_mr = MLX5_SIM_MKEY_TABLE_SIZE(vhca) - 1;
	attr->orig_attr.max_pd = MLX5_SIM_MAX_PDS;
	attr->orig_attr.max_pkeys = MLX5_SIM_MAX_PKEYS;
	/*
	 * Atomics on host-endian memory (mlx5_ib: IB_ATOMIC_HCA), 16 reads
	 * or atomics in flight per QP either way, as log_max_ra_*_qp 4.
	 */
	attr->orig_attr.atomic_cap = IBV_ATOMIC_HCA;
	attr->orig_attr.max_qp_rd_atom = 16;
	attr->orig_attr.max_qp_init_rd_atom = 16;
	attr->orig_attr.max_res_rd_atom = 16 * attr->orig_attr.max_qp;
	attr->orig_attr.phys_port_cnt = vhca->caps.nports;
	attr->phys_port_cnt_ex = vhca->caps.nports;
	/*
	 * Raw packet QPs on the Ethernet ports: mlx5_ib's flags of the
	 * eth caps the device announces (csum_cap, scatter_fcs).
	 */
	attr->orig_attr.device_cap_flags |= IBV_DEVICE_RAW_IP_CSUM;
	/* XRC, as mlx5_ib reports the cap's xrc bit. */
	attr->orig_attr.device_cap_flags |= IBV_DEVICE_XRC;
	attr->device_cap_flags_ex = attr->orig_attr.device_cap_flags |
				    IBV_DEVICE_RAW_SCATTER_FCS;
	attr->raw_packet_caps = IBV_RAW_PACKET_CAP_IP_CSUM;
	/*
	 * RSS as mlx5_ib reports it: raw packet QPs, Toeplitz over IP
	 * addresses and TCP/UDP ports (no inner headers, no IPsec SPI: not
	 * modelled), tables of 2^8 entries at most (rss_ind_tbl_cap); WQs.
	 */
	attr->rss_caps.supported_qpts = 1u << IBV_QPT_RAW_PACKET;
	attr->rss_caps.rx_hash_function = IBV_RX_HASH_FUNC_TOEPLITZ;
	attr->rss_caps.rx_hash_fields_mask =
		IBV_RX_HASH_SRC_IPV4 | IBV_RX_HASH_DST_IPV4 |
		IBV_RX_HASH_SRC_IPV6 | IBV_RX_HASH_DST_IPV6 |
		IBV_RX_HASH_SRC_PORT_TCP | IBV_RX_HASH_DST_PORT_TCP |
		IBV_RX_HASH_SRC_PORT_UDP | IBV_RX_HASH_DST_PORT_UDP;
	attr->rss_caps.max_rwq_indirection_tables = MLX5_SIM_MAX_QPS - 1;
	attr->rss_caps.max_rwq_indirection_table_size = 1u << 8;
	attr->max_wq_type_rq = MLX5_SIM_MAX_QPS - 1;
	attr->max_dm_size = vhca->caps.dm_size;
	if (vhca->caps.odp) {
		attr->odp_caps.general_caps = IBV_ODP_SUPPORT |
					      IBV_ODP_SUPPORT_IMPLICIT;
		attr->odp_caps.per_transport_caps.rc_odp_caps = odp_transport;
		attr->odp_caps.per_transport_caps.ud_odp_caps =
			IBV_ODP_SUPPORT_SEND;
	}
	return 0;
}
