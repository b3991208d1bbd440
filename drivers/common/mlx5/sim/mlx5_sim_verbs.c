/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * Verbs queue objects: ibv_create_cq/qp_ex/srq/wq/rwq_ind_table and their
 * destroys, XRC (ibv_open_xrcd, XRC SRQs of ibv_create_srq_ex, XRC
 * initiator and target QPs), ibv_modify_qp/srq, mlx5dv_init_obj, DEVX
 * query/modify on them
 * (mlx5dv_devx_qp_query(), ...) and rdma-core's lag-port and UDP
 * source-port calls. Each part plays its real counterpart:
 *
 * - the provider library (rdma-core's providers/mlx5): sizes the queues,
 *   allocates their rings, keeps ibv_qp.state, and builds the lag-port and
 *   UDP-port calls out of DEVX commands (QUERY_LAG, QUERY_QP, RTS2RTS);
 * - the kernel (drivers/infiniband/hw/mlx5): pins the rings, issues the
 *   PRM command (CREATE_CQ, CREATE_QP and the transitions, CREATE_RMP for
 *   an SRQ, CREATE_RQ for a WQ, CREATE_RQT for an indirection table),
 *   keeps use counts (a CQ, WQ or SRQ in use cannot go: EBUSY; nor a PD),
 *   assigns a lag port at RST2INIT, and lets DEVX query/modify an object
 *   only with a mailbox naming that very object (else EINVAL);
 * - the device: the same command handlers DEVX objects go through, so a
 *   verbs CQ is a CQ, a verbs QP an RC QP, a WQ an RQ, a table an RQT.
 *
 * Each command is counted and subject to fault injection; a refused one is
 * the status's errno (the kernel's mlx5_cmd_exec). Objects belong to the
 * context's file and are reclaimed at its last close. Work is posted on
 * them by the provider's datapath of a front (the rdma-core front's
 * sim_rdma_dp.c), which keeps its state in the object (prov).
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <rte_common.h>

#include "mlx5_sim_priv.h"

#define SIM_V_CQE_SIZE 64
#define SIM_V_WQEBB 64
/* The doorbell record, after the ring: a line of its own. */
#define SIM_V_DBR_SIZE 64
/* rdma-core's limits the model applies (mlx5 caps of a ConnectX). */
#define SIM_V_MAX_SEND_SGE 30
#define SIM_V_MAX_RECV_SGE 32
/* The largest send WQE: 63 segments of 16 bytes (ds is 6 bits). */
#define SIM_V_WQE_MAX (63 * 16)
#define SIM_V_MAX_SRQ_SGE 31
#define SIM_V_LOG_MAX_RQT 8
/* No PRM opcode: the kernel's several commands of a raw packet QP. */
#define SIM_V_RAW_QP 0
/* libmlx5's raw packet send overhead: control and Ethernet segments. */
#define SIM_V_RAW_OVERHEAD (16 + 32)

/* log2 of the smallest power of two >= @n (n >= 1). */
static unsigned int
sim_log2_ceil(uint64_t n)
{
	unsigned int log = 0;

	while (((uint64_t)1 << log) < n)
		log++;
	return log;
}

/* The status's errno of a refused DEVX call (rdma-core's helper). */
static int
sim_cmd_status_err(int ret, const void *out)
{
	if (ret == EREMOTEIO)
		return mlx5_sim_status_errno(MLX5_GET(mbox_out, out, status));
	return ret;
}

struct mlx5_sim_vobj *
mlx5_sim_vobj_of(void *ib, enum mlx5_sim_obj_kind kind)
{
	struct mlx5_sim_vobj *v;

	if (ib == NULL)
		return NULL;
	v = MLX5_SIM_OF(ib, struct mlx5_sim_vobj, ib);
	return v->magic == MLX5_SIM_MAGIC_VERBS && v->kind == kind ? v : NULL;
}

/*
 * The ring memory libmlx5 allocates for a @kind, @len bytes, by its
 * allocation type (from the environment: MLX_QP_ALLOC_TYPE,
 * MLX_CQ_ALLOC_TYPE, MLX_SRQ_ALLOC_TYPE, MLX_RWQ_ALLOC_TYPE): HUGE on 2
 * MB huge pages or nothing, CONTIG the kernel's contiguous pages, which
 * mlx5_ib no longer gives (its mmap answers ENOSYS), so nothing; the
 * PREFER_ kinds and ALL fall back to ordinary pages, as does any other
 * value. A QP without rings (@ring false: an RSS QP's) is no allocation
 * of libmlx5's. NULL on failure; *@huge the mapping's length if on huge
 * pages.
 */
static void *
sim_vobj_ring_alloc(enum mlx5_sim_obj_kind kind, bool ring, size_t len,
		    size_t *huge)
{
	const char *name = kind == MLX5_SIM_OBJ_QP  ? "MLX_QP_ALLOC_TYPE" :
			   kind == MLX5_SIM_OBJ_CQ  ? "MLX_CQ_ALLOC_TYPE" :
			   kind == MLX5_SIM_OBJ_SRQ ? "MLX_SRQ_ALLOC_TYPE" :
			   kind == MLX5_SIM_OBJ_RQ  ? "MLX_RWQ_ALLOC_TYPE" :
						      NULL;
	const char *type = name != NULL && ring ? getenv(name) : NULL;
	void *p;

	*huge = 0;
	if (type != NULL &&
	    (strcasecmp(type, "HUGE") == 0 ||
	     strcasecmp(type, "PREFER_HUGE") == 0 ||
	     strcasecmp(type, "ALL") == 0)) {
		size_t hlen = RTE_ALIGN_CEIL(len, (size_t)2 << 20);

		p = mmap(NULL, hlen, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB, -1, 0);
		if (p != MAP_FAILED) {
			*huge = hlen;
			return p;
		}
		if (strcasecmp(type, "HUGE") == 0)
			return NULL;
	}
	if (type != NULL && strcasecmp(type, "CONTIG") == 0)
		return NULL;
	return aligned_alloc(4096, len);
}

/* The verbs object of user index @uidx of @file, or NULL (lock held). */
static struct mlx5_sim_vobj *
sim_vobj_by_uidx_locked(struct mlx5_sim_file *file, uint32_t uidx)
{
	struct mlx5_sim_vobj *v;

	if (uidx == 0)
		return NULL;
	TAILQ_FOREACH(v, &file->vobjs, next)
		if (v->uidx == uidx)
			return v;
	return NULL;
}

/*
 * A user index for a receive queue of @file, as libmlx5 gives one to each
 * resource its CQEs may name (the device announces cqe_version 1): never
 * 0, 24 bits, none in use twice in the context.
 */
static uint32_t
sim_uidx_new_locked(struct mlx5_sim_file *file)
{
	uint32_t u, tries = 0;

	/* A free one, unless 2^24 - 1 are in use (then one is shared). */
	do {
		file->next_uidx = file->next_uidx % 0xffffffu + 1;
		u = file->next_uidx;
	} while (sim_vobj_by_uidx_locked(file, u) != NULL &&
		 ++tries < 0xffffffu);
	return u;
}

static uint32_t
sim_uidx_new(struct mlx5_sim_file *file)
{
	uint32_t u;

	mlx5_sim_vhca_lock(file->vhca);
	u = sim_uidx_new_locked(file);
	mlx5_sim_vhca_unlock(file->vhca);
	return u;
}

/* A new handle with @ring bytes of ring memory and a doorbell record. */
static struct mlx5_sim_vobj *
sim_vobj_new(struct mlx5_sim_file *file, enum mlx5_sim_obj_kind kind,
	     size_t ring)
{
	struct mlx5_sim_vobj *v = calloc(1, sizeof(*v));
	size_t len = RTE_ALIGN_CEIL(ring + SIM_V_DBR_SIZE, 4096);

	if (v == NULL)
		return NULL;
	/* What the provider library allocates; the kernel pins it. */
	v->mem.addr = sim_vobj_ring_alloc(kind, ring != 0, len, &v->huge_len);
	if (v->mem.addr == NULL) {
		free(v);
		return NULL;
	}
	memset(v->mem.addr, 0, len);
	v->mem.size = ring + SIM_V_DBR_SIZE;
	v->mem.access = IBV_ACCESS_LOCAL_WRITE;
	v->mem.file = file;
	v->magic = MLX5_SIM_MAGIC_VERBS;
	v->kind = kind;
	v->file = file;
	return v;
}

static void
sim_vobj_free(struct mlx5_sim_vobj *v)
{
	if (v->prov_free != NULL)
		v->prov_free(v->prov);
	if (v->xrcd_inode)
		close(v->xrcd_fd);
	free(v->rmem.addr);
	v->magic = MLX5_SIM_MAGIC_DEAD;
	free(v->uses);
	if (v->huge_len != 0)
		munmap(v->mem.addr, v->huge_len);
	else
		free(v->mem.addr);
	free(v);
}

static size_t
sim_vobj_ring(const struct mlx5_sim_vobj *v)
{
	return v->mem.size - SIM_V_DBR_SIZE;
}

/* Count @v as a user of the objects it names (@n of them). */
static int
sim_vobj_use(struct mlx5_sim_vobj *v, struct mlx5_sim_vobj **on, uint32_t n)
{
	v->uses = calloc(n, sizeof(*v->uses));
	if (v->uses == NULL)
		return ENOMEM;
	memcpy(v->uses, on, n * sizeof(*on));
	v->n_uses = n;
	return 0;
}

static void
sim_vobj_hold(struct mlx5_sim_vobj *v, int d)
{
	for (uint32_t i = 0; i < v->n_uses; i++)
		v->uses[i]->users += d;
	if (v->pd != NULL) {
		v->pd->verbs_users += d;
		v->pd->users += d;
	}
}

/*
 * One command the kernel issues for a verbs call (vHCA lock held):
 * counted, maybe injected, run with @v's memory for a create. 0 or the
 * status's errno; the created object's number in @v->num.
 */
static int
sim_kcmd(struct mlx5_sim_vobj *v, uint16_t opcode, const void *in,
	 size_t inlen, void *out)
{
	struct mlx5_sim_file *file = v->file;
	struct mlx5_sim_vhca *vhca = file->vhca;
	struct mlx5_sim_umem_ref ring = { &v->mem, v->mem.addr };
	struct mlx5_sim_umem_ref dbr = {
		&v->mem, v->mem.addr + sim_vobj_ring(v)
	};
	struct mlx5_sim_devx_obj obj = { .file = file };
	uint8_t status = 0;
	uint32_t synd = mlx5_sim_cmd_start(vhca, opcode, &status);

	if (synd == MLX5_SIM_SYND_OK) {
		switch (opcode) {
		case MLX5_CMD_OP_CREATE_CQ:
			synd = mlx5_sim_cq_create(file, in, &ring, &dbr, out,
						  &obj);
			break;
		case MLX5_CMD_OP_CREATE_QP:
			synd = mlx5_sim_qp_create(file, in, &ring, &dbr, out,
						  &obj);
			break;
		case MLX5_CMD_OP_CREATE_RQ:
			synd = mlx5_sim_rq_create(file, in, &ring, &dbr, out,
						  &obj);
			break;
		case MLX5_CMD_OP_CREATE_RMP:
			synd = mlx5_sim_rmp_create(file, in, &ring, &dbr, out,
						   &obj);
			break;
		case MLX5_CMD_OP_CREATE_XRC_SRQ:
			synd = mlx5_sim_xsrq_create(file, in, &ring, &dbr, out,
						    &obj);
			break;
		case MLX5_CMD_OP_DESTROY_XRC_SRQ:
		case MLX5_CMD_OP_QUERY_XRC_SRQ:
			synd = mlx5_sim_cmd_xsrq(file, opcode, in, out);
			break;
		case MLX5_CMD_OP_ALLOC_XRCD:
		case MLX5_CMD_OP_DEALLOC_XRCD:
			synd = mlx5_sim_cmd_xrcd(file, opcode, in, out, &obj);
			break;
		case MLX5_CMD_OP_CREATE_SQ:
			/* A raw packet QP's send ring: after its receive ring. */
			ring.host += (size_t)v->rq_wqes * v->rq_stride;
			synd = mlx5_sim_sq_create(file, in, &ring, &dbr, out,
						  &obj);
			break;
		case MLX5_CMD_OP_CREATE_RQT:
		case MLX5_CMD_OP_DESTROY_RQT:
		case MLX5_CMD_OP_DESTROY_RQ:
		case MLX5_CMD_OP_MODIFY_RQ:
		case MLX5_CMD_OP_QUERY_RQ:
		case MLX5_CMD_OP_DESTROY_SQ:
		case MLX5_CMD_OP_MODIFY_SQ:
		case MLX5_CMD_OP_QUERY_SQ:
		case MLX5_CMD_OP_ALLOC_TRANSPORT_DOMAIN:
		case MLX5_CMD_OP_DEALLOC_TRANSPORT_DOMAIN:
		case MLX5_CMD_OP_CREATE_TIS:
		case MLX5_CMD_OP_DESTROY_TIS:
		case MLX5_CMD_OP_CREATE_TIR:
		case MLX5_CMD_OP_DESTROY_TIR:
			synd = mlx5_sim_cmd_eth(file, opcode, in, inlen, out,
						&obj);
			break;
		case MLX5_CMD_OP_MODIFY_RMP:
		case MLX5_CMD_OP_DESTROY_RMP:
		case MLX5_CMD_OP_QUERY_RMP:
			synd = mlx5_sim_cmd_rmp(file, opcode, in, out);
			break;
		case MLX5_CMD_OP_DESTROY_CQ:
			synd = mlx5_sim_cmd_destroy_cq(file, in);
			break;
		case MLX5_CMD_OP_DESTROY_QP:
			synd = mlx5_sim_cmd_destroy_qp(file, in);
			break;
		default: /* A QP transition. */
			synd = mlx5_sim_cmd_modify_qp(file, opcode, in);
			break;
		}
	}
	status = mlx5_sim_cmd_finish(vhca, opcode, synd, status);
	if (status == MLX5_CMD_STAT_OK && obj.kind == v->kind)
		v->num = obj.index;
	return mlx5_sim_status_errno(status);
}

/* A raw packet QP (below): what its creation asks of the kernel. */
struct sim_raw_req {
	bool sq; /* A send queue (max_send_wr != 0). */
	uint32_t pdn, scqn, rcqn;
	uint32_t log_sq, log_rq, log_stride;
	uint8_t self_lb; /* The TIR's self_lb_block. */
	bool scatter_fcs; /* The RQ's (IBV_QP_CREATE_SCATTER_FCS). */
	/* An RSS QP: its TIR over table @rqtn (0: not one), hashed so. */
	uint32_t rqtn;
	uint8_t l3, l4;	 /* MLX5_L3/L4_PROT_TYPE_*. */
	uint32_t fields; /* MLX5_HASH_FIELD_SEL_*. */
	const uint8_t *key;
};

/* Room for each command of a raw QP's parts and its answer. */
#define SIM_V_RAW_DW                                            \
	(MLX5_ST_SZ_DW(create_sq_in) + MLX5_ST_SZ_DW(create_rq_in) + \
	 MLX5_ST_SZ_DW(create_tir_in))

static int sim_raw_create(struct mlx5_sim_vobj *v, const void *req);

/* An RSS QP: a raw packet QP of a TIR alone. */
static bool
sim_vobj_rss(const struct mlx5_sim_vobj *v)
{
	return v->raw && v->raw_sqn == 0 && v->raw_rqn == 0;
}
static int sim_raw_destroy(struct mlx5_sim_vobj *v);

/*
 * Create the device object of @v with the command in @in (SIM_V_RAW_QP:
 * the kernel's commands of a raw packet QP, @in its struct sim_raw_req):
 * on success @v is the file's, counted as the user of what it names.
 * errno on failure, @v freed.
 */
static int
sim_vobj_create(struct mlx5_sim_vobj *v, uint16_t opcode, const void *in,
		size_t inlen, struct mlx5_sim_vobj **on, uint32_t n_on,
		struct mlx5_sim_pd_obj *pd)
{
	struct mlx5_sim_vhca *vhca = v->file->vhca;
	uint32_t out[MLX5_ST_SZ_DW(create_qp_out)] = { 0 };
	int err;

	err = n_on != 0 ? sim_vobj_use(v, on, n_on) : 0;
	if (err == 0) {
		mlx5_sim_vhca_lock(vhca);
		err = opcode == SIM_V_RAW_QP ? sim_raw_create(v, in) :
		      sim_kcmd(v, opcode, in, inlen, out);
		if (err == 0) {
			v->pd = pd;
			sim_vobj_hold(v, 1);
			TAILQ_INSERT_TAIL(&v->file->vobjs, v, next);
		}
		mlx5_sim_vhca_unlock(vhca);
	}
	if (err != 0)
		sim_vobj_free(v);
	return err;
}

/*
 * Destroy the device object of @v with the command naming @v->num: the
 * kernel refuses while a verbs object uses it (EBUSY).
 */
static int
sim_vobj_destroy(struct mlx5_sim_vobj *v, uint16_t opcode)
{
	struct mlx5_sim_vhca *vhca = v->file->vhca;
	uint32_t in[MLX5_ST_SZ_DW(destroy_qp_in)] = { 0 };
	uint32_t out[MLX5_ST_SZ_DW(destroy_qp_out)] = { 0 };
	int err;

	/* Every destroy names its object at the same place. */
	MLX5_SET(destroy_qp_in, in, opcode, opcode);
	MLX5_SET(destroy_qp_in, in, qpn, v->num);
	mlx5_sim_vhca_lock(vhca);
	err = v->users != 0	    ? EBUSY :
	      opcode == SIM_V_RAW_QP ? sim_raw_destroy(v) :
				       sim_kcmd(v, opcode, in, sizeof(in), out);
	if (err == 0) {
		sim_vobj_hold(v, -1);
		TAILQ_REMOVE(&v->file->vobjs, v, next);
	}
	mlx5_sim_vhca_unlock(vhca);
	if (err == 0)
		sim_vobj_free(v);
	return err;
}

struct mlx5_sim_vobj *
mlx5_sim_vobj_find(struct mlx5_sim_file *file, enum mlx5_sim_obj_kind kind,
		   uint32_t num)
{
	struct mlx5_sim_vobj *v, *found = NULL;

	mlx5_sim_vhca_lock(file->vhca);
	/* A raw QP by its SQ's number or its RQ's. */
	TAILQ_FOREACH(v, &file->vobjs, next)
		if (v->kind == kind &&
		    (v->num == num || (v->raw && v->raw_rqn == num))) {
			found = v;
			break;
		}
	mlx5_sim_vhca_unlock(file->vhca);
	return found;
}

/* The file of a context, a PD of it, and the verbs objects it names. */
static struct mlx5_sim_file *
sim_ctx_file(struct ibv_context *ctx)
{
	struct mlx5_sim_ctx *sctx = mlx5_sim_ctx_get(ctx);

	return sctx != NULL ? sctx->file : NULL;
}

static struct mlx5_sim_pd_obj *
sim_pd_of(struct ibv_pd *pd, struct mlx5_sim_file *file)
{
	struct mlx5_sim_pd *spd = mlx5_sim_pd_get(pd);

	if (spd == NULL || !spd->obj->alive ||
	    (file != NULL && spd->obj->file != file))
		return NULL;
	return spd->obj;
}

static struct mlx5_sim_vobj *
sim_named(void *ib, enum mlx5_sim_obj_kind kind,
	  struct mlx5_sim_file *file)
{
	struct mlx5_sim_vobj *v = mlx5_sim_vobj_of(ib, kind);

	return v != NULL && v->file == file ? v : NULL;
}

struct ibv_cq *
mlx5_sim_create_cq_dv(struct ibv_context *ctx, int cqe, void *cq_context,
		      struct ibv_comp_channel *channel, int comp_vector,
		      bool oi, int mini_fmt)
{
	uint32_t in[MLX5_ST_SZ_DW(create_cq_in)] = { 0 };
	struct mlx5_sim_file *file = sim_ctx_file(ctx);
	void *cqc = MLX5_ADDR_OF(create_cq_in, in, cq_context);
	struct mlx5_cqe64 *cqes;
	struct mlx5_sim_vobj *v;
	unsigned int log;
	int err;

	if (file == NULL || cqe <= 0 ||
	    cqe >= (1 << MLX5_SIM_LOG_MAX_CQ_SZ) || comp_vector < 0 ||
	    comp_vector >= MLX5_SIM_NUM_COMP_VECTORS) {
		errno = EINVAL;
		return NULL;
	}
	/* rdma-core: room for cqe + 1 entries, a power of two. */
	log = sim_log2_ceil((uint64_t)cqe + 1);
	v = sim_vobj_new(file, MLX5_SIM_OBJ_CQ, (size_t)SIM_V_CQE_SIZE << log);
	if (v == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	/* Every CQE invalid and owned by hardware, as mlx5_alloc_cq_buf(). */
	cqes = (void *)v->mem.addr;
	for (size_t i = 0; i < ((size_t)1 << log); i++)
		cqes[i].op_own = MLX5_CQE_INVALID << 4;
	MLX5_SET(create_cq_in, in, opcode, MLX5_CMD_OP_CREATE_CQ);
	MLX5_SET(cqc, cqc, cqe_sz, MLX5_CQE_SIZE_64B);
	MLX5_SET(cqc, cqc, oi, oi);
	if (mini_fmt >= 0) {
		MLX5_SET(cqc, cqc, cqe_comp_en, 1);
		MLX5_SET(cqc, cqc, mini_cqe_res_format, mini_fmt);
	}
	MLX5_SET(cqc, cqc, log_cq_size, log);
	MLX5_SET(cqc, cqc, c_eqn_or_apu_element,
		 MLX5_SIM_EQN_BASE + comp_vector);
	MLX5_SET64(cqc, cqc, dbr_addr, sim_vobj_ring(v));
	err = sim_vobj_create(v, MLX5_CMD_OP_CREATE_CQ, in, sizeof(in), NULL,
			      0, NULL);
	if (err != 0) {
		errno = err;
		return NULL;
	}
	v->ib.cq.context = ctx;
	v->ib.cq.channel = channel;
	v->ib.cq.cq_context = cq_context;
	v->ib.cq.handle = v->num;
	v->ib.cq.cqe = (1 << log) - 1;
	pthread_mutex_init(&v->ib.cq.mutex, NULL);
	pthread_cond_init(&v->ib.cq.cond, NULL);
	return &v->ib.cq;
}

struct ibv_cq *
mlx5_sim_create_cq(struct ibv_context *ctx, int cqe, void *cq_context,
		   struct ibv_comp_channel *channel, int comp_vector)
{
	return mlx5_sim_create_cq_dv(ctx, cqe, cq_context, channel,
				     comp_vector, false, -1);
}

/*
 * The device's CQ behind verbs CQ @cq, with its card lock taken (the
 * caller releases it), or NULL.
 */
static struct mlx5_sim_cq *
sim_cq_lock(struct ibv_cq *cq, struct mlx5_sim_vhca **vhca)
{
	struct mlx5_sim_vobj *v = mlx5_sim_vobj_of(cq, MLX5_SIM_OBJ_CQ);
	struct mlx5_sim_cq *scq;

	if (v == NULL)
		return NULL;
	*vhca = v->file->vhca;
	mlx5_sim_vhca_lock(*vhca);
	scq = mlx5_sim_idtab_get(&(*vhca)->cqs, v->num);
	if (scq == NULL)
		mlx5_sim_vhca_unlock(*vhca);
	return scq;
}

int
mlx5_sim_cq_set_event(struct ibv_cq *cq, void (*fn)(void *arg), void *arg)
{
	struct mlx5_sim_vhca *vhca;
	struct mlx5_sim_cq *scq = sim_cq_lock(cq, &vhca);

	if (scq == NULL)
		return EINVAL;
	scq->event = fn;
	scq->event_arg = arg;
	mlx5_sim_vhca_unlock(vhca);
	return 0;
}

int
mlx5_sim_cq_arm(struct ibv_cq *cq, uint32_t ci, bool solicited)
{
	struct mlx5_sim_vhca *vhca;
	struct mlx5_sim_cq *scq = sim_cq_lock(cq, &vhca);

	if (scq == NULL)
		return EINVAL;
	scq->armed = true;
	scq->armed_sol = solicited;
	/* A CQE already there that the consumer has not taken. */
	if (((scq->pi - ci) & 0xffffff) != 0)
		mlx5_sim_cq_event(scq);
	mlx5_sim_vhca_unlock(vhca);
	return 0;
}

int
mlx5_sim_resize_cq(struct ibv_cq *cq, int cqe, uint32_t ci)
{
	struct mlx5_sim_vobj *v = mlx5_sim_vobj_of(cq, MLX5_SIM_OBJ_CQ);
	struct mlx5_sim_umem ring;
	struct mlx5_sim_vhca *vhca;
	struct mlx5_sim_cq *scq;
	struct mlx5_cqe64 *cqes;
	uint32_t n, pending, k;
	unsigned int log;
	void *old = NULL;

	if (v == NULL || cqe <= 0 || cqe >= (1 << MLX5_SIM_LOG_MAX_CQ_SZ))
		return EINVAL;
	/* rdma-core: room for cqe + 1 entries, a power of two. */
	log = sim_log2_ceil((uint64_t)cqe + 1);
	n = 1u << log;
	ring = v->mem;
	ring.size = (size_t)SIM_V_CQE_SIZE << log;
	ring.addr = aligned_alloc(4096, RTE_ALIGN_CEIL(ring.size, 4096));
	if (ring.addr == NULL)
		return ENOMEM;
	cqes = (void *)ring.addr;
	for (k = 0; k < n; k++)
		cqes[k].op_own = MLX5_CQE_INVALID << 4;
	scq = sim_cq_lock(cq, &vhca);
	if (scq == NULL) {
		free(ring.addr);
		return EINVAL;
	}
	/*
	 * The CQEs not yet polled move; they must fit (the kernel: EINVAL).
	 * Not those of a compressed CQ: moved slot by slot, a session could
	 * wrap in the new ring and its arrays lose their last byte; such a
	 * CQ is not resized with CQEs pending (EINVAL).
	 */
	pending = (scq->pi - ci) & 0xffffff;
	if (pending >= n || (scq->zip && pending != 0)) {
		mlx5_sim_vhca_unlock(vhca);
		free(ring.addr);
		return EINVAL;
	}
	for (k = 0; k < pending; k++) {
		uint32_t c = ci + k;
		const struct mlx5_cqe64 *from = (const void *)(scq->ring.host +
			(size_t)(c & ((1u << scq->log_size) - 1)) *
			SIM_V_CQE_SIZE);

		cqes[c & (n - 1)] = *from;
		cqes[c & (n - 1)].op_own = (uint8_t)((from->op_own & 0xf0) |
						     ((c >> log) & 1));
	}
	scq->ring.umem->users--;
	if (v->rmem.addr != NULL)
		old = v->rmem.addr;
	v->rmem = ring;
	v->rmem.users = 1;
	scq->ring.umem = &v->rmem;
	scq->ring.host = (uint8_t *)ring.addr;
	scq->log_size = log;
	scq->ci_seen = ci;
	v->ib.cq.cqe = (int)n - 1;
	mlx5_sim_vhca_unlock(vhca);
	free(old);
	return 0;
}

int
mlx5_sim_destroy_cq(struct ibv_cq *cq)
{
	struct mlx5_sim_vobj *v = mlx5_sim_vobj_of(cq, MLX5_SIM_OBJ_CQ);

	return v != NULL ? sim_vobj_destroy(v, MLX5_CMD_OP_DESTROY_CQ) :
	       EINVAL;
}

/*
 * The UAR page of @file's context, allocated at its first QP (the kernel
 * gives each context its own at open); NULL with errno.
 */
static struct mlx5_sim_uar *
sim_ctx_uar(struct mlx5_sim_file *file)
{
	static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
	struct mlx5_sim_uar *uar;

	pthread_mutex_lock(&lock);
	uar = file->ctx_uar != NULL ? file->ctx_uar :
	      mlx5_sim_uar_new(file, true);
	pthread_mutex_unlock(&lock);
	return uar;
}

/*
 * rdma-core's sizing of a QP's queues of type @type, within the
 * device's limits.
 */
static int
sim_qp_size(enum ibv_qp_type type, struct ibv_qp_cap *cap, uint32_t wqe_min,
	    uint32_t *log_sq, uint32_t *log_rq, uint32_t *log_stride,
	    size_t *ring)
{
	uint32_t send_bytes, bbs, stride;

	/* Inline data is bounded by the WQE's size (below), as libmlx5's. */
	if (cap->max_send_sge > SIM_V_MAX_SEND_SGE ||
	    cap->max_recv_sge > SIM_V_MAX_RECV_SGE ||
	    cap->max_inline_data > SIM_V_WQE_MAX)
		return EINVAL;
	/*
	 * The control segment and the remote address (RC, UC) or datagram
	 * (UD) segment, then data or inline.
	 */
	send_bytes = (type == IBV_QPT_UD	       ? 16 + 48 :
		      type == IBV_QPT_RAW_PACKET ? SIM_V_RAW_OVERHEAD :
						   32) +
		     RTE_MAX(16 * cap->max_send_sge,
			     RTE_ALIGN_CEIL(cap->max_inline_data + 4, 16));
	/* A provider's larger WQEs (UMR, for its mkey operations). */
	send_bytes = RTE_MAX(send_bytes, wqe_min);
	if (send_bytes > SIM_V_WQE_MAX)
		return EINVAL;
	bbs = RTE_ALIGN_CEIL(send_bytes, SIM_V_WQEBB) / SIM_V_WQEBB;
	*log_sq = sim_log2_ceil((uint64_t)RTE_MAX(cap->max_send_wr, 1u) * bbs);
	*log_rq = cap->max_recv_wr != 0 ?
		  sim_log2_ceil(cap->max_recv_wr) : 0;
	stride = 1u << sim_log2_ceil(16 * RTE_MAX(cap->max_recv_sge, 1u));
	*log_stride = sim_log2_ceil(stride / MLX5_RQ_STRIDE_UNIT);
	if (*log_sq > MLX5_SIM_LOG_MAX_QP_SZ ||
	    *log_rq > MLX5_SIM_LOG_MAX_QP_SZ)
		return EINVAL;
	*ring = ((size_t)SIM_V_WQEBB << *log_sq) +
		(cap->max_recv_wr != 0 ? (size_t)stride << *log_rq : 0);
	cap->max_send_wr = (1u << *log_sq) / bbs;
	cap->max_recv_wr = cap->max_recv_wr != 0 ? 1u << *log_rq : 0;
	cap->max_recv_sge = cap->max_recv_wr != 0 ? stride / 16 : 0;
	return 0;
}

/* Fill the verbs QP of @v as created with @attr (number @v->num). */
static struct ibv_qp *
sim_qp_made(struct mlx5_sim_vobj *v, struct ibv_context *ctx,
	    const struct ibv_qp_init_attr_ex *attr)
{
	v->kstate = IBV_QPS_RESET;
	v->qp_cap = attr->cap;
	v->ib.qp.context = ctx;
	v->ib.qp.qp_context = attr->qp_context;
	v->ib.qp.pd = attr->pd;
	v->ib.qp.send_cq = attr->send_cq;
	v->ib.qp.recv_cq = attr->recv_cq;
	v->ib.qp.srq = attr->srq;
	v->ib.qp.handle = v->num;
	v->ib.qp.qp_num = v->num;
	v->ib.qp.state = IBV_QPS_RESET;
	v->ib.qp.qp_type = attr->qp_type;
	pthread_mutex_init(&v->ib.qp.mutex, NULL);
	pthread_cond_init(&v->ib.qp.cond, NULL);
	return &v->ib.qp;
}

/*
 * An RSS QP (a raw packet QP with a receive hash over an indirection
 * table), with mlx5_ib's checks: Toeplitz with a 40-byte key; no send
 * queue, no receive queue or SRQ of its own (uverbs), no creation flag;
 * the hash on IPv4 or IPv6 addresses, TCP or UDP
 * ports (not both kinds of either; the inner headers and IPsec SPI are
 * not modelled: EOPNOTSUPP); no field at all only over a table of one WQ.
 */
static struct ibv_qp *
sim_rss_qp(struct ibv_context *ctx, struct mlx5_sim_file *file,
	   struct ibv_qp_init_attr_ex *attr)
{
	const struct ibv_rx_hash_conf *h = &attr->rx_hash_conf;
	const uint64_t v4 = IBV_RX_HASH_SRC_IPV4 | IBV_RX_HASH_DST_IPV4;
	const uint64_t v6 = IBV_RX_HASH_SRC_IPV6 | IBV_RX_HASH_DST_IPV6;
	const uint64_t tcp =
		IBV_RX_HASH_SRC_PORT_TCP | IBV_RX_HASH_DST_PORT_TCP;
	const uint64_t udp =
		IBV_RX_HASH_SRC_PORT_UDP | IBV_RX_HASH_DST_PORT_UDP;
	uint64_t f = h->rx_hash_fields_mask;
	struct sim_raw_req req = { .self_lb = 0 };
	struct mlx5_sim_pd_obj *pd = sim_pd_of(attr->pd, file);
	struct mlx5_sim_vobj *tbl, *v;
	int err = 0;

	tbl = (attr->comp_mask & IBV_QP_INIT_ATTR_IND_TABLE) ?
		      sim_named(attr->rwq_ind_tbl, MLX5_SIM_OBJ_RQT, file) :
		      NULL;
	if ((attr->comp_mask & ~(uint32_t)(IBV_QP_INIT_ATTR_PD |
					   IBV_QP_INIT_ATTR_CREATE_FLAGS |
					   IBV_QP_INIT_ATTR_RX_HASH |
					   IBV_QP_INIT_ATTR_IND_TABLE)) ||
	    attr->qp_type != IBV_QPT_RAW_PACKET ||
	    h->rx_hash_function != IBV_RX_HASH_FUNC_TOEPLITZ ||
	    (f & ~(v4 | v6 | tcp | udp)))
		err = EOPNOTSUPP;
	else if (!(attr->comp_mask & IBV_QP_INIT_ATTR_RX_HASH) ||
		 tbl == NULL || pd == NULL || attr->send_cq != NULL ||
		 attr->srq != NULL || attr->cap.max_recv_wr != 0 ||
		 attr->cap.max_recv_sge != 0 ||
		 ((attr->comp_mask & IBV_QP_INIT_ATTR_CREATE_FLAGS) &&
		  attr->create_flags != 0) ||
		 h->rx_hash_key == NULL ||
		 h->rx_hash_key_len !=
			 MLX5_FLD_SZ_BYTES(tirc, rx_hash_toeplitz_key) ||
		 ((f & v4) && (f & v6)) || ((f & tcp) && (f & udp)) ||
		 (f == 0 && tbl->rq_wqes != 1))
		err = EINVAL;
	if (err != 0) {
		errno = err;
		return NULL;
	}
	req.rqtn = tbl->num;
	req.key = h->rx_hash_key;
	req.l3 = (f & v6) ? MLX5_L3_PROT_TYPE_IPV6 : MLX5_L3_PROT_TYPE_IPV4;
	req.l4 = (f & udp) ? MLX5_L4_PROT_TYPE_UDP : MLX5_L4_PROT_TYPE_TCP;
	req.fields = ((f & (IBV_RX_HASH_SRC_IPV4 | IBV_RX_HASH_SRC_IPV6)) ?
			      MLX5_HASH_FIELD_SEL_SRC_IP : 0) |
		     ((f & (IBV_RX_HASH_DST_IPV4 | IBV_RX_HASH_DST_IPV6)) ?
			      MLX5_HASH_FIELD_SEL_DST_IP : 0) |
		     ((f & (IBV_RX_HASH_SRC_PORT_TCP |
			    IBV_RX_HASH_SRC_PORT_UDP)) ?
			      MLX5_HASH_FIELD_SEL_L4_SPORT : 0) |
		     ((f & (IBV_RX_HASH_DST_PORT_TCP |
			    IBV_RX_HASH_DST_PORT_UDP)) ?
			      MLX5_HASH_FIELD_SEL_L4_DPORT : 0);
	v = sim_vobj_new(file, MLX5_SIM_OBJ_QP, 0);
	if (v == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	/* The table cannot go while the QP spreads over it (EBUSY). */
	err = sim_vobj_create(v, SIM_V_RAW_QP, &req, sizeof(req), &tbl, 1,
			      pd);
	if (err != 0) {
		errno = err;
		return NULL;
	}
	memset(&attr->cap, 0, sizeof(attr->cap));
	return sim_qp_made(v, ctx, attr);
}

/*
 * An XRC target QP (mlx5_ib's create_xrc_tgt_qp): no queue of its own,
 * no PD, no CQ; a QP of its XRC domain, receiving into the XRC SRQs of
 * the domain. Owned by the context that creates it (the kernel's sharing
 * with other processes, ibv_open_qp(), is not modelled: EOPNOTSUPP).
 */
static struct ibv_qp *
sim_xrc_tgt_qp(struct ibv_context *ctx, struct mlx5_sim_file *file,
	       struct ibv_qp_init_attr_ex *attr)
{
	uint32_t in[MLX5_ST_SZ_DW(create_qp_in)] = { 0 };
	void *qpc = MLX5_ADDR_OF(create_qp_in, in, qpc);
	struct mlx5_sim_vobj *xrcd, *v;
	int err;

	xrcd = attr->comp_mask & IBV_QP_INIT_ATTR_XRCD ?
		       sim_named(attr->xrcd, MLX5_SIM_OBJ_XRCD, file) :
		       NULL;
	if (attr->comp_mask & ~(uint32_t)(IBV_QP_INIT_ATTR_XRCD |
					  IBV_QP_INIT_ATTR_PD)) {
		errno = EOPNOTSUPP;
		return NULL;
	}
	if (xrcd == NULL) {
		errno = EINVAL;
		return NULL;
	}
	v = sim_vobj_new(file, MLX5_SIM_OBJ_QP, 0);
	if (v == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	MLX5_SET(create_qp_in, in, opcode, MLX5_CMD_OP_CREATE_QP);
	MLX5_SET(qpc, qpc, st, MLX5_QP_ST_XRC);
	MLX5_SET(qpc, qpc, pm_state, MLX5_QP_PM_MIGRATED);
	MLX5_SET(qpc, qpc, no_sq, 1);
	MLX5_SET(qpc, qpc, rq_type, MLX5_QP_RQ_TYPE_ZERO_SIZE);
	MLX5_SET(qpc, qpc, xrcd, xrcd->num);
	MLX5_SET64(qpc, qpc, dbr_addr, sim_vobj_ring(v));
	err = sim_vobj_create(v, MLX5_CMD_OP_CREATE_QP, in, sizeof(in), &xrcd,
			      1, NULL);
	if (err != 0) {
		errno = err;
		return NULL;
	}
	memset(&attr->cap, 0, sizeof(attr->cap));
	attr->pd = NULL;
	attr->send_cq = NULL;
	attr->recv_cq = NULL;
	attr->srq = NULL;
	return sim_qp_made(v, ctx, attr);
}

struct ibv_qp *
mlx5_sim_create_qp_ex(struct ibv_context *ctx,
		      struct ibv_qp_init_attr_ex *attr)
{
	return mlx5_sim_create_qp_wqe(ctx, attr, 0);
}

struct ibv_qp *
mlx5_sim_create_qp_wqe(struct ibv_context *ctx,
		       struct ibv_qp_init_attr_ex *attr, uint32_t wqe_min)
{
	uint32_t in[MLX5_ST_SZ_DW(create_qp_in)] = { 0 };
	struct mlx5_sim_file *file = sim_ctx_file(ctx);
	void *qpc = MLX5_ADDR_OF(create_qp_in, in, qpc);
	struct mlx5_sim_vobj *on[3], *v;
	struct mlx5_sim_pd_obj *pd;
	uint32_t log_sq, log_rq, log_stride, n_on = 2;
	struct sim_raw_req req;
	uint32_t flags;
	size_t ring;
	bool raw, ini;
	int err;

	if (file != NULL && attr != NULL && attr->qp_type == IBV_QPT_XRC_RECV)
		return sim_xrc_tgt_qp(ctx, file, attr);
	if (file == NULL || attr == NULL ||
	    !(attr->comp_mask & IBV_QP_INIT_ATTR_PD)) {
		errno = EINVAL;
		return NULL;
	}
	if (attr->comp_mask &
	    (IBV_QP_INIT_ATTR_RX_HASH | IBV_QP_INIT_ATTR_IND_TABLE))
		return sim_rss_qp(ctx, file, attr);
	/*
	 * RC, UC and UD QPs, on their own receive queue or an SRQ, and raw
	 * packet QPs on their own (no send operations; of the creation
	 * flags, the blocking of its own multicast: UD's, which the device,
	 * without multicast, meets, and a raw QP's, its TIR's; a raw QP's
	 * FCS scattered, its RQ's).
	 */
	raw = attr->qp_type == IBV_QPT_RAW_PACKET;
	ini = attr->qp_type == IBV_QPT_XRC_SEND;
	flags = attr->comp_mask & IBV_QP_INIT_ATTR_CREATE_FLAGS ?
			attr->create_flags :
			0;
	if ((attr->comp_mask & ~(uint32_t)(IBV_QP_INIT_ATTR_PD |
					   IBV_QP_INIT_ATTR_CREATE_FLAGS)) ||
	    (flags & ~(raw ? (uint32_t)(IBV_QP_CREATE_BLOCK_SELF_MCAST_LB |
					IBV_QP_CREATE_SCATTER_FCS) :
		       attr->qp_type == IBV_QPT_UD ?
			     (uint32_t)IBV_QP_CREATE_BLOCK_SELF_MCAST_LB :
			     0u)) ||
	    (attr->qp_type != IBV_QPT_RC && attr->qp_type != IBV_QPT_UC &&
	     attr->qp_type != IBV_QPT_UD && !raw && !ini) ||
	    (raw && attr->srq != NULL)) {
		errno = EOPNOTSUPP;
		return NULL;
	}
	/*
	 * An XRC initiator sends only: no receive CQ, SRQ or receive queue
	 * of its own; those given are ignored, as ib_uverbs does (mlx5_ib
	 * gives it the kernel's CQ and XRC SRQ, which nothing uses).
	 */
	if (ini) {
		attr->srq = NULL;
		attr->recv_cq = NULL;
		attr->cap.max_recv_wr = 0;
		attr->cap.max_recv_sge = 0;
	}
	/* A raw QP's parts: a send queue, a receive queue, or both. */
	if (raw && attr->cap.max_send_wr == 0 && attr->cap.max_recv_wr == 0) {
		errno = EINVAL;
		return NULL;
	}
	req.sq = attr->cap.max_send_wr != 0;
	pd = sim_pd_of(attr->pd, file);
	on[0] = sim_named(attr->send_cq, MLX5_SIM_OBJ_CQ, file);
	on[1] = sim_named(attr->recv_cq, MLX5_SIM_OBJ_CQ, file);
	/* An SRQ: no receive queue of its own (libmlx5: no RQ caps). */
	if (attr->srq != NULL) {
		on[n_on] = sim_named(attr->srq, MLX5_SIM_OBJ_SRQ, file);
		if (on[n_on++] == NULL) {
			errno = EINVAL;
			return NULL;
		}
		attr->cap.max_recv_wr = 0;
		attr->cap.max_recv_sge = 0;
	}
	if (ini) {
		on[1] = on[0]; /* No receive CQ; counted on the send CQ. */
		n_on = 1;
	}
	err = pd == NULL || on[0] == NULL || on[1] == NULL ? EINVAL :
	      sim_qp_size(attr->qp_type, &attr->cap, wqe_min, &log_sq,
			  &log_rq, &log_stride, &ring);
	if (err != 0) {
		errno = err;
		return NULL;
	}
	/* Its doorbells go to the context's UAR page (the kernel's). */
	if (sim_ctx_uar(file) == NULL)
		return NULL;
	v = sim_vobj_new(file, MLX5_SIM_OBJ_QP, ring);
	if (v == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	v->sq_wqes = !raw || req.sq ? 1u << log_sq : 0;
	/* A raw QP without a send queue has no send capacity (libmlx5). */
	if (v->sq_wqes == 0) {
		attr->cap.max_send_wr = 0;
		attr->cap.max_send_sge = 0;
		attr->cap.max_inline_data = 0;
	}
	v->rq_wqes = attr->cap.max_recv_wr != 0 ? 1u << log_rq : 0;
	v->rq_stride = MLX5_RQ_STRIDE_UNIT << log_stride;
	if (raw) {
		req = (struct sim_raw_req){
			.sq = req.sq, .pdn = pd->pdn, .scqn = on[0]->num,
			.rcqn = on[1]->num, .log_sq = log_sq,
			.log_rq = log_rq, .log_stride = log_stride,
			.self_lb = flags & IBV_QP_CREATE_BLOCK_SELF_MCAST_LB ?
				   MLX5_TIRC_SELF_LB_BLOCK_BLOCK_MULTICAST : 0,
			.scatter_fcs = flags & IBV_QP_CREATE_SCATTER_FCS,
		};
		err = sim_vobj_create(v, SIM_V_RAW_QP, &req, sizeof(req), on,
				      n_on, pd);
		goto made;
	}
	MLX5_SET(create_qp_in, in, opcode, MLX5_CMD_OP_CREATE_QP);
	MLX5_SET(qpc, qpc, uar_page, file->ctx_uar->dv.page_id);
	MLX5_SET(qpc, qpc, st, attr->qp_type == IBV_QPT_RC ? MLX5_QP_ST_RC :
		 attr->qp_type == IBV_QPT_UC ? MLX5_QP_ST_UC :
		 ini ? MLX5_QP_ST_XRC :
		 MLX5_QP_ST_UD);
	MLX5_SET(qpc, qpc, pm_state, MLX5_QP_PM_MIGRATED);
	MLX5_SET(qpc, qpc, pd, pd->pdn);
	MLX5_SET(qpc, qpc, cqn_snd, on[0]->num);
	MLX5_SET(qpc, qpc, cqn_rcv, ini ? 0 : on[1]->num);
	MLX5_SET(qpc, qpc, log_sq_size, log_sq);
	if (attr->srq != NULL) {
		MLX5_SET(qpc, qpc, rq_type, MLX5_QP_RQ_TYPE_SRQ);
		MLX5_SET(qpc, qpc, srqn_rmpn_xrqn, on[2]->num);
	} else if (attr->cap.max_recv_wr != 0) {
		MLX5_SET(qpc, qpc, rq_type, MLX5_QP_RQ_TYPE_REGULAR);
		MLX5_SET(qpc, qpc, log_rq_size, log_rq);
		MLX5_SET(qpc, qpc, log_rq_stride, log_stride);
	} else {
		MLX5_SET(qpc, qpc, rq_type, MLX5_QP_RQ_TYPE_ZERO_SIZE);
	}
	MLX5_SET64(qpc, qpc, dbr_addr, sim_vobj_ring(v));
	err = sim_vobj_create(v, MLX5_CMD_OP_CREATE_QP, in, sizeof(in), on,
			      n_on, pd);
made:
	if (err != 0) {
		errno = err;
		return NULL;
	}
	return sim_qp_made(v, ctx, attr);
}

/*
 * Raw packet QPs, as mlx5_ib builds them (create_raw_packet_qp): no QP
 * object, but an SQ on a TIS of the context's transport domain and an RQ
 * with a TIR sending to it directly (steering rules name the TIR:
 * ibv_create_flow()). The QP's number is its SQ's, or its RQ's without a
 * send queue; its receive CQEs carry the RQ's. The SQ and RQ use the
 * QP's rings (receive, then send) and its doorbell record (receive
 * counter, then send counter, as a DEVX SQ's record has them).
 */

/*
 * Destroy @v's parts that exist, users first (vHCA lock held). @undo: the
 * rollback of a creation, by the device's own free, which no fault
 * injection fails and no command counts, so that nothing half made can
 * stay behind.
 */
static int
sim_raw_parts_free(struct mlx5_sim_vobj *v, bool undo)
{
	static const struct {
		uint16_t opcode;
		size_t off; /* Of the number in struct mlx5_sim_vobj. */
	} parts[] = {
		{ MLX5_CMD_OP_DESTROY_TIR, offsetof(struct mlx5_sim_vobj, raw_tirn) },
		{ MLX5_CMD_OP_DESTROY_RQ, offsetof(struct mlx5_sim_vobj, raw_rqn) },
		{ MLX5_CMD_OP_DESTROY_SQ, offsetof(struct mlx5_sim_vobj, raw_sqn) },
		{ MLX5_CMD_OP_DESTROY_TIS, offsetof(struct mlx5_sim_vobj, raw_tisn) },
	};
	uint32_t in[SIM_V_RAW_DW], out[SIM_V_RAW_DW];
	int err = 0;

	for (unsigned int i = 0; i < RTE_DIM(parts); i++) {
		uint32_t *num = (uint32_t *)(void *)((uint8_t *)v +
						     parts[i].off);

		if (*num == 0)
			continue;
		memset(in, 0, sizeof(in));
		/* Each destroy names its object at the same place. */
		MLX5_SET(destroy_tir_in, in, opcode, parts[i].opcode);
		MLX5_SET(destroy_tir_in, in, tirn, *num);
		if (undo) {
			struct mlx5_sim_devx_obj obj = { .file = v->file };

			mlx5_sim_cmd_eth(v->file, parts[i].opcode, in,
					 sizeof(in), out, &obj);
		} else {
			err = sim_kcmd(v, parts[i].opcode, in, sizeof(in),
				       out);
			if (err != 0)
				return err;
		}
		*num = 0;
	}
	return 0;
}

static int
sim_raw_destroy(struct mlx5_sim_vobj *v)
{
	return sim_raw_parts_free(v, false);
}

/*
 * One create command of a raw QP's parts (@opcode, mailbox @in filled but
 * for the opcode): 0 or the status's errno, the number it made in @num.
 */
static int
sim_raw_make(struct mlx5_sim_vobj *v, uint16_t opcode, uint32_t *in,
	     uint32_t *num)
{
	uint32_t out[SIM_V_RAW_DW] = { 0 };
	int err;

	MLX5_SET(create_tis_in, in, opcode, opcode);
	err = sim_kcmd(v, opcode, in, sizeof(uint32_t) * SIM_V_RAW_DW, out);
	/* Every create answers its number at the same place. */
	RTE_BUILD_BUG_ON(__mlx5_bit_off(create_tir_out, tirn) !=
			 __mlx5_bit_off(create_tis_out, tisn));
	if (err == 0)
		*num = MLX5_GET(create_tis_out, out, tisn);
	return err;
}

/* The wq context of a raw QP's SQ or RQ: ring of 2^@log_sz @log_stride. */
static void
sim_raw_wq(struct mlx5_sim_vobj *v, void *wq, uint32_t pdn, uint32_t log_sz,
	   uint32_t log_stride)
{
	MLX5_SET(wq, wq, wq_type, MLX5_WQ_TYPE_CYCLIC);
	MLX5_SET(wq, wq, pd, pdn);
	MLX5_SET(wq, wq, uar_page, v->file->ctx_uar->dv.page_id);
	MLX5_SET(wq, wq, log_wq_stride, log_stride);
	MLX5_SET(wq, wq, log_wq_sz, log_sz);
	MLX5_SET64(wq, wq, dbr_addr, sim_vobj_ring(v));
}

/* The context's transport domain, the kernel's (vHCA lock held). */
static int
sim_raw_td(struct mlx5_sim_vobj *v)
{
	struct mlx5_sim_file *file = v->file;
	uint32_t in[SIM_V_RAW_DW] = { 0 };
	int err;

	if (file->kernel_tdn != 0)
		return 0;
	err = sim_raw_make(v, MLX5_CMD_OP_ALLOC_TRANSPORT_DOMAIN, in,
			   &file->kernel_tdn);
	if (err == 0)
		mlx5_sim_td_kernel(file, file->kernel_tdn);
	return err;
}

/*
 * An RSS QP (mlx5_ib's create_rss_raw_qp_tir): a TIR spreading over an
 * indirection table, no queue; its number is 0 (none of its own).
 */
static int
sim_rss_create(struct mlx5_sim_vobj *v, const struct sim_raw_req *r)
{
	uint32_t in[SIM_V_RAW_DW] = { 0 };
	void *ctx = MLX5_ADDR_OF(create_tir_in, in, ctx);
	void *sel = MLX5_ADDR_OF(tirc, ctx, rx_hash_field_selector_outer);
	int err = sim_raw_td(v);

	if (err != 0)
		return err;
	MLX5_SET(tirc, ctx, disp_type, MLX5_TIRC_DISP_TYPE_INDIRECT);
	MLX5_SET(tirc, ctx, indirect_table, r->rqtn);
	MLX5_SET(tirc, ctx, transport_domain, v->file->kernel_tdn);
	MLX5_SET(tirc, ctx, self_lb_block, r->self_lb);
	MLX5_SET(tirc, ctx, rx_hash_fn, MLX5_RX_HASH_FN_TOEPLITZ);
	memcpy(MLX5_ADDR_OF(tirc, ctx, rx_hash_toeplitz_key), r->key,
	       MLX5_FLD_SZ_BYTES(tirc, rx_hash_toeplitz_key));
	MLX5_SET(rx_hash_field_select, sel, l3_prot_type, r->l3);
	MLX5_SET(rx_hash_field_select, sel, l4_prot_type, r->l4);
	MLX5_SET(rx_hash_field_select, sel, selected_fields, r->fields);
	err = sim_raw_make(v, MLX5_CMD_OP_CREATE_TIR, in, &v->raw_tirn);
	v->num = 0;
	return err;
}

/* The kernel's commands of raw QP @v (vHCA lock held): 0 or errno. */
static int
sim_raw_create(struct mlx5_sim_vobj *v, const void *arg)
{
	const struct sim_raw_req *r = arg;
	struct mlx5_sim_file *file = v->file;
	uint32_t in[SIM_V_RAW_DW];
	void *ctx;
	int err = 0;

	v->raw = true;
	if (r->rqtn != 0)
		return sim_rss_create(v, r);
	/* The context's transport domain (mlx5_ib allocates it at open). */
	err = sim_raw_td(v);
	if (err == 0 && r->sq) {
		memset(in, 0, sizeof(in));
		ctx = MLX5_ADDR_OF(create_tis_in, in, ctx);
		MLX5_SET(tisc, ctx, transport_domain, file->kernel_tdn);
		err = sim_raw_make(v, MLX5_CMD_OP_CREATE_TIS, in, &v->raw_tisn);
	}
	if (err == 0 && r->sq) {
		memset(in, 0, sizeof(in));
		ctx = MLX5_ADDR_OF(create_sq_in, in, ctx);
		MLX5_SET(sqc, ctx, state, MLX5_WQ_STATE_RST);
		MLX5_SET(sqc, ctx, flush_in_error_en, 1);
		/* As mlx5_ib's create_raw_packet_qp_sq(): with the cap. */
		MLX5_SET(sqc, ctx, allow_multi_pkt_send_wqe,
			 file->vhca->caps.empw);
		MLX5_SET(sqc, ctx, cqn, r->scqn);
		MLX5_SET(sqc, ctx, tis_lst_sz, 1);
		MLX5_SET(sqc, ctx, tis_num_0, v->raw_tisn);
		sim_raw_wq(v, MLX5_ADDR_OF(sqc, ctx, wq), r->pdn, r->log_sq,
			   MLX5_SQ_LOG_WQ_STRIDE);
		err = sim_raw_make(v, MLX5_CMD_OP_CREATE_SQ, in, &v->raw_sqn);
	}
	if (err == 0 && v->rq_wqes != 0) {
		memset(in, 0, sizeof(in));
		ctx = MLX5_ADDR_OF(create_rq_in, in, ctx);
		MLX5_SET(rqc, ctx, state, MLX5_WQ_STATE_RST);
		MLX5_SET(rqc, ctx, vsd, 1);
		MLX5_SET(rqc, ctx, scatter_fcs, r->scatter_fcs);
		MLX5_SET(rqc, ctx, flush_in_error_en, 1);
		MLX5_SET(rqc, ctx, cqn, r->rcqn);
		v->uidx = sim_uidx_new_locked(file); /* vHCA lock held. */
		MLX5_SET(rqc, ctx, user_index, v->uidx);
		sim_raw_wq(v, MLX5_ADDR_OF(rqc, ctx, wq), r->pdn, r->log_rq,
			   r->log_stride + 4);
		err = sim_raw_make(v, MLX5_CMD_OP_CREATE_RQ, in, &v->raw_rqn);
	}
	if (err == 0 && v->rq_wqes != 0) {
		memset(in, 0, sizeof(in));
		ctx = MLX5_ADDR_OF(create_tir_in, in, ctx);
		MLX5_SET(tirc, ctx, disp_type, MLX5_TIRC_DISP_TYPE_DIRECT);
		MLX5_SET(tirc, ctx, inline_rqn, v->raw_rqn);
		MLX5_SET(tirc, ctx, transport_domain, file->kernel_tdn);
		MLX5_SET(tirc, ctx, self_lb_block, r->self_lb);
		err = sim_raw_make(v, MLX5_CMD_OP_CREATE_TIR, in, &v->raw_tirn);
	}
	if (err != 0) {
		/* Nothing half made stays: what was made goes. */
		sim_raw_parts_free(v, true);
		return err;
	}
	v->num = r->sq ? v->raw_sqn : v->raw_rqn;
	return 0;
}

/*
 * The state of raw QP @v's SQ (@sq) or RQ, as the kernel keeps it (the
 * device's own: a part the device moved to ERR is in ERR). 0xff: none.
 */
static uint8_t
sim_raw_state(struct mlx5_sim_vobj *v, bool sq)
{
	struct mlx5_sim_vhca *vhca = v->file->vhca;
	struct mlx5_sim_sq *s = sq ? mlx5_sim_qnum_get(&vhca->qps, v->raw_sqn,
						       MLX5_SIM_Q_SQ) :
				     NULL;
	struct mlx5_sim_rq *r = sq ? NULL :
				     mlx5_sim_qnum_get(&vhca->qps, v->raw_rqn,
						       MLX5_SIM_Q_RQ);

	if (s != NULL)
		return s->wq.state;
	return r != NULL ? r->wq.state : 0xff;
}

/*
 * A raw QP's state (query_raw_packet_qp_state): the one it was moved to,
 * unless the device moved a part to ERR: its RQ (ERR), or its SQ with a
 * ready RQ (SQE). As the kernel, the QP takes that state (its next move
 * starts there: SQE to RTS is then refused, raw QPs have no SQERR2RTS).
 */
static enum ibv_qp_state
sim_raw_qp_state(struct mlx5_sim_vobj *v)
{
	enum ibv_qp_state st;
	uint8_t rq, sq;

	mlx5_sim_vhca_lock(v->file->vhca);
	rq = sim_raw_state(v, false);
	sq = sim_raw_state(v, true);
	st = (enum ibv_qp_state)v->kstate;
	if (rq == MLX5_WQ_STATE_ERR)
		st = IBV_QPS_ERR;
	else if (sq == MLX5_WQ_STATE_ERR && rq == MLX5_WQ_STATE_RDY)
		st = IBV_QPS_SQE;
	v->kstate = st;
	mlx5_sim_vhca_unlock(v->file->vhca);
	return st;
}

/*
 * A raw QP's move from @cur to @next (mlx5_ib's modify_raw_packet_qp,
 * since Linux 5.9): RST2INIT readies its RQ, RTR2RTS its SQ; 2ERR and
 * 2RST move both; the other moves change nothing. A part already in the
 * state is left alone, and so is an SQ in RST at 2ERR (it sends nothing;
 * the device moves an SQ to ERR from RDY only). vHCA lock held.
 */
static int
sim_raw_modify(struct mlx5_sim_vobj *v, int cur, int next)
{
	uint8_t state = next == IBV_QPS_RESET ? MLX5_WQ_STATE_RST :
			next == IBV_QPS_ERR   ? MLX5_WQ_STATE_ERR :
						MLX5_WQ_STATE_RDY;
	bool rq = next == IBV_QPS_RESET || next == IBV_QPS_ERR ||
		  (cur == IBV_QPS_RESET && next == IBV_QPS_INIT);
	bool sq = next == IBV_QPS_RESET ||
		  (next == IBV_QPS_ERR &&
		   sim_raw_state(v, true) != MLX5_WQ_STATE_RST) ||
		  (cur == IBV_QPS_RTR && next == IBV_QPS_RTS);
	uint32_t in[SIM_V_RAW_DW], out[SIM_V_RAW_DW];
	int err = 0;

	if (rq && v->raw_rqn != 0 && sim_raw_state(v, false) != state) {
		memset(in, 0, sizeof(in));
		MLX5_SET(modify_rq_in, in, opcode, MLX5_CMD_OP_MODIFY_RQ);
		MLX5_SET(modify_rq_in, in, rq_state, sim_raw_state(v, false));
		MLX5_SET(modify_rq_in, in, rqn, v->raw_rqn);
		MLX5_SET(rqc, MLX5_ADDR_OF(modify_rq_in, in, ctx), state, state);
		err = sim_kcmd(v, MLX5_CMD_OP_MODIFY_RQ, in, sizeof(in), out);
	}
	if (err == 0 && sq && v->raw_sqn != 0 &&
	    sim_raw_state(v, true) != state) {
		memset(in, 0, sizeof(in));
		MLX5_SET(modify_sq_in, in, opcode, MLX5_CMD_OP_MODIFY_SQ);
		MLX5_SET(modify_sq_in, in, sq_state, sim_raw_state(v, true));
		MLX5_SET(modify_sq_in, in, sqn, v->raw_sqn);
		MLX5_SET(sqc, MLX5_ADDR_OF(modify_sq_in, in, ctx), state, state);
		err = sim_kcmd(v, MLX5_CMD_OP_MODIFY_SQ, in, sizeof(in), out);
	}
	return err;
}

int
mlx5_sim_destroy_qp(struct ibv_qp *qp)
{
	struct mlx5_sim_vobj *v = mlx5_sim_vobj_of(qp, MLX5_SIM_OBJ_QP);

	if (v == NULL)
		return EINVAL;
	return sim_vobj_destroy(v, v->raw ? SIM_V_RAW_QP :
					    MLX5_CMD_OP_DESTROY_QP);
}

/*
 * ib_modify_qp_is_ok() for an RC, UC, UD or XRC QP (@type): the attributes a
 * transition needs and may take; 0 for a transition IB does not allow
 * (-1: allowed but not modelled, such as INIT to INIT or to SQD).
 */
static int
sim_qp_transition(enum ibv_qp_type type, int cur, int next, int *req,
		  int *opt)
{
	bool ud = type == IBV_QPT_UD, rc = type == IBV_QPT_RC;
	bool ini = type == IBV_QPT_XRC_SEND, tgt = type == IBV_QPT_XRC_RECV;
	/* What IB lets the connected types change along the way. */
	int conn = ud ? 0 : IBV_QP_ACCESS_FLAGS | IBV_QP_ALT_PATH |
			    IBV_QP_PATH_MIG_STATE;

	*req = 0;
	*opt = 0;
	if (next == IBV_QPS_RESET || next == IBV_QPS_ERR)
		return 1;
	if (type == IBV_QPT_RAW_PACKET) {
		/*
		 * ib_core's table: the port at RST2INIT, nothing else (the
		 * rate limit of RTS2RTS is not modelled: EINVAL).
		 */
		if (cur == IBV_QPS_RESET && next == IBV_QPS_INIT)
			*req = IBV_QP_PORT;
		else if (cur == IBV_QPS_INIT && next == IBV_QPS_INIT)
			return -1;
		else if (!(cur == IBV_QPS_INIT && next == IBV_QPS_RTR) &&
			 !(cur == IBV_QPS_RTR && next == IBV_QPS_RTS) &&
			 !(cur == IBV_QPS_RTS && next == IBV_QPS_RTS))
			return 0;
		return 1;
	}
	if (cur == IBV_QPS_RESET && next == IBV_QPS_INIT) {
		*req = IBV_QP_PKEY_INDEX | IBV_QP_PORT |
		       (ud ? IBV_QP_QKEY : IBV_QP_ACCESS_FLAGS);
		return 1;
	}
	if (cur == IBV_QPS_INIT && next == IBV_QPS_RTR) {
		*req = ud ? 0 : IBV_QP_AV | IBV_QP_PATH_MTU |
				IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
				(rc || tgt ? IBV_QP_MAX_DEST_RD_ATOMIC |
					     IBV_QP_MIN_RNR_TIMER : 0);
		*opt = IBV_QP_PKEY_INDEX |
		       (ud ? IBV_QP_QKEY : IBV_QP_ALT_PATH |
					   IBV_QP_ACCESS_FLAGS);
		return 1;
	}
	if (cur == IBV_QPS_RTR && next == IBV_QPS_RTS) {
		*req = IBV_QP_SQ_PSN |
		       (rc || ini ? IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT |
				    IBV_QP_RNR_RETRY |
				    IBV_QP_MAX_QP_RD_ATOMIC :
			tgt ? IBV_QP_TIMEOUT : 0);
		*opt = IBV_QP_CUR_STATE | (ud ? IBV_QP_QKEY : conn) |
		       (rc || tgt ? IBV_QP_MIN_RNR_TIMER : 0);
		return 1;
	}
	if (cur == IBV_QPS_RTS && next == IBV_QPS_RTS) {
		*opt = IBV_QP_CUR_STATE | (ud ? IBV_QP_QKEY : conn) |
		       (rc || tgt ? IBV_QP_MIN_RNR_TIMER : 0);
		return 1;
	}
	if ((cur == IBV_QPS_INIT && next == IBV_QPS_INIT) ||
	    ((cur == IBV_QPS_RTS || cur == IBV_QPS_SQD) &&
	     next == IBV_QPS_SQD) ||
	    (cur == IBV_QPS_SQD && next == IBV_QPS_RTS) ||
	    (cur == IBV_QPS_SQE && next == IBV_QPS_RTS))
		return -1;
	return 0;
}

/*
 * The RoCE address path of @ah in @qpc: the destination GID, and the
 * destination MAC the kernel resolves from it (ib_core's address
 * resolution: a link-local GID carries the MAC in its EUI-64 interface
 * id; no other GID resolves on the software device's host, whose netdevs
 * carry no addresses: the MAC stays zero and the packets go nowhere).
 */
static void
sim_qp_path(const struct ibv_ah_attr *ah, void *qpc)
{
	uint8_t mac[6];

	memcpy(MLX5_ADDR_OF(qpc, qpc, primary_address_path.rgid_rip),
	       ah->grh.dgid.raw, 16);
	MLX5_SET(qpc, qpc, primary_address_path.src_addr_index,
		 ah->grh.sgid_index);
	MLX5_SET(qpc, qpc, primary_address_path.hop_limit, ah->grh.hop_limit);
	if (!mlx5_sim_gid_mac(ah->grh.dgid.raw, mac))
		return;
	MLX5_SET(qpc, qpc, primary_address_path.rmac_47_32,
		 (uint32_t)mac[0] << 8 | mac[1]);
	MLX5_SET(qpc, qpc, primary_address_path.rmac_31_0,
		 (uint32_t)mac[2] << 24 | (uint32_t)mac[3] << 16 |
		 (uint32_t)mac[4] << 8 | mac[5]);
}

/*
 * Access flags @acc as a modify command's optional parameters in @in
 * (the kernel's MLX5_QP_OPTPAR_RRE, _RAE, _RWE: bits 1, 2, 3).
 */
static void
sim_qp_access_opt(unsigned int acc, void *in)
{
	void *qpc = MLX5_ADDR_OF(rst2init_qp_in, in, qpc);

	MLX5_SET(qpc, qpc, rre, !!(acc & IBV_ACCESS_REMOTE_READ));
	MLX5_SET(qpc, qpc, rwe, !!(acc & IBV_ACCESS_REMOTE_WRITE));
	MLX5_SET(qpc, qpc, rae, !!(acc & IBV_ACCESS_REMOTE_ATOMIC));
	MLX5_SET(rst2init_qp_in, in, opt_param_mask,
		 MLX5_GET(rst2init_qp_in, in, opt_param_mask) |
			 RTE_BIT32(1) | RTE_BIT32(2) | RTE_BIT32(3));
}

/* The command of a transition and its QP context (the kernel's). */
static uint16_t
sim_qp_modify_cmd(struct mlx5_sim_vobj *v, int cur, int next,
		  const struct ibv_qp_attr *attr, void *in)
{
	void *qpc = MLX5_ADDR_OF(rst2init_qp_in, in, qpc);
	uint8_t lag_ports = mlx5_sim_lag_ports(v->file->vhca);

	if (next == IBV_QPS_RESET)
		return MLX5_CMD_OP_2RST_QP;
	if (next == IBV_QPS_ERR)
		return MLX5_CMD_OP_2ERR_QP;
	if (cur == IBV_QPS_RESET) {
		MLX5_SET(qpc, qpc, primary_address_path.vhca_port_num,
			 attr->port_num);
		MLX5_SET(qpc, qpc, primary_address_path.pkey_index,
			 attr->pkey_index);
		MLX5_SET(qpc, qpc, q_key, attr->qkey);
		MLX5_SET(qpc, qpc, rre,
			 !!(attr->qp_access_flags & IBV_ACCESS_REMOTE_READ));
		MLX5_SET(qpc, qpc, rwe,
			 !!(attr->qp_access_flags & IBV_ACCESS_REMOTE_WRITE));
		MLX5_SET(qpc, qpc, rae,
			 !!(attr->qp_access_flags & IBV_ACCESS_REMOTE_ATOMIC));
		/* get_tx_affinity(): round robin per context, from 2. */
		if (lag_ports != 0)
			MLX5_SET(qpc, qpc, lag_tx_port_affinity,
				 ++v->file->tx_port_affinity % lag_ports + 1);
		return MLX5_CMD_OP_RST2INIT_QP;
	}
	if (cur == IBV_QPS_INIT && v->ib.qp.qp_type == IBV_QPT_UD) {
		MLX5_SET(qpc, qpc, primary_address_path.vhca_port_num, 1);
		return MLX5_CMD_OP_INIT2RTR_QP;
	}
	if (cur == IBV_QPS_INIT) {
		sim_qp_path(&attr->ah_attr, qpc);
		MLX5_SET(qpc, qpc, next_rcv_psn, attr->rq_psn);
		MLX5_SET(qpc, qpc, mtu, attr->path_mtu);
		MLX5_SET(qpc, qpc, log_msg_max, MLX5_SIM_LOG_MAX_MSG);
		MLX5_SET(qpc, qpc, remote_qpn, attr->dest_qp_num);
		MLX5_SET(qpc, qpc, primary_address_path.vhca_port_num, 1);
		return MLX5_CMD_OP_INIT2RTR_QP;
	}
	if (cur == IBV_QPS_RTR) {
		MLX5_SET(qpc, qpc, next_send_psn, attr->sq_psn);
		MLX5_SET(qpc, qpc, retry_count, attr->retry_cnt);
		MLX5_SET(qpc, qpc, rnr_retry, attr->rnr_retry);
		return MLX5_CMD_OP_RTR2RTS_QP;
	}
	return MLX5_CMD_OP_RTS2RTS_QP;
}

int
mlx5_sim_modify_qp(struct ibv_qp *qp, struct ibv_qp_attr *attr, int mask)
{
	uint32_t in[MLX5_ST_SZ_DW(rts2rts_qp_in)] = { 0 };
	uint32_t out[MLX5_ST_SZ_DW(rts2rts_qp_out)] = { 0 };
	struct mlx5_sim_vobj *v = mlx5_sim_vobj_of(qp, MLX5_SIM_OBJ_QP);
	struct mlx5_sim_vhca *vhca;
	int cur, next, req, opt, ok, err;
	uint16_t opcode;

	if (v == NULL || attr == NULL)
		return EINVAL;
	/*
	 * An RSS QP has no state to move: libmlx5 refuses (EOPNOTSUPP)
	 * before the kernel's ENOSYS.
	 */
	if (sim_vobj_rss(v))
		return EOPNOTSUPP;
	vhca = v->file->vhca;
	mlx5_sim_vhca_lock(vhca);
	cur = (mask & IBV_QP_CUR_STATE) ? (int)attr->cur_qp_state : v->kstate;
	next = (mask & IBV_QP_STATE) ? (int)attr->qp_state : cur;
	ok = sim_qp_transition(qp->qp_type, cur, next, &req, &opt);
	if (ok == 0 || (mask & req) != req ||
	    (mask & ~(req | opt | IBV_QP_STATE)) ||
	    ((mask & IBV_QP_CUR_STATE) && cur != IBV_QPS_RTR &&
	     cur != IBV_QPS_RTS && cur != IBV_QPS_SQD && cur != IBV_QPS_SQE) ||
	    /* One port as verbs sees it (a LAG shows its ports as one). */
	    ((mask & IBV_QP_PORT) && attr->port_num != 1) ||
	    /* RoCE: ib_core refuses an address without a GRH. */
	    ((mask & IBV_QP_AV) && !attr->ah_attr.is_global))
		err = EINVAL;
	else if (ok < 0)
		err = EOPNOTSUPP;
	else
		err = 0;
	if (err == 0 && v->raw) {
		err = sim_raw_modify(v, cur, next);
	} else if (err == 0) {
		opcode = sim_qp_modify_cmd(v, cur, next, attr, in);
		/*
		 * The kernel's optional parameters: access flags changed
		 * along the way (rre, rwe, rae, and their mask bits).
		 */
		if ((mask & IBV_QP_ACCESS_FLAGS) &&
		    (opcode == MLX5_CMD_OP_INIT2RTR_QP ||
		     opcode == MLX5_CMD_OP_RTR2RTS_QP ||
		     opcode == MLX5_CMD_OP_RTS2RTS_QP))
			sim_qp_access_opt(attr->qp_access_flags, in);
		MLX5_SET(rst2init_qp_in, in, opcode, opcode);
		MLX5_SET(rst2init_qp_in, in, qpn, v->num);
		err = sim_kcmd(v, opcode, in, sizeof(in), out);
	}
	if (err == 0 && (mask & IBV_QP_QKEY) && cur != IBV_QPS_RESET &&
	    next != IBV_QPS_RESET) {
		/* The kernel's Q_Key optional parameter of later moves. */
		struct mlx5_sim_qp *sqp = mlx5_sim_qnum_get(&vhca->qps, v->num,
							    MLX5_SIM_Q_QP);

		if (sqp != NULL)
			sqp->q_key = attr->qkey;
	}
	if (err == 0) {
		v->kstate = next;
		/* libibverbs' ibv_modify_qp() keeps the state it asked for. */
		if (mask & IBV_QP_STATE)
			qp->state = next;
	}
	mlx5_sim_vhca_unlock(vhca);
	return err;
}

/*
 * rdma-core's SRQ ring for @a: max_wr + 1 WQEs, a power of two (max_wr 0
 * is one WQE, which holds no receive: libmlx5 and mlx5_ib take it), each
 * a next segment and the data segments, a power of two; the limit
 * ignored. EINVAL beyond the device's sizes.
 */
static int
sim_srq_size(const struct ibv_srq_attr *a, uint32_t *max, uint32_t *stride)
{
	if (a->max_wr >= (1u << MLX5_SIM_LOG_MAX_QP_SZ) ||
	    a->max_sge > SIM_V_MAX_SRQ_SGE)
		return EINVAL;
	*max = 1u << sim_log2_ceil((uint64_t)a->max_wr + 1);
	*stride = 1u << sim_log2_ceil(16 + 16 * RTE_MAX(a->max_sge, 1u));
	return 0;
}

/* Fill the verbs SRQ of @v as created (@max WQEs of @stride bytes). */
static struct ibv_srq *
sim_srq_made(struct mlx5_sim_vobj *v, struct ibv_context *ctx,
	     struct ibv_pd *pd, void *srq_context, struct ibv_srq_attr *a,
	     uint32_t max, uint32_t stride)
{
	v->srq_max = max;
	a->max_wr = max - 1;
	a->max_sge = (stride - 16) / 16;
	v->ib.srq.context = ctx;
	v->ib.srq.srq_context = srq_context;
	v->ib.srq.pd = pd;
	v->ib.srq.handle = v->num;
	pthread_mutex_init(&v->ib.srq.mutex, NULL);
	pthread_cond_init(&v->ib.srq.cond, NULL);
	return &v->ib.srq;
}

struct ibv_srq *
mlx5_sim_create_srq(struct ibv_pd *pd, struct ibv_srq_init_attr *attr)
{
	uint32_t in[MLX5_ST_SZ_DW(create_rmp_in)] = { 0 };
	void *rmpc = MLX5_ADDR_OF(create_rmp_in, in, ctx);
	void *wq = MLX5_ADDR_OF(rmpc, rmpc, wq);
	struct mlx5_sim_pd_obj *pdo = sim_pd_of(pd, NULL);
	uint32_t max, stride;
	struct mlx5_sim_vobj *v;
	int err;

	if (pdo == NULL || attr == NULL ||
	    sim_srq_size(&attr->attr, &max, &stride) != 0) {
		errno = EINVAL;
		return NULL;
	}
	v = sim_vobj_new(pdo->file, MLX5_SIM_OBJ_SRQ, (size_t)max * stride);
	if (v == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	MLX5_SET(create_rmp_in, in, opcode, MLX5_CMD_OP_CREATE_RMP);
	MLX5_SET(rmpc, rmpc, state, MLX5_RMPC_STATE_RDY);
	MLX5_SET(wq, wq, wq_type, MLX5_WQ_TYPE_LINKED_LIST);
	MLX5_SET(wq, wq, pd, pdo->pdn);
	MLX5_SET(wq, wq, log_wq_stride, sim_log2_ceil(stride));
	MLX5_SET(wq, wq, log_wq_sz, sim_log2_ceil(max));
	MLX5_SET64(wq, wq, dbr_addr, sim_vobj_ring(v));
	err = sim_vobj_create(v, MLX5_CMD_OP_CREATE_RMP, in, sizeof(in), NULL,
			      0, pdo);
	if (err != 0) {
		errno = err;
		return NULL;
	}
	return sim_srq_made(v, pd->context, pd, attr->srq_context,
			    &attr->attr, max, stride);
}

/*
 * ibv_create_srq_ex(): a basic SRQ (an RMP) or an XRC SRQ
 * (CREATE_XRC_SRQ, as mlx5_ib's create_srq_user and srq_cmd.c build it:
 * its PD, its CQ and its XRC domain, all required; the user index
 * libmlx5 gives it, which its CQEs carry). Tag matching SRQs are not
 * modelled (EOPNOTSUPP).
 */
struct ibv_srq *
mlx5_sim_create_srq_ex(struct ibv_context *ctx,
		       struct ibv_srq_init_attr_ex *attr)
{
	const uint32_t xrc_mask = IBV_SRQ_INIT_ATTR_TYPE |
				  IBV_SRQ_INIT_ATTR_PD |
				  IBV_SRQ_INIT_ATTR_XRCD |
				  IBV_SRQ_INIT_ATTR_CQ;
	uint32_t in[MLX5_ST_SZ_DW(create_xrc_srq_in)] = { 0 };
	void *c = MLX5_ADDR_OF(create_xrc_srq_in, in, xrc_srq_context_entry);
	struct mlx5_sim_file *file = sim_ctx_file(ctx);
	struct mlx5_sim_vobj *on[2], *v;
	struct mlx5_sim_pd_obj *pdo;
	uint32_t max, stride;
	int err;

	if (file == NULL || attr == NULL) {
		errno = EINVAL;
		return NULL;
	}
	if ((attr->comp_mask & ~(uint32_t)(xrc_mask)) ||
	    ((attr->comp_mask & IBV_SRQ_INIT_ATTR_TYPE) &&
	     attr->srq_type != IBV_SRQT_BASIC &&
	     attr->srq_type != IBV_SRQT_XRC)) {
		errno = EOPNOTSUPP;
		return NULL;
	}
	if (!(attr->comp_mask & IBV_SRQ_INIT_ATTR_TYPE) ||
	    attr->srq_type == IBV_SRQT_BASIC) {
		struct ibv_srq *srq;

		if (!(attr->comp_mask & IBV_SRQ_INIT_ATTR_PD) ||
		    attr->pd == NULL || attr->pd->context != ctx) {
			errno = EINVAL;
			return NULL;
		}
		srq = mlx5_sim_create_srq(attr->pd,
					  (struct ibv_srq_init_attr *)attr);
		return srq;
	}
	pdo = sim_pd_of(attr->pd, file);
	on[0] = sim_named(attr->xrcd, MLX5_SIM_OBJ_XRCD, file);
	on[1] = sim_named(attr->cq, MLX5_SIM_OBJ_CQ, file);
	if ((attr->comp_mask & xrc_mask) != xrc_mask || pdo == NULL ||
	    on[0] == NULL || on[1] == NULL ||
	    sim_srq_size(&attr->attr, &max, &stride) != 0) {
		errno = EINVAL;
		return NULL;
	}
	v = sim_vobj_new(file, MLX5_SIM_OBJ_SRQ, (size_t)max * stride);
	if (v == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	v->xrc = true;
	v->uidx = sim_uidx_new(file);
	MLX5_SET(create_xrc_srq_in, in, opcode, MLX5_CMD_OP_CREATE_XRC_SRQ);
	MLX5_SET(xrc_srqc, c, state, MLX5_XRC_SRQC_STATE_GOOD);
	MLX5_SET(xrc_srqc, c, log_xrc_srq_size, sim_log2_ceil(max));
	MLX5_SET(xrc_srqc, c, log_rq_stride, sim_log2_ceil(stride) - 4);
	MLX5_SET(xrc_srqc, c, xrcd, on[0]->num);
	MLX5_SET(xrc_srqc, c, cqn, on[1]->num);
	MLX5_SET(xrc_srqc, c, pd, pdo->pdn);
	MLX5_SET(xrc_srqc, c, user_index, v->uidx);
	/* The record, after the ring: its address in 4-byte units. */
	MLX5_SET(xrc_srqc, c, db_record_addr_h,
		 (uint32_t)((uint64_t)sim_vobj_ring(v) >> 32));
	MLX5_SET(xrc_srqc, c, db_record_addr_l,
		 (uint32_t)sim_vobj_ring(v) >> 2);
	err = sim_vobj_create(v, MLX5_CMD_OP_CREATE_XRC_SRQ, in, sizeof(in),
			      on, RTE_DIM(on), pdo);
	if (err != 0) {
		errno = err;
		return NULL;
	}
	return sim_srq_made(v, ctx, attr->pd, attr->srq_context, &attr->attr,
			    max, stride);
}

/*
 * ibv_query_srq() (mlx5_ib's query_srq): the sizes granted, the limit
 * from the device (QUERY_RMP's lwm, an XRC SRQ's QUERY_XRC_SRQ).
 */
int
mlx5_sim_query_srq(struct ibv_srq *srq, struct ibv_srq_attr *attr)
{
	struct mlx5_sim_vobj *v = mlx5_sim_vobj_of(srq, MLX5_SIM_OBJ_SRQ);
	uint32_t in[MLX5_ST_SZ_DW(query_xrc_srq_in)] = { 0 };
	/* Room for either answer. */
	uint32_t out[MLX5_ST_SZ_DW(query_xrc_srq_out) +
		     MLX5_ST_SZ_DW(query_rmp_out)] = { 0 };
	uint16_t opcode;
	int err;

	if (v == NULL || attr == NULL)
		return EINVAL;
	opcode = v->xrc ? MLX5_CMD_OP_QUERY_XRC_SRQ : MLX5_CMD_OP_QUERY_RMP;
	/* Both name the SRQ at the same place. */
	MLX5_SET(query_xrc_srq_in, in, opcode, opcode);
	MLX5_SET(query_xrc_srq_in, in, xrc_srqn, v->num);
	mlx5_sim_vhca_lock(v->file->vhca);
	err = sim_kcmd(v, opcode, in, sizeof(in), out);
	mlx5_sim_vhca_unlock(v->file->vhca);
	if (err != 0)
		return err;
	attr->max_wr = v->srq_max - 1;
	attr->max_sge = (uint32_t)(sim_vobj_ring(v) / v->srq_max - 16) / 16;
	attr->srq_limit =
		v->xrc ? MLX5_GET(xrc_srqc,
				  MLX5_ADDR_OF(query_xrc_srq_out, out,
					       xrc_srq_context_entry),
				  lwm) :
			 MLX5_GET(wq,
				  MLX5_ADDR_OF(rmpc,
					       MLX5_ADDR_OF(query_rmp_out, out,
							    rmp_context),
					       wq),
				  lwm);
	return 0;
}

int
mlx5_sim_get_srq_num(struct ibv_srq *srq, uint32_t *srq_num)
{
	struct mlx5_sim_vobj *v = mlx5_sim_vobj_of(srq, MLX5_SIM_OBJ_SRQ);

	/* libmlx5 gives any SRQ's number (DC users take it too). */
	if (v == NULL || srq_num == NULL)
		return EINVAL;
	*srq_num = v->num;
	return 0;
}

struct mlx5_sim_vobj *
mlx5_sim_vobj_by_uidx(struct mlx5_sim_file *file, uint32_t uidx)
{
	struct mlx5_sim_vobj *v;

	if (uidx == 0)
		return NULL; /* Most CQEs: no lock taken for them. */
	mlx5_sim_vhca_lock(file->vhca);
	v = sim_vobj_by_uidx_locked(file, uidx);
	mlx5_sim_vhca_unlock(file->vhca);
	return v;
}

/*
 * XRC domains (ib_uverbs' open_xrcd, then ALLOC_XRCD): with a file
 * descriptor (IBV_XRCD_INIT_ATTR_FD and _OFLAGS, both required by
 * libibverbs), the domain is the one already opened on that file's inode,
 * if any: O_EXCL refuses it (EINVAL); without one, O_CREAT makes it, else
 * EAGAIN; a bad descriptor is EBADF. fd -1: a domain of its own. Each
 * open is a handle of its own; the domain goes with the last handle on
 * it (DEALLOC_XRCD), not while an XRC SRQ or target QP created through a
 * handle uses it (EBUSY on that handle). The kernel shares a domain
 * across contexts and processes; the model within a context: another
 * context's open of the same inode is EOPNOTSUPP.
 */
struct ibv_xrcd *
mlx5_sim_open_xrcd(struct ibv_context *ctx, struct ibv_xrcd_init_attr *attr)
{
	const uint32_t need = IBV_XRCD_INIT_ATTR_FD | IBV_XRCD_INIT_ATTR_OFLAGS;
	uint32_t in[MLX5_ST_SZ_DW(alloc_xrcd_in)] = { 0 };
	uint32_t out[MLX5_ST_SZ_DW(alloc_xrcd_out)] = { 0 };
	struct mlx5_sim_file *file = sim_ctx_file(ctx), *f;
	struct mlx5_sim_vobj *v, *o, *same = NULL;
	struct mlx5_sim_vhca *vhca;
	bool other = false;
	struct stat st;
	int err = 0;

	if (file == NULL || attr == NULL) {
		errno = EINVAL;
		return NULL;
	}
	if (attr->comp_mask >= IBV_XRCD_INIT_ATTR_RESERVED) {
		errno = EOPNOTSUPP;
		return NULL;
	}
	if ((attr->comp_mask & need) != need) {
		errno = EINVAL;
		return NULL;
	}
	if (attr->fd != -1 && fstat(attr->fd, &st) != 0) {
		errno = EBADF;
		return NULL;
	}
	v = sim_vobj_new(file, MLX5_SIM_OBJ_XRCD, 0);
	if (v == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	/*
	 * The kernel holds the inode while the domain lives: a copy of the
	 * descriptor holds the file, so that its inode number names no other
	 * file meanwhile.
	 */
	if (attr->fd != -1) {
		v->xrcd_fd = fcntl(attr->fd, F_DUPFD_CLOEXEC, 0);
		if (v->xrcd_fd < 0) {
			sim_vobj_free(v);
			errno = EMFILE;
			return NULL;
		}
		v->xrcd_inode = true;
		v->xrcd_dev = st.st_dev;
		v->xrcd_ino = st.st_ino;
	}
	vhca = file->vhca;
	mlx5_sim_vhca_lock(vhca);
	TAILQ_FOREACH(f, &vhca->files, vhca_next)
		TAILQ_FOREACH(o, &f->vobjs, next)
			if (v->xrcd_inode && o->kind == MLX5_SIM_OBJ_XRCD &&
			    o->xrcd_inode && o->xrcd_dev == v->xrcd_dev &&
			    o->xrcd_ino == v->xrcd_ino) {
				if (f == file)
					same = o;
				else
					other = true;
			}
	if (other) {
		SIM_LOG(ERR, "%s: an XRC domain shared between contexts is not modelled",
			vhca->ibdev.name);
		err = EOPNOTSUPP;
	} else if (same == NULL && v->xrcd_inode &&
		   !(attr->oflags & O_CREAT)) {
		err = EAGAIN;
	} else if (same != NULL && (attr->oflags & O_EXCL)) {
		err = EINVAL;
	} else if (same != NULL) {
		v->num = same->num;
	} else {
		MLX5_SET(alloc_xrcd_in, in, opcode, MLX5_CMD_OP_ALLOC_XRCD);
		err = sim_kcmd(v, MLX5_CMD_OP_ALLOC_XRCD, in, sizeof(in), out);
	}
	if (err == 0)
		TAILQ_INSERT_TAIL(&file->vobjs, v, next);
	mlx5_sim_vhca_unlock(vhca);
	if (err != 0) {
		sim_vobj_free(v);
		errno = err;
		return NULL;
	}
	v->ib.xrcd.context = ctx;
	return &v->ib.xrcd;
}

int
mlx5_sim_close_xrcd(struct ibv_xrcd *xrcd)
{
	struct mlx5_sim_vobj *v = mlx5_sim_vobj_of(xrcd, MLX5_SIM_OBJ_XRCD);
	uint32_t in[MLX5_ST_SZ_DW(dealloc_xrcd_in)] = { 0 };
	uint32_t out[MLX5_ST_SZ_DW(dealloc_xrcd_out)] = { 0 };
	struct mlx5_sim_vobj *o;
	bool shared = false;
	int err = 0;

	if (v == NULL)
		return EINVAL;
	mlx5_sim_vhca_lock(v->file->vhca);
	TAILQ_FOREACH(o, &v->file->vobjs, next)
		if (o != v && o->kind == MLX5_SIM_OBJ_XRCD && o->num == v->num)
			shared = true;
	if (v->users != 0) {
		err = EBUSY;
	} else if (!shared) {
		MLX5_SET(dealloc_xrcd_in, in, opcode,
			 MLX5_CMD_OP_DEALLOC_XRCD);
		MLX5_SET(dealloc_xrcd_in, in, xrcd, v->num);
		err = sim_kcmd(v, MLX5_CMD_OP_DEALLOC_XRCD, in, sizeof(in),
			       out);
	}
	if (err == 0)
		TAILQ_REMOVE(&v->file->vobjs, v, next);
	mlx5_sim_vhca_unlock(v->file->vhca);
	if (err == 0)
		sim_vobj_free(v);
	return err;
}

/* ibv_modify_srq(): the limit only (mlx5 cannot resize an SRQ). */
int
mlx5_sim_modify_srq(struct ibv_srq *srq, struct ibv_srq_attr *attr,
		    int mask)
{
	uint32_t in[MLX5_ST_SZ_DW(modify_rmp_in)] = { 0 };
	uint32_t out[MLX5_ST_SZ_DW(modify_rmp_out)] = { 0 };
	struct mlx5_sim_vobj *v = mlx5_sim_vobj_of(srq, MLX5_SIM_OBJ_SRQ);
	void *rmpc = MLX5_ADDR_OF(modify_rmp_in, in, ctx);
	int err;

	/* An XRC SRQ's limit (ARM_XRC_SRQ) is not modelled. */
	if (v != NULL && v->xrc && (mask & IBV_SRQ_LIMIT))
		return EOPNOTSUPP;
	if (v == NULL || attr == NULL || (mask & ~IBV_SRQ_LIMIT) ||
	    ((mask & IBV_SRQ_LIMIT) && attr->srq_limit >= v->srq_max))
		return EINVAL;
	if (!(mask & IBV_SRQ_LIMIT))
		return 0;
	/* arm_rmp_cmd(): RDY to RDY with the new watermark. */
	MLX5_SET(modify_rmp_in, in, opcode, MLX5_CMD_OP_MODIFY_RMP);
	MLX5_SET(modify_rmp_in, in, rmpn, v->num);
	MLX5_SET(modify_rmp_in, in, rmp_state, MLX5_RMPC_STATE_RDY);
	MLX5_SET(modify_rmp_in, in, bitmask.lwm, 1);
	MLX5_SET(rmpc, rmpc, state, MLX5_RMPC_STATE_RDY);
	MLX5_SET(wq, MLX5_ADDR_OF(rmpc, rmpc, wq), lwm, attr->srq_limit);
	mlx5_sim_vhca_lock(v->file->vhca);
	err = sim_kcmd(v, MLX5_CMD_OP_MODIFY_RMP, in, sizeof(in), out);
	mlx5_sim_vhca_unlock(v->file->vhca);
	return err;
}

int
mlx5_sim_destroy_srq(struct ibv_srq *srq)
{
	struct mlx5_sim_vobj *v = mlx5_sim_vobj_of(srq, MLX5_SIM_OBJ_SRQ);

	if (v == NULL)
		return EINVAL;
	return sim_vobj_destroy(v, v->xrc ? MLX5_CMD_OP_DESTROY_XRC_SRQ :
					    MLX5_CMD_OP_DESTROY_RMP);
}

struct ibv_wq *
mlx5_sim_create_wq(struct ibv_context *ctx, struct ibv_wq_init_attr *attr)
{
	uint32_t in[MLX5_ST_SZ_DW(create_rq_in)] = { 0 };
	struct mlx5_sim_file *file = sim_ctx_file(ctx);
	void *rqc = MLX5_ADDR_OF(create_rq_in, in, ctx);
	void *wq = MLX5_ADDR_OF(rqc, rqc, wq);
	struct mlx5_sim_pd_obj *pd;
	struct mlx5_sim_vobj *cq, *v;
	uint32_t log_sz, stride;
	int err;

	if (file == NULL || attr == NULL || attr->wq_type != IBV_WQT_RQ ||
	    attr->max_wr == 0 || attr->max_wr > (1u << 15) ||
	    attr->max_sge > 128) {
		errno = EINVAL;
		return NULL;
	}
	/*
	 * Creation flags: the FCS scattered (the device has scatter_fcs);
	 * VLAN stripping and the rest are not modelled.
	 */
	if ((attr->comp_mask & ~(uint32_t)IBV_WQ_INIT_ATTR_FLAGS) ||
	    ((attr->comp_mask & IBV_WQ_INIT_ATTR_FLAGS) &&
	     (attr->create_flags & ~(uint32_t)IBV_WQ_FLAGS_SCATTER_FCS))) {
		errno = EOPNOTSUPP;
		return NULL;
	}
	pd = sim_pd_of(attr->pd, file);
	cq = sim_named(attr->cq, MLX5_SIM_OBJ_CQ, file);
	if (pd == NULL || cq == NULL) {
		errno = EINVAL;
		return NULL;
	}
	log_sz = sim_log2_ceil(attr->max_wr);
	stride = 1u << sim_log2_ceil(16 * RTE_MAX(attr->max_sge, 1u));
	v = sim_vobj_new(file, MLX5_SIM_OBJ_RQ, (size_t)stride << log_sz);
	if (v == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	MLX5_SET(create_rq_in, in, opcode, MLX5_CMD_OP_CREATE_RQ);
	MLX5_SET(rqc, rqc, state, MLX5_WQ_STATE_RST);
	MLX5_SET(rqc, rqc, vsd, 1);
	/* mlx5_ib's create_rq: receives flushed in error. */
	MLX5_SET(rqc, rqc, flush_in_error_en, 1);
	MLX5_SET(rqc, rqc, scatter_fcs,
		 !!((attr->comp_mask & IBV_WQ_INIT_ATTR_FLAGS) &&
		    (attr->create_flags & IBV_WQ_FLAGS_SCATTER_FCS)));
	MLX5_SET(rqc, rqc, cqn, cq->num);
	v->uidx = sim_uidx_new(file);
	MLX5_SET(rqc, rqc, user_index, v->uidx);
	MLX5_SET(wq, wq, wq_type, MLX5_WQ_TYPE_CYCLIC);
	MLX5_SET(wq, wq, pd, pd->pdn);
	MLX5_SET(wq, wq, log_wq_stride, sim_log2_ceil(stride));
	MLX5_SET(wq, wq, log_wq_sz, log_sz);
	MLX5_SET64(wq, wq, dbr_addr, sim_vobj_ring(v));
	err = sim_vobj_create(v, MLX5_CMD_OP_CREATE_RQ, in, sizeof(in), &cq, 1,
			      pd);
	if (err != 0) {
		errno = err;
		return NULL;
	}
	attr->max_wr = 1u << log_sz;
	attr->max_sge = stride / 16;
	v->rq_wqes = attr->max_wr;
	v->rq_stride = stride;
	v->ib.wq.context = ctx;
	v->ib.wq.wq_context = attr->wq_context;
	v->ib.wq.pd = attr->pd;
	v->ib.wq.cq = attr->cq;
	v->ib.wq.wq_num = v->num;
	v->ib.wq.handle = v->num;
	v->ib.wq.state = IBV_WQS_RESET;
	v->ib.wq.wq_type = IBV_WQT_RQ;
	pthread_mutex_init(&v->ib.wq.mutex, NULL);
	pthread_cond_init(&v->ib.wq.cond, NULL);
	return &v->ib.wq;
}

/*
 * mlx5_ib's modify_wq: MODIFY_RQ from the state the WQ is in (or the one
 * the caller says it is in) to the one asked; the flags (VLAN stripping,
 * FCS scattering, ...) are not modelled (EOPNOTSUPP).
 */
int
mlx5_sim_modify_wq(struct ibv_wq *wq, struct ibv_wq_attr *attr)
{
	static const uint8_t state[] = {
		[IBV_WQS_RESET] = MLX5_WQ_STATE_RST,
		[IBV_WQS_RDY] = MLX5_WQ_STATE_RDY,
		[IBV_WQS_ERR] = MLX5_WQ_STATE_ERR,
	};
	uint32_t in[MLX5_ST_SZ_DW(modify_rq_in)] = { 0 };
	uint32_t out[MLX5_ST_SZ_DW(modify_rq_out)] = { 0 };
	struct mlx5_sim_vobj *v = mlx5_sim_vobj_of(wq, MLX5_SIM_OBJ_RQ);
	enum ibv_wq_state cur, next;
	int err;

	if (v == NULL || attr == NULL || attr->attr_mask == 0 ||
	    (attr->attr_mask & ~(uint32_t)(IBV_WQ_ATTR_STATE |
					   IBV_WQ_ATTR_CURR_STATE |
					   IBV_WQ_ATTR_FLAGS)))
		return EINVAL;
	if ((attr->attr_mask & IBV_WQ_ATTR_FLAGS) && attr->flags_mask != 0)
		return EOPNOTSUPP;
	cur = attr->attr_mask & IBV_WQ_ATTR_CURR_STATE ? attr->curr_wq_state :
							 wq->state;
	next = attr->attr_mask & IBV_WQ_ATTR_STATE ? attr->wq_state : cur;
	if ((unsigned int)cur > IBV_WQS_ERR || (unsigned int)next > IBV_WQS_ERR)
		return EINVAL;
	MLX5_SET(modify_rq_in, in, opcode, MLX5_CMD_OP_MODIFY_RQ);
	MLX5_SET(modify_rq_in, in, rq_state, state[cur]);
	MLX5_SET(modify_rq_in, in, rqn, v->num);
	MLX5_SET(rqc, MLX5_ADDR_OF(modify_rq_in, in, ctx), state, state[next]);
	mlx5_sim_vhca_lock(v->file->vhca);
	err = sim_kcmd(v, MLX5_CMD_OP_MODIFY_RQ, in, sizeof(in), out);
	mlx5_sim_vhca_unlock(v->file->vhca);
	/* libibverbs keeps the state it asked for. */
	if (err == 0 && (attr->attr_mask & IBV_WQ_ATTR_STATE))
		wq->state = next;
	return err;
}

int
mlx5_sim_destroy_wq(struct ibv_wq *wq)
{
	struct mlx5_sim_vobj *v = mlx5_sim_vobj_of(wq, MLX5_SIM_OBJ_RQ);

	return v != NULL ? sim_vobj_destroy(v, MLX5_CMD_OP_DESTROY_RQ) :
	       EINVAL;
}

struct ibv_rwq_ind_table *
mlx5_sim_create_rwq_ind_table(struct ibv_context *ctx,
			      struct ibv_rwq_ind_table_init_attr *attr)
{
	struct mlx5_sim_file *file = sim_ctx_file(ctx);
	struct mlx5_sim_vobj **wqs = NULL, *v = NULL;
	size_t inlen;
	uint32_t n, *in = NULL;
	uint8_t *entries;
	void *rqtc;
	int err = 0;

	if (file == NULL || attr == NULL || attr->comp_mask != 0 ||
	    attr->ind_tbl == NULL ||
	    attr->log_ind_tbl_size > SIM_V_LOG_MAX_RQT) {
		errno = EINVAL;
		return NULL;
	}
	n = 1u << attr->log_ind_tbl_size;
	inlen = MLX5_ST_SZ_BYTES(create_rqt_in) +
		(size_t)n * MLX5_ST_SZ_BYTES(rq_num);
	wqs = calloc(n, sizeof(*wqs));
	in = calloc(1, inlen);
	/* No ring: the table is the command's list. */
	v = sim_vobj_new(file, MLX5_SIM_OBJ_RQT, 0);
	if (wqs == NULL || in == NULL || v == NULL)
		err = ENOMEM;
	for (uint32_t i = 0; err == 0 && i < n; i++) {
		wqs[i] = sim_named(attr->ind_tbl[i], MLX5_SIM_OBJ_RQ, file);
		if (wqs[i] == NULL)
			err = EINVAL;
	}
	if (err == 0) {
		rqtc = MLX5_ADDR_OF(create_rqt_in, in, rqt_context);
		entries = (uint8_t *)rqtc + MLX5_ST_SZ_BYTES(rqtc);
		MLX5_SET(create_rqt_in, in, opcode, MLX5_CMD_OP_CREATE_RQT);
		MLX5_SET(rqtc, rqtc, rqt_max_size, n);
		MLX5_SET(rqtc, rqtc, rqt_actual_size, n);
		for (uint32_t i = 0; i < n; i++)
			MLX5_SET(rq_num, entries + i * MLX5_ST_SZ_BYTES(rq_num),
				 rq_num, wqs[i]->num);
		err = sim_vobj_create(v, MLX5_CMD_OP_CREATE_RQT, in, inlen,
				      wqs, n, NULL);
		v = err == 0 ? v : NULL; /* Freed on failure. */
	} else if (v != NULL) {
		sim_vobj_free(v);
		v = NULL;
	}
	free(wqs);
	free(in);
	if (v == NULL) {
		errno = err;
		return NULL;
	}
	v->rq_wqes = n; /* Its entries. */
	v->ib.ind_tbl.context = ctx;
	v->ib.ind_tbl.ind_tbl_handle = (int)v->num;
	v->ib.ind_tbl.ind_tbl_num = (int)v->num;
	return &v->ib.ind_tbl;
}

int
mlx5_sim_destroy_rwq_ind_table(struct ibv_rwq_ind_table *ind_tbl)
{
	struct mlx5_sim_vobj *v = mlx5_sim_vobj_of(ind_tbl, MLX5_SIM_OBJ_RQT);

	return v != NULL ? sim_vobj_destroy(v, MLX5_CMD_OP_DESTROY_RQT) :
	       EINVAL;
}

/*
 * mlx5dv_init_obj() for what verbs hides: a CQ (cqn, ring, doorbell
 * record), a QP (its receive then send ring, doorbell record, BlueFlame
 * register), an SRQ (srqn when asked, ring, stride), a WQ (ring, doorbell
 * record, WQEs and stride) and a PD (pdn). Other kinds (DM, AH) are not
 * modelled: EOPNOTSUPP.
 */
int
mlx5_sim_dv_init_obj(struct mlx5dv_obj *obj, uint64_t obj_type)
{
	const uint64_t known = MLX5DV_OBJ_CQ | MLX5DV_OBJ_SRQ | MLX5DV_OBJ_PD |
			       MLX5DV_OBJ_QP | MLX5DV_OBJ_RWQ;
	struct mlx5_sim_vobj *v;

	if (obj == NULL)
		return EINVAL;
	if (obj_type & ~known)
		return EOPNOTSUPP;
	if (obj_type & MLX5DV_OBJ_CQ) {
		v = mlx5_sim_vobj_of(obj->cq.in, MLX5_SIM_OBJ_CQ);
		if (v == NULL || obj->cq.out == NULL)
			return EINVAL;
		obj->cq.out->buf = v->rmem.addr != NULL ? v->rmem.addr :
				   v->mem.addr;
		obj->cq.out->dbrec = (void *)(v->mem.addr + sim_vobj_ring(v));
		obj->cq.out->cqe_cnt = v->ib.cq.cqe + 1;
		obj->cq.out->cqe_size = SIM_V_CQE_SIZE;
		obj->cq.out->cq_uar = NULL;
		obj->cq.out->cqn = v->num;
		obj->cq.out->comp_mask = 0;
	}
	if (obj_type & MLX5DV_OBJ_SRQ) {
		v = mlx5_sim_vobj_of(obj->srq.in, MLX5_SIM_OBJ_SRQ);
		if (v == NULL || obj->srq.out == NULL)
			return EINVAL;
		obj->srq.out->buf = v->mem.addr;
		obj->srq.out->dbrec = (void *)(v->mem.addr + sim_vobj_ring(v));
		obj->srq.out->stride = sim_vobj_ring(v) / v->srq_max;
		obj->srq.out->head = 0;
		obj->srq.out->tail = v->srq_max - 1;
		if (obj->srq.out->comp_mask & MLX5DV_SRQ_MASK_SRQN) {
			obj->srq.out->srqn = v->num;
			obj->srq.out->comp_mask = MLX5DV_SRQ_MASK_SRQN;
		} else {
			obj->srq.out->comp_mask = 0;
		}
	}
	if (obj_type & MLX5DV_OBJ_QP) {
		struct mlx5dv_qp *o = obj->qp.out;
		uint64_t req;
		size_t rq_bytes;

		v = mlx5_sim_vobj_of(obj->qp.in, MLX5_SIM_OBJ_QP);
		if (v == NULL || o == NULL)
			return EINVAL;
		rq_bytes = (size_t)v->rq_wqes * v->rq_stride;
		o->dbrec = (void *)(v->mem.addr + sim_vobj_ring(v));
		o->rq.buf = v->mem.addr;
		o->rq.wqe_cnt = v->rq_wqes;
		o->rq.stride = v->rq_wqes != 0 ? v->rq_stride : 0;
		o->sq.buf = v->mem.addr + rq_bytes;
		o->sq.wqe_cnt = v->sq_wqes;
		o->sq.stride = SIM_V_WQEBB;
		/*
		 * The BlueFlame register pair of the context's UAR page
		 * (none yet: an RSS QP's context may have no other QP).
		 */
		o->bf.reg = v->file->ctx_uar != NULL ?
				    (uint8_t *)v->file->ctx_uar->page + 0x800 :
				    NULL;
		o->bf.size = 256;
		req = o->comp_mask;
		o->comp_mask = 0;
		if ((req & MLX5DV_QP_MASK_UAR_MMAP_OFFSET) &&
		    v->file->ctx_uar != NULL) {
			o->uar_mmap_offset = (uint64_t)v->file->ctx_uar->dv.mmap_off;
			o->comp_mask |= MLX5DV_QP_MASK_UAR_MMAP_OFFSET;
		}
		/* A raw QP's parts (0: none), as mlx5_ib answers them. */
		if ((req & MLX5DV_QP_MASK_RAW_QP_HANDLES) && v->raw) {
			o->tirn = v->raw_tirn;
			o->tisn = v->raw_tisn;
			o->rqn = v->raw_rqn;
			o->sqn = v->raw_sqn;
			o->comp_mask |= MLX5DV_QP_MASK_RAW_QP_HANDLES;
		}
	}
	if (obj_type & MLX5DV_OBJ_RWQ) {
		v = mlx5_sim_vobj_of(obj->rwq.in, MLX5_SIM_OBJ_RQ);
		if (v == NULL || obj->rwq.out == NULL)
			return EINVAL;
		obj->rwq.out->buf = v->mem.addr;
		obj->rwq.out->dbrec =
			(void *)(v->mem.addr + sim_vobj_ring(v));
		obj->rwq.out->wqe_cnt = v->rq_wqes;
		obj->rwq.out->stride = v->rq_stride;
		obj->rwq.out->comp_mask = 0;
	}
	if (obj_type & MLX5DV_OBJ_PD) {
		if (obj->pd.out == NULL ||
		    mlx5_sim_query_pdn(obj->pd.in, &obj->pd.out->pdn) != 0)
			return EINVAL;
		obj->pd.out->comp_mask = 0;
	}
	return 0;
}

/*
 * DEVX on verbs objects: the handle stands for the object its creation
 * made; the kernel lets through only mailboxes that name it.
 */
/*
 * DEVX through a QP's handle: its QP, or a raw QP's parts (mlx5_ib's
 * devx_is_valid_obj_id(): its RQ, SQ, TIR or TIS; of the TIR's and the
 * TIS's commands the device runs QUERY_TIS only, the others are BAD_OPCODE).
 */
static int
sim_qp_devx(struct ibv_qp *qp, bool modify, const void *in, size_t inlen,
	    void *out, size_t outlen)
{
	struct mlx5_sim_vobj *v = mlx5_sim_vobj_of(qp, MLX5_SIM_OBJ_QP);
	const struct {
		uint16_t create;
		uint32_t num;
	} parts[] = {
		{ MLX5_CMD_OP_CREATE_SQ, v != NULL ? v->raw_sqn : 0 },
		{ MLX5_CMD_OP_CREATE_RQ, v != NULL ? v->raw_rqn : 0 },
		{ MLX5_CMD_OP_CREATE_TIS, v != NULL ? v->raw_tisn : 0 },
		{ MLX5_CMD_OP_CREATE_TIR, v != NULL ? v->raw_tirn : 0 },
	};
	uint64_t ids[RTE_DIM(parts)];
	unsigned int n = 0;

	if (v == NULL)
		return EINVAL;
	if (!v->raw)
		return mlx5_sim_verbs_devx_cmd(v->file, modify,
					       MLX5_CMD_OP_CREATE_QP, v->num,
					       in, inlen, out, outlen);
	/* The parts it has (an RSS QP: its TIR alone). */
	for (unsigned int i = 0; i < RTE_DIM(parts); i++)
		if (parts[i].num != 0)
			ids[n++] = (uint64_t)parts[i].create << 32 |
				   parts[i].num;
	return mlx5_sim_verbs_devx_cmd_objs(v->file, modify, ids, n, in, inlen,
					    out, outlen);
}

int
mlx5_sim_qp_query(struct ibv_qp *qp, const void *in, size_t inlen, void *out,
		  size_t outlen)
{
	return sim_qp_devx(qp, false, in, inlen, out, outlen);
}

/*
 * The kernel's QUERY_QP verb (mlx5_ib_query_qp): the firmware's QP
 * context through QUERY_QP, and the capacities the kernel granted.
 */
/* The verbs state of qpc.state @st (mlx5_ib's to_ib_qp_state), or @dflt. */
static enum ibv_qp_state
sim_qpc_state(uint32_t st, uint8_t dflt)
{
	switch (st) {
	case MLX5_QP_STATE_RST:
		return IBV_QPS_RESET;
	case MLX5_QP_STATE_INIT:
		return IBV_QPS_INIT;
	case MLX5_QP_STATE_RTR:
		return IBV_QPS_RTR;
	case MLX5_QP_STATE_RTS:
		return IBV_QPS_RTS;
	case MLX5_QP_STATE_SQER:
		return IBV_QPS_SQE;
	case MLX5_QP_STATE_ERR:
		return IBV_QPS_ERR;
	default:
		return (enum ibv_qp_state)dflt;
	}
}

/*
 * The state of QP @v as the device has it, kept as the kernel's: read
 * under the lock the transitions take (mlx5_ib holds the QP's mutex
 * across a query and a modify), so that no transition in between is
 * undone.
 */
static enum ibv_qp_state
sim_qp_state_now(struct mlx5_sim_vobj *v)
{
	struct mlx5_sim_vhca *vhca = v->file->vhca;
	struct mlx5_sim_qp *sqp;
	enum ibv_qp_state st;

	mlx5_sim_vhca_lock(vhca);
	sqp = mlx5_sim_qnum_get(&vhca->qps, v->num, MLX5_SIM_Q_QP);
	if (sqp != NULL)
		v->kstate = sim_qpc_state(sqp->state, v->kstate);
	st = (enum ibv_qp_state)v->kstate;
	mlx5_sim_vhca_unlock(vhca);
	return st;
}

int
mlx5_sim_query_qp(struct ibv_qp *qp, struct ibv_qp_attr *attr, int mask,
		  struct ibv_qp_init_attr *init)
{
	uint32_t in[MLX5_ST_SZ_DW(query_qp_in)] = { 0 };
	uint32_t out[MLX5_ST_SZ_DW(query_qp_out)] = { 0 };
	struct mlx5_sim_vobj *v = mlx5_sim_vobj_of(qp, MLX5_SIM_OBJ_QP);
	void *qpc = MLX5_ADDR_OF(query_qp_out, out, qpc);
	int ret;

	RTE_SET_USED(mask); /* As the kernel: every field is answered. */
	if (v == NULL || attr == NULL || init == NULL)
		return EINVAL;
	if (sim_vobj_rss(v))
		return EOPNOTSUPP; /* libmlx5's refusal, as to modify. */
	if (v->raw) {
		/* No QP context: its state, capacities and port. */
		memset(attr, 0, sizeof(*attr));
		memset(init, 0, sizeof(*init));
		attr->qp_state = sim_raw_qp_state(v);
		attr->cur_qp_state = attr->qp_state;
		attr->cap = v->qp_cap;
		attr->port_num = v->kstate != IBV_QPS_RESET ? 1 : 0;
		goto init;
	}
	MLX5_SET(query_qp_in, in, opcode, MLX5_CMD_OP_QUERY_QP);
	MLX5_SET(query_qp_in, in, qpn, v->num);
	ret = mlx5_sim_cmd_kernel_query(v->file, in, sizeof(in), out,
					sizeof(out));
	if (ret != 0)
		return ret == EREMOTEIO ? EINVAL : ret;
	memset(attr, 0, sizeof(*attr));
	memset(init, 0, sizeof(*init));
	/*
	 * The device's state, which the kernel keeps too (mlx5_ib's
	 * query_qp_attr): a QP the device moved to ERR (its own error or
	 * its peer's) is in ERR.
	 */
	attr->qp_state = sim_qp_state_now(v);
	attr->cur_qp_state = attr->qp_state;
	/* The PRM's MTU encoding is IBTA's (1: 256 .. 5: 4096). */
	attr->path_mtu = (enum ibv_mtu)MLX5_GET(qpc, qpc, mtu);
	attr->path_mig_state = IBV_MIG_MIGRATED;
	attr->dest_qp_num = MLX5_GET(qpc, qpc, remote_qpn);
	attr->qp_access_flags =
		(MLX5_GET(qpc, qpc, rre) ? IBV_ACCESS_REMOTE_READ : 0) |
		(MLX5_GET(qpc, qpc, rwe) ? IBV_ACCESS_REMOTE_WRITE : 0) |
		(MLX5_GET(qpc, qpc, rae) ? IBV_ACCESS_REMOTE_ATOMIC : 0);
	attr->cap = v->qp_cap;
	attr->port_num = MLX5_GET(qpc, qpc, primary_address_path.vhca_port_num);
	/* RoCE: the address always has its GRH (once past RTR). */
	if (v->kstate != IBV_QPS_RESET && v->kstate != IBV_QPS_INIT &&
	    qp->qp_type != IBV_QPT_UD) {
		attr->ah_attr.is_global = 1;
		attr->ah_attr.port_num = attr->port_num;
		memcpy(attr->ah_attr.grh.dgid.raw, MLX5_ADDR_OF(qpc, qpc,
		       primary_address_path.rgid_rip), 16);
		attr->ah_attr.grh.sgid_index = MLX5_GET(qpc, qpc,
			primary_address_path.src_addr_index);
		attr->ah_attr.grh.hop_limit = MLX5_GET(qpc, qpc,
			primary_address_path.hop_limit);
	}
	attr->qkey = MLX5_GET(qpc, qpc, q_key);
	attr->sq_psn = MLX5_GET(qpc, qpc, next_send_psn);
	attr->rq_psn = MLX5_GET(qpc, qpc, next_rcv_psn);
	attr->pkey_index = MLX5_GET(qpc, qpc, primary_address_path.pkey_index);
	attr->retry_cnt = MLX5_GET(qpc, qpc, retry_count);
	attr->rnr_retry = MLX5_GET(qpc, qpc, rnr_retry);
init:
	init->qp_context = qp->qp_context;
	init->send_cq = qp->send_cq;
	init->recv_cq = qp->recv_cq;
	init->cap = v->qp_cap;
	init->qp_type = qp->qp_type;
	return 0;
}

int
mlx5_sim_qp_modify(struct ibv_qp *qp, const void *in, size_t inlen,
		   void *out, size_t outlen)
{
	return sim_qp_devx(qp, true, in, inlen, out, outlen);
}

int
mlx5_sim_cq_query(struct ibv_cq *cq, const void *in, size_t inlen, void *out,
		  size_t outlen)
{
	struct mlx5_sim_vobj *v = mlx5_sim_vobj_of(cq, MLX5_SIM_OBJ_CQ);

	return v == NULL ? EINVAL :
	       mlx5_sim_verbs_devx_cmd(v->file, false, MLX5_CMD_OP_CREATE_CQ,
				       v->num, in, inlen, out, outlen);
}

int
mlx5_sim_cq_modify(struct ibv_cq *cq, const void *in, size_t inlen,
		   void *out, size_t outlen)
{
	struct mlx5_sim_vobj *v = mlx5_sim_vobj_of(cq, MLX5_SIM_OBJ_CQ);

	return v == NULL ? EINVAL :
	       mlx5_sim_verbs_devx_cmd(v->file, true, MLX5_CMD_OP_CREATE_CQ,
				       v->num, in, inlen, out, outlen);
}

/* A verbs SRQ is an RMP (ISSI 1): QUERY_RMP, MODIFY_RMP. */
int
mlx5_sim_srq_query(struct ibv_srq *srq, const void *in, size_t inlen,
		   void *out, size_t outlen)
{
	struct mlx5_sim_vobj *v = mlx5_sim_vobj_of(srq, MLX5_SIM_OBJ_SRQ);

	return v == NULL ? EINVAL :
	       mlx5_sim_verbs_devx_cmd(v->file, false, MLX5_CMD_OP_CREATE_RMP,
				       v->num, in, inlen, out, outlen);
}

int
mlx5_sim_srq_modify(struct ibv_srq *srq, const void *in, size_t inlen,
		    void *out, size_t outlen)
{
	struct mlx5_sim_vobj *v = mlx5_sim_vobj_of(srq, MLX5_SIM_OBJ_SRQ);

	return v == NULL ? EINVAL :
	       mlx5_sim_verbs_devx_cmd(v->file, true, MLX5_CMD_OP_CREATE_RMP,
				       v->num, in, inlen, out, outlen);
}

int
mlx5_sim_wq_query(struct ibv_wq *wq, const void *in, size_t inlen, void *out,
		  size_t outlen)
{
	struct mlx5_sim_vobj *v = mlx5_sim_vobj_of(wq, MLX5_SIM_OBJ_RQ);

	return v == NULL ? EINVAL :
	       mlx5_sim_verbs_devx_cmd(v->file, false, MLX5_CMD_OP_CREATE_RQ,
				       v->num, in, inlen, out, outlen);
}

int
mlx5_sim_wq_modify(struct ibv_wq *wq, const void *in, size_t inlen,
		   void *out, size_t outlen)
{
	struct mlx5_sim_vobj *v = mlx5_sim_vobj_of(wq, MLX5_SIM_OBJ_RQ);

	return v == NULL ? EINVAL :
	       mlx5_sim_verbs_devx_cmd(v->file, true, MLX5_CMD_OP_CREATE_RQ,
				       v->num, in, inlen, out, outlen);
}

int
mlx5_sim_ind_tbl_query(struct ibv_rwq_ind_table *ind_tbl, const void *in,
		       size_t inlen, void *out, size_t outlen)
{
	struct mlx5_sim_vobj *v = mlx5_sim_vobj_of(ind_tbl, MLX5_SIM_OBJ_RQT);

	return v == NULL ? EINVAL :
	       mlx5_sim_verbs_devx_cmd(v->file, false, MLX5_CMD_OP_CREATE_RQT,
				       v->num, in, inlen, out, outlen);
}

int
mlx5_sim_ind_tbl_modify(struct ibv_rwq_ind_table *ind_tbl, const void *in,
			size_t inlen, void *out, size_t outlen)
{
	struct mlx5_sim_vobj *v = mlx5_sim_vobj_of(ind_tbl, MLX5_SIM_OBJ_RQT);

	return v == NULL ? EINVAL :
	       mlx5_sim_verbs_devx_cmd(v->file, true, MLX5_CMD_OP_CREATE_RQT,
				       v->num, in, inlen, out, outlen);
}

/*
 * QUERY_LAG: with two ports the device is bonded (lag_state 1) and each
 * port transmits on itself (tx_remap_affinity_N = N); with one, no LAG.
 */
uint32_t
mlx5_sim_cmd_query_lag(struct mlx5_sim_file *file, void *out)
{
	uint8_t ports = mlx5_sim_lag_ports(file->vhca);

	if (ports != 0) {
		MLX5_SET(query_lag_out, out, ctx.lag_state, 1);
		MLX5_SET(query_lag_out, out, ctx.tx_remap_affinity_1, 1);
		MLX5_SET(query_lag_out, out, ctx.tx_remap_affinity_2, 2);
	}
	return MLX5_SIM_SYND_OK;
}

/*
 * mlx5dv_query_qp_lag_port(), as rdma-core builds it: LAG needs more than
 * one lag port (num_lag_ports), QUERY_LAG, then QUERY_QP's
 * lag_tx_port_affinity (1 or 2; 0, never assigned, is EOPNOTSUPP) and the
 * port it is remapped to.
 */
int
mlx5_sim_query_qp_lag_port(struct ibv_qp *qp, uint8_t *port_num,
			   uint8_t *active_port_num)
{
	uint32_t lin[MLX5_ST_SZ_DW(query_lag_in)] = { 0 };
	uint32_t lout[MLX5_ST_SZ_DW(query_lag_out)] = { 0 };
	uint32_t qin[MLX5_ST_SZ_DW(query_qp_in)] = { 0 };
	uint32_t qout[MLX5_ST_SZ_DW(query_qp_out)] = { 0 };
	struct mlx5_sim_vobj *v = mlx5_sim_vobj_of(qp, MLX5_SIM_OBJ_QP);
	uint8_t port;
	int ret;

	if (v == NULL || port_num == NULL || active_port_num == NULL)
		return EINVAL;
	if (mlx5_sim_lag_ports(v->file->vhca) <= 1)
		return EOPNOTSUPP;
	MLX5_SET(query_lag_in, lin, opcode, MLX5_CMD_OP_QUERY_LAG);
	ret = mlx5_sim_general_cmd(qp->context, lin, sizeof(lin), lout,
				   sizeof(lout));
	if (ret != 0)
		return sim_cmd_status_err(ret, lout);
	/* lag_state 0 would still do: the lag_tx_port_affinity cap is on. */
	MLX5_SET(query_qp_in, qin, opcode, MLX5_CMD_OP_QUERY_QP);
	MLX5_SET(query_qp_in, qin, qpn, qp->qp_num);
	ret = mlx5_sim_qp_query(qp, qin, sizeof(qin), qout, sizeof(qout));
	if (ret != 0)
		return sim_cmd_status_err(ret, qout);
	port = MLX5_GET(query_qp_out, qout, qpc.lag_tx_port_affinity);
	if (port == 1)
		*active_port_num = MLX5_GET(query_lag_out, lout,
					    ctx.tx_remap_affinity_1);
	else if (port == 2)
		*active_port_num = MLX5_GET(query_lag_out, lout,
					    ctx.tx_remap_affinity_2);
	else
		return EOPNOTSUPP;
	*port_num = port;
	return 0;
}

/*
 * mlx5dv_modify_qp_lag_port(): the query first (not in LAG: EOPNOTSUPP),
 * then, for an RC QP in RTS as libibverbs knows it (ibv_qp.state) with the
 * rts2rts_lag_tx_port_affinity cap, RTS2RTS with the lag port as optional
 * parameter; firmware checks the port.
 */
int
mlx5_sim_modify_qp_lag_port(struct ibv_qp *qp, uint8_t port_num)
{
	uint32_t in[MLX5_ST_SZ_DW(rts2rts_qp_in)] = { 0 };
	uint32_t out[MLX5_ST_SZ_DW(rts2rts_qp_out)] = { 0 };
	uint8_t configured, active;
	int ret;

	ret = mlx5_sim_query_qp_lag_port(qp, &configured, &active);
	if (ret != 0)
		return ret;
	if (qp->state != IBV_QPS_RTS)
		return EOPNOTSUPP;
	MLX5_SET(rts2rts_qp_in, in, opcode, MLX5_CMD_OP_RTS2RTS_QP);
	MLX5_SET(rts2rts_qp_in, in, qpn, qp->qp_num);
	MLX5_SET(rts2rts_qp_in, in, opt_param_mask,
		 MLX5_QPC_OPT_MASK_RTS2RTS_LAG_TX_PORT_AFFINITY);
	MLX5_SET(rts2rts_qp_in, in, qpc.lag_tx_port_affinity, port_num);
	ret = mlx5_sim_qp_modify(qp, in, sizeof(in), out, sizeof(out));
	return ret != 0 ? sim_cmd_status_err(ret, out) : 0;
}

/*
 * mlx5dv_modify_qp_udp_sport(): an RC QP in RTS (ibv_qp.state) on a device
 * with rts2rts_qp_udp_sport (the sim's always has it), else EOPNOTSUPP;
 * RTS2RTS with the port in the primary address path.
 */
int
mlx5_sim_modify_qp_udp_sport(struct ibv_qp *qp, uint16_t udp_sport)
{
	uint32_t in[MLX5_ST_SZ_DW(rts2rts_qp_in)] = { 0 };
	uint32_t out[MLX5_ST_SZ_DW(rts2rts_qp_out)] = { 0 };
	int ret;

	if (mlx5_sim_vobj_of(qp, MLX5_SIM_OBJ_QP) == NULL)
		return EINVAL;
	if (qp->qp_type != IBV_QPT_RC || qp->state != IBV_QPS_RTS)
		return EOPNOTSUPP;
	MLX5_SET(rts2rts_qp_in, in, opcode, MLX5_CMD_OP_RTS2RTS_QP);
	MLX5_SET(rts2rts_qp_in, in, qpn, qp->qp_num);
	MLX5_SET64(rts2rts_qp_in, in, opt_param_mask_95_32,
		   MLX5_QPC_OPT_MASK_32_UDP_SPORT);
	MLX5_SET(rts2rts_qp_in, in, qpc.primary_address_path.udp_sport,
		 udp_sport);
	ret = mlx5_sim_qp_modify(qp, in, sizeof(in), out, sizeof(out));
	return ret != 0 ? sim_cmd_status_err(ret, out) : 0;
}

/* A raw QP's parts at the file's last close, users first. */
static void
sim_raw_reclaim(struct mlx5_sim_vobj *v)
{
	const struct mlx5_sim_devx_obj parts[] = {
		{ .kind = MLX5_SIM_OBJ_TIR, .index = v->raw_tirn },
		{ .kind = MLX5_SIM_OBJ_RQ, .index = v->raw_rqn },
		{ .kind = MLX5_SIM_OBJ_SQ, .index = v->raw_sqn },
		{ .kind = MLX5_SIM_OBJ_TIS, .index = v->raw_tisn },
	};

	for (unsigned int i = 0; i < RTE_DIM(parts); i++) {
		struct mlx5_sim_devx_obj obj = parts[i];

		obj.file = v->file;
		if (obj.index != 0)
			mlx5_sim_eth_reclaim(v->file->vhca, &obj);
	}
}

void
mlx5_sim_verbs_reclaim(struct mlx5_sim_file *file)
{
	/*
	 * Users before what they use: QPs, tables, WQs, SRQs, XRC domains,
	 * CQs.
	 */
	static const enum mlx5_sim_obj_kind order[] = {
		MLX5_SIM_OBJ_QP, MLX5_SIM_OBJ_RQT, MLX5_SIM_OBJ_RQ,
		MLX5_SIM_OBJ_SRQ, MLX5_SIM_OBJ_XRCD, MLX5_SIM_OBJ_CQ,
	};
	struct mlx5_sim_vhca *vhca = file->vhca;
	struct mlx5_sim_vobj *v, *tmp;

	for (unsigned int i = 0; i < RTE_DIM(order); i++) {
		for (v = TAILQ_FIRST(&file->vobjs); v != NULL; v = tmp) {
			struct mlx5_sim_devx_obj obj = {
				.kind = v->kind, .file = file, .index = v->num,
			};

			tmp = TAILQ_NEXT(v, next);
			if (v->kind != order[i])
				continue;
			if (v->raw)
				sim_raw_reclaim(v);
			else if (v->kind == MLX5_SIM_OBJ_QP ||
				 v->kind == MLX5_SIM_OBJ_CQ)
				mlx5_sim_queue_reclaim(vhca, &obj);
			else if (v->kind == MLX5_SIM_OBJ_SRQ)
				mlx5_sim_rmp_reclaim(vhca, &obj);
			else if (v->kind == MLX5_SIM_OBJ_XRCD)
				mlx5_sim_xrcd_reclaim(vhca, &obj);
			else
				mlx5_sim_eth_reclaim(vhca, &obj);
			/* PDs go with the file: no counts to give back. */
			TAILQ_REMOVE(&file->vobjs, v, next);
			sim_vobj_free(v);
		}
	}
	/* The context's transport domain, the kernel's: no program's. */
	if (file->kernel_tdn != 0) {
		uint32_t in[MLX5_ST_SZ_DW(dealloc_transport_domain_in)] = { 0 };
		uint32_t out[MLX5_ST_SZ_DW(dealloc_transport_domain_out)];
		struct mlx5_sim_devx_obj obj = { .file = file };

		MLX5_SET(dealloc_transport_domain_in, in, transport_domain,
			 file->kernel_tdn);
		mlx5_sim_cmd_eth(file, MLX5_CMD_OP_DEALLOC_TRANSPORT_DOMAIN,
				 in, sizeof(in), out, &obj);
		file->kernel_tdn = 0;
	}
}
