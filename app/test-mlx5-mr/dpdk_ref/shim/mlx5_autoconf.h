/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/* Shim: no rdma-core feature macro matters to the MR code. */

#ifndef DPDK_REF_SHIM_MLX5_AUTOCONF_H_
#define DPDK_REF_SHIM_MLX5_AUTOCONF_H_
#endif
