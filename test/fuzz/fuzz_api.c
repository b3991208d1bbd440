/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * Fuzz target: the arguments of the public API (rte_pmd_mlx5.h).
 *
 * Four probed devices: host (card 202, vHCA 1) and dpu (card 202, vHCA 2)
 * of one card, other (card 203, vHCA 1) on another card, and nocross
 * (card 202, vHCA 3) without the cross-vHCA capabilities; plus NULL and a
 * struct rte_device that was never probed. The input is a script of calls
 * with fuzzer-chosen arguments: devices, buffer offsets and lengths, vHCA
 * ids, mkeys (handed out earlier, altered, or raw), access keys, IOVA
 * values with arbitrary low bits, NULL pointers. Buffers are always the
 * target's own (or NULL): a wild pointer is not a misuse the driver can
 * detect. The DMA record moves bytes through a key handed out, as a PMD
 * would.
 *
 * Every key handed out is counted (the API reference-counts them). After
 * each record every device holds exactly the objects of the keys it handed
 * out (an export: umem, mkey and grant; a private registration: an MR; a
 * crossing key: an mkey; an alias: an alias object). At the end of the
 * input each reference is released, and the devices must be back where
 * they started: no key listed, the same live objects on the device as after
 * the probe, nothing reclaimed. A release the harness did not expect to
 * succeed, an IOVA with low bits set, an importer key handed out twice, or
 * a DMA through a key that moved other bytes than those at its address
 * (every key translates addresses to themselves) is a bug.
 */

#include <errno.h>
#include <inttypes.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_errno.h>
#include <rte_mbuf.h>
#include <rte_mbuf_dyn.h>

#include <rte_pmd_mlx5.h>

#include "fuzz_common.h"
#include "mlx5_test_sim.h"

#define NB_DEV 4
#define DEV_SEL 6 /* NB_DEV devices, NULL, a device never probed. */
#define BUF_SIZE (64 * 1024)
#define MAX_HELD 128
#define MAX_RECORDS 64
#define DMA_MAX 4096

static const struct {
	const char *name;
	const char *args;
	uint16_t card;
	uint16_t vhca_id;
} dev_conf[NB_DEV] = {
	{ "mlx5_sim30", "card=202,vhca_id=1", 202, 1 },
	{ "mlx5_sim31", "card=202,vhca_id=2", 202, 2 },
	{ "mlx5_sim32", "card=203,vhca_id=1", 203, 1 },
	{ "mlx5_sim33", "card=202,vhca_id=3,crossing=0", 202, 3 },
};

/* Records. */
enum {
	R_EXPORT,
	R_CROSS,
	R_IMPORT,
	R_PRIVATE,
	R_RELEASE,
	R_VHCA_ID,
	R_CTX_PD,
	R_DYN_FLAGS,
	R_DMA,
	R_REPROBE,
	R_PROTECT,
	R_PIN_MODE,
	R_MBUF,
	R_NUM
};

/* What a key is, hence what it holds on the device. */
enum {
	K_EXPORT,   /* umem + mkey, granted to other vHCAs. */
	K_PRIVATE,  /* A verbs MR. */
	K_CROSSING, /* A crossing mkey. */
	K_ALIAS,    /* An alias object. */
};

/* A key handed out and the references the harness holds on it. */
struct held {
	unsigned int dev;
	uint32_t mkey;
	uint32_t refs;
	uint8_t kind;
};

static struct rte_device *devs[NB_DEV];
static struct mlx5_common_device *cdevs[NB_DEV];
static long baseline[NB_DEV];
static struct mlx5_sim_stats base_st[NB_DEV];
static struct rte_device fake_dev = { .name = "mlx5_sim99" };
static uint8_t *buf;
/*
 * The pool of rec_mbuf(), made before the devices probe: the drivers
 * register a mempool on every device, which the device baselines count.
 */
static struct rte_mempool *mbuf_pool;
static uint8_t dma_local[DMA_MAX];
static struct held held[MAX_HELD];
static unsigned int nb_held;
static const uint8_t key_a[RTE_PMD_MLX5_ACCESS_KEY_LEN] =
	"an access key of 32 bytes......";
static const uint8_t key_b[RTE_PMD_MLX5_ACCESS_KEY_LEN] =
	"another key, also 32 bytes.....";

/* The device a selector names: one of ours, NULL or the fake one. */
static struct rte_device *
dev_of(uint8_t sel, unsigned int *idx)
{
	sel %= DEV_SEL;
	*idx = sel;
	if (sel < NB_DEV)
		return devs[sel];
	return sel == NB_DEV ? NULL : &fake_dev;
}

static struct held *
held_find(unsigned int dev, uint32_t mkey)
{
	for (unsigned int i = 0; i < nb_held; i++)
		if (held[i].dev == dev && held[i].mkey == mkey)
			return &held[i];
	return NULL;
}

/* The API handed out @iova on device @dev: one more reference held. */
static void
held_add(unsigned int dev, rte_iova_t iova, uint8_t kind)
{
	uint32_t mkey = rte_pmd_mlx5_iova_to_mkey(iova);
	struct held *h;

	FUZZ_CHECK((iova & UINT32_MAX) == 0, "IOVA 0x%" PRIx64
		   " has low bits set", (uint64_t)iova);
	FUZZ_CHECK(mkey != 0, "key 0 handed out");
	h = held_find(dev, mkey);
	if (h == NULL) {
		FUZZ_CHECK(nb_held < MAX_HELD, "checked before the call");
		h = &held[nb_held++];
		*h = (struct held){ .dev = dev, .mkey = mkey, .kind = kind };
	}
	FUZZ_CHECK(h->kind == kind, "key 0x%08x handed out as kind %u, then %u",
		   mkey, h->kind, kind);
	h->refs++;
	FUZZ_TRACE("  key 0x%08x of %s: %u references", mkey,
		   dev_conf[dev].name, h->refs);
}

/* A key of the table, altered or not, or a raw value. */
static uint32_t
mkey_of(struct fuzz_in *in)
{
	uint8_t sel = fuzz_u8(in);
	uint32_t raw = 0;

	if (sel & 0x80)
		return fuzz_u32(in);
	if (nb_held == 0)
		return 0;
	raw = held[(sel & 0x3f) % nb_held].mkey;
	/* Another variant byte of the same index. */
	return (sel & 0x40) ? raw ^ fuzz_u8(in) : raw;
}

static const uint8_t *
access_key_of(struct fuzz_in *in, uint8_t *raw)
{
	switch (fuzz_u8(in) % 4) {
	case 0:
		return key_a;
	case 1:
		return key_b;
	case 2:
		fuzz_bytes(in, raw, RTE_PMD_MLX5_ACCESS_KEY_LEN);
		return raw;
	default:
		return NULL;
	}
}

static uint32_t
vhca_of(struct fuzz_in *in)
{
	uint8_t sel = fuzz_u8(in);

	switch (sel % 4) {
	case 0:
		return dev_conf[(sel >> 2) % NB_DEV].vhca_id;
	case 1:
		return 0x10000 + (sel >> 2); /* Above 65535. */
	case 2:
		return fuzz_u16(in);
	default:
		return fuzz_u32(in);
	}
}

/* An address in our buffer (or NULL) and a length that stays inside it. */
static void *
range_of(struct fuzz_in *in, size_t *len)
{
	uint8_t mode = fuzz_u8(in);
	uint32_t off = fuzz_u16(in) % BUF_SIZE;
	uint32_t l = fuzz_u16(in);

	switch (mode % 4) {
	case 0:
		*len = RTE_MIN(l, BUF_SIZE - off);
		break;
	case 1:
		*len = 0;
		break;
	case 2:
		*len = SIZE_MAX - (mode >> 2); /* Wraps. */
		break;
	default:
		/* A page-aligned slice, as mempool chunks are. */
		off &= ~(uint32_t)4095;
		*len = RTE_MIN(RTE_ALIGN_CEIL(l, 4096u), BUF_SIZE - off);
		break;
	}
	return (mode & 0x80) ? NULL : buf + off;
}

static void
rec_export(struct fuzz_in *in)
{
	unsigned int d;
	struct rte_device *dev = dev_of(fuzz_u8(in), &d);
	uint8_t raw[RTE_PMD_MLX5_ACCESS_KEY_LEN];
	size_t len;
	void *va = range_of(in, &len);
	const uint8_t *key = access_key_of(in, raw);
	uint8_t flags = fuzz_u8(in);
	uint16_t vhca_id = 0;
	uint32_t mkey = 0;
	int ret;

	if (nb_held == MAX_HELD)
		return;
	ret = rte_pmd_mlx5_export_mem(dev, va, len, key,
				      (flags & 1) ? NULL : &vhca_id,
				      (flags & 2) ? NULL : &mkey);
	FUZZ_TRACE("  export %p +%zu: %d", va, len, ret);
	if (ret != 0)
		return;
	FUZZ_CHECK(d < NB_DEV, "export on a device not probed");
	FUZZ_CHECK(vhca_id == dev_conf[d].vhca_id, "export says vHCA %u",
		   vhca_id);
	held_add(d, rte_pmd_mlx5_mkey_to_iova(mkey), K_EXPORT);
}

static void
rec_import(struct fuzz_in *in, bool alias)
{
	unsigned int d;
	struct rte_device *dev = dev_of(fuzz_u8(in), &d);
	uint32_t vhca_id = vhca_of(in);
	uint32_t mkey = mkey_of(in);
	uint8_t raw[RTE_PMD_MLX5_ACCESS_KEY_LEN];
	const uint8_t *key = alias ? access_key_of(in, raw) : NULL;
	rte_iova_t iova;

	if (nb_held == MAX_HELD)
		return;
	if (alias)
		iova = rte_pmd_mlx5_import_mem(dev, vhca_id, mkey, key);
	else
		iova = rte_pmd_mlx5_create_cross_vhca_mkey(dev, vhca_id, mkey);
	FUZZ_TRACE("  %s vHCA %u mkey 0x%08x: 0x%" PRIx64 " (%d)",
		   alias ? "import" : "crossing", vhca_id, mkey,
		   (uint64_t)iova, iova ? 0 : rte_errno);
	if (iova == 0)
		return;
	FUZZ_CHECK(d < NB_DEV, "import on a device not probed");
	/* Importer keys are never shared: each call makes a new one. */
	FUZZ_CHECK(held_find(d, rte_pmd_mlx5_iova_to_mkey(iova)) == NULL,
		   "import returned key 0x%08x, already held",
		   rte_pmd_mlx5_iova_to_mkey(iova));
	held_add(d, iova, alias ? K_ALIAS : K_CROSSING);
}

static void
rec_private(struct fuzz_in *in)
{
	unsigned int d;
	struct rte_device *dev = dev_of(fuzz_u8(in), &d);
	size_t len;
	void *va = range_of(in, &len);
	rte_iova_t iova;

	if (nb_held == MAX_HELD)
		return;
	/*
	 * Cut at 4 GB: a longer length that does not wrap would register
	 * whatever memory follows the buffer (and fault it all in).
	 */
	if (len > UINT32_MAX)
		len = va != NULL ? BUF_SIZE - (size_t)((uint8_t *)va - buf) : 0;
	iova = rte_pmd_mlx5_get_buf_private_iova(dev, va, len);
	FUZZ_TRACE("  private %p +%zu: 0x%" PRIx64, va, len, (uint64_t)iova);
	if (iova == 0)
		return;
	FUZZ_CHECK(d < NB_DEV, "private IOVA on a device not probed");
	held_add(d, iova, K_PRIVATE);
}

/*
 * rte_pmd_mlx5_pktmbuf_alloc_private(): an mbuf only for a key the harness
 * holds on that device, attached and flagged; freed, the pool has every
 * mbuf back with its own buffer; refused, nothing taken from the pool.
 */
static void
rec_mbuf(struct fuzz_in *in)
{
	static struct rte_mbuf_ext_shared_info shinfo;
	struct rte_mempool *mp = mbuf_pool;
	unsigned int d;
	struct rte_device *dev = dev_of(fuzz_u8(in), &d);
	uint32_t mkey = mkey_of(in);
	bool own_shinfo = fuzz_u8(in) & 1;
	size_t len;
	void *va = range_of(in, &len);
	struct rte_mbuf *m;

	m = rte_pmd_mlx5_pktmbuf_alloc_private(mp, dev,
		rte_pmd_mlx5_mkey_to_iova(mkey), va, len,
		own_shinfo ? &shinfo : NULL);
	FUZZ_TRACE("  mbuf key 0x%08x %p +%zu: %p", mkey, va, len, (void *)m);
	if (m == NULL) {
		FUZZ_CHECK(rte_mempool_avail_count(mp) == 15,
			   "a refused mbuf taken from the pool");
		return;
	}
	FUZZ_CHECK(d < NB_DEV && held_find(d, mkey) != NULL,
		   "an mbuf for key 0x%08x the harness does not hold", mkey);
	FUZZ_CHECK(m->buf_addr == va && m->data_len == len &&
		   (m->ol_flags & rte_pmd_mlx5_private_iova_flag()) != 0,
		   "the mbuf is not the buffer asked for, flagged");
	rte_pktmbuf_free(m);
	FUZZ_CHECK(rte_mempool_avail_count(mp) == 15, "the mbuf came back");
}

static void
rec_release(struct fuzz_in *in)
{
	unsigned int d;
	struct rte_device *dev = dev_of(fuzz_u8(in), &d);
	uint8_t mode = fuzz_u8(in);
	uint32_t mkey = mkey_of(in);
	rte_iova_t iova;
	struct held *h;
	int ret;

	switch (mode % 4) {
	case 0:
		iova = rte_pmd_mlx5_mkey_to_iova(mkey);
		break;
	case 1:
		iova = mkey; /* The mkey itself is accepted too. */
		break;
	case 2:
		iova = rte_pmd_mlx5_mkey_to_iova(mkey) | fuzz_u32(in);
		break;
	default:
		iova = fuzz_u64(in);
		break;
	}
	ret = rte_pmd_mlx5_release_key(dev, iova);
	FUZZ_TRACE("  release 0x%" PRIx64 ": %d", (uint64_t)iova, ret);
	if (ret != 0)
		return;
	mkey = iova > UINT32_MAX ? rte_pmd_mlx5_iova_to_mkey(iova) :
				   (uint32_t)iova;
	h = d < NB_DEV ? held_find(d, mkey) : NULL;
	FUZZ_CHECK(h != NULL && h->refs > 0, "released 0x%" PRIx64
		   " on device %u: never handed out", (uint64_t)iova, d);
	if (--h->refs == 0)
		*h = held[--nb_held];
}

static void
rec_vhca_id(struct fuzz_in *in)
{
	unsigned int d;
	struct rte_device *dev = dev_of(fuzz_u8(in), &d);
	uint8_t flags = fuzz_u8(in);
	uint16_t id = 0;
	int ret;

	ret = rte_pmd_mlx5_get_vhca_id(dev, (flags & 1) ? NULL : &id);
	FUZZ_CHECK(ret != 0 || (d < NB_DEV && id == dev_conf[d].vhca_id),
		   "vHCA id %u of device %u", id, d);
}

static void
rec_ctx_pd(struct fuzz_in *in)
{
	unsigned int d;
	struct rte_device *dev = dev_of(fuzz_u8(in), &d);
	uint8_t flags = fuzz_u8(in);
	void *ctx = NULL, *pd = NULL;
	int ret;

	ret = rte_pmd_mlx5_get_dev_ctx_and_pd(dev, (flags & 1) ? NULL : &ctx,
					      (flags & 2) ? NULL : &pd);
	FUZZ_CHECK(ret != 0 || (d < NB_DEV && ctx == cdevs[d]->ctx &&
				pd == cdevs[d]->pd), "context of device %u", d);
}

static void
rec_dyn_flags(struct fuzz_in *in)
{
	char a[RTE_MBUF_DYN_NAMESIZE], b[RTE_MBUF_DYN_NAMESIZE];
	char *names[2] = { a, b };
	uint8_t flags = fuzz_u8(in);
	struct rte_mbuf m;

	if (flags & 1)
		names[1] = NULL;
	rte_pmd_common_mlx5_get_dyn_flag_names((flags & 2) ? NULL : names,
					       flags >> 2);
	memset(&m, 0, sizeof(m));
	FUZZ_CHECK(rte_pmd_mlx5_mbuf_set_private_iova(&m, fuzz_u64(in)) == 0,
		   "the flag is registered once a device is probed");
	FUZZ_CHECK(m.ol_flags == rte_pmd_mlx5_private_iova_flag(), "");
}

/* The device moves bytes through a key, as a PMD would with a WQE. */
static void
rec_dma(struct fuzz_in *in)
{
	unsigned int d = fuzz_u8(in) % NB_DEV;
	uint32_t mkey = mkey_of(in);
	uint8_t mode = fuzz_u8(in);
	uint64_t addr = (mode & 1) ? fuzz_u64(in) :
			(uintptr_t)buf + fuzz_u16(in) % BUF_SIZE;
	size_t len = fuzz_u16(in) % (DMA_MAX + 1);
	int ret;

	static uint8_t stamp;

	/* Bytes this DMA alone would write. */
	stamp++;
	for (size_t i = 0; i < len; i++)
		dma_local[i] = (uint8_t)(stamp + i * 7);
	ret = mlx5_sim_dma(cdevs[d]->ctx, cdevs[d]->pdn, mkey, addr, dma_local,
			   len, mode & 2, NULL);
	FUZZ_TRACE("  DMA on %s key 0x%08x addr 0x%" PRIx64 " +%zu: %d",
		   dev_conf[d].name, mkey, addr, len, ret);
	/*
	 * Every key the API hands out translates addresses to themselves
	 * (exports and private registrations are the buffer's own addresses,
	 * crossing keys and aliases the owner's): a transfer through one of
	 * them that succeeded moved exactly these bytes.
	 */
	if (ret == 0 && len > 0 && held_find(d, mkey) != NULL) {
		FUZZ_CHECK(addr >= (uintptr_t)buf &&
			   addr + len <= (uintptr_t)buf + BUF_SIZE,
			   "DMA through 0x%08x reached 0x%" PRIx64 ", outside the"
			   " memory registered", mkey, addr);
		FUZZ_CHECK(memcmp((void *)(uintptr_t)addr, dma_local, len) == 0,
			   "DMA %s through key 0x%08x at 0x%" PRIx64 " +%zu moved"
			   " other bytes", (mode & 2) ? "write" : "read", mkey,
			   addr, len);
	}
}

static void
dev_probe(unsigned int d)
{
	struct mlx5_sim_stats st;

	FUZZ_CHECK(sim_probe(dev_conf[d].name, dev_conf[d].args) == 0, "%s",
		   dev_conf[d].name);
	devs[d] = sim_eal_dev(dev_conf[d].name);
	cdevs[d] = sim_cdev(dev_conf[d].name);
	FUZZ_CHECK(devs[d] != NULL && cdevs[d] != NULL, "");
	FUZZ_CHECK(mlx5_sim_vhca_stats(dev_conf[d].card, dev_conf[d].vhca_id,
				       &st) == 0, "");
	baseline[d] = (long)(st.live_objects + st.contexts);
	base_st[d] = st;
}

/*
 * Each device's objects against the keys the harness holds: an export is
 * a umem, an mkey and a grant; a private registration an MR; a crossing
 * key an mkey; an alias an alias object. Nothing else may appear or stay.
 */
static void
check_counts(void)
{
	for (unsigned int d = 0; d < NB_DEV; d++) {
		uint64_t n[4] = { 0, 0, 0, 0 };
		const struct mlx5_sim_stats *b = &base_st[d];
		struct mlx5_sim_stats st;

		for (unsigned int i = 0; i < nb_held; i++)
			if (held[i].dev == d)
				n[held[i].kind]++;
		FUZZ_CHECK(mlx5_sim_vhca_stats(dev_conf[d].card,
					       dev_conf[d].vhca_id, &st) == 0,
			   "");
		FUZZ_CHECK(st.umems - b->umems == n[K_EXPORT] &&
			   st.allowed - b->allowed == n[K_EXPORT] &&
			   st.mkeys - b->mkeys == n[K_EXPORT] + n[K_CROSSING] &&
			   st.mrs - b->mrs == n[K_PRIVATE] &&
			   st.general_objs - b->general_objs == n[K_ALIAS],
			   "%s: umems +%" PRId64 " grants +%" PRId64
			   " mkeys +%" PRId64 " mrs +%" PRId64 " aliases +%"
			   PRId64 " for %" PRIu64 " exports, %" PRIu64
			   " private, %" PRIu64 " crossing, %" PRIu64 " aliases",
			   dev_conf[d].name, (int64_t)(st.umems - b->umems),
			   (int64_t)(st.allowed - b->allowed),
			   (int64_t)(st.mkeys - b->mkeys),
			   (int64_t)(st.mrs - b->mrs),
			   (int64_t)(st.general_objs - b->general_objs),
			   n[K_EXPORT], n[K_PRIVATE], n[K_CROSSING], n[K_ALIAS]);
	}
}

/* Remove a device with its keys still held: remove destroys them. */
static void
rec_reprobe(struct fuzz_in *in)
{
	unsigned int d = fuzz_u8(in) % NB_DEV;

	FUZZ_CHECK(sim_remove(dev_conf[d].name) == 0, "");
	FUZZ_CHECK(sim_live(dev_conf[d].card, dev_conf[d].vhca_id) == 0,
		   "%s left objects behind at remove", dev_conf[d].name);
	for (unsigned int i = 0; i < nb_held;) {
		if (held[i].dev == d)
			held[i] = held[--nb_held];
		else
			i++;
	}
	dev_probe(d);
}

/* The application protects a page of (maybe registered) memory. */
static void
rec_protect(struct fuzz_in *in)
{
	static const int prot[] = {
		PROT_READ | PROT_WRITE, PROT_NONE, PROT_READ,
	};
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	size_t off = fuzz_u16(in) % (BUF_SIZE / page) * page;
	uint8_t mode = fuzz_u8(in) % RTE_DIM(prot);

	FUZZ_CHECK(mprotect(buf + off, page, prot[mode]) == 0, "%s",
		   strerror(errno));
}

static void
end_of_input(const long *reclaimed)
{
	for (unsigned int i = 0; i < nb_held; i++) {
		struct held *h = &held[i];

		while (h->refs > 0) {
			FUZZ_CHECK(rte_pmd_mlx5_release_key(devs[h->dev],
				   rte_pmd_mlx5_mkey_to_iova(h->mkey)) == 0,
				   "release of held key 0x%08x of %s: %s",
				   h->mkey, dev_conf[h->dev].name,
				   rte_strerror(rte_errno));
			h->refs--;
		}
	}
	nb_held = 0;
	FUZZ_CHECK(mprotect(buf, BUF_SIZE, PROT_READ | PROT_WRITE) == 0, "");
	mlx5_sim_pin_check_set(MLX5_SIM_PIN_CHECK_AUTO);
	for (unsigned int d = 0; d < NB_DEV; d++) {
		const struct mlx5_common_device *cdev = cdevs[d];

		FUZZ_CHECK(TAILQ_EMPTY(&cdev->keys),
			   "%s lists a key nobody holds", dev_conf[d].name);
		FUZZ_CHECK(sim_live(dev_conf[d].card, dev_conf[d].vhca_id) ==
			   baseline[d], "%s: %ld alive, %ld after probe",
			   dev_conf[d].name,
			   sim_live(dev_conf[d].card, dev_conf[d].vhca_id),
			   baseline[d]);
		FUZZ_CHECK(sim_reclaimed(dev_conf[d].card, dev_conf[d].vhca_id)
			   == reclaimed[d], "%s: objects reclaimed",
			   dev_conf[d].name);
	}
}

/* Seeds. */

static void
put_range(struct fuzz_out *o, uint8_t mode, uint16_t off, uint16_t len)
{
	fuzz_put_u8(o, mode);
	fuzz_put_u16(o, off);
	fuzz_put_u16(o, len);
}

static void
put_export(struct fuzz_out *o, uint8_t dev, uint16_t off, uint16_t len,
	   uint8_t key)
{
	fuzz_put_u8(o, R_EXPORT);
	fuzz_put_u8(o, dev);
	put_range(o, 0, off, len);
	fuzz_put_u8(o, key);
	fuzz_put_u8(o, 0);
}

/* Crossing (@alias false) or alias by @dev of held key @slot of @owner. */
static void
put_import(struct fuzz_out *o, bool alias, uint8_t dev, uint8_t owner,
	   uint8_t slot, uint8_t key)
{
	fuzz_put_u8(o, alias ? R_IMPORT : R_CROSS);
	fuzz_put_u8(o, dev);
	fuzz_put_u8(o, (uint8_t)(owner << 2)); /* vhca_of() mode 0. */
	fuzz_put_u8(o, slot);
	if (alias)
		fuzz_put_u8(o, key);
}

static void
put_dma(struct fuzz_out *o, uint8_t dev, uint8_t slot, uint16_t off,
	uint16_t len, bool write)
{
	fuzz_put_u8(o, R_DMA);
	fuzz_put_u8(o, dev);
	fuzz_put_u8(o, slot);
	fuzz_put_u8(o, write ? 2 : 0);
	fuzz_put_u16(o, off);
	fuzz_put_u16(o, len);
}

static void
put_release(struct fuzz_out *o, uint8_t dev, uint8_t mode, uint8_t slot)
{
	fuzz_put_u8(o, R_RELEASE);
	fuzz_put_u8(o, dev);
	fuzz_put_u8(o, mode);
	fuzz_put_u8(o, slot);
}

static void
write_seeds(const char *dir)
{
	struct fuzz_out o;

	/* The BlueField flow: export, crossing and alias, DMA, revoke. */
	o.len = 0;
	put_export(&o, 0, 0, 16384, 0);
	put_import(&o, false, 1, 0, 0, 0);
	put_import(&o, true, 1, 0, 0, 0);
	put_dma(&o, 1, 1, 100, 1000, false);
	put_dma(&o, 1, 2, 200, 1000, true);
	put_release(&o, 0, 0, 0);
	put_dma(&o, 1, 1, 100, 10, false);
	put_import(&o, false, 1, 0, 0, 0);
	fuzz_seed_write(dir, "bluefield-flow", o.buf, o.len);

	/* Shared owner keys: the same export twice, a range inside a private
	 * registration, releases by IOVA and by mkey. */
	o.len = 0;
	put_export(&o, 0, 4096, 4096, 1);
	put_export(&o, 0, 4096, 4096, 1);
	put_export(&o, 0, 4096, 4096, 0);
	fuzz_put_u8(&o, R_PRIVATE);
	fuzz_put_u8(&o, 1);
	put_range(&o, 3, 0, 32768);
	fuzz_put_u8(&o, R_PRIVATE);
	fuzz_put_u8(&o, 1);
	put_range(&o, 0, 100, 200);
	put_release(&o, 0, 1, 0);
	put_release(&o, 1, 0, 2);
	put_release(&o, 1, 2, 2);
	fuzz_put_u32(&o, 0x1234);
	fuzz_seed_write(dir, "shared-keys", o.buf, o.len);

	/* What must be refused: another card, no capability, wrong key, a
	 * vHCA id above 65535, NULL and unprobed devices, bad ranges. */
	o.len = 0;
	put_export(&o, 0, 0, 8192, 0);
	put_import(&o, false, 2, 0, 0, 0);
	put_import(&o, true, 2, 0, 0, 0);
	put_import(&o, false, 3, 0, 0, 0);
	put_import(&o, true, 3, 0, 0, 0);
	put_import(&o, true, 1, 0, 0, 1);
	fuzz_put_u8(&o, R_CROSS);
	fuzz_put_u8(&o, 1);
	fuzz_put_u8(&o, 1);
	fuzz_put_u8(&o, 0);
	put_export(&o, 3, 0, 8192, 0);
	put_export(&o, 4, 0, 8192, 0);
	put_export(&o, 5, 0, 8192, 0);
	fuzz_put_u8(&o, R_EXPORT);
	fuzz_put_u8(&o, 0);
	put_range(&o, 2, 0, 0);
	fuzz_put_u8(&o, 0);
	fuzz_put_u8(&o, 0);
	fuzz_put_u8(&o, R_EXPORT);
	fuzz_put_u8(&o, 0);
	put_range(&o, 0x80, 0, 100);
	fuzz_put_u8(&o, 3);
	fuzz_put_u8(&o, 3);
	fuzz_seed_write(dir, "refusals", o.buf, o.len);

	/* Releases that must fail, then the queries. */
	o.len = 0;
	put_export(&o, 0, 0, 4096, 0);
	put_release(&o, 1, 0, 0);
	put_release(&o, 4, 0, 0);
	put_release(&o, 0, 3, 0);
	fuzz_put_u64(&o, UINT64_C(0x100000001));
	put_release(&o, 0, 0, 0x80);
	fuzz_put_u32(&o, 0xdead00);
	fuzz_put_u8(&o, R_VHCA_ID);
	fuzz_put_u8(&o, 1);
	fuzz_put_u8(&o, 0);
	fuzz_put_u8(&o, R_CTX_PD);
	fuzz_put_u8(&o, 0);
	fuzz_put_u8(&o, 0);
	fuzz_put_u8(&o, R_DYN_FLAGS);
	fuzz_put_u8(&o, 2 << 2);
	fuzz_put_u64(&o, UINT64_C(0x1234) << 32);
	fuzz_seed_write(dir, "release-and-queries", o.buf, o.len);

	/* Remove with keys held (on both sides), then the flow again. */
	o.len = 0;
	put_export(&o, 0, 0, 16384, 0);
	put_import(&o, false, 1, 0, 0, 0);
	put_import(&o, true, 1, 0, 0, 0);
	fuzz_put_u8(&o, R_REPROBE);
	fuzz_put_u8(&o, 0);
	put_dma(&o, 1, 0, 0, 64, false);
	fuzz_put_u8(&o, R_REPROBE);
	fuzz_put_u8(&o, 1);
	put_export(&o, 0, 0, 16384, 0);
	put_import(&o, false, 1, 0, 0, 0);
	fuzz_seed_write(dir, "remove-with-keys", o.buf, o.len);

	/* Exported memory protected by the application, then exported. */
	o.len = 0;
	put_export(&o, 0, 0, 16384, 0);
	put_import(&o, false, 1, 0, 0, 0);
	fuzz_put_u8(&o, R_PROTECT);
	fuzz_put_u16(&o, 1);
	fuzz_put_u8(&o, 1);
	put_dma(&o, 1, 1, 4096, 64, false);
	put_dma(&o, 1, 1, 0, 8192, true);
	put_export(&o, 0, 4096, 4096, 1);
	fuzz_put_u8(&o, R_PRIVATE);
	fuzz_put_u8(&o, 0);
	put_range(&o, 0, 0, 8192);
	fuzz_seed_write(dir, "protected-memory", o.buf, o.len);
	/* The same with the pin check of older kernels. */
	memmove(o.buf + 2, o.buf, o.len);
	o.buf[0] = R_PIN_MODE;
	o.buf[1] = 1;
	o.len += 2;
	fuzz_seed_write(dir, "protected-memory-maps", o.buf, o.len);
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *dir = getenv(FUZZ_SEED_ENV);

	RTE_SET_USED(argc);
	RTE_SET_USED(argv);
	if (dir != NULL) {
		write_seeds(dir);
		exit(0);
	}
	fuzz_eal_init("fuzz_api");
	mbuf_pool = rte_pktmbuf_pool_create("fuzz_api_mbufs", 15, 0,
		RTE_ALIGN(sizeof(struct rte_mbuf_ext_shared_info),
			  RTE_MBUF_PRIV_ALIGN), 0, SOCKET_ID_ANY);
	FUZZ_CHECK(mbuf_pool != NULL, "mbuf pool");
	for (unsigned int d = 0; d < NB_DEV; d++)
		dev_probe(d);
	buf = mmap(NULL, BUF_SIZE, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	FUZZ_CHECK(buf != MAP_FAILED, "mmap");
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_in in = { .p = data, .len = size };
	long reclaimed[NB_DEV];

	for (unsigned int d = 0; d < NB_DEV; d++)
		reclaimed[d] = sim_reclaimed(dev_conf[d].card,
					     dev_conf[d].vhca_id);
	for (unsigned int i = 0; i < MAX_RECORDS && !fuzz_empty(&in); i++) {
		uint8_t op = fuzz_u8(&in) % R_NUM;

		FUZZ_TRACE("record %u", op);
		switch (op) {
		case R_EXPORT:
			rec_export(&in);
			break;
		case R_CROSS:
			rec_import(&in, false);
			break;
		case R_IMPORT:
			rec_import(&in, true);
			break;
		case R_PRIVATE:
			rec_private(&in);
			break;
		case R_RELEASE:
			rec_release(&in);
			break;
		case R_VHCA_ID:
			rec_vhca_id(&in);
			break;
		case R_CTX_PD:
			rec_ctx_pd(&in);
			break;
		case R_DYN_FLAGS:
			rec_dyn_flags(&in);
			break;
		case R_DMA:
			rec_dma(&in);
			break;
		case R_REPROBE:
			rec_reprobe(&in);
			break;
		case R_PROTECT:
			rec_protect(&in);
			break;
		case R_MBUF:
			rec_mbuf(&in);
			break;
		default:
			/* The pin check of kernels before 5.14, or the other. */
			mlx5_sim_pin_check_set(fuzz_u8(&in) & 1 ?
					       MLX5_SIM_PIN_CHECK_MAPS :
					       MLX5_SIM_PIN_CHECK_AUTO);
			break;
		}
		check_counts();
	}
	end_of_input(reclaimed);
	return 0;
}
