/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * The net PMD's log type, "pmd.net.mlx5" (DRV_LOG(), mlx5_net.h). A leaf:
 * every file of the PMD logs through it.
 */

#include "mlx5_net.h"

RTE_LOG_REGISTER_DEFAULT(mlx5_net_logtype, NOTICE)
