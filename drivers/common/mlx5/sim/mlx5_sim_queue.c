/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * Completion queues and queue pairs: CREATE/DESTROY/QUERY_CQ,
 * CREATE/DESTROY/QUERY_QP and the QP state machine (RST -> INIT -> RTR ->
 * RTS, any -> ERR, any -> RST). Rings and doorbell records are in umems
 * of the creating context, as DEVX users give them (the kernel marks them
 * valid on the way). What the device does with the queues is the engine's
 * (mlx5_sim_engine.c).
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>

#include "mlx5_sim_priv.h"

/* Bytes of a CQE and of a send WQE basic block. */
#define SIM_CQE_SIZE 64
#define SIM_WQEBB 64
/* Bytes of a doorbell record: two 32-bit counters. */
#define SIM_DBR_SIZE 8

int
mlx5_sim_idtab_alloc(struct mlx5_sim_idtab *t, void *obj, uint32_t *id)
{
	uint32_t i, n;

	if (t->count >= t->max - 1)
		return -ENOSPC; /* Numbers 1..max-1 all taken. */
	/* Numbers are handed out in turn, so a stale one is rarely reused. */
	for (n = 0; n < t->max; n++) {
		i = t->next++;
		if (t->next >= t->max)
			t->next = 1;
		if (i == 0)
			continue;
		if (i >= t->size) {
			uint32_t size = RTE_MAX(t->size * 2, 64u);
			void **slot;

			if (size <= i)
				size = i + 1;
			if (size > t->max)
				size = t->max;
			slot = realloc(t->slot, size * sizeof(*slot));
			if (slot == NULL)
				return -ENOMEM;
			memset(slot + t->size, 0,
			       (size - t->size) * sizeof(*slot));
			t->slot = slot;
			t->size = size;
		}
		if (t->slot[i] == NULL) {
			t->slot[i] = obj;
			t->count++;
			*id = i;
			return 0;
		}
	}
	return -ENOSPC;
}

void
mlx5_sim_idtab_free(struct mlx5_sim_idtab *t, uint32_t id)
{
	if (id < t->size && t->slot[id] != NULL) {
		t->slot[id] = NULL;
		t->count--;
	}
}

/*
 * Resolve [offset, offset + len) of umem @id of @file. Memory the device
 * writes (@writes: a CQ's ring) must be registered for local write, as
 * mlx5_ib pins a CQ's buffer (IB_ACCESS_LOCAL_WRITE): a page pinned for
 * reading may not be the one the process maps when the device writes
 * it. What the device only reads (WQ rings, every doorbell record: the
 * kernel pins those with access 0, and DPDK 22.11 registers its RQ umems
 * so) may be registered read-only.
 */
uint32_t
mlx5_sim_umem_ref(struct mlx5_sim_file *file, uint32_t id, uint64_t offset,
		  uint64_t len, bool writes, struct mlx5_sim_umem_ref *ref)
{
	struct mlx5_sim_umem *umem = mlx5_sim_umem_find(file->vhca, id);

	if (umem == NULL || umem->file != file)
		return MLX5_SIM_SYND_Q_UMEM_UNKNOWN;
	if (offset > umem->size || len > umem->size - offset)
		return MLX5_SIM_SYND_Q_UMEM_RANGE;
	if (writes && !(umem->access & IBV_ACCESS_LOCAL_WRITE))
		return MLX5_SIM_SYND_Q_UMEM_READ_ONLY;
	ref->umem = umem;
	ref->host = umem->addr + offset;
	return MLX5_SIM_SYND_OK;
}

static void
sim_umem_ref_take(struct mlx5_sim_umem_ref *ref)
{
	ref->umem->users++;
}

static void
sim_umem_ref_drop(struct mlx5_sim_umem_ref *ref)
{
	ref->umem->users--;
}

uint32_t
mlx5_sim_cmd_create_cq(struct mlx5_sim_file *file, const void *in, void *out,
		       struct mlx5_sim_devx_obj *obj)
{
	return mlx5_sim_cq_create(file, in, NULL, NULL, out, obj);
}

uint32_t
mlx5_sim_cq_create(struct mlx5_sim_file *file, const void *in,
		   const struct mlx5_sim_umem_ref *kring,
		   const struct mlx5_sim_umem_ref *kdbr, void *out,
		   struct mlx5_sim_devx_obj *obj)
{
	struct mlx5_sim_vhca *vhca = file->vhca;
	const void *cqc = MLX5_ADDR_OF(create_cq_in, in, cq_context);
	uint32_t log_size = MLX5_GET(cqc, cqc, log_cq_size);
	uint32_t eqn = MLX5_GET(cqc, cqc, c_eqn_or_apu_element);
	uint64_t dbr_addr = MLX5_GET64(cqc, cqc, dbr_addr);
	struct mlx5_sim_umem_ref ring, dbr;
	struct mlx5_sim_cq *cq;
	uint32_t synd;

	if (MLX5_GET(cqc, cqc, cqe_sz) != MLX5_CQE_SIZE_64B)
		return MLX5_SIM_SYND_CQ_CQE_SIZE;
	if (log_size > MLX5_SIM_LOG_MAX_CQ_SZ)
		return MLX5_SIM_SYND_CQ_SIZE;
	if (eqn < MLX5_SIM_EQN_BASE ||
	    eqn >= MLX5_SIM_EQN_BASE + MLX5_SIM_NUM_COMP_VECTORS)
		return MLX5_SIM_SYND_CQ_EQN;
	if (kring == NULL &&
	    !mlx5_sim_uar_page_of(file, MLX5_GET(cqc, cqc, uar_page)))
		return MLX5_SIM_SYND_Q_UAR;
	if (dbr_addr % SIM_DBR_SIZE != 0)
		return MLX5_SIM_SYND_Q_DBR_ALIGN;
	/*
	 * CQE compression: announced or not (cqe_compression), and of the
	 * mini-CQE formats those a cyclic RQ takes (hash, checksum): the
	 * flow tag and stride index formats need capabilities the device
	 * does not announce, as do L3/L4 headers (_ext) and the enhanced
	 * layout.
	 */
	if (MLX5_GET(cqc, cqc, cqe_comp_en)) {
		if (vhca->caps.cqe_comp_max == 0)
			return MLX5_SIM_SYND_CQ_COMP;
		if (MLX5_GET(cqc, cqc, mini_cqe_res_format) >
			    MLX5_MINI_CQE_FORMAT_CSUM ||
		    MLX5_GET(cqc, cqc, mini_cqe_res_format_ext) != 0 ||
		    MLX5_GET(cqc, cqc, cqe_comp_layout) != 0)
			return MLX5_SIM_SYND_CQ_COMP_FORMAT;
	}
	if (kring != NULL) {
		ring = *kring;
		dbr = *kdbr;
		synd = MLX5_SIM_SYND_OK;
	} else {
		synd = mlx5_sim_umem_ref(file,
			    MLX5_GET(create_cq_in, in, cq_umem_id),
			    MLX5_GET64(create_cq_in, in, cq_umem_offset),
			    (uint64_t)SIM_CQE_SIZE << log_size, true, &ring);
		/*
		 * The CQ context gives the ring's offset in its first page
		 * in units of 64 bytes (the kernel's own CQs: page_offset
		 * quantized by 64): a ring elsewhere cannot be described.
		 */
		if (synd == MLX5_SIM_SYND_OK &&
		    (uintptr_t)ring.host % SIM_CQE_SIZE != 0)
			synd = MLX5_SIM_SYND_Q_RING_ALIGN;
		if (synd == MLX5_SIM_SYND_OK)
			synd = mlx5_sim_umem_ref(file,
				    MLX5_GET(cqc, cqc, dbr_umem_id),
				    dbr_addr, SIM_DBR_SIZE, false, &dbr);
	}
	if (synd != MLX5_SIM_SYND_OK)
		return synd;
	cq = calloc(1, sizeof(*cq));
	if (cq == NULL)
		return MLX5_SIM_SYND_CQ_TABLE_FULL;
	if (mlx5_sim_idtab_alloc(&vhca->cqs, cq, &cq->cqn) != 0) {
		free(cq);
		return MLX5_SIM_SYND_CQ_TABLE_FULL;
	}
	cq->file = file;
	cq->ring = ring;
	cq->dbr = dbr;
	cq->log_size = log_size;
	cq->uar_page = MLX5_GET(cqc, cqc, uar_page);
	cq->eqn = eqn;
	cq->oi = MLX5_GET(cqc, cqc, oi);
	cq->zip = MLX5_GET(cqc, cqc, cqe_comp_en);
	cq->zip_fmt = MLX5_GET(cqc, cqc, mini_cqe_res_format);
	cq->zip_max = RTE_MIN(vhca->caps.cqe_comp_max, MLX5_SIM_CQE_COMP_MAX);
	if (cq->zip)
		mlx5_sim_cq_zip_key(cq);
	sim_umem_ref_take(&cq->ring);
	sim_umem_ref_take(&cq->dbr);
	vhca->live.cqs++;
	MLX5_SET(create_cq_out, out, cqn, cq->cqn);
	obj->kind = MLX5_SIM_OBJ_CQ;
	obj->index = cq->cqn;
	return MLX5_SIM_SYND_OK;
}

struct mlx5_sim_cq *
mlx5_sim_cq_of(struct mlx5_sim_file *file, uint32_t cqn)
{
	struct mlx5_sim_cq *cq = mlx5_sim_idtab_get(&file->vhca->cqs, cqn);

	return cq != NULL && cq->file == file ? cq : NULL;
}

static void
sim_cq_free(struct mlx5_sim_vhca *vhca, struct mlx5_sim_cq *cq)
{
	/* Sessions are open only while a doorbell runs (card lock held). */
	MLX5_SIM_VERIFY(!cq->zip_listed);
	sim_umem_ref_drop(&cq->ring);
	sim_umem_ref_drop(&cq->dbr);
	mlx5_sim_idtab_free(&vhca->cqs, cq->cqn);
	vhca->live.cqs--;
	free(cq);
}

uint32_t
mlx5_sim_cmd_destroy_cq(struct mlx5_sim_file *file, const void *in)
{
	struct mlx5_sim_cq *cq = mlx5_sim_cq_of(file,
					   MLX5_GET(destroy_cq_in, in, cqn));

	if (cq == NULL)
		return MLX5_SIM_SYND_CQ_UNKNOWN;
	if (cq->users != 0)
		return MLX5_SIM_SYND_CQ_BUSY;
	sim_cq_free(file->vhca, cq);
	return MLX5_SIM_SYND_OK;
}

uint32_t
mlx5_sim_cmd_query_cq(struct mlx5_sim_file *file, const void *in, void *out)
{
	struct mlx5_sim_cq *cq = mlx5_sim_cq_of(file,
					   MLX5_GET(query_cq_in, in, cqn));
	void *cqc = MLX5_ADDR_OF(query_cq_out, out, cq_context);
	uint32_t ci = 0;

	if (cq == NULL)
		return MLX5_SIM_SYND_CQ_UNKNOWN;
	/* The doorbell record as the device reads it (0 if unmapped). */
	if (!mlx5_sim_dbr_read(cq->dbr.host, 0, &ci))
		ci = 0;
	MLX5_SET(cqc, cqc, status, cq->status);
	MLX5_SET(cqc, cqc, cqe_sz, MLX5_CQE_SIZE_64B);
	MLX5_SET(cqc, cqc, oi, cq->oi);
	MLX5_SET(cqc, cqc, cqe_comp_en, cq->zip);
	MLX5_SET(cqc, cqc, mini_cqe_res_format, cq->zip ? cq->zip_fmt : 0);
	MLX5_SET(cqc, cqc, st, MLX5_CQ_STATE_NOTIFIED_DISARMED);
	MLX5_SET(cqc, cqc, log_cq_size, cq->log_size);
	MLX5_SET(cqc, cqc, uar_page, cq->uar_page);
	MLX5_SET(cqc, cqc, c_eqn_or_apu_element, cq->eqn);
	MLX5_SET(cqc, cqc, cq_period, cq->cq_period);
	MLX5_SET(cqc, cqc, cq_max_count, cq->cq_max_count);
	MLX5_SET(cqc, cqc, dbr_umem_id, cq->dbr.umem->dv.umem_id);
	MLX5_SET64(cqc, cqc, dbr_addr, cq->dbr.host - cq->dbr.umem->addr);
	MLX5_SET(cqc, cqc, producer_counter, cq->pi & 0xffffff);
	MLX5_SET(cqc, cqc, consumer_counter, ci & 0xffffff);
	return MLX5_SIM_SYND_OK;
}

/*
 * MODIFY_CQ: moderation (period, count) is kept and queried back; a
 * resize (op_mod 1) or another field is not modelled.
 */
uint32_t
mlx5_sim_cmd_modify_cq(struct mlx5_sim_file *file, const void *in)
{
	struct mlx5_sim_cq *cq = mlx5_sim_cq_of(file,
					   MLX5_GET(modify_cq_in, in, cqn));
	const void *cqc = MLX5_ADDR_OF(modify_cq_in, in, cq_context);
	uint32_t sel = MLX5_GET(modify_cq_in, in, modify_field_select);

	if (cq == NULL)
		return MLX5_SIM_SYND_CQ_UNKNOWN;
	if (MLX5_GET(modify_cq_in, in, op_mod) != MLX5_CQ_OPMOD_MODIFY ||
	    (sel & ~(uint32_t)(MLX5_CQ_MODIFY_PERIOD | MLX5_CQ_MODIFY_COUNT)))
		return MLX5_SIM_SYND_VERBS_CQ_MODIFY;
	if (sel & MLX5_CQ_MODIFY_PERIOD)
		cq->cq_period = MLX5_GET(cqc, cqc, cq_period);
	if (sel & MLX5_CQ_MODIFY_COUNT)
		cq->cq_max_count = MLX5_GET(cqc, cqc, cq_max_count);
	return MLX5_SIM_SYND_OK;
}

/* The QP @qpn of @file, or NULL. */
static struct mlx5_sim_qp *
sim_qp_of(struct mlx5_sim_file *file, uint32_t qpn)
{
	struct mlx5_sim_qp *qp = mlx5_sim_qnum_get(&file->vhca->qps, qpn,
						   MLX5_SIM_Q_QP);

	return qp != NULL && qp->file == file ? qp : NULL;
}

/* Check the QP context of CREATE_QP; fill what it sets in @qp. */
static uint32_t
sim_qp_check(struct mlx5_sim_file *file, const void *in,
	     const struct mlx5_sim_umem_ref *kring,
	     const struct mlx5_sim_umem_ref *kdbr,
	     struct mlx5_sim_qp *qp, struct mlx5_sim_cq **snd,
	     struct mlx5_sim_cq **rcv)
{
	const void *qpc = MLX5_ADDR_OF(create_qp_in, in, qpc);
	uint32_t rq_type = MLX5_GET(qpc, qpc, rq_type);
	uint64_t dbr_addr = MLX5_GET64(qpc, qpc, dbr_addr);
	struct mlx5_sim_file *owner = NULL;
	uint64_t ring;
	uint32_t synd;

	uint32_t cqn_snd = MLX5_GET(qpc, qpc, cqn_snd);
	uint32_t cqn_rcv = MLX5_GET(qpc, qpc, cqn_rcv);
	bool xrc;

	qp->st = MLX5_GET(qpc, qpc, st);
	xrc = qp->st == MLX5_QP_ST_XRC;
	qp->no_sq = MLX5_GET(qpc, qpc, no_sq);
	if ((qp->st != MLX5_QP_ST_RC && qp->st != MLX5_QP_ST_UC &&
	     qp->st != MLX5_QP_ST_UD && !xrc) || (qp->no_sq && !xrc))
		return MLX5_SIM_SYND_QP_TYPE;
	/*
	 * XRC (mlx5_ib's create_xrc_tgt_qp and its XRC_INI defaults): a
	 * target, no send queue, belongs to an XRC domain and receives into
	 * the XRC SRQs of that domain, whose PD and CQ serve each message;
	 * an initiator sends only. Neither receives on a queue of its own:
	 * rq_type zero-size. The kernel gives both its own PD, CQ and SRQ
	 * where IB gives them none; the model needs none of those: a pd or
	 * cqn of 0 is none there.
	 */
	if (xrc && rq_type != MLX5_QP_RQ_TYPE_ZERO_SIZE)
		return MLX5_SIM_SYND_QP_RQ_TYPE;
	if (qp->no_sq) {
		struct mlx5_sim_xrcd *xrcd =
			mlx5_sim_xrcd_of(file, MLX5_GET(qpc, qpc, xrcd));

		if (xrcd == NULL)
			return MLX5_SIM_SYND_QP_XRCD;
		qp->xrcdn = xrcd->xrcdn;
	}
	qp->pdn = MLX5_GET(qpc, qpc, pd);
	qp->pd = qp->pdn != 0 || !qp->no_sq ?
		 mlx5_sim_pd_find(file->vhca, qp->pdn, &owner) : NULL;
	if ((qp->pd == NULL || owner != file) && !(qp->no_sq && qp->pdn == 0))
		return MLX5_SIM_SYND_QP_PD;
	/*
	 * A QP without a receive queue of its own needs no receive CQ:
	 * DPDK's mlx5_devx_cmd_create_qp() leaves cqn_rcv 0 for a zero-size
	 * RQ (its crypto PMD's QPs, on real firmware).
	 */
	*snd = mlx5_sim_cq_of(file, cqn_snd);
	*rcv = mlx5_sim_cq_of(file, cqn_rcv);
	if ((*snd == NULL && !(qp->no_sq && cqn_snd == 0)) ||
	    (*rcv == NULL &&
	     !((xrc || rq_type == MLX5_QP_RQ_TYPE_ZERO_SIZE) && cqn_rcv == 0)))
		return MLX5_SIM_SYND_QP_CQ;
	if (rq_type != MLX5_QP_RQ_TYPE_REGULAR &&
	    rq_type != MLX5_QP_RQ_TYPE_ZERO_SIZE &&
	    rq_type != MLX5_QP_RQ_TYPE_SRQ)
		return MLX5_SIM_SYND_QP_RQ_TYPE;
	/*
	 * Receives through a verbs SRQ (an RMP of the same file): no
	 * receive ring of its own.
	 */
	if (rq_type == MLX5_QP_RQ_TYPE_SRQ) {
		qp->rmp = mlx5_sim_qnum_get(&file->vhca->qps,
					    MLX5_GET(qpc, qpc, srqn_rmpn_xrqn),
					    MLX5_SIM_Q_RMP);
		if (qp->rmp == NULL || qp->rmp->wq.file != file)
			return MLX5_SIM_SYND_QP_RQ_TYPE;
	}
	qp->no_rq = rq_type != MLX5_QP_RQ_TYPE_REGULAR;
	qp->log_sq_size = qp->no_sq ? 0 : MLX5_GET(qpc, qpc, log_sq_size);
	qp->log_rq_size = qp->no_rq ? 0 : MLX5_GET(qpc, qpc, log_rq_size);
	qp->log_rq_stride = qp->no_rq ? 0 : MLX5_GET(qpc, qpc, log_rq_stride);
	if (qp->log_sq_size > MLX5_SIM_LOG_MAX_QP_SZ ||
	    qp->log_rq_size > MLX5_SIM_LOG_MAX_QP_SZ)
		return MLX5_SIM_SYND_QP_SIZE;
	qp->ts_format = MLX5_GET(qpc, qpc, ts_format);
	if (qp->ts_format == 3)
		return MLX5_SIM_SYND_QP_TS_FORMAT;
	qp->uar_page = MLX5_GET(qpc, qpc, uar_page);
	if (kring == NULL && !mlx5_sim_uar_page_of(file, qp->uar_page))
		return MLX5_SIM_SYND_Q_UAR;
	if (dbr_addr % SIM_DBR_SIZE != 0)
		return MLX5_SIM_SYND_Q_DBR_ALIGN;
	qp->lag_port = MLX5_GET(qpc, qpc, lag_tx_port_affinity);
	if (qp->lag_port > mlx5_sim_lag_ports(file->vhca))
		return MLX5_SIM_SYND_VERBS_LAG_PORT;
	ring = qp->no_sq ? 0 : (uint64_t)SIM_WQEBB << qp->log_sq_size;
	if (!qp->no_rq)
		ring += (uint64_t)MLX5_RQ_STRIDE_UNIT <<
			(qp->log_rq_size + qp->log_rq_stride);
	if (kring != NULL) {
		if (ring > kring->umem->size)
			return MLX5_SIM_SYND_Q_UMEM_RANGE;
		qp->ring = *kring;
		qp->dbr = *kdbr;
		return MLX5_SIM_SYND_OK;
	}
	synd = mlx5_sim_umem_ref(file, MLX5_GET(create_qp_in, in, wq_umem_id),
			    MLX5_GET64(create_qp_in, in, wq_umem_offset), ring,
			    false, &qp->ring);
	if (synd == MLX5_SIM_SYND_OK)
		synd = mlx5_sim_umem_ref(file, MLX5_GET(qpc, qpc, dbr_umem_id),
				    dbr_addr, SIM_DBR_SIZE, false, &qp->dbr);
	return synd;
}

uint32_t
mlx5_sim_cmd_create_qp(struct mlx5_sim_file *file, const void *in, void *out,
		       struct mlx5_sim_devx_obj *obj)
{
	return mlx5_sim_qp_create(file, in, NULL, NULL, out, obj);
}

uint32_t
mlx5_sim_qp_create(struct mlx5_sim_file *file, const void *in,
		   const struct mlx5_sim_umem_ref *kring,
		   const struct mlx5_sim_umem_ref *kdbr, void *out,
		   struct mlx5_sim_devx_obj *obj)
{
	struct mlx5_sim_vhca *vhca = file->vhca;
	struct mlx5_sim_cq *snd, *rcv;
	struct mlx5_sim_qp *qp;
	uint32_t synd;

	qp = calloc(1, sizeof(*qp));
	if (qp == NULL)
		return MLX5_SIM_SYND_QP_TABLE_FULL;
	synd = sim_qp_check(file, in, kring, kdbr, qp, &snd, &rcv);
	if (synd == MLX5_SIM_SYND_OK &&
	    mlx5_sim_idtab_alloc(&vhca->qps, qp, &qp->qpn) != 0)
		synd = MLX5_SIM_SYND_QP_TABLE_FULL;
	if (synd != MLX5_SIM_SYND_OK) {
		free(qp);
		return synd;
	}
	qp->qkind = MLX5_SIM_Q_QP;
	qp->file = file;
	qp->state = MLX5_QP_STATE_RST;
	qp->msg_max = 1; /* log_msg_max 0 until INIT2RTR sets it. */
	if (snd != NULL) {
		qp->cqn_snd = snd->cqn;
		snd->users++;
	}
	if (rcv != NULL) {
		qp->cqn_rcv = rcv->cqn;
		rcv->users++;
	}
	if (qp->rmp != NULL)
		qp->rmp->users++;
	if (qp->pd != NULL)
		qp->pd->users++;
	if (qp->no_sq)
		mlx5_sim_xrcd_of(file, qp->xrcdn)->users++;
	sim_umem_ref_take(&qp->ring);
	sim_umem_ref_take(&qp->dbr);
	vhca->live.qps++;
	MLX5_SET(create_qp_out, out, qpn, qp->qpn);
	obj->kind = MLX5_SIM_OBJ_QP;
	obj->index = qp->qpn;
	return MLX5_SIM_SYND_OK;
}

static void
sim_qp_free(struct mlx5_sim_vhca *vhca, struct mlx5_sim_qp *qp)
{
	struct mlx5_sim_cq *cq;

	mlx5_sim_rc_rnr_clear(vhca, qp);
	cq = mlx5_sim_idtab_get(&vhca->cqs, qp->cqn_snd);
	if (cq != NULL)
		cq->users--;
	cq = mlx5_sim_idtab_get(&vhca->cqs, qp->cqn_rcv);
	if (cq != NULL)
		cq->users--;
	if (qp->rmp != NULL)
		qp->rmp->users--;
	if (qp->pd != NULL)
		qp->pd->users--;
	if (qp->no_sq) {
		struct mlx5_sim_xrcd *xrcd =
			mlx5_sim_idtab_get(&vhca->xrcds, qp->xrcdn);

		if (xrcd != NULL)
			xrcd->users--;
	}
	sim_umem_ref_drop(&qp->ring);
	sim_umem_ref_drop(&qp->dbr);
	mlx5_sim_idtab_free(&vhca->qps, qp->qpn);
	vhca->live.qps--;
	free(qp);
}

uint32_t
mlx5_sim_cmd_destroy_qp(struct mlx5_sim_file *file, const void *in)
{
	struct mlx5_sim_qp *qp = sim_qp_of(file,
					   MLX5_GET(destroy_qp_in, in, qpn));

	if (qp == NULL)
		return MLX5_SIM_SYND_QP_UNKNOWN;
	sim_qp_free(file->vhca, qp);
	return MLX5_SIM_SYND_OK;
}

/* The destination MAC of the primary address path of @qpc. */
static void
sim_qp_rmac(const void *qpc, uint8_t mac[6])
{
	uint32_t hi = MLX5_GET(qpc, qpc, primary_address_path.rmac_47_32);
	uint32_t lo = MLX5_GET(qpc, qpc, primary_address_path.rmac_31_0);

	mac[0] = (uint8_t)(hi >> 8);
	mac[1] = (uint8_t)hi;
	mac[2] = (uint8_t)(lo >> 24);
	mac[3] = (uint8_t)(lo >> 16);
	mac[4] = (uint8_t)(lo >> 8);
	mac[5] = (uint8_t)lo;
}

/*
 * The optional parameter bits of a QP modify command for the remote
 * access enables (the kernel's MLX5_QP_OPTPAR_RRE, _RAE, _RWE), which
 * INIT2RTR, RTR2RTS and RTS2RTS take as ib_core lets access flags
 * change along the way.
 */
#define SIM_QP_OPTPAR_RRE RTE_BIT32(1)
#define SIM_QP_OPTPAR_RAE RTE_BIT32(2)
#define SIM_QP_OPTPAR_RWE RTE_BIT32(3)

/* The remote access enables of @qpc that @mask says are given. */
static void
sim_qp_access(struct mlx5_sim_qp *qp, const void *qpc, uint32_t mask)
{
	/* UD has no remote access; UC no reads nor atomics. */
	bool reliable = qp->st == MLX5_QP_ST_RC || qp->st == MLX5_QP_ST_XRC;

	if (mask & SIM_QP_OPTPAR_RRE)
		qp->rre = reliable && MLX5_GET(qpc, qpc, rre);
	if (mask & SIM_QP_OPTPAR_RWE)
		qp->rwe = qp->st != MLX5_QP_ST_UD && MLX5_GET(qpc, qpc, rwe);
	if (mask & SIM_QP_OPTPAR_RAE)
		qp->rae = reliable && MLX5_GET(qpc, qpc, rae);
}

/* A state transition's QP context (RST2INIT, INIT2RTR, RTR2RTS). */
static uint32_t
sim_qp_apply_ctx(struct mlx5_sim_qp *qp, uint16_t opcode, const void *qpc)
{
	uint8_t port = MLX5_GET(qpc, qpc, primary_address_path.vhca_port_num);
	uint8_t mtu;
	uint32_t remote;

	switch (opcode) {
	case MLX5_CMD_OP_RST2INIT_QP:
		/* One port per vHCA; 0 means the first. */
		if (port > 1)
			return MLX5_SIM_SYND_QP_PORT;
		if (MLX5_GET(qpc, qpc, lag_tx_port_affinity) >
		    mlx5_sim_lag_ports(qp->file->vhca))
			return MLX5_SIM_SYND_VERBS_LAG_PORT;
		qp->port = 1;
		qp->lag_port = MLX5_GET(qpc, qpc, lag_tx_port_affinity);
		qp->pkey_index = MLX5_GET(qpc, qpc,
					  primary_address_path.pkey_index);
		sim_qp_access(qp, qpc,
			      SIM_QP_OPTPAR_RRE | SIM_QP_OPTPAR_RWE |
				      SIM_QP_OPTPAR_RAE);
		qp->q_key = qp->st == MLX5_QP_ST_UD ?
			    MLX5_GET(qpc, qpc, q_key) : 0;
		return MLX5_SIM_SYND_OK;
	case MLX5_CMD_OP_INIT2RTR_QP:
		if (port > 1)
			return MLX5_SIM_SYND_QP_PORT;
		/* A datagram QP has no path nor peer; the MTU bounds it. */
		if (qp->st == MLX5_QP_ST_UD) {
			qp->msg_max = MLX5_SIM_DMA_MAX_LEN;
			return MLX5_SIM_SYND_OK;
		}
		mtu = MLX5_GET(qpc, qpc, mtu);
		if (mtu < MLX5_QP_MTU_256 || mtu > MLX5_QP_MTU_4096)
			return MLX5_SIM_SYND_QP_MTU;
		remote = MLX5_GET(qpc, qpc, remote_qpn);
		qp->fl = MLX5_GET(qpc, qpc, primary_address_path.fl);
		/* Force loopback reaches QPs of the same vHCA only. */
		if (qp->fl && mlx5_sim_qnum_get(&qp->file->vhca->qps, remote,
						MLX5_SIM_Q_QP) == NULL)
			return MLX5_SIM_SYND_QP_REMOTE;
		qp->mtu = mtu;
		qp->remote_qpn = remote;
		sim_qp_rmac(qpc, qp->rmac);
		memcpy(qp->rgid, MLX5_ADDR_OF(qpc, qpc,
			primary_address_path.rgid_rip), sizeof(qp->rgid));
		qp->sgid_index = MLX5_GET(qpc, qpc,
					  primary_address_path.src_addr_index);
		qp->hop_limit = MLX5_GET(qpc, qpc,
					 primary_address_path.hop_limit);
		qp->log_msg_max = MLX5_GET(qpc, qpc, log_msg_max);
		qp->msg_max = UINT64_C(1) << RTE_MIN(qp->log_msg_max, 31u);
		qp->rq_psn = MLX5_GET(qpc, qpc, next_rcv_psn);
		return MLX5_SIM_SYND_OK;
	default: /* RTR2RTS */
		qp->retry_count = MLX5_GET(qpc, qpc, retry_count);
		qp->rnr_retry = MLX5_GET(qpc, qpc, rnr_retry);
		qp->rnr_left = qp->rnr_retry;
		qp->sq_psn = MLX5_GET(qpc, qpc, next_send_psn);
		return MLX5_SIM_SYND_OK;
	}
}

/*
 * The optional parameters of RTS2RTS the model keeps: the lag port
 * (1..lag ports; ignored on a device without LAG, as rdma-core warns
 * firmware does) and the UDP source port. Nothing else changes.
 */
static uint32_t
sim_qp_rts2rts(struct mlx5_sim_qp *qp, const void *in)
{
	const void *qpc = MLX5_ADDR_OF(rts2rts_qp_in, in, qpc);
	uint32_t mask = MLX5_GET(rts2rts_qp_in, in, opt_param_mask);
	uint64_t mask_hi = MLX5_GET64(rts2rts_qp_in, in, opt_param_mask_95_32);
	uint8_t lag_ports = mlx5_sim_lag_ports(qp->file->vhca);
	uint8_t port = MLX5_GET(qpc, qpc, lag_tx_port_affinity);

	if ((mask & MLX5_QPC_OPT_MASK_RTS2RTS_LAG_TX_PORT_AFFINITY) &&
	    lag_ports != 0 && (port == 0 || port > lag_ports))
		return MLX5_SIM_SYND_VERBS_LAG_PORT;
	if ((mask & MLX5_QPC_OPT_MASK_RTS2RTS_LAG_TX_PORT_AFFINITY) &&
	    lag_ports != 0)
		qp->lag_port = port;
	if (mask_hi & MLX5_QPC_OPT_MASK_32_UDP_SPORT)
		qp->udp_sport = MLX5_GET(qpc, qpc,
					 primary_address_path.udp_sport);
	return MLX5_SIM_SYND_OK;
}

uint32_t
mlx5_sim_cmd_modify_qp(struct mlx5_sim_file *file, uint16_t opcode,
		       const void *in)
{
	struct mlx5_sim_qp *qp = sim_qp_of(file,
					   MLX5_GET(qp_2err_in, in, qpn));
	static const struct {
		uint16_t opcode;
		uint8_t from, to;
	} moves[] = {
		{ MLX5_CMD_OP_RST2INIT_QP, MLX5_QP_STATE_RST,
		  MLX5_QP_STATE_INIT },
		{ MLX5_CMD_OP_INIT2RTR_QP, MLX5_QP_STATE_INIT,
		  MLX5_QP_STATE_RTR },
		{ MLX5_CMD_OP_RTR2RTS_QP, MLX5_QP_STATE_RTR,
		  MLX5_QP_STATE_RTS },
		{ MLX5_CMD_OP_RTS2RTS_QP, MLX5_QP_STATE_RTS,
		  MLX5_QP_STATE_RTS },
	};
	uint32_t synd;
	unsigned int i;

	if (qp == NULL)
		return MLX5_SIM_SYND_QP_UNKNOWN;
	if (opcode == MLX5_CMD_OP_2ERR_QP) {
		qp->state = MLX5_QP_STATE_ERR;
		file->vhca->err_qps = true;
		/* Posted work is flushed as the device reaches it. */
		mlx5_sim_engine_qp(file->vhca, qp);
		return MLX5_SIM_SYND_OK;
	}
	if (opcode == MLX5_CMD_OP_2RST_QP) {
		/* The device forgets the queue's work and counters. */
		qp->state = MLX5_QP_STATE_RST;
		qp->sq_ci = 0;
		qp->rq_ci = 0;
		mlx5_sim_rc_rnr_clear(file->vhca, qp);
		return MLX5_SIM_SYND_OK;
	}
	for (i = 0; i < RTE_DIM(moves); i++) {
		if (moves[i].opcode != opcode)
			continue;
		if (qp->state != moves[i].from)
			return MLX5_SIM_SYND_QP_STATE;
		if (opcode != MLX5_CMD_OP_RTS2RTS_QP)
			synd = sim_qp_apply_ctx(qp, opcode,
				MLX5_ADDR_OF(rst2init_qp_in, in, qpc));
		else
			synd = sim_qp_rts2rts(qp, in);
		if (synd != MLX5_SIM_SYND_OK)
			return synd;
		/* Every modify command has its optional mask at one place. */
		if (opcode != MLX5_CMD_OP_RST2INIT_QP)
			sim_qp_access(qp, MLX5_ADDR_OF(rst2init_qp_in, in, qpc),
				      MLX5_GET(rst2init_qp_in, in,
					       opt_param_mask));
		qp->state = moves[i].to;
		/* Work posted before RTS starts now. */
		if (qp->state == MLX5_QP_STATE_RTS)
			mlx5_sim_engine_qp(file->vhca, qp);
		return MLX5_SIM_SYND_OK;
	}
	return MLX5_SIM_SYND_BAD_OPCODE;
}

uint32_t
mlx5_sim_cmd_query_qp(struct mlx5_sim_file *file, const void *in, void *out)
{
	struct mlx5_sim_qp *qp = sim_qp_of(file,
					   MLX5_GET(query_qp_in, in, qpn));
	void *qpc = MLX5_ADDR_OF(query_qp_out, out, qpc);
	uint32_t db[2] = { 0, 0 };
	unsigned int k;

	if (qp == NULL)
		return MLX5_SIM_SYND_QP_UNKNOWN;
	/* The doorbell records as the device reads them (0 if unmapped). */
	for (k = 0; k < RTE_DIM(db); k++)
		if (!mlx5_sim_dbr_read(qp->dbr.host, k, &db[k]))
			db[0] = db[1] = 0;
	MLX5_SET(qpc, qpc, state, qp->state);
	MLX5_SET(qpc, qpc, lag_tx_port_affinity, qp->lag_port);
	MLX5_SET(qpc, qpc, primary_address_path.udp_sport, qp->udp_sport);
	MLX5_SET(qpc, qpc, st, qp->st);
	MLX5_SET(qpc, qpc, pm_state, MLX5_QP_PM_MIGRATED);
	MLX5_SET(qpc, qpc, pd, qp->pdn);
	MLX5_SET(qpc, qpc, q_key, qp->q_key);
	MLX5_SET(qpc, qpc, next_send_psn, qp->sq_psn);
	MLX5_SET(qpc, qpc, next_rcv_psn, qp->rq_psn);
	MLX5_SET(qpc, qpc, primary_address_path.pkey_index, qp->pkey_index);
	MLX5_SET(qpc, qpc, mtu, qp->mtu);
	MLX5_SET(qpc, qpc, log_msg_max, qp->log_msg_max);
	MLX5_SET(qpc, qpc, log_rq_size, qp->log_rq_size);
	MLX5_SET(qpc, qpc, log_rq_stride, qp->log_rq_stride);
	MLX5_SET(qpc, qpc, log_sq_size, qp->log_sq_size);
	MLX5_SET(qpc, qpc, ts_format, qp->ts_format);
	MLX5_SET(qpc, qpc, uar_page, qp->uar_page);
	MLX5_SET(qpc, qpc, remote_qpn, qp->remote_qpn);
	MLX5_SET(qpc, qpc, primary_address_path.fl, qp->fl);
	MLX5_SET(qpc, qpc, primary_address_path.vhca_port_num, qp->port);
	memcpy(MLX5_ADDR_OF(qpc, qpc, primary_address_path.rgid_rip), qp->rgid,
	       sizeof(qp->rgid));
	MLX5_SET(qpc, qpc, primary_address_path.rmac_47_32,
		 (uint32_t)qp->rmac[0] << 8 | qp->rmac[1]);
	MLX5_SET(qpc, qpc, primary_address_path.rmac_31_0,
		 (uint32_t)qp->rmac[2] << 24 | (uint32_t)qp->rmac[3] << 16 |
		 (uint32_t)qp->rmac[4] << 8 | qp->rmac[5]);
	MLX5_SET(qpc, qpc, primary_address_path.src_addr_index,
		 qp->sgid_index);
	MLX5_SET(qpc, qpc, primary_address_path.hop_limit, qp->hop_limit);
	MLX5_SET(qpc, qpc, retry_count, qp->retry_count);
	MLX5_SET(qpc, qpc, rnr_retry, qp->rnr_retry);
	MLX5_SET(qpc, qpc, cqn_snd, qp->cqn_snd);
	MLX5_SET(qpc, qpc, cqn_rcv, qp->cqn_rcv);
	MLX5_SET(qpc, qpc, no_sq, qp->no_sq);
	MLX5_SET(qpc, qpc, xrcd, qp->xrcdn);
	MLX5_SET(qpc, qpc, rre, qp->rre);
	MLX5_SET(qpc, qpc, rwe, qp->rwe);
	MLX5_SET(qpc, qpc, rae, qp->rae);
	MLX5_SET(qpc, qpc, rq_type, qp->rmp != NULL ? MLX5_QP_RQ_TYPE_SRQ :
		 qp->no_rq ? MLX5_QP_RQ_TYPE_ZERO_SIZE :
		 MLX5_QP_RQ_TYPE_REGULAR);
	if (qp->rmp != NULL)
		MLX5_SET(qpc, qpc, srqn_rmpn_xrqn, qp->rmp->rmpn);
	MLX5_SET(qpc, qpc, hw_sq_wqebb_counter, qp->sq_ci);
	MLX5_SET(qpc, qpc, sw_sq_wqebb_counter,
		 db[1] & 0xffff);
	MLX5_SET(qpc, qpc, hw_rq_counter, qp->rq_ci);
	MLX5_SET(qpc, qpc, sw_rq_counter, db[0]);
	MLX5_SET(qpc, qpc, dbr_umem_id, qp->dbr.umem->dv.umem_id);
	MLX5_SET64(qpc, qpc, dbr_addr, qp->dbr.host - qp->dbr.umem->addr);
	return MLX5_SIM_SYND_OK;
}

void
mlx5_sim_queue_reclaim(struct mlx5_sim_vhca *vhca,
		       const struct mlx5_sim_devx_obj *obj)
{
	if (obj->kind == MLX5_SIM_OBJ_QP) {
		struct mlx5_sim_qp *qp = mlx5_sim_qnum_get(&vhca->qps,
							   obj->index,
							   MLX5_SIM_Q_QP);

		if (qp != NULL && qp->file == obj->file) {
			sim_qp_free(vhca, qp);
			vhca->reclaimed++;
		}
	} else if (obj->kind == MLX5_SIM_OBJ_CQ) {
		struct mlx5_sim_cq *cq = mlx5_sim_idtab_get(&vhca->cqs,
							    obj->index);

		if (cq != NULL && cq->file == obj->file) {
			sim_cq_free(vhca, cq);
			vhca->reclaimed++;
		}
	}
}

int
mlx5_sim_query_eqn(struct ibv_context *ctx, uint32_t vector, uint32_t *eqn)
{
	struct mlx5_sim_ctx *sctx = mlx5_sim_ctx_get(ctx);

	/* rdma-core: the vector must be one of the context's. */
	if (sctx == NULL || eqn == NULL ||
	    vector >= MLX5_SIM_NUM_COMP_VECTORS)
		return EINVAL;
	*eqn = MLX5_SIM_EQN_BASE + vector;
	return 0;
}
