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
	MLX5_GENERAL_OBJ_TYPE_DEK = 0x000c,
	MLX5_GENERAL_OBJ_TYPE_CRYPTO_LOGIN = 0x001f,
	MLX5_GENERAL_OBJ_TYPE_MKEY = 0xff01,
};

/* dek.key_size and dek.key_purpose. */
enum {
	MLX5_DEK_KEY_SIZE_128 = 0x0,
	MLX5_DEK_KEY_SIZE_256 = 0x1,
};

enum {
	MLX5_DEK_KEY_PURPOSE_TLS = 0x1,
	MLX5_DEK_KEY_PURPOSE_IPSEC = 0x2,
	MLX5_DEK_KEY_PURPOSE_AES_XTS = 0x3,
};

/* dek.state as queried. */
enum {
	MLX5_DEK_STATE_READY = 0x0,
	MLX5_DEK_STATE_ERROR = 0x1,
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

/*
 * A data encryption key (general object 0xc; the kernel's
 * encryption_key_obj, whose key field newer PRMs widen to 1024 bits: an
 * AES-XTS key pair of 2 x 256 bits, then an optional 8-byte key tag).
 */
struct mlx5_ifc_dek_bits {
	u8 modify_field_select[0x40];
	u8 state[0x8];
	u8 reserved_at_48[0xc];
	u8 key_size[0x4];
	u8 has_keytag[0x1];
	u8 reserved_at_59[0x3];
	u8 key_purpose[0x4];
	u8 reserved_at_60[0x8];
	u8 pd[0x18];
	u8 reserved_at_80[0x100];
	u8 opaque[0x40];
	u8 reserved_at_1c0[0x40];
	u8 key[0x400];
	u8 reserved_at_600[0x200];
};

struct mlx5_ifc_create_dek_in_bits {
	struct mlx5_ifc_general_obj_in_cmd_hdr_bits hdr;
	struct mlx5_ifc_dek_bits dek;
};

struct mlx5_ifc_query_dek_out_bits {
	struct mlx5_ifc_general_obj_out_cmd_hdr_bits hdr;
	struct mlx5_ifc_dek_bits dek;
};

/*
 * A crypto login (general object 0x1f): the session in which a device in
 * wrapped import mode takes wrapped DEKs. It names a credential and an
 * import KEK (0: those of the CRYPTO_OPERATIONAL register) and carries
 * the credential wrapped with that KEK (40 bytes, 48 once wrapped).
 */
struct mlx5_ifc_crypto_login_bits {
	u8 modify_field_select[0x40];
	u8 reserved_at_40[0x48];
	u8 credential_pointer[0x18];
	u8 reserved_at_a0[0x8];
	u8 session_import_kek_ptr[0x18];
	u8 reserved_at_c0[0x140];
	u8 credential[0x180];
	u8 reserved_at_380[0x480];
};

struct mlx5_ifc_create_crypto_login_in_bits {
	struct mlx5_ifc_general_obj_in_cmd_hdr_bits hdr;
	struct mlx5_ifc_crypto_login_bits crypto_login;
};

struct mlx5_ifc_query_crypto_login_out_bits {
	struct mlx5_ifc_general_obj_out_cmd_hdr_bits hdr;
	struct mlx5_ifc_crypto_login_bits crypto_login;
};

/* Bytes of a login credential, plain and wrapped (RFC 3394 adds 8). */
#define MLX5_CRYPTO_CREDENTIAL_LEN 40
#define MLX5_CRYPTO_WRAPPED_CREDENTIAL_LEN 48

#endif /* MLX5_PRM_OBJ_H_ */
