/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * The Rx burst and Rx queue recovery; calls only the log type, the error
 * completions (mlx5_net_err.c), a secondary's state and requests
 * (mlx5_net_proc.c) and the common layer. The queues (mlx5_net_rxq.c) and
 * the ethdev ops use it.
 *
 * A CQE per frame names the WQE it filled; its mbufs are handed up
 * (chained when scattered) and fresh ones posted in their place; checksum
 * verdicts, packet type and RSS hash come from the CQE. The fast path (a
 * queue without scatter), with what is constant for a queue or a burst
 * read once into locals: the frame's mbuf goes up with its fields written
 * as the CQE says, the fresh one is posted by its address and key only
 * (the data segment's length never changes; the mbuf's own fields are
 * written when it goes up). Errors and an empty pool take the general
 * path, as does every frame of a scattered queue.
 *
 * An error completion drops that frame (counted) and the queue recovers:
 * it keeps a WQE too small for its frame (the RQ stays ready), and
 * otherwise brings the RQ back with its buffers.
 */

#include <rte_branch_prediction.h>
#include <rte_byteorder.h>
#include <rte_mbuf.h>
#include <rte_mbuf_dyn.h>
#include <rte_memcpy.h>
#include <rte_mempool.h>

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

/*
 * The hot queue struct's layout (mlx5_net.h): what every burst reads in
 * its first 64 bytes, the queue's shape and its packet and byte counts in
 * the next 64, the MR cache's top half on a line of its own.
 */
static_assert(offsetof(struct mlx5_net_rxq, stash_n) + sizeof(uint16_t) <=
			      RTE_CACHE_LINE_MIN_SIZE &&
		      offsetof(struct mlx5_net_rxq, st.bytes) +
				      sizeof(uint64_t) <=
			      2 * RTE_CACHE_LINE_MIN_SIZE &&
		      offsetof(struct mlx5_net_rxq, mr) %
				      RTE_CACHE_LINE_MIN_SIZE ==
			      0,
	      "the Rx queue's hot lines");

/* The packet type of each value of a CQE's l4_l3_hdr_type byte. */
static uint32_t mlx5_net_ptype_of[256];

/*
 * The checksum verdicts of a CQE: index l4_l3_hdr_type << 2 | the L3_OK
 * and L4_OK bits of hds_ip_ext.
 */
#define MLX5_NET_CSUM_IDX(t, ok) \
	((uint32_t)(t) << 2 | (((ok) & (MLX5_CQE_L3_OK | MLX5_CQE_L4_OK)) >> 1))
static uint16_t mlx5_net_csum_of[256 << 2];

RTE_INIT(mlx5_net_ptype_init)
{
	unsigned int t, ok;

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
		for (ok = 0; ok < 8; ok++) {
			uint64_t flags = 0;

			if (l3 == MLX5_CQE_L3_HDR_TYPE_IPV4)
				flags |= (ok & MLX5_CQE_L3_OK) ?
						 RTE_MBUF_F_RX_IP_CKSUM_GOOD :
						 RTE_MBUF_F_RX_IP_CKSUM_BAD;
			if (l4 != MLX5_CQE_L4_HDR_TYPE_NONE)
				flags |= (ok & MLX5_CQE_L4_OK) ?
						 RTE_MBUF_F_RX_L4_CKSUM_GOOD :
						 RTE_MBUF_F_RX_L4_CKSUM_BAD;
			RTE_VERIFY(flags <= UINT16_MAX);
			mlx5_net_csum_of[MLX5_NET_CSUM_IDX(t, ok)] =
				(uint16_t)flags;
		}
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
	if (rxq->csum)
		flags = mlx5_net_csum_of[MLX5_NET_CSUM_IDX(t, cqe->hds_ip_ext)];
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
 * Fill the queue's stash from the pool in bulk (rte_mempool_get_bulk():
 * through this lcore's cache, never the mempool's internals) so that it
 * holds at least @need mbufs: false if the pool has too few. A mempool's
 * mbufs have
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
	if (need > rxq->stash_n &&
	    rte_mempool_get_bulk(rxq->mp, room, need - rxq->stash_n) == 0) {
		rxq->stash_n = (uint16_t)need;
		return true;
	}
	return false;
}

/* @n fresh mbufs from the queue's stash; false (nothing taken) if none. */
static __rte_always_inline bool
mlx5_net_rx_fresh(struct mlx5_net_rxq *rxq, struct rte_mbuf **rep, uint32_t n)
{
	uint32_t i;

	if (unlikely(rxq->stash_n < n) && !mlx5_net_rx_refill(rxq, n))
		return false;
	for (i = 0; i < n; i++)
		rep[i] = rxq->stash[--rxq->stash_n];
	return true;
}

/* data_off, refcnt, nb_segs and port of an mbuf going up, in one store. */
static __rte_always_inline void
mlx5_net_rx_rearm(struct rte_mbuf *m, uint64_t rearm)
{
	uintptr_t p = (uintptr_t)&m->rearm_data;

	*(uint64_t *)p = rearm;
}

/*
 * Give fresh Rx mbuf @r its pool's own buffer back when it has another:
 * the stale state of an mbuf that an application pointed elsewhere (e.g.
 * at another vHCA's memory, flagged private IOVA) and freed. Rx posts
 * pool memory only, under the pool's key: never a key from buf_iova.
 */
static __rte_noinline void
mlx5_net_rx_own_buffer(struct rte_mbuf *r, uint64_t piova)
{
	char *own;

	r->ol_flags &= ~piova;
	if (!RTE_MBUF_DIRECT(r) || (rte_pktmbuf_priv_flags(r->pool) &
				    RTE_PKTMBUF_POOL_F_PINNED_EXT_BUF))
		return;
	own = rte_mbuf_buf_addr(r, r->pool);
	if (r->buf_addr != own) {
		r->buf_addr = own;
		r->buf_iova = rte_mempool_virt2iova(r) +
			      (rte_iova_t)(own - (char *)r);
		r->buf_len = rte_pktmbuf_data_room_size(r->pool);
	}
}

/* The key of fresh Rx mbuf @r's own buffer (repaired if it was not). */
static __rte_always_inline uint32_t
mlx5_net_rx_lkey(struct mlx5_mr_ctrl *mr, struct rte_mbuf *r)
{
	if (unlikely((r->ol_flags & mr->private_iova_flag) != 0 ||
		     (RTE_MBUF_DIRECT(r) &&
		      r->buf_addr != rte_mbuf_buf_addr(r, r->pool) &&
		      !(rte_pktmbuf_priv_flags(r->pool) &
			RTE_PKTMBUF_POOL_F_PINNED_EXT_BUF))))
		mlx5_net_rx_own_buffer(r, mr->private_iova_flag);
	return mlx5_mr_mb2lkey(mr, r);
}

uint32_t
mlx5_net_rx_buf_lkey(struct mlx5_mr_ctrl *mr, struct rte_mbuf *r)
{
	return mlx5_net_rx_lkey(mr, r);
}

/* Point data segment @d at the data room of fresh mbuf @r. */
static __rte_always_inline void
mlx5_net_rx_post(struct mlx5_wqe_data_seg *d, struct rte_mbuf *r,
		 uint32_t lkey_be)
{
	d->lkey = lkey_be;
	d->addr =
		rte_cpu_to_be_64((uintptr_t)r->buf_addr + RTE_PKTMBUF_HEADROOM);
}

/*
 * The frame of @len bytes in WQE slot @w: its mbufs go up, fresh ones take
 * their place. NULL (frame dropped, buffers reposted) without mbufs.
 */
static struct rte_mbuf *
mlx5_net_rx_take(struct mlx5_net_rxq *rxq, struct mlx5_mr_ctrl *mr, uint32_t w,
		 uint32_t len)
{
	uint32_t sges = 1u << rxq->log_sges;
	uint32_t used =
		rxq->scatter ? (len + rxq->seg_len - 1) / rxq->seg_len : 1;
	struct rte_mbuf **slot = &rxq->elts[w << rxq->log_sges];
	struct rte_mbuf *rep[MLX5_NET_MAX_RX_SEGS];
	struct rte_mbuf *head = slot[0], *prev = NULL;
	uint32_t s, left = len;

	if (used == 0)
		used = 1;
	if (unlikely(used > sges) ||
	    unlikely(!mlx5_net_rx_fresh(rxq, rep, used))) {
		rxq->st.nombuf++;
		/* ethdev's data is shared; priv->eth is the primary's. */
		rte_eth_devices[rxq->port_id].data->rx_mbuf_alloc_failed++;
		return NULL;
	}
	for (s = 0; s < used; s++) {
		struct rte_mbuf *m = slot[s], *r = rep[s];
		struct mlx5_wqe_data_seg *d =
			(void *)(rxq->wqes + ((size_t)w << rxq->log_stride) +
				 16 * s);

		/* data_off, refcnt 1, nb_segs 1, port: what the pool left. */
		mlx5_net_rx_rearm(m, rxq->mbuf_rearm);
		m->data_len = (uint16_t)RTE_MIN(left, rxq->seg_len);
		left -= m->data_len;
		if (prev != NULL)
			prev->next = m;
		prev = m;
		slot[s] = r;
		mlx5_net_rx_post(d, r,
				 rte_cpu_to_be_32(mlx5_net_rx_lkey(mr, r)));
	}
	head->nb_segs = (uint16_t)used;
	head->pkt_len = len;
	head->vlan_tci = 0;
	return head;
}

/*
 * Compressed CQEs (rxq->zip; mlx5_prm_rx.h has the layout): the mini-CQE
 * array holding mini-CQE @j of the session whose header is in slot @slot
 * of @rxq's CQ (array 0 in slot 1, array k in slot 8k).
 */
static __rte_always_inline const volatile struct mlx5_mini_cqe8 *
mlx5_net_rx_mini_array(const struct mlx5_net_rxq *rxq, uint32_t slot,
		       uint32_t j)
{
	const uint32_t mask = (1u << rxq->log_cq_n) - 1;
	uint32_t at = slot + (j < MLX5_MINI_CQE_ARRAY_SIZE ?
				      1 :
				      j & ~(MLX5_MINI_CQE_ARRAY_SIZE - 1u));

	return (const volatile void *)&rxq->cqes[at & mask];
}

/*
 * Mini-CQE @j of the session whose header is in slot @slot of @rxq's
 * CQ.
 */
static __rte_always_inline const volatile struct mlx5_mini_cqe8 *
mlx5_net_rx_mini(const struct mlx5_net_rxq *rxq, uint32_t slot, uint32_t j)
{
	return mlx5_net_rx_mini_array(rxq, slot, j) +
	       (j & (MLX5_MINI_CQE_ARRAY_SIZE - 1u));
}

/*
 * Mark the @n slots from @slot invalid once their session is consumed: the
 * device writes a session's header and mini-CQE arrays only, so the other
 * slots, and these in a later pass, would still hold what an earlier pass
 * wrote, with an owner bit that may read as the device's new CQE (DPDK's
 * PMD invalidates them too).
 */
static __rte_always_inline void
mlx5_net_rx_zip_consumed(const struct mlx5_net_rxq *rxq, uint32_t slot,
			 uint32_t n)
{
	const uint32_t mask = (1u << rxq->log_cq_n) - 1;
	volatile struct mlx5_cqe64 *p = &rxq->cqes[slot & mask];
	/* A session stops at the ring's end (the device's rule): one run. */
	uint32_t run = RTE_MIN(n, mask + 1 - (slot & mask)), j;

	for (j = 0; j < run; j++)
		p[j].op_own = MLX5_CQE_INVALID << 4;
	for (; j < n; j++)
		rxq->cqes[(slot + j) & mask].op_own = MLX5_CQE_INVALID << 4;
}

/*
 * Rewrite CQEs @from.. of the compressed session whose header is in slot
 * @slot, in place, as the CQEs they stand for: from slot @slot + @from on
 * the CQ then reads as if it were not compressed (the general path, and
 * the fast path's session it cannot finish). The slots are the driver's
 * until its consumer counter passes them. From the last CQE back: the
 * slot of mini-CQE j is at or before the slot of CQE j, so a mini-CQE is
 * read before its slot is written; the header and mini-CQE 0 (in slot 1,
 * which CQE 1 takes) are read first.
 */
static __rte_noinline void
mlx5_net_rx_unzip(const struct mlx5_net_rxq *rxq, uint32_t slot, uint32_t from)
{
	const uint32_t mask = (1u << rxq->log_cq_n) - 1;
	struct mlx5_cqe_eth hdr;
	struct mlx5_mini_cqe8 m0;
	uint32_t n, j;

	rte_memcpy(&hdr, (const void *)(uintptr_t)&rxq->cqes[slot & mask],
		   sizeof(hdr));
	m0 = *(const struct mlx5_mini_cqe8 *)(uintptr_t)mlx5_net_rx_mini(
		rxq, slot, 0);
	n = rte_be_to_cpu_32(hdr.byte_cnt);
	for (j = n; j-- > from;) {
		struct mlx5_mini_cqe8 m =
			j == 0 ? m0 :
				 *(const struct mlx5_mini_cqe8 *)(uintptr_t)
					 mlx5_net_rx_mini(rxq, slot, j);
		struct mlx5_cqe_eth c = hdr;
		volatile struct mlx5_cqe_eth *to =
			(volatile void *)&rxq->cqes[(slot + j) & mask];

		c.byte_cnt = m.byte_cnt;
		c.rss_hash_result = m.rx_hash_result;
		c.wqe_counter = rte_cpu_to_be_16(
			(uint16_t)(rte_be_to_cpu_16(hdr.wqe_counter) + j));
		/* Format 0, the owner bit of the slot's pass. */
		c.op_own = (uint8_t)((hdr.op_own & 0xf0) |
				     (((slot + j) >> rxq->log_cq_n) & 1));
		rte_memcpy((void *)(uintptr_t)to, &c, sizeof(c));
	}
}

/* Is this CQE a compressed session's header? */
static __rte_always_inline bool
mlx5_net_rx_zipped(uint8_t op_own)
{
	return ((op_own >> MLX5_CQE_FORMAT_SHIFT) & MLX5_CQE_FORMAT_MASK) ==
	       MLX5_CQE_FORMAT_COMPRESSED;
}

/*
 * The general Rx burst: any queue, error completions, an empty pool. The
 * fast path hands over to it with the queue's state written back.
 */
static __rte_noinline uint16_t
mlx5_net_rx_general(struct mlx5_net_rxq *rxq, struct mlx5_mr_ctrl *mr,
		    struct rte_mbuf **pkts, uint16_t n)
{
	uint32_t cq_mask = (1u << rxq->log_cq_n) - 1;
	uint32_t wqe_mask = (1u << rxq->log_wqe_n) - 1;
	uint64_t bytes = 0;
	uint16_t got = 0;
	bool seen = false;

	while (got < n) {
		volatile struct mlx5_cqe_eth *cqe =
			(volatile void *)&rxq->cqes[rxq->cq_ci & cq_mask];
		enum mlx5_cqe_status st =
			mlx5_cqe_status((volatile struct mlx5_cqe64 *)cqe,
					rxq->log_cq_n, rxq->cq_ci);
		uint32_t w;
		struct rte_mbuf *m;

		if (st == MLX5_CQE_STATUS_HW_OWN)
			break;
		if (unlikely(mlx5_net_rx_zipped(cqe->op_own))) {
			if (likely(rte_be_to_cpu_32(cqe->byte_cnt) >= 2)) {
				/* A session, CQE by CQE here. */
				mlx5_net_rx_unzip(rxq, rxq->cq_ci, 0);
				continue;
			}
			/* Not a session the device writes: recover. */
			rxq->st.errors++;
			DRV_LOG(ERR,
				"port %u Rx queue %u: a compressed"
				" session of %u CQEs",
				rxq->port_id, rxq->idx,
				rte_be_to_cpu_32(cqe->byte_cnt));
			if (mlx5_net_rxq_recover(rxq) != 0)
				break;
			seen = false;
			continue;
		}
		seen = true;
		rxq->cq_ci++;
		w = rte_be_to_cpu_16(cqe->wqe_counter) & wqe_mask;
		if (unlikely(st == MLX5_CQE_STATUS_ERR)) {
			volatile struct mlx5_err_cqe *ecqe =
				(volatile void *)cqe;
			uint8_t synd = ecqe->syndrome;

			rxq->st.errors++;
			mlx5_net_err_note(&rxq->st, false, rxq->port_id,
					  rxq->idx,
					  (volatile struct mlx5_cqe64 *)cqe);
			if (synd == MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR) {
				/* The RQ is still ready: the WQE is reused. */
				mlx5_net_rx_repost(rxq);
				continue;
			}
			mlx5_cq_db_update(rxq->cq_db, rxq->cq_ci);
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
		mlx5_cq_db_update(rxq->cq_db, rxq->cq_ci);
		rte_io_wmb();
		*rxq->rq_db = rte_cpu_to_be_32(rxq->pi);
	}
	rxq->st.packets += got;
	rxq->st.bytes += bytes;
	return got;
}

/*
 * The offloads of @cnt frames of the fast path, from their CQEs (in a row
 * from @cqe): checksum verdicts, RSS hash, timestamp.
 */
static __rte_noinline void
mlx5_net_rx_offloads(const struct mlx5_net_rxq *rxq,
		     const volatile struct mlx5_cqe_eth *cqe,
		     struct rte_mbuf **pkts, uint32_t cnt)
{
	uint32_t i;

	for (i = 0; i < cnt; i++)
		mlx5_net_rx_cqe_meta(rxq, &cqe[i], pkts[i]);
}

/*
 * The MR cache's bottom half for a fresh Rx mbuf (its own buffer given
 * back first if it had another): its key, big-endian.
 */
static __rte_noinline uint32_t
mlx5_net_rx_lkey_miss(struct mlx5_mr_ctrl *mr, struct rte_mbuf *r)
{
	return rte_cpu_to_be_32(mlx5_net_rx_lkey(mr, r));
}

/*
 * The MR cache's most recent range, in registers across a burst: an
 * address of it is lo1 + [0, span), one compare.
 */
struct mlx5_net_rx_mru {
	uintptr_t lo1, span;
	uint32_t lkey_be;
	uint64_t piova;
};

/* @c from the MR cache's most recent range (an empty one: span 0). */
static __rte_always_inline void
mlx5_net_rx_mru_load(struct mlx5_net_rx_mru *c, const struct mlx5_mr_ctrl *mr)
{
	uintptr_t lo = mr->mru_lo[0], end = mr->mru_end[0];

	c->lo1 = lo + 1;
	c->span = end > lo ? end - lo - 1 : 0;
	c->lkey_be = rte_cpu_to_be_32(mr->mru_lkey[0]);
}

/*
 * The fast paths' fresh mbuf @r posted in mbuf slot @e and data segment
 * @d, under the key of the MR cache's most recent range when its buffer
 * is in it and it has no private-IOVA flag, else after the MR cache's
 * bottom half (which gives a stale mbuf its own buffer back first).
 * Returns the frame's mbuf, which was there.
 */
static __rte_always_inline struct rte_mbuf *
mlx5_net_rx_put_fresh(struct mlx5_mr_ctrl *mr, struct mlx5_net_rx_mru *c,
		      struct mlx5_wqe_data_seg *d, struct rte_mbuf **e,
		      struct rte_mbuf *r)
{
	struct rte_mbuf *m = *e;
	uintptr_t addr = (uintptr_t)r->buf_addr;
	uint32_t lkey;

	if (likely(addr - c->lo1 < c->span && !(r->ol_flags & c->piova))) {
		lkey = c->lkey_be;
	} else {
		lkey = mlx5_net_rx_lkey_miss(mr, r);
		addr = (uintptr_t)r->buf_addr;
		mlx5_net_rx_mru_load(c, mr);
	}
	d->lkey = lkey;
	d->addr = rte_cpu_to_be_64(addr + RTE_PKTMBUF_HEADROOM);
	*e = r;
	return m;
}

/*
 * The scalar fast path's frame of @len bytes in the WQE of data segment
 * @d and mbuf slot @e: the fresh mbuf @r posted in its place, the frame's
 * mbuf returned with the fields every frame gets (offload flags @flags).
 */
static __rte_always_inline struct rte_mbuf *
mlx5_net_rx_swap(struct mlx5_mr_ctrl *mr, struct mlx5_net_rx_mru *c,
		 struct mlx5_wqe_data_seg *d, struct rte_mbuf **e,
		 struct rte_mbuf *r, uint64_t rearm, uint32_t len,
		 uint64_t flags)
{
	struct rte_mbuf *m = mlx5_net_rx_put_fresh(mr, c, d, e, r);

	mlx5_net_rx_rearm(m, rearm);
	m->pkt_len = len;
	m->data_len = (uint16_t)len;
	m->vlan_tci = 0;
	m->ol_flags = flags;
	return m;
}

/*
 * The vector Rx fast path (rx_vec_en): GCC/Clang vector extensions, which
 * the compiler lowers to the target's SIMD (SSE, NEON) or to scalar code,
 * one source for every architecture. 16 bytes of a CQE are shuffled into
 * the 16 bytes of the mbuf's Rx descriptor fields (packet type, pkt_len,
 * data_len, vlan_tci, hash), byte-swapped by the shuffle; the mbuf's
 * rearm data and offload flags are one 16-byte store.
 */
typedef uint8_t mlx5_net_v16u8 __attribute__((vector_size(16)));
/*
 * A byte shuffle of @a and @b (indices 0-15 from @a, 16-31 from @b):
 * __builtin_shufflevector (Clang; GCC from 12), else GCC's own
 * __builtin_shuffle (GCC from 4.7: the GCC 11 of BlueField's Ubuntu
 * 22.04). MLX5_NET_VEC_GCC_SHUFFLE forces the latter, which the portable
 * test build does, so that both forms run the tests.
 */
#if (defined(__clang__) || (defined(__GNUC__) && __GNUC__ >= 12)) && \
	!defined(MLX5_NET_VEC_GCC_SHUFFLE)
#define MLX5_NET_SHUFFLE(a, b, ...) __builtin_shufflevector(a, b, __VA_ARGS__)
#else
#define MLX5_NET_SHUFFLE(a, b, ...) \
	__builtin_shuffle(a, b, (mlx5_net_v16u8){ __VA_ARGS__ })
#endif
typedef uint32_t mlx5_net_v4u32 __attribute__((vector_size(16)));
typedef uint64_t mlx5_net_v2u64 __attribute__((vector_size(16)));

/* The CQE's bytes the shuffle reads: 32-47 (byte_cnt at 44). */
#define MLX5_NET_RX_VEC_CQE_OFF 32
/* Two checks of the layout the vector path writes. */
static_assert(offsetof(struct mlx5_cqe_eth, byte_cnt) ==
		      MLX5_NET_RX_VEC_CQE_OFF + 12,
	      "byte_cnt at byte 12 of the vector read");
static_assert(offsetof(struct rte_mbuf, pkt_len) ==
			      offsetof(struct rte_mbuf, packet_type) + 4 &&
		      offsetof(struct rte_mbuf, data_len) ==
			      offsetof(struct rte_mbuf, packet_type) + 8 &&
		      offsetof(struct rte_mbuf, vlan_tci) ==
			      offsetof(struct rte_mbuf, packet_type) + 10 &&
		      offsetof(struct rte_mbuf, hash) ==
			      offsetof(struct rte_mbuf, packet_type) + 12 &&
		      offsetof(struct rte_mbuf, ol_flags) ==
			      offsetof(struct rte_mbuf, rearm_data) + 8,
	      "the mbuf fields the vector path writes in one store");

/*
 * A frame's mbuf @m as it goes up: rearm data and offload flags
 * (@rearm_flags), then the Rx descriptor fields (@fields: packet type,
 * pkt_len, data_len and vlan_tci, hash), two 16-byte stores.
 */
static __rte_always_inline void
mlx5_net_rx_vec_fields(struct rte_mbuf *m, mlx5_net_v2u64 rearm_flags,
		       mlx5_net_v4u32 fields)
{
	memcpy((uint8_t *)m + offsetof(struct rte_mbuf, rearm_data),
	       &rearm_flags, sizeof(rearm_flags));
	memcpy((uint8_t *)m + offsetof(struct rte_mbuf, packet_type), &fields,
	       sizeof(fields));
}

/*
 * A frame of a vector round: CQE @q, mbuf slot @e and data segment @d
 * (each at the frame), fresh mbuf @r posted in its place, the frame's mbuf
 * into *@out, with the checksum verdicts (@csum) and RSS hash (@rss) as
 * mlx5_net_rx_cqe_meta() gives them. Returns its length.
 */
static __rte_always_inline uint32_t
mlx5_net_rx_vec1(struct mlx5_mr_ctrl *mr, struct mlx5_net_rx_mru *c,
		 const volatile struct mlx5_cqe_eth *q,
		 struct mlx5_wqe_data_seg *d, struct rte_mbuf **e,
		 struct rte_mbuf *r, struct rte_mbuf **out,
		 mlx5_net_v2u64 rearm_flags, bool csum, bool rss)
{
	const mlx5_net_v16u8 zero = { 0 };
	mlx5_net_v16u8 raw, f;
	mlx5_net_v4u32 fields;
	uint8_t t = q->l4_l3_hdr_type;

	memcpy(&raw, (const uint8_t *)(uintptr_t)q + MLX5_NET_RX_VEC_CQE_OFF,
	       sizeof(raw));
	/*
	 * packet_type 0 (set below), pkt_len the byte count byte-swapped,
	 * data_len its low 16 bits, vlan_tci and hash 0 (set below).
	 */
	f = MLX5_NET_SHUFFLE(raw, zero, 16, 16, 16, 16, 15, 14, 13, 12, 15, 14,
			     16, 16, 16, 16, 16, 16);
	fields = (mlx5_net_v4u32)f;
	fields[0] = mlx5_net_ptype_of[t];
	if (csum)
		rearm_flags[1] =
			mlx5_net_csum_of[MLX5_NET_CSUM_IDX(t, q->hds_ip_ext)];
	if (rss && q->rss_hash_type != 0) {
		fields[3] = rte_be_to_cpu_32(q->rss_hash_result);
		rearm_flags[1] |= RTE_MBUF_F_RX_RSS_HASH;
	}
	*out = mlx5_net_rx_put_fresh(mr, c, d, e, r);
	mlx5_net_rx_vec_fields(*out, rearm_flags, fields);
	return fields[1];
}

/*
 * A frame of a compressed session on the vector path: mini-CQE @mc,
 * fields @base (the session's packet type) and @keep (the hash lane
 * kept with RSS hash), the rest as mlx5_net_rx_vec1().
 */
static __rte_always_inline uint32_t
mlx5_net_rx_vec_mini(struct mlx5_mr_ctrl *mr, struct mlx5_net_rx_mru *c,
		     const volatile struct mlx5_mini_cqe8 *mc,
		     struct mlx5_wqe_data_seg *d, struct rte_mbuf **e,
		     struct rte_mbuf *r, struct rte_mbuf **out,
		     mlx5_net_v2u64 rearm_flags, mlx5_net_v4u32 base,
		     mlx5_net_v4u32 keep)
{
	const mlx5_net_v16u8 zero = { 0 };
	mlx5_net_v2u64 w = { 0, 0 };
	mlx5_net_v16u8 f;
	mlx5_net_v4u32 fields;
	uint64_t x;

	/* Eight bytes: the mini-CQE may end its CQ's ring. */
	memcpy(&x, (const void *)(uintptr_t)mc, sizeof(x));
	w[0] = x;
	/* Hash (bytes 0-3) and byte count (4-7), both big-endian. */
	f = MLX5_NET_SHUFFLE((mlx5_net_v16u8)w, zero, 16, 16, 16, 16, 7, 6, 5,
			     4, 7, 6, 16, 16, 3, 2, 1, 0);
	fields = ((mlx5_net_v4u32)f & keep) | base;
	*out = mlx5_net_rx_put_fresh(mr, c, d, e, r);
	mlx5_net_rx_vec_fields(*out, rearm_flags, fields);
	return fields[1];
}

/*
 * The fast path's compressed session, its header at @hdr (slot @slot):
 * up to @lim of its frames, in the WQEs and mbuf slots from @d and @e,
 * into @out (@bytes summed), fresh mbufs from below @stash. The offloads
 * of all come from the header, the RSS hash of each from its hash
 * mini-CQE. A session longer than @lim is unzipped from there on for the
 * next call. Returns the frames taken.
 */
static __rte_always_inline uint32_t
mlx5_net_rx_session(struct mlx5_net_rxq *rxq, struct mlx5_mr_ctrl *mr,
		    struct mlx5_net_rx_mru *c, uint32_t slot,
		    const volatile struct mlx5_cqe_eth *hdr,
		    struct mlx5_wqe_data_seg *d, struct rte_mbuf **e,
		    struct rte_mbuf **stash, struct rte_mbuf **out,
		    uint32_t lim, uint64_t *bytes, const bool vec)
{
	const uint32_t cnt = rte_be_to_cpu_32(hdr->byte_cnt);
	const uint32_t ptype = mlx5_net_ptype_of[hdr->l4_l3_hdr_type];
	const bool rss = rxq->rss_hash && hdr->rss_hash_type != 0;
	const uint64_t rearm = rxq->mbuf_rearm;
	uint64_t flags = 0, sum = 0;
	uint32_t k = RTE_MIN(cnt, lim), j = 0;

	if (rxq->csum)
		flags = mlx5_net_csum_of[MLX5_NET_CSUM_IDX(hdr->l4_l3_hdr_type,
							   hdr->hds_ip_ext)];
	if (rss)
		flags |= RTE_MBUF_F_RX_RSS_HASH;
	while (j < k) {
		/* Mini-CQE array j / 8, whole. */
		const volatile struct mlx5_mini_cqe8 *mc =
			mlx5_net_rx_mini_array(rxq, slot, j);
		const uint32_t end = RTE_MIN(k, j + MLX5_MINI_CQE_ARRAY_SIZE);

		if (vec && RTE_BYTE_ORDER == RTE_LITTLE_ENDIAN) {
			const mlx5_net_v2u64 rearm_flags = { rearm, flags };
			const mlx5_net_v4u32 base = { ptype, 0, 0, 0 };
			const mlx5_net_v4u32 keep = { 0, UINT32_MAX, UINT32_MAX,
						      rss ? UINT32_MAX : 0 };

			for (; j < end; j++, mc++)
				sum += mlx5_net_rx_vec_mini(
					mr, c, mc, &d[j], &e[j], *--stash,
					&out[j], rearm_flags, base, keep);
			continue;
		}
		for (; j < end; j++, mc++) {
			uint32_t len = rte_be_to_cpu_32(mc->byte_cnt);
			struct rte_mbuf *m =
				mlx5_net_rx_swap(mr, c, &d[j], &e[j], *--stash,
						 rearm, len, flags);

			m->packet_type = ptype;
			if (rss)
				m->hash.rss =
					rte_be_to_cpu_32(mc->rx_hash_result);
			out[j] = m;
			sum += len;
		}
	}
	*bytes += sum;
	/* What is left of a session cut short is read as CQEs next time. */
	if (unlikely(k < cnt))
		mlx5_net_rx_unzip(rxq, slot, k);
	mlx5_net_rx_zip_consumed(rxq, slot, k);
	return k;
}

/*
 * Rounds of four good receive completions from @cqe (each owner byte as
 * @want under @want_mask): their frames, in the WQEs and mbuf slots from
 * @d and @e, into @out (@bytes summed), fresh mbufs from below @stash, up
 * to @lim frames, their checksum verdicts with @csum and RSS hash with
 * @rss. Returns the frames taken, a multiple of four: the scalar loop
 * goes on from there (a CQE not good, the last few). Little-endian
 * targets only (the shuffles' byte order): the caller checks.
 */
static __rte_always_inline uint32_t
mlx5_net_rx_vec(struct mlx5_mr_ctrl *mr, struct mlx5_net_rx_mru *c,
		const volatile struct mlx5_cqe_eth *cqe,
		struct mlx5_wqe_data_seg *d, struct rte_mbuf **e,
		struct rte_mbuf **stash, struct rte_mbuf **out, uint32_t lim,
		uint8_t want, uint8_t want_mask, uint64_t rearm,
		uint64_t *bytes, bool csum, bool rss)
{
	const uint32_t want4 = want * 0x01010101u;
	const uint32_t mask4 = want_mask * 0x01010101u;
	const mlx5_net_v2u64 rearm_flags = { rearm, 0 };
	const volatile struct mlx5_cqe_eth *const end = cqe + (lim & ~3u);
	const volatile struct mlx5_cqe_eth *q = cqe;
	uint64_t sum = 0;

	for (; q != end; q += 4, d += 4, e += 4, stash -= 4, out += 4) {
		uint32_t own = (uint32_t)q[0].op_own |
			       (uint32_t)q[1].op_own << 8 |
			       (uint32_t)q[2].op_own << 16 |
			       (uint32_t)q[3].op_own << 24;

		if ((own & mask4) != want4)
			break;
		rte_io_rmb();
		sum += mlx5_net_rx_vec1(mr, c, &q[0], &d[0], &e[0], stash[-1],
					&out[0], rearm_flags, csum, rss);
		sum += mlx5_net_rx_vec1(mr, c, &q[1], &d[1], &e[1], stash[-2],
					&out[1], rearm_flags, csum, rss);
		sum += mlx5_net_rx_vec1(mr, c, &q[2], &d[2], &e[2], stash[-3],
					&out[2], rearm_flags, csum, rss);
		sum += mlx5_net_rx_vec1(mr, c, &q[3], &d[3], &e[3], stash[-4],
					&out[3], rearm_flags, csum, rss);
	}
	*bytes += sum;
	return (uint32_t)(q - cqe);
}

/*
 * What a port's Rx queues ask of the burst, known when the port starts:
 * the burst function is chosen then (mlx5_net_rx_burst_fn()), each the
 * body below for one mode, so that a burst tests no offload its port's
 * queues do not have.
 */
enum mlx5_net_rx_mode {
	/* No queue with checksum, RSS hash, timestamp or scatter. */
	MLX5_NET_RX_MODE_PLAIN,
	/* Checksum verdicts or RSS hash; no timestamp, no scatter. */
	MLX5_NET_RX_MODE_META,
	/*
	 * Any queue (a timestamp, scatter), its flags tested by each burst:
	 * also a port with no queue (at probe) and a secondary process's
	 * bursts, which are fixed when it attaches.
	 */
	MLX5_NET_RX_MODE_ANY,
};

/*
 * The Rx burst, with the MR cache of this process, for queues of @mode (a
 * constant). The fast path (one mbuf per frame) takes runs of good
 * completions that neither wrap the CQ nor outnumber the stash; anything
 * else is the general path's.
 */
static __rte_always_inline uint16_t
mlx5_net_rx_body(struct mlx5_net_rxq *rxq, struct mlx5_mr_ctrl *mr,
		 struct rte_mbuf **pkts, uint16_t n, const bool vec,
		 const enum mlx5_net_rx_mode mode)
{
	const uint32_t cq_n = 1u << rxq->log_cq_n;
	const uint32_t wqe_mask = (1u << rxq->log_wqe_n) - 1;
	const bool ts = mode == MLX5_NET_RX_MODE_ANY && rxq->ts_offset >= 0;
	const bool offloads = mode != MLX5_NET_RX_MODE_PLAIN &&
			      (rxq->csum || rxq->rss_hash || ts);
	/* The vector rounds give the checksums and hash (no timestamp). */
	const bool vec_meta = vec && offloads && !ts;
	uint32_t ci;
	uint16_t rpi;
	uint64_t bytes = 0;
	uint16_t got = 0;
	bool more = false;

	if (unlikely(rxq->stopped))
		return 0;
	if (mode == MLX5_NET_RX_MODE_ANY && unlikely(rxq->scatter))
		return mlx5_net_rx_general(rxq, mr, pkts, n);
	mlx5_net_mr_gen_check(mr);
	ci = rxq->cq_ci;
	rpi = rxq->pi;
	while (got < n) {
		/*
		 * A cyclic RQ completes its WQEs in order: the next is the
		 * one the receive counter names (as the CQE's wqe_counter).
		 */
		const uint32_t wi = rpi & wqe_mask;
		volatile struct mlx5_cqe_eth *cqe =
			(volatile void *)&rxq->cqes[ci & (cq_n - 1)];
		struct mlx5_wqe_data_seg *d =
			(struct mlx5_wqe_data_seg *)(void *)rxq->wqes + wi;
		struct rte_mbuf **e = rxq->elts + wi, **stash, **out;
		const uint64_t rearm = rxq->mbuf_rearm;
		struct mlx5_net_rx_mru c = { .piova = mr->private_iova_flag };
		/* A good uncompressed receive completion of this pass. */
		const uint8_t want =
			MLX5_CQE_RESP_SEND << 4 | ((ci & cq_n) != 0);
		const uint8_t want_mask =
			0xf0 | MLX5_CQE_FORMAT_MASK << MLX5_CQE_FORMAT_SHIFT |
			MLX5_CQE_OWNER_MASK;
		bool zip = false;
		uint32_t lim, i, k = 0, v = 0;

		mlx5_net_rx_mru_load(&c, mr);
		if (rxq->stash_n < n - got)
			mlx5_net_rx_refill(
				rxq, RTE_MIN((uint32_t)(n - got),
					     (uint32_t)MLX5_NET_RX_STASH));
		lim = RTE_MIN((uint32_t)(n - got), (uint32_t)rxq->stash_n);
		if (unlikely(lim == 0)) {
			/* An empty pool: the general path drops frames. */
			more = true;
			break;
		}
		/* Up to the end of the CQ and of the RQ. */
		lim = RTE_MIN(lim, cq_n - (ci & (cq_n - 1)));
		lim = RTE_MIN(lim, wqe_mask + 1 - wi);
		stash = &rxq->stash[rxq->stash_n];
		out = &pkts[got];
		i = 0;
		/* The shuffles are little-endian's: else the scalar loop. */
		if (vec && RTE_BYTE_ORDER == RTE_LITTLE_ENDIAN) {
			/*
			 * Rounds of four, with their checksums and hash
			 * unless a timestamp asks the offloads pass for
			 * every frame; the scalar loop for the rest.
			 */
			if (vec_meta)
				i = mlx5_net_rx_vec(mr, &c, cqe, d, e, stash,
						    out, lim, want, want_mask,
						    rearm, &bytes, rxq->csum,
						    rxq->rss_hash);
			else
				/* Without: a copy of it without them. */
				i = mlx5_net_rx_vec(mr, &c, cqe, d, e, stash,
						    out, lim, want, want_mask,
						    rearm, &bytes, false,
						    false);
			stash -= i;
			v = vec_meta ? i : 0;
		}
		for (; i < lim; i++) {
			uint8_t op_own = cqe[i].op_own;
			struct rte_mbuf *m;
			uint32_t len;

			if (unlikely((op_own & want_mask) != want)) {
				/* Not the device's, nor a new CQ's: others. */
				if (((op_own ^ want) & MLX5_CQE_OWNER_MASK) ==
					    0 &&
				    (op_own >> 4) != MLX5_CQE_INVALID) {
					if ((op_own & 0xf0) == (want & 0xf0) &&
					    mlx5_net_rx_zipped(op_own))
						zip = true;
					else
						more = true;
				}
				break;
			}
			rte_io_rmb();
			RTE_ASSERT(((rte_be_to_cpu_16(cqe[i].wqe_counter) ^
				     (wi + i)) &
				    wqe_mask) == 0);
			len = rte_be_to_cpu_32(cqe[i].byte_cnt);
			m = mlx5_net_rx_swap(mr, &c, &d[i], &e[i], *--stash,
					     rearm, len, 0);
			m->packet_type =
				mlx5_net_ptype_of[cqe[i].l4_l3_hdr_type];
			out[i] = m;
			bytes += len;
		}
		if (unlikely(offloads) && i > v)
			mlx5_net_rx_offloads(rxq, cqe + v, out + v, i - v);
		if (zip) {
			/* A compressed session: its frames, up to the limit. */
			rte_io_rmb();
			if (likely(rte_be_to_cpu_32(cqe[i].byte_cnt) >= 2)) {
				k = mlx5_net_rx_session(rxq, mr, &c, ci + i,
							&cqe[i], &d[i], &e[i],
							stash, &out[i], lim - i,
							&bytes, vec);
			} else {
				/* Malformed: the general path's. */
				zip = false;
				more = true;
			}
		}
		rxq->stash_n = (uint16_t)(rxq->stash_n - i - k);
		got = (uint16_t)(got + i + k);
		ci += i + k;
		rpi = (uint16_t)(rpi + i + k);
		if (!zip && i != lim)
			break;
	}
	if (ci != rxq->cq_ci) {
		rxq->pi = rpi;
		rxq->cq_ci = ci;
		mlx5_cq_db_update(rxq->cq_db, ci);
		rte_io_wmb();
		*rxq->rq_db = rte_cpu_to_be_32(rxq->pi);
	}
	rxq->st.packets += got;
	rxq->st.bytes += bytes;
	if (unlikely(more))
		got += mlx5_net_rx_general(rxq, mr, pkts + got,
					   (uint16_t)(n - got));
	return got;
}

/*
 * The receive completions the device wrote that no burst took yet: from
 * the consumer index while the device has handed them over, a compressed
 * session counting its frames (what is left of a session a burst cut
 * short is plain CQEs again), at most the RQ's size. Read only: a burst
 * may take them meanwhile, as with any ethdev queue count.
 */
uint32_t
mlx5_net_rx_queue_count(void *q)
{
	const struct mlx5_net_rxq *rxq = q;
	const uint32_t wqe_n = 1u << rxq->log_wqe_n;
	const uint32_t cq_mask = (1u << rxq->log_cq_n) - 1;
	uint32_t ci = rxq->cq_ci, n = 0;

	if (rxq->stopped)
		return 0;
	while (n < wqe_n) {
		volatile struct mlx5_cqe64 *cqe = &rxq->cqes[ci & cq_mask];
		uint32_t k = 1;

		if (mlx5_cqe_status(cqe, rxq->log_cq_n, ci) ==
		    MLX5_CQE_STATUS_HW_OWN)
			break;
		if (mlx5_net_rx_zipped(cqe->op_own))
			k = RTE_MAX(
				rte_be_to_cpu_32(
					((volatile struct mlx5_cqe_eth *)cqe)
						->byte_cnt),
				1u);
		n += k;
		ci += k;
	}
	return RTE_MIN(n, wqe_n);
}

/*
 * Descriptor @offset past the next one: DONE if its completion is there,
 * AVAIL if it waits for a frame (the RQ's descriptors are all posted),
 * EINVAL beyond the ring.
 */
int
mlx5_net_rx_descriptor_status(void *q, uint16_t offset)
{
	const struct mlx5_net_rxq *rxq = q;

	if (offset >= 1u << rxq->log_wqe_n)
		return -EINVAL;
	return offset < mlx5_net_rx_queue_count(q) ? RTE_ETH_RX_DESC_DONE :
						     RTE_ETH_RX_DESC_AVAIL;
}

/* A primary's burst, scalar or vector, of each mode. */
#define MLX5_NET_RX_BURST(name, vec, mode) \
	static uint16_t mlx5_net_rx_burst_##name( \
		void *q, struct rte_mbuf **pkts, uint16_t n) \
	{ \
		struct mlx5_net_rxq *rxq = q; \
\
		return mlx5_net_rx_body(rxq, &rxq->mr, pkts, n, vec, mode); \
	}

/*
 * A secondary's: the queue is the primary's, the MR cache this process's
 * own (the primary's holds its private addresses).
 */
#define MLX5_NET_RX_BURST_SECONDARY(name, vec) \
	static uint16_t mlx5_net_rx_burst_##name##_secondary( \
		void *q, struct rte_mbuf **pkts, uint16_t n) \
	{ \
		struct mlx5_net_rxq *rxq = q; \
		struct mlx5_net_proc *pp = \
			rte_eth_devices[rxq->port_id].process_private; \
		struct mlx5_mr_ctrl *mr = \
			mlx5_net_proc_queue_mr(pp, false, rxq->idx); \
\
		if (unlikely(mr == NULL)) \
			return 0; \
		return mlx5_net_rx_body(rxq, mr, pkts, n, vec, \
					MLX5_NET_RX_MODE_ANY); \
	}

MLX5_NET_RX_BURST(scalar, false, MLX5_NET_RX_MODE_ANY)
MLX5_NET_RX_BURST(scalar_plain, false, MLX5_NET_RX_MODE_PLAIN)
MLX5_NET_RX_BURST(scalar_meta, false, MLX5_NET_RX_MODE_META)
MLX5_NET_RX_BURST(vec, true, MLX5_NET_RX_MODE_ANY)
MLX5_NET_RX_BURST(vec_plain, true, MLX5_NET_RX_MODE_PLAIN)
MLX5_NET_RX_BURST(vec_meta, true, MLX5_NET_RX_MODE_META)
MLX5_NET_RX_BURST_SECONDARY(scalar, false)
MLX5_NET_RX_BURST_SECONDARY(vec, true)

/* The mode of a port's Rx queues (ANY with none). */
static enum mlx5_net_rx_mode
mlx5_net_rx_mode_of(const struct rte_eth_dev_data *data)
{
	enum mlx5_net_rx_mode mode = MLX5_NET_RX_MODE_PLAIN;
	uint16_t i;

	if (data->nb_rx_queues == 0)
		return MLX5_NET_RX_MODE_ANY;
	for (i = 0; i < data->nb_rx_queues; i++) {
		const struct mlx5_net_rxq *rxq = data->rx_queues[i];

		if (rxq == NULL || rxq->scatter || rxq->ts_offset >= 0)
			return MLX5_NET_RX_MODE_ANY;
		if (rxq->csum || rxq->rss_hash)
			mode = MLX5_NET_RX_MODE_META;
	}
	return mode;
}

eth_rx_burst_t
mlx5_net_rx_burst_fn(const struct mlx5_net_priv *priv, bool secondary)
{
	static const eth_rx_burst_t fn[2][3] = {
		[0][MLX5_NET_RX_MODE_PLAIN] = mlx5_net_rx_burst_scalar_plain,
		[0][MLX5_NET_RX_MODE_META] = mlx5_net_rx_burst_scalar_meta,
		[0][MLX5_NET_RX_MODE_ANY] = mlx5_net_rx_burst_scalar,
		[1][MLX5_NET_RX_MODE_PLAIN] = mlx5_net_rx_burst_vec_plain,
		[1][MLX5_NET_RX_MODE_META] = mlx5_net_rx_burst_vec_meta,
		[1][MLX5_NET_RX_MODE_ANY] = mlx5_net_rx_burst_vec,
	};

	if (secondary)
		return priv->rx_vec ? mlx5_net_rx_burst_vec_secondary :
				      mlx5_net_rx_burst_scalar_secondary;
	return fn[priv->rx_vec][mlx5_net_rx_mode_of(priv->eth->data)];
}

const char *
mlx5_net_rx_burst_name(const struct mlx5_net_priv *priv, bool secondary)
{
	static const char *const name[] = {
		[MLX5_NET_RX_MODE_PLAIN] = "no offload",
		[MLX5_NET_RX_MODE_META] =
			"checksum and RSS hash in the fast path",
		[MLX5_NET_RX_MODE_ANY] = "each queue's offloads",
	};

	return name[secondary ? MLX5_NET_RX_MODE_ANY :
				mlx5_net_rx_mode_of(priv->eth->data)];
}

/*
 * Queue recovery: what the burst does after an error completion, also
 * asked by a secondary process (mlx5_net_mp.c) and used by queue
 * start/stop.
 */

static inline void
mlx5_net_rx_seg_set(struct mlx5_net_rxq *rxq, uint32_t w, uint32_t s,
		    struct rte_mbuf *m, uint32_t lkey)
{
	struct mlx5_wqe_data_seg *d =
		(void *)(rxq->wqes + ((size_t)w << rxq->log_stride) + 16 * s);

	d->byte_count = rte_cpu_to_be_32(rxq->seg_len);
	d->lkey = rte_cpu_to_be_32(lkey);
	/* The Rx bursts set data_off when the mbuf goes up. */
	d->addr =
		rte_cpu_to_be_64((uintptr_t)m->buf_addr + RTE_PKTMBUF_HEADROOM);
}

/* Fill every WQE with the mbufs of elts and post them all. */
int
mlx5_net_rxq_post_all(struct mlx5_net_rxq *rxq)
{
	uint32_t n = 1u << rxq->log_wqe_n, sges = 1u << rxq->log_sges, w, s;

	for (w = 0; w < n; w++)
		for (s = 0; s < sges; s++) {
			struct rte_mbuf *m = rxq->elts[w * sges + s];
			uint32_t lkey = mlx5_net_rx_buf_lkey(&rxq->mr, m);

			if (lkey == MLX5_MR_LKEY_INVALID) {
				DRV_LOG(ERR,
					"port %u Rx queue %u: no key for"
					" the mempool's memory: %s",
					rxq->port_id, rxq->idx,
					rte_strerror(rte_errno));
				return -rte_errno;
			}
			mlx5_net_rx_seg_set(rxq, w, s, m, lkey);
		}
	rxq->pi = (uint16_t)n;
	rte_io_wmb();
	*rxq->rq_db = rte_cpu_to_be_32(rxq->pi);
	return 0;
}

/*
 * After an error completion that moved the RQ to ERR: every CQE there is
 * taken (flushes), the RQ goes through RST back to RDY and its WQEs are
 * posted again with the mbufs they hold.
 */
/* Take every CQE the device wrote (flushes, frames not handed up). */
void
mlx5_net_rxq_cq_drain(struct mlx5_net_rxq *rxq)
{
	volatile struct mlx5_cqe64 *cqe;

	while (cqe = &rxq->cqes[rxq->cq_ci & ((1u << rxq->log_cq_n) - 1)],
	       mlx5_cqe_status(cqe, rxq->log_cq_n, rxq->cq_ci) !=
		       MLX5_CQE_STATUS_HW_OWN) {
		uint32_t n = 1;

		/* A compressed session takes its count of slots. */
		if (mlx5_net_rx_zipped(cqe->op_own)) {
			n = RTE_MAX(rte_be_to_cpu_32(cqe->byte_cnt), 1u);
			mlx5_net_rx_zip_consumed(rxq, rxq->cq_ci, n);
		}
		rxq->cq_ci += n;
	}
	mlx5_cq_db_update(rxq->cq_db, rxq->cq_ci);
}

int
mlx5_net_rxq_recover(struct mlx5_net_rxq *rxq)
{
	int ret;

	mlx5_net_rxq_cq_drain(rxq);
	/* In a secondary process, the device's part is the primary's. */
	if (rte_eal_process_type() != RTE_PROC_PRIMARY)
		return mlx5_net_mp_ask(rxq->port_id, MLX5_NET_MP_RXQ_RECOVER,
				       rxq->idx, NULL);
	ret = mlx5_devx_rq_recover(&mlx5_net_rxq_ctrl_of(rxq)->rq);
	if (ret != 0) {
		DRV_LOG(ERR, "port %u Rx queue %u: recovery failed: %s",
			rxq->port_id, rxq->idx, rte_strerror(rte_errno));
		return ret;
	}
	rxq->st.recoveries++;
	return mlx5_net_rxq_post_all(rxq);
}
