/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * The adapter between the common layer and the device model: the backend
 * operations table of the software device, filled with the model's
 * rdma-core-shaped functions (mlx5_sim_vdev.c). Only the adapter (and
 * tests that drive the backend directly) include this.
 */

#ifndef MLX5_SIM_ADAPTER_H_
#define MLX5_SIM_ADAPTER_H_

#include "mlx5_glue.h"
#include "mlx5_sim_priv.h"

/* The software device's backend operations table. */
extern const struct mlx5_glue mlx5_sim_glue;

#endif /* MLX5_SIM_ADAPTER_H_ */
