/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * The bursts of two mlx5 PMDs timed over the same work: this project's
 * net PMD and DPDK 22.11's own (a plugin, burst_ring.h). Only the PMD's
 * work is in the timed region. This program plays the device on each
 * queue's rings:
 *   Rx: before the timed bursts it takes the WQEs the PMD posted, writes a
 *       64-byte IPv4/UDP frame into each buffer and its CQE, plain or in
 *       compressed sessions (hash mini-CQEs, the layout mlx5_prm_rx.h
 *       describes); after them it checks every mbuf returned (length,
 *       RSS hash, the frame's sequence number, order).
 *   Tx: after the timed bursts it reads every WQE posted (SEND or
 *       enhanced multi-packet write, inline or pointer data), checks each
 *       packet's length, key and sequence number, and writes a completion
 *       for each WQE that asks one, as hardware would.
 * Our PMD's queues are a software device's port (a vdev it makes), whose kick hook is cleared during the bursts so that the
 * device's model does nothing in them; the plugin's queues are plain
 * memory. Both PMDs' MR caches are warm.
 *
 * Options after the EAL's "--":
 *   --dpdk PLUGIN   DPDK's bursts (else ours only)
 *   --frames N      frames per measurement (default 65536)
 *   --repeats N     natively: measurements per implementation, alternated
 *                   (default 9; the median is printed)
 *   --size N        frame length (64..1500, default 64)
 *   --session N     frames per compressed session (2..64, default 32)
 *   --offloads      Rx checksum and RSS hash on (both PMDs)
 *   --queues N      queues a PMD (1, 2, 4 or 8, default 1): each round's
 *                   frames spread evenly, bursts taken in turn
 *   --tx-offloads   Tx IPv4 and UDP checksums asked on every frame (both
 *                   PMDs; DPDK's template with checksums, sc_empw, is
 *                   then its default)
 *   --list          print the implementations, run nothing
 * Natively it prints "cycles <dir> <impl> <cycles per packet>"; under
 * callgrind (--collect-atstart=no) only the bursts are collected and each
 * measurement is dumped as bench:<dir>:<impl>:<frames>.
 */

#include <dlfcn.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_bus_vdev.h>
#include <rte_byteorder.h>
#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_ip.h>
#include <rte_mbuf.h>
#include <rte_udp.h>

#include "mlx5_net.h"
#include <mlx5_prm_rx.h>

#include "burst_ring.h"

#ifdef HAVE_CALLGRIND
#include <valgrind/callgrind.h>
#else
#define CALLGRIND_TOGGLE_COLLECT \
	do { \
	} while (0)
#define CALLGRIND_ZERO_STATS \
	do { \
	} while (0)
#define CALLGRIND_DUMP_STATS_AT(s) \
	do { \
		RTE_SET_USED(s); \
	} while (0)
#define RUNNING_ON_VALGRIND 0
#endif

#define BURST 32u
#define ROUND 512u		  /* Frames the device moves at once. */
#define LOG_DESC 10		  /* 1024 descriptors a queue. */
#define SEQ_OFF 42		  /* The sequence number: UDP payload. */
#define DPDK_LKEY 0x5a5a01u	  /* The plugin's key of the pool. */
#define OPCODE_ENHANCED_MPSW 0x29 /* PRM: enhanced multi-packet send. */
#define MAX_IMPL 8
#define MAX_Q 8

static uint32_t opt_frames = 65536;
static uint32_t opt_repeats = 9;
static uint32_t opt_size = 64;
static uint32_t opt_session = 32;
static int opt_offloads;
static int opt_list;
static int opt_tx_offloads;
static uint32_t opt_queues = 1;
static const char *opt_dpdk;
static int under_callgrind;

static struct rte_mempool *pool;
static uintptr_t pool_start, pool_end;

/* The device's view of an Rx queue. */
struct hw_rx {
	struct burst_rxq_ring r;
	uint32_t ci;	 /* WQEs consumed (CQEs written). */
	uint32_t lkey;	 /* BE; 0: learn from the first WQE. */
	uint64_t seq;	 /* Next frame's sequence number. */
	uint64_t expect; /* Next sequence number to receive. */
};

/* The device's view of a Tx queue. */
struct hw_tx {
	struct burst_txq_ring r;
	uint16_t pi; /* Blocks read. */
	uint32_t cq_pi;
	uint32_t lkey;
	uint64_t expect; /* Next sequence number to see. */
	uint64_t pkts;
};

struct impl {
	const char *name;
	int tx;
	void *q[MAX_Q];
	burst_fn_t fn;
	uint32_t session; /* Rx: 0 plain CQEs, else compressed. */
	struct hw_rx *rx; /* rx_own, or another's (the same queues). */
	struct hw_rx rx_own[MAX_Q];
	struct hw_tx txh[MAX_Q];
	uint64_t frames; /* Checked, in every measurement. */
	double cycles[64];
};

static struct impl impls[2 * MAX_IMPL];
static unsigned int n_impls;

static void
fail(const char *what, const char *impl)
{
	fprintf(stderr, "FAIL %s: %s\n", impl, what);
	exit(1);
}

/* A frame: Ethernet, IPv4, UDP, the sequence number, zeros. */
static void
frame_write(uint8_t *p, uint32_t len, uint64_t seq)
{
	struct rte_ether_hdr *eth = (struct rte_ether_hdr *)(void *)p;
	struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)(eth + 1);
	struct rte_udp_hdr *udp = (struct rte_udp_hdr *)(ip + 1);

	memset(p, 0, len);
	memset(&eth->dst_addr, 0x02, sizeof(eth->dst_addr));
	memset(&eth->src_addr, 0x04, sizeof(eth->src_addr));
	eth->ether_type = rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4);
	ip->version_ihl = RTE_IPV4_VHL_DEF;
	ip->total_length = rte_cpu_to_be_16(len - sizeof(*eth));
	ip->time_to_live = 64;
	ip->next_proto_id = IPPROTO_UDP;
	ip->src_addr = rte_cpu_to_be_32(0x0a000001);
	ip->dst_addr = rte_cpu_to_be_32(0x0a000002 + (uint32_t)(seq & 7));
	ip->hdr_checksum = rte_ipv4_cksum(ip);
	udp->src_port = rte_cpu_to_be_16(1000);
	udp->dst_port = rte_cpu_to_be_16(2000);
	udp->dgram_len = rte_cpu_to_be_16(len - sizeof(*eth) - sizeof(*ip));
	memcpy(p + SEQ_OFF, &seq, sizeof(seq));
}

static uint64_t
frame_seq(const uint8_t *p)
{
	uint64_t seq;

	memcpy(&seq, p + SEQ_OFF, sizeof(seq));
	return seq;
}

static uint32_t
seq_hash(uint64_t seq)
{
	return (uint32_t)(seq * 2654435761u) | 1;
}

/* A receive CQE of frame @seq into WQE @wqe, as the device writes it. */
static void
cqe_fill(struct mlx5_cqe_eth *c, uint64_t seq, uint16_t wqe)
{
	memset(c, 0, offsetof(struct mlx5_cqe_eth, op_own));
	c->rss_hash_result = rte_cpu_to_be_32(seq_hash(seq));
	c->rss_hash_type = MLX5_CQE_RSS_HTYPE_IPV4 | MLX5_CQE_RSS_HTYPE_UDP;
	c->hds_ip_ext = MLX5_CQE_L2_OK | MLX5_CQE_L3_OK | MLX5_CQE_L4_OK;
	c->l4_l3_hdr_type =
		(MLX5_CQE_L4_HDR_TYPE_UDP << MLX5_CQE_L4_HDR_TYPE_SHIFT) |
		(MLX5_CQE_L3_HDR_TYPE_IPV4 << MLX5_CQE_L3_HDR_TYPE_SHIFT);
	c->byte_cnt = rte_cpu_to_be_32(opt_size);
	c->wqe_counter = rte_cpu_to_be_16(wqe);
}

static volatile struct mlx5_cqe_eth *
rx_slot(struct hw_rx *h, uint32_t i)
{
	return (volatile struct mlx5_cqe_eth *)h->r.cqes +
	       (i & ((1u << h->r.log_cq) - 1));
}

static void
cqe_publish(volatile struct mlx5_cqe_eth *slot, struct mlx5_cqe_eth *c,
	    uint8_t op_own)
{
	memcpy((void *)(uintptr_t)slot, c,
	       offsetof(struct mlx5_cqe_eth, op_own));
	rte_io_wmb();
	slot->op_own = op_own;
}

/* Frame @seq into the buffer of WQE h->ci; that WQE's index. */
static uint16_t
rx_frame(struct hw_rx *h, uint64_t seq, const char *impl)
{
	volatile struct mlx5_wqe_data_seg *d =
		(volatile struct mlx5_wqe_data_seg *)h->r.wqes +
		(h->ci & ((1u << h->r.log_rq) - 1));
	uintptr_t addr = (uintptr_t)rte_be_to_cpu_64(d->addr);

	if (h->lkey == 0)
		h->lkey = d->lkey;
	if (d->lkey != h->lkey || addr < pool_start || addr >= pool_end ||
	    rte_be_to_cpu_32(d->byte_count) < opt_size)
		fail("an Rx WQE with a bad key, address or length", impl);
	frame_write((uint8_t *)addr, opt_size, seq);
	return (uint16_t)h->ci;
}

/*
 * Write @n frames and their CQEs; sessions of @session (0: plain), never
 * across the ring's end. Returns the frames written (what was posted).
 */
static uint32_t
rx_fill(struct hw_rx *h, uint32_t n, uint32_t session, const char *impl)
{
	/* The counter as hardware reads it: 16 bits. */
	uint32_t posted = (uint16_t)(rte_be_to_cpu_32(*h->r.rq_db) - h->ci);
	uint32_t size = 1u << h->r.log_cq;
	uint32_t done = 0;

	n = RTE_MIN(n, posted);
	while (done < n) {
		uint32_t k = RTE_MIN(session ? session : 1, n - done);
		uint32_t owner = (h->ci >> h->r.log_cq) & 1;
		uint32_t hdr_ci = h->ci;
		struct mlx5_cqe_eth c;
		uint32_t i;

		k = RTE_MIN(k, size - (h->ci & (size - 1)));
		cqe_fill(&c, h->seq, rx_frame(h, h->seq, impl));
		if (k < 2) {
			cqe_publish(rx_slot(h, h->ci), &c,
				    (MLX5_CQE_RESP_SEND << 4) | owner);
			h->ci++;
			h->seq++;
			done++;
			continue;
		}
		/* A session: the frames and arrays first, then the header. */
		for (i = 0; i < k; ++i) {
			uint32_t arr = i / MLX5_MINI_CQE_ARRAY_SIZE;
			volatile struct mlx5_mini_cqe8 *m =
				(volatile struct mlx5_mini_cqe8 *)rx_slot(
					h, hdr_ci + (arr ? arr * 8 : 1)) +
				i % MLX5_MINI_CQE_ARRAY_SIZE;

			h->ci = hdr_ci + i;
			if (i > 0)
				rx_frame(h, h->seq + i, impl);
			m->rx_hash_result =
				rte_cpu_to_be_32(seq_hash(h->seq + i));
			m->byte_cnt = rte_cpu_to_be_32(opt_size);
		}
		h->ci = hdr_ci + k;
		c.byte_cnt = rte_cpu_to_be_32(k);
		cqe_publish(rx_slot(h, hdr_ci), &c,
			    (MLX5_CQE_RESP_SEND << 4) |
				    (MLX5_CQE_FORMAT_COMPRESSED
				     << MLX5_CQE_FORMAT_SHIFT) |
				    owner);
		h->seq += k;
		done += k;
	}
	return done;
}

/* Check and free what an Rx measurement's round received. */
static void
rx_check(struct hw_rx *h, struct rte_mbuf **pkts, uint32_t n, const char *impl)
{
	uint32_t i;

	for (i = 0; i < n; ++i) {
		struct rte_mbuf *m = pkts[i];

		if (m->pkt_len != opt_size || m->data_len != opt_size ||
		    m->nb_segs != 1)
			fail("an mbuf of the wrong length", impl);
		if (frame_seq(rte_pktmbuf_mtod(m, uint8_t *)) != h->expect)
			fail("a frame out of order or not the one written",
			     impl);
		if (opt_offloads && (!(m->ol_flags & RTE_MBUF_F_RX_RSS_HASH) ||
				     m->hash.rss != seq_hash(h->expect)))
			fail("an mbuf without the frame's RSS hash", impl);
		if (opt_offloads &&
		    (m->ol_flags & RTE_MBUF_F_RX_IP_CKSUM_MASK) !=
			    RTE_MBUF_F_RX_IP_CKSUM_GOOD)
			fail("an mbuf without the good IP checksum flag", impl);
		h->expect++;
	}
	rte_pktmbuf_free_bulk(pkts, n);
}

/* Bytes and packets of one Tx packet at @p; checks its frame. */
static void
tx_packet(struct hw_tx *h, const uint8_t *p, uint32_t len, const char *impl)
{
	if (len != opt_size)
		fail("a Tx packet of the wrong length", impl);
	if (frame_seq(p) != h->expect)
		fail("a Tx packet out of order or not the one sent", impl);
	h->expect++;
	h->pkts++;
}

/* A pointer data segment: its key and buffer. */
static void
tx_dseg(struct hw_tx *h, volatile struct mlx5_wqe_data_seg *d, const char *impl)
{
	uintptr_t addr = (uintptr_t)rte_be_to_cpu_64(d->addr);
	uint32_t len = rte_be_to_cpu_32(d->byte_count);

	if (h->lkey == 0)
		h->lkey = d->lkey;
	if (d->lkey != h->lkey || addr < pool_start || addr >= pool_end)
		fail("a Tx data segment with a bad key or address", impl);
	tx_packet(h, (const uint8_t *)addr, len, impl);
}

/*
 * Read every WQE posted since the last call, check it, and complete the
 * ones that ask a completion.
 */
static void
tx_device(struct hw_tx *h, const char *impl)
{
	uint16_t pi = (uint16_t)rte_be_to_cpu_32(*h->r.sq_db);
	uint32_t mask = (1u << h->r.log_sq) - 1;
	uint8_t *ring = (uint8_t *)(uintptr_t)h->r.wqes;

	while (h->pi != pi) {
		uint8_t *w = ring + ((h->pi & mask) * 64u);
		struct mlx5_wqe_ctrl_seg *cs =
			(struct mlx5_wqe_ctrl_seg *)(void *)w;
		uint32_t op = rte_be_to_cpu_32(cs->opmod_idx_opcode);
		uint32_t ds = rte_be_to_cpu_32(cs->qpn_ds) & 0x3f;
		uint32_t blocks = (ds + 3) / 4;
		struct mlx5_wqe_eth_seg *es =
			(struct mlx5_wqe_eth_seg *)(void *)(w + 16);
		uint32_t seg, hdr;
		uint8_t buf[2048];

		if ((uint16_t)(op >> 8) != h->pi || ds < 2 ||
		    (uint16_t)(pi - h->pi) < blocks)
			fail("a Tx WQE with a bad index or size, or past the"
			     " doorbell",
			     impl);
			/* Segments past the ring's end wrap to its start. */
#define SEG(i) \
	(ring + (((h->pi & mask) * 64u + (i)*16u) & ((mask + 1) * 64u - 1)))
		hdr = rte_be_to_cpu_16(es->inline_hdr_sz);
		/* The checksums asked, and only those. */
		if (es->cs_flags !=
		    (opt_tx_offloads ?
			     MLX5_ETH_WQE_L3_CSUM | MLX5_ETH_WQE_L4_CSUM :
			     0))
			fail("a Tx WQE with other checksum flags than asked",
			     impl);
		if ((op & 0xff) == MLX5_OPCODE_SEND) {
			/* Inline header (eseg + following segments), data. */
			uint32_t got = 0, in = 2;

			if (hdr > sizeof(buf))
				fail("a Tx inline header too long", impl);
			memcpy(buf, (uint8_t *)es + 14, RTE_MIN(hdr, 2u));
			seg = 2;
			while (in < hdr) {
				uint32_t c = RTE_MIN(16u, hdr - in);

				memcpy(buf + in, SEG(seg), c);
				in += c;
				seg++;
			}
			got = hdr;
			for (; seg < ds; ++seg) {
				volatile struct mlx5_wqe_data_seg *d =
					(volatile struct mlx5_wqe_data_seg
						 *)(void *)SEG(seg);
				uint32_t len = rte_be_to_cpu_32(d->byte_count);
				uintptr_t a = rte_be_to_cpu_64(d->addr);

				if (h->lkey == 0)
					h->lkey = d->lkey;
				if (d->lkey != h->lkey || a < pool_start ||
				    a >= pool_end || got + len > sizeof(buf))
					fail("a Tx data segment with a bad key,"
					     " address or length",
					     impl);
				memcpy(buf + got, (void *)a, len);
				got += len;
			}
			tx_packet(h, buf, got, impl);
		} else if ((op & 0xff) == OPCODE_ENHANCED_MPSW) {
			if (hdr != 0)
				fail("an eMPW WQE with an inline header", impl);
			seg = 2;
			while (seg < ds) {
				volatile struct mlx5_wqe_data_seg *d =
					(volatile struct mlx5_wqe_data_seg
						 *)(void *)SEG(seg);
				uint32_t bc = rte_be_to_cpu_32(d->byte_count);

				if (bc & MLX5_INLINE_SEG) {
					uint32_t len = bc & ~MLX5_INLINE_SEG;
					uint32_t in = 0, s = seg;

					if (len > sizeof(buf))
						fail("an inline segment too long",
						     impl);
					/* Data from byte 4 of the segment. */
					while (in < len) {
						uint32_t o = in ? 0 : 4;
						uint32_t c = RTE_MIN(16u - o,
								     len - in);

						memcpy(buf + in, SEG(s) + o, c);
						in += c;
						s++;
					}
					tx_packet(h, buf, len, impl);
					seg += (4 + len + 15) / 16;
				} else {
					tx_dseg(h, d, impl);
					seg++;
				}
			}
		} else {
			fail("a Tx WQE of an opcode this benchmark does not"
			     " read",
			     impl);
		}
#undef SEG
		if (cs->fm_ce_se & MLX5_WQE_CTRL_CQ_UPDATE) {
			uint32_t consumed = rte_be_to_cpu_32(*h->r.cq_db);
			volatile struct mlx5_cqe64 *c =
				(volatile struct mlx5_cqe64 *)h->r.cqes +
				(h->cq_pi & ((1u << h->r.log_cq) - 1));

			/*
			 * A CQE the PMD has not taken would be overwritten.
			 * DPDK's consumer counter is 16 bits (ours 24): the
			 * difference is taken in 16.
			 */
			if ((uint16_t)(h->cq_pi - consumed) >=
			    (1u << h->r.log_cq))
				fail("more completions asked than the CQ holds",
				     impl);
			memset((void *)(uintptr_t)c, 0,
			       offsetof(struct mlx5_cqe64, op_own));
			c->wqe_counter = rte_cpu_to_be_16(h->pi);
			rte_io_wmb();
			c->op_own = (MLX5_CQE_REQ << 4) |
				    ((h->cq_pi >> h->r.log_cq) & 1);
			h->cq_pi++;
		}
		h->pi += blocks;
	}
}

static uint64_t
now(void)
{
	return rte_rdtsc_precise();
}

/*
 * One Rx measurement: opt_frames frames in rounds, each queue's share
 * written before the round, the queues' bursts taken in turn; cycles per
 * frame.
 */
static double
rx_measure(struct impl *im)
{
	static struct rte_mbuf *pkts[MAX_Q][ROUND + BURST];
	const uint32_t per = ROUND / opt_queues;
	uint64_t cycles = 0;
	uint32_t total = 0, j;

	while (total < opt_frames) {
		uint32_t k[MAX_Q], got[MAX_Q] = { 0 }, all = 0, left;
		uint32_t idle = 0;
		uint64_t t0;

		for (j = 0; j < opt_queues; j++) {
			k[j] = rx_fill(&im->rx[j], per, im->session, im->name);
			if (k[j] == 0)
				fail("the PMD posted no Rx WQE", im->name);
			all += k[j];
		}
		left = all;
		t0 = now();
		while (left != 0) {
			for (j = 0; j < opt_queues; j++) {
				uint16_t n;

				if (got[j] == k[j])
					continue;
				if (under_callgrind)
					CALLGRIND_TOGGLE_COLLECT;
				n = im->fn(im->q[j], pkts[j] + got[j],
					   RTE_MIN(BURST, k[j] - got[j]));
				if (under_callgrind)
					CALLGRIND_TOGGLE_COLLECT;
				got[j] += n;
				left -= n;
				if (n == 0 && ++idle > 4 * opt_queues)
					fail("frames written were not received",
					     im->name);
			}
		}
		cycles += now() - t0;
		for (j = 0; j < opt_queues; j++)
			rx_check(&im->rx[j], pkts[j], got[j], im->name);
		im->frames += all;
		total += all;
	}
	return (double)cycles / total;
}

/*
 * One Tx measurement: opt_frames frames in rounds, each queue's share
 * (numbered in a row of its own) sent in bursts, the queues in turn;
 * cycles per frame.
 */
static double
tx_measure(struct impl *im)
{
	struct rte_mbuf *pkts[ROUND];
	const uint32_t per = ROUND / opt_queues;
	uint64_t cycles = 0;
	uint32_t total = 0, j;
	static uint64_t seq;

	for (j = 0; j < opt_queues; j++)
		if (seq < im->txh[j].expect)
			seq = im->txh[j].expect;
	while (total < opt_frames) {
		uint32_t b, i;
		uint64_t t0;

		if (rte_pktmbuf_alloc_bulk(pool, pkts, ROUND) != 0)
			fail("the pool ran dry (mbufs not freed)", im->name);
		for (j = 0; j < opt_queues; j++)
			im->txh[j].expect = seq + j * per;
		for (i = 0; i < ROUND; ++i) {
			frame_write(rte_pktmbuf_mtod(pkts[i], uint8_t *),
				    opt_size, seq + i);
			pkts[i]->data_len = opt_size;
			pkts[i]->pkt_len = opt_size;
			if (opt_tx_offloads) {
				pkts[i]->ol_flags = RTE_MBUF_F_TX_IPV4 |
						    RTE_MBUF_F_TX_IP_CKSUM |
						    RTE_MBUF_F_TX_UDP_CKSUM;
				pkts[i]->l2_len = sizeof(struct rte_ether_hdr);
				pkts[i]->l3_len = sizeof(struct rte_ipv4_hdr);
			}
		}
		t0 = now();
		for (b = 0; b < per; b += BURST)
			for (j = 0; j < opt_queues; j++) {
				uint16_t n;

				if (under_callgrind)
					CALLGRIND_TOGGLE_COLLECT;
				n = im->fn(im->q[j], pkts + j * per + b, BURST);
				if (under_callgrind)
					CALLGRIND_TOGGLE_COLLECT;
				if (n != BURST)
					fail("the PMD took part of a burst (ring"
					     " full)",
					     im->name);
			}
		cycles += now() - t0;
		for (j = 0; j < opt_queues; j++) {
			tx_device(&im->txh[j], im->name);
			if (im->txh[j].expect != seq + (j + 1) * per)
				fail("the WQEs do not hold every packet sent",
				     im->name);
		}
		seq += ROUND;
		im->frames += ROUND;
		total += ROUND;
	}
	return (double)cycles / total;
}

static struct impl *
impl_add(const char *name, int tx, burst_fn_t fn, uint32_t session)
{
	struct impl *im;

	if (fn == NULL)
		fail("no such burst function", name);
	im = &impls[n_impls++];
	im->name = name;
	im->tx = tx;
	im->fn = fn;
	im->session = session;
	im->rx = im->rx_own;
	return im;
}

/* Our PMD: the port's queues, their rings, the kick hook cleared. */
static uint64_t our_uar_scratch;
static struct mlx5_uar our_uar_saved;
static struct mlx5_net_priv *our_priv;

static int
ours_setup(uint16_t port)
{
	struct rte_eth_conf conf = { 0 };
	struct rte_eth_dev *dev = &rte_eth_devices[port];
	struct impl *im, *rx, *tx;
	uint32_t j;
	int ret;

	conf.txmode.offloads = RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE;
	if (opt_tx_offloads)
		conf.txmode.offloads |= RTE_ETH_TX_OFFLOAD_IPV4_CKSUM |
					RTE_ETH_TX_OFFLOAD_UDP_CKSUM;
	if (opt_offloads) {
		conf.rxmode.mq_mode = RTE_ETH_MQ_RX_RSS;
		conf.rx_adv_conf.rss_conf.rss_hf =
			RTE_ETH_RSS_IPV4 | RTE_ETH_RSS_NONFRAG_IPV4_UDP;
		conf.rxmode.offloads = RTE_ETH_RX_OFFLOAD_CHECKSUM |
				       RTE_ETH_RX_OFFLOAD_RSS_HASH;
	}
	if (opt_queues > 1) {
		/* Spread by RSS (the benchmark writes each queue's CQEs). */
		conf.rxmode.mq_mode = RTE_ETH_MQ_RX_RSS;
		conf.rx_adv_conf.rss_conf.rss_hf =
			RTE_ETH_RSS_IPV4 | RTE_ETH_RSS_NONFRAG_IPV4_UDP;
	}
	ret = rte_eth_dev_configure(port, (uint16_t)opt_queues,
				    (uint16_t)opt_queues, &conf);
	for (j = 0; j < opt_queues && ret == 0; j++) {
		ret = rte_eth_rx_queue_setup(port, (uint16_t)j, 1u << LOG_DESC,
					     0, NULL, pool);
		if (ret == 0)
			ret = rte_eth_tx_queue_setup(port, (uint16_t)j,
						     1u << LOG_DESC, 0, NULL);
	}
	if (ret == 0)
		ret = rte_eth_dev_start(port);
	if (ret != 0) {
		fprintf(stderr, "our port %u: %s\n", port, strerror(-ret));
		return ret;
	}
	rx = impl_add("ours", 0, dev->rx_pkt_burst, 0);
	tx = impl_add("ours", 1, dev->tx_pkt_burst, 0);
	for (j = 0; j < opt_queues; j++) {
		struct mlx5_net_rxq *rxq = dev->data->rx_queues[j];
		struct mlx5_net_txq *txq = dev->data->tx_queues[j];

		if (rxq->log_stride != 4 || !rxq->zip) {
			fprintf(stderr, "our Rx queue is not one segment a WQE"
					" with compression\n");
			return -EINVAL;
		}
		rx->q[j] = rxq;
		rx->rx[j].r = (struct burst_rxq_ring){
			.cqes = rxq->cqes,
			.log_cq = rxq->log_cq_n,
			.wqes = rxq->wqes,
			.log_rq = rxq->log_wqe_n,
			.rq_db = rxq->rq_db,
		};
		rx->rx[j].ci = rxq->cq_ci;
		tx->q[j] = txq;
		tx->txh[j].r = (struct burst_txq_ring){
			.wqes = txq->wqes,
			.log_sq = rte_log2_u32(txq->wqe_n),
			.sq_db = txq->sq_db,
			.cqes = txq->cqes,
			.log_cq = txq->log_cq_n,
			.cq_db = txq->cq_db,
		};
		tx->txh[j].pi = txq->pi;
		tx->txh[j].cq_pi = txq->cq_ci;
		our_priv = mlx5_net_txq_ctrl_of(txq)->priv;
	}
	/* The same queues, read as compressed sessions. */
	im = impl_add("ours-compressed", 0, dev->rx_pkt_burst, opt_session);
	memcpy(im->q, rx->q, sizeof(im->q));
	im->rx = rx->rx;
	our_uar_saved = our_priv->uar;
	our_priv->uar.kick = NULL;
	our_priv->uar.db = &our_uar_scratch;
	return 0;
}

static void
ours_teardown(uint16_t port)
{
	if (our_priv != NULL)
		our_priv->uar = our_uar_saved;
	rte_eth_dev_stop(port);
	rte_eth_dev_close(port);
}

static const struct burst_ref_api *ref;

static void
dpdk_rx_add(const char *name, const char *fn, uint32_t session)
{
	struct burst_ref_rxq_attr a = {
		.mp = pool,
		.port_id = 0,
		.log_desc = LOG_DESC,
		.compressed = session != 0,
		.rss_hash = opt_offloads,
		.csum = opt_offloads,
		.mr_start = pool_start,
		.mr_end = pool_end,
		.lkey = DPDK_LKEY,
	};
	struct impl *im = impl_add(name, 0, ref->rx_fn(fn), session);
	uint32_t j;

	for (j = 0; j < opt_queues; j++) {
		im->q[j] = ref->rxq_create(&a, &im->rx[j].r);
		if (im->q[j] == NULL)
			fail("cannot set the queue up", name);
	}
}

static void
dpdk_tx_add(const char *name, const char *fn, int inline_data)
{
	struct burst_ref_txq_attr a = {
		.log_desc = LOG_DESC,
		.fast_free = 1,
		.csum = opt_tx_offloads,
		.inline_data = inline_data,
		.mr_start = pool_start,
		.mr_end = pool_end,
		.lkey = DPDK_LKEY,
	};
	struct impl *im = impl_add(name, 1, ref->tx_fn(fn), 0);
	uint32_t j;

	for (j = 0; j < opt_queues; j++) {
		im->q[j] = ref->txq_create(&a, &im->txh[j].r);
		if (im->q[j] == NULL)
			fail("cannot set the queue up", name);
	}
}

static void
dpdk_setup(void)
{
	void *h = dlopen(opt_dpdk, RTLD_NOW | RTLD_LOCAL);

	if (h == NULL) {
		fprintf(stderr, "%s\n", dlerror());
		exit(1);
	}
	ref = dlsym(h, BURST_REF_SYMBOL);
	if (ref == NULL || ref->abi != BURST_REF_ABI) {
		fprintf(stderr, "%s: not a burst plugin of this benchmark\n",
			opt_dpdk);
		exit(1);
	}
	printf("peer %s\n", ref->version);
	/* DPDK's default for this queue: the vector burst, plain CQEs. */
	dpdk_rx_add("dpdk-vector", "vector", 0);
	dpdk_rx_add("dpdk-vector-compressed", "vector", opt_session);
	dpdk_rx_add("dpdk-scalar", "scalar", 0);
	dpdk_rx_add("dpdk-scalar-compressed", "scalar", opt_session);
	if (opt_tx_offloads) {
		/*
		 * Its templates with checksums: eMPW (its default below 8
		 * queues), eMPW inlining (from 8), SEND.
		 */
		dpdk_tx_add("dpdk-sc_empw", "sc_empw", 0);
		dpdk_tx_add("dpdk-sci_empw", "sci_empw", 1);
		dpdk_tx_add("dpdk-sc", "sc", 0);
		return;
	}
	/* One queue: eMPW without inlining (inlining starts at 8 queues). */
	dpdk_tx_add("dpdk-none_empw", "none_empw", 0);
	dpdk_tx_add("dpdk-i_empw", "i_empw", 1);
	dpdk_tx_add("dpdk-none", "none", 0);
	dpdk_tx_add("dpdk-i", "i", 1);
}

static void
pool_range(struct rte_mempool *mp, void *arg, struct rte_mempool_memhdr *hdr,
	   unsigned int idx)
{
	uintptr_t a = (uintptr_t)hdr->addr;

	RTE_SET_USED(mp);
	RTE_SET_USED(arg);
	RTE_SET_USED(idx);
	if (pool_start == 0 || a < pool_start)
		pool_start = a;
	if (a + hdr->len > pool_end)
		pool_end = a + hdr->len;
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static void
usage(const char *prog)
{
	fprintf(stderr,
		"usage: %s <EAL args> -- [--dpdk PLUGIN] [--frames N]"
		" [--repeats N] [--size N] [--session N] [--offloads]"
		" [--tx-offloads] [--queues N] [--list]\n",
		prog);
	exit(2);
}

static void
parse(int argc, char **argv)
{
	static const struct option longs[] = {
		{ "dpdk", required_argument, NULL, 'd' },
		{ "frames", required_argument, NULL, 'f' },
		{ "repeats", required_argument, NULL, 'r' },
		{ "size", required_argument, NULL, 's' },
		{ "session", required_argument, NULL, 'S' },
		{ "offloads", no_argument, NULL, 'o' },
		{ "tx-offloads", no_argument, NULL, 'T' },
		{ "queues", required_argument, NULL, 'q' },
		{ "list", no_argument, NULL, 'l' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	while ((c = getopt_long(argc, argv, "", longs, NULL)) != -1) {
		switch (c) {
		case 'd':
			opt_dpdk = optarg;
			break;
		case 'f':
			opt_frames = (uint32_t)atoi(optarg);
			break;
		case 'r':
			opt_repeats = (uint32_t)atoi(optarg);
			break;
		case 's':
			opt_size = (uint32_t)atoi(optarg);
			break;
		case 'S':
			opt_session = (uint32_t)atoi(optarg);
			break;
		case 'o':
			opt_offloads = 1;
			break;
		case 'T':
			opt_tx_offloads = 1;
			break;
		case 'q':
			opt_queues = (uint32_t)atoi(optarg);
			break;
		case 'l':
			opt_list = 1;
			break;
		default:
			usage(argv[0]);
		}
	}
	if (opt_size < 64 || opt_size > 1500 || opt_session < 2 ||
	    opt_session > 64 || opt_repeats < 1 || opt_repeats > 64 ||
	    opt_frames < ROUND || opt_queues < 1 || opt_queues > MAX_Q ||
	    !rte_is_power_of_2(opt_queues))
		usage(argv[0]);
	opt_frames = RTE_ALIGN(opt_frames, ROUND);
}

int
main(int argc, char **argv)
{
	unsigned int i, r;
	int ret;

	ret = rte_eal_init(argc, argv);
	if (ret < 0) {
		fprintf(stderr, "EAL: %s\n", rte_strerror(rte_errno));
		return 1;
	}
	parse(argc - ret, argv + ret);
	under_callgrind = RUNNING_ON_VALGRIND ? 1 : 0;
	/* Our PMD's port: a software device of its own card. */
	if (rte_vdev_init("mlx5_sim0", "card=201") != 0 ||
	    rte_eth_dev_count_avail() != 1) {
		fprintf(stderr, "no software-device port (%s)\n",
			rte_strerror(rte_errno));
		return 1;
	}
	/* Each queue of each Rx implementation holds a ring of mbufs. */
	pool = rte_pktmbuf_pool_create(
		"burst", 16384 + (opt_queues - 1) * 6 * (1u << LOG_DESC), 256,
		0, RTE_MBUF_DEFAULT_BUF_SIZE, 0);
	if (pool == NULL) {
		fprintf(stderr, "pool: %s\n", rte_strerror(rte_errno));
		return 1;
	}
	rte_mempool_mem_iter(pool, pool_range, NULL);
	if (ours_setup(0) != 0)
		return 1;
	if (opt_dpdk != NULL)
		dpdk_setup();
	if (opt_list) {
		for (i = 0; i < n_impls; ++i)
			printf("impl %s %s\n", impls[i].tx ? "tx" : "rx",
			       impls[i].name);
		ours_teardown(0);
		return 0;
	}
	/* Warm every queue (and both MR caches) once, untimed. */
	for (i = 0; i < n_impls; ++i)
		(void)(impls[i].tx ? tx_measure : rx_measure)(&impls[i]);
	if (under_callgrind)
		CALLGRIND_ZERO_STATS;
	for (r = 0; r < (under_callgrind ? 1 : opt_repeats); ++r) {
		for (i = 0; i < n_impls; ++i) {
			struct impl *im = &impls[i];
			char label[96];

			im->cycles[r] = (im->tx ? tx_measure : rx_measure)(im);
			snprintf(label, sizeof(label), "bench:%s:%s:%u",
				 im->tx ? "tx" : "rx", im->name, opt_frames);
			if (under_callgrind)
				CALLGRIND_DUMP_STATS_AT(label);
		}
	}
	for (i = 0; i < n_impls && !under_callgrind; ++i) {
		struct impl *im = &impls[i];

		qsort(im->cycles, opt_repeats, sizeof(double), cmp_double);
		printf("cycles %s %s %.2f\n", im->tx ? "tx" : "rx", im->name,
		       im->cycles[opt_repeats / 2]);
	}
	if (ref != NULL && ref->mr_misses() != 0)
		printf("note DPDK's MR cache missed %" PRIu64 " times\n",
		       ref->mr_misses());
	for (i = 0; i < n_impls; ++i)
		printf("checked %s %s %" PRIu64 " frames\n",
		       impls[i].tx ? "tx" : "rx", impls[i].name,
		       impls[i].frames);
	ours_teardown(0);
	rte_eal_cleanup();
	return 0;
}
