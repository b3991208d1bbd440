/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * A tour of the common mlx5 layer on the software device: probe, the
 * capabilities the device reports, mkeys of each kind (with data moved by the
 * device through them: RDMA on a loopback queue pair, as on a ConnectX),
 * packet-pacing entries, a command the device refuses, the datapath's MR
 * lookups, and the removal. Only public and class-driver interfaces: the
 * same code runs on a real device.
 *
 *   build/examples/mlx5_sim_demo --no-huge -m 256 --no-pci --no-shconf -l 0
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_bus.h>
#include <rte_bus_vdev.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <bus_driver.h>

#include <rte_malloc.h>
#include <rte_mbuf.h>

#include <mlx5_common.h>
#include <mlx5_common_devx.h>
#include <mlx5_common_mr.h>
#include <mlx5_common_pp.h>
#include <mlx5_devx_cmds.h>

#define DEMO_DEV "mlx5_sim0"
#define DEMO_ARGS "card=0,vhca_id=1,pp_table_size=16"

#define CHECK(cond, ...) do { \
	if (!(cond)) { \
		printf("FAILED: " __VA_ARGS__); \
		printf(" (rte_errno %d: %s)\n", rte_errno, \
		       rte_strerror(rte_errno)); \
		exit(1); \
	} \
} while (0)

static int
cmp_name(const struct rte_device *dev, const void *name)
{
	return strcmp(dev->name, name);
}

static void
show_caps(const struct mlx5_common_device *cdev)
{
	const struct mlx5_hca_attr *c = &cdev->caps;

	printf("device %s: backend %s, ibv device %s, vhca_id %u, pdn %u\n",
	       cdev->dev->name, cdev->glue->name, cdev->ctx->device->name,
	       c->vhca_id, cdev->pdn);
	printf("  general: hca_cap_2=%d crossing_vhca_mkey=%d null_mkey=%d\n",
	       c->hca_cap_2, c->crossing_vhca_mkey, c->null_mkey);
	printf("  general_2: cross_vhca_object_to_object=0x%x allowed_object_for_other_vhca_access=0x%llx\n",
	       c->cross_vhca_object_to_object_supported,
	       (unsigned long long)c->allowed_object_for_other_vhca_access);
	printf("  queues: 2^%u CQEs per CQ, 2^%u WQEs per QP queue, RoCE force loopback=%d, Ethernet offloads=%d (checksum=%d, RQT up to 2^%u)\n",
	       c->log_max_cq_sz, c->log_max_qp_sz,
	       c->fl_rc_qp_when_roce_enabled || c->fl_rc_qp_when_roce_disabled,
	       c->eth.sup, c->eth.csum_cap, c->eth.rss_ind_tbl_cap);
	printf("  qos: packet_pacing=%d rate range [%u, %u] kbps, table size %u\n",
	       c->qos.packet_pacing, c->qos.min_rate_kbps, c->qos.max_rate_kbps,
	       c->qos.rate_table_size);
}

/*
 * The device's hands: a loopback QP whose copies use the keys under test
 * as local keys (an RDMA READ from its staging buffer writes through the
 * key, an RDMA WRITE to it reads).
 */
struct demo_dma {
	struct mlx5_devx_lbqp lb;
};

static void
demo_dma_init(struct mlx5_common_device *cdev, struct demo_dma *d)
{
	CHECK(mlx5_devx_lbqp_create(cdev, &d->lb, cdev->pdn) == 0,
	      "loopback QP");
}

static void
demo_dma_fini(struct demo_dma *d)
{
	CHECK(mlx5_devx_lbqp_destroy(&d->lb) == 0, "loopback QP");
}

/* The device writes @len bytes of @src at (@key, @addr). */
static int
demo_dev_write(struct demo_dma *d, uint32_t key, uint64_t addr,
	       const void *src, uint32_t len, uint8_t *syndrome)
{
	return mlx5_devx_lbqp_copy(&d->lb, key, addr, (void *)(uintptr_t)src,
				   len, true, syndrome);
}

/* The device reads @len bytes at (@key, @addr) into @dst. */
static int
demo_dev_read(struct demo_dma *d, uint32_t key, uint64_t addr, void *dst,
	      uint32_t len, uint8_t *syndrome)
{
	return mlx5_devx_lbqp_copy(&d->lb, key, addr, dst, len, false,
				   syndrome);
}

static void
demo_mkeys(struct mlx5_common_device *cdev, struct demo_dma *d)
{
	const size_t len = 2 * 4096;
	uint8_t *buf = aligned_alloc(4096, len);
	char msg[] = "written by the device through an indirect mkey";
	char back[sizeof(msg)];
	struct mlx5dv_devx_umem *umem;
	struct mlx5_devx_obj *mtt, *klm_mkey;
	struct mlx5_devx_mkey_info info;
	uint8_t syndrome = 0;

	CHECK(buf != NULL, "buffer");
	memset(buf, 0, len);
	umem = cdev->glue->devx_umem_reg(cdev->ctx, buf, len,
					 IBV_ACCESS_LOCAL_WRITE);
	CHECK(umem != NULL, "umem registration");
	struct mlx5_devx_mkey_attr mattr = {
		.access_mode = MLX5_MKC_ACCESS_MODE_MTT,
		.addr = (uintptr_t)buf, .size = len, .pd = cdev->pdn,
		.lr = true, .lw = true, .umem_id = umem->umem_id,
		.log_page_size = 12,
	};
	mtt = mlx5_devx_cmd_mkey_create(cdev, &mattr);
	CHECK(mtt != NULL, "MTT mkey");
	CHECK(mlx5_devx_cmd_mkey_query(mtt, &info) == 0, "QUERY_MKEY");
	printf("MTT mkey 0x%08x: umem %u, [0x%llx, +%llu), pd %u, lr=%d lw=%d\n",
	       mtt->id, umem->umem_id, (unsigned long long)info.start_addr,
	       (unsigned long long)info.len, info.pd, info.lr, info.lw);

	/* An indirect view of the second page at I/O address 0. */
	struct mlx5_klm klm = {
		.byte_count = 4096, .mkey = mtt->id,
		.address = (uintptr_t)buf + 4096,
	};
	struct mlx5_devx_mkey_attr kattr = {
		.access_mode = MLX5_MKC_ACCESS_MODE_KLM,
		.addr = 0, .size = 4096, .pd = cdev->pdn, .lr = true, .lw = true,
		.klm_array = &klm, .klm_num = 1,
	};
	klm_mkey = mlx5_devx_cmd_mkey_create(cdev, &kattr);
	CHECK(klm_mkey != NULL, "KLM mkey");
	CHECK(demo_dev_write(d, klm_mkey->id, 100, msg, sizeof(msg),
			     &syndrome) == 0, "device write");
	CHECK(memcmp(buf + 4096 + 100, msg, sizeof(msg)) == 0,
	      "bytes landed at page 2 + 100");
	CHECK(demo_dev_read(d, mtt->id, (uintptr_t)buf + 4196, back,
			    sizeof(back), &syndrome) == 0, "device read");
	printf("KLM mkey 0x%08x -> MTT mkey: the device wrote \"%s\" (RDMA read on loopback QP 0x%x), read it back through the MTT mkey\n",
	       klm_mkey->id, back, d->lb.qp.obj->id);
	CHECK(demo_dev_write(d, klm_mkey->id, 4090, msg, sizeof(msg),
			     &syndrome) != 0, "out-of-range write must fail");
	printf("write past the end of the KLM mkey: error completion, syndrome 0x%x; the QP recovered\n",
	       syndrome);

	/* mlx5dv_create_mkey rounds max_entries up to a multiple of 4. */
	struct mlx5dv_mkey_init_attr dv = {
		.pd = cdev->pd,
		.create_flags = MLX5DV_MKEY_INIT_ATTR_FLAGS_INDIRECT,
		.max_entries = 5,
	};
	struct mlx5dv_mkey *dvm = cdev->glue->dv_create_mkey(&dv);

	CHECK(dvm != NULL, "mlx5dv_create_mkey");
	printf("mlx5dv_create_mkey(INDIRECT, max_entries=5): lkey=rkey=0x%08x, max_entries now %u\n",
	       dvm->lkey, dv.max_entries);
	CHECK(cdev->glue->dv_destroy_mkey(dvm) == 0, "destroy dv mkey");

	/* A command the device refuses: an MTT mkey over a umem that is not there. */
	mattr.umem_id = umem->umem_id + 1000;
	printf("creating an mkey over umem %u (does not exist):\n",
	       mattr.umem_id);
	CHECK(mlx5_devx_cmd_mkey_create(cdev, &mattr) == NULL,
	      "the device must refuse");
	printf("  refused: rte_errno %d (%s)\n", rte_errno,
	       rte_strerror(rte_errno));

	CHECK(mlx5_devx_cmd_destroy(klm_mkey) == 0, "destroy KLM");
	CHECK(mlx5_devx_cmd_destroy(mtt) == 0, "destroy MTT");
	CHECK(cdev->glue->devx_umem_dereg(umem) == 0, "umem dereg");
	free(buf);
}

static void
demo_pacing(struct mlx5_common_device *cdev)
{
	struct mlx5_pp_attr attr = { .rate_kbps = 10000 };
	struct mlx5_pp_entry *a, *b, *c, *bad = NULL;

	CHECK(mlx5_pp_alloc(cdev, &attr, &a) == 0, "shared entry");
	CHECK(mlx5_pp_alloc(cdev, &attr, &b) == 0, "shared entry");
	attr.dedicated = true;
	CHECK(mlx5_pp_alloc(cdev, &attr, &c) == 0, "dedicated entry");
	printf("pacing 10 Mbps: shared -> index %u, shared again -> index %u, dedicated -> index %u\n",
	       a->index, b->index, c->index);
	attr.rate_kbps = cdev->caps.qos.max_rate_kbps + 1;
	CHECK(mlx5_pp_alloc(cdev, &attr, &bad) < 0, "out-of-range rate");
	printf("pacing at %u kbps (above the device maximum): refused, %s\n",
	       attr.rate_kbps, rte_strerror(rte_errno));
	CHECK(mlx5_pp_free(cdev, a) == 0 && mlx5_pp_free(cdev, b) == 0 &&
	      mlx5_pp_free(cdev, c) == 0, "free entries");
}

/* The datapath's lkey lookups: DPDK memory, a mempool, the device agrees. */
static void
demo_mr(struct mlx5_common_device *cdev, struct demo_dma *d)
{
	char msg[] = "written through a looked-up lkey";
	struct mlx5_mr_stats st;
	struct mlx5_mr_ctrl ctrl;
	struct rte_mempool *mp;
	struct rte_mbuf *m;
	uint8_t syndrome;
	uint32_t lkey, again;
	char *buf;

	CHECK(mlx5_mr_ctrl_init(&ctrl, cdev, SOCKET_ID_ANY) == 0,
	      "queue MR control");
	buf = rte_malloc(NULL, 64 * 1024, 0);
	CHECK(buf != NULL, "DPDK memory");
	lkey = mlx5_mr_addr2lkey(&ctrl, (uintptr_t)buf + 100);
	CHECK(lkey != MLX5_MR_LKEY_INVALID, "lookup (registers on demand)");
	again = mlx5_mr_addr2lkey(&ctrl, (uintptr_t)buf + 5000);
	CHECK(again == lkey, "second lookup: the most recent range");
	CHECK(demo_dev_write(d, lkey, (uintptr_t)buf + 100, msg, sizeof(msg),
			     &syndrome) == 0 && strcmp(buf + 100, msg) == 0,
	      "the device accepts the lkey");
	printf("MR cache: rte_malloc'd buffer -> lkey 0x%08x (registered on the first lookup, the next one hit the queue's most recent range); the device wrote \"%s\" through it\n",
	       lkey, buf + 100);
	mp = rte_pktmbuf_pool_create("demo_pool", 511, 0, 0,
				     RTE_MBUF_DEFAULT_BUF_SIZE, SOCKET_ID_ANY);
	CHECK(mp != NULL, "mempool");
	m = rte_pktmbuf_alloc(mp);
	CHECK(m != NULL, "mbuf");
	lkey = mlx5_mr_mb2lkey(&ctrl, m);
	CHECK(lkey != MLX5_MR_LKEY_INVALID, "mbuf lookup");
	CHECK(mlx5_mr_stats(cdev, &st) == 0, "MR stats");
	printf("MR cache: mbuf of mempool %s -> lkey 0x%08x; %u MR(s) live, %u mempool(s) registered at creation\n",
	       mp->name, lkey, st.mrs, st.mempools);
	rte_pktmbuf_free(m);
	rte_mempool_free(mp);
	rte_free(buf);
	mlx5_mr_ctrl_free(&ctrl);
}

int
main(int argc, char **argv)
{
	struct mlx5_common_device *cdev;
	struct rte_device *dev;
	struct rte_bus *vdev_bus;
	struct demo_dma dma;

	setvbuf(stdout, NULL, _IOLBF, 0);
	CHECK(rte_eal_init(argc, argv) >= 0, "EAL init");
	vdev_bus = rte_bus_find_by_name("vdev");
	dev = vdev_bus->find_device(NULL, cmp_name, DEMO_DEV);
	if (dev == NULL) {
		CHECK(rte_vdev_init(DEMO_DEV, DEMO_ARGS) == 0, "probe "
		      DEMO_DEV);
		dev = vdev_bus->find_device(NULL, cmp_name, DEMO_DEV);
	}
	cdev = mlx5_common_dev_get(dev);
	CHECK(cdev != NULL, "common device");
	show_caps(cdev);
	demo_dma_init(cdev, &dma);
	demo_mkeys(cdev, &dma);
	demo_pacing(cdev);
	demo_mr(cdev, &dma);
	demo_dma_fini(&dma);
	CHECK(rte_vdev_uninit(DEMO_DEV) == 0, "remove");
	printf("removed %s (the test suites check that a removal leaves the device empty)\n",
	       DEMO_DEV);
	rte_eal_cleanup();
	printf("demo finished: OK\n");
	return 0;
}
