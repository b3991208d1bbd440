/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * Shim: the part of DPDK 22.11's struct mlx5_common_device that its MR
 * code reads (the PD, the shared MR cache, two devargs, the EAL device).
 */

#ifndef DPDK_REF_SHIM_MLX5_COMMON_H_
#define DPDK_REF_SHIM_MLX5_COMMON_H_

#include <stdbool.h>
#include <stdint.h>

#include <rte_common.h>
#include <rte_debug.h>
#include <dev_driver.h>

#define MLX5_ASSERT(exp) RTE_ASSERT(exp)

struct mlx5_common_device;

#include "mlx5_common_mr.h"

struct mlx5_common_dev_config {
	unsigned int mr_ext_memseg_en:1;
	unsigned int mr_mempool_reg_en:1;
};

struct mlx5_common_device {
	struct rte_device *dev;
	void *pd;
	struct mlx5_mr_share_cache mr_scache;
	struct mlx5_common_dev_config config;
};

#endif
