/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * RC messages between QPs: where a QP's packets go, SEND (with immediate,
 * with invalidate) and RDMA WRITE with immediate (the responder's receive
 * queue), inline data, receiver not ready, and the flush of a receive
 * queue. The engine
 * (mlx5_sim_engine.c) calls these for the WQEs it runs; all under the
 * card lock.
 *
 * The path. A QP moved to RTR with force loopback (the address path's
 * fl) reaches QPs of its own vHCA. Otherwise its packets are RoCE frames
 * to the address path's destination MAC (rmac, which the kernel resolves
 * from the destination GID): the vHCA's own vport MAC loops back inside
 * the NIC (mlx5_ib enables local loopback for RoCE user contexts, so two
 * QPs of one port talk, as rdma-core's tests expect), the MAC of the
 * vHCA at the far end of the QP's port cable goes there, and any other
 * MAC goes nowhere: the requester retries until TRANSPORT_RETRY_EXC_ERR.
 * A responder answers only if it is in RTR or RTS, connected back to the
 * requester's QP number over a path that reaches the requester (its ACKs
 * must come back); otherwise the requester's retries are exhausted too.
 *
 * The responder (IBTA 9.7.5, the mlx5 CQE syndromes): a SEND or a WRITE
 * with immediate takes the next receive WQE (data segments, ending at a
 * zero length or MLX5_INVALID_LKEY); none posted is an RNR NAK (below).
 * Bytes that do not fit the WQE's segments: the responder completes with
 * LOCAL_LENGTH_ERR and the requester with REMOTE_INVAL_REQ_ERR; a
 * segment the responder may not write (key, PD, rights, range): the
 * responder completes with LOCAL_PROT_ERR and the requester with
 * REMOTE_OP_ERR (a NAK "remote operational error"), as rdma-core's
 * test_mr expects after re-registering a receive buffer. Either moves
 * both QPs to ERR. A good message completes on the responder's receive
 * CQ: RESP_SEND, RESP_SEND_IMM or RESP_WR_IMM, the byte count, the
 * immediate as the WQE's control segment carried it, and the requester's
 * QP number.
 *
 * Receiver not ready: the requester's send queue stops at that WQE (it is
 * not consumed) and tries again at each later pass of the vHCA
 * (mlx5_sim_rc_pass(): each doorbell of the vHCA after the one it
 * stalled in, and each pass of the doorbell thread when it runs); an
 * rnr_retry of 7 retries for ever, a smaller one that many times, then
 * RNR_RETRY_EXC_ERR. The model keeps no clock: a retry is one such pass,
 * not min_rnr_timer. A retry sends the message again: its bytes are read
 * again, as a retransmission reads them.
 *
 * A QP that enters ERR, by a command or by an error of its own or of its
 * peer, flushes the receive WQEs posted (RESP_ERR with WR_FLUSH_ERR, one
 * per WQE, in order); receives posted later are flushed at the next pass
 * of the vHCA (IBTA 10.3.1: in the Error state, work requests posted
 * complete in error).
 *
 * SEND with invalidate (IBTA 10.6.7.2): the responder also invalidates the
 * key the control segment's immediate names, which must be a key of the
 * responder QP's PD created with remote invalidation enabled (mkc
 * en_rinval, mlx5dv's MLX5DV_MKEY_INIT_ATTR_FLAGS_REMOTE_INVALIDATE); the
 * key is then free, as after a local invalidation, and the receive CQE is
 * RESP_SEND_INV carrying the key. Any other key is the request's error
 * (checked before anything is written): the responder completes with
 * LOCAL_PROT_ERR and the requester with REMOTE_INVAL_REQ_ERR (the model's
 * choice of syndromes; no public source gives mlx5's).
 *
 * Atomics (IBTA 9.4.5; mlx5's compare and swap, fetch and add on 8
 * bytes): the responder needs remote atomic enabled on its QP (qpc rae)
 * and the atomic right on its key, else REMOTE_ACCESS_ERR with the
 * responder in ERR; a remote address not 8-byte aligned is an invalid
 * request (REMOTE_INVAL_REQ_ERR, the responder in ERR too). The 8 bytes
 * are an integer in the host's byte order (mlx5_core sets the device's
 * atomic_req_8B_endianness_mode to host endianness where the device can,
 * as a ConnectX-6 Dx can); the operands come big-endian in the WQE. The
 * original value lands in the requester's 8-byte buffer (a shorter one
 * is LOCAL_LENGTH_ERR); the device's lock makes the operation atomic
 * against the device's other operations, not against the CPU (hardware
 * promises no more).
 *
 * UC (IBTA 9.9: no ACK, no NAK, no RNR): what RC would NAK or retry is
 * dropped at the responder, which stays as it is (no error state for a
 * bad R_Key or length), and the requester completes as sent.
 *
 * XRC (IBTA's XRC annex; mlx5: qpc.st XRC, the WQE's XRC segment): an
 * initiator QP (a send queue only) is connected to a target QP (no send
 * queue, an XRC domain); each message names an XRC SRQ (the packet's
 * XRCETH), which must be of the target's domain. The message is then
 * received as on an RC QP with that SRQ: its WQEs, its CQ (the CQE
 * carrying the SRQ's user index and the target's QP number), and its PD,
 * against which the target's RDMA and atomic accesses are checked
 * (IBTA: the XRC SRQ's PD, not the target's, which has none). Another
 * domain's SRQ, or none, is an invalid request (mlx5_sim_rc_responder).
 * Packets of another transport are not answered: RC reaches RC, UC
 * reaches UC, an XRC initiator an XRC target.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_common.h>

#include "mlx5_sim_wire.h"
#include "mlx5_sim_wqe.h"

/* Messages up to this size are staged on the stack. */
#define SIM_RC_STAGE_INLINE 4096
/* A UD datagram: one packet of the largest path MTU; the GRH before it. */
#define SIM_UD_MTU 4096
#define SIM_GRH_LEN 40
/* The GRH's next header: a BTH (RoCE v1), UDP (RoCE v2 over IPv6). */
#define SIM_GRH_NH_BTH 0x1b
#define SIM_GRH_NH_UDP 0x11
/* flags_rqpn of a responder CQE: a GRH came first. */
#define SIM_CQE_GRH (UINT32_C(1) << 28)
/* A receive WQE: at most 32 data segments (MLX5_SIM max_recv_sge). */
#define SIM_RC_RWQE_MAX 512

/* The vHCA that @qp's packets reach, or NULL (they go nowhere). */
static struct mlx5_sim_vhca *
sim_rc_route(struct mlx5_sim_vhca *vhca, const struct mlx5_sim_qp *qp)
{
	static const uint8_t none[6];
	struct mlx5_sim_vhca *far;
	uint8_t mac[6];
	unsigned int fpi;

	if (qp->fl)
		return vhca;
	if (memcmp(qp->rmac, none, sizeof(none)) == 0)
		return NULL;
	mlx5_sim_vhca_mac(vhca, mac);
	if (memcmp(mac, qp->rmac, sizeof(mac)) == 0)
		return vhca;
	far = qp->port >= 1 ? mlx5_sim_port_far(vhca, qp->port - 1u, &fpi) :
			      NULL;
	if (far == NULL)
		return NULL;
	mlx5_sim_vhca_mac(far, mac);
	return memcmp(mac, qp->rmac, sizeof(mac)) == 0 ? far : NULL;
}

/*
 * The QP @qp's messages reach on @far (connected back to it, in RTR or
 * RTS, of the same transport: RC to RC, UC to UC, an XRC initiator to an
 * XRC target), or NULL.
 */
static struct mlx5_sim_qp *
sim_rc_peer(struct mlx5_sim_vhca *vhca, struct mlx5_sim_vhca *far,
	    struct mlx5_sim_qp *qp)
{
	struct mlx5_sim_qp *peer;

	/* Connected to itself: it is in RTS and connected back. */
	if (far == vhca && qp->remote_qpn == qp->qpn &&
	    qp->st != MLX5_QP_ST_XRC)
		return qp;
	peer = mlx5_sim_qnum_get(&far->qps, qp->remote_qpn, MLX5_SIM_Q_QP);
	if (peer == NULL || peer->st != qp->st ||
	    (peer->state != MLX5_QP_STATE_RTR &&
	     peer->state != MLX5_QP_STATE_RTS) ||
	    peer->remote_qpn != qp->qpn || sim_rc_route(far, peer) != vhca)
		return NULL;
	/* XRC: an initiator's packets go to a target, never back. */
	if (qp->st == MLX5_QP_ST_XRC && (qp->no_sq || !peer->no_sq))
		return NULL;
	return peer;
}

uint8_t
mlx5_sim_rc_responder(struct mlx5_sim_vhca *vhca, struct mlx5_sim_qp *qp,
		      struct mlx5_sim_vhca **pv, struct mlx5_sim_qp **p)
{
	struct mlx5_sim_vhca *far = sim_rc_route(vhca, qp);
	struct mlx5_sim_qp *peer =
		far != NULL ? sim_rc_peer(vhca, far, qp) : NULL;
	struct mlx5_sim_rmp *srq;

	if (peer == NULL)
		return MLX5_CQE_SYNDROME_TRANSPORT_RETRY_EXC_ERR;
	*pv = far;
	*p = peer;
	if (likely(qp->st != MLX5_QP_ST_XRC))
		return 0;
	/*
	 * The XRCETH's SRQ, which must be of the target's XRC domain. Any
	 * other is an invalid request: the target moves to ERR and the
	 * initiator completes with REMOTE_INVAL_REQ_ERR (the model's choice,
	 * as for its other invalid requests; no public source gives
	 * mlx5's).
	 */
	srq = mlx5_sim_qnum_get(&far->qps, qp->xrc_srqn, MLX5_SIM_Q_XSRQ);
	peer->xrc_srq = srq != NULL && srq->xrcdn == peer->xrcdn ? srq : NULL;
	if (peer->xrc_srq != NULL)
		return 0;
	mlx5_sim_rc_to_err(far, peer);
	return MLX5_CQE_SYNDROME_REMOTE_INVAL_REQ_ERR;
}

/*
 * The SRQ's head WQE taken: the head moves to the WQE its next segment
 * names (mlx5_wqe_srq_next_seg's next_wqe_index); an unreadable ring
 * leaves it (the next receive fails to read its WQE).
 */
static void
sim_rc_srq_next(struct mlx5_sim_rmp *rmp)
{
	const uint8_t *wqe = rmp->wq.ring.host +
			     ((size_t)rmp->head << rmp->wq.log_wq_stride);
	rte_be16_t next;

	rmp->taken++;
	if (mlx5_sim_copy_guarded(&next, wqe + 2, sizeof(next)) == 0)
		rmp->head = rte_be_to_cpu_16(next) &
			    ((1u << rmp->wq.log_wq_sz) - 1);
}

/*
 * A responder's CQE on @p's receive CQ: good, or @synd; @se, the message
 * asked for a solicited event.
 */
static void
sim_rc_resp_cqe(struct mlx5_sim_vhca *pv, struct mlx5_sim_qp *p, uint8_t opcode,
		uint8_t synd, uint32_t bytes, uint32_t imm, uint32_t rqpn,
		bool se)
{
	/* The WQE taken: the RQ's next, or the SRQ list's head. */
	struct mlx5_sim_rmp *srq = mlx5_sim_rc_srq(p);
	uint16_t idx = srq != NULL ? srq->head : (uint16_t)p->rq_ci;
	/* An XRC SRQ's CQEs carry its user index (libmlx5 finds it so). */
	rte_be32_t uidx =
		srq != NULL && srq->qkind == MLX5_SIM_Q_XSRQ ?
			rte_cpu_to_be_32(srq->wq.user_index & 0xffffff) :
			0;
	struct mlx5_cqe64 cqe;

	memset(&cqe, 0, sizeof(cqe));
	if (synd != 0) {
		struct mlx5_err_cqe *err = (struct mlx5_err_cqe *)&cqe;

		err->syndrome = synd;
		err->srqn = uidx;
		err->s_wqe_opcode_qpn = rte_cpu_to_be_32(p->qpn);
		err->wqe_counter = rte_cpu_to_be_16(idx);
		err->op_own = MLX5_CQE_RESP_ERR << 4;
	} else {
		cqe.byte_cnt = rte_cpu_to_be_32(bytes);
		cqe.imm_inval_pkey = imm;
		/* The source QP, and whether a GRH came first (bit 28). */
		cqe.flags_rqpn = rte_cpu_to_be_32(rqpn);
		cqe.srqn_uidx = uidx;
		cqe.sop_drop_qpn = rte_cpu_to_be_32(p->qpn);
		cqe.wqe_counter = rte_cpu_to_be_16(idx);
		cqe.op_own = opcode << 4;
	}
	mlx5_sim_cq_write_se(pv, mlx5_sim_rc_rcqn(p), &cqe, se);
	if (srq != NULL)
		sim_rc_srq_next(srq);
	else
		p->rq_ci++;
}

/* Receive WQEs @qp has posted and not consumed; false if unreadable. */
static bool
sim_rc_rq_posted(const struct mlx5_sim_qp *qp, uint32_t *n)
{
	struct mlx5_sim_rmp *srq = mlx5_sim_rc_srq(qp);
	uint32_t pi;

	/* An SRQ's WQEs: its record counts those posted, 16 bits. */
	if (srq != NULL) {
		if (!mlx5_sim_dbr_read(srq->wq.dbr.host, 0, &pi))
			return false;
		*n = (pi - srq->taken) & 0xffff;
		return true;
	}
	if (qp->no_rq) {
		*n = 0;
		return true;
	}
	if (!mlx5_sim_dbr_read(qp->dbr.host, 0, &pi))
		return false;
	*n = (pi - qp->rq_ci) & 0xffff;
	return true;
}

void
mlx5_sim_rc_flush_rq(struct mlx5_sim_vhca *vhca, struct mlx5_sim_qp *qp)
{
	uint32_t n;

	/* An SRQ's WQEs stay for its other QPs (IBTA). */
	if (qp->state != MLX5_QP_STATE_ERR || mlx5_sim_rc_srq(qp) != NULL ||
	    !sim_rc_rq_posted(qp, &n))
		return;
	while (n-- > 0)
		sim_rc_resp_cqe(vhca, qp, 0, MLX5_CQE_SYNDROME_WR_FLUSH_ERR, 0,
				0, 0, false);
}

void
mlx5_sim_rc_to_err(struct mlx5_sim_vhca *vhca, struct mlx5_sim_qp *qp)
{
	qp->state = MLX5_QP_STATE_ERR;
	vhca->err_qps = true;
	mlx5_sim_rc_flush_rq(vhca, qp);
}

/* @p's responder error: its CQE, @p in ERR, its receives flushed. */
static void
sim_rc_resp_fail(struct mlx5_sim_vhca *pv, struct mlx5_sim_qp *p, uint8_t synd)
{
	sim_rc_resp_cqe(pv, p, 0, synd, 0, 0, 0, false);
	mlx5_sim_rc_to_err(pv, p);
}

/*
 * The bytes of the gather list of @w from segment @first: data segments
 * (local keys of @qp, read) and inline segments, into @stage (@cap bytes)
 * or, if more, a buffer this allocates (*@big, the caller frees). A
 * message longer than @max is the requester's length error, found before
 * anything is read or allocated. Returns a requester syndrome, 0 with
 * the length in @total.
 */
static uint8_t
sim_rc_gather(struct mlx5_sim_vhca *vhca, struct mlx5_sim_qp *qp,
	      const struct mlx5_sim_wqe *w, unsigned int first, uint8_t *stage,
	      size_t cap, uint64_t max, uint8_t **big, uint64_t *total)
{
	const uint8_t *seg = w->bytes + first * 16u;
	const uint8_t *end = w->bytes + w->ds * 16u;
	uint8_t *buf = stage;
	uint64_t len = 0;
	const uint8_t *s;
	int pass;

	*big = NULL;
	/* Sizes first (nothing is read before the WQE is known good). */
	for (pass = 0; pass < 2; pass++) {
		uint64_t off = 0;

		for (s = seg; s < end;) {
			uint32_t bc = rte_be_to_cpu_32(
				*(const uint32_t *)(const void *)s);

			if (bc & MLX5_INLINE_SEG) {
				uint32_t n = bc & ~MLX5_INLINE_SEG;
				size_t segs = RTE_ALIGN_CEIL(4 + n, 16) / 16;

				if (s + segs * 16 > end)
					return MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR;
				if (pass == 1)
					memcpy(buf + off, s + 4, n);
				off += n;
				s += segs * 16;
				continue;
			} else {
				const struct mlx5_wqe_data_seg *d =
					(const void *)s;
				uint64_t n =
					bc != 0 ? bc : MLX5_SIM_DMA_MAX_LEN;
				int ret;

				if (pass == 1) {
					ret = mlx5_sim_xfer(
						vhca, rte_be_to_cpu_32(d->lkey),
						qp->pdn,
						rte_be_to_cpu_64(d->addr),
						buf + off, n, 0);
					if (ret != 0)
						return mlx5_sim_local_syndrome(
							ret);
				}
				off += n;
				s += 16;
			}
		}
		if (pass == 0) {
			len = off;
			if (len > max)
				return MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR;
			if (len > cap) {
				*big = malloc(len);
				if (*big == NULL)
					return MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR;
				buf = *big;
			}
		}
	}
	*total = len;
	return 0;
}

/*
 * Scatter @len bytes of @src into the next receive WQE of @p (on @pv):
 * 0, or the responder's syndrome.
 */
static uint8_t
sim_rc_scatter(struct mlx5_sim_vhca *pv, struct mlx5_sim_qp *p, uint8_t *src,
	       uint64_t len)
{
	uint32_t stride = MLX5_RQ_STRIDE_UNIT << p->log_rq_stride;
	uint32_t n = 1u << p->log_rq_size, pdn = p->pdn, i, first = 0;
	const uint8_t *at =
		p->ring.host + (size_t)(p->rq_ci & (n - 1)) * stride;
	struct mlx5_sim_rmp *srq = mlx5_sim_rc_srq(p);
	uint8_t wqe[SIM_RC_RWQE_MAX];
	const struct mlx5_wqe_data_seg *d = (const void *)wqe;

	/*
	 * An SRQ's head WQE: a next segment, then the data segments, whose
	 * keys are of the SRQ's PD.
	 */
	if (srq != NULL) {
		stride = 1u << srq->wq.log_wq_stride;
		at = srq->wq.ring.host + (size_t)srq->head * stride;
		pdn = srq->wq.pdn;
		first = 1;
	}
	if (stride > sizeof(wqe) || mlx5_sim_copy_guarded(wqe, at, stride) != 0)
		return MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR;
	for (i = first; i < stride / sizeof(*d) && len > 0; i++) {
		uint32_t bc = rte_be_to_cpu_32(d[i].byte_count);
		uint32_t lkey = rte_be_to_cpu_32(d[i].lkey);
		uint64_t take;

		if (bc == 0 || lkey == MLX5_INVALID_LKEY)
			break;
		take = RTE_MIN(len, (uint64_t)bc);
		if (mlx5_sim_xfer(pv, lkey, pdn, rte_be_to_cpu_64(d[i].addr),
				  src, take, MLX5_SIM_XFER_WRITE) != 0)
			return MLX5_CQE_SYNDROME_LOCAL_PROT_ERR;
		src += take;
		len -= take;
	}
	return len > 0 ? MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR : 0;
}

/* The requester's syndrome of a responder's error @synd. */
static uint8_t
sim_rc_nak(uint8_t synd)
{
	return synd == MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR ?
		       MLX5_CQE_SYNDROME_REMOTE_INVAL_REQ_ERR :
		       MLX5_CQE_SYNDROME_REMOTE_OP_ERR;
}

/* The key @key that a SEND with invalidate may free on @p, or NULL. */
static struct mlx5_sim_mkey *
sim_rc_inv_key(struct mlx5_sim_vhca *pv, const struct mlx5_sim_qp *p,
	       uint32_t key)
{
	struct mlx5_sim_mkey *k = mlx5_sim_mkey_by_key(pv, key);

	/* A type 2 window only through the QP it is bound to (IBTA). */
	return k != NULL && k->pdn == mlx5_sim_rc_pdn(p) && k->en_rinval &&
			       mlx5_sim_rkey_qp_ok(pv, key, p->qpn) ?
		       k :
		       NULL;
}

/*
 * An RNR NAK for @qp: MLX5_SIM_RC_RNR (wait, the WQE stays), or
 * RNR_RETRY_EXC_ERR once the retries are spent.
 */
static uint8_t
sim_rc_rnr(struct mlx5_sim_qp *qp)
{
	if (qp->rnr_retry != 7) {
		if (qp->rnr_left == 0)
			return MLX5_CQE_SYNDROME_RNR_RETRY_EXC_ERR;
		qp->rnr_left--;
	}
	return MLX5_SIM_RC_RNR;
}

uint8_t
mlx5_sim_rc_exec(struct mlx5_sim_vhca *vhca, struct mlx5_sim_qp *qp,
		 const struct mlx5_sim_wqe *w, uint32_t *bytes)
{
	const struct mlx5_wqe_ctrl_seg *ctrl = (const void *)w->bytes;
	const struct mlx5_wqe_raddr_seg *r = (const void *)(ctrl + 1);
	bool send = w->opcode != MLX5_OPCODE_RDMA_WRITE &&
		    w->opcode != MLX5_OPCODE_RDMA_WRITE_IMM;
	bool imm = w->opcode == MLX5_OPCODE_SEND_IMM ||
		   w->opcode == MLX5_OPCODE_RDMA_WRITE_IMM;
	bool inv = w->opcode == MLX5_OPCODE_SEND_INVAL;
	bool uc = qp->st == MLX5_QP_ST_UC;
	struct mlx5_sim_mkey *ik = NULL;
	uint8_t stage_inl[SIM_RC_STAGE_INLINE];
	struct mlx5_sim_vhca *pv = NULL;
	struct mlx5_sim_qp *p;
	uint8_t *big, synd;
	uint64_t total = 0;
	uint32_t posted;

	if (w->ds < (send ? 1 : 2))
		return MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR;
	synd = sim_rc_gather(vhca, qp, w, send ? 1 : 2, stage_inl,
			     sizeof(stage_inl), qp->msg_max, &big, &total);
	if (synd != 0)
		goto out;
	synd = mlx5_sim_rc_responder(vhca, qp, &pv, &p);
	if (synd != 0) {
		/* UC: no ACK to miss; the message is lost. */
		if (uc)
			synd = 0;
		goto out;
	}
	if (send || imm) {
		if (!sim_rc_rq_posted(p, &posted)) {
			sim_rc_resp_fail(pv, p,
					 MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR);
			synd = uc ? 0 : MLX5_CQE_SYNDROME_REMOTE_OP_ERR;
			goto out;
		}
		if (p->no_rq && mlx5_sim_rc_srq(p) == NULL) {
			/* No receive queue: an invalid request for it. */
			synd = uc ? 0 : MLX5_CQE_SYNDROME_REMOTE_INVAL_REQ_ERR;
			goto out;
		}
		if (posted == 0) {
			/* UC has no RNR NAK: the message is dropped. */
			synd = uc ? 0 : sim_rc_rnr(qp);
			goto out;
		}
	}
	qp->rnr_left = qp->rnr_retry;
	if (!send) {
		if (!p->rwe || !mlx5_sim_rkey_qp_ok(
				       pv, rte_be_to_cpu_32(r->rkey), p->qpn)) {
			synd = MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR;
		} else if (mlx5_sim_xfer(pv, rte_be_to_cpu_32(r->rkey),
					 mlx5_sim_rc_pdn(p),
					 rte_be_to_cpu_64(r->raddr),
					 big != NULL ? big : stage_inl, total,
					 MLX5_SIM_XFER_WRITE |
						 MLX5_SIM_XFER_REMOTE) != 0) {
			synd = MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR;
		}
		if (synd != 0) {
			/* RC: the responder's access error ends it too. */
			if (uc)
				synd = 0;
			else if (p != qp)
				mlx5_sim_rc_to_err(pv, p);
			goto out;
		}
		if (imm)
			sim_rc_resp_cqe(pv, p, MLX5_CQE_RESP_WR_IMM, 0,
					(uint32_t)total, ctrl->imm, qp->qpn,
					ctrl->fm_ce_se &
						MLX5_WQE_CTRL_SOLICITED);
	} else {
		if (unlikely(inv)) {
			ik = sim_rc_inv_key(pv, p, rte_be_to_cpu_32(ctrl->imm));
			/* UC: dropped, the responder as it was. */
			if (ik == NULL && uc)
				goto out;
			if (ik == NULL) {
				sim_rc_resp_fail(
					pv, p,
					MLX5_CQE_SYNDROME_LOCAL_PROT_ERR);
				synd = MLX5_CQE_SYNDROME_REMOTE_INVAL_REQ_ERR;
				goto out;
			}
		}
		synd = sim_rc_scatter(pv, p, big != NULL ? big : stage_inl,
				      total);
		if (synd != 0) {
			sim_rc_resp_fail(pv, p, synd);
			/* UC: no NAK; the requester completes as sent. */
			synd = uc ? 0 : sim_rc_nak(synd);
			goto out;
		}
		if (unlikely(ik != NULL)) {
			ik->free = true;
			mlx5_sim_xgen_bump(pv);
		}
		sim_rc_resp_cqe(pv, p,
				inv ? MLX5_CQE_RESP_SEND_INV :
				imm ? MLX5_CQE_RESP_SEND_IMM :
				      MLX5_CQE_RESP_SEND,
				0, (uint32_t)total, imm || inv ? ctrl->imm : 0,
				qp->qpn,
				ctrl->fm_ce_se & MLX5_WQE_CTRL_SOLICITED);
	}
	*bytes = (uint32_t)total;
out:
	free(big);
	return synd;
}

uint8_t
mlx5_sim_rc_atomic(struct mlx5_sim_vhca *vhca, struct mlx5_sim_qp *qp,
		   const struct mlx5_sim_wqe *w, uint32_t *bytes)
{
	const struct mlx5_wqe_ctrl_seg *ctrl = (const void *)w->bytes;
	const struct mlx5_wqe_raddr_seg *r = (const void *)(ctrl + 1);
	const struct mlx5_wqe_atomic_seg *a = (const void *)(r + 1);
	const struct mlx5_wqe_data_seg *d = (const void *)(a + 1);
	uint64_t raddr = rte_be_to_cpu_64(r->raddr), old, val;
	uint32_t rkey = rte_be_to_cpu_32(r->rkey);
	struct mlx5_sim_vhca *pv = NULL;
	struct mlx5_sim_qp *p;
	uint8_t synd = 0;
	int ret;

	if (w->ds < 4)
		return MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR;
	if (rte_be_to_cpu_32(d->byte_count) < sizeof(old))
		return MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR;
	synd = mlx5_sim_rc_responder(vhca, qp, &pv, &p);
	if (synd != 0)
		return synd;
	qp->rnr_left = qp->rnr_retry;
	if (raddr % sizeof(old) != 0)
		synd = MLX5_CQE_SYNDROME_REMOTE_INVAL_REQ_ERR;
	else if (!p->rae || !mlx5_sim_rkey_qp_ok(pv, rkey, p->qpn) ||
		 mlx5_sim_xfer(
			 pv, rkey, mlx5_sim_rc_pdn(p), raddr, &old, sizeof(old),
			 MLX5_SIM_XFER_REMOTE | MLX5_SIM_XFER_ATOMIC) != 0)
		synd = MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR;
	if (synd != 0) {
		if (p != qp)
			mlx5_sim_rc_to_err(pv, p);
		return synd;
	}
	if (w->opcode == MLX5_OPCODE_ATOMIC_FA)
		val = old + rte_be_to_cpu_64(a->swap_add);
	else
		val = old == rte_be_to_cpu_64(a->compare) ?
			      rte_be_to_cpu_64(a->swap_add) :
			      old;
	if (val != old &&
	    mlx5_sim_xfer(pv, rkey, mlx5_sim_rc_pdn(p), raddr, &val,
			  sizeof(val),
			  MLX5_SIM_XFER_REMOTE | MLX5_SIM_XFER_ATOMIC |
				  MLX5_SIM_XFER_WRITE) != 0) {
		if (p != qp)
			mlx5_sim_rc_to_err(pv, p);
		return MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR;
	}
	ret = mlx5_sim_xfer(vhca, rte_be_to_cpu_32(d->lkey), qp->pdn,
			    rte_be_to_cpu_64(d->addr), &old, sizeof(old),
			    MLX5_SIM_XFER_WRITE);
	if (ret != 0)
		return mlx5_sim_local_syndrome(ret);
	*bytes = sizeof(old);
	return 0;
}

/* The vHCA whose vport MAC is @mac from @vhca's port @port, or NULL. */
static struct mlx5_sim_vhca *
sim_ud_route(struct mlx5_sim_vhca *vhca, uint8_t port, const uint8_t mac[6])
{
	struct mlx5_sim_qp probe = { .port = port };

	memcpy(probe.rmac, mac, sizeof(probe.rmac));
	return sim_rc_route(vhca, &probe);
}

uint8_t
mlx5_sim_ud_exec(struct mlx5_sim_vhca *vhca, struct mlx5_sim_qp *qp,
		 const struct mlx5_sim_wqe *w, uint32_t *bytes)
{
	const struct mlx5_wqe_ctrl_seg *ctrl = (const void *)w->bytes;
	const struct mlx5_wqe_av *av = (const void *)(ctrl + 1);
	uint8_t stage[SIM_UD_MTU], dgram[SIM_GRH_LEN + SIM_UD_MTU];
	bool imm = w->opcode == MLX5_OPCODE_SEND_IMM;
	struct mlx5_sim_vhca *pv;
	struct mlx5_sim_qp *p;
	uint32_t qkey, dqpn, posted;
	uint8_t *big = NULL, synd, mac[6];
	uint64_t total = 0;

	if ((w->opcode != MLX5_OPCODE_SEND && !imm) ||
	    w->ds < 1 + sizeof(*av) / 16)
		return MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR;
	/* A datagram is one packet: the port's RoCE MTU at most. */
	synd = sim_rc_gather(vhca, qp, w, 1 + sizeof(*av) / 16, stage,
			     sizeof(stage), mlx5_sim_roce_mtu(vhca->mtu), &big,
			     &total);
	if (synd != 0)
		return synd;
	*bytes = (uint32_t)total;
	/* From here on nothing reaches the sender: a lost datagram is sent. */
	pv = sim_ud_route(vhca, qp->port, av->rmac);
	dqpn = rte_be_to_cpu_32(av->dqp_dct) & 0xffffff;
	qkey = rte_be_to_cpu_32(av->key.qkey.qkey);
	/* A Q_Key with its high bit set means the sender's own (IBTA). */
	if (qkey & 0x80000000u)
		qkey = qp->q_key;
	p = pv != NULL ? mlx5_sim_qnum_get(&pv->qps, dqpn, MLX5_SIM_Q_QP) :
			 NULL;
	if (p == NULL || p->st != MLX5_QP_ST_UD || p->q_key != qkey ||
	    (p->state != MLX5_QP_STATE_RTR && p->state != MLX5_QP_STATE_RTS) ||
	    !sim_rc_rq_posted(p, &posted) || posted == 0)
		return 0;
	/* The receive buffer takes the GRH (40 bytes), then the payload. */
	memset(dgram, 0, SIM_GRH_LEN);
	dgram[0] = 0x60;
	dgram[4] = (uint8_t)(total >> 8);
	dgram[5] = (uint8_t)total;
	dgram[6] = mlx5_sim_gid_v2((rte_be_to_cpu_32(av->grh_gid_fl) >> 20) &
				   0xff) ?
			   SIM_GRH_NH_UDP :
			   SIM_GRH_NH_BTH;
	dgram[7] = av->hop_limit;
	mlx5_sim_vhca_mac(vhca, mac);
	mlx5_sim_mac_gid(mac, dgram + 8);
	memcpy(dgram + 24, av->rgid, 16);
	memcpy(dgram + SIM_GRH_LEN, stage, total);
	synd = sim_rc_scatter(pv, p, dgram, SIM_GRH_LEN + total);
	if (synd != 0) {
		sim_rc_resp_fail(pv, p, synd);
		return 0;
	}
	sim_rc_resp_cqe(pv, p,
			imm ? MLX5_CQE_RESP_SEND_IMM : MLX5_CQE_RESP_SEND, 0,
			SIM_GRH_LEN + (uint32_t)total, imm ? ctrl->imm : 0,
			SIM_CQE_GRH | qp->qpn,
			ctrl->fm_ce_se & MLX5_WQE_CTRL_SOLICITED);
	return 0;
}

void
mlx5_sim_rc_pass(struct mlx5_sim_vhca *vhca)
{
	bool err = false;
	uint32_t i;

	/* Set again by any QP that enters ERR meanwhile. */
	vhca->err_qps = false;
	for (i = 0; i < vhca->qps.size; i++) {
		struct mlx5_sim_qp *qp =
			mlx5_sim_qnum_get(&vhca->qps, i, MLX5_SIM_Q_QP);

		if (qp == NULL)
			continue;
		/* The engine skips one that stalled in this pass. */
		if (qp->rnr_wait)
			mlx5_sim_engine_qp(vhca, qp);
		if (qp->state == MLX5_QP_STATE_ERR) {
			mlx5_sim_rc_flush_rq(vhca, qp);
			err = true;
		}
	}
	vhca->err_qps |= err;
}

void
mlx5_sim_rc_rnr_clear(struct mlx5_sim_vhca *vhca, struct mlx5_sim_qp *qp)
{
	if (qp->rnr_wait) {
		qp->rnr_wait = false;
		vhca->rnr_waiters--;
	}
}
