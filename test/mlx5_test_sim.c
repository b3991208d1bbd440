/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

#include <string.h>

#include <rte_bus.h>
#include <rte_bus_vdev.h>
#include <bus_driver.h>
#include <dev_driver.h>

#include "mlx5_test_sim.h"

int
sim_probe(const char *name, const char *args)
{
	return rte_vdev_init(name, args);
}

int
sim_remove(const char *name)
{
	return rte_vdev_uninit(name);
}

static int
sim_cmp_name(const struct rte_device *dev, const void *name)
{
	return strcmp(dev->name, name);
}

struct rte_device *
sim_eal_dev(const char *name)
{
	struct rte_bus *bus = rte_bus_find_by_name("vdev");

	if (bus == NULL)
		return NULL;
	return bus->find_device(NULL, sim_cmp_name, name);
}

struct mlx5_common_device *
sim_cdev(const char *name)
{
	struct rte_device *dev = sim_eal_dev(name);

	return dev != NULL ? mlx5_common_dev_get(dev) : NULL;
}

long
sim_live(uint16_t card, uint16_t vhca_id)
{
	struct mlx5_sim_stats st;

	if (mlx5_sim_vhca_stats(card, vhca_id, &st) != 0)
		return -1;
	return (long)st.live_objects + st.contexts;
}

long
sim_reclaimed(uint16_t card, uint16_t vhca_id)
{
	struct mlx5_sim_stats st;

	if (mlx5_sim_vhca_stats(card, vhca_id, &st) != 0)
		return -1;
	return (long)st.reclaimed;
}
