/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * The crypto PMD's log type, "pmd.crypto.mlx5" (DRV_LOG(), mlx5_crypto.h).
 * A leaf: both files of the PMD log through it.
 */

#include "mlx5_crypto.h"

RTE_LOG_REGISTER_DEFAULT(mlx5_crypto_logtype, NOTICE)
