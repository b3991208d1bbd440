/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * The common device: what every mlx5 class driver (net, crypto) stands on.
 * A bus driver (PCI/auxiliary for the rdma-core backend, vdev for the
 * software device) calls mlx5_common_dev_probe() with its backend; the
 * common layer parses the devargs, opens or imports the device context and
 * PD, queries capabilities and then probes every class named by `class=`.
 */

#ifndef MLX5_COMMON_H_
#define MLX5_COMMON_H_

#include <stdbool.h>
#include <pthread.h>
#include <stdint.h>
#include <sys/queue.h>

#include <rte_bitops.h>
#include <rte_compat.h>
#include <rte_kvargs.h>
#include <rte_spinlock.h>
#include <dev_driver.h>

#include "mlx5_glue.h"
#include "mlx5_devx_cmds.h"

/* Device classes a common device can be probed for (class= devarg). */
enum mlx5_class {
	MLX5_CLASS_INVALID = 0,
	MLX5_CLASS_ETH = RTE_BIT32(0),
	MLX5_CLASS_VDPA = RTE_BIT32(1),
	MLX5_CLASS_REGEX = RTE_BIT32(2),
	MLX5_CLASS_COMPRESS = RTE_BIT32(3),
	MLX5_CLASS_CRYPTO = RTE_BIT32(4),
};

/*
 * Devargs bookkeeping: every layer (common, backend, class drivers) takes the
 * keys it knows and marks them used; whatever is left unused when the probe
 * ends is an unknown key and fails the probe with a message naming it.
 */
struct mlx5_kvargs_ctrl {
	struct rte_kvargs *kvlist;
	bool is_used[RTE_KVARGS_MAX];
};

/* Handler for one devarg: 0, or a negative errno after logging the cause. */
typedef int (*mlx5_kvarg_handler_t)(const char *key, const char *value,
				    void *opaque);

/* Configuration from the common devargs. */
struct mlx5_common_dev_config {
	uint32_t classes;        /* class=, default eth. */
	int cmd_fd;              /* cmd_fd=, -1 if not given. */
	uint32_t pd_handle;      /* pd_handle=, valid when cmd_fd >= 0. */
	bool mr_ext_memseg_en;   /* mr_ext_memseg_en=, default 1. */
	bool mr_mempool_reg_en;  /* mr_mempool_reg_en=, default 1. */
	bool sys_mem_en;         /* sys_mem_en=, default 0. */
	bool mr_whole_mem_en;    /* mr_whole_mem_en=, default 0. */
};

struct mlx5_common_device;
struct mlx5_mr_cache;
struct mlx5_pp_entry;
struct mlx5_key;
struct mlx5_queue_track;
struct mlx5_class_dev_info;
struct mlx5_uar;
struct mlx5_mp_class_msg;

/* A backend: how a bus driver finds and opens its devices. */
struct mlx5_backend {
	const char *name;
	/* Operations table; may be filled at run time (dlopen). */
	const struct mlx5_glue *glue;
	/*
	 * Take the backend's own devargs from @kv (marking them used) and
	 * return the device to open in @ibv_dev. 0 or a negative errno.
	 */
	int (*find_device)(struct mlx5_common_device *cdev,
			   struct mlx5_kvargs_ctrl *kv,
			   struct ibv_device **ibv_dev);
	/* Undo find_device (optional). */
	void (*release_device)(struct mlx5_common_device *cdev);
	/*
	 * Secondary processes (optional; NULL: the backend has none). In a
	 * secondary process the device is the primary's: attach_secondary
	 * keeps what it needs to reach that device (cdev->backend_priv), from
	 * cdev->primary->backend_id (vdevs have no devargs in a secondary
	 * process; @kv holds those it has); uar_import makes @uar ring
	 * the primary's UAR page @page_id from this process (mmap_off as
	 * rdma-core gives it in mlx5dv_devx_uar); uar_unimport undoes it.
	 */
	int (*attach_secondary)(struct mlx5_common_device *cdev,
				struct mlx5_kvargs_ctrl *kv);
	void (*detach_secondary)(struct mlx5_common_device *cdev);
	int (*uar_import)(struct mlx5_common_device *cdev, uint32_t page_id,
			  uint64_t mmap_off, struct mlx5_uar *uar);
	void (*uar_unimport)(struct mlx5_common_device *cdev,
			     struct mlx5_uar *uar);
};

struct mlx5_common_device {
	TAILQ_ENTRY(mlx5_common_device) next;
	struct rte_device *dev;            /* EAL device. */
	const struct mlx5_backend *backend;
	const struct mlx5_glue *glue;      /* backend->glue, per device. */
	struct ibv_device *ibv_dev;        /* As found by the backend. */
	void *backend_priv;                /* Backend's per-device data. */
	struct ibv_context *ctx;           /* Device context (own or imported). */
	struct ibv_pd *pd;                 /* Protection domain (own or imported). */
	uint32_t pdn;                      /* PD number for PRM commands. */
	bool ctx_imported;                 /* ctx came from cmd_fd. */
	bool pd_imported;                  /* pd came from pd_handle. */
	uint32_t classes_loaded;           /* Classes probed successfully. */
	struct mlx5_common_dev_config config;
	struct mlx5_hca_attr caps;         /* Queried at probe. */
	struct mlx5_mr_cache *mr_cache;    /* MRs (mlx5_common_mr.h). */
	/*
	 * The variant byte (mkey_7_0) of the next mkey this device creates:
	 * rotated on each creation, as the kernel's mlx5_ib does, so that a
	 * stale key does not work again once its index is reused.
	 */
	uint32_t mkey_variant;
	uint32_t users;                    /* API calls in flight (acquire). */
	rte_spinlock_t lock;               /* Guards the lists below. */
	TAILQ_HEAD(, mlx5_pp_entry) pp_entries; /* Live pacing entries. */
	/*
	 * What was made on the device, for its readers (telemetry): live
	 * DEVX queues and class devices (mlx5_common_dev.c).
	 */
	TAILQ_HEAD(, mlx5_queue_track) queues;
	uint32_t queues_untracked;         /* Not listed (no memory). */
	/* What class drivers made (ethdev, cryptodev). */
	TAILQ_HEAD(, mlx5_class_dev_info) class_devs;
	/* Keys handed out by the public API (mlx5_common_keys.c). */
	pthread_mutex_t keys_lock;
	TAILQ_HEAD(, mlx5_key) keys;
	/*
	 * In a secondary process (mlx5_common_mp.h): this process's record
	 * of the primary's device. No context nor PD; caps, config and pdn
	 * copied; mr_cache asks the primary. @primary is the primary's
	 * record, in memory both processes map: read it, call nothing
	 * through it (its function pointers are the primary's).
	 */
	bool secondary;
	struct mlx5_common_device *primary;
	/*
	 * The backend's identity of the device, set by find_device in the
	 * primary, for attach_secondary (secondary processes have no
	 * devargs of vdevs; this record is in shared memory).
	 */
	uint8_t backend_id[32];
};

/**
 * Probe of a class driver (net, crypto, ...) on a common device.
 *
 * Called by mlx5_common_dev_probe() once the device is ready: context and
 * PD open (or imported), capabilities in cdev->caps, MR cache created, the
 * device listed (the public API and mlx5_common_dev_get() find it). The
 * class drivers of a device probe one after the other, in registration
 * order, from the thread that probes the device; no common-layer lock is
 * held, so a probe may call any service of the common layer.
 *
 * Devargs: take the keys of this class with mlx5_kvargs_process(), which
 * marks them used. A key no layer marks fails the whole probe afterwards
 * (naming the key), so never mark a key the driver does not understand.
 *
 * Failure: return a negative errno (rte_errno set), with everything this
 * probe allocated already released: remove is not called for a class whose
 * probe failed. The class drivers probed before it are removed, in reverse
 * order, and the device probe fails with that errno.
 *
 * @return
 *   0 on success, a negative errno value otherwise and rte_errno is set.
 */
typedef int (mlx5_class_driver_probe_t)(struct mlx5_common_device *cdev,
					struct mlx5_kvargs_ctrl *kv);

/**
 * Remove of a class driver: release everything its probe and later
 * operations created on @cdev (queues, MRs of its own, pacing entries, DEVX
 * objects). Called in reverse registration order when the device is
 * removed, or when a later class's probe or the devargs check fails. The
 * device is still complete (context, PD, MR cache) and no longer listed:
 * calls of the public API that were in progress have returned and new ones
 * fail with ENODEV. What a class leaves behind is released by the common
 * layer with a warning (keys, pacing entries, MRs).
 *
 * @return
 *   0 on success; a negative errno is logged, the removal goes on.
 */
typedef int (mlx5_class_driver_remove_t)(struct mlx5_common_device *cdev);

TAILQ_HEAD(mlx5_class_driver_list, mlx5_class_driver);

/** A class driver registering with the common layer. */
struct mlx5_class_driver {
	TAILQ_ENTRY(mlx5_class_driver) next;
	enum mlx5_class drv_class; /**< The class it serves (class= devarg). */
	const char *name;          /**< For logs. */
	mlx5_class_driver_probe_t *probe;
	mlx5_class_driver_remove_t *remove;
	/**
	 * Probes in secondary processes too (on a device record with
	 * cdev->secondary set); a class without it is skipped there.
	 */
	bool secondary;
	/**
	 * In the primary process: serve a secondary's request made with
	 * mlx5_mp_class_request() on @cdev, the primary's device (optional).
	 * Fill msg->result (0 or a negative errno) and msg->val.
	 */
	void (*mp_request)(struct mlx5_common_device *cdev,
			   struct mlx5_mp_class_msg *msg);
};

/**
 * Register a class driver; call from an RTE_INIT constructor.
 */
__rte_internal
void mlx5_class_driver_register(struct mlx5_class_driver *driver);

/**
 * Tell telemetry (/mlx5/queues,<device>) what a class driver made on a
 * common device: an ethdev port, a cryptodev. Call at the end of a
 * successful probe; call mlx5_class_dev_info_del() before releasing it.
 * Failure (no memory) only loses the entry, with a warning: a class driver
 * need not check. What is left at device removal is dropped.
 *
 * @param kind
 *   What it is: "ethdev", "cryptodev" (copied).
 * @param name
 *   Its name in its library (copied, truncated to 63 characters).
 * @param id
 *   Its id there: ethdev port id, cryptodev id.
 */
__rte_internal
void mlx5_class_dev_info_add(struct mlx5_common_device *cdev,
			     enum mlx5_class drv_class, const char *kind,
			     const char *name, uint16_t id);

/**
 * Forget an entry of mlx5_class_dev_info_add() (same class and id); no-op
 * when there is none.
 */
__rte_internal
void mlx5_class_dev_info_del(struct mlx5_common_device *cdev,
			     enum mlx5_class drv_class, uint16_t id);

/**
 * Probe an EAL device with a backend: parse devargs, open/import the context
 * and PD, query capabilities, probe the requested classes.
 *
 * @return
 *   0 on success, a negative errno value otherwise and rte_errno is set.
 *   Nothing is left allocated in the device on failure.
 */
__rte_internal
int mlx5_common_dev_probe(struct rte_device *eal_dev,
			  const struct mlx5_backend *backend);

/**
 * Remove an EAL device probed by mlx5_common_dev_probe().
 *
 * @return
 *   0 on success, a negative errno value otherwise and rte_errno is set.
 */
__rte_internal
int mlx5_common_dev_remove(struct rte_device *eal_dev);

/**
 * Find the common device of an EAL device.
 *
 * @return
 *   The device, or NULL with rte_errno ENODEV.
 */
__rte_internal
struct mlx5_common_device *mlx5_common_dev_get(const struct rte_device *eal_dev);

/**
 * Find the common device of an EAL device and hold it: its removal waits
 * until every holder called mlx5_common_dev_release(). For public API calls
 * that may race with hot-unplug.
 *
 * @return
 *   The device, or NULL with rte_errno ENODEV.
 */
__rte_internal
struct mlx5_common_device *
mlx5_common_dev_acquire(const struct rte_device *eal_dev);

/**
 * Stop holding a device taken with mlx5_common_dev_acquire().
 */
__rte_internal
void mlx5_common_dev_release(struct mlx5_common_device *cdev);

/**
 * Process the devargs named in @keys (NULL-terminated), calling @handler for
 * each one present and marking it used.
 *
 * @return
 *   0 on success, the first negative errno a handler returned otherwise
 *   (rte_errno is set).
 */
__rte_internal
int mlx5_kvargs_process(struct mlx5_kvargs_ctrl *kv, const char *const keys[],
			mlx5_kvarg_handler_t handler, void *opaque);

/**
 * Parse a devarg value as an unsigned integer in [@min, @max], written in
 * decimal ("0" or digits without a leading zero) or in hexadecimal ("0x"
 * or "0X" and at least one hex digit), and nothing else: no sign, no
 * white space, no octal, no suffix. Logs key, value and the range on error.
 *
 * @return
 *   0 on success, -EINVAL otherwise (rte_errno is set).
 */
__rte_internal
int mlx5_kvarg_parse_uint(const char *key, const char *value, uint64_t min,
			  uint64_t max, uint64_t *result);

/**
 * mlx5_kvarg_parse_uint() in [0, @max].
 *
 * @return
 *   0 on success, -EINVAL otherwise (rte_errno is set).
 */
__rte_internal
int mlx5_kvarg_parse_u64(const char *key, const char *value, uint64_t max,
			 uint64_t *result);

#endif /* MLX5_COMMON_H_ */
