/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * Secondary processes (mlx5_common_mp.h): the transport of the requests a
 * secondary makes of the primary over DPDK's IPC. One action,
 * MLX5_MP_NAME, registered by the primary at its first device probe; each
 * request names the device (its EAL name, the same in both processes) and
 * its type, and is served on the primary's record of the device, held
 * against removal meanwhile, by the handler its component registered
 * (mlx5_mp_handler_register()): the attach and class requests here, the MR
 * cache's misses in mlx5_common_mr_mp.c. A layer above the core: it plugs
 * into the probe (mlx5_common_mp_ops_register()) from a constructor.
 */

#include <assert.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_string_fns.h>

#include "mlx5_common.h"
#include "mlx5_common_log.h"
#include "mlx5_common_mp.h"
#include "mlx5_common_private.h"

#define MLX5_MP_NAME "mlx5_common_mp"
/* Seconds a secondary waits for the primary's reply. */
#define MLX5_MP_TIMEOUT_S 5

struct mlx5_mp_msg {
	uint32_t type;	/* enum mlx5_mp_type. */
	int32_t result; /* Reply: the handler's result. */
	char dev[RTE_DEV_NAME_MAX_LEN];
	/* The request's bytes, as its component defines them. */
	uint64_t data[MLX5_MP_DATA_MAX / sizeof(uint64_t)];
};

static_assert(sizeof(struct mlx5_mp_msg) <= RTE_MP_MAX_PARAM_LEN,
	      "an IPC message's parameters are limited");

/* Handlers by request type, registered by their components. */
static struct {
	const char *name;
	mlx5_mp_handler_t *fn;
} mlx5_mp_handlers[MLX5_MP_TYPES];

void
mlx5_mp_handler_register(enum mlx5_mp_type type, const char *name,
			 mlx5_mp_handler_t *fn)
{
	if ((unsigned int)type >= MLX5_MP_TYPES) {
		DRV_LOG(ERR, "IPC: no request type %u", (unsigned int)type);
		return;
	}
	mlx5_mp_handlers[type].name = name;
	mlx5_mp_handlers[type].fn = fn;
}

static const char *
mlx5_mp_type_name(uint32_t type)
{
	if (type < MLX5_MP_TYPES && mlx5_mp_handlers[type].name != NULL)
		return mlx5_mp_handlers[type].name;
	return "unknown";
}

static int
mlx5_mp_action(const struct rte_mp_msg *req, const void *peer)
{
	struct rte_mp_msg reply;
	struct mlx5_common_device *cdev;
	/* A copy: the message's bytes are not aligned for the struct. */
	struct mlx5_mp_msg m;

	if (req->len_param != sizeof(m)) {
		DRV_LOG(ERR, "IPC: a request of %d bytes (%zu expected)",
			req->len_param, sizeof(m));
		return -EINVAL;
	}
	memcpy(&m, req->param, sizeof(m));
	m.dev[sizeof(m.dev) - 1] = '\0';
	cdev = mlx5_common_dev_acquire_by_name(m.dev);
	if (cdev == NULL) {
		DRV_LOG(ERR,
			"IPC: %s request for %s: no such device in the primary process",
			mlx5_mp_type_name(m.type), m.dev);
		m.result = -ENODEV;
	} else {
		if (m.type < MLX5_MP_TYPES && mlx5_mp_handlers[m.type].fn)
			m.result = mlx5_mp_handlers[m.type].fn(cdev, m.data);
		else
			m.result = -EINVAL;
		mlx5_common_dev_release(cdev);
	}
	memset(&reply, 0, sizeof(reply));
	rte_strlcpy(reply.name, req->name, sizeof(reply.name));
	reply.len_param = sizeof(m);
	memcpy(reply.param, &m, sizeof(m));
	return rte_mp_reply(&reply, peer);
}

static int
mlx5_mp_primary_init(void)
{
	if (rte_mp_action_register(MLX5_MP_NAME, mlx5_mp_action) == 0 ||
	    rte_errno == EEXIST)
		return 0;
	/* --no-shconf/--in-memory: no secondary process can come. */
	if (rte_errno == ENOTSUP)
		return 0;
	DRV_LOG(ERR, "cannot register the IPC action %s: %s", MLX5_MP_NAME,
		rte_strerror(rte_errno));
	return -rte_errno;
}

int
mlx5_mp_request(const char *name, enum mlx5_mp_type type, void *data,
		size_t len)
{
	struct timespec ts = { .tv_sec = MLX5_MP_TIMEOUT_S, .tv_nsec = 0 };
	struct rte_mp_reply reply = { 0 };
	struct mlx5_mp_msg m = { .type = type };
	struct rte_mp_msg req;
	int ret = 0;

	if (len > sizeof(m.data)) {
		DRV_LOG(ERR, "%s: a %s request of %zu bytes (%zu at most)",
			name, mlx5_mp_type_name(type), len, sizeof(m.data));
		rte_errno = EINVAL;
		return -EINVAL;
	}
	if (rte_eal_process_type() != RTE_PROC_SECONDARY) {
		DRV_LOG(ERR, "%s: a %s request made in the primary process",
			name, mlx5_mp_type_name(type));
		rte_errno = E_RTE_SECONDARY;
		return -E_RTE_SECONDARY;
	}
	memset(&req, 0, sizeof(req));
	rte_strlcpy(req.name, MLX5_MP_NAME, sizeof(req.name));
	rte_strlcpy(m.dev, name, sizeof(m.dev));
	memcpy(m.data, data, len);
	req.len_param = sizeof(m);
	memcpy(req.param, &m, sizeof(m));
	if (rte_mp_request_sync(&req, &reply, &ts) != 0 ||
	    reply.nb_received != 1) {
		ret = rte_errno != 0 ? -rte_errno : -ETIMEDOUT;
		if (reply.nb_received == 0 && reply.nb_sent == 1)
			ret = -ETIMEDOUT;
		DRV_LOG(ERR, "%s: %s request to the primary process failed: %s",
			name, mlx5_mp_type_name(type), rte_strerror(-ret));
		goto out;
	}
	if (reply.msgs[0].len_param != sizeof(m)) {
		DRV_LOG(ERR, "%s: a reply of %d bytes from the primary process",
			name, reply.msgs[0].len_param);
		ret = -EPROTO;
		goto out;
	}
	memcpy(&m, reply.msgs[0].param, sizeof(m));
	memcpy(data, m.data, len);
	ret = m.result;
out:
	free(reply.msgs);
	if (ret != 0)
		rte_errno = -ret;
	return ret;
}

/* Attach: the primary's record of the device, at a secondary's probe. */
static int
mlx5_mp_serve_attach(struct mlx5_common_device *cdev, void *data)
{
	uint64_t addr = (uint64_t)(uintptr_t)cdev;

	memcpy(data, &addr, sizeof(addr));
	return 0;
}

static int
mlx5_mp_req_attach(const char *name, struct mlx5_common_device **primary)
{
	uint64_t addr = 0;
	int ret = mlx5_mp_request(name, MLX5_MP_ATTACH, &addr, sizeof(addr));

	if (ret != 0) {
		DRV_LOG(ERR,
			"%s: the primary process has no record of this device to share: %s",
			name, strerror(-ret));
		return ret;
	}
	*primary = (struct mlx5_common_device *)(uintptr_t)addr;
	return 0;
}

/* A class driver's request, served by its driver in the primary. */
struct mlx5_mp_class_req {
	uint32_t drv_class;
	struct mlx5_mp_class_msg msg;
};

static int
mlx5_mp_serve_class(struct mlx5_common_device *cdev, void *data)
{
	struct mlx5_mp_class_req req;
	const struct mlx5_class_driver *drv;

	memcpy(&req, data, sizeof(req));
	drv = mlx5_class_driver_find(req.drv_class);
	if (drv == NULL || drv->mp_request == NULL ||
	    !(cdev->classes_loaded & req.drv_class))
		return -ENOTSUP;
	req.msg.result = 0;
	drv->mp_request(cdev, &req.msg);
	memcpy(data, &req, sizeof(req));
	return 0;
}

int
mlx5_mp_class_request(struct mlx5_common_device *cdev,
		      enum mlx5_class drv_class, struct mlx5_mp_class_msg *msg)
{
	struct mlx5_mp_class_req req = { .drv_class = drv_class };
	int ret;

	if (cdev == NULL || msg == NULL || !cdev->secondary) {
		DRV_LOG(ERR, "%s: %s", __func__,
			cdev == NULL || msg == NULL ?
				"NULL argument" :
				"not a secondary process's device");
		rte_errno = EINVAL;
		return -EINVAL;
	}
	req.msg = *msg;
	ret = mlx5_mp_request(cdev->dev->name, MLX5_MP_CLASS, &req,
			      sizeof(req));
	if (ret != 0) {
		if (ret == -ENOTSUP)
			DRV_LOG(ERR,
				"%s: the primary process has no %s driver to serve the request",
				cdev->dev->name, mlx5_class_name(drv_class));
		return ret;
	}
	*msg = req.msg;
	return 0;
}

static const struct mlx5_common_mp_ops mlx5_mp_ops = {
	.primary_init = mlx5_mp_primary_init,
	.attach = mlx5_mp_req_attach,
};

RTE_INIT(mlx5_mp_init)
{
	mlx5_mp_handler_register(MLX5_MP_ATTACH, "attach",
				 mlx5_mp_serve_attach);
	mlx5_mp_handler_register(MLX5_MP_CLASS, "class request",
				 mlx5_mp_serve_class);
	mlx5_common_mp_ops_register(&mlx5_mp_ops);
}
