/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * A DPDK secondary process sending from memory of its own
 * (test/run-multiprocess.sh): a mempool it creates, unknown to the
 * primary, so that each of its mbufs' keys must be registered by the
 * primary on request (IPC). Then the pool is freed and another one made,
 * likely at the same addresses: a key of the freed memory used again
 * would fail the sends (the device refuses a destroyed key). Sends on
 * queue @queue of port 0 (wired to port 1) and checks, with the port's
 * extended statistics, that every packet went out without an error.
 *
 *   mp_secondary_app <EAL args, --proc-type=secondary ...> -- <queue>
 *
 * Prints "mp_secondary_app: ok" and exits 0, or names what failed.
 */

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_ether.h>
#include <rte_ip.h>
#include <rte_mbuf.h>
#include <rte_udp.h>

#define PKTS 512
#define LEN 64

static uint64_t
xstat(uint16_t port, const char *name)
{
	uint64_t id, v = 0;

	if (rte_eth_xstats_get_id_by_name(port, name, &id) != 0 ||
	    rte_eth_xstats_get_by_id(port, &id, &v, 1) != 1) {
		fprintf(stderr, "mp_secondary_app: no xstat %s on port %u\n",
			name, port);
		exit(1);
	}
	return v;
}

/* Send PKTS frames from a new pool named @name on @queue; free the pool. */
static int
send_from_own_pool(const char *name, uint16_t queue)
{
	struct rte_mbuf *m[PKTS];
	struct rte_mempool *mp;
	unsigned int sent = 0, tries = 0;

	mp = rte_pktmbuf_pool_create(name, PKTS * 2, 0, 0,
				     RTE_MBUF_DEFAULT_BUF_SIZE, SOCKET_ID_ANY);
	if (mp == NULL) {
		fprintf(stderr, "mp_secondary_app: pool %s: %s\n", name,
			rte_strerror(rte_errno));
		return -1;
	}
	if (rte_pktmbuf_alloc_bulk(mp, m, PKTS) != 0) {
		fprintf(stderr, "mp_secondary_app: no mbufs\n");
		rte_mempool_free(mp);
		return -1;
	}
	for (unsigned int i = 0; i < PKTS; i++) {
		struct rte_ether_hdr *eh = rte_pktmbuf_mtod(m[i],
						struct rte_ether_hdr *);
		struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)(eh + 1);
		struct rte_udp_hdr *udp = (struct rte_udp_hdr *)(ip + 1);

		memset(eh, 0, LEN);
		memset(eh->dst_addr.addr_bytes, 0xff, RTE_ETHER_ADDR_LEN);
		eh->ether_type = rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4);
		ip->version_ihl = RTE_IPV4_VHL_DEF;
		ip->time_to_live = 64;
		ip->next_proto_id = IPPROTO_UDP;
		ip->total_length = rte_cpu_to_be_16(LEN -
						    RTE_ETHER_HDR_LEN);
		ip->src_addr = rte_cpu_to_be_32(0x0a000001 + i);
		ip->dst_addr = rte_cpu_to_be_32(0x0a010001);
		ip->hdr_checksum = rte_ipv4_cksum(ip);
		udp->src_port = rte_cpu_to_be_16(1000 + i);
		udp->dst_port = rte_cpu_to_be_16(2000);
		udp->dgram_len = rte_cpu_to_be_16(LEN - RTE_ETHER_HDR_LEN -
						  sizeof(*ip));
		m[i]->data_len = LEN;
		m[i]->pkt_len = LEN;
	}
	while (sent < PKTS && tries++ < 1000000)
		sent += rte_eth_tx_burst(0, queue, m + sent, PKTS - sent);
	if (sent < PKTS) {
		fprintf(stderr, "mp_secondary_app: %u of %u sent\n", sent, PKTS);
		rte_pktmbuf_free_bulk(m + sent, PKTS - sent);
	}
	/*
	 * Completions give the mbufs back: reap them before the free (the
	 * device, in the primary, runs when its IPC thread gets the CPU).
	 */
	for (tries = 0; tries < 5000 &&
	     rte_mempool_avail_count(mp) < PKTS * 2; tries++) {
		rte_eth_tx_burst(0, queue, NULL, 0);
		rte_delay_us_sleep(1000);
	}
	if (rte_mempool_avail_count(mp) < PKTS * 2) {
		/* Not freed: the device may still read it. */
		fprintf(stderr, "mp_secondary_app: %u mbufs not completed in 5 s\n",
			PKTS * 2 - rte_mempool_avail_count(mp));
		return -1;
	}
	rte_mempool_free(mp);
	return sent == PKTS ? 0 : -1;
}

int
main(int argc, char **argv)
{
	uint64_t tx0, err0, tx1, err1;
	uint16_t queue;
	char name[RTE_ETH_XSTATS_NAME_SIZE];
	char ename[RTE_ETH_XSTATS_NAME_SIZE];
	int ret, n;

	n = rte_eal_init(argc, argv);
	if (n < 0) {
		fprintf(stderr, "mp_secondary_app: EAL: %s\n",
			rte_strerror(rte_errno));
		return 1;
	}
	argc -= n;
	argv += n;
	if (rte_eal_process_type() != RTE_PROC_SECONDARY || argc < 2) {
		fprintf(stderr, "usage: mp_secondary_app <EAL args, --proc-type=secondary> -- <queue>\n");
		return 1;
	}
	queue = (uint16_t)atoi(argv[1]);
	if (rte_eth_dev_count_avail() < 2) {
		fprintf(stderr, "mp_secondary_app: the primary has %u ports, 2 wanted\n",
			rte_eth_dev_count_avail());
		return 1;
	}
	snprintf(name, sizeof(name), "tx_q%u_packets", queue);
	snprintf(ename, sizeof(ename), "tx_q%u_errors", queue);
	tx0 = xstat(0, name);
	err0 = xstat(0, ename);
	ret = send_from_own_pool("mlx5_mp_own_a", queue);
	if (ret == 0)
		ret = send_from_own_pool("mlx5_mp_own_b", queue);
	tx1 = xstat(0, name);
	err1 = xstat(0, ename);
	/* Signed: the PMD takes back the packets of error completions. */
	printf("mp_secondary_app: port 0 queue %u: %" PRId64 " sent, %" PRIu64
	       " errors (two pools of this process, one after the other)\n",
	       queue, (int64_t)(tx1 - tx0), err1 - err0);
	if (ret != 0 || tx1 - tx0 != 2 * PKTS || err1 != err0) {
		printf("mp_secondary_app: FAILED\n");
		rte_eal_cleanup();
		return 1;
	}
	printf("mp_secondary_app: ok\n");
	rte_eal_cleanup();
	return 0;
}
