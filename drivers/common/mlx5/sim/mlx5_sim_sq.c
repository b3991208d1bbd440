/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * The send side of the Ethernet datapath: an SQ's doorbell, its WQEs read
 * ahead, the frames built, timed, paced and put on the cable (the pacing
 * thread of pace_clock=wall lives here), the send CQEs
 * (mlx5_sim_wire.h gives the whole picture).
 */

#include "mlx5_sim_wire.h"

/*
 * The @bc bytes (1..SIM_FRAME_MAX) of pointer data segment @d into @dst,
 * read under the doorbell's guard when the SQ's cache translates its key.
 * Returns a CQE syndrome, 0 on success.
 */
static uint8_t
sim_sq_gather(struct mlx5_sim_sq_run *r, const struct mlx5_wqe_data_seg *d,
	      uint8_t *dst, uint32_t bc)
{
	struct mlx5_sim_vhca *vhca = r->vhca;
	struct mlx5_sim_sq *sq = r->sq;
	uint32_t lkey = rte_be_to_cpu_32(d->lkey);
	uint64_t addr = rte_be_to_cpu_64(d->addr);
	const uint8_t *host;
	int ret;

	host = mlx5_sim_xcache_host(vhca, sq->wq.xc, lkey, sq->wq.pdn, addr, bc,
				    false);
	if (likely(host != NULL)) {
		r->armed = SIM_ARMED_TX_DATA;
		mlx5_sim_copy_armed(&r->guard, dst, host, bc);
		return 0;
	}
	ret = mlx5_sim_xfer_q(vhca, sq->wq.xc, lkey, sq->wq.pdn, addr, dst, bc,
			      0);
	return ret != 0 ? mlx5_sim_local_syndrome(ret) : 0;
}

/*
 * The frame of the SEND WQE of @r, built in r->frame: inline header, then
 * data segments, each read under the doorbell's guard when the SQ's
 * cache translates its key. Returns a CQE syndrome, 0 on success, the
 * length in @len.
 */
static uint8_t
sim_sq_frame(struct mlx5_sim_sq_run *r, uint32_t *len)
{
	struct mlx5_sim_sq *sq = r->sq;
	const struct mlx5_sim_wqe *w = &r->wqe;
	uint8_t *f = r->frame;
	const uint8_t *seg = w->bytes + sizeof(struct mlx5_wqe_ctrl_seg);
	const struct mlx5_wqe_eth_seg *es = (const void *)seg;
	/* The segments after the control segment. */
	const uint8_t *end = w->bytes + (size_t)w->ds * 16;
	const uint8_t *p;
	uint32_t inl, n = 0;

	if (w->ds < 2)
		return MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR;
	inl = rte_be_to_cpu_16(es->inline_hdr_sz);
	/* The inline header starts in the segment's last two bytes. */
	p = (const uint8_t *)es->inline_hdr_start;
	if (inl > (size_t)(end - p) || inl > SIM_FRAME_MAX)
		return MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR;
	/* The SQ's minimal inline mode: at least the L2 header inline. */
	if (sq->min_wqe_inline_mode != 0 && inl < SIM_ETH_HLEN)
		return MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR;
	memcpy(f, p, inl);
	n = inl;
	p = seg + 16 + (inl > 2 ? RTE_ALIGN_CEIL(inl - 2, 16u) : 0);
	while (p < end) {
		uint32_t bc;

		memcpy(&bc, p, sizeof(bc));
		bc = rte_be_to_cpu_32(bc);

		if (bc & MLX5_INLINE_SEG) {
			bc &= ~MLX5_INLINE_SEG;
			if (bc > (size_t)(end - p) - 4 ||
			    n + bc > SIM_FRAME_MAX)
				return MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR;
			memcpy(f + n, p + 4, bc);
			p += RTE_ALIGN_CEIL(4 + bc, 16u);
		} else {
			uint8_t synd;

			/* 0 is 2^31 bytes: longer than any frame. */
			if (bc == 0 || n + bc > SIM_FRAME_MAX)
				return MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR;
			synd = sim_sq_gather(r, (const void *)p, f + n, bc);
			if (synd != 0)
				return synd;
			p += sizeof(struct mlx5_wqe_data_seg);
		}
		n += bc;
	}
	*len = n;
	return 0;
}

/* Wall-clock time (ns) of the pace_clock=wall setting. */
static uint64_t
sim_wall_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/*
 * The device's own progress for pace_clock=wall: a paced SQ whose next
 * WQE must wait is listed with the time it may leave, and a thread of the
 * device (started at the first such wait, stopped at exit) sends it then,
 * as hardware does without another doorbell. Entries name (vHCA, SQ
 * number), looked up again under the card lock: a destroyed SQ is simply
 * not found.
 */
#define SIM_PACE_MAX 1024
/* How far a paced SQ may fall behind its schedule and catch up (1 ms). */
#define SIM_PACE_SLACK_NS UINT64_C(1000000)

struct sim_pace_ent {
	struct mlx5_sim_vhca *vhca;
	uint32_t sqn;
	uint64_t due;
};

static struct {
	struct mlx5_sim_thread
		t; /* Its lock after a card lock, never before. */
	bool full_logged;
	unsigned int n;
	struct sim_pace_ent ent[SIM_PACE_MAX];
} sim_pace = {
	.t = MLX5_SIM_THREAD_INIT,
};

static void *
sim_pace_main(void *arg)
{
	struct sim_pace_ent due[SIM_PACE_MAX];

	RTE_SET_USED(arg);
	pthread_mutex_lock(&sim_pace.t.lock);
	while (!sim_pace.t.stop) {
		uint64_t now = sim_wall_ns(), first = UINT64_MAX;
		unsigned int i, nd = 0;

		for (i = 0; i < sim_pace.n;) {
			if (sim_pace.ent[i].due <= now) {
				due[nd++] = sim_pace.ent[i];
				sim_pace.ent[i] = sim_pace.ent[--sim_pace.n];
				continue;
			}
			first = RTE_MIN(first, sim_pace.ent[i].due);
			i++;
		}
		if (nd == 0) {
			struct timespec ts = {
				.tv_sec = (time_t)(first / 1000000000u),
				.tv_nsec = (long)(first % 1000000000u),
			};

			if (first == UINT64_MAX)
				pthread_cond_wait(&sim_pace.t.cond,
						  &sim_pace.t.lock);
			else
				pthread_cond_timedwait(&sim_pace.t.cond,
						       &sim_pace.t.lock, &ts);
			continue;
		}
		pthread_mutex_unlock(&sim_pace.t.lock);
		for (i = 0; i < nd; i++) {
			struct mlx5_sim_sq *sq;

			mlx5_sim_vhca_lock(due[i].vhca);
			sq = mlx5_sim_qnum_get(&due[i].vhca->qps, due[i].sqn,
					       MLX5_SIM_Q_SQ);
			if (sq != NULL)
				mlx5_sim_engine_sq(due[i].vhca, sq);
			mlx5_sim_vhca_unlock(due[i].vhca);
		}
		pthread_mutex_lock(&sim_pace.t.lock);
	}
	pthread_mutex_unlock(&sim_pace.t.lock);
	return NULL;
}

/* List @sq to be sent at @due (card lock held). */
static void
sim_pace_arm(struct mlx5_sim_vhca *vhca, const struct mlx5_sim_sq *sq,
	     uint64_t due)
{
	unsigned int i;

	pthread_mutex_lock(&sim_pace.t.lock);
	if (sim_pace.t.stop)
		goto out;
	if (mlx5_sim_thread_start_locked(
		    &sim_pace.t, sim_pace_main,
		    "the pacing thread: paced SQs progress at doorbells only") !=
	    0)
		goto out;
	for (i = 0; i < sim_pace.n; i++)
		if (sim_pace.ent[i].vhca == vhca &&
		    sim_pace.ent[i].sqn == sq->sqn)
			break;
	if (i == sim_pace.n) {
		if (sim_pace.n == SIM_PACE_MAX) {
			if (!sim_pace.full_logged)
				SIM_LOG(WARNING,
					"more than %u paced SQs wait:"
					" the others progress at doorbells",
					SIM_PACE_MAX);
			sim_pace.full_logged = true;
			goto out;
		}
		sim_pace.n++;
	}
	sim_pace.ent[i] = (struct sim_pace_ent){
		.vhca = vhca,
		.sqn = sq->sqn,
		.due = due,
	};
	pthread_cond_signal(&sim_pace.t.cond);
out:
	pthread_mutex_unlock(&sim_pace.t.lock);
}

void
mlx5_sim_pace_stop(void)
{
	mlx5_sim_thread_stop(&sim_pace.t);
}

/* The rate of pacing entry @index (kb/s), 0 for none. */
static uint32_t
sim_pp_rate(const struct mlx5_sim_vhca *vhca, uint16_t index)
{
	if (index == 0 || vhca->pp == NULL || index >= vhca->caps.pp_table_size)
		return 0;
	return MLX5_GET(set_pp_rate_limit_context, vhca->pp[index - 1].ctx,
			rate_limit);
}

/* The sending side of @r, at its first SEND: TIS, port, cable, rate. */
static void
sim_sq_tx_known(struct mlx5_sim_sq_run *r)
{
	struct mlx5_sim_vhca *vhca = r->vhca;
	unsigned int pi;

	r->tis = mlx5_sim_idtab_get(&vhca->tiss, r->sq->tisn);
	pi = r->tis != NULL && r->tis->lag_tx_port_affinity != 0 ?
		     r->tis->lag_tx_port_affinity - 1u :
		     0;
	if (pi >= vhca->caps.nports)
		pi = 0;
	r->port_idx = pi;
	r->port = &vhca->port[pi];
	r->far = mlx5_sim_port_far(vhca, pi, &r->far_idx);
	r->rate = sim_pp_rate(vhca, r->sq->rate_index);
	r->tx_known = true;
}

/*
 * Put the frame of @len bytes in r->frame on the wire: padded to the
 * minimum, the checksums of @cs_flags, timed and paced.
 */
static void
sim_sq_emit(struct mlx5_sim_sq_run *r, uint32_t len, uint8_t cs_flags)
{
	struct mlx5_sim_vhca *vhca = r->vhca;
	struct mlx5_sim_sq *sq = r->sq;
	uint8_t *f = r->frame;
	struct mlx5_sim_port *port;
	uint64_t bits, t;
	uint32_t rate;

	if (len < SIM_FRAME_MIN) {
		memset(f + len, 0, SIM_FRAME_MIN - len);
		len = SIM_FRAME_MIN;
	}
	if (cs_flags & (MLX5_ETH_WQE_L3_CSUM | MLX5_ETH_WQE_L4_CSUM))
		mlx5_sim_tx_csum(f, cs_flags);
	if (unlikely(!r->tx_known))
		sim_sq_tx_known(r);
	port = r->port;
	/*
	 * Departure: the wire's virtual time, or later when paced. In wall
	 * time, now; a paced SQ keeps its schedule, catching up at most
	 * SIM_PACE_SLACK_NS it fell behind (the burst a limiter allows).
	 */
	bits = (uint64_t)len * 8;
	rate = r->rate;
	if (vhca->caps.pace_wall) {
		uint64_t now = sim_wall_ns();

		t = rate != 0 ?
			    RTE_MAX(sq->vt_next_ns, now - SIM_PACE_SLACK_NS) :
			    now;
	} else {
		t = port->vclock_ns;
		if (rate != 0)
			t = RTE_MAX(t, sq->vt_next_ns);
	}
	if (rate != 0)
		sq->vt_next_ns = t + (bits * 1000000 + rate - 1) / rate;
	port->vclock_ns =
		RTE_MAX(port->vclock_ns, t) + bits * 1000 / port->speed_mbps;
	r->ts = mlx5_sim_cqe_ts(t, sq->wq.ts_format);
	r->bytes += len;
	if (r->far == NULL) {
		port->st.tx_link_down++;
		return;
	}
	port->st.tx_frames++;
	port->st.tx_bytes += len;
	r->sent_ns = t;
	mlx5_sim_port_rx(r, len);
}

/* Send the frame of the SEND WQE of @r. */
static uint8_t
sim_sq_send(struct mlx5_sim_sq_run *r)
{
	const struct mlx5_wqe_eth_seg *es =
		(const void *)(r->wqe.bytes + sizeof(struct mlx5_wqe_ctrl_seg));
	uint32_t len = 0;
	uint8_t synd;

	synd = sim_sq_frame(r, &len);
	if (synd == 0)
		sim_sq_emit(r, len, es->cs_flags);
	return synd;
}

/*
 * Send the frames of the enhanced multi-packet WQE of @r
 * (MLX5_WQE_OPCODE_ENHANCED_MPSW): one a data segment, with the Ethernet
 * segment's offloads. Only on an SQ created with allow_multi_pkt_send_wqe;
 * its Ethernet segment holds no inline header and one packet at least
 * follows; on an SQ whose min_wqe_inline_mode asks the L2 header inline
 * (as SEND's inline header must hold it), every packet is inline, 14
 * bytes at least. A bad segment ends the WQE with an error completion; the
 * frames of the segments before it have left (the device sends as it
 * reads; no public source says whether a ConnectX holds them back).
 */
static uint8_t
sim_sq_empw_from(struct mlx5_sim_sq_run *r, const uint8_t *p)
{
	const struct mlx5_sim_wqe *w = &r->wqe;
	const struct mlx5_wqe_eth_seg *es =
		(const void *)(w->bytes + sizeof(struct mlx5_wqe_ctrl_seg));
	const uint8_t *end = w->bytes + (size_t)w->ds * 16;
	/* The SQ's minimal inline mode: every packet's L2 header inline. */
	const bool need_inline = r->sq->min_wqe_inline_mode != 0;

	while (p < end) {
		uint32_t bc, len;
		uint8_t synd;

		memcpy(&bc, p, sizeof(bc));
		bc = rte_be_to_cpu_32(bc);
		if (bc & MLX5_INLINE_SEG) {
			len = bc & ~MLX5_INLINE_SEG;
			if (len == 0 || len > (size_t)(end - p) - 4 ||
			    len > SIM_FRAME_MAX ||
			    (need_inline && len < SIM_ETH_HLEN))
				return MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR;
			memcpy(r->frame, p + 4, len);
			p += RTE_ALIGN_CEIL(4 + len, 16u);
		} else {
			len = bc;
			if (need_inline)
				return MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR;
			if (len == 0 || len > SIM_FRAME_MAX)
				return MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR;
			synd = sim_sq_gather(r, (const void *)p, r->frame, len);
			if (synd != 0)
				return synd;
			p += sizeof(struct mlx5_wqe_data_seg);
		}
		/*
		 * Where to go on if the receiving side faults while this
		 * frame arrives (sim_sq_fault()): the frame has left.
		 */
		r->empw_next = p;
		sim_sq_emit(r, len, es->cs_flags);
	}
	return 0;
}

static uint8_t
sim_sq_empw(struct mlx5_sim_sq_run *r)
{
	const struct mlx5_sim_wqe *w = &r->wqe;
	const struct mlx5_wqe_eth_seg *es =
		(const void *)(w->bytes + sizeof(struct mlx5_wqe_ctrl_seg));

	if (!r->sq->allow_mpw || w->ds < 3 || es->inline_hdr_sz != 0)
		return MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR;
	return sim_sq_empw_from(r, w->bytes + 2 * 16);
}

/* The SQ's counter is past the doorbell's (a doorbell beyond the WQEs). */
static inline bool
sim_sq_past_doorbell(const struct mlx5_sim_sq_run *r)
{
	return ((r->pi - r->sq->wq.hw_counter) & 0xffff) > r->n;
}

/*
 * The end of the WQE of @r, with syndrome @synd (0: it succeeded): true
 * if the engine stops there. An error completes through a guard of its
 * own (mlx5_sim_req_complete()), a signaled success under the doorbell's.
 */
static bool
sim_sq_wqe_end(struct mlx5_sim_sq_run *r, uint8_t synd)
{
	struct mlx5_sim_sq *sq = r->sq;
	struct mlx5_sim_wq *wq = &sq->wq;
	const struct mlx5_sim_wqe *w = &r->wqe;

	wq->hw_counter += w->bbs;
	if (unlikely(synd != 0)) {
		if (wq->state == MLX5_WQ_STATE_RDY) {
			SIM_LOG(DEBUG,
				"%s: SQ 0x%x: WQE %u opcode 0x%x:"
				" error completion, syndrome 0x%x",
				r->vhca->ibdev.name, sq->sqn,
				mlx5_sim_wqe_index(w), w->opcode, synd);
			wq->state = MLX5_WQ_STATE_ERR;
		}
		mlx5_sim_req_complete(r->vhca, wq->cqn, sq->sqn, w->opcode,
				      mlx5_sim_wqe_index(w), synd, 0, 0);
	} else if (mlx5_sim_wqe_signaled(w) && r->cq != NULL &&
		   r->cq->status == 0) {
		struct mlx5_cqe64 cqe;

		mlx5_sim_req_cqe(&cqe, sq->sqn, w->opcode,
				 mlx5_sim_wqe_index(w), 0, r->bytes, r->ts);
		r->armed = SIM_ARMED_TX_CQE;
		if (!mlx5_sim_cqe_put_armed(&r->guard, r->cq, &cqe))
			mlx5_sim_cq_overrun(r->cq);
	}
	/* A doorbell beyond the WQEs posted: stop at the counter. */
	return sim_sq_past_doorbell(r);
}

/*
 * A fault under the guard of @r's doorbell: what the armed access was
 * decides the completion, as with a guard per access. Returns true if
 * the engine stops.
 */
static bool
sim_sq_fault(struct mlx5_sim_sq_run *r)
{
	struct mlx5_sim_wq *wq = &r->sq->wq;

	switch (r->armed) {
	case SIM_ARMED_RING:
		/* A read-ahead: read again, WQE by WQE. */
		if (!r->per_wqe) {
			/* The read-ahead empty (mlx5_sim_wqe_next()). */
			r->per_wqe = true;
			r->ahead.len = 0;
			return false;
		}
		/* One WQE: not a WQE, one block consumed. */
		mlx5_sim_wqe_unread(&r->wqe, &r->unread,
				    (uint16_t)wq->hw_counter);
		return sim_sq_wqe_end(r, MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR);
	case SIM_ARMED_TX_DATA:
		return sim_sq_wqe_end(r, mlx5_sim_local_syndrome(-EFAULT));
	case SIM_ARMED_TX_CQE:
		r->cq->status = MLX5_SIM_CQ_STATUS_WRITE_FAIL;
		return sim_sq_past_doorbell(r);
	case SIM_ARMED_RQ_DBR:
		r->rx_port->st.rx_errors++;
		mlx5_sim_rq_error(r->rx_vhca, r->rq);
		break;
	case SIM_ARMED_RQ_WQE:
		mlx5_sim_rx_fail(r->rx_vhca, r->rx_port, r->rq,
				 MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR);
		break;
	case SIM_ARMED_RX_DATA:
		mlx5_sim_rx_fail(r->rx_vhca, r->rx_port, r->rq,
				 mlx5_sim_local_syndrome(-EFAULT));
		break;
	default: /* SIM_ARMED_RX_CQE */
		r->rq_cq->status = MLX5_SIM_CQ_STATUS_WRITE_FAIL;
		break;
	}
	/*
	 * The receiving side failed: the frame left all the same, and an
	 * eMPW WQE's further frames go on.
	 */
	if (r->wqe.opcode == MLX5_WQE_OPCODE_ENHANCED_MPSW &&
	    r->empw_next != NULL)
		return sim_sq_wqe_end(r, sim_sq_empw_from(r, r->empw_next));
	return sim_sq_wqe_end(r, 0);
}

/*
 * An SQ's doorbell: its WQEs from the device's counter to the doorbell
 * record's, under one fault guard (mlx5_sim_wqe.h), armed only while the
 * application's memory is read or written: the SQ's ring (read ahead as
 * a QP's, WQE by WQE after a fault), the frame's data, and on the
 * receiving side the RQ's doorbell record, WQE, buffers and CQ. A fault
 * comes back here; sim_sq_fault() completes what it hit.
 */
void
mlx5_sim_engine_sq(struct mlx5_sim_vhca *vhca, struct mlx5_sim_sq *sq)
{
	struct mlx5_sim_wq *wq = &sq->wq;
	struct mlx5_sim_sq_run run;
	struct mlx5_sim_sq_run *r = &run;
	uint32_t pi;

	if (wq->state != MLX5_WQ_STATE_RDY && wq->state != MLX5_WQ_STATE_ERR)
		return;
	if (!mlx5_sim_dbr_read(wq->dbr.host, MLX5_SIM_DBR_SND, &pi) ||
	    mlx5_sim_guard_push(&r->guard) != 0) {
		wq->state = MLX5_WQ_STATE_ERR;
		return;
	}
	r->armed = SIM_ARMED_RING;
	r->per_wqe = false;
	r->vhca = vhca;
	r->sq = sq;
	r->pi = pi & 0xffff;
	r->n = 1u << wq->log_wq_sz;
	r->tx_known = false;
	r->cq = mlx5_sim_idtab_get(&vhca->cqs, wq->cqn);
	r->rq_known = NULL;
	r->rss_tir = NULL;
	r->ahead.first = 0;
	r->ahead.len = 0;
	if (MLX5_SIM_GUARD_SETJMP(&r->guard) != 0) {
		if (sim_sq_fault(r))
			goto out;
	}
	while ((uint16_t)wq->hw_counter != r->pi) {
		uint8_t synd = 0;
		int ret;

		/* Wall-clock pacing: a WQE waits for its time to come. */
		if (vhca->caps.pace_wall && wq->state == MLX5_WQ_STATE_RDY &&
		    sq->rate_index != 0 && sq->vt_next_ns > sim_wall_ns()) {
			sim_pace_arm(vhca, sq, sq->vt_next_ns);
			break;
		}
		r->armed = SIM_ARMED_RING;
		ret = mlx5_sim_wqe_next(&r->guard, &r->ahead, wq->ring.host,
					r->n, sq->sqn, (uint16_t)wq->hw_counter,
					r->pi, r->per_wqe, &r->wqe);
		r->bytes = 0;
		r->ts = 0;
		r->empw_next = NULL;
		if (unlikely(ret != 0)) {
			/* Not a WQE: an error completion, one block consumed. */
			synd = MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR;
			r->wqe.bbs = 1;
		} else if (unlikely(wq->state == MLX5_WQ_STATE_ERR)) {
			synd = MLX5_CQE_SYNDROME_WR_FLUSH_ERR;
		} else if (likely(r->wqe.opcode == MLX5_OPCODE_SEND)) {
			synd = sim_sq_send(r);
		} else if (r->wqe.opcode == MLX5_WQE_OPCODE_ENHANCED_MPSW) {
			synd = sim_sq_empw(r);
		} else if (r->wqe.opcode != MLX5_OPCODE_NOP) {
			synd = MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR;
		}
		if (sim_sq_wqe_end(r, synd))
			break;
	}
out:
	mlx5_sim_guard_pop(&r->guard);
	/* Compressed sessions end with the doorbell that formed them. */
	if (vhca->card->zip_open != NULL)
		mlx5_sim_cq_zip_close_all(vhca->card);
}
