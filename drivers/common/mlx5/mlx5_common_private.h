/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/* Internal to the common library (not exported). */

#ifndef MLX5_COMMON_PRIVATE_H_
#define MLX5_COMMON_PRIVATE_H_

#include "mlx5_common.h"

/* Common devarg keys. */
#define MLX5_ARG_CLASS "class"
#define MLX5_ARG_CMD_FD "cmd_fd"
#define MLX5_ARG_PD_HANDLE "pd_handle"
#define MLX5_ARG_MR_EXT_MEMSEG_EN "mr_ext_memseg_en"
#define MLX5_ARG_MR_MEMPOOL_REG_EN "mr_mempool_reg_en"
#define MLX5_ARG_SYS_MEM_EN "sys_mem_en"
#define MLX5_ARG_MR_WHOLE_MEM_EN "mr_whole_mem_en"

/*
 * The common keys with their value types, for the PMD info of every bus
 * driver of the common device (RTE_PMD_REGISTER_PARAM_STRING, read by
 * dpdk-pmdinfo.py). Class drivers list their own keys in their own info.
 */
#define MLX5_COMMON_PARAM_STRING \
	MLX5_ARG_CLASS "=<eth|crypto|eth:crypto> " \
	MLX5_ARG_CMD_FD "=<fd> " \
	MLX5_ARG_PD_HANDLE "=<handle> " \
	MLX5_ARG_MR_EXT_MEMSEG_EN "=<0|1> " \
	MLX5_ARG_MR_MEMPOOL_REG_EN "=<0|1> " \
	MLX5_ARG_SYS_MEM_EN "=<0|1> " \
	MLX5_ARG_MR_WHOLE_MEM_EN "=<0|1>"

/* Parse the common keys into @cfg (defaults for absent keys). */
int mlx5_common_config_parse(struct mlx5_kvargs_ctrl *kv,
			     struct mlx5_common_dev_config *cfg);

/* Fail with a message naming the first key no layer used. */
int mlx5_kvargs_check_unused(const char *dev_name,
			     struct mlx5_kvargs_ctrl *kv);

/* "eth", "crypto", ... */
const char *mlx5_class_name(enum mlx5_class cls);

/* Free every pacing entry the device still holds (at remove). */
void mlx5_pp_release_all(struct mlx5_common_device *cdev);

/*
 * Keys of the public API (mlx5_common_keys.c). Each returns 0 and the key
 * in *mkey, or a negative errno with rte_errno set and a log line; the
 * caller has checked arguments and capabilities.
 */
/* Register [va, va + len) and allow other vHCAs with @access_key. */
int mlx5_keys_export(struct mlx5_common_device *cdev, void *va, size_t len,
		     const uint8_t access_key[MLX5_ACCESS_KEY_LEN],
		     uint32_t *mkey);
/* A registration covering [va, va + len), for private-IOVA mbufs. */
int mlx5_keys_private(struct mlx5_common_device *cdev, void *va, size_t len,
		      uint32_t *mkey);
/* A new crossing mkey to another vHCA's mkey. */
int mlx5_keys_crossing(struct mlx5_common_device *cdev,
		       uint16_t remote_vhca_id, uint32_t remote_mkey,
		       uint32_t *mkey);
/* A new alias of another vHCA's mkey, opened with @access_key. */
int mlx5_keys_alias(struct mlx5_common_device *cdev, uint16_t remote_vhca_id,
		    uint32_t remote_mkey,
		    const uint8_t access_key[MLX5_ACCESS_KEY_LEN],
		    uint32_t *mkey);
/* Drop one reference to key @mkey (-ENOENT if it is not live). */
int mlx5_keys_release(struct mlx5_common_device *cdev, uint32_t mkey);
/*
 * 0 if @mkey is a live key of @cdev that may carry [@va, +@len): an
 * importer key (its range is the owner's: the device checks each access),
 * or an export or private registration covering the range; -ENOENT (not a
 * live key) or -EINVAL (outside it) with rte_errno and a log line naming
 * @fn otherwise.
 */
int mlx5_keys_check_range(struct mlx5_common_device *cdev, const char *fn,
			  uint32_t mkey, const void *va, size_t len);
/* Release every key the device still holds (at remove). */
void mlx5_keys_release_all(struct mlx5_common_device *cdev);

/*
 * Secondary processes (mlx5_common_mp.c). The primary serves requests
 * once mlx5_mp_primary_init() ran (idempotent); a secondary asks for the
 * primary's record of device @name.
 */
int mlx5_mp_primary_init(void);
int mlx5_mp_req_attach(const char *name, struct mlx5_common_device **primary);
/* The first registered class driver of @drv_class, or NULL. */
const struct mlx5_class_driver *mlx5_class_driver_find(uint32_t drv_class);

/* Register the dynamic mbuf flags (idempotent): 0 or a negative errno. */
int mlx5_dynflags_register(void);

/*
 * Check a caller's memory range: non-NULL, non-empty, not wrapping.
 * 0, or -EINVAL with rte_errno set and a log line naming @fn and the fault.
 */
int mlx5_range_check(const char *fn, const void *addr, size_t len);

/*
 * The device list for telemetry (mlx5_common.c). Acquire by EAL device
 * name, as mlx5_common_dev_acquire() (release with
 * mlx5_common_dev_release()); NULL with rte_errno ENODEV when no probed
 * device has that name. mlx5_common_dev_names() calls @fn with each listed
 * device's name under the list lock (@fn takes no lock) and returns their
 * count.
 */
struct mlx5_common_device *mlx5_common_dev_acquire_by_name(const char *name);
unsigned int mlx5_common_dev_names(void (*fn)(const char *name, void *arg),
				   void *arg);

/* A key as telemetry shows it (mlx5_keys_snapshot()). */
struct mlx5_key_info {
	const char *kind;       /* "export", "private", "crossing", "alias". */
	bool imported;          /* Crossing or alias: another vHCA's memory. */
	uint32_t mkey;
	uint32_t refcnt;
	uintptr_t va;           /* Export, private: the range. */
	size_t len;
	uint16_t remote_vhca_id; /* Crossing, alias: the owner's key. */
	uint32_t remote_mkey;
};

/*
 * Copy up to @max keys of the device, in list order, under its keys_lock.
 * Returns how many keys the device holds (may exceed @max).
 */
unsigned int mlx5_keys_snapshot(struct mlx5_common_device *cdev,
				struct mlx5_key_info *info, unsigned int max);

/* DEVX queue kinds telemetry lists (mlx5_common_telemetry.c). */
enum mlx5_queue_kind {
	MLX5_QUEUE_CQ,
	MLX5_QUEUE_SQ,
	MLX5_QUEUE_RQ,
	MLX5_QUEUE_QP,
};

/*
 * List a DEVX queue created by the queue helpers (mlx5_common_devx.c) on
 * its device, or forget it (@obj is compared, never dereferenced). The
 * list is the device's, under cdev->lock; telemetry reads it.
 */
void mlx5_queue_track_add(struct mlx5_common_device *cdev,
			  enum mlx5_queue_kind kind,
			  const struct mlx5_devx_obj *obj, uint32_t log_size,
			  uint32_t cqn);
void mlx5_queue_track_del(struct mlx5_common_device *cdev,
			  const struct mlx5_devx_obj *obj);

/* Drop the telemetry lists of a device being torn down. */
void mlx5_telemetry_dev_release(struct mlx5_common_device *cdev);

#endif /* MLX5_COMMON_PRIVATE_H_ */
