/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * PRM layouts and accessors: sizes and offsets against the PRM facts, field
 * writes that leave neighbours alone, and the status tables.
 */

#include <mlx5_prm.h>
#include <mlx5_devx_cmds.h>

#include "mlx5_test.h"

#define BIT_OFF(typ, fld) __mlx5_bit_off(typ, fld)

static int
test_layout_sizes(void)
{
	TEST_ASSERT_EQUAL(MLX5_ST_SZ_BYTES(mbox_in), 16, "mailbox header");
	TEST_ASSERT_EQUAL(MLX5_ST_SZ_BYTES(mkc), 64, "mkey context");
	TEST_ASSERT_EQUAL(MLX5_ST_SZ_BYTES(create_mkey_in), 272,
			  "CREATE_MKEY input without translations");
	TEST_ASSERT_EQUAL(MLX5_ST_SZ_BYTES(create_mkey_out), 16, "");
	TEST_ASSERT_EQUAL(MLX5_ST_SZ_BYTES(query_hca_cap_in), 16, "");
	TEST_ASSERT_EQUAL(MLX5_ST_SZ_BYTES(query_hca_cap_out), 4112, "");
	TEST_ASSERT_EQUAL(MLX5_ST_SZ_BYTES(cmd_hca_cap), 256, "");
	TEST_ASSERT_EQUAL(MLX5_ST_SZ_BYTES(cmd_hca_cap_2), 256, "");
	TEST_ASSERT_EQUAL(MLX5_ST_SZ_BYTES(qos_cap), 256, "");
	TEST_ASSERT_EQUAL(MLX5_ST_SZ_BYTES(allow_other_vhca_access_in), 64, "");
	TEST_ASSERT_EQUAL(MLX5_ST_SZ_BYTES(alias_context), 64, "");
	TEST_ASSERT_EQUAL(MLX5_ST_SZ_BYTES(general_obj_in_cmd_hdr), 16, "");
	TEST_ASSERT_EQUAL(MLX5_ST_SZ_BYTES(set_pp_rate_limit_context), 48, "");
	TEST_ASSERT_EQUAL(MLX5_ST_SZ_BYTES(klm), 16, "one octword");
	TEST_ASSERT_EQUAL(MLX5_ST_SZ_BYTES(mtt), 8, "");
	return TEST_SUCCESS;
}

static int
test_layout_offsets(void)
{
	/* Offsets in bits, as the kernel's include/linux/mlx5/mlx5_ifc.h gives them. */
	TEST_ASSERT_EQUAL(BIT_OFF(cmd_hca_cap, vhca_id), 0x30, "");
	TEST_ASSERT_EQUAL(BIT_OFF(cmd_hca_cap, hca_cap_2), 0x20, "");
	TEST_ASSERT_EQUAL(BIT_OFF(cmd_hca_cap, dump_fill_mkey), 0xf8, "");
	TEST_ASSERT_EQUAL(BIT_OFF(cmd_hca_cap, null_mkey), 0x119, "");
	TEST_ASSERT_EQUAL(BIT_OFF(cmd_hca_cap, qos), 0x21b, "");
	TEST_ASSERT_EQUAL(BIT_OFF(cmd_hca_cap, general_obj_types), 0x400, "");
	TEST_ASSERT_EQUAL(BIT_OFF(cmd_hca_cap, crossing_vhca_mkey), 0x5b2, "");
	TEST_ASSERT_EQUAL(BIT_OFF(cmd_hca_cap_2,
				  cross_vhca_object_to_object_supported), 0xe0, "");
	TEST_ASSERT_EQUAL(BIT_OFF(cmd_hca_cap_2,
				  allowed_object_for_other_vhca_access), 0x100, "");
	TEST_ASSERT_EQUAL(BIT_OFF(qos_cap, packet_pacing_burst_bound), 0x5, "");
	TEST_ASSERT_EQUAL(BIT_OFF(qos_cap, packet_pacing_typical_size), 0x6, "");
	TEST_ASSERT_EQUAL(BIT_OFF(qos_cap, packet_pacing_uid), 0xb, "");
	TEST_ASSERT_EQUAL(BIT_OFF(qos_cap, packet_pacing_max_rate), 0x40, "");
	TEST_ASSERT_EQUAL(BIT_OFF(qos_cap, packet_pacing_min_rate), 0x60, "");
	TEST_ASSERT_EQUAL(BIT_OFF(qos_cap, packet_pacing_rate_table_size), 0x90, "");
	TEST_ASSERT_EQUAL(BIT_OFF(mkc, free), 0x1, "");
	TEST_ASSERT_EQUAL(BIT_OFF(mkc, access_mode_4_2), 0x3, "");
	TEST_ASSERT_EQUAL(BIT_OFF(mkc, alter_pd_to_vhca_id), 0x6, "");
	TEST_ASSERT_EQUAL(BIT_OFF(mkc, crossed_side_mkey), 0x7, "");
	TEST_ASSERT_EQUAL(BIT_OFF(mkc, umr_en), 0x10, "");
	TEST_ASSERT_EQUAL(BIT_OFF(mkc, lr), 0x15, "");
	TEST_ASSERT_EQUAL(BIT_OFF(mkc, access_mode_1_0), 0x16, "");
	TEST_ASSERT_EQUAL(BIT_OFF(mkc, qpn), 0x20, "");
	TEST_ASSERT_EQUAL(BIT_OFF(mkc, mkey_7_0), 0x38, "");
	TEST_ASSERT_EQUAL(BIT_OFF(mkc, en_rinval), 0x67, "");
	TEST_ASSERT_EQUAL(BIT_OFF(mkc, pd), 0x68, "");
	TEST_ASSERT_EQUAL(BIT_OFF(mkc, start_addr), 0x80, "");
	TEST_ASSERT_EQUAL(BIT_OFF(mkc, len), 0xc0, "");
	TEST_ASSERT_EQUAL(BIT_OFF(mkc, crossing_target_vhca_id), 0x180, "");
	TEST_ASSERT_EQUAL(BIT_OFF(mkc, translations_octword_size), 0x1a0, "");
	TEST_ASSERT_EQUAL(BIT_OFF(mkc, log_page_size), 0x1da, "");
	TEST_ASSERT_EQUAL(BIT_OFF(mkc, crypto_en), 0x1e3, "");
	TEST_ASSERT_EQUAL(BIT_OFF(create_mkey_in, memory_key_mkey_entry), 0x80, "");
	TEST_ASSERT_EQUAL(BIT_OFF(create_mkey_in, mkey_umem_valid), 0x61, "");
	TEST_ASSERT_EQUAL(BIT_OFF(create_mkey_in,
				  translations_octword_actual_size), 0x300, "");
	TEST_ASSERT_EQUAL(BIT_OFF(create_mkey_in, klm_pas_mtt), 0x880, "");
	TEST_ASSERT_EQUAL(BIT_OFF(create_mkey_out, mkey_index), 0x48, "");
	TEST_ASSERT_EQUAL(BIT_OFF(allow_other_vhca_access_in,
				  object_type_to_be_accessed), 0x90, "");
	TEST_ASSERT_EQUAL(BIT_OFF(allow_other_vhca_access_in,
				  object_id_to_be_accessed), 0xa0, "");
	TEST_ASSERT_EQUAL(BIT_OFF(allow_other_vhca_access_in, access_key),
			  0x100, "");
	TEST_ASSERT_EQUAL(BIT_OFF(general_obj_in_cmd_hdr, obj_type), 0x30, "");
	TEST_ASSERT_EQUAL(BIT_OFF(general_obj_in_cmd_hdr, alias_object), 0x60, "");
	TEST_ASSERT_EQUAL(BIT_OFF(general_obj_out_cmd_hdr, obj_id), 0x40, "");
	TEST_ASSERT_EQUAL(BIT_OFF(alias_context, status), 0x1d, "");
	TEST_ASSERT_EQUAL(BIT_OFF(alias_context, object_id_to_be_accessed),
			  0x20, "");
	TEST_ASSERT_EQUAL(BIT_OFF(alias_context, access_key), 0x80, "");
	TEST_ASSERT_EQUAL(BIT_OFF(alias_context, metadata), 0x180, "");
	/* The CREATE answer carries the alias context after the header. */
	TEST_ASSERT_EQUAL(BIT_OFF(create_alias_obj_out, alias_ctx), 0x80, "");
	TEST_ASSERT_EQUAL(BIT_OFF(query_alias_obj_out, alias_ctx), 0x80, "");
	TEST_ASSERT_EQUAL(BIT_OFF(create_alias_obj_in, alias_ctx), 0x80, "");
	TEST_ASSERT_EQUAL(BIT_OFF(set_pp_rate_limit_context, burst_upper_bound),
			  0x20, "");
	TEST_ASSERT_EQUAL(BIT_OFF(set_pp_rate_limit_context, rate_mode), 0x4c, "");
	TEST_ASSERT_EQUAL(BIT_OFF(set_pp_rate_limit_context,
				  typical_packet_size), 0x50, "");
	return TEST_SUCCESS;
}

static int
test_set_get_neighbours(void)
{
	uint32_t mkc[MLX5_ST_SZ_DW(mkc)];
	const uint8_t *b = (const uint8_t *)mkc;

	memset(mkc, 0, sizeof(mkc));
	/* qpn (24 bits) and mkey_7_0 (8 bits) share a dword. */
	MLX5_SET(mkc, mkc, qpn, 0xffffff);
	MLX5_SET(mkc, mkc, mkey_7_0, 0x5a);
	TEST_ASSERT_EQUAL(MLX5_GET(mkc, mkc, qpn), 0xffffff, "");
	TEST_ASSERT_EQUAL(MLX5_GET(mkc, mkc, mkey_7_0), 0x5a, "");
	/* Big-endian on the wire: byte 4..7 = ff ff ff 5a. */
	TEST_ASSERT_EQUAL(b[4], 0xff, "");
	TEST_ASSERT_EQUAL(b[7], 0x5a, "");
	/* Values wider than the field are truncated, not spilled. */
	MLX5_SET(mkc, mkc, access_mode_1_0, 0x6);
	TEST_ASSERT_EQUAL(MLX5_GET(mkc, mkc, access_mode_1_0), 0x2, "");
	TEST_ASSERT_EQUAL(MLX5_GET(mkc, mkc, lr), 0, "neighbour untouched");
	MLX5_SET(mkc, mkc, lr, 1);
	MLX5_SET(mkc, mkc, access_mode_4_2, 6 >> 2);
	TEST_ASSERT_EQUAL(MLX5_GET(mkc, mkc, lr), 1, "");
	TEST_ASSERT_EQUAL(MLX5_GET(mkc, mkc, free), 0, "");
	TEST_ASSERT_EQUAL(MLX5_GET(mkc, mkc, access_mode_1_0) |
			  (MLX5_GET(mkc, mkc, access_mode_4_2) << 2),
			  MLX5_MKC_ACCESS_MODE_CROSSING, "split access mode");
	MLX5_SET(mkc, mkc, pd, 0x123456);
	TEST_ASSERT_EQUAL(MLX5_GET(mkc, mkc, en_rinval), 0, "");
	TEST_ASSERT_EQUAL(MLX5_GET(mkc, mkc, pd), 0x123456, "");
	MLX5_SET64(mkc, mkc, start_addr, 0x1122334455667788ull);
	TEST_ASSERT_EQUAL(b[16], 0x11, "");
	TEST_ASSERT_EQUAL(b[23], 0x88, "");
	TEST_ASSERT(MLX5_GET64(mkc, mkc, start_addr) == 0x1122334455667788ull,
		    "64-bit round trip");
	return TEST_SUCCESS;
}

static int
test_status_table(void)
{
	static const struct { uint8_t status; int err; const char *name; } t[] = {
		{ 0x1, EIO, "INT_ERR" }, { 0x2, EINVAL, "BAD_OP" },
		{ 0x3, EINVAL, "BAD_PARAM" }, { 0x4, EIO, "BAD_SYS_STATE" },
		{ 0x5, EINVAL, "BAD_RES" }, { 0x6, EBUSY, "RES_BUSY" },
		{ 0x8, ENOMEM, "LIM" }, { 0x9, EINVAL, "BAD_RES_STATE" },
		{ 0xa, EINVAL, "BAD_INDEX" }, { 0xf, EAGAIN, "NO_RESOURCES" },
		{ 0x10, EINVAL, "BAD_QP_STATE" }, { 0x30, EINVAL, "BAD_PKT" },
		{ 0x40, EINVAL, "BAD_SIZE_OUTS_CQES" },
		{ 0x50, EIO, "BAD_INPUT_LEN" }, { 0x51, EIO, "BAD_OUTPUT_LEN" },
		{ 0x77, EIO, "UNKNOWN" },
	};

	for (size_t i = 0; i < RTE_DIM(t); i++) {
		TEST_ASSERT_EQUAL(mlx5_cmd_status_to_errno(t[i].status),
				  t[i].err, "status 0x%x", t[i].status);
		TEST_ASSERT(strcmp(mlx5_cmd_status_name(t[i].status),
				   t[i].name) == 0, "status 0x%x is %s",
			    t[i].status, t[i].name);
	}
	TEST_ASSERT(strcmp(mlx5_cmd_opcode_name(0x200), "CREATE_MKEY") == 0, "");
	TEST_ASSERT(strcmp(mlx5_cmd_opcode_name(0xb16),
			   "ALLOW_OTHER_VHCA_ACCESS") == 0, "");
	return TEST_SUCCESS;
}

static const struct mlx5_test_case prm_cases[] = {
	{ "layout_sizes", test_layout_sizes },
	{ "layout_offsets", test_layout_offsets },
	{ "set_get_neighbours", test_set_get_neighbours },
	{ "status_table", test_status_table },
	{ NULL, NULL },
};

static const struct mlx5_test_suite prm_suite = {
	.name = "prm",
	.cases = prm_cases,
};

MLX5_TEST_MAIN(prm_suite)
