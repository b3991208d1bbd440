/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * net/mlx5 through ethdev only, on the software device (its cable loops a
 * port's frames back to it): frames of 60 to 9000 bytes single and
 * multi-segment both ways, checksum offloads and verdicts, RSS spreading
 * and RETA changes, error completions counted and recovered from,
 * private-IOVA and cross-vHCA transmissions and their revocation, pacing
 * spacing on Rx timestamps, stop/start and queue reconfiguration, and no
 * device object left after close.
 */

#include <stdlib.h>

#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_ip.h>
#include <rte_mbuf.h>
#include <rte_mbuf_dyn.h>
#include <rte_udp.h>

/* DPDK's header casts byte pointers to wider types (clang warns). */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wcast-align"
#include <rte_thash.h>
#pragma GCC diagnostic pop

#include <rte_pmd_mlx5.h>
#include <mlx5_common_dp.h>
#include <mlx5_sim.h>

#include "mlx5_net.h"
#include "mlx5_test.h"
#include "mlx5_test_dev.h"
#include "mlx5_test_frame.h"

#define N_CARD 63
#define N_MBUFS 8191
#define N_BIG 10000                /* A buffer for the large frames. */

static struct rte_mempool *pool;
static uint16_t port;
static int ts_off = -1;
static uint64_t ts_flag;
static uint16_t n_vhca;            /* The vHCA of slot 0 this case. */

static int
n_setup(void)
{
	pool = rte_pktmbuf_pool_create("net_test", N_MBUFS, 0, 0,
				       RTE_MBUF_DEFAULT_BUF_SIZE, SOCKET_ID_ANY);
	return pool != NULL ? TEST_SUCCESS : TEST_FAILED;
}

static void
n_teardown(void)
{
	rte_mempool_free(pool);
}

static int
n_case_setup(void)
{
	if (tdev_hw())
		TEST_SKIP("the port's frames loop back through the software"
			  " device's cable");
	return TEST_SUCCESS;
}

static void
n_case_teardown(void)
{
	uint16_t p;

	RTE_ETH_FOREACH_DEV(p)
		rte_eth_dev_close(p);
	tdev_remove_all();
}

/* Probe slot @slot as vHCA @vhca (devargs @extra) and find its port. */
static int
n_probe(unsigned int slot, uint16_t vhca, const char *extra, uint16_t *p)
{
	char args[128];

	snprintf(args, sizeof(args), "card=%u,vhca_id=%u%s", N_CARD, vhca,
		 extra);
	if (slot == 0)
		n_vhca = vhca;
	TEST_ASSERT_SUCCESS(tdev_probe(slot, args), "probe %s", args);
	TEST_ASSERT_SUCCESS(rte_eth_dev_get_port_by_name(tdev_name(slot), p),
			    "an ethdev port for %s", tdev_name(slot));
	return TEST_SUCCESS;
}

/* Configure and start port @p with @nq queues each way. */
static int
n_start(uint16_t p, uint16_t nq, uint64_t rx_off, uint64_t tx_off,
	uint16_t mtu)
{
	struct rte_eth_conf conf = {
		.rxmode = { .offloads = rx_off, .mq_mode = nq > 1 ?
			    RTE_ETH_MQ_RX_RSS : RTE_ETH_MQ_RX_NONE },
		.txmode = { .offloads = tx_off },
		.rx_adv_conf.rss_conf.rss_hf = RTE_ETH_RSS_IPV4 |
					       RTE_ETH_RSS_NONFRAG_IPV4_UDP,
	};
	uint16_t q;

	TEST_ASSERT_SUCCESS(rte_eth_dev_configure(p, nq, nq, &conf),
			    "configure");
	if (mtu != 0)
		TEST_ASSERT_SUCCESS(rte_eth_dev_set_mtu(p, mtu), "MTU %u", mtu);
	for (q = 0; q < nq; q++) {
		TEST_ASSERT_SUCCESS(rte_eth_rx_queue_setup(p, q, 512,
				    SOCKET_ID_ANY, NULL, pool), "Rx queue %u",
				    q);
		TEST_ASSERT_SUCCESS(rte_eth_tx_queue_setup(p, q, 512,
				    SOCKET_ID_ANY, NULL), "Tx queue %u", q);
	}
	TEST_ASSERT_SUCCESS(rte_eth_dev_start(p), "start");
	if (rx_off & RTE_ETH_RX_OFFLOAD_TIMESTAMP)
		TEST_ASSERT_SUCCESS(rte_mbuf_dyn_rx_timestamp_register(&ts_off,
				    &ts_flag), "timestamp field");
	return TEST_SUCCESS;
}

/*
 * An IPv4/UDP frame of @len bytes to port @p's own MAC, in @nseg mbufs
 * (the first at least 42 bytes), UDP source port @sport, payload from
 * @seed; checksums filled unless @offload (then 0, with the Tx flags).
 */
static struct rte_mbuf *
n_frame(uint16_t p, uint32_t len, unsigned int nseg, uint16_t sport,
	uint8_t seed, bool offload)
{
	static uint8_t f[N_BIG];
	struct rte_ipv4_hdr *ip = (void *)(f + 14);
	struct rte_udp_hdr *udp = (void *)(ip + 1);
	struct rte_mbuf *head = NULL, *prev = NULL;
	struct rte_ether_addr mac;
	uint32_t i, off = 0;

	rte_eth_macaddr_get(p, &mac);
	memcpy(f, &mac, 6);
	memcpy(f + 6, &mac, 6);
	f[12] = 0x08;
	f[13] = 0x00;
	memset(ip, 0, sizeof(*ip));
	ip->version_ihl = 0x45;
	ip->total_length = rte_cpu_to_be_16((uint16_t)(len - 14));
	ip->time_to_live = 64;
	ip->next_proto_id = IPPROTO_UDP;
	ip->src_addr = rte_cpu_to_be_32(0x0a000001 + seed);
	ip->dst_addr = rte_cpu_to_be_32(0x0a000002);
	udp->src_port = rte_cpu_to_be_16(sport);
	udp->dst_port = rte_cpu_to_be_16(4789);
	udp->dgram_len = rte_cpu_to_be_16((uint16_t)(len - 34));
	udp->dgram_cksum = 0;
	for (i = 42; i < len; i++)
		f[i] = (uint8_t)(seed * 3 + i);
	if (!offload) {
		ip->hdr_checksum = rte_ipv4_cksum(ip);
		udp->dgram_cksum = rte_ipv4_udptcp_cksum(ip, udp);
	}
	for (i = 0; i < nseg; i++) {
		struct rte_mbuf *m = rte_pktmbuf_alloc(pool);
		uint32_t chunk = i + 1 == nseg ? len - off :
				 RTE_MAX(42u, (len / nseg) & ~7u);

		if (m == NULL || chunk > rte_pktmbuf_tailroom(m)) {
			rte_pktmbuf_free(m);
			rte_pktmbuf_free(head);
			return NULL;
		}
		memcpy(rte_pktmbuf_append(m, (uint16_t)chunk), f + off, chunk);
		off += chunk;
		if (head == NULL)
			head = m;
		else
			prev->next = m;
		prev = m;
	}
	head->nb_segs = (uint16_t)nseg;
	head->pkt_len = len;
	if (offload) {
		head->ol_flags |= RTE_MBUF_F_TX_IPV4 | RTE_MBUF_F_TX_IP_CKSUM |
				  RTE_MBUF_F_TX_UDP_CKSUM;
		head->l2_len = 14;
		head->l3_len = 20;
	}
	return head;
}

/* The bytes of a frame n_frame() would build, checksums filled. */
static const uint8_t *
n_bytes(uint16_t p, uint32_t len, uint16_t sport, uint8_t seed)
{
	static uint8_t copy[N_BIG];
	struct rte_mbuf *m = n_frame(p, len, (len + 2047) / 2048, sport, seed,
				     false);

	if (m == NULL)
		return NULL;
	rte_pktmbuf_read(m, 0, len, copy);
	memcpy(copy, rte_pktmbuf_read(m, 0, len, copy), len);
	rte_pktmbuf_free(m);
	return copy;
}

/* Receive one frame on @p (any queue of @nq), within @ticks. */
static struct rte_mbuf *
n_recv_within(uint16_t p, uint16_t nq, uint16_t *queue, uint64_t ticks)
{
	uint64_t end = rte_get_timer_cycles() + ticks;
	struct rte_mbuf *m;
	uint16_t q;

	do {
		for (q = 0; q < nq; q++)
			if (rte_eth_rx_burst(p, q, &m, 1) == 1) {
				if (queue != NULL)
					*queue = q;
				return m;
			}
	} while (rte_get_timer_cycles() < end);
	return NULL;
}

/* Receive one frame on @p (any queue of @nq), within a second. */
static struct rte_mbuf *
n_recv(uint16_t p, uint16_t nq, uint16_t *queue)
{
	return n_recv_within(p, nq, queue, rte_get_timer_hz());
}

/*
 * No frame on @p (any queue of @nq) within 100 ms. The device writes a
 * frame microseconds after its doorbell; one later than the wait would
 * not be missed either: the next receive of the test would take it in
 * place of its own, and fail. A device that sends nothing passes at once
 * after the wait, so the test takes no second per check.
 */
static bool
n_none(uint16_t p, uint16_t nq)
{
	struct rte_mbuf *m = n_recv_within(p, nq, NULL,
					   rte_get_timer_hz() / 10);

	rte_pktmbuf_free(m);
	return m == NULL;
}

/*
 * Take in what @p's queue 0 receives until the port has received as
 * many frames as it counts sent (its far end is itself) or a second has
 * passed; @st gets its statistics then.
 */
static int
n_settle(uint16_t p, struct rte_eth_stats *st)
{
	uint64_t end = rte_get_timer_cycles() + rte_get_timer_hz();
	struct rte_mbuf *m;

	do {
		while (rte_eth_rx_burst(p, 0, &m, 1) == 1)
			rte_pktmbuf_free(m);
		TEST_ASSERT_SUCCESS(rte_eth_stats_get(p, st), "stats");
	} while (st->ipackets < st->opackets &&
		 rte_get_timer_cycles() < end);
	/* A frame too many would show in the figures the caller checks. */
	while (rte_eth_rx_burst(p, 0, &m, 1) == 1)
		rte_pktmbuf_free(m);
	return rte_eth_stats_get(p, st) == 0 ? TEST_SUCCESS : TEST_FAILED;
}

static int
n_send(uint16_t p, uint16_t q, struct rte_mbuf *m)
{
	TEST_ASSERT_NOT_NULL(m, "frame built");
	TEST_ASSERT_EQUAL(rte_eth_tx_burst(p, q, &m, 1), 1, "sent");
	return TEST_SUCCESS;
}

/* Frames of 60 to 9000 bytes, one or several mbufs, both ways. */
static int
test_sizes_segments(void)
{
	static const uint32_t sizes[] = { 60, 64, 65, 128, 1000, 1514, 2048,
					  2049, 4000, 9000, 9014 };
	unsigned int i, k;

	if (n_probe(0, 1, "", &port) != TEST_SUCCESS ||
	    n_start(port, 1, RTE_ETH_RX_OFFLOAD_SCATTER,
		    RTE_ETH_TX_OFFLOAD_MULTI_SEGS, 9000) != TEST_SUCCESS)
		return TEST_FAILED;
	for (k = 0; k < 2; k++)
		for (i = 0; i < RTE_DIM(sizes); i++) {
			uint32_t len = sizes[i];
			/* Fewest mbufs, or more and smaller ones. */
			unsigned int few = RTE_MIN(4u, len / 48);
			unsigned int nseg = k == 0 ? (len + 2047) / 2048 :
					    RTE_MAX(few, len / 1500 + 2);
			struct rte_mbuf *m;
			const uint8_t *want;
			uint8_t got[N_BIG];

			if (n_send(port, 0, n_frame(port, len, nseg, 7,
						    (uint8_t)i, false)))
				return TEST_FAILED;
			m = n_recv(port, 1, NULL);
			TEST_ASSERT_NOT_NULL(m, "%u bytes in %u mbufs received",
					     len, nseg);
			TEST_ASSERT_EQUAL(m->pkt_len, len, "length");
			TEST_ASSERT_EQUAL(m->nb_segs, (len + 2047) / 2048,
					  "%u bytes: scattered in 2 KiB mbufs",
					  len);
			want = n_bytes(port, len, 7, (uint8_t)i);
			TEST_ASSERT(memcmp(rte_pktmbuf_read(m, 0, len, got),
					   want, len) == 0, "%u bytes intact",
				    len);
			rte_pktmbuf_free(m);
		}
	return TEST_SUCCESS;
}

/* Checksums filled on the way out; verdicts and types on the way in. */
static int
test_checksums(void)
{
	struct rte_mbuf *m;
	uint8_t *b;

	if (n_probe(0, 2, "", &port) != TEST_SUCCESS ||
	    n_start(port, 1, RTE_ETH_RX_OFFLOAD_CHECKSUM,
		    RTE_ETH_TX_OFFLOAD_IPV4_CKSUM |
		    RTE_ETH_TX_OFFLOAD_UDP_CKSUM, 0) != TEST_SUCCESS)
		return TEST_FAILED;
	if (n_send(port, 0, n_frame(port, 200, 1, 9, 1, true)))
		return TEST_FAILED;
	m = n_recv(port, 1, NULL);
	TEST_ASSERT_NOT_NULL(m, "received");
	TEST_ASSERT((m->ol_flags & RTE_MBUF_F_RX_IP_CKSUM_MASK) ==
		    RTE_MBUF_F_RX_IP_CKSUM_GOOD &&
		    (m->ol_flags & RTE_MBUF_F_RX_L4_CKSUM_MASK) ==
		    RTE_MBUF_F_RX_L4_CKSUM_GOOD, "both good");
	TEST_ASSERT_EQUAL(m->packet_type, RTE_PTYPE_L2_ETHER |
			  RTE_PTYPE_L3_IPV4_EXT_UNKNOWN | RTE_PTYPE_L4_UDP,
			  "packet type");
	TEST_ASSERT(memcmp(rte_pktmbuf_mtod(m, void *),
			   n_bytes(port, 200, 9, 1), 200) == 0,
		    "the device wrote the checksums software computes");
	rte_pktmbuf_free(m);
	/* A bad UDP checksum, no offload. */
	m = n_frame(port, 200, 1, 9, 1, false);
	TEST_ASSERT_NOT_NULL(m, "frame");
	b = rte_pktmbuf_mtod(m, uint8_t *);
	b[34 + 6] ^= 0xff;
	if (n_send(port, 0, m))
		return TEST_FAILED;
	m = n_recv(port, 1, NULL);
	TEST_ASSERT_NOT_NULL(m, "received");
	TEST_ASSERT((m->ol_flags & RTE_MBUF_F_RX_IP_CKSUM_MASK) ==
		    RTE_MBUF_F_RX_IP_CKSUM_GOOD &&
		    (m->ol_flags & RTE_MBUF_F_RX_L4_CKSUM_MASK) ==
		    RTE_MBUF_F_RX_L4_CKSUM_BAD, "L4 bad, IP good");
	rte_pktmbuf_free(m);
	return TEST_SUCCESS;
}

/* RSS spreads flows as Toeplitz with the port's key says; RETA moves them. */
static int
test_rss_reta(void)
{
	struct rte_eth_rss_reta_entry64 reta[4];
	struct rte_eth_rss_conf rc;
	struct rte_eth_dev_info info;
	uint8_t key[40], key_le[40];
	unsigned int per_q[4] = { 0 }, i;

	if (n_probe(0, 3, "", &port) != TEST_SUCCESS ||
	    n_start(port, 4, RTE_ETH_RX_OFFLOAD_RSS_HASH, 0, 0) !=
	    TEST_SUCCESS)
		return TEST_FAILED;
	rc.rss_key = key;
	rc.rss_key_len = sizeof(key);
	TEST_ASSERT_SUCCESS(rte_eth_dev_rss_hash_conf_get(port, &rc), "key");
	rte_convert_rss_key((const uint32_t *)key, (uint32_t *)key_le,
			    sizeof(key));
	TEST_ASSERT_SUCCESS(rte_eth_dev_info_get(port, &info), "info");
	for (i = 0; i < 64; i++) {
		uint16_t sport = (uint16_t)(1000 + 101 * i), q;
		union rte_thash_tuple t = {
			.v4 = { .src_addr = 0x0a000001 + (i & 7),
				.dst_addr = 0x0a000002,
				.sport = sport, .dport = 4789 },
		};
		uint32_t want = rte_softrss_be((uint32_t *)&t,
					       RTE_THASH_V4_L4_LEN, key_le);
		struct rte_mbuf *m;

		if (n_send(port, 0, n_frame(port, 64, 1, sport,
					    (uint8_t)(i & 7), false)))
			return TEST_FAILED;
		m = n_recv(port, 4, &q);
		TEST_ASSERT_NOT_NULL(m, "flow %u", i);
		TEST_ASSERT(m->ol_flags & RTE_MBUF_F_RX_RSS_HASH, "hash");
		TEST_ASSERT_EQUAL(m->hash.rss, want, "flow %u: Toeplitz", i);
		TEST_ASSERT_EQUAL(q, (want % info.reta_size) % 4,
				  "flow %u: the RETA's queue", i);
		per_q[q]++;
		rte_pktmbuf_free(m);
	}
	for (i = 0; i < 4; i++)
		TEST_ASSERT(per_q[i] > 0, "queue %u got flows", i);
	/* Every entry to queue 3: every flow lands there. */
	memset(reta, 0, sizeof(reta));
	for (i = 0; i < info.reta_size; i++) {
		reta[i / RTE_ETH_RETA_GROUP_SIZE].mask |=
			RTE_BIT64(i % RTE_ETH_RETA_GROUP_SIZE);
		reta[i / RTE_ETH_RETA_GROUP_SIZE].reta[i %
			RTE_ETH_RETA_GROUP_SIZE] = 3;
	}
	TEST_ASSERT_SUCCESS(rte_eth_dev_rss_reta_update(port, reta,
							info.reta_size),
			    "RETA to queue 3");
	for (i = 0; i < 16; i++) {
		struct rte_mbuf *m;
		uint16_t q;

		if (n_send(port, 0, n_frame(port, 64, 1, (uint16_t)(7 * i), 1,
					    false)))
			return TEST_FAILED;
		m = n_recv(port, 4, &q);
		TEST_ASSERT_NOT_NULL(m, "flow %u", i);
		TEST_ASSERT_EQUAL(q, 3, "flow %u moved to queue 3", i);
		rte_pktmbuf_free(m);
	}
	reta[0].reta[0] = 9;
	TEST_ASSERT(rte_eth_dev_rss_reta_update(port, reta, info.reta_size) <
		    0, "a RETA naming queue 9 of 4 refused");
	return TEST_SUCCESS;
}

/* The value of extended statistic @name of port @p. */
static uint64_t
n_xstat(uint16_t p, const char *name)
{
	uint64_t id, v = UINT64_MAX;

	if (rte_eth_xstats_get_id_by_name(p, name, &id) != 0 ||
	    rte_eth_xstats_get_by_id(p, &id, &v, 1) != 1)
		return UINT64_MAX;
	return v;
}

/* An mbuf of a key nobody has: counted, the queue recovers. */
static int
test_error_recover(void)
{
	struct rte_eth_stats st;
	struct rte_mbuf *m;
	uint64_t v;

	if (n_probe(0, 4, "", &port) != TEST_SUCCESS ||
	    n_start(port, 1, 0, 0, 0) != TEST_SUCCESS)
		return TEST_FAILED;
	m = n_frame(port, 128, 1, 1, 1, false);
	TEST_ASSERT_NOT_NULL(m, "frame");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5_mbuf_set_private_iova(m,
			    rte_pmd_mlx5_mkey_to_iova(0x00fe1200)),
			    "a private IOVA of no key");
	if (n_send(port, 0, m))
		return TEST_FAILED;
	/* The next bursts take the error completion and recover. */
	if (n_send(port, 0, n_frame(port, 128, 1, 2, 2, false)))
		return TEST_FAILED;
	for (unsigned int i = 0; i < 3 && (m = n_recv(port, 1, NULL)) == NULL;
	     i++)
		if (n_send(port, 0, n_frame(port, 128, 1, 3, 3, false)))
			return TEST_FAILED;
	TEST_ASSERT_NOT_NULL(m, "traffic after the error");
	rte_pktmbuf_free(m);
	TEST_ASSERT_SUCCESS(n_settle(port, &st), "stats");
	TEST_ASSERT_EQUAL(st.oerrors, 1, "the error counted once");
	TEST_ASSERT_EQUAL(st.opackets, st.ipackets,
			  "the failed packet not counted as sent");
	v = n_xstat(port, "tx_q0_recoveries");
	TEST_ASSERT(v != UINT64_MAX, "xstat tx_q0_recoveries");
	TEST_ASSERT(v >= 1, "the SQ recovered");
	return TEST_SUCCESS;
}

/*
 * A receive error completion: every posted receive WQE given a key that
 * names nothing (as a WQE the device cannot use would be), then a frame.
 * The device ends the WQE in error; the PMD counts it (ierrors, the
 * queue's q_errors and rx_q0_errors), recovers the RQ (rx_q0_recoveries),
 * posts its WQEs again with the pool's key, and the next frames arrive.
 */
static int
test_rx_error_recover(void)
{
	struct mlx5_net_rxq *rxq;
	struct rte_eth_stats st;
	struct rte_mbuf *m;
	uint32_t i;

	if (n_probe(0, 16, "", &port) != TEST_SUCCESS ||
	    n_start(port, 1, 0, 0, 0) != TEST_SUCCESS)
		return TEST_FAILED;
	rxq = rte_eth_devices[port].data->rx_queues[0];
	TEST_ASSERT_NOT_NULL(rxq, "Rx queue 0");
	for (i = 0; i < (1u << rxq->log_wqe_n); i++) {
		struct mlx5_wqe_data_seg *ds = (void *)(rxq->wqes +
			((size_t)i << rxq->log_stride));

		ds->lkey = rte_cpu_to_be_32(0x00fe1200);
	}
	rte_wmb();
	if (n_send(port, 0, n_frame(port, 128, 1, 1, 1, false)))
		return TEST_FAILED;
	/* The error completion: taken by a burst that returns nothing. */
	TEST_ASSERT_EQUAL(rte_eth_rx_burst(port, 0, &m, 1), 0,
			  "nothing from the failed WQE");
	TEST_ASSERT_EQUAL(n_xstat(port, "rx_q0_recoveries"), 1,
			  "the RQ recovered");
	/* Its WQEs posted again with the pool's key: traffic flows. */
	for (i = 0; i < 3; i++) {
		if (n_send(port, 0, n_frame(port, 128, 1, 2, 2, false)))
			return TEST_FAILED;
		m = n_recv(port, 1, NULL);
		TEST_ASSERT_NOT_NULL(m, "frame %u after the error", i);
		rte_pktmbuf_free(m);
	}
	TEST_ASSERT_SUCCESS(rte_eth_stats_get(port, &st), "stats");
	TEST_ASSERT_EQUAL(st.ierrors, 1, "the error counted once");
	TEST_ASSERT_EQUAL(st.q_errors[0], 1, "on queue 0");
	TEST_ASSERT_EQUAL(n_xstat(port, "rx_q0_errors"), 1, "xstat");
	TEST_ASSERT_EQUAL(n_xstat(port, "rx_q0_recoveries"), 1,
			  "the RQ recovered once");
	TEST_ASSERT_EQUAL(st.opackets, 4, "four sent");
	TEST_ASSERT_EQUAL(st.ipackets, 3, "the three after the error received");
	TEST_ASSERT_EQUAL(st.imissed, 0, "no WQE missing");
	return TEST_SUCCESS;
}

static void
n_extbuf_free(void *addr, void *opaque)
{
	RTE_SET_USED(addr);
	RTE_SET_USED(opaque);
}

/*
 * An mbuf whose data are @buf (@len bytes at IOVA @iova), attached
 * externally: not the pool's memory, nothing to free.
 */
static struct rte_mbuf *
n_extbuf_mbuf(void *buf, rte_iova_t iova, uint16_t len,
	      struct rte_mbuf_ext_shared_info *shinfo)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(pool);

	if (m == NULL)
		return NULL;
	shinfo->free_cb = n_extbuf_free;
	shinfo->fcb_opaque = NULL;
	rte_mbuf_ext_refcnt_set(shinfo, 1);
	rte_pktmbuf_attach_extbuf(m, buf, iova, len, shinfo);
	m->data_off = 0;
	return m;
}

/*
 * A DPU-side port sends host memory: the host vHCA exports a buffer, the
 * DPU's crossing mkey reaches it, an mbuf flagged private IOVA carries the
 * key; after the export is released the same mbuf fails, counted.
 */
static int
test_cross_vhca_private_iova(void)
{
	static const uint8_t akey[RTE_PMD_MLX5_ACCESS_KEY_LEN] = { 7 };
	static struct rte_mbuf_ext_shared_info shinfo;
	uint16_t host, dpu, vhca_id;
	struct rte_eth_stats st;
	struct rte_mbuf *m, *r;
	uint8_t *hostbuf;
	uint32_t mkey;
	rte_iova_t iova;
	uint16_t len = 256;

	if (n_probe(0, 5, "", &dpu) != TEST_SUCCESS ||
	    n_probe(1, 6, "", &host) != TEST_SUCCESS ||
	    n_start(dpu, 1, 0, 0, 0) != TEST_SUCCESS)
		return TEST_FAILED;
	hostbuf = aligned_alloc(4096, 4096);
	TEST_ASSERT_NOT_NULL(hostbuf, "host buffer");
	memcpy(hostbuf, n_bytes(dpu, len, 5, 5), len);
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5_export_mem(tdev_eal_dev(1), hostbuf,
			    4096, akey, &vhca_id, &mkey), "export");
	iova = rte_pmd_mlx5_create_cross_vhca_mkey(tdev_eal_dev(0), vhca_id,
						   mkey);
	TEST_ASSERT(iova != 0, "crossing mkey");
	/* An mbuf whose data are the host's buffer (attached externally). */
	m = n_extbuf_mbuf(hostbuf, iova, 4096, &shinfo);
	TEST_ASSERT_NOT_NULL(m, "mbuf");
	rte_pktmbuf_append(m, len);
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5_mbuf_set_private_iova(m, iova),
			    "flag");
	rte_mbuf_refcnt_set(m, 2);
	if (n_send(dpu, 0, m))
		return TEST_FAILED;
	r = n_recv(dpu, 1, NULL);
	TEST_ASSERT_NOT_NULL(r, "the host's bytes came back");
	TEST_ASSERT(memcmp(rte_pktmbuf_mtod(r, void *), hostbuf, len) == 0,
		    "they are the host's");
	rte_pktmbuf_free(r);
	/* The host revokes: the same mbuf now fails. */
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5_release_key(tdev_eal_dev(1),
			    rte_pmd_mlx5_mkey_to_iova(mkey)), "revoke");
	if (n_send(dpu, 0, m))
		return TEST_FAILED;
	if (n_send(dpu, 0, n_frame(dpu, 64, 1, 1, 1, false)))
		return TEST_FAILED;
	TEST_ASSERT_SUCCESS(n_settle(dpu, &st), "stats");
	TEST_ASSERT(st.oerrors >= 1, "the revoked key's packet counted");
	rte_pmd_mlx5_release_key(tdev_eal_dev(0), iova);
	free(hostbuf);
	return TEST_SUCCESS;
}

/*
 * A paced queue's frames leave spaced by their length at the rate, and
 * still after the queue recovered from an error completion (its reset
 * forgot the rate: set again).
 */
static int
test_pacing_timestamps(void)
{
	struct rte_mbuf *pkts[8], *m;
	uint64_t ts[8];
	unsigned int i, round;

	if (n_probe(0, 7, "", &port) != TEST_SUCCESS ||
	    n_start(port, 1, RTE_ETH_RX_OFFLOAD_TIMESTAMP, 0, 0) !=
	    TEST_SUCCESS)
		return TEST_FAILED;
	TEST_ASSERT_SUCCESS(rte_eth_set_queue_rate_limit(port, 0, 100),
			    "100 Mb/s on queue 0");
	TEST_ASSERT(rte_eth_set_queue_rate_limit(port, 1, 100) < 0,
		    "queue 1 of 1 refused");
	for (round = 0; round < 2; round++) {
		if (round == 1) {
			/* The next burst takes its error and recovers. */
			m = n_frame(port, 128, 1, 1, 1, false);
			TEST_ASSERT_NOT_NULL(m, "frame");
			TEST_ASSERT_SUCCESS(rte_pmd_mlx5_mbuf_set_private_iova(
				m, rte_pmd_mlx5_mkey_to_iova(0x00fe1200)),
				"a private IOVA of no key");
			if (n_send(port, 0, m))
				return TEST_FAILED;
		}
		for (i = 0; i < 8; i++) {
			pkts[i] = n_frame(port, 1000, 1, 1, 1, false);
			TEST_ASSERT_NOT_NULL(pkts[i], "frame");
		}
		TEST_ASSERT_EQUAL(rte_eth_tx_burst(port, 0, pkts, 8), 8,
				  "sent");
		for (i = 0; i < 8; i++) {
			m = n_recv(port, 1, NULL);
			TEST_ASSERT_NOT_NULL(m, "frame %u", i);
			TEST_ASSERT(m->ol_flags & ts_flag, "timestamped");
			ts[i] = *RTE_MBUF_DYNFIELD(m, ts_off,
						   rte_mbuf_timestamp_t *);
			rte_pktmbuf_free(m);
		}
		/* 8000 bits at 100 Mb/s: 80 us apart. */
		for (i = 1; i < 8; i++)
			TEST_ASSERT_EQUAL(ts[i] - ts[i - 1], 80000,
					  "round %u: frame %u 80 us after the"
					  " previous", round, i);
	}
	TEST_ASSERT_EQUAL(n_xstat(port, "tx_q0_recoveries"), 1,
			  "the queue recovered");
	TEST_ASSERT_SUCCESS(rte_eth_set_queue_rate_limit(port, 0, 0),
			    "no limit");
	return TEST_SUCCESS;
}

/* Stop, reconfigure with more queues, start: traffic again; close: empty. */
static int
test_reconfigure_close(void)
{
	struct mlx5_sim_stats st;
	struct rte_eth_link link;
	struct rte_mbuf *m;

	if (n_probe(0, 8, "", &port) != TEST_SUCCESS ||
	    n_start(port, 1, 0, 0, 0) != TEST_SUCCESS)
		return TEST_FAILED;
	TEST_ASSERT_SUCCESS(rte_eth_link_get_nowait(port, &link), "link");
	TEST_ASSERT(link.link_status == RTE_ETH_LINK_UP &&
		    link.link_speed == RTE_ETH_SPEED_NUM_100G, "up, 100G");
	TEST_ASSERT_SUCCESS(rte_eth_dev_stop(port), "stop");
	if (n_start(port, 2, 0, 0, 0) != TEST_SUCCESS)
		return TEST_FAILED;
	if (n_send(port, 1, n_frame(port, 64, 1, 1, 1, false)))
		return TEST_FAILED;
	m = n_recv(port, 2, NULL);
	TEST_ASSERT_NOT_NULL(m, "traffic after reconfiguration");
	rte_pktmbuf_free(m);
	/* Not promiscuous: a frame to another MAC is not received. */
	m = n_frame(port, 64, 1, 1, 1, false);
	TEST_ASSERT_NOT_NULL(m, "frame");
	rte_pktmbuf_mtod(m, uint8_t *)[5] ^= 0x40;
	if (n_send(port, 0, m))
		return TEST_FAILED;
	TEST_ASSERT(n_none(port, 2), "another MAC: dropped");
	TEST_ASSERT_SUCCESS(rte_eth_promiscuous_enable(port), "promisc");
	/* 66 bytes: the dropped frame (64), arriving late, would not pass. */
	m = n_frame(port, 66, 1, 1, 1, false);
	TEST_ASSERT_NOT_NULL(m, "frame");
	rte_pktmbuf_mtod(m, uint8_t *)[5] ^= 0x40;
	if (n_send(port, 0, m))
		return TEST_FAILED;
	m = n_recv(port, 2, NULL);
	TEST_ASSERT(m != NULL && m->pkt_len == 66, "promiscuous: received");
	rte_pktmbuf_free(m);
	TEST_ASSERT_SUCCESS(rte_eth_dev_stop(port), "stop");
	TEST_ASSERT_SUCCESS(rte_eth_dev_close(port), "close");
	TEST_ASSERT_SUCCESS(mlx5_sim_vhca_stats(N_CARD, n_vhca, &st), "stats");
	TEST_ASSERT(st.cqs == 0 && st.sqs == 0 && st.rqs == 0 &&
		    st.tiss == 0 && st.tds == 0 && st.rqts == 0 &&
		    st.tirs == 0 && st.flows == 0 && st.q_counters == 0,
		    "no queue object left after close");
	TEST_ASSERT_SUCCESS(tdev_remove(0), "remove");
	TEST_ASSERT_EQUAL(tdev_live(0), 0, "nothing left after removal");
	return TEST_SUCCESS;
}

/* All-multicast, a new MAC, the inline devarg, an unknown devarg. */
static int
test_modes_devargs(void)
{
	struct rte_ether_addr mac = {
		.addr_bytes = { 0x02, 0x12, 0x34, 0x56, 0x78, 0x9a },
	};
	struct rte_mbuf *m;
	uint8_t *d;

	TEST_ASSERT(tdev_probe(0, "card=63,vhca_id=9,txq_inline_max=64") < 0,
		    "an unknown devarg refused");
	if (n_probe(0, 9, ",txq_inline_min=18", &port) != TEST_SUCCESS ||
	    n_start(port, 1, 0, 0, 0) != TEST_SUCCESS)
		return TEST_FAILED;
	/* The first 18 bytes inline: the frame arrives whole all the same. */
	if (n_send(port, 0, n_frame(port, 100, 1, 1, 1, false)))
		return TEST_FAILED;
	m = n_recv(port, 1, NULL);
	TEST_ASSERT_NOT_NULL(m, "received with an inline header");
	TEST_ASSERT(memcmp(rte_pktmbuf_mtod(m, void *),
			   n_bytes(port, 100, 1, 1), 100) == 0, "intact");
	rte_pktmbuf_free(m);
	/* A group address: only with all-multicast. */
	m = n_frame(port, 64, 1, 1, 1, false);
	TEST_ASSERT_NOT_NULL(m, "frame");
	d = rte_pktmbuf_mtod(m, uint8_t *);
	d[0] = 0x01; d[1] = 0x00; d[2] = 0x5e;
	if (n_send(port, 0, m))
		return TEST_FAILED;
	TEST_ASSERT(n_none(port, 1), "multicast dropped");
	TEST_ASSERT_SUCCESS(rte_eth_allmulticast_enable(port), "allmulti");
	/* 66 bytes: the dropped frame (64), arriving late, would not pass. */
	m = n_frame(port, 66, 1, 1, 1, false);
	TEST_ASSERT_NOT_NULL(m, "frame");
	d = rte_pktmbuf_mtod(m, uint8_t *);
	d[0] = 0x01; d[1] = 0x00; d[2] = 0x5e;
	if (n_send(port, 0, m))
		return TEST_FAILED;
	m = n_recv(port, 1, NULL);
	TEST_ASSERT(m != NULL && m->pkt_len == 66, "multicast received");
	rte_pktmbuf_free(m);
	/* A new MAC: frames to it are received, to the old one not. */
	TEST_ASSERT_SUCCESS(rte_eth_dev_default_mac_addr_set(port, &mac),
			    "MAC set");
	if (n_send(port, 0, n_frame(port, 64, 1, 1, 1, false)))
		return TEST_FAILED;
	m = n_recv(port, 1, NULL);
	TEST_ASSERT_NOT_NULL(m, "to the new MAC: received");
	TEST_ASSERT(memcmp(rte_pktmbuf_mtod(m, void *), &mac, 6) == 0,
		    "sent to the new MAC");
	rte_pktmbuf_free(m);
	mac.addr_bytes[0] = 0x01;
	TEST_ASSERT(rte_eth_dev_default_mac_addr_set(port, &mac) < 0,
		    "a group MAC refused");
	return TEST_SUCCESS;
}

/*
 * A LAG device (ports=2): Tx queue 0 leaves by port 1, queue 1 by port 2.
 * vHCA 20's port 1 is cabled to vHCA 21, its port 2 to vHCA 22: each
 * frame arrives where its queue's port leads, and only there.
 */
static int
test_lag_tx_ports(void)
{
	uint16_t lag, far1, far2;
	struct rte_mbuf *m;

	if (n_probe(0, 20, ",ports=2,wire=21,wire2=22", &lag) != TEST_SUCCESS ||
	    n_probe(1, 21, ",wire=20", &far1) != TEST_SUCCESS ||
	    n_probe(2, 22, ",wire=20:2", &far2) != TEST_SUCCESS ||
	    n_start(lag, 2, 0, 0, 0) != TEST_SUCCESS ||
	    n_start(far1, 1, 0, 0, 0) != TEST_SUCCESS ||
	    n_start(far2, 1, 0, 0, 0) != TEST_SUCCESS)
		return TEST_FAILED;
	/* The frames are to the LAG's MAC: the far ends take all. */
	TEST_ASSERT_SUCCESS(rte_eth_promiscuous_enable(far1), "promiscuous");
	TEST_ASSERT_SUCCESS(rte_eth_promiscuous_enable(far2), "promiscuous");
	for (uint16_t q = 0; q < 2; q++) {
		uint16_t to = q == 0 ? far1 : far2;
		uint16_t other = q == 0 ? far2 : far1;

		/* Of its own length: queue 0's frame, arriving late at the
		 * wrong port, would not pass for queue 1's. */
		if (n_send(lag, q, n_frame(lag, 100 + q, 1, 7, (uint8_t)q,
					   false)))
			return TEST_FAILED;
		m = n_recv(to, 1, NULL);
		TEST_ASSERT_NOT_NULL(m, "Tx queue %u: the frame at port %u's"
				     " far end", q, q + 1);
		TEST_ASSERT_EQUAL(rte_pktmbuf_pkt_len(m), 100u + q,
				  "its length");
		rte_pktmbuf_free(m);
		TEST_ASSERT(n_none(other, 1),
			    "Tx queue %u: nothing by the other port", q);
	}
	return TEST_SUCCESS;
}

/*
 * Every mbuf comes back: frames of one and of three segments sent with
 * and without MBUF_FAST_FREE, received and freed; once the port is closed
 * the pool has none in use (its Rx buffers, stash and completed Tx mbufs
 * all returned).
 */
static int
test_mbufs_returned(void)
{
	static const uint64_t tx_offs[] = {
		RTE_ETH_TX_OFFLOAD_MULTI_SEGS,
		RTE_ETH_TX_OFFLOAD_MULTI_SEGS | RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE,
	};
	struct rte_mbuf *m;

	for (unsigned int k = 0; k < RTE_DIM(tx_offs); k++) {
		unsigned int got = 0;

		TEST_ASSERT_EQUAL(rte_mempool_in_use_count(pool), 0,
				  "no mbuf in use before");
		if (n_probe(0, (uint16_t)(24 + k), "", &port) != TEST_SUCCESS ||
		    n_start(port, 1, 0, tx_offs[k], 0) != TEST_SUCCESS)
			return TEST_FAILED;
		for (unsigned int i = 0; i < 600; i++) {
			if (n_send(port, 0, n_frame(port, 300, i % 2 ? 3 : 1,
						    (uint16_t)i, (uint8_t)i,
						    false)))
				return TEST_FAILED;
			while ((m = n_recv(port, 1, NULL)) != NULL) {
				got++;
				rte_pktmbuf_free(m);
				if (got == i + 1)
					break;
			}
		}
		TEST_ASSERT_EQUAL(got, 600, "every frame received (%s)",
				  k ? "fast free" : "no fast free");
		TEST_ASSERT_SUCCESS(rte_eth_dev_stop(port), "stop");
		TEST_ASSERT_SUCCESS(rte_eth_dev_close(port), "close");
		tdev_remove_all();
		TEST_ASSERT_EQUAL(rte_mempool_in_use_count(pool), 0,
				  "every mbuf back in the pool after close (%s)",
				  k ? "fast free" : "no fast free");
	}
	return TEST_SUCCESS;
}

/*
 * What dev_infos promises (the guide's features and limits), descriptor
 * counts rounded up to a power of two and honoured (an Rx queue holds as
 * many mbufs), an MTU the queues' buffers cannot take refused, a port
 * without a Tx queue not started, txq_inline_min past 128 refused.
 */
static int
test_infos_queue_setup(void)
{
	struct rte_eth_conf conf = { .rxmode.mq_mode = RTE_ETH_MQ_RX_NONE };
	struct rte_eth_dev_info info;
	uint8_t key[40] = { 0 };
	unsigned int before;

	TEST_ASSERT(tdev_probe(0, "card=63,vhca_id=10,txq_inline_min=129") < 0,
		    "txq_inline_min 129 refused (0..128)");
	tdev_remove_all();
	if (n_probe(0, 10, ",txq_inline_min=128", &port) != TEST_SUCCESS)
		return TEST_FAILED;
	TEST_ASSERT_SUCCESS(rte_eth_dev_info_get(port, &info), "info");
	TEST_ASSERT((info.rx_offload_capa &
		     (RTE_ETH_RX_OFFLOAD_CHECKSUM | RTE_ETH_RX_OFFLOAD_SCATTER |
		      RTE_ETH_RX_OFFLOAD_RSS_HASH |
		      RTE_ETH_RX_OFFLOAD_TIMESTAMP)) ==
		    (RTE_ETH_RX_OFFLOAD_CHECKSUM | RTE_ETH_RX_OFFLOAD_SCATTER |
		     RTE_ETH_RX_OFFLOAD_RSS_HASH | RTE_ETH_RX_OFFLOAD_TIMESTAMP),
		    "Rx offloads: checksum, scatter, RSS hash, timestamp");
	TEST_ASSERT((info.tx_offload_capa &
		     (RTE_ETH_TX_OFFLOAD_IPV4_CKSUM |
		      RTE_ETH_TX_OFFLOAD_UDP_CKSUM |
		      RTE_ETH_TX_OFFLOAD_TCP_CKSUM |
		      RTE_ETH_TX_OFFLOAD_MULTI_SEGS |
		      RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE)) ==
		    (RTE_ETH_TX_OFFLOAD_IPV4_CKSUM |
		     RTE_ETH_TX_OFFLOAD_UDP_CKSUM |
		     RTE_ETH_TX_OFFLOAD_TCP_CKSUM |
		     RTE_ETH_TX_OFFLOAD_MULTI_SEGS |
		     RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE),
		    "Tx offloads: IPv4/UDP/TCP checksums, multi-segment, fast"
		    " free");
	TEST_ASSERT_EQUAL(info.tx_desc_lim.nb_seg_max, 6,
			  "up to 6 segments per packet with 128 bytes inline");
	TEST_ASSERT_EQUAL(info.hash_key_size, 40, "a 40-byte RSS key");
	TEST_ASSERT(info.reta_size > 0 && info.reta_size <= 256 &&
		    rte_is_power_of_2(info.reta_size), "RETA of %u entries",
		    info.reta_size);
	TEST_ASSERT((info.flow_type_rss_offloads &
		     (RTE_ETH_RSS_IPV4 | RTE_ETH_RSS_IPV6 |
		      RTE_ETH_RSS_NONFRAG_IPV4_TCP |
		      RTE_ETH_RSS_NONFRAG_IPV6_UDP)) ==
		    (RTE_ETH_RSS_IPV4 | RTE_ETH_RSS_IPV6 |
		     RTE_ETH_RSS_NONFRAG_IPV4_TCP | RTE_ETH_RSS_NONFRAG_IPV6_UDP),
		    "IPv4 and IPv6 RSS types");
	TEST_ASSERT_EQUAL(info.rx_desc_lim.nb_min, 64, "at least 64");
	TEST_ASSERT(info.speed_capa & RTE_ETH_LINK_SPEED_100G, "100G");
	/* An RSS key of another length than hash_key_size. */
	conf.rx_adv_conf.rss_conf.rss_key = key;
	conf.rx_adv_conf.rss_conf.rss_key_len = 39;
	TEST_ASSERT(rte_eth_dev_configure(port, 1, 1, &conf) < 0,
		    "a key of 39 bytes refused");
	conf.rx_adv_conf.rss_conf.rss_key = NULL;
	conf.rx_adv_conf.rss_conf.rss_key_len = 0;
	/* One Rx queue and no Tx queue: configured, not started. */
	before = rte_mempool_in_use_count(pool);
	TEST_ASSERT_SUCCESS(rte_eth_dev_configure(port, 1, 0, &conf),
			    "configure 1 Rx, 0 Tx");
	/* MTU 9000 first: an Rx queue without scatter refused. */
	TEST_ASSERT_SUCCESS(rte_eth_dev_set_mtu(port, 9000), "MTU 9000");
	TEST_ASSERT(rte_eth_rx_queue_setup(port, 0, 64, SOCKET_ID_ANY, NULL,
					   pool) < 0,
		    "MTU 9000 in 2 KiB mbufs without scatter refused");
	TEST_ASSERT_SUCCESS(rte_eth_dev_set_mtu(port, 1500), "MTU 1500");
	TEST_ASSERT_SUCCESS(rte_eth_rx_queue_setup(port, 0, 64, SOCKET_ID_ANY,
						   NULL, pool), "Rx queue");
	TEST_ASSERT_EQUAL(rte_mempool_in_use_count(pool) - before, 64,
			  "64 descriptors: 64 mbufs posted");
	TEST_ASSERT(rte_eth_dev_start(port) < 0, "no Tx queue: not started");
	/* 100 descriptors are 128 mbufs (a new setup frees the old). */
	TEST_ASSERT_SUCCESS(rte_eth_dev_configure(port, 1, 1, &conf),
			    "configure");
	TEST_ASSERT_SUCCESS(rte_eth_rx_queue_setup(port, 0, 100, SOCKET_ID_ANY,
						   NULL, pool), "Rx queue");
	TEST_ASSERT_EQUAL(rte_mempool_in_use_count(pool) - before, 128,
			  "100 descriptors: 128 mbufs posted");
	/* 2 KiB mbufs without scatter: MTU 9000 would not fit. */
	TEST_ASSERT(rte_eth_dev_set_mtu(port, 9000) < 0,
		    "MTU 9000 over 2 KiB buffers without scatter refused");
	TEST_ASSERT_SUCCESS(rte_eth_dev_set_mtu(port, 2000),
			    "MTU 2000 fits a 2 KiB buffer");
	return TEST_SUCCESS;
}

/*
 * Counters: per-queue packets and bytes both ways, frames missed for want
 * of a WQE (imissed, rx_out_of_buffer), Tx packets dropped before the
 * device (oerrors, tx_q0_errors, no recovery), frames dropped for want of
 * an mbuf (rx_nombuf, rx_q0_nombuf); a reset clears them all.
 */
static int
test_stats_counters(void)
{
	static struct rte_mbuf_ext_shared_info shinfo;
	static uint8_t nokey[256];
	struct rte_eth_stats st;
	struct rte_mbuf *pkts[100], *m;
	struct rte_mempool *small;
	unsigned int i, got = 0;

	if (n_probe(0, 11, "", &port) != TEST_SUCCESS ||
	    n_start(port, 2, 0, RTE_ETH_TX_OFFLOAD_MULTI_SEGS, 0) !=
	    TEST_SUCCESS)
		return TEST_FAILED;
	/* 5 frames of 100 bytes on Tx queue 1. */
	for (i = 0; i < 5; i++)
		if (n_send(port, 1, n_frame(port, 100, 1, 5, 5, false)))
			return TEST_FAILED;
	while (got < 5 && (m = n_recv(port, 2, NULL)) != NULL) {
		got++;
		TEST_ASSERT_EQUAL(m->ol_flags & (RTE_MBUF_F_RX_IP_CKSUM_MASK |
						 RTE_MBUF_F_RX_L4_CKSUM_MASK),
				  0, "no checksum verdict without the offload");
		rte_pktmbuf_free(m);
	}
	TEST_ASSERT_EQUAL(got, 5, "5 received");
	TEST_ASSERT_SUCCESS(rte_eth_stats_get(port, &st), "stats");
	TEST_ASSERT(st.opackets == 5 && st.obytes == 500 &&
		    st.q_opackets[1] == 5 && st.q_obytes[1] == 500 &&
		    st.q_opackets[0] == 0, "Tx: 5 packets, 500 bytes, queue 1");
	TEST_ASSERT(st.ipackets == 5 && st.ibytes == 500 &&
		    st.q_ipackets[0] + st.q_ipackets[1] == 5 &&
		    st.q_ibytes[0] + st.q_ibytes[1] == 500,
		    "Rx: 5 packets, 500 bytes over the queues");
	TEST_ASSERT(st.imissed == 0 && st.ierrors == 0 && st.oerrors == 0 &&
		    st.rx_nombuf == 0, "no error yet");
	/* A packet of no key, one of 17 segments: dropped, counted. */
	m = n_extbuf_mbuf(nokey, 0, sizeof(nokey), &shinfo);
	TEST_ASSERT_NOT_NULL(m, "mbuf");
	memcpy(nokey, n_bytes(port, 64, 1, 1), 64);
	rte_pktmbuf_append(m, 64);
	if (n_send(port, 0, m) ||
	    n_send(port, 0, n_frame(port, 17 * 64, 17, 1, 1, false)))
		return TEST_FAILED;
	TEST_ASSERT(n_none(port, 2), "neither sent");
	TEST_ASSERT_SUCCESS(rte_eth_stats_get(port, &st), "stats");
	TEST_ASSERT_EQUAL(st.oerrors, 2, "both counted in oerrors");
	TEST_ASSERT(st.opackets == 5 && st.obytes == 500, "not as sent");
	TEST_ASSERT_EQUAL(n_xstat(port, "tx_q0_errors"), 2, "tx_q0_errors");
	TEST_ASSERT_EQUAL(n_xstat(port, "tx_q0_recoveries"), 0,
			  "no recovery: the device saw neither");
	/* The reset clears Tx and Rx counters. */
	TEST_ASSERT_SUCCESS(rte_eth_stats_reset(port), "reset");
	TEST_ASSERT_SUCCESS(rte_eth_stats_get(port, &st), "stats");
	TEST_ASSERT(st.opackets == 0 && st.obytes == 0 && st.oerrors == 0 &&
		    st.ipackets == 0 && st.ibytes == 0 && st.q_opackets[1] == 0,
		    "zero after a reset");
	TEST_ASSERT_SUCCESS(rte_eth_dev_stop(port), "stop");
	TEST_ASSERT_SUCCESS(rte_eth_dev_close(port), "close");
	tdev_remove_all();
	/* One queue of 64 WQEs, 100 frames: 36 missed. */
	if (n_probe(0, 12, "", &port) != TEST_SUCCESS)
		return TEST_FAILED;
	small = rte_pktmbuf_pool_create("net_small", 64, 0, 0,
					RTE_MBUF_DEFAULT_BUF_SIZE,
					SOCKET_ID_ANY);
	TEST_ASSERT_NOT_NULL(small, "pool of 64");
	{
		struct rte_eth_conf conf = { .rxmode.mq_mode =
					     RTE_ETH_MQ_RX_NONE };

		TEST_ASSERT_SUCCESS(rte_eth_dev_configure(port, 1, 1, &conf),
				    "configure");
		TEST_ASSERT_SUCCESS(rte_eth_rx_queue_setup(port, 0, 64,
				    SOCKET_ID_ANY, NULL, small), "Rx queue");
		TEST_ASSERT_SUCCESS(rte_eth_tx_queue_setup(port, 0, 512,
				    SOCKET_ID_ANY, NULL), "Tx queue");
		TEST_ASSERT_SUCCESS(rte_eth_dev_start(port), "start");
	}
	for (i = 0; i < RTE_DIM(pkts); i++) {
		pkts[i] = n_frame(port, 64, 1, 1, 1, false);
		TEST_ASSERT_NOT_NULL(pkts[i], "frame");
	}
	TEST_ASSERT_EQUAL(rte_eth_tx_burst(port, 0, pkts, RTE_DIM(pkts)),
			  RTE_DIM(pkts), "100 sent");
	TEST_ASSERT_SUCCESS(rte_eth_stats_get(port, &st), "stats");
	TEST_ASSERT_EQUAL(st.imissed, 36, "36 frames found no WQE");
	TEST_ASSERT_EQUAL(n_xstat(port, "rx_out_of_buffer"), 36,
			  "rx_out_of_buffer");
	/* The pool is empty: the 64 frames cannot be replaced. */
	for (i = 0; i < 4; i++)
		TEST_ASSERT_EQUAL(rte_eth_rx_burst(port, 0, pkts, 32), 0,
				  "nothing handed up without a replacement");
	TEST_ASSERT_SUCCESS(rte_eth_stats_get(port, &st), "stats");
	TEST_ASSERT(st.rx_nombuf >= 1 && st.ipackets == 0,
		    "rx_nombuf counted (%" PRIu64 ")", st.rx_nombuf);
	TEST_ASSERT_EQUAL(n_xstat(port, "rx_q0_nombuf"), st.rx_nombuf,
			  "rx_q0_nombuf");
	TEST_ASSERT_EQUAL(n_xstat(port, "rx_q0_recoveries"), 0,
			  "rx_q0_recoveries");
	TEST_ASSERT_SUCCESS(rte_eth_xstats_reset(port), "reset");
	TEST_ASSERT_SUCCESS(rte_eth_stats_get(port, &st), "stats");
	TEST_ASSERT(st.imissed == 0 && st.rx_nombuf == 0 &&
		    st.opackets == 0, "zero after a reset");
	TEST_ASSERT_SUCCESS(rte_eth_dev_stop(port), "stop");
	TEST_ASSERT_SUCCESS(rte_eth_dev_close(port), "close");
	tdev_remove_all();
	rte_mempool_free(small);
	return TEST_SUCCESS;
}

/*
 * A TCP or UDP frame over IPv4 or IPv6 of @len bytes to port @p's MAC, in
 * one mbuf; its checksums 0 with the Tx flags when @offload, else filled.
 */
static struct rte_mbuf *
n_frame_l4(uint16_t p, uint32_t len, bool v6, bool tcp, bool offload)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(pool);
	uint32_t l3 = v6 ? 40 : 20, l4 = tcp ? 20 : 8, i;
	struct rte_ether_addr mac;
	uint8_t *f, *h4;
	uint16_t cs;

	if (m == NULL)
		return NULL;
	f = (uint8_t *)rte_pktmbuf_append(m, (uint16_t)len);
	rte_eth_macaddr_get(p, &mac);
	h4 = mlx5_test_frame_l3(f, len, &mac, v6,
				tcp ? IPPROTO_TCP : IPPROTO_UDP, 0x0a000002);
	if (!v6 && !offload)
		((struct rte_ipv4_hdr *)(void *)(f + 14))->hdr_checksum =
			rte_ipv4_cksum((struct rte_ipv4_hdr *)(void *)(f + 14));
	h4[0] = 0x12;
	h4[2] = 0x34;
	if (tcp) {
		h4[12] = 5 << 4;
		h4[13] = 0x10;         /* ACK */
	} else {
		h4[4] = (uint8_t)((len - 14 - l3) >> 8);
		h4[5] = (uint8_t)(len - 14 - l3);
	}
	for (i = 14 + l3 + l4; i < len; i++)
		f[i] = (uint8_t)i;
	if (!offload) {
		cs = v6 ? rte_ipv6_udptcp_cksum((void *)(f + 14), h4) :
		     rte_ipv4_udptcp_cksum((void *)(f + 14), h4);
		memcpy(h4 + (tcp ? 16 : 6), &cs, 2);
	} else {
		m->ol_flags |= (v6 ? RTE_MBUF_F_TX_IPV6 : RTE_MBUF_F_TX_IPV4 |
				RTE_MBUF_F_TX_IP_CKSUM) |
			       (tcp ? RTE_MBUF_F_TX_TCP_CKSUM :
				RTE_MBUF_F_TX_UDP_CKSUM);
		m->l2_len = 14;
		m->l3_len = l3;
	}
	(void)l4;
	return m;
}

/*
 * TCP and IPv6: the device fills a TCP checksum asked for, the verdicts
 * and packet types say TCP and IPv6; a bad IPv4 header checksum is bad.
 */
static int
test_checksums_tcp_ipv6(void)
{
	static const uint32_t l4_type[2] = { RTE_PTYPE_L4_UDP,
					     RTE_PTYPE_L4_TCP };
	struct rte_mbuf *m, *want;
	unsigned int v6, tcp;

	if (n_probe(0, 13, "", &port) != TEST_SUCCESS ||
	    n_start(port, 1, RTE_ETH_RX_OFFLOAD_CHECKSUM,
		    RTE_ETH_TX_OFFLOAD_IPV4_CKSUM | RTE_ETH_TX_OFFLOAD_UDP_CKSUM |
		    RTE_ETH_TX_OFFLOAD_TCP_CKSUM, 0) != TEST_SUCCESS)
		return TEST_FAILED;
	for (v6 = 0; v6 < 2; v6++)
		for (tcp = 0; tcp < 2; tcp++) {
			if (n_send(port, 0, n_frame_l4(port, 150, v6, tcp,
						       true)))
				return TEST_FAILED;
			m = n_recv(port, 1, NULL);
			TEST_ASSERT_NOT_NULL(m, "%s/%s received",
					     v6 ? "IPv6" : "IPv4",
					     tcp ? "TCP" : "UDP");
			TEST_ASSERT_EQUAL(m->packet_type, RTE_PTYPE_L2_ETHER |
					  (v6 ? RTE_PTYPE_L3_IPV6_EXT_UNKNOWN :
					   RTE_PTYPE_L3_IPV4_EXT_UNKNOWN) |
					  l4_type[tcp], "%s/%s: packet type",
					  v6 ? "IPv6" : "IPv4",
					  tcp ? "TCP" : "UDP");
			TEST_ASSERT_EQUAL(m->ol_flags &
					  RTE_MBUF_F_RX_L4_CKSUM_MASK,
					  RTE_MBUF_F_RX_L4_CKSUM_GOOD,
					  "%s/%s: L4 good", v6 ? "IPv6" : "IPv4",
					  tcp ? "TCP" : "UDP");
			TEST_ASSERT_EQUAL(m->ol_flags &
					  RTE_MBUF_F_RX_IP_CKSUM_MASK,
					  v6 ? RTE_MBUF_F_RX_IP_CKSUM_UNKNOWN :
					  RTE_MBUF_F_RX_IP_CKSUM_GOOD,
					  "IP verdict (none for IPv6)");
			want = n_frame_l4(port, 150, v6, tcp, false);
			TEST_ASSERT_NOT_NULL(want, "frame");
			TEST_ASSERT(memcmp(rte_pktmbuf_mtod(m, void *),
					   rte_pktmbuf_mtod(want, void *),
					   150) == 0, "%s/%s: the checksums"
				    " software computes",
				    v6 ? "IPv6" : "IPv4", tcp ? "TCP" : "UDP");
			rte_pktmbuf_free(want);
			rte_pktmbuf_free(m);
		}
	/* A bad IPv4 header checksum, no offload. */
	m = n_frame_l4(port, 150, false, true, false);
	TEST_ASSERT_NOT_NULL(m, "frame");
	rte_pktmbuf_mtod(m, uint8_t *)[14 + 10] ^= 0x5a;
	if (n_send(port, 0, m))
		return TEST_FAILED;
	m = n_recv(port, 1, NULL);
	TEST_ASSERT_NOT_NULL(m, "received");
	TEST_ASSERT_EQUAL(m->ol_flags & RTE_MBUF_F_RX_IP_CKSUM_MASK,
			  RTE_MBUF_F_RX_IP_CKSUM_BAD, "IP bad");
	rte_pktmbuf_free(m);
	return TEST_SUCCESS;
}

/*
 * Modes switched off again, the link down while stopped; RSS: a new key
 * and types while the port runs (the TIR follows), the conf query, RETA
 * entries outside the mask kept, the RETA query, a RETA of another size
 * refused.
 */
static int
test_modes_off_rss_update(void)
{
	struct rte_eth_rss_reta_entry64 reta[4];
	struct rte_eth_rss_conf rc;
	struct rte_eth_dev_info info;
	struct rte_eth_link link;
	uint8_t key[40], got[40], key_le[40];
	struct rte_mbuf *m;
	unsigned int i;
	uint16_t q;

	if (n_probe(0, 14, "", &port) != TEST_SUCCESS ||
	    n_start(port, 4, RTE_ETH_RX_OFFLOAD_RSS_HASH, 0, 0) !=
	    TEST_SUCCESS)
		return TEST_FAILED;
	TEST_ASSERT_SUCCESS(rte_eth_dev_info_get(port, &info), "info");
	/*
	 * Promiscuous and all-multicast on; promiscuous off: another MAC
	 * dropped, a group still taken; all-multicast off: that dropped too.
	 */
	TEST_ASSERT_SUCCESS(rte_eth_promiscuous_enable(port), "promisc on");
	TEST_ASSERT_SUCCESS(rte_eth_allmulticast_enable(port), "allmulti on");
	TEST_ASSERT_SUCCESS(rte_eth_promiscuous_disable(port), "promisc off");
	for (i = 0; i < 3; i++) {
		if (i == 2)
			TEST_ASSERT_SUCCESS(rte_eth_allmulticast_disable(port),
					    "allmulti off");
		m = n_frame(port, 64, 1, 1, 1, false);
		TEST_ASSERT_NOT_NULL(m, "frame");
		if (i == 0)
			rte_pktmbuf_mtod(m, uint8_t *)[5] ^= 0x40;
		else
			memcpy(rte_pktmbuf_mtod(m, uint8_t *),
			       "\x01\x00\x5e\x00\x00\x01", 6);
		if (n_send(port, 0, m))
			return TEST_FAILED;
		m = i == 1 ? n_recv(port, 4, NULL) :
			     n_recv_within(port, 4, NULL,
					   rte_get_timer_hz() / 10);
		TEST_ASSERT((m != NULL) == (i == 1), "%s", i == 0 ?
			    "another MAC: dropped once promiscuous is off" :
			    i == 1 ? "a group: taken with all-multicast" :
			    "a group: dropped once all-multicast is off");
		rte_pktmbuf_free(m);
	}
	/* A new key, IPv4 addresses only: the hash follows. */
	for (i = 0; i < sizeof(key); i++)
		key[i] = (uint8_t)(i * 7 + 1);
	rc.rss_key = key;
	rc.rss_key_len = 39;
	rc.rss_hf = RTE_ETH_RSS_IPV4;
	TEST_ASSERT(rte_eth_dev_rss_hash_update(port, &rc) < 0,
		    "a key of 39 bytes refused");
	rc.rss_key_len = 40;
	TEST_ASSERT_SUCCESS(rte_eth_dev_rss_hash_update(port, &rc),
			    "new key, IPv4 only");
	rc.rss_key = got;
	rc.rss_key_len = 39;
	TEST_ASSERT(rte_eth_dev_rss_hash_conf_get(port, &rc) < 0,
		    "no room for the key: refused");
	rc.rss_key_len = 40;
	TEST_ASSERT_SUCCESS(rte_eth_dev_rss_hash_conf_get(port, &rc), "conf");
	TEST_ASSERT(memcmp(got, key, 40) == 0 &&
		    rc.rss_hf == RTE_ETH_RSS_IPV4, "the new key and types");
	rte_convert_rss_key((const uint32_t *)key, (uint32_t *)key_le,
			    sizeof(key));
	for (i = 0; i < 8; i++) {
		union rte_thash_tuple t = {
			.v4 = { .src_addr = 0x0a000001 + i,
				.dst_addr = 0x0a000002 },
		};
		uint32_t want = rte_softrss_be((uint32_t *)&t,
					       RTE_THASH_V4_L3_LEN, key_le);

		if (n_send(port, 0, n_frame(port, 64, 1, (uint16_t)(99 * i),
					    (uint8_t)i, false)))
			return TEST_FAILED;
		m = n_recv(port, 4, &q);
		TEST_ASSERT_NOT_NULL(m, "flow %u", i);
		TEST_ASSERT_EQUAL(m->hash.rss, want,
				  "flow %u: Toeplitz of the addresses, new key",
				  i);
		TEST_ASSERT_EQUAL(q, (want % info.reta_size) % 4,
				  "flow %u: the RETA's queue", i);
		rte_pktmbuf_free(m);
	}
	/* TCP ports over IPv4, then IPv6 addresses: the hash follows. */
	for (i = 0; i < 2; i++) {
		union rte_thash_tuple t;
		uint32_t want;

		memset(&t, 0, sizeof(t));
		rc.rss_key = NULL;
		rc.rss_hf = i == 0 ? RTE_ETH_RSS_NONFRAG_IPV4_TCP :
			    RTE_ETH_RSS_IPV6;
		TEST_ASSERT_SUCCESS(rte_eth_dev_rss_hash_update(port, &rc),
				    "RSS types %u", i);
		m = n_frame_l4(port, 100, i == 1, true, false);
		TEST_ASSERT_NOT_NULL(m, "frame");
		if (i == 0) {
			t.v4.src_addr = 0x0a000001;
			t.v4.dst_addr = 0x0a000002;
			t.v4.sport = 0x1200;
			t.v4.dport = 0x3400;
			want = rte_softrss_be((uint32_t *)&t,
					      RTE_THASH_V4_L4_LEN, key_le);
		} else {
			rte_thash_load_v6_addrs(rte_pktmbuf_mtod_offset(m,
				const struct rte_ipv6_hdr *, 14), &t);
			want = rte_softrss_be((uint32_t *)&t,
					      RTE_THASH_V6_L3_LEN, key_le);
		}
		if (n_send(port, 0, m))
			return TEST_FAILED;
		m = n_recv(port, 4, NULL);
		TEST_ASSERT_NOT_NULL(m, "received");
		TEST_ASSERT_EQUAL(m->hash.rss, want, "%s",
				  i == 0 ? "Toeplitz of IPv4 and TCP ports" :
				  "Toeplitz of the IPv6 addresses");
		rte_pktmbuf_free(m);
	}
	/* Only entry 1 changes (to queue 0); the query shows it. */
	memset(reta, 0, sizeof(reta));
	for (i = 0; i < RTE_DIM(reta); i++)
		memset(reta[i].reta, 3, sizeof(reta[i].reta));
	reta[0].mask = RTE_BIT64(1);
	reta[0].reta[1] = 0;
	TEST_ASSERT(rte_eth_dev_rss_reta_update(port, reta,
						info.reta_size / 2) < 0,
		    "a RETA of half the size refused");
	TEST_ASSERT_SUCCESS(rte_eth_dev_rss_reta_update(port, reta,
							info.reta_size),
			    "entry 1 to queue 0");
	memset(reta, 0, sizeof(reta));
	for (i = 0; i < RTE_DIM(reta); i++)
		memset(reta[i].reta, 0xee, sizeof(reta[i].reta));
	reta[0].mask = RTE_BIT64(0) | RTE_BIT64(1) | RTE_BIT64(2);
	TEST_ASSERT_SUCCESS(rte_eth_dev_rss_reta_query(port, reta,
						       info.reta_size),
			    "query");
	TEST_ASSERT(reta[0].reta[0] == 0 && reta[0].reta[1] == 0 &&
		    reta[0].reta[2] == 2, "entries 0..2: queues 0, 0, 2"
		    " (%u %u %u)", reta[0].reta[0], reta[0].reta[1],
		    reta[0].reta[2]);
	TEST_ASSERT_EQUAL(reta[0].reta[3], 0xeeee,
			  "outside the mask: untouched");
	/* Stopped: the link is down. */
	TEST_ASSERT_SUCCESS(rte_eth_dev_stop(port), "stop");
	TEST_ASSERT_SUCCESS(rte_eth_link_get_nowait(port, &link), "link");
	TEST_ASSERT_EQUAL(link.link_status, RTE_ETH_LINK_DOWN,
			  "down while stopped");
	return TEST_SUCCESS;
}

/* Rate 0 gives the pacing entry back; a rate set while stopped holds. */
static int
test_rate_limit_release(void)
{
	struct mlx5_sim_stats st;

	if (n_probe(0, 15, "", &port) != TEST_SUCCESS ||
	    n_start(port, 2, 0, 0, 0) != TEST_SUCCESS)
		return TEST_FAILED;
	TEST_ASSERT(rte_eth_set_queue_rate_limit(port, 2, 100) < 0,
		    "queue 2 of 2 refused");
	TEST_ASSERT_SUCCESS(rte_eth_set_queue_rate_limit(port, 0, 100),
			    "queue 0");
	TEST_ASSERT_SUCCESS(rte_eth_set_queue_rate_limit(port, 1, 100),
			    "queue 1, the same rate");
	TEST_ASSERT_SUCCESS(mlx5_sim_vhca_stats(N_CARD, n_vhca, &st), "stats");
	TEST_ASSERT_EQUAL(st.pp_entries, 1, "one entry for both queues");
	TEST_ASSERT_SUCCESS(rte_eth_set_queue_rate_limit(port, 1, 200),
			    "queue 1 at 200");
	TEST_ASSERT_SUCCESS(mlx5_sim_vhca_stats(N_CARD, n_vhca, &st), "stats");
	TEST_ASSERT_EQUAL(st.pp_entries, 2, "two rates, two entries");
	TEST_ASSERT_SUCCESS(rte_eth_set_queue_rate_limit(port, 0, 0), "0");
	TEST_ASSERT_SUCCESS(rte_eth_set_queue_rate_limit(port, 1, 0), "0");
	TEST_ASSERT_SUCCESS(mlx5_sim_vhca_stats(N_CARD, n_vhca, &st), "stats");
	TEST_ASSERT_EQUAL(st.pp_entries, 0, "rate 0: entries released");
	return TEST_SUCCESS;
}

/* Frames received on @p queue 0 within 50 ms (freed), for "none came". */
static unsigned int
n_drain(uint16_t p)
{
	uint64_t end = rte_get_timer_cycles() + rte_get_timer_hz() / 20;
	struct rte_mbuf *m;
	unsigned int n = 0;

	do {
		while (rte_eth_rx_burst(p, 0, &m, 1) == 1) {
			rte_pktmbuf_free(m);
			n++;
		}
	} while (rte_get_timer_cycles() < end);
	return n;
}

/* A private-IOVA mbuf of @len bytes at @buf under key @iova. */
static struct rte_mbuf *
n_piova_mbuf(void *buf, rte_iova_t iova, uint16_t len,
	     struct rte_mbuf_ext_shared_info *shinfo)
{
	struct rte_mbuf *m = n_extbuf_mbuf(buf, iova, 4096, shinfo);

	if (m == NULL)
		return NULL;
	rte_pktmbuf_append(m, len);
	if (rte_pmd_mlx5_mbuf_set_private_iova(m, iova) != 0) {
		rte_pktmbuf_free(m);
		return NULL;
	}
	return m;
}

/*
 * Private-IOVA mbufs on a queue with txq_inline_min=@inl: their bytes go
 * by pointer under their key, never inline (the CPU does not read another
 * vHCA's memory). A good key's frame arrives byte-exact; a made-up key,
 * bytes outside the export and a revoked export each end in an error
 * completion, and none of their bytes arrive, also for frames no longer
 * than the inline size.
 */
static int
n_piova_inline(uint16_t inl)
{
	static const uint8_t akey[RTE_PMD_MLX5_ACCESS_KEY_LEN] = { 9 };
	static struct rte_mbuf_ext_shared_info shinfo[4];
	char extra[32];
	uint16_t host, dpu, vhca_id;
	struct rte_eth_stats st;
	struct rte_mbuf *r;
	uint8_t *hostbuf;
	uint32_t mkey;
	rte_iova_t iova;
	const uint16_t len = 64;

	snprintf(extra, sizeof(extra), ",txq_inline_min=%u", inl);
	if (n_probe(0, 5, extra, &dpu) != TEST_SUCCESS ||
	    n_probe(1, 6, "", &host) != TEST_SUCCESS ||
	    n_start(dpu, 1, 0, 0, 0) != TEST_SUCCESS)
		return TEST_FAILED;
	hostbuf = aligned_alloc(4096, 8192);
	TEST_ASSERT_NOT_NULL(hostbuf, "host buffer");
	memcpy(hostbuf, n_bytes(dpu, len, 5, 5), len);
	memcpy(hostbuf + 4096, hostbuf, len);
	/* Only the first page is exported. */
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5_export_mem(tdev_eal_dev(1), hostbuf,
			    4096, akey, &vhca_id, &mkey), "export");
	iova = rte_pmd_mlx5_create_cross_vhca_mkey(tdev_eal_dev(0), vhca_id,
						   mkey);
	TEST_ASSERT(iova != 0, "crossing mkey");
	/* The good key: the host's bytes, whole. */
	if (n_send(dpu, 0, n_piova_mbuf(hostbuf, iova, len,
				       &shinfo[0])))
		return TEST_FAILED;
	r = n_recv(dpu, 1, NULL);
	TEST_ASSERT_NOT_NULL(r, "inline %u: the host's frame arrived", inl);
	TEST_ASSERT(r->pkt_len == len && memcmp(rte_pktmbuf_mtod(r, void *),
		    hostbuf, len) == 0, "inline %u: byte-exact", inl);
	rte_pktmbuf_free(r);
	/* A key nobody has. */
	if (n_send(dpu, 0, n_piova_mbuf(hostbuf,
			rte_pmd_mlx5_mkey_to_iova(0x00fe1200), len, &shinfo[1])))
		return TEST_FAILED;
	TEST_ASSERT_EQUAL(n_drain(dpu), 0,
			  "inline %u: nothing sent under a made-up key", inl);
	/* Bytes outside the export, under the good key. */
	if (n_send(dpu, 0, n_piova_mbuf(hostbuf + 4096, iova, len,
				       &shinfo[2])))
		return TEST_FAILED;
	TEST_ASSERT_EQUAL(n_drain(dpu), 0,
			  "inline %u: nothing sent from outside the export",
			  inl);
	/* The host revokes; its bytes written afterwards never leave. */
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5_release_key(tdev_eal_dev(1),
			    rte_pmd_mlx5_mkey_to_iova(mkey)), "revoke");
	memset(hostbuf + 14, 0x5a, 16);
	if (n_send(dpu, 0, n_piova_mbuf(hostbuf, iova, len,
				       &shinfo[3])))
		return TEST_FAILED;
	TEST_ASSERT_EQUAL(n_drain(dpu), 0,
			  "inline %u: nothing sent after the revocation", inl);
	/* A local frame takes the last error completion and gets through. */
	if (n_send(dpu, 0, n_frame(dpu, 64, 1, 1, 1, false)))
		return TEST_FAILED;
	r = n_recv(dpu, 1, NULL);
	TEST_ASSERT_NOT_NULL(r, "inline %u: local traffic after the errors",
			     inl);
	rte_pktmbuf_free(r);
	TEST_ASSERT_SUCCESS(rte_eth_stats_get(dpu, &st), "stats");
	TEST_ASSERT_EQUAL(st.oerrors, 3, "inline %u: three error completions",
			  inl);
	TEST_ASSERT_EQUAL(st.ipackets, 2, "inline %u: two frames arrived",
			  inl);
	rte_pmd_mlx5_release_key(tdev_eal_dev(0), iova);
	free(hostbuf);
	return TEST_SUCCESS;
}

static int
test_private_iova_not_inlined(void)
{
	static const uint16_t inl[] = { 18, 128 };

	for (unsigned int i = 0; i < RTE_DIM(inl); i++) {
		if (n_piova_inline(inl[i]) != TEST_SUCCESS)
			return TEST_FAILED;
		n_case_teardown();
	}
	return TEST_SUCCESS;
}

/* Every mbuf of @mp holds its own buffer and no private-IOVA flag. */
static void
n_pool_obj_check(struct rte_mempool *mp, void *arg, void *obj,
		 unsigned int idx)
{
	struct rte_mbuf *m = obj;
	unsigned int *bad = arg;

	RTE_SET_USED(idx);
	if (m->buf_addr != rte_mbuf_buf_addr(m, mp) ||
	    (m->ol_flags & rte_pmd_mlx5_private_iova_flag()) != 0)
		(*bad)++;
}

/*
 * An application points a pool mbuf at exported host memory (private
 * IOVA, crossing key) and sends it: the frame leaves, the mbuf goes back to
 * its pool. Rx, refilling from that pool, posts the pool's own buffers
 * under the pool's key only: the host's memory is never written, every
 * frame lands in pool memory, and afterwards every mbuf of the pool has
 * its own buffer and no flag.
 */
static int
test_rx_stale_private_iova(void)
{
	static const uint8_t akey[RTE_PMD_MLX5_ACCESS_KEY_LEN] = { 3 };
	struct rte_mempool *saved = pool, *small;
	uint16_t host, dpu, vhca_id;
	uint8_t *hostbuf, *snap;
	struct rte_mbuf *m, *pkts[32];
	unsigned int round, bad = 0, got = 0;
	struct rte_eth_stats st;
	uint32_t mkey;
	rte_iova_t iova;
	int ret;

	small = rte_pktmbuf_pool_create("net_stale", 1024, 0, 0,
					RTE_MBUF_DEFAULT_BUF_SIZE,
					SOCKET_ID_ANY);
	TEST_ASSERT_NOT_NULL(small, "pool");
	pool = small;
	ret = n_probe(0, 5, "", &dpu) != TEST_SUCCESS ||
	      n_probe(1, 6, "", &host) != TEST_SUCCESS ||
	      n_start(dpu, 1, 0, 0, 0) != TEST_SUCCESS;
	pool = saved;
	TEST_ASSERT(ret == 0, "set-up");
	hostbuf = aligned_alloc(4096, 4096);
	snap = malloc(4096);
	TEST_ASSERT(hostbuf != NULL && snap != NULL, "host buffer");
	memset(hostbuf, 0xab, 4096);
	memcpy(hostbuf, n_bytes(dpu, 64, 5, 5), 64);
	memcpy(snap, hostbuf, 4096);
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5_export_mem(tdev_eal_dev(1), hostbuf,
			    4096, akey, &vhca_id, &mkey), "export");
	iova = rte_pmd_mlx5_create_cross_vhca_mkey(tdev_eal_dev(0), vhca_id,
						   mkey);
	TEST_ASSERT(iova != 0, "crossing mkey");
	/* The pool mbuf pointed at the host's memory (not the safe way). */
	m = rte_pktmbuf_alloc(small);
	TEST_ASSERT_NOT_NULL(m, "mbuf");
	m->buf_addr = hostbuf;
	m->buf_len = 4096;
	m->data_off = 0;
	rte_pktmbuf_append(m, 64);
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5_mbuf_set_private_iova(m, iova), "flag");
	if (n_send(dpu, 0, m))
		return TEST_FAILED;
	/* Cycle the whole pool through the Rx queue twice. */
	for (round = 0; round < 2 * 1024 / 32; round++) {
		uint16_t i, n;

		/* Sent from another pool: only Rx takes from this one. */
		for (i = 0; i < 32; i++) {
			pkts[i] = rte_pktmbuf_alloc(pool);
			TEST_ASSERT_NOT_NULL(pkts[i], "round %u: mbuf", round);
			memcpy(rte_pktmbuf_append(pkts[i], 64),
			       n_bytes(dpu, 64, 1, (uint8_t)round), 64);
		}
		TEST_ASSERT_EQUAL(rte_eth_tx_burst(dpu, 0, pkts, 32), 32,
				  "round %u: sent", round);
		/* In bursts: the vector Rx path's rounds refill too. */
		for (n = 0, i = 0; n < 32 && i < 1000; i++) {
			struct rte_mbuf *rx[32];
			uint16_t g = rte_eth_rx_burst(dpu, 0, rx, 32), j;

			for (j = 0; j < g; j++) {
				if (rx[j]->buf_addr !=
					    rte_mbuf_buf_addr(rx[j], small) ||
				    (uint8_t *)rx[j]->buf_addr == hostbuf)
					bad++;
				rte_pktmbuf_free(rx[j]);
			}
			n += g;
			got += g;
			if (g == 0)
				rte_delay_us(100);
		}
	}
	TEST_ASSERT_EQUAL(bad, 0, "every frame landed in its pool's memory");
	TEST_ASSERT(got >= 2 * 1024 - 32, "frames received: %u", got);
	/* Repaired before posting, not after the device refused it. */
	TEST_ASSERT_SUCCESS(rte_eth_stats_get(dpu, &st), "");
	TEST_ASSERT_EQUAL(st.ierrors, 0, "no Rx error completion");
	TEST_ASSERT(memcmp(hostbuf, snap, 4096) == 0,
		    "the host's exported memory was never written");
	rte_eth_dev_close(dpu);
	rte_mempool_obj_iter(small, n_pool_obj_check, &bad);
	TEST_ASSERT_EQUAL(bad, 0,
			  "every mbuf of the pool has its own buffer, no flag");
	rte_pmd_mlx5_release_key(tdev_eal_dev(0), iova);
	rte_pmd_mlx5_release_key(tdev_eal_dev(1),
				 rte_pmd_mlx5_mkey_to_iova(mkey));
	n_case_teardown();
	rte_mempool_free(small);
	free(hostbuf);
	free(snap);
	return TEST_SUCCESS;
}

/*
 * The Tx segment limit follows txq_inline_min: dev_infos_get says how many
 * segments a packet may have (14 with no inline header, 13 with 18 bytes,
 * 6 with 128); such a packet passes rte_eth_tx_prepare() and arrives
 * whole, one segment more is refused there with EINVAL.
 */
static int
test_tx_segment_limit(void)
{
	static const struct { uint16_t inl, segs; } cfg[] = {
		{ 0, 14 }, { 18, 13 }, { 128, 6 },
	};
	static uint8_t n_big[N_BIG];

	for (unsigned int c = 0; c < RTE_DIM(cfg); c++) {
		struct rte_eth_dev_info info;
		struct rte_mbuf *m, *r;
		char extra[32];
		uint32_t len, seg;

		snprintf(extra, sizeof(extra), ",txq_inline_min=%u",
			 cfg[c].inl);
		if (n_probe(0, 11, extra, &port) != TEST_SUCCESS ||
		    n_start(port, 1, 0, RTE_ETH_TX_OFFLOAD_MULTI_SEGS, 0) !=
		    TEST_SUCCESS)
			return TEST_FAILED;
		TEST_ASSERT_SUCCESS(rte_eth_dev_info_get(port, &info), "info");
		TEST_ASSERT_EQUAL(info.tx_desc_lim.nb_seg_max, cfg[c].segs,
				  "inline %u: nb_seg_max", cfg[c].inl);
		TEST_ASSERT_EQUAL(info.tx_desc_lim.nb_mtu_seg_max, cfg[c].segs,
				  "inline %u: nb_mtu_seg_max", cfg[c].inl);
		/*
		 * Every segment longer than the inline header, the frame
		 * within the default MTU.
		 */
		seg = cfg[c].inl < 100 ? 104 : 136;
		len = seg * cfg[c].segs;
		m = n_frame(port, len, cfg[c].segs, 1, 1, false);
		TEST_ASSERT_NOT_NULL(m, "frame");
		TEST_ASSERT_EQUAL(rte_eth_tx_prepare(port, 0, &m, 1), 1,
				  "inline %u: %u segments prepared", cfg[c].inl,
				  cfg[c].segs);
		if (n_send(port, 0, m))
			return TEST_FAILED;
		r = n_recv(port, 1, NULL);
		TEST_ASSERT_NOT_NULL(r, "inline %u: %u segments arrived",
				     cfg[c].inl, cfg[c].segs);
		TEST_ASSERT(r->pkt_len == len &&
			    memcmp(rte_pktmbuf_read(r, 0, len, n_big),
				   n_bytes(port, len, 1, 1), len) == 0,
			    "inline %u: intact", cfg[c].inl);
		rte_pktmbuf_free(r);
		len = seg * (cfg[c].segs + 1u);
		m = n_frame(port, len, cfg[c].segs + 1u, 1, 1, false);
		TEST_ASSERT_NOT_NULL(m, "frame");
		rte_errno = 0;
		TEST_ASSERT_EQUAL(rte_eth_tx_prepare(port, 0, &m, 1), 0,
				  "inline %u: %u segments refused", cfg[c].inl,
				  cfg[c].segs + 1);
		TEST_ASSERT_EQUAL(rte_errno, EINVAL, "refused with EINVAL");
		rte_pktmbuf_free(m);
		n_case_teardown();
	}
	return TEST_SUCCESS;
}

/*
 * Error completions by cause, the flush behind them and their log: a
 * burst of [a private-IOVA mbuf of a key nobody has, a good frame]. The
 * device fails the first WQE (local protection) and flushes the second, as
 * hardware does: both count in oerrors, one as err_local_protection, one as
 * flushed. Three such errors within a second log one line (syndrome and
 * queue named), the others are counted in the next line.
 */
static int
test_error_causes(void)
{
	struct rte_mbuf *pkts[2];
	struct rte_eth_stats st;
	unsigned int received = 0;
	uint64_t t0, secs;
	char *log = NULL;
	size_t log_len = 0;
	FILE *saved = rte_log_get_stream(), *mem;
	unsigned int i, lines = 0;
	const char *p;

	if (n_probe(0, 4, "", &port) != TEST_SUCCESS ||
	    n_start(port, 1, 0, 0, 0) != TEST_SUCCESS)
		return TEST_FAILED;
	mem = open_memstream(&log, &log_len);
	TEST_ASSERT_NOT_NULL(mem, "log stream");
	rte_openlog_stream(mem);
	t0 = rte_get_tsc_cycles();
	for (i = 0; i < 3; i++) {
		pkts[0] = n_frame(port, 128, 1, 1, 1, false);
		pkts[1] = n_frame(port, 128, 1, 2, 2, false);
		TEST_ASSERT(pkts[0] != NULL && pkts[1] != NULL, "frames");
		TEST_ASSERT_SUCCESS(rte_pmd_mlx5_mbuf_set_private_iova(pkts[0],
				    rte_pmd_mlx5_mkey_to_iova(0x00fe1200)),
				    "a private IOVA of no key");
		TEST_ASSERT_EQUAL(rte_eth_tx_burst(port, 0, pkts, 2), 2,
				  "burst %u sent", i);
		/* The next burst takes the error completion. */
		if (n_send(port, 0, n_frame(port, 64, 1, 3, 3, false)))
			return TEST_FAILED;
		received += n_drain(port);
	}
	/* Whole seconds the loop took (a slow host, valgrind). */
	secs = (rte_get_tsc_cycles() - t0) / rte_get_tsc_hz();
	rte_openlog_stream(saved);
	fclose(mem);
	for (p = log; p != NULL && (p = strstr(p, "error completion")) != NULL;
	     p++)
		lines++;
	TEST_ASSERT(lines >= 1 && lines <= 1 + secs,
		    "%u log lines for three errors in %" PRIu64 " s:\n%s", lines,
		    secs, log != NULL ? log : "");
	TEST_ASSERT(strstr(log, "Tx queue 0") != NULL &&
		    strstr(log, "syndrome 0x04 (err_local_protection)") != NULL,
		    "the line names the queue and the syndrome:\n%s", log);
	free(log);
	TEST_ASSERT_SUCCESS(rte_eth_stats_get(port, &st), "stats");
	TEST_ASSERT_EQUAL(st.oerrors, 6, "the failed and the flushed packets");
	TEST_ASSERT_EQUAL(st.opackets, st.ipackets, "the others arrived");
	TEST_ASSERT_EQUAL(received, 3, "the three frames after the errors");
	TEST_ASSERT_EQUAL(n_xstat(port, "tx_q0_err_local_protection"), 3,
			  "three error completions, local protection");
	TEST_ASSERT_EQUAL(n_xstat(port, "tx_q0_flushed"), 3,
			  "three packets flushed behind them");
	TEST_ASSERT_EQUAL(n_xstat(port, "tx_q0_errors"), 6, "six dropped");
	TEST_ASSERT_EQUAL(n_xstat(port, "tx_q0_refused"), 0, "none refused");
	TEST_ASSERT_EQUAL(n_xstat(port, "rx_q0_err_other"), 0, "no Rx error");
	TEST_ASSERT_SUCCESS(rte_eth_xstats_reset(port), "reset");
	TEST_ASSERT_EQUAL(n_xstat(port, "tx_q0_flushed"), 0, "reset");
	return TEST_SUCCESS;
}

/*
 * The MTU given to rte_eth_dev_configure() (rxmode.mtu) reaches the
 * device, and again at start: 9000 lets a 9014-byte frame through (it was
 * dropped by the receiving port at 1500); configured back to 1500, the
 * same frame is dropped by the port, counted in its statistics.
 */
static int
test_mtu_at_configure(void)
{
	struct rte_eth_conf conf = {
		.rxmode = { .mtu = 9000,
			    .offloads = RTE_ETH_RX_OFFLOAD_SCATTER },
		.txmode = { .offloads = RTE_ETH_TX_OFFLOAD_MULTI_SEGS },
	};
	struct mlx5_sim_port_stats ps0, ps1;
	struct mlx5_port_link link;
	struct mlx5_net_priv *priv;
	struct rte_mbuf *m;

	if (n_probe(0, 12, "", &port) != TEST_SUCCESS)
		return TEST_FAILED;
	priv = rte_eth_devices[port].data->dev_private;
	TEST_ASSERT_SUCCESS(rte_eth_dev_configure(port, 1, 1, &conf),
			    "configure");
	TEST_ASSERT_SUCCESS(mlx5_port_link_get(priv->cdev, 1, &link), "link");
	TEST_ASSERT_EQUAL(link.mtu, 9000, "the device's MTU after configure");
	TEST_ASSERT_SUCCESS(rte_eth_rx_queue_setup(port, 0, 512, SOCKET_ID_ANY,
			    NULL, pool), "Rx queue");
	TEST_ASSERT_SUCCESS(rte_eth_tx_queue_setup(port, 0, 512, SOCKET_ID_ANY,
			    NULL), "Tx queue");
	TEST_ASSERT_SUCCESS(rte_eth_dev_start(port), "start");
	if (n_send(port, 0, n_frame(port, 9014, 5, 1, 1, false)))
		return TEST_FAILED;
	m = n_recv(port, 1, NULL);
	TEST_ASSERT_NOT_NULL(m, "a 9014-byte frame at MTU 9000");
	TEST_ASSERT_EQUAL(m->pkt_len, 9014, "whole");
	rte_pktmbuf_free(m);
	/* Back to 1500 through configure: the same frame is dropped. */
	TEST_ASSERT_SUCCESS(rte_eth_dev_stop(port), "stop");
	conf.rxmode.mtu = 1500;
	TEST_ASSERT_SUCCESS(rte_eth_dev_configure(port, 1, 1, &conf),
			    "configure again");
	TEST_ASSERT_SUCCESS(rte_eth_dev_start(port), "start");
	TEST_ASSERT_SUCCESS(mlx5_port_link_get(priv->cdev, 1, &link), "link");
	TEST_ASSERT_EQUAL(link.mtu, 1500, "the device's MTU after reconfigure");
	TEST_ASSERT_SUCCESS(mlx5_sim_port_stats(N_CARD, 12, 1, &ps0), "");
	if (n_send(port, 0, n_frame(port, 9014, 5, 1, 1, false)))
		return TEST_FAILED;
	TEST_ASSERT_EQUAL(n_drain(port), 0, "oversize at MTU 1500: dropped");
	TEST_ASSERT_SUCCESS(mlx5_sim_port_stats(N_CARD, 12, 1, &ps1), "");
	TEST_ASSERT_EQUAL(ps1.rx_oversize - ps0.rx_oversize, 1,
			  "counted by the port as oversize");
	return TEST_SUCCESS;
}

/*
 * Queue stop and start: a stopped Rx queue receives nothing (the device
 * drops, counting an RQ not ready), a stopped Tx queue sends nothing;
 * after a start both work again and no mbuf is lost; a queue set up with
 * deferred start is not started by rte_eth_dev_start(). Queue info and
 * burst modes are reported.
 */
static int
test_queue_start_stop(void)
{
	struct rte_eth_rxconf rxc = { .rx_deferred_start = 1 };
	struct rte_eth_txconf txc = { .tx_deferred_start = 1 };
	struct rte_eth_conf conf = { 0 };
	struct mlx5_sim_port_stats ps0, ps1;
	struct rte_eth_burst_mode mode;
	struct rte_eth_rxq_info rxi;
	struct rte_eth_txq_info txi;
	unsigned int avail0;
	struct rte_mbuf *m;

	if (n_probe(0, 13, "", &port) != TEST_SUCCESS ||
	    n_start(port, 1, 0, 0, 0) != TEST_SUCCESS)
		return TEST_FAILED;
	/* Queue info and burst modes. */
	TEST_ASSERT_SUCCESS(rte_eth_rx_queue_info_get(port, 0, &rxi), "rxq");
	TEST_ASSERT(rxi.mp == pool && rxi.nb_desc == 512 &&
		    rxi.queue_state == RTE_ETH_QUEUE_STATE_STARTED &&
		    !rxi.scattered_rx, "Rx queue info");
	TEST_ASSERT_SUCCESS(rte_eth_tx_queue_info_get(port, 0, &txi), "txq");
	TEST_ASSERT(txi.nb_desc == 512 &&
		    txi.queue_state == RTE_ETH_QUEUE_STATE_STARTED,
		    "Tx queue info");
	TEST_ASSERT_SUCCESS(rte_eth_rx_burst_mode_get(port, 0, &mode), "");
	TEST_ASSERT(strstr(mode.info, "Vector") != NULL, "%s", mode.info);
	TEST_ASSERT_SUCCESS(rte_eth_tx_burst_mode_get(port, 0, &mode), "");
	TEST_ASSERT(strstr(mode.info, "Scalar") != NULL, "%s", mode.info);
	/* Rx stopped: the device drops what arrives. */
	TEST_ASSERT_SUCCESS(rte_eth_dev_rx_queue_stop(port, 0), "Rx stop");
	TEST_ASSERT_SUCCESS(rte_eth_rx_queue_info_get(port, 0, &rxi), "rxq");
	TEST_ASSERT_EQUAL(rxi.queue_state, RTE_ETH_QUEUE_STATE_STOPPED, "");
	TEST_ASSERT_SUCCESS(mlx5_sim_port_stats(N_CARD, 13, 1, &ps0), "");
	for (unsigned int i = 0; i < 4; i++)
		if (n_send(port, 0, n_frame(port, 64, 1, 1, 1, false)))
			return TEST_FAILED;
	TEST_ASSERT_EQUAL(n_drain(port), 0, "nothing on a stopped Rx queue");
	TEST_ASSERT_SUCCESS(mlx5_sim_port_stats(N_CARD, 13, 1, &ps1), "");
	TEST_ASSERT_EQUAL(ps1.rx_rq_not_ready - ps0.rx_rq_not_ready, 4,
			  "dropped by the device, counted");
	TEST_ASSERT_SUCCESS(rte_eth_dev_rx_queue_start(port, 0), "Rx start");
	if (n_send(port, 0, n_frame(port, 64, 1, 1, 1, false)))
		return TEST_FAILED;
	m = n_recv(port, 1, NULL);
	TEST_ASSERT_NOT_NULL(m, "received after the restart");
	rte_pktmbuf_free(m);
	/* Tx stopped: nothing leaves, nothing is taken. */
	TEST_ASSERT_SUCCESS(rte_eth_dev_tx_queue_stop(port, 0), "Tx stop");
	m = n_frame(port, 64, 1, 1, 1, false);
	TEST_ASSERT_NOT_NULL(m, "frame");
	TEST_ASSERT_EQUAL(rte_eth_tx_burst(port, 0, &m, 1), 0,
			  "a stopped Tx queue takes nothing");
	rte_pktmbuf_free(m);
	TEST_ASSERT_SUCCESS(rte_eth_dev_tx_queue_start(port, 0), "Tx start");
	if (n_send(port, 0, n_frame(port, 64, 1, 2, 2, false)))
		return TEST_FAILED;
	m = n_recv(port, 1, NULL);
	TEST_ASSERT_NOT_NULL(m, "sent after the restart");
	rte_pktmbuf_free(m);
	/* Deferred start: configured again with both queues deferred. */
	TEST_ASSERT_SUCCESS(rte_eth_dev_stop(port), "stop");
	TEST_ASSERT_SUCCESS(rte_eth_dev_configure(port, 1, 1, &conf), "");
	TEST_ASSERT_SUCCESS(rte_eth_rx_queue_setup(port, 0, 512, SOCKET_ID_ANY,
			    &rxc, pool), "deferred Rx queue");
	TEST_ASSERT_SUCCESS(rte_eth_tx_queue_setup(port, 0, 512, SOCKET_ID_ANY,
			    &txc), "deferred Tx queue");
	TEST_ASSERT_SUCCESS(rte_eth_dev_start(port), "start");
	TEST_ASSERT_SUCCESS(rte_eth_rx_queue_info_get(port, 0, &rxi), "rxq");
	TEST_ASSERT(rxi.queue_state == RTE_ETH_QUEUE_STATE_STOPPED &&
		    rxi.conf.rx_deferred_start, "Rx deferred: stopped");
	m = n_frame(port, 64, 1, 1, 1, false);
	TEST_ASSERT_NOT_NULL(m, "frame");
	TEST_ASSERT_EQUAL(rte_eth_tx_burst(port, 0, &m, 1), 0,
			  "Tx deferred: nothing sent");
	rte_pktmbuf_free(m);
	TEST_ASSERT_SUCCESS(rte_eth_dev_tx_queue_start(port, 0), "");
	TEST_ASSERT_SUCCESS(rte_eth_dev_rx_queue_start(port, 0), "");
	if (n_send(port, 0, n_frame(port, 64, 1, 3, 3, false)))
		return TEST_FAILED;
	m = n_recv(port, 1, NULL);
	TEST_ASSERT_NOT_NULL(m, "traffic once started");
	rte_pktmbuf_free(m);
	/* An Rx queue not set up: start refuses, then works once it is. */
	TEST_ASSERT_SUCCESS(rte_eth_dev_stop(port), "stop");
	TEST_ASSERT_SUCCESS(rte_eth_dev_configure(port, 2, 1, &conf), "");
	TEST_ASSERT_EQUAL(rte_eth_dev_start(port), -EINVAL,
			  "start with Rx queue 1 not set up");
	TEST_ASSERT_SUCCESS(rte_eth_rx_queue_setup(port, 1, 512, SOCKET_ID_ANY,
			    NULL, pool), "Rx queue 1");
	TEST_ASSERT_SUCCESS(rte_eth_dev_start(port), "start");
	/* No mbuf lost: after close every one is back in the pool. */
	TEST_ASSERT_SUCCESS(rte_eth_dev_stop(port), "stop");
	TEST_ASSERT_SUCCESS(rte_eth_dev_close(port), "close");
	avail0 = rte_mempool_avail_count(pool);
	TEST_ASSERT_EQUAL(avail0, N_MBUFS, "every mbuf back in the pool");
	return TEST_SUCCESS;
}

/* Send a 64-byte frame from @from with destination @dst; true if @to got it. */
static bool
n_reaches(uint16_t from, uint16_t to, const struct rte_ether_addr *dst)
{
	struct rte_mbuf *m = n_frame(from, 64, 1, 9, 9, false);

	if (m == NULL)
		return false;
	memcpy(rte_pktmbuf_mtod(m, void *), dst, RTE_ETHER_ADDR_LEN);
	if (rte_eth_tx_burst(from, 0, &m, 1) != 1) {
		rte_pktmbuf_free(m);
		return false;
	}
	return n_drain(to) == 1;
}

/*
 * Link down and up: the port and its cable partner see the link down, no
 * frame passes either way (the sender's port counts them lost); up again,
 * traffic flows. Added unicast addresses and the multicast list receive,
 * removed ones do not; the limits are refused.
 */
static int
test_link_mac(void)
{
	struct rte_ether_addr extra = {
		.addr_bytes = { 0x02, 0x00, 0x00, 0xaa, 0xbb, 0xcc } };
	struct rte_ether_addr group = {
		.addr_bytes = { 0x01, 0x00, 0x5e, 0x00, 0x00, 0x01 } };
	struct rte_ether_addr list[MLX5_NET_MAX_MC + 1], mac0;
	struct mlx5_sim_port_stats ps0, ps1;
	struct rte_eth_link l0, l1;
	uint16_t p0, p1;
	unsigned int i;

	if (n_probe(0, 30, ",wire=31", &p0) != TEST_SUCCESS ||
	    n_probe(1, 31, "", &p1) != TEST_SUCCESS ||
	    n_start(p0, 1, 0, 0, 0) != TEST_SUCCESS ||
	    n_start(p1, 1, 0, 0, 0) != TEST_SUCCESS)
		return TEST_FAILED;
	rte_eth_macaddr_get(p0, &mac0);
	TEST_ASSERT(n_reaches(p1, p0, &mac0), "cabled: traffic");
	/* Link down on p0: both ends down, nothing passes. */
	TEST_ASSERT_SUCCESS(rte_eth_dev_set_link_down(p0), "link down");
	TEST_ASSERT_SUCCESS(rte_eth_link_get_nowait(p0, &l0), "");
	TEST_ASSERT_SUCCESS(rte_eth_link_get_nowait(p1, &l1), "");
	TEST_ASSERT(l0.link_status == RTE_ETH_LINK_DOWN &&
		    l1.link_status == RTE_ETH_LINK_DOWN,
		    "down at both ends (%u, %u)", l0.link_status,
		    l1.link_status);
	TEST_ASSERT_SUCCESS(mlx5_sim_port_stats(N_CARD, 31, 1, &ps0), "");
	TEST_ASSERT(!n_reaches(p1, p0, &mac0), "nothing reaches a down port");
	TEST_ASSERT_SUCCESS(mlx5_sim_port_stats(N_CARD, 31, 1, &ps1), "");
	TEST_ASSERT_EQUAL(ps1.tx_link_down - ps0.tx_link_down, 1,
			  "the partner's frame lost, counted");
	TEST_ASSERT_SUCCESS(rte_eth_dev_set_link_up(p0), "link up");
	TEST_ASSERT_SUCCESS(rte_eth_link_get_nowait(p1, &l1), "");
	TEST_ASSERT_EQUAL(l1.link_status, RTE_ETH_LINK_UP, "up again");
	TEST_ASSERT(n_reaches(p1, p0, &mac0), "traffic after link up");
	/* Another unicast address. */
	TEST_ASSERT(!n_reaches(p1, p0, &extra), "not yet an address of p0");
	TEST_ASSERT_SUCCESS(rte_eth_dev_mac_addr_add(p0, &extra, 0), "add");
	TEST_ASSERT(n_reaches(p1, p0, &extra), "to the added address");
	TEST_ASSERT(n_reaches(p1, p0, &mac0), "and still to the first");
	TEST_ASSERT_SUCCESS(rte_eth_dev_mac_addr_remove(p0, &extra), "remove");
	TEST_ASSERT(!n_reaches(p1, p0, &extra), "removed: dropped");
	/* The whole table: 127 more, then no room. */
	for (i = 1; i < MLX5_NET_MAX_MAC; i++) {
		extra.addr_bytes[5] = (uint8_t)i;
		TEST_ASSERT_SUCCESS(rte_eth_dev_mac_addr_add(p0, &extra, 0),
				    "address %u", i);
	}
	extra.addr_bytes[4] = 0xdd;
	TEST_ASSERT(rte_eth_dev_mac_addr_add(p0, &extra, 0) < 0,
		    "past the table: refused");
	extra.addr_bytes[4] = 0xbb;
	extra.addr_bytes[5] = 77;
	TEST_ASSERT(n_reaches(p1, p0, &extra), "one of the 127");
	/* The multicast list. */
	TEST_ASSERT(!n_reaches(p1, p0, &group), "a group not listed");
	TEST_ASSERT_SUCCESS(rte_eth_dev_set_mc_addr_list(p0, &group, 1), "");
	TEST_ASSERT(n_reaches(p1, p0, &group), "a listed group");
	TEST_ASSERT_SUCCESS(rte_eth_dev_set_mc_addr_list(p0, NULL, 0), "");
	TEST_ASSERT(!n_reaches(p1, p0, &group), "the list emptied");
	for (i = 0; i < RTE_DIM(list); i++) {
		list[i] = group;
		list[i].addr_bytes[5] = (uint8_t)i;
	}
	TEST_ASSERT_EQUAL(rte_eth_dev_set_mc_addr_list(p0, list,
			  MLX5_NET_MAX_MC + 1), -ENOSPC, "too many groups");
	TEST_ASSERT_EQUAL(rte_eth_dev_set_mc_addr_list(p0, &mac0, 1), -EINVAL,
			  "a unicast address in the list");
	TEST_ASSERT_SUCCESS(rte_eth_dev_set_mc_addr_list(p0, list,
			    MLX5_NET_MAX_MC), "a full list");
	TEST_ASSERT(n_reaches(p1, p0, &list[MLX5_NET_MAX_MC - 1]),
		    "its last group");
	return TEST_SUCCESS;
}

/*
 * rte_eth_rx_queue_count() and rte_eth_rx_descriptor_status(), with and
 * without compressed CQEs: 40 frames written and not taken count 40 (a
 * session its frames), their descriptors DONE and the next AVAIL, one
 * beyond the ring EINVAL; a burst that takes 5 (a session cut short)
 * leaves 35, the rest 0.
 */
static int
test_rx_queue_count(void)
{
	struct rte_mbuf *tx[40], *rx[40];
	struct mlx5_sim_stats st0, st;
	uint16_t ports[2], got;
	unsigned int p, i;

	if (n_probe(0, 40, "", &ports[0]) != TEST_SUCCESS ||
	    n_probe(1, 41, ",rxq_cqe_comp_en=0", &ports[1]) != TEST_SUCCESS ||
	    n_start(ports[0], 1, 0, 0, 0) != TEST_SUCCESS ||
	    n_start(ports[1], 1, 0, 0, 0) != TEST_SUCCESS)
		return TEST_FAILED;
	TEST_ASSERT_SUCCESS(mlx5_sim_vhca_stats(N_CARD, 40, &st0), "");
	for (p = 0; p < 2; p++) {
		uint16_t pt = ports[p];
		uint64_t end = rte_get_timer_cycles() + rte_get_timer_hz();

		TEST_ASSERT_EQUAL(rte_eth_rx_queue_count(pt, 0), 0, "none yet");
		for (i = 0; i < 40; i++) {
			tx[i] = n_frame(pt, 64 + i, 1, (uint16_t)(3000 + i), 1,
					false);
			TEST_ASSERT_NOT_NULL(tx[i], "");
		}
		TEST_ASSERT_EQUAL(rte_eth_tx_burst(pt, 0, tx, 40), 40, "");
		while (rte_eth_rx_queue_count(pt, 0) < 40 &&
		       rte_get_timer_cycles() < end)
			rte_delay_us(100);
		TEST_ASSERT_EQUAL(rte_eth_rx_queue_count(pt, 0), 40,
				  "port %u: the 40 frames written", p);
		TEST_ASSERT_EQUAL(rte_eth_rx_descriptor_status(pt, 0, 0),
				  RTE_ETH_RX_DESC_DONE, "");
		TEST_ASSERT_EQUAL(rte_eth_rx_descriptor_status(pt, 0, 39),
				  RTE_ETH_RX_DESC_DONE, "");
		TEST_ASSERT_EQUAL(rte_eth_rx_descriptor_status(pt, 0, 40),
				  RTE_ETH_RX_DESC_AVAIL, "");
		TEST_ASSERT_EQUAL(rte_eth_rx_descriptor_status(pt, 0, 512),
				  -EINVAL, "beyond the ring");
		got = rte_eth_rx_burst(pt, 0, rx, 5);
		TEST_ASSERT_EQUAL(got, 5, "");
		TEST_ASSERT_EQUAL(rte_eth_rx_queue_count(pt, 0), 35,
				  "port %u: after a burst of 5", p);
		got += rte_eth_rx_burst(pt, 0, rx + 5, 35);
		TEST_ASSERT_EQUAL(got, 40, "");
		TEST_ASSERT_EQUAL(rte_eth_rx_queue_count(pt, 0), 0, "all taken");
		for (i = 0; i < 40; i++)
			TEST_ASSERT_EQUAL(rx[i]->pkt_len, 64 + i, "in order");
		rte_pktmbuf_free_bulk(rx, 40);
	}
	TEST_ASSERT_SUCCESS(mlx5_sim_vhca_stats(N_CARD, 40, &st), "");
	TEST_ASSERT(st.compressed_sessions > st0.compressed_sessions,
		    "port 0's frames came in compressed sessions");
	return TEST_SUCCESS;
}

/*
 * Receive a burst of @n frames sent to each of @pa and @pb, RSS-spread
 * over their two queues, polling queue q of both in chunks of @chunk[q]
 * until each port has all @n or a second has passed; then once more, to
 * catch a frame too many. @a and @b get each queue's mbufs, @na and @nb
 * their counts.
 */
static int
cqe_comp_rx_burst(uint16_t pa, uint16_t pb, uint16_t n,
		  const uint16_t chunk[2], struct rte_mbuf *a[2][128],
		  struct rte_mbuf *b[2][128], uint16_t na[2], uint16_t nb[2])
{
	uint64_t end = rte_get_timer_cycles() + rte_get_timer_hz();
	bool last = false;
	uint16_t q;

	na[0] = na[1] = nb[0] = nb[1] = 0;
	do {
		if (na[0] + na[1] >= n && nb[0] + nb[1] >= n)
			last = true;
		for (q = 0; q < 2; q++) {
			na[q] += rte_eth_rx_burst(pa, q, &a[q][na[q]],
						  RTE_MIN(chunk[q],
							  128 - na[q]));
			nb[q] += rte_eth_rx_burst(pb, q, &b[q][nb[q]],
						  RTE_MIN(chunk[q],
							  128 - nb[q]));
		}
	} while (!last && rte_get_timer_cycles() < end);
	TEST_ASSERT(na[0] + na[1] == n && nb[0] + nb[1] == n,
		    "a burst of %u: %u and %u received", n, na[0] + na[1],
		    nb[0] + nb[1]);
	return TEST_SUCCESS;
}

/*
 * Compressed CQEs (rxq_cqe_comp_en, the default where the device has it):
 * port 0 compresses, port 1 (rxq_cqe_comp_en=0) does not; the same
 * bursts of 1 to 100 frames of many flows and sizes on both, over two
 * queues, read back in chunks of 1 to 64 (sessions cut by the burst, the
 * rest unzipped for the next): the same mbufs on both (length, packet
 * type, checksum flags, RSS hash, bytes), each queue's ring wrapping
 * more than twice. Queues stopped with sessions pending, then started,
 * receive again. A queue with Rx timestamps does not compress; nor does a
 * port on a device without compression (cqe_comp=0), which runs.
 */
static int
test_cqe_compression(void)
{
	static const uint16_t bursts[] = { 1, 2, 7, 8, 9, 31, 32, 33, 64, 100 };
	static const uint16_t chunks[] = { 1, 3, 5, 8, 13, 32, 64 };
	const uint64_t rx_off = RTE_ETH_RX_OFFLOAD_CHECKSUM |
				RTE_ETH_RX_OFFLOAD_RSS_HASH;
	struct rte_mbuf *tx[100], *a[2][128], *b[2][128];
	struct mlx5_sim_stats st0, st1, st;
	uint16_t pa, pb, pc, q, na[2], nb[2], chunk[2];
	unsigned int r, k, i, sent = 0, per_q[2] = { 0 };

	if (n_probe(0, 40, "", &pa) != TEST_SUCCESS ||
	    n_probe(1, 41, ",rxq_cqe_comp_en=0", &pb) != TEST_SUCCESS ||
	    n_start(pa, 2, rx_off, 0, 0) != TEST_SUCCESS ||
	    n_start(pb, 2, rx_off, 0, 0) != TEST_SUCCESS)
		return TEST_FAILED;
	TEST_ASSERT_SUCCESS(mlx5_sim_vhca_stats(N_CARD, 40, &st0), "");
	TEST_ASSERT_SUCCESS(mlx5_sim_vhca_stats(N_CARD, 41, &st1), "");
	for (r = 0; r < 12; r++)
		for (k = 0; k < RTE_DIM(bursts); k++) {
			uint16_t n = bursts[k], p;

			for (p = 0; p < 2; p++) {
				uint16_t pt = p == 0 ? pa : pb;

				for (i = 0; i < n; i++) {
					tx[i] = n_frame(pt,
						60 + (i * 97 + r * 13) % 1400,
						1, (uint16_t)(1000 + i * 7 + k),
						(uint8_t)i, false);
					TEST_ASSERT_NOT_NULL(tx[i], "");
				}
				TEST_ASSERT_EQUAL(rte_eth_tx_burst(pt, 0, tx,
								   n), n,
						  "a burst of %u", n);
			}
			sent += n;
			for (q = 0; q < 2; q++)
				chunk[q] = chunks[(k + q + r) %
						  RTE_DIM(chunks)];
			if (cqe_comp_rx_burst(pa, pb, n, chunk, a, b, na,
					      nb) != TEST_SUCCESS)
				return TEST_FAILED;
			for (q = 0; q < 2; q++) {
				TEST_ASSERT_EQUAL(na[q], nb[q],
						  "burst %u queue %u: as many",
						  n, q);
				per_q[q] += na[q];
				for (i = 0; i < na[q]; i++) {
					const struct rte_mbuf *x = a[q][i];
					const struct rte_mbuf *y = b[q][i];

					TEST_ASSERT(x->pkt_len == y->pkt_len &&
						    x->data_len ==
							    y->data_len &&
						    x->packet_type ==
							    y->packet_type &&
						    x->ol_flags ==
							    y->ol_flags &&
						    x->hash.rss == y->hash.rss,
						    "burst %u queue %u frame"
						    " %u: %u/%u bytes, flags"
						    " %" PRIx64 "/%" PRIx64,
						    n, q, i, x->pkt_len,
						    y->pkt_len, x->ol_flags,
						    y->ol_flags);
					TEST_ASSERT(x->ol_flags &
						    RTE_MBUF_F_RX_L4_CKSUM_GOOD,
						    "good checksums");
					TEST_ASSERT(memcmp(rte_pktmbuf_mtod_offset(
							x, const uint8_t *, 12),
						rte_pktmbuf_mtod_offset(y,
							const uint8_t *, 12),
						x->pkt_len - 12) == 0,
						    "the same bytes");
				}
				rte_pktmbuf_free_bulk(a[q], na[q]);
				rte_pktmbuf_free_bulk(b[q], nb[q]);
			}
		}
	TEST_ASSERT(per_q[0] > 2 * 512 && per_q[1] > 2 * 512,
		    "each ring wrapped twice or more (%u and %u of %u)",
		    per_q[0], per_q[1], sent);
	TEST_ASSERT_SUCCESS(mlx5_sim_vhca_stats(N_CARD, 40, &st), "");
	TEST_ASSERT(st.compressed_sessions > st0.compressed_sessions &&
			    st.compressed_cqes - st0.compressed_cqes >
				    sent / 2,
		    "port 0's CQEs compressed: %" PRIu64 " of %u",
		    st.compressed_cqes - st0.compressed_cqes, sent);
	TEST_ASSERT_SUCCESS(mlx5_sim_vhca_stats(N_CARD, 41, &st), "");
	TEST_ASSERT_EQUAL(st.compressed_sessions, st1.compressed_sessions,
			  "rxq_cqe_comp_en=0: none");
	/*
	 * Sessions pending when the queues stop (the drain takes them),
	 * then traffic again: every frame of the next burst arrives.
	 */
	for (r = 0; r < 2; r++) {
		for (i = 0; i < 64; i++)
			tx[i] = n_frame(pa, 64 + i, 1, (uint16_t)(2000 + i), 1,
					false);
		TEST_ASSERT_EQUAL(rte_eth_tx_burst(pa, 0, tx, 64), 64, "");
		if (r == 1)
			break;
		rte_delay_ms(10);
		for (q = 0; q < 2; q++) {
			TEST_ASSERT_SUCCESS(rte_eth_dev_rx_queue_stop(pa, q),
					    "");
			TEST_ASSERT_SUCCESS(rte_eth_dev_rx_queue_start(pa, q),
					    "");
		}
	}
	for (k = 0, i = 0; i < 64; i++) {
		struct rte_mbuf *m = n_recv(pa, 2, NULL);

		TEST_ASSERT_NOT_NULL(m, "after the restart: frame %u", i);
		k += m->pkt_len >= 64 && m->pkt_len < 128;
		rte_pktmbuf_free(m);
	}
	TEST_ASSERT_EQUAL(k, 64, "the burst after the restart, whole");
	TEST_ASSERT_EQUAL(rte_eth_rx_burst(pa, 0, a[0], 1) +
				  rte_eth_rx_burst(pa, 1, a[1], 1),
			  0, "and nothing of the one before");
	/* A device without compression: the port runs all the same. */
	if (n_probe(2, 42, ",cqe_comp=0", &pc) != TEST_SUCCESS ||
	    n_start(pc, 1, 0, 0, 0) != TEST_SUCCESS ||
	    n_send(pc, 0, n_frame(pc, 100, 1, 1000, 1, false)) !=
		    TEST_SUCCESS)
		return TEST_FAILED;
	tx[0] = n_recv(pc, 1, NULL);
	TEST_ASSERT_NOT_NULL(tx[0], "cqe_comp=0: received");
	rte_pktmbuf_free(tx[0]);
	/* Rx timestamps: CQEs whole. */
	TEST_ASSERT_SUCCESS(rte_eth_dev_stop(pa), "");
	TEST_ASSERT_SUCCESS(rte_eth_dev_close(pa), "");
	TEST_ASSERT_SUCCESS(tdev_remove(0), "");
	if (n_probe(0, 40, "", &pa) != TEST_SUCCESS ||
	    n_start(pa, 1, RTE_ETH_RX_OFFLOAD_TIMESTAMP, 0, 0) != TEST_SUCCESS)
		return TEST_FAILED;
	TEST_ASSERT_SUCCESS(mlx5_sim_vhca_stats(N_CARD, 40, &st0), "");
	for (i = 0; i < 16; i++)
		tx[i] = n_frame(pa, 100, 1, 1000, (uint8_t)i, false);
	TEST_ASSERT_EQUAL(rte_eth_tx_burst(pa, 0, tx, 16), 16, "");
	for (i = 0; i < 16; i++) {
		struct rte_mbuf *m = n_recv(pa, 1, NULL);

		TEST_ASSERT_NOT_NULL(m, "frame %u", i);
		TEST_ASSERT(m->ol_flags & ts_flag, "its own timestamp");
		rte_pktmbuf_free(m);
	}
	TEST_ASSERT_SUCCESS(mlx5_sim_vhca_stats(N_CARD, 40, &st), "");
	TEST_ASSERT_EQUAL(st.compressed_sessions, st0.compressed_sessions,
			  "a queue with Rx timestamps does not compress");
	return TEST_SUCCESS;
}

/*
 * Frame @i of the vector/scalar comparison, to port @p's MAC: IPv4/UDP
 * (some with a bad IP checksum), IPv4/TCP, IPv6/UDP or not IP, a kind
 * for 8 frames in a row, of lengths 60 to 1514.
 */
static struct rte_mbuf *
n_frame_mix(uint16_t p, unsigned int i)
{
	uint32_t len = 60 + (i * 181) % 1455;
	/* Kinds in runs of 8 frames: the device compresses a run. */
	unsigned int kind = (i / 8) % 5;
	struct rte_mbuf *m;

	switch (kind) {
	case 2:
		return n_frame_l4(p, len, false, true, false);
	case 3:
		return n_frame_l4(p, len, true, false, false);
	default:
		break;
	}
	m = n_frame(p, len, 1, (uint16_t)(1000 + i * 7), (uint8_t)i, false);
	if (m != NULL && kind == 1)
		rte_pktmbuf_mtod_offset(m, uint8_t *, 24)[0] ^= 0x5a;
	if (m != NULL && kind == 4)
		rte_pktmbuf_mtod_offset(m, uint8_t *, 12)[0] = 0x88;
	return m;
}

/*
 * Two mbufs received for the same frame, one per port: the same fields
 * (lengths, segments, packet type, offload flags, RSS hash where flagged,
 * a timestamp where flagged) and bytes past the MAC addresses.
 */
static int
n_same_mbuf(const struct rte_mbuf *a, const struct rte_mbuf *b,
	    const char *what, unsigned int i)
{
	TEST_ASSERT(a->pkt_len == b->pkt_len && a->data_len == b->data_len &&
			    a->nb_segs == 1 && b->nb_segs == 1 &&
			    a->next == NULL && b->next == NULL &&
			    a->data_off == b->data_off &&
			    rte_mbuf_refcnt_read(a) == 1 &&
			    rte_mbuf_refcnt_read(b) == 1 &&
			    a->vlan_tci == b->vlan_tci &&
			    a->packet_type == b->packet_type &&
			    a->ol_flags == b->ol_flags,
		    "%s, frame %u: %u/%u bytes, ptype %x/%x, flags %" PRIx64
		    "/%" PRIx64,
		    what, i, a->pkt_len, b->pkt_len, a->packet_type,
		    b->packet_type, a->ol_flags, b->ol_flags);
	TEST_ASSERT(!(a->ol_flags & RTE_MBUF_F_RX_RSS_HASH) ||
			    a->hash.rss == b->hash.rss,
		    "%s, frame %u: RSS hash %x/%x", what, i, a->hash.rss,
		    b->hash.rss);
	TEST_ASSERT(!(a->ol_flags & ts_flag) ||
			    (*RTE_MBUF_DYNFIELD(a, ts_off,
						rte_mbuf_timestamp_t *) != 0 &&
			     *RTE_MBUF_DYNFIELD(b, ts_off,
						rte_mbuf_timestamp_t *) != 0),
		    "%s, frame %u: a timestamp", what, i);
	TEST_ASSERT(memcmp(rte_pktmbuf_mtod_offset(a, uint8_t *, 12),
			   rte_pktmbuf_mtod_offset(b, uint8_t *, 12),
			   a->pkt_len - 12) == 0,
		    "%s, frame %u: the same bytes", what, i);
	return TEST_SUCCESS;
}

/* What an Rx mbuf's offload flags say, one bit each (n_rx_compare()). */
enum {
	N_RX_IP_GOOD = 1,
	N_RX_IP_BAD = 2,
	N_RX_IP_NONE = 4,
	N_RX_L4_GOOD = 8,
	N_RX_L4_BAD = 16,
	N_RX_L4_NONE = 32,
	N_RX_HASH = 64,
	N_RX_TS = 128,
};

static unsigned int
n_rx_says(const struct rte_mbuf *m)
{
	uint64_t ip = m->ol_flags & RTE_MBUF_F_RX_IP_CKSUM_MASK;
	uint64_t l4 = m->ol_flags & RTE_MBUF_F_RX_L4_CKSUM_MASK;

	return (ip == RTE_MBUF_F_RX_IP_CKSUM_GOOD ? N_RX_IP_GOOD : 0) |
	       (ip == RTE_MBUF_F_RX_IP_CKSUM_BAD ? N_RX_IP_BAD : 0) |
	       (ip == RTE_MBUF_F_RX_IP_CKSUM_NONE ? N_RX_IP_NONE : 0) |
	       (l4 == RTE_MBUF_F_RX_L4_CKSUM_GOOD ? N_RX_L4_GOOD : 0) |
	       (l4 == RTE_MBUF_F_RX_L4_CKSUM_BAD ? N_RX_L4_BAD : 0) |
	       (l4 == RTE_MBUF_F_RX_L4_CKSUM_NONE ? N_RX_L4_NONE : 0) |
	       (m->ol_flags & RTE_MBUF_F_RX_RSS_HASH ? N_RX_HASH : 0) |
	       (m->ol_flags & ts_flag ? N_RX_TS : 0);
}

/*
 * Receive the @n frames each of ports @pt[0-3] was sent, on @nq
 * queues, in bursts of @chunks[] sizes (from @c on), and compare each
 * queue's mbufs across the ports: pt[0]'s with each other's; what
 * pt[0]'s offload flags say (n_rx_says()) ORed into *@says.
 */
static int
n_rx_compare(const uint16_t *pt, uint16_t nq, unsigned int n,
	     const uint16_t *chunks, unsigned int n_chunks, unsigned int c,
	     const char *const *names, unsigned int *says)
{
	static struct rte_mbuf *rx[4][2][128];
	unsigned int got[4][2] = { { 0 } }, tot[4] = { 0 }, p, i;
	uint64_t end = rte_get_timer_cycles() + rte_get_timer_hz();
	int ret = TEST_SUCCESS;
	uint16_t q;

	do {
		uint16_t chunk = chunks[c++ % n_chunks];

		for (p = 0; p < 4; p++)
			for (q = 0; q < nq; q++) {
				uint16_t g = rte_eth_rx_burst(
					pt[p], q, &rx[p][q][got[p][q]],
					(uint16_t)RTE_MIN(chunk,
							  128 - got[p][q]));

				got[p][q] += g;
				tot[p] += g;
			}
	} while ((tot[0] < n || tot[1] < n || tot[2] < n || tot[3] < n) &&
		 rte_get_timer_cycles() < end);
	for (p = 0; p < 4 && ret == TEST_SUCCESS; p++) {
		if (tot[p] != n) {
			printf("    %s: %u frames of %u\n", names[p], tot[p], n);
			ret = TEST_FAILED;
		}
		for (q = 0; q < nq && ret == TEST_SUCCESS; q++) {
			if (got[p][q] != got[0][q]) {
				printf("    %s: queue %u: %u frames, %s %u\n",
				       names[p], q, got[p][q], names[0],
				       got[0][q]);
				ret = TEST_FAILED;
			}
			for (i = 0; i < got[p][q] && ret == TEST_SUCCESS &&
				    p != 0;
			     i++)
				ret = n_same_mbuf(rx[0][q][i], rx[p][q][i],
						  names[p], i);
		}
	}
	for (q = 0; q < nq; q++)
		for (i = 0; i < got[0][q]; i++)
			*says |= n_rx_says(rx[0][q][i]);
	for (p = 0; p < 4; p++)
		for (q = 0; q < nq; q++)
			rte_pktmbuf_free_bulk(rx[p][q], got[p][q]);
	return ret;
}

/*
 * The vector Rx burst (rx_vec_en=1, the default) and the scalar one
 * (rx_vec_en=0) give identical mbufs for the same frames: four ports,
 * vector and scalar, with and without CQE compression, take the same
 * stream of frames of every kind (n_frame_mix()), in bursts of sizes
 * that leave every remainder of the vector path's rounds of four, the
 * rings wrapping several times; with checksum and RSS hash offloads on
 * two queues, with none, and with timestamps. Each of the three takes a
 * burst function of its own, chosen at start, whose mbufs have the
 * offload flags asked (each verdict and the hash on some frames) and no
 * other.
 */
static int
test_rx_vector_scalar(void)
{
	static const char *const args[4] = {
		"", ",rx_vec_en=0", ",rxq_cqe_comp_en=0",
		",rx_vec_en=0,rxq_cqe_comp_en=0"
	};
	static const char *const names[4] = { "vector", "scalar",
					       "vector uncompressed",
					       "scalar uncompressed" };
	static const uint64_t offs[3] = {
		RTE_ETH_RX_OFFLOAD_CHECKSUM | RTE_ETH_RX_OFFLOAD_RSS_HASH, 0,
		RTE_ETH_RX_OFFLOAD_TIMESTAMP | RTE_ETH_RX_OFFLOAD_CHECKSUM
	};
	static const uint16_t bursts[] = { 1, 4, 5, 7, 8, 31, 32, 33, 64, 100 };
	static const uint16_t chunks[] = { 1, 3, 4, 5, 6, 7, 8, 13, 32, 64 };
	/*
	 * What each configuration's flags say (of some frames; the frames
	 * have good L4 checksums, some a bad IP one), and nothing else.
	 */
	static const unsigned int want[3] = {
		N_RX_IP_GOOD | N_RX_IP_BAD | N_RX_L4_GOOD | N_RX_HASH, 0,
		N_RX_IP_GOOD | N_RX_IP_BAD | N_RX_L4_GOOD | N_RX_TS
	};
	eth_rx_burst_t fn[3][4];
	struct rte_mbuf *tx[100];
	uint64_t sessions0[4];
	struct mlx5_sim_stats st0;
	struct rte_eth_burst_mode bm;
	unsigned int o, r, k, i, p, total = 0;
	uint16_t pt[4], nq;

	for (o = 0; o < RTE_DIM(offs); o++) {
		unsigned int says = 0;

		nq = o == 0 ? 2 : 1;
		for (p = 0; p < 4; p++) {
			if (n_probe(p, (uint16_t)(63 + p), args[p], &pt[p]) !=
				    TEST_SUCCESS ||
			    n_start(pt[p], nq, offs[o], 0, 0) !=
				    TEST_SUCCESS)
				return TEST_FAILED;
			TEST_ASSERT_SUCCESS(mlx5_sim_vhca_stats(N_CARD,
								(uint16_t)(63 + p),
								&st0),
					    "");
			sessions0[p] = st0.compressed_sessions;
			TEST_ASSERT_SUCCESS(rte_eth_rx_burst_mode_get(pt[p],
								      0, &bm),
					    "");
			TEST_ASSERT((strstr(bm.info, "Vector") != NULL) ==
					    (p % 2 == 0),
				    "%s: burst mode %s", names[p], bm.info);
			fn[o][p] = rte_eth_devices[pt[p]].rx_pkt_burst;
		}
		for (r = 0; r < 6; r++)
			for (k = 0; k < RTE_DIM(bursts); k++) {
				uint16_t n = bursts[k];

				for (p = 0; p < 4; p++) {
					for (i = 0; i < n; i++) {
						tx[i] = n_frame_mix(pt[p],
								    total + i);
						TEST_ASSERT_NOT_NULL(tx[i], "");
					}
					TEST_ASSERT_EQUAL(
						rte_eth_tx_burst(pt[p], 0, tx,
								 n),
						n, "%s: a burst of %u",
						names[p], n);
				}
				total += n;
				if (n_rx_compare(pt, nq, n, chunks,
						 RTE_DIM(chunks), k + r, names,
						 &says) != TEST_SUCCESS)
					return TEST_FAILED;
			}
		TEST_ASSERT_EQUAL(says, want[o], "offloads %u: what the flags say",
				  o);
		for (p = 0; p < 4; p++) {
			struct mlx5_sim_stats st;

			TEST_ASSERT_SUCCESS(mlx5_sim_vhca_stats(N_CARD,
								(uint16_t)(63 + p),
								&st),
					    "");
			/* Compressing ports compared sessions (no timestamp). */
			TEST_ASSERT((st.compressed_sessions > sessions0[p]) ==
					    (p < 2 && o < 2),
				    "%s, offloads %u: %" PRIu64
				    " compressed sessions",
				    names[p], o,
				    st.compressed_sessions - sessions0[p]);
			TEST_ASSERT_SUCCESS(rte_eth_dev_stop(pt[p]), "");
			TEST_ASSERT_SUCCESS(tdev_remove(p), "");
		}
	}
	TEST_ASSERT(total / 3 > 3 * 512, "the rings wrapped (%u frames)",
		    total);
	/* A burst function for each: no offload, checksum and hash, any. */
	for (p = 0; p < 4; p++)
		for (o = 0; o < RTE_DIM(offs); o++)
			TEST_ASSERT(fn[o][p] != fn[(o + 1) % 3][p] &&
					    fn[o][p] != fn[o][p ^ 1] &&
					    fn[o][p] == fn[o][p % 2],
				    "%s, offloads %u: a burst function of its"
				    " own", names[p], o);
	return TEST_SUCCESS;
}

/*
 * The opcodes of the WQEs Tx queue @q of pt @p posted from block @b to
 * its producer: *@empw enhanced multi-packet WQEs holding *@pkts packets,
 * *@send SEND WQEs.
 */
static int
n_tx_wqes(uint16_t p, uint16_t q, uint16_t b, unsigned int *empw,
	  unsigned int *pkts, unsigned int *send)
{
	struct mlx5_net_txq *txq = rte_eth_devices[p].data->tx_queues[q];
	uint32_t mask = txq->wqe_n - 1;

	*empw = 0;
	*pkts = 0;
	*send = 0;
	while (b != txq->pi) {
		struct mlx5_wqe_ctrl_seg *c = (void *)(txq->wqes +
			((size_t)(b & mask) << MLX5_SEND_WQE_SHIFT));
		uint32_t op = rte_be_to_cpu_32(c->opmod_idx_opcode);
		uint32_t ds = rte_be_to_cpu_32(c->qpn_ds) & 0x3f;

		TEST_ASSERT_EQUAL((uint16_t)(op >> 8), b, "WQE index");
		if ((op & 0xff) == MLX5_WQE_OPCODE_ENHANCED_MPSW) {
			(*empw)++;
			*pkts += ds - 2;
		} else {
			TEST_ASSERT_EQUAL(op & 0xff, MLX5_OPCODE_SEND,
					  "a SEND WQE");
			(*send)++;
		}
		b = (uint16_t)(b + (ds + 3) / 4);
	}
	return TEST_SUCCESS;
}

/*
 * Where an eMPW WQE ends: a burst of 14 one-segment packets with the one
 * at @pos (0-13: every place in the PMD's rounds of four packets, in the
 * next rounds, and in the packets after the last round) a chain, or alone
 * asking checksums. The chain goes as a SEND WQE between eMPW WQEs of the
 * packets before and after it; the checksum request as an eMPW WQE of its
 * own. Every frame arrives, in order. A burst whose WQEs or packets reach
 * a ring's end may have its eMPW WQE cut there: its count is checked
 * within that (and most bursts reach neither end).
 */
static int
n_tx_empw_ends(uint16_t p)
{
	struct mlx5_net_txq *txq = rte_eth_devices[p].data->tx_queues[0];
	const uint32_t bmask = txq->wqe_n - 1;
	struct rte_mbuf *tx[14], *m;
	unsigned int pos, kind, i, empw, pkts, send, exact = 0;

	for (pos = 0; pos < RTE_DIM(tx); pos++)
		for (kind = 0; kind < 2; kind++) {
			uint16_t start = txq->pi;
			uint32_t e0 = txq->e_head;
			unsigned int want_empw = (pos > 0) + (kind == 1) +
						 (pos < RTE_DIM(tx) - 1);
			bool cut;

			for (i = 0; i < RTE_DIM(tx); i++) {
				bool odd = i == pos;

				tx[i] = n_frame(p, 64 + i,
						odd && kind == 0 ? 2 : 1,
						(uint16_t)(300 + i), (uint8_t)i,
						odd && kind == 1);
				TEST_ASSERT_NOT_NULL(tx[i], "frame %u", i);
			}
			TEST_ASSERT_EQUAL(rte_eth_tx_burst(p, 0, tx,
							   RTE_DIM(tx)),
					  RTE_DIM(tx), "all taken");
			if (n_tx_wqes(p, 0, start, &empw, &pkts, &send) !=
			    TEST_SUCCESS)
				return TEST_FAILED;
			cut = (uint16_t)(txq->pi - start) >
				      bmask + 1 - (start & bmask) ||
			      (e0 & (txq->elts_n - 1)) + RTE_DIM(tx) >
				      txq->elts_n;
			exact += !cut;
			TEST_ASSERT((cut ? empw >= want_empw &&
						   empw <= want_empw + 2 :
					   empw == want_empw) &&
					    pkts == RTE_DIM(tx) - (kind == 0) &&
					    send == (kind == 0),
				    "%s at %u: %u eMPW WQEs of %u packets, %u"
				    " SEND%s", kind == 0 ? "a chain" : "checksums",
				    pos, empw, pkts, send,
				    cut ? " (at a ring's end)" : "");
			for (i = 0; i < RTE_DIM(tx); i++) {
				m = n_recv(p, 1, NULL);
				TEST_ASSERT(m != NULL && m->pkt_len == 64 + i &&
					    rte_be_to_cpu_16(
						    rte_pktmbuf_mtod_offset(
							    m,
							    struct rte_udp_hdr *,
							    34)->src_port) ==
						    300 + i,
					    "pos %u kind %u: frame %u, in"
					    " order", pos, kind, i);
				rte_pktmbuf_free(m);
			}
			/* The device delivers at the doorbell: no wait. */
			TEST_ASSERT_EQUAL(rte_eth_rx_burst(p, 0, &m, 1), 0,
					  "no other frame");
		}
	TEST_ASSERT(exact >= 2 * RTE_DIM(tx) - 4,
		    "%u bursts of %u away from the rings' ends", exact,
		    (unsigned int)(2 * RTE_DIM(tx)));
	return TEST_SUCCESS;
}

/*
 * Enhanced multi-packet send (txq_mpw_en, on where the device has it): a
 * burst of one-segment packets of several sizes, some asking checksums,
 * one a chain, goes out as eMPW WQEs (a new one where the checksum
 * requests change, and after 32 packets) and one SEND WQE for the chain;
 * every frame arrives
 * intact, in order, its checksums right. With txq_mpw_en=0, or on a
 * device without the capability (empw=0), the same burst is SEND WQEs
 * only. A bad data segment in an eMPW WQE (its key made to name nothing
 * before the device reads it): an error completion; its packets are
 * counted as errors, the queue recovers and sends again.
 */
static int
test_tx_empw(void)
{
	static const uint32_t lens[] = { 60, 64, 128, 1000, 1514, 1000, 300,
					 64, 64, 1400 };
	const char *const modes[] = { "", ",txq_mpw_en=0", ",empw=0" };
	struct rte_eth_burst_mode bm;
	struct rte_mbuf *tx[56], *m;
	unsigned int i, k, empw, pkts, send;
	struct rte_eth_stats st;
	uint16_t p, start;

	for (k = 0; k < RTE_DIM(modes); k++) {
		if (n_probe(0, (uint16_t)(60 + k), modes[k], &p) !=
			    TEST_SUCCESS ||
		    n_start(p, 1, RTE_ETH_RX_OFFLOAD_CHECKSUM,
			    RTE_ETH_TX_OFFLOAD_IPV4_CKSUM |
			    RTE_ETH_TX_OFFLOAD_UDP_CKSUM |
			    RTE_ETH_TX_OFFLOAD_MULTI_SEGS, 0) != TEST_SUCCESS)
			return TEST_FAILED;
		TEST_ASSERT_SUCCESS(rte_eth_tx_burst_mode_get(p, 0, &bm), "");
		TEST_ASSERT((strstr(bm.info, "multi-packet") != NULL) ==
				    (k == 0),
			    "mode %u: burst mode %s", k, bm.info);
		/* A first frame warms the queue's MR cache. */
		if (n_send(p, 0, n_frame(p, 64, 1, 99, 9, false)))
			return TEST_FAILED;
		m = n_recv(p, 1, NULL);
		TEST_ASSERT_NOT_NULL(m, "first frame");
		rte_pktmbuf_free(m);
		start = ((struct mlx5_net_txq *)
			 rte_eth_devices[p].data->tx_queues[0])->pi;
		/* 0-9 plain, 10-14 with checksums, 15 a chain, 16-55 plain. */
		for (i = 0; i < RTE_DIM(tx); i++) {
			uint32_t len = lens[i % RTE_DIM(lens)];

			tx[i] = n_frame(p, len, i == 15 ? 3 : 1, (uint16_t)i,
					(uint8_t)i, i >= 10 && i < 15);
			TEST_ASSERT_NOT_NULL(tx[i], "frame %u", i);
		}
		TEST_ASSERT_EQUAL(rte_eth_tx_burst(p, 0, tx, RTE_DIM(tx)),
				  RTE_DIM(tx), "mode %u: all taken", k);
		if (n_tx_wqes(p, 0, start, &empw, &pkts, &send) !=
		    TEST_SUCCESS)
			return TEST_FAILED;
		if (k == 0) {
			/* 0-9, 10-14, the chain, 16-47 (32 at most), 48-55. */
			TEST_ASSERT(empw == 4 && pkts == 55 && send == 1,
				    "eMPW: %u WQEs of %u packets, %u SEND",
				    empw, pkts, send);
		} else {
			TEST_ASSERT(empw == 0 && send == RTE_DIM(tx),
				    "mode %u: %u eMPW WQEs, %u SEND", k, empw,
				    send);
		}
		for (i = 0; i < RTE_DIM(tx); i++) {
			uint32_t len = lens[i % RTE_DIM(lens)];
			const uint8_t *want;

			m = n_recv(p, 1, NULL);
			TEST_ASSERT_NOT_NULL(m, "mode %u: frame %u received",
					     k, i);
			want = n_bytes(p, len, (uint16_t)i, (uint8_t)i);
			TEST_ASSERT(want != NULL && m->pkt_len == len &&
				    memcmp(rte_pktmbuf_mtod(m, void *), want,
					   RTE_MIN(len, m->data_len)) == 0,
				    "mode %u: frame %u intact, in order, its"
				    " checksums right", k, i);
			TEST_ASSERT_EQUAL(m->ol_flags &
					  RTE_MBUF_F_RX_IP_CKSUM_MASK,
					  RTE_MBUF_F_RX_IP_CKSUM_GOOD,
					  "frame %u: IP checksum good", i);
			rte_pktmbuf_free(m);
		}
		TEST_ASSERT(n_none(p, 1), "no other frame");
		if (k == 0 && n_tx_empw_ends(p) != TEST_SUCCESS)
			return TEST_FAILED;
		if (k == 0) {
			struct mlx5_net_txq *txq =
				rte_eth_devices[p].data->tx_queues[0];
			struct mlx5_uar saved = *txq->uar;
			uint64_t scratch = 0;
			uint16_t first = txq->pi;
			uint32_t mask = txq->wqe_n - 1;
			struct mlx5_wqe_data_seg *d;

			/*
			 * Post 8 packets (one eMPW WQE), then 4 (another),
			 * with the doorbell going to memory; spoil the first
			 * WQE's third key, then ring the device: it sends
			 * frames 0 and 1, fails the WQE and flushes the next.
			 */
			txq->uar->kick = NULL;
			txq->uar->db = &scratch;
			for (i = 0; i < 12; i++)
				tx[i] = n_frame(p, 64, 1, (uint16_t)i,
						(uint8_t)i, false);
			i = rte_eth_tx_burst(p, 0, tx, 8);
			i += rte_eth_tx_burst(p, 0, tx + 8, 4);
			*txq->uar = saved;
			TEST_ASSERT_EQUAL(i, 12, "taken");
			if (n_tx_wqes(p, 0, first, &empw, &pkts, &send) !=
			    TEST_SUCCESS)
				return TEST_FAILED;
			TEST_ASSERT(empw == 2 && pkts == 12 && send == 0,
				    "two eMPW WQEs of 8 and 4 packets");
			d = (void *)(txq->wqes + ((size_t)(first & mask) <<
						     MLX5_SEND_WQE_SHIFT) +
				     4 * 16);
			d->lkey = rte_cpu_to_be_32(0x00fe1200);
			mlx5_doorbell_ring(txq->uar, txq->sq_db, txq->pi,
					   txq->wqes +
					   ((size_t)(first & mask) <<
					    MLX5_SEND_WQE_SHIFT));
			for (i = 0; i < 2; i++) {
				m = n_recv(p, 1, NULL);
				TEST_ASSERT(m != NULL &&
					    rte_be_to_cpu_16(
						    rte_pktmbuf_mtod_offset(
							    m,
							    struct rte_udp_hdr *,
							    34)->src_port) == i,
					    "frame %u, before the bad segment,"
					    " left", i);
				rte_pktmbuf_free(m);
			}
			TEST_ASSERT(n_none(p, 1),
				    "none after the bad segment");
			/* The next burst takes the error and recovers. */
			if (n_send(p, 0, n_frame(p, 64, 1, 99, 9, false)))
				return TEST_FAILED;
			m = n_recv(p, 1, NULL);
			TEST_ASSERT(m != NULL &&
				    rte_be_to_cpu_16(rte_pktmbuf_mtod_offset(
					    m, struct rte_udp_hdr *,
					    34)->src_port) == 99,
				    "traffic after the error");
			rte_pktmbuf_free(m);
			TEST_ASSERT_SUCCESS(rte_eth_stats_get(p, &st), "");
			TEST_ASSERT_EQUAL(st.oerrors, 12,
					  "the failed WQE's 8 packets and the"
					  " 4 flushed counted");
			TEST_ASSERT_EQUAL(n_xstat(p, "tx_q0_flushed"), 4,
					  "the next WQE's 4 flushed");
			TEST_ASSERT(n_xstat(p, "tx_q0_recoveries") >= 1,
				    "the SQ recovered");
		}
		TEST_ASSERT_SUCCESS(rte_eth_dev_stop(p), "");
		TEST_ASSERT_SUCCESS(tdev_remove(0), "");
	}
	return TEST_SUCCESS;
}

static const struct mlx5_test_case n_cases[] = {
	{ "sizes_segments", test_sizes_segments },
	{ "cqe_compression", test_cqe_compression },
	{ "rx_queue_count", test_rx_queue_count },
	{ "checksums", test_checksums },
	{ "rss_reta", test_rss_reta },
	{ "error_recover", test_error_recover },
	{ "rx_error_recover", test_rx_error_recover },
	{ "cross_vhca_private_iova", test_cross_vhca_private_iova },
	{ "pacing_timestamps", test_pacing_timestamps },
	{ "reconfigure_close", test_reconfigure_close },
	{ "modes_devargs", test_modes_devargs },
	{ "lag_tx_ports", test_lag_tx_ports },
	{ "mbufs_returned", test_mbufs_returned },
	{ "infos_queue_setup", test_infos_queue_setup },
	{ "stats_counters", test_stats_counters },
	{ "checksums_tcp_ipv6", test_checksums_tcp_ipv6 },
	{ "modes_off_rss_update", test_modes_off_rss_update },
	{ "rate_limit_release", test_rate_limit_release },
	{ "private_iova_not_inlined", test_private_iova_not_inlined },
	{ "rx_stale_private_iova", test_rx_stale_private_iova },
	{ "tx_segment_limit", test_tx_segment_limit },
	{ "error_causes", test_error_causes },
	{ "mtu_at_configure", test_mtu_at_configure },
	{ "queue_start_stop", test_queue_start_stop },
	{ "link_mac", test_link_mac },
	{ "tx_empw", test_tx_empw },
	{ "rx_vector_scalar", test_rx_vector_scalar },
	{ NULL, NULL },
};

static const struct mlx5_test_suite n_suite = {
	.name = "net",
	.setup = n_setup,
	.teardown = n_teardown,
	.case_setup = n_case_setup,
	.case_teardown = n_case_teardown,
	.cases = n_cases,
};

MLX5_TEST_MAIN(n_suite);
