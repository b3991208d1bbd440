/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/* Helpers of the MR cache suites (test_mr.c, test_mr_events.c). */

#ifndef MLX5_TEST_MR_H_
#define MLX5_TEST_MR_H_

#include <string.h>

#include <mlx5_common_mr.h>

/* What a device's MR cache holds; all ones if it cannot be read. */
static inline struct mlx5_mr_stats
mr_stats(struct mlx5_common_device *d)
{
	struct mlx5_mr_stats st;

	memset(&st, 0xff, sizeof(st));
	mlx5_mr_stats(d, &st);
	return st;
}

#endif /* MLX5_TEST_MR_H_ */
