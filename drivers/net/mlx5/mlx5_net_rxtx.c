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
 * Each burst has a fast path for the common case, with what is constant
 * for a queue or a burst read once into locals:
 *  - Tx: a one-segment packet with nothing inline whose buffer is in the
 *    MR range the queue used last is one 64-byte block written as eight
 *    words; a completion is asked by runs of MLX5_NET_TX_COMP_THRESH
 *    blocks rather than checked per packet; completed mbufs go back
 *    straight from the ring (its entries are the packets, in order), to
 *    their pool in one copy with MBUF_FAST_FREE. Any other packet (more
 *    segments, inline header, private IOVA, another MR range, empty) takes
 *    the general path, one WQE at a time.
 *  - Rx (a queue without scatter): the frame's mbuf goes up with its
 *    fields written as the CQE says, the fresh one is posted by its
 *    address and key only (the data segment's length never changes; the
 *    mbuf's own fields are written when it goes up). Errors and an empty
 *    pool take the general path, as does every frame of a scattered queue.
 *
 * An error completion drops that packet (counted) and the queue recovers:
 * Tx frees what was posted after it (flushed) and brings the SQ back; Rx
 * keeps a WQE too small for its frame (the RQ stays ready), and otherwise
 * brings the RQ back with its buffers.
 */

#include <inttypes.h>

#include <rte_branch_prediction.h>
#include <rte_byteorder.h>
#include <rte_lcore.h>
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

/* The packet type of each value of a CQE's l4_l3_hdr_type byte. */
static uint32_t mlx5_net_ptype_of[256];

/*
 * The checksum verdicts of a CQE: index l4_l3_hdr_type << 2 | the L3_OK
 * and L4_OK bits of hds_ip_ext.
 */
#define MLX5_NET_CSUM_IDX(t, ok) \
	((uint32_t)(t) << 2 | (((ok) & (MLX5_CQE_L3_OK | MLX5_CQE_L4_OK)) >> 1))
static uint16_t mlx5_net_csum_of[256 << 2];

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

	return (uint8_t)(((ol & RTE_MBUF_F_TX_IP_CKSUM) ?
			  MLX5_ETH_WQE_L3_CSUM : 0) |
			 ((l4 == RTE_MBUF_F_TX_TCP_CKSUM ||
			   l4 == RTE_MBUF_F_TX_UDP_CKSUM) ?
			  MLX5_ETH_WQE_L4_CSUM : 0));
}

RTE_INIT(mlx5_net_ptype_init)
{
	unsigned int t, ok;

	/* The Tx table's index: IP_CKSUM and the L4 request, 3 bits. */
	RTE_BUILD_BUG_ON(RTE_MBUF_F_TX_L4_MASK !=
			 (3ULL << MLX5_NET_TX_CS_SHIFT));
	RTE_BUILD_BUG_ON(RTE_MBUF_F_TX_IP_CKSUM !=
			 (4ULL << MLX5_NET_TX_CS_SHIFT));
	for (t = 0; t < RTE_DIM(mlx5_net_tx_cs_of); t++) {
		struct mlx5_wqe_eth_seg es;

		memset(&es, 0, sizeof(es));
		es.cs_flags = mlx5_net_tx_cs((uint64_t)t << MLX5_NET_TX_CS_SHIFT);
		memcpy(&mlx5_net_tx_cs_of[t], &es, sizeof(uint64_t));
	}
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

/*
 * Take the device's generation once per burst: the bursts then check the
 * range the queue used last without it (who frees memory under a running
 * queue races anyway).
 */
static __rte_always_inline void
mlx5_net_mr_gen_check(struct mlx5_mr_ctrl *mr)
{
	if (unlikely(__atomic_load_n(mr->dev_gen, __ATOMIC_RELAXED) !=
		     mr->gen))
		mlx5_mr_ctrl_flush(mr);
}

/*
 * @n objects of a mempool: from this lcore's cache in one copy (the most
 * recently freed last, so that popping them from the end hands out the
 * hottest first), else through rte_mempool_get_bulk().
 */
static __rte_always_inline int
mlx5_net_mp_get(struct rte_mempool *mp, void **objs, unsigned int n)
{
	struct rte_mempool_cache *cache =
		rte_mempool_default_cache(mp, rte_lcore_id());

	if (likely(cache != NULL && cache->len >= n)) {
		cache->len -= n;
		rte_memcpy(objs, &cache->objs[cache->len], sizeof(void *) * n);
		return 0;
	}
	return rte_mempool_get_bulk(mp, objs, n);
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

const char *const mlx5_net_err_cause_names[MLX5_NET_ERR_CAUSES] = {
	[MLX5_NET_ERR_LOCAL_LENGTH] = "err_local_length",
	[MLX5_NET_ERR_LOCAL_QP_OP] = "err_local_qp_op",
	[MLX5_NET_ERR_LOCAL_PROTECTION] = "err_local_protection",
	[MLX5_NET_ERR_LOCAL_ACCESS] = "err_local_access",
	[MLX5_NET_ERR_REMOTE_ACCESS] = "err_remote_access",
	[MLX5_NET_ERR_OTHER] = "err_other",
};

enum mlx5_net_err_cause
mlx5_net_err_cause_of(uint8_t synd)
{
	switch (synd) {
	case MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR:
		return MLX5_NET_ERR_LOCAL_LENGTH;
	case MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR:
		return MLX5_NET_ERR_LOCAL_QP_OP;
	case MLX5_CQE_SYNDROME_LOCAL_PROT_ERR:
		return MLX5_NET_ERR_LOCAL_PROTECTION;
	case MLX5_CQE_SYNDROME_LOCAL_ACCESS_ERR:
		return MLX5_NET_ERR_LOCAL_ACCESS;
	case MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR:
		return MLX5_NET_ERR_REMOTE_ACCESS;
	default:
		return MLX5_NET_ERR_OTHER;
	}
}

/*
 * Count an error completion of @cqe by its cause and log it: at most one
 * line a second per queue, with the number of lines suppressed since.
 */
static void
mlx5_net_err_note(struct mlx5_net_qstats *st, bool tx, uint16_t port,
		  uint16_t queue, volatile struct mlx5_cqe64 *cqe)
{
	volatile struct mlx5_err_cqe *err = (volatile void *)cqe;
	uint8_t synd = err->syndrome, vendor = err->vendor_err_synd;
	enum mlx5_net_err_cause cause = mlx5_net_err_cause_of(synd);
	uint64_t now = rte_get_tsc_cycles();

	st->err_cause[cause]++;
	if (st->log_tsc != 0 && now - st->log_tsc < rte_get_tsc_hz()) {
		st->log_suppressed++;
		return;
	}
	DRV_LOG(WARNING,
		"port %u %s queue %u: error completion of WQE %u: syndrome 0x%02x (%s), vendor syndrome 0x%02x; %" PRIu64 " more since the last line",
		port, tx ? "Tx" : "Rx", queue,
		rte_be_to_cpu_16(err->wqe_counter), synd,
		mlx5_net_err_cause_names[cause], vendor, st->log_suppressed);
	st->log_tsc = now;
	st->log_suppressed = 0;
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

	if (mlx5_net_mp_get(rxq->mp, room, want) == 0) {
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
	d->addr = rte_cpu_to_be_64((uintptr_t)r->buf_addr +
				   RTE_PKTMBUF_HEADROOM);
}

/*
 * The frame of @len bytes in WQE slot @w: its mbufs go up, fresh ones take
 * their place. NULL (frame dropped, buffers reposted) without mbufs.
 */
static struct rte_mbuf *
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
		struct mlx5_wqe_data_seg *d = (void *)(rxq->rq.wqes +
			((size_t)w << rxq->rq.log_stride) + 16 * s);

		/* data_off, refcnt 1, nb_segs 1, port: what the pool left. */
		mlx5_net_rx_rearm(m, rxq->mbuf_rearm);
		m->data_len = (uint16_t)RTE_MIN(left, rxq->seg_len);
		left -= m->data_len;
		if (prev != NULL)
			prev->next = m;
		prev = m;
		slot[s] = r;
		mlx5_net_rx_post(d, r, rte_cpu_to_be_32(mlx5_net_rx_lkey(mr, r)));
	}
	head->nb_segs = (uint16_t)used;
	head->pkt_len = len;
	head->vlan_tci = 0;
	return head;
}

/*
 * The general Rx burst: any queue, error completions, an empty pool. The
 * fast path hands over to it with the queue's state written back.
 */
static __rte_noinline uint16_t
mlx5_net_rx_general(struct mlx5_net_rxq *rxq, struct mlx5_mr_ctrl *mr,
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
			mlx5_net_err_note(&rxq->st, false, rxq->port_id,
					  rxq->idx,
					  (volatile struct mlx5_cqe64 *)cqe);
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
 * The Rx burst, with the MR cache of this process. The fast path (one
 * mbuf per frame) takes runs of good completions that neither wrap the CQ
 * nor outnumber the stash; anything else is the general path's.
 */
static __rte_always_inline uint16_t
mlx5_net_rx_body(struct mlx5_net_rxq *rxq, struct mlx5_mr_ctrl *mr,
		 struct rte_mbuf **pkts, uint16_t n)
{
	struct mlx5_devx_cq *cq = &rxq->cq;
	const uint32_t cq_n = 1u << cq->log_size;
	const uint32_t wqe_mask = (1u << rxq->log_wqe_n) - 1;
	const bool offloads = rxq->csum || rxq->rss_hash ||
			      rxq->ts_offset >= 0;
	uint32_t ci;
	uint16_t rpi;
	uint64_t bytes = 0;
	uint16_t got = 0;
	bool more = false;

	if (unlikely(rxq->scatter | rxq->stopped))
		return rxq->stopped ? 0 : mlx5_net_rx_general(rxq, mr, pkts, n);
	mlx5_net_mr_gen_check(mr);
	ci = cq->ci;
	rpi = rxq->pi;
	while (got < n) {
		/*
		 * A cyclic RQ completes its WQEs in order: the next is the
		 * one the receive counter names (as the CQE's wqe_counter).
		 */
		const uint32_t wi = rpi & wqe_mask;
		volatile struct mlx5_cqe_eth *cqe = (volatile void *)
			&cq->cqes[ci & (cq_n - 1)];
		struct mlx5_wqe_data_seg *d = (struct mlx5_wqe_data_seg *)
			(void *)rxq->rq.wqes + wi;
		struct rte_mbuf **e = rxq->elts + wi, **stash, **out;
		const uint64_t rearm = rxq->mbuf_rearm;
		const uint64_t piova = mr->private_iova_flag;
		uintptr_t lo = mr->mru_lo[0], hi = mr->mru_end[0];
		uint32_t lkey_be = rte_cpu_to_be_32(mr->mru_lkey[0]);
		/* A good receive completion of this pass over the CQ. */
		const uint8_t want = MLX5_CQE_RESP_SEND << 4 |
				     ((ci & cq_n) != 0);
		uint32_t lim, i;

		if (rxq->stash_n < n - got)
			mlx5_net_rx_refill(rxq, RTE_MIN((uint32_t)(n - got),
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
		for (i = 0; i < lim; i++) {
			uint8_t op_own = cqe[i].op_own;
			struct rte_mbuf *m, *r;
			uint32_t len, lkey;
			uintptr_t addr;

			if (unlikely((op_own & (0xf0 | MLX5_CQE_OWNER_MASK)) !=
				     want)) {
				/* Not the device's, nor a new CQ's: others. */
				if (((op_own ^ want) & MLX5_CQE_OWNER_MASK) ==
				    0 && (op_own >> 4) != MLX5_CQE_INVALID)
					more = true;
				break;
			}
			rte_io_rmb();
			RTE_ASSERT(((rte_be_to_cpu_16(cqe[i].wqe_counter) ^
				     (wi + i)) & wqe_mask) == 0);
			len = rte_be_to_cpu_32(cqe[i].byte_cnt);
			m = e[i];
			r = *--stash;
			addr = (uintptr_t)r->buf_addr;
			if (likely(addr > lo && addr < hi &&
				   !(r->ol_flags & piova))) {
				lkey = lkey_be;
			} else {
				/* A stale flag or buffer is repaired there. */
				lkey = mlx5_net_rx_lkey_miss(mr, r);
				addr = (uintptr_t)r->buf_addr;
				lo = mr->mru_lo[0];
				hi = mr->mru_end[0];
				lkey_be = rte_cpu_to_be_32(mr->mru_lkey[0]);
			}
			d[i].lkey = lkey;
			d[i].addr = rte_cpu_to_be_64(addr + RTE_PKTMBUF_HEADROOM);
			e[i] = r;
			mlx5_net_rx_rearm(m, rearm);
			m->packet_type = mlx5_net_ptype_of[cqe[i].l4_l3_hdr_type];
			m->pkt_len = len;
			m->data_len = (uint16_t)len;
			m->vlan_tci = 0;
			m->ol_flags = 0;
			out[i] = m;
			bytes += len;
		}
		rxq->stash_n = (uint16_t)(rxq->stash_n - i);
		if (unlikely(offloads))
			mlx5_net_rx_offloads(rxq, cqe, out, i);
		got = (uint16_t)(got + i);
		ci += i;
		rpi = (uint16_t)(rpi + i);
		if (i != lim)
			break;
	}
	if (ci != cq->ci) {
		rxq->pi = rpi;
		cq->ci = ci;
		mlx5_cq_db_update(cq->db_rec, ci);
		rte_io_wmb();
		rxq->rq.db_rec[MLX5_RCV_DBR] = rte_cpu_to_be_32(rxq->pi);
	}
	rxq->st.packets += got;
	rxq->st.bytes += bytes;
	if (unlikely(more))
		got += mlx5_net_rx_general(rxq, mr, pkts + got,
					   (uint16_t)(n - got));
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
 * Free the mbufs of blocks [ci, end) (completed or dropped) straight from
 * the ring, whose entries in [ci, sq.pi) are the packet a block starts or
 * NULL. Blocks the general path posted may hold NULLs or chains:
 * rte_pktmbuf_free_bulk() takes both; otherwise, with MBUF_FAST_FREE (one
 * pool, refcnt 1), the mbufs go back to their pool in one copy.
 */
static __rte_always_inline void
mlx5_net_tx_free(struct mlx5_net_txq *txq, uint16_t end)
{
	uint32_t mask = txq->wqe_n - 1;
	uint16_t ci = txq->ci;
	uint32_t cnt = (uint16_t)(end - ci), first = ci & mask;
	uint32_t n1 = RTE_MIN(cnt, txq->wqe_n - first);
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
		/* Past the last block the general path posted: fast again. */
		if ((uint16_t)(txq->general_end - ci) <= cnt)
			txq->general_pending = false;
	}
	txq->ci = end;
}

/* After an error completion @cqe at block @wc: free, count, recover. */
static __rte_noinline void
mlx5_net_tx_error(struct mlx5_net_txq *txq, uint16_t wc,
		  volatile struct mlx5_cqe64 *cqe)
{
	uint32_t mask = txq->wqe_n - 1;

	mlx5_net_err_note(&txq->st, true, txq->port_id, txq->idx, cqe);
	/* Those before it were sent; it and the rest are not. */
	mlx5_net_tx_free(txq, wc);
	/*
	 * Every packet still posted is lost: the failed one and those posted
	 * after it, which the device flushes (as hardware does).
	 */
	while (txq->ci != txq->sq.pi) {
		struct rte_mbuf *m = txq->elts[txq->ci & mask];

		if (m != NULL) {
			if (txq->ci != wc)
				txq->st.flushed++;
			txq->st.errors++;
			txq->st.packets--;
			txq->st.bytes -= m->pkt_len;
			rte_pktmbuf_free(m);
		}
		txq->ci++;
	}
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
	struct mlx5_devx_cq *cq = &txq->cq;
	const uint32_t log_cq = cq->log_size;
	const uint32_t cq_mask = (1u << log_cq) - 1;
	uint32_t ci = cq->ci;
	uint16_t upto = txq->ci;

	for (;;) {
		volatile struct mlx5_cqe64 *cqe = &cq->cqes[ci & cq_mask];
		volatile struct mlx5_cqe64 *err;
		uint8_t op_own = cqe->op_own;
		uint16_t wc;

		if ((op_own & MLX5_CQE_OWNER_MASK) != ((ci >> log_cq) & 1))
			break;
		if (unlikely(op_own >= (MLX5_CQE_REQ_ERR << 4))) {
			enum mlx5_cqe_status st = mlx5_cqe_status(cqe, log_cq,
								  ci);

			if (st == MLX5_CQE_STATUS_HW_OWN)
				break;
			/* An error: every CQE after it is a flush. */
			wc = rte_be_to_cpu_16(cqe->wqe_counter);
			err = cqe;
			while (mlx5_cqe_status(&cq->cqes[ci & cq_mask], log_cq,
					       ci) != MLX5_CQE_STATUS_HW_OWN)
				ci++;
			cq->ci = ci;
			mlx5_cq_db_update(cq->db_rec, ci);
			mlx5_net_tx_error(txq, wc, err);
			return;
		}
		rte_io_rmb();
		/* The WQE at wc and every one before it are done. */
		wc = rte_be_to_cpu_16(cqe->wqe_counter);
		upto = (uint16_t)(wc + 1);
		ci++;
	}
	if (ci == cq->ci)
		return;
	cq->ci = ci;
	mlx5_cq_db_update(cq->db_rec, ci);
	/* A completed WQE's blocks after its first hold no mbuf. */
	if ((uint16_t)(upto - txq->ci) <= (uint16_t)(txq->sq.pi - txq->ci))
		mlx5_net_tx_free(txq, upto);
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

	return txq->sq.wqes + off;
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
mlx5_net_tx_inline_len(const struct mlx5_net_txq *txq,
		       const struct rte_mbuf *m, uint64_t piova)
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
 * The general Tx path: one WQE of any shape for @m at txq->sq.pi (a data
 * segment per mbuf segment, empty ones skipped, the inline header), its
 * control segment in *@last.
 */
static __rte_noinline enum mlx5_net_tx_res
mlx5_net_tx_general(struct mlx5_net_txq *txq, struct mlx5_mr_ctrl *mr,
		    struct rte_mbuf *m, struct mlx5_wqe_ctrl_seg **last)
{
	const uint64_t piova = mr->private_iova_flag;
	uint32_t mask = txq->wqe_n - 1;
	uint16_t pi = txq->sq.pi;
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

			memcpy(mlx5_net_tx_seg(txq, pi, 2 + k),
			       src + off, RTE_MIN(16u, inl - off));
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
		d->addr = rte_cpu_to_be_64(rte_pktmbuf_mtod_offset(
			seg, uintptr_t, skip));
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
	/* The packet at its first block, none at the others. */
	txq->elts[pi & mask] = m;
	/* Posted: the keys are in the WQE, the flag is done with. */
	mlx5_net_tx_unflag(m, piova);
	for (k = 1; k < bbs; k++)
		txq->elts[(pi + k) & mask] = NULL;
	txq->sq.pi = (uint16_t)(pi + bbs);
	txq->general_end = txq->sq.pi;
	txq->general_pending = true;
	txq->st.bytes += m->pkt_len;
	txq->st.packets++;
	*last = ctrl;
	return MLX5_NET_TX_POSTED;
}

/*
 * The Tx fast path: up to @cnt packets of @pkts, each one segment of data
 * in the MR range [lo + 1, lo + 1 + span) and nothing inline, from block
 * @pi on (the run does not wrap the ring), as one block each: control,
 * Ethernet and data segment, written as words with their zeroes. It stops
 * at the first other packet: the number posted.
 */
static __rte_always_inline uint32_t
mlx5_net_tx_fast(struct mlx5_net_txq *txq, struct rte_mbuf **pkts,
		 uint32_t cnt, uint16_t pi, uintptr_t lo1, uintptr_t span,
		 uint32_t lkey_be, uint64_t piova, uint64_t *bytes)
{
	const uint32_t mask = txq->wqe_n - 1;
	uint64_t *w = (uint64_t *)(void *)(txq->sq.wqes +
				((size_t)(pi & mask) << MLX5_SEND_WQE_SHIFT));
	struct rte_mbuf **e = txq->elts + (pi & mask);
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
		sum += len;
		op += 1u << 8;
	}
	*bytes += sum;
	return i;
}

/* The Tx burst, with the MR cache and UAR of this process. */
static __rte_always_inline uint16_t
mlx5_net_tx_body(struct mlx5_net_txq *txq, struct mlx5_mr_ctrl *mr,
		 struct mlx5_uar *uar, struct rte_mbuf **pkts, uint16_t n)
{
	const uint32_t mask = txq->wqe_n - 1;
	/* Every packet through the general path: an inline header. */
	const bool general = txq->inline_hdr != 0;
	struct mlx5_wqe_ctrl_seg *last = NULL;
	uint16_t sent = 0, pi, posted = 0;
	uint64_t bytes = 0;

	if (unlikely(txq->stopped))
		return 0;
	mlx5_net_tx_complete(txq);
	mlx5_net_mr_gen_check(mr);
	pi = txq->sq.pi;
	while (sent < n) {
		/* Blocks up to a full ring, and up to a completion request. */
		uint32_t room = txq->wqe_n - (uint16_t)(pi - txq->ci);
		uint32_t to_comp = MLX5_NET_TX_COMP_THRESH -
				   (uint16_t)(pi - txq->last_comp);
		uint32_t lim = RTE_MIN((uint32_t)(n - sent), room), k = 0;
		enum mlx5_net_tx_res res;

		lim = RTE_MIN(lim, to_comp);
		/* Nor past the end of the ring. */
		lim = RTE_MIN(lim, mask + 1 - (pi & mask));
		if (likely(!general) && lim != 0) {
			uintptr_t lo = mr->mru_lo[0], end = mr->mru_end[0];

			k = mlx5_net_tx_fast(txq, pkts + sent, lim, pi, lo + 1,
					     end > lo ? end - lo - 1 : 0,
					     rte_cpu_to_be_32(mr->mru_lkey[0]),
					     mr->private_iova_flag, &bytes);
		}
		if (k != 0) {
			pi = (uint16_t)(pi + k);
			sent = (uint16_t)(sent + k);
			posted = (uint16_t)(posted + k);
			last = (void *)(txq->sq.wqes + ((size_t)((uint16_t)
				(pi - 1) & mask) << MLX5_SEND_WQE_SHIFT));
			txq->sq.pi = pi;
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
		pi = txq->sq.pi;
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

/*
 * Queue recovery: what a burst does after an error completion, also asked
 * by a secondary process (mlx5_net_mp.c) and used by queue start/stop.
 */

/* Point segment @s of WQE @w at @m. */
static inline void
mlx5_net_rx_seg_set(struct mlx5_net_rxq *rxq, uint32_t w, uint32_t s,
		    struct rte_mbuf *m, uint32_t lkey)
{
	struct mlx5_wqe_data_seg *d = (void *)(rxq->rq.wqes +
		((size_t)w << rxq->rq.log_stride) + 16 * s);

	d->byte_count = rte_cpu_to_be_32(rxq->seg_len);
	d->lkey = rte_cpu_to_be_32(lkey);
	/* The Rx bursts set data_off when the mbuf goes up. */
	d->addr = rte_cpu_to_be_64((uintptr_t)m->buf_addr +
				   RTE_PKTMBUF_HEADROOM);
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
				DRV_LOG(ERR, "port %u Rx queue %u: no key for"
					" the mempool's memory: %s",
					rxq->port_id, rxq->idx,
					rte_strerror(rte_errno));
				return -rte_errno;
			}
			mlx5_net_rx_seg_set(rxq, w, s, m, lkey);
		}
	rxq->pi = (uint16_t)n;
	rte_io_wmb();
	rxq->rq.db_rec[MLX5_RCV_DBR] = rte_cpu_to_be_32(rxq->pi);
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
	struct mlx5_devx_cq *cq = &rxq->cq;

	while (mlx5_cqe_status(&cq->cqes[cq->ci & ((1u << cq->log_size) - 1)],
			       cq->log_size, cq->ci) != MLX5_CQE_STATUS_HW_OWN)
		cq->ci++;
	mlx5_cq_db_update(cq->db_rec, cq->ci);
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
	ret = mlx5_devx_rq_recover(&rxq->rq);
	if (ret != 0) {
		DRV_LOG(ERR, "port %u Rx queue %u: recovery failed: %s",
			rxq->port_id, rxq->idx, rte_strerror(rte_errno));
		return ret;
	}
	rxq->st.recoveries++;
	return mlx5_net_rxq_post_all(rxq);
}

/*
 * After an error completion that moved the SQ to ERR: back to RDY from
 * block 0 (through RST), its rate limit set again.
 */
int
mlx5_net_txq_recover(struct mlx5_net_txq *txq)
{
	int ret;

	if (rte_eal_process_type() != RTE_PROC_PRIMARY)
		return mlx5_net_mp_ask(txq->port_id, MLX5_NET_MP_TXQ_RECOVER,
				       txq->idx, NULL);
	ret = mlx5_devx_sq_recover(&txq->sq);
	if (ret != 0)
		return ret;
	if (txq->pp != NULL) {
		/* RST forgot the rate: set it again. */
		struct mlx5_devx_sq_modify mod = {
			.cur_state = MLX5_WQ_STATE_RDY,
			.new_state = MLX5_WQ_STATE_RDY,
			.set_rate = true,
			.rate_index = txq->pp->index,
		};

		if (mlx5_devx_cmd_modify_sq(txq->sq.obj, &mod) != 0)
			DRV_LOG(WARNING, "port %u Tx queue %u: its rate limit is lost after recovery: %s",
				txq->port_id, txq->idx,
				rte_strerror(rte_errno));
	}
	return 0;
}
