/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * Fuzz target: the software device's command interpreter, through every
 * operation of its backend table (mlx5_glue.h) and its DMA entry point.
 *
 * Five vHCAs of one card (card 201): 1, 2 and 5 with every capability (so
 * that crossing mkeys, ALLOW_OTHER_VHCA_ACCESS and alias objects between
 * them work; crossing onto an mkey of 1 needs the grant and the
 * crossed_side_mkey mark, of 2 the grant, of 5 the mark; aliases made by 5
 * come with a bad status), 3 without the cross-vHCA capabilities and with a
 * 3-entry rate table, 4 without hca_cap_2 and packet pacing. Each vHCA has three
 * context slots: 0 opens with DEVX, 1 without, 2 holds an import of
 * another slot's context (same uverbs file).
 *
 * The input is a script: one flags byte, then records
 *
 *   op (entry point), target (vHCA + context slot), arguments
 *
 * read by struct fuzz_in (zeros past the end). A DEVX mailbox is described
 * by an opcode (an index into the table of known opcodes, or a raw 16-bit
 * one), op_mod, the input and output lengths (each buffer is malloc'ed at
 * exactly that length, so that ASan catches any access past it), payload
 * bytes from offset 8, and fix-ups: a bit field (offset and width in the
 * PRM's bit numbering) set to a value taken from the objects made so far
 * (a PD number, umem id, mkey index or key, vHCA id, ...), because those
 * values change from run to run. Every object made is kept in a table so
 * that later records can use, query, modify and destroy it.
 *
 * Flags bit 1 makes registrations check their pages through
 * /proc/self/maps (the path of kernels without MADV_POPULATE_WRITE).
 *
 * After each record the device's counts of mkeys, MRs, umems, UARs and
 * aliases must be those of the tables. At the end of the input every object
 * is destroyed (flags bit 0 clear; each destroy must succeed and leave the
 * vHCAs without live objects) or left to the sim's reclaim at context close
 * (bit set); then the contexts are closed and every vHCA must be empty. A
 * refusal must carry a PRM status and a syndrome the sim documents; a DMA
 * through an MR that succeeds must have moved exactly its bytes.
 *
 * Memory handed to the device (MRs, umems) is always inside the target's
 * own buffers, so that a translation, however wrong, cannot lead a DMA out
 * of them: DMA addresses are then free-form. The one registration that
 * covers all memory, the implicit ODP MR, turns DMA off for the rest of the
 * input.
 *
 * The format's constants are in fuzz_sim_cmd.h. MLX5_FUZZ_WRITE_SEEDS=<dir>
 * writes the seed corpus (fuzz_sim_cmd_seeds.c: mailboxes built with the
 * project's MLX5_SET layouts) and exits.
 */

#include <errno.h>
#include <inttypes.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <rte_common.h>

#include "fuzz_common.h"
#include "fuzz_sim_cmd.h"
#include "mlx5_sim_adapter.h"
#include "mlx5_test_sim.h"

#define TBL 16
#define BUF_SIZE (64 * 1024)
/* QUERY_HCA_CAP's output is 4112 bytes; leave room above every layout. */
#define MBOX_MAX 8192
#define MAX_RECORDS 64
#define PP_CTX_MAX 64

static const struct {
	uint16_t id;
	const char *dev;
	const char *args;
} vhca_conf[NB_VHCA] = {
	{ 1, "mlx5_sim20", "card=201,vhca_id=1" },
	/* Crossing onto its mkeys needs the grant only. */
	{ 2, "mlx5_sim21", "card=201,vhca_id=2,cross_rule=grant" },
	{ 3, "mlx5_sim22", "card=201,vhca_id=3,crossing=0,odp=0,crypto=0,"
	  "update_tag=0,pp_table_size=4,pp_min_rate=10,pp_max_rate=1000" },
	{ 4, "mlx5_sim23", "card=201,vhca_id=4,hca_cap_2=0,pacing=0" },
	/* Crossing onto its mkeys needs the mark only; aliases come bad. */
	{ 5, "mlx5_sim24", "card=201,vhca_id=5,cross_rule=mark,alias_status=2,"
	  "pp_uid=0,signature=0" },
};

/* Object tables. */
enum {
	T_OBJ,
	T_UMEM,
	T_UAR,
	T_PD,
	T_MR,
	T_DVMK,
	T_PP,
	T_NUM
};

/* What a DEVX object is (the opcode that made it). */
enum {
	OBJ_MKEY,
	OBJ_ALIAS,
	OBJ_PD,
	OBJ_OTHER,
};

struct ent {
	bool used;
	unsigned int vhca;
	unsigned int file;  /* Which uverbs file owns it (struct ctx_slot). */
	void *h;            /* The handle the backend gave. */
	uint32_t id;        /* pdn, umem id, mkey index, page id, pp index. */
	uint32_t key;       /* lkey; PD handle for PDs. */
	uint8_t kind;       /* OBJ_* for objects; "imported" for PDs. */
};

struct ctx_slot {
	struct ibv_context *ctx;
	unsigned int file;  /* Contexts sharing a file share this number. */
};

static const struct mlx5_glue *glue = &mlx5_sim_glue;
static struct ibv_device *ibdev[NB_VHCA];
static uint8_t *bufs[NB_VHCA];
static uint8_t dma_local[BUF_SIZE];
static struct ctx_slot ctxs[NB_VHCA][NB_CTX];
static unsigned int next_file = 1;
static struct ent tbl[T_NUM][TBL];
static bool dma_off;
/*
 * An allocated PD's only handle was unimported: the PD lives on, as in
 * rdma-core, until its context closes; the input cannot destroy it.
 */
static bool pd_orphaned;
static enum mlx5_sim_pin_check pin_mode;

/* Set a PRM bit field (bit 0 = MSB of byte 0), clipped to the buffer. */
static void
set_bits(uint8_t *p, size_t len, uint32_t off, unsigned int width, uint32_t v)
{
	for (unsigned int i = 0; i < width; i++) {
		uint32_t bit = off + i;
		uint8_t mask = 0x80 >> (bit % 8);

		if (bit / 8 >= len)
			return;
		if ((v >> (width - 1 - i)) & 1)
			p[bit / 8] |= mask;
		else
			p[bit / 8] &= ~mask;
	}
}

static struct ent *
ent_at(unsigned int t, uint8_t slot)
{
	struct ent *e = &tbl[t][slot % TBL];

	return e->used ? e : NULL;
}

static struct ent *
ent_free(unsigned int t)
{
	for (unsigned int i = 0; i < TBL; i++)
		if (!tbl[t][i].used)
			return &tbl[t][i];
	return NULL;
}

static void *
ent_handle(unsigned int t, uint8_t slot)
{
	struct ent *e = ent_at(t, slot);

	return e != NULL ? e->h : NULL;
}

static uint32_t
value_of(struct fuzz_in *in, uint8_t src, uint8_t slot)
{
	static const uint8_t table_of[V_NUM] = {
		[V_PDN] = T_PD, [V_PD_HANDLE] = T_PD, [V_UMEM_ID] = T_UMEM,
		[V_OBJ_INDEX] = T_OBJ, [V_OBJ_KEY] = T_OBJ, [V_MR_KEY] = T_MR,
		[V_MR_INDEX] = T_MR, [V_DVMK_KEY] = T_DVMK,
		[V_DVMK_INDEX] = T_DVMK, [V_UAR_PAGE] = T_UAR,
		[V_PP_INDEX] = T_PP,
	};
	const struct ent *e;

	src %= V_NUM;
	if (src == V_RAW)
		return fuzz_u32(in);
	if (src == V_VHCA_ID)
		return vhca_conf[slot % NB_VHCA].id;
	if (src == V_BUF_LO)
		return (uint32_t)(uintptr_t)bufs[slot % NB_VHCA];
	if (src == V_BUF_HI)
		return (uint32_t)((uint64_t)(uintptr_t)bufs[slot % NB_VHCA] >> 32);
	e = ent_at(table_of[src], slot);
	if (e == NULL)
		return 0;
	switch (src) {
	case V_PD_HANDLE:
	case V_OBJ_KEY:
	case V_MR_KEY:
	case V_DVMK_KEY:
		return e->key;
	case V_MR_INDEX:
	case V_DVMK_INDEX:
		return e->key >> 8;
	default:
		return e->id;
	}
}

/* The context of a target byte; slots 0 and 1 open on first use. */
static struct ibv_context *
ctx_of(uint8_t target, unsigned int *vhca, unsigned int *file)
{
	unsigned int v = target % NB_VHCA;
	unsigned int s = (target / NB_VHCA) % NB_CTX;
	struct ctx_slot *cs = &ctxs[v][s];

	if (cs->ctx == NULL && s < 2) {
		struct mlx5dv_context_attr attr = {
			.flags = MLX5DV_CONTEXT_FLAGS_DEVX,
		};

		cs->ctx = glue->dv_open_device(ibdev[v], s == 0 ? &attr : NULL);
		if (cs->ctx != NULL)
			cs->file = next_file++;
	}
	*vhca = v;
	*file = cs->file;
	return cs->ctx;
}

/* A context went away: if it was its file's last, the sim reclaimed all. */
static void
ctx_gone(unsigned int v, unsigned int s)
{
	unsigned int file = ctxs[v][s].file;

	ctxs[v][s].ctx = NULL;
	ctxs[v][s].file = 0;
	for (unsigned int i = 0; i < NB_CTX; i++)
		if (ctxs[v][i].ctx != NULL && ctxs[v][i].file == file)
			return;
	for (unsigned int t = 0; t < T_NUM; t++)
		for (unsigned int i = 0; i < TBL; i++)
			if (tbl[t][i].used && tbl[t][i].vhca == v &&
			    tbl[t][i].file == file)
				tbl[t][i].used = false;
}

/* A mailbox pair read from the input. */
struct mbox {
	uint8_t *in;
	uint8_t *out;
	size_t inlen;
	size_t outlen;
};

static void
mbox_read(struct fuzz_in *in, struct mbox *m)
{
	uint8_t opsel = fuzz_u8(in);
	uint16_t opcode = opsel < RTE_DIM(opcodes) ? opcodes[opsel] :
			  fuzz_u16(in);
	uint16_t op_mod = fuzz_u16(in);
	uint8_t flags, nfix;
	uint16_t plen;

	m->inlen = fuzz_u16(in) % (MBOX_MAX + 1);
	m->outlen = fuzz_u16(in) % (MBOX_MAX + 1);
	flags = fuzz_u8(in);
	plen = fuzz_u16(in);
	/* Exactly the lengths asked: ASan sees any access beyond them. */
	m->in = (flags & 1) ? NULL : malloc(m->inlen);
	m->out = (flags & 2) ? NULL : malloc(m->outlen);
	FUZZ_CHECK((m->in != NULL || (flags & 1)) &&
		   (m->out != NULL || (flags & 2)), "malloc");
	if (m->out != NULL)
		memset(m->out, 0xa5, m->outlen);
	if (m->in != NULL) {
		memset(m->in, 0, m->inlen);
		set_bits(m->in, m->inlen, __mlx5_bit_off(mbox_in, opcode), 16,
			 opcode);
		set_bits(m->in, m->inlen, __mlx5_bit_off(mbox_in, op_mod), 16,
			 op_mod);
	}
	/* Payload from byte 8; what does not fit is consumed all the same. */
	for (size_t i = 0; i < plen && !fuzz_empty(in); i++) {
		uint8_t b = fuzz_u8(in);

		if (m->in != NULL && 8 + i < m->inlen)
			m->in[8 + i] = b;
	}
	nfix = fuzz_u8(in) % (MAX_FIXUPS + 1);
	for (unsigned int i = 0; i < nfix; i++) {
		uint16_t off = fuzz_u16(in);
		uint8_t width = fuzz_u8(in) % 33;
		uint8_t src = fuzz_u8(in);
		uint32_t v = value_of(in, src, fuzz_u8(in));

		if (m->in != NULL)
			set_bits(m->in, m->inlen, off, width ? width : 32, v);
	}
	FUZZ_TRACE("  mailbox opcode 0x%x (in %zu bytes, out %zu)",
		   m->in != NULL && m->inlen >= 2 ?
		   MLX5_GET(mbox_in, m->in, opcode) : 0, m->inlen, m->outlen);
}

static void
mbox_free(struct mbox *m)
{
	free(m->in);
	free(m->out);
}

/*
 * The backend contract for a command that reached the device: success has
 * status 0, a refusal (EREMOTEIO) a non-zero status and a syndrome the sim
 * documents.
 */
static void
check_answer(int ret, const struct mbox *m)
{
	uint32_t synd;

	if (m->out != NULL &&
	    m->outlen >= MLX5_BYTE_OFF(mbox_out, reserved_at_40))
		FUZZ_TRACE("  -> %d (%s), status 0x%x syndrome 0x%08x (%s)",
			   ret, strerror(ret),
			   MLX5_GET(mbox_out, m->out, status),
			   MLX5_GET(mbox_out, m->out, syndrome),
			   mlx5_sim_syndrome_text(MLX5_GET(mbox_out, m->out,
							   syndrome)));
	else
		FUZZ_TRACE("  -> %d (%s)", ret, strerror(ret));
	FUZZ_CHECK(ret == 0 || ret == EINVAL || ret == EOPNOTSUPP ||
		   ret == EREMOTEIO || ret == ENOMEM,
		   "unexpected error %d (%s)", ret, strerror(ret));
	if (m->out == NULL ||
	    m->outlen < MLX5_BYTE_OFF(mbox_out, reserved_at_40))
		return;
	if (ret == 0) {
		FUZZ_CHECK(MLX5_GET(mbox_out, m->out, status) == 0,
			   "success with status 0x%x",
			   MLX5_GET(mbox_out, m->out, status));
	} else if (ret == EREMOTEIO) {
		synd = MLX5_GET(mbox_out, m->out, syndrome);
		FUZZ_CHECK(MLX5_GET(mbox_out, m->out, status) != 0,
			   "EREMOTEIO with status 0, syndrome 0x%08x", synd);
		FUZZ_CHECK(strcmp(mlx5_sim_syndrome_text(synd),
				  "unknown syndrome") != 0,
			   "undocumented syndrome 0x%08x", synd);
	}
}

static void
rec_general(struct fuzz_in *in, uint8_t target)
{
	unsigned int v, file;
	struct ibv_context *ctx = ctx_of(target, &v, &file);
	struct mbox m;
	int ret;

	mbox_read(in, &m);
	ret = glue->devx_general_cmd(ctx, m.in, m.inlen, m.out, m.outlen);
	check_answer(ret, &m);
	mbox_free(&m);
}

static void
rec_obj_create(struct fuzz_in *in, uint8_t target)
{
	unsigned int v, file;
	struct ibv_context *ctx = ctx_of(target, &v, &file);
	struct ent *e = ent_free(T_OBJ);
	struct mlx5dv_devx_obj *obj;
	struct mbox m;
	uint16_t opcode;

	mbox_read(in, &m);
	if (e == NULL) {
		/* No room to keep it: it could not be destroyed. */
		mbox_free(&m);
		return;
	}
	errno = 0;
	obj = glue->devx_obj_create(ctx, m.in, m.inlen, m.out, m.outlen);
	check_answer(obj != NULL ? 0 : errno, &m);
	if (obj == NULL) {
		mbox_free(&m);
		return;
	}
	opcode = MLX5_GET(mbox_in, m.in, opcode);
	*e = (struct ent){ .used = true, .vhca = v, .file = file, .h = obj };
	switch (opcode) {
	case MLX5_CMD_OP_CREATE_MKEY: {
		const void *mkc = MLX5_ADDR_OF(create_mkey_in, m.in,
					       memory_key_mkey_entry);

		e->kind = OBJ_MKEY;
		e->id = MLX5_GET(create_mkey_out, m.out, mkey_index);
		e->key = e->id << 8 | MLX5_GET(mkc, mkc, mkey_7_0);
		break;
	}
	case MLX5_CMD_OP_CREATE_GENERAL_OBJECT:
		e->kind = OBJ_ALIAS;
		e->id = MLX5_GET(general_obj_out_cmd_hdr, m.out, obj_id);
		e->key = e->id << 8;
		break;
	case MLX5_CMD_OP_ALLOC_PD:
		/* Its number is what V_OBJ_INDEX gives: a pdn for mailboxes. */
		e->kind = OBJ_PD;
		e->id = MLX5_GET(alloc_pd_out, m.out, pd);
		break;
	default:
		/*
		 * Queues and the objects around them: their number is where a
		 * CQN, QPN, SQN, RQN, TISN or transport domain is returned.
		 */
		e->kind = OBJ_OTHER;
		e->id = MLX5_GET(create_cq_out, m.out, cqn);
		break;
	}
	FUZZ_TRACE("  object slot %td: id 0x%x key 0x%08x",
		   e - tbl[T_OBJ], e->id, e->key);
	mbox_free(&m);
}

/*
 * A send doorbell on a UAR slot naming the number of an object slot (a QP
 * or an SQ, or anything: the device must cope), with a WQE index, opcode
 * and segment count from the input, as mlx5_doorbell_ring() stores it.
 * The rings the engine reads are inside the target's buffers.
 */
static void
rec_kick(struct fuzz_in *in)
{
	struct ent *uar = ent_at(T_UAR, fuzz_u8(in));
	struct ent *obj = ent_at(T_OBJ, fuzz_u8(in));
	uint32_t ctrl[2];
	uint16_t idx = fuzz_u16(in);
	uint8_t op = fuzz_u8(in), ds = fuzz_u8(in);
	uint64_t db;

	if (uar == NULL || glue->uar_kick == NULL)
		return;
	ctrl[0] = rte_cpu_to_be_32((uint32_t)idx << 8 | op);
	ctrl[1] = rte_cpu_to_be_32((obj != NULL ? obj->id : 0) << 8 |
				   (ds & 0x3f));
	memcpy(&db, ctrl, sizeof(db));
	glue->uar_kick(uar->h, db);
}

/*
 * Steering: a matcher of fuzzed attributes and mask (any length up to
 * past the PRM's 512 bytes), then a rule of fuzzed value to a DEVX object
 * slot (a TIR or anything else); both destroyed unless the input says to
 * leave them to the context's close.
 */
static void
rec_flow(struct fuzz_in *in, uint8_t target)
{
	unsigned int v, file;
	struct ibv_context *ctx = ctx_of(target, &v, &file);
	struct ent *obj = ent_at(T_OBJ, fuzz_u8(in));
	uint16_t mlen = fuzz_u16(in) % 600, vlen = fuzz_u16(in) % 600;
	uint8_t flags = fuzz_u8(in);
	struct mlx5dv_flow_match_parameters *mask, *value;
	struct mlx5dv_flow_matcher_attr attr = {
		.type = (flags & 1) ? IBV_FLOW_ATTR_NORMAL :
			(enum ibv_flow_attr_type)fuzz_u8(in),
		.priority = fuzz_u16(in),
		.match_criteria_enable = fuzz_u8(in),
		.comp_mask = (flags & 2) ? MLX5DV_FLOW_MATCHER_MASK_FT_TYPE : 0,
		.ft_type = (enum mlx5dv_flow_table_type)(fuzz_u8(in) % 4),
	};
	struct mlx5dv_flow_action_attr act = {
		.type = (flags & 4) ? MLX5DV_FLOW_ACTION_DEST_DEVX :
			(enum mlx5dv_flow_action_type)(fuzz_u8(in) % 8),
		.obj = obj != NULL ? obj->h : NULL,
	};
	struct mlx5dv_flow_matcher *m;
	struct ibv_flow *fl = NULL;

	mask = calloc(1, sizeof(*mask) + mlen);
	value = calloc(1, sizeof(*value) + vlen);
	FUZZ_CHECK(mask != NULL && value != NULL, "calloc");
	mask->match_sz = mlen;
	value->match_sz = vlen;
	/* Mostly the outer headers' 64 bytes: where the device matches. */
	fuzz_bytes(in, mask->match_buf, RTE_MIN(mlen, (uint16_t)64));
	fuzz_bytes(in, value->match_buf, RTE_MIN(vlen, (uint16_t)64));
	attr.match_mask = mask;
	m = glue->dv_create_flow_matcher(ctx, &attr);
	if (m != NULL)
		fl = glue->dv_create_flow(m, value, (flags & 8) ? 2 : 1, &act);
	if (!(flags & 16) && m != NULL) {
		/* A fault may refuse the rule's removal: the rule stays. */
		bool rule_left = fl != NULL && glue->destroy_flow(fl) != 0;
		int ret = glue->dv_destroy_flow_matcher(m);

		/* A matcher is refused exactly while a rule still uses it. */
		FUZZ_CHECK((ret == 0) == !rule_left, "matcher destroy: %d,"
			   " a rule left: %d", ret, rule_left);
	}
	free(mask);
	free(value);
}

static void
rec_obj_cmd(struct fuzz_in *in, bool modify)
{
	struct mlx5dv_devx_obj *obj = ent_handle(T_OBJ, fuzz_u8(in));
	struct mbox m;
	int ret;

	mbox_read(in, &m);
	if (modify)
		ret = glue->devx_obj_modify(obj, m.in, m.inlen, m.out,
					    m.outlen);
	else
		ret = glue->devx_obj_query(obj, m.in, m.inlen, m.out, m.outlen);
	check_answer(ret, &m);
	mbox_free(&m);
}

static void
rec_obj_destroy(struct fuzz_in *in)
{
	struct ent *e = ent_at(T_OBJ, fuzz_u8(in));
	int ret = glue->devx_obj_destroy(e != NULL ? e->h : NULL);

	if (e == NULL)
		FUZZ_CHECK(ret == EINVAL, "destroy(NULL): %d", ret);
	else if (ret == 0)
		e->used = false;
}

/* [off, off + len) of a buffer, clipped to it; a few lengths kept wild. */
static size_t
clip_len(uint32_t off, uint64_t len)
{
	if (len == UINT32_MAX || len == UINT64_MAX)
		return SIZE_MAX; /* Wraps: refused before any access. */
	return RTE_MIN(len, (uint64_t)(BUF_SIZE - off));
}

static void
rec_umem_reg(struct fuzz_in *in, uint8_t target)
{
	unsigned int v, file;
	struct ibv_context *ctx = ctx_of(target, &v, &file);
	uint8_t flags = fuzz_u8(in);
	uint32_t off = fuzz_u16(in) % BUF_SIZE;
	size_t size = clip_len(off, fuzz_u32(in));
	uint32_t access = fuzz_u32(in);
	struct ent *e = ent_free(T_UMEM);
	struct mlx5dv_devx_umem *umem;

	if (e == NULL)
		return;
	umem = glue->devx_umem_reg(ctx, (flags & 1) ? NULL : bufs[v] + off,
				   size, access);
	FUZZ_TRACE("  umem [%u, +%zu): %s", off, size,
		   umem != NULL ? "registered" : strerror(errno));
	if (umem == NULL)
		return;
	*e = (struct ent){ .used = true, .vhca = v, .file = file, .h = umem,
			   .id = umem->umem_id };
}

static void
rec_umem_dereg(struct fuzz_in *in)
{
	struct ent *e = ent_at(T_UMEM, fuzz_u8(in));

	if (glue->devx_umem_dereg(e != NULL ? e->h : NULL) == 0 && e != NULL)
		e->used = false;
}

static void
rec_uar_alloc(struct fuzz_in *in, uint8_t target)
{
	unsigned int v, file;
	struct ibv_context *ctx = ctx_of(target, &v, &file);
	uint32_t flags = fuzz_u32(in);
	struct ent *e = ent_free(T_UAR);
	struct mlx5dv_devx_uar *uar;

	if (e == NULL)
		return;
	uar = glue->devx_alloc_uar(ctx, flags);
	if (uar == NULL)
		return;
	/* The doorbell page is the caller's to write. */
	*(volatile uint64_t *)uar->reg_addr = 0;
	*e = (struct ent){ .used = true, .vhca = v, .file = file, .h = uar,
			   .id = uar->page_id };
}

static void
rec_uar_free(struct fuzz_in *in)
{
	struct ent *e = ent_at(T_UAR, fuzz_u8(in));

	glue->devx_free_uar(e != NULL ? e->h : NULL);
	if (e != NULL)
		e->used = false;
}

static void
pd_keep(struct ibv_pd *pd, unsigned int v, unsigned int file, bool imported)
{
	struct ent *e = ent_free(T_PD);
	uint32_t pdn = 0;

	FUZZ_CHECK(e != NULL, "checked by the caller");
	FUZZ_CHECK(glue->query_pdn(pd, &pdn) == 0, "pdn of a new PD");
	*e = (struct ent){ .used = true, .vhca = v, .file = file, .h = pd,
			   .id = pdn, .key = pd->handle, .kind = imported };
}

static void
rec_pd_alloc(uint8_t target)
{
	unsigned int v, file;
	struct ibv_context *ctx = ctx_of(target, &v, &file);
	struct ibv_pd *pd;

	if (ent_free(T_PD) == NULL)
		return;
	pd = glue->alloc_pd(ctx);
	FUZZ_TRACE("  alloc_pd: %s", pd != NULL ? "done" : strerror(errno));
	if (pd != NULL)
		pd_keep(pd, v, file, false);
}

static void
rec_pd_import(struct fuzz_in *in, uint8_t target)
{
	unsigned int v, file;
	struct ibv_context *ctx = ctx_of(target, &v, &file);
	uint8_t src = fuzz_u8(in);
	uint32_t handle = value_of(in, src, fuzz_u8(in));
	struct ibv_pd *pd;

	if (ent_free(T_PD) == NULL)
		return;
	pd = glue->import_pd(ctx, handle);
	if (pd != NULL)
		pd_keep(pd, v, file, true);
}

static void
rec_pd_dealloc(struct fuzz_in *in)
{
	struct ent *e = ent_at(T_PD, fuzz_u8(in));

	if (glue->dealloc_pd(e != NULL ? e->h : NULL) == 0 && e != NULL)
		e->used = false;
}

static void
rec_pd_unimport(struct fuzz_in *in)
{
	struct ent *e = ent_at(T_PD, fuzz_u8(in));
	uint32_t pdn;

	if (e != NULL && !e->kind && glue->query_pdn(e->h, &pdn) == 0)
		pd_orphaned = true;
	glue->unimport_pd(e != NULL ? e->h : NULL);
	if (e != NULL)
		e->used = false;
}

static void
rec_pd_query(struct fuzz_in *in)
{
	struct ent *e = ent_at(T_PD, fuzz_u8(in));
	uint32_t pdn = 0;
	int ret = glue->query_pdn(e != NULL ? e->h : NULL, &pdn);

	/* Same number as long as the PD lives. */
	FUZZ_CHECK(ret != 0 || e == NULL || pdn == e->id,
		   "pdn 0x%x, was 0x%x", pdn, e->id);
}

static void
rec_mr_reg(struct fuzz_in *in)
{
	struct ent *pde = ent_at(T_PD, fuzz_u8(in));
	uint8_t flags = fuzz_u8(in);
	uint32_t off = fuzz_u16(in) % BUF_SIZE;
	uint64_t len = fuzz_u32(in);
	int access = (int)fuzz_u32(in);
	struct ent *e = ent_free(T_MR);
	unsigned int v = pde != NULL ? pde->vhca : 0;
	void *addr = (flags & 1) ? NULL : bufs[v] + off;
	size_t length = clip_len(off, len);
	struct ibv_mr *mr;

	if (e == NULL)
		return;
	if (flags & 2) {
		/* The implicit ODP MR: every address of the process. */
		addr = NULL;
		length = SIZE_MAX;
	}
	mr = glue->reg_mr(pde != NULL ? pde->h : NULL, addr, length, access);
	FUZZ_TRACE("  reg_mr %p +%zu: %s", addr, length,
		   mr != NULL ? "done" : strerror(errno));
	if (mr == NULL)
		return;
	if (addr == NULL && length == SIZE_MAX)
		dma_off = true; /* DMA through it could reach any memory. */
	*e = (struct ent){ .used = true, .vhca = v, .file = pde->file,
			   .h = mr, .key = mr->lkey };
}

static void
rec_mr_dereg(struct fuzz_in *in)
{
	struct ent *e = ent_at(T_MR, fuzz_u8(in));

	if (glue->dereg_mr(e != NULL ? e->h : NULL) == 0 && e != NULL)
		e->used = false;
}

static void
rec_dv_mkey_create(struct fuzz_in *in)
{
	struct ent *pde = ent_at(T_PD, fuzz_u8(in));
	struct mlx5dv_mkey_init_attr attr = {
		.pd = pde != NULL ? pde->h : NULL,
	};
	struct ent *e = ent_free(T_DVMK);
	struct mlx5dv_mkey *mk;

	attr.create_flags = fuzz_u32(in);
	attr.max_entries = fuzz_u16(in);
	if (e == NULL)
		return;
	mk = glue->dv_create_mkey(&attr);
	if (mk == NULL)
		return;
	*e = (struct ent){ .used = true, .vhca = pde->vhca, .file = pde->file,
			   .h = mk, .key = mk->lkey };
}

static void
rec_dv_mkey_destroy(struct fuzz_in *in)
{
	struct ent *e = ent_at(T_DVMK, fuzz_u8(in));

	if (glue->dv_destroy_mkey(e != NULL ? e->h : NULL) == 0 && e != NULL)
		e->used = false;
}

static void
rec_pp_alloc(struct fuzz_in *in, uint8_t target)
{
	unsigned int v, file;
	struct ibv_context *ctx = ctx_of(target, &v, &file);
	uint8_t sz = fuzz_u8(in) % (PP_CTX_MAX + 1);
	uint32_t flags = fuzz_u32(in);
	struct ent *e = ent_free(T_PP);
	struct mlx5dv_pp *pp;
	uint8_t *pctx;

	/* Exactly the size claimed, so that a read past it shows. */
	pctx = (flags & RTE_BIT32(31)) ? NULL : malloc(sz);
	if (pctx != NULL)
		fuzz_bytes(in, pctx, sz);
	flags &= ~RTE_BIT32(31);
	if (e != NULL) {
		pp = glue->dv_pp_alloc(ctx, sz, pctx, flags);
		if (pp != NULL)
			*e = (struct ent){ .used = true, .vhca = v,
					   .file = file, .h = pp,
					   .id = pp->index };
	}
	free(pctx);
}

static void
rec_pp_free(struct fuzz_in *in)
{
	struct ent *e = ent_at(T_PP, fuzz_u8(in));

	glue->dv_pp_free(e != NULL ? e->h : NULL);
	if (e != NULL)
		e->used = false;
}

static void
rec_query_device(struct fuzz_in *in, uint8_t target)
{
	unsigned int v, file;
	struct ibv_context *ctx = ctx_of(target, &v, &file);
	struct ibv_query_device_ex_input qin = { .comp_mask = 0 };
	struct ibv_device_attr_ex attr;
	uint8_t flags = fuzz_u8(in);

	qin.comp_mask = fuzz_u32(in);
	glue->query_device_ex(ctx, (flags & 1) ? &qin : NULL,
			      (flags & 2) ? NULL : &attr);
}

/* DEVX on verbs queues and the QP port calls, with no object: refused. */
static void
rec_queue_op(struct fuzz_in *in)
{
	uint8_t which = fuzz_u8(in);
	size_t inlen = fuzz_u8(in), outlen = fuzz_u8(in);
	uint8_t *qin = malloc(inlen), *qout = malloc(outlen);
	uint8_t port = 0, active = 0;

	FUZZ_CHECK(qin != NULL && qout != NULL, "malloc");
	fuzz_bytes(in, qin, inlen);
	switch (which % 13) {
	case 0:
		glue->devx_qp_query(NULL, qin, inlen, qout, outlen);
		break;
	case 1:
		glue->devx_qp_modify(NULL, qin, inlen, qout, outlen);
		break;
	case 2:
		glue->devx_cq_query(NULL, qin, inlen, qout, outlen);
		break;
	case 3:
		glue->devx_cq_modify(NULL, qin, inlen, qout, outlen);
		break;
	case 4:
		glue->devx_srq_query(NULL, qin, inlen, qout, outlen);
		break;
	case 5:
		glue->devx_srq_modify(NULL, qin, inlen, qout, outlen);
		break;
	case 6:
		glue->devx_wq_query(NULL, qin, inlen, qout, outlen);
		break;
	case 7:
		glue->devx_wq_modify(NULL, qin, inlen, qout, outlen);
		break;
	case 8:
		glue->devx_ind_tbl_query(NULL, qin, inlen, qout, outlen);
		break;
	case 9:
		glue->devx_ind_tbl_modify(NULL, qin, inlen, qout, outlen);
		break;
	case 10:
		glue->dv_query_qp_lag_port(NULL, &port, &active);
		break;
	case 11:
		glue->dv_modify_qp_lag_port(NULL, fuzz_u8(in));
		break;
	default:
		glue->dv_modify_qp_udp_sport(NULL, fuzz_u16(in));
		break;
	}
	free(qin);
	free(qout);
}

static void
rec_ctx_open(struct fuzz_in *in, uint8_t target)
{
	unsigned int v = target % NB_VHCA;
	unsigned int s = (target / NB_VHCA) % 2;
	struct mlx5dv_context_attr attr = { .flags = 0 };

	attr.flags = fuzz_u64(in);
	if (ctxs[v][s].ctx != NULL)
		return;
	ctxs[v][s].ctx = glue->dv_open_device(ibdev[v], &attr);
	if (ctxs[v][s].ctx != NULL)
		ctxs[v][s].file = next_file++;
}

static void
rec_ctx_import(struct fuzz_in *in, uint8_t target)
{
	unsigned int v = target % NB_VHCA;
	unsigned int s = (target / NB_VHCA) % NB_CTX;
	uint8_t flags = fuzz_u8(in);
	struct ibv_context *ctx;
	int fd;

	if (ctxs[v][2].ctx != NULL || ctxs[v][s].ctx == NULL)
		return;
	/* What the application hands over: a dup of the command fd. */
	fd = dup((flags & 1) ? STDIN_FILENO : ctxs[v][s].ctx->cmd_fd);
	if (fd < 0)
		return;
	ctx = glue->import_device(fd);
	if (ctx == NULL) {
		close(fd);
		return;
	}
	FUZZ_CHECK(!(flags & 1), "imported stdin as a device context");
	ctxs[v][2].ctx = ctx;
	ctxs[v][2].file = ctxs[v][s].file;
}

static void
rec_ctx_close(uint8_t target)
{
	unsigned int v = target % NB_VHCA;
	unsigned int s = (target / NB_VHCA) % NB_CTX;

	if (ctxs[v][s].ctx == NULL) {
		FUZZ_CHECK(glue->close_device(NULL) == -1 && errno == EINVAL,
			   "close(NULL)");
		return;
	}
	/* Closed even if DESTROY_UCTX is refused (injected fault). */
	glue->close_device(ctxs[v][s].ctx);
	ctx_gone(v, s);
}

static void
rec_dma(struct fuzz_in *in, uint8_t target)
{
	unsigned int v, file;
	struct ibv_context *ctx = ctx_of(target, &v, &file);
	uint8_t pd_src = fuzz_u8(in), pd_slot = fuzz_u8(in);
	uint32_t pdn = value_of(in, pd_src, pd_slot);
	uint8_t key_src = fuzz_u8(in), key_slot = fuzz_u8(in);
	uint32_t lkey = value_of(in, key_src, key_slot);
	uint8_t mode = fuzz_u8(in);
	uint64_t addr;
	size_t len;
	uint8_t synd = 0xff;
	static uint8_t stamp;
	const struct ent *mr;
	int ret;

	/* A VA key wants a buffer address; MTT/KLM/crossing keys any IOVA. */
	if (mode & 4)
		addr = fuzz_u64(in);
	else
		addr = (uintptr_t)bufs[mode % NB_VHCA] + fuzz_u16(in);
	len = fuzz_u16(in);
	if (dma_off)
		return;
	/* Bytes this DMA alone would write. */
	stamp++;
	for (size_t i = 0; i < len; i++)
		dma_local[i] = (uint8_t)(stamp + i * 7);
	ret = mlx5_sim_dma(ctx, pdn, lkey, addr, (mode & 8) ? NULL : dma_local,
			   len, mode & 16, &synd);
	FUZZ_TRACE("  DMA %s pdn 0x%x key 0x%08x addr 0x%" PRIx64 " len %zu:"
		   " %d", (mode & 16) ? "write" : "read", pdn, lkey, addr, len,
		   ret);
	FUZZ_CHECK(ret == 0 || ret == -EINVAL || ret == -ENOENT ||
		   ret == -EACCES || ret == -EFAULT || ret == -ENOMEM,
		   "DMA: %d", ret);
	/* A translation failure is an error completion, success is none. */
	FUZZ_CHECK(ret != 0 || synd == 0, "DMA done with CQE syndrome 0x%x",
		   synd);
	FUZZ_CHECK(synd != 0 || ret == 0 || ret == -EINVAL || ret == -ENOMEM,
		   "DMA failed (%d) without CQE syndrome", ret);
	/*
	 * An MR's key translates addresses to themselves, inside its range:
	 * what moved is exactly these bytes at exactly that address.
	 */
	mr = (key_src % V_NUM) == V_MR_KEY ? ent_at(T_MR, key_slot) : NULL;
	if (ret == 0 && len > 0 && mr != NULL && mr->key == lkey) {
		const struct ibv_mr *ibmr = mr->h;

		FUZZ_CHECK(addr >= (uintptr_t)ibmr->addr &&
			   addr + len <= (uintptr_t)ibmr->addr + ibmr->length,
			   "DMA through MR 0x%08x at 0x%" PRIx64 " +%zu, outside"
			   " [%p, +%zu)", lkey, addr, len, ibmr->addr,
			   ibmr->length);
		FUZZ_CHECK(memcmp((void *)(uintptr_t)addr, dma_local, len) == 0,
			   "DMA %s through MR 0x%08x moved other bytes",
			   (mode & 16) ? "write" : "read", lkey);
	}
}

static void
rec_fault(struct fuzz_in *in, uint8_t target)
{
	unsigned int v = target % NB_VHCA;
	uint8_t opsel = fuzz_u8(in);
	uint8_t nth = fuzz_u8(in);
	uint8_t status = fuzz_u8(in);
	int opcode;

	if (opsel == 0xff) {
		mlx5_sim_fault_clear(CMD_CARD, vhca_conf[v].id);
		return;
	}
	opcode = opsel < RTE_DIM(opcodes) ? opcodes[opsel] : -1;
	mlx5_sim_fault_set(CMD_CARD, vhca_conf[v].id, opcode, nth, status);
}

static void
rec_device_list(uint8_t target)
{
	unsigned int v, file;
	struct ibv_context *ctx = ctx_of(target, &v, &file);
	struct ibv_device **list;
	uint16_t card, id;
	int n = 0;

	list = glue->get_device_list(&n);
	FUZZ_CHECK(list != NULL && n >= NB_VHCA, "device list");
	glue->free_device_list(list);
	if (ctx != NULL) {
		FUZZ_CHECK(mlx5_sim_is_ctx(ctx), "");
		FUZZ_CHECK(mlx5_sim_vhca_id_of_ctx(ctx, &card, &id) == 0 &&
			   card == CMD_CARD && id == vhca_conf[v].id, "");
	}
}

/*
 * The application protects or unprotects a page of registered memory:
 * registrations of it must fail, device accesses to it must end in an
 * error completion (the sim's fault guard), never in a crash.
 */
static void
rec_protect(struct fuzz_in *in, uint8_t target)
{
	static const int prot[] = {
		PROT_READ | PROT_WRITE, PROT_NONE, PROT_READ,
	};
	unsigned int v = target % NB_VHCA;
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	size_t off = fuzz_u16(in) % (BUF_SIZE / page) * page;
	uint8_t mode = fuzz_u8(in) % RTE_DIM(prot);

	FUZZ_CHECK(mprotect(bufs[v] + off, page, prot[mode]) == 0, "%s",
		   strerror(errno));
}

/*
 * The two ways the sim checks that a registration's pages could be pinned
 * (madvise(MADV_POPULATE_*) and /proc/self/maps) must agree, on ranges of
 * our buffers with whatever protections the input gave their pages.
 */
static void
rec_pin_diff(struct fuzz_in *in, uint8_t target)
{
	unsigned int v = target % NB_VHCA;
	uint32_t off = fuzz_u16(in) % BUF_SIZE;
	size_t len = clip_len(off, fuzz_u16(in));
	bool write = fuzz_u8(in) & 1;
	int by_populate, by_maps;

	mlx5_sim_pin_check_set(MLX5_SIM_PIN_CHECK_AUTO);
	by_populate = mlx5_sim_range_pinnable(bufs[v] + off, len, write);
	mlx5_sim_pin_check_set(MLX5_SIM_PIN_CHECK_MAPS);
	by_maps = mlx5_sim_range_pinnable(bufs[v] + off, len, write);
	mlx5_sim_pin_check_set(pin_mode);
	FUZZ_CHECK(by_populate == by_maps, "[%p, +%zu) %s: madvise says %d,"
		   " /proc/self/maps %d", bufs[v] + off, len,
		   write ? "write" : "read", by_populate, by_maps);
}

static void
run_record(struct fuzz_in *in)
{
	uint8_t op = fuzz_u8(in) % R_NUM;
	uint8_t target = fuzz_u8(in);

	FUZZ_TRACE("record %u: vHCA %u context %u", op,
		   vhca_conf[target % NB_VHCA].id, (target / NB_VHCA) % NB_CTX);

	switch (op) {
	case R_GENERAL_CMD:
		rec_general(in, target);
		break;
	case R_OBJ_CREATE:
		rec_obj_create(in, target);
		break;
	case R_OBJ_QUERY:
		rec_obj_cmd(in, false);
		break;
	case R_OBJ_MODIFY:
		rec_obj_cmd(in, true);
		break;
	case R_OBJ_DESTROY:
		rec_obj_destroy(in);
		break;
	case R_UMEM_REG:
		rec_umem_reg(in, target);
		break;
	case R_UMEM_DEREG:
		rec_umem_dereg(in);
		break;
	case R_UAR_ALLOC:
		rec_uar_alloc(in, target);
		break;
	case R_UAR_FREE:
		rec_uar_free(in);
		break;
	case R_PD_ALLOC:
		rec_pd_alloc(target);
		break;
	case R_PD_DEALLOC:
		rec_pd_dealloc(in);
		break;
	case R_PD_IMPORT:
		rec_pd_import(in, target);
		break;
	case R_PD_UNIMPORT:
		rec_pd_unimport(in);
		break;
	case R_PD_QUERY:
		rec_pd_query(in);
		break;
	case R_MR_REG:
		rec_mr_reg(in);
		break;
	case R_MR_DEREG:
		rec_mr_dereg(in);
		break;
	case R_DV_MKEY_CREATE:
		rec_dv_mkey_create(in);
		break;
	case R_DV_MKEY_DESTROY:
		rec_dv_mkey_destroy(in);
		break;
	case R_PP_ALLOC:
		rec_pp_alloc(in, target);
		break;
	case R_PP_FREE:
		rec_pp_free(in);
		break;
	case R_QUERY_DEVICE:
		rec_query_device(in, target);
		break;
	case R_QUEUE_OP:
		rec_queue_op(in);
		break;
	case R_CTX_OPEN:
		rec_ctx_open(in, target);
		break;
	case R_CTX_IMPORT:
		rec_ctx_import(in, target);
		break;
	case R_CTX_CLOSE:
		rec_ctx_close(target);
		break;
	case R_DMA:
		rec_dma(in, target);
		break;
	case R_FAULT:
		rec_fault(in, target);
		break;
	case R_DEVICE_LIST:
		rec_device_list(target);
		break;
	case R_PROTECT:
		rec_protect(in, target);
		break;
	case R_KICK:
		rec_kick(in);
		break;
	case R_FLOW:
		rec_flow(in, target);
		break;
	default:
		rec_pin_diff(in, target);
		break;
	}
}

/*
 * The device's accounting against the harness's tables after each record:
 * every mkey, MR, umem, UAR and alias the device counts is one the harness
 * holds, and the other way round. Objects are counted on the vHCA whose
 * context made them. Not instrumented: the harness's own bookkeeping must
 * not steer the fuzzer (nor slow it down with comparison tracing).
 */
__attribute__((no_sanitize("coverage")))
static void
check_counts(void)
{
	enum { C_MKEY, C_MR, C_UMEM, C_UAR, C_ALIAS, C_NUM };
	uint64_t n[NB_VHCA][C_NUM];
	struct mlx5_sim_stats st;

	memset(n, 0, sizeof(n));
	for (unsigned int i = 0; i < TBL; i++) {
		const struct ent *o = &tbl[T_OBJ][i];

		if (o->used && o->kind == OBJ_MKEY)
			n[o->vhca][C_MKEY]++;
		else if (o->used && o->kind == OBJ_ALIAS)
			n[o->vhca][C_ALIAS]++;
		if (tbl[T_DVMK][i].used)
			n[tbl[T_DVMK][i].vhca][C_MKEY]++;
		if (tbl[T_MR][i].used)
			n[tbl[T_MR][i].vhca][C_MR]++;
		if (tbl[T_UMEM][i].used)
			n[tbl[T_UMEM][i].vhca][C_UMEM]++;
		if (tbl[T_UAR][i].used)
			n[tbl[T_UAR][i].vhca][C_UAR]++;
	}
	for (unsigned int v = 0; v < NB_VHCA; v++) {
		FUZZ_CHECK(mlx5_sim_vhca_stats(CMD_CARD, vhca_conf[v].id,
					       &st) == 0, "");
		FUZZ_CHECK(st.mkeys == n[v][C_MKEY] && st.mrs == n[v][C_MR] &&
			   st.umems == n[v][C_UMEM] && st.uars == n[v][C_UAR] &&
			   st.general_objs == n[v][C_ALIAS],
			   "vHCA %u counts mkeys %" PRIu64 " mrs %" PRIu64
			   " umems %" PRIu64 " uars %" PRIu64 " aliases %" PRIu64
			   "; handed out %" PRIu64 " %" PRIu64 " %" PRIu64
			   " %" PRIu64 " %" PRIu64, vhca_conf[v].id, st.mkeys,
			   st.mrs, st.umems, st.uars, st.general_objs,
			   n[v][C_MKEY], n[v][C_MR], n[v][C_UMEM], n[v][C_UAR],
			   n[v][C_ALIAS]);
	}
}

/*
 * Destroy what table @t holds (DEVX PDs after the objects that may use
 * them); each destroy must succeed.
 */
static void
destroy_all(unsigned int t)
{
	/*
	 * Objects: a queue holds its CQ, TIS, ...: destroy what the device
	 * lets go, pass after pass, until a pass frees nothing; what is left
	 * then fails the check below.
	 */
	if (t == T_OBJ) {
		bool progress = true;

		while (progress) {
			progress = false;
			for (unsigned int i = 0; i < TBL; i++) {
				struct ent *e = &tbl[t][i];

				if (e->used && e->kind != OBJ_PD &&
				    glue->devx_obj_destroy(e->h) == 0) {
					e->used = false;
					progress = true;
				}
			}
		}
	}
	for (unsigned int i = 0; i < 2 * TBL; i++) {
		struct ent *e = &tbl[t][i % TBL];
		int ret = 0;

		if (!e->used || (t == T_OBJ && (i < TBL) == (e->kind == OBJ_PD)))
			continue;
		switch (t) {
		case T_OBJ:
			ret = glue->devx_obj_destroy(e->h);
			break;
		case T_DVMK:
			ret = glue->dv_destroy_mkey(e->h);
			break;
		case T_MR:
			ret = glue->dereg_mr(e->h);
			break;
		case T_PP:
			glue->dv_pp_free(e->h);
			break;
		case T_UAR:
			glue->devx_free_uar(e->h);
			break;
		case T_UMEM:
			ret = glue->devx_umem_dereg(e->h);
			break;
		default:
			if (e->kind) {
				glue->unimport_pd(e->h);
				break;
			}
			ret = glue->dealloc_pd(e->h);
			/* Deallocated through an imported handle: drop ours. */
			if (ret == EINVAL) {
				glue->unimport_pd(e->h);
				ret = 0;
			}
			break;
		}
		FUZZ_CHECK(ret == 0, "destroy of table %u slot %u (vHCA %u): %s",
			   t, i % TBL, vhca_conf[e->vhca].id, strerror(ret));
		e->used = false;
	}
}

static void
end_of_input(bool reclaim)
{
	static const unsigned int order[] = {
		T_OBJ, T_DVMK, T_MR, T_PP, T_UAR, T_UMEM, T_PD,
	};
	long reclaimed[NB_VHCA];
	struct mlx5_sim_stats st;

	for (unsigned int v = 0; v < NB_VHCA; v++) {
		mlx5_sim_fault_clear(CMD_CARD, vhca_conf[v].id);
		reclaimed[v] = sim_reclaimed(CMD_CARD, vhca_conf[v].id);
	}
	reclaim |= pd_orphaned;
	if (!reclaim) {
		for (unsigned int i = 0; i < RTE_DIM(order); i++)
			destroy_all(order[i]);
		for (unsigned int v = 0; v < NB_VHCA; v++) {
			FUZZ_CHECK(mlx5_sim_vhca_stats(CMD_CARD, vhca_conf[v].id,
						       &st) == 0, "");
			FUZZ_CHECK(st.live_objects == 0,
				   "vHCA %u: %" PRIu64 " objects alive after every"
				   " destroy (pds %" PRIu64 " mrs %" PRIu64
				   " mkeys %" PRIu64 " umems %" PRIu64
				   " uars %" PRIu64 " gobjs %" PRIu64
				   " pp %" PRIu64 " allowed %" PRIu64 ")",
				   vhca_conf[v].id, st.live_objects, st.pds,
				   st.mrs, st.mkeys, st.umems, st.uars,
				   st.general_objs, st.pp_entries, st.allowed);
		}
	}
	for (unsigned int v = 0; v < NB_VHCA; v++) {
		for (unsigned int s = NB_CTX; s-- > 0;) {
			if (ctxs[v][s].ctx == NULL)
				continue;
			FUZZ_CHECK(glue->close_device(ctxs[v][s].ctx) == 0,
				   "close: %s", strerror(errno));
			ctx_gone(v, s);
		}
		FUZZ_CHECK(sim_live(CMD_CARD, vhca_conf[v].id) == 0,
			   "vHCA %u: %ld alive after the last close",
			   vhca_conf[v].id, sim_live(CMD_CARD, vhca_conf[v].id));
		FUZZ_CHECK(reclaim || sim_reclaimed(CMD_CARD, vhca_conf[v].id) ==
			   reclaimed[v], "vHCA %u: close reclaimed objects"
			   " already destroyed", vhca_conf[v].id);
	}
	for (unsigned int v = 0; v < NB_VHCA; v++)
		FUZZ_CHECK(mprotect(bufs[v], BUF_SIZE,
				    PROT_READ | PROT_WRITE) == 0, "");
	memset(tbl, 0, sizeof(tbl));
	dma_off = false;
	pd_orphaned = false;
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *dir = getenv(FUZZ_SEED_ENV);
	struct ibv_device **list;
	int n = 0;

	RTE_SET_USED(argc);
	RTE_SET_USED(argv);
	if (dir != NULL) {
		fuzz_sim_cmd_write_seeds(dir);
		exit(0);
	}
	fuzz_eal_init("fuzz_sim_cmd");
	/* A probe creates a vHCA, which lives on after the remove. */
	for (unsigned int v = 0; v < NB_VHCA; v++) {
		FUZZ_CHECK(sim_probe(vhca_conf[v].dev, vhca_conf[v].args) == 0,
			   "%s", vhca_conf[v].args);
		FUZZ_CHECK(sim_remove(vhca_conf[v].dev) == 0, "");
		bufs[v] = mmap(NULL, BUF_SIZE, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		FUZZ_CHECK(bufs[v] != MAP_FAILED, "mmap");
	}
	list = glue->get_device_list(&n);
	FUZZ_CHECK(list != NULL, "");
	for (int i = 0; i < n; i++) {
		for (unsigned int v = 0; v < NB_VHCA; v++) {
			char name[IBV_SYSFS_NAME_MAX];

			snprintf(name, sizeof(name), "mlx5_sim_c%u_v%u",
				 CMD_CARD, vhca_conf[v].id);
			if (strcmp(list[i]->name, name) == 0)
				ibdev[v] = list[i];
		}
	}
	glue->free_device_list(list);
	for (unsigned int v = 0; v < NB_VHCA; v++)
		FUZZ_CHECK(ibdev[v] != NULL, "vHCA %u", vhca_conf[v].id);
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_in in = { .p = data, .len = size };
	uint8_t flags = fuzz_u8(&in);

	/* The pin check of kernels before 5.14, a parser of its own. */
	pin_mode = (flags & FLAG_PIN_MAPS) ? MLX5_SIM_PIN_CHECK_MAPS :
					     MLX5_SIM_PIN_CHECK_AUTO;
	mlx5_sim_pin_check_set(pin_mode);
	for (unsigned int i = 0; i < MAX_RECORDS && !fuzz_empty(&in); i++) {
		run_record(&in);
		check_counts();
	}
	end_of_input(flags & FLAG_RECLAIM);
	return 0;
}
