/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * PRM layouts: the UMR (user memory registration) work request that
 * configures an indirect mkey from a send queue, and the crypto BSF it
 * carries to turn the mkey into an AES-XTS one.
 *
 * A UMR WQE is, in 16-byte segments: the control segment (opcode
 * MLX5_OPCODE_UMR, the target mkey in its immediate), the UMR control
 * segment (3), the mkey context segment (4), the inline KLM list
 * (klm_octowords, padded to 4), then the BSF (bsf_octowords). rdma-core's
 * <infiniband/mlx5dv.h> has the first three and the KLM entry (struct
 * mlx5_wqe_umr_ctrl_seg, mlx5_wqe_mkey_context_seg, mlx5_wqe_umr_klm_seg)
 * and most mkey-mask bits; what it lacks is here. The mkey context segment
 * has the layout of the mkey context (struct mlx5_ifc_mkc_bits), so fields
 * mlx5dv.h leaves reserved (crypto_en) are reached with MLX5_SET(mkc, ...).
 */

#ifndef MLX5_PRM_UMR_H_
#define MLX5_PRM_UMR_H_

/* UMR control segment's mkey_mask bits mlx5dv.h does not name. */
#define MLX5_UMR_MKEY_MASK_ACCESS_LOCAL_READ (UINT64_C(1) << 17)
/* mkey context segment: flags_pd's bsf_en (mkc.bsf_en, bit 30, BE). */
#define MLX5_UMR_MKEY_CTX_FLAGS_BSF_ENABLE (UINT32_C(1) << 30)

/* Octowords of a crypto BSF (without a signature BSF before it). */
#define MLX5_CRYPTO_BSF_OCTOWORDS 4
/* What a crypto mkey reserves for its BSF at creation (mkc). */
#define MLX5_CRYPTO_MKEY_BSF_OCTOWORDS MLX5_CRYPTO_BSF_OCTOWORDS

/* crypto_bsf.bsf_size. */
enum {
	MLX5_BSF_SIZE_16B = 0x0,
	MLX5_BSF_SIZE_32B = 0x1,
	MLX5_BSF_SIZE_64B = 0x2,
	MLX5_BSF_SIZE_128B = 0x3,   /* Signature and crypto BSFs. */
};

/* crypto_bsf.bsf_p_type. */
enum {
	MLX5_BSF_P_TYPE_SIGNATURE = 0x0,
	MLX5_BSF_P_TYPE_CRYPTO = 0x1,
};

/*
 * crypto_bsf.encryption_order: which side of the mkey holds ciphertext.
 * "Wire" is the queue's side (what an RDMA operation moves), "memory" the
 * memory behind the mkey's translation. The two signature orders place a
 * signature before or after the cipher; without a signature BSF they mean
 * the same as the raw ones.
 */
enum {
	MLX5_ENCRYPTION_ORDER_ENCRYPTED_WIRE_SIGNATURE = 0x0,
	MLX5_ENCRYPTION_ORDER_ENCRYPTED_MEMORY_SIGNATURE = 0x1,
	MLX5_ENCRYPTION_ORDER_ENCRYPTED_RAW_WIRE = 0x2,
	MLX5_ENCRYPTION_ORDER_ENCRYPTED_RAW_MEMORY = 0x3,
};

/* crypto_bsf.encryption_standard. */
enum {
	MLX5_ENCRYPTION_STANDARD_AES_XTS = 0x0,
};

/*
 * crypto_bsf.crypto_block_size_pointer: the data-unit size, the span one
 * XTS tweak covers. No public source gives code 0 a meaning.
 */
enum {
	MLX5_CRYPTO_BLOCK_SIZE_512B = 0x1,
	MLX5_CRYPTO_BLOCK_SIZE_520B = 0x2,
	MLX5_CRYPTO_BLOCK_SIZE_4096B = 0x3,
	MLX5_CRYPTO_BLOCK_SIZE_4160B = 0x4,
	MLX5_CRYPTO_BLOCK_SIZE_1MB = 0x5,
	MLX5_CRYPTO_BLOCK_SIZE_4048B = 0x6,
};

/* Bytes of a data unit of @code, 0 for a code with no size. */
static inline uint32_t
mlx5_crypto_block_size_bytes(uint8_t code)
{
	switch (code) {
	case MLX5_CRYPTO_BLOCK_SIZE_512B:
		return 512;
	case MLX5_CRYPTO_BLOCK_SIZE_520B:
		return 520;
	case MLX5_CRYPTO_BLOCK_SIZE_4096B:
		return 4096;
	case MLX5_CRYPTO_BLOCK_SIZE_4160B:
		return 4160;
	case MLX5_CRYPTO_BLOCK_SIZE_1MB:
		return 1u << 20;
	case MLX5_CRYPTO_BLOCK_SIZE_4048B:
		return 4048;
	default:
		return 0;
	}
}

/* Bytes of the XTS initial tweak. */
#define MLX5_CRYPTO_XTS_TWEAK_LEN 16

/*
 * The crypto BSF (64 bytes), the last segments of a UMR WQE. The initial
 * tweak is the 128-bit tweak of the first data unit, in the byte order the
 * device's aes_xts_* capability bit names (little-endian for
 * aes_xts_multi_block_le_tweak: IEEE 1619's own); the device adds one per
 * data unit. The key tag must match the DEK's when the DEK has one.
 */
struct mlx5_ifc_crypto_bsf_bits {
	u8 bsf_size[0x2];
	u8 reserved_at_2[0x4];
	u8 bsf_p_type[0x2];
	u8 reserved_at_8[0x4];
	u8 encryption_order[0x4];
	u8 reserved_at_10[0xc];
	u8 encryption_standard[0x4];
	u8 raw_data_size[0x20];
	u8 crypto_block_size_pointer[0x8];
	u8 reserved_at_48[0x38];
	u8 xts_initial_tweak[0x80];
	u8 reserved_at_100[0x8];
	u8 dek_pointer[0x18];
	u8 reserved_at_120[0x20];
	u8 keytag[0x40];
	u8 reserved_at_180[0x80];
};

#endif /* MLX5_PRM_UMR_H_ */
