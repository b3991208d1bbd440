/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * The device's engine: what happens after a send doorbell. A UAR store
 * names the QP (the first 8 bytes of a WQE's control segment, handed to
 * the kick with the value stored, so that doorbells of two threads on one
 * UAR are never confused); the engine reads the QP's doorbell record and
 * executes its send WQEs in order, in the caller's thread (the UAR's kick
 * hook, mlx5_common_dp.h), under the card lock. Each WQE is read once,
 * into the engine's own copy, and every read or write of the application's
 * rings and doorbell records runs under the fault guard: memory unmapped
 * under a queue stops that queue (CQ status 0xa, QP in error), never the
 * process. A QP's doorbell takes one guard (mlx5_sim_guard.h), armed only
 * while the ring is copied and while an RDMA WRITE's or READ's bytes move
 * straight between memories: the WQEs posted are read ahead, 2 KiB at a
 * time, WQE by WQE once a read-ahead faulted (mlx5_sim_engine_qp()).
 *
 * Modelled: RC QPs in RTS, connected to a QP by force loopback or a RoCE
 * path (mlx5_sim_rc.c); NOP, RDMA WRITE and RDMA READ with data segments,
 * and through mlx5_sim_rc.c SEND, SEND and WRITE with immediate, inline
 * data and receiver-not-ready waits; a CQE per WQE
 * that asks for one (MLX5_WQE_CTRL_CQ_UPDATE), an error CQE on the first
 * failure, after which the QP is in ERR and every later WQE completes
 * with WR_FLUSH_ERR. Every byte moves after the same key, PD, rights and
 * range checks as mlx5_sim_dma(). An RDMA WRITE or READ whose local and
 * remote sides each translate to one host range goes straight from one
 * memory to the other (mlx5_sim_xfer_write_crypto() for a WRITE into a
 * crypto key, inline, else mlx5_sim_xfer_mem_prep(): one cipher through a
 * crypto key, no device buffer, under the doorbell's guard); otherwise,
 * or when that path declines, through a device buffer, one
 * mlx5_sim_xfer() per side. The rule kept: a check that fails (either
 * side, any key) moves nothing, since both sides are checked whole before
 * the first byte; memory gone from under a valid key during the direct
 * copy ends it with the error completion of the side that faulted, as
 * the staged way gives (LOCAL_PROT_ERR for the local side,
 * REMOTE_ACCESS_ERR for the remote one), the source being the side it is
 * when it cannot be read whole; the bytes of the destination range are
 * then undefined, as after any error completion of an RDMA WRITE on
 * hardware, which streams a message in packets. UMR WQEs configure crypto
 * mkeys (mlx5_sim_umr.c). A doorbell naming an Ethernet SQ runs its SEND
 * WQEs (mlx5_sim_sq.c). Not modelled on QPs: atomics; nor CQ events (a
 * CQ is polled).
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_atomic.h>
#include <rte_byteorder.h>
#include <rte_common.h>

#include "mlx5_sim_wqe.h"

#define SIM_CQE_SIZE 64
/* Largest message: a data segment's byte count, 2^31 bytes. */
#define SIM_MAX_MSG MLX5_SIM_DMA_MAX_LEN
/* Messages up to this size are staged on the stack. */
#define SIM_STAGE_INLINE 4096

/* A 32-bit big-endian counter of a doorbell record; false if unmapped. */
bool
mlx5_sim_dbr_read(const uint8_t *host, unsigned int idx, uint32_t *val)
{
	const uint8_t *at = host + idx * sizeof(uint32_t);
	uint32_t be;

	/*
	 * Software writes the record while the device reads it: one
	 * atomic load where aligned (as the PRM's records are).
	 */
	if (((uintptr_t)at & 3) == 0 ?
		    mlx5_sim_load32_guarded(at, &be) != 0 :
		    mlx5_sim_copy_guarded(&be, at, sizeof(be)) != 0)
		return false;
	*val = rte_be_to_cpu_32(be);
	return true;
}

/*
 * Room for @n more CQEs in @cq, under an armed guard: the consumer
 * counter of the doorbell record is read again only when the one read
 * last says there is none (it only moves forward).
 */
static inline bool
sim_cq_room_armed(struct mlx5_sim_cq *cq, uint32_t n)
{
	uint32_t size = 1u << cq->log_size;
	/*
	 * The counters compared in 16 bits (more for a CQ of 2^16 CQEs or
	 * more): DPDK 22.11's verbs Tx queues write a 16-bit consumer
	 * counter (uint16_t cq_ci) into the record's 24-bit field of a CQ
	 * without overrun ignore, and run on ConnectX devices, which then
	 * cannot compare all 24 bits.
	 */
	uint32_t mask = cq->log_size >= 16 ? (size << 1) - 1 : 0xffff;
	uint32_t ci = cq->ci_seen;

	if (likely(((cq->pi - ci) & mask) + n <= size))
		return true;
	ci = rte_be_to_cpu_32(__atomic_load_n(
		     (const uint32_t *)(const void *)cq->dbr.host,
		     __ATOMIC_ACQUIRE)) &
	     0xffffff;
	if (((cq->pi - ci) & mask) + n > size)
		return false;
	cq->ci_seen = ci;
	return true;
}

static void sim_zip_write_armed(struct mlx5_sim_guard *g,
				struct mlx5_sim_cq *cq);

/*
 * Write CQE @tmpl (its format bits @format) into @cq's slot at pi, guard
 * armed: all but op_own, then op_own with the owner bit of the pass, a
 * release store that a consumer's acquire load of the byte pairs with.
 */
static inline void
sim_cqe_publish(struct mlx5_sim_cq *cq, const struct mlx5_cqe64 *tmpl,
		uint8_t format)
{
	struct mlx5_cqe64 *slot = (struct mlx5_cqe64 *)(void *)(cq->ring.host +
		(size_t)(cq->pi & ((1u << cq->log_size) - 1)) * SIM_CQE_SIZE);

	memcpy(slot, tmpl, offsetof(struct mlx5_cqe64, op_own));
	__atomic_store_n(&slot->op_own,
			 (uint8_t)((tmpl->op_own & 0xf0) |
				   format << MLX5_CQE_FORMAT_SHIFT |
				   ((cq->pi >> cq->log_size) & 1)),
			 __ATOMIC_RELEASE);
}

__rte_noinline bool
mlx5_sim_cqe_put_armed(struct mlx5_sim_guard *g, struct mlx5_sim_cq *cq,
		       const struct mlx5_cqe64 *tmpl)
{
	/* CQEs in the order they were made: an open session first. */
	if (unlikely(cq->zip_n != 0)) {
		sim_zip_write_armed(g, cq);
		/* It overran: the CQ is stopped. */
		if (unlikely(cq->status != 0))
			return false;
	}
	mlx5_sim_guard_arm(g);
	if (unlikely(!sim_cq_room_armed(cq, 1))) {
		mlx5_sim_guard_disarm(g);
		return false;
	}
	/* The owner bit flips each pass. */
	sim_cqe_publish(cq, tmpl, 0);
	mlx5_sim_guard_disarm(g);
	cq->pi++;
	return true;
}

/*
 * CQE compression (mlx5_prm_rx.h has the layout). A receive CQE for a CQ
 * with cqe_comp_en joins the CQ's open session when it differs from the
 * session's first CQE only in what a mini-CQE of the CQ's format carries
 * (byte count; RSS hash or checksum), in its WQE counter, which must be
 * the next, and in what the format has no room for, where the first
 * CQE's stands for all: the timestamp (DPDK 22.11 turns compression off
 * for Rx timestamps) and, with hash mini-CQEs, the checksum (the kernel
 * picks the checksum format to keep it). Otherwise the open session is
 * written and the CQE opens a new one. A session is written when it
 * holds the capability's cqe_compression_max_num CQEs, when it reaches
 * the end of the ring (a session never wraps: DPDK 22.11's vector Rx,
 * mlx5_rxtx_vec.c, which runs on hardware, decompresses one into
 * consecutive slots and mbufs), before any other CQE of the CQ, and when
 * the doorbell that formed it ends
 * (mlx5_sim_cq_zip_close_all()): no frame arrives before the next
 * doorbell, which is the device's compression timeout here. A session of
 * one CQE is written as that CQE; one that does not fit the ring is
 * written CQE by CQE, each rebuilt from the first CQE and its mini-CQE
 * (the first's timestamp, and with hash mini-CQEs its checksum, for
 * all), those that do not fit overrunning.
 */
void
mlx5_sim_cq_zip_key(struct mlx5_sim_cq *cq)
{
	struct mlx5_cqe_eth k;

	memset(&k, 0xff, sizeof(k));
	k.byte_cnt = 0;
	k.wqe_counter = 0;
	k.timestamp = 0;
	k.check_sum = 0;
	if (cq->zip_fmt == MLX5_MINI_CQE_FORMAT_HASH)
		k.rss_hash_result = 0;
	memcpy(cq->zip_key, &k, sizeof(k));
}

static bool
sim_zip_joins(const struct mlx5_sim_cq *cq, const struct mlx5_cqe64 *cqe)
{
	const struct mlx5_cqe_eth *t = (const void *)&cq->zip_title;
	const struct mlx5_cqe_eth *c = (const void *)cqe;
	uint64_t diff = 0;
	unsigned int w;

	if ((uint16_t)(rte_be_to_cpu_16(t->wqe_counter) + cq->zip_n) !=
	    rte_be_to_cpu_16(c->wqe_counter))
		return false;
	/* Word by word, the fields of the key (mlx5_sim_cq_zip_key()). */
	for (w = 0; w < RTE_DIM(cq->zip_key); w++) {
		uint64_t x, y;

		memcpy(&x, (const uint8_t *)t + 8 * w, sizeof(x));
		memcpy(&y, (const uint8_t *)c + 8 * w, sizeof(y));
		diff |= (x ^ y) & cq->zip_key[w];
	}
	return diff == 0;
}

/* CQE @i of @cq's session, rebuilt from the first and its mini-CQE. */
static void
sim_zip_cqe(const struct mlx5_sim_cq *cq, uint32_t i, struct mlx5_cqe64 *cqe)
{
	const struct mlx5_mini_cqe8 *m = &cq->zip_mini[i];
	struct mlx5_cqe_eth *c = (struct mlx5_cqe_eth *)(void *)cqe;

	memcpy(cqe, &cq->zip_title, sizeof(*cqe));
	c->byte_cnt = m->byte_cnt;
	c->wqe_counter = rte_cpu_to_be_16(
		(uint16_t)(rte_be_to_cpu_16(c->wqe_counter) + i));
	if (cq->zip_fmt == MLX5_MINI_CQE_FORMAT_HASH)
		c->rss_hash_result = m->rx_hash_result;
	else
		c->check_sum = m->checksum;
}

/*
 * Write @cq's open session under guard @g (not armed); it is closed. A call
 * of its own (never inlined into a function holding the guard's jump
 * point), as every guarded access (mlx5_sim_wqe.h).
 */
static __rte_noinline void
sim_zip_write_armed(struct mlx5_sim_guard *g, struct mlx5_sim_cq *cq)
{
	const uint32_t n = cq->zip_n, size = 1u << cq->log_size;
	struct mlx5_mini_cqe8 arr[MLX5_MINI_CQE_ARRAY_SIZE];
	struct mlx5_cqe64 hdr;
	uint32_t i, k;

	cq->zip_n = 0;
	mlx5_sim_guard_arm(g);
	if (n < 2 || !sim_cq_room_armed(cq, n)) {
		mlx5_sim_guard_disarm(g);
		for (i = 0; i < n; i++) {
			sim_zip_cqe(cq, i, &hdr);
			if (!mlx5_sim_cqe_put_armed(g, cq, &hdr))
				mlx5_sim_cq_overrun(cq);
		}
		return;
	}
	/* The mini-CQE arrays: slot 1, then 8, 16, ... of the session. */
	for (k = 0; k * MLX5_MINI_CQE_ARRAY_SIZE < n; k++) {
		i = k * MLX5_MINI_CQE_ARRAY_SIZE;
		memset(arr, 0, sizeof(arr));
		memcpy(arr, &cq->zip_mini[i],
		       RTE_MIN(n - i, (uint32_t)MLX5_MINI_CQE_ARRAY_SIZE) *
			       sizeof(arr[0]));
		memcpy(cq->ring.host +
			       (size_t)((cq->pi + (k == 0 ? 1 : i)) &
					(size - 1)) * SIM_CQE_SIZE,
		       arr, sizeof(arr));
	}
	/* The header last: its op_own, owner bit and format, publishes all. */
	hdr = cq->zip_title;
	hdr.byte_cnt = rte_cpu_to_be_32(n);
	sim_cqe_publish(cq, &hdr, MLX5_CQE_FORMAT_COMPRESSED);
	mlx5_sim_guard_disarm(g);
	cq->pi += n;
	cq->file->vhca->zip_sessions++;
	cq->file->vhca->zip_cqes += n;
}

void
mlx5_sim_cq_zip_put_armed(struct mlx5_sim_guard *g, struct mlx5_sim_card *card,
			  struct mlx5_sim_cq *cq, const struct mlx5_cqe64 *cqe)
{
	struct mlx5_mini_cqe8 *m;

	/* Nothing else is written while it is open: it starts at pi. */
	if (cq->zip_n != 0 &&
	    (cq->zip_n >= cq->zip_max ||
	     (cq->pi & ((1u << cq->log_size) - 1)) + cq->zip_n >=
		     (1u << cq->log_size) ||
	     !sim_zip_joins(cq, cqe))) {
		sim_zip_write_armed(g, cq);
		/* It overran: the CQ is stopped, this CQE lost with it. */
		if (unlikely(cq->status != 0)) {
			cq->lost++;
			return;
		}
	}
	if (cq->zip_n == 0) {
		cq->zip_title = *cqe;
		if (!cq->zip_listed) {
			cq->zip_next = card->zip_open;
			card->zip_open = cq;
			cq->zip_listed = true;
		}
	}
	m = &cq->zip_mini[cq->zip_n++];
	if (cq->zip_fmt == MLX5_MINI_CQE_FORMAT_HASH) {
		m->rx_hash_result =
			((const struct mlx5_cqe_eth *)(const void *)cqe)
				->rss_hash_result;
	} else {
		m->checksum = ((const struct mlx5_cqe_eth *)(const void *)cqe)
				      ->check_sum;
		m->stride_idx = 0;
	}
	m->byte_cnt = cqe->byte_cnt;
}

/*
 * Under a guard of its own, put CQE @tmpl in @cq, or with @tmpl NULL
 * write the CQ's open session: 1, 0 when the CQ is full (overrun), -1 when
 * the ring faulted (the CQ stops: status 0xa).
 */
static int
sim_cq_put_guarded(struct mlx5_sim_cq *cq, const struct mlx5_cqe64 *tmpl)
{
	struct mlx5_sim_guard guard;
	bool put = true;

	if (mlx5_sim_guard_push(&guard) != 0) {
		cq->zip_n = 0;
		cq->status = MLX5_SIM_CQ_STATUS_WRITE_FAIL;
		return -1;
	}
	if (MLX5_SIM_GUARD_SETJMP(&guard) != 0) {
		mlx5_sim_guard_pop(&guard);
		cq->status = MLX5_SIM_CQ_STATUS_WRITE_FAIL;
		return -1;
	}
	if (tmpl != NULL)
		put = mlx5_sim_cqe_put_armed(&guard, cq, tmpl);
	else
		sim_zip_write_armed(&guard, cq);
	mlx5_sim_guard_pop(&guard);
	return put ? 1 : 0;
}

void
mlx5_sim_cq_zip_close_all(struct mlx5_sim_card *card)
{
	struct mlx5_sim_cq *cq;

	while ((cq = card->zip_open) != NULL) {
		card->zip_open = cq->zip_next;
		cq->zip_next = NULL;
		cq->zip_listed = false;
		if (cq->zip_n == 0)
			continue;
		if (cq->status != 0) {
			/* A stopped CQ: the session is lost with it. */
			cq->lost += cq->zip_n;
			cq->zip_n = 0;
		} else {
			sim_cq_put_guarded(cq, NULL);
		}
	}
}

__rte_noinline void
mlx5_sim_copy_armed(struct mlx5_sim_guard *g, void *dst, const void *src,
		    size_t len)
{
	mlx5_sim_guard_arm(g);
	memcpy(dst, src, len);
	mlx5_sim_guard_disarm(g);
}

/* The CQ a completion goes to: write one CQE under a guard of its own. */
void
mlx5_sim_cq_write(struct mlx5_sim_vhca *vhca, uint32_t cqn,
		  const struct mlx5_cqe64 *tmpl)
{
	mlx5_sim_cq_write_se(vhca, cqn, tmpl, false);
}

void
mlx5_sim_cq_write_se(struct mlx5_sim_vhca *vhca, uint32_t cqn,
		     const struct mlx5_cqe64 *tmpl, bool se)
{
	uint8_t op = tmpl->op_own >> 4;
	struct mlx5_sim_cq *cq = mlx5_sim_idtab_get(&vhca->cqs, cqn);
	int put;

	if (cq == NULL || cq->status != 0)
		return;
	put = sim_cq_put_guarded(cq, tmpl);
	if (put < 0)
		return;
	if (put == 0)
		mlx5_sim_cq_overrun(cq);
	else if (unlikely(cq->armed) &&
		 (!cq->armed_sol || se || op == MLX5_CQE_REQ_ERR ||
		  op == MLX5_CQE_RESP_ERR))
		mlx5_sim_cq_event(cq);
}

void
mlx5_sim_cq_event(struct mlx5_sim_cq *cq)
{
	/* One event per arming: the CQ is armed again to get another. */
	cq->armed = false;
	if (cq->event != NULL)
		cq->event(cq->event_arg);
}

void
mlx5_sim_req_complete(struct mlx5_sim_vhca *vhca, uint32_t cqn, uint32_t qn,
		      uint8_t opcode, uint16_t index, uint8_t syndrome,
		      uint32_t byte_cnt, uint64_t ts)
{
	struct mlx5_cqe64 cqe;

	mlx5_sim_req_cqe(&cqe, qn, opcode, index, syndrome, byte_cnt, ts);
	mlx5_sim_cq_write(vhca, cqn, &cqe);
}

/* The local key's error of a failed transfer. */
uint8_t
mlx5_sim_local_syndrome(int err)
{
	return err == -ENOMEM ? MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR :
	       MLX5_CQE_SYNDROME_LOCAL_PROT_ERR;
}

/*
 * What a fault under the guard of a QP's doorbell hit: the access armed,
 * which says what completes next.
 */
enum sim_qp_armed {
	SIM_QP_ARMED_RING,         /* The send ring: WQEs read ahead or one. */
	SIM_QP_ARMED_DATA,         /* The bytes of an RDMA WRITE or READ. */
};

/*
 * One doorbell of a QP: the one fault guard and what a fault needs. The
 * WQE in flight is a local of sim_qp_wqes() (registers); only a move
 * stores it here, before it arms the guard.
 */
struct sim_qp_run {
	struct mlx5_sim_guard guard;
	volatile uint8_t armed;    /* enum sim_qp_armed. */
	volatile bool per_wqe;     /* A read-ahead faulted: WQE by WQE. */
	/* The move in flight (SIM_QP_ARMED_DATA), its WQE and peer. */
	struct mlx5_sim_wqe wqe;
	struct mlx5_sim_xmove move;
	struct mlx5_sim_qp *peer;
	struct mlx5_sim_ahead ahead;
	/* An XRC initiator's WQE in flight, its XRC segment taken out. */
	uint8_t xrc[MLX5_SIM_WQE_MAX_BYTES] __rte_aligned(16);
};

/*
 * The syndrome of the RDMA WRITE or READ of @r whose move faulted on @qp:
 * that of the side that faulted, as the staged way gives (the source
 * when it cannot be read whole now); a responder's error moves the peer
 * to ERR.
 */
static uint8_t
sim_rdma_fault(struct mlx5_sim_vhca *vhca, struct sim_qp_run *r,
	       struct mlx5_sim_qp *qp)
{
	bool write = r->wqe.opcode == MLX5_OPCODE_RDMA_WRITE;

	/* The local side is the source of a WRITE. */
	if (mlx5_sim_xmove_src_fault(&r->move) == write)
		return mlx5_sim_local_syndrome(-EFAULT);
	/* The straight way is taken within one vHCA only. */
	if (r->peer != qp)
		mlx5_sim_rc_to_err(vhca, r->peer);
	return MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR;
}

/*
 * RDMA WRITE (@write) or READ on @qp of remote address segment @r and
 * the @nseg data segments after it (@total bytes, to or from @peer)
 * through a device buffer, one mlx5_sim_xfer() per side and segment:
 * every check again, the exact error. Returns a CQE syndrome, 0 on
 * success.
 */
static __rte_noinline uint8_t
sim_exec_rdma_staged(struct mlx5_sim_vhca *vhca, struct mlx5_sim_qp *qp,
		     struct mlx5_sim_vhca *pv, struct mlx5_sim_qp *peer,
		     const struct mlx5_wqe_raddr_seg *r, unsigned int nseg,
		     bool write, uint64_t total)
{
	const struct mlx5_wqe_data_seg *d = (const void *)(r + 1);
	uint8_t stage_inl[SIM_STAGE_INLINE];
	uint8_t *stage = stage_inl;
	uint8_t synd = 0;
	unsigned int i;
	uint64_t off;
	int ret;

	if (total > sizeof(stage_inl)) {
		stage = malloc(total);
		if (stage == NULL)
			return MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR;
	}
	if (!write) {
		ret = mlx5_sim_xfer(pv, rte_be_to_cpu_32(r->rkey),
				    mlx5_sim_rc_pdn(peer),
				    rte_be_to_cpu_64(r->raddr), stage, total,
				    MLX5_SIM_XFER_REMOTE);
		if (ret != 0) {
			synd = MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR;
			goto out;
		}
	}
	for (i = 0, off = 0; i < nseg; i++) {
		uint32_t bc = rte_be_to_cpu_32(d[i].byte_count);
		uint64_t len = bc != 0 ? bc : SIM_MAX_MSG;

		ret = mlx5_sim_xfer(vhca, rte_be_to_cpu_32(d[i].lkey), qp->pdn,
				    rte_be_to_cpu_64(d[i].addr), stage + off,
				    len, write ? 0 : MLX5_SIM_XFER_WRITE);
		if (ret != 0) {
			synd = mlx5_sim_local_syndrome(ret);
			goto out;
		}
		off += len;
	}
	if (write) {
		ret = mlx5_sim_xfer(pv, rte_be_to_cpu_32(r->rkey),
				    mlx5_sim_rc_pdn(peer),
				    rte_be_to_cpu_64(r->raddr), stage, total,
				    MLX5_SIM_XFER_WRITE | MLX5_SIM_XFER_REMOTE);
		if (ret != 0)
			synd = MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR;
	}
out:
	if (stage != stage_inl)
		free(stage);
	/* A responder's error moves the peer to ERR too. */
	if (synd == MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR && peer != qp)
		mlx5_sim_rc_to_err(pv, peer);
	return synd;
}

/*
 * RDMA WRITE or READ of WQE @w: the remote address segment, then data
 * segments (the local gather/scatter list). Returns a CQE syndrome, 0 on
 * success, and the bytes moved in @bytes. A fault of the move straight
 * between memories jumps to the guard of @run (sim_rdma_fault()), the
 * WQE stored there first. Inline in the engine's loop; the staged way is
 * a call.
 */
static __rte_always_inline uint8_t
sim_exec_rdma(struct mlx5_sim_vhca *vhca, struct mlx5_sim_qp *qp,
	      struct sim_qp_run *run, const struct mlx5_sim_wqe *w,
	      uint32_t *bytes)
{
	const struct mlx5_wqe_raddr_seg *r = (const void *)
		(w->bytes + sizeof(struct mlx5_wqe_ctrl_seg));
	const struct mlx5_wqe_data_seg *d = (const void *)(r + 1);
	bool write = w->opcode == MLX5_OPCODE_RDMA_WRITE;
	struct mlx5_sim_vhca *pv = NULL;
	struct mlx5_sim_qp *peer;
	uint64_t total = 0;
	unsigned int nseg, i;
	uint8_t synd;

	if (w->ds < 2)
		return MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR;
	nseg = w->ds - 2;
	for (i = 0; i < nseg; i++) {
		uint32_t bc = rte_be_to_cpu_32(d[i].byte_count);

		/* Inline data (a WRITE's): the messages' way; 0 is 2^31. */
		if (bc & MLX5_INLINE_SEG)
			return write ? mlx5_sim_rc_exec(vhca, qp, w, bytes) :
			       MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR;
		total += bc != 0 ? bc : SIM_MAX_MSG;
	}
	if (total > qp->msg_max)
		return MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR;
	/* A peer that does not answer: the requester gives up retrying. */
	synd = mlx5_sim_rc_responder(vhca, qp, &pv, &peer);
	if (synd != 0)
		return synd;
	qp->rnr_left = qp->rnr_retry;
	if ((write ? !peer->rwe : !peer->rre) ||
	    !mlx5_sim_rkey_qp_ok(pv, rte_be_to_cpu_32(r->rkey), peer->qpn))
		return MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR;
	*bytes = (uint32_t)total;
	/* Another vHCA's memory: through a device buffer. */
	if (pv != vhca)
		return sim_exec_rdma_staged(vhca, qp, pv, peer, r, nseg, write,
					    total);
	/* One local segment: straight between the two memories if it can. */
	if (nseg == 1 && write &&
	    mlx5_sim_xfer_write_crypto(vhca, qp->xc,
				       rte_be_to_cpu_32(d[0].lkey), qp->pdn,
				       rte_be_to_cpu_64(d[0].addr),
				       rte_be_to_cpu_32(r->rkey),
				       mlx5_sim_rc_pdn(peer),
				       rte_be_to_cpu_64(r->raddr), total,
				       &run->move) == 0)
		goto move;
	if (nseg == 1) {
		struct mlx5_sim_xside local = {
			.key = rte_be_to_cpu_32(d[0].lkey), .pdn = qp->pdn,
			.addr = rte_be_to_cpu_64(d[0].addr),
			.flags = write ? 0 : MLX5_SIM_XFER_WRITE,
		};
		struct mlx5_sim_xside remote = {
			.key = rte_be_to_cpu_32(r->rkey),
			.pdn = mlx5_sim_rc_pdn(peer),
			.addr = rte_be_to_cpu_64(r->raddr),
			.flags = MLX5_SIM_XFER_REMOTE |
				 (write ? MLX5_SIM_XFER_WRITE : 0),
		};

		if (mlx5_sim_xfer_mem_prep(vhca, qp->xc,
					   write ? &local : &remote,
					   write ? &remote : &local, total,
					   &run->move) == 0)
			goto move;
	}
	return sim_exec_rdma_staged(vhca, qp, vhca, peer, r, nseg, write,
				    total);
move:
	run->wqe = *w;
	run->peer = peer;
	run->armed = SIM_QP_ARMED_DATA;
	mlx5_sim_xmove_armed(&run->guard, &run->move);
	run->armed = SIM_QP_ARMED_RING;
	if (run->move.ret == 0)
		return 0;
	return sim_exec_rdma_staged(vhca, qp, vhca, peer, r, nseg, write,
				    total);
}

/*
 * A WQE of a UC or UD QP: UD sends datagrams (SEND, with immediate);
 * UC what RC does but RDMA READ (no responder resources). Other opcodes
 * are the QP type's local operation errors.
 */
static __rte_noinline uint8_t
sim_exec_unreliable(struct mlx5_sim_vhca *vhca, struct mlx5_sim_qp *qp,
		    const struct mlx5_sim_wqe *w, uint32_t *bytes)
{
	/* A NOP is any send queue's. */
	if (w->opcode == MLX5_OPCODE_NOP)
		return 0;
	if (qp->st == MLX5_QP_ST_UD)
		return mlx5_sim_ud_exec(vhca, qp, w, bytes);
	/* UC: the message way, which drops what RC would NAK or retry. */
	if (w->opcode == MLX5_OPCODE_SEND || w->opcode == MLX5_OPCODE_SEND_IMM ||
	    w->opcode == MLX5_OPCODE_SEND_INVAL ||
	    w->opcode == MLX5_OPCODE_RDMA_WRITE ||
	    w->opcode == MLX5_OPCODE_RDMA_WRITE_IMM)
		return mlx5_sim_rc_exec(vhca, qp, w, bytes);
	return MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR;
}

/*
 * Copy basic blocks [@from, @to) of the WQE at block @first of a ring of
 * @n blocks at @sq into @raw, wrapping around the ring's end: whole
 * 64-byte blocks, copies of a size the compiler knows (no call).
 */
static __rte_always_inline void
sim_wqe_copy_bbs(uint8_t *raw, const uint8_t *sq, uint32_t n, uint32_t first,
		 uint32_t from, uint32_t to)
{
	uint32_t i;

	for (i = from; i < to; i++)
		memcpy(raw + (size_t)i * MLX5_SIM_WQEBB,
		       sq + (size_t)((first + i) & (n - 1)) * MLX5_SIM_WQEBB,
		       MLX5_SIM_WQEBB);
}

/*
 * Copy the WQE at send counter @ci under guard @g, pushed by the caller,
 * which takes the jump of a fault.
 * The ring's bytes are read once, armed: the first basic block (the
 * control segment and what follows it), then, once the control segment
 * says the WQE is one of this queue's, its other blocks. The engine then
 * works on its copy, disarmed: a WQE rewritten in the ring meanwhile
 * changes nothing the device checked, and a fault in the model's own code
 * is never taken for the ring's.
 */
__rte_noinline void
mlx5_sim_wqe_fetch(struct mlx5_sim_guard *g, const uint8_t *sq, uint32_t n,
		   uint32_t qn, uint16_t ci, uint8_t *raw)
{
	uint32_t first = ci & (n - 1);
	struct mlx5_sim_wqe w;

	mlx5_sim_guard_arm(g);
	sim_wqe_copy_bbs(raw, sq, n, first, 0, 1);
	mlx5_sim_guard_disarm(g);
	/* The rest of the WQE, which may wrap around the ring. */
	if (mlx5_sim_wqe_parse(raw, n, qn, &w) == 0 && w.bbs > 1) {
		mlx5_sim_guard_arm(g);
		sim_wqe_copy_bbs(raw, sq, n, first, 1, w.bbs);
		mlx5_sim_guard_disarm(g);
	}
}

/*
 * The end of WQE @w of @qp (its syndrome @synd, 0 if it succeeded, and
 * @bytes moved) with doorbell counter @pi on a ring of @n basic blocks:
 * true if the engine stops there (the doorbell's last WQE done).
 */
static __rte_always_inline bool
sim_qp_wqe_end(struct mlx5_sim_vhca *vhca, struct mlx5_sim_qp *qp,
	       const struct mlx5_sim_wqe *w, uint8_t synd, uint32_t bytes,
	       uint32_t pi, uint32_t n)
{
	qp->sq_ci += w->bbs;
	/* An error always completes; the QP then flushes the rest. */
	if (synd != 0 || mlx5_sim_wqe_signaled(w))
		mlx5_sim_req_complete(vhca, qp->cqn_snd, qp->qpn, w->opcode,
				      mlx5_sim_wqe_index(w), synd, bytes, 0);
	if (unlikely(synd != 0) && qp->state == MLX5_QP_STATE_RTS) {
		SIM_LOG(DEBUG, "%s: QP 0x%x: WQE %u opcode 0x%x:"
			" error completion, syndrome 0x%x",
			vhca->ibdev.name, qp->qpn, mlx5_sim_wqe_index(w),
			w->opcode, synd);
		mlx5_sim_rc_to_err(vhca, qp);
	}
	/*
	 * The last WQE of the doorbell (none left: (uint16_t)-1 >= n), or a
	 * doorbell beyond the WQEs posted (more than the ring left): stop
	 * at the counter. Rings of at most 2^15 blocks: a 16-bit distance.
	 */
	RTE_BUILD_BUG_ON(MLX5_SIM_LOG_MAX_QP_SZ > 15);
	return (uint16_t)(pi - qp->sq_ci - 1) >= n;
}

__rte_noinline void
mlx5_sim_read_ahead(struct mlx5_sim_guard *g, struct mlx5_sim_ahead *a,
		    const uint8_t *sq, uint32_t n, uint32_t idx, uint32_t pi,
		    uint32_t ci)
{
	uint32_t len = RTE_MIN((pi - ci) & 0xffff, n - idx);

	len = RTE_MIN(len, (uint32_t)MLX5_SIM_READ_AHEAD);
	a->first = idx;
	a->len = 0;
	mlx5_sim_guard_arm(g);
	memcpy(a->blocks, sq + (size_t)idx * MLX5_SIM_WQEBB,
	       (size_t)len * MLX5_SIM_WQEBB);
	mlx5_sim_guard_disarm(g);
	a->len = len;
}

/*
 * An XRC initiator's WQE @w (not a UMR: local invalidation and binds
 * have none): the XRC segment after its control segment names the XRC
 * SRQ of the message (qp->xrc_srqn, the packet's XRCETH); the rest runs
 * as an RC WQE does, from a copy in @r without that segment. false: the
 * WQE has no room for it.
 */
static bool
sim_xrc_wqe(struct sim_qp_run *r, struct mlx5_sim_qp *qp,
	    struct mlx5_sim_wqe *w)
{
	const struct mlx5_wqe_xrc_seg *x = (const void *)(w->bytes + 16);

	if (w->opcode == MLX5_OPCODE_NOP)
		return true;
	if (w->ds < 2)
		return false;
	qp->xrc_srqn = rte_be_to_cpu_32(x->xrc_srqn) & 0xffffff;
	memcpy(r->xrc, w->bytes, 16);
	memcpy(r->xrc + 16, w->bytes + 32, (size_t)(w->ds - 2) * 16);
	w->bytes = r->xrc;
	w->ds--;
	return true;
}

/*
 * The WQEs of the doorbell of @r on @qp, from the QP's send counter to
 * the doorbell's @pi, on ring @sq of @n blocks, read ahead or, with
 * @per_wqe, one by one. A function of its own, called under the guard
 * the caller set its jump on: no jump returns into it, so the compiler
 * keeps its state in registers (a function that sets the jump has every
 * variable in memory), the WQE in flight too; what a fault needs is in
 * @r and @qp (the send counter, written back after each WQE).
 */
static __rte_noinline void
sim_qp_wqes(struct mlx5_sim_vhca *vhca, struct mlx5_sim_qp *qp,
	    struct sim_qp_run *r, const uint8_t *sq, uint32_t n, uint32_t pi,
	    bool per_wqe)
{
	if (qp->sq_ci == pi)
		return;
	for (;;) {
		struct mlx5_sim_wqe w;
		uint32_t bytes = 0;
		uint8_t synd;
		int ret;

		ret = mlx5_sim_wqe_next(&r->guard, &r->ahead, sq, n, qp->qpn,
					qp->sq_ci, pi, per_wqe, &w);
		if (unlikely(ret != 0)) {
			/* Not a WQE: an error completion, one block consumed. */
			synd = MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR;
			w.bbs = 1;
		} else if (unlikely(qp->state == MLX5_QP_STATE_ERR)) {
			synd = MLX5_CQE_SYNDROME_WR_FLUSH_ERR;
		} else if (w.opcode == MLX5_OPCODE_UMR) {
			synd = mlx5_sim_umr_exec(vhca, qp, w.bytes, w.ds);
		} else if (unlikely(qp->st == MLX5_QP_ST_XRC) &&
			   !sim_xrc_wqe(r, qp, &w)) {
			synd = MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR;
		} else if (unlikely(qp->st != MLX5_QP_ST_RC &&
				    qp->st != MLX5_QP_ST_XRC)) {
			synd = sim_exec_unreliable(vhca, qp, &w, &bytes);
		} else if (w.opcode == MLX5_OPCODE_RDMA_WRITE ||
			   w.opcode == MLX5_OPCODE_RDMA_READ) {
			synd = sim_exec_rdma(vhca, qp, r, &w, &bytes);
		} else if (w.opcode == MLX5_OPCODE_SEND ||
			   w.opcode == MLX5_OPCODE_SEND_IMM ||
			   w.opcode == MLX5_OPCODE_SEND_INVAL ||
			   w.opcode == MLX5_OPCODE_RDMA_WRITE_IMM) {
			synd = mlx5_sim_rc_exec(vhca, qp, &w, &bytes);
		} else if (w.opcode == MLX5_OPCODE_ATOMIC_CS ||
			   w.opcode == MLX5_OPCODE_ATOMIC_FA) {
			synd = mlx5_sim_rc_atomic(vhca, qp, &w, &bytes);
		} else {
			synd = w.opcode == MLX5_OPCODE_NOP ? 0 :
			       MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR;
		}
		if (unlikely(synd == MLX5_SIM_RC_RNR)) {
			/* Receiver not ready: this WQE again at a retry. */
			qp->rnr_wait = true;
			qp->rnr_pass = vhca->rnr_pass;
			vhca->rnr_waiters++;
			break;
		}
		if (sim_qp_wqe_end(vhca, qp, &w, synd, bytes, pi, n))
			break;
	}
}

void
mlx5_sim_engine_qp(struct mlx5_sim_vhca *vhca, struct mlx5_sim_qp *qp)
{
	const uint8_t *sq = qp->ring.host + (qp->no_rq ? 0 :
			    ((size_t)MLX5_RQ_STRIDE_UNIT <<
			     (qp->log_rq_size + qp->log_rq_stride)));
	uint32_t n = 1u << qp->log_sq_size;
	struct sim_qp_run run;
	struct sim_qp_run *r = &run;
	uint32_t pi;

	if (qp->state != MLX5_QP_STATE_RTS && qp->state != MLX5_QP_STATE_ERR)
		return; /* Work waits for RTS (RST: the counters restart). */
	if (unlikely(qp->no_sq))
		return; /* An XRC target: no send queue to run. */
	/* Stalled in this same pass: the retry waits for a later one. */
	if (unlikely(qp->rnr_wait) && qp->rnr_pass == vhca->rnr_pass &&
	    qp->state == MLX5_QP_STATE_RTS)
		return;
	mlx5_sim_rc_rnr_clear(vhca, qp);
	if (!mlx5_sim_dbr_read(qp->dbr.host, 1, &pi) ||
	    mlx5_sim_guard_push(&r->guard) != 0) {
		qp->state = MLX5_QP_STATE_ERR;
		return;
	}
	pi &= 0xffff;
	r->armed = SIM_QP_ARMED_RING;
	r->per_wqe = false;
	r->ahead.first = 0;
	r->ahead.len = 0;
	/*
	 * One guard for the doorbell's WQEs, armed only while the ring is
	 * read and while an RDMA WRITE's or READ's bytes move. The WQEs
	 * posted are read ahead, up to MLX5_SIM_READ_AHEAD blocks in one
	 * copy, and executed from that copy. A fault there comes back here:
	 * from then on this doorbell's WQEs are read one by one
	 * (mlx5_sim_wqe_fetch()), the first again. A fault of such a read
	 * comes back here too, with the send counter in the QP: the WQE
	 * there is not a WQE, one block consumed, and the engine goes on
	 * with the next, as after any error completion. A fault of a move
	 * completes its WQE with the error of the side that faulted
	 * (sim_rdma_fault()), and the engine goes on.
	 */
	if (MLX5_SIM_GUARD_SETJMP(&r->guard) != 0) {
		if (r->armed == SIM_QP_ARMED_DATA) {
			r->armed = SIM_QP_ARMED_RING;
			if (sim_qp_wqe_end(vhca, qp, &r->wqe,
					   sim_rdma_fault(vhca, r, qp),
					   (uint32_t)r->move.len, pi, n))
				goto out;
		} else if (!r->per_wqe) {
			/* WQE by WQE: the read-ahead empty (wqe_next). */
			r->per_wqe = true;
			r->ahead.len = 0;
		} else {
			struct mlx5_wqe_ctrl_seg ctrl;
			struct mlx5_sim_wqe w;

			mlx5_sim_wqe_unread(&w, &ctrl, qp->sq_ci);
			if (sim_qp_wqe_end(vhca, qp, &w,
					   MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR,
					   0, pi, n))
				goto out;
		}
	}
	sim_qp_wqes(vhca, qp, r, sq, n, pi, r->per_wqe);
out:
	mlx5_sim_guard_pop(&r->guard);
	/* Receives posted to a QP in ERR are flushed as it runs. */
	if (unlikely(qp->state == MLX5_QP_STATE_ERR))
		mlx5_sim_rc_flush_rq(vhca, qp);
}

void
mlx5_sim_uar_kick(struct mlx5dv_devx_uar *dv, uint64_t db)
{
	struct mlx5_sim_uar *uar;
	struct mlx5_sim_vhca *vhca;

	if (dv == NULL)
		return;
	uar = MLX5_SIM_OF(dv, struct mlx5_sim_uar, dv);
	if (uar->magic != MLX5_SIM_MAGIC_UAR)
		return;
	vhca = uar->file->vhca;
	mlx5_sim_vhca_lock(vhca);
	mlx5_sim_uar_kick_locked(uar, db);
	mlx5_sim_vhca_unlock(vhca);
}

void
mlx5_sim_uar_kick_locked(struct mlx5_sim_uar *uar, uint64_t db)
{
	struct mlx5_sim_vhca *vhca = uar->file->vhca;
	struct mlx5dv_devx_uar *dv = &uar->dv;
	struct mlx5_sim_qp *qp;
	struct mlx5_sim_sq *sq;
	uint32_t qpn;

	/* The doorbell's 8 bytes: opmod_idx_opcode, then qpn_ds. */
	qpn = rte_be_to_cpu_32(((const uint32_t *)&db)[1]) >> 8;
	/* A pass of its own: what stalled before may try again. */
	vhca->rnr_pass++;
	qp = mlx5_sim_qnum_get(&vhca->qps, qpn, MLX5_SIM_Q_QP);
	sq = mlx5_sim_qnum_get(&vhca->qps, qpn, MLX5_SIM_Q_SQ);
	/* A doorbell reaches the QPs and SQs of that UAR page only. */
	if (qp != NULL && qp->file == uar->file &&
	    qp->uar_page == dv->page_id)
		mlx5_sim_engine_qp(vhca, qp);
	else if (sq != NULL && sq->wq.file == uar->file &&
		 sq->wq.uar_page == dv->page_id)
		mlx5_sim_engine_sq(vhca, sq);
	else
		vhca->stray_doorbells++;
	/* Sends waiting on a receiver try again; ERR QPs flush. */
	if (unlikely(vhca->rnr_waiters != 0 || vhca->err_qps))
		mlx5_sim_rc_pass(vhca);
}
