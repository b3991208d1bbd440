/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * The device's log lines (SIM_LOG(), mlx5_sim_priv.h): formatted here and
 * handed to the sink a front installed (mlx5_sim_log_set()); without one,
 * errors and warnings go to stderr. The model calls nothing of EAL.
 */

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "mlx5_sim_priv.h"

static mlx5_sim_log_sink_t *sim_log_sink;
static mlx5_sim_log_enabled_t *sim_log_check;

void
mlx5_sim_log_set(mlx5_sim_log_sink_t *sink, mlx5_sim_log_enabled_t *enabled)
{
	__atomic_store_n(&sim_log_check, enabled, __ATOMIC_RELEASE);
	__atomic_store_n(&sim_log_sink, sink, __ATOMIC_RELEASE);
}

bool
mlx5_sim_log_enabled(int level)
{
	mlx5_sim_log_enabled_t *check =
		__atomic_load_n(&sim_log_check, __ATOMIC_ACQUIRE);

	return check != NULL ? check(level) : level <= MLX5_SIM_LOG_WARNING;
}

void
mlx5_sim_log(int level, const char *fmt, ...)
{
	mlx5_sim_log_sink_t *sink;
	char line[1024];
	va_list ap;

	if (!mlx5_sim_log_enabled(level))
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	sink = __atomic_load_n(&sim_log_sink, __ATOMIC_ACQUIRE);
	if (sink != NULL)
		sink(level, line);
	else
		fputs(line, stderr);
}

void
mlx5_sim_die(const char *file, int line, const char *what)
{
	mlx5_sim_log(MLX5_SIM_LOG_ERR,
		     "mlx5_sim: %s:%d: invariant broken: %s\n", file, line,
		     what);
	abort();
}
