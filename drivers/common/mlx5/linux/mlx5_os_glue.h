/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * The rdma-core backend's operations table and how the common library gets
 * it. With -Dibverbs_link=shared the table is linked into the common
 * library; with -Dibverbs_link=dlopen it lives in a separate glue module
 * that is loaded on first use (see mlx5_glue_dlopen.c). Either way the rest
 * of the backend asks mlx5_os_glue() and never names the table directly.
 */

#ifndef MLX5_OS_GLUE_H_
#define MLX5_OS_GLUE_H_

#include "mlx5_glue.h"

/*
 * Build identity of the glue table, set by linux/meson.build for both the
 * glue and the loader: the project version and a hash of mlx5_glue.h, so a
 * module built from another version of the contract is refused.
 */
#ifndef MLX5_GLUE_VERSION
#error "MLX5_GLUE_VERSION must be defined by drivers/common/mlx5/linux/meson.build"
#endif

/* Names of the two symbols the glue module exports (see mlx5_glue.map). */
#define MLX5_GLUE_SYMBOL "mlx5_ibv_glue"
#define MLX5_GLUE_VERSION_SYMBOL "mlx5_ibv_glue_version"

/* The operations table over libibverbs/libmlx5 (mlx5_glue_ibv.c). */
extern const struct mlx5_glue mlx5_ibv_glue;

/* MLX5_GLUE_VERSION as compiled into the glue (mlx5_glue_ibv.c). */
extern const char mlx5_ibv_glue_version[];

/**
 * Get the rdma-core operations table.
 *
 * In dlopen mode the first call loads the glue module (thread-safe, once per
 * process) and logs once at INFO level if it cannot be loaded.
 *
 * @return
 *   The table, or NULL when the rdma-core backend is unavailable (glue
 *   module missing, unloadable or of another build). Never fails in shared
 *   mode.
 */
const struct mlx5_glue *mlx5_os_glue(void);

#endif /* MLX5_OS_GLUE_H_ */
