/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * Ports and cables: what each port of a vHCA is cabled to, its link, the
 * vport's MTU, speed and administrative state, and its frame counters
 * (mlx5_sim_wire.h gives the whole picture).
 */

#include "mlx5_sim_wire.h"

/*
 * The far end of port @pi of @vhca, or NULL: no cable, peer absent, or
 * either end set administratively down (the link is down for both ends,
 * as a PHY whose partner went down).
 */
struct mlx5_sim_vhca *
mlx5_sim_port_far(struct mlx5_sim_vhca *vhca, unsigned int pi,
		  unsigned int *fpi)
{
	struct mlx5_sim_port *port = &vhca->port[pi];
	struct mlx5_sim_vhca *far;

	if (__atomic_load_n(&port->admin_down, __ATOMIC_RELAXED))
		return NULL;
	if (port->wire == MLX5_SIM_WIRE_LOOPBACK) {
		*fpi = pi;
		return vhca;
	}
	if (!MLX5_SIM_WIRE_IS_PEER(port->wire))
		return NULL;
	if (port->peer == NULL) {
		/* Cabled before the far vHCA existed: find it now. */
		far = MLX5_SIM_WIRE_VHCA(port->wire) == vhca->vhca_id ?
			      vhca :
			      mlx5_sim_card_vhca(
				      vhca->card,
				      MLX5_SIM_WIRE_VHCA(port->wire));
		if (far == NULL ||
		    MLX5_SIM_WIRE_PORT(port->wire) > far->caps.nports)
			return NULL;
		port->peer = far;
		port->peer_port = MLX5_SIM_WIRE_PORT(port->wire) - 1;
	}
	*fpi = port->peer_port;
	/* The far vHCA's state, read without its lock: atomic. */
	if (__atomic_load_n(&port->peer->port[port->peer_port].admin_down,
			    __ATOMIC_RELAXED))
		return NULL;
	return port->peer;
}

bool
mlx5_sim_port_up(struct mlx5_sim_vhca *vhca, unsigned int pi)
{
	unsigned int fpi;

	return pi < vhca->caps.nports &&
	       mlx5_sim_port_far(vhca, pi, &fpi) != NULL;
}

/* Ports: cables at vHCA creation. */

void
mlx5_sim_ports_init(struct mlx5_sim_vhca *vhca)
{
	unsigned int p;

	if (vhca->caps.nports == 0)
		vhca->caps.nports = 1;
	vhca->mtu = SIM_DEFAULT_MTU;
	for (p = 0; p < MLX5_SIM_MAX_PORTS; p++) {
		vhca->port[p].wire = p < vhca->caps.nports ?
					     vhca->caps.wire[p] :
					     MLX5_SIM_WIRE_NONE;
		vhca->port[p].speed_mbps = vhca->caps.speed_mbps != 0 ?
						   vhca->caps.speed_mbps :
						   SIM_DEFAULT_SPEED_MBPS;
	}
}

/*
 * The port a cable of new vHCA @vhca names, checked: NULL with *far NULL
 * when that vHCA does not exist yet; -EINVAL in *err when the port is
 * missing or cabled elsewhere.
 */
static struct mlx5_sim_port *
sim_cable_end(struct mlx5_sim_vhca *vhca, unsigned int p,
	      struct mlx5_sim_vhca **far, int *err)
{
	uint32_t wire = vhca->port[p].wire;
	uint32_t back = MLX5_SIM_WIRE_PEER(vhca->vhca_id, p + 1);
	unsigned int q = MLX5_SIM_WIRE_PORT(wire) - 1u;
	struct mlx5_sim_port *fp;

	*err = 0;
	*far = MLX5_SIM_WIRE_VHCA(wire) == vhca->vhca_id ?
		       vhca :
		       mlx5_sim_card_vhca(vhca->card, MLX5_SIM_WIRE_VHCA(wire));
	if (*far == NULL)
		return NULL;
	if (q >= (*far)->caps.nports || (*far == vhca && q == p)) {
		SIM_LOG(ERR,
			"%s: port %u cabled to port %u of vHCA %u, which"
			" %s",
			vhca->ibdev.name, p + 1, q + 1,
			MLX5_SIM_WIRE_VHCA(wire),
			*far == vhca && q == p ? "is itself (use loopback)" :
						 "it does not have");
		*err = -EINVAL;
		return NULL;
	}
	fp = &(*far)->port[q];
	if (fp->wire != back &&
	    (fp->wire_given || fp->wire != MLX5_SIM_WIRE_LOOPBACK)) {
		SIM_LOG(ERR,
			"%s: port %u cabled to port %u of vHCA %u, which"
			" is cabled elsewhere",
			vhca->ibdev.name, p + 1, q + 1,
			MLX5_SIM_WIRE_VHCA(wire));
		*err = -EINVAL;
		return NULL;
	}
	return fp;
}

int
mlx5_sim_ports_cable(struct mlx5_sim_vhca *vhca, uint32_t given)
{
	static const uint32_t bits[MLX5_SIM_MAX_PORTS] = {
		MLX5_SIM_CAP_WIRE1,
		MLX5_SIM_CAP_WIRE2,
	};
	struct mlx5_sim_vhca *far, *v;
	struct mlx5_sim_port *fp;
	unsigned int p, q;
	int err;

	/* Check every end first: a refused probe changes no cable. */
	for (p = 0; p < vhca->caps.nports; p++) {
		vhca->port[p].wire_given = (given & bits[p]) != 0;
		if (!vhca->port[p].wire_given ||
		    !MLX5_SIM_WIRE_IS_PEER(vhca->port[p].wire))
			continue;
		sim_cable_end(vhca, p, &far, &err);
		if (err != 0) {
			errno = -err;
			return err;
		}
	}
	for (p = 0; p < vhca->caps.nports; p++) {
		struct mlx5_sim_port *port = &vhca->port[p];

		if (port->wire_given && MLX5_SIM_WIRE_IS_PEER(port->wire)) {
			fp = sim_cable_end(vhca, p, &far, &err);
			if (fp == NULL)
				continue;
			fp->wire = MLX5_SIM_WIRE_PEER(vhca->vhca_id, p + 1);
			fp->peer = vhca;
			fp->peer_port = (uint8_t)p;
			port->peer = far;
			port->peer_port = MLX5_SIM_WIRE_PORT(port->wire) - 1;
			continue;
		}
		if (port->wire_given)
			continue;
		/* Cabled by default: take a cable an older vHCA points here. */
		TAILQ_FOREACH (v, &vhca->card->vhcas, card_next)
			for (q = 0; q < v->caps.nports; q++) {
				if (v->port[q].wire !=
					    MLX5_SIM_WIRE_PEER(vhca->vhca_id,
							       p + 1) ||
				    MLX5_SIM_WIRE_IS_PEER(port->wire))
					continue;
				port->wire =
					MLX5_SIM_WIRE_PEER(v->vhca_id, q + 1);
				port->peer = v;
				port->peer_port = (uint8_t)q;
				v->port[q].peer = vhca;
				v->port[q].peer_port = (uint8_t)p;
			}
	}
	return 0;
}

/* Port attributes: link, speed and the vport's MTU. */

/* The vHCA of @ctx, locked, if @port is one of its ports. */
static struct mlx5_sim_vhca *
sim_port_vhca(struct mlx5_sim_vhca *vhca, uint8_t port)
{
	if (vhca == NULL || port < 1 || port > vhca->caps.nports)
		return NULL;
	mlx5_sim_vhca_lock(vhca);
	return vhca;
}

/* The vHCA of a context, or NULL. */
static struct mlx5_sim_vhca *
sim_ctx_vhca(struct ibv_context *ctx)
{
	struct mlx5_sim_ctx *sctx = mlx5_sim_ctx_get(ctx);

	return sctx != NULL ? sctx->file->vhca : NULL;
}

int
mlx5_sim_port_link_get(struct ibv_context *ctx, uint8_t port,
		       uint32_t *speed_mbps, uint16_t *mtu, int *up)
{
	struct mlx5_sim_vhca *vhca = sim_port_vhca(sim_ctx_vhca(ctx), port);

	if (vhca == NULL)
		return EINVAL;
	*speed_mbps = vhca->port[port - 1].speed_mbps;
	*mtu = vhca->mtu;
	*up = mlx5_sim_port_up(vhca, port - 1u);
	mlx5_sim_vhca_unlock(vhca);
	return 0;
}

/*
 * The vport's MTU, as the netdev's: 68 (IPv4's minimum) to the largest
 * the firmware takes. One vport per vHCA: both ports share it.
 */
int
mlx5_sim_port_mtu_set(struct ibv_context *ctx, uint8_t port, uint16_t mtu)
{
	return mlx5_sim_vport_mtu_set(sim_ctx_vhca(ctx), port, mtu);
}

int
mlx5_sim_vport_mtu_set(struct mlx5_sim_vhca *vhca_in, uint8_t port,
		       uint16_t mtu)
{
	struct mlx5_sim_vhca *vhca = sim_port_vhca(vhca_in, port);

	if (vhca == NULL)
		return EINVAL;
	if (mtu < RTE_ETHER_MIN_MTU || mtu > SIM_MAX_MTU) {
		SIM_LOG(ERR, "%s: MTU %u out of range [%u, %u]",
			vhca->ibdev.name, mtu, RTE_ETHER_MIN_MTU, SIM_MAX_MTU);
		mlx5_sim_vhca_unlock(vhca);
		return EINVAL;
	}
	vhca->mtu = mtu;
	mlx5_sim_vhca_unlock(vhca);
	return 0;
}

/*
 * The port's administrative state. Down, the port sends nothing (frames
 * are lost, counted tx_link_down) and receives nothing, and the link is
 * down at both ends of its cable.
 */
int
mlx5_sim_port_link_set(struct ibv_context *ctx, uint8_t port, int up)
{
	return mlx5_sim_vport_link_set(sim_ctx_vhca(ctx), port, up);
}

int
mlx5_sim_vport_link_set(struct mlx5_sim_vhca *vhca_in, uint8_t port, int up)
{
	struct mlx5_sim_vhca *vhca = sim_port_vhca(vhca_in, port);

	if (vhca == NULL)
		return EINVAL;
	__atomic_store_n(&vhca->port[port - 1].admin_down, !up,
			 __ATOMIC_RELAXED);
	mlx5_sim_vhca_unlock(vhca);
	return 0;
}

/* A forced link speed: 10 Mb/s to 800 Gb/s. */
int
mlx5_sim_port_speed_set(struct ibv_context *ctx, uint8_t port,
			uint32_t speed_mbps)
{
	return mlx5_sim_vport_speed_set(sim_ctx_vhca(ctx), port, speed_mbps);
}

int
mlx5_sim_vport_speed_set(struct mlx5_sim_vhca *vhca_in, uint8_t port,
			 uint32_t speed_mbps)
{
	struct mlx5_sim_vhca *vhca = sim_port_vhca(vhca_in, port);

	if (vhca == NULL)
		return EINVAL;
	if (speed_mbps < 10 || speed_mbps > 800000) {
		SIM_LOG(ERR, "%s: speed %u Mb/s out of range [10, 800000]",
			vhca->ibdev.name, speed_mbps);
		mlx5_sim_vhca_unlock(vhca);
		return EINVAL;
	}
	vhca->port[port - 1].speed_mbps = speed_mbps;
	mlx5_sim_vhca_unlock(vhca);
	return 0;
}

uint16_t
mlx5_sim_vport_hw_mtu(const struct mlx5_sim_vhca *vhca)
{
	return (uint16_t)(vhca->mtu + SIM_HW_MTU_EXTRA);
}

int
mlx5_sim_port_stats(uint16_t card, uint16_t vhca_id, uint8_t port,
		    struct mlx5_sim_port_stats *st)
{
	struct mlx5_sim_vhca *vhca = mlx5_sim_vhca_find(card, vhca_id);

	if (vhca == NULL || st == NULL || port < 1 ||
	    port > vhca->caps.nports) {
		errno = ENODEV;
		return -ENODEV;
	}
	mlx5_sim_vhca_lock(vhca);
	*st = vhca->port[port - 1].st;
	mlx5_sim_vhca_unlock(vhca);
	return 0;
}
