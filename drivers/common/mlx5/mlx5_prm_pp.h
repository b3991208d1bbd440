/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/* PRM layouts: packet pacing (rate-limit table entries). */

#ifndef MLX5_PRM_PP_H_
#define MLX5_PRM_PP_H_

enum mlx5_pp_rate_mode {
	MLX5_PP_RATE_MODE_DATA_RATE = 0x0,
	MLX5_PP_RATE_MODE_WQE_RATE = 0x1,
};

/* The context passed to mlx5dv_pp_alloc(): 48 bytes. */
struct mlx5_ifc_set_pp_rate_limit_context_bits {
	u8 rate_limit[0x20];
	u8 burst_upper_bound[0x20];
	u8 reserved_at_40[0xc];
	u8 rate_mode[0x4];
	u8 typical_packet_size[0x10];
	u8 reserved_at_60[0x120];
};

/* SET_PP_RATE_LIMIT as the kernel issues it for mlx5dv_pp_alloc(). */
struct mlx5_ifc_set_pp_rate_limit_in_bits {
	u8 opcode[0x10];
	u8 uid[0x10];
	u8 reserved_at_20[0x10];
	u8 op_mod[0x10];
	u8 reserved_at_40[0x10];
	u8 rate_limit_index[0x10];
	u8 reserved_at_60[0x20];
	struct mlx5_ifc_set_pp_rate_limit_context_bits ctx;
};

struct mlx5_ifc_set_pp_rate_limit_out_bits {
	u8 status[0x8];
	u8 reserved_at_8[0x18];
	u8 syndrome[0x20];
	u8 reserved_at_40[0x40];
};

#endif /* MLX5_PRM_PP_H_ */
