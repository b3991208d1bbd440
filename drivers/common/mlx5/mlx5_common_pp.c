/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/* Packet-pacing entries over the backend's mlx5dv_pp_alloc(). */

#include <errno.h>
#include <string.h>

#include <rte_errno.h>

#include "mlx5_malloc.h"
#include "mlx5_common.h"
#include "mlx5_common_log.h"
#include "mlx5_common_pp.h"
#include "mlx5_common_private.h"

/* Check @attr against the device's QoS capabilities. */
static int
mlx5_pp_attr_check(struct mlx5_common_device *cdev,
		   const struct mlx5_pp_attr *attr)
{
	const struct mlx5_hca_qos_attr *qos = &cdev->caps.qos;
	const char *name = cdev->dev->name;

	if (!qos->sup || !qos->packet_pacing) {
		DRV_LOG(ERR, "%s: device has no packet pacing", name);
		return -ENOTSUP;
	}
	/* Without it the kernel offers no rate entries to user space. */
	if (!qos->pp_uid) {
		DRV_LOG(ERR, "%s: packet pacing: device lacks the packet_pacing_uid capability",
			name);
		return -ENOTSUP;
	}
	if (attr->rate_mode != MLX5_PP_RATE_MODE_DATA_RATE &&
	    attr->rate_mode != MLX5_PP_RATE_MODE_WQE_RATE) {
		DRV_LOG(ERR, "%s: packet pacing: bad rate mode %u", name,
			attr->rate_mode);
		return -EINVAL;
	}
	if (attr->rate_kbps == 0 || attr->rate_kbps < qos->min_rate_kbps ||
	    attr->rate_kbps > qos->max_rate_kbps) {
		DRV_LOG(ERR, "%s: packet pacing: rate %u kbps outside the device range [%u, %u] kbps",
			name, attr->rate_kbps, qos->min_rate_kbps,
			qos->max_rate_kbps);
		return -EINVAL;
	}
	if (attr->burst_bytes != 0 && !qos->burst_bound) {
		DRV_LOG(ERR, "%s: packet pacing: device cannot bound bursts",
			name);
		return -ENOTSUP;
	}
	if (attr->typical_pkt_size != 0 && !qos->typical_size) {
		DRV_LOG(ERR, "%s: packet pacing: device ignores the typical packet size",
			name);
		return -ENOTSUP;
	}
	return 0;
}

int
mlx5_pp_alloc(struct mlx5_common_device *cdev,
	      const struct mlx5_pp_attr *attr, struct mlx5_pp_entry **entry)
{
	uint8_t ctx[MLX5_ST_SZ_BYTES(set_pp_rate_limit_context)] = { 0 };
	struct mlx5_pp_entry *e;
	int ret;

	if (cdev == NULL || attr == NULL || entry == NULL) {
		rte_errno = EINVAL;
		return -EINVAL;
	}
	ret = mlx5_pp_attr_check(cdev, attr);
	if (ret) {
		rte_errno = -ret;
		return ret;
	}
	e = mlx5_malloc(cdev, MLX5_MEM_ZERO, sizeof(*e), 0, SOCKET_ID_ANY);
	if (e == NULL) {
		rte_errno = ENOMEM;
		return -ENOMEM;
	}
	MLX5_SET(set_pp_rate_limit_context, ctx, rate_limit, attr->rate_kbps);
	MLX5_SET(set_pp_rate_limit_context, ctx, burst_upper_bound,
		 attr->burst_bytes);
	MLX5_SET(set_pp_rate_limit_context, ctx, rate_mode, attr->rate_mode);
	MLX5_SET(set_pp_rate_limit_context, ctx, typical_packet_size,
		 attr->typical_pkt_size);
	errno = 0;
	e->pp = cdev->glue->dv_pp_alloc(cdev->ctx, sizeof(ctx), ctx,
		attr->dedicated ? MLX5DV_PP_ALLOC_FLAGS_DEDICATED_INDEX : 0);
	if (e->pp == NULL) {
		ret = errno ? errno : EIO;
		DRV_LOG(ERR, "%s: packet pacing: cannot allocate a %s entry for %u kbps: %s",
			cdev->dev->name, attr->dedicated ? "dedicated" : "shared",
			attr->rate_kbps, strerror(ret));
		mlx5_free(e);
		rte_errno = ret;
		return -ret;
	}
	e->index = e->pp->index;
	e->attr = *attr;
	rte_spinlock_lock(&cdev->lock);
	TAILQ_INSERT_TAIL(&cdev->pp_entries, e, next);
	rte_spinlock_unlock(&cdev->lock);
	*entry = e;
	return 0;
}

int
mlx5_pp_free(struct mlx5_common_device *cdev, struct mlx5_pp_entry *entry)
{
	struct mlx5_pp_entry *e;

	if (cdev == NULL || entry == NULL) {
		rte_errno = EINVAL;
		return -EINVAL;
	}
	rte_spinlock_lock(&cdev->lock);
	/* Compare pointers only: a stale entry must not be dereferenced. */
	TAILQ_FOREACH(e, &cdev->pp_entries, next)
		if (e == entry)
			break;
	if (e != NULL)
		TAILQ_REMOVE(&cdev->pp_entries, e, next);
	rte_spinlock_unlock(&cdev->lock);
	if (e == NULL) {
		DRV_LOG(ERR, "%s: packet pacing: %p is not a live entry of this device",
			cdev->dev->name, (void *)entry);
		rte_errno = EINVAL;
		return -EINVAL;
	}
	cdev->glue->dv_pp_free(e->pp);
	mlx5_free(e);
	return 0;
}

void
mlx5_pp_release_all(struct mlx5_common_device *cdev)
{
	struct mlx5_pp_entry *e;

	while ((e = TAILQ_FIRST(&cdev->pp_entries)) != NULL) {
		DRV_LOG(WARNING, "%s: packet pacing entry %u still allocated at close; freeing it",
			cdev->dev->name, e->index);
		TAILQ_REMOVE(&cdev->pp_entries, e, next);
		cdev->glue->dv_pp_free(e->pp);
		mlx5_free(e);
	}
}
