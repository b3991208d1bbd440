/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * PRM layouts: general objects (CREATE/QUERY/DESTROY_GENERAL_OBJECT), alias
 * objects and ALLOW_OTHER_VHCA_ACCESS, the two halves of cross-vHCA access.
 */

#ifndef MLX5_PRM_OBJ_H_
#define MLX5_PRM_OBJ_H_

/* General object types (header obj_type) and accessed-object types. */
enum mlx5_general_obj_type {
	MLX5_GENERAL_OBJ_TYPE_MKEY = 0xff01,
};

/* alias_context.status as read back: 0 = valid. */
enum {
	MLX5_ALIAS_STATUS_OK = 0x0,
};

/* Size of the access key shared between owner and importer. */
#define MLX5_ACCESS_KEY_LEN 32

struct mlx5_ifc_general_obj_in_cmd_hdr_bits {
	u8 opcode[0x10];
	u8 uid[0x10];
	u8 vhca_tunnel_id[0x10];
	u8 obj_type[0x10];
	u8 obj_id[0x20];
	u8 alias_object[0x1];
	u8 reserved_at_61[0x1f];
};

struct mlx5_ifc_general_obj_out_cmd_hdr_bits {
	u8 status[0x8];
	u8 reserved_at_8[0x18];
	u8 syndrome[0x20];
	u8 obj_id[0x20];
	u8 reserved_at_60[0x20];
};

struct mlx5_ifc_alias_context_bits {
	u8 vhca_id_to_be_accessed[0x10];
	u8 reserved_at_10[0xd];
	u8 status[0x3];
	u8 object_id_to_be_accessed[0x20];
	u8 reserved_at_40[0x40];
	u8 access_key[0x100];
	u8 metadata[0x80];
};

struct mlx5_ifc_create_alias_obj_in_bits {
	struct mlx5_ifc_general_obj_in_cmd_hdr_bits hdr;
	struct mlx5_ifc_alias_context_bits alias_ctx;
};

/* Firmware answers CREATE with the alias context, status included. */
struct mlx5_ifc_create_alias_obj_out_bits {
	struct mlx5_ifc_general_obj_out_cmd_hdr_bits hdr;
	struct mlx5_ifc_alias_context_bits alias_ctx;
};

struct mlx5_ifc_query_alias_obj_in_bits {
	struct mlx5_ifc_general_obj_in_cmd_hdr_bits hdr;
};

struct mlx5_ifc_query_alias_obj_out_bits {
	struct mlx5_ifc_general_obj_out_cmd_hdr_bits hdr;
	struct mlx5_ifc_alias_context_bits alias_ctx;
};

struct mlx5_ifc_allow_other_vhca_access_in_bits {
	u8 opcode[0x10];
	u8 uid[0x10];
	u8 reserved_at_20[0x10];
	u8 op_mod[0x10];
	u8 reserved_at_40[0x50];
	u8 object_type_to_be_accessed[0x10];
	u8 object_id_to_be_accessed[0x20];
	u8 reserved_at_c0[0x40];
	u8 access_key[0x100];
};

struct mlx5_ifc_allow_other_vhca_access_out_bits {
	u8 status[0x8];
	u8 reserved_at_8[0x18];
	u8 syndrome[0x20];
	u8 reserved_at_40[0x40];
};

#endif /* MLX5_PRM_OBJ_H_ */
