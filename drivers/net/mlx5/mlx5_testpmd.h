/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * dpdk-testpmd's hook into the mlx5 net PMD, included by DPDK 22.11's
 * app/test-pmd/testpmd.c when it is built in the same tree as
 * drivers/net/mlx5 (RTE_NET_MLX5; devtools/build-in-dpdk.sh). Not used by
 * the project's own build.
 */

#ifndef MLX5_TESTPMD_H_
#define MLX5_TESTPMD_H_

#include <stdint.h>

/**
 * testpmd's handler of RTE_ETH_EVENT_RX_AVAIL_THRESH for an mlx5 port.
 *
 * @param port_id
 *   The port that raised the event.
 * @param rxq_id
 *   Its Rx queue whose available descriptors fell under the threshold.
 */
void
mlx5_test_avail_thresh_event_handler(uint16_t port_id, uint16_t rxq_id);

#endif /* MLX5_TESTPMD_H_ */
