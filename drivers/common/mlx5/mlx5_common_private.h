/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/* Internal to the common library (not exported). */

#ifndef MLX5_COMMON_PRIVATE_H_
#define MLX5_COMMON_PRIVATE_H_

#include <rte_errno.h>

#include "mlx5_common.h"
#include "mlx5_common_log.h"

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
 * Class drivers (mlx5_common.c): the first registered driver of
 * @drv_class, or NULL.
 */
const struct mlx5_class_driver *mlx5_class_driver_find(uint32_t drv_class);

/*
 * Secondary-process support (mlx5_common_mp.c), a layer above the core
 * that plugs into it when linked (a constructor calls
 * mlx5_common_mp_ops_register()). Without it the core runs in a single
 * process: the primary serves no secondary and a secondary's probe fails
 * with ENOTSUP.
 */
struct mlx5_common_mp_ops {
	/* Serve secondaries from now on (at each primary probe; idempotent). */
	int (*primary_init)(void);
	/* In a secondary: the primary's record of device @name. */
	int (*attach)(const char *name, struct mlx5_common_device **primary);
};
void mlx5_common_mp_ops_register(const struct mlx5_common_mp_ops *ops);

/*
 * The multi-process transport (mlx5_common_mp.c): a secondary's request of
 * a type, about device @name, carrying up to MLX5_MP_DATA_MAX bytes that
 * the primary's handler of that type reads and rewrites in place.
 */
enum mlx5_mp_type {
	MLX5_MP_ATTACH = 1, /* The primary's record of the device. */
	MLX5_MP_MR,         /* A queue's MR cache miss (mlx5_common_mr_mp.c). */
	MLX5_MP_CLASS,      /* A class driver's request. */
	MLX5_MP_TYPES
};
#define MLX5_MP_DATA_MAX 128
/*
 * In the primary: serve a request on @cdev (held for the call); @data is
 * the request's MLX5_MP_DATA_MAX bytes (8-byte aligned), rewritten with
 * the reply. Returns 0 or a negative errno, the request's result.
 */
typedef int (mlx5_mp_handler_t)(struct mlx5_common_device *cdev, void *data);
/* Register the handler of @type (from a constructor); @name is for logs. */
void mlx5_mp_handler_register(enum mlx5_mp_type type, const char *name,
			      mlx5_mp_handler_t *fn);
/*
 * In a secondary: send @len bytes of @data, wait for the reply (5 s at
 * most) and copy its @len bytes back. Returns the handler's result, or a
 * negative errno of the transport (logged); rte_errno set on failure.
 */
int mlx5_mp_request(const char *name, enum mlx5_mp_type type, void *data,
		    size_t len);

/*
 * Dynamic mbuf flags (mlx5_common_dynflag.c): register them (idempotent),
 * 0 or a negative errno.
 */
int mlx5_dynflags_register(void);

/*
 * Check a caller's memory range: non-NULL, non-empty, not wrapping.
 * 0, or -EINVAL with rte_errno set and a log line naming @fn and the fault.
 */
static inline int
mlx5_range_check(const char *fn, const void *addr, size_t len)
{
	uintptr_t start = (uintptr_t)addr;

	if (addr == NULL || len == 0 || start + len < start) {
		DRV_LOG(ERR, "%s: bad range [%p, +%zu): %s", fn, addr, len,
			addr == NULL ? "NULL address" : len == 0 ?
			"zero length" : "wraps around");
		rte_errno = EINVAL;
		return -EINVAL;
	}
	return 0;
}

/*
 * The device registry (mlx5_common_dev.c). Probe lists a device ready for
 * its users (mlx5_common_dev_list_add(): -EEXIST, logged, when its EAL
 * device is listed already), remove unlists it (NULL with rte_errno ENODEV
 * when not listed), then waits for those who hold it
 * (mlx5_common_dev_wait_users()).
 */
int mlx5_common_dev_list_add(struct mlx5_common_device *cdev);
bool mlx5_common_dev_listed(const struct rte_device *eal_dev);
struct mlx5_common_device *
mlx5_common_dev_list_del(const struct rte_device *eal_dev);
void mlx5_common_dev_wait_users(struct mlx5_common_device *cdev);
/*
 * Acquire by EAL device name, as mlx5_common_dev_acquire() (release with
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

/* DEVX queue kinds a device record lists. */
enum mlx5_queue_kind {
	MLX5_QUEUE_CQ,
	MLX5_QUEUE_SQ,
	MLX5_QUEUE_RQ,
	MLX5_QUEUE_QP,
};

/* A queue the queue helpers created (mlx5_common_devx.c). */
struct mlx5_queue_track {
	TAILQ_ENTRY(mlx5_queue_track) next;
	const struct mlx5_devx_obj *obj; /* Key only: never dereferenced. */
	enum mlx5_queue_kind kind;
	uint32_t id;	   /* CQ/SQ/RQ/QP number. */
	uint32_t log_size; /* log2 of CQEs, WQEs or send blocks. */
	uint32_t cqn;	   /* Its CQ (SQ, RQ, QP), else 0. */
};

/* What a class driver made on a device (mlx5_class_dev_info_add()). */
struct mlx5_class_dev_info {
	TAILQ_ENTRY(mlx5_class_dev_info) next;
	enum mlx5_class drv_class;
	uint16_t id;
	char kind[16];
	char name[64];
};


/*
 * List a DEVX queue created by the queue helpers (mlx5_common_devx.c) on
 * its device record (mlx5_common_dev.c), or forget it (@obj is compared,
 * never dereferenced). The list is the device's, under cdev->lock;
 * telemetry reads it.
 */
void mlx5_queue_track_add(struct mlx5_common_device *cdev,
			  enum mlx5_queue_kind kind,
			  const struct mlx5_devx_obj *obj, uint32_t log_size,
			  uint32_t cqn);
void mlx5_queue_track_del(struct mlx5_common_device *cdev,
			  const struct mlx5_devx_obj *obj);

/* Drop the device record's lists (queues, class devices) at teardown. */
void mlx5_common_dev_lists_release(struct mlx5_common_device *cdev);

#endif /* MLX5_COMMON_PRIVATE_H_ */
