/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * The application test/telemetry_tool.sh reads with dpdk-telemetry.py:
 * two vHCAs of one software card (given with --vdev), the first exports a
 * buffer, the second imports it (crossing mkey and keyed alias), the first
 * holds a pacing entry. Prints "ready <vhca0> <vhca1> <export mkey>
 * <crossing mkey> <alias mkey> <pp index>" and keeps everything until
 * stdin ends (or reads "quit"), then releases it all and exits.
 *
 *   telemetry_app <EAL args> --vdev=mlx5_sim0,... --vdev=mlx5_sim1,...
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_bus.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <bus_driver.h>

#include <mlx5_common.h>
#include <mlx5_common_pp.h>
#include <rte_pmd_mlx5.h>

static int
cmp_name(const struct rte_device *dev, const void *name)
{
	return strcmp(dev->name, name);
}

static struct rte_device *
find(const char *name)
{
	struct rte_bus *bus = rte_bus_find_by_name("vdev");

	return bus != NULL ? bus->find_device(NULL, cmp_name, name) : NULL;
}

int
main(int argc, char **argv)
{
	static const uint8_t key[RTE_PMD_MLX5_ACCESS_KEY_LEN] =
		"telemetry_app's access key.....";
	struct mlx5_pp_attr pp_attr = { .dedicated = true };
	struct mlx5_pp_entry *pp = NULL;
	struct rte_device *dev0, *dev1;
	struct mlx5_common_device *cdev0;
	rte_iova_t cross = 0, alias = 0;
	uint16_t vhca0 = 0, vhca1 = 0;
	uint32_t mkey = 0;
	char line[64];
	void *buf;
	int rc = 1;

	if (rte_eal_init(argc, argv) < 0) {
		fprintf(stderr, "EAL init failed: %s\n",
			rte_strerror(rte_errno));
		return 1;
	}
	dev0 = find("mlx5_sim0");
	dev1 = find("mlx5_sim1");
	cdev0 = dev0 != NULL ? mlx5_common_dev_get(dev0) : NULL;
	buf = aligned_alloc(4096, 16384);
	if (cdev0 == NULL || dev1 == NULL || buf == NULL) {
		fprintf(stderr,
			"need --vdev=mlx5_sim0,... --vdev=mlx5_sim1,...\n");
		goto out;
	}
	memset(buf, 0, 16384);
	if (rte_pmd_mlx5_get_vhca_id(dev1, &vhca1) != 0 ||
	    rte_pmd_mlx5_export_mem(dev0, buf, 16384, key, &vhca0, &mkey) !=
		    0) {
		fprintf(stderr, "export failed: %s\n", rte_strerror(rte_errno));
		goto out;
	}
	cross = rte_pmd_mlx5_create_cross_vhca_mkey(dev1, vhca0, mkey);
	alias = rte_pmd_mlx5_import_mem(dev1, vhca0, mkey, key);
	pp_attr.rate_kbps = cdev0->caps.qos.min_rate_kbps;
	if (cross == 0 || alias == 0 ||
	    mlx5_pp_alloc(cdev0, &pp_attr, &pp) != 0) {
		fprintf(stderr, "import or pacing failed: %s\n",
			rte_strerror(rte_errno));
		goto out;
	}
	printf("ready %u %u %u %u %u %u\n", vhca0, vhca1, mkey,
	       rte_pmd_mlx5_iova_to_mkey(cross),
	       rte_pmd_mlx5_iova_to_mkey(alias), pp->index);
	fflush(stdout);
	while (fgets(line, sizeof(line), stdin) != NULL &&
	       strncmp(line, "quit", 4) != 0)
		;
	rc = 0;
out:
	if (pp != NULL)
		mlx5_pp_free(cdev0, pp);
	if (alias != 0)
		rte_pmd_mlx5_release_key(dev1, alias);
	if (cross != 0)
		rte_pmd_mlx5_release_key(dev1, cross);
	if (mkey != 0)
		rte_pmd_mlx5_release_key(dev0, mkey);
	free(buf);
	rte_eal_cleanup();
	return rc;
}
