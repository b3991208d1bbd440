/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * The software device's engine per packet: 64-byte IPv4/UDP frames sent
 * on an SQ in bursts of 32 (one doorbell, the last WQE signaled), looped
 * back, steered to a TIR and received on an RQ whose WQEs the loop
 * reposts.
 * Beside it, in the same run, DPDK's net_ring PMD moving the same bursts
 * (tx_burst then rx_burst on one ring): the anchor a software datapath is
 * measured against. And the doorbell helper with the kick hook NULL, as
 * on a real device, beside the same stores without the hook's test.
 *
 * Modes (each also runs under callgrind, which the script drives):
 *   --engine N    N bursts through the software device
 *   --ring N      N bursts through net_ring
 *   --doorbell N  N doorbells on a memory "UAR", kick NULL, and bare
 *   --pmd N       N bursts through the net PMD (rte_eth_tx_burst, then
 *                 rte_eth_rx_burst) on a software device's looped port
 * Natively each mode prints cycles per packet (TSC, the median of 9
 * runs); under callgrind each marks its dumps bench:<name>:<packets>.
 */

#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_bus.h>
#include <rte_bus_vdev.h>
#include <bus_driver.h>
#include <dev_driver.h>
#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_eth_ring.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>
#include <rte_ip.h>
#include <rte_ring.h>
#include <rte_udp.h>

#include <mlx5_common.h>
#include <mlx5_common_devx.h>
#include <mlx5_common_dp.h>
#include <mlx5_common_port.h>

#ifdef HAVE_CALLGRIND
#include <valgrind/callgrind.h>
#else
#define CALLGRIND_ZERO_STATS do { } while (0)
#define CALLGRIND_DUMP_STATS_AT(s) do { RTE_SET_USED(s); } while (0)
#define RUNNING_ON_VALGRIND 0
#endif

#ifdef __clang__
#define BENCH_NOINLINE __attribute__((noinline))
#else
#define BENCH_NOINLINE __attribute__((noinline, noclone))
#endif

#define BURST 32
#define FRAME 64
#define INLINE_HDR 18
#define REPEATS 9
#define LOG_SQ 8                   /* 256 blocks: 8 bursts of WQEs. */
#define LOG_RQ 8
#define LOG_RQ_STRIDE 4            /* One data segment per receive WQE. */
#define FRAME_OFF ((size_t)2048 << LOG_RQ)
#define BUF_LEN (FRAME_OFF + 4096)

static unsigned int nb_bursts = 4096;

/* The software device's port: everything a burst goes through. */
static struct {
	struct mlx5_common_device *cdev;
	struct mlx5_devx_obj *td, *tis, *tir;
	struct mlx5_uar uar;
	struct mlx5_devx_cq txcq, rxcq;
	struct mlx5_devx_sq sq;
	struct mlx5_devx_rq rq;
	struct mlx5_flow_rx rule;
	uint16_t rq_pi;
	uint64_t dev_cycles;       /* Spent in the doorbell: the device. */
	uint8_t *buf;
	struct ibv_mr *mr;
} e;

static __rte_noreturn void
die(const char *what)
{
	fprintf(stderr, "%s: %s\n", what, rte_strerror(rte_errno));
	exit(EXIT_FAILURE);
}

static int
cmp_name(const struct rte_device *dev, const void *name)
{
	return strcmp(dev->name, name);
}

/* Post receive WQE n (one segment of 2 KiB of the buffer). */
static inline void
rx_post(uint16_t n)
{
	struct mlx5_wqe_data_seg *d = (void *)(e.rq.wqes +
		((size_t)(n & ((1u << LOG_RQ) - 1)) << LOG_RQ_STRIDE));

	d->byte_count = rte_cpu_to_be_32(2048);
	d->lkey = rte_cpu_to_be_32(e.mr->lkey);
	d->addr = rte_cpu_to_be_64((uintptr_t)e.buf +
				   (size_t)(n & ((1u << LOG_RQ) - 1)) * 2048);
}

static void
engine_setup(void)
{
	struct rte_bus *bus = rte_bus_find_by_name("vdev");
	struct mlx5_devx_tis_attr tis = { 0 };
	struct mlx5_devx_tir_attr tir = { 0 };
	unsigned int i;

	if (bus == NULL || rte_vdev_init("mlx5_sim0", "card=200") != 0)
		die("probe mlx5_sim0");
	e.cdev = mlx5_common_dev_get(bus->find_device(NULL, cmp_name,
						      "mlx5_sim0"));
	if (e.cdev == NULL)
		die("common device");
	/* Receive buffers, then the frame sent. */
	e.buf = aligned_alloc(4096, BUF_LEN);
	if (e.buf == NULL)
		die("buffer");
	memset(e.buf, 0, BUF_LEN);
	e.mr = e.cdev->glue->reg_mr(e.cdev->pd, e.buf, BUF_LEN,
				    IBV_ACCESS_LOCAL_WRITE);
	e.td = mlx5_devx_cmd_alloc_td(e.cdev);
	if (e.mr == NULL || e.td == NULL)
		die("MR, TD");
	tis.transport_domain = e.td->id;
	e.tis = mlx5_devx_cmd_create_tis(e.cdev, &tis);
	if (e.tis == NULL || mlx5_uar_prepare(e.cdev, &e.uar) != 0 ||
	    mlx5_devx_cq_create(e.cdev, &e.txcq, LOG_SQ, &e.uar,
				SOCKET_ID_ANY) != 0 ||
	    mlx5_devx_cq_create(e.cdev, &e.rxcq, LOG_RQ, &e.uar,
				SOCKET_ID_ANY) != 0)
		die("TIS, UAR, CQs");
	if (mlx5_devx_sq_create(e.cdev, &e.sq, &(struct mlx5_devx_sq_params){
			.pd = e.cdev->pdn, .cqn = e.txcq.obj->id,
			.tisn = e.tis->id, .log_size = LOG_SQ,
			.uar = &e.uar }, SOCKET_ID_ANY) != 0 ||
	    mlx5_devx_rq_create(e.cdev, &e.rq, &(struct mlx5_devx_rq_params){
			.pd = e.cdev->pdn, .cqn = e.rxcq.obj->id,
			.log_size = LOG_RQ, .log_stride = LOG_RQ_STRIDE },
			SOCKET_ID_ANY) != 0)
		die("SQ, RQ");
	tir.disp_type = MLX5_TIRC_DISP_TYPE_DIRECT;
	tir.inline_rqn = e.rq.obj->id;
	tir.transport_domain = e.td->id;
	e.tir = mlx5_devx_cmd_create_tir(e.cdev, &tir);
	if (e.tir == NULL ||
	    mlx5_flow_rx_create(e.cdev, &e.rule, MLX5_FLOW_RX_ALL, NULL, 0,
				e.tir) != 0)
		die("TIR, rule");
	for (i = 0; i < (1u << LOG_RQ); i++)
		rx_post(e.rq_pi++);
	rte_io_wmb();
	e.rq.db_rec[MLX5_RCV_DBR] = rte_cpu_to_be_32(e.rq_pi);
	/* The frame: what testpmd's txonly sends, IPv4/UDP, checksums set. */
	{
		uint8_t *f = e.buf + FRAME_OFF;
		struct rte_ipv4_hdr *ip = (void *)(f + 14);
		struct rte_udp_hdr *udp = (void *)(ip + 1);

		for (i = 0; i < FRAME; i++)
			f[i] = (uint8_t)i;
		memset(f, 0xff, 6);
		f[12] = 0x08;
		f[13] = 0x00;
		memset(ip, 0, sizeof(*ip));
		ip->version_ihl = 0x45;
		ip->total_length = rte_cpu_to_be_16(FRAME - 14);
		ip->time_to_live = 64;
		ip->next_proto_id = IPPROTO_UDP;
		ip->src_addr = rte_cpu_to_be_32(0xc0a80001);
		ip->dst_addr = rte_cpu_to_be_32(0xc0a80002);
		udp->src_port = rte_cpu_to_be_16(9);
		udp->dst_port = rte_cpu_to_be_16(9);
		udp->dgram_len = rte_cpu_to_be_16(FRAME - 34);
		udp->dgram_cksum = 0;
		ip->hdr_checksum = rte_ipv4_cksum(ip);
		udp->dgram_cksum = rte_ipv4_udptcp_cksum(ip, udp);
	}
}

/* One burst: 32 WQEs, one doorbell, 32 receive CQEs, 1 send CQE. */
static BENCH_NOINLINE unsigned int
engine_burst(const uint8_t *frame)
{
	uint32_t n = 1u << LOG_SQ, rx = 0;
	uint8_t *last = NULL;
	uint64_t t0;
	unsigned int i;

	for (i = 0; i < BURST; i++) {
		uint8_t *w = e.sq.wqes + (size_t)(e.sq.pi & (n - 1)) *
			     MLX5_SEND_WQE_BB;
		struct mlx5_wqe_ctrl_seg *ctrl = (void *)w;
		struct mlx5_wqe_eth_seg *es = (void *)(ctrl + 1);
		struct mlx5_wqe_data_seg *d = (void *)(w + 48);

		ctrl->opmod_idx_opcode = rte_cpu_to_be_32(
			(uint32_t)e.sq.pi << 8 | MLX5_OPCODE_SEND);
		ctrl->qpn_ds = rte_cpu_to_be_32(e.sq.obj->id << 8 | 4);
		ctrl->fm_ce_se = i == BURST - 1 ? MLX5_WQE_CTRL_CQ_UPDATE : 0;
		memset(es, 0, 16);
		es->inline_hdr_sz = rte_cpu_to_be_16(INLINE_HDR);
		memcpy(es->inline_hdr_start, frame, INLINE_HDR);
		d->byte_count = rte_cpu_to_be_32(FRAME - INLINE_HDR);
		d->lkey = rte_cpu_to_be_32(e.mr->lkey);
		d->addr = rte_cpu_to_be_64((uintptr_t)frame + INLINE_HDR);
		last = w;
		e.sq.pi++;
	}
	t0 = rte_rdtsc();
	mlx5_doorbell_ring(&e.uar, &e.sq.db_rec[MLX5_SND_DBR], e.sq.pi, last);
	e.dev_cycles += rte_rdtsc() - t0;
	/* Receive: consume the CQEs, repost the WQEs. */
	for (;;) {
		volatile struct mlx5_cqe64 *cqe = &e.rxcq.cqes[e.rxcq.ci &
			((1u << e.rxcq.log_size) - 1)];

		if (mlx5_cqe_status(cqe, e.rxcq.log_size, e.rxcq.ci) !=
		    MLX5_CQE_STATUS_SW_OWN)
			break;
		e.rxcq.ci++;
		rx_post(e.rq_pi++);
		rx++;
	}
	mlx5_cq_db_update(e.rxcq.db_rec, e.rxcq.ci);
	rte_io_wmb();
	e.rq.db_rec[MLX5_RCV_DBR] = rte_cpu_to_be_32(e.rq_pi);
	/* The send CQE of the burst. */
	if (mlx5_cqe_status(&e.txcq.cqes[e.txcq.ci &
			    ((1u << e.txcq.log_size) - 1)], e.txcq.log_size,
			    e.txcq.ci) == MLX5_CQE_STATUS_SW_OWN) {
		e.txcq.ci++;
		mlx5_cq_db_update(e.txcq.db_rec, e.txcq.ci);
	}
	return rx;
}

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Print a mode's cycles per packet (median) or mark its callgrind dump. */
static void
report(const char *name, uint64_t *cycles, unsigned int runs,
       uint64_t packets)
{
	char label[64];

	snprintf(label, sizeof(label), "bench:%s:%" PRIu64, name, packets);
	CALLGRIND_DUMP_STATS_AT(label);
	if (RUNNING_ON_VALGRIND)
		return;
	qsort(cycles, runs, sizeof(*cycles), cmp_u64);
	printf("%-12s %8.2f cycles/packet (median of %u runs, %" PRIu64
	       " packets each)\n", name,
	       (double)cycles[runs / 2] / (double)packets, runs, packets);
}

static void
bench_engine(void)
{
	const uint8_t *frame;
	uint64_t cycles[REPEATS], dev[REPEATS];
	unsigned int r, b, runs = RUNNING_ON_VALGRIND ? 1 : REPEATS;
	uint64_t rx = 0;

	engine_setup();
	frame = e.buf + FRAME_OFF;
	/* Warm up. */
	for (b = 0; b < 64; b++)
		engine_burst(frame);
	for (r = 0; r < runs; r++) {
		uint64_t t0;

		CALLGRIND_ZERO_STATS;
		e.dev_cycles = 0;
		t0 = rte_rdtsc_precise();
		for (b = 0; b < nb_bursts; b++)
			rx += engine_burst(frame);
		cycles[r] = rte_rdtsc_precise() - t0;
		dev[r] = e.dev_cycles;
	}
	if (rx != (uint64_t)runs * nb_bursts * BURST) {
		fprintf(stderr, "engine: %" PRIu64 " frames received of %"
			PRIu64 "\n", rx, (uint64_t)runs * nb_bursts * BURST);
		exit(EXIT_FAILURE);
	}
	report("engine", cycles, runs, (uint64_t)nb_bursts * BURST);
	report("device", dev, runs, (uint64_t)nb_bursts * BURST);
}

static BENCH_NOINLINE unsigned int
ring_burst(uint16_t port, struct rte_mbuf **pkts, struct rte_mbuf **rx)
{
	uint16_t n = rte_eth_tx_burst(port, 0, pkts, BURST);
	uint16_t m = rte_eth_rx_burst(port, 0, rx, BURST);

	RTE_SET_USED(n);
	return m;
}

static void
bench_ring(void)
{
	struct rte_mempool *mp = rte_pktmbuf_pool_create("bench", 1024, 0, 0,
		RTE_MBUF_DEFAULT_BUF_SIZE, SOCKET_ID_ANY);
	struct rte_ring *ring = rte_ring_create("bench", 1024, SOCKET_ID_ANY,
		RING_F_SP_ENQ | RING_F_SC_DEQ);
	struct rte_mbuf *pkts[BURST], *rx[BURST];
	uint64_t cycles[REPEATS];
	unsigned int r, b, i, runs = RUNNING_ON_VALGRIND ? 1 : REPEATS;
	int port;

	if (mp == NULL || ring == NULL)
		die("mempool, ring");
	port = rte_eth_from_rings("net_ring_bench", &ring, 1, &ring, 1,
				  SOCKET_ID_ANY);
	if (port < 0)
		die("net_ring port");
	if (rte_eth_dev_configure((uint16_t)port, 1, 1,
				  &(struct rte_eth_conf){ 0 }) != 0 ||
	    rte_eth_rx_queue_setup((uint16_t)port, 0, 1024, SOCKET_ID_ANY,
				   NULL, mp) != 0 ||
	    rte_eth_tx_queue_setup((uint16_t)port, 0, 1024, SOCKET_ID_ANY,
				   NULL) != 0 ||
	    rte_eth_dev_start((uint16_t)port) != 0)
		die("net_ring start");
	if (rte_pktmbuf_alloc_bulk(mp, pkts, BURST) != 0)
		die("mbufs");
	for (i = 0; i < BURST; i++)
		rte_pktmbuf_append(pkts[i], FRAME);
	for (r = 0; r < runs; r++) {
		uint64_t t0;

		CALLGRIND_ZERO_STATS;
		t0 = rte_rdtsc_precise();
		for (b = 0; b < nb_bursts; b++)
			if (ring_burst((uint16_t)port, pkts, rx) != BURST)
				die("net_ring lost frames");
		cycles[r] = rte_rdtsc_precise() - t0;
	}
	report("net_ring", cycles, runs, (uint64_t)nb_bursts * BURST);
}

/* The doorbell helper's stores without the hook's test. */
static inline void
doorbell_bare(struct mlx5_uar *uar, volatile uint32_t *db_rec, uint16_t pi,
	      const void *ctrl)
{
	uint64_t db = *(const volatile uint64_t *)ctrl;

	rte_io_wmb();
	*db_rec = rte_cpu_to_be_32(pi);
	rte_wmb();
	rte_write64_relaxed(db, uar->db);
}

static BENCH_NOINLINE void
ring_hooked(struct mlx5_uar *uar, volatile uint32_t *rec, uint16_t pi,
	    const void *ctrl)
{
	mlx5_doorbell_ring(uar, rec, pi, ctrl);
}

static BENCH_NOINLINE void
ring_bare(struct mlx5_uar *uar, volatile uint32_t *rec, uint16_t pi,
	  const void *ctrl)
{
	doorbell_bare(uar, rec, pi, ctrl);
}

static void
bench_doorbell(void)
{
	static uint64_t reg, wqe[8];
	static uint32_t rec[2];
	struct mlx5_uar uar = { .db = &reg, .kick = NULL };
	void (*fns[2])(struct mlx5_uar *, volatile uint32_t *, uint16_t,
		       const void *) = { ring_hooked, ring_bare };
	static const char *const names[2] = { "doorbell", "doorbell_bare" };
	uint64_t cycles[REPEATS];
	unsigned int f, r, i, runs = RUNNING_ON_VALGRIND ? 1 : REPEATS;
	uint64_t n = (uint64_t)nb_bursts * BURST;

	for (f = 0; f < 2; f++) {
		for (r = 0; r < runs; r++) {
			uint64_t t0;

			CALLGRIND_ZERO_STATS;
			t0 = rte_rdtsc_precise();
			for (i = 0; i < n; i++)
				fns[f](&uar, &rec[1], (uint16_t)i, wqe);
			cycles[r] = rte_rdtsc_precise() - t0;
		}
		report(names[f], cycles, runs, n);
	}
}

/* The net PMD's bursts on a looped port of the software device. */
static BENCH_NOINLINE uint16_t
pmd_burst(uint16_t port, struct rte_mbuf **pkts, struct rte_mbuf **rx)
{
	uint16_t n = rte_eth_tx_burst(port, 0, pkts, BURST), m = 0, k;

	for (k = 0; k < 4 && m < n; k++)
		m += rte_eth_rx_burst(port, 0, rx + m, (uint16_t)(n - m));
	return m;
}

/* The software device's devargs of --pmd (--pmd-nocomp: no Rx CQE
 * compression). */
static const char *pmd_devargs = "card=201";

static void
bench_pmd(void)
{
	struct rte_mempool *mp = rte_pktmbuf_pool_create("bench_pmd", 4096,
		256, 0, RTE_MBUF_DEFAULT_BUF_SIZE, SOCKET_ID_ANY);
	struct rte_eth_conf conf = {
		/* As testpmd and l3fwd set it when the PMD offers it. */
		.txmode.offloads = RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE,
	};
	struct rte_mbuf *pkts[BURST], *rx[BURST];
	uint64_t cycles[REPEATS];
	unsigned int r, b, i, runs = RUNNING_ON_VALGRIND ? 1 : REPEATS;
	uint16_t port;

	if (mp == NULL || rte_vdev_init("mlx5_sim0", pmd_devargs) != 0 ||
	    rte_eth_dev_get_port_by_name("mlx5_sim0", &port) != 0)
		die("software device port (is the net PMD loaded?)");
	if (rte_eth_dev_configure(port, 1, 1, &conf) != 0 ||
	    rte_eth_rx_queue_setup(port, 0, 1024, SOCKET_ID_ANY, NULL,
				   mp) != 0 ||
	    rte_eth_tx_queue_setup(port, 0, 1024, SOCKET_ID_ANY, NULL) != 0 ||
	    rte_eth_promiscuous_enable(port) != 0 ||
	    rte_eth_dev_start(port) != 0)
		die("port start");
	for (r = 0; r < runs; r++) {
		uint64_t t0, got = 0;

		CALLGRIND_ZERO_STATS;
		t0 = rte_rdtsc_precise();
		for (b = 0; b < nb_bursts; b++) {
			uint16_t n;

			if (rte_pktmbuf_alloc_bulk(mp, pkts, BURST) != 0)
				die("mbufs");
			for (i = 0; i < BURST; i++) {
				memset(rte_pktmbuf_mtod(pkts[i], void *), 0xff,
				       6);
				pkts[i]->data_len = FRAME;
				pkts[i]->pkt_len = FRAME;
			}
			n = pmd_burst(port, pkts, rx);
			got += n;
			rte_pktmbuf_free_bulk(rx, n);
		}
		cycles[r] = rte_rdtsc_precise() - t0;
		if (got != (uint64_t)nb_bursts * BURST)
			die("the PMD lost frames");
	}
	report("pmd", cycles, runs, (uint64_t)nb_bursts * BURST);
	rte_eth_dev_stop(port);
	rte_eth_dev_close(port);
}

int
main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "engine", required_argument, NULL, 'e' },
		{ "ring", required_argument, NULL, 'r' },
		{ "doorbell", required_argument, NULL, 'd' },
		{ "pmd", required_argument, NULL, 'p' },
		{ "pmd-nocomp", required_argument, NULL, 'P' },
		{ NULL, 0, NULL, 0 },
	};
	char *eal_args[] = {
		argv[0], "--no-huge", "-m", "256", "--no-pci", "--no-shconf",
		"-l", "0", "--no-telemetry", "--log-level", "*:warning", NULL,
	};
	int mode = 0, opt;

	while ((opt = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (opt != 'e' && opt != 'r' && opt != 'd' && opt != 'p' &&
		    opt != 'P') {
			fprintf(stderr, "usage: %s --engine N | --ring N |"
				" --doorbell N | --pmd N | --pmd-nocomp N\n",
				argv[0]);
			return EXIT_FAILURE;
		}
		if (opt == 'P') {
			pmd_devargs = "card=201,rxq_cqe_comp_en=0";
			opt = 'p';
		}
		mode = opt;
		nb_bursts = (unsigned int)strtoul(optarg, NULL, 0);
	}
	if (mode == 0 || nb_bursts == 0) {
		fprintf(stderr, "usage: %s --engine N | --ring N |"
			" --doorbell N | --pmd N | --pmd-nocomp N\n", argv[0]);
		return EXIT_FAILURE;
	}
	if (rte_eal_init(RTE_DIM(eal_args) - 1, eal_args) < 0)
		die("EAL init");
	if (mode == 'e')
		bench_engine();
	else if (mode == 'r')
		bench_ring();
	else if (mode == 'p')
		bench_pmd();
	else
		bench_doorbell();
	rte_eal_cleanup();
	return EXIT_SUCCESS;
}
