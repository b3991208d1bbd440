/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/* Shim: EAL's internal paging header is not installed; librte_eal
 * exports the one function the MR code uses. */

#ifndef DPDK_REF_SHIM_RTE_EAL_PAGING_H_
#define DPDK_REF_SHIM_RTE_EAL_PAGING_H_

#include <stddef.h>

size_t rte_mem_page_size(void);

#endif
