/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * The Ethernet datapath through the common helpers only: hand-built SEND
 * WQEs on an SQ, frames through a cable (loopback or to another vHCA),
 * steering rules to TIRs, RSS over an RQT, receive WQEs on RQs and the
 * CQEs that report them. Each rule is broken once: bad keys, frames too
 * long for the buffers or the MTU, no posted WQE, the self-loopback block,
 * a port without a cable, destroy while in use; pacing is checked on the
 * CQE timestamps (virtual time, exact). The software device only (its
 * cables and counters are what the cases check).
 */

#include <inttypes.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include <infiniband/mlx5dv.h>

#include <rte_cycles.h>
#include <rte_ip.h>
/* DPDK's header casts byte pointers to wider types (clang warns). */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wcast-align"
#include <rte_thash.h>
#pragma GCC diagnostic pop
#include <rte_udp.h>

#include <mlx5_common_devx.h>
#include <mlx5_common_dp.h>
#include <mlx5_common_port.h>
#include <mlx5_common_pp.h>
#include <mlx5_malloc.h>
#include <mlx5_sim.h>

#include "mlx5_test.h"
#include "mlx5_test_dev.h"
#include "mlx5_test_frame.h"

#define W_CARD 62
#define W_NRQ 4
#define W_LOG_RQ 6
#define W_LOG_STRIDE 6            /* 64-byte receive WQEs: 4 segments. */
#define W_RX_BUF 10240            /* Per receive WQE: 4 x 2560 bytes. */
#define W_BUF_LEN (4 * 1024 * 1024)
#define W_TX_OFF (3 * 1024 * 1024) /* Frames to send start here. */
/* A CQ's status after a CQE it could not write (QUERY_CQ). */
#define W_CQ_WRITE_FAIL 0xa

static const uint8_t w_key[MLX5_RSS_HASH_KEY_LEN] = {
	0x2c, 0xc6, 0x81, 0xd1, 0x5b, 0xdb, 0xf4, 0xf7,
	0xfc, 0xa2, 0x83, 0x19, 0xdb, 0x1a, 0x3e, 0x94,
	0x6b, 0x9e, 0x38, 0xd9, 0x2c, 0x9c, 0x03, 0xd1,
	0xad, 0x99, 0x44, 0xa7, 0xd9, 0x56, 0x3d, 0x59,
	0x06, 0x3c, 0x25, 0xf3, 0xfc, 0x1f, 0xdc, 0x2a,
};

/* One vHCA's Ethernet port: SQ, RQs, TIR(s), rule and a buffer. */
struct w_port {
	struct mlx5_common_device *cdev;
	struct mlx5_devx_obj *td, *tis, *rqt, *tir;
	struct mlx5_uar uar;
	struct mlx5_devx_cq txcq, rxcq;
	struct mlx5_devx_sq sq;
	struct mlx5_devx_rq rq[W_NRQ];
	uint16_t rq_pi[W_NRQ];
	struct mlx5_flow_rx rule;
	uint8_t *buf;
	struct ibv_mr *mr;
	uint8_t mac[6];
};

static struct w_port wp[2];
/* The TIS's lag_tx_port_affinity of the next w_port_get(). */
static uint8_t w_tis_port;
/* The receive CQ of the next w_port_get(): compressed (a mini-CQE format). */
static int w_rx_mini;
/* The SQ of the next w_port_get(): allow_multi_pkt_send_wqe. */
static bool w_sq_empw;
/* The SQ of the next w_port_get(): its min_wqe_inline_mode. */
static uint8_t w_sq_inline_mode;
/* w_burst() posts one eMPW WQE of its frames, not a SEND each. */
static bool w_burst_empw;
/* The vHCA whose port counters w_rx_fault() reads. */
static uint16_t w_fault_vhca = 71;
static uint16_t w_post_empw(struct w_port *p, uint8_t *const *f,
			    const uint32_t *len, unsigned int n,
			    unsigned int inl, uint16_t hdr, uint32_t lkey,
			    uint8_t cs_flags);

static int
w_case_setup(void)
{
	memset(wp, 0, sizeof(wp));
	w_tis_port = 0;
	w_rx_mini = -1;
	w_sq_empw = false;
	w_sq_inline_mode = 0;
	w_burst_empw = false;
	w_fault_vhca = 71;
	if (tdev_hw())
		TEST_SKIP("the cables and frame counters are the software"
			  " device's");
	return TEST_SUCCESS;
}

static void
w_port_put(struct w_port *p)
{
	unsigned int i;

	if (p->cdev == NULL)
		return;
	mlx5_flow_rx_destroy(&p->rule);
	if (p->tir != NULL)
		mlx5_devx_cmd_destroy(p->tir);
	if (p->rqt != NULL)
		mlx5_devx_cmd_destroy(p->rqt);
	mlx5_devx_sq_destroy(&p->sq);
	for (i = 0; i < W_NRQ; i++)
		mlx5_devx_rq_destroy(&p->rq[i]);
	mlx5_devx_cq_destroy(&p->txcq);
	mlx5_devx_cq_destroy(&p->rxcq);
	mlx5_uar_release(p->cdev, &p->uar);
	if (p->tis != NULL)
		mlx5_devx_cmd_destroy(p->tis);
	if (p->td != NULL)
		mlx5_devx_cmd_destroy(p->td);
	if (p->mr != NULL)
		p->cdev->glue->dereg_mr(p->mr);
	free(p->buf);
	memset(p, 0, sizeof(*p));
}

static void
w_case_teardown(void)
{
	w_port_put(&wp[0]);
	w_port_put(&wp[1]);
	tdev_remove_all();
}

/* Post receive WQE @i of RQ @q: 4 segments of 512 bytes in the buffer. */
static void
w_rx_post(struct w_port *p, unsigned int q)
{
	struct mlx5_devx_rq *rq = &p->rq[q];
	uint16_t idx = p->rq_pi[q] & ((1u << rq->log_size) - 1);
	struct mlx5_wqe_data_seg *d = (void *)(rq->wqes +
					       ((size_t)idx << rq->log_stride));
	uint64_t va = (uintptr_t)p->buf +
		      ((size_t)q << W_LOG_RQ | idx) * W_RX_BUF;
	unsigned int s;

	for (s = 0; s < 4; s++) {
		d[s].byte_count = rte_cpu_to_be_32(W_RX_BUF / 4);
		d[s].lkey = rte_cpu_to_be_32(p->mr->lkey);
		d[s].addr = rte_cpu_to_be_64(va + s * (W_RX_BUF / 4));
	}
	p->rq_pi[q]++;
	rte_io_wmb();
	rq->db_rec[MLX5_RCV_DBR] = rte_cpu_to_be_32(p->rq_pi[q]);
}

/* The receive buffer of the WQE a CQE's wqe_counter names. */
static uint8_t *
w_rx_buf(struct w_port *p, unsigned int q, uint16_t wqe_counter)
{
	return p->buf + ((size_t)q << W_LOG_RQ |
			 (wqe_counter & ((1u << W_LOG_RQ) - 1))) * W_RX_BUF;
}

/*
 * Bring up the port of slot @slot (probed with @args): @nrq RQs, each
 * with all its WQEs posted, behind a direct TIR (one RQ) or an RQT with
 * Toeplitz over IPv4/UDP addresses and ports, and a promiscuous rule.
 */
static int
w_port_get(unsigned int slot, uint16_t vhca, const char *extra,
	   unsigned int nrq, uint8_t self_lb_block)
{
	struct w_port *p = &wp[slot];
	char args[64];
	struct mlx5_devx_tis_attr tis = { 0 };
	struct mlx5_devx_tir_attr tir = { 0 };
	struct mlx5_nic_vport_info vport;
	uint32_t rqns[W_NRQ];
	unsigned int i, j;

	/* vHCAs live until exit: each case takes its own. */
	snprintf(args, sizeof(args), "card=%u,vhca_id=%u%s", W_CARD, vhca,
		 extra);
	TEST_ASSERT_SUCCESS(tdev_probe(slot, args), "probe %s", args);
	p->cdev = tdev_cdev(slot);
	TEST_ASSERT_NOT_NULL(p->cdev, "device");
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_query_nic_vport(p->cdev, &vport),
			    "vport");
	memcpy(p->mac, vport.mac, 6);
	p->buf = aligned_alloc(4096, W_BUF_LEN);
	TEST_ASSERT_NOT_NULL(p->buf, "buffer");
	memset(p->buf, 0, W_BUF_LEN);
	p->mr = p->cdev->glue->reg_mr(p->cdev->pd, p->buf, W_BUF_LEN,
				      IBV_ACCESS_LOCAL_WRITE);
	TEST_ASSERT_NOT_NULL(p->mr, "MR");
	p->td = mlx5_devx_cmd_alloc_td(p->cdev);
	TEST_ASSERT_NOT_NULL(p->td, "TD");
	tis.transport_domain = p->td->id;
	tis.lag_tx_port_affinity = w_tis_port;
	p->tis = mlx5_devx_cmd_create_tis(p->cdev, &tis);
	TEST_ASSERT_NOT_NULL(p->tis, "TIS");
	TEST_ASSERT_SUCCESS(mlx5_uar_prepare(p->cdev, &p->uar), "UAR");
	TEST_ASSERT_SUCCESS(mlx5_devx_cq_create(p->cdev, &p->txcq, 8, &p->uar,
						SOCKET_ID_ANY), "TX CQ");
	if (w_rx_mini >= 0)
		TEST_ASSERT_SUCCESS(mlx5_devx_cq_create_comp(p->cdev, &p->rxcq,
							     10, &p->uar,
							     (uint8_t)w_rx_mini,
							     SOCKET_ID_ANY),
				    "compressed RX CQ");
	else
		TEST_ASSERT_SUCCESS(mlx5_devx_cq_create(p->cdev, &p->rxcq, 10,
							&p->uar,
							SOCKET_ID_ANY),
				    "RX CQ");
	TEST_ASSERT_SUCCESS(mlx5_devx_sq_create(p->cdev, &p->sq,
		&(struct mlx5_devx_sq_params){
			.pd = p->cdev->pdn,
			.cqn = p->txcq.obj->id,
			.tisn = p->tis->id,
			.log_size = 8,
			.uar = &p->uar,
			.allow_empw = w_sq_empw,
			.min_wqe_inline_mode = w_sq_inline_mode,
		}, SOCKET_ID_ANY), "SQ");
	for (i = 0; i < nrq; i++) {
		TEST_ASSERT_SUCCESS(mlx5_devx_rq_create(p->cdev, &p->rq[i],
			&(struct mlx5_devx_rq_params){
				.pd = p->cdev->pdn,
				.cqn = p->rxcq.obj->id,
				.log_size = W_LOG_RQ,
				.log_stride = W_LOG_STRIDE,
				.user_index = i + 1,
			}, SOCKET_ID_ANY), "RQ %u", i);
		for (j = 0; j < (1u << W_LOG_RQ); j++)
			w_rx_post(p, i);
		rqns[i] = p->rq[i].obj->id;
	}
	tir.transport_domain = p->td->id;
	tir.self_lb_block = self_lb_block;
	if (nrq == 1) {
		tir.disp_type = MLX5_TIRC_DISP_TYPE_DIRECT;
		tir.inline_rqn = rqns[0];
	} else {
		p->rqt = mlx5_devx_cmd_create_rqt(p->cdev, rqns, nrq, nrq);
		TEST_ASSERT_NOT_NULL(p->rqt, "RQT");
		tir.disp_type = MLX5_TIRC_DISP_TYPE_INDIRECT;
		tir.indirect_table = p->rqt->id;
		tir.rx_hash_fn = MLX5_RX_HASH_FN_TOEPLITZ;
		memcpy(tir.rx_hash_toeplitz_key, w_key, sizeof(w_key));
		tir.l3_prot_type = MLX5_L3_PROT_TYPE_IPV4;
		tir.l4_prot_type = MLX5_L4_PROT_TYPE_UDP;
		tir.selected_fields = MLX5_HASH_FIELD_SEL_SRC_IP |
				      MLX5_HASH_FIELD_SEL_DST_IP |
				      MLX5_HASH_FIELD_SEL_L4_SPORT |
				      MLX5_HASH_FIELD_SEL_L4_DPORT;
	}
	p->tir = mlx5_devx_cmd_create_tir(p->cdev, &tir);
	TEST_ASSERT_NOT_NULL(p->tir, "TIR");
	/* Priority 8: the cases' own rules (0..2) come first. */
	TEST_ASSERT_SUCCESS(mlx5_flow_rx_create(p->cdev, &p->rule,
						MLX5_FLOW_RX_ALL, NULL, 8,
						p->tir), "promiscuous rule");
	/* rdma-core's ibv_destroy_flow() reaches the rule's context. */
	TEST_ASSERT(p->rule.flow->context == p->cdev->ctx, "rule's context");
	return TEST_SUCCESS;
}

/*
 * An IPv4/UDP frame of @len bytes (>= 42) at offset @off of the buffer,
 * to @dmac, UDP ports @sport/@dport, the payload a pattern of @seed,
 * checksums left 0 (the offload fills them) unless @csum.
 */
static uint8_t *
w_frame(struct w_port *p, size_t off, uint32_t len, const uint8_t *dmac,
	uint16_t sport, uint16_t dport, uint8_t seed, bool csum)
{
	uint8_t *f = p->buf + W_TX_OFF + off;
	struct rte_ipv4_hdr *ip = (void *)(f + 14);
	struct rte_udp_hdr *udp = (void *)(ip + 1);
	uint32_t i;

	memcpy(f, dmac, 6);
	memcpy(f + 6, p->mac, 6);
	f[12] = 0x08;
	f[13] = 0x00;
	memset(ip, 0, sizeof(*ip));
	ip->version_ihl = 0x45;
	ip->total_length = rte_cpu_to_be_16((uint16_t)(len - 14));
	ip->time_to_live = 64;
	ip->next_proto_id = IPPROTO_UDP;
	ip->src_addr = rte_cpu_to_be_32(0x0a000001 + seed);
	ip->dst_addr = rte_cpu_to_be_32(0x0a000102);
	udp->src_port = rte_cpu_to_be_16(sport);
	udp->dst_port = rte_cpu_to_be_16(dport);
	udp->dgram_len = rte_cpu_to_be_16((uint16_t)(len - 34));
	udp->dgram_cksum = 0;
	for (i = 42; i < len; i++)
		f[i] = (uint8_t)(seed + i * 7);
	if (csum) {
		ip->hdr_checksum = rte_ipv4_cksum(ip);
		udp->dgram_cksum = rte_ipv4_udptcp_cksum(ip, udp);
	}
	return f;
}

/* Ring the SQ's doorbell for the WQEs posted since block @first. */
static void
w_ring(struct w_port *p, uint16_t first)
{
	struct mlx5_devx_sq *sq = &p->sq;
	uint32_t n = 1u << sq->log_size;

	mlx5_doorbell_ring(&p->uar, &sq->db_rec[MLX5_SND_DBR], sq->pi,
			   sq->wqes + (size_t)(first & (n - 1)) *
			   MLX5_SEND_WQE_BB);
}

/*
 * Post @f (@len bytes) without a doorbell: the first @inl bytes inline in
 * the Ethernet segment, the rest in @nseg data segments (the last takes
 * the rest). Returns the WQE's first block.
 */
static uint16_t
w_post(struct w_port *p, const uint8_t *f, uint32_t len, uint32_t inl,
       unsigned int nseg, uint8_t cs_flags, uint32_t lkey, bool signaled)
{
	struct mlx5_devx_sq *sq = &p->sq;
	uint32_t n = 1u << sq->log_size;
	uint8_t wqe[4 * MLX5_SEND_WQE_BB] __rte_aligned(16);
	struct mlx5_wqe_ctrl_seg *ctrl = (void *)wqe;
	struct mlx5_wqe_eth_seg *es = (void *)(ctrl + 1);
	uint32_t ds, bbs, off, rest, b, i;
	struct mlx5_wqe_data_seg *d;
	uint16_t first = sq->pi;

	memset(wqe, 0, sizeof(wqe));
	es->cs_flags = cs_flags;
	es->inline_hdr_sz = rte_cpu_to_be_16((uint16_t)inl);
	memcpy(es->inline_hdr_start, f, inl);
	ds = 2 + (inl > 2 ? (inl - 2 + 15) / 16 : 0);
	d = (void *)(wqe + ds * 16);
	rest = len - inl;
	off = inl;
	for (i = 0; i < nseg && rest != 0; i++) {
		uint32_t chunk = i + 1 == nseg ? rest : rest / (nseg - i);

		d[i].byte_count = rte_cpu_to_be_32(chunk);
		d[i].lkey = rte_cpu_to_be_32(lkey);
		d[i].addr = rte_cpu_to_be_64((uintptr_t)f + off);
		off += chunk;
		rest -= chunk;
		ds++;
	}
	ctrl->opmod_idx_opcode = rte_cpu_to_be_32((uint32_t)first << 8 |
						  MLX5_OPCODE_SEND);
	ctrl->qpn_ds = rte_cpu_to_be_32(sq->obj->id << 8 | ds);
	ctrl->fm_ce_se = signaled ? MLX5_WQE_CTRL_CQ_UPDATE : 0;
	bbs = (ds * 16 + MLX5_SEND_WQE_BB - 1) / MLX5_SEND_WQE_BB;
	for (b = 0; b < bbs; b++)
		memcpy(sq->wqes + (size_t)((first + b) & (n - 1)) *
		       MLX5_SEND_WQE_BB, wqe + b * MLX5_SEND_WQE_BB,
		       MLX5_SEND_WQE_BB);
	sq->pi += bbs;
	return first;
}

/* w_post(), then the doorbell. */
static void
w_send(struct w_port *p, const uint8_t *f, uint32_t len, uint32_t inl,
       unsigned int nseg, uint8_t cs_flags, uint32_t lkey, bool signaled)
{
	w_ring(p, w_post(p, f, len, inl, nseg, cs_flags, lkey, signaled));
}

/* Take the next CQE of @cq (a copy), or fail if there is none. */
static int
w_poll(struct mlx5_devx_cq *cq, struct mlx5_cqe_eth *out)
{
	volatile struct mlx5_cqe64 *cqe =
		&cq->cqes[cq->ci & ((1u << cq->log_size) - 1)];
	enum mlx5_cqe_status st = mlx5_cqe_status(cqe, cq->log_size, cq->ci);

	if (st == MLX5_CQE_STATUS_HW_OWN)
		return -EAGAIN;
	memcpy(out, (const void *)(uintptr_t)cqe, sizeof(*out));
	cq->ci++;
	mlx5_cq_db_update(cq->db_rec, cq->ci);
	return st == MLX5_CQE_STATUS_ERR ? -EIO : 0;
}

static struct mlx5_sim_port_stats
w_stats(unsigned int vhca)
{
	struct mlx5_sim_port_stats st;

	memset(&st, 0, sizeof(st));
	mlx5_sim_port_stats(W_CARD, vhca, 1, &st);
	return st;
}

/*
 * The RQ of port @p a receive CQE names: by the user index it carries
 * (RQ i has i + 1); an RQ's CQE has no queue number (its sop_drop_qpn is
 * the rule's flow tag).
 */
static int
w_rq_of(struct w_port *p, const struct mlx5_cqe_eth *c)
{
	uint32_t u = rte_be_to_cpu_32(c->srqn) & 0xffffff;

	return u >= 1 && u <= W_NRQ && p->rq[u - 1].obj != NULL ? (int)u - 1 :
								   -1;
}

/* Loopback: every size from 60 to 9000 bytes, single and multi-segment. */
static int
test_send_receive_sizes(void)
{
	static const uint32_t sizes[] = { 60, 64, 65, 128, 1000, 1514, 1518,
					  2048, 2561, 4000, 9000, 9014 };
	struct w_port *p = &wp[0];
	struct mlx5_cqe_eth c;
	struct mlx5_port_link link;
	unsigned int i, k;

	if (w_port_get(0, 0, "", 1, 0) != TEST_SUCCESS)
		return TEST_FAILED;
	TEST_ASSERT_SUCCESS(mlx5_port_link_get(p->cdev, 1, &link), "link");
	TEST_ASSERT(link.up && link.mtu == 1500 && link.speed_mbps == 100000,
		    "link up %d mtu %u speed %u", link.up, link.mtu,
		    link.speed_mbps);
	TEST_ASSERT_SUCCESS(mlx5_port_mtu_set(p->cdev, 1, 9000), "MTU 9000");
	for (k = 0; k < 2; k++)
		for (i = 0; i < RTE_DIM(sizes); i++) {
			uint32_t len = sizes[i];
			uint8_t *f = w_frame(p, 0, len, p->mac, 1000, 2000,
					     (uint8_t)i, true);

			w_send(p, f, len, 18, k == 0 ? 1 : 3, 0, p->mr->lkey,
			       true);
			TEST_ASSERT_SUCCESS(w_poll(&p->txcq, &c),
					    "send CQE, %u bytes", len);
			TEST_ASSERT_SUCCESS(w_poll(&p->rxcq, &c),
					    "receive CQE, %u bytes", len);
			TEST_ASSERT_EQUAL(rte_be_to_cpu_32(c.byte_cnt), len,
					  "byte count");
			TEST_ASSERT(memcmp(w_rx_buf(p, 0, rte_be_to_cpu_16(
					c.wqe_counter)), f, len) == 0,
				    "%u bytes (%u segments) arrived intact",
				    len, k == 0 ? 1 : 3);
			/* Every byte after L2, summed as DPDK sums them. */
			TEST_ASSERT_EQUAL(c.check_sum,
					  rte_raw_cksum(f + 14, len - 14),
					  "%u bytes: the CQE's check_sum", len);
			w_rx_post(p, 0);
		}
	/*
	 * The WQE the device takes next (every one taken was reposted, so
	 * it is the slot the driver posts next) shrunk to 4 x 100 bytes: a
	 * length error CQE, and the RQ stays ready.
	 */
	{
		struct mlx5_devx_rq *rq = &p->rq[0];
		struct mlx5_wqe_data_seg *d = (void *)(rq->wqes +
			((size_t)(p->rq_pi[0] & ((1u << rq->log_size) - 1))
			 << rq->log_stride));
		struct mlx5_err_cqe *err = (struct mlx5_err_cqe *)&c;

		for (i = 0; i < 4; i++)
			d[i].byte_count = rte_cpu_to_be_32(100);
		w_send(p, w_frame(p, 0, 1000, p->mac, 1, 2, 0, true), 1000, 18,
		       1, 0, p->mr->lkey, false);
		TEST_ASSERT_EQUAL(w_poll(&p->rxcq, &c), -EIO, "length error");
		TEST_ASSERT_EQUAL(err->syndrome,
				  MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR, "syndrome");
		w_rx_post(p, 0);
		w_send(p, w_frame(p, 0, 1000, p->mac, 1, 2, 0, true), 1000, 18,
		       1, 0, p->mr->lkey, false);
		TEST_ASSERT_SUCCESS(w_poll(&p->rxcq, &c), "the RQ still ready");
		w_rx_post(p, 0);
	}
	/* Back to 1500: a 1515-byte frame is now too long for the vport. */
	TEST_ASSERT_SUCCESS(mlx5_port_mtu_set(p->cdev, 1, 1500), "MTU 1500");
	TEST_ASSERT(mlx5_port_mtu_set(p->cdev, 1, 20000) < 0,
		    "MTU 20000 refused");
	w_send(p, w_frame(p, 0, 1515, p->mac, 1, 2, 0, true), 1515, 18, 1, 0,
	       p->mr->lkey, true);
	TEST_ASSERT_SUCCESS(w_poll(&p->txcq, &c), "send CQE");
	TEST_ASSERT_EQUAL(w_poll(&p->rxcq, &c), -EAGAIN, "oversize dropped");
	TEST_ASSERT_EQUAL(w_stats(0).rx_oversize, 1, "counted");
	return TEST_SUCCESS;
}

/* Two vHCAs cabled port to port: frames cross, none loops back. */
static int
test_two_ports_cabled(void)
{
	struct mlx5_cqe_eth c;
	struct mlx5_port_link link;
	unsigned int i;

	if (w_port_get(0, 10, ",wire=11", 1, 0) != TEST_SUCCESS ||
	    w_port_get(1, 11, "", 1, 0) != TEST_SUCCESS)
		return TEST_FAILED;
	for (i = 0; i < 2; i++) {
		struct w_port *s = &wp[i], *r = &wp[1 - i];
		uint8_t *f = w_frame(s, 0, 100, r->mac, 7, 9, (uint8_t)i,
				     true);

		w_send(s, f, 100, 18, 1, 0, s->mr->lkey, false);
		TEST_ASSERT_EQUAL(w_poll(&s->rxcq, &c), -EAGAIN,
				  "nothing back on the sender");
		TEST_ASSERT_SUCCESS(w_poll(&r->rxcq, &c), "received");
		TEST_ASSERT(memcmp(w_rx_buf(r, 0, rte_be_to_cpu_16(
				c.wqe_counter)), f, 100) == 0, "intact");
		TEST_ASSERT_EQUAL(w_poll(&s->txcq, &c), -EAGAIN,
				  "unsignaled: no send CQE");
	}
	TEST_ASSERT_EQUAL(w_stats(10).tx_frames, 1, "tx 10");
	TEST_ASSERT_EQUAL(w_stats(11).rx_frames, 1, "rx 11");
	/* A third vHCA cannot take a cabled port. */
	TEST_ASSERT(tdev_probe(2, "card=62,vhca_id=12,wire=11") < 0,
		    "port 1 of vHCA 11 is taken");
	/* A port with no cable: link down, frames lost. */
	TEST_ASSERT_SUCCESS(tdev_probe(2, "card=62,vhca_id=13,wire=none"),
			    "unplugged");
	TEST_ASSERT_SUCCESS(mlx5_port_link_get(tdev_cdev(2), 1, &link),
			    "link");
	TEST_ASSERT(!link.up, "no cable: link down");
	TEST_ASSERT(mlx5_port_link_get(tdev_cdev(2), 2, &link) == -EINVAL,
		    "no port 2");
	return TEST_SUCCESS;
}

/*
 * A vHCA of two ports: port 2 cabled to another vHCA, port 1 looped. An
 * SQ whose TIS names port 2 sends there; one naming port 1 loops back.
 */
static int
test_two_port_affinity(void)
{
	struct mlx5_devx_tis_attr ta = { 0 };
	struct mlx5_devx_obj *tis;
	struct mlx5_cqe_eth c;
	struct mlx5_port_link link;
	struct mlx5_sim_port_stats st;

	w_tis_port = 2;
	if (w_port_get(0, 15, ",ports=2,wire2=16", 1, 0) != TEST_SUCCESS)
		return TEST_FAILED;
	w_tis_port = 0;
	if (w_port_get(1, 16, "", 1, 0) != TEST_SUCCESS)
		return TEST_FAILED;
	TEST_ASSERT_SUCCESS(mlx5_port_link_get(wp[0].cdev, 2, &link), "link");
	TEST_ASSERT(link.up, "port 2 cabled");
	w_send(&wp[0], w_frame(&wp[0], 0, 64, wp[1].mac, 1, 2, 0, true), 64,
	       18, 1, 0, wp[0].mr->lkey, false);
	TEST_ASSERT_EQUAL(w_poll(&wp[0].rxcq, &c), -EAGAIN, "not looped");
	TEST_ASSERT_SUCCESS(w_poll(&wp[1].rxcq, &c), "out of port 2");
	TEST_ASSERT_SUCCESS(mlx5_sim_port_stats(W_CARD, 15, 2, &st), "stats");
	TEST_ASSERT_EQUAL(st.tx_frames, 1, "counted on port 2");
	/* A TIS of a port the vHCA lacks is refused. */
	ta.transport_domain = wp[0].td->id;
	ta.lag_tx_port_affinity = 3;
	tis = mlx5_devx_cmd_create_tis(wp[0].cdev, &ta);
	TEST_ASSERT(tis == NULL, "no port 3");
	ta.transport_domain = wp[1].td->id;
	ta.lag_tx_port_affinity = 2;
	tis = mlx5_devx_cmd_create_tis(wp[1].cdev, &ta);
	TEST_ASSERT(tis == NULL, "a one-port vHCA has no port 2");
	return TEST_SUCCESS;
}

/* Checksum offload on send; verdicts and header types on receive. */
static int
test_checksums(void)
{
	struct w_port *p = &wp[0];
	struct mlx5_cqe_eth c;
	uint8_t *f, *r;

	if (w_port_get(0, 20, "", 1, 0) != TEST_SUCCESS)
		return TEST_FAILED;
	/* Checksums 0 in memory, the offload fills both. */
	f = w_frame(p, 0, 200, p->mac, 53, 53, 3, false);
	w_send(p, f, 200, 18, 1, MLX5_ETH_WQE_L3_CSUM | MLX5_ETH_WQE_L4_CSUM,
	       p->mr->lkey, false);
	TEST_ASSERT_SUCCESS(w_poll(&p->rxcq, &c), "received");
	r = w_rx_buf(p, 0, rte_be_to_cpu_16(c.wqe_counter));
	TEST_ASSERT(c.hds_ip_ext == (MLX5_CQE_L2_OK | MLX5_CQE_L3_OK |
				     MLX5_CQE_L4_OK), "all good: 0x%x",
		    c.hds_ip_ext);
	TEST_ASSERT_EQUAL(c.l4_l3_hdr_type,
			  MLX5_CQE_L4_HDR_TYPE_UDP << MLX5_CQE_L4_HDR_TYPE_SHIFT |
			  MLX5_CQE_L3_HDR_TYPE_IPV4 << MLX5_CQE_L3_HDR_TYPE_SHIFT,
			  "IPv4/UDP");
	TEST_ASSERT(rte_ipv4_cksum((const void *)(r + 14)) == 0 ||
		    ((const struct rte_ipv4_hdr *)(r + 14))->hdr_checksum ==
		    rte_ipv4_cksum((const void *)(r + 14)), "IP checksum");
	w_frame(p, 0, 200, p->mac, 53, 53, 3, true);
	TEST_ASSERT(memcmp(r, f, 200) == 0,
		    "the device wrote the checksums software computes");
	w_rx_post(p, 0);
	/* A bad IP checksum and a bad UDP checksum, no offload. */
	f = w_frame(p, 0, 200, p->mac, 53, 53, 3, true);
	f[14 + 10] ^= 0x5a;
	f[34 + 6] ^= 0x5a;
	w_send(p, f, 200, 18, 1, 0, p->mr->lkey, false);
	TEST_ASSERT_SUCCESS(w_poll(&p->rxcq, &c), "received");
	TEST_ASSERT_EQUAL(c.hds_ip_ext, MLX5_CQE_L2_OK, "both bad");
	w_rx_post(p, 0);
	/* Not IP: L2 only. */
	f = w_frame(p, 0, 60, p->mac, 1, 1, 1, true);
	f[12] = 0x88;
	f[13] = 0xb5;
	w_send(p, f, 60, 18, 1, 0, p->mr->lkey, false);
	TEST_ASSERT_SUCCESS(w_poll(&p->rxcq, &c), "received");
	TEST_ASSERT(c.hds_ip_ext == MLX5_CQE_L2_OK && c.l4_l3_hdr_type == 0,
		    "no L3");
	return TEST_SUCCESS;
}

/*
 * A TCP (@tcp: its flags) or UDP frame over IPv4 or IPv6 to @p's own MAC,
 * @len bytes at @off of the send area, checksums 0.
 */
static uint8_t *
w_frame_l4(struct w_port *p, size_t off, uint32_t len, bool v6, int tcp)
{
	uint8_t *f = p->buf + W_TX_OFF + off;
	uint32_t l3 = v6 ? 40 : 20, i;
	uint8_t *h4 = mlx5_test_frame_l3(f, len, p->mac, v6,
					 tcp >= 0 ? IPPROTO_TCP : IPPROTO_UDP,
					 0x0a000102);

	h4[1] = 53;
	h4[3] = 53;
	if (tcp >= 0) {
		h4[12] = 5 << 4;
		h4[13] = (uint8_t)tcp;
	} else {
		h4[4] = (uint8_t)((len - 14 - l3) >> 8);
		h4[5] = (uint8_t)(len - 14 - l3);
	}
	for (i = 14 + l3 + (tcp >= 0 ? 20 : 8); i < len; i++)
		f[i] = (uint8_t)(i * 5);
	return f;
}

/*
 * TCP and IPv6 through the checksum offloads and the CQE's verdicts and
 * header types (TCP without ACK, with ACK and data, with ACK only); a zero
 * UDP checksum over IPv4 is none (good); a bad TCP checksum is bad; a
 * TCP header shorter than 20 bytes and a fragment have no L4; IP behind
 * two VLAN tags is parsed.
 */
static int
test_checksums_tcp_ipv6(void)
{
	static const struct {
		bool v6;
		int tcp;               /* TCP flags, or -1: UDP. */
		uint32_t len;
		uint8_t l4t;
	} k[] = {
		{ false, 0x10, 120, MLX5_CQE_L4_HDR_TYPE_TCP_ACK_AND_DATA },
		{ false, 0x10, 54, MLX5_CQE_L4_HDR_TYPE_TCP_ACK_NO_DATA },
		{ false, 0x02, 120, MLX5_CQE_L4_HDR_TYPE_TCP_NO_ACK },
		{ true, 0x18, 140, MLX5_CQE_L4_HDR_TYPE_TCP_ACK_AND_DATA },
		{ true, -1, 140, MLX5_CQE_L4_HDR_TYPE_UDP },
	};
	struct w_port *p = &wp[0];
	struct mlx5_cqe_eth c;
	uint8_t *f, *r;
	unsigned int i;

	if (w_port_get(0, 21, "", 1, 0) != TEST_SUCCESS)
		return TEST_FAILED;
	for (i = 0; i < RTE_DIM(k); i++) {
		uint8_t l3t = k[i].v6 ? MLX5_CQE_L3_HDR_TYPE_IPV6 :
			      MLX5_CQE_L3_HDR_TYPE_IPV4;
		uint8_t *h4;
		uint16_t cs;

		f = w_frame_l4(p, 0, k[i].len, k[i].v6, k[i].tcp);
		w_send(p, f, k[i].len, 18, 1,
		       MLX5_ETH_WQE_L3_CSUM | MLX5_ETH_WQE_L4_CSUM,
		       p->mr->lkey, false);
		TEST_ASSERT_SUCCESS(w_poll(&p->rxcq, &c), "case %u received",
				    i);
		TEST_ASSERT_EQUAL(c.hds_ip_ext, MLX5_CQE_L2_OK |
				  MLX5_CQE_L3_OK | MLX5_CQE_L4_OK,
				  "case %u: all good", i);
		TEST_ASSERT_EQUAL(c.l4_l3_hdr_type,
				  k[i].l4t << MLX5_CQE_L4_HDR_TYPE_SHIFT |
				  l3t << MLX5_CQE_L3_HDR_TYPE_SHIFT,
				  "case %u: header types", i);
		/* The checksums software computes. */
		f = w_frame_l4(p, 0, k[i].len, k[i].v6, k[i].tcp);
		h4 = f + 14 + (k[i].v6 ? 40 : 20);
		if (!k[i].v6) {
			struct rte_ipv4_hdr *ip = (void *)(f + 14);

			ip->hdr_checksum = rte_ipv4_cksum(ip);
			cs = rte_ipv4_udptcp_cksum(ip, h4);
		} else {
			cs = rte_ipv6_udptcp_cksum((void *)(f + 14), h4);
		}
		memcpy(h4 + (k[i].tcp >= 0 ? 16 : 6), &cs, 2);
		r = w_rx_buf(p, 0, rte_be_to_cpu_16(c.wqe_counter));
		TEST_ASSERT(memcmp(r, f, k[i].len) == 0,
			    "case %u: the checksums software computes", i);
		w_rx_post(p, 0);
		/* The same frame with its TCP/UDP checksum broken. */
		h4[k[i].tcp >= 0 ? 16 : 6] ^= 0x5a;
		w_send(p, f, k[i].len, 18, 1, 0, p->mr->lkey, false);
		TEST_ASSERT_SUCCESS(w_poll(&p->rxcq, &c), "case %u received",
				    i);
		TEST_ASSERT_EQUAL(c.hds_ip_ext, MLX5_CQE_L2_OK |
				  MLX5_CQE_L3_OK, "case %u: L4 bad", i);
		w_rx_post(p, 0);
	}
	/* IPv4/UDP, the IP checksum filled, no UDP checksum: good. */
	f = w_frame(p, 0, 100, p->mac, 53, 53, 1, false);
	w_send(p, f, 100, 18, 1, MLX5_ETH_WQE_L3_CSUM, p->mr->lkey, false);
	TEST_ASSERT_SUCCESS(w_poll(&p->rxcq, &c), "received");
	TEST_ASSERT_EQUAL(c.hds_ip_ext, MLX5_CQE_L2_OK | MLX5_CQE_L3_OK |
			  MLX5_CQE_L4_OK, "a zero UDP checksum is none: good");
	w_rx_post(p, 0);
	/* A TCP header of data offset 4 (less than its 20 bytes): no L4. */
	f = w_frame_l4(p, 0, 100, false, 0x10);
	f[14 + 20 + 12] = 4 << 4;
	w_send(p, f, 100, 18, 1, MLX5_ETH_WQE_L3_CSUM, p->mr->lkey, false);
	TEST_ASSERT_SUCCESS(w_poll(&p->rxcq, &c), "received");
	TEST_ASSERT_EQUAL(c.l4_l3_hdr_type, MLX5_CQE_L3_HDR_TYPE_IPV4 <<
			  MLX5_CQE_L3_HDR_TYPE_SHIFT,
			  "a TCP data offset of 4: no L4");
	w_rx_post(p, 0);
	/* Two VLAN tags (QinQ) before IPv4/UDP: parsed through both. */
	f = w_frame(p, 8, 100, p->mac, 53, 53, 1, true);
	memmove(f - 8, f, 12);
	f -= 8;
	memcpy(f + 12, "\x88\xa8\x00\x05\x81\x00\x00\x07", 8);
	w_send(p, f, 108, 18, 1, 0, p->mr->lkey, false);
	TEST_ASSERT_SUCCESS(w_poll(&p->rxcq, &c), "received");
	TEST_ASSERT_EQUAL(c.l4_l3_hdr_type,
			  MLX5_CQE_L4_HDR_TYPE_UDP << MLX5_CQE_L4_HDR_TYPE_SHIFT |
			  MLX5_CQE_L3_HDR_TYPE_IPV4 << MLX5_CQE_L3_HDR_TYPE_SHIFT,
			  "QinQ: IPv4/UDP behind two tags");
	TEST_ASSERT_EQUAL(c.hds_ip_ext, MLX5_CQE_L2_OK | MLX5_CQE_L3_OK |
			  MLX5_CQE_L4_OK, "QinQ: both checksums good");
	w_rx_post(p, 0);
	/* A first fragment: IPv4, no L4. */
	f = w_frame(p, 0, 100, p->mac, 53, 53, 1, false);
	f[14 + 6] = 0x20;              /* More fragments. */
	w_send(p, f, 100, 18, 1, MLX5_ETH_WQE_L3_CSUM, p->mr->lkey, false);
	TEST_ASSERT_SUCCESS(w_poll(&p->rxcq, &c), "received");
	TEST_ASSERT_EQUAL(c.l4_l3_hdr_type, MLX5_CQE_L3_HDR_TYPE_IPV4 <<
			  MLX5_CQE_L3_HDR_TYPE_SHIFT, "a fragment: no L4");
	TEST_ASSERT_EQUAL(c.hds_ip_ext, MLX5_CQE_L2_OK | MLX5_CQE_L3_OK,
			  "a fragment: no L4 verdict");
	w_rx_post(p, 0);
	return TEST_SUCCESS;
}

/* Toeplitz over IPv4/UDP spreads frames over the RQT as DPDK computes. */
static int
test_rss_spread(void)
{
	struct w_port *p = &wp[0];
	unsigned int per_rq[W_NRQ] = { 0 }, i;
	uint8_t key_le[MLX5_RSS_HASH_KEY_LEN];
	struct mlx5_cqe_eth c;

	if (w_port_get(0, 30, "", W_NRQ, 0) != TEST_SUCCESS)
		return TEST_FAILED;
	rte_convert_rss_key((const uint32_t *)w_key, (uint32_t *)key_le,
			    sizeof(key_le));
	for (i = 0; i < 48; i++) {
		uint16_t sport = (uint16_t)(1000 + 37 * i);
		uint8_t *f = w_frame(p, 0, 80, p->mac, sport, 4789,
				     (uint8_t)i, true);
		union rte_thash_tuple t;
		uint32_t want;
		int q;

		w_send(p, f, 80, 18, 1, 0, p->mr->lkey, false);
		TEST_ASSERT_SUCCESS(w_poll(&p->rxcq, &c), "frame %u", i);
		t.v4.src_addr = 0x0a000001 + i;
		t.v4.dst_addr = 0x0a000102;
		t.v4.sport = sport;
		t.v4.dport = 4789;
		want = rte_softrss_be((uint32_t *)&t, RTE_THASH_V4_L4_LEN,
				      key_le);
		TEST_ASSERT_EQUAL(rte_be_to_cpu_32(c.rss_hash_result), want,
				  "frame %u: hash as DPDK's software RSS", i);
		TEST_ASSERT_EQUAL(c.rss_hash_type, MLX5_CQE_RSS_HTYPE_IPV4 |
				  MLX5_CQE_RSS_HTYPE_UDP, "hash type");
		q = w_rq_of(p, &c);
		TEST_ASSERT_EQUAL(q, (int)(want & (W_NRQ - 1)),
				  "frame %u in the RQ its hash picks", i);
		/* The rule has no flow tag: the field is 0, no queue number. */
		TEST_ASSERT_EQUAL(c.sop_drop_qpn, 0, "frame %u: no flow tag", i);
		per_rq[q]++;
		w_rx_post(p, (unsigned int)q);
	}
	for (i = 0; i < W_NRQ; i++)
		TEST_ASSERT(per_rq[i] > 0, "RQ %u got frames", i);
	return TEST_SUCCESS;
}

/* Rules: own MAC, broadcast and all-multicast each to their TIR. */
static int
test_steering(void)
{
	static const uint8_t bcast[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
	static const uint8_t mcast[6] = { 0x01, 0x00, 0x5e, 0x00, 0x00, 0x01 };
	static const uint8_t other[6] = { 0x02, 0x11, 0x22, 0x33, 0x44, 0x55 };
	struct w_port *p = &wp[0];
	struct mlx5_devx_tir_attr ta = { 0 };
	struct mlx5_devx_obj *tir[3] = { NULL };
	struct mlx5_flow_rx rule[3];
	struct mlx5_cqe_eth c;
	long live;
	unsigned int i;

	if (w_port_get(0, 40, "", 3, 0) != TEST_SUCCESS)
		return TEST_FAILED;
	/* Replace the promiscuous rule by three, one TIR per RQ. */
	TEST_ASSERT_SUCCESS(mlx5_flow_rx_destroy(&p->rule), "remove");
	live = tdev_live(0);
	ta.disp_type = MLX5_TIRC_DISP_TYPE_DIRECT;
	ta.transport_domain = p->td->id;
	for (i = 0; i < 3; i++) {
		ta.inline_rqn = p->rq[i].obj->id;
		tir[i] = mlx5_devx_cmd_create_tir(p->cdev, &ta);
		TEST_ASSERT_NOT_NULL(tir[i], "TIR %u", i);
	}
	TEST_ASSERT_SUCCESS(mlx5_flow_rx_create(p->cdev, &rule[0],
		MLX5_FLOW_RX_DMAC, p->mac, 1, tir[0]), "own MAC");
	TEST_ASSERT_SUCCESS(mlx5_flow_rx_create(p->cdev, &rule[1],
		MLX5_FLOW_RX_BCAST, NULL, 1, tir[1]), "broadcast");
	/* Lower priority: broadcast (a group address too) wins above. */
	TEST_ASSERT_SUCCESS(mlx5_flow_rx_create(p->cdev, &rule[2],
		MLX5_FLOW_RX_MCAST, NULL, 2, tir[2]), "all-multicast");
	{
		static const uint8_t zero[6];

		/* A group address is a rule (a multicast list's entry). */
		TEST_ASSERT(mlx5_flow_rx_create(p->cdev, &p->rule,
			    MLX5_FLOW_RX_DMAC, zero, 0, tir[0]) == -EINVAL,
			    "a zero MAC is not a rule");
	}
	TEST_ASSERT(mlx5_devx_cmd_destroy(tir[0]) == -EBUSY,
		    "a TIR a rule sends to stays");
	{
		const uint8_t *dst[] = { p->mac, bcast, mcast, other };
		int want[] = { 0, 1, 2, -1 };

		for (i = 0; i < RTE_DIM(dst); i++) {
			w_send(p, w_frame(p, 0, 64, dst[i], 1, 2, 0, true),
			       64, 18, 1, 0, p->mr->lkey, false);
			if (want[i] < 0) {
				TEST_ASSERT_EQUAL(w_poll(&p->rxcq, &c),
						  -EAGAIN, "no rule: dropped");
				continue;
			}
			TEST_ASSERT_SUCCESS(w_poll(&p->rxcq, &c), "frame %u",
					    i);
			TEST_ASSERT_EQUAL(w_rq_of(p, &c), want[i],
					  "frame %u to its TIR's RQ", i);
		}
	}
	TEST_ASSERT_EQUAL(w_stats(40).rx_no_rule, 1, "no-rule drop counted");
	for (i = 0; i < 3; i++) {
		TEST_ASSERT_SUCCESS(mlx5_flow_rx_destroy(&rule[i]), "rule");
		TEST_ASSERT_SUCCESS(mlx5_devx_cmd_destroy(tir[i]), "TIR");
	}
	TEST_ASSERT_EQUAL(tdev_live(0), live, "rules and TIRs gone");
	return TEST_SUCCESS;
}

/* No posted WQE: the frame is dropped and counted, twice over. */
static int
test_drop_no_wqe(void)
{
	struct w_port *p = &wp[0];
	struct mlx5_devx_q_counter_info info;
	struct mlx5_devx_obj *qc;
	struct mlx5_cqe_eth c;
	struct mlx5_devx_rq rq;
	struct mlx5_devx_tir_attr ta = { 0 };
	struct mlx5_devx_obj *tir;
	struct mlx5_flow_rx rule;
	unsigned int i;

	if (w_port_get(0, 50, "", 1, 0) != TEST_SUCCESS)
		return TEST_FAILED;
	qc = mlx5_devx_cmd_queue_counter_alloc(p->cdev);
	TEST_ASSERT_NOT_NULL(qc, "queue counter");
	TEST_ASSERT_SUCCESS(mlx5_devx_rq_create(p->cdev, &rq,
		&(struct mlx5_devx_rq_params){
			.pd = p->cdev->pdn,
			.cqn = p->rxcq.obj->id,
			.log_size = 2,
			.log_stride = W_LOG_STRIDE,
			.counter_set_id = (uint8_t)qc->id,
		}, SOCKET_ID_ANY), "RQ with a counter, nothing posted");
	ta.disp_type = MLX5_TIRC_DISP_TYPE_DIRECT;
	ta.transport_domain = p->td->id;
	ta.inline_rqn = rq.obj->id;
	tir = mlx5_devx_cmd_create_tir(p->cdev, &ta);
	TEST_ASSERT_NOT_NULL(tir, "TIR");
	/* Above the promiscuous rule. */
	TEST_ASSERT_SUCCESS(mlx5_flow_rx_create(p->cdev, &rule,
		MLX5_FLOW_RX_ALL, NULL, 0, tir), "rule");
	for (i = 0; i < 3; i++)
		w_send(p, w_frame(p, 0, 64, p->mac, 1, 2, 0, true), 64, 18, 1,
		       0, p->mr->lkey, false);
	TEST_ASSERT_EQUAL(w_poll(&p->rxcq, &c), -EAGAIN, "nothing received");
	TEST_ASSERT_EQUAL(w_stats(50).rx_out_of_buffer, 3, "port counter");
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_queue_counter_query(qc, true, &info),
			    "query");
	TEST_ASSERT_EQUAL(info.out_of_buffer, 3, "queue counter");
	/* Read and cleared in one command: the next read starts from 0. */
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_queue_counter_query(qc, false,
							      &info), "");
	TEST_ASSERT_EQUAL(info.out_of_buffer, 0, "cleared by the query");
	TEST_ASSERT_SUCCESS(mlx5_flow_rx_destroy(&rule), "rule");
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_destroy(tir), "TIR");
	TEST_ASSERT_SUCCESS(mlx5_devx_rq_destroy(&rq), "RQ");
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_destroy(qc), "counter");
	return TEST_SUCCESS;
}

/* A bad key: error CQE, the SQ in ERR flushes, recovery brings it back. */
static int
test_error_recover(void)
{
	struct w_port *p = &wp[0];
	struct mlx5_cqe_eth c;
	struct mlx5_err_cqe *e = (struct mlx5_err_cqe *)&c;
	uint8_t *f;

	if (w_port_get(0, 60, "", 1, 0) != TEST_SUCCESS)
		return TEST_FAILED;
	f = w_frame(p, 0, 128, p->mac, 1, 2, 0, true);
	w_send(p, f, 128, 18, 1, 0, p->mr->lkey + 0x100, false);
	w_send(p, f, 128, 18, 1, 0, p->mr->lkey, true);
	TEST_ASSERT_EQUAL(w_poll(&p->txcq, &c), -EIO, "error CQE");
	TEST_ASSERT_EQUAL(e->syndrome, MLX5_CQE_SYNDROME_LOCAL_PROT_ERR,
			  "protection error");
	TEST_ASSERT_EQUAL(w_poll(&p->txcq, &c), -EIO, "flushed");
	TEST_ASSERT_EQUAL(e->syndrome, MLX5_CQE_SYNDROME_WR_FLUSH_ERR,
			  "flush");
	TEST_ASSERT_EQUAL(w_poll(&p->rxcq, &c), -EAGAIN, "nothing sent");
	TEST_ASSERT_SUCCESS(mlx5_devx_sq_recover(&p->sq), "recover");
	w_send(p, f, 128, 18, 1, 0, p->mr->lkey, true);
	TEST_ASSERT_SUCCESS(w_poll(&p->txcq, &c), "sent after recovery");
	TEST_ASSERT_SUCCESS(w_poll(&p->rxcq, &c), "received");
	/* A receive buffer of another PD's key: the RQ goes to ERR. */
	return TEST_SUCCESS;
}

/*
 * A key the queues used (and the device cached) is deregistered: the next
 * send through it, and the next receive into it, fail as for any unknown
 * key. The SQ recovers; the RQ goes to ERR.
 */
static int
test_stale_key(void)
{
	struct w_port *p = &wp[0];
	struct mlx5_cqe_eth c;
	struct mlx5_err_cqe *e = (struct mlx5_err_cqe *)&c;
	struct ibv_mr *mr;
	uint32_t lkey;
	uint8_t *f;
	unsigned int i;

	if (w_port_get(0, 65, "", 1, 0) != TEST_SUCCESS)
		return TEST_FAILED;
	mr = p->cdev->glue->reg_mr(p->cdev->pd, p->buf + W_TX_OFF, 65536,
				   IBV_ACCESS_LOCAL_WRITE);
	TEST_ASSERT_NOT_NULL(mr, "MR");
	f = w_frame(p, 0, 128, p->mac, 1, 2, 0, true);
	for (i = 0; i < 3; i++) {
		w_send(p, f, 128, 18, 1, 0, mr->lkey, true);
		TEST_ASSERT_SUCCESS(w_poll(&p->txcq, &c), "send %u", i);
		TEST_ASSERT_SUCCESS(w_poll(&p->rxcq, &c), "receive %u", i);
		w_rx_post(p, 0);
	}
	/* The key stays known to the test; the MR goes. */
	lkey = mr->lkey;
	TEST_ASSERT_SUCCESS(p->cdev->glue->dereg_mr(mr), "dereg");
	w_send(p, f, 128, 18, 1, 0, lkey, true);
	TEST_ASSERT_EQUAL(w_poll(&p->txcq, &c), -EIO, "the key is gone");
	TEST_ASSERT_EQUAL(e->syndrome, MLX5_CQE_SYNDROME_LOCAL_PROT_ERR,
			  "protection error");
	TEST_ASSERT_EQUAL(w_poll(&p->rxcq, &c), -EAGAIN, "nothing sent");
	TEST_ASSERT_SUCCESS(mlx5_devx_sq_recover(&p->sq), "recover");
	/* Receive buffers of a key that goes away after a first frame. */
	mr = p->cdev->glue->reg_mr(p->cdev->pd, p->buf, W_TX_OFF,
				   IBV_ACCESS_LOCAL_WRITE);
	TEST_ASSERT_NOT_NULL(mr, "MR");
	for (i = 0; i < 2; i++) {
		struct mlx5_devx_rq *rq = &p->rq[0];
		struct mlx5_wqe_data_seg *d = (void *)(rq->wqes +
			((size_t)((p->rq_pi[0] + i) & ((1u << rq->log_size) - 1))
			 << rq->log_stride));
		unsigned int k;

		for (k = 0; k < 4; k++)
			d[k].lkey = rte_cpu_to_be_32(mr->lkey);
	}
	w_send(p, f, 128, 18, 1, 0, p->mr->lkey, false);
	TEST_ASSERT_SUCCESS(w_poll(&p->rxcq, &c), "received through it");
	w_rx_post(p, 0);
	TEST_ASSERT_SUCCESS(p->cdev->glue->dereg_mr(mr), "dereg");
	w_send(p, f, 128, 18, 1, 0, p->mr->lkey, false);
	TEST_ASSERT_EQUAL(w_poll(&p->rxcq, &c), -EIO, "receive key gone");
	TEST_ASSERT_EQUAL(e->syndrome, MLX5_CQE_SYNDROME_LOCAL_PROT_ERR,
			  "protection error");
	return TEST_SUCCESS;
}

/* A paced SQ: CQE timestamps spaced by the frame's time at the rate. */
static int
test_pacing_spacing(void)
{
	struct w_port *p = &wp[0];
	struct mlx5_pp_attr pa = {
		.rate_kbps = 100000,
		.rate_mode = MLX5_PP_RATE_MODE_DATA_RATE,
	};
	struct mlx5_pp_entry *pp = NULL;
	struct mlx5_devx_sq_modify m = {
		.cur_state = MLX5_WQ_STATE_RDY,
		.new_state = MLX5_WQ_STATE_RDY,
		.set_rate = true,
	};
	struct mlx5_cqe_eth c;
	uint64_t ts[8];
	unsigned int i;

	if (w_port_get(0, 70, "", 1, 0) != TEST_SUCCESS)
		return TEST_FAILED;
	/* Unpaced first: back to back at 100 Gb/s (1000 bytes: 80 ns). */
	for (i = 0; i < 2; i++)
		w_send(p, w_frame(p, 0, 1000, p->mac, 1, 2, 0, true), 1000, 18,
		       1, 0, p->mr->lkey, true);
	for (i = 0; i < 2; i++) {
		TEST_ASSERT_SUCCESS(w_poll(&p->txcq, &c), "CQE");
		ts[i] = rte_be_to_cpu_64(c.timestamp);
	}
	TEST_ASSERT_EQUAL(ts[1] - ts[0], 80, "line rate spacing");
	TEST_ASSERT_SUCCESS(mlx5_pp_alloc(p->cdev, &pa, &pp), "pp entry");
	m.rate_index = pp->index;
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_modify_sq(p->sq.obj, &m), "pace");
	for (i = 0; i < 8; i++)
		w_send(p, w_frame(p, 0, 1000, p->mac, 1, 2, 0, true), 1000, 18,
		       1, 0, p->mr->lkey, true);
	for (i = 0; i < 8; i++) {
		TEST_ASSERT_SUCCESS(w_poll(&p->txcq, &c), "CQE %u", i);
		ts[i] = rte_be_to_cpu_64(c.timestamp);
		w_poll(&p->rxcq, &c);
		w_rx_post(p, 0);
	}
	/* 8000 bits at 100 Mb/s: 80 us apart. */
	for (i = 1; i < 8; i++)
		TEST_ASSERT_EQUAL(ts[i] - ts[i - 1], 80000,
				  "frame %u: 80 us after the previous", i);
	m.rate_index = 0;
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_modify_sq(p->sq.obj, &m), "unpace");
	mlx5_pp_free(p->cdev, pp);
	return TEST_SUCCESS;
}

/* The TIR's self-loopback block drops the port's own unicast frames. */
static int
test_self_loopback_block(void)
{
	struct w_port *p = &wp[0];
	struct mlx5_cqe_eth c;
	static const uint8_t mcast[6] = { 0x01, 0, 0x5e, 0, 0, 9 };

	if (w_port_get(0, 80, "", 1,
		       MLX5_TIRC_SELF_LB_BLOCK_BLOCK_UNICAST) != TEST_SUCCESS)
		return TEST_FAILED;
	w_send(p, w_frame(p, 0, 64, p->mac, 1, 2, 0, true), 64, 18, 1, 0,
	       p->mr->lkey, false);
	TEST_ASSERT_EQUAL(w_poll(&p->rxcq, &c), -EAGAIN, "unicast blocked");
	TEST_ASSERT_EQUAL(w_stats(80).rx_self_lb, 1, "counted");
	w_send(p, w_frame(p, 0, 64, mcast, 1, 2, 0, true), 64, 18, 1, 0,
	       p->mr->lkey, false);
	TEST_ASSERT_SUCCESS(w_poll(&p->rxcq, &c), "multicast passes");
	return TEST_SUCCESS;
}

/* Rule creation refused by a fault, and the reclaim at removal. */
static int
test_faults_and_reclaim(void)
{
	struct w_port *p = &wp[0];
	struct mlx5_flow_rx rule;
	long live;

	if (w_port_get(0, 90, "", 1, 0) != TEST_SUCCESS)
		return TEST_FAILED;
	live = tdev_live(0);
	TEST_ASSERT_SUCCESS(mlx5_sim_fault_set(W_CARD, 90,
		MLX5_CMD_OP_SET_FLOW_TABLE_ENTRY, 0,
		MLX5_CMD_STAT_NO_RES_ERR), "arm");
	TEST_ASSERT(mlx5_flow_rx_create(p->cdev, &rule, MLX5_FLOW_RX_BCAST,
					NULL, 0, p->tir) < 0, "refused");
	TEST_ASSERT_EQUAL(tdev_live(0), live, "nothing left behind");
	mlx5_sim_fault_clear(W_CARD, 90);
	/* Leave every object to the removal: the device reclaims them. */
	TEST_ASSERT_SUCCESS(tdev_remove(0), "remove");
	TEST_ASSERT_EQUAL(tdev_live(0), 0, "all reclaimed");
	/* The driver's memory: freed here, as an application would. */
	mlx5_free(p->sq.buf);
	mlx5_free(p->rq[0].buf);
	mlx5_free(p->txcq.buf);
	mlx5_free(p->rxcq.buf);
	free(p->buf);
	memset(p, 0, sizeof(*p));
	return TEST_SUCCESS;
}

/*
 * Fail each command of a port's bring-up in turn (the nth command from
 * the probe): the bring-up fails cleanly and, once torn down, the vHCA
 * holds nothing. Ends when a bring-up runs with no fault left to hit.
 */
static int
test_fault_sweep(void)
{
	struct mlx5_sim_stats st;
	unsigned int nth;
	char extra[32];

	for (nth = 1; nth < 400; nth++) {
		uint64_t failed0 = 0;
		bool fired;
		int ret;

		if (mlx5_sim_vhca_stats(W_CARD, 100, &st) == 0)
			failed0 = st.failed_commands;
		snprintf(extra, sizeof(extra), ",fail_nth=%u", nth);
		ret = w_port_get(0, 100, extra, 2, 0);
		TEST_ASSERT_SUCCESS(mlx5_sim_vhca_stats(W_CARD, 100, &st),
				    "stats");
		fired = st.failed_commands > failed0;
		mlx5_sim_fault_clear(W_CARD, 100);
		w_port_put(&wp[0]);
		tdev_remove_all();
		TEST_ASSERT_SUCCESS(mlx5_sim_vhca_stats(W_CARD, 100, &st),
				    "stats");
		TEST_ASSERT_EQUAL(st.live_objects + st.contexts, 0,
				  "command %u failed: nothing left", nth);
		if (!fired) {
			/* Past the last command: everything was swept. */
			TEST_ASSERT_EQUAL(ret, TEST_SUCCESS, "clean bring-up");
			break;
		}
	}
	TEST_ASSERT(nth > 20 && nth < 400, "swept %u commands", nth);
	return TEST_SUCCESS;
}

/* Post a NOP (one block, no segment but the control one) without a doorbell. */
static void
w_nop(struct w_port *p, bool signaled)
{
	struct mlx5_devx_sq *sq = &p->sq;
	struct mlx5_wqe_ctrl_seg *ctrl = (void *)(sq->wqes + (size_t)(sq->pi &
					((1u << sq->log_size) - 1)) *
					MLX5_SEND_WQE_BB);

	memset(ctrl, 0, MLX5_SEND_WQE_BB);
	ctrl->opmod_idx_opcode = rte_cpu_to_be_32((uint32_t)sq->pi << 8 |
						  MLX5_OPCODE_NOP);
	ctrl->qpn_ds = rte_cpu_to_be_32(sq->obj->id << 8 | 1);
	ctrl->fm_ce_se = signaled ? MLX5_WQE_CTRL_CQ_UPDATE : 0;
	sq->pi++;
}

/* The next CQE of @cq: its status (0, -EIO), syndrome and WQE counter. */
static int
w_expect(struct mlx5_devx_cq *cq, int status, uint8_t synd, uint16_t ctr)
{
	struct mlx5_cqe_eth c;
	struct mlx5_err_cqe *e = (struct mlx5_err_cqe *)&c;

	TEST_ASSERT_EQUAL(w_poll(cq, &c), status, "CQE status, WQE %u", ctr);
	if (status == -EAGAIN)
		return TEST_SUCCESS;
	TEST_ASSERT_EQUAL(rte_be_to_cpu_16(c.wqe_counter), ctr,
			  "WQE counter");
	if (status == -EIO)
		TEST_ASSERT_EQUAL(e->syndrome, synd, "WQE %u: syndrome", ctr);
	return TEST_SUCCESS;
}

#define W_EXPECT(cq, status, synd, ctr) \
	TEST_ASSERT_EQUAL(w_expect(cq, status, synd, ctr), TEST_SUCCESS, "")

/*
 * The application's memory made unreadable under the live send path,
 * inside one doorbell: a frame's data (LOCAL_PROT_ERR, then the flush), a
 * page of the SQ's ring past what the device reads ahead in one copy
 * (LOCAL_QP_OP_ERR for each WQE there) and the send CQ's ring (CQ status
 * 0xa, the frames still sent). The process lives; the WQEs before the
 * fault run once each; the SQ recovers.
 */
static int
test_tx_memory_fault(void)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	struct w_port *p = &wp[0];
	struct mlx5_devx_wq_info wi;
	struct mlx5_devx_cq_info ci;
	struct mlx5_cqe_eth c;
	uint16_t first = 0, hole, start;
	uint64_t rx0;
	uint8_t *f[4], *pg;
	unsigned int i;

	if (mlx5_test_under_valgrind())
		TEST_SKIP("memcheck flags the device's access to protected memory before the fault guard runs");
	/* One page of the SQ's 16 KiB ring goes: a 4 KiB one, past a read-ahead. */
	if (page != 4096)
		TEST_SKIP("pages of %zu bytes: the case protects 4 KiB pages", page);
	if (w_port_get(0, 70, "", 1, 0) != TEST_SUCCESS)
		return TEST_FAILED;
	/* Frames in pages of their own; the second's page goes. */
	for (i = 0; i < 4; i++)
		f[i] = w_frame(p, i * page, 128, p->mac, 1, 2, (uint8_t)i,
			       true);
	for (i = 0; i < 4; i++)
		w_post(p, f[i], 128, 18, 1, 0, p->mr->lkey, true);
	TEST_ASSERT_SUCCESS(mprotect(f[1], page, PROT_NONE), "");
	w_ring(p, 0);
	TEST_ASSERT_SUCCESS(mprotect(f[1], page, PROT_READ | PROT_WRITE), "");
	W_EXPECT(&p->txcq, 0, 0, 0);
	W_EXPECT(&p->txcq, -EIO, MLX5_CQE_SYNDROME_LOCAL_PROT_ERR, 1);
	W_EXPECT(&p->txcq, -EIO, MLX5_CQE_SYNDROME_WR_FLUSH_ERR, 2);
	W_EXPECT(&p->txcq, -EIO, MLX5_CQE_SYNDROME_WR_FLUSH_ERR, 3);
	W_EXPECT(&p->txcq, -EAGAIN, 0, 0);
	TEST_ASSERT_SUCCESS(w_poll(&p->rxcq, &c), "the first frame arrived");
	TEST_ASSERT(memcmp(w_rx_buf(p, 0, rte_be_to_cpu_16(c.wqe_counter)),
			   f[0], 128) == 0, "intact");
	TEST_ASSERT_EQUAL(w_poll(&p->rxcq, &c), -EAGAIN, "only that one");
	w_rx_post(p, 0);
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_query_sq(p->sq.obj, &wi), "");
	TEST_ASSERT_EQUAL(wi.state, MLX5_WQ_STATE_ERR, "SQ in error");
	TEST_ASSERT_SUCCESS(mlx5_devx_sq_recover(&p->sq), "recover");
	w_send(p, f[1], 128, 18, 1, 0, p->mr->lkey, true);
	W_EXPECT(&p->txcq, 0, 0, 0);
	TEST_ASSERT_SUCCESS(w_poll(&p->rxcq, &c), "received after recovery");
	w_rx_post(p, 0);

	/* A page of the SQ's ring: 44 WQEs before it, 4 in it. */
	hole = (uint16_t)(page / MLX5_SEND_WQE_BB);
	start = hole - 44;
	while (p->sq.pi != start - 1)
		w_nop(p, false);
	w_nop(p, true);
	w_ring(p, 1);
	W_EXPECT(&p->txcq, 0, 0, start - 1);
	first = p->sq.pi;
	for (i = 0; i < 48; i++)
		w_post(p, f[0], 128, 18, 1, 0, p->mr->lkey, true);
	pg = p->sq.wqes + (size_t)hole * MLX5_SEND_WQE_BB;
	rx0 = w_stats(70).rx_frames;
	TEST_ASSERT_SUCCESS(mprotect(pg, page, PROT_NONE), "");
	w_ring(p, first);
	TEST_ASSERT_SUCCESS(mprotect(pg, page, PROT_READ | PROT_WRITE), "");
	for (i = start; i < hole; i++)
		W_EXPECT(&p->txcq, 0, 0, i);
	for (i = hole; i < hole + 4u; i++)
		W_EXPECT(&p->txcq, -EIO, MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR, i);
	W_EXPECT(&p->txcq, -EAGAIN, 0, 0);
	TEST_ASSERT_EQUAL(w_stats(70).rx_frames - rx0, 44, "44 frames sent");
	for (i = 0; i < 44; i++) {
		TEST_ASSERT_SUCCESS(w_poll(&p->rxcq, &c), "frame %u", i);
		w_rx_post(p, 0);
	}
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_query_sq(p->sq.obj, &wi), "");
	TEST_ASSERT_EQUAL(wi.hw_counter, hole + 4u, "stopped at the doorbell");
	TEST_ASSERT_EQUAL(wi.state, MLX5_WQ_STATE_ERR, "SQ in error");
	TEST_ASSERT_SUCCESS(mlx5_devx_sq_recover(&p->sq), "recover");

	/* The send CQ's ring unwritable: the frames still go. */
	pg = (uint8_t *)(uintptr_t)p->txcq.cqes;
	rx0 = w_stats(70).rx_frames;
	for (i = 0; i < 2; i++)
		w_post(p, f[0], 128, 18, 1, 0, p->mr->lkey, true);
	TEST_ASSERT_SUCCESS(mprotect(pg, page, PROT_READ), "");
	w_ring(p, 0);
	TEST_ASSERT_SUCCESS(mprotect(pg, page, PROT_READ | PROT_WRITE), "");
	TEST_ASSERT_EQUAL(w_stats(70).rx_frames - rx0, 2, "2 frames sent");
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_query_cq(p->txcq.obj, &ci), "");
	TEST_ASSERT_EQUAL(ci.status, W_CQ_WRITE_FAIL, "CQ status");
	for (i = 0; i < 2; i++) {
		TEST_ASSERT_SUCCESS(w_poll(&p->rxcq, &c), "frame %u", i);
		w_rx_post(p, 0);
	}
	return TEST_SUCCESS;
}

/* An RQ of its own (rq[1], CQ @cq) for the frames sent: rule priority 0. */
static int
w_extra_rq(struct w_port *p, struct mlx5_devx_cq *cq,
	   struct mlx5_devx_obj **tir, struct mlx5_flow_rx *rule)
{
	struct mlx5_devx_tir_attr ta = { 0 };
	unsigned int j;

	TEST_ASSERT_SUCCESS(mlx5_devx_cq_create(p->cdev, cq, 10, &p->uar,
						SOCKET_ID_ANY), "CQ");
	TEST_ASSERT_SUCCESS(mlx5_devx_rq_create(p->cdev, &p->rq[1],
		&(struct mlx5_devx_rq_params){
			.pd = p->cdev->pdn,
			.cqn = cq->obj->id,
			.log_size = W_LOG_RQ,
			.log_stride = W_LOG_STRIDE,
		}, SOCKET_ID_ANY), "RQ");
	p->rq_pi[1] = 0;
	for (j = 0; j < (1u << W_LOG_RQ); j++)
		w_rx_post(p, 1);
	ta.disp_type = MLX5_TIRC_DISP_TYPE_DIRECT;
	ta.transport_domain = p->td->id;
	ta.inline_rqn = p->rq[1].obj->id;
	*tir = mlx5_devx_cmd_create_tir(p->cdev, &ta);
	TEST_ASSERT_NOT_NULL(*tir, "TIR");
	TEST_ASSERT_SUCCESS(mlx5_flow_rx_create(p->cdev, rule,
		MLX5_FLOW_RX_ALL, NULL, 0, *tir), "rule");
	return TEST_SUCCESS;
}

static int
w_extra_put(struct w_port *p, struct mlx5_devx_cq *cq,
	    struct mlx5_devx_obj *tir, struct mlx5_flow_rx *rule)
{
	TEST_ASSERT_SUCCESS(mlx5_flow_rx_destroy(rule), "rule");
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_destroy(tir), "TIR");
	TEST_ASSERT_SUCCESS(mlx5_devx_rq_destroy(&p->rq[1]), "RQ");
	TEST_ASSERT_SUCCESS(mlx5_devx_cq_destroy(cq), "CQ");
	return TEST_SUCCESS;
}

/* Send frame @f @n times in one doorbell, the last signaled: sent. */
static int
w_burst(struct w_port *p, const uint8_t *f, unsigned int n, void *pg,
	size_t len, int prot)
{
	uint16_t first = p->sq.pi, last;
	unsigned int i;

	if (w_burst_empw) {
		uint8_t *fs[8];
		uint32_t lens[8];

		for (i = 0; i < n && i < RTE_DIM(fs); i++) {
			fs[i] = (uint8_t *)(uintptr_t)f;
			lens[i] = 128;
		}
		last = w_post_empw(p, fs, lens, i, 0, 0, p->mr->lkey, 0);
	} else {
		for (i = 0; i < n; i++)
			w_post(p, f, 128, 18, 1, 0, p->mr->lkey, i == n - 1);
		last = (uint16_t)(p->sq.pi - 1);
	}
	if (pg != NULL)
		TEST_ASSERT_SUCCESS(mprotect(pg, len, prot), "");
	w_ring(p, first);
	if (pg != NULL)
		TEST_ASSERT_SUCCESS(mprotect(pg, len, PROT_READ | PROT_WRITE),
				    "");
	W_EXPECT(&p->txcq, 0, 0, last);
	return TEST_SUCCESS;
}

/* The pages of rx_memory_fault, on the RQ of w_extra_rq(). */
enum w_rx_page {
	W_RX_BUF1,                 /* The second WQE's buffer. */
	W_RX_RING,                 /* The RQ's ring (one page). */
	W_RX_DBR,                  /* Its doorbell record. */
	W_RX_CQ,                   /* Its CQ's ring. */
};

/*
 * One case of rx_memory_fault: @page made @prot during a doorbell of four
 * frames to an RQ of its own; @good frames received whole, then an error
 * CQE of syndrome @synd unless 0; @errors error completions counted,
 * @not_ready frames dropped after; the RQ in @state, its CQ of @cq_status.
 */
static int
w_rx_fault(struct w_port *p, const uint8_t *f, enum w_rx_page page, int prot,
	   uint64_t good, uint8_t synd, uint64_t errors, uint64_t not_ready,
	   uint8_t state, uint8_t cq_status)
{
	size_t psz = (size_t)sysconf(_SC_PAGESIZE);
	struct mlx5_sim_port_stats st0, st;
	struct mlx5_devx_wq_info wi;
	struct mlx5_devx_cq_info ci;
	struct mlx5_devx_obj *tir;
	struct mlx5_flow_rx rule;
	struct mlx5_devx_cq cq;
	uint8_t *pg = NULL;
	uint64_t i;

	memset(&cq, 0, sizeof(cq));
	if (w_extra_rq(p, &cq, &tir, &rule) != TEST_SUCCESS)
		return TEST_FAILED;
	switch (page) {
	case W_RX_BUF1:
		pg = w_rx_buf(p, 1, 1);
		break;
	case W_RX_RING:
		pg = p->rq[1].wqes;
		break;
	case W_RX_DBR:
		pg = (uint8_t *)(uintptr_t)p->rq[1].db_rec;
		break;
	case W_RX_CQ:
		pg = (uint8_t *)(uintptr_t)cq.cqes;
		break;
	}
	pg = RTE_PTR_ALIGN_FLOOR(pg, psz);
	memset(w_rx_buf(p, 1, 3), 0, 128);
	st0 = w_stats(w_fault_vhca);
	if (w_burst(p, f, 4, pg, psz, prot) != TEST_SUCCESS)
		return TEST_FAILED;
	st = w_stats(w_fault_vhca);
	for (i = 0; i < good && cq_status == 0; i++)
		W_EXPECT(&cq, 0, 0, (uint16_t)i);
	if (synd != 0)
		W_EXPECT(&cq, -EIO, synd, (uint16_t)good);
	W_EXPECT(&cq, -EAGAIN, 0, 0);
	TEST_ASSERT(memcmp(w_rx_buf(p, 1, (uint16_t)(good - 1)), f, 128) == 0 ||
		    good == 0, "the last frame received intact");
	TEST_ASSERT(st.rx_frames - st0.rx_frames == good &&
		    st.rx_errors - st0.rx_errors == errors &&
		    st.rx_rq_not_ready - st0.rx_rq_not_ready == not_ready,
		    "page %d: frames %" PRIu64 " errors %" PRIu64
		    " not ready %" PRIu64, page, st.rx_frames - st0.rx_frames,
		    st.rx_errors - st0.rx_errors,
		    st.rx_rq_not_ready - st0.rx_rq_not_ready);
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_query_rq(p->rq[1].obj, &wi), "");
	TEST_ASSERT_EQUAL(wi.state, state, "page %d: RQ state", page);
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_query_cq(cq.obj, &ci), "");
	TEST_ASSERT_EQUAL(ci.status, cq_status, "page %d: CQ status", page);
	return w_extra_put(p, &cq, tir, &rule);
}

/*
 * The application's memory made unusable under the live receive path,
 * inside one doorbell of four frames: a receive buffer (LOCAL_PROT_ERR
 * for that WQE, the RQ in error, the frames after it dropped as not
 * ready), the RQ's ring (LOCAL_QP_OP_ERR), its doorbell record (no CQE,
 * an error counted, the RQ in error) and the receive CQ's ring (CQ status
 * 0xa, the frames still received). Each time the frames sent complete.
 */
static int
test_rx_memory_fault(void)
{
	struct w_port *p;
	uint8_t *f;

	if (mlx5_test_under_valgrind())
		TEST_SKIP("memcheck flags the device's access to protected memory before the fault guard runs");
	/* A larger page would take the test's own memory with the device's. */
	if (sysconf(_SC_PAGESIZE) != 4096)
		TEST_SKIP("pages of %ld bytes: the case protects 4 KiB pages",
			  sysconf(_SC_PAGESIZE));
	/*
	 * Four SEND WQEs, then (on an SQ that allows it) one eMPW WQE of the
	 * four frames: a fault on the receiving side ends what that frame
	 * does there, never the frames after it (the eMPW WQE goes on).
	 */
	for (w_burst_empw = false;; w_burst_empw = true) {
		w_sq_empw = w_burst_empw;
		w_fault_vhca = w_burst_empw ? 72 : 71;
		p = &wp[w_burst_empw];
		if (w_port_get(w_burst_empw, w_fault_vhca, "", 1, 0) !=
		    TEST_SUCCESS)
			return TEST_FAILED;
		f = w_frame(p, 0, 128, p->mac, 1, 2, 0, true);
		if (w_rx_fault(p, f, W_RX_BUF1, PROT_READ, 1,
			       MLX5_CQE_SYNDROME_LOCAL_PROT_ERR, 1, 2,
			       MLX5_WQ_STATE_ERR, 0) != TEST_SUCCESS ||
		    w_rx_fault(p, f, W_RX_RING, PROT_NONE, 0,
			       MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR, 1, 3,
			       MLX5_WQ_STATE_ERR, 0) != TEST_SUCCESS ||
		    w_rx_fault(p, f, W_RX_DBR, PROT_NONE, 0, 0, 1, 3,
			       MLX5_WQ_STATE_ERR, 0) != TEST_SUCCESS ||
		    w_rx_fault(p, f, W_RX_CQ, PROT_READ, 4, 0, 0, 0,
			       MLX5_WQ_STATE_RDY,
			       W_CQ_WRITE_FAIL) != TEST_SUCCESS)
			return TEST_FAILED;
		if (w_burst_empw)
			break;
	}
	return TEST_SUCCESS;
}

/*
 * The CQEs of @cq from its consumer index on, up to @max, into @out: a
 * compressed session (mlx5_prm_rx.h) read as DPDK 22.11's mlx5_rx.c and
 * the kernel's mlx5e read it, each mini-CQE (format @fmt) made the CQE
 * it stands for, @title[i] the index in @out of the first CQE of CQE
 * i's session (i itself, uncompressed); @sessions counts the sessions.
 * The CQEs are consumed and the record moved. Returns how many, or -1 on
 * a malformed session: shorter than 2, or crossing the ring's end (DPDK's
 * vector Rx reads a session from consecutive slots).
 */
static int
w_unzip(struct mlx5_devx_cq *cq, int fmt, struct mlx5_cqe_eth *out,
	unsigned int *title, unsigned int max, unsigned int *sessions)
{
	const uint32_t mask = (1u << cq->log_size) - 1;
	unsigned int n = 0;

	while (n < max) {
		volatile struct mlx5_cqe64 *cqe = &cq->cqes[cq->ci & mask];
		struct mlx5_cqe_eth h;
		uint32_t cnt, i;

		if (mlx5_cqe_status(cqe, cq->log_size, cq->ci) ==
		    MLX5_CQE_STATUS_HW_OWN)
			break;
		memcpy(&h, (const void *)(uintptr_t)cqe, sizeof(h));
		if (((h.op_own >> MLX5_CQE_FORMAT_SHIFT) &
		     MLX5_CQE_FORMAT_MASK) != MLX5_CQE_FORMAT_COMPRESSED) {
			title[n] = n;
			out[n++] = h;
			cq->ci++;
			continue;
		}
		cnt = rte_be_to_cpu_32(h.byte_cnt);
		if (cnt < 2 || cnt > max - n || (cq->ci & mask) + cnt > mask + 1)
			return -1;
		(*sessions)++;
		for (i = 0; i < cnt; i++) {
			/* Array 0 in the next slot, array k in slot 8k. */
			uint32_t slot = cq->ci +
				(i < MLX5_MINI_CQE_ARRAY_SIZE ? 1 : i & ~7u);
			struct mlx5_mini_cqe8 m;
			struct mlx5_cqe_eth *c = &out[n];

			title[n] = n - i;
			n++;

			memcpy(&m, (const uint8_t *)(uintptr_t)
					   &cq->cqes[slot & mask] +
				   (i % MLX5_MINI_CQE_ARRAY_SIZE) * sizeof(m),
			       sizeof(m));
			*c = h;
			c->byte_cnt = m.byte_cnt;
			c->wqe_counter = rte_cpu_to_be_16((uint16_t)
				(rte_be_to_cpu_16(h.wqe_counter) + i));
			if (fmt == MLX5_MINI_CQE_FORMAT_HASH)
				c->rss_hash_result = m.rx_hash_result;
			else
				c->check_sum = m.checksum;
		}
		/*
		 * The session's slots invalid, as DPDK's PMD makes them: the
		 * device writes none but the header and the arrays, so in a
		 * later pass the others would read as stale CQEs.
		 */
		for (i = 0; i < cnt; i++)
			cq->cqes[(cq->ci + i) & mask].op_own =
				MLX5_CQE_INVALID << 4;
		cq->ci += cnt;
	}
	mlx5_cq_db_update(cq->db_rec, cq->ci);
	return (int)n;
}

#define W_ZIP_BURST 20

/*
 * One doorbell of @n frames from port @p to itself: UDP of sizes that
 * differ, frame @tcp (if below @n) TCP, then the receive WQEs posted
 * again once their CQEs are read.
 */
static void
w_zip_burst(struct w_port *p, unsigned int n, unsigned int tcp,
	    unsigned int round)
{
	uint16_t first = p->sq.pi;
	unsigned int i;

	for (i = 0; i < n; i++) {
		uint32_t len = 60 + (round * 7 + i * 37) % 1400;
		uint8_t *f = i == tcp ?
			w_frame_l4(p, i * 2048, len, false, 0x10) :
			w_frame(p, i * 2048, len, p->mac, 1000, 2000,
				(uint8_t)(round + i), true);

		w_post(p, f, len, 18, 1, 0, p->mr->lkey, false);
	}
	w_ring(p, first);
}

/*
 * @a (decompressed) and @b (the same frames on a CQ that does not
 * compress, whose RQ is @dw WQEs ahead; @tb the first CQE of @a's session
 * among those) tell the same: every field but the owner and format bits,
 * the timestamp and (with hash mini-CQEs) the checksum, which the
 * session's first CQE gives for all.
 */
static int
w_zip_same(const struct mlx5_cqe_eth *a, const struct mlx5_cqe_eth *b,
	   const struct mlx5_cqe_eth *tb, int fmt, unsigned int i,
	   uint16_t dw)
{
	struct mlx5_cqe_eth x = *a, y = *b;

	/* The RQs may have taken different numbers of WQEs before. */
	x.wqe_counter = rte_cpu_to_be_16((uint16_t)
		(rte_be_to_cpu_16(x.wqe_counter) + dw));
	x.op_own &= 0xf0;
	y.op_own &= 0xf0;
	x.timestamp = y.timestamp = 0;
	if (fmt == MLX5_MINI_CQE_FORMAT_HASH) {
		TEST_ASSERT_EQUAL(x.check_sum, tb->check_sum,
				  "CQE %u: the session's first checksum", i);
		x.check_sum = y.check_sum;
	}
	TEST_ASSERT(memcmp(&x, &y, sizeof(x)) == 0,
		    "CQE %u: decompressed as written uncompressed (bytes %u"
		    " and %u, WQE %u and %u)", i,
		    rte_be_to_cpu_32(x.byte_cnt), rte_be_to_cpu_32(y.byte_cnt),
		    rte_be_to_cpu_16(x.wqe_counter),
		    rte_be_to_cpu_16(y.wqe_counter));
	return TEST_SUCCESS;
}

/*
 * CQE compression: port 0 compresses (hash mini-CQEs, sessions of 8 at
 * most: cqe_comp=8), port 1 does not; the same doorbells on both give the
 * same completions, port 0's in sessions: 20 UDP frames are sessions of
 * 8, 8 and 4; a TCP frame among them (another header type) ends a
 * session and stands alone; 160 such doorbells wrap the 1024-CQE ring thrice. A
 * frame alone is no session. Then checksum mini-CQEs (port 2's own
 * device, sessions of 64 by default): one session of 20, each CQE its
 * own checksum.
 */
static int
test_cqe_compression(void)
{
	static struct mlx5_cqe_eth a[W_ZIP_BURST], b[W_ZIP_BURST];
	unsigned int ta[W_ZIP_BURST], tb[W_ZIP_BURST];
	unsigned int sessions = 0, want = 0, zipped = 0, round, i, tcp;
	struct mlx5_sim_stats st0, st;
	int fmt;

	w_rx_mini = MLX5_MINI_CQE_FORMAT_HASH;
	if (w_port_get(0, 110, ",cqe_comp=8", 1, 0) != TEST_SUCCESS)
		return TEST_FAILED;
	w_rx_mini = -1;
	if (w_port_get(1, 111, "", 1, 0) != TEST_SUCCESS)
		return TEST_FAILED;
	TEST_ASSERT_EQUAL(wp[0].cdev->caps.cqe_comp_max, 8, "cqe_comp=8");
	TEST_ASSERT_SUCCESS(mlx5_sim_vhca_stats(W_CARD, 110, &st0), "");
	for (round = 0; round < 160; round++) {
		uint32_t start = wp[0].rxcq.ci, open = 0, first = 0;

		tcp = round == 0 ? W_ZIP_BURST : 7;
		/*
		 * The sessions the rules make: a run of UDP frames, cut at 8
		 * CQEs and at the ring's end; the TCP frame alone.
		 */
		for (i = 0; i <= W_ZIP_BURST; i++) {
			uint32_t pos = start + i;

			if (open != 0 &&
			    (i == W_ZIP_BURST || i == tcp || i == tcp + 1 ||
			     open == 8 || (first & 1023) + open == 1024)) {
				want += open >= 2;
				zipped += open >= 2 ? open : 0;
				open = 0;
			}
			if (open == 0)
				first = pos;
			open++;
		}
		w_zip_burst(&wp[0], W_ZIP_BURST, tcp, round);
		w_zip_burst(&wp[1], W_ZIP_BURST, tcp, round);
		TEST_ASSERT_EQUAL(w_unzip(&wp[0].rxcq, MLX5_MINI_CQE_FORMAT_HASH,
					  a, ta, W_ZIP_BURST, &sessions),
				  W_ZIP_BURST, "round %u: every frame", round);
		TEST_ASSERT_EQUAL(w_unzip(&wp[1].rxcq, -1, b, tb, W_ZIP_BURST,
					  &(unsigned int){ 0 }),
				  W_ZIP_BURST, "");
		TEST_ASSERT_EQUAL(sessions, want, "round %u: the sessions",
				  round);
		for (i = 0; i < W_ZIP_BURST; i++) {
			if (w_zip_same(&a[i], &b[i], &b[ta[i]],
				       MLX5_MINI_CQE_FORMAT_HASH, i, 0) !=
			    TEST_SUCCESS)
				return TEST_FAILED;
			TEST_ASSERT(memcmp(w_rx_buf(&wp[0], 0, rte_be_to_cpu_16(
					a[i].wqe_counter)),
				   wp[0].buf + W_TX_OFF + i * 2048,
				   rte_be_to_cpu_32(a[i].byte_cnt)) == 0,
				    "round %u frame %u: its bytes", round, i);
			w_rx_post(&wp[0], 0);
			w_rx_post(&wp[1], 0);
		}
		TEST_ASSERT(a[7].op_own >> 4 == MLX5_CQE_RESP_SEND &&
				    (((a[7].l4_l3_hdr_type >>
				       MLX5_CQE_L4_HDR_TYPE_SHIFT) &
				      MLX5_CQE_L4_HDR_TYPE_MASK) ==
				     MLX5_CQE_L4_HDR_TYPE_UDP) == (round == 0),
			    "round %u: the header types kept", round);
	}
	TEST_ASSERT(wp[0].rxcq.ci > 3 * 1024, "the ring wrapped thrice");
	/* Round 0: 8 + 8 + 4; then 7, (TCP alone), 8, 4; cut at the end. */
	TEST_ASSERT(sessions > 3 + 159 * 3, "sessions cut at the ring's end");
	TEST_ASSERT_SUCCESS(mlx5_sim_vhca_stats(W_CARD, 110, &st), "");
	TEST_ASSERT_EQUAL(st.compressed_sessions - st0.compressed_sessions,
			  sessions, "the device's count");
	TEST_ASSERT_EQUAL(st.compressed_cqes - st0.compressed_cqes, zipped,
			  "");
	/* One frame a doorbell: nothing to compress. */
	w_zip_burst(&wp[0], 1, 1, 0);
	sessions = 0;
	TEST_ASSERT_EQUAL(w_unzip(&wp[0].rxcq, MLX5_MINI_CQE_FORMAT_HASH, a,
				  ta, W_ZIP_BURST, &sessions), 1, "");
	TEST_ASSERT_EQUAL(sessions, 0, "a CQE alone is written as it is");
	w_rx_post(&wp[0], 0);
	w_port_put(&wp[0]);
	TEST_ASSERT_SUCCESS(tdev_remove(0), "");

	/* Checksum mini-CQEs, sessions of 64 at most. */
	fmt = MLX5_MINI_CQE_FORMAT_CSUM;
	w_rx_mini = fmt;
	if (w_port_get(0, 112, "", 1, 0) != TEST_SUCCESS)
		return TEST_FAILED;
	TEST_ASSERT_EQUAL(wp[0].cdev->caps.cqe_comp_max, 64, "the default");
	w_zip_burst(&wp[0], W_ZIP_BURST, W_ZIP_BURST, 1);
	w_zip_burst(&wp[1], W_ZIP_BURST, W_ZIP_BURST, 1);
	sessions = 0;
	TEST_ASSERT_EQUAL(w_unzip(&wp[0].rxcq, fmt, a, ta, W_ZIP_BURST,
				  &sessions), W_ZIP_BURST, "");
	TEST_ASSERT_EQUAL(w_unzip(&wp[1].rxcq, -1, b, tb, W_ZIP_BURST,
				  &(unsigned int){ 0 }), W_ZIP_BURST, "");
	TEST_ASSERT_EQUAL(sessions, 1, "one session of 20");
	for (i = 0; i < W_ZIP_BURST; i++)
		if (w_zip_same(&a[i], &b[i], &b[0], fmt, i,
			       (uint16_t)(rte_be_to_cpu_16(b[0].wqe_counter) -
					  rte_be_to_cpu_16(a[0].wqe_counter))) !=
		    TEST_SUCCESS)
			return TEST_FAILED;
	return TEST_SUCCESS;
}

/*
 * What the device refuses: a compressed CQ of a device without the
 * capability (cqe_comp=0), a mini-CQE format it does not announce (flow
 * tag, stride index, L3/L4 headers, the enhanced layout); a cqe_comp of 1
 * or above 64 in the shape. Nothing is left.
 */
static int
test_cqe_compression_refused(void)
{
	uint32_t in[MLX5_ST_SZ_DW(create_cq_in)] = { 0 };
	uint32_t out[MLX5_ST_SZ_DW(create_cq_out)] = { 0 };
	void *cqc = MLX5_ADDR_OF(create_cq_in, in, cq_context);
	static const struct {
		const char *what;
		unsigned int fmt, ext, layout;
	} bad[] = {
		{ "flow tag and stride index", 2, 0, 0 },
		{ "checksum and stride index", 3, 0, 0 },
		{ "L3/L4 headers", 0, 1, 0 },
		{ "the enhanced layout", 0, 0, 1 },
	};
	struct mlx5_common_device *cdev;
	struct mlx5_devx_cq cq;
	struct mlx5_uar uar;
	unsigned int i;
	uint32_t eqn;
	long live;

	TEST_ASSERT(tdev_probe(0, "card=62,vhca_id=113,cqe_comp=1") < 0,
		    "cqe_comp=1: a session holds two CQEs");
	TEST_ASSERT(tdev_probe(0, "card=62,vhca_id=113,cqe_comp=65") < 0,
		    "cqe_comp=65");
	TEST_ASSERT_SUCCESS(tdev_probe(0, "card=62,vhca_id=113,cqe_comp=0"),
			    "");
	cdev = tdev_cdev(0);
	TEST_ASSERT_SUCCESS(mlx5_uar_prepare(cdev, &uar), "");
	live = tdev_live(0);
	TEST_ASSERT_EQUAL(cdev->caps.cqe_comp_max, 0, "not announced");
	TEST_ASSERT_EQUAL(mlx5_devx_cq_create_comp(cdev, &cq, 6, &uar,
						   MLX5_MINI_CQE_FORMAT_HASH,
						   SOCKET_ID_ANY), -ENOTSUP,
			  "the common layer asks the capability");
	TEST_ASSERT_SUCCESS(cdev->glue->devx_query_eqn(cdev->ctx, 0, &eqn), "");
	MLX5_SET(create_cq_in, in, opcode, MLX5_CMD_OP_CREATE_CQ);
	MLX5_SET(cqc, cqc, log_cq_size, 2);
	MLX5_SET(cqc, cqc, uar_page, uar.page_id);
	MLX5_SET(cqc, cqc, c_eqn_or_apu_element, eqn);
	MLX5_SET(cqc, cqc, cqe_comp_en, 1);
	TEST_ASSERT(cdev->glue->devx_obj_create(cdev->ctx, in, sizeof(in), out,
						sizeof(out)) == NULL &&
		    MLX5_GET(create_cq_out, out, syndrome) ==
			    MLX5_SIM_SYND_CQ_COMP,
		    "cqe_comp_en without the capability");
	TEST_ASSERT_EQUAL(tdev_live(0), live, "nothing half-built");
	mlx5_uar_release(cdev, &uar);
	TEST_ASSERT_SUCCESS(tdev_remove(0), "");
	TEST_ASSERT_SUCCESS(tdev_probe(0, "card=62,vhca_id=114"), "");
	cdev = tdev_cdev(0);
	TEST_ASSERT_SUCCESS(mlx5_uar_prepare(cdev, &uar), "");
	live = tdev_live(0);
	MLX5_SET(cqc, cqc, uar_page, uar.page_id);
	for (i = 0; i < RTE_DIM(bad); i++) {
		MLX5_SET(cqc, cqc, mini_cqe_res_format, bad[i].fmt);
		MLX5_SET(cqc, cqc, mini_cqe_res_format_ext, bad[i].ext);
		MLX5_SET(cqc, cqc, cqe_comp_layout, bad[i].layout);
		TEST_ASSERT(cdev->glue->devx_obj_create(cdev->ctx, in,
							sizeof(in), out,
							sizeof(out)) == NULL &&
			    MLX5_GET(create_cq_out, out, status) ==
				    MLX5_CMD_STAT_BAD_PARAM_ERR &&
			    MLX5_GET(create_cq_out, out, syndrome) ==
				    MLX5_SIM_SYND_CQ_COMP_FORMAT,
			    "%s", bad[i].what);
	}
	TEST_ASSERT_EQUAL(mlx5_devx_cq_create_comp(cdev, &cq, 6, &uar, 2,
						   SOCKET_ID_ANY), -EINVAL,
			  "the common layer: hash or checksum");
	TEST_ASSERT_EQUAL(tdev_live(0), live, "nothing half-built");
	mlx5_uar_release(cdev, &uar);
	return TEST_SUCCESS;
}


/*
 * Post an enhanced multi-packet WQE of @n frames @f[i] of @len[i] bytes,
 * the first @inl of them inline, the rest by pointer with @lkey; an
 * Ethernet segment with @cs_flags and an inline header of @hdr bytes
 * (which the PRM's eMPW does not take). No doorbell. Returns its first
 * block.
 */
static uint16_t
w_post_empw(struct w_port *p, uint8_t *const *f, const uint32_t *len,
	    unsigned int n, unsigned int inl, uint16_t hdr, uint32_t lkey,
	    uint8_t cs_flags)
{
	struct mlx5_devx_sq *sq = &p->sq;
	uint32_t size = 1u << sq->log_size;
	uint8_t wqe[16 * MLX5_SEND_WQE_BB] __rte_aligned(16);
	struct mlx5_wqe_ctrl_seg *ctrl = (void *)wqe;
	struct mlx5_wqe_eth_seg *es = (void *)(ctrl + 1);
	uint16_t first = sq->pi;
	uint32_t ds = 2, bbs, b, i;

	memset(wqe, 0, sizeof(wqe));
	es->cs_flags = cs_flags;
	es->inline_hdr_sz = rte_cpu_to_be_16(hdr);
	for (i = 0; i < n; i++) {
		struct mlx5_wqe_data_seg *d = (void *)(wqe + ds * 16);

		if (i < inl) {
			d->byte_count = rte_cpu_to_be_32(len[i] |
							 MLX5_INLINE_SEG);
			memcpy(wqe + ds * 16 + 4, f[i], len[i]);
			ds += (4 + len[i] + 15) / 16;
		} else {
			d->byte_count = rte_cpu_to_be_32(len[i]);
			d->lkey = rte_cpu_to_be_32(lkey);
			d->addr = rte_cpu_to_be_64((uintptr_t)f[i]);
			ds++;
		}
	}
	ctrl->opmod_idx_opcode = rte_cpu_to_be_32((uint32_t)first << 8 |
						  MLX5_WQE_OPCODE_ENHANCED_MPSW);
	ctrl->qpn_ds = rte_cpu_to_be_32(sq->obj->id << 8 | ds);
	ctrl->fm_ce_se = MLX5_WQE_CTRL_CQ_UPDATE;
	bbs = (ds * 16 + MLX5_SEND_WQE_BB - 1) / MLX5_SEND_WQE_BB;
	for (b = 0; b < bbs; b++)
		memcpy(sq->wqes + (size_t)((first + b) & (size - 1)) *
		       MLX5_SEND_WQE_BB, wqe + b * MLX5_SEND_WQE_BB,
		       MLX5_SEND_WQE_BB);
	sq->pi += bbs;
	return first;
}

/* Segment @k of the WQE at block @first of @p's SQ. */
static struct mlx5_wqe_data_seg *
w_wqe_seg(struct w_port *p, uint16_t first, unsigned int k)
{
	struct mlx5_devx_sq *sq = &p->sq;
	size_t ring = (size_t)MLX5_SEND_WQE_BB << sq->log_size;

	return (void *)(sq->wqes + ((size_t)first * MLX5_SEND_WQE_BB +
				    k * 16) % ring);
}

/* w_post_empw(), then the doorbell. */
static uint16_t
w_send_empw(struct w_port *p, uint8_t *const *f, const uint32_t *len,
	    unsigned int n, unsigned int inl, uint16_t hdr, uint32_t lkey,
	    uint8_t cs_flags)
{
	uint16_t first = w_post_empw(p, f, len, n, inl, hdr, lkey, cs_flags);

	w_ring(p, first);
	return first;
}

/* Receive @n frames on RQ 0 of @p, equal to @want[i] (@len[i] bytes). */
static int
w_receive_all(struct w_port *p, uint8_t *const *want, const uint32_t *len,
	      unsigned int n)
{
	struct mlx5_cqe_eth c;
	unsigned int i;

	for (i = 0; i < n; i++) {
		TEST_ASSERT_SUCCESS(w_poll(&p->rxcq, &c), "frame %u received",
				    i);
		TEST_ASSERT_EQUAL(rte_be_to_cpu_32(c.byte_cnt), len[i],
				  "frame %u: byte count", i);
		TEST_ASSERT(memcmp(w_rx_buf(p, 0, rte_be_to_cpu_16(
				c.wqe_counter)), want[i], len[i]) == 0,
			    "frame %u arrived intact, in order", i);
		w_rx_post(p, 0);
	}
	TEST_ASSERT_EQUAL(w_poll(&p->rxcq, &c), -EAGAIN, "no other frame");
	return TEST_SUCCESS;
}

/*
 * Enhanced multi-packet send WQEs (MLX5_WQE_OPCODE_ENHANCED_MPSW): inline
 * and pointer packets mixed, the Ethernet segment's checksum offloads on
 * each, one completion for the WQE, and the largest WQE (61 packets). The
 * rules, each broken: an SQ without allow_multi_pkt_send_wqe, an inline
 * header, an inline packet past the WQE's end, a bad key in the second
 * packet (the first has left); the SQ recovers after each. A device
 * without the capability refuses allow_multi_pkt_send_wqe at CREATE_SQ.
 */
static int
test_empw(void)
{
	static const uint32_t sizes[] = { 60, 64, 300, 1000, 1514, 64, 128 };
	struct w_port *p = &wp[0], *q = &wp[1];
	uint32_t in[MLX5_ST_SZ_DW(create_sq_in)] = { 0 };
	uint32_t out[MLX5_ST_SZ_DW(create_sq_out)] = { 0 };
	uint8_t *f[61], *want[61];
	uint32_t len[61];
	struct mlx5_cqe_eth c;
	struct mlx5_common_device *cdev;
	uint16_t first;
	unsigned int i;
	long live;

	w_sq_empw = true;
	if (w_port_get(0, 120, "", 1, 0) != TEST_SUCCESS)
		return TEST_FAILED;
	w_sq_empw = false;
	if (w_port_get(1, 121, "", 1, 0) != TEST_SUCCESS)
		return TEST_FAILED;
	TEST_ASSERT(p->cdev->caps.eth.empw, "the capability announced");
	/*
	 * Frames without checksums, sent with the L3 and L4 offloads: each
	 * arrives with both (the reference copies are summed here).
	 */
	for (i = 0; i < RTE_DIM(sizes); i++) {
		struct rte_ipv4_hdr *ip;

		len[i] = sizes[i];
		f[i] = w_frame(p, i * 2048, len[i], p->mac, 1000, 2000,
			       (uint8_t)i, false);
		want[i] = w_frame(p, (i + 64) * 2048, len[i], p->mac, 1000,
				  2000, (uint8_t)i, true);
		ip = (void *)(want[i] + 14);
		TEST_ASSERT(ip->hdr_checksum != 0, "reference summed");
	}
	first = w_send_empw(p, f, len, RTE_DIM(sizes), 3, 0, p->mr->lkey,
			    MLX5_ETH_WQE_L3_CSUM | MLX5_ETH_WQE_L4_CSUM);
	W_EXPECT(&p->txcq, 0, 0, first);
	W_EXPECT(&p->txcq, -EAGAIN, 0, 0);
	if (w_receive_all(p, want, len, RTE_DIM(sizes)) != TEST_SUCCESS)
		return TEST_FAILED;
	/* The largest WQE: 2 + 61 segments, 61 frames by pointer. */
	for (i = 0; i < 61; i++) {
		len[i] = 64;
		f[i] = w_frame(p, i * 128, 64, p->mac, 1, 2, (uint8_t)i, true);
		want[i] = f[i];
	}
	first = w_send_empw(p, f, len, 61, 0, 0, p->mr->lkey, 0);
	W_EXPECT(&p->txcq, 0, 0, first);
	if (w_receive_all(p, want, len, 61) != TEST_SUCCESS)
		return TEST_FAILED;
	/* An inline header in the Ethernet segment: refused, nothing sent. */
	first = w_send_empw(p, f, len, 2, 0, 18, p->mr->lkey, 0);
	W_EXPECT(&p->txcq, -EIO, MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR, first);
	TEST_ASSERT_EQUAL(w_poll(&p->rxcq, &c), -EAGAIN, "nothing sent");
	TEST_ASSERT_SUCCESS(mlx5_devx_sq_recover(&p->sq), "recover");
	/* A bad key in the second packet: the first has left. */
	first = w_post_empw(p, f, len, 2, 0, 0, p->mr->lkey, 0);
	w_wqe_seg(p, first, 3)->lkey = rte_cpu_to_be_32(p->mr->lkey + 0x100);
	w_ring(p, first);
	W_EXPECT(&p->txcq, -EIO, MLX5_CQE_SYNDROME_LOCAL_PROT_ERR, first);
	if (w_receive_all(p, want, len, 1) != TEST_SUCCESS)
		return TEST_FAILED;
	TEST_ASSERT_SUCCESS(mlx5_devx_sq_recover(&p->sq), "recover");
	/* An inline packet claiming more bytes than its WQE holds. */
	first = w_post_empw(p, f, len, 1, 1, 0, p->mr->lkey, 0);
	w_wqe_seg(p, first, 2)->byte_count =
		rte_cpu_to_be_32(900 | MLX5_INLINE_SEG);
	w_ring(p, first);
	W_EXPECT(&p->txcq, -EIO, MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR, first);
	TEST_ASSERT_EQUAL(w_poll(&p->rxcq, &c), -EAGAIN,
			  "overlong inline: nothing sent");
	TEST_ASSERT_SUCCESS(mlx5_devx_sq_recover(&p->sq), "recover");
	/* After the errors, the SQ sends again. */
	first = w_send_empw(p, f, len, 2, 1, 0, p->mr->lkey, 0);
	W_EXPECT(&p->txcq, 0, 0, first);
	if (w_receive_all(p, want, len, 2) != TEST_SUCCESS)
		return TEST_FAILED;
	/*
	 * An SQ whose min_wqe_inline_mode asks the L2 header inline: a SEND
	 * without it and an eMPW packet by pointer are refused; a SEND with
	 * 18 bytes inline and inline eMPW packets are sent.
	 */
	w_port_put(q);
	TEST_ASSERT_SUCCESS(tdev_remove(1), "");
	w_sq_empw = true;
	w_sq_inline_mode = 1; /* MLX5_CAP_INLINE_MODE_L2 */
	if (w_port_get(1, 123, "", 1, 0) != TEST_SUCCESS)
		return TEST_FAILED;
	for (i = 0; i < 2; i++) {
		f[i] = w_frame(q, i * 2048, 64, q->mac, 1, 2, (uint8_t)i, true);
		len[i] = 64;
	}
	w_send(q, f[0], 64, 0, 1, 0, q->mr->lkey, true);
	W_EXPECT(&q->txcq, -EIO, MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR,
		 (uint16_t)(q->sq.pi - 1));
	TEST_ASSERT_SUCCESS(mlx5_devx_sq_recover(&q->sq), "recover");
	first = w_send_empw(q, f, len, 2, 1, 0, q->mr->lkey, 0);
	W_EXPECT(&q->txcq, -EIO, MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR, first);
	TEST_ASSERT_SUCCESS(mlx5_devx_sq_recover(&q->sq), "recover");
	if (w_receive_all(q, f, len, 1) != TEST_SUCCESS)
		return TEST_FAILED;
	w_send(q, f[0], 64, 18, 1, 0, q->mr->lkey, true);
	W_EXPECT(&q->txcq, 0, 0, (uint16_t)(q->sq.pi - 1));
	first = w_send_empw(q, f, len, 2, 2, 0, q->mr->lkey, 0);
	W_EXPECT(&q->txcq, 0, 0, first);
	{
		uint8_t *three[3] = { f[0], f[0], f[1] };
		uint32_t l3[3] = { 64, 64, 64 };

		if (w_receive_all(q, three, l3, 3) != TEST_SUCCESS)
			return TEST_FAILED;
	}
	w_port_put(q);
	TEST_ASSERT_SUCCESS(tdev_remove(1), "");
	w_sq_empw = false;
	w_sq_inline_mode = 0;
	if (w_port_get(1, 124, "", 1, 0) != TEST_SUCCESS)
		return TEST_FAILED;
	/* The same WQE on an SQ created without allow_multi_pkt_send_wqe. */
	for (i = 0; i < 2; i++)
		f[i] = w_frame(q, i * 2048, 64, q->mac, 1, 2, (uint8_t)i, true);
	first = w_send_empw(q, f, len, 2, 1, 0, q->mr->lkey, 0);
	W_EXPECT(&q->txcq, -EIO, MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR, first);
	TEST_ASSERT_EQUAL(w_poll(&q->rxcq, &c), -EAGAIN, "not allowed: none");
	/* A device without the capability: CREATE_SQ refuses the bit. */
	TEST_ASSERT_SUCCESS(tdev_probe(2, "card=62,vhca_id=122,empw=0"), "");
	cdev = tdev_cdev(2);
	TEST_ASSERT(!cdev->caps.eth.empw, "not announced");
	live = tdev_live(2);
	{
		struct mlx5_devx_sq sq;
		struct mlx5_devx_cq cq;
		struct mlx5_uar uar;

		TEST_ASSERT_SUCCESS(mlx5_uar_prepare(cdev, &uar), "");
		TEST_ASSERT_SUCCESS(mlx5_devx_cq_create(cdev, &cq, 6, &uar,
							SOCKET_ID_ANY), "");
		TEST_ASSERT_EQUAL(mlx5_devx_sq_create(cdev, &sq,
			&(struct mlx5_devx_sq_params){
				.pd = cdev->pdn, .cqn = cq.obj->id,
				.log_size = 6, .uar = &uar,
				.allow_empw = true,
			}, SOCKET_ID_ANY), -ENOTSUP,
			"the common layer asks the capability");
		mlx5_devx_cq_destroy(&cq);
		mlx5_uar_release(cdev, &uar);
	}
	MLX5_SET(create_sq_in, in, opcode, MLX5_CMD_OP_CREATE_SQ);
	MLX5_SET(sqc, MLX5_ADDR_OF(create_sq_in, in, ctx),
		 allow_multi_pkt_send_wqe, 1);
	TEST_ASSERT(cdev->glue->devx_obj_create(cdev->ctx, in, sizeof(in), out,
						sizeof(out)) == NULL &&
		    MLX5_GET(create_sq_out, out, syndrome) ==
			    MLX5_SIM_SYND_ETH_MPW,
		    "allow_multi_pkt_send_wqe without the capability");
	TEST_ASSERT_EQUAL(tdev_live(2), live, "nothing half-built");
	return TEST_SUCCESS;
}

static const struct mlx5_test_case w_cases[] = {
	{ "send_receive_sizes", test_send_receive_sizes },
	{ "two_ports_cabled", test_two_ports_cabled },
	{ "two_port_affinity", test_two_port_affinity },
	{ "checksums", test_checksums },
	{ "checksums_tcp_ipv6", test_checksums_tcp_ipv6 },
	{ "rss_spread", test_rss_spread },
	{ "steering", test_steering },
	{ "drop_no_wqe", test_drop_no_wqe },
	{ "error_recover", test_error_recover },
	{ "stale_key", test_stale_key },
	{ "pacing_spacing", test_pacing_spacing },
	{ "self_loopback_block", test_self_loopback_block },
	{ "faults_and_reclaim", test_faults_and_reclaim },
	{ "fault_sweep", test_fault_sweep },
	{ "tx_memory_fault", test_tx_memory_fault },
	{ "rx_memory_fault", test_rx_memory_fault },
	{ "cqe_compression", test_cqe_compression },
	{ "cqe_compression_refused", test_cqe_compression_refused },
	{ "empw", test_empw },
	{ NULL, NULL },
};

static const struct mlx5_test_suite w_suite = {
	.name = "wire",
	.case_setup = w_case_setup,
	.case_teardown = w_case_teardown,
	.cases = w_cases,
};

MLX5_TEST_MAIN(w_suite);
