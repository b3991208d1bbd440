/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/* Port link and receive steering through the backend. */

#include <errno.h>
#include <string.h>

#include <rte_errno.h>

#include "mlx5_common_log.h"
#include "mlx5_common_port.h"
#include "mlx5_prm.h"

/* A backend errno (positive) as the API returns it. */
static int
mlx5_port_err(int err)
{
	rte_errno = err;
	return -err;
}

int
mlx5_port_link_get(struct mlx5_common_device *cdev, uint8_t port,
		   struct mlx5_port_link *link)
{
	uint32_t speed = 0;
	uint16_t mtu = 0;
	int up = 0, ret;

	if (cdev == NULL || link == NULL || port == 0)
		return mlx5_port_err(EINVAL);
	ret = cdev->glue->port_link_get(cdev->ctx, port, &speed, &mtu, &up);
	if (ret != 0) {
		DRV_LOG(ERR, "%s: port %u: cannot read the link: %s",
			cdev->dev->name, port, strerror(ret));
		return mlx5_port_err(ret);
	}
	link->speed_mbps = speed;
	link->mtu = mtu;
	link->up = up != 0;
	return 0;
}

int
mlx5_port_mtu_set(struct mlx5_common_device *cdev, uint8_t port,
		  uint16_t mtu)
{
	int ret;

	if (cdev == NULL || port == 0)
		return mlx5_port_err(EINVAL);
	ret = cdev->glue->port_mtu_set(cdev->ctx, port, mtu);
	if (ret != 0) {
		DRV_LOG(ERR, "%s: port %u: MTU %u refused: %s",
			cdev->dev->name, port, mtu, strerror(ret));
		return mlx5_port_err(ret);
	}
	return 0;
}

int
mlx5_port_link_set(struct mlx5_common_device *cdev, uint8_t port, bool up)
{
	int ret;

	if (cdev == NULL || port == 0)
		return mlx5_port_err(EINVAL);
	if (cdev->glue->port_link_set == NULL)
		return mlx5_port_err(ENOTSUP);
	ret = cdev->glue->port_link_set(cdev->ctx, port, up);
	if (ret != 0) {
		DRV_LOG(ERR, "%s: port %u: link %s refused: %s",
			cdev->dev->name, port, up ? "up" : "down",
			strerror(ret));
		return mlx5_port_err(ret);
	}
	return 0;
}

int
mlx5_port_speed_set(struct mlx5_common_device *cdev, uint8_t port,
		    uint32_t speed_mbps)
{
	int ret;

	if (cdev == NULL || port == 0)
		return mlx5_port_err(EINVAL);
	ret = cdev->glue->port_speed_set(cdev->ctx, port, speed_mbps);
	if (ret != 0) {
		DRV_LOG(ERR, "%s: port %u: speed %u Mb/s refused: %s",
			cdev->dev->name, port, speed_mbps, strerror(ret));
		return mlx5_port_err(ret);
	}
	return 0;
}

/*
 * The match buffer of mlx5dv's flow calls (a size, then the buffer): the
 * outer headers only. Storage of 64-bit words, the struct's alignment.
 */
#define MLX5_FLOW_MATCH_LEN MLX5_ST_SZ_BYTES(fte_match_set_lyr_2_4)
struct mlx5_flow_match {
	uint64_t words[(sizeof(struct mlx5dv_flow_match_parameters) +
			MLX5_FLOW_MATCH_LEN) / 8];
};

static struct mlx5dv_flow_match_parameters *
mlx5_flow_match_init(struct mlx5_flow_match *m)
{
	struct mlx5dv_flow_match_parameters *p = (void *)m->words;

	memset(m, 0, sizeof(*m));
	p->match_sz = MLX5_FLOW_MATCH_LEN;
	return p;
}

/* Mask and value of a rule of @kind on the destination MAC. */
static int
mlx5_flow_rx_match(enum mlx5_flow_rx_kind kind, const uint8_t *mac,
		   uint8_t *mask, uint8_t *value)
{
	uint8_t *mdmac = MLX5_ADDR_OF(fte_match_set_lyr_2_4, mask, dmac_47_16);
	uint8_t *vdmac = MLX5_ADDR_OF(fte_match_set_lyr_2_4, value,
				      dmac_47_16);

	switch (kind) {
	case MLX5_FLOW_RX_ALL:
		return 0;
	case MLX5_FLOW_RX_DMAC:
		/* One address, unicast or a group of a multicast list. */
		if (mac == NULL || (mac[0] | mac[1] | mac[2] | mac[3] | mac[4] |
				    mac[5]) == 0)
			return -EINVAL;
		memset(mdmac, 0xff, 6);
		memcpy(vdmac, mac, 6);
		return 0;
	case MLX5_FLOW_RX_BCAST:
		memset(mdmac, 0xff, 6);
		memset(vdmac, 0xff, 6);
		return 0;
	case MLX5_FLOW_RX_MCAST:
		/* The group bit: the first bit on the wire. */
		mdmac[0] = 0x01;
		vdmac[0] = 0x01;
		return 0;
	}
	return -EINVAL;
}

int
mlx5_flow_rx_create(struct mlx5_common_device *cdev,
		    struct mlx5_flow_rx *rule, enum mlx5_flow_rx_kind kind,
		    const uint8_t *mac, uint16_t priority,
		    struct mlx5_devx_obj *tir)
{
	struct mlx5_flow_match mask_buf, value_buf;
	struct mlx5dv_flow_match_parameters *mask =
		mlx5_flow_match_init(&mask_buf);
	struct mlx5dv_flow_match_parameters *value =
		mlx5_flow_match_init(&value_buf);
	struct mlx5dv_flow_matcher_attr attr = {
		.type = IBV_FLOW_ATTR_NORMAL,
		.priority = priority,
		.match_mask = mask,
		.comp_mask = MLX5DV_FLOW_MATCHER_MASK_FT_TYPE,
		.ft_type = MLX5DV_FLOW_TABLE_TYPE_NIC_RX,
	};
	struct mlx5dv_flow_action_attr action = {
		.type = MLX5DV_FLOW_ACTION_DEST_DEVX,
	};
	int err;

	if (cdev == NULL || rule == NULL || tir == NULL || tir->obj == NULL)
		return mlx5_port_err(EINVAL);
	memset(rule, 0, sizeof(*rule));
	if (mlx5_flow_rx_match(kind, mac, (uint8_t *)mask->match_buf,
			       (uint8_t *)value->match_buf) != 0) {
		DRV_LOG(ERR, "%s: steering rule: kind %d%s is not a rule",
			cdev->dev->name, (int)kind,
			kind == MLX5_FLOW_RX_DMAC ?
			" (with a missing or zero MAC)" : "");
		return mlx5_port_err(EINVAL);
	}
	attr.match_criteria_enable = kind == MLX5_FLOW_RX_ALL ? 0 :
				     MLX5_MATCH_OUTER_HEADERS;
	errno = 0;
	rule->matcher = cdev->glue->dv_create_flow_matcher(cdev->ctx, &attr);
	if (rule->matcher == NULL) {
		err = errno != 0 ? errno : EINVAL;
		DRV_LOG(ERR, "%s: steering rule: matcher refused: %s",
			cdev->dev->name, strerror(err));
		return mlx5_port_err(err);
	}
	action.obj = tir->obj;
	errno = 0;
	rule->flow = cdev->glue->dv_create_flow(rule->matcher, value, 1,
						&action);
	if (rule->flow == NULL) {
		err = errno != 0 ? errno : EINVAL;
		DRV_LOG(ERR, "%s: steering rule to TIR 0x%x refused: %s",
			cdev->dev->name, tir->id, strerror(err));
		cdev->glue->dv_destroy_flow_matcher(rule->matcher);
		rule->matcher = NULL;
		return mlx5_port_err(err);
	}
	rule->cdev = cdev;
	return 0;
}

int
mlx5_flow_rx_destroy(struct mlx5_flow_rx *rule)
{
	const struct mlx5_glue *glue;
	int ret;

	if (rule == NULL || rule->cdev == NULL)
		return 0;
	glue = rule->cdev->glue;
	if (rule->flow != NULL) {
		ret = glue->destroy_flow(rule->flow);
		if (ret != 0) {
			DRV_LOG(ERR, "%s: steering rule removal refused: %s",
				rule->cdev->dev->name, strerror(ret));
			return mlx5_port_err(ret);
		}
		rule->flow = NULL;
	}
	if (rule->matcher != NULL) {
		ret = glue->dv_destroy_flow_matcher(rule->matcher);
		if (ret != 0) {
			DRV_LOG(ERR, "%s: steering matcher removal refused: %s",
				rule->cdev->dev->name, strerror(ret));
			return mlx5_port_err(ret);
		}
		rule->matcher = NULL;
	}
	rule->cdev = NULL;
	return 0;
}
