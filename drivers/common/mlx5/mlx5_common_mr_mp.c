/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * The MR cache's multi-process half: a secondary queue's miss is looked up,
 * or registered, by the primary's cache (MLX5_MP_MR requests). Registered
 * from a constructor with the transport (mlx5_mp_handler_register()) and
 * with the MR cache (mlx5_mr_remote_lookup_register()); the MR cache itself
 * knows nothing of processes, and runs without this file.
 */

#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include <rte_common.h>

#include "mlx5_common.h"
#include "mlx5_common_log.h"
#include "mlx5_common_private.h"
#include "mlx5_common_mr_private.h"

/* The request and its reply. */
struct mlx5_mr_mp_req {
	uint64_t addr;
	uint64_t mp;	/* Mempool of the mbuf, or 0. */
	uint64_t start; /* Reply: the range and its key. */
	uint64_t end;
	uint32_t lkey;
	uint32_t gen;
};

static_assert(sizeof(struct mlx5_mr_mp_req) <= MLX5_MP_DATA_MAX,
	      "an MR request fits a multi-process message");

/* The primary: what its own queues' miss would find. */
static int
mlx5_mr_mp_serve(struct mlx5_common_device *cdev, void *data)
{
	struct mlx5_mr_mp_req req;
	struct mlx5_mr_range r;
	uint32_t gen = 0;
	int ret;

	if (cdev->mr_cache == NULL)
		return -ENODEV;
	memcpy(&req, data, sizeof(req));
	ret = mlx5_mr_lookup_below(cdev->mr_cache, (uintptr_t)req.addr,
				   (struct rte_mempool *)(uintptr_t)req.mp, &r,
				   &gen);
	if (ret != 0)
		return ret;
	req.start = r.start;
	req.end = r.end;
	req.lkey = r.lkey;
	req.gen = gen;
	memcpy(data, &req, sizeof(req));
	return 0;
}

/* A secondary's miss (mlx5_mr_remote_lookup_t). */
static int
mlx5_mr_mp_lookup(struct mlx5_mr_cache *cache, uintptr_t addr,
		  struct rte_mempool *mp, struct mlx5_mr_range *r,
		  uint32_t *gen)
{
	struct mlx5_mr_mp_req req = {
		.addr = addr,
		.mp = (uint64_t)(uintptr_t)mp,
	};
	int ret = mlx5_mp_request(cache->name, MLX5_MP_MR, &req, sizeof(req));

	if (ret != 0) {
		DRV_LOG(ERR,
			"%s: the primary process found no memory region for 0x%" PRIxPTR
			": %s",
			cache->name, addr, strerror(-ret));
		return ret;
	}
	r->start = (uintptr_t)req.start;
	r->end = (uintptr_t)req.end;
	r->lkey = req.lkey;
	*gen = req.gen;
	return 0;
}

RTE_INIT(mlx5_mr_mp_init)
{
	mlx5_mp_handler_register(MLX5_MP_MR, "memory registration",
				 mlx5_mr_mp_serve);
	mlx5_mr_remote_lookup_register(mlx5_mr_mp_lookup);
}
