/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * The common device: probe and remove, class driver dispatch, and the
 * device context and PD (opened here or imported from the application with
 * cmd_fd/pd_handle). The top of the common layer's core: it sets a device
 * up with the services below it (devargs, DEVX commands, MR cache, keys,
 * pacing, the registry of mlx5_common_dev.c) and lists it; the
 * multi-process layer plugs in (mlx5_common_mp_ops_register()).
 */

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_devargs.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_random.h>

#include "mlx5_malloc.h"
#include "mlx5_common.h"
#include "mlx5_common_log.h"
#include "mlx5_common_mr.h"
#include "mlx5_common_private.h"

/* Class drivers register from constructors, before any probe. */
static struct mlx5_class_driver_list mlx5_class_drivers =
	TAILQ_HEAD_INITIALIZER(mlx5_class_drivers);
static pthread_mutex_t mlx5_class_drivers_lock = PTHREAD_MUTEX_INITIALIZER;

/* Secondary-process support, when linked (mlx5_common_mp.c). */
static const struct mlx5_common_mp_ops *mlx5_mp_ops;

void
mlx5_common_mp_ops_register(const struct mlx5_common_mp_ops *ops)
{
	mlx5_mp_ops = ops;
}

void
mlx5_class_driver_register(struct mlx5_class_driver *driver)
{
	pthread_mutex_lock(&mlx5_class_drivers_lock);
	TAILQ_INSERT_TAIL(&mlx5_class_drivers, driver, next);
	pthread_mutex_unlock(&mlx5_class_drivers_lock);
}

const struct mlx5_class_driver *
mlx5_class_driver_find(uint32_t drv_class)
{
	struct mlx5_class_driver *drv;

	pthread_mutex_lock(&mlx5_class_drivers_lock);
	TAILQ_FOREACH(drv, &mlx5_class_drivers, next)
		if (drv->drv_class == drv_class)
			break;
	pthread_mutex_unlock(&mlx5_class_drivers_lock);
	return drv;
}

/* Open the device context, or import it from the application's cmd_fd. */
static int
mlx5_common_ctx_open(struct mlx5_common_device *cdev)
{
	const struct mlx5_glue *glue = cdev->glue;
	const char *name = cdev->dev->name;

	if (cdev->config.cmd_fd >= 0) {
		cdev->ctx = glue->import_device(cdev->config.cmd_fd);
		if (cdev->ctx == NULL) {
			rte_errno = errno ? errno : EINVAL;
			DRV_LOG(ERR, "%s: cannot import device context from cmd_fd=%d: %s",
				name, cdev->config.cmd_fd, strerror(rte_errno));
			return -rte_errno;
		}
		cdev->ctx_imported = true;
		if (cdev->ibv_dev != NULL &&
		    strcmp(cdev->ctx->device->name, cdev->ibv_dev->name) != 0) {
			DRV_LOG(ERR, "%s: cmd_fd=%d is a context of %s, not of %s",
				name, cdev->config.cmd_fd,
				cdev->ctx->device->name, cdev->ibv_dev->name);
			/* Do not close the application's fd on this error. */
			return -EINVAL;
		}
		return 0;
	}
	struct mlx5dv_context_attr attr = {
		.flags = MLX5DV_CONTEXT_FLAGS_DEVX,
	};

	cdev->ctx = glue->dv_open_device(cdev->ibv_dev, &attr);
	if (cdev->ctx == NULL) {
		rte_errno = errno ? errno : ENODEV;
		DRV_LOG(ERR, "%s: cannot open device %s with DEVX: %s", name,
			cdev->ibv_dev->name, strerror(rte_errno));
		return -rte_errno;
	}
	return 0;
}

static void
mlx5_common_ctx_close(struct mlx5_common_device *cdev, bool keep_fd)
{
	if (cdev->ctx == NULL)
		return;
	/*
	 * An imported context owns the fd the application dup'd for us and
	 * closes it. On a probe error before we accepted the import, the fd
	 * must stay the application's: hand the context a copy instead.
	 */
	if (keep_fd && cdev->ctx_imported) {
		int copy = dup(cdev->ctx->cmd_fd);

		if (copy >= 0)
			cdev->ctx->cmd_fd = copy;
	}
	if (cdev->glue->close_device(cdev->ctx) != 0)
		DRV_LOG(WARNING, "%s: closing the device context failed: %s",
			cdev->dev->name, strerror(errno));
	cdev->ctx = NULL;
	cdev->ctx_imported = false;
}

/* Allocate the PD, or import the application's by pd_handle. */
static int
mlx5_common_pd_open(struct mlx5_common_device *cdev)
{
	const struct mlx5_glue *glue = cdev->glue;
	const char *name = cdev->dev->name;
	int ret;

	if (cdev->ctx_imported) {
		cdev->pd = glue->import_pd(cdev->ctx, cdev->config.pd_handle);
		if (cdev->pd == NULL) {
			rte_errno = errno ? errno : EINVAL;
			DRV_LOG(ERR, "%s: cannot import PD pd_handle=%u: %s",
				name, cdev->config.pd_handle,
				strerror(rte_errno));
			return -rte_errno;
		}
		cdev->pd_imported = true;
	} else {
		cdev->pd = glue->alloc_pd(cdev->ctx);
		if (cdev->pd == NULL) {
			rte_errno = errno ? errno : ENOMEM;
			DRV_LOG(ERR, "%s: cannot allocate a PD: %s", name,
				strerror(rte_errno));
			return -rte_errno;
		}
	}
	ret = glue->query_pdn(cdev->pd, &cdev->pdn);
	if (ret) {
		rte_errno = ret;
		DRV_LOG(ERR, "%s: cannot get the PD number: %s", name,
			strerror(ret));
		return -ret;
	}
	return 0;
}

static void
mlx5_common_pd_close(struct mlx5_common_device *cdev)
{
	int ret;

	if (cdev->pd == NULL)
		return;
	/* An imported PD belongs to the application: never deallocate it. */
	if (cdev->pd_imported) {
		cdev->glue->unimport_pd(cdev->pd);
	} else {
		ret = cdev->glue->dealloc_pd(cdev->pd);
		if (ret)
			DRV_LOG(WARNING, "%s: deallocating the PD failed: %s",
				cdev->dev->name, strerror(ret));
	}
	cdev->pd = NULL;
	cdev->pd_imported = false;
}

static void
mlx5_common_classes_remove(struct mlx5_common_device *cdev)
{
	struct mlx5_class_driver *drv;

	TAILQ_FOREACH_REVERSE(drv, &mlx5_class_drivers, mlx5_class_driver_list,
			      next) {
		/* Every registered driver of a class that was probed. */
		if (!(cdev->classes_loaded & drv->drv_class))
			continue;
		if (drv->remove(cdev) != 0)
			DRV_LOG(WARNING, "%s: class %s driver %s failed to remove",
				cdev->dev->name, mlx5_class_name(drv->drv_class),
				drv->name);
	}
	cdev->classes_loaded = 0;
}

static int
mlx5_common_classes_probe(struct mlx5_common_device *cdev,
			  struct mlx5_kvargs_ctrl *kv)
{
	struct mlx5_class_driver *drv;
	uint32_t wanted = cdev->config.classes;
	uint32_t found = 0;
	int ret;

	TAILQ_FOREACH(drv, &mlx5_class_drivers, next) {
		if (!(wanted & drv->drv_class))
			continue;
		found |= drv->drv_class;
		if (cdev->secondary && !drv->secondary) {
			DRV_LOG(INFO, "%s: class %s driver %s works in the primary process only",
				cdev->dev->name,
				mlx5_class_name(drv->drv_class), drv->name);
			continue;
		}
		ret = drv->probe(cdev, kv);
		if (ret < 0) {
			/* The caller removes the classes probed before. */
			DRV_LOG(ERR, "%s: class %s driver %s failed to probe: %s",
				cdev->dev->name, mlx5_class_name(drv->drv_class),
				drv->name, strerror(-ret));
			rte_errno = -ret;
			return ret;
		}
		cdev->classes_loaded |= drv->drv_class;
	}
	for (uint32_t cls = 1; cls != 0 && cls <= wanted; cls <<= 1)
		if ((wanted & cls) && !(found & cls))
			DRV_LOG(NOTICE, "%s: no %s class driver is loaded; the common device is ready for the public API only",
				cdev->dev->name,
				mlx5_class_name((enum mlx5_class)cls));
	return 0;
}

/* Undo everything mlx5_common_dev_setup() did, in reverse. */
static void
mlx5_common_dev_teardown(struct mlx5_common_device *cdev, bool keep_fd)
{
	mlx5_keys_release_all(cdev);
	mlx5_pp_release_all(cdev);
	mlx5_mr_cache_destroy(cdev); /* MRs hold the PD. */
	mlx5_common_pd_close(cdev);
	mlx5_common_ctx_close(cdev, keep_fd);
	if (cdev->backend->release_device != NULL && cdev->ibv_dev != NULL)
		cdev->backend->release_device(cdev);
	cdev->ibv_dev = NULL;
	mlx5_common_dev_lists_release(cdev);
}

/* Free a secondary process's record (nothing of the device is its). */
static void
mlx5_common_dev_teardown_secondary(struct mlx5_common_device *cdev)
{
	mlx5_mr_cache_destroy(cdev);
	if (cdev->backend->detach_secondary != NULL)
		cdev->backend->detach_secondary(cdev);
	mlx5_free(cdev);
}

static int
mlx5_common_dev_setup(struct mlx5_common_device *cdev,
		      struct mlx5_kvargs_ctrl *kv)
{
	int ret;

	ret = mlx5_common_config_parse(kv, &cdev->config);
	if (ret)
		return ret;
	ret = cdev->backend->find_device(cdev, kv, &cdev->ibv_dev);
	if (ret)
		return ret;
	ret = mlx5_common_ctx_open(cdev);
	if (ret)
		return ret;
	ret = mlx5_common_pd_open(cdev);
	if (ret)
		return ret;
	ret = mlx5_devx_cmd_query_hca_attr(cdev, &cdev->caps);
	if (ret) {
		DRV_LOG(ERR, "%s: cannot query device capabilities",
			cdev->dev->name);
		return ret;
	}
	ret = mlx5_mr_cache_create(cdev);
	if (ret)
		return ret;
	DRV_LOG(INFO, "%s: %s device %s, vhca_id %u, pdn %u%s", cdev->dev->name,
		cdev->glue->name, cdev->ctx->device->name, cdev->caps.vhca_id,
		cdev->pdn, cdev->ctx_imported ? " (imported context and PD)" :
		"");
	return 0;
}

/* The fields of a new device record (zeroed) both processes set. */
static void
mlx5_common_dev_init(struct mlx5_common_device *cdev,
		     struct rte_device *eal_dev,
		     const struct mlx5_backend *backend)
{
	cdev->dev = eal_dev;
	cdev->backend = backend;
	cdev->glue = backend->glue;
	rte_spinlock_init(&cdev->lock);
	/* Devices start apart so that their keys rarely coincide. */
	cdev->mkey_variant = (uint32_t)rte_rand();
	TAILQ_INIT(&cdev->pp_entries);
	TAILQ_INIT(&cdev->queues);
	TAILQ_INIT(&cdev->class_devs);
	pthread_mutex_init(&cdev->keys_lock, NULL);
	TAILQ_INIT(&cdev->keys);
}

/*
 * A secondary process: a record of the primary's device (asked over IPC),
 * its MR cache asking the primary, then the class drivers that work here.
 */
static int
mlx5_common_dev_probe_secondary(struct rte_device *eal_dev,
				const struct mlx5_backend *backend,
				struct mlx5_kvargs_ctrl *kv)
{
	struct mlx5_common_device *primary = NULL;
	struct mlx5_common_device *cdev;
	int ret;

	if (mlx5_mp_ops == NULL) {
		DRV_LOG(ERR, "%s: this build of the common library has no multi-process support",
			eal_dev->name);
		rte_errno = ENOTSUP;
		return -ENOTSUP;
	}
	if (backend->attach_secondary == NULL) {
		DRV_LOG(ERR, "%s: the %s backend does not support secondary processes yet",
			eal_dev->name, backend->name);
		rte_errno = ENOTSUP;
		return -ENOTSUP;
	}
	ret = mlx5_mp_ops->attach(eal_dev->name, &primary);
	if (ret != 0)
		return ret;
	cdev = mlx5_malloc(NULL, MLX5_MEM_ZERO | MLX5_MEM_SYS, sizeof(*cdev),
			   0, SOCKET_ID_ANY);
	if (cdev == NULL) {
		rte_errno = ENOMEM;
		return -ENOMEM;
	}
	cdev->secondary = true;
	cdev->primary = primary;
	/* Plain data in shared memory: the primary's values. */
	cdev->config = primary->config;
	cdev->caps = primary->caps;
	cdev->pdn = primary->pdn;
	mlx5_common_dev_init(cdev, eal_dev, backend);
	ret = backend->attach_secondary(cdev, kv);
	if (ret != 0)
		goto error;
	ret = mlx5_mr_cache_create_secondary(cdev);
	if (ret != 0)
		goto error;
	ret = mlx5_common_dev_list_add(cdev);
	if (ret != 0)
		goto error;
	/* The devargs were checked by the primary: no unused-key check. */
	ret = mlx5_common_classes_probe(cdev, kv);
	if (ret != 0) {
		mlx5_common_dev_list_del(eal_dev);
		mlx5_common_classes_remove(cdev);
		goto error;
	}
	DRV_LOG(INFO, "%s: attached to the primary process's device (secondary process)",
		eal_dev->name);
	return 0;
error:
	mlx5_common_dev_teardown_secondary(cdev);
	rte_errno = -ret;
	return ret;
}

int
mlx5_common_dev_probe(struct rte_device *eal_dev,
		      const struct mlx5_backend *backend)
{
	struct mlx5_kvargs_ctrl kv = { 0 };
	struct mlx5_common_device *cdev;
	int ret;

	if (backend == NULL || backend->glue == NULL) {
		DRV_LOG(ERR, "%s: no backend", eal_dev->name);
		rte_errno = ENODEV;
		return -ENODEV;
	}
	if (mlx5_common_dev_listed(eal_dev)) {
		DRV_LOG(ERR, "%s: already probed", eal_dev->name);
		rte_errno = EEXIST;
		return -EEXIST;
	}
	if (eal_dev->devargs != NULL && eal_dev->devargs->args != NULL &&
	    eal_dev->devargs->args[0] != '\0') {
		kv.kvlist = rte_kvargs_parse(eal_dev->devargs->args, NULL);
		if (kv.kvlist == NULL) {
			/* Not the text: a devarg may be a secret. */
			DRV_LOG(ERR, "%s: cannot parse devargs (key=value pairs separated by commas)",
				eal_dev->name);
			rte_errno = EINVAL;
			return -EINVAL;
		}
	}
	if (rte_eal_process_type() != RTE_PROC_PRIMARY) {
		ret = mlx5_common_dev_probe_secondary(eal_dev, backend, &kv);
		rte_kvargs_free(kv.kvlist);
		if (ret != 0)
			rte_errno = -ret;
		return ret;
	}
	ret = mlx5_mp_ops != NULL ? mlx5_mp_ops->primary_init() : 0;
	if (ret != 0) {
		rte_kvargs_free(kv.kvlist);
		rte_errno = -ret;
		return ret;
	}
	/* Before the devargs: sys_mem_en cannot apply to the device itself. */
	cdev = mlx5_malloc(NULL, MLX5_MEM_ZERO | MLX5_MEM_RTE, sizeof(*cdev), 0,
			   SOCKET_ID_ANY);
	if (cdev == NULL) {
		rte_kvargs_free(kv.kvlist);
		rte_errno = ENOMEM;
		return -ENOMEM;
	}
	mlx5_common_dev_init(cdev, eal_dev, backend);
	ret = mlx5_common_dev_setup(cdev, &kv);
	if (ret)
		goto error;
	/* The private-IOVA flag must be findable once a device exists. */
	ret = mlx5_dynflags_register();
	if (ret)
		goto error;
	/*
	 * Listed before the classes probe, so that they (and the public API)
	 * find the device; the list lock is not held while they run.
	 */
	/* -EEXIST: another thread probed the same device meanwhile. */
	ret = mlx5_common_dev_list_add(cdev);
	if (ret != 0)
		goto error;
	ret = mlx5_common_classes_probe(cdev, &kv);
	if (ret == 0)
		ret = mlx5_kvargs_check_unused(eal_dev->name, &kv);
	if (ret) {
		/* As a removal: unlisted, no call in flight, then the classes. */
		mlx5_common_dev_list_del(eal_dev);
		mlx5_common_dev_wait_users(cdev);
		mlx5_common_classes_remove(cdev);
		goto error;
	}
	rte_kvargs_free(kv.kvlist);
	return 0;
error:
	mlx5_common_dev_teardown(cdev, true);
	rte_kvargs_free(kv.kvlist);
	mlx5_free(cdev);
	rte_errno = -ret;
	return ret;
}

int
mlx5_common_dev_remove(struct rte_device *eal_dev)
{
	struct mlx5_common_device *cdev;

	cdev = mlx5_common_dev_list_del(eal_dev);
	if (cdev == NULL)
		return -ENODEV;
	mlx5_common_dev_wait_users(cdev);
	mlx5_common_classes_remove(cdev);
	if (cdev->secondary) {
		mlx5_common_dev_teardown_secondary(cdev);
		return 0;
	}
	mlx5_common_dev_teardown(cdev, false);
	mlx5_free(cdev);
	return 0;
}
