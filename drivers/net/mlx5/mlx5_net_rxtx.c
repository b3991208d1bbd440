/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * The bursts. Tx: one WQE per packet (control segment, Ethernet segment
 * with the checksum flags and the first txq_inline_min bytes inline, a
 * data segment per mbuf segment), keys from the queue's MR cache or, for
 * a private-IOVA mbuf, its buf_iova; a completion asked at least every
 * MLX5_NET_TX_COMP_THRESH blocks and at the end of each burst; one
 * doorbell per burst. Completions free the mbufs of every WQE up to the
 * one they name. Rx: a CQE per frame names the WQE it filled; its mbufs
 * are handed up (chained when scattered) and fresh ones posted in their
 * place; checksum verdicts, packet type and RSS hash come from the CQE.
 *
 * An error completion drops that packet (counted) and the queue recovers:
 * Tx frees what was posted after it (flushed) and brings the SQ back; Rx
 * keeps a WQE too small for its frame (the RQ stays ready), and otherwise
 * brings the RQ back with its buffers.
 */

#include <rte_branch_prediction.h>
#include <rte_byteorder.h>
#include <rte_mbuf.h>
#include <rte_mbuf_dyn.h>
#include <rte_prefetch.h>

#include <mlx5_common_dp.h>

#include "mlx5_net.h"

static const uint32_t mlx5_net_ptype_list[] = {
	RTE_PTYPE_L2_ETHER,
	RTE_PTYPE_L3_IPV4_EXT_UNKNOWN,
	RTE_PTYPE_L3_IPV6_EXT_UNKNOWN,
	RTE_PTYPE_L4_TCP,
	RTE_PTYPE_L4_UDP,
	RTE_PTYPE_UNKNOWN,
};

const uint32_t *
mlx5_net_ptypes(struct rte_eth_dev *dev)
{
	RTE_SET_USED(dev);
	return mlx5_net_ptype_list;
}

/* The packet type of each value of a CQE's l4_l3_hdr_type byte. */
static uint32_t mlx5_net_ptype_of[256];

RTE_INIT(mlx5_net_ptype_init)
{
	unsigned int t;

	for (t = 0; t < RTE_DIM(mlx5_net_ptype_of); t++) {
		uint8_t l3 = (t >> MLX5_CQE_L3_HDR_TYPE_SHIFT) &
			     MLX5_CQE_L3_HDR_TYPE_MASK;
		uint8_t l4 = (t >> MLX5_CQE_L4_HDR_TYPE_SHIFT) &
			     MLX5_CQE_L4_HDR_TYPE_MASK;
		uint32_t ptype = RTE_PTYPE_L2_ETHER;

		if (l3 == MLX5_CQE_L3_HDR_TYPE_IPV4)
			ptype |= RTE_PTYPE_L3_IPV4_EXT_UNKNOWN;
		else if (l3 == MLX5_CQE_L3_HDR_TYPE_IPV6)
			ptype |= RTE_PTYPE_L3_IPV6_EXT_UNKNOWN;
		if (l4 == MLX5_CQE_L4_HDR_TYPE_UDP)
			ptype |= RTE_PTYPE_L4_UDP;
		else if (l4 != MLX5_CQE_L4_HDR_TYPE_NONE)
			ptype |= RTE_PTYPE_L4_TCP;
		mlx5_net_ptype_of[t] = ptype;
	}
}

/* Packet type and checksum flags of a receive CQE. */
static __rte_always_inline void
mlx5_net_rx_cqe_meta(const struct mlx5_net_rxq *rxq,
		     const volatile struct mlx5_cqe_eth *cqe,
		     struct rte_mbuf *m)
{
	uint8_t t = cqe->l4_l3_hdr_type;
	uint64_t flags = 0;

	m->packet_type = mlx5_net_ptype_of[t];
	if (rxq->csum) {
		uint8_t ok = cqe->hds_ip_ext;
		uint8_t l3 = (t >> MLX5_CQE_L3_HDR_TYPE_SHIFT) &
			     MLX5_CQE_L3_HDR_TYPE_MASK;
		uint8_t l4 = (t >> MLX5_CQE_L4_HDR_TYPE_SHIFT) &
			     MLX5_CQE_L4_HDR_TYPE_MASK;

		if (l3 == MLX5_CQE_L3_HDR_TYPE_IPV4)
			flags |= (ok & MLX5_CQE_L3_OK) ?
				 RTE_MBUF_F_RX_IP_CKSUM_GOOD :
				 RTE_MBUF_F_RX_IP_CKSUM_BAD;
		if (l4 != MLX5_CQE_L4_HDR_TYPE_NONE)
			flags |= (ok & MLX5_CQE_L4_OK) ?
				 RTE_MBUF_F_RX_L4_CKSUM_GOOD :
				 RTE_MBUF_F_RX_L4_CKSUM_BAD;
	}
	if (rxq->rss_hash && cqe->rss_hash_type != 0) {
		m->hash.rss = rte_be_to_cpu_32(cqe->rss_hash_result);
		flags |= RTE_MBUF_F_RX_RSS_HASH;
	}
	if (rxq->ts_offset >= 0) {
		*RTE_MBUF_DYNFIELD(m, rxq->ts_offset, rte_mbuf_timestamp_t *) =
			rte_be_to_cpu_64(cqe->timestamp);
		flags |= rxq->ts_flag;
	}
	m->ol_flags = flags;
}

/* Post WQE slot @w again with the mbufs it holds (a dropped frame). */
static __rte_always_inline void
mlx5_net_rx_repost(struct mlx5_net_rxq *rxq)
{
	rxq->pi++;
}

/*
 * Fill the queue's stash from the pool in bulk so that it holds at least
 * @need mbufs: false if the pool has too few. A mempool's mbufs have
 * refcnt 1, next NULL and nb_segs 1 (rte_pktmbuf_free() keeps that); the
 * other fields are set when the mbuf is handed up.
 */
static __rte_always_inline bool
mlx5_net_rx_refill(struct mlx5_net_rxq *rxq, uint32_t need)
{
	void **room = (void **)&rxq->stash[rxq->stash_n];
	uint32_t want = MLX5_NET_RX_STASH - rxq->stash_n;

	if (rte_mempool_get_bulk(rxq->mp, room, want) == 0) {
		rxq->stash_n = MLX5_NET_RX_STASH;
		return true;
	}
	if (rte_mempool_get_bulk(rxq->mp, room, need - rxq->stash_n) == 0) {
		rxq->stash_n = (uint16_t)need;
		return true;
	}
	return false;
}

/* @n fresh mbufs from the queue's stash; false (nothing taken) if none. */
static __rte_always_inline bool
mlx5_net_rx_fresh(struct mlx5_net_rxq *rxq, struct rte_mbuf **rep,
		  uint32_t n)
{
	uint32_t i;

	if (unlikely(rxq->stash_n < n) && !mlx5_net_rx_refill(rxq, n))
		return false;
	for (i = 0; i < n; i++)
		rep[i] = rxq->stash[--rxq->stash_n];
	return true;
}

/*
 * The frame of @len bytes in WQE slot @w: its mbufs go up, fresh ones take
 * their place. NULL (frame dropped, buffers reposted) without mbufs.
 */
static __rte_always_inline struct rte_mbuf *
mlx5_net_rx_take(struct mlx5_net_rxq *rxq, struct mlx5_mr_ctrl *mr,
		 uint32_t w, uint32_t len)
{
	uint32_t sges = 1u << rxq->log_sges;
	uint32_t used = rxq->scatter ?
			(len + rxq->seg_len - 1) / rxq->seg_len : 1;
	struct rte_mbuf **slot = &rxq->elts[w << rxq->log_sges];
	struct rte_mbuf *rep[MLX5_NET_MAX_RX_SEGS];
	struct rte_mbuf *head = slot[0], *prev = NULL;
	uint32_t s, left = len;

	if (likely(!rxq->scatter)) {
		/* One mbuf per frame: the common case, straight. */
		struct rte_mbuf *r;
		struct mlx5_wqe_data_seg *d;

		if (unlikely(rxq->stash_n == 0) &&
		    !mlx5_net_rx_refill(rxq, 1))
			goto nombuf;
		r = rxq->stash[--rxq->stash_n];
		d = (void *)(rxq->rq.wqes + ((size_t)w << rxq->rq.log_stride));
		r->data_off = RTE_PKTMBUF_HEADROOM;
		d->lkey = rte_cpu_to_be_32(mlx5_mr_mb2lkey(mr, r));
		d->addr = rte_cpu_to_be_64(rte_pktmbuf_mtod(r, uintptr_t));
		slot[0] = r;
		head->data_len = (uint16_t)len;
		head->pkt_len = len;
		head->port = rxq->port_id;
		head->vlan_tci = 0;
		return head;
	}
	if (used == 0)
		used = 1;
	if (unlikely(used > sges) ||
	    unlikely(!mlx5_net_rx_fresh(rxq, rep, used))) {
nombuf:
		rxq->st.nombuf++;
		/* ethdev's data is shared; priv->eth is the primary's. */
		rte_eth_devices[rxq->port_id].data->rx_mbuf_alloc_failed++;
		return NULL;
	}
	for (s = 0; s < used; s++) {
		struct rte_mbuf *m = slot[s], *r = rep[s];
		struct mlx5_wqe_data_seg *d = (void *)(rxq->rq.wqes +
			((size_t)w << rxq->rq.log_stride) + 16 * s);

		r->data_off = RTE_PKTMBUF_HEADROOM;
		m->data_len = (uint16_t)RTE_MIN(left, rxq->seg_len);
		left -= m->data_len;
		if (prev != NULL)
			prev->next = m;
		prev = m;
		slot[s] = r;
		d->lkey = rte_cpu_to_be_32(mlx5_mr_mb2lkey(mr, r));
		d->addr = rte_cpu_to_be_64(rte_pktmbuf_mtod(r, uintptr_t));
	}
	head->nb_segs = (uint16_t)used;
	head->pkt_len = len;
	head->port = rxq->port_id;
	head->vlan_tci = 0;
	return head;
}

/* The Rx burst, with the MR cache of this process. */
static __rte_always_inline uint16_t
mlx5_net_rx_body(struct mlx5_net_rxq *rxq, struct mlx5_mr_ctrl *mr,
		 struct rte_mbuf **pkts, uint16_t n)
{
	struct mlx5_devx_cq *cq = &rxq->cq;
	uint32_t cq_mask = (1u << cq->log_size) - 1;
	uint32_t wqe_mask = (1u << rxq->log_wqe_n) - 1;
	uint64_t bytes = 0;
	uint16_t got = 0;
	bool seen = false;

	while (got < n) {
		volatile struct mlx5_cqe_eth *cqe = (volatile void *)
			&cq->cqes[cq->ci & cq_mask];
		enum mlx5_cqe_status st = mlx5_cqe_status(
			(volatile struct mlx5_cqe64 *)cqe, cq->log_size,
			cq->ci);
		uint32_t w;
		struct rte_mbuf *m;

		if (st == MLX5_CQE_STATUS_HW_OWN)
			break;
		seen = true;
		cq->ci++;
		w = rte_be_to_cpu_16(cqe->wqe_counter) & wqe_mask;
		if (unlikely(st == MLX5_CQE_STATUS_ERR)) {
			uint8_t synd = ((volatile struct mlx5_err_cqe *)
					(volatile void *)cqe)->syndrome;

			rxq->st.errors++;
			if (synd == MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR) {
				/* The RQ is still ready: the WQE is reused. */
				mlx5_net_rx_repost(rxq);
				continue;
			}
			mlx5_cq_db_update(cq->db_rec, cq->ci);
			if (mlx5_net_rxq_recover(rxq) != 0)
				break;
			seen = false;
			continue;
		}
		m = mlx5_net_rx_take(rxq, mr, w,
				     rte_be_to_cpu_32(cqe->byte_cnt));
		mlx5_net_rx_repost(rxq);
		if (unlikely(m == NULL))
			continue;
		mlx5_net_rx_cqe_meta(rxq, cqe, m);
		bytes += m->pkt_len;
		pkts[got++] = m;
	}
	if (seen) {
		mlx5_cq_db_update(cq->db_rec, cq->ci);
		rte_io_wmb();
		rxq->rq.db_rec[MLX5_RCV_DBR] = rte_cpu_to_be_32(rxq->pi);
	}
	rxq->st.packets += got;
	rxq->st.bytes += bytes;
	return got;
}

uint16_t
mlx5_net_rx_burst(void *q, struct rte_mbuf **pkts, uint16_t n)
{
	struct mlx5_net_rxq *rxq = q;

	return mlx5_net_rx_body(rxq, &rxq->mr, pkts, n);
}

/*
 * A secondary process: the queue is the primary's, the MR cache this
 * process's own (the primary's holds its private addresses).
 */
uint16_t
mlx5_net_rx_burst_secondary(void *q, struct rte_mbuf **pkts, uint16_t n)
{
	struct mlx5_net_rxq *rxq = q;
	struct mlx5_net_proc *pp = rte_eth_devices[rxq->port_id].process_private;
	struct mlx5_mr_ctrl *mr = pp->rxq_mr[rxq->idx];

	if (unlikely(mr == NULL)) {
		mr = mlx5_net_proc_mr(pp, false, rxq->idx, SOCKET_ID_ANY);
		if (mr == NULL)
			return 0;
	}
	return mlx5_net_rx_body(rxq, mr, pkts, n);
}

/*
 * Give back @n sent mbufs: with MBUF_FAST_FREE (the application promises
 * one pool, refcnt 1, no chains) straight into the pool.
 */
static __rte_always_inline void
mlx5_net_tx_put(struct mlx5_net_txq *txq, struct rte_mbuf **m, unsigned int n)
{
	if (txq->fast_free)
		rte_mempool_put_bulk(m[0]->pool, (void **)m, n);
	else
		rte_pktmbuf_free_bulk(m, n);
}

/* Free the mbufs of blocks [ci, end) (completed or dropped), in bulk. */
static __rte_always_inline void
mlx5_net_tx_free(struct mlx5_net_txq *txq, uint16_t end)
{
	uint32_t mask = txq->wqe_n - 1;
	struct rte_mbuf *batch[64];
	unsigned int n = 0;

	while (txq->ci != end) {
		struct rte_mbuf **e = &txq->elts[txq->ci & mask];

		if (*e != NULL) {
			batch[n++] = *e;
			*e = NULL;
			if (unlikely(n == RTE_DIM(batch))) {
				mlx5_net_tx_put(txq, batch, n);
				n = 0;
			}
		}
		txq->ci++;
	}
	if (n != 0)
		mlx5_net_tx_put(txq, batch, n);
}

/* Take the completions: free what they cover; recover after an error. */
static void
mlx5_net_tx_complete(struct mlx5_net_txq *txq)
{
	struct mlx5_devx_cq *cq = &txq->cq;
	uint32_t cq_mask = (1u << cq->log_size) - 1;
	uint32_t mask = txq->wqe_n - 1;
	bool seen = false, err = false;
	uint16_t upto = txq->ci;

	for (;;) {
		volatile struct mlx5_cqe64 *cqe = &cq->cqes[cq->ci & cq_mask];
		enum mlx5_cqe_status st = mlx5_cqe_status(cqe, cq->log_size,
							  cq->ci);
		uint16_t wc;

		if (st == MLX5_CQE_STATUS_HW_OWN)
			break;
		seen = true;
		cq->ci++;
		wc = rte_be_to_cpu_16(cqe->wqe_counter);
		if (likely(st == MLX5_CQE_STATUS_SW_OWN)) {
			/* The WQE at wc and every one before it are done. */
			upto = (uint16_t)(wc + 1);
			continue;
		}
		if (!err) {
			/* Those before it were sent; it and the rest are not. */
			mlx5_net_tx_free(txq, wc);
			err = true;
		}
	}
	if (seen)
		mlx5_cq_db_update(cq->db_rec, cq->ci);
	if (likely(!err)) {
		/* A completed WQE's blocks after its first hold no mbuf. */
		if ((uint16_t)(upto - txq->ci) <= (uint16_t)(txq->sq.pi -
							     txq->ci))
			mlx5_net_tx_free(txq, upto);
		return;
	}
	/* Every packet still posted is lost: the failed one and the flushed. */
	while (txq->ci != txq->sq.pi) {
		if (txq->elts[txq->ci & mask] != NULL) {
			txq->st.errors++;
			txq->st.packets--;
			txq->st.bytes -= txq->elts[txq->ci & mask]->pkt_len;
		}
		mlx5_net_tx_free(txq, (uint16_t)(txq->ci + 1));
	}
	if (mlx5_net_txq_recover(txq) != 0) {
		NET_LOG(ERR, "Tx queue %u: recovery failed: %s", txq->idx,
			rte_strerror(rte_errno));
		return;
	}
	txq->st.recoveries++;
	txq->ci = 0;
	txq->last_comp = 0;
}

/* The Ethernet segment's checksum flags of an mbuf's Tx offload flags. */
static __rte_always_inline uint8_t
mlx5_net_tx_cs(uint64_t ol)
{
	uint64_t l4 = ol & RTE_MBUF_F_TX_L4_MASK;

	return (uint8_t)(((ol & RTE_MBUF_F_TX_IP_CKSUM) ?
			  MLX5_ETH_WQE_L3_CSUM : 0) |
			 ((l4 == RTE_MBUF_F_TX_TCP_CKSUM ||
			   l4 == RTE_MBUF_F_TX_UDP_CKSUM) ?
			  MLX5_ETH_WQE_L4_CSUM : 0));
}

/* Write 16-byte segment @k of the WQE at block @pi (wrapping the ring). */
static __rte_always_inline void *
mlx5_net_tx_seg(struct mlx5_net_txq *txq, uint16_t pi, uint32_t k)
{
	uint32_t off = ((uint32_t)pi * MLX5_SEND_WQE_BB + k * 16) &
		       (txq->wqe_n * MLX5_SEND_WQE_BB - 1);

	return txq->sq.wqes + off;
}

/* The Tx burst, with the MR cache and UAR of this process. */
static __rte_always_inline uint16_t
mlx5_net_tx_body(struct mlx5_net_txq *txq, struct mlx5_mr_ctrl *mr,
		 struct mlx5_uar *uar, struct rte_mbuf **pkts, uint16_t n)
{
	uint32_t mask = txq->wqe_n - 1;
	struct mlx5_wqe_ctrl_seg *last = NULL;
	uint16_t sent = 0, posted = 0;
	uint64_t bytes = 0;

	mlx5_net_tx_complete(txq);
	while (sent < n) {
		struct rte_mbuf *m = pkts[sent], *seg;
		uint16_t pi = txq->sq.pi;
		uint32_t inl = RTE_MIN((uint32_t)txq->inline_hdr,
				       (uint32_t)m->data_len);
		uint32_t inl_segs = inl > 2 ? (inl - 2 + 15) / 16 : 0;
		uint32_t ds = 2 + inl_segs + m->nb_segs, bbs, k;
		struct mlx5_wqe_ctrl_seg *ctrl;
		struct mlx5_wqe_eth_seg *es;
		uint8_t cs;

		if (likely(m->nb_segs == 1 && inl == 0 && m->data_len != 0)) {
			/*
			 * One block: control, Ethernet and one data segment,
			 * written as words (the segments' zeroes included).
			 */
			uint32_t *wq = (uint32_t *)(void *)(txq->sq.wqes +
				(size_t)(pi & mask) * MLX5_SEND_WQE_BB);
			struct mlx5_wqe_data_seg *d = (void *)(wq + 8);
			uint32_t lkey;

			if (unlikely((uint16_t)(pi - txq->ci) >= txq->wqe_n))
				break;
			lkey = mlx5_mr_mb2lkey(mr, m);
			if (unlikely(lkey == MLX5_MR_LKEY_INVALID)) {
				txq->st.errors++;
				rte_pktmbuf_free(m);
				sent++;
				continue;
			}
			wq[0] = rte_cpu_to_be_32((uint32_t)pi << 8 |
						 MLX5_OPCODE_SEND);
			wq[1] = txq->qpn_ds3;
			wq[2] = 0;
			wq[3] = 0;
			wq[4] = 0;
			wq[5] = 0;
			wq[6] = 0;
			wq[7] = 0;
			((struct mlx5_wqe_eth_seg *)(void *)(wq + 4))->cs_flags =
				mlx5_net_tx_cs(m->ol_flags);
			d->byte_count = rte_cpu_to_be_32(m->data_len);
			d->lkey = rte_cpu_to_be_32(lkey);
			d->addr = rte_cpu_to_be_64(rte_pktmbuf_mtod(m,
								    uintptr_t));
			ctrl = (void *)wq;
			if ((uint16_t)(pi + 1 - txq->last_comp) >=
			    MLX5_NET_TX_COMP_THRESH) {
				ctrl->fm_ce_se = MLX5_WQE_CTRL_CQ_UPDATE;
				txq->last_comp = (uint16_t)(pi + 1);
			}
			txq->elts[pi & mask] = m;
			txq->sq.pi = (uint16_t)(pi + 1);
			bytes += m->data_len;
			last = ctrl;
			sent++;
			posted++;
			continue;
		}
		/* A data segment per mbuf segment; empty segments skipped. */
		bbs = (ds * 16 + MLX5_SEND_WQE_BB - 1) / MLX5_SEND_WQE_BB;
		if (unlikely(bbs > MLX5_NET_TX_MAX_WQE_BBS)) {
			/* More segments than a WQE holds: dropped. */
			txq->st.errors++;
			rte_pktmbuf_free(m);
			sent++;
			continue;
		}
		if (unlikely((uint16_t)(pi - txq->ci) + bbs > txq->wqe_n))
			break;
		ctrl = mlx5_net_tx_seg(txq, pi, 0);
		es = mlx5_net_tx_seg(txq, pi, 1);
		cs = mlx5_net_tx_cs(m->ol_flags);
		/* No LSO (mss 0), no software parsing: zeroes but the flags. */
		*(uint64_t *)(void *)es = 0;
		*((uint32_t *)(void *)es + 2) = 0;
		es->cs_flags = cs;
		es->inline_hdr_sz = rte_cpu_to_be_16((uint16_t)inl);
		if (inl != 0) {
			const uint8_t *src = rte_pktmbuf_mtod(m,
							      const uint8_t *);

			memcpy(es->inline_hdr_start, src, RTE_MIN(inl, 2u));
			for (k = 0; k < inl_segs; k++) {
				uint32_t off = 2 + 16 * k;

				memcpy(mlx5_net_tx_seg(txq, pi, 2 + k),
				       src + off, RTE_MIN(16u, inl - off));
			}
		}
		k = 2 + inl_segs;
		ds = k;
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
			d->addr = rte_cpu_to_be_64(rte_pktmbuf_mtod_offset(
				seg, uintptr_t, skip));
		}
		if (unlikely(seg != NULL)) {
			/* Memory of no key: the packet cannot be sent. */
			txq->st.errors++;
			rte_pktmbuf_free(m);
			sent++;
			continue;
		}
		bbs = (ds * 16 + MLX5_SEND_WQE_BB - 1) / MLX5_SEND_WQE_BB;
		ctrl->opmod_idx_opcode = rte_cpu_to_be_32((uint32_t)pi << 8 |
							  MLX5_OPCODE_SEND);
		ctrl->qpn_ds = rte_cpu_to_be_32(txq->sqn << 8 | ds);
		ctrl->signature = 0;
		ctrl->dci_stream_channel_id = 0;
		ctrl->fm_ce_se = 0;
		ctrl->imm = 0;
		if ((uint16_t)(pi + bbs - txq->last_comp) >=
		    MLX5_NET_TX_COMP_THRESH) {
			ctrl->fm_ce_se = MLX5_WQE_CTRL_CQ_UPDATE;
			txq->last_comp = (uint16_t)(pi + bbs);
		}
		txq->elts[pi & mask] = m;
		txq->sq.pi = (uint16_t)(pi + bbs);
		bytes += m->pkt_len;
		last = ctrl;
		sent++;
		posted++;
	}
	if (last != NULL) {
		/* The burst's last WQE completes, so nothing waits long. */
		if (!(last->fm_ce_se & MLX5_WQE_CTRL_CQ_UPDATE)) {
			last->fm_ce_se = MLX5_WQE_CTRL_CQ_UPDATE;
			txq->last_comp = txq->sq.pi;
		}
		mlx5_doorbell_ring(uar, &txq->sq.db_rec[MLX5_SND_DBR],
				   txq->sq.pi, last);
	}
	txq->st.packets += posted;
	txq->st.bytes += bytes;
	return sent;
}

uint16_t
mlx5_net_tx_burst(void *q, struct rte_mbuf **pkts, uint16_t n)
{
	struct mlx5_net_txq *txq = q;

	return mlx5_net_tx_body(txq, &txq->mr, &txq->priv->uar, pkts, n);
}

/* A secondary process: its own MR cache, and the UAR as it rings it. */
uint16_t
mlx5_net_tx_burst_secondary(void *q, struct rte_mbuf **pkts, uint16_t n)
{
	struct mlx5_net_txq *txq = q;
	struct mlx5_net_proc *pp = rte_eth_devices[txq->port_id].process_private;
	struct mlx5_mr_ctrl *mr = pp->txq_mr[txq->idx];

	if (unlikely(mr == NULL)) {
		mr = mlx5_net_proc_mr(pp, true, txq->idx, SOCKET_ID_ANY);
		if (mr == NULL)
			return 0;
	}
	return mlx5_net_tx_body(txq, mr, &pp->uar, pkts, n);
}
