/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * DEK objects (general object 0xc) and the crypto login (0x1f): data
 * encryption keys of AES-XTS purpose, 128- or 256-bit key pairs, an
 * optional key tag, on a PD of the creating context. The import method
 * is the device's (shape key crypto): plaintext keys, or wrapped ones.
 * A wrapped device takes a DEK only within a crypto login of its context,
 * whose credential (wrapped with the import KEK) the device checks, and
 * unwraps the key (RFC 3394) with that KEK. The key is kept for the
 * cipher (mlx5_sim_umr.c) and is never read back.
 */

#include <stdlib.h>
#include <string.h>

#include <openssl/crypto.h>
#include <openssl/evp.h>

#include <rte_byteorder.h>
#include <rte_common.h>

#include "mlx5_sim_priv.h"

/* RFC 3394 adds 8 bytes (its integrity value) to what it wraps. */
#define SIM_WRAP_OVERHEAD 8

/*
 * Unwrap @len bytes of @in under the @kek_len-byte @kek into @out
 * (@len - 8 bytes): 0, or -1 when the integrity check fails.
 */
static int
sim_unwrap(const uint8_t *kek, size_t kek_len, const uint8_t *in, size_t len,
	   uint8_t *out)
{
	EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
	int n = 0, ok;

	if (ctx == NULL)
		return -1;
	EVP_CIPHER_CTX_set_flags(ctx, EVP_CIPHER_CTX_FLAG_WRAP_ALLOW);
	ok = EVP_DecryptInit_ex(ctx, kek_len == 32 ? EVP_aes_256_wrap() :
				EVP_aes_128_wrap(), NULL, kek, NULL) &&
	     EVP_DecryptUpdate(ctx, out, &n, in, (int)len) &&
	     n == (int)(len - SIM_WRAP_OVERHEAD);
	EVP_CIPHER_CTX_free(ctx);
	return ok ? 0 : -1;
}

/* The live login of @file whose object id is @id, or NULL. */
static struct mlx5_sim_login *
sim_login_of(struct mlx5_sim_file *file, uint32_t id)
{
	return file->login.live && file->login.id == id ? &file->login : NULL;
}

uint32_t
mlx5_sim_login_create(struct mlx5_sim_file *file, const void *in,
		      size_t inlen, void *out, struct mlx5_sim_devx_obj *obj)
{
	struct mlx5_sim_vhca *vhca = file->vhca;
	const struct mlx5_sim_caps *caps = &vhca->caps;
	const void *l = MLX5_ADDR_OF(create_crypto_login_in, in, crypto_login);
	uint8_t cred[MLX5_SIM_CREDENTIAL_LEN];
	struct mlx5_sim_login *login = &file->login;
	bool ok;

	RTE_BUILD_BUG_ON(MLX5_FLD_SZ_BYTES(crypto_login, credential) !=
			 MLX5_CRYPTO_WRAPPED_CREDENTIAL_LEN);
	if (!caps->crypto || !caps->crypto_wrapped)
		return MLX5_SIM_SYND_GOBJ_TYPE;
	if (inlen < MLX5_ST_SZ_BYTES(create_crypto_login_in))
		return MLX5_SIM_SYND_IN_LEN;
	if (caps->crypto_kek_len == 0)
		return MLX5_SIM_SYND_CRYPTO_COMMISSIONING;
	/* Credentials and KEKs other than the register's are not modelled. */
	if (MLX5_GET(crypto_login, l, credential_pointer) != 0 ||
	    MLX5_GET(crypto_login, l, session_import_kek_ptr) != 0)
		return MLX5_SIM_SYND_LOGIN_POINTER;
	if (login->live)
		return MLX5_SIM_SYND_LOGIN_BUSY;
	ok = sim_unwrap(caps->crypto_kek, caps->crypto_kek_len,
			MLX5_ADDR_OF(crypto_login, l, credential),
			MLX5_CRYPTO_WRAPPED_CREDENTIAL_LEN, cred) == 0 &&
	     CRYPTO_memcmp(cred, caps->crypto_credential, sizeof(cred)) == 0;
	explicit_bzero(cred, sizeof(cred));
	if (!ok)
		return MLX5_SIM_SYND_LOGIN_DENIED;
	if (++vhca->next_login_id == 0)
		vhca->next_login_id = 1;
	login->live = true;
	login->id = vhca->next_login_id;
	login->credential_pointer = 0;
	login->kek_ptr = 0;
	login->kek_len = caps->crypto_kek_len;
	memcpy(login->kek, caps->crypto_kek, login->kek_len);
	vhca->live.general_objs++;
	MLX5_SET(general_obj_out_cmd_hdr, out, obj_id, login->id);
	obj->kind = MLX5_SIM_OBJ_LOGIN;
	obj->obj_type = MLX5_GENERAL_OBJ_TYPE_CRYPTO_LOGIN;
	obj->index = login->id;
	return MLX5_SIM_SYND_OK;
}

uint32_t
mlx5_sim_login_query(struct mlx5_sim_file *file, const void *in, void *out,
		     size_t outlen)
{
	struct mlx5_sim_login *login = sim_login_of(file,
		MLX5_GET(general_obj_in_cmd_hdr, in, obj_id));
	void *l = MLX5_ADDR_OF(query_crypto_login_out, out, crypto_login);

	if (login == NULL)
		return MLX5_SIM_SYND_GOBJ_UNKNOWN;
	if (outlen < MLX5_ST_SZ_BYTES(query_crypto_login_out))
		return MLX5_SIM_SYND_OUT_LEN;
	MLX5_SET(general_obj_out_cmd_hdr, out, obj_id, login->id);
	MLX5_SET(crypto_login, l, credential_pointer,
		 login->credential_pointer);
	MLX5_SET(crypto_login, l, session_import_kek_ptr, login->kek_ptr);
	/* The credential is a secret: never read back. */
	return MLX5_SIM_SYND_OK;
}

uint32_t
mlx5_sim_login_destroy(struct mlx5_sim_file *file, uint32_t id)
{
	struct mlx5_sim_login *login = sim_login_of(file, id);

	if (login == NULL)
		return MLX5_SIM_SYND_GOBJ_UNKNOWN;
	/* Its DEKs stay: the login is checked when a DEK is created. */
	explicit_bzero(login, sizeof(*login));
	file->vhca->live.general_objs--;
	return MLX5_SIM_SYND_OK;
}

bool
mlx5_sim_login_exists(struct mlx5_sim_file *file, uint32_t id)
{
	return sim_login_of(file, id) != NULL;
}

/*
 * The key of DEK @d into @key: as given (plaintext import) or unwrapped
 * under @file's login (wrapped import). 0 or a syndrome.
 */
static uint32_t
sim_dek_key(struct mlx5_sim_file *file, const void *d, uint8_t *key)
{
	const struct mlx5_sim_caps *caps = &file->vhca->caps;
	size_t len = mlx5_sim_xts_pair_len(MLX5_GET(dek, d, key_size)) +
		     (MLX5_GET(dek, d, has_keytag) ? sizeof(uint64_t) : 0);

	if (!caps->crypto_wrapped) {
		memcpy(key, MLX5_ADDR_OF(dek, d, key),
		       MLX5_FLD_SZ_BYTES(dek, key));
		return MLX5_SIM_SYND_OK;
	}
	if (caps->crypto_kek_len == 0)
		return MLX5_SIM_SYND_CRYPTO_COMMISSIONING;
	if (!file->login.live)
		return MLX5_SIM_SYND_DEK_LOGIN;
	memset(key, 0, MLX5_FLD_SZ_BYTES(dek, key));
	if (sim_unwrap(file->login.kek, file->login.kek_len,
		       MLX5_ADDR_OF(dek, d, key), len + SIM_WRAP_OVERHEAD,
		       key) != 0) {
		explicit_bzero(key, MLX5_FLD_SZ_BYTES(dek, key));
		return MLX5_SIM_SYND_DEK_UNWRAP;
	}
	return MLX5_SIM_SYND_OK;
}

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
	uint8_t key[MLX5_FLD_SZ_BYTES(dek, key)];
	rte_be64_t tag;
	uint32_t synd;

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
	synd = sim_dek_key(file, d, key);
	if (synd != MLX5_SIM_SYND_OK)
		return synd;
	dek = calloc(1, sizeof(*dek));
	if (dek == NULL || mlx5_sim_idtab_alloc(&vhca->deks, dek, &dek->id)) {
		explicit_bzero(key, sizeof(key));
		free(dek);
		return MLX5_SIM_SYND_DEK_TABLE_FULL;
	}
	dek->file = file;
	dek->pd = pd;
	dek->key_size = MLX5_GET(dek, d, key_size);
	dek->has_keytag = MLX5_GET(dek, d, has_keytag);
	dek->opaque = MLX5_GET64(dek, d, opaque);
	memcpy(dek->key, key, sizeof(dek->key));
	explicit_bzero(key, sizeof(key));
	/* The tag follows the key pair (big-endian, 8 bytes). */
	if (dek->has_keytag) {
		memcpy(&tag, dek->key + mlx5_sim_xts_pair_len(dek->key_size),
		       sizeof(tag));
		dek->keytag = rte_be_to_cpu_64(tag);
	}
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
