/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * The public rte_pmd_mlx5 API: cross-vHCA export/import, private-IOVA
 * registrations, device context/PD access and the dynamic mbuf flags.
 *
 * Every key handed out is an entry of the device's key list, reference
 * counted: rte_pmd_mlx5_release_key() drops one reference, the last drop
 * destroys the key. Owner-side keys (exports, private registrations) are
 * shared: the same request returns the same key and takes a reference, as
 * only this device can revoke them. Importer keys (crossing, alias) are
 * never shared: the owner may revoke its export at any time, and only the
 * device knows whether it did, so every request asks the device anew and a
 * revoked export fails the request instead of returning a dead key.
 * The list and every device command on it run under the device's keys_lock,
 * so calls from several threads are safe.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_malloc.h>
#include <rte_mbuf_dyn.h>

#include "mlx5_common.h"
#include "mlx5_common_log.h"
#include "mlx5_common_private.h"
#include "rte_pmd_mlx5.h"

enum mlx5_vhca_key_kind {
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

struct mlx5_vhca_key {
	TAILQ_ENTRY(mlx5_vhca_key) next;
	enum mlx5_vhca_key_kind kind;
	uint32_t mkey;          /* The key handed out. */
	uint32_t refcnt;
	/* Export and private registration: the range and its MR. */
	uintptr_t va;
	size_t len;
	struct ibv_mr *mr;
	/* Crossing and alias: the remote mkey and the DEVX object. */
	uint16_t remote_vhca_id;
	uint32_t remote_mkey;
	struct mlx5_devx_obj *obj;
	/* Export and alias: the access key. */
	uint8_t access_key[MLX5_ACCESS_KEY_LEN];
};

static const char *const mlx5_dyn_flag_names[] = {
	RTE_PMD_MLX5_PRIVATE_IOVA,
	RTE_PMD_MLX5_FINE_GRANULARITY_INLINE,
};

int
mlx5_dynflags_register(void)
{
	static const struct rte_mbuf_dynflag desc = {
		.name = RTE_PMD_MLX5_PRIVATE_IOVA,
	};
	int ret;

	ret = rte_mbuf_dynflag_register(&desc);
	if (ret < 0) {
		DRV_LOG(ERR, "cannot register dynamic mbuf flag %s: %s",
			desc.name, rte_strerror(rte_errno));
		return -rte_errno;
	}
	return 0;
}

int
rte_pmd_common_mlx5_get_dyn_flag_names(char *names[], unsigned int n)
{
	unsigned int count = RTE_DIM(mlx5_dyn_flag_names);

	if (names == NULL)
		return -EINVAL;
	if (n < count)
		return -ENOMEM;
	for (unsigned int i = 0; i < count; i++)
		if (names[i] == NULL)
			return -EINVAL;
	for (unsigned int i = 0; i < count; i++)
		strlcpy(names[i], mlx5_dyn_flag_names[i],
			RTE_MBUF_DYN_NAMESIZE);
	return count;
}

uint64_t
rte_pmd_mlx5_private_iova_flag(void)
{
	int bit = rte_mbuf_dynflag_lookup(RTE_PMD_MLX5_PRIVATE_IOVA, NULL);

	if (bit < 0)
		return 0;
	return RTE_BIT64(bit);
}

int
rte_pmd_mlx5_mbuf_set_private_iova(struct rte_mbuf *m, rte_iova_t iova)
{
	uint64_t flag = rte_pmd_mlx5_private_iova_flag();

	if (flag == 0)
		return -ENOENT;
	m->buf_iova = iova;
	m->ol_flags |= flag;
	return 0;
}

/*
 * The common device of @dev, held until mlx5_common_dev_release() so that a
 * removal cannot free it under the call; NULL with rte_errno ENODEV and a
 * log if @dev is not a probed mlx5 device.
 */
static struct mlx5_common_device *
mlx5_api_dev(struct rte_device *dev, const char *fn)
{
	struct mlx5_common_device *cdev = NULL;

	if (dev != NULL)
		cdev = mlx5_common_dev_acquire(dev);
	if (cdev == NULL) {
		/* Not dereferenced: it may be a device removed meanwhile. */
		DRV_LOG(ERR, "%s: device %p is not a probed mlx5 device", fn,
			(void *)dev);
		rte_errno = ENODEV;
	}
	return cdev;
}

int
rte_pmd_mlx5_get_dev_ctx_and_pd(struct rte_device *dev, void **ctx, void **pd)
{
	struct mlx5_common_device *cdev;

	if (dev == NULL || ctx == NULL || pd == NULL) {
		rte_errno = EINVAL;
		return -EINVAL;
	}
	cdev = mlx5_api_dev(dev, __func__);
	if (cdev == NULL)
		return -ENODEV;
	*ctx = cdev->ctx;
	*pd = cdev->pd;
	mlx5_common_dev_release(cdev);
	return 0;
}

int
rte_pmd_mlx5_get_vhca_id(struct rte_device *dev, uint16_t *vhca_id)
{
	struct mlx5_common_device *cdev;

	if (dev == NULL || vhca_id == NULL) {
		rte_errno = EINVAL;
		return -EINVAL;
	}
	cdev = mlx5_api_dev(dev, __func__);
	if (cdev == NULL)
		return -ENODEV;
	*vhca_id = cdev->caps.vhca_id;
	mlx5_common_dev_release(cdev);
	return 0;
}

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
mlx5_key_destroy(struct mlx5_common_device *cdev, struct mlx5_vhca_key *key)
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
	return 0;
}

/* Matches a live key against a request (same kind already checked). */
typedef bool (mlx5_key_match_t)(const struct mlx5_vhca_key *key,
				const struct mlx5_vhca_key *req);
/* Creates on the device what @key describes: 0 or a negative errno. */
typedef int (mlx5_key_create_t)(struct mlx5_common_device *cdev,
				struct mlx5_vhca_key *key);

/* A private registration covering the requested range. */
static bool
mlx5_key_covers(const struct mlx5_vhca_key *key,
		const struct mlx5_vhca_key *req)
{
	return req->va >= key->va && req->va + req->len <= key->va + key->len;
}

/* An export of the same range with the same access key. */
static bool
mlx5_key_same_export(const struct mlx5_vhca_key *key,
		     const struct mlx5_vhca_key *req)
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
mlx5_key_get(struct mlx5_common_device *cdev, const struct mlx5_vhca_key *req,
	     mlx5_key_match_t *match, mlx5_key_create_t *create,
	     uint32_t *mkey)
{
	struct mlx5_vhca_key *key;
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
	key = malloc(sizeof(*key));
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
	free(key);
	pthread_mutex_unlock(&cdev->keys_lock);
	rte_errno = -ret;
	return ret;
}

/* Register the range and allow other vHCAs to reach it with the key. */
static int
mlx5_key_create_export(struct mlx5_common_device *cdev,
		       struct mlx5_vhca_key *key)
{
	int ret;

	key->mr = mlx5_key_reg(cdev, "rte_pmd_mlx5_export_mem",
			       (void *)key->va, key->len,
			       IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_READ |
			       IBV_ACCESS_REMOTE_WRITE);
	if (key->mr == NULL)
		return -rte_errno;
	key->mkey = key->mr->lkey;
	ret = mlx5_devx_cmd_allow_other_vhca_access(cdev,
		MLX5_GENERAL_OBJ_TYPE_MKEY, MLX5_MKEY_INDEX(key->mkey),
		key->access_key);
	if (ret) {
		if (mlx5_key_destroy(cdev, key) != 0)
			DRV_LOG(ERR, "%s: could not undo a failed export",
				cdev->dev->name);
		rte_errno = -ret;
	}
	return ret;
}

/* Register the range for private-IOVA mbufs (local access only). */
static int
mlx5_key_create_private(struct mlx5_common_device *cdev,
			struct mlx5_vhca_key *key)
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
			 struct mlx5_vhca_key *key)
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
		      struct mlx5_vhca_key *key)
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

/* rte_pmd_mlx5_export_mem() on a held device. */
static int
mlx5_export_mem(struct mlx5_common_device *cdev, void *va, size_t len,
		const uint8_t *access_key, uint16_t *vhca_id, uint32_t *mkey)
{
	const char *fn = "rte_pmd_mlx5_export_mem";
	struct mlx5_vhca_key req = {
		.kind = MLX5_KEY_EXPORT,
		.va = (uintptr_t)va,
		.len = len,
	};
	int ret;

	ret = mlx5_range_check(fn, va, len);
	if (ret)
		return ret;
	if (!(cdev->caps.allowed_object_for_other_vhca_access &
	      MLX5_ALLOWED_OBJ_FOR_OTHER_VHCA_ACCESS_MKEY)) {
		DRV_LOG(ERR, "%s: %s cannot let other vHCAs access its mkeys (allowed_object_for_other_vhca_access lacks MKEY)",
			fn, cdev->dev->name);
		rte_errno = ENOTSUP;
		return -ENOTSUP;
	}
	memcpy(req.access_key, access_key, MLX5_ACCESS_KEY_LEN);
	ret = mlx5_key_get(cdev, &req, mlx5_key_same_export,
			   mlx5_key_create_export, mkey);
	if (ret == 0)
		*vhca_id = cdev->caps.vhca_id;
	return ret;
}

int
rte_pmd_mlx5_export_mem(struct rte_device *dev, void *va, size_t len,
			const uint8_t access_key[RTE_PMD_MLX5_ACCESS_KEY_LEN],
			uint16_t *vhca_id, uint32_t *mkey)
{
	struct mlx5_common_device *cdev;
	int ret;

	if (access_key == NULL || vhca_id == NULL || mkey == NULL) {
		DRV_LOG(ERR, "%s: NULL argument", __func__);
		rte_errno = EINVAL;
		return -EINVAL;
	}
	cdev = mlx5_api_dev(dev, __func__);
	if (cdev == NULL)
		return -ENODEV;
	ret = mlx5_export_mem(cdev, va, len, access_key, vhca_id, mkey);
	mlx5_common_dev_release(cdev);
	return ret;
}

/* Common checks of the two importer functions; NULL if they fail. */
static struct mlx5_common_device *
mlx5_import_dev(struct rte_device *dev, const char *fn,
		uint32_t remote_vhca_id)
{
	struct mlx5_common_device *cdev = mlx5_api_dev(dev, fn);

	if (cdev != NULL && remote_vhca_id > UINT16_MAX) {
		DRV_LOG(ERR, "%s: vHCA id %u out of range", fn,
			remote_vhca_id);
		mlx5_common_dev_release(cdev);
		rte_errno = EINVAL;
		return NULL;
	}
	return cdev;
}

rte_iova_t
rte_pmd_mlx5_create_cross_vhca_mkey(struct rte_device *dev,
				    uint32_t remote_vhca_id,
				    uint32_t remote_mkey)
{
	struct mlx5_vhca_key req = {
		.kind = MLX5_KEY_CROSSING,
		.remote_vhca_id = (uint16_t)remote_vhca_id,
		.remote_mkey = remote_mkey,
	};
	struct mlx5_common_device *cdev;
	rte_iova_t iova = 0;
	uint32_t mkey;

	cdev = mlx5_import_dev(dev, __func__, remote_vhca_id);
	if (cdev == NULL)
		return 0;
	if (!cdev->caps.crossing_vhca_mkey) {
		DRV_LOG(ERR, "%s: %s has no crossing_vhca_mkey capability",
			__func__, dev->name);
		rte_errno = ENOTSUP;
	} else if (mlx5_key_get(cdev, &req, NULL, mlx5_key_create_crossing,
				&mkey) == 0) {
		iova = rte_pmd_mlx5_mkey_to_iova(mkey);
	}
	mlx5_common_dev_release(cdev);
	return iova;
}

rte_iova_t
rte_pmd_mlx5_import_mem(struct rte_device *dev, uint32_t remote_vhca_id,
			uint32_t remote_mkey,
			const uint8_t access_key[RTE_PMD_MLX5_ACCESS_KEY_LEN])
{
	struct mlx5_vhca_key req = {
		.kind = MLX5_KEY_ALIAS,
		.remote_vhca_id = (uint16_t)remote_vhca_id,
		.remote_mkey = remote_mkey,
	};
	struct mlx5_common_device *cdev;
	rte_iova_t iova = 0;
	uint32_t mkey;

	cdev = mlx5_import_dev(dev, __func__, remote_vhca_id);
	if (cdev == NULL)
		return 0;
	if (access_key == NULL) {
		DRV_LOG(ERR, "%s: NULL access key", __func__);
		rte_errno = EINVAL;
	} else if (!(cdev->caps.cross_vhca_object_to_object_supported &
		     MLX5_CROSS_VHCA_OBJ_TO_OBJ_LOCAL_MKEY_TO_REMOTE_MKEY)) {
		DRV_LOG(ERR, "%s: %s cannot map a local mkey to a remote one (cross_vhca_object_to_object_supported)",
			__func__, dev->name);
		rte_errno = ENOTSUP;
	} else {
		memcpy(req.access_key, access_key, MLX5_ACCESS_KEY_LEN);
		if (mlx5_key_get(cdev, &req, NULL, mlx5_key_create_alias,
				 &mkey) == 0)
			iova = rte_pmd_mlx5_mkey_to_iova(mkey);
	}
	mlx5_common_dev_release(cdev);
	return iova;
}

rte_iova_t
rte_pmd_mlx5_get_buf_private_iova(struct rte_device *dev, void *va,
				  uint32_t len)
{
	struct mlx5_vhca_key req = {
		.kind = MLX5_KEY_PRIVATE,
		.va = (uintptr_t)va,
		.len = len,
	};
	struct mlx5_common_device *cdev;
	rte_iova_t iova = 0;
	uint32_t mkey;

	cdev = mlx5_api_dev(dev, __func__);
	if (cdev == NULL)
		return 0;
	if (mlx5_range_check(__func__, va, len) == 0 &&
	    mlx5_key_get(cdev, &req, mlx5_key_covers, mlx5_key_create_private,
			 &mkey) == 0)
		iova = rte_pmd_mlx5_mkey_to_iova(mkey);
	mlx5_common_dev_release(cdev);
	return iova;
}

int
rte_pmd_mlx5_release_key(struct rte_device *dev, rte_iova_t iova)
{
	uint32_t mkey = iova > UINT32_MAX ? rte_pmd_mlx5_iova_to_mkey(iova) :
					    (uint32_t)iova;
	struct mlx5_common_device *cdev;
	struct mlx5_vhca_key *key;
	int ret = 0;

	/* Either an mkey (below 2^32) or an IOVA (mkey << 32): nothing else. */
	if (iova > UINT32_MAX && (iova & UINT32_MAX) != 0) {
		DRV_LOG(ERR, "%s: 0x%" PRIx64 " is neither an mkey (below 2^32) nor a key's IOVA (low 32 bits 0)",
			__func__, (uint64_t)iova);
		rte_errno = EINVAL;
		return -EINVAL;
	}
	cdev = mlx5_api_dev(dev, __func__);
	if (cdev == NULL)
		return -ENODEV;
	pthread_mutex_lock(&cdev->keys_lock);
	TAILQ_FOREACH(key, &cdev->keys, next)
		if (key->mkey == mkey)
			break;
	if (key == NULL) {
		DRV_LOG(ERR, "%s: 0x%08x is not a live key of %s (already released?)",
			__func__, mkey, dev->name);
		rte_errno = ENOENT;
		ret = -ENOENT;
	} else if (key->refcnt > 1) {
		key->refcnt--;
	} else {
		ret = mlx5_key_destroy(cdev, key);
		if (ret == 0) {
			TAILQ_REMOVE(&cdev->keys, key, next);
			free(key);
		}
	}
	pthread_mutex_unlock(&cdev->keys_lock);
	mlx5_common_dev_release(cdev);
	return ret;
}

void
mlx5_vhca_keys_release_all(struct mlx5_common_device *cdev)
{
	struct mlx5_vhca_key *key;

	pthread_mutex_lock(&cdev->keys_lock);
	while ((key = TAILQ_FIRST(&cdev->keys)) != NULL) {
		DRV_LOG(WARNING, "%s: %s key 0x%08x (%u references) still held at remove; destroying it",
			cdev->dev->name, mlx5_key_kind_names[key->kind],
			key->mkey, key->refcnt);
		if (mlx5_key_destroy(cdev, key) != 0)
			DRV_LOG(ERR, "%s: key 0x%08x could not be destroyed",
				cdev->dev->name, key->mkey);
		TAILQ_REMOVE(&cdev->keys, key, next);
		free(key);
	}
	pthread_mutex_unlock(&cdev->keys_lock);
}
