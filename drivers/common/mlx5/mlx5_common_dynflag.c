/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * The dynamic mbuf flags of the public API (rte_pmd_mlx5.h): their
 * registration at the first probe, the private-IOVA flag's mask (cached:
 * a dynamic flag's bit never changes) and its out-of-line setter. A leaf:
 * the MR cache reads the mask, the probe registers the flags.
 */

#include <errno.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_mbuf_dyn.h>
#include <rte_string_fns.h>

#include "mlx5_common_log.h"
#include "mlx5_common_private.h"
/* The setter as an exported function here, inline for applications. */
#define RTE_PMD_MLX5_OUT_OF_LINE
#include "rte_pmd_mlx5.h"

/* The flag's mask once registered (a dynamic flag's bit never changes). */
static uint64_t mlx5_private_iova_mask;

/*
 * The flags the drivers honour: net/mlx5 takes a private-IOVA mbuf's key
 * as is. Fine-granularity inlining is not done, so it is not listed.
 */
static const char *const mlx5_dyn_flag_names[] = {
	RTE_PMD_MLX5_PRIVATE_IOVA,
};

int
mlx5_dynflags_register(void)
{
	static const struct rte_mbuf_dynflag desc = {
		.name = RTE_PMD_MLX5_PRIVATE_IOVA,
	};
	int ret;

	ret = rte_mbuf_dynflag_register(&desc);
	if (ret < 0) {
		DRV_LOG(ERR, "cannot register dynamic mbuf flag %s: %s",
			desc.name, rte_strerror(rte_errno));
		return -rte_errno;
	}
	/* A flag's bit never changes once registered: cache its mask. */
	__atomic_store_n(&mlx5_private_iova_mask, RTE_BIT64(ret),
			 __ATOMIC_RELAXED);
	return 0;
}

int
rte_pmd_common_mlx5_get_dyn_flag_names(char *names[], unsigned int n)
{
	unsigned int count = RTE_DIM(mlx5_dyn_flag_names);

	if (names == NULL)
		return -EINVAL;
	if (n < count)
		return -ENOMEM;
	for (unsigned int i = 0; i < count; i++)
		if (names[i] == NULL)
			return -EINVAL;
	for (unsigned int i = 0; i < count; i++)
		strlcpy(names[i], mlx5_dyn_flag_names[i],
			RTE_MBUF_DYN_NAMESIZE);
	return count;
}

uint64_t
rte_pmd_mlx5_private_iova_flag(void)
{
	uint64_t mask =
		__atomic_load_n(&mlx5_private_iova_mask, __ATOMIC_RELAXED);
	int bit;

	if (mask != 0)
		return mask;
	/* Registered by another process (a secondary), or not at all. */
	bit = rte_mbuf_dynflag_lookup(RTE_PMD_MLX5_PRIVATE_IOVA, NULL);
	if (bit < 0)
		return 0;
	mask = RTE_BIT64(bit);
	__atomic_store_n(&mlx5_private_iova_mask, mask, __ATOMIC_RELAXED);
	return mask;
}

int
rte_pmd_mlx5_mbuf_set_private_iova(struct rte_mbuf *m, rte_iova_t iova)
{
	uint64_t flag = rte_pmd_mlx5_private_iova_flag();

	if (flag == 0)
		return -ENOENT;
	m->buf_iova = iova;
	m->ol_flags |= flag;
	return 0;
}
