/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * Internal model of the software device, shared by the sim/ files: the
 * functions of each file, declared by file. The types are in per-family
 * headers, each on the one before: mlx5_sim_base.h (includes, macros,
 * limits), mlx5_sim_types_caps.h, _mem.h (PDs, umems, UARs, keys),
 * _queue.h (CQs, QPs, SQs, RQs, RQTs, TIRs, DEKs) and _vhca.h (contexts,
 * files, ports, steering, the vHCA and its card).
 *
 * The model is the hardware (kernel + firmware): it includes no driver
 * header and calls no driver function (test/check-sim-model.sh, run by
 * the test command, enforces it). It speaks the PRM (mlx5_prm*.h) and
 * rdma-core's types; the vdev bus driver and the backend operations table
 * that connect it to the common layer are the adapter beside it
 * (mlx5_sim_vdev.c, mlx5_sim_adapter.h).
 *
 * Locking: the registry lock guards the card table, the list of every vHCA
 * and the list of every open "uverbs file". One lock per card guards the
 * state of all the vHCAs of that card (objects, tables, counters, fault
 * setting): cross-vHCA commands and DMA through crossing/alias keys read the
 * owner and the importer together, and a card is the unit of cross-vHCA
 * access, so one lock per card gives them a consistent view without lock
 * ordering between vHCAs. Order: registry lock, then card lock.
 *
 * Lifetime: cards and vHCAs are never freed. Objects belong to a file (the
 * model of a uverbs file, identified by the inode of a memfd) and are
 * reclaimed when the last context of the file closes. Links that cross vHCAs
 * (crossing and alias keys) hold (vHCA, mkey index, serial), never a pointer
 * to the target object, so a destroyed target is detected, never dereferenced.
 */

#ifndef MLX5_SIM_PRIV_H_
#define MLX5_SIM_PRIV_H_

/* The types, by family; each header includes the ones it builds on. */
#include "mlx5_sim_types_vhca.h"

/* Registry (mlx5_sim_card.c). */
void mlx5_sim_registry_lock(void);
void mlx5_sim_registry_unlock(void);
/* Lock/unlock the card of a vHCA. */
void mlx5_sim_vhca_lock(struct mlx5_sim_vhca *vhca);
void mlx5_sim_vhca_unlock(struct mlx5_sim_vhca *vhca);
/* The vHCA @vhca_id of card @card_id, or NULL (no lock held). */
struct mlx5_sim_vhca *mlx5_sim_vhca_find(uint16_t card_id, uint16_t vhca_id);
/* Find a vHCA of a card (card lock held). */
struct mlx5_sim_vhca *mlx5_sim_card_vhca(struct mlx5_sim_card *card,
					 uint16_t vhca_id);
/* The vHCA of a sim ibv_device, or NULL (registry lock not held). */
struct mlx5_sim_vhca *mlx5_sim_vhca_of_device(struct ibv_device *dev);
/* Create a vHCA, or find it and check its capabilities. */
int mlx5_sim_vhca_get(uint16_t card, uint16_t vhca_id,
		      const struct mlx5_sim_caps *caps, uint32_t caps_given,
		      struct mlx5_sim_vhca **vhca);
/*
 * Give a vHCA the name and sysfs path the host's kernel gave its RDMA
 * device (the rdma-core front: mlx5_0 under its host tree); -ENAMETOOLONG.
 */
int mlx5_sim_vhca_ibdev_set(struct mlx5_sim_vhca *vhca, const char *name,
			    const char *ibdev_path);
/*
 * The vHCA's node GUID and its card's system image GUID (host order):
 * Mellanox's OUI, then card and vHCA (the card's: vHCA bits all set).
 */
uint64_t mlx5_sim_vhca_guid(const struct mlx5_sim_vhca *vhca);
uint64_t mlx5_sim_card_guid(const struct mlx5_sim_vhca *vhca);
/* The permanent MAC address of a vHCA's vport (mlx5_sim_eth.c). */
void mlx5_sim_vhca_mac(const struct mlx5_sim_vhca *vhca, uint8_t mac[6]);
/*
 * The MAC a link-local GID carries in its EUI-64 interface id (false: not
 * such a GID), and the link-local GID of a MAC (RoCE's default GIDs).
 */
bool mlx5_sim_gid_mac(const uint8_t gid[16], uint8_t mac[6]);
void mlx5_sim_mac_gid(const uint8_t mac[6], uint8_t gid[16]);
/*
 * The GID table the kernel keeps in the device: each index holds the
 * link-local GID; even indexes are RoCE v1 entries, odd ones RoCE v2 (as
 * mlx5_ib adds both types for each address).
 */
bool mlx5_sim_gid_v2(uint32_t index);
/*
 * RoCE's MTU in bytes (256 to 4096) over an Ethernet MTU: the largest IB
 * MTU within it once the RoCE headers are taken off (96 bytes, as the
 * kernel's iboe_get_mtu takes them); 0 if none fits.
 */
uint32_t mlx5_sim_roce_mtu(uint32_t eth_mtu);
/* Call @fn on every vHCA of the process (registry lock held). */
void mlx5_sim_vhca_foreach(void (*fn)(struct mlx5_sim_vhca *vhca, void *arg),
			   void *arg);
/* Replace the fault setting of a vHCA. */
void mlx5_sim_vhca_fault_arm(struct mlx5_sim_vhca *vhca,
			     const struct mlx5_sim_fault *fault);
/* Wipe the secrets of @caps (the crypto_kek and crypto_credential). */
void mlx5_sim_caps_wipe(struct mlx5_sim_caps *caps);
/* Bits of caps_given: which capability devargs a probe named. */
enum {
	MLX5_SIM_CAP_HCA_CAP_2 = RTE_BIT32(0),
	MLX5_SIM_CAP_CROSSING = RTE_BIT32(1),
	MLX5_SIM_CAP_PACING = RTE_BIT32(2),
	MLX5_SIM_CAP_PP_TABLE_SIZE = RTE_BIT32(3),
	MLX5_SIM_CAP_PP_MIN_RATE = RTE_BIT32(4),
	MLX5_SIM_CAP_PP_MAX_RATE = RTE_BIT32(5),
	MLX5_SIM_CAP_UPDATE_TAG = RTE_BIT32(6),
	MLX5_SIM_CAP_CRYPTO = RTE_BIT32(7),
	MLX5_SIM_CAP_ODP = RTE_BIT32(8),
	MLX5_SIM_CAP_PP_UID = RTE_BIT32(9),
	MLX5_SIM_CAP_SIGNATURE = RTE_BIT32(10),
	MLX5_SIM_CAP_CROSS_RULE = RTE_BIT32(11),
	MLX5_SIM_CAP_ALIAS_STATUS = RTE_BIT32(12),
	MLX5_SIM_CAP_PORTS = RTE_BIT32(13),
	MLX5_SIM_CAP_WIRE1 = RTE_BIT32(14),
	MLX5_SIM_CAP_WIRE2 = RTE_BIT32(15),
	MLX5_SIM_CAP_PACE_CLOCK = RTE_BIT32(16),
	MLX5_SIM_CAP_SPEED = RTE_BIT32(17),
	MLX5_SIM_CAP_DEVICE_ID = RTE_BIT32(18),
	MLX5_SIM_CAP_DM_SIZE = RTE_BIT32(19),
	MLX5_SIM_CAP_LOG_MAX_MKEY = RTE_BIT32(20),
	MLX5_SIM_CAP_CRYPTO_KEK = RTE_BIT32(21),
	MLX5_SIM_CAP_CRYPTO_CREDENTIAL = RTE_BIT32(22),
	MLX5_SIM_CAP_CQE_COMP = RTE_BIT32(23),
	MLX5_SIM_CAP_EMPW = RTE_BIT32(24),
	/* Those whose values are never logged. */
	MLX5_SIM_CAP_SECRETS = MLX5_SIM_CAP_CRYPTO_KEK |
			       MLX5_SIM_CAP_CRYPTO_CREDENTIAL,
};

/*
 * The shape of a vHCA (mlx5_sim_shape.c): what the key=value settings of
 * one probe or host entry say (mlx5_sim_shape_keys[] lists the keys).
 */
struct mlx5_sim_shape {
	uint16_t card;
	bool vhca_id_set;
	uint16_t vhca_id;
	struct mlx5_sim_caps caps;
	uint32_t caps_given;        /* MLX5_SIM_CAP_* keys present. */
	bool fail_cmd_set;
	uint16_t fail_cmd;
	bool fail_nth_set;
	uint32_t fail_nth;
	bool fail_status_set;
	uint8_t fail_status;
};

extern const char *const mlx5_sim_shape_keys[];
/* The defaults: card 0, every capability, one port. */
void mlx5_sim_shape_init(struct mlx5_sim_shape *sh);
/* One key; -EINVAL (logged) for an unknown key or a bad value. */
int mlx5_sim_shape_set(struct mlx5_sim_shape *sh, const char *key,
		       const char *value);
/* "key=value,key=value": each as mlx5_sim_shape_set(). */
int mlx5_sim_shape_parse(struct mlx5_sim_shape *sh, const char *text);
/* Create the vHCA (or check it against an existing one), arm its fault. */
int mlx5_sim_shape_apply(const struct mlx5_sim_shape *sh,
			 struct mlx5_sim_vhca **vhca);
/* Effective cross-vHCA capability. */
static inline bool
mlx5_sim_vhca_crossing(const struct mlx5_sim_vhca *vhca)
{
	return vhca->caps.hca_cap_2 && vhca->caps.crossing;
}

/* Commands (mlx5_sim_card.c): accounting, faults, syndromes, names. */
uint32_t mlx5_sim_cmd_start(struct mlx5_sim_vhca *vhca, uint16_t opcode,
			    uint8_t *status);
uint8_t mlx5_sim_cmd_finish(struct mlx5_sim_vhca *vhca, uint16_t opcode,
			    uint32_t syndrome, uint8_t status);
uint8_t mlx5_sim_syndrome_status(uint32_t syndrome);
/* The kernel's errno of a command status (0 for OK). */
int mlx5_sim_status_errno(uint8_t status);
/*
 * One command the kernel issues for a verbs-style call, vHCA lock held:
 * counted, refused by an injected fault or else by @rule (a syndrome of the
 * device's rules, MLX5_SIM_SYND_OK to accept), logged when refused.
 * Returns 0, or the kernel's errno of the status (no mailbox).
 */
int mlx5_sim_cmd_kernel(struct mlx5_sim_vhca *vhca, uint16_t opcode,
			uint32_t rule);
const char *mlx5_sim_opcode_name(uint16_t opcode);
int mlx5_sim_opcode_parse(const char *name, uint16_t *opcode);
const char *mlx5_sim_status_name(uint8_t status);
int mlx5_sim_status_parse(const char *name, uint8_t *status);

/* Contexts and files (mlx5_sim_ctx.c). */
struct mlx5_sim_ctx *mlx5_sim_ctx_get(struct ibv_context *ctx);
struct mlx5_sim_pd *mlx5_sim_pd_get(struct ibv_pd *pd);
struct mlx5_sim_pd_obj *mlx5_sim_pd_find(struct mlx5_sim_vhca *vhca,
					 uint32_t pdn,
					 struct mlx5_sim_file **owner);
struct mlx5_sim_umem *mlx5_sim_umem_find(struct mlx5_sim_vhca *vhca,
					 uint32_t umem_id);

/* The process's memory as the device sees it (mlx5_sim_mem.c). */
size_t mlx5_sim_page_size(void);
/* DEVX ALLOC_PD and the DEALLOC_PD of its destroy (mlx5_sim_ctx.c). */
uint32_t mlx5_sim_cmd_alloc_pd(struct mlx5_sim_file *file, void *out,
			       struct mlx5_sim_devx_obj *obj);
uint32_t mlx5_sim_cmd_dealloc_pd(struct mlx5_sim_file *file, const void *in);
/* 0 if [addr, addr + len) is mapped in the process, else a positive errno. */
int mlx5_sim_range_mapped(const void *addr, size_t len);
/*
 * 0 if the kernel would pin [addr, addr + len) for a registration: every
 * page mapped and readable, and writable when @write. EFAULT otherwise.
 */
int mlx5_sim_range_pinnable(const void *addr, size_t len, bool write);
/* Install the fault guard of device accesses (once): 0 or -EFAULT. */
int mlx5_sim_guard_init(void);
/*
 * Run @fn(@arg), a copy on the process's memory, under the fault guard:
 * 0, or -EFAULT if it faulted (it may have copied part). @fn must touch
 * nothing but the memory it copies.
 */
int mlx5_sim_guarded(void (*fn)(void *arg), void *arg);
/*
 * memcpy() under the fault guard, for the device's own reads and writes of
 * application memory (rings, doorbell records): 0 or -EFAULT.
 */
int mlx5_sim_copy_guarded(void *dst, const void *src, size_t len);
/*
 * A 32-bit load with acquire order from software's memory (4-byte
 * aligned: a doorbell record that software writes as the device reads
 * it), guarded as mlx5_sim_copy_guarded(): 0 or -EFAULT.
 */
int mlx5_sim_load32_guarded(const void *src, uint32_t *val);

/* Mkey table (mlx5_sim_mkey.c). */
/*
 * CREATE_MKEY of a key made through verbs (reg_mr, mlx5dv_create_mkey) on
 * PD @spd, counted and subject to faults like any command, refused with
 * @rule (a syndrome of the caller's device rules, or MLX5_SIM_SYND_OK) or
 * when the mkey table is full. On success the
 * vHCA lock is held and *out is the new mkey with its identity, PD, local
 * read and "any QP" filled; otherwise the lock is not held and the return
 * value is a positive errno.
 */
int mlx5_sim_verbs_mkey_create(struct mlx5_sim_pd *spd,
			       enum mlx5_sim_mkey_origin origin,
			       uint32_t rule, struct mlx5_sim_mkey **out);
/*
 * DESTROY_MKEY of a key made through verbs (dereg_mr, mlx5dv_destroy_mkey):
 * one path for both. On success the vHCA lock is held (the caller unlinks
 * its handle); otherwise it is not and the return value is the kernel's
 * errno of the refusal.
 */
int mlx5_sim_verbs_mkey_destroy(struct mlx5_sim_vhca *vhca, uint32_t index,
				uint64_t serial);
bool mlx5_sim_mkey_table_full(const struct mlx5_sim_vhca *vhca);
uint32_t mlx5_sim_mkey_alloc(struct mlx5_sim_vhca *vhca,
			     struct mlx5_sim_mkey **mkey);
/*
 * Release @mkey from the table. Its object goes to vhca->mkey_spare for
 * the next key, except in the sanitizer builds, where it is freed: a
 * stale pointer to a released key stays a use after free they report.
 * (Valgrind's runs of the suites keep the spare list: the ASan build,
 * which runs the same suites, is the one that catches such a pointer.)
 */
void mlx5_sim_mkey_release(struct mlx5_sim_vhca *vhca,
			   struct mlx5_sim_mkey *mkey);
/* Free the released mkey objects kept for reuse (vHCA teardown). */
void mlx5_sim_mkey_spare_free(struct mlx5_sim_vhca *vhca);
/* As a value, so that every build compiles both ways. */
#ifdef MLX5_SIM_SANITIZED
#define MLX5_SIM_MKEY_SPARE 0
#else
#define MLX5_SIM_MKEY_SPARE 1
#endif
/* Free the KLM list of KLM key @mkey, unless it is the one in the key. */
void mlx5_sim_mkey_klm_free(struct mlx5_sim_mkey *mkey);
/* The mkey at table index @index, or NULL. */
static inline struct mlx5_sim_mkey *
mlx5_sim_mkey_at(const struct mlx5_sim_vhca *vhca, uint32_t index)
{
	return likely(index < vhca->mkey_slots) ? vhca->mkeys[index] : NULL;
}

/*
 * The mkey of key @key (index and variant), or NULL. Inline: every UMR
 * and every transfer through a key looks up a few.
 */
static inline struct mlx5_sim_mkey *
mlx5_sim_mkey_by_key(const struct mlx5_sim_vhca *vhca, uint32_t key)
{
	struct mlx5_sim_mkey *mkey = mlx5_sim_mkey_at(vhca,
						      MLX5_MKEY_INDEX(key));

	return mkey != NULL && mkey->variant == MLX5_MKEY_VARIANT(key) ?
	       mkey : NULL;
}
/*
 * May a crossing mkey of @importer reach @target (of vHCA @owner) now? The
 * owner's cross_rule decides; a vHCA crossing to its own mkeys needs
 * nothing (the kernel's data-direct MR does so with no grant).
 */
bool mlx5_sim_cross_permitted(const struct mlx5_sim_vhca *importer,
			      const struct mlx5_sim_vhca *owner,
			      const struct mlx5_sim_mkey *target);
struct mlx5_sim_mkey *mlx5_sim_remote_get(const struct mlx5_sim_remote *r);
uint32_t mlx5_sim_cmd_create_mkey(struct mlx5_sim_file *file, const void *in,
				  size_t inlen, void *out,
				  struct mlx5_sim_devx_obj *obj);
uint32_t mlx5_sim_cmd_query_mkey(struct mlx5_sim_file *file, const void *in,
				 void *out, size_t outlen);
uint32_t mlx5_sim_cmd_destroy_mkey(struct mlx5_sim_file *file,
				   const void *in);
void mlx5_sim_mkey_reclaim(struct mlx5_sim_vhca *vhca,
			   struct mlx5_sim_mkey *mkey);

/* General objects and cross-vHCA access (mlx5_sim_obj.c). */
uint32_t mlx5_sim_cmd_create_gobj(struct mlx5_sim_file *file, const void *in,
				  size_t inlen, void *out, size_t outlen,
				  struct mlx5_sim_devx_obj *obj);
uint32_t mlx5_sim_cmd_query_gobj(struct mlx5_sim_file *file, const void *in,
				 void *out, size_t outlen);
uint32_t mlx5_sim_cmd_modify_gobj(struct mlx5_sim_file *file, const void *in);
uint32_t mlx5_sim_cmd_destroy_gobj(struct mlx5_sim_file *file,
				   const void *in);
uint32_t mlx5_sim_cmd_allow_access(struct mlx5_sim_file *file,
				   const void *in);

/*
 * Device memory access with the vHCA lock held (mlx5_sim_dma.c): translate
 * (key, addr, len) in PD @pdn and copy to (@flags & MLX5_SIM_XFER_WRITE)
 * or from @buf, with local rights, or remote ones with
 * MLX5_SIM_XFER_REMOTE (the remote atomic right instead of read or
 * write with MLX5_SIM_XFER_ATOMIC). Returns 0, -ENOENT (no such key),
 * -EACCES (PD, rights, state), -EFAULT (range, or memory gone) or
 * -ENOMEM.
 */
#define MLX5_SIM_XFER_WRITE RTE_BIT32(0)
#define MLX5_SIM_XFER_REMOTE RTE_BIT32(1)
#define MLX5_SIM_XFER_ATOMIC RTE_BIT32(2)
int mlx5_sim_xfer(struct mlx5_sim_vhca *vhca, uint32_t key, uint32_t pdn,
		  uint64_t addr, void *buf, size_t len, uint32_t flags);
/*
 * mlx5_sim_xfer() for a queue's local access, through its translation
 * cache @xc (MLX5_SIM_XCACHE_WAYS entries): same checks, same results.
 */
int mlx5_sim_xfer_q(struct mlx5_sim_vhca *vhca, struct mlx5_sim_xcache *xc,
		    uint32_t key, uint32_t pdn, uint64_t addr, void *buf,
		    size_t len, uint32_t flags);
/*
 * One side of a memory-to-memory transfer (mlx5_sim_xfer_mem_prep()): a
 * key, the PD it is checked against, the address, MLX5_SIM_XFER_* flags.
 */
struct mlx5_sim_xside {
	uint32_t key;
	uint32_t pdn;
	uint64_t addr;
	uint32_t flags;
};
/*
 * The cipher of bytes through a crypto mkey, as mlx5_sim_crypto_check()
 * allowed it (the card lock held since): the DEK's context for the
 * direction, the key's initial tweak and the data units from the key's
 * start to the first byte.
 */
struct mlx5_sim_xts {
	void *ctx;                 /* EVP_CIPHER_CTX; NULL: no cipher. */
	void *tctx;                /* Set: ctx is key 1's ECB, this key 2's. */
	const uint8_t *tweak;      /* The key's, LE 128 bits. */
	uint64_t unit;             /* Added to the tweak for the first unit. */
	uint32_t data_unit;        /* Bytes one tweak covers. */
	int enc;
};
/*
 * A memory-to-memory move that mlx5_sim_xfer_mem_prep() checked: @len
 * bytes from host @src to host @dst, through the cipher @xts (of the
 * crypto key of either side) or, if @xts.ctx is NULL, copied.
 * @ret: what the move gave (mlx5_sim_xmove_armed()).
 */
struct mlx5_sim_xmove {
	const uint8_t *src;
	uint8_t *dst;
	size_t len;
	struct mlx5_sim_xts xts;
	int ret;
};
/*
 * @len bytes from @src straight to @dst (the WRITE flag of @dst set, not
 * that of @src), without a device buffer between them: both sides
 * translated and checked whole (the same checks as mlx5_sim_xfer()), a
 * crypto key on one side at most. 0: @m is the one cipher or copy to
 * make, under the fault guard of the caller's doorbell
 * (mlx5_sim_xmove_armed(), mlx5_sim_wqe.h). 1: nothing to move, the
 * caller moves the bytes the staged way (mlx5_sim_xfer() per side),
 * which repeats every check and reports the exact error: a side of
 * several segments, ranges that overlap without being the same, a check
 * that failed. @xc: the queue's cache for its local side, or NULL.
 */
int mlx5_sim_xfer_mem_prep(struct mlx5_sim_vhca *vhca,
			   struct mlx5_sim_xcache *xc,
			   const struct mlx5_sim_xside *src,
			   const struct mlx5_sim_xside *dst, size_t len,
			   struct mlx5_sim_xmove *m);
/*
 * After move @m faulted (memory gone from under a valid key, the
 * destination range partly written): true if its source side cannot be
 * read whole now, false if the destination side faulted.
 */
bool mlx5_sim_xmove_src_fault(const struct mlx5_sim_xmove *m);
/* Fill @c with the translation of key @key in PD @pdn if it may be cached. */
void mlx5_sim_xcache_fill(struct mlx5_sim_vhca *vhca,
			  struct mlx5_sim_xcache *c, uint32_t key,
			  uint32_t pdn);
/* Invalidate every cached translation of the vHCA. */
static inline void
mlx5_sim_xgen_bump(struct mlx5_sim_vhca *vhca)
{
	vhca->xgen++;
}

/*
 * A hit of cache entry @c for a local access to [addr, addr + len)? The
 * range by the offset in it: below start, the offset wraps above any
 * size; len - 1 wraps for len 0, which is no hit.
 */
static inline bool
mlx5_sim_xcache_hit(const struct mlx5_sim_vhca *vhca,
		    const struct mlx5_sim_xcache *c, uint32_t key, uint32_t pdn,
		    uint64_t addr, uint64_t len, bool write)
{
	uint64_t off = addr - c->start;

	return c->gen == vhca->xgen && c->key == key && c->pdn == pdn &&
	       (write ? c->lw : c->lr) && off <= c->size &&
	       len - 1 < c->size - off;
}

/* Where device address @addr of a hit of entry @c is in the process. */
static inline uint8_t *
mlx5_sim_xcache_at(const struct mlx5_sim_xcache *c, uint64_t addr)
{
	return (uint8_t *)(uintptr_t)((uintptr_t)addr + c->delta);
}

/*
 * Where a queue's local access to [addr, addr + len) through key @key is
 * in the process, from the queue's cache @xc; NULL when the cache cannot
 * say (mlx5_sim_xfer_q() then translates, checks and copies).
 */
static inline uint8_t *
mlx5_sim_xcache_host(const struct mlx5_sim_vhca *vhca,
		     const struct mlx5_sim_xcache *xc, uint32_t key,
		     uint32_t pdn, uint64_t addr, uint64_t len, bool write)
{
	const struct mlx5_sim_xcache *c =
		&xc[(key >> 8) & (MLX5_SIM_XCACHE_WAYS - 1)];

	return mlx5_sim_xcache_hit(vhca, c, key, pdn, addr, len, write) ?
	       mlx5_sim_xcache_at(c, addr) : NULL;
}

/* Queues (mlx5_sim_queue.c). */
int mlx5_sim_idtab_alloc(struct mlx5_sim_idtab *t, void *obj, uint32_t *id);
/* The object with id @id, or NULL. */
static inline void *
mlx5_sim_idtab_get(const struct mlx5_sim_idtab *t, uint32_t id)
{
	return id < t->size ? t->slot[id] : NULL;
}
void mlx5_sim_idtab_free(struct mlx5_sim_idtab *t, uint32_t id);
uint32_t mlx5_sim_cmd_create_cq(struct mlx5_sim_file *file, const void *in,
				void *out, struct mlx5_sim_devx_obj *obj);
uint32_t mlx5_sim_cmd_destroy_cq(struct mlx5_sim_file *file, const void *in);
uint32_t mlx5_sim_cmd_query_cq(struct mlx5_sim_file *file, const void *in,
			       void *out);
uint32_t mlx5_sim_cmd_create_qp(struct mlx5_sim_file *file, const void *in,
				void *out, struct mlx5_sim_devx_obj *obj);
uint32_t mlx5_sim_cmd_destroy_qp(struct mlx5_sim_file *file, const void *in);
uint32_t mlx5_sim_cmd_modify_qp(struct mlx5_sim_file *file, uint16_t opcode,
				const void *in);
uint32_t mlx5_sim_cmd_query_qp(struct mlx5_sim_file *file, const void *in,
			       void *out);
/* DEK objects (mlx5_sim_dek.c), vHCA lock held. */
uint32_t mlx5_sim_dek_create(struct mlx5_sim_file *file, const void *in,
			     size_t inlen, void *out,
			     struct mlx5_sim_devx_obj *obj);
uint32_t mlx5_sim_dek_query(struct mlx5_sim_file *file, const void *in,
			    void *out, size_t outlen);
uint32_t mlx5_sim_dek_destroy(struct mlx5_sim_file *file, uint32_t id);
bool mlx5_sim_dek_exists(struct mlx5_sim_file *file, uint32_t id);
/* Bytes of the XTS key pair of DEK key size @key_size (2 x 16 or 32). */
static inline size_t
mlx5_sim_xts_pair_len(uint8_t key_size)
{
	return key_size == MLX5_DEK_KEY_SIZE_256 ? 64 : 32;
}
/* The crypto login (general object 0x1f) of a wrapped-import device. */
uint32_t mlx5_sim_login_create(struct mlx5_sim_file *file, const void *in,
			       size_t inlen, void *out,
			       struct mlx5_sim_devx_obj *obj);
uint32_t mlx5_sim_login_query(struct mlx5_sim_file *file, const void *in,
			      void *out, size_t outlen);
uint32_t mlx5_sim_login_destroy(struct mlx5_sim_file *file, uint32_t id);
bool mlx5_sim_login_exists(struct mlx5_sim_file *file, uint32_t id);

/* Ethernet queue objects (mlx5_sim_eth.c). */
uint32_t mlx5_sim_cmd_eth(struct mlx5_sim_file *file, uint16_t opcode,
			  const void *in, size_t inlen, void *out,
			  struct mlx5_sim_devx_obj *obj);
void mlx5_sim_eth_reclaim(struct mlx5_sim_vhca *vhca,
			  const struct mlx5_sim_devx_obj *obj);
/*
 * Transport domain @tdn of @file is the kernel's, as the one mlx5_ib
 * gives a context (no program's object: not counted live). Lock held.
 */
void mlx5_sim_td_kernel(struct mlx5_sim_file *file, uint32_t tdn);
/* The CQ @cqn of @file, or NULL. */
struct mlx5_sim_cq *mlx5_sim_cq_of(struct mlx5_sim_file *file, uint32_t cqn);
/*
 * The key of @cq's compressed sessions (cq->zip_key, mlx5_sim_engine.c)
 * for its mini-CQE format.
 */
void mlx5_sim_cq_zip_key(struct mlx5_sim_cq *cq);
/*
 * Resolve a ring or doorbell range of a umem of @file (a syndrome); one
 * the device @writes (a CQ ring) needs local write.
 */
uint32_t mlx5_sim_umem_ref(struct mlx5_sim_file *file, uint32_t id,
			   uint64_t offset, uint64_t len, bool writes,
			   struct mlx5_sim_umem_ref *ref);
/* Free a queue object at file close (vHCA lock held). */
void mlx5_sim_queue_reclaim(struct mlx5_sim_vhca *vhca,
			    const struct mlx5_sim_devx_obj *obj);
bool mlx5_sim_uar_page_of(const struct mlx5_sim_file *file, uint32_t page);
/*
 * A new UAR page of @file (ALLOC_UAR; lock not held): a DEVX UAR, or with
 * @ctx the context's own (file->ctx_uar, which must be NULL: no object of
 * the program's, freed at the file's last close). NULL with errno.
 */
struct mlx5_sim_uar *mlx5_sim_uar_new(struct mlx5_sim_file *file, bool ctx);

/*
 * Creation with memory the kernel pinned for a verbs object (@ring, @dbr;
 * NULL: the umems the mailbox names, as DEVX gives them); the kernel's
 * own UAR page is not checked. vHCA lock held.
 */
uint32_t mlx5_sim_cq_create(struct mlx5_sim_file *file, const void *in,
			    const struct mlx5_sim_umem_ref *ring,
			    const struct mlx5_sim_umem_ref *dbr, void *out,
			    struct mlx5_sim_devx_obj *obj);
uint32_t mlx5_sim_qp_create(struct mlx5_sim_file *file, const void *in,
			    const struct mlx5_sim_umem_ref *ring,
			    const struct mlx5_sim_umem_ref *dbr, void *out,
			    struct mlx5_sim_devx_obj *obj);
uint32_t mlx5_sim_rq_create(struct mlx5_sim_file *file, const void *in,
			    const struct mlx5_sim_umem_ref *ring,
			    const struct mlx5_sim_umem_ref *dbr, void *out,
			    struct mlx5_sim_devx_obj *obj);
uint32_t mlx5_sim_sq_create(struct mlx5_sim_file *file, const void *in,
			    const struct mlx5_sim_umem_ref *ring,
			    const struct mlx5_sim_umem_ref *dbr, void *out,
			    struct mlx5_sim_devx_obj *obj);
/* QUERY_RQT (mlx5_sim_eth.c). */
uint32_t mlx5_sim_rqt_query(struct mlx5_sim_file *file, const void *in,
			    void *out, size_t outlen);
/* MODIFY_CQ: moderation only (mlx5_sim_queue.c). */
uint32_t mlx5_sim_cmd_modify_cq(struct mlx5_sim_file *file, const void *in);
/* Lag ports of a vHCA: its ports when there are two, else none. */
static inline uint8_t
mlx5_sim_lag_ports(const struct mlx5_sim_vhca *vhca)
{
	return vhca->caps.nports > 1 ? vhca->caps.nports : 0;
}

/* RMPs, the verbs SRQs (mlx5_sim_srq.c), vHCA lock held. */
uint32_t mlx5_sim_rmp_create(struct mlx5_sim_file *file, const void *in,
			     const struct mlx5_sim_umem_ref *ring,
			     const struct mlx5_sim_umem_ref *dbr, void *out,
			     struct mlx5_sim_devx_obj *obj);
uint32_t mlx5_sim_cmd_rmp(struct mlx5_sim_file *file, uint16_t opcode,
			  const void *in, void *out);
/* An RMP's or an XRC SRQ's reclaim at the last close. */
void mlx5_sim_rmp_reclaim(struct mlx5_sim_vhca *vhca,
			  const struct mlx5_sim_devx_obj *obj);
/* XRC SRQs and XRC domains (mlx5_sim_srq.c), vHCA lock held. */
uint32_t mlx5_sim_xsrq_create(struct mlx5_sim_file *file, const void *in,
			      const struct mlx5_sim_umem_ref *ring,
			      const struct mlx5_sim_umem_ref *dbr, void *out,
			      struct mlx5_sim_devx_obj *obj);
/* DESTROY_XRC_SRQ, QUERY_XRC_SRQ. */
uint32_t mlx5_sim_cmd_xsrq(struct mlx5_sim_file *file, uint16_t opcode,
			   const void *in, void *out);
/* ALLOC_XRCD, DEALLOC_XRCD. */
uint32_t mlx5_sim_cmd_xrcd(struct mlx5_sim_file *file, uint16_t opcode,
			   const void *in, void *out,
			   struct mlx5_sim_devx_obj *obj);
struct mlx5_sim_xrcd *mlx5_sim_xrcd_of(struct mlx5_sim_file *file,
				       uint32_t xrcdn);
void mlx5_sim_xrcd_reclaim(struct mlx5_sim_vhca *vhca,
			   const struct mlx5_sim_devx_obj *obj);

/* Verbs queue objects (mlx5_sim_verbs.c). */
uint32_t mlx5_sim_cmd_query_lag(struct mlx5_sim_file *file, void *out);
/*
 * At the last close, free the file's verbs objects with the device
 * objects behind them, users first (vHCA lock held).
 */
void mlx5_sim_verbs_reclaim(struct mlx5_sim_file *file);
/* The verbs object of kind @kind behind @ib (ibv_cq, ibv_qp, ...), or NULL. */
struct mlx5_sim_vobj *mlx5_sim_vobj_of(void *ib, enum mlx5_sim_obj_kind kind);
/* The verbs object of @file of kind @kind and number @num, or NULL. */
struct mlx5_sim_vobj *mlx5_sim_vobj_find(struct mlx5_sim_file *file,
					 enum mlx5_sim_obj_kind kind,
					 uint32_t num);
/*
 * DEVX query/modify on a verbs object (mlx5_sim_cmd.c): the kernel's
 * checks, then the mailbox must name the object (@create_op, @num) the
 * handle stands for, else EINVAL; then the command.
 */
/*
 * A query command the kernel issues on its own behalf (a verbs query):
 * counted and answered as firmware does, without DEVX's admission.
 * 0, EREMOTEIO (status and syndrome in @out) or EINVAL (not a query).
 */
int mlx5_sim_cmd_kernel_query(struct mlx5_sim_file *file, const void *in,
			      size_t inlen, void *out, size_t outlen);
int mlx5_sim_verbs_devx_cmd(struct mlx5_sim_file *file, bool modify,
			    uint16_t create_op, uint32_t num, const void *in,
			    size_t inlen, void *out, size_t outlen);
/*
 * The same for a handle standing for several objects (a raw QP: its SQ,
 * RQ, TIS and TIR), each (create opcode << 32 | number) in @ids.
 */
int mlx5_sim_verbs_devx_cmd_objs(struct mlx5_sim_file *file, bool modify,
				 const uint64_t *ids, unsigned int n,
				 const void *in, size_t inlen, void *out,
				 size_t outlen);

/* The engine (mlx5_sim_engine.c), vHCA lock held. */
#define MLX5_SIM_WQEBB 64
/* A WQE holds at most 63 segments of 16 bytes (qpn_ds.ds is 6 bits). */
#define MLX5_SIM_WQE_MAX_BYTES (63 * 16)

/*
 * One send WQE as the engine parsed it (mlx5_sim_wqe_parse()): what the
 * engine tests of every WQE, small enough that the compiler keeps it in
 * registers where it is a local whose address reaches no call (the QP
 * engine's loop; the SQ engine keeps it in its run state). Its bytes are the
 * engine's own copy (struct mlx5_sim_ahead), unchanged until the next
 * WQE is read: what only a completion needs (wqe_index, the CQ update
 * flag) is read from its control segment then (mlx5_sim_wqe_index()).
 */
struct mlx5_sim_wqe {
	const uint8_t *bytes;      /* The control segment, then the others. */
	uint16_t bbs;              /* 64-byte basic blocks it spans. */
	uint8_t opcode;
	uint8_t ds;                /* 16-byte segments, control included. */
};

void mlx5_sim_engine_qp(struct mlx5_sim_vhca *vhca, struct mlx5_sim_qp *qp);
/* The event of armed @cq (a CQE was written): disarmed, its handler run. */
void mlx5_sim_cq_event(struct mlx5_sim_cq *cq);

/* RC messages between QPs (mlx5_sim_rc.c), card lock held. */
/* Not a syndrome: the responder had no receive posted, the WQE waits. */
#define MLX5_SIM_RC_RNR 0xff
/*
 * The responder of @qp's message in flight: 0 with the QP its messages
 * reach in *@p and its vHCA in *@pv (an XRC target set to receive into the
 * XRC SRQ the message names), or the requester's syndrome: no answer
 * (they go nowhere, or nobody there answers: TRANSPORT_RETRY_EXC_ERR),
 * or an XRC SRQ the target cannot receive into (REMOTE_INVAL_REQ_ERR, the
 * target in ERR).
 */
uint8_t mlx5_sim_rc_responder(struct mlx5_sim_vhca *vhca,
			      struct mlx5_sim_qp *qp,
			      struct mlx5_sim_vhca **pv,
			      struct mlx5_sim_qp **p);
/*
 * The SRQ a responder @p receives into (its own, or for an XRC target the
 * XRC SRQ of the message), or NULL; the PD its accesses are checked
 * against (an XRC target's: that SRQ's, IBTA's XRC rule) and the CQ of
 * its receive completions.
 */
static inline struct mlx5_sim_rmp *
mlx5_sim_rc_srq(const struct mlx5_sim_qp *p)
{
	return unlikely(p->st == MLX5_QP_ST_XRC) ? p->xrc_srq : p->rmp;
}

static inline uint32_t
mlx5_sim_rc_pdn(const struct mlx5_sim_qp *p)
{
	return unlikely(p->st == MLX5_QP_ST_XRC) ? p->xrc_srq->wq.pdn :
						   p->pdn;
}

static inline uint32_t
mlx5_sim_rc_rcqn(const struct mlx5_sim_qp *p)
{
	return unlikely(p->st == MLX5_QP_ST_XRC) ? p->xrc_srq->wq.cqn :
						   p->cqn_rcv;
}
/*
 * SEND, SEND with immediate, RDMA WRITE with immediate, or an RDMA WRITE
 * with inline data, of WQE @w on @qp: a requester syndrome (0: done,
 * @bytes moved) or MLX5_SIM_RC_RNR.
 */
uint8_t mlx5_sim_rc_exec(struct mlx5_sim_vhca *vhca, struct mlx5_sim_qp *qp,
			 const struct mlx5_sim_wqe *w, uint32_t *bytes);
/*
 * A UD SEND (with immediate) of WQE @w on @qp: a requester syndrome (0:
 * sent, @bytes long; whether it arrived is the receiver's business).
 */
uint8_t mlx5_sim_ud_exec(struct mlx5_sim_vhca *vhca, struct mlx5_sim_qp *qp,
			 const struct mlx5_sim_wqe *w, uint32_t *bytes);
/*
 * An RC atomic (compare and swap, fetch and add) of WQE @w on @qp: a
 * requester syndrome (0: done, the original value in the local buffer,
 * @bytes 8).
 */
uint8_t mlx5_sim_rc_atomic(struct mlx5_sim_vhca *vhca, struct mlx5_sim_qp *qp,
			   const struct mlx5_sim_wqe *w, uint32_t *bytes);
/* Flush the receives posted to @qp if it is in ERR. */
void mlx5_sim_rc_flush_rq(struct mlx5_sim_vhca *vhca, struct mlx5_sim_qp *qp);
/* @qp (of @vhca) enters ERR: the receives posted flushed. */
void mlx5_sim_rc_to_err(struct mlx5_sim_vhca *vhca, struct mlx5_sim_qp *qp);
/*
 * A pass of the device over @vhca (a doorbell taken, or a pass of the
 * doorbell thread): receives posted to QPs in ERR since flushed, and the
 * QPs whose sends wait on a receiver run again, except those that
 * stalled in this same pass.
 */
void mlx5_sim_rc_pass(struct mlx5_sim_vhca *vhca);
/* @qp no longer waits on a receiver (reset, destroyed, run). */
void mlx5_sim_rc_rnr_clear(struct mlx5_sim_vhca *vhca, struct mlx5_sim_qp *qp);
/* A 32-bit big-endian counter of a doorbell record; false if unmapped. */
bool mlx5_sim_dbr_read(const uint8_t *host, unsigned int idx, uint32_t *val);
/*
 * A requester completion of the WQE of @opcode and wqe_index @index of
 * queue @qn on CQ @cqn: good, or an error CQE with @syndrome; @ts is the
 * CQE timestamp. The fields by value: the caller's WQE stays in registers.
 */
void mlx5_sim_req_complete(struct mlx5_sim_vhca *vhca, uint32_t cqn,
			   uint32_t qn, uint8_t opcode, uint16_t index,
			   uint8_t syndrome, uint32_t byte_cnt, uint64_t ts);
/* The CQE syndrome of a failed local access (mlx5_sim_xfer()'s errno). */
uint8_t mlx5_sim_local_syndrome(int err);
/* Write one CQE (owner bit last) to CQ @cqn; errors stop the CQ. */
void mlx5_sim_cq_write(struct mlx5_sim_vhca *vhca, uint32_t cqn,
		       const struct mlx5_cqe64 *tmpl);
/*
 * The same for the completion of a message that asked for a solicited
 * event (@se: the requester WQE's solicited bit), which a CQ armed for
 * solicited completions only signals (as it does every error CQE).
 */
void mlx5_sim_cq_write_se(struct mlx5_sim_vhca *vhca, uint32_t cqn,
			  const struct mlx5_cqe64 *tmpl, bool se);

/*
 * Queue counters (mlx5_sim_qcnt.c), vHCA lock held. mlx5_sim_cmd_qcnt()
 * runs ALLOC/DEALLOC/QUERY_Q_COUNTER; an RQ checks the set it names with
 * mlx5_sim_qcnt_check() (0: none) and holds it while it names it.
 */
uint32_t mlx5_sim_cmd_qcnt(struct mlx5_sim_file *file, uint16_t opcode,
			   const void *in, void *out,
			   struct mlx5_sim_devx_obj *obj);
uint32_t mlx5_sim_qcnt_check(struct mlx5_sim_file *file, uint8_t id);
void mlx5_sim_qcnt_hold(struct mlx5_sim_vhca *vhca, uint8_t id, int d);
void mlx5_sim_qcnt_reclaim(struct mlx5_sim_vhca *vhca,
			   const struct mlx5_sim_devx_obj *obj);
/*
 * For the receive path: a frame reached an RQ counting on set
 * @counter_set_id with no posted WQE (dropped). 0 (none), or a set not
 * allocated, counts nothing.
 */
void mlx5_sim_q_counter_out_of_buffer(struct mlx5_sim_vhca *vhca,
				      uint8_t counter_set_id);

/* Doorbell record words: receive counter, send counter. */
#define MLX5_SIM_DBR_RCV 0
#define MLX5_SIM_DBR_SND 1

/* Ports and the Ethernet datapath (mlx5_sim_wire.h), vHCA lock held. */
void mlx5_sim_engine_sq(struct mlx5_sim_vhca *vhca, struct mlx5_sim_sq *sq);
/* Stop the pacing thread of pace_clock=wall (at exit). */
void mlx5_sim_pace_stop(void);
/*
 * A thread of the device (the pacing thread, the doorbell thread): its
 * lock and condition, started once, stopped (and joined) at exit.
 */
struct mlx5_sim_thread {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	pthread_t thread;
	bool started, stop;
};
#define MLX5_SIM_THREAD_INIT { .lock = PTHREAD_MUTEX_INITIALIZER, \
			       .cond = PTHREAD_COND_INITIALIZER }
/* Start @t on @fn, @t's lock held: 0, or a positive errno (logged). */
int mlx5_sim_thread_start_locked(struct mlx5_sim_thread *t,
				 void *(*fn)(void *), const char *what);
/* Stop @t and wait for it. */
void mlx5_sim_thread_stop(struct mlx5_sim_thread *t);
/*
 * The device's doorbell thread (mlx5_sim_doorbell.c): mlx5_sim.h. A
 * front's provider may also take the doorbells written so far at once,
 * in its own thread (the device as fast as hardware, where a program
 * expects it: an empty poll, a resize), no lock held.
 */
void mlx5_sim_doorbell_scan(void);
void mlx5_sim_doorbell_stop(void);
/* Ports of a new vHCA, as its caps say (before it is listed). */
void mlx5_sim_ports_init(struct mlx5_sim_vhca *vhca);
/*
 * Cable the ports of a new vHCA (card lock held, before it is listed):
 * its ports named by devargs (@given: MLX5_SIM_CAP_WIRE*) and the far
 * ends, or ports of older vHCAs cabled to it. -EINVAL (nothing changed)
 * when a far port is missing or cabled elsewhere.
 */
int mlx5_sim_ports_cable(struct mlx5_sim_vhca *vhca, uint32_t given);
/* Is port @pi (0-based) cabled to a port that exists? */
bool mlx5_sim_port_up(struct mlx5_sim_vhca *vhca, unsigned int pi);
/* Port attributes (backend operations): 0 or EINVAL. */
int mlx5_sim_port_link_get(struct ibv_context *ctx, uint8_t port,
			   uint32_t *speed_mbps, uint16_t *mtu, int *up);
int mlx5_sim_port_mtu_set(struct ibv_context *ctx, uint8_t port,
			  uint16_t mtu);
int mlx5_sim_port_link_set(struct ibv_context *ctx, uint8_t port, int up);
/*
 * The same three settings by vHCA (a front's host: its netdev's MTU,
 * administrative state and speed): 0 or EINVAL.
 */
int mlx5_sim_vport_mtu_set(struct mlx5_sim_vhca *vhca, uint8_t port,
			   uint16_t mtu);
int mlx5_sim_vport_link_set(struct mlx5_sim_vhca *vhca, uint8_t port, int up);
int mlx5_sim_vport_speed_set(struct mlx5_sim_vhca *vhca, uint8_t port,
			     uint32_t speed_mbps);
int mlx5_sim_port_speed_set(struct ibv_context *ctx, uint8_t port,
			    uint32_t speed_mbps);
/* The vport context's MTU field: the software MTU + 22. */
uint16_t mlx5_sim_vport_hw_mtu(const struct mlx5_sim_vhca *vhca);

/* Steering (mlx5_sim_flow.c). */
/* What a rule does with the frames it matches. */
enum mlx5_sim_fate {
	MLX5_SIM_FATE_MISS,  /* No rule, or the default miss: the kernel's. */
	MLX5_SIM_FATE_DROP,
	MLX5_SIM_FATE_TIR,   /* To a TIR. */
	MLX5_SIM_FATE_TABLE, /* On to a table of a higher level. */
};

/* A rule's actions: its fate and flow tag (0: none). */
struct mlx5_sim_flow_act {
	enum mlx5_sim_fate fate;
	uint32_t tirn;              /* MLX5_SIM_FATE_TIR. */
	struct mlx5_sim_ftable *ft; /* MLX5_SIM_FATE_TABLE. */
	uint32_t flow_tag;
	uint32_t counter_id;        /* Its count action's counter (0: none). */
	/*
	 * Refuse it (EEXIST) if its matcher has a rule of the same value:
	 * libmlx5's check in a domain that does not allow duplicates.
	 */
	bool unique;
};

/*
 * Where the receive steering of vHCA @vhca sends frame @f (vHCA lock
 * held): from the root table, the first rule matching in each table,
 * on through the tables its rules forward to. MLX5_SIM_FATE_TIR with
 * the TIR in *@tirn, DROP or MISS; *@flow_tag the last tag a rule on the
 * way set (0: none).
 */
enum mlx5_sim_fate mlx5_sim_flow_steer(struct mlx5_sim_vhca *vhca,
				       const uint8_t *f, uint32_t len,
				       uint32_t *tirn, uint32_t *flow_tag);
/*
 * A flow table of @type (MLX5DV_FLOW_TABLE_TYPE_NIC_RX or _TX) and
 * @level (above 0: the root is the kernel's) for context @ctx: the
 * firmware table libmlx5's software steering makes for each of its
 * tables. NULL with errno on failure.
 */
struct mlx5_sim_ftable *mlx5_sim_ftable_create(struct ibv_context *ctx,
					       int type, uint32_t level);
/* Destroy it: EBUSY while it has matchers or a rule forwards to it. */
int mlx5_sim_ftable_destroy(struct mlx5_sim_ftable *ft);
/*
 * A matcher of table @ft (NULL: the root table, as
 * mlx5_sim_flow_matcher_create()); @attr as mlx5dv's.
 */
struct mlx5dv_flow_matcher *
mlx5_sim_ftable_matcher_create(struct ibv_context *ctx,
			       struct mlx5dv_flow_matcher_attr *attr,
			       struct mlx5_sim_ftable *ft);
/*
 * A rule of matcher @matcher: the frames whose fields under its mask
 * equal @value's get @act. NULL with errno: EINVAL for a TIR or counter
 * not of the matcher's file, a table of another file or not of a higher
 * level than the matcher's (the PRM: a table forwards only to higher
 * levels), a tag of more than 24 bits; EEXIST for a duplicate @act
 * refuses.
 */
struct ibv_flow *
mlx5_sim_flow_rule(struct mlx5dv_flow_matcher *matcher,
		   const struct mlx5dv_flow_match_parameters *value,
		   const struct mlx5_sim_flow_act *act);
/*
 * ALLOC_FLOW_COUNTER, DEALLOC_FLOW_COUNTER, QUERY_FLOW_COUNTER of @file
 * (vHCA lock held): a syndrome.
 */
uint32_t mlx5_sim_cmd_fcnt(struct mlx5_sim_file *file, uint16_t opcode,
			   const void *in, void *out,
			   struct mlx5_sim_devx_obj *obj);
/* Free the flow counter of DEVX object @obj of a closing file. */
void mlx5_sim_fcnt_reclaim(struct mlx5_sim_vhca *vhca,
			   const struct mlx5_sim_devx_obj *obj);
/* Free the rules, matchers and tables of a closing file (vHCA lock held). */
void mlx5_sim_flow_reclaim(struct mlx5_sim_file *file);
/* Does a steering rule send to TIR @tirn? (vHCA lock held) */
bool mlx5_sim_tir_steered(struct mlx5_sim_vhca *vhca, uint32_t tirn);
struct mlx5dv_flow_matcher *
mlx5_sim_flow_matcher_create(struct ibv_context *ctx,
			     struct mlx5dv_flow_matcher_attr *attr);
int mlx5_sim_flow_matcher_destroy(struct mlx5dv_flow_matcher *matcher);
struct ibv_flow *
mlx5_sim_flow_create(struct mlx5dv_flow_matcher *matcher,
		     struct mlx5dv_flow_match_parameters *value,
		     size_t num_actions,
		     struct mlx5dv_flow_action_attr actions[]);
int mlx5_sim_flow_destroy(struct ibv_flow *flow);
/* ibv_create_flow(): a rule to raw packet QP @qp's receive queue. */
struct ibv_flow *mlx5_sim_flow_create_qp(struct ibv_qp *qp,
					 struct ibv_flow_attr *attr);

/* Packet pacing (mlx5_sim_pp.c). */
void mlx5_sim_pp_reclaim(struct mlx5_sim_file *file);

/* UMR and crypto (mlx5_sim_umr.c), vHCA lock held. */
/*
 * Execute the UMR WQE @wqe (@ds 16-byte segments, control segment first)
 * posted on RC QP @qp: 0, or the syndrome of its error CQE; a refused UMR
 * changes nothing.
 */
uint8_t mlx5_sim_umr_exec(struct mlx5_sim_vhca *vhca,
			  const struct mlx5_sim_qp *qp, const void *wqe,
			  unsigned int ds);
/*
 * The cipher's context of @dek for direction @enc (1: encryption), made
 * at its first use and freed with the DEK; NULL if the cipher refuses
 * the key (OpenSSL takes no XTS key whose halves are equal) or no memory.
 */
void *mlx5_sim_dek_xts(struct mlx5_sim_vhca *vhca, struct mlx5_sim_dek *dek,
		       int enc);
/* Free the cipher's contexts of @dek (its key schedules), if any. */
void mlx5_sim_dek_cipher_free(struct mlx5_sim_dek *dek);

/*
 * @x modulo the data-unit size @dus: a mask for the usual powers of two
 * (512 B, 4 KiB, 1 MiB), a division for the others (520 B, 4048 B, ...).
 */
static inline uint64_t
mlx5_sim_du_mod(uint64_t x, uint32_t dus)
{
	return likely((dus & (dus - 1)) == 0) ? x & (dus - 1) : x % dus;
}

/* @x divided by the data-unit size @dus. */
static inline uint64_t
mlx5_sim_du_div(uint64_t x, uint32_t dus)
{
	return likely((dus & (dus - 1)) == 0) ?
	       x >> rte_bsf32(dus) : x / dus;
}

/*
 * May bytes at [addr, addr + len) go through crypto mkey @mkey now, to
 * memory (@to_memory) or from it: a configured BSF, the key's BSF
 * enabled, its DEK alive and of its PD, whole data units from a unit
 * boundary (a last partial one of a multiple of 16 bytes and at most the
 * unit less 16), the cipher taking the DEK's key. 0 with the cipher in
 * @x (for @len > 0), or -EACCES / -EINVAL. Inline: every transfer
 * through a crypto key makes these checks.
 */
static __rte_always_inline int
mlx5_sim_crypto_check(struct mlx5_sim_vhca *vhca,
		      const struct mlx5_sim_mkey *mkey, uint64_t addr,
		      size_t len, bool to_memory, struct mlx5_sim_xts *x)
{
	uint32_t dus = mkey->crypto.data_unit;
	uint32_t id = mkey->crypto.dek_id;
	uint64_t off = addr - mkey->start;
	struct mlx5_sim_dek *dek;
	size_t tail;
	int enc;

	/* Never configured, or its BSF disabled since: no cipher to use. */
	if (!mkey->crypto.configured || !mkey->bsf_en)
		return -EACCES;
	dek = likely(id < vhca->deks.size) ? vhca->deks.slot[id] : NULL;
	if (dek == NULL || dek->pd != mkey->pd)
		return -EACCES;
	/* The key tag is checked where the key is used (DPDK's guide). */
	if (dek->has_keytag && dek->keytag != mkey->crypto.keytag)
		return -EACCES;
	if (len == 0)
		return 0;
	tail = mlx5_sim_du_mod(len, dus);
	if (mlx5_sim_du_mod(off, dus) != 0 ||
	    (tail != 0 && (tail % 16 != 0 || tail > dus - 16)))
		return -EINVAL;
	/* Plaintext going into encrypted memory, or leaving encrypted wire. */
	enc = to_memory == mkey->crypto.memory_encrypted;
	x->ctx = dek->xts[enc];
	if (unlikely(x->ctx == NULL)) {
		x->ctx = mlx5_sim_dek_xts(vhca, dek, enc);
		if (x->ctx == NULL)
			return -EACCES;
	}
	x->tctx = dek->xts_tweak;
	x->tweak = mkey->crypto.tweak;
	x->unit = off != 0 ? mlx5_sim_du_div(off, dus) : 0;
	x->data_unit = dus;
	x->enc = enc;
	return 0;
}

/* Largest byte count of one data segment (2^31). */
#define MLX5_SIM_DMA_MAX_LEN (UINT64_C(1) << 31)

/* [addr, addr + len) inside the range of @p mkey, without wrapping? */
static inline bool
mlx5_sim_range_in(const struct mlx5_sim_mkey *mkey, uint64_t addr,
		  uint64_t len)
{
	if (addr < mkey->start || (len != 0 && addr + len - 1 < addr))
		return false;
	if (mkey->length64)
		return true;
	if (addr - mkey->start > mkey->len)
		return false;
	return len <= mkey->len - (addr - mkey->start);
}

/*
 * A crypto key of one KLM entry, configured by a UMR that cached the
 * entry's translation (mlx5_sim_umr.c): the host address of [addr, addr +
 * len), with the checks the whole translation (mlx5_sim_dma.c) makes of
 * the key itself, or NULL when the cache cannot answer (the whole
 * translation then does). A cache of the current generation says that the
 * key has a first entry: the key's last UMR filled it from that entry, or
 * emptied it for a key with no list.
 */
static __rte_always_inline uint8_t *
mlx5_sim_xlate_crypto_cached(const struct mlx5_sim_vhca *vhca,
			     const struct mlx5_sim_mkey *mkey, uint32_t pdn,
			     uint64_t addr, uint64_t len, uint32_t flags)
{
	const struct mlx5_sim_xcache *c = &mkey->klm_xc;
	const struct mlx5_sim_klm_entry *e = mkey->u.klm.entries;
	bool write = flags & MLX5_SIM_XFER_WRITE;
	bool remote = flags & MLX5_SIM_XFER_REMOTE;
	uint64_t off = addr - mkey->start;

	if (c->gen != vhca->xgen || mkey->kind != MLX5_SIM_MKEY_KLM ||
	    mkey->pdn != pdn || mkey->free ||
	    (mkey->pd != NULL && !mkey->pd->alive) ||
	    (remote ? (write ? !mkey->rw : !mkey->rr) :
	     (write ? !mkey->lw : !mkey->lr)) ||
	    !mlx5_sim_range_in(mkey, addr, len))
		return NULL;
	/* Inside the first entry, reached locally with the key's own PD. */
	if (len > e->byte_count || off > e->byte_count - len ||
	    !mlx5_sim_xcache_hit(vhca, c, e->mkey, mkey->pdn,
				 e->address + off, len, write))
		return NULL;
	return mlx5_sim_xcache_at(c, e->address + off);
}

/* Do the host ranges [s, s + len) and [d, d + len) overlap, not the same? */
static __rte_always_inline bool
mlx5_sim_half_over(const uint8_t *s, const uint8_t *d, size_t len)
{
	return s != d && (uintptr_t)s < (uintptr_t)d + len &&
	       (uintptr_t)d < (uintptr_t)s + len;
}

/*
 * A WRITE into a crypto key: an RDMA WRITE of @len bytes from [@laddr, ..)
 * of key @lkey (PD @lpdn), a key of the queue's cache @xc (never a crypto
 * key: the cache takes none), to [@raddr, ..) of crypto key @rkey (the
 * peer's PD @rpdn) a UMR configured, with every check
 * mlx5_sim_xfer_mem_prep() makes of it: 0 with @m, or 1 when either cache
 * cannot answer or a check refused it (mlx5_sim_xfer_mem_prep() then
 * decides). The source's hit says that its range is not empty and does
 * not wrap, mlx5_sim_range_in() that of the destination. Inline in the
 * engine's loop: the datapath of every crypto operation.
 */
static __rte_always_inline int
mlx5_sim_xfer_write_crypto(struct mlx5_sim_vhca *vhca,
			   const struct mlx5_sim_xcache *xc, uint32_t lkey,
			   uint32_t lpdn, uint64_t laddr, uint32_t rkey,
			   uint32_t rpdn, uint64_t raddr, size_t len,
			   struct mlx5_sim_xmove *m)
{
	const struct mlx5_sim_mkey *mkey;
	uint8_t *s, *d;

	if (unlikely(xc == NULL || len > MLX5_SIM_DMA_MAX_LEN))
		return 1;
	s = mlx5_sim_xcache_host(vhca, xc, lkey, lpdn, laddr, len, false);
	if (s == NULL)
		return 1;
	mkey = mlx5_sim_mkey_by_key(vhca, rkey);
	if (mkey == NULL || !mkey->crypto_en)
		return 1;
	d = mlx5_sim_xlate_crypto_cached(vhca, mkey, rpdn, raddr, len,
					 MLX5_SIM_XFER_REMOTE |
					 MLX5_SIM_XFER_WRITE);
	if (d == NULL ||
	    mlx5_sim_crypto_check(vhca, mkey, raddr, len, true, &m->xts) != 0)
		return 1;
	if (mlx5_sim_half_over(s, d, len))
		return 1;
	m->src = s;
	m->dst = d;
	m->len = len;
	return 0;
}

/*
 * AES-XTS over the @m->len bytes (> 0) of move @m, from @m->src to
 * @m->dst (may be the same): its cipher @m->xts, each data unit with its
 * own tweak. 0, or -EACCES if the cipher failed.
 */
int mlx5_sim_crypto_apply(const struct mlx5_sim_xmove *m);

/* Backend operations, spread over the files above. */
struct ibv_device **mlx5_sim_get_device_list(int *num_devices);
void mlx5_sim_free_device_list(struct ibv_device **list);
struct ibv_context *mlx5_sim_open_device(struct ibv_device *device,
					 struct mlx5dv_context_attr *attr);
int mlx5_sim_close_device(struct ibv_context *ctx);
struct ibv_context *mlx5_sim_import_device(int cmd_fd);
int mlx5_sim_query_device_ex(struct ibv_context *ctx,
			     const struct ibv_query_device_ex_input *input,
			     struct ibv_device_attr_ex *attr);
struct ibv_pd *mlx5_sim_alloc_pd(struct ibv_context *ctx);
int mlx5_sim_dealloc_pd(struct ibv_pd *pd);
struct ibv_pd *mlx5_sim_import_pd(struct ibv_context *ctx, uint32_t pd_handle);
void mlx5_sim_unimport_pd(struct ibv_pd *pd);
int mlx5_sim_query_pdn(struct ibv_pd *pd, uint32_t *pdn);
struct ibv_mr *mlx5_sim_reg_mr(struct ibv_pd *pd, void *addr, size_t length,
			       int access);
int mlx5_sim_dereg_mr(struct ibv_mr *mr);
/*
 * ibv_rereg_mr() as the kernel does it in place (a UMR: the keys stay):
 * a new PD, translation or access for @mr's mkey per @flags
 * (IBV_REREG_MR_CHANGE_*). 0 or an errno, the MR unchanged on error.
 */
int mlx5_sim_rereg_mr(struct ibv_mr *mr, int flags, struct ibv_pd *pd,
		      void *addr, size_t length, int access);
/*
 * ibv_import_mr(): the MR of handle @mr_handle of @pd's file, registered
 * on @pd's PD object, as a handle of the importer's (freed by
 * mlx5_sim_unimport_mr(); ibv_dereg_mr() of it destroys the shared MR,
 * as the kernel's object is one). NULL with errno.
 */
struct ibv_mr *mlx5_sim_import_mr(struct ibv_pd *pd, uint32_t mr_handle);
/*
 * A verbs MR of @spd (@pd) with @access over an mkey of translation
 * [@start, @start + @len), reported as @addr, @length: counted, in the
 * file's list, its mkey in *@out for the caller to give its kind; the
 * vHCA lock held on return. NULL with errno (lock not held).
 */
struct mlx5_sim_mr *mlx5_sim_mr_make(struct mlx5_sim_pd *spd,
				     struct ibv_pd *pd, unsigned int access,
				     uint64_t start, uint64_t len, void *addr,
				     size_t length, struct mlx5_sim_mkey **out);
/* Device memory (mlx5_sim_dm.c): ibv_alloc_dm() and its kin. */
struct ibv_dm *mlx5_sim_alloc_dm(struct ibv_context *ctx,
				 struct ibv_alloc_dm_attr *attr);
int mlx5_sim_free_dm(struct ibv_dm *dm);
struct ibv_dm *mlx5_sim_import_dm(struct ibv_context *ctx, uint32_t handle);
void mlx5_sim_unimport_dm(struct ibv_dm *dm);
struct ibv_mr *mlx5_sim_reg_dm_mr(struct ibv_pd *pd, struct ibv_dm *dm,
				  uint64_t off, size_t len,
				  unsigned int access);
/* At the file's last close (vHCA lock held). */
void mlx5_sim_dm_reclaim(struct mlx5_sim_file *file);
void mlx5_sim_unimport_mr(struct ibv_mr *mr);
struct mlx5dv_devx_umem *mlx5_sim_umem_reg(struct ibv_context *ctx,
					   void *addr, size_t size,
					   uint32_t access);
int mlx5_sim_umem_dereg(struct mlx5dv_devx_umem *umem);
struct mlx5dv_devx_uar *mlx5_sim_alloc_uar(struct ibv_context *ctx,
					   uint32_t flags);
void mlx5_sim_free_uar(struct mlx5dv_devx_uar *uar);
int mlx5_sim_query_eqn(struct ibv_context *ctx, uint32_t vector,
		       uint32_t *eqn);
void mlx5_sim_uar_kick(struct mlx5dv_devx_uar *uar, uint64_t db);
/* The same, the card lock held. */
void mlx5_sim_uar_kick_locked(struct mlx5_sim_uar *uar, uint64_t db);
/*
 * A doorbell written to UAR page @page_id of vHCA @vhca_id of card @card
 * from another process (a DPDK secondary process: the same page mapped
 * there). 0, -ENODEV (no such vHCA) or -ENOENT (no such page: counted as
 * a stray doorbell).
 */
int mlx5_sim_uar_ring(uint16_t card, uint16_t vhca_id, uint32_t page_id,
		      uint64_t db);
struct mlx5dv_devx_obj *mlx5_sim_obj_create(struct ibv_context *ctx,
					    const void *in, size_t inlen,
					    void *out, size_t outlen);
int mlx5_sim_obj_query(struct mlx5dv_devx_obj *obj, const void *in,
		       size_t inlen, void *out, size_t outlen);
int mlx5_sim_obj_modify(struct mlx5dv_devx_obj *obj, const void *in,
			size_t inlen, void *out, size_t outlen);
int mlx5_sim_obj_destroy(struct mlx5dv_devx_obj *obj);
int mlx5_sim_general_cmd(struct ibv_context *ctx, const void *in,
			 size_t inlen, void *out, size_t outlen);
struct mlx5dv_mkey *mlx5_sim_dv_create_mkey(struct mlx5dv_mkey_init_attr *attr);
int mlx5_sim_dv_destroy_mkey(struct mlx5dv_mkey *mkey);
/* The entries an mkey of mlx5dv_create_mkey() takes (0 if not one). */
uint32_t mlx5_sim_dv_mkey_entries(const struct mlx5dv_mkey *mkey);
/*
 * Memory windows (the kernel's alloc_mw): a free KLM key of @pd that a
 * bind (a UMR) fills, type 1 or 2 (2: remote invalidation enabled, bound
 * to a QP by its bind); EINVAL for another type.
 */
struct ibv_mw *mlx5_sim_alloc_mw(struct ibv_pd *pd, enum ibv_mw_type type);
int mlx5_sim_dealloc_mw(struct ibv_mw *mw);
/*
 * May QP @qpn reach key @key of @vhca remotely? Not a type 2 window bound
 * to another QP (IBTA: a type 2 window is used through its QP only).
 */
bool mlx5_sim_rkey_qp_ok(struct mlx5_sim_vhca *vhca, uint32_t key,
			 uint32_t qpn);
struct mlx5dv_pp *mlx5_sim_pp_alloc(struct ibv_context *ctx,
				    size_t pp_context_sz,
				    const void *pp_context, uint32_t flags);
void mlx5_sim_pp_free(struct mlx5dv_pp *pp);
int mlx5_sim_qp_query(struct ibv_qp *qp, const void *in, size_t inlen,
		      void *out, size_t outlen);
int mlx5_sim_qp_modify(struct ibv_qp *qp, const void *in, size_t inlen,
		       void *out, size_t outlen);
int mlx5_sim_cq_query(struct ibv_cq *cq, const void *in, size_t inlen,
		      void *out, size_t outlen);
int mlx5_sim_cq_modify(struct ibv_cq *cq, const void *in, size_t inlen,
		       void *out, size_t outlen);
int mlx5_sim_srq_query(struct ibv_srq *srq, const void *in, size_t inlen,
		       void *out, size_t outlen);
int mlx5_sim_srq_modify(struct ibv_srq *srq, const void *in, size_t inlen,
			void *out, size_t outlen);
int mlx5_sim_wq_query(struct ibv_wq *wq, const void *in, size_t inlen,
		      void *out, size_t outlen);
int mlx5_sim_wq_modify(struct ibv_wq *wq, const void *in, size_t inlen,
		       void *out, size_t outlen);
int mlx5_sim_ind_tbl_query(struct ibv_rwq_ind_table *ind_tbl, const void *in,
			   size_t inlen, void *out, size_t outlen);
int mlx5_sim_ind_tbl_modify(struct ibv_rwq_ind_table *ind_tbl, const void *in,
			    size_t inlen, void *out, size_t outlen);
int mlx5_sim_query_qp_lag_port(struct ibv_qp *qp, uint8_t *port_num,
			       uint8_t *active_port_num);
int mlx5_sim_modify_qp_lag_port(struct ibv_qp *qp, uint8_t port_num);
int mlx5_sim_modify_qp_udp_sport(struct ibv_qp *qp, uint16_t udp_sport);
struct ibv_cq *mlx5_sim_create_cq(struct ibv_context *ctx, int cqe,
				  void *cq_context,
				  struct ibv_comp_channel *channel,
				  int comp_vector);
/*
 * The same, overruns ignored if @oi (IGNORE_OVERRUN: the CQ's oi), CQEs
 * compressed with mini-CQEs of format @mini_fmt
 * (MLX5_MINI_CQE_FORMAT_*; -1: not compressed).
 */
struct ibv_cq *mlx5_sim_create_cq_dv(struct ibv_context *ctx, int cqe,
				     void *cq_context,
				     struct ibv_comp_channel *channel,
				     int comp_vector, bool oi, int mini_fmt);
int mlx5_sim_destroy_cq(struct ibv_cq *cq);
struct ibv_qp *mlx5_sim_create_qp_ex(struct ibv_context *ctx,
				     struct ibv_qp_init_attr_ex *attr);
/*
 * The same with send WQEs of at least @wqe_min bytes (a provider's own
 * operations, such as UMR, need more than the capabilities say).
 */
struct ibv_qp *mlx5_sim_create_qp_wqe(struct ibv_context *ctx,
				      struct ibv_qp_init_attr_ex *attr,
				      uint32_t wqe_min);
int mlx5_sim_query_qp(struct ibv_qp *qp, struct ibv_qp_attr *attr, int mask,
		      struct ibv_qp_init_attr *init);
int mlx5_sim_modify_qp(struct ibv_qp *qp, struct ibv_qp_attr *attr,
		       int attr_mask);
int mlx5_sim_destroy_qp(struct ibv_qp *qp);
struct ibv_srq *mlx5_sim_create_srq(struct ibv_pd *pd,
				    struct ibv_srq_init_attr *attr);
int mlx5_sim_modify_srq(struct ibv_srq *srq, struct ibv_srq_attr *attr,
			int attr_mask);
int mlx5_sim_destroy_srq(struct ibv_srq *srq);
struct ibv_srq *mlx5_sim_create_srq_ex(struct ibv_context *ctx,
				       struct ibv_srq_init_attr_ex *attr);
int mlx5_sim_get_srq_num(struct ibv_srq *srq, uint32_t *srq_num);
int mlx5_sim_query_srq(struct ibv_srq *srq, struct ibv_srq_attr *attr);
/*
 * The verbs object whose receive queue has user index @uidx (an XRC SRQ,
 * a raw packet QP, a WQ) in @file, or NULL (0 names none).
 */
struct mlx5_sim_vobj *mlx5_sim_vobj_by_uidx(struct mlx5_sim_file *file,
					    uint32_t uidx);
struct ibv_xrcd *mlx5_sim_open_xrcd(struct ibv_context *ctx,
				    struct ibv_xrcd_init_attr *attr);
int mlx5_sim_close_xrcd(struct ibv_xrcd *xrcd);
struct ibv_wq *mlx5_sim_create_wq(struct ibv_context *ctx,
				  struct ibv_wq_init_attr *attr);
int mlx5_sim_destroy_wq(struct ibv_wq *wq);
int mlx5_sim_modify_wq(struct ibv_wq *wq, struct ibv_wq_attr *attr);
struct ibv_rwq_ind_table *
mlx5_sim_create_rwq_ind_table(struct ibv_context *ctx,
			      struct ibv_rwq_ind_table_init_attr *attr);
int mlx5_sim_destroy_rwq_ind_table(struct ibv_rwq_ind_table *ind_tbl);
int mlx5_sim_dv_init_obj(struct mlx5dv_obj *obj, uint64_t obj_type);
/*
 * Completion events of a verbs CQ created on a completion channel: the
 * handler the kernel runs at each event (@fn(@arg), card lock held; it
 * must not take it), and the arming of the CQ for its next CQE
 * (ibv_req_notify_cq(); an event at once if a CQE is already past the
 * consumer counter @ci). 0 or an errno.
 */
int mlx5_sim_cq_set_event(struct ibv_cq *cq, void (*fn)(void *arg),
			  void *arg);
int mlx5_sim_cq_arm(struct ibv_cq *cq, uint32_t ci, bool solicited);
/*
 * ibv_resize_cq() of a verbs CQ polled up to consumer counter @ci: a new
 * ring of room for @cqe entries, the CQEs not yet polled moved into it at
 * their counters (EINVAL if they do not fit). 0 or an errno.
 */
int mlx5_sim_resize_cq(struct ibv_cq *cq, int cqe, uint32_t ci);

#endif /* MLX5_SIM_PRIV_H_ */
