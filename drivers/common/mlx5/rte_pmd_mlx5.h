/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

#ifndef RTE_PMD_MLX5_H_
#define RTE_PMD_MLX5_H_

/**
 * @file
 * Public API of the mlx5 common driver: cross-vHCA memory keys,
 * private-IOVA mbufs and access to a device's context and PD.
 *
 * Cross-vHCA access: on a BlueField DPU, the application on the Arm cores
 * (the "DPU" vHCA) reaches host memory through a memory key of its own that
 * points at a key of the host's vHCA. The host exports a buffer
 * (rte_pmd_mlx5_export_mem(): register + allow other vHCAs with a 32-byte
 * access key) and hands (vhca_id, mkey, key) to the DPU by any channel; the
 * DPU maps it with rte_pmd_mlx5_create_cross_vhca_mkey() (a crossing mkey)
 * or rte_pmd_mlx5_import_mem() (an alias object opened with the key) and
 * puts the result in mbuf->buf_iova, flagged with the RTE_PMD_MLX5_PRIVATE_IOVA
 * dynamic flag. The mlx5 PMDs then use the key as is and do no lookup.
 *
 * The IOVA value of a key is the mkey in the upper 32 bits and 0 in the
 * lower 32 (rte_pmd_mlx5_mkey_to_iova()); buffer addresses stay in
 * mbuf->buf_addr. Every key handed out is reference counted per device and
 * rte_pmd_mlx5_release_key() drops one reference. Owner-side keys are
 * shared: asking again for the same export (same range and access key) or
 * for a range inside a private registration returns the same key and takes
 * a reference. Importer keys are not: the owner may revoke its export at any
 * time, so every rte_pmd_mlx5_create_cross_vhca_mkey() and
 * rte_pmd_mlx5_import_mem() call asks the device anew and returns a new key
 * (or fails if the export is gone); release each one.
 *
 * All functions are safe to call from several threads at once, also while
 * the device they name is being removed: a removal waits for the calls in
 * progress on that device, and later calls fail with ENODEV.
 *
 * Conventions of every function taking a device:
 *  - @p dev NULL, or not a probed mlx5 device of this driver: ENODEV
 *    (checked first); any other NULL pointer argument: EINVAL.
 *  - A vHCA id is a uint16_t wherever the API hands one out; the two
 *    importer functions take a uint32_t remote_vhca_id, as the RFC's
 *    rte_pmd_mlx5_create_cross_vhca_mkey() does, and refuse values above
 *    65535 with EINVAL. Lengths are size_t.
 *  - The device of an ethdev port, through public calls only:
 *    rte_eth_dev_info_get(port_id, &info) then info.device; of a cryptodev:
 *    rte_cryptodev_info_get(dev_id, &info) then info.device; of a device
 *    named on the command line: rte_dev_iterator / the bus's find_device
 *    (rte_bus_find_by_name("vdev")->find_device() with the name).
 *
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 */

#include <errno.h>
#include <stdint.h>
#include <stddef.h>

#include <rte_branch_prediction.h>
#include <rte_common.h>
#include <rte_compat.h>
#include <rte_dev.h>
#include <rte_mbuf.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Dynamic mbuf flag: buf_iova carries an mlx5 mkey, do not look it up. */
#define RTE_PMD_MLX5_PRIVATE_IOVA "mlx5_private_iova"
/** Dynamic mbuf flag: inline this packet's data at fine granularity. */
#define RTE_PMD_MLX5_FINE_GRANULARITY_INLINE "mlx5_fine_granularity_inline"
/** Length of the access key shared by the owner and the importer. */
#define RTE_PMD_MLX5_ACCESS_KEY_LEN 32

/**
 * The buf_iova value of an mkey: mkey in the upper 32 bits, 0 below.
 *
 * @param mkey
 *   A memory key of an mlx5 device.
 * @return
 *   The value to put in mbuf->buf_iova.
 */
static inline rte_iova_t
rte_pmd_mlx5_mkey_to_iova(uint32_t mkey)
{
	return (rte_iova_t)mkey << 32;
}

/**
 * The mkey of a buf_iova value made by rte_pmd_mlx5_mkey_to_iova().
 *
 * @param iova
 *   A buf_iova value of rte_pmd_mlx5_mkey_to_iova().
 * @return
 *   The memory key.
 */
static inline uint32_t
rte_pmd_mlx5_iova_to_mkey(rte_iova_t iova)
{
	return (uint32_t)(iova >> 32);
}

/**
 * Copy the names of the dynamic mbuf flags the mlx5 drivers support.
 *
 * @param names
 *   Array of @p n pointers to buffers of at least RTE_MBUF_DYN_NAMESIZE
 *   bytes each.
 * @param n
 *   Number of entries in @p names.
 * @return
 *   The number of names copied; -ENOMEM if @p n is smaller than the number
 *   of names; -EINVAL if @p names or one of its first entries is NULL.
 */
__rte_experimental
int rte_pmd_common_mlx5_get_dyn_flag_names(char *names[], unsigned int n);

/**
 * The mask of the RTE_PMD_MLX5_PRIVATE_IOVA dynamic flag in mbuf->ol_flags.
 * The flag is registered when the first mlx5 device is probed; the mask is
 * cached then (no lookup per call afterwards).
 *
 * @return
 *   The flag mask, or 0 with rte_errno set (ENOENT: not registered yet,
 *   or another rte_mbuf_dynflag_lookup() error).
 */
__rte_experimental
uint64_t rte_pmd_mlx5_private_iova_flag(void);

/**
 * Get the device context (struct ibv_context *) and protection domain
 * (struct ibv_pd *) of an mlx5 device, e.g. to register memory with
 * rdma-core directly or to open the same context from another library.
 * Both stay owned by the driver and are valid until the device is removed.
 *
 * @param dev
 *   The mlx5 device (e.g. rte_eth_dev_info_get()'s info.device).
 * @param[out] ctx
 *   Where to store the device context (struct ibv_context *).
 * @param[out] pd
 *   Where to store the protection domain (struct ibv_pd *).
 * @return
 *   0 on success; a negative errno value otherwise and rte_errno is set:
 *   ENODEV if @p dev is NULL or not a probed mlx5 device of this driver,
 *   EINVAL if @p ctx or @p pd is NULL.
 */
__rte_experimental
int rte_pmd_mlx5_get_dev_ctx_and_pd(struct rte_device *dev, void **ctx,
				    void **pd);

/**
 * Get the vHCA id of an mlx5 device (what the other side of a cross-vHCA
 * mapping passes as remote_vhca_id).
 *
 * @param dev
 *   The mlx5 device (e.g. rte_eth_dev_info_get()'s info.device).
 * @param[out] vhca_id
 *   Where to store the vHCA id.
 * @return
 *   0 on success; a negative errno value otherwise and rte_errno is set:
 *   ENODEV (@p dev NULL or not an mlx5 device of this driver), EINVAL
 *   (@p vhca_id NULL).
 */
__rte_experimental
int rte_pmd_mlx5_get_vhca_id(struct rte_device *dev, uint16_t *vhca_id);

/**
 * Owner side: register [@p va, @p va + @p len) with the device and allow
 * other vHCAs of the same card to access it when they present
 * @p access_key. The (vhca_id, mkey, access_key) triple is what the
 * importer needs.
 *
 * @param dev
 *   The owner's mlx5 device.
 * @param va
 *   Start of the range, mapped readable and writable.
 * @param len
 *   Length of the range in bytes.
 * @param access_key
 *   The RTE_PMD_MLX5_ACCESS_KEY_LEN bytes importers must present.
 * @param[out] vhca_id
 *   Where to store the vHCA id of @p dev.
 * @param[out] mkey
 *   Where to store the exported mkey.
 * @return
 *   0 on success, with *vhca_id and *mkey set; a negative errno value
 *   otherwise and rte_errno is set: EINVAL (NULL va, access_key, vhca_id
 *   or mkey, zero length, wrapping range), ENODEV (@p dev NULL or not an
 *   mlx5 device), ENOTSUP (the device
 *   cannot let other vHCAs access mkeys), EFAULT (a page of the range is
 *   not mapped, or not readable and writable: the device pins it for
 *   write), ENOMEM, or the device's error.
 */
__rte_experimental
int
rte_pmd_mlx5_export_mem(struct rte_device *dev, void *va, size_t len,
			const uint8_t access_key[RTE_PMD_MLX5_ACCESS_KEY_LEN],
			uint16_t *vhca_id, uint32_t *mkey);

/**
 * Importer side (the RFC's function): create a crossing mkey that points at
 * mkey @p remote_mkey of vHCA @p remote_vhca_id. The owner must have
 * allowed access to that mkey (rte_pmd_mlx5_export_mem()). The new key
 * translates the same addresses as the remote mkey. Each call creates a new
 * key on the device, which checks the export then; once the owner revokes
 * it, accesses through the key end in error completions and new calls
 * fail. Release the key with rte_pmd_mlx5_release_key().
 *
 * @param dev
 *   The importer's mlx5 device.
 * @param remote_vhca_id
 *   vHCA id of the owner (its rte_pmd_mlx5_export_mem() output).
 * @param remote_mkey
 *   The owner's exported mkey.
 * @return
 *   The buf_iova value of the new key (mkey << 32), or 0 on failure with
 *   rte_errno set: ENODEV (@p dev is NULL or not an mlx5 device), ENOTSUP
 *   (no crossing_vhca_mkey capability), EINVAL (@p remote_vhca_id above
 *   65535, unknown vHCA, a vHCA of another card, an mkey that does not
 *   exist, was never exported or whose export was revoked), ENOMEM, or
 *   another device error.
 */
__rte_experimental
rte_iova_t rte_pmd_mlx5_create_cross_vhca_mkey(struct rte_device *dev,
					       uint32_t remote_vhca_id,
					       uint32_t remote_mkey);

/**
 * Importer side, keyed: open an alias of mkey @p remote_mkey of vHCA
 * @p remote_vhca_id with the owner's access key. Unlike a crossing mkey,
 * an alias proves knowledge of the key. Each call opens a new alias on the
 * device (checked against the export then); release it with
 * rte_pmd_mlx5_release_key().
 *
 * @param dev
 *   The importer's mlx5 device.
 * @param remote_vhca_id
 *   vHCA id of the owner (its rte_pmd_mlx5_export_mem() output).
 * @param remote_mkey
 *   The owner's exported mkey.
 * @param access_key
 *   The access key the owner exported @p remote_mkey with.
 * @return
 *   The buf_iova value of the alias key, or 0 on failure with rte_errno
 *   set: ENODEV, ENOTSUP (no local-mkey-to-remote-mkey capability), EINVAL
 *   (NULL key, @p remote_vhca_id above 65535, unknown vHCA, wrong access
 *   key, mkey never exported or export revoked), ENOMEM, or another device
 *   error.
 */
__rte_experimental
rte_iova_t
rte_pmd_mlx5_import_mem(struct rte_device *dev, uint32_t remote_vhca_id,
			uint32_t remote_mkey,
			const uint8_t access_key[RTE_PMD_MLX5_ACCESS_KEY_LEN]);

/**
 * Register [@p va, @p va + @p len) (reusing a registration of this device
 * that already covers it) and return the buf_iova value of its key, for
 * mbufs flagged with RTE_PMD_MLX5_PRIVATE_IOVA.
 *
 * @param dev
 *   The mlx5 device (e.g. rte_eth_dev_info_get()'s info.device).
 * @param va
 *   Start of the range, mapped readable and writable.
 * @param len
 *   Length of the range in bytes.
 * @return
 *   The buf_iova value, or 0 on failure with rte_errno set: ENODEV (@p dev
 *   NULL or not an mlx5 device), EINVAL (NULL @p va, zero length, wrapping
 *   range), EFAULT (a page of the range is not mapped, or not readable and
 *   writable), ENOMEM, or the device's error.
 */
__rte_experimental
rte_iova_t rte_pmd_mlx5_get_buf_private_iova(struct rte_device *dev, void *va,
					     size_t len);

/**
 * Release one reference to a key handed out by this device (crossing,
 * alias, private registration or export). The key is destroyed when its
 * last reference goes; for an export, importers' access fails from then on.
 *
 * @param dev
 *   The mlx5 device that handed out the key.
 * @param iova
 *   The key's buf_iova value, or the mkey itself (a value below 2^32).
 * @return
 *   0 on success; a negative errno value otherwise and rte_errno is set:
 *   ENODEV (@p dev NULL or not an mlx5 device), EINVAL (@p iova is
 *   neither: 2^32 or above with non-zero low 32 bits; nothing changes),
 *   ENOENT (not a live key of this device,
 *   e.g. already released: nothing changes), or the device's error when it
 *   refuses to destroy the key (the key stays live).
 */
__rte_experimental
int rte_pmd_mlx5_release_key(struct rte_device *dev, rte_iova_t iova);

/**
 * Build a private-IOVA mbuf in one call, the safe way: a fresh mbuf of
 * @p mp with [@p buf, @p buf + @p len) of the memory key @p iova covers
 * attached as an external buffer (rte_pktmbuf_attach_extbuf()), data_off
 * 0, data_len and pkt_len @p len, buf_iova @p iova and the
 * RTE_PMD_MLX5_PRIVATE_IOVA flag set. The CPU never writes the buffer: the
 * external buffer's shared info is local memory, @p shinfo or, when NULL,
 * the mbuf's own private area (the pool's priv_size must hold a struct
 * rte_mbuf_ext_shared_info; do not attach clones to such an mbuf then, as
 * the shared info goes back to the pool with it). rte_pktmbuf_free()
 * gives the mbuf back to its pool with its own buffer and no flag, and
 * frees nothing of @p buf.
 *
 * The key must be a live key of @p dev handed out by this API; for an
 * export or a private registration the range must lie inside it. An
 * importer key (crossing or alias) carries the owner's range, which only
 * the device knows: it checks every access, and an access outside the
 * owner's export ends in an error completion.
 *
 * @param mp
 *   The mempool to take the mbuf from.
 * @param dev
 *   The device the key belongs to.
 * @param iova
 *   The key's buf_iova value (mkey << 32).
 * @param buf
 *   The buffer's address in the key's address space (for an importer key,
 *   the owner's virtual address).
 * @param len
 *   The buffer's length, 1..65535.
 * @param shinfo
 *   Shared info in local memory that outlives the mbuf's attachment (one
 *   per mbuf alive: its reference count is set to 1), or NULL to use the
 *   mbuf's private area.
 * @return
 *   The mbuf, or NULL with rte_errno set: ENODEV (@p dev NULL or not an
 *   mlx5 device), EINVAL (NULL @p mp or @p buf, @p len 0 or above 65535,
 *   @p iova not a key's IOVA, a range outside the export or registration,
 *   @p shinfo NULL and a private area too small), ENOENT (@p iova is not a
 *   live key of @p dev), ENOMEM (the pool is empty). Nothing is taken from
 *   the pool on failure.
 */
__rte_experimental
struct rte_mbuf *rte_pmd_mlx5_pktmbuf_alloc_private(
	struct rte_mempool *mp, struct rte_device *dev, rte_iova_t iova,
	void *buf, size_t len, struct rte_mbuf_ext_shared_info *shinfo);

#if defined(ALLOW_EXPERIMENTAL_API) && !defined(RTE_PMD_MLX5_OUT_OF_LINE)
/**
 * Mark an mbuf's buffer as private IOVA: set buf_iova and the
 * RTE_PMD_MLX5_PRIVATE_IOVA flag. Inline: the flag's mask is looked up
 * once (rte_pmd_mlx5_private_iova_flag()) and kept, since a dynamic flag
 * never changes once registered; each later call is a load, a test and two
 * stores, no lookup and no lock. (The library also exports it as a
 * function, used without ALLOW_EXPERIMENTAL_API and by binaries built
 * against an earlier header.)
 *
 * @param m
 *   The mbuf (its buffer is the one the key covers).
 * @param iova
 *   The key's buf_iova value (rte_pmd_mlx5_mkey_to_iova()).
 * @return
 *   0, or -ENOENT if the flag is not registered (no mlx5 device probed).
 */
__rte_experimental
static inline int
rte_pmd_mlx5_mbuf_set_private_iova(struct rte_mbuf *m, rte_iova_t iova)
{
	static uint64_t flag;

	if (unlikely(flag == 0)) {
		flag = rte_pmd_mlx5_private_iova_flag();
		if (flag == 0)
			return -ENOENT;
	}
	m->buf_iova = iova;
	m->ol_flags |= flag;
	return 0;
}
#else
/**
 * rte_pmd_mlx5_mbuf_set_private_iova() as an exported function (without
 * ALLOW_EXPERIMENTAL_API the inline form is not defined).
 *
 * @param m
 *   The mbuf (its buffer is the one the key covers).
 * @param iova
 *   The key's buf_iova value (rte_pmd_mlx5_mkey_to_iova()).
 * @return
 *   0, or -ENOENT if the flag is not registered (no mlx5 device probed).
 */
__rte_experimental
int rte_pmd_mlx5_mbuf_set_private_iova(struct rte_mbuf *m, rte_iova_t iova);
#endif

#ifdef __cplusplus
}
#endif

#endif /* RTE_PMD_MLX5_H_ */
