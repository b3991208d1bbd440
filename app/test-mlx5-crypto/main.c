/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * AES-XTS-256 on 4 KiB buffers: the crypto PMD (crypto_mlx5) on the
 * software device, beside a plain OpenSSL EVP loop over the same buffers
 * in the same run. The same CPU does the AES in both (the software
 * device's cipher is OpenSSL's), so the ratio is what the PMD, the UMR
 * and the device's engine cost on top. No DPDK software cryptodev of
 * 22.11 does AES-XTS, hence the raw EVP anchor.
 *
 * Both sides cipher in place, the whole buffer one data unit, a tweak per
 * buffer; the PMD in bursts of --burst, enqueue then dequeue. Each side
 * runs --runs times, the two in turns; the figure is the median of each
 * side. Printed, never asserted:
 * the exit code says only whether the run worked (and that the PMD's
 * ciphertext equals OpenSSL's).
 *
 * Usage: dpdk-test-mlx5-crypto [--ops N] [--burst N] [--runs N]
 *        [--size BYTES] [--bufs N] [--devargs KEY=VALUE,...]
 * --bufs: how many buffers (256) the runs go through in turn; with 4 KiB
 * ones, 256 are 1 MiB, the size of many a CPU's L2 cache, where the
 * footprint of the PMD's rings and keys beside the buffers decides
 * whether the buffers stay in it: try 32 and 2048 too.
 * --devargs: more devargs of the device after class=crypto (qp_mkeys=64,
 * ...), to measure what they change.
 */

#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <openssl/evp.h>

#include <rte_crypto.h>
#include <rte_cryptodev.h>
#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>

#define BENCH_MAX_BUFS 8192
#define BENCH_MAX_BURST 128
#define BENCH_MAX_RUNS 99
#define BENCH_IV_OFFSET (sizeof(struct rte_crypto_op) + \
			 sizeof(struct rte_crypto_sym_op))

static unsigned int nb_ops = 100000, burst = 32, runs = 5;
static unsigned int size = 4096, nb_bufs = 256;
static char vdev[256] = "--vdev=mlx5_sim0,class=crypto";
static struct rte_mbuf *bufs[BENCH_MAX_BUFS];
static struct rte_crypto_op *ops[BENCH_MAX_BUFS];
static uint8_t key[64];
static uint8_t dev_id;

static void
bench_iv(unsigned int i, uint8_t *iv)
{
	memset(iv, 0, 16);
	memcpy(iv, &i, sizeof(i));
}

/*
 * Cycles of nb_ops buffers through the PMD, or 0 on failure. Out of line,
 * as bench_evp(): a profiler (callgrind) reports each side on its own.
 */
static __rte_noinline uint64_t
bench_pmd(void)
{
	struct rte_crypto_op *out[BENCH_MAX_BURST];
	unsigned int done = 0, next = 0;
	uint64_t t0 = rte_rdtsc_precise();

	while (done < nb_ops) {
		unsigned int n = RTE_MIN(burst, nb_ops - done);
		unsigned int sent, got = 0;

		/* Buffers in turn; a burst never wraps the buffer set. */
		if (next + n > nb_bufs)
			next = 0;
		sent = rte_cryptodev_enqueue_burst(dev_id, 0, &ops[next], n);
		while (got < sent)
			got += rte_cryptodev_dequeue_burst(dev_id, 0, out + got,
							   sent - got);
		for (unsigned int i = 0; i < got; i++)
			if (out[i]->status != RTE_CRYPTO_OP_STATUS_SUCCESS)
				return 0;
		next += sent;
		done += sent;
	}
	return rte_rdtsc_precise() - t0;
}

/* Cycles of nb_ops buffers through EVP with one context, or 0. */
static __rte_noinline uint64_t
bench_evp(void)
{
	EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
	unsigned int next = 0;
	uint8_t iv[16];
	uint64_t t0, t;
	int ok;

	ok = ctx != NULL && EVP_CipherInit_ex(ctx, EVP_aes_256_xts(), NULL,
					      key, NULL, 1);
	t0 = rte_rdtsc_precise();
	for (unsigned int i = 0; ok && i < nb_ops; i++) {
		uint8_t *p = rte_pktmbuf_mtod(bufs[next], uint8_t *);
		int outl;

		bench_iv(next, iv);
		ok = EVP_CipherInit_ex(ctx, NULL, NULL, NULL, iv, 1) &&
		     EVP_CipherUpdate(ctx, p, &outl, p, (int)size);
		next = (next + 1) % nb_bufs;
	}
	t = rte_rdtsc_precise() - t0;
	EVP_CIPHER_CTX_free(ctx);
	return ok ? t : 0;
}

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/*
 * The median cycles of --runs runs of each side, the runs taken in turns
 * (PMD, EVP, PMD, ...): on a shared host the load moves, and two phases
 * run one after the other would each see another load. @ratio: the
 * median, lowest and highest of the runs' own ratios (EVP's cycles over
 * the PMD's run just before), which a load that changes between runs
 * moves less than the ratio of the medians. 0, or -1 when an operation
 * failed.
 */
static int
medians(uint64_t *pmd, uint64_t *evp, double ratio[3])
{
	uint64_t tp[BENCH_MAX_RUNS], te[BENCH_MAX_RUNS];
	double r[BENCH_MAX_RUNS];

	for (unsigned int i = 0; i < runs; i++) {
		tp[i] = bench_pmd();
		te[i] = bench_evp();
		if (tp[i] == 0 || te[i] == 0)
			return -1;
		r[i] = (double)te[i] / (double)tp[i];
	}
	qsort(tp, runs, sizeof(tp[0]), cmp_u64);
	qsort(te, runs, sizeof(te[0]), cmp_u64);
	qsort(r, runs, sizeof(r[0]), cmp_double);
	*pmd = tp[runs / 2];
	*evp = te[runs / 2];
	ratio[0] = r[runs / 2];
	ratio[1] = r[0];
	ratio[2] = r[runs - 1];
	return 0;
}

/* One buffer through the PMD equals OpenSSL's ciphertext? */
static int
bench_check(struct rte_mempool *mb_pool)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(mb_pool);
	struct rte_crypto_op *op = ops[0], *back = NULL;
	uint8_t *want = malloc(size), iv[16];
	EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
	int outl, ret = -1;

	if (m == NULL || want == NULL || ctx == NULL ||
	    rte_pktmbuf_append(m, size) == NULL)
		goto out;
	for (unsigned int i = 0; i < size; i++)
		want[i] = rte_pktmbuf_mtod(m, uint8_t *)[i] = (uint8_t)i;
	bench_iv(0, iv);
	if (!EVP_CipherInit_ex(ctx, EVP_aes_256_xts(), NULL, key, iv, 1) ||
	    !EVP_CipherUpdate(ctx, want, &outl, want, (int)size))
		goto out;
	op->sym->m_src = m;
	if (rte_cryptodev_enqueue_burst(dev_id, 0, &op, 1) != 1)
		goto out;
	while (rte_cryptodev_dequeue_burst(dev_id, 0, &back, 1) == 0)
		;
	if (back->status == RTE_CRYPTO_OP_STATUS_SUCCESS &&
	    memcmp(rte_pktmbuf_mtod(m, uint8_t *), want, size) == 0)
		ret = 0;
out:
	op->sym->m_src = bufs[0];
	EVP_CIPHER_CTX_free(ctx);
	free(want);
	rte_pktmbuf_free(m);
	return ret;
}

static int
bench_setup(struct rte_mempool **mb_pool, void **sess)
{
	struct rte_cryptodev_config conf = {
		.socket_id = SOCKET_ID_ANY, .nb_queue_pairs = 1,
	};
	struct rte_crypto_sym_xform x = {
		.type = RTE_CRYPTO_SYM_XFORM_CIPHER,
		.cipher = {
			.op = RTE_CRYPTO_CIPHER_OP_ENCRYPT,
			.algo = RTE_CRYPTO_CIPHER_AES_XTS,
			.key = { .data = key, .length = 64 },
			.iv = { .offset = BENCH_IV_OFFSET, .length = 16 },
			.dataunit_len = 0,
		},
	};
	struct rte_cryptodev_qp_conf qp_conf = { .nb_descriptors = 2048 };
	struct rte_mempool *op_pool, *sess_pool;
	int id = rte_cryptodev_get_dev_id("mlx5_sim0");

	if (id < 0) {
		printf("no cryptodev mlx5_sim0 (crypto_mlx5 not loaded?)\n");
		return -1;
	}
	dev_id = (uint8_t)id;
	*mb_pool = rte_pktmbuf_pool_create("bench_mb", nb_bufs + 8, 0, 0,
					   size + RTE_PKTMBUF_HEADROOM, 0);
	op_pool = rte_crypto_op_pool_create("bench_ops",
		RTE_CRYPTO_OP_TYPE_SYMMETRIC, nb_bufs, 0, 16, 0);
	sess_pool = rte_cryptodev_sym_session_pool_create("bench_sess", 4,
		rte_cryptodev_sym_get_private_session_size(dev_id), 0, 0, 0);
	if (*mb_pool == NULL || op_pool == NULL || sess_pool == NULL)
		return -1;
	qp_conf.mp_session = sess_pool;
	if (rte_cryptodev_configure(dev_id, &conf) != 0 ||
	    rte_cryptodev_queue_pair_setup(dev_id, 0, &qp_conf,
					   SOCKET_ID_ANY) != 0 ||
	    rte_cryptodev_start(dev_id) != 0)
		return -1;
	*sess = rte_cryptodev_sym_session_create(dev_id, &x, sess_pool);
	if (*sess == NULL)
		return -1;
	for (unsigned int i = 0; i < nb_bufs; i++) {
		bufs[i] = rte_pktmbuf_alloc(*mb_pool);
		ops[i] = rte_crypto_op_alloc(op_pool,
					     RTE_CRYPTO_OP_TYPE_SYMMETRIC);
		if (bufs[i] == NULL || ops[i] == NULL ||
		    rte_pktmbuf_append(bufs[i], size) == NULL)
			return -1;
		memset(rte_pktmbuf_mtod(bufs[i], uint8_t *), (int)i, size);
		rte_crypto_op_attach_sym_session(ops[i], *sess);
		ops[i]->sym->m_src = bufs[i];
		ops[i]->sym->cipher.data.length = size;
		bench_iv(i, rte_crypto_op_ctod_offset(ops[i], uint8_t *,
						      BENCH_IV_OFFSET));
	}
	return 0;
}

static int
parse_args(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "ops", required_argument, NULL, 'o' },
		{ "burst", required_argument, NULL, 'b' },
		{ "runs", required_argument, NULL, 'r' },
		{ "size", required_argument, NULL, 's' },
		{ "bufs", required_argument, NULL, 'n' },
		{ "devargs", required_argument, NULL, 'd' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		unsigned long v = strtoul(optarg != NULL ? optarg : "0",
					  NULL, 0);

		switch (c) {
		case 'o': nb_ops = (unsigned int)v; break;
		case 'b': burst = (unsigned int)v; break;
		case 'r': runs = (unsigned int)v; break;
		case 's': size = (unsigned int)v; break;
		case 'n': nb_bufs = (unsigned int)v; break;
		case 'd': {
			size_t used = strlen(vdev);

			if ((size_t)snprintf(vdev + used, sizeof(vdev) - used,
					     ",%s", optarg) >= sizeof(vdev) - used) {
				printf("--devargs: too long\n");
				return -1;
			}
			break;
		}
		default: return -1;
		}
	}
	/* EAL's own option parsing starts again from the first. */
	optind = 1;
	if (nb_ops == 0 || burst == 0 || burst > BENCH_MAX_BURST ||
	    runs == 0 || runs > BENCH_MAX_RUNS || size < 16 || size % 16 != 0 ||
	    size > 60000 || nb_bufs < burst || nb_bufs > BENCH_MAX_BUFS) {
		printf("bad arguments\n");
		return -1;
	}
	return 0;
}

int
main(int argc, char **argv)
{
	char prefix[64];
	char *eal[] = {
		argv[0], "--no-huge", "-m", "512", "--no-pci", "-l", "0",
		"--file-prefix", prefix, "--log-level", "pmd.common.mlx5:warning",
		vdev,
	};
	struct rte_mempool *mb_pool;
	uint64_t pmd, evp, hz;
	double pmd_gbps, evp_gbps, ratio[3];
	void *sess = NULL;

	snprintf(prefix, sizeof(prefix), "mlx5crypto%d", (int)getpid());
	if (parse_args(argc, argv) != 0) {
		printf("setup failed\n");
		return 1;
	}
	if (rte_eal_init((int)RTE_DIM(eal), eal) < 0) {
		printf("EAL: %s\n", rte_strerror(rte_errno));
		return 1;
	}
	for (unsigned int i = 0; i < sizeof(key); i++)
		key[i] = (uint8_t)(i * 13 + 7);
	if (bench_setup(&mb_pool, &sess) != 0) {
		printf("setup failed\n");
		return 1;
	}
	if (bench_check(mb_pool) != 0) {
		printf("FAIL: the PMD's ciphertext differs from OpenSSL's\n");
		return 1;
	}
	hz = rte_get_tsc_hz();
	if (medians(&pmd, &evp, ratio) != 0) {
		printf("FAIL: an operation failed\n");
		return 1;
	}
	pmd_gbps = (double)nb_ops * size * 8 * hz / pmd / 1e9;
	evp_gbps = (double)nb_ops * size * 8 * hz / evp / 1e9;
	printf("AES-XTS-256, %u-byte buffers (a set of %u), %u ops, bursts of %u, median of %u runs\n",
	       size, nb_bufs, nb_ops, burst, runs);
	printf("crypto_mlx5 (software device): %8.2f Gbit/s %8.0f cycles/op\n",
	       pmd_gbps, (double)pmd / nb_ops);
	printf("OpenSSL EVP loop:              %8.2f Gbit/s %8.0f cycles/op\n",
	       evp_gbps, (double)evp / nb_ops);
	printf("ratio PMD/EVP: %.3f (target >= 0.9), median of the runs' own ratios %.3f (%.3f to %.3f)\n",
	       pmd_gbps / evp_gbps, ratio[0], ratio[1], ratio[2]);
	rte_cryptodev_stop(dev_id);
	rte_cryptodev_sym_session_free(dev_id, sess);
	rte_eal_cleanup();
	return 0;
}
