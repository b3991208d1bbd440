/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * The software device through its rdma-core front, by rdma-core's own
 * interface (libibverbs calls, no backend of ours): the rules of UD
 * datagrams (the Q_Key, the GRH before the payload, one packet at most,
 * loss without NAK), of UC messages (no RNR, no read), libmlx5's refusal
 * of posting to a QP in RESET, completion events, MR import,
 * mlx5dv's mkey operations (UMR layouts, local and remote invalidation),
 * and XRC (domains, XRC SRQs, the target's checks).
 * Run
 * with the front's libibverbs.so.1 first on LD_LIBRARY_PATH (the test
 * command does); on the system's libibverbs it skips.
 */

#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <time.h>
#include <unistd.h>

#include <infiniband/mlx5dv.h>
#include <infiniband/verbs.h>

#include <rte_common.h>
/* DPDK's header casts its key to vectors (clang's -Wcast-align). */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wcast-align"
#include <rte_thash.h>
#pragma GCC diagnostic pop

#include <mlx5_prm.h>
#include <mlx5_sim.h>

#include "mlx5_test.h"

#define FV_BUF 8192
#define FV_QKEY 0x11220000u
#define FV_GRH 40

static struct ibv_context *ctx;
static struct ibv_pd *pd;
static struct ibv_cq *cq;
static struct ibv_mr *mr;
static uint8_t *buf;
static long live0;

/* Live objects of the front's device (card 0, vHCA 0). */
static long
fv_live(void)
{
	struct mlx5_sim_stats st;

	if (mlx5_sim_vhca_stats(0, 0, &st) != 0)
		return -1;
	/* A raw packet QP is an SQ, an RQ, a TIS and a TIR; its rules. */
	return (long)(st.pds + st.mrs + st.cqs + st.qps + st.dms + st.sqs +
		      st.rqs + st.tiss + st.tirs + st.flows + st.flow_tables +
		      st.flow_counters + st.srqs + st.xrcds);
}

static int
fv_setup(void)
{
	struct ibv_device **list;
	int n = 0;

	/* The front's device, or no case runs (they skip). */
	list = ibv_get_device_list(&n);
	if (list == NULL || n == 0 ||
	    strcmp(ibv_get_device_name(list[0]), "mlx5_0") != 0 ||
	    mlx5_sim_vhca_stats(0, 0, &(struct mlx5_sim_stats){ 0 }) != 0) {
		if (list != NULL)
			ibv_free_device_list(list);
		return TEST_SUCCESS;
	}
	ctx = ibv_open_device(list[0]);
	ibv_free_device_list(list);
	if (ctx == NULL)
		return TEST_FAILED;
	live0 = fv_live();
	return TEST_SUCCESS;
}

static void
fv_teardown(void)
{
	if (ctx != NULL)
		ibv_close_device(ctx);
	ctx = NULL;
}

/* A PD, a CQ and a registered buffer for each case. */
static int
fv_case_setup(void)
{
	if (ctx == NULL)
		TEST_SKIP("not the rdma-core front (LD_LIBRARY_PATH)");
	pd = ibv_alloc_pd(ctx);
	cq = ibv_create_cq(ctx, 64, NULL, NULL, 0);
	buf = aligned_alloc(4096, FV_BUF);
	TEST_ASSERT(pd != NULL && cq != NULL && buf != NULL, "");
	memset(buf, 0, FV_BUF);
	mr = ibv_reg_mr(pd, buf, FV_BUF,
			IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
				IBV_ACCESS_REMOTE_READ);
	TEST_ASSERT_NOT_NULL(mr, "");
	return TEST_SUCCESS;
}

static void
fv_case_teardown(void)
{
	if (mr != NULL)
		ibv_dereg_mr(mr);
	if (cq != NULL)
		ibv_destroy_cq(cq);
	if (pd != NULL)
		ibv_dealloc_pd(pd);
	free(buf);
	mr = NULL;
	cq = NULL;
	pd = NULL;
	buf = NULL;
}

/* Up to @n completions of @c within @ms milliseconds: how many. */
static int
fv_poll(struct ibv_cq *c, struct ibv_wc *wc, int n, int ms)
{
	struct timespec t0, t;
	int got = 0;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		int r = ibv_poll_cq(c, n - got, wc + got);

		if (r < 0)
			return r;
		got += r;
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while (got < n && (t.tv_sec - t0.tv_sec) * 1000 +
					    (t.tv_nsec - t0.tv_nsec) / 1000000 <
				    ms);
	return got;
}

/* A QP of @type sending on @scq and receiving on @rcq, in INIT. */
static struct ibv_qp *
fv_qp_create_on(enum ibv_qp_type type, struct ibv_cq *scq, struct ibv_cq *rcq)
{
	struct ibv_qp_init_attr ia = {
		.send_cq = scq,
		.recv_cq = rcq,
		.qp_type = type,
		.cap = { .max_send_wr = 8,
			 .max_recv_wr = 8,
			 .max_send_sge = 1,
			 .max_recv_sge = 1,
			 .max_inline_data = 64 },
	};
	struct ibv_qp_attr a = { .qp_state = IBV_QPS_INIT,
				 .port_num = 1,
				 .qkey = FV_QKEY,
				 .qp_access_flags = IBV_ACCESS_REMOTE_WRITE };
	struct ibv_qp *qp = ibv_create_qp(pd, &ia);

	if (qp != NULL &&
	    ibv_modify_qp(qp, &a,
			  IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT |
				  (type == IBV_QPT_UD ? IBV_QP_QKEY :
							IBV_QP_ACCESS_FLAGS)) !=
		    0) {
		ibv_destroy_qp(qp);
		return NULL;
	}
	return qp;
}

/* A QP of @type on the case's CQ, in INIT. */
static struct ibv_qp *
fv_qp_create(enum ibv_qp_type type)
{
	return fv_qp_create_on(type, cq, cq);
}

/* @qp to RTS, connected (RC, UC) to QP @dest of this port: 0 or errno. */
static int
fv_qp_connect(struct ibv_qp *qp, uint32_t dest)
{
	struct ibv_qp_attr a = {
		.qp_state = IBV_QPS_RTR,
		.path_mtu = IBV_MTU_1024,
		.dest_qp_num = dest,
		.ah_attr = { .is_global = 1,
			     .port_num = 1,
			     .grh.hop_limit = 1 },
	};
	int ud = qp->qp_type == IBV_QPT_UD, rc = qp->qp_type == IBV_QPT_RC;
	int ret = ibv_query_gid(ctx, 1, 0, &a.ah_attr.grh.dgid);

	if (ret == 0)
		ret = ibv_modify_qp(
			qp, &a,
			IBV_QP_STATE |
				(ud ? 0 :
				      IBV_QP_AV | IBV_QP_PATH_MTU |
						 IBV_QP_DEST_QPN |
						 IBV_QP_RQ_PSN) |
				(rc ? IBV_QP_MAX_DEST_RD_ATOMIC |
						 IBV_QP_MIN_RNR_TIMER :
				      0));
	a.qp_state = IBV_QPS_RTS;
	a.timeout = 14;
	a.retry_cnt = 7;
	a.rnr_retry = 7;
	if (ret == 0)
		ret = ibv_modify_qp(
			qp, &a,
			IBV_QP_STATE | IBV_QP_SQ_PSN |
				(rc ? IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT |
						 IBV_QP_RNR_RETRY |
						 IBV_QP_MAX_QP_RD_ATOMIC :
				      0));
	return ret;
}

/* A QP of @type in RTS, connected to itself (RC, UC). */
static struct ibv_qp *
fv_qp(enum ibv_qp_type type)
{
	struct ibv_qp *qp = fv_qp_create(type);

	if (qp != NULL && fv_qp_connect(qp, qp->qp_num) != 0) {
		ibv_destroy_qp(qp);
		return NULL;
	}
	return qp;
}

static int
fv_post_recv(struct ibv_qp *qp, uint32_t off, uint32_t len)
{
	struct ibv_sge sg = { .addr = (uintptr_t)buf + off,
			      .length = len,
			      .lkey = mr->lkey };
	struct ibv_recv_wr wr = { .wr_id = off, .sg_list = &sg, .num_sge = 1 };
	struct ibv_recv_wr *bad;

	return ibv_post_recv(qp, &wr, &bad);
}

/* A send of @len bytes at @off (UD: to @ah, QP @dqpn with @qkey). */
static int
fv_send(struct ibv_qp *qp, enum ibv_wr_opcode op, uint32_t off, uint32_t len,
	struct ibv_ah *ah, uint32_t dqpn, uint32_t qkey)
{
	struct ibv_sge sg = { .addr = (uintptr_t)buf + off,
			      .length = len,
			      .lkey = mr->lkey };
	struct ibv_send_wr wr = { .wr_id = off,
				  .sg_list = &sg,
				  .num_sge = 1,
				  .opcode = op,
				  .send_flags = IBV_SEND_SIGNALED };
	struct ibv_send_wr *bad;

	wr.wr.ud.ah = ah;
	wr.wr.ud.remote_qpn = dqpn;
	wr.wr.ud.remote_qkey = qkey;
	if (op == IBV_WR_RDMA_READ) {
		wr.wr.rdma.remote_addr = (uintptr_t)buf + 4096;
		wr.wr.rdma.rkey = mr->rkey;
	}
	return ibv_post_send(qp, &wr, &bad);
}

/*
 * UD datagrams: one that carries the receiver's Q_Key lands in its
 * receive buffer after a GRH (the sender's and the receiver's GIDs) and
 * completes with IBV_WC_GRH and the source QP; one with another Q_Key is
 * sent (the sender cannot tell) and lost (the receive stays posted, the
 * next good one takes it); one longer than a packet (the port's active
 * MTU, RoCE's share of the netdev's) is the sender's length error; an
 * RDMA opcode is refused at post (EINVAL).
 */
static int
test_ud_datagrams(void)
{
	struct ibv_ah_attr aa = { .is_global = 1,
				  .port_num = 1,
				  .grh.hop_limit = 1 };
	struct ibv_port_attr pa;
	union ibv_gid gid;
	uint32_t mtu;
	struct ibv_qp *a, *b;
	struct ibv_ah *ah;
	struct ibv_wc wc[2];

	TEST_ASSERT_SUCCESS(ibv_query_gid(ctx, 1, 0, &gid), "");
	aa.grh.dgid = gid;
	ah = ibv_create_ah(pd, &aa);
	TEST_ASSERT_NOT_NULL(ah, "");
	aa.is_global = 0;
	TEST_ASSERT(ibv_create_ah(pd, &aa) == NULL && errno == EINVAL,
		    "RoCE: an address without a GRH");
	a = fv_qp(IBV_QPT_UD);
	b = fv_qp(IBV_QPT_UD);
	TEST_ASSERT(a != NULL && b != NULL, "");
	memset(buf, 0x5a, 64);
	TEST_ASSERT_SUCCESS(fv_post_recv(b, 1024, FV_GRH + 64), "");
	TEST_ASSERT_SUCCESS(
		fv_send(a, IBV_WR_SEND, 0, 64, ah, b->qp_num, FV_QKEY), "");
	TEST_ASSERT_EQUAL(fv_poll(cq, wc, 2, 1000), 2, "both sides");
	if (wc[0].opcode == IBV_WC_RECV)
		wc[1] = wc[0];
	TEST_ASSERT_EQUAL(wc[1].opcode, IBV_WC_RECV, "");
	TEST_ASSERT_EQUAL(wc[1].status, IBV_WC_SUCCESS, "");
	TEST_ASSERT_EQUAL(wc[1].byte_len, FV_GRH + 64, "GRH and payload");
	TEST_ASSERT(wc[1].wc_flags & IBV_WC_GRH, "");
	TEST_ASSERT_EQUAL(wc[1].src_qp, a->qp_num, "");
	TEST_ASSERT(memcmp(buf + 1024 + 8, gid.raw, 16) == 0 &&
			    memcmp(buf + 1024 + 24, gid.raw, 16) == 0,
		    "the GIDs");
	TEST_ASSERT(memcmp(buf + 1024 + FV_GRH, buf, 64) == 0, "payload");
	/* Another Q_Key: sent, lost. */
	TEST_ASSERT_SUCCESS(fv_post_recv(b, 2048, FV_GRH + 64), "");
	TEST_ASSERT_SUCCESS(
		fv_send(a, IBV_WR_SEND, 0, 64, ah, b->qp_num, FV_QKEY + 1), "");
	TEST_ASSERT_EQUAL(fv_poll(cq, wc, 2, 200), 1, "the sender's only");
	TEST_ASSERT_EQUAL(wc[0].status, IBV_WC_SUCCESS, "");
	TEST_ASSERT_EQUAL(wc[0].opcode, IBV_WC_SEND, "");
	TEST_ASSERT_SUCCESS(
		fv_send(a, IBV_WR_SEND, 0, 32, ah, b->qp_num, FV_QKEY), "");
	TEST_ASSERT_EQUAL(fv_poll(cq, wc, 2, 1000), 2, "");
	if (wc[0].opcode == IBV_WC_RECV)
		wc[1] = wc[0];
	TEST_ASSERT_EQUAL(wc[1].wr_id, 2048, "the receive still posted");
	TEST_ASSERT_EQUAL(wc[1].byte_len, FV_GRH + 32, "");
	/* One packet of the port's active MTU; more is a length error. */
	TEST_ASSERT_SUCCESS(ibv_query_port(ctx, 1, &pa), "");
	mtu = 128u << pa.active_mtu;
	TEST_ASSERT_SUCCESS(fv_post_recv(b, 0, FV_BUF), "");
	TEST_ASSERT_SUCCESS(
		fv_send(a, IBV_WR_SEND, 0, mtu, ah, b->qp_num, FV_QKEY), "");
	TEST_ASSERT_EQUAL(fv_poll(cq, wc, 2, 1000), 2, "the MTU: sent");
	TEST_ASSERT(wc[0].status == IBV_WC_SUCCESS &&
			    wc[1].status == IBV_WC_SUCCESS,
		    "");
	TEST_ASSERT_SUCCESS(
		fv_send(a, IBV_WR_SEND, 0, mtu + 1, ah, b->qp_num, FV_QKEY),
		"");
	TEST_ASSERT_EQUAL(fv_poll(cq, wc, 1, 1000), 1, "");
	TEST_ASSERT_EQUAL(wc[0].status, IBV_WC_LOC_LEN_ERR,
			  "one byte over the active MTU (%u)", mtu);
	TEST_ASSERT_EQUAL(
		fv_send(a, IBV_WR_RDMA_READ, 0, 8, ah, b->qp_num, FV_QKEY),
		EINVAL, "no RDMA on UD");
	TEST_ASSERT_SUCCESS(ibv_destroy_qp(a), "");
	TEST_ASSERT_SUCCESS(ibv_destroy_qp(b), "");
	TEST_ASSERT_SUCCESS(ibv_destroy_ah(ah), "");
	return TEST_SUCCESS;
}

/*
 * UC messages: a SEND to a QP with no receive posted is sent and lost
 * (no RNR NAK: the sender completes), the next one, a receive posted,
 * arrives; RDMA READ does not exist on UC (EINVAL at post).
 */
static int
test_uc_messages(void)
{
	struct ibv_qp *a, *b;
	struct ibv_wc wc[2];

	a = fv_qp_create(IBV_QPT_UC);
	b = fv_qp_create(IBV_QPT_UC);
	TEST_ASSERT(a != NULL && b != NULL, "");
	TEST_ASSERT_SUCCESS(fv_qp_connect(a, b->qp_num), "");
	TEST_ASSERT_SUCCESS(fv_qp_connect(b, a->qp_num), "");
	TEST_ASSERT_SUCCESS(fv_send(a, IBV_WR_SEND, 0, 16, NULL, 0, 0), "");
	TEST_ASSERT_EQUAL(fv_poll(cq, wc, 2, 200), 1, "the sender's only");
	TEST_ASSERT_EQUAL(wc[0].status, IBV_WC_SUCCESS, "lost, not NAKed");
	TEST_ASSERT_SUCCESS(fv_post_recv(b, 1024, 64), "");
	TEST_ASSERT_SUCCESS(fv_send(a, IBV_WR_SEND, 0, 16, NULL, 0, 0), "");
	TEST_ASSERT_EQUAL(fv_poll(cq, wc, 2, 1000), 2, "");
	TEST_ASSERT_EQUAL(fv_send(a, IBV_WR_RDMA_READ, 0, 8, NULL, 0, 0),
			  EINVAL, "no RDMA READ on UC");
	TEST_ASSERT_SUCCESS(ibv_destroy_qp(a), "");
	TEST_ASSERT_SUCCESS(ibv_destroy_qp(b), "");
	return TEST_SUCCESS;
}

/* An address handle to this port's GID, from GID index @sgid (or NULL). */
static struct ibv_ah *
fv_ah(uint8_t sgid)
{
	struct ibv_ah_attr aa = { .is_global = 1,
				  .port_num = 1,
				  .grh.hop_limit = 1,
				  .grh.sgid_index = sgid };

	if (ibv_query_gid(ctx, 1, 0, &aa.grh.dgid) != 0)
		return NULL;
	return ibv_create_ah(pd, &aa);
}

/*
 * The GRH before a UD payload names the next header by the GID type of
 * the sender's index: a BTH for RoCE v1 (0x1b), UDP for RoCE v2 over IPv6
 * (0x11).
 */
static int
test_ud_grh_type(void)
{
	struct ibv_qp *a = fv_qp(IBV_QPT_UD), *b = fv_qp(IBV_QPT_UD);
	struct ibv_wc wc[2];
	struct ibv_ah *ah;
	int idx;

	TEST_ASSERT(a != NULL && b != NULL, "");
	for (idx = 0; idx < 2; idx++) {
		ah = fv_ah((uint8_t)idx);
		TEST_ASSERT_NOT_NULL(ah, "");
		memset(buf + 1024, 0, FV_GRH);
		TEST_ASSERT_SUCCESS(fv_post_recv(b, 1024, FV_GRH + 16), "");
		TEST_ASSERT_SUCCESS(
			fv_send(a, IBV_WR_SEND, 0, 16, ah, b->qp_num, FV_QKEY),
			"");
		TEST_ASSERT_EQUAL(fv_poll(cq, wc, 2, 1000), 2, "");
		TEST_ASSERT_EQUAL(buf[1024 + 6], idx == 0 ? 0x1b : 0x11,
				  "GID index %d: next header", idx);
		TEST_ASSERT_SUCCESS(ibv_destroy_ah(ah), "");
	}
	TEST_ASSERT_SUCCESS(ibv_destroy_qp(a), "");
	TEST_ASSERT_SUCCESS(ibv_destroy_qp(b), "");
	return TEST_SUCCESS;
}

/*
 * UC has neither ACK nor NAK: an RDMA WRITE with a bad R_Key completes as
 * sent, nothing is written and the responder stays in RTS (the next
 * message arrives); RC's responder would be in ERR.
 */
static int
test_uc_bad_rkey(void)
{
	struct ibv_sge sg = { .addr = (uintptr_t)buf,
			      .length = 8,
			      .lkey = mr->lkey };
	struct ibv_send_wr wr = { .sg_list = &sg,
				  .num_sge = 1,
				  .opcode = IBV_WR_RDMA_WRITE,
				  .send_flags = IBV_SEND_SIGNALED };
	struct ibv_qp_init_attr ia;
	struct ibv_send_wr *bad;
	struct ibv_qp_attr qa;
	struct ibv_qp *a, *b;
	struct ibv_wc wc[2];

	a = fv_qp_create(IBV_QPT_UC);
	b = fv_qp_create(IBV_QPT_UC);
	TEST_ASSERT(a != NULL && b != NULL, "");
	TEST_ASSERT_SUCCESS(fv_qp_connect(a, b->qp_num), "");
	TEST_ASSERT_SUCCESS(fv_qp_connect(b, a->qp_num), "");
	memset(buf, 0x77, 8);
	memset(buf + 4096, 0, 8);
	wr.wr.rdma.remote_addr = (uintptr_t)buf + 4096;
	wr.wr.rdma.rkey = mr->rkey ^ 0x100;
	TEST_ASSERT_SUCCESS(ibv_post_send(a, &wr, &bad), "");
	TEST_ASSERT_EQUAL(fv_poll(cq, wc, 2, 200), 1, "the sender's only");
	TEST_ASSERT_EQUAL(wc[0].status, IBV_WC_SUCCESS, "no NAK on UC");
	TEST_ASSERT_EQUAL(buf[4096], 0, "nothing written");
	TEST_ASSERT_SUCCESS(ibv_query_qp(b, &qa, IBV_QP_STATE, &ia), "");
	TEST_ASSERT_EQUAL(qa.qp_state, IBV_QPS_RTS, "the responder as it was");
	TEST_ASSERT_SUCCESS(fv_post_recv(b, 1024, 64), "");
	TEST_ASSERT_SUCCESS(fv_send(a, IBV_WR_SEND, 0, 16, NULL, 0, 0), "");
	TEST_ASSERT_EQUAL(fv_poll(cq, wc, 2, 1000), 2, "the next arrives");
	TEST_ASSERT(wc[0].status == IBV_WC_SUCCESS &&
			    wc[1].status == IBV_WC_SUCCESS,
		    "");
	TEST_ASSERT_SUCCESS(ibv_destroy_qp(a), "");
	TEST_ASSERT_SUCCESS(ibv_destroy_qp(b), "");
	return TEST_SUCCESS;
}

/*
 * A QP in ERR completes the receives posted to it later with a flush
 * error (IBTA), without a doorbell of its own: a poll of its CQ finds
 * them.
 */
static int
test_err_flushes_later_receives(void)
{
	struct ibv_qp_attr err = { .qp_state = IBV_QPS_ERR };
	struct ibv_qp *qp = fv_qp(IBV_QPT_RC);
	struct ibv_wc wc[2];

	TEST_ASSERT_NOT_NULL(qp, "");
	TEST_ASSERT_SUCCESS(ibv_modify_qp(qp, &err, IBV_QP_STATE), "");
	TEST_ASSERT_EQUAL(fv_poll(cq, wc, 1, 50), 0, "nothing posted");
	TEST_ASSERT_SUCCESS(fv_post_recv(qp, 64, 64), "");
	TEST_ASSERT_SUCCESS(fv_post_recv(qp, 128, 64), "");
	TEST_ASSERT_EQUAL(fv_poll(cq, wc, 2, 1000), 2, "both flushed");
	TEST_ASSERT(wc[0].status == IBV_WC_WR_FLUSH_ERR && wc[0].wr_id == 64 &&
			    wc[1].status == IBV_WC_WR_FLUSH_ERR &&
			    wc[1].wr_id == 128,
		    "in order");
	TEST_ASSERT_SUCCESS(ibv_destroy_qp(qp), "");
	return TEST_SUCCESS;
}

/*
 * ibv_qp_ex on UD: the address may come after the data (libmlx5 takes the
 * setters in either order); a UD QP has no RDMA calls (NULL, as libmlx5
 * leaves them).
 */
static int
test_qpx_ud(void)
{
	struct ibv_qp_init_attr_ex ia = {
		.send_cq = cq,
		.recv_cq = cq,
		.qp_type = IBV_QPT_UD,
		.cap = { .max_send_wr = 8,
			 .max_recv_wr = 8,
			 .max_send_sge = 1,
			 .max_recv_sge = 1 },
		.comp_mask =
			IBV_QP_INIT_ATTR_PD | IBV_QP_INIT_ATTR_SEND_OPS_FLAGS,
		.pd = pd,
		.send_ops_flags = IBV_QP_EX_WITH_SEND,
	};
	struct ibv_qp_attr a = { .qp_state = IBV_QPS_INIT,
				 .port_num = 1,
				 .qkey = FV_QKEY };
	struct ibv_qp *qp = ibv_create_qp_ex(ctx, &ia), *b = fv_qp(IBV_QPT_UD);
	struct ibv_qp_ex *x;
	struct ibv_wc wc[2];
	struct ibv_ah *ah;
	int i;

	TEST_ASSERT(qp != NULL && b != NULL, "");
	x = ibv_qp_to_qp_ex(qp);
	TEST_ASSERT(x->wr_rdma_write == NULL && x->wr_rdma_read == NULL &&
			    x->wr_set_ud_addr != NULL,
		    "UD's calls only");
	TEST_ASSERT_SUCCESS(ibv_modify_qp(qp, &a,
					  IBV_QP_STATE | IBV_QP_PKEY_INDEX |
						  IBV_QP_PORT | IBV_QP_QKEY),
			    "");
	TEST_ASSERT_SUCCESS(fv_qp_connect(qp, 0), "");
	ah = fv_ah(0);
	TEST_ASSERT_NOT_NULL(ah, "");
	memset(buf, 0x3c, 32);
	for (i = 0; i < 2; i++) {
		TEST_ASSERT_SUCCESS(fv_post_recv(b, 1024, FV_GRH + 32), "");
		ibv_wr_start(x);
		x->wr_id = 7;
		x->wr_flags = IBV_SEND_SIGNALED;
		ibv_wr_send(x);
		/* Address then data, then data then address. */
		if (i == 0)
			ibv_wr_set_ud_addr(x, ah, b->qp_num, FV_QKEY);
		ibv_wr_set_sge(x, mr->lkey, (uintptr_t)buf, 32);
		if (i == 1)
			ibv_wr_set_ud_addr(x, ah, b->qp_num, FV_QKEY);
		TEST_ASSERT_SUCCESS(ibv_wr_complete(x), "order %d", i);
		TEST_ASSERT_EQUAL(fv_poll(cq, wc, 2, 1000), 2, "order %d", i);
		if (wc[0].opcode == IBV_WC_RECV)
			wc[1] = wc[0];
		TEST_ASSERT_EQUAL(wc[1].opcode, IBV_WC_RECV, "");
		TEST_ASSERT_EQUAL(wc[1].status, IBV_WC_SUCCESS, "order %d", i);
		TEST_ASSERT_EQUAL(wc[1].byte_len, FV_GRH + 32, "");
	}
	TEST_ASSERT_SUCCESS(ibv_destroy_ah(ah), "");
	TEST_ASSERT_SUCCESS(ibv_destroy_qp(qp), "");
	TEST_ASSERT_SUCCESS(ibv_destroy_qp(b), "");
	return TEST_SUCCESS;
}

/*
 * An RC QP with mlx5dv mkey operations on the case's CQ, in INIT, with
 * @inl bytes of inline data asked for.
 */
static struct ibv_qp *
fv_dv_qp_inline(uint64_t dv_ops, uint32_t inl)
{
	struct ibv_qp_init_attr_ex ia = {
		.send_cq = cq,
		.recv_cq = cq,
		.qp_type = IBV_QPT_RC,
		.cap = { .max_send_wr = 8,
			 .max_recv_wr = 8,
			 .max_send_sge = 1,
			 .max_recv_sge = 1,
			 .max_inline_data = inl },
		.comp_mask =
			IBV_QP_INIT_ATTR_PD | IBV_QP_INIT_ATTR_SEND_OPS_FLAGS,
		.pd = pd,
		.send_ops_flags = IBV_QP_EX_WITH_SEND,
	};
	struct mlx5dv_qp_init_attr da = {
		.comp_mask = MLX5DV_QP_INIT_ATTR_MASK_SEND_OPS_FLAGS,
		.send_ops_flags = dv_ops,
	};
	struct ibv_qp_attr a = { .qp_state = IBV_QPS_INIT,
				 .port_num = 1,
				 .qp_access_flags = IBV_ACCESS_LOCAL_WRITE };
	struct ibv_qp *qp = mlx5dv_create_qp(ctx, &ia, &da);

	if (qp != NULL &&
	    ibv_modify_qp(qp, &a,
			  IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT |
				  IBV_QP_ACCESS_FLAGS) != 0) {
		ibv_destroy_qp(qp);
		return NULL;
	}
	return qp;
}

static struct ibv_qp *
fv_dv_qp(uint64_t dv_ops)
{
	return fv_dv_qp_inline(dv_ops, 0);
}

/* Post a batch of one mkey layout on @qp and poll its completion. */
static int
fv_mkey_layout(struct ibv_qp *qp, struct mlx5dv_mkey *mk, bool interleaved)
{
	struct ibv_qp_ex *x = ibv_qp_to_qp_ex(qp);
	struct mlx5dv_qp_ex *dx = mlx5dv_qp_ex_from_ibv_qp_ex(x);
	struct mlx5dv_mr_interleaved il[2] = {
		{ (uintptr_t)buf + 2048, 4, 6, mr->lkey },
		{ (uintptr_t)buf + 2560, 4, 12, mr->lkey },
	};
	struct ibv_sge sg[2] = {
		{ (uintptr_t)buf + 2048, 8, mr->lkey },
		{ (uintptr_t)buf + 2560, 8, mr->lkey },
	};
	struct ibv_wc wc;

	ibv_wr_start(x);
	x->wr_id = 0x51;
	x->wr_flags = IBV_SEND_SIGNALED | IBV_SEND_INLINE;
	if (interleaved)
		mlx5dv_wr_mr_interleaved(dx, mk, IBV_ACCESS_LOCAL_WRITE, 3, 2,
					 il);
	else
		mlx5dv_wr_mr_list(dx, mk, IBV_ACCESS_LOCAL_WRITE, 2, sg);
	TEST_ASSERT_SUCCESS(ibv_wr_complete(x), "");
	TEST_ASSERT_EQUAL(fv_poll(cq, &wc, 1, 1000), 1, "");
	TEST_ASSERT_EQUAL(wc.status, IBV_WC_SUCCESS, "");
	TEST_ASSERT_EQUAL(wc.opcode, IBV_WC_DRIVER1, "an mkey operation");
	TEST_ASSERT_EQUAL(wc.wr_id, 0x51, "");
	return TEST_SUCCESS;
}

/* A SEND of @len bytes through key @key at 0 to @qp itself: its status. */
static int
fv_send_via(struct ibv_qp *qp, uint32_t key, uint32_t len,
	    enum ibv_wc_status *st)
{
	struct ibv_sge sg = { .addr = 0, .length = len, .lkey = key };
	struct ibv_send_wr wr = { .sg_list = &sg,
				  .num_sge = 1,
				  .opcode = IBV_WR_SEND,
				  .send_flags = IBV_SEND_SIGNALED };
	struct ibv_send_wr *bad;
	struct ibv_wc wc[2];
	int n;

	TEST_ASSERT_SUCCESS(fv_post_recv(qp, 1024, 64), "");
	TEST_ASSERT_SUCCESS(ibv_post_send(qp, &wr, &bad), "");
	n = fv_poll(cq, wc, 2, 1000);
	TEST_ASSERT(n >= 1, "");
	*st = wc[0].opcode == IBV_WC_SEND || n == 1 ? wc[0].status :
						      wc[1].status;
	/* A failed send leaves the QP in ERR: its receive flushed. */
	fv_poll(cq, wc, 2, 50);
	return TEST_SUCCESS;
}

/*
 * mlx5dv mkey layouts (rdma-core's mlx5dv_wr_mr_list and
 * mlx5dv_wr_mr_interleaved, UMR WQEs the device executes): a SEND whose
 * gather list is the indirect key sends the list's entries in order, or
 * the interleaved entries repetition by repetition, each at its stride;
 * one byte past the key's length is the sender's protection error.
 */
static int
test_dv_mkey_layouts(void)
{
	struct mlx5dv_mkey_init_attr ma = {
		.pd = pd,
		.create_flags = MLX5DV_MKEY_INIT_ATTR_FLAGS_INDIRECT,
		.max_entries = 4,
	};
	static const uint8_t want[] = {
		/* Repetition 0: 4 bytes at A, 4 at B; then at their strides. */
		0,   1,	  2,   3,   100, 101, 102, 103, 10,  11,  12,  13,
		116, 117, 118, 119, 20,	 21,  22,  23,	132, 133, 134, 135,
	};
	struct mlx5dv_mkey_conf_attr conf = { 0 };
	struct mlx5dv_qp_ex *dx;
	enum ibv_wc_status st;
	struct mlx5dv_mkey *mk;
	struct ibv_sge sg[5];
	struct ibv_qp_ex *x;
	struct ibv_wc wc[1];
	struct ibv_qp *qp;
	int i;

	qp = fv_dv_qp(MLX5DV_QP_EX_WITH_MR_LIST |
		      MLX5DV_QP_EX_WITH_MR_INTERLEAVED);
	TEST_ASSERT_NOT_NULL(qp, "");
	TEST_ASSERT_SUCCESS(fv_qp_connect(qp, qp->qp_num), "");
	mk = mlx5dv_create_mkey(&ma);
	TEST_ASSERT_NOT_NULL(mk, "");
	for (i = 0; i < 64; i++) {
		buf[2048 + i] = (uint8_t)i;
		buf[2560 + i] = (uint8_t)(100 + i);
	}
	/* A list: 8 bytes at A, then 8 at B. */
	TEST_ASSERT_EQUAL(fv_mkey_layout(qp, mk, false), TEST_SUCCESS, "");
	TEST_ASSERT_EQUAL(fv_send_via(qp, mk->lkey, 16, &st), TEST_SUCCESS, "");
	TEST_ASSERT_EQUAL(st, IBV_WC_SUCCESS, "");
	TEST_ASSERT(memcmp(buf + 1024, buf + 2048, 8) == 0 &&
			    memcmp(buf + 1032, buf + 2560, 8) == 0,
		    "the list's entries in order");
	TEST_ASSERT_EQUAL(fv_send_via(qp, mk->lkey, 17, &st), TEST_SUCCESS, "");
	TEST_ASSERT_EQUAL(st, IBV_WC_LOC_PROT_ERR, "past the key's 16 bytes");
	TEST_ASSERT_SUCCESS(ibv_destroy_qp(qp), "");
	/* Interleaved: 3 x (4 bytes at A every 10, 4 at B every 16). */
	qp = fv_dv_qp(MLX5DV_QP_EX_WITH_MR_LIST |
		      MLX5DV_QP_EX_WITH_MR_INTERLEAVED);
	TEST_ASSERT_NOT_NULL(qp, "");
	TEST_ASSERT_SUCCESS(fv_qp_connect(qp, qp->qp_num), "");
	TEST_ASSERT_EQUAL(fv_mkey_layout(qp, mk, true), TEST_SUCCESS, "");
	TEST_ASSERT_EQUAL(fv_send_via(qp, mk->lkey, sizeof(want), &st),
			  TEST_SUCCESS, "");
	TEST_ASSERT_EQUAL(st, IBV_WC_SUCCESS, "");
	TEST_ASSERT(memcmp(buf + 1024, want, sizeof(want)) == 0,
		    "repetition by repetition, at the strides");
	TEST_ASSERT_SUCCESS(ibv_destroy_qp(qp), "");
	/*
	 * libmlx5's refusals at wr_complete (nothing posted): more entries
	 * than the key has (4) though the inline room holds them; a data
	 * segment in an mkey WQE.
	 */
	qp = fv_dv_qp_inline(MLX5DV_QP_EX_WITH_MKEY_CONFIGURE, 512);
	TEST_ASSERT_NOT_NULL(qp, "");
	TEST_ASSERT_SUCCESS(fv_qp_connect(qp, qp->qp_num), "");
	x = ibv_qp_to_qp_ex(qp);
	dx = mlx5dv_qp_ex_from_ibv_qp_ex(x);
	for (i = 0; i < 5; i++) {
		sg[i].addr = (uintptr_t)buf + 2048 + 8 * i;
		sg[i].length = 8;
		sg[i].lkey = mr->lkey;
	}
	ibv_wr_start(x);
	x->wr_flags = IBV_SEND_SIGNALED | IBV_SEND_INLINE;
	mlx5dv_wr_mkey_configure(dx, mk, 1, &conf);
	mlx5dv_wr_set_mkey_layout_list(dx, 5, sg);
	TEST_ASSERT_EQUAL(ibv_wr_complete(x), ENOMEM, "5 entries, the key 4");
	ibv_wr_start(x);
	x->wr_flags = IBV_SEND_SIGNALED | IBV_SEND_INLINE;
	mlx5dv_wr_mkey_configure(dx, mk, 2, &conf);
	ibv_wr_set_sge(x, mr->lkey, (uintptr_t)buf, 8);
	mlx5dv_wr_set_mkey_layout_list(dx, 2, sg);
	TEST_ASSERT_EQUAL(ibv_wr_complete(x), EINVAL, "data in an mkey WQE");
	TEST_ASSERT_EQUAL(fv_poll(cq, wc, 1, 50), 0, "nothing posted");
	TEST_ASSERT_SUCCESS(ibv_destroy_qp(qp), "");
	TEST_ASSERT_SUCCESS(mlx5dv_destroy_mkey(mk), "");
	return TEST_SUCCESS;
}

/*
 * Invalidation: a local invalidation (IBV_WR_LOCAL_INV, a UMR freeing the
 * key) completes as IBV_WC_LOCAL_INV and the key then translates nothing;
 * a SEND with invalidate frees the responder's key when the key was made
 * with remote invalidation (the receive says IBV_WC_WITH_INV and the
 * key), and is the request's error for a key without it (requester
 * REM_INV_REQ_ERR, responder LOC_PROT_ERR).
 */
static int
test_dv_mkey_invalidate(void)
{
	struct mlx5dv_mkey_init_attr ma = {
		.pd = pd,
		.create_flags = MLX5DV_MKEY_INIT_ATTR_FLAGS_INDIRECT |
				MLX5DV_MKEY_INIT_ATTR_FLAGS_REMOTE_INVALIDATE,
		.max_entries = 4,
	};
	struct ibv_send_wr wr = { .wr_id = 9,
				  .opcode = IBV_WR_LOCAL_INV,
				  .send_flags = IBV_SEND_SIGNALED };
	enum ibv_wc_status st;
	struct ibv_send_wr *bad;
	struct mlx5dv_mkey *mk;
	struct ibv_wc wc[2];
	struct ibv_qp *qp;
	int i;

	qp = fv_dv_qp(MLX5DV_QP_EX_WITH_MR_LIST);
	TEST_ASSERT_NOT_NULL(qp, "");
	TEST_ASSERT_SUCCESS(fv_qp_connect(qp, qp->qp_num), "");
	mk = mlx5dv_create_mkey(&ma);
	TEST_ASSERT_NOT_NULL(mk, "");
	TEST_ASSERT_EQUAL(fv_mkey_layout(qp, mk, false), TEST_SUCCESS, "");
	wr.invalidate_rkey = mk->lkey;
	TEST_ASSERT_SUCCESS(ibv_post_send(qp, &wr, &bad), "");
	TEST_ASSERT_EQUAL(fv_poll(cq, wc, 1, 1000), 1, "");
	TEST_ASSERT(wc[0].status == IBV_WC_SUCCESS &&
			    wc[0].opcode == IBV_WC_LOCAL_INV &&
			    wc[0].wr_id == 9,
		    "a local invalidation");
	TEST_ASSERT_EQUAL(fv_send_via(qp, mk->lkey, 8, &st), TEST_SUCCESS, "");
	TEST_ASSERT_EQUAL(st, IBV_WC_LOC_PROT_ERR, "the key is free");
	TEST_ASSERT_SUCCESS(ibv_destroy_qp(qp), "");
	/* Valid again by a UMR, then freed by the peer's message. */
	qp = fv_dv_qp(MLX5DV_QP_EX_WITH_MR_LIST);
	TEST_ASSERT_NOT_NULL(qp, "");
	TEST_ASSERT_SUCCESS(fv_qp_connect(qp, qp->qp_num), "");
	TEST_ASSERT_EQUAL(fv_mkey_layout(qp, mk, false), TEST_SUCCESS, "");
	TEST_ASSERT_SUCCESS(fv_post_recv(qp, 1024, 64), "");
	wr.opcode = IBV_WR_SEND_WITH_INV;
	wr.invalidate_rkey = mk->rkey;
	TEST_ASSERT_SUCCESS(ibv_post_send(qp, &wr, &bad), "");
	TEST_ASSERT_EQUAL(fv_poll(cq, wc, 2, 1000), 2, "");
	i = wc[0].opcode == IBV_WC_RECV ? 0 : 1;
	TEST_ASSERT(wc[i].status == IBV_WC_SUCCESS &&
			    wc[i].opcode == IBV_WC_RECV &&
			    (wc[i].wc_flags & IBV_WC_WITH_INV) &&
			    wc[i].invalidated_rkey == mk->rkey,
		    "the receive names the key it freed");
	TEST_ASSERT_EQUAL(fv_send_via(qp, mk->lkey, 8, &st), TEST_SUCCESS, "");
	TEST_ASSERT_EQUAL(st, IBV_WC_LOC_PROT_ERR, "the key is free");
	TEST_ASSERT_SUCCESS(ibv_destroy_qp(qp), "");
	/* An MR's key was not made for remote invalidation. */
	qp = fv_qp(IBV_QPT_RC);
	TEST_ASSERT_NOT_NULL(qp, "");
	TEST_ASSERT_SUCCESS(fv_post_recv(qp, 1024, 64), "");
	wr.invalidate_rkey = mr->rkey;
	TEST_ASSERT_SUCCESS(ibv_post_send(qp, &wr, &bad), "");
	TEST_ASSERT_EQUAL(fv_poll(cq, wc, 2, 1000), 2, "");
	i = wc[0].wr_id == 9 ? 0 : 1; /* Error completions: by wr_id. */
	TEST_ASSERT_EQUAL(wc[i].status, IBV_WC_REM_INV_REQ_ERR, "requester");
	TEST_ASSERT_EQUAL(wc[1 - i].status, IBV_WC_LOC_PROT_ERR, "responder");
	TEST_ASSERT_SUCCESS(ibv_destroy_qp(qp), "");
	TEST_ASSERT_SUCCESS(mlx5dv_destroy_mkey(mk), "");
	return TEST_SUCCESS;
}

/* One signalled atomic on @qp at buf + @off through @m: its completion. */
static int
fv_atomic(struct ibv_qp *qp, struct ibv_mr *m, enum ibv_wr_opcode op,
	  uint32_t off, uint64_t cmp_add, uint64_t swap, struct ibv_wc *wc)
{
	struct ibv_sge sg = { .addr = (uintptr_t)buf + 64,
			      .length = 8,
			      .lkey = m->lkey };
	struct ibv_send_wr wr = { .wr_id = off,
				  .sg_list = &sg,
				  .num_sge = 1,
				  .opcode = op,
				  .send_flags = IBV_SEND_SIGNALED };
	struct ibv_send_wr *bad;

	wr.wr.atomic.remote_addr = (uintptr_t)buf + off;
	wr.wr.atomic.rkey = m->rkey;
	wr.wr.atomic.compare_add = cmp_add;
	wr.wr.atomic.swap = swap;
	TEST_ASSERT_SUCCESS(ibv_post_send(qp, &wr, &bad), "");
	TEST_ASSERT_EQUAL(fv_poll(cq, wc, 1, 1000), 1, "");
	return TEST_SUCCESS;
}

/*
 * RC atomics: fetch and add and compare and swap on 8 bytes of host byte
 * order (the device set to host endianness, as mlx5_core sets it), the
 * original value in the requester's buffer, the completion's opcode and
 * 8 bytes; a remote address not 8-byte aligned is an invalid request; a
 * QP without remote atomic enabled refuses them (remote access error),
 * the memory untouched.
 */
static int
test_rc_atomics(void)
{
	struct ibv_qp_attr qa = { .qp_access_flags = IBV_ACCESS_REMOTE_WRITE |
						     IBV_ACCESS_REMOTE_ATOMIC };
	uint64_t *remote = (uint64_t *)(void *)(buf + 4096);
	uint64_t *local = (uint64_t *)(void *)(buf + 64);
	struct ibv_device_attr da;
	struct ibv_qp *qp;
	struct ibv_mr *am;
	struct ibv_wc wc;

	TEST_ASSERT_SUCCESS(ibv_query_device(ctx, &da), "");
	TEST_ASSERT_EQUAL(da.atomic_cap, IBV_ATOMIC_HCA, "host-endian atomics");
	am = ibv_reg_mr(pd, buf, FV_BUF,
			IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
				IBV_ACCESS_REMOTE_ATOMIC);
	TEST_ASSERT_NOT_NULL(am, "");
	qp = fv_qp(IBV_QPT_RC);
	TEST_ASSERT_NOT_NULL(qp, "");
	TEST_ASSERT_SUCCESS(ibv_modify_qp(qp, &qa, IBV_QP_ACCESS_FLAGS), "");
	*remote = 40;
	TEST_ASSERT_EQUAL(fv_atomic(qp, am, IBV_WR_ATOMIC_FETCH_AND_ADD, 4096,
				    0x100000002ull, 0, &wc),
			  TEST_SUCCESS, "");
	TEST_ASSERT(wc.status == IBV_WC_SUCCESS &&
			    wc.opcode == IBV_WC_FETCH_ADD && wc.byte_len == 8,
		    "");
	TEST_ASSERT(*local == 40 && *remote == 0x10000002aull, "added");
	TEST_ASSERT_EQUAL(
		fv_atomic(qp, am, IBV_WR_ATOMIC_CMP_AND_SWP, 4096, 41, 7, &wc),
		TEST_SUCCESS, "");
	TEST_ASSERT(wc.status == IBV_WC_SUCCESS &&
			    wc.opcode == IBV_WC_COMP_SWAP,
		    "");
	TEST_ASSERT(*local == 0x10000002aull && *remote == 0x10000002aull,
		    "not equal: not swapped");
	TEST_ASSERT_EQUAL(fv_atomic(qp, am, IBV_WR_ATOMIC_CMP_AND_SWP, 4096,
				    0x10000002aull, 7, &wc),
			  TEST_SUCCESS, "");
	TEST_ASSERT(*local == 0x10000002aull && *remote == 7, "swapped");
	TEST_ASSERT_EQUAL(
		fv_atomic(qp, am, IBV_WR_ATOMIC_FETCH_AND_ADD, 4100, 1, 0, &wc),
		TEST_SUCCESS, "");
	TEST_ASSERT_EQUAL(wc.status, IBV_WC_REM_INV_REQ_ERR, "misaligned");
	TEST_ASSERT_SUCCESS(ibv_destroy_qp(qp), "");
	/* No remote atomic on the QP. */
	qp = fv_qp(IBV_QPT_RC);
	TEST_ASSERT_NOT_NULL(qp, "");
	TEST_ASSERT_EQUAL(
		fv_atomic(qp, am, IBV_WR_ATOMIC_FETCH_AND_ADD, 4096, 1, 0, &wc),
		TEST_SUCCESS, "");
	TEST_ASSERT_EQUAL(wc.status, IBV_WC_REM_ACCESS_ERR, "");
	TEST_ASSERT_EQUAL(*remote, 7, "untouched");
	TEST_ASSERT_SUCCESS(ibv_destroy_qp(qp), "");
	TEST_ASSERT_SUCCESS(ibv_dereg_mr(am), "");
	return TEST_SUCCESS;
}

/* An 8-byte RDMA WRITE on @qp to @raddr under @rkey: its status. */
static int
fv_write_status(struct ibv_qp *qp, uint32_t rkey, uint64_t raddr,
		enum ibv_wc_status *st)
{
	struct ibv_sge sg = { .addr = (uintptr_t)buf,
			      .length = 8,
			      .lkey = mr->lkey };
	struct ibv_send_wr wr = { .wr_id = 0x77,
				  .sg_list = &sg,
				  .num_sge = 1,
				  .opcode = IBV_WR_RDMA_WRITE,
				  .send_flags = IBV_SEND_SIGNALED };
	struct ibv_send_wr *bad;
	struct ibv_wc wc;

	wr.wr.rdma.rkey = rkey;
	wr.wr.rdma.remote_addr = raddr;
	TEST_ASSERT_SUCCESS(ibv_post_send(qp, &wr, &bad), "");
	TEST_ASSERT_EQUAL(fv_poll(cq, &wc, 1, 1000), 1, "");
	*st = wc.status;
	return TEST_SUCCESS;
}

/* A type 2 bind (or, @len 0, an unbind) posted on @qp: its status. */
static int
fv_bind2(struct ibv_qp *qp, struct ibv_mw *mw, uint32_t rkey, uint32_t len,
	 enum ibv_wc_status *st)
{
	struct ibv_send_wr wr = { .wr_id = 0x88,
				  .opcode = IBV_WR_BIND_MW,
				  .send_flags = IBV_SEND_SIGNALED };
	struct ibv_send_wr *bad;
	struct ibv_wc wc;

	wr.bind_mw.mw = mw;
	wr.bind_mw.rkey = rkey;
	wr.bind_mw.bind_info.mr = len != 0 ? mr : NULL;
	wr.bind_mw.bind_info.addr = len != 0 ? (uintptr_t)buf + 4096 : 0;
	wr.bind_mw.bind_info.length = len;
	wr.bind_mw.bind_info.mw_access_flags = IBV_ACCESS_REMOTE_WRITE;
	TEST_ASSERT_SUCCESS(ibv_post_send(qp, &wr, &bad), "");
	TEST_ASSERT_EQUAL(fv_poll(cq, &wc, 1, 1000), 1, "");
	TEST_ASSERT(wc.status != IBV_WC_SUCCESS || wc.opcode == IBV_WC_BIND_MW,
		    "");
	*st = wc.status;
	return TEST_SUCCESS;
}

/*
 * Memory windows (IBTA 10.6.7; mlx5 binds by UMR): a type 1 window bound
 * by ibv_bind_mw() opens 256 bytes of the MR to RDMA WRITE under its new
 * key, nothing outside them, and a bind of length 0 closes it; a type 2
 * window bound by a work request serves its own QP only, is not bound
 * again while bound, is invalidated only by its QP (a local invalidation
 * from another is refused), and is gone with its deallocation.
 */
static int
test_memory_windows(void)
{
	struct ibv_mw_bind b = { .wr_id = 0x99,
				 .send_flags = IBV_SEND_SIGNALED,
				 .bind_info = {
					 .mr = mr,
					 .addr = (uintptr_t)buf + 4096,
					 .length = 256,
					 .mw_access_flags =
						 IBV_ACCESS_REMOTE_WRITE,
				 } };
	struct ibv_send_wr inv = { .opcode = IBV_WR_LOCAL_INV,
				   .send_flags = IBV_SEND_SIGNALED };
	uint64_t win = (uintptr_t)buf + 4096;
	struct ibv_qp *qp, *x, *y;
	enum ibv_wc_status st;
	struct ibv_send_wr *bad;
	struct ibv_wc wc, wcs[2];
	struct ibv_mw *mw;
	uint32_t key;

	qp = fv_qp(IBV_QPT_RC);
	TEST_ASSERT_NOT_NULL(qp, "");
	mw = ibv_alloc_mw(pd, IBV_MW_TYPE_1);
	TEST_ASSERT_NOT_NULL(mw, "");
	TEST_ASSERT(ibv_alloc_mw(pd, (enum ibv_mw_type)3) == NULL &&
			    errno == EINVAL,
		    "type 3: EINVAL");
	key = mw->rkey;
	TEST_ASSERT_SUCCESS(ibv_bind_mw(qp, mw, &b), "");
	TEST_ASSERT_EQUAL(mw->rkey, ibv_inc_rkey(key), "a new key");
	TEST_ASSERT_EQUAL(fv_poll(cq, &wc, 1, 1000), 1, "");
	TEST_ASSERT(wc.status == IBV_WC_SUCCESS &&
			    wc.opcode == IBV_WC_BIND_MW && wc.wr_id == 0x99,
		    "");
	memset(buf, 0x5e, 8);
	memset(buf + 4096, 0, 256);
	TEST_ASSERT_EQUAL(fv_write_status(qp, mw->rkey, win + 248, &st),
			  TEST_SUCCESS, "");
	TEST_ASSERT_EQUAL(st, IBV_WC_SUCCESS, "inside the window");
	TEST_ASSERT_EQUAL(buf[4096 + 248], 0x5e, "");
	TEST_ASSERT_EQUAL(fv_write_status(qp, mw->rkey, win + 252, &st),
			  TEST_SUCCESS, "");
	TEST_ASSERT_EQUAL(st, IBV_WC_REM_ACCESS_ERR, "past its end");
	TEST_ASSERT_SUCCESS(ibv_destroy_qp(qp), "");
	qp = fv_qp(IBV_QPT_RC);
	TEST_ASSERT_NOT_NULL(qp, "");
	b.bind_info.length = 0;
	b.bind_info.addr = 0;
	b.bind_info.mr = NULL;
	TEST_ASSERT_SUCCESS(ibv_bind_mw(qp, mw, &b), "unbind");
	TEST_ASSERT_EQUAL(fv_poll(cq, &wc, 1, 1000), 1, "");
	TEST_ASSERT_EQUAL(fv_write_status(qp, mw->rkey, win, &st), TEST_SUCCESS,
			  "");
	TEST_ASSERT_EQUAL(st, IBV_WC_REM_ACCESS_ERR, "unbound");
	TEST_ASSERT_SUCCESS(ibv_destroy_qp(qp), "");
	TEST_ASSERT_SUCCESS(ibv_dealloc_mw(mw), "");
	/* Type 2: bound to the QP that posts the bind. */
	qp = fv_qp(IBV_QPT_RC);
	x = fv_qp_create(IBV_QPT_RC);
	y = fv_qp_create(IBV_QPT_RC);
	TEST_ASSERT(qp != NULL && x != NULL && y != NULL, "");
	TEST_ASSERT_SUCCESS(fv_qp_connect(x, y->qp_num), "");
	TEST_ASSERT_SUCCESS(fv_qp_connect(y, x->qp_num), "");
	mw = ibv_alloc_mw(pd, IBV_MW_TYPE_2);
	TEST_ASSERT_NOT_NULL(mw, "");
	key = ibv_inc_rkey(mw->rkey);
	TEST_ASSERT_EQUAL(fv_bind2(qp, mw, key, 256, &st), TEST_SUCCESS, "");
	TEST_ASSERT_EQUAL(st, IBV_WC_SUCCESS, "");
	TEST_ASSERT_EQUAL(fv_write_status(qp, key, win, &st), TEST_SUCCESS, "");
	TEST_ASSERT_EQUAL(st, IBV_WC_SUCCESS, "through its own QP");
	TEST_ASSERT_EQUAL(fv_write_status(x, key, win, &st), TEST_SUCCESS, "");
	TEST_ASSERT_EQUAL(st, IBV_WC_REM_ACCESS_ERR, "another QP's responder");
	TEST_ASSERT_EQUAL(fv_bind2(qp, mw, ibv_inc_rkey(key), 256, &st),
			  TEST_SUCCESS, "");
	TEST_ASSERT_EQUAL(st, IBV_WC_MW_BIND_ERR, "bound: not bound again");
	/* y, alive and numbered apart from qp (qp's responder kept it). */
	inv.invalidate_rkey = key;
	TEST_ASSERT_SUCCESS(ibv_post_send(y, &inv, &bad), "");
	TEST_ASSERT_EQUAL(fv_poll(cq, &wc, 1, 1000), 1, "");
	TEST_ASSERT_EQUAL(wc.status, IBV_WC_MW_BIND_ERR,
			  "invalidated by another QP: refused");
	/* Nor remotely through another responder QP. */
	TEST_ASSERT_SUCCESS(ibv_destroy_qp(x), "");
	TEST_ASSERT_SUCCESS(ibv_destroy_qp(y), "");
	x = fv_qp_create(IBV_QPT_RC);
	y = fv_qp_create(IBV_QPT_RC);
	TEST_ASSERT(x != NULL && y != NULL, "");
	TEST_ASSERT_SUCCESS(fv_qp_connect(x, y->qp_num), "");
	TEST_ASSERT_SUCCESS(fv_qp_connect(y, x->qp_num), "");
	TEST_ASSERT_SUCCESS(fv_post_recv(y, 1024, 64), "");
	inv.opcode = IBV_WR_SEND_WITH_INV;
	inv.invalidate_rkey = key;
	TEST_ASSERT_SUCCESS(ibv_post_send(x, &inv, &bad), "");
	TEST_ASSERT_EQUAL(fv_poll(cq, wcs, 2, 1000), 2, "");
	TEST_ASSERT(wcs[0].status != IBV_WC_SUCCESS &&
			    wcs[1].status != IBV_WC_SUCCESS,
		    "a window bound to another QP: the request's error");
	TEST_ASSERT_SUCCESS(ibv_destroy_qp(qp), "");
	TEST_ASSERT_SUCCESS(ibv_dealloc_mw(mw), "");
	TEST_ASSERT_SUCCESS(ibv_destroy_qp(x), "");
	TEST_ASSERT_SUCCESS(ibv_destroy_qp(y), "");
	return TEST_SUCCESS;
}

/* A receive of @len bytes at buf + @off posted to @srq (wr_id @off). */
static int
fv_post_srq(struct ibv_srq *srq, uint32_t off, uint32_t len)
{
	struct ibv_sge sg = { .addr = (uintptr_t)buf + off,
			      .length = len,
			      .lkey = mr->lkey };
	struct ibv_recv_wr wr = { .wr_id = off, .sg_list = &sg, .num_sge = 1 };
	struct ibv_recv_wr *bad;

	return ibv_post_srq_recv(srq, &wr, &bad);
}

/* An RC QP on the case's CQ receiving through @srq, connected to itself. */
static struct ibv_qp *
fv_srq_qp(struct ibv_srq *srq)
{
	struct ibv_qp_init_attr ia = {
		.send_cq = cq,
		.recv_cq = cq,
		.srq = srq,
		.qp_type = IBV_QPT_RC,
		.cap = { .max_send_wr = 8, .max_send_sge = 1 },
	};
	struct ibv_qp_attr a = { .qp_state = IBV_QPS_INIT,
				 .port_num = 1,
				 .qp_access_flags = IBV_ACCESS_REMOTE_WRITE };
	struct ibv_qp *qp = ibv_create_qp(pd, &ia);

	if (qp == NULL)
		return NULL;
	if (ibv_modify_qp(qp, &a,
			  IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT |
				  IBV_QP_ACCESS_FLAGS) != 0 ||
	    fv_qp_connect(qp, qp->qp_num) != 0) {
		ibv_destroy_qp(qp);
		return NULL;
	}
	return qp;
}

/* A SEND of 8 bytes on @qp to itself; its receive's completion in @rx. */
static int
fv_srq_send(struct ibv_qp *qp, struct ibv_wc *rx)
{
	struct ibv_wc wc[2];

	TEST_ASSERT_SUCCESS(fv_send(qp, IBV_WR_SEND, 0, 8, NULL, 0, 0), "");
	TEST_ASSERT_EQUAL(fv_poll(cq, wc, 2, 1000), 2, "");
	*rx = wc[0].opcode == IBV_WC_RECV ? wc[0] : wc[1];
	TEST_ASSERT_EQUAL(rx->opcode, IBV_WC_RECV, "");
	return TEST_SUCCESS;
}

/*
 * Shared receive queues (IBTA 10.2.9; libmlx5's linked list of WQEs, an
 * RMP on the device): two QPs take the SRQ's receives in posting order,
 * each completion naming its QP and the receive's wr_id; the SRQ holds
 * max_wr receives (one more is ENOMEM) and gets each back once its
 * completion is polled, or taken out of the CQ when its QP is destroyed;
 * a QP in ERR does not flush the SRQ's receives; an SRQ in use cannot be
 * destroyed (EBUSY); one of max_wr 0 is made (one WQE, no room).
 */
static int
test_srq(void)
{
	struct ibv_srq_init_attr sa = { .attr = { .max_wr = 3, .max_sge = 1 } };
	struct ibv_qp_attr err = { .qp_state = IBV_QPS_ERR };
	struct ibv_qp *a, *b;
	struct ibv_srq *srq;
	struct ibv_cq *spare;
	struct ibv_wc rx;
	uint32_t i, max;

	srq = ibv_create_srq(pd, &sa);
	TEST_ASSERT_NOT_NULL(srq, "");
	spare = ibv_create_cq(ctx, 4, NULL, NULL, 0);
	TEST_ASSERT_NOT_NULL(spare, "");
	max = sa.attr.max_wr;
	TEST_ASSERT(max >= 3, "%u receives", max);
	a = fv_srq_qp(srq);
	b = fv_srq_qp(srq);
	TEST_ASSERT(a != NULL && b != NULL, "");
	TEST_ASSERT_EQUAL(ibv_destroy_srq(srq), EBUSY, "QPs use it");
	memset(buf, 0x6b, 8);
	for (i = 0; i < max; i++)
		TEST_ASSERT_SUCCESS(fv_post_srq(srq, 1024 + 64 * i, 64), "");
	TEST_ASSERT_EQUAL(fv_post_srq(srq, 3072, 64), ENOMEM, "full");
	TEST_ASSERT_EQUAL(fv_srq_send(a, &rx), TEST_SUCCESS, "");
	TEST_ASSERT(rx.status == IBV_WC_SUCCESS && rx.qp_num == a->qp_num &&
			    rx.wr_id == 1024 && rx.byte_len == 8,
		    "a takes the first");
	TEST_ASSERT_EQUAL(buf[1024], 0x6b, "");
	TEST_ASSERT_EQUAL(fv_srq_send(b, &rx), TEST_SUCCESS, "");
	TEST_ASSERT(rx.qp_num == b->qp_num && rx.wr_id == 1088, "b the second");
	/* Polled: their WQEs are the SRQ's again. */
	TEST_ASSERT_SUCCESS(fv_post_srq(srq, 3072, 64), "");
	TEST_ASSERT_SUCCESS(fv_post_srq(srq, 3136, 64), "");
	TEST_ASSERT_EQUAL(fv_post_srq(srq, 3200, 64), ENOMEM, "full again");
	/* a in ERR: nothing of the SRQ flushed; b takes the next. */
	TEST_ASSERT_SUCCESS(ibv_modify_qp(a, &err, IBV_QP_STATE), "");
	TEST_ASSERT_EQUAL(fv_poll(cq, &rx, 1, 50), 0, "no flush");
	TEST_ASSERT_EQUAL(fv_srq_send(b, &rx), TEST_SUCCESS, "");
	TEST_ASSERT_EQUAL(rx.wr_id, 1024 + 64 * 2, "in posting order");
	/* A completion left in the CQ: its WQE back when b goes. */
	TEST_ASSERT_SUCCESS(fv_post_srq(srq, 3200, 64), "");
	TEST_ASSERT_SUCCESS(fv_send(b, IBV_WR_SEND, 0, 8, NULL, 0, 0), "");
	/*
	 * Not polled: the SRQ's WQE stays taken (an empty poll of another
	 * CQ makes sure the device took the doorbell).
	 */
	TEST_ASSERT_EQUAL(ibv_poll_cq(spare, 1, &rx), 0, "");
	TEST_ASSERT_EQUAL(fv_post_srq(srq, 3264, 64), ENOMEM, "");
	TEST_ASSERT_SUCCESS(ibv_destroy_qp(b), "");
	TEST_ASSERT_SUCCESS(fv_post_srq(srq, 3264, 64), "its CQE cleaned");
	TEST_ASSERT_SUCCESS(ibv_destroy_qp(a), "");
	TEST_ASSERT_SUCCESS(ibv_destroy_srq(srq), "");
	TEST_ASSERT_SUCCESS(ibv_destroy_cq(spare), "");
	/* max_wr 0 (pyverbs' default): one WQE, no room (libmlx5's). */
	memset(&sa, 0, sizeof(sa));
	srq = ibv_create_srq(pd, &sa);
	TEST_ASSERT_NOT_NULL(srq, "max_wr 0");
	TEST_ASSERT_EQUAL(sa.attr.max_wr, 0, "");
	TEST_ASSERT_EQUAL(fv_post_srq(srq, 1024, 0), ENOMEM, "");
	TEST_ASSERT_SUCCESS(ibv_destroy_srq(srq), "");
	return TEST_SUCCESS;
}

/*
 * libmlx5: nothing posted to a QP in RESET: a receive is EINVAL, a send
 * ENOMEM (its gather limit is -1 until RTS).
 */
static int
test_post_in_reset(void)
{
	struct ibv_qp_init_attr ia = {
		.send_cq = cq,
		.recv_cq = cq,
		.qp_type = IBV_QPT_RC,
		.cap = { .max_send_wr = 4,
			 .max_recv_wr = 4,
			 .max_send_sge = 1,
			 .max_recv_sge = 1 },
	};
	struct ibv_qp *qp = ibv_create_qp(pd, &ia);

	TEST_ASSERT_NOT_NULL(qp, "");
	TEST_ASSERT_EQUAL(fv_post_recv(qp, 0, 64), EINVAL, "receive");
	TEST_ASSERT_EQUAL(fv_send(qp, IBV_WR_SEND, 0, 8, NULL, 0, 0), ENOMEM,
			  "send");
	TEST_ASSERT_SUCCESS(ibv_destroy_qp(qp), "");
	return TEST_SUCCESS;
}

/*
 * Completion events: a CQ on a channel, armed, raises one event at its
 * next CQE (the fd readable, the CQ and its context handed out); not
 * armed again, another CQE raises none; armed with a CQE already waiting,
 * at once; armed for solicited completions only, a plain SEND's receive
 * raises none and a solicited one's does.
 */
static int
test_cq_events(void)
{
	struct ibv_comp_channel *ch = ibv_create_comp_channel(ctx);
	struct ibv_sge sg = { 0 };
	struct ibv_send_wr sol = { .sg_list = &sg,
				   .num_sge = 1,
				   .opcode = IBV_WR_SEND,
				   .send_flags = IBV_SEND_SIGNALED |
						 IBV_SEND_SOLICITED };
	struct ibv_send_wr *bad;
	struct pollfd pfd;
	struct ibv_cq *ecq, *got, *own;
	struct ibv_qp *qp;
	struct ibv_wc wc;
	void *cq_ctx;

	TEST_ASSERT_NOT_NULL(ch, "");
	ecq = ibv_create_cq(ctx, 16, &pfd, ch, 0);
	TEST_ASSERT_NOT_NULL(ecq, "");
	TEST_ASSERT_EQUAL(ibv_destroy_comp_channel(ch), EBUSY, "in use");
	pfd.fd = ch->fd;
	pfd.events = POLLIN;
	TEST_ASSERT_SUCCESS(ibv_req_notify_cq(ecq, 0), "");
	TEST_ASSERT_EQUAL(poll(&pfd, 1, 0), 0, "no event yet");
	/* A QP completing there: a SEND to itself. */
	own = cq;
	cq = ecq;
	qp = fv_qp(IBV_QPT_RC);
	cq = own;
	TEST_ASSERT_NOT_NULL(qp, "");
	TEST_ASSERT_SUCCESS(fv_post_recv(qp, 1024, 64), "");
	TEST_ASSERT_SUCCESS(fv_send(qp, IBV_WR_SEND, 0, 8, NULL, 0, 0), "");
	TEST_ASSERT_EQUAL(poll(&pfd, 1, 1000), 1, "an event");
	TEST_ASSERT_SUCCESS(ibv_get_cq_event(ch, &got, &cq_ctx), "");
	TEST_ASSERT(got == ecq && cq_ctx == &pfd, "its CQ and context");
	ibv_ack_cq_events(got, 1);
	TEST_ASSERT_EQUAL(fv_poll(ecq, &wc, 1, 1000), 1, "");
	/* The second CQE (not armed): no event. */
	TEST_ASSERT_EQUAL(poll(&pfd, 1, 100), 0, "one event per arming");
	TEST_ASSERT_SUCCESS(ibv_req_notify_cq(ecq, 0), "armed again");
	TEST_ASSERT_EQUAL(poll(&pfd, 1, 1000), 1, "a CQE waiting: at once");
	TEST_ASSERT_SUCCESS(ibv_get_cq_event(ch, &got, &cq_ctx), "");
	ibv_ack_cq_events(got, 1);
	/* Solicited only: no event for a plain SEND, one for a solicited. */
	TEST_ASSERT_EQUAL(fv_poll(ecq, &wc, 1, 1000), 1, "");
	TEST_ASSERT_SUCCESS(ibv_req_notify_cq(ecq, 1), "");
	TEST_ASSERT_SUCCESS(fv_post_recv(qp, 1024, 64), "");
	TEST_ASSERT_SUCCESS(fv_send(qp, IBV_WR_SEND, 0, 8, NULL, 0, 0), "");
	TEST_ASSERT_EQUAL(fv_poll(ecq, &wc, 1, 1000), 1, "");
	TEST_ASSERT_EQUAL(fv_poll(ecq, &wc, 1, 1000), 1, "");
	TEST_ASSERT_EQUAL(poll(&pfd, 1, 100), 0, "not solicited: no event");
	TEST_ASSERT_SUCCESS(fv_post_recv(qp, 1024, 64), "");
	sg.addr = (uintptr_t)buf;
	sg.length = 8;
	sg.lkey = mr->lkey;
	TEST_ASSERT_SUCCESS(ibv_post_send(qp, &sol, &bad), "");
	TEST_ASSERT_EQUAL(poll(&pfd, 1, 1000), 1, "solicited: an event");
	TEST_ASSERT_SUCCESS(ibv_get_cq_event(ch, &got, &cq_ctx), "");
	ibv_ack_cq_events(got, 1);
	TEST_ASSERT_EQUAL(fv_poll(ecq, &wc, 1, 1000), 1, "");
	TEST_ASSERT_EQUAL(fv_poll(ecq, &wc, 1, 1000), 1, "");
	TEST_ASSERT_SUCCESS(ibv_destroy_qp(qp), "");
	TEST_ASSERT_SUCCESS(ibv_destroy_cq(ecq), "");
	TEST_ASSERT_SUCCESS(ibv_destroy_comp_channel(ch), "");
	return TEST_SUCCESS;
}

/* A thread that acknowledges one event of a CQ after a while. */
struct fv_acker {
	struct ibv_cq *cq;
	int acked;
};

static void *
fv_ack_later(void *arg)
{
	struct fv_acker *k = arg;
	struct timespec ts = { .tv_nsec = 100 * 1000 * 1000 };

	nanosleep(&ts, NULL);
	__atomic_store_n(&k->acked, 1, __ATOMIC_RELEASE);
	ibv_ack_cq_events(k->cq, 1);
	return NULL;
}

/* The channel's fd readable now (0 or 1). */
static int
fv_readable(struct ibv_comp_channel *ch)
{
	struct pollfd pfd = { .fd = ch->fd, .events = POLLIN };

	return poll(&pfd, 1, 0);
}

/* One CQE on @c, armed before: its event queued on the channel. */
static int
fv_cq_event_raise(struct ibv_cq *c, struct ibv_qp *qp)
{
	struct ibv_wc wc;

	TEST_ASSERT_SUCCESS(ibv_req_notify_cq(c, 0), "");
	TEST_ASSERT_SUCCESS(fv_post_recv(qp, 1024, 64), "");
	TEST_ASSERT_SUCCESS(fv_send(qp, IBV_WR_SEND, 0, 8, NULL, 0, 0), "");
	/* Both completions there (the event came with the first). */
	TEST_ASSERT_EQUAL(fv_poll(c, &wc, 1, 1000), 1, "");
	TEST_ASSERT_EQUAL(fv_poll(c, &wc, 1, 1000), 1, "");
	return TEST_SUCCESS;
}

/*
 * A CQ destroyed with events on its channel (libibverbs and the kernel):
 * those not read go with it, the other CQ's stay, in order, and the fd is
 * readable exactly while one waits; one read and not acknowledged makes
 * the destroy wait for the acknowledgement.
 */
static int
test_cq_destroy_events(void)
{
	struct ibv_comp_channel *ch = ibv_create_comp_channel(ctx);
	struct ibv_cq *ca, *cb, *got, *own = cq;
	struct ibv_qp *qa, *qb;
	struct fv_acker k = { 0 };
	pthread_t t;
	void *cctx;
	int fl;

	TEST_ASSERT_NOT_NULL(ch, "");
	ca = ibv_create_cq(ctx, 16, NULL, ch, 0);
	cb = ibv_create_cq(ctx, 16, NULL, ch, 0);
	TEST_ASSERT(ca != NULL && cb != NULL, "");
	cq = ca;
	qa = fv_qp(IBV_QPT_RC);
	cq = cb;
	qb = fv_qp(IBV_QPT_RC);
	cq = own;
	TEST_ASSERT(qa != NULL && qb != NULL, "");
	/* Events: a, b, a. */
	TEST_ASSERT_EQUAL(fv_cq_event_raise(ca, qa), TEST_SUCCESS, "");
	TEST_ASSERT_EQUAL(fv_cq_event_raise(cb, qb), TEST_SUCCESS, "");
	TEST_ASSERT_EQUAL(fv_cq_event_raise(ca, qa), TEST_SUCCESS, "");
	TEST_ASSERT_EQUAL(fv_readable(ch), 1, "");
	TEST_ASSERT_EQUAL(ibv_destroy_cq(ca), EBUSY, "a QP uses it");
	TEST_ASSERT_EQUAL(fv_readable(ch), 1, "a refused destroy drops none");
	TEST_ASSERT_SUCCESS(ibv_destroy_qp(qa), "");
	TEST_ASSERT_SUCCESS(ibv_destroy_cq(ca), "unread events: no wait");
	TEST_ASSERT_EQUAL(fv_readable(ch), 1, "b's event stays");
	TEST_ASSERT_SUCCESS(ibv_get_cq_event(ch, &got, &cctx), "");
	TEST_ASSERT(got == cb, "b's, not the destroyed CQ's");
	ibv_ack_cq_events(got, 1);
	TEST_ASSERT_EQUAL(fv_readable(ch), 0, "nothing waits");
	fl = fcntl(ch->fd, F_GETFL);
	TEST_ASSERT_SUCCESS(fcntl(ch->fd, F_SETFL, fl | O_NONBLOCK), "");
	TEST_ASSERT(ibv_get_cq_event(ch, &got, &cctx) != 0 && errno == EAGAIN,
		    "non-blocking, none: EAGAIN");
	/* Read, acknowledged only later: the destroy waits. */
	TEST_ASSERT_EQUAL(fv_cq_event_raise(cb, qb), TEST_SUCCESS, "");
	TEST_ASSERT_SUCCESS(ibv_get_cq_event(ch, &got, &cctx), "");
	TEST_ASSERT(got == cb, "");
	TEST_ASSERT_SUCCESS(ibv_destroy_qp(qb), "");
	k.cq = cb;
	TEST_ASSERT_SUCCESS(pthread_create(&t, NULL, fv_ack_later, &k), "");
	TEST_ASSERT_SUCCESS(ibv_destroy_cq(cb), "");
	TEST_ASSERT_EQUAL(__atomic_load_n(&k.acked, __ATOMIC_ACQUIRE), 1,
			  "the destroy waited for the acknowledgement");
	pthread_join(t, NULL);
	TEST_ASSERT_SUCCESS(ibv_destroy_comp_channel(ch), "");
	return TEST_SUCCESS;
}

/* A thread polling a CQ until told to stop: what it found. */
struct fv_poller {
	struct ibv_cq *cq;
	uint32_t keep_qpn; /* The QP whose work must all complete. */
	int stop;
	long kept, flushed, bad;
};

static void *
fv_poll_thread(void *arg)
{
	struct fv_poller *p = arg;
	struct ibv_wc wc[8];
	int i, n;

	while (!__atomic_load_n(&p->stop, __ATOMIC_ACQUIRE)) {
		n = ibv_poll_cq(p->cq, 8, wc);
		if (n < 0)
			__atomic_fetch_add(&p->bad, 1, __ATOMIC_RELAXED);
		for (i = 0; i < n; i++) {
			if (wc[i].qp_num == p->keep_qpn &&
			    wc[i].status == IBV_WC_SUCCESS)
				__atomic_fetch_add(&p->kept, 1,
						   __ATOMIC_RELEASE);
			else if (wc[i].status == IBV_WC_WR_FLUSH_ERR &&
				 wc[i].wr_id < 1024)
				__atomic_fetch_add(&p->flushed, 1,
						   __ATOMIC_RELAXED);
			else
				__atomic_fetch_add(&p->bad, 1,
						   __ATOMIC_RELAXED);
		}
	}
	return NULL;
}

/*
 * QPs destroyed while another thread polls their CQ (libmlx5 locks the
 * CQs over the destroy, then takes the QP's CQEs out): each QP has its
 * receives flushed (ERR) and is destroyed while a QP sharing the CQ
 * keeps sending to itself. Every completion polled is that QP's success
 * or a flush with a wr_id that was posted, all of the survivor's work
 * completes, and nothing of the destroyed QPs is left behind.
 */
static int
test_destroy_while_polling(void)
{
	struct fv_poller p = { .cq = cq };
	struct ibv_qp_attr err = { .qp_state = IBV_QPS_ERR };
	struct ibv_qp *keep = fv_qp(IBV_QPT_RC), *x;
	struct ibv_wc wc;
	long want;
	pthread_t t;
	int i, j;

	TEST_ASSERT_NOT_NULL(keep, "");
	p.keep_qpn = keep->qp_num;
	TEST_ASSERT_SUCCESS(pthread_create(&t, NULL, fv_poll_thread, &p), "");
	for (i = 0; i < 64; i++) {
		x = fv_qp_create(IBV_QPT_RC);
		TEST_ASSERT_NOT_NULL(x, "");
		for (j = 0; j < 4; j++)
			TEST_ASSERT_SUCCESS(
				fv_post_recv(x, 64 * (4 * j + (i & 3)), 8), "");
		TEST_ASSERT_SUCCESS(ibv_modify_qp(x, &err, IBV_QP_STATE), "");
		/* The survivor rings the context's doorbell page meanwhile. */
		TEST_ASSERT_SUCCESS(fv_post_recv(keep, 2048, 64), "");
		TEST_ASSERT_SUCCESS(
			fv_send(keep, IBV_WR_SEND, 3072, 8, NULL, 0, 0), "");
		TEST_ASSERT_SUCCESS(ibv_destroy_qp(x), "");
		want = 2L * (i + 1);
		for (j = 0; j < 1000 &&
			    __atomic_load_n(&p.kept, __ATOMIC_ACQUIRE) < want;
		     j++)
			nanosleep(&(struct timespec){ .tv_nsec = 1000000 },
				  NULL);
		TEST_ASSERT_EQUAL(__atomic_load_n(&p.kept, __ATOMIC_ACQUIRE),
				  want, "iteration %d: the survivor's work", i);
	}
	__atomic_store_n(&p.stop, 1, __ATOMIC_RELEASE);
	pthread_join(t, NULL);
	TEST_ASSERT_EQUAL(p.bad, 0, "completions of no posted work");
	TEST_ASSERT(p.flushed <= 64 * 4, "%ld flushes", p.flushed);
	TEST_ASSERT_EQUAL(fv_poll(cq, &wc, 1, 50), 0, "nothing left");
	TEST_ASSERT_SUCCESS(ibv_destroy_qp(keep), "");
	return TEST_SUCCESS;
}

/*
 * MR import: another handle of an MR of the same context, on its PD (the
 * same keys); on another PD refused (EINVAL); deregistered through the
 * imported handle, the MR is gone for its owner too.
 */
static int
test_import_mr(void)
{
	struct ibv_pd *other = ibv_alloc_pd(ctx);
	struct ibv_mr *own, *imr;
	long mrs0 = fv_live();

	TEST_ASSERT_NOT_NULL(other, "");
	own = ibv_reg_mr(pd, buf, 4096, IBV_ACCESS_LOCAL_WRITE);
	TEST_ASSERT_NOT_NULL(own, "");
	imr = ibv_import_mr(pd, own->handle);
	TEST_ASSERT_NOT_NULL(imr, "");
	TEST_ASSERT(imr->lkey == own->lkey && imr->length == own->length &&
			    imr->addr == own->addr,
		    "the same MR");
	TEST_ASSERT(ibv_import_mr(other, own->handle) == NULL &&
			    errno == EINVAL,
		    "on another PD");
	TEST_ASSERT_SUCCESS(ibv_dereg_mr(imr), "through the import");
	TEST_ASSERT_EQUAL(fv_live(), mrs0, "gone for everyone");
	TEST_ASSERT_SUCCESS(ibv_dereg_mr(own), "the owner's handle");
	TEST_ASSERT_SUCCESS(ibv_dealloc_pd(other), "");
	return TEST_SUCCESS;
}

/*
 * A CQ that compresses is not resized with CQEs pending (a session moved
 * slot by slot could wrap): EINVAL; once polled, it is.
 */
static int
fv_resize_compressed(void)
{
	struct ibv_cq_init_attr_ex ca = { .cqe = 16 };
	struct mlx5dv_cq_init_attr dca = {
		.comp_mask = MLX5DV_CQ_INIT_ATTR_MASK_COMPRESSED_CQE,
		.cqe_comp_res_format = MLX5DV_CQE_RES_FORMAT_HASH,
	};
	struct ibv_cq_ex *zx = mlx5dv_create_cq(ctx, &ca, &dca);
	struct ibv_cq *z;
	struct ibv_qp *qp;
	struct ibv_wc wc;

	TEST_ASSERT_NOT_NULL(zx, "a compressed CQ");
	z = ibv_cq_ex_to_cq(zx);
	qp = fv_qp_create_on(IBV_QPT_RC, z, z);
	TEST_ASSERT_NOT_NULL(qp, "");
	TEST_ASSERT_SUCCESS(fv_qp_connect(qp, qp->qp_num), "");
	TEST_ASSERT_SUCCESS(fv_send(qp, IBV_WR_RDMA_READ, 0, 8, NULL, 0, 0),
			    "");
	TEST_ASSERT_EQUAL(ibv_resize_cq(z, 64), EINVAL,
			  "a compressed CQ with a CQE pending");
	TEST_ASSERT_EQUAL(fv_poll(z, &wc, 1, 200), 1, "");
	TEST_ASSERT_SUCCESS(ibv_resize_cq(z, 64), "none pending");
	TEST_ASSERT_SUCCESS(ibv_destroy_qp(qp), "");
	TEST_ASSERT_SUCCESS(ibv_destroy_cq(z), "");
	return TEST_SUCCESS;
}

/*
 * ibv_resize_cq(): the CQEs not yet polled move into the new ring, in
 * order, at either size; a size that cannot hold them is refused
 * (EINVAL), the CQ unchanged.
 */
static int
test_resize_cq(void)
{
	struct ibv_qp *qp = fv_qp(IBV_QPT_RC);
	struct ibv_wc wc[4];
	int i;

	TEST_ASSERT_NOT_NULL(qp, "");
	for (i = 0; i < 3; i++)
		TEST_ASSERT_SUCCESS(
			fv_send(qp, IBV_WR_RDMA_READ, 64 * i, 8, NULL, 0, 0),
			"");
	TEST_ASSERT_EQUAL(ibv_resize_cq(cq, 1), EINVAL, "3 CQEs in 2 slots");
	TEST_ASSERT_SUCCESS(ibv_resize_cq(cq, 200), "");
	TEST_ASSERT(cq->cqe >= 200, "");
	TEST_ASSERT_SUCCESS(ibv_resize_cq(cq, 3), "");
	TEST_ASSERT_EQUAL(fv_poll(cq, wc, 4, 200), 3, "");
	for (i = 0; i < 3; i++)
		TEST_ASSERT_EQUAL(wc[i].wr_id, 64 * i, "in order");
	TEST_ASSERT_SUCCESS(ibv_destroy_qp(qp), "");
	return fv_resize_compressed();
}

/*
 * Device memory: more than the device has is EINVAL, more than is left
 * is ENOMEM; copies need 4-byte aligned offsets and lengths within the
 * piece; an MR on it needs zero-based addresses, the device writes into
 * it by RDMA (read back by ibv_memcpy_from_dm()), and keeps the piece
 * from being freed (EBUSY).
 */
static int
test_device_memory(void)
{
	struct ibv_device_attr_ex da;
	struct ibv_alloc_dm_attr aa = { .length = 4096 };
	struct ibv_dm *dm, *big;
	struct ibv_mr *dmr;
	struct ibv_qp *qp = fv_qp(IBV_QPT_RC);
	struct ibv_sge sg = { .addr = (uintptr_t)buf,
			      .length = 64,
			      .lkey = mr->lkey };
	struct ibv_send_wr wr = { .sg_list = &sg,
				  .num_sge = 1,
				  .opcode = IBV_WR_RDMA_WRITE,
				  .send_flags = IBV_SEND_SIGNALED };
	struct ibv_send_wr *bad;
	struct ibv_wc wc;
	uint8_t back[64];

	TEST_ASSERT_NOT_NULL(qp, "");
	TEST_ASSERT_SUCCESS(ibv_query_device_ex(ctx, NULL, &da), "");
	TEST_ASSERT(da.max_dm_size >= 8192, "%" PRIu64, da.max_dm_size);
	aa.length = da.max_dm_size + 4;
	TEST_ASSERT(ibv_alloc_dm(ctx, &aa) == NULL && errno == EINVAL,
		    "more than the device has");
	aa.length = da.max_dm_size - 4096;
	big = ibv_alloc_dm(ctx, &aa);
	TEST_ASSERT_NOT_NULL(big, "");
	aa.length = 8192;
	TEST_ASSERT(ibv_alloc_dm(ctx, &aa) == NULL && errno == ENOMEM,
		    "more than is left");
	TEST_ASSERT_SUCCESS(ibv_free_dm(big), "");
	aa.length = 4096;
	dm = ibv_alloc_dm(ctx, &aa);
	TEST_ASSERT_NOT_NULL(dm, "");
	TEST_ASSERT_EQUAL(ibv_memcpy_to_dm(dm, 2, buf, 8), EINVAL, "offset");
	TEST_ASSERT_EQUAL(ibv_memcpy_to_dm(dm, 0, buf, 6), EINVAL, "length");
	TEST_ASSERT_EQUAL(ibv_memcpy_from_dm(back, dm, 4092, 8), EFAULT,
			  "beyond the piece");
	TEST_ASSERT(ibv_reg_dm_mr(pd, dm, 0, 4096, IBV_ACCESS_LOCAL_WRITE) ==
				    NULL &&
			    errno == EINVAL,
		    "not zero-based");
	dmr = ibv_reg_dm_mr(pd, dm, 1024, 1024,
			    IBV_ACCESS_ZERO_BASED | IBV_ACCESS_LOCAL_WRITE |
				    IBV_ACCESS_REMOTE_WRITE);
	TEST_ASSERT_NOT_NULL(dmr, "");
	/* An RDMA WRITE to zero-based address 64 of the MR: piece's 1088. */
	memset(buf, 0x6b, 64);
	wr.wr.rdma.remote_addr = 64;
	wr.wr.rdma.rkey = dmr->rkey;
	TEST_ASSERT_SUCCESS(ibv_post_send(qp, &wr, &bad), "");
	TEST_ASSERT_EQUAL(fv_poll(cq, &wc, 1, 1000), 1, "");
	TEST_ASSERT_EQUAL(wc.status, IBV_WC_SUCCESS, "");
	TEST_ASSERT_SUCCESS(ibv_memcpy_from_dm(back, dm, 1088, 64), "");
	TEST_ASSERT(memcmp(back, buf, 64) == 0, "written by the device");
	TEST_ASSERT_EQUAL(ibv_free_dm(dm), EBUSY, "an MR on it");
	TEST_ASSERT(ibv_rereg_mr(dmr, IBV_REREG_MR_CHANGE_TRANSLATION, NULL,
				 buf, 4096, 0) != 0 &&
			    errno == EINVAL,
		    "no new translation for a DM MR");
	TEST_ASSERT_SUCCESS(ibv_dereg_mr(dmr), "");
	/* An imported handle keeps the piece past the original's free. */
	big = ibv_import_dm(ctx, dm->handle);
	TEST_ASSERT_NOT_NULL(big, "");
	TEST_ASSERT_SUCCESS(ibv_free_dm(dm), "");
	TEST_ASSERT_SUCCESS(ibv_memcpy_from_dm(back, big, 1088, 64), "");
	TEST_ASSERT(memcmp(back, buf, 64) == 0, "still there");
	ibv_unimport_dm(big);
	TEST_ASSERT_SUCCESS(ibv_destroy_qp(qp), "");
	return TEST_SUCCESS;
}

/* A raw packet QP on CQ @c in RTS (creation flags @flags), or NULL. */
static struct ibv_qp *
fv_raw_qp(struct ibv_cq *c, uint32_t flags)
{
	struct ibv_qp_init_attr_ex ia = {
		.send_cq = c,
		.recv_cq = c,
		.qp_type = IBV_QPT_RAW_PACKET,
		.cap = { .max_send_wr = 8,
			 .max_recv_wr = 8,
			 .max_send_sge = 2,
			 .max_recv_sge = 1 },
		.comp_mask =
			IBV_QP_INIT_ATTR_PD | IBV_QP_INIT_ATTR_CREATE_FLAGS,
		.pd = pd,
		.create_flags = flags,
	};
	static const enum ibv_qp_state steps[] = { IBV_QPS_INIT, IBV_QPS_RTR,
						   IBV_QPS_RTS };
	struct ibv_qp *qp = ibv_create_qp_ex(ctx, &ia);

	for (unsigned int i = 0;
	     qp != NULL && i < sizeof(steps) / sizeof(steps[0]); i++) {
		struct ibv_qp_attr a = { .qp_state = steps[i], .port_num = 1 };

		if (ibv_modify_qp(qp, &a,
				  IBV_QP_STATE | (i == 0 ? IBV_QP_PORT : 0)) !=
		    0) {
			ibv_destroy_qp(qp);
			qp = NULL;
		}
	}
	return qp;
}

/* A rule sending the frames to @dmac (NULL: every frame) to @qp. */
static struct ibv_flow *
fv_raw_flow(struct ibv_qp *qp, const uint8_t *dmac)
{
	struct {
		struct ibv_flow_attr attr;
		struct ibv_flow_spec_eth eth;
	} f = {
		.attr = { .type = IBV_FLOW_ATTR_NORMAL,
			  .size = sizeof(f),
			  .num_of_specs = dmac != NULL,
			  .port = 1 },
		.eth = { .type = IBV_FLOW_SPEC_ETH, .size = sizeof(f.eth) },
	};

	if (dmac != NULL) {
		memcpy(f.eth.val.dst_mac, dmac, 6);
		memset(f.eth.mask.dst_mac, 0xff, 6);
	}
	return ibv_create_flow(qp, &f.attr);
}

/*
 * A frame to @dmac at @f, @len bytes: a local experimental ethertype,
 * then a pattern.
 */
static void
fv_raw_frame(uint8_t *f, const uint8_t *dmac, uint32_t len)
{
	static const uint8_t smac[6] = { 0x02, 0, 0, 0, 0, 0x01 };

	memcpy(f, dmac, 6);
	memcpy(f + 6, smac, 6);
	f[12] = 0x88;
	f[13] = 0xb5;
	for (uint32_t i = 14; i < len; i++)
		f[i] = (uint8_t)(i * 7 + (uintptr_t)f);
}

/*
 * Send the @len-byte frame at buf[@off] on @qp in two gather entries
 * (@flags more send flags, @lkey the key): the post's errno.
 */
static int
fv_raw_post(struct ibv_qp *qp, uint32_t off, uint32_t len, unsigned int flags,
	    uint32_t lkey)
{
	struct ibv_sge sg[2] = {
		{ .addr = (uintptr_t)buf + off, .length = 14, .lkey = lkey },
		{ .addr = (uintptr_t)buf + off + 14,
		  .length = len - 14,
		  .lkey = lkey },
	};
	struct ibv_send_wr wr = { .wr_id = off,
				  .sg_list = sg,
				  .num_sge = 2,
				  .opcode = IBV_WR_SEND,
				  .send_flags = IBV_SEND_SIGNALED | flags };
	struct ibv_send_wr *bad;

	return ibv_post_send(qp, &wr, &bad);
}

/* A frame to @dmac at buf[@off], sent so. */
static int
fv_raw_send(struct ibv_qp *qp, const uint8_t *dmac, uint32_t off, uint32_t len,
	    unsigned int flags, uint32_t lkey)
{
	fv_raw_frame(buf + off, dmac, len);
	return fv_raw_post(qp, off, len, flags, lkey);
}

/* Post a 2 KiB receive at buf[4096] on @qp. */
static int
fv_raw_recv(struct ibv_qp *qp)
{
	memset(buf + 4096, 0, 2048);
	return fv_post_recv(qp, 4096, 2048);
}

/*
 * A 64-byte frame to @dmac sent on @tx (its completion on the case's CQ)
 * that never reaches @rcq; the port's counters after it in @ps.
 */
static int
fv_raw_lost(struct ibv_qp *tx, struct ibv_cq *rcq, const uint8_t *dmac,
	    struct mlx5_sim_port_stats *ps)
{
	struct ibv_wc wc;

	TEST_ASSERT_SUCCESS(fv_raw_send(tx, dmac, 0, 64, 0, mr->lkey), "");
	TEST_ASSERT_EQUAL(fv_poll(cq, &wc, 1, 1000), 1, "");
	TEST_ASSERT_EQUAL(fv_poll(rcq, &wc, 1, 50), 0, "not received");
	TEST_ASSERT_SUCCESS(mlx5_sim_port_stats(0, 0, 1, ps), "");
	return TEST_SUCCESS;
}

/*
 * A 64-byte frame to @dmac sent on @tx that reaches @rcq (a receive
 * posted at buf[4096]) whole, with flow tag @tag (libmlx5 reports it in
 * the completion's QP number field).
 */
static int
fv_raw_tagged(struct ibv_qp *tx, struct ibv_cq *rcq, const uint8_t *dmac,
	      uint32_t tag)
{
	struct ibv_wc wc;

	TEST_ASSERT_SUCCESS(fv_raw_send(tx, dmac, 0, 64, 0, mr->lkey), "");
	TEST_ASSERT_EQUAL(fv_poll(cq, &wc, 1, 1000), 1, "");
	TEST_ASSERT_EQUAL(fv_poll(rcq, &wc, 1, 1000), 1, "");
	TEST_ASSERT(wc.status == IBV_WC_SUCCESS && wc.wr_id == 4096 &&
			    wc.qp_num == tag,
		    "the flow tag, 0x%x", wc.qp_num);
	TEST_ASSERT(memcmp(buf + 4096, buf, 64) == 0, "the frame");
	return TEST_SUCCESS;
}

/* A rule to @qp for frames to @dmac, with a drop and/or a flow tag. */
static struct ibv_flow *
fv_raw_flow_act(struct ibv_qp *qp, const uint8_t *dmac, bool drop, uint32_t tag)
{
	struct {
		struct ibv_flow_attr attr;
		struct ibv_flow_spec_eth eth;
		struct ibv_flow_spec_action_tag tag;
		struct ibv_flow_spec_action_drop drop;
	} f = {
		.attr = { .type = IBV_FLOW_ATTR_NORMAL,
			  .size = sizeof(f),
			  .num_of_specs = 1 + (tag != 0) + drop,
			  .port = 1 },
		.eth = { .type = IBV_FLOW_SPEC_ETH, .size = sizeof(f.eth) },
		.tag = { .type = IBV_FLOW_SPEC_ACTION_TAG,
			 .size = sizeof(f.tag),
			 .tag_id = tag },
		.drop = { .type = IBV_FLOW_SPEC_ACTION_DROP,
			  .size = sizeof(f.drop) },
	};

	memcpy(f.eth.val.dst_mac, dmac, 6);
	memset(f.eth.mask.dst_mac, 0xff, 6);
	/* A drop without a tag: its spec where the tag's would be. */
	if (drop && tag == 0)
		memcpy(&f.tag, &f.drop, sizeof(f.drop));
	return ibv_create_flow(qp, &f.attr);
}

/*
 * Flow actions of ibv_create_flow() (mlx5_ib's parse_flow_attr): a flow
 * tag, which the receive CQE carries in its QP field (libmlx5 reports it
 * as wc.qp_num; DPDK's mark reads it), a tag of 2^24 or more refused
 * (EINVAL), a drop that the frames do not survive (the port counts them).
 */
static int
test_raw_flow_actions(void)
{
	static const uint8_t tagged[6] = { 0x02, 0x11, 0x22, 0x33, 0x44, 0x77 };
	static const uint8_t dropped[6] = {
		0x02, 0x11, 0x22, 0x33, 0x44, 0x88
	};
	struct ibv_cq *rcq = ibv_create_cq(ctx, 16, NULL, NULL, 0);
	struct mlx5_sim_port_stats ps0, ps;
	struct ibv_flow *ft, *fd;
	struct ibv_qp *tx, *rx;

	TEST_ASSERT_NOT_NULL(rcq, "");
	tx = fv_raw_qp(cq, 0);
	rx = fv_raw_qp(rcq, 0);
	TEST_ASSERT(tx != NULL && rx != NULL, "");
	TEST_ASSERT(fv_raw_flow_act(rx, tagged, false, 1u << 24) == NULL,
		    "a tag of 25 bits");
	TEST_ASSERT_EQUAL(errno, EINVAL, "");
	ft = fv_raw_flow_act(rx, tagged, false, 0x123456);
	fd = fv_raw_flow_act(rx, dropped, true, 0);
	TEST_ASSERT(ft != NULL && fd != NULL, "%s", strerror(errno));
	TEST_ASSERT_SUCCESS(fv_raw_recv(rx), "");
	TEST_ASSERT_SUCCESS(mlx5_sim_port_stats(0, 0, 1, &ps0), "");
	TEST_ASSERT_EQUAL(fv_raw_lost(tx, rcq, dropped, &ps), TEST_SUCCESS,
			  "dropped");
	TEST_ASSERT_EQUAL(ps.rx_rule_drop, ps0.rx_rule_drop + 1, "");
	TEST_ASSERT_EQUAL(fv_raw_tagged(tx, rcq, tagged, 0x123456),
			  TEST_SUCCESS, "");
	TEST_ASSERT_SUCCESS(ibv_destroy_flow(ft), "");
	TEST_ASSERT_SUCCESS(ibv_destroy_flow(fd), "");
	TEST_ASSERT_SUCCESS(ibv_destroy_qp(tx), "");
	TEST_ASSERT_SUCCESS(ibv_destroy_qp(rx), "");
	TEST_ASSERT_SUCCESS(ibv_destroy_cq(rcq), "");
	return TEST_SUCCESS;
}

/* A match of mlx5dv's layout: the size, then fte_match_param. */
struct fv_match {
	size_t match_sz;
	uint8_t buf[MLX5_ST_SZ_BYTES(fte_match_param)];
};

/* The outer destination MAC of @m: @dmac (NULL: all ones, a mask). */
static struct mlx5dv_flow_match_parameters *
fv_match_dmac(struct fv_match *m, const uint8_t *dmac)
{
	uint8_t *l2 = MLX5_ADDR_OF(fte_match_param, m->buf, outer_headers);

	memset(m, 0, sizeof(*m));
	m->match_sz = sizeof(m->buf);
	if (dmac != NULL)
		memcpy(MLX5_ADDR_OF(fte_match_set_lyr_2_4, l2, dmac_47_16),
		       dmac, 6);
	else
		memset(MLX5_ADDR_OF(fte_match_set_lyr_2_4, l2, dmac_47_16),
		       0xff, 6);
	return (struct mlx5dv_flow_match_parameters *)m;
}

/* A software steering rule of @m for frames to @dmac with @n actions. */
static struct mlx5dv_dr_rule *
fv_dr_rule(struct mlx5dv_dr_matcher *m, const uint8_t *dmac, size_t n,
	   struct mlx5dv_dr_action *a0, struct mlx5dv_dr_action *a1,
	   struct mlx5dv_dr_action *a2)
{
	struct mlx5dv_dr_action *acts[3] = { a0, a1, a2 };
	struct fv_match v;

	return mlx5dv_dr_rule_create(m, fv_match_dmac(&v, dmac), n, acts);
}

/* A DEVX flow counter (@bulk: ALLOC_FLOW_COUNTER's field), or NULL. */
static struct mlx5dv_devx_obj *
fv_flow_counter(uint8_t bulk, uint32_t *out, size_t outlen)
{
	uint32_t in[MLX5_ST_SZ_DW(alloc_flow_counter_in)] = { 0 };

	MLX5_SET(alloc_flow_counter_in, in, opcode,
		 MLX5_CMD_OP_ALLOC_FLOW_COUNTER);
	MLX5_SET(alloc_flow_counter_in, in, flow_counter_bulk, bulk);
	return mlx5dv_devx_obj_create(ctx, in, sizeof(in), out, outlen);
}

/*
 * Counter @id of DEVX object @fc in *@packets and *@octets (cleared after
 * with @clear): QUERY_FLOW_COUNTER's errno.
 */
static int
fv_flow_count(struct mlx5dv_devx_obj *fc, uint32_t id, bool clear,
	      uint64_t *packets, uint64_t *octets)
{
	uint32_t in[MLX5_ST_SZ_DW(query_flow_counter_in)] = { 0 };
	uint32_t out[MLX5_ST_SZ_DW(query_flow_counter_out)] = { 0 };
	int ret;

	MLX5_SET(query_flow_counter_in, in, opcode,
		 MLX5_CMD_OP_QUERY_FLOW_COUNTER);
	MLX5_SET(query_flow_counter_in, in, flow_counter_id, id);
	MLX5_SET(query_flow_counter_in, in, clear, clear);
	ret = mlx5dv_devx_obj_query(fc, in, sizeof(in), out, sizeof(out));
	*packets = MLX5_GET64(query_flow_counter_out, out,
			      flow_statistics.packets);
	*octets =
		MLX5_GET64(query_flow_counter_out, out, flow_statistics.octets);
	return ret;
}

/*
 * libmlx5's software steering (mlx5dv_dr_*, DPDK's default flow engine)
 * onto the device's steering: a root rule forwards to a table of level
 * 1, whose rule tags and counts the frames and sends them to a QP (the
 * flow counter's packets and octets read, then cleared); a frame table 1
 * does not match is dropped there, one the root sends to the default
 * miss goes to the kernel (no rule of the program's). Refused: a
 * forward to a table of a level not higher (the PRM), a rule of two fates
 * or of none, a tag of 25 bits, a match the device cannot make, a matcher
 * of NIC transmit (no egress steering), an FDB domain (no e-switch), a
 * duplicate rule once the domain disallows them, a counter in bulk (not
 * announced) or at an offset, the free of a counter a rule counts on.
 * Each object in use is EBUSY; the flow tables are counted live and all
 * go.
 */
static int
test_dr_steering(void)
{
	static const uint8_t to_qp[6] = { 0x02, 0x11, 0x22, 0x33, 0x44, 0x91 };
	static const uint8_t unmatched[6] = {
		0x02, 0x11, 0x22, 0x33, 0x44, 0x92
	};
	static const uint8_t to_kernel[6] = {
		0x02, 0x11, 0x22, 0x33, 0x44, 0x93
	};
	struct ibv_cq *rcq = ibv_create_cq(ctx, 16, NULL, NULL, 0);
	struct mlx5dv_dr_action *jump, *jump_root, *to_rx, *tag, *drop, *miss,
		*count;
	uint32_t fout[MLX5_ST_SZ_DW(alloc_flow_counter_out)] = { 0 };
	struct mlx5dv_devx_obj *fc;
	uint64_t packets, octets;
	uint32_t fc_id;
	struct mlx5dv_dr_rule *r_jump, *r_unmatched, *r_kernel, *r_qp, *r_dup;
	struct mlx5dv_dr_table *root, *t1, *ttx;
	struct mlx5dv_dr_matcher *m0, *m1;
	struct mlx5dv_dr_domain *rx, *tx;
	struct mlx5_sim_port_stats ps0, ps;
	struct mlx5_sim_stats st0, st;
	struct ibv_qp *sq, *rq;
	struct fv_match mask;
	uint8_t *misc;

	TEST_ASSERT_NOT_NULL(rcq, "");
	TEST_ASSERT_SUCCESS(mlx5_sim_vhca_stats(0, 0, &st0), "");
	sq = fv_raw_qp(cq, 0);
	rq = fv_raw_qp(rcq, 0);
	TEST_ASSERT(sq != NULL && rq != NULL, "");
	TEST_ASSERT(mlx5dv_dr_domain_create(ctx, MLX5DV_DR_DOMAIN_TYPE_FDB) ==
				    NULL &&
			    errno == EOPNOTSUPP,
		    "no e-switch");
	rx = mlx5dv_dr_domain_create(ctx, MLX5DV_DR_DOMAIN_TYPE_NIC_RX);
	tx = mlx5dv_dr_domain_create(ctx, MLX5DV_DR_DOMAIN_TYPE_NIC_TX);
	TEST_ASSERT(rx != NULL && tx != NULL, "%s", strerror(errno));
	root = mlx5dv_dr_table_create(rx, 0);
	t1 = mlx5dv_dr_table_create(rx, 1);
	ttx = mlx5dv_dr_table_create(tx, 1);
	TEST_ASSERT(root != NULL && t1 != NULL && ttx != NULL, "");
	TEST_ASSERT_SUCCESS(mlx5_sim_vhca_stats(0, 0, &st), "");
	TEST_ASSERT_EQUAL(st.flow_tables, st0.flow_tables + 2,
			  "a firmware table each above the root");
	fv_match_dmac(&mask, NULL);
	m0 = mlx5dv_dr_matcher_create(root, 0, MLX5_MATCH_OUTER_HEADERS,
				      (void *)&mask);
	m1 = mlx5dv_dr_matcher_create(t1, 0, MLX5_MATCH_OUTER_HEADERS,
				      (void *)&mask);
	TEST_ASSERT(m0 != NULL && m1 != NULL, "%s", strerror(errno));
	TEST_ASSERT(mlx5dv_dr_matcher_create(ttx, 0, MLX5_MATCH_OUTER_HEADERS,
					     (void *)&mask) == NULL &&
			    errno == EOPNOTSUPP,
		    "no egress steering");
	/* A misc field (the source port): not matched by the device. */
	misc = MLX5_ADDR_OF(fte_match_param, mask.buf, misc_parameters);
	misc[0] = 0xff;
	TEST_ASSERT(mlx5dv_dr_matcher_create(t1, 1,
					     MLX5_MATCH_OUTER_HEADERS |
						     MLX5_MATCH_MISC_PARAMETERS,
					     (void *)&mask) == NULL &&
			    errno == EOPNOTSUPP,
		    "a match the device cannot make");
	jump = mlx5dv_dr_action_create_dest_table(t1);
	jump_root = mlx5dv_dr_action_create_dest_table(root);
	to_rx = mlx5dv_dr_action_create_dest_ibv_qp(rq);
	tag = mlx5dv_dr_action_create_tag(0x4567);
	drop = mlx5dv_dr_action_create_drop();
	miss = mlx5dv_dr_action_create_default_miss();
	TEST_ASSERT(jump != NULL && jump_root != NULL && to_rx != NULL &&
			    tag != NULL && drop != NULL && miss != NULL,
		    "");
	TEST_ASSERT(mlx5dv_dr_action_create_tag(1u << 24) == NULL &&
			    errno == EINVAL,
		    "a tag of 25 bits");
	/* A flow counter: one a command, no bulk. */
	TEST_ASSERT(fv_flow_counter(1, fout, sizeof(fout)) == NULL &&
			    MLX5_GET(alloc_flow_counter_out, fout, syndrome) ==
				    MLX5_SIM_SYND_FCNT_BULK,
		    "a bulk of counters");
	fc = fv_flow_counter(0, fout, sizeof(fout));
	TEST_ASSERT_NOT_NULL(fc, "%s", strerror(errno));
	fc_id = MLX5_GET(alloc_flow_counter_out, fout, flow_counter_id);
	TEST_ASSERT(mlx5dv_dr_action_create_flow_counter(fc, 1) == NULL &&
			    errno == EINVAL,
		    "a counter at an offset");
	count = mlx5dv_dr_action_create_flow_counter(fc, 0);
	TEST_ASSERT_NOT_NULL(count, "");
	/* Forwards only to a higher level; one fate. */
	const struct {
		struct mlx5dv_dr_matcher *m;
		size_t n;
		struct mlx5dv_dr_action *a0, *a1;
		const char *what;
	} bad[] = {
		{ m0, 1, jump_root, NULL, "root to root" },
		{ m1, 1, jump, NULL, "level 1 to level 1" },
		{ m0, 2, jump, drop, "two fates" },
		{ m0, 1, tag, NULL, "no fate" },
	};
	for (unsigned int i = 0; i < RTE_DIM(bad); i++)
		TEST_ASSERT(fv_dr_rule(bad[i].m, to_qp, bad[i].n, bad[i].a0,
				       bad[i].a1, NULL) == NULL &&
				    errno == EINVAL,
			    "%s", bad[i].what);
	r_jump = fv_dr_rule(m0, to_qp, 1, jump, NULL, NULL);
	r_unmatched = fv_dr_rule(m0, unmatched, 1, jump, NULL, NULL);
	r_kernel = fv_dr_rule(m0, to_kernel, 1, miss, NULL, NULL);
	r_qp = fv_dr_rule(m1, to_qp, 3, tag, to_rx, count);
	TEST_ASSERT(r_jump != NULL && r_unmatched != NULL && r_kernel != NULL &&
			    r_qp != NULL,
		    "%s", strerror(errno));
	/* Through both tables, tagged on the way. */
	TEST_ASSERT_SUCCESS(fv_raw_recv(rq), "");
	TEST_ASSERT_EQUAL(fv_raw_tagged(sq, rcq, to_qp, 0x4567), TEST_SUCCESS,
			  "table 1's tag");
	TEST_ASSERT_SUCCESS(fv_flow_count(fc, fc_id, true, &packets, &octets),
			    "");
	TEST_ASSERT(packets == 1 && octets == 64,
		    "counted %" PRIu64 " packets, %" PRIu64 " octets", packets,
		    octets);
	TEST_ASSERT_SUCCESS(fv_flow_count(fc, fc_id, false, &packets, &octets),
			    "");
	TEST_ASSERT(packets == 0 && octets == 0, "cleared");
	TEST_ASSERT(mlx5dv_devx_obj_destroy(fc) != 0, "counted on");
	/* Table 1's miss drops; the root's default miss is the kernel's. */
	TEST_ASSERT_SUCCESS(fv_raw_recv(rq), "");
	TEST_ASSERT_SUCCESS(mlx5_sim_port_stats(0, 0, 1, &ps0), "");
	TEST_ASSERT_EQUAL(fv_raw_lost(sq, rcq, unmatched, &ps), TEST_SUCCESS,
			  "");
	TEST_ASSERT(ps.rx_rule_drop == ps0.rx_rule_drop + 1 &&
			    ps.rx_no_rule == ps0.rx_no_rule,
		    "dropped at table 1's miss");
	TEST_ASSERT_EQUAL(fv_raw_lost(sq, rcq, to_kernel, &ps), TEST_SUCCESS,
			  "");
	TEST_ASSERT(ps.rx_rule_drop == ps0.rx_rule_drop + 1 &&
			    ps.rx_no_rule == ps0.rx_no_rule + 1,
		    "to the kernel");
	/* A duplicate: kept by default, refused once the domain says so. */
	r_dup = fv_dr_rule(m1, to_qp, 1, drop, NULL, NULL);
	TEST_ASSERT_NOT_NULL(r_dup, "");
	TEST_ASSERT_SUCCESS(mlx5dv_dr_rule_destroy(r_dup), "");
	mlx5dv_dr_domain_allow_duplicate_rules(rx, false);
	TEST_ASSERT(fv_dr_rule(m1, to_qp, 1, drop, NULL, NULL) == NULL &&
			    errno == EEXIST,
		    "a duplicate");
	/* What is held cannot go. */
	TEST_ASSERT_EQUAL(mlx5dv_dr_action_destroy(to_rx), EBUSY, "");
	TEST_ASSERT_EQUAL(mlx5dv_dr_matcher_destroy(m1), EBUSY, "");
	TEST_ASSERT_EQUAL(mlx5dv_dr_table_destroy(t1), EBUSY, "");
	TEST_ASSERT_EQUAL(mlx5dv_dr_domain_destroy(rx), EBUSY, "");
	TEST_ASSERT_SUCCESS(
		mlx5dv_dr_domain_sync(rx, MLX5DV_DR_DOMAIN_SYNC_FLAGS_SW), "");
	TEST_ASSERT_SUCCESS(mlx5dv_dr_rule_destroy(r_qp), "");
	TEST_ASSERT_SUCCESS(mlx5dv_dr_rule_destroy(r_jump), "");
	TEST_ASSERT_SUCCESS(mlx5dv_dr_rule_destroy(r_unmatched), "");
	TEST_ASSERT_SUCCESS(mlx5dv_dr_rule_destroy(r_kernel), "");
	TEST_ASSERT_SUCCESS(mlx5dv_dr_matcher_destroy(m1), "");
	TEST_ASSERT_SUCCESS(mlx5dv_dr_matcher_destroy(m0), "");
	TEST_ASSERT_EQUAL(mlx5dv_dr_table_destroy(t1), EBUSY, "its action");
	TEST_ASSERT_SUCCESS(mlx5dv_dr_action_destroy(jump), "");
	TEST_ASSERT_SUCCESS(mlx5dv_dr_action_destroy(jump_root), "");
	TEST_ASSERT_SUCCESS(mlx5dv_dr_action_destroy(to_rx), "");
	TEST_ASSERT_SUCCESS(mlx5dv_dr_action_destroy(tag), "");
	TEST_ASSERT_SUCCESS(mlx5dv_dr_action_destroy(drop), "");
	TEST_ASSERT_SUCCESS(mlx5dv_dr_action_destroy(miss), "");
	TEST_ASSERT_SUCCESS(mlx5dv_dr_action_destroy(count), "");
	TEST_ASSERT_SUCCESS(mlx5dv_devx_obj_destroy(fc), "");
	TEST_ASSERT_SUCCESS(mlx5dv_dr_table_destroy(t1), "");
	TEST_ASSERT_SUCCESS(mlx5dv_dr_table_destroy(root), "");
	TEST_ASSERT_SUCCESS(mlx5dv_dr_table_destroy(ttx), "");
	TEST_ASSERT_SUCCESS(mlx5dv_dr_domain_destroy(rx), "");
	TEST_ASSERT_SUCCESS(mlx5dv_dr_domain_destroy(tx), "");
	TEST_ASSERT_SUCCESS(ibv_destroy_qp(sq), "");
	TEST_ASSERT_SUCCESS(ibv_destroy_qp(rq), "");
	TEST_ASSERT_SUCCESS(ibv_destroy_cq(rcq), "");
	TEST_ASSERT_SUCCESS(mlx5_sim_vhca_stats(0, 0, &st), "");
	/* The rest is nothing_left's. */
	TEST_ASSERT(st.flow_tables == st0.flow_tables &&
			    st.flows == st0.flows &&
			    st.flow_counters == st0.flow_counters,
		    "no table, rule or counter left");
	return TEST_SUCCESS;
}

/*
 * The walk through software steering's tables as libmlx5 builds them: a
 * tag of a later table replaces the root's; of two matchers of one
 * priority above the root, the newer is tried first; a default miss
 * above the root drops, the root's goes to the kernel (not on to a
 * catch-all rule of a lower priority); a match on an outer field the
 * device does not parse (DSCP) is refused.
 */
static int
test_dr_walk(void)
{
	static const uint8_t a[6] = { 0x02, 0x11, 0x22, 0x33, 0x44, 0xa1 };
	static const uint8_t b[6] = { 0x02, 0x11, 0x22, 0x33, 0x44, 0xa2 };
	static const uint8_t c[6] = { 0x02, 0x11, 0x22, 0x33, 0x44, 0xa3 };
	struct ibv_cq *rcq = ibv_create_cq(ctx, 16, NULL, NULL, 0);
	struct mlx5dv_dr_action *jump, *to_rx, *tag1, *tag2, *drop, *miss;
	struct mlx5dv_dr_matcher *m0, *m_all, *m_old, *m_new;
	struct mlx5dv_dr_rule *r[8];
	struct mlx5_sim_port_stats ps0, ps;
	struct mlx5dv_dr_table *root, *t1;
	struct fv_match mask, none, dscp;
	struct mlx5dv_dr_domain *rx;
	struct ibv_qp *sq, *rq;
	unsigned int i, n = 0;

	TEST_ASSERT_NOT_NULL(rcq, "");
	sq = fv_raw_qp(cq, 0);
	rq = fv_raw_qp(rcq, 0);
	rx = mlx5dv_dr_domain_create(ctx, MLX5DV_DR_DOMAIN_TYPE_NIC_RX);
	TEST_ASSERT(sq != NULL && rq != NULL && rx != NULL, "");
	root = mlx5dv_dr_table_create(rx, 0);
	t1 = mlx5dv_dr_table_create(rx, 1);
	TEST_ASSERT(root != NULL && t1 != NULL, "");
	fv_match_dmac(&mask, NULL);
	memset(&none, 0, sizeof(none));
	none.match_sz = sizeof(none.buf);
	dscp = none;
	MLX5_SET(fte_match_param, dscp.buf, outer_headers.ip_dscp, 0x3f);
	TEST_ASSERT(mlx5dv_dr_matcher_create(t1, 0, MLX5_MATCH_OUTER_HEADERS,
					     (void *)&dscp) == NULL &&
			    errno == EOPNOTSUPP,
		    "an outer field the device does not parse");
	m0 = mlx5dv_dr_matcher_create(root, 0, MLX5_MATCH_OUTER_HEADERS,
				      (void *)&mask);
	m_all = mlx5dv_dr_matcher_create(root, 1, 0, (void *)&none);
	m_old = mlx5dv_dr_matcher_create(t1, 0, MLX5_MATCH_OUTER_HEADERS,
					 (void *)&mask);
	jump = mlx5dv_dr_action_create_dest_table(t1);
	to_rx = mlx5dv_dr_action_create_dest_ibv_qp(rq);
	tag1 = mlx5dv_dr_action_create_tag(0x111);
	tag2 = mlx5dv_dr_action_create_tag(0x222);
	drop = mlx5dv_dr_action_create_drop();
	miss = mlx5dv_dr_action_create_default_miss();
	TEST_ASSERT(m0 != NULL && m_all != NULL && m_old != NULL &&
			    jump != NULL && to_rx != NULL && tag1 != NULL &&
			    tag2 != NULL && drop != NULL && miss != NULL,
		    "%s", strerror(errno));
	/* The root: a tagged on to table 1, b on to it, c to the kernel. */
	r[n++] = fv_dr_rule(m0, a, 2, tag1, jump, NULL);
	r[n++] = fv_dr_rule(m0, b, 1, jump, NULL, NULL);
	r[n++] = fv_dr_rule(m0, c, 1, miss, NULL, NULL);
	r[n++] = fv_dr_rule(m_all, a, 1, to_rx, NULL, NULL);
	/* Table 1: a tagged again to the QP, b to the default miss. */
	r[n++] = fv_dr_rule(m_old, a, 2, tag2, to_rx, NULL);
	r[n++] = fv_dr_rule(m_old, b, 1, miss, NULL, NULL);
	for (i = 0; i < n; i++)
		TEST_ASSERT_NOT_NULL(r[i], "rule %u: %s", i, strerror(errno));
	TEST_ASSERT_SUCCESS(fv_raw_recv(rq), "");
	TEST_ASSERT_EQUAL(fv_raw_tagged(sq, rcq, a, 0x222), TEST_SUCCESS,
			  "table 1's tag over the root's");
	TEST_ASSERT_SUCCESS(fv_raw_recv(rq), "");
	TEST_ASSERT_SUCCESS(mlx5_sim_port_stats(0, 0, 1, &ps0), "");
	TEST_ASSERT_EQUAL(fv_raw_lost(sq, rcq, b, &ps), TEST_SUCCESS, "");
	TEST_ASSERT(ps.rx_rule_drop == ps0.rx_rule_drop + 1 &&
			    ps.rx_no_rule == ps0.rx_no_rule,
		    "a default miss above the root drops");
	TEST_ASSERT_EQUAL(fv_raw_lost(sq, rcq, c, &ps), TEST_SUCCESS, "");
	TEST_ASSERT(ps.rx_no_rule == ps0.rx_no_rule + 1,
		    "the root's default miss: the kernel's, not the catch-all");
	/* A newer matcher of the same priority goes first. */
	m_new = mlx5dv_dr_matcher_create(t1, 0, MLX5_MATCH_OUTER_HEADERS,
					 (void *)&mask);
	TEST_ASSERT_NOT_NULL(m_new, "");
	r[n++] = fv_dr_rule(m_new, a, 1, drop, NULL, NULL);
	TEST_ASSERT_NOT_NULL(r[n - 1], "");
	TEST_ASSERT_EQUAL(fv_raw_lost(sq, rcq, a, &ps), TEST_SUCCESS, "");
	TEST_ASSERT(ps.rx_rule_drop == ps0.rx_rule_drop + 2,
		    "the newer matcher's drop");
	while (n > 0)
		TEST_ASSERT_SUCCESS(mlx5dv_dr_rule_destroy(r[--n]), "");
	TEST_ASSERT_SUCCESS(mlx5dv_dr_matcher_destroy(m_new), "");
	TEST_ASSERT_SUCCESS(mlx5dv_dr_matcher_destroy(m_old), "");
	TEST_ASSERT_SUCCESS(mlx5dv_dr_matcher_destroy(m_all), "");
	TEST_ASSERT_SUCCESS(mlx5dv_dr_matcher_destroy(m0), "");
	TEST_ASSERT_SUCCESS(mlx5dv_dr_action_destroy(jump), "");
	TEST_ASSERT_SUCCESS(mlx5dv_dr_action_destroy(to_rx), "");
	TEST_ASSERT_SUCCESS(mlx5dv_dr_action_destroy(tag1), "");
	TEST_ASSERT_SUCCESS(mlx5dv_dr_action_destroy(tag2), "");
	TEST_ASSERT_SUCCESS(mlx5dv_dr_action_destroy(drop), "");
	TEST_ASSERT_SUCCESS(mlx5dv_dr_action_destroy(miss), "");
	TEST_ASSERT_SUCCESS(mlx5dv_dr_table_destroy(t1), "");
	TEST_ASSERT_SUCCESS(mlx5dv_dr_table_destroy(root), "");
	TEST_ASSERT_SUCCESS(mlx5dv_dr_domain_destroy(rx), "");
	TEST_ASSERT_SUCCESS(ibv_destroy_qp(sq), "");
	TEST_ASSERT_SUCCESS(ibv_destroy_qp(rq), "");
	TEST_ASSERT_SUCCESS(ibv_destroy_cq(rcq), "");
	return TEST_SUCCESS;
}

/*
 * Raw packet QPs as mlx5_ib builds them (an SQ on a TIS, an RQ with a
 * direct TIR, no QP object) and ibv_create_flow(): a frame reaches a QP
 * only through a rule (else the port drops it, no rule), whole, with the
 * QP's number; the kernel holds a QP its rules name (EBUSY); a field
 * the device cannot match, a rule on an RC QP, an offload the device does
 * not announce and a send without a gather entry are refused; a bad key
 * puts the SQ in error (the QP reads SQE) until RESET; a QP made to block
 * its own multicast drops the context's own multicast frames only.
 */
static int
test_raw_packet(void)
{
	static const uint8_t uc[6] = { 0x02, 0x11, 0x22, 0x33, 0x44, 0x55 };
	static const uint8_t uc2[6] = { 0x02, 0x11, 0x22, 0x33, 0x44, 0x66 };
	static const uint8_t mc[6] = { 0x01, 0x00, 0x5e, 0x00, 0x00, 0x01 };
	struct mlx5_sim_stats st0, st;
	struct mlx5_sim_port_stats ps0, ps;
	struct ibv_cq *rcq = ibv_create_cq(ctx, 16, NULL, NULL, 0);
	struct ibv_qp *tx, *rx, *lb, *rc, *q;
	struct ibv_flow *fl, *fl2, *bad;
	struct ibv_qp_attr a = { .qp_state = IBV_QPS_INIT };
	struct ibv_qp_init_attr ia;
	struct mlx5dv_qp dvq;
	struct mlx5dv_obj obj = { .qp = { .out = &dvq } };
	struct ibv_wc wc;
	struct {
		struct ibv_flow_attr attr;
		struct ibv_flow_spec_ipv4_ext ip;
	} tos = {
		.attr = { .type = IBV_FLOW_ATTR_NORMAL,
			  .size = sizeof(tos),
			  .num_of_specs = 1,
			  .port = 1 },
		.ip = { .type = IBV_FLOW_SPEC_IPV4_EXT,
			.size = sizeof(tos.ip),
			.mask = { .tos = 0xff } },
	};

	TEST_ASSERT_NOT_NULL(rcq, "");
	TEST_ASSERT_SUCCESS(mlx5_sim_vhca_stats(0, 0, &st0), "");
	tx = fv_raw_qp(cq, 0);
	rx = fv_raw_qp(rcq, 0);
	TEST_ASSERT(tx != NULL && rx != NULL, "%s", strerror(errno));
	TEST_ASSERT_SUCCESS(mlx5_sim_vhca_stats(0, 0, &st), "");
	TEST_ASSERT(st.qps == st0.qps && st.sqs == st0.sqs + 2 &&
			    st.rqs == st0.rqs + 2 && st.tiss == st0.tiss + 2 &&
			    st.tirs == st0.tirs + 2,
		    "mlx5_ib's parts of two raw QPs");
	TEST_ASSERT_SUCCESS(
		ibv_query_qp(rx, &a, IBV_QP_STATE | IBV_QP_CAP, &ia), "");
	TEST_ASSERT(a.qp_state == IBV_QPS_RTS && ia.cap.max_recv_wr >= 8 &&
			    ia.qp_type == IBV_QPT_RAW_PACKET,
		    "");
	/* ib_core's table: RESET to INIT needs the port. */
	q = ibv_create_qp(
		pd, &(struct ibv_qp_init_attr){
			    .send_cq = cq,
			    .recv_cq = cq,
			    .qp_type = IBV_QPT_RAW_PACKET,
			    .cap = { .max_send_wr = 1, .max_send_sge = 1 } });
	TEST_ASSERT_NOT_NULL(q, "");
	a.qp_state = IBV_QPS_INIT;
	TEST_ASSERT_EQUAL(ibv_modify_qp(q, &a, IBV_QP_STATE), EINVAL, "");
	/* INIT to ERR: the RQ-less QP's SQ never left RST. */
	a.port_num = 1;
	TEST_ASSERT_SUCCESS(ibv_modify_qp(q, &a, IBV_QP_STATE | IBV_QP_PORT),
			    "");
	a.qp_state = IBV_QPS_ERR;
	TEST_ASSERT_SUCCESS(ibv_modify_qp(q, &a, IBV_QP_STATE), "");
	TEST_ASSERT_SUCCESS(ibv_destroy_qp(q), "");
	/* A receive-only raw QP: no send capacity, its number its RQ's. */
	q = ibv_create_qp(
		pd, &(struct ibv_qp_init_attr){
			    .send_cq = cq,
			    .recv_cq = cq,
			    .qp_type = IBV_QPT_RAW_PACKET,
			    .cap = { .max_recv_wr = 4, .max_recv_sge = 1 } });
	TEST_ASSERT_NOT_NULL(q, "");
	TEST_ASSERT_SUCCESS(ibv_query_qp(q, &a, IBV_QP_CAP, &ia), "");
	TEST_ASSERT(ia.cap.max_send_wr == 0 && ia.cap.max_inline_data == 0 &&
			    ia.cap.max_recv_wr >= 4,
		    "");
	dvq.comp_mask = MLX5DV_QP_MASK_RAW_QP_HANDLES;
	obj.qp.in = q;
	TEST_ASSERT_SUCCESS(mlx5dv_init_obj(&obj, MLX5DV_OBJ_QP), "");
	TEST_ASSERT(dvq.sqn == 0 && dvq.tisn == 0 && dvq.rqn == q->qp_num &&
			    dvq.tirn != 0,
		    "");
	TEST_ASSERT_SUCCESS(ibv_destroy_qp(q), "");
	/* mlx5_ib's handles of the parts (mlx5dv). */
	dvq.comp_mask = MLX5DV_QP_MASK_RAW_QP_HANDLES;
	obj.qp.in = rx;
	TEST_ASSERT_SUCCESS(mlx5dv_init_obj(&obj, MLX5DV_OBJ_QP), "");
	TEST_ASSERT((dvq.comp_mask & MLX5DV_QP_MASK_RAW_QP_HANDLES) &&
			    dvq.sqn == rx->qp_num && dvq.rqn != 0 &&
			    dvq.rqn != dvq.sqn && dvq.tirn != 0 &&
			    dvq.tisn != 0,
		    "");

	/* No rule: the frame leaves, and the port drops it. */
	TEST_ASSERT_SUCCESS(fv_raw_recv(rx), "");
	TEST_ASSERT_SUCCESS(mlx5_sim_port_stats(0, 0, 1, &ps0), "");
	TEST_ASSERT_SUCCESS(fv_raw_send(tx, uc, 0, 128, 0, mr->lkey), "");
	TEST_ASSERT_EQUAL(fv_poll(cq, &wc, 1, 1000), 1, "");
	TEST_ASSERT(wc.status == IBV_WC_SUCCESS && wc.opcode == IBV_WC_SEND &&
			    wc.qp_num == tx->qp_num,
		    "%d", wc.status);
	TEST_ASSERT_EQUAL(fv_poll(rcq, &wc, 1, 50), 0, "no rule, no frame");
	TEST_ASSERT_SUCCESS(mlx5_sim_port_stats(0, 0, 1, &ps), "");
	TEST_ASSERT_EQUAL(ps.rx_no_rule, ps0.rx_no_rule + 1, "");

	/* A rule on the destination MAC: the frame lands whole. */
	fl = fv_raw_flow(rx, uc);
	TEST_ASSERT_NOT_NULL(fl, "%s", strerror(errno));
	TEST_ASSERT_SUCCESS(fv_raw_send(tx, uc, 0, 128, 0, mr->lkey), "");
	TEST_ASSERT_EQUAL(fv_poll(cq, &wc, 1, 1000), 1, "");
	TEST_ASSERT_EQUAL(fv_poll(rcq, &wc, 1, 1000), 1, "");
	/*
	 * libmlx5 reports the CQE's QP field, which an RQ's CQE fills with
	 * the rule's flow tag (none: 0); the RQ is found by user index.
	 */
	TEST_ASSERT(wc.status == IBV_WC_SUCCESS && wc.opcode == IBV_WC_RECV &&
			    wc.byte_len == 128 && wc.qp_num == 0 &&
			    wc.wr_id == 4096,
		    "status %d len %u qp %u", wc.status, wc.byte_len,
		    wc.qp_num);
	TEST_ASSERT(memcmp(buf + 4096, buf, 128) == 0, "the frame");
	TEST_ASSERT_EQUAL(ibv_destroy_qp(rx), EBUSY, "a rule names it");

	/* What the device cannot do is refused, not ignored. */
	bad = ibv_create_flow(rx, &tos.attr);
	TEST_ASSERT(bad == NULL && errno == EOPNOTSUPP, "IPv4 TOS");
	rc = fv_qp(IBV_QPT_RC);
	TEST_ASSERT_NOT_NULL(rc, "");
	bad = fv_raw_flow(rc, uc);
	TEST_ASSERT(bad == NULL && errno == EINVAL, "an RC QP");
	TEST_ASSERT_SUCCESS(ibv_destroy_qp(rc), "");
	{
		struct ibv_send_wr wr = { .opcode = IBV_WR_SEND }, *b;

		TEST_ASSERT_EQUAL(ibv_post_send(tx, &wr, &b), EINVAL,
				  "no gather entry");
		wr.opcode = IBV_WR_RDMA_WRITE;
		wr.num_sge = 0;
		TEST_ASSERT_EQUAL(ibv_post_send(tx, &wr, &b), EINVAL,
				  "not a send");
	}

	/* A bad key: the SQ's error, the QP in SQE, until RESET. */
	TEST_ASSERT_SUCCESS(fv_raw_send(tx, uc, 0, 128, 0, mr->lkey + 0x100),
			    "");
	TEST_ASSERT_EQUAL(fv_poll(cq, &wc, 1, 1000), 1, "");
	TEST_ASSERT(wc.status != IBV_WC_SUCCESS, "");
	TEST_ASSERT_SUCCESS(ibv_query_qp(tx, &a, IBV_QP_STATE, &ia), "");
	TEST_ASSERT_EQUAL(a.qp_state, IBV_QPS_SQE, "");
	a.qp_state = IBV_QPS_RTS;
	TEST_ASSERT_EQUAL(ibv_modify_qp(tx, &a, IBV_QP_STATE), EINVAL,
			  "a raw QP has no SQERR2RTS");
	a.qp_state = IBV_QPS_RESET;
	TEST_ASSERT_SUCCESS(ibv_modify_qp(tx, &a, IBV_QP_STATE), "");
	for (int i = 0; i < 3; i++) {
		a.qp_state = (enum ibv_qp_state)(IBV_QPS_INIT + i);
		a.port_num = 1;
		TEST_ASSERT_SUCCESS(
			ibv_modify_qp(tx, &a,
				      IBV_QP_STATE |
					      (i == 0 ? IBV_QP_PORT : 0)),
			"");
	}
	TEST_ASSERT_SUCCESS(fv_raw_send(tx, uc, 256, 100, 0, mr->lkey), "");
	TEST_ASSERT_EQUAL(fv_poll(cq, &wc, 1, 1000), 1, "");
	TEST_ASSERT_EQUAL(wc.status, IBV_WC_SUCCESS, "after RESET");
	TEST_ASSERT_EQUAL(fv_poll(rcq, &wc, 1, 1000), 0, "no receive posted");
	TEST_ASSERT_SUCCESS(fv_raw_recv(rx), "");
	TEST_ASSERT_SUCCESS(mlx5_sim_port_stats(0, 0, 1, &ps0), "");

	/*
	 * Blocking its own multicast: the context's multicast frames do
	 * not reach the QP, its unicast frames do.
	 */
	lb = fv_raw_qp(rcq, IBV_QP_CREATE_BLOCK_SELF_MCAST_LB);
	TEST_ASSERT_NOT_NULL(lb, "");
	fl2 = fv_raw_flow(lb, mc);
	bad = fv_raw_flow(lb, uc2);
	TEST_ASSERT(fl2 != NULL && bad != NULL, "");
	TEST_ASSERT_SUCCESS(fv_post_recv(lb, 6144, 2048), "");
	TEST_ASSERT_EQUAL(fv_raw_lost(tx, rcq, mc, &ps), TEST_SUCCESS,
			  "its own multicast");
	TEST_ASSERT_EQUAL(ps.rx_self_lb, ps0.rx_self_lb + 1, "");
	TEST_ASSERT_SUCCESS(fv_raw_send(tx, uc2, 0, 64, 0, mr->lkey), "");
	TEST_ASSERT_EQUAL(fv_poll(cq, &wc, 1, 1000), 1, "");
	TEST_ASSERT_EQUAL(fv_poll(rcq, &wc, 1, 1000), 1, "");
	/* lb's receive (its wr_id): the unicast frame passes. */
	TEST_ASSERT(wc.status == IBV_WC_SUCCESS && wc.wr_id == 6144 &&
			    wc.byte_len == 64,
		    "unicast passes");

	TEST_ASSERT_SUCCESS(ibv_destroy_flow(bad), "");
	TEST_ASSERT_SUCCESS(ibv_destroy_flow(fl2), "");
	TEST_ASSERT_SUCCESS(ibv_destroy_flow(fl), "");
	TEST_ASSERT_SUCCESS(ibv_destroy_qp(lb), "");
	TEST_ASSERT_SUCCESS(ibv_destroy_qp(rx), "");
	TEST_ASSERT_SUCCESS(ibv_destroy_qp(tx), "");
	TEST_ASSERT_SUCCESS(ibv_destroy_cq(rcq), "");
	TEST_ASSERT_SUCCESS(mlx5_sim_vhca_stats(0, 0, &st), "");
	TEST_ASSERT(st.sqs == st0.sqs && st.rqs == st0.rqs &&
			    st.tiss == st0.tiss && st.tirs == st0.tirs &&
			    st.flows == st0.flows && st.cqs + 1 == st0.cqs,
		    "every part gone: sq %" PRIu64 "/%" PRIu64 " rq %" PRIu64
		    "/%" PRIu64 " tis %" PRIu64 "/%" PRIu64 " tir %" PRIu64
		    "/%" PRIu64 " flows %" PRIu64 "/%" PRIu64,
		    st.sqs, st0.sqs, st.rqs, st0.rqs, st.tiss, st0.tiss,
		    st.tirs, st0.tirs, st.flows, st0.flows);
	return TEST_SUCCESS;
}

/* An IPv4/UDP frame to @dmac and @dst at buf[@off], @len bytes, no sums. */
static void
fv_ipv4_frame(uint32_t off, const uint8_t *dmac, uint32_t dst, uint32_t len)
{
	uint8_t *f = buf + off;

	fv_raw_frame(f, dmac, len);
	f[12] = 0x08;
	f[13] = 0x00;
	memset(f + 14, 0, 28);
	f[14] = 0x45;
	f[16] = (uint8_t)((len - 14) >> 8);
	f[17] = (uint8_t)(len - 14);
	f[22] = 64;
	f[23] = IPPROTO_UDP;
	f[26] = 10;
	f[29] = 1;
	for (int n = 0; n < 4; n++)
		f[30 + n] = (uint8_t)(dst >> (24 - 8 * n));
	f[34] = 0x12;
	f[36] = 0x13;
	f[38] = (uint8_t)((len - 34) >> 8);
	f[39] = (uint8_t)(len - 34);
}

/* IEEE 802.3's CRC-32 of @len bytes, as a frame's FCS carries it. */
static uint32_t
fv_crc32(const uint8_t *p, uint32_t len)
{
	uint32_t crc = UINT32_MAX;

	for (uint32_t i = 0; i < len; i++) {
		crc ^= p[i];
		for (int b = 0; b < 8; b++)
			crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1)));
	}
	return ~crc;
}

/*
 * What a raw QP gets of the device's offloads and rules: a plain IPv4
 * spec matches the destination address (another address finds no rule);
 * specs that disagree on a field are EINVAL; IBV_SEND_IP_CSUM fills the
 * IPv4 and UDP checksums and the receive says IBV_WC_IP_CSUM_OK (none
 * for a frame without them); a QP made with IBV_QP_CREATE_SCATTER_FCS
 * receives the frame's FCS after it, counted in its length.
 */
static int
test_raw_offloads(void)
{
	static const uint8_t uc[6] = { 0x02, 0x11, 0x22, 0x33, 0x44, 0x88 };
	static const uint8_t uc2[6] = { 0x02, 0x11, 0x22, 0x33, 0x44, 0x99 };
	struct ibv_cq *rcq = ibv_create_cq(ctx, 16, NULL, NULL, 0);
	struct ibv_device_attr_ex da;
	struct mlx5_sim_port_stats ps0, ps;
	struct {
		struct ibv_flow_attr attr;
		struct ibv_flow_spec_eth eth;
		struct ibv_flow_spec_ipv4 ip;
	} f4 = {
		.attr = { .type = IBV_FLOW_ATTR_NORMAL,
			  .size = sizeof(f4),
			  .num_of_specs = 1,
			  .port = 1 },
		.eth = { .type = IBV_FLOW_SPEC_IPV4,
			 .size = sizeof(struct ibv_flow_spec_ipv4) },
	};
	struct ibv_flow_spec_ipv4 *ip =
		(struct ibv_flow_spec_ipv4 *)(void *)&f4.eth;
	struct ibv_qp *tx, *rx, *fcs;
	struct ibv_flow *fl, *fl2;
	struct ibv_wc wc;
	uint32_t crc;

	TEST_ASSERT_NOT_NULL(rcq, "");
	TEST_ASSERT_SUCCESS(ibv_query_device_ex(ctx, NULL, &da), "");
	TEST_ASSERT(
		(da.orig_attr.device_cap_flags & IBV_DEVICE_RAW_IP_CSUM) &&
			(da.raw_packet_caps & IBV_RAW_PACKET_CAP_IP_CSUM) &&
			(da.device_cap_flags_ex & IBV_DEVICE_RAW_SCATTER_FCS),
		"the eth caps' offloads, as mlx5_ib reports them");
	tx = fv_raw_qp(cq, 0);
	rx = fv_raw_qp(rcq, 0);
	TEST_ASSERT(tx != NULL && rx != NULL, "");
	/* The plain IPv4 spec: 192.168.7.9 only. */
	ip->val.dst_ip = htobe32(0xc0a80709);
	ip->mask.dst_ip = UINT32_MAX;
	fl = ibv_create_flow(rx, &f4.attr);
	TEST_ASSERT_NOT_NULL(fl, "%s", strerror(errno));
	TEST_ASSERT_SUCCESS(fv_raw_recv(rx), "");
	TEST_ASSERT_SUCCESS(mlx5_sim_port_stats(0, 0, 1, &ps0), "");
	fv_ipv4_frame(0, uc, 0xc0a8070a, 100);
	TEST_ASSERT_SUCCESS(fv_raw_post(tx, 0, 100, 0, mr->lkey), "");
	TEST_ASSERT_EQUAL(fv_poll(cq, &wc, 1, 1000), 1, "");
	TEST_ASSERT_EQUAL(fv_poll(rcq, &wc, 1, 50), 0, "another address");
	TEST_ASSERT_SUCCESS(mlx5_sim_port_stats(0, 0, 1, &ps), "");
	TEST_ASSERT_EQUAL(ps.rx_no_rule, ps0.rx_no_rule + 1, "");
	/* Without checksums: the frame lands, not said good. */
	fv_ipv4_frame(0, uc, 0xc0a80709, 100);
	TEST_ASSERT_SUCCESS(fv_raw_post(tx, 0, 100, 0, mr->lkey), "");
	TEST_ASSERT_EQUAL(fv_poll(cq, &wc, 1, 1000), 1, "");
	TEST_ASSERT_EQUAL(fv_poll(rcq, &wc, 1, 1000), 1, "");
	TEST_ASSERT(wc.status == IBV_WC_SUCCESS && wc.byte_len == 100 &&
			    !(wc.wc_flags & IBV_WC_IP_CSUM_OK),
		    "");
	/* With IBV_SEND_IP_CSUM: filled by the device, said good. */
	TEST_ASSERT_SUCCESS(fv_raw_recv(rx), "");
	TEST_ASSERT_SUCCESS(fv_raw_post(tx, 0, 100, IBV_SEND_IP_CSUM, mr->lkey),
			    "");
	TEST_ASSERT_EQUAL(fv_poll(cq, &wc, 1, 1000), 1, "");
	TEST_ASSERT_EQUAL(wc.status, IBV_WC_SUCCESS, "");
	TEST_ASSERT_EQUAL(fv_poll(rcq, &wc, 1, 1000), 1, "");
	TEST_ASSERT(wc.status == IBV_WC_SUCCESS &&
			    (wc.wc_flags & IBV_WC_IP_CSUM_OK),
		    "flags 0x%x", wc.wc_flags);
	TEST_ASSERT((buf[4096 + 24] | buf[4096 + 25]) != 0 &&
			    (buf[4096 + 40] | buf[4096 + 41]) != 0 &&
			    memcmp(buf + 4096 + 42, buf + 42, 58) == 0,
		    "sums filled, payload as sent");
	/* Two specs that disagree on the ethertype. */
	f4.eth = (struct ibv_flow_spec_eth){
		.type = IBV_FLOW_SPEC_ETH,
		.size = sizeof(f4.eth),
		.val = { .ether_type = htobe16(0x86dd) },
		.mask = { .ether_type = UINT16_MAX },
	};
	f4.ip = (struct ibv_flow_spec_ipv4){ .type = IBV_FLOW_SPEC_IPV4,
					     .size = sizeof(f4.ip) };
	f4.attr.num_of_specs = 2;
	fl2 = ibv_create_flow(rx, &f4.attr);
	TEST_ASSERT(fl2 == NULL && errno == EINVAL, "IPv6 and IPv4");

	/* The FCS scattered after the frame. */
	fcs = fv_raw_qp(rcq, IBV_QP_CREATE_SCATTER_FCS);
	TEST_ASSERT_NOT_NULL(fcs, "%s", strerror(errno));
	fl2 = fv_raw_flow(fcs, uc2);
	TEST_ASSERT_NOT_NULL(fl2, "");
	TEST_ASSERT_SUCCESS(fv_post_recv(fcs, 6144, 2048), "");
	TEST_ASSERT_SUCCESS(fv_raw_send(tx, uc2, 0, 64, 0, mr->lkey), "");
	TEST_ASSERT_EQUAL(fv_poll(cq, &wc, 1, 1000), 1, "");
	TEST_ASSERT_EQUAL(fv_poll(rcq, &wc, 1, 1000), 1, "");
	TEST_ASSERT(wc.status == IBV_WC_SUCCESS && wc.byte_len == 64 + 4,
		    "len %u", wc.byte_len);
	crc = fv_crc32(buf, 64);
	TEST_ASSERT(memcmp(buf + 6144, buf, 64) == 0 &&
			    buf[6144 + 64] == (uint8_t)crc &&
			    buf[6144 + 65] == (uint8_t)(crc >> 8) &&
			    buf[6144 + 66] == (uint8_t)(crc >> 16) &&
			    buf[6144 + 67] == (uint8_t)(crc >> 24),
		    "the FCS, least significant byte first");

	TEST_ASSERT_SUCCESS(ibv_destroy_flow(fl2), "");
	TEST_ASSERT_SUCCESS(ibv_destroy_flow(fl), "");
	TEST_ASSERT_SUCCESS(ibv_destroy_qp(fcs), "");
	TEST_ASSERT_SUCCESS(ibv_destroy_qp(rx), "");
	TEST_ASSERT_SUCCESS(ibv_destroy_qp(tx), "");
	TEST_ASSERT_SUCCESS(ibv_destroy_cq(rcq), "");
	return TEST_SUCCESS;
}

/*
 * What a verbs PMD (DPDK's own mlx5, dv_flow_en=0) asks of a raw QP and
 * of the device beyond verbs: RSS caps as mlx5_ib reports them; DEVX
 * through the raw QP's handle on its parts (mlx5_ib's
 * devx_is_valid_obj_id(): QUERY_TIS gives the transport domain, QUERY_SQ
 * the SQ's state) and on nothing else; libmlx5's steering action to a QP
 * (mlx5dv_dr_action_create_dest_ibv_qp()).
 */
static int
test_raw_devx(void)
{
	uint32_t in[MLX5_ST_SZ_DW(query_sq_in)] = { 0 };
	uint32_t out[MLX5_ST_SZ_DW(query_sq_out)] = { 0 };
	void *tisc = MLX5_ADDR_OF(query_tis_out, out, tis_context);
	void *sqc = MLX5_ADDR_OF(query_sq_out, out, sq_context);
	struct ibv_device_attr_ex da;
	struct mlx5dv_qp dvq = { .comp_mask = MLX5DV_QP_MASK_RAW_QP_HANDLES };
	struct mlx5dv_obj obj = { .qp = { .out = &dvq } };
	struct mlx5dv_dr_action *act;
	struct ibv_qp *q;

	TEST_ASSERT_SUCCESS(ibv_query_device_ex(ctx, NULL, &da), "");
	TEST_ASSERT((da.rss_caps.supported_qpts & (1u << IBV_QPT_RAW_PACKET)) &&
			    da.rss_caps.rx_hash_function ==
				    IBV_RX_HASH_FUNC_TOEPLITZ &&
			    da.rss_caps.max_rwq_indirection_table_size == 256 &&
			    !(da.rss_caps.rx_hash_fields_mask &
			      IBV_RX_HASH_INNER) &&
			    da.max_wq_type_rq != 0,
		    "RSS caps");
	q = fv_raw_qp(cq, 0);
	TEST_ASSERT_NOT_NULL(q, "");
	obj.qp.in = q;
	TEST_ASSERT_SUCCESS(mlx5dv_init_obj(&obj, MLX5DV_OBJ_QP), "");
	MLX5_SET(query_tis_in, in, opcode, MLX5_CMD_OP_QUERY_TIS);
	MLX5_SET(query_tis_in, in, tisn, dvq.tisn);
	TEST_ASSERT_SUCCESS(
		mlx5dv_devx_qp_query(q, in, sizeof(in), out, sizeof(out)),
		"QUERY_TIS of its TIS");
	TEST_ASSERT(MLX5_GET(tisc, tisc, transport_domain) != 0, "");
	MLX5_SET(query_tis_in, in, tisn, dvq.tisn + 1000);
	TEST_ASSERT_EQUAL(
		mlx5dv_devx_qp_query(q, in, sizeof(in), out, sizeof(out)),
		EINVAL, "another TIS");
	/* Nor through another object's handle (a DEVX TD). */
	{
		uint32_t tin[MLX5_ST_SZ_DW(alloc_transport_domain_in)] = { 0 };
		uint32_t tout[MLX5_ST_SZ_DW(alloc_transport_domain_out)];
		struct mlx5dv_devx_obj *td;

		MLX5_SET(alloc_transport_domain_in, tin, opcode,
			 MLX5_CMD_OP_ALLOC_TRANSPORT_DOMAIN);
		td = mlx5dv_devx_obj_create(ctx, tin, sizeof(tin), tout,
					    sizeof(tout));
		TEST_ASSERT_NOT_NULL(td, "");
		MLX5_SET(query_tis_in, in, tisn, dvq.tisn);
		TEST_ASSERT_EQUAL(mlx5dv_devx_obj_query(td, in, sizeof(in), out,
							sizeof(out)),
				  EINVAL, "QUERY_TIS through a TD's handle");
		TEST_ASSERT_SUCCESS(mlx5dv_devx_obj_destroy(td), "");
	}
	MLX5_SET(query_sq_in, in, opcode, MLX5_CMD_OP_QUERY_SQ);
	MLX5_SET(query_sq_in, in, sqn, dvq.sqn);
	TEST_ASSERT_SUCCESS(
		mlx5dv_devx_qp_query(q, in, sizeof(in), out, sizeof(out)),
		"QUERY_SQ of its SQ");
	TEST_ASSERT_EQUAL(MLX5_GET(sqc, sqc, state), MLX5_WQ_STATE_RDY,
			  "ready at RTS");
	MLX5_SET(query_qp_in, in, opcode, MLX5_CMD_OP_QUERY_QP);
	MLX5_SET(query_qp_in, in, qpn, q->qp_num);
	TEST_ASSERT_EQUAL(
		mlx5dv_devx_qp_query(q, in, sizeof(in), out, sizeof(out)),
		EINVAL, "no QP object");
	TEST_ASSERT(mlx5dv_dr_action_create_dest_ibv_qp(NULL) == NULL &&
			    errno == EINVAL,
		    "");
	act = mlx5dv_dr_action_create_dest_ibv_qp(q);
	TEST_ASSERT_NOT_NULL(act, "");
	TEST_ASSERT_SUCCESS(mlx5dv_dr_action_destroy(act), "");
	TEST_ASSERT_SUCCESS(ibv_destroy_qp(q), "");
	return TEST_SUCCESS;
}

/*
 * Extended CQs (ibv_create_cq_ex(), mlx5dv_create_cq()): libmlx5's
 * iterator over a CQ (ENOENT when empty, the completions in order with
 * the fields asked for); work completion fields the front does not
 * carry are EOPNOTSUPP; CQE compression with one mini-CQE format of those
 * mlx5dv_query_device() announces (hash, checksum) is the CQ's (QUERY_CQ),
 * with another or with two EINVAL; 128-byte CQEs EOPNOTSUPP (libmlx5's
 * size the device lacks),
 * another size EINVAL (the attribute's or MLX5_CQE_SIZE's); a striding
 * RQ of mlx5dv_create_wq() is EINVAL; mlx5dv_query_device() offers no
 * multi-packet send, which the device does not run.
 */
static int
test_cq_ex(void)
{
	struct ibv_cq_init_attr_ex ca = {
		.cqe = 16,
		.wc_flags = IBV_WC_EX_WITH_BYTE_LEN | IBV_WC_EX_WITH_QP_NUM,
	};
	struct mlx5dv_cq_init_attr dca = {
		.comp_mask = MLX5DV_CQ_INIT_ATTR_MASK_COMPRESSED_CQE,
		.cqe_comp_res_format = MLX5DV_CQE_RES_FORMAT_HASH,
	};
	struct mlx5dv_wq_init_attr dwa = {
		.comp_mask = MLX5DV_WQ_INIT_ATTR_MASK_STRIDING_RQ,
	};
	struct ibv_wq_init_attr wa = {
		.wq_type = IBV_WQT_RQ, .max_wr = 4, .max_sge = 1, .pd = pd
	};
	struct ibv_poll_cq_attr pa = { .comp_mask = 0 };
	struct mlx5dv_context dc = { .comp_mask = 0 };
	uint32_t qin[MLX5_ST_SZ_DW(query_cq_in)] = { 0 };
	uint32_t qout[MLX5_ST_SZ_DW(query_cq_out)] = { 0 };
	struct ibv_comp_channel *ch;
	struct mlx5dv_cq dcq;
	struct mlx5dv_obj obj = { .cq = { .out = &dcq } };
	struct ibv_cq_ex *cqx, *d;
	struct ibv_qp *a, *b;
	struct ibv_wq *wq;
	int n;

	TEST_ASSERT_SUCCESS(mlx5dv_query_device(ctx, &dc), "");
	TEST_ASSERT((dc.flags & (MLX5DV_CONTEXT_FLAGS_MPW_ALLOWED |
				 MLX5DV_CONTEXT_FLAGS_ENHANCED_MPW)) ==
			    (MLX5DV_CONTEXT_FLAGS_MPW_ALLOWED |
			     MLX5DV_CONTEXT_FLAGS_ENHANCED_MPW),
		    "enhanced multi-packet send (the empw capability)");
	ca.wc_flags |= IBV_WC_EX_WITH_COMPLETION_TIMESTAMP;
	TEST_ASSERT(ibv_create_cq_ex(ctx, &ca) == NULL && errno == EOPNOTSUPP,
		    "timestamps are not carried");
	ca.wc_flags &= ~(uint64_t)IBV_WC_EX_WITH_COMPLETION_TIMESTAMP;
	dc.comp_mask = MLX5DV_CONTEXT_MASK_CQE_COMPRESION;
	TEST_ASSERT_SUCCESS(mlx5dv_query_device(ctx, &dc), "");
	TEST_ASSERT(dc.comp_mask & MLX5DV_CONTEXT_MASK_CQE_COMPRESION, "");
	TEST_ASSERT_EQUAL(dc.cqe_comp_caps.max_num, 64, "the default session");
	TEST_ASSERT_EQUAL(dc.cqe_comp_caps.supported_format,
			  MLX5DV_CQE_RES_FORMAT_HASH |
				  MLX5DV_CQE_RES_FORMAT_CSUM,
			  "hash and checksum mini-CQEs");
	for (n = 0; n < 2; n++) {
		dca.cqe_comp_res_format = n == 0 ? MLX5DV_CQE_RES_FORMAT_HASH :
						   MLX5DV_CQE_RES_FORMAT_CSUM;
		d = mlx5dv_create_cq(ctx, &ca, &dca);
		TEST_ASSERT_NOT_NULL(d, "compressed, format %d", n);
		obj.cq.in = ibv_cq_ex_to_cq(d);
		TEST_ASSERT_SUCCESS(mlx5dv_init_obj(&obj, MLX5DV_OBJ_CQ), "");
		MLX5_SET(query_cq_in, qin, opcode, MLX5_CMD_OP_QUERY_CQ);
		MLX5_SET(query_cq_in, qin, cqn, dcq.cqn);
		TEST_ASSERT_SUCCESS(mlx5dv_devx_cq_query(ibv_cq_ex_to_cq(d),
							 qin, sizeof(qin), qout,
							 sizeof(qout)),
				    "");
		TEST_ASSERT(
			MLX5_GET(cqc,
				 MLX5_ADDR_OF(query_cq_out, qout, cq_context),
				 cqe_comp_en) == 1 &&
				MLX5_GET(cqc,
					 MLX5_ADDR_OF(query_cq_out, qout,
						      cq_context),
					 mini_cqe_res_format) == (uint32_t)n,
			"the CQ's context says so");
		TEST_ASSERT_SUCCESS(ibv_destroy_cq(ibv_cq_ex_to_cq(d)), "");
	}
	dca.cqe_comp_res_format =
		MLX5DV_CQE_RES_FORMAT_HASH | MLX5DV_CQE_RES_FORMAT_CSUM;
	TEST_ASSERT(mlx5dv_create_cq(ctx, &ca, &dca) == NULL && errno == EINVAL,
		    "two mini-CQE formats (mlx5_ib)");
	dca.cqe_comp_res_format = MLX5DV_CQE_RES_FORMAT_CSUM_STRIDX;
	TEST_ASSERT(mlx5dv_create_cq(ctx, &ca, &dca) == NULL && errno == EINVAL,
		    "a stride index, not announced (libmlx5)");
	dca.comp_mask = MLX5DV_CQ_INIT_ATTR_MASK_CQE_SIZE;
	dca.cqe_size = 128;
	TEST_ASSERT(mlx5dv_create_cq(ctx, &ca, &dca) == NULL &&
			    errno == EOPNOTSUPP,
		    "64-byte CQEs only");
	dca.cqe_size = 100;
	TEST_ASSERT(mlx5dv_create_cq(ctx, &ca, &dca) == NULL && errno == EINVAL,
		    "libmlx5: 64 or 128");
	setenv("MLX5_CQE_SIZE", "100", 1);
	d = ibv_create_cq_ex(ctx, &ca);
	unsetenv("MLX5_CQE_SIZE");
	TEST_ASSERT(d == NULL && errno == EINVAL, "nor from the environment");
	dca.cqe_size = 64;
	d = mlx5dv_create_cq(ctx, &ca, &dca);
	TEST_ASSERT_NOT_NULL(d, "");
	wa.cq = ibv_cq_ex_to_cq(d);
	TEST_ASSERT(mlx5dv_create_wq(ctx, &wa, &dwa) == NULL && errno == EINVAL,
		    "no striding RQ");
	wq = mlx5dv_create_wq(ctx, &wa, NULL);
	TEST_ASSERT_NOT_NULL(wq, "");
	TEST_ASSERT_SUCCESS(ibv_destroy_wq(wq), "");
	TEST_ASSERT_SUCCESS(ibv_destroy_cq(ibv_cq_ex_to_cq(d)), "");

	cqx = ibv_create_cq_ex(ctx, &ca);
	TEST_ASSERT_NOT_NULL(cqx, "%s", strerror(errno));
	TEST_ASSERT(cqx->read_byte_len != NULL && cqx->read_qp_num != NULL &&
			    cqx->read_src_qp == NULL,
		    "the fields asked for, and only those");
	TEST_ASSERT_EQUAL(ibv_start_poll(cqx, &pa), ENOENT, "empty");
	/* Two RC sends completing on the extended CQ. */
	a = fv_qp_create(IBV_QPT_RC);
	b = fv_qp_create_on(IBV_QPT_RC, ibv_cq_ex_to_cq(cqx), cq);
	TEST_ASSERT(a != NULL && b != NULL, "");
	TEST_ASSERT_SUCCESS(fv_qp_connect(a, b->qp_num), "");
	TEST_ASSERT_SUCCESS(fv_qp_connect(b, a->qp_num), "");
	TEST_ASSERT_SUCCESS(fv_post_recv(a, 0, 64), "");
	TEST_ASSERT_SUCCESS(fv_post_recv(a, 64, 64), "");
	TEST_ASSERT_SUCCESS(fv_send(b, IBV_WR_SEND, 1024, 10, NULL, 0, 0), "");
	TEST_ASSERT_SUCCESS(fv_send(b, IBV_WR_SEND, 2048, 20, NULL, 0, 0), "");
	n = 0;
	for (int tries = 0; tries < 1000 && n == 0; tries++)
		if (ibv_start_poll(cqx, &pa) == 0)
			n = 1;
	TEST_ASSERT_EQUAL(n, 1, "a completion");
	TEST_ASSERT(cqx->status == IBV_WC_SUCCESS && cqx->wr_id == 1024 &&
			    ibv_wc_read_opcode(cqx) == IBV_WC_SEND &&
			    ibv_wc_read_qp_num(cqx) == b->qp_num,
		    "the first send");
	/* The record moves at the poll's end only (libmlx5's). */
	obj.cq.in = ibv_cq_ex_to_cq(cqx);
	TEST_ASSERT_SUCCESS(mlx5dv_init_obj(&obj, MLX5DV_OBJ_CQ), "");
	TEST_ASSERT_EQUAL(be32toh(*dcq.dbrec), 0, "the slot still the CQ's");
	for (n = 0; n < 1000 && ibv_next_poll(cqx) == ENOENT; n++)
		;
	TEST_ASSERT(n < 1000 && cqx->status == IBV_WC_SUCCESS &&
			    cqx->wr_id == 2048,
		    "the second, in order");
	TEST_ASSERT_EQUAL(ibv_next_poll(cqx), ENOENT, "no third");
	ibv_end_poll(cqx);
	TEST_ASSERT_EQUAL(be32toh(*dcq.dbrec), 2, "both slots given back");
	TEST_ASSERT_EQUAL(fv_poll(cq, &(struct ibv_wc){ 0 }, 1, 1000), 1, "");
	TEST_ASSERT_EQUAL(fv_poll(cq, &(struct ibv_wc){ 0 }, 1, 1000), 1, "");
	TEST_ASSERT_SUCCESS(ibv_destroy_qp(b), "");
	TEST_ASSERT_SUCCESS(ibv_destroy_qp(a), "");
	TEST_ASSERT_SUCCESS(ibv_destroy_cq(ibv_cq_ex_to_cq(cqx)), "");

	/*
	 * IGNORE_OVERRUN is the CQ's oi (the device's context says so);
	 * arming inside a poll does not wait for the poll's lock.
	 */
	ch = ibv_create_comp_channel(ctx);
	TEST_ASSERT_NOT_NULL(ch, "");
	ca.channel = ch;
	ca.comp_mask = IBV_CQ_INIT_ATTR_MASK_FLAGS;
	ca.flags = IBV_CREATE_CQ_ATTR_IGNORE_OVERRUN;
	cqx = ibv_create_cq_ex(ctx, &ca);
	TEST_ASSERT_NOT_NULL(cqx, "");
	obj.cq.in = ibv_cq_ex_to_cq(cqx);
	TEST_ASSERT_SUCCESS(mlx5dv_init_obj(&obj, MLX5DV_OBJ_CQ), "");
	MLX5_SET(query_cq_in, qin, opcode, MLX5_CMD_OP_QUERY_CQ);
	MLX5_SET(query_cq_in, qin, cqn, dcq.cqn);
	TEST_ASSERT_SUCCESS(mlx5dv_devx_cq_query(ibv_cq_ex_to_cq(cqx), qin,
						 sizeof(qin), qout,
						 sizeof(qout)),
			    "");
	TEST_ASSERT_EQUAL(
		MLX5_GET(cqc, MLX5_ADDR_OF(query_cq_out, qout, cq_context), oi),
		1, "overruns ignored");
	TEST_ASSERT_EQUAL(ibv_start_poll(cqx, &pa), ENOENT, "");
	/* A QP of its own on this CQ: a send and its receive. */
	a = fv_qp_create_on(IBV_QPT_RC, ibv_cq_ex_to_cq(cqx),
			    ibv_cq_ex_to_cq(cqx));
	TEST_ASSERT(a != NULL && fv_qp_connect(a, a->qp_num) == 0, "");
	TEST_ASSERT_SUCCESS(fv_post_recv(a, 0, 64), "");
	TEST_ASSERT_SUCCESS(fv_send(a, IBV_WR_SEND, 1024, 10, NULL, 0, 0), "");
	for (n = 0; n < 1000 && ibv_start_poll(cqx, &pa) == ENOENT; n++)
		;
	TEST_ASSERT(n < 1000, "a completion");
	TEST_ASSERT_SUCCESS(ibv_req_notify_cq(ibv_cq_ex_to_cq(cqx), 0),
			    "armed inside the poll");
	ibv_end_poll(cqx);
	TEST_ASSERT_SUCCESS(ibv_destroy_qp(a), "");
	TEST_ASSERT_SUCCESS(ibv_destroy_cq(ibv_cq_ex_to_cq(cqx)), "");
	TEST_ASSERT_SUCCESS(ibv_destroy_comp_channel(ch), "");
	return TEST_SUCCESS;
}

/*
 * An RSS QP over @tbl hashing @fields with @key (@key_len bytes); with
 * mlx5dv creation flags @dv_flags through mlx5dv_create_qp() (0: through
 * ibv_create_qp_ex()).
 */
static struct ibv_qp *
fv_rss_qp_dv(struct ibv_rwq_ind_table *tbl, uint64_t fields, uint8_t *key,
	     uint8_t key_len, uint8_t fn, uint32_t dv_flags)
{
	struct ibv_qp_init_attr_ex ia = {
		.qp_type = IBV_QPT_RAW_PACKET,
		.comp_mask = IBV_QP_INIT_ATTR_PD | IBV_QP_INIT_ATTR_RX_HASH |
			     IBV_QP_INIT_ATTR_IND_TABLE,
		.pd = pd,
		.rwq_ind_tbl = tbl,
		.rx_hash_conf = { .rx_hash_function = fn,
				  .rx_hash_key_len = key_len,
				  .rx_hash_key = key,
				  .rx_hash_fields_mask = fields },
	};
	struct mlx5dv_qp_init_attr da = {
		.comp_mask = MLX5DV_QP_INIT_ATTR_MASK_QP_CREATE_FLAGS,
		.create_flags = dv_flags,
	};

	return dv_flags != 0 ? mlx5dv_create_qp(ctx, &ia, &da) :
			       ibv_create_qp_ex(ctx, &ia);
}

static struct ibv_qp *
fv_rss_qp(struct ibv_rwq_ind_table *tbl, uint64_t fields, uint8_t *key,
	  uint8_t key_len, uint8_t fn)
{
	return fv_rss_qp_dv(tbl, fields, key, key_len, fn, 0);
}

/*
 * Work queues, indirection tables and RSS QPs (mlx5_ib's RSS raw QP: a
 * TIR over the table, no queue of its own): a WQ moves by its state
 * (flags refused), takes receives (ENOMEM when full) and starts over at
 * RESET; mlx5_ib's hash checks (Toeplitz, 40-byte key, IPv4 or IPv6, TCP
 * or UDP, no send CQ, no receive queue of its own); the RSS QP has no
 * state (libmlx5's EOPNOTSUPP), holds its table
 * (EBUSY), which holds its WQs (EBUSY); a rule on it spreads frames over
 * the WQs by the Toeplitz hash of their addresses (DPDK's rte_softrss()
 * says which WQ each lands in).
 */
static int
test_rss(void)
{
	static const uint8_t uc[6] = { 0x02, 0x11, 0x22, 0x33, 0x44, 0x77 };
	uint8_t key[40];
	struct ibv_cq *rcq = ibv_create_cq(ctx, 64, NULL, NULL, 0);
	struct ibv_wq_init_attr wa = { .wq_type = IBV_WQT_RQ,
				       .max_wr = 4,
				       .max_sge = 1,
				       .pd = pd,
				       .cq = rcq };
	struct ibv_wq_attr mod = { .attr_mask = IBV_WQ_ATTR_STATE,
				   .wq_state = IBV_WQS_RDY };
	struct ibv_rwq_ind_table_init_attr ta = { .log_ind_tbl_size = 2 };
	uint32_t got[4] = { 0 }, want[4] = { 0 };
	struct ibv_recv_wr rwr, *rbad;
	struct ibv_sge rsg;
	struct ibv_rwq_ind_table *tbl;
	struct ibv_qp *tx, *rss;
	struct ibv_qp_attr a;
	struct ibv_qp_init_attr ia;
	struct ibv_flow *fl;
	struct ibv_wq *wq[4];
	struct ibv_wc wc;
	int i, n;

	TEST_ASSERT_NOT_NULL(rcq, "");
	for (i = 0; i < 40; i++)
		key[i] = (uint8_t)(0x6d + i * 11);
	for (i = 0; i < 4; i++) {
		wq[i] = ibv_create_wq(ctx, &wa);
		TEST_ASSERT_NOT_NULL(wq[i], "%s", strerror(errno));
	}
	/* A WQ's flags (VLAN stripping, ...) are not modelled. */
	mod.attr_mask = IBV_WQ_ATTR_FLAGS;
	mod.flags = mod.flags_mask = IBV_WQ_FLAGS_CVLAN_STRIPPING;
	TEST_ASSERT_EQUAL(ibv_modify_wq(wq[0], &mod), EOPNOTSUPP, "");
	mod.attr_mask = IBV_WQ_ATTR_RESERVED;
	TEST_ASSERT_EQUAL(ibv_modify_wq(wq[0], &mod), EINVAL, "");
	mod.attr_mask = IBV_WQ_ATTR_STATE;
	for (i = 0; i < 4; i++) {
		TEST_ASSERT_SUCCESS(ibv_modify_wq(wq[i], &mod), "");
		TEST_ASSERT_EQUAL(wq[i]->state, IBV_WQS_RDY, "");
	}
	ta.ind_tbl = wq;
	tbl = ibv_create_rwq_ind_table(ctx, &ta);
	TEST_ASSERT_NOT_NULL(tbl, "");
	TEST_ASSERT_EQUAL(ibv_destroy_wq(wq[1]), EBUSY, "in a table");

	/* mlx5_ib's checks of the hash. */
	TEST_ASSERT(fv_rss_qp(tbl, IBV_RX_HASH_SRC_IPV4, key, 16,
			      IBV_RX_HASH_FUNC_TOEPLITZ) == NULL &&
			    errno == EINVAL,
		    "a 16-byte key");
	TEST_ASSERT(fv_rss_qp(tbl, IBV_RX_HASH_SRC_IPV4, key, 40, 0) == NULL &&
			    errno == EOPNOTSUPP,
		    "not Toeplitz");
	TEST_ASSERT(fv_rss_qp(tbl, IBV_RX_HASH_SRC_IPV4 | IBV_RX_HASH_DST_IPV6,
			      key, 40, IBV_RX_HASH_FUNC_TOEPLITZ) == NULL &&
			    errno == EINVAL,
		    "IPv4 and IPv6");
	TEST_ASSERT(
		fv_rss_qp(tbl,
			  IBV_RX_HASH_SRC_PORT_TCP | IBV_RX_HASH_DST_PORT_UDP,
			  key, 40, IBV_RX_HASH_FUNC_TOEPLITZ) == NULL &&
			errno == EINVAL,
		"TCP and UDP");
	TEST_ASSERT(fv_rss_qp(tbl, 0, key, 40, IBV_RX_HASH_FUNC_TOEPLITZ) ==
				    NULL &&
			    errno == EINVAL,
		    "no field over four WQs");
	{
		struct ibv_qp_init_attr_ex ra = {
			.qp_type = IBV_QPT_RAW_PACKET,
			.comp_mask = IBV_QP_INIT_ATTR_PD |
				     IBV_QP_INIT_ATTR_RX_HASH |
				     IBV_QP_INIT_ATTR_IND_TABLE,
			.pd = pd,
			.rwq_ind_tbl = tbl,
			.cap = { .max_recv_wr = 4 },
			.rx_hash_conf = { IBV_RX_HASH_FUNC_TOEPLITZ, 40, key,
					  IBV_RX_HASH_SRC_IPV4 },
		};

		TEST_ASSERT(ibv_create_qp_ex(ctx, &ra) == NULL &&
				    errno == EINVAL,
			    "a receive queue of its own");
	}
	TEST_ASSERT(fv_rss_qp(tbl, IBV_RX_HASH_SRC_IPV4 | IBV_RX_HASH_INNER,
			      key, 40, IBV_RX_HASH_FUNC_TOEPLITZ) == NULL &&
			    errno == EOPNOTSUPP,
		    "inner headers");
	rss = fv_rss_qp(tbl, IBV_RX_HASH_SRC_IPV4 | IBV_RX_HASH_DST_IPV4, key,
			40, IBV_RX_HASH_FUNC_TOEPLITZ);
	TEST_ASSERT_NOT_NULL(rss, "%s", strerror(errno));
	TEST_ASSERT_EQUAL(ibv_destroy_rwq_ind_table(tbl), EBUSY, "in use");
	a.qp_state = IBV_QPS_INIT;
	TEST_ASSERT_EQUAL(ibv_modify_qp(rss, &a, IBV_QP_STATE), EOPNOTSUPP, "");
	TEST_ASSERT_EQUAL(ibv_query_qp(rss, &a, IBV_QP_STATE, &ia), EOPNOTSUPP,
			  "");
	/*
	 * A TIR that allows self-loopback (DPDK's lpbk_mode asks it of
	 * mlx5dv_create_qp()): taken for a raw packet QP, not for an RC.
	 */
	{
		struct ibv_qp_init_attr_ex rc = {
			.send_cq = cq,
			.recv_cq = cq,
			.qp_type = IBV_QPT_RC,
			.cap = { .max_send_wr = 1,
				 .max_recv_wr = 1,
				 .max_send_sge = 1,
				 .max_recv_sge = 1 },
			.comp_mask = IBV_QP_INIT_ATTR_PD,
			.pd = pd,
		};
		struct mlx5dv_qp_init_attr lb = {
			.comp_mask = MLX5DV_QP_INIT_ATTR_MASK_QP_CREATE_FLAGS,
			.create_flags =
				MLX5DV_QP_CREATE_TIR_ALLOW_SELF_LOOPBACK_MC,
		};
		struct ibv_qp *q = fv_rss_qp_dv(
			tbl, IBV_RX_HASH_SRC_IPV4 | IBV_RX_HASH_DST_IPV4, key,
			40, IBV_RX_HASH_FUNC_TOEPLITZ,
			MLX5DV_QP_CREATE_TIR_ALLOW_SELF_LOOPBACK_UC |
				MLX5DV_QP_CREATE_TIR_ALLOW_SELF_LOOPBACK_MC);

		TEST_ASSERT_NOT_NULL(q, "self-loopback allowed: %s",
				     strerror(errno));
		TEST_ASSERT_SUCCESS(ibv_destroy_qp(q), "");
		TEST_ASSERT(mlx5dv_create_qp(ctx, &rc, &lb) == NULL &&
				    errno == EOPNOTSUPP,
			    "a TIR's flag on an RC QP");
	}

	/* A receive per WQE of every WQ, then one too many. */
	rsg.length = 256;
	rsg.lkey = mr->lkey;
	rwr = (struct ibv_recv_wr){ .sg_list = &rsg, .num_sge = 1 };
	for (i = 0; i < 4; i++)
		for (n = 0; n < 4; n++) {
			rsg.addr = (uintptr_t)buf + 4096 + (i * 4 + n) * 256;
			rwr.wr_id = (uint64_t)(i * 4 + n);
			TEST_ASSERT_SUCCESS(
				ibv_post_wq_recv(wq[i], &rwr, &rbad), "");
		}
	TEST_ASSERT_EQUAL(ibv_post_wq_recv(wq[0], &rwr, &rbad), ENOMEM, "full");

	/* Frames of 8 sources: each in the WQ the Toeplitz hash names. */
	tx = fv_raw_qp(cq, 0);
	TEST_ASSERT_NOT_NULL(tx, "");
	fl = fv_raw_flow(rss, uc);
	TEST_ASSERT_NOT_NULL(fl, "%s", strerror(errno));
	for (i = 0; i < 8; i++) {
		/* 10.0.0.(1 + 37 i) to 192.168.1.2, host order. */
		uint32_t tuple[2] = { UINT32_C(0x0a000001) + (uint32_t)i * 37,
				      UINT32_C(0xc0a80102) };
		uint8_t *f = buf + 128 * i;

		fv_raw_frame(f, uc, 128);
		f[12] = 0x08;
		f[13] = 0x00;
		memset(f + 14, 0, 20);
		f[14] = 0x45;
		f[16] = 0;
		f[17] = 128 - 14;
		f[22] = 64;
		f[23] = IPPROTO_UDP;
		for (n = 0; n < 4; n++) {
			f[26 + n] = (uint8_t)(tuple[0] >> (24 - 8 * n));
			f[30 + n] = (uint8_t)(tuple[1] >> (24 - 8 * n));
		}
		want[rte_softrss(tuple, 2, key) & 3]++;
		TEST_ASSERT_SUCCESS(fv_raw_post(tx, 128 * i, 128, 0, mr->lkey),
				    "");
		TEST_ASSERT_EQUAL(fv_poll(cq, &wc, 1, 1000), 1, "");
		TEST_ASSERT_EQUAL(wc.status, IBV_WC_SUCCESS, "");
		TEST_ASSERT_EQUAL(fv_poll(rcq, &wc, 1, 1000), 1, "frame %d", i);
		TEST_ASSERT(wc.status == IBV_WC_SUCCESS && wc.byte_len == 128 &&
				    wc.opcode == IBV_WC_RECV,
			    "");
		/* WQ n posted wr_ids 4n..4n+3; no flow tag in the CQE. */
		n = (int)(wc.wr_id / 4);
		TEST_ASSERT(n < 4 && wc.qp_num == 0, "a WQ's own receive");
		TEST_ASSERT(memcmp(buf + 4096 + wc.wr_id * 256, f, 128) == 0,
			    "");
		got[n]++;
		if ((rte_softrss(tuple, 2, key) & 3) != (uint32_t)n)
			TEST_ASSERT(false, "frame %d: WQ %d, hash says %u", i,
				    n, rte_softrss(tuple, 2, key) & 3);
	}
	TEST_ASSERT(memcmp(got, want, sizeof(got)) == 0, "");
	TEST_ASSERT((got[0] != 0) + (got[1] != 0) + (got[2] != 0) +
				    (got[3] != 0) >=
			    3,
		    "spread: %u %u %u %u", got[0], got[1], got[2], got[3]);

	/* A WQ back in RESET starts over: its receives are gone. */
	mod.wq_state = IBV_WQS_RESET;
	TEST_ASSERT_SUCCESS(ibv_modify_wq(wq[0], &mod), "");
	mod.wq_state = IBV_WQS_RDY;
	TEST_ASSERT_SUCCESS(ibv_modify_wq(wq[0], &mod), "");
	for (n = 0; n < 4; n++)
		TEST_ASSERT_SUCCESS(ibv_post_wq_recv(wq[0], &rwr, &rbad),
				    "room for 4 again");
	/* A WQ in ERR flushes what it holds (mlx5_ib: flush_in_error_en). */
	while (fv_poll(rcq, &wc, 1, 0) == 1)
		;
	mod.wq_state = IBV_WQS_ERR;
	TEST_ASSERT_SUCCESS(ibv_modify_wq(wq[0], &mod), "");
	for (n = 0; n < 4; n++) {
		TEST_ASSERT_EQUAL(fv_poll(rcq, &wc, 1, 1000), 1, "");
		TEST_ASSERT(wc.status == IBV_WC_WR_FLUSH_ERR &&
				    wc.qp_num == wq[0]->wq_num,
			    "status %d", wc.status);
	}
	mod.attr_mask = 0;
	TEST_ASSERT_EQUAL(ibv_modify_wq(wq[0], &mod), EINVAL, "nothing asked");

	TEST_ASSERT_SUCCESS(ibv_destroy_flow(fl), "");
	TEST_ASSERT_SUCCESS(ibv_destroy_qp(tx), "");
	TEST_ASSERT_SUCCESS(ibv_destroy_qp(rss), "");
	TEST_ASSERT_SUCCESS(ibv_destroy_rwq_ind_table(tbl), "");
	for (i = 0; i < 4; i++)
		TEST_ASSERT_SUCCESS(ibv_destroy_wq(wq[i]), "");
	TEST_ASSERT_SUCCESS(ibv_destroy_cq(rcq), "");
	return TEST_SUCCESS;
}

/* Free 2 MB huge pages of the host (/proc/meminfo), or -1. */
static long
fv_huge_free(void)
{
	FILE *f = fopen("/proc/meminfo", "r");
	char line[128];
	long n = -1;

	if (f == NULL)
		return -1;
	while (fgets(line, sizeof(line), f) != NULL)
		if (sscanf(line, "HugePages_Free: %ld", &n) == 1)
			break;
	fclose(f);
	return n;
}

/*
 * libmlx5's allocation types of rings (MLX_<kind>_ALLOC_TYPE): HUGE is
 * on 2 MB huge pages (the ring 2 MB aligned) or ENOMEM, CONTIG is ENOMEM
 * (mlx5_ib gives no contiguous pages), the PREFER_ kinds fall back to
 * ordinary pages. A huge page is taken only when the host has many free
 * (other tests, DPDK's, may need theirs meanwhile); with none, HUGE must
 * fail.
 */
static int
test_alloc_type(void)
{
	static const char *const types[] = { "HUGE", "CONTIG", "PREFER_CONTIG",
					     "PREFER_HUGE", "anon" };
	long huge = fv_huge_free();
	struct mlx5dv_cq dcq;
	struct mlx5dv_obj obj = { .cq = { .out = &dcq } };
	struct ibv_cq *c;

	for (unsigned int i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		bool hugepage = i == 0 || i == 3;

		/* Some free but few: leave them to whoever needs them. */
		if (hugepage && huge > 0 && huge < 16)
			continue;
		setenv("MLX_CQ_ALLOC_TYPE", types[i], 1);
		errno = 0;
		c = ibv_create_cq(ctx, 16, NULL, NULL, 0);
		unsetenv("MLX_CQ_ALLOC_TYPE");
		if ((i == 0 && huge == 0) || i == 1) {
			TEST_ASSERT(c == NULL && errno == ENOMEM, "%s",
				    types[i]);
			continue;
		}
		TEST_ASSERT(c != NULL, "%s (%ld huge pages free): %s", types[i],
			    huge, strerror(errno));
		obj.cq.in = c;
		TEST_ASSERT_SUCCESS(mlx5dv_init_obj(&obj, MLX5DV_OBJ_CQ), "");
		if (hugepage && huge >= 16)
			TEST_ASSERT((uintptr_t)dcq.buf % (2 << 20) == 0,
				    "%s: on a huge page", types[i]);
		TEST_ASSERT_SUCCESS(ibv_destroy_cq(c), "");
	}
	return TEST_SUCCESS;
}

/*
 * XRC domains (ib_uverbs' open_xrcd): a domain opened on a file is found
 * again by its inode (a second open shares it: no new domain); without
 * O_CREAT none is EAGAIN, O_EXCL on one that is EINVAL, a bad descriptor
 * EBADF, both attributes required (libibverbs: EINVAL); fd -1 is a
 * domain of its own. A handle an XRC SRQ was made through cannot close
 * (EBUSY) while the SRQ lives; the domain goes with its last handle. An
 * XRC SRQ needs its PD, CQ and domain (EINVAL, nothing made); its sizes
 * and limit are queried (QUERY_XRC_SRQ), its limit not set (not
 * modelled: EOPNOTSUPP); every SRQ has a number (ibv_get_srq_num).
 */
static int
test_xrc_domains(void)
{
	char path[] = "/tmp/fv-xrcd-XXXXXX";
	struct ibv_xrcd_init_attr xa = {
		.comp_mask = IBV_XRCD_INIT_ATTR_FD | IBV_XRCD_INIT_ATTR_OFLAGS,
	};
	struct ibv_srq_init_attr_ex sa = {
		.attr = { .max_wr = 4, .max_sge = 1 },
		.comp_mask = IBV_SRQ_INIT_ATTR_TYPE | IBV_SRQ_INIT_ATTR_PD |
			     IBV_SRQ_INIT_ATTR_XRCD | IBV_SRQ_INIT_ATTR_CQ,
		.srq_type = IBV_SRQT_XRC,
	};
	struct ibv_srq_init_attr ba = { .attr = { .max_wr = 3, .max_sge = 1 } };
	struct ibv_srq_attr qa;
	struct ibv_xrcd *x1, *x2, *x3;
	struct mlx5_sim_stats st0, st;
	struct ibv_srq *srq, *basic;
	uint32_t num;
	int fd;

	fd = mkstemp(path);
	TEST_ASSERT(fd >= 0, "");
	unlink(path);
	TEST_ASSERT_SUCCESS(mlx5_sim_vhca_stats(0, 0, &st0), "");
	xa.fd = fd;
	xa.oflags = 0;
	errno = 0;
	TEST_ASSERT(ibv_open_xrcd(ctx, &xa) == NULL, "no domain, no O_CREAT");
	TEST_ASSERT_EQUAL(errno, EAGAIN, "");
	xa.comp_mask = IBV_XRCD_INIT_ATTR_FD;
	xa.oflags = O_CREAT;
	TEST_ASSERT(ibv_open_xrcd(ctx, &xa) == NULL, "no oflags");
	TEST_ASSERT_EQUAL(errno, EINVAL, "");
	xa.comp_mask |= IBV_XRCD_INIT_ATTR_OFLAGS;
	xa.fd = 1000000;
	TEST_ASSERT(ibv_open_xrcd(ctx, &xa) == NULL, "bad fd");
	TEST_ASSERT_EQUAL(errno, EBADF, "");
	xa.fd = fd;
	x1 = ibv_open_xrcd(ctx, &xa);
	TEST_ASSERT_NOT_NULL(x1, "");
	x2 = ibv_open_xrcd(ctx, &xa);
	TEST_ASSERT_NOT_NULL(x2, "the same file again");
	TEST_ASSERT_SUCCESS(mlx5_sim_vhca_stats(0, 0, &st), "");
	TEST_ASSERT_EQUAL(st.xrcds, st0.xrcds + 1, "one domain, shared");
	xa.oflags = O_CREAT | O_EXCL;
	TEST_ASSERT(ibv_open_xrcd(ctx, &xa) == NULL, "O_EXCL");
	TEST_ASSERT_EQUAL(errno, EINVAL, "");
	xa.fd = -1;
	xa.oflags = 0;
	x3 = ibv_open_xrcd(ctx, &xa);
	TEST_ASSERT_NOT_NULL(x3, "a domain of its own");
	TEST_ASSERT_SUCCESS(mlx5_sim_vhca_stats(0, 0, &st), "");
	TEST_ASSERT_EQUAL(st.xrcds, st0.xrcds + 2, "");
	/* An XRC SRQ: PD, CQ and domain, each required. */
	sa.pd = pd;
	sa.cq = cq;
	sa.xrcd = x1;
	sa.comp_mask &= ~(uint32_t)IBV_SRQ_INIT_ATTR_CQ;
	TEST_ASSERT(ibv_create_srq_ex(ctx, &sa) == NULL, "no CQ");
	TEST_ASSERT_EQUAL(errno, EINVAL, "");
	sa.comp_mask |= IBV_SRQ_INIT_ATTR_CQ;
	TEST_ASSERT_SUCCESS(mlx5_sim_vhca_stats(0, 0, &st), "");
	TEST_ASSERT_EQUAL(st.srqs, st0.srqs, "nothing made");
	srq = ibv_create_srq_ex(ctx, &sa);
	TEST_ASSERT_NOT_NULL(srq, "");
	TEST_ASSERT_SUCCESS(ibv_get_srq_num(srq, &num), "");
	TEST_ASSERT(num != 0, "");
	/* The sizes granted and the limit, from the device. */
	TEST_ASSERT_SUCCESS(ibv_query_srq(srq, &qa), "");
	TEST_ASSERT(qa.max_wr == sa.attr.max_wr &&
			    qa.max_sge == sa.attr.max_sge && qa.srq_limit == 0,
		    "max_wr %u max_sge %u limit %u", qa.max_wr, qa.max_sge,
		    qa.srq_limit);
	qa.srq_limit = 1;
	TEST_ASSERT_EQUAL(ibv_modify_srq(srq, &qa, IBV_SRQ_LIMIT), EOPNOTSUPP,
			  "an XRC SRQ's limit");
	/* libmlx5 gives a basic SRQ's number too (DC users take it). */
	basic = ibv_create_srq(pd, &ba);
	TEST_ASSERT_NOT_NULL(basic, "");
	TEST_ASSERT_SUCCESS(ibv_get_srq_num(basic, &num), "");
	TEST_ASSERT(num != 0, "");
	qa.srq_limit = 1;
	TEST_ASSERT_SUCCESS(ibv_modify_srq(basic, &qa, IBV_SRQ_LIMIT), "");
	TEST_ASSERT_SUCCESS(ibv_query_srq(basic, &qa), "");
	TEST_ASSERT_EQUAL(qa.srq_limit, 1, "its limit, from the device");
	TEST_ASSERT_SUCCESS(ibv_destroy_srq(basic), "");
	TEST_ASSERT_EQUAL(ibv_close_xrcd(x1), EBUSY, "its SRQ lives");
	TEST_ASSERT_EQUAL(ibv_dealloc_pd(pd), EBUSY, "the SRQ's PD");
	TEST_ASSERT_EQUAL(ibv_destroy_cq(cq), EBUSY, "the SRQ's CQ");
	TEST_ASSERT_SUCCESS(ibv_close_xrcd(x2), "another handle");
	TEST_ASSERT_SUCCESS(mlx5_sim_vhca_stats(0, 0, &st), "");
	TEST_ASSERT_EQUAL(st.xrcds, st0.xrcds + 2, "the domain stays");
	TEST_ASSERT_SUCCESS(ibv_destroy_srq(srq), "");
	TEST_ASSERT_SUCCESS(ibv_close_xrcd(x1), "");
	TEST_ASSERT_SUCCESS(ibv_close_xrcd(x3), "");
	TEST_ASSERT_SUCCESS(mlx5_sim_vhca_stats(0, 0, &st), "");
	TEST_ASSERT(st.xrcds == st0.xrcds && st.srqs == st0.srqs, "");
	close(fd);
	return TEST_SUCCESS;
}

/* An XRC domain with an XRC SRQ of PD @p on CQ @c, @n receives posted. */
static int
fv_xrc_srq(struct ibv_pd *p, struct ibv_cq *c, struct ibv_mr *m,
	   struct ibv_xrcd **x, struct ibv_srq **srq, uint32_t *num,
	   uint32_t off, uint32_t n)
{
	struct ibv_xrcd_init_attr xa = {
		.comp_mask = IBV_XRCD_INIT_ATTR_FD | IBV_XRCD_INIT_ATTR_OFLAGS,
		.fd = -1,
	};
	struct ibv_srq_init_attr_ex sa = {
		.attr = { .max_wr = 8, .max_sge = 1 },
		.comp_mask = IBV_SRQ_INIT_ATTR_TYPE | IBV_SRQ_INIT_ATTR_PD |
			     IBV_SRQ_INIT_ATTR_XRCD | IBV_SRQ_INIT_ATTR_CQ,
		.srq_type = IBV_SRQT_XRC,
		.pd = p,
		.cq = c,
	};
	uint32_t i;

	*x = ibv_open_xrcd(ctx, &xa);
	TEST_ASSERT_NOT_NULL(*x, "");
	sa.xrcd = *x;
	*srq = ibv_create_srq_ex(ctx, &sa);
	TEST_ASSERT_NOT_NULL(*srq, "");
	TEST_ASSERT_SUCCESS(ibv_get_srq_num(*srq, num), "");
	for (i = 0; i < n; i++) {
		struct ibv_sge sg = { .addr = (uintptr_t)buf + off + 64 * i,
				      .length = 64,
				      .lkey = m->lkey };
		struct ibv_recv_wr wr = { .wr_id = off + 64 * i,
					  .sg_list = &sg,
					  .num_sge = 1 };
		struct ibv_recv_wr *bad;

		TEST_ASSERT_SUCCESS(ibv_post_srq_recv(*srq, &wr, &bad), "");
	}
	return TEST_SUCCESS;
}

/*
 * An XRC target of domain @x and an initiator (on the case's PD and CQ)
 * connected to each other on this port, in RTR and RTS. The masks are
 * ib_core's: an initiator takes no responder attribute (EINVAL).
 */
static int
fv_xrc_pair(struct ibv_xrcd *x, struct ibv_qp **ini, struct ibv_qp **tgt)
{
	struct ibv_qp_init_attr_ex ta = {
		.qp_type = IBV_QPT_XRC_RECV,
		.comp_mask = IBV_QP_INIT_ATTR_XRCD,
		.xrcd = x,
	};
	struct ibv_qp_init_attr_ex ia = {
		.qp_type = IBV_QPT_XRC_SEND,
		.comp_mask = IBV_QP_INIT_ATTR_PD,
		.pd = pd,
		.send_cq = cq,
		.cap = { .max_send_wr = 8, .max_send_sge = 1 },
	};
	struct ibv_qp_attr a = {
		.qp_state = IBV_QPS_INIT,
		.port_num = 1,
		.qp_access_flags = IBV_ACCESS_REMOTE_WRITE,
		.path_mtu = IBV_MTU_1024,
		.ah_attr = { .is_global = 1,
			     .port_num = 1,
			     .grh.hop_limit = 1 },
		.timeout = 14,
		.retry_cnt = 7,
		.rnr_retry = 7,
	};
	const int init = IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT |
			 IBV_QP_ACCESS_FLAGS;
	const int rtr = IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU |
			IBV_QP_DEST_QPN | IBV_QP_RQ_PSN;
	const int rts = IBV_QP_STATE | IBV_QP_SQ_PSN | IBV_QP_TIMEOUT |
			IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
			IBV_QP_MAX_QP_RD_ATOMIC;

	TEST_ASSERT_SUCCESS(ibv_query_gid(ctx, 1, 0, &a.ah_attr.grh.dgid), "");
	*tgt = ibv_create_qp_ex(ctx, &ta);
	*ini = ibv_create_qp_ex(ctx, &ia);
	TEST_ASSERT(*tgt != NULL && *ini != NULL, "");
	TEST_ASSERT_SUCCESS(ibv_modify_qp(*tgt, &a, init), "");
	TEST_ASSERT_SUCCESS(ibv_modify_qp(*ini, &a, init), "");
	a.qp_state = IBV_QPS_RTR;
	a.dest_qp_num = (*ini)->qp_num;
	TEST_ASSERT_SUCCESS(ibv_modify_qp(*tgt, &a,
					  rtr | IBV_QP_MAX_DEST_RD_ATOMIC |
						  IBV_QP_MIN_RNR_TIMER),
			    "");
	a.dest_qp_num = (*tgt)->qp_num;
	TEST_ASSERT_EQUAL(
		ibv_modify_qp(*ini, &a, rtr | IBV_QP_MAX_DEST_RD_ATOMIC),
		EINVAL, "no responder attribute");
	TEST_ASSERT_SUCCESS(ibv_modify_qp(*ini, &a, rtr), "");
	a.qp_state = IBV_QPS_RTS;
	TEST_ASSERT_EQUAL(ibv_modify_qp(*ini, &a, rts | IBV_QP_MIN_RNR_TIMER),
			  EINVAL, "no responder attribute");
	TEST_ASSERT_SUCCESS(ibv_modify_qp(*ini, &a, rts), "");
	return TEST_SUCCESS;
}

/* An XRC SEND (or, @rkey not 0, an RDMA WRITE) of 8 bytes to SRQ @srqn. */
static int
fv_xrc_post(struct ibv_qp *ini, uint32_t srqn, uint32_t rkey, uint64_t raddr,
	    enum ibv_wc_status *st)
{
	struct ibv_sge sg = { .addr = (uintptr_t)buf,
			      .length = 8,
			      .lkey = mr->lkey };
	struct ibv_send_wr wr = { .wr_id = 0x99,
				  .sg_list = &sg,
				  .num_sge = 1,
				  .opcode = rkey != 0 ? IBV_WR_RDMA_WRITE :
							IBV_WR_SEND,
				  .send_flags = IBV_SEND_SIGNALED };
	struct ibv_send_wr *bad;
	struct ibv_wc wc;

	wr.qp_type.xrc.remote_srqn = srqn;
	wr.wr.rdma.rkey = rkey;
	wr.wr.rdma.remote_addr = raddr;
	TEST_ASSERT_SUCCESS(ibv_post_send(ini, &wr, &bad), "");
	TEST_ASSERT_EQUAL(fv_poll(cq, &wc, 1, 1000), 1, "");
	TEST_ASSERT_EQUAL(wc.wr_id, 0x99, "");
	*st = wc.status;
	return TEST_SUCCESS;
}

/* @qp's state as the device has it (ibv_query_qp). */
static enum ibv_qp_state
fv_qp_state(struct ibv_qp *qp)
{
	struct ibv_qp_init_attr ia;
	struct ibv_qp_attr a;

	if (ibv_query_qp(qp, &a, IBV_QP_STATE, &ia) != 0)
		return (enum ibv_qp_state) - 1;
	return a.qp_state;
}

/*
 * XRC messages (IBTA's XRC transport, mlx5's XRC segment): an initiator's
 * SEND names an XRC SRQ; the target it is connected to receives it into
 * that SRQ, which must be of the target's domain, and the completion is
 * on the SRQ's CQ (its wr_id, the target's QP number). An SRQ of another
 * domain, or no SRQ at all, is an invalid request: the initiator
 * completes with REM_INV_REQ_ERR, the target moves to ERR, and the other
 * domain's SRQ loses nothing. The attacker's case: an RDMA WRITE through
 * a target is checked against the PD of the SRQ the message names, not
 * the initiator's: a key of another PD is refused (REM_ACCESS_ERR, the
 * memory untouched), a key of the SRQ's PD is taken.
 */
static int
test_xrc_messages(void)
{
	struct ibv_xrcd *x1, *x2;
	struct ibv_srq *s1, *s2;
	struct ibv_qp *ini, *tgt, *ini2, *tgt2;
	struct ibv_cq *rcq;
	struct ibv_pd *pd2;
	struct ibv_mr *mr2;
	enum ibv_wc_status st;
	uint32_t n1, n2;
	struct ibv_wc wc;

	rcq = ibv_create_cq(ctx, 16, NULL, NULL, 0);
	pd2 = ibv_alloc_pd(ctx);
	TEST_ASSERT(rcq != NULL && pd2 != NULL, "");
	mr2 = ibv_reg_mr(pd2, buf, FV_BUF,
			 IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE);
	TEST_ASSERT_NOT_NULL(mr2, "");
	/* s1: the target side's SRQ, of PD pd2; s2: another domain's. */
	TEST_ASSERT_EQUAL(fv_xrc_srq(pd2, rcq, mr2, &x1, &s1, &n1, 1024, 2),
			  TEST_SUCCESS, "");
	TEST_ASSERT_EQUAL(fv_xrc_srq(pd2, rcq, mr2, &x2, &s2, &n2, 2048, 1),
			  TEST_SUCCESS, "");
	TEST_ASSERT_EQUAL(fv_xrc_pair(x1, &ini, &tgt), TEST_SUCCESS, "");
	memset(buf, 0x5c, 8);
	TEST_ASSERT_EQUAL(fv_xrc_post(ini, n1, 0, 0, &st), TEST_SUCCESS, "");
	TEST_ASSERT_EQUAL(st, IBV_WC_SUCCESS, "");
	TEST_ASSERT_EQUAL(fv_poll(rcq, &wc, 1, 1000), 1, "on the SRQ's CQ");
	TEST_ASSERT(wc.status == IBV_WC_SUCCESS && wc.wr_id == 1024 &&
			    wc.qp_num == tgt->qp_num && wc.byte_len == 8 &&
			    wc.opcode == IBV_WC_RECV &&
			    wc.src_qp == ini->qp_num,
		    "wr_id %" PRIu64 " qp %u", wc.wr_id, wc.qp_num);
	TEST_ASSERT_EQUAL(buf[1024], 0x5c, "");
	/* The attacker: a key of the initiator's PD, not the SRQ's. */
	buf[4096] = 0;
	TEST_ASSERT_EQUAL(
		fv_xrc_post(ini, n1, mr->rkey, (uintptr_t)buf + 4096, &st),
		TEST_SUCCESS, "");
	TEST_ASSERT_EQUAL(st, IBV_WC_REM_ACCESS_ERR, "not the SRQ's PD");
	TEST_ASSERT_EQUAL(buf[4096], 0, "untouched");
	TEST_ASSERT_SUCCESS(ibv_destroy_qp(ini), "");
	TEST_ASSERT_SUCCESS(ibv_destroy_qp(tgt), "");
	TEST_ASSERT_EQUAL(fv_xrc_pair(x1, &ini, &tgt), TEST_SUCCESS, "");
	TEST_ASSERT_EQUAL(
		fv_xrc_post(ini, n1, mr2->rkey, (uintptr_t)buf + 4096, &st),
		TEST_SUCCESS, "");
	TEST_ASSERT_EQUAL(st, IBV_WC_SUCCESS, "the SRQ's PD");
	TEST_ASSERT_EQUAL(buf[4096], 0x5c, "written");
	/* Another domain's SRQ through this target: an invalid request. */
	TEST_ASSERT_EQUAL(fv_xrc_post(ini, n2, 0, 0, &st), TEST_SUCCESS, "");
	TEST_ASSERT_EQUAL(st, IBV_WC_REM_INV_REQ_ERR, "");
	TEST_ASSERT_EQUAL(fv_qp_state(tgt), IBV_QPS_ERR, "the target");
	TEST_ASSERT_EQUAL(fv_poll(rcq, &wc, 1, 50), 0, "nothing received");
	TEST_ASSERT_SUCCESS(ibv_destroy_qp(ini), "");
	TEST_ASSERT_SUCCESS(ibv_destroy_qp(tgt), "");
	/* No SRQ of that number at all. */
	TEST_ASSERT_EQUAL(fv_xrc_pair(x1, &ini, &tgt), TEST_SUCCESS, "");
	TEST_ASSERT_EQUAL(fv_xrc_post(ini, 0xfffff0, 0, 0, &st), TEST_SUCCESS,
			  "");
	TEST_ASSERT_EQUAL(st, IBV_WC_REM_INV_REQ_ERR, "");
	/* s2 kept its receive: its own domain's target takes it. */
	TEST_ASSERT_EQUAL(fv_xrc_pair(x2, &ini2, &tgt2), TEST_SUCCESS, "");
	TEST_ASSERT_EQUAL(fv_xrc_post(ini2, n2, 0, 0, &st), TEST_SUCCESS, "");
	TEST_ASSERT_EQUAL(st, IBV_WC_SUCCESS, "");
	TEST_ASSERT_EQUAL(fv_poll(rcq, &wc, 1, 1000), 1, "");
	TEST_ASSERT(wc.wr_id == 2048 && wc.qp_num == tgt2->qp_num, "");
	/* A target cannot close its domain. */
	TEST_ASSERT_EQUAL(ibv_close_xrcd(x2), EBUSY, "");
	/* The SRQ the target last received into, gone: no such SRQ. */
	TEST_ASSERT_SUCCESS(ibv_destroy_srq(s2), "");
	TEST_ASSERT_EQUAL(fv_xrc_post(ini2, n2, 0, 0, &st), TEST_SUCCESS, "");
	TEST_ASSERT_EQUAL(st, IBV_WC_REM_INV_REQ_ERR, "");
	TEST_ASSERT_EQUAL(fv_qp_state(tgt2), IBV_QPS_ERR, "");
	TEST_ASSERT_SUCCESS(ibv_destroy_qp(ini2), "");
	TEST_ASSERT_SUCCESS(ibv_destroy_qp(tgt2), "");
	TEST_ASSERT_SUCCESS(ibv_destroy_qp(ini), "");
	TEST_ASSERT_SUCCESS(ibv_destroy_qp(tgt), "");
	TEST_ASSERT_SUCCESS(ibv_destroy_srq(s1), "");
	TEST_ASSERT_SUCCESS(ibv_close_xrcd(x1), "");
	TEST_ASSERT_SUCCESS(ibv_close_xrcd(x2), "");
	TEST_ASSERT_SUCCESS(ibv_dereg_mr(mr2), "");
	TEST_ASSERT_SUCCESS(ibv_dealloc_pd(pd2), "");
	TEST_ASSERT_SUCCESS(ibv_destroy_cq(rcq), "");
	return TEST_SUCCESS;
}

/*
 * An SRQ's receives take every segment it granted: max_sge 2 rounds the
 * WQE up to 64 bytes, 3 segments (libmlx5), basic and XRC alike.
 */
static int
test_srq_sges(void)
{
	struct ibv_xrcd_init_attr xa = {
		.comp_mask = IBV_XRCD_INIT_ATTR_FD | IBV_XRCD_INIT_ATTR_OFLAGS,
		.fd = -1,
	};
	struct ibv_srq_init_attr_ex sa = {
		.attr = { .max_wr = 2, .max_sge = 2 },
		.comp_mask = IBV_SRQ_INIT_ATTR_TYPE | IBV_SRQ_INIT_ATTR_PD |
			     IBV_SRQ_INIT_ATTR_XRCD | IBV_SRQ_INIT_ATTR_CQ,
		.srq_type = IBV_SRQT_XRC,
		.pd = pd,
		.cq = cq,
	};
	struct ibv_srq_init_attr ba = { .attr = { .max_wr = 2, .max_sge = 2 } };
	struct ibv_sge sg[4];
	struct ibv_recv_wr wr = { .wr_id = 1, .sg_list = sg, .num_sge = 3 };
	struct ibv_recv_wr *bad;
	struct ibv_srq *srq[2];
	struct ibv_xrcd *x;

	for (unsigned int i = 0; i < RTE_DIM(sg); i++)
		sg[i] = (struct ibv_sge){ .addr = (uintptr_t)buf + 64 * i,
					  .length = 64,
					  .lkey = mr->lkey };
	x = ibv_open_xrcd(ctx, &xa);
	TEST_ASSERT_NOT_NULL(x, "");
	sa.xrcd = x;
	srq[0] = ibv_create_srq(pd, &ba);
	srq[1] = ibv_create_srq_ex(ctx, &sa);
	TEST_ASSERT(srq[0] != NULL && srq[1] != NULL, "");
	TEST_ASSERT(ba.attr.max_sge == 3 && sa.attr.max_sge == 3, "%u %u",
		    ba.attr.max_sge, sa.attr.max_sge);
	for (unsigned int i = 0; i < RTE_DIM(srq); i++)
		TEST_ASSERT_SUCCESS(ibv_post_srq_recv(srq[i], &wr, &bad),
				    "3 segments");
	wr.num_sge = 4;
	TEST_ASSERT_EQUAL(ibv_post_srq_recv(srq[0], &wr, &bad), EINVAL, "4");
	TEST_ASSERT_SUCCESS(ibv_destroy_srq(srq[0]), "");
	TEST_ASSERT_SUCCESS(ibv_destroy_srq(srq[1]), "");
	TEST_ASSERT_SUCCESS(ibv_close_xrcd(x), "");
	return TEST_SUCCESS;
}

/* Every object of the cases gone (the case's own are counted in live0). */
static int
test_nothing_left(void)
{
	fv_case_teardown();
	TEST_ASSERT_EQUAL(fv_live(), live0, "");
	return fv_case_setup();
}

static const struct mlx5_test_case fv_cases[] = {
	{ "ud_datagrams", test_ud_datagrams },
	{ "ud_grh_type", test_ud_grh_type },
	{ "uc_messages", test_uc_messages },
	{ "uc_bad_rkey", test_uc_bad_rkey },
	{ "err_flushes_later_receives", test_err_flushes_later_receives },
	{ "qpx_ud", test_qpx_ud },
	{ "dv_mkey_layouts", test_dv_mkey_layouts },
	{ "dv_mkey_invalidate", test_dv_mkey_invalidate },
	{ "rc_atomics", test_rc_atomics },
	{ "memory_windows", test_memory_windows },
	{ "srq", test_srq },
	{ "post_in_reset", test_post_in_reset },
	{ "cq_events", test_cq_events },
	{ "cq_destroy_events", test_cq_destroy_events },
	{ "destroy_while_polling", test_destroy_while_polling },
	{ "import_mr", test_import_mr },
	{ "resize_cq", test_resize_cq },
	{ "device_memory", test_device_memory },
	{ "raw_packet", test_raw_packet },
	{ "raw_offloads", test_raw_offloads },
	{ "raw_flow_actions", test_raw_flow_actions },
	{ "dr_steering", test_dr_steering },
	{ "dr_walk", test_dr_walk },
	{ "raw_devx", test_raw_devx },
	{ "cq_ex", test_cq_ex },
	{ "rss", test_rss },
	{ "alloc_type", test_alloc_type },
	{ "xrc_domains", test_xrc_domains },
	{ "xrc_messages", test_xrc_messages },
	{ "srq_sges", test_srq_sges },
	{ "nothing_left", test_nothing_left },
	{ NULL, NULL },
};

static const struct mlx5_test_suite fv_suite = {
	.name = "front_verbs",
	.setup = fv_setup,
	.teardown = fv_teardown,
	.case_setup = fv_case_setup,
	.case_teardown = fv_case_teardown,
	.cases = fv_cases,
};

MLX5_TEST_MAIN(fv_suite)
