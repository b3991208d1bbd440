/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * A secondary process's own state of a port (eth->process_private): the
 * bursts' MR caches and the doorbell page as this process rings it; and
 * the client half of the multi-process requests (mlx5_net_mp_ask()): what
 * a burst, a queue or an ethdev op of a secondary asks of the primary. The
 * primary's half, and the secondary's attach, are mlx5_net_mp.c's. Calls
 * nothing of the PMD above it.
 */

#include <errno.h>

#include <rte_eal.h>
#include <rte_errno.h>

#include <mlx5_malloc.h>

#include "mlx5_net.h"

struct mlx5_mr_ctrl *
mlx5_net_proc_mr(struct mlx5_net_proc *pp, bool tx, uint16_t idx, int socket)
{
	struct mlx5_mr_ctrl **slot;
	struct mlx5_mr_ctrl *mr;

	if (idx >= MLX5_NET_MAX_QUEUES)
		return NULL;
	slot = tx ? &pp->txq_mr[idx] : &pp->rxq_mr[idx];
	if (*slot != NULL)
		return *slot;
	mr = mlx5_malloc(pp->cdev, MLX5_MEM_SYS | MLX5_MEM_ZERO, sizeof(*mr),
			 RTE_CACHE_LINE_SIZE, socket);
	if (mr == NULL) {
		DRV_LOG(ERR, "%s: no memory for the MR cache of %s queue %u",
			pp->cdev->dev->name, tx ? "Tx" : "Rx", idx);
		rte_errno = ENOMEM;
		return NULL;
	}
	if (mlx5_mr_ctrl_init(mr, pp->cdev, socket) != 0) {
		mlx5_free(mr);
		return NULL;
	}
	*slot = mr;
	return mr;
}

void
mlx5_net_proc_free(struct mlx5_net_proc *pp)
{
	for (unsigned int i = 0; i < MLX5_NET_MAX_QUEUES; i++) {
		if (pp->rxq_mr[i] != NULL) {
			mlx5_mr_ctrl_free(pp->rxq_mr[i]);
			mlx5_free(pp->rxq_mr[i]);
		}
		if (pp->txq_mr[i] != NULL) {
			mlx5_mr_ctrl_free(pp->txq_mr[i]);
			mlx5_free(pp->txq_mr[i]);
		}
	}
	mlx5_uar_unimport(pp->cdev, &pp->uar);
	mlx5_free(pp);
}

int
mlx5_net_mp_ask(uint16_t port_id, enum mlx5_net_mp_op op, uint16_t queue,
		uint64_t *val)
{
	struct mlx5_net_proc *pp = rte_eth_devices[port_id].process_private;
	struct mlx5_mp_class_msg msg = {
		.op = op,
		.port = port_id,
		.queue = queue,
	};
	int ret;

	if (pp == NULL) {
		rte_errno = ENODEV;
		return -ENODEV;
	}
	ret = mlx5_mp_class_request(pp->cdev, MLX5_CLASS_ETH, &msg);
	if (ret == 0)
		ret = msg.result;
	if (ret != 0) {
		rte_errno = -ret;
		return ret;
	}
	if (val != NULL)
		*val = msg.val;
	return 0;
}
