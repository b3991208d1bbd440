/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * The keys the public API hands out (rte_pmd_mlx5.c): exports, private
 * registrations, crossing mkeys and aliases, one list per device.
 *
 * Every key is an entry of the device's key list, reference counted:
 * mlx5_keys_release() drops one reference, the last drop destroys the key.
 * Owner-side keys (exports, private registrations) are shared: the same
 * request returns the same key and takes a reference, as only this device
 * can revoke them. Importer keys (crossing, alias) are never shared: the
 * owner may revoke its export at any time, and only the device knows
 * whether it did, so every request asks the device anew and a revoked
 * export fails the request instead of returning a dead key.
 * The list and every device command on it run under the device's keys_lock,
 * so calls from several threads are safe.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_errno.h>

#include "mlx5_malloc.h"
#include "mlx5_common.h"
#include "mlx5_common_log.h"
#include "mlx5_common_private.h"

enum mlx5_key_kind {
	MLX5_KEY_EXPORT,    /* Registered + allowed for other vHCAs. */
	MLX5_KEY_PRIVATE,   /* Registered for private-IOVA mbufs. */
	MLX5_KEY_CROSSING,  /* Crossing mkey to another vHCA's mkey. */
	MLX5_KEY_ALIAS,     /* Alias object of another vHCA's mkey. */
};

static const char *const mlx5_key_kind_names[] = {
	[MLX5_KEY_EXPORT] = "export",
	[MLX5_KEY_PRIVATE] = "private registration",
	[MLX5_KEY_CROSSING] = "crossing mkey",
	[MLX5_KEY_ALIAS] = "alias",
};

struct mlx5_key {
	TAILQ_ENTRY(mlx5_key) next;
	enum mlx5_key_kind kind;
	uint32_t mkey;          /* The key handed out. */
	uint32_t refcnt;
	/* Export and private registration: the range. */
	uintptr_t va;
	size_t len;
	/* Private registration: its MR. */
	struct ibv_mr *mr;
	/* Export: the umem of its pages (the mkey is @obj). */
	struct mlx5dv_devx_umem *umem;
	/* Crossing and alias: the remote mkey. Export too: the DEVX object. */
	uint16_t remote_vhca_id;
	uint32_t remote_mkey;
	struct mlx5_devx_obj *obj;
	/* Export and alias: the access key. */
	uint8_t access_key[MLX5_ACCESS_KEY_LEN];
};

/* Register a range with the device's PD. */
static struct ibv_mr *
mlx5_key_reg(struct mlx5_common_device *cdev, const char *fn, void *va,
	     size_t len, int access)
{
	struct ibv_mr *mr = cdev->glue->reg_mr(cdev->pd, va, len, access);

	if (mr == NULL) {
		rte_errno = errno ? errno : ENOMEM;
		DRV_LOG(ERR, "%s: %s: cannot register [%p, +%zu): %s", fn,
			cdev->dev->name, va, len, strerror(rte_errno));
	}
	return mr;
}

/* Destroy what a key holds on the device: 0 or a negative errno. */
static int
mlx5_key_destroy(struct mlx5_common_device *cdev, struct mlx5_key *key)
{
	int ret = 0;

	if (key->mr != NULL) {
		ret = cdev->glue->dereg_mr(key->mr);
		if (ret) {
			DRV_LOG(ERR, "%s: cannot deregister %s key 0x%08x: %s",
				cdev->dev->name, mlx5_key_kind_names[key->kind],
				key->mkey, strerror(ret));
			rte_errno = ret;
			return -ret;
		}
		key->mr = NULL;
	}
	if (key->obj != NULL) {
		ret = mlx5_devx_cmd_destroy(key->obj);
		if (ret)
			return ret;
		key->obj = NULL;
	}
	/* After the mkey over it. */
	if (key->umem != NULL) {
		ret = cdev->glue->devx_umem_dereg(key->umem);
		if (ret) {
			DRV_LOG(ERR, "%s: cannot deregister the umem of %s key 0x%08x: %s",
				cdev->dev->name, mlx5_key_kind_names[key->kind],
				key->mkey, strerror(ret));
			rte_errno = ret;
			return -ret;
		}
		key->umem = NULL;
	}
	return 0;
}

/* Matches a live key against a request (same kind already checked). */
typedef bool (mlx5_key_match_t)(const struct mlx5_key *key,
				const struct mlx5_key *req);
/* Creates on the device what @key describes: 0 or a negative errno. */
typedef int (mlx5_key_create_t)(struct mlx5_common_device *cdev,
				struct mlx5_key *key);

/* A private registration covering the requested range. */
static bool
mlx5_key_covers(const struct mlx5_key *key, const struct mlx5_key *req)
{
	return req->va >= key->va && req->va + req->len <= key->va + key->len;
}

/* An export of the same range with the same access key. */
static bool
mlx5_key_same_export(const struct mlx5_key *key, const struct mlx5_key *req)
{
	return req->va == key->va && req->len == key->len &&
	       memcmp(req->access_key, key->access_key,
		      MLX5_ACCESS_KEY_LEN) == 0;
}

/*
 * The key @req asks for: a live one that @match accepts gets one more
 * reference; otherwise (or with no @match) a new one is made by @create
 * and listed.
 */
static int
mlx5_key_get(struct mlx5_common_device *cdev, const struct mlx5_key *req,
	     mlx5_key_match_t *match, mlx5_key_create_t *create,
	     uint32_t *mkey)
{
	struct mlx5_key *key;
	int ret;

	pthread_mutex_lock(&cdev->keys_lock);
	TAILQ_FOREACH(key, &cdev->keys, next) {
		if (match != NULL && key->kind == req->kind &&
		    match(key, req)) {
			key->refcnt++;
			*mkey = key->mkey;
			pthread_mutex_unlock(&cdev->keys_lock);
			return 0;
		}
	}
	key = mlx5_malloc(cdev, 0, sizeof(*key), 0, SOCKET_ID_ANY);
	if (key == NULL) {
		ret = -ENOMEM;
		goto error;
	}
	*key = *req;
	ret = create(cdev, key);
	if (ret)
		goto error;
	key->refcnt = 1;
	TAILQ_INSERT_TAIL(&cdev->keys, key, next);
	*mkey = key->mkey;
	pthread_mutex_unlock(&cdev->keys_lock);
	return 0;
error:
	mlx5_free(key);
	pthread_mutex_unlock(&cdev->keys_lock);
	rte_errno = -ret;
	return ret;
}

/*
 * An export is a key made for the purpose, through DEVX: a umem of the
 * range's pages and an MTT mkey over it, marked as a target of crossing
 * (crossed_side_mkey), then granted to other vHCAs with the access key.
 * Not a verbs MR: the kernel creates those with uid 0 while the grant
 * carries the DEVX context's uid, which is not known to work on hardware.
 */
static int
mlx5_key_create_export(struct mlx5_common_device *cdev, struct mlx5_key *key)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	uintptr_t base = RTE_ALIGN_FLOOR(key->va, page);
	size_t span = RTE_ALIGN_CEIL(key->va + key->len, page) - base;
	struct mlx5_devx_mkey_attr attr = {
		.access_mode = MLX5_MKC_ACCESS_MODE_MTT,
		.addr = key->va,
		.size = key->len,
		.pd = cdev->pdn,
		.lr = true,
		.lw = true,
		.rr = true,
		.rw = true,
		.umem_offset = key->va - base,
		.log_page_size = rte_log2_u64(page),
		.crossed_side_mkey = true,
	};
	int ret;

	errno = 0;
	key->umem = cdev->glue->devx_umem_reg(cdev->ctx, (void *)base, span,
					      IBV_ACCESS_LOCAL_WRITE |
					      IBV_ACCESS_REMOTE_READ |
					      IBV_ACCESS_REMOTE_WRITE);
	if (key->umem == NULL) {
		rte_errno = errno != 0 ? errno : ENOMEM;
		DRV_LOG(ERR, "rte_pmd_mlx5_export_mem: %s: cannot register [%p, +%zu) as a umem: %s",
			cdev->dev->name, (void *)key->va, key->len,
			strerror(rte_errno));
		return -rte_errno;
	}
	attr.umem_id = key->umem->umem_id;
	key->obj = mlx5_devx_cmd_mkey_create(cdev, &attr);
	if (key->obj == NULL) {
		ret = -rte_errno;
		DRV_LOG(ERR, "rte_pmd_mlx5_export_mem: %s: cannot create the mkey of [%p, +%zu)",
			cdev->dev->name, (void *)key->va, key->len);
		goto undo;
	}
	key->mkey = key->obj->id;
	ret = mlx5_devx_cmd_allow_other_vhca_access(cdev,
		MLX5_GENERAL_OBJ_TYPE_MKEY, MLX5_MKEY_INDEX(key->mkey),
		key->access_key);
	if (ret == 0)
		return 0;
undo:
	if (mlx5_key_destroy(cdev, key) != 0)
		DRV_LOG(ERR, "%s: could not undo a failed export",
			cdev->dev->name);
	rte_errno = -ret;
	return ret;
}

/* Register the range for private-IOVA mbufs (local access only). */
static int
mlx5_key_create_private(struct mlx5_common_device *cdev,
			struct mlx5_key *key)
{
	key->mr = mlx5_key_reg(cdev, "rte_pmd_mlx5_get_buf_private_iova",
			       (void *)key->va, key->len,
			       IBV_ACCESS_LOCAL_WRITE);
	if (key->mr == NULL)
		return -rte_errno;
	key->mkey = key->mr->lkey;
	return 0;
}

/* A crossing mkey over the whole address space of the remote mkey. */
static int
mlx5_key_create_crossing(struct mlx5_common_device *cdev,
			 struct mlx5_key *key)
{
	struct mlx5_devx_mkey_attr attr = {
		.access_mode = MLX5_MKC_ACCESS_MODE_CROSSING,
		.pd = cdev->pdn,
		.lr = true,
		.lw = true,
		.crossing_target_vhca_id = key->remote_vhca_id,
		.crossing_target_mkey = key->remote_mkey,
	};

	key->obj = mlx5_devx_cmd_mkey_create(cdev, &attr);
	if (key->obj == NULL) {
		DRV_LOG(ERR, "%s: crossing mkey to vHCA %u mkey 0x%08x refused",
			cdev->dev->name, key->remote_vhca_id, key->remote_mkey);
		return -rte_errno;
	}
	key->mkey = key->obj->id;
	return 0;
}

/* An alias object of the remote mkey, opened with the access key. */
static int
mlx5_key_create_alias(struct mlx5_common_device *cdev,
		      struct mlx5_key *key)
{
	struct mlx5_devx_alias_attr attr = {
		.obj_type = MLX5_GENERAL_OBJ_TYPE_MKEY,
		.vhca_id = key->remote_vhca_id,
		.obj_id = MLX5_MKEY_INDEX(key->remote_mkey),
		.pdn = cdev->pdn,
	};

	memcpy(attr.access_key, key->access_key, MLX5_ACCESS_KEY_LEN);
	key->obj = mlx5_devx_cmd_alias_obj_create(cdev, &attr);
	if (key->obj == NULL) {
		DRV_LOG(ERR, "%s: alias of vHCA %u mkey 0x%08x refused",
			cdev->dev->name, key->remote_vhca_id, key->remote_mkey);
		return -rte_errno;
	}
	/* An alias of an mkey is used as an mkey: its id in the index bits. */
	key->mkey = key->obj->id << 8;
	return 0;
}

int
mlx5_keys_export(struct mlx5_common_device *cdev, void *va, size_t len,
		 const uint8_t access_key[MLX5_ACCESS_KEY_LEN], uint32_t *mkey)
{
	struct mlx5_key req = {
		.kind = MLX5_KEY_EXPORT,
		.va = (uintptr_t)va,
		.len = len,
	};

	memcpy(req.access_key, access_key, MLX5_ACCESS_KEY_LEN);
	return mlx5_key_get(cdev, &req, mlx5_key_same_export,
			    mlx5_key_create_export, mkey);
}

int
mlx5_keys_private(struct mlx5_common_device *cdev, void *va, size_t len,
		  uint32_t *mkey)
{
	struct mlx5_key req = {
		.kind = MLX5_KEY_PRIVATE,
		.va = (uintptr_t)va,
		.len = len,
	};

	return mlx5_key_get(cdev, &req, mlx5_key_covers,
			    mlx5_key_create_private, mkey);
}

int
mlx5_keys_crossing(struct mlx5_common_device *cdev, uint16_t remote_vhca_id,
		   uint32_t remote_mkey, uint32_t *mkey)
{
	struct mlx5_key req = {
		.kind = MLX5_KEY_CROSSING,
		.remote_vhca_id = remote_vhca_id,
		.remote_mkey = remote_mkey,
	};

	return mlx5_key_get(cdev, &req, NULL, mlx5_key_create_crossing, mkey);
}

int
mlx5_keys_alias(struct mlx5_common_device *cdev, uint16_t remote_vhca_id,
		uint32_t remote_mkey,
		const uint8_t access_key[MLX5_ACCESS_KEY_LEN], uint32_t *mkey)
{
	struct mlx5_key req = {
		.kind = MLX5_KEY_ALIAS,
		.remote_vhca_id = remote_vhca_id,
		.remote_mkey = remote_mkey,
	};

	memcpy(req.access_key, access_key, MLX5_ACCESS_KEY_LEN);
	return mlx5_key_get(cdev, &req, NULL, mlx5_key_create_alias, mkey);
}

/*
 * The live key @mkey of @cdev (keys_lock held), or NULL with rte_errno
 * ENOENT and a log line naming @fn.
 */
static struct mlx5_key *
mlx5_key_find(struct mlx5_common_device *cdev, const char *fn, uint32_t mkey)
{
	struct mlx5_key *key;

	TAILQ_FOREACH(key, &cdev->keys, next)
		if (key->mkey == mkey)
			return key;
	DRV_LOG(ERR, "%s: 0x%08x is not a live key of %s (released, or never handed out)",
		fn, mkey, cdev->dev->name);
	rte_errno = ENOENT;
	return NULL;
}

int
mlx5_keys_release(struct mlx5_common_device *cdev, uint32_t mkey)
{
	struct mlx5_key *key;
	int ret = 0;

	pthread_mutex_lock(&cdev->keys_lock);
	key = mlx5_key_find(cdev, "rte_pmd_mlx5_release_key", mkey);
	if (key == NULL) {
		ret = -ENOENT;
	} else if (key->refcnt > 1) {
		key->refcnt--;
	} else {
		ret = mlx5_key_destroy(cdev, key);
		if (ret == 0) {
			TAILQ_REMOVE(&cdev->keys, key, next);
			mlx5_free(key);
		}
	}
	pthread_mutex_unlock(&cdev->keys_lock);
	return ret;
}

int
mlx5_keys_check_range(struct mlx5_common_device *cdev, const char *fn,
		      uint32_t mkey, const void *va, size_t len)
{
	uintptr_t start = (uintptr_t)va;
	struct mlx5_key *key;
	int ret = 0;

	pthread_mutex_lock(&cdev->keys_lock);
	key = mlx5_key_find(cdev, fn, mkey);
	if (key == NULL) {
		ret = -ENOENT;
	} else if ((key->kind == MLX5_KEY_EXPORT ||
		    key->kind == MLX5_KEY_PRIVATE) &&
		   (start < key->va || start - key->va > key->len ||
		    len > key->len - (start - key->va))) {
		DRV_LOG(ERR, "%s: [%p, +%zu) is outside the %s 0x%08x of %s ([0x%" PRIxPTR ", +%zu))",
			fn, va, len, mlx5_key_kind_names[key->kind], mkey,
			cdev->dev->name, key->va, key->len);
		ret = -EINVAL;
	}
	pthread_mutex_unlock(&cdev->keys_lock);
	if (ret != 0)
		rte_errno = -ret;
	return ret;
}

void
mlx5_keys_release_all(struct mlx5_common_device *cdev)
{
	struct mlx5_key *key;

	pthread_mutex_lock(&cdev->keys_lock);
	while ((key = TAILQ_FIRST(&cdev->keys)) != NULL) {
		DRV_LOG(WARNING, "%s: %s key 0x%08x (%u references) still held at remove; destroying it",
			cdev->dev->name, mlx5_key_kind_names[key->kind],
			key->mkey, key->refcnt);
		if (mlx5_key_destroy(cdev, key) != 0)
			DRV_LOG(ERR, "%s: key 0x%08x could not be destroyed",
				cdev->dev->name, key->mkey);
		TAILQ_REMOVE(&cdev->keys, key, next);
		mlx5_free(key);
	}
	pthread_mutex_unlock(&cdev->keys_lock);
}

unsigned int
mlx5_keys_snapshot(struct mlx5_common_device *cdev,
		   struct mlx5_key_info *info, unsigned int max)
{
	static const char *const short_names[] = {
		[MLX5_KEY_EXPORT] = "export",
		[MLX5_KEY_PRIVATE] = "private",
		[MLX5_KEY_CROSSING] = "crossing",
		[MLX5_KEY_ALIAS] = "alias",
	};
	const struct mlx5_key *key;
	unsigned int n = 0;

	/* Never the access key: telemetry is readable by any local user. */
	pthread_mutex_lock(&cdev->keys_lock);
	TAILQ_FOREACH(key, &cdev->keys, next) {
		if (n < max)
			info[n] = (struct mlx5_key_info){
				.kind = short_names[key->kind],
				.imported = key->kind == MLX5_KEY_CROSSING ||
					    key->kind == MLX5_KEY_ALIAS,
				.mkey = key->mkey,
				.refcnt = key->refcnt,
				.va = key->va,
				.len = key->len,
				.remote_vhca_id = key->remote_vhca_id,
				.remote_mkey = key->remote_mkey,
			};
		n++;
	}
	pthread_mutex_unlock(&cdev->keys_lock);
	return n;
}
