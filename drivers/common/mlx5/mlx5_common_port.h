/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * Ports and receive steering for Ethernet class drivers: the link (speed,
 * MTU, state) and its settings through the backend (the port's netdev on
 * Linux, the port model on the software device), and steering rules that
 * send received frames to a TIR (rdma-core's mlx5dv flow API on the NIC
 * receive table, or the software device's rule table).
 */

#ifndef MLX5_COMMON_PORT_H_
#define MLX5_COMMON_PORT_H_

#include <stdbool.h>
#include <stdint.h>

#include <rte_compat.h>

#include "mlx5_common.h"
#include "mlx5_devx_cmds.h"

/* The link of a port. */
struct mlx5_port_link {
	uint32_t speed_mbps;       /* 0: unknown. */
	uint16_t mtu;              /* Network MTU (L3), as the netdev's. */
	bool up;
};

/**
 * Read the link of port @p port (1-based) of the device.
 *
 * @return
 *   0 on success, a negative errno value otherwise and rte_errno is set.
 */
__rte_internal
int mlx5_port_link_get(struct mlx5_common_device *cdev, uint8_t port,
		       struct mlx5_port_link *link);

/**
 * Set the MTU (L3, as `ip link set mtu` does) of the vport of port
 * @p port. Frames longer than the MTU plus the L2 header are dropped on
 * receive.
 *
 * @return
 *   0 on success, a negative errno value otherwise and rte_errno is set.
 */
__rte_internal
int mlx5_port_mtu_set(struct mlx5_common_device *cdev, uint8_t port,
		      uint16_t mtu);

/**
 * Set port @p port administratively up or down (as `ip link set` does the
 * netdev). Down, the port sends and receives nothing and its link partner
 * sees the link down.
 *
 * @return
 *   0 on success, a negative errno value otherwise and rte_errno is set.
 */
__rte_internal
int mlx5_port_link_set(struct mlx5_common_device *cdev, uint8_t port,
		       bool up);

/**
 * Force the link speed of port @p port (Mb/s, autonegotiation off).
 *
 * @return
 *   0 on success, a negative errno value otherwise and rte_errno is set.
 */
__rte_internal
int mlx5_port_speed_set(struct mlx5_common_device *cdev, uint8_t port,
			uint32_t speed_mbps);

/* Which received frames a steering rule takes. */
enum mlx5_flow_rx_kind {
	MLX5_FLOW_RX_ALL,   /* Every frame: promiscuous. */
	MLX5_FLOW_RX_DMAC,  /* Destination MAC equal to the one given (not 0). */
	MLX5_FLOW_RX_BCAST, /* Destination ff:ff:ff:ff:ff:ff. */
	MLX5_FLOW_RX_MCAST, /* Any group destination: all-multicast. */
};

/* A steering rule of the NIC receive table to a TIR. */
struct mlx5_flow_rx {
	struct mlx5_common_device *cdev;
	struct mlx5dv_flow_matcher *matcher;
	struct ibv_flow *flow;
};

/**
 * Send the received frames of @p kind (and destination @p mac for
 * MLX5_FLOW_RX_DMAC) to @p tir. Among rules matching a frame, the lowest
 * @p priority value wins.
 *
 * @return
 *   0 on success, a negative errno value otherwise and rte_errno is set;
 *   nothing is left allocated on failure.
 */
__rte_internal
int mlx5_flow_rx_create(struct mlx5_common_device *cdev,
			struct mlx5_flow_rx *rule, enum mlx5_flow_rx_kind kind,
			const uint8_t *mac, uint16_t priority,
			struct mlx5_devx_obj *tir);

/**
 * Remove a rule of mlx5_flow_rx_create(); a zeroed one is a no-op.
 *
 * @return
 *   0, or a negative errno if the backend refused (the rule stays).
 */
__rte_internal
int mlx5_flow_rx_destroy(struct mlx5_flow_rx *rule);

#endif /* MLX5_COMMON_PORT_H_ */
