/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * The net class driver's entry points, the top of the PMD: probe (an
 * ethdev port on a common device: devargs, vport MAC and MTU, UAR, TD and
 * TISes, queue counter, the ethdev ops of mlx5_net_ethdev.c), remove, and
 * in a secondary process the attach of mlx5_net_mp.c; the registration
 * with the common layer (the class driver, its multi-process requests) and
 * the PMD info. May call every file of the PMD; none calls it.
 */

#include <errno.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_malloc.h>

#include "mlx5_net.h"

/*
 * The Tx queues' TISes: one per port of a LAG device that lets a TIS
 * choose its port (lag_tx_port_affinity 1..n), else one for any port.
 */
static int
mlx5_net_tis_create(struct mlx5_net_priv *priv)
{
	const struct mlx5_hca_attr *caps = &priv->cdev->caps;
	unsigned int n = caps->num_lag_ports > 1 && caps->lag_tx_port_affinity ?
			 RTE_MIN(caps->num_lag_ports, MLX5_NET_MAX_TIS) : 1;

	for (unsigned int i = 0; i < n; i++) {
		struct mlx5_devx_obj *tis = mlx5_devx_cmd_create_tis(priv->cdev,
			&(struct mlx5_devx_tis_attr){
				.transport_domain = priv->td->id,
				.lag_tx_port_affinity = n > 1 ? i + 1 : 0,
			});

		if (tis == NULL)
			return -rte_errno;
		priv->tis[priv->n_tis++] = tis;
	}
	if (n > 1)
		DRV_LOG(INFO, "%s: LAG of %u ports: Tx queue i leaves by port 1 + i %% %u",
			priv->cdev->dev->name, n, n);
	return 0;
}

/* Devargs of the PMD (the names DPDK's net/mlx5 gives them). */
static int
mlx5_net_devarg(const char *key, const char *value, void *opaque)
{
	struct mlx5_net_priv *priv = opaque;
	uint64_t v;
	int ret;

	if (strcmp(key, "txq_inline_min") == 0) {
		ret = mlx5_kvarg_parse_uint(key, value, 0,
					    MLX5_NET_TX_INLINE_MAX, &v);
		priv->txq_inline_min = (uint16_t)v;
		return ret;
	}
	if (strcmp(key, "rxq_cqe_comp_en") == 0) {
		ret = mlx5_kvarg_parse_uint(key, value, 0, 1, &v);
		priv->rxq_cqe_comp = v != 0;
		return ret;
	}
	if (strcmp(key, "txq_mpw_en") == 0) {
		ret = mlx5_kvarg_parse_uint(key, value, 0, 1, &v);
		priv->txq_empw = v != 0;
		return ret;
	}
	if (strcmp(key, "rx_vec_en") == 0) {
		ret = mlx5_kvarg_parse_uint(key, value, 0, 1, &v);
		priv->rx_vec = v != 0;
		return ret;
	}
	rte_errno = EINVAL;
	return -EINVAL;
}

static int
mlx5_net_probe(struct mlx5_common_device *cdev, struct mlx5_kvargs_ctrl *kv)
{
	static const char *const keys[] = { "txq_inline_min",
					    "rxq_cqe_comp_en", "txq_mpw_en",
					    "rx_vec_en", NULL };
	struct mlx5_nic_vport_info vport;
	struct mlx5_port_link link;
	struct mlx5_net_priv *priv;
	struct rte_eth_dev *eth;
	int ret;

	if (cdev->secondary)
		return mlx5_net_probe_secondary(cdev);
	if (!cdev->caps.eth.sup) {
		DRV_LOG(ERR, "%s: the device has no Ethernet offloads block",
			cdev->dev->name);
		rte_errno = ENOTSUP;
		return -ENOTSUP;
	}
	eth = rte_eth_dev_allocate(cdev->dev->name);
	if (eth == NULL) {
		DRV_LOG(ERR, "%s: no ethdev port left", cdev->dev->name);
		rte_errno = ENOMEM;
		return -ENOMEM;
	}
	priv = rte_zmalloc("mlx5_net_priv", sizeof(*priv), RTE_CACHE_LINE_SIZE);
	eth->data->mac_addrs = rte_zmalloc("mlx5_net_mac",
		sizeof(struct rte_ether_addr) * MLX5_NET_MAX_MAC, 0);
	if (priv == NULL || eth->data->mac_addrs == NULL) {
		rte_free(priv);
		rte_errno = ENOMEM;
		ret = -ENOMEM;
		goto error;
	}
	eth->data->dev_private = priv;
	priv->cdev = cdev;
	priv->eth = eth;
	priv->phys_port = 1;
	priv->ts_offset = -1;
	/* CQE compression where the device has it, as DPDK's default. */
	priv->rxq_cqe_comp = true;
	/* Enhanced multi-packet send where the device has it, as DPDK's. */
	priv->txq_empw = true;
	/* The vector Rx burst, as DPDK's default. */
	priv->rx_vec = true;
	ret = mlx5_kvargs_process(kv, keys, mlx5_net_devarg, priv);
	if (ret != 0)
		goto error;
	if (priv->rxq_cqe_comp && cdev->caps.cqe_comp_max == 0) {
		DRV_LOG(DEBUG, "%s: the device does not compress CQEs",
			cdev->dev->name);
		priv->rxq_cqe_comp = false;
	}
	if (priv->txq_empw && !cdev->caps.eth.empw) {
		DRV_LOG(DEBUG, "%s: the device has no enhanced multi-packet"
			" send", cdev->dev->name);
		priv->txq_empw = false;
	}
	DRV_LOG(DEBUG, "%s: devargs: txq_inline_min %u, rxq_cqe_comp_en %d,"
		" txq_mpw_en %d, rx_vec_en %d", cdev->dev->name,
		priv->txq_inline_min, priv->rxq_cqe_comp, priv->txq_empw,
		priv->rx_vec);
	ret = mlx5_devx_cmd_query_nic_vport(cdev, &vport);
	if (ret != 0)
		goto error;
	memcpy(priv->mac.addr_bytes, vport.mac, RTE_ETHER_ADDR_LEN);
	rte_ether_addr_copy(&priv->mac, eth->data->mac_addrs);
	ret = mlx5_port_link_get(cdev, priv->phys_port, &link);
	if (ret != 0)
		goto error;
	eth->data->mtu = link.mtu;
	ret = mlx5_uar_prepare(cdev, &priv->uar);
	if (ret != 0)
		goto error;
	priv->td = mlx5_devx_cmd_alloc_td(cdev);
	if (priv->td == NULL) {
		ret = -rte_errno;
		goto error;
	}
	ret = mlx5_net_tis_create(priv);
	if (ret != 0)
		goto error;
	/* Drops for want of a WQE (imissed); a device without any: none. */
	priv->qcnt = mlx5_devx_cmd_queue_counter_alloc(cdev);
	if (priv->qcnt == NULL && rte_errno != ENOTSUP) {
		ret = -rte_errno;
		goto error;
	}
	memcpy(priv->rss_key, mlx5_net_rss_key_default, sizeof(priv->rss_key));
	eth->device = cdev->dev;
	eth->dev_ops = &mlx5_net_ops;
	eth->rx_pkt_burst = mlx5_net_rx_burst_fn(priv, false);
	eth->rx_queue_count = mlx5_net_rx_queue_count;
	eth->rx_descriptor_status = mlx5_net_rx_descriptor_status;
	eth->tx_pkt_burst = mlx5_net_tx_burst_fn(priv, false);
	eth->tx_pkt_prepare = mlx5_net_tx_prepare;
	eth->data->dev_flags |= RTE_ETH_DEV_AUTOFILL_QUEUE_XSTATS;
	rte_eth_dev_probing_finish(eth);
	/* Telemetry's /mlx5/queues names the port of the device. */
	mlx5_class_dev_info_add(cdev, MLX5_CLASS_ETH, "ethdev",
				eth->data->name, eth->data->port_id);
	DRV_LOG(INFO, "%s: port %u, MAC " RTE_ETHER_ADDR_PRT_FMT ", MTU %u,"
		" %u Mb/s", cdev->dev->name, eth->data->port_id,
		RTE_ETHER_ADDR_BYTES(&priv->mac), link.mtu, link.speed_mbps);
	return 0;
error:
	if (priv != NULL && eth->data->dev_private == priv)
		mlx5_net_release(priv);
	DRV_LOG(ERR, "%s: eth probe failed: %s", cdev->dev->name,
		rte_strerror(-ret));
	rte_eth_dev_release_port(eth);
	rte_errno = -ret;
	return ret;
}

static int
mlx5_net_remove(struct mlx5_common_device *cdev)
{
	struct rte_eth_dev *eth = rte_eth_dev_allocated(cdev->dev->name);

	if (eth == NULL)
		return 0;
	if (cdev->secondary)
		return mlx5_net_remove_secondary(eth);
	mlx5_class_dev_info_del(cdev, MLX5_CLASS_ETH, eth->data->port_id);
	if (eth->state != RTE_ETH_DEV_UNUSED && eth->data->dev_private != NULL)
		mlx5_net_release(eth->data->dev_private);
	return rte_eth_dev_release_port(eth);
}

static struct mlx5_class_driver mlx5_net_driver = {
	.drv_class = MLX5_CLASS_ETH,
	.name = "mlx5_eth",
	.probe = mlx5_net_probe,
	.remove = mlx5_net_remove,
	.secondary = true,
	.mp_request = mlx5_net_mp_request,
};

RTE_INIT(mlx5_net_init)
{
	mlx5_class_driver_register(&mlx5_net_driver);
}

/*
 * PMD info (dpdk-pmdinfo.py). A class driver of the common device, not an
 * EAL driver: named as DPDK's own mlx5 class drivers are, with the devargs
 * it takes besides the common ones of the device's bus driver.
 */
RTE_PMD_EXPORT_NAME(mlx5_eth, __COUNTER__);
RTE_PMD_REGISTER_PARAM_STRING(mlx5_eth,
	"txq_inline_min=<0-" RTE_STR(MLX5_NET_TX_INLINE_MAX) "> "
	"rxq_cqe_comp_en=<0|1> "
	"txq_mpw_en=<0|1> "
	"rx_vec_en=<0|1>");
RTE_PMD_REGISTER_KMOD_DEP(mlx5_eth, "* ib_uverbs & mlx5_core & mlx5_ib");
