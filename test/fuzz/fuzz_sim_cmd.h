/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * The input format of fuzz_sim_cmd, shared by the target that reads it
 * (fuzz_sim_cmd.c) and the seed generator that writes it
 * (fuzz_sim_cmd_seeds.c). See fuzz_sim_cmd.c for the whole format.
 */

#ifndef MLX5_FUZZ_SIM_CMD_H_
#define MLX5_FUZZ_SIM_CMD_H_

#include <stdint.h>

#include "mlx5_sim_adapter.h"

/* The card of the target's vHCAs, how many, and context slots each. */
#define CMD_CARD 201
#define NB_VHCA 5
#define NB_CTX 3
/* Fix-ups one mailbox carries at most. */
#define MAX_FIXUPS 8

/* Input flags (first byte). */
#define FLAG_RECLAIM 0x1 /* Leave every object to the reclaim at close. */
#define FLAG_PIN_MAPS 0x2 /* Registrations check /proc/self/maps. */

/* Opcodes a mailbox names by index; others are given raw. */
static const uint16_t opcodes[] = {
	MLX5_CMD_OP_QUERY_HCA_CAP,
	MLX5_CMD_OP_CREATE_MKEY,
	MLX5_CMD_OP_QUERY_MKEY,
	MLX5_CMD_OP_DESTROY_MKEY,
	MLX5_CMD_OP_QUERY_SPECIAL_CONTEXTS,
	MLX5_CMD_OP_SET_PP_RATE_LIMIT,
	MLX5_CMD_OP_QUERY_RATE_LIMIT,
	MLX5_CMD_OP_ALLOC_PD,
	MLX5_CMD_OP_DEALLOC_PD,
	MLX5_CMD_OP_ALLOC_UAR,
	MLX5_CMD_OP_DEALLOC_UAR,
	MLX5_CMD_OP_CREATE_GENERAL_OBJECT,
	MLX5_CMD_OP_MODIFY_GENERAL_OBJECT,
	MLX5_CMD_OP_QUERY_GENERAL_OBJECT,
	MLX5_CMD_OP_DESTROY_GENERAL_OBJECT,
	MLX5_SIM_CMD_OP_CREATE_UCTX,
	MLX5_SIM_CMD_OP_DESTROY_UCTX,
	MLX5_CMD_OP_CREATE_UMEM,
	MLX5_CMD_OP_DESTROY_UMEM,
	MLX5_CMD_OP_ALLOW_OTHER_VHCA_ACCESS,
	/* Queues (appended: the indices above stay those of the corpus). */
	MLX5_CMD_OP_CREATE_CQ,
	MLX5_CMD_OP_QUERY_CQ,
	MLX5_CMD_OP_CREATE_QP,
	MLX5_CMD_OP_RST2INIT_QP,
	MLX5_CMD_OP_INIT2RTR_QP,
	MLX5_CMD_OP_RTR2RTS_QP,
	MLX5_CMD_OP_2ERR_QP,
	MLX5_CMD_OP_2RST_QP,
	MLX5_CMD_OP_QUERY_QP,
	MLX5_CMD_OP_ALLOC_TRANSPORT_DOMAIN,
	MLX5_CMD_OP_CREATE_TIS,
	MLX5_CMD_OP_CREATE_SQ,
	MLX5_CMD_OP_MODIFY_SQ,
	MLX5_CMD_OP_QUERY_SQ,
	MLX5_CMD_OP_CREATE_RQ,
	MLX5_CMD_OP_MODIFY_RQ,
	MLX5_CMD_OP_QUERY_RQ,
	MLX5_CMD_OP_CREATE_RQT,
	MLX5_CMD_OP_MODIFY_RQT,
	MLX5_CMD_OP_CREATE_TIR,
	MLX5_CMD_OP_QUERY_VPORT_STATE,
	MLX5_CMD_OP_QUERY_NIC_VPORT_CONTEXT,
	/* Queue counters. */
	MLX5_CMD_OP_ALLOC_Q_COUNTER,
	MLX5_CMD_OP_QUERY_Q_COUNTER,
	MLX5_CMD_OP_DEALLOC_Q_COUNTER,
};

/* Records. */
enum {
	R_GENERAL_CMD,
	R_OBJ_CREATE,
	R_OBJ_QUERY,
	R_OBJ_MODIFY,
	R_OBJ_DESTROY,
	R_UMEM_REG,
	R_UMEM_DEREG,
	R_UAR_ALLOC,
	R_UAR_FREE,
	R_PD_ALLOC,
	R_PD_DEALLOC,
	R_PD_IMPORT,
	R_PD_UNIMPORT,
	R_PD_QUERY,
	R_MR_REG,
	R_MR_DEREG,
	R_DV_MKEY_CREATE,
	R_DV_MKEY_DESTROY,
	R_PP_ALLOC,
	R_PP_FREE,
	R_QUERY_DEVICE,
	R_QUEUE_OP,
	R_CTX_OPEN,
	R_CTX_IMPORT,
	R_CTX_CLOSE,
	R_DMA,
	R_FAULT,
	R_DEVICE_LIST,
	R_PROTECT,
	R_PIN_DIFF,
	R_KICK,       /* A doorbell: UAR slot, object slot (its number). */
	R_FLOW,       /* A steering matcher and rule to an object slot. */
	R_NUM
};

/* Where a fix-up or a key takes its value from. */
enum {
	V_PDN,        /* PD number of a PD slot. */
	V_PD_HANDLE,  /* ibv_pd.handle of a PD slot. */
	V_UMEM_ID,    /* umem id of a umem slot. */
	V_OBJ_INDEX,  /* mkey index / alias object id of an object slot. */
	V_OBJ_KEY,    /* Key (index << 8 | variant) of an object slot. */
	V_MR_KEY,     /* lkey of an MR slot. */
	V_MR_INDEX,   /* Its mkey index (lkey >> 8). */
	V_DVMK_KEY,   /* lkey of an mlx5dv mkey slot. */
	V_DVMK_INDEX, /* Its mkey index. */
	V_BUF_LO,     /* Low 32 bits of the buffer of vHCA (slot % NB_VHCA). */
	V_BUF_HI,     /* High 32 bits of it. */
	V_VHCA_ID,    /* vhca_id of vHCA (slot % NB_VHCA). */
	V_UAR_PAGE,   /* page_id of a UAR slot. */
	V_PP_INDEX,   /* Rate table index of a pacing slot. */
	V_RAW,        /* The next 32 bits of the input. */
	V_NUM
};

/* Write the seed corpus into folder @dir. */
void fuzz_sim_cmd_write_seeds(const char *dir);

#endif /* MLX5_FUZZ_SIM_CMD_H_ */
