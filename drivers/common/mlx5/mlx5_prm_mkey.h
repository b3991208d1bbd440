/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/* PRM layouts: memory keys (CREATE/QUERY/DESTROY_MKEY, KLM and MTT entries). */

#ifndef MLX5_PRM_MKEY_H_
#define MLX5_PRM_MKEY_H_

enum mlx5_mkc_access_mode {
	MLX5_MKC_ACCESS_MODE_PA = 0x0,
	MLX5_MKC_ACCESS_MODE_MTT = 0x1,
	MLX5_MKC_ACCESS_MODE_KLM = 0x2,
	MLX5_MKC_ACCESS_MODE_KSM = 0x3,
	MLX5_MKC_ACCESS_MODE_SW_ICM = 0x4,
	MLX5_MKC_ACCESS_MODE_MEMIC = 0x5,
	MLX5_MKC_ACCESS_MODE_CROSSING = 0x6,
};

/* The 24-bit "any QP" value of mkc.qpn. */
#define MLX5_MKC_QPN_ANY 0xffffff
/* The mkey value is index << 8 | the 8-bit variant (mkey_7_0). */
#define MLX5_MKEY_INDEX(mkey) ((uint32_t)(mkey) >> 8)
#define MLX5_MKEY_VARIANT(mkey) ((uint32_t)(mkey) & 0xff)
/* Octword = 16 bytes: one KLM entry or two MTT entries. */
#define MLX5_OCTWORD_SIZE 16

/* Memory key context. */
struct mlx5_ifc_mkc_bits {
	u8 reserved_at_0[0x1];
	u8 free[0x1];
	u8 reserved_at_2[0x1];
	u8 access_mode_4_2[0x3];
	u8 alter_pd_to_vhca_id[0x1];
	u8 crossed_side_mkey[0x1];
	u8 reserved_at_8[0x8];
	u8 umr_en[0x1];
	u8 a[0x1];
	u8 rw[0x1];
	u8 rr[0x1];
	u8 lw[0x1];
	u8 lr[0x1];
	u8 access_mode_1_0[0x2];
	u8 reserved_at_18[0x8];
	u8 qpn[0x18];
	u8 mkey_7_0[0x8];
	u8 reserved_at_40[0x20];
	u8 length64[0x1];
	u8 bsf_en[0x1];
	u8 sync_umr[0x1];
	u8 reserved_at_63[0x2];
	u8 expected_sigerr_count[0x1];
	u8 reserved_at_66[0x1];
	u8 en_rinval[0x1];
	u8 pd[0x18];
	u8 start_addr[0x40];
	u8 len[0x40];
	u8 bsf_octword_size[0x20];
	u8 reserved_at_120[0x60];
	u8 crossing_target_vhca_id[0x10];
	u8 reserved_at_190[0x10];
	u8 translations_octword_size[0x20];
	u8 reserved_at_1c0[0x1a];
	u8 log_page_size[0x6];
	u8 reserved_at_1e0[0x3];
	u8 crypto_en[0x2];
	u8 reserved_at_1e5[0x1b];
};

struct mlx5_ifc_create_mkey_in_bits {
	u8 opcode[0x10];
	u8 uid[0x10];
	u8 reserved_at_20[0x10];
	u8 op_mod[0x10];
	u8 reserved_at_40[0x20];
	u8 pg_access[0x1];
	u8 mkey_umem_valid[0x1];
	u8 reserved_at_62[0x1e];
	struct mlx5_ifc_mkc_bits memory_key_mkey_entry;
	u8 reserved_at_280[0x80];
	u8 translations_octword_actual_size[0x20];
	u8 mkey_umem_id[0x20];
	u8 mkey_umem_offset[0x40];
	u8 reserved_at_380[0x500];
	u8 klm_pas_mtt[][0x20];
};

struct mlx5_ifc_create_mkey_out_bits {
	u8 status[0x8];
	u8 reserved_at_8[0x18];
	u8 syndrome[0x20];
	u8 reserved_at_40[0x8];
	u8 mkey_index[0x18];
	u8 reserved_at_60[0x20];
};

struct mlx5_ifc_query_mkey_in_bits {
	u8 opcode[0x10];
	u8 uid[0x10];
	u8 reserved_at_20[0x10];
	u8 op_mod[0x10];
	u8 reserved_at_40[0x8];
	u8 mkey_index[0x18];
	u8 pg_access[0x1];
	u8 reserved_at_61[0x1f];
};

struct mlx5_ifc_query_mkey_out_bits {
	u8 status[0x8];
	u8 reserved_at_8[0x18];
	u8 syndrome[0x20];
	u8 reserved_at_40[0x40];
	struct mlx5_ifc_mkc_bits memory_key_mkey_entry;
	u8 reserved_at_280[0x600];
	u8 bsf0_klm0_pas_mtt0_1[16][0x8];
	u8 bsf1_klm1_pas_mtt2_3[16][0x8];
};

struct mlx5_ifc_destroy_mkey_in_bits {
	u8 opcode[0x10];
	u8 uid[0x10];
	u8 reserved_at_20[0x10];
	u8 op_mod[0x10];
	u8 reserved_at_40[0x8];
	u8 mkey_index[0x18];
	u8 reserved_at_60[0x20];
};

struct mlx5_ifc_destroy_mkey_out_bits {
	u8 status[0x8];
	u8 reserved_at_8[0x18];
	u8 syndrome[0x20];
	u8 reserved_at_40[0x40];
};

/* Indirect (KLM) translation entry: one octword. */
struct mlx5_ifc_klm_bits {
	u8 byte_count[0x20];
	u8 mkey[0x20];
	u8 address[0x40];
};

/* Direct (MTT) translation entry: one page address plus access bits. */
struct mlx5_ifc_mtt_bits {
	u8 ptag_63_32[0x20];
	u8 ptag_31_8[0x18];
	u8 reserved_at_38[0x6];
	u8 wr_en[0x1];
	u8 rd_en[0x1];
};

#endif /* MLX5_PRM_MKEY_H_ */
