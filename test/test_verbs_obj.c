/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * Verbs queue objects through the common layer (mlx5_common_verbs.h): a
 * CQ, an RC QP, an SRQ, WQs and an RWQ indirection table made by the
 * backend's verbs calls, then queried and modified with DEVX commands
 * that must name them (QUERY/MODIFY_CQ, QUERY_QP and the transitions,
 * QUERY/MODIFY_RMP, QUERY/MODIFY_RQ, QUERY/MODIFY_RQT), the QP's lag port
 * and UDP source port, the kernel's destroy-order rules, and the live
 * counts. Runs on the software device, or on a real device named by
 * MLX5_TEST_DEVICE (the lag cases need a LAG).
 */

#include <stdlib.h>

#include <infiniband/mlx5dv.h>

#include <mlx5_common_verbs.h>
#include <mlx5_sim.h>

#include "mlx5_test.h"
#include "mlx5_test_dev.h"

#define V_CARD 63
/* Two ports: the lag cases need a LAG. */
#define V_SHAPE "card=63,vhca_id=0,ports=2"

static struct mlx5_common_device *cdev;
static long live0;

static int
v_case_setup(void)
{
	if (tdev_probe(0, V_SHAPE) != 0)
		return TEST_FAILED;
	cdev = tdev_cdev(0);
	live0 = tdev_live(0);
	return cdev != NULL ? TEST_SUCCESS : TEST_FAILED;
}

static void
v_case_teardown(void)
{
	if (!tdev_hw())
		mlx5_sim_fault_clear(V_CARD, 0);
	tdev_remove_all();
	cdev = NULL;
}

static int
v_destroy(enum mlx5_verbs_obj_type type, void *obj)
{
	return obj != NULL ? mlx5_verbs_obj_destroy(cdev, type, obj) : 0;
}

static uint32_t
v_num(enum mlx5_verbs_obj_type type, void *obj)
{
	uint32_t num = UINT32_MAX;

	if (mlx5_verbs_obj_number(cdev, type, obj, &num) != 0)
		return UINT32_MAX;
	return num;
}

/* An RC QP on @cq with 16 send and 8 receive WQEs. */
static struct ibv_qp *
v_qp(struct ibv_cq *cq)
{
	struct ibv_qp_init_attr_ex attr = {
		.send_cq = cq,
		.recv_cq = cq,
		.cap = { .max_send_wr = 16, .max_recv_wr = 8,
			 .max_send_sge = 1, .max_recv_sge = 1 },
		.qp_type = IBV_QPT_RC,
	};

	return mlx5_verbs_qp_create(cdev, &attr);
}

/* ibv_modify_qp() on through RESET -> INIT -> RTR -> RTS, to itself. */
static int
v_qp_to(struct ibv_qp *qp, enum ibv_qp_state to)
{
	struct ibv_qp_attr a = {
		.qp_state = IBV_QPS_INIT,
		.port_num = 1,
		.qp_access_flags = IBV_ACCESS_REMOTE_READ |
				   IBV_ACCESS_REMOTE_WRITE,
	};
	int ret = 0;

	if (qp->state == IBV_QPS_RESET)
		ret = mlx5_verbs_qp_modify(cdev, qp, &a, IBV_QP_STATE |
			IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS);
	if (ret != 0 || to == IBV_QPS_INIT)
		return ret;
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTR;
	a.path_mtu = IBV_MTU_1024;
	a.dest_qp_num = qp->qp_num;
	a.ah_attr.port_num = 1;
	/* RoCE: a GRH (ib_core refuses an address without one); fe80::1. */
	a.ah_attr.is_global = 1;
	a.ah_attr.grh.dgid.raw[0] = 0xfe;
	a.ah_attr.grh.dgid.raw[1] = 0x80;
	a.ah_attr.grh.dgid.raw[15] = 1;
	a.ah_attr.grh.hop_limit = 1;
	ret = mlx5_verbs_qp_modify(cdev, qp, &a, IBV_QP_STATE | IBV_QP_AV |
		IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
		IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER);
	if (ret != 0 || to == IBV_QPS_RTR)
		return ret;
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTS;
	a.retry_cnt = 7;
	a.rnr_retry = 7;
	a.timeout = 14;
	return mlx5_verbs_qp_modify(cdev, qp, &a, IBV_QP_STATE |
		IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
		IBV_QP_SQ_PSN | IBV_QP_MAX_QP_RD_ATOMIC);
}

/* QUERY_QP of a verbs QP into @out. */
static int
v_query_qp(struct ibv_qp *qp, uint32_t *out)
{
	uint32_t in[MLX5_ST_SZ_DW(query_qp_in)] = { 0 };

	MLX5_SET(query_qp_in, in, opcode, MLX5_CMD_OP_QUERY_QP);
	MLX5_SET(query_qp_in, in, qpn, qp->qp_num);
	return MLX5_VERBS_DEVX_QUERY(cdev, MLX5_VERBS_OBJ_QP, qp, query_qp,
				     in, out);
}

#define V_QPC(out, fld) MLX5_GET(query_qp_out, (out), qpc.fld)

static int
test_cq(void)
{
	uint32_t qin[MLX5_ST_SZ_DW(query_cq_in)] = { 0 };
	uint32_t qout[MLX5_ST_SZ_DW(query_cq_out)] = { 0 };
	uint32_t min[MLX5_ST_SZ_DW(modify_cq_in)] = { 0 };
	uint32_t mout[MLX5_ST_SZ_DW(modify_cq_out)] = { 0 };
	void *cqc = MLX5_ADDR_OF(modify_cq_in, min, cq_context);
	struct ibv_cq *cq, *cq2;
	uint32_t cqn;

	TEST_ASSERT(mlx5_verbs_cq_create(cdev, 0, 0) == NULL, "0 entries");
	TEST_ASSERT_EQUAL(rte_errno, EINVAL, "");
	cq = mlx5_verbs_cq_create(cdev, 100, 0);
	TEST_ASSERT_NOT_NULL(cq, "CQ");
	TEST_ASSERT_EQUAL(cq->cqe, 127, "cqe + 1 entries, a power of two");
	TDEV_ASSERT_LIVE(0, live0 + 1, "one CQ");
	cqn = v_num(MLX5_VERBS_OBJ_CQ, cq);
	TEST_ASSERT(cqn != UINT32_MAX, "cqn");
	MLX5_SET(query_cq_in, qin, opcode, MLX5_CMD_OP_QUERY_CQ);
	MLX5_SET(query_cq_in, qin, cqn, cqn);
	TEST_ASSERT_SUCCESS(MLX5_VERBS_DEVX_QUERY(cdev, MLX5_VERBS_OBJ_CQ, cq,
						  query_cq, qin, qout), "");
	TEST_ASSERT_EQUAL(MLX5_GET(query_cq_out, qout,
				   cq_context.log_cq_size), 7, "");
	/* Moderation by MODIFY_CQ, read back. */
	MLX5_SET(modify_cq_in, min, opcode, MLX5_CMD_OP_MODIFY_CQ);
	MLX5_SET(modify_cq_in, min, cqn, cqn);
	MLX5_SET(modify_cq_in, min, modify_field_select,
		 MLX5_CQ_MODIFY_PERIOD | MLX5_CQ_MODIFY_COUNT);
	MLX5_SET(cqc, cqc, cq_period, 16);
	MLX5_SET(cqc, cqc, cq_max_count, 32);
	TEST_ASSERT_SUCCESS(MLX5_VERBS_DEVX_MODIFY(cdev, MLX5_VERBS_OBJ_CQ,
						   cq, modify_cq, min, mout),
			    "");
	TEST_ASSERT_SUCCESS(MLX5_VERBS_DEVX_QUERY(cdev, MLX5_VERBS_OBJ_CQ, cq,
						  query_cq, qin, qout), "");
	TEST_ASSERT_EQUAL(MLX5_GET(query_cq_out, qout, cq_context.cq_period),
			  16, "");
	TEST_ASSERT_EQUAL(MLX5_GET(query_cq_out, qout,
				   cq_context.cq_max_count), 32, "");
	/* Another CQ's number on this handle: the kernel's EINVAL. */
	cq2 = mlx5_verbs_cq_create(cdev, 1, 1);
	TEST_ASSERT_NOT_NULL(cq2, "second CQ");
	TEST_ASSERT_EQUAL(cq2->cqe, 1, "");
	MLX5_SET(query_cq_in, qin, cqn, v_num(MLX5_VERBS_OBJ_CQ, cq2));
	TEST_ASSERT_EQUAL(MLX5_VERBS_DEVX_QUERY(cdev, MLX5_VERBS_OBJ_CQ, cq,
						query_cq, qin, qout), -EINVAL,
			  "another CQ's number");
	/* A command for another kind of object, even with this number. */
	MLX5_SET(query_cq_in, qin, opcode, MLX5_CMD_OP_QUERY_QP);
	MLX5_SET(query_cq_in, qin, cqn, cqn);
	TEST_ASSERT_EQUAL(mlx5_verbs_devx_query(cdev, MLX5_VERBS_OBJ_CQ, cq,
		"query_qp", qin, MLX5_ST_SZ_BYTES(query_qp_in), qout,
		sizeof(qout)), -EINVAL, "QUERY_QP on a CQ");
	TEST_ASSERT_SUCCESS(v_destroy(MLX5_VERBS_OBJ_CQ, cq2), "");
	TEST_ASSERT_SUCCESS(v_destroy(MLX5_VERBS_OBJ_CQ, cq), "");
	TDEV_ASSERT_LIVE(0, live0, "everything destroyed");
	return TEST_SUCCESS;
}

/*
 * What the kernel lets through at QP creation and RTR: the creation-flags
 * mask with no flag (rdma-core's tests send it for RC) creates a QP; on
 * RoCE an address without a GRH is refused (EINVAL), the QP left in INIT.
 */
static int
test_qp_create_flags_grh(void)
{
	struct ibv_qp_init_attr_ex attr = {
		.cap = { .max_send_wr = 4, .max_recv_wr = 4,
			 .max_send_sge = 1, .max_recv_sge = 1 },
		.qp_type = IBV_QPT_RC,
		.comp_mask = IBV_QP_INIT_ATTR_CREATE_FLAGS,
		.create_flags = 0,
	};
	struct ibv_qp_attr a;
	struct ibv_cq *cq;
	struct ibv_qp *qp;

	cq = mlx5_verbs_cq_create(cdev, 32, 0);
	TEST_ASSERT_NOT_NULL(cq, "CQ");
	attr.send_cq = cq;
	attr.recv_cq = cq;
	qp = mlx5_verbs_qp_create(cdev, &attr);
	TEST_ASSERT_NOT_NULL(qp, "the creation-flags mask, no flag");
	TEST_ASSERT_SUCCESS(v_qp_to(qp, IBV_QPS_INIT), "");
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTR;
	a.path_mtu = IBV_MTU_1024;
	a.dest_qp_num = qp->qp_num;
	a.ah_attr.port_num = 1;
	TEST_ASSERT_EQUAL(mlx5_verbs_qp_modify(cdev, qp, &a, IBV_QP_STATE |
		IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN |
		IBV_QP_RQ_PSN | IBV_QP_MAX_DEST_RD_ATOMIC |
		IBV_QP_MIN_RNR_TIMER), -EINVAL, "RoCE: no GRH");
	TEST_ASSERT_EQUAL(qp->state, IBV_QPS_INIT, "");
	TEST_ASSERT_SUCCESS(v_qp_to(qp, IBV_QPS_RTS), "with a GRH");
	TEST_ASSERT_SUCCESS(v_destroy(MLX5_VERBS_OBJ_QP, qp), "");
	TEST_ASSERT_SUCCESS(v_destroy(MLX5_VERBS_OBJ_CQ, cq), "");
	TDEV_ASSERT_LIVE(0, live0, "");
	return TEST_SUCCESS;
}

static int
test_qp_states(void)
{
	uint32_t out[MLX5_ST_SZ_DW(query_qp_out)] = { 0 };
	uint32_t min[MLX5_ST_SZ_DW(qp_2err_in)] = { 0 };
	uint32_t mout[MLX5_ST_SZ_DW(qp_2err_out)] = { 0 };
	struct ibv_qp_attr a = { .qp_state = IBV_QPS_RTR };
	struct ibv_cq *cq;
	struct ibv_qp *qp;

	cq = mlx5_verbs_cq_create(cdev, 32, 0);
	TEST_ASSERT_NOT_NULL(cq, "CQ");
	qp = v_qp(cq);
	TEST_ASSERT_NOT_NULL(qp, "QP");
	TEST_ASSERT_EQUAL(qp->state, IBV_QPS_RESET, "");
	TDEV_ASSERT_LIVE(0, live0 + 2, "a CQ and a QP");
	TEST_ASSERT_SUCCESS(v_query_qp(qp, out), "");
	TEST_ASSERT_EQUAL(V_QPC(out, state), MLX5_QP_STATE_RST, "");
	TEST_ASSERT_EQUAL(V_QPC(out, pd), cdev->pdn, "the device's PD");
	TEST_ASSERT_EQUAL(V_QPC(out, cqn_snd), v_num(MLX5_VERBS_OBJ_CQ, cq),
			  "");
	/* Transitions IB forbids, or without their required attributes. */
	TEST_ASSERT_EQUAL(mlx5_verbs_qp_modify(cdev, qp, &a, IBV_QP_STATE),
			  -EINVAL, "RESET to RTR");
	a.qp_state = IBV_QPS_INIT;
	TEST_ASSERT_EQUAL(mlx5_verbs_qp_modify(cdev, qp, &a, IBV_QP_STATE),
			  -EINVAL, "RESET to INIT without port and access");
	a.port_num = 2;
	TEST_ASSERT_EQUAL(mlx5_verbs_qp_modify(cdev, qp, &a, IBV_QP_STATE |
		IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS),
		-EINVAL, "port 2 (a LAG is one port to verbs)");
	TEST_ASSERT_SUCCESS(v_qp_to(qp, IBV_QPS_INIT), "");
	TEST_ASSERT_EQUAL(qp->state, IBV_QPS_INIT, "");
	TEST_ASSERT_EQUAL(mlx5_verbs_qp_modify(cdev, qp, &a, IBV_QP_STATE),
			  -EOPNOTSUPP, "INIT to INIT");
	TEST_ASSERT_SUCCESS(v_query_qp(qp, out), "");
	TEST_ASSERT_EQUAL(V_QPC(out, state), MLX5_QP_STATE_INIT, "");
	TEST_ASSERT(V_QPC(out, rre) && V_QPC(out, rwe) && !V_QPC(out, rae),
		    "access flags");
	TEST_ASSERT_SUCCESS(v_qp_to(qp, IBV_QPS_RTS), "RTR, RTS");
	TEST_ASSERT_EQUAL(qp->state, IBV_QPS_RTS, "");
	TEST_ASSERT_SUCCESS(v_query_qp(qp, out), "");
	TEST_ASSERT_EQUAL(V_QPC(out, state), MLX5_QP_STATE_RTS, "");
	TEST_ASSERT_EQUAL(V_QPC(out, remote_qpn), qp->qp_num, "");
	TEST_ASSERT_EQUAL(V_QPC(out, retry_count), 7, "");
	/* A DEVX transition: the device moves, ibv_qp.state does not. */
	MLX5_SET(qp_2err_in, min, opcode, MLX5_CMD_OP_2ERR_QP);
	MLX5_SET(qp_2err_in, min, qpn, qp->qp_num);
	TEST_ASSERT_SUCCESS(MLX5_VERBS_DEVX_MODIFY(cdev, MLX5_VERBS_OBJ_QP, qp,
						   qp_2err, min, mout), "");
	TEST_ASSERT_SUCCESS(v_query_qp(qp, out), "");
	TEST_ASSERT_EQUAL(V_QPC(out, state), MLX5_QP_STATE_ERR, "");
	TEST_ASSERT_EQUAL(qp->state, IBV_QPS_RTS, "libibverbs' own copy");
	/* The mailbox must name this QP. */
	MLX5_SET(qp_2err_in, min, qpn, qp->qp_num + 1);
	TEST_ASSERT_EQUAL(MLX5_VERBS_DEVX_MODIFY(cdev, MLX5_VERBS_OBJ_QP, qp,
						 qp_2err, min, mout), -EINVAL,
			  "another QP's number");
	a.qp_state = IBV_QPS_RESET;
	TEST_ASSERT_SUCCESS(mlx5_verbs_qp_modify(cdev, qp, &a, IBV_QP_STATE),
			    "to RESET");
	TEST_ASSERT_SUCCESS(v_query_qp(qp, out), "");
	TEST_ASSERT_EQUAL(V_QPC(out, state), MLX5_QP_STATE_RST, "");
	/* The CQ cannot go while the QP uses it (the kernel's use count). */
	TEST_ASSERT_EQUAL(v_destroy(MLX5_VERBS_OBJ_CQ, cq), -EBUSY, "CQ in use");
	TEST_ASSERT_SUCCESS(v_destroy(MLX5_VERBS_OBJ_QP, qp), "");
	TEST_ASSERT_SUCCESS(v_destroy(MLX5_VERBS_OBJ_CQ, cq), "");
	TDEV_ASSERT_LIVE(0, live0, "everything destroyed");
	return TEST_SUCCESS;
}

static int
test_qp_pd_in_use(void)
{
	struct ibv_qp_init_attr_ex attr = {
		.cap = { .max_send_wr = 1 },
		.qp_type = IBV_QPT_RC,
		.comp_mask = IBV_QP_INIT_ATTR_PD,
	};
	struct ibv_cq *cq;
	struct ibv_qp *qp;

	attr.pd = cdev->glue->alloc_pd(cdev->ctx);
	TEST_ASSERT_NOT_NULL(attr.pd, "second PD");
	cq = mlx5_verbs_cq_create(cdev, 4, 0);
	TEST_ASSERT_NOT_NULL(cq, "CQ");
	attr.send_cq = attr.recv_cq = cq;
	/*
	 * A raw packet QP (its SQ's work queue) holds its PD too. Not on a
	 * real device: it needs CAP_NET_RAW there.
	 */
	if (!tdev_hw()) {
		attr.qp_type = IBV_QPT_RAW_PACKET;
		qp = mlx5_verbs_qp_create(cdev, &attr);
		TEST_ASSERT_NOT_NULL(qp, "raw packet QP on the second PD");
		TEST_ASSERT_EQUAL(cdev->glue->dealloc_pd(attr.pd), EBUSY,
				  "PD of a raw QP");
		TEST_ASSERT_SUCCESS(v_destroy(MLX5_VERBS_OBJ_QP, qp), "");
		attr.qp_type = IBV_QPT_RC;
	}
	qp = mlx5_verbs_qp_create(cdev, &attr);
	TEST_ASSERT_NOT_NULL(qp, "QP on the second PD");
	TEST_ASSERT_EQUAL(attr.cap.max_recv_wr, 0, "no receive queue");
	TEST_ASSERT_EQUAL(cdev->glue->dealloc_pd(attr.pd), EBUSY,
			  "PD of a QP");
	TEST_ASSERT_SUCCESS(v_destroy(MLX5_VERBS_OBJ_QP, qp), "");
	TEST_ASSERT_SUCCESS(cdev->glue->dealloc_pd(attr.pd), "");
	TEST_ASSERT_SUCCESS(v_destroy(MLX5_VERBS_OBJ_CQ, cq), "");
	TDEV_ASSERT_LIVE(0, live0, "everything destroyed");
	return TEST_SUCCESS;
}

static int
test_udp_sport(void)
{
	uint32_t out[MLX5_ST_SZ_DW(query_qp_out)] = { 0 };
	uint32_t min[MLX5_ST_SZ_DW(rst2init_qp_in)] = { 0 };
	uint32_t mout[MLX5_ST_SZ_DW(rst2init_qp_out)] = { 0 };
	static const uint16_t moves[] = {
		MLX5_CMD_OP_RST2INIT_QP, MLX5_CMD_OP_INIT2RTR_QP,
		MLX5_CMD_OP_RTR2RTS_QP,
	};
	struct ibv_cq *cq;
	struct ibv_qp *qp, *qp2;

	cq = mlx5_verbs_cq_create(cdev, 8, 0);
	TEST_ASSERT_NOT_NULL(cq, "CQ");
	qp = v_qp(cq);
	qp2 = v_qp(cq);
	TEST_ASSERT(qp != NULL && qp2 != NULL, "QPs");
	TEST_ASSERT_EQUAL(mlx5_verbs_qp_udp_sport_set(cdev, qp, 0xc001),
			  -EOPNOTSUPP, "in RESET");
	TEST_ASSERT_SUCCESS(v_qp_to(qp, IBV_QPS_RTS), "");
	TEST_ASSERT_SUCCESS(mlx5_verbs_qp_udp_sport_set(cdev, qp, 0xc001), "");
	TEST_ASSERT_SUCCESS(v_query_qp(qp, out), "");
	TEST_ASSERT_EQUAL(V_QPC(out, primary_address_path.udp_sport), 0xc001,
			  "kept and shown");
	TEST_ASSERT_EQUAL(V_QPC(out, state), MLX5_QP_STATE_RTS, "still RTS");
	TEST_ASSERT_SUCCESS(mlx5_verbs_qp_udp_sport_set(cdev, qp, 49999), "");
	TEST_ASSERT_SUCCESS(v_query_qp(qp, out), "");
	TEST_ASSERT_EQUAL(V_QPC(out, primary_address_path.udp_sport), 49999,
			  "");
	/*
	 * Moved to RTS by DEVX only: rdma-core checks the state libibverbs
	 * knows (RESET) and refuses. (A RoCE device would want a GID in
	 * INIT2RTR: the software device's path only.)
	 */
	if (tdev_hw())
		goto out;
	MLX5_SET(rst2init_qp_in, min, qpn, qp2->qp_num);
	MLX5_SET(rst2init_qp_in, min, qpc.primary_address_path.vhca_port_num,
		 1);
	for (unsigned int i = 0; i < RTE_DIM(moves); i++) {
		MLX5_SET(rst2init_qp_in, min, opcode, moves[i]);
		MLX5_SET(rst2init_qp_in, min, qpc.mtu, IBV_MTU_1024);
		MLX5_SET(rst2init_qp_in, min, qpc.remote_qpn, qp2->qp_num);
		TEST_ASSERT_SUCCESS(mlx5_verbs_devx_modify(cdev,
			MLX5_VERBS_OBJ_QP, qp2, "qp transition", min,
			sizeof(min), mout, sizeof(mout)), "%u", moves[i]);
	}
	TEST_ASSERT_SUCCESS(v_query_qp(qp2, out), "");
	TEST_ASSERT_EQUAL(V_QPC(out, state), MLX5_QP_STATE_RTS, "");
	TEST_ASSERT_EQUAL(mlx5_verbs_qp_udp_sport_set(cdev, qp2, 1),
			  -EOPNOTSUPP, "ibv_qp.state is RESET");
out:
	TEST_ASSERT_SUCCESS(v_destroy(MLX5_VERBS_OBJ_QP, qp2), "");
	TEST_ASSERT_SUCCESS(v_destroy(MLX5_VERBS_OBJ_QP, qp), "");
	TEST_ASSERT_SUCCESS(v_destroy(MLX5_VERBS_OBJ_CQ, cq), "");
	TDEV_ASSERT_LIVE(0, live0, "everything destroyed");
	return TEST_SUCCESS;
}

static int
test_lag_port(void)
{
	uint32_t out[MLX5_ST_SZ_DW(query_qp_out)] = { 0 };
	uint8_t port = 0, active = 0;
	struct ibv_qp *qp, *qp2;
	struct ibv_cq *cq;

	cq = mlx5_verbs_cq_create(cdev, 8, 0);
	TEST_ASSERT_NOT_NULL(cq, "CQ");
	qp = v_qp(cq);
	qp2 = v_qp(cq);
	TEST_ASSERT(qp != NULL && qp2 != NULL, "QPs");
	/* No lag port before INIT: the kernel assigns one there. */
	TEST_ASSERT_EQUAL(mlx5_verbs_qp_lag_port_get(cdev, qp, &port, &active),
			  -EOPNOTSUPP, "in RESET, or not a LAG");
	TEST_ASSERT_SUCCESS(v_qp_to(qp, IBV_QPS_INIT), "");
	if (mlx5_verbs_qp_lag_port_get(cdev, qp, &port, &active) == -EOPNOTSUPP) {
		TEST_ASSERT(tdev_hw(), "the software device has two ports");
		v_destroy(MLX5_VERBS_OBJ_QP, qp2);
		v_destroy(MLX5_VERBS_OBJ_QP, qp);
		v_destroy(MLX5_VERBS_OBJ_CQ, cq);
		TEST_SKIP("the device is not a LAG (num_lag_ports < 2)");
	}
	if (!tdev_hw()) {
		/* get_tx_affinity(): round robin per context, from port 2. */
		TEST_ASSERT_EQUAL(port, 2, "first QP of the context");
		TEST_ASSERT_EQUAL(active, 2, "both ports up");
	}
	TEST_ASSERT_SUCCESS(v_query_qp(qp, out), "");
	TEST_ASSERT_EQUAL(V_QPC(out, lag_tx_port_affinity), port,
			  "QUERY_QP agrees");
	TEST_ASSERT_EQUAL(mlx5_verbs_qp_lag_port_set(cdev, qp, 1),
			  -EOPNOTSUPP, "not in RTS");
	TEST_ASSERT_SUCCESS(v_qp_to(qp2, IBV_QPS_INIT), "");
	if (!tdev_hw()) {
		TEST_ASSERT_SUCCESS(mlx5_verbs_qp_lag_port_get(cdev, qp2,
				    &port, &active), "");
		TEST_ASSERT_EQUAL(port, 1, "second QP: the other port");
	}
	/* In RTS: chosen, queried, shown by QUERY_QP. */
	TEST_ASSERT_SUCCESS(v_qp_to(qp, IBV_QPS_RTS), "INIT to RTS");
	for (uint8_t p = 1; p <= 2; p++) {
		TEST_ASSERT_SUCCESS(mlx5_verbs_qp_lag_port_set(cdev, qp, p),
				    "port %u", p);
		TEST_ASSERT_SUCCESS(mlx5_verbs_qp_lag_port_get(cdev, qp, &port,
							       &active), "");
		TEST_ASSERT_EQUAL(port, p, "configured");
		TEST_ASSERT_EQUAL(active, p, "active");
		TEST_ASSERT_SUCCESS(v_query_qp(qp, out), "");
		TEST_ASSERT_EQUAL(V_QPC(out, lag_tx_port_affinity), p, "");
	}
	TEST_ASSERT_EQUAL(mlx5_verbs_qp_lag_port_set(cdev, qp, 0), -EINVAL,
			  "port 0");
	TEST_ASSERT_EQUAL(mlx5_verbs_qp_lag_port_set(cdev, qp, 3), -EINVAL,
			  "port 3 of two");
	TEST_ASSERT_SUCCESS(mlx5_verbs_qp_lag_port_get(cdev, qp, &port,
						       &active), "");
	TEST_ASSERT_EQUAL(port, 2, "unchanged by the refusals");
	TEST_ASSERT_SUCCESS(v_destroy(MLX5_VERBS_OBJ_QP, qp2), "");
	TEST_ASSERT_SUCCESS(v_destroy(MLX5_VERBS_OBJ_QP, qp), "");
	TEST_ASSERT_SUCCESS(v_destroy(MLX5_VERBS_OBJ_CQ, cq), "");
	TDEV_ASSERT_LIVE(0, live0, "everything destroyed");
	return TEST_SUCCESS;
}

static int
test_lag_single_port(void)
{
	struct mlx5_common_device *one;
	uint8_t port, active;
	struct ibv_cq *cq;
	struct ibv_qp *qp;

	TDEV_SIM_ONLY("a one-port vHCA");
	TEST_ASSERT_SUCCESS(tdev_probe(1, "card=63,vhca_id=1"), "");
	one = tdev_cdev(1);
	TEST_ASSERT_NOT_NULL(one, "");
	cq = one->glue->create_cq(one->ctx, 4, NULL, NULL, 0);
	TEST_ASSERT_NOT_NULL(cq, "CQ");
	{
		struct ibv_qp_init_attr_ex attr = {
			.send_cq = cq, .recv_cq = cq, .qp_type = IBV_QPT_RC,
			.cap = { .max_send_wr = 1 },
			.comp_mask = IBV_QP_INIT_ATTR_PD, .pd = one->pd,
		};
		struct ibv_qp_attr a = { .qp_state = IBV_QPS_INIT,
					 .port_num = 1 };

		qp = one->glue->create_qp_ex(one->ctx, &attr);
		TEST_ASSERT_NOT_NULL(qp, "QP");
		TEST_ASSERT_SUCCESS(one->glue->modify_qp(qp, &a, IBV_QP_STATE |
			IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS),
			"");
	}
	TEST_ASSERT_EQUAL(one->glue->dv_query_qp_lag_port(qp, &port, &active),
			  EOPNOTSUPP, "one port: no LAG");
	TEST_ASSERT_EQUAL(one->glue->dv_modify_qp_lag_port(qp, 1), EOPNOTSUPP,
			  "");
	TEST_ASSERT_SUCCESS(one->glue->destroy_qp(qp), "");
	TEST_ASSERT_SUCCESS(one->glue->destroy_cq(cq), "");
	return TEST_SUCCESS;
}

static int
test_srq(void)
{
	uint32_t qin[MLX5_ST_SZ_DW(query_rmp_in)] = { 0 };
	uint32_t qout[MLX5_ST_SZ_DW(query_rmp_out)] = { 0 };
	uint32_t min[MLX5_ST_SZ_DW(modify_rmp_in)] = { 0 };
	uint32_t mout[MLX5_ST_SZ_DW(modify_rmp_out)] = { 0 };
	struct ibv_srq_init_attr attr = {
		.attr = { .max_wr = 100, .max_sge = 2 },
	};
	void *rmpc = MLX5_ADDR_OF(modify_rmp_in, min, ctx);
	struct ibv_srq *srq;
	uint32_t srqn;

	srq = mlx5_verbs_srq_create(cdev, &attr);
	TEST_ASSERT_NOT_NULL(srq, "SRQ");
	TEST_ASSERT(attr.attr.max_wr >= 100 && attr.attr.max_sge >= 2,
		    "at least what was asked: %u, %u", attr.attr.max_wr,
		    attr.attr.max_sge);
	TDEV_ASSERT_LIVE(0, live0 + 1, "one SRQ");
	srqn = v_num(MLX5_VERBS_OBJ_SRQ, srq);
	TEST_ASSERT(srqn != UINT32_MAX, "srqn");
	/* A verbs SRQ is an RMP (ISSI 1). */
	MLX5_SET(query_rmp_in, qin, opcode, MLX5_CMD_OP_QUERY_RMP);
	MLX5_SET(query_rmp_in, qin, rmpn, srqn);
	TEST_ASSERT_SUCCESS(MLX5_VERBS_DEVX_QUERY(cdev, MLX5_VERBS_OBJ_SRQ,
						  srq, query_rmp, qin, qout),
			    "");
	TEST_ASSERT_EQUAL(MLX5_GET(query_rmp_out, qout, rmp_context.state),
			  MLX5_RMPC_STATE_RDY, "");
	TEST_ASSERT_EQUAL(MLX5_GET(query_rmp_out, qout, rmp_context.wq.lwm), 0,
			  "");
	if (!tdev_hw())
		TEST_ASSERT_EQUAL(1u << MLX5_GET(query_rmp_out, qout,
			rmp_context.wq.log_wq_sz), attr.attr.max_wr + 1, "");
	/* The limit: ibv_modify_srq(), then MODIFY_RMP itself. */
	TEST_ASSERT_SUCCESS(mlx5_verbs_srq_limit_set(cdev, srq, 10), "");
	TEST_ASSERT_SUCCESS(MLX5_VERBS_DEVX_QUERY(cdev, MLX5_VERBS_OBJ_SRQ,
						  srq, query_rmp, qin, qout),
			    "");
	TEST_ASSERT_EQUAL(MLX5_GET(query_rmp_out, qout, rmp_context.wq.lwm),
			  10, "");
	TEST_ASSERT_EQUAL(mlx5_verbs_srq_limit_set(cdev, srq,
						   attr.attr.max_wr + 1),
			  -EINVAL, "a limit of the whole SRQ");
	MLX5_SET(modify_rmp_in, min, opcode, MLX5_CMD_OP_MODIFY_RMP);
	MLX5_SET(modify_rmp_in, min, rmpn, srqn);
	MLX5_SET(modify_rmp_in, min, rmp_state, MLX5_RMPC_STATE_RDY);
	MLX5_SET(modify_rmp_in, min, bitmask.lwm, 1);
	MLX5_SET(rmpc, rmpc, state, MLX5_RMPC_STATE_RDY);
	MLX5_SET(wq, MLX5_ADDR_OF(rmpc, rmpc, wq), lwm, 20);
	TEST_ASSERT_SUCCESS(MLX5_VERBS_DEVX_MODIFY(cdev, MLX5_VERBS_OBJ_SRQ,
						   srq, modify_rmp, min, mout),
			    "");
	TEST_ASSERT_SUCCESS(MLX5_VERBS_DEVX_QUERY(cdev, MLX5_VERBS_OBJ_SRQ,
						  srq, query_rmp, qin, qout),
			    "");
	TEST_ASSERT_EQUAL(MLX5_GET(query_rmp_out, qout, rmp_context.wq.lwm),
			  20, "");
	MLX5_SET(modify_rmp_in, min, rmpn, srqn + 1);
	TEST_ASSERT_EQUAL(MLX5_VERBS_DEVX_MODIFY(cdev, MLX5_VERBS_OBJ_SRQ, srq,
						 modify_rmp, min, mout),
			  -EINVAL, "another RMP's number");
	/* QUERY_SRQ names a pre-ISSI-1 SRQ: not this object. */
	MLX5_SET(query_rmp_in, qin, opcode, 0x702);
	TEST_ASSERT_EQUAL(MLX5_VERBS_DEVX_QUERY(cdev, MLX5_VERBS_OBJ_SRQ, srq,
						query_rmp, qin, qout),
			  -EINVAL, "QUERY_SRQ");
	TEST_ASSERT_SUCCESS(v_destroy(MLX5_VERBS_OBJ_SRQ, srq), "");
	TDEV_ASSERT_LIVE(0, live0, "everything destroyed");
	return TEST_SUCCESS;
}

/* QUERY_RMP of the verbs SRQ @srq, RMP @srqn, into @qout. */
static int
v_rmp_query(struct ibv_srq *srq, uint32_t srqn, uint32_t *qout)
{
	uint32_t qin[MLX5_ST_SZ_DW(query_rmp_in)] = { 0 };

	MLX5_SET(query_rmp_in, qin, opcode, MLX5_CMD_OP_QUERY_RMP);
	MLX5_SET(query_rmp_in, qin, rmpn, srqn);
	return MLX5_VERBS_DEVX_QUERY(cdev, MLX5_VERBS_OBJ_SRQ, srq, query_rmp,
				     qin, qout);
}

/*
 * MODIFY_RMP is the kernel's arm_rmp_cmd(): RDY to RDY, the limit (lwm)
 * only where its bitmask bit is set. Each rule broken once: the current
 * state named wrong, another target state, a bitmask bit it does not
 * have; each is refused with its status (BAD_RES_STATE, BAD_PARAM), the
 * limit unchanged. QUERY_RMP reports the PD and the stride.
 */
static int
test_srq_modify_rules(void)
{
	uint32_t qout[MLX5_ST_SZ_DW(query_rmp_out)] = { 0 };
	uint32_t min[MLX5_ST_SZ_DW(modify_rmp_in)] = { 0 };
	uint32_t mout[MLX5_ST_SZ_DW(modify_rmp_out)] = { 0 };
	struct ibv_srq_init_attr attr = {
		.attr = { .max_wr = 64, .max_sge = 1 },
	};
	void *rmpc = MLX5_ADDR_OF(modify_rmp_in, min, ctx);
	struct ibv_srq *srq;
	uint32_t srqn;

	srq = mlx5_verbs_srq_create(cdev, &attr);
	TEST_ASSERT_NOT_NULL(srq, "SRQ");
	srqn = v_num(MLX5_VERBS_OBJ_SRQ, srq);
	TEST_ASSERT_SUCCESS(v_rmp_query(srq, srqn, qout), "");
	/* A query needs room for the whole answer. */
	{
		uint32_t qin[MLX5_ST_SZ_DW(query_rmp_in)] = { 0 };
		uint8_t small[1024] = { 0 };

		MLX5_SET(query_rmp_in, qin, opcode, MLX5_CMD_OP_QUERY_RMP);
		MLX5_SET(query_rmp_in, qin, rmpn, srqn);
		TEST_ASSERT(mlx5_verbs_devx_query(cdev, MLX5_VERBS_OBJ_SRQ,
			    srq, "QUERY_RMP", qin, sizeof(qin), small,
			    MLX5_ST_SZ_BYTES(mbox_out)) != 0,
			    "QUERY_RMP into 16 bytes");
		if (!tdev_hw())
			TEST_ASSERT_EQUAL(MLX5_GET(mbox_out, small, status),
					  MLX5_CMD_STAT_BAD_OUTP_LEN_ERR, "");
	}
	TEST_ASSERT_EQUAL(MLX5_GET(query_rmp_out, qout, rmp_context.wq.pd),
			  cdev->pdn, "the SRQ's PD");
	TEST_ASSERT(MLX5_GET(query_rmp_out, qout,
			     rmp_context.wq.log_wq_stride) >= 4,
		    "a stride of at least one data segment and the next");
	MLX5_SET(modify_rmp_in, min, opcode, MLX5_CMD_OP_MODIFY_RMP);
	MLX5_SET(modify_rmp_in, min, rmpn, srqn);
	MLX5_SET(modify_rmp_in, min, rmp_state, MLX5_RMPC_STATE_RDY);
	MLX5_SET(rmpc, rmpc, state, MLX5_RMPC_STATE_RDY);
	MLX5_SET(wq, MLX5_ADDR_OF(rmpc, rmpc, wq), lwm, 7);
	/* Without the bitmask bit the limit stays. */
	TEST_ASSERT_SUCCESS(MLX5_VERBS_DEVX_MODIFY(cdev, MLX5_VERBS_OBJ_SRQ,
						   srq, modify_rmp, min, mout),
			    "RDY to RDY, nothing selected");
	TEST_ASSERT_SUCCESS(v_rmp_query(srq, srqn, qout), "");
	TEST_ASSERT_EQUAL(MLX5_GET(query_rmp_out, qout, rmp_context.wq.lwm),
			  0, "lwm not selected: unchanged");
	MLX5_SET(modify_rmp_in, min, bitmask.lwm, 1);
#define V_RMP_REFUSED(st, what) do { \
	TEST_ASSERT(MLX5_VERBS_DEVX_MODIFY(cdev, MLX5_VERBS_OBJ_SRQ, srq, \
					   modify_rmp, min, mout) != 0, \
		    "%s: refused", what); \
	if (!tdev_hw()) \
		TEST_ASSERT_EQUAL(MLX5_GET(modify_rmp_out, mout, status), \
				  MLX5_CMD_STAT_ ## st, "%s", what); \
} while (0)
	MLX5_SET(modify_rmp_in, min, rmp_state, MLX5_RMPC_STATE_ERR);
	V_RMP_REFUSED(BAD_RES_STATE_ERR, "current state named ERR");
	MLX5_SET(modify_rmp_in, min, rmp_state, MLX5_RMPC_STATE_RDY);
	MLX5_SET(rmpc, rmpc, state, MLX5_RMPC_STATE_ERR);
	V_RMP_REFUSED(BAD_PARAM_ERR, "RDY to ERR");
	MLX5_SET(rmpc, rmpc, state, MLX5_RMPC_STATE_RDY);
	MLX5_SET(modify_rmp_in, min, bitmask.reserved_at_20, 1);
	V_RMP_REFUSED(BAD_PARAM_ERR, "a bitmask bit other than lwm");
	MLX5_SET(modify_rmp_in, min, bitmask.reserved_at_20, 0);
#undef V_RMP_REFUSED
	TEST_ASSERT_SUCCESS(v_rmp_query(srq, srqn, qout), "");
	TEST_ASSERT_EQUAL(MLX5_GET(query_rmp_out, qout, rmp_context.wq.lwm),
			  0, "the refusals changed nothing");
	TEST_ASSERT_SUCCESS(MLX5_VERBS_DEVX_MODIFY(cdev, MLX5_VERBS_OBJ_SRQ,
						   srq, modify_rmp, min, mout),
			    "the same, well formed");
	TEST_ASSERT_SUCCESS(v_rmp_query(srq, srqn, qout), "");
	TEST_ASSERT_EQUAL(MLX5_GET(query_rmp_out, qout, rmp_context.wq.lwm),
			  7, "");
	TEST_ASSERT_SUCCESS(v_destroy(MLX5_VERBS_OBJ_SRQ, srq), "");
	TDEV_ASSERT_LIVE(0, live0, "everything destroyed");
	return TEST_SUCCESS;
}

#define V_WQS 4

static int
test_wq_ind_tbl(void)
{
	uint32_t rin[MLX5_ST_SZ_DW(query_rq_in)] = { 0 };
	uint32_t rout[MLX5_ST_SZ_DW(query_rq_out)] = { 0 };
	uint32_t min[MLX5_ST_SZ_DW(modify_rq_in)] = { 0 };
	uint32_t mout[MLX5_ST_SZ_DW(modify_rq_out)] = { 0 };
	uint32_t tin[MLX5_ST_SZ_DW(query_rqt_in)] = { 0 };
	uint32_t tout[MLX5_ST_SZ_DW(query_rqt_out) + V_WQS] = { 0 };
	uint32_t tmin[MLX5_ST_SZ_DW(modify_rqt_in) + V_WQS] = { 0 };
	uint32_t tmout[MLX5_ST_SZ_DW(modify_rqt_out)] = { 0 };
	void *rqtc = MLX5_ADDR_OF(query_rqt_out, tout, rqt_context);
	void *mrqtc = MLX5_ADDR_OF(modify_rqt_in, tmin, ctx);
	uint8_t *entries = (uint8_t *)rqtc + MLX5_ST_SZ_BYTES(rqtc);
	uint8_t *mentries = (uint8_t *)mrqtc + MLX5_ST_SZ_BYTES(rqtc);
	struct ibv_wq *wqs[V_WQS];
	struct ibv_rwq_ind_table *tbl;
	struct ibv_cq *cq;

	cq = mlx5_verbs_cq_create(cdev, 64, 0);
	TEST_ASSERT_NOT_NULL(cq, "CQ");
	for (int i = 0; i < V_WQS; i++) {
		struct ibv_wq_init_attr attr = {
			.wq_type = IBV_WQT_RQ, .max_wr = 64, .max_sge = 1,
			.cq = cq,
		};

		wqs[i] = mlx5_verbs_wq_create(cdev, &attr);
		TEST_ASSERT_NOT_NULL(wqs[i], "WQ %d", i);
		TEST_ASSERT_EQUAL(wqs[i]->state, IBV_WQS_RESET, "");
	}
	tbl = mlx5_verbs_ind_tbl_create(cdev, wqs, 2);
	TEST_ASSERT_NOT_NULL(tbl, "table");
	TDEV_ASSERT_LIVE(0, live0 + 2 + V_WQS, "CQ, WQs, table");
	/* The WQ is an RQ: queried, then moved to RDY. */
	MLX5_SET(query_rq_in, rin, opcode, MLX5_CMD_OP_QUERY_RQ);
	MLX5_SET(query_rq_in, rin, rqn, wqs[0]->wq_num);
	TEST_ASSERT_SUCCESS(MLX5_VERBS_DEVX_QUERY(cdev, MLX5_VERBS_OBJ_WQ,
						  wqs[0], query_rq, rin, rout),
			    "");
	TEST_ASSERT_EQUAL(MLX5_GET(query_rq_out, rout, rq_context.state),
			  MLX5_WQ_STATE_RST, "");
	TEST_ASSERT_EQUAL(MLX5_GET(query_rq_out, rout, rq_context.cqn),
			  v_num(MLX5_VERBS_OBJ_CQ, cq), "");
	MLX5_SET(modify_rq_in, min, opcode, MLX5_CMD_OP_MODIFY_RQ);
	MLX5_SET(modify_rq_in, min, rqn, wqs[0]->wq_num);
	MLX5_SET(modify_rq_in, min, rq_state, MLX5_WQ_STATE_RST);
	MLX5_SET(modify_rq_in, min, ctx.state, MLX5_WQ_STATE_RDY);
	TEST_ASSERT_SUCCESS(MLX5_VERBS_DEVX_MODIFY(cdev, MLX5_VERBS_OBJ_WQ,
						   wqs[0], modify_rq, min,
						   mout), "");
	TEST_ASSERT_SUCCESS(MLX5_VERBS_DEVX_QUERY(cdev, MLX5_VERBS_OBJ_WQ,
						  wqs[0], query_rq, rin, rout),
			    "");
	TEST_ASSERT_EQUAL(MLX5_GET(query_rq_out, rout, rq_context.state),
			  MLX5_WQ_STATE_RDY, "");
	/* Another WQ's number through this WQ. */
	MLX5_SET(query_rq_in, rin, rqn, wqs[1]->wq_num);
	TEST_ASSERT_EQUAL(MLX5_VERBS_DEVX_QUERY(cdev, MLX5_VERBS_OBJ_WQ,
						wqs[0], query_rq, rin, rout),
			  -EINVAL, "another WQ's number");
	/* The table is an RQT: its list, then a new order. */
	MLX5_SET(query_rqt_in, tin, opcode, MLX5_CMD_OP_QUERY_RQT);
	MLX5_SET(query_rqt_in, tin, rqtn, tbl->ind_tbl_num);
	TEST_ASSERT_SUCCESS(mlx5_verbs_devx_query(cdev, MLX5_VERBS_OBJ_IND_TBL,
		tbl, "query_rqt", tin, sizeof(tin), tout, sizeof(tout)), "");
	TEST_ASSERT_EQUAL(MLX5_GET(rqtc, rqtc, rqt_actual_size), V_WQS, "");
	for (int i = 0; i < V_WQS; i++)
		TEST_ASSERT_EQUAL(MLX5_GET(rq_num, entries + 4 * i, rq_num),
				  wqs[i]->wq_num, "entry %d", i);
	MLX5_SET(modify_rqt_in, tmin, opcode, MLX5_CMD_OP_MODIFY_RQT);
	MLX5_SET(modify_rqt_in, tmin, rqtn, tbl->ind_tbl_num);
	MLX5_SET64(modify_rqt_in, tmin, bitmask,
		   MLX5_MODIFY_RQT_BITMASK_RQN_LIST);
	MLX5_SET(rqtc, mrqtc, rqt_actual_size, V_WQS);
	for (int i = 0; i < V_WQS; i++)
		MLX5_SET(rq_num, mentries + 4 * i, rq_num,
			 wqs[V_WQS - 1 - i]->wq_num);
	TEST_ASSERT_SUCCESS(mlx5_verbs_devx_modify(cdev, MLX5_VERBS_OBJ_IND_TBL,
		tbl, "modify_rqt", tmin, sizeof(tmin), tmout, sizeof(tmout)),
		"");
	TEST_ASSERT_SUCCESS(mlx5_verbs_devx_query(cdev, MLX5_VERBS_OBJ_IND_TBL,
		tbl, "query_rqt", tin, sizeof(tin), tout, sizeof(tout)), "");
	for (int i = 0; i < V_WQS; i++)
		TEST_ASSERT_EQUAL(MLX5_GET(rq_num, entries + 4 * i, rq_num),
				  wqs[V_WQS - 1 - i]->wq_num, "entry %d", i);
	MLX5_SET(query_rqt_in, tin, rqtn, tbl->ind_tbl_num + 1);
	TEST_ASSERT_EQUAL(mlx5_verbs_devx_query(cdev, MLX5_VERBS_OBJ_IND_TBL,
		tbl, "query_rqt", tin, sizeof(tin), tout, sizeof(tout)),
		-EINVAL, "another table's number");
	/* Destroy order: the table, then its WQs, then their CQ. */
	TEST_ASSERT_EQUAL(v_destroy(MLX5_VERBS_OBJ_WQ, wqs[2]), -EBUSY,
			  "WQ of a table");
	TEST_ASSERT_EQUAL(v_destroy(MLX5_VERBS_OBJ_CQ, cq), -EBUSY,
			  "CQ of WQs");
	TEST_ASSERT_SUCCESS(v_destroy(MLX5_VERBS_OBJ_IND_TBL, tbl), "");
	for (int i = 0; i < V_WQS; i++)
		TEST_ASSERT_SUCCESS(v_destroy(MLX5_VERBS_OBJ_WQ, wqs[i]), "");
	TEST_ASSERT_SUCCESS(v_destroy(MLX5_VERBS_OBJ_CQ, cq), "");
	TDEV_ASSERT_LIVE(0, live0, "everything destroyed");
	return TEST_SUCCESS;
}

/* One of each object, used through the new commands, then destroyed. */
struct v_all {
	struct ibv_cq *cq;
	struct ibv_qp *qp;
	struct ibv_srq *srq;
	struct ibv_wq *wq;
	struct ibv_rwq_ind_table *tbl;
};

static void
v_all_put(struct v_all *o)
{
	/* A destroy refused by an injected fault is tried once more. */
	for (int pass = 0; pass < 2; pass++) {
		if (v_destroy(MLX5_VERBS_OBJ_QP, o->qp) == 0)
			o->qp = NULL;
		if (v_destroy(MLX5_VERBS_OBJ_IND_TBL, o->tbl) == 0)
			o->tbl = NULL;
		if (v_destroy(MLX5_VERBS_OBJ_WQ, o->wq) == 0)
			o->wq = NULL;
		if (v_destroy(MLX5_VERBS_OBJ_SRQ, o->srq) == 0)
			o->srq = NULL;
		if (o->qp == NULL && o->wq == NULL &&
		    v_destroy(MLX5_VERBS_OBJ_CQ, o->cq) == 0)
			o->cq = NULL;
	}
}

/* Build everything and use each command once: 0 or the first errno. */
static int
v_all_get(struct v_all *o)
{
	struct ibv_srq_init_attr sattr = { .attr = { .max_wr = 8 } };
	struct ibv_wq_init_attr wattr = {
		.wq_type = IBV_WQT_RQ, .max_wr = 8, .max_sge = 1,
	};
	uint32_t in[MLX5_ST_SZ_DW(modify_cq_in)] = { 0 };
	/* Room for QUERY_RMP, or QUERY_RQT and its one entry. */
	uint32_t out[MLX5_ST_SZ_DW(query_rmp_out) + 1] = { 0 };
	uint8_t port, active;
	int ret;

	memset(o, 0, sizeof(*o));
	o->cq = mlx5_verbs_cq_create(cdev, 8, 0);
	if (o->cq == NULL)
		return -rte_errno;
	MLX5_SET(modify_cq_in, in, opcode, MLX5_CMD_OP_MODIFY_CQ);
	MLX5_SET(modify_cq_in, in, cqn, v_num(MLX5_VERBS_OBJ_CQ, o->cq));
	ret = MLX5_VERBS_DEVX_MODIFY(cdev, MLX5_VERBS_OBJ_CQ, o->cq,
				     modify_cq, in, out);
	if (ret != 0)
		return ret;
	o->qp = v_qp(o->cq);
	if (o->qp == NULL)
		return -rte_errno;
	ret = v_qp_to(o->qp, IBV_QPS_RTS);
	if (ret == 0)
		ret = mlx5_verbs_qp_udp_sport_set(cdev, o->qp, 0xd000);
	if (ret == 0)
		ret = mlx5_verbs_qp_lag_port_get(cdev, o->qp, &port, &active);
	if (ret == 0)
		ret = mlx5_verbs_qp_lag_port_set(cdev, o->qp, 1);
	if (ret != 0)
		return ret;
	o->srq = mlx5_verbs_srq_create(cdev, &sattr);
	if (o->srq == NULL)
		return -rte_errno;
	ret = mlx5_verbs_srq_limit_set(cdev, o->srq, 2);
	if (ret != 0)
		return ret;
	memset(in, 0, sizeof(in));
	MLX5_SET(query_rmp_in, in, opcode, MLX5_CMD_OP_QUERY_RMP);
	MLX5_SET(query_rmp_in, in, rmpn, v_num(MLX5_VERBS_OBJ_SRQ, o->srq));
	ret = MLX5_VERBS_DEVX_QUERY(cdev, MLX5_VERBS_OBJ_SRQ, o->srq,
				    query_rmp, in, out);
	if (ret != 0)
		return ret;
	wattr.cq = o->cq;
	o->wq = mlx5_verbs_wq_create(cdev, &wattr);
	if (o->wq == NULL)
		return -rte_errno;
	o->tbl = mlx5_verbs_ind_tbl_create(cdev, &o->wq, 0);
	if (o->tbl == NULL)
		return -rte_errno;
	memset(in, 0, sizeof(in));
	MLX5_SET(query_rqt_in, in, opcode, MLX5_CMD_OP_QUERY_RQT);
	MLX5_SET(query_rqt_in, in, rqtn, o->tbl->ind_tbl_num);
	return mlx5_verbs_devx_query(cdev, MLX5_VERBS_OBJ_IND_TBL, o->tbl,
		"query_rqt", in, MLX5_ST_SZ_BYTES(query_rqt_in), out,
		sizeof(out));
}

static bool
v_is_destroy(uint16_t opcode)
{
	return opcode == MLX5_CMD_OP_DESTROY_QP ||
	       opcode == MLX5_CMD_OP_DESTROY_RQT ||
	       opcode == MLX5_CMD_OP_DESTROY_RQ ||
	       opcode == MLX5_CMD_OP_DESTROY_RMP ||
	       opcode == MLX5_CMD_OP_DESTROY_CQ;
}

static int
test_fault_sweep(void)
{
	static const uint16_t ops[] = {
		MLX5_CMD_OP_CREATE_CQ, MLX5_CMD_OP_MODIFY_CQ,
		MLX5_CMD_OP_CREATE_QP, MLX5_CMD_OP_RST2INIT_QP,
		MLX5_CMD_OP_INIT2RTR_QP, MLX5_CMD_OP_RTR2RTS_QP,
		MLX5_CMD_OP_RTS2RTS_QP, MLX5_CMD_OP_QUERY_LAG,
		MLX5_CMD_OP_QUERY_QP, MLX5_CMD_OP_CREATE_RMP,
		MLX5_CMD_OP_MODIFY_RMP, MLX5_CMD_OP_QUERY_RMP,
		MLX5_CMD_OP_CREATE_RQ, MLX5_CMD_OP_CREATE_RQT,
		MLX5_CMD_OP_QUERY_RQT, MLX5_CMD_OP_DESTROY_QP,
		MLX5_CMD_OP_DESTROY_RQT, MLX5_CMD_OP_DESTROY_RQ,
		MLX5_CMD_OP_DESTROY_RMP, MLX5_CMD_OP_DESTROY_CQ,
	};
	struct v_all o;
	int ret;

	TDEV_SIM_ONLY("fault injection");
	TEST_ASSERT_SUCCESS(v_all_get(&o), "without faults");
	v_all_put(&o);
	TDEV_ASSERT_LIVE(0, live0, "");
	for (unsigned int i = 0; i < RTE_DIM(ops); i++) {
		const char *name = mlx5_cmd_opcode_name(ops[i]);

		TEST_ASSERT_SUCCESS(mlx5_sim_fault_set(V_CARD, 0, ops[i], 1,
				MLX5_CMD_STAT_NO_RES_ERR), "");
		ret = v_all_get(&o);
		v_all_put(&o);
		/* A refused destroy leaves the object: destroyed again. */
		if (!v_is_destroy(ops[i]))
			TEST_ASSERT_EQUAL(ret, -EAGAIN, "%s failing (0x%x)",
					  name, ops[i]);
		else
			TEST_ASSERT_SUCCESS(ret, "");
		TEST_ASSERT(o.cq == NULL && o.qp == NULL && o.srq == NULL &&
			    o.wq == NULL && o.tbl == NULL,
			    "every object destroyed after %s", name);
		TDEV_ASSERT_LIVE(0, live0, "nothing left after %s", name);
		mlx5_sim_fault_clear(V_CARD, 0);
	}
	return TEST_SUCCESS;
}

static int
test_reclaim_at_remove(void)
{
	struct mlx5_sim_stats st;
	uint16_t card, vhca;
	uint64_t reclaimed;
	struct v_all o;

	TDEV_SIM_ONLY("the device's reclaim count");
	TEST_ASSERT_SUCCESS(mlx5_sim_vhca_id_of_ctx(cdev->ctx, &card, &vhca),
			    "");
	TEST_ASSERT_SUCCESS(v_all_get(&o), "");
	TEST_ASSERT_SUCCESS(mlx5_sim_vhca_stats(card, vhca, &st), "");
	TEST_ASSERT(st.cqs == 1 && st.qps == 1 && st.srqs == 1 &&
		    st.rqs == 1 && st.rqts == 1, "counted as their kinds");
	reclaimed = st.reclaimed;
	/* Left behind on purpose: closing the context frees them all. */
	TEST_ASSERT_SUCCESS(tdev_remove(0), "");
	TEST_ASSERT_SUCCESS(mlx5_sim_vhca_stats(card, vhca, &st), "");
	TEST_ASSERT_EQUAL(st.live_objects + st.contexts, 0, "all freed");
	/*
	 * Five objects, and the device's PD: verbs objects hold it (the
	 * kernel's use count), so the removal's DEALLOC_PD was refused.
	 */
	TEST_ASSERT_EQUAL(st.reclaimed - reclaimed, 6, "five objects, a PD");
	return TEST_SUCCESS;
}

/*
 * What query_device_ex reports of a two-port function: the numbers
 * rdma-core's tests (test_device's verify_device_attr) and every verbs
 * program size themselves by, as mlx5_ib reports them (none may be 0).
 */
static int
test_device_attr(void)
{
	struct ibv_device_attr_ex attr;
	struct ibv_device_attr *a = &attr.orig_attr;
	uint32_t eqn;
	int nvec;

	TEST_ASSERT_SUCCESS(cdev->glue->query_device_ex(cdev->ctx, NULL, &attr),
			    "");
	TEST_ASSERT(a->phys_port_cnt >= 1, "ports");
	TEST_ASSERT_EQUAL(attr.phys_port_cnt_ex, a->phys_port_cnt, "ports");
	TEST_ASSERT(a->node_guid != 0 && a->sys_image_guid != 0, "GUIDs");
	TEST_ASSERT_EQUAL(a->vendor_id, 0x02c9, "Mellanox");
	TEST_ASSERT(a->vendor_part_id != 0, "the PCI device id");
	TEST_ASSERT(a->max_qp > 0 && a->max_qp_wr > 0 && a->max_sge > 0,
		    "QP limits");
	TEST_ASSERT(a->max_cq > 0 && a->max_cqe > 0, "CQ limits");
	TEST_ASSERT(a->max_mr > 0 && a->max_pd > 0 && a->max_pkeys > 0,
		    "MR, PD and P_Key limits");
	/*
	 * The context's completion vectors are the function's completion
	 * EQs: the last one has an EQ, the one past it none.
	 */
	nvec = cdev->ctx->num_comp_vectors;
	TEST_ASSERT(nvec >= 1, "completion vectors");
	TEST_ASSERT_SUCCESS(cdev->glue->devx_query_eqn(cdev->ctx, nvec - 1,
						       &eqn), "last vector");
	TEST_ASSERT(cdev->glue->devx_query_eqn(cdev->ctx, nvec, &eqn) != 0,
		    "no vector %d", nvec);
	if (!tdev_hw()) {
		TEST_ASSERT_EQUAL(a->phys_port_cnt, 2, "ports=2");
		TEST_ASSERT_EQUAL(a->vendor_part_id, 0x101d,
				  "ConnectX-6 Dx unless device_id says");
		TEST_ASSERT_EQUAL(a->max_mr, (1 << 20) - 1,
				  "2^20 mkeys unless log_max_mkey says");
		TEST_ASSERT_EQUAL(attr.max_dm_size, 128 * 1024,
				  "a ConnectX-6 Dx's device memory");
		TEST_ASSERT(tdev_probe(1, "card=62,dm_size=16777217") != 0,
			    "dm_size: 16 MiB at most");
		TEST_ASSERT(tdev_probe(1, "card=62,log_max_mkey=15") != 0 &&
				    tdev_probe(1, "card=62,log_max_mkey=25") != 0,
			    "log_max_mkey: 16..24");
		TEST_ASSERT_SUCCESS(tdev_probe(1, "card=62,device_id=0xa2d6,"
						  "dm_size=0,log_max_mkey=17"),
				    "a BlueField-2 without device memory");
		TEST_ASSERT_SUCCESS(tdev_cdev(1)->glue->query_device_ex(
			tdev_cdev(1)->ctx, NULL, &attr), "");
		TEST_ASSERT_EQUAL(a->vendor_part_id, 0xa2d6, "device_id");
		TEST_ASSERT_EQUAL(a->phys_port_cnt, 1, "one port by default");
		TEST_ASSERT_EQUAL(attr.max_dm_size, 0, "dm_size=0");
		TEST_ASSERT_EQUAL(a->max_mr, (1 << 17) - 1, "log_max_mkey=17");
	}
	return TEST_SUCCESS;
}

static const struct mlx5_test_case v_cases[] = {
	{ "device_attr", test_device_attr },
	{ "cq", test_cq },
	{ "qp_states", test_qp_states },
	{ "qp_create_flags_grh", test_qp_create_flags_grh },
	{ "qp_pd_in_use", test_qp_pd_in_use },
	{ "udp_sport", test_udp_sport },
	{ "lag_port", test_lag_port },
	{ "lag_single_port", test_lag_single_port },
	{ "srq", test_srq },
	{ "srq_modify_rules", test_srq_modify_rules },
	{ "wq_ind_tbl", test_wq_ind_tbl },
	{ "fault_sweep", test_fault_sweep },
	{ "reclaim_at_remove", test_reclaim_at_remove },
	{ NULL, NULL },
};

static const struct mlx5_test_suite v_suite = {
	.name = "verbs_obj",
	.case_setup = v_case_setup,
	.case_teardown = v_case_teardown,
	.cases = v_cases,
};

MLX5_TEST_MAIN(v_suite);
