/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/* The driver's allocator (mlx5_malloc.h): DPDK's heap or the system's. */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_errno.h>
#include <rte_malloc.h>
#include <rte_memory.h>

#include "mlx5_common.h"
#include "mlx5_malloc.h"

/*
 * ThreadSanitizer sees no synchronisation inside DPDK's (uninstrumented)
 * heap: an element freed by one thread and handed to another looks like a
 * race in the driver. A TSan build therefore takes system memory, whose
 * allocator TSan understands.
 */
#if defined(__SANITIZE_THREAD__)
#define MLX5_MALLOC_SYS_ONLY 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define MLX5_MALLOC_SYS_ONLY 1
#endif
#endif

static bool
mlx5_malloc_sys(const struct mlx5_common_device *cdev, uint32_t flags)
{
#ifdef MLX5_MALLOC_SYS_ONLY
	RTE_SET_USED(cdev);
	RTE_SET_USED(flags);
	return true;
#endif
	if (flags & MLX5_MEM_SYS)
		return true;
	if (flags & MLX5_MEM_RTE)
		return false;
	return cdev != NULL && cdev->config.sys_mem_en;
}

void *
mlx5_malloc(const struct mlx5_common_device *cdev, uint32_t flags,
	    size_t size, size_t align, int socket)
{
	void *addr;

	if ((flags & MLX5_MEM_SYS) && (flags & MLX5_MEM_RTE)) {
		rte_errno = EINVAL;
		return NULL;
	}
	if (align != 0 && !rte_is_power_of_2(align)) {
		rte_errno = EINVAL;
		return NULL;
	}
	if (!mlx5_malloc_sys(cdev, flags)) {
		addr = (flags & MLX5_MEM_ZERO) ?
		       rte_zmalloc_socket(NULL, size, align, socket) :
		       rte_malloc_socket(NULL, size, align, socket);
		if (addr == NULL)
			rte_errno = ENOMEM;
		return addr;
	}
	if (align <= sizeof(void *) * 2) {
		addr = (flags & MLX5_MEM_ZERO) ? calloc(1, size) :
						 malloc(size);
	} else {
		if (posix_memalign(&addr, align, size) != 0)
			addr = NULL;
		if (addr != NULL && (flags & MLX5_MEM_ZERO))
			memset(addr, 0, size);
	}
	if (addr == NULL)
		rte_errno = ENOMEM;
	return addr;
}

void
mlx5_free(void *addr)
{
	if (addr == NULL)
		return;
	/* DPDK's heap lives in its memseg lists; anything else is malloc's. */
	if (rte_mem_virt2memseg_list(addr) != NULL)
		rte_free(addr);
	else
		free(addr);
}
