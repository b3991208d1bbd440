/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * Device memory access: translation of (lkey, address, length) through the
 * mkey table with the checks the hardware makes, then a copy on the
 * process's own memory. The whole range is translated before a byte moves,
 * so a failed check copies nothing; both happen under the card lock, so an
 * owner cannot destroy a key between the check and the copy. The copy runs
 * under the fault guard (mlx5_sim_mem.c): memory the application unmapped
 * or protected after registering it ends the access with a local
 * protection error, where hardware would still reach the pinned pages.
 * Bytes through a configured crypto mkey pass its AES-XTS block
 * (mlx5_sim_umr.c); an unconfigured one moves nothing.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <rte_branch_prediction.h>
#include <rte_common.h>

#include "mlx5_sim_priv.h"
#include "mlx5_sim_wqe.h"

/* Deepest chain of indirections (KLM in KLM, crossing, alias) followed. */
#define SIM_DMA_MAX_DEPTH 8
/* Segments kept inline before the list goes to the heap. */
#define SIM_DMA_INLINE_SEGS 8

/* PD check of the first key: the caller's pdn. Below it: the key's own. */
#define SIM_PDN_OWN UINT32_MAX

struct sim_dma_seg {
	uint8_t *host;
	size_t len;
};

struct sim_dma_list {
	struct sim_dma_seg *segs;
	uint32_t num;
	uint32_t cap;
	struct sim_dma_seg inl[SIM_DMA_INLINE_SEGS];
};

static int
sim_dma_push(struct sim_dma_list *list, uint8_t *host, uint64_t len)
{
	if (list->num == list->cap) {
		uint32_t cap = list->cap * 2;
		struct sim_dma_seg *segs;

		if (list->segs == list->inl) {
			segs = malloc(cap * sizeof(*segs));
			if (segs != NULL)
				memcpy(segs, list->inl, sizeof(list->inl));
		} else {
			segs = realloc(list->segs, cap * sizeof(*segs));
		}
		if (segs == NULL)
			return -ENOMEM;
		list->segs = segs;
		list->cap = cap;
	}
	list->segs[list->num].host = host;
	list->segs[list->num].len = (size_t)len;
	list->num++;
	return 0;
}

static int sim_xlate(struct mlx5_sim_vhca *vhca, uint32_t key, uint32_t pdn,
		     uint64_t addr, uint64_t len, uint32_t flags,
		     unsigned int depth, struct sim_dma_list *list);

/*
 * Split a range over a repeated block layout: offset @off of the key is
 * repetition off / block, and within it the entries in order, each at its
 * address plus the repetition times its stride.
 */
static int
sim_xlate_rb(struct mlx5_sim_vhca *vhca, const struct mlx5_sim_mkey *mkey,
	     uint64_t off, uint64_t len, uint32_t flags, unsigned int depth,
	     struct sim_dma_list *list)
{
	const struct mlx5_sim_rb *rb = mkey->rb;
	uint64_t rep = off / rb->block, in = off % rb->block;
	int ret;

	while (len > 0 && rep < rb->count) {
		uint64_t base = 0;
		uint32_t i;

		for (i = 0; i < rb->num && len > 0; i++) {
			const struct mlx5_sim_rb_entry *e = &rb->e[i];
			uint64_t chunk;

			if (in >= base + e->byte_count) {
				base += e->byte_count;
				continue;
			}
			chunk = RTE_MIN(len, base + e->byte_count - in);
			ret = sim_xlate(vhca, e->mkey, mkey->pdn,
					e->address + rep * e->stride + in - base,
					chunk, flags & ~(MLX5_SIM_XFER_REMOTE | MLX5_SIM_XFER_ATOMIC),
					depth + 1, list);
			if (ret < 0)
				return ret;
			in += chunk;
			len -= chunk;
			base += e->byte_count;
		}
		rep++;
		in = 0;
	}
	return len == 0 ? 0 : -EFAULT;
}

/* Split a range over the entries of a KLM mkey. */
static int
sim_xlate_klm(struct mlx5_sim_vhca *vhca, const struct mlx5_sim_mkey *mkey,
	      uint64_t addr, uint64_t len, uint32_t flags, unsigned int depth,
	      struct sim_dma_list *list)
{
	uint64_t off = addr - mkey->start;
	uint64_t base = 0;
	uint32_t i;
	int ret;

	if (mkey->rb != NULL)
		return sim_xlate_rb(vhca, mkey, off, len, flags, depth, list);

	for (i = 0; i < mkey->u.klm.num && len > 0; i++) {
		const struct mlx5_sim_klm_entry *e = &mkey->u.klm.entries[i];
		uint64_t in_entry, chunk;

		if (off >= base + e->byte_count) {
			base += e->byte_count;
			continue;
		}
		in_entry = off - base;
		chunk = RTE_MIN(len, (uint64_t)e->byte_count - in_entry);
		/* Each entry is a key of its own: same PD, same checks. */
		ret = sim_xlate(vhca, e->mkey, mkey->pdn, e->address + in_entry,
				chunk, flags & ~(MLX5_SIM_XFER_REMOTE | MLX5_SIM_XFER_ATOMIC), depth + 1,
				list);
		if (ret < 0)
			return ret;
		off += chunk;
		len -= chunk;
		base += e->byte_count;
	}
	/* The entries end before the range does. */
	return len == 0 ? 0 : -EFAULT;
}

/* Follow a crossing or alias key to the owner's mkey. */
static int
sim_xlate_remote(const struct mlx5_sim_vhca *vhca,
		 const struct mlx5_sim_mkey *mkey, uint64_t addr, uint64_t len,
		 uint32_t flags, unsigned int depth, struct sim_dma_list *list)
{
	const struct mlx5_sim_remote *r = mkey->kind == MLX5_SIM_MKEY_CROSSING ?
					  &mkey->r.cross.target :
					  &mkey->r.alias.target;
	struct mlx5_sim_mkey *target = mlx5_sim_remote_get(r);

	if (target == NULL)
		return -ENOENT; /* The owner destroyed it. */
	/* An alias always needs the grant; a crossing key, the owner's rule. */
	if (mkey->kind == MLX5_SIM_MKEY_ALIAS ?
	    !target->allowed || mkey->r.alias.bad_status != 0 :
	    !mlx5_sim_cross_permitted(vhca, r->vhca, target))
		return -EACCES;
	/* The crossing path carries no key; an alias carries the owner's. */
	if (mkey->kind == MLX5_SIM_MKEY_ALIAS &&
	    memcmp(target->access_key, mkey->r.alias.access_key,
		   MLX5_ACCESS_KEY_LEN) != 0)
		return -EACCES;
	/* The target's own rules apply, with its own (the owner's) PD. */
	return sim_xlate(r->vhca, target->index << 8 | target->variant,
			 SIM_PDN_OWN, addr, len, flags, depth + 1, list);
}

static int
sim_xlate(struct mlx5_sim_vhca *vhca, uint32_t key, uint32_t pdn,
	  uint64_t addr, uint64_t len, uint32_t flags, unsigned int depth,
	  struct sim_dma_list *list)
{
	bool write = flags & MLX5_SIM_XFER_WRITE;
	bool remote = flags & MLX5_SIM_XFER_REMOTE;
	struct mlx5_sim_mkey *mkey;
	uint64_t off;

	if (depth > SIM_DMA_MAX_DEPTH)
		return -EACCES;
	mkey = mlx5_sim_mkey_by_key(vhca, key);
	if (mkey == NULL)
		return -ENOENT;
	if (pdn != SIM_PDN_OWN && mkey->pdn != pdn)
		return -EACCES;
	/* A DEVX key outlives its PD (no use count): it translates nothing. */
	if (mkey->pd != NULL && !mkey->pd->alive)
		return -EACCES;
	if (mkey->free)
		return -EACCES;
	/* A crypto key ciphers only as the key a WQE names (not nested). */
	if (mkey->crypto_en && depth > 0)
		return -EACCES;
	if (mkey->kind == MLX5_SIM_MKEY_ALIAS)
		return sim_xlate_remote(vhca, mkey, addr, len, flags, depth,
					list);
	/*
	 * Rights of the key the request names: remote ones for an RDMA
	 * responder (an atomic's both ways). The entries of an indirect key
	 * are reached locally.
	 */
	if (remote ? ((flags & MLX5_SIM_XFER_ATOMIC) ? !mkey->a :
		      write ? !mkey->rw : !mkey->rr) :
	    (write ? !mkey->lw : !mkey->lr))
		return -EACCES;
	if (!mlx5_sim_range_in(mkey, addr, len))
		return -EFAULT;
	off = addr - mkey->start;
	switch (mkey->kind) {
	case MLX5_SIM_MKEY_VA:
		/* An ODP page fault on memory the process has not mapped fails. */
		if (len && mkey->odp &&
		    mlx5_sim_range_mapped((void *)(uintptr_t)addr, len) != 0)
			return -EFAULT;
		return len ? sim_dma_push(list, (uint8_t *)(uintptr_t)addr,
					  len) : 0;
	case MLX5_SIM_MKEY_MTT:
		/* A umem registered without local write is mapped read-only. */
		if (write && !(mkey->u.mtt.umem->access & IBV_ACCESS_LOCAL_WRITE))
			return -EACCES;
		return len ? sim_dma_push(list, mkey->u.mtt.umem->addr +
					  mkey->u.mtt.offset + off, len) : 0;
	case MLX5_SIM_MKEY_KLM:
		return sim_xlate_klm(vhca, mkey, addr, len, flags, depth, list);
	case MLX5_SIM_MKEY_CROSSING:
		return sim_xlate_remote(vhca, mkey, addr, len, flags, depth,
					list);
	default:
		return -EACCES;
	}
}

struct sim_dma_copy {
	const struct sim_dma_list *list;
	uint8_t *buf;
	bool to_memory;
};

static void
sim_dma_copy(void *arg)
{
	const struct sim_dma_copy *c = arg;
	uint8_t *p = c->buf;
	uint32_t i;

	for (i = 0; i < c->list->num; i++) {
		if (c->to_memory)
			memcpy(c->list->segs[i].host, p, c->list->segs[i].len);
		else
			memcpy(p, c->list->segs[i].host, c->list->segs[i].len);
		p += c->list->segs[i].len;
	}
}

/* The cipher of a move, run straight between the caller's buffer and memory. */
static void
sim_dma_cipher_fn(void *arg)
{
	struct mlx5_sim_xmove *m = arg;

	m->ret = mlx5_sim_crypto_apply(m);
}

/*
 * The copy of @c (@len bytes, > 0) through the cipher @xts of a crypto
 * mkey: the bytes pass the device's AES-XTS block (mlx5_sim_umr.c) on
 * their way. Over one memory segment the cipher reads or writes memory
 * itself (under the fault guard): the key was taken before (by
 * mlx5_sim_crypto_check(), with whole units), so the cipher does not fail
 * half way. Over several, through a buffer of the device's, so that a
 * failure leaves both sides untouched.
 */
static int
sim_dma_crypto(const struct mlx5_sim_xts *xts, const struct sim_dma_copy *c,
	       size_t len)
{
	struct sim_dma_copy dev = *c;
	struct mlx5_sim_xmove m = { .len = len, .xts = *xts };
	bool one = c->list->num == 1;
	uint8_t *mem = one ? c->list->segs[0].host : NULL;
	int ret;

	if (!one) {
		mem = malloc(len);
		if (mem == NULL)
			return -ENOMEM;
		dev.buf = mem;
	}
	m.src = c->to_memory ? c->buf : mem;
	m.dst = c->to_memory ? mem : c->buf;
	if (one) {
		ret = mlx5_sim_guarded(sim_dma_cipher_fn, &m);
		return ret != 0 ? ret : m.ret;
	}
	/* The device's buffer: the cipher unguarded, the copy guarded. */
	if (c->to_memory) {
		ret = mlx5_sim_crypto_apply(&m);
		if (ret == 0)
			ret = mlx5_sim_guarded(sim_dma_copy, &dev);
	} else {
		ret = mlx5_sim_guarded(sim_dma_copy, &dev);
		if (ret == 0)
			ret = mlx5_sim_crypto_apply(&m);
	}
	free(mem);
	return ret;
}

int
mlx5_sim_xfer(struct mlx5_sim_vhca *vhca, uint32_t key, uint32_t pdn,
	      uint64_t addr, void *buf, size_t len, uint32_t flags)
{
	const struct mlx5_sim_mkey *crypto = NULL;
	struct mlx5_sim_xts xts;
	struct sim_dma_list list = {
		.segs = list.inl,
		.cap = SIM_DMA_INLINE_SEGS,
	};
	struct sim_dma_copy copy = {
		.list = &list,
		.buf = buf,
		.to_memory = flags & MLX5_SIM_XFER_WRITE,
	};
	int ret;

	if (len > 0 && addr + len - 1 < addr)
		return -EFAULT;
	ret = sim_xlate(vhca, key, pdn, addr, len, flags, 0, &list);
	if (ret == 0) {
		crypto = mlx5_sim_mkey_by_key(vhca, key);
		if (crypto != NULL && !crypto->crypto_en)
			crypto = NULL;
		else if (crypto != NULL)
			ret = mlx5_sim_crypto_check(vhca, crypto, addr, len,
						    copy.to_memory, &xts);
	}
	if (ret == 0 && list.num > 0)
		ret = crypto == NULL ? mlx5_sim_guarded(sim_dma_copy, &copy) :
		      sim_dma_crypto(&xts, &copy, len);
	if (list.segs != list.inl)
		free(list.segs);
	if (ret < 0)
		SIM_LOG(DEBUG, "%s: %s %s key 0x%08x pdn 0x%x addr 0x%" PRIx64
			" len %zu failed: %s", vhca->ibdev.name,
			flags & MLX5_SIM_XFER_REMOTE ? "remote" : "local",
			flags & MLX5_SIM_XFER_WRITE ? "write" : "read", key,
			pdn, addr, len, strerror(-ret));
	return ret;
}

void
mlx5_sim_xcache_fill(struct mlx5_sim_vhca *vhca, struct mlx5_sim_xcache *c,
		     uint32_t key, uint32_t pdn)
{
	const struct mlx5_sim_mkey *mkey = mlx5_sim_mkey_by_key(vhca, key);

	c->gen = 0;
	if (mkey == NULL || mkey->free || mkey->pdn != pdn ||
	    mkey->crypto_en || mkey->length64 ||
	    (mkey->pd != NULL && !mkey->pd->alive) ||
	    mkey->start + mkey->len < mkey->start)
		return;
	if (mkey->kind == MLX5_SIM_MKEY_VA && !mkey->odp) {
		c->delta = (uintptr_t)mkey->start;
		c->lw = mkey->lw;
	} else if (mkey->kind == MLX5_SIM_MKEY_MTT) {
		c->delta = (uintptr_t)(mkey->u.mtt.umem->addr +
				       mkey->u.mtt.offset);
		c->lw = mkey->lw &&
			(mkey->u.mtt.umem->access & IBV_ACCESS_LOCAL_WRITE);
	} else {
		return;
	}
	c->lr = mkey->lr;
	c->key = key;
	c->pdn = pdn;
	c->delta -= (uintptr_t)mkey->start;
	c->start = mkey->start;
	c->size = mkey->len;
	c->gen = vhca->xgen;
}

int
mlx5_sim_xfer_q(struct mlx5_sim_vhca *vhca, struct mlx5_sim_xcache *xc,
		uint32_t key, uint32_t pdn, uint64_t addr, void *buf,
		size_t len, uint32_t flags)
{
	bool write = flags & MLX5_SIM_XFER_WRITE;
	uint8_t *host = NULL;
	int ret;

	if (likely(!(flags & MLX5_SIM_XFER_REMOTE)))
		host = mlx5_sim_xcache_host(vhca, xc, key, pdn, addr, len,
					    write);
	if (likely(host != NULL))
		return write ? mlx5_sim_copy_guarded(host, buf, len) :
		       mlx5_sim_copy_guarded(buf, host, len);
	ret = mlx5_sim_xfer(vhca, key, pdn, addr, buf, len, flags);
	if (ret == 0 && !(flags & MLX5_SIM_XFER_REMOTE))
		mlx5_sim_xcache_fill(vhca, &xc[(key >> 8) &
					       (MLX5_SIM_XCACHE_WAYS - 1)],
				     key, pdn);
	return ret;
}

/* sim_xlate_side() by the whole translation: 0, 1 or a negative errno. */
static __rte_noinline int
sim_xlate_side_full(struct mlx5_sim_vhca *vhca, struct mlx5_sim_xcache *c,
		    const struct mlx5_sim_xside *x, size_t len, uint8_t **host,
		    const struct mlx5_sim_mkey *crypto, struct mlx5_sim_xts *xts)
{
	struct sim_dma_list list = {
		.segs = list.inl,
		.cap = SIM_DMA_INLINE_SEGS,
	};
	int ret;

	ret = sim_xlate(vhca, x->key, x->pdn, x->addr, len, x->flags, 0,
			&list);
	if (ret == 0 && list.num != 1)
		ret = 1;
	if (ret == 0) {
		*host = list.segs[0].host;
		if (crypto != NULL)
			ret = mlx5_sim_crypto_check(vhca, crypto, x->addr, len,
					x->flags & MLX5_SIM_XFER_WRITE, xts);
		else if (c != NULL)
			mlx5_sim_xcache_fill(vhca, c, x->key, x->pdn);
	}
	if (list.segs != list.inl)
		free(list.segs);
	return ret;
}

/*
 * Side @x (@len bytes, > 0) of a memory-to-memory transfer as one host
 * range: 0 with @host (and *@crypto: whether the bytes pass the side's
 * crypto key, whose cipher is then in @xts), 1 when the side is more
 * than one segment, a negative errno when a check refused it.
 * Inline: the two cached cases (a local key of the queue's cache, a
 * crypto key a UMR configured) are the datapath of every RDMA transfer.
 */
static __rte_always_inline int
sim_xlate_side(struct mlx5_sim_vhca *vhca, struct mlx5_sim_xcache *xc,
	       const struct mlx5_sim_xside *x, uint32_t flags, size_t len,
	       uint8_t **host, bool *crypto, struct mlx5_sim_xts *xts)
{
	bool write = flags & MLX5_SIM_XFER_WRITE;
	struct mlx5_sim_xcache *c = NULL;
	const struct mlx5_sim_mkey *mkey;

	*crypto = false;
	if (xc != NULL && !(flags & MLX5_SIM_XFER_REMOTE)) {
		c = &xc[(x->key >> 8) & (MLX5_SIM_XCACHE_WAYS - 1)];
		if (mlx5_sim_xcache_hit(vhca, c, x->key, x->pdn, x->addr,
					len, write)) {
			*host = mlx5_sim_xcache_at(c, x->addr);
			return 0;
		}
	}
	mkey = mlx5_sim_mkey_by_key(vhca, x->key);
	if (mkey != NULL && mkey->crypto_en) {
		*crypto = true;
		*host = mlx5_sim_xlate_crypto_cached(vhca, mkey, x->pdn,
						     x->addr, len, flags);
		if (*host != NULL)
			return mlx5_sim_crypto_check(vhca, mkey, x->addr, len,
						     write, xts);
	} else {
		mkey = NULL;
	}
	return sim_xlate_side_full(vhca, c, x, len, host, mkey, xts);
}

/*
 * The move of @m: the one cipher or copy, under guard @g, armed (the
 * caller pushed it and takes the jump of a fault).
 */
__rte_noinline void
mlx5_sim_xmove_armed(struct mlx5_sim_guard *g, struct mlx5_sim_xmove *m)
{
	int ret = 0;

	mlx5_sim_guard_arm(g);
	if (m->xts.ctx != NULL)
		ret = mlx5_sim_crypto_apply(m);
	else if (m->src != m->dst)
		memcpy(m->dst, m->src, m->len);
	mlx5_sim_guard_disarm(g);
	m->ret = ret;
}

/* A read of one byte of each page of [p, p + len), under the guard. */
struct sim_dma_probe {
	const volatile uint8_t *p;
	size_t len;
};

static void
sim_dma_probe_fn(void *arg)
{
	const struct sim_dma_probe *r = arg;
	size_t page = mlx5_sim_page_size();
	uintptr_t a = (uintptr_t)r->p;
	uintptr_t last = a + r->len - 1;

	for (; a <= last; a = RTE_ALIGN_FLOOR(a, page) + page) {
		(void)*(const volatile uint8_t *)a;
		if (RTE_ALIGN_FLOOR(a, page) + page < a)
			break; /* The top of the address space. */
	}
}

static int
sim_dma_readable(const uint8_t *p, size_t len)
{
	struct sim_dma_probe r = { .p = p, .len = len };

	return mlx5_sim_guarded(sim_dma_probe_fn, &r);
}

bool
mlx5_sim_xmove_src_fault(const struct mlx5_sim_xmove *m)
{
	return sim_dma_readable(m->src, m->len) != 0;
}

/*
 * mlx5_sim_xfer_mem_prep() with the sides' flags @src_flags and
 * @dst_flags: inline twice, once with an RDMA WRITE's as constants.
 */
static __rte_always_inline int
sim_xfer_mem_prep(struct mlx5_sim_vhca *vhca, struct mlx5_sim_xcache *xc,
		  const struct mlx5_sim_xside *src,
		  const struct mlx5_sim_xside *dst, size_t len,
		  struct mlx5_sim_xmove *m, uint32_t src_flags,
		  uint32_t dst_flags)
{
	bool src_crypto, dst_crypto;
	uint8_t *s, *d;

	if (len == 0 || len > MLX5_SIM_DMA_MAX_LEN ||
	    src->addr + len - 1 < src->addr || dst->addr + len - 1 < dst->addr)
		return 1;
	/* Every check of both sides before a byte moves. */
	if (sim_xlate_side(vhca, xc, src, src_flags, len, &s, &src_crypto,
			   &m->xts) != 0 ||
	    sim_xlate_side(vhca, xc, dst, dst_flags, len, &d, &dst_crypto,
			   &m->xts) != 0)
		return 1;
	/* One cipher at most; in place or apart, never half over itself. */
	if ((src_crypto && dst_crypto) || mlx5_sim_half_over(s, d, len))
		return 1;
	if (!src_crypto && !dst_crypto)
		m->xts.ctx = NULL;
	m->src = s;
	m->dst = d;
	m->len = len;
	return 0;
}

int
mlx5_sim_xfer_mem_prep(struct mlx5_sim_vhca *vhca,
		       struct mlx5_sim_xcache *xc,
		       const struct mlx5_sim_xside *src,
		       const struct mlx5_sim_xside *dst, size_t len,
		       struct mlx5_sim_xmove *m)
{
	/* An RDMA WRITE: a local read, a remote write. */
	if (likely(src->flags == 0 &&
		   dst->flags == (MLX5_SIM_XFER_REMOTE | MLX5_SIM_XFER_WRITE)))
		return sim_xfer_mem_prep(vhca, xc, src, dst, len, m, 0,
					 MLX5_SIM_XFER_REMOTE |
					 MLX5_SIM_XFER_WRITE);
	return sim_xfer_mem_prep(vhca, xc, src, dst, len, m, src->flags,
				 dst->flags);
}

int
mlx5_sim_dma(struct ibv_context *ctx, uint32_t pdn, uint32_t lkey,
	     uint64_t addr, void *buf, size_t len, bool to_memory,
	     uint8_t *cqe_syndrome)
{
	struct mlx5_sim_ctx *sctx = mlx5_sim_ctx_get(ctx);
	struct mlx5_sim_vhca *vhca;
	uint8_t synd = 0;
	int ret;

	if (sctx == NULL || (buf == NULL && len > 0)) {
		ret = -EINVAL;
		goto out;
	}
	if ((uint64_t)len > MLX5_SIM_DMA_MAX_LEN) {
		synd = MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR;
		ret = -EMSGSIZE;
		goto out;
	}
	vhca = sctx->file->vhca;
	mlx5_sim_vhca_lock(vhca);
	ret = mlx5_sim_xfer(vhca, lkey, pdn, addr, buf, len,
			    to_memory ? MLX5_SIM_XFER_WRITE : 0);
	mlx5_sim_vhca_unlock(vhca);
	/*
	 * Bad key, PD, rights or range, or a page gone from under a key: a
	 * local protection error.
	 */
	if (ret < 0 && ret != -ENOMEM)
		synd = MLX5_CQE_SYNDROME_LOCAL_PROT_ERR;
out:
	if (cqe_syndrome != NULL)
		*cqe_syndrome = synd;
	if (ret < 0)
		errno = -ret;
	return ret;
}
