/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * One allocator for the driver. Memory comes from DPDK's heap (hugepage
 * memory, NUMA-aware, reachable from secondary processes) unless the device
 * was probed with sys_mem_en=1, which asks for the system allocator; a
 * flag can force either. mlx5_free() finds out which heap an address came
 * from, so the caller need not remember.
 */

#ifndef MLX5_MALLOC_H_
#define MLX5_MALLOC_H_

#include <stddef.h>
#include <stdint.h>

#include <rte_bitops.h>
#include <rte_compat.h>
#include <rte_memory.h>

struct mlx5_common_device;

/** Zero the memory. */
#define MLX5_MEM_ZERO RTE_BIT32(0)
/** System memory whatever the device's setting (e.g. a short-lived buffer). */
#define MLX5_MEM_SYS RTE_BIT32(1)
/** DPDK memory whatever the device's setting. */
#define MLX5_MEM_RTE RTE_BIT32(2)

/**
 * Allocate @p size bytes aligned on @p align (0: the allocator's default;
 * otherwise a power of two) for device @p cdev (NULL: no device setting
 * applies, DPDK memory), on NUMA socket @p socket (SOCKET_ID_ANY: any;
 * honoured by DPDK memory only).
 *
 * @return
 *   The memory, or NULL with rte_errno set to ENOMEM (or EINVAL for a bad
 *   alignment or both MLX5_MEM_SYS and MLX5_MEM_RTE).
 */
__rte_internal
void *mlx5_malloc(const struct mlx5_common_device *cdev, uint32_t flags,
		  size_t size, size_t align, int socket);

/** Free memory of mlx5_malloc() (either heap); NULL is a no-op. */
__rte_internal
void mlx5_free(void *addr);

#endif /* MLX5_MALLOC_H_ */
