/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * The public rte_pmd_mlx5 API (rte_pmd_mlx5.h): argument and capability
 * checks, the device held for the call, then the key registry
 * (mlx5_common_keys.c) for cross-vHCA export/import and private-IOVA
 * registrations; device context/PD access. The dynamic mbuf flags are
 * mlx5_common_dynflag.c's.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_mbuf_dyn.h>

#include "mlx5_common.h"
#include "mlx5_common_log.h"
#include "mlx5_common_private.h"
#include "rte_pmd_mlx5.h"

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

	cdev = mlx5_api_dev(dev, __func__);
	if (cdev == NULL)
		return -ENODEV;
	if (ctx == NULL || pd == NULL) {
		mlx5_common_dev_release(cdev);
		DRV_LOG(ERR, "%s: NULL argument", __func__);
		rte_errno = EINVAL;
		return -EINVAL;
	}
	*ctx = cdev->ctx;
	*pd = cdev->pd;
	mlx5_common_dev_release(cdev);
	return 0;
}

int
rte_pmd_mlx5_get_vhca_id(struct rte_device *dev, uint16_t *vhca_id)
{
	struct mlx5_common_device *cdev;

	cdev = mlx5_api_dev(dev, __func__);
	if (cdev == NULL)
		return -ENODEV;
	if (vhca_id == NULL) {
		mlx5_common_dev_release(cdev);
		DRV_LOG(ERR, "%s: NULL argument", __func__);
		rte_errno = EINVAL;
		return -EINVAL;
	}
	*vhca_id = cdev->caps.vhca_id;
	mlx5_common_dev_release(cdev);
	return 0;
}

/* rte_pmd_mlx5_export_mem() on a held device. */
static int
mlx5_export_mem(struct mlx5_common_device *cdev, void *va, size_t len,
		const uint8_t *access_key, uint16_t *vhca_id, uint32_t *mkey)
{
	const char *fn = "rte_pmd_mlx5_export_mem";
	int ret;

	ret = mlx5_range_check(fn, va, len);
	if (ret)
		return ret;
	if (!(cdev->caps.allowed_object_for_other_vhca_access &
	      MLX5_ALLOWED_OBJ_FOR_OTHER_VHCA_ACCESS_MKEY)) {
		DRV_LOG(ERR,
			"%s: %s cannot let other vHCAs access its mkeys (allowed_object_for_other_vhca_access lacks MKEY)",
			fn, cdev->dev->name);
		rte_errno = ENOTSUP;
		return -ENOTSUP;
	}
	ret = mlx5_keys_export(cdev, va, len, access_key, mkey);
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

	cdev = mlx5_api_dev(dev, __func__);
	if (cdev == NULL)
		return -ENODEV;
	if (access_key == NULL || vhca_id == NULL || mkey == NULL) {
		mlx5_common_dev_release(cdev);
		DRV_LOG(ERR, "%s: NULL argument", __func__);
		rte_errno = EINVAL;
		return -EINVAL;
	}
	ret = mlx5_export_mem(cdev, va, len, access_key, vhca_id, mkey);
	mlx5_common_dev_release(cdev);
	return ret;
}

/* Common checks of the two importer functions; NULL if they fail. */
static struct mlx5_common_device *
mlx5_import_dev(struct rte_device *dev, const char *fn, uint32_t remote_vhca_id)
{
	struct mlx5_common_device *cdev = mlx5_api_dev(dev, fn);

	if (cdev != NULL && remote_vhca_id > UINT16_MAX) {
		DRV_LOG(ERR, "%s: vHCA id %u out of range", fn, remote_vhca_id);
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
	} else if (mlx5_keys_crossing(cdev, (uint16_t)remote_vhca_id,
				      remote_mkey, &mkey) == 0) {
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
		DRV_LOG(ERR,
			"%s: %s cannot map a local mkey to a remote one (cross_vhca_object_to_object_supported)",
			__func__, dev->name);
		rte_errno = ENOTSUP;
	} else {
		if (mlx5_keys_alias(cdev, (uint16_t)remote_vhca_id, remote_mkey,
				    access_key, &mkey) == 0)
			iova = rte_pmd_mlx5_mkey_to_iova(mkey);
	}
	mlx5_common_dev_release(cdev);
	return iova;
}

rte_iova_t
rte_pmd_mlx5_get_buf_private_iova(struct rte_device *dev, void *va, size_t len)
{
	struct mlx5_common_device *cdev;
	rte_iova_t iova = 0;
	uint32_t mkey;

	cdev = mlx5_api_dev(dev, __func__);
	if (cdev == NULL)
		return 0;
	if (mlx5_range_check(__func__, va, len) == 0 &&
	    mlx5_keys_private(cdev, va, len, &mkey) == 0)
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
	int ret;

	cdev = mlx5_api_dev(dev, __func__);
	if (cdev == NULL)
		return -ENODEV;
	/* Either an mkey (below 2^32) or an IOVA (mkey << 32): nothing else. */
	if (iova > UINT32_MAX && (iova & UINT32_MAX) != 0) {
		mlx5_common_dev_release(cdev);
		DRV_LOG(ERR,
			"%s: 0x%" PRIx64
			" is neither an mkey (below 2^32) nor a key's IOVA (low 32 bits 0)",
			__func__, (uint64_t)iova);
		rte_errno = EINVAL;
		return -EINVAL;
	}
	ret = mlx5_keys_release(cdev, mkey);
	mlx5_common_dev_release(cdev);
	return ret;
}

/* The shared info of an external buffer needs no freeing of the buffer. */
static void
mlx5_private_extbuf_free(void *addr, void *opaque)
{
	RTE_SET_USED(addr);
	RTE_SET_USED(opaque);
}

struct rte_mbuf *
rte_pmd_mlx5_pktmbuf_alloc_private(struct rte_mempool *mp,
				   struct rte_device *dev, rte_iova_t iova,
				   void *buf, size_t len,
				   struct rte_mbuf_ext_shared_info *shinfo)
{
	const char *fn = __func__;
	struct mlx5_common_device *cdev;
	struct rte_mbuf *m;
	uint64_t flag;
	int ret;

	cdev = mlx5_api_dev(dev, fn);
	if (cdev == NULL)
		return NULL;
	ret = -EINVAL;
	if (mp == NULL || buf == NULL || len == 0 || len > UINT16_MAX) {
		DRV_LOG(ERR, "%s: %s", fn,
			mp == NULL ?
				"NULL mempool" :
			buf == NULL ?
				"NULL buffer" :
				"length not in 1..65535 (an mbuf's buf_len)");
	} else if (iova == 0 || (iova & UINT32_MAX) != 0) {
		DRV_LOG(ERR,
			"%s: 0x%" PRIx64 " is not a key's IOVA (mkey << 32)",
			fn, (uint64_t)iova);
	} else if (shinfo == NULL &&
		   rte_pktmbuf_priv_size(mp) < sizeof(*shinfo)) {
		DRV_LOG(ERR,
			"%s: mempool %s has %u bytes of private area per mbuf, the shared info takes %zu: pass one, or create the pool with priv_size RTE_ALIGN(sizeof(struct rte_mbuf_ext_shared_info), RTE_MBUF_PRIV_ALIGN)",
			fn, mp->name, rte_pktmbuf_priv_size(mp),
			sizeof(*shinfo));
	} else {
		ret = mlx5_keys_check_range(
			cdev, fn, rte_pmd_mlx5_iova_to_mkey(iova), buf, len);
	}
	mlx5_common_dev_release(cdev);
	if (ret != 0) {
		rte_errno = -ret;
		return NULL;
	}
	flag = rte_pmd_mlx5_private_iova_flag();
	m = rte_pktmbuf_alloc(mp);
	if (m == NULL) {
		DRV_LOG(ERR, "%s: mempool %s is empty", fn, mp->name);
		rte_errno = ENOMEM;
		return NULL;
	}
	/* Local memory only: the CPU never writes the foreign buffer. */
	if (shinfo == NULL)
		shinfo = rte_mbuf_to_priv(m);
	shinfo->free_cb = mlx5_private_extbuf_free;
	shinfo->fcb_opaque = NULL;
	rte_mbuf_ext_refcnt_set(shinfo, 1);
	rte_pktmbuf_attach_extbuf(m, buf, iova, (uint16_t)len, shinfo);
	m->data_off = 0;
	m->data_len = (uint16_t)len;
	m->pkt_len = (uint32_t)len;
	m->ol_flags |= flag;
	return m;
}
