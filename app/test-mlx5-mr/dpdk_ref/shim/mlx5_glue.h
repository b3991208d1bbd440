/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * Shim for compiling DPDK 22.11's mlx5_common_mr.c outside DPDK's tree
 * (devtools/run-mr-bench.sh): its MR code needs no verbs type.
 */

#ifndef DPDK_REF_SHIM_MLX5_GLUE_H_
#define DPDK_REF_SHIM_MLX5_GLUE_H_

#include <stdint.h>

struct mlx5_devx_obj;

#endif
