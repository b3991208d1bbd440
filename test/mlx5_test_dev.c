/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_bus.h>
#include <rte_bus_vdev.h>
#include <rte_dev.h>
#include <rte_pci.h>
#include <bus_driver.h>
#include <dev_driver.h>

#include <mlx5_common_devx.h>
#include <mlx5_sim.h>

#include "mlx5_test_dev.h"

struct tdev_slot {
	char hw_addr[80];       /* Devargs form of a real device, or "". */
	char name[64];          /* Device name as its bus knows it. */
	bool emulated;          /* A software device taken for a real one. */
	bool probed;
	/* As probed: looked up once, not on every access. */
	struct mlx5_common_device *cdev;
	bool counted;           /* card/vhca below are valid. */
	uint16_t card;
	uint16_t vhca;
};

static struct tdev_slot slots[TDEV_SLOTS];

/*
 * Turn the value of MLX5_TEST_DEVICE* into a devargs device name: a PCI
 * address or "auxiliary:<name>" as given, or an RDMA device name resolved
 * through /sys/class/infiniband/<name>/device.
 */
static int
tdev_resolve(const char *var, const char *val, struct tdev_slot *s)
{
	struct rte_pci_addr pci;
	char path[PATH_MAX], real[PATH_MAX];
	const char *base;

	if (strncmp(val, "auxiliary:", 10) == 0) {
		if (strlen(val + 10) >= sizeof(s->name))
			goto bad;
		snprintf(s->hw_addr, sizeof(s->hw_addr), "auxiliary:%.63s",
			 val + 10);
		snprintf(s->name, sizeof(s->name), "%.63s", val + 10);
		return 0;
	}
	if (rte_pci_addr_parse(val, &pci) == 0) {
		rte_pci_device_name(&pci, s->name, sizeof(s->name));
		snprintf(s->hw_addr, sizeof(s->hw_addr), "%s", s->name);
		return 0;
	}
	if (strchr(val, '/') != NULL || val[0] == '.' || strlen(val) > 64)
		goto bad;
	snprintf(path, sizeof(path), "/sys/class/infiniband/%s/device", val);
	if (realpath(path, real) == NULL) {
		printf("%s=%s: no such RDMA device (%s: %s)\n", var, val, path,
		       strerror(errno));
		return -ENODEV;
	}
	base = strrchr(real, '/');
	base = base != NULL ? base + 1 : real;
	if (rte_pci_addr_parse(base, &pci) == 0) {
		rte_pci_device_name(&pci, s->name, sizeof(s->name));
		snprintf(s->hw_addr, sizeof(s->hw_addr), "%s", s->name);
	} else {
		if (strlen(base) >= sizeof(s->name))
			goto bad;
		snprintf(s->name, sizeof(s->name), "%.63s", base);
		snprintf(s->hw_addr, sizeof(s->hw_addr), "auxiliary:%.63s",
			 base);
	}
	printf("%s=%s: device %s\n", var, val, s->hw_addr);
	return 0;
bad:
	printf("%s=%s: not a PCI address, auxiliary:<name> or RDMA device name\n",
	       var, val);
	return -EINVAL;
}

int
tdev_env_init(void)
{
	static const char *const vars[] = {
		"MLX5_TEST_DEVICE", "MLX5_TEST_DEVICE2",
	};

	for (unsigned int i = 0; i < TDEV_SLOTS; i++) {
		memset(&slots[i], 0, sizeof(slots[i]));
		snprintf(slots[i].name, sizeof(slots[i].name), "mlx5_sim%u", i);
	}
	for (unsigned int i = 0; i < RTE_DIM(vars); i++) {
		const char *val = getenv(vars[i]);
		int ret;

		if (val == NULL || val[0] == '\0')
			continue;
		if (i == 1 && (slots[0].hw_addr[0] == '\0' ||
			       slots[0].emulated)) {
			printf("%s without MLX5_TEST_DEVICE naming a device\n",
			       vars[i]);
			return -EINVAL;
		}
		/*
		 * "emulate": slots 0 and 1 are software devices (vHCAs 1 and 2
		 * of card 240) handled as real ones: the harness's paths for
		 * real devices, run where there is none.
		 */
		if (i == 0 && strcmp(val, "emulate") == 0) {
			for (unsigned int j = 0; j < 2; j++) {
				snprintf(slots[j].hw_addr,
					 sizeof(slots[j].hw_addr),
					 "card=240,vhca_id=%u", j + 1);
				slots[j].emulated = true;
			}
			printf("%s=emulate: software devices handled as real ones\n",
			       vars[i]);
			continue;
		}
		ret = tdev_resolve(vars[i], val, &slots[i]);
		if (ret != 0)
			return ret;
	}
	return 0;
}

bool
tdev_slot_hw(unsigned int slot)
{
	return slot < TDEV_SLOTS && slots[slot].hw_addr[0] != '\0';
}

bool
tdev_hw(void)
{
	return tdev_slot_hw(0);
}

int
tdev_eal_args(char **argv)
{
	int n = 0;

	if (!tdev_hw() || slots[0].emulated) {
		argv[n++] = (char *)(uintptr_t)"--no-pci";
		return n;
	}
	for (unsigned int i = 0; i < 2; i++) {
		if (!tdev_slot_hw(i))
			continue;
		argv[n++] = (char *)(uintptr_t)"-a";
		argv[n++] = slots[i].hw_addr;
	}
	return n;
}

static int
tdev_cmp_name(const struct rte_device *dev, const void *name)
{
	return strcmp(dev->name, name);
}

/* The EAL device named @name on @bus_name, or NULL. */
static struct rte_device *
tdev_find(const char *bus_name, const char *name)
{
	struct rte_bus *bus = rte_bus_find_by_name(bus_name);

	if (bus == NULL || bus->find_device == NULL)
		return NULL;
	return bus->find_device(NULL, tdev_cmp_name, name);
}

struct rte_device *
tdev_eal_dev(unsigned int slot)
{
	struct rte_device *dev;

	if (slot >= TDEV_SLOTS)
		return NULL;
	if (!tdev_slot_hw(slot) || slots[slot].emulated)
		return tdev_find("vdev", slots[slot].name);
	dev = tdev_find(strncmp(slots[slot].hw_addr, "auxiliary:", 10) == 0 ?
			"auxiliary" : "pci", slots[slot].name);
	/* A bus device that no driver took is not probed. */
	return dev != NULL && dev->driver != NULL ? dev : NULL;
}

struct mlx5_common_device *
tdev_cdev(unsigned int slot)
{
	struct rte_device *dev = tdev_eal_dev(slot);

	return dev != NULL ? mlx5_common_dev_get(dev) : NULL;
}

const char *
tdev_name(unsigned int slot)
{
	return slot < TDEV_SLOTS ? slots[slot].name : "";
}

void
tdev_eal_ready(void)
{
	/* EAL probed the allowed devices at init; cases probe their own. */
	for (unsigned int i = 0; i < TDEV_SLOTS; i++) {
		struct rte_device *dev;

		if (!tdev_slot_hw(i))
			continue;
		dev = tdev_eal_dev(i);
		if (dev != NULL)
			rte_dev_remove(dev);
	}
}

int
tdev_probe(unsigned int slot, const char *sim_args)
{
	struct tdev_slot *s;
	struct mlx5_common_device *cdev;
	int ret;

	if (slot >= TDEV_SLOTS)
		return -EINVAL;
	s = &slots[slot];
	if (s->emulated)
		ret = rte_vdev_init(s->name, s->hw_addr);
	else if (tdev_slot_hw(slot))
		ret = rte_dev_probe(s->hw_addr);
	else
		ret = rte_vdev_init(s->name, sim_args);
	if (ret != 0)
		return ret;
	s->probed = true;
	cdev = tdev_cdev(slot);
	s->cdev = cdev;
	s->counted = cdev != NULL && (!tdev_slot_hw(slot) || s->emulated) &&
		     mlx5_sim_vhca_id_of_ctx(cdev->ctx, &s->card,
					     &s->vhca) == 0;
	return 0;
}

int
tdev_remove(unsigned int slot)
{
	struct rte_device *dev;
	int ret;

	if (slot >= TDEV_SLOTS)
		return -EINVAL;
	if (!tdev_slot_hw(slot) || slots[slot].emulated) {
		ret = rte_vdev_uninit(slots[slot].name);
	} else {
		dev = tdev_eal_dev(slot);
		ret = dev != NULL ? rte_dev_remove(dev) : -ENODEV;
	}
	if (ret == 0) {
		slots[slot].probed = false;
		slots[slot].cdev = NULL;
	}
	return ret;
}

void
tdev_remove_all(void)
{
	for (unsigned int i = TDEV_SLOTS; i-- > 0;)
		if (tdev_eal_dev(i) != NULL)
			tdev_remove(i);
}

long
tdev_live(unsigned int slot)
{
	struct mlx5_sim_stats st;

	if (slot >= TDEV_SLOTS)
		return -1;
	/* An emulated real device is still a software device: counted. */
	if (tdev_slot_hw(slot) && !slots[slot].emulated)
		return TDEV_UNCOUNTED;
	if (!slots[slot].counted)
		return -1;
	if (mlx5_sim_vhca_stats(slots[slot].card, slots[slot].vhca, &st) != 0)
		return -1;
	return (long)st.live_objects + st.contexts;
}

/*
 * A real device reaches (key, addr) as the local key of an RDMA on a
 * loopback QP of PD @pdn (mlx5_devx_lbqp_copy()). The QP and its staging
 * buffer live for the call only, so that a case's live-object counts
 * (emulate mode) see none of them.
 */
static int
tdev_hw_access(struct tdev_slot *s, uint32_t pdn, uint32_t key,
	       uint64_t addr, void *buf, size_t len, bool to_memory,
	       uint8_t *cqe_syndrome)
{
	struct mlx5_devx_lbqp lb;
	int ret;

	if (len > (UINT32_C(1) << 30))
		return -EMSGSIZE;
	ret = mlx5_devx_lbqp_create(s->cdev, &lb, pdn);
	if (ret == 0)
		ret = mlx5_devx_lbqp_copy(&lb, key, addr, buf, len, to_memory,
					  cqe_syndrome);
	mlx5_devx_lbqp_destroy(&lb);
	return ret;
}

int
tdev_access(unsigned int slot, uint32_t pdn, uint32_t key, uint64_t addr,
	    void *buf, size_t len, bool to_memory, uint8_t *cqe_syndrome)
{
	struct mlx5_common_device *cdev;

	if (slot >= TDEV_SLOTS || slots[slot].cdev == NULL)
		return -ENODEV;
	cdev = slots[slot].cdev;
	if (tdev_slot_hw(slot))
		return tdev_hw_access(&slots[slot], pdn, key, addr, buf, len,
				      to_memory, cqe_syndrome);
	return mlx5_sim_dma(cdev->ctx, pdn, key, addr, buf, len, to_memory,
			    cqe_syndrome);
}
