/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * The device registry: the list of probed common devices and its lock,
 * lookup and holding (acquire/release) for the public API, telemetry and
 * the multi-process layer, and the lists a device record keeps of what was
 * made on it (DEVX queues, class devices) for its readers. A leaf of the
 * common layer: it calls nothing of the library but the log and malloc.
 * Probe and remove (mlx5_common.c) list and unlist devices here.
 */

#include <pthread.h>
#include <sched.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_string_fns.h>

#include "mlx5_malloc.h"
#include "mlx5_common.h"
#include "mlx5_common_log.h"
#include "mlx5_common_private.h"

static TAILQ_HEAD(, mlx5_common_device)
	mlx5_devices = TAILQ_HEAD_INITIALIZER(mlx5_devices);
/*
 * Guards the list; probe and remove may run from any thread (hotplug).
 * Never held while a class driver runs: it may look devices up.
 */
static pthread_mutex_t mlx5_devices_lock = PTHREAD_MUTEX_INITIALIZER;

static struct mlx5_common_device *
mlx5_common_dev_lookup(const struct rte_device *eal_dev)
{
	struct mlx5_common_device *cdev;

	TAILQ_FOREACH (cdev, &mlx5_devices, next)
		if (cdev->dev == eal_dev)
			return cdev;
	return NULL;
}

int
mlx5_common_dev_list_add(struct mlx5_common_device *cdev)
{
	int ret = 0;

	pthread_mutex_lock(&mlx5_devices_lock);
	if (mlx5_common_dev_lookup(cdev->dev) != NULL)
		ret = -EEXIST;
	else
		TAILQ_INSERT_TAIL(&mlx5_devices, cdev, next);
	pthread_mutex_unlock(&mlx5_devices_lock);
	if (ret != 0) {
		DRV_LOG(ERR, "%s: already probed", cdev->dev->name);
		rte_errno = -ret;
	}
	return ret;
}

bool
mlx5_common_dev_listed(const struct rte_device *eal_dev)
{
	bool listed;

	pthread_mutex_lock(&mlx5_devices_lock);
	listed = mlx5_common_dev_lookup(eal_dev) != NULL;
	pthread_mutex_unlock(&mlx5_devices_lock);
	return listed;
}

struct mlx5_common_device *
mlx5_common_dev_list_del(const struct rte_device *eal_dev)
{
	struct mlx5_common_device *cdev;

	pthread_mutex_lock(&mlx5_devices_lock);
	cdev = mlx5_common_dev_lookup(eal_dev);
	if (cdev != NULL)
		TAILQ_REMOVE(&mlx5_devices, cdev, next);
	pthread_mutex_unlock(&mlx5_devices_lock);
	if (cdev == NULL)
		rte_errno = ENODEV;
	return cdev;
}

/* Hold the first listed device @match accepts; NULL with ENODEV. */
static struct mlx5_common_device *
mlx5_common_dev_acquire_if(bool (*match)(const struct mlx5_common_device *,
					 const void *),
			   const void *key)
{
	struct mlx5_common_device *cdev;

	pthread_mutex_lock(&mlx5_devices_lock);
	TAILQ_FOREACH (cdev, &mlx5_devices, next)
		if (match(cdev, key))
			break;
	if (cdev != NULL && cdev->secondary) {
		/* The device is the primary's: nothing here to hand out. */
		pthread_mutex_unlock(&mlx5_devices_lock);
		DRV_LOG(ERR,
			"%s: in a secondary process; the public API works in the primary process",
			cdev->dev->name);
		rte_errno = E_RTE_SECONDARY;
		return NULL;
	}
	if (cdev != NULL)
		__atomic_fetch_add(&cdev->users, 1, __ATOMIC_ACQUIRE);
	pthread_mutex_unlock(&mlx5_devices_lock);
	if (cdev == NULL)
		rte_errno = ENODEV;
	return cdev;
}

static bool
mlx5_common_dev_is(const struct mlx5_common_device *cdev, const void *eal_dev)
{
	return cdev->dev == eal_dev;
}

static bool
mlx5_common_dev_named(const struct mlx5_common_device *cdev, const void *name)
{
	return strcmp(cdev->dev->name, name) == 0;
}

struct mlx5_common_device *
mlx5_common_dev_acquire(const struct rte_device *eal_dev)
{
	if (eal_dev == NULL) {
		rte_errno = ENODEV;
		return NULL;
	}
	return mlx5_common_dev_acquire_if(mlx5_common_dev_is, eal_dev);
}

struct mlx5_common_device *
mlx5_common_dev_acquire_by_name(const char *name)
{
	if (name == NULL) {
		rte_errno = ENODEV;
		return NULL;
	}
	return mlx5_common_dev_acquire_if(mlx5_common_dev_named, name);
}

unsigned int
mlx5_common_dev_names(void (*fn)(const char *name, void *arg), void *arg)
{
	struct mlx5_common_device *cdev;
	unsigned int n = 0;

	pthread_mutex_lock(&mlx5_devices_lock);
	TAILQ_FOREACH (cdev, &mlx5_devices, next) {
		fn(cdev->dev->name, arg);
		n++;
	}
	pthread_mutex_unlock(&mlx5_devices_lock);
	return n;
}

void
mlx5_common_dev_release(struct mlx5_common_device *cdev)
{
	__atomic_fetch_sub(&cdev->users, 1, __ATOMIC_RELEASE);
}

void
mlx5_common_dev_wait_users(struct mlx5_common_device *cdev)
{
	while (__atomic_load_n(&cdev->users, __ATOMIC_ACQUIRE) != 0)
		sched_yield();
}

struct mlx5_common_device *
mlx5_common_dev_get(const struct rte_device *eal_dev)
{
	struct mlx5_common_device *cdev;

	pthread_mutex_lock(&mlx5_devices_lock);
	cdev = eal_dev != NULL ? mlx5_common_dev_lookup(eal_dev) : NULL;
	pthread_mutex_unlock(&mlx5_devices_lock);
	if (cdev == NULL)
		rte_errno = ENODEV;
	return cdev;
}

void
mlx5_queue_track_add(struct mlx5_common_device *cdev, enum mlx5_queue_kind kind,
		     const struct mlx5_devx_obj *obj, uint32_t log_size,
		     uint32_t cqn)
{
	struct mlx5_queue_track *q;

	q = mlx5_malloc(cdev, MLX5_MEM_ZERO, sizeof(*q), 0, SOCKET_ID_ANY);
	if (q == NULL) {
		/* A list for readers must not fail a queue: count the miss. */
		__atomic_fetch_add(&cdev->queues_untracked, 1,
				   __ATOMIC_RELAXED);
		return;
	}
	q->obj = obj;
	q->kind = kind;
	q->id = obj->id;
	q->log_size = log_size;
	q->cqn = cqn;
	rte_spinlock_lock(&cdev->lock);
	TAILQ_INSERT_TAIL(&cdev->queues, q, next);
	rte_spinlock_unlock(&cdev->lock);
}

void
mlx5_queue_track_del(struct mlx5_common_device *cdev,
		     const struct mlx5_devx_obj *obj)
{
	struct mlx5_queue_track *q;

	rte_spinlock_lock(&cdev->lock);
	TAILQ_FOREACH (q, &cdev->queues, next)
		if (q->obj == obj)
			break;
	if (q != NULL)
		TAILQ_REMOVE(&cdev->queues, q, next);
	rte_spinlock_unlock(&cdev->lock);
	mlx5_free(q);
}

void
mlx5_class_dev_info_add(struct mlx5_common_device *cdev,
			enum mlx5_class drv_class, const char *kind,
			const char *name, uint16_t id)
{
	struct mlx5_class_dev_info *info;

	if (cdev == NULL || kind == NULL || name == NULL)
		return;
	info = mlx5_malloc(cdev, MLX5_MEM_ZERO, sizeof(*info), 0,
			   SOCKET_ID_ANY);
	if (info == NULL) {
		DRV_LOG(WARNING, "%s: no memory to list %s %s in telemetry",
			cdev->dev->name, kind, name);
		return;
	}
	info->drv_class = drv_class;
	info->id = id;
	rte_strscpy(info->kind, kind, sizeof(info->kind));
	rte_strscpy(info->name, name, sizeof(info->name));
	rte_spinlock_lock(&cdev->lock);
	TAILQ_INSERT_TAIL(&cdev->class_devs, info, next);
	rte_spinlock_unlock(&cdev->lock);
}

void
mlx5_class_dev_info_del(struct mlx5_common_device *cdev,
			enum mlx5_class drv_class, uint16_t id)
{
	struct mlx5_class_dev_info *info;

	if (cdev == NULL)
		return;
	rte_spinlock_lock(&cdev->lock);
	TAILQ_FOREACH (info, &cdev->class_devs, next)
		if (info->drv_class == drv_class && info->id == id)
			break;
	if (info != NULL)
		TAILQ_REMOVE(&cdev->class_devs, info, next);
	rte_spinlock_unlock(&cdev->lock);
	mlx5_free(info);
}

void
mlx5_common_dev_lists_release(struct mlx5_common_device *cdev)
{
	struct mlx5_queue_track *q;
	struct mlx5_class_dev_info *info;

	/* Unlisted and no holder left: no lock needed, none taken. */
	while ((q = TAILQ_FIRST(&cdev->queues)) != NULL) {
		TAILQ_REMOVE(&cdev->queues, q, next);
		mlx5_free(q);
	}
	while ((info = TAILQ_FIRST(&cdev->class_devs)) != NULL) {
		TAILQ_REMOVE(&cdev->class_devs, info, next);
		mlx5_free(info);
	}
}
