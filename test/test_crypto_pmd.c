/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * The crypto PMD (crypto_mlx5) through the cryptodev API, on the software
 * device probed with class=crypto: IEEE 1619 XTS-AES vectors in place and
 * out of place, single and multi-segment, each data-unit size and the
 * whole operation as one unit; bad inputs fail their operation with the
 * right status; an error completion fails only its operation and the
 * queue pair goes on; queue pairs are reused when set up again unchanged;
 * the devargs; and every case ends with the device removed and nothing
 * left on it nor reclaimed at its close (the live-object counts).
 */

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <openssl/evp.h>

#include <rte_crypto.h>
#include <rte_cryptodev.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>

#include "mlx5_crypto.h"

#include "mlx5_test.h"
#include "mlx5_test_sim.h"
#include "mlx5_test_xts.h"

#define CP_CARD 81
#define CP_DEV "mlx5_sim0"
#define CP_IV_OFFSET (sizeof(struct rte_crypto_op) + \
		      sizeof(struct rte_crypto_sym_op))
#define CP_UNIT 512
#define CP_BIG_SEG 32768
#define CP_MAX_OPS 64

static struct rte_mempool *mb_pool;   /* 2 KiB segments. */
static struct rte_mempool *big_pool;  /* 32 KiB segments. */
static struct rte_mempool *op_pool;
static struct rte_mempool *sess_pool;
static uint8_t dev_id;
static void *sessions[16];
static unsigned int nb_sessions;

static size_t
cp_hex(const char *hex, uint8_t *out)
{
	size_t n = strlen(hex) / 2;

	for (size_t i = 0; i < n; i++) {
		char b[3] = { hex[2 * i], hex[2 * i + 1], 0 };

		out[i] = (uint8_t)strtoul(b, NULL, 16);
	}
	return n;
}

static int
cp_suite_setup(void)
{
	mb_pool = rte_pktmbuf_pool_create("cp_mb", 512, 0, 0,
					  RTE_MBUF_DEFAULT_BUF_SIZE, 0);
	big_pool = rte_pktmbuf_pool_create("cp_big", 40, 0, 0,
					   CP_BIG_SEG + RTE_PKTMBUF_HEADROOM,
					   0);
	op_pool = rte_crypto_op_pool_create("cp_ops",
		RTE_CRYPTO_OP_TYPE_SYMMETRIC, 256, 0, 16, 0);
	if (mb_pool == NULL || big_pool == NULL || op_pool == NULL)
		return TEST_FAILED;
	return TEST_SUCCESS;
}

static void
cp_suite_teardown(void)
{
	rte_mempool_free(op_pool);
	rte_mempool_free(big_pool);
	rte_mempool_free(mb_pool);
}

/* Probe card @card with @args (after "card=N,class=crypto"), find it. */
static int
cp_probe_card(unsigned int card, const char *args)
{
	char devargs[512];
	int id;

	snprintf(devargs, sizeof(devargs), "card=%u,class=crypto%s%s",
		 card, args != NULL ? "," : "", args != NULL ? args : "");
	TEST_ASSERT_SUCCESS(sim_probe(CP_DEV, devargs), "probe %s", devargs);
	id = rte_cryptodev_get_dev_id(CP_DEV);
	TEST_ASSERT(id >= 0, "a cryptodev named %s", CP_DEV);
	dev_id = (uint8_t)id;
	sess_pool = rte_cryptodev_sym_session_pool_create("cp_sess", 16,
		rte_cryptodev_sym_get_private_session_size(dev_id), 0, 0, 0);
	TEST_ASSERT_NOT_NULL(sess_pool, "session pool");
	return TEST_SUCCESS;
}

/* Probe the device with @args (after "card=81,class=crypto"), find it. */
static int
cp_probe(const char *args)
{
	return cp_probe_card(CP_CARD, args);
}

/* Configure @nb_qps queue pairs of @nb_desc descriptors and start. */
static int
cp_start(uint16_t nb_qps, uint32_t nb_desc)
{
	struct rte_cryptodev_config conf = {
		.socket_id = SOCKET_ID_ANY,
		.nb_queue_pairs = nb_qps,
	};
	struct rte_cryptodev_qp_conf qp_conf = {
		.nb_descriptors = nb_desc,
		.mp_session = sess_pool,
	};

	TEST_ASSERT_SUCCESS(rte_cryptodev_configure(dev_id, &conf), "");
	for (uint16_t q = 0; q < nb_qps; q++)
		TEST_ASSERT_SUCCESS(rte_cryptodev_queue_pair_setup(dev_id, q,
				    &qp_conf, SOCKET_ID_ANY), "QP %u", q);
	TEST_ASSERT_SUCCESS(rte_cryptodev_start(dev_id), "");
	return TEST_SUCCESS;
}

/*
 * The end of every case: sessions freed, device stopped and removed; the
 * vHCA must hold nothing and have reclaimed nothing at its close (all the
 * PMD made, it destroyed).
 */
static void
cp_sessions_free(void)
{
	for (unsigned int i = 0; i < nb_sessions; i++)
		rte_cryptodev_sym_session_free(dev_id, sessions[i]);
	nb_sessions = 0;
}

static int
cp_finish(void)
{
	cp_sessions_free();
	rte_cryptodev_stop(dev_id);
	TEST_ASSERT_SUCCESS(sim_remove(CP_DEV), "remove");
	rte_mempool_free(sess_pool);
	sess_pool = NULL;
	TEST_ASSERT_EQUAL(sim_live(CP_CARD, 0), 0, "nothing left on the vHCA");
	TEST_ASSERT_EQUAL(sim_reclaimed(CP_CARD, 0), 0,
			  "nothing reclaimed at close: the PMD destroyed all");
	return TEST_SUCCESS;
}

/* The files cp_file() made, removed by the case's teardown. */
static char cp_files[4][64];

static void
cp_case_teardown(void)
{
	for (unsigned int i = 0; i < RTE_DIM(cp_files); i++) {
		if (cp_files[i][0] != '\0')
			unlink(cp_files[i]);
		cp_files[i][0] = '\0';
	}
	if (sim_cdev(CP_DEV) != NULL) {
		for (unsigned int i = 0; i < nb_sessions; i++)
			rte_cryptodev_sym_session_free(dev_id, sessions[i]);
		rte_cryptodev_stop(dev_id);
		sim_remove(CP_DEV);
	}
	nb_sessions = 0;
	rte_mempool_free(sess_pool);
	sess_pool = NULL;
}

/* An AES-XTS session; NULL with rte_errno set. */
static void *
cp_session(const uint8_t *key, uint16_t key_len, bool encrypt,
	   uint32_t dataunit_len, uint16_t iv_len)
{
	struct rte_crypto_sym_xform x = {
		.type = RTE_CRYPTO_SYM_XFORM_CIPHER,
		.cipher = {
			.op = encrypt ? RTE_CRYPTO_CIPHER_OP_ENCRYPT :
					RTE_CRYPTO_CIPHER_OP_DECRYPT,
			.algo = RTE_CRYPTO_CIPHER_AES_XTS,
			.key = { .data = key, .length = key_len },
			.iv = { .offset = CP_IV_OFFSET, .length = iv_len },
			.dataunit_len = dataunit_len,
		},
	};
	void *s;

	if (nb_sessions == RTE_DIM(sessions))
		return NULL;
	s = rte_cryptodev_sym_session_create(dev_id, &x, sess_pool);
	if (s != NULL)
		sessions[nb_sessions++] = s;
	return s;
}

/* A chain holding @len bytes of @data in segments of @seg bytes. */
static struct rte_mbuf *
cp_chain(struct rte_mempool *mp, const uint8_t *data, uint32_t len,
	 uint32_t seg)
{
	struct rte_mbuf *head = NULL, *m;
	uint32_t off = 0;

	do {
		uint32_t n = RTE_MIN(seg, len - off);

		m = rte_pktmbuf_alloc(mp);
		if (m == NULL || rte_pktmbuf_append(m, n) == NULL) {
			rte_pktmbuf_free(m);
			rte_pktmbuf_free(head);
			return NULL;
		}
		if (data != NULL)
			memcpy(rte_pktmbuf_mtod(m, uint8_t *), data + off, n);
		else
			memset(rte_pktmbuf_mtod(m, uint8_t *), 0xee, n);
		if (head == NULL)
			head = m;
		else if (rte_pktmbuf_chain(head, m) != 0) {
			rte_pktmbuf_free(m);
			rte_pktmbuf_free(head);
			return NULL;
		}
		off += n;
	} while (off < len);
	return head;
}

/* An op on @sess over @src (and @dst, NULL: in place), tweak @iv. */
static struct rte_crypto_op *
cp_op(void *sess, struct rte_mbuf *src, struct rte_mbuf *dst,
      const uint8_t *iv, uint32_t len)
{
	struct rte_crypto_op *op =
		rte_crypto_op_alloc(op_pool, RTE_CRYPTO_OP_TYPE_SYMMETRIC);

	if (op == NULL)
		return NULL;
	if (sess != NULL)
		rte_crypto_op_attach_sym_session(op, sess);
	op->sym->m_src = src;
	op->sym->m_dst = dst;
	op->sym->cipher.data.offset = 0;
	op->sym->cipher.data.length = len;
	memcpy(rte_crypto_op_ctod_offset(op, uint8_t *, CP_IV_OFFSET), iv, 16);
	return op;
}

/* Enqueue @n ops on QP @qp and dequeue them all back, in order. */
static int
cp_run(uint16_t qp, struct rte_crypto_op **ops, uint16_t n)
{
	struct rte_crypto_op *out[CP_MAX_OPS];
	uint16_t got = 0;
	unsigned int spins = 0;

	TEST_ASSERT_EQUAL(rte_cryptodev_enqueue_burst(dev_id, qp, ops, n), n,
			  "every op accepted");
	while (got < n && spins++ < 1000000)
		got += rte_cryptodev_dequeue_burst(dev_id, qp, out + got,
						   n - got);
	TEST_ASSERT_EQUAL(got, n, "every op back from dequeue");
	for (uint16_t i = 0; i < n; i++)
		TEST_ASSERT(out[i] == ops[i], "op %u back in order", i);
	return TEST_SUCCESS;
}

/* Queue pair @qp of the device under test (the PMD's own). */
static struct mlx5_crypto_qp *
cp_qp(uint16_t qp)
{
	return rte_cryptodevs[dev_id].data->queue_pairs[qp];
}

/* Nothing in flight on @qp: every crypto mkey back in its free stack? */
static int
cp_keys_back(uint16_t qp)
{
	const struct mlx5_crypto_qp *q = cp_qp(qp);

	TEST_ASSERT_EQUAL(q->pi, q->ci, "nothing in flight");
	TEST_ASSERT_EQUAL(q->mkey_top, q->entries, "every mkey free again");
	return TEST_SUCCESS;
}

/* The @len bytes of chain @m from offset 0 equal @want? */
static bool
cp_equal(const struct rte_mbuf *m, const uint8_t *want, uint32_t len)
{
	uint8_t *buf = malloc(len);
	const uint8_t *p;
	bool eq;

	if (buf == NULL)
		return false;
	p = rte_pktmbuf_read(m, 0, len, buf);
	eq = p != NULL && memcmp(p, want, len) == 0;
	free(buf);
	return eq;
}

/* AES-XTS by OpenSSL, unit by unit, the tweak + 1 (little-endian) each. */
static int
cp_reference(const uint8_t *key, int key_len, const uint8_t *iv,
	     uint32_t unit, const uint8_t *in, uint8_t *out, uint32_t len,
	     bool encrypt)
{
	EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
	uint8_t tweak[16];
	int ok = ctx != NULL;

	memcpy(tweak, iv, 16);
	ok = ok && EVP_CipherInit_ex(ctx, key_len == 64 ? EVP_aes_256_xts() :
				     EVP_aes_128_xts(), NULL, key, NULL,
				     encrypt);
	for (uint32_t off = 0; ok && off < len; off += unit) {
		int n = (int)RTE_MIN(unit, len - off), outl;

		ok = EVP_CipherInit_ex(ctx, NULL, NULL, NULL, tweak, encrypt) &&
		     EVP_CipherUpdate(ctx, out + off, &outl, in + off, n) &&
		     outl == n;
		for (int i = 0; i < 16 && ++tweak[i] == 0; i++)
			;
	}
	EVP_CIPHER_CTX_free(ctx);
	return ok ? 0 : -1;
}

static int
test_probe(void)
{
	struct rte_cryptodev_info info;
	const char *log;

	TEST_ASSERT_EQUAL(cp_probe(NULL), TEST_SUCCESS, "");
	rte_cryptodev_info_get(dev_id, &info);
	TEST_ASSERT(strcmp(rte_cryptodev_driver_name_get(info.driver_id),
			   "crypto_mlx5") == 0, "cryptodev driver %s",
		    rte_cryptodev_driver_name_get(info.driver_id));
	TEST_ASSERT(rte_cryptodev_driver_id_get("crypto_mlx5") ==
		    info.driver_id, "found by its driver name");
	TEST_ASSERT_EQUAL(info.max_nb_queue_pairs, 2, "small QP count");
	TEST_ASSERT((info.feature_flags & RTE_CRYPTODEV_FF_IN_PLACE_SGL) &&
		    (info.feature_flags & RTE_CRYPTODEV_FF_OOP_SGL_IN_SGL_OUT) &&
		    (info.feature_flags & RTE_CRYPTODEV_FF_OOP_LB_IN_LB_OUT) &&
		    (info.feature_flags &
		     RTE_CRYPTODEV_FF_CIPHER_MULTIPLE_DATA_UNITS),
		    "SGL, OOP and data units claimed");
	TEST_ASSERT(!(info.feature_flags &
		      RTE_CRYPTODEV_FF_CIPHER_WRAPPED_KEY) &&
		    !(info.feature_flags & RTE_CRYPTODEV_FF_SECURITY) &&
		    !(info.feature_flags & RTE_CRYPTODEV_FF_SYM_RAW_DP),
		    "nothing claimed that does not work");
	TEST_ASSERT(info.capabilities[0].sym.cipher.algo ==
		    RTE_CRYPTO_CIPHER_AES_XTS &&
		    info.capabilities[1].op == RTE_CRYPTO_OP_TYPE_UNDEFINED,
		    "AES-XTS only");
	TEST_ASSERT_EQUAL(cp_finish(), TEST_SUCCESS, "");
	TEST_ASSERT_EQUAL(cp_probe("max_qps=5,qp_mkeys=3,max_segs=12"),
			  TEST_SUCCESS, "");
	rte_cryptodev_info_get(dev_id, &info);
	TEST_ASSERT_EQUAL(info.max_nb_queue_pairs, 5, "max_qps=5");
	TEST_ASSERT_EQUAL(cp_finish(), TEST_SUCCESS, "");
	/* Refused, naming what was wrong, leaving nothing. */
	mlx5_test_log_capture_start();
	TEST_ASSERT_EQUAL(sim_probe(CP_DEV, "card=81,class=crypto,crypto_bogus=1"),
			  -EINVAL, "unknown devarg");
	log = mlx5_test_log_capture_stop();
	TEST_ASSERT(strstr(log, "crypto_bogus") != NULL, "the key is named");
	TEST_ASSERT_EQUAL(sim_probe(CP_DEV, "card=81,class=crypto,max_segs=0"),
			  -EINVAL, "max_segs=0");
	TEST_ASSERT_EQUAL(sim_probe(CP_DEV, "card=81,class=crypto,max_qps=65"),
			  -EINVAL, "max_qps=65");
	mlx5_test_log_capture_start();
	TEST_ASSERT_EQUAL(sim_probe(CP_DEV,
		"card=81,class=crypto,qp_mkeys=4096,max_segs=48"), -EINVAL,
		"a pool the send queue cannot hold");
	log = mlx5_test_log_capture_stop();
	TEST_ASSERT(strstr(log, "qp_mkeys") != NULL, "the devarg is named");
	/* Capabilities are fixed per vHCA: another card for this one. */
	TEST_ASSERT_EQUAL(sim_probe(CP_DEV, "card=82,class=crypto,crypto=0"),
			  -ENOTSUP, "a device without crypto");
	TEST_ASSERT_EQUAL(sim_live(CP_CARD + 1, 0), 0, "nothing left");
	TEST_ASSERT_EQUAL(sim_live(CP_CARD, 0), 0, "nothing left");
	TEST_ASSERT_EQUAL(sim_reclaimed(CP_CARD, 0), 0, "nothing reclaimed");
	return TEST_SUCCESS;
}

/* One IEEE vector: encrypt @ptx to @ctx_hex and back, as asked. */
struct cp_vec {
	const char *key, *tweak, *ctx;
	uint32_t len, dataunit_len;
	const char *ptx;           /* NULL: the 0..255 pattern. */
};

static int
cp_vector(const struct cp_vec *v, bool oop, uint32_t seg_in, uint32_t seg_out)
{
	static uint8_t ptx[1024], ctx[1024], key[96], iv[16];
	struct rte_crypto_op *op;
	struct rte_mbuf *src, *dst = NULL;
	uint16_t key_len = (uint16_t)cp_hex(v->key, key);
	void *enc, *dec;

	memset(iv, 0, sizeof(iv));
	if (v->tweak != NULL)
		cp_hex(v->tweak, iv);
	if (v->ptx != NULL) {
		cp_hex(v->ptx, ptx);
	} else {
		for (uint32_t i = 0; i < v->len; i++)
			ptx[i] = (uint8_t)i;
		/* Vector 5's plaintext is C4: units 0, 1 are vectors 4, 5. */
		if (v->len == 2 * CP_UNIT)
			cp_hex(V4_CTX, ptx + CP_UNIT);
	}
	cp_hex(v->ctx, ctx);
	enc = cp_session(key, key_len, true, v->dataunit_len, 16);
	dec = cp_session(key, key_len, false, v->dataunit_len, 16);
	TEST_ASSERT(enc != NULL && dec != NULL, "sessions");
	for (int dir = 0; dir < 2; dir++) {
		const uint8_t *in = dir == 0 ? ptx : ctx;
		const uint8_t *want = dir == 0 ? ctx : ptx;

		src = cp_chain(mb_pool, in, v->len, seg_in);
		if (oop)
			dst = cp_chain(mb_pool, NULL, v->len, seg_out);
		TEST_ASSERT(src != NULL && (!oop || dst != NULL), "mbufs");
		op = cp_op(dir == 0 ? enc : dec, src, dst, iv, v->len);
		TEST_ASSERT_NOT_NULL(op, "op");
		TEST_ASSERT_EQUAL(cp_run(0, &op, 1), TEST_SUCCESS, "");
		TEST_ASSERT_EQUAL(op->status, RTE_CRYPTO_OP_STATUS_SUCCESS,
				  "%s", dir == 0 ? "encrypt" : "decrypt");
		TEST_ASSERT(cp_equal(oop ? dst : src, want, v->len),
			    "%s of %u bytes (unit %u, segments %u/%u, %s)",
			    dir == 0 ? "ciphertext" : "plaintext", v->len,
			    v->dataunit_len, seg_in, seg_out,
			    oop ? "out of place" : "in place");
		if (oop)
			TEST_ASSERT(cp_equal(src, in, v->len),
				    "the source left as it was");
		rte_pktmbuf_free(src);
		rte_pktmbuf_free(dst);
		dst = NULL;
		rte_crypto_op_free(op);
	}
	cp_sessions_free();
	return TEST_SUCCESS;
}

static const struct cp_vec cp_vectors[] = {
	/* Vector 1: a key pair of equal halves (zeros), 32 zero bytes. */
	{ V1_KEY, NULL, V1_CTX, 32, 0, V1_KEY },
	/* Vector 2: 32 bytes, the whole operation one data unit. */
	{ V2_KEY, V2_TWEAK, V2_CTX, 32, 0, V2_PTX },
	/* Vector 4: one 512-byte unit, as 512-byte units and as a whole. */
	{ V4_KEY, NULL, V4_CTX, CP_UNIT, CP_UNIT, NULL },
	{ V4_KEY, NULL, V4_CTX, CP_UNIT, 0, NULL },
	{ V4_KEY, NULL, V4_CTX, CP_UNIT, 4096, NULL },
	{ V4_KEY, NULL, V4_CTX, CP_UNIT, 1u << 20, NULL },
	/* Vectors 4 and 5: two units of one operation, tweak 0 then 1. */
	{ V4_KEY, NULL, V4_CTX V5_CTX, 2 * CP_UNIT, CP_UNIT, NULL },
	/* Vector 10: XTS-AES-256. */
	{ V10_KEY, V10_TWEAK, V10_CTX, CP_UNIT, CP_UNIT, NULL },
	{ V10_KEY, V10_TWEAK, V10_CTX, CP_UNIT, 0, NULL },
};

static int
cp_vectors_run(bool oop, uint32_t seg_in, uint32_t seg_out)
{
	TEST_ASSERT_EQUAL(cp_probe(NULL), TEST_SUCCESS, "");
	TEST_ASSERT_EQUAL(cp_start(1, 64), TEST_SUCCESS, "");
	for (unsigned int i = 0; i < RTE_DIM(cp_vectors); i++)
		TEST_ASSERT_EQUAL(cp_vector(&cp_vectors[i], oop, seg_in,
					    seg_out), TEST_SUCCESS,
				  "vector entry %u", i);
	return cp_finish();
}

static int
test_vectors_in_place(void)
{
	return cp_vectors_run(false, 2048, 2048);
}

static int
test_vectors_oop(void)
{
	return cp_vectors_run(true, 2048, 2048);
}

static int
test_vectors_multi_seg(void)
{
	/*
	 * In place over up to 5 segments, and each out-of-place SGL shape,
	 * in segments not of whole blocks (at most 8: max_segs).
	 */
	TEST_ASSERT_EQUAL(cp_vectors_run(false, 208, 208), TEST_SUCCESS,
			  "in-place SGL");
	TEST_ASSERT_EQUAL(cp_vectors_run(true, 130, 300), TEST_SUCCESS,
			  "SGL in, SGL out");
	TEST_ASSERT_EQUAL(cp_vectors_run(true, 176, 2048), TEST_SUCCESS,
			  "SGL in, LB out");
	return cp_vectors_run(true, 2048, 150);
}

/* @len bytes through @unit-byte data units, against OpenSSL. */
static int
cp_units(struct rte_mempool *mp, uint32_t len, uint32_t unit, uint32_t seg)
{
	static uint8_t key[64], iv[16];
	uint8_t *ptx = malloc(len), *ctx = malloc(len);
	struct rte_crypto_op *op;
	struct rte_mbuf *m;
	void *sess;

	TEST_ASSERT(ptx != NULL && ctx != NULL, "");
	for (uint32_t i = 0; i < 64; i++)
		key[i] = (uint8_t)(i * 7 + 1);
	for (uint32_t i = 0; i < 16; i++)
		iv[i] = (uint8_t)(0xf0 + i);
	for (uint32_t i = 0; i < len; i++)
		ptx[i] = (uint8_t)(i * 31 + (i >> 8));
	TEST_ASSERT_SUCCESS(cp_reference(key, 64, iv, unit ? unit : len, ptx,
					 ctx, len, true), "OpenSSL");
	sess = cp_session(key, 64, true, unit, 16);
	TEST_ASSERT_NOT_NULL(sess, "session, unit %u", unit);
	m = cp_chain(mp, ptx, len, seg);
	TEST_ASSERT_NOT_NULL(m, "");
	op = cp_op(sess, m, NULL, iv, len);
	TEST_ASSERT_NOT_NULL(op, "");
	TEST_ASSERT_EQUAL(cp_run(0, &op, 1), TEST_SUCCESS, "");
	TEST_ASSERT_EQUAL(op->status, RTE_CRYPTO_OP_STATUS_SUCCESS,
			  "%u bytes, unit %u", len, unit);
	TEST_ASSERT(cp_equal(m, ctx, len), "%u bytes in units of %u", len,
		    unit);
	rte_pktmbuf_free(m);
	rte_crypto_op_free(op);
	free(ptx);
	free(ctx);
	return TEST_SUCCESS;
}

static int
test_data_units(void)
{
	TEST_ASSERT_EQUAL(cp_probe("max_segs=32,qp_mkeys=8"), TEST_SUCCESS,
			  "");
	TEST_ASSERT_EQUAL(cp_start(1, 8), TEST_SUCCESS, "");
	/* 4 KiB: eight units of 512, one of 4 KiB, the whole, a 1 MiB one. */
	TEST_ASSERT_EQUAL(cp_units(mb_pool, 4096, 512, 1024), TEST_SUCCESS, "");
	TEST_ASSERT_EQUAL(cp_units(mb_pool, 4096, 4096, 1024), TEST_SUCCESS, "");
	TEST_ASSERT_EQUAL(cp_units(mb_pool, 4096, 0, 1024), TEST_SUCCESS, "");
	TEST_ASSERT_EQUAL(cp_units(mb_pool, 4096, 1u << 20, 1024), TEST_SUCCESS,
			  "");
	/* A partial last unit of whole blocks: 4096 + 48 in 4 KiB units. */
	TEST_ASSERT_EQUAL(cp_units(mb_pool, 4096 + 48, 4096, 2048),
			  TEST_SUCCESS, "");
	/* 1 MiB over 32 segments: one 1 MiB unit, and the whole as one. */
	TEST_ASSERT_EQUAL(cp_units(big_pool, 1u << 20, 1u << 20, CP_BIG_SEG),
			  TEST_SUCCESS, "");
	TEST_ASSERT_EQUAL(cp_units(big_pool, 1u << 20, 0, CP_BIG_SEG),
			  TEST_SUCCESS, "");
	TEST_ASSERT_EQUAL(cp_units(big_pool, 1u << 20, 4096, CP_BIG_SEG),
			  TEST_SUCCESS, "");
	return cp_finish();
}

/* Sessions that cannot be: NULL, rte_errno as given. */
static int
cp_bad_session(const uint8_t *key, uint16_t key_len, uint32_t unit,
	       uint16_t iv_len, int err, const char *what)
{
	rte_errno = 0;
	TEST_ASSERT(cp_session(key, key_len, true, unit, iv_len) == NULL,
		    "%s refused", what);
	TEST_ASSERT_EQUAL(rte_errno, err, "%s", what);
	return TEST_SUCCESS;
}

static int
test_bad_inputs(void)
{
	static uint8_t key[64] = { 1, 2, 3 }, iv[16];
	struct rte_crypto_op *ops[6];
	struct rte_mbuf *m[6];
	struct rte_cryptodev_stats st;
	struct mlx5_sim_stats vs0, vs;
	void *sess;

	TEST_ASSERT_EQUAL(cp_probe("max_segs=4"), TEST_SUCCESS, "");
	TEST_ASSERT_EQUAL(cp_start(1, 16), TEST_SUCCESS, "");
	TEST_ASSERT_SUCCESS(mlx5_sim_vhca_stats(CP_CARD, 0, &vs0), "");
	TEST_ASSERT_EQUAL(cp_bad_session(key, 48, 0, 16, EINVAL,
					 "a 48-byte key"), TEST_SUCCESS, "");
	TEST_ASSERT_EQUAL(cp_bad_session(key, 16, 0, 16, EINVAL,
					 "a 16-byte key"), TEST_SUCCESS, "");
	TEST_ASSERT_EQUAL(cp_bad_session(key, 64, 1024, 16, ENOTSUP,
					 "a 1024-byte data unit"), TEST_SUCCESS,
			  "");
	TEST_ASSERT_EQUAL(cp_bad_session(key, 64, 0, 12, EINVAL,
					 "a 12-byte IV"), TEST_SUCCESS, "");
	TEST_ASSERT_SUCCESS(mlx5_sim_vhca_stats(CP_CARD, 0, &vs), "");
	TEST_ASSERT_EQUAL(vs.live_objects, vs0.live_objects,
			  "no DEK left by a refused session");
	sess = cp_session(key, 64, true, 0, 16);
	TEST_ASSERT_NOT_NULL(sess, "");
	/*
	 * One burst: good, no session, too many segments, a length not of
	 * whole blocks, beyond the chain, good. Each comes back in order.
	 */
	for (int i = 0; i < 6; i++) {
		m[i] = cp_chain(mb_pool, NULL, 512, i == 2 ? 64 : 512);
		TEST_ASSERT_NOT_NULL(m[i], "");
		ops[i] = cp_op(i == 1 ? NULL : sess, m[i], NULL, iv, 512);
		TEST_ASSERT_NOT_NULL(ops[i], "");
	}
	ops[3]->sym->cipher.data.length = 500;
	ops[4]->sym->cipher.data.offset = 16;
	TEST_ASSERT_EQUAL(cp_run(0, ops, 6), TEST_SUCCESS, "");
	TEST_ASSERT_EQUAL(ops[0]->status, RTE_CRYPTO_OP_STATUS_SUCCESS, "");
	TEST_ASSERT_EQUAL(ops[1]->status, RTE_CRYPTO_OP_STATUS_INVALID_SESSION,
			  "no session");
	TEST_ASSERT_EQUAL(ops[2]->status, RTE_CRYPTO_OP_STATUS_INVALID_ARGS,
			  "8 segments, max_segs=4");
	TEST_ASSERT_EQUAL(ops[3]->status, RTE_CRYPTO_OP_STATUS_INVALID_ARGS,
			  "500 bytes");
	TEST_ASSERT_EQUAL(ops[4]->status, RTE_CRYPTO_OP_STATUS_INVALID_ARGS,
			  "past the end of the chain");
	TEST_ASSERT_EQUAL(ops[5]->status, RTE_CRYPTO_OP_STATUS_SUCCESS, "");
	TEST_ASSERT_SUCCESS(rte_cryptodev_stats_get(dev_id, &st), "");
	TEST_ASSERT_EQUAL(st.enqueued_count, 6, "");
	TEST_ASSERT_EQUAL(st.dequeued_count, 6, "");
	TEST_ASSERT_EQUAL(st.dequeue_err_count, 4, "");
	TEST_ASSERT_EQUAL(cp_keys_back(0), TEST_SUCCESS, "refused ops");
	/* A burst of refused ops only: no completion comes for them. */
	ops[1]->status = RTE_CRYPTO_OP_STATUS_NOT_PROCESSED;
	TEST_ASSERT_EQUAL(cp_run(0, &ops[1], 1), TEST_SUCCESS, "");
	TEST_ASSERT_EQUAL(ops[1]->status, RTE_CRYPTO_OP_STATUS_INVALID_SESSION,
			  "no session, alone");
	TEST_ASSERT_EQUAL(cp_keys_back(0), TEST_SUCCESS, "a refused op alone");
	for (int i = 0; i < 6; i++) {
		rte_pktmbuf_free(m[i]);
		rte_crypto_op_free(ops[i]);
	}
	return cp_finish();
}

/*
 * The set-up of the error-completion cases: the device with one queue
 * pair of 8, IEEE 1619 vector 4's plaintext and ciphertext in @ptx and
 * @ctx (CP_UNIT bytes), a session of vector 4's key in *@good and one in
 * *@bad whose operations name a key tag its DEK does not have (the
 * session's UMR WQE altered): the UMR is taken, the WRITE through the key
 * fails (the device checks the tag where the key is used); vector 4's key
 * in @key4.
 */
static int
cp_error_setup(uint8_t *key4, uint8_t *ptx, uint8_t *ctx, void **bad,
	       void **good)
{
	struct mlx5_crypto_session *sess;
	uint8_t *bsf;

	TEST_ASSERT_EQUAL(cp_probe(NULL), TEST_SUCCESS, "");
	TEST_ASSERT_EQUAL(cp_start(1, 8), TEST_SUCCESS, "");
	cp_hex(V4_KEY, key4);
	cp_hex(V4_CTX, ctx);
	for (int i = 0; i < CP_UNIT; i++)
		ptx[i] = (uint8_t)i;
	*bad = cp_session(key4, 32, true, CP_UNIT, 16);
	*good = cp_session(key4, 32, true, CP_UNIT, 16);
	TEST_ASSERT(*bad != NULL && *good != NULL, "sessions");
	/*
	 * The template serves one-segment operations (those of these cases);
	 * an operation of several segments has its BSF built anew, with the
	 * devarg's tag.
	 */
	sess = CRYPTODEV_GET_SYM_SESS_PRIV(
		(struct rte_cryptodev_sym_session *)*bad);
	bsf = sess->umr_tmpl + MLX5_UMR_CRYPTO_WQE_SIZE -
	      16 * MLX5_CRYPTO_BSF_OCTOWORDS;
	TEST_ASSERT_EQUAL(MLX5_GET64(crypto_bsf, bsf, keytag), 0,
			  "the key tag (devarg keytag, 0 by default)");
	MLX5_SET64(crypto_bsf, bsf, keytag, 1);
	return TEST_SUCCESS;
}

/*
 * Error completions: a key tag the DEK does not have fails the RDMA WRITE
 * through the mkey; a DEK the device does not know fails the UMR, leaving
 * the mkey unconfigured. Each fails its
 * own operation with ERROR; the queue pair recovers and the operations
 * after it in the same burst succeed.
 */
static int
test_error_completion(void)
{
	static uint8_t key4[32], iv[16], ptx[CP_UNIT], ctx[CP_UNIT];
	struct rte_crypto_op *ops[5];
	struct rte_mbuf *m[5];
	struct rte_cryptodev_stats st;
	struct mlx5_crypto_session *lost_priv;
	void *bad, *good, *lost, *lost_bsf;
	uint32_t lost_dek;

	TEST_ASSERT_EQUAL(cp_error_setup(key4, ptx, ctx, &bad, &good),
			  TEST_SUCCESS, "");
	lost = cp_session(key4, 32, true, CP_UNIT, 16);
	TEST_ASSERT_NOT_NULL(lost, "session");
	/*
	 * The PMD's session data: a DEK number the device does not have, in
	 * the session's UMR WQE (the BSF ends it), which every op copies.
	 */
	lost_priv = CRYPTODEV_GET_SYM_SESS_PRIV(
		(struct rte_cryptodev_sym_session *)lost);
	lost_bsf = lost_priv->umr_tmpl + MLX5_UMR_CRYPTO_WQE_SIZE -
		   16 * MLX5_CRYPTO_BSF_OCTOWORDS;
	lost_dek = MLX5_GET(crypto_bsf, lost_bsf, dek_pointer);
	TEST_ASSERT_EQUAL(lost_dek, lost_priv->dek_id, "the template's DEK");
	MLX5_SET(crypto_bsf, lost_bsf, dek_pointer, lost_dek ^ 0x800000);
	for (int round = 0; round < 2; round++) {
		for (int i = 0; i < 5; i++) {
			m[i] = cp_chain(mb_pool, ptx, CP_UNIT, 2048);
			ops[i] = cp_op(i == 1 ? bad : good, m[i], NULL, iv,
				       CP_UNIT);
			TEST_ASSERT(m[i] != NULL && ops[i] != NULL, "");
		}
		if (round == 1) {
			ops[1]->sym->session = good;
			ops[3]->sym->session = lost;
		}
		TEST_ASSERT_EQUAL(cp_run(0, ops, 5), TEST_SUCCESS, "");
		for (int i = 0; i < 5; i++) {
			bool fails = round == 0 ? i == 1 : i == 3;

			TEST_ASSERT_EQUAL(ops[i]->status, fails ?
				RTE_CRYPTO_OP_STATUS_ERROR :
				RTE_CRYPTO_OP_STATUS_SUCCESS, "round %d op %d",
				round, i);
			if (!fails)
				TEST_ASSERT(cp_equal(m[i], ctx, CP_UNIT),
					    "vector 4 after the error");
			rte_pktmbuf_free(m[i]);
			rte_crypto_op_free(ops[i]);
		}
		TEST_ASSERT_EQUAL(cp_keys_back(0), TEST_SUCCESS,
				  "after the error of round %d", round);
	}
	MLX5_SET(crypto_bsf, lost_bsf, dek_pointer, lost_dek);
	TEST_ASSERT_SUCCESS(rte_cryptodev_stats_get(dev_id, &st), "");
	TEST_ASSERT_EQUAL(st.dequeue_err_count, 2, "two error completions");
	return cp_finish();
}

/* The crypto mkey of QP 0's operation @k (a count since the start). */
static uint32_t
cp_key_of(uint32_t k)
{
	const struct mlx5_crypto_qp *qp = cp_qp(0);

	return qp->slots[k & (qp->entries - 1)].mkey;
}

/* The operations in flight on QP 0 hold distinct mkeys? */
static int
cp_keys_distinct(void)
{
	const struct mlx5_crypto_qp *qp = cp_qp(0);

	for (uint32_t a = qp->ci; a != qp->pi; a++)
		for (uint32_t b = qp->ci; b != a; b++)
			TEST_ASSERT(cp_key_of(a) != cp_key_of(b),
				    "ops %u and %u in flight share mkey 0x%x",
				    b, a, cp_key_of(a));
	return TEST_SUCCESS;
}

/* Exactly @n ops back from QP 0: @ops[0..n-1], successful. */
static int
cp_deq_n(struct rte_crypto_op **ops, uint16_t n)
{
	struct rte_crypto_op *out[8];
	uint16_t got = 0;

	for (unsigned int spins = 0; got < n && spins < 1000000; spins++)
		got += rte_cryptodev_dequeue_burst(dev_id, 0, out + got,
						   n - got);
	TEST_ASSERT_EQUAL(got, n, "");
	for (uint16_t i = 0; i < n; i++) {
		TEST_ASSERT(out[i] == ops[i], "op %u back in order", i);
		TEST_ASSERT_EQUAL(ops[i]->status, RTE_CRYPTO_OP_STATUS_SUCCESS,
				  "");
	}
	return TEST_SUCCESS;
}

/*
 * Ops enqueued and dequeued out of step: 4 in, 1 back, 1 in, 2 back, 1
 * in, the rest back. Each op enqueued takes the key freed last; the keys
 * in flight stay distinct throughout.
 */
static int
cp_keys_out_of_step(void *sess)
{
	static uint8_t iv[16];
	static const uint16_t in[] = { 4, 1, 1 }, back[] = { 1, 2, 3 };
	const struct mlx5_crypto_qp *qp = cp_qp(0);
	struct rte_crypto_op *ops[6];
	struct rte_mbuf *m[6];
	uint16_t next_in = 0, next_back = 0;
	uint32_t freed = 0;

	for (int i = 0; i < 6; i++) {
		m[i] = cp_chain(mb_pool, NULL, CP_UNIT, 2048);
		ops[i] = cp_op(sess, m[i], NULL, iv, CP_UNIT);
		TEST_ASSERT(m[i] != NULL && ops[i] != NULL, "");
	}
	for (int step = 0; step < 3; step++) {
		TEST_ASSERT_EQUAL(rte_cryptodev_enqueue_burst(dev_id, 0,
				  ops + next_in, in[step]), in[step], "");
		next_in += in[step];
		if (step > 0)
			TEST_ASSERT_EQUAL(cp_key_of(qp->pi - 1), freed,
					  "step %d: the key freed last", step);
		TEST_ASSERT_EQUAL(cp_keys_distinct(), TEST_SUCCESS,
				  "step %d", step);
		freed = cp_key_of(qp->ci + back[step] - 1);
		TEST_ASSERT_EQUAL(cp_deq_n(ops + next_back, back[step]),
				  TEST_SUCCESS, "step %d", step);
		next_back += back[step];
	}
	for (int i = 0; i < 6; i++) {
		rte_pktmbuf_free(m[i]);
		rte_crypto_op_free(ops[i]);
	}
	return cp_keys_back(0);
}

/*
 * The pool's crypto mkeys are taken from a stack, the last freed first:
 * the operations in flight hold distinct keys, and a queue pair that runs
 * bursts of n operations uses the same n keys over and over (the keys'
 * contexts stay in the device's cache), not every key of the pool in
 * turn.
 */
static int
test_mkey_hot_set(void)
{
	static uint8_t key[64] = { 1 }, iv[16];
	struct rte_crypto_op *ops[8];
	struct rte_mbuf *m[8];
	uint32_t used[8 + 1], nb_used = 0;
	struct mlx5_crypto_qp *qp;
	void *sess;

	TEST_ASSERT_EQUAL(cp_probe(NULL), TEST_SUCCESS, "");
	TEST_ASSERT_EQUAL(cp_start(1, 4096), TEST_SUCCESS, "");
	qp = cp_qp(0);
	TEST_ASSERT_EQUAL(qp->entries, MLX5_CRYPTO_QP_MKEYS_DEFAULT, "");
	sess = cp_session(key, 64, true, 0, 16);
	TEST_ASSERT_NOT_NULL(sess, "");
	/* Bursts of 1, then of 8, 40 of each: 1 key, then 8 keys. */
	for (unsigned int burst = 1; burst <= 8; burst += 7) {
		nb_used = 0;
		for (unsigned int round = 0; round < 40; round++) {
			for (unsigned int i = 0; i < burst; i++) {
				m[i] = cp_chain(mb_pool, NULL, CP_UNIT, 2048);
				TEST_ASSERT_NOT_NULL(m[i], "");
				ops[i] = cp_op(sess, m[i], NULL, iv, CP_UNIT);
				TEST_ASSERT_NOT_NULL(ops[i], "");
			}
			TEST_ASSERT_EQUAL(rte_cryptodev_enqueue_burst(dev_id,
				0, ops, (uint16_t)burst), burst, "");
			/* The keys of the operations in flight. */
			for (unsigned int i = 0; i < burst; i++) {
				uint32_t k = qp->slots[(qp->ci + i) &
						       (qp->entries - 1)].mkey;
				unsigned int j;

				for (j = 0; j < i; j++)
					TEST_ASSERT(qp->slots[(qp->ci + j) &
						(qp->entries - 1)].mkey != k,
						"ops %u and %u in flight share mkey 0x%x",
						j, i, k);
				for (j = 0; j < nb_used && used[j] != k; j++)
					;
				TEST_ASSERT(j < RTE_DIM(used),
					    "burst %u round %u: a key beyond the first %u",
					    burst, round, burst);
				if (j == nb_used)
					used[nb_used++] = k;
			}
			for (unsigned int got = 0, spins = 0;
			     got < burst && spins < 1000000; spins++)
				got += rte_cryptodev_dequeue_burst(dev_id, 0,
					ops + got, (uint16_t)(burst - got));
			for (unsigned int i = 0; i < burst; i++) {
				TEST_ASSERT_EQUAL(ops[i]->status,
						  RTE_CRYPTO_OP_STATUS_SUCCESS,
						  "");
				rte_pktmbuf_free(m[i]);
				rte_crypto_op_free(ops[i]);
			}
			TEST_ASSERT_EQUAL(cp_keys_back(0), TEST_SUCCESS, "");
		}
		TEST_ASSERT_EQUAL(nb_used, burst,
				  "bursts of %u: %u keys used, want %u",
				  burst, nb_used, burst);
	}
	TEST_ASSERT_EQUAL(cp_keys_out_of_step(sess), TEST_SUCCESS, "");
	return cp_finish();
}

/*
 * An error completion whose recovery fails (the device refuses the QP's
 * move to RST, once): the failed operation and every one posted after it
 * come back with ERROR and give their mkeys back; one refused at enqueue
 * among them keeps its own status. The queue pair is not
 * lost: the next error completion (the device flushes what is posted to
 * a QP left in ERR) recovers it, and every operation comes back; after
 * that, operations succeed with the right ciphertext.
 */
static int
test_recover_fails(void)
{
	static uint8_t key4[32], iv[16], ptx[CP_UNIT], ctx[CP_UNIT];
	struct rte_crypto_op *ops[4];
	struct rte_mbuf *m[4];
	void *bad, *good;

	TEST_ASSERT_EQUAL(cp_error_setup(key4, ptx, ctx, &bad, &good),
			  TEST_SUCCESS, "");
	for (int round = 0; round < 3; round++) {
		for (int i = 0; i < 4; i++) {
			m[i] = cp_chain(mb_pool, ptx, CP_UNIT, 2048);
			ops[i] = cp_op(round > 0 ? good : i == 1 ? bad :
				       i == 2 ? NULL : good, m[i], NULL, iv,
				       CP_UNIT);
			TEST_ASSERT(m[i] != NULL && ops[i] != NULL, "");
		}
		if (round == 0)
			TEST_ASSERT_SUCCESS(mlx5_sim_fault_set(CP_CARD, 0,
				MLX5_CMD_OP_2RST_QP, 1, MLX5_CMD_STAT_LIM_ERR),
				"");
		TEST_ASSERT_EQUAL(cp_run(0, ops, 4), TEST_SUCCESS, "");
		for (int i = 0; i < 4; i++) {
			uint8_t st = ops[i]->status;

			if (round == 0)
				TEST_ASSERT_EQUAL(st, i == 0 ?
					RTE_CRYPTO_OP_STATUS_SUCCESS : i == 2 ?
					RTE_CRYPTO_OP_STATUS_INVALID_SESSION :
					RTE_CRYPTO_OP_STATUS_ERROR,
					"round 0 op %d", i);
			else if (round == 1)
				TEST_ASSERT(st == RTE_CRYPTO_OP_STATUS_SUCCESS ||
					    st == RTE_CRYPTO_OP_STATUS_ERROR,
					    "round 1 op %d: status %u", i, st);
			else
				TEST_ASSERT_EQUAL(st,
					RTE_CRYPTO_OP_STATUS_SUCCESS,
					"round 2 op %d", i);
			if (st == RTE_CRYPTO_OP_STATUS_SUCCESS)
				TEST_ASSERT(cp_equal(m[i], ctx, CP_UNIT),
					    "round %d op %d: vector 4", round,
					    i);
			rte_pktmbuf_free(m[i]);
			rte_crypto_op_free(ops[i]);
		}
		TEST_ASSERT_EQUAL(cp_keys_back(0), TEST_SUCCESS,
				  "after round %d", round);
	}
	TEST_ASSERT_SUCCESS(mlx5_sim_fault_clear(CP_CARD, 0), "");
	return cp_finish();
}

static int
test_qp_reuse(void)
{
	struct rte_cryptodev_qp_conf qp_conf = { .nb_descriptors = 4096 };
	struct mlx5_sim_stats a, b;

	TEST_ASSERT_EQUAL(cp_probe("qp_mkeys=32"), TEST_SUCCESS, "");
	qp_conf.mp_session = sess_pool;
	TEST_ASSERT_EQUAL(cp_start(2, 4096), TEST_SUCCESS, "");
	TEST_ASSERT_SUCCESS(mlx5_sim_vhca_stats(CP_CARD, 0, &a), "");
	TEST_ASSERT_EQUAL(a.mkeys, 2 * 32, "a pool of qp_mkeys per QP");
	rte_cryptodev_stop(dev_id);
	/* As the stock test does before each case: nothing changes. */
	TEST_ASSERT_EQUAL(cp_start(2, 4096), TEST_SUCCESS, "");
	TEST_ASSERT_SUCCESS(mlx5_sim_vhca_stats(CP_CARD, 0, &b), "");
	TEST_ASSERT_EQUAL(b.commands, a.commands, "QPs reused: no command");
	rte_cryptodev_stop(dev_id);
	/* Fewer descriptors than the pool: a smaller QP. */
	qp_conf.nb_descriptors = 8;
	TEST_ASSERT_SUCCESS(rte_cryptodev_queue_pair_setup(dev_id, 1, &qp_conf,
							   SOCKET_ID_ANY), "");
	TEST_ASSERT_SUCCESS(mlx5_sim_vhca_stats(CP_CARD, 0, &b), "");
	TEST_ASSERT_EQUAL(b.mkeys, 32 + 8, "QP 1 rebuilt with 8 mkeys");
	/* One QP fewer: its objects go. */
	TEST_ASSERT_EQUAL(cp_start(1, 4096), TEST_SUCCESS, "");
	TEST_ASSERT_SUCCESS(mlx5_sim_vhca_stats(CP_CARD, 0, &b), "");
	TEST_ASSERT_EQUAL(b.mkeys, 32, "QP 1 released");
	return cp_finish();
}

static int
test_remove_live(void)
{
	static uint8_t key[32] = { 9 };
	void *sess;

	/* Removed while started, with a session and queue pairs live. */
	TEST_ASSERT_EQUAL(cp_probe(NULL), TEST_SUCCESS, "");
	TEST_ASSERT_EQUAL(cp_start(2, 128), TEST_SUCCESS, "");
	sess = cp_session(key, 32, true, 0, 16);
	TEST_ASSERT_NOT_NULL(sess, "");
	nb_sessions = 0; /* Freed after the removal, not before. */
	TEST_ASSERT_SUCCESS(sim_remove(CP_DEV), "remove");
	TEST_ASSERT_EQUAL(sim_live(CP_CARD, 0), 0, "nothing left");
	TEST_ASSERT_EQUAL(sim_reclaimed(CP_CARD, 0), 0, "nothing reclaimed");
	/* Stopped and closed though a session was live: the name is free. */
	TEST_ASSERT(rte_cryptodev_get_dev_id(CP_DEV) < 0, "cryptodev released");
	rte_mempool_put(rte_mempool_from_obj(sess), sess);
	rte_mempool_free(sess_pool);
	sess_pool = NULL;
	return TEST_SUCCESS;
}

/* Op @i of a burst came back with @status (and @want in @m, if given). */
static int
cp_check_op(const struct rte_crypto_op *op, uint8_t status,
	    const struct rte_mbuf *m, const uint8_t *want, const char *what)
{
	TEST_ASSERT_EQUAL(op->status, status, "%s", what);
	if (want != NULL)
		TEST_ASSERT(cp_equal(m, want, op->sym->cipher.data.length),
			    "%s: the ciphertext", what);
	return TEST_SUCCESS;
}

/*
 * The edges of what the datapath decides in one compare (mlx5_crypto_op_post(), the
 * session's fast_blocks): an op of the session's largest length and one
 * block more, a session whose DEK is gone, a device that takes the tweak
 * big-endian. Each op comes back as the general way decides it.
 */
static int
test_fast_path_edges(void)
{
	static uint8_t key[64], iv[16], riv[16], ptx[1040];
	static uint8_t ctx1024[1024], ctx1008[1008];
	struct rte_crypto_op *ops[6];
	struct rte_mbuf *m[6];
	struct mlx5_crypto_priv *priv;
	struct rte_cryptodev *dev;
	uint32_t max_len;
	void *sess, *gone;

	for (int i = 0; i < 64; i++)
		key[i] = (uint8_t)(3 * i + 1);
	for (int i = 0; i < 16; i++) {
		iv[i] = (uint8_t)(0x10 + i);
		riv[15 - i] = iv[i];
	}
	for (int i = 0; i < 1040; i++)
		ptx[i] = (uint8_t)(i * 13);
	TEST_ASSERT_SUCCESS(cp_reference(key, 64, iv, 1024, ptx, ctx1024,
					 1024, true), "OpenSSL");
	TEST_ASSERT_SUCCESS(cp_reference(key, 64, iv, 1008, ptx, ctx1008,
					 1008, true), "OpenSSL");
	TEST_ASSERT_EQUAL(cp_probe(NULL), TEST_SUCCESS, "");
	TEST_ASSERT_EQUAL(cp_start(1, 16), TEST_SUCCESS, "");
	dev = &rte_cryptodevs[dev_id];
	priv = dev->data->dev_private;
	/* A device whose largest message is 1 KiB. */
	max_len = priv->max_len;
	priv->max_len = 1024;
	sess = cp_session(key, 64, true, 0, 16);
	gone = cp_session(key, 64, true, 0, 16);
	TEST_ASSERT(sess != NULL && gone != NULL, "sessions");
	/* Cleared by the PMD (its DEK destroyed), an op still names it. */
	dev->dev_ops->sym_session_clear(dev, gone);
	for (int i = 0; i < 6; i++) {
		/* Then no bytes, and one byte short of whole blocks. */
		static const uint32_t len[] = { 1024, 1040, 512, 1008, 0,
						1023 };

		m[i] = cp_chain(mb_pool, ptx, RTE_MAX(len[i], 16u), 2048);
		ops[i] = cp_op(i == 2 ? gone : sess, m[i], NULL, iv, len[i]);
		TEST_ASSERT(m[i] != NULL && ops[i] != NULL, "");
	}
	TEST_ASSERT_EQUAL(cp_run(0, ops, 6), TEST_SUCCESS, "");
	for (int i = 0; i < 6; i++) {
		static const struct {
			uint8_t status;
			const char *what;
		} want[] = {
			{ RTE_CRYPTO_OP_STATUS_SUCCESS, "1 KiB, the largest" },
			{ RTE_CRYPTO_OP_STATUS_INVALID_ARGS,
			  "one block above 1 KiB" },
			{ RTE_CRYPTO_OP_STATUS_INVALID_SESSION,
			  "a cleared session" },
			{ RTE_CRYPTO_OP_STATUS_SUCCESS, "1008 bytes" },
			{ RTE_CRYPTO_OP_STATUS_INVALID_ARGS, "no bytes" },
			{ RTE_CRYPTO_OP_STATUS_INVALID_ARGS, "1023 bytes" },
		};
		const uint8_t *ct = i == 0 ? ctx1024 : i == 3 ? ctx1008 : NULL;

		TEST_ASSERT_EQUAL(cp_check_op(ops[i], want[i].status,
					      ct != NULL ? m[i] : NULL, ct,
					      want[i].what),
				  TEST_SUCCESS, "");
	}
	for (int i = 0; i < 6; i++) {
		rte_pktmbuf_free(m[i]);
		rte_crypto_op_free(ops[i]);
	}
	priv->max_len = max_len;
	/*
	 * A device that takes the tweak big-endian gets the IV's bytes
	 * reversed; the model reads the BSF's tweak little-endian, so the
	 * reversed IV gives the ciphertext of the IV as it is.
	 */
	priv->tweak_be = true;
	sess = cp_session(key, 64, true, 0, 16);
	TEST_ASSERT_NOT_NULL(sess, "session");
	m[0] = cp_chain(mb_pool, ptx, 1024, 2048);
	ops[0] = cp_op(sess, m[0], NULL, riv, 1024);
	TEST_ASSERT(m[0] != NULL && ops[0] != NULL, "");
	TEST_ASSERT_EQUAL(cp_run(0, ops, 1), TEST_SUCCESS, "");
	priv->tweak_be = false;
	TEST_ASSERT_EQUAL(cp_check_op(ops[0], RTE_CRYPTO_OP_STATUS_SUCCESS,
				      m[0], ctx1024, "a big-endian tweak"),
			  TEST_SUCCESS, "");
	rte_pktmbuf_free(m[0]);
	rte_crypto_op_free(ops[0]);
	TEST_ASSERT_EQUAL(cp_keys_back(0), TEST_SUCCESS, "");
	return cp_finish();
}

/*
 * What the cryptodev reports and the devargs at their edges: the one
 * capability's ranges and data units, max_nb_sessions the device's DEK
 * limit; the largest value of each devarg is taken, 0 or one past it is
 * refused naming the key, qp_mkeys is rounded up to a power of two, and
 * a pool that fills the send queue exactly (2^15 blocks) is taken.
 */
static int
test_caps_devargs(void)
{
	static const char *const refused[] = {
		"max_qps=0", "max_segs=49", "qp_mkeys=0", "qp_mkeys=4097",
	};
	const struct rte_cryptodev_symmetric_capability *c;
	struct rte_cryptodev_info info;
	uint8_t log_deks;

	TEST_ASSERT_EQUAL(cp_probe(NULL), TEST_SUCCESS, "");
	rte_cryptodev_info_get(dev_id, &info);
	log_deks = sim_cdev(CP_DEV)->caps.crypto.log_max_num_deks;
	TEST_ASSERT(log_deks > 0, "the device tells its DEK limit");
	TEST_ASSERT_EQUAL(info.sym.max_nb_sessions, UINT32_C(1) << log_deks,
			  "max_nb_sessions: one DEK each");
	c = &info.capabilities[0].sym;
	TEST_ASSERT(c->xform_type == RTE_CRYPTO_SYM_XFORM_CIPHER &&
		    c->cipher.block_size == 16, "a cipher of 16-byte blocks");
	TEST_ASSERT(c->cipher.key_size.min == 32 &&
		    c->cipher.key_size.max == 64 &&
		    c->cipher.key_size.increment == 32, "keys of 32 or 64");
	TEST_ASSERT(c->cipher.iv_size.min == 16 && c->cipher.iv_size.max == 16,
		    "a 16-byte IV");
	TEST_ASSERT_EQUAL(c->cipher.dataunit_set,
			  RTE_CRYPTO_CIPHER_DATA_UNIT_LEN_512_BYTES |
			  RTE_CRYPTO_CIPHER_DATA_UNIT_LEN_4096_BYTES |
			  RTE_CRYPTO_CIPHER_DATA_UNIT_LEN_1_MEGABYTES,
			  "data units 512, 4096, 1 MiB");
	TEST_ASSERT_EQUAL(cp_finish(), TEST_SUCCESS, "");
	TEST_ASSERT_EQUAL(cp_probe("max_qps=64,max_segs=48,qp_mkeys=1"),
			  TEST_SUCCESS, "the largest max_qps and max_segs");
	rte_cryptodev_info_get(dev_id, &info);
	TEST_ASSERT_EQUAL(info.max_nb_queue_pairs, 64, "max_qps=64");
	TEST_ASSERT_EQUAL(cp_finish(), TEST_SUCCESS, "");
	/* 4096 operations of 5 blocks: 20480, rounded up to 2^15. */
	TEST_ASSERT_EQUAL(cp_probe("qp_mkeys=4096,max_segs=1"), TEST_SUCCESS,
			  "the largest pool");
	TEST_ASSERT_EQUAL(cp_start(1, 4096), TEST_SUCCESS, "");
	TEST_ASSERT_EQUAL(cp_qp(0)->entries, 4096, "4096 in flight");
	TEST_ASSERT_EQUAL(cp_finish(), TEST_SUCCESS, "");
	TEST_ASSERT_EQUAL(cp_probe("qp_mkeys=3"), TEST_SUCCESS, "");
	TEST_ASSERT_EQUAL(cp_start(1, 4096), TEST_SUCCESS, "");
	TEST_ASSERT_EQUAL(cp_qp(0)->entries, 4, "qp_mkeys=3 rounded up to 4");
	TEST_ASSERT_EQUAL(cp_finish(), TEST_SUCCESS, "");
	for (unsigned int i = 0; i < RTE_DIM(refused); i++) {
		char args[64], key[16];
		const char *log;

		snprintf(args, sizeof(args), "card=%u,class=crypto,%s", CP_CARD,
			 refused[i]);
		snprintf(key, sizeof(key), "%.*s",
			 (int)strcspn(refused[i], "="), refused[i]);
		mlx5_test_log_capture_start();
		TEST_ASSERT_EQUAL(sim_probe(CP_DEV, args), -EINVAL, "%s",
				  refused[i]);
		log = mlx5_test_log_capture_stop();
		TEST_ASSERT(strstr(log, key) != NULL, "%s: the key is named",
			    refused[i]);
	}
	TEST_ASSERT_EQUAL(sim_live(CP_CARD, 0), 0, "nothing left");
	TEST_ASSERT_EQUAL(sim_reclaimed(CP_CARD, 0), 0, "nothing reclaimed");
	return TEST_SUCCESS;
}

/* Session create with @x refused with @err, no command issued. */
static int
cp_xform_refused(struct rte_crypto_sym_xform *x, int err, const char *what)
{
	struct mlx5_sim_stats a, b;
	void *s;

	TEST_ASSERT_SUCCESS(mlx5_sim_vhca_stats(CP_CARD, 0, &a), "");
	rte_errno = 0;
	s = rte_cryptodev_sym_session_create(dev_id, x, sess_pool);
	if (s != NULL)
		sessions[nb_sessions++] = s;
	TEST_ASSERT(s == NULL, "%s refused", what);
	TEST_ASSERT_EQUAL(rte_errno, err, "%s: errno", what);
	TEST_ASSERT_SUCCESS(mlx5_sim_vhca_stats(CP_CARD, 0, &b), "");
	TEST_ASSERT_EQUAL(b.commands, a.commands,
			  "%s: refused before the device (no DEK command)",
			  what);
	return TEST_SUCCESS;
}

/*
 * Session configuration refuses, with the guide's errno and before any
 * DEK command: chained transforms, a transform that is not a cipher (even
 * with AES-XTS in its cipher fields), another cipher, a key of neither 32
 * nor 64 bytes, and no key at all.
 */
static int
test_session_refusals(void)
{
	static uint8_t key[64] = { 7 };
	struct rte_crypto_sym_xform x2, x = {
		.type = RTE_CRYPTO_SYM_XFORM_CIPHER,
		.cipher = {
			.op = RTE_CRYPTO_CIPHER_OP_ENCRYPT,
			.algo = RTE_CRYPTO_CIPHER_AES_XTS,
			.key = { .data = key, .length = 64 },
			.iv = { .offset = CP_IV_OFFSET, .length = 16 },
		},
	};

	TEST_ASSERT_EQUAL(cp_probe(NULL), TEST_SUCCESS, "");
	TEST_ASSERT_EQUAL(cp_start(1, 16), TEST_SUCCESS, "");
	x2 = x;
	x.next = &x2;
	TEST_ASSERT_EQUAL(cp_xform_refused(&x, ENOTSUP, "chained transforms"),
			  TEST_SUCCESS, "");
	x.next = NULL;
	x.type = RTE_CRYPTO_SYM_XFORM_AUTH;
	TEST_ASSERT_EQUAL(cp_xform_refused(&x, ENOTSUP, "an auth transform"),
			  TEST_SUCCESS, "");
	x.type = RTE_CRYPTO_SYM_XFORM_CIPHER;
	x.cipher.algo = RTE_CRYPTO_CIPHER_AES_CBC;
	TEST_ASSERT_EQUAL(cp_xform_refused(&x, ENOTSUP, "AES-CBC"),
			  TEST_SUCCESS, "");
	x.cipher.algo = RTE_CRYPTO_CIPHER_AES_XTS;
	x.cipher.key.length = 48;
	TEST_ASSERT_EQUAL(cp_xform_refused(&x, EINVAL, "a 48-byte key"),
			  TEST_SUCCESS, "");
	x.cipher.key.length = 32;
	x.cipher.key.data = NULL;
	TEST_ASSERT_EQUAL(cp_xform_refused(&x, EINVAL, "no key"),
			  TEST_SUCCESS, "");
	x.cipher.key.data = key;
	sessions[nb_sessions] = rte_cryptodev_sym_session_create(dev_id, &x,
								 sess_pool);
	TEST_ASSERT_NOT_NULL(sessions[nb_sessions++], "with a key: taken");
	return cp_finish();
}

/* @n ops of 512 bytes on @sess in place, each in its own mbuf. */
static int
cp_ops_new(void *sess, struct rte_crypto_op **ops, struct rte_mbuf **m,
	   uint16_t n)
{
	static uint8_t iv[16];

	for (uint16_t i = 0; i < n; i++) {
		m[i] = cp_chain(mb_pool, NULL, CP_UNIT, 2048);
		ops[i] = cp_op(sess, m[i], NULL, iv, CP_UNIT);
		TEST_ASSERT(m[i] != NULL && ops[i] != NULL, "");
	}
	return TEST_SUCCESS;
}

static void
cp_ops_free(struct rte_crypto_op **ops, struct rte_mbuf **m, uint16_t n)
{
	for (uint16_t i = 0; i < n; i++) {
		rte_pktmbuf_free(m[i]);
		rte_crypto_op_free(ops[i]);
	}
}

/* The device's counters are @enq and @deq, no error. */
static int
cp_stats_are(uint64_t enq, uint64_t deq)
{
	struct rte_cryptodev_stats st;

	TEST_ASSERT_SUCCESS(rte_cryptodev_stats_get(dev_id, &st), "");
	TEST_ASSERT_EQUAL(st.enqueued_count, enq, "enqueued");
	TEST_ASSERT_EQUAL(st.dequeued_count, deq, "dequeued");
	TEST_ASSERT_EQUAL(st.dequeue_err_count, 0, "");
	return TEST_SUCCESS;
}

/*
 * The device operations around the queue pairs: a configuration that
 * disables symmetric crypto is refused; a queue pair of no descriptors is
 * refused and one of 5 holds 8; an enqueue takes no more ops than the
 * pool has free mkeys, counts only those, and marks them NOT_PROCESSED
 * until they are dequeued; the statistics sum the queue pairs, skip one
 * not set up, and reset to 0; close releases every queue pair's objects.
 */
static int
test_dev_ops(void)
{
	static uint8_t key[64] = { 5 };
	struct rte_cryptodev_config conf = {
		.socket_id = SOCKET_ID_ANY,
		.nb_queue_pairs = 2,
		.ff_disable = RTE_CRYPTODEV_FF_SYMMETRIC_CRYPTO,
	};
	struct rte_cryptodev_qp_conf qp_conf = { .nb_descriptors = 0 };
	struct rte_crypto_op *ops[10];
	struct rte_mbuf *m[10];
	struct mlx5_sim_stats vs;
	void *sess;

	TEST_ASSERT_EQUAL(cp_probe(NULL), TEST_SUCCESS, "");
	qp_conf.mp_session = sess_pool;
	TEST_ASSERT_EQUAL(rte_cryptodev_configure(dev_id, &conf), -ENOTSUP,
			  "symmetric crypto disabled");
	conf.ff_disable = 0;
	TEST_ASSERT_SUCCESS(rte_cryptodev_configure(dev_id, &conf), "");
	TEST_ASSERT_EQUAL(rte_cryptodev_queue_pair_setup(dev_id, 0, &qp_conf,
			  SOCKET_ID_ANY), -EINVAL, "no descriptors");
	qp_conf.nb_descriptors = 5;
	TEST_ASSERT_SUCCESS(rte_cryptodev_queue_pair_setup(dev_id, 0, &qp_conf,
			    SOCKET_ID_ANY), "");
	TEST_ASSERT_EQUAL(cp_qp(0)->entries, 8, "5 descriptors: 8 in flight");
	TEST_ASSERT_SUCCESS(rte_cryptodev_start(dev_id), "");
	/* QP 1 is not set up: the statistics skip it. */
	TEST_ASSERT_EQUAL(cp_stats_are(0, 0), TEST_SUCCESS, "");
	sess = cp_session(key, 64, true, 0, 16);
	TEST_ASSERT_NOT_NULL(sess, "");
	TEST_ASSERT_EQUAL(cp_ops_new(sess, ops, m, 10), TEST_SUCCESS, "");
	for (int i = 0; i < 10; i++)
		ops[i]->status = RTE_CRYPTO_OP_STATUS_ERROR;
	TEST_ASSERT_EQUAL(rte_cryptodev_enqueue_burst(dev_id, 0, ops, 10), 8,
			  "as many as the pool has mkeys");
	for (int i = 0; i < 8; i++)
		TEST_ASSERT_EQUAL(ops[i]->status,
				  RTE_CRYPTO_OP_STATUS_NOT_PROCESSED,
				  "op %d in flight", i);
	TEST_ASSERT_EQUAL(rte_cryptodev_enqueue_burst(dev_id, 0, ops + 8, 2),
			  0, "no mkey free");
	TEST_ASSERT_EQUAL(cp_stats_are(8, 0), TEST_SUCCESS, "");
	TEST_ASSERT_EQUAL(cp_deq_n(ops, 8), TEST_SUCCESS, "");
	TEST_ASSERT_EQUAL(cp_run(0, ops + 8, 2), TEST_SUCCESS, "");
	TEST_ASSERT_EQUAL(cp_stats_are(10, 10), TEST_SUCCESS, "");
	rte_cryptodev_stats_reset(dev_id);
	TEST_ASSERT_EQUAL(cp_stats_are(0, 0), TEST_SUCCESS, "reset");
	/* Both QPs count. */
	rte_cryptodev_stop(dev_id);
	TEST_ASSERT_SUCCESS(rte_cryptodev_queue_pair_setup(dev_id, 1, &qp_conf,
			    SOCKET_ID_ANY), "");
	TEST_ASSERT_SUCCESS(rte_cryptodev_start(dev_id), "");
	TEST_ASSERT_EQUAL(cp_run(0, ops, 2), TEST_SUCCESS, "");
	TEST_ASSERT_EQUAL(cp_run(1, ops + 2, 3), TEST_SUCCESS, "");
	TEST_ASSERT_EQUAL(cp_stats_are(5, 5), TEST_SUCCESS, "two QPs");
	cp_ops_free(ops, m, 10);
	/* Close, before the removal: no QP, CQ or mkey left. */
	cp_sessions_free();
	rte_cryptodev_stop(dev_id);
	TEST_ASSERT_SUCCESS(rte_cryptodev_close(dev_id), "close");
	TEST_ASSERT_SUCCESS(mlx5_sim_vhca_stats(CP_CARD, 0, &vs), "");
	TEST_ASSERT(vs.mkeys == 0 && vs.qps == 0 && vs.cqs == 0,
		    "closed: %" PRIu64 " mkeys, %" PRIu64 " QPs, %" PRIu64
		    " CQs left", vs.mkeys, vs.qps, vs.cqs);
	return cp_finish();
}

/*
 * Setting a queue pair up again rebuilds it unless nothing changed (on
 * another socket, say); with an operation still enqueued it is refused
 * with EBUSY and changes nothing: every enqueued operation comes back.
 * Once dequeued, the setup goes through.
 */
static int
test_qp_rebuild(void)
{
	struct rte_cryptodev_qp_conf qp_conf = { .nb_descriptors = 16 };
	static uint8_t key[64] = { 6 };
	struct mlx5_sim_stats a, b;
	struct rte_crypto_op *op;
	struct rte_mbuf *m;
	void *sess;

	TEST_ASSERT_EQUAL(cp_probe(NULL), TEST_SUCCESS, "");
	qp_conf.mp_session = sess_pool;
	TEST_ASSERT_EQUAL(cp_start(1, 16), TEST_SUCCESS, "");
	rte_cryptodev_stop(dev_id);
	TEST_ASSERT_SUCCESS(mlx5_sim_vhca_stats(CP_CARD, 0, &a), "");
	TEST_ASSERT_SUCCESS(rte_cryptodev_queue_pair_setup(dev_id, 0, &qp_conf,
			    0), "");
	TEST_ASSERT_SUCCESS(mlx5_sim_vhca_stats(CP_CARD, 0, &b), "");
	TEST_ASSERT(b.commands != a.commands, "another socket: rebuilt");
	TEST_ASSERT_EQUAL(cp_qp(0)->socket, 0, "");
	TEST_ASSERT_SUCCESS(rte_cryptodev_start(dev_id), "");
	sess = cp_session(key, 64, true, 0, 16);
	TEST_ASSERT_NOT_NULL(sess, "");
	TEST_ASSERT_EQUAL(cp_ops_new(sess, &op, &m, 1), TEST_SUCCESS, "");
	TEST_ASSERT_EQUAL(rte_cryptodev_enqueue_burst(dev_id, 0, &op, 1), 1,
			  "");
	rte_cryptodev_stop(dev_id);
	TEST_ASSERT_SUCCESS(mlx5_sim_vhca_stats(CP_CARD, 0, &a), "");
	qp_conf.nb_descriptors = 8;
	rte_errno = 0;
	TEST_ASSERT_EQUAL(rte_cryptodev_queue_pair_setup(dev_id, 0, &qp_conf,
			  0), -EBUSY, "an op enqueued: another size refused");
	TEST_ASSERT_EQUAL(rte_errno, EBUSY, "rte_errno EBUSY");
	qp_conf.nb_descriptors = 16;
	TEST_ASSERT_EQUAL(rte_cryptodev_queue_pair_setup(dev_id, 0, &qp_conf,
			  1), -EBUSY, "an op enqueued: another socket refused");
	TEST_ASSERT_SUCCESS(mlx5_sim_vhca_stats(CP_CARD, 0, &b), "");
	TEST_ASSERT_EQUAL(b.commands, a.commands, "nothing destroyed");
	TEST_ASSERT_SUCCESS(rte_cryptodev_start(dev_id), "");
	TEST_ASSERT_EQUAL(cp_deq_n(&op, 1), TEST_SUCCESS,
			  "the enqueued op comes back, ciphered");
	rte_cryptodev_stop(dev_id);
	qp_conf.nb_descriptors = 8;
	TEST_ASSERT_SUCCESS(rte_cryptodev_queue_pair_setup(dev_id, 0, &qp_conf,
			    0), "dequeued: the setup goes through");
	TEST_ASSERT_SUCCESS(mlx5_sim_vhca_stats(CP_CARD, 0, &b), "");
	TEST_ASSERT(b.commands != a.commands, "rebuilt with 8 entries");
	TEST_ASSERT_EQUAL(cp_keys_back(0), TEST_SUCCESS, "a new pool");
	cp_ops_free(&op, &m, 1);
	return cp_finish();
}

static void
cp_ext_free(void *addr, void *opaque)
{
	RTE_SET_USED(addr);
	RTE_SET_USED(opaque);
}

/*
 * Refusals the other cases do not reach, in one burst, each op with its
 * status: sessionless with a session pointer, a session op without a
 * session, not a symmetric op, out of place with a source shorter than
 * the range, max_segs + 1 segments, memory the MR cache has no key for;
 * exactly max_segs segments with an empty one among them is taken. The
 * refused ops at the head count as dequeue errors. Then with
 * dataunit_len = 0 one block past 1 MiB is refused where 1 MiB units
 * take it.
 */
static int
test_op_refusals(void)
{
	static uint8_t key[64], iv[16], ptx[CP_UNIT], ctx[CP_UNIT];
	static uint8_t ext[CP_UNIT + 64];
	static struct rte_mbuf_ext_shared_info shinfo = {
		.free_cb = cp_ext_free,
	};
	static const struct {
		uint8_t status;
		const char *what;
	} want[] = {
		{ RTE_CRYPTO_OP_STATUS_INVALID_SESSION, "sessionless" },
		{ RTE_CRYPTO_OP_STATUS_INVALID_SESSION, "no session" },
		{ RTE_CRYPTO_OP_STATUS_INVALID_ARGS, "not symmetric" },
		{ RTE_CRYPTO_OP_STATUS_INVALID_ARGS, "a short source" },
		{ RTE_CRYPTO_OP_STATUS_SUCCESS, "4 segments and an empty one" },
		{ RTE_CRYPTO_OP_STATUS_INVALID_ARGS, "5 segments, max_segs=4" },
		{ RTE_CRYPTO_OP_STATUS_ERROR, "memory without a key" },
		{ RTE_CRYPTO_OP_STATUS_SUCCESS, "a good op" },
	};
	struct rte_crypto_op *ops[8];
	struct rte_mbuf *m[8], *dst, *empty, *big;
	struct rte_cryptodev_stats st;
	void *sess, *whole, *units;

	for (int i = 0; i < 64; i++)
		key[i] = (uint8_t)(5 * i + 2);
	for (int i = 0; i < CP_UNIT; i++)
		ptx[i] = (uint8_t)(i * 7);
	TEST_ASSERT_SUCCESS(cp_reference(key, 64, iv, CP_UNIT, ptx, ctx,
					 CP_UNIT, true), "OpenSSL");
	TEST_ASSERT_EQUAL(cp_probe("max_segs=4"), TEST_SUCCESS, "");
	TEST_ASSERT_EQUAL(cp_start(1, 16), TEST_SUCCESS, "");
	sess = cp_session(key, 64, true, 0, 16);
	TEST_ASSERT_NOT_NULL(sess, "");
	for (int i = 0; i < 8; i++) {
		/* Op 5 (refused for its segments): filler, not ptx. */
		m[i] = cp_chain(mb_pool, i == 5 ? NULL : ptx,
				i == 5 ? 640 : CP_UNIT,
				i == 4 || i == 5 ? 128 : 2048);
		ops[i] = cp_op(sess, m[i], NULL, iv, i == 5 ? 640 : CP_UNIT);
		TEST_ASSERT(m[i] != NULL && ops[i] != NULL, "");
	}
	ops[0]->sess_type = RTE_CRYPTO_OP_SESSIONLESS;
	ops[1]->sym->session = NULL;
	ops[2]->type = RTE_CRYPTO_OP_TYPE_ASYMMETRIC;
	dst = cp_chain(mb_pool, NULL, CP_UNIT, 2048);
	TEST_ASSERT_NOT_NULL(dst, "");
	rte_pktmbuf_trim(m[3], CP_UNIT / 2);
	ops[3]->sym->m_dst = dst;
	/* An empty segment after the first of four. */
	empty = rte_pktmbuf_alloc(mb_pool);
	TEST_ASSERT_NOT_NULL(empty, "");
	empty->next = m[4]->next;
	m[4]->next = empty;
	m[4]->nb_segs++;
	/* An external buffer in malloc'd-like static memory, no MR. */
	rte_mbuf_ext_refcnt_set(&shinfo, 1);
	rte_pktmbuf_attach_extbuf(m[6], ext, (rte_iova_t)(uintptr_t)ext,
				  sizeof(ext), &shinfo);
	rte_pktmbuf_append(m[6], CP_UNIT);
	TEST_ASSERT_EQUAL(cp_run(0, ops, 8), TEST_SUCCESS, "");
	for (int i = 0; i < 8; i++)
		TEST_ASSERT_EQUAL(cp_check_op(ops[i], want[i].status,
					      m[i], i == 4 || i == 7 ? ctx : NULL,
					      want[i].what),
				  TEST_SUCCESS, "op %d", i);
	TEST_ASSERT_SUCCESS(rte_cryptodev_stats_get(dev_id, &st), "");
	TEST_ASSERT_EQUAL(st.dequeue_err_count, 6, "six refused");
	TEST_ASSERT_EQUAL(cp_keys_back(0), TEST_SUCCESS, "");
	ops[2]->type = RTE_CRYPTO_OP_TYPE_SYMMETRIC;
	cp_ops_free(ops, m, 8);
	rte_pktmbuf_free(dst);
	TEST_ASSERT_EQUAL(cp_finish(), TEST_SUCCESS, "");
	/* 1 MiB + 16 in 33 segments. */
	TEST_ASSERT_EQUAL(cp_probe("max_segs=48,qp_mkeys=4"), TEST_SUCCESS,
			  "");
	TEST_ASSERT_EQUAL(cp_start(1, 4), TEST_SUCCESS, "");
	whole = cp_session(key, 64, true, 0, 16);
	units = cp_session(key, 64, true, 1u << 20, 16);
	TEST_ASSERT(whole != NULL && units != NULL, "");
	big = cp_chain(big_pool, NULL, (1u << 20) + 16, CP_BIG_SEG);
	TEST_ASSERT_NOT_NULL(big, "");
	for (int i = 0; i < 2; i++) {
		ops[0] = cp_op(i == 0 ? whole : units, big, NULL, iv,
			       (1u << 20) + 16);
		TEST_ASSERT_NOT_NULL(ops[0], "");
		TEST_ASSERT_EQUAL(cp_run(0, ops, 1), TEST_SUCCESS, "");
		TEST_ASSERT_EQUAL(ops[0]->status, i == 0 ?
				  RTE_CRYPTO_OP_STATUS_INVALID_ARGS :
				  RTE_CRYPTO_OP_STATUS_SUCCESS,
				  "1 MiB + 16 %s", i == 0 ? "as one unit" :
				  "in 1 MiB units");
		rte_crypto_op_free(ops[0]);
	}
	rte_pktmbuf_free(big);
	return cp_finish();
}

/*
 * A full pool of the longest operations (max_segs=48: 28 WQE blocks
 * each) in one burst, three times: the send ring holds them all and
 * wraps; every op gives the ciphertext.
 */
static int
test_ring_full_longest(void)
{
	static uint8_t key[64], iv[16], ptx[768], ctx[768];
	struct rte_crypto_op *ops[8];
	struct rte_mbuf *m[8];
	void *sess;

	for (int i = 0; i < 64; i++)
		key[i] = (uint8_t)(11 * i + 3);
	for (int i = 0; i < 768; i++)
		ptx[i] = (uint8_t)(i ^ (i >> 4));
	TEST_ASSERT_SUCCESS(cp_reference(key, 64, iv, 768, ptx, ctx, 768,
					 true), "OpenSSL");
	TEST_ASSERT_EQUAL(cp_probe("max_segs=48,qp_mkeys=8"), TEST_SUCCESS,
			  "");
	TEST_ASSERT_EQUAL(cp_start(1, 8), TEST_SUCCESS, "");
	sess = cp_session(key, 64, true, 0, 16);
	TEST_ASSERT_NOT_NULL(sess, "");
	for (int round = 0; round < 3; round++) {
		for (int i = 0; i < 8; i++) {
			m[i] = cp_chain(mb_pool, ptx, 768, 16);
			ops[i] = cp_op(sess, m[i], NULL, iv, 768);
			TEST_ASSERT(m[i] != NULL && ops[i] != NULL, "");
		}
		TEST_ASSERT_EQUAL(cp_run(0, ops, 8), TEST_SUCCESS, "");
		for (int i = 0; i < 8; i++)
			TEST_ASSERT_EQUAL(cp_check_op(ops[i],
				RTE_CRYPTO_OP_STATUS_SUCCESS, m[i], ctx,
				"48 segments"), TEST_SUCCESS,
				"round %d op %d", round, i);
		cp_ops_free(ops, m, 8);
		TEST_ASSERT_EQUAL(cp_keys_back(0), TEST_SUCCESS, "");
	}
	return cp_finish();
}

/*
 * A session of another crypto_mlx5 device (its DEK is that device's) on
 * this device's queue pair: INVALID_SESSION, as the guide says, the fast
 * way (one segment) and the general way (segments) alike; not an error
 * completion of a DEK this device does not have.
 */
static int
test_foreign_session(void)
{
	static uint8_t key[64] = { 2 };
	struct rte_cryptodev_stats st;
	struct rte_mempool *pool_b;
	struct rte_crypto_op *ops[2];
	struct rte_mbuf *m[2];
	void *sess_b;
	int id_b;

	TEST_ASSERT_EQUAL(cp_probe(NULL), TEST_SUCCESS, "");
	TEST_ASSERT_EQUAL(cp_start(1, 16), TEST_SUCCESS, "");
	TEST_ASSERT_NOT_NULL(cp_session(key, 64, true, 0, 16), "");
	TEST_ASSERT_SUCCESS(sim_probe("mlx5_sim1", "card=83,class=crypto"),
			    "a second device");
	id_b = rte_cryptodev_get_dev_id("mlx5_sim1");
	TEST_ASSERT(id_b >= 0, "");
	pool_b = rte_cryptodev_sym_session_pool_create("cp_sess_b", 4,
		rte_cryptodev_sym_get_private_session_size(id_b), 0, 0, 0);
	TEST_ASSERT_NOT_NULL(pool_b, "");
	/* cp_session() on device B; B frees it (not in sessions[]). */
	dev_id = (uint8_t)id_b;
	RTE_SWAP(sess_pool, pool_b);
	sess_b = cp_session(key, 64, true, 0, 16);
	nb_sessions -= sess_b != NULL;
	RTE_SWAP(sess_pool, pool_b);
	dev_id = (uint8_t)rte_cryptodev_get_dev_id(CP_DEV);
	TEST_ASSERT_NOT_NULL(sess_b, "a session of the second device");
	TEST_ASSERT_EQUAL(cp_ops_new(sess_b, ops, m, 2), TEST_SUCCESS, "");
	rte_pktmbuf_free(m[1]);
	m[1] = cp_chain(mb_pool, NULL, CP_UNIT, 128);
	TEST_ASSERT_NOT_NULL(m[1], "");
	ops[1]->sym->m_src = m[1];
	TEST_ASSERT_EQUAL(cp_run(0, ops, 2), TEST_SUCCESS, "");
	TEST_ASSERT_EQUAL(ops[0]->status, RTE_CRYPTO_OP_STATUS_INVALID_SESSION,
			  "another device's session, one segment");
	TEST_ASSERT_EQUAL(ops[1]->status, RTE_CRYPTO_OP_STATUS_INVALID_SESSION,
			  "another device's session, four segments");
	TEST_ASSERT_SUCCESS(rte_cryptodev_stats_get(dev_id, &st), "");
	TEST_ASSERT_EQUAL(st.dequeue_err_count, 2, "");
	TEST_ASSERT_EQUAL(cp_keys_back(0), TEST_SUCCESS, "");
	cp_ops_free(ops, m, 2);
	rte_cryptodev_sym_session_free((uint8_t)id_b, sess_b);
	TEST_ASSERT_SUCCESS(sim_remove("mlx5_sim1"), "");
	rte_mempool_free(pool_b);
	/* Its vHCA empty, or gone with its last context (-1). */
	TEST_ASSERT(sim_live(CP_CARD + 2, 0) <= 0, "nothing left on B");
	TEST_ASSERT(sim_reclaimed(CP_CARD + 2, 0) <= 0, "");
	return cp_finish();
}

/*
 * A device in wrapped import (the software device's shape keys) and its
 * officer's secrets: the import KEK (AES-128) and the credential.
 */
#define CP_WCARD 86
#define CP_KEK "0f0e0d0c0b0a09080706050403020100"
#define CP_CREDENTIAL "7072696d6172792063726564656e7469" \
		      "616c206f66207468652074657374" \
		      "73202e2e2e2e2e2e2e2e"
#define CP_WSHAPE "crypto=wrapped,crypto_kek=" CP_KEK \
	",crypto_credential=" CP_CREDENTIAL

/* RFC 3394 wrap of @len bytes of @in under CP_KEK, as hex into @hex. */
static int
cp_wrap_hex(const uint8_t *in, size_t len, char *hex)
{
	uint8_t kek[16], out[96];
	EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
	int n = 0, ok;

	cp_hex(CP_KEK, kek);
	if (c == NULL)
		return -ENOMEM;
	EVP_CIPHER_CTX_set_flags(c, EVP_CIPHER_CTX_FLAG_WRAP_ALLOW);
	ok = len + 8 <= sizeof(out) &&
	     EVP_EncryptInit_ex(c, EVP_aes_128_wrap(), NULL, kek, NULL) &&
	     EVP_EncryptUpdate(c, out, &n, in, (int)len) && n == (int)len + 8;
	EVP_CIPHER_CTX_free(c);
	for (int i = 0; ok && i < n; i++)
		sprintf(hex + 2 * i, "%02x", out[i]);
	return ok ? 0 : -EINVAL;
}

/* The XTS key pair @key_hex and key tag @tag, wrapped, as hex in @hex. */
static int
cp_wrapped_key(const char *key_hex, uint64_t tag, char *hex)
{
	uint8_t key[72];
	size_t n = cp_hex(key_hex, key);
	rte_be64_t be = rte_cpu_to_be_64(tag);

	memcpy(key + n, &be, sizeof(be));
	return cp_wrap_hex(key, n + sizeof(be), hex);
}

/* Write @text into a new file; its path in @path (64 bytes). */
static int
cp_file(const char *text, char *path)
{
	unsigned int i;
	int fd;

	strcpy(path, "/tmp/mlx5_wcs_XXXXXX");
	fd = mkstemp(path);
	TEST_ASSERT(fd >= 0, "mkstemp");
	for (i = 0; i < RTE_DIM(cp_files); i++)
		if (cp_files[i][0] == '\0') {
			strcpy(cp_files[i], path);
			break;
		}
	TEST_ASSERT(write(fd, text, strlen(text)) == (ssize_t)strlen(text),
		    "write %s", path);
	close(fd);
	return TEST_SUCCESS;
}

/* Probing card CP_WCARD with @args fails with @err, naming @what. */
static int
cp_wprobe_fails(const char *args, int err, const char *what)
{
	char devargs[512];
	const char *log;
	int ret;

	snprintf(devargs, sizeof(devargs), "card=%u,class=crypto,%s",
		 CP_WCARD, args);
	mlx5_test_log_capture_start();
	ret = sim_probe(CP_DEV, devargs);
	log = mlx5_test_log_capture_stop();
	TEST_ASSERT_EQUAL(ret, err, "probe %s", devargs);
	TEST_ASSERT(strstr(log, what) != NULL, "\"%s\" in \"%s\"", what, log);
	TEST_ASSERT(sim_live(CP_WCARD, 0) <= 0, "nothing left after %s",
		    devargs);
	return TEST_SUCCESS;
}

/*
 * Wrapped keys, as DPDK's own crypto PMD takes them (its devargs): the
 * probe logs in with the credential of wcs_file wrapped with the import
 * KEK, sessions take the key pair and the key tag wrapped together (48
 * or 80 bytes), and every operation names the keytag devarg, which the
 * device checks against the DEK's. A missing, short or wrong credential
 * fails the probe, leaving nothing; so does a device in commissioning.
 */
static int
test_wrapped_keys(void)
{
	static char key_hex[2 * 88 + 1], key2_hex[2 * 88 + 1];
	char wcs[2 * 48 + 8], good[64], other[64], shorter[64];
	char args[512];
	uint8_t cred[40], iv[16] = { 0 }, ptx[CP_UNIT], key[80];
	const struct rte_cryptodev_symmetric_capability *cap;
	struct rte_cryptodev_sym_capability_idx idx = {
		.type = RTE_CRYPTO_SYM_XFORM_CIPHER,
		.algo.cipher = RTE_CRYPTO_CIPHER_AES_XTS,
	};
	struct rte_cryptodev_info info;
	struct rte_crypto_op *op;
	struct rte_mbuf *m;
	struct cp_vec v;
	void *sess;

	/* The credential file, and two that must not log in. */
	cp_hex(CP_CREDENTIAL, cred);
	TEST_ASSERT_SUCCESS(cp_wrap_hex(cred, sizeof(cred), wcs), "");
	strcat(wcs, "\n");
	TEST_ASSERT_EQUAL(cp_file(wcs, good), TEST_SUCCESS, "");
	TEST_ASSERT_EQUAL(cp_file("a5a5a5a5", shorter), TEST_SUCCESS, "");
	cred[0] ^= 1;
	TEST_ASSERT_SUCCESS(cp_wrap_hex(cred, sizeof(cred), wcs), "");
	TEST_ASSERT_EQUAL(cp_file(wcs, other), TEST_SUCCESS, "");

	TEST_ASSERT_EQUAL(cp_wprobe_fails(CP_WSHAPE, -EINVAL, "wcs_file"),
			  TEST_SUCCESS, "no credential");
	snprintf(args, sizeof(args), "%s,wcs_file=%s", CP_WSHAPE, shorter);
	TEST_ASSERT_EQUAL(cp_wprobe_fails(args, -EINVAL, "fewer than 48"),
			  TEST_SUCCESS, "a short credential");
	snprintf(args, sizeof(args), "%s,wcs_file=%s", CP_WSHAPE, other);
	TEST_ASSERT_EQUAL(cp_wprobe_fails(args, -EINVAL, "crypto login refused"),
			  TEST_SUCCESS, "another credential");
	snprintf(args, sizeof(args), "%s,wcs_file=%s,credential_id=3",
		 CP_WSHAPE, good);
	TEST_ASSERT_EQUAL(cp_wprobe_fails(args, -EINVAL, "crypto login refused"),
			  TEST_SUCCESS, "a credential the device does not have");
	snprintf(args, sizeof(args), "card=%u,class=crypto,crypto=wrapped,"
		 "wcs_file=%s", CP_WCARD + 1, good);
	mlx5_test_log_capture_start();
	TEST_ASSERT_EQUAL(sim_probe(CP_DEV, args), -ENOTSUP, "commissioning");
	TEST_ASSERT(strstr(mlx5_test_log_capture_stop(), "commissioning") !=
		    NULL, "the log says why");
	TEST_ASSERT(sim_live(CP_WCARD + 1, 0) <= 0, "nothing left");

	snprintf(args, sizeof(args), "%s,wcs_file=%s,keytag=0x1234",
		 CP_WSHAPE, good);
	TEST_ASSERT_EQUAL(cp_probe_card(CP_WCARD, args), TEST_SUCCESS, "");
	rte_cryptodev_info_get(dev_id, &info);
	TEST_ASSERT(info.feature_flags & RTE_CRYPTODEV_FF_CIPHER_WRAPPED_KEY,
		    "CIPHER_WRAPPED_KEY");
	cap = rte_cryptodev_sym_capability_get(dev_id, &idx);
	TEST_ASSERT_NOT_NULL(cap, "AES-XTS");
	TEST_ASSERT_SUCCESS(rte_cryptodev_sym_capability_check_cipher(cap, 48,
			    16), "48-byte wrapped keys");
	TEST_ASSERT_SUCCESS(rte_cryptodev_sym_capability_check_cipher(cap, 80,
			    16), "80-byte wrapped keys");
	TEST_ASSERT(rte_cryptodev_sym_capability_check_cipher(cap, 32, 16) != 0,
		    "no plaintext keys");
	TEST_ASSERT_EQUAL(cp_start(1, 64), TEST_SUCCESS, "");
	cp_hex(V4_KEY, key);
	TEST_ASSERT(cp_session(key, 32, true, CP_UNIT, 16) == NULL,
		    "a plaintext key");
	TEST_ASSERT_EQUAL(rte_errno, EINVAL, "");
	/* Vectors 4 and 10 through wrapped keys of the devarg's tag. */
	TEST_ASSERT_SUCCESS(cp_wrapped_key(V4_KEY, 0x1234, key_hex), "");
	v = (struct cp_vec){ key_hex, NULL, V4_CTX, CP_UNIT, CP_UNIT, NULL };
	TEST_ASSERT_EQUAL(cp_vector(&v, false, 2048, 0), TEST_SUCCESS,
			  "vector 4, wrapped key");
	TEST_ASSERT_SUCCESS(cp_wrapped_key(V10_KEY, 0x1234, key2_hex), "");
	v = (struct cp_vec){ key2_hex, V10_TWEAK, V10_CTX, CP_UNIT, 0, NULL };
	TEST_ASSERT_EQUAL(cp_vector(&v, true, 200, 300), TEST_SUCCESS,
			  "vector 10, wrapped 256-bit key");
	/* A key of another tag: the session is made, its operation fails. */
	TEST_ASSERT_SUCCESS(cp_wrapped_key(V4_KEY, 0x1235, key_hex), "");
	sess = cp_session(key, (uint16_t)cp_hex(key_hex, key), true, CP_UNIT,
			  16);
	TEST_ASSERT_NOT_NULL(sess, "a session of a key with another tag");
	for (int i = 0; i < CP_UNIT; i++)
		ptx[i] = (uint8_t)i;
	m = cp_chain(mb_pool, ptx, CP_UNIT, 2048);
	op = cp_op(sess, m, NULL, iv, CP_UNIT);
	TEST_ASSERT(m != NULL && op != NULL, "");
	TEST_ASSERT_EQUAL(cp_run(0, &op, 1), TEST_SUCCESS, "");
	TEST_ASSERT_EQUAL(op->status, RTE_CRYPTO_OP_STATUS_ERROR,
			  "the device refuses a key tag other than the DEK's");
	TEST_ASSERT(cp_equal(m, ptx, CP_UNIT), "the data left as it was");
	rte_pktmbuf_free(m);
	rte_crypto_op_free(op);
	cp_sessions_free();
	rte_cryptodev_stop(dev_id);
	TEST_ASSERT_SUCCESS(sim_remove(CP_DEV), "remove");
	rte_mempool_free(sess_pool);
	sess_pool = NULL;
	TEST_ASSERT_EQUAL(sim_live(CP_WCARD, 0), 0,
			  "nothing left: the login destroyed at removal");
	TEST_ASSERT_EQUAL(sim_reclaimed(CP_WCARD, 0), 0, "nothing reclaimed");
	return TEST_SUCCESS;
}

static const struct mlx5_test_case cp_cases[] = {
	{ "probe", test_probe },
	{ "vectors_in_place", test_vectors_in_place },
	{ "vectors_oop", test_vectors_oop },
	{ "vectors_multi_seg", test_vectors_multi_seg },
	{ "data_units", test_data_units },
	{ "bad_inputs", test_bad_inputs },
	{ "error_completion", test_error_completion },
	{ "recover_fails", test_recover_fails },
	{ "mkey_hot_set", test_mkey_hot_set },
	{ "fast_path_edges", test_fast_path_edges },
	{ "qp_reuse", test_qp_reuse },
	{ "remove_live", test_remove_live },
	{ "caps_devargs", test_caps_devargs },
	{ "session_refusals", test_session_refusals },
	{ "dev_ops", test_dev_ops },
	{ "qp_rebuild", test_qp_rebuild },
	{ "op_refusals", test_op_refusals },
	{ "ring_full_longest", test_ring_full_longest },
	{ "foreign_session", test_foreign_session },
	{ "wrapped_keys", test_wrapped_keys },
	{ NULL, NULL },
};

static const struct mlx5_test_suite cp_suite = {
	.name = "crypto_pmd",
	.setup = cp_suite_setup,
	.teardown = cp_suite_teardown,
	.case_teardown = cp_case_teardown,
	.cases = cp_cases,
};

MLX5_TEST_MAIN(cp_suite);
