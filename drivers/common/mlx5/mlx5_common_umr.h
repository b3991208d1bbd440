/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * Datapath helper for class drivers (a crypto PMD): the UMR WQE that turns
 * a crypto-enabled indirect mkey (created with umr_en and crypto_en, see
 * struct mlx5_devx_mkey_attr) into an AES-XTS view of one data range.
 * After it, an RDMA operation through the mkey moves bytes through the
 * device's cipher: written through it, they are encrypted into memory
 * (MLX5_ENCRYPTION_ORDER_ENCRYPTED_RAW_MEMORY) or decrypted into memory
 * (..._RAW_WIRE); read through it, the reverse. The WQE that uses the key
 * should carry MLX5_WQE_CTRL_INITIATOR_SMALL_FENCE, so that hardware
 * finishes the UMR first. Layouts: mlx5_prm_umr.h.
 */

#ifndef MLX5_COMMON_UMR_H_
#define MLX5_COMMON_UMR_H_

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <infiniband/mlx5dv.h>

#include <rte_branch_prediction.h>
#include <rte_byteorder.h>
#include <rte_errno.h>
#include <rte_log.h>

#include "mlx5_devx_cmds.h"
#include "mlx5_prm.h"

/* KLM entries of the list, padded as the device reads them (64 bytes). */
#define MLX5_UMR_CRYPTO_KLM_OCTOWORDS 4
/* KLM octowords of a list of @n entries: padded to a multiple of 4. */
#define MLX5_UMR_CRYPTO_KLM_OCTOWORDS_N(n) \
	((((n) + MLX5_UMR_CRYPTO_KLM_OCTOWORDS - 1) / \
	  MLX5_UMR_CRYPTO_KLM_OCTOWORDS) * MLX5_UMR_CRYPTO_KLM_OCTOWORDS)
/*
 * 16-byte segments of the WQE with a list of @n KLM entries: control, UMR
 * control (3), mkey context (4), KLM list (@n padded to 4), crypto BSF (4).
 */
#define MLX5_UMR_CRYPTO_WQE_DS_N(n) \
	(1 + sizeof(struct mlx5_wqe_umr_ctrl_seg) / 16 + \
	 sizeof(struct mlx5_wqe_mkey_context_seg) / 16 + \
	 MLX5_UMR_CRYPTO_KLM_OCTOWORDS_N(n) + MLX5_CRYPTO_BSF_OCTOWORDS)
#define MLX5_UMR_CRYPTO_WQE_SIZE_N(n) (MLX5_UMR_CRYPTO_WQE_DS_N(n) * 16)
/* One range: 16 segments, 256 bytes, four WQE basic blocks. */
#define MLX5_UMR_CRYPTO_WQE_DS MLX5_UMR_CRYPTO_WQE_DS_N(1)
#define MLX5_UMR_CRYPTO_WQE_SIZE (MLX5_UMR_CRYPTO_WQE_DS * 16)
/*
 * Most KLM entries one UMR WQE carries: a WQE holds at most 63 segments
 * (the 6-bit ds of its control segment).
 */
#define MLX5_UMR_CRYPTO_KLM_MAX 48

/* What mlx5_umr_crypto_wqe_build() writes. */
struct mlx5_umr_crypto_wqe_attr {
	uint32_t qpn;              /* The send queue's QP. */
	uint16_t wqe_index;        /* Its send counter for this WQE. */
	bool signaled;             /* A CQE on success too (errors always). */
	uint32_t mkey;             /* The crypto mkey to configure. */
	uint64_t iova;             /* Address of the range through the mkey. */
	/* The data range: (lkey, addr, len), a key of the mkey's PD. */
	uint32_t lkey;
	uint64_t addr;
	uint32_t len;
	/*
	 * Or, with klm_num > 0, a range scattered over klm_num entries
	 * (keys of the mkey's PD) whose byte counts add up to len; lkey and
	 * addr are then not used.
	 */
	const struct mlx5_klm *klm;
	uint32_t klm_num;
	uint32_t dek_id;           /* DEK object of the mkey's PD. */
	/* Tweak of the first data unit, in the device's byte order. */
	uint8_t tweak[MLX5_CRYPTO_XTS_TWEAK_LEN];
	uint8_t block_size;        /* Data-unit size, MLX5_CRYPTO_BLOCK_SIZE_*. */
	uint8_t encryption_order;  /* MLX5_ENCRYPTION_ORDER_ENCRYPTED_RAW_*. */
	uint64_t keytag;           /* The DEK's key tag, if it has one. */
};

/**
 * Write a UMR WQE configuring @p attr->mkey for one data range into @p wqe
 * (MLX5_UMR_CRYPTO_WQE_SIZE_N(klm_num or 1) contiguous bytes; the caller
 * copies it into its ring, wrapping as needed): the mkey becomes non-free,
 * maps [iova, iova + len) onto (lkey, addr), or onto the klm list in
 * order, and ciphers it with the DEK, the tweak and the data-unit size
 * given. The mkey keeps its access rights; it needs room for the list
 * (translation entries at creation) and a crypto BSF.
 *
 * @return
 *   The WQE's number of 16-byte segments (MLX5_UMR_CRYPTO_WQE_DS_N()), or
 *   -EINVAL with rte_errno set (and a log line) when @p attr is not a
 *   configuration the device can take.
 */
static inline int
mlx5_umr_crypto_wqe_build(void *wqe,
			  const struct mlx5_umr_crypto_wqe_attr *attr)
{
	struct mlx5_wqe_ctrl_seg *ctrl = wqe;
	struct mlx5_wqe_umr_ctrl_seg *umr = (void *)(ctrl + 1);
	struct mlx5_wqe_mkey_context_seg *mkc = (void *)(umr + 1);
	struct mlx5_wqe_umr_klm_seg *klm = (void *)(mkc + 1);
	const char *bad = NULL;
	uint32_t nklm, ds;
	void *bsf;

	if (unlikely(wqe == NULL || attr == NULL))
		bad = "no WQE or no attributes";
	else if (unlikely(attr->len == 0))
		bad = "empty data range";
	else if (unlikely(mlx5_crypto_block_size_bytes(attr->block_size) ==
			  0))
		bad = "unknown data-unit size code";
	else if (unlikely(attr->encryption_order >
			  MLX5_ENCRYPTION_ORDER_ENCRYPTED_RAW_MEMORY))
		bad = "unknown encryption order";
	else if (unlikely(attr->dek_id > 0xffffff))
		bad = "DEK id wider than 24 bits";
	else if (unlikely(attr->qpn > 0xffffff))
		bad = "QP number wider than 24 bits";
	else if (unlikely(attr->klm_num > MLX5_UMR_CRYPTO_KLM_MAX))
		bad = "more KLM entries than a WQE holds";
	else if (unlikely(attr->klm_num > 0 && attr->klm == NULL))
		bad = "no KLM list";
	if (likely(bad == NULL) && attr->klm_num > 0) {
		uint64_t sum = 0;

		for (uint32_t i = 0; i < attr->klm_num; i++)
			sum += attr->klm[i].byte_count;
		if (unlikely(sum != attr->len))
			bad = "KLM byte counts do not add up to the range";
	}
	if (unlikely(bad != NULL)) {
		rte_log(RTE_LOG_ERR, RTE_LOGTYPE_PMD,
			"mlx5_common: UMR crypto WQE: %s\n", bad);
		rte_errno = EINVAL;
		return -EINVAL;
	}
	nklm = attr->klm_num > 0 ? attr->klm_num : 1;
	ds = MLX5_UMR_CRYPTO_WQE_DS_N(nklm);
	bsf = klm + MLX5_UMR_CRYPTO_KLM_OCTOWORDS_N(nklm);
	memset(wqe, 0, (size_t)ds * 16);
	ctrl->opmod_idx_opcode = rte_cpu_to_be_32((uint32_t)attr->wqe_index <<
						  8 | MLX5_OPCODE_UMR);
	ctrl->qpn_ds = rte_cpu_to_be_32(attr->qpn << 8 | ds);
	ctrl->fm_ce_se = attr->signaled ? MLX5_WQE_CTRL_CQ_UPDATE : 0;
	ctrl->imm = rte_cpu_to_be_32(attr->mkey);
	/* The list and the BSF follow inline; no translation offset. */
	umr->flags = MLX5_WQE_UMR_CTRL_FLAG_INLINE;
	umr->klm_octowords =
		rte_cpu_to_be_16(MLX5_UMR_CRYPTO_KLM_OCTOWORDS_N(nklm));
	umr->bsf_octowords = rte_cpu_to_be_16(MLX5_CRYPTO_BSF_OCTOWORDS);
	umr->mkey_mask = rte_cpu_to_be_64(MLX5_WQE_UMR_CTRL_MKEY_MASK_LEN |
		MLX5_WQE_UMR_CTRL_MKEY_MASK_START_ADDR |
		MLX5_WQE_UMR_CTRL_MKEY_MASK_FREE |
		MLX5_WQE_UMR_CTRL_MKEY_MASK_BSF_ENABLE);
	/* free = 0 (zeroed): the key translates once configured. */
	mkc->flags_pd = rte_cpu_to_be_32(MLX5_UMR_MKEY_CTX_FLAGS_BSF_ENABLE);
	mkc->start_addr = rte_cpu_to_be_64(attr->iova);
	mkc->len = rte_cpu_to_be_64(attr->len);
	/* The entries, then zeros up to 4n: padding the device skips. */
	if (attr->klm_num == 0) {
		klm->byte_count = rte_cpu_to_be_32(attr->len);
		klm->mkey = rte_cpu_to_be_32(attr->lkey);
		klm->address = rte_cpu_to_be_64(attr->addr);
	}
	for (uint32_t i = 0; i < attr->klm_num; i++) {
		klm[i].byte_count = rte_cpu_to_be_32(attr->klm[i].byte_count);
		klm[i].mkey = rte_cpu_to_be_32(attr->klm[i].mkey);
		klm[i].address = rte_cpu_to_be_64(attr->klm[i].address);
	}
	MLX5_SET(crypto_bsf, bsf, bsf_size, MLX5_BSF_SIZE_64B);
	MLX5_SET(crypto_bsf, bsf, bsf_p_type, MLX5_BSF_P_TYPE_CRYPTO);
	MLX5_SET(crypto_bsf, bsf, encryption_order, attr->encryption_order);
	MLX5_SET(crypto_bsf, bsf, encryption_standard,
		 MLX5_ENCRYPTION_STANDARD_AES_XTS);
	MLX5_SET(crypto_bsf, bsf, raw_data_size, attr->len);
	MLX5_SET(crypto_bsf, bsf, crypto_block_size_pointer,
		 attr->block_size);
	memcpy(MLX5_ADDR_OF(crypto_bsf, bsf, xts_initial_tweak), attr->tweak,
	       MLX5_CRYPTO_XTS_TWEAK_LEN);
	MLX5_SET(crypto_bsf, bsf, dek_pointer, attr->dek_id);
	MLX5_SET64(crypto_bsf, bsf, keytag, attr->keytag);
	return (int)ds;
}

#endif /* MLX5_COMMON_UMR_H_ */
