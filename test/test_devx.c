/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * The DEVX command layer against the device (software by default, real with
 * MLX5_TEST_DEVICE): mailbox validation (lengths, opcode, parameters),
 * refused commands reported with status and syndrome, mkeys (MTT over a
 * umem, KLM indirect, crossing capability) and mlx5dv_create_mkey's rules,
 * each proven by breaking it.
 */

#include <stdlib.h>

#include <mlx5_common_devx.h>

#include "mlx5_test.h"
#include "mlx5_test_dev.h"
#include "mlx5_test_sim.h"

#define DX_CARD 30

static struct mlx5_common_device *cdev;

static int
dx_case_setup(void)
{
	/* A table of 2^16 mkeys, which mkey_table_full fills. */
	if (tdev_probe(0, "card=30,vhca_id=0,log_max_mkey=16") != 0)
		return TEST_FAILED;
	cdev = tdev_cdev(0);
	return cdev != NULL ? TEST_SUCCESS : TEST_FAILED;
}

static void
dx_case_teardown(void)
{
	if (!tdev_hw())
		mlx5_sim_fault_clear(DX_CARD, 0);
	tdev_remove_all();
	cdev = NULL;
}

/* Run a raw general command; return the backend's result. */
static int
raw_cmd(const void *in, size_t inlen, void *out, size_t outlen)
{
	memset(out, 0, outlen);
	return cdev->glue->devx_general_cmd(cdev->ctx, in, inlen, out, outlen);
}

static int
test_mailbox_validation(void)
{
	uint32_t in[MLX5_ST_SZ_DW(query_hca_cap_in)] = { 0 };
	size_t outlen = MLX5_ST_SZ_BYTES(query_hca_cap_out);
	uint8_t *out = calloc(1, outlen);

	TEST_ASSERT_NOT_NULL(out, "");
	MLX5_SET(query_hca_cap_in, in, opcode, MLX5_CMD_OP_QUERY_HCA_CAP);
	MLX5_SET(query_hca_cap_in, in, op_mod,
		 MLX5_HCA_CAP_OPMOD(MLX5_HCA_CAP_GENERAL, 1));
	TEST_ASSERT_SUCCESS(raw_cmd(in, sizeof(in), out, outlen), "valid");
	TEST_ASSERT_EQUAL(MLX5_GET(mbox_out, out, status), 0, "");

	/* Past the kernel's 16 bytes, the device checks its own layout. */
	TEST_ASSERT_EQUAL(raw_cmd(in, sizeof(in), out, 16), EREMOTEIO,
			  "short out");
	TEST_ASSERT_EQUAL(MLX5_GET(mbox_out, out, status),
			  MLX5_CMD_STAT_BAD_OUTP_LEN_ERR, "");

	/*
	 * Type 0x8 (the E-Switch flow table) is one the software device,
	 * which has no E-Switch, does not model; hardware answers it.
	 */
	if (!tdev_hw()) {
		MLX5_SET(query_hca_cap_in, in, op_mod,
			 MLX5_HCA_CAP_OPMOD(0x8, 1));
		TEST_ASSERT_EQUAL(raw_cmd(in, sizeof(in), out, outlen),
				  EREMOTEIO, "unknown capability type");
		TEST_ASSERT_EQUAL(MLX5_GET(mbox_out, out, status),
				  MLX5_CMD_STAT_BAD_PARAM_ERR, "");
	}

	/* An opcode the kernel passes (general range) the device lacks. */
	MLX5_SET(query_hca_cap_in, in, opcode, 0xb20);
	TEST_ASSERT_EQUAL(raw_cmd(in, sizeof(in), out, outlen), EREMOTEIO,
			  "unknown opcode");
	TEST_ASSERT_EQUAL(MLX5_GET(mbox_out, out, status),
			  MLX5_CMD_STAT_BAD_OP_ERR, "");
	free(out);
	return TEST_SUCCESS;
}

static int
test_refusal_reported(void)
{
	uint32_t in[MLX5_ST_SZ_DW(query_hca_cap_in)] = { 0 };
	uint32_t out[MLX5_ST_SZ_DW(mbox_out)];
	const char *log;
	int ret;

	MLX5_SET(query_hca_cap_in, in, opcode, 0xb20);
	mlx5_test_log_capture_start();
	ret = mlx5_devx_cmd_exec(cdev, "TEST_BOGUS", in, sizeof(in), out,
				 sizeof(out));
	log = mlx5_test_log_capture_stop();
	TEST_ASSERT_EQUAL(ret, -EINVAL, "BAD_OP maps to EINVAL");
	TEST_ASSERT_EQUAL(rte_errno, EINVAL, "");
	TEST_ASSERT(strstr(log, "TEST_BOGUS") != NULL, "names the command");
	TEST_ASSERT(strstr(log, "BAD_OP") != NULL, "names the status");
	TEST_ASSERT(strstr(log, "syndrome=0x") != NULL, "gives the syndrome");
	return TEST_SUCCESS;
}

/* A page-aligned buffer registered as a umem. */
struct dx_buf {
	uint8_t *va;
	size_t len;
	struct mlx5dv_devx_umem *umem;
};

static int
dx_buf_get(struct dx_buf *b, size_t len)
{
	b->len = len;
	b->va = aligned_alloc(4096, len);
	if (b->va == NULL)
		return -ENOMEM;
	memset(b->va, 0, len);
	b->umem = cdev->glue->devx_umem_reg(cdev->ctx, b->va, len,
					    IBV_ACCESS_LOCAL_WRITE);
	if (b->umem == NULL) {
		free(b->va);
		return -errno;
	}
	return 0;
}

static void
dx_buf_put(struct dx_buf *b)
{
	if (b->umem != NULL)
		cdev->glue->devx_umem_dereg(b->umem);
	free(b->va);
	memset(b, 0, sizeof(*b));
}

static struct mlx5_devx_obj *
dx_mtt(struct dx_buf *b, bool lw)
{
	struct mlx5_devx_mkey_attr attr = {
		.access_mode = MLX5_MKC_ACCESS_MODE_MTT,
		.addr = (uintptr_t)b->va,
		.size = b->len,
		.pd = cdev->pdn,
		.lr = true,
		.lw = lw,
		.umem_id = b->umem->umem_id,
		.log_page_size = 12,
	};

	return mlx5_devx_cmd_mkey_create(cdev, &attr);
}

static int
test_mkey_mtt(void)
{
	struct mlx5_devx_mkey_info info;
	struct mlx5_devx_obj *mkey, *ro;
	long live = tdev_live(0);
	uint8_t data[64], back[64], syn = 0;
	struct dx_buf b;

	TEST_ASSERT_SUCCESS(dx_buf_get(&b, 8192), "umem");
	mkey = dx_mtt(&b, true);
	TEST_ASSERT_NOT_NULL(mkey, "MTT mkey");
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_mkey_query(mkey, &info), "query");
	TEST_ASSERT_EQUAL(info.access_mode, MLX5_MKC_ACCESS_MODE_MTT, "");
	TEST_ASSERT_EQUAL(info.pd, cdev->pdn, "");
	TEST_ASSERT(info.start_addr == (uintptr_t)b.va, "");
	TEST_ASSERT_EQUAL(info.len, 8192, "");
	TEST_ASSERT(info.lr && info.lw && !info.rr && !info.rw, "");
	TEST_ASSERT(!info.free, "");

	for (size_t i = 0; i < sizeof(data); i++)
		data[i] = (uint8_t)(i * 7 + 1);
	TEST_ASSERT_SUCCESS(tdev_access(0, cdev->pdn, mkey->id,
		(uintptr_t)b.va + 4000, data, sizeof(data), true, &syn),
		"device write across a page");
	TEST_ASSERT(memcmp(b.va + 4000, data, sizeof(data)) == 0, "bytes");
	TEST_ASSERT_SUCCESS(tdev_access(0, cdev->pdn, mkey->id,
		(uintptr_t)b.va + 4000, back, sizeof(back), false, &syn), "");
	TEST_ASSERT(memcmp(back, data, sizeof(data)) == 0, "read back");

	/* Translation checks, each broken once. */
	TEST_ASSERT(tdev_access(0, cdev->pdn, mkey->id,
		(uintptr_t)b.va + 8190, data, 4, false, &syn) < 0,
		"range past the end");
	TEST_ASSERT(syn != 0, "an error CQE syndrome");
	TEST_ASSERT(tdev_access(0, cdev->pdn, mkey->id,
		(uintptr_t)b.va - 1, data, 4, false, &syn) < 0,
		"range before the start");
	TEST_ASSERT(tdev_access(0, cdev->pdn + 1, mkey->id,
		(uintptr_t)b.va, data, 4, false, &syn) < 0, "wrong PD");
	TEST_ASSERT(tdev_access(0, cdev->pdn, mkey->id ^ 0x1,
		(uintptr_t)b.va, data, 4, false, &syn) < 0, "wrong variant");
	ro = dx_mtt(&b, false);
	TEST_ASSERT_NOT_NULL(ro, "read-only mkey");
	TEST_ASSERT(tdev_access(0, cdev->pdn, ro->id,
		(uintptr_t)b.va, data, 4, true, &syn) < 0,
		"write through a read-only mkey");
	TEST_ASSERT_SUCCESS(tdev_access(0, cdev->pdn, ro->id,
		(uintptr_t)b.va, back, 4, false, &syn), "read is allowed");
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_destroy(ro), "");

	uint32_t key = mkey->id;

	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_destroy(mkey), "destroy");
	TEST_ASSERT(tdev_access(0, cdev->pdn, key, (uintptr_t)b.va,
		data, 4, false, &syn) < 0, "a destroyed mkey translates nothing");
	dx_buf_put(&b);
	TDEV_ASSERT_LIVE(0, live, "all freed");
	return TEST_SUCCESS;
}

static int
test_mkey_mtt_errors(void)
{
	long live = tdev_live(0);
	long reclaimed = tdev_hw() ? 0 : sim_reclaimed(DX_CARD, 0);
	struct mlx5_devx_mkey_attr attr;
	struct dx_buf b;

	TEST_ASSERT_SUCCESS(dx_buf_get(&b, 4096), "umem");
	attr = (struct mlx5_devx_mkey_attr){
		.access_mode = MLX5_MKC_ACCESS_MODE_MTT,
		.addr = (uintptr_t)b.va, .size = 4096, .pd = cdev->pdn,
		.lr = true, .umem_id = b.umem->umem_id + 77,
	};
	TEST_ASSERT(mlx5_devx_cmd_mkey_create(cdev, &attr) == NULL,
		    "unknown umem");
	TEST_ASSERT_EQUAL(rte_errno, EINVAL, "");
	attr.umem_id = b.umem->umem_id;
	attr.size = 8192;
	TEST_ASSERT(mlx5_devx_cmd_mkey_create(cdev, &attr) == NULL,
		    "range larger than the umem");
	attr.size = 4096;
	attr.pd = cdev->pdn + 100;
	TEST_ASSERT(mlx5_devx_cmd_mkey_create(cdev, &attr) == NULL,
		    "PD of nobody");
	attr.pd = cdev->pdn;
	attr.size = 0;
	TEST_ASSERT(mlx5_devx_cmd_mkey_create(cdev, &attr) == NULL,
		    "zero length");
	TEST_ASSERT_EQUAL(rte_errno, EINVAL, "");
	attr.size = 4096;
	attr.access_mode = MLX5_MKC_ACCESS_MODE_PA;
	TEST_ASSERT(mlx5_devx_cmd_mkey_create(cdev, &attr) == NULL,
		    "physical addressing is not for applications");
	dx_buf_put(&b);
	TDEV_ASSERT_LIVE(0, live, "nothing left behind");
	/* What a close reclaims is counted by the software device. */
	if (!tdev_hw())
		TEST_ASSERT_EQUAL(sim_reclaimed(DX_CARD, 0), reclaimed, "");
	return TEST_SUCCESS;
}

static int
test_mkey_klm(void)
{
	struct dx_buf b1, b2;
	struct mlx5_devx_obj *m1, *m2, *ind;
	struct mlx5_devx_mkey_info info;
	uint8_t data[32], back[32], syn;
	long live = tdev_live(0);

	TEST_ASSERT_SUCCESS(dx_buf_get(&b1, 4096), "");
	TEST_ASSERT_SUCCESS(dx_buf_get(&b2, 4096), "");
	m1 = dx_mtt(&b1, true);
	m2 = dx_mtt(&b2, true);
	TEST_ASSERT(m1 != NULL && m2 != NULL, "");
	/* Indirect range [0, 8192): 4096 bytes of b1 then 4096 of b2. */
	struct mlx5_klm klm[2] = {
		{ .byte_count = 4096, .mkey = m1->id, .address = (uintptr_t)b1.va },
		{ .byte_count = 4096, .mkey = m2->id, .address = (uintptr_t)b2.va },
	};
	struct mlx5_devx_mkey_attr attr = {
		.access_mode = MLX5_MKC_ACCESS_MODE_KLM,
		.addr = 0, .size = 8192, .pd = cdev->pdn, .lr = true, .lw = true,
		.klm_array = klm, .klm_num = 2,
	};

	ind = mlx5_devx_cmd_mkey_create(cdev, &attr);
	TEST_ASSERT_NOT_NULL(ind, "KLM mkey");
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_mkey_query(ind, &info), "");
	TEST_ASSERT_EQUAL(info.access_mode, MLX5_MKC_ACCESS_MODE_KLM, "");
	for (size_t i = 0; i < sizeof(data); i++)
		data[i] = (uint8_t)(0xa0 + i);
	TEST_ASSERT_SUCCESS(tdev_access(0, cdev->pdn, ind->id,
		4096 - 16, data, sizeof(data), true, &syn),
		"a write that spans both entries");
	TEST_ASSERT(memcmp(b1.va + 4096 - 16, data, 16) == 0, "first half");
	TEST_ASSERT(memcmp(b2.va, data + 16, 16) == 0, "second half");
	TEST_ASSERT_SUCCESS(tdev_access(0, cdev->pdn, ind->id,
		4096 - 16, back, sizeof(back), false, &syn), "");
	TEST_ASSERT(memcmp(back, data, sizeof(data)) == 0, "");

	/* An entry naming an mkey that does not exist. */
	klm[1].mkey = m2->id + 0x10000;
	TEST_ASSERT(mlx5_devx_cmd_mkey_create(cdev, &attr) == NULL,
		    "KLM entry with an unknown mkey");
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_destroy(ind), "");
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_destroy(m1), "");
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_destroy(m2), "");
	dx_buf_put(&b1);
	dx_buf_put(&b2);
	TDEV_ASSERT_LIVE(0, live, "");
	return TEST_SUCCESS;
}

/*
 * Eight bytes written through key @key (of the device's PD) at @off and
 * read back: they land at @off of @b and read back the same.
 */
static int
dx_write_read(uint32_t key, uint64_t off, const struct dx_buf *b)
{
	uint8_t data[8] = "through", back[8], syn;

	TEST_ASSERT_SUCCESS(tdev_access(0, cdev->pdn, key, off, data,
					sizeof(data), true, &syn), "write");
	TEST_ASSERT_SUCCESS(tdev_access(0, cdev->pdn, key, off, back,
					sizeof(back), false, &syn), "read");
	TEST_ASSERT(memcmp(b->va + off, data, sizeof(data)) == 0 &&
		    memcmp(back, data, sizeof(data)) == 0, "the same bytes");
	return TEST_SUCCESS;
}

/* Padding entries (mkey 0, byte count 0), as DPDK pads KLM lists. */
static int
test_mkey_klm_padding(void)
{
	struct mlx5_devx_obj *m1, *ind, *one;
	uint8_t back[8], syn;
	long live = tdev_live(0);
	struct dx_buf b1;

	TEST_ASSERT_SUCCESS(dx_buf_get(&b1, 4096), "");
	m1 = dx_mtt(&b1, true);
	TEST_ASSERT_NOT_NULL(m1, "");
	struct mlx5_klm klm[4] = {
		{ .byte_count = 4096, .mkey = m1->id, .address = (uintptr_t)b1.va },
		{ 0, 0, 0 }, { 0, 0, 0 }, { 0, 0, 0 },
	};
	struct mlx5_devx_mkey_attr attr = {
		.access_mode = MLX5_MKC_ACCESS_MODE_KLM,
		.addr = 0, .size = 4096, .pd = cdev->pdn, .lr = true, .lw = true,
		.klm_array = klm, .klm_num = 4,
	};

	ind = mlx5_devx_cmd_mkey_create(cdev, &attr);
	TEST_ASSERT_NOT_NULL(ind, "a list padded with zero entries");
	TEST_ASSERT_EQUAL(dx_write_read(ind->id, 100, &b1), TEST_SUCCESS,
			  "a padded list");
	TEST_ASSERT(tdev_access(0, cdev->pdn, ind->id, 4096 - 4,
		back, sizeof(back), false, &syn) < 0,
		"padding translates nothing");
	/* A list of one entry, unpadded. */
	attr.klm_num = 1;
	one = mlx5_devx_cmd_mkey_create(cdev, &attr);
	TEST_ASSERT_NOT_NULL(one, "a list of one entry");
	TEST_ASSERT_EQUAL(dx_write_read(one->id, 200, &b1), TEST_SUCCESS,
			  "a list of one entry");
	TEST_ASSERT(tdev_access(0, cdev->pdn, one->id, 4096 - 4,
		back, sizeof(back), false, &syn) < 0, "past the entry");
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_destroy(one), "");
	attr.klm_num = 4;
	/* A zero byte count with a real mkey is no padding: refused. */
	klm[1].mkey = m1->id;
	TEST_ASSERT(mlx5_devx_cmd_mkey_create(cdev, &attr) == NULL, "");
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_destroy(ind), "");
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_destroy(m1), "");
	dx_buf_put(&b1);
	TDEV_ASSERT_LIVE(0, live, "");
	return TEST_SUCCESS;
}

/* A KSM mkey: entries of 2^log_page_size bytes each (UCX uses them). */
static int
test_mkey_ksm(void)
{
	size_t inlen = MLX5_ST_SZ_BYTES(create_mkey_in) +
		       4 * MLX5_ST_SZ_BYTES(klm);
	uint32_t out[MLX5_ST_SZ_DW(create_mkey_out)];
	struct mlx5_devx_obj *m1, *m2;
	struct mlx5dv_devx_obj *ksm;
	uint8_t data[32], back[32], syn;
	long live = tdev_live(0);
	struct dx_buf b1, b2;
	void *mkc, *e;
	uint8_t *in;
	uint32_t key;

	in = calloc(1, inlen);
	TEST_ASSERT_NOT_NULL(in, "");
	TEST_ASSERT_SUCCESS(dx_buf_get(&b1, 4096), "");
	TEST_ASSERT_SUCCESS(dx_buf_get(&b2, 4096), "");
	m1 = dx_mtt(&b1, true);
	m2 = dx_mtt(&b2, true);
	TEST_ASSERT(m1 != NULL && m2 != NULL, "");
	mkc = MLX5_ADDR_OF(create_mkey_in, in, memory_key_mkey_entry);
	MLX5_SET(create_mkey_in, in, opcode, MLX5_CMD_OP_CREATE_MKEY);
	MLX5_SET(mkc, mkc, access_mode_1_0, MLX5_MKC_ACCESS_MODE_KSM);
	MLX5_SET(mkc, mkc, lr, 1);
	MLX5_SET(mkc, mkc, lw, 1);
	MLX5_SET(mkc, mkc, pd, cdev->pdn);
	MLX5_SET(mkc, mkc, qpn, 0xffffff);
	MLX5_SET64(mkc, mkc, start_addr, 0x10000);
	MLX5_SET64(mkc, mkc, len, 8192);
	MLX5_SET(mkc, mkc, log_page_size, 12);
	MLX5_SET(mkc, mkc, translations_octword_size, 4);
	MLX5_SET(create_mkey_in, in, translations_octword_actual_size, 2);
	e = MLX5_ADDR_OF(create_mkey_in, in, klm_pas_mtt);
	MLX5_SET(klm, e, mkey, m1->id);
	MLX5_SET64(klm, e, address, (uintptr_t)b1.va);
	e = (uint8_t *)e + MLX5_ST_SZ_BYTES(klm);
	MLX5_SET(klm, e, mkey, m2->id);
	MLX5_SET64(klm, e, address, (uintptr_t)b2.va);
	ksm = cdev->glue->devx_obj_create(cdev->ctx, in, inlen, out,
					  sizeof(out));
	TEST_ASSERT_NOT_NULL(ksm, "KSM mkey (errno %d, status 0x%x)", errno,
			     MLX5_GET(mbox_out, out, status));
	key = MLX5_GET(create_mkey_out, out, mkey_index) << 8;
	for (size_t i = 0; i < sizeof(data); i++)
		data[i] = (uint8_t)(0x30 + i);
	TEST_ASSERT_SUCCESS(tdev_access(0, cdev->pdn, key,
		0x10000 + 4096 - 16, data, sizeof(data), true, &syn),
		"a write across the two entities");
	TEST_ASSERT(memcmp(b1.va + 4096 - 16, data, 16) == 0, "");
	TEST_ASSERT(memcmp(b2.va, data + 16, 16) == 0, "");
	TEST_ASSERT_SUCCESS(tdev_access(0, cdev->pdn, key,
		0x10000 + 4096 - 16, back, sizeof(back), false, &syn), "");
	TEST_ASSERT(memcmp(back, data, sizeof(data)) == 0, "");
	TEST_ASSERT_SUCCESS(cdev->glue->devx_obj_destroy(ksm), "");
	/* Entities above 2^31 bytes. */
	MLX5_SET(mkc, mkc, log_page_size, 32);
	errno = 0;
	TEST_ASSERT(cdev->glue->devx_obj_create(cdev->ctx, in, inlen, out,
		    sizeof(out)) == NULL && errno == EREMOTEIO, "");
	TEST_ASSERT_EQUAL(MLX5_GET(mbox_out, out, status),
			  MLX5_CMD_STAT_BAD_PARAM_ERR, "");
	free(in);
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_destroy(m1), "");
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_destroy(m2), "");
	dx_buf_put(&b1);
	dx_buf_put(&b2);
	TDEV_ASSERT_LIVE(0, live, "");
	return TEST_SUCCESS;
}

static int
test_mkey_crossing_needs_cap(void)
{
	struct mlx5_common_device *nc;
	struct mlx5_sim_stats before, after;
	struct mlx5_devx_mkey_attr attr = {
		.access_mode = MLX5_MKC_ACCESS_MODE_CROSSING,
		.addr = 0x1000, .size = 4096, .lr = true,
		.crossing_target_vhca_id = 0, .crossing_target_mkey = 0x100,
	};

	TDEV_SIM_ONLY("a device without crossing_vhca_mkey (crossing=0) and its command count");
	TEST_ASSERT_SUCCESS(sim_probe("mlx5_sim1", "card=31,vhca_id=0,crossing=0"), "");
	nc = sim_cdev("mlx5_sim1");
	TEST_ASSERT_NOT_NULL(nc, "");
	attr.pd = nc->pdn;
	TEST_ASSERT_SUCCESS(mlx5_sim_vhca_stats(31, 0, &before), "");
	TEST_ASSERT(mlx5_devx_cmd_mkey_create(nc, &attr) == NULL, "");
	TEST_ASSERT_EQUAL(rte_errno, ENOTSUP, "capability checked up front");
	TEST_ASSERT_SUCCESS(mlx5_sim_vhca_stats(31, 0, &after), "");
	TEST_ASSERT_EQUAL(after.commands, before.commands, "no command sent");
	TEST_ASSERT_SUCCESS(sim_remove("mlx5_sim1"), "");
	TEST_ASSERT_EQUAL(sim_live(31, 0), 0, "");
	return TEST_SUCCESS;
}

static int
test_dv_create_mkey(void)
{
	const struct mlx5_glue *g = cdev->glue;
	static const struct { uint16_t req, got; } round[] = {
		{ 1, 4 }, { 3, 4 }, { 4, 4 }, { 5, 8 }, { 8, 8 }, { 13, 16 },
	};
	struct mlx5dv_mkey_init_attr attr = { .pd = cdev->pd };
	long live = tdev_live(0);
	struct mlx5dv_mkey *mkey;
	uint8_t syn, byte = 0;

	attr.max_entries = 4;
	attr.create_flags = 0;
	errno = 0;
	TEST_ASSERT(g->dv_create_mkey(&attr) == NULL && errno == EOPNOTSUPP,
		    "flags 0");
	attr.create_flags = MLX5DV_MKEY_INIT_ATTR_FLAGS_INDIRECT | (1u << 5);
	TEST_ASSERT(g->dv_create_mkey(&attr) == NULL && errno == EOPNOTSUPP,
		    "unknown flag bit");
	/*
	 * INDIRECT is not required: any known flag makes a KLM mkey. Signature
	 * offload, crypto and UPDATE_TAG are capabilities the common layer
	 * does not read, which a real device may lack: those mkeys are made
	 * on the software device only. It announces signature offload only
	 * when told (signature=1, below): it does not run signature BSFs.
	 */
	if (!tdev_hw()) {
		attr.create_flags =
			MLX5DV_MKEY_INIT_ATTR_FLAGS_BLOCK_SIGNATURE;
		errno = 0;
		TEST_ASSERT(g->dv_create_mkey(&attr) == NULL &&
			    errno == EOPNOTSUPP,
			    "no signature offload announced by default");
		attr.create_flags = MLX5DV_MKEY_INIT_ATTR_FLAGS_CRYPTO;
		mkey = g->dv_create_mkey(&attr);
		TEST_ASSERT_NOT_NULL(mkey, "CRYPTO alone");
		TEST_ASSERT_EQUAL(mkey->lkey & 0xff, 0, "key byte 0");
		TEST_ASSERT_SUCCESS(g->dv_destroy_mkey(mkey), "");
	}
	/* 16 bits: 65533..65535 round up to 65536, kept as 0 and sent. */
	attr.create_flags = MLX5DV_MKEY_INIT_ATTR_FLAGS_INDIRECT;
	attr.max_entries = 65534;
	mkey = g->dv_create_mkey(&attr);
	TEST_ASSERT_NOT_NULL(mkey, "max_entries 65534 (errno %d)", errno);
	TEST_ASSERT_EQUAL(attr.max_entries, 0, "wrapped to 0, written back");
	TEST_ASSERT_SUCCESS(g->dv_destroy_mkey(mkey), "");
	attr.max_entries = 0;
	mkey = g->dv_create_mkey(&attr);
	TEST_ASSERT_NOT_NULL(mkey, "max_entries 0 goes as is");
	TEST_ASSERT_SUCCESS(g->dv_destroy_mkey(mkey), "");
	for (size_t i = 0; i < RTE_DIM(round); i++) {
		attr.create_flags = MLX5DV_MKEY_INIT_ATTR_FLAGS_INDIRECT;
		attr.max_entries = round[i].req;
		mkey = g->dv_create_mkey(&attr);
		TEST_ASSERT_NOT_NULL(mkey, "max_entries %u", round[i].req);
		TEST_ASSERT_EQUAL(attr.max_entries, round[i].got,
				  "rounded up to a multiple of 4, written back");
		TEST_ASSERT_EQUAL(mkey->lkey, mkey->rkey, "lkey == rkey");
		TEST_ASSERT(tdev_access(0, cdev->pdn, mkey->lkey, 0,
			&byte, 1, false, &syn) < 0,
			"a free (never filled) indirect mkey translates nothing");
		TEST_ASSERT_SUCCESS(g->dv_destroy_mkey(mkey), "");
	}
	if (!tdev_hw()) {
		attr.create_flags =
			MLX5DV_MKEY_INIT_ATTR_FLAGS_INDIRECT |
			MLX5DV_MKEY_INIT_ATTR_FLAGS_CRYPTO |
			MLX5DV_MKEY_INIT_ATTR_FLAGS_UPDATE_TAG |
			MLX5DV_MKEY_INIT_ATTR_FLAGS_REMOTE_INVALIDATE;
		attr.max_entries = 2;
		mkey = g->dv_create_mkey(&attr);
		TEST_ASSERT_NOT_NULL(mkey,
				     "every flag of the device's capabilities");
		TEST_ASSERT_SUCCESS(g->dv_destroy_mkey(mkey), "");
	}
	TDEV_ASSERT_LIVE(0, live, "");

	/*
	 * A context without DEVX: the kernel refuses the mkey (through
	 * rdma-core, libmlx5 opens every context with DEVX: none to check).
	 */
	if (strcmp(g->name, "rdma-core") != 0) {
		struct mlx5dv_context_attr plain_attr = { .flags = 0 };
		struct ibv_context *plain;
		struct ibv_pd *ppd;

		plain = g->dv_open_device(cdev->ibv_dev, &plain_attr);
		TEST_ASSERT_NOT_NULL(plain, "");
		ppd = g->alloc_pd(plain);
		TEST_ASSERT_NOT_NULL(ppd, "");
		attr.pd = ppd;
		attr.max_entries = 4;
		errno = 0;
		TEST_ASSERT(g->dv_create_mkey(&attr) == NULL && errno == EINVAL,
			    "non-DEVX context: EINVAL (%d)", errno);
		TEST_ASSERT_SUCCESS(g->dealloc_pd(ppd), "");
		TEST_ASSERT_SUCCESS(g->close_device(plain), "");
		attr.pd = cdev->pd;
	}

	/*
	 * A device without UPDATE_TAG or crypto refuses the mkey (a device
	 * status); without signature offload the library refuses it. Such a
	 * device is a software device's shape (update_tag=0, crypto=0,
	 * signature=0).
	 */
	if (!tdev_hw()) {
		struct mlx5_common_device *nt;

		TEST_ASSERT_SUCCESS(sim_probe("mlx5_sim1",
			"card=32,vhca_id=0,update_tag=0,crypto=0,signature=0"),
			"");
		nt = sim_cdev("mlx5_sim1");
		TEST_ASSERT_NOT_NULL(nt, "");
		attr.pd = nt->pd;
		attr.max_entries = 4;
		attr.create_flags = MLX5DV_MKEY_INIT_ATTR_FLAGS_INDIRECT |
				    MLX5DV_MKEY_INIT_ATTR_FLAGS_UPDATE_TAG;
		errno = 0;
		TEST_ASSERT(nt->glue->dv_create_mkey(&attr) == NULL &&
			    errno == EINVAL,
			    "UPDATE_TAG unsupported: BAD_PARAM");
		attr.create_flags = MLX5DV_MKEY_INIT_ATTR_FLAGS_CRYPTO;
		errno = 0;
		TEST_ASSERT(nt->glue->dv_create_mkey(&attr) == NULL &&
			    errno == EINVAL, "CRYPTO unsupported: BAD_PARAM");
		attr.create_flags = MLX5DV_MKEY_INIT_ATTR_FLAGS_INDIRECT |
				    MLX5DV_MKEY_INIT_ATTR_FLAGS_BLOCK_SIGNATURE;
		errno = 0;
		TEST_ASSERT(nt->glue->dv_create_mkey(&attr) == NULL &&
			    errno == EOPNOTSUPP,
			    "no signature offload: EOPNOTSUPP");
		TEST_ASSERT_SUCCESS(sim_remove("mlx5_sim1"), "");
		TEST_ASSERT_EQUAL(sim_live(32, 0), 0, "");
		/* Announced on request: the library takes such keys. */
		TEST_ASSERT_SUCCESS(sim_probe("mlx5_sim2",
					      "card=35,vhca_id=0,signature=1"),
				    "");
		nt = sim_cdev("mlx5_sim2");
		TEST_ASSERT_NOT_NULL(nt, "");
		attr.pd = nt->pd;
		attr.create_flags =
			MLX5DV_MKEY_INIT_ATTR_FLAGS_BLOCK_SIGNATURE;
		mkey = nt->glue->dv_create_mkey(&attr);
		TEST_ASSERT_NOT_NULL(mkey, "signature=1: BLOCK_SIGNATURE alone");
		TEST_ASSERT_SUCCESS(nt->glue->dv_destroy_mkey(mkey), "");
		TEST_ASSERT_SUCCESS(sim_remove("mlx5_sim2"), "");
		TEST_ASSERT_EQUAL(sim_live(35, 0), 0, "");
	}
	return TEST_SUCCESS;
}

static int
test_mkey_fault(void)
{
	long live = tdev_live(0);
	struct dx_buf b;

	TDEV_SIM_ONLY("fault injection (a refused CREATE_MKEY)");
	TEST_ASSERT_SUCCESS(dx_buf_get(&b, 4096), "");
	TEST_ASSERT_SUCCESS(mlx5_sim_fault_set(DX_CARD, 0,
		MLX5_CMD_OP_CREATE_MKEY, 1, MLX5_CMD_STAT_LIM_ERR), "");
	TEST_ASSERT(dx_mtt(&b, true) == NULL, "injected refusal");
	TEST_ASSERT_EQUAL(rte_errno, ENOMEM, "LIM maps to ENOMEM");
	struct mlx5_devx_obj *m = dx_mtt(&b, true);

	TEST_ASSERT_NOT_NULL(m, "a one-shot fault fails once");
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_destroy(m), "");
	dx_buf_put(&b);
	TEST_ASSERT_EQUAL(tdev_live(0), live, "");
	return TEST_SUCCESS;
}

/* Objects in use cannot be destroyed; the user stays intact. */
static int
test_busy_objects(void)
{
	const struct mlx5_glue *g = cdev->glue;
	long live = tdev_live(0);
	struct mlx5_devx_obj *mkey;
	struct mlx5_sim_stats st;
	uint8_t byte = 0x42, syn;
	struct dx_buf b;

	TEST_ASSERT_SUCCESS(dx_buf_get(&b, 4096), "");
	mkey = dx_mtt(&b, true);
	TEST_ASSERT_NOT_NULL(mkey, "");
	TEST_ASSERT_EQUAL(g->devx_umem_dereg(b.umem), EINVAL,
			  "a umem that backs an mkey (BAD_RES_STATE)");
	TEST_ASSERT_SUCCESS(tdev_access(0, cdev->pdn, mkey->id,
		(uintptr_t)b.va, &byte, 1, true, &syn),
		"both refusals left the mkey working");
	/* The umem count is the software device's to give. */
	if (!tdev_hw()) {
		TEST_ASSERT_SUCCESS(mlx5_sim_vhca_stats(DX_CARD, 0, &st), "");
		TEST_ASSERT_EQUAL(st.umems, 1, "");
	}
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_destroy(mkey), "");
	dx_buf_put(&b);
	TDEV_ASSERT_LIVE(0, live, "");
	return TEST_SUCCESS;
}

/* The device's own length check, past the kernel's 16 bytes. */
static int
test_device_input_length(void)
{
	uint32_t in[MLX5_ST_SZ_DW(allow_other_vhca_access_in)] = { 0 };
	uint32_t out[MLX5_ST_SZ_DW(allow_other_vhca_access_out)];

	/* Without the capability the device does not know the command. */
	if (tdev_hw() && cdev->caps.allowed_object_for_other_vhca_access == 0)
		TEST_SKIP("device lacks ALLOW_OTHER_VHCA_ACCESS (no allowed_object_for_other_vhca_access in hca_cap_2)");
	MLX5_SET(allow_other_vhca_access_in, in, opcode,
		 MLX5_CMD_OP_ALLOW_OTHER_VHCA_ACCESS);
	TEST_ASSERT_EQUAL(raw_cmd(in, 16, out, sizeof(out)), EREMOTEIO,
			  "64-byte command in 16 bytes");
	TEST_ASSERT_EQUAL(MLX5_GET(mbox_out, out, status),
			  MLX5_CMD_STAT_BAD_INP_LEN_ERR, "");
	TEST_ASSERT(MLX5_GET(mbox_out, out, syndrome) != 0, "a syndrome");
	return TEST_SUCCESS;
}

/*
 * A call the kernel refuses: EINVAL, and no command reaches the device
 * (which the software device counts).
 */
#define DX_KERNEL_REFUSES(err_expr, what) do { \
	struct mlx5_sim_stats st_before__, st_after__; \
	if (!tdev_hw()) \
		TEST_ASSERT_SUCCESS(mlx5_sim_vhca_stats(DX_CARD, 0, \
							&st_before__), ""); \
	errno = 0; \
	TEST_ASSERT_EQUAL(err_expr, EINVAL, "%s: EINVAL", what); \
	if (!tdev_hw()) { \
		TEST_ASSERT_SUCCESS(mlx5_sim_vhca_stats(DX_CARD, 0, \
							&st_after__), ""); \
		TEST_ASSERT_EQUAL(st_after__.commands, st_before__.commands, \
				  "%s: no command", what); \
	} \
} while (0)

/* The kernel's DEVX front: lengths, tunnel id, opcodes per entry point. */
static int
test_kernel_front(void)
{
	const struct mlx5_glue *g = cdev->glue;
	uint8_t in[MLX5_ST_SZ_BYTES(create_mkey_in)] = { 0 };
	uint8_t out[MLX5_ST_SZ_BYTES(query_hca_cap_out)] = { 0 };
	uint32_t pd_out[MLX5_ST_SZ_DW(alloc_pd_out)];
	struct mlx5dv_devx_obj *obj;
	long live = tdev_live(0);

	MLX5_SET(query_hca_cap_in, in, opcode, MLX5_CMD_OP_QUERY_HCA_CAP);
	DX_KERNEL_REFUSES(g->devx_general_cmd(cdev->ctx, in, 15, out,
					      sizeof(out)),
			  "input under 16 bytes");
	DX_KERNEL_REFUSES(g->devx_general_cmd(cdev->ctx, in, 16, out, 15),
			  "output under 16 bytes");
	MLX5_SET(general_obj_in_cmd_hdr, in, vhca_tunnel_id, 1);
	DX_KERNEL_REFUSES(g->devx_general_cmd(cdev->ctx, in, 16, out,
					      sizeof(out)),
			  "vhca_tunnel_id");
	MLX5_SET(general_obj_in_cmd_hdr, in, vhca_tunnel_id, 0);
	/* Opcodes of another entry point, or of none. */
	MLX5_SET(mbox_in, in, opcode, MLX5_CMD_OP_CREATE_MKEY);
	DX_KERNEL_REFUSES(g->devx_general_cmd(cdev->ctx, in, sizeof(in), out,
					      sizeof(out)),
			  "CREATE_MKEY as a general command");
	MLX5_SET(mbox_in, in, opcode, MLX5_CMD_OP_SET_PP_RATE_LIMIT);
	DX_KERNEL_REFUSES(g->devx_general_cmd(cdev->ctx, in, sizeof(in), out,
					      sizeof(out)),
			  "SET_PP_RATE_LIMIT (not reachable through DEVX)");
	MLX5_SET(mbox_in, in, opcode, 0x7ff);
	DX_KERNEL_REFUSES(g->devx_general_cmd(cdev->ctx, in, sizeof(in), out,
					      sizeof(out)),
			  "an opcode outside every list");
	MLX5_SET(mbox_in, in, opcode, MLX5_CMD_OP_QUERY_MKEY);
	DX_KERNEL_REFUSES(g->devx_obj_create(cdev->ctx, in, sizeof(in), out,
					     sizeof(out)) == NULL ? errno : 0,
			  "QUERY_MKEY as a create");
	MLX5_SET(mbox_in, in, opcode, MLX5_CMD_OP_CREATE_MKEY);
	DX_KERNEL_REFUSES(g->devx_obj_create(cdev->ctx, in, 79, out,
					     sizeof(out)) == NULL ? errno : 0,
			  "CREATE_MKEY without the whole mkey context");
	/* 80 bytes pass the kernel; the device wants its whole layout. */
	errno = 0;
	TEST_ASSERT(g->devx_obj_create(cdev->ctx, in, 80, out, sizeof(out)) ==
		    NULL && errno == EREMOTEIO, "80 bytes reach the device");
	TEST_ASSERT_EQUAL(MLX5_GET(mbox_out, out, status),
			  MLX5_CMD_STAT_BAD_INP_LEN_ERR, "");
	/* ALLOC_PD is a create command of DEVX: a PD of the context's own. */
	memset(in, 0, sizeof(in));
	MLX5_SET(alloc_pd_in, in, opcode, MLX5_CMD_OP_ALLOC_PD);
	obj = g->devx_obj_create(cdev->ctx, in, MLX5_ST_SZ_BYTES(alloc_pd_in),
				 pd_out, sizeof(pd_out));
	TEST_ASSERT_NOT_NULL(obj, "DEVX ALLOC_PD (errno %d)", errno);
	TEST_ASSERT(MLX5_GET(alloc_pd_out, pd_out, pd) != 0, "a pdn");
	TEST_ASSERT(MLX5_GET(alloc_pd_out, pd_out, pd) != cdev->pdn, "a new one");
	TDEV_ASSERT_LIVE(0, live + 1, "one more PD");
	TEST_ASSERT_SUCCESS(g->devx_obj_destroy(obj), "DEALLOC_PD");
	TDEV_ASSERT_LIVE(0, live, "");
	return TEST_SUCCESS;
}

/* Without DEVX only the whitelisted queries go through. */
static int
test_non_devx_context(void)
{
	const struct mlx5_glue *g = cdev->glue;
	struct mlx5dv_context_attr attr = { .flags = 0 };
	uint32_t in[MLX5_ST_SZ_DW(query_hca_cap_in)] = { 0 };
	uint8_t out[MLX5_ST_SZ_BYTES(query_hca_cap_out)];
	uint8_t mk[MLX5_ST_SZ_BYTES(create_mkey_in)] = { 0 };
	struct ibv_context *plain;
	static uint8_t page[4096] __rte_aligned(4096);

	if (strcmp(g->name, "rdma-core") == 0)
		TEST_SKIP("libmlx5 opens every context with DEVX when the"
			  " kernel allows it (rdma-core 29 on): no context"
			  " without it to check");
	plain = g->dv_open_device(cdev->ibv_dev, &attr);
	TEST_ASSERT_NOT_NULL(plain, "");
	MLX5_SET(query_hca_cap_in, in, opcode, MLX5_CMD_OP_QUERY_HCA_CAP);
	MLX5_SET(query_hca_cap_in, in, op_mod,
		 MLX5_HCA_CAP_OPMOD(MLX5_HCA_CAP_GENERAL, 1));
	TEST_ASSERT_SUCCESS(g->devx_general_cmd(plain, in, sizeof(in), out,
						sizeof(out)),
			    "QUERY_HCA_CAP is whitelisted");
	/* vhca_id=0 of the case setup on the software device. */
	TEST_ASSERT_EQUAL(MLX5_GET(cmd_hca_cap,
		MLX5_ADDR_OF(query_hca_cap_out, out, capability), vhca_id),
		tdev_hw() ? cdev->caps.vhca_id : 0,
		"the answer is the device's");
	MLX5_SET(mbox_in, in, opcode, MLX5_CMD_OP_ALLOW_OTHER_VHCA_ACCESS);
	TEST_ASSERT_EQUAL(g->devx_general_cmd(plain, in, sizeof(in), out,
					      sizeof(out)), EINVAL,
			  "a general command");
	MLX5_SET(create_mkey_in, mk, opcode, MLX5_CMD_OP_CREATE_MKEY);
	errno = 0;
	TEST_ASSERT(g->devx_obj_create(plain, mk, sizeof(mk), out,
				       sizeof(out)) == NULL && errno == EINVAL,
		    "an object create: EINVAL (%d)", errno);
	errno = 0;
	TEST_ASSERT(g->devx_umem_reg(plain, page, sizeof(page), 0) == NULL &&
		    errno == EINVAL, "umem registration: EINVAL (%d)", errno);
	TEST_ASSERT_SUCCESS(g->close_device(plain), "");
	return TEST_SUCCESS;
}

/* The umem access flags the kernel takes, and its write rule. */
static int
test_umem_access_flags(void)
{
	const struct mlx5_glue *g = cdev->glue;
	static uint8_t page[4096] __rte_aligned(4096);
	struct mlx5dv_devx_umem *umem;
	long live = tdev_live(0);

	errno = 0;
	TEST_ASSERT(g->devx_umem_reg(cdev->ctx, page, sizeof(page),
		    IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_ATOMIC) == NULL &&
		    errno == EINVAL, "remote atomic is not a umem flag");
	errno = 0;
	TEST_ASSERT(g->devx_umem_reg(cdev->ctx, page, sizeof(page),
		    IBV_ACCESS_REMOTE_WRITE) == NULL && errno == EINVAL,
		    "remote write without local write");
	umem = g->devx_umem_reg(cdev->ctx, page, sizeof(page),
				IBV_ACCESS_LOCAL_WRITE |
				IBV_ACCESS_REMOTE_WRITE |
				IBV_ACCESS_REMOTE_READ |
				IBV_ACCESS_RELAXED_ORDERING);
	TEST_ASSERT_NOT_NULL(umem, "every flag the kernel takes");
	TEST_ASSERT_SUCCESS(g->devx_umem_dereg(umem), "");
	TDEV_ASSERT_LIVE(0, live, "");
	return TEST_SUCCESS;
}

/*
 * A umem registration names a range: no NULL address, no empty range, no
 * range that wraps past the end of the address space (EINVAL, as the
 * kernel's ib_umem_get()), and nothing is registered.
 */
static int
test_umem_range(void)
{
	const struct mlx5_glue *g = cdev->glue;
	static uint8_t page[4096] __rte_aligned(4096);
	long live = tdev_live(0);

	errno = 0;
	TEST_ASSERT(g->devx_umem_reg(cdev->ctx, NULL, sizeof(page), 0) ==
		    NULL && errno == EINVAL, "address NULL (errno %d)", errno);
	errno = 0;
	TEST_ASSERT(g->devx_umem_reg(cdev->ctx, page, 0, 0) == NULL &&
		    errno == EINVAL, "an empty range (errno %d)", errno);
	errno = 0;
	TEST_ASSERT(g->devx_umem_reg(cdev->ctx, page,
		    UINTPTR_MAX - (uintptr_t)page + 2, 0) == NULL &&
		    errno == EINVAL, "a range past 2^64 (errno %d)", errno);
	TDEV_ASSERT_LIVE(0, live, "nothing registered");
	return TEST_SUCCESS;
}

/* A refused destroy: the status's errno, no EREMOTEIO (no mailbox). */
static int
test_destroy_refused_errno(void)
{
	struct mlx5_devx_obj *mkey;
	struct dx_buf b;

	TDEV_SIM_ONLY("fault injection (a refused DESTROY_MKEY and DESTROY_UMEM)");
	TEST_ASSERT_SUCCESS(dx_buf_get(&b, 4096), "");
	mkey = dx_mtt(&b, true);
	TEST_ASSERT_NOT_NULL(mkey, "");
	TEST_ASSERT_SUCCESS(mlx5_sim_fault_set(DX_CARD, 0,
		MLX5_CMD_OP_DESTROY_MKEY, 1, MLX5_CMD_STAT_RES_BUSY), "");
	TEST_ASSERT_EQUAL(cdev->glue->devx_obj_destroy(mkey->obj), EBUSY,
			  "RES_BUSY is EBUSY, not EREMOTEIO");
	TEST_ASSERT_SUCCESS(mlx5_sim_fault_set(DX_CARD, 0,
		MLX5_CMD_OP_DESTROY_UMEM, 1, MLX5_CMD_STAT_NOT_READY), "");
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_destroy(mkey), "");
	TEST_ASSERT_EQUAL(cdev->glue->devx_umem_dereg(b.umem), EAGAIN,
			  "NOT_READY is EAGAIN (the kernel's mapping)");
	mlx5_sim_fault_clear(DX_CARD, 0);
	dx_buf_put(&b);
	return TEST_SUCCESS;
}

/*
 * A staging buffer half torn down (its mkey destroyed, the umem kept by a
 * refused DESTROY_UMEM) is not reused: a later, smaller copy through the
 * loopback QP registers a new one instead of posting a destroyed key.
 */
static int
test_lbqp_stage_refused_free(void)
{
	size_t big_len = 65536 + 1;
	uint8_t data[64], *big;
	struct mlx5_devx_lbqp lb;
	struct mlx5_devx_obj *mkey;
	long live = tdev_live(0);
	struct dx_buf b;
	int ret;

	TDEV_SIM_ONLY("fault injection (a refused DESTROY_UMEM)");
	TEST_ASSERT_SUCCESS(dx_buf_get(&b, 4096), "");
	mkey = dx_mtt(&b, true);
	TEST_ASSERT_NOT_NULL(mkey, "");
	TEST_ASSERT_SUCCESS(mlx5_devx_lbqp_create(cdev, &lb, cdev->pdn), "");
	for (size_t i = 0; i < sizeof(data); i++)
		data[i] = (uint8_t)(i * 3 + 5);
	TEST_ASSERT_SUCCESS(mlx5_devx_lbqp_copy(&lb, mkey->id,
		(uintptr_t)b.va, data, sizeof(data), true, NULL),
		"a first copy registers a staging buffer of 64 KiB");
	big = calloc(1, big_len);
	TEST_ASSERT_NOT_NULL(big, "");
	TEST_ASSERT_SUCCESS(mlx5_sim_fault_set(DX_CARD, 0,
		MLX5_CMD_OP_DESTROY_UMEM, 1, MLX5_CMD_STAT_NOT_READY), "");
	ret = mlx5_devx_lbqp_copy(&lb, mkey->id, (uintptr_t)b.va, big,
				  big_len, true, NULL);
	free(big);
	mlx5_sim_fault_clear(DX_CARD, 0);
	TEST_ASSERT(ret < 0, "growing the buffer fails: its umem is kept");
	memset(b.va, 0, b.len);
	TEST_ASSERT_SUCCESS(mlx5_devx_lbqp_copy(&lb, mkey->id,
		(uintptr_t)b.va, data, sizeof(data), true, NULL),
		"a smaller copy after the refusal");
	TEST_ASSERT(memcmp(b.va, data, sizeof(data)) == 0, "bytes");
	TEST_ASSERT_SUCCESS(mlx5_devx_lbqp_destroy(&lb), "");
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_destroy(mkey), "");
	dx_buf_put(&b);
	TDEV_ASSERT_LIVE(0, live, "all freed");
	return TEST_SUCCESS;
}

/*
 * DEVX CREATE_MKEY as the kernel rewrites it: an MTT mkey without
 * mkey_umem_valid works (the kernel sets it).
 */
static int
test_mkey_umem_valid_rewrite(void)
{
	uint8_t in[MLX5_ST_SZ_BYTES(create_mkey_in)] = { 0 };
	uint32_t out[MLX5_ST_SZ_DW(create_mkey_out)];
	void *mkc = MLX5_ADDR_OF(create_mkey_in, in, memory_key_mkey_entry);
	struct mlx5dv_devx_obj *obj;
	uint8_t byte = 7, syn;
	struct dx_buf b;

	TEST_ASSERT_SUCCESS(dx_buf_get(&b, 4096), "");
	MLX5_SET(create_mkey_in, in, opcode, MLX5_CMD_OP_CREATE_MKEY);
	MLX5_SET(create_mkey_in, in, mkey_umem_id, b.umem->umem_id);
	MLX5_SET(mkc, mkc, access_mode_1_0, MLX5_MKC_ACCESS_MODE_MTT);
	MLX5_SET(mkc, mkc, lr, 1);
	MLX5_SET(mkc, mkc, lw, 1);
	MLX5_SET(mkc, mkc, pd, cdev->pdn);
	MLX5_SET(mkc, mkc, qpn, 0xffffff);
	MLX5_SET64(mkc, mkc, start_addr, (uintptr_t)b.va);
	MLX5_SET64(mkc, mkc, len, 4096);
	obj = cdev->glue->devx_obj_create(cdev->ctx, in, sizeof(in), out,
					  sizeof(out));
	TEST_ASSERT_NOT_NULL(obj, "MTT without mkey_umem_valid (errno %d)",
			     errno);
	TEST_ASSERT_EQUAL(MLX5_GET(create_mkey_in, in, mkey_umem_valid), 0,
			  "the caller's mailbox is not written");
	TEST_ASSERT_SUCCESS(tdev_access(0, cdev->pdn,
		MLX5_GET(create_mkey_out, out, mkey_index) << 8,
		(uintptr_t)b.va + 5, &byte, 1, true, &syn), "");
	TEST_ASSERT_EQUAL(b.va[5], 7, "through the umem");
	TEST_ASSERT_SUCCESS(cdev->glue->devx_obj_destroy(obj), "");
	dx_buf_put(&b);
	return TEST_SUCCESS;
}

/*
 * DEALLOC_PD is EBUSY for verbs users only: a DEVX mkey holds no count on
 * its PD, and once the PD is gone it translates nothing.
 */
static int
test_pd_dealloc_devx_user(void)
{
	const struct mlx5_glue *g = cdev->glue;
	long live = tdev_live(0);
	long reclaimed = tdev_hw() ? 0 : sim_reclaimed(DX_CARD, 0);
	struct mlx5_devx_mkey_attr attr;
	struct mlx5_devx_obj *mkey;
	struct ibv_mr *mr;
	struct ibv_pd *pd;
	uint8_t byte = 1, syn;
	uint32_t pdn;
	struct dx_buf b;

	TEST_ASSERT_SUCCESS(dx_buf_get(&b, 4096), "");
	pd = g->alloc_pd(cdev->ctx);
	TEST_ASSERT_NOT_NULL(pd, "");
	TEST_ASSERT_SUCCESS(g->query_pdn(pd, &pdn), "");
	mr = g->reg_mr(pd, b.va, 4096, IBV_ACCESS_LOCAL_WRITE);
	TEST_ASSERT_NOT_NULL(mr, "");
	TEST_ASSERT_EQUAL(g->dealloc_pd(pd), EBUSY, "a verbs MR holds it");
	TEST_ASSERT_SUCCESS(g->dereg_mr(mr), "");
	attr = (struct mlx5_devx_mkey_attr){
		.access_mode = MLX5_MKC_ACCESS_MODE_MTT,
		.addr = (uintptr_t)b.va, .size = 4096, .pd = pdn,
		.lr = true, .lw = true, .umem_id = b.umem->umem_id,
		.log_page_size = 12,
	};
	mkey = mlx5_devx_cmd_mkey_create(cdev, &attr);
	TEST_ASSERT_NOT_NULL(mkey, "");
	TEST_ASSERT_SUCCESS(tdev_access(0, pdn, mkey->id,
		(uintptr_t)b.va, &byte, 1, true, &syn), "");
	TEST_ASSERT_SUCCESS(g->dealloc_pd(pd), "a DEVX mkey holds no count");
	TEST_ASSERT(tdev_access(0, pdn, mkey->id, (uintptr_t)b.va,
		    &byte, 1, true, &syn) < 0, "its PD is gone");
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_destroy(mkey), "");
	dx_buf_put(&b);
	TDEV_ASSERT_LIVE(0, live, "");
	/* What a close reclaims is counted by the software device. */
	if (!tdev_hw())
		TEST_ASSERT_EQUAL(sim_reclaimed(DX_CARD, 0), reclaimed, "");
	return TEST_SUCCESS;
}

/*
 * Probe slot 1, a second vHCA of the card, as the importer of the case's
 * device; TEST_SKIPPED where a real pair cannot grant or alias mkeys.
 */
static int
dx_importer_get(struct mlx5_common_device **imp)
{
	TDEV_NEED_SLOT1();
	if (tdev_hw() && !(cdev->caps.allowed_object_for_other_vhca_access &
			   MLX5_ALLOWED_OBJ_FOR_OTHER_VHCA_ACCESS_MKEY))
		TEST_SKIP("device %s lacks allowed_object_for_other_vhca_access (MKEY): it cannot grant its mkeys to other vHCAs",
			  tdev_name(0));
	TEST_ASSERT_SUCCESS(tdev_probe(1, "card=30,vhca_id=1"), "");
	*imp = tdev_cdev(1);
	TEST_ASSERT_NOT_NULL(*imp, "");
	if (tdev_hw() &&
	    !((*imp)->caps.cross_vhca_object_to_object_supported &
	      MLX5_CROSS_VHCA_OBJ_TO_OBJ_LOCAL_MKEY_TO_REMOTE_MKEY))
		TEST_SKIP("device %s lacks cross_vhca_object_to_object_supported (LOCAL_MKEY_TO_REMOTE_MKEY): it cannot create alias mkeys",
			  tdev_name(1));
	return TEST_SUCCESS;
}

/* dx_importer_get(), and an MTT mkey of the case's device over @b. */
static int
dx_alias_setup(struct mlx5_common_device **imp, struct dx_buf *b,
	       struct mlx5_devx_obj **owner_mkey)
{
	int ret = dx_importer_get(imp);

	if (ret != TEST_SUCCESS)
		return ret;
	TEST_ASSERT_SUCCESS(dx_buf_get(b, 4096), "");
	*owner_mkey = dx_mtt(b, true);
	TEST_ASSERT_NOT_NULL(*owner_mkey, "");
	return TEST_SUCCESS;
}

/* Undo dx_alias_setup(): nothing may be left in the importer's vHCA. */
static int
dx_alias_teardown(struct mlx5_devx_obj *owner_mkey, struct dx_buf *b)
{
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_destroy(owner_mkey), "");
	dx_buf_put(b);
	TEST_ASSERT_SUCCESS(tdev_remove(1), "");
	TDEV_ASSERT_LIVE(1, 0, "");
	return TEST_SUCCESS;
}

/*
 * Grant @owner_mkey of the case's device to other vHCAs with @key, and
 * make an alias of it on @imp with the same key; NULL on failure.
 */
static struct mlx5_devx_obj *
dx_grant_alias(struct mlx5_common_device *imp,
	       const struct mlx5_devx_obj *owner_mkey, const uint8_t *key)
{
	struct mlx5_devx_alias_attr attr = {
		.obj_type = MLX5_GENERAL_OBJ_TYPE_MKEY,
		.vhca_id = cdev->caps.vhca_id,
		.obj_id = MLX5_MKEY_INDEX(owner_mkey->id),
		.pdn = imp->pdn,
	};

	if (mlx5_devx_cmd_allow_other_vhca_access(cdev,
		MLX5_GENERAL_OBJ_TYPE_MKEY, attr.obj_id, key) != 0)
		return NULL;
	memcpy(attr.access_key, key, MLX5_ACCESS_KEY_LEN);
	return mlx5_devx_cmd_alias_obj_create(imp, &attr);
}

/* Alias objects through the typed builders: create, query, status. */
static int
test_alias_builders(void)
{
	static const uint8_t key[MLX5_ACCESS_KEY_LEN] = "builder test key";
	struct mlx5_devx_alias_attr attr = {
		.obj_type = MLX5_GENERAL_OBJ_TYPE_MKEY,
		/* The owner: vhca_id=0 on the software device. */
		.vhca_id = cdev->caps.vhca_id,
	};
	struct mlx5_common_device *imp;
	struct mlx5_devx_obj *owner_mkey, *alias;
	uint32_t status = 0xff;
	struct dx_buf b;
	int ret;

	ret = dx_alias_setup(&imp, &b, &owner_mkey);
	if (ret != TEST_SUCCESS)
		return ret;
	attr.obj_id = MLX5_MKEY_INDEX(owner_mkey->id);
	memcpy(attr.access_key, key, sizeof(key));
	attr.pdn = imp->pdn;
	TEST_ASSERT(mlx5_devx_cmd_alias_obj_create(imp, &attr) == NULL,
		    "an mkey never allowed for other vHCAs");
	TEST_ASSERT_EQUAL(rte_errno, EINVAL, "");
	TEST_ASSERT_EQUAL(mlx5_devx_cmd_allow_other_vhca_access(cdev, 0x1234,
		attr.obj_id, key), -EINVAL, "an object type other than MKEY");
	TEST_ASSERT_EQUAL(mlx5_devx_cmd_allow_other_vhca_access(cdev,
		MLX5_GENERAL_OBJ_TYPE_MKEY, attr.obj_id + 77, key), -EINVAL,
		"an mkey that does not exist");
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_allow_other_vhca_access(cdev,
		MLX5_GENERAL_OBJ_TYPE_MKEY, attr.obj_id, key), "");
	attr.pdn = imp->pdn + 50;
	TEST_ASSERT(mlx5_devx_cmd_alias_obj_create(imp, &attr) == NULL,
		    "metadata names a PD the importer does not have");
	attr.pdn = imp->pdn;
	alias = mlx5_devx_cmd_alias_obj_create(imp, &attr);
	TEST_ASSERT_NOT_NULL(alias, "");
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_alias_obj_query(alias, &status), "");
	TEST_ASSERT_EQUAL(status, 0, "valid while the owner's mkey lives");
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_destroy(owner_mkey), "owner revokes");
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_alias_obj_query(alias, &status), "");
	TEST_ASSERT(status != 0, "the alias reports its target gone");
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_destroy(alias), "");
	dx_buf_put(&b);
	TEST_ASSERT_SUCCESS(tdev_remove(1), "");
	TDEV_ASSERT_LIVE(1, 0, "");
	return TEST_SUCCESS;
}

/* DEK objects: plaintext AES-XTS keys, queried without the key. */
static int
test_dek(void)
{
	static const uint8_t key[64] = "a 64-byte AES-XTS-256 key pair, two keys of 32 bytes each.....";
	struct mlx5_devx_dek_attr attr = {
		.key_size = MLX5_DEK_KEY_SIZE_256,
		.key_purpose = MLX5_DEK_KEY_PURPOSE_AES_XTS,
		.pd = cdev->pdn,
		.key = key,
		.key_len = 64,
		.has_keytag = true,
		.keytag = 0x1122334455667788ull,
		.opaque = 0xabcdef,
	};
	uint32_t in[MLX5_ST_SZ_DW(general_obj_in_cmd_hdr)] = { 0 };
	uint32_t out[MLX5_ST_SZ_DW(query_dek_out)];
	struct mlx5_devx_dek_info info;
	struct mlx5_devx_obj *dek, *dek128;
	long live = tdev_live(0);
	const uint8_t *k;

	if (!cdev->caps.crypto.sup || !cdev->caps.crypto.dek ||
	    cdev->caps.crypto.wrapped_import)
		TEST_SKIP("device lacks plaintext-key DEK objects");
	dek = mlx5_devx_cmd_create_dek(cdev, &attr);
	TEST_ASSERT_NOT_NULL(dek, "AES-XTS-256 DEK");
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_query_dek(dek, &info), "");
	TEST_ASSERT_EQUAL(info.state, MLX5_DEK_STATE_READY, "");
	TEST_ASSERT_EQUAL(info.key_size, MLX5_DEK_KEY_SIZE_256, "");
	TEST_ASSERT_EQUAL(info.key_purpose, MLX5_DEK_KEY_PURPOSE_AES_XTS, "");
	TEST_ASSERT(info.has_keytag && info.pd == cdev->pdn &&
		    info.opaque == 0xabcdef, "");
	/* The key is never read back. */
	MLX5_SET(general_obj_in_cmd_hdr, in, opcode,
		 MLX5_CMD_OP_QUERY_GENERAL_OBJECT);
	MLX5_SET(general_obj_in_cmd_hdr, in, obj_type,
		 MLX5_GENERAL_OBJ_TYPE_DEK);
	MLX5_SET(general_obj_in_cmd_hdr, in, obj_id, dek->id);
	TEST_ASSERT_SUCCESS(mlx5_devx_obj_query(dek, "QUERY_DEK", in,
			    sizeof(in), out, sizeof(out)), "");
	k = MLX5_ADDR_OF(dek, MLX5_ADDR_OF(query_dek_out, out, dek), key);
	for (unsigned int i = 0; i < MLX5_FLD_SZ_BYTES(dek, key); i++)
		TEST_ASSERT(k[i] == 0, "key byte %u read back", i);
	attr.key_size = MLX5_DEK_KEY_SIZE_128;
	attr.key_len = 32;
	attr.has_keytag = false;
	dek128 = mlx5_devx_cmd_create_dek(cdev, &attr);
	TEST_ASSERT_NOT_NULL(dek128, "AES-XTS-128 DEK");
	/* Each rule broken once. */
	attr.key_len = 64;
	TEST_ASSERT(mlx5_devx_cmd_create_dek(cdev, &attr) == NULL &&
		    rte_errno == EINVAL, "64 bytes for a 128-bit key");
	attr.key_len = 32;
	attr.pd = cdev->pdn + 100;
	TEST_ASSERT(mlx5_devx_cmd_create_dek(cdev, &attr) == NULL &&
		    rte_errno == EINVAL, "an unknown PD");
	attr.pd = cdev->pdn;
	if (!tdev_hw()) {
		attr.key_purpose = MLX5_DEK_KEY_PURPOSE_TLS;
		TEST_ASSERT(mlx5_devx_cmd_create_dek(cdev, &attr) == NULL &&
			    rte_errno == EINVAL, "TLS keys: not modelled");
		attr.key_purpose = MLX5_DEK_KEY_PURPOSE_AES_XTS;
		TEST_ASSERT_SUCCESS(mlx5_sim_fault_set(DX_CARD, 0,
			MLX5_CMD_OP_CREATE_GENERAL_OBJECT, 1,
			MLX5_CMD_STAT_NO_RES_ERR), "");
		TEST_ASSERT(mlx5_devx_cmd_create_dek(cdev, &attr) == NULL &&
			    rte_errno == EAGAIN, "refused by the device");
		mlx5_sim_fault_clear(DX_CARD, 0);
	}
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_destroy(dek128), "");
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_destroy(dek), "");
	TDEV_ASSERT_LIVE(0, live, "nothing left");
	return TEST_SUCCESS;
}

static int
test_dek_needs_crypto(void)
{
	static const uint8_t key[32];
	struct mlx5_devx_dek_attr attr = {
		.key_purpose = MLX5_DEK_KEY_PURPOSE_AES_XTS,
		.key = key,
		.key_len = 32,
	};
	struct mlx5_common_device *plain;
	long live;

	TDEV_SIM_ONLY("a device without crypto (crypto=0)");
	TEST_ASSERT_SUCCESS(tdev_probe(1, "card=30,vhca_id=1,crypto=0"), "");
	plain = tdev_cdev(1);
	TEST_ASSERT_NOT_NULL(plain, "");
	TEST_ASSERT(!plain->caps.crypto.sup && !plain->caps.crypto.dek, "");
	live = tdev_live(1);
	attr.pd = plain->pdn;
	TEST_ASSERT(mlx5_devx_cmd_create_dek(plain, &attr) == NULL &&
		    rte_errno == ENOTSUP, "refused before asking");
	TDEV_ASSERT_LIVE(1, live, "");
	return TEST_SUCCESS;
}

/*
 * A CREATE_MKEY mailbox in access mode @mode with room for @entries
 * translation entries: local read and write on the device's PD, any QP.
 */
static uint8_t *
dx_mkey_in(uint32_t mode, size_t entries, size_t *inlen)
{
	void *mkc;
	uint8_t *in;

	*inlen = MLX5_ST_SZ_BYTES(create_mkey_in) +
		 entries * MLX5_ST_SZ_BYTES(klm);
	in = calloc(1, *inlen);
	if (in == NULL)
		return NULL;
	mkc = MLX5_ADDR_OF(create_mkey_in, in, memory_key_mkey_entry);
	MLX5_SET(create_mkey_in, in, opcode, MLX5_CMD_OP_CREATE_MKEY);
	MLX5_SET(mkc, mkc, access_mode_1_0, mode & 0x3);
	MLX5_SET(mkc, mkc, access_mode_4_2, mode >> 2);
	MLX5_SET(mkc, mkc, lr, 1);
	MLX5_SET(mkc, mkc, lw, 1);
	MLX5_SET(mkc, mkc, pd, cdev->pdn);
	MLX5_SET(mkc, mkc, qpn, 0xffffff);
	return in;
}

/* The mkey context of a CREATE_MKEY mailbox. */
#define DX_MKC(in) MLX5_ADDR_OF(create_mkey_in, (in), memory_key_mkey_entry)

/* CREATE_MKEY of @in is accepted; the mkey is destroyed again. */
static int
dx_mkey_accepted(struct ibv_context *ctx, const void *in, size_t inlen,
		 const char *what)
{
	uint32_t out[MLX5_ST_SZ_DW(create_mkey_out)];
	struct mlx5dv_devx_obj *obj;

	obj = cdev->glue->devx_obj_create(ctx, in, inlen, out, sizeof(out));
	TEST_ASSERT(obj != NULL, "%s: accepted (errno %d, status 0x%x)", what,
		    errno, MLX5_GET(mbox_out, out, status));
	TEST_ASSERT_SUCCESS(cdev->glue->devx_obj_destroy(obj), "%s", what);
	return TEST_SUCCESS;
}

/*
 * The object create of @in on @ctx is refused by the device (EREMOTEIO)
 * with @status (checked on the software device: a real one only has to
 * refuse), and nothing is left behind in the vHCA of @slot.
 */
static int
dx_create_refused(unsigned int slot, struct ibv_context *ctx, const void *in,
		  size_t inlen, uint8_t status, const char *what)
{
	uint32_t out[MLX5_ST_SZ_DW(create_alias_obj_out)];
	struct mlx5dv_devx_obj *obj;
	long live = tdev_live(slot);

	errno = 0;
	obj = cdev->glue->devx_obj_create(ctx, in, inlen, out, sizeof(out));
	if (obj != NULL)
		cdev->glue->devx_obj_destroy(obj);
	TEST_ASSERT(obj == NULL, "%s: refused", what);
	TEST_ASSERT_EQUAL(errno, EREMOTEIO, "%s: by the device", what);
	if (!tdev_hw())
		TEST_ASSERT_EQUAL(MLX5_GET(mbox_out, out, status), status,
				  "%s: status", what);
	TDEV_ASSERT_LIVE(slot, live, "%s: nothing created", what);
	return TEST_SUCCESS;
}

/*
 * The query @in of @obj into a mailbox of a general object header only:
 * refused by the device with BAD_OUTPUT_LEN.
 */
static int
dx_query_no_room(struct mlx5dv_devx_obj *obj, const void *in, size_t inlen,
		 const char *what)
{
	/* Room behind: a device that wrote past the length would not crash. */
	uint8_t out[1024];

	TEST_ASSERT_EQUAL(cdev->glue->devx_obj_query(obj, in, inlen, out,
		MLX5_ST_SZ_BYTES(general_obj_out_cmd_hdr)), EREMOTEIO, "%s",
		what);
	TEST_ASSERT_EQUAL(MLX5_GET(mbox_out, out, status),
			  MLX5_CMD_STAT_BAD_OUTP_LEN_ERR, "%s", what);
	return TEST_SUCCESS;
}

/*
 * Another DEVX context of @dev (another uverbs file, another uid) and a
 * PD of its own, whose pdn goes to @pdn; NULL on failure.
 */
static struct ibv_context *
dx_other_ctx(struct mlx5_common_device *dev, struct ibv_pd **pd,
	     uint32_t *pdn)
{
	struct mlx5dv_context_attr devx = {
		.flags = MLX5DV_CONTEXT_FLAGS_DEVX,
	};
	struct ibv_context *other;

	other = dev->glue->dv_open_device(dev->ibv_dev, &devx);
	if (other == NULL)
		return NULL;
	*pd = dev->glue->alloc_pd(other);
	if (*pd != NULL && dev->glue->query_pdn(*pd, pdn) == 0)
		return other;
	if (*pd != NULL)
		dev->glue->dealloc_pd(*pd);
	dev->glue->close_device(other);
	return NULL;
}

#define DX_ACCEPTED(in, inlen, what) \
	TEST_ASSERT_SUCCESS(dx_mkey_accepted(cdev->ctx, in, inlen, what), "")
#define DX_REFUSED_ON(slot, ctx, in, inlen, status, what) \
	TEST_ASSERT_SUCCESS(dx_create_refused(slot, ctx, in, inlen, \
		MLX5_CMD_STAT_ ## status, what), "")
#define DX_REFUSED(in, inlen, status, what) \
	DX_REFUSED_ON(0, cdev->ctx, in, inlen, status, what)

/*
 * The rules of an MTT mkey over a umem, each broken once from a mailbox
 * the device takes: the umem's range, the length, the address range, the
 * access mode, and the context that owns the umem and the PD (the uid).
 */
static int
test_mkey_mtt_rules(void)
{
	const struct mlx5_glue *g = cdev->glue;
	struct mlx5dv_devx_umem *their_umem;
	struct ibv_context *other;
	struct ibv_pd *their_pd;
	uint32_t their_pdn;
	long live = tdev_live(0);
	size_t inlen;
	struct dx_buf b;
	uint8_t *in;
	void *mkc;

	TEST_ASSERT_SUCCESS(dx_buf_get(&b, 4096), "");
	in = dx_mkey_in(MLX5_MKC_ACCESS_MODE_MTT, 0, &inlen);
	TEST_ASSERT_NOT_NULL(in, "");
	mkc = DX_MKC(in);
	MLX5_SET(create_mkey_in, in, mkey_umem_id, b.umem->umem_id);
	MLX5_SET64(mkc, mkc, start_addr, (uintptr_t)b.va);
	MLX5_SET64(mkc, mkc, len, 4096);
	DX_ACCEPTED(in, inlen, "the whole umem");
	/* [offset, offset + len) must fit in the umem, to the byte. */
	MLX5_SET64(mkc, mkc, len, 4097);
	DX_REFUSED(in, inlen, BAD_PARAM_ERR, "one byte past the umem");
	MLX5_SET64(mkc, mkc, len, 96);
	MLX5_SET64(create_mkey_in, in, mkey_umem_offset, 4000);
	DX_ACCEPTED(in, inlen, "the last 96 bytes");
	MLX5_SET64(mkc, mkc, len, 97);
	DX_REFUSED(in, inlen, BAD_PARAM_ERR, "offset + len one past the end");
	MLX5_SET64(mkc, mkc, len, 16);
	MLX5_SET64(create_mkey_in, in, mkey_umem_offset, 8192);
	DX_REFUSED(in, inlen, BAD_PARAM_ERR, "an offset past the umem");
	MLX5_SET64(create_mkey_in, in, mkey_umem_offset, 0);
	/* A length, and an address range that does not wrap. */
	MLX5_SET64(mkc, mkc, len, 0);
	DX_REFUSED(in, inlen, BAD_PARAM_ERR, "len 0 on an mkey in use");
	MLX5_SET(mkc, mkc, length64, 1);
	DX_REFUSED(in, inlen, BAD_PARAM_ERR, "length64: no umem spans 2^64");
	MLX5_SET(mkc, mkc, length64, 0);
	MLX5_SET64(mkc, mkc, len, 4096);
	MLX5_SET64(mkc, mkc, start_addr, UINT64_MAX - 4094);
	DX_REFUSED(in, inlen, BAD_PARAM_ERR, "start + len past 2^64");
	MLX5_SET64(mkc, mkc, start_addr, UINT64_MAX - 4095);
	DX_ACCEPTED(in, inlen, "a range ending at 2^64 - 1");
	MLX5_SET64(mkc, mkc, start_addr, (uintptr_t)b.va);
	/*
	 * An access mode the device does not give applications (SW_ICM,
	 * MEMIC, and one the PRM does not define), also with a mailbox a
	 * crossing mkey would be made of.
	 */
	if (!tdev_hw()) {
		static const uint32_t modes[] = {
			MLX5_MKC_ACCESS_MODE_SW_ICM,
			MLX5_MKC_ACCESS_MODE_MEMIC, 0x7,
		};
		struct mlx5_devx_obj *target = dx_mtt(&b, true);

		TEST_ASSERT_NOT_NULL(target, "");
		MLX5_SET64(mkc, mkc, start_addr, 0);
		MLX5_SET(mkc, mkc, crossing_target_vhca_id,
			 cdev->caps.vhca_id);
		MLX5_SET(mkc, mkc, translations_octword_size, target->id);
		MLX5_SET(mkc, mkc, access_mode_1_0,
			 MLX5_MKC_ACCESS_MODE_CROSSING & 0x3);
		MLX5_SET(mkc, mkc, access_mode_4_2,
			 MLX5_MKC_ACCESS_MODE_CROSSING >> 2);
		DX_ACCEPTED(in, inlen, "a crossing mkey to one of its own");
		for (unsigned int i = 0; i < RTE_DIM(modes); i++) {
			MLX5_SET(mkc, mkc, access_mode_1_0, modes[i] & 0x3);
			MLX5_SET(mkc, mkc, access_mode_4_2, modes[i] >> 2);
			DX_REFUSED(in, inlen, BAD_PARAM_ERR, "access mode");
		}
		MLX5_SET(mkc, mkc, access_mode_1_0, MLX5_MKC_ACCESS_MODE_MTT);
		MLX5_SET(mkc, mkc, access_mode_4_2, 0);
		MLX5_SET(mkc, mkc, translations_octword_size, 0);
		MLX5_SET(mkc, mkc, crossing_target_vhca_id, 0);
		MLX5_SET64(mkc, mkc, start_addr, (uintptr_t)b.va);
		TEST_ASSERT_SUCCESS(mlx5_devx_cmd_destroy(target), "");
	}
	/* Another context's umem and PD: another uid, not this one's. */
	other = dx_other_ctx(cdev, &their_pd, &their_pdn);
	TEST_ASSERT_NOT_NULL(other, "");
	their_umem = g->devx_umem_reg(other, b.va, b.len,
				      IBV_ACCESS_LOCAL_WRITE);
	TEST_ASSERT_NOT_NULL(their_umem, "");
	MLX5_SET(create_mkey_in, in, mkey_umem_id, their_umem->umem_id);
	MLX5_SET(mkc, mkc, pd, their_pdn);
	TEST_ASSERT_SUCCESS(dx_mkey_accepted(other, in, inlen,
		"its own umem on its own PD"), "");
	MLX5_SET(mkc, mkc, pd, cdev->pdn);
	DX_REFUSED(in, inlen, BAD_RES_ERR, "the umem of another context");
	MLX5_SET(create_mkey_in, in, mkey_umem_id, b.umem->umem_id);
	MLX5_SET(mkc, mkc, pd, their_pdn);
	DX_REFUSED(in, inlen, BAD_RES_ERR, "the PD of another context");
	TEST_ASSERT_SUCCESS(g->dealloc_pd(their_pd), "");
	TEST_ASSERT_SUCCESS(g->devx_umem_dereg(their_umem), "");
	TEST_ASSERT_SUCCESS(g->close_device(other), "");
	free(in);
	dx_buf_put(&b);
	TDEV_ASSERT_LIVE(0, live, "nothing left behind");
	return TEST_SUCCESS;
}

/*
 * The rules of a KLM mkey's list, each broken once from a mailbox the
 * device takes: entries within the list's size, the mailbox holding them,
 * a list in use having entries.
 */
static int
test_mkey_klm_rules(void)
{
	long live = tdev_live(0);
	struct mlx5_devx_obj *m1;
	size_t inlen, full;
	struct dx_buf b1;
	uint8_t *in, *e;
	void *mkc;

	TEST_ASSERT_SUCCESS(dx_buf_get(&b1, 8192), "");
	m1 = dx_mtt(&b1, true);
	TEST_ASSERT_NOT_NULL(m1, "");
	in = dx_mkey_in(MLX5_MKC_ACCESS_MODE_KLM, 5, &full);
	TEST_ASSERT_NOT_NULL(in, "");
	mkc = DX_MKC(in);
	MLX5_SET64(mkc, mkc, len, 5 * 1024);
	MLX5_SET(mkc, mkc, translations_octword_size, 4);
	e = MLX5_ADDR_OF(create_mkey_in, in, klm_pas_mtt);
	for (unsigned int i = 0; i < 5; i++, e += MLX5_ST_SZ_BYTES(klm)) {
		MLX5_SET(klm, e, byte_count, 1024);
		MLX5_SET(klm, e, mkey, m1->id);
		MLX5_SET64(klm, e, address, (uintptr_t)b1.va + i * 1024);
	}
	inlen = full - MLX5_ST_SZ_BYTES(klm);
	MLX5_SET(create_mkey_in, in, translations_octword_actual_size, 4);
	MLX5_SET64(mkc, mkc, len, 4 * 1024);
	DX_ACCEPTED(in, inlen, "four entries in a list of four");
	MLX5_SET(create_mkey_in, in, translations_octword_actual_size, 5);
	MLX5_SET64(mkc, mkc, len, 5 * 1024);
	DX_REFUSED(in, full, BAD_PARAM_ERR, "five entries in a list of four");
	MLX5_SET(mkc, mkc, translations_octword_size, 8);
	DX_ACCEPTED(in, full, "five entries in a list of eight");
	DX_REFUSED(in, full - MLX5_ST_SZ_BYTES(klm), BAD_INP_LEN_ERR,
		   "five entries, a mailbox with four");
	/* A list without entries is one a UMR fills: created free. */
	MLX5_SET(create_mkey_in, in, translations_octword_actual_size, 0);
	DX_REFUSED(in, full, BAD_PARAM_ERR, "no entries, not free");
	MLX5_SET(mkc, mkc, free, 1);
	DX_ACCEPTED(in, full, "no entries, free");
	if (!tdev_hw()) {
		/* The software device's limit and reading of the kernel. */
		MLX5_SET(mkc, mkc, translations_octword_size, (1u << 16) + 4);
		DX_REFUSED(in, full, BAD_PARAM_ERR,
			   "a list above the device's 2^16 entries");
		MLX5_SET(mkc, mkc, translations_octword_size, 8);
		MLX5_SET(mkc, mkc, free, 0);
		MLX5_SET(create_mkey_in, in, translations_octword_actual_size,
			 5);
		MLX5_SET(create_mkey_in, in, mkey_umem_valid, 1);
		DX_REFUSED(in, full, BAD_PARAM_ERR,
			   "mkey_umem_valid on a list of entries");
	}
	/*
	 * DPDK's own crypto PMD makes its UMR keys so, on real firmware: a
	 * list of padding entries, length 0, not free, UMR-enabled (a UMR
	 * configures each before use). Without UMR: no length, refused.
	 */
	MLX5_SET(mkc, mkc, free, 0);
	MLX5_SET(mkc, mkc, translations_octword_size, 8);
	MLX5_SET(create_mkey_in, in, mkey_umem_valid, 0);
	MLX5_SET(create_mkey_in, in, translations_octword_actual_size, 4);
	memset(MLX5_ADDR_OF(create_mkey_in, in, klm_pas_mtt), 0,
	       5 * MLX5_ST_SZ_BYTES(klm));
	MLX5_SET64(mkc, mkc, len, 0);
	DX_REFUSED(in, full, BAD_PARAM_ERR, "length 0, no UMR to come");
	MLX5_SET(mkc, mkc, umr_en, 1);
	DX_ACCEPTED(in, full, "length 0, padding only, UMR-enabled");
	free(in);
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_destroy(m1), "");
	dx_buf_put(&b1);
	TDEV_ASSERT_LIVE(0, live, "nothing left behind");
	return TEST_SUCCESS;
}

/*
 * Probe software device @name with shape @args (one without
 * crossing_vhca_mkey) and make an mlx5dv mkey on its PD.
 */
static int
dx_nocross_get(const char *name, const char *args,
	       struct mlx5_common_device **dev, struct mlx5dv_mkey **mkey)
{
	struct mlx5dv_mkey_init_attr dv_attr = {
		.create_flags = MLX5DV_MKEY_INIT_ATTR_FLAGS_INDIRECT,
		.max_entries = 4,
	};

	TEST_ASSERT_SUCCESS(sim_probe(name, args), "");
	*dev = sim_cdev(name);
	TEST_ASSERT_NOT_NULL(*dev, "");
	dv_attr.pd = (*dev)->pd;
	*mkey = (*dev)->glue->dv_create_mkey(&dv_attr);
	TEST_ASSERT_NOT_NULL(*mkey, "");
	return TEST_SUCCESS;
}

/*
 * A crossing mkey (here to an mkey of its own vHCA, as the kernel's
 * data-direct MR makes one): start_addr 0, not free, and only on a
 * device with crossing_vhca_mkey, which the device checks itself.
 */
static int
test_mkey_crossing_rules(void)
{
	long live = tdev_live(0);
	struct mlx5_devx_obj *target;
	struct mlx5_common_device *nc;
	uint32_t out[MLX5_ST_SZ_DW(create_mkey_out)];
	struct mlx5dv_mkey *nc_target;
	struct dx_buf b;
	size_t inlen;
	uint8_t *in;
	void *mkc;

	if (tdev_hw() && !cdev->caps.crossing_vhca_mkey)
		TEST_SKIP("device lacks crossing_vhca_mkey");
	TEST_ASSERT_SUCCESS(dx_buf_get(&b, 4096), "");
	target = dx_mtt(&b, true);
	TEST_ASSERT_NOT_NULL(target, "");
	in = dx_mkey_in(MLX5_MKC_ACCESS_MODE_CROSSING, 0, &inlen);
	TEST_ASSERT_NOT_NULL(in, "");
	mkc = DX_MKC(in);
	MLX5_SET64(mkc, mkc, len, (uintptr_t)b.va + b.len);
	MLX5_SET(mkc, mkc, crossing_target_vhca_id, cdev->caps.vhca_id);
	MLX5_SET(mkc, mkc, translations_octword_size, target->id);
	DX_ACCEPTED(in, inlen, "a crossing mkey");
	MLX5_SET64(mkc, mkc, start_addr, (uintptr_t)b.va);
	DX_REFUSED(in, inlen, BAD_PARAM_ERR, "start_addr other than 0");
	MLX5_SET64(mkc, mkc, start_addr, 0);
	MLX5_SET(mkc, mkc, free, 1);
	DX_REFUSED(in, inlen, BAD_PARAM_ERR, "created free");
	MLX5_SET(mkc, mkc, free, 0);
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_destroy(target), "");
	dx_buf_put(&b);
	TDEV_ASSERT_LIVE(0, live, "");
	if (tdev_hw()) {
		free(in);
		return TEST_SUCCESS;
	}
	/* Past the common layer's check, the device refuses it too. */
	TEST_ASSERT_SUCCESS(dx_nocross_get("mlx5_sim1",
		"card=31,vhca_id=0,crossing=0", &nc, &nc_target), "");
	MLX5_SET(mkc, mkc, pd, nc->pdn);
	MLX5_SET(mkc, mkc, crossing_target_vhca_id, 0);
	MLX5_SET(mkc, mkc, translations_octword_size, nc_target->lkey);
	live = sim_live(31, 0);
	errno = 0;
	TEST_ASSERT(nc->glue->devx_obj_create(nc->ctx, in, inlen,
		    out, sizeof(out)) == NULL && errno == EREMOTEIO,
		    "no crossing_vhca_mkey: refused");
	TEST_ASSERT_EQUAL(MLX5_GET(mbox_out, out, status),
			  MLX5_CMD_STAT_BAD_PARAM_ERR, "");
	TEST_ASSERT_EQUAL(sim_live(31, 0), live, "");
	free(in);
	TEST_ASSERT_SUCCESS(nc->glue->dv_destroy_mkey(nc_target), "");
	TEST_ASSERT_SUCCESS(sim_remove("mlx5_sim1"), "");
	TEST_ASSERT_EQUAL(sim_live(31, 0), 0, "");
	return TEST_SUCCESS;
}

/* QUERY_MKEY of @obj (mkey index @index) into @out. */
static int
dx_query_mkey(struct mlx5dv_devx_obj *obj, uint32_t index, uint32_t *out)
{
	uint32_t in[MLX5_ST_SZ_DW(query_mkey_in)] = { 0 };

	MLX5_SET(query_mkey_in, in, opcode, MLX5_CMD_OP_QUERY_MKEY);
	MLX5_SET(query_mkey_in, in, mkey_index, index);
	memset(out, 0, MLX5_ST_SZ_BYTES(query_mkey_out));
	return cdev->glue->devx_obj_query(obj, in, sizeof(in), out,
					  MLX5_ST_SZ_BYTES(query_mkey_out));
}

/*
 * QUERY_MKEY reports the mkey context as created: every field of an MTT,
 * a KLM and a crossing mkey, the key byte (mkey_7_0, which the key
 * carries), and the first two entries of a KLM list.
 */
static int
test_mkey_query_fields(void)
{
	uint32_t out[MLX5_ST_SZ_DW(query_mkey_out)];
	uint32_t cout[MLX5_ST_SZ_DW(create_mkey_out)];
	struct mlx5dv_mkey_init_attr dv_attr = {
		.create_flags = MLX5DV_MKEY_INIT_ATTR_FLAGS_INDIRECT,
		.max_entries = 4,
	};
	struct mlx5dv_devx_obj *obj, *klm_obj;
	struct mlx5_common_device *imp;
	struct mlx5dv_mkey *target;
	uint8_t byte = 0x33, syn;
	long live = tdev_live(0);
	uint32_t index;
	size_t inlen;
	struct dx_buf b;
	uint8_t *in, *e;
	void *mkc, *qmkc = MLX5_ADDR_OF(query_mkey_out, out,
					memory_key_mkey_entry);

	/* MTT: access rights, key byte, page size, all set. */
	TEST_ASSERT_SUCCESS(dx_buf_get(&b, 4096), "");
	in = dx_mkey_in(MLX5_MKC_ACCESS_MODE_MTT, 2, &inlen);
	TEST_ASSERT_NOT_NULL(in, "");
	mkc = DX_MKC(in);
	MLX5_SET(create_mkey_in, in, mkey_umem_id, b.umem->umem_id);
	MLX5_SET(mkc, mkc, umr_en, 1);
	MLX5_SET(mkc, mkc, a, 1);
	MLX5_SET(mkc, mkc, rw, 1);
	MLX5_SET(mkc, mkc, rr, 1);
	MLX5_SET(mkc, mkc, en_rinval, 1);
	MLX5_SET(mkc, mkc, mkey_7_0, 0x5a);
	MLX5_SET(mkc, mkc, log_page_size, 12);
	MLX5_SET(mkc, mkc, translations_octword_size, 256);
	MLX5_SET64(mkc, mkc, start_addr, (uintptr_t)b.va);
	MLX5_SET64(mkc, mkc, len, 4096);
	obj = cdev->glue->devx_obj_create(cdev->ctx, in, inlen, cout,
					  sizeof(cout));
	TEST_ASSERT_NOT_NULL(obj, "MTT mkey (errno %d)", errno);
	index = MLX5_GET(create_mkey_out, cout, mkey_index);
	TEST_ASSERT_SUCCESS(dx_query_mkey(obj, index, out), "");
	TEST_ASSERT_EQUAL(MLX5_GET(mkc, qmkc, free), 0, "");
	TEST_ASSERT_EQUAL(MLX5_GET(mkc, qmkc, access_mode_1_0),
			  MLX5_MKC_ACCESS_MODE_MTT, "");
	TEST_ASSERT_EQUAL(MLX5_GET(mkc, qmkc, access_mode_4_2), 0, "");
	TEST_ASSERT(MLX5_GET(mkc, qmkc, umr_en) && MLX5_GET(mkc, qmkc, a) &&
		    MLX5_GET(mkc, qmkc, rw) && MLX5_GET(mkc, qmkc, rr) &&
		    MLX5_GET(mkc, qmkc, lw) && MLX5_GET(mkc, qmkc, lr),
		    "umr_en and every access right as created");
	TEST_ASSERT_EQUAL(MLX5_GET(mkc, qmkc, en_rinval), 1, "");
	TEST_ASSERT_EQUAL(MLX5_GET(mkc, qmkc, mkey_7_0), 0x5a, "key byte");
	TEST_ASSERT_EQUAL(MLX5_GET(mkc, qmkc, qpn), 0xffffff, "");
	TEST_ASSERT_EQUAL(MLX5_GET(mkc, qmkc, pd), cdev->pdn, "");
	TEST_ASSERT_EQUAL(MLX5_GET(mkc, qmkc, log_page_size), 12, "");
	TEST_ASSERT_EQUAL(MLX5_GET(mkc, qmkc, translations_octword_size),
			  256, "");
	TEST_ASSERT_EQUAL(MLX5_GET(mkc, qmkc, length64), 0, "");
	TEST_ASSERT(MLX5_GET64(mkc, qmkc, start_addr) == (uintptr_t)b.va &&
		    MLX5_GET64(mkc, qmkc, len) == 4096, "");
	/* The key is index << 8 | mkey_7_0: another key byte is no key. */
	TEST_ASSERT_SUCCESS(tdev_access(0, cdev->pdn, index << 8 | 0x5a,
		(uintptr_t)b.va, &byte, 1, true, &syn), "the key");
	TEST_ASSERT(tdev_access(0, cdev->pdn, index << 8, (uintptr_t)b.va,
		    &byte, 1, true, &syn) < 0, "key byte 0 is another key");
	free(in);

	/* KLM over the MTT mkey: free, crypto_en, its first two entries. */
	in = dx_mkey_in(MLX5_MKC_ACCESS_MODE_KLM, 4, &inlen);
	TEST_ASSERT_NOT_NULL(in, "");
	mkc = DX_MKC(in);
	MLX5_SET(mkc, mkc, free, 1);
	MLX5_SET(mkc, mkc, crypto_en, 1);
	MLX5_SET(mkc, mkc, translations_octword_size, 4);
	MLX5_SET(create_mkey_in, in, translations_octword_actual_size, 2);
	MLX5_SET64(mkc, mkc, len, 3072);
	e = MLX5_ADDR_OF(create_mkey_in, in, klm_pas_mtt);
	for (unsigned int i = 0; i < 2; i++, e += MLX5_ST_SZ_BYTES(klm)) {
		MLX5_SET(klm, e, byte_count, 1024 * (i + 1));
		MLX5_SET(klm, e, mkey, index << 8 | 0x5a);
		MLX5_SET64(klm, e, address, (uintptr_t)b.va + 1000 * i);
	}
	klm_obj = cdev->glue->devx_obj_create(cdev->ctx, in, inlen, cout,
					      sizeof(cout));
	TEST_ASSERT_NOT_NULL(klm_obj, "KLM mkey (errno %d)", errno);
	TEST_ASSERT_SUCCESS(dx_query_mkey(klm_obj,
		MLX5_GET(create_mkey_out, cout, mkey_index), out), "");
	TEST_ASSERT_EQUAL(MLX5_GET(mkc, qmkc, free), 1, "");
	TEST_ASSERT_EQUAL(MLX5_GET(mkc, qmkc, crypto_en), 1, "");
	TEST_ASSERT_EQUAL(MLX5_GET(mkc, qmkc, access_mode_1_0),
			  MLX5_MKC_ACCESS_MODE_KLM, "");
	for (unsigned int i = 0; i < 2; i++) {
		const void *q = i == 0 ?
			MLX5_ADDR_OF(query_mkey_out, out,
				     bsf0_klm0_pas_mtt0_1) :
			MLX5_ADDR_OF(query_mkey_out, out,
				     bsf1_klm1_pas_mtt2_3);

		TEST_ASSERT_EQUAL(MLX5_GET(klm, q, byte_count), 1024 * (i + 1),
				  "entry %u", i);
		TEST_ASSERT_EQUAL(MLX5_GET(klm, q, mkey), index << 8 | 0x5a,
				  "entry %u", i);
		TEST_ASSERT(MLX5_GET64(klm, q, address) ==
			    (uintptr_t)b.va + 1000 * i, "entry %u", i);
	}
	TEST_ASSERT_SUCCESS(cdev->glue->devx_obj_destroy(klm_obj), "");
	TEST_ASSERT_SUCCESS(cdev->glue->devx_obj_destroy(obj), "");
	free(in);
	dx_buf_put(&b);
	TDEV_ASSERT_LIVE(0, live, "");

	/*
	 * Crossing, on a vHCA whose id is not 0, to an mkey of its own:
	 * the mode (its bits 4:2 too), the target and length64.
	 */
	TDEV_NEED_SLOT1();
	TEST_ASSERT_SUCCESS(tdev_probe(1, "card=30,vhca_id=1"), "");
	imp = tdev_cdev(1);
	TEST_ASSERT_NOT_NULL(imp, "");
	if (!imp->caps.crossing_vhca_mkey || imp->caps.vhca_id == 0)
		TEST_SKIP("the second device lacks crossing_vhca_mkey or has vhca_id 0");
	dv_attr.pd = imp->pd;
	target = imp->glue->dv_create_mkey(&dv_attr);
	TEST_ASSERT_NOT_NULL(target, "");
	in = dx_mkey_in(MLX5_MKC_ACCESS_MODE_CROSSING, 0, &inlen);
	TEST_ASSERT_NOT_NULL(in, "");
	mkc = DX_MKC(in);
	MLX5_SET(mkc, mkc, pd, imp->pdn);
	MLX5_SET(mkc, mkc, length64, 1);
	MLX5_SET(mkc, mkc, crossing_target_vhca_id, imp->caps.vhca_id);
	MLX5_SET(mkc, mkc, translations_octword_size, target->lkey);
	obj = imp->glue->devx_obj_create(imp->ctx, in, inlen, cout,
					 sizeof(cout));
	TEST_ASSERT_NOT_NULL(obj, "crossing mkey (errno %d)", errno);
	index = MLX5_GET(create_mkey_out, cout, mkey_index);
	TEST_ASSERT_SUCCESS(dx_query_mkey(obj, index, out), "");
	TEST_ASSERT_EQUAL(MLX5_GET(mkc, qmkc, access_mode_1_0),
			  MLX5_MKC_ACCESS_MODE_CROSSING & 0x3, "");
	TEST_ASSERT_EQUAL(MLX5_GET(mkc, qmkc, access_mode_4_2),
			  MLX5_MKC_ACCESS_MODE_CROSSING >> 2, "");
	TEST_ASSERT_EQUAL(MLX5_GET(mkc, qmkc, crossing_target_vhca_id),
			  imp->caps.vhca_id, "");
	TEST_ASSERT_EQUAL(MLX5_GET(mkc, qmkc, translations_octword_size),
			  target->lkey, "the target");
	TEST_ASSERT_EQUAL(MLX5_GET(mkc, qmkc, length64), 1, "");
	TEST_ASSERT_SUCCESS(imp->glue->devx_obj_destroy(obj), "");
	TEST_ASSERT_SUCCESS(imp->glue->dv_destroy_mkey(target), "");
	free(in);
	TEST_ASSERT_SUCCESS(tdev_remove(1), "");
	TDEV_ASSERT_LIVE(1, 0, "");
	return TEST_SUCCESS;
}

/*
 * A PD imported by handle is one kernel object with two handles: once
 * DEALLOC_PD went through one of them, the other names nothing (EINVAL
 * for its pdn, a new MR or mkey on it, its dealloc and a new import),
 * and only its unimport is left. A PD made by DEVX ALLOC_PD has no verbs
 * handle to import, and takes no mkey once DEALLOC_PD freed it.
 */
static int
test_pd_import_dealloc(void)
{
	const struct mlx5_glue *g = cdev->glue;
	struct mlx5dv_context_attr devx = {
		.flags = MLX5DV_CONTEXT_FLAGS_DEVX,
	};
	struct mlx5dv_mkey_init_attr dv_attr = {
		.create_flags = MLX5DV_MKEY_INIT_ATTR_FLAGS_INDIRECT,
		.max_entries = 4,
	};
	uint32_t in[MLX5_ST_SZ_DW(alloc_pd_in)] = { 0 };
	uint32_t out[MLX5_ST_SZ_DW(alloc_pd_out)];
	static uint8_t page[4096] __rte_aligned(4096);
	struct mlx5dv_devx_obj *devx_pd, *on_pd;
	struct ibv_context *other;
	struct ibv_pd *pd, *imported;
	long live = tdev_live(0);
	uint32_t pdn, handle;
	struct ibv_mr *mr;
	uint8_t *mkey_in;
	size_t inlen;

	pd = g->alloc_pd(cdev->ctx);
	TEST_ASSERT_NOT_NULL(pd, "");
	handle = pd->handle;
	imported = g->import_pd(cdev->ctx, handle);
	TEST_ASSERT_NOT_NULL(imported, "import by handle");
	TEST_ASSERT_SUCCESS(g->query_pdn(imported, &pdn), "");
	mr = g->reg_mr(imported, page, sizeof(page), IBV_ACCESS_LOCAL_WRITE);
	TEST_ASSERT_NOT_NULL(mr, "an MR through the imported handle");
	TEST_ASSERT_EQUAL(g->dealloc_pd(pd), EBUSY, "an MR holds the PD");
	TEST_ASSERT_SUCCESS(g->dereg_mr(mr), "");
	TDEV_ASSERT_LIVE(0, live + 1, "one PD, two handles");
	TEST_ASSERT_SUCCESS(g->dealloc_pd(pd), "through the first handle");
	TDEV_ASSERT_LIVE(0, live, "the PD is gone");
	TEST_ASSERT_EQUAL(g->query_pdn(imported, &pdn), EINVAL,
			  "the pdn of a deallocated PD");
	errno = 0;
	mr = g->reg_mr(imported, page, sizeof(page), IBV_ACCESS_LOCAL_WRITE);
	TEST_ASSERT(mr == NULL, "an MR on a deallocated PD");
	dv_attr.pd = imported;
	errno = 0;
	TEST_ASSERT(g->dv_create_mkey(&dv_attr) == NULL && errno == EINVAL,
		    "an mkey on a deallocated PD (errno %d)", errno);
	TEST_ASSERT_EQUAL(g->dealloc_pd(imported), EINVAL,
			  "a second dealloc");
	errno = 0;
	TEST_ASSERT(g->import_pd(cdev->ctx, handle) == NULL && errno == EINVAL,
		    "importing the handle of a deallocated PD");
	TDEV_ASSERT_LIVE(0, live, "the refusals made nothing");
	g->unimport_pd(imported);
	/* The first PD of a new context, by DEVX: handle 0, not importable. */
	other = g->dv_open_device(cdev->ibv_dev, &devx);
	TEST_ASSERT_NOT_NULL(other, "");
	MLX5_SET(alloc_pd_in, in, opcode, MLX5_CMD_OP_ALLOC_PD);
	devx_pd = g->devx_obj_create(other, in, sizeof(in), out, sizeof(out));
	TEST_ASSERT_NOT_NULL(devx_pd, "DEVX ALLOC_PD");
	for (handle = 0; handle < 4; handle++) {
		errno = 0;
		TEST_ASSERT(g->import_pd(other, handle) == NULL &&
			    errno == EINVAL, "handle %u: no verbs PD", handle);
	}
	/* An mkey on the DEVX PD, and none once DEALLOC_PD freed it. */
	mkey_in = dx_mkey_in(MLX5_MKC_ACCESS_MODE_KLM, 0, &inlen);
	TEST_ASSERT_NOT_NULL(mkey_in, "");
	MLX5_SET(mkc, DX_MKC(mkey_in), free, 1);
	MLX5_SET(mkc, DX_MKC(mkey_in), pd, MLX5_GET(alloc_pd_out, out, pd));
	on_pd = g->devx_obj_create(other, mkey_in, inlen, out, sizeof(out));
	TEST_ASSERT_NOT_NULL(on_pd, "an mkey on the DEVX PD");
	TEST_ASSERT_SUCCESS(g->devx_obj_destroy(devx_pd),
			    "an mkey holds no count on it");
	TEST_ASSERT_SUCCESS(dx_create_refused(0, other, mkey_in, inlen,
		MLX5_CMD_STAT_BAD_RES_ERR, "an mkey on a deallocated PD"), "");
	TEST_ASSERT_SUCCESS(g->devx_obj_destroy(on_pd), "");
	free(mkey_in);
	TEST_ASSERT_SUCCESS(g->close_device(other), "");
	TDEV_ASSERT_LIVE(0, live, "");
	return TEST_SUCCESS;
}

/*
 * The mkey table of the software device, of log_max_mkey=16: indices
 * 1..2^16-1 (key 0 is no key). A full table is the device's
 * NO_RESOURCES: EAGAIN from
 * mlx5dv_create_mkey, the status from DEVX CREATE_MKEY; a freed slot is
 * taken again.
 */
static int
test_mkey_table_full(void)
{
	const struct mlx5_glue *g = cdev->glue;
	struct mlx5dv_mkey_init_attr dv_attr = {
		.create_flags = MLX5DV_MKEY_INIT_ATTR_FLAGS_INDIRECT,
		.max_entries = 4,
	};
	struct mlx5_sim_stats st;
	struct mlx5dv_mkey **keys;
	long live = tdev_live(0);
	uint32_t n = 0, in_use;
	size_t inlen;
	uint8_t *in;
	int ret = TEST_FAILED;

	TDEV_SIM_ONLY("the software device's table of 2^16 - 1 mkeys");
	TEST_ASSERT_SUCCESS(mlx5_sim_vhca_stats(DX_CARD, 0, &st), "");
	in_use = st.mkeys + st.mrs + st.general_objs;
	keys = calloc(1u << 16, sizeof(*keys));
	TEST_ASSERT_NOT_NULL(keys, "");
	in = dx_mkey_in(MLX5_MKC_ACCESS_MODE_KLM, 0, &inlen);
	TEST_ASSERT_NOT_NULL(in, "");
	MLX5_SET(mkc, DX_MKC(in), free, 1);
	dv_attr.pd = cdev->pd;
	while (n < (1u << 16)) {
		errno = 0;
		keys[n] = g->dv_create_mkey(&dv_attr);
		if (keys[n] == NULL)
			break;
		if (keys[n]->lkey == 0) {
			printf("    key 0 handed out\n");
			goto out;
		}
		n++;
	}
	if (errno != EAGAIN || n + in_use != (1u << 16) - 1) {
		printf("    full after %u + %u mkeys, errno %d: expected %u, EAGAIN\n",
		       n, in_use, errno, (1u << 16) - 1);
		goto out;
	}
	if (dx_create_refused(0, cdev->ctx, in, inlen, MLX5_CMD_STAT_NO_RES_ERR,
			    "DEVX CREATE_MKEY on a full table") != TEST_SUCCESS)
		goto out;
	g->dv_destroy_mkey(keys[--n]);
	if (dx_mkey_accepted(cdev->ctx, in, inlen, "a freed slot") !=
	    TEST_SUCCESS)
		goto out;
	ret = TEST_SUCCESS;
out:
	while (n > 0)
		g->dv_destroy_mkey(keys[--n]);
	free(keys);
	free(in);
	TDEV_ASSERT_LIVE(0, live, "");
	return ret;
}

/*
 * The software device's PD and umem tables (4096 each per vHCA): a full
 * table is NO_RESOURCES, EAGAIN from ibv_alloc_pd and the umem
 * registration, the status from DEVX ALLOC_PD, and nothing is made; a
 * freed entry is taken again.
 */
static int
test_pd_umem_tables_full(void)
{
	const struct mlx5_glue *g = cdev->glue;
	uint32_t in[MLX5_ST_SZ_DW(alloc_pd_in)] = { 0 };
	uint32_t out[MLX5_ST_SZ_DW(alloc_pd_out)];
	static uint8_t page[4096] __rte_aligned(4096);
	struct mlx5dv_devx_umem **umems;
	struct ibv_pd **pds;
	struct mlx5_sim_stats st;
	long live = tdev_live(0);
	uint32_t n_pd = 0, n_umem = 0, pds0, umems0;
	int ret = TEST_FAILED;

	TDEV_SIM_ONLY("the software device's tables of 4096 PDs and umems");
	TEST_ASSERT_SUCCESS(mlx5_sim_vhca_stats(DX_CARD, 0, &st), "");
	pds0 = st.pds;
	umems0 = st.umems;
	pds = calloc(4097, sizeof(*pds));
	umems = calloc(4097, sizeof(*umems));
	TEST_ASSERT(pds != NULL && umems != NULL, "");
	MLX5_SET(alloc_pd_in, in, opcode, MLX5_CMD_OP_ALLOC_PD);
	while (n_pd < 4097) {
		errno = 0;
		pds[n_pd] = g->alloc_pd(cdev->ctx);
		if (pds[n_pd] == NULL)
			break;
		n_pd++;
	}
	if (errno != EAGAIN || n_pd + pds0 != 4096) {
		printf("    PDs: full after %u + %u, errno %d\n", n_pd, pds0,
		       errno);
		goto out;
	}
	errno = 0;
	if (g->devx_obj_create(cdev->ctx, in, sizeof(in), out,
			       sizeof(out)) != NULL || errno != EREMOTEIO ||
	    MLX5_GET(mbox_out, out, status) != MLX5_CMD_STAT_NO_RES_ERR) {
		printf("    DEVX ALLOC_PD on a full table: not NO_RESOURCES\n");
		goto out;
	}
	while (n_umem < 4097) {
		errno = 0;
		umems[n_umem] = g->devx_umem_reg(cdev->ctx, page, sizeof(page),
						 0);
		if (umems[n_umem] == NULL)
			break;
		n_umem++;
	}
	if (errno != EAGAIN || n_umem + umems0 != 4096) {
		printf("    umems: full after %u + %u, errno %d\n", n_umem,
		       umems0, errno);
		goto out;
	}
	if (tdev_live(0) != live + n_pd + n_umem) {
		printf("    live objects %ld, expected %ld\n", tdev_live(0),
		       live + n_pd + n_umem);
		goto out;
	}
	/* A freed entry is taken again. */
	g->devx_umem_dereg(umems[--n_umem]);
	umems[n_umem] = g->devx_umem_reg(cdev->ctx, page, sizeof(page), 0);
	if (umems[n_umem] == NULL) {
		printf("    a freed umem entry not taken again (errno %d)\n",
		       errno);
		goto out;
	}
	n_umem++;
	ret = TEST_SUCCESS;
out:
	while (n_umem > 0)
		g->devx_umem_dereg(umems[--n_umem]);
	while (n_pd > 0)
		g->dealloc_pd(pds[--n_pd]);
	free(umems);
	free(pds);
	TDEV_ASSERT_LIVE(0, live, "");
	return ret;
}

/*
 * The DEK rules the device checks itself, each broken once from a raw
 * CREATE_GENERAL_OBJECT mailbox it takes: no alias bit, the whole
 * create_dek_in, a PD of the creating context, and a device with crypto;
 * a query answered only into the whole query_dek_out.
 */
static int
test_dek_rules(void)
{
	const struct mlx5_glue *g = cdev->glue;
	uint32_t in[MLX5_ST_SZ_DW(create_dek_in)] = { 0 };
	uint32_t out[MLX5_ST_SZ_DW(general_obj_out_cmd_hdr)];
	uint32_t qin[MLX5_ST_SZ_DW(general_obj_in_cmd_hdr)] = { 0 };
	uint32_t qout[MLX5_ST_SZ_DW(query_dek_out)];
	void *dek = MLX5_ADDR_OF(create_dek_in, in, dek);
	struct mlx5_common_device *plain;
	struct mlx5dv_devx_obj *obj;
	struct ibv_context *other;
	struct ibv_pd *their_pd;
	long live = tdev_live(0);
	uint32_t their_pdn;

	if (!cdev->caps.crypto.sup || !cdev->caps.crypto.dek ||
	    cdev->caps.crypto.wrapped_import)
		TEST_SKIP("device lacks plaintext-key DEK objects");
	MLX5_SET(general_obj_in_cmd_hdr, in, opcode,
		 MLX5_CMD_OP_CREATE_GENERAL_OBJECT);
	MLX5_SET(general_obj_in_cmd_hdr, in, obj_type,
		 MLX5_GENERAL_OBJ_TYPE_DEK);
	MLX5_SET(dek, dek, key_size, MLX5_DEK_KEY_SIZE_128);
	MLX5_SET(dek, dek, key_purpose, MLX5_DEK_KEY_PURPOSE_AES_XTS);
	MLX5_SET(dek, dek, pd, cdev->pdn);
	obj = g->devx_obj_create(cdev->ctx, in, sizeof(in), out, sizeof(out));
	TEST_ASSERT_NOT_NULL(obj, "a DEK (errno %d)", errno);
	/* A query must have room for the whole answer. */
	MLX5_SET(general_obj_in_cmd_hdr, qin, opcode,
		 MLX5_CMD_OP_QUERY_GENERAL_OBJECT);
	MLX5_SET(general_obj_in_cmd_hdr, qin, obj_type,
		 MLX5_GENERAL_OBJ_TYPE_DEK);
	MLX5_SET(general_obj_in_cmd_hdr, qin, obj_id,
		 MLX5_GET(general_obj_out_cmd_hdr, out, obj_id));
	TEST_ASSERT_SUCCESS(g->devx_obj_query(obj, qin, sizeof(qin), qout,
					      sizeof(qout)), "");
	TEST_ASSERT_SUCCESS(dx_query_no_room(obj, qin, sizeof(qin),
		"a query without room for the DEK"), "");
	TEST_ASSERT_SUCCESS(g->devx_obj_destroy(obj), "");
	TDEV_ASSERT_LIVE(0, live, "");
	MLX5_SET(general_obj_in_cmd_hdr, in, alias_object, 1);
	DX_REFUSED_ON(0, cdev->ctx, in, sizeof(in), BAD_PARAM_ERR,
		      "an alias DEK");
	MLX5_SET(general_obj_in_cmd_hdr, in, alias_object, 0);
	DX_REFUSED_ON(0, cdev->ctx, in, sizeof(in) - 4, BAD_INP_LEN_ERR,
		    "a mailbox short of the key's last bytes");
	/* Another context's PD: another uid. */
	other = dx_other_ctx(cdev, &their_pd, &their_pdn);
	TEST_ASSERT_NOT_NULL(other, "");
	MLX5_SET(dek, dek, pd, their_pdn);
	DX_REFUSED_ON(0, cdev->ctx, in, sizeof(in), BAD_RES_ERR,
		    "the PD of another context");
	obj = g->devx_obj_create(other, in, sizeof(in), out, sizeof(out));
	TEST_ASSERT_NOT_NULL(obj, "a DEK on its own PD (errno %d)", errno);
	TEST_ASSERT_SUCCESS(g->devx_obj_destroy(obj), "");
	TEST_ASSERT_SUCCESS(g->dealloc_pd(their_pd), "");
	TEST_ASSERT_SUCCESS(g->close_device(other), "");
	TDEV_ASSERT_LIVE(0, live, "the refusals made nothing");
	if (tdev_hw())
		return TEST_SUCCESS;
	/* Past the common layer's check, a device without crypto refuses. */
	TEST_ASSERT_SUCCESS(tdev_probe(1, "card=30,vhca_id=1,crypto=0"), "");
	plain = tdev_cdev(1);
	TEST_ASSERT_NOT_NULL(plain, "");
	live = tdev_live(1);
	MLX5_SET(dek, dek, pd, plain->pdn);
	errno = 0;
	TEST_ASSERT(g->devx_obj_create(plain->ctx, in, sizeof(in), out,
		    sizeof(out)) == NULL && errno == EREMOTEIO,
		    "a device without crypto");
	TEST_ASSERT_EQUAL(MLX5_GET(mbox_out, out, status),
			  MLX5_CMD_STAT_BAD_PARAM_ERR, "");
	TDEV_ASSERT_LIVE(1, live, "");
	return TEST_SUCCESS;
}

/*
 * A new grant replaces the access key: an alias made with the old key
 * reports a bad status and translates nothing, while one made with the
 * new key works (the importer's DMA through either is checked too).
 */
static int
test_alias_regrant(void)
{
	static const uint8_t key1[MLX5_ACCESS_KEY_LEN] = "the first key";
	static const uint8_t key2[MLX5_ACCESS_KEY_LEN] = "the second key";
	struct mlx5_devx_alias_attr attr = {
		.obj_type = MLX5_GENERAL_OBJ_TYPE_MKEY,
		.vhca_id = cdev->caps.vhca_id,
	};
	struct mlx5_devx_obj *owner_mkey, *old_alias, *new_alias;
	struct mlx5_common_device *imp;
	uint8_t byte = 0x5c, syn;
	uint32_t status = 0xff;
	struct dx_buf b;
	int ret;

	ret = dx_alias_setup(&imp, &b, &owner_mkey);
	if (ret != TEST_SUCCESS)
		return ret;
	old_alias = dx_grant_alias(imp, owner_mkey, key1);
	TEST_ASSERT_NOT_NULL(old_alias, "");
	attr.obj_id = MLX5_MKEY_INDEX(owner_mkey->id);
	attr.pdn = imp->pdn;
	memcpy(attr.access_key, key1, sizeof(key1));
	TEST_ASSERT_SUCCESS(tdev_access(1, imp->pdn,
		old_alias->id << 8, (uintptr_t)b.va, &byte, 1,
		true, &syn), "through the alias");
	/* The grant again, with another key. */
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_allow_other_vhca_access(cdev,
		MLX5_GENERAL_OBJ_TYPE_MKEY, attr.obj_id, key2), "");
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_alias_obj_query(old_alias, &status),
			    "");
	TEST_ASSERT(status != 0, "the old key's alias reports a bad status");
	TEST_ASSERT(tdev_access(1, imp->pdn,
		old_alias->id << 8, (uintptr_t)b.va, &byte, 1,
		true, &syn) < 0, "the old key's alias translates nothing");
	TEST_ASSERT(mlx5_devx_cmd_alias_obj_create(imp, &attr) == NULL,
		    "a new alias with the old key");
	memcpy(attr.access_key, key2, sizeof(key2));
	new_alias = mlx5_devx_cmd_alias_obj_create(imp, &attr);
	TEST_ASSERT_NOT_NULL(new_alias, "");
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_alias_obj_query(new_alias, &status),
			    "");
	TEST_ASSERT_EQUAL(status, 0, "the new key's alias is valid");
	TEST_ASSERT_SUCCESS(tdev_access(1, imp->pdn,
		new_alias->id << 8, (uintptr_t)b.va, &byte, 1,
		true, &syn), "through the new alias");
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_destroy(new_alias), "");
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_destroy(old_alias), "");
	return dx_alias_teardown(owner_mkey, &b);
}

/*
 * The alias rules the device checks itself, each broken once from a raw
 * CREATE_GENERAL_OBJECT mailbox it takes: the alias bit, the whole
 * create_alias_obj_in, a granted target (a zero key does not stand for a
 * grant), the importer's own PD in the metadata, the capability; and a
 * query that reports the alias context into the whole query_alias_obj_out.
 */
static int
test_alias_rules(void)
{
	const struct mlx5_glue *g = cdev->glue;
	static const uint8_t key[MLX5_ACCESS_KEY_LEN] = "alias rules key";
	uint32_t in[MLX5_ST_SZ_DW(create_alias_obj_in)] = { 0 };
	uint32_t out[MLX5_ST_SZ_DW(create_alias_obj_out)];
	uint32_t qin[MLX5_ST_SZ_DW(query_alias_obj_in)] = { 0 };
	uint32_t qout[MLX5_ST_SZ_DW(query_alias_obj_out)];
	void *hdr = MLX5_ADDR_OF(create_alias_obj_in, in, hdr);
	void *actx = MLX5_ADDR_OF(create_alias_obj_in, in, alias_ctx);
	void *qctx = MLX5_ADDR_OF(query_alias_obj_out, qout, alias_ctx);
	struct mlx5_common_device *imp, *nc;
	struct mlx5_devx_obj *owner_mkey;
	struct mlx5dv_devx_obj *alias;
	struct ibv_context *other;
	struct ibv_pd *their_pd;
	uint32_t their_pdn, obj_id;
	long live;
	struct dx_buf b;
	int ret;

	ret = dx_alias_setup(&imp, &b, &owner_mkey);
	if (ret != TEST_SUCCESS)
		return ret;
	obj_id = MLX5_MKEY_INDEX(owner_mkey->id);
	live = tdev_live(1);
	MLX5_SET(general_obj_in_cmd_hdr, hdr, opcode,
		 MLX5_CMD_OP_CREATE_GENERAL_OBJECT);
	MLX5_SET(general_obj_in_cmd_hdr, hdr, obj_type,
		 MLX5_GENERAL_OBJ_TYPE_MKEY);
	MLX5_SET(general_obj_in_cmd_hdr, hdr, alias_object, 1);
	MLX5_SET(alias_context, actx, vhca_id_to_be_accessed,
		 cdev->caps.vhca_id);
	MLX5_SET(alias_context, actx, object_id_to_be_accessed, obj_id);
	*(rte_be32_t *)MLX5_ADDR_OF(alias_context, actx, metadata) =
		rte_cpu_to_be_32(imp->pdn);
	/* Never granted: its key is all zero, as is this mailbox's. */
	DX_REFUSED_ON(1, imp->ctx, in, sizeof(in), BAD_PARAM_ERR,
		      "an mkey never granted, with a zero key");
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_allow_other_vhca_access(cdev,
		MLX5_GENERAL_OBJ_TYPE_MKEY, obj_id, key), "");
	memcpy(MLX5_ADDR_OF(alias_context, actx, access_key), key,
	       sizeof(key));
	alias = g->devx_obj_create(imp->ctx, in, sizeof(in), out, sizeof(out));
	TEST_ASSERT_NOT_NULL(alias, "an alias (errno %d)", errno);
	/* Its query: what it aliases, the importer's PD, a status. */
	hdr = MLX5_ADDR_OF(query_alias_obj_in, qin, hdr);
	MLX5_SET(general_obj_in_cmd_hdr, hdr, opcode,
		 MLX5_CMD_OP_QUERY_GENERAL_OBJECT);
	MLX5_SET(general_obj_in_cmd_hdr, hdr, obj_type,
		 MLX5_GENERAL_OBJ_TYPE_MKEY);
	MLX5_SET(general_obj_in_cmd_hdr, hdr, obj_id,
		 MLX5_GET(general_obj_out_cmd_hdr, out, obj_id));
	TEST_ASSERT_SUCCESS(g->devx_obj_query(alias, qin, sizeof(qin), qout,
					      sizeof(qout)), "");
	TEST_ASSERT_EQUAL(MLX5_GET(alias_context, qctx,
				   vhca_id_to_be_accessed),
			  cdev->caps.vhca_id, "");
	TEST_ASSERT_EQUAL(MLX5_GET(alias_context, qctx,
				   object_id_to_be_accessed), obj_id, "");
	TEST_ASSERT_EQUAL(MLX5_GET(alias_context, qctx, status), 0, "");
	TEST_ASSERT_EQUAL(rte_be_to_cpu_32(*(rte_be32_t *)MLX5_ADDR_OF(
		alias_context, qctx, metadata)), imp->pdn, "the importer's PD");
	TEST_ASSERT_SUCCESS(dx_query_no_room(alias, qin, sizeof(qin),
		"a query without room for the alias context"), "");
	TEST_ASSERT_SUCCESS(g->devx_obj_destroy(alias), "");
	TDEV_ASSERT_LIVE(1, live, "");
	/* Each rule broken once. */
	MLX5_SET(general_obj_in_cmd_hdr, in, alias_object, 0);
	DX_REFUSED_ON(1, imp->ctx, in, sizeof(in), BAD_PARAM_ERR,
		      "an MKEY general object that is no alias");
	MLX5_SET(general_obj_in_cmd_hdr, in, alias_object, 1);
	DX_REFUSED_ON(1, imp->ctx, in, sizeof(in) - 4, BAD_INP_LEN_ERR,
		      "a mailbox short of the metadata's last bytes");
	other = dx_other_ctx(imp, &their_pd, &their_pdn);
	TEST_ASSERT_NOT_NULL(other, "");
	live = tdev_live(1);
	*(rte_be32_t *)MLX5_ADDR_OF(alias_context, actx, metadata) =
		rte_cpu_to_be_32(their_pdn);
	DX_REFUSED_ON(1, imp->ctx, in, sizeof(in), BAD_RES_ERR,
		      "the PD of another context of the importer");
	TDEV_ASSERT_LIVE(1, live, "the refusals made nothing");
	TEST_ASSERT_SUCCESS(g->dealloc_pd(their_pd), "");
	TEST_ASSERT_SUCCESS(g->close_device(other), "");
	if (!tdev_hw()) {
		/* An importer without the capability, past the common layer. */
		TEST_ASSERT_SUCCESS(sim_probe("mlx5_sim2",
			"card=30,vhca_id=2,crossing=0"), "");
		nc = sim_cdev("mlx5_sim2");
		TEST_ASSERT_NOT_NULL(nc, "");
		*(rte_be32_t *)MLX5_ADDR_OF(alias_context, actx, metadata) =
			rte_cpu_to_be_32(nc->pdn);
		DX_REFUSED_ON(1, nc->ctx, in, sizeof(in), BAD_PARAM_ERR,
			      "an importer without crossing_vhca_mkey");
		TEST_ASSERT_SUCCESS(sim_remove("mlx5_sim2"), "");
		TEST_ASSERT_EQUAL(sim_live(30, 2), 0, "");
	}
	return dx_alias_teardown(owner_mkey, &b);
}

/* An AES-XTS-128 DEK (a zero key) on the device's PD, or NULL. */
static struct mlx5_devx_obj *
dx_dek128(void)
{
	static const uint8_t key[32];
	struct mlx5_devx_dek_attr attr = {
		.key_size = MLX5_DEK_KEY_SIZE_128,
		.key_purpose = MLX5_DEK_KEY_PURPOSE_AES_XTS,
		.pd = cdev->pdn,
		.key = key,
		.key_len = 32,
	};

	return mlx5_devx_cmd_create_dek(cdev, &attr);
}

/*
 * devx_obj_query/modify go through only for the object the handle holds
 * (the kernel's devx_is_valid_obj_id()): a mailbox naming another mkey,
 * counter set or general object, another object type, or an object of
 * another kind (an RMP through an mkey's handle) is EINVAL and never
 * becomes a command. The queries of the own object are the other cases'.
 */
static int
test_query_names_own_object(void)
{
	const struct mlx5_glue *g = cdev->glue;
	uint32_t mk_in[MLX5_ST_SZ_DW(query_mkey_in)] = { 0 };
	uint32_t mk_out[MLX5_ST_SZ_DW(query_mkey_out)];
	uint32_t qc_in[MLX5_ST_SZ_DW(query_q_counter_in)] = { 0 };
	uint32_t qc_out[MLX5_ST_SZ_DW(query_q_counter_out)];
	uint32_t rmp_in[MLX5_ST_SZ_DW(query_rmp_in)] = { 0 };
	uint32_t rmp_out[MLX5_ST_SZ_DW(query_rmp_out)];
	uint32_t go_in[MLX5_ST_SZ_DW(general_obj_in_cmd_hdr)] = { 0 };
	uint32_t go_out[MLX5_ST_SZ_DW(query_dek_out)];
	struct mlx5_devx_obj *a, *b, *qa, *qb, *da, *db;
	long live = tdev_live(0);
	struct dx_buf buf;

	TEST_ASSERT_SUCCESS(dx_buf_get(&buf, 4096), "");
	a = dx_mtt(&buf, true);
	b = dx_mtt(&buf, true);
	TEST_ASSERT(a != NULL && b != NULL, "");
	MLX5_SET(query_mkey_in, mk_in, opcode, MLX5_CMD_OP_QUERY_MKEY);
	MLX5_SET(query_mkey_in, mk_in, mkey_index, MLX5_MKEY_INDEX(a->id));
	TEST_ASSERT_SUCCESS(g->devx_obj_query(a->obj, mk_in, sizeof(mk_in),
					      mk_out, sizeof(mk_out)), "");
	MLX5_SET(query_mkey_in, mk_in, mkey_index, MLX5_MKEY_INDEX(b->id));
	DX_KERNEL_REFUSES(g->devx_obj_query(a->obj, mk_in, sizeof(mk_in),
					    mk_out, sizeof(mk_out)),
			  "QUERY_MKEY of another mkey");
	MLX5_SET(query_rmp_in, rmp_in, opcode, MLX5_CMD_OP_QUERY_RMP);
	DX_KERNEL_REFUSES(g->devx_obj_query(a->obj, rmp_in, sizeof(rmp_in),
					    rmp_out, sizeof(rmp_out)),
			  "QUERY_RMP through an mkey's handle");
	qa = mlx5_devx_cmd_queue_counter_alloc(cdev);
	qb = mlx5_devx_cmd_queue_counter_alloc(cdev);
	if (qa != NULL && qb != NULL) {
		MLX5_SET(query_q_counter_in, qc_in, opcode,
			 MLX5_CMD_OP_QUERY_Q_COUNTER);
		MLX5_SET(query_q_counter_in, qc_in, counter_set_id, qb->id);
		DX_KERNEL_REFUSES(g->devx_obj_query(qa->obj, qc_in,
			sizeof(qc_in), qc_out, sizeof(qc_out)),
			"QUERY_Q_COUNTER of another set");
	} else {
		TEST_ASSERT(tdev_hw(), "two counter sets");
	}
	if (qb != NULL)
		TEST_ASSERT_SUCCESS(mlx5_devx_cmd_destroy(qb), "");
	if (qa != NULL)
		TEST_ASSERT_SUCCESS(mlx5_devx_cmd_destroy(qa), "");
	if (cdev->caps.crypto.sup && cdev->caps.crypto.dek &&
	    !cdev->caps.crypto.wrapped_import) {
		da = dx_dek128();
		db = dx_dek128();
		TEST_ASSERT(da != NULL && db != NULL, "two DEKs");
		MLX5_SET(general_obj_in_cmd_hdr, go_in, opcode,
			 MLX5_CMD_OP_QUERY_GENERAL_OBJECT);
		MLX5_SET(general_obj_in_cmd_hdr, go_in, obj_type,
			 MLX5_GENERAL_OBJ_TYPE_DEK);
		MLX5_SET(general_obj_in_cmd_hdr, go_in, obj_id, db->id);
		DX_KERNEL_REFUSES(g->devx_obj_query(da->obj, go_in,
			sizeof(go_in), go_out, sizeof(go_out)),
			"QUERY_GENERAL_OBJECT of another DEK");
		MLX5_SET(general_obj_in_cmd_hdr, go_in, obj_id, da->id);
		MLX5_SET(general_obj_in_cmd_hdr, go_in, obj_type,
			 MLX5_GENERAL_OBJ_TYPE_MKEY);
		DX_KERNEL_REFUSES(g->devx_obj_query(da->obj, go_in,
			sizeof(go_in), go_out, sizeof(go_out)),
			"QUERY_GENERAL_OBJECT of another type");
		TEST_ASSERT_SUCCESS(mlx5_devx_cmd_destroy(db), "");
		TEST_ASSERT_SUCCESS(mlx5_devx_cmd_destroy(da), "");
	}
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_destroy(b), "");
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_destroy(a), "");
	dx_buf_put(&buf);
	TDEV_ASSERT_LIVE(0, live, "");
	return TEST_SUCCESS;
}

/*
 * Each of the kernel's DEVX entry points admits its own opcodes only
 * (EINVAL, no command, for the others): object creates and queries are
 * not general commands, the general range ends below 0xd00, and a modify
 * is not a query.
 */
static int
test_kernel_entry_points(void)
{
	static const uint16_t not_general[] = {
		MLX5_CMD_OP_ALLOC_PD, MLX5_CMD_OP_QUERY_MKEY,
		MLX5_CMD_OP_ALLOC_Q_COUNTER, MLX5_CMD_OP_QUERY_GENERAL_OBJECT,
		MLX5_CMD_OP_CREATE_GENERAL_OBJECT, 0xd00,
	};
	const struct mlx5_glue *g = cdev->glue;
	uint8_t in[MLX5_ST_SZ_BYTES(create_dek_in)] = { 0 };
	uint8_t out[MLX5_ST_SZ_BYTES(query_hca_cap_out)];
	struct mlx5_devx_obj *dek;
	char what[64];

	for (unsigned int i = 0; i < RTE_DIM(not_general); i++) {
		MLX5_SET(general_obj_in_cmd_hdr, in, opcode, not_general[i]);
		snprintf(what, sizeof(what), "opcode 0x%x as a general command",
			 not_general[i]);
		DX_KERNEL_REFUSES(g->devx_general_cmd(cdev->ctx, in, sizeof(in),
						      out, sizeof(out)), what);
	}
	if (!cdev->caps.crypto.sup || !cdev->caps.crypto.dek ||
	    cdev->caps.crypto.wrapped_import)
		return TEST_SUCCESS;
	dek = dx_dek128();
	TEST_ASSERT_NOT_NULL(dek, "");
	memset(in, 0, sizeof(in));
	MLX5_SET(general_obj_in_cmd_hdr, in, opcode,
		 MLX5_CMD_OP_MODIFY_GENERAL_OBJECT);
	MLX5_SET(general_obj_in_cmd_hdr, in, obj_type,
		 MLX5_GENERAL_OBJ_TYPE_DEK);
	MLX5_SET(general_obj_in_cmd_hdr, in, obj_id, dek->id);
	DX_KERNEL_REFUSES(g->devx_obj_query(dek->obj, in, sizeof(in), out,
					    sizeof(out)),
			  "MODIFY_GENERAL_OBJECT through devx_obj_query");
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_destroy(dek), "");
	return TEST_SUCCESS;
}

/*
 * QUERY_HCA_CAP into an output of one capability page (0x810 bytes, as
 * rdma-core's own tests ask real devices), not the whole layout: the
 * general page says Ethernet ports (RoCE) and how many. An output
 * shorter than the page is refused on the software device.
 */
static int
test_hca_cap_page(void)
{
	uint32_t in[MLX5_ST_SZ_DW(query_hca_cap_in)] = { 0 };
	uint8_t out[0x810];
	void *cap = MLX5_ADDR_OF(query_hca_cap_out, out, capability);

	MLX5_SET(query_hca_cap_in, in, opcode, MLX5_CMD_OP_QUERY_HCA_CAP);
	MLX5_SET(query_hca_cap_in, in, op_mod,
		 MLX5_HCA_CAP_OPMOD(MLX5_HCA_CAP_GENERAL, 1));
	memset(out, 0xff, sizeof(out));
	TEST_ASSERT_SUCCESS(raw_cmd(in, sizeof(in), out, sizeof(out)),
			    "one page of output");
	TEST_ASSERT_EQUAL(MLX5_GET(cmd_hca_cap, cap, port_type),
			  MLX5_CAP_PORT_TYPE_ETH, "Ethernet ports");
	TEST_ASSERT(MLX5_GET(cmd_hca_cap, cap, num_ports) >= 1, "ports");
	/*
	 * The largest send WQE, in bytes (DPDK's crypto PMD sizes its WQEs
	 * from it; 0 stops its probe): the software device's, all that a
	 * control segment's 6-bit ds names. And XRC.
	 */
	TEST_ASSERT(MLX5_GET(cmd_hca_cap, cap, max_wqe_sz_sq) >= 64,
		    "max_wqe_sz_sq %u",
		    MLX5_GET(cmd_hca_cap, cap, max_wqe_sz_sq));
	if (!tdev_hw()) {
		TEST_ASSERT_EQUAL(MLX5_GET(cmd_hca_cap, cap, max_wqe_sz_sq),
				  63 * 16, "");
		TEST_ASSERT_EQUAL(MLX5_GET(cmd_hca_cap, cap, xrc), 1, "");
	}
	/*
	 * The NIC flow table page: every device answers it (DPDK's probe
	 * asks it of any device with Ethernet offloads).
	 */
	MLX5_SET(query_hca_cap_in, in, op_mod,
		 MLX5_HCA_CAP_OPMOD(MLX5_HCA_CAP_NIC_FLOW_TABLE, 1));
	TEST_ASSERT_SUCCESS(raw_cmd(in, sizeof(in), out, sizeof(out)),
			    "the NIC flow table page");
	MLX5_SET(query_hca_cap_in, in, op_mod,
		 MLX5_HCA_CAP_OPMOD(MLX5_HCA_CAP_GENERAL, 1));
	TDEV_SIM_ONLY("the software device's refusal of a short output");
	TEST_ASSERT_EQUAL(raw_cmd(in, sizeof(in), out, sizeof(out) - 4),
			  EREMOTEIO, "less than a page");
	return TEST_SUCCESS;
}

/*
 * CREATE_QP as DPDK's own mlx5_devx_cmd_create_qp() builds it for a QP
 * without a receive queue (its crypto PMD's, on real firmware): cqn_rcv
 * left 0, taken; a QP with a receive queue and no receive CQ refused.
 */
static int
test_qp_no_receive_cq(void)
{
	uint32_t in[MLX5_ST_SZ_DW(create_qp_in)] = { 0 };
	uint32_t out[MLX5_ST_SZ_DW(create_qp_out)] = { 0 };
	void *qpc = MLX5_ADDR_OF(create_qp_in, in, qpc);
	struct mlx5dv_devx_obj *obj;
	struct mlx5_devx_cq cq;
	struct mlx5_uar uar;
	struct dx_buf b;
	long live;

	TEST_ASSERT_SUCCESS(mlx5_uar_prepare(cdev, &uar), "");
	TEST_ASSERT_SUCCESS(mlx5_devx_cq_create(cdev, &cq, 4, &uar, -1), "");
	TEST_ASSERT_SUCCESS(dx_buf_get(&b, 8192), "");
	live = tdev_live(0);
	MLX5_SET(create_qp_in, in, opcode, MLX5_CMD_OP_CREATE_QP);
	MLX5_SET(qpc, qpc, st, MLX5_QP_ST_RC);
	MLX5_SET(qpc, qpc, pm_state, MLX5_QP_PM_MIGRATED);
	MLX5_SET(qpc, qpc, pd, cdev->pdn);
	MLX5_SET(qpc, qpc, uar_page, uar.page_id);
	MLX5_SET(qpc, qpc, cqn_snd, cq.obj->id);
	MLX5_SET(qpc, qpc, log_sq_size, 2);
	MLX5_SET(qpc, qpc, rq_type, MLX5_QP_RQ_TYPE_ZERO_SIZE);
	MLX5_SET(qpc, qpc, dbr_umem_valid, 1);
	MLX5_SET(qpc, qpc, dbr_umem_id, b.umem->umem_id);
	MLX5_SET64(qpc, qpc, dbr_addr, 4096);
	MLX5_SET(create_qp_in, in, wq_umem_id, b.umem->umem_id);
	MLX5_SET(create_qp_in, in, wq_umem_valid, 1);
	obj = cdev->glue->devx_obj_create(cdev->ctx, in, sizeof(in), out,
					  sizeof(out));
	TEST_ASSERT(obj != NULL, "no receive queue, cqn_rcv 0 (status 0x%x)",
		    MLX5_GET(mbox_out, out, status));
	TEST_ASSERT_SUCCESS(cdev->glue->devx_obj_destroy(obj), "");
	MLX5_SET(qpc, qpc, rq_type, MLX5_QP_RQ_TYPE_REGULAR);
	MLX5_SET(qpc, qpc, log_rq_size, 2);
	TEST_ASSERT_SUCCESS(dx_create_refused(0, cdev->ctx, in, sizeof(in),
					      MLX5_CMD_STAT_BAD_RES_ERR,
					      "a receive queue, no receive CQ"),
			    "");
	TDEV_ASSERT_LIVE(0, live, "nothing left behind");
	dx_buf_put(&b);
	mlx5_devx_cq_destroy(&cq);
	mlx5_uar_release(cdev, &uar);
	return TEST_SUCCESS;
}

/*
 * QUERY_HCA_CAP as the device answers it: not for another function, and
 * not for a capability block the device lacks (general_2 without
 * hca_cap_2, QoS without qos); a query answered only into the whole
 * output layout (QUERY_MKEY, QUERY_Q_COUNTER).
 */
static int
test_device_refusals(void)
{
	const struct mlx5_glue *g = cdev->glue;
	uint32_t in[MLX5_ST_SZ_DW(query_hca_cap_in)] = { 0 };
	size_t outlen = MLX5_ST_SZ_BYTES(query_hca_cap_out);
	uint32_t mk_in[MLX5_ST_SZ_DW(query_mkey_in)] = { 0 };
	uint32_t qc_in[MLX5_ST_SZ_DW(query_q_counter_in)] = { 0 };
	struct mlx5_common_device *bare;
	struct mlx5_devx_obj *mkey, *qc;
	struct dx_buf b;
	uint8_t *out;

	TDEV_SIM_ONLY("the software device's statuses and shapes");
	out = calloc(1, outlen);
	TEST_ASSERT_NOT_NULL(out, "");
	MLX5_SET(query_hca_cap_in, in, opcode, MLX5_CMD_OP_QUERY_HCA_CAP);
	MLX5_SET(query_hca_cap_in, in, op_mod,
		 MLX5_HCA_CAP_OPMOD(MLX5_HCA_CAP_GENERAL, 1));
	MLX5_SET(query_hca_cap_in, in, other_function, 1);
	TEST_ASSERT_EQUAL(raw_cmd(in, sizeof(in), out, outlen), EREMOTEIO,
			  "another function's capabilities");
	TEST_ASSERT_EQUAL(MLX5_GET(mbox_out, out, status),
			  MLX5_CMD_STAT_BAD_PARAM_ERR, "");
	MLX5_SET(query_hca_cap_in, in, other_function, 0);
	TEST_ASSERT_SUCCESS(sim_probe("mlx5_sim1",
		"card=33,vhca_id=0,hca_cap_2=0,pacing=0"), "");
	bare = sim_cdev("mlx5_sim1");
	TEST_ASSERT_NOT_NULL(bare, "");
	MLX5_SET(query_hca_cap_in, in, op_mod,
		 MLX5_HCA_CAP_OPMOD(MLX5_HCA_CAP_GENERAL_2, 1));
	TEST_ASSERT_EQUAL(g->devx_general_cmd(bare->ctx, in, sizeof(in), out,
					      outlen), EREMOTEIO,
			  "general_2 without hca_cap_2");
	TEST_ASSERT_EQUAL(MLX5_GET(mbox_out, out, status),
			  MLX5_CMD_STAT_BAD_PARAM_ERR, "");
	MLX5_SET(query_hca_cap_in, in, op_mod,
		 MLX5_HCA_CAP_OPMOD(MLX5_HCA_CAP_QOS, 1));
	TEST_ASSERT_EQUAL(g->devx_general_cmd(bare->ctx, in, sizeof(in), out,
					      outlen), EREMOTEIO,
			  "QoS without qos");
	TEST_ASSERT_EQUAL(MLX5_GET(mbox_out, out, status),
			  MLX5_CMD_STAT_BAD_PARAM_ERR, "");
	TEST_ASSERT_SUCCESS(sim_remove("mlx5_sim1"), "");
	TEST_ASSERT_EQUAL(sim_live(33, 0), 0, "");
	/* Queries with room for a header only. */
	TEST_ASSERT_SUCCESS(dx_buf_get(&b, 4096), "");
	mkey = dx_mtt(&b, true);
	TEST_ASSERT_NOT_NULL(mkey, "");
	MLX5_SET(query_mkey_in, mk_in, opcode, MLX5_CMD_OP_QUERY_MKEY);
	MLX5_SET(query_mkey_in, mk_in, mkey_index, MLX5_MKEY_INDEX(mkey->id));
	TEST_ASSERT_SUCCESS(dx_query_no_room(mkey->obj, mk_in, sizeof(mk_in),
					     "QUERY_MKEY"), "");
	qc = mlx5_devx_cmd_queue_counter_alloc(cdev);
	TEST_ASSERT_NOT_NULL(qc, "");
	MLX5_SET(query_q_counter_in, qc_in, opcode,
		 MLX5_CMD_OP_QUERY_Q_COUNTER);
	MLX5_SET(query_q_counter_in, qc_in, counter_set_id, qc->id);
	TEST_ASSERT_SUCCESS(dx_query_no_room(qc->obj, qc_in, sizeof(qc_in),
					     "QUERY_Q_COUNTER"), "");
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_destroy(qc), "");
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_destroy(mkey), "");
	dx_buf_put(&b);
	free(out);
	return TEST_SUCCESS;
}

/* ALLOW_OTHER_VHCA_ACCESS of mkey index @index on @ctx: @status. */
static int
dx_allow_refused(struct ibv_context *ctx, uint32_t index, uint8_t status,
		 const char *what)
{
	uint32_t in[MLX5_ST_SZ_DW(allow_other_vhca_access_in)] = { 0 };
	uint32_t out[MLX5_ST_SZ_DW(allow_other_vhca_access_out)] = { 0 };

	MLX5_SET(allow_other_vhca_access_in, in, opcode,
		 MLX5_CMD_OP_ALLOW_OTHER_VHCA_ACCESS);
	MLX5_SET(allow_other_vhca_access_in, in, object_type_to_be_accessed,
		 MLX5_GENERAL_OBJ_TYPE_MKEY);
	MLX5_SET(allow_other_vhca_access_in, in, object_id_to_be_accessed,
		 index);
	TEST_ASSERT_EQUAL(cdev->glue->devx_general_cmd(ctx, in, sizeof(in),
		out, sizeof(out)), EREMOTEIO, "%s", what);
	TEST_ASSERT_EQUAL(MLX5_GET(mbox_out, out, status), status, "%s",
			  what);
	return TEST_SUCCESS;
}

/* MODIFY_GENERAL_OBJECT of @obj (type @type) is BAD_PARAM. */
static int
dx_modify_refused(struct mlx5_devx_obj *obj, uint16_t type)
{
	uint32_t in[MLX5_ST_SZ_DW(general_obj_in_cmd_hdr)] = { 0 };
	uint32_t out[MLX5_ST_SZ_DW(general_obj_out_cmd_hdr)];

	MLX5_SET(general_obj_in_cmd_hdr, in, opcode,
		 MLX5_CMD_OP_MODIFY_GENERAL_OBJECT);
	MLX5_SET(general_obj_in_cmd_hdr, in, obj_type, type);
	MLX5_SET(general_obj_in_cmd_hdr, in, obj_id, obj->id);
	TEST_ASSERT_EQUAL(cdev->glue->devx_obj_modify(obj->obj, in, sizeof(in),
		out, sizeof(out)), EREMOTEIO, "");
	TEST_ASSERT_EQUAL(MLX5_GET(mbox_out, out, status),
			  MLX5_CMD_STAT_BAD_PARAM_ERR, "");
	return TEST_SUCCESS;
}

/*
 * What the software device grants to other vHCAs: an mkey of the
 * granting context (another context's is BAD_RES), not an alias or a
 * crossing mkey (which point at another's memory: BAD_PARAM, the model's
 * choice), only with the capability; and general objects are not
 * modified (BAD_PARAM).
 */
static int
test_allow_access_rules(void)
{
	static const uint8_t key[MLX5_ACCESS_KEY_LEN] = "allow rules key";
	struct mlx5dv_mkey_init_attr dv_attr = {
		.create_flags = MLX5DV_MKEY_INIT_ATTR_FLAGS_INDIRECT,
		.max_entries = 4,
	};
	uint32_t cout[MLX5_ST_SZ_DW(create_mkey_out)];
	struct mlx5_devx_obj *owner_mkey, *alias, *dek;
	struct mlx5_common_device *imp, *nc;
	struct mlx5dv_devx_obj *cross, *theirs;
	struct mlx5dv_mkey *target;
	struct ibv_context *other;
	struct ibv_pd *their_pd;
	uint32_t their_pdn;
	size_t inlen;
	struct dx_buf b;
	uint8_t *in;
	int ret;

	TDEV_SIM_ONLY("the software device's grant rules");
	ret = dx_alias_setup(&imp, &b, &owner_mkey);
	if (ret != TEST_SUCCESS)
		return ret;
	alias = dx_grant_alias(imp, owner_mkey, key);
	TEST_ASSERT_NOT_NULL(alias, "");
	TEST_ASSERT_SUCCESS(dx_allow_refused(imp->ctx, alias->id,
		MLX5_CMD_STAT_BAD_PARAM_ERR, "granting an alias"), "");
	TEST_ASSERT_SUCCESS(dx_modify_refused(alias, MLX5_GENERAL_OBJ_TYPE_MKEY),
			    "an alias is not modified");
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_destroy(alias), "");
	/* A crossing mkey of the importer, to one of its own. */
	dv_attr.pd = imp->pd;
	target = imp->glue->dv_create_mkey(&dv_attr);
	TEST_ASSERT_NOT_NULL(target, "");
	in = dx_mkey_in(MLX5_MKC_ACCESS_MODE_CROSSING, 0, &inlen);
	TEST_ASSERT_NOT_NULL(in, "");
	MLX5_SET(mkc, DX_MKC(in), pd, imp->pdn);
	MLX5_SET64(mkc, DX_MKC(in), len, 4096);
	MLX5_SET(mkc, DX_MKC(in), crossing_target_vhca_id, imp->caps.vhca_id);
	MLX5_SET(mkc, DX_MKC(in), translations_octword_size, target->lkey);
	cross = imp->glue->devx_obj_create(imp->ctx, in, inlen, cout,
					   sizeof(cout));
	TEST_ASSERT_NOT_NULL(cross, "");
	TEST_ASSERT_SUCCESS(dx_allow_refused(imp->ctx,
		MLX5_GET(create_mkey_out, cout, mkey_index),
		MLX5_CMD_STAT_BAD_PARAM_ERR, "granting a crossing mkey"), "");
	TEST_ASSERT_SUCCESS(imp->glue->devx_obj_destroy(cross), "");
	TEST_ASSERT_SUCCESS(imp->glue->dv_destroy_mkey(target), "");
	/* Another context's mkey. */
	other = dx_other_ctx(cdev, &their_pd, &their_pdn);
	TEST_ASSERT_NOT_NULL(other, "");
	free(in);
	in = dx_mkey_in(MLX5_MKC_ACCESS_MODE_KLM, 0, &inlen);
	TEST_ASSERT_NOT_NULL(in, "");
	MLX5_SET(mkc, DX_MKC(in), free, 1);
	MLX5_SET(mkc, DX_MKC(in), pd, their_pdn);
	theirs = cdev->glue->devx_obj_create(other, in, inlen, cout,
					     sizeof(cout));
	TEST_ASSERT_NOT_NULL(theirs, "");
	TEST_ASSERT_SUCCESS(dx_allow_refused(cdev->ctx,
		MLX5_GET(create_mkey_out, cout, mkey_index),
		MLX5_CMD_STAT_BAD_RES_ERR, "granting another context's mkey"),
		"");
	TEST_ASSERT_SUCCESS(cdev->glue->devx_obj_destroy(theirs), "");
	TEST_ASSERT_SUCCESS(cdev->glue->dealloc_pd(their_pd), "");
	TEST_ASSERT_SUCCESS(cdev->glue->close_device(other), "");
	free(in);
	dek = dx_dek128();
	TEST_ASSERT_NOT_NULL(dek, "");
	TEST_ASSERT_SUCCESS(dx_modify_refused(dek, MLX5_GENERAL_OBJ_TYPE_DEK),
			    "a DEK is not modified either");
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_destroy(dek), "");
	/* Without the capability, the device refuses any grant. */
	TEST_ASSERT_SUCCESS(dx_nocross_get("mlx5_sim2",
		"card=34,vhca_id=0,crossing=0", &nc, &target), "");
	TEST_ASSERT_SUCCESS(dx_allow_refused(nc->ctx, target->lkey >> 8,
		MLX5_CMD_STAT_BAD_PARAM_ERR, "a grant without the capability"),
		"");
	TEST_ASSERT_SUCCESS(nc->glue->dv_destroy_mkey(target), "");
	TEST_ASSERT_SUCCESS(sim_remove("mlx5_sim2"), "");
	TEST_ASSERT_EQUAL(sim_live(34, 0), 0, "");
	return dx_alias_teardown(owner_mkey, &b);
}

static const struct mlx5_test_case devx_cases[] = {
	{ "dek", test_dek },
	{ "dek_needs_crypto", test_dek_needs_crypto },
	{ "mailbox_validation", test_mailbox_validation },
	{ "refusal_reported", test_refusal_reported },
	{ "mkey_mtt", test_mkey_mtt },
	{ "mkey_mtt_errors", test_mkey_mtt_errors },
	{ "mkey_klm", test_mkey_klm },
	{ "mkey_crossing_needs_cap", test_mkey_crossing_needs_cap },
	{ "dv_create_mkey", test_dv_create_mkey },
	{ "mkey_fault", test_mkey_fault },
	{ "busy_objects", test_busy_objects },
	{ "mkey_klm_padding", test_mkey_klm_padding },
	{ "mkey_ksm", test_mkey_ksm },
	{ "device_input_length", test_device_input_length },
	{ "kernel_front", test_kernel_front },
	{ "non_devx_context", test_non_devx_context },
	{ "umem_access_flags", test_umem_access_flags },
	{ "umem_range", test_umem_range },
	{ "destroy_refused_errno", test_destroy_refused_errno },
	{ "lbqp_stage_refused_free", test_lbqp_stage_refused_free },
	{ "mkey_umem_valid_rewrite", test_mkey_umem_valid_rewrite },
	{ "pd_dealloc_devx_user", test_pd_dealloc_devx_user },
	{ "alias_builders", test_alias_builders },
	{ "mkey_mtt_rules", test_mkey_mtt_rules },
	{ "mkey_klm_rules", test_mkey_klm_rules },
	{ "mkey_crossing_rules", test_mkey_crossing_rules },
	{ "mkey_query_fields", test_mkey_query_fields },
	{ "pd_import_dealloc", test_pd_import_dealloc },
	{ "mkey_table_full", test_mkey_table_full },
	{ "pd_umem_tables_full", test_pd_umem_tables_full },
	{ "dek_rules", test_dek_rules },
	{ "alias_regrant", test_alias_regrant },
	{ "alias_rules", test_alias_rules },
	{ "query_names_own_object", test_query_names_own_object },
	{ "kernel_entry_points", test_kernel_entry_points },
	{ "device_refusals", test_device_refusals },
	{ "hca_cap_page", test_hca_cap_page },
	{ "qp_no_receive_cq", test_qp_no_receive_cq },
	{ "allow_access_rules", test_allow_access_rules },
	{ NULL, NULL },
};

static const struct mlx5_test_suite devx_suite = {
	.name = "devx",
	.case_setup = dx_case_setup,
	.case_teardown = dx_case_teardown,
	.cases = devx_cases,
};

MLX5_TEST_MAIN(devx_suite)
