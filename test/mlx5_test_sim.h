/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/* Helpers for tests on the software device. */

#ifndef MLX5_TEST_SIM_H_
#define MLX5_TEST_SIM_H_

#include <stdint.h>

#include <mlx5_common.h>
#include <mlx5_sim.h>

/* Probe vdev @name with devargs @args (may be NULL): 0 or negative errno. */
int sim_probe(const char *name, const char *args);
/* Remove vdev @name: 0 or negative errno. */
int sim_remove(const char *name);
/* The EAL device of a probed vdev, or NULL. */
struct rte_device *sim_eal_dev(const char *name);
/* The common device of a probed vdev, or NULL. */
struct mlx5_common_device *sim_cdev(const char *name);
/* Everything alive in a vHCA: objects + contexts; -1 for an unknown vHCA. */
long sim_live(uint16_t card, uint16_t vhca_id);
/* Objects reclaimed at context close (leaks); -1 for an unknown vHCA. */
long sim_reclaimed(uint16_t card, uint16_t vhca_id);

#endif /* MLX5_TEST_SIM_H_ */
