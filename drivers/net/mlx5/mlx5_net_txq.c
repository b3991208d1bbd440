/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * Tx queues: a CQ and an SQ of 64-byte WQE blocks (the descriptor count,
 * rounded up to a power of two), sending through the port's TIS. A
 * per-queue rate limit is a packet-pacing entry of the device, shared
 * with other queues of the same rate, set on the SQ while it is ready.
 * Above the Tx burst (mlx5_net_tx.c: completions, recovery); below the
 * ethdev ops.
 */

#include <errno.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_malloc.h>

#include <mlx5_common_dp.h>

#include "mlx5_net.h"

/*
 * Free every mbuf the SQ still holds, packets [e_tail, e_head) (nothing
 * will complete them; the ring's other entries are stale).
 */
void
mlx5_net_txq_drain(struct mlx5_net_txq *txq)
{
	uint32_t mask = txq->elts_n - 1;

	while (txq->e_tail != txq->e_head) {
		rte_pktmbuf_free(txq->elts[txq->e_tail & mask]);
		txq->e_tail++;
	}
	txq->general_pending = false;
	txq->ci = txq->pi;
	txq->last_comp = txq->pi;
}

static void
mlx5_net_txq_free(struct mlx5_net_txq_ctrl *ctrl)
{
	struct mlx5_net_txq *txq;

	if (ctrl == NULL)
		return;
	txq = &ctrl->txq;
	if (ctrl->sq.obj != NULL && mlx5_devx_sq_destroy(&ctrl->sq) != 0)
		DRV_LOG(ERR, "Tx queue %u: the SQ stays: %s", txq->idx,
			rte_strerror(rte_errno));
	if (ctrl->cq.obj != NULL && mlx5_devx_cq_destroy(&ctrl->cq) != 0)
		DRV_LOG(ERR, "Tx queue %u: the CQ stays: %s", txq->idx,
			rte_strerror(rte_errno));
	if (txq->elts != NULL) {
		mlx5_net_txq_drain(txq);
		rte_free(txq->elts);
	}
	rte_free(txq->wqe_pkts);
	if (ctrl->pp != NULL)
		mlx5_pp_free(ctrl->priv->cdev, ctrl->pp);
	mlx5_mr_ctrl_free(&txq->mr);
	rte_free(ctrl);
}

int
mlx5_net_tx_queue_setup(struct rte_eth_dev *dev, uint16_t idx,
			uint16_t nb_desc, unsigned int socket,
			const struct rte_eth_txconf *conf)
{
	struct mlx5_net_priv *priv = dev->data->dev_private;
	struct mlx5_common_device *cdev = priv->cdev;
	uint32_t desc = rte_align32pow2(RTE_MAX(nb_desc,
						(uint16_t)MLX5_NET_MIN_DESC));
	struct mlx5_net_txq_ctrl *ctrl;
	struct mlx5_net_txq *txq;
	int ret;

	if (desc > MLX5_NET_MAX_DESC) {
		DRV_LOG(ERR, "port %u Tx queue %u: %u descriptors (at most %u)",
			dev->data->port_id, idx, nb_desc, MLX5_NET_MAX_DESC);
		rte_errno = EINVAL;
		return -EINVAL;
	}
	if (desc != nb_desc)
		DRV_LOG(INFO, "port %u Tx queue %u: %u descriptors, not %u"
			" (a power of two, at least %u)", dev->data->port_id,
			idx, desc, nb_desc, MLX5_NET_MIN_DESC);
	mlx5_net_tx_queue_release(dev, idx);
	ctrl = rte_zmalloc_socket("mlx5_net_txq", sizeof(*ctrl),
				  RTE_CACHE_LINE_SIZE, (int)socket);
	if (ctrl == NULL) {
		rte_errno = ENOMEM;
		return -ENOMEM;
	}
	txq = &ctrl->txq;
	ctrl->priv = priv;
	txq->uar = &priv->uar;
	txq->idx = idx;
	txq->port_id = dev->data->port_id;
	txq->wqe_n = desc;
	txq->inline_hdr = priv->txq_inline_min;
	ctrl->deferred = conf != NULL && conf->tx_deferred_start;
	txq->fast_free = (dev->data->dev_conf.txmode.offloads |
			  (conf != NULL ? conf->offloads : 0)) &
			 RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE;
	ret = mlx5_mr_ctrl_init(&txq->mr, cdev, (int)socket);
	if (ret != 0)
		goto error;
	txq->empw = priv->txq_empw && txq->inline_hdr == 0;
	txq->elts_n = desc;
	txq->elts = rte_zmalloc_socket("mlx5_net_txq_elts",
				       sizeof(*txq->elts) * txq->elts_n, 0,
				       (int)socket);
	txq->wqe_pkts = rte_zmalloc_socket("mlx5_net_txq_wqe_pkts",
					   sizeof(*txq->wqe_pkts) * desc, 0,
					   (int)socket);
	if (txq->elts == NULL || txq->wqe_pkts == NULL) {
		rte_errno = ENOMEM;
		goto error;
	}
	/* At most one CQE per MLX5_NET_TX_COMP_THRESH blocks, and per burst. */
	ret = mlx5_devx_cq_create(cdev, &ctrl->cq, rte_log2_u32(desc),
				  &priv->uar, (int)socket);
	if (ret != 0)
		goto error;
	ret = mlx5_devx_sq_create(cdev, &ctrl->sq,
		&(struct mlx5_devx_sq_params){
			.pd = cdev->pdn,
			.cqn = ctrl->cq.obj->id,
			.tisn = priv->tis[idx % priv->n_tis]->id,
			.log_size = rte_log2_u32(desc),
			.uar = &priv->uar,
			.allow_empw = txq->empw,
		}, (int)socket);
	if (ret != 0)
		goto error;
	/* The burst's copies of the rings (the hot struct). */
	txq->wqes = ctrl->sq.wqes;
	txq->sq_db = &ctrl->sq.db_rec[MLX5_SND_DBR];
	txq->cqes = ctrl->cq.cqes;
	txq->cq_db = ctrl->cq.db_rec;
	txq->log_cq_n = (uint8_t)ctrl->cq.log_size;
	txq->sqn = ctrl->sq.obj->id;
	txq->qpn_ds3 = rte_cpu_to_be_32(txq->sqn << 8 | 3);
	dev->data->tx_queues[idx] = txq;
	return 0;
error:
	DRV_LOG(ERR, "port %u Tx queue %u: setup failed: %s",
		dev->data->port_id, idx, rte_strerror(rte_errno));
	ret = -rte_errno;
	mlx5_net_txq_free(ctrl);
	rte_errno = -ret;
	return ret;
}

void
mlx5_net_tx_queue_release(struct rte_eth_dev *dev, uint16_t idx)
{
	struct mlx5_net_txq *txq = dev->data->tx_queues[idx];

	if (txq == NULL)
		return;
	dev->data->tx_queues[idx] = NULL;
	mlx5_net_txq_free(mlx5_net_txq_ctrl_of(txq));
}

int
mlx5_net_txq_stop(struct mlx5_net_txq *txq)
{
	struct mlx5_devx_sq *sq = &mlx5_net_txq_ctrl_of(txq)->sq;
	struct mlx5_devx_sq_modify mod = {
		.cur_state = MLX5_WQ_STATE_RDY,
		.new_state = MLX5_WQ_STATE_RST,
	};
	int ret;

	if (txq->stopped)
		return 0;
	/* What completed goes back; what did not is freed, not sent. */
	mlx5_net_txq_complete(txq);
	mod.cur_state = sq->state;
	if (sq->state != MLX5_WQ_STATE_RST) {
		ret = mlx5_devx_cmd_modify_sq(sq->obj, &mod);
		if (ret != 0) {
			DRV_LOG(ERR, "port %u Tx queue %u: stop failed: %s",
				txq->port_id, txq->idx,
				rte_strerror(rte_errno));
			return ret;
		}
		sq->state = MLX5_WQ_STATE_RST;
	}
	mlx5_net_txq_drain(txq);
	txq->stopped = true;
	return 0;
}

int
mlx5_net_txq_start(struct mlx5_net_txq *txq)
{
	int ret;

	if (!txq->stopped)
		return 0;
	/* RST to RDY from block 0, its rate limit set again. */
	ret = mlx5_net_txq_recover(txq);
	if (ret != 0) {
		DRV_LOG(ERR, "port %u Tx queue %u: start failed: %s",
			txq->port_id, txq->idx, rte_strerror(rte_errno));
		return ret;
	}
	txq->ci = 0;
	txq->last_comp = 0;
	txq->stopped = false;
	return 0;
}

/*
 * Set the queue's rate on its SQ: a pacing entry for rate_mbps (shared by
 * the queues of that rate), or none for 0; the previous entry is released
 * once the SQ no longer names it.
 */
int
mlx5_net_txq_rate_apply(struct mlx5_net_txq *txq)
{
	struct mlx5_net_txq_ctrl *ctrl = mlx5_net_txq_ctrl_of(txq);
	struct mlx5_common_device *cdev = ctrl->priv->cdev;
	struct mlx5_pp_entry *old = ctrl->pp, *pp = NULL;
	struct mlx5_devx_sq_modify m = {
		.cur_state = MLX5_WQ_STATE_RDY,
		.new_state = MLX5_WQ_STATE_RDY,
		.set_rate = true,
	};
	int ret;

	if (ctrl->rate_mbps != 0) {
		struct mlx5_pp_attr attr = {
			.rate_kbps = ctrl->rate_mbps * 1000,
			.rate_mode = MLX5_PP_RATE_MODE_DATA_RATE,
		};

		ret = mlx5_pp_alloc(cdev, &attr, &pp);
		if (ret != 0)
			return ret;
		m.rate_index = pp->index;
	}
	if (old == NULL && pp == NULL)
		return 0;
	ret = mlx5_devx_cmd_modify_sq(ctrl->sq.obj, &m);
	if (ret != 0) {
		if (pp != NULL)
			mlx5_pp_free(cdev, pp);
		return ret;
	}
	ctrl->pp = pp;
	if (old != NULL)
		mlx5_pp_free(cdev, old);
	return 0;
}
