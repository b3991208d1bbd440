/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * The software device's model, base of its type headers: the system,
 * DPDK header-only and rdma-core includes, the PRM layouts, the log and
 * invariant macros, the limits and handle magic values
 * (mlx5_sim_priv.h says how the model is cut and locked).
 */

#ifndef MLX5_SIM_BASE_H_
#define MLX5_SIM_BASE_H_

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/queue.h>
#include <sys/types.h>

#include <rte_bitops.h>
#include <rte_branch_prediction.h>
#include <rte_common.h>

#include <infiniband/mlx5dv.h>
#include <infiniband/verbs.h>

/* The PRM layouts: the spec the device implements, shared with the driver. */
#include "mlx5_prm.h"
#include "mlx5_sim.h"

/* A sanitizer build: ASan or TSan, in gcc's spelling or clang's. */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define MLX5_SIM_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define MLX5_SIM_SANITIZED 1
#endif
#endif

/*
 * The sim object that embeds rdma-core's public struct at @member. Unlike
 * DPDK's container_of(), the cast goes through void *: the public structs
 * (struct mlx5dv_pp, 2-byte aligned) are less aligned than ours, which
 * clang's -Wcast-align reports on a direct cast.
 */
#define MLX5_SIM_OF(ptr, type, member) \
	((type *)(void *)((char *)(ptr) - offsetof(type, member)))

/*
 * The device's log lines, through the sink its front installed
 * (mlx5_sim_log_set(), mlx5_sim_log.c): the model calls nothing of EAL.
 */
#define SIM_LOG(level, fmt, ...) \
	mlx5_sim_log(MLX5_SIM_LOG_ ## level, "mlx5_sim: " fmt "\n", \
		     ## __VA_ARGS__)
void mlx5_sim_log(int level, const char *fmt, ...) __rte_format_printf(2, 3);
/* Abort with a log line when @cond, an invariant of the model, fails. */
#define MLX5_SIM_VERIFY(cond) do { \
	if (unlikely(!(cond))) \
		mlx5_sim_die(__FILE__, __LINE__, #cond); \
} while (0)
__rte_noreturn void mlx5_sim_die(const char *file, int line, const char *what);

/* The longest compressed CQE session the cqe_comp shape key allows. */
#define MLX5_SIM_CQE_COMP_MAX 64

/* The CRYPTO_OPERATIONAL register's import KEK (16 or 32 bytes). */
#define MLX5_SIM_KEK_MAX 32
#define MLX5_SIM_CREDENTIAL_LEN MLX5_CRYPTO_CREDENTIAL_LEN

/* Ports of a vHCA. */
#define MLX5_SIM_MAX_PORTS 2
/* Table limits of a vHCA. */
/*
 * Mkey indices 1..2^log_max_mkey - 1, a device setting (log_max_mkey):
 * 2^20 by default (a ConnectX has 2^24, the most a key's 24-bit index
 * names; DPDK's crypto PMD takes a key a descriptor, 4096 a queue pair,
 * 8 queue pairs in its tests), 2^16 at least.
 */
#define MLX5_SIM_LOG_MIN_MKEY 16
#define MLX5_SIM_LOG_DEFAULT_MKEY 20
#define MLX5_SIM_LOG_MAX_MKEY 24
#define MLX5_SIM_MKEY_TABLE_SIZE(vhca) (1u << (vhca)->caps.log_max_mkey)
#define MLX5_SIM_MAX_PDS 4096
#define MLX5_SIM_MAX_UMEMS 4096
#define MLX5_SIM_MAX_UARS 1024
/* The most device memory a vHCA may have (dm_size): 16 MiB. */
#define MLX5_SIM_MAX_DM_SIZE (16u << 20)
#define MLX5_SIM_MAX_UCTX 4096
#define MLX5_SIM_MAX_KLM_ENTRIES (1u << 16)
#define MLX5_SIM_MAX_CQS (1u << 16)     /* Numbers 1..max-1. */
#define MLX5_SIM_MAX_QPS (1u << 16)
/* XRC domain numbers: 1..2^16-1. */
#define MLX5_SIM_MAX_XRCDS (1u << 16)
/* Queue counter sets: ids 1..128 (rqc.counter_set_id is 8 bits, 0 none). */
#define MLX5_SIM_MAX_Q_COUNTERS 128
/* Queue sizes (log2): CQEs per CQ, WQEs per QP queue. */
#define MLX5_SIM_LOG_MAX_CQ_SZ 22
#define MLX5_SIM_LOG_MAX_QP_SZ 15
#define MLX5_SIM_LOG_MAX_MSG 31
/*
 * Scatter/gather entries per WQE the kernel reports for a 512-byte WQE:
 * (512 - control and address segments) / 16 (mlx5_ib's MLX5_MAX_SGE_RD).
 */
#define MLX5_SIM_MAX_SGE 30
/* P_Key table entries of a function (pkey_table_size: 128). */
#define MLX5_SIM_MAX_PKEYS 128
/* Completion vectors, each with its event queue (EQN base + vector). */
#define MLX5_SIM_NUM_COMP_VECTORS 4
#define MLX5_SIM_EQN_BASE 0x20
/* First PD number: far from PD handles, so that mixing them up shows. */
#define MLX5_SIM_PDN_BASE 0x100

/* Magic values of the handles given to callers. */
#define MLX5_SIM_MAGIC_CTX 0x53494d43u  /* "SIMC" */
#define MLX5_SIM_MAGIC_PD 0x53494d50u   /* "SIMP" */
#define MLX5_SIM_MAGIC_MR 0x53494d4du   /* "SIMM" */
#define MLX5_SIM_MAGIC_OBJ 0x53494d4fu  /* "SIMO" */
#define MLX5_SIM_MAGIC_UMEM 0x53494d55u /* "SIMU" */
#define MLX5_SIM_MAGIC_UAR 0x53494d52u  /* "SIMR" */
#define MLX5_SIM_MAGIC_DVMK 0x53494d4bu /* "SIMK" */
#define MLX5_SIM_MAGIC_PP 0x53494d51u   /* "SIMQ" */
#define MLX5_SIM_MAGIC_MATCHER 0x53494d46u /* "SIMF" */
#define MLX5_SIM_MAGIC_FLOW 0x53494d57u  /* "SIMW" */
#define MLX5_SIM_MAGIC_VERBS 0x53494d56u /* "SIMV": verbs queue objects. */
#define MLX5_SIM_MAGIC_DM 0x53494d44u   /* "SIMD" */
#define MLX5_SIM_MAGIC_FTABLE 0x53494d54u /* "SIMT" */
#define MLX5_SIM_MAGIC_DEAD 0xdeadbeefu

struct mlx5_sim_card;
struct mlx5_sim_vhca;
struct mlx5_sim_file;

#endif /* MLX5_SIM_BASE_H_ */
