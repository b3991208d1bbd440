/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * Queue helpers (mlx5_common_devx.h): UAR, CQ and QP objects with their
 * rings and doorbell records, state transitions, and a synchronous
 * loopback QP.
 */

#include <errno.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_errno.h>

#include "mlx5_common_devx.h"
#include "mlx5_common_dp.h"
#include "mlx5_common_log.h"
#include "mlx5_common_private.h"
#include "mlx5_malloc.h"

/* Rings are page aligned (umem registration and log_page_size 0). */
#define MLX5_DEVX_RING_ALIGN 4096
/* The doorbell record: 64 bytes after the ring, as DPDK's PMDs place it. */
#define MLX5_DEVX_DBR_SIZE 64
/* Bytes of a send WQE basic block. */
#define MLX5_WQEBB MLX5_SEND_WQE_BB

int
mlx5_uar_prepare(struct mlx5_common_device *cdev, struct mlx5_uar *uar)
{
	memset(uar, 0, sizeof(*uar));
	errno = 0;
	uar->obj = cdev->glue->devx_alloc_uar(cdev->ctx,
					      MLX5DV_UAR_ALLOC_TYPE_NC);
	/* Kernels and devices without non-cached UARs: a BlueFlame one. */
	if (uar->obj == NULL)
		uar->obj = cdev->glue->devx_alloc_uar(cdev->ctx,
						      MLX5DV_UAR_ALLOC_TYPE_BF);
	if (uar->obj == NULL) {
		rte_errno = errno != 0 ? errno : ENOMEM;
		DRV_LOG(ERR, "%s: UAR allocation failed: %s",
			cdev->dev->name, strerror(rte_errno));
		return -rte_errno;
	}
	uar->db = uar->obj->reg_addr;
	uar->page_id = uar->obj->page_id;
	uar->mmap_off = (uint64_t)uar->obj->mmap_off;
	uar->kick = cdev->glue->uar_kick;
	return 0;
}

void
mlx5_uar_release(struct mlx5_common_device *cdev, struct mlx5_uar *uar)
{
	if (uar->obj != NULL)
		cdev->glue->devx_free_uar(uar->obj);
	memset(uar, 0, sizeof(*uar));
}

int
mlx5_uar_import(struct mlx5_common_device *cdev,
		const struct mlx5_uar *primary, struct mlx5_uar *uar)
{
	int ret;

	if (cdev == NULL || primary == NULL || uar == NULL ||
	    !cdev->secondary) {
		DRV_LOG(ERR, "%s: %s", __func__,
			cdev == NULL || primary == NULL || uar == NULL ?
			"NULL argument" : "not a secondary process's device");
		rte_errno = EINVAL;
		return -EINVAL;
	}
	memset(uar, 0, sizeof(*uar));
	if (cdev->backend->uar_import == NULL) {
		DRV_LOG(ERR, "%s: the %s backend does not support secondary processes yet",
			cdev->dev->name, cdev->backend->name);
		rte_errno = ENOTSUP;
		return -ENOTSUP;
	}
	ret = cdev->backend->uar_import(cdev, primary->page_id,
					primary->mmap_off, uar);
	if (ret != 0) {
		DRV_LOG(ERR, "%s: cannot reach UAR page %u from this process: %s",
			cdev->dev->name, primary->page_id, strerror(-ret));
		memset(uar, 0, sizeof(*uar));
		rte_errno = -ret;
	}
	return ret;
}

void
mlx5_uar_unimport(struct mlx5_common_device *cdev, struct mlx5_uar *uar)
{
	if (cdev == NULL || uar == NULL || uar->obj == NULL)
		return;
	if (cdev->backend->uar_unimport != NULL)
		cdev->backend->uar_unimport(cdev, uar);
	memset(uar, 0, sizeof(*uar));
}

/*
 * One page-aligned buffer of @ring bytes plus the doorbell record,
 * registered as a umem. Returns 0 or a negative errno (rte_errno set).
 */
static int
mlx5_devx_ring_alloc(struct mlx5_common_device *cdev, size_t ring,
		     int socket, void **buf, struct mlx5dv_devx_umem **umem)
{
	size_t size = RTE_ALIGN_CEIL(ring + MLX5_DEVX_DBR_SIZE,
				     MLX5_DEVX_RING_ALIGN);

	*buf = mlx5_malloc(cdev, MLX5_MEM_ZERO, size, MLX5_DEVX_RING_ALIGN,
			   socket);
	if (*buf == NULL) {
		DRV_LOG(ERR, "%s: no memory for a ring of %zu bytes",
			cdev->dev->name, size);
		rte_errno = ENOMEM;
		return -ENOMEM;
	}
	errno = 0;
	*umem = cdev->glue->devx_umem_reg(cdev->ctx, *buf, size,
					  IBV_ACCESS_LOCAL_WRITE);
	if (*umem == NULL) {
		rte_errno = errno != 0 ? errno : ENOMEM;
		DRV_LOG(ERR, "%s: ring umem registration failed: %s",
			cdev->dev->name, strerror(rte_errno));
		mlx5_free(*buf);
		*buf = NULL;
		return -rte_errno;
	}
	return 0;
}

static void
mlx5_devx_ring_free(struct mlx5_common_device *cdev, void *buf,
		    struct mlx5dv_devx_umem *umem)
{
	if (umem != NULL && cdev->glue->devx_umem_dereg(umem) != 0)
		DRV_LOG(ERR, "%s: ring umem deregistration failed",
			cdev->dev->name);
	mlx5_free(buf);
}

/*
 * Destroy a queue's object, then free its ring and umem; a queue the
 * device keeps keeps its ring (the device may still write there).
 */
static int
mlx5_devx_queue_release(struct mlx5_devx_obj **obj,
			struct mlx5_common_device *cdev, void *buf,
			struct mlx5dv_devx_umem *umem)
{
	int ret;

	if (*obj != NULL) {
		/* Unlisted first: once destroyed, *obj is a dangling key. */
		if (cdev != NULL)
			mlx5_queue_track_del(cdev, *obj);
		ret = mlx5_devx_cmd_destroy(*obj);
		if (ret != 0)
			return ret;
		*obj = NULL;
	}
	if (cdev != NULL)
		mlx5_devx_ring_free(cdev, buf, umem);
	return 0;
}

static int
mlx5_devx_cq_new(struct mlx5_common_device *cdev, struct mlx5_devx_cq *cq,
		 uint32_t log_size, struct mlx5_uar *uar, int mini_format,
		 int socket)
{
	size_t ring = sizeof(struct mlx5_cqe64) << log_size;
	struct mlx5_devx_cq_attr attr = {
		.log_cq_size = log_size,
		.uar_page_id = uar->page_id,
		.db_umem_offset = ring,
		.cqe_comp = mini_format >= 0,
		.mini_cqe_format = mini_format >= 0 ? (uint8_t)mini_format : 0,
	};
	uint32_t eqn;
	int ret;

	memset(cq, 0, sizeof(*cq));
	if (log_size > 24) {
		DRV_LOG(ERR, "%s: CQ of 2^%u CQEs", cdev->dev->name, log_size);
		rte_errno = EINVAL;
		return -EINVAL;
	}
	ret = cdev->glue->devx_query_eqn(cdev->ctx, 0, &eqn);
	if (ret != 0) {
		rte_errno = ret;
		DRV_LOG(ERR, "%s: no event queue for completion vector 0: %s",
			cdev->dev->name, strerror(ret));
		return -ret;
	}
	attr.eqn = eqn;
	ret = mlx5_devx_ring_alloc(cdev, ring, socket, &cq->buf, &cq->umem);
	if (ret != 0)
		return ret;
	cq->cqes = cq->buf;
	cq->db_rec = (volatile uint32_t *)(void *)((uint8_t *)cq->buf + ring);
	/* Invalid and owned by the device until it writes them. */
	for (uint32_t i = 0; i < (1u << log_size); i++)
		cq->cqes[i].op_own = MLX5_CQE_INVALID << 4 |
				     MLX5_CQE_OWNER_MASK;
	attr.q_umem_id = cq->umem->umem_id;
	attr.db_umem_id = cq->umem->umem_id;
	cq->obj = mlx5_devx_cmd_create_cq(cdev, &attr);
	if (cq->obj == NULL) {
		ret = -rte_errno;
		mlx5_devx_ring_free(cdev, cq->buf, cq->umem);
		memset(cq, 0, sizeof(*cq));
		rte_errno = -ret;
		return ret;
	}
	cq->log_size = log_size;
	cq->cdev = cdev;
	mlx5_queue_track_add(cdev, MLX5_QUEUE_CQ, cq->obj, log_size, 0);
	return 0;
}

int
mlx5_devx_cq_create(struct mlx5_common_device *cdev,
		    struct mlx5_devx_cq *cq, uint32_t log_size,
		    struct mlx5_uar *uar, int socket)
{
	return mlx5_devx_cq_new(cdev, cq, log_size, uar, -1, socket);
}

int
mlx5_devx_cq_create_comp(struct mlx5_common_device *cdev,
			 struct mlx5_devx_cq *cq, uint32_t log_size,
			 struct mlx5_uar *uar, uint8_t mini_format, int socket)
{
	memset(cq, 0, sizeof(*cq));
	if (cdev->caps.cqe_comp_max == 0) {
		DRV_LOG(ERR, "%s: the device does not compress CQEs",
			cdev->dev->name);
		rte_errno = ENOTSUP;
		return -ENOTSUP;
	}
	if (mini_format > MLX5_MINI_CQE_FORMAT_CSUM) {
		DRV_LOG(ERR, "%s: mini-CQE format %u: hash (0) or checksum"
			" (1) only", cdev->dev->name, mini_format);
		rte_errno = EINVAL;
		return -EINVAL;
	}
	return mlx5_devx_cq_new(cdev, cq, log_size, uar, mini_format, socket);
}

int
mlx5_devx_cq_destroy(struct mlx5_devx_cq *cq)
{
	int ret = mlx5_devx_queue_release(&cq->obj, cq->cdev, cq->buf,
					  cq->umem);

	if (ret == 0)
		memset(cq, 0, sizeof(*cq));
	return ret;
}

int
mlx5_devx_qp_create(struct mlx5_common_device *cdev,
		    struct mlx5_devx_qp *qp,
		    const struct mlx5_devx_qp_params *params, int socket)
{
	bool no_rq = params->log_rq_size == 0;
	struct mlx5_devx_qp_attr attr = {
		.pd = params->pd,
		.uar_page_id = params->uar->page_id,
		.cqn_snd = params->cqn,
		.cqn_rcv = params->cqn,
		.log_sq_size = params->log_sq_size,
		.log_rq_size = params->log_rq_size,
		.log_rq_stride = params->log_rq_stride,
		.no_rq = no_rq,
	};
	size_t rq, ring;
	int ret;

	memset(qp, 0, sizeof(*qp));
	/* 15: a 16-bit send counter tells a full ring from an empty one. */
	if (params->log_sq_size > 15 || params->log_rq_size > 15 ||
	    params->log_rq_stride > 7) {
		DRV_LOG(ERR, "%s: QP of 2^%u send blocks, 2^%u receive WQEs of"
			" 16 << %u bytes", cdev->dev->name,
			params->log_sq_size, params->log_rq_size,
			params->log_rq_stride);
		rte_errno = EINVAL;
		return -EINVAL;
	}
	rq = no_rq ? 0 : (size_t)MLX5_RQ_STRIDE_UNIT <<
			 (params->log_rq_size + params->log_rq_stride);
	/* The send queue starts on a basic block (rdma-core's rule). */
	if (!no_rq && rq < MLX5_WQEBB) {
		DRV_LOG(ERR, "%s: receive queue of %zu bytes, below one send"
			" block", cdev->dev->name, rq);
		rte_errno = EINVAL;
		return -EINVAL;
	}
	ring = rq + ((size_t)MLX5_WQEBB << params->log_sq_size);
	attr.db_umem_offset = ring;
	ret = mlx5_devx_ring_alloc(cdev, ring, socket, &qp->buf, &qp->umem);
	if (ret != 0)
		return ret;
	attr.wq_umem_id = qp->umem->umem_id;
	attr.db_umem_id = qp->umem->umem_id;
	qp->obj = mlx5_devx_cmd_create_qp(cdev, &attr);
	if (qp->obj == NULL) {
		ret = -rte_errno;
		mlx5_devx_ring_free(cdev, qp->buf, qp->umem);
		memset(qp, 0, sizeof(*qp));
		rte_errno = -ret;
		return ret;
	}
	qp->rq = no_rq ? NULL : qp->buf;
	qp->sq = (uint8_t *)qp->buf + rq;
	qp->db_rec = (volatile uint32_t *)(void *)((uint8_t *)qp->buf + ring);
	qp->log_sq_size = params->log_sq_size;
	qp->log_rq_size = params->log_rq_size;
	qp->log_rq_stride = params->log_rq_stride;
	qp->uar = params->uar;
	qp->cdev = cdev;
	mlx5_queue_track_add(cdev, MLX5_QUEUE_QP, qp->obj, params->log_sq_size,
			     params->cqn);
	return 0;
}

int
mlx5_devx_qp_destroy(struct mlx5_devx_qp *qp)
{
	int ret = mlx5_devx_queue_release(&qp->obj, qp->cdev, qp->buf,
					  qp->umem);

	if (ret == 0)
		memset(qp, 0, sizeof(*qp));
	return ret;
}

int
mlx5_devx_qp_to_rts(struct mlx5_devx_qp *qp, uint32_t remote_qpn)
{
	int ret;

	/* The device reads the send counter at RTS: start from zero. */
	qp->sq_pi = 0;
	qp->db_rec[MLX5_SND_DBR] = 0;
	qp->db_rec[MLX5_RCV_DBR] = 0;
	rte_io_wmb();
	ret = mlx5_devx_cmd_modify_qp_state(qp->obj, MLX5_CMD_OP_RST2INIT_QP,
					    0);
	if (ret == 0)
		ret = mlx5_devx_cmd_modify_qp_state(qp->obj,
						    MLX5_CMD_OP_INIT2RTR_QP,
						    remote_qpn);
	if (ret == 0)
		ret = mlx5_devx_cmd_modify_qp_state(qp->obj,
						    MLX5_CMD_OP_RTR2RTS_QP, 0);
	if (ret != 0)
		return ret;
	qp->remote_qpn = remote_qpn;
	return 0;
}

int
mlx5_devx_qp_recover(struct mlx5_devx_qp *qp)
{
	int ret;

	ret = mlx5_devx_cmd_modify_qp_state(qp->obj, MLX5_CMD_OP_2RST_QP, 0);
	if (ret != 0)
		return ret;
	return mlx5_devx_qp_to_rts(qp, qp->remote_qpn);
}

/* An SQ/RQ's state move, remembered. */
static int
mlx5_devx_sq_move(struct mlx5_devx_sq *sq, uint8_t next)
{
	struct mlx5_devx_sq_modify m = {
		.cur_state = sq->state,
		.new_state = next,
	};
	int ret = mlx5_devx_cmd_modify_sq(sq->obj, &m);

	if (ret == 0)
		sq->state = next;
	return ret;
}

int
mlx5_devx_sq_create(struct mlx5_common_device *cdev,
		    struct mlx5_devx_sq *sq,
		    const struct mlx5_devx_sq_params *params, int socket)
{
	size_t ring = (size_t)MLX5_WQEBB << params->log_size;
	struct mlx5_devx_sq_attr attr = {
		.cqn = params->cqn,
		.tisn = params->tisn,
		.allow_empw = params->allow_empw,
		.min_wqe_inline_mode = params->min_wqe_inline_mode,
		.wq = {
			.wq_type = MLX5_WQ_TYPE_CYCLIC,
			.pd = params->pd,
			.uar_page_id = params->uar->page_id,
			.log_wq_stride = MLX5_SQ_LOG_WQ_STRIDE,
			.log_wq_sz = params->log_size,
			.db_umem_offset = ring,
		},
	};
	int ret;

	memset(sq, 0, sizeof(*sq));
	if (params->log_size > 15) {
		DRV_LOG(ERR, "%s: SQ of 2^%u blocks", cdev->dev->name,
			params->log_size);
		rte_errno = EINVAL;
		return -EINVAL;
	}
	if (params->allow_empw && !cdev->caps.eth.empw) {
		DRV_LOG(ERR, "%s: SQ with enhanced multi-packet WQEs: the"
			" device lacks enhanced_multi_pkt_send_wqe",
			cdev->dev->name);
		rte_errno = ENOTSUP;
		return -ENOTSUP;
	}
	ret = mlx5_devx_ring_alloc(cdev, ring, socket, &sq->buf, &sq->umem);
	if (ret != 0)
		return ret;
	attr.wq.wq_umem_id = sq->umem->umem_id;
	attr.wq.db_umem_id = sq->umem->umem_id;
	sq->obj = mlx5_devx_cmd_create_sq(cdev, &attr);
	if (sq->obj == NULL) {
		ret = -rte_errno;
		goto error;
	}
	sq->wqes = sq->buf;
	sq->db_rec = (volatile uint32_t *)(void *)((uint8_t *)sq->buf + ring);
	sq->log_size = params->log_size;
	sq->cdev = cdev;
	sq->state = MLX5_WQ_STATE_RST;
	ret = mlx5_devx_sq_move(sq, MLX5_WQ_STATE_RDY);
	if (ret != 0)
		goto error;
	mlx5_queue_track_add(cdev, MLX5_QUEUE_SQ, sq->obj, params->log_size,
			     params->cqn);
	return 0;
error:
	if (sq->obj != NULL)
		mlx5_devx_cmd_destroy(sq->obj);
	mlx5_devx_ring_free(cdev, sq->buf, sq->umem);
	memset(sq, 0, sizeof(*sq));
	rte_errno = -ret;
	return ret;
}

int
mlx5_devx_sq_recover(struct mlx5_devx_sq *sq)
{
	struct mlx5_devx_wq_info info;
	int ret;

	/* An error completion moved it to ERR behind our back: ask. */
	ret = mlx5_devx_cmd_query_sq(sq->obj, &info);
	if (ret != 0)
		return ret;
	sq->state = info.state;
	if (sq->state != MLX5_WQ_STATE_RST) {
		ret = mlx5_devx_sq_move(sq, MLX5_WQ_STATE_RST);
		if (ret != 0)
			return ret;
	}
	/* The device restarts at 0: so does the software. */
	sq->pi = 0;
	sq->db_rec[MLX5_SND_DBR] = 0;
	rte_io_wmb();
	return mlx5_devx_sq_move(sq, MLX5_WQ_STATE_RDY);
}

int
mlx5_devx_rq_recover(struct mlx5_devx_rq *rq)
{
	struct mlx5_devx_wq_info info;
	int ret;

	ret = mlx5_devx_cmd_query_rq(rq->obj, &info);
	if (ret != 0)
		return ret;
	rq->state = info.state;
	if (rq->state != MLX5_WQ_STATE_RST) {
		ret = mlx5_devx_cmd_modify_rq(rq->obj, rq->state,
					      MLX5_WQ_STATE_RST);
		if (ret != 0)
			return ret;
		rq->state = MLX5_WQ_STATE_RST;
	}
	rq->db_rec[MLX5_RCV_DBR] = 0;
	rte_io_wmb();
	ret = mlx5_devx_cmd_modify_rq(rq->obj, MLX5_WQ_STATE_RST,
				      MLX5_WQ_STATE_RDY);
	if (ret == 0)
		rq->state = MLX5_WQ_STATE_RDY;
	return ret;
}

int
mlx5_devx_sq_destroy(struct mlx5_devx_sq *sq)
{
	int ret = mlx5_devx_queue_release(&sq->obj, sq->cdev, sq->buf,
					  sq->umem);

	if (ret == 0)
		memset(sq, 0, sizeof(*sq));
	return ret;
}

int
mlx5_devx_rq_create(struct mlx5_common_device *cdev,
		    struct mlx5_devx_rq *rq,
		    const struct mlx5_devx_rq_params *params, int socket)
{
	size_t ring = (size_t)1 << (params->log_size + params->log_stride);
	struct mlx5_devx_rq_attr attr = {
		.cqn = params->cqn,
		.vsd = !params->vlan_strip,
		.scatter_fcs = params->scatter_fcs,
		.counter_set_id = params->counter_set_id,
		.user_index = params->user_index,
		.wq = {
			.wq_type = MLX5_WQ_TYPE_CYCLIC,
			.pd = params->pd,
			.log_wq_stride = params->log_stride,
			.log_wq_sz = params->log_size,
			.db_umem_offset = RTE_ALIGN_CEIL(ring, 64),
		},
	};
	int ret;

	memset(rq, 0, sizeof(*rq));
	if (params->log_size > 15 || params->log_stride < 4 ||
	    params->log_stride > 11 ||
	    (params->vlan_strip && !cdev->caps.eth.vlan_cap)) {
		DRV_LOG(ERR, "%s: RQ of 2^%u WQEs of 2^%u bytes%s",
			cdev->dev->name, params->log_size, params->log_stride,
			params->vlan_strip ? " with VLAN stripping" : "");
		rte_errno = EINVAL;
		return -EINVAL;
	}
	ret = mlx5_devx_ring_alloc(cdev, RTE_ALIGN_CEIL(ring, 64), socket,
				   &rq->buf, &rq->umem);
	if (ret != 0)
		return ret;
	attr.wq.wq_umem_id = rq->umem->umem_id;
	attr.wq.db_umem_id = rq->umem->umem_id;
	rq->obj = mlx5_devx_cmd_create_rq(cdev, &attr);
	if (rq->obj == NULL) {
		ret = -rte_errno;
		goto error;
	}
	ret = mlx5_devx_cmd_modify_rq(rq->obj, MLX5_WQ_STATE_RST,
				      MLX5_WQ_STATE_RDY);
	if (ret != 0)
		goto error;
	rq->wqes = rq->buf;
	rq->db_rec = (volatile uint32_t *)(void *)((uint8_t *)rq->buf +
			RTE_ALIGN_CEIL(ring, 64));
	rq->log_size = params->log_size;
	rq->log_stride = params->log_stride;
	rq->state = MLX5_WQ_STATE_RDY;
	rq->cdev = cdev;
	mlx5_queue_track_add(cdev, MLX5_QUEUE_RQ, rq->obj, params->log_size,
			     params->cqn);
	return 0;
error:
	if (rq->obj != NULL)
		mlx5_devx_cmd_destroy(rq->obj);
	mlx5_devx_ring_free(cdev, rq->buf, rq->umem);
	memset(rq, 0, sizeof(*rq));
	rte_errno = -ret;
	return ret;
}

int
mlx5_devx_rq_destroy(struct mlx5_devx_rq *rq)
{
	int ret = mlx5_devx_queue_release(&rq->obj, rq->cdev, rq->buf,
					  rq->umem);

	if (ret == 0)
		memset(rq, 0, sizeof(*rq));
	return ret;
}

int
mlx5_devx_lbqp_create(struct mlx5_common_device *cdev,
		      struct mlx5_devx_lbqp *lb, uint32_t pd)
{
	struct mlx5_devx_qp_params params = {
		.pd = pd,
		.log_sq_size = 4,
		.uar = &lb->uar,
	};
	int ret;

	memset(lb, 0, sizeof(*lb));
	if (!cdev->caps.fl_rc_qp_when_roce_enabled &&
	    !cdev->caps.fl_rc_qp_when_roce_disabled) {
		DRV_LOG(ERR, "%s: no force-loopback RC QP on this device",
			cdev->dev->name);
		rte_errno = ENOTSUP;
		return -ENOTSUP;
	}
	lb->cdev = cdev;
	lb->pd = pd;
	ret = mlx5_uar_prepare(cdev, &lb->uar);
	if (ret != 0)
		return ret;
	ret = mlx5_devx_cq_create(cdev, &lb->cq, 4, &lb->uar, SOCKET_ID_ANY);
	if (ret != 0)
		goto error;
	params.cqn = lb->cq.obj->id;
	ret = mlx5_devx_qp_create(cdev, &lb->qp, &params, SOCKET_ID_ANY);
	if (ret != 0)
		goto error;
	ret = mlx5_devx_qp_to_rts(&lb->qp, lb->qp.obj->id);
	if (ret != 0)
		goto error;
	return 0;
error:
	mlx5_devx_lbqp_destroy(lb);
	rte_errno = -ret;
	return ret;
}

/* Release the staging buffer of mlx5_devx_lbqp_copy(). */
static int
mlx5_devx_lbqp_stage_free(struct mlx5_devx_lbqp *lb)
{
	int ret;

	/* Unusable from the first step: a refusal below keeps a part only. */
	lb->stage_len = 0;
	if (lb->stage_mkey != NULL) {
		ret = mlx5_devx_cmd_destroy(lb->stage_mkey);
		if (ret != 0)
			return ret;
		lb->stage_mkey = NULL;
	}
	if (lb->stage_umem != NULL) {
		ret = lb->cdev->glue->devx_umem_dereg(lb->stage_umem);
		if (ret != 0) {
			rte_errno = ret;
			return -ret;
		}
		lb->stage_umem = NULL;
	}
	mlx5_free(lb->stage);
	lb->stage = NULL;
	return 0;
}

int
mlx5_devx_lbqp_destroy(struct mlx5_devx_lbqp *lb)
{
	struct mlx5_common_device *cdev = lb->cdev;
	int ret;

	ret = cdev != NULL ? mlx5_devx_lbqp_stage_free(lb) : 0;
	if (ret == 0)
		ret = mlx5_devx_qp_destroy(&lb->qp);
	if (ret == 0)
		ret = mlx5_devx_cq_destroy(&lb->cq);
	if (ret != 0)
		return ret; /* Kept: the device still has the queues. */
	if (cdev != NULL)
		mlx5_uar_release(cdev, &lb->uar);
	memset(lb, 0, sizeof(*lb));
	return 0;
}

/* Wait up to a second for the next CQE; return its status. */
static enum mlx5_cqe_status
mlx5_devx_lbqp_wait(struct mlx5_devx_cq *cq, volatile struct mlx5_cqe64 **out)
{
	uint64_t deadline = rte_get_timer_cycles() + rte_get_timer_hz();
	volatile struct mlx5_cqe64 *cqe =
		&cq->cqes[cq->ci & ((1u << cq->log_size) - 1)];
	enum mlx5_cqe_status st;

	do {
		st = mlx5_cqe_status(cqe, cq->log_size, cq->ci);
		if (st != MLX5_CQE_STATUS_HW_OWN) {
			*out = cqe;
			cq->ci++;
			mlx5_cq_db_update(cq->db_rec, cq->ci);
			return st;
		}
		rte_pause();
	} while (rte_get_timer_cycles() < deadline);
	return MLX5_CQE_STATUS_HW_OWN;
}

int
mlx5_devx_lbqp_rdma(struct mlx5_devx_lbqp *lb, uint8_t opcode,
		    uint32_t lkey, uint64_t laddr, uint32_t rkey,
		    uint64_t raddr, uint32_t len, uint8_t *syndrome)
{
	struct mlx5_devx_qp *qp = &lb->qp;
	uint16_t idx = qp->sq_pi & ((1u << qp->log_sq_size) - 1);
	uint8_t *wqe = qp->sq + (size_t)idx * MLX5_WQEBB;
	struct mlx5_wqe_ctrl_seg *ctrl = (void *)wqe;
	struct mlx5_wqe_raddr_seg *raddr_seg = (void *)(ctrl + 1);
	struct mlx5_wqe_data_seg *data = (void *)(raddr_seg + 1);
	volatile struct mlx5_cqe64 *cqe = NULL;
	enum mlx5_cqe_status st;
	uint8_t log_max = lb->cdev->caps.log_max_msg;
	uint8_t synd = 0;
	int ret = 0;

	/*
	 * A data segment's byte count of 0 means 2^31 and its top bit marks
	 * inline data: 1..2^30 bytes, and no more than the QP's messages
	 * (log_msg_max 30) and the device allow.
	 */
	if ((opcode != MLX5_OPCODE_RDMA_WRITE &&
	     opcode != MLX5_OPCODE_RDMA_READ) || len == 0 ||
	    len > (UINT32_C(1) << RTE_MIN(30, log_max != 0 ? log_max : 30))) {
		rte_errno = EINVAL;
		return -EINVAL;
	}
	memset(wqe, 0, MLX5_WQEBB);
	ctrl->opmod_idx_opcode = rte_cpu_to_be_32((uint32_t)qp->sq_pi << 8 |
						  opcode);
	ctrl->qpn_ds = rte_cpu_to_be_32(qp->obj->id << 8 | 3);
	ctrl->fm_ce_se = MLX5_WQE_CTRL_CQ_UPDATE;
	raddr_seg->raddr = rte_cpu_to_be_64(raddr);
	raddr_seg->rkey = rte_cpu_to_be_32(rkey);
	data->byte_count = rte_cpu_to_be_32(len);
	data->lkey = rte_cpu_to_be_32(lkey);
	data->addr = rte_cpu_to_be_64(laddr);
	qp->sq_pi++;
	mlx5_doorbell_ring(qp->uar, &qp->db_rec[MLX5_SND_DBR], qp->sq_pi,
			   ctrl);
	st = mlx5_devx_lbqp_wait(&lb->cq, &cqe);
	if (st == MLX5_CQE_STATUS_ERR) {
		synd = ((volatile struct mlx5_err_cqe *)cqe)->syndrome;
		ret = -EIO;
	} else if (st == MLX5_CQE_STATUS_HW_OWN) {
		ret = -ETIMEDOUT;
	}
	if (syndrome != NULL)
		*syndrome = synd;
	if (ret == 0)
		return 0;
	DRV_LOG(DEBUG, "loopback QP 0x%x: RDMA %s lkey 0x%08x rkey 0x%08x"
		" len %u: %s (syndrome 0x%x)", qp->obj->id,
		opcode == MLX5_OPCODE_RDMA_WRITE ? "write" : "read", lkey,
		rkey, len, ret == -EIO ? "error completion" : "no completion",
		synd);
	if (mlx5_devx_qp_recover(qp) != 0)
		DRV_LOG(ERR, "loopback QP 0x%x: recovery failed", qp->obj->id);
	/* Completions of the old queue never come after a reset. */
	rte_errno = -ret;
	return ret;
}

/* A staging buffer of at least @len bytes, readable and writable remotely. */
static int
mlx5_devx_lbqp_stage(struct mlx5_devx_lbqp *lb, size_t len)
{
	struct mlx5_common_device *cdev = lb->cdev;
	size_t cap = RTE_ALIGN_CEIL(RTE_MAX(len, (size_t)65536),
				    MLX5_DEVX_RING_ALIGN);
	struct mlx5_devx_mkey_attr attr = {
		.access_mode = MLX5_MKC_ACCESS_MODE_MTT,
		.pd = lb->pd,
		.lr = true, .lw = true, .rr = true, .rw = true,
		.log_page_size = 12,
		.size = cap,
	};
	int ret;

	if (lb->stage_len >= len)
		return 0;
	ret = mlx5_devx_lbqp_stage_free(lb);
	if (ret != 0)
		return ret;
	lb->stage = mlx5_malloc(cdev, MLX5_MEM_ZERO, cap, MLX5_DEVX_RING_ALIGN,
				SOCKET_ID_ANY);
	if (lb->stage == NULL) {
		rte_errno = ENOMEM;
		return -ENOMEM;
	}
	errno = 0;
	lb->stage_umem = cdev->glue->devx_umem_reg(cdev->ctx, lb->stage, cap,
		IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_READ |
		IBV_ACCESS_REMOTE_WRITE);
	if (lb->stage_umem == NULL) {
		ret = -(errno != 0 ? errno : ENOMEM);
		goto error;
	}
	attr.addr = (uintptr_t)lb->stage;
	attr.umem_id = lb->stage_umem->umem_id;
	lb->stage_mkey = mlx5_devx_cmd_mkey_create(cdev, &attr);
	if (lb->stage_mkey == NULL) {
		ret = -rte_errno;
		goto error;
	}
	lb->stage_len = cap;
	return 0;
error:
	mlx5_devx_lbqp_stage_free(lb);
	rte_errno = -ret;
	return ret;
}

int
mlx5_devx_lbqp_copy(struct mlx5_devx_lbqp *lb, uint32_t key, uint64_t addr,
		    void *buf, size_t len, bool to_memory, uint8_t *syndrome)
{
	int ret;

	if (syndrome != NULL)
		*syndrome = 0;
	if (len == 0)
		return 0;
	if (len > (UINT32_C(1) << 30)) {
		rte_errno = EINVAL;
		return -EINVAL;
	}
	ret = mlx5_devx_lbqp_stage(lb, len);
	if (ret != 0)
		return ret;
	if (to_memory)
		memcpy(lb->stage, buf, len);
	ret = mlx5_devx_lbqp_rdma(lb, to_memory ? MLX5_OPCODE_RDMA_READ :
				  MLX5_OPCODE_RDMA_WRITE, key, addr,
				  lb->stage_mkey->id, (uintptr_t)lb->stage,
				  (uint32_t)len, syndrome);
	if (ret == 0 && !to_memory)
		memcpy(buf, lb->stage, len);
	return ret;
}
