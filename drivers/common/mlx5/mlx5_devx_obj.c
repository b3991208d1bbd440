/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * DEVX general objects and cross-vHCA access: ALLOW_OTHER_VHCA_ACCESS on the
 * owner's side, alias objects on the importer's side.
 */

#include <errno.h>
#include <string.h>

#include <rte_errno.h>

#include "mlx5_common.h"
#include "mlx5_common_log.h"
#include "mlx5_devx_cmds.h"

int
mlx5_devx_cmd_allow_other_vhca_access(struct mlx5_common_device *cdev,
				      uint16_t obj_type, uint32_t obj_id,
				      const uint8_t *access_key)
{
	uint32_t in[MLX5_ST_SZ_DW(allow_other_vhca_access_in)] = { 0 };
	uint32_t out[MLX5_ST_SZ_DW(allow_other_vhca_access_out)];

	if (access_key == NULL) {
		DRV_LOG(ERR, "ALLOW_OTHER_VHCA_ACCESS: no access key");
		rte_errno = EINVAL;
		return -EINVAL;
	}
	MLX5_SET(allow_other_vhca_access_in, in, opcode,
		 MLX5_CMD_OP_ALLOW_OTHER_VHCA_ACCESS);
	MLX5_SET(allow_other_vhca_access_in, in, object_type_to_be_accessed,
		 obj_type);
	MLX5_SET(allow_other_vhca_access_in, in, object_id_to_be_accessed,
		 obj_id);
	memcpy(MLX5_ADDR_OF(allow_other_vhca_access_in, in, access_key),
	       access_key, MLX5_ACCESS_KEY_LEN);
	return MLX5_DEVX_CMD(cdev, allow_other_vhca_access, in, out);
}

struct mlx5_devx_obj *
mlx5_devx_cmd_alias_obj_create(struct mlx5_common_device *cdev,
			       const struct mlx5_devx_alias_attr *attr)
{
	uint32_t in[MLX5_ST_SZ_DW(create_alias_obj_in)] = { 0 };
	uint32_t out[MLX5_ST_SZ_DW(create_alias_obj_out)];
	void *hdr = MLX5_ADDR_OF(create_alias_obj_in, in, hdr);
	void *ctx = MLX5_ADDR_OF(create_alias_obj_in, in, alias_ctx);
	struct mlx5_devx_obj *alias;
	uint32_t status;

	MLX5_SET(general_obj_in_cmd_hdr, hdr, opcode,
		 MLX5_CMD_OP_CREATE_GENERAL_OBJECT);
	MLX5_SET(general_obj_in_cmd_hdr, hdr, obj_type, attr->obj_type);
	MLX5_SET(general_obj_in_cmd_hdr, hdr, alias_object, 1);
	MLX5_SET(alias_context, ctx, vhca_id_to_be_accessed, attr->vhca_id);
	MLX5_SET(alias_context, ctx, object_id_to_be_accessed, attr->obj_id);
	memcpy(MLX5_ADDR_OF(alias_context, ctx, access_key), attr->access_key,
	       MLX5_ACCESS_KEY_LEN);
	/* The importer's PD goes in the first dword of the metadata. */
	*(uint32_t *)MLX5_ADDR_OF(alias_context, ctx, metadata) =
		rte_cpu_to_be_32(attr->pdn);
	alias = MLX5_DEVX_OBJ_CREATE(cdev, create_alias_obj, in, out);
	if (alias == NULL)
		return NULL;
	alias->id = MLX5_GET(general_obj_out_cmd_hdr, out, obj_id);
	alias->type = attr->obj_type;
	/*
	 * Firmware can complete CREATE with an alias it cannot use (a bad
	 * alias_context.status): that is a refusal too, and the object goes.
	 */
	status = MLX5_GET(alias_context,
			  MLX5_ADDR_OF(create_alias_obj_out, out, alias_ctx),
			  status);
	if (status != MLX5_ALIAS_STATUS_OK) {
		DRV_LOG(ERR, "DEVX command CREATE_GENERAL_OBJECT(alias) of vHCA %u object 0x%x: created with alias status %u (not usable)",
			attr->vhca_id, attr->obj_id, status);
		if (mlx5_devx_cmd_destroy(alias) != 0)
			DRV_LOG(ERR, "cannot destroy the unusable alias 0x%x",
				alias->id);
		rte_errno = EINVAL;
		return NULL;
	}
	return alias;
}

int
mlx5_devx_cmd_alias_obj_query(struct mlx5_devx_obj *alias, uint32_t *status)
{
	uint32_t in[MLX5_ST_SZ_DW(query_alias_obj_in)] = { 0 };
	uint32_t out[MLX5_ST_SZ_DW(query_alias_obj_out)];
	void *hdr = MLX5_ADDR_OF(query_alias_obj_in, in, hdr);
	int ret;

	MLX5_SET(general_obj_in_cmd_hdr, hdr, opcode,
		 MLX5_CMD_OP_QUERY_GENERAL_OBJECT);
	MLX5_SET(general_obj_in_cmd_hdr, hdr, obj_type, alias->type);
	MLX5_SET(general_obj_in_cmd_hdr, hdr, obj_id, alias->id);
	ret = MLX5_DEVX_OBJ_QUERY(alias, query_alias_obj, in, out);
	if (ret != 0)
		return ret;
	*status = MLX5_GET(alias_context,
			   MLX5_ADDR_OF(query_alias_obj_out, out, alias_ctx),
			   status);
	return 0;
}

/* Bytes of @attr's key as the device takes it; 0 for a bad key size. */
static size_t
mlx5_dek_key_bytes(const struct mlx5_devx_dek_attr *attr)
{
	size_t len;

	if (attr->key_size > MLX5_DEK_KEY_SIZE_256)
		return 0;
	len = attr->key_size == MLX5_DEK_KEY_SIZE_256 ? 64 : 32;
	/* Wrapped: the tag inside, and RFC 3394's 8 bytes. */
	if (attr->wrapped)
		len += (attr->has_keytag ? sizeof(uint64_t) : 0) + 8;
	return len;
}

struct mlx5_devx_obj *
mlx5_devx_cmd_create_dek(struct mlx5_common_device *cdev,
			 const struct mlx5_devx_dek_attr *attr)
{
	uint32_t in[MLX5_ST_SZ_DW(create_dek_in)] = { 0 };
	uint32_t out[MLX5_ST_SZ_DW(general_obj_out_cmd_hdr)];
	void *dek = MLX5_ADDR_OF(create_dek_in, in, dek);
	size_t want = mlx5_dek_key_bytes(attr);
	uint8_t *key = MLX5_ADDR_OF(dek, dek, key);
	struct mlx5_devx_obj *obj;
	rte_be64_t tag;

	if (!cdev->caps.crypto.sup || !cdev->caps.crypto.dek) {
		DRV_LOG(ERR, "%s: DEK: the device has no %s",
			cdev->dev->name, !cdev->caps.crypto.sup ? "crypto" :
			"DEK object");
		rte_errno = ENOTSUP;
		return NULL;
	}
	if (attr->wrapped != cdev->caps.crypto.wrapped_import) {
		DRV_LOG(ERR, "%s: DEK: the device's crypto takes %s keys only"
			" (its import method), not %s ones", cdev->dev->name,
			attr->wrapped ? "plaintext" : "wrapped",
			attr->wrapped ? "wrapped" : "plaintext");
		rte_errno = ENOTSUP;
		return NULL;
	}
	if (attr->key == NULL || want == 0 || attr->key_len != want) {
		DRV_LOG(ERR, "%s: DEK: %zu %s key bytes for key size %u%s (%zu"
			" expected)", cdev->dev->name, attr->key_len,
			attr->wrapped ? "wrapped" : "plaintext", attr->key_size,
			attr->wrapped && attr->has_keytag ? " with a key tag" :
			"", want);
		rte_errno = EINVAL;
		return NULL;
	}
	MLX5_SET(general_obj_in_cmd_hdr, in, opcode,
		 MLX5_CMD_OP_CREATE_GENERAL_OBJECT);
	MLX5_SET(general_obj_in_cmd_hdr, in, obj_type,
		 MLX5_GENERAL_OBJ_TYPE_DEK);
	MLX5_SET(dek, dek, key_size, attr->key_size);
	MLX5_SET(dek, dek, has_keytag, attr->has_keytag);
	MLX5_SET(dek, dek, key_purpose, attr->key_purpose);
	MLX5_SET(dek, dek, pd, attr->pd);
	MLX5_SET64(dek, dek, opaque, attr->opaque);
	memcpy(key, attr->key, attr->key_len);
	if (attr->has_keytag && !attr->wrapped) {
		tag = rte_cpu_to_be_64(attr->keytag);
		memcpy(key + attr->key_len, &tag, sizeof(tag));
	}
	obj = mlx5_devx_obj_create(cdev, "CREATE_DEK", in, sizeof(in), out,
				   sizeof(out));
	/* The key leaves no copy on the stack (a wipe the compiler keeps). */
	explicit_bzero(key, MLX5_FLD_SZ_BYTES(dek, key));
	if (obj != NULL) {
		obj->id = MLX5_GET(general_obj_out_cmd_hdr, out, obj_id);
		obj->type = MLX5_GENERAL_OBJ_TYPE_DEK;
	}
	return obj;
}

struct mlx5_devx_obj *
mlx5_devx_cmd_create_crypto_login(struct mlx5_common_device *cdev,
				  const struct mlx5_devx_crypto_login_attr *attr)
{
	uint32_t in[MLX5_ST_SZ_DW(create_crypto_login_in)] = { 0 };
	uint32_t out[MLX5_ST_SZ_DW(general_obj_out_cmd_hdr)];
	void *login = MLX5_ADDR_OF(create_crypto_login_in, in, crypto_login);
	const struct mlx5_hca_crypto_attr *c = &cdev->caps.crypto;
	struct mlx5_devx_obj *obj;
	const char *lack = NULL;

	if (!c->sup)
		lack = "crypto";
	else if (!c->wrapped_import)
		lack = "the wrapped import method (its keys are plaintext)";
	else if (!c->login)
		lack = "the crypto login object";
	else if (!c->wrapped_crypto_operational)
		lack = "an operational crypto (it is in commissioning: set its CRYPTO_OPERATIONAL register)";
	if (lack != NULL) {
		DRV_LOG(ERR, "%s: crypto login: the device lacks %s",
			cdev->dev->name, lack);
		rte_errno = ENOTSUP;
		return NULL;
	}
	if (attr->credential_id >= RTE_BIT32(24) ||
	    attr->import_kek_id >= RTE_BIT32(24)) {
		DRV_LOG(ERR, "%s: crypto login: credential %u, import KEK %u:"
			" ids have 24 bits", cdev->dev->name,
			attr->credential_id, attr->import_kek_id);
		rte_errno = EINVAL;
		return NULL;
	}
	MLX5_SET(general_obj_in_cmd_hdr, in, opcode,
		 MLX5_CMD_OP_CREATE_GENERAL_OBJECT);
	MLX5_SET(general_obj_in_cmd_hdr, in, obj_type,
		 MLX5_GENERAL_OBJ_TYPE_CRYPTO_LOGIN);
	MLX5_SET(crypto_login, login, credential_pointer, attr->credential_id);
	MLX5_SET(crypto_login, login, session_import_kek_ptr,
		 attr->import_kek_id);
	memcpy(MLX5_ADDR_OF(crypto_login, login, credential), attr->credential,
	       sizeof(attr->credential));
	obj = mlx5_devx_obj_create(cdev, "CREATE_CRYPTO_LOGIN", in, sizeof(in),
				   out, sizeof(out));
	explicit_bzero(MLX5_ADDR_OF(crypto_login, login, credential),
		       sizeof(attr->credential));
	if (obj != NULL) {
		obj->id = MLX5_GET(general_obj_out_cmd_hdr, out, obj_id);
		obj->type = MLX5_GENERAL_OBJ_TYPE_CRYPTO_LOGIN;
	}
	return obj;
}

int
mlx5_devx_cmd_query_dek(struct mlx5_devx_obj *dek,
			struct mlx5_devx_dek_info *info)
{
	uint32_t in[MLX5_ST_SZ_DW(general_obj_in_cmd_hdr)] = { 0 };
	uint32_t out[MLX5_ST_SZ_DW(query_dek_out)];
	const void *d = MLX5_ADDR_OF(query_dek_out, out, dek);
	int ret;

	MLX5_SET(general_obj_in_cmd_hdr, in, opcode,
		 MLX5_CMD_OP_QUERY_GENERAL_OBJECT);
	MLX5_SET(general_obj_in_cmd_hdr, in, obj_type,
		 MLX5_GENERAL_OBJ_TYPE_DEK);
	MLX5_SET(general_obj_in_cmd_hdr, in, obj_id, dek->id);
	ret = mlx5_devx_obj_query(dek, "QUERY_DEK", in, sizeof(in), out,
				  sizeof(out));
	if (ret != 0)
		return ret;
	info->state = MLX5_GET(dek, d, state);
	info->key_size = MLX5_GET(dek, d, key_size);
	info->key_purpose = MLX5_GET(dek, d, key_purpose);
	info->has_keytag = MLX5_GET(dek, d, has_keytag);
	info->pd = MLX5_GET(dek, d, pd);
	info->opaque = MLX5_GET64(dek, d, opaque);
	return 0;
}
