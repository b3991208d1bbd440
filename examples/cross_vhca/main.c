/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * Cross-vHCA memory access on a (software) BlueField card.
 *
 * One card, two vHCAs: the host PF (vhca 1) and the DPU's Arm side (vhca 2).
 * The host exports a buffer with an access key; the DPU maps it twice — a
 * crossing mkey (the RFC's rte_pmd_mlx5_create_cross_vhca_mkey) and a keyed
 * alias (rte_pmd_mlx5_import_mem) — then the DPU's device reads and writes
 * host memory through each (RDMA on a loopback queue pair of the DPU, with
 * the key as the local key), and the bytes are checked. Finally the host
 * revokes the export and the DPU's access fails cleanly. Only public and
 * class-driver interfaces are used.
 *
 * On real hardware the two halves run in two processes (host and Arm) and
 * exchange (vhca_id, mkey, access key) over any channel; here one process
 * probes both vHCAs of the software card:
 *
 *   build/examples/cross_vhca --no-huge -m 256 --no-pci --no-shconf -l 0 \
 *       --vdev=mlx5_sim0,card=0,vhca_id=1 --vdev=mlx5_sim1,card=0,vhca_id=2
 *
 * Without --vdev arguments the program probes exactly these two devices.
 * Two device names after "--" name the host's and the DPU's devices on any
 * bus instead, e.g. two PCI functions of a BlueField through the software
 * device's rdma-core front (doc/guides/platform/mlx5_rdma_front.rst):
 *
 *   build/examples/cross_vhca --no-huge -m 256 --no-shconf -l 0 \
 *       -a 0000:08:00.0 -a 0000:08:00.1 -- 0000:08:00.0 0000:08:00.1
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_bus.h>
#include <rte_bus_vdev.h>
#include <rte_dev.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_mbuf.h>
#include <bus_driver.h>

#include <mlx5_common.h>
#include <mlx5_common_devx.h>
#include <rte_pmd_mlx5.h>

#define HOST_NAME "mlx5_sim0"
#define DPU_NAME "mlx5_sim1"
#define BUF_LEN (16 * 4096)

static int failures;

#define CHECK(cond, ...) do { \
	if (cond) { \
		printf("  ok: " __VA_ARGS__); \
		printf("\n"); \
	} else { \
		printf("  FAILED: " __VA_ARGS__); \
		printf(" (rte_errno %d: %s)\n", rte_errno, \
		       rte_strerror(rte_errno)); \
		failures++; \
	} \
} while (0)

static int
cmp_name(const struct rte_device *dev, const void *name)
{
	return strcmp(dev->name, name);
}

/* A device EAL probed, on any bus, by name. */
static struct rte_device *
find_probed(const char *name)
{
	static const char *const buses[] = { "pci", "auxiliary", "vdev" };
	unsigned int i;

	for (i = 0; i < RTE_DIM(buses); i++) {
		struct rte_bus *bus = rte_bus_find_by_name(buses[i]);
		struct rte_device *dev = bus != NULL ?
			bus->find_device(NULL, cmp_name, name) : NULL;

		if (dev != NULL)
			return dev;
	}
	return NULL;
}

/* A software device by vdev name, probed here if EAL did not. */
static struct rte_device *
find_or_probe(const char *name, const char *args)
{
	struct rte_device *dev = find_probed(name);

	if (dev == NULL && rte_vdev_init(name, args) == 0)
		dev = find_probed(name);
	return dev;
}

/* The DPU's device: a loopback QP of the DPU's PD. */
static struct mlx5_devx_lbqp dpu_lb;

static int
dpu_dev_init(struct rte_device *dpu)
{
	struct mlx5_common_device *cdev = mlx5_common_dev_get(dpu);

	return cdev != NULL &&
	       mlx5_devx_lbqp_create(cdev, &dpu_lb, cdev->pdn) == 0 ? 0 : -1;
}

static void
dpu_dev_fini(void)
{
	mlx5_devx_lbqp_destroy(&dpu_lb);
}

/*
 * The DPU's device moves bytes through a key, as a queue of its would:
 * the key is the local key of an RDMA on the loopback QP
 * (mlx5_devx_lbqp_copy()).
 */
static int
dpu_dma(rte_iova_t iova, void *addr, void *buf, size_t len, bool write,
	uint8_t *syndrome)
{
	return mlx5_devx_lbqp_copy(&dpu_lb, rte_pmd_mlx5_iova_to_mkey(iova),
				   (uintptr_t)addr, buf, len, write, syndrome);
}

static void
dpu_round_trip(const char *how, rte_iova_t iova, uint8_t *host_buf)
{
	char msg[64], back[64];
	uint8_t syndrome = 0;

	snprintf(msg, sizeof(msg), "DPU wrote this via the %s", how);
	CHECK(dpu_dma(iova, host_buf + 4096, msg, sizeof(msg), true,
		      &syndrome) == 0, "%s: DPU writes host memory", how);
	CHECK(memcmp(host_buf + 4096, msg, sizeof(msg)) == 0,
	      "%s: host reads \"%s\"", how, (char *)host_buf + 4096);
	CHECK(dpu_dma(iova, host_buf, back, sizeof(back), false,
		      &syndrome) == 0 && strcmp(back, (char *)host_buf) == 0,
	      "%s: DPU reads host memory: \"%s\"", how, back);
}

int
main(int argc, char **argv)
{
	static const uint8_t access_key[RTE_PMD_MLX5_ACCESS_KEY_LEN] =
		"shared by host and DPU only...";
	struct rte_device *host, *dpu;
	rte_iova_t crossing, alias;
	uint8_t *host_buf, syndrome = 0;
	uint16_t host_vhca, dpu_vhca;
	uint32_t host_mkey;
	struct rte_mbuf m;
	char tmp[16];

	int n;

	setvbuf(stdout, NULL, _IOLBF, 0);
	n = rte_eal_init(argc, argv);
	if (n < 0) {
		printf("EAL init failed\n");
		return 1;
	}
	argc -= n;
	argv += n;
	if (argc == 3) {
		host = find_probed(argv[1]);
		dpu = find_probed(argv[2]);
	} else if (argc == 1) {
		host = find_or_probe(HOST_NAME, "card=0,vhca_id=1");
		dpu = find_or_probe(DPU_NAME, "card=0,vhca_id=2");
	} else {
		printf("usage: %s [EAL options] [-- HOST_DEVICE DPU_DEVICE]\n",
		       argv[0]);
		return 2;
	}
	if (host == NULL || dpu == NULL) {
		printf("cannot find or probe the host's and the DPU's devices\n");
		return 1;
	}
	rte_pmd_mlx5_get_vhca_id(host, &host_vhca);
	rte_pmd_mlx5_get_vhca_id(dpu, &dpu_vhca);
	printf("host: %s (vhca %u), DPU: %s (vhca %u)\n", host->name, host_vhca,
	       dpu->name, dpu_vhca);
	if (dpu_dev_init(dpu) != 0) {
		printf("cannot set up the DPU's loopback queue pair\n");
		return 1;
	}

	printf("host side:\n");
	host_buf = aligned_alloc(4096, BUF_LEN);
	memset(host_buf, 0, BUF_LEN);
	strcpy((char *)host_buf, "host memory, page 0");
	CHECK(rte_pmd_mlx5_export_mem(host, host_buf, BUF_LEN, access_key,
				      &host_vhca, &host_mkey) == 0,
	      "exported %d bytes at %p: vhca %u, mkey 0x%08x", BUF_LEN,
	      (void *)host_buf, host_vhca, host_mkey);

	printf("DPU side, crossing mkey (RFC):\n");
	crossing = rte_pmd_mlx5_create_cross_vhca_mkey(dpu, host_vhca,
						       host_mkey);
	CHECK(crossing != 0, "crossing mkey, buf_iova 0x%016llx",
	      (unsigned long long)crossing);
	dpu_round_trip("crossing mkey", crossing, host_buf);

	printf("DPU side, keyed alias:\n");
	alias = rte_pmd_mlx5_import_mem(dpu, host_vhca, host_mkey, access_key);
	CHECK(alias != 0, "alias mkey, buf_iova 0x%016llx",
	      (unsigned long long)alias);
	dpu_round_trip("alias", alias, host_buf);
	{
		uint8_t wrong[RTE_PMD_MLX5_ACCESS_KEY_LEN] = "a guess";

		CHECK(rte_pmd_mlx5_import_mem(dpu, host_vhca, host_mkey,
					      wrong) == 0 && rte_errno == EINVAL,
		      "a wrong access key is refused (EINVAL)");
	}

	printf("DPU side, an mbuf over host memory:\n");
	memset(&m, 0, sizeof(m));
	m.buf_addr = host_buf;
	CHECK(rte_pmd_mlx5_mbuf_set_private_iova(&m, crossing) == 0 &&
	      (m.ol_flags & rte_pmd_mlx5_private_iova_flag()),
	      "buf_iova 0x%016llx flagged %s: the PMD uses mkey 0x%08x as is",
	      (unsigned long long)m.buf_iova, RTE_PMD_MLX5_PRIVATE_IOVA,
	      rte_pmd_mlx5_iova_to_mkey(m.buf_iova));

	printf("host revokes:\n");
	CHECK(rte_pmd_mlx5_release_key(host, host_mkey) == 0,
	      "host released its export (mkey destroyed)");
	CHECK(dpu_dma(crossing, host_buf, tmp, sizeof(tmp), false,
		      &syndrome) < 0,
	      "DPU read through the crossing mkey fails: %s, CQE syndrome 0x%x",
	      rte_strerror(rte_errno), syndrome);
	CHECK(dpu_dma(alias, host_buf, tmp, sizeof(tmp), true,
		      &syndrome) < 0,
	      "DPU write through the alias fails: %s, CQE syndrome 0x%x",
	      rte_strerror(rte_errno), syndrome);
	CHECK(rte_pmd_mlx5_release_key(dpu, crossing) == 0 &&
	      rte_pmd_mlx5_release_key(dpu, alias) == 0,
	      "DPU released its keys");
	CHECK(rte_pmd_mlx5_release_key(dpu, alias) == -ENOENT,
	      "a second release is refused (ENOENT)");

	dpu_dev_fini();
	CHECK(rte_dev_remove(dpu) == 0 && rte_dev_remove(host) == 0,
	      "both devices removed");
	free(host_buf);
	rte_eal_cleanup();
	printf("%s\n", failures ? "cross_vhca: FAILED" : "cross_vhca: OK");
	return failures ? 1 : 0;
}
