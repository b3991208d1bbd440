/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * Shim: DPDK's mlx5_malloc() flags and calls, served by the C library's
 * allocator whatever the flags (DPDK would use rte_malloc() for
 * MLX5_MEM_RTE, which costs more: the comparison errs in DPDK's favour).
 */

#ifndef DPDK_REF_SHIM_MLX5_MALLOC_H_
#define DPDK_REF_SHIM_MLX5_MALLOC_H_

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>

enum mlx5_mem_flags {
	MLX5_MEM_ANY = 0,
	MLX5_MEM_SYS = RTE_BIT32(0),
	MLX5_MEM_RTE = RTE_BIT32(1),
	MLX5_MEM_ZERO = RTE_BIT32(2),
};

static inline void *
mlx5_malloc(uint32_t flags, size_t size, unsigned int align, int socket)
{
	void *p;

	RTE_SET_USED(socket);
	if (align > sizeof(void *))
		p = aligned_alloc(align, RTE_ALIGN_CEIL(size, align));
	else
		p = malloc(size);
	if (p != NULL && (flags & MLX5_MEM_ZERO))
		memset(p, 0, size);
	return p;
}

static inline void *
mlx5_realloc(void *addr, uint32_t flags, size_t size, unsigned int align,
	     int socket)
{
	RTE_SET_USED(flags);
	RTE_SET_USED(align);
	RTE_SET_USED(socket);
	return realloc(addr, size);
}

static inline void
mlx5_free(void *addr)
{
	free(addr);
}

#endif
