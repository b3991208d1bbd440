/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * Queues through the common helpers: CQ and RC QP creation, the QP state
 * machine, hand-built send WQEs rung through the doorbell helper, CQEs
 * polled with the ownership check, error completions and flushes, recovery,
 * and the loopback QP that moves bytes between keys by RDMA. Runs on the
 * software device, or on a real device named by MLX5_TEST_DEVICE.
 */

#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include <infiniband/mlx5dv.h>

#include <rte_cycles.h>

#include <mlx5_common_devx.h>
#include <mlx5_malloc.h>
#include <mlx5_sim.h>
#include <mlx5_common_dp.h>

#include "mlx5_test.h"
#include "mlx5_test_dev.h"

#define Q_CARD 60
#define BUF_LEN 8192

static struct mlx5_common_device *cdev;
static long live0;

static int
q_case_setup(void)
{
	if (tdev_probe(0, "card=60,vhca_id=0") != 0)
		return TEST_FAILED;
	cdev = tdev_cdev(0);
	live0 = tdev_live(0);
	return cdev != NULL ? TEST_SUCCESS : TEST_FAILED;
}

static void
q_case_teardown(void)
{
	if (!tdev_hw())
		mlx5_sim_fault_clear(Q_CARD, 0);
	tdev_remove_all();
	cdev = NULL;
}

/* A page-aligned buffer and its MR on @pd. */
struct q_buf {
	uint8_t *va;
	struct ibv_mr *mr;
};

static int
q_buf_get(struct q_buf *b, struct ibv_pd *pd, int access)
{
	b->va = aligned_alloc(4096, BUF_LEN);
	if (b->va == NULL)
		return -ENOMEM;
	memset(b->va, 0, BUF_LEN);
	b->mr = cdev->glue->reg_mr(pd, b->va, BUF_LEN, access);
	if (b->mr == NULL) {
		free(b->va);
		b->va = NULL;
		return -errno;
	}
	return 0;
}

static void
q_buf_put(struct q_buf *b)
{
	if (b->mr != NULL)
		cdev->glue->dereg_mr(b->mr);
	free(b->va);
	memset(b, 0, sizeof(*b));
}

#define Q_RW (IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | \
	      IBV_ACCESS_REMOTE_READ)

static int
test_lbqp_write_read(void)
{
	struct mlx5_devx_lbqp lb;
	struct q_buf a, b, c;
	uint8_t synd = 0xff;

	TEST_ASSERT_SUCCESS(q_buf_get(&a, cdev->pd, Q_RW), "");
	TEST_ASSERT_SUCCESS(q_buf_get(&b, cdev->pd, Q_RW), "");
	TEST_ASSERT_SUCCESS(q_buf_get(&c, cdev->pd, Q_RW), "");
	for (int i = 0; i < BUF_LEN; i++)
		a.va[i] = (uint8_t)(i * 7 + 3);
	TEST_ASSERT_SUCCESS(mlx5_devx_lbqp_create(cdev, &lb, cdev->pdn), "");
	/* Write a -> b, then read b -> c, in pieces and whole. */
	TEST_ASSERT_SUCCESS(mlx5_devx_lbqp_rdma(&lb, MLX5_OPCODE_RDMA_WRITE,
		a.mr->lkey, (uintptr_t)a.va + 1, b.mr->rkey,
		(uintptr_t)b.va + 100, 5000, &synd), "write");
	TEST_ASSERT_EQUAL(synd, 0, "");
	TEST_ASSERT(memcmp(b.va + 100, a.va + 1, 5000) == 0, "written");
	TEST_ASSERT(b.va[99] == 0 && b.va[5100] == 0, "nothing around");
	TEST_ASSERT_SUCCESS(mlx5_devx_lbqp_rdma(&lb, MLX5_OPCODE_RDMA_READ,
		c.mr->lkey, (uintptr_t)c.va, b.mr->rkey, (uintptr_t)b.va,
		BUF_LEN, NULL), "read");
	TEST_ASSERT(memcmp(c.va, b.va, BUF_LEN) == 0, "read back");
	/* Many in a row: the send queue and the CQ wrap several times. */
	for (int i = 0; i < 100; i++)
		TEST_ASSERT_SUCCESS(mlx5_devx_lbqp_rdma(&lb,
			MLX5_OPCODE_RDMA_WRITE, a.mr->lkey,
			(uintptr_t)a.va + i, b.mr->rkey, (uintptr_t)b.va,
			64, NULL), "write %d", i);
	TEST_ASSERT(memcmp(b.va, a.va + 99, 64) == 0, "last write");
	TEST_ASSERT_EQUAL(mlx5_devx_lbqp_rdma(&lb, 0x0a, a.mr->lkey, 0, 0, 0,
					      0, NULL), -EINVAL, "SEND");
	mlx5_devx_lbqp_destroy(&lb);
	q_buf_put(&a);
	q_buf_put(&b);
	q_buf_put(&c);
	TDEV_ASSERT_LIVE(0, live0, "everything destroyed");
	return TEST_SUCCESS;
}

static int
test_lbqp_errors(void)
{
	struct mlx5_devx_lbqp lb;
	struct q_buf a, ro, lo, other;
	struct ibv_pd *pd2;
	uint8_t synd = 0;

	TEST_ASSERT_SUCCESS(q_buf_get(&a, cdev->pd, Q_RW), "");
	/* Remote read only; local only. */
	TEST_ASSERT_SUCCESS(q_buf_get(&ro, cdev->pd, IBV_ACCESS_REMOTE_READ),
			    "");
	TEST_ASSERT_SUCCESS(q_buf_get(&lo, cdev->pd, IBV_ACCESS_LOCAL_WRITE),
			    "");
	pd2 = cdev->glue->alloc_pd(cdev->ctx);
	TEST_ASSERT_NOT_NULL(pd2, "second PD");
	TEST_ASSERT_SUCCESS(q_buf_get(&other, pd2, Q_RW), "");
	TEST_ASSERT_SUCCESS(mlx5_devx_lbqp_create(cdev, &lb, cdev->pdn), "");

	/* A key that does not exist: local protection error. */
	TEST_ASSERT_EQUAL(mlx5_devx_lbqp_rdma(&lb, MLX5_OPCODE_RDMA_WRITE,
		a.mr->lkey ^ 0x100, (uintptr_t)a.va, a.mr->rkey,
		(uintptr_t)a.va + 4096, 16, &synd), -EIO, "bad lkey");
	TEST_ASSERT_EQUAL(synd, MLX5_CQE_SYNDROME_LOCAL_PROT_ERR, "");
	/* The QP was recovered: the next one works. */
	TEST_ASSERT_SUCCESS(mlx5_devx_lbqp_rdma(&lb, MLX5_OPCODE_RDMA_WRITE,
		a.mr->lkey, (uintptr_t)a.va, a.mr->rkey,
		(uintptr_t)a.va + 4096, 16, &synd), "after recovery");
	/* Beyond the end of the key. */
	TEST_ASSERT_EQUAL(mlx5_devx_lbqp_rdma(&lb, MLX5_OPCODE_RDMA_WRITE,
		a.mr->lkey, (uintptr_t)a.va + BUF_LEN - 8, a.mr->rkey,
		(uintptr_t)a.va, 16, &synd), -EIO, "local range");
	TEST_ASSERT_EQUAL(synd, MLX5_CQE_SYNDROME_LOCAL_PROT_ERR, "");
	/* A key of another PD. */
	TEST_ASSERT_EQUAL(mlx5_devx_lbqp_rdma(&lb, MLX5_OPCODE_RDMA_WRITE,
		other.mr->lkey, (uintptr_t)other.va, a.mr->rkey,
		(uintptr_t)a.va, 16, &synd), -EIO, "PD mismatch");
	TEST_ASSERT_EQUAL(synd, MLX5_CQE_SYNDROME_LOCAL_PROT_ERR, "");
	/* The responder's rights: no remote write, no remote read. */
	TEST_ASSERT_EQUAL(mlx5_devx_lbqp_rdma(&lb, MLX5_OPCODE_RDMA_WRITE,
		a.mr->lkey, (uintptr_t)a.va, ro.mr->rkey, (uintptr_t)ro.va,
		16, &synd), -EIO, "write to a read-only key");
	TEST_ASSERT_EQUAL(synd, MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR, "");
	TEST_ASSERT_EQUAL(mlx5_devx_lbqp_rdma(&lb, MLX5_OPCODE_RDMA_READ,
		a.mr->lkey, (uintptr_t)a.va, lo.mr->rkey, (uintptr_t)lo.va,
		16, &synd), -EIO, "read of a local-only key");
	TEST_ASSERT_EQUAL(synd, MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR, "");
	/* Reading into a key without local write. */
	TEST_ASSERT_EQUAL(mlx5_devx_lbqp_rdma(&lb, MLX5_OPCODE_RDMA_READ,
		ro.mr->lkey, (uintptr_t)ro.va, a.mr->rkey, (uintptr_t)a.va,
		16, &synd), -EIO, "read into a read-only key");
	TEST_ASSERT_EQUAL(synd, MLX5_CQE_SYNDROME_LOCAL_PROT_ERR, "");
	/* And still working. */
	TEST_ASSERT_SUCCESS(mlx5_devx_lbqp_rdma(&lb, MLX5_OPCODE_RDMA_READ,
		a.mr->lkey, (uintptr_t)a.va, ro.mr->rkey, (uintptr_t)ro.va,
		16, &synd), "read of a remote-read key");
	mlx5_devx_lbqp_destroy(&lb);
	q_buf_put(&other);
	TEST_ASSERT_SUCCESS(cdev->glue->dealloc_pd(pd2), "");
	q_buf_put(&lo);
	q_buf_put(&ro);
	q_buf_put(&a);
	TDEV_ASSERT_LIVE(0, live0, "everything destroyed");
	return TEST_SUCCESS;
}

/* A bare CQ + QP to post hand-built WQEs on. */
struct q_raw {
	struct mlx5_uar uar;
	struct mlx5_devx_cq cq;
	struct mlx5_devx_qp qp;
	uint16_t rq_pi;            /* Receive WQEs posted. */
};

static int
q_raw_get_sq(struct q_raw *r, uint32_t log_cq, bool rts, uint32_t log_rq,
	     uint32_t log_sq)
{
	struct mlx5_devx_qp_params p = {
		.pd = cdev->pdn,
		.log_sq_size = log_sq,
		.log_rq_size = log_rq,
		.log_rq_stride = 2,
		.uar = &r->uar,
	};

	memset(r, 0, sizeof(*r));
	TEST_ASSERT_SUCCESS(mlx5_uar_prepare(cdev, &r->uar), "");
	TEST_ASSERT_SUCCESS(mlx5_devx_cq_create(cdev, &r->cq, log_cq, &r->uar,
						SOCKET_ID_ANY), "");
	p.cqn = r->cq.obj->id;
	TEST_ASSERT_SUCCESS(mlx5_devx_qp_create(cdev, &r->qp, &p,
						SOCKET_ID_ANY), "");
	if (rts)
		TEST_ASSERT_SUCCESS(mlx5_devx_qp_to_rts(&r->qp,
							r->qp.obj->id), "");
	return TEST_SUCCESS;
}

/* A QP of 8 send blocks, with 2^@log_rq receive WQEs (0: none). */
static int
q_raw_get_rq(struct q_raw *r, uint32_t log_cq, bool rts, uint32_t log_rq)
{
	return q_raw_get_sq(r, log_cq, rts, log_rq, 3);
}

static int
q_raw_get(struct q_raw *r, uint32_t log_cq, bool rts)
{
	return q_raw_get_rq(r, log_cq, rts, 0);
}

static void
q_raw_put(struct q_raw *r)
{
	if (mlx5_devx_qp_destroy(&r->qp) == 0 &&
	    mlx5_devx_cq_destroy(&r->cq) == 0)
		mlx5_uar_release(cdev, &r->uar);
}

/*
 * Write one WQE in the ring without ringing the doorbell (q_post_wqe());
 * the send counter moves past it. Returns the block it starts at.
 */
static uint16_t
q_write_wqe(struct q_raw *r, uint8_t opcode, bool signaled, unsigned int n,
	    uint32_t lkey, uint64_t src, uint32_t rkey, uint64_t raddr)
{
	struct mlx5_devx_qp *qp = &r->qp;
	uint32_t size = 1u << qp->log_sq_size;
	uint8_t wqe[4 * MLX5_SEND_WQE_BB];
	struct mlx5_wqe_ctrl_seg *ctrl = (void *)wqe;
	struct mlx5_wqe_raddr_seg *rs = (void *)(ctrl + 1);
	struct mlx5_wqe_data_seg *ds = (void *)(rs + 1);
	uint32_t nds = opcode == MLX5_OPCODE_NOP ? 1 : 2 + n;
	uint32_t bbs = (nds * 16 + MLX5_SEND_WQE_BB - 1) / MLX5_SEND_WQE_BB;
	uint16_t first = qp->sq_pi;

	memset(wqe, 0, sizeof(wqe));
	ctrl->opmod_idx_opcode = rte_cpu_to_be_32((uint32_t)first << 8 |
						  opcode);
	ctrl->qpn_ds = rte_cpu_to_be_32(qp->obj->id << 8 | nds);
	ctrl->fm_ce_se = signaled ? MLX5_WQE_CTRL_CQ_UPDATE : 0;
	if (opcode != MLX5_OPCODE_NOP) {
		rs->raddr = rte_cpu_to_be_64(raddr);
		rs->rkey = rte_cpu_to_be_32(rkey);
		for (unsigned int i = 0; i < n; i++) {
			ds[i].byte_count = rte_cpu_to_be_32(16);
			ds[i].lkey = rte_cpu_to_be_32(lkey);
			ds[i].addr = rte_cpu_to_be_64(src + 32 * i);
		}
	}
	for (uint32_t b = 0; b < bbs; b++)
		memcpy(qp->sq + (size_t)((first + b) & (size - 1)) *
		       MLX5_SEND_WQE_BB, wqe + b * MLX5_SEND_WQE_BB,
		       MLX5_SEND_WQE_BB);
	qp->sq_pi += bbs;
	return first;
}

/* Ring the doorbell of @r's send counter, the WQE at block @first. */
static void
q_ring(struct q_raw *r, uint16_t first)
{
	struct mlx5_devx_qp *qp = &r->qp;

	mlx5_doorbell_ring(qp->uar, &qp->db_rec[MLX5_SND_DBR], qp->sq_pi,
			   qp->sq + (size_t)(first &
					     ((1u << qp->log_sq_size) - 1)) *
			   MLX5_SEND_WQE_BB);
}

/*
 * Post one WQE: a NOP, or an RDMA WRITE to (@rkey, @raddr) gathering @n
 * pieces of 16 bytes with @lkey at @src, @src + 32, ...; a WQE of several
 * blocks is written block by block, across the end of the ring if need be.
 */
static void
q_post_wqe(struct q_raw *r, uint8_t opcode, bool signaled, unsigned int n,
	   uint32_t lkey, uint64_t src, uint32_t rkey, uint64_t raddr)
{
	q_ring(r, q_write_wqe(r, opcode, signaled, n, lkey, src, rkey, raddr));
}

/* Post a NOP, or an RDMA write of 16 bytes at @addr to itself. */
static void
q_post(struct q_raw *r, uint8_t opcode, bool signaled, uint32_t lkey,
       uint64_t addr, uint32_t rkey)
{
	q_post_wqe(r, opcode, signaled, 1, lkey, addr, rkey, addr);
}

/* Poll one CQE: its status, opcode, syndrome and WQE counter. */
static enum mlx5_cqe_status
q_poll(struct q_raw *r, uint8_t *opcode, uint8_t *synd, uint16_t *wqe_ctr)
{
	struct mlx5_devx_cq *cq = &r->cq;
	volatile struct mlx5_cqe64 *cqe =
		&cq->cqes[cq->ci & ((1u << cq->log_size) - 1)];
	enum mlx5_cqe_status st;
	uint64_t deadline = rte_get_timer_cycles() + rte_get_timer_hz() / 10;

	do {
		st = mlx5_cqe_status(cqe, cq->log_size, cq->ci);
	} while (st == MLX5_CQE_STATUS_HW_OWN &&
		 rte_get_timer_cycles() < deadline);
	if (st == MLX5_CQE_STATUS_HW_OWN)
		return st;
	*opcode = cqe->op_own >> 4;
	*synd = st == MLX5_CQE_STATUS_ERR ?
		((volatile struct mlx5_err_cqe *)cqe)->syndrome : 0;
	*wqe_ctr = rte_be_to_cpu_16(cqe->wqe_counter);
	cq->ci++;
	mlx5_cq_db_update(cq->db_rec, cq->ci);
	return st;
}

static int
test_signaled_only(void)
{
	struct q_raw r;
	uint8_t op, synd;
	uint16_t ctr;

	TEST_ASSERT_EQUAL(q_raw_get(&r, 4, true), TEST_SUCCESS, "");
	q_post(&r, MLX5_OPCODE_NOP, false, 0, 0, 0);
	q_post(&r, MLX5_OPCODE_NOP, false, 0, 0, 0);
	q_post(&r, MLX5_OPCODE_NOP, true, 0, 0, 0);
	TEST_ASSERT_EQUAL(q_poll(&r, &op, &synd, &ctr), MLX5_CQE_STATUS_SW_OWN,
			  "one CQE");
	TEST_ASSERT_EQUAL(op, MLX5_CQE_REQ, "");
	TEST_ASSERT_EQUAL(ctr, 2, "for the third WQE");
	TEST_ASSERT_EQUAL(q_poll(&r, &op, &synd, &ctr), MLX5_CQE_STATUS_HW_OWN,
			  "and only one");
	q_raw_put(&r);
	TDEV_ASSERT_LIVE(0, live0, "");
	return TEST_SUCCESS;
}

static int
test_error_flush_recover(void)
{
	struct mlx5_devx_qp_info info;
	struct q_raw r;
	struct q_buf a;
	uint8_t op, synd;
	uint16_t ctr;

	TEST_ASSERT_SUCCESS(q_buf_get(&a, cdev->pd, Q_RW), "");
	TEST_ASSERT_EQUAL(q_raw_get(&r, 4, true), TEST_SUCCESS, "");
	q_post(&r, MLX5_OPCODE_NOP, true, 0, 0, 0);
	/* A write through a key that does not exist, unsignaled. */
	q_post(&r, MLX5_OPCODE_RDMA_WRITE, false, a.mr->lkey ^ 0x100,
	       (uintptr_t)a.va, a.mr->rkey);
	q_post(&r, MLX5_OPCODE_NOP, false, 0, 0, 0);
	q_post(&r, MLX5_OPCODE_RDMA_WRITE, true, a.mr->lkey, (uintptr_t)a.va,
	       a.mr->rkey);
	TEST_ASSERT_EQUAL(q_poll(&r, &op, &synd, &ctr), MLX5_CQE_STATUS_SW_OWN,
			  "NOP");
	TEST_ASSERT_EQUAL(ctr, 0, "");
	/* An error completes even unsignaled; the rest are flushed. */
	TEST_ASSERT_EQUAL(q_poll(&r, &op, &synd, &ctr), MLX5_CQE_STATUS_ERR,
			  "error");
	TEST_ASSERT_EQUAL(op, MLX5_CQE_REQ_ERR, "");
	TEST_ASSERT_EQUAL(synd, MLX5_CQE_SYNDROME_LOCAL_PROT_ERR, "");
	TEST_ASSERT_EQUAL(ctr, 1, "");
	for (uint16_t i = 2; i < 4; i++) {
		TEST_ASSERT_EQUAL(q_poll(&r, &op, &synd, &ctr),
				  MLX5_CQE_STATUS_ERR, "flush %u", i);
		TEST_ASSERT_EQUAL(synd, MLX5_CQE_SYNDROME_WR_FLUSH_ERR, "");
		TEST_ASSERT_EQUAL(ctr, i, "");
	}
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_query_qp(r.qp.obj, &info), "");
	TEST_ASSERT_EQUAL(info.state, MLX5_QP_STATE_ERR, "QP in error");
	TEST_ASSERT_EQUAL(info.hw_sq_wqebb_counter, 4, "all consumed");
	/* Recovery: RST, then RTS again; the queue works. */
	TEST_ASSERT_SUCCESS(mlx5_devx_qp_recover(&r.qp), "");
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_query_qp(r.qp.obj, &info), "");
	TEST_ASSERT_EQUAL(info.state, MLX5_QP_STATE_RTS, "");
	TEST_ASSERT_EQUAL(info.hw_sq_wqebb_counter, 0, "counters restart");
	TEST_ASSERT_EQUAL(info.remote_qpn, r.qp.obj->id, "loopback");
	TEST_ASSERT(info.force_loopback && info.rwe && info.rre, "");
	a.va[0] = 0x5a;
	q_post(&r, MLX5_OPCODE_RDMA_WRITE, true, a.mr->lkey, (uintptr_t)a.va,
	       a.mr->rkey);
	TEST_ASSERT_EQUAL(q_poll(&r, &op, &synd, &ctr), MLX5_CQE_STATUS_SW_OWN,
			  "after recovery");
	TEST_ASSERT_EQUAL(ctr, 0, "");
	q_raw_put(&r);
	q_buf_put(&a);
	TDEV_ASSERT_LIVE(0, live0, "");
	return TEST_SUCCESS;
}

static int
test_state_machine(void)
{
	struct mlx5_devx_qp_info info;
	struct q_raw r;
	uint8_t op, synd;
	uint16_t ctr;
	const char *log;

	TEST_ASSERT_EQUAL(q_raw_get(&r, 4, false), TEST_SUCCESS, "");
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_query_qp(r.qp.obj, &info), "");
	TEST_ASSERT_EQUAL(info.state, MLX5_QP_STATE_RST, "created in RST");
	TEST_ASSERT_EQUAL(info.pd, cdev->pdn, "");
	TEST_ASSERT_EQUAL(info.cqn_snd, r.cq.obj->id, "");
	mlx5_test_log_capture_start();
	TEST_ASSERT_EQUAL(mlx5_devx_cmd_modify_qp_state(r.qp.obj,
		MLX5_CMD_OP_RTR2RTS_QP, 0), -EINVAL, "RTR2RTS from RST");
	log = mlx5_test_log_capture_stop();
	TEST_ASSERT(strstr(log, "RTR2RTS_QP") != NULL &&
		    strstr(log, "BAD_QP_STATE") != NULL, "named: %s", log);
	TEST_ASSERT_EQUAL(mlx5_devx_cmd_modify_qp_state(r.qp.obj,
		MLX5_CMD_OP_INIT2RTR_QP, r.qp.obj->id), -EINVAL,
		"INIT2RTR from RST");
	TEST_ASSERT_EQUAL(mlx5_devx_cmd_modify_qp_state(r.qp.obj,
		MLX5_CMD_OP_QUERY_QP, 0), -EINVAL, "not a transition");
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_modify_qp_state(r.qp.obj,
		MLX5_CMD_OP_RST2INIT_QP, 0), "");
	TEST_ASSERT_EQUAL(mlx5_devx_cmd_modify_qp_state(r.qp.obj,
		MLX5_CMD_OP_RST2INIT_QP, 0), -EINVAL, "twice");
	if (!tdev_hw()) {
		/* Work posted before RTS waits for it (the model's order). */
		q_post(&r, MLX5_OPCODE_NOP, true, 0, 0, 0);
		TEST_ASSERT_EQUAL(q_poll(&r, &op, &synd, &ctr),
				  MLX5_CQE_STATUS_HW_OWN, "not before RTS");
	}
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_modify_qp_state(r.qp.obj,
		MLX5_CMD_OP_INIT2RTR_QP, r.qp.obj->id), "");
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_modify_qp_state(r.qp.obj,
		MLX5_CMD_OP_RTR2RTS_QP, 0), "");
	if (!tdev_hw())
		TEST_ASSERT_EQUAL(q_poll(&r, &op, &synd, &ctr),
				  MLX5_CQE_STATUS_SW_OWN, "at RTS");
	/* Any state to ERR, any state to RST. */
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_modify_qp_state(r.qp.obj,
		MLX5_CMD_OP_2ERR_QP, 0), "");
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_query_qp(r.qp.obj, &info), "");
	TEST_ASSERT_EQUAL(info.state, MLX5_QP_STATE_ERR, "");
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_modify_qp_state(r.qp.obj,
		MLX5_CMD_OP_2RST_QP, 0), "");
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_query_qp(r.qp.obj, &info), "");
	TEST_ASSERT_EQUAL(info.state, MLX5_QP_STATE_RST, "");
	q_raw_put(&r);
	TDEV_ASSERT_LIVE(0, live0, "");
	return TEST_SUCCESS;
}

static int
test_cq_overrun(void)
{
	struct mlx5_devx_cq_info info;
	struct q_raw r;

	/* Two CQEs, four completions, none consumed. */
	TEST_ASSERT_EQUAL(q_raw_get(&r, 1, true), TEST_SUCCESS, "");
	for (int i = 0; i < 4; i++)
		q_post(&r, MLX5_OPCODE_NOP, true, 0, 0, 0);
	rte_delay_ms(10);
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_query_cq(r.cq.obj, &info), "");
	TEST_ASSERT_EQUAL(info.status, 0x9, "CQ overflow");
	TEST_ASSERT_EQUAL(info.producer_counter, 2, "two CQEs written");
	TEST_ASSERT_EQUAL(info.log_cq_size, 1, "");
	q_raw_put(&r);
	TDEV_ASSERT_LIVE(0, live0, "");
	return TEST_SUCCESS;
}

/*
 * A consumer counter written in 16 bits, as DPDK 22.11's verbs Tx queues
 * write it (a uint16_t into the record's 24-bit field), past 2^16 CQEs:
 * the device compares the counters in 16 bits for a CQ smaller than
 * that, so the CQ never reads as full and every CQE comes.
 */
static int
test_cq_counter_16bit(void)
{
	struct q_raw r;
	uint8_t op, synd;
	uint16_t ctr;

	TEST_ASSERT_EQUAL(q_raw_get(&r, 4, true), TEST_SUCCESS, "");
	for (uint32_t i = 0; i < (1u << 16) + 100; i++) {
		q_post(&r, MLX5_OPCODE_NOP, true, 0, 0, 0);
		TEST_ASSERT_EQUAL(q_poll(&r, &op, &synd, &ctr),
				  MLX5_CQE_STATUS_SW_OWN, "CQE %u", i);
		mlx5_cq_db_update(r.cq.db_rec, r.cq.ci & 0xffff);
	}
	q_raw_put(&r);
	TDEV_ASSERT_LIVE(0, live0, "");
	return TEST_SUCCESS;
}

/*
 * A CQ ring must start on a 64-byte boundary: the CQ context counts the
 * ring's offset in its first page in 64-byte units. 8 bytes off is
 * refused, 64 bytes off is a ring.
 */
static int
q_cq_ring_align(struct mlx5_uar *uar)
{
	uint32_t in[MLX5_ST_SZ_DW(create_cq_in)] = { 0 };
	uint32_t out[MLX5_ST_SZ_DW(create_cq_out)] = { 0 };
	void *cqc = MLX5_ADDR_OF(create_cq_in, in, cq_context);
	const struct mlx5_glue *g = cdev->glue;
	struct mlx5dv_devx_umem *umem;
	struct mlx5dv_devx_obj *obj;
	uint8_t *buf;
	uint32_t eqn;

	buf = aligned_alloc(4096, 8192);
	TEST_ASSERT_NOT_NULL(buf, "");
	memset(buf, 0, 8192);
	umem = g->devx_umem_reg(cdev->ctx, buf, 8192, IBV_ACCESS_LOCAL_WRITE);
	TEST_ASSERT_NOT_NULL(umem, "");
	TEST_ASSERT_SUCCESS(g->devx_query_eqn(cdev->ctx, 0, &eqn), "");
	MLX5_SET(create_cq_in, in, opcode, MLX5_CMD_OP_CREATE_CQ);
	MLX5_SET(cqc, cqc, cqe_sz, MLX5_CQE_SIZE_64B);
	MLX5_SET(cqc, cqc, log_cq_size, 2);
	MLX5_SET(cqc, cqc, uar_page, uar->page_id);
	MLX5_SET(cqc, cqc, c_eqn_or_apu_element, eqn);
	MLX5_SET(cqc, cqc, dbr_umem_valid, 1);
	MLX5_SET(cqc, cqc, dbr_umem_id, umem->umem_id);
	MLX5_SET64(cqc, cqc, dbr_addr, 4096);
	MLX5_SET(create_cq_in, in, cq_umem_valid, 1);
	MLX5_SET(create_cq_in, in, cq_umem_id, umem->umem_id);
	MLX5_SET64(create_cq_in, in, cq_umem_offset, 8);
	obj = g->devx_obj_create(cdev->ctx, in, sizeof(in), out, sizeof(out));
	TEST_ASSERT(obj == NULL && errno == EREMOTEIO &&
		    MLX5_GET(create_cq_out, out, status) ==
		    MLX5_CMD_STAT_BAD_PARAM_ERR,
		    "a ring 8 bytes off a 64-byte boundary: BAD_PARAM");
	if (!tdev_hw())
		TEST_ASSERT_EQUAL(MLX5_GET(create_cq_out, out, syndrome),
				  MLX5_SIM_SYND_Q_RING_ALIGN, "");
	MLX5_SET64(create_cq_in, in, cq_umem_offset, 64);
	obj = g->devx_obj_create(cdev->ctx, in, sizeof(in), out, sizeof(out));
	TEST_ASSERT_NOT_NULL(obj, "a ring 64 bytes in");
	TEST_ASSERT_SUCCESS(g->devx_obj_destroy(obj), "");
	TEST_ASSERT_SUCCESS(g->devx_umem_dereg(umem), "");
	free(buf);
	return TEST_SUCCESS;
}

static int
test_create_errors(void)
{
	struct mlx5_devx_qp_params p = { .log_sq_size = 3 };
	struct mlx5_devx_cq cq, cq2;
	struct mlx5_devx_qp qp;
	struct mlx5_uar uar;

	TEST_ASSERT_SUCCESS(mlx5_uar_prepare(cdev, &uar), "");
	TEST_ASSERT_EQUAL(mlx5_devx_cq_create(cdev, &cq, 25, &uar,
					      SOCKET_ID_ANY), -EINVAL,
			  "2^25 CQEs");
	TEST_ASSERT(cq.obj == NULL && cq.buf == NULL, "nothing left");
	TEST_ASSERT_SUCCESS(mlx5_devx_cq_create(cdev, &cq, 4, &uar,
						SOCKET_ID_ANY), "");
	p.uar = &uar;
	p.pd = cdev->pdn;
	/* A CQ that does not exist. */
	p.cqn = cq.obj->id + 1000;
	TEST_ASSERT_EQUAL(mlx5_devx_qp_create(cdev, &qp, &p, SOCKET_ID_ANY),
			  -EINVAL, "unknown CQ");
	TEST_ASSERT(qp.obj == NULL && qp.buf == NULL, "nothing left");
	/* A PD that does not exist. */
	p.cqn = cq.obj->id;
	p.pd = cdev->pdn + 1000;
	TEST_ASSERT_EQUAL(mlx5_devx_qp_create(cdev, &qp, &p, SOCKET_ID_ANY),
			  -EINVAL, "unknown PD");
	p.pd = cdev->pdn;
	p.log_sq_size = 17;
	TEST_ASSERT_EQUAL(mlx5_devx_qp_create(cdev, &qp, &p, SOCKET_ID_ANY),
			  -EINVAL, "2^17 send blocks");
	p.log_sq_size = 3;
	TEST_ASSERT_SUCCESS(mlx5_devx_qp_create(cdev, &qp, &p, SOCKET_ID_ANY),
			    "");
	if (!tdev_hw()) {
		struct mlx5_sim_stats st;
		uint16_t card, vhca;

		/* The model's choice (unsettled): a CQ in use stays. */
		errno = 0;
		TEST_ASSERT_EQUAL(cdev->glue->devx_obj_destroy(cq.obj->obj),
				  EINVAL, "CQ in use");
		TEST_ASSERT_SUCCESS(mlx5_sim_vhca_id_of_ctx(cdev->ctx, &card,
							    &vhca), "");
		TEST_ASSERT_SUCCESS(mlx5_sim_vhca_stats(card, vhca, &st), "");
		TEST_ASSERT_EQUAL(st.cqs, 1, "");
		TEST_ASSERT_EQUAL(st.qps, 1, "");
	}
	mlx5_devx_qp_destroy(&qp);
	/* A second CQ on the same UAR is fine; after the QP, both go. */
	TEST_ASSERT_SUCCESS(mlx5_devx_cq_create(cdev, &cq2, 0, &uar,
						SOCKET_ID_ANY), "");
	mlx5_devx_cq_destroy(&cq2);
	mlx5_devx_cq_destroy(&cq);
	TEST_ASSERT_SUCCESS(q_cq_ring_align(&uar), "");
	mlx5_uar_release(cdev, &uar);
	TDEV_ASSERT_LIVE(0, live0, "");
	return TEST_SUCCESS;
}

static int
test_fault_sweep(void)
{
	static const uint16_t ops[] = {
		MLX5_CMD_OP_CREATE_CQ, MLX5_CMD_OP_CREATE_QP,
		MLX5_CMD_OP_RST2INIT_QP, MLX5_CMD_OP_INIT2RTR_QP,
		MLX5_CMD_OP_RTR2RTS_QP,
	};
	struct mlx5_devx_lbqp lb;

	TDEV_SIM_ONLY("fault injection");
	for (unsigned int i = 0; i < RTE_DIM(ops); i++) {
		TEST_ASSERT_SUCCESS(mlx5_sim_fault_set(Q_CARD, 0, ops[i], 1,
				MLX5_CMD_STAT_NO_RES_ERR), "");
		TEST_ASSERT_EQUAL(mlx5_devx_lbqp_create(cdev, &lb, cdev->pdn),
				  -EAGAIN, "%s failing",
				  mlx5_cmd_opcode_name(ops[i]));
		TEST_ASSERT_EQUAL(rte_errno, EAGAIN, "");
		TDEV_ASSERT_LIVE(0, live0, "nothing left after %s",
				 mlx5_cmd_opcode_name(ops[i]));
		mlx5_sim_fault_clear(Q_CARD, 0);
	}
	TEST_ASSERT_SUCCESS(mlx5_devx_lbqp_create(cdev, &lb, cdev->pdn), "");
	mlx5_devx_lbqp_destroy(&lb);
	TDEV_ASSERT_LIVE(0, live0, "");
	return TEST_SUCCESS;
}

static int
test_reclaim_at_remove(void)
{
	struct mlx5_devx_lbqp lb;
	struct mlx5_sim_stats st;
	uint16_t card, vhca;
	long reclaimed;

	TDEV_SIM_ONLY("the device's reclaim count");
	TEST_ASSERT_SUCCESS(mlx5_sim_vhca_id_of_ctx(cdev->ctx, &card, &vhca),
			    "");
	TEST_ASSERT_SUCCESS(mlx5_sim_vhca_stats(card, vhca, &st), "");
	reclaimed = (long)st.reclaimed;
	/* Left behind on purpose: closing the context frees it all. */
	TEST_ASSERT_SUCCESS(mlx5_devx_lbqp_create(cdev, &lb, cdev->pdn), "");
	TEST_ASSERT_SUCCESS(tdev_remove(0), "");
	TEST_ASSERT_SUCCESS(mlx5_sim_vhca_stats(card, vhca, &st), "");
	TEST_ASSERT_EQUAL(st.live_objects + st.contexts, 0, "all freed");
	/* QP, CQ, two umems and the UAR. */
	TEST_ASSERT_EQUAL((long)st.reclaimed - reclaimed, 5, "reclaimed");
	/* The driver's memory of the rings: freed here, as an app would. */
	mlx5_free(lb.qp.buf);
	mlx5_free(lb.cq.buf);
	return TEST_SUCCESS;
}

static int
test_multi_block_wqe(void)
{
	struct mlx5_devx_qp_info info;
	struct q_raw r;
	struct q_buf a;
	uint8_t op, synd;
	uint16_t ctr;

	TEST_ASSERT_SUCCESS(q_buf_get(&a, cdev->pd, Q_RW), "");
	for (int i = 0; i < 512; i++)
		a.va[i] = (uint8_t)(i + 1);
	/* A receive queue too: the send queue sits after it. */
	TEST_ASSERT_EQUAL(q_raw_get_rq(&r, 4, true, 2), TEST_SUCCESS, "");
	/* 8 blocks in the ring: 3 NOPs, then a 2-block WQE, twice, wraps. */
	for (int round = 0; round < 3; round++) {
		uint16_t expect = r.qp.sq_pi;

		memset(a.va + 4096, 0, 256);
		q_post(&r, MLX5_OPCODE_NOP, false, 0, 0, 0);
		q_post(&r, MLX5_OPCODE_NOP, false, 0, 0, 0);
		q_post(&r, MLX5_OPCODE_NOP, false, 0, 0, 0);
		expect += 3;
		/* 2 + 6 segments = 128 bytes: two blocks. */
		q_post_wqe(&r, MLX5_OPCODE_RDMA_WRITE, true, 6, a.mr->lkey,
			   (uintptr_t)a.va, a.mr->rkey,
			   (uintptr_t)a.va + 4096);
		TEST_ASSERT_EQUAL(q_poll(&r, &op, &synd, &ctr),
				  MLX5_CQE_STATUS_SW_OWN, "round %d", round);
		TEST_ASSERT_EQUAL(ctr, expect, "the WQE's index");
		for (int i = 0; i < 6; i++)
			TEST_ASSERT(memcmp(a.va + 4096 + 16 * i, a.va + 32 * i,
					   16) == 0, "piece %d", i);
	}
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_query_qp(r.qp.obj, &info), "");
	TEST_ASSERT_EQUAL(info.hw_sq_wqebb_counter, r.qp.sq_pi,
			  "counted in blocks");
	q_raw_put(&r);
	q_buf_put(&a);
	TDEV_ASSERT_LIVE(0, live0, "");
	return TEST_SUCCESS;
}

/*
 * An RDMA WRITE to a peer QP other than the requester itself: the peer
 * in RST, connected to another QP, in ERR: TRANSPORT_RETRY_EXC_ERR each
 * time (the packets are dropped); in RTS and connected back: the bytes
 * arrive.
 */
static int
test_peer_qp(void)
{
	struct q_raw a, b;
	struct q_buf m;
	uint8_t op, synd;
	uint16_t ctr;
	int step;

	TEST_ASSERT_SUCCESS(q_buf_get(&m, cdev->pd, Q_RW), "");
	memset(m.va, 0x5a, 16);
	memset(m.va + 4096, 0, 16);
	TEST_ASSERT_EQUAL(q_raw_get(&a, 4, false), TEST_SUCCESS, "");
	TEST_ASSERT_EQUAL(q_raw_get(&b, 4, false), TEST_SUCCESS, "");
	TEST_ASSERT_SUCCESS(mlx5_devx_qp_to_rts(&a.qp, b.qp.obj->id), "");
	for (step = 0; step < 4; step++) {
		switch (step) {
		case 0: /* The peer in RST. */
			break;
		case 1: /* The peer connected to itself, not back. */
			TEST_ASSERT_SUCCESS(mlx5_devx_qp_to_rts(&b.qp,
							b.qp.obj->id), "");
			break;
		case 2: /* Connected back: the write arrives. */
			TEST_ASSERT_SUCCESS(mlx5_devx_cmd_modify_qp_state(
				b.qp.obj, MLX5_CMD_OP_2RST_QP, 0), "");
			TEST_ASSERT_SUCCESS(mlx5_devx_qp_to_rts(&b.qp,
							a.qp.obj->id), "");
			break;
		case 3: /* The peer in ERR. */
			TEST_ASSERT_SUCCESS(mlx5_devx_cmd_modify_qp_state(
				b.qp.obj, MLX5_CMD_OP_2ERR_QP, 0), "");
			break;
		}
		q_post_wqe(&a, MLX5_OPCODE_RDMA_WRITE, true, 1, m.mr->lkey,
			   (uintptr_t)m.va, m.mr->rkey, (uintptr_t)m.va + 4096);
		if (step == 2) {
			TEST_ASSERT_EQUAL(q_poll(&a, &op, &synd, &ctr),
					  MLX5_CQE_STATUS_SW_OWN, "connected");
			TEST_ASSERT(memcmp(m.va + 4096, m.va, 16) == 0,
				    "the bytes arrived");
			continue;
		}
		TEST_ASSERT_EQUAL(q_poll(&a, &op, &synd, &ctr),
				  MLX5_CQE_STATUS_ERR, "step %d", step);
		TEST_ASSERT_EQUAL(synd,
				  MLX5_CQE_SYNDROME_TRANSPORT_RETRY_EXC_ERR,
				  "step %d", step);
		TEST_ASSERT_SUCCESS(mlx5_devx_qp_recover(&a.qp), "");
	}
	q_raw_put(&b);
	q_raw_put(&a);
	q_buf_put(&m);
	TDEV_ASSERT_LIVE(0, live0, "");
	return TEST_SUCCESS;
}

/*
 * A doorbell beyond the WQEs posted: one NOP posted in a ring of 8
 * blocks, the doorbell record at 10 (9 blocks past it: more than the
 * ring). The device runs the NOP and stops at the counter there.
 */
static int
test_doorbell_beyond(void)
{
	struct mlx5_devx_qp_info info;
	struct q_raw r;
	uint8_t op, synd;
	uint16_t ctr;

	TEST_ASSERT_EQUAL(q_raw_get(&r, 4, true), TEST_SUCCESS, "");
	q_write_wqe(&r, MLX5_OPCODE_NOP, true, 0, 0, 0, 0, 0);
	r.qp.sq_pi = 10;
	q_ring(&r, 0);
	TEST_ASSERT_EQUAL(q_poll(&r, &op, &synd, &ctr), MLX5_CQE_STATUS_SW_OWN,
			  "the NOP");
	TEST_ASSERT_EQUAL(ctr, 0, "");
	TEST_ASSERT_EQUAL(q_poll(&r, &op, &synd, &ctr), MLX5_CQE_STATUS_HW_OWN,
			  "nothing more");
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_query_qp(r.qp.obj, &info), "");
	TEST_ASSERT_EQUAL(info.hw_sq_wqebb_counter, 1, "stopped after it");
	q_raw_put(&r);
	TDEV_ASSERT_LIVE(0, live0, "");
	return TEST_SUCCESS;
}

static int
test_bad_wqes(void)
{
	struct mlx5_devx_lbqp lb;
	struct q_raw r;
	uint8_t op, synd;
	uint16_t ctr;

	TEST_ASSERT_EQUAL(q_raw_get(&r, 4, true), TEST_SUCCESS, "");
	/* A control segment naming another QP. */
	q_post(&r, MLX5_OPCODE_NOP, true, 0, 0, 0);
	{
		uint8_t *wqe = r.qp.sq + (size_t)((r.qp.sq_pi - 1) & 7) *
			       MLX5_SEND_WQE_BB;
		struct mlx5_wqe_ctrl_seg *ctrl = (void *)wqe;

		TEST_ASSERT_EQUAL(q_poll(&r, &op, &synd, &ctr),
				  MLX5_CQE_STATUS_SW_OWN, "");
		struct mlx5_wqe_ctrl_seg good;

		ctrl->opmod_idx_opcode = rte_cpu_to_be_32(
			(uint32_t)r.qp.sq_pi << 8 | MLX5_OPCODE_NOP);
		good = *ctrl;
		/* The doorbell names the QP; the WQE another one. */
		ctrl->qpn_ds = rte_cpu_to_be_32((r.qp.obj->id + 1) << 8 | 1);
		wqe = r.qp.sq + (size_t)(r.qp.sq_pi & 7) * MLX5_SEND_WQE_BB;
		memcpy(wqe, ctrl, sizeof(*ctrl));
		r.qp.sq_pi++;
		mlx5_doorbell_ring(r.qp.uar, &r.qp.db_rec[MLX5_SND_DBR],
				   r.qp.sq_pi, &good);
	}
	TEST_ASSERT_EQUAL(q_poll(&r, &op, &synd, &ctr), MLX5_CQE_STATUS_ERR,
			  "another QP's WQE");
	TEST_ASSERT_EQUAL(synd, MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR, "");
	/* An opcode the QP does not do here (SEND without a receive queue). */
	TEST_ASSERT_SUCCESS(mlx5_devx_qp_recover(&r.qp), "");
	q_post(&r, 0x0a, true, 0, 0, 0);
	TEST_ASSERT_EQUAL(q_poll(&r, &op, &synd, &ctr), MLX5_CQE_STATUS_ERR,
			  "SEND");
	q_raw_put(&r);
	/* Lengths the loopback QP refuses before posting. */
	TEST_ASSERT_SUCCESS(mlx5_devx_lbqp_create(cdev, &lb, cdev->pdn), "");
	TEST_ASSERT_EQUAL(mlx5_devx_lbqp_rdma(&lb, MLX5_OPCODE_RDMA_WRITE, 0,
					      0, 0, 0, 0, NULL), -EINVAL,
			  "0 bytes");
	TEST_ASSERT_EQUAL(mlx5_devx_lbqp_rdma(&lb, MLX5_OPCODE_RDMA_WRITE, 0,
					      0, 0, 0, (1u << 30) + 1, NULL),
			  -EINVAL, "2^30 + 1 bytes");
	TEST_ASSERT_SUCCESS(mlx5_devx_lbqp_destroy(&lb), "");
	TDEV_ASSERT_LIVE(0, live0, "");
	return TEST_SUCCESS;
}

/*
 * Write at the send counter of @r a signaled NOP whose control segment
 * says @nds segments (the rest of the ring zeroed), ring the doorbell
 * @posted blocks on and poll one CQE.
 */
static enum mlx5_cqe_status
q_nop_ds(struct q_raw *r, uint32_t nds, uint16_t posted, uint8_t *synd,
	 uint16_t *ctr)
{
	struct mlx5_devx_qp *qp = &r->qp;
	uint32_t size = 1u << qp->log_sq_size;
	uint16_t first = qp->sq_pi;
	struct mlx5_wqe_ctrl_seg *ctrl = (void *)(qp->sq +
		(size_t)(first & (size - 1)) * MLX5_SEND_WQE_BB);
	uint8_t op;

	memset(qp->sq, 0, (size_t)size * MLX5_SEND_WQE_BB);
	ctrl->opmod_idx_opcode = rte_cpu_to_be_32((uint32_t)first << 8 |
						  MLX5_OPCODE_NOP);
	ctrl->qpn_ds = rte_cpu_to_be_32(qp->obj->id << 8 | nds);
	ctrl->fm_ce_se = MLX5_WQE_CTRL_CQ_UPDATE;
	qp->sq_pi += posted;
	q_ring(r, first);
	return q_poll(r, &op, synd, ctr);
}

/*
 * The blocks a WQE spans against the ring's 8: 8 (ds 32) make a WQE,
 * from the ring's start or across its end; 9 (ds 33) and 0 (ds 0) do
 * not: an error completion, one block consumed (the next WQE flushed).
 * A doorbell inside a WQE of two blocks: the WQE, read whole.
 */
static int
test_wqe_blocks(void)
{
	static const uint32_t bad[] = { 0, 33 };
	struct q_raw r;
	struct q_buf a;
	uint8_t op, synd;
	uint16_t ctr, first;
	unsigned int i;

	TDEV_SIM_ONLY("a WQE of no segments or larger than the ring is"
		      " undefined on hardware");
	TEST_ASSERT_EQUAL(q_raw_get(&r, 4, true), TEST_SUCCESS, "");
	TEST_ASSERT_EQUAL(q_nop_ds(&r, 32, 8, &synd, &ctr),
			  MLX5_CQE_STATUS_SW_OWN, "8 blocks");
	TEST_ASSERT_EQUAL(ctr, 0, "");
	q_post(&r, MLX5_OPCODE_NOP, true, 0, 0, 0);
	TEST_ASSERT_EQUAL(q_poll(&r, &op, &synd, &ctr),
			  MLX5_CQE_STATUS_SW_OWN, "");
	TEST_ASSERT_EQUAL(ctr, 8, "after 8 blocks");
	TEST_ASSERT_EQUAL(q_nop_ds(&r, 32, 8, &synd, &ctr),
			  MLX5_CQE_STATUS_SW_OWN, "8 blocks across the end");
	TEST_ASSERT_EQUAL(ctr, 9, "");
	for (i = 0; i < RTE_DIM(bad); i++) {
		first = r.qp.sq_pi;
		TEST_ASSERT_EQUAL(q_nop_ds(&r, bad[i], 1, &synd, &ctr),
				  MLX5_CQE_STATUS_ERR, "ds %u", bad[i]);
		TEST_ASSERT_EQUAL(synd, MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR, "");
		TEST_ASSERT_EQUAL(ctr, first, "its wqe_index");
		q_post(&r, MLX5_OPCODE_NOP, true, 0, 0, 0);
		TEST_ASSERT_EQUAL(q_poll(&r, &op, &synd, &ctr),
				  MLX5_CQE_STATUS_ERR, "one block on");
		TEST_ASSERT_EQUAL(synd, MLX5_CQE_SYNDROME_WR_FLUSH_ERR, "");
		TEST_ASSERT_EQUAL(ctr, (uint16_t)(first + 1), "");
		TEST_ASSERT_SUCCESS(mlx5_devx_qp_recover(&r.qp), "");
	}
	q_raw_put(&r);
	/*
	 * A doorbell inside a WQE: the WQE is read whole from the ring, not
	 * from the blocks read ahead (the previous doorbell's NOP of 8
	 * blocks, zeros, left there).
	 */
	TEST_ASSERT_SUCCESS(q_buf_get(&a, cdev->pd, Q_RW), "");
	for (i = 0; i < 512; i++)
		a.va[i] = (uint8_t)(i + 1);
	TEST_ASSERT_EQUAL(q_raw_get(&r, 4, true), TEST_SUCCESS, "");
	TEST_ASSERT_EQUAL(q_nop_ds(&r, 32, 8, &synd, &ctr),
			  MLX5_CQE_STATUS_SW_OWN, "8 blocks");
	/* 2 + 6 segments: two blocks; the doorbell counts the first. */
	first = q_write_wqe(&r, MLX5_OPCODE_RDMA_WRITE, true, 6, a.mr->lkey,
			    (uintptr_t)a.va, a.mr->rkey,
			    (uintptr_t)a.va + 4096);
	mlx5_doorbell_ring(r.qp.uar, &r.qp.db_rec[MLX5_SND_DBR],
			   (uint16_t)(r.qp.sq_pi - 1), r.qp.sq);
	TEST_ASSERT_EQUAL(q_poll(&r, &op, &synd, &ctr),
			  MLX5_CQE_STATUS_SW_OWN, "synd 0x%x", synd);
	TEST_ASSERT_EQUAL(ctr, first, "");
	for (i = 0; i < 6; i++)
		TEST_ASSERT(memcmp(a.va + 4096 + 16 * i, a.va + 32 * i,
				   16) == 0, "piece %u", i);
	q_raw_put(&r);
	q_buf_put(&a);
	TDEV_ASSERT_LIVE(0, live0, "");
	return TEST_SUCCESS;
}

static int
test_doorbell_routing(void)
{
	struct mlx5_uar other;
	struct q_raw r;
	uint8_t op, synd;
	uint16_t ctr;
	uint8_t *wqe;

	TDEV_SIM_ONLY("what a doorbell on another UAR page does is undefined"
		      " on hardware");
	TEST_ASSERT_EQUAL(q_raw_get(&r, 4, true), TEST_SUCCESS, "");
	TEST_ASSERT_SUCCESS(mlx5_uar_prepare(cdev, &other), "");
	/* Rung on a UAR page the QP was not created on: nothing happens. */
	q_post(&r, MLX5_OPCODE_NOP, true, 0, 0, 0);
	TEST_ASSERT_EQUAL(q_poll(&r, &op, &synd, &ctr), MLX5_CQE_STATUS_SW_OWN,
			  "");
	r.qp.uar = &other;
	q_post(&r, MLX5_OPCODE_NOP, true, 0, 0, 0);
	TEST_ASSERT_EQUAL(q_poll(&r, &op, &synd, &ctr), MLX5_CQE_STATUS_HW_OWN,
			  "another page's doorbell");
	/* The next doorbell on its own page runs what is pending. */
	r.qp.uar = &r.uar;
	wqe = r.qp.sq + (size_t)((r.qp.sq_pi - 1) & 7) * MLX5_SEND_WQE_BB;
	mlx5_doorbell_ring(r.qp.uar, &r.qp.db_rec[MLX5_SND_DBR], r.qp.sq_pi,
			   wqe);
	TEST_ASSERT_EQUAL(q_poll(&r, &op, &synd, &ctr), MLX5_CQE_STATUS_SW_OWN,
			  "own page");
	TEST_ASSERT_EQUAL(ctr, 1, "");
	/* Work posted before RTS and a move to ERR: flushed. */
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_modify_qp_state(r.qp.obj,
		MLX5_CMD_OP_2RST_QP, 0), "");
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_modify_qp_state(r.qp.obj,
		MLX5_CMD_OP_RST2INIT_QP, 0), "");
	r.qp.sq_pi = 0;
	r.qp.db_rec[MLX5_SND_DBR] = 0;
	q_post(&r, MLX5_OPCODE_NOP, false, 0, 0, 0);
	TEST_ASSERT_EQUAL(q_poll(&r, &op, &synd, &ctr), MLX5_CQE_STATUS_HW_OWN,
			  "waits in INIT");
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_modify_qp_state(r.qp.obj,
		MLX5_CMD_OP_2ERR_QP, 0), "");
	TEST_ASSERT_EQUAL(q_poll(&r, &op, &synd, &ctr), MLX5_CQE_STATUS_ERR,
			  "flushed at 2ERR");
	TEST_ASSERT_EQUAL(synd, MLX5_CQE_SYNDROME_WR_FLUSH_ERR, "");
	mlx5_uar_release(cdev, &other);
	q_raw_put(&r);
	TDEV_ASSERT_LIVE(0, live0, "");
	return TEST_SUCCESS;
}

static int
test_destroy_in_use(void)
{
	struct mlx5_devx_cq_info info;
	struct q_raw r;
	void *ring;

	TEST_ASSERT_EQUAL(q_raw_get(&r, 4, true), TEST_SUCCESS, "");
	ring = r.cq.buf;
	/* The ring's umem cannot go while the QP and CQ use it. */
	TEST_ASSERT(cdev->glue->devx_umem_dereg(r.qp.umem) != 0,
		    "umem under a QP");
	if (!tdev_hw()) {
		/* The model's choice (unsettled): a CQ in use stays. */
		TEST_ASSERT_EQUAL(mlx5_devx_cq_destroy(&r.cq), -EINVAL,
				  "CQ in use");
		TEST_ASSERT(r.cq.obj != NULL && r.cq.buf == ring,
			    "nothing freed");
		TEST_ASSERT_SUCCESS(mlx5_devx_cmd_query_cq(r.cq.obj, &info),
				    "still there");
	}
	q_raw_put(&r);
	TDEV_ASSERT_LIVE(0, live0, "");
	return TEST_SUCCESS;
}

/*
 * A page of a live QP's ring made unreadable after the WQEs were written
 * (the application's mistake): the WQEs before that page complete, the
 * first in it ends in LOCAL_QP_OP_ERR and puts the QP in error, the rest
 * complete in error; none runs twice, the process lives on, and the QP
 * recovers once the page is readable again. The WQEs of the one doorbell
 * span more than the device reads ahead in one copy (32 blocks,
 * mlx5_sim_engine.c): the first copy's WQEs have run when the second
 * copy faults.
 */
static int
test_ring_fault(void)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	uint32_t log_sq = rte_log2_u32((uint32_t)(4 * page / MLX5_SEND_WQE_BB));
	struct mlx5_devx_qp_info info;
	uint16_t ctr, first = 0, start, hole, end, i;
	uint8_t op, synd, *pg;
	struct q_raw r;

	TDEV_SIM_ONLY("an unreadable ring under a live queue");
	if (mlx5_test_under_valgrind())
		TEST_SKIP("memcheck flags the device's access to protected memory before the fault guard runs");
	/* A ring of four pages: the one after its first page boundary goes. */
	TEST_ASSERT_EQUAL(q_raw_get_sq(&r, 6, true, 0, log_sq), TEST_SUCCESS,
			  "");
	pg = RTE_PTR_ALIGN_CEIL(r.qp.sq + 1, page);
	hole = (uint16_t)((pg - r.qp.sq) / MLX5_SEND_WQE_BB);
	start = hole - 44;
	end = hole + 4;
	/* Move the counters to @start: one doorbell, the last signaled. */
	for (i = 0; i < start; i++)
		first = q_write_wqe(&r, MLX5_OPCODE_NOP, i == start - 1, 0, 0,
				    0, 0, 0);
	q_ring(&r, 0);
	TEST_ASSERT_EQUAL(q_poll(&r, &op, &synd, &ctr),
			  MLX5_CQE_STATUS_SW_OWN, "");
	TEST_ASSERT_EQUAL(ctr, first, "");
	/* 48 signaled NOPs, the last 4 in the page made unreadable. */
	for (i = start; i < end; i++)
		first = q_write_wqe(&r, MLX5_OPCODE_NOP, true, 0, 0, 0, 0, 0);
	TEST_ASSERT_SUCCESS(mprotect(pg, page, PROT_NONE), "");
	q_ring(&r, start);
	for (i = start; i < hole; i++) {
		TEST_ASSERT_EQUAL(q_poll(&r, &op, &synd, &ctr),
				  MLX5_CQE_STATUS_SW_OWN, "WQE %u", i);
		TEST_ASSERT_EQUAL(ctr, i, "once each, in order");
	}
	for (i = hole; i < end; i++) {
		TEST_ASSERT_EQUAL(q_poll(&r, &op, &synd, &ctr),
				  MLX5_CQE_STATUS_ERR, "WQE %u", i);
		TEST_ASSERT_EQUAL(ctr, i, "one block each");
		if (i == hole)
			TEST_ASSERT_EQUAL(synd,
					  MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR,
					  "the first unreadable WQE");
	}
	TEST_ASSERT_EQUAL(q_poll(&r, &op, &synd, &ctr), MLX5_CQE_STATUS_HW_OWN,
			  "nothing more");
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_query_qp(r.qp.obj, &info), "");
	TEST_ASSERT_EQUAL(info.hw_sq_wqebb_counter, end, "stopped at the doorbell");
	TEST_ASSERT_SUCCESS(mprotect(pg, page, PROT_READ | PROT_WRITE), "");
	TEST_ASSERT_SUCCESS(mlx5_devx_qp_recover(&r.qp), "");
	q_post(&r, MLX5_OPCODE_NOP, true, 0, 0, 0);
	TEST_ASSERT_EQUAL(q_poll(&r, &op, &synd, &ctr),
			  MLX5_CQE_STATUS_SW_OWN, "recovered");
	q_raw_put(&r);
	TDEV_ASSERT_LIVE(0, live0, "");
	return TEST_SUCCESS;
}

/* The WQE opcode an error CQE names, of the CQE q_poll() took last. */
static uint8_t
q_err_wqe_opcode(const struct q_raw *r)
{
	const struct mlx5_devx_cq *cq = &r->cq;
	volatile struct mlx5_err_cqe *err = (volatile void *)
		&cq->cqes[(cq->ci - 1) & ((1u << cq->log_size) - 1)];

	return (uint8_t)(rte_be_to_cpu_32(err->s_wqe_opcode_qpn) >> 24);
}

/*
 * A page gone from under a valid key while an RDMA WRITE or READ moves
 * its bytes straight between the memories: the WQE completes with the
 * error of the side that faulted, and the error CQE names that WQE (its
 * counter and opcode); the signaled NOP before it completed, the one
 * after it is flushed.
 */
static int
test_rdma_move_fault(void)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	const struct {
		uint8_t opcode;
		uint8_t synd;
		const char *what;
	} c[] = {
		{ MLX5_OPCODE_RDMA_WRITE, MLX5_CQE_SYNDROME_LOCAL_PROT_ERR,
		  "a WRITE's local source" },
		{ MLX5_OPCODE_RDMA_READ, MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR,
		  "a READ's remote source" },
	};
	uint16_t ctr, nop, wqe;
	uint8_t op, synd;
	struct q_buf a;
	struct q_raw r;

	TDEV_SIM_ONLY("memory protected under a live key");
	if (page != 4096)
		TEST_SKIP("pages of %zu bytes: the test's buffer is two 4 KiB pages", page);
	if (mlx5_test_under_valgrind())
		TEST_SKIP("memcheck flags the device's access to protected memory before the fault guard runs");
	TEST_ASSERT_EQUAL(q_raw_get(&r, 4, true), TEST_SUCCESS, "");
	TEST_ASSERT_SUCCESS(q_buf_get(&a, cdev->pd, IBV_ACCESS_LOCAL_WRITE |
				      IBV_ACCESS_REMOTE_WRITE |
				      IBV_ACCESS_REMOTE_READ), "");
	for (unsigned int k = 0; k < RTE_DIM(c); k++) {
		/* The first page is the source, unreadable; the second gets. */
		nop = q_write_wqe(&r, MLX5_OPCODE_NOP, true, 0, 0, 0, 0, 0);
		if (c[k].opcode == MLX5_OPCODE_RDMA_WRITE)
			wqe = q_write_wqe(&r, c[k].opcode, true, 1,
					  a.mr->lkey, (uintptr_t)a.va,
					  a.mr->rkey, (uintptr_t)a.va + 4096);
		else
			wqe = q_write_wqe(&r, c[k].opcode, true, 1,
					  a.mr->lkey, (uintptr_t)a.va + 4096,
					  a.mr->rkey, (uintptr_t)a.va);
		q_write_wqe(&r, MLX5_OPCODE_NOP, true, 0, 0, 0, 0, 0);
		TEST_ASSERT_SUCCESS(mprotect(a.va, 4096, PROT_NONE), "");
		q_ring(&r, nop);
		TEST_ASSERT_EQUAL(q_poll(&r, &op, &synd, &ctr),
				  MLX5_CQE_STATUS_SW_OWN, "%s", c[k].what);
		TEST_ASSERT_EQUAL(ctr, nop, "");
		TEST_ASSERT_EQUAL(q_poll(&r, &op, &synd, &ctr),
				  MLX5_CQE_STATUS_ERR, "%s", c[k].what);
		TEST_ASSERT_EQUAL(synd, c[k].synd, "%s", c[k].what);
		TEST_ASSERT_EQUAL(ctr, wqe, "%s: the WQE's counter", c[k].what);
		TEST_ASSERT_EQUAL(q_err_wqe_opcode(&r), c[k].opcode,
				  "%s: the WQE's opcode", c[k].what);
		TEST_ASSERT_EQUAL(q_poll(&r, &op, &synd, &ctr),
				  MLX5_CQE_STATUS_ERR, "%s: flushed", c[k].what);
		TEST_ASSERT_EQUAL(synd, MLX5_CQE_SYNDROME_WR_FLUSH_ERR, "");
		TEST_ASSERT_SUCCESS(mprotect(a.va, 4096,
					     PROT_READ | PROT_WRITE), "");
		TEST_ASSERT_SUCCESS(mlx5_devx_qp_recover(&r.qp), "");
	}
	q_post(&r, MLX5_OPCODE_NOP, true, 0, 0, 0);
	TEST_ASSERT_EQUAL(q_poll(&r, &op, &synd, &ctr),
			  MLX5_CQE_STATUS_SW_OWN, "recovered");
	q_buf_put(&a);
	q_raw_put(&r);
	TDEV_ASSERT_LIVE(0, live0, "");
	return TEST_SUCCESS;
}

/*
 * Move @r's QP from RST to RTS connected to @remote_qpn as
 * mlx5_devx_qp_to_rts() does, but with INIT2RTR's force loopback @fl,
 * destination MAC @rmac (NULL: none) and RTR2RTS's @rnr_retry.
 */
static int
q_to_rts_path(struct q_raw *r, uint32_t remote_qpn, bool fl,
	      const uint8_t *rmac, uint8_t rnr_retry)
{
	uint32_t in[MLX5_ST_SZ_DW(init2rtr_qp_in)] = { 0 };
	uint32_t out[MLX5_ST_SZ_DW(init2rtr_qp_out)] = { 0 };
	void *qpc = MLX5_ADDR_OF(init2rtr_qp_in, in, qpc);
	struct mlx5_devx_qp *qp = &r->qp;

	qp->sq_pi = 0;
	r->rq_pi = 0;
	qp->db_rec[MLX5_SND_DBR] = 0;
	qp->db_rec[MLX5_RCV_DBR] = 0;
	rte_io_wmb();
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_modify_qp_state(qp->obj,
		MLX5_CMD_OP_RST2INIT_QP, 0), "");
	MLX5_SET(init2rtr_qp_in, in, opcode, MLX5_CMD_OP_INIT2RTR_QP);
	MLX5_SET(init2rtr_qp_in, in, qpn, qp->obj->id);
	MLX5_SET(qpc, qpc, mtu, MLX5_QP_MTU_1024);
	MLX5_SET(qpc, qpc, log_msg_max, 30);
	MLX5_SET(qpc, qpc, remote_qpn, remote_qpn);
	MLX5_SET(qpc, qpc, primary_address_path.vhca_port_num, 1);
	MLX5_SET(qpc, qpc, primary_address_path.fl, fl);
	if (rmac != NULL) {
		MLX5_SET(qpc, qpc, primary_address_path.rmac_47_32,
			 (uint32_t)rmac[0] << 8 | rmac[1]);
		MLX5_SET(qpc, qpc, primary_address_path.rmac_31_0,
			 (uint32_t)rmac[2] << 24 | (uint32_t)rmac[3] << 16 |
			 (uint32_t)rmac[4] << 8 | rmac[5]);
	}
	TEST_ASSERT_SUCCESS(cdev->glue->devx_obj_modify(qp->obj->obj, in,
		sizeof(in), out, sizeof(out)), "INIT2RTR, fl %d", fl);
	memset(in, 0, sizeof(in));
	MLX5_SET(rtr2rts_qp_in, in, opcode, MLX5_CMD_OP_RTR2RTS_QP);
	MLX5_SET(rtr2rts_qp_in, in, qpn, qp->obj->id);
	MLX5_SET(qpc, qpc, retry_count, 7);
	MLX5_SET(qpc, qpc, rnr_retry, rnr_retry);
	MLX5_SET(qpc, qpc, primary_address_path.ack_timeout, 14);
	TEST_ASSERT_SUCCESS(cdev->glue->devx_obj_modify(qp->obj->obj, in,
		sizeof(in), out, sizeof(out)), "RTR2RTS");
	qp->remote_qpn = remote_qpn;
	return TEST_SUCCESS;
}

static int
q_to_rts_fl(struct q_raw *r, uint32_t remote_qpn, bool fl)
{
	return q_to_rts_path(r, remote_qpn, fl, NULL, 7);
}

/*
 * A QP in RTS without force loopback (fl 0 at INIT2RTR): with no wire
 * between vHCAs its RDMA reaches no peer, not even itself. A WRITE and a
 * READ, connected to itself and to a peer connected back, each end in
 * TRANSPORT_RETRY_EXC_ERR (the packets go nowhere) and move nothing; the
 * same QP moved again with force loopback moves the bytes.
 */
static int
test_no_force_loopback(void)
{
	const struct {
		uint8_t opcode;
		uint32_t from, to; /* Offsets in the buffer. */
	} op[] = {
		{ MLX5_OPCODE_RDMA_WRITE, 0, 4096 },
		{ MLX5_OPCODE_RDMA_READ, 0, 2048 },
	};
	struct mlx5_devx_qp_info info;
	struct q_raw a, b;
	struct q_buf m;
	uint8_t opc, synd;
	uint16_t ctr, wqe;
	unsigned int step, k;

	TDEV_SIM_ONLY("no wire between the software device's vHCAs");
	TEST_ASSERT_SUCCESS(q_buf_get(&m, cdev->pd, Q_RW), "");
	memset(m.va, 0x5a, 16);
	TEST_ASSERT_EQUAL(q_raw_get(&a, 4, false), TEST_SUCCESS, "");
	TEST_ASSERT_EQUAL(q_raw_get(&b, 4, false), TEST_SUCCESS, "");
	for (step = 0; step < 3; step++) {
		switch (step) {
		case 0: /* Connected to itself. */
			TEST_ASSERT_EQUAL(q_to_rts_fl(&a, a.qp.obj->id, false),
					  TEST_SUCCESS, "");
			break;
		case 1: /* To a peer in RTS connected back (with fl). */
			TEST_ASSERT_SUCCESS(mlx5_devx_cmd_modify_qp_state(
				a.qp.obj, MLX5_CMD_OP_2RST_QP, 0), "");
			TEST_ASSERT_EQUAL(q_to_rts_fl(&a, b.qp.obj->id, false),
					  TEST_SUCCESS, "");
			TEST_ASSERT_SUCCESS(mlx5_devx_qp_to_rts(&b.qp,
							a.qp.obj->id), "");
			break;
		case 2: /* The same QP with force loopback: the bytes move. */
			TEST_ASSERT_SUCCESS(mlx5_devx_cmd_modify_qp_state(
				a.qp.obj, MLX5_CMD_OP_2RST_QP, 0), "");
			TEST_ASSERT_EQUAL(q_to_rts_fl(&a, b.qp.obj->id, true),
					  TEST_SUCCESS, "");
			break;
		}
		TEST_ASSERT_SUCCESS(mlx5_devx_cmd_query_qp(a.qp.obj, &info),
				    "");
		TEST_ASSERT_EQUAL(info.force_loopback, step == 2,
				  "step %u: fl as set", step);
		TEST_ASSERT_EQUAL(info.state, MLX5_QP_STATE_RTS, "step %u",
				  step);
		for (k = 0; k < RTE_DIM(op); k++) {
			memset(m.va + op[k].to, 0, 16);
			wqe = a.qp.sq_pi;
			if (op[k].opcode == MLX5_OPCODE_RDMA_WRITE)
				q_post_wqe(&a, op[k].opcode, true, 1,
					   m.mr->lkey, (uintptr_t)m.va +
					   op[k].from, m.mr->rkey,
					   (uintptr_t)m.va + op[k].to);
			else
				q_post_wqe(&a, op[k].opcode, true, 1,
					   m.mr->lkey, (uintptr_t)m.va +
					   op[k].to, m.mr->rkey,
					   (uintptr_t)m.va + op[k].from);
			if (step == 2) {
				TEST_ASSERT_EQUAL(q_poll(&a, &opc, &synd, &ctr),
					MLX5_CQE_STATUS_SW_OWN,
					"opcode 0x%x with fl", op[k].opcode);
				TEST_ASSERT(memcmp(m.va + op[k].to,
					m.va + op[k].from, 16) == 0,
					"opcode 0x%x with fl: the bytes",
					op[k].opcode);
				continue;
			}
			TEST_ASSERT_EQUAL(q_poll(&a, &opc, &synd, &ctr),
				MLX5_CQE_STATUS_ERR, "step %u opcode 0x%x",
				step, op[k].opcode);
			TEST_ASSERT_EQUAL(synd,
				MLX5_CQE_SYNDROME_TRANSPORT_RETRY_EXC_ERR,
				"step %u opcode 0x%x", step, op[k].opcode);
			TEST_ASSERT_EQUAL(ctr, wqe, "the WQE's counter");
			TEST_ASSERT_EQUAL(q_err_wqe_opcode(&a), op[k].opcode,
					  "the WQE's opcode");
			TEST_ASSERT(m.va[op[k].to] == 0 &&
				    m.va[op[k].to + 15] == 0,
				    "step %u opcode 0x%x: nothing moved", step,
				    op[k].opcode);
			/* Back to RTS the same way, without fl. */
			TEST_ASSERT_SUCCESS(mlx5_devx_cmd_modify_qp_state(
				a.qp.obj, MLX5_CMD_OP_2RST_QP, 0), "");
			TEST_ASSERT_EQUAL(q_to_rts_fl(&a, a.qp.remote_qpn,
				false), TEST_SUCCESS, "");
		}
	}
	q_raw_put(&b);
	q_raw_put(&a);
	q_buf_put(&m);
	TDEV_ASSERT_LIVE(0, live0, "");
	return TEST_SUCCESS;
}

/*
 * A local key with local write but no local read (a DEVX MTT mkey, lr
 * 0) that the QP's translation cache holds: an RDMA READ into it puts
 * it there, then an RDMA WRITE from it, in the same doorbell and in a
 * later one, is refused with a local protection error and moves
 * nothing. The same WRITE from a key of the same memory with local read
 * moves the bytes.
 */
static int
test_cached_no_local_read(void)
{
	struct mlx5_devx_mkey_attr attr = {
		.access_mode = MLX5_MKC_ACCESS_MODE_MTT,
		.size = BUF_LEN,
		.pd = cdev->pdn,
		.lr = false,
		.lw = true,
		.log_page_size = 12,
	};
	struct mlx5dv_devx_umem *umem;
	struct mlx5_devx_obj *no_lr, *with_lr;
	uint16_t ctr, rd, wr;
	uint8_t op, synd;
	struct q_buf a;
	struct q_raw r;
	uint8_t *va;
	int round;

	va = aligned_alloc(4096, BUF_LEN);
	TEST_ASSERT_NOT_NULL(va, "");
	memset(va, 0, BUF_LEN);
	umem = cdev->glue->devx_umem_reg(cdev->ctx, va, BUF_LEN,
					 IBV_ACCESS_LOCAL_WRITE);
	if (umem == NULL) {
		free(va);
		TEST_ASSERT_NOT_NULL(umem, "umem");
	}
	attr.addr = (uintptr_t)va;
	attr.umem_id = umem->umem_id;
	no_lr = mlx5_devx_cmd_mkey_create(cdev, &attr);
	TEST_ASSERT_NOT_NULL(no_lr, "MTT mkey without local read");
	attr.lr = true;
	with_lr = mlx5_devx_cmd_mkey_create(cdev, &attr);
	TEST_ASSERT_NOT_NULL(with_lr, "MTT mkey with local read");
	TEST_ASSERT_SUCCESS(q_buf_get(&a, cdev->pd, Q_RW), "");
	for (int i = 0; i < 16; i++)
		a.va[i] = (uint8_t)(i * 7 + 3);
	TEST_ASSERT_EQUAL(q_raw_get(&r, 4, true), TEST_SUCCESS, "");
	for (round = 0; round < 2; round++) {
		/* A READ into the key (local write): the cache takes it. */
		memset(va, 0, 16);
		memset(a.va + 4096, 0xee, 16);
		rd = q_write_wqe(&r, MLX5_OPCODE_RDMA_READ, true, 1, no_lr->id,
				 (uintptr_t)va, a.mr->rkey, (uintptr_t)a.va);
		if (round == 1) {
			q_ring(&r, rd);
			TEST_ASSERT_EQUAL(q_poll(&r, &op, &synd, &ctr),
					  MLX5_CQE_STATUS_SW_OWN, "READ alone");
		}
		/* A WRITE from it (local read), cached or not: refused. */
		wr = q_write_wqe(&r, MLX5_OPCODE_RDMA_WRITE, true, 1, no_lr->id,
				 (uintptr_t)va, a.mr->rkey,
				 (uintptr_t)a.va + 4096);
		q_ring(&r, round == 0 ? rd : wr);
		if (round == 0)
			TEST_ASSERT_EQUAL(q_poll(&r, &op, &synd, &ctr),
					  MLX5_CQE_STATUS_SW_OWN,
					  "READ before the WRITE");
		TEST_ASSERT(memcmp(va, a.va, 16) == 0, "round %d: read into it",
			    round);
		TEST_ASSERT_EQUAL(q_poll(&r, &op, &synd, &ctr),
				  MLX5_CQE_STATUS_ERR,
				  "round %d: WRITE from a key without lr",
				  round);
		TEST_ASSERT_EQUAL(synd, MLX5_CQE_SYNDROME_LOCAL_PROT_ERR,
				  "round %d", round);
		TEST_ASSERT_EQUAL(ctr, wr, "round %d: the WQE's counter",
				  round);
		TEST_ASSERT(a.va[4096] == 0xee && a.va[4096 + 15] == 0xee,
			    "round %d: nothing written", round);
		TEST_ASSERT_SUCCESS(mlx5_devx_qp_recover(&r.qp), "");
	}
	/* The same memory through a key with local read: the bytes move. */
	q_post_wqe(&r, MLX5_OPCODE_RDMA_WRITE, true, 1, with_lr->id,
		   (uintptr_t)va, a.mr->rkey, (uintptr_t)a.va + 4096);
	TEST_ASSERT_EQUAL(q_poll(&r, &op, &synd, &ctr), MLX5_CQE_STATUS_SW_OWN,
			  "WRITE from a key with lr (0x%x)", synd);
	TEST_ASSERT(memcmp(a.va + 4096, a.va, 16) == 0, "written");
	q_raw_put(&r);
	q_buf_put(&a);
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_destroy(with_lr), "");
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_destroy(no_lr), "");
	TEST_ASSERT_SUCCESS(cdev->glue->devx_umem_dereg(umem), "");
	free(va);
	TDEV_ASSERT_LIVE(0, live0, "");
	return TEST_SUCCESS;
}

/*
 * Post a receive WQE on @r: @n segments of @len bytes with @lkey at @addr,
 * @addr + 1024, ..., then MLX5_INVALID_LKEY if the WQE has room.
 */
static void
q_post_recv(struct q_raw *r, unsigned int n, uint32_t len, uint32_t lkey,
	    uint64_t addr)
{
	struct mlx5_devx_qp *qp = &r->qp;
	uint32_t stride = 16u << qp->log_rq_stride;
	struct mlx5_wqe_data_seg *d = (void *)(qp->rq + (size_t)(r->rq_pi &
		((1u << qp->log_rq_size) - 1)) * stride);
	unsigned int i;

	for (i = 0; i < n; i++) {
		d[i].byte_count = rte_cpu_to_be_32(len);
		d[i].lkey = rte_cpu_to_be_32(lkey);
		d[i].addr = rte_cpu_to_be_64(addr + 1024 * i);
	}
	if (n < stride / sizeof(*d)) {
		d[n].byte_count = 0;
		d[n].lkey = rte_cpu_to_be_32(MLX5_INVALID_LKEY);
		d[n].addr = 0;
	}
	r->rq_pi++;
	rte_io_wmb();
	qp->db_rec[MLX5_RCV_DBR] = rte_cpu_to_be_32(r->rq_pi);
}

/*
 * Post a signaled message WQE of @opcode (SEND, SEND_IMM, or
 * RDMA_WRITE_IMM to (@rkey, @raddr)) of @len bytes at @addr with immediate
 * @imm: a data segment of @lkey, or inline data if @lkey is
 * MLX5_INVALID_LKEY. Returns the block it starts at.
 */
static uint16_t
q_post_msg(struct q_raw *r, uint8_t opcode, uint32_t imm, uint32_t lkey,
	   uint64_t addr, uint32_t len, uint32_t rkey, uint64_t raddr)
{
	struct mlx5_devx_qp *qp = &r->qp;
	uint32_t size = 1u << qp->log_sq_size;
	uint8_t wqe[2 * MLX5_SEND_WQE_BB];
	struct mlx5_wqe_ctrl_seg *ctrl = (void *)wqe;
	uint8_t *seg = (uint8_t *)(ctrl + 1);
	uint16_t first = qp->sq_pi;
	uint32_t nds, bbs, b;

	memset(wqe, 0, sizeof(wqe));
	if (opcode == MLX5_OPCODE_RDMA_WRITE_IMM) {
		struct mlx5_wqe_raddr_seg *rs = (void *)seg;

		rs->raddr = rte_cpu_to_be_64(raddr);
		rs->rkey = rte_cpu_to_be_32(rkey);
		seg += sizeof(*rs);
	}
	if (lkey == MLX5_INVALID_LKEY) {
		uint32_t bc = rte_cpu_to_be_32(len | MLX5_INLINE_SEG);

		memcpy(seg, &bc, sizeof(bc));
		memcpy(seg + sizeof(bc), (void *)(uintptr_t)addr, len);
		seg += RTE_ALIGN_CEIL(sizeof(bc) + len, 16);
	} else {
		struct mlx5_wqe_data_seg *d = (void *)seg;

		d->byte_count = rte_cpu_to_be_32(len);
		d->lkey = rte_cpu_to_be_32(lkey);
		d->addr = rte_cpu_to_be_64(addr);
		seg += sizeof(*d);
	}
	nds = (uint32_t)(seg - wqe) / 16;
	bbs = RTE_ALIGN_CEIL(nds * 16, MLX5_SEND_WQE_BB) / MLX5_SEND_WQE_BB;
	ctrl->opmod_idx_opcode = rte_cpu_to_be_32((uint32_t)first << 8 |
						  opcode);
	ctrl->qpn_ds = rte_cpu_to_be_32(qp->obj->id << 8 | nds);
	ctrl->fm_ce_se = MLX5_WQE_CTRL_CQ_UPDATE;
	ctrl->imm = rte_cpu_to_be_32(imm);
	for (b = 0; b < bbs; b++)
		memcpy(qp->sq + (size_t)((first + b) & (size - 1)) *
		       MLX5_SEND_WQE_BB, wqe + b * MLX5_SEND_WQE_BB,
		       MLX5_SEND_WQE_BB);
	qp->sq_pi += bbs;
	q_ring(r, first);
	return first;
}

/* The CQE q_poll() took last from @r's CQ. */
static volatile struct mlx5_cqe64 *
q_last_cqe(const struct q_raw *r)
{
	const struct mlx5_devx_cq *cq = &r->cq;

	return &cq->cqes[(cq->ci - 1) & ((1u << cq->log_size) - 1)];
}

/* Two QPs with receive queues connected to each other by force loopback. */
static int
q_rc_pair(struct q_raw *a, struct q_raw *b)
{
	TEST_ASSERT_EQUAL(q_raw_get_rq(a, 4, false, 2), TEST_SUCCESS, "");
	TEST_ASSERT_EQUAL(q_raw_get_rq(b, 4, false, 2), TEST_SUCCESS, "");
	TEST_ASSERT_EQUAL(q_to_rts_fl(a, b->qp.obj->id, true), TEST_SUCCESS,
			  "");
	TEST_ASSERT_EQUAL(q_to_rts_fl(b, a->qp.obj->id, true), TEST_SUCCESS,
			  "");
	return TEST_SUCCESS;
}

/*
 * RC messages between two QPs: a SEND with immediate scattered over the
 * responder's receive segments, an inline SEND, an RDMA WRITE with
 * immediate (the bytes at the remote address, a receive WQE taken and
 * nothing scattered into it), each with its CQEs on both sides; a SEND to
 * a QP with no receive posted waits (rnr_retry 7: for ever) and completes
 * once one is posted and the device tries again.
 */
static int
test_rc_send(void)
{
	volatile struct mlx5_cqe64 *cqe;
	struct q_raw a, b;
	struct q_buf m;
	uint8_t op, synd, ops[2];
	uint16_t ctr, wqe;
	unsigned int i;

	TEST_ASSERT_SUCCESS(q_buf_get(&m, cdev->pd, Q_RW), "");
	for (i = 0; i < 64; i++)
		m.va[i] = (uint8_t)(i + 1);
	TEST_ASSERT_EQUAL(q_rc_pair(&a, &b), TEST_SUCCESS, "");
	/* SEND with immediate: 16 bytes over two segments of 8. */
	q_post_recv(&b, 2, 8, m.mr->lkey, (uintptr_t)m.va + 1024);
	wqe = q_post_msg(&a, MLX5_OPCODE_SEND_IMM, 0x12345678, m.mr->lkey,
			 (uintptr_t)m.va, 16, 0, 0);
	TEST_ASSERT_EQUAL(q_poll(&a, &op, &synd, &ctr),
			  MLX5_CQE_STATUS_SW_OWN, "the requester's CQE");
	TEST_ASSERT_EQUAL(op, MLX5_CQE_REQ, "");
	TEST_ASSERT_EQUAL(ctr, wqe, "");
	TEST_ASSERT_EQUAL(q_poll(&b, &op, &synd, &ctr),
			  MLX5_CQE_STATUS_SW_OWN, "the responder's CQE");
	cqe = q_last_cqe(&b);
	TEST_ASSERT_EQUAL(op, MLX5_CQE_RESP_SEND_IMM, "");
	TEST_ASSERT_EQUAL(ctr, 0, "the first receive WQE");
	TEST_ASSERT_EQUAL(rte_be_to_cpu_32(cqe->byte_cnt), 16u, "");
	TEST_ASSERT_EQUAL(rte_be_to_cpu_32(cqe->imm_inval_pkey), 0x12345678u,
			  "the immediate");
	TEST_ASSERT_EQUAL(rte_be_to_cpu_32(cqe->flags_rqpn) & 0xffffff,
			  a.qp.obj->id, "the requester's QP");
	TEST_ASSERT(memcmp(m.va + 1024, m.va, 8) == 0 &&
		    memcmp(m.va + 2048, m.va + 8, 8) == 0, "scattered");
	/* Inline SEND of 12 bytes. */
	q_post_recv(&b, 1, 64, m.mr->lkey, (uintptr_t)m.va + 3072);
	q_post_msg(&a, MLX5_OPCODE_SEND, 0, MLX5_INVALID_LKEY,
		   (uintptr_t)m.va + 16, 12, 0, 0);
	TEST_ASSERT_EQUAL(q_poll(&a, &op, &synd, &ctr),
			  MLX5_CQE_STATUS_SW_OWN, "inline: the requester");
	TEST_ASSERT_EQUAL(q_poll(&b, &op, &synd, &ctr),
			  MLX5_CQE_STATUS_SW_OWN, "inline: the responder");
	TEST_ASSERT_EQUAL(op, MLX5_CQE_RESP_SEND, "");
	TEST_ASSERT_EQUAL(ctr, 1, "");
	TEST_ASSERT_EQUAL(rte_be_to_cpu_32(q_last_cqe(&b)->byte_cnt), 12u, "");
	TEST_ASSERT(memcmp(m.va + 3072, m.va + 16, 12) == 0, "inline bytes");
	/* RDMA WRITE with immediate. */
	memset(m.va + 4096, 0, 64);
	q_post_recv(&b, 1, 64, m.mr->lkey, (uintptr_t)m.va + 5120);
	q_post_msg(&a, MLX5_OPCODE_RDMA_WRITE_IMM, 7, m.mr->lkey,
		   (uintptr_t)m.va + 32, 32, m.mr->rkey, (uintptr_t)m.va + 4096);
	TEST_ASSERT_EQUAL(q_poll(&a, &op, &synd, &ctr),
			  MLX5_CQE_STATUS_SW_OWN, "WRITE_IMM: the requester");
	TEST_ASSERT_EQUAL(q_poll(&b, &op, &synd, &ctr),
			  MLX5_CQE_STATUS_SW_OWN, "WRITE_IMM: the responder");
	cqe = q_last_cqe(&b);
	TEST_ASSERT_EQUAL(op, MLX5_CQE_RESP_WR_IMM, "");
	TEST_ASSERT_EQUAL(rte_be_to_cpu_32(cqe->byte_cnt), 32u, "");
	TEST_ASSERT_EQUAL(rte_be_to_cpu_32(cqe->imm_inval_pkey), 7u, "");
	TEST_ASSERT(memcmp(m.va + 4096, m.va + 32, 32) == 0, "written");
	TEST_ASSERT_EQUAL(m.va[5120], 0, "nothing in the receive buffer");
	/* Receiver not ready: the SEND waits. */
	q_post_msg(&a, MLX5_OPCODE_SEND, 0, m.mr->lkey, (uintptr_t)m.va, 8,
		   0, 0);
	TEST_ASSERT_EQUAL(q_poll(&a, &op, &synd, &ctr), MLX5_CQE_STATUS_HW_OWN,
			  "no receive posted: the SEND waits");
	q_post_recv(&b, 1, 64, m.mr->lkey, (uintptr_t)m.va + 6144);
	/* A doorbell of the device (where no thread retries). */
	q_post(&b, MLX5_OPCODE_NOP, true, 0, 0, 0);
	for (i = 0; i < 2; i++) {
		TEST_ASSERT_EQUAL(q_poll(&b, &ops[i], &synd, &ctr),
				  MLX5_CQE_STATUS_SW_OWN, "b's CQE %u", i);
	}
	TEST_ASSERT((ops[0] == MLX5_CQE_REQ && ops[1] == MLX5_CQE_RESP_SEND) ||
		    (ops[1] == MLX5_CQE_REQ && ops[0] == MLX5_CQE_RESP_SEND),
		    "the NOP and the SEND received: 0x%x 0x%x", ops[0], ops[1]);
	TEST_ASSERT_EQUAL(q_poll(&a, &op, &synd, &ctr),
			  MLX5_CQE_STATUS_SW_OWN, "the SEND done once received");
	TEST_ASSERT(memcmp(m.va + 6144, m.va, 8) == 0, "");
	q_raw_put(&b);
	q_raw_put(&a);
	q_buf_put(&m);
	TDEV_ASSERT_LIVE(0, live0, "");
	return TEST_SUCCESS;
}

/* Both QPs of @a and @b back to RTS as a pair (@rnr_retry for @a). */
static int
q_rc_restate(struct q_raw *a, struct q_raw *b, uint8_t rnr_retry)
{
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_modify_qp_state(a->qp.obj,
		MLX5_CMD_OP_2RST_QP, 0), "");
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_modify_qp_state(b->qp.obj,
		MLX5_CMD_OP_2RST_QP, 0), "");
	TEST_ASSERT_EQUAL(q_to_rts_path(a, b->qp.obj->id, true, NULL,
					rnr_retry), TEST_SUCCESS, "");
	TEST_ASSERT_EQUAL(q_to_rts_fl(b, a->qp.obj->id, true), TEST_SUCCESS,
			  "");
	return TEST_SUCCESS;
}

/*
 * The errors of RC messages, each with both sides' CQEs: a message
 * longer than the receive WQE (the responder LOCAL_LENGTH_ERR, the
 * requester REMOTE_INVAL_REQ_ERR, the responder's other receive flushed);
 * a receive segment the responder may not write (LOCAL_PROT_ERR and
 * REMOTE_OP_ERR, nothing written); a SEND whose RNR retries run out
 * (rnr_retry 1: RNR_RETRY_EXC_ERR).
 */
static int
test_rc_send_errors(void)
{
	struct q_raw a, b;
	struct q_buf m, ro;
	enum mlx5_cqe_status st = MLX5_CQE_STATUS_HW_OWN;
	uint8_t op, synd;
	uint16_t ctr;
	unsigned int i;

	TEST_ASSERT_SUCCESS(q_buf_get(&m, cdev->pd, Q_RW), "");
	TEST_ASSERT_SUCCESS(q_buf_get(&ro, cdev->pd, 0), "local read only");
	TEST_ASSERT_EQUAL(q_rc_pair(&a, &b), TEST_SUCCESS, "");
	/* Longer than the receive WQE. */
	q_post_recv(&b, 1, 8, m.mr->lkey, (uintptr_t)m.va + 1024);
	q_post_recv(&b, 1, 64, m.mr->lkey, (uintptr_t)m.va + 2048);
	q_post_msg(&a, MLX5_OPCODE_SEND, 0, m.mr->lkey, (uintptr_t)m.va, 16,
		   0, 0);
	TEST_ASSERT_EQUAL(q_poll(&a, &op, &synd, &ctr), MLX5_CQE_STATUS_ERR,
			  "too long: the requester");
	TEST_ASSERT_EQUAL(synd, MLX5_CQE_SYNDROME_REMOTE_INVAL_REQ_ERR, "");
	TEST_ASSERT_EQUAL(q_poll(&b, &op, &synd, &ctr), MLX5_CQE_STATUS_ERR,
			  "too long: the responder");
	TEST_ASSERT_EQUAL(op, MLX5_CQE_RESP_ERR, "");
	TEST_ASSERT_EQUAL(synd, MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR, "");
	TEST_ASSERT_EQUAL(ctr, 0, "");
	TEST_ASSERT_EQUAL(q_poll(&b, &op, &synd, &ctr), MLX5_CQE_STATUS_ERR,
			  "the other receive");
	TEST_ASSERT_EQUAL(synd, MLX5_CQE_SYNDROME_WR_FLUSH_ERR, "flushed");
	TEST_ASSERT_EQUAL(ctr, 1, "");
	/* A receive segment without local write. */
	TEST_ASSERT_EQUAL(q_rc_restate(&a, &b, 7), TEST_SUCCESS, "");
	q_post_recv(&b, 1, 64, ro.mr->lkey, (uintptr_t)ro.va);
	q_post_msg(&a, MLX5_OPCODE_SEND, 0, m.mr->lkey, (uintptr_t)m.va, 16,
		   0, 0);
	TEST_ASSERT_EQUAL(q_poll(&a, &op, &synd, &ctr), MLX5_CQE_STATUS_ERR,
			  "protection: the requester");
	TEST_ASSERT_EQUAL(synd, MLX5_CQE_SYNDROME_REMOTE_OP_ERR, "");
	TEST_ASSERT_EQUAL(q_poll(&b, &op, &synd, &ctr), MLX5_CQE_STATUS_ERR,
			  "protection: the responder");
	TEST_ASSERT_EQUAL(synd, MLX5_CQE_SYNDROME_LOCAL_PROT_ERR, "");
	TEST_ASSERT_EQUAL(ro.va[0], 0, "nothing written");
	/* RNR retries run out. */
	TEST_ASSERT_EQUAL(q_rc_restate(&a, &b, 1), TEST_SUCCESS, "");
	q_post_msg(&a, MLX5_OPCODE_SEND, 0, m.mr->lkey, (uintptr_t)m.va, 16,
		   0, 0);
	for (i = 0; i < 5 && st == MLX5_CQE_STATUS_HW_OWN; i++) {
		q_post(&b, MLX5_OPCODE_NOP, true, 0, 0, 0);
		TEST_ASSERT_EQUAL(q_poll(&b, &op, &synd, &ctr),
				  MLX5_CQE_STATUS_SW_OWN, "b's NOP");
		st = q_poll(&a, &op, &synd, &ctr);
	}
	TEST_ASSERT_EQUAL(st, MLX5_CQE_STATUS_ERR, "RNR: the retries spent");
	TEST_ASSERT_EQUAL(synd, MLX5_CQE_SYNDROME_RNR_RETRY_EXC_ERR, "");
	q_raw_put(&b);
	q_raw_put(&a);
	q_buf_put(&ro);
	q_buf_put(&m);
	TDEV_ASSERT_LIVE(0, live0, "");
	return TEST_SUCCESS;
}

/*
 * RNR retries as the software device counts them (it has no clock: a
 * retry is a later pass of the device, here a doorbell of another QP):
 * none is spent in the doorbell that stalled, then one per pass, and
 * with rnr_retry 2 the second retry fails with RNR_RETRY_EXC_ERR.
 */
static int
test_rc_rnr_passes(void)
{
	struct q_raw a, b;
	struct q_buf m;
	uint8_t op, synd;
	uint16_t ctr;

	TDEV_SIM_ONLY("RNR retries by device passes (hardware: a timer)");
	TEST_ASSERT_SUCCESS(q_buf_get(&m, cdev->pd, Q_RW), "");
	TEST_ASSERT_EQUAL(q_rc_pair(&a, &b), TEST_SUCCESS, "");
	TEST_ASSERT_EQUAL(q_rc_restate(&a, &b, 2), TEST_SUCCESS, "");
	q_post_msg(&a, MLX5_OPCODE_SEND, 0, m.mr->lkey, (uintptr_t)m.va, 16,
		   0, 0);
	TEST_ASSERT_EQUAL(q_poll(&a, &op, &synd, &ctr), MLX5_CQE_STATUS_HW_OWN,
			  "no retry in the doorbell that stalled");
	q_post(&b, MLX5_OPCODE_NOP, true, 0, 0, 0);
	TEST_ASSERT_EQUAL(q_poll(&b, &op, &synd, &ctr), MLX5_CQE_STATUS_SW_OWN,
			  "");
	TEST_ASSERT_EQUAL(q_poll(&a, &op, &synd, &ctr), MLX5_CQE_STATUS_HW_OWN,
			  "the first retry: still not ready");
	q_post(&b, MLX5_OPCODE_NOP, true, 0, 0, 0);
	TEST_ASSERT_EQUAL(q_poll(&b, &op, &synd, &ctr), MLX5_CQE_STATUS_SW_OWN,
			  "");
	TEST_ASSERT_EQUAL(q_poll(&a, &op, &synd, &ctr), MLX5_CQE_STATUS_ERR,
			  "the second retry: spent");
	TEST_ASSERT_EQUAL(synd, MLX5_CQE_SYNDROME_RNR_RETRY_EXC_ERR, "");
	q_raw_put(&b);
	q_raw_put(&a);
	q_buf_put(&m);
	return TEST_SUCCESS;
}

/*
 * A responder moved to ERR by the requester's message (an RDMA WRITE with
 * a bad R_Key: REMOTE_ACCESS_ERR) flushes its receives at once, without
 * a doorbell of its own, and a receive posted to it later is flushed by
 * the device's next pass (IBTA: in the Error state, posted work requests
 * complete in error).
 */
static int
test_rc_responder_err(void)
{
	struct q_raw a, b;
	struct q_buf m;
	uint8_t op, synd;
	uint16_t ctr;
	unsigned int i;

	TEST_ASSERT_SUCCESS(q_buf_get(&m, cdev->pd, Q_RW), "");
	TEST_ASSERT_EQUAL(q_rc_pair(&a, &b), TEST_SUCCESS, "");
	q_post_recv(&b, 1, 64, m.mr->lkey, (uintptr_t)m.va + 1024);
	q_post_recv(&b, 1, 64, m.mr->lkey, (uintptr_t)m.va + 2048);
	q_post_wqe(&a, MLX5_OPCODE_RDMA_WRITE, true, 1, m.mr->lkey,
		   (uintptr_t)m.va, m.mr->rkey ^ 0x100,
		   (uintptr_t)m.va + 4096);
	TEST_ASSERT_EQUAL(q_poll(&a, &op, &synd, &ctr), MLX5_CQE_STATUS_ERR,
			  "the requester");
	TEST_ASSERT_EQUAL(synd, MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR, "");
	for (i = 0; i < 2; i++) {
		TEST_ASSERT_EQUAL(q_poll(&b, &op, &synd, &ctr),
				  MLX5_CQE_STATUS_ERR, "receive %u flushed", i);
		TEST_ASSERT_EQUAL(op, MLX5_CQE_RESP_ERR, "");
		TEST_ASSERT_EQUAL(synd, MLX5_CQE_SYNDROME_WR_FLUSH_ERR, "");
		TEST_ASSERT_EQUAL(ctr, i, "");
	}
	q_post_recv(&b, 1, 64, m.mr->lkey, (uintptr_t)m.va + 3072);
	q_post(&a, MLX5_OPCODE_NOP, true, 0, 0, 0);
	TEST_ASSERT_EQUAL(q_poll(&a, &op, &synd, &ctr), MLX5_CQE_STATUS_ERR,
			  "the requester's NOP flushed");
	TEST_ASSERT_EQUAL(q_poll(&b, &op, &synd, &ctr), MLX5_CQE_STATUS_ERR,
			  "a receive posted later: flushed");
	TEST_ASSERT_EQUAL(synd, MLX5_CQE_SYNDROME_WR_FLUSH_ERR, "");
	TEST_ASSERT_EQUAL(ctr, 2, "");
	q_raw_put(&b);
	q_raw_put(&a);
	q_buf_put(&m);
	return TEST_SUCCESS;
}

/*
 * RoCE paths of the software device, by the address path's destination
 * MAC: the vHCA's own (local loopback) moves the bytes; another MAC, on
 * either side (the ACKs must come back), exhausts the requester's
 * retries and moves nothing; over a cable to another vHCA, its MAC
 * reaches its QPs (a SEND and an RDMA WRITE between the two memories).
 */
static int
test_rc_roce_path(void)
{
	struct mlx5_common_device *cdev0 = cdev, *cdev1;
	struct mlx5_nic_vport_info v0, v1;
	uint8_t other[6];
	struct q_raw a, b, c;
	struct q_buf m, n;
	uint8_t op, synd;
	uint16_t ctr;

	TDEV_SIM_ONLY("a RoCE path by its MAC alone (hardware needs GIDs)");
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_query_nic_vport(cdev, &v0), "");
	memcpy(other, v0.mac, sizeof(other));
	other[5] ^= 0x80;
	TEST_ASSERT_SUCCESS(q_buf_get(&m, cdev->pd, Q_RW), "");
	memset(m.va, 0x3c, 16);
	TEST_ASSERT_EQUAL(q_raw_get_rq(&a, 4, false, 2), TEST_SUCCESS, "");
	TEST_ASSERT_EQUAL(q_raw_get_rq(&b, 4, false, 2), TEST_SUCCESS, "");
	TEST_ASSERT_EQUAL(q_to_rts_path(&a, b.qp.obj->id, false, v0.mac, 7),
			  TEST_SUCCESS, "");
	TEST_ASSERT_EQUAL(q_to_rts_path(&b, a.qp.obj->id, false, v0.mac, 7),
			  TEST_SUCCESS, "");
	q_post_wqe(&a, MLX5_OPCODE_RDMA_WRITE, true, 1, m.mr->lkey,
		   (uintptr_t)m.va, m.mr->rkey, (uintptr_t)m.va + 4096);
	TEST_ASSERT_EQUAL(q_poll(&a, &op, &synd, &ctr),
			  MLX5_CQE_STATUS_SW_OWN, "own MAC: loopback");
	TEST_ASSERT(memcmp(m.va + 4096, m.va, 16) == 0, "written");
	/* Another MAC on the requester's side, then on the responder's. */
	for (int side = 0; side < 2; side++) {
		memset(m.va + 4096, 0, 16);
		TEST_ASSERT_SUCCESS(mlx5_devx_cmd_modify_qp_state(a.qp.obj,
			MLX5_CMD_OP_2RST_QP, 0), "");
		TEST_ASSERT_SUCCESS(mlx5_devx_cmd_modify_qp_state(b.qp.obj,
			MLX5_CMD_OP_2RST_QP, 0), "");
		TEST_ASSERT_EQUAL(q_to_rts_path(&a, b.qp.obj->id, false,
			side == 0 ? other : v0.mac, 7), TEST_SUCCESS, "");
		TEST_ASSERT_EQUAL(q_to_rts_path(&b, a.qp.obj->id, false,
			side == 1 ? other : v0.mac, 7), TEST_SUCCESS, "");
		q_post_wqe(&a, MLX5_OPCODE_RDMA_WRITE, true, 1, m.mr->lkey,
			   (uintptr_t)m.va, m.mr->rkey,
			   (uintptr_t)m.va + 4096);
		TEST_ASSERT_EQUAL(q_poll(&a, &op, &synd, &ctr),
				  MLX5_CQE_STATUS_ERR, "side %d", side);
		TEST_ASSERT_EQUAL(synd,
				  MLX5_CQE_SYNDROME_TRANSPORT_RETRY_EXC_ERR,
				  "side %d", side);
		TEST_ASSERT_EQUAL(m.va[4096], 0, "side %d: nothing moved",
				  side);
	}
	/* Over a cable to vHCA 1 of the card. */
	TEST_ASSERT_SUCCESS(tdev_probe(1, "card=60,vhca_id=1,wire=0"), "");
	cdev1 = tdev_cdev(1);
	TEST_ASSERT_NOT_NULL(cdev1, "");
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_query_nic_vport(cdev1, &v1), "");
	TEST_ASSERT_SUCCESS(q_buf_get(&n, cdev1->pd, Q_RW), "");
	cdev = cdev1;
	TEST_ASSERT_EQUAL(q_raw_get_rq(&c, 4, false, 2), TEST_SUCCESS, "");
	TEST_ASSERT_EQUAL(q_to_rts_path(&c, a.qp.obj->id, false, v0.mac, 7),
			  TEST_SUCCESS, "");
	cdev = cdev0;
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_modify_qp_state(a.qp.obj,
		MLX5_CMD_OP_2RST_QP, 0), "");
	TEST_ASSERT_EQUAL(q_to_rts_path(&a, c.qp.obj->id, false, v1.mac, 7),
			  TEST_SUCCESS, "");
	q_post_recv(&c, 1, 64, n.mr->lkey, (uintptr_t)n.va + 1024);
	q_post_msg(&a, MLX5_OPCODE_SEND, 0, m.mr->lkey, (uintptr_t)m.va, 16,
		   0, 0);
	TEST_ASSERT_EQUAL(q_poll(&a, &op, &synd, &ctr),
			  MLX5_CQE_STATUS_SW_OWN, "to the other vHCA");
	TEST_ASSERT_EQUAL(q_poll(&c, &op, &synd, &ctr),
			  MLX5_CQE_STATUS_SW_OWN, "received there");
	TEST_ASSERT_EQUAL(op, MLX5_CQE_RESP_SEND, "");
	TEST_ASSERT(memcmp(n.va + 1024, m.va, 16) == 0, "its memory");
	q_post_wqe(&a, MLX5_OPCODE_RDMA_WRITE, true, 1, m.mr->lkey,
		   (uintptr_t)m.va, n.mr->rkey, (uintptr_t)n.va + 4096);
	TEST_ASSERT_EQUAL(q_poll(&a, &op, &synd, &ctr),
			  MLX5_CQE_STATUS_SW_OWN, "WRITE to the other vHCA");
	TEST_ASSERT(memcmp(n.va + 4096, m.va, 16) == 0, "written there");
	/* Its key is not this vHCA's: the same WRITE to vHCA 0's address. */
	q_post_wqe(&a, MLX5_OPCODE_RDMA_WRITE, true, 1, m.mr->lkey,
		   (uintptr_t)m.va, m.mr->rkey, (uintptr_t)m.va + 2048);
	TEST_ASSERT_EQUAL(q_poll(&a, &op, &synd, &ctr), MLX5_CQE_STATUS_ERR,
			  "a key of the requester's vHCA");
	TEST_ASSERT_EQUAL(synd, MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR, "");
	cdev = cdev1;
	q_raw_put(&c);
	cdev = cdev0;
	q_buf_put(&n);
	TEST_ASSERT_SUCCESS(tdev_remove(1), "");
	q_raw_put(&b);
	q_raw_put(&a);
	q_buf_put(&m);
	TDEV_ASSERT_LIVE(0, live0, "");
	return TEST_SUCCESS;
}

/*
 * Doorbells as plain stores, taken by the device's doorbell thread: two
 * QPs on one UAR page each post a NOP and update their doorbell record,
 * but only the second's doorbell reaches the register (the later store
 * covers the earlier, as when both land before the device reads it).
 * Both NOPs complete: the device runs every queue of the page whose
 * record moved.
 */
static int
test_doorbell_store_covered(void)
{
	struct mlx5_devx_qp_params p = {
		.pd = cdev->pdn, .log_sq_size = 3,
	};
	struct q_raw a, b;
	uint8_t op, synd;
	uint16_t ctr;
	uint64_t db;

	TDEV_SIM_ONLY("the software device's doorbell thread");
	TEST_ASSERT_SUCCESS(mlx5_sim_doorbell_watch(), "");
	TEST_ASSERT_EQUAL(q_raw_get(&a, 4, true), TEST_SUCCESS, "");
	memset(&b, 0, sizeof(b));
	TEST_ASSERT_SUCCESS(mlx5_devx_cq_create(cdev, &b.cq, 4, &a.uar,
						SOCKET_ID_ANY), "");
	p.cqn = b.cq.obj->id;
	p.uar = &a.uar;
	TEST_ASSERT_SUCCESS(mlx5_devx_qp_create(cdev, &b.qp, &p,
						SOCKET_ID_ANY), "");
	TEST_ASSERT_SUCCESS(mlx5_devx_qp_to_rts(&b.qp, b.qp.obj->id), "");
	q_write_wqe(&a, MLX5_OPCODE_NOP, true, 0, 0, 0, 0, 0);
	q_write_wqe(&b, MLX5_OPCODE_NOP, true, 0, 0, 0, 0, 0);
	a.qp.db_rec[MLX5_SND_DBR] = rte_cpu_to_be_32(a.qp.sq_pi);
	b.qp.db_rec[MLX5_SND_DBR] = rte_cpu_to_be_32(b.qp.sq_pi);
	rte_io_wmb();
	/* The register the thread watches; no kick hook. */
	memcpy(&db, b.qp.sq, sizeof(db));
	__atomic_store_n((uint64_t *)(void *)((uint8_t *)a.uar.obj->base_addr +
					      0x800), db, __ATOMIC_RELEASE);
	TEST_ASSERT_EQUAL(q_poll(&b, &op, &synd, &ctr),
			  MLX5_CQE_STATUS_SW_OWN, "the QP the doorbell named");
	TEST_ASSERT_EQUAL(q_poll(&a, &op, &synd, &ctr),
			  MLX5_CQE_STATUS_SW_OWN, "the QP whose store it covered");
	TEST_ASSERT_SUCCESS(mlx5_devx_qp_destroy(&b.qp), "");
	TEST_ASSERT_SUCCESS(mlx5_devx_cq_destroy(&b.cq), "");
	q_raw_put(&a);
	TDEV_ASSERT_LIVE(0, live0, "");
	return TEST_SUCCESS;
}

static const struct mlx5_test_case q_cases[] = {
	{ "lbqp_write_read", test_lbqp_write_read },
	{ "lbqp_errors", test_lbqp_errors },
	{ "signaled_only", test_signaled_only },
	{ "error_flush_recover", test_error_flush_recover },
	{ "state_machine", test_state_machine },
	{ "cq_overrun", test_cq_overrun },
	{ "cq_counter_16bit", test_cq_counter_16bit },
	{ "create_errors", test_create_errors },
	{ "multi_block_wqe", test_multi_block_wqe },
	{ "peer_qp", test_peer_qp },
	{ "doorbell_beyond", test_doorbell_beyond },
	{ "bad_wqes", test_bad_wqes },
	{ "wqe_blocks", test_wqe_blocks },
	{ "doorbell_routing", test_doorbell_routing },
	{ "destroy_in_use", test_destroy_in_use },
	{ "fault_sweep", test_fault_sweep },
	{ "reclaim_at_remove", test_reclaim_at_remove },
	{ "ring_fault", test_ring_fault },
	{ "rdma_move_fault", test_rdma_move_fault },
	{ "no_force_loopback", test_no_force_loopback },
	{ "cached_no_local_read", test_cached_no_local_read },
	{ "rc_send", test_rc_send },
	{ "rc_send_errors", test_rc_send_errors },
	{ "rc_rnr_passes", test_rc_rnr_passes },
	{ "rc_responder_err", test_rc_responder_err },
	{ "rc_roce_path", test_rc_roce_path },
	{ "doorbell_store_covered", test_doorbell_store_covered },
	{ NULL, NULL },
};

static const struct mlx5_test_suite q_suite = {
	.name = "queue",
	.case_setup = q_case_setup,
	.case_teardown = q_case_teardown,
	.cases = q_cases,
};

MLX5_TEST_MAIN(q_suite);
