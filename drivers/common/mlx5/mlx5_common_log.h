/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

#ifndef MLX5_COMMON_LOG_H_
#define MLX5_COMMON_LOG_H_

#include <rte_log.h>

/* Log type "pmd.common.mlx5". */
extern int mlx5_common_logtype;

#define MLX5_LOG(level, fmt, ...) \
	rte_log(RTE_LOG_ ## level, mlx5_common_logtype, \
		"mlx5_common: " fmt "\n", ## __VA_ARGS__)

#define DRV_LOG(level, ...) MLX5_LOG(level, __VA_ARGS__)

#endif /* MLX5_COMMON_LOG_H_ */
