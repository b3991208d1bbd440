/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * Ethernet queue objects: transport domains, TISes, SQs, RQs, RQ tables
 * and TIRs, with the
 * SQ/RQ state machine (RST -> RDY -> ERR -> RST; RDY -> RST; RDY -> RDY to
 * change the SQ's pacing entry). SQs and RQs take their numbers from the
 * QP number space. The engine does not run SQs and RQs yet.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>

#include "mlx5_sim_wire.h"


/* Work queues: at most 2^15 entries; SQ strides of 64 bytes. */
#define SIM_LOG_MAX_WQ_SZ 15
/* RQTs: up to 2^8 entries (rss_ind_tbl_cap). */
#define SIM_LOG_MAX_RQT 8
/* RQ strides: 16 bytes (one data segment) to 2 KiB. */
#define SIM_RQ_LOG_STRIDE_MIN 4
#define SIM_RQ_LOG_STRIDE_MAX 11

static uint32_t
sim_td_alloc(struct mlx5_sim_file *file, void *out,
	     struct mlx5_sim_devx_obj *obj)
{
	struct mlx5_sim_vhca *vhca = file->vhca;
	struct mlx5_sim_td *td = calloc(1, sizeof(*td));

	if (td == NULL || mlx5_sim_idtab_alloc(&vhca->tds, td, &td->tdn)) {
		free(td);
		return MLX5_SIM_SYND_ETH_TABLE_FULL;
	}
	td->file = file;
	vhca->live.tds++;
	MLX5_SET(alloc_transport_domain_out, out, transport_domain, td->tdn);
	obj->kind = MLX5_SIM_OBJ_TD;
	obj->index = td->tdn;
	return MLX5_SIM_SYND_OK;
}

static struct mlx5_sim_td *
sim_td_of(struct mlx5_sim_file *file, uint32_t tdn)
{
	struct mlx5_sim_td *td = mlx5_sim_idtab_get(&file->vhca->tds, tdn);

	return td != NULL && td->file == file ? td : NULL;
}

static struct mlx5_sim_tis *
sim_tis_of(struct mlx5_sim_file *file, uint32_t tisn)
{
	struct mlx5_sim_tis *tis = mlx5_sim_idtab_get(&file->vhca->tiss, tisn);

	return tis != NULL && tis->file == file ? tis : NULL;
}

static uint32_t
sim_tis_create(struct mlx5_sim_file *file, const void *in, void *out,
	       struct mlx5_sim_devx_obj *obj)
{
	struct mlx5_sim_vhca *vhca = file->vhca;
	const void *tisc = MLX5_ADDR_OF(create_tis_in, in, ctx);
	struct mlx5_sim_file *owner = NULL;
	struct mlx5_sim_tis *tis;
	uint32_t pdn = MLX5_GET(tisc, tisc, pd);

	if (sim_td_of(file, MLX5_GET(tisc, tisc, transport_domain)) == NULL)
		return MLX5_SIM_SYND_ETH_TD;
	/* Affinity 0 (any: port 1) or a port of the vHCA. */
	if (MLX5_GET(tisc, tisc, lag_tx_port_affinity) > vhca->caps.nports)
		return MLX5_SIM_SYND_ETH_PORT;
	if (MLX5_GET(tisc, tisc, tls_en))
		return MLX5_SIM_SYND_ETH_TIR_FEATURE;
	if (pdn != 0 && (mlx5_sim_pd_find(vhca, pdn, &owner) == NULL ||
			 owner != file))
		return MLX5_SIM_SYND_ETH_PD;
	tis = calloc(1, sizeof(*tis));
	if (tis == NULL || mlx5_sim_idtab_alloc(&vhca->tiss, tis, &tis->tisn)) {
		free(tis);
		return MLX5_SIM_SYND_ETH_TABLE_FULL;
	}
	tis->file = file;
	tis->tdn = MLX5_GET(tisc, tisc, transport_domain);
	tis->pd = pdn != 0 ? mlx5_sim_pd_find(vhca, pdn, NULL) : NULL;
	if (tis->pd != NULL)
		tis->pd->users++;
	sim_td_of(file, tis->tdn)->users++;
	tis->prio = MLX5_GET(tisc, tisc, prio);
	tis->lag_tx_port_affinity = MLX5_GET(tisc, tisc, lag_tx_port_affinity);
	vhca->live.tiss++;
	MLX5_SET(create_tis_out, out, tisn, tis->tisn);
	obj->kind = MLX5_SIM_OBJ_TIS;
	obj->index = tis->tisn;
	return MLX5_SIM_SYND_OK;
}

/* The work queue context of CREATE_SQ/RQ; @sq for the SQ's rules. */
static uint32_t
sim_wq_check(struct mlx5_sim_file *file, const void *wq, bool sq,
	     struct mlx5_sim_wq *w)
{
	struct mlx5_sim_file *owner = NULL;
	uint64_t dbr_addr = MLX5_GET64(wq, wq, dbr_addr);
	uint32_t synd;

	w->wq_type = MLX5_GET(wq, wq, wq_type);
	w->log_wq_stride = MLX5_GET(wq, wq, log_wq_stride);
	w->log_wq_sz = MLX5_GET(wq, wq, log_wq_sz);
	/* The engine runs cyclic work queues (what Ethernet queues use). */
	if (w->wq_type != MLX5_WQ_TYPE_CYCLIC)
		return MLX5_SIM_SYND_ETH_WQ_TYPE;
	if (sq ? w->log_wq_stride != MLX5_SQ_LOG_WQ_STRIDE :
	    w->log_wq_stride < SIM_RQ_LOG_STRIDE_MIN ||
	    w->log_wq_stride > SIM_RQ_LOG_STRIDE_MAX)
		return MLX5_SIM_SYND_ETH_WQ_STRIDE;
	if (w->log_wq_sz > SIM_LOG_MAX_WQ_SZ)
		return MLX5_SIM_SYND_ETH_WQ_SIZE;
	w->pdn = MLX5_GET(wq, wq, pd);
	w->pd = mlx5_sim_pd_find(file->vhca, w->pdn, &owner);
	if (w->pd == NULL || owner != file)
		return MLX5_SIM_SYND_ETH_PD;
	w->uar_page = MLX5_GET(wq, wq, uar_page);
	if (sq && !mlx5_sim_uar_page_of(file, w->uar_page))
		return MLX5_SIM_SYND_Q_UAR;
	if (dbr_addr % 8 != 0)
		return MLX5_SIM_SYND_Q_DBR_ALIGN;
	/* Memory the kernel pinned for a verbs WQ: resolved already. */
	if (w->ring.umem != NULL)
		return MLX5_SIM_SYND_OK;
	synd = mlx5_sim_umem_ref(file, MLX5_GET(wq, wq, wq_umem_id),
				 MLX5_GET64(wq, wq, wq_umem_offset),
				 (uint64_t)1 << (w->log_wq_sz +
						 w->log_wq_stride), false,
				 &w->ring);
	if (synd == MLX5_SIM_SYND_OK)
		synd = mlx5_sim_umem_ref(file, MLX5_GET(wq, wq, dbr_umem_id),
					 dbr_addr, 8, false, &w->dbr);
	return synd;
}

/* Is @index a pacing entry of the vHCA in use (0: no limit)? */
static bool
sim_rate_index_valid(const struct mlx5_sim_vhca *vhca, uint16_t index)
{
	if (index == 0)
		return true;
	return vhca->caps.pacing && index < vhca->caps.pp_table_size &&
	       vhca->pp != NULL && vhca->pp[index - 1].refcount != 0;
}

static void
sim_wq_take(struct mlx5_sim_vhca *vhca, struct mlx5_sim_wq *w)
{
	struct mlx5_sim_cq *cq = mlx5_sim_idtab_get(&vhca->cqs, w->cqn);

	if (cq != NULL)
		cq->users++;
	w->pd->users++;
	w->ring.umem->users++;
	w->dbr.umem->users++;
}

static void
sim_wq_drop(struct mlx5_sim_vhca *vhca, struct mlx5_sim_wq *w)
{
	struct mlx5_sim_cq *cq = mlx5_sim_idtab_get(&vhca->cqs, w->cqn);

	if (cq != NULL)
		cq->users--;
	w->pd->users--;
	w->ring.umem->users--;
	w->dbr.umem->users--;
}

uint32_t
mlx5_sim_sq_create(struct mlx5_sim_file *file, const void *in,
		   const struct mlx5_sim_umem_ref *kring,
		   const struct mlx5_sim_umem_ref *kdbr, void *out,
		   struct mlx5_sim_devx_obj *obj)
{
	struct mlx5_sim_vhca *vhca = file->vhca;
	const void *sqc = MLX5_ADDR_OF(create_sq_in, in, ctx);
	struct mlx5_sim_sq *sq;
	uint32_t synd;

	if (MLX5_GET(sqc, sqc, state) != MLX5_WQ_STATE_RST)
		return MLX5_SIM_SYND_ETH_STATE;
	if (MLX5_GET(sqc, sqc, allow_multi_pkt_send_wqe) && !vhca->caps.empw)
		return MLX5_SIM_SYND_ETH_MPW;
	if (mlx5_sim_cq_of(file, MLX5_GET(sqc, sqc, cqn)) == NULL)
		return MLX5_SIM_SYND_ETH_CQ;
	if (MLX5_GET(sqc, sqc, tis_lst_sz) != 1 ||
	    sim_tis_of(file, MLX5_GET(sqc, sqc, tis_num_0)) == NULL)
		return MLX5_SIM_SYND_ETH_TIS;
	if (MLX5_GET(sqc, sqc, ts_format) == 3)
		return MLX5_SIM_SYND_QP_TS_FORMAT;
	/* Not modelled: hairpin, software parsing. */
	if (MLX5_GET(sqc, sqc, hairpin) || MLX5_GET(sqc, sqc, allow_swp))
		return MLX5_SIM_SYND_ETH_TIR_FEATURE;
	if (!sim_rate_index_valid(vhca, MLX5_GET(sqc, sqc,
				  packet_pacing_rate_limit_index)))
		return MLX5_SIM_SYND_ETH_RATE_INDEX;
	sq = calloc(1, sizeof(*sq));
	if (sq == NULL)
		return MLX5_SIM_SYND_QP_TABLE_FULL;
	sq->qkind = MLX5_SIM_Q_SQ;
	if (kring != NULL) {
		sq->wq.ring = *kring;
		sq->wq.dbr = *kdbr;
	}
	synd = sim_wq_check(file, MLX5_ADDR_OF(sqc, sqc, wq), true, &sq->wq);
	if (synd == MLX5_SIM_SYND_OK &&
	    mlx5_sim_idtab_alloc(&vhca->qps, sq, &sq->sqn) != 0)
		synd = MLX5_SIM_SYND_QP_TABLE_FULL;
	if (synd != MLX5_SIM_SYND_OK) {
		free(sq);
		return synd;
	}
	sq->wq.file = file;
	sq->wq.cqn = MLX5_GET(sqc, sqc, cqn);
	sq->wq.user_index = MLX5_GET(sqc, sqc, user_index);
	sq->wq.state = MLX5_WQ_STATE_RST;
	sq->wq.flush_in_error_en = MLX5_GET(sqc, sqc, flush_in_error_en);
	sq->tisn = MLX5_GET(sqc, sqc, tis_num_0);
	sq->rate_index = MLX5_GET(sqc, sqc, packet_pacing_rate_limit_index);
	sq->min_wqe_inline_mode = MLX5_GET(sqc, sqc, min_wqe_inline_mode);
	sq->allow_mpw = MLX5_GET(sqc, sqc, allow_multi_pkt_send_wqe);
	sq->wq.ts_format = MLX5_GET(sqc, sqc, ts_format);
	sim_wq_take(vhca, &sq->wq);
	sim_tis_of(file, sq->tisn)->users++;
	vhca->live.sqs++;
	MLX5_SET(create_sq_out, out, sqn, sq->sqn);
	obj->kind = MLX5_SIM_OBJ_SQ;
	obj->index = sq->sqn;
	return MLX5_SIM_SYND_OK;
}

uint32_t
mlx5_sim_rq_create(struct mlx5_sim_file *file, const void *in,
		   const struct mlx5_sim_umem_ref *kring,
		   const struct mlx5_sim_umem_ref *kdbr, void *out,
		   struct mlx5_sim_devx_obj *obj)
{
	struct mlx5_sim_vhca *vhca = file->vhca;
	const void *rqc = MLX5_ADDR_OF(create_rq_in, in, ctx);
	struct mlx5_sim_rq *rq;
	uint32_t synd;

	if (MLX5_GET(rqc, rqc, state) != MLX5_WQ_STATE_RST)
		return MLX5_SIM_SYND_ETH_STATE;
	if (mlx5_sim_cq_of(file, MLX5_GET(rqc, rqc, cqn)) == NULL)
		return MLX5_SIM_SYND_ETH_CQ;
	/* A queue counter set of this context, or 0 (mlx5_sim_qcnt.c). */
	synd = mlx5_sim_qcnt_check(file, MLX5_GET(rqc, rqc, counter_set_id));
	if (synd != MLX5_SIM_SYND_OK)
		return synd;
	if (MLX5_GET(rqc, rqc, mem_rq_type) != 0)
		return MLX5_SIM_SYND_ETH_WQ_TYPE;
	/* vlan_cap 0: no VLAN stripping (vsd must be set); no hairpin. */
	if (!MLX5_GET(rqc, rqc, vsd) || MLX5_GET(rqc, rqc, hairpin))
		return MLX5_SIM_SYND_ETH_TIR_FEATURE;
	rq = calloc(1, sizeof(*rq));
	if (rq == NULL)
		return MLX5_SIM_SYND_QP_TABLE_FULL;
	rq->qkind = MLX5_SIM_Q_RQ;
	if (kring != NULL) {
		rq->wq.ring = *kring;
		rq->wq.dbr = *kdbr;
	}
	synd = sim_wq_check(file, MLX5_ADDR_OF(rqc, rqc, wq), false, &rq->wq);
	if (synd == MLX5_SIM_SYND_OK &&
	    mlx5_sim_idtab_alloc(&vhca->qps, rq, &rq->rqn) != 0)
		synd = MLX5_SIM_SYND_QP_TABLE_FULL;
	if (synd != MLX5_SIM_SYND_OK) {
		free(rq);
		return synd;
	}
	rq->wq.file = file;
	rq->wq.cqn = MLX5_GET(rqc, rqc, cqn);
	rq->wq.user_index = MLX5_GET(rqc, rqc, user_index);
	rq->wq.state = MLX5_WQ_STATE_RST;
	rq->wq.flush_in_error_en = MLX5_GET(rqc, rqc, flush_in_error_en);
	rq->vsd = MLX5_GET(rqc, rqc, vsd);
	rq->scatter_fcs = MLX5_GET(rqc, rqc, scatter_fcs);
	rq->wq.ts_format = MLX5_GET(rqc, rqc, ts_format);
	rq->counter_set_id = MLX5_GET(rqc, rqc, counter_set_id);
	mlx5_sim_qcnt_hold(vhca, rq->counter_set_id, 1);
	sim_wq_take(vhca, &rq->wq);
	vhca->live.rqs++;
	MLX5_SET(create_rq_out, out, rqn, rq->rqn);
	obj->kind = MLX5_SIM_OBJ_RQ;
	obj->index = rq->rqn;
	return MLX5_SIM_SYND_OK;
}

/*
 * A move of an SQ or RQ from @cur (as the command states it) to @next:
 * RST -> RDY, RDY -> RDY, RDY -> ERR, RDY -> RST, ERR -> RST.
 */
static uint32_t
sim_wq_move(struct mlx5_sim_wq *w, uint8_t cur, uint8_t next)
{
	if (cur != w->state)
		return MLX5_SIM_SYND_ETH_CUR_STATE;
	switch (cur) {
	case MLX5_WQ_STATE_RST:
		if (next != MLX5_WQ_STATE_RDY)
			return MLX5_SIM_SYND_ETH_STATE;
		break;
	case MLX5_WQ_STATE_RDY:
		if (next != MLX5_WQ_STATE_RDY && next != MLX5_WQ_STATE_ERR &&
		    next != MLX5_WQ_STATE_RST)
			return MLX5_SIM_SYND_ETH_STATE;
		break;
	default: /* ERR */
		if (next != MLX5_WQ_STATE_RST)
			return MLX5_SIM_SYND_ETH_STATE;
		break;
	}
	w->state = next;
	if (next == MLX5_WQ_STATE_RST)
		w->hw_counter = 0;
	return MLX5_SIM_SYND_OK;
}

static uint32_t
sim_sq_modify(struct mlx5_sim_file *file, const void *in)
{
	struct mlx5_sim_sq *sq = mlx5_sim_qnum_get(&file->vhca->qps,
		MLX5_GET(modify_sq_in, in, sqn), MLX5_SIM_Q_SQ);
	const void *sqc = MLX5_ADDR_OF(modify_sq_in, in, ctx);
	uint64_t mask = MLX5_GET64(modify_sq_in, in, modify_bitmask);
	uint16_t index = MLX5_GET(sqc, sqc, packet_pacing_rate_limit_index);
	uint8_t next = MLX5_GET(sqc, sqc, state);
	uint32_t synd;

	if (sq == NULL || sq->wq.file != file)
		return MLX5_SIM_SYND_ETH_UNKNOWN;
	if (mask & ~(uint64_t)MLX5_MODIFY_SQ_BITMASK_PACKET_PACING_RATE_LIMIT_INDEX)
		return MLX5_SIM_SYND_ETH_BITMASK;
	/* A new pacing entry takes effect on a ready SQ. */
	if ((mask & MLX5_MODIFY_SQ_BITMASK_PACKET_PACING_RATE_LIMIT_INDEX) &&
	    (next != MLX5_WQ_STATE_RDY ||
	     !sim_rate_index_valid(file->vhca, index)))
		return MLX5_SIM_SYND_ETH_RATE_INDEX;
	synd = sim_wq_move(&sq->wq, MLX5_GET(modify_sq_in, in, sq_state), next);
	if (synd == MLX5_SIM_SYND_OK &&
	    (mask & MLX5_MODIFY_SQ_BITMASK_PACKET_PACING_RATE_LIMIT_INDEX))
		sq->rate_index = index;
	return synd;
}

static uint32_t
sim_rq_modify(struct mlx5_sim_file *file, const void *in)
{
	struct mlx5_sim_rq *rq = mlx5_sim_qnum_get(&file->vhca->qps,
		MLX5_GET(modify_rq_in, in, rqn), MLX5_SIM_Q_RQ);
	const void *rqc = MLX5_ADDR_OF(modify_rq_in, in, ctx);
	uint64_t mask = MLX5_GET64(modify_rq_in, in, modify_bitmask);
	uint8_t cnt = MLX5_GET(rqc, rqc, counter_set_id);
	uint32_t synd;

	if (rq == NULL || rq->wq.file != file)
		return MLX5_SIM_SYND_ETH_UNKNOWN;
	/* A new queue counter (modify_rq_counter_set_id), with any move. */
	if (mask & ~(uint64_t)MLX5_MODIFY_RQ_IN_MODIFY_BITMASK_RQ_COUNTER_SET_ID)
		return MLX5_SIM_SYND_ETH_BITMASK;
	if (mask != 0) {
		synd = mlx5_sim_qcnt_check(file, cnt);
		if (synd != MLX5_SIM_SYND_OK)
			return synd;
	}
	synd = sim_wq_move(&rq->wq, MLX5_GET(modify_rq_in, in, rq_state),
			   MLX5_GET(rqc, rqc, state));
	/* Moved to ERR: its posted WQEs flushed, if it asked so (PRM). */
	if (synd == MLX5_SIM_SYND_OK &&
	    MLX5_GET(rqc, rqc, state) == MLX5_WQ_STATE_ERR)
		mlx5_sim_rq_error(file->vhca, rq);
	if (synd == MLX5_SIM_SYND_OK && mask != 0) {
		mlx5_sim_qcnt_hold(file->vhca, rq->counter_set_id, -1);
		rq->counter_set_id = cnt;
		mlx5_sim_qcnt_hold(file->vhca, cnt, 1);
	}
	return synd;
}

/* The wq part of QUERY_SQ/RQ; @sq: its counter is the send word. */
static void
sim_wq_query(const struct mlx5_sim_wq *w, bool sq, void *wq)
{
	uint32_t db = 0;

	MLX5_SET(wq, wq, wq_type, w->wq_type);
	MLX5_SET(wq, wq, pd, w->pdn);
	MLX5_SET(wq, wq, uar_page, w->uar_page);
	MLX5_SET(wq, wq, log_wq_stride, w->log_wq_stride);
	MLX5_SET(wq, wq, log_wq_sz, w->log_wq_sz);
	MLX5_SET(wq, wq, hw_counter, w->hw_counter);
	if (mlx5_sim_dbr_read(w->dbr.host, sq ? 1 : 0, &db))
		MLX5_SET(wq, wq, sw_counter, db);
	MLX5_SET(wq, wq, dbr_umem_id, w->dbr.umem->dv.umem_id);
	MLX5_SET64(wq, wq, dbr_addr, w->dbr.host - w->dbr.umem->addr);
	MLX5_SET(wq, wq, wq_umem_id, w->ring.umem->dv.umem_id);
	MLX5_SET64(wq, wq, wq_umem_offset, w->ring.host - w->ring.umem->addr);
}

static uint32_t
sim_tis_query(struct mlx5_sim_file *file, const void *in, void *out)
{
	const struct mlx5_sim_tis *tis =
		sim_tis_of(file, MLX5_GET(query_tis_in, in, tisn));
	void *tisc = MLX5_ADDR_OF(query_tis_out, out, tis_context);

	if (tis == NULL)
		return MLX5_SIM_SYND_ETH_UNKNOWN;
	MLX5_SET(tisc, tisc, transport_domain, tis->tdn);
	MLX5_SET(tisc, tisc, prio, tis->prio);
	MLX5_SET(tisc, tisc, lag_tx_port_affinity, tis->lag_tx_port_affinity);
	MLX5_SET(tisc, tisc, pd, tis->pd != NULL ? tis->pd->pdn : 0);
	return MLX5_SIM_SYND_OK;
}

static uint32_t
sim_sq_query(struct mlx5_sim_file *file, const void *in, void *out)
{
	struct mlx5_sim_sq *sq = mlx5_sim_qnum_get(&file->vhca->qps,
		MLX5_GET(query_sq_in, in, sqn), MLX5_SIM_Q_SQ);
	void *sqc = MLX5_ADDR_OF(query_sq_out, out, sq_context);

	if (sq == NULL || sq->wq.file != file)
		return MLX5_SIM_SYND_ETH_UNKNOWN;
	MLX5_SET(sqc, sqc, state, sq->wq.state);
	MLX5_SET(sqc, sqc, flush_in_error_en, sq->wq.flush_in_error_en);
	MLX5_SET(sqc, sqc, min_wqe_inline_mode, sq->min_wqe_inline_mode);
	MLX5_SET(sqc, sqc, allow_multi_pkt_send_wqe, sq->allow_mpw);
	MLX5_SET(sqc, sqc, user_index, sq->wq.user_index);
	MLX5_SET(sqc, sqc, cqn, sq->wq.cqn);
	MLX5_SET(sqc, sqc, packet_pacing_rate_limit_index, sq->rate_index);
	MLX5_SET(sqc, sqc, tis_lst_sz, 1);
	MLX5_SET(sqc, sqc, tis_num_0, sq->tisn);
	sim_wq_query(&sq->wq, true, MLX5_ADDR_OF(sqc, sqc, wq));
	return MLX5_SIM_SYND_OK;
}

static uint32_t
sim_rq_query(struct mlx5_sim_file *file, const void *in, void *out)
{
	struct mlx5_sim_rq *rq = mlx5_sim_qnum_get(&file->vhca->qps,
		MLX5_GET(query_rq_in, in, rqn), MLX5_SIM_Q_RQ);
	void *rqc = MLX5_ADDR_OF(query_rq_out, out, rq_context);

	if (rq == NULL || rq->wq.file != file)
		return MLX5_SIM_SYND_ETH_UNKNOWN;
	MLX5_SET(rqc, rqc, state, rq->wq.state);
	MLX5_SET(rqc, rqc, vsd, rq->vsd);
	MLX5_SET(rqc, rqc, scatter_fcs, rq->scatter_fcs);
	MLX5_SET(rqc, rqc, flush_in_error_en, rq->wq.flush_in_error_en);
	MLX5_SET(rqc, rqc, user_index, rq->wq.user_index);
	MLX5_SET(rqc, rqc, cqn, rq->wq.cqn);
	MLX5_SET(rqc, rqc, counter_set_id, rq->counter_set_id);
	sim_wq_query(&rq->wq, false, MLX5_ADDR_OF(rqc, rqc, wq));
	return MLX5_SIM_SYND_OK;
}

/* The RQ @rqn of @file? */
static bool
sim_rq_of(struct mlx5_sim_file *file, uint32_t rqn)
{
	struct mlx5_sim_rq *rq = mlx5_sim_qnum_get(&file->vhca->qps, rqn,
						   MLX5_SIM_Q_RQ);

	return rq != NULL && rq->wq.file == file;
}

/* Count (+1) or uncount (-1) the RQs of a list as users. */
static void
sim_rqt_hold(struct mlx5_sim_vhca *vhca, const uint32_t *rqns, uint16_t n,
	     int d)
{
	for (uint16_t i = 0; i < n; i++) {
		struct mlx5_sim_rq *rq = mlx5_sim_qnum_get(&vhca->qps, rqns[i],
							   MLX5_SIM_Q_RQ);

		if (rq != NULL)
			rq->users += d;
	}
}

/*
 * The RQ list of a CREATE_RQT/MODIFY_RQT context at @rqtc, @inlen bytes
 * from @in: entries 1..@max, each an RQ of the context.
 */
static uint32_t
sim_rqt_list(struct mlx5_sim_file *file, const void *in, size_t inlen,
	     const void *rqtc, uint16_t max, uint32_t *list, uint16_t *n)
{
	const uint8_t *entries = (const uint8_t *)rqtc + MLX5_ST_SZ_BYTES(rqtc);
	size_t need;

	*n = MLX5_GET(rqtc, rqtc, rqt_actual_size);
	/* RQs of this vHCA only: no list in the vHCA-id format. */
	if (MLX5_GET(rqtc, rqtc, list_q_type) != 0 ||
	    MLX5_GET(rqtc, rqtc, rq_vhca_id_format) || *n == 0 || *n > max)
		return MLX5_SIM_SYND_ETH_RQT_SIZE;
	need = (size_t)(entries - (const uint8_t *)in) +
	       (size_t)*n * MLX5_ST_SZ_BYTES(rq_num);
	if (inlen < need)
		return MLX5_SIM_SYND_IN_LEN;
	for (uint16_t i = 0; i < *n; i++) {
		list[i] = MLX5_GET(rq_num, entries + i * MLX5_ST_SZ_BYTES(rq_num),
				   rq_num);
		if (!sim_rq_of(file, list[i]))
			return MLX5_SIM_SYND_ETH_RQT_RQ;
	}
	return MLX5_SIM_SYND_OK;
}

static uint32_t
sim_rqt_create(struct mlx5_sim_file *file, const void *in, size_t inlen,
	       void *out, struct mlx5_sim_devx_obj *obj)
{
	struct mlx5_sim_vhca *vhca = file->vhca;
	const void *rqtc = MLX5_ADDR_OF(create_rqt_in, in, rqt_context);
	uint16_t max = MLX5_GET(rqtc, rqtc, rqt_max_size);
	struct mlx5_sim_rqt *rqt;
	uint32_t synd;

	if (max == 0 || max > (1u << SIM_LOG_MAX_RQT))
		return MLX5_SIM_SYND_ETH_RQT_SIZE;
	rqt = calloc(1, sizeof(*rqt));
	if (rqt == NULL)
		return MLX5_SIM_SYND_ETH_TABLE_FULL;
	rqt->rqns = calloc(max, sizeof(*rqt->rqns));
	synd = rqt->rqns == NULL ? MLX5_SIM_SYND_ETH_TABLE_FULL :
	       sim_rqt_list(file, in, inlen, rqtc, max, rqt->rqns, &rqt->n);
	if (synd == MLX5_SIM_SYND_OK &&
	    mlx5_sim_idtab_alloc(&vhca->rqts, rqt, &rqt->rqtn) != 0)
		synd = MLX5_SIM_SYND_ETH_TABLE_FULL;
	if (synd != MLX5_SIM_SYND_OK) {
		free(rqt->rqns);
		free(rqt);
		return synd;
	}
	rqt->file = file;
	rqt->max = max;
	sim_rqt_hold(vhca, rqt->rqns, rqt->n, 1);
	vhca->live.rqts++;
	MLX5_SET(create_rqt_out, out, rqtn, rqt->rqtn);
	obj->kind = MLX5_SIM_OBJ_RQT;
	obj->index = rqt->rqtn;
	return MLX5_SIM_SYND_OK;
}

static struct mlx5_sim_rqt *
sim_rqt_of(struct mlx5_sim_file *file, uint32_t rqtn)
{
	struct mlx5_sim_rqt *rqt = mlx5_sim_idtab_get(&file->vhca->rqts, rqtn);

	return rqt != NULL && rqt->file == file ? rqt : NULL;
}

static uint32_t
sim_rqt_modify(struct mlx5_sim_file *file, const void *in, size_t inlen)
{
	struct mlx5_sim_rqt *rqt = sim_rqt_of(file,
		MLX5_GET(modify_rqt_in, in, rqtn));
	uint32_t list[1u << SIM_LOG_MAX_RQT];
	uint16_t n;
	uint32_t synd;

	if (rqt == NULL)
		return MLX5_SIM_SYND_ETH_UNKNOWN;
	/* Created with at most 2^SIM_LOG_MAX_RQT entries: the list fits. */
	MLX5_SIM_VERIFY(rqt->max <= RTE_DIM(list));
	if (MLX5_GET64(modify_rqt_in, in, bitmask) !=
	    MLX5_MODIFY_RQT_BITMASK_RQN_LIST)
		return MLX5_SIM_SYND_ETH_BITMASK;
	synd = sim_rqt_list(file, in, inlen,
			    MLX5_ADDR_OF(modify_rqt_in, in, ctx), rqt->max,
			    list, &n);
	if (synd != MLX5_SIM_SYND_OK)
		return synd;
	sim_rqt_hold(file->vhca, rqt->rqns, rqt->n, -1);
	memcpy(rqt->rqns, list, n * sizeof(*list));
	rqt->n = n;
	sim_rqt_hold(file->vhca, rqt->rqns, rqt->n, 1);
	return MLX5_SIM_SYND_OK;
}

/* QUERY_RQT: the sizes and the RQ list, which @outlen must hold. */
uint32_t
mlx5_sim_rqt_query(struct mlx5_sim_file *file, const void *in, void *out,
		   size_t outlen)
{
	struct mlx5_sim_rqt *rqt = sim_rqt_of(file,
		MLX5_GET(query_rqt_in, in, rqtn));
	void *rqtc = MLX5_ADDR_OF(query_rqt_out, out, rqt_context);
	uint8_t *entries = (uint8_t *)rqtc + MLX5_ST_SZ_BYTES(rqtc);

	if (rqt == NULL)
		return MLX5_SIM_SYND_ETH_UNKNOWN;
	if (outlen < (size_t)(entries - (uint8_t *)out) +
		     (size_t)rqt->n * MLX5_ST_SZ_BYTES(rq_num))
		return MLX5_SIM_SYND_OUT_LEN;
	MLX5_SET(rqtc, rqtc, rqt_max_size, rqt->max);
	MLX5_SET(rqtc, rqtc, rqt_actual_size, rqt->n);
	for (uint16_t i = 0; i < rqt->n; i++)
		MLX5_SET(rq_num, entries + i * MLX5_ST_SZ_BYTES(rq_num),
			 rq_num, rqt->rqns[i]);
	return MLX5_SIM_SYND_OK;
}

static uint32_t
sim_tir_create(struct mlx5_sim_file *file, const void *in, void *out,
	       struct mlx5_sim_devx_obj *obj)
{
	struct mlx5_sim_vhca *vhca = file->vhca;
	const void *tirc = MLX5_ADDR_OF(create_tir_in, in, ctx);
	const void *sel = MLX5_ADDR_OF(tirc, tirc,
				       rx_hash_field_selector_outer);
	struct mlx5_sim_tir *tir;
	uint8_t disp = MLX5_GET(tirc, tirc, disp_type);
	uint8_t fn = MLX5_GET(tirc, tirc, rx_hash_fn);
	uint32_t fields = MLX5_GET(rx_hash_field_select, sel, selected_fields);

	/*
	 * A transport domain of the file's, or none (0): rdma-core's own
	 * tests make a DEVX TIR without one (test_mlx5_dr) and pass on
	 * ConnectX devices.
	 */
	if (MLX5_GET(tirc, tirc, transport_domain) != 0 &&
	    sim_td_of(file, MLX5_GET(tirc, tirc, transport_domain)) == NULL)
		return MLX5_SIM_SYND_ETH_TD;
	/* Not modelled: TLS, tunnel offloads, LRO (packet merge). */
	if (MLX5_GET(tirc, tirc, tls_en) ||
	    MLX5_GET(tirc, tirc, tunneled_offload_en) ||
	    MLX5_GET(tirc, tirc, packet_merge_mask))
		return MLX5_SIM_SYND_ETH_TIR_FEATURE;
	if (disp == MLX5_TIRC_DISP_TYPE_DIRECT) {
		if (!sim_rq_of(file, MLX5_GET(tirc, tirc, inline_rqn)))
			return MLX5_SIM_SYND_ETH_TIR_DEST;
	} else if (disp == MLX5_TIRC_DISP_TYPE_INDIRECT) {
		if (sim_rqt_of(file, MLX5_GET(tirc, tirc,
					      indirect_table)) == NULL)
			return MLX5_SIM_SYND_ETH_TIR_DEST;
		/* Toeplitz (or none) over IPs and ports; no SPI, no XOR8. */
		if ((fn != MLX5_RX_HASH_FN_NONE &&
		     fn != MLX5_RX_HASH_FN_TOEPLITZ) ||
		    (fields & ~(uint32_t)(MLX5_HASH_FIELD_SEL_SRC_IP |
					  MLX5_HASH_FIELD_SEL_DST_IP |
					  MLX5_HASH_FIELD_SEL_L4_SPORT |
					  MLX5_HASH_FIELD_SEL_L4_DPORT)))
			return MLX5_SIM_SYND_ETH_TIR_HASH;
	} else {
		return MLX5_SIM_SYND_ETH_TIR_DEST;
	}
	tir = calloc(1, sizeof(*tir));
	if (tir == NULL || mlx5_sim_idtab_alloc(&vhca->tirs, tir, &tir->tirn)) {
		free(tir);
		return MLX5_SIM_SYND_ETH_TABLE_FULL;
	}
	tir->file = file;
	tir->disp_type = disp;
	tir->inline_rqn = MLX5_GET(tirc, tirc, inline_rqn);
	tir->rqtn = MLX5_GET(tirc, tirc, indirect_table);
	tir->hash_fn = fn;
	tir->symmetric = MLX5_GET(tirc, tirc, rx_hash_symmetric);
	memcpy(tir->key, MLX5_ADDR_OF(tirc, tirc, rx_hash_toeplitz_key),
	       sizeof(tir->key));
	tir->l3_prot_type = MLX5_GET(rx_hash_field_select, sel, l3_prot_type);
	tir->l4_prot_type = MLX5_GET(rx_hash_field_select, sel, l4_prot_type);
	tir->fields = fields;
	tir->tdn = MLX5_GET(tirc, tirc, transport_domain);
	tir->self_lb_block = MLX5_GET(tirc, tirc, self_lb_block);
	if (tir->tdn != 0)
		sim_td_of(file, tir->tdn)->users++;
	if (disp == MLX5_TIRC_DISP_TYPE_DIRECT)
		((struct mlx5_sim_rq *)mlx5_sim_qnum_get(&vhca->qps,
			tir->inline_rqn, MLX5_SIM_Q_RQ))->users++;
	else
		sim_rqt_of(file, tir->rqtn)->users++;
	vhca->live.tirs++;
	MLX5_SET(create_tir_out, out, tirn, tir->tirn);
	obj->kind = MLX5_SIM_OBJ_TIR;
	obj->index = tir->tirn;
	return MLX5_SIM_SYND_OK;
}

/*
 * Free one object (destroy or reclaim): MLX5_SIM_SYND_OK, _ETH_UNKNOWN if
 * @file has no such object, or _ETH_BUSY while another object names it
 * (an SQ its TIS, a TIS or TIR its transport domain, an RQT or direct TIR
 * its RQ, a TIR its RQT): the model's choice, which no public source
 * settles, so that no number is left naming a freed (or reused) object.
 */
static uint32_t
sim_eth_free(struct mlx5_sim_file *file, enum mlx5_sim_obj_kind kind,
	     uint32_t id)
{
	struct mlx5_sim_vhca *vhca = file->vhca;

	switch (kind) {
	case MLX5_SIM_OBJ_SQ: {
		struct mlx5_sim_sq *sq = mlx5_sim_qnum_get(&vhca->qps, id,
							   MLX5_SIM_Q_SQ);
		struct mlx5_sim_tis *tis;

		if (sq == NULL || sq->wq.file != file)
			return MLX5_SIM_SYND_ETH_UNKNOWN;
		tis = sim_tis_of(file, sq->tisn);
		if (tis != NULL)
			tis->users--;
		sim_wq_drop(vhca, &sq->wq);
		mlx5_sim_idtab_free(&vhca->qps, id);
		vhca->live.sqs--;
		free(sq);
		return MLX5_SIM_SYND_OK;
	}
	case MLX5_SIM_OBJ_RQ: {
		struct mlx5_sim_rq *rq = mlx5_sim_qnum_get(&vhca->qps, id,
							   MLX5_SIM_Q_RQ);

		if (rq == NULL || rq->wq.file != file)
			return MLX5_SIM_SYND_ETH_UNKNOWN;
		if (rq->users != 0)
			return MLX5_SIM_SYND_ETH_BUSY;
		mlx5_sim_qcnt_hold(vhca, rq->counter_set_id, -1);
		sim_wq_drop(vhca, &rq->wq);
		mlx5_sim_idtab_free(&vhca->qps, id);
		vhca->live.rqs--;
		free(rq);
		return MLX5_SIM_SYND_OK;
	}
	case MLX5_SIM_OBJ_TIS: {
		struct mlx5_sim_tis *tis = sim_tis_of(file, id);
		struct mlx5_sim_td *td;

		if (tis == NULL)
			return MLX5_SIM_SYND_ETH_UNKNOWN;
		if (tis->users != 0)
			return MLX5_SIM_SYND_ETH_BUSY;
		td = sim_td_of(file, tis->tdn);
		if (td != NULL)
			td->users--;
		if (tis->pd != NULL)
			tis->pd->users--;
		mlx5_sim_idtab_free(&vhca->tiss, id);
		vhca->live.tiss--;
		free(tis);
		return MLX5_SIM_SYND_OK;
	}
	case MLX5_SIM_OBJ_RQT: {
		struct mlx5_sim_rqt *rqt = sim_rqt_of(file, id);

		if (rqt == NULL)
			return MLX5_SIM_SYND_ETH_UNKNOWN;
		if (rqt->users != 0)
			return MLX5_SIM_SYND_ETH_BUSY;
		sim_rqt_hold(vhca, rqt->rqns, rqt->n, -1);
		mlx5_sim_idtab_free(&vhca->rqts, id);
		vhca->live.rqts--;
		free(rqt->rqns);
		free(rqt);
		return MLX5_SIM_SYND_OK;
	}
	case MLX5_SIM_OBJ_TIR: {
		struct mlx5_sim_tir *tir = mlx5_sim_idtab_get(&vhca->tirs, id);
		struct mlx5_sim_td *td;

		if (tir == NULL || tir->file != file)
			return MLX5_SIM_SYND_ETH_UNKNOWN;
		/* The kernel refuses first (EBUSY); this guards the model. */
		if (tir->flows != 0)
			return MLX5_SIM_SYND_ETH_BUSY;
		td = sim_td_of(file, tir->tdn);
		if (td != NULL)
			td->users--;
		if (tir->disp_type == MLX5_TIRC_DISP_TYPE_DIRECT) {
			struct mlx5_sim_rq *rq = mlx5_sim_qnum_get(&vhca->qps,
				tir->inline_rqn, MLX5_SIM_Q_RQ);

			if (rq != NULL)
				rq->users--;
		} else {
			struct mlx5_sim_rqt *rqt = sim_rqt_of(file, tir->rqtn);

			if (rqt != NULL)
				rqt->users--;
		}
		mlx5_sim_idtab_free(&vhca->tirs, id);
		vhca->live.tirs--;
		free(tir);
		return MLX5_SIM_SYND_OK;
	}
	case MLX5_SIM_OBJ_TD: {
		struct mlx5_sim_td *td = sim_td_of(file, id);

		if (td == NULL)
			return MLX5_SIM_SYND_ETH_UNKNOWN;
		if (td->users != 0)
			return MLX5_SIM_SYND_ETH_BUSY;
		mlx5_sim_idtab_free(&vhca->tds, id);
		if (!td->kernel)
			vhca->live.tds--;
		free(td);
		return MLX5_SIM_SYND_OK;
	}
	default:
		return MLX5_SIM_SYND_ETH_UNKNOWN;
	}
}

/*
 * The vHCA's own vport: a locally administered MAC made of the card and
 * vHCA numbers (02:00:00:<card>:<vhca_id>), the MTU as set (1500 + 22, as
 * the kernel's MLX5E_SW2HW_MTU writes it, by default), RoCE on, the link
 * up while port 1 is cabled. Another vport's context needs the e-switch manager: refused.
 */
static uint32_t
sim_vport_query(struct mlx5_sim_file *file, uint16_t opcode, const void *in,
		void *out)
{
	struct mlx5_sim_vhca *vhca = file->vhca;
	void *ctx;
	uint8_t *mac;

	if (MLX5_GET(query_vport_state_in, in, other_vport))
		return MLX5_SIM_SYND_ETH_OTHER_VPORT;
	if (opcode == MLX5_CMD_OP_QUERY_VPORT_STATE) {
		MLX5_SET(query_vport_state_out, out, admin_state,
			 MLX5_VPORT_STATE_UP);
		/* The link: port 1 cabled to something. */
		MLX5_SET(query_vport_state_out, out, state,
			 mlx5_sim_port_up(vhca, 0) ? MLX5_VPORT_STATE_UP :
			 MLX5_VPORT_STATE_DOWN);
		return MLX5_SIM_SYND_OK;
	}
	ctx = MLX5_ADDR_OF(query_nic_vport_context_out, out,
			   nic_vport_context);
	MLX5_SET(nic_vport_context, ctx, roce_en, 1);
	MLX5_SET(nic_vport_context, ctx, mtu, mlx5_sim_vport_hw_mtu(vhca));
	mac = (uint8_t *)MLX5_ADDR_OF(nic_vport_context, ctx,
				      permanent_address) + 2;
	mlx5_sim_vhca_mac(vhca, mac);
	return MLX5_SIM_SYND_OK;
}

void
mlx5_sim_vhca_mac(const struct mlx5_sim_vhca *vhca, uint8_t mac[6])
{
	/* Locally administered: 02:00:00:<card>:<vhca_id>. */
	mac[0] = 0x02;
	mac[1] = 0x00;
	mac[2] = 0x00;
	mac[3] = (uint8_t)vhca->card->id;
	mac[4] = (uint8_t)(vhca->vhca_id >> 8);
	mac[5] = (uint8_t)vhca->vhca_id;
}

bool
mlx5_sim_gid_mac(const uint8_t gid[16], uint8_t mac[6])
{
	/* fe80::/64 with an EUI-64 interface id (ff:fe in its middle). */
	if (gid[0] != 0xfe || (gid[1] & 0xc0) != 0x80 || gid[11] != 0xff ||
	    gid[12] != 0xfe)
		return false;
	mac[0] = gid[8] ^ 0x02;
	mac[1] = gid[9];
	mac[2] = gid[10];
	mac[3] = gid[13];
	mac[4] = gid[14];
	mac[5] = gid[15];
	return true;
}

bool
mlx5_sim_gid_v2(uint32_t index)
{
	return index % 2 == 1;
}

uint32_t
mlx5_sim_roce_mtu(uint32_t eth_mtu)
{
	/* GRH 40, UDP 8, BTH 12, XRC 4, AtomicETH 28, ICRC 4. */
	uint32_t room = eth_mtu > 96 ? eth_mtu - 96 : 0, mtu;

	for (mtu = 4096; mtu >= 256; mtu /= 2)
		if (room >= mtu)
			return mtu;
	return 0;
}

void
mlx5_sim_mac_gid(const uint8_t mac[6], uint8_t gid[16])
{
	memset(gid, 0, 16);
	gid[0] = 0xfe;
	gid[1] = 0x80;
	gid[8] = mac[0] ^ 0x02;
	gid[9] = mac[1];
	gid[10] = mac[2];
	gid[11] = 0xff;
	gid[12] = 0xfe;
	gid[13] = mac[3];
	gid[14] = mac[4];
	gid[15] = mac[5];
}

void
mlx5_sim_td_kernel(struct mlx5_sim_file *file, uint32_t tdn)
{
	struct mlx5_sim_td *td = sim_td_of(file, tdn);

	if (td != NULL && !td->kernel) {
		td->kernel = true;
		file->vhca->live.tds--;
	}
}

uint32_t
mlx5_sim_cmd_eth(struct mlx5_sim_file *file, uint16_t opcode,
		 const void *in, size_t inlen, void *out,
		 struct mlx5_sim_devx_obj *obj)
{
	switch (opcode) {
	case MLX5_CMD_OP_CREATE_RQT:
		return sim_rqt_create(file, in, inlen, out, obj);
	case MLX5_CMD_OP_MODIFY_RQT:
		return sim_rqt_modify(file, in, inlen);
	case MLX5_CMD_OP_DESTROY_RQT:
		return sim_eth_free(file, MLX5_SIM_OBJ_RQT,
				    MLX5_GET(destroy_rqt_in, in, rqtn));
	case MLX5_CMD_OP_CREATE_TIR:
		return sim_tir_create(file, in, out, obj);
	case MLX5_CMD_OP_DESTROY_TIR:
		return sim_eth_free(file, MLX5_SIM_OBJ_TIR,
				    MLX5_GET(destroy_tir_in, in, tirn));
	case MLX5_CMD_OP_QUERY_VPORT_STATE:
	case MLX5_CMD_OP_QUERY_NIC_VPORT_CONTEXT:
		return sim_vport_query(file, opcode, in, out);
	case MLX5_CMD_OP_ALLOC_TRANSPORT_DOMAIN:
		return sim_td_alloc(file, out, obj);
	case MLX5_CMD_OP_DEALLOC_TRANSPORT_DOMAIN:
		return sim_eth_free(file, MLX5_SIM_OBJ_TD,
			MLX5_GET(dealloc_transport_domain_in, in,
				 transport_domain));
	case MLX5_CMD_OP_CREATE_TIS:
		return sim_tis_create(file, in, out, obj);
	case MLX5_CMD_OP_DESTROY_TIS:
		return sim_eth_free(file, MLX5_SIM_OBJ_TIS,
				    MLX5_GET(destroy_tis_in, in, tisn));
	case MLX5_CMD_OP_QUERY_TIS:
		return sim_tis_query(file, in, out);
	case MLX5_CMD_OP_CREATE_SQ:
		return mlx5_sim_sq_create(file, in, NULL, NULL, out, obj);
	case MLX5_CMD_OP_MODIFY_SQ:
		return sim_sq_modify(file, in);
	case MLX5_CMD_OP_QUERY_SQ:
		return sim_sq_query(file, in, out);
	case MLX5_CMD_OP_DESTROY_SQ:
		return sim_eth_free(file, MLX5_SIM_OBJ_SQ,
				    MLX5_GET(destroy_sq_in, in, sqn));
	case MLX5_CMD_OP_CREATE_RQ:
		return mlx5_sim_rq_create(file, in, NULL, NULL, out, obj);
	case MLX5_CMD_OP_MODIFY_RQ:
		return sim_rq_modify(file, in);
	case MLX5_CMD_OP_QUERY_RQ:
		return sim_rq_query(file, in, out);
	case MLX5_CMD_OP_DESTROY_RQ:
		return sim_eth_free(file, MLX5_SIM_OBJ_RQ,
				    MLX5_GET(destroy_rq_in, in, rqn));
	default:
		return MLX5_SIM_SYND_BAD_OPCODE;
	}
}

void
mlx5_sim_eth_reclaim(struct mlx5_sim_vhca *vhca,
		     const struct mlx5_sim_devx_obj *obj)
{
	if (sim_eth_free(obj->file, obj->kind, obj->index) == MLX5_SIM_SYND_OK)
		vhca->reclaimed++;
}
