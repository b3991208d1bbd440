/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * libibverbs.so.1 of the rdma-core front: the verbs a program calls, over
 * the device model. What the kernel answers from its own state (ports,
 * GIDs, P_Keys, sysfs) is answered here the way mlx5_ib answers it for an
 * Ethernet (RoCE) port; what the device does is the model's.
 */

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "sim_rdma.h"

/* The installed header maps these names to inline wrappers. */
#undef ibv_get_device_list
#undef ibv_query_port
#undef ibv_reg_mr

/* The GID table's size (mlx5_ib: the roce_address_table_size cap). */
#define SIM_RDMA_GID_TBL_LEN 255

static struct ibv_qp *sim_rdma_create_qp_ex(struct ibv_context *ctx,
					    struct ibv_qp_init_attr_ex *attr);
static struct ibv_srq *
sim_rdma_create_srq_ex(struct ibv_context *ctx,
		       struct ibv_srq_init_attr_ex *attr);

static struct ibv_mw *
sim_rdma_alloc_mw(struct ibv_pd *pd, enum ibv_mw_type type)
{
	/* The kernel's: type 1 or 2, else EINVAL. */
	return mlx5_sim_alloc_mw(pd, type);
}

/*
 * libmlx5's bind of a type 1 window: a BIND_MW work request with the key
 * incremented, the window's key updated once it is posted.
 */
static int
sim_rdma_bind_mw(struct ibv_qp *qp, struct ibv_mw *mw, struct ibv_mw_bind *bind)
{
	const struct ibv_mw_bind_info *b = &bind->bind_info;
	struct ibv_send_wr wr, *bad;
	int ret;

	if (b->mw_access_flags & IBV_ACCESS_ZERO_BASED)
		return EINVAL;
	if (b->mr == NULL && (b->addr != 0 || b->length != 0))
		return EINVAL;
	if (b->mr != NULL && b->mr->pd != mw->pd)
		return EPERM;
	memset(&wr, 0, sizeof(wr));
	wr.opcode = IBV_WR_BIND_MW;
	wr.wr_id = bind->wr_id;
	wr.send_flags = bind->send_flags;
	wr.bind_mw.mw = mw;
	wr.bind_mw.rkey = ibv_inc_rkey(mw->rkey);
	wr.bind_mw.bind_info = *b;
	ret = sim_rdma_post_send(qp, &wr, &bad);
	if (ret != 0)
		return ret;
	mw->rkey = wr.bind_mw.rkey;
	return 0;
}

static int
sim_rdma_dealloc_mw(struct ibv_mw *mw)
{
	return mlx5_sim_dealloc_mw(mw);
}

static int
sim_rdma_query_device_ex(struct ibv_context *ctx,
			 const struct ibv_query_device_ex_input *input,
			 struct ibv_device_attr_ex *attr, size_t attr_size)
{
	struct ibv_device_attr_ex full;
	int ret;

	if (attr_size < sizeof(attr->orig_attr))
		return EINVAL;
	ret = mlx5_sim_query_device_ex(ctx, input, &full);
	if (ret != 0)
		return ret;
	memcpy(attr, &full,
	       attr_size < sizeof(full) ? attr_size : sizeof(full));
	return 0;
}

/*
 * ibv_port_attr's active_speed and active_width encodings (IBTA
 * PortInfo, as the kernel reports them; the installed header names none).
 */
enum {
	SIM_RDMA_SPEED_SDR = 1,
	SIM_RDMA_SPEED_FDR10 = 8,
	SIM_RDMA_SPEED_EDR = 32,
	SIM_RDMA_SPEED_HDR = 64,
	SIM_RDMA_WIDTH_1X = 1,
	SIM_RDMA_WIDTH_4X = 2,
	SIM_RDMA_WIDTH_8X = 4,
};

/* IB speed and width of a link speed in Mb/s (the kernel's translation). */
static void
sim_rdma_speed(uint32_t mbps, uint8_t *speed, uint8_t *width)
{
	static const struct {
		uint32_t mbps;
		uint8_t speed, width;
	} tbl[] = {
		{ 400000, SIM_RDMA_SPEED_HDR, SIM_RDMA_WIDTH_8X },
		{ 200000, SIM_RDMA_SPEED_HDR, SIM_RDMA_WIDTH_4X },
		{ 100000, SIM_RDMA_SPEED_EDR, SIM_RDMA_WIDTH_4X },
		{ 50000, SIM_RDMA_SPEED_HDR, SIM_RDMA_WIDTH_1X },
		{ 40000, SIM_RDMA_SPEED_FDR10, SIM_RDMA_WIDTH_4X },
		{ 25000, SIM_RDMA_SPEED_EDR, SIM_RDMA_WIDTH_1X },
		{ 10000, SIM_RDMA_SPEED_FDR10, SIM_RDMA_WIDTH_1X },
		{ 0, SIM_RDMA_SPEED_SDR, SIM_RDMA_WIDTH_1X },
	};
	unsigned int i;

	for (i = 0; tbl[i].mbps != 0 && mbps < tbl[i].mbps; i++)
		;
	*speed = tbl[i].speed;
	*width = tbl[i].width;
}

/* The IB MTU enum of RoCE over an Ethernet MTU (the kernel's rule). */
static enum ibv_mtu
sim_rdma_mtu(unsigned int eth_mtu)
{
	uint32_t mtu = mlx5_sim_roce_mtu(eth_mtu);
	enum ibv_mtu e = IBV_MTU_256;

	while (mtu > 256 && e < IBV_MTU_4096) {
		mtu /= 2;
		e = (enum ibv_mtu)(e + 1);
	}
	return e;
}

static int
sim_rdma_query_port_ex(struct ibv_context *ctx, uint8_t port,
		       struct ibv_port_attr *attr, size_t attr_len)
{
	struct ibv_port_attr a;
	uint32_t speed;
	uint16_t mtu;
	int up, ret;

	ret = mlx5_sim_port_link_get(ctx, port, &speed, &mtu, &up);
	if (ret != 0)
		return ret;
	memset(&a, 0, sizeof(a));
	a.state = up ? IBV_PORT_ACTIVE : IBV_PORT_DOWN;
	a.phys_state = up ? 5 : 3; /* LinkUp, Disabled (IBTA). */
	a.max_mtu = IBV_MTU_4096;
	/* RoCE's MTU: the netdev's, less the RoCE headers, rounded down. */
	a.active_mtu = sim_rdma_mtu(mtu);
	a.gid_tbl_len = SIM_RDMA_GID_TBL_LEN;
	a.port_cap_flags = IBV_PORT_CM_SUP | IBV_PORT_IP_BASED_GIDS;
	a.max_msg_sz = 1u << MLX5_SIM_LOG_MAX_MSG;
	a.pkey_tbl_len = 1;
	a.lid = 0;
	a.sm_lid = 0;
	sim_rdma_speed(speed, &a.active_speed, &a.active_width);
	a.link_layer = IBV_LINK_LAYER_ETHERNET;
	memcpy(attr, &a, attr_len < sizeof(a) ? attr_len : sizeof(a));
	return 0;
}

int
ibv_query_port(struct ibv_context *ctx, uint8_t port,
	       struct _compat_ibv_port_attr *attr)
{
	/* The 1.1 layout: the current one up to link_layer. */
	return sim_rdma_query_port_ex(ctx, port, (struct ibv_port_attr *)attr,
				      offsetof(struct ibv_port_attr, flags));
}

struct ibv_context *
sim_rdma_ctx_init(struct ibv_context *ctx)
{
	struct verbs_context *vctx = verbs_get_ctx(ctx);
	struct ibv_context_ops *ops = &ctx->ops;

	/* Programs of this front ring doorbells as plain stores. */
	mlx5_sim_doorbell_watch();

	ops->poll_cq = sim_rdma_poll_cq;
	ops->req_notify_cq = sim_rdma_req_notify_cq;
	ops->post_send = sim_rdma_post_send;
	ops->post_recv = sim_rdma_post_recv;
	ops->post_srq_recv = sim_rdma_post_srq_recv;
	ops->alloc_mw = sim_rdma_alloc_mw;
	ops->bind_mw = sim_rdma_bind_mw;
	ops->dealloc_mw = sim_rdma_dealloc_mw;
	if (vctx != NULL) {
		vctx->query_port = sim_rdma_query_port_ex;
		vctx->query_device_ex = sim_rdma_query_device_ex;
		vctx->create_qp_ex = sim_rdma_create_qp_ex;
		vctx->create_cq_ex = sim_rdma_create_cq_ex;
		vctx->alloc_dm = mlx5_sim_alloc_dm;
		vctx->free_dm = mlx5_sim_free_dm;
		vctx->reg_dm_mr = mlx5_sim_reg_dm_mr;
		vctx->create_wq = sim_rdma_create_wq;
		vctx->modify_wq = sim_rdma_modify_wq;
		vctx->destroy_wq = sim_rdma_destroy_wq;
		vctx->create_rwq_ind_table = mlx5_sim_create_rwq_ind_table;
		vctx->destroy_rwq_ind_table = mlx5_sim_destroy_rwq_ind_table;
		vctx->ibv_create_flow = mlx5_sim_flow_create_qp;
		vctx->ibv_destroy_flow = mlx5_sim_flow_destroy;
		vctx->open_xrcd = mlx5_sim_open_xrcd;
		vctx->close_xrcd = mlx5_sim_close_xrcd;
		vctx->create_srq_ex = sim_rdma_create_srq_ex;
		vctx->get_srq_num = mlx5_sim_get_srq_num;
	}
	return ctx;
}

struct ibv_device **
ibv_get_device_list(int *num_devices)
{
	struct sim_rdma_dev *devs;
	struct ibv_device **list;
	int n, i;

	devs = sim_rdma_devs(&n);
	if (devs == NULL) {
		/* The host file is wrong (logged); errno says how. */
		if (num_devices != NULL)
			*num_devices = 0;
		return NULL;
	}
	list = calloc(n + 1, sizeof(*list));
	if (list == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	for (i = 0; i < n; i++)
		list[i] = devs[i].ibdev;
	if (num_devices != NULL)
		*num_devices = n;
	return list;
}

void
ibv_free_device_list(struct ibv_device **list)
{
	free(list);
}

const char *
ibv_get_device_name(struct ibv_device *device)
{
	return device->name;
}

__be64
ibv_get_device_guid(struct ibv_device *device)
{
	struct sim_rdma_dev *dev = sim_rdma_dev_of(device);

	return htobe64(dev != NULL ? mlx5_sim_vhca_guid(dev->vhca) : 0);
}

int
ibv_get_device_index(struct ibv_device *device)
{
	struct sim_rdma_dev *dev = sim_rdma_dev_of(device);

	return dev != NULL ? dev->index : -1;
}

struct ibv_context *
ibv_open_device(struct ibv_device *device)
{
	struct ibv_context *ctx;

	if (sim_rdma_dev_of(device) == NULL) {
		errno = ENODEV;
		return NULL;
	}
	ctx = sim_rdma_open(device, NULL);
	return ctx != NULL ? sim_rdma_ctx_init(ctx) : NULL;
}

/*
 * Open a context as libmlx5 does (rdma-core 29 on, "mlx5: Enable devx by
 * default"): without flags asked for, with a DEVX uid, and without one
 * only if the kernel refuses it.
 */
struct ibv_context *
sim_rdma_open(struct ibv_device *device, struct mlx5dv_context_attr *attr)
{
	struct mlx5dv_context_attr devx = {
		.flags = MLX5DV_CONTEXT_FLAGS_DEVX,
	};
	struct ibv_context *ctx;

	if (attr != NULL && attr->flags != 0)
		return mlx5_sim_open_device(device, attr);
	ctx = mlx5_sim_open_device(device, &devx);
	return ctx != NULL ? ctx : mlx5_sim_open_device(device, NULL);
}

int
ibv_close_device(struct ibv_context *ctx)
{
	return mlx5_sim_close_device(ctx);
}

struct ibv_context *
ibv_import_device(int cmd_fd)
{
	struct ibv_context *ctx = mlx5_sim_import_device(cmd_fd);

	return ctx != NULL ? sim_rdma_ctx_init(ctx) : NULL;
}

int
ibv_query_device(struct ibv_context *ctx, struct ibv_device_attr *attr)
{
	struct ibv_device_attr_ex ex;
	int ret = mlx5_sim_query_device_ex(ctx, NULL, &ex);

	if (ret == 0)
		*attr = ex.orig_attr;
	return ret;
}

/* The GID of @index on a port: fe80::EUI-64 of the vport's MAC. */
static int
sim_rdma_gid(struct ibv_context *ctx, uint32_t port, uint32_t index,
	     union ibv_gid *gid, uint32_t *type)
{
	struct mlx5_sim_ctx *sctx = mlx5_sim_ctx_get(ctx);
	uint8_t mac[6];

	if (sctx == NULL || port < 1 || port > sctx->file->vhca->caps.nports ||
	    index >= SIM_RDMA_GID_TBL_LEN)
		return EINVAL;
	if (index >= SIM_RDMA_GIDS_USED)
		return ENODATA;
	mlx5_sim_vhca_mac(sctx->file->vhca, mac);
	mlx5_sim_mac_gid(mac, gid->raw);
	*type = mlx5_sim_gid_v2(index) ? IBV_GID_TYPE_ROCE_V2 :
					 IBV_GID_TYPE_ROCE_V1;
	return 0;
}

int
ibv_query_gid(struct ibv_context *ctx, uint8_t port, int index,
	      union ibv_gid *gid)
{
	uint32_t type;
	int ret;

	if (index < 0)
		return -1;
	ret = sim_rdma_gid(ctx, port, (uint32_t)index, gid, &type);
	if (ret == ENODATA) {
		/* An empty entry reads as zeros from sysfs. */
		memset(gid, 0, sizeof(*gid));
		return 0;
	}
	if (ret != 0) {
		errno = ret;
		return -1;
	}
	return 0;
}

/*
 * Private to rdma-core's own libraries (pyverbs): the type sysfs shows in
 * gid_attrs/types, rdma-core's enum ibv_gid_type_sysfs (not installed).
 */
enum sim_rdma_gid_type_sysfs {
	SIM_RDMA_GID_SYSFS_ROCE_V1 = 0,
	SIM_RDMA_GID_SYSFS_ROCE_V2 = 1,
};

int ibv_query_gid_type(struct ibv_context *ctx, uint8_t port,
		       unsigned int index, enum sim_rdma_gid_type_sysfs *type);

int
ibv_query_gid_type(struct ibv_context *ctx, uint8_t port, unsigned int index,
		   enum sim_rdma_gid_type_sysfs *type)
{
	union ibv_gid gid;
	uint32_t t;
	int ret = sim_rdma_gid(ctx, port, index, &gid, &t);

	if (ret == ENODATA)
		ret = 0; /* sysfs shows RoCE v1 for an empty entry. */
	if (ret != 0) {
		errno = ret;
		return -1;
	}
	*type = mlx5_sim_gid_v2(index) ? SIM_RDMA_GID_SYSFS_ROCE_V2 :
					 SIM_RDMA_GID_SYSFS_ROCE_V1;
	return 0;
}

int
_ibv_query_gid_ex(struct ibv_context *ctx, uint32_t port, uint32_t index,
		  struct ibv_gid_entry *entry, uint32_t flags,
		  size_t entry_size)
{
	struct sim_rdma_dev *dev = sim_rdma_dev_of(ctx->device);
	struct ibv_gid_entry e;
	int ret;

	if (flags != 0 || entry_size < sizeof(e))
		return EINVAL;
	memset(&e, 0, sizeof(e));
	ret = sim_rdma_gid(ctx, port, index, &e.gid, &e.gid_type);
	if (ret != 0)
		return ret;
	e.gid_index = index;
	e.port_num = port;
	e.ndev_ifindex = dev != NULL && dev->netdev[0] != '\0' ?
				 if_nametoindex(dev->netdev) :
				 0;
	memcpy(entry, &e, sizeof(e));
	return 0;
}

ssize_t
_ibv_query_gid_table(struct ibv_context *ctx, struct ibv_gid_entry *entries,
		     size_t max_entries, uint32_t flags, size_t entry_size)
{
	struct ibv_device_attr attr;
	size_t n = 0;
	uint32_t port, i;

	if (flags != 0 || entry_size < sizeof(*entries))
		return -EINVAL;
	if (ibv_query_device(ctx, &attr) != 0)
		return -errno;
	for (port = 1; port <= attr.phys_port_cnt; port++)
		for (i = 0; i < SIM_RDMA_GIDS_USED; i++) {
			struct ibv_gid_entry *e;

			if (n == max_entries)
				return -EINVAL;
			/* entry_size may exceed the struct: step bytes. */
			e = (void *)((char *)entries + n * entry_size);
			if (_ibv_query_gid_ex(ctx, port, i, e, 0, entry_size) !=
			    0)
				return -EINVAL;
			n++;
		}
	return (ssize_t)n;
}

int
ibv_query_pkey(struct ibv_context *ctx, uint8_t port, int index, __be16 *pkey)
{
	struct mlx5_sim_ctx *sctx = mlx5_sim_ctx_get(ctx);

	/* Ethernet ports: one entry, the default full-membership P_Key. */
	if (sctx == NULL || port < 1 || port > sctx->file->vhca->caps.nports ||
	    index != 0) {
		errno = EINVAL;
		return -1;
	}
	*pkey = htobe16(0xffff);
	return 0;
}

int
ibv_get_pkey_index(struct ibv_context *ctx, uint8_t port, __be16 pkey)
{
	__be16 p;

	if (ibv_query_pkey(ctx, port, 0, &p) == 0 && p == pkey)
		return 0;
	return -1;
}

struct ibv_pd *
ibv_alloc_pd(struct ibv_context *ctx)
{
	return mlx5_sim_alloc_pd(ctx);
}

int
ibv_dealloc_pd(struct ibv_pd *pd)
{
	return mlx5_sim_dealloc_pd(pd);
}

struct ibv_pd *
ibv_import_pd(struct ibv_context *ctx, uint32_t pd_handle)
{
	return mlx5_sim_import_pd(ctx, pd_handle);
}

void
ibv_unimport_pd(struct ibv_pd *pd)
{
	mlx5_sim_unimport_pd(pd);
}

/* Access flags reg_mr takes (the kernel's IB_ACCESS_SUPPORTED). */
#define SIM_RDMA_MR_ACCESS \
	(IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | \
	 IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_ATOMIC | \
	 IBV_ACCESS_MW_BIND | IBV_ACCESS_ZERO_BASED | IBV_ACCESS_ON_DEMAND | \
	 IBV_ACCESS_HUGETLB | IBV_ACCESS_RELAXED_ORDERING)

struct ibv_mr *
ibv_reg_mr_iova2(struct ibv_pd *pd, void *addr, size_t length, uint64_t iova,
		 unsigned int access)
{
	access &= ~IBV_ACCESS_OPTIONAL_RANGE;
	if ((access & ~SIM_RDMA_MR_ACCESS) != 0 ||
	    /* Remote write or atomic needs local write (IBTA). */
	    ((access & (IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_ATOMIC)) &&
	     !(access & IBV_ACCESS_LOCAL_WRITE))) {
		errno = EINVAL;
		return NULL;
	}
	if (iova != (uintptr_t)addr) {
		/* The model's MRs map an address to itself. */
		errno = EOPNOTSUPP;
		return NULL;
	}
	return mlx5_sim_reg_mr(pd, addr, length, (int)access);
}

struct ibv_mr *
ibv_reg_mr(struct ibv_pd *pd, void *addr, size_t length, int access)
{
	return ibv_reg_mr_iova2(pd, addr, length, (uintptr_t)addr,
				(unsigned int)access);
}

int
ibv_rereg_mr(struct ibv_mr *mr, int flags, struct ibv_pd *pd, void *addr,
	     size_t length, int access)
{
	int err = mlx5_sim_rereg_mr(mr, flags, pd, addr, length, access);

	if (err == 0)
		return 0;
	errno = err;
	/* libibverbs: a bad argument, or the kernel refused the command. */
	return err == EINVAL ? IBV_REREG_MR_ERR_INPUT : IBV_REREG_MR_ERR_CMD;
}

struct ibv_dm *
ibv_import_dm(struct ibv_context *ctx, uint32_t dm_handle)
{
	return mlx5_sim_import_dm(ctx, dm_handle);
}

void
ibv_unimport_dm(struct ibv_dm *dm)
{
	mlx5_sim_unimport_dm(dm);
}

struct ibv_mr *
ibv_import_mr(struct ibv_pd *pd, uint32_t mr_handle)
{
	return mlx5_sim_import_mr(pd, mr_handle);
}

void
ibv_unimport_mr(struct ibv_mr *mr)
{
	mlx5_sim_unimport_mr(mr);
}

int
ibv_dereg_mr(struct ibv_mr *mr)
{
	return mlx5_sim_dereg_mr(mr);
}

/*
 * A QP of the model with the provider's datapath state; the send
 * operations (ibv_qp_ex) are the provider's own, not the kernel's.
 */
static struct ibv_qp *
sim_rdma_create_qp_dv_ops(struct ibv_context *ctx,
			  struct ibv_qp_init_attr_ex *attr, uint64_t dv_ops)
{
	struct ibv_qp_init_attr_ex kattr = *attr;
	uint32_t over, wqe;
	struct ibv_qp *qp;
	int err = sim_rdma_qpx_check(attr);

	if (err != 0) {
		errno = err;
		return NULL;
	}
	kattr.comp_mask &= ~(uint32_t)IBV_QP_INIT_ATTR_SEND_OPS_FLAGS;
	/*
	 * libmlx5's WQE size: room for its largest operation (a UMR's, on
	 * RC by default), the inline room what is left of it.
	 */
	over = sim_rdma_sq_overhead(attr, dv_ops);
	wqe = sim_rdma_send_wqe(over, &attr->cap);
	if (wqe == 0) {
		errno = EINVAL;
		return NULL;
	}
	qp = mlx5_sim_create_qp_wqe(ctx, &kattr, wqe);
	if (qp == NULL)
		return NULL;
	attr->cap = kattr.cap;
	/*
	 * An RSS QP or an XRC target has no queue of its own: no
	 * datapath.
	 */
	if ((attr->comp_mask & IBV_QP_INIT_ATTR_RX_HASH) ||
	    attr->qp_type == IBV_QPT_XRC_RECV)
		return qp;
	/* What the WQE leaves after the overhead and an inline header. */
	attr->cap.max_inline_data =
		attr->cap.max_send_wr != 0 && wqe > over + 4 ? wqe - over - 4 :
							       0;
	err = sim_rdma_dp_qp_init(qp, attr, dv_ops);
	if (err != 0) {
		mlx5_sim_destroy_qp(qp);
		errno = err;
		return NULL;
	}
	return qp;
}

static struct ibv_qp *
sim_rdma_create_qp_ex(struct ibv_context *ctx, struct ibv_qp_init_attr_ex *attr)
{
	return sim_rdma_create_qp_dv_ops(ctx, attr, 0);
}

/* The creation flags that allow a raw packet QP's TIR self-loopback. */
#define SIM_RDMA_QP_ALLOW_SELF_LB \
	((uint32_t)(MLX5DV_QP_CREATE_TIR_ALLOW_SELF_LOOPBACK_UC | \
		    MLX5DV_QP_CREATE_TIR_ALLOW_SELF_LOOPBACK_MC))

struct ibv_qp *
sim_rdma_create_qp_dv(struct ibv_context *ctx, struct ibv_qp_init_attr_ex *attr,
		      struct mlx5dv_qp_init_attr *dv)
{
	uint64_t ops = 0;

	if (dv == NULL)
		return sim_rdma_create_qp_ex(ctx, attr);
	/*
	 * libmlx5's checks for what the front carries: creation flags (of
	 * which scattering to the CQE, never done here, may be disabled;
	 * a raw packet QP's TIR may allow self-loopback, which the
	 * device's TIRs do unless a TIR blocks it: mlx5_ib's
	 * MLX5_QP_FLAG_TIR_ALLOW_SELF_LB_UC/_MC, which mlx5_ib takes for
	 * raw packet QPs only; DPDK's lpbk_mode asks them) and mkey send
	 * operations, on RC only (EOPNOTSUPP otherwise).
	 */
	if ((dv->comp_mask &
	     ~(uint64_t)(MLX5DV_QP_INIT_ATTR_MASK_QP_CREATE_FLAGS |
			 MLX5DV_QP_INIT_ATTR_MASK_SEND_OPS_FLAGS)) ||
	    ((dv->comp_mask & MLX5DV_QP_INIT_ATTR_MASK_QP_CREATE_FLAGS) &&
	     (dv->create_flags &
	      ~(uint32_t)(MLX5DV_QP_CREATE_DISABLE_SCATTER_TO_CQE |
			  SIM_RDMA_QP_ALLOW_SELF_LB))) ||
	    ((dv->comp_mask & MLX5DV_QP_INIT_ATTR_MASK_QP_CREATE_FLAGS) &&
	     (dv->create_flags & SIM_RDMA_QP_ALLOW_SELF_LB) &&
	     attr->qp_type != IBV_QPT_RAW_PACKET)) {
		errno = EOPNOTSUPP;
		return NULL;
	}
	if (dv->comp_mask & MLX5DV_QP_INIT_ATTR_MASK_SEND_OPS_FLAGS) {
		ops = dv->send_ops_flags;
		if (attr->qp_type != IBV_QPT_RC ||
		    (ops & ~(uint64_t)SIM_RDMA_DV_UMR_OPS)) {
			errno = EOPNOTSUPP;
			return NULL;
		}
	}
	return sim_rdma_create_qp_dv_ops(ctx, attr, ops);
}

struct ibv_qp *
ibv_create_qp(struct ibv_pd *pd, struct ibv_qp_init_attr *attr)
{
	struct ibv_qp_init_attr_ex ex;
	struct ibv_qp *qp;

	memset(&ex, 0, sizeof(ex));
	memcpy(&ex, attr, sizeof(*attr));
	ex.comp_mask = IBV_QP_INIT_ATTR_PD;
	ex.pd = pd;
	qp = sim_rdma_create_qp_ex(pd->context, &ex);
	if (qp != NULL)
		attr->cap = ex.cap;
	return qp;
}

int
ibv_modify_qp(struct ibv_qp *qp, struct ibv_qp_attr *attr, int attr_mask)
{
	int ret = mlx5_sim_modify_qp(qp, attr, attr_mask);

	/* libmlx5: a QP back in RESET starts its queues over. */
	if (ret == 0 && (attr_mask & IBV_QP_STATE) &&
	    attr->qp_state == IBV_QPS_RESET)
		sim_rdma_dp_qp_reset(qp);
	return ret;
}

int
ibv_query_qp(struct ibv_qp *qp, struct ibv_qp_attr *attr, int attr_mask,
	     struct ibv_qp_init_attr *init_attr)
{
	int ret = mlx5_sim_query_qp(qp, attr, attr_mask, init_attr);

	/* libibverbs keeps the state it was told. */
	if (ret == 0 && (attr_mask & IBV_QP_STATE))
		qp->state = attr->qp_state;
	return ret;
}

int
ibv_destroy_qp(struct ibv_qp *qp)
{
	return sim_rdma_dp_qp_destroy(qp);
}

/*
 * libmlx5's part of SRQ @srq the kernel made (NULL: none): its free list
 * of WQEs, the wr_ids. @srq, or NULL (errno) with the SRQ destroyed.
 */
static struct ibv_srq *
sim_rdma_srq_dp(struct ibv_srq *srq, uint32_t max_sge)
{
	int err = srq != NULL ? sim_rdma_dp_srq_init(srq, max_sge) : 0;

	if (err != 0) {
		mlx5_sim_destroy_srq(srq);
		errno = err;
		return NULL;
	}
	return srq;
}

/* ibv_create_srq_ex(): basic and XRC SRQs. */
static struct ibv_srq *
sim_rdma_create_srq_ex(struct ibv_context *ctx,
		       struct ibv_srq_init_attr_ex *attr)
{
	struct ibv_srq *srq = mlx5_sim_create_srq_ex(ctx, attr);

	/* The SGEs granted: read once the kernel has set them. */
	return sim_rdma_srq_dp(srq, srq != NULL ? attr->attr.max_sge : 0);
}

struct ibv_srq *
ibv_create_srq(struct ibv_pd *pd, struct ibv_srq_init_attr *attr)
{
	struct ibv_srq *srq = mlx5_sim_create_srq(pd, attr);

	/* The SGEs granted: read once the kernel has set them. */
	return sim_rdma_srq_dp(srq, srq != NULL ? attr->attr.max_sge : 0);
}

int
ibv_query_srq(struct ibv_srq *srq, struct ibv_srq_attr *srq_attr)
{
	return mlx5_sim_query_srq(srq, srq_attr);
}

int
ibv_modify_srq(struct ibv_srq *srq, struct ibv_srq_attr *attr, int attr_mask)
{
	return mlx5_sim_modify_srq(srq, attr, attr_mask);
}

int
ibv_destroy_srq(struct ibv_srq *srq)
{
	return mlx5_sim_destroy_srq(srq);
}

struct ibv_comp_channel *
ibv_create_comp_channel(struct ibv_context *ctx)
{
	return sim_rdma_channel_create(ctx);
}

int
ibv_destroy_comp_channel(struct ibv_comp_channel *ch)
{
	return sim_rdma_channel_destroy(ch);
}

int
sim_rdma_cqe_size(int size)
{
	const char *env = getenv("MLX5_CQE_SIZE");

	if (size < 0)
		size = env != NULL ? atoi(env) : 64;
	if (size == 128)
		return EOPNOTSUPP; /* A size of libmlx5's the device lacks. */
	return size == 64 ? 0 : EINVAL;
}

struct ibv_cq *
sim_rdma_cq_new(struct ibv_context *ctx, int cqe, void *cq_context,
		struct ibv_comp_channel *channel, int comp_vector, int size,
		bool oi, int mini_fmt)
{
	struct ibv_cq *cq;
	int err = sim_rdma_cqe_size(size);

	if (err != 0) {
		errno = err;
		return NULL;
	}
	/* The kernel's checks (the vector, the size) are the model's. */
	cq = mlx5_sim_create_cq_dv(ctx, cqe, cq_context, channel, comp_vector,
				   oi, mini_fmt);
	if (cq == NULL)
		return NULL;
	err = sim_rdma_dp_cq_init(cq);
	if (err != 0) {
		mlx5_sim_destroy_cq(cq);
		errno = err;
		return NULL;
	}
	if (channel != NULL)
		__atomic_fetch_add(&channel->refcnt, 1, __ATOMIC_RELAXED);
	return cq;
}

struct ibv_cq *
ibv_create_cq(struct ibv_context *ctx, int cqe, void *cq_context,
	      struct ibv_comp_channel *channel, int comp_vector)
{
	return sim_rdma_cq_new(ctx, cqe, cq_context, channel, comp_vector, -1,
			       false, -1);
}

int
ibv_destroy_cq(struct ibv_cq *cq)
{
	return sim_rdma_dp_cq_destroy(cq);
}

int
ibv_get_cq_event(struct ibv_comp_channel *channel, struct ibv_cq **cq,
		 void **cq_context)
{
	return sim_rdma_channel_get(channel, cq, cq_context);
}

void
ibv_ack_cq_events(struct ibv_cq *cq, unsigned int nevents)
{
	pthread_mutex_lock(&cq->mutex);
	cq->comp_events_completed += nevents;
	pthread_cond_signal(&cq->cond);
	pthread_mutex_unlock(&cq->mutex);
}

int
ibv_get_async_event(struct ibv_context *ctx, struct ibv_async_event *event)
{
	struct pollfd p = { .fd = ctx->async_fd, .events = POLLIN };
	uint64_t v;

	/* The device posts no asynchronous event: wait as the kernel's
	 * file does (a non-blocking fd fails at once with EAGAIN). */
	(void)event;
	if ((fcntl(ctx->async_fd, F_GETFL) & O_NONBLOCK) == 0)
		poll(&p, 1, -1);
	if (read(ctx->async_fd, &v, sizeof(v)) != sizeof(v))
		return -1;
	errno = EAGAIN;
	return -1;
}

void
ibv_ack_async_event(struct ibv_async_event *event)
{
	(void)event;
}

int
ibv_fork_init(void)
{
	/* The device copies from the process's memory: fork is safe. */
	return 0;
}

enum ibv_fork_status
ibv_is_fork_initialized(void)
{
	return IBV_FORK_UNNEEDED;
}

const char *
ibv_node_type_str(enum ibv_node_type node_type)
{
	static const char *const names[] = {
		[IBV_NODE_CA] = "InfiniBand channel adapter",
		[IBV_NODE_SWITCH] = "InfiniBand switch",
		[IBV_NODE_ROUTER] = "InfiniBand router",
		[IBV_NODE_RNIC] = "iWARP NIC",
		[IBV_NODE_USNIC] = "usNIC",
		[IBV_NODE_USNIC_UDP] = "usNIC UDP",
		[IBV_NODE_UNSPECIFIED] = "unspecified",
	};

	if (node_type < 0 || (size_t)node_type >= RTE_DIM(names) ||
	    names[node_type] == NULL)
		return "unknown";
	return names[node_type];
}

const char *
ibv_port_state_str(enum ibv_port_state port_state)
{
	static const char *const names[] = {
		[IBV_PORT_NOP] = "PORT_NOP",
		[IBV_PORT_DOWN] = "PORT_DOWN",
		[IBV_PORT_INIT] = "PORT_INIT",
		[IBV_PORT_ARMED] = "PORT_ARMED",
		[IBV_PORT_ACTIVE] = "PORT_ACTIVE",
		[IBV_PORT_ACTIVE_DEFER] = "PORT_ACTIVE_DEFER",
	};

	if ((size_t)port_state >= RTE_DIM(names))
		return "invalid state";
	return names[port_state];
}

/* Private to rdma-core's own libraries (librdmacm): the sysfs root. */
int ibv_get_sysfs_path(char *buf, size_t size);
int ibv_read_sysfs_file(const char *dir, const char *file, char *buf,
			size_t size);

int
ibv_get_sysfs_path(char *buf, size_t size)
{
	const char *host = getenv("MLX5_SIM_HOST");
	int n;

	if (host != NULL && host[0] != '\0')
		n = snprintf(buf, size, "%s/sys", host);
	else
		n = snprintf(buf, size, "/sys");
	return n >= 0 && (size_t)n < size ? 0 : -1;
}

int
ibv_read_sysfs_file(const char *dir, const char *file, char *buf, size_t size)
{
	char path[PATH_MAX];
	ssize_t len;
	int fd;

	if (size == 0 || snprintf(path, sizeof(path), "%s/%s", dir, file) >=
				 (int)sizeof(path))
		return -1;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	len = read(fd, buf, size - 1);
	close(fd);
	if (len < 0)
		return -1;
	buf[len] = '\0';
	if (len > 0 && buf[len - 1] == '\n')
		buf[--len] = '\0';
	return (int)len;
}
