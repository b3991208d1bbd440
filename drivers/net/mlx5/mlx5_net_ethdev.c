/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * The ethdev ops of a port: configuration, start/stop (the RQ table, the
 * RSS TIR and the steering rules exist while the port runs), link,
 * statistics, promiscuous and all-multicast modes, MAC address, MTU, RSS
 * and RETA, per-queue rate limits, queue start/stop and info. Above the
 * queues (mlx5_net_rxq.c, mlx5_net_txq.c) and the bursts, which it calls
 * (and mlx5_net_proc.c's requests); probe (mlx5_net_probe.c) installs
 * them and mlx5_net_mp.c shares some with a secondary.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <ethdev_driver.h>
#include <rte_errno.h>
#include <rte_malloc.h>

#include "mlx5_net.h"

/* The default Toeplitz key (the one of Microsoft's RSS specification). */
const uint8_t mlx5_net_rss_key_default[MLX5_RSS_HASH_KEY_LEN] = {
	0x6d, 0x5a, 0x56, 0xda, 0x25, 0x5b, 0x0e, 0xc2,
	0x41, 0x67, 0x25, 0x3d, 0x43, 0xa3, 0x8f, 0xb0,
	0xd0, 0xca, 0x2b, 0xcb, 0xae, 0x7b, 0x30, 0xb4,
	0x77, 0xcb, 0x2d, 0xa3, 0x80, 0x30, 0xf2, 0x0c,
	0x6a, 0x42, 0xb7, 0x3b, 0xbe, 0xac, 0x01, 0xfa,
};

#define MLX5_NET_RSS_HF (RTE_ETH_RSS_IPV4 | RTE_ETH_RSS_FRAG_IPV4 | \
			 RTE_ETH_RSS_NONFRAG_IPV4_TCP | \
			 RTE_ETH_RSS_NONFRAG_IPV4_UDP | \
			 RTE_ETH_RSS_NONFRAG_IPV4_OTHER | \
			 RTE_ETH_RSS_IPV6 | RTE_ETH_RSS_FRAG_IPV6 | \
			 RTE_ETH_RSS_NONFRAG_IPV6_TCP | \
			 RTE_ETH_RSS_NONFRAG_IPV6_UDP | \
			 RTE_ETH_RSS_NONFRAG_IPV6_OTHER)

static uint16_t
mlx5_net_reta_max(const struct mlx5_net_priv *priv)
{
	uint32_t cap = 1u << priv->cdev->caps.eth.rss_ind_tbl_cap;

	return (uint16_t)RTE_MIN(cap, (uint32_t)MLX5_NET_RETA_MAX);
}

/*
 * Give the device's port MTU @mtu, unless it has it already (a netdev's
 * MTU change costs a link flap on Linux).
 */
static int
mlx5_net_mtu_apply(struct rte_eth_dev *dev, uint16_t mtu)
{
	struct mlx5_net_priv *priv = dev->data->dev_private;
	struct mlx5_port_link link = { 0 };
	int ret;

	if (mlx5_port_link_get(priv->cdev, priv->phys_port, &link) == 0 &&
	    link.mtu == mtu)
		return 0;
	ret = mlx5_port_mtu_set(priv->cdev, priv->phys_port, mtu);
	if (ret != 0)
		DRV_LOG(ERR, "port %u: the device refused MTU %u: %s",
			dev->data->port_id, mtu, rte_strerror(rte_errno));
	return ret;
}

static int mlx5_net_mtu_set(struct rte_eth_dev *dev, uint16_t mtu);

static int
mlx5_net_configure(struct rte_eth_dev *dev)
{
	struct mlx5_net_priv *priv = dev->data->dev_private;
	struct rte_eth_rss_conf *rss = &dev->data->dev_conf.rx_adv_conf.rss_conf;
	uint16_t i;

	if (dev->data->nb_rx_queues > MLX5_NET_MAX_QUEUES ||
	    dev->data->nb_tx_queues > MLX5_NET_MAX_QUEUES) {
		DRV_LOG(ERR, "port %u: %u Rx and %u Tx queues: at most %u each",
			dev->data->port_id, dev->data->nb_rx_queues,
			dev->data->nb_tx_queues, MLX5_NET_MAX_QUEUES);
		rte_errno = EINVAL;
		return -EINVAL;
	}
	if (rss->rss_key != NULL && rss->rss_key_len != MLX5_RSS_HASH_KEY_LEN) {
		DRV_LOG(ERR, "port %u: RSS key of %u bytes: it takes %u",
			dev->data->port_id, rss->rss_key_len,
			MLX5_RSS_HASH_KEY_LEN);
		rte_errno = EINVAL;
		return -EINVAL;
	}
	memcpy(priv->rss_key, rss->rss_key != NULL ? rss->rss_key :
	       mlx5_net_rss_key_default, MLX5_RSS_HASH_KEY_LEN);
	priv->rss_hf = dev->data->dev_conf.rxmode.mq_mode &
		       RTE_ETH_MQ_RX_RSS_FLAG ? rss->rss_hf : 0;
	priv->reta_size = mlx5_net_reta_max(priv);
	for (i = 0; i < priv->reta_size; i++)
		priv->reta[i] = dev->data->nb_rx_queues != 0 ?
				i % dev->data->nb_rx_queues : 0;
	/*
	 * ethdev puts rxmode.mtu in data->mtu without calling mtu_set: the
	 * device's MTU follows here (and again at every start).
	 */
	return mlx5_net_mtu_apply(dev, dev->data->mtu);
}

int
mlx5_net_infos_get(struct rte_eth_dev *dev, struct rte_eth_dev_info *info)
{
	struct mlx5_net_priv *priv = dev->data->dev_private;
	const struct mlx5_hca_eth_attr *eth = &priv->cdev->caps.eth;
	struct mlx5_port_link link = { 0 };

	info->min_rx_bufsize = 64;
	info->max_rx_pktlen = 9978 + RTE_ETHER_HDR_LEN + RTE_ETHER_CRC_LEN;
	info->min_mtu = RTE_ETHER_MIN_MTU;
	info->max_mtu = 9978;
	info->max_rx_queues = MLX5_NET_MAX_QUEUES;
	info->max_tx_queues = MLX5_NET_MAX_QUEUES;
	info->max_mac_addrs = MLX5_NET_MAX_MAC;
	info->rx_offload_capa = RTE_ETH_RX_OFFLOAD_SCATTER |
				RTE_ETH_RX_OFFLOAD_RSS_HASH |
				RTE_ETH_RX_OFFLOAD_TIMESTAMP;
	info->tx_offload_capa = RTE_ETH_TX_OFFLOAD_MULTI_SEGS |
				RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE;
	if (eth->csum_cap) {
		info->rx_offload_capa |= RTE_ETH_RX_OFFLOAD_CHECKSUM;
		info->tx_offload_capa |= RTE_ETH_TX_OFFLOAD_IPV4_CKSUM |
					 RTE_ETH_TX_OFFLOAD_UDP_CKSUM |
					 RTE_ETH_TX_OFFLOAD_TCP_CKSUM;
	}
	info->rx_queue_offload_capa = info->rx_offload_capa;
	info->tx_queue_offload_capa = info->tx_offload_capa;
	info->hash_key_size = MLX5_RSS_HASH_KEY_LEN;
	info->reta_size = mlx5_net_reta_max(priv);
	info->flow_type_rss_offloads = MLX5_NET_RSS_HF;
	info->rx_desc_lim = (struct rte_eth_desc_lim){
		.nb_max = MLX5_NET_MAX_DESC,
		.nb_min = MLX5_NET_MIN_DESC,
		.nb_align = 1,
	};
	info->tx_desc_lim = info->rx_desc_lim;
	/* What one WQE holds after the queues' inline header. */
	info->tx_desc_lim.nb_seg_max = mlx5_net_tx_max_segs(priv->txq_inline_min);
	info->tx_desc_lim.nb_mtu_seg_max = info->tx_desc_lim.nb_seg_max;
	info->default_rxportconf.ring_size = 1024;
	info->default_txportconf.ring_size = 1024;
	info->default_rxportconf.nb_queues = 1;
	info->default_txportconf.nb_queues = 1;
	if (rte_eal_process_type() != RTE_PROC_PRIMARY)
		/* The device is the primary's: the link it last reported. */
		link.speed_mbps = dev->data->dev_link.link_speed;
	else if (mlx5_port_link_get(priv->cdev, priv->phys_port, &link) != 0)
		link.speed_mbps = 0;
	if (link.speed_mbps != 0)
		info->speed_capa = rte_eth_speed_bitflag(link.speed_mbps,
							 RTE_ETH_LINK_FULL_DUPLEX);
	info->dev_capa = 0;
	return 0;
}

static int
mlx5_net_link_update(struct rte_eth_dev *dev, int wait)
{
	struct mlx5_net_priv *priv = dev->data->dev_private;
	struct mlx5_port_link link;
	struct rte_eth_link el = { 0 };

	RTE_SET_USED(wait);
	if (mlx5_port_link_get(priv->cdev, priv->phys_port, &link) != 0)
		return -rte_errno;
	el.link_speed = link.up ? link.speed_mbps : RTE_ETH_SPEED_NUM_NONE;
	el.link_duplex = RTE_ETH_LINK_FULL_DUPLEX;
	el.link_status = link.up && priv->started ? RTE_ETH_LINK_UP :
			 RTE_ETH_LINK_DOWN;
	el.link_autoneg = RTE_ETH_LINK_AUTONEG;
	return rte_eth_linkstatus_set(dev, &el);
}

/* The steering rules for the port's current modes (none when stopped). */
static int
mlx5_net_rules_set(struct mlx5_net_priv *priv, bool promisc, bool allmulti)
{
	unsigned int i, n = 0;
	int ret = 0;

	for (i = 0; i < MLX5_NET_RULES; i++)
		mlx5_flow_rx_destroy(&priv->rules[i]);
	if (!priv->started || priv->tir == NULL)
		return 0;
	if (promisc) {
		ret = mlx5_flow_rx_create(priv->cdev, &priv->rules[n++],
					  MLX5_FLOW_RX_ALL, NULL, 0, priv->tir);
	} else {
		ret = mlx5_flow_rx_create(priv->cdev, &priv->rules[n++],
					  MLX5_FLOW_RX_DMAC,
					  priv->mac.addr_bytes, 0, priv->tir);
		/* The added unicast addresses, then the multicast list. */
		for (i = 1; ret == 0 && i < MLX5_NET_MAX_MAC; i++)
			if (!rte_is_zero_ether_addr(&priv->uc[i]))
				ret = mlx5_flow_rx_create(priv->cdev,
					&priv->rules[n++], MLX5_FLOW_RX_DMAC,
					priv->uc[i].addr_bytes, 0, priv->tir);
		for (i = 0; ret == 0 && i < priv->mc_n; i++)
			ret = mlx5_flow_rx_create(priv->cdev,
				&priv->rules[n++], MLX5_FLOW_RX_DMAC,
				priv->mc[i].addr_bytes, 0, priv->tir);
		if (ret == 0)
			ret = mlx5_flow_rx_create(priv->cdev,
						  &priv->rules[n++],
						  MLX5_FLOW_RX_BCAST, NULL, 0,
						  priv->tir);
		if (ret == 0 && allmulti)
			ret = mlx5_flow_rx_create(priv->cdev,
						  &priv->rules[n++],
						  MLX5_FLOW_RX_MCAST, NULL, 1,
						  priv->tir);
	}
	if (ret != 0)
		for (i = 0; i < MLX5_NET_RULES; i++)
			mlx5_flow_rx_destroy(&priv->rules[i]);
	return ret;
}

int
mlx5_net_steering_apply(struct mlx5_net_priv *priv)
{
	struct rte_eth_dev_data *data = priv->eth->data;

	return mlx5_net_rules_set(priv, data->promiscuous != 0,
				  data->all_multicast != 0);
}

/* The RQ numbers of the RETA. */
static int
mlx5_net_reta_rqns(struct mlx5_net_priv *priv, uint32_t *rqns)
{
	struct rte_eth_dev_data *data = priv->eth->data;
	uint16_t i;

	for (i = 0; i < priv->reta_size; i++) {
		struct mlx5_net_rxq *rxq = data->rx_queues[priv->reta[i]];

		if (priv->reta[i] >= data->nb_rx_queues || rxq == NULL) {
			DRV_LOG(ERR, "port %u: RETA entry %u names Rx queue %u,"
				" which is not set up", data->port_id, i,
				priv->reta[i]);
			rte_errno = EINVAL;
			return -EINVAL;
		}
		rqns[i] = mlx5_net_rxq_ctrl_of(rxq)->rq.obj->id;
	}
	return 0;
}

/* The RSS TIR of rss_hf over the RQT. */
static struct mlx5_devx_obj *
mlx5_net_tir_create(struct mlx5_net_priv *priv)
{
	struct mlx5_devx_tir_attr ta = {
		.disp_type = MLX5_TIRC_DISP_TYPE_INDIRECT,
		.indirect_table = priv->rqt->id,
		.rx_hash_fn = MLX5_RX_HASH_FN_TOEPLITZ,
		.transport_domain = priv->td->id,
	};
	uint64_t hf = priv->rss_hf;
	bool v4 = hf & (RTE_ETH_RSS_IPV4 | RTE_ETH_RSS_FRAG_IPV4 |
			RTE_ETH_RSS_NONFRAG_IPV4_TCP |
			RTE_ETH_RSS_NONFRAG_IPV4_UDP |
			RTE_ETH_RSS_NONFRAG_IPV4_OTHER);
	bool udp = hf & (RTE_ETH_RSS_NONFRAG_IPV4_UDP |
			 RTE_ETH_RSS_NONFRAG_IPV6_UDP);
	bool tcp = hf & (RTE_ETH_RSS_NONFRAG_IPV4_TCP |
			 RTE_ETH_RSS_NONFRAG_IPV6_TCP);

	memcpy(ta.rx_hash_toeplitz_key, priv->rss_key, MLX5_RSS_HASH_KEY_LEN);
	/* One hash per port: IPv4 when both families are asked. */
	ta.l3_prot_type = v4 || !(hf & MLX5_NET_RSS_HF) ?
			  MLX5_L3_PROT_TYPE_IPV4 : MLX5_L3_PROT_TYPE_IPV6;
	ta.l4_prot_type = udp || !tcp ? MLX5_L4_PROT_TYPE_UDP :
			  MLX5_L4_PROT_TYPE_TCP;
	if (hf & MLX5_NET_RSS_HF)
		ta.selected_fields = MLX5_HASH_FIELD_SEL_SRC_IP |
				     MLX5_HASH_FIELD_SEL_DST_IP;
	if (udp || tcp)
		ta.selected_fields |= MLX5_HASH_FIELD_SEL_L4_SPORT |
				      MLX5_HASH_FIELD_SEL_L4_DPORT;
	return mlx5_devx_cmd_create_tir(priv->cdev, &ta);
}

static void
mlx5_net_rx_path_destroy(struct mlx5_net_priv *priv)
{
	unsigned int i;

	for (i = 0; i < MLX5_NET_RULES; i++)
		mlx5_flow_rx_destroy(&priv->rules[i]);
	if (priv->tir != NULL && mlx5_devx_cmd_destroy(priv->tir) == 0)
		priv->tir = NULL;
	if (priv->rqt != NULL && mlx5_devx_cmd_destroy(priv->rqt) == 0)
		priv->rqt = NULL;
}

static int
mlx5_net_start(struct rte_eth_dev *dev)
{
	struct mlx5_net_priv *priv = dev->data->dev_private;
	uint32_t rqns[MLX5_NET_RETA_MAX];
	uint16_t i;
	int ret;

	if (dev->data->nb_rx_queues == 0 || dev->data->nb_tx_queues == 0) {
		DRV_LOG(ERR, "port %u: no Rx or no Tx queue",
			dev->data->port_id);
		rte_errno = EINVAL;
		return -EINVAL;
	}
	for (i = 0; i < dev->data->nb_rx_queues; i++)
		if (dev->data->rx_queues[i] == NULL) {
			DRV_LOG(ERR, "port %u: Rx queue %u is not set up",
				dev->data->port_id, i);
			rte_errno = EINVAL;
			return -EINVAL;
		}
	for (i = 0; i < dev->data->nb_tx_queues; i++) {
		struct mlx5_net_txq *txq = dev->data->tx_queues[i];

		if (txq == NULL) {
			DRV_LOG(ERR, "port %u: Tx queue %u is not set up",
				dev->data->port_id, i);
			rte_errno = EINVAL;
			return -EINVAL;
		}
		ret = mlx5_net_txq_rate_apply(txq);
		if (ret != 0)
			return ret;
	}
	/* The configured MTU, checked against the Rx buffers, on the device. */
	ret = mlx5_net_mtu_set(dev, dev->data->mtu);
	if (ret != 0)
		return ret;
	ret = mlx5_net_reta_rqns(priv, rqns);
	if (ret != 0)
		return ret;
	priv->rqt = mlx5_devx_cmd_create_rqt(priv->cdev, rqns, priv->reta_size,
					     priv->reta_size);
	if (priv->rqt == NULL)
		goto error;
	priv->tir = mlx5_net_tir_create(priv);
	if (priv->tir == NULL)
		goto error;
	priv->started = true;
	ret = mlx5_net_steering_apply(priv);
	if (ret != 0)
		goto error;
	/* Every queue starts but those set up with deferred start. */
	for (i = 0; i < dev->data->nb_rx_queues; i++) {
		struct mlx5_net_rxq *rxq = dev->data->rx_queues[i];
		bool deferred = mlx5_net_rxq_ctrl_of(rxq)->deferred;

		ret = deferred ? mlx5_net_rxq_stop(rxq) :
				 mlx5_net_rxq_start(rxq);
		if (ret != 0)
			goto error;
		dev->data->rx_queue_state[i] = deferred ?
			RTE_ETH_QUEUE_STATE_STOPPED :
			RTE_ETH_QUEUE_STATE_STARTED;
	}
	for (i = 0; i < dev->data->nb_tx_queues; i++) {
		struct mlx5_net_txq *txq = dev->data->tx_queues[i];
		bool deferred = mlx5_net_txq_ctrl_of(txq)->deferred;

		ret = deferred ? mlx5_net_txq_stop(txq) :
				 mlx5_net_txq_start(txq);
		if (ret != 0)
			goto error;
		dev->data->tx_queue_state[i] = deferred ?
			RTE_ETH_QUEUE_STATE_STOPPED :
			RTE_ETH_QUEUE_STATE_STARTED;
	}
	/* The Rx burst for the offloads of the queues (fixed until stop). */
	dev->rx_pkt_burst = mlx5_net_rx_burst_fn(priv, false);
	mlx5_net_link_update(dev, 0);
	return 0;
error:
	ret = -rte_errno;
	DRV_LOG(ERR, "port %u: start failed: %s", dev->data->port_id,
		rte_strerror(rte_errno));
	priv->started = false;
	mlx5_net_rx_path_destroy(priv);
	rte_errno = -ret;
	return ret;
}

static int
mlx5_net_stop(struct rte_eth_dev *dev)
{
	struct mlx5_net_priv *priv = dev->data->dev_private;
	uint16_t i;

	priv->started = false;
	mlx5_net_rx_path_destroy(priv);
	for (i = 0; i < dev->data->nb_rx_queues; i++)
		dev->data->rx_queue_state[i] = RTE_ETH_QUEUE_STATE_STOPPED;
	for (i = 0; i < dev->data->nb_tx_queues; i++)
		dev->data->tx_queue_state[i] = RTE_ETH_QUEUE_STATE_STOPPED;
	mlx5_net_link_update(dev, 0);
	return 0;
}

/* Free everything the port holds on the device. */
void
mlx5_net_release(struct mlx5_net_priv *priv)
{
	struct rte_eth_dev_data *data = priv->eth->data;
	uint16_t i;

	priv->started = false;
	mlx5_net_rx_path_destroy(priv);
	for (i = 0; i < data->nb_rx_queues; i++)
		mlx5_net_rx_queue_release(priv->eth, i);
	for (i = 0; i < data->nb_tx_queues; i++)
		mlx5_net_tx_queue_release(priv->eth, i);
	if (priv->qcnt != NULL && mlx5_devx_cmd_destroy(priv->qcnt) == 0)
		priv->qcnt = NULL;
	while (priv->n_tis > 0 &&
	       mlx5_devx_cmd_destroy(priv->tis[priv->n_tis - 1]) == 0)
		priv->tis[--priv->n_tis] = NULL;
	if (priv->td != NULL && mlx5_devx_cmd_destroy(priv->td) == 0)
		priv->td = NULL;
	mlx5_uar_release(priv->cdev, &priv->uar);
}

static int
mlx5_net_close(struct rte_eth_dev *dev)
{
	struct mlx5_net_priv *priv = dev->data->dev_private;

	if (rte_eal_process_type() != RTE_PROC_PRIMARY)
		return 0;
	/* ethdev frees the port id after a close. */
	mlx5_class_dev_info_del(priv->cdev, MLX5_CLASS_ETH, dev->data->port_id);
	mlx5_net_release(priv);
	return 0;
}

static int
mlx5_net_promisc(struct rte_eth_dev *dev, bool on)
{
	struct mlx5_net_priv *priv = dev->data->dev_private;

	return mlx5_net_rules_set(priv, on, dev->data->all_multicast != 0);
}

static int
mlx5_net_promisc_on(struct rte_eth_dev *dev)
{
	return mlx5_net_promisc(dev, true);
}

static int
mlx5_net_promisc_off(struct rte_eth_dev *dev)
{
	return mlx5_net_promisc(dev, false);
}

static int
mlx5_net_allmulti(struct rte_eth_dev *dev, bool on)
{
	struct mlx5_net_priv *priv = dev->data->dev_private;

	return mlx5_net_rules_set(priv, dev->data->promiscuous != 0, on);
}

static int
mlx5_net_allmulti_on(struct rte_eth_dev *dev)
{
	return mlx5_net_allmulti(dev, true);
}

static int
mlx5_net_allmulti_off(struct rte_eth_dev *dev)
{
	return mlx5_net_allmulti(dev, false);
}

static int
mlx5_net_mac_set(struct rte_eth_dev *dev, struct rte_ether_addr *mac)
{
	struct mlx5_net_priv *priv = dev->data->dev_private;
	struct rte_ether_addr old = priv->mac;
	int ret;

	if (!rte_is_unicast_ether_addr(mac)) {
		DRV_LOG(ERR, "port %u: a MAC address must be unicast",
			dev->data->port_id);
		return -EINVAL;
	}
	priv->mac = *mac;
	ret = mlx5_net_steering_apply(priv);
	if (ret != 0) {
		priv->mac = old;
		mlx5_net_steering_apply(priv);
	}
	return ret;
}

static int
mlx5_net_mtu_set(struct rte_eth_dev *dev, uint16_t mtu)
{
	uint32_t frame = mtu + RTE_ETHER_HDR_LEN + RTE_VLAN_HLEN;
	uint16_t i;

	for (i = 0; i < dev->data->nb_rx_queues; i++) {
		struct mlx5_net_rxq *rxq = dev->data->rx_queues[i];

		if (rxq != NULL &&
		    frame > (rxq->seg_len << rxq->log_sges)) {
			DRV_LOG(ERR, "port %u: MTU %u: frames would not fit the"
				" buffers of Rx queue %u (%u bytes): set the"
				" queues up again", dev->data->port_id, mtu, i,
				rxq->seg_len << rxq->log_sges);
			return -EINVAL;
		}
	}
	return mlx5_net_mtu_apply(dev, mtu);
}

/*
 * Drops for want of a posted WQE: the queue counter (32 bits, wrapping),
 * read and cleared in one command, summed here.
 */
uint64_t
mlx5_net_imissed(struct rte_eth_dev *dev)
{
	struct mlx5_net_priv *priv = dev->data->dev_private;
	struct mlx5_devx_q_counter_info info;
	uint64_t v;

	if (rte_eal_process_type() != RTE_PROC_PRIMARY)
		/* The counter is the primary's to read; the sum is shared. */
		return mlx5_net_mp_ask(dev->data->port_id, MLX5_NET_MP_IMISSED,
				       0, &v) == 0 ? v : priv->imissed;
	if (priv->qcnt != NULL &&
	    mlx5_devx_cmd_queue_counter_query(priv->qcnt, true, &info) == 0)
		priv->imissed += info.out_of_buffer;
	return priv->imissed;
}

int
mlx5_net_stats_get(struct rte_eth_dev *dev, struct rte_eth_stats *st)
{
	uint16_t i;

	memset(st, 0, sizeof(*st));
	for (i = 0; i < dev->data->nb_rx_queues; i++) {
		struct mlx5_net_rxq *rxq = dev->data->rx_queues[i];

		if (rxq == NULL)
			continue;
		st->ipackets += rxq->st.packets;
		st->ibytes += rxq->st.bytes;
		st->ierrors += rxq->st.errors;
		st->rx_nombuf += rxq->st.nombuf;
		if (i < RTE_ETHDEV_QUEUE_STAT_CNTRS) {
			st->q_ipackets[i] = rxq->st.packets;
			st->q_ibytes[i] = rxq->st.bytes;
			st->q_errors[i] = rxq->st.errors;
		}
	}
	for (i = 0; i < dev->data->nb_tx_queues; i++) {
		struct mlx5_net_txq *txq = dev->data->tx_queues[i];

		if (txq == NULL)
			continue;
		st->opackets += txq->st.packets;
		st->obytes += txq->st.bytes;
		st->oerrors += txq->st.errors;
		if (i < RTE_ETHDEV_QUEUE_STAT_CNTRS) {
			st->q_opackets[i] = txq->st.packets;
			st->q_obytes[i] = txq->st.bytes;
		}
	}
	st->imissed = mlx5_net_imissed(dev);
	return 0;
}

int
mlx5_net_stats_reset(struct rte_eth_dev *dev)
{
	struct mlx5_net_priv *priv = dev->data->dev_private;
	uint16_t i;

	for (i = 0; i < dev->data->nb_rx_queues; i++) {
		struct mlx5_net_rxq *rxq = dev->data->rx_queues[i];

		if (rxq != NULL)
			memset(&rxq->st, 0, sizeof(rxq->st));
	}
	for (i = 0; i < dev->data->nb_tx_queues; i++) {
		struct mlx5_net_txq *txq = dev->data->tx_queues[i];

		if (txq != NULL)
			memset(&txq->st, 0, sizeof(txq->st));
	}
	dev->data->rx_mbuf_alloc_failed = 0;
	mlx5_net_imissed(dev);
	priv->imissed = 0;
	return 0;
}

/* Extended statistics: the port's, then each queue's. */
enum {
	MLX5_NET_XS_OOB,
	MLX5_NET_XS_PORT_N,
};
/*
 * Per queue: Rx errors are ethdev's own rx_q<n>_errors (q_errors); then
 * the error completions by cause (mlx5_net_err_cause_names); Tx also the
 * packets flushed behind a failed WQE and those refused before the device.
 */
static const char *const mlx5_net_xs_rx[] = {
	"recoveries", "nombuf",
};
static const char *const mlx5_net_xs_tx[] = {
	"errors", "recoveries", "flushed", "refused",
};
#define MLX5_NET_XS_RXQ (RTE_DIM(mlx5_net_xs_rx) + MLX5_NET_ERR_CAUSES)
#define MLX5_NET_XS_TXQ (RTE_DIM(mlx5_net_xs_tx) + MLX5_NET_ERR_CAUSES)

static unsigned int
mlx5_net_xstats_n(const struct rte_eth_dev *dev)
{
	return MLX5_NET_XS_PORT_N + dev->data->nb_rx_queues * MLX5_NET_XS_RXQ +
	       dev->data->nb_tx_queues * MLX5_NET_XS_TXQ;
}

int
mlx5_net_xstats_names(struct rte_eth_dev *dev,
		      struct rte_eth_xstat_name *names, unsigned int size)
{
	unsigned int n = mlx5_net_xstats_n(dev);
	unsigned int i, q, k = 0;

	if (names == NULL || size < n)
		return (int)n;
	snprintf(names[k++].name, RTE_ETH_XSTATS_NAME_SIZE,
		 "rx_out_of_buffer");
	for (q = 0; q < dev->data->nb_rx_queues; q++) {
		for (i = 0; i < RTE_DIM(mlx5_net_xs_rx); i++)
			snprintf(names[k++].name, RTE_ETH_XSTATS_NAME_SIZE,
				 "rx_q%u_%s", q, mlx5_net_xs_rx[i]);
		for (i = 0; i < MLX5_NET_ERR_CAUSES; i++)
			snprintf(names[k++].name, RTE_ETH_XSTATS_NAME_SIZE,
				 "rx_q%u_%s", q, mlx5_net_err_cause_names[i]);
	}
	for (q = 0; q < dev->data->nb_tx_queues; q++) {
		for (i = 0; i < RTE_DIM(mlx5_net_xs_tx); i++)
			snprintf(names[k++].name, RTE_ETH_XSTATS_NAME_SIZE,
				 "tx_q%u_%s", q, mlx5_net_xs_tx[i]);
		for (i = 0; i < MLX5_NET_ERR_CAUSES; i++)
			snprintf(names[k++].name, RTE_ETH_XSTATS_NAME_SIZE,
				 "tx_q%u_%s", q, mlx5_net_err_cause_names[i]);
	}
	return (int)n;
}

/* Append @cnt values to @xs from index *@k. */
static void
mlx5_net_xs_put(struct rte_eth_xstat *xs, unsigned int *k,
		const uint64_t *v, unsigned int cnt)
{
	for (unsigned int i = 0; i < cnt; i++, (*k)++) {
		xs[*k].id = *k;
		xs[*k].value = v[i];
	}
}

int
mlx5_net_xstats_get(struct rte_eth_dev *dev, struct rte_eth_xstat *xs,
		    unsigned int size)
{
	static const uint64_t none[MLX5_NET_ERR_CAUSES];
	unsigned int n = mlx5_net_xstats_n(dev);
	unsigned int q, k = 0;
	uint64_t oob;

	if (xs == NULL || size < n)
		return (int)n;
	oob = mlx5_net_imissed(dev);
	mlx5_net_xs_put(xs, &k, &oob, 1);
	for (q = 0; q < dev->data->nb_rx_queues; q++) {
		struct mlx5_net_rxq *rxq = dev->data->rx_queues[q];
		uint64_t v[] = {
			rxq != NULL ? rxq->st.recoveries : 0,
			rxq != NULL ? rxq->st.nombuf : 0,
		};

		mlx5_net_xs_put(xs, &k, v, RTE_DIM(v));
		mlx5_net_xs_put(xs, &k, rxq != NULL ? rxq->st.err_cause : none,
				MLX5_NET_ERR_CAUSES);
	}
	for (q = 0; q < dev->data->nb_tx_queues; q++) {
		struct mlx5_net_txq *txq = dev->data->tx_queues[q];
		uint64_t v[] = {
			txq != NULL ? txq->st.errors : 0,
			txq != NULL ? txq->st.recoveries : 0,
			txq != NULL ? txq->st.flushed : 0,
			txq != NULL ? txq->st.refused : 0,
		};

		mlx5_net_xs_put(xs, &k, v, RTE_DIM(v));
		mlx5_net_xs_put(xs, &k, txq != NULL ? txq->st.err_cause : none,
				MLX5_NET_ERR_CAUSES);
	}
	return (int)n;
}

static int
mlx5_net_rss_update(struct rte_eth_dev *dev, struct rte_eth_rss_conf *conf)
{
	struct mlx5_net_priv *priv = dev->data->dev_private;
	uint8_t key[MLX5_RSS_HASH_KEY_LEN];
	uint64_t hf = priv->rss_hf;
	struct mlx5_devx_obj *tir, *old;
	int ret;

	if (conf->rss_key != NULL &&
	    conf->rss_key_len != MLX5_RSS_HASH_KEY_LEN) {
		DRV_LOG(ERR, "port %u: RSS key of %u bytes: it takes %u",
			dev->data->port_id, conf->rss_key_len,
			MLX5_RSS_HASH_KEY_LEN);
		return -EINVAL;
	}
	if (conf->rss_hf & ~MLX5_NET_RSS_HF) {
		DRV_LOG(ERR, "port %u: RSS types 0x%" PRIx64 " not supported",
			dev->data->port_id, conf->rss_hf & ~MLX5_NET_RSS_HF);
		return -EINVAL;
	}
	memcpy(key, priv->rss_key, sizeof(key));
	if (conf->rss_key != NULL)
		memcpy(priv->rss_key, conf->rss_key, sizeof(key));
	priv->rss_hf = conf->rss_hf;
	if (!priv->started)
		return 0;
	/* A new TIR, then the rules to it, then the old one goes. */
	tir = mlx5_net_tir_create(priv);
	if (tir == NULL) {
		ret = -rte_errno;
		goto undo;
	}
	old = priv->tir;
	priv->tir = tir;
	ret = mlx5_net_steering_apply(priv);
	if (ret != 0) {
		priv->tir = old;
		mlx5_net_steering_apply(priv);
		mlx5_devx_cmd_destroy(tir);
		goto undo;
	}
	mlx5_devx_cmd_destroy(old);
	return 0;
undo:
	memcpy(priv->rss_key, key, sizeof(key));
	priv->rss_hf = hf;
	return ret;
}

int
mlx5_net_rss_conf_get(struct rte_eth_dev *dev, struct rte_eth_rss_conf *conf)
{
	struct mlx5_net_priv *priv = dev->data->dev_private;

	if (conf->rss_key != NULL) {
		if (conf->rss_key_len < MLX5_RSS_HASH_KEY_LEN)
			return -EINVAL;
		memcpy(conf->rss_key, priv->rss_key, MLX5_RSS_HASH_KEY_LEN);
	}
	conf->rss_key_len = MLX5_RSS_HASH_KEY_LEN;
	conf->rss_hf = priv->rss_hf;
	return 0;
}

static int
mlx5_net_reta_update(struct rte_eth_dev *dev,
		     struct rte_eth_rss_reta_entry64 *conf, uint16_t size)
{
	struct mlx5_net_priv *priv = dev->data->dev_private;
	uint16_t old[MLX5_NET_RETA_MAX];
	uint32_t rqns[MLX5_NET_RETA_MAX];
	uint16_t i;
	int ret;

	if (size != priv->reta_size) {
		DRV_LOG(ERR, "port %u: RETA of %u entries: it has %u",
			dev->data->port_id, size, priv->reta_size);
		return -EINVAL;
	}
	memcpy(old, priv->reta, sizeof(old));
	for (i = 0; i < size; i++) {
		const struct rte_eth_rss_reta_entry64 *c =
			&conf[i / RTE_ETH_RETA_GROUP_SIZE];
		unsigned int b = i % RTE_ETH_RETA_GROUP_SIZE;

		if (!(c->mask & RTE_BIT64(b)))
			continue;
		if (c->reta[b] >= dev->data->nb_rx_queues) {
			DRV_LOG(ERR, "port %u: RETA entry %u: Rx queue %u of"
				" %u", dev->data->port_id, i, c->reta[b],
				dev->data->nb_rx_queues);
			memcpy(priv->reta, old, sizeof(old));
			return -EINVAL;
		}
		priv->reta[i] = c->reta[b];
	}
	if (!priv->started)
		return 0;
	ret = mlx5_net_reta_rqns(priv, rqns);
	if (ret == 0)
		ret = mlx5_devx_cmd_modify_rqt(priv->rqt, rqns, size, size);
	if (ret != 0)
		memcpy(priv->reta, old, sizeof(old));
	return ret;
}

int
mlx5_net_reta_query(struct rte_eth_dev *dev,
		    struct rte_eth_rss_reta_entry64 *conf, uint16_t size)
{
	struct mlx5_net_priv *priv = dev->data->dev_private;
	uint16_t i;

	if (size != priv->reta_size)
		return -EINVAL;
	for (i = 0; i < size; i++) {
		struct rte_eth_rss_reta_entry64 *c =
			&conf[i / RTE_ETH_RETA_GROUP_SIZE];
		unsigned int b = i % RTE_ETH_RETA_GROUP_SIZE;

		if (c->mask & RTE_BIT64(b))
			c->reta[b] = priv->reta[i];
	}
	return 0;
}

static int
mlx5_net_rate_limit(struct rte_eth_dev *dev, uint16_t idx, uint32_t mbps)
{
	struct mlx5_net_priv *priv = dev->data->dev_private;
	struct mlx5_net_txq_ctrl *ctrl;
	uint32_t old;
	int ret;

	/* ethdev lets idx == nb_tx_queues through in 22.11. */
	if (idx >= dev->data->nb_tx_queues ||
	    dev->data->tx_queues[idx] == NULL) {
		DRV_LOG(ERR, "port %u: Tx queue %u does not exist",
			dev->data->port_id, idx);
		return -EINVAL;
	}
	ctrl = mlx5_net_txq_ctrl_of(dev->data->tx_queues[idx]);
	old = ctrl->rate_mbps;
	ctrl->rate_mbps = mbps;
	if (!priv->started)
		return 0;
	ret = mlx5_net_txq_rate_apply(&ctrl->txq);
	if (ret != 0)
		ctrl->rate_mbps = old;
	return ret;
}

/*
 * Start or stop Rx (@rx) or Tx queue @q. Queue control changes device
 * objects: the primary process's.
 */
static int
mlx5_net_queue_ctl(struct rte_eth_dev *dev, uint16_t q, bool rx, bool start)
{
	int ret;

	if (rte_eal_process_type() != RTE_PROC_PRIMARY) {
		DRV_LOG(ERR, "port %u: %s queue %u %s is done by the primary process",
			dev->data->port_id, rx ? "Rx" : "Tx", q,
			start ? "start" : "stop");
		rte_errno = ENOTSUP;
		return -ENOTSUP;
	}
	if (rx)
		ret = start ? mlx5_net_rxq_start(dev->data->rx_queues[q]) :
			      mlx5_net_rxq_stop(dev->data->rx_queues[q]);
	else
		ret = start ? mlx5_net_txq_start(dev->data->tx_queues[q]) :
			      mlx5_net_txq_stop(dev->data->tx_queues[q]);
	if (ret == 0)
		(rx ? dev->data->rx_queue_state :
		      dev->data->tx_queue_state)[q] = start ?
			RTE_ETH_QUEUE_STATE_STARTED :
			RTE_ETH_QUEUE_STATE_STOPPED;
	return ret;
}

static int
mlx5_net_rx_queue_start(struct rte_eth_dev *dev, uint16_t q)
{
	return mlx5_net_queue_ctl(dev, q, true, true);
}

static int
mlx5_net_rx_queue_stop(struct rte_eth_dev *dev, uint16_t q)
{
	return mlx5_net_queue_ctl(dev, q, true, false);
}

static int
mlx5_net_tx_queue_start(struct rte_eth_dev *dev, uint16_t q)
{
	return mlx5_net_queue_ctl(dev, q, false, true);
}

static int
mlx5_net_tx_queue_stop(struct rte_eth_dev *dev, uint16_t q)
{
	return mlx5_net_queue_ctl(dev, q, false, false);
}

/*
 * Apply a change of the receive addresses: the rules again, or the old
 * addresses back (@undo) and their rules if the device refused.
 */
static int
mlx5_net_addrs_apply(struct mlx5_net_priv *priv, void (*undo)(
		     struct mlx5_net_priv *priv, const void *saved),
		     const void *saved)
{
	int ret = mlx5_net_steering_apply(priv);

	if (ret != 0) {
		DRV_LOG(ERR, "port %u: the device refused the receive rules of the new addresses: %s",
			priv->eth->data->port_id, rte_strerror(rte_errno));
		undo(priv, saved);
		mlx5_net_steering_apply(priv);
	}
	return ret;
}

static void
mlx5_net_uc_undo(struct mlx5_net_priv *priv, const void *saved)
{
	memcpy(priv->uc, saved, sizeof(priv->uc));
}

static int
mlx5_net_mac_addr_add(struct rte_eth_dev *dev, struct rte_ether_addr *mac,
		      uint32_t index, uint32_t vmdq)
{
	struct mlx5_net_priv *priv = dev->data->dev_private;
	struct rte_ether_addr saved[MLX5_NET_MAX_MAC];

	RTE_SET_USED(vmdq);
	if (index == 0 || index >= MLX5_NET_MAX_MAC ||
	    !rte_is_unicast_ether_addr(mac)) {
		DRV_LOG(ERR, "port %u: MAC address index %u (1..%u) or a group address",
			dev->data->port_id, index, MLX5_NET_MAX_MAC - 1);
		rte_errno = EINVAL;
		return -EINVAL;
	}
	memcpy(saved, priv->uc, sizeof(saved));
	priv->uc[index] = *mac;
	return mlx5_net_addrs_apply(priv, mlx5_net_uc_undo, saved);
}

static void
mlx5_net_mac_addr_remove(struct rte_eth_dev *dev, uint32_t index)
{
	struct mlx5_net_priv *priv = dev->data->dev_private;
	struct rte_ether_addr saved[MLX5_NET_MAX_MAC];

	if (index == 0 || index >= MLX5_NET_MAX_MAC)
		return;
	memcpy(saved, priv->uc, sizeof(saved));
	memset(&priv->uc[index], 0, sizeof(priv->uc[index]));
	mlx5_net_addrs_apply(priv, mlx5_net_uc_undo, saved);
}

/* The multicast list before a change. */
struct mlx5_net_mc_saved {
	struct rte_ether_addr mc[MLX5_NET_MAX_MC];
	uint32_t n;
};

static void
mlx5_net_mc_undo(struct mlx5_net_priv *priv, const void *saved)
{
	const struct mlx5_net_mc_saved *s = saved;

	memcpy(priv->mc, s->mc, sizeof(priv->mc));
	priv->mc_n = s->n;
}

static int
mlx5_net_set_mc_addr_list(struct rte_eth_dev *dev,
			  struct rte_ether_addr *list, uint32_t n)
{
	struct mlx5_net_priv *priv = dev->data->dev_private;
	struct mlx5_net_mc_saved saved;
	uint32_t i;

	if (n > MLX5_NET_MAX_MC || (n != 0 && list == NULL)) {
		DRV_LOG(ERR, "port %u: %u multicast addresses: at most %u",
			dev->data->port_id, n, MLX5_NET_MAX_MC);
		rte_errno = ENOSPC;
		return -ENOSPC;
	}
	for (i = 0; i < n; i++)
		if (!rte_is_multicast_ether_addr(&list[i])) {
			DRV_LOG(ERR, "port %u: multicast list entry %u is not a group address",
				dev->data->port_id, i);
			rte_errno = EINVAL;
			return -EINVAL;
		}
	memcpy(saved.mc, priv->mc, sizeof(saved.mc));
	saved.n = priv->mc_n;
	if (n != 0)
		memcpy(priv->mc, list, n * sizeof(*list));
	priv->mc_n = n;
	return mlx5_net_addrs_apply(priv, mlx5_net_mc_undo, &saved);
}

/* The port administratively up or down: the link partner sees it too. */
static int
mlx5_net_link_set(struct rte_eth_dev *dev, bool up)
{
	struct mlx5_net_priv *priv = dev->data->dev_private;
	int ret;

	if (rte_eal_process_type() != RTE_PROC_PRIMARY) {
		DRV_LOG(ERR, "port %u: link up/down is done by the primary process",
			dev->data->port_id);
		rte_errno = ENOTSUP;
		return -ENOTSUP;
	}
	ret = mlx5_port_link_set(priv->cdev, priv->phys_port, up);
	mlx5_net_link_update(dev, 0);
	return ret;
}

static int
mlx5_net_set_link_up(struct rte_eth_dev *dev)
{
	return mlx5_net_link_set(dev, true);
}

static int
mlx5_net_set_link_down(struct rte_eth_dev *dev)
{
	return mlx5_net_link_set(dev, false);
}

static void
mlx5_net_rxq_info_get(struct rte_eth_dev *dev, uint16_t q,
		      struct rte_eth_rxq_info *qinfo)
{
	struct mlx5_net_rxq *rxq = dev->data->rx_queues[q];

	qinfo->mp = rxq->mp;
	qinfo->scattered_rx = rxq->scatter;
	qinfo->nb_desc = (uint16_t)(1u << (rxq->log_wqe_n + rxq->log_sges));
	qinfo->rx_buf_size = (uint16_t)rxq->seg_len;
	qinfo->queue_state = dev->data->rx_queue_state[q];
	qinfo->conf.rx_deferred_start = mlx5_net_rxq_ctrl_of(rxq)->deferred;
	qinfo->conf.offloads = dev->data->dev_conf.rxmode.offloads |
		(rxq->scatter ? RTE_ETH_RX_OFFLOAD_SCATTER : 0) |
		(rxq->csum ? RTE_ETH_RX_OFFLOAD_CHECKSUM : 0) |
		(rxq->rss_hash ? RTE_ETH_RX_OFFLOAD_RSS_HASH : 0) |
		(rxq->ts_offset >= 0 ? RTE_ETH_RX_OFFLOAD_TIMESTAMP : 0);
}

static void
mlx5_net_txq_info_get(struct rte_eth_dev *dev, uint16_t q,
		      struct rte_eth_txq_info *qinfo)
{
	struct mlx5_net_txq *txq = dev->data->tx_queues[q];

	qinfo->nb_desc = (uint16_t)txq->wqe_n;
	qinfo->queue_state = dev->data->tx_queue_state[q];
	qinfo->conf.tx_deferred_start = mlx5_net_txq_ctrl_of(txq)->deferred;
	qinfo->conf.offloads = dev->data->dev_conf.txmode.offloads |
		(txq->fast_free ? RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE : 0);
}

static int
mlx5_net_rx_burst_mode_get(struct rte_eth_dev *dev, uint16_t q,
			   struct rte_eth_burst_mode *mode)
{
	struct mlx5_net_rxq *rxq = dev->data->rx_queues[q];
	struct mlx5_net_priv *priv = dev->data->dev_private;

	if (rxq->scatter)
		snprintf(mode->info, sizeof(mode->info),
			 "Scalar, scattered (general path)");
	else
		snprintf(mode->info, sizeof(mode->info), "%s, %s",
			 priv->rx_vec ? "Vector, one mbuf per frame (rounds of"
					" four good CQEs)" :
					"Scalar, one mbuf per frame (fast path"
					" for runs of good CQEs)",
			 mlx5_net_rx_burst_name(priv,
						rte_eal_process_type() !=
							RTE_PROC_PRIMARY));
	return 0;
}

static int
mlx5_net_tx_burst_mode_get(struct rte_eth_dev *dev, uint16_t q,
			   struct rte_eth_burst_mode *mode)
{
	struct mlx5_net_txq *txq = dev->data->tx_queues[q];

	if (txq->inline_hdr != 0)
		snprintf(mode->info, sizeof(mode->info),
			 "Scalar, one WQE per packet, %u bytes inline",
			 txq->inline_hdr);
	else if (txq->empw)
		snprintf(mode->info, sizeof(mode->info), "%s",
			 "Scalar, enhanced multi-packet WQEs (up to "
			 RTE_STR(MLX5_NET_TX_EMPW_MAX) " packets a WQE)");
	else
		snprintf(mode->info, sizeof(mode->info), "%s",
			 "Scalar, one WQE per packet (fast path: one-block WQEs)");
	return 0;
}

const struct eth_dev_ops mlx5_net_ops = {
	.dev_configure = mlx5_net_configure,
	.dev_infos_get = mlx5_net_infos_get,
	.dev_start = mlx5_net_start,
	.dev_stop = mlx5_net_stop,
	.dev_close = mlx5_net_close,
	.link_update = mlx5_net_link_update,
	.dev_set_link_up = mlx5_net_set_link_up,
	.dev_set_link_down = mlx5_net_set_link_down,
	.promiscuous_enable = mlx5_net_promisc_on,
	.promiscuous_disable = mlx5_net_promisc_off,
	.allmulticast_enable = mlx5_net_allmulti_on,
	.allmulticast_disable = mlx5_net_allmulti_off,
	.mac_addr_set = mlx5_net_mac_set,
	.mac_addr_add = mlx5_net_mac_addr_add,
	.mac_addr_remove = mlx5_net_mac_addr_remove,
	.set_mc_addr_list = mlx5_net_set_mc_addr_list,
	.mtu_set = mlx5_net_mtu_set,
	.stats_get = mlx5_net_stats_get,
	.stats_reset = mlx5_net_stats_reset,
	.xstats_get = mlx5_net_xstats_get,
	.xstats_get_names = mlx5_net_xstats_names,
	.xstats_reset = mlx5_net_stats_reset,
	.rss_hash_update = mlx5_net_rss_update,
	.rss_hash_conf_get = mlx5_net_rss_conf_get,
	.reta_update = mlx5_net_reta_update,
	.reta_query = mlx5_net_reta_query,
	.set_queue_rate_limit = mlx5_net_rate_limit,
	.dev_supported_ptypes_get = mlx5_net_ptypes,
	.rx_queue_setup = mlx5_net_rx_queue_setup,
	.rx_queue_release = mlx5_net_rx_queue_release,
	.tx_queue_setup = mlx5_net_tx_queue_setup,
	.tx_queue_release = mlx5_net_tx_queue_release,
	.rx_queue_start = mlx5_net_rx_queue_start,
	.rx_queue_stop = mlx5_net_rx_queue_stop,
	.tx_queue_start = mlx5_net_tx_queue_start,
	.tx_queue_stop = mlx5_net_tx_queue_stop,
	.rxq_info_get = mlx5_net_rxq_info_get,
	.txq_info_get = mlx5_net_txq_info_get,
	.rx_burst_mode_get = mlx5_net_rx_burst_mode_get,
	.tx_burst_mode_get = mlx5_net_tx_burst_mode_get,
};
