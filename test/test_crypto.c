/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * Crypto mkeys through the common helpers, as a crypto PMD drives them: a
 * DEK, an indirect mkey with umr_en and crypto_en, a UMR WQE
 * (mlx5_umr_crypto_wqe_build()) posted on a loopback QP and rung with the
 * doorbell helper, then RDMA through the key. The ciphertext is checked
 * against IEEE 1619 XTS-AES vectors (128- and 256-bit keys, 512-byte data
 * units, the tweak incremented per unit), the reverse direction decrypts,
 * and each rule of the UMR and of the key is broken once: the QP recovers
 * and nothing is left behind. The UMR's mask bits of the key byte, the QP
 * and the rights are checked on a plain (non-crypto) indirect key.
 */

#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include <infiniband/mlx5dv.h>
#include <openssl/evp.h>

#include <rte_cycles.h>

#include <mlx5_common_devx.h>
#include <mlx5_common_dp.h>
#include <mlx5_common_umr.h>

#include "mlx5_test.h"
#include "mlx5_test_dev.h"
#include "mlx5_test_xts.h"

#define CR_BUF_LEN 8192
#define CR_UNIT 512
/* DEK numbers of the software device: 1 to 2^16 - 1, handed out in turn. */
#define MLX5_SIM_MAX_DEKS (1u << 16)

static struct mlx5_common_device *cdev;
static long live0;

static int
cr_case_setup(void)
{
	if (tdev_probe(0, "card=80,vhca_id=0") != 0)
		return TEST_FAILED;
	cdev = tdev_cdev(0);
	live0 = tdev_live(0);
	return cdev != NULL ? TEST_SUCCESS : TEST_FAILED;
}

static void
cr_case_teardown(void)
{
	tdev_remove_all();
	cdev = NULL;
}

/* Skip unless the device has plaintext-key DEKs and multi-unit LE XTS. */
#define CR_NEED_CRYPTO() do { \
	const struct mlx5_hca_crypto_attr *c__ = &cdev->caps.crypto; \
	if (!c__->sup || !c__->dek || c__->wrapped_import) \
		TEST_SKIP("device lacks plaintext-key DEK objects"); \
	if (tdev_hw() && !c__->aes_xts_multi_block_le_tweak) \
		TEST_SKIP("device lacks aes_xts_multi_block_le_tweak"); \
} while (0)

/* Decode @hex into @out; the number of bytes. */
static size_t
cr_hex(const char *hex, uint8_t *out)
{
	size_t n = strlen(hex) / 2;

	for (size_t i = 0; i < n; i++) {
		char b[3] = { hex[2 * i], hex[2 * i + 1], 0 };

		out[i] = (uint8_t)strtoul(b, NULL, 16);
	}
	return n;
}

/* The IEEE 1619 plaintext of vectors 4 and 10: 0..255, twice. */
static void
cr_pattern(uint8_t *p)
{
	for (int i = 0; i < CR_UNIT; i++)
		p[i] = (uint8_t)i;
}

/* A page-aligned buffer and its MR on @pd. */
struct cr_buf {
	uint8_t *va;
	struct ibv_mr *mr;
};

#define CR_RW (IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | \
	       IBV_ACCESS_REMOTE_READ)

static int
cr_buf_get(struct cr_buf *b, struct ibv_pd *pd)
{
	b->va = aligned_alloc(4096, CR_BUF_LEN);
	if (b->va == NULL)
		return -ENOMEM;
	memset(b->va, 0, CR_BUF_LEN);
	b->mr = cdev->glue->reg_mr(pd, b->va, CR_BUF_LEN, CR_RW);
	if (b->mr == NULL) {
		free(b->va);
		b->va = NULL;
		return -errno;
	}
	return 0;
}

static void
cr_buf_put(struct cr_buf *b)
{
	if (b->mr != NULL)
		cdev->glue->dereg_mr(b->mr);
	free(b->va);
	memset(b, 0, sizeof(*b));
}

/* A DEK of PD @pdn with the XTS key pair @key_hex (32 or 64 bytes). */
static struct mlx5_devx_obj *
cr_dek(uint32_t pdn, const char *key_hex, bool has_tag, uint64_t tag)
{
	uint8_t key[64];
	size_t n = cr_hex(key_hex, key);
	struct mlx5_devx_dek_attr attr = {
		.key_size = n == 64 ? MLX5_DEK_KEY_SIZE_256 :
				      MLX5_DEK_KEY_SIZE_128,
		.key_purpose = MLX5_DEK_KEY_PURPOSE_AES_XTS,
		.pd = pdn,
		.key = key,
		.key_len = n,
		.has_keytag = has_tag,
		.keytag = tag,
	};

	return mlx5_devx_cmd_create_dek(cdev, &attr);
}

/*
 * An indirect mkey of PD @pdn, all rights, room for @room (4 or 8) KLM
 * entries: free (for a UMR to fill), or mapping [0, CR_BUF_LEN) onto
 * @backing.
 */
static struct mlx5_devx_obj *
cr_mkey_room(uint32_t pdn, bool umr_en, bool crypto_en,
	     const struct cr_buf *backing, uint32_t room)
{
	struct mlx5_klm klm[8] = { { 0 } };
	struct mlx5_devx_mkey_attr attr = {
		.access_mode = MLX5_MKC_ACCESS_MODE_KLM,
		.pd = pdn,
		.lr = true, .lw = true, .rr = true, .rw = true,
		.umr_en = umr_en,
		.crypto_en = crypto_en,
		.free = backing == NULL,
		.klm_array = klm,
		.klm_num = RTE_MIN(room, RTE_DIM(klm)),
	};

	if (backing != NULL) {
		klm[0].byte_count = CR_BUF_LEN;
		klm[0].mkey = backing->mr->lkey;
		klm[0].address = (uintptr_t)backing->va;
		attr.size = CR_BUF_LEN;
	}
	return mlx5_devx_cmd_mkey_create(cdev, &attr);
}

/* cr_mkey_room() with room for 4 entries. */
static struct mlx5_devx_obj *
cr_mkey(uint32_t pdn, bool umr_en, bool crypto_en, const struct cr_buf *backing)
{
	return cr_mkey_room(pdn, umr_en, crypto_en, backing, 4);
}

/*
 * Post the @ds-segment WQE @wqe on the loopback QP (signaled), ring the
 * doorbell and wait for its completion: 0, or -EIO with the error CQE's
 * syndrome in @synd (the QP is then recovered), or -ETIMEDOUT.
 */
static int
cr_post(struct mlx5_devx_lbqp *lb, const uint8_t *wqe, int ds, uint8_t *synd)
{
	struct mlx5_devx_qp *qp = &lb->qp;
	struct mlx5_devx_cq *cq = &lb->cq;
	uint32_t size = 1u << qp->log_sq_size;
	uint32_t bbs = ((uint32_t)ds * 16 + MLX5_SEND_WQE_BB - 1) /
		       MLX5_SEND_WQE_BB;
	uint16_t first = qp->sq_pi;
	volatile struct mlx5_cqe64 *cqe =
		&cq->cqes[cq->ci & ((1u << cq->log_size) - 1)];
	uint64_t deadline = rte_get_timer_cycles() + rte_get_timer_hz();
	enum mlx5_cqe_status st;

	for (uint32_t b = 0; b < bbs; b++)
		memcpy(qp->sq + (size_t)((first + b) & (size - 1)) *
		       MLX5_SEND_WQE_BB, wqe + b * MLX5_SEND_WQE_BB,
		       MLX5_SEND_WQE_BB);
	qp->sq_pi += bbs;
	mlx5_doorbell_ring(qp->uar, &qp->db_rec[MLX5_SND_DBR], qp->sq_pi,
			   qp->sq + (size_t)(first & (size - 1)) *
			   MLX5_SEND_WQE_BB);
	do {
		st = mlx5_cqe_status(cqe, cq->log_size, cq->ci);
	} while (st == MLX5_CQE_STATUS_HW_OWN &&
		 rte_get_timer_cycles() < deadline);
	*synd = 0;
	if (st == MLX5_CQE_STATUS_HW_OWN)
		return -ETIMEDOUT;
	cq->ci++;
	mlx5_cq_db_update(cq->db_rec, cq->ci);
	if (st == MLX5_CQE_STATUS_SW_OWN)
		return 0;
	*synd = ((volatile struct mlx5_err_cqe *)cqe)->syndrome;
	return mlx5_devx_qp_recover(qp) == 0 ? -EIO : -EFAULT;
}

/* The UMR attributes of a test: one range at iova 0 of (@b, @len). */
static void
cr_umr_attr(struct mlx5_umr_crypto_wqe_attr *a, const struct mlx5_devx_lbqp *lb,
	    uint32_t mkey, const struct cr_buf *b, uint32_t len,
	    uint32_t dek_id, const char *tweak_hex, uint8_t order)
{
	memset(a, 0, sizeof(*a));
	a->qpn = lb->qp.obj->id;
	a->wqe_index = lb->qp.sq_pi;
	a->signaled = true;
	a->mkey = mkey;
	a->lkey = b->mr->lkey;
	a->addr = (uintptr_t)b->va;
	a->len = len;
	a->dek_id = dek_id;
	if (tweak_hex != NULL)
		cr_hex(tweak_hex, a->tweak);
	a->block_size = MLX5_CRYPTO_BLOCK_SIZE_512B;
	a->encryption_order = order;
}

/* Build and post the UMR of @a: as cr_post(). */
static int
cr_umr(struct mlx5_devx_lbqp *lb, const struct mlx5_umr_crypto_wqe_attr *a,
       uint8_t *synd)
{
	uint8_t wqe[MLX5_UMR_CRYPTO_WQE_SIZE] __rte_aligned(16);
	int ds = mlx5_umr_crypto_wqe_build(wqe, a);

	if (ds < 0)
		return ds;
	return cr_post(lb, wqe, ds, synd);
}

/* Everything a case works with. */
struct cr_env {
	struct mlx5_devx_lbqp lb;
	struct cr_buf src, dst;
	struct mlx5_devx_obj *dek, *mkey;
};

static int
cr_env_get(struct cr_env *e, const char *key_hex)
{
	memset(e, 0, sizeof(*e));
	TEST_ASSERT_SUCCESS(cr_buf_get(&e->src, cdev->pd), "");
	TEST_ASSERT_SUCCESS(cr_buf_get(&e->dst, cdev->pd), "");
	TEST_ASSERT_SUCCESS(mlx5_devx_lbqp_create(cdev, &e->lb, cdev->pdn),
			    "");
	e->dek = cr_dek(cdev->pdn, key_hex, false, 0);
	TEST_ASSERT_NOT_NULL(e->dek, "DEK");
	e->mkey = cr_mkey(cdev->pdn, true, true, NULL);
	TEST_ASSERT_NOT_NULL(e->mkey, "crypto mkey");
	return TEST_SUCCESS;
}

static void
cr_env_put(struct cr_env *e)
{
	if (e->mkey != NULL)
		mlx5_devx_cmd_destroy(e->mkey);
	if (e->dek != NULL)
		mlx5_devx_cmd_destroy(e->dek);
	mlx5_devx_lbqp_destroy(&e->lb);
	cr_buf_put(&e->src);
	cr_buf_put(&e->dst);
}

/* Configure the env's mkey over @len bytes of dst. */
static int
cr_configure(struct cr_env *e, uint32_t len, const char *tweak_hex,
	     uint8_t order, uint8_t block_size)
{
	struct mlx5_umr_crypto_wqe_attr a;
	uint8_t synd = 0xff;

	cr_umr_attr(&a, &e->lb, e->mkey->id, &e->dst, len, e->dek->id,
		    tweak_hex, order);
	a.block_size = block_size;
	TEST_ASSERT_SUCCESS(cr_umr(&e->lb, &a, &synd), "UMR (syndrome 0x%x)",
			    synd);
	return TEST_SUCCESS;
}

/* cr_configure(), then RDMA-write @len bytes of src through the mkey. */
static int
cr_write_through(struct cr_env *e, uint32_t len, const char *tweak_hex,
		 uint8_t order, uint8_t block_size)
{
	uint8_t synd = 0xff;

	TEST_ASSERT_EQUAL(cr_configure(e, len, tweak_hex, order, block_size),
			  TEST_SUCCESS, "");
	TEST_ASSERT_SUCCESS(mlx5_devx_lbqp_rdma(&e->lb, MLX5_OPCODE_RDMA_WRITE,
		e->src.mr->lkey, (uintptr_t)e->src.va, e->mkey->id, 0, len,
		&synd), "RDMA write through the crypto mkey (syndrome 0x%x)",
		synd);
	return TEST_SUCCESS;
}

static int
test_caps(void)
{
	const struct mlx5_hca_crypto_attr *c = &cdev->caps.crypto;

	CR_NEED_CRYPTO();
	/* The model ciphers one way and says exactly that. */
	if (!tdev_hw())
		TEST_ASSERT(!c->aes_xts_single_block_le_tweak &&
			    !c->aes_xts_multi_block_be_tweak,
			    "the software device claims a tweak mode it lacks");
	TEST_ASSERT_EQUAL(MLX5_UMR_CRYPTO_WQE_SIZE, 256, "four WQE blocks");
	TEST_ASSERT_EQUAL(MLX5_ST_SZ_BYTES(crypto_bsf), 64, "64-byte BSF");
	TEST_ASSERT_EQUAL(MLX5_BYTE_OFF(crypto_bsf, xts_initial_tweak), 16,
			  "");
	TEST_ASSERT_EQUAL(MLX5_BYTE_OFF(crypto_bsf, dek_pointer), 33, "");
	TEST_ASSERT_EQUAL(MLX5_BYTE_OFF(crypto_bsf, keytag), 40, "");
	return TEST_SUCCESS;
}

static int
test_xts_128(void)
{
	uint8_t want[CR_BUF_LEN];
	struct cr_env e;

	CR_NEED_CRYPTO();
	TEST_ASSERT_EQUAL(cr_env_get(&e, V4_KEY), TEST_SUCCESS, "");
	/* Vector 4: one 512-byte unit, tweak 0, encrypted into memory. */
	cr_pattern(e.src.va);
	TEST_ASSERT_EQUAL(cr_write_through(&e, CR_UNIT, NULL,
		MLX5_ENCRYPTION_ORDER_ENCRYPTED_RAW_MEMORY,
		MLX5_CRYPTO_BLOCK_SIZE_512B), TEST_SUCCESS, "vector 4");
	cr_hex(V4_CTX, want);
	TEST_ASSERT(memcmp(e.dst.va, want, CR_UNIT) == 0, "IEEE 1619 vector 4");
	TEST_ASSERT(e.dst.va[CR_UNIT] == 0, "nothing beyond the range");
	mlx5_devx_cmd_destroy(e.dek);
	/*
	 * Vector 2 (32 bytes): the whole operation one data unit, the 1 MB
	 * unit size; the same mkey reconfigured by a second UMR.
	 */
	e.dek = cr_dek(cdev->pdn, V2_KEY, false, 0);
	TEST_ASSERT_NOT_NULL(e.dek, "");
	cr_hex(V2_PTX, e.src.va);
	TEST_ASSERT_EQUAL(cr_write_through(&e, 32, V2_TWEAK,
		MLX5_ENCRYPTION_ORDER_ENCRYPTED_RAW_MEMORY,
		MLX5_CRYPTO_BLOCK_SIZE_1MB), TEST_SUCCESS, "vector 2");
	cr_hex(V2_CTX, want);
	TEST_ASSERT(memcmp(e.dst.va, want, 32) == 0, "IEEE 1619 vector 2");
	mlx5_devx_cmd_destroy(e.dek);
	/* Vector 1: a key pair of equal halves (zeros), 32 zero bytes. */
	e.dek = cr_dek(cdev->pdn, V1_KEY, false, 0);
	TEST_ASSERT_NOT_NULL(e.dek, "");
	memset(e.src.va, 0, 32);
	TEST_ASSERT_EQUAL(cr_write_through(&e, 32, NULL,
		MLX5_ENCRYPTION_ORDER_ENCRYPTED_RAW_MEMORY,
		MLX5_CRYPTO_BLOCK_SIZE_1MB), TEST_SUCCESS, "vector 1");
	cr_hex(V1_CTX, want);
	TEST_ASSERT(memcmp(e.dst.va, want, 32) == 0, "IEEE 1619 vector 1");
	cr_env_put(&e);
	TDEV_ASSERT_LIVE(0, live0, "everything destroyed");
	return TEST_SUCCESS;
}

static int
test_xts_256(void)
{
	uint8_t want[CR_UNIT];
	struct cr_env e;

	CR_NEED_CRYPTO();
	TEST_ASSERT_EQUAL(cr_env_get(&e, V10_KEY), TEST_SUCCESS, "");
	cr_pattern(e.src.va);
	TEST_ASSERT_EQUAL(cr_write_through(&e, CR_UNIT, V10_TWEAK,
		MLX5_ENCRYPTION_ORDER_ENCRYPTED_RAW_MEMORY,
		MLX5_CRYPTO_BLOCK_SIZE_512B), TEST_SUCCESS, "vector 10");
	cr_hex(V10_CTX, want);
	TEST_ASSERT(memcmp(e.dst.va, want, CR_UNIT) == 0,
		    "IEEE 1619 vector 10 (XTS-AES-256)");
	cr_env_put(&e);
	TDEV_ASSERT_LIVE(0, live0, "everything destroyed");
	return TEST_SUCCESS;
}

/* An XTS-AES-128 key pair of equal halves and a tweak of our own. */
#define CR_EQUAL_KEY "000102030405060708090a0b0c0d0e0f" \
		     "000102030405060708090a0b0c0d0e0f"
#define CR_EQUAL_TWEAK "fe00000000000000ffffffffffffffff"

/*
 * OpenSSL's XTS deciphers @ctx (@len bytes, one unit) under @key_hex and
 * tweak @tweak_hex + @unit (little-endian) into @ptx?
 */
static int
cr_openssl_check(const char *key_hex, const char *tweak_hex, int unit,
		 const uint8_t *ctx, const uint8_t *ptx, int len)
{
	uint8_t key[32], tweak[16], out[4096];
	EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
	int n = 0, ok, carry = unit;

	cr_hex(key_hex, key);
	cr_hex(tweak_hex, tweak);
	for (int i = 0; i < 16 && carry != 0; i++) {
		carry += tweak[i];
		tweak[i] = (uint8_t)carry;
		carry >>= 8;
	}
	ok = c != NULL && len <= (int)sizeof(out) &&
	     EVP_DecryptInit_ex(c, EVP_aes_128_xts(), NULL, key, tweak) &&
	     EVP_DecryptUpdate(c, out, &n, ctx, len) && n == len;
	EVP_CIPHER_CTX_free(c);
	TEST_ASSERT(ok, "OpenSSL's XTS decryption");
	TEST_ASSERT(memcmp(out, ptx, len) == 0, "the plaintext back");
	return TEST_SUCCESS;
}

static int
test_xts_multi_unit(void)
{
	uint8_t want[2 * CR_UNIT];
	struct cr_env e;

	CR_NEED_CRYPTO();
	TEST_ASSERT_EQUAL(cr_env_get(&e, V4_KEY), TEST_SUCCESS, "");
	/*
	 * Two units from tweak 0: unit 0 is vector 4's plaintext, unit 1
	 * (tweak 1) vector 5's, which is C4. Out come C4, then C5.
	 */
	cr_pattern(e.src.va);
	cr_hex(V4_CTX, e.src.va + CR_UNIT);
	TEST_ASSERT_EQUAL(cr_write_through(&e, 2 * CR_UNIT, NULL,
		MLX5_ENCRYPTION_ORDER_ENCRYPTED_RAW_MEMORY,
		MLX5_CRYPTO_BLOCK_SIZE_512B), TEST_SUCCESS, "two units");
	cr_hex(V4_CTX, want);
	cr_hex(V5_CTX, want + CR_UNIT);
	TEST_ASSERT(memcmp(e.dst.va, want, CR_UNIT) == 0, "unit 0: vector 4");
	TEST_ASSERT(memcmp(e.dst.va + CR_UNIT, want + CR_UNIT, CR_UNIT) == 0,
		    "unit 1, tweak + 1: vector 5");
	mlx5_devx_cmd_destroy(e.dek);
	/*
	 * A key pair of equal halves over two units: each unit deciphers
	 * with OpenSSL's XTS (which refuses such a key to encrypt only)
	 * under the unit's tweak.
	 */
	e.dek = cr_dek(cdev->pdn, CR_EQUAL_KEY, false, 0);
	TEST_ASSERT_NOT_NULL(e.dek, "");
	for (int i = 0; i < 2 * CR_UNIT; i++)
		e.src.va[i] = (uint8_t)(i * 7 + 3);
	TEST_ASSERT_EQUAL(cr_write_through(&e, 2 * CR_UNIT, CR_EQUAL_TWEAK,
		MLX5_ENCRYPTION_ORDER_ENCRYPTED_RAW_MEMORY,
		MLX5_CRYPTO_BLOCK_SIZE_512B), TEST_SUCCESS, "equal halves");
	for (int u = 0; u < 2; u++)
		TEST_ASSERT_EQUAL(cr_openssl_check(CR_EQUAL_KEY, CR_EQUAL_TWEAK,
			u, e.dst.va + u * CR_UNIT, e.src.va + u * CR_UNIT,
			CR_UNIT), TEST_SUCCESS, "equal halves, unit %d", u);
	/*
	 * Units of 520 bytes (each ends with a partial block: ciphertext
	 * stealing), the second 496 bytes long; then one unit of 4096 bytes
	 * (more than one pass of the model's own XTS).
	 */
	for (int i = 0; i < 4096; i++)
		e.src.va[i] = (uint8_t)(i * 13 + 1);
	TEST_ASSERT_EQUAL(cr_write_through(&e, 520 + 496, CR_EQUAL_TWEAK,
		MLX5_ENCRYPTION_ORDER_ENCRYPTED_RAW_MEMORY,
		MLX5_CRYPTO_BLOCK_SIZE_520B), TEST_SUCCESS, "520-byte units");
	TEST_ASSERT_EQUAL(cr_openssl_check(CR_EQUAL_KEY, CR_EQUAL_TWEAK, 0,
		e.dst.va, e.src.va, 520), TEST_SUCCESS, "a 520-byte unit");
	TEST_ASSERT_EQUAL(cr_openssl_check(CR_EQUAL_KEY, CR_EQUAL_TWEAK, 1,
		e.dst.va + 520, e.src.va + 520, 496), TEST_SUCCESS,
		"a last unit of 496 bytes");
	/* Deciphered back through the key (stealing the other way). */
	memcpy(e.src.va, e.dst.va, 520);
	memset(e.dst.va, 0, 520);
	TEST_ASSERT_EQUAL(cr_write_through(&e, 520, CR_EQUAL_TWEAK,
		MLX5_ENCRYPTION_ORDER_ENCRYPTED_RAW_WIRE,
		MLX5_CRYPTO_BLOCK_SIZE_520B), TEST_SUCCESS, "decrypt 520");
	for (int i = 0; i < 520; i++)
		TEST_ASSERT_EQUAL(e.dst.va[i], (uint8_t)(i * 13 + 1),
				  "byte %d deciphered", i);
	for (int i = 0; i < 4096; i++)
		e.src.va[i] = (uint8_t)(i * 13 + 1);
	TEST_ASSERT_EQUAL(cr_write_through(&e, 4096, CR_EQUAL_TWEAK,
		MLX5_ENCRYPTION_ORDER_ENCRYPTED_RAW_MEMORY,
		MLX5_CRYPTO_BLOCK_SIZE_4096B), TEST_SUCCESS, "a 4096-byte unit");
	TEST_ASSERT_EQUAL(cr_openssl_check(CR_EQUAL_KEY, CR_EQUAL_TWEAK, 0,
		e.dst.va, e.src.va, 4096), TEST_SUCCESS, "a 4096-byte unit");
	cr_env_put(&e);
	TDEV_ASSERT_LIVE(0, live0, "everything destroyed");
	return TEST_SUCCESS;
}

static int
test_xts_decrypt(void)
{
	uint8_t want[CR_UNIT];
	struct cr_env e;
	uint8_t synd = 0;

	CR_NEED_CRYPTO();
	TEST_ASSERT_EQUAL(cr_env_get(&e, V4_KEY), TEST_SUCCESS, "");
	/* Ciphertext on the wire side: written through, it lands plain. */
	cr_hex(V4_CTX, e.src.va);
	TEST_ASSERT_EQUAL(cr_write_through(&e, CR_UNIT, NULL,
		MLX5_ENCRYPTION_ORDER_ENCRYPTED_RAW_WIRE,
		MLX5_CRYPTO_BLOCK_SIZE_512B), TEST_SUCCESS, "decrypting write");
	cr_pattern(want);
	TEST_ASSERT(memcmp(e.dst.va, want, CR_UNIT) == 0,
		    "vector 4 decrypted into memory");
	/* Ciphertext in memory: read through the key, it comes out plain. */
	memset(e.src.va, 0, CR_BUF_LEN);
	TEST_ASSERT_EQUAL(cr_configure(&e, CR_UNIT, NULL,
		MLX5_ENCRYPTION_ORDER_ENCRYPTED_RAW_MEMORY,
		MLX5_CRYPTO_BLOCK_SIZE_512B), TEST_SUCCESS, "");
	cr_hex(V4_CTX, e.dst.va);
	TEST_ASSERT_SUCCESS(mlx5_devx_lbqp_rdma(&e.lb, MLX5_OPCODE_RDMA_READ,
		e.src.mr->lkey, (uintptr_t)e.src.va, e.mkey->id, 0, CR_UNIT,
		&synd), "RDMA read through the key (syndrome 0x%x)", synd);
	cr_pattern(want);
	TEST_ASSERT(memcmp(e.src.va, want, CR_UNIT) == 0,
		    "vector 4 decrypted on the way out");
	cr_env_put(&e);
	TDEV_ASSERT_LIVE(0, live0, "everything destroyed");
	return TEST_SUCCESS;
}

static int
test_unconfigured(void)
{
	struct mlx5_devx_obj *mk;
	struct cr_env e;
	uint8_t synd = 0;

	CR_NEED_CRYPTO();
	TEST_ASSERT_EQUAL(cr_env_get(&e, V4_KEY), TEST_SUCCESS, "");
	/* A usable (non-free) crypto key no UMR configured moves nothing. */
	mk = cr_mkey(cdev->pdn, true, true, &e.dst);
	TEST_ASSERT_NOT_NULL(mk, "non-free crypto mkey");
	e.src.va[0] = 0x5a;
	TEST_ASSERT_EQUAL(mlx5_devx_lbqp_rdma(&e.lb, MLX5_OPCODE_RDMA_WRITE,
		e.src.mr->lkey, (uintptr_t)e.src.va, mk->id, 0, 16, &synd),
		-EIO, "write through an unconfigured crypto mkey");
	TEST_ASSERT_EQUAL(synd, MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR, "");
	TEST_ASSERT(e.dst.va[0] == 0, "nothing written");
	/* As the local key too. */
	TEST_ASSERT_EQUAL(mlx5_devx_lbqp_rdma(&e.lb, MLX5_OPCODE_RDMA_WRITE,
		mk->id, 0, e.src.mr->rkey, (uintptr_t)e.src.va + 2048, 16,
		&synd), -EIO, "read through an unconfigured crypto mkey");
	TEST_ASSERT_EQUAL(synd, MLX5_CQE_SYNDROME_LOCAL_PROT_ERR, "");
	/* The QP recovered; the same key configured works. */
	cr_pattern(e.src.va);
	mlx5_devx_cmd_destroy(e.mkey);
	e.mkey = mk;
	TEST_ASSERT_EQUAL(cr_write_through(&e, CR_UNIT, NULL,
		MLX5_ENCRYPTION_ORDER_ENCRYPTED_RAW_MEMORY,
		MLX5_CRYPTO_BLOCK_SIZE_512B), TEST_SUCCESS, "once configured");
	cr_env_put(&e);
	TDEV_ASSERT_LIVE(0, live0, "everything destroyed");
	return TEST_SUCCESS;
}

/* A second PD (number in *@pdn, if not NULL) and a buffer of it. */
static int
cr_other_get(struct ibv_pd **pd, uint32_t *pdn, struct cr_buf *b)
{
	*pd = cdev->glue->alloc_pd(cdev->ctx);
	TEST_ASSERT_NOT_NULL(*pd, "second PD");
	if (pdn != NULL)
		TEST_ASSERT_SUCCESS(cdev->glue->query_pdn(*pd, pdn), "");
	TEST_ASSERT_SUCCESS(cr_buf_get(b, *pd), "");
	return TEST_SUCCESS;
}

/* Release what cr_other_get() gave. */
static int
cr_other_put(struct ibv_pd *pd, struct cr_buf *b)
{
	cr_buf_put(b);
	TEST_ASSERT_SUCCESS(cdev->glue->dealloc_pd(pd), "");
	return TEST_SUCCESS;
}

/* Post the UMR of @a and expect an error CQE with @want. */
static int
cr_umr_fails(struct cr_env *e, const struct mlx5_umr_crypto_wqe_attr *a,
	     uint8_t want, const char *what)
{
	uint8_t synd = 0;

	TEST_ASSERT_EQUAL(cr_umr(&e->lb, a, &synd), -EIO, "%s", what);
	TEST_ASSERT_EQUAL(synd, want, "%s: syndrome", what);
	return TEST_SUCCESS;
}

static int
test_umr_rules(void)
{
	uint8_t wqe[MLX5_UMR_CRYPTO_WQE_SIZE] __rte_aligned(16);
	struct mlx5_devx_obj *dek2, *tagged, *no_umr, *no_crypto;
	struct mlx5_umr_crypto_wqe_attr a;
	struct ibv_pd *pd2;
	struct cr_buf other;
	struct cr_env e;
	uint32_t pdn2;
	uint8_t synd;

	CR_NEED_CRYPTO();
	TEST_ASSERT_EQUAL(cr_env_get(&e, V4_KEY), TEST_SUCCESS, "");
	TEST_ASSERT_EQUAL(cr_other_get(&pd2, &pdn2, &other), TEST_SUCCESS, "");
	dek2 = cr_dek(pdn2, V4_KEY, false, 0);
	TEST_ASSERT_NOT_NULL(dek2, "DEK of the second PD");
	tagged = cr_dek(cdev->pdn, V4_KEY, true, 0x1122334455667788ull);
	TEST_ASSERT_NOT_NULL(tagged, "DEK with a key tag");
	no_umr = cr_mkey(cdev->pdn, false, true, NULL);
	TEST_ASSERT_NOT_NULL(no_umr, "");
	no_crypto = cr_mkey(cdev->pdn, true, false, NULL);
	TEST_ASSERT_NOT_NULL(no_crypto, "");

	cr_umr_attr(&a, &e.lb, e.mkey->id, &e.dst, CR_UNIT, dek2->id, NULL,
		    MLX5_ENCRYPTION_ORDER_ENCRYPTED_RAW_MEMORY);
	TEST_ASSERT_EQUAL(cr_umr_fails(&e, &a, MLX5_CQE_SYNDROME_MW_BIND_ERR,
		"DEK of another PD"), TEST_SUCCESS, "");
	cr_umr_attr(&a, &e.lb, no_umr->id, &e.dst, CR_UNIT, e.dek->id, NULL,
		    MLX5_ENCRYPTION_ORDER_ENCRYPTED_RAW_MEMORY);
	TEST_ASSERT_EQUAL(cr_umr_fails(&e, &a, MLX5_CQE_SYNDROME_MW_BIND_ERR,
		"mkey without umr_en"), TEST_SUCCESS, "");
	cr_umr_attr(&a, &e.lb, no_crypto->id, &e.dst, CR_UNIT, e.dek->id,
		    NULL, MLX5_ENCRYPTION_ORDER_ENCRYPTED_RAW_MEMORY);
	TEST_ASSERT_EQUAL(cr_umr_fails(&e, &a, MLX5_CQE_SYNDROME_MW_BIND_ERR,
		"crypto BSF on an mkey without crypto_en"), TEST_SUCCESS, "");
	cr_umr_attr(&a, &e.lb, e.mkey->id, &other, CR_UNIT, e.dek->id, NULL,
		    MLX5_ENCRYPTION_ORDER_ENCRYPTED_RAW_MEMORY);
	TEST_ASSERT_EQUAL(cr_umr_fails(&e, &a, MLX5_CQE_SYNDROME_MW_BIND_ERR,
		"KLM entry of another PD"), TEST_SUCCESS, "");
	cr_umr_attr(&a, &e.lb, e.mkey->id, &e.dst, CR_UNIT, tagged->id, NULL,
		    MLX5_ENCRYPTION_ORDER_ENCRYPTED_RAW_MEMORY);
	/*
	 * A wrong key tag: the UMR takes it, the key refuses every byte
	 * (the tag is checked where the key is used); the right one works.
	 */
	a.keytag = 0x1122334455667789ull;
	TEST_ASSERT_SUCCESS(cr_umr(&e.lb, &a, &synd), "UMR, wrong key tag");
	TEST_ASSERT_EQUAL(mlx5_devx_lbqp_rdma(&e.lb, MLX5_OPCODE_RDMA_WRITE,
		e.src.mr->lkey, (uintptr_t)e.src.va, e.mkey->id, 0, CR_UNIT,
		&synd), -EIO, "write through a wrong key tag");
	a.wqe_index = e.lb.qp.sq_pi;
	a.keytag = 0x1122334455667788ull;
	TEST_ASSERT_SUCCESS(cr_umr(&e.lb, &a, &synd), "the DEK's key tag");
	TEST_ASSERT_SUCCESS(mlx5_devx_lbqp_rdma(&e.lb, MLX5_OPCODE_RDMA_WRITE,
		e.src.mr->lkey, (uintptr_t)e.src.va, e.mkey->id, 0, CR_UNIT,
		&synd), "write through the DEK's key tag");
	/* A data-unit code with no size: the helper refuses it... */
	cr_umr_attr(&a, &e.lb, e.mkey->id, &e.dst, CR_UNIT, e.dek->id, NULL,
		    MLX5_ENCRYPTION_ORDER_ENCRYPTED_RAW_MEMORY);
	a.block_size = 0;
	rte_errno = 0;
	TEST_ASSERT_EQUAL(mlx5_umr_crypto_wqe_build(wqe, &a), -EINVAL,
			  "data-unit code 0");
	TEST_ASSERT_EQUAL(rte_errno, EINVAL, "");
	/* ... and the device, when a WQE carries it: a malformed WQE. */
	a.block_size = MLX5_CRYPTO_BLOCK_SIZE_512B;
	TEST_ASSERT_EQUAL(mlx5_umr_crypto_wqe_build(wqe, &a),
			  MLX5_UMR_CRYPTO_WQE_DS, "");
	MLX5_SET(crypto_bsf, wqe + MLX5_UMR_CRYPTO_WQE_SIZE -
		 MLX5_ST_SZ_BYTES(crypto_bsf), crypto_block_size_pointer, 0);
	TEST_ASSERT_EQUAL(cr_post(&e.lb, wqe, MLX5_UMR_CRYPTO_WQE_DS, &synd),
			  -EIO, "data-unit code 0 posted");
	TEST_ASSERT_EQUAL(synd, MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR, "");
	/* The last refusals left the key as it was: working. */
	cr_pattern(e.src.va);
	TEST_ASSERT_EQUAL(cr_write_through(&e, 2 * CR_UNIT, NULL,
		MLX5_ENCRYPTION_ORDER_ENCRYPTED_RAW_MEMORY,
		MLX5_CRYPTO_BLOCK_SIZE_512B), TEST_SUCCESS, "after the errors");
	/* Transfers not on data-unit boundaries, or a ragged last unit. */
	TEST_ASSERT_EQUAL(mlx5_devx_lbqp_rdma(&e.lb, MLX5_OPCODE_RDMA_WRITE,
		e.src.mr->lkey, (uintptr_t)e.src.va, e.mkey->id, 16, 512,
		&synd), -EIO, "write from inside a data unit");
	TEST_ASSERT_EQUAL(mlx5_devx_lbqp_rdma(&e.lb, MLX5_OPCODE_RDMA_WRITE,
		e.src.mr->lkey, (uintptr_t)e.src.va, e.mkey->id, 0, 520,
		&synd), -EIO, "last unit of 8 bytes");
	TEST_ASSERT_SUCCESS(mlx5_devx_lbqp_rdma(&e.lb, MLX5_OPCODE_RDMA_WRITE,
		e.src.mr->lkey, (uintptr_t)e.src.va, e.mkey->id, 512, 512,
		&synd), "the second unit alone");

	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_destroy(no_crypto), "");
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_destroy(no_umr), "");
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_destroy(tagged), "");
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_destroy(dek2), "");
	TEST_ASSERT_EQUAL(cr_other_put(pd2, &other), TEST_SUCCESS, "");
	cr_env_put(&e);
	TDEV_ASSERT_LIVE(0, live0, "everything destroyed");
	return TEST_SUCCESS;
}

/* What test_umr_fields() breaks in a good UMR WQE, one at a time. */
enum cr_break {
	CR_BREAK_FLAG,          /* A flag the model does not execute. */
	CR_BREAK_MASK,          /* An mkey_mask bit it does not apply. */
	CR_BREAK_DS,            /* One segment short: the BSF cut. */
	CR_BREAK_BSF_COUNT,     /* BSF octowords 2: no BSF has that size. */
	CR_BREAK_BSF_SIZE,      /* A 32-byte BSF. */
	CR_BREAK_BSF_SIZE_128,  /* A 128-byte one. */
	CR_BREAK_BSF_TYPE,      /* A signature BSF. */
	CR_BREAK_BSF_TYPE_3,    /* A type with no name. */
	CR_BREAK_ORDER,         /* Encryption order 4, */
	CR_BREAK_ORDER_8,       /* 8. */
	CR_BREAK_STANDARD,      /* Encryption standard 1, */
	CR_BREAK_STANDARD_2,    /* 2, */
	CR_BREAK_STANDARD_4,    /* 4, */
	CR_BREAK_STANDARD_8,    /* 8. */
	CR_BREAK_PAD_KEY,       /* A key in a padding entry, no bytes. */
	CR_BREAK_PAD_FOREIGN,   /* A padding entry of another PD's key. */
	CR_BREAK_BSF_OFF,       /* A BSF with the mkey's BSF disabled. */
	CR_BREAK_NUM,
};

/* Break @what in the WQE @wqe of @ds segments; its syndrome. */
static uint8_t
cr_break(uint8_t *wqe, int *ds, enum cr_break what, uint32_t foreign_key)
{
	struct mlx5_wqe_ctrl_seg *ctrl = (void *)wqe;
	struct mlx5_wqe_umr_ctrl_seg *umr = (void *)(ctrl + 1);
	struct mlx5_wqe_mkey_context_seg *mkc = (void *)(umr + 1);
	struct mlx5_wqe_umr_klm_seg *klm = (void *)(mkc + 1);
	uint8_t *bsf = wqe + MLX5_UMR_CRYPTO_WQE_SIZE -
		       MLX5_ST_SZ_BYTES(crypto_bsf);

	switch (what) {
	case CR_BREAK_FLAG:
		umr->flags |= MLX5_WQE_UMR_CTRL_FLAG_TRNSLATION_OFFSET;
		break;
	case CR_BREAK_MASK:
		umr->mkey_mask |= rte_cpu_to_be_64(
			MLX5_WQE_UMR_CTRL_MKEY_MASK_SIG_ERR);
		break;
	case CR_BREAK_DS:
		(*ds)--;
		ctrl->qpn_ds = rte_cpu_to_be_32(
			(rte_be_to_cpu_32(ctrl->qpn_ds) & ~0x3fu) | (uint32_t)*ds);
		break;
	case CR_BREAK_BSF_COUNT:
		umr->bsf_octowords = rte_cpu_to_be_16(2);
		break;
	case CR_BREAK_BSF_SIZE:
		MLX5_SET(crypto_bsf, bsf, bsf_size, MLX5_BSF_SIZE_32B);
		break;
	case CR_BREAK_BSF_SIZE_128:
		MLX5_SET(crypto_bsf, bsf, bsf_size, MLX5_BSF_SIZE_128B);
		break;
	case CR_BREAK_BSF_TYPE:
		MLX5_SET(crypto_bsf, bsf, bsf_p_type,
			 MLX5_BSF_P_TYPE_SIGNATURE);
		break;
	case CR_BREAK_BSF_TYPE_3:
		MLX5_SET(crypto_bsf, bsf, bsf_p_type, 3);
		break;
	case CR_BREAK_ORDER:
	case CR_BREAK_ORDER_8:
		/* Each bit above those of the last order. */
		MLX5_SET(crypto_bsf, bsf, encryption_order,
			 (MLX5_ENCRYPTION_ORDER_ENCRYPTED_RAW_MEMORY + 1) <<
			 (what - CR_BREAK_ORDER));
		break;
	case CR_BREAK_STANDARD:
	case CR_BREAK_STANDARD_2:
	case CR_BREAK_STANDARD_4:
	case CR_BREAK_STANDARD_8:
		/* Each bit of the field (AES-XTS is 0). */
		MLX5_SET(crypto_bsf, bsf, encryption_standard,
			 1u << (what - CR_BREAK_STANDARD));
		break;
	case CR_BREAK_PAD_KEY:
		klm[3].mkey = klm[0].mkey;
		break;
	case CR_BREAK_PAD_FOREIGN:
		klm[2].byte_count = rte_cpu_to_be_32(16);
		klm[2].mkey = rte_cpu_to_be_32(foreign_key);
		return MLX5_CQE_SYNDROME_MW_BIND_ERR;
	case CR_BREAK_BSF_OFF:
		mkc->flags_pd &= ~rte_cpu_to_be_32(
			MLX5_UMR_MKEY_CTX_FLAGS_BSF_ENABLE);
		return MLX5_CQE_SYNDROME_MW_BIND_ERR;
	default:
		break;
	}
	return MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR;
}

/*
 * Each field the device checks in a UMR WQE, broken once in an otherwise
 * good one (malformed or refused as the file comment of mlx5_sim_umr.c
 * sorts them); a list longer than the key; CHECK_FREE on a free key, then
 * on the same key no longer free. After all that the key works.
 */
/*
 * A UMR of @key over @n (at most 5) entries of CR_UNIT bytes of dst in
 * turn: as cr_post().
 */
static int
cr_umr_list(struct cr_env *e, uint32_t key, uint32_t n, uint8_t *synd)
{
	uint8_t wqe[MLX5_UMR_CRYPTO_WQE_SIZE_N(5)] __rte_aligned(16);
	struct mlx5_umr_crypto_wqe_attr a;
	struct mlx5_klm klm[5];
	uint32_t i;
	int ds;

	if (n > RTE_DIM(klm))
		return -EINVAL;
	for (i = 0; i < n; i++) {
		klm[i].byte_count = CR_UNIT;
		klm[i].mkey = e->dst.mr->lkey;
		klm[i].address = (uintptr_t)e->dst.va + i * CR_UNIT;
	}
	cr_umr_attr(&a, &e->lb, key, &e->dst, n * CR_UNIT, e->dek->id, NULL,
		    MLX5_ENCRYPTION_ORDER_ENCRYPTED_RAW_MEMORY);
	a.klm = klm;
	a.klm_num = n;
	ds = mlx5_umr_crypto_wqe_build(wqe, &a);
	if (ds != (int)MLX5_UMR_CRYPTO_WQE_DS_N(n))
		return -EINVAL;
	return cr_post(&e->lb, wqe, ds, synd);
}

static int
test_umr_fields(void)
{
	uint8_t wqe[MLX5_UMR_CRYPTO_WQE_SIZE_N(5)] __rte_aligned(16);
	struct mlx5_umr_crypto_wqe_attr a;
	struct mlx5_devx_obj *fresh;
	struct ibv_pd *pd2;
	struct cr_buf other;
	struct cr_env e;
	uint8_t synd, want;
	int ds, what;

	CR_NEED_CRYPTO();
	TEST_ASSERT_EQUAL(cr_env_get(&e, V4_KEY), TEST_SUCCESS, "");
	TEST_ASSERT_EQUAL(cr_other_get(&pd2, NULL, &other), TEST_SUCCESS, "");
	fresh = cr_mkey_room(cdev->pdn, true, true, NULL, 8);
	TEST_ASSERT_NOT_NULL(fresh, "");
	for (what = 0; what < CR_BREAK_NUM; what++) {
		cr_umr_attr(&a, &e.lb, e.mkey->id, &e.dst, CR_UNIT,
			    e.dek->id, NULL,
			    MLX5_ENCRYPTION_ORDER_ENCRYPTED_RAW_MEMORY);
		ds = mlx5_umr_crypto_wqe_build(wqe, &a);
		TEST_ASSERT_EQUAL(ds, MLX5_UMR_CRYPTO_WQE_DS, "");
		want = cr_break(wqe, &ds, what, other.mr->lkey);
		TEST_ASSERT_EQUAL(cr_post(&e.lb, wqe, ds, &synd), -EIO,
				  "break %d", what);
		TEST_ASSERT_EQUAL(synd, want, "break %d: syndrome", what);
	}
	/* Five entries, eight octowords: more than the key's four. */
	TEST_ASSERT_EQUAL(cr_umr_list(&e, e.mkey->id, 5, &synd), -EIO,
			  "a list longer than the key");
	TEST_ASSERT_EQUAL(synd, MLX5_CQE_SYNDROME_MW_BIND_ERR, "");
	/* CHECK_FREE: taken on a free key, refused on the same key after. */
	for (what = 0; what < 2; what++) {
		cr_umr_attr(&a, &e.lb, fresh->id, &e.dst, CR_UNIT, e.dek->id,
			    NULL, MLX5_ENCRYPTION_ORDER_ENCRYPTED_RAW_MEMORY);
		ds = mlx5_umr_crypto_wqe_build(wqe, &a);
		TEST_ASSERT_EQUAL(ds, MLX5_UMR_CRYPTO_WQE_DS, "");
		((struct mlx5_wqe_umr_ctrl_seg *)(wqe + sizeof(
			struct mlx5_wqe_ctrl_seg)))->flags |=
			MLX5_WQE_UMR_CTRL_FLAG_CHECK_FREE;
		synd = 0xff;
		if (what == 0) {
			TEST_ASSERT_SUCCESS(cr_post(&e.lb, wqe, ds, &synd),
				"CHECK_FREE on a free key (0x%x)", synd);
		} else {
			TEST_ASSERT_EQUAL(cr_post(&e.lb, wqe, ds, &synd), -EIO,
					  "CHECK_FREE on a key in use");
			TEST_ASSERT_EQUAL(synd, MLX5_CQE_SYNDROME_MW_BIND_ERR,
					  "");
		}
	}
	/* On the key with room: a longer list than its last, all of it used. */
	TEST_ASSERT_SUCCESS(cr_umr_list(&e, fresh->id, 5, &synd),
			    "five entries (0x%x)", synd);
	for (what = 0; what < 5 * CR_UNIT; what++)
		e.src.va[what] = (uint8_t)(what * 7 + 1);
	TEST_ASSERT_SUCCESS(mlx5_devx_lbqp_rdma(&e.lb, MLX5_OPCODE_RDMA_WRITE,
		e.src.mr->lkey, (uintptr_t)e.src.va, fresh->id, 0, 5 * CR_UNIT,
		&synd), "through five entries (0x%x)", synd);
	/* Read back through them: the cipher, then the five copies. */
	TEST_ASSERT_SUCCESS(mlx5_devx_lbqp_rdma(&e.lb, MLX5_OPCODE_RDMA_READ,
		e.src.mr->lkey, (uintptr_t)e.src.va + 5 * CR_UNIT, fresh->id,
		0, 5 * CR_UNIT, &synd), "read through five entries (0x%x)",
		synd);
	TEST_ASSERT(memcmp(e.src.va, e.src.va + 5 * CR_UNIT, 5 * CR_UNIT) == 0,
		    "five entries: the plaintext back");
	/* Back to one entry (kept in the key): the five go, the key works. */
	cr_umr_attr(&a, &e.lb, fresh->id, &e.dst, CR_UNIT, e.dek->id, NULL,
		    MLX5_ENCRYPTION_ORDER_ENCRYPTED_RAW_MEMORY);
	ds = mlx5_umr_crypto_wqe_build(wqe, &a);
	TEST_ASSERT_SUCCESS(cr_post(&e.lb, wqe, ds, &synd),
			    "one entry after five (0x%x)", synd);
	memset(e.src.va + 5 * CR_UNIT, 0, CR_UNIT);
	TEST_ASSERT_SUCCESS(mlx5_devx_lbqp_rdma(&e.lb, MLX5_OPCODE_RDMA_WRITE,
		e.src.mr->lkey, (uintptr_t)e.src.va, fresh->id, 0, CR_UNIT,
		&synd), "through one entry after five (0x%x)", synd);
	TEST_ASSERT_SUCCESS(mlx5_devx_lbqp_rdma(&e.lb, MLX5_OPCODE_RDMA_READ,
		e.src.mr->lkey, (uintptr_t)e.src.va + 5 * CR_UNIT, fresh->id,
		0, CR_UNIT, &synd), "read through one entry (0x%x)", synd);
	TEST_ASSERT(memcmp(e.src.va, e.src.va + 5 * CR_UNIT, CR_UNIT) == 0,
		    "one entry after five: the plaintext back");
	/*
	 * The mkey context's free bit and length64, taken: a key made free
	 * moves nothing; a range of 16 bytes refuses a data unit, unless
	 * length64 makes it reach the end of the address space.
	 */
	for (what = 0; what < 3; what++) {
		struct mlx5_wqe_mkey_context_seg *mkc = (void *)(wqe +
			sizeof(struct mlx5_wqe_ctrl_seg) +
			sizeof(struct mlx5_wqe_umr_ctrl_seg));

		cr_umr_attr(&a, &e.lb, fresh->id, &e.dst, CR_UNIT, e.dek->id,
			    NULL, MLX5_ENCRYPTION_ORDER_ENCRYPTED_RAW_MEMORY);
		ds = mlx5_umr_crypto_wqe_build(wqe, &a);
		if (what == 0) {
			MLX5_SET(mkc, mkc, free, 1);
		} else {
			mkc->len = rte_cpu_to_be_64(16);
			MLX5_SET(mkc, mkc, length64, what == 2);
		}
		TEST_ASSERT_SUCCESS(cr_post(&e.lb, wqe, ds, &synd),
				    "UMR %d (0x%x)", what, synd);
		TEST_ASSERT_EQUAL(mlx5_devx_lbqp_rdma(&e.lb,
			MLX5_OPCODE_RDMA_WRITE, e.src.mr->lkey,
			(uintptr_t)e.src.va, fresh->id, 0, CR_UNIT, &synd),
			what == 2 ? 0 : -EIO, "write after UMR %d", what);
	}
	/* None of it changed the key. */
	cr_pattern(e.src.va);
	TEST_ASSERT_EQUAL(cr_write_through(&e, 2 * CR_UNIT, NULL,
		MLX5_ENCRYPTION_ORDER_ENCRYPTED_RAW_MEMORY,
		MLX5_CRYPTO_BLOCK_SIZE_512B), TEST_SUCCESS, "after the errors");

	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_destroy(fresh), "");
	TEST_ASSERT_EQUAL(cr_other_put(pd2, &other), TEST_SUCCESS, "");
	cr_env_put(&e);
	TDEV_ASSERT_LIVE(0, live0, "everything destroyed");
	return TEST_SUCCESS;
}

/*
 * The mkey context fields of the key byte, the QP and the access rights,
 * as a UMR sets them under their mkey_mask bits (the rights of a
 * non-crypto key here, which no crypto PMD's UMR touches).
 */
struct cr_mkc {
	uint8_t key_byte;
	uint32_t qpn;
	bool lr, lw, rr, rw, a;
};

/*
 * Post a UMR of key @key on @lb without a list or a BSF: mask @mask and
 * the mkey context @v, whatever the mask; as cr_post().
 */
static int
cr_umr_mkc(struct mlx5_devx_lbqp *lb, uint32_t key, uint64_t mask,
	   const struct cr_mkc *v, uint8_t *synd)
{
	/* Control, UMR control and mkey context: 8 segments, 2 blocks. */
	uint8_t wqe[2 * MLX5_SEND_WQE_BB] __rte_aligned(16);
	struct mlx5_wqe_ctrl_seg *ctrl = (void *)wqe;
	struct mlx5_wqe_umr_ctrl_seg *umr = (void *)(ctrl + 1);
	void *mkc = umr + 1;
	const uint32_t ds = sizeof(wqe) / 16;

	RTE_BUILD_BUG_ON(sizeof(*ctrl) + sizeof(*umr) +
			 sizeof(struct mlx5_wqe_mkey_context_seg) !=
			 sizeof(wqe));
	memset(wqe, 0, sizeof(wqe));
	ctrl->opmod_idx_opcode = rte_cpu_to_be_32((uint32_t)lb->qp.sq_pi <<
						  8 | MLX5_OPCODE_UMR);
	ctrl->qpn_ds = rte_cpu_to_be_32(lb->qp.obj->id << 8 | ds);
	ctrl->fm_ce_se = MLX5_WQE_CTRL_CQ_UPDATE;
	ctrl->imm = rte_cpu_to_be_32(key);
	umr->flags = MLX5_WQE_UMR_CTRL_FLAG_INLINE;
	umr->mkey_mask = rte_cpu_to_be_64(mask);
	MLX5_SET(mkc, mkc, mkey_7_0, v->key_byte);
	MLX5_SET(mkc, mkc, qpn, v->qpn);
	MLX5_SET(mkc, mkc, lr, v->lr);
	MLX5_SET(mkc, mkc, lw, v->lw);
	MLX5_SET(mkc, mkc, rr, v->rr);
	MLX5_SET(mkc, mkc, rw, v->rw);
	MLX5_SET(mkc, mkc, a, v->a);
	return cr_post(lb, wqe, (int)ds, synd);
}

/* The key of @mkey with key byte @key_byte. */
static uint32_t
cr_key(const struct mlx5_devx_obj *mkey, uint8_t key_byte)
{
	return (mkey->id & ~UINT32_C(0xff)) | key_byte;
}

/*
 * What @mkey (its key byte @v->key_byte) lets through: its query shows
 * the rights and QP of @v; an RDMA WRITE to it and a READ from it (its
 * remote rights), a WRITE from it and a READ into it (its local rights)
 * each move their bytes or end in the error of the right refused, with
 * nothing moved. @src is a buffer of all rights, @dst the one the key
 * maps at iova 0.
 */
static int
cr_mkc_expect(struct mlx5_devx_lbqp *lb, struct mlx5_devx_obj *mkey,
	      const struct cr_mkc *v, struct cr_buf *src, struct cr_buf *dst,
	      const char *what)
{
	const uint32_t len = 64;
	const struct {
		uint8_t opcode;
		bool to_key;      /* The bytes go into the key's memory. */
		bool key_local;   /* The key is the WQE's local key. */
		uint8_t synd;
		const char *name;
	} op[] = {
		{ MLX5_OPCODE_RDMA_WRITE, true, false,
		  MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR, "remote write" },
		{ MLX5_OPCODE_RDMA_READ, false, false,
		  MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR, "remote read" },
		{ MLX5_OPCODE_RDMA_WRITE, false, true,
		  MLX5_CQE_SYNDROME_LOCAL_PROT_ERR, "local read" },
		{ MLX5_OPCODE_RDMA_READ, true, true,
		  MLX5_CQE_SYNDROME_LOCAL_PROT_ERR, "local write" },
	};
	const bool allowed[] = { v->rw, v->rr, v->lr, v->lw };
	uint32_t key = cr_key(mkey, v->key_byte);
	struct mlx5_devx_mkey_info info;
	uint8_t *from, *to, synd;
	unsigned int k;
	int ret;

	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_mkey_query(mkey, &info),
			    "%s: query", what);
	TEST_ASSERT(info.lr == v->lr && info.lw == v->lw &&
		    info.rr == v->rr && info.rw == v->rw &&
		    info.atomic == v->a,
		    "%s: lr lw rr rw a %d%d%d%d%d, want %d%d%d%d%d",
		    what, info.lr, info.lw, info.rr, info.rw, info.atomic,
		    v->lr, v->lw, v->rr, v->rw, v->a);
	TEST_ASSERT_EQUAL(info.qpn, v->qpn, "%s: QP number", what);
	for (k = 0; k < RTE_DIM(op); k++) {
		/* The key's side is dst (iova 0), the other src + 4096. */
		from = op[k].to_key ? src->va + 4096 : dst->va;
		to = op[k].to_key ? dst->va : src->va + 4096;
		for (uint32_t i = 0; i < len; i++)
			from[i] = (uint8_t)(i * 13 + k + 1);
		memset(to, 0xee, len);
		if (op[k].key_local)
			ret = mlx5_devx_lbqp_rdma(lb, op[k].opcode, key, 0,
				src->mr->rkey, (uintptr_t)src->va + 4096, len,
				&synd);
		else
			ret = mlx5_devx_lbqp_rdma(lb, op[k].opcode,
				src->mr->lkey, (uintptr_t)src->va + 4096, key,
				0, len, &synd);
		if (allowed[k]) {
			TEST_ASSERT_SUCCESS(ret, "%s: %s (syndrome 0x%x)",
					    what, op[k].name, synd);
			TEST_ASSERT(memcmp(to, from, len) == 0,
				    "%s: %s: the bytes", what, op[k].name);
		} else {
			TEST_ASSERT_EQUAL(ret, -EIO, "%s: %s refused", what,
					  op[k].name);
			TEST_ASSERT_EQUAL(synd, op[k].synd, "%s: %s: syndrome",
					  what, op[k].name);
			TEST_ASSERT(to[0] == 0xee && to[len - 1] == 0xee,
				    "%s: %s: nothing moved", what,
				    op[k].name);
		}
	}
	return TEST_SUCCESS;
}

/*
 * The mkey_mask bits of the key byte, the QP and each access right: a
 * UMR with one of them changes that field of a non-crypto indirect key
 * and no other, whatever the WQE's other fields say (each the opposite
 * of the key's), and the key then lets through what its rights say,
 * under its new key byte only (the old key names nothing: RDMA through
 * it and a UMR of it are refused). Each field changed, then changed
 * back; all the bits with the fields as they are, and a UMR whose mask
 * has none of them, change nothing.
 */
static int
test_umr_key_rights(void)
{
	const struct {
		uint64_t mask;
		const char *what;
	} bit[] = {
		{ MLX5_WQE_UMR_CTRL_MKEY_MASK_MKEY, "key byte" },
		{ MLX5_WQE_UMR_CTRL_MKEY_MASK_QPN, "QP number" },
		{ MLX5_UMR_MKEY_MASK_ACCESS_LOCAL_READ, "local read" },
		{ MLX5_WQE_UMR_CTRL_MKEY_MASK_ACCESS_LOCAL_WRITE,
		  "local write" },
		{ MLX5_WQE_UMR_CTRL_MKEY_MASK_ACCESS_REMOTE_READ,
		  "remote read" },
		{ MLX5_WQE_UMR_CTRL_MKEY_MASK_ACCESS_REMOTE_WRITE,
		  "remote write" },
		{ MLX5_WQE_UMR_CTRL_MKEY_MASK_ACCESS_ATOMIC, "atomic" },
	};
	uint64_t all = 0;
	struct cr_mkc cur = {
		.key_byte = 0, .qpn = MLX5_MKC_QPN_ANY,
		.lr = true, .lw = true, .rr = true, .rw = true, .a = false,
	};
	struct cr_mkc flip, next;
	struct mlx5_devx_lbqp lb;
	struct mlx5_devx_obj *mkey;
	struct cr_buf src, dst;
	char what[64];
	unsigned int b, turn;
	uint8_t synd;

	TEST_ASSERT_SUCCESS(cr_buf_get(&src, cdev->pd), "");
	TEST_ASSERT_SUCCESS(cr_buf_get(&dst, cdev->pd), "");
	TEST_ASSERT_SUCCESS(mlx5_devx_lbqp_create(cdev, &lb, cdev->pdn), "");
	mkey = cr_mkey(cdev->pdn, true, false, &dst);
	TEST_ASSERT_NOT_NULL(mkey, "indirect mkey with umr_en");
	/* The variant byte the common layer gave it (rotated per mkey). */
	cur.key_byte = (uint8_t)mkey->id;
	TEST_ASSERT_EQUAL(cr_mkc_expect(&lb, mkey, &cur, &src, &dst,
					"as created"), TEST_SUCCESS, "");
	for (b = 0; b < RTE_DIM(bit); b++) {
		all |= bit[b].mask;
		for (turn = 0; turn < 2; turn++) {
			/* Every field the opposite of the key's... */
			flip = (struct cr_mkc){
				.key_byte = cur.key_byte ^ 0xa5,
				.qpn = cur.qpn == MLX5_MKC_QPN_ANY ?
				       lb.qp.obj->id : MLX5_MKC_QPN_ANY,
				.lr = !cur.lr, .lw = !cur.lw, .rr = !cur.rr,
				.rw = !cur.rw, .a = !cur.a,
			};
			/* ... and only the one of the mask bit taken. */
			next = cur;
			switch (bit[b].mask) {
			case MLX5_WQE_UMR_CTRL_MKEY_MASK_MKEY:
				next.key_byte = flip.key_byte;
				break;
			case MLX5_WQE_UMR_CTRL_MKEY_MASK_QPN:
				next.qpn = flip.qpn;
				break;
			case MLX5_UMR_MKEY_MASK_ACCESS_LOCAL_READ:
				next.lr = flip.lr;
				break;
			case MLX5_WQE_UMR_CTRL_MKEY_MASK_ACCESS_LOCAL_WRITE:
				next.lw = flip.lw;
				break;
			case MLX5_WQE_UMR_CTRL_MKEY_MASK_ACCESS_REMOTE_READ:
				next.rr = flip.rr;
				break;
			case MLX5_WQE_UMR_CTRL_MKEY_MASK_ACCESS_REMOTE_WRITE:
				next.rw = flip.rw;
				break;
			default:
				next.a = flip.a;
				break;
			}
			snprintf(what, sizeof(what), "%s %s", bit[b].what,
				 turn == 0 ? "changed" : "back");
			synd = 0xff;
			TEST_ASSERT_SUCCESS(cr_umr_mkc(&lb,
				cr_key(mkey, cur.key_byte), bit[b].mask, &flip,
				&synd), "%s: UMR (syndrome 0x%x)", what, synd);
			TEST_ASSERT_EQUAL(cr_mkc_expect(&lb, mkey, &next, &src,
				&dst, what), TEST_SUCCESS, "");
			if (next.key_byte != cur.key_byte) {
				/* The old key names nothing any more. */
				TEST_ASSERT_EQUAL(mlx5_devx_lbqp_rdma(&lb,
					MLX5_OPCODE_RDMA_WRITE, src.mr->lkey,
					(uintptr_t)src.va,
					cr_key(mkey, cur.key_byte), 0, 64,
					&synd), -EIO, "%s: the old key",
					what);
				TEST_ASSERT_EQUAL(synd,
					MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR,
					"%s: the old key: syndrome", what);
				TEST_ASSERT_EQUAL(cr_umr_mkc(&lb,
					cr_key(mkey, cur.key_byte),
					bit[b].mask, &cur, &synd), -EIO,
					"%s: a UMR of the old key", what);
				TEST_ASSERT_EQUAL(synd,
					MLX5_CQE_SYNDROME_MW_BIND_ERR,
					"%s: a UMR of the old key: syndrome",
					what);
				TEST_ASSERT_EQUAL(cr_mkc_expect(&lb, mkey,
					&next, &src, &dst, what),
					TEST_SUCCESS, "");
			}
			cur = next;
		}
	}
	/* Every bit, each field as it is: nothing changes. */
	TEST_ASSERT_SUCCESS(cr_umr_mkc(&lb, cr_key(mkey, cur.key_byte), all,
				       &cur, &synd),
			    "all bits, fields unchanged (syndrome 0x%x)", synd);
	TEST_ASSERT_EQUAL(cr_mkc_expect(&lb, mkey, &cur, &src, &dst,
		"all bits, fields unchanged"), TEST_SUCCESS, "");
	/* None of the bits (the start address, as it is): nothing either. */
	flip = (struct cr_mkc){
		.key_byte = 0x5a, .qpn = lb.qp.obj->id,
		.lr = false, .lw = false, .rr = false, .rw = false, .a = true,
	};
	TEST_ASSERT_SUCCESS(cr_umr_mkc(&lb, cr_key(mkey, cur.key_byte),
		MLX5_WQE_UMR_CTRL_MKEY_MASK_START_ADDR, &flip, &synd),
		"no bit of the fields (syndrome 0x%x)", synd);
	TEST_ASSERT_EQUAL(cr_mkc_expect(&lb, mkey, &cur, &src, &dst,
		"no bit of the fields"), TEST_SUCCESS, "");

	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_destroy(mkey), "");
	mlx5_devx_lbqp_destroy(&lb);
	cr_buf_put(&dst);
	cr_buf_put(&src);
	TDEV_ASSERT_LIVE(0, live0, "everything destroyed");
	return TEST_SUCCESS;
}

static int
test_key_size(void)
{
	uint32_t in[MLX5_ST_SZ_DW(create_dek_in)] = { 0 };
	uint32_t out[MLX5_ST_SZ_DW(general_obj_out_cmd_hdr)];
	void *dek = MLX5_ADDR_OF(create_dek_in, in, dek);
	struct mlx5_devx_mkey_attr mattr = {
		.access_mode = MLX5_MKC_ACCESS_MODE_MTT,
		.crypto_en = true,
	};
	uint8_t key[64] = { 1 };
	struct mlx5_devx_dek_attr attr = {
		.key_size = MLX5_DEK_KEY_SIZE_256,
		.key_purpose = MLX5_DEK_KEY_PURPOSE_AES_XTS,
		.pd = cdev->pdn,
		.key = key,
		.key_len = 32,
	};

	CR_NEED_CRYPTO();
	/* The common layer: a key pair of the wrong length for its size. */
	TEST_ASSERT(mlx5_devx_cmd_create_dek(cdev, &attr) == NULL &&
		    rte_errno == EINVAL, "32 bytes for a 256-bit key pair");
	attr.key_size = MLX5_DEK_KEY_SIZE_128;
	attr.key_len = 64;
	TEST_ASSERT(mlx5_devx_cmd_create_dek(cdev, &attr) == NULL &&
		    rte_errno == EINVAL, "64 bytes for a 128-bit key pair");
	/* The device: a key size code it does not know. */
	MLX5_SET(general_obj_in_cmd_hdr, in, opcode,
		 MLX5_CMD_OP_CREATE_GENERAL_OBJECT);
	MLX5_SET(general_obj_in_cmd_hdr, in, obj_type,
		 MLX5_GENERAL_OBJ_TYPE_DEK);
	MLX5_SET(dek, dek, key_size, 0x2);
	MLX5_SET(dek, dek, key_purpose, MLX5_DEK_KEY_PURPOSE_AES_XTS);
	MLX5_SET(dek, dek, pd, cdev->pdn);
	TEST_ASSERT(mlx5_devx_obj_create(cdev, "CREATE_DEK", in, sizeof(in),
					 out, sizeof(out)) == NULL &&
		    rte_errno == EINVAL, "key size code 2");
	/* crypto_en belongs to indirect mkeys. */
	TEST_ASSERT(mlx5_devx_cmd_mkey_create(cdev, &mattr) == NULL &&
		    rte_errno == EINVAL, "crypto_en on an MTT mkey");
	TDEV_ASSERT_LIVE(0, live0, "nothing made");
	return TEST_SUCCESS;
}

/* A UMR of @mkey with no BSF, the key's BSF enabled (@bsf_en) or not. */
static int
cr_umr_no_bsf(struct cr_env *e, const struct mlx5_devx_obj *mkey, bool bsf_en)
{
	uint8_t wqe[MLX5_UMR_CRYPTO_WQE_SIZE] __rte_aligned(16);
	struct mlx5_wqe_ctrl_seg *ctrl = (void *)wqe;
	struct mlx5_wqe_umr_ctrl_seg *umr = (void *)(ctrl + 1);
	struct mlx5_wqe_mkey_context_seg *mkc = (void *)(umr + 1);
	struct mlx5_umr_crypto_wqe_attr a;
	uint8_t synd = 0;
	int ds;

	cr_umr_attr(&a, &e->lb, mkey->id, &e->dst, CR_UNIT, 0, NULL,
		    MLX5_ENCRYPTION_ORDER_ENCRYPTED_RAW_MEMORY);
	ds = mlx5_umr_crypto_wqe_build(wqe, &a);
	TEST_ASSERT(ds > MLX5_CRYPTO_BSF_OCTOWORDS, "UMR WQE");
	ds -= MLX5_CRYPTO_BSF_OCTOWORDS;
	ctrl->qpn_ds = rte_cpu_to_be_32(
		(rte_be_to_cpu_32(ctrl->qpn_ds) & ~0x3fu) | (uint32_t)ds);
	umr->bsf_octowords = 0;
	if (!bsf_en)
		mkc->flags_pd &= ~rte_cpu_to_be_32(
			MLX5_UMR_MKEY_CTX_FLAGS_BSF_ENABLE);
	TEST_ASSERT_SUCCESS(cr_post(&e->lb, wqe, ds, &synd),
			    "UMR without a BSF (0x%x)", synd);
	return TEST_SUCCESS;
}

/* An RDMA WRITE on @lb that fails with @want and leaves dst as it was. */
#define CR_WRITE_FAILS(lb, lkey, laddr, rkey, raddr, len, want, what) do { \
	uint8_t s__ = 0; \
	memset(e.dst.va, 0xee, CR_BUF_LEN); \
	TEST_ASSERT_EQUAL(mlx5_devx_lbqp_rdma(lb, MLX5_OPCODE_RDMA_WRITE, \
		lkey, (uintptr_t)(laddr), rkey, raddr, len, &s__), -EIO, \
		"%s", what); \
	TEST_ASSERT_EQUAL(s__, want, "%s: syndrome", what); \
	TEST_ASSERT(e.dst.va[0] == 0xee && e.dst.va[CR_BUF_LEN - 1] == 0xee && \
		    e.dst.va[CR_UNIT] == 0xee, "%s: nothing written", what); \
} while (0)

/*
 * Each rule of an RDMA WRITE through a configured crypto key broken once,
 * after writes that went through (so that the device's translations of
 * both keys are cached): the local key's range, the QP's PD, the data
 * units, the key's BSF, its rights, its DEK (gone, or its number taken
 * by a DEK of another PD), the key of its entry gone; and the tweak of
 * a unit after the first.
 */
static int
test_write_rules(void)
{
	const uint8_t order = MLX5_ENCRYPTION_ORDER_ENCRYPTED_RAW_MEMORY;
	const uint32_t rae = MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR;
	struct mlx5_devx_mkey_attr no_rw = {
		.access_mode = MLX5_MKC_ACCESS_MODE_KLM,
		.pd = cdev->pdn, .lr = true, .lw = true, .rr = true,
		.umr_en = true, .crypto_en = true, .free = true,
		.klm_num = 4,
	};
	struct mlx5_klm klm[4] = { { 0 } };
	struct mlx5_devx_obj *mk, *dek2;
	struct mlx5_devx_lbqp lb2;
	uint8_t want[CR_UNIT], synd;
	struct ibv_pd *pd2;
	struct cr_buf other;
	struct cr_env e;
	uint32_t pdn2, id, n;

	CR_NEED_CRYPTO();
	TDEV_SIM_ONLY("DEK numbers reused in turn: the model's allocator");
	TEST_ASSERT_EQUAL(cr_env_get(&e, V4_KEY), TEST_SUCCESS, "");
	TEST_ASSERT_EQUAL(cr_other_get(&pd2, &pdn2, &other), TEST_SUCCESS, "");
	cr_pattern(e.src.va);
	cr_hex(V4_CTX, e.src.va + CR_UNIT);
	TEST_ASSERT_EQUAL(cr_write_through(&e, 2 * CR_UNIT, NULL, order,
		MLX5_CRYPTO_BLOCK_SIZE_512B), TEST_SUCCESS, "two units");
	/* The second unit alone: tweak 1, vector 5. */
	memset(e.dst.va, 0, CR_BUF_LEN);
	TEST_ASSERT_SUCCESS(mlx5_devx_lbqp_rdma(&e.lb, MLX5_OPCODE_RDMA_WRITE,
		e.src.mr->lkey, (uintptr_t)e.src.va + CR_UNIT, e.mkey->id,
		CR_UNIT, CR_UNIT, &synd), "the second unit (0x%x)", synd);
	cr_hex(V5_CTX, want);
	TEST_ASSERT(memcmp(e.dst.va + CR_UNIT, want, CR_UNIT) == 0,
		    "the second unit alone: vector 5");
	/* The local key's range: from before its start, past its end. */
	CR_WRITE_FAILS(&e.lb, e.src.mr->lkey, e.src.va - 16, e.mkey->id, 0,
		       CR_UNIT, MLX5_CQE_SYNDROME_LOCAL_PROT_ERR,
		       "source before its key");
	CR_WRITE_FAILS(&e.lb, e.src.mr->lkey, e.src.va + CR_BUF_LEN - 256,
		       e.mkey->id, 0, CR_UNIT, MLX5_CQE_SYNDROME_LOCAL_PROT_ERR,
		       "source past its key");
	/* A QP of another PD: the key is not of its PD. */
	TEST_ASSERT_SUCCESS(mlx5_devx_lbqp_create(cdev, &lb2, pdn2), "");
	CR_WRITE_FAILS(&lb2, other.mr->lkey, other.va, e.mkey->id, 0, CR_UNIT,
		       rae, "QP of another PD");
	mlx5_devx_lbqp_destroy(&lb2);
	/*
	 * Units of 520 bytes: 496 bytes are a last partial unit (after a
	 * whole unit too), 512 are one of more than the unit less 16, 8 a
	 * last unit that is no block.
	 */
	TEST_ASSERT_EQUAL(cr_configure(&e, CR_BUF_LEN, NULL, order,
		MLX5_CRYPTO_BLOCK_SIZE_520B), TEST_SUCCESS, "");
	TEST_ASSERT_SUCCESS(mlx5_devx_lbqp_rdma(&e.lb, MLX5_OPCODE_RDMA_WRITE,
		e.src.mr->lkey, (uintptr_t)e.src.va, e.mkey->id, 0, 496,
		&synd), "496 bytes of a 520-byte unit (0x%x)", synd);
	TEST_ASSERT_SUCCESS(mlx5_devx_lbqp_rdma(&e.lb, MLX5_OPCODE_RDMA_WRITE,
		e.src.mr->lkey, (uintptr_t)e.src.va, e.mkey->id, 0, 520 + 496,
		&synd), "a 520-byte unit and 496 bytes (0x%x)", synd);
	CR_WRITE_FAILS(&e.lb, e.src.mr->lkey, e.src.va, e.mkey->id, 0,
		       520 + 8, rae, "a last unit of 8 bytes");
	CR_WRITE_FAILS(&e.lb, e.src.mr->lkey, e.src.va, e.mkey->id, 0, 512,
		       rae, "512 bytes of a 520-byte unit");
	/* The key's BSF disabled by a UMR: no cipher to use. */
	TEST_ASSERT_EQUAL(cr_write_through(&e, CR_UNIT, NULL, order,
		MLX5_CRYPTO_BLOCK_SIZE_512B), TEST_SUCCESS, "");
	TEST_ASSERT_EQUAL(cr_umr_no_bsf(&e, e.mkey, false), TEST_SUCCESS, "");
	CR_WRITE_FAILS(&e.lb, e.src.mr->lkey, e.src.va, e.mkey->id, 0,
		       CR_UNIT, rae, "BSF disabled");
	/* A key with its BSF enabled that no UMR gave a BSF. */
	mk = cr_mkey(cdev->pdn, true, true, NULL);
	TEST_ASSERT_NOT_NULL(mk, "");
	TEST_ASSERT_EQUAL(cr_umr_no_bsf(&e, mk, true), TEST_SUCCESS, "");
	CR_WRITE_FAILS(&e.lb, e.src.mr->lkey, e.src.va, mk->id, 0, CR_UNIT,
		       rae, "BSF enabled, never given");
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_destroy(mk), "");
	/* A key without remote write. */
	no_rw.klm_array = klm;
	mk = mlx5_devx_cmd_mkey_create(cdev, &no_rw);
	TEST_ASSERT_NOT_NULL(mk, "");
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_destroy(e.mkey), "");
	e.mkey = mk;
	TEST_ASSERT_EQUAL(cr_configure(&e, CR_UNIT, NULL, order,
		MLX5_CRYPTO_BLOCK_SIZE_512B), TEST_SUCCESS, "");
	CR_WRITE_FAILS(&e.lb, e.src.mr->lkey, e.src.va, e.mkey->id, 0,
		       CR_UNIT, rae, "no remote write");
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_destroy(e.mkey), "");
	e.mkey = cr_mkey(cdev->pdn, true, true, NULL);
	TEST_ASSERT_NOT_NULL(e.mkey, "");
	/* The DEK destroyed. */
	TEST_ASSERT_EQUAL(cr_write_through(&e, CR_UNIT, NULL, order,
		MLX5_CRYPTO_BLOCK_SIZE_512B), TEST_SUCCESS, "");
	id = e.dek->id;
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_destroy(e.dek), "");
	e.dek = NULL;
	CR_WRITE_FAILS(&e.lb, e.src.mr->lkey, e.src.va, e.mkey->id, 0,
		       CR_UNIT, rae, "DEK destroyed");
	/* Its number given to a DEK of another PD (numbers go in turn). */
	for (n = 0, dek2 = NULL; n < MLX5_SIM_MAX_DEKS; n++) {
		dek2 = cr_dek(pdn2, V4_KEY, false, 0);
		TEST_ASSERT_NOT_NULL(dek2, "DEK of the other PD");
		if (dek2->id == id)
			break;
		TEST_ASSERT_SUCCESS(mlx5_devx_cmd_destroy(dek2), "");
		dek2 = NULL;
	}
	TEST_ASSERT_NOT_NULL(dek2, "DEK number 0x%x again", id);
	CR_WRITE_FAILS(&e.lb, e.src.mr->lkey, e.src.va, e.mkey->id, 0,
		       CR_UNIT, rae, "DEK number of another PD's DEK");
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_destroy(dek2), "");
	/* The key of its entry deregistered. */
	e.dek = cr_dek(cdev->pdn, V4_KEY, false, 0);
	TEST_ASSERT_NOT_NULL(e.dek, "");
	TEST_ASSERT_EQUAL(cr_write_through(&e, CR_UNIT, NULL, order,
		MLX5_CRYPTO_BLOCK_SIZE_512B), TEST_SUCCESS, "");
	TEST_ASSERT_SUCCESS(cdev->glue->dereg_mr(e.dst.mr), "");
	e.dst.mr = NULL;
	CR_WRITE_FAILS(&e.lb, e.src.mr->lkey, e.src.va, e.mkey->id, 0,
		       CR_UNIT, rae, "entry key deregistered");

	TEST_ASSERT_EQUAL(cr_other_put(pd2, &other), TEST_SUCCESS, "");
	cr_env_put(&e);
	TDEV_ASSERT_LIVE(0, live0, "everything destroyed");
	return TEST_SUCCESS;
}

/*
 * Memory protected under valid keys after the UMR (the application's
 * mistake), so the device's copy faults half-way through a WRITE through
 * the crypto mkey: a destination page that cannot be written ends it in
 * a remote access error, a source page that cannot be read in a local
 * protection error. The process lives, the QP recovers, the mkey keeps
 * its configuration: the same WRITE once the pages are back gives the
 * ciphertext of the WRITE before.
 */
static int
test_protected_under_key(void)
{
	const long page = sysconf(_SC_PAGESIZE);
	const uint32_t len = CR_BUF_LEN;
	uint8_t want[CR_BUF_LEN], synd;
	struct cr_env e;

	CR_NEED_CRYPTO();
	TDEV_SIM_ONLY("hardware reaches pinned pages whatever their protection");
	if (mlx5_test_under_valgrind())
		TEST_SKIP("memcheck flags the device's access to protected memory before the fault guard runs");
	if (page != CR_BUF_LEN / 2)
		TEST_SKIP("pages of %ld bytes: the buffers are two of 4096", page);
	TEST_ASSERT_EQUAL(cr_env_get(&e, V4_KEY), TEST_SUCCESS, "");
	for (uint32_t i = 0; i < len; i++)
		e.src.va[i] = (uint8_t)(i * 7 + 3);
	TEST_ASSERT_EQUAL(cr_write_through(&e, len, NULL,
		MLX5_ENCRYPTION_ORDER_ENCRYPTED_RAW_MEMORY,
		MLX5_CRYPTO_BLOCK_SIZE_512B), TEST_SUCCESS, "");
	memcpy(want, e.dst.va, len);
	TEST_ASSERT(memcmp(want, e.src.va, len) != 0, "encrypted");
	/* The destination's second page read-only. */
	memset(e.dst.va, 0, len);
	TEST_ASSERT_SUCCESS(mprotect(e.dst.va + page, page, PROT_READ), "");
	TEST_ASSERT_EQUAL(mlx5_devx_lbqp_rdma(&e.lb, MLX5_OPCODE_RDMA_WRITE,
		e.src.mr->lkey, (uintptr_t)e.src.va, e.mkey->id, 0, len,
		&synd), -EIO, "destination page not writable");
	TEST_ASSERT_EQUAL(synd, MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR, "");
	TEST_ASSERT_SUCCESS(mprotect(e.dst.va + page, page,
				     PROT_READ | PROT_WRITE), "");
	/* The source's second page unreadable. */
	TEST_ASSERT_SUCCESS(mprotect(e.src.va + page, page, PROT_NONE), "");
	TEST_ASSERT_EQUAL(mlx5_devx_lbqp_rdma(&e.lb, MLX5_OPCODE_RDMA_WRITE,
		e.src.mr->lkey, (uintptr_t)e.src.va, e.mkey->id, 0, len,
		&synd), -EIO, "source page not readable");
	TEST_ASSERT_EQUAL(synd, MLX5_CQE_SYNDROME_LOCAL_PROT_ERR, "");
	TEST_ASSERT_SUCCESS(mprotect(e.src.va + page, page,
				     PROT_READ | PROT_WRITE), "");
	/* Both back: the QP and the mkey work as before. */
	memset(e.dst.va, 0, len);
	TEST_ASSERT_SUCCESS(mlx5_devx_lbqp_rdma(&e.lb, MLX5_OPCODE_RDMA_WRITE,
		e.src.mr->lkey, (uintptr_t)e.src.va, e.mkey->id, 0, len,
		&synd), "after recovery (syndrome 0x%x)", synd);
	TEST_ASSERT(memcmp(e.dst.va, want, len) == 0, "the same ciphertext");
	cr_env_put(&e);
	TDEV_ASSERT_LIVE(0, live0, "everything destroyed");
	return TEST_SUCCESS;
}

/*
 * A crypto UMR of @key over CR_UNIT bytes of dst (CHECK_FREE with
 * @check_free): as cr_post().
 */
static int
cr_umr_dv(struct cr_env *e, uint32_t key, bool check_free, uint8_t *synd)
{
	uint8_t wqe[MLX5_UMR_CRYPTO_WQE_SIZE] __rte_aligned(16);
	struct mlx5_umr_crypto_wqe_attr a;
	int ds;

	cr_umr_attr(&a, &e->lb, key, &e->dst, CR_UNIT, e->dek->id,
		    "0102030405060708090a0b0c0d0e0f10",
		    MLX5_ENCRYPTION_ORDER_ENCRYPTED_RAW_MEMORY);
	ds = mlx5_umr_crypto_wqe_build(wqe, &a);
	if (ds < 0)
		return ds;
	if (check_free)
		((struct mlx5_wqe_umr_ctrl_seg *)(wqe + sizeof(
			struct mlx5_wqe_ctrl_seg)))->flags |=
			MLX5_WQE_UMR_CTRL_FLAG_CHECK_FREE;
	return cr_post(&e->lb, wqe, ds, synd);
}

/*
 * What mlx5dv_create_mkey() gives a key, seen through UMRs: a CRYPTO key
 * is free, takes a UMR (CHECK_FREE too), a crypto BSF and a list of up to
 * max_entries (rounded up to 4) entries, and ciphers as a DEVX crypto key
 * does; once configured it is no longer free; an INDIRECT key without
 * CRYPTO takes no crypto BSF.
 */
static int
test_dv_mkey_umr(void)
{
	struct mlx5dv_mkey_init_attr attr = { .max_entries = 1 };
	const struct mlx5_glue *g = cdev->glue;
	struct mlx5dv_mkey *dv, *plain;
	uint8_t got[CR_UNIT];
	struct cr_env e;
	uint8_t synd;
	int i;

	CR_NEED_CRYPTO();
	TEST_ASSERT_EQUAL(cr_env_get(&e, V4_KEY), TEST_SUCCESS, "");
	attr.pd = cdev->pd;
	attr.create_flags = MLX5DV_MKEY_INIT_ATTR_FLAGS_INDIRECT |
			    MLX5DV_MKEY_INIT_ATTR_FLAGS_CRYPTO;
	dv = g->dv_create_mkey(&attr);
	TEST_ASSERT_NOT_NULL(dv, "CRYPTO mkey (errno %d)", errno);
	TEST_ASSERT_EQUAL(attr.max_entries, 4, "one entry asked, four made");
	attr.create_flags = MLX5DV_MKEY_INIT_ATTR_FLAGS_INDIRECT;
	plain = g->dv_create_mkey(&attr);
	TEST_ASSERT_NOT_NULL(plain, "INDIRECT mkey (errno %d)", errno);

	/* Free and open to UMRs, with room for a crypto BSF. */
	synd = 0xff;
	TEST_ASSERT_SUCCESS(cr_umr_dv(&e, dv->lkey, true, &synd),
			    "CHECK_FREE crypto UMR on a new key (0x%x)", synd);
	for (i = 0; i < CR_UNIT; i++)
		e.src.va[i] = (uint8_t)(i * 5 + 3);
	/* Made with local read only (rdma-core's mkey context). */
	TEST_ASSERT_EQUAL(mlx5_devx_lbqp_rdma(&e.lb, MLX5_OPCODE_RDMA_WRITE,
		e.src.mr->lkey, (uintptr_t)e.src.va, dv->rkey, 0, CR_UNIT,
		&synd), -EIO, "RDMA write before remote write is given");
	TEST_ASSERT_EQUAL(synd, MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR, "");
	TEST_ASSERT_SUCCESS(cr_umr_mkc(&e.lb, dv->lkey,
		MLX5_WQE_UMR_CTRL_MKEY_MASK_ACCESS_REMOTE_WRITE,
		&(struct cr_mkc){ .rw = true }, &synd),
		"UMR giving remote write (0x%x)", synd);
	TEST_ASSERT_SUCCESS(mlx5_devx_lbqp_rdma(&e.lb, MLX5_OPCODE_RDMA_WRITE,
		e.src.mr->lkey, (uintptr_t)e.src.va, dv->rkey, 0, CR_UNIT,
		&synd), "RDMA write through the key (0x%x)", synd);
	memcpy(got, e.dst.va, CR_UNIT);
	TEST_ASSERT(memcmp(got, e.src.va, CR_UNIT) != 0, "ciphered");
	/* The same cipher as a DEVX crypto key's. */
	memset(e.dst.va, 0, CR_UNIT);
	TEST_ASSERT_EQUAL(cr_write_through(&e, CR_UNIT,
		"0102030405060708090a0b0c0d0e0f10",
		MLX5_ENCRYPTION_ORDER_ENCRYPTED_RAW_MEMORY,
		MLX5_CRYPTO_BLOCK_SIZE_512B), TEST_SUCCESS, "");
	TEST_ASSERT(memcmp(got, e.dst.va, CR_UNIT) == 0,
		    "the DEVX crypto key's ciphertext");
	/* Configured: no longer free. */
	TEST_ASSERT_EQUAL(cr_umr_dv(&e, dv->lkey, true, &synd), -EIO,
			  "CHECK_FREE on a configured key");
	TEST_ASSERT_EQUAL(synd, MLX5_CQE_SYNDROME_MW_BIND_ERR, "");
	/* A list of five entries (eight octowords): more than its four. */
	TEST_ASSERT_EQUAL(cr_umr_list(&e, dv->lkey, 5, &synd), -EIO,
			  "five entries on a key of four");
	TEST_ASSERT_EQUAL(synd, MLX5_CQE_SYNDROME_MW_BIND_ERR, "");
	TEST_ASSERT_SUCCESS(cr_umr_list(&e, dv->lkey, 4, &synd),
			    "four entries (0x%x)", synd);
	/* Without CRYPTO: no crypto BSF. */
	TEST_ASSERT_EQUAL(cr_umr_dv(&e, plain->lkey, false, &synd), -EIO,
			  "crypto UMR on a key without CRYPTO");
	TEST_ASSERT_EQUAL(synd, MLX5_CQE_SYNDROME_MW_BIND_ERR, "");

	TEST_ASSERT_SUCCESS(g->dv_destroy_mkey(plain), "");
	TEST_ASSERT_SUCCESS(g->dv_destroy_mkey(dv), "");
	cr_env_put(&e);
	TDEV_ASSERT_LIVE(0, live0, "everything destroyed");
	return TEST_SUCCESS;
}

/*
 * The secrets of a device in wrapped import (test_wrapped_import()): the
 * CRYPTO_OPERATIONAL register's import KEK (AES-256) and credential, as
 * the officer would set them.
 */
#define CR_KEK "6b656b2d6f662d7468652d746573742d" \
	       "2d7769746820616e2041455320323536"
#define CR_OTHER_KEK "00112233445566778899aabbccddeeff" \
		     "00112233445566778899aabbccddeeff"
#define CR_CREDENTIAL "63726564656e7469616c206f66207468" \
		      "65206f6666696365723a2034302062" \
		      "79746573202e2e2e2e"
#define CR_WRAPPED_SHAPE "card=83,vhca_id=0,crypto=wrapped,crypto_kek=" \
	CR_KEK ",crypto_credential=" CR_CREDENTIAL

/* RFC 3394 wrap of @len bytes of @in under the KEK @kek_hex into @out. */
static int
cr_wrap(const char *kek_hex, const uint8_t *in, size_t len, uint8_t *out)
{
	uint8_t kek[32];
	size_t kn = cr_hex(kek_hex, kek);
	EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
	int n = 0, ok;

	if (c == NULL)
		return -ENOMEM;
	EVP_CIPHER_CTX_set_flags(c, EVP_CIPHER_CTX_FLAG_WRAP_ALLOW);
	ok = EVP_EncryptInit_ex(c, kn == 32 ? EVP_aes_256_wrap() :
				EVP_aes_128_wrap(), NULL, kek, NULL) &&
	     EVP_EncryptUpdate(c, out, &n, in, (int)len) &&
	     n == (int)len + 8;
	EVP_CIPHER_CTX_free(c);
	return ok ? 0 : -EINVAL;
}

/* A crypto login with the credential @cred_hex wrapped under @kek_hex. */
static struct mlx5_devx_obj *
cr_login(const char *kek_hex, const char *cred_hex, uint32_t cred_id)
{
	struct mlx5_devx_crypto_login_attr a = { .credential_id = cred_id };
	uint8_t cred[MLX5_CRYPTO_CREDENTIAL_LEN];

	cr_hex(cred_hex, cred);
	if (cr_wrap(kek_hex, cred, sizeof(cred), a.credential) != 0)
		return NULL;
	return mlx5_devx_cmd_create_crypto_login(cdev, &a);
}

/*
 * A wrapped DEK of PD @pdn: the XTS key pair @key_hex and, with
 * @has_tag, the key tag @tag, wrapped under @kek_hex.
 */
static struct mlx5_devx_obj *
cr_dek_wrapped(uint32_t pdn, const char *kek_hex, const char *key_hex,
	       bool has_tag, uint64_t tag)
{
	uint8_t key[72], wrapped[80];
	size_t n = cr_hex(key_hex, key);
	rte_be64_t be = rte_cpu_to_be_64(tag);
	struct mlx5_devx_dek_attr attr = {
		.key_size = n == 64 ? MLX5_DEK_KEY_SIZE_256 :
				      MLX5_DEK_KEY_SIZE_128,
		.key_purpose = MLX5_DEK_KEY_PURPOSE_AES_XTS,
		.pd = pdn,
		.key = wrapped,
		.wrapped = true,
		.has_keytag = has_tag,
	};

	if (has_tag) {
		memcpy(key + n, &be, sizeof(be));
		n += sizeof(be);
	}
	if (cr_wrap(kek_hex, key, n, wrapped) != 0)
		return NULL;
	attr.key_len = n + 8;
	return mlx5_devx_cmd_create_dek(cdev, &attr);
}

/* @what fails, and the device's refusal names syndrome @synd. */
#define CR_REFUSED(call, synd, what) do { \
	const char *log__; \
	void *obj__; \
	mlx5_test_log_capture_start(); \
	obj__ = (call); \
	log__ = mlx5_test_log_capture_stop(); \
	TEST_ASSERT((obj__) == NULL, "%s", what); \
	TEST_ASSERT(strstr(log__, "syndrome=" synd) != NULL, \
		    "%s: syndrome " synd " in \"%s\"", what, log__); \
} while (0)

/*
 * Wrapped import (the software device's shape: crypto=wrapped with the
 * CRYPTO_OPERATIONAL register's KEK and credential). In commissioning
 * nothing is taken; once operational a DEK needs a crypto login of its
 * context, whose credential unwraps under the KEK; the key must unwrap
 * too; the key tag is checked where the key is used. Every refusal
 * leaves nothing behind.
 */
static int
test_wrapped_import(void)
{
	struct mlx5_umr_crypto_wqe_attr a;
	struct mlx5_devx_obj *login, *dek, *plain;
	uint8_t want[CR_UNIT];
	uint8_t synd = 0;
	struct cr_env e;
	long base;

	TDEV_SIM_ONLY("the officer's KEK and credential are its settings");
	/* In commissioning: the device refuses the login and any DEK. */
	tdev_remove_all();
	TEST_ASSERT_SUCCESS(tdev_probe(0, "card=84,vhca_id=0,crypto=wrapped"),
			    "");
	cdev = tdev_cdev(0);
	TEST_ASSERT(cdev->caps.crypto.wrapped_import &&
		    cdev->caps.crypto.login &&
		    !cdev->caps.crypto.wrapped_crypto_operational,
		    "wrapped import, in commissioning");
	base = tdev_live(0);
	TEST_ASSERT(cr_login(CR_KEK, CR_CREDENTIAL, 0) == NULL, "login");
	TEST_ASSERT_EQUAL(rte_errno, ENOTSUP, "");
	CR_REFUSED(cr_dek_wrapped(cdev->pdn, CR_KEK, V4_KEY, true, 0),
		   "0x51090008", "DEK in commissioning");
	TDEV_ASSERT_LIVE(0, base, "nothing made");
	tdev_remove_all();

	TEST_ASSERT_SUCCESS(tdev_probe(0, CR_WRAPPED_SHAPE), "");
	cdev = tdev_cdev(0);
	TEST_ASSERT(cdev->caps.crypto.wrapped_import &&
		    cdev->caps.crypto.wrapped_crypto_operational,
		    "wrapped import, operational");
	base = tdev_live(0);
	/* Plaintext keys: refused before asking. */
	plain = cr_dek(cdev->pdn, V4_KEY, false, 0);
	TEST_ASSERT((plain) == NULL, "a plaintext DEK");
	TEST_ASSERT_EQUAL(rte_errno, ENOTSUP, "");
	CR_REFUSED(cr_dek_wrapped(cdev->pdn, CR_KEK, V4_KEY, true, 7),
		   "0x51090006", "a DEK before the login");
	CR_REFUSED(cr_login(CR_OTHER_KEK, CR_CREDENTIAL, 0), "0x5109000a",
		   "a credential wrapped under another KEK");
	CR_REFUSED(cr_login(CR_KEK, V2_KEY "0000000000000000", 0),
		   "0x5109000a", "another credential");
	CR_REFUSED(cr_login(CR_KEK, CR_CREDENTIAL, 1), "0x51090009",
		   "a credential id the device does not have");
	TDEV_ASSERT_LIVE(0, base, "nothing made by the refusals");
	login = cr_login(CR_KEK, CR_CREDENTIAL, 0);
	TEST_ASSERT_NOT_NULL(login, "the login");
	CR_REFUSED(cr_login(CR_KEK, CR_CREDENTIAL, 0), "0x5109000b",
		   "a second login of the context");
	CR_REFUSED(cr_dek_wrapped(cdev->pdn, CR_OTHER_KEK, V4_KEY, true, 7),
		   "0x51090007", "a key wrapped under another KEK");
	TDEV_ASSERT_LIVE(0, base + 1, "the login alone");

	/* A wrapped DEK ciphers as its plaintext would: IEEE vector 4. */
	memset(&e, 0, sizeof(e));
	TEST_ASSERT_SUCCESS(cr_buf_get(&e.src, cdev->pd), "");
	TEST_ASSERT_SUCCESS(cr_buf_get(&e.dst, cdev->pd), "");
	TEST_ASSERT_SUCCESS(mlx5_devx_lbqp_create(cdev, &e.lb, cdev->pdn), "");
	e.mkey = cr_mkey(cdev->pdn, true, true, NULL);
	TEST_ASSERT_NOT_NULL(e.mkey, "crypto mkey");
	dek = cr_dek_wrapped(cdev->pdn, CR_KEK, V4_KEY, true, 0xabcdef01);
	TEST_ASSERT_NOT_NULL(dek, "a wrapped DEK with a key tag");
	cr_pattern(e.src.va);
	cr_umr_attr(&a, &e.lb, e.mkey->id, &e.dst, CR_UNIT, dek->id, NULL,
		    MLX5_ENCRYPTION_ORDER_ENCRYPTED_RAW_MEMORY);
	a.keytag = 0xabcdef00;
	TEST_ASSERT_SUCCESS(cr_umr(&e.lb, &a, &synd), "UMR, wrong key tag");
	TEST_ASSERT_EQUAL(mlx5_devx_lbqp_rdma(&e.lb, MLX5_OPCODE_RDMA_WRITE,
		e.src.mr->lkey, (uintptr_t)e.src.va, e.mkey->id, 0, CR_UNIT,
		&synd), -EIO, "write through a wrong key tag");
	TEST_ASSERT(e.dst.va[0] == 0, "nothing written");
	a.wqe_index = e.lb.qp.sq_pi;
	a.keytag = 0xabcdef01;
	TEST_ASSERT_SUCCESS(cr_umr(&e.lb, &a, &synd), "UMR, the key's tag");
	TEST_ASSERT_SUCCESS(mlx5_devx_lbqp_rdma(&e.lb, MLX5_OPCODE_RDMA_WRITE,
		e.src.mr->lkey, (uintptr_t)e.src.va, e.mkey->id, 0, CR_UNIT,
		&synd), "write (syndrome 0x%x)", synd);
	cr_hex(V4_CTX, want);
	TEST_ASSERT(memcmp(e.dst.va, want, CR_UNIT) == 0,
		    "IEEE 1619 vector 4 through the wrapped key");
	/* Logged out: the DEK stays usable, no new one is taken. */
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_destroy(login), "logout");
	memset(e.dst.va, 0, CR_UNIT);
	TEST_ASSERT_SUCCESS(mlx5_devx_lbqp_rdma(&e.lb, MLX5_OPCODE_RDMA_WRITE,
		e.src.mr->lkey, (uintptr_t)e.src.va, e.mkey->id, 0, CR_UNIT,
		&synd), "write after the logout (0x%x)", synd);
	TEST_ASSERT(memcmp(e.dst.va, want, CR_UNIT) == 0, "same ciphertext");
	CR_REFUSED(cr_dek_wrapped(cdev->pdn, CR_KEK, V4_KEY, true, 1),
		   "0x51090006", "a DEK after the logout");
	/* A new login; a key without a tag (40 bytes wrapped) is taken. */
	login = cr_login(CR_KEK, CR_CREDENTIAL, 0);
	TEST_ASSERT_NOT_NULL(login, "a second login after the first");
	plain = cr_dek_wrapped(cdev->pdn, CR_KEK, V10_KEY, false, 0);
	TEST_ASSERT_NOT_NULL(plain, "a wrapped 256-bit DEK without a tag");
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_destroy(plain), "");
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_destroy(dek), "");
	e.dek = NULL;
	cr_env_put(&e);
	TDEV_ASSERT_LIVE(0, base + 1, "the second login alone");
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_destroy(login), "");
	TDEV_ASSERT_LIVE(0, base, "everything destroyed");
	return TEST_SUCCESS;
}

static const struct mlx5_test_case cr_cases[] = {
	{ "caps", test_caps },
	{ "xts_128", test_xts_128 },
	{ "xts_256", test_xts_256 },
	{ "xts_multi_unit", test_xts_multi_unit },
	{ "xts_decrypt", test_xts_decrypt },
	{ "unconfigured", test_unconfigured },
	{ "umr_rules", test_umr_rules },
	{ "wrapped_import", test_wrapped_import },
	{ "umr_fields", test_umr_fields },
	{ "umr_key_rights", test_umr_key_rights },
	{ "dv_mkey_umr", test_dv_mkey_umr },
	{ "key_size", test_key_size },
	{ "write_rules", test_write_rules },
	{ "protected_under_key", test_protected_under_key },
	{ NULL, NULL },
};

static const struct mlx5_test_suite cr_suite = {
	.name = "crypto",
	.case_setup = cr_case_setup,
	.case_teardown = cr_case_teardown,
	.cases = cr_cases,
};

MLX5_TEST_MAIN(cr_suite);
