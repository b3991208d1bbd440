/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * The public rte_pmd_mlx5 API on a simulated BlueField card: a host vHCA
 * exports memory, a DPU vHCA maps it (crossing mkey and keyed alias) and
 * moves bytes through the device; every documented errno is provoked, keys
 * are reference counted, calls race from several threads, and every teardown
 * leaves the device empty.
 *
 * On real devices the host is MLX5_TEST_DEVICE (slot 0) and the DPU is
 * MLX5_TEST_DEVICE2 (slot 1), another function of the same card; without
 * the second one, the cases that need two vHCAs skip.
 */

#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <sys/mman.h>

#include <rte_mbuf.h>
#include <rte_mbuf_dyn.h>

#include <rte_pmd_mlx5.h>

#include "mlx5_test.h"
#include "mlx5_test_dev.h"
#include "mlx5_test_sim.h"

#define CARD 50
#define HOST_VHCA 1
#define DPU_VHCA 2
#define BUF_LEN (64 * 1024)

static struct rte_device *host, *dpu;
static struct mlx5_common_device *host_cdev, *dpu_cdev;
static uint8_t *host_buf;
static const uint8_t key_a[RTE_PMD_MLX5_ACCESS_KEY_LEN] = "an access key of 32 bytes......";
static const uint8_t key_b[RTE_PMD_MLX5_ACCESS_KEY_LEN] = "another key, also 32 bytes.....";

/* True when the DPU slot is probed: always on the software device. */
static bool
vhca_have_dpu(void)
{
	return !tdev_hw() || tdev_slot_hw(1);
}

static int
vhca_case_setup(void)
{
	if (tdev_probe(0, "card=50,vhca_id=1") != 0)
		return TEST_FAILED;
	if (vhca_have_dpu() && tdev_probe(1, "card=50,vhca_id=2") != 0)
		return TEST_FAILED;
	host = tdev_eal_dev(0);
	host_cdev = tdev_cdev(0);
	dpu = vhca_have_dpu() ? tdev_eal_dev(1) : NULL;
	dpu_cdev = vhca_have_dpu() ? tdev_cdev(1) : NULL;
	host_buf = aligned_alloc(4096, BUF_LEN);
	if (host_buf == NULL)
		return TEST_FAILED;
	for (int i = 0; i < BUF_LEN; i++)
		host_buf[i] = (uint8_t)(i * 13 + 5);
	return TEST_SUCCESS;
}

static void
vhca_case_teardown(void)
{
	tdev_remove(3);
	tdev_remove(2);
	tdev_remove(1);
	tdev_remove(0);
	free(host_buf);
	host_buf = NULL;
}

/* The vHCA id of @slot: the case setup's on the software device. */
static uint16_t
vhca_id_of(unsigned int slot)
{
	if (tdev_slot_hw(slot))
		return tdev_cdev(slot)->caps.vhca_id;
	return slot == 0 ? HOST_VHCA : DPU_VHCA;
}

/*
 * On a real device, skip a case that needs a capability the device lacks.
 * The software devices of the case setup have them all: there a missing
 * one is a failure, not a skip.
 */
#define VHCA_NEED(cond, fmt, ...) do { \
	if (tdev_hw() && !(cond)) \
		TEST_SKIP(fmt, ##__VA_ARGS__); \
} while (0)

/* The host exports: it grants its mkeys to other vHCAs. */
#define VHCA_NEED_EXPORT() \
	VHCA_NEED(host_cdev->caps.allowed_object_for_other_vhca_access & \
		  MLX5_ALLOWED_OBJ_FOR_OTHER_VHCA_ACCESS_MKEY, \
		  "device %s lacks allowed_object_for_other_vhca_access (MKEY): it cannot export memory", \
		  tdev_name(0))

/* The DPU maps an export through a crossing mkey. */
#define VHCA_NEED_CROSSING() \
	VHCA_NEED(dpu_cdev->caps.crossing_vhca_mkey, \
		  "device %s lacks crossing_vhca_mkey: it cannot create crossing mkeys", \
		  tdev_name(1))

/* The DPU maps an export through an alias object. */
#define VHCA_NEED_ALIAS() \
	VHCA_NEED(dpu_cdev->caps.cross_vhca_object_to_object_supported & \
		  MLX5_CROSS_VHCA_OBJ_TO_OBJ_LOCAL_MKEY_TO_REMOTE_MKEY, \
		  "device %s lacks cross_vhca_object_to_object_supported (LOCAL_MKEY_TO_REMOTE_MKEY): it cannot create alias mkeys", \
		  tdev_name(1))

/* Both vHCAs, and every capability of export, crossing and alias. */
#define VHCA_NEED_CROSS_VHCA() do { \
	TDEV_NEED_SLOT1(); \
	VHCA_NEED_EXPORT(); \
	VHCA_NEED_CROSSING(); \
	VHCA_NEED_ALIAS(); \
} while (0)

/* The DPU reads/writes host memory through @iova's key. */
static int
dpu_dma(rte_iova_t iova, uintptr_t addr, void *buf, size_t len, bool write,
	uint8_t *syn)
{
	return tdev_access(1, dpu_cdev->pdn, rte_pmd_mlx5_iova_to_mkey(iova),
			   addr, buf, len, write, syn);
}

static int
test_dyn_flags(void)
{
	char a[RTE_MBUF_DYN_NAMESIZE], b[RTE_MBUF_DYN_NAMESIZE];
	char *names[2] = { a, b };
	char *holes[2] = { a, NULL };
	struct rte_mbuf m;

	/* Only the flag the drivers honour (net/mlx5: private IOVA). */
	TEST_ASSERT_EQUAL(rte_pmd_common_mlx5_get_dyn_flag_names(names, 2), 1,
			  "");
	TEST_ASSERT(strcmp(a, RTE_PMD_MLX5_PRIVATE_IOVA) == 0, "%s", a);
	TEST_ASSERT(strcmp(a, "mlx5_private_iova") == 0, "spelled right");
	TEST_ASSERT_EQUAL(rte_pmd_common_mlx5_get_dyn_flag_names(names, 0),
			  -ENOMEM, "n too small");
	holes[0] = NULL;
	TEST_ASSERT_EQUAL(rte_pmd_common_mlx5_get_dyn_flag_names(holes, 2),
			  -EINVAL, "NULL entry");
	RTE_SET_USED(b);
	TEST_ASSERT_EQUAL(rte_pmd_common_mlx5_get_dyn_flag_names(NULL, 2),
			  -EINVAL, "NULL array");
	TEST_ASSERT(rte_mbuf_dynflag_lookup(RTE_PMD_MLX5_PRIVATE_IOVA, NULL) >= 0,
		    "registered when a device was probed");
	TEST_ASSERT(rte_pmd_mlx5_private_iova_flag() != 0, "");
	memset(&m, 0, sizeof(m));
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5_mbuf_set_private_iova(&m,
			    rte_pmd_mlx5_mkey_to_iova(0x1234)), "");
	TEST_ASSERT(m.ol_flags & rte_pmd_mlx5_private_iova_flag(), "flag set");
	TEST_ASSERT_EQUAL(rte_pmd_mlx5_iova_to_mkey(m.buf_iova), 0x1234, "");
	TEST_ASSERT_EQUAL(m.buf_iova & 0xffffffff, 0, "lower 32 bits are 0");
	return TEST_SUCCESS;
}

static int
test_ctx_pd_vhca_id(void)
{
	struct rte_device fake = { .name = "fake0" };
	void *ctx = NULL, *pd = NULL;
	uint16_t id = 0;

	TEST_ASSERT_SUCCESS(rte_pmd_mlx5_get_dev_ctx_and_pd(host, &ctx, &pd), "");
	TEST_ASSERT(ctx == host_cdev->ctx && pd == host_cdev->pd, "");
	/* One rule: a NULL device is ENODEV, as an unknown one. */
	TEST_ASSERT_EQUAL(rte_pmd_mlx5_get_dev_ctx_and_pd(NULL, &ctx, &pd),
			  -ENODEV, "");
	TEST_ASSERT_EQUAL(rte_errno, ENODEV, "");
	TEST_ASSERT_EQUAL(rte_pmd_mlx5_get_vhca_id(NULL, &id), -ENODEV, "");
	TEST_ASSERT_EQUAL(rte_pmd_mlx5_get_vhca_id(NULL, NULL), -ENODEV,
			  "the device is checked first");
	TEST_ASSERT_EQUAL(rte_pmd_mlx5_export_mem(NULL, host_buf, 64, NULL,
			  NULL, NULL), -ENODEV, "the device is checked first");
	TEST_ASSERT_EQUAL(rte_pmd_mlx5_release_key(NULL, 1), -ENODEV, "");
	TEST_ASSERT_EQUAL(rte_pmd_mlx5_get_dev_ctx_and_pd(host, NULL, &pd),
			  -EINVAL, "");
	TEST_ASSERT_EQUAL(rte_pmd_mlx5_get_dev_ctx_and_pd(host, &ctx, NULL),
			  -EINVAL, "");
	TEST_ASSERT_EQUAL(rte_pmd_mlx5_get_dev_ctx_and_pd(&fake, &ctx, &pd),
			  -ENODEV, "not an mlx5 device");
	TEST_ASSERT_EQUAL(rte_errno, ENODEV, "");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5_get_vhca_id(host, &id), "");
	TEST_ASSERT_EQUAL(id, vhca_id_of(0), "");
	if (dpu != NULL) {
		TEST_ASSERT_SUCCESS(rte_pmd_mlx5_get_vhca_id(dpu, &id), "");
		TEST_ASSERT_EQUAL(id, vhca_id_of(1), "");
		TEST_ASSERT(vhca_id_of(1) != vhca_id_of(0),
			    "two vHCAs of the card");
	}
	TEST_ASSERT_EQUAL(rte_pmd_mlx5_get_vhca_id(&fake, &id), -ENODEV, "");
	TEST_ASSERT_EQUAL(rte_pmd_mlx5_get_vhca_id(host, NULL), -EINVAL, "");
	return TEST_SUCCESS;
}

static int
test_crossing_dma(void)
{
	long host_live = tdev_live(0);
	long dpu_live = tdev_live(1);
	uint8_t back[256], data[256], syn = 0;
	rte_iova_t iova, again;
	uint16_t vhca;
	uint32_t mkey;

	TDEV_NEED_SLOT1();
	VHCA_NEED_EXPORT();
	VHCA_NEED_CROSSING();
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5_export_mem(host, host_buf, BUF_LEN,
			    key_a, &vhca, &mkey), "export");
	TEST_ASSERT_EQUAL(vhca, vhca_id_of(0), "");
	iova = rte_pmd_mlx5_create_cross_vhca_mkey(dpu, vhca, mkey);
	TEST_ASSERT(iova != 0, "crossing mkey (rte_errno %d)", rte_errno);
	TEST_ASSERT_EQUAL(iova & 0xffffffff, 0, "mkey in the upper 32 bits");
	TEST_ASSERT_SUCCESS(dpu_dma(iova, (uintptr_t)host_buf + 1000, back,
				    sizeof(back), false, &syn), "DPU reads host");
	TEST_ASSERT(memcmp(back, host_buf + 1000, sizeof(back)) == 0, "bytes");
	for (size_t i = 0; i < sizeof(data); i++)
		data[i] = (uint8_t)~i;
	TEST_ASSERT_SUCCESS(dpu_dma(iova, (uintptr_t)host_buf + BUF_LEN - 256,
				    data, sizeof(data), true, &syn),
			    "DPU writes host");
	TEST_ASSERT(memcmp(host_buf + BUF_LEN - 256, data, sizeof(data)) == 0,
		    "host sees the DPU's bytes");
	TEST_ASSERT(dpu_dma(iova, (uintptr_t)host_buf + BUF_LEN - 8, data, 16,
			    false, &syn) < 0, "past the exported range");
	TEST_ASSERT(tdev_access(1, dpu_cdev->pdn + 1,
		rte_pmd_mlx5_iova_to_mkey(iova), (uintptr_t)host_buf, back, 8,
		false, &syn) < 0, "the importer's PD is enforced");

	/* The same mapping again is a new key: the device is asked anew. */
	again = rte_pmd_mlx5_create_cross_vhca_mkey(dpu, vhca, mkey);
	TEST_ASSERT(again != 0 && again != iova, "a key of its own");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5_release_key(dpu, again), "");
	TEST_ASSERT_SUCCESS(dpu_dma(iova, (uintptr_t)host_buf, back, 8, false,
				    &syn), "the first key is untouched");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5_release_key(dpu, iova), "");
	TEST_ASSERT_EQUAL(rte_pmd_mlx5_release_key(dpu, iova), -ENOENT,
			  "double release");
	TEST_ASSERT_EQUAL(rte_errno, ENOENT, "");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5_release_key(host, mkey),
			    "an mkey value releases too");
	TDEV_ASSERT_LIVE(0, host_live, "");
	TDEV_ASSERT_LIVE(1, dpu_live, "");
	return TEST_SUCCESS;
}

/*
 * An export is a DEVX mkey over a umem of the range, granted: no verbs MR
 * (made by the kernel with uid 0, whose grant is not known to work).
 */
static int
test_export_is_devx_mkey(void)
{
	struct mlx5_sim_stats before, with, after;
	uint16_t vhca;
	uint32_t mkey;

	TDEV_SIM_ONLY("counts the exporter's objects by kind (MRs, mkeys, umems, grants)");
	TEST_ASSERT_SUCCESS(mlx5_sim_vhca_stats(CARD, HOST_VHCA, &before), "");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5_export_mem(host, host_buf + 100,
			    BUF_LEN - 200, key_a, &vhca, &mkey), "");
	TEST_ASSERT_SUCCESS(mlx5_sim_vhca_stats(CARD, HOST_VHCA, &with), "");
	TEST_ASSERT_EQUAL(with.mrs, before.mrs, "no verbs MR");
	TEST_ASSERT_EQUAL(with.mkeys, before.mkeys + 1, "one DEVX mkey");
	TEST_ASSERT_EQUAL(with.umems, before.umems + 1, "over one umem");
	TEST_ASSERT_EQUAL(with.allowed, before.allowed + 1, "granted");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5_release_key(host, mkey), "");
	TEST_ASSERT_SUCCESS(mlx5_sim_vhca_stats(CARD, HOST_VHCA, &after), "");
	TEST_ASSERT_EQUAL(after.live_objects, before.live_objects,
			  "all of it goes at release");
	return TEST_SUCCESS;
}

static int
test_alias_dma(void)
{
	long dpu_live = tdev_live(1);
	uint8_t back[64], syn;
	rte_iova_t iova;
	uint16_t vhca;
	uint32_t mkey;

	TDEV_NEED_SLOT1();
	VHCA_NEED_EXPORT();
	VHCA_NEED_ALIAS();
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5_export_mem(host, host_buf, BUF_LEN,
			    key_a, &vhca, &mkey), "");
	TEST_ASSERT(rte_pmd_mlx5_import_mem(dpu, vhca, mkey, key_b) == 0,
		    "wrong access key");
	TEST_ASSERT_EQUAL(rte_errno, EINVAL, "");
	TEST_ASSERT(rte_pmd_mlx5_import_mem(dpu, vhca, mkey, NULL) == 0, "");
	TEST_ASSERT_EQUAL(rte_errno, EINVAL, "NULL key");
	TDEV_ASSERT_LIVE(1, dpu_live, "refusals leave nothing");
	iova = rte_pmd_mlx5_import_mem(dpu, vhca, mkey, key_a);
	TEST_ASSERT(iova != 0, "alias (rte_errno %d)", rte_errno);
	TEST_ASSERT_SUCCESS(dpu_dma(iova, (uintptr_t)host_buf + 4096, back,
				    sizeof(back), false, &syn), "");
	TEST_ASSERT(memcmp(back, host_buf + 4096, sizeof(back)) == 0, "");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5_release_key(dpu, iova), "");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5_release_key(host, mkey), "");
	TDEV_ASSERT_LIVE(1, dpu_live, "");
	return TEST_SUCCESS;
}

static int
test_import_errors(void)
{
	long dpu_live = tdev_live(1);
	struct rte_device *other;
	uint16_t vhca;
	uint32_t mkey, never;
	void *ctx, *pd;

	VHCA_NEED_CROSS_VHCA();
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5_export_mem(host, host_buf, 4096,
			    key_a, &vhca, &mkey), "");
	/* An mkey the host registered but never exported. */
	never = rte_pmd_mlx5_iova_to_mkey(rte_pmd_mlx5_get_buf_private_iova(host,
		host_buf + 8192, 4096));
	TEST_ASSERT(never != 0, "");
	TEST_ASSERT(rte_pmd_mlx5_create_cross_vhca_mkey(dpu, vhca, never) == 0,
		    "crossing to a never-exported mkey");
	TEST_ASSERT_EQUAL(rte_errno, EINVAL, "");
	TEST_ASSERT(rte_pmd_mlx5_import_mem(dpu, vhca, never, key_a) == 0,
		    "alias of a never-exported mkey");
	TEST_ASSERT_EQUAL(rte_errno, EINVAL, "");
	TEST_ASSERT(rte_pmd_mlx5_create_cross_vhca_mkey(dpu, 999, mkey) == 0,
		    "unknown vHCA");
	TEST_ASSERT_EQUAL(rte_errno, EINVAL, "");
	TEST_ASSERT(rte_pmd_mlx5_create_cross_vhca_mkey(dpu, 70000, mkey) == 0,
		    "vHCA id out of range");
	TEST_ASSERT_EQUAL(rte_errno, EINVAL, "");
	TEST_ASSERT(rte_pmd_mlx5_create_cross_vhca_mkey(dpu, vhca,
		    mkey + 0x100000) == 0, "an mkey that does not exist");
	TEST_ASSERT_EQUAL(rte_errno, EINVAL, "");
	TEST_ASSERT(rte_pmd_mlx5_create_cross_vhca_mkey(NULL, vhca, mkey) == 0,
		    "NULL device");
	TEST_ASSERT_EQUAL(rte_errno, ENODEV, "");

	/*
	 * A vHCA of another card cannot be reached: a software device of
	 * card 51 (real devices of two cards are not in the harness).
	 */
	if (!tdev_hw()) {
		TEST_ASSERT_SUCCESS(sim_probe("mlx5_sim2", "card=51,vhca_id=2"),
				    "");
		other = sim_eal_dev("mlx5_sim2");
		TEST_ASSERT(rte_pmd_mlx5_create_cross_vhca_mkey(other, vhca,
								mkey) == 0,
			    "other card");
		TEST_ASSERT_EQUAL(rte_errno, EINVAL, "");
		TEST_ASSERT(rte_pmd_mlx5_import_mem(other, vhca, mkey,
						    key_a) == 0, "");
		TEST_ASSERT_EQUAL(rte_errno, EINVAL, "");
		TEST_ASSERT_SUCCESS(rte_pmd_mlx5_get_dev_ctx_and_pd(other, &ctx,
								    &pd), "");
		TEST_ASSERT_SUCCESS(sim_remove("mlx5_sim2"), "");
		TEST_ASSERT_EQUAL(sim_live(51, 2), 0, "");
	}

	TEST_ASSERT_SUCCESS(rte_pmd_mlx5_release_key(host, mkey), "");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5_release_key(host, never), "");
	TDEV_ASSERT_LIVE(1, dpu_live, "");
	return TEST_SUCCESS;
}

static int
test_export_errors(void)
{
	long host_live = tdev_live(0);
	struct rte_device fake = { .name = "fake0" };
	uint16_t vhca;
	uint32_t mkey;
	void *hole;

	VHCA_NEED_EXPORT();
	TEST_ASSERT_EQUAL(rte_pmd_mlx5_export_mem(host, host_buf, 0, key_a,
		&vhca, &mkey), -EINVAL, "zero length");
	TEST_ASSERT_EQUAL(rte_pmd_mlx5_export_mem(host, NULL, 10, key_a,
		&vhca, &mkey), -EINVAL, "NULL address");
	TEST_ASSERT_EQUAL(rte_pmd_mlx5_export_mem(host,
		(void *)(UINTPTR_MAX - 10), 100, key_a, &vhca, &mkey), -EINVAL,
		"wrapping range");
	TEST_ASSERT_EQUAL(rte_pmd_mlx5_export_mem(host, host_buf, 10, NULL,
		&vhca, &mkey), -EINVAL, "NULL key");
	TEST_ASSERT_EQUAL(rte_pmd_mlx5_export_mem(&fake, host_buf, 10, key_a,
		&vhca, &mkey), -ENODEV, "");
	hole = mmap(NULL, 8192, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	TEST_ASSERT(hole != MAP_FAILED, "");
	munmap(hole, 8192);
	TEST_ASSERT_EQUAL(rte_pmd_mlx5_export_mem(host, hole, 8192, key_a,
		&vhca, &mkey), -EFAULT, "unmapped range");
	TDEV_ASSERT_LIVE(0, host_live, "");
	return TEST_SUCCESS;
}

static int
test_revoke(void)
{
	long dpu_live = tdev_live(1);
	rte_iova_t cross, alias;
	uint8_t back[16], syn = 0;
	uint16_t vhca;
	uint32_t mkey;

	VHCA_NEED_CROSS_VHCA();
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5_export_mem(host, host_buf, BUF_LEN,
			    key_a, &vhca, &mkey), "");
	cross = rte_pmd_mlx5_create_cross_vhca_mkey(dpu, vhca, mkey);
	alias = rte_pmd_mlx5_import_mem(dpu, vhca, mkey, key_a);
	TEST_ASSERT(cross != 0 && alias != 0, "");
	TEST_ASSERT_SUCCESS(dpu_dma(cross, (uintptr_t)host_buf, back, 16, false,
				    &syn), "");
	/* The host revokes: its mkey is destroyed. */
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5_release_key(host, mkey), "revoke");
	syn = 0;
	TEST_ASSERT(dpu_dma(cross, (uintptr_t)host_buf, back, 16, false, &syn)
		    < 0, "crossing access after revocation");
	TEST_ASSERT(syn != 0, "an error CQE syndrome");
	TEST_ASSERT(dpu_dma(alias, (uintptr_t)host_buf, back, 16, true, &syn)
		    < 0, "alias access after revocation");
	/* The importer can still release its now-dead keys. */
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5_release_key(dpu, cross), "");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5_release_key(dpu, alias), "");
	TDEV_ASSERT_LIVE(1, dpu_live, "");
	return TEST_SUCCESS;
}

/*
 * After a revocation (the owner's release, or its removal: its exports go
 * with it), a new request fails as the header says (0, EINVAL) while the
 * importer still holds keys of the revoked export: it never gets one of
 * those back.
 */
static int
request_after_revocation(bool remove_owner)
{
	long dpu_live = tdev_live(1);
	rte_iova_t cross, alias;
	uint16_t vhca;
	uint32_t mkey;

	VHCA_NEED_CROSS_VHCA();
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5_export_mem(host, host_buf, BUF_LEN,
			    key_a, &vhca, &mkey), "");
	cross = rte_pmd_mlx5_create_cross_vhca_mkey(dpu, vhca, mkey);
	alias = rte_pmd_mlx5_import_mem(dpu, vhca, mkey, key_a);
	TEST_ASSERT(cross != 0 && alias != 0, "");
	if (remove_owner)
		TEST_ASSERT_SUCCESS(tdev_remove(0), "the owner goes");
	else
		TEST_ASSERT_SUCCESS(rte_pmd_mlx5_release_key(host, mkey),
				    "revoke");
	rte_errno = 0;
	TEST_ASSERT(rte_pmd_mlx5_create_cross_vhca_mkey(dpu, vhca, mkey) == 0,
		    "crossing request after revocation");
	TEST_ASSERT_EQUAL(rte_errno, EINVAL, "");
	rte_errno = 0;
	TEST_ASSERT(rte_pmd_mlx5_import_mem(dpu, vhca, mkey, key_a) == 0,
		    "alias request after revocation");
	TEST_ASSERT_EQUAL(rte_errno, EINVAL, "");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5_release_key(dpu, cross), "");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5_release_key(dpu, alias), "");
	TDEV_ASSERT_LIVE(1, dpu_live, "");
	if (remove_owner)
		TDEV_ASSERT_LIVE(0, 0, "");
	return TEST_SUCCESS;
}

static int
test_revoke_then_request(void)
{
	return request_after_revocation(false);
}

static int
test_owner_removed_then_request(void)
{
	return request_after_revocation(true);
}

/*
 * The owner exports the same memory again after a release: the mkey value
 * never comes back within 255 exports (the common layer rotates the key's
 * variant byte on every mkey it creates, as the kernel does, and the
 * software device does not hand the index just freed out again while
 * others are free), so a stale key cannot work by coincidence; the
 * importer's keys of the first export stay dead, and a new request on the
 * new export is honoured.
 */
static int
test_reexport_new_value(void)
{
	long dpu_live = tdev_live(1);
	rte_iova_t cross, alias, cross2, alias2;
	uint8_t back[32], syn = 0;
	uint16_t vhca;
	uint32_t mkey, mkey2 = 0;

	VHCA_NEED_CROSS_VHCA();
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5_export_mem(host, host_buf, BUF_LEN,
			    key_a, &vhca, &mkey), "");
	cross = rte_pmd_mlx5_create_cross_vhca_mkey(dpu, vhca, mkey);
	alias = rte_pmd_mlx5_import_mem(dpu, vhca, mkey, key_a);
	TEST_ASSERT(cross != 0 && alias != 0, "");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5_release_key(host, mkey), "revoke");
	for (unsigned int i = 0; i < 255; i++) {
		if (i != 0)
			TEST_ASSERT_SUCCESS(rte_pmd_mlx5_release_key(host,
					    mkey2), "");
		TEST_ASSERT_SUCCESS(rte_pmd_mlx5_export_mem(host, host_buf,
				    BUF_LEN, key_a, &vhca, &mkey2),
				    "export again");
		TEST_ASSERT(mkey2 != mkey,
			    "export %u after the release: mkey 0x%x again", i,
			    mkey);
		/* The software device's index: not the one just freed. */
		TEST_ASSERT(i != 0 || tdev_hw() || (mkey2 >> 8) != (mkey >> 8),
			    "the index just freed handed out again (0x%x)",
			    mkey2);
	}
	TEST_ASSERT(dpu_dma(cross, (uintptr_t)host_buf, back, 8, false, &syn)
		    < 0, "the old crossing key stays dead");
	TEST_ASSERT(dpu_dma(alias, (uintptr_t)host_buf, back, 8, false, &syn)
		    < 0, "the old alias stays dead");
	cross2 = rte_pmd_mlx5_create_cross_vhca_mkey(dpu, vhca, mkey2);
	alias2 = rte_pmd_mlx5_import_mem(dpu, vhca, mkey2, key_a);
	TEST_ASSERT(cross2 != 0 && alias2 != 0, "imported afresh");
	TEST_ASSERT_SUCCESS(dpu_dma(cross2, (uintptr_t)host_buf + 64, back,
				    sizeof(back), false, &syn),
			    "the new crossing key works (syndrome 0x%x)", syn);
	TEST_ASSERT(memcmp(back, host_buf + 64, sizeof(back)) == 0, "");
	TEST_ASSERT_SUCCESS(dpu_dma(alias2, (uintptr_t)host_buf + 64, back,
				    sizeof(back), false, &syn),
			    "the new alias works (syndrome 0x%x)", syn);
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5_release_key(dpu, cross), "");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5_release_key(dpu, alias), "");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5_release_key(dpu, cross2), "");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5_release_key(dpu, alias2), "");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5_release_key(host, mkey2), "");
	TDEV_ASSERT_LIVE(1, dpu_live, "");
	return TEST_SUCCESS;
}

/* Importers racing the owner's revocation (release or removal). */
#define REVOKE_THREADS 3

struct revoke_race {
	uint16_t vhca;
	uint32_t mkey;
	int started;
	int revoked;             /* Set once the revocation returned. */
	unsigned int granted;    /* Keys obtained. */
	unsigned int late;       /* Requests begun after the revocation. */
	unsigned int late_granted; /* ... that were granted: must stay 0. */
	unsigned int wrong;      /* Failures other than EINVAL. */
};

static void *
revoke_importer(void *p)
{
	struct revoke_race *r = p;
	uint8_t back[8], syn;

	for (unsigned int i = 0; ; i++) {
		bool late = __atomic_load_n(&r->revoked, __ATOMIC_ACQUIRE);
		rte_iova_t iova = i % 2 ?
			rte_pmd_mlx5_import_mem(dpu, r->vhca, r->mkey, key_a) :
			rte_pmd_mlx5_create_cross_vhca_mkey(dpu, r->vhca,
							    r->mkey);

		if (iova != 0) {
			__atomic_fetch_add(&r->granted, 1, __ATOMIC_RELAXED);
			if (late)
				__atomic_fetch_add(&r->late_granted, 1,
						   __ATOMIC_RELAXED);
			/* Live or revoked meanwhile: an answer, never a crash. */
			(void)dpu_dma(iova, (uintptr_t)host_buf, back,
				      sizeof(back), false, &syn);
			if (rte_pmd_mlx5_release_key(dpu, iova) != 0)
				__atomic_fetch_add(&r->wrong, 1,
						   __ATOMIC_RELAXED);
		} else if (rte_errno != EINVAL) {
			__atomic_fetch_add(&r->wrong, 1, __ATOMIC_RELAXED);
		}
		__atomic_store_n(&r->started, 1, __ATOMIC_RELEASE);
		if (late && __atomic_add_fetch(&r->late, 1,
					       __ATOMIC_RELAXED) >= 200)
			break;
	}
	return NULL;
}

static int
revoke_race(bool remove_owner)
{
	long dpu_live = tdev_live(1);
	struct revoke_race r = { 0 };
	pthread_t th[REVOKE_THREADS];
	unsigned int t;

	VHCA_NEED_CROSS_VHCA();
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5_export_mem(host, host_buf, BUF_LEN,
			    key_a, &r.vhca, &r.mkey), "");
	for (t = 0; t < REVOKE_THREADS; t++)
		TEST_ASSERT_SUCCESS(pthread_create(&th[t], NULL,
						   revoke_importer, &r), "");
	while (__atomic_load_n(&r.granted, __ATOMIC_RELAXED) < 100)
		sched_yield();
	if (remove_owner)
		TEST_ASSERT_SUCCESS(tdev_remove(0), "remove");
	else
		TEST_ASSERT_SUCCESS(rte_pmd_mlx5_release_key(host, r.mkey), "");
	__atomic_store_n(&r.revoked, 1, __ATOMIC_RELEASE);
	for (t = 0; t < REVOKE_THREADS; t++)
		pthread_join(th[t], NULL);
	printf("    %u keys granted, %u requests after the %s, %u of them granted\n",
	       r.granted, r.late, remove_owner ? "removal" : "release",
	       r.late_granted);
	TEST_ASSERT_EQUAL(r.late_granted, 0,
			  "no key once the revocation returned");
	TEST_ASSERT_EQUAL(r.wrong, 0, "only EINVAL, every release accepted");
	TDEV_ASSERT_LIVE(1, dpu_live, "every importer key came back");
	if (remove_owner)
		TDEV_ASSERT_LIVE(0, 0, "");
	return TEST_SUCCESS;
}

static int
test_import_races_release(void)
{
	return revoke_race(false);
}

static int
test_import_races_remove(void)
{
	return revoke_race(true);
}

/* A release value that is neither an mkey nor an IOVA changes nothing. */
static int
test_release_bad_value(void)
{
	uint8_t back[8], syn = 0;
	rte_iova_t iova;

	iova = rte_pmd_mlx5_get_buf_private_iova(host, host_buf, 4096);
	TEST_ASSERT(iova != 0, "");
	TEST_ASSERT_EQUAL(rte_pmd_mlx5_release_key(host, iova | 0x1234),
			  -EINVAL, "low bits set");
	TEST_ASSERT_EQUAL(rte_errno, EINVAL, "");
	TEST_ASSERT_EQUAL(rte_pmd_mlx5_release_key(host, iova | 1), -EINVAL,
			  "");
	TEST_ASSERT_SUCCESS(tdev_access(0, host_cdev->pdn,
			    rte_pmd_mlx5_iova_to_mkey(iova), (uintptr_t)host_buf,
			    back, sizeof(back), false, &syn),
			    "the key is still live");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5_release_key(host, iova), "");
	TEST_ASSERT_EQUAL(rte_pmd_mlx5_release_key(host, iova), -ENOENT, "");
	return TEST_SUCCESS;
}

/* A DEVX MTT mkey of @cdev over @umem, marked or not, granted or not. */
static struct mlx5_devx_obj *
devx_target(struct mlx5_common_device *cdev, struct mlx5dv_devx_umem *umem,
	    void *va, bool mark, bool grant)
{
	struct mlx5_devx_mkey_attr attr = {
		.access_mode = MLX5_MKC_ACCESS_MODE_MTT,
		.addr = (uintptr_t)va, .size = 4096, .pd = cdev->pdn,
		.lr = true, .lw = true, .rr = true, .rw = true,
		.umem_id = umem->umem_id, .log_page_size = 12,
		.crossed_side_mkey = mark,
	};
	struct mlx5_devx_obj *mkey = mlx5_devx_cmd_mkey_create(cdev, &attr);

	if (mkey != NULL && grant &&
	    mlx5_devx_cmd_allow_other_vhca_access(cdev,
		MLX5_GENERAL_OBJ_TYPE_MKEY, MLX5_MKEY_INDEX(mkey->id),
		key_a) != 0) {
		mlx5_devx_cmd_destroy(mkey);
		return NULL;
	}
	return mkey;
}

/*
 * What a crossing target needs is a device setting (cross_rule): the
 * driver's exports work under each; a key with only the grant or only the
 * mark works only where the rule asks for no more; a vHCA crossing to its
 * own mkey needs neither.
 */
static int
test_crossing_rules(void)
{
	static const char *const rules[] = { "grant", "mark", "both" };

	TDEV_SIM_ONLY("devices under each crossing target rule (cross_rule)");
	for (unsigned int r = 0; r < RTE_DIM(rules); r++) {
		struct mlx5_common_device *own, *imp;
		struct mlx5dv_devx_umem *umem;
		struct mlx5_devx_obj *granted, *marked, *self;
		uint16_t card = 53 + r, vhca;
		uint8_t byte = 0x5a, syn;
		uint32_t mkey;
		rte_iova_t cross;
		char args[64];

		snprintf(args, sizeof(args), "card=%u,vhca_id=1,cross_rule=%s",
			 card, rules[r]);
		TEST_ASSERT_SUCCESS(sim_probe("mlx5_sim2", args), "%s", args);
		snprintf(args, sizeof(args), "card=%u,vhca_id=2", card);
		TEST_ASSERT_SUCCESS(sim_probe("mlx5_sim3", args), "");
		own = sim_cdev("mlx5_sim2");
		imp = sim_cdev("mlx5_sim3");
		/* The driver's export: marked and granted, fine everywhere. */
		TEST_ASSERT_SUCCESS(rte_pmd_mlx5_export_mem(own->dev, host_buf,
				    4096, key_a, &vhca, &mkey), "");
		cross = rte_pmd_mlx5_create_cross_vhca_mkey(imp->dev, vhca,
							    mkey);
		TEST_ASSERT(cross != 0, "rule %s: the export is reachable",
			    rules[r]);
		TEST_ASSERT_SUCCESS(mlx5_sim_dma(imp->ctx, imp->pdn,
			rte_pmd_mlx5_iova_to_mkey(cross), (uintptr_t)host_buf,
			&byte, 1, true, &syn), "rule %s", rules[r]);
		TEST_ASSERT_SUCCESS(rte_pmd_mlx5_release_key(imp->dev, cross), "");
		TEST_ASSERT_SUCCESS(rte_pmd_mlx5_release_key(own->dev, mkey), "");
		/* Keys with half of what the strictest rule asks. */
		umem = own->glue->devx_umem_reg(own->ctx, host_buf + 4096, 4096,
						IBV_ACCESS_LOCAL_WRITE |
						IBV_ACCESS_REMOTE_WRITE |
						IBV_ACCESS_REMOTE_READ);
		TEST_ASSERT_NOT_NULL(umem, "");
		granted = devx_target(own, umem, host_buf + 4096, false, true);
		marked = devx_target(own, umem, host_buf + 4096, true, false);
		TEST_ASSERT(granted != NULL && marked != NULL, "");
		cross = rte_pmd_mlx5_create_cross_vhca_mkey(imp->dev, vhca,
							    granted->id);
		TEST_ASSERT_EQUAL(cross != 0, r == 0,
				  "rule %s: a granted, unmarked key", rules[r]);
		if (cross != 0)
			rte_pmd_mlx5_release_key(imp->dev, cross);
		cross = rte_pmd_mlx5_create_cross_vhca_mkey(imp->dev, vhca,
							    marked->id);
		TEST_ASSERT_EQUAL(cross != 0, r == 1,
				  "rule %s: a marked, ungranted key", rules[r]);
		if (cross != 0)
			rte_pmd_mlx5_release_key(imp->dev, cross);
		/* A crossing mkey to the creator's own vHCA needs neither. */
		self = devx_target(own, umem, host_buf + 4096, false, false);
		TEST_ASSERT_NOT_NULL(self, "");
		struct mlx5_devx_mkey_attr attr = {
			.access_mode = MLX5_MKC_ACCESS_MODE_CROSSING,
			.pd = own->pdn, .lr = true, .lw = true,
			.crossing_target_vhca_id = vhca,
			.crossing_target_mkey = self->id,
		};
		struct mlx5_devx_obj *own_cross =
			mlx5_devx_cmd_mkey_create(own, &attr);

		TEST_ASSERT_NOT_NULL(own_cross, "rule %s: crossing to itself",
				     rules[r]);
		TEST_ASSERT_SUCCESS(mlx5_sim_dma(own->ctx, own->pdn,
			own_cross->id, (uintptr_t)host_buf + 4096, &byte, 1,
			false, &syn), "rule %s", rules[r]);
		TEST_ASSERT_SUCCESS(mlx5_devx_cmd_destroy(own_cross), "");
		TEST_ASSERT_SUCCESS(mlx5_devx_cmd_destroy(self), "");
		TEST_ASSERT_SUCCESS(mlx5_devx_cmd_destroy(granted), "");
		TEST_ASSERT_SUCCESS(mlx5_devx_cmd_destroy(marked), "");
		TEST_ASSERT_SUCCESS(own->glue->devx_umem_dereg(umem), "");
		TEST_ASSERT_SUCCESS(sim_remove("mlx5_sim3"), "");
		TEST_ASSERT_SUCCESS(sim_remove("mlx5_sim2"), "");
		TEST_ASSERT_EQUAL(sim_live(card, 1), 0, "");
		TEST_ASSERT_EQUAL(sim_live(card, 2), 0, "");
	}
	return TEST_SUCCESS;
}

/*
 * Firmware completes an alias CREATE with a bad alias_context.status: the
 * import fails as a refusal (EINVAL) and leaves nothing on the device.
 */
static int
test_alias_bad_status(void)
{
	struct mlx5_common_device *imp;
	uint16_t vhca;
	uint32_t mkey;
	long live;

	TDEV_SIM_ONLY("firmware completing alias objects with a bad status (alias_status=2)");
	TEST_ASSERT_SUCCESS(sim_probe("mlx5_sim2", "card=50,vhca_id=4,alias_status=2"),
			    "");
	imp = sim_cdev("mlx5_sim2");
	live = sim_live(CARD, 4);
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5_export_mem(host, host_buf, 4096, key_a,
						    &vhca, &mkey), "");
	rte_errno = 0;
	TEST_ASSERT(rte_pmd_mlx5_import_mem(imp->dev, vhca, mkey, key_a) == 0,
		    "an alias created with status 2 is a refusal");
	TEST_ASSERT_EQUAL(rte_errno, EINVAL, "");
	TEST_ASSERT_EQUAL(sim_live(CARD, 4), live,
			  "the unusable alias was destroyed");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5_release_key(host, mkey), "");
	TEST_ASSERT_SUCCESS(sim_remove("mlx5_sim2"), "");
	return TEST_SUCCESS;
}

static int
test_caps_up_front(void)
{
	struct mlx5_sim_stats before, after;
	struct rte_device *nc;
	uint16_t vhca;
	uint32_t mkey;

	TDEV_SIM_ONLY("a vHCA without the cross-vHCA capabilities (crossing=0) and its command count");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5_export_mem(host, host_buf, 4096,
			    key_a, &vhca, &mkey), "");
	TEST_ASSERT_SUCCESS(sim_probe("mlx5_sim2", "card=50,vhca_id=3,crossing=0"),
			    "");
	nc = sim_eal_dev("mlx5_sim2");
	TEST_ASSERT_SUCCESS(mlx5_sim_vhca_stats(CARD, 3, &before), "");
	TEST_ASSERT(rte_pmd_mlx5_create_cross_vhca_mkey(nc, vhca, mkey) == 0, "");
	TEST_ASSERT_EQUAL(rte_errno, ENOTSUP, "no crossing_vhca_mkey");
	TEST_ASSERT(rte_pmd_mlx5_import_mem(nc, vhca, mkey, key_a) == 0, "");
	TEST_ASSERT_EQUAL(rte_errno, ENOTSUP, "no object-to-object");
	TEST_ASSERT_EQUAL(rte_pmd_mlx5_export_mem(nc, host_buf, 4096, key_a,
		&vhca, &mkey), -ENOTSUP, "cannot allow other vHCAs");
	TEST_ASSERT_SUCCESS(mlx5_sim_vhca_stats(CARD, 3, &after), "");
	TEST_ASSERT_EQUAL(after.commands, before.commands,
			  "refused before any command");
	TEST_ASSERT_SUCCESS(sim_remove("mlx5_sim2"), "");
	return TEST_SUCCESS;
}

static int
test_private_iova(void)
{
	long host_live = tdev_live(0);
	struct rte_device fake = { .name = "fake0" };
	rte_iova_t iova, inner;
	uint8_t data[32], syn;
	void *hole;

	iova = rte_pmd_mlx5_get_buf_private_iova(host, host_buf, 8192);
	TEST_ASSERT(iova != 0, "");
	TEST_ASSERT_EQUAL(iova & 0xffffffff, 0, "");
	inner = rte_pmd_mlx5_get_buf_private_iova(host, host_buf + 100, 200);
	TEST_ASSERT(inner == iova, "a covering registration is reused");
	memset(data, 0x5c, sizeof(data));
	TEST_ASSERT_SUCCESS(tdev_access(0, host_cdev->pdn,
		rte_pmd_mlx5_iova_to_mkey(iova), (uintptr_t)host_buf + 8000,
		data, sizeof(data), true, &syn), "the key works for the device");
	TEST_ASSERT(host_buf[8000] == 0x5c, "");
	TEST_ASSERT(rte_pmd_mlx5_get_buf_private_iova(host, host_buf, 0) == 0,
		    "zero length");
	TEST_ASSERT_EQUAL(rte_errno, EINVAL, "");
	TEST_ASSERT(rte_pmd_mlx5_get_buf_private_iova(host, NULL, 10) == 0, "");
	TEST_ASSERT_EQUAL(rte_errno, EINVAL, "");
	TEST_ASSERT(rte_pmd_mlx5_get_buf_private_iova(host,
		    (void *)(UINTPTR_MAX - 10), 100) == 0, "wrapping");
	TEST_ASSERT_EQUAL(rte_errno, EINVAL, "");
	TEST_ASSERT(rte_pmd_mlx5_get_buf_private_iova(&fake, host_buf, 10) == 0,
		    "");
	TEST_ASSERT_EQUAL(rte_errno, ENODEV, "");
	TEST_ASSERT(rte_pmd_mlx5_get_buf_private_iova(NULL, host_buf, 10) == 0,
		    "");
	TEST_ASSERT_EQUAL(rte_errno, ENODEV, "");
	hole = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	TEST_ASSERT(hole != MAP_FAILED, "");
	munmap(hole, 4096);
	TEST_ASSERT(rte_pmd_mlx5_get_buf_private_iova(host, hole, 4096) == 0,
		    "unmapped");
	TEST_ASSERT_EQUAL(rte_errno, EFAULT, "");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5_release_key(host, inner), "");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5_release_key(host, iova), "");
	TEST_ASSERT_EQUAL(rte_pmd_mlx5_release_key(host, iova), -ENOENT, "");
	TEST_ASSERT_EQUAL(rte_pmd_mlx5_release_key(&fake, iova), -ENODEV, "");
	TDEV_ASSERT_LIVE(0, host_live, "");
	return TEST_SUCCESS;
}

#define RACE_THREADS 4
#define RACE_LOOPS 300

struct race_arg {
	unsigned int id;
	uint16_t vhca;
	uint32_t mkey;
	int failures;
};

static void *
race_worker(void *p)
{
	struct race_arg *a = p;

	for (unsigned int i = 0; i < RACE_LOOPS; i++) {
		size_t off = ((a->id * RACE_LOOPS + i) % 15) * 4096;
		rte_iova_t priv, cross, alias;

		priv = rte_pmd_mlx5_get_buf_private_iova(host, host_buf + off,
							 4096);
		cross = rte_pmd_mlx5_create_cross_vhca_mkey(dpu, a->vhca,
							    a->mkey);
		alias = rte_pmd_mlx5_import_mem(dpu, a->vhca, a->mkey, key_a);
		if (priv == 0 || cross == 0 || alias == 0)
			a->failures++;
		if (priv && rte_pmd_mlx5_release_key(host, priv) != 0)
			a->failures++;
		if (cross && rte_pmd_mlx5_release_key(dpu, cross) != 0)
			a->failures++;
		if (alias && rte_pmd_mlx5_release_key(dpu, alias) != 0)
			a->failures++;
	}
	return NULL;
}

static int
test_concurrency(void)
{
	long host_live = tdev_live(0);
	long dpu_live = tdev_live(1);
	struct race_arg args[RACE_THREADS];
	pthread_t th[RACE_THREADS];
	uint16_t vhca;
	uint32_t mkey;

	VHCA_NEED_CROSS_VHCA();
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5_export_mem(host, host_buf, BUF_LEN,
			    key_a, &vhca, &mkey), "");
	for (unsigned int t = 0; t < RACE_THREADS; t++) {
		args[t] = (struct race_arg){ .id = t, .vhca = vhca,
					     .mkey = mkey };
		TEST_ASSERT_SUCCESS(pthread_create(&th[t], NULL, race_worker,
						   &args[t]), "");
	}
	for (unsigned int t = 0; t < RACE_THREADS; t++) {
		pthread_join(th[t], NULL);
		TEST_ASSERT_EQUAL(args[t].failures, 0, "thread %u", t);
	}
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5_release_key(host, mkey), "");
	TDEV_ASSERT_LIVE(0, host_live, "every reference came back");
	TDEV_ASSERT_LIVE(1, dpu_live, "");
	return TEST_SUCCESS;
}

static int
test_remove_releases_keys(void)
{
	uint16_t vhca;
	uint32_t mkey;

	VHCA_NEED_CROSS_VHCA();
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5_export_mem(host, host_buf, BUF_LEN,
			    key_a, &vhca, &mkey), "");
	TEST_ASSERT(rte_pmd_mlx5_create_cross_vhca_mkey(dpu, vhca, mkey), "");
	TEST_ASSERT(rte_pmd_mlx5_import_mem(dpu, vhca, mkey, key_a), "");
	TEST_ASSERT(rte_pmd_mlx5_get_buf_private_iova(dpu, host_buf, 64), "");
	TEST_ASSERT_SUCCESS(tdev_remove(1), "");
	TEST_ASSERT_SUCCESS(tdev_remove(0), "");
	TDEV_ASSERT_LIVE(0, 0, "");
	TDEV_ASSERT_LIVE(1, 0, "");
	/* What a close reclaims is counted by the software device. */
	if (!tdev_hw()) {
		TEST_ASSERT_EQUAL(sim_reclaimed(CARD, HOST_VHCA), 0,
				  "not leaked");
		TEST_ASSERT_EQUAL(sim_reclaimed(CARD, DPU_VHCA), 0,
				  "not leaked");
	}
	return TEST_SUCCESS;
}

static int
test_bad_device_everywhere(void)
{
	struct rte_device fake = { .name = "fake0" };
	struct rte_device *bad[] = { NULL, &fake };
	uint16_t vhca;
	uint32_t mkey;
	void *ctx, *pd;

	for (size_t i = 0; i < RTE_DIM(bad); i++) {
		int want = ENODEV; /* NULL or unknown: one rule. */

		TEST_ASSERT_EQUAL(rte_pmd_mlx5_get_dev_ctx_and_pd(bad[i], &ctx,
				  &pd), -want, "");
		TEST_ASSERT_EQUAL(rte_pmd_mlx5_get_vhca_id(bad[i], &vhca), -want,
				  "");
		TEST_ASSERT_EQUAL(rte_pmd_mlx5_export_mem(bad[i], host_buf, 64,
				  key_a, &vhca, &mkey), -ENODEV, "");
		TEST_ASSERT_EQUAL(rte_errno, ENODEV, "");
		TEST_ASSERT(rte_pmd_mlx5_create_cross_vhca_mkey(bad[i], 1,
			    0x100) == 0 && rte_errno == ENODEV, "");
		TEST_ASSERT(rte_pmd_mlx5_import_mem(bad[i], 1, 0x100, key_a) == 0 &&
			    rte_errno == ENODEV, "");
		TEST_ASSERT(rte_pmd_mlx5_get_buf_private_iova(bad[i], host_buf,
			    64) == 0 && rte_errno == ENODEV, "");
		TEST_ASSERT_EQUAL(rte_pmd_mlx5_release_key(bad[i], 0x100),
				  -ENODEV, "");
	}
	/* Keys of one device are not keys of another. */
	rte_iova_t iova = rte_pmd_mlx5_get_buf_private_iova(host, host_buf, 64);

	TEST_ASSERT(iova != 0, "");
	if (dpu != NULL)
		TEST_ASSERT_EQUAL(rte_pmd_mlx5_release_key(dpu, iova), -ENOENT,
				  "released on the wrong device");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5_release_key(host, iova), "");
	return TEST_SUCCESS;
}

/* Every command of export, crossing and alias failed in turn: clean errors. */
static int
test_fault_sweep(void)
{
	long host_live = tdev_live(0);
	long dpu_live = tdev_live(1);
	unsigned int host_fail = 0, dpu_fail = 0;
	uint16_t vhca;
	uint32_t mkey;

	TDEV_SIM_ONLY("fault injection (every command of export, crossing and alias)");
	/* Owner side: export = CREATE_UMEM + CREATE_MKEY + ALLOW. */
	for (unsigned int n = 1; n <= 5; n++) {
		int ret;

		TEST_ASSERT_SUCCESS(mlx5_sim_fault_set(CARD, HOST_VHCA, -1, n,
			MLX5_CMD_STAT_NO_RES_ERR), "");
		ret = rte_pmd_mlx5_export_mem(host, host_buf, BUF_LEN, key_a,
					      &vhca, &mkey);
		mlx5_sim_fault_clear(CARD, HOST_VHCA);
		if (ret == 0) {
			TEST_ASSERT_SUCCESS(rte_pmd_mlx5_release_key(host, mkey),
					    "");
		} else {
			host_fail++;
			TEST_ASSERT_EQUAL(ret, -EAGAIN, "NO_RESOURCES at %u", n);
		}
		TEST_ASSERT_EQUAL(tdev_live(0), host_live,
				  "host clean after fault %u", n);
	}
	TEST_ASSERT_EQUAL(host_fail, 3, "every export command was hit");

	/* Importer side: crossing (CREATE_MKEY), alias (CREATE_GENERAL_OBJECT). */
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5_export_mem(host, host_buf, BUF_LEN,
			    key_a, &vhca, &mkey), "");
	for (unsigned int n = 1; n <= 4; n++) {
		rte_iova_t cross, alias;

		TEST_ASSERT_SUCCESS(mlx5_sim_fault_set(CARD, DPU_VHCA, -1, n,
			MLX5_CMD_STAT_LIM_ERR), "");
		cross = rte_pmd_mlx5_create_cross_vhca_mkey(dpu, vhca, mkey);
		if (cross == 0)
			TEST_ASSERT_EQUAL(rte_errno, ENOMEM, "LIM at %u", n);
		alias = rte_pmd_mlx5_import_mem(dpu, vhca, mkey, key_a);
		if (alias == 0)
			TEST_ASSERT_EQUAL(rte_errno, ENOMEM, "LIM at %u", n);
		mlx5_sim_fault_clear(CARD, DPU_VHCA);
		dpu_fail += (cross == 0) + (alias == 0);
		if (cross)
			TEST_ASSERT_SUCCESS(rte_pmd_mlx5_release_key(dpu, cross), "");
		if (alias)
			TEST_ASSERT_SUCCESS(rte_pmd_mlx5_release_key(dpu, alias), "");
		TEST_ASSERT_EQUAL(tdev_live(1), dpu_live,
				  "DPU clean after fault %u", n);
	}
	TEST_ASSERT_EQUAL(dpu_fail, 2, "both import commands were hit");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5_release_key(host, mkey), "");
	TEST_ASSERT_EQUAL(tdev_live(0), host_live, "");
	return TEST_SUCCESS;
}

/* Shared between the test and the worker: every access is atomic. */
struct unplug_arg {
	struct rte_device *dev;     /* The device removed (set before start). */
	int started;
	int stop;
	unsigned int calls;
	unsigned int after_remove;  /* Calls that found the device gone. */
	unsigned int wrong;         /* Failures other than ENODEV. */
};

static void
unplug_count(unsigned int *counter)
{
	__atomic_fetch_add(counter, 1, __ATOMIC_RELAXED);
}

static unsigned int
unplug_read(unsigned int *counter)
{
	return __atomic_load_n(counter, __ATOMIC_RELAXED);
}

static void *
unplug_worker(void *p)
{
	struct unplug_arg *a = p;

	unsigned int i;

	for (i = 0; !__atomic_load_n(&a->stop, __ATOMIC_ACQUIRE); i++) {
		rte_iova_t iova = rte_pmd_mlx5_get_buf_private_iova(a->dev,
			host_buf + (i % 8) * 4096, 4096);

		if (iova != 0) {
			int ret = rte_pmd_mlx5_release_key(a->dev, iova);

			/* The removal may come between the two calls. */
			if (ret != 0 && ret != -ENODEV)
				unplug_count(&a->wrong);
		} else if (rte_errno == ENODEV) {
			unplug_count(&a->after_remove);
		} else {
			unplug_count(&a->wrong);
		}
		unplug_count(&a->calls);
		__atomic_store_n(&a->started, 1, __ATOMIC_RELEASE);
	}
	return NULL;
}

/*
 * Hot-unplug while another thread calls the API on the device: the DPU, or
 * the host where a real card gives one device only.
 */
static int
test_remove_while_calling(void)
{
	unsigned int slot = dpu != NULL ? 1 : 0;
	struct unplug_arg a = { .dev = tdev_eal_dev(slot) };
	pthread_t th;

	TEST_ASSERT_SUCCESS(pthread_create(&th, NULL, unplug_worker, &a), "");
	while (!__atomic_load_n(&a.started, __ATOMIC_ACQUIRE))
		sched_yield();
	TEST_ASSERT_SUCCESS(tdev_remove(slot), "remove under calls");
	while (unplug_read(&a.after_remove) < 100)
		sched_yield();
	__atomic_store_n(&a.stop, 1, __ATOMIC_RELEASE);
	pthread_join(th, NULL);
	printf("    %u calls, %u after the removal (ENODEV)\n", a.calls,
	       a.after_remove);
	TEST_ASSERT_EQUAL(unplug_read(&a.wrong), 0, "only ENODEV once the device is gone");
	TDEV_ASSERT_LIVE(slot, 0, "nothing left");
	/* What a close reclaims is counted by the software device. */
	if (!tdev_hw())
		TEST_ASSERT_EQUAL(sim_reclaimed(CARD, DPU_VHCA), 0, "");
	return TEST_SUCCESS;
}

/* Every mbuf of the pool holds its own buffer and no private-IOVA flag. */
static void
alloc_private_obj_check(struct rte_mempool *mp, void *arg, void *obj,
			unsigned int idx)
{
	struct rte_mbuf *m = obj;
	unsigned int *bad = arg;

	RTE_SET_USED(idx);
	if (m->buf_addr != rte_mbuf_buf_addr(m, mp) ||
	    (m->ol_flags & (rte_pmd_mlx5_private_iova_flag() |
			    RTE_MBUF_F_EXTERNAL)) != 0)
		(*bad)++;
}

/*
 * rte_pmd_mlx5_pktmbuf_alloc_private(): the host's buffer under the DPU's
 * crossing key as an external buffer of a pool mbuf, shared info in the
 * mbuf's private area or the caller's; freeing gives the pool its own
 * buffer back with no flag, after many rounds too (the pool never hands
 * out host memory); refusals take nothing from the pool.
 */
static int
test_pktmbuf_alloc_private(void)
{
	static struct rte_mbuf_ext_shared_info shinfo;
	const uint16_t priv = RTE_ALIGN(sizeof(struct rte_mbuf_ext_shared_info),
					RTE_MBUF_PRIV_ALIGN);
	struct rte_mempool *mp, *mp0;
	rte_iova_t cross, local;
	struct rte_mbuf *m;
	unsigned int bad = 0, i;
	uint16_t vhca;
	uint32_t mkey;

	VHCA_NEED_CROSS_VHCA();
	mp = rte_pktmbuf_pool_create("vhca_priv", 63, 0, priv, 256,
				     SOCKET_ID_ANY);
	mp0 = rte_pktmbuf_pool_create("vhca_priv0", 63, 0, 0, 256,
				      SOCKET_ID_ANY);
	TEST_ASSERT(mp != NULL && mp0 != NULL, "pools");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5_export_mem(host, host_buf, 4096,
			    key_a, &vhca, &mkey), "export");
	cross = rte_pmd_mlx5_create_cross_vhca_mkey(dpu, vhca, mkey);
	TEST_ASSERT(cross != 0, "crossing key");
	m = rte_pmd_mlx5_pktmbuf_alloc_private(mp, dpu, cross, host_buf + 64,
					       1000, NULL);
	TEST_ASSERT_NOT_NULL(m, "an mbuf over the host's buffer (%s)",
			     rte_strerror(rte_errno));
	TEST_ASSERT(m->buf_addr == host_buf + 64 && m->buf_iova == cross &&
		    m->data_off == 0 && m->data_len == 1000 &&
		    m->pkt_len == 1000 && RTE_MBUF_HAS_EXTBUF(m) &&
		    (m->ol_flags & rte_pmd_mlx5_private_iova_flag()) != 0,
		    "attached, flagged, the whole range as data");
	TEST_ASSERT((uint8_t *)m->shinfo == (uint8_t *)rte_mbuf_to_priv(m),
		    "the shared info in the mbuf's private area");
	rte_pktmbuf_free(m);
	/* Many rounds, both shared-info homes. */
	for (i = 0; i < 1000; i++) {
		m = rte_pmd_mlx5_pktmbuf_alloc_private(i & 1 ? mp0 : mp, dpu,
			cross, host_buf, 256, i & 1 ? &shinfo : NULL);
		TEST_ASSERT_NOT_NULL(m, "round %u", i);
		rte_pktmbuf_free(m);
	}
	rte_mempool_obj_iter(mp, alloc_private_obj_check, &bad);
	rte_mempool_obj_iter(mp0, alloc_private_obj_check, &bad);
	TEST_ASSERT_EQUAL(bad, 0, "every pool mbuf: own buffer, no flag");
	/* Refusals: nothing taken from the pool. */
	rte_errno = 0;
	TEST_ASSERT(rte_pmd_mlx5_pktmbuf_alloc_private(mp0, dpu, cross,
		    host_buf, 64, NULL) == NULL && rte_errno == EINVAL,
		    "no private area and no shared info given");
	TEST_ASSERT(rte_pmd_mlx5_pktmbuf_alloc_private(mp, NULL, cross,
		    host_buf, 64, NULL) == NULL && rte_errno == ENODEV,
		    "NULL device");
	TEST_ASSERT(rte_pmd_mlx5_pktmbuf_alloc_private(NULL, dpu, cross,
		    host_buf, 64, NULL) == NULL && rte_errno == EINVAL,
		    "NULL pool");
	TEST_ASSERT(rte_pmd_mlx5_pktmbuf_alloc_private(mp, dpu, cross, NULL,
		    64, NULL) == NULL && rte_errno == EINVAL, "NULL buffer");
	TEST_ASSERT(rte_pmd_mlx5_pktmbuf_alloc_private(mp, dpu, cross,
		    host_buf, 0, NULL) == NULL && rte_errno == EINVAL,
		    "zero length");
	TEST_ASSERT(rte_pmd_mlx5_pktmbuf_alloc_private(mp, dpu, cross,
		    host_buf, 65536, NULL) == NULL && rte_errno == EINVAL,
		    "longer than an mbuf's buf_len");
	TEST_ASSERT(rte_pmd_mlx5_pktmbuf_alloc_private(mp, dpu, cross | 1,
		    host_buf, 64, NULL) == NULL && rte_errno == EINVAL,
		    "not a key's IOVA");
	TEST_ASSERT(rte_pmd_mlx5_pktmbuf_alloc_private(mp, dpu,
		    rte_pmd_mlx5_mkey_to_iova(0x00fe1200), host_buf, 64, NULL)
		    == NULL && rte_errno == ENOENT, "a key nobody has");
	/*
	 * The DPU's key on the host's device: unknown there, unless the
	 * host's own export has the same value (two vHCAs number their keys
	 * each on its own, so the values may meet; then it is the host's).
	 */
	if (rte_pmd_mlx5_iova_to_mkey(cross) != mkey)
		TEST_ASSERT(rte_pmd_mlx5_pktmbuf_alloc_private(mp, host, cross,
			    host_buf, 64, NULL) == NULL && rte_errno == ENOENT,
			    "the DPU's key on the host's device");
	/* An owner-side key's range is checked here. */
	TEST_ASSERT(rte_pmd_mlx5_pktmbuf_alloc_private(mp, host,
		    rte_pmd_mlx5_mkey_to_iova(mkey), host_buf + 4000, 200,
		    NULL) == NULL && rte_errno == EINVAL,
		    "past the end of the export");
	local = rte_pmd_mlx5_get_buf_private_iova(host, host_buf + 8192, 512);
	TEST_ASSERT(local != 0, "a private registration");
	m = rte_pmd_mlx5_pktmbuf_alloc_private(mp, host, local,
					       host_buf + 8192, 512, NULL);
	TEST_ASSERT_NOT_NULL(m, "inside the registration");
	rte_pktmbuf_free(m);
	TEST_ASSERT(rte_pmd_mlx5_pktmbuf_alloc_private(mp, host, local,
		    host_buf + 8000, 512, NULL) == NULL && rte_errno == EINVAL,
		    "before the registration");
	TEST_ASSERT_EQUAL(rte_mempool_avail_count(mp), 63, "nothing taken");
	TEST_ASSERT_EQUAL(rte_mempool_avail_count(mp0), 63, "nothing taken");
	/* A released key is no key. */
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5_release_key(dpu, cross), "");
	TEST_ASSERT(rte_pmd_mlx5_pktmbuf_alloc_private(mp, dpu, cross,
		    host_buf, 64, NULL) == NULL && rte_errno == ENOENT,
		    "a released key");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5_release_key(host, local), "");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5_release_key(host, mkey), "");
	rte_mempool_free(mp);
	rte_mempool_free(mp0);
	return TEST_SUCCESS;
}

static const struct mlx5_test_case vhca_cases[] = {
	{ "bad_device_everywhere", test_bad_device_everywhere },
	{ "dyn_flags", test_dyn_flags },
	{ "ctx_pd_vhca_id", test_ctx_pd_vhca_id },
	{ "crossing_dma", test_crossing_dma },
	{ "alias_dma", test_alias_dma },
	{ "export_is_devx_mkey", test_export_is_devx_mkey },
	{ "import_errors", test_import_errors },
	{ "export_errors", test_export_errors },
	{ "revoke", test_revoke },
	{ "revoke_then_request", test_revoke_then_request },
	{ "owner_removed_then_request", test_owner_removed_then_request },
	{ "reexport_new_value", test_reexport_new_value },
	{ "pktmbuf_alloc_private", test_pktmbuf_alloc_private },
	{ "import_races_release", test_import_races_release },
	{ "import_races_remove", test_import_races_remove },
	{ "release_bad_value", test_release_bad_value },
	{ "crossing_rules", test_crossing_rules },
	{ "alias_bad_status", test_alias_bad_status },
	{ "caps_up_front", test_caps_up_front },
	{ "private_iova", test_private_iova },
	{ "concurrency", test_concurrency },
	{ "fault_sweep", test_fault_sweep },
	{ "remove_releases_keys", test_remove_releases_keys },
	{ "remove_while_calling", test_remove_while_calling },
	{ NULL, NULL },
};

static const struct mlx5_test_suite vhca_suite = {
	.name = "vhca",
	.case_setup = vhca_case_setup,
	.case_teardown = vhca_case_teardown,
	.cases = vhca_cases,
};

MLX5_TEST_MAIN(vhca_suite)
