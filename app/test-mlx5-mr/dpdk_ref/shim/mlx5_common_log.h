/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/* Shim: DRV_LOG as DPDK's mlx5 drivers define it (a call to rte_log()
 * whatever the level, the level checked inside). */

#ifndef DPDK_REF_SHIM_MLX5_COMMON_LOG_H_
#define DPDK_REF_SHIM_MLX5_COMMON_LOG_H_

#include <rte_log.h>

extern int dpdk_ref_logtype;

#define DRV_LOG(level, ...) \
	rte_log(RTE_LOG_ ## level, dpdk_ref_logtype, \
		RTE_FMT("mlx5_common: " RTE_FMT_HEAD(__VA_ARGS__,) "\n", \
			RTE_FMT_TAIL(__VA_ARGS__,)))

#endif
