/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * Secondary processes. A DPDK secondary process (--proc-type=secondary)
 * uses the devices its primary probed: the common layer of the secondary
 * probes a record of the primary's device (cdev->secondary, no context nor
 * PD of its own) and class drivers that can (mlx5_class_driver.secondary)
 * attach to what the primary made, in memory both processes map. What only
 * the primary can do is asked of it over DPDK's IPC (rte_mp), as DPDK's
 * mlx5 drivers do:
 * - the device record itself (at probe);
 * - memory registration: a secondary queue's MR cache miss is looked up,
 *   or registered, by the primary's MR cache (mlx5_mr_ctrl_init() on the
 *   secondary's record does this by itself);
 * - class requests (mlx5_mp_class_request()): what a class driver needs
 *   the primary to do on the device (queue recovery, counter queries).
 * The backend reaches the device's doorbells (mlx5_uar_import(),
 * mlx5_common_devx.h).
 */

#ifndef MLX5_COMMON_MP_H_
#define MLX5_COMMON_MP_H_

#include <stdint.h>

#include <rte_compat.h>

#include "mlx5_common.h"

/** A class driver's request to the primary (mlx5_mp_class_request()). */
struct mlx5_mp_class_msg {
	uint32_t op;       /**< The class driver's own operation code. */
	uint32_t port;     /**< Its arguments, as it defines them. */
	uint32_t queue;
	int32_t result;    /**< Reply: 0 or a negative errno. */
	uint64_t val;      /**< Reply (and argument) value. */
};

/**
 * From a secondary process: have the primary run @msg on its device of
 * @cdev (a secondary record) through the class driver of @drv_class
 * (mlx5_class_driver.mp_request), and wait for the reply (5 s at most).
 *
 * @return
 *   0 with @msg updated by the primary (its result in msg->result), or a
 *   negative errno with rte_errno set when the request could not be made
 *   (-E_RTE_SECONDARY when called from the primary, -ETIMEDOUT, ...).
 */
__rte_internal
int mlx5_mp_class_request(struct mlx5_common_device *cdev,
			  enum mlx5_class drv_class,
			  struct mlx5_mp_class_msg *msg);

#endif /* MLX5_COMMON_MP_H_ */
