/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/* Shim (see mlx5_glue.h here): nothing of the OS layer is needed. */

#ifndef DPDK_REF_SHIM_MLX5_COMMON_OS_H_
#define DPDK_REF_SHIM_MLX5_COMMON_OS_H_
#endif
