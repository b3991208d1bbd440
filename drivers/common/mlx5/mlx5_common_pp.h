/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * Packet pacing: rate-limit entries for send queues. An entry's index goes
 * into an SQ's packet_pacing_rate_limit_index; index 0 means unlimited.
 * Shared entries with identical parameters share one device index; a
 * dedicated entry always gets an index of its own.
 */

#ifndef MLX5_COMMON_PP_H_
#define MLX5_COMMON_PP_H_

#include <stdbool.h>
#include <stdint.h>
#include <sys/queue.h>

#include <rte_compat.h>

struct mlx5_common_device;

struct mlx5_pp_attr {
	uint32_t rate_kbps;        /* Within the device's [min, max]; not 0. */
	uint32_t burst_bytes;      /* 0 = device default; needs burst bound cap. */
	uint16_t typical_pkt_size; /* 0 = none; needs typical size cap. */
	uint8_t rate_mode;         /* MLX5_PP_RATE_MODE_DATA_RATE / WQE_RATE. */
	bool dedicated;            /* Own index, never shared. */
};

struct mlx5_pp_entry {
	TAILQ_ENTRY(mlx5_pp_entry) next;
	struct mlx5dv_pp *pp;      /* Backend handle. */
	uint16_t index;            /* Rate table index, 1..size-1. */
	struct mlx5_pp_attr attr;
};

/**
 * Allocate a rate-limit entry. The rate and the optional fields are checked
 * against the device's QoS capabilities before the device is asked.
 *
 * @return
 *   0 and *entry on success; a negative errno value otherwise and rte_errno
 *   is set: ENOTSUP (no packet pacing, or a field the device cannot honour),
 *   EINVAL (rate 0, out of the device range, bad mode), ENOSPC (table full),
 *   or the device's error.
 */
__rte_internal
int mlx5_pp_alloc(struct mlx5_common_device *cdev,
		  const struct mlx5_pp_attr *attr, struct mlx5_pp_entry **entry);

/**
 * Free an entry from mlx5_pp_alloc().
 *
 * @return
 *   0 on success; -EINVAL (rte_errno set) if @entry is not a live entry of
 *   this device, in which case nothing changes.
 */
__rte_internal
int mlx5_pp_free(struct mlx5_common_device *cdev, struct mlx5_pp_entry *entry);

#endif /* MLX5_COMMON_PP_H_ */
