/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * Secondary processes (mlx5_common_mp.h): the requests a secondary makes
 * of the primary over DPDK's IPC, and the primary's answers. One action,
 * MLX5_MP_NAME, registered by the primary at its first device probe; each
 * request names the device (its EAL name, the same in both processes) and
 * is served on the primary's record of it, held against removal meanwhile.
 */

#include <assert.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_mempool.h>
#include <rte_string_fns.h>

#include "mlx5_common.h"
#include "mlx5_common_devx.h"
#include "mlx5_common_log.h"
#include "mlx5_common_mp.h"
#include "mlx5_common_mr.h"
#include "mlx5_common_mr_private.h"
#include "mlx5_common_private.h"

#define MLX5_MP_NAME "mlx5_common_mp"
/* Seconds a secondary waits for the primary's reply. */
#define MLX5_MP_TIMEOUT_S 5

enum mlx5_mp_type {
	MLX5_MP_ATTACH = 1,  /* The primary's record of the device. */
	MLX5_MP_MR,          /* A queue's MR cache miss. */
	MLX5_MP_CLASS,       /* A class driver's request. */
};

struct mlx5_mp_msg {
	uint32_t type;
	int32_t result;                  /* Reply: 0 or a negative errno. */
	char dev[RTE_DEV_NAME_MAX_LEN];
	union {
		struct {
			uint64_t cdev;   /* Reply: the primary's record. */
		} attach;
		struct {
			uint64_t addr;
			uint64_t mp;     /* Mempool of the mbuf, or 0. */
			uint64_t start;  /* Reply: the range and its key. */
			uint64_t end;
			uint32_t lkey;
			uint32_t gen;
		} mr;
		struct {
			uint32_t drv_class;
			struct mlx5_mp_class_msg msg;
		} cls;
	};
};

static_assert(sizeof(struct mlx5_mp_msg) <= RTE_MP_MAX_PARAM_LEN,
	      "an IPC message's parameters are limited");

static const char *
mlx5_mp_type_name(uint32_t type)
{
	switch (type) {
	case MLX5_MP_ATTACH:
		return "attach";
	case MLX5_MP_MR:
		return "memory registration";
	case MLX5_MP_CLASS:
		return "class request";
	default:
		return "unknown";
	}
}

/* The primary: serve @m on its device (held), in place. */
static void
mlx5_mp_serve(struct mlx5_common_device *cdev, struct mlx5_mp_msg *m)
{
	switch (m->type) {
	case MLX5_MP_ATTACH:
		m->attach.cdev = (uint64_t)(uintptr_t)cdev;
		m->result = 0;
		break;
	case MLX5_MP_MR: {
		struct mlx5_mr_range r;
		uint32_t gen = 0;

		if (cdev->mr_cache == NULL) {
			m->result = -ENODEV;
			break;
		}
		m->result = mlx5_mr_lookup_below(cdev->mr_cache,
				(uintptr_t)m->mr.addr,
				(struct rte_mempool *)(uintptr_t)m->mr.mp,
				&r, &gen);
		if (m->result == 0) {
			m->mr.start = r.start;
			m->mr.end = r.end;
			m->mr.lkey = r.lkey;
			m->mr.gen = gen;
		}
		break;
	}
	case MLX5_MP_CLASS: {
		const struct mlx5_class_driver *drv =
			mlx5_class_driver_find(m->cls.drv_class);

		if (drv == NULL || drv->mp_request == NULL ||
		    !(cdev->classes_loaded & m->cls.drv_class)) {
			m->result = -ENOTSUP;
			break;
		}
		m->cls.msg.result = 0;
		drv->mp_request(cdev, &m->cls.msg);
		m->result = 0;
		break;
	}
	default:
		m->result = -EINVAL;
		break;
	}
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
		DRV_LOG(ERR, "IPC: %s request for %s: no such device in the primary process",
			mlx5_mp_type_name(m.type), m.dev);
		m.result = -ENODEV;
	} else {
		mlx5_mp_serve(cdev, &m);
		mlx5_common_dev_release(cdev);
	}
	memset(&reply, 0, sizeof(reply));
	rte_strlcpy(reply.name, req->name, sizeof(reply.name));
	reply.len_param = sizeof(m);
	memcpy(reply.param, &m, sizeof(m));
	return rte_mp_reply(&reply, peer);
}

int
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

/* A secondary: send @m about device @name and take the reply into it. */
static int
mlx5_mp_request(const char *name, struct mlx5_mp_msg *m)
{
	struct timespec ts = { .tv_sec = MLX5_MP_TIMEOUT_S, .tv_nsec = 0 };
	struct rte_mp_reply reply = { 0 };
	struct rte_mp_msg req;
	int ret = 0;

	if (rte_eal_process_type() != RTE_PROC_SECONDARY) {
		DRV_LOG(ERR, "%s: a %s request made in the primary process",
			name, mlx5_mp_type_name(m->type));
		rte_errno = E_RTE_SECONDARY;
		return -E_RTE_SECONDARY;
	}
	memset(&req, 0, sizeof(req));
	rte_strlcpy(req.name, MLX5_MP_NAME, sizeof(req.name));
	rte_strlcpy(m->dev, name, sizeof(m->dev));
	req.len_param = sizeof(*m);
	memcpy(req.param, m, sizeof(*m));
	if (rte_mp_request_sync(&req, &reply, &ts) != 0 ||
	    reply.nb_received != 1) {
		ret = rte_errno != 0 ? -rte_errno : -ETIMEDOUT;
		if (reply.nb_received == 0 && reply.nb_sent == 1)
			ret = -ETIMEDOUT;
		DRV_LOG(ERR, "%s: %s request to the primary process failed: %s",
			name, mlx5_mp_type_name(m->type), rte_strerror(-ret));
		goto out;
	}
	if (reply.msgs[0].len_param != sizeof(*m)) {
		DRV_LOG(ERR, "%s: a reply of %d bytes from the primary process",
			name, reply.msgs[0].len_param);
		ret = -EPROTO;
		goto out;
	}
	memcpy(m, reply.msgs[0].param, sizeof(*m));
	ret = m->result;
	if (ret != 0 && m->type != MLX5_MP_CLASS)
		DRV_LOG(ERR, "%s: the primary process refused a %s request: %s",
			name, mlx5_mp_type_name(m->type), strerror(-ret));
out:
	free(reply.msgs);
	if (ret != 0)
		rte_errno = -ret;
	return ret;
}

int
mlx5_mp_req_attach(const char *name, struct mlx5_common_device **primary)
{
	struct mlx5_mp_msg m = { .type = MLX5_MP_ATTACH };
	int ret = mlx5_mp_request(name, &m);

	if (ret != 0)
		return ret;
	*primary = (struct mlx5_common_device *)(uintptr_t)m.attach.cdev;
	return 0;
}

int
mlx5_mp_req_mr(struct mlx5_mr_cache *cache, uintptr_t addr,
	       struct rte_mempool *mp, struct mlx5_mr_range *r, uint32_t *gen)
{
	struct mlx5_mp_msg m = {
		.type = MLX5_MP_MR,
		.mr = { .addr = addr, .mp = (uint64_t)(uintptr_t)mp },
	};
	int ret = mlx5_mp_request(cache->name, &m);

	if (ret != 0)
		return ret;
	r->start = (uintptr_t)m.mr.start;
	r->end = (uintptr_t)m.mr.end;
	r->lkey = m.mr.lkey;
	*gen = m.mr.gen;
	return 0;
}

int
mlx5_mp_class_request(struct mlx5_common_device *cdev,
		      enum mlx5_class drv_class, struct mlx5_mp_class_msg *msg)
{
	struct mlx5_mp_msg m = {
		.type = MLX5_MP_CLASS,
		.cls = { .drv_class = drv_class },
	};
	int ret;

	if (cdev == NULL || msg == NULL || !cdev->secondary) {
		DRV_LOG(ERR, "%s: %s", __func__, cdev == NULL || msg == NULL ?
			"NULL argument" : "not a secondary process's device");
		rte_errno = EINVAL;
		return -EINVAL;
	}
	m.cls.msg = *msg;
	ret = mlx5_mp_request(cdev->dev->name, &m);
	if (ret != 0) {
		if (m.result != 0)
			DRV_LOG(ERR, "%s: the primary process has no %s driver to serve the request",
				cdev->dev->name, mlx5_class_name(drv_class));
		return ret;
	}
	*msg = m.cls.msg;
	return 0;
}

int
mlx5_uar_import(struct mlx5_common_device *cdev,
		const struct mlx5_uar *primary, struct mlx5_uar *uar)
{
	int ret;

	if (cdev == NULL || primary == NULL || uar == NULL ||
	    !cdev->secondary) {
		DRV_LOG(ERR, "%s: %s", __func__,
			cdev == NULL || primary == NULL || uar == NULL ?
			"NULL argument" : "not a secondary process's device");
		rte_errno = EINVAL;
		return -EINVAL;
	}
	memset(uar, 0, sizeof(*uar));
	if (cdev->backend->uar_import == NULL) {
		DRV_LOG(ERR, "%s: the %s backend does not support secondary processes yet",
			cdev->dev->name, cdev->backend->name);
		rte_errno = ENOTSUP;
		return -ENOTSUP;
	}
	ret = cdev->backend->uar_import(cdev, primary->page_id,
					primary->mmap_off, uar);
	if (ret != 0) {
		DRV_LOG(ERR, "%s: cannot reach UAR page %u from this process: %s",
			cdev->dev->name, primary->page_id, strerror(-ret));
		memset(uar, 0, sizeof(*uar));
		rte_errno = -ret;
	}
	return ret;
}

void
mlx5_uar_unimport(struct mlx5_common_device *cdev, struct mlx5_uar *uar)
{
	if (cdev == NULL || uar == NULL || uar->obj == NULL)
		return;
	if (cdev->backend->uar_unimport != NULL)
		cdev->backend->uar_unimport(cdev, uar);
	memset(uar, 0, sizeof(*uar));
}
