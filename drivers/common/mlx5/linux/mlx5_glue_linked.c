/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * -Dibverbs_link=shared: the glue table is linked into the common library
 * together with libibverbs and libmlx5, so it is always available.
 * (mlx5_glue_dlopen.c is the -Dibverbs_link=dlopen counterpart.)
 */

#include "mlx5_os_glue.h"

/**
 * Get the rdma-core operations table (linked in).
 *
 * @return
 *   The table; never NULL.
 */
const struct mlx5_glue *
mlx5_os_glue(void)
{
	return &mlx5_ibv_glue;
}
