/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

#ifndef MLX5_COMMON_LOG_H_
#define MLX5_COMMON_LOG_H_

#include <rte_log.h>

/* Log type "pmd.common.mlx5" (mlx5_common_log.c). */
extern int mlx5_common_logtype;

/*
 * The log macro of each driver of the project is DRV_LOG(level, fmt, ...),
 * as in DPDK's mlx5 drivers: one line, "<driver>: " before it, on the
 * driver's own log type. This is the common library's.
 */
#define DRV_LOG(level, fmt, ...) \
	rte_log(RTE_LOG_ ## level, mlx5_common_logtype, \
		"mlx5_common: " fmt "\n", ## __VA_ARGS__)

#endif /* MLX5_COMMON_LOG_H_ */
