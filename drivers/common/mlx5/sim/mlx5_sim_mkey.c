/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * Memory keys: the mkey table of a vHCA, CREATE_MKEY / QUERY_MKEY /
 * DESTROY_MKEY (MTT over a umem, KLM indirect, crossing to another vHCA)
 * and mlx5dv_create_mkey / mlx5dv_destroy_mkey.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>

#include "mlx5_sim_priv.h"

/* Flags mlx5dv_create_mkey knows (rdma-core v44). */
#define SIM_DV_MKEY_FLAGS (MLX5DV_MKEY_INIT_ATTR_FLAGS_INDIRECT | \
			   MLX5DV_MKEY_INIT_ATTR_FLAGS_BLOCK_SIGNATURE | \
			   MLX5DV_MKEY_INIT_ATTR_FLAGS_CRYPTO | \
			   MLX5DV_MKEY_INIT_ATTR_FLAGS_UPDATE_TAG | \
			   MLX5DV_MKEY_INIT_ATTR_FLAGS_REMOTE_INVALIDATE)

/* Make room for one more slot in the table (card lock held). */
static int
sim_mkey_table_grow(struct mlx5_sim_vhca *vhca)
{
	uint32_t slots = vhca->mkey_slots ? vhca->mkey_slots * 2 : 64;
	struct mlx5_sim_mkey **table;

	if (slots > MLX5_SIM_MKEY_TABLE_SIZE(vhca))
		slots = MLX5_SIM_MKEY_TABLE_SIZE(vhca);
	if (slots <= vhca->mkey_slots)
		return -ENOSPC;
	table = realloc(vhca->mkeys, slots * sizeof(*table));
	if (table == NULL)
		return -ENOMEM;
	memset(table + vhca->mkey_slots, 0,
	       (slots - vhca->mkey_slots) * sizeof(*table));
	vhca->mkeys = table;
	vhca->mkey_slots = slots;
	return 0;
}

bool
mlx5_sim_mkey_table_full(const struct mlx5_sim_vhca *vhca)
{
	/* Index 0 is never handed out: key 0 is never valid. */
	return vhca->mkey_count >= MLX5_SIM_MKEY_TABLE_SIZE(vhca) - 1;
}

/*
 * A free index of the table, 0 if none: a moving cursor, the next free
 * index after the last one handed out, wrapping once. The index just
 * freed comes back only when no other is free, so a stale key meets
 * another mkey's index or variant rather than its old object, as on a
 * device whose firmware does not hand the last index out again at once.
 */
static uint32_t
sim_mkey_free_index(const struct mlx5_sim_vhca *vhca)
{
	uint32_t start = RTE_MAX(vhca->mkey_hint, 1u), index;

	for (index = start; index < vhca->mkey_slots; index++)
		if (vhca->mkeys[index] == NULL)
			return index;
	for (index = 1; index < start && index < vhca->mkey_slots; index++)
		if (vhca->mkeys[index] == NULL)
			return index;
	return 0;
}

uint32_t
mlx5_sim_mkey_alloc(struct mlx5_sim_vhca *vhca, struct mlx5_sim_mkey **out)
{
	struct mlx5_sim_mkey *mkey;
	uint32_t index;
	void *mem;

	if (mlx5_sim_mkey_table_full(vhca))
		return MLX5_SIM_SYND_MKEY_TABLE_FULL;
	index = sim_mkey_free_index(vhca);
	if (index == 0) {
		index = vhca->mkey_slots ? vhca->mkey_slots : 1;
		if (sim_mkey_table_grow(vhca) < 0)
			return MLX5_SIM_SYND_MKEY_TABLE_FULL;
	}
	/* The hot fields (struct mlx5_sim_mkey) in the first three lines. */
	RTE_BUILD_BUG_ON(offsetof(struct mlx5_sim_mkey, klm_xc) +
			 sizeof(mkey->klm_xc) > 3 * MLX5_SIM_MKEY_ALIGN);
	if (vhca->mkey_spare != NULL) {
		mem = vhca->mkey_spare;
		vhca->mkey_spare = vhca->mkey_spare->spare_next;
	} else if (posix_memalign(&mem, MLX5_SIM_MKEY_ALIGN,
				  sizeof(*mkey)) != 0) {
		return MLX5_SIM_SYND_MKEY_TABLE_FULL;
	}
	mkey = memset(mem, 0, sizeof(*mkey));
	mkey->index = index;
	mkey->serial = vhca->next_serial++;
	vhca->mkeys[index] = mkey;
	vhca->mkey_count++;
	vhca->mkey_hint = index + 1;
	*out = mkey;
	return MLX5_SIM_SYND_OK;
}

bool
mlx5_sim_cross_permitted(const struct mlx5_sim_vhca *importer,
			 const struct mlx5_sim_vhca *owner,
			 const struct mlx5_sim_mkey *target)
{
	if (importer == owner)
		return true;
	if ((owner->caps.cross_rule & MLX5_SIM_CROSS_GRANT) && !target->allowed)
		return false;
	return !(owner->caps.cross_rule & MLX5_SIM_CROSS_MARK) ||
	       target->crossed_side;
}

struct mlx5_sim_mkey *
mlx5_sim_remote_get(const struct mlx5_sim_remote *r)
{
	struct mlx5_sim_mkey *mkey = mlx5_sim_mkey_at(r->vhca, r->index);

	return mkey != NULL && mkey->serial == r->serial ? mkey : NULL;
}

void
mlx5_sim_mkey_klm_free(struct mlx5_sim_mkey *mkey)
{
	if (mkey->u.klm.entries != &mkey->klm_one)
		free(mkey->u.klm.entries);
	free(mkey->rb);
	mkey->rb = NULL;
}

void
mlx5_sim_mkey_release(struct mlx5_sim_vhca *vhca, struct mlx5_sim_mkey *mkey)
{
	mlx5_sim_xgen_bump(vhca);
	switch (mkey->origin) {
	case MLX5_SIM_ORIGIN_MR:
		vhca->live.mrs--;
		break;
	case MLX5_SIM_ORIGIN_ALIAS:
		vhca->live.general_objs--;
		break;
	default:
		vhca->live.mkeys--;
		break;
	}
	/* The grant goes with the key: crossing/alias users see it gone. */
	if (mkey->allowed)
		vhca->live.allowed--;
	if (mkey->pd != NULL) {
		mkey->pd->users--;
		if (mkey->origin == MLX5_SIM_ORIGIN_MR ||
		    mkey->origin == MLX5_SIM_ORIGIN_DV ||
		    mkey->origin == MLX5_SIM_ORIGIN_MW)
			mkey->pd->verbs_users--;
	}
	if (mkey->kind == MLX5_SIM_MKEY_MTT)
		mkey->u.mtt.umem->users--;
	else if (mkey->kind == MLX5_SIM_MKEY_KLM)
		mlx5_sim_mkey_klm_free(mkey);
	vhca->mkeys[mkey->index] = NULL;
	vhca->mkey_count--;
	if (MLX5_SIM_MKEY_SPARE) {
		mkey->spare_next = vhca->mkey_spare;
		vhca->mkey_spare = mkey;
	} else {
		free(mkey);
	}
}

void
mlx5_sim_mkey_spare_free(struct mlx5_sim_vhca *vhca)
{
	while (vhca->mkey_spare != NULL) {
		struct mlx5_sim_mkey *mkey = vhca->mkey_spare;

		vhca->mkey_spare = mkey->spare_next;
		free(mkey);
	}
}

void
mlx5_sim_mkey_reclaim(struct mlx5_sim_vhca *vhca, struct mlx5_sim_mkey *mkey)
{
	vhca->reclaimed += mkey->allowed ? 2 : 1;
	mlx5_sim_mkey_release(vhca, mkey);
}

/* Validate the translation part of an MTT mkey. */
static uint32_t
sim_mkey_check_mtt(struct mlx5_sim_file *file, const void *in, uint64_t len,
		   struct mlx5_sim_umem **umem_out, uint64_t *offset)
{
	struct mlx5_sim_umem *umem;
	uint64_t off;

	if (!MLX5_GET(create_mkey_in, in, mkey_umem_valid))
		return MLX5_SIM_SYND_MKEY_MTT_NO_UMEM;
	umem = mlx5_sim_umem_find(file->vhca,
				  MLX5_GET(create_mkey_in, in, mkey_umem_id));
	if (umem == NULL)
		return MLX5_SIM_SYND_MKEY_UMEM_UNKNOWN;
	if (umem->file != file)
		return MLX5_SIM_SYND_MKEY_UMEM_FOREIGN;
	off = MLX5_GET64(create_mkey_in, in, mkey_umem_offset);
	if (off > umem->size || len > umem->size - off)
		return MLX5_SIM_SYND_MKEY_UMEM_RANGE;
	*umem_out = umem;
	*offset = off;
	return MLX5_SIM_SYND_OK;
}

/* KSM entities up to 2^31 bytes: what a KLM entry's byte count holds. */
#define SIM_KSM_MAX_LOG_ENTITY 31

/*
 * Validate and copy the entries of an indirect mkey: KLM entries of their
 * own byte count, or KSM entries (same layout, byte count reserved) of
 * 2^log_page_size bytes each, stored as KLM entries of that size. An entry
 * of mkey 0 and byte count 0 is padding (lists padded to a multiple of 4,
 * as DPDK does) and translates nothing.
 */
static uint32_t
sim_mkey_check_klm(struct mlx5_sim_file *file, const void *in, size_t inlen,
		   bool is_free, bool ksm,
		   struct mlx5_sim_klm_entry **entries_out, uint32_t *num_out)
{
	const void *mkc = MLX5_ADDR_OF(create_mkey_in, in,
				       memory_key_mkey_entry);
	uint32_t size = MLX5_GET(mkc, mkc, translations_octword_size);
	uint32_t num = MLX5_GET(create_mkey_in, in,
				translations_octword_actual_size);
	const uint8_t *klm = MLX5_ADDR_OF(create_mkey_in, in, klm_pas_mtt);
	uint32_t log_entity = MLX5_GET(mkc, mkc, log_page_size);
	struct mlx5_sim_klm_entry *entries;
	uint32_t i;

	if (ksm && log_entity > SIM_KSM_MAX_LOG_ENTITY)
		return MLX5_SIM_SYND_MKEY_KSM_ENTITY;
	if (size > MLX5_SIM_MAX_KLM_ENTRIES || num > MLX5_SIM_MAX_KLM_ENTRIES)
		return MLX5_SIM_SYND_MKEY_KLM_TOO_MANY;
	if (num > size)
		return MLX5_SIM_SYND_MKEY_KLM_COUNT;
	if (num == 0) {
		*entries_out = NULL;
		*num_out = 0;
		return is_free ? MLX5_SIM_SYND_OK : MLX5_SIM_SYND_MKEY_KLM_EMPTY;
	}
	if (inlen < MLX5_ST_SZ_BYTES(create_mkey_in) +
		    (size_t)num * MLX5_ST_SZ_BYTES(klm))
		return MLX5_SIM_SYND_IN_LEN;
	for (i = 0; i < num; i++) {
		const void *e = klm + (size_t)i * MLX5_ST_SZ_BYTES(klm);
		uint32_t key = MLX5_GET(klm, e, mkey);

		if (!ksm && key == 0 && MLX5_GET(klm, e, byte_count) == 0)
			continue; /* Padding. */
		if (!ksm && MLX5_GET(klm, e, byte_count) == 0)
			return MLX5_SIM_SYND_MKEY_KLM_ENTRY_LEN;
		if (mlx5_sim_mkey_by_key(file->vhca, key) == NULL)
			return MLX5_SIM_SYND_MKEY_KLM_ENTRY_MKEY;
	}
	entries = calloc(num, sizeof(*entries));
	if (entries == NULL)
		return MLX5_SIM_SYND_MKEY_TABLE_FULL; /* Out of device memory. */
	for (i = 0; i < num; i++) {
		const void *e = klm + (size_t)i * MLX5_ST_SZ_BYTES(klm);

		entries[i].byte_count = ksm ? UINT32_C(1) << log_entity :
				       MLX5_GET(klm, e, byte_count);
		entries[i].mkey = MLX5_GET(klm, e, mkey);
		entries[i].address = MLX5_GET64(klm, e, address);
	}
	*entries_out = entries;
	*num_out = num;
	return MLX5_SIM_SYND_OK;
}

/* Validate a crossing mkey: the target must be offered to other vHCAs. */
static uint32_t
sim_mkey_check_crossing(struct mlx5_sim_file *file, const void *mkc,
			uint64_t start, bool is_free,
			struct mlx5_sim_remote *target)
{
	struct mlx5_sim_vhca *vhca = file->vhca;
	struct mlx5_sim_vhca *owner;
	struct mlx5_sim_mkey *tmkey;

	if (!mlx5_sim_vhca_crossing(vhca))
		return MLX5_SIM_SYND_MKEY_CROSS_CAP;
	if (is_free)
		return MLX5_SIM_SYND_MKEY_CROSS_FREE;
	if (start != 0)
		return MLX5_SIM_SYND_MKEY_CROSS_START;
	owner = mlx5_sim_card_vhca(vhca->card,
				   MLX5_GET(mkc, mkc, crossing_target_vhca_id));
	if (owner == NULL)
		return MLX5_SIM_SYND_MKEY_CROSS_VHCA;
	/* In CROSSING mode translations_octword_size carries the target. */
	tmkey = mlx5_sim_mkey_by_key(owner,
				     MLX5_GET(mkc, mkc,
					      translations_octword_size));
	if (tmkey == NULL)
		return MLX5_SIM_SYND_MKEY_CROSS_TARGET;
	if (owner != vhca) {
		if ((owner->caps.cross_rule & MLX5_SIM_CROSS_GRANT) &&
		    !tmkey->allowed)
			return MLX5_SIM_SYND_MKEY_CROSS_NOT_ALLOWED;
		if ((owner->caps.cross_rule & MLX5_SIM_CROSS_MARK) &&
		    !tmkey->crossed_side)
			return MLX5_SIM_SYND_MKEY_CROSS_NOT_MARKED;
	}
	target->vhca = owner;
	target->index = tmkey->index;
	target->serial = tmkey->serial;
	return MLX5_SIM_SYND_OK;
}

uint32_t
mlx5_sim_cmd_create_mkey(struct mlx5_sim_file *file, const void *in,
			 size_t inlen, void *out, struct mlx5_sim_devx_obj *obj)
{
	const void *mkc = MLX5_ADDR_OF(create_mkey_in, in,
				       memory_key_mkey_entry);
	struct mlx5_sim_vhca *vhca = file->vhca;
	uint32_t mode = MLX5_GET(mkc, mkc, access_mode_1_0) |
			MLX5_GET(mkc, mkc, access_mode_4_2) << 2;
	bool is_free = MLX5_GET(mkc, mkc, free);
	uint64_t start = MLX5_GET64(mkc, mkc, start_addr);
	bool length64 = MLX5_GET(mkc, mkc, length64);
	uint64_t len = length64 ? 0 : MLX5_GET64(mkc, mkc, len);
	struct mlx5_sim_klm_entry *entries = NULL;
	struct mlx5_sim_remote target = { NULL, 0, 0 };
	struct mlx5_sim_umem *umem = NULL;
	struct mlx5_sim_pd_obj *pd;
	struct mlx5_sim_file *pd_owner = NULL;
	struct mlx5_sim_mkey *mkey;
	uint64_t umem_offset = 0;
	uint32_t num = 0;
	uint32_t synd;

	if (mode != MLX5_MKC_ACCESS_MODE_MTT &&
	    mode != MLX5_MKC_ACCESS_MODE_KLM &&
	    mode != MLX5_MKC_ACCESS_MODE_KSM &&
	    mode != MLX5_MKC_ACCESS_MODE_CROSSING)
		return MLX5_SIM_SYND_MKEY_ACCESS_MODE;
	/*
	 * The kernel sets mkey_umem_valid for every mode but KLM/KSM; for a
	 * crossing mkey firmware ignores it (UCX creates them through DEVX).
	 * For KLM/KSM, whose entries come from the mailbox, it is refused: an
	 * assumption, as the kernel's care to leave it clear suggests.
	 */
	if ((mode == MLX5_MKC_ACCESS_MODE_KLM ||
	     mode == MLX5_MKC_ACCESS_MODE_KSM) &&
	    MLX5_GET(create_mkey_in, in, mkey_umem_valid))
		return MLX5_SIM_SYND_MKEY_UMEM_NOT_MTT;
	pd = mlx5_sim_pd_find(vhca, MLX5_GET(mkc, mkc, pd), &pd_owner);
	if (pd == NULL)
		return MLX5_SIM_SYND_MKEY_PD_UNKNOWN;
	if (pd_owner != file)
		return MLX5_SIM_SYND_MKEY_PD_FOREIGN;
	/* No umem spans 2^64 bytes. */
	if (length64 && mode == MLX5_MKC_ACCESS_MODE_MTT)
		return MLX5_SIM_SYND_MKEY_LENGTH64;
	/*
	 * A key of no length maps nothing: refused, but for one a UMR is to
	 * configure (umr_en), which DPDK's own crypto PMD creates so, of
	 * length 0, before its first UMR (mlx5_crypto_indirect_mkeys_prepare,
	 * on real firmware).
	 */
	if (!is_free && !length64 && len == 0 && !MLX5_GET(mkc, mkc, umr_en))
		return MLX5_SIM_SYND_MKEY_LEN_ZERO;
	if (len != 0 && start + len - 1 < start)
		return MLX5_SIM_SYND_MKEY_RANGE_WRAP;
	switch (mode) {
	case MLX5_MKC_ACCESS_MODE_MTT:
		synd = sim_mkey_check_mtt(file, in, len, &umem, &umem_offset);
		break;
	case MLX5_MKC_ACCESS_MODE_KLM:
	case MLX5_MKC_ACCESS_MODE_KSM:
		synd = sim_mkey_check_klm(file, in, inlen, is_free,
					  mode == MLX5_MKC_ACCESS_MODE_KSM,
					  &entries, &num);
		break;
	default:
		synd = sim_mkey_check_crossing(file, mkc, start, is_free,
					       &target);
		break;
	}
	if (synd != MLX5_SIM_SYND_OK)
		return synd;
	synd = mlx5_sim_mkey_alloc(vhca, &mkey);
	if (synd != MLX5_SIM_SYND_OK) {
		free(entries);
		return synd;
	}
	mkey->origin = MLX5_SIM_ORIGIN_DEVX;
	mkey->access_mode = mode;
	mkey->variant = MLX5_GET(mkc, mkc, mkey_7_0);
	mkey->file = file;
	mkey->pd = pd;
	mkey->pdn = pd->pdn;
	mkey->free = is_free;
	mkey->umr_en = MLX5_GET(mkc, mkc, umr_en);
	mkey->a = MLX5_GET(mkc, mkc, a);
	mkey->rw = MLX5_GET(mkc, mkc, rw);
	mkey->rr = MLX5_GET(mkc, mkc, rr);
	mkey->lw = MLX5_GET(mkc, mkc, lw);
	mkey->lr = MLX5_GET(mkc, mkc, lr);
	mkey->en_rinval = MLX5_GET(mkc, mkc, en_rinval);
	mkey->crossed_side = MLX5_GET(mkc, mkc, crossed_side_mkey);
	mkey->crypto_en = MLX5_GET(mkc, mkc, crypto_en);
	mkey->bsf_en = MLX5_GET(mkc, mkc, bsf_en);
	mkey->bsf_octword_size = MLX5_GET(mkc, mkc, bsf_octword_size);
	mkey->log_page_size = MLX5_GET(mkc, mkc, log_page_size);
	mkey->qpn = MLX5_GET(mkc, mkc, qpn);
	mkey->start = start;
	mkey->len = len;
	mkey->length64 = length64;
	mkey->translations_octword_size =
		MLX5_GET(mkc, mkc, translations_octword_size);
	switch (mode) {
	case MLX5_MKC_ACCESS_MODE_MTT:
		mkey->kind = MLX5_SIM_MKEY_MTT;
		mkey->u.mtt.umem = umem;
		mkey->u.mtt.offset = umem_offset;
		umem->users++;
		break;
	case MLX5_MKC_ACCESS_MODE_KLM:
	case MLX5_MKC_ACCESS_MODE_KSM:
		/* A KSM list is a KLM list of equal entries. */
		mkey->kind = MLX5_SIM_MKEY_KLM;
		if (num == 1) { /* In the key. */
			mkey->klm_one = entries[0];
			free(entries);
			entries = &mkey->klm_one;
		}
		mkey->u.klm.entries = entries;
		mkey->u.klm.num = num;
		break;
	default:
		mkey->kind = MLX5_SIM_MKEY_CROSSING;
		mkey->r.cross.target = target;
		mkey->r.cross.vhca_id = target.vhca->vhca_id;
		mkey->r.cross.key = mkey->translations_octword_size;
		break;
	}
	pd->users++;
	vhca->live.mkeys++;
	MLX5_SET(create_mkey_out, out, mkey_index, mkey->index);
	obj->kind = MLX5_SIM_OBJ_MKEY;
	obj->index = mkey->index;
	obj->serial = mkey->serial;
	return MLX5_SIM_SYND_OK;
}

/* Find the mkey a QUERY/DESTROY_MKEY names. */
static uint32_t
sim_mkey_lookup_index(struct mlx5_sim_vhca *vhca, uint32_t index,
		      struct mlx5_sim_mkey **mkey)
{
	if (index >= MLX5_SIM_MKEY_TABLE_SIZE(vhca))
		return MLX5_SIM_SYND_MKEY_INDEX_RANGE;
	*mkey = mlx5_sim_mkey_at(vhca, index);
	return *mkey != NULL ? MLX5_SIM_SYND_OK :
			       MLX5_SIM_SYND_MKEY_INDEX_UNKNOWN;
}

uint32_t
mlx5_sim_cmd_query_mkey(struct mlx5_sim_file *file, const void *in,
			void *out, size_t outlen)
{
	void *mkc = MLX5_ADDR_OF(query_mkey_out, out, memory_key_mkey_entry);
	struct mlx5_sim_mkey *mkey;
	uint32_t synd;
	uint32_t i;

	synd = sim_mkey_lookup_index(file->vhca,
				     MLX5_GET(query_mkey_in, in, mkey_index),
				     &mkey);
	if (synd != MLX5_SIM_SYND_OK)
		return synd;
	MLX5_SET(mkc, mkc, free, mkey->free);
	MLX5_SET(mkc, mkc, access_mode_1_0, mkey->access_mode & 0x3);
	MLX5_SET(mkc, mkc, access_mode_4_2, mkey->access_mode >> 2);
	MLX5_SET(mkc, mkc, umr_en, mkey->umr_en);
	MLX5_SET(mkc, mkc, a, mkey->a);
	MLX5_SET(mkc, mkc, rw, mkey->rw);
	MLX5_SET(mkc, mkc, rr, mkey->rr);
	MLX5_SET(mkc, mkc, lw, mkey->lw);
	MLX5_SET(mkc, mkc, lr, mkey->lr);
	MLX5_SET(mkc, mkc, qpn, mkey->qpn);
	MLX5_SET(mkc, mkc, mkey_7_0, mkey->variant);
	MLX5_SET(mkc, mkc, en_rinval, mkey->en_rinval);
	MLX5_SET(mkc, mkc, pd, mkey->pdn);
	MLX5_SET64(mkc, mkc, start_addr, mkey->start);
	MLX5_SET64(mkc, mkc, len, mkey->len);
	MLX5_SET(mkc, mkc, length64, mkey->length64);
	MLX5_SET(mkc, mkc, translations_octword_size,
		 mkey->translations_octword_size);
	if (mkey->kind == MLX5_SIM_MKEY_CROSSING)
		MLX5_SET(mkc, mkc, crossing_target_vhca_id,
			 mkey->r.cross.vhca_id);
	MLX5_SET(mkc, mkc, log_page_size, mkey->log_page_size);
	MLX5_SET(mkc, mkc, crypto_en, mkey->crypto_en);
	/* The first two KLM entries, when the mailbox has room for them. */
	if (mkey->kind != MLX5_SIM_MKEY_KLM)
		return MLX5_SIM_SYND_OK;
	for (i = 0; i < RTE_MIN(mkey->u.klm.num, 2u); i++) {
		void *e = i == 0 ?
			MLX5_ADDR_OF(query_mkey_out, out, bsf0_klm0_pas_mtt0_1) :
			MLX5_ADDR_OF(query_mkey_out, out, bsf1_klm1_pas_mtt2_3);

		if ((size_t)((uint8_t *)e - (uint8_t *)out) +
		    MLX5_ST_SZ_BYTES(klm) > outlen)
			break;
		MLX5_SET(klm, e, byte_count, mkey->u.klm.entries[i].byte_count);
		MLX5_SET(klm, e, mkey, mkey->u.klm.entries[i].mkey);
		MLX5_SET64(klm, e, address, mkey->u.klm.entries[i].address);
	}
	return MLX5_SIM_SYND_OK;
}

uint32_t
mlx5_sim_cmd_destroy_mkey(struct mlx5_sim_file *file, const void *in)
{
	struct mlx5_sim_mkey *mkey;
	uint32_t synd;

	synd = sim_mkey_lookup_index(file->vhca,
				     MLX5_GET(destroy_mkey_in, in, mkey_index),
				     &mkey);
	if (synd != MLX5_SIM_SYND_OK)
		return synd;
	mlx5_sim_mkey_release(file->vhca, mkey);
	return MLX5_SIM_SYND_OK;
}

int
mlx5_sim_verbs_mkey_create(struct mlx5_sim_pd *spd,
			   enum mlx5_sim_mkey_origin origin, uint32_t rule,
			   struct mlx5_sim_mkey **out)
{
	struct mlx5_sim_file *file = spd->obj->file;
	struct mlx5_sim_vhca *vhca = file->vhca;
	struct mlx5_sim_mkey *mkey = NULL;
	int err;

	mlx5_sim_vhca_lock(vhca);
	if (!spd->obj->alive) {
		mlx5_sim_vhca_unlock(vhca);
		return EINVAL;
	}
	if (rule == MLX5_SIM_SYND_OK && mlx5_sim_mkey_table_full(vhca))
		rule = MLX5_SIM_SYND_MKEY_TABLE_FULL;
	err = mlx5_sim_cmd_kernel(vhca, MLX5_CMD_OP_CREATE_MKEY, rule);
	if (err == 0 && mlx5_sim_mkey_alloc(vhca, &mkey) != MLX5_SIM_SYND_OK)
		err = ENOMEM; /* The model's own memory, not a device rule. */
	if (err != 0) {
		mlx5_sim_vhca_unlock(vhca);
		return err;
	}
	mkey->origin = origin;
	/* rdma-core's mlx5dv_create_mkey() leaves the key byte 0. */
	mkey->variant = origin == MLX5_SIM_ORIGIN_DV ? 0 :
			vhca->next_variant++;
	mkey->file = file;
	mkey->pd = spd->obj;
	mkey->pdn = spd->obj->pdn;
	mkey->lr = true; /* Local read is implicit in verbs. */
	mkey->qpn = MLX5_MKC_QPN_ANY;
	spd->obj->users++;
	spd->obj->verbs_users++;
	*out = mkey;
	return 0;
}

int
mlx5_sim_verbs_mkey_destroy(struct mlx5_sim_vhca *vhca, uint32_t index,
			    uint64_t serial)
{
	struct mlx5_sim_mkey *mkey;
	int err;

	mlx5_sim_vhca_lock(vhca);
	err = mlx5_sim_cmd_kernel(vhca, MLX5_CMD_OP_DESTROY_MKEY,
				  MLX5_SIM_SYND_OK);
	if (err != 0) {
		mlx5_sim_vhca_unlock(vhca);
		return err;
	}
	/* Gone already if its file was reclaimed meanwhile. */
	mkey = mlx5_sim_mkey_at(vhca, index);
	if (mkey != NULL && mkey->serial == serial)
		mlx5_sim_mkey_release(vhca, mkey);
	return 0;
}

/*
 * A free KLM key of @spd that a UMR fills later (an mlx5dv mkey or a
 * memory window), of @entries translation octowords, tracked for its
 * file's reclaim: its handle, the key in *@out, the vHCA lock held; NULL
 * with errno.
 */
static struct mlx5_sim_dv_mkey *
sim_dvmk_new(struct mlx5_sim_pd *spd, enum mlx5_sim_mkey_origin origin,
	     uint32_t rule, uint32_t entries, struct mlx5_sim_mkey **out)
{
	struct mlx5_sim_file *file = spd->obj->file;
	struct mlx5_sim_dv_mkey *dvmk = calloc(1, sizeof(*dvmk));
	struct mlx5_sim_mkey *mkey = NULL;
	int ret;

	if (dvmk == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	ret = mlx5_sim_verbs_mkey_create(spd, origin, rule, &mkey);
	if (ret != 0) {
		free(dvmk);
		errno = ret;
		return NULL;
	}
	mkey->kind = MLX5_SIM_MKEY_KLM;
	mkey->access_mode = MLX5_MKC_ACCESS_MODE_KLM;
	mkey->free = true;
	mkey->umr_en = true;
	mkey->translations_octword_size = entries;
	file->vhca->live.mkeys++;
	dvmk->num_desc = entries;
	dvmk->magic = MLX5_SIM_MAGIC_DVMK;
	dvmk->file = file;
	dvmk->index = mkey->index;
	dvmk->serial = mkey->serial;
	TAILQ_INSERT_TAIL(&file->dv_mkeys, dvmk, next);
	*out = mkey;
	return dvmk;
}

struct mlx5dv_mkey *
mlx5_sim_dv_create_mkey(struct mlx5dv_mkey_init_attr *attr)
{
	struct mlx5_sim_dv_mkey *dvmk;
	struct mlx5_sim_vhca *vhca;
	struct mlx5_sim_file *file;
	struct mlx5_sim_mkey *mkey = NULL;
	struct mlx5_sim_pd *spd;
	uint32_t flags, rule = MLX5_SIM_SYND_OK;
	uint16_t entries;

	spd = attr != NULL ? mlx5_sim_pd_get(attr->pd) : NULL;
	if (spd == NULL) {
		errno = EINVAL;
		return NULL;
	}
	file = spd->obj->file;
	vhca = file->vhca;
	flags = attr->create_flags;
	/*
	 * rdma-core: flags 0 or an unknown bit, or BLOCK_SIGNATURE without
	 * signature offload, is EOPNOTSUPP; INDIRECT is not required (any
	 * known flag makes a KLM mkey).
	 */
	if (flags == 0 || (flags & ~SIM_DV_MKEY_FLAGS) ||
	    ((flags & MLX5DV_MKEY_INIT_ATTR_FLAGS_BLOCK_SIGNATURE) &&
	     !vhca->caps.signature)) {
		errno = EOPNOTSUPP;
		return NULL;
	}
	/* It is a DEVX CREATE_MKEY underneath: the kernel wants DEVX. */
	if (!file->devx) {
		errno = EINVAL;
		return NULL;
	}
	/*
	 * Rounded up to a multiple of 4 in the 16 bits rdma-core keeps it in:
	 * 65533..65535 wrap to 0, and 0 goes to the device as is.
	 */
	entries = (uint16_t)RTE_ALIGN_CEIL((uint32_t)attr->max_entries, 4u);
	/* The device judges what it cannot do. */
	if ((flags & MLX5DV_MKEY_INIT_ATTR_FLAGS_CRYPTO) && !vhca->caps.crypto)
		rule = MLX5_SIM_SYND_MKEY_CRYPTO_CAP;
	else if ((flags & MLX5DV_MKEY_INIT_ATTR_FLAGS_UPDATE_TAG) &&
		 !vhca->caps.update_tag)
		rule = MLX5_SIM_SYND_MKEY_UPDATE_TAG_CAP;
	dvmk = sim_dvmk_new(spd, MLX5_SIM_ORIGIN_DV, rule, entries, &mkey);
	if (dvmk == NULL)
		return NULL;
	mkey->dv_flags = flags;
	mkey->en_rinval =
		!!(flags & MLX5DV_MKEY_INIT_ATTR_FLAGS_REMOTE_INVALIDATE);
	mkey->crypto_en = !!(flags & MLX5DV_MKEY_INIT_ATTR_FLAGS_CRYPTO);
	/* rdma-core reserves a 64-byte BSF each for signature and crypto. */
	mkey->bsf_octword_size =
		(flags & MLX5DV_MKEY_INIT_ATTR_FLAGS_CRYPTO ? 4 : 0) +
		(flags & MLX5DV_MKEY_INIT_ATTR_FLAGS_BLOCK_SIGNATURE ? 4 : 0);
	mkey->bsf_en = mkey->bsf_octword_size != 0;
	dvmk->dv.lkey = mkey->index << 8 | mkey->variant;
	dvmk->dv.rkey = dvmk->dv.lkey;
	mlx5_sim_vhca_unlock(vhca);
	attr->max_entries = (uint16_t)entries;
	return &dvmk->dv;
}

/* Destroy the key of @dvmk (an mlx5dv mkey or a window). */
static int
sim_dvmk_destroy(struct mlx5_sim_dv_mkey *dvmk)
{
	struct mlx5_sim_vhca *vhca;
	int err;

	if (dvmk->magic != MLX5_SIM_MAGIC_DVMK)
		return EINVAL;
	vhca = dvmk->file->vhca;
	err = mlx5_sim_verbs_mkey_destroy(vhca, dvmk->index, dvmk->serial);
	if (err != 0)
		return err;
	TAILQ_REMOVE(&dvmk->file->dv_mkeys, dvmk, next);
	mlx5_sim_vhca_unlock(vhca);
	dvmk->magic = MLX5_SIM_MAGIC_DEAD;
	free(dvmk);
	return 0;
}

uint32_t
mlx5_sim_dv_mkey_entries(const struct mlx5dv_mkey *dv)
{
	const struct mlx5_sim_dv_mkey *dvmk =
		dv != NULL ?
			(const struct mlx5_sim_dv_mkey *)(const void *)((
				const uint8_t *)dv -
				offsetof(struct mlx5_sim_dv_mkey, dv)) :
			NULL;

	return dvmk != NULL && dvmk->magic == MLX5_SIM_MAGIC_DVMK ?
		       dvmk->num_desc :
		       0;
}

int
mlx5_sim_dv_destroy_mkey(struct mlx5dv_mkey *dv)
{
	return dv != NULL ?
		       sim_dvmk_destroy(MLX5_SIM_OF(dv, struct mlx5_sim_dv_mkey,
						    dv)) :
		       EINVAL;
}

struct ibv_mw *
mlx5_sim_alloc_mw(struct ibv_pd *pd, enum ibv_mw_type type)
{
	struct mlx5_sim_pd *spd = mlx5_sim_pd_get(pd);
	struct mlx5_sim_dv_mkey *dvmk;
	struct mlx5_sim_mkey *mkey = NULL;

	if (spd == NULL || (type != IBV_MW_TYPE_1 && type != IBV_MW_TYPE_2)) {
		errno = EINVAL;
		return NULL;
	}
	/*
	 * mlx5_ib's window: a free KLM key a UMR binds (one entry, padded
	 * to 4), of any QP until a type 2 bind names one; type 2 may be
	 * invalidated remotely.
	 */
	dvmk = sim_dvmk_new(spd, MLX5_SIM_ORIGIN_MW, MLX5_SIM_SYND_OK, 4,
			    &mkey);
	if (dvmk == NULL)
		return NULL;
	mkey->en_rinval = type == IBV_MW_TYPE_2;
	dvmk->mw.context = pd->context;
	dvmk->mw.pd = pd;
	dvmk->mw.rkey = mkey->index << 8 | mkey->variant;
	dvmk->mw.handle = mkey->index;
	dvmk->mw.type = type;
	mlx5_sim_vhca_unlock(spd->obj->file->vhca);
	return &dvmk->mw;
}

int
mlx5_sim_dealloc_mw(struct ibv_mw *mw)
{
	return mw != NULL ?
		       sim_dvmk_destroy(MLX5_SIM_OF(mw, struct mlx5_sim_dv_mkey,
						    mw)) :
		       EINVAL;
}

bool
mlx5_sim_rkey_qp_ok(struct mlx5_sim_vhca *vhca, uint32_t key, uint32_t qpn)
{
	const struct mlx5_sim_mkey *mkey = mlx5_sim_mkey_by_key(vhca, key);

	return mkey == NULL || mkey->origin != MLX5_SIM_ORIGIN_MW ||
	       mkey->qpn == MLX5_MKC_QPN_ANY || mkey->qpn == qpn;
}
