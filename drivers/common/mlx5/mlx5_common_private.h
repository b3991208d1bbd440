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

/* Release every public-API key the device still holds (at remove). */
void mlx5_vhca_keys_release_all(struct mlx5_common_device *cdev);

/* Register the dynamic mbuf flags (idempotent): 0 or a negative errno. */
int mlx5_dynflags_register(void);

/*
 * Check a caller's memory range: non-NULL, non-empty, not wrapping.
 * 0, or -EINVAL with rte_errno set and a log line naming @fn and the fault.
 */
int mlx5_range_check(const char *fn, const void *addr, size_t len);

#endif /* MLX5_COMMON_PRIVATE_H_ */
