/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * Cross-vHCA access, both halves: ALLOW_OTHER_VHCA_ACCESS on the owner and
 * the alias general object (CREATE/QUERY/MODIFY/DESTROY_GENERAL_OBJECT with
 * obj_type MKEY and alias_object=1) on the importer. An alias is an mkey in
 * the importer's table (lkey = obj_id << 8) that translates to the owner's
 * mkey for as long as the owner keeps it and its grant with the same key.
 */

#include <errno.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_common.h>

#include "mlx5_sim_priv.h"

/* Is the owner's mkey still there and granted with this key? */
static bool
sim_alias_valid(const struct mlx5_sim_mkey *alias)
{
	const struct mlx5_sim_mkey *target =
		mlx5_sim_remote_get(&alias->r.alias.target);

	return alias->r.alias.bad_status == 0 && target != NULL &&
	       target->allowed &&
	       memcmp(target->access_key, alias->r.alias.access_key,
		      MLX5_ACCESS_KEY_LEN) == 0;
}

/* The alias an (obj_type, obj_id) header names, or a syndrome. */
static uint32_t
sim_gobj_lookup(struct mlx5_sim_file *file, const void *in,
		struct mlx5_sim_mkey **alias)
{
	struct mlx5_sim_mkey *mkey;

	if (MLX5_GET(general_obj_in_cmd_hdr, in, obj_type) !=
	    MLX5_GENERAL_OBJ_TYPE_MKEY)
		return MLX5_SIM_SYND_GOBJ_TYPE;
	mkey = mlx5_sim_mkey_at(file->vhca,
				MLX5_GET(general_obj_in_cmd_hdr, in, obj_id));
	if (mkey == NULL || mkey->origin != MLX5_SIM_ORIGIN_ALIAS)
		return MLX5_SIM_SYND_GOBJ_UNKNOWN;
	*alias = mkey;
	return MLX5_SIM_SYND_OK;
}

uint32_t
mlx5_sim_cmd_create_gobj(struct mlx5_sim_file *file, const void *in,
			 size_t inlen, void *out, size_t outlen,
			 struct mlx5_sim_devx_obj *obj)
{
	const void *actx = MLX5_ADDR_OF(create_alias_obj_in, in, alias_ctx);
	struct mlx5_sim_vhca *vhca = file->vhca;
	struct mlx5_sim_file *pd_owner = NULL;
	struct mlx5_sim_vhca *owner;
	struct mlx5_sim_mkey *target;
	struct mlx5_sim_mkey *alias;
	struct mlx5_sim_pd_obj *pd;
	const uint8_t *key;
	uint32_t pdn;
	uint32_t synd;

	if (MLX5_GET(general_obj_in_cmd_hdr, in, obj_type) ==
	    MLX5_GENERAL_OBJ_TYPE_DEK)
		return mlx5_sim_dek_create(file, in, inlen, out, obj);
	if (MLX5_GET(general_obj_in_cmd_hdr, in, obj_type) ==
	    MLX5_GENERAL_OBJ_TYPE_CRYPTO_LOGIN)
		return mlx5_sim_login_create(file, in, inlen, out, obj);
	if (MLX5_GET(general_obj_in_cmd_hdr, in, obj_type) !=
	    MLX5_GENERAL_OBJ_TYPE_MKEY)
		return MLX5_SIM_SYND_GOBJ_TYPE;
	if (!MLX5_GET(general_obj_in_cmd_hdr, in, alias_object))
		return MLX5_SIM_SYND_GOBJ_NOT_ALIAS;
	if (inlen < MLX5_ST_SZ_BYTES(create_alias_obj_in))
		return MLX5_SIM_SYND_IN_LEN;
	/* cross_vhca_object_to_object_supported & LOCAL_MKEY_TO_REMOTE_MKEY */
	if (!mlx5_sim_vhca_crossing(vhca))
		return MLX5_SIM_SYND_ALIAS_CAP;
	owner = mlx5_sim_card_vhca(vhca->card,
				   MLX5_GET(alias_context, actx,
					    vhca_id_to_be_accessed));
	if (owner == NULL)
		return MLX5_SIM_SYND_ALIAS_VHCA;
	target = mlx5_sim_mkey_at(owner, MLX5_GET(alias_context, actx,
						  object_id_to_be_accessed));
	if (target == NULL)
		return MLX5_SIM_SYND_ALIAS_OBJECT;
	if (!target->allowed)
		return MLX5_SIM_SYND_ALIAS_NOT_ALLOWED;
	key = MLX5_ADDR_OF(alias_context, actx, access_key);
	if (memcmp(key, target->access_key, MLX5_ACCESS_KEY_LEN) != 0)
		return MLX5_SIM_SYND_ALIAS_KEY;
	/* metadata: the importer's pdn in its first 32 bits. */
	pdn = rte_be_to_cpu_32(*(const rte_be32_t *)
			       MLX5_ADDR_OF(alias_context, actx, metadata));
	pd = mlx5_sim_pd_find(vhca, pdn, &pd_owner);
	if (pd == NULL || pd_owner != file)
		return MLX5_SIM_SYND_ALIAS_PD_UNKNOWN;
	synd = mlx5_sim_mkey_alloc(vhca, &alias);
	if (synd != MLX5_SIM_SYND_OK)
		return synd;
	alias->kind = MLX5_SIM_MKEY_ALIAS;
	alias->origin = MLX5_SIM_ORIGIN_ALIAS;
	alias->variant = 0; /* lkey = obj_id << 8 */
	alias->file = file;
	alias->pd = pd;
	alias->pdn = pd->pdn;
	alias->qpn = MLX5_MKC_QPN_ANY;
	alias->r.alias.target.vhca = owner;
	alias->r.alias.target.index = target->index;
	alias->r.alias.target.serial = target->serial;
	alias->r.alias.vhca_id = owner->vhca_id;
	alias->r.alias.obj_id = target->index;
	memcpy(alias->r.alias.access_key, key, MLX5_ACCESS_KEY_LEN);
	pd->users++;
	vhca->live.general_objs++;
	MLX5_SET(general_obj_out_cmd_hdr, out, obj_id, alias->index);
	/* The answer carries the alias context when there is room for it. */
	alias->r.alias.bad_status = vhca->caps.alias_status;
	if (outlen >= MLX5_ST_SZ_BYTES(create_alias_obj_out))
		MLX5_SET(alias_context,
			 MLX5_ADDR_OF(create_alias_obj_out, out, alias_ctx),
			 status, alias->r.alias.bad_status);
	obj->kind = MLX5_SIM_OBJ_ALIAS;
	obj->obj_type = MLX5_GENERAL_OBJ_TYPE_MKEY;
	obj->index = alias->index;
	obj->serial = alias->serial;
	return MLX5_SIM_SYND_OK;
}

uint32_t
mlx5_sim_cmd_query_gobj(struct mlx5_sim_file *file, const void *in,
			void *out, size_t outlen)
{
	void *actx = MLX5_ADDR_OF(query_alias_obj_out, out, alias_ctx);
	struct mlx5_sim_mkey *alias;
	uint32_t synd;

	if (MLX5_GET(general_obj_in_cmd_hdr, in, obj_type) ==
	    MLX5_GENERAL_OBJ_TYPE_DEK)
		return mlx5_sim_dek_query(file, in, out, outlen);
	if (MLX5_GET(general_obj_in_cmd_hdr, in, obj_type) ==
	    MLX5_GENERAL_OBJ_TYPE_CRYPTO_LOGIN)
		return mlx5_sim_login_query(file, in, out, outlen);
	synd = sim_gobj_lookup(file, in, &alias);
	if (synd != MLX5_SIM_SYND_OK)
		return synd;
	if (outlen < MLX5_ST_SZ_BYTES(query_alias_obj_out))
		return MLX5_SIM_SYND_OUT_LEN;
	MLX5_SET(general_obj_out_cmd_hdr, out, obj_id, alias->index);
	MLX5_SET(alias_context, actx, vhca_id_to_be_accessed,
		 alias->r.alias.vhca_id);
	MLX5_SET(alias_context, actx, object_id_to_be_accessed,
		 alias->r.alias.obj_id);
	MLX5_SET(alias_context, actx, status,
		 alias->r.alias.bad_status ? alias->r.alias.bad_status :
		 sim_alias_valid(alias) ? MLX5_ALIAS_STATUS_OK :
		 MLX5_SIM_ALIAS_STATUS_INVALID);
	/* The access key is a secret: never read back. */
	*(rte_be32_t *)MLX5_ADDR_OF(alias_context, actx, metadata) =
		rte_cpu_to_be_32(alias->pdn);
	return MLX5_SIM_SYND_OK;
}

uint32_t
mlx5_sim_cmd_modify_gobj(struct mlx5_sim_file *file, const void *in)
{
	struct mlx5_sim_mkey *alias;
	uint32_t synd;

	/* Neither alias objects, DEKs nor logins are modified here. */
	if (MLX5_GET(general_obj_in_cmd_hdr, in, obj_type) ==
	    MLX5_GENERAL_OBJ_TYPE_DEK)
		return mlx5_sim_dek_exists(file,
			MLX5_GET(general_obj_in_cmd_hdr, in, obj_id)) ?
		       MLX5_SIM_SYND_GOBJ_MODIFY : MLX5_SIM_SYND_GOBJ_UNKNOWN;
	if (MLX5_GET(general_obj_in_cmd_hdr, in, obj_type) ==
	    MLX5_GENERAL_OBJ_TYPE_CRYPTO_LOGIN)
		return mlx5_sim_login_exists(file,
			MLX5_GET(general_obj_in_cmd_hdr, in, obj_id)) ?
		       MLX5_SIM_SYND_GOBJ_MODIFY : MLX5_SIM_SYND_GOBJ_UNKNOWN;
	synd = sim_gobj_lookup(file, in, &alias);
	return synd != MLX5_SIM_SYND_OK ? synd : MLX5_SIM_SYND_GOBJ_MODIFY;
}

uint32_t
mlx5_sim_cmd_destroy_gobj(struct mlx5_sim_file *file, const void *in)
{
	struct mlx5_sim_mkey *alias;
	uint32_t synd;

	if (MLX5_GET(general_obj_in_cmd_hdr, in, obj_type) ==
	    MLX5_GENERAL_OBJ_TYPE_DEK)
		return mlx5_sim_dek_destroy(file,
			MLX5_GET(general_obj_in_cmd_hdr, in, obj_id));
	if (MLX5_GET(general_obj_in_cmd_hdr, in, obj_type) ==
	    MLX5_GENERAL_OBJ_TYPE_CRYPTO_LOGIN)
		return mlx5_sim_login_destroy(file,
			MLX5_GET(general_obj_in_cmd_hdr, in, obj_id));
	synd = sim_gobj_lookup(file, in, &alias);
	if (synd != MLX5_SIM_SYND_OK)
		return synd;
	mlx5_sim_mkey_release(file->vhca, alias);
	return MLX5_SIM_SYND_OK;
}

uint32_t
mlx5_sim_cmd_allow_access(struct mlx5_sim_file *file, const void *in)
{
	struct mlx5_sim_vhca *vhca = file->vhca;
	struct mlx5_sim_mkey *mkey;

	/* allowed_object_for_other_vhca_access & MKEY */
	if (!mlx5_sim_vhca_crossing(vhca))
		return MLX5_SIM_SYND_ALLOW_CAP;
	if (MLX5_GET(allow_other_vhca_access_in, in,
		     object_type_to_be_accessed) != MLX5_GENERAL_OBJ_TYPE_MKEY)
		return MLX5_SIM_SYND_ALLOW_TYPE;
	mkey = mlx5_sim_mkey_at(vhca, MLX5_GET(allow_other_vhca_access_in, in,
					       object_id_to_be_accessed));
	if (mkey == NULL)
		return MLX5_SIM_SYND_ALLOW_OBJECT;
	if (mkey->kind == MLX5_SIM_MKEY_ALIAS ||
	    mkey->kind == MLX5_SIM_MKEY_CROSSING)
		return MLX5_SIM_SYND_ALLOW_INDIRECT;
	if (mkey->file != file)
		return MLX5_SIM_SYND_ALLOW_FOREIGN;
	/* A new grant replaces the key: aliases made with the old one fail. */
	if (!mkey->allowed) {
		mkey->allowed = true;
		vhca->live.allowed++;
	}
	memcpy(mkey->access_key,
	       MLX5_ADDR_OF(allow_other_vhca_access_in, in, access_key),
	       MLX5_ACCESS_KEY_LEN);
	return MLX5_SIM_SYND_OK;
}
