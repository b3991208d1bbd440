/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * PRM (Programmer's Reference Manual) command layouts, part 1: the accessor
 * macros, the mailbox header, status codes and opcodes. The object families
 * have their own headers (mlx5_prm_caps.h, mlx5_prm_mkey.h, mlx5_prm_obj.h,
 * mlx5_prm_pp.h), all included from here.
 *
 * A layout is written as `struct mlx5_ifc_<name>_bits` whose members are
 * `u8 field[width]`: each array element stands for one bit, so offsetof()
 * gives the bit offset and sizeof() the width. Nothing is ever hand-counted.
 * Fields are big-endian within their 32-bit dword, as on the wire.
 */

#ifndef MLX5_PRM_H_
#define MLX5_PRM_H_

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_common.h>

/* Bit-array element type of the layouts; a layout's byte holds one bit. */
typedef uint8_t u8;

#define __mlx5_nullp(typ) ((struct mlx5_ifc_##typ##_bits *)NULL)
#define __mlx5_bit_sz(typ, fld) sizeof(__mlx5_nullp(typ)->fld)
#define __mlx5_bit_off(typ, fld) offsetof(struct mlx5_ifc_##typ##_bits, fld)
#define __mlx5_dw_off(typ, fld) (__mlx5_bit_off(typ, fld) / 32)
#define __mlx5_64_off(typ, fld) (__mlx5_bit_off(typ, fld) / 64)
#define __mlx5_dw_bit_off(typ, fld) \
	(32 - __mlx5_bit_sz(typ, fld) - (__mlx5_bit_off(typ, fld) & 0x1f))
#define __mlx5_mask(typ, fld) \
	((uint32_t)((1ull << __mlx5_bit_sz(typ, fld)) - 1))
#define __mlx5_dw_mask(typ, fld) \
	(__mlx5_mask(typ, fld) << __mlx5_dw_bit_off(typ, fld))

/** Size of a layout in bits, bytes and dwords. */
#define MLX5_ST_SZ_BITS(typ) sizeof(struct mlx5_ifc_##typ##_bits)
#define MLX5_ST_SZ_BYTES(typ) (sizeof(struct mlx5_ifc_##typ##_bits) / 8)
#define MLX5_ST_SZ_DW(typ) (sizeof(struct mlx5_ifc_##typ##_bits) / 32)
/*
 * @p as a void pointer with @p's qualifiers: a conditional between a pointer
 * and a void * that is no null pointer constant (the compound literal) is
 * a void * qualified as both (C11 6.5.15). For _Generic only: not evaluated.
 */
#define __mlx5_qual_void_ptr(p) (1 ? (p) : (void *){ NULL })

static __rte_always_inline void *
__mlx5_addr_of(void *p, size_t byte_off)
{
	return (uint8_t *)p + byte_off;
}

static __rte_always_inline const void *
__mlx5_addr_of_const(const void *p, size_t byte_off)
{
	return (const uint8_t *)p + byte_off;
}

/**
 * Byte offset of a field and its address inside buffer @p p. The address
 * is a const void * when @p p points to const, a void * otherwise: reading
 * a field of an input mailbox does not cast its const away.
 */
#define MLX5_BYTE_OFF(typ, fld) (__mlx5_bit_off(typ, fld) / 8)
#define MLX5_ADDR_OF(typ, p, fld) \
	_Generic(__mlx5_qual_void_ptr(p), \
		 const void *: __mlx5_addr_of_const, \
		 default: __mlx5_addr_of)((p), MLX5_BYTE_OFF(typ, fld))
/** Width of a field in bytes (for byte arrays such as access keys). */
#define MLX5_FLD_SZ_BYTES(typ, fld) (__mlx5_bit_sz(typ, fld) / 8)

/** Set a field of at most 32 bits, leaving its neighbours untouched. */
#define MLX5_SET(typ, p, fld, v) do { \
	RTE_BUILD_BUG_ON(__mlx5_bit_sz(typ, fld) > 32); \
	uint32_t *dw__ = (uint32_t *)(void *)(p) + __mlx5_dw_off(typ, fld); \
	uint32_t cur__ = rte_be_to_cpu_32(*dw__); \
	cur__ &= ~__mlx5_dw_mask(typ, fld); \
	cur__ |= ((uint32_t)(v) & __mlx5_mask(typ, fld)) << \
		 __mlx5_dw_bit_off(typ, fld); \
	*dw__ = rte_cpu_to_be_32(cur__); \
} while (0)

/** Read a field of at most 32 bits. */
#define MLX5_GET(typ, p, fld) \
	((rte_be_to_cpu_32(*((const uint32_t *)(const void *)(p) + \
			      __mlx5_dw_off(typ, fld))) >> \
	  __mlx5_dw_bit_off(typ, fld)) & __mlx5_mask(typ, fld))

/** Set/read a 64-bit, 64-bit aligned field. */
#define MLX5_SET64(typ, p, fld, v) do { \
	RTE_BUILD_BUG_ON(__mlx5_bit_sz(typ, fld) != 64); \
	RTE_BUILD_BUG_ON(__mlx5_bit_off(typ, fld) % 64); \
	*((uint64_t *)(void *)(p) + __mlx5_64_off(typ, fld)) = \
		rte_cpu_to_be_64(v); \
} while (0)
#define MLX5_GET64(typ, p, fld) \
	rte_be_to_cpu_64(*((const uint64_t *)(const void *)(p) + \
			   __mlx5_64_off(typ, fld)))

/* Command return status (output mailbox `status`). */
enum mlx5_cmd_status {
	MLX5_CMD_STAT_OK = 0x0,
	MLX5_CMD_STAT_INT_ERR = 0x1,
	MLX5_CMD_STAT_BAD_OP_ERR = 0x2,
	MLX5_CMD_STAT_BAD_PARAM_ERR = 0x3,
	MLX5_CMD_STAT_BAD_SYS_STATE_ERR = 0x4,
	MLX5_CMD_STAT_BAD_RES_ERR = 0x5,
	MLX5_CMD_STAT_RES_BUSY = 0x6,
	MLX5_CMD_STAT_NOT_READY = 0x7,
	MLX5_CMD_STAT_LIM_ERR = 0x8,
	MLX5_CMD_STAT_BAD_RES_STATE_ERR = 0x9,
	MLX5_CMD_STAT_IX_ERR = 0xa,
	MLX5_CMD_STAT_NO_RES_ERR = 0xf,
	MLX5_CMD_STAT_BAD_QP_STATE_ERR = 0x10,
	MLX5_CMD_STAT_BAD_PKT_ERR = 0x30,
	MLX5_CMD_STAT_BAD_SIZE_OUTS_CQES_ERR = 0x40,
	MLX5_CMD_STAT_BAD_INP_LEN_ERR = 0x50,
	MLX5_CMD_STAT_BAD_OUTP_LEN_ERR = 0x51,
};

/* Command opcodes. */
enum mlx5_cmd_opcode {
	MLX5_CMD_OP_QUERY_HCA_CAP = 0x100,
	MLX5_CMD_OP_CREATE_MKEY = 0x200,
	MLX5_CMD_OP_QUERY_MKEY = 0x201,
	MLX5_CMD_OP_DESTROY_MKEY = 0x202,
	MLX5_CMD_OP_QUERY_SPECIAL_CONTEXTS = 0x203,
	MLX5_CMD_OP_SET_PP_RATE_LIMIT = 0x780,
	MLX5_CMD_OP_QUERY_RATE_LIMIT = 0x781,
	MLX5_CMD_OP_ALLOC_PD = 0x800,
	MLX5_CMD_OP_DEALLOC_PD = 0x801,
	MLX5_CMD_OP_ALLOC_UAR = 0x802,
	MLX5_CMD_OP_DEALLOC_UAR = 0x803,
	MLX5_CMD_OP_ALLOC_MEMIC = 0x205,
	MLX5_CMD_OP_DEALLOC_MEMIC = 0x206,
	MLX5_CMD_OP_CREATE_GENERAL_OBJECT = 0xa00,
	MLX5_CMD_OP_MODIFY_GENERAL_OBJECT = 0xa01,
	MLX5_CMD_OP_QUERY_GENERAL_OBJECT = 0xa02,
	MLX5_CMD_OP_DESTROY_GENERAL_OBJECT = 0xa03,
	MLX5_CMD_OP_CREATE_UMEM = 0xa08,
	MLX5_CMD_OP_DESTROY_UMEM = 0xa0a,
	MLX5_CMD_OP_ALLOW_OTHER_VHCA_ACCESS = 0xb16,
};

/* Every command input starts with this header. */
struct mlx5_ifc_mbox_in_bits {
	u8 opcode[0x10];
	u8 uid[0x10];
	u8 reserved_at_20[0x10];
	u8 op_mod[0x10];
	u8 reserved_at_40[0x40];
};

/* Every command output starts with this header. */
struct mlx5_ifc_mbox_out_bits {
	u8 status[0x8];
	u8 reserved_at_8[0x18];
	u8 syndrome[0x20];
	u8 reserved_at_40[0x40];
};

/* ALLOC_PD / DEALLOC_PD (through DEVX, or issued by the kernel). */
struct mlx5_ifc_alloc_pd_in_bits {
	u8 opcode[0x10];
	u8 uid[0x10];
	u8 reserved_at_20[0x10];
	u8 op_mod[0x10];
	u8 reserved_at_40[0x40];
};

struct mlx5_ifc_alloc_pd_out_bits {
	u8 status[0x8];
	u8 reserved_at_8[0x18];
	u8 syndrome[0x20];
	u8 reserved_at_40[0x8];
	u8 pd[0x18];
	u8 reserved_at_60[0x20];
};

struct mlx5_ifc_dealloc_pd_in_bits {
	u8 opcode[0x10];
	u8 uid[0x10];
	u8 reserved_at_20[0x10];
	u8 op_mod[0x10];
	u8 reserved_at_40[0x8];
	u8 pd[0x18];
	u8 reserved_at_60[0x20];
};

/* A bare output for commands that return nothing but status and syndrome. */
struct mlx5_ifc_empty_out_bits {
	u8 status[0x8];
	u8 reserved_at_8[0x18];
	u8 syndrome[0x20];
	u8 reserved_at_40[0x40];
};

/*
 * Commands that name one object by a 24-bit number after the header
 * (DESTROY/QUERY of QP, SQ, RQ, TIS, ...), outputs that return one (CREATE
 * of SQ, RQ, TIS, ...), and outputs of status and syndrome alone. One
 * struct per command, with the kernel's names.
 */
#define MLX5_IFC_NAME_ONE_IN(name, field) \
	struct mlx5_ifc_ ## name ## _bits { \
		u8 opcode[0x10]; \
		u8 uid[0x10]; \
		u8 reserved_at_20[0x10]; \
		u8 op_mod[0x10]; \
		u8 reserved_at_40[0x8]; \
		u8 field[0x18]; \
		u8 reserved_at_60[0x20]; \
	}
#define MLX5_IFC_RETURN_ONE_OUT(name, field) \
	struct mlx5_ifc_ ## name ## _bits { \
		u8 status[0x8]; \
		u8 reserved_at_8[0x18]; \
		u8 syndrome[0x20]; \
		u8 reserved_at_40[0x8]; \
		u8 field[0x18]; \
		u8 reserved_at_60[0x20]; \
	}
#define MLX5_IFC_STATUS_OUT(name) \
	struct mlx5_ifc_ ## name ## _bits { \
		u8 status[0x8]; \
		u8 reserved_at_8[0x18]; \
		u8 syndrome[0x20]; \
		u8 reserved_at_40[0x40]; \
	}

#include "mlx5_prm_caps.h"
#include "mlx5_prm_mkey.h"
#include "mlx5_prm_obj.h"
#include "mlx5_prm_pp.h"
#include "mlx5_prm_queue.h"
#include "mlx5_prm_eth.h"
#include "mlx5_prm_rx.h"
#include "mlx5_prm_verbs.h"
#include "mlx5_prm_umr.h"

#endif /* MLX5_PRM_H_ */
