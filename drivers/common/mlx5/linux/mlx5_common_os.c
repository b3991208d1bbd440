/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * The rdma-core backend's bus drivers: a PCI driver for ConnectX-4 and
 * later adapters and BlueField DPUs (PFs and VFs), and an auxiliary driver
 * for their sub-functions ("mlx5_core.sf.<N>"). Both hand the EAL device to
 * mlx5_common_dev_probe() with a backend whose find_device() picks, among
 * the RDMA devices rdma-core lists, the one the kernel created on top of
 * that PCI function or sub-function.
 *
 * The devices stay bound to the kernel's mlx5_core (bifurcated model): the
 * drivers need no BAR mapping and work through the RDMA device.
 *
 * Driver names: Debian's DPDK ships its own mlx5 common driver, which stock
 * applications load from the default plugin directory, and which registers
 * "mlx5_pci" and "mlx5_auxiliary" for the same devices. Ours are named
 * "mlx5c_pci" and "mlx5c_auxiliary" so that EAL logs, dpdk-pmdinfo and
 * anything that selects or reports a driver by name can tell the two apart.
 */

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_errno.h>
#include <rte_pci.h>
#include <bus_auxiliary_driver.h>
#include <bus_pci_driver.h>

#include "mlx5_common.h"
#include "mlx5_common_log.h"
#include "mlx5_common_mr.h"
#include "mlx5_common_private.h"
#include "mlx5_os_glue.h"

#define MLX5_OS_PCI_VENDOR_ID_MELLANOX 0x15b3

/* Auxiliary devices of mlx5_core that are sub-functions. */
#define MLX5_OS_SF_PREFIX "mlx5_core.sf."

#define MLX5_OS_SYSFS_INFINIBAND "/sys/class/infiniband"
#define MLX5_OS_SYSFS_AUXILIARY "/sys/bus/auxiliary/devices"

/*
 * Probe result when the rdma-core backend is unavailable: a positive value
 * tells the bus "this driver does not handle the device", so it quietly
 * offers the device to the next driver (e.g. the distribution's mlx5
 * driver). A negative value would abort the bus's probe of the device and
 * make EAL log "Requested device ... cannot be used".
 */
#define MLX5_OS_PROBE_NOT_HANDLED 1

/* Tells which RDMA device belongs to the EAL device being probed. */
typedef bool (mlx5_os_ibdev_match_t)(const struct ibv_device *ibdev,
				     const void *key);

static int mlx5_os_pci_find_device(struct mlx5_common_device *cdev,
				   struct mlx5_kvargs_ctrl *kv,
				   struct ibv_device **ibv_dev);
static int mlx5_os_auxiliary_find_device(struct mlx5_common_device *cdev,
					 struct mlx5_kvargs_ctrl *kv,
					 struct ibv_device **ibv_dev);
static void mlx5_os_release_device(struct mlx5_common_device *cdev);

/* The glue pointers are filled once the glue is known (mlx5_os_glue()). */
static struct mlx5_backend mlx5_os_pci_backend = {
	.name = "rdma-core",
	.glue = NULL,
	.find_device = mlx5_os_pci_find_device,
	.release_device = mlx5_os_release_device,
};

static struct mlx5_backend mlx5_os_auxiliary_backend = {
	.name = "rdma-core",
	.glue = NULL,
	.find_device = mlx5_os_auxiliary_find_device,
	.release_device = mlx5_os_release_device,
};

static pthread_once_t mlx5_os_backend_once = PTHREAD_ONCE_INIT;

/**
 * Fill the backends' glue pointer: the once-only routine behind
 * mlx5_os_backend_ready(). Loads the glue module in dlopen mode.
 */
static void
mlx5_os_backend_init(void)
{
	const struct mlx5_glue *glue = mlx5_os_glue();

	mlx5_os_pci_backend.glue = glue;
	mlx5_os_auxiliary_backend.glue = glue;
}

/**
 * Check that the rdma-core backend can be used.
 *
 * @return
 *   true when the glue is available and the backends point to it, false
 *   otherwise (the reason was logged once by the glue loader).
 */
static bool
mlx5_os_backend_ready(void)
{
	pthread_once(&mlx5_os_backend_once, mlx5_os_backend_init);
	return mlx5_os_pci_backend.glue != NULL;
}

/**
 * Find the RDMA device matching a key among those rdma-core lists.
 *
 * On success the device list is kept in cdev->backend_priv, because
 * @p ibv_dev points into it, until mlx5_os_release_device() frees it.
 *
 * @param cdev
 *   Common device being probed.
 * @param name
 *   EAL device name, for logs.
 * @param match
 *   Predicate telling the matching RDMA device.
 * @param key
 *   Argument of @p match.
 * @param[out] ibv_dev
 *   The matching RDMA device.
 *
 * @return
 *   0 on success, a negative errno value otherwise and rte_errno is set
 *   (-ENODEV when no RDMA device matches, or rdma-core's errno when the
 *   devices cannot be listed).
 */
static int
mlx5_os_find_ibdev(struct mlx5_common_device *cdev, const char *name,
		   mlx5_os_ibdev_match_t *match, const void *key,
		   struct ibv_device **ibv_dev)
{
	const struct mlx5_glue *glue = mlx5_os_glue();
	struct ibv_device **list;
	int num = 0;
	int err;
	int i;

	/* A previous find_device() that was not released. */
	mlx5_os_release_device(cdev);
	errno = 0;
	list = glue->get_device_list(&num);
	if (list == NULL) {
		err = errno != 0 ? errno : ENODEV;
		DRV_LOG(ERR, "%s: cannot list RDMA devices: %s (is the"
			" ib_uverbs kernel module loaded?)", name, strerror(err));
		rte_errno = err;
		return -err;
	}
	for (i = 0; i < num; i++) {
		if (match(list[i], key))
			break;
	}
	if (i == num) {
		glue->free_device_list(list);
		DRV_LOG(ERR, "%s: no RDMA device found among %d"
			" (are the mlx5_ib and ib_uverbs kernel modules loaded?)",
			name, num);
		rte_errno = ENODEV;
		return -ENODEV;
	}
	DRV_LOG(DEBUG, "%s: RDMA device %s", name, list[i]->name);
	cdev->backend_priv = list;
	*ibv_dev = list[i];
	return 0;
}

/**
 * Tell whether an RDMA device sits on a given PCI function: the basename
 * of its sysfs parent (<ibdev_path>/device, resolved) is that PCI address.
 * The RDMA device of a sub-function has the sub-function as parent, so it
 * never matches its PF.
 *
 * @param ibdev
 *   RDMA device from rdma-core's list.
 * @param key
 *   The PCI address (struct rte_pci_addr).
 *
 * @return
 *   true if the device sits on that PCI function, false otherwise.
 */
static bool
mlx5_os_ibdev_on_pci(const struct ibv_device *ibdev, const void *key)
{
	const struct rte_pci_addr *pci_addr = key;
	struct rte_pci_addr parent_addr;
	char resolved[PATH_MAX];
	char link[PATH_MAX];
	const char *base;
	int len;

	if (ibdev->ibdev_path[0] != '\0')
		len = snprintf(link, sizeof(link), "%s/device",
			       ibdev->ibdev_path);
	else
		len = snprintf(link, sizeof(link), "%s/%s/device",
			       MLX5_OS_SYSFS_INFINIBAND, ibdev->name);
	if (len < 0 || (size_t)len >= sizeof(link))
		return false;
	if (realpath(link, resolved) == NULL) {
		DRV_LOG(DEBUG, "RDMA device %s: cannot resolve %s: %s",
			ibdev->name, link, strerror(errno));
		return false;
	}
	base = strrchr(resolved, '/');
	base = base != NULL ? base + 1 : resolved;
	if (rte_pci_addr_parse(base, &parent_addr) != 0)
		return false; /* Not on a PCI function (e.g. a sub-function). */
	return rte_pci_addr_cmp(&parent_addr, pci_addr) == 0;
}

/**
 * Tell whether an RDMA device has a given name.
 *
 * @param ibdev
 *   RDMA device from rdma-core's list.
 * @param key
 *   The kernel name of the wanted RDMA device (const char *).
 *
 * @return
 *   true if the names are equal, false otherwise.
 */
static bool
mlx5_os_ibdev_named(const struct ibv_device *ibdev, const void *key)
{
	return strcmp(ibdev->name, key) == 0;
}

/**
 * find_device() of the PCI backend: the RDMA device of this PCI function.
 *
 * @param cdev
 *   Common device being probed; cdev->dev is a PCI device.
 * @param kv
 *   Devargs; this backend takes none.
 * @param[out] ibv_dev
 *   The RDMA device to open.
 *
 * @return
 *   0 on success, a negative errno value otherwise and rte_errno is set.
 */
static int
mlx5_os_pci_find_device(struct mlx5_common_device *cdev,
			struct mlx5_kvargs_ctrl *kv __rte_unused,
			struct ibv_device **ibv_dev)
{
	const struct rte_pci_device *pci_dev = RTE_DEV_TO_PCI_CONST(cdev->dev);

	return mlx5_os_find_ibdev(cdev, pci_dev->device.name,
				  mlx5_os_ibdev_on_pci, &pci_dev->addr,
				  ibv_dev);
}

/**
 * Read the kernel name of the RDMA device created on an auxiliary device:
 * the one entry of /sys/bus/auxiliary/devices/<name>/infiniband/.
 *
 * @param aux_name
 *   Auxiliary device name, e.g. "mlx5_core.sf.2".
 * @param[out] ibdev_name
 *   Buffer for the RDMA device name.
 * @param size
 *   Size of @p ibdev_name.
 *
 * @return
 *   0 on success, a negative errno value otherwise and rte_errno is set
 *   (-ENODEV when the auxiliary device has no RDMA device).
 */
static int
mlx5_os_auxiliary_ibdev_name(const char *aux_name, char *ibdev_name,
			     size_t size)
{
	char path[PATH_MAX];
	struct dirent *entry;
	bool found = false;
	DIR *dir;
	int len;
	int err;

	len = snprintf(path, sizeof(path), "%s/%s/infiniband",
		       MLX5_OS_SYSFS_AUXILIARY, aux_name);
	if (len < 0 || (size_t)len >= sizeof(path)) {
		DRV_LOG(ERR, "%s: sysfs path too long", aux_name);
		rte_errno = ENAMETOOLONG;
		return -ENAMETOOLONG;
	}
	dir = opendir(path);
	if (dir == NULL) {
		err = errno;
		DRV_LOG(ERR, "%s: cannot open %s: %s (is the mlx5_ib kernel"
			" module loaded?)", aux_name, path, strerror(err));
		/* No infiniband/ folder: the sub-function has no RDMA device. */
		if (err == ENOENT)
			err = ENODEV;
		rte_errno = err;
		return -err;
	}
	while (!found && (entry = readdir(dir)) != NULL) {
		if (entry->d_name[0] == '.')
			continue;
		len = snprintf(ibdev_name, size, "%s", entry->d_name);
		found = len >= 0 && (size_t)len < size;
	}
	closedir(dir);
	if (!found) {
		DRV_LOG(ERR, "%s: no RDMA device in %s", aux_name, path);
		rte_errno = ENODEV;
		return -ENODEV;
	}
	return 0;
}

/**
 * find_device() of the auxiliary backend: the RDMA device of this
 * sub-function.
 *
 * @param cdev
 *   Common device being probed; cdev->dev is an auxiliary device.
 * @param kv
 *   Devargs; this backend takes none.
 * @param[out] ibv_dev
 *   The RDMA device to open.
 *
 * @return
 *   0 on success, a negative errno value otherwise and rte_errno is set.
 */
static int
mlx5_os_auxiliary_find_device(struct mlx5_common_device *cdev,
			      struct mlx5_kvargs_ctrl *kv __rte_unused,
			      struct ibv_device **ibv_dev)
{
	const struct rte_auxiliary_device *aux_dev =
		RTE_DEV_TO_AUXILIARY_CONST(cdev->dev);
	char ibdev_name[IBV_SYSFS_NAME_MAX];
	int ret;

	ret = mlx5_os_auxiliary_ibdev_name(aux_dev->name, ibdev_name,
					   sizeof(ibdev_name));
	if (ret < 0)
		return ret;
	return mlx5_os_find_ibdev(cdev, aux_dev->name, mlx5_os_ibdev_named,
				  ibdev_name, ibv_dev);
}

/**
 * release_device() of both backends: free the RDMA device list kept by
 * find_device(). A device already opened from it stays valid (rdma-core
 * reference-counts devices); an unopened one does not.
 *
 * @param cdev
 *   Common device; nothing is done if it holds no list.
 */
static void
mlx5_os_release_device(struct mlx5_common_device *cdev)
{
	if (cdev->backend_priv == NULL)
		return;
	mlx5_os_glue()->free_device_list(cdev->backend_priv);
	cdev->backend_priv = NULL;
}

/**
 * Probe a PCI function.
 *
 * @param drv
 *   This driver.
 * @param pci_dev
 *   PCI device matched by the id table.
 *
 * @return
 *   0 on success; MLX5_OS_PROBE_NOT_HANDLED (positive) when the rdma-core
 *   backend is unavailable; otherwise a negative errno value and rte_errno
 *   is set (from mlx5_common_dev_probe()).
 */
static int
mlx5_os_pci_probe(struct rte_pci_driver *drv __rte_unused,
		  struct rte_pci_device *pci_dev)
{
	if (!mlx5_os_backend_ready()) {
		DRV_LOG(DEBUG, "%s: rdma-core backend unavailable, device"
			" not handled", pci_dev->device.name);
		return MLX5_OS_PROBE_NOT_HANDLED;
	}
	return mlx5_common_dev_probe(&pci_dev->device, &mlx5_os_pci_backend);
}

/**
 * Remove a PCI function probed by mlx5_os_pci_probe().
 *
 * @param pci_dev
 *   PCI device.
 *
 * @return
 *   0 on success, a negative errno value otherwise and rte_errno is set.
 */
static int
mlx5_os_pci_remove(struct rte_pci_device *pci_dev)
{
	return mlx5_common_dev_remove(&pci_dev->device);
}

/**
 * Tell whether an auxiliary device is an mlx5 sub-function:
 * "mlx5_core.sf." followed by a decimal index.
 *
 * @param name
 *   Auxiliary device name.
 *
 * @return
 *   true for an mlx5 sub-function, false otherwise.
 */
static bool
mlx5_os_auxiliary_match(const char *name)
{
	const char *index;

	if (strncmp(name, MLX5_OS_SF_PREFIX, strlen(MLX5_OS_SF_PREFIX)) != 0)
		return false;
	index = name + strlen(MLX5_OS_SF_PREFIX);
	if (*index == '\0')
		return false;
	for (; *index != '\0'; index++) {
		if (!isdigit((unsigned char)*index))
			return false;
	}
	return true;
}

/**
 * Probe a sub-function.
 *
 * @param drv
 *   This driver.
 * @param aux_dev
 *   Auxiliary device accepted by mlx5_os_auxiliary_match().
 *
 * @return
 *   0 on success; MLX5_OS_PROBE_NOT_HANDLED (positive) when the rdma-core
 *   backend is unavailable; otherwise a negative errno value and rte_errno
 *   is set (from mlx5_common_dev_probe()).
 */
static int
mlx5_os_auxiliary_probe(struct rte_auxiliary_driver *drv __rte_unused,
			struct rte_auxiliary_device *aux_dev)
{
	if (!mlx5_os_backend_ready()) {
		DRV_LOG(DEBUG, "%s: rdma-core backend unavailable, device"
			" not handled", aux_dev->name);
		return MLX5_OS_PROBE_NOT_HANDLED;
	}
	return mlx5_common_dev_probe(&aux_dev->device,
				     &mlx5_os_auxiliary_backend);
}

/**
 * Remove a sub-function probed by mlx5_os_auxiliary_probe().
 *
 * @param aux_dev
 *   Auxiliary device.
 *
 * @return
 *   0 on success, a negative errno value otherwise and rte_errno is set.
 */
static int
mlx5_os_auxiliary_remove(struct rte_auxiliary_device *aux_dev)
{
	return mlx5_common_dev_remove(&aux_dev->device);
}

/* ConnectX-4 and later, BlueField DPUs: PFs and VFs (kernel mlx5_core). */
static const struct rte_pci_id mlx5_os_pci_ids[] = {
	{ RTE_PCI_DEVICE(MLX5_OS_PCI_VENDOR_ID_MELLANOX, 0x1013) }, /* ConnectX-4 */
	{ RTE_PCI_DEVICE(MLX5_OS_PCI_VENDOR_ID_MELLANOX, 0x1014) }, /* ConnectX-4 VF */
	{ RTE_PCI_DEVICE(MLX5_OS_PCI_VENDOR_ID_MELLANOX, 0x1015) }, /* ConnectX-4 Lx */
	{ RTE_PCI_DEVICE(MLX5_OS_PCI_VENDOR_ID_MELLANOX, 0x1016) }, /* ConnectX-4 Lx VF */
	{ RTE_PCI_DEVICE(MLX5_OS_PCI_VENDOR_ID_MELLANOX, 0x1017) }, /* ConnectX-5 */
	{ RTE_PCI_DEVICE(MLX5_OS_PCI_VENDOR_ID_MELLANOX, 0x1018) }, /* ConnectX-5 VF */
	{ RTE_PCI_DEVICE(MLX5_OS_PCI_VENDOR_ID_MELLANOX, 0x1019) }, /* ConnectX-5 Ex */
	{ RTE_PCI_DEVICE(MLX5_OS_PCI_VENDOR_ID_MELLANOX, 0x101a) }, /* ConnectX-5 Ex VF */
	{ RTE_PCI_DEVICE(MLX5_OS_PCI_VENDOR_ID_MELLANOX, 0x101b) }, /* ConnectX-6 */
	{ RTE_PCI_DEVICE(MLX5_OS_PCI_VENDOR_ID_MELLANOX, 0x101c) }, /* ConnectX-6 VF */
	{ RTE_PCI_DEVICE(MLX5_OS_PCI_VENDOR_ID_MELLANOX, 0x101d) }, /* ConnectX-6 Dx */
	{ RTE_PCI_DEVICE(MLX5_OS_PCI_VENDOR_ID_MELLANOX, 0x101e) }, /* ConnectX family VF */
	{ RTE_PCI_DEVICE(MLX5_OS_PCI_VENDOR_ID_MELLANOX, 0x101f) }, /* ConnectX-6 Lx */
	{ RTE_PCI_DEVICE(MLX5_OS_PCI_VENDOR_ID_MELLANOX, 0x1021) }, /* ConnectX-7 */
	{ RTE_PCI_DEVICE(MLX5_OS_PCI_VENDOR_ID_MELLANOX, 0x1023) }, /* ConnectX-8 */
	{ RTE_PCI_DEVICE(MLX5_OS_PCI_VENDOR_ID_MELLANOX, 0x1025) }, /* ConnectX-9 */
	{ RTE_PCI_DEVICE(MLX5_OS_PCI_VENDOR_ID_MELLANOX, 0x1027) }, /* ConnectX-10 */
	{ RTE_PCI_DEVICE(MLX5_OS_PCI_VENDOR_ID_MELLANOX, 0x2101) }, /* ConnectX-10 NVLink-C2C */
	{ RTE_PCI_DEVICE(MLX5_OS_PCI_VENDOR_ID_MELLANOX, 0xa2d2) }, /* BlueField */
	{ RTE_PCI_DEVICE(MLX5_OS_PCI_VENDOR_ID_MELLANOX, 0xa2d3) }, /* BlueField VF */
	{ RTE_PCI_DEVICE(MLX5_OS_PCI_VENDOR_ID_MELLANOX, 0xa2d6) }, /* BlueField-2 */
	{ RTE_PCI_DEVICE(MLX5_OS_PCI_VENDOR_ID_MELLANOX, 0xa2dc) }, /* BlueField-3 */
	{ RTE_PCI_DEVICE(MLX5_OS_PCI_VENDOR_ID_MELLANOX, 0xa2df) }, /* BlueField-4 */
	{ .vendor_id = 0 }, /* End of table. */
};

/* rte_dev_dma_map()/unmap(): explicit registration of external memory. */
static int
mlx5_os_pci_dma_map(struct rte_pci_device *pci_dev, void *addr, uint64_t iova,
		    size_t len)
{
	return mlx5_mr_dev_dma_map(&pci_dev->device, addr, iova, len);
}

static int
mlx5_os_pci_dma_unmap(struct rte_pci_device *pci_dev, void *addr,
		      uint64_t iova, size_t len)
{
	return mlx5_mr_dev_dma_unmap(&pci_dev->device, addr, iova, len);
}

static int
mlx5_os_auxiliary_dma_map(struct rte_auxiliary_device *dev, void *addr,
			  uint64_t iova, size_t len)
{
	return mlx5_mr_dev_dma_map(&dev->device, addr, iova, len);
}

static int
mlx5_os_auxiliary_dma_unmap(struct rte_auxiliary_device *dev, void *addr,
			    uint64_t iova, size_t len)
{
	return mlx5_mr_dev_dma_unmap(&dev->device, addr, iova, len);
}

static struct rte_pci_driver mlx5_os_pci_driver = {
	.id_table = mlx5_os_pci_ids,
	.probe = mlx5_os_pci_probe,
	.remove = mlx5_os_pci_remove,
	.dma_map = mlx5_os_pci_dma_map,
	.dma_unmap = mlx5_os_pci_dma_unmap,
	/*
	 * No RTE_PCI_DRV_NEED_MAPPING: the device stays with mlx5_core.
	 * No RTE_PCI_DRV_PROBE_AGAIN: mlx5_common_dev_probe() refuses a
	 * device it already holds (-EEXIST), so a second probe could add
	 * nothing; without the flag EAL answers -EEXIST itself, quietly.
	 * Add the flag if the common layer learns to extend a probed device.
	 */
	.drv_flags = RTE_PCI_DRV_INTR_LSC | RTE_PCI_DRV_INTR_RMV,
};

static struct rte_auxiliary_driver mlx5_os_auxiliary_driver = {
	.match = mlx5_os_auxiliary_match,
	.probe = mlx5_os_auxiliary_probe,
	.remove = mlx5_os_auxiliary_remove,
	.dma_map = mlx5_os_auxiliary_dma_map,
	.dma_unmap = mlx5_os_auxiliary_dma_unmap,
};

RTE_PMD_REGISTER_PCI(mlx5c_pci, mlx5_os_pci_driver);
RTE_PMD_REGISTER_PCI_TABLE(mlx5c_pci, mlx5_os_pci_ids);
RTE_PMD_REGISTER_KMOD_DEP(mlx5c_pci, "* ib_uverbs & mlx5_core & mlx5_ib");
RTE_PMD_REGISTER_PARAM_STRING(mlx5c_pci, MLX5_COMMON_PARAM_STRING);

RTE_PMD_REGISTER_AUXILIARY(mlx5c_auxiliary, mlx5_os_auxiliary_driver);
RTE_PMD_REGISTER_KMOD_DEP(mlx5c_auxiliary, "* ib_uverbs & mlx5_core & mlx5_ib");
RTE_PMD_REGISTER_PARAM_STRING(mlx5c_auxiliary, MLX5_COMMON_PARAM_STRING);
