/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/* Internal to the common library (not exported). */

#ifndef MLX5_COMMON_PRIVATE_H_
#define MLX5_COMMON_PRIVATE_H_

#include "mlx5_common.h"

/* Common devarg keys. */
#define MLX5_ARG_CLASS "class"
#define MLX5_ARG_CMD_FD "cmd_fd"
#define MLX5_ARG_PD_HANDLE "pd_handle"
#define MLX5_ARG_MR_EXT_MEMSEG_EN "mr_ext_memseg_en"
#define MLX5_ARG_MR_MEMPOOL_REG_EN "mr_mempool_reg_en"
#define MLX5_ARG_SYS_MEM_EN "sys_mem_en"
#define MLX5_ARG_MR_WHOLE_MEM_EN "mr_whole_mem_en"

/* Parse the common keys into @cfg (defaults for absent keys). */
int mlx5_common_config_parse(struct mlx5_kvargs_ctrl *kv,
			     struct mlx5_common_dev_config *cfg);

/* Fail with a message naming the first key no layer used. */
int mlx5_kvargs_check_unused(const char *dev_name,
			     struct mlx5_kvargs_ctrl *kv);

/* "eth", "crypto", ... */
const char *mlx5_class_name(enum mlx5_class cls);

/* Free every pacing entry the device still holds (at remove). */
void mlx5_pp_release_all(struct mlx5_common_device *cdev);

/*
 * Keys of the public API (mlx5_common_keys.c). Each returns 0 and the key
 * in *mkey, or a negative errno with rte_errno set and a log line; the
 * caller has checked arguments and capabilities.
 */
/* Register [va, va + len) and allow other vHCAs with @access_key. */
int mlx5_keys_export(struct mlx5_common_device *cdev, void *va, size_t len,
		     const uint8_t access_key[MLX5_ACCESS_KEY_LEN],
		     uint32_t *mkey);
/* A registration covering [va, va + len), for private-IOVA mbufs. */
int mlx5_keys_private(struct mlx5_common_device *cdev, void *va, size_t len,
		      uint32_t *mkey);
/* A new crossing mkey to another vHCA's mkey. */
int mlx5_keys_crossing(struct mlx5_common_device *cdev,
		       uint16_t remote_vhca_id, uint32_t remote_mkey,
		       uint32_t *mkey);
/* A new alias of another vHCA's mkey, opened with @access_key. */
int mlx5_keys_alias(struct mlx5_common_device *cdev, uint16_t remote_vhca_id,
		    uint32_t remote_mkey,
		    const uint8_t access_key[MLX5_ACCESS_KEY_LEN],
		    uint32_t *mkey);
/* Drop one reference to key @mkey (-ENOENT if it is not live). */
int mlx5_keys_release(struct mlx5_common_device *cdev, uint32_t mkey);
/* Release every key the device still holds (at remove). */
void mlx5_keys_release_all(struct mlx5_common_device *cdev);

/* Register the dynamic mbuf flags (idempotent): 0 or a negative errno. */
int mlx5_dynflags_register(void);

/*
 * Check a caller's memory range: non-NULL, non-empty, not wrapping.
 * 0, or -EINVAL with rte_errno set and a log line naming @fn and the fault.
 */
int mlx5_range_check(const char *fn, const void *addr, size_t len);

#endif /* MLX5_COMMON_PRIVATE_H_ */
