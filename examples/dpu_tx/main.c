/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * The RFC's use case: a BlueField's Arm side transmits host memory.
 *
 * One (software) card, three vHCAs: the host PF (vHCA 1), the DPU's Arm
 * side (vHCA 2), whose Ethernet port is cabled to a receiver (vHCA 3).
 *   1. The host exports a buffer of frames (rte_pmd_mlx5_export_mem()).
 *   2. The DPU maps it with rte_pmd_mlx5_create_cross_vhca_mkey() and
 *      builds private-IOVA mbufs over it
 *      (rte_pmd_mlx5_pktmbuf_alloc_private()): the Arm cores never read
 *      those bytes, the device does, under the key.
 *   3. The DPU's port transmits them; the receiver checks every byte.
 *   4. The host revokes the export; the DPU's next frames fail at the
 *      device (error completions, counted in oerrors and in the xstat
 *      tx_q0_err_local_protection) and nothing of them arrives.
 * Only the public rte_pmd_mlx5.h and stock DPDK calls (EAL, ethdev, mbuf)
 * are used. On a BlueField the host half runs on the host and hands
 * (vhca_id, mkey, buffer address) to the Arm side over any channel; here
 * one process probes the three vHCAs of a software card:
 *
 *   build/examples/dpu_tx/dpu_tx --no-huge -m 512 --no-pci --no-shconf \
 *       -l 0 --vdev=mlx5_sim0,card=7,vhca_id=1 \
 *       --vdev=mlx5_sim1,card=7,vhca_id=2,wire=3 \
 *       --vdev=mlx5_sim2,card=7,vhca_id=3
 *
 * Without --vdev arguments it probes exactly these three. Exit code 0 only
 * when every byte arrived and every frame after the revocation failed.
 */

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_ether.h>
#include <rte_mbuf.h>

#include <rte_pmd_mlx5.h>

#define FRAMES 64           /* Frames in the host's buffer. */
#define FRAME_LEN 256       /* Bytes each, headers included. */
#define REVOKED_FRAMES 8    /* Sent after the revocation. */

static const char *const default_vdevs[] = {
	"--vdev=mlx5_sim0,card=7,vhca_id=1",
	"--vdev=mlx5_sim1,card=7,vhca_id=2,wire=3",
	"--vdev=mlx5_sim2,card=7,vhca_id=3",
};

/* The ethdev port of the device named @name, through public calls. */
static int
port_of(const char *name, uint16_t *port, struct rte_device **dev)
{
	struct rte_eth_dev_info info;
	uint16_t p;

	RTE_ETH_FOREACH_DEV(p) {
		if (rte_eth_dev_info_get(p, &info) != 0)
			continue;
		if (strcmp(rte_dev_name(info.device), name) == 0) {
			*port = p;
			*dev = info.device;
			return 0;
		}
	}
	printf("no ethdev port for %s\n", name);
	return -1;
}

static int
port_start(uint16_t port, struct rte_mempool *mp)
{
	struct rte_eth_conf conf = { 0 };

	if (rte_eth_dev_configure(port, 1, 1, &conf) != 0 ||
	    rte_eth_rx_queue_setup(port, 0, 512, rte_socket_id(), NULL, mp) ||
	    rte_eth_tx_queue_setup(port, 0, 512, rte_socket_id(), NULL) ||
	    rte_eth_dev_start(port) != 0) {
		printf("port %u: set-up failed: %s\n", port,
		       rte_strerror(rte_errno));
		return -1;
	}
	return 0;
}

/* Receive on @port up to @n frames within a second: how many came. */
static unsigned int
receive(uint16_t port, struct rte_mbuf **got, unsigned int n)
{
	uint64_t end = rte_get_timer_cycles() + rte_get_timer_hz();
	unsigned int k = 0;

	while (k < n && rte_get_timer_cycles() < end)
		k += rte_eth_rx_burst(port, 0, got + k, (uint16_t)(n - k));
	return k;
}

static uint64_t
xstat(uint16_t port, const char *name)
{
	uint64_t id, v = 0;

	if (rte_eth_xstats_get_id_by_name(port, name, &id) == 0)
		rte_eth_xstats_get_by_id(port, &id, &v, 1);
	return v;
}

/* The host's frames: Ethernet to the receiver, a numbered payload. */
static void
host_frames_fill(uint8_t *buf, const struct rte_ether_addr *dst,
		 const struct rte_ether_addr *src)
{
	for (unsigned int f = 0; f < FRAMES; f++) {
		struct rte_ether_hdr *eth = (void *)(buf + f * FRAME_LEN);

		eth->dst_addr = *dst;
		eth->src_addr = *src;
		eth->ether_type = rte_cpu_to_be_16(0x88b5); /* Local exp. */
		for (unsigned int i = sizeof(*eth); i < FRAME_LEN; i++)
			buf[f * FRAME_LEN + i] = (uint8_t)(f * 7 + i);
	}
}

int
main(int argc, char **argv)
{
	static const uint8_t key[RTE_PMD_MLX5_ACCESS_KEY_LEN] =
		"host and Arm side agreed on it";
	struct rte_device *host_dev, *dpu_dev, *rx_dev;
	uint16_t host_port, dpu_port, rx_port, vhca_id;
	struct rte_mbuf *tx[FRAMES], *rx[FRAMES];
	struct rte_ether_addr dpu_mac, rx_mac;
	struct rte_mempool *pool, *priv_pool;
	struct rte_eth_stats st;
	unsigned int f, got, bad = 0;
	uint64_t oerr_before;
	char **args;
	int nargs = argc, failures = 0;
	uint8_t *host_buf;
	rte_iova_t iova;
	uint32_t mkey;

	/* The default card when no --vdev is given. */
	args = calloc((size_t)argc + RTE_DIM(default_vdevs) + 1, sizeof(*args));
	if (args == NULL)
		return 1;
	memcpy(args, argv, (size_t)argc * sizeof(*args));
	for (f = 1; f < (unsigned int)argc; f++)
		if (strncmp(argv[f], "--vdev", 6) == 0)
			break;
	if (f == (unsigned int)argc)
		for (f = 0; f < RTE_DIM(default_vdevs); f++)
			args[nargs++] = (char *)(uintptr_t)default_vdevs[f];
	if (rte_eal_init(nargs, args) < 0) {
		printf("EAL: %s\n", rte_strerror(rte_errno));
		return 1;
	}
	if (port_of("mlx5_sim0", &host_port, &host_dev) != 0 ||
	    port_of("mlx5_sim1", &dpu_port, &dpu_dev) != 0 ||
	    port_of("mlx5_sim2", &rx_port, &rx_dev) != 0)
		return 1;
	pool = rte_pktmbuf_pool_create("dpu_tx_rx", 2047, 0, 0,
				       RTE_MBUF_DEFAULT_BUF_SIZE,
				       rte_socket_id());
	/* Private-IOVA mbufs keep their external buffer's shared info here. */
	priv_pool = rte_pktmbuf_pool_create("dpu_tx_priv", 255, 0,
		RTE_ALIGN(sizeof(struct rte_mbuf_ext_shared_info),
			  RTE_MBUF_PRIV_ALIGN), 0, rte_socket_id());
	if (pool == NULL || priv_pool == NULL ||
	    port_start(dpu_port, pool) != 0 || port_start(rx_port, pool) != 0)
		return 1;
	rte_eth_macaddr_get(dpu_port, &dpu_mac);
	rte_eth_macaddr_get(rx_port, &rx_mac);

	/* 1. Host side: a buffer of frames, exported with the key. */
	host_buf = aligned_alloc(4096, FRAMES * FRAME_LEN);
	if (host_buf == NULL)
		return 1;
	host_frames_fill(host_buf, &rx_mac, &dpu_mac);
	if (rte_pmd_mlx5_export_mem(host_dev, host_buf, FRAMES * FRAME_LEN, key,
				    &vhca_id, &mkey) != 0) {
		printf("host: export failed: %s\n", rte_strerror(rte_errno));
		return 1;
	}
	printf("host (port %u): exported %u bytes: vHCA %u, mkey 0x%08x\n",
	       host_port, FRAMES * FRAME_LEN, vhca_id, mkey);

	/* 2. DPU side: a crossing mkey, private-IOVA mbufs over host memory. */
	iova = rte_pmd_mlx5_create_cross_vhca_mkey(dpu_dev, vhca_id, mkey);
	if (iova == 0) {
		printf("DPU: crossing mkey refused: %s\n",
		       rte_strerror(rte_errno));
		return 1;
	}
	printf("DPU (port %u): crossing mkey 0x%08x\n", dpu_port,
	       rte_pmd_mlx5_iova_to_mkey(iova));
	for (f = 0; f < FRAMES; f++) {
		tx[f] = rte_pmd_mlx5_pktmbuf_alloc_private(priv_pool, dpu_dev,
			iova, host_buf + f * FRAME_LEN, FRAME_LEN, NULL);
		if (tx[f] == NULL) {
			printf("DPU: mbuf %u: %s\n", f, rte_strerror(rte_errno));
			return 1;
		}
	}

	/* 3. The DPU's port sends them; the receiver checks every byte. */
	if (rte_eth_tx_burst(dpu_port, 0, tx, FRAMES) != FRAMES) {
		printf("DPU: not every frame was taken\n");
		return 1;
	}
	got = receive(rx_port, rx, FRAMES);
	for (f = 0; f < got; f++) {
		if (rx[f]->pkt_len != FRAME_LEN ||
		    memcmp(rte_pktmbuf_mtod(rx[f], void *),
			   host_buf + f * FRAME_LEN, FRAME_LEN) != 0)
			bad++;
		rte_pktmbuf_free(rx[f]);
	}
	printf("receiver (port %u): %u of %u frames, %u differ\n", rx_port, got,
	       FRAMES, bad);
	failures += got != FRAMES || bad != 0;

	/* 4. The host revokes; the DPU's next frames fail at the device. */
	if (rte_pmd_mlx5_release_key(host_dev, mkey) != 0) {
		printf("host: revoke failed: %s\n", rte_strerror(rte_errno));
		return 1;
	}
	rte_eth_stats_get(dpu_port, &st);
	oerr_before = st.oerrors;
	for (f = 0; f < REVOKED_FRAMES; f++) {
		tx[f] = rte_pmd_mlx5_pktmbuf_alloc_private(priv_pool, dpu_dev,
			iova, host_buf + f * FRAME_LEN, FRAME_LEN, NULL);
		if (tx[f] == NULL)
			return 1;
	}
	if (rte_eth_tx_burst(dpu_port, 0, tx, REVOKED_FRAMES) !=
	    REVOKED_FRAMES)
		return 1;
	got = receive(rx_port, rx, REVOKED_FRAMES);
	for (f = 0; f < got; f++)
		rte_pktmbuf_free(rx[f]);
	/* The next burst takes the error completions (an empty one does). */
	rte_eth_tx_burst(dpu_port, 0, tx, 0);
	rte_eth_stats_get(dpu_port, &st);
	printf("after the revocation: %u of %u frames arrived, DPU oerrors +%"
	       PRIu64 ", tx_q0_err_local_protection %" PRIu64 "\n", got,
	       REVOKED_FRAMES, st.oerrors - oerr_before,
	       xstat(dpu_port, "tx_q0_err_local_protection"));
	failures += got != 0 || st.oerrors - oerr_before != REVOKED_FRAMES ||
		    xstat(dpu_port, "tx_q0_err_local_protection") == 0;

	rte_pmd_mlx5_release_key(dpu_dev, iova);
	rte_eth_dev_stop(dpu_port);
	rte_eth_dev_stop(rx_port);
	rte_eth_dev_close(dpu_port);
	rte_eth_dev_close(rx_port);
	rte_eth_dev_close(host_port);
	rte_mempool_free(priv_pool);
	rte_mempool_free(pool);
	free(host_buf);
	rte_eal_cleanup();
	free(args);
	printf("dpu_tx: %s\n", failures ? "FAILED" : "ok");
	return failures ? 1 : 0;
}
