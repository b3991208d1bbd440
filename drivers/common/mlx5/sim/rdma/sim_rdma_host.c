/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * The host of the rdma-core front: its devices, read once from
 * $MLX5_SIM_HOST/devices.conf (sim_rdma.h), each a vHCA of the model
 * created from its shape and named as the host's kernel names it.
 */

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim_rdma.h"

#define SIM_RDMA_MAX_DEVS 64

static struct sim_rdma_dev sim_rdma_host[SIM_RDMA_MAX_DEVS];
static int sim_rdma_host_count;
static int sim_rdma_host_err;
static pthread_once_t sim_rdma_host_once = PTHREAD_ONCE_INIT;

/* Add one device: "<name> <pci|-> <netdev|-> <shape>". */
static int
sim_rdma_host_add(const char *host, const char *name, const char *pci,
		  const char *netdev, const char *shape, int line)
{
	struct sim_rdma_dev *dev = &sim_rdma_host[sim_rdma_host_count];
	struct mlx5_sim_shape sh;
	char path[IBV_SYSFS_PATH_MAX];
	int ret;

	if (sim_rdma_host_count == SIM_RDMA_MAX_DEVS) {
		SIM_RDMA_LOG(ERR, "devices.conf line %d: more than %d devices",
			     line, SIM_RDMA_MAX_DEVS);
		return -ENOSPC;
	}
	mlx5_sim_shape_init(&sh);
	ret = mlx5_sim_shape_parse(&sh, shape);
	if (ret < 0) {
		mlx5_sim_caps_wipe(&sh.caps);
		/* The shape may hold secrets: the bad key was logged. */
		SIM_RDMA_LOG(ERR, "devices.conf line %d: device %s: bad shape",
			     line, name);
		return ret;
	}
	if (!sh.vhca_id_set)
		sh.vhca_id = (uint16_t)sim_rdma_host_count;
	ret = mlx5_sim_shape_apply(&sh, &dev->vhca);
	mlx5_sim_caps_wipe(&sh.caps);
	if (ret < 0) {
		SIM_RDMA_LOG(ERR,
			     "devices.conf line %d: device %s: shape refused:"
			     " %s",
			     line, name, strerror(-ret));
		return ret;
	}
	snprintf(path, sizeof(path), "%s/sys/class/infiniband/%s",
		 host != NULL ? host : "", name);
	ret = mlx5_sim_vhca_ibdev_set(dev->vhca, name, path);
	if (ret < 0) {
		SIM_RDMA_LOG(ERR,
			     "devices.conf line %d: device name %s is too"
			     " long",
			     line, name);
		return ret;
	}
	dev->ibdev = &dev->vhca->ibdev;
	snprintf(dev->pci, sizeof(dev->pci), "%s",
		 strcmp(pci, "-") != 0 ? pci : "");
	snprintf(dev->netdev, sizeof(dev->netdev), "%s",
		 strcmp(netdev, "-") != 0 ? netdev : "");
	if (dev->netdev[0] != '\0') {
		ret = sim_rdma_netdev_attach(dev);
		if (ret < 0)
			return ret;
	}
	dev->index = sim_rdma_host_count++;
	return 0;
}

static int
sim_rdma_host_read(const char *host)
{
	char file[PATH_MAX], buf[512];
	int line = 0, ret = 0;
	FILE *f;

	snprintf(file, sizeof(file), "%s/devices.conf", host);
	f = fopen(file, "r");
	if (f == NULL) {
		ret = -errno;
		SIM_RDMA_LOG(ERR, "MLX5_SIM_HOST=%s: cannot read %s: %s", host,
			     file, strerror(errno));
		return ret;
	}
	while (ret == 0 && fgets(buf, sizeof(buf), f) != NULL) {
		char name[IBV_SYSFS_NAME_MAX], pci[32], netdev[32];
		char shape[384];
		int n;

		line++;
		if (buf[strspn(buf, " \t\r\n")] == '#' ||
		    buf[strspn(buf, " \t\r\n")] == '\0')
			continue;
		n = sscanf(buf, "%63s %31s %31s %383s", name, pci, netdev,
			   shape);
		if (n < 3) {
			SIM_RDMA_LOG(ERR,
				     "%s line %d: expected \"<ibdev>"
				     " <pci address|-> <netdev|-> [shape]\"",
				     file, line);
			ret = -EINVAL;
			break;
		}
		ret = sim_rdma_host_add(host, name, pci, netdev,
					n == 4 ? shape : "", line);
	}
	fclose(f);
	return ret;
}

/*
 * At exit, with $MLX5_SIM_STATS naming a file: a line a device appended to
 * it, what the device did for the process (its commands, the frames of its
 * first port, the compressed CQE sessions it wrote): a program such as
 * DPDK's own PMD cannot be asked, and a script checks the file.
 */
static void
sim_rdma_host_stats(void)
{
	const char *path = getenv("MLX5_SIM_STATS");
	struct mlx5_sim_port_stats ps;
	struct mlx5_sim_stats st;
	FILE *f;
	int i;

	if (path == NULL || path[0] == '\0')
		return;
	f = fopen(path, "a");
	if (f == NULL)
		return;
	for (i = 0; i < sim_rdma_host_count; i++) {
		const struct mlx5_sim_vhca *v = sim_rdma_host[i].vhca;
		uint16_t card = v->card->id, id = v->vhca_id;

		if (mlx5_sim_vhca_stats(card, id, &st) != 0 ||
		    mlx5_sim_port_stats(card, id, 1, &ps) != 0)
			continue;
		fprintf(f,
			"%s commands=%" PRIu64 " failed_commands=%" PRIu64
			" rx_frames=%" PRIu64 " tx_frames=%" PRIu64
			" compressed_sessions=%" PRIu64
			" compressed_cqes=%" PRIu64 "\n",
			sim_rdma_host[i].ibdev->name, st.commands,
			st.failed_commands, ps.rx_frames, ps.tx_frames,
			st.compressed_sessions, st.compressed_cqes);
	}
	fclose(f);
}

static void
sim_rdma_host_load(void)
{
	const char *host = getenv("MLX5_SIM_HOST");
	int ret;

	if (host != NULL && host[0] != '\0')
		ret = sim_rdma_host_read(host);
	else
		ret = sim_rdma_host_add(NULL, "mlx5_0", "-", "-",
					"card=0,vhca_id=0", 0);
	if (ret < 0) {
		sim_rdma_host_err = -ret;
		sim_rdma_host_count = 0;
		return;
	}
	atexit(sim_rdma_host_stats);
}

struct sim_rdma_dev *
sim_rdma_devs(int *count)
{
	pthread_once(&sim_rdma_host_once, sim_rdma_host_load);
	if (sim_rdma_host_err != 0) {
		errno = sim_rdma_host_err;
		*count = 0;
		return NULL;
	}
	*count = sim_rdma_host_count;
	return sim_rdma_host;
}

struct sim_rdma_dev *
sim_rdma_dev_of(struct ibv_device *ib)
{
	struct sim_rdma_dev *devs;
	int n, i;

	devs = sim_rdma_devs(&n);
	for (i = 0; i < n; i++)
		if (devs[i].ibdev == ib)
			return &devs[i];
	return NULL;
}
