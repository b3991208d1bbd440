/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * Built into dpdk-testpmd (testpmd_sources) only when DPDK builds this
 * driver in its own tree. This PMD offers no Rx available-descriptor
 * threshold (rte_eth_rx_avail_thresh_set() is not supported), so the
 * event never comes; the handler only reports it.
 */

#include <stdio.h>

#include "mlx5_testpmd.h"

void
mlx5_test_avail_thresh_event_handler(uint16_t port_id, uint16_t rxq_id)
{
	printf("port %u Rx queue %u: available descriptor threshold event (not raised by this PMD)\n",
	       port_id, rxq_id);
}
