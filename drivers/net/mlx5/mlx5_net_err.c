/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * Error completions of both bursts: the cause of a CQE's syndrome, its
 * xstat name and the rate-limited log line. Calls only the log type.
 */

#include <inttypes.h>

#include <rte_byteorder.h>
#include <rte_cycles.h>

#include <mlx5_common_dp.h>

#include "mlx5_net.h"

const char *const mlx5_net_err_cause_names[MLX5_NET_ERR_CAUSES] = {
	[MLX5_NET_ERR_LOCAL_LENGTH] = "err_local_length",
	[MLX5_NET_ERR_LOCAL_QP_OP] = "err_local_qp_op",
	[MLX5_NET_ERR_LOCAL_PROTECTION] = "err_local_protection",
	[MLX5_NET_ERR_LOCAL_ACCESS] = "err_local_access",
	[MLX5_NET_ERR_REMOTE_ACCESS] = "err_remote_access",
	[MLX5_NET_ERR_OTHER] = "err_other",
};

enum mlx5_net_err_cause
mlx5_net_err_cause_of(uint8_t synd)
{
	switch (synd) {
	case MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR:
		return MLX5_NET_ERR_LOCAL_LENGTH;
	case MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR:
		return MLX5_NET_ERR_LOCAL_QP_OP;
	case MLX5_CQE_SYNDROME_LOCAL_PROT_ERR:
		return MLX5_NET_ERR_LOCAL_PROTECTION;
	case MLX5_CQE_SYNDROME_LOCAL_ACCESS_ERR:
		return MLX5_NET_ERR_LOCAL_ACCESS;
	case MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR:
		return MLX5_NET_ERR_REMOTE_ACCESS;
	default:
		return MLX5_NET_ERR_OTHER;
	}
}

/*
 * Count an error completion of @cqe by its cause and log it: at most one
 * line a second per queue, with the number of lines suppressed since.
 */
void
mlx5_net_err_note(struct mlx5_net_qstats *st, bool tx, uint16_t port,
		  uint16_t queue, volatile struct mlx5_cqe64 *cqe)
{
	volatile struct mlx5_err_cqe *err = (volatile void *)cqe;
	uint8_t synd = err->syndrome, vendor = err->vendor_err_synd;
	enum mlx5_net_err_cause cause = mlx5_net_err_cause_of(synd);
	uint64_t now = rte_get_tsc_cycles();

	st->err_cause[cause]++;
	if (st->log_tsc != 0 && now - st->log_tsc < rte_get_tsc_hz()) {
		st->log_suppressed++;
		return;
	}
	DRV_LOG(WARNING,
		"port %u %s queue %u: error completion of WQE %u: syndrome 0x%02x (%s), vendor syndrome 0x%02x; %" PRIu64
		" more since the last line",
		port, tx ? "Tx" : "Rx", queue,
		rte_be_to_cpu_16(err->wqe_counter), synd,
		mlx5_net_err_cause_names[cause], vendor, st->log_suppressed);
	st->log_tsc = now;
	st->log_suppressed = 0;
}
