/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * Rx queues: a CQ and a cyclic RQ whose WQEs each hold 2^log_sges data
 * segments, one mbuf each (more than one when a frame may exceed an mbuf:
 * scattered Rx). The descriptor count is the number of mbufs, rounded up
 * to a power of two. The mempool is registered with the device at setup;
 * every WQE is posted at setup, so frames are received as soon as a rule
 * steers them to the queue (at start). Above the Rx burst (mlx5_net_rx.c),
 * whose posting and recovery it reuses; below the ethdev ops.
 */

#include <errno.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_malloc.h>

#include <mlx5_common_dp.h>

#include "mlx5_net.h"


/*
 * The first 8 bytes from rearm_data of a received mbuf, written in one
 * store: data_off at the headroom, refcnt 1, one segment, the port.
 */
static uint64_t
mlx5_net_rxq_rearm(uint16_t port_id)
{
	struct rte_mbuf mb = { .buf_addr = NULL };
	uint64_t rearm;

	mb.data_off = RTE_PKTMBUF_HEADROOM;
	mb.nb_segs = 1;
	mb.port = port_id;
	rte_mbuf_refcnt_set(&mb, 1);
	memcpy(&rearm, &mb.rearm_data, sizeof(rearm));
	return rearm;
}

static void
mlx5_net_rxq_free(struct mlx5_net_rxq_ctrl *ctrl)
{
	struct mlx5_net_rxq *rxq;
	uint32_t i, n;

	if (ctrl == NULL)
		return;
	rxq = &ctrl->rxq;
	if (ctrl->rq.obj != NULL && mlx5_devx_rq_destroy(&ctrl->rq) != 0)
		DRV_LOG(ERR, "port %u Rx queue %u: the RQ stays: %s",
			rxq->port_id, rxq->idx, rte_strerror(rte_errno));
	if (ctrl->cq.obj != NULL && mlx5_devx_cq_destroy(&ctrl->cq) != 0)
		DRV_LOG(ERR, "port %u Rx queue %u: the CQ stays: %s",
			rxq->port_id, rxq->idx, rte_strerror(rte_errno));
	if (rxq->stash_n != 0)
		rte_mempool_put_bulk(rxq->mp, (void **)rxq->stash, rxq->stash_n);
	if (rxq->elts != NULL) {
		n = 1u << (rxq->log_wqe_n + rxq->log_sges);
		for (i = 0; i < n; i++)
			rte_pktmbuf_free(rxq->elts[i]);
		rte_free(rxq->elts);
	}
	mlx5_mr_ctrl_free(&rxq->mr);
	rte_free(ctrl);
}

int
mlx5_net_rx_queue_setup(struct rte_eth_dev *dev, uint16_t idx,
			uint16_t nb_desc, unsigned int socket,
			const struct rte_eth_rxconf *conf,
			struct rte_mempool *mp)
{
	struct mlx5_net_priv *priv = dev->data->dev_private;
	struct mlx5_common_device *cdev = priv->cdev;
	uint64_t offloads = dev->data->dev_conf.rxmode.offloads |
			    (conf != NULL ? conf->offloads : 0);
	uint32_t frame = dev->data->mtu + RTE_ETHER_HDR_LEN + RTE_VLAN_HLEN;
	uint32_t desc = rte_align32pow2(RTE_MAX(nb_desc,
						(uint16_t)MLX5_NET_MIN_DESC));
	uint32_t seg_len, sges;
	struct mlx5_net_rxq_ctrl *ctrl;
	struct mlx5_net_rxq *rxq;
	int ret;

	if (mp == NULL || desc > MLX5_NET_MAX_DESC) {
		DRV_LOG(ERR, "port %u Rx queue %u: %u descriptors (at most %u)"
			" or no mempool", dev->data->port_id, idx, nb_desc,
			MLX5_NET_MAX_DESC);
		rte_errno = EINVAL;
		return -EINVAL;
	}
	seg_len = rte_pktmbuf_data_room_size(mp) - RTE_PKTMBUF_HEADROOM;
	if (rte_pktmbuf_data_room_size(mp) <= RTE_PKTMBUF_HEADROOM) {
		DRV_LOG(ERR, "port %u Rx queue %u: mbufs of mempool %s hold no"
			" data", dev->data->port_id, idx, mp->name);
		rte_errno = EINVAL;
		return -EINVAL;
	}
	sges = (frame + seg_len - 1) / seg_len;
	if (sges > 1 && !(offloads & RTE_ETH_RX_OFFLOAD_SCATTER)) {
		DRV_LOG(ERR, "port %u Rx queue %u: frames of MTU %u do not fit"
			" in one mbuf of %u bytes: enable the scatter offload"
			" or use larger mbufs", dev->data->port_id, idx,
			dev->data->mtu, seg_len);
		rte_errno = EINVAL;
		return -EINVAL;
	}
	sges = rte_align32pow2(sges);
	if (sges > MLX5_NET_MAX_RX_SEGS || sges > desc) {
		DRV_LOG(ERR, "port %u Rx queue %u: %u mbufs of %u bytes per"
			" frame: at most %u", dev->data->port_id, idx, sges,
			seg_len, RTE_MIN(desc, (uint32_t)MLX5_NET_MAX_RX_SEGS));
		rte_errno = EINVAL;
		return -EINVAL;
	}
	if (desc != nb_desc)
		DRV_LOG(INFO, "port %u Rx queue %u: %u descriptors, not %u"
			" (a power of two, at least %u)", dev->data->port_id,
			idx, desc, nb_desc, MLX5_NET_MIN_DESC);
	mlx5_net_rx_queue_release(dev, idx);
	ctrl = rte_zmalloc_socket("mlx5_net_rxq", sizeof(*ctrl),
				  RTE_CACHE_LINE_SIZE, (int)socket);
	if (ctrl == NULL) {
		rte_errno = ENOMEM;
		return -ENOMEM;
	}
	rxq = &ctrl->rxq;
	ctrl->priv = priv;
	rxq->idx = idx;
	rxq->port_id = dev->data->port_id;
	rxq->mp = mp;
	rxq->seg_len = seg_len;
	rxq->log_sges = (uint8_t)rte_log2_u32(sges);
	rxq->log_wqe_n = (uint8_t)rte_log2_u32(desc / sges);
	rxq->scatter = sges > 1;
	rxq->mbuf_rearm = mlx5_net_rxq_rearm(rxq->port_id);
	ctrl->deferred = conf != NULL && conf->rx_deferred_start;
	rxq->csum = offloads & RTE_ETH_RX_OFFLOAD_CHECKSUM;
	rxq->rss_hash = offloads & RTE_ETH_RX_OFFLOAD_RSS_HASH;
	rxq->ts_offset = -1;
	if (offloads & RTE_ETH_RX_OFFLOAD_TIMESTAMP) {
		if (priv->ts_offset < 0 &&
		    rte_mbuf_dyn_rx_timestamp_register(&priv->ts_offset,
						       &priv->ts_flag) != 0) {
			DRV_LOG(ERR, "port %u Rx queue %u: no timestamp"
				" field: %s", dev->data->port_id, idx,
				rte_strerror(rte_errno));
			rte_free(ctrl);
			return -rte_errno;
		}
		rxq->ts_offset = priv->ts_offset;
		rxq->ts_flag = priv->ts_flag;
	}
	ret = mlx5_mr_ctrl_init(&rxq->mr, cdev, (int)socket);
	if (ret != 0)
		goto error;
	/* Registered once per device; a pool already known is fine. */
	ret = mlx5_mr_mempool_register(cdev, mp);
	if (ret != 0 && rte_errno != EEXIST)
		goto error;
	rxq->elts = rte_zmalloc_socket("mlx5_net_rxq_elts",
				       sizeof(*rxq->elts) * desc, 0,
				       (int)socket);
	if (rxq->elts == NULL) {
		rte_errno = ENOMEM;
		goto error;
	}
	if (rte_pktmbuf_alloc_bulk(mp, rxq->elts, desc) != 0) {
		DRV_LOG(ERR, "port %u Rx queue %u: %u mbufs from %s: pool"
			" too small", rxq->port_id, idx, desc, mp->name);
		memset(rxq->elts, 0, sizeof(*rxq->elts) * desc);
		rte_errno = ENOMEM;
		goto error;
	}
	/*
	 * Compressed CQEs carry no timestamp (the session's first stands
	 * for all): a queue with Rx timestamps takes every CQE whole, as
	 * DPDK's PMD does. A scattered queue too: its frames take the
	 * general path, which would unzip each session first.
	 */
	rxq->zip = priv->rxq_cqe_comp && rxq->ts_offset < 0 && !rxq->scatter;
	if (rxq->zip)
		ret = mlx5_devx_cq_create_comp(cdev, &ctrl->cq, rxq->log_wqe_n,
					       &priv->uar,
					       MLX5_MINI_CQE_FORMAT_HASH,
					       (int)socket);
	else
		ret = mlx5_devx_cq_create(cdev, &ctrl->cq, rxq->log_wqe_n,
					  &priv->uar, (int)socket);
	if (ret != 0)
		goto error;
	ret = mlx5_devx_rq_create(cdev, &ctrl->rq,
		&(struct mlx5_devx_rq_params){
			.pd = cdev->pdn,
			.cqn = ctrl->cq.obj->id,
			.log_size = rxq->log_wqe_n,
			.log_stride = 4u + rxq->log_sges,
			.counter_set_id = priv->qcnt != NULL ?
					  (uint8_t)priv->qcnt->id : 0,
		}, (int)socket);
	if (ret != 0)
		goto error;
	/* The burst's copies of the rings (the hot struct). */
	rxq->cqes = ctrl->cq.cqes;
	rxq->cq_db = ctrl->cq.db_rec;
	rxq->log_cq_n = (uint8_t)ctrl->cq.log_size;
	rxq->wqes = ctrl->rq.wqes;
	rxq->rq_db = &ctrl->rq.db_rec[MLX5_RCV_DBR];
	rxq->log_stride = (uint8_t)ctrl->rq.log_stride;
	ret = mlx5_net_rxq_post_all(rxq);
	if (ret != 0)
		goto error;
	dev->data->rx_queues[idx] = rxq;
	return 0;
error:
	DRV_LOG(ERR, "port %u Rx queue %u: setup failed: %s",
		dev->data->port_id, idx, rte_strerror(rte_errno));
	ret = -rte_errno;
	mlx5_net_rxq_free(ctrl);
	rte_errno = -ret;
	return ret;
}

void
mlx5_net_rx_queue_release(struct rte_eth_dev *dev, uint16_t idx)
{
	struct mlx5_net_rxq *rxq = dev->data->rx_queues[idx];

	if (rxq == NULL)
		return;
	dev->data->rx_queues[idx] = NULL;
	mlx5_net_rxq_free(mlx5_net_rxq_ctrl_of(rxq));
}

int
mlx5_net_rxq_stop(struct mlx5_net_rxq *rxq)
{
	struct mlx5_devx_rq *rq = &mlx5_net_rxq_ctrl_of(rxq)->rq;
	int ret;

	if (rxq->stopped)
		return 0;
	if (rq->state != MLX5_WQ_STATE_RST) {
		ret = mlx5_devx_cmd_modify_rq(rq->obj, rq->state,
					      MLX5_WQ_STATE_RST);
		if (ret != 0) {
			DRV_LOG(ERR, "port %u Rx queue %u: stop failed: %s",
				rxq->port_id, rxq->idx,
				rte_strerror(rte_errno));
			return ret;
		}
		rq->state = MLX5_WQ_STATE_RST;
	}
	/* Frames received and not handed up are dropped with the queue. */
	mlx5_net_rxq_cq_drain(rxq);
	rxq->stopped = true;
	return 0;
}

int
mlx5_net_rxq_start(struct mlx5_net_rxq *rxq)
{
	int ret;

	if (!rxq->stopped)
		return 0;
	/* RST to RDY, every WQE posted again with the mbufs it holds. */
	ret = mlx5_devx_rq_recover(&mlx5_net_rxq_ctrl_of(rxq)->rq);
	if (ret == 0)
		ret = mlx5_net_rxq_post_all(rxq);
	if (ret != 0) {
		DRV_LOG(ERR, "port %u Rx queue %u: start failed: %s",
			rxq->port_id, rxq->idx, rte_strerror(rte_errno));
		return ret;
	}
	rxq->stopped = false;
	return 0;
}
