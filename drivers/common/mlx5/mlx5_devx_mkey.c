/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/* DEVX mkey commands: CREATE_MKEY (MTT, KLM, CROSSING) and QUERY_MKEY. */

#include <errno.h>
#include <stdlib.h>

#include <rte_errno.h>

#include "mlx5_malloc.h"
#include "mlx5_common.h"
#include "mlx5_common_log.h"
#include "mlx5_devx_cmds.h"

/* Upper bound of KLM entries one CREATE_MKEY carries inline. */
#define MLX5_DEVX_MKEY_MAX_KLM 4096

static int
mlx5_devx_mkey_attr_check(struct mlx5_common_device *cdev,
			  const struct mlx5_devx_mkey_attr *attr)
{
	if (attr->crypto_en &&
	    (attr->access_mode != MLX5_MKC_ACCESS_MODE_KLM ||
	     !cdev->caps.crypto.sup)) {
		DRV_LOG(ERR, "mkey: crypto_en needs %s",
			attr->access_mode != MLX5_MKC_ACCESS_MODE_KLM ?
			"an indirect (KLM) mkey" : "a device with crypto");
		return attr->access_mode != MLX5_MKC_ACCESS_MODE_KLM ?
		       -EINVAL : -ENOTSUP;
	}
	switch (attr->access_mode) {
	case MLX5_MKC_ACCESS_MODE_MTT:
		if (attr->size == 0) {
			DRV_LOG(ERR, "mkey: MTT mkey of zero length");
			return -EINVAL;
		}
		return 0;
	case MLX5_MKC_ACCESS_MODE_KLM:
		if (attr->klm_num > MLX5_DEVX_MKEY_MAX_KLM ||
		    (attr->klm_num != 0 && attr->klm_array == NULL)) {
			DRV_LOG(ERR, "mkey: bad KLM array (%u entries)",
				attr->klm_num);
			return -EINVAL;
		}
		return 0;
	case MLX5_MKC_ACCESS_MODE_CROSSING:
		if (!cdev->caps.crossing_vhca_mkey) {
			DRV_LOG(ERR, "mkey: device lacks the crossing_vhca_mkey capability");
			return -ENOTSUP;
		}
		return 0;
	default:
		DRV_LOG(ERR, "mkey: unsupported access mode %u",
			attr->access_mode);
		return -EINVAL;
	}
}

/* Fill the mkey context of CREATE_MKEY from @attr. */
static void
mlx5_devx_mkey_fill_mkc(void *mkc, const struct mlx5_devx_mkey_attr *attr,
			uint8_t variant)
{
	MLX5_SET(mkc, mkc, access_mode_1_0, attr->access_mode & 0x3);
	MLX5_SET(mkc, mkc, access_mode_4_2, attr->access_mode >> 2);
	MLX5_SET(mkc, mkc, free, attr->free);
	MLX5_SET(mkc, mkc, umr_en, attr->umr_en);
	MLX5_SET(mkc, mkc, crossed_side_mkey, attr->crossed_side_mkey);
	MLX5_SET(mkc, mkc, lr, attr->lr);
	MLX5_SET(mkc, mkc, lw, attr->lw);
	MLX5_SET(mkc, mkc, rr, attr->rr);
	MLX5_SET(mkc, mkc, rw, attr->rw);
	MLX5_SET(mkc, mkc, a, attr->atomic);
	MLX5_SET(mkc, mkc, qpn, MLX5_MKC_QPN_ANY);
	MLX5_SET(mkc, mkc, pd, attr->pd);
	MLX5_SET(mkc, mkc, mkey_7_0, variant);
	switch (attr->access_mode) {
	case MLX5_MKC_ACCESS_MODE_CROSSING:
		/*
		 * The device translates [0, iova + len) through the target;
		 * size 0 means the whole address space (length64).
		 */
		MLX5_SET64(mkc, mkc, start_addr, 0);
		if (attr->size == 0)
			MLX5_SET(mkc, mkc, length64, 1);
		else
			MLX5_SET64(mkc, mkc, len, attr->addr + attr->size);
		MLX5_SET(mkc, mkc, crossing_target_vhca_id,
			 attr->crossing_target_vhca_id);
		MLX5_SET(mkc, mkc, translations_octword_size,
			 attr->crossing_target_mkey);
		break;
	case MLX5_MKC_ACCESS_MODE_KLM:
		MLX5_SET64(mkc, mkc, start_addr, attr->addr);
		MLX5_SET64(mkc, mkc, len, attr->size);
		MLX5_SET(mkc, mkc, translations_octword_size,
			 RTE_ALIGN(attr->klm_num, 4));
		if (attr->crypto_en) {
			/* As the kernel and rdma-core make them: BSF room. */
			MLX5_SET(mkc, mkc, crypto_en, 1);
			MLX5_SET(mkc, mkc, bsf_en, 1);
			MLX5_SET(mkc, mkc, bsf_octword_size,
				 MLX5_CRYPTO_MKEY_BSF_OCTOWORDS);
		}
		break;
	default:
		MLX5_SET64(mkc, mkc, start_addr, attr->addr);
		MLX5_SET64(mkc, mkc, len, attr->size);
		MLX5_SET(mkc, mkc, log_page_size, attr->log_page_size);
		break;
	}
}

struct mlx5_devx_obj *
mlx5_devx_cmd_mkey_create(struct mlx5_common_device *cdev,
			  const struct mlx5_devx_mkey_attr *attr)
{
	uint32_t out[MLX5_ST_SZ_DW(create_mkey_out)] = { 0 };
	size_t inlen = MLX5_ST_SZ_BYTES(create_mkey_in);
	struct mlx5_devx_obj *mkey;
	uint8_t variant;
	void *in, *mkc;
	int ret;

	ret = mlx5_devx_mkey_attr_check(cdev, attr);
	if (ret) {
		rte_errno = -ret;
		return NULL;
	}
	if (attr->access_mode == MLX5_MKC_ACCESS_MODE_KLM)
		inlen += RTE_ALIGN(attr->klm_num, 4) * MLX5_ST_SZ_BYTES(klm);
	in = mlx5_malloc(cdev, MLX5_MEM_ZERO | MLX5_MEM_SYS, inlen, 0,
			 SOCKET_ID_ANY);
	if (in == NULL) {
		DRV_LOG(ERR, "mkey: out of memory");
		rte_errno = ENOMEM;
		return NULL;
	}
	MLX5_SET(create_mkey_in, in, opcode, MLX5_CMD_OP_CREATE_MKEY);
	mkc = MLX5_ADDR_OF(create_mkey_in, in, memory_key_mkey_entry);
	variant = (uint8_t)__atomic_fetch_add(&cdev->mkey_variant, 1,
					      __ATOMIC_RELAXED);
	mlx5_devx_mkey_fill_mkc(mkc, attr, variant);
	if (attr->access_mode == MLX5_MKC_ACCESS_MODE_MTT) {
		MLX5_SET(create_mkey_in, in, mkey_umem_valid, 1);
		MLX5_SET(create_mkey_in, in, mkey_umem_id, attr->umem_id);
		MLX5_SET64(create_mkey_in, in, mkey_umem_offset,
			   attr->umem_offset);
		MLX5_SET(create_mkey_in, in, pg_access, 1);
	} else if (attr->access_mode == MLX5_MKC_ACCESS_MODE_KLM) {
		uint8_t *klm = MLX5_ADDR_OF(create_mkey_in, in, klm_pas_mtt);

		for (uint32_t i = 0; i < attr->klm_num; i++) {
			MLX5_SET(klm, klm, byte_count,
				 attr->klm_array[i].byte_count);
			MLX5_SET(klm, klm, mkey, attr->klm_array[i].mkey);
			MLX5_SET64(klm, klm, address,
				   attr->klm_array[i].address);
			klm += MLX5_ST_SZ_BYTES(klm);
		}
		MLX5_SET(create_mkey_in, in, translations_octword_actual_size,
			 attr->klm_num);
	}
	/* The input grows with the translation entries: sized by hand. */
	mkey = mlx5_devx_obj_create(cdev, "CREATE_MKEY", in, inlen, out,
				    sizeof(out));
	mlx5_free(in);
	if (mkey == NULL)
		return NULL;
	/* The key is the index the device chose and the variant we gave. */
	mkey->id = MLX5_GET(create_mkey_out, out, mkey_index) << 8 | variant;
	mkey->type = 0;
	return mkey;
}

int
mlx5_devx_cmd_mkey_query(struct mlx5_devx_obj *mkey,
			 struct mlx5_devx_mkey_info *info)
{
	uint32_t in[MLX5_ST_SZ_DW(query_mkey_in)] = { 0 };
	uint32_t out[MLX5_ST_SZ_DW(query_mkey_out)] = { 0 };
	const void *mkc;
	int ret;

	MLX5_SET(query_mkey_in, in, opcode, MLX5_CMD_OP_QUERY_MKEY);
	MLX5_SET(query_mkey_in, in, mkey_index, MLX5_MKEY_INDEX(mkey->id));
	ret = MLX5_DEVX_OBJ_QUERY(mkey, query_mkey, in, out);
	if (ret != 0)
		return ret;
	mkc = MLX5_ADDR_OF(query_mkey_out, out, memory_key_mkey_entry);
	info->access_mode = MLX5_GET(mkc, mkc, access_mode_1_0) |
			    (MLX5_GET(mkc, mkc, access_mode_4_2) << 2);
	info->free = MLX5_GET(mkc, mkc, free);
	info->lr = MLX5_GET(mkc, mkc, lr);
	info->lw = MLX5_GET(mkc, mkc, lw);
	info->rr = MLX5_GET(mkc, mkc, rr);
	info->rw = MLX5_GET(mkc, mkc, rw);
	info->atomic = MLX5_GET(mkc, mkc, a);
	info->pd = MLX5_GET(mkc, mkc, pd);
	info->qpn = MLX5_GET(mkc, mkc, qpn);
	info->start_addr = MLX5_GET64(mkc, mkc, start_addr);
	info->len = MLX5_GET64(mkc, mkc, len);
	info->crossing_target_vhca_id = MLX5_GET(mkc, mkc,
						 crossing_target_vhca_id);
	info->translations_octword_size = MLX5_GET(mkc, mkc,
						   translations_octword_size);
	return 0;
}
