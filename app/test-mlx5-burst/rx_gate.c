/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * Rx gate: a library that devtools/run-upstream-bench.sh preloads into
 * dpdk-testpmd so that an Rx burst is called only when its queue has a
 * completion ready. After each rte_eth_dev_start() it puts a gate in the
 * port's fast-path Rx entry (rte_eth_fp_ops): the PMD's own
 * rx_queue_count first, then, if anything is there, the PMD's burst,
 * called from mlx5_rx_gate_burst() alone. Under callgrind the calls from
 * that function are the bursts that got packets (few empty ones), and
 * their instructions per packet the PMD's receive cost, the same way for
 * any PMD with rx_queue_count: without the gate most polls find nothing
 * (the device's thread is slower under callgrind) and their cost drowns
 * the burst's. A port whose PMD has no rx_queue_count, or a burst other
 * than the first port's, is left as it is (a line on stderr says so).
 */

#include <dlfcn.h>
#include <stdio.h>

#include <rte_common.h>
#include <rte_ethdev.h>

int rte_eth_dev_start(uint16_t port_id);
uint16_t mlx5_rx_gate_burst(void *rxq, struct rte_mbuf **pkts, uint16_t n);

static eth_rx_burst_t gate_burst;
static eth_rx_queue_count_t gate_count;

/* The PMD's burst: the one caller of it the benchmark counts. */
__attribute__((noinline)) uint16_t
mlx5_rx_gate_burst(void *rxq, struct rte_mbuf **pkts, uint16_t n)
{
	return gate_burst(rxq, pkts, n);
}

static uint16_t
mlx5_rx_gated(void *rxq, struct rte_mbuf **pkts, uint16_t n)
{
	if (gate_count(rxq) == 0)
		return 0;
	return mlx5_rx_gate_burst(rxq, pkts, n);
}

int
rte_eth_dev_start(uint16_t port_id)
{
	static int (*start)(uint16_t);
	struct rte_eth_fp_ops *fo;
	int ret;

	if (start == NULL)
		start = (int (*)(uint16_t))dlsym(RTLD_NEXT,
						 "rte_eth_dev_start");
	if (start == NULL)
		return -ENOSYS;
	ret = start(port_id);
	if (ret != 0 || port_id >= RTE_MAX_ETHPORTS)
		return ret;
	fo = &rte_eth_fp_ops[port_id];
	if (fo->rx_queue_count == NULL ||
	    (gate_burst != NULL && (fo->rx_pkt_burst != gate_burst ||
				    fo->rx_queue_count != gate_count))) {
		fprintf(stderr, "rx gate: port %u not gated (%s)\n", port_id,
			fo->rx_queue_count == NULL ? "no rx_queue_count" :
						     "another burst");
		return ret;
	}
	gate_burst = fo->rx_pkt_burst;
	gate_count = fo->rx_queue_count;
	fo->rx_pkt_burst = mlx5_rx_gated;
	fprintf(stderr, "rx gate: port %u gated\n", port_id);
	return ret;
}
