/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * Queue counters through the typed builders: allocation, query and clear,
 * deallocation, RQs counting on a set (at CREATE_RQ and with MODIFY_RQ's
 * counter-set bit), each rule of the software device broken once, the
 * table limit, faults on the three commands, fail_cmd by name, and the
 * reclaim at close. Runs on the software device or on a real device named
 * by MLX5_TEST_DEVICE. That a dropped frame counts in out_of_buffer is the
 * receive path's to test: no common-layer call makes a frame arrive.
 */

#include <stdlib.h>

#include <mlx5_common_devx.h>
#include <mlx5_malloc.h>
#include <mlx5_sim.h>

#include "mlx5_test.h"
#include "mlx5_test_dev.h"

#define Q_CARD 64
#define Q_VHCA 7
#define Q_SHAPE "card=64,vhca_id=7"
#define RING_LEN (64 * 1024)
/* The software device's counter sets per vHCA (max_qp_cnt). */
#define SIM_Q_COUNTERS 128

static struct mlx5_common_device *cdev;
static long live0;

/* What an RQ hangs on: a UAR, a CQ and a ring umem. */
static struct {
	struct mlx5_uar uar;
	struct mlx5_devx_cq cq;
	uint8_t *ring;
	struct mlx5dv_devx_umem *umem;
} q;

static int
q_open(const char *shape)
{
	if (tdev_probe(0, shape) != 0)
		return TEST_FAILED;
	cdev = tdev_cdev(0);
	if (cdev == NULL)
		return TEST_FAILED;
	live0 = tdev_live(0);
	memset(&q, 0, sizeof(q));
	if (mlx5_uar_prepare(cdev, &q.uar) != 0 ||
	    mlx5_devx_cq_create(cdev, &q.cq, 6, &q.uar, SOCKET_ID_ANY) != 0)
		return TEST_FAILED;
	q.ring = aligned_alloc(4096, RING_LEN);
	if (q.ring == NULL)
		return TEST_FAILED;
	memset(q.ring, 0, RING_LEN);
	q.umem = cdev->glue->devx_umem_reg(cdev->ctx, q.ring, RING_LEN,
					   IBV_ACCESS_LOCAL_WRITE);
	return q.umem != NULL ? TEST_SUCCESS : TEST_FAILED;
}

static int
q_case_setup(void)
{
	return q_open(Q_SHAPE);
}

static void
q_release(void)
{
	if (q.umem != NULL)
		cdev->glue->devx_umem_dereg(q.umem);
	free(q.ring);
	mlx5_devx_cq_destroy(&q.cq);
	mlx5_uar_release(cdev, &q.uar);
	memset(&q, 0, sizeof(q));
}

static void
q_case_teardown(void)
{
	if (cdev != NULL && tdev_cdev(0) == cdev)
		q_release();
	if (!tdev_hw())
		mlx5_sim_fault_clear(Q_CARD, Q_VHCA);
	tdev_remove_all();
	cdev = NULL;
}

/* Skip unless the device has queue counters. */
#define Q_NEED_COUNTERS() do { \
	if (cdev->caps.max_q_counters == 0) \
		TEST_SKIP("device lacks queue counters (max_qp_cnt 0)"); \
} while (0)

/* RQ @n of the ring umem (1 KiB each), counting on @counter_set_id. */
static struct mlx5_devx_obj *
q_rq(unsigned int n, uint8_t counter_set_id)
{
	struct mlx5_devx_rq_attr ra = {
		.cqn = q.cq.obj->id,
		.vsd = true,
		.counter_set_id = counter_set_id,
		.wq = {
			.wq_type = MLX5_WQ_TYPE_CYCLIC,
			.pd = cdev->pdn,
			.uar_page_id = q.uar.page_id,
			.log_wq_stride = 4,
			.log_wq_sz = 6,
			.wq_umem_id = q.umem->umem_id,
			.wq_umem_offset = 1024 * n,
			.db_umem_id = q.umem->umem_id,
			.db_umem_offset = RING_LEN - 64 * (n + 1),
		},
	};

	return mlx5_devx_cmd_create_rq(cdev, &ra);
}

/* MODIFY_RQ @cur -> @next with the counter-set bit: @counter_set_id. */
static int
q_rq_set_counter(struct mlx5_devx_obj *rq, uint8_t cur, uint8_t next,
		 uint8_t counter_set_id)
{
	uint32_t in[MLX5_ST_SZ_DW(modify_rq_in)] = { 0 };
	uint32_t out[MLX5_ST_SZ_DW(modify_rq_out)];
	void *rqc = MLX5_ADDR_OF(modify_rq_in, in, ctx);

	MLX5_SET(modify_rq_in, in, opcode, MLX5_CMD_OP_MODIFY_RQ);
	MLX5_SET(modify_rq_in, in, rq_state, cur);
	MLX5_SET(modify_rq_in, in, rqn, rq->id);
	MLX5_SET64(modify_rq_in, in, modify_bitmask,
		   MLX5_MODIFY_RQ_IN_MODIFY_BITMASK_RQ_COUNTER_SET_ID);
	MLX5_SET(rqc, rqc, state, next);
	MLX5_SET(rqc, rqc, counter_set_id, counter_set_id);
	return MLX5_DEVX_OBJ_MODIFY(rq, modify_rq, in, out);
}

static uint8_t
q_rq_counter(struct mlx5_devx_obj *rq)
{
	struct mlx5_devx_wq_info info = { .counter_set_id = 0xff };

	if (mlx5_devx_cmd_query_rq(rq, &info) != 0)
		return 0xff;
	return info.counter_set_id;
}

/* The live counter sets of the case's vHCA (sim), or -1. */
static long
q_sim_counters(void)
{
	struct mlx5_sim_stats st;

	if (mlx5_sim_vhca_stats(Q_CARD, Q_VHCA, &st) != 0)
		return -1;
	return (long)st.q_counters;
}

static int
test_caps(void)
{
	if (tdev_hw()) {
		Q_NEED_COUNTERS();
		TEST_ASSERT(cdev->caps.max_q_counters <= 1023,
			    "max_qp_cnt is 10 bits: %u",
			    cdev->caps.max_q_counters);
		return TEST_SUCCESS;
	}
	/* What the software device reports (mlx5_queues.rst). */
	TEST_ASSERT_EQUAL(cdev->caps.max_q_counters, SIM_Q_COUNTERS, "");
	TEST_ASSERT(cdev->caps.modify_rq_counter_set_id,
		    "MODIFY_RQ may change an RQ's counter");
	return TEST_SUCCESS;
}

/*
 * The software device hands ids out in turn: a set freed and allocated
 * again gets the next id, not the one just freed, so a stale id held
 * elsewhere rarely names a new owner's set (mlx5_sim_qcnt.c).
 */
static int
test_ids_in_turn(void)
{
	struct mlx5_devx_obj *a, *b;
	uint32_t first;

	TDEV_SIM_ONLY("the software device's id order");
	a = mlx5_devx_cmd_queue_counter_alloc(cdev);
	TEST_ASSERT_NOT_NULL(a, "");
	first = a->id;
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_destroy(a), "");
	b = mlx5_devx_cmd_queue_counter_alloc(cdev);
	TEST_ASSERT_NOT_NULL(b, "");
	TEST_ASSERT_EQUAL(b->id, first % SIM_Q_COUNTERS + 1,
			  "the next id, not the freed one");
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_destroy(b), "");
	q_release();
	TDEV_ASSERT_LIVE(0, live0, "everything destroyed");
	return TEST_SUCCESS;
}

static int
test_alloc_query_clear(void)
{
	struct mlx5_devx_q_counter_info info = { .out_of_buffer = 7 };
	struct mlx5_devx_obj *a, *b;

	Q_NEED_COUNTERS();
	a = mlx5_devx_cmd_queue_counter_alloc(cdev);
	TEST_ASSERT_NOT_NULL(a, "a counter set");
	b = mlx5_devx_cmd_queue_counter_alloc(cdev);
	TEST_ASSERT_NOT_NULL(b, "another");
	TEST_ASSERT(a->id != 0 && a->id <= UINT8_MAX && b->id != 0 &&
		    b->id <= UINT8_MAX, "8-bit ids, never 0: %u %u", a->id,
		    b->id);
	TEST_ASSERT(a->id != b->id, "two sets, two ids");
	if (!tdev_hw())
		TEST_ASSERT_EQUAL(q_sim_counters(), 2, "counted live");
	/* No RQ counts on it: nothing dropped. */
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_queue_counter_query(a, false,
							      &info), "");
	TEST_ASSERT_EQUAL(info.out_of_buffer, 0, "a new set reads 0");
	info.out_of_buffer = 7;
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_queue_counter_query(a, true,
							      &info), "clear");
	TEST_ASSERT_EQUAL(info.out_of_buffer, 0, "");
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_queue_counter_query(a, false,
							      &info), "");
	TEST_ASSERT_EQUAL(info.out_of_buffer, 0, "still 0 after a clear");
	/* Bad input: refused before asking. */
	TEST_ASSERT_EQUAL(mlx5_devx_cmd_queue_counter_query(a, false, NULL),
			  -EINVAL, "no place for the counters");
	TEST_ASSERT_EQUAL(rte_errno, EINVAL, "");
	TEST_ASSERT_EQUAL(mlx5_devx_cmd_queue_counter_query(NULL, false,
							    &info), -EINVAL,
			  "no counter set");
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_destroy(b), "");
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_destroy(a), "");
	if (!tdev_hw())
		TEST_ASSERT_EQUAL(q_sim_counters(), 0, "none left");
	q_release();
	TDEV_ASSERT_LIVE(0, live0, "everything destroyed");
	return TEST_SUCCESS;
}

static int
test_not_a_counter(void)
{
	struct mlx5_devx_q_counter_info info;
	struct mlx5_devx_obj *rq;

	/*
	 * An RQ's handle: refused by the builder when its number does not
	 * fit 8 bits, else by the kernel (a query names its own object).
	 */
	rq = q_rq(0, 0);
	TEST_ASSERT_NOT_NULL(rq, "");
	TEST_ASSERT_EQUAL(mlx5_devx_cmd_queue_counter_query(rq, false, &info),
			  -EINVAL, "RQ 0x%x is not a counter set", rq->id);
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_destroy(rq), "");
	q_release();
	TDEV_ASSERT_LIVE(0, live0, "");
	return TEST_SUCCESS;
}

static int
test_rq_counts_on_set(void)
{
	struct mlx5_devx_obj *a, *b, *rq, *rq2;
	uint8_t free_id;

	Q_NEED_COUNTERS();
	a = mlx5_devx_cmd_queue_counter_alloc(cdev);
	TEST_ASSERT_NOT_NULL(a, "");
	b = mlx5_devx_cmd_queue_counter_alloc(cdev);
	TEST_ASSERT_NOT_NULL(b, "");
	free_id = (uint8_t)b->id;
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_destroy(b), "an id no set holds");
	rq = q_rq(0, (uint8_t)a->id);
	TEST_ASSERT_NOT_NULL(rq, "an RQ counting on the set");
	TEST_ASSERT_EQUAL(q_rq_counter(rq), a->id, "QUERY_RQ tells the set");
	if (!tdev_hw()) {
		/* The device's rules (mlx5_queues.rst). */
		TEST_ASSERT(q_rq(1, free_id) == NULL && rte_errno == EINVAL,
			    "an RQ naming a set not allocated");
		TEST_ASSERT_EQUAL(mlx5_devx_cmd_destroy(a), -EINVAL,
				  "a set an RQ counts on stays");
		TEST_ASSERT_EQUAL(q_sim_counters(), 1, "");
		TEST_ASSERT_EQUAL(q_rq_set_counter(rq, MLX5_WQ_STATE_RST,
						   MLX5_WQ_STATE_RDY, free_id),
				  -EINVAL, "MODIFY_RQ to a set not allocated");
		TEST_ASSERT_EQUAL(q_rq_counter(rq), a->id, "unchanged");
	}
	/* A second RQ joins the set; then the first leaves it on the move. */
	rq2 = q_rq(1, 0);
	TEST_ASSERT_NOT_NULL(rq2, "");
	if (cdev->caps.modify_rq_counter_set_id) {
		TEST_ASSERT_SUCCESS(q_rq_set_counter(rq2, MLX5_WQ_STATE_RST,
						     MLX5_WQ_STATE_RDY,
						     (uint8_t)a->id),
				    "RST->RDY onto the set");
		TEST_ASSERT_EQUAL(q_rq_counter(rq2), a->id, "");
		TEST_ASSERT_SUCCESS(q_rq_set_counter(rq, MLX5_WQ_STATE_RST,
						     MLX5_WQ_STATE_RDY, 0),
				    "RST->RDY off the set");
		TEST_ASSERT_EQUAL(q_rq_counter(rq), 0, "");
		if (!tdev_hw())
			TEST_ASSERT_EQUAL(mlx5_devx_cmd_destroy(a), -EINVAL,
					  "the second RQ still counts on it");
		TEST_ASSERT_SUCCESS(q_rq_set_counter(rq2, MLX5_WQ_STATE_RDY,
						     MLX5_WQ_STATE_RDY, 0),
				    "RDY->RDY off the set");
		/* Nothing names the set now, both RQs alive. */
		TEST_ASSERT_SUCCESS(mlx5_devx_cmd_destroy(a), "");
		a = NULL;
	}
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_destroy(rq2), "");
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_destroy(rq), "");
	if (a != NULL)
		TEST_ASSERT_SUCCESS(mlx5_devx_cmd_destroy(a), "free once unnamed");
	q_release();
	TDEV_ASSERT_LIVE(0, live0, "everything destroyed");
	return TEST_SUCCESS;
}

static int
test_other_file(void)
{
	const struct mlx5_glue *g = cdev->glue;
	struct mlx5dv_context_attr attr = {
		.flags = MLX5DV_CONTEXT_FLAGS_DEVX,
	};
	uint32_t in[MLX5_ST_SZ_DW(alloc_q_counter_in)] = { 0 };
	uint32_t out[MLX5_ST_SZ_DW(alloc_q_counter_out)];
	struct mlx5dv_devx_obj *theirs;
	struct ibv_context *other;
	uint8_t id;

	TDEV_SIM_ONLY("the device's rule on another context's set");
	Q_NEED_COUNTERS();
	/* Another context of the same device: another uverbs file. */
	other = g->dv_open_device(cdev->ibv_dev, &attr);
	TEST_ASSERT_NOT_NULL(other, "");
	MLX5_SET(alloc_q_counter_in, in, opcode, MLX5_CMD_OP_ALLOC_Q_COUNTER);
	theirs = g->devx_obj_create(other, in, sizeof(in), out, sizeof(out));
	TEST_ASSERT_NOT_NULL(theirs, "their set");
	id = MLX5_GET(alloc_q_counter_out, out, counter_set_id);
	TEST_ASSERT(q_rq(0, id) == NULL && rte_errno == EINVAL,
		    "an RQ naming another context's set");
	TEST_ASSERT_EQUAL(q_sim_counters(), 1, "");
	/* Left to the reclaim at close. */
	TEST_ASSERT_SUCCESS(g->close_device(other), "");
	TEST_ASSERT_EQUAL(q_sim_counters(), 0, "freed with its file");
	q_release();
	TDEV_ASSERT_LIVE(0, live0, "");
	return TEST_SUCCESS;
}

static int
test_table_full(void)
{
	struct mlx5_devx_obj *set[SIM_Q_COUNTERS];
	struct mlx5_devx_obj *extra;
	bool seen[UINT8_MAX + 1] = { false };

	TDEV_SIM_ONLY("the software device's limit");
	for (unsigned int i = 0; i < SIM_Q_COUNTERS; i++) {
		set[i] = mlx5_devx_cmd_queue_counter_alloc(cdev);
		TEST_ASSERT_NOT_NULL(set[i], "set %u of %u", i, SIM_Q_COUNTERS);
		TEST_ASSERT(set[i]->id >= 1 && set[i]->id <= SIM_Q_COUNTERS &&
			    !seen[set[i]->id], "id %u once", set[i]->id);
		seen[set[i]->id] = true;
	}
	extra = mlx5_devx_cmd_queue_counter_alloc(cdev);
	TEST_ASSERT(extra == NULL && rte_errno == EAGAIN,
		    "no set left: NO_RESOURCES");
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_destroy(set[5]), "");
	extra = mlx5_devx_cmd_queue_counter_alloc(cdev);
	TEST_ASSERT_NOT_NULL(extra, "a freed set is there again");
	set[5] = extra;
	for (unsigned int i = 0; i < SIM_Q_COUNTERS; i++)
		TEST_ASSERT_SUCCESS(mlx5_devx_cmd_destroy(set[i]), "");
	q_release();
	TDEV_ASSERT_LIVE(0, live0, "");
	return TEST_SUCCESS;
}

static int
test_fault_sweep(void)
{
	static const uint16_t ops[] = {
		MLX5_CMD_OP_ALLOC_Q_COUNTER,
		MLX5_CMD_OP_QUERY_Q_COUNTER,
		MLX5_CMD_OP_DEALLOC_Q_COUNTER,
	};
	struct mlx5_devx_q_counter_info info;

	TDEV_SIM_ONLY("fault injection");
	for (unsigned int i = 0; i < RTE_DIM(ops); i++) {
		struct mlx5_devx_obj *dcs = NULL;

		if (ops[i] != MLX5_CMD_OP_ALLOC_Q_COUNTER) {
			dcs = mlx5_devx_cmd_queue_counter_alloc(cdev);
			TEST_ASSERT_NOT_NULL(dcs, "");
		}
		TEST_ASSERT_SUCCESS(mlx5_sim_fault_set(Q_CARD, Q_VHCA, ops[i], 1,
				MLX5_CMD_STAT_NO_RES_ERR), "");
		switch (ops[i]) {
		case MLX5_CMD_OP_ALLOC_Q_COUNTER:
			TEST_ASSERT(mlx5_devx_cmd_queue_counter_alloc(cdev) ==
				    NULL && rte_errno == EAGAIN,
				    "ALLOC_Q_COUNTER refused");
			break;
		case MLX5_CMD_OP_QUERY_Q_COUNTER:
			TEST_ASSERT_EQUAL(mlx5_devx_cmd_queue_counter_query(dcs,
					  true, &info), -EAGAIN,
					  "QUERY_Q_COUNTER refused");
			break;
		default:
			/* A refused destroy keeps the object: again later. */
			TEST_ASSERT_EQUAL(mlx5_devx_cmd_destroy(dcs), -EAGAIN,
					  "DEALLOC_Q_COUNTER refused");
			break;
		}
		mlx5_sim_fault_clear(Q_CARD, Q_VHCA);
		if (dcs != NULL)
			TEST_ASSERT_SUCCESS(mlx5_devx_cmd_destroy(dcs), "");
		TEST_ASSERT_EQUAL(q_sim_counters(), 0, "after %s",
				  mlx5_cmd_opcode_name(ops[i]));
	}
	q_release();
	TDEV_ASSERT_LIVE(0, live0, "nothing left");
	return TEST_SUCCESS;
}

static int
test_fail_cmd_devarg(void)
{
	TDEV_SIM_ONLY("the fail_cmd devarg");
	q_release();
	TEST_ASSERT_SUCCESS(tdev_remove(0), "");
	/* The opcode by its name, as the guide writes it. */
	TEST_ASSERT_EQUAL(q_open(Q_SHAPE ",fail_cmd=ALLOC_Q_COUNTER,"
				 "fail_status=LIM"), TEST_SUCCESS, "");
	TEST_ASSERT(mlx5_devx_cmd_queue_counter_alloc(cdev) == NULL &&
		    rte_errno == ENOMEM, "every ALLOC_Q_COUNTER fails (LIM)");
	mlx5_sim_fault_clear(Q_CARD, Q_VHCA);
	q_release();
	TDEV_ASSERT_LIVE(0, live0, "");
	return TEST_SUCCESS;
}

static int
test_reclaim_at_remove(void)
{
	struct mlx5_devx_obj *dcs;
	struct mlx5_sim_stats st;
	uint64_t reclaimed;

	TDEV_SIM_ONLY("the device's reclaim count");
	TEST_ASSERT_SUCCESS(mlx5_sim_vhca_stats(Q_CARD, Q_VHCA, &st), "");
	reclaimed = st.reclaimed;
	/* Left behind on purpose: a set and an RQ counting on it. */
	dcs = mlx5_devx_cmd_queue_counter_alloc(cdev);
	TEST_ASSERT_NOT_NULL(dcs, "");
	TEST_ASSERT_NOT_NULL(q_rq(0, (uint8_t)dcs->id), "");
	TEST_ASSERT_SUCCESS(tdev_remove(0), "");
	TEST_ASSERT_SUCCESS(mlx5_sim_vhca_stats(Q_CARD, Q_VHCA, &st), "");
	TEST_ASSERT_EQUAL(st.q_counters, 0, "the set freed");
	TEST_ASSERT_EQUAL(st.live_objects + st.contexts, 0, "all freed");
	/* RQ, counter set, CQ, two umems and the UAR. */
	TEST_ASSERT_EQUAL(st.reclaimed - reclaimed, 6, "reclaimed");
	free(q.ring);
	mlx5_free(q.cq.buf);
	memset(&q, 0, sizeof(q));
	return TEST_SUCCESS;
}

static const struct mlx5_test_case q_cases[] = {
	{ "caps", test_caps },
	{ "alloc_query_clear", test_alloc_query_clear },
	{ "ids_in_turn", test_ids_in_turn },
	{ "not_a_counter", test_not_a_counter },
	{ "rq_counts_on_set", test_rq_counts_on_set },
	{ "other_file", test_other_file },
	{ "table_full", test_table_full },
	{ "fault_sweep", test_fault_sweep },
	{ "fail_cmd_devarg", test_fail_cmd_devarg },
	{ "reclaim_at_remove", test_reclaim_at_remove },
	{ NULL, NULL },
};

static const struct mlx5_test_suite q_suite = {
	.name = "qcnt",
	.case_setup = q_case_setup,
	.case_teardown = q_case_teardown,
	.cases = q_cases,
};

MLX5_TEST_MAIN(q_suite);
