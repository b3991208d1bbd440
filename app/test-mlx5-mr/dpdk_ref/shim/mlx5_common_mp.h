/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/* Shim: the benchmark runs one primary process; no secondary requests. */

#ifndef DPDK_REF_SHIM_MLX5_COMMON_MP_H_
#define DPDK_REF_SHIM_MLX5_COMMON_MP_H_

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>

#include <rte_common.h>
#include <rte_mempool.h>

struct mlx5_common_device;

static inline int
mlx5_mp_req_mr_create(struct mlx5_common_device *cdev, uintptr_t addr)
{
	RTE_SET_USED(cdev);
	RTE_SET_USED(addr);
	return -ENOTSUP;
}

static inline int
mlx5_mp_req_mempool_reg(struct mlx5_common_device *cdev,
			struct rte_mempool *mp, bool reg, bool is_extmem)
{
	RTE_SET_USED(cdev);
	RTE_SET_USED(mp);
	RTE_SET_USED(reg);
	RTE_SET_USED(is_extmem);
	return -ENOTSUP;
}

#endif
