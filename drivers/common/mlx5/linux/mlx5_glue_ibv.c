/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * The rdma-core backend operations: each entry is the libibverbs/libmlx5
 * call of the same meaning, so results and errno values are rdma-core's
 * own, unchanged. Where the prototypes already match, the table points at
 * rdma-core directly (the compiler checks the types); a wrapper exists only
 * where the call shape differs (query_pdn) or where rdma-core's header
 * routes the call through an inline helper (reg_mr, query_device_ex,
 * create_qp_ex, the WQ and indirection-table calls).
 *
 * This file is compiled into the common library (-Dibverbs_link=shared) or
 * alone into the glue module (-Dibverbs_link=dlopen). It must therefore not
 * call DPDK: the module links rdma-core only.
 */

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <net/if.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <linux/ethtool.h>
#include <linux/sockios.h>

#include "mlx5_os_glue.h"

/**
 * Register a memory region, as an application calling ibv_reg_mr() does.
 *
 * rdma-core's ibv_reg_mr() is a header macro that picks the entry point
 * from the access flags (flags of IBV_ACCESS_OPTIONAL_RANGE go to
 * ibv_reg_mr_iova2(), which drops them on kernels that do not know them);
 * calling the macro here keeps that behaviour for run-time flags.
 *
 * @param pd
 *   Protection domain.
 * @param addr
 *   Start of the memory to register.
 * @param length
 *   Length in bytes.
 * @param access
 *   IBV_ACCESS_* flags.
 *
 * @return
 *   The memory region, or NULL and errno is set by rdma-core.
 */
static struct ibv_mr *
mlx5_ibv_reg_mr(struct ibv_pd *pd, void *addr, size_t length, int access)
{
	return ibv_reg_mr(pd, addr, length, access);
}

/**
 * Read the PD number of a verbs protection domain
 * (mlx5dv_init_obj() with MLX5DV_OBJ_PD).
 *
 * @param pd
 *   Protection domain opened on an mlx5 device.
 * @param[out] pdn
 *   PD number for PRM commands; left untouched on failure.
 *
 * @return
 *   0 on success, otherwise the positive errno value rdma-core returned
 *   (EOPNOTSUPP for a PD that does not belong to an mlx5 device).
 */
static int
mlx5_ibv_query_pdn(struct ibv_pd *pd, uint32_t *pdn)
{
	struct mlx5dv_pd dv_pd = { .comp_mask = 0 };
	struct mlx5dv_obj obj = { .pd = { .in = pd, .out = &dv_pd } };
	int ret;

	ret = mlx5dv_init_obj(&obj, MLX5DV_OBJ_PD);
	if (ret != 0)
		return ret;
	*pdn = dv_pd.pdn;
	return 0;
}

/**
 * Query the extended device attributes (ibv_query_device_ex() is a header
 * inline that dispatches through the context's operations).
 *
 * @param ctx
 *   Device context.
 * @param input
 *   Extension input, or NULL.
 * @param[out] attr
 *   Attributes, among them odp_caps.
 *
 * @return
 *   0 on success, otherwise the positive errno value rdma-core returned.
 */
static int
mlx5_ibv_query_device_ex(struct ibv_context *ctx,
			 const struct ibv_query_device_ex_input *input,
			 struct ibv_device_attr_ex *attr)
{
	return ibv_query_device_ex(ctx, input, attr);
}

/*
 * The verbs calls rdma-core's header makes inline (dispatching through the
 * context's operations): one wrapper each, same prototype.
 */
static struct ibv_qp *
mlx5_ibv_create_qp_ex(struct ibv_context *ctx, struct ibv_qp_init_attr_ex *attr)
{
	return ibv_create_qp_ex(ctx, attr);
}

static struct ibv_wq *
mlx5_ibv_create_wq(struct ibv_context *ctx, struct ibv_wq_init_attr *attr)
{
	return ibv_create_wq(ctx, attr);
}

static int
mlx5_ibv_destroy_wq(struct ibv_wq *wq)
{
	return ibv_destroy_wq(wq);
}

static struct ibv_rwq_ind_table *
mlx5_ibv_create_rwq_ind_table(struct ibv_context *ctx,
			      struct ibv_rwq_ind_table_init_attr *attr)
{
	return ibv_create_rwq_ind_table(ctx, attr);
}

static int
mlx5_ibv_destroy_rwq_ind_table(struct ibv_rwq_ind_table *ind_tbl)
{
	return ibv_destroy_rwq_ind_table(ind_tbl);
}

static int
mlx5_ibv_destroy_flow(struct ibv_flow *flow)
{
	return ibv_destroy_flow(flow);
}

/*
 * The network device of port @port of an RDMA device: the entry of
 * /sys/class/infiniband/<dev>/device/net/ whose dev_port is port - 1 (a
 * single netdev of a one-port function has dev_port 0). Copies its name
 * into @ifname; 0 or a positive errno.
 */
static int
mlx5_netdev_name(struct ibv_context *ctx, uint8_t port, char *ifname)
{
	char path[PATH_MAX];
	struct dirent *e;
	int ret = ENODEV;
	DIR *dir;

	if (port == 0)
		return EINVAL;
	snprintf(path, sizeof(path), "%s/device/net", ctx->device->ibdev_path);
	dir = opendir(path);
	if (dir == NULL)
		return ENODEV;
	while ((e = readdir(dir)) != NULL) {
		unsigned int dev_port = 0;
		FILE *f;

		if (e->d_name[0] == '.' || strlen(e->d_name) >= IFNAMSIZ)
			continue;
		snprintf(path, sizeof(path), "%s/device/net/%s/dev_port",
			 ctx->device->ibdev_path, e->d_name);
		f = fopen(path, "r");
		if (f == NULL)
			continue;
		if (fscanf(f, "%u", &dev_port) != 1)
			dev_port = UINT_MAX;
		fclose(f);
		if (dev_port == port - 1u) {
			snprintf(ifname, IFNAMSIZ, "%s", e->d_name);
			ret = 0;
			break;
		}
	}
	closedir(dir);
	return ret;
}

/* An interface ioctl on the netdev of @port; 0 or a positive errno. */
static int
mlx5_netdev_ioctl(struct ibv_context *ctx, uint8_t port, unsigned long req,
		  struct ifreq *ifr)
{
	int fd, ret;

	ret = mlx5_netdev_name(ctx, port, ifr->ifr_name);
	if (ret != 0)
		return ret;
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return errno;
	ret = ioctl(fd, req, ifr) < 0 ? errno : 0;
	close(fd);
	return ret;
}

static int
mlx5_netdev_link_get(struct ibv_context *ctx, uint8_t port,
		     uint32_t *speed_mbps, uint16_t *mtu, int *up)
{
	struct ethtool_cmd ecmd = { .cmd = ETHTOOL_GSET };
	struct ifreq ifr;
	uint32_t speed;
	int ret;

	memset(&ifr, 0, sizeof(ifr));
	ret = mlx5_netdev_ioctl(ctx, port, SIOCGIFMTU, &ifr);
	if (ret != 0)
		return ret;
	*mtu = (uint16_t)ifr.ifr_mtu;
	ret = mlx5_netdev_ioctl(ctx, port, SIOCGIFFLAGS, &ifr);
	if (ret != 0)
		return ret;
	*up = (ifr.ifr_flags & IFF_RUNNING) != 0;
	ifr.ifr_data = (void *)&ecmd;
	speed = mlx5_netdev_ioctl(ctx, port, SIOCETHTOOL, &ifr) == 0 ?
		ethtool_cmd_speed(&ecmd) : 0;
	*speed_mbps = speed == (uint32_t)SPEED_UNKNOWN ? 0 : speed;
	return 0;
}

static int
mlx5_netdev_mtu_set(struct ibv_context *ctx, uint8_t port, uint16_t mtu)
{
	struct ifreq ifr;

	memset(&ifr, 0, sizeof(ifr));
	ifr.ifr_mtu = mtu;
	return mlx5_netdev_ioctl(ctx, port, SIOCSIFMTU, &ifr);
}

/* A forced speed (autonegotiation off), as `ethtool -s speed` sets it. */
static int
mlx5_netdev_speed_set(struct ibv_context *ctx, uint8_t port,
		      uint32_t speed_mbps)
{
	struct ethtool_cmd ecmd = { .cmd = ETHTOOL_GSET };
	struct ifreq ifr;
	int ret;

	memset(&ifr, 0, sizeof(ifr));
	ifr.ifr_data = (void *)&ecmd;
	ret = mlx5_netdev_ioctl(ctx, port, SIOCETHTOOL, &ifr);
	if (ret != 0)
		return ret;
	ecmd.cmd = ETHTOOL_SSET;
	ecmd.autoneg = AUTONEG_DISABLE;
	ethtool_cmd_speed_set(&ecmd, speed_mbps);
	return mlx5_netdev_ioctl(ctx, port, SIOCETHTOOL, &ifr);
}

/* The netdev's administrative state, as `ip link set up|down` sets it. */
static int
mlx5_netdev_link_set(struct ibv_context *ctx, uint8_t port, int up)
{
	struct ifreq ifr;
	int ret;

	memset(&ifr, 0, sizeof(ifr));
	ret = mlx5_netdev_ioctl(ctx, port, SIOCGIFFLAGS, &ifr);
	if (ret != 0)
		return ret;
	if (up)
		ifr.ifr_flags |= IFF_UP;
	else
		ifr.ifr_flags &= ~IFF_UP;
	return mlx5_netdev_ioctl(ctx, port, SIOCSIFFLAGS, &ifr);
}

const char mlx5_ibv_glue_version[] = MLX5_GLUE_VERSION;

const struct mlx5_glue mlx5_ibv_glue = {
	.name = "rdma-core",

	/* Devices and contexts. */
	.get_device_list = ibv_get_device_list,
	.free_device_list = ibv_free_device_list,
	.dv_open_device = mlx5dv_open_device,
	.close_device = ibv_close_device,
	.import_device = ibv_import_device,
	.query_device_ex = mlx5_ibv_query_device_ex,

	/* Protection domains. */
	.alloc_pd = ibv_alloc_pd,
	.dealloc_pd = ibv_dealloc_pd,
	.import_pd = ibv_import_pd,
	.unimport_pd = ibv_unimport_pd,
	.query_pdn = mlx5_ibv_query_pdn,

	/* Memory regions (verbs). */
	.reg_mr = mlx5_ibv_reg_mr,
	.dereg_mr = ibv_dereg_mr,

	/* DEVX objects and commands. */
	.devx_obj_create = mlx5dv_devx_obj_create,
	.devx_obj_query = mlx5dv_devx_obj_query,
	.devx_obj_modify = mlx5dv_devx_obj_modify,
	.devx_obj_destroy = mlx5dv_devx_obj_destroy,
	.devx_general_cmd = mlx5dv_devx_general_cmd,
	.devx_umem_reg = mlx5dv_devx_umem_reg,
	.devx_umem_dereg = mlx5dv_devx_umem_dereg,
	.devx_alloc_uar = mlx5dv_devx_alloc_uar,
	.devx_free_uar = mlx5dv_devx_free_uar,
	.devx_query_eqn = mlx5dv_devx_query_eqn,
	.uar_kick = NULL, /* The UAR store reaches the device. */

	/* Indirect mkeys. */
	.dv_create_mkey = mlx5dv_create_mkey,
	.dv_destroy_mkey = mlx5dv_destroy_mkey,

	/* Packet pacing entries. */
	.dv_pp_alloc = mlx5dv_pp_alloc,
	.dv_pp_free = mlx5dv_pp_free,

	/* DEVX access to verbs-created queue objects. */
	.devx_qp_query = mlx5dv_devx_qp_query,
	.devx_qp_modify = mlx5dv_devx_qp_modify,
	.devx_cq_query = mlx5dv_devx_cq_query,
	.devx_cq_modify = mlx5dv_devx_cq_modify,
	.devx_srq_query = mlx5dv_devx_srq_query,
	.devx_srq_modify = mlx5dv_devx_srq_modify,
	.devx_wq_query = mlx5dv_devx_wq_query,
	.devx_wq_modify = mlx5dv_devx_wq_modify,
	.devx_ind_tbl_query = mlx5dv_devx_ind_tbl_query,
	.devx_ind_tbl_modify = mlx5dv_devx_ind_tbl_modify,
	.dv_query_qp_lag_port = mlx5dv_query_qp_lag_port,
	.dv_modify_qp_lag_port = mlx5dv_modify_qp_lag_port,
	.dv_modify_qp_udp_sport = mlx5dv_modify_qp_udp_sport,

	/* Verbs queue objects. */
	.create_cq = ibv_create_cq,
	.destroy_cq = ibv_destroy_cq,
	.create_qp_ex = mlx5_ibv_create_qp_ex,
	.modify_qp = ibv_modify_qp,
	.destroy_qp = ibv_destroy_qp,
	.create_srq = ibv_create_srq,
	.modify_srq = ibv_modify_srq,
	.destroy_srq = ibv_destroy_srq,
	.create_wq = mlx5_ibv_create_wq,
	.destroy_wq = mlx5_ibv_destroy_wq,
	.create_rwq_ind_table = mlx5_ibv_create_rwq_ind_table,
	.destroy_rwq_ind_table = mlx5_ibv_destroy_rwq_ind_table,
	.dv_init_obj = mlx5dv_init_obj,

	/* Flow steering. */
	.dv_create_flow_matcher = mlx5dv_create_flow_matcher,
	.dv_destroy_flow_matcher = mlx5dv_destroy_flow_matcher,
	.dv_create_flow = mlx5dv_create_flow,
	.destroy_flow = mlx5_ibv_destroy_flow,

	/* Port attributes: the netdev. */
	.port_link_get = mlx5_netdev_link_get,
	.port_mtu_set = mlx5_netdev_mtu_set,
	.port_speed_set = mlx5_netdev_speed_set,
	.port_link_set = mlx5_netdev_link_set,
};
