/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * The Tx burst, Tx preparation, completions and Tx queue recovery; calls
 * only the log type, the error completions (mlx5_net_err.c), a
 * secondary's state and requests (mlx5_net_proc.c) and the common layer.
 * The queues (mlx5_net_txq.c) and the ethdev ops use it.
 *
 * SEND WQEs, one per packet (control segment, Ethernet segment with the
 * checksum flags and the first txq_inline_min bytes inline, a data
 * segment per mbuf segment), and on a queue of txq_mpw_en enhanced
 * multi-packet WQEs (control and Ethernet segment, then a data segment per
 * packet, up to MLX5_NET_TX_EMPW_MAX); keys from the queue's MR cache or,
 * for a private-IOVA mbuf, its buf_iova; a completion asked at least
 * every MLX5_NET_TX_COMP_THRESH blocks and at the end of each burst; one
 * doorbell per burst. The packets posted are a ring of their own, in
 * order; each WQE's first block names its packets (wqe_pkts), so that a
 * completion frees the packets of every WQE up to the one it names.
 *
 * The fast path, with what is constant for a queue or a burst read once
 * into locals: a one-segment packet with nothing inline whose buffer is
 * in the MR range the queue used last is one 16-byte data segment of an
 * eMPW WQE (packets asking the same checksums share one) or one 64-byte
 * SEND block written as eight words; a completion is asked by runs of
 * MLX5_NET_TX_COMP_THRESH blocks rather than checked per packet;
 * completed mbufs go back straight from the packet ring, to their pool in
 * one copy with MBUF_FAST_FREE. Any other packet (more segments, inline
 * header, private IOVA, another MR range, empty) takes the general path,
 * one SEND WQE at a time.
 *
 * An error completion drops the packets of that WQE (counted) and the
 * queue recovers: what was posted after it is freed (flushed) and the SQ
 * brought back.
 *
 * One burst function for each way a port's queues send (SEND, eMPW, an
 * inline header: its devargs decide, at probe) and process kind, each the
 * same body with that mode a constant: no burst tests it.
 */

#include <rte_branch_prediction.h>
#include <rte_byteorder.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>

#include <mlx5_common_dp.h>

#include "mlx5_net.h"

/*
 * The hot queue struct's layout (mlx5_net.h): what every burst reads in
 * its first 64 bytes, the queue's shape and state and its packet and byte
 * counts in the next 64, the MR cache's top half on a line of its own.
 */
static_assert(offsetof(struct mlx5_net_txq, e_tail) + sizeof(uint32_t) <=
			      RTE_CACHE_LINE_MIN_SIZE &&
		      offsetof(struct mlx5_net_txq, st.bytes) +
				      sizeof(uint64_t) <=
			      2 * RTE_CACHE_LINE_MIN_SIZE &&
		      offsetof(struct mlx5_net_txq, mr) %
				      RTE_CACHE_LINE_MIN_SIZE ==
			      0,
	      "the Tx queue's hot lines");

/*
 * Tx: the first 8 bytes of the Ethernet segment (its checksum flags) for
 * each value of the mbuf's IP_CKSUM and L4 checksum request bits.
 */
#define MLX5_NET_TX_CS_SHIFT 52
static uint64_t mlx5_net_tx_cs_of[8];

/* The Ethernet segment's checksum flags of an mbuf's Tx offload flags. */
static inline uint8_t
mlx5_net_tx_cs(uint64_t ol)
{
	uint64_t l4 = ol & RTE_MBUF_F_TX_L4_MASK;
	uint8_t cs = 0;

	if (ol & RTE_MBUF_F_TX_IP_CKSUM)
		cs |= MLX5_ETH_WQE_L3_CSUM;
	if (l4 == RTE_MBUF_F_TX_TCP_CKSUM || l4 == RTE_MBUF_F_TX_UDP_CKSUM)
		cs |= MLX5_ETH_WQE_L4_CSUM;
	return cs;
}

RTE_INIT(mlx5_net_tx_cs_init)
{
	unsigned int t;

	/* An eMPW WQE's segments fit the control segment's 6-bit count. */
	RTE_BUILD_BUG_ON(2 + MLX5_NET_TX_EMPW_MAX > 0x3f);
	/* The Tx table's index: IP_CKSUM and the L4 request, 3 bits. */
	RTE_BUILD_BUG_ON(RTE_MBUF_F_TX_L4_MASK !=
			 (3ULL << MLX5_NET_TX_CS_SHIFT));
	RTE_BUILD_BUG_ON(RTE_MBUF_F_TX_IP_CKSUM !=
			 (4ULL << MLX5_NET_TX_CS_SHIFT));
	for (t = 0; t < RTE_DIM(mlx5_net_tx_cs_of); t++) {
		struct mlx5_wqe_eth_seg es;

		memset(&es, 0, sizeof(es));
		es.cs_flags =
			mlx5_net_tx_cs((uint64_t)t << MLX5_NET_TX_CS_SHIFT);
		memcpy(&mlx5_net_tx_cs_of[t], &es, sizeof(uint64_t));
	}
}

/*
 * Free the mbufs of packets [e_tail, @end) (completed or dropped) straight
 * from the packet ring. Packets the general path posted may be chains or
 * of other pools: rte_pktmbuf_free_bulk() takes them; otherwise, with
 * MBUF_FAST_FREE (one pool, refcnt 1), the mbufs go back to their pool in
 * one copy.
 */
static __rte_always_inline void
mlx5_net_tx_free(struct mlx5_net_txq *txq, uint32_t end)
{
	uint32_t tail = txq->e_tail;
	uint32_t cnt = end - tail, first = tail & (txq->elts_n - 1);
	uint32_t n1 = RTE_MIN(cnt, txq->elts_n - first);
	struct rte_mbuf **e = txq->elts;

	if (cnt == 0)
		return;
	if (likely(txq->fast_free && !txq->general_pending)) {
		struct rte_mempool *mp = e[first]->pool;

		rte_mempool_put_bulk(mp, (void **)&e[first], n1);
		if (unlikely(cnt > n1))
			rte_mempool_put_bulk(mp, (void **)e, cnt - n1);
	} else {
		rte_pktmbuf_free_bulk(&e[first], n1);
		if (unlikely(cnt > n1))
			rte_pktmbuf_free_bulk(e, cnt - n1);
		/* Past the last packet the general path posted: fast again. */
		if ((int32_t)(txq->general_end - end) <= 0)
			txq->general_pending = false;
	}
	txq->e_tail = end;
}

/* After an error completion @cqe at block @wc: free, count, recover. */
static __rte_noinline void
mlx5_net_tx_error(struct mlx5_net_txq *txq, uint16_t wc,
		  volatile struct mlx5_cqe64 *cqe)
{
	const struct mlx5_net_tx_wqe_pkts *wp =
		&txq->wqe_pkts[wc & (txq->wqe_n - 1)];
	uint32_t mask = txq->elts_n - 1;
	/*
	 * The failed WQE's packets, if @wc is a block posted and not
	 * completed; none otherwise (a device's error on a block that is
	 * not a WQE's first: every packet posted is flushed).
	 */
	bool known = (uint16_t)(wc - txq->ci) < (uint16_t)(txq->pi - txq->ci) &&
		     wp->first - txq->e_tail <= txq->e_head - txq->e_tail &&
		     wp->n <= txq->e_head - wp->first;
	uint32_t first = known ? wp->first : txq->e_tail;
	uint32_t end = known ? wp->first + wp->n : txq->e_tail;

	mlx5_net_err_note(&txq->st, true, txq->port_id, txq->idx, cqe);
	/* The packets before its WQE were sent; its and the rest are not. */
	mlx5_net_tx_free(txq, first);
	/*
	 * Every packet still posted is lost: the failed WQE's (one, or an
	 * eMPW WQE's all) and those posted after it, which the device
	 * flushes (as hardware does).
	 */
	while (txq->e_tail != txq->e_head) {
		struct rte_mbuf *m = txq->elts[txq->e_tail & mask];

		if ((int32_t)(txq->e_tail - end) >= 0)
			txq->st.flushed++;
		txq->st.errors++;
		txq->st.packets--;
		txq->st.bytes -= m->pkt_len;
		rte_pktmbuf_free(m);
		txq->e_tail++;
	}
	txq->ci = txq->pi;
	txq->general_pending = false;
	if (mlx5_net_txq_recover(txq) != 0) {
		DRV_LOG(ERR, "Tx queue %u: recovery failed: %s", txq->idx,
			rte_strerror(rte_errno));
		return;
	}
	txq->st.recoveries++;
	txq->ci = 0;
	txq->last_comp = 0;
}

/* Take the completions: free what they cover; recover after an error. */
static __rte_always_inline void
mlx5_net_tx_complete(struct mlx5_net_txq *txq)
{
	const uint32_t log_cq = txq->log_cq_n;
	const uint32_t cq_mask = (1u << log_cq) - 1;
	uint32_t ci = txq->cq_ci;
	uint16_t upto = txq->ci;

	for (;;) {
		volatile struct mlx5_cqe64 *cqe = &txq->cqes[ci & cq_mask];
		volatile struct mlx5_cqe64 *err;
		uint8_t op_own = cqe->op_own;
		uint16_t wc;

		if ((op_own & MLX5_CQE_OWNER_MASK) != ((ci >> log_cq) & 1))
			break;
		if (unlikely(op_own >= (MLX5_CQE_REQ_ERR << 4))) {
			enum mlx5_cqe_status st =
				mlx5_cqe_status(cqe, log_cq, ci);

			if (st == MLX5_CQE_STATUS_HW_OWN)
				break;
			/* An error: every CQE after it is a flush. */
			wc = rte_be_to_cpu_16(cqe->wqe_counter);
			err = cqe;
			while (mlx5_cqe_status(&txq->cqes[ci & cq_mask], log_cq,
					       ci) != MLX5_CQE_STATUS_HW_OWN)
				ci++;
			txq->cq_ci = ci;
			mlx5_cq_db_update(txq->cq_db, ci);
			mlx5_net_tx_error(txq, wc, err);
			return;
		}
		rte_io_rmb();
		/* The WQE at wc and every one before it are done. */
		wc = rte_be_to_cpu_16(cqe->wqe_counter);
		upto = (uint16_t)(wc + 1);
		ci++;
	}
	if (ci == txq->cq_ci)
		return;
	txq->cq_ci = ci;
	mlx5_cq_db_update(txq->cq_db, ci);
	/*
	 * The WQE at upto - 1 and those before it are done: their packets
	 * go back. txq->ci moves to the block after that WQE's first (the
	 * room it frees is counted when the next completion comes).
	 */
	if ((uint16_t)(upto - 1 - txq->ci) < (uint16_t)(txq->pi - txq->ci)) {
		const struct mlx5_net_tx_wqe_pkts *wp =
			&txq->wqe_pkts[(uint16_t)(upto - 1) & (txq->wqe_n - 1)];

		mlx5_net_tx_free(txq, wp->first + wp->n);
		txq->ci = upto;
	}
}

void
mlx5_net_txq_complete(struct mlx5_net_txq *txq)
{
	mlx5_net_tx_complete(txq);
}

/* Write 16-byte segment @k of the WQE at block @pi (wrapping the ring). */
static __rte_always_inline void *
mlx5_net_tx_seg(struct mlx5_net_txq *txq, uint16_t pi, uint32_t k)
{
	uint32_t off = ((uint32_t)pi * MLX5_SEND_WQE_BB + k * 16) &
		       (txq->wqe_n * MLX5_SEND_WQE_BB - 1);

	return txq->wqes + off;
}

/* What the general Tx path did with a packet. */
enum mlx5_net_tx_res {
	MLX5_NET_TX_POSTED,
	MLX5_NET_TX_DROPPED,
	MLX5_NET_TX_FULL,
};

/*
 * The bytes of @m's first segment the queue inlines: up to txq_inline_min,
 * none from a private-IOVA segment (another vHCA's memory, which the CPU
 * never reads: its bytes go by pointer, under its key).
 */
static __rte_always_inline uint32_t
mlx5_net_tx_inline_len(const struct mlx5_net_txq *txq, const struct rte_mbuf *m,
		       uint64_t piova)
{
	if (m->ol_flags & piova)
		return 0;
	return RTE_MIN((uint32_t)txq->inline_hdr, (uint32_t)m->data_len);
}

/* Inline segments after the Ethernet segment for @inl inlined bytes. */
static __rte_always_inline uint32_t
mlx5_net_tx_inline_segs(uint32_t inl)
{
	return inl > 2 ? (inl - 2 + 15) / 16 : 0;
}

/*
 * The 16-byte segments of @m's WQE: control, Ethernet, inline header and
 * a data segment per non-empty mbuf segment (after the inlined bytes).
 */
static uint32_t
mlx5_net_tx_wqe_ds(const struct mlx5_net_txq *txq, const struct rte_mbuf *m,
		   uint64_t piova)
{
	uint32_t inl = mlx5_net_tx_inline_len(txq, m, piova);
	uint32_t ds = 2 + mlx5_net_tx_inline_segs(inl);
	const struct rte_mbuf *seg;

	for (seg = m; seg != NULL; seg = seg->next)
		ds += seg->data_len > (seg == m ? inl : 0);
	return ds;
}

uint16_t
mlx5_net_tx_max_segs(uint16_t inline_hdr)
{
	return (uint16_t)(MLX5_NET_TX_MAX_WQE_BBS * MLX5_SEND_WQE_BB / 16 - 2 -
			  mlx5_net_tx_inline_segs(inline_hdr));
}

/*
 * A sent or dropped mbuf loses the private-IOVA flag: an mbuf going back
 * to its pool never keeps it (one still referenced elsewhere keeps it).
 */
static __rte_always_inline void
mlx5_net_tx_unflag(struct rte_mbuf *m, uint64_t piova)
{
	for (; m != NULL; m = m->next)
		if ((m->ol_flags & piova) && rte_mbuf_refcnt_read(m) == 1)
			m->ol_flags &= ~piova;
}

/*
 * rte_eth_tx_prepare(): refuse what the burst would drop by itself, a
 * WQE larger than MLX5_NET_TX_MAX_WQE_BBS blocks (too many segments for
 * the queue's inline header), with rte_errno EINVAL.
 */
uint16_t
mlx5_net_tx_prepare(void *q, struct rte_mbuf **pkts, uint16_t n)
{
	struct mlx5_net_txq *txq = q;
	uint64_t piova = txq->mr.private_iova_flag;
	uint16_t i;

	for (i = 0; i < n; i++) {
		uint32_t ds = mlx5_net_tx_wqe_ds(txq, pkts[i], piova);

		if (ds * 16 > MLX5_NET_TX_MAX_WQE_BBS * MLX5_SEND_WQE_BB) {
			DRV_LOG(DEBUG,
				"port %u Tx queue %u: packet of %u segments needs %u WQE segments, at most %u (txq_inline_min %u)",
				txq->port_id, txq->idx, pkts[i]->nb_segs, ds,
				MLX5_NET_TX_MAX_WQE_BBS * MLX5_SEND_WQE_BB / 16,
				txq->inline_hdr);
			rte_errno = EINVAL;
			break;
		}
	}
	return i;
}

/*
 * The general Tx path: one WQE of any shape for @m at txq->pi (a data
 * segment per mbuf segment, empty ones skipped, the inline header), its
 * control segment in *@last.
 */
static __rte_noinline enum mlx5_net_tx_res
mlx5_net_tx_general(struct mlx5_net_txq *txq, struct mlx5_mr_ctrl *mr,
		    struct rte_mbuf *m, struct mlx5_wqe_ctrl_seg **last)
{
	const uint64_t piova = mr->private_iova_flag;
	uint32_t mask = txq->wqe_n - 1;
	uint16_t pi = txq->pi;
	uint32_t inl = mlx5_net_tx_inline_len(txq, m, piova);
	uint32_t inl_segs = mlx5_net_tx_inline_segs(inl);
	uint32_t ds = mlx5_net_tx_wqe_ds(txq, m, piova), bbs, k;
	struct mlx5_wqe_ctrl_seg *ctrl;
	struct mlx5_wqe_eth_seg *es;
	struct rte_mbuf *seg;

	bbs = (ds * 16 + MLX5_SEND_WQE_BB - 1) / MLX5_SEND_WQE_BB;
	if (unlikely(bbs > MLX5_NET_TX_MAX_WQE_BBS)) {
		/* More segments than a WQE holds: dropped. */
		txq->st.errors++;
		txq->st.refused++;
		mlx5_net_tx_unflag(m, piova);
		rte_pktmbuf_free(m);
		return MLX5_NET_TX_DROPPED;
	}
	if (unlikely((uint16_t)(pi - txq->ci) + bbs > txq->wqe_n))
		return MLX5_NET_TX_FULL;
	ctrl = mlx5_net_tx_seg(txq, pi, 0);
	es = mlx5_net_tx_seg(txq, pi, 1);
	/* No LSO (mss 0), no software parsing: zeroes but the flags. */
	*(uint64_t *)(void *)es = 0;
	*((uint32_t *)(void *)es + 2) = 0;
	es->cs_flags = mlx5_net_tx_cs(m->ol_flags);
	es->inline_hdr_sz = rte_cpu_to_be_16((uint16_t)inl);
	if (inl != 0) {
		const uint8_t *src = rte_pktmbuf_mtod(m, const uint8_t *);

		memcpy(es->inline_hdr_start, src, RTE_MIN(inl, 2u));
		for (k = 0; k < inl_segs; k++) {
			uint32_t off = 2 + 16 * k;

			memcpy(mlx5_net_tx_seg(txq, pi, 2 + k), src + off,
			       RTE_MIN(16u, inl - off));
		}
	}
	ds = 2 + inl_segs;
	for (seg = m; seg != NULL; seg = seg->next) {
		uint32_t skip = seg == m ? inl : 0;
		uint32_t len = seg->data_len - skip;
		struct mlx5_wqe_data_seg *d;
		uint32_t lkey;

		if (len == 0)
			continue;
		lkey = mlx5_mr_mb2lkey(mr, seg);
		if (unlikely(lkey == MLX5_MR_LKEY_INVALID))
			break;
		d = mlx5_net_tx_seg(txq, pi, ds++);
		d->byte_count = rte_cpu_to_be_32(len);
		d->lkey = rte_cpu_to_be_32(lkey);
		d->addr = rte_cpu_to_be_64(
			rte_pktmbuf_mtod_offset(seg, uintptr_t, skip));
	}
	if (unlikely(seg != NULL)) {
		/* Memory of no key: the packet cannot be sent. */
		txq->st.errors++;
		txq->st.refused++;
		mlx5_net_tx_unflag(m, piova);
		rte_pktmbuf_free(m);
		return MLX5_NET_TX_DROPPED;
	}
	bbs = (ds * 16 + MLX5_SEND_WQE_BB - 1) / MLX5_SEND_WQE_BB;
	ctrl->opmod_idx_opcode =
		rte_cpu_to_be_32((uint32_t)pi << 8 | MLX5_OPCODE_SEND);
	ctrl->qpn_ds = rte_cpu_to_be_32(txq->sqn << 8 | ds);
	ctrl->signature = 0;
	ctrl->dci_stream_channel_id = 0;
	ctrl->fm_ce_se = 0;
	ctrl->imm = 0;
	if ((uint16_t)(pi + bbs - txq->last_comp) >= MLX5_NET_TX_COMP_THRESH) {
		ctrl->fm_ce_se = MLX5_WQE_CTRL_CQ_UPDATE;
		txq->last_comp = (uint16_t)(pi + bbs);
	}
	/* The packet in the packet ring, its WQE's first block naming it. */
	txq->elts[txq->e_head & (txq->elts_n - 1)] = m;
	txq->wqe_pkts[pi & mask] = (struct mlx5_net_tx_wqe_pkts){
		.first = txq->e_head,
		.n = 1,
	};
	txq->e_head++;
	/* Posted: the keys are in the WQE, the flag is done with. */
	mlx5_net_tx_unflag(m, piova);
	txq->pi = (uint16_t)(pi + bbs);
	txq->general_end = txq->e_head;
	txq->general_pending = true;
	txq->st.bytes += m->pkt_len;
	txq->st.packets++;
	*last = ctrl;
	return MLX5_NET_TX_POSTED;
}

/*
 * The Tx fast path: up to @cnt packets of @pkts, each one segment of data
 * in the MR range [lo + 1, lo + 1 + span) and nothing inline, from block
 * @pi on (the run wraps neither ring), as one block each: control,
 * Ethernet and data segment, written as words with their zeroes. It stops
 * at the first other packet: the number posted.
 */
static __rte_always_inline uint32_t
mlx5_net_tx_fast(struct mlx5_net_txq *txq, struct rte_mbuf **pkts, uint32_t cnt,
		 uint16_t pi, uintptr_t lo1, uintptr_t span, uint32_t lkey_be,
		 uint64_t piova, uint64_t *bytes)
{
	const uint32_t mask = txq->wqe_n - 1;
	size_t off = (size_t)(pi & mask) << MLX5_SEND_WQE_SHIFT;
	uint64_t *w = (uint64_t *)(void *)(txq->wqes + off);
	const uint32_t head = txq->e_head;
	struct rte_mbuf **e = txq->elts + (head & (txq->elts_n - 1));
	struct mlx5_net_tx_wqe_pkts *wp = txq->wqe_pkts + (pi & mask);
	const uint32_t qpn_ds3 = txq->qpn_ds3;
	uint32_t i, op = (uint32_t)pi << 8 | MLX5_OPCODE_SEND;
	uint64_t sum = 0;

	for (i = 0; i < cnt; i++, w += MLX5_SEND_WQE_BB / sizeof(*w)) {
		struct rte_mbuf *m = pkts[i];
		uint64_t ol = m->ol_flags;
		uintptr_t addr = (uintptr_t)m->buf_addr;
		uint32_t len = m->data_len;
		uint32_t *w32 = (uint32_t *)w;

		if (unlikely(m->nb_segs != 1 || len == 0 || (ol & piova) != 0 ||
			     addr - lo1 >= span))
			break;
		w32[0] = rte_cpu_to_be_32(op);
		w32[1] = qpn_ds3;
		w[1] = 0;
		w[2] = mlx5_net_tx_cs_of[(ol >> MLX5_NET_TX_CS_SHIFT) & 7];
		w[3] = 0;
		w32[8] = rte_cpu_to_be_32(len);
		w32[9] = lkey_be;
		w[5] = rte_cpu_to_be_64(addr + m->data_off);
		e[i] = m;
		wp[i].first = head + i;
		wp[i].n = 1;
		sum += len;
		op += 1u << 8;
	}
	txq->e_head = head + i;
	*bytes += sum;
	return i;
}

/*
 * Two big-endian 32-bit fields in one word to store, @first then @second
 * in memory (a data segment's byte count and key; a control segment's
 * opcode and DS count): mlx5_net_tx_be_2nd() places the second, which a
 * loop computes once, mlx5_net_tx_be_1st() adds the first.
 */
static __rte_always_inline uint64_t
mlx5_net_tx_be_2nd(uint32_t second)
{
#if RTE_BYTE_ORDER == RTE_LITTLE_ENDIAN
	return (uint64_t)rte_cpu_to_be_32(second) << 32;
#else
	return second;
#endif
}

static __rte_always_inline uint64_t
mlx5_net_tx_be_1st(uint64_t word, uint32_t first)
{
#if RTE_BYTE_ORDER == RTE_LITTLE_ENDIAN
	return word | rte_cpu_to_be_32(first);
#else
	return word | (uint64_t)first << 32;
#endif
}

/*
 * The Tx fast path of a queue of enhanced multi-packet WQEs: one WQE at
 * block @pi of up to @cnt packets of @pkts (the caller keeps it within
 * MLX5_NET_TX_EMPW_MAX, the rings' room and their ends), each
 * one segment of data in the MR range [lo + 1, lo + 1 + span) of key
 * @lkey, nothing
 * inline, all with the first one's checksum flags (the Ethernet segment
 * is the WQE's): a 16-byte data segment each. It stops at the first
 * other packet. Returns the packets posted (0: the first is not for
 * it), the WQE's blocks in *@bbs.
 *
 * Not inlined, and its loop holds only what it needs: inlined in the
 * burst, the compiler kept the byte sum and the range on the stack, a
 * store-to-load chain on every packet (measured: the burst's cycles a
 * frame went down when its loop had the registers to itself).
 */
static __rte_noinline uint32_t
mlx5_net_tx_empw(struct mlx5_net_txq *txq, struct rte_mbuf **pkts, uint32_t cnt,
		 uint16_t pi, uintptr_t lo1, uintptr_t span, uint32_t lkey,
		 uint64_t piova, uint64_t *bytes, uint32_t *bbs)
{
	const uint32_t mask = txq->wqe_n - 1;
	size_t off = (size_t)(pi & mask) << MLX5_SEND_WQE_SHIFT;
	uint64_t *w = (uint64_t *)(void *)(txq->wqes + off);
	/* The data segments, after the control and Ethernet segments. */
	uint64_t *d = w + 4;
	const uint32_t head = txq->e_head;
	/*
	 * The offload bits every packet must share with the first (its
	 * checksum requests), private IOVA among them (never set on one).
	 */
	const uint64_t ol_mask =
		piova | RTE_MBUF_F_TX_IP_CKSUM | RTE_MBUF_F_TX_L4_MASK;
	const uint64_t ol_want = pkts[0]->ol_flags & (RTE_MBUF_F_TX_IP_CKSUM |
						      RTE_MBUF_F_TX_L4_MASK);
	const uint64_t lk = mlx5_net_tx_be_2nd(lkey);
	struct rte_mbuf **p = pkts, **const end = pkts + cnt;
	uint64_t sum = 0;
	uint32_t i, ds;

	/*
	 * Packet p[k] checked then written as data segment k; one not for
	 * it ends the loops, p naming it.
	 */
#define MLX5_NET_TX_EMPW_STEP(k) \
	do { \
		const struct rte_mbuf *m_ = p[k]; \
		uintptr_t a_ = (uintptr_t)m_->buf_addr; \
\
		if (unlikely(m_->nb_segs != 1 || m_->data_len == 0 || \
			     (m_->ol_flags & ol_mask) != ol_want || \
			     a_ - lo1 >= span)) { \
			p += (k); \
			goto stop; \
		} \
		d[2 * (k)] = mlx5_net_tx_be_1st(lk, m_->data_len); \
		d[2 * (k) + 1] = rte_cpu_to_be_64(a_ + m_->data_off); \
		sum += m_->data_len; \
	} while (0)
	/*
	 * Four packets a round of the loop, each checked then written (a
	 * round writing the four after checking them all kept their fields
	 * on the stack), then one at a time.
	 */
	for (; end - p >= 4; p += 4, d += 8) {
		MLX5_NET_TX_EMPW_STEP(0);
		MLX5_NET_TX_EMPW_STEP(1);
		MLX5_NET_TX_EMPW_STEP(2);
		MLX5_NET_TX_EMPW_STEP(3);
	}
	for (; p != end; p++, d += 2)
		MLX5_NET_TX_EMPW_STEP(0);
#undef MLX5_NET_TX_EMPW_STEP
stop:
	i = (uint32_t)(p - pkts);
	if (i == 0)
		return 0;
	/* The packets in the packet ring (the caller keeps it unwrapped). */
	memcpy(txq->elts + (head & (txq->elts_n - 1)), pkts, i * sizeof(*pkts));
	ds = 2 + i;
	w[0] = mlx5_net_tx_be_1st(mlx5_net_tx_be_2nd(txq->sqn << 8 | ds),
				  (uint32_t)pi << 8 |
					  MLX5_WQE_OPCODE_ENHANCED_MPSW);
	w[1] = 0;
	/* Checksum flags; no inline header, which eMPW does not take. */
	w[2] = mlx5_net_tx_cs_of[ol_want >> MLX5_NET_TX_CS_SHIFT];
	w[3] = 0;
	txq->wqe_pkts[pi & mask] = (struct mlx5_net_tx_wqe_pkts){
		.first = head,
		.n = i,
	};
	txq->e_head = head + i;
	*bbs = (ds + 3) / 4;
	*bytes += sum;
	return i;
}

/*
 * What a port's queues send by, fixed when it is probed (txq_mpw_en,
 * txq_inline_min): the burst function is chosen for it then
 * (mlx5_net_tx_burst_fn()), so that no burst tests it.
 */
enum mlx5_net_tx_mode {
	/* Fast path: one-block SEND WQEs. */
	MLX5_NET_TX_MODE_SEND,
	/* Fast path: enhanced multi-packet WQEs. */
	MLX5_NET_TX_MODE_EMPW,
	/* An inline header: every packet by the general path. */
	MLX5_NET_TX_MODE_INLINE,
};

/*
 * The Tx burst, with the MR cache and UAR of this process, for queues of
 * @mode (a constant: each burst function is this body for one mode).
 */
static __rte_always_inline uint16_t
mlx5_net_tx_body(struct mlx5_net_txq *txq, struct mlx5_mr_ctrl *mr,
		 struct mlx5_uar *uar, struct rte_mbuf **pkts, uint16_t n,
		 const enum mlx5_net_tx_mode mode)
{
	const uint32_t mask = txq->wqe_n - 1;
	struct mlx5_wqe_ctrl_seg *last = NULL;
	uint16_t sent = 0, pi, posted = 0;
	uint64_t bytes = 0;

	if (unlikely(txq->stopped))
		return 0;
	mlx5_net_tx_complete(txq);
	mlx5_net_mr_gen_check(mr);
	pi = txq->pi;
	while (sent < n) {
		/* Blocks up to a full ring, and up to a completion request. */
		uint32_t room = txq->wqe_n - (uint16_t)(pi - txq->ci);
		uint32_t to_comp = MLX5_NET_TX_COMP_THRESH -
				   (uint16_t)(pi - txq->last_comp);
		/* Packets up to a full packet ring, and not past its end. */
		uint32_t prom = RTE_MIN(
			txq->elts_n - (txq->e_head - txq->e_tail),
			txq->elts_n - (txq->e_head & (txq->elts_n - 1)));
		uint32_t lim = RTE_MIN((uint32_t)(n - sent), room), k = 0;
		enum mlx5_net_tx_res res;

		if (unlikely(prom == 0))
			break;
		lim = RTE_MIN(lim, prom);

		if (mode == MLX5_NET_TX_MODE_EMPW && room != 0) {
			uintptr_t lo = mr->mru_lo[0], end = mr->mru_end[0];
			uint32_t bbs = 0, to_end;

			/* One WQE, within the ring's end. */
			lim = RTE_MIN(lim, (uint32_t)MLX5_NET_TX_EMPW_MAX);
			to_end = RTE_MIN(room, mask + 1 - (pi & mask));
			lim = RTE_MIN(lim, 4 * to_end - 2);
			k = mlx5_net_tx_empw(
				txq, pkts + sent, lim, pi, lo + 1,
				end > lo ? end - lo - 1 : 0, mr->mru_lkey[0],
				mr->private_iova_flag, &bytes, &bbs);
			if (k != 0) {
				last = (void *)(txq->wqes +
						((size_t)(pi & mask)
						 << MLX5_SEND_WQE_SHIFT));
				pi = (uint16_t)(pi + bbs);
				sent = (uint16_t)(sent + k);
				posted = (uint16_t)(posted + k);
				txq->pi = pi;
				if ((uint16_t)(pi - txq->last_comp) >=
				    MLX5_NET_TX_COMP_THRESH) {
					last->fm_ce_se =
						MLX5_WQE_CTRL_CQ_UPDATE;
					txq->last_comp = pi;
				}
				continue;
			}
			lim = 0;
		}
		lim = RTE_MIN(lim, to_comp);
		/* Nor past the end of the ring. */
		lim = RTE_MIN(lim, mask + 1 - (pi & mask));
		if (mode == MLX5_NET_TX_MODE_SEND && lim != 0) {
			uintptr_t lo = mr->mru_lo[0], end = mr->mru_end[0];

			k = mlx5_net_tx_fast(txq, pkts + sent, lim, pi, lo + 1,
					     end > lo ? end - lo - 1 : 0,
					     rte_cpu_to_be_32(mr->mru_lkey[0]),
					     mr->private_iova_flag, &bytes);
		}
		if (k != 0) {
			uint32_t lb;

			pi = (uint16_t)(pi + k);
			sent = (uint16_t)(sent + k);
			posted = (uint16_t)(posted + k);
			lb = (uint16_t)(pi - 1) & mask;
			last = (void *)(txq->wqes +
					((size_t)lb << MLX5_SEND_WQE_SHIFT));
			txq->pi = pi;
			if ((uint16_t)(pi - txq->last_comp) >=
			    MLX5_NET_TX_COMP_THRESH) {
				last->fm_ce_se = MLX5_WQE_CTRL_CQ_UPDATE;
				txq->last_comp = pi;
			}
		}
		if (sent == n || room == 0)
			break;
		if (k == lim && lim != 0)
			continue;
		/* A packet for the general path. */
		res = mlx5_net_tx_general(txq, mr, pkts[sent], &last);
		if (res == MLX5_NET_TX_FULL)
			break;
		sent++;
		pi = txq->pi;
	}
	if (last != NULL) {
		/* The burst's last WQE completes, so nothing waits long. */
		if (!(last->fm_ce_se & MLX5_WQE_CTRL_CQ_UPDATE)) {
			last->fm_ce_se = MLX5_WQE_CTRL_CQ_UPDATE;
			txq->last_comp = txq->pi;
		}
		mlx5_doorbell_ring(uar, txq->sq_db, txq->pi, last);
	}
	txq->st.packets += posted;
	txq->st.bytes += bytes;
	return sent;
}

/* A primary's burst of each mode. */
#define MLX5_NET_TX_BURST(name, mode) \
	static uint16_t mlx5_net_tx_burst_##name( \
		void *q, struct rte_mbuf **pkts, uint16_t n) \
	{ \
		struct mlx5_net_txq *txq = q; \
\
		return mlx5_net_tx_body(txq, &txq->mr, txq->uar, pkts, n, \
					mode); \
	}

/*
 * A secondary's burst of each mode: its own MR cache, and the UAR as it
 * rings it.
 */
#define MLX5_NET_TX_BURST_SECONDARY(name, mode) \
	static uint16_t mlx5_net_tx_burst_##name##_secondary( \
		void *q, struct rte_mbuf **pkts, uint16_t n) \
	{ \
		struct mlx5_net_txq *txq = q; \
		struct mlx5_net_proc *pp = \
			rte_eth_devices[txq->port_id].process_private; \
		struct mlx5_mr_ctrl *mr = \
			mlx5_net_proc_queue_mr(pp, true, txq->idx); \
\
		if (unlikely(mr == NULL)) \
			return 0; \
		return mlx5_net_tx_body(txq, mr, &pp->uar, pkts, n, mode); \
	}

MLX5_NET_TX_BURST(send, MLX5_NET_TX_MODE_SEND)
MLX5_NET_TX_BURST(empw, MLX5_NET_TX_MODE_EMPW)
MLX5_NET_TX_BURST(inline, MLX5_NET_TX_MODE_INLINE)
MLX5_NET_TX_BURST_SECONDARY(send, MLX5_NET_TX_MODE_SEND)
MLX5_NET_TX_BURST_SECONDARY(empw, MLX5_NET_TX_MODE_EMPW)
MLX5_NET_TX_BURST_SECONDARY(inline, MLX5_NET_TX_MODE_INLINE)

eth_tx_burst_t
mlx5_net_tx_burst_fn(const struct mlx5_net_priv *priv, bool secondary)
{
	/* As the queues are made (mlx5_net_tx_queue_setup()). */
	if (priv->txq_inline_min != 0)
		return secondary ? mlx5_net_tx_burst_inline_secondary :
				   mlx5_net_tx_burst_inline;
	if (priv->txq_empw)
		return secondary ? mlx5_net_tx_burst_empw_secondary :
				   mlx5_net_tx_burst_empw;
	return secondary ? mlx5_net_tx_burst_send_secondary :
			   mlx5_net_tx_burst_send;
}

/*
 * After an error completion that moved the SQ to ERR: back to RDY from
 * block 0 (through RST), its rate limit set again.
 */
int
mlx5_net_txq_recover(struct mlx5_net_txq *txq)
{
	struct mlx5_net_txq_ctrl *ctrl = mlx5_net_txq_ctrl_of(txq);
	int ret;

	if (rte_eal_process_type() != RTE_PROC_PRIMARY)
		return mlx5_net_mp_ask(txq->port_id, MLX5_NET_MP_TXQ_RECOVER,
				       txq->idx, NULL);
	ret = mlx5_devx_sq_recover(&ctrl->sq);
	if (ret != 0)
		return ret;
	/* The SQ restarts at block 0 (the queue is in shared memory). */
	txq->pi = 0;
	if (ctrl->pp != NULL) {
		/* RST forgot the rate: set it again. */
		struct mlx5_devx_sq_modify mod = {
			.cur_state = MLX5_WQ_STATE_RDY,
			.new_state = MLX5_WQ_STATE_RDY,
			.set_rate = true,
			.rate_index = ctrl->pp->index,
		};

		if (mlx5_devx_cmd_modify_sq(ctrl->sq.obj, &mod) != 0)
			DRV_LOG(WARNING,
				"port %u Tx queue %u: its rate limit is lost after recovery: %s",
				txq->port_id, txq->idx,
				rte_strerror(rte_errno));
	}
	return 0;
}
