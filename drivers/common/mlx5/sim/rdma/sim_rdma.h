/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * The rdma-core front of the software device: libraries with rdma-core
 * 44's sonames, symbol versions and struct layouts (libibverbs.so.1,
 * libmlx5.so.1) over the device model, so that a program written for
 * rdma-core (pyverbs, rdma-core's tests, DPDK's mlx5 drivers, ours through
 * the linux/ backend) runs on it unchanged. The front plays the host's
 * part: the kernel's uverbs and mlx5_ib (device list, names, sysfs, port
 * and GID answers) and the provider libmlx5 (the operation tables behind
 * libibverbs' inline calls); the model is the device.
 *
 * The host: $MLX5_SIM_HOST names a folder whose devices.conf lists one
 * device a line, "<ibdev> <pci address> <netdev> <shape>" (shape: the
 * model's key=value list, as the vdev's devargs: card=0,vhca_id=1,...;
 * "-" for no PCI function or no netdev), and whose sys/ is the
 * sysfs-shaped tree devtools/sim-host.py builds from it. Without
 * $MLX5_SIM_HOST the front has one device, mlx5_0, card 0 vHCA 0.
 */

#ifndef SIM_RDMA_H_
#define SIM_RDMA_H_

#include <net/if.h>
#include <stdint.h>

#include <infiniband/mlx5dv.h>
#include <infiniband/verbs.h>

#include "mlx5_sim_priv.h"

#define SIM_RDMA_LOG(level, fmt, ...) \
	mlx5_sim_log(MLX5_SIM_LOG_##level, "mlx5_sim rdma: " fmt "\n", \
		     ##__VA_ARGS__)

/* Exported from libibverbs.so.1 for libmlx5.so.1 (node SIM_RDMA_PRIVATE). */
#define SIM_RDMA_EXPORT __attribute__((visibility("default")))

/* mlx5dv's mkey send operations the front carries (UMR WQEs). */
#define SIM_RDMA_DV_UMR_OPS \
	(MLX5DV_QP_EX_WITH_MR_INTERLEAVED | MLX5DV_QP_EX_WITH_MR_LIST | \
	 MLX5DV_QP_EX_WITH_MKEY_CONFIGURE)
/*
 * libmlx5's send WQE overhead of a QP of @attr (its send operations, by
 * default all its type has) with mlx5dv operations @dv_ops: the largest
 * operation's segments before data (a UMR's control, UMR control, mkey
 * context and one 64-byte translation block when it binds windows,
 * invalidates or configures mkeys), plus a UD QP's datagram segment.
 */
uint32_t sim_rdma_sq_overhead(const struct ibv_qp_init_attr_ex *attr,
			      uint64_t dv_ops);
/*
 * libmlx5's send WQE size for overhead @over and @cap (inline data and
 * gather list after it, in 64-byte blocks), or 0 if too large.
 */
uint32_t sim_rdma_send_wqe(uint32_t over, const struct ibv_qp_cap *cap);
/*
 * mlx5dv_create_qp(): an RC QP with mlx5dv send operations (@dv may be
 * NULL), or NULL with errno.
 */
SIM_RDMA_EXPORT struct ibv_qp *
sim_rdma_create_qp_dv(struct ibv_context *ctx, struct ibv_qp_init_attr_ex *attr,
		      struct mlx5dv_qp_init_attr *dv);
/* mlx5dv_qp_ex_from_ibv_qp_ex(): the mlx5dv send operations of a QP. */
SIM_RDMA_EXPORT struct mlx5dv_qp_ex *sim_rdma_dv_qpx(struct ibv_qp_ex *qpx);

/* GID entries per port: RoCE v1 and v2 of the link-local address. */
#define SIM_RDMA_GIDS_USED 2

/* A device of the host. */
struct sim_rdma_dev {
	struct ibv_device *ibdev; /* The model's (its vHCA's). */
	struct mlx5_sim_vhca *vhca;
	char pci[16];		  /* PCI address, "" if none. */
	char netdev[IF_NAMESIZE]; /* Its netdev, "" if none. */
	int ifindex;		  /* The netdev's, 0 if none. */
	int index;		  /* Kernel index (the list's order). */
};

/* The host's devices (loaded once); NULL with errno on a bad host file. */
SIM_RDMA_EXPORT struct sim_rdma_dev *sim_rdma_devs(int *count);
/* The host device of a model device, or NULL. */
SIM_RDMA_EXPORT struct sim_rdma_dev *sim_rdma_dev_of(struct ibv_device *ib);
/*
 * Make @dev's netdev its port's (sim_rdma_netdev.c): the vport's MAC on
 * it, its MTU and state into the vport, followed from then on. A netdev
 * missing from the namespace leaves the port without one (logged).
 * 0 or a negative errno.
 */
int sim_rdma_netdev_attach(struct sim_rdma_dev *dev);
/*
 * Open a context of @device as libmlx5 does: DEVX unless @attr asks for
 * flags of its own or the device refuses a DEVX uid (then without).
 */
SIM_RDMA_EXPORT struct ibv_context *
sim_rdma_open(struct ibv_device *device, struct mlx5dv_context_attr *attr);
/*
 * A context the model opened, made an rdma-core one: its operation tables
 * filled (libibverbs' inline calls go through them). Returns @ctx.
 */
SIM_RDMA_EXPORT struct ibv_context *sim_rdma_ctx_init(struct ibv_context *ctx);

/*
 * The verbs datapath (sim_rdma_dp.c): the provider's state of a CQ or QP
 * just created (0 or an errno; the object is then destroyed by the
 * caller), a QP moved to RESET (its CQEs taken out of its CQs, its
 * counters back to 0), the destroy of a QP (its CQEs taken out after)
 * or of a CQ (its completion events dropped or waited for), and the
 * operations of struct ibv_context_ops.
 */
int sim_rdma_dp_cq_init(struct ibv_cq *cq);
int sim_rdma_dp_qp_init(struct ibv_qp *qp,
			const struct ibv_qp_init_attr_ex *attr,
			uint64_t dv_ops);
void sim_rdma_dp_qp_reset(struct ibv_qp *qp);
int sim_rdma_dp_qp_destroy(struct ibv_qp *qp);
/*
 * The provider's state of an SRQ just created with @max_sge entries per
 * WQE: its WQEs linked in a free list (libmlx5's), the wr_ids. 0 or an
 * errno (the SRQ is then destroyed by the caller).
 */
int sim_rdma_dp_srq_init(struct ibv_srq *srq, uint32_t max_sge);
int sim_rdma_post_srq_recv(struct ibv_srq *srq, struct ibv_recv_wr *wr,
			   struct ibv_recv_wr **bad);
int sim_rdma_dp_cq_destroy(struct ibv_cq *cq);
/*
 * The send operations @attr asks for (ibv_qp_ex; none without
 * IBV_QP_INIT_ATTR_SEND_OPS_FLAGS): 0, or EOPNOTSUPP for those the front
 * does not carry (RC's SEND, SEND with immediate, RDMA WRITE, with
 * immediate, RDMA READ are).
 */
int sim_rdma_qpx_check(const struct ibv_qp_init_attr_ex *attr);
int sim_rdma_poll_cq(struct ibv_cq *cq, int n, struct ibv_wc *wc);
int sim_rdma_req_notify_cq(struct ibv_cq *cq, int solicited_only);
/*
 * Completion channels (the kernel's part of completion events): an
 * eventfd readable while events are queued, the CQs they name in order.
 */
struct ibv_comp_channel *sim_rdma_channel_create(struct ibv_context *ctx);
int sim_rdma_channel_destroy(struct ibv_comp_channel *ch);
int sim_rdma_channel_get(struct ibv_comp_channel *ch, struct ibv_cq **cq,
			 void **cq_context);
int sim_rdma_post_send(struct ibv_qp *qp, struct ibv_send_wr *wr,
		       struct ibv_send_wr **bad);
int sim_rdma_post_recv(struct ibv_qp *qp, struct ibv_recv_wr *wr,
		       struct ibv_recv_wr **bad);

/*
 * libmlx5's CQE size: @size (an mlx5dv attribute; negative: none), else
 * MLX5_CQE_SIZE from the environment, else 64. 0 for 64 bytes,
 * EOPNOTSUPP for 128 (the device writes 64-byte CQEs), EINVAL for any
 * other.
 */
int sim_rdma_cqe_size(int size);
/*
 * A CQ of CQEs of @size (as sim_rdma_cqe_size() takes it), overruns
 * ignored if @oi, compressed with mini-CQEs of @mini_fmt (-1: not):
 * ibv_create_cq.
 */
struct ibv_cq *sim_rdma_cq_new(struct ibv_context *ctx, int cqe,
			       void *cq_context,
			       struct ibv_comp_channel *channel,
			       int comp_vector, int size, bool oi,
			       int mini_fmt);

/*
 * Extended CQs: libmlx5's iterator over the CQ (sim_rdma_dp.c), CQEs of
 * @size (as sim_rdma_cqe_size() takes it), compressed with mini-CQEs of
 * @mini_fmt (-1: not).
 */
struct ibv_cq_ex *sim_rdma_cq_ex_new(struct ibv_context *ctx,
				     struct ibv_cq_init_attr_ex *attr, int size,
				     int mini_fmt);
struct ibv_cq_ex *sim_rdma_create_cq_ex(struct ibv_context *ctx,
					struct ibv_cq_init_attr_ex *attr);

/* Work queues with libmlx5's receive datapath (sim_rdma_dp.c). */
struct ibv_wq *sim_rdma_create_wq(struct ibv_context *ctx,
				  struct ibv_wq_init_attr *attr);
int sim_rdma_modify_wq(struct ibv_wq *wq, struct ibv_wq_attr *attr);
int sim_rdma_destroy_wq(struct ibv_wq *wq);

#endif /* SIM_RDMA_H_ */
