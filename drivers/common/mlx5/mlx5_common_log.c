/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * The common library's log type, "pmd.common.mlx5" (DRV_LOG(),
 * mlx5_common_log.h). A leaf: every file of the library logs through it.
 */

#include "mlx5_common_log.h"

RTE_LOG_REGISTER_DEFAULT(mlx5_common_logtype, NOTICE)
