/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * DEK objects (general object type 0xc): data encryption keys with a
 * plaintext key (the device's crypto is not in wrapped mode), AES-XTS
 * purpose, 128- or 256-bit keys, an optional key tag, on a PD of the
 * creating context. The key is kept for the crypto engine to come and is
 * never read back.
 */

#include <stdlib.h>
#include <string.h>

#include <rte_common.h>

#include "mlx5_sim_priv.h"

static struct mlx5_sim_dek *
sim_dek_of(struct mlx5_sim_file *file, uint32_t id)
{
	struct mlx5_sim_dek *dek = mlx5_sim_idtab_get(&file->vhca->deks, id);

	return dek != NULL && dek->file == file ? dek : NULL;
}

uint32_t
mlx5_sim_dek_create(struct mlx5_sim_file *file, const void *in,
		    size_t inlen, void *out, struct mlx5_sim_devx_obj *obj)
{
	struct mlx5_sim_vhca *vhca = file->vhca;
	const void *d = MLX5_ADDR_OF(create_dek_in, in, dek);
	struct mlx5_sim_file *owner = NULL;
	struct mlx5_sim_pd_obj *pd;
	struct mlx5_sim_dek *dek;

	if (!vhca->caps.crypto)
		return MLX5_SIM_SYND_GOBJ_TYPE;
	if (MLX5_GET(general_obj_in_cmd_hdr, in, alias_object))
		return MLX5_SIM_SYND_DEK_ALIAS;
	if (inlen < MLX5_ST_SZ_BYTES(create_dek_in))
		return MLX5_SIM_SYND_IN_LEN;
	/* AES-XTS only: TLS, IPsec and MACsec keys are not modelled. */
	if (MLX5_GET(dek, d, key_purpose) != MLX5_DEK_KEY_PURPOSE_AES_XTS)
		return MLX5_SIM_SYND_DEK_PURPOSE;
	if (MLX5_GET(dek, d, key_size) > MLX5_DEK_KEY_SIZE_256)
		return MLX5_SIM_SYND_DEK_SIZE;
	pd = mlx5_sim_pd_find(vhca, MLX5_GET(dek, d, pd), &owner);
	if (pd == NULL || owner != file)
		return MLX5_SIM_SYND_DEK_PD;
	dek = calloc(1, sizeof(*dek));
	if (dek == NULL || mlx5_sim_idtab_alloc(&vhca->deks, dek, &dek->id)) {
		free(dek);
		return MLX5_SIM_SYND_DEK_TABLE_FULL;
	}
	dek->file = file;
	dek->pd = pd;
	dek->key_size = MLX5_GET(dek, d, key_size);
	dek->has_keytag = MLX5_GET(dek, d, has_keytag);
	dek->opaque = MLX5_GET64(dek, d, opaque);
	memcpy(dek->key, MLX5_ADDR_OF(dek, d, key), sizeof(dek->key));
	pd->users++;
	vhca->live.general_objs++;
	MLX5_SET(general_obj_out_cmd_hdr, out, obj_id, dek->id);
	obj->kind = MLX5_SIM_OBJ_DEK;
	obj->obj_type = MLX5_GENERAL_OBJ_TYPE_DEK;
	obj->index = dek->id;
	return MLX5_SIM_SYND_OK;
}

uint32_t
mlx5_sim_dek_query(struct mlx5_sim_file *file, const void *in, void *out,
		   size_t outlen)
{
	struct mlx5_sim_dek *dek = sim_dek_of(file,
		MLX5_GET(general_obj_in_cmd_hdr, in, obj_id));
	void *d = MLX5_ADDR_OF(query_dek_out, out, dek);

	if (dek == NULL)
		return MLX5_SIM_SYND_GOBJ_UNKNOWN;
	if (outlen < MLX5_ST_SZ_BYTES(query_dek_out))
		return MLX5_SIM_SYND_OUT_LEN;
	MLX5_SET(general_obj_out_cmd_hdr, out, obj_id, dek->id);
	MLX5_SET(dek, d, state, MLX5_DEK_STATE_READY);
	MLX5_SET(dek, d, key_size, dek->key_size);
	MLX5_SET(dek, d, has_keytag, dek->has_keytag);
	MLX5_SET(dek, d, key_purpose, MLX5_DEK_KEY_PURPOSE_AES_XTS);
	MLX5_SET(dek, d, pd, dek->pd->pdn);
	MLX5_SET64(dek, d, opaque, dek->opaque);
	/* The key is a secret: never read back. */
	return MLX5_SIM_SYND_OK;
}

uint32_t
mlx5_sim_dek_destroy(struct mlx5_sim_file *file, uint32_t id)
{
	struct mlx5_sim_dek *dek = sim_dek_of(file, id);

	if (dek == NULL)
		return MLX5_SIM_SYND_GOBJ_UNKNOWN;
	mlx5_sim_idtab_free(&file->vhca->deks, id);
	dek->pd->users--;
	file->vhca->live.general_objs--;
	/* The key goes with the object (a wipe the compiler keeps). */
	mlx5_sim_dek_cipher_free(dek);
	explicit_bzero(dek->key, sizeof(dek->key));
	free(dek);
	return MLX5_SIM_SYND_OK;
}

bool
mlx5_sim_dek_exists(struct mlx5_sim_file *file, uint32_t id)
{
	return sim_dek_of(file, id) != NULL;
}
