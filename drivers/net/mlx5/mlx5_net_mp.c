/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * Secondary processes. The port is the primary's: its configuration,
 * queues and statistics live in memory both processes map, and a secondary
 * process attaches to it (rte_eth_dev_attach_secondary()) to receive and
 * send on queues the primary set up. Per process: the bursts' MR caches
 * (a miss is looked up, or registered, by the primary) and the doorbell
 * page as this process rings it. What needs the device is asked of the
 * primary (mlx5_mp_class_request()): the queue counter (imissed) and queue
 * recovery after an error completion. Configuration (configure, queue
 * setup, start/stop, MTU, MAC, RSS, modes) stays with the primary.
 *
 * This file: a secondary's attach (its ethdev ops are a subset of the
 * primary's, mlx5_net_ethdev.c) and the primary's answers to requests.
 * The secondary's own state and its half of the requests, which the bursts
 * and queues call, are below, in mlx5_net_proc.c. Calls the ethdev ops,
 * queues, bursts and mlx5_net_proc.c below it; only probe calls it.
 */

#include <errno.h>

#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_malloc.h>

#include <mlx5_malloc.h>

#include "mlx5_net.h"

static int
mlx5_net_secondary_link_update(struct rte_eth_dev *dev, int wait)
{
	/* The primary keeps the shared link status current. */
	RTE_SET_USED(dev);
	RTE_SET_USED(wait);
	return 0;
}

static int
mlx5_net_secondary_close(struct rte_eth_dev *dev)
{
	/* Closing the port is the primary's; nothing of it is ours. */
	RTE_SET_USED(dev);
	return 0;
}

/* What a secondary process may do with the port (others: -ENOTSUP). */
static const struct eth_dev_ops mlx5_net_secondary_ops = {
	.dev_infos_get = mlx5_net_infos_get,
	.dev_close = mlx5_net_secondary_close,
	.link_update = mlx5_net_secondary_link_update,
	.stats_get = mlx5_net_stats_get,
	.stats_reset = mlx5_net_stats_reset,
	.xstats_get = mlx5_net_xstats_get,
	.xstats_get_names = mlx5_net_xstats_names,
	.xstats_reset = mlx5_net_stats_reset,
	.rss_hash_conf_get = mlx5_net_rss_conf_get,
	.reta_query = mlx5_net_reta_query,
	.dev_supported_ptypes_get = mlx5_net_ptypes,
};

int
mlx5_net_probe_secondary(struct mlx5_common_device *cdev)
{
	struct mlx5_net_priv *priv;
	struct mlx5_net_proc *pp;
	struct rte_eth_dev *eth;
	int ret;

	eth = rte_eth_dev_attach_secondary(cdev->dev->name);
	if (eth == NULL) {
		DRV_LOG(ERR, "%s: the primary process has no port of this device",
			cdev->dev->name);
		rte_errno = ENODEV;
		return -ENODEV;
	}
	priv = eth->data->dev_private;
	pp = mlx5_malloc(cdev, MLX5_MEM_SYS | MLX5_MEM_ZERO, sizeof(*pp), 0,
			 SOCKET_ID_ANY);
	if (pp == NULL) {
		ret = -ENOMEM;
		goto error;
	}
	pp->cdev = cdev;
	ret = mlx5_uar_import(cdev, &priv->uar, &pp->uar);
	if (ret != 0) {
		mlx5_free(pp);
		goto error;
	}
	eth->process_private = pp;
	eth->device = cdev->dev;
	eth->dev_ops = &mlx5_net_secondary_ops;
	eth->rx_pkt_burst = mlx5_net_rx_burst_fn(priv, true);
	eth->rx_queue_count = mlx5_net_rx_queue_count;
	eth->rx_descriptor_status = mlx5_net_rx_descriptor_status;
	eth->tx_pkt_burst = mlx5_net_tx_burst_fn(priv, true);
	eth->tx_pkt_prepare = mlx5_net_tx_prepare;
	rte_eth_dev_probing_finish(eth);
	DRV_LOG(INFO, "%s: port %u attached (secondary process)",
		cdev->dev->name, eth->data->port_id);
	return 0;
error:
	DRV_LOG(ERR, "%s: cannot attach to the primary's port: %s",
		cdev->dev->name, rte_strerror(-ret));
	rte_eth_dev_release_port(eth);
	rte_errno = -ret;
	return ret;
}

int
mlx5_net_remove_secondary(struct rte_eth_dev *eth)
{
	if (eth->process_private != NULL) {
		mlx5_net_proc_free(eth->process_private);
		eth->process_private = NULL;
	}
	/* In a secondary process this releases this process's view only. */
	return rte_eth_dev_release_port(eth);
}

void
mlx5_net_mp_request(struct mlx5_common_device *cdev,
		    struct mlx5_mp_class_msg *msg)
{
	struct rte_eth_dev *eth;
	struct mlx5_net_priv *priv;

	/* Only the port of this device, and only its queues. */
	if (msg->port >= RTE_MAX_ETHPORTS ||
	    !rte_eth_dev_is_valid_port((uint16_t)msg->port)) {
		msg->result = -ENODEV;
		return;
	}
	eth = &rte_eth_devices[msg->port];
	priv = eth->data->dev_private;
	if (priv == NULL || priv->cdev != cdev) {
		msg->result = -ENODEV;
		return;
	}
	switch (msg->op) {
	case MLX5_NET_MP_IMISSED:
		msg->val = mlx5_net_imissed(eth);
		msg->result = 0;
		return;
	case MLX5_NET_MP_RXQ_RECOVER:
		if (msg->queue >= eth->data->nb_rx_queues ||
		    eth->data->rx_queues[msg->queue] == NULL) {
			msg->result = -EINVAL;
			return;
		}
		msg->result = mlx5_net_rxq_recover(
			eth->data->rx_queues[msg->queue]);
		return;
	case MLX5_NET_MP_TXQ_RECOVER:
		if (msg->queue >= eth->data->nb_tx_queues ||
		    eth->data->tx_queues[msg->queue] == NULL) {
			msg->result = -EINVAL;
			return;
		}
		msg->result = mlx5_net_txq_recover(
			eth->data->tx_queues[msg->queue]);
		return;
	default:
		msg->result = -EINVAL;
		return;
	}
}
