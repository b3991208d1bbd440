/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * The seed corpus of fuzz_sim_cmd: scripts that reach each command the
 * software device implements with valid mailboxes, built with the
 * project's own PRM layouts (MLX5_SET), and the classic ways to be
 * refused. Ids of objects made earlier (PD numbers, umem ids, mkeys, vHCA
 * ids, buffer addresses) change from run to run; the scripts carry them as
 * fix-ups the target resolves. Slots are given in creation order: the
 * target fills each of its tables from slot 0.
 */

#include <string.h>

#include <rte_common.h>

#include "fuzz_common.h"
#include "fuzz_sim_cmd.h"

/* A fix-up as the seed generator writes it. */
struct fix {
	uint16_t bit_off;
	uint8_t width;
	uint8_t src;
	uint8_t slot;
	uint32_t raw;  /* The value of a V_RAW fix-up. */
};

#define FIX(typ, fld, src, slot) \
	{ __mlx5_bit_off(typ, fld), __mlx5_bit_sz(typ, fld), (src), (slot), 0 }
/* A field of the mkey context inside CREATE_MKEY. */
#define FIX_MKC(fld, src, slot) \
	{ __mlx5_bit_off(create_mkey_in, memory_key_mkey_entry) + \
	  __mlx5_bit_off(mkc, fld), __mlx5_bit_sz(mkc, fld), (src), (slot), 0 }
/* A field of the alias context inside CREATE_GENERAL_OBJECT. */
#define FIX_ALIAS(fld, src, slot) \
	{ __mlx5_bit_off(create_alias_obj_in, alias_ctx) + \
	  __mlx5_bit_off(alias_context, fld), 32, (src), (slot), 0 }

/* A record header. */
static void
put_rec(struct fuzz_out *o, uint8_t op, unsigned int vhca, unsigned int slot)
{
	fuzz_put_u8(o, op);
	fuzz_put_u8(o, (uint8_t)(vhca + slot * NB_VHCA));
}

/* A mailbox built with MLX5_SET, written as mbox_read() reads it. */
static void
put_mbox(struct fuzz_out *o, const void *mb, size_t inlen, size_t outlen,
	 const struct fix *fix, unsigned int nfix)
{
	const uint8_t *p = mb;
	uint16_t opcode = MLX5_GET(mbox_in, mb, opcode);
	size_t end = inlen;
	unsigned int i;

	for (i = 0; i < RTE_DIM(opcodes); i++)
		if (opcodes[i] == opcode)
			break;
	fuzz_put_u8(o, (uint8_t)i);
	if (i == RTE_DIM(opcodes))
		fuzz_put_u16(o, opcode);
	fuzz_put_u16(o, MLX5_GET(mbox_in, mb, op_mod));
	fuzz_put_u16(o, inlen);
	fuzz_put_u16(o, outlen);
	fuzz_put_u8(o, 0);
	/* Trailing zeros are implied. */
	while (end > 8 && p[end - 1] == 0)
		end--;
	fuzz_put_u16(o, end > 8 ? end - 8 : 0);
	if (end > 8)
		fuzz_put_bytes(o, p + 8, end - 8);
	fuzz_put_u8(o, nfix);
	for (i = 0; i < nfix; i++) {
		fuzz_put_u16(o, fix[i].bit_off);
		fuzz_put_u8(o, fix[i].width);
		fuzz_put_u8(o, fix[i].src);
		fuzz_put_u8(o, fix[i].slot);
		if (fix[i].src == V_RAW)
			fuzz_put_u32(o, fix[i].raw);
	}
}

static void
put_query_cap(struct fuzz_out *o, unsigned int vhca, uint16_t type,
	      bool other, size_t inlen, size_t outlen)
{
	uint32_t in[MLX5_ST_SZ_DW(query_hca_cap_in)] = { 0 };

	MLX5_SET(query_hca_cap_in, in, opcode, MLX5_CMD_OP_QUERY_HCA_CAP);
	MLX5_SET(query_hca_cap_in, in, op_mod, MLX5_HCA_CAP_OPMOD(type, 1));
	MLX5_SET(query_hca_cap_in, in, other_function, other);
	put_rec(o, R_GENERAL_CMD, vhca, 0);
	put_mbox(o, in, inlen, outlen, NULL, 0);
}

static void
put_pd_alloc(struct fuzz_out *o, unsigned int vhca)
{
	put_rec(o, R_PD_ALLOC, vhca, 0);
}

/* CREATE_MKEY over PD slot @pd: MTT over umem slot @umem, or KLM. */
static void
put_create_mkey(struct fuzz_out *o, unsigned int vhca, unsigned int mode,
		uint8_t pd, uint8_t umem, uint64_t start, uint64_t len,
		bool free_, const struct fix *extra, unsigned int nextra,
		const void *klm, unsigned int nklm)
{
	uint8_t in[MLX5_ST_SZ_BYTES(create_mkey_in) + 4 * 16] = { 0 };
	void *mkc = MLX5_ADDR_OF(create_mkey_in, in, memory_key_mkey_entry);
	struct fix fix[MAX_FIXUPS] = {
		FIX_MKC(pd, V_PDN, pd),
		FIX(create_mkey_in, mkey_umem_id, V_UMEM_ID, umem),
	};
	unsigned int nfix = mode == MLX5_MKC_ACCESS_MODE_MTT ? 2 : 1;

	MLX5_SET(create_mkey_in, in, opcode, MLX5_CMD_OP_CREATE_MKEY);
	MLX5_SET(mkc, mkc, access_mode_1_0, mode & 3);
	MLX5_SET(mkc, mkc, access_mode_4_2, mode >> 2);
	MLX5_SET(mkc, mkc, free, free_);
	MLX5_SET(mkc, mkc, lr, 1);
	MLX5_SET(mkc, mkc, lw, 1);
	MLX5_SET(mkc, mkc, rr, 1);
	MLX5_SET(mkc, mkc, rw, 1);
	MLX5_SET(mkc, mkc, qpn, MLX5_MKC_QPN_ANY);
	MLX5_SET(mkc, mkc, mkey_7_0, 0x33);
	MLX5_SET64(mkc, mkc, start_addr, start);
	MLX5_SET64(mkc, mkc, len, len);
	/* A crossing key of length 0 spans everything, as the driver's. */
	if (mode == MLX5_MKC_ACCESS_MODE_CROSSING && len == 0)
		MLX5_SET(mkc, mkc, length64, 1);
	if (mode == MLX5_MKC_ACCESS_MODE_MTT) {
		/* A target crossing mkeys may point at, as the driver's export. */
		MLX5_SET(mkc, mkc, crossed_side_mkey, 1);
		MLX5_SET(create_mkey_in, in, mkey_umem_valid, 1);
		MLX5_SET(create_mkey_in, in, pg_access, 1);
	} else if (mode == MLX5_MKC_ACCESS_MODE_KLM) {
		MLX5_SET(mkc, mkc, translations_octword_size, 4);
		MLX5_SET(create_mkey_in, in, translations_octword_actual_size,
			 nklm);
		if (nklm > 0)
			memcpy(MLX5_ADDR_OF(create_mkey_in, in, klm_pas_mtt),
			       klm, nklm * MLX5_ST_SZ_BYTES(klm));
	}
	for (unsigned int i = 0; i < nextra; i++)
		fix[nfix++] = extra[i];
	put_rec(o, R_OBJ_CREATE, vhca, 0);
	put_mbox(o, in, MLX5_ST_SZ_BYTES(create_mkey_in) +
		 nklm * MLX5_ST_SZ_BYTES(klm),
		 MLX5_ST_SZ_BYTES(create_mkey_out), fix, nfix);
}

static void
put_umem_reg(struct fuzz_out *o, unsigned int vhca, uint16_t off,
	     uint32_t size, uint32_t access)
{
	put_rec(o, R_UMEM_REG, vhca, 0);
	fuzz_put_u8(o, 0);
	fuzz_put_u16(o, off);
	fuzz_put_u32(o, size);
	fuzz_put_u32(o, access);
}

static void
put_mr_reg(struct fuzz_out *o, uint8_t pd, uint8_t flags, uint16_t off,
	   uint32_t len, uint32_t access)
{
	put_rec(o, R_MR_REG, 0, 0);
	fuzz_put_u8(o, pd);
	fuzz_put_u8(o, flags);
	fuzz_put_u16(o, off);
	fuzz_put_u32(o, len);
	fuzz_put_u32(o, access);
}

/* DMA by @vhca with the pdn of PD slot @pd and key (@src, @slot). */
static void
put_dma(struct fuzz_out *o, unsigned int vhca, uint8_t pd, uint8_t src,
	uint8_t slot, bool raw, unsigned int buf, uint64_t addr, uint16_t len,
	bool write)
{
	put_rec(o, R_DMA, vhca, 0);
	fuzz_put_u8(o, V_PDN);
	fuzz_put_u8(o, pd);
	fuzz_put_u8(o, src);
	fuzz_put_u8(o, slot);
	fuzz_put_u8(o, (uint8_t)(buf | (raw ? 4 : 0) | (write ? 16 : 0)));
	if (raw)
		fuzz_put_u64(o, addr);
	else
		fuzz_put_u16(o, (uint16_t)addr);
	fuzz_put_u16(o, len);
}

/* ALLOW_OTHER_VHCA_ACCESS of object slot @obj with a fixed key. */
static void
put_allow(struct fuzz_out *o, unsigned int vhca, uint8_t src, uint8_t obj)
{
	uint32_t in[MLX5_ST_SZ_DW(allow_other_vhca_access_in)] = { 0 };
	struct fix fix[] = {
		FIX(allow_other_vhca_access_in, object_id_to_be_accessed, src,
		    obj),
	};

	MLX5_SET(allow_other_vhca_access_in, in, opcode,
		 MLX5_CMD_OP_ALLOW_OTHER_VHCA_ACCESS);
	MLX5_SET(allow_other_vhca_access_in, in, object_type_to_be_accessed,
		 MLX5_GENERAL_OBJ_TYPE_MKEY);
	memset(MLX5_ADDR_OF(allow_other_vhca_access_in, in, access_key), 0x4b,
	       MLX5_ACCESS_KEY_LEN);
	put_rec(o, R_GENERAL_CMD, vhca, 0);
	put_mbox(o, in, sizeof(in),
		 MLX5_ST_SZ_BYTES(allow_other_vhca_access_out), fix,
		 RTE_DIM(fix));
}

/* Alias by @vhca of @owner's mkey (index from @src/@obj), pdn of @pd. */
static void
put_alias(struct fuzz_out *o, unsigned int vhca, unsigned int owner,
	  uint8_t src, uint8_t obj, uint8_t pd, uint8_t key_byte)
{
	uint32_t in[MLX5_ST_SZ_DW(create_alias_obj_in)] = { 0 };
	void *hdr = MLX5_ADDR_OF(create_alias_obj_in, in, hdr);
	void *actx = MLX5_ADDR_OF(create_alias_obj_in, in, alias_ctx);
	struct fix fix[] = {
		FIX_ALIAS(object_id_to_be_accessed, src, obj),
		FIX_ALIAS(metadata, V_PDN, pd),
		{ __mlx5_bit_off(create_alias_obj_in, alias_ctx) +
		  __mlx5_bit_off(alias_context, vhca_id_to_be_accessed), 16,
		  V_VHCA_ID, (uint8_t)owner, 0 },
	};

	MLX5_SET(general_obj_in_cmd_hdr, hdr, opcode,
		 MLX5_CMD_OP_CREATE_GENERAL_OBJECT);
	MLX5_SET(general_obj_in_cmd_hdr, hdr, obj_type,
		 MLX5_GENERAL_OBJ_TYPE_MKEY);
	MLX5_SET(general_obj_in_cmd_hdr, hdr, alias_object, 1);
	memset(MLX5_ADDR_OF(alias_context, actx, access_key), key_byte,
	       MLX5_ACCESS_KEY_LEN);
	put_rec(o, R_OBJ_CREATE, vhca, 0);
	put_mbox(o, in, sizeof(in), MLX5_ST_SZ_BYTES(general_obj_out_cmd_hdr),
		 fix, RTE_DIM(fix));
}

/* QUERY_MKEY or QUERY/MODIFY_GENERAL_OBJECT on object slot @obj. */
static void
put_obj_cmd(struct fuzz_out *o, uint8_t rec, uint16_t opcode, uint8_t obj,
	    size_t outlen)
{
	uint32_t in[MLX5_ST_SZ_DW(general_obj_in_cmd_hdr)] = { 0 };
	struct fix mk[] = { FIX(query_mkey_in, mkey_index, V_OBJ_INDEX, obj) };
	struct fix go[] = {
		FIX(general_obj_in_cmd_hdr, obj_id, V_OBJ_INDEX, obj),
	};

	RTE_BUILD_BUG_ON(sizeof(in) < MLX5_ST_SZ_BYTES(query_mkey_in));
	MLX5_SET(general_obj_in_cmd_hdr, in, opcode, opcode);
	if (opcode != MLX5_CMD_OP_QUERY_MKEY)
		MLX5_SET(general_obj_in_cmd_hdr, in, obj_type,
			 MLX5_GENERAL_OBJ_TYPE_MKEY);
	put_rec(o, rec, 0, 0);
	fuzz_put_u8(o, obj);
	put_mbox(o, in, opcode == MLX5_CMD_OP_QUERY_MKEY ?
		 MLX5_ST_SZ_BYTES(query_mkey_in) : sizeof(in), outlen,
		 opcode == MLX5_CMD_OP_QUERY_MKEY ? mk : go, 1);
}

/* Crossing mkey by @vhca onto @owner's key (@src, @slot), PD slot @pd. */
static void
put_crossing(struct fuzz_out *o, unsigned int vhca, unsigned int owner,
	     uint8_t pd, uint8_t src, uint8_t slot)
{
	struct fix fix[] = {
		FIX_MKC(crossing_target_vhca_id, V_VHCA_ID, (uint8_t)owner),
		FIX_MKC(translations_octword_size, src, slot),
	};

	put_create_mkey(o, vhca, MLX5_MKC_ACCESS_MODE_CROSSING, pd, 0, 0, 0,
			false, fix, RTE_DIM(fix), NULL, 0);
}

static void
put_klm(uint8_t *klm, uint32_t count, uint32_t mkey, uint64_t addr)
{
	MLX5_SET(klm, klm, byte_count, count);
	MLX5_SET(klm, klm, mkey, mkey);
	MLX5_SET64(klm, klm, address, addr);
}

/* A QP transition of object slot @obj, connected to itself. */
static void
put_qp_move(struct fuzz_out *o, uint16_t opcode, uint8_t obj)
{
	uint32_t in[MLX5_ST_SZ_DW(rst2init_qp_in)] = { 0 };
	void *qpc = MLX5_ADDR_OF(rst2init_qp_in, in, qpc);
	struct fix fix[] = {
		FIX(rst2init_qp_in, qpn, V_OBJ_INDEX, obj),
		{ __mlx5_bit_off(rst2init_qp_in, qpc) +
		  __mlx5_bit_off(qpc, remote_qpn), 24, V_OBJ_INDEX, obj, 0 },
	};

	MLX5_SET(rst2init_qp_in, in, opcode, opcode);
	MLX5_SET(qpc, qpc, rwe, 1);
	MLX5_SET(qpc, qpc, rre, 1);
	MLX5_SET(qpc, qpc, mtu, MLX5_QP_MTU_1024);
	MLX5_SET(qpc, qpc, log_msg_max, 30);
	MLX5_SET(qpc, qpc, primary_address_path.fl, 1);
	MLX5_SET(qpc, qpc, primary_address_path.vhca_port_num, 1);
	put_rec(o, R_OBJ_MODIFY, 0, 0);
	fuzz_put_u8(o, obj);
	put_mbox(o, in, sizeof(in), MLX5_ST_SZ_BYTES(rst2init_qp_out), fix,
		 RTE_DIM(fix));
}

/*
 * A loopback QP on vHCA 1: umem (slot 0) at 16 KiB of the buffer, UAR
 * (slot 0), PD (slot 0), CQ (object 0), QP (object 1) to RTS, an MR, and
 * doorbells: the engine reads whatever the ring holds.
 */
static void
put_queue_seed(struct fuzz_out *o)
{
	uint32_t cq[MLX5_ST_SZ_DW(create_cq_in)] = { 0 };
	uint32_t qp[MLX5_ST_SZ_DW(create_qp_in)] = { 0 };
	void *cqc = MLX5_ADDR_OF(create_cq_in, cq, cq_context);
	void *qpc = MLX5_ADDR_OF(create_qp_in, qp, qpc);
	struct fix cq_fix[] = {
		FIX(create_cq_in, cq_umem_id, V_UMEM_ID, 0),
		{ __mlx5_bit_off(create_cq_in, cq_context) +
		  __mlx5_bit_off(cqc, dbr_umem_id), 32, V_UMEM_ID, 0, 0 },
		{ __mlx5_bit_off(create_cq_in, cq_context) +
		  __mlx5_bit_off(cqc, uar_page), 24, V_UAR_PAGE, 0, 0 },
	};
	struct fix qp_fix[] = {
		FIX(create_qp_in, wq_umem_id, V_UMEM_ID, 0),
		{ __mlx5_bit_off(create_qp_in, qpc) +
		  __mlx5_bit_off(qpc, dbr_umem_id), 32, V_UMEM_ID, 0, 0 },
		{ __mlx5_bit_off(create_qp_in, qpc) +
		  __mlx5_bit_off(qpc, uar_page), 24, V_UAR_PAGE, 0, 0 },
		{ __mlx5_bit_off(create_qp_in, qpc) +
		  __mlx5_bit_off(qpc, pd), 24, V_PDN, 0, 0 },
		{ __mlx5_bit_off(create_qp_in, qpc) +
		  __mlx5_bit_off(qpc, cqn_snd), 24, V_OBJ_INDEX, 0, 0 },
		{ __mlx5_bit_off(create_qp_in, qpc) +
		  __mlx5_bit_off(qpc, cqn_rcv), 24, V_OBJ_INDEX, 0, 0 },
	};

	put_umem_reg(o, 0, 16384, 16384, IBV_ACCESS_LOCAL_WRITE);
	put_rec(o, R_UAR_ALLOC, 0, 0);
	fuzz_put_u32(o, MLX5DV_UAR_ALLOC_TYPE_NC);
	put_pd_alloc(o, 0);
	MLX5_SET(create_cq_in, cq, opcode, MLX5_CMD_OP_CREATE_CQ);
	MLX5_SET(cqc, cqc, log_cq_size, 4);
	MLX5_SET(cqc, cqc, c_eqn_or_apu_element, 0x20);
	MLX5_SET64(cqc, cqc, dbr_addr, 0x3000);
	put_rec(o, R_OBJ_CREATE, 0, 0);
	put_mbox(o, cq, sizeof(cq), MLX5_ST_SZ_BYTES(create_cq_out), cq_fix,
		 RTE_DIM(cq_fix));
	MLX5_SET(create_qp_in, qp, opcode, MLX5_CMD_OP_CREATE_QP);
	MLX5_SET(qpc, qpc, st, MLX5_QP_ST_RC);
	MLX5_SET(qpc, qpc, pm_state, MLX5_QP_PM_MIGRATED);
	MLX5_SET(qpc, qpc, log_sq_size, 3);
	MLX5_SET(qpc, qpc, rq_type, MLX5_QP_RQ_TYPE_ZERO_SIZE);
	MLX5_SET64(qpc, qpc, dbr_addr, 0x3040);
	MLX5_SET64(create_qp_in, qp, wq_umem_offset, 0x1000);
	put_rec(o, R_OBJ_CREATE, 0, 0);
	put_mbox(o, qp, sizeof(qp), MLX5_ST_SZ_BYTES(create_qp_out), qp_fix,
		 RTE_DIM(qp_fix));
	put_qp_move(o, MLX5_CMD_OP_RST2INIT_QP, 1);
	put_qp_move(o, MLX5_CMD_OP_INIT2RTR_QP, 1);
	put_qp_move(o, MLX5_CMD_OP_RTR2RTS_QP, 1);
	put_mr_reg(o, 0, 0, 0, 8192, IBV_ACCESS_LOCAL_WRITE |
		   IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_WRITE);
	for (uint8_t op = 0; op < 3; op++) {
		put_rec(o, R_KICK, 0, 0);
		fuzz_put_u8(o, 0);         /* UAR slot. */
		fuzz_put_u8(o, 1);         /* The QP's object slot. */
		fuzz_put_u16(o, op);       /* WQE index. */
		fuzz_put_u8(o, op == 0 ? MLX5_OPCODE_NOP : op == 1 ?
			    MLX5_OPCODE_RDMA_WRITE : MLX5_OPCODE_RDMA_READ);
		fuzz_put_u8(o, op == 0 ? 1 : 3);
	}
}

static void
seed(const char *dir, const char *name, const struct fuzz_out *o)
{
	fuzz_seed_write(dir, name, o->buf, o->len);
}

void
fuzz_sim_cmd_write_seeds(const char *dir)
{
	const uint32_t rw = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_READ |
			    IBV_ACCESS_REMOTE_WRITE;
	struct fuzz_out o;
	uint8_t klm[2 * 16];

	/* Capabilities of every vHCA, then the ways a query is refused. */
	o.len = 0;
	fuzz_put_u8(&o, 0);
	for (unsigned int v = 0; v < NB_VHCA; v++) {
		put_query_cap(&o, v, MLX5_HCA_CAP_GENERAL, false,
			      MLX5_ST_SZ_BYTES(query_hca_cap_in),
			      MLX5_ST_SZ_BYTES(query_hca_cap_out));
		put_query_cap(&o, v, MLX5_HCA_CAP_GENERAL_2, false,
			      MLX5_ST_SZ_BYTES(query_hca_cap_in),
			      MLX5_ST_SZ_BYTES(query_hca_cap_out));
		put_query_cap(&o, v, MLX5_HCA_CAP_QOS, false,
			      MLX5_ST_SZ_BYTES(query_hca_cap_in),
			      MLX5_ST_SZ_BYTES(query_hca_cap_out));
	}
	seed(dir, "query-caps", &o);
	o.len = 0;
	fuzz_put_u8(&o, 0);
	put_query_cap(&o, 0, MLX5_HCA_CAP_GENERAL, true,
		      MLX5_ST_SZ_BYTES(query_hca_cap_in),
		      MLX5_ST_SZ_BYTES(query_hca_cap_out));
	put_query_cap(&o, 0, 0x7, false, MLX5_ST_SZ_BYTES(query_hca_cap_in),
		      MLX5_ST_SZ_BYTES(query_hca_cap_out));
	put_query_cap(&o, 0, MLX5_HCA_CAP_GENERAL, false, 12,
		      MLX5_ST_SZ_BYTES(query_hca_cap_out));
	put_query_cap(&o, 0, MLX5_HCA_CAP_GENERAL, false,
		      MLX5_ST_SZ_BYTES(query_hca_cap_in), 100);
	put_query_cap(&o, 0, MLX5_HCA_CAP_GENERAL, false, 7, 8);
	put_query_cap(&o, 1, MLX5_HCA_CAP_GENERAL, false,
		      MLX5_ST_SZ_BYTES(query_hca_cap_in),
		      MLX5_ST_SZ_BYTES(query_hca_cap_out));
	put_query_cap(&o, 1 + NB_VHCA, MLX5_HCA_CAP_GENERAL, false,
		      MLX5_ST_SZ_BYTES(query_hca_cap_in),
		      MLX5_ST_SZ_BYTES(query_hca_cap_out));
	seed(dir, "query-caps-refused", &o);

	/* Kernel-only opcodes through the DEVX general command: refused. */
	o.len = 0;
	fuzz_put_u8(&o, 0);
	for (unsigned int i = 0; i < RTE_DIM(opcodes); i++) {
		uint32_t in[MLX5_ST_SZ_DW(mbox_in)] = { 0 };

		MLX5_SET(mbox_in, in, opcode, opcodes[i]);
		put_rec(&o, R_GENERAL_CMD, 0, 0);
		put_mbox(&o, in, sizeof(in), MLX5_ST_SZ_BYTES(mbox_out), NULL,
			 0);
	}
	seed(dir, "every-opcode", &o);

	/* A KLM mkey created free, queried and destroyed. */
	o.len = 0;
	fuzz_put_u8(&o, 0);
	put_pd_alloc(&o, 0);
	put_create_mkey(&o, 0, MLX5_MKC_ACCESS_MODE_KLM, 0, 0, 0, 0, true,
			NULL, 0, NULL, 0);
	put_obj_cmd(&o, R_OBJ_QUERY, MLX5_CMD_OP_QUERY_MKEY, 0,
		    MLX5_ST_SZ_BYTES(query_mkey_out));
	put_rec(&o, R_OBJ_DESTROY, 0, 0);
	fuzz_put_u8(&o, 0);
	seed(dir, "mkey-klm-free", &o);

	/* MTT mkey over a umem; the device writes and reads through it. */
	o.len = 0;
	fuzz_put_u8(&o, 0);
	put_pd_alloc(&o, 0);
	put_umem_reg(&o, 0, 0, 8192, IBV_ACCESS_LOCAL_WRITE);
	put_create_mkey(&o, 0, MLX5_MKC_ACCESS_MODE_MTT, 0, 0, 0x10000, 4096,
			false, NULL, 0, NULL, 0);
	put_dma(&o, 0, 0, V_OBJ_KEY, 0, true, 0, 0x10100, 256, true);
	put_dma(&o, 0, 0, V_OBJ_KEY, 0, true, 0, 0x10f00, 512, false);
	put_obj_cmd(&o, R_OBJ_QUERY, MLX5_CMD_OP_QUERY_MKEY, 0, 64);
	put_rec(&o, R_UMEM_DEREG, 0, 0);
	fuzz_put_u8(&o, 0);
	seed(dir, "mkey-mtt-dma", &o);

	/* The application protects registered memory: DMA fails cleanly. */
	o.len = 0;
	fuzz_put_u8(&o, 0);
	put_pd_alloc(&o, 0);
	put_mr_reg(&o, 0, 0, 0, 16384, IBV_ACCESS_LOCAL_WRITE);
	put_rec(&o, R_PROTECT, 0, 0);
	fuzz_put_u16(&o, 1);
	fuzz_put_u8(&o, 1);
	put_rec(&o, R_PROTECT, 0, 0);
	fuzz_put_u16(&o, 2);
	fuzz_put_u8(&o, 2);
	put_dma(&o, 0, 0, V_MR_KEY, 0, false, 0, 4000, 200, false);
	put_dma(&o, 0, 0, V_MR_KEY, 0, false, 0, 8192, 100, true);
	put_dma(&o, 0, 0, V_MR_KEY, 0, false, 0, 8192, 100, false);
	put_mr_reg(&o, 0, 0, 4096, 4096, IBV_ACCESS_LOCAL_WRITE);
	put_umem_reg(&o, 0, 8192, 4096, IBV_ACCESS_LOCAL_WRITE);
	put_umem_reg(&o, 0, 8192, 4096, 0);
	seed(dir, "protected-memory", &o);
	/* The same with the pin check of older kernels, then both checks. */
	o.buf[0] = FLAG_PIN_MAPS;
	for (unsigned int i = 0; i < 4; i++) {
		put_rec(&o, R_PIN_DIFF, 0, 0);
		fuzz_put_u16(&o, i * 3000);
		fuzz_put_u16(&o, 6000);
		fuzz_put_u8(&o, i & 1);
	}
	seed(dir, "protected-memory-maps", &o);

	/* A verbs MR, a KLM mkey over two of its ranges, DMA through both. */
	o.len = 0;
	fuzz_put_u8(&o, 0);
	put_pd_alloc(&o, 1);
	put_mr_reg(&o, 0, 0, 0, 16384, rw);
	memset(klm, 0, sizeof(klm));
	/* Addresses and keys come from fix-ups; offsets added below. */
	put_klm(klm, 1024, 0, 0);
	put_klm(klm + 16, 1024, 0, 0);
	{
		/* Entry i: (byte_count, mkey, address) at bit 128 * i. */
		const uint16_t k0 = __mlx5_bit_off(create_mkey_in,
						   klm_pas_mtt);
		const uint16_t k1 = k0 + MLX5_ST_SZ_BITS(klm);
		struct fix fix[] = {
			{ k0 + 32, 32, V_MR_KEY, 0, 0 },
			{ k0 + 64, 32, V_BUF_HI, 1, 0 },
			{ k0 + 96, 32, V_BUF_LO, 1, 0 },
			{ k1 + 32, 32, V_MR_KEY, 0, 0 },
			{ k1 + 64, 32, V_BUF_HI, 1, 0 },
			{ k1 + 96, 32, V_BUF_LO, 1, 0 },
		};

		put_create_mkey(&o, 1, MLX5_MKC_ACCESS_MODE_KLM, 0, 0, 0,
				2048, false, fix, RTE_DIM(fix), klm, 2);
	}
	put_dma(&o, 1, 0, V_MR_KEY, 0, false, 1, 100, 1000, true);
	put_dma(&o, 1, 0, V_OBJ_KEY, 0, true, 0, 0, 2048, false);
	put_obj_cmd(&o, R_OBJ_QUERY, MLX5_CMD_OP_QUERY_MKEY, 0,
		    MLX5_ST_SZ_BYTES(query_mkey_out));
	seed(dir, "mr-klm-dma", &o);

	/*
	 * Cross-vHCA: vHCA 1 offers an MTT mkey, vHCA 2 maps it with a
	 * crossing mkey and with an alias, reads through both, then vHCA 1
	 * destroys its mkey and the accesses fail.
	 */
	o.len = 0;
	fuzz_put_u8(&o, 0);
	put_pd_alloc(&o, 0);
	put_umem_reg(&o, 0, 0, 16384, IBV_ACCESS_LOCAL_WRITE);
	put_create_mkey(&o, 0, MLX5_MKC_ACCESS_MODE_MTT, 0, 0, 0, 16384,
			false, NULL, 0, NULL, 0);
	put_allow(&o, 0, V_OBJ_INDEX, 0);
	put_pd_alloc(&o, 1);
	put_crossing(&o, 1, 0, 1, V_OBJ_KEY, 0);
	put_alias(&o, 1, 0, V_OBJ_INDEX, 0, 1, 0x4b);
	put_obj_cmd(&o, R_OBJ_QUERY, MLX5_CMD_OP_QUERY_GENERAL_OBJECT, 2,
		    MLX5_ST_SZ_BYTES(query_alias_obj_out));
	put_obj_cmd(&o, R_OBJ_MODIFY, MLX5_CMD_OP_MODIFY_GENERAL_OBJECT, 2,
		    MLX5_ST_SZ_BYTES(general_obj_out_cmd_hdr));
	put_dma(&o, 1, 1, V_OBJ_KEY, 1, true, 0, 64, 4096, false);
	put_dma(&o, 1, 1, V_OBJ_KEY, 2, true, 0, 128, 4096, true);
	put_rec(&o, R_OBJ_DESTROY, 0, 0);
	fuzz_put_u8(&o, 0);
	put_dma(&o, 1, 1, V_OBJ_KEY, 1, true, 0, 64, 16, false);
	put_obj_cmd(&o, R_OBJ_QUERY, MLX5_CMD_OP_QUERY_GENERAL_OBJECT, 2,
		    MLX5_ST_SZ_BYTES(query_alias_obj_out));
	seed(dir, "cross-vhca", &o);

	/*
	 * The other crossing rules: onto vHCA 2's MR (granted, never marked)
	 * and onto vHCA 5's MTT mkey (marked, never granted); an alias made by
	 * vHCA 5 comes with a bad status.
	 */
	o.len = 0;
	fuzz_put_u8(&o, 0);
	put_pd_alloc(&o, 1);
	put_mr_reg(&o, 0, 0, 0, 8192, rw);
	put_allow(&o, 1, V_MR_INDEX, 0);
	put_pd_alloc(&o, 4);
	put_umem_reg(&o, 4, 0, 8192, IBV_ACCESS_LOCAL_WRITE);
	put_create_mkey(&o, 4, MLX5_MKC_ACCESS_MODE_MTT, 1, 0, 0, 8192,
			false, NULL, 0, NULL, 0);
	put_pd_alloc(&o, 0);
	put_crossing(&o, 0, 1, 2, V_MR_KEY, 0);
	put_crossing(&o, 0, 4, 2, V_OBJ_KEY, 0);
	put_dma(&o, 0, 2, V_OBJ_KEY, 1, false, 1, 64, 128, false);
	put_dma(&o, 0, 2, V_OBJ_KEY, 2, true, 0, 64, 128, true);
	put_alias(&o, 4, 1, V_MR_INDEX, 0, 1, 0x4b);
	put_obj_cmd(&o, R_OBJ_QUERY, MLX5_CMD_OP_QUERY_GENERAL_OBJECT, 3,
		    MLX5_ST_SZ_BYTES(query_alias_obj_out));
	seed(dir, "cross-rules", &o);

	/* The same offer, refused: wrong key, vHCA without the capability. */
	o.len = 0;
	fuzz_put_u8(&o, 0);
	put_pd_alloc(&o, 0);
	put_mr_reg(&o, 0, 0, 0, 4096, rw);
	put_allow(&o, 0, V_MR_INDEX, 0);
	put_pd_alloc(&o, 1);
	put_pd_alloc(&o, 2);
	put_alias(&o, 1, 0, V_MR_INDEX, 0, 1, 0x4c);
	put_alias(&o, 2, 0, V_MR_INDEX, 0, 2, 0x4b);
	put_crossing(&o, 2, 0, 2, V_MR_KEY, 0);
	put_crossing(&o, 1, 0, 1, V_MR_KEY, 0);
	put_dma(&o, 1, 1, V_OBJ_KEY, 0, false, 0, 512, 64, false);
	seed(dir, "cross-vhca-refused", &o);

	/* mlx5dv mkeys, pacing entries, UARs, device attributes. */
	o.len = 0;
	fuzz_put_u8(&o, 0);
	put_pd_alloc(&o, 0);
	put_rec(&o, R_DV_MKEY_CREATE, 0, 0);
	fuzz_put_u8(&o, 0);
	fuzz_put_u32(&o, MLX5DV_MKEY_INIT_ATTR_FLAGS_INDIRECT |
		     MLX5DV_MKEY_INIT_ATTR_FLAGS_CRYPTO);
	fuzz_put_u16(&o, 5);
	for (unsigned int i = 0; i < 2; i++) {
		uint8_t pctx[MLX5_ST_SZ_BYTES(set_pp_rate_limit_context)] = { 0 };

		MLX5_SET(set_pp_rate_limit_context, pctx, rate_limit, 5000);
		put_rec(&o, R_PP_ALLOC, 0, 0);
		fuzz_put_u8(&o, sizeof(pctx));
		fuzz_put_u32(&o, i ? MLX5DV_PP_ALLOC_FLAGS_DEDICATED_INDEX : 0);
		fuzz_put_bytes(&o, pctx, sizeof(pctx));
	}
	put_rec(&o, R_UAR_ALLOC, 0, 0);
	fuzz_put_u32(&o, MLX5DV_UAR_ALLOC_TYPE_NC);
	put_rec(&o, R_QUERY_DEVICE, 0, 0);
	fuzz_put_u8(&o, 1);
	fuzz_put_u32(&o, 0);
	put_rec(&o, R_QUEUE_OP, 0, 0);
	fuzz_put_u8(&o, 0);
	fuzz_put_u8(&o, 16);
	fuzz_put_u8(&o, 16);
	put_rec(&o, R_DEVICE_LIST, 0, 0);
	put_rec(&o, R_PP_FREE, 0, 0);
	fuzz_put_u8(&o, 1);
	seed(dir, "dv-pp-uar", &o);

	/* Pacing on a 3-entry table: full, then a rate out of range. */
	o.len = 0;
	fuzz_put_u8(&o, 0);
	for (unsigned int i = 0; i < 5; i++) {
		uint8_t pctx[MLX5_ST_SZ_BYTES(set_pp_rate_limit_context)] = { 0 };

		MLX5_SET(set_pp_rate_limit_context, pctx, rate_limit,
			 i < 4 ? 100 + i : 5000);
		put_rec(&o, R_PP_ALLOC, 2, 0);
		fuzz_put_u8(&o, 8);
		fuzz_put_u32(&o, 0);
		fuzz_put_bytes(&o, pctx, 8);
	}
	seed(dir, "pp-table-full", &o);

	/* An imported context, PD import by handle, then closes: reclaim. */
	o.len = 0;
	fuzz_put_u8(&o, FLAG_RECLAIM);
	put_pd_alloc(&o, 0);
	put_rec(&o, R_CTX_IMPORT, 0, 0);
	fuzz_put_u8(&o, 0);
	put_rec(&o, R_PD_IMPORT, 0, 2);
	fuzz_put_u8(&o, V_PD_HANDLE);
	fuzz_put_u8(&o, 0);
	put_mr_reg(&o, 1, 0, 4096, 4096, IBV_ACCESS_LOCAL_WRITE);
	put_rec(&o, R_PD_DEALLOC, 0, 0);
	fuzz_put_u8(&o, 0);
	put_rec(&o, R_CTX_CLOSE, 0, 0);
	put_umem_reg(&o, 0, 0, 4096, 0);
	put_rec(&o, R_CTX_CLOSE, 0, 2);
	put_pd_alloc(&o, 0);
	put_rec(&o, R_CTX_IMPORT, 0, 0);
	fuzz_put_u8(&o, 1);
	seed(dir, "ctx-import-reclaim", &o);

	/*
	 * A PD made through DEVX (ALLOC_PD as an object), an mkey on it, and
	 * an import by handle 0, which must not find it (it once did, and
	 * its DEALLOC_PD left the imported handle dangling).
	 */
	o.len = 0;
	fuzz_put_u8(&o, 0);
	{
		uint32_t in[MLX5_ST_SZ_DW(alloc_pd_in)] = { 0 };
		struct fix fix[] = {
			FIX_MKC(pd, V_OBJ_INDEX, 0),
		};

		MLX5_SET(alloc_pd_in, in, opcode, MLX5_CMD_OP_ALLOC_PD);
		put_rec(&o, R_OBJ_CREATE, 0, 0);
		put_mbox(&o, in, sizeof(in), MLX5_ST_SZ_BYTES(alloc_pd_out),
			 NULL, 0);
		put_create_mkey(&o, 0, MLX5_MKC_ACCESS_MODE_KLM, 0, 0, 0, 0,
				true, fix, RTE_DIM(fix), NULL, 0);
	}
	put_rec(&o, R_PD_IMPORT, 0, 0);
	fuzz_put_u8(&o, V_RAW);
	fuzz_put_u8(&o, 0);
	fuzz_put_u32(&o, 0);
	seed(dir, "devx-pd", &o);

	/* Fault injection on the next CREATE_MKEY, then on any command. */
	o.len = 0;
	fuzz_put_u8(&o, 0);
	put_pd_alloc(&o, 0);
	put_rec(&o, R_FAULT, 0, 0);
	fuzz_put_u8(&o, 1);
	fuzz_put_u8(&o, 1);
	fuzz_put_u8(&o, MLX5_CMD_STAT_NO_RES_ERR);
	put_create_mkey(&o, 0, MLX5_MKC_ACCESS_MODE_KLM, 0, 0, 0, 0, true,
			NULL, 0, NULL, 0);
	put_rec(&o, R_FAULT, 0, 0);
	fuzz_put_u8(&o, 0xfe);
	fuzz_put_u8(&o, 0);
	fuzz_put_u8(&o, MLX5_CMD_STAT_INT_ERR);
	put_rec(&o, R_PD_DEALLOC, 0, 0);
	fuzz_put_u8(&o, 0);
	put_query_cap(&o, 0, MLX5_HCA_CAP_GENERAL, false,
		      MLX5_ST_SZ_BYTES(query_hca_cap_in),
		      MLX5_ST_SZ_BYTES(query_hca_cap_out));
	seed(dir, "fault-injection", &o);

	o.len = 0;
	fuzz_put_u8(&o, 0);
	put_queue_seed(&o);
	seed(dir, "loopback-qp", &o);
}

