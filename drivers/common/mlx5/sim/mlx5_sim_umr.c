/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * UMR work requests and crypto mkeys: the engine's MLX5_OPCODE_UMR on an RC
 * QP, which rewrites an indirect mkey (its KLM list, range, rights, state)
 * and gives a crypto-enabled one its crypto BSF; and the device's AES-XTS
 * block, which mlx5_sim_xfer() runs on the bytes that go through such a
 * key. OpenSSL's libcrypto is the cipher.
 *
 * Modelled: inline KLM lists, inline repeated block layouts (a list that
 * starts with a repeat block segment, op 0x400, as rdma-core's interleaved
 * mkey layout writes it: each repetition takes every entry's bytes in
 * order, entry by entry at its address plus the repetition times its
 * stride) and one 64-byte crypto BSF (no signature BSF, no non-inline
 * lists, no memory windows; a translation offset only of 0, which a local
 * invalidation carries, the field being the BSF size's otherwise); the mask
 * bits of the range, rights, key byte, QP, free state and BSF enable. The
 * tweak rule is the one aes_xts_multi_block_le_tweak names: the BSF's
 * initial tweak is a 128-bit little-endian number (IEEE 1619's own byte
 * order), plus one per data unit. Data units start at the mkey's start
 * address; a transfer through the key starts at a unit boundary and covers
 * whole units, but for a last partial one of a multiple of 16 bytes and at
 * most the unit size less 16 (rdma-core's rule, mlx5dv_wr_set_mkey_crypto).
 * Code 0 of the data-unit size has no meaning in any public source: the
 * model refuses it; a whole operation is one data unit with a unit size at
 * least its length (the 1 MB code).
 *
 * CQE syndromes of a refused UMR. A malformed WQE (segments missing, an
 * unknown flag or mask bit, a BSF not of the crypto kind, a bad code) is
 * a local QP operation error, as for any WQE the engine cannot parse. A
 * well-formed UMR that the target or the objects it names forbid (no such
 * key, another PD, no umr_en, not free under CHECK_FREE, bound to another
 * QP under CHECK_QPN, a list longer than the key, no crypto_en, an unknown or foreign DEK, a wrong key tag)
 * completes with MLX5_CQE_SYNDROME_MW_BIND_ERR: the syndrome the kernel and
 * rdma-core turn into IB_WC_MW_BIND_ERR, whose verbs text is "memory
 * management operation error" - the status of failed registration work
 * requests (REG_MR, bind), which mlx5 executes as UMR WQEs.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>

#include <rte_branch_prediction.h>
#include <rte_byteorder.h>
#include <rte_common.h>
#if defined(RTE_ARCH_X86) && defined(__SSSE3__) && !defined(MLX5_SIM_PORTABLE)
#include <rte_vect.h>
#endif

#include "mlx5_sim_priv.h"

/* UMR control flags the model executes. */
#define SIM_UMR_FLAGS (MLX5_WQE_UMR_CTRL_FLAG_INLINE | \
		       MLX5_WQE_UMR_CTRL_FLAG_CHECK_FREE | \
		       MLX5_WQE_UMR_CTRL_FLAG_CHECK_QPN | \
		       MLX5_WQE_UMR_CTRL_FLAG_TRNSLATION_OFFSET)
/* The op word of a repeat block segment (the list's first entry). */
#define SIM_UMR_REPEAT_BLOCK_OP 0x400
/* mkey_mask bits the model applies; any other is refused as malformed. */
#define SIM_UMR_MASK ((uint64_t)MLX5_WQE_UMR_CTRL_MKEY_MASK_LEN | \
		      MLX5_WQE_UMR_CTRL_MKEY_MASK_START_ADDR | \
		      MLX5_WQE_UMR_CTRL_MKEY_MASK_BSF_ENABLE | \
		      MLX5_WQE_UMR_CTRL_MKEY_MASK_MKEY | \
		      MLX5_WQE_UMR_CTRL_MKEY_MASK_QPN | \
		      MLX5_UMR_MKEY_MASK_ACCESS_LOCAL_READ | \
		      MLX5_WQE_UMR_CTRL_MKEY_MASK_ACCESS_LOCAL_WRITE | \
		      MLX5_WQE_UMR_CTRL_MKEY_MASK_ACCESS_REMOTE_READ | \
		      MLX5_WQE_UMR_CTRL_MKEY_MASK_ACCESS_REMOTE_WRITE | \
		      MLX5_WQE_UMR_CTRL_MKEY_MASK_ACCESS_ATOMIC | \
		      MLX5_WQE_UMR_CTRL_MKEY_MASK_FREE)

/* The mask bits of the key byte, the QP and the access rights. */
#define SIM_UMR_MASK_KEY_RIGHTS ((uint64_t)MLX5_WQE_UMR_CTRL_MKEY_MASK_MKEY | \
		      MLX5_WQE_UMR_CTRL_MKEY_MASK_QPN | \
		      MLX5_UMR_MKEY_MASK_ACCESS_LOCAL_READ | \
		      MLX5_WQE_UMR_CTRL_MKEY_MASK_ACCESS_LOCAL_WRITE | \
		      MLX5_WQE_UMR_CTRL_MKEY_MASK_ACCESS_REMOTE_READ | \
		      MLX5_WQE_UMR_CTRL_MKEY_MASK_ACCESS_REMOTE_WRITE | \
		      MLX5_WQE_UMR_CTRL_MKEY_MASK_ACCESS_ATOMIC)

/* The two error kinds (see above). */
#define SIM_UMR_MALFORMED MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR
#define SIM_UMR_REFUSED MLX5_CQE_SYNDROME_MW_BIND_ERR

/*
 * Bit @bit of PRM layout @p (bit 0 is the top bit of byte 0), read from
 * its byte rather than from a byte-swapped word; a one-bit field @fld of
 * layout @typ; a byte-wide, byte-aligned field.
 */
#define SIM_PRM_BIT(p, bit) \
	((((const uint8_t *)(p))[(bit) / 8] >> (7 - (bit) % 8)) & 1)
#define SIM_PRM_FLAG(typ, p, fld) \
	(__extension__({ \
		RTE_BUILD_BUG_ON(__mlx5_bit_sz(typ, fld) != 1); \
		SIM_PRM_BIT(p, __mlx5_bit_off(typ, fld)); }))
#define SIM_PRM_BYTE(typ, p, fld) \
	(__extension__({ \
		RTE_BUILD_BUG_ON(__mlx5_bit_sz(typ, fld) != 8 || \
				 __mlx5_bit_off(typ, fld) % 8 != 0); \
		((const uint8_t *)(p))[MLX5_BYTE_OFF(typ, fld)]; }))

/* A field's bits in its 32-bit word of a crypto BSF, value @v. */
#define SIM_BSF_BITS(fld, v) \
	(((uint32_t)(v) & __mlx5_mask(crypto_bsf, fld)) << \
	 __mlx5_dw_bit_off(crypto_bsf, fld))
/*
 * The BSF's first word, one test of what is checked in it: 64 bytes, the
 * crypto kind, AES-XTS, and no encryption order above the last one (the
 * order's bits above those of the last order clear).
 */
#define SIM_BSF_W0_CHECKED (__mlx5_dw_mask(crypto_bsf, bsf_size) | \
	__mlx5_dw_mask(crypto_bsf, bsf_p_type) | \
	SIM_BSF_BITS(encryption_order, \
		     ~(uint32_t)MLX5_ENCRYPTION_ORDER_ENCRYPTED_RAW_MEMORY) | \
	__mlx5_dw_mask(crypto_bsf, encryption_standard))
#define SIM_BSF_W0_WANTED (SIM_BSF_BITS(bsf_size, MLX5_BSF_SIZE_64B) | \
	SIM_BSF_BITS(bsf_p_type, MLX5_BSF_P_TYPE_CRYPTO) | \
	SIM_BSF_BITS(encryption_standard, MLX5_ENCRYPTION_STANDARD_AES_XTS))


/* The DEK @id if it is alive and of PD @pd, else NULL. */
static inline struct mlx5_sim_dek *
sim_dek_of_pd(const struct mlx5_sim_vhca *vhca, uint32_t id,
	      const struct mlx5_sim_pd_obj *pd)
{
	struct mlx5_sim_dek *dek = likely(id < vhca->deks.size) ?
				   vhca->deks.slot[id] : NULL;

	return dek != NULL && dek->pd == pd ? dek : NULL;
}

/*
 * Check the crypto BSF for @mkey: 0 or a CQE syndrome. Its data-unit
 * size in *@data_unit.
 */
static __rte_always_inline uint8_t
sim_umr_bsf(struct mlx5_sim_vhca *vhca, const struct mlx5_sim_mkey *mkey,
	    const void *bsf, uint32_t *data_unit)
{
	const struct mlx5_sim_dek *dek;
	rte_be32_t w0;

	/* Orders 0 to 3 are those whose bits above the last's are clear. */
	RTE_BUILD_BUG_ON((MLX5_ENCRYPTION_ORDER_ENCRYPTED_RAW_MEMORY &
			  (MLX5_ENCRYPTION_ORDER_ENCRYPTED_RAW_MEMORY + 1)) != 0);
	RTE_BUILD_BUG_ON(__mlx5_dw_off(crypto_bsf, bsf_size) != 0 ||
			 __mlx5_dw_off(crypto_bsf, bsf_p_type) != 0 ||
			 __mlx5_dw_off(crypto_bsf, encryption_order) != 0 ||
			 __mlx5_dw_off(crypto_bsf, encryption_standard) != 0);
	memcpy(&w0, bsf, sizeof(w0));
	if ((w0 & rte_cpu_to_be_32(SIM_BSF_W0_CHECKED)) !=
	    rte_cpu_to_be_32(SIM_BSF_W0_WANTED))
		return SIM_UMR_MALFORMED;
	*data_unit = mlx5_crypto_block_size_bytes(
		SIM_PRM_BYTE(crypto_bsf, bsf, crypto_block_size_pointer));
	if (*data_unit == 0)
		return SIM_UMR_MALFORMED;
	if (!mkey->crypto_en)
		return SIM_UMR_REFUSED;
	dek = sim_dek_of_pd(vhca, MLX5_GET(crypto_bsf, bsf, dek_pointer),
			    mkey->pd);
	/*
	 * The key tag is not checked here but when the key is used
	 * (mlx5_sim_crypto_check()): "validated when the hardware attempts
	 * to access it", as DPDK's crypto guide has it.
	 */
	if (dek == NULL || dek->key_size > MLX5_DEK_KEY_SIZE_256)
		return SIM_UMR_REFUSED;
	return 0;
}

/* Give @mkey the crypto BSF sim_umr_bsf() took, of data unit @data_unit. */
static __rte_always_inline void
sim_umr_bsf_set(struct mlx5_sim_mkey *mkey, const void *bsf,
		uint32_t data_unit)
{
	/*
	 * Ciphertext on the memory side: orders 1 and 3 of the four
	 * sim_umr_bsf() lets through, the odd ones (the order's last bit).
	 */
	RTE_BUILD_BUG_ON(MLX5_ENCRYPTION_ORDER_ENCRYPTED_WIRE_SIGNATURE % 2 ||
		MLX5_ENCRYPTION_ORDER_ENCRYPTED_RAW_WIRE % 2 ||
		!(MLX5_ENCRYPTION_ORDER_ENCRYPTED_MEMORY_SIGNATURE % 2) ||
		!(MLX5_ENCRYPTION_ORDER_ENCRYPTED_RAW_MEMORY % 2));
	mkey->crypto.memory_encrypted = SIM_PRM_BIT(bsf,
		__mlx5_bit_off(crypto_bsf, encryption_order) +
		__mlx5_bit_sz(crypto_bsf, encryption_order) - 1);
	mkey->crypto.configured = true;
	mkey->crypto.dek_id = MLX5_GET(crypto_bsf, bsf, dek_pointer);
	mkey->crypto.keytag = MLX5_GET64(crypto_bsf, bsf, keytag);
	memcpy(mkey->crypto.tweak,
	       MLX5_ADDR_OF(crypto_bsf, bsf, xts_initial_tweak),
	       sizeof(mkey->crypto.tweak));
	mkey->crypto.data_unit = data_unit;
	mkey->crypto.raw_data_size = MLX5_GET(crypto_bsf, bsf, raw_data_size);
}

/* Check the inline KLM list for @mkey: 0 or a CQE syndrome. */
static __rte_always_inline uint8_t
sim_umr_klms(struct mlx5_sim_vhca *vhca, const struct mlx5_sim_mkey *mkey,
	     const struct mlx5_wqe_umr_klm_seg *klm, uint32_t n)
{
	uint32_t i;

	if (n > mkey->translations_octword_size)
		return SIM_UMR_REFUSED;
#pragma GCC unroll 4
	for (i = 0; i < n; i++) {
		uint32_t bc, key;
		uint64_t bc_key;
		const struct mlx5_sim_mkey *e;

		/* Padding to 64 bytes (zero in any byte order): one load. */
		RTE_BUILD_BUG_ON(offsetof(struct mlx5_wqe_umr_klm_seg, mkey) !=
				 sizeof(klm->byte_count));
		memcpy(&bc_key, &klm[i], sizeof(bc_key));
		if (bc_key == 0)
			continue;
		bc = rte_be_to_cpu_32(klm[i].byte_count);
		key = rte_be_to_cpu_32(klm[i].mkey);
		if (bc == 0)
			return SIM_UMR_MALFORMED;
		/* A key of the same PD; no crypto key under a crypto key. */
		e = mlx5_sim_mkey_by_key(vhca, key);
		if (e == NULL || e == mkey || e->pdn != mkey->pdn ||
		    e->crypto_en)
			return SIM_UMR_REFUSED;
	}
	return 0;
}

/*
 * Does the inline list of @n octowords at @seg start with a repeat block
 * segment? Its op word sits where a KLM entry has its key: also its
 * reserved half word 0, its entries within the list, a repetition and a
 * byte count that is its entries' sum, else the list is read as KLMs (a
 * KLM entry of key 0x400 whose address passes all of these too would be
 * misread; the PRM gives no other mark).
 */
static __rte_always_inline bool
sim_umr_is_rb(const void *seg, uint32_t n)
{
	const struct mlx5_wqe_umr_repeat_block_seg *rb = seg;
	uint32_t num, i, sum = 0;

	if (rb->op != RTE_BE32(SIM_UMR_REPEAT_BLOCK_OP))
		return false;
	num = rte_be_to_cpu_16(rb->num_ent);
	if (rb->reserved != 0 || num == 0 || num + 1 > n ||
	    rb->repeat_count == 0)
		return false;
	for (i = 0; i < num; i++)
		sum += rte_be_to_cpu_16(rb->entries[i].byte_count);
	return sum == rte_be_to_cpu_32(rb->byte_count);
}

/*
 * Check the repeat block and its entries (@n octowords in all) for @mkey:
 * 0 or a CQE syndrome. The entries' keys follow the KLM rules; the block's
 * byte count must be the entries' sum.
 */
static __rte_noinline uint8_t
sim_umr_rb_check(struct mlx5_sim_vhca *vhca, const struct mlx5_sim_mkey *mkey,
		 const void *seg, uint32_t n)
{
	const struct mlx5_wqe_umr_repeat_block_seg *rb = seg;
	uint32_t num = rte_be_to_cpu_16(rb->num_ent), i;
	uint64_t sum = 0;

	if (num == 0 || num + 1 > n || rb->repeat_count == 0)
		return SIM_UMR_MALFORMED;
	if (num + 1 > mkey->translations_octword_size)
		return SIM_UMR_REFUSED;
	for (i = 0; i < num; i++) {
		const struct mlx5_wqe_umr_repeat_ent_seg *e = &rb->entries[i];
		const struct mlx5_sim_mkey *k;
		uint32_t bc = rte_be_to_cpu_16(e->byte_count);

		if (bc == 0)
			return SIM_UMR_MALFORMED;
		k = mlx5_sim_mkey_by_key(vhca, rte_be_to_cpu_32(e->memkey));
		if (k == NULL || k == mkey || k->pdn != mkey->pdn ||
		    k->crypto_en)
			return SIM_UMR_REFUSED;
		sum += bc;
	}
	return sum == rte_be_to_cpu_32(rb->byte_count) ? 0 : SIM_UMR_MALFORMED;
}

/* Replace the translation of @mkey with the repeat block: 0 or -ENOMEM. */
static __rte_noinline int
sim_umr_rb_set(struct mlx5_sim_mkey *mkey, const void *seg)
{
	const struct mlx5_wqe_umr_repeat_block_seg *rb = seg;
	uint32_t num = rte_be_to_cpu_16(rb->num_ent), i;
	struct mlx5_sim_rb *to =
		malloc(sizeof(*to) + num * sizeof(struct mlx5_sim_rb_entry));

	if (to == NULL)
		return -ENOMEM;
	to->count = rte_be_to_cpu_32(rb->repeat_count);
	to->block = rte_be_to_cpu_32(rb->byte_count);
	to->num = num;
	for (i = 0; i < num; i++) {
		to->e[i].address = rte_be_to_cpu_64(rb->entries[i].va);
		to->e[i].mkey = rte_be_to_cpu_32(rb->entries[i].memkey);
		to->e[i].byte_count = rte_be_to_cpu_16(rb->entries[i].byte_count);
		to->e[i].stride = rte_be_to_cpu_16(rb->entries[i].stride);
	}
	mlx5_sim_mkey_klm_free(mkey);
	mkey->u.klm.entries = NULL;
	mkey->u.klm.num = 0;
	mkey->rb = to;
	return 0;
}

/* @to: the KLM entry @from in host byte order. */
static __rte_always_inline void
sim_klm_entry_set(struct mlx5_sim_klm_entry *to,
		  const struct mlx5_wqe_umr_klm_seg *from)
{
#if defined(RTE_ARCH_X86) && defined(__SSSE3__) && !defined(MLX5_SIM_PORTABLE)
	/* The same fields at the same offsets, each swapped: one shuffle. */
	const __m128i swap = _mm_setr_epi8(3, 2, 1, 0, 7, 6, 5, 4,
					   15, 14, 13, 12, 11, 10, 9, 8);

	RTE_BUILD_BUG_ON(sizeof(*to) != 16 || sizeof(*from) != 16 ||
		offsetof(struct mlx5_sim_klm_entry, mkey) !=
		offsetof(struct mlx5_wqe_umr_klm_seg, mkey) ||
		offsetof(struct mlx5_sim_klm_entry, address) !=
		offsetof(struct mlx5_wqe_umr_klm_seg, address) ||
		sizeof(to->byte_count) != 4 || sizeof(to->mkey) != 4);
	_mm_storeu_si128((__m128i *)(void *)to,
		_mm_shuffle_epi8(_mm_loadu_si128(
			(const __m128i *)(const void *)from), swap));
#else
	to->byte_count = rte_be_to_cpu_32(from->byte_count);
	to->mkey = rte_be_to_cpu_32(from->mkey);
	to->address = rte_be_to_cpu_64(from->address);
#endif
}

/* Replace the translation of @mkey with the list: 0 or -ENOMEM. */
static __rte_always_inline int
sim_umr_klms_set(struct mlx5_sim_mkey *mkey,
		 const struct mlx5_wqe_umr_klm_seg *klm, uint32_t n)
{
	struct mlx5_sim_klm_entry *entries = mkey->u.klm.entries;
	uint64_t pad[2];
	uint32_t i;

	/*
	 * Padding the list ends with (entries all zero) translates nothing
	 * and a query shows zeros for it either way: not kept. A crypto
	 * PMD's list of one entry, padded to 64 bytes, stays in the key.
	 */
	while (n > 1) {
		memcpy(pad, &klm[n - 1], sizeof(pad));
		if ((pad[0] | pad[1]) != 0)
			break;
		n--;
	}
	if (n == 1) {
		entries = &mkey->klm_one;
	} else if (mkey->u.klm.num != n || entries == &mkey->klm_one) {
		/* A list of the same length: in place. */
		entries = calloc(n, sizeof(*entries));
		if (entries == NULL)
			return -ENOMEM;
	}
	if (entries != mkey->u.klm.entries) {
		mlx5_sim_mkey_klm_free(mkey);
		mkey->u.klm.entries = entries;
		mkey->u.klm.num = n;
	}
#pragma GCC unroll 4
	for (i = 0; i < n; i++)
		sim_klm_entry_set(&entries[i], &klm[i]);
	return 0;
}

/* Apply the mkey context fields @mask selects. */
static __rte_always_inline void
sim_umr_mkc_set(struct mlx5_sim_mkey *mkey, const void *mkc, uint64_t mask)
{
	if (mask & MLX5_WQE_UMR_CTRL_MKEY_MASK_LEN) {
		mkey->len = MLX5_GET64(mkc, mkc, len);
		mkey->length64 = SIM_PRM_FLAG(mkc, mkc, length64);
	}
	if (mask & MLX5_WQE_UMR_CTRL_MKEY_MASK_START_ADDR)
		mkey->start = MLX5_GET64(mkc, mkc, start_addr);
	if (mask & MLX5_WQE_UMR_CTRL_MKEY_MASK_BSF_ENABLE)
		mkey->bsf_en = SIM_PRM_FLAG(mkc, mkc, bsf_en);
	if (mask & MLX5_WQE_UMR_CTRL_MKEY_MASK_FREE)
		mkey->free = SIM_PRM_FLAG(mkc, mkc, free);
	/* A UMR that sets no rights stops here; the rest, one test. */
	if (!(mask & SIM_UMR_MASK_KEY_RIGHTS))
		return;
	if (mask & MLX5_WQE_UMR_CTRL_MKEY_MASK_MKEY)
		mkey->variant = MLX5_GET(mkc, mkc, mkey_7_0);
	if (mask & MLX5_WQE_UMR_CTRL_MKEY_MASK_QPN)
		mkey->qpn = MLX5_GET(mkc, mkc, qpn);
	if (mask & MLX5_UMR_MKEY_MASK_ACCESS_LOCAL_READ)
		mkey->lr = SIM_PRM_FLAG(mkc, mkc, lr);
	if (mask & MLX5_WQE_UMR_CTRL_MKEY_MASK_ACCESS_LOCAL_WRITE)
		mkey->lw = SIM_PRM_FLAG(mkc, mkc, lw);
	if (mask & MLX5_WQE_UMR_CTRL_MKEY_MASK_ACCESS_REMOTE_READ)
		mkey->rr = SIM_PRM_FLAG(mkc, mkc, rr);
	if (mask & MLX5_WQE_UMR_CTRL_MKEY_MASK_ACCESS_REMOTE_WRITE)
		mkey->rw = SIM_PRM_FLAG(mkc, mkc, rw);
	if (mask & MLX5_WQE_UMR_CTRL_MKEY_MASK_ACCESS_ATOMIC)
		mkey->a = SIM_PRM_FLAG(mkc, mkc, a);
}

/* The target of a UMR: 0 or a CQE syndrome. */
static __rte_always_inline uint8_t
sim_umr_target(const struct mlx5_sim_qp *qp, const struct mlx5_sim_mkey *mkey,
	       uint8_t flags)
{
	if (mkey == NULL || mkey->pdn != qp->pdn ||
	    (mkey->pd != NULL && !mkey->pd->alive) || !mkey->umr_en ||
	    mkey->kind != MLX5_SIM_MKEY_KLM)
		return SIM_UMR_REFUSED;
	if ((flags & MLX5_WQE_UMR_CTRL_FLAG_CHECK_FREE) && !mkey->free)
		return SIM_UMR_REFUSED;
	/* A key bound to a QP is changed by that QP only. */
	if ((flags & MLX5_WQE_UMR_CTRL_FLAG_CHECK_QPN) &&
	    mkey->qpn != MLX5_MKC_QPN_ANY && mkey->qpn != qp->qpn)
		return SIM_UMR_REFUSED;
	return 0;
}

/*
 * The UMR WQE @wqe of @ds segments whose UMR control segment says @flags,
 * @nklm KLM and @nbsf BSF octowords and @mask: 0 or a CQE syndrome.
 * Inline twice (mlx5_sim_umr_exec()): once for any WQE, once with the
 * shape of a one-KLM UMR with a crypto BSF as constants (the most frequent
 * UMR a device sees from a crypto workload), so that it runs the same
 * checks without the loops and mask tests the constants decide.
 */
static __rte_always_inline uint8_t
sim_umr_run(struct mlx5_sim_vhca *vhca, const struct mlx5_sim_qp *qp,
	    const void *wqe, unsigned int ds, uint8_t flags, uint32_t nklm,
	    uint32_t nbsf, uint64_t mask)
{
	const struct mlx5_wqe_ctrl_seg *ctrl = wqe;
	const struct mlx5_wqe_umr_ctrl_seg *umr = (const void *)(ctrl + 1);
	const struct mlx5_wqe_mkey_context_seg *mkc = (const void *)(umr + 1);
	const struct mlx5_wqe_umr_klm_seg *klm = (const void *)(mkc + 1);
	/* Segments before the list: control, UMR control, mkey context. */
	const uint32_t fixed = (sizeof(*ctrl) + sizeof(*umr) +
				sizeof(*mkc)) / 16;
	uint32_t data_unit = 0;
	struct mlx5_sim_mkey *mkey;
	bool bsf_en, rb;
	uint8_t synd;

	/*
	 * Lists by pointer, offsets other than 0 and signature BSFs: not
	 * modelled. With a translation offset, the BSF size's field is
	 * that offset.
	 */
	if ((flags & ~SIM_UMR_FLAGS) ||
	    !(flags & MLX5_WQE_UMR_CTRL_FLAG_INLINE) ||
	    (mask & ~SIM_UMR_MASK) ||
	    (nbsf != 0 && (nbsf != MLX5_CRYPTO_BSF_OCTOWORDS ||
			   (flags & MLX5_WQE_UMR_CTRL_FLAG_TRNSLATION_OFFSET))) ||
	    fixed + nklm + nbsf > ds)
		return SIM_UMR_MALFORMED;
	mkey = mlx5_sim_mkey_by_key(vhca, rte_be_to_cpu_32(ctrl->imm));
	synd = sim_umr_target(qp, mkey, flags);
	rb = nklm != 0 && sim_umr_is_rb(klm, nklm);
	if (synd == 0)
		synd = unlikely(rb) ? sim_umr_rb_check(vhca, mkey, klm, nklm) :
				      sim_umr_klms(vhca, mkey, klm, nklm);
	if (synd == 0 && nbsf != 0)
		synd = sim_umr_bsf(vhca, mkey, klm + nklm, &data_unit);
	if (synd != 0)
		return synd;
	/* A BSF needs room in the key and the key's BSF enabled after this. */
	bsf_en = mask & MLX5_WQE_UMR_CTRL_MKEY_MASK_BSF_ENABLE ?
		 SIM_PRM_FLAG(mkc, mkc, bsf_en) : mkey->bsf_en;
	if (nbsf != 0 && (!bsf_en || nbsf > mkey->bsf_octword_size))
		return SIM_UMR_REFUSED;
	/* Everything checked: the UMR takes effect whole. */
	if (unlikely(rb)) {
		if (sim_umr_rb_set(mkey, klm) != 0)
			return SIM_UMR_MALFORMED; /* The model's memory. */
	} else if (nklm != 0) {
		if (unlikely(mkey->rb != NULL)) {
			free(mkey->rb);
			mkey->rb = NULL;
		}
		if (sim_umr_klms_set(mkey, klm, nklm) != 0)
			return SIM_UMR_MALFORMED; /* The model's memory. */
	}
	sim_umr_mkc_set(mkey, mkc, mask);
	if (nbsf != 0)
		sim_umr_bsf_set(mkey, klm + nklm, data_unit);
	mkey->umr_gen++;
	/*
	 * No bump of the vHCA's translation generation: a UMR changes an
	 * indirect key, and only direct keys are cached (struct
	 * mlx5_sim_xcache). The target's own cache of its first entry's
	 * translation is made again here (kept when the entry key is the
	 * same and nothing was invalidated since).
	 */
	if (mkey->u.klm.num == 0) /* No list (none, or a repeat block). */
		mkey->klm_xc.gen = 0;
	else if (mkey->klm_xc.gen != vhca->xgen ||
		 mkey->klm_xc.key != mkey->u.klm.entries[0].mkey)
		mlx5_sim_xcache_fill(vhca, &mkey->klm_xc,
				     mkey->u.klm.entries[0].mkey, mkey->pdn);
	/* The first UMR of a key only: a key may take one per operation. */
	if (unlikely(mkey->umr_gen == 1) &&
	    mlx5_sim_log_enabled(MLX5_SIM_LOG_DEBUG))
		SIM_LOG(DEBUG, "%s: QP 0x%x: first UMR on mkey index 0x%x%s",
			vhca->ibdev.name, qp->qpn, mkey->index,
			nbsf != 0 ? ", crypto BSF" : "");
	return 0;
}

/* A one-entry KLM list, padded to 64 bytes: its octowords. */
#define SIM_UMR_KLM_ONE_OCTOWORDS 4
/* The mask of a one-KLM UMR with a crypto BSF: length, start, free, BSF. */
#define SIM_UMR_CRYPTO_MASK ((uint64_t)MLX5_WQE_UMR_CTRL_MKEY_MASK_LEN | \
			     MLX5_WQE_UMR_CTRL_MKEY_MASK_START_ADDR | \
			     MLX5_WQE_UMR_CTRL_MKEY_MASK_FREE | \
			     MLX5_WQE_UMR_CTRL_MKEY_MASK_BSF_ENABLE)
/*
 * The first 8 bytes of a UMR control segment as a big-endian number: the
 * flags (its top byte), three reserved bytes, the KLM and BSF octowords
 * (its low 16-bit halves, at these offsets); the bits of the three fields,
 * and their values in an inline one-KLM UMR with a crypto BSF.
 */
#define SIM_UMR_HEAD_KLM 4
#define SIM_UMR_HEAD_BSF 6
#define SIM_UMR_HEAD_CHECKED UINT64_C(0xff000000ffffffff)
#define SIM_UMR_CRYPTO_HEAD \
	((uint64_t)MLX5_WQE_UMR_CTRL_FLAG_INLINE << 56 | \
	 (uint64_t)SIM_UMR_KLM_ONE_OCTOWORDS << 16 | MLX5_CRYPTO_BSF_OCTOWORDS)

uint8_t
mlx5_sim_umr_exec(struct mlx5_sim_vhca *vhca, const struct mlx5_sim_qp *qp,
		  const void *wqe, unsigned int ds)
{
	const struct mlx5_wqe_ctrl_seg *ctrl = wqe;
	const struct mlx5_wqe_umr_ctrl_seg *umr = (const void *)(ctrl + 1);
	uint64_t head, mask;

	/*
	 * The UMR control segment is in the WQE's first block, which a WQE
	 * always has: read before the size check (sim_umr_run()'s, that of
	 * the segments this one counts).
	 */
	RTE_BUILD_BUG_ON(sizeof(*ctrl) + offsetof(struct mlx5_wqe_umr_ctrl_seg,
			 mkey_mask) + sizeof(umr->mkey_mask) > MLX5_SIM_WQEBB);
	/* Its flags and both counts (no reserved byte) in one load. */
	RTE_BUILD_BUG_ON(offsetof(struct mlx5_wqe_umr_ctrl_seg,
				  klm_octowords) != SIM_UMR_HEAD_KLM ||
			 offsetof(struct mlx5_wqe_umr_ctrl_seg,
				  bsf_octowords) != SIM_UMR_HEAD_BSF);
	memcpy(&head, umr, sizeof(head));
	memcpy(&mask, &umr->mkey_mask, sizeof(mask));
	/* One KLM entry (padded) and a crypto BSF: the constants' copy. */
	if (likely((head & rte_cpu_to_be_64(SIM_UMR_HEAD_CHECKED)) ==
		   rte_cpu_to_be_64(SIM_UMR_CRYPTO_HEAD) &&
		   mask == rte_cpu_to_be_64(SIM_UMR_CRYPTO_MASK)))
		return sim_umr_run(vhca, qp, wqe, ds,
				   MLX5_WQE_UMR_CTRL_FLAG_INLINE,
				   SIM_UMR_KLM_ONE_OCTOWORDS,
				   MLX5_CRYPTO_BSF_OCTOWORDS, SIM_UMR_CRYPTO_MASK);
	return sim_umr_run(vhca, qp, wqe, ds, umr->flags,
			   rte_be_to_cpu_16(umr->klm_octowords),
			   rte_be_to_cpu_16(umr->bsf_octowords),
			   rte_be_to_cpu_64(mask));
}

/* Add @n to the little-endian 128-bit tweak @t. */
static inline void
sim_tweak_add(uint8_t *t, uint64_t n)
{
	uint64_t lo, hi;

	memcpy(&lo, t, sizeof(lo));
	memcpy(&hi, t + sizeof(lo), sizeof(hi));
	lo = rte_le_to_cpu_64(lo);
	hi = rte_le_to_cpu_64(hi);
	lo += n;
	hi += lo < n;
	lo = rte_cpu_to_le_64(lo);
	hi = rte_cpu_to_le_64(hi);
	memcpy(t, &lo, sizeof(lo));
	memcpy(t + sizeof(lo), &hi, sizeof(hi));
}

/* AES-ECB of the @len-byte @key, direction @enc, no padding; or NULL. */
static EVP_CIPHER_CTX *
sim_ecb_new(const uint8_t *key, size_t len, int enc)
{
	EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();

	if (ctx == NULL ||
	    !EVP_CipherInit_ex(ctx, len == 32 ? EVP_aes_256_ecb() :
			       EVP_aes_128_ecb(), NULL, key, NULL, enc) ||
	    !EVP_CIPHER_CTX_set_padding(ctx, 0)) {
		EVP_CIPHER_CTX_free(ctx);
		return NULL;
	}
	return ctx;
}

/*
 * The cipher: the DEK's own contexts, one per direction, made at its first
 * use and freed with it (mlx5_sim_dek_cipher_free()), so that the key
 * schedule is made once per key, not once per transfer (the model's speed
 * only). The card lock, held, serializes their use. A refused key is
 * tried again at the next use.
 *
 * OpenSSL's XTS refuses to encrypt with a key pair whose halves are equal
 * (FIPS 140's rule for XTS keys); IEEE 1619 does not forbid it (its
 * vector 1 has one), and the device takes it: DPDK's wrapped-key test
 * vectors have one. For such a key the model runs XTS itself over AES-ECB
 * (sim_xts_ecb()), both ways.
 */
void *
mlx5_sim_dek_xts(struct mlx5_sim_vhca *vhca, struct mlx5_sim_dek *dek,
		 int enc)
{
	size_t half = mlx5_sim_xts_pair_len(dek->key_size) / 2;
	EVP_CIPHER_CTX *ctx = dek->xts[enc];

	if (ctx != NULL)
		return ctx;
	if (memcmp(dek->key, dek->key + half, half) == 0) {
		if (dek->xts_tweak == NULL)
			dek->xts_tweak = sim_ecb_new(dek->key + half, half, 1);
		ctx = dek->xts_tweak != NULL ?
		      sim_ecb_new(dek->key, half, enc) : NULL;
	} else {
		ctx = EVP_CIPHER_CTX_new();
		if (ctx != NULL &&
		    !EVP_CipherInit_ex(ctx, half == 32 ? EVP_aes_256_xts() :
				       EVP_aes_128_xts(), NULL, dek->key, NULL,
				       enc)) {
			EVP_CIPHER_CTX_free(ctx);
			ctx = NULL;
		}
	}
	if (ctx == NULL) {
		SIM_LOG(DEBUG, "%s: AES-XTS refused the key of DEK 0x%x",
			vhca->ibdev.name, dek->id);
		return NULL;
	}
	dek->xts[enc] = ctx;
	return ctx;
}

void
mlx5_sim_dek_cipher_free(struct mlx5_sim_dek *dek)
{
	unsigned int i;

	/* The key schedules are wiped with them. */
	for (i = 0; i < RTE_DIM(dek->xts); i++) {
		EVP_CIPHER_CTX_free(dek->xts[i]);
		dek->xts[i] = NULL;
	}
	EVP_CIPHER_CTX_free(dek->xts_tweak);
	dek->xts_tweak = NULL;
}

/* Multiply the little-endian 128-bit XTS tweak @t by x in GF(2^128). */
static inline void
sim_tweak_double(uint8_t *t)
{
	uint64_t lo, hi, carry;

	memcpy(&lo, t, sizeof(lo));
	memcpy(&hi, t + sizeof(lo), sizeof(hi));
	lo = rte_le_to_cpu_64(lo);
	hi = rte_le_to_cpu_64(hi);
	carry = hi >> 63;
	hi = hi << 1 | lo >> 63;
	lo = lo << 1 ^ (carry * 0x87);
	lo = rte_cpu_to_le_64(lo);
	hi = rte_cpu_to_le_64(hi);
	memcpy(t, &lo, sizeof(lo));
	memcpy(t + sizeof(lo), &hi, sizeof(hi));
}

/* Bytes the model's XTS ciphers in one ECB call. */
#define SIM_XTS_ECB_CHUNK 1024

/* One XTS block: @in masked with @t before and after key 1 into @out. */
static int
sim_xts_block(const struct mlx5_sim_xts *x, const uint8_t *t,
	      const uint8_t *in, uint8_t *out)
{
	uint8_t b[MLX5_CRYPTO_XTS_TWEAK_LEN];
	int outl = 0;
	size_t i;

	for (i = 0; i < sizeof(b); i++)
		b[i] = in[i] ^ t[i];
	if (!EVP_CipherUpdate(x->ctx, b, &outl, b, sizeof(b)) ||
	    outl != (int)sizeof(b))
		return -EACCES;
	for (i = 0; i < sizeof(b); i++)
		out[i] = b[i] ^ t[i];
	explicit_bzero(b, sizeof(b));
	return 0;
}

/*
 * XTS (IEEE 1619) of one data unit of @len bytes (at least 16) with tweak
 * @tweak, over the AES-ECB contexts of @x: the tweak enciphered with key
 * 2, each block masked with it before and after key 1, the mask doubled a
 * block; a last partial block by ciphertext stealing (a 520-byte unit
 * ends with 8 bytes). @in and @out may be the same.
 */
static int
sim_xts_ecb(const struct mlx5_sim_xts *x, const uint8_t *tweak,
	    const uint8_t *in, uint8_t *out, size_t len)
{
	uint8_t mask[SIM_XTS_ECB_CHUNK], buf[SIM_XTS_ECB_CHUNK];
	uint8_t t[MLX5_CRYPTO_XTS_TWEAK_LEN], t2[MLX5_CRYPTO_XTS_TWEAK_LEN];
	uint8_t pp[MLX5_CRYPTO_XTS_TWEAK_LEN], cc[MLX5_CRYPTO_XTS_TWEAK_LEN];
	size_t r = len % sizeof(t);
	/* The blocks ciphered plainly: all, or all but the last two. */
	size_t whole = len - r - (r != 0 ? sizeof(t) : 0);
	size_t pos, b, n, i;
	int outl = 0, ret = -EACCES;

	if (len < sizeof(t) ||
	    !EVP_EncryptUpdate(x->tctx, t, &outl, tweak, sizeof(t)) ||
	    outl != (int)sizeof(t))
		return -EACCES;
	for (pos = 0; pos < whole; pos += n) {
		n = RTE_MIN(whole - pos, sizeof(buf));
		for (b = 0; b < n; b += sizeof(t)) {
			memcpy(mask + b, t, sizeof(t));
			for (i = 0; i < sizeof(t); i++)
				buf[b + i] = in[pos + b + i] ^ t[i];
			sim_tweak_double(t);
		}
		if (!EVP_CipherUpdate(x->ctx, buf, &outl, buf, (int)n) ||
		    outl != (int)n)
			goto out;
		for (b = 0; b < n; b++)
			out[pos + b] = buf[b] ^ mask[b];
	}
	ret = 0;
	if (r == 0)
		goto out;
	/* t is the last whole block's tweak, t2 the partial block's. */
	memcpy(t2, t, sizeof(t));
	sim_tweak_double(t2);
	in += whole;
	out += whole;
	if (x->enc) {
		ret = sim_xts_block(x, t, in, cc);
		memcpy(pp, in + sizeof(t), r);
		memcpy(pp + r, cc + r, sizeof(t) - r);
		memcpy(out + sizeof(t), cc, r);
		ret = ret != 0 ? ret : sim_xts_block(x, t2, pp, out);
	} else {
		ret = sim_xts_block(x, t2, in, pp);
		memcpy(cc, in + sizeof(t), r);
		memcpy(cc + r, pp + r, sizeof(t) - r);
		memcpy(out + sizeof(t), pp, r);
		ret = ret != 0 ? ret : sim_xts_block(x, t, cc, out);
	}
out:
	/* Plaintext and masks leave no copy on the stack. */
	explicit_bzero(buf, sizeof(buf));
	explicit_bzero(mask, sizeof(mask));
	explicit_bzero(pp, sizeof(pp));
	explicit_bzero(cc, sizeof(cc));
	return ret;
}

/*
 * mlx5_sim_crypto_apply() over several data units, or from a unit after
 * the key's first: each unit with its own tweak.
 */
static __rte_noinline int
sim_xts_units(const struct mlx5_sim_xts *x, const uint8_t *in, uint8_t *out,
	      size_t len)
{
	EVP_CIPHER_CTX *ctx = x->ctx;
	uint32_t dus = x->data_unit;
	uint8_t tweak[MLX5_CRYPTO_XTS_TWEAK_LEN];
	size_t off;

	memcpy(tweak, x->tweak, sizeof(tweak));
	sim_tweak_add(tweak, x->unit);
	for (off = 0; off < len; off += dus) {
		int n = (int)RTE_MIN((size_t)dus, len - off);
		int outl = 0;

		if (off != 0)
			sim_tweak_add(tweak, 1);
		if (x->tctx != NULL) {
			if (sim_xts_ecb(x, tweak, in + off, out + off,
					(size_t)n) != 0)
				return -EACCES;
			continue;
		}
		if (!EVP_CipherInit_ex(ctx, NULL, NULL, NULL, tweak, x->enc) ||
		    !EVP_CipherUpdate(ctx, out + off, &outl, in + off, n) ||
		    outl != n)
			return -EACCES;
	}
	return 0;
}

int
mlx5_sim_crypto_apply(const struct mlx5_sim_xmove *m)
{
	int outl = 0;

	/*
	 * The whole move one data unit from the key's start (a crypto
	 * PMD's): the key's tweak as it is, no copy, no loop.
	 */
	if (unlikely(m->xts.unit != 0 || m->len > m->xts.data_unit ||
		     m->xts.tctx != NULL))
		return sim_xts_units(&m->xts, m->src, m->dst, m->len);
	if (!EVP_CipherInit_ex(m->xts.ctx, NULL, NULL, NULL, m->xts.tweak,
			       m->xts.enc) ||
	    !EVP_CipherUpdate(m->xts.ctx, m->dst, &outl, m->src,
			      (int)m->len) ||
	    outl != (int)m->len)
		return -EACCES;
	return 0;
}
