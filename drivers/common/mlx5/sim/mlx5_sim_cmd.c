/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * The DEVX mailbox interpreter: the table of commands the device knows,
 * the entry points (general command, object create/query/modify/destroy),
 * the checks the kernel makes before a command reaches firmware, the
 * firmware's length checks, and QUERY_HCA_CAP.
 *
 * A command refused by the device fills status and syndrome in the output
 * mailbox and returns EREMOTEIO (NULL + errno EREMOTEIO for object create),
 * as current kernels do; a refused destroy returns the status's errno with
 * no mailbox (the kernel runs it itself). A call the kernel refuses never
 * becomes a command: it returns EINVAL and is not counted.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <rte_common.h>

#include "mlx5_sim_priv.h"

/* general_obj_types bits (1 << object type) the device implements. */
#define SIM_OBJ_TYPE_UCTX 0x4
#define SIM_OBJ_TYPE_UMEM 0x5

/* Which entry point may carry a command. */
enum sim_cmd_class {
	SIM_CMD_GENERAL,  /* devx_general_cmd. */
	SIM_CMD_CREATE,   /* devx_obj_create. */
	SIM_CMD_QUERY,    /* devx_obj_query on the object it names. */
	SIM_CMD_MODIFY,   /* devx_obj_modify on the object it names. */
	SIM_CMD_DESTROY,  /* Issued by devx_obj_destroy only. */
	SIM_CMD_KERNEL,   /* Issued by the kernel for verbs-style calls. */
	SIM_CMD_NONE,     /* Admitted by the kernel, not implemented. */
};

/* Entry points of the kernel that admit an opcode. */
#define SIM_K_GENERAL RTE_BIT32(0)  /* devx_general_cmd. */
#define SIM_K_NO_DEVX RTE_BIT32(1)  /* ... also without DEVX (whitelist). */
#define SIM_K_CREATE RTE_BIT32(2)   /* devx_obj_create. */
#define SIM_K_QUERY RTE_BIT32(3)    /* devx_obj_query. */
#define SIM_K_MODIFY RTE_BIT32(4)   /* devx_obj_modify. */
/* SET_FLOW_TABLE_ENTRY: create with op_mod 0, modify with op_mod 1. */
#define SIM_K_FTE RTE_BIT32(5)

/*
 * One row per opcode the kernel admits or the device implements: its name,
 * the kernel's entry points that let it through (SIM_K_*), how the device
 * issues it (SIM_CMD_*; SIM_CMD_NONE: the device does not implement it, a
 * DEVX user gets BAD_OPCODE), the lengths of its layouts (shorter is the
 * device's BAD_INPUT_LEN/BAD_OUTPUT_LEN), its handler (NULL: issued by the
 * kernel's own paths, a DEVX user gets BAD_OPCODE), and what the kernel
 * rewrites in a DEVX mailbox before the device sees it.
 */
typedef uint32_t (sim_cmd_run_t)(struct mlx5_sim_file *file, uint16_t opcode,
				 const void *in, size_t inlen, void *out,
				 size_t outlen, struct mlx5_sim_devx_obj *obj);
struct sim_cmd_desc {
	uint16_t opcode;
	const char *name;
	uint8_t admit;     /* SIM_K_*: the kernel's entry points. */
	enum sim_cmd_class cls;
	uint32_t in_min;   /* Bytes of the input layout. */
	uint32_t out_min;  /* Bytes of the output layout. */
	sim_cmd_run_t *run;
	void (*kernel_fix)(void *in);
};

#define SIM_ROW_X(opnum, op_name, admit_, cls_, in_t, out_t, run_, fix_) \
	{ opnum, op_name, admit_, cls_, MLX5_ST_SZ_BYTES(in_t), \
	  MLX5_ST_SZ_BYTES(out_t), run_, fix_ }
#define SIM_ROW(op, admit_, cls_, in_t, out_t, run_, fix_) \
	SIM_ROW_X(MLX5_CMD_OP_ ## op, #op, admit_, cls_, in_t, out_t, run_, \
		  fix_)
#define SIM_KERNEL_ONLY(opnum, op_name, admit_) \
	{ opnum, op_name, admit_, SIM_CMD_NONE, 0, 0, NULL, NULL }

/* The handlers, one shape for the table. */
static uint32_t sim_cmd_query_hca_cap(struct mlx5_sim_vhca *vhca,
				      const void *in, void *out);
#define SIM_RUN(name, call) \
static uint32_t \
sim_run_ ## name(struct mlx5_sim_file *file, uint16_t opcode __rte_unused, \
		 const void *in __rte_unused, size_t inlen __rte_unused, \
		 void *out __rte_unused, size_t outlen __rte_unused, \
		 struct mlx5_sim_devx_obj *obj __rte_unused) \
{ \
	return call; \
}
SIM_RUN(query_hca_cap, sim_cmd_query_hca_cap(file->vhca, in, out))
SIM_RUN(create_mkey, mlx5_sim_cmd_create_mkey(file, in, inlen, out, obj))
SIM_RUN(query_mkey, mlx5_sim_cmd_query_mkey(file, in, out, outlen))
SIM_RUN(destroy_mkey, mlx5_sim_cmd_destroy_mkey(file, in))
SIM_RUN(create_gobj,
	mlx5_sim_cmd_create_gobj(file, in, inlen, out, outlen, obj))
SIM_RUN(query_gobj, mlx5_sim_cmd_query_gobj(file, in, out, outlen))
SIM_RUN(modify_gobj, mlx5_sim_cmd_modify_gobj(file, in))
SIM_RUN(destroy_gobj, mlx5_sim_cmd_destroy_gobj(file, in))
SIM_RUN(allow_access, mlx5_sim_cmd_allow_access(file, in))
SIM_RUN(alloc_pd, mlx5_sim_cmd_alloc_pd(file, out, obj))
SIM_RUN(dealloc_pd, mlx5_sim_cmd_dealloc_pd(file, in))
SIM_RUN(create_cq, mlx5_sim_cmd_create_cq(file, in, out, obj))
SIM_RUN(destroy_cq, mlx5_sim_cmd_destroy_cq(file, in))
SIM_RUN(query_cq, mlx5_sim_cmd_query_cq(file, in, out))
SIM_RUN(modify_cq, mlx5_sim_cmd_modify_cq(file, in))
SIM_RUN(create_qp, mlx5_sim_cmd_create_qp(file, in, out, obj))
SIM_RUN(destroy_qp, mlx5_sim_cmd_destroy_qp(file, in))
SIM_RUN(modify_qp, mlx5_sim_cmd_modify_qp(file, opcode, in))
SIM_RUN(query_qp, mlx5_sim_cmd_query_qp(file, in, out))
SIM_RUN(eth, mlx5_sim_cmd_eth(file, opcode, in, inlen, out, obj))
SIM_RUN(qcnt, mlx5_sim_cmd_qcnt(file, opcode, in, out, obj))
SIM_RUN(fcnt, mlx5_sim_cmd_fcnt(file, opcode, in, out, obj))
SIM_RUN(query_rqt, mlx5_sim_rqt_query(file, in, out, outlen))
SIM_RUN(rmp, mlx5_sim_cmd_rmp(file, opcode, in, out))
SIM_RUN(query_lag, mlx5_sim_cmd_query_lag(file, out))

/*
 * devx_handle_mkey_create(): the kernel sets mkey_umem_valid for every
 * access mode but KLM and KSM, so a DEVX user need not; devx_set_umem_valid():
 * for the queue creates it also marks the ring and doorbell umems valid (a
 * DEVX user has no physical addresses to give). The device judges the
 * mailbox so rewritten.
 */
static void
sim_kernel_fix_mkey(void *in)
{
	const void *mkc = MLX5_ADDR_OF(create_mkey_in, in,
				       memory_key_mkey_entry);
	uint32_t mode = MLX5_GET(mkc, mkc, access_mode_1_0) |
			MLX5_GET(mkc, mkc, access_mode_4_2) << 2;

	if (mode != MLX5_MKC_ACCESS_MODE_KLM &&
	    mode != MLX5_MKC_ACCESS_MODE_KSM)
		MLX5_SET(create_mkey_in, in, mkey_umem_valid, 1);
}

static void
sim_kernel_fix_cq(void *in)
{
	MLX5_SET(create_cq_in, in, cq_umem_valid, 1);
	MLX5_SET(create_cq_in, in, cq_context.dbr_umem_valid, 1);
}

static void
sim_kernel_fix_qp(void *in)
{
	MLX5_SET(create_qp_in, in, wq_umem_valid, 1);
	MLX5_SET(create_qp_in, in, qpc.dbr_umem_valid, 1);
}

static void
sim_kernel_fix_sq(void *in)
{
	MLX5_SET(create_sq_in, in, ctx.wq.wq_umem_valid, 1);
	MLX5_SET(create_sq_in, in, ctx.wq.dbr_umem_valid, 1);
}

static void
sim_kernel_fix_rq(void *in)
{
	MLX5_SET(create_rq_in, in, ctx.wq.wq_umem_valid, 1);
	MLX5_SET(create_rq_in, in, ctx.wq.dbr_umem_valid, 1);
}

/*
 * QUERY_HCA_CAP's output: the header and one capability page (0x800
 * bytes), not the whole union of the layout: rdma-core's own tests
 * (tests/mlx5_prm_structs.py, QueryCmdHcaCapOut) ask for 0x810 bytes on
 * real devices. Every page the model answers fits in it.
 */
#define SIM_HCA_CAP_PAGE 0x800
#define SIM_HCA_CAP_OUT (MLX5_BYTE_OFF(query_hca_cap_out, capability) + \
			 SIM_HCA_CAP_PAGE)

static const struct sim_cmd_desc sim_cmds[] = {
	{ MLX5_CMD_OP_QUERY_HCA_CAP, "QUERY_HCA_CAP",
	  SIM_K_GENERAL | SIM_K_NO_DEVX, SIM_CMD_GENERAL,
	  MLX5_ST_SZ_BYTES(query_hca_cap_in), SIM_HCA_CAP_OUT,
	  sim_run_query_hca_cap, NULL },
	SIM_KERNEL_ONLY(0x101, "QUERY_ADAPTER", SIM_K_GENERAL),
	SIM_KERNEL_ONLY(0x10a, "QUERY_ISSI", SIM_K_GENERAL),
	SIM_ROW(CREATE_MKEY, SIM_K_CREATE, SIM_CMD_CREATE, create_mkey_in,
		create_mkey_out, sim_run_create_mkey, sim_kernel_fix_mkey),
	SIM_ROW(QUERY_MKEY, SIM_K_QUERY, SIM_CMD_QUERY, query_mkey_in,
		query_mkey_out, sim_run_query_mkey, NULL),
	SIM_ROW(DESTROY_MKEY, 0, SIM_CMD_DESTROY, destroy_mkey_in,
		destroy_mkey_out, sim_run_destroy_mkey, NULL),
	SIM_ROW(QUERY_SPECIAL_CONTEXTS, 0, SIM_CMD_KERNEL, mbox_in, mbox_out,
		NULL, NULL),
	SIM_ROW(CREATE_CQ, SIM_K_CREATE, SIM_CMD_CREATE, create_cq_in,
		create_cq_out, sim_run_create_cq, sim_kernel_fix_cq),
	SIM_ROW(DESTROY_CQ, 0, SIM_CMD_DESTROY, destroy_cq_in, empty_out,
		sim_run_destroy_cq, NULL),
	SIM_ROW(QUERY_CQ, SIM_K_QUERY, SIM_CMD_QUERY, query_cq_in, query_cq_out,
		sim_run_query_cq, NULL),
	SIM_ROW(MODIFY_CQ, SIM_K_MODIFY, SIM_CMD_MODIFY, modify_cq_in,
		modify_cq_out, sim_run_modify_cq, NULL),
	SIM_ROW(CREATE_QP, SIM_K_CREATE, SIM_CMD_CREATE, create_qp_in,
		create_qp_out, sim_run_create_qp, sim_kernel_fix_qp),
	SIM_ROW(DESTROY_QP, 0, SIM_CMD_DESTROY, destroy_qp_in, destroy_qp_out,
		sim_run_destroy_qp, NULL),
	SIM_ROW(RST2INIT_QP, SIM_K_MODIFY, SIM_CMD_MODIFY, rst2init_qp_in,
		rst2init_qp_out, sim_run_modify_qp, NULL),
	SIM_ROW(INIT2RTR_QP, SIM_K_MODIFY, SIM_CMD_MODIFY, init2rtr_qp_in,
		init2rtr_qp_out, sim_run_modify_qp, NULL),
	SIM_ROW(RTR2RTS_QP, SIM_K_MODIFY, SIM_CMD_MODIFY, rtr2rts_qp_in,
		rtr2rts_qp_out, sim_run_modify_qp, NULL),
	SIM_ROW(RTS2RTS_QP, SIM_K_MODIFY, SIM_CMD_MODIFY, rts2rts_qp_in,
		rts2rts_qp_out, sim_run_modify_qp, NULL),
	SIM_KERNEL_ONLY(0x506, "SQERR2RTS_QP", SIM_K_MODIFY),
	SIM_ROW(2ERR_QP, SIM_K_MODIFY, SIM_CMD_MODIFY, qp_2err_in, qp_2err_out,
		sim_run_modify_qp, NULL),
	SIM_ROW(2RST_QP, SIM_K_MODIFY, SIM_CMD_MODIFY, qp_2rst_in, qp_2rst_out,
		sim_run_modify_qp, NULL),
	SIM_ROW(QUERY_QP, SIM_K_QUERY, SIM_CMD_QUERY, query_qp_in, query_qp_out,
		sim_run_query_qp, NULL),
	SIM_KERNEL_ONLY(0x600, "CREATE_PSV", SIM_K_CREATE),
	SIM_KERNEL_ONLY(0x700, "CREATE_SRQ", SIM_K_CREATE),
	SIM_KERNEL_ONLY(0x702, "QUERY_SRQ", SIM_K_QUERY),
	SIM_KERNEL_ONLY(0x703, "ARM_RQ", SIM_K_MODIFY),
	SIM_ROW(CREATE_XRC_SRQ, SIM_K_CREATE, SIM_CMD_KERNEL,
		create_xrc_srq_in, create_xrc_srq_out, NULL, NULL),
	SIM_ROW(DESTROY_XRC_SRQ, 0, SIM_CMD_KERNEL, destroy_xrc_srq_in,
		destroy_xrc_srq_out, NULL, NULL),
	SIM_KERNEL_ONLY(0x707, "QUERY_XRC_SRQ", SIM_K_QUERY),
	SIM_KERNEL_ONLY(0x708, "ARM_XRC_SRQ", SIM_K_MODIFY),
	SIM_KERNEL_ONLY(0x710, "CREATE_DCT", SIM_K_CREATE),
	SIM_KERNEL_ONLY(0x713, "QUERY_DCT", SIM_K_QUERY),
	SIM_KERNEL_ONLY(0x714, "ARM_DCT_FOR_KEY_VIOLATION", SIM_K_MODIFY),
	SIM_KERNEL_ONLY(0x717, "CREATE_XRQ", SIM_K_CREATE),
	SIM_KERNEL_ONLY(0x719, "QUERY_XRQ", SIM_K_QUERY),
	SIM_KERNEL_ONLY(0x71a, "ARM_XRQ", SIM_K_MODIFY),
	SIM_KERNEL_ONLY(0x725, "QUERY_XRQ_DC_PARAMS_ENTRY", SIM_K_QUERY),
	SIM_KERNEL_ONLY(0x726, "SET_XRQ_DC_PARAMS_ENTRY", SIM_K_MODIFY),
	SIM_KERNEL_ONLY(0x727, "QUERY_XRQ_ERROR_PARAMS", SIM_K_QUERY),
	SIM_KERNEL_ONLY(0x729, "RELEASE_XRQ_ERROR", SIM_K_MODIFY),
	SIM_KERNEL_ONLY(0x72a, "MODIFY_XRQ", SIM_K_MODIFY),
	SIM_ROW(QUERY_VPORT_STATE, SIM_K_GENERAL, SIM_CMD_GENERAL,
		query_vport_state_in, query_vport_state_out, sim_run_eth, NULL),
	SIM_KERNEL_ONLY(0x752, "QUERY_ESW_VPORT_CONTEXT",
		SIM_K_GENERAL | SIM_K_NO_DEVX),
	SIM_ROW(QUERY_NIC_VPORT_CONTEXT, SIM_K_GENERAL, SIM_CMD_GENERAL,
		query_nic_vport_context_in, query_nic_vport_context_out,
		sim_run_eth, NULL),
	SIM_KERNEL_ONLY(0x760, "QUERY_ROCE_ADDRESS", SIM_K_GENERAL),
	SIM_KERNEL_ONLY(0x762, "QUERY_HCA_VPORT_CONTEXT",
		SIM_K_GENERAL | SIM_K_NO_DEVX),
	SIM_KERNEL_ONLY(0x76f, "QUERY_VNIC_ENV", SIM_K_GENERAL),
	SIM_KERNEL_ONLY(0x770, "QUERY_VPORT_COUNTER", SIM_K_GENERAL),
	SIM_ROW(ALLOC_Q_COUNTER, SIM_K_CREATE, SIM_CMD_CREATE,
		alloc_q_counter_in, alloc_q_counter_out, sim_run_qcnt, NULL),
	SIM_ROW(DEALLOC_Q_COUNTER, 0, SIM_CMD_DESTROY, dealloc_q_counter_in,
		dealloc_q_counter_out, sim_run_qcnt, NULL),
	SIM_ROW(QUERY_Q_COUNTER, SIM_K_QUERY, SIM_CMD_QUERY, query_q_counter_in,
		query_q_counter_out, sim_run_qcnt, NULL),
	SIM_ROW(SET_PP_RATE_LIMIT, 0, SIM_CMD_KERNEL, set_pp_rate_limit_in,
		set_pp_rate_limit_out, NULL, NULL),
	SIM_ROW(QUERY_RATE_LIMIT, 0, SIM_CMD_KERNEL, mbox_in, mbox_out, NULL,
		NULL),
	SIM_KERNEL_ONLY(0x782, "CREATE_SCHEDULING_ELEMENT", SIM_K_CREATE),
	SIM_KERNEL_ONLY(0x784, "QUERY_SCHEDULING_ELEMENT", SIM_K_QUERY),
	SIM_KERNEL_ONLY(0x785, "MODIFY_SCHEDULING_ELEMENT", SIM_K_MODIFY),
	SIM_ROW(ALLOC_PD, SIM_K_CREATE, SIM_CMD_CREATE, alloc_pd_in,
		alloc_pd_out, sim_run_alloc_pd, NULL),
	SIM_ROW(DEALLOC_PD, 0, SIM_CMD_DESTROY, dealloc_pd_in, mbox_out,
		sim_run_dealloc_pd, NULL),
	SIM_ROW(ALLOC_UAR, 0, SIM_CMD_KERNEL, mbox_in, mbox_out, NULL, NULL),
	SIM_ROW(DEALLOC_UAR, 0, SIM_CMD_KERNEL, mbox_in, mbox_out, NULL, NULL),
	SIM_KERNEL_ONLY(0x806, "ATTACH_TO_MCG", SIM_K_CREATE),
	SIM_KERNEL_ONLY(0x80a, "GET_DROPPED_PACKET_LOG", SIM_K_GENERAL),
	SIM_KERNEL_ONLY(0x80d, "NOP", SIM_K_GENERAL),
	SIM_ROW(ALLOC_XRCD, SIM_K_CREATE, SIM_CMD_KERNEL, alloc_xrcd_in,
		alloc_xrcd_out, NULL, NULL),
	SIM_ROW(DEALLOC_XRCD, 0, SIM_CMD_KERNEL, dealloc_xrcd_in,
		dealloc_xrcd_out, NULL, NULL),
	SIM_ROW(ALLOC_TRANSPORT_DOMAIN, SIM_K_CREATE, SIM_CMD_CREATE,
		alloc_transport_domain_in, alloc_transport_domain_out,
		sim_run_eth, NULL),
	SIM_ROW(DEALLOC_TRANSPORT_DOMAIN, 0, SIM_CMD_DESTROY,
		dealloc_transport_domain_in, dealloc_transport_domain_out,
		sim_run_eth, NULL),
	SIM_KERNEL_ONLY(0x822, "QUERY_CONG_STATUS", SIM_K_GENERAL),
	SIM_KERNEL_ONLY(0x824, "QUERY_CONG_PARAMS", SIM_K_GENERAL),
	SIM_KERNEL_ONLY(0x826, "QUERY_CONG_STATISTICS", SIM_K_GENERAL),
	SIM_KERNEL_ONLY(0x827, "ADD_VXLAN_UDP_DPORT",
		SIM_K_CREATE | SIM_K_MODIFY),
	SIM_KERNEL_ONLY(0x829, "SET_L2_TABLE_ENTRY",
		SIM_K_CREATE | SIM_K_MODIFY),
	SIM_KERNEL_ONLY(0x82a, "QUERY_L2_TABLE_ENTRY", SIM_K_QUERY),
	SIM_ROW(QUERY_LAG, SIM_K_GENERAL, SIM_CMD_GENERAL, query_lag_in,
		query_lag_out, sim_run_query_lag, NULL),
	SIM_ROW(CREATE_TIR, SIM_K_CREATE, SIM_CMD_CREATE, create_tir_in,
		create_tir_out, sim_run_eth, NULL),
	SIM_KERNEL_ONLY(0x901, "MODIFY_TIR", SIM_K_MODIFY),
	SIM_ROW(DESTROY_TIR, 0, SIM_CMD_DESTROY, destroy_tir_in,
		destroy_tir_out, sim_run_eth, NULL),
	SIM_KERNEL_ONLY(0x903, "QUERY_TIR", SIM_K_QUERY),
	SIM_ROW(CREATE_SQ, SIM_K_CREATE, SIM_CMD_CREATE, create_sq_in,
		create_sq_out, sim_run_eth, sim_kernel_fix_sq),
	SIM_ROW(MODIFY_SQ, SIM_K_MODIFY, SIM_CMD_MODIFY, modify_sq_in,
		modify_sq_out, sim_run_eth, NULL),
	SIM_ROW(DESTROY_SQ, 0, SIM_CMD_DESTROY, destroy_sq_in, destroy_sq_out,
		sim_run_eth, NULL),
	SIM_ROW(QUERY_SQ, SIM_K_QUERY, SIM_CMD_QUERY, query_sq_in, query_sq_out,
		sim_run_eth, NULL),
	SIM_ROW(CREATE_RQ, SIM_K_CREATE, SIM_CMD_CREATE, create_rq_in,
		create_rq_out, sim_run_eth, sim_kernel_fix_rq),
	SIM_ROW(MODIFY_RQ, SIM_K_MODIFY, SIM_CMD_MODIFY, modify_rq_in,
		modify_rq_out, sim_run_eth, NULL),
	SIM_ROW(DESTROY_RQ, 0, SIM_CMD_DESTROY, destroy_rq_in, destroy_rq_out,
		sim_run_eth, NULL),
	SIM_ROW(QUERY_RQ, SIM_K_QUERY, SIM_CMD_QUERY, query_rq_in, query_rq_out,
		sim_run_eth, NULL),
	SIM_ROW(CREATE_RMP, SIM_K_CREATE, SIM_CMD_KERNEL, create_rmp_in,
		create_rmp_out, NULL, NULL),
	SIM_ROW(MODIFY_RMP, SIM_K_MODIFY, SIM_CMD_MODIFY, modify_rmp_in,
		modify_rmp_out, sim_run_rmp, NULL),
	SIM_ROW(DESTROY_RMP, 0, SIM_CMD_KERNEL, destroy_rmp_in, destroy_rmp_out,
		NULL, NULL),
	SIM_ROW(QUERY_RMP, SIM_K_QUERY, SIM_CMD_QUERY, query_rmp_in,
		query_rmp_out, sim_run_rmp, NULL),
	SIM_ROW(CREATE_TIS, SIM_K_CREATE, SIM_CMD_CREATE, create_tis_in,
		create_tis_out, sim_run_eth, NULL),
	SIM_KERNEL_ONLY(0x913, "MODIFY_TIS", SIM_K_MODIFY),
	SIM_ROW(DESTROY_TIS, 0, SIM_CMD_DESTROY, destroy_tis_in,
		destroy_tis_out, sim_run_eth, NULL),
	SIM_ROW(QUERY_TIS, SIM_K_QUERY, SIM_CMD_QUERY, query_tis_in,
		query_tis_out, sim_run_eth, NULL),
	SIM_ROW(CREATE_RQT, SIM_K_CREATE, SIM_CMD_CREATE, create_rqt_in,
		create_rqt_out, sim_run_eth, NULL),
	SIM_ROW(MODIFY_RQT, SIM_K_MODIFY, SIM_CMD_MODIFY, modify_rqt_in,
		modify_rqt_out, sim_run_eth, NULL),
	SIM_ROW(DESTROY_RQT, 0, SIM_CMD_DESTROY, destroy_rqt_in,
		destroy_rqt_out, sim_run_eth, NULL),
	SIM_ROW(QUERY_RQT, SIM_K_QUERY, SIM_CMD_QUERY, query_rqt_in,
		query_rqt_out, sim_run_query_rqt, NULL),
	SIM_KERNEL_ONLY(0x930, "CREATE_FLOW_TABLE", SIM_K_CREATE),
	SIM_KERNEL_ONLY(0x931, "DESTROY_FLOW_TABLE", 0),
	SIM_KERNEL_ONLY(0x932, "QUERY_FLOW_TABLE", SIM_K_QUERY),
	SIM_KERNEL_ONLY(0x933, "CREATE_FLOW_GROUP", SIM_K_CREATE),
	SIM_KERNEL_ONLY(0x935, "QUERY_FLOW_GROUP", SIM_K_QUERY),
	SIM_ROW(SET_FLOW_TABLE_ENTRY, SIM_K_FTE, SIM_CMD_KERNEL, mbox_in,
		mbox_out, NULL, NULL),
	SIM_KERNEL_ONLY(0x937, "QUERY_FLOW_TABLE_ENTRY", SIM_K_QUERY),
	SIM_ROW(DELETE_FLOW_TABLE_ENTRY, 0, SIM_CMD_KERNEL, mbox_in, mbox_out,
		NULL, NULL),
	SIM_ROW(ALLOC_FLOW_COUNTER, SIM_K_CREATE, SIM_CMD_CREATE,
		alloc_flow_counter_in, alloc_flow_counter_out, sim_run_fcnt,
		NULL),
	SIM_ROW(DEALLOC_FLOW_COUNTER, 0, SIM_CMD_DESTROY,
		dealloc_flow_counter_in, dealloc_flow_counter_out, sim_run_fcnt,
		NULL),
	SIM_ROW(QUERY_FLOW_COUNTER, SIM_K_QUERY, SIM_CMD_QUERY,
		query_flow_counter_in, query_flow_counter_out, sim_run_fcnt,
		NULL),
	SIM_KERNEL_ONLY(0x93c, "MODIFY_FLOW_TABLE", SIM_K_MODIFY),
	SIM_KERNEL_ONLY(0x93d, "ALLOC_PACKET_REFORMAT_CONTEXT", SIM_K_CREATE),
	SIM_KERNEL_ONLY(0x93f, "QUERY_PACKET_REFORMAT_CONTEXT", SIM_K_QUERY),
	SIM_KERNEL_ONLY(0x940, "ALLOC_MODIFY_HEADER_CONTEXT", SIM_K_CREATE),
	SIM_KERNEL_ONLY(0x942, "QUERY_MODIFY_HEADER_CONTEXT", SIM_K_QUERY),
	SIM_ROW(CREATE_GENERAL_OBJECT, SIM_K_CREATE, SIM_CMD_CREATE,
		general_obj_in_cmd_hdr, general_obj_out_cmd_hdr,
		sim_run_create_gobj, NULL),
	SIM_ROW(MODIFY_GENERAL_OBJECT, SIM_K_MODIFY, SIM_CMD_MODIFY,
		general_obj_in_cmd_hdr, general_obj_out_cmd_hdr,
		sim_run_modify_gobj, NULL),
	SIM_ROW(QUERY_GENERAL_OBJECT, SIM_K_QUERY, SIM_CMD_QUERY,
		general_obj_in_cmd_hdr, general_obj_out_cmd_hdr,
		sim_run_query_gobj, NULL),
	SIM_ROW(DESTROY_GENERAL_OBJECT, 0, SIM_CMD_DESTROY,
		general_obj_in_cmd_hdr, general_obj_out_cmd_hdr,
		sim_run_destroy_gobj, NULL),
	SIM_ROW_X(MLX5_SIM_CMD_OP_CREATE_UCTX, "CREATE_UCTX", 0, SIM_CMD_KERNEL,
		mbox_in, mbox_out, NULL, NULL),
	SIM_ROW_X(MLX5_SIM_CMD_OP_DESTROY_UCTX, "DESTROY_UCTX", 0,
		SIM_CMD_KERNEL, mbox_in, mbox_out, NULL, NULL),
	SIM_ROW(CREATE_UMEM, 0, SIM_CMD_KERNEL, mbox_in, mbox_out, NULL, NULL),
	SIM_ROW(DESTROY_UMEM, 0, SIM_CMD_KERNEL, mbox_in, mbox_out, NULL, NULL),
	SIM_ROW(ALLOW_OTHER_VHCA_ACCESS, 0, SIM_CMD_GENERAL,
		allow_other_vhca_access_in, allow_other_vhca_access_out,
		sim_run_allow_access, NULL),
};

/* The row of @opcode, or NULL. */
static const struct sim_cmd_desc *
sim_cmd_row(uint16_t opcode)
{
	unsigned int i;

	for (i = 0; i < RTE_DIM(sim_cmds); i++)
		if (sim_cmds[i].opcode == opcode)
			return &sim_cmds[i];
	return NULL;
}

/* The row of a command the device implements, or NULL. */
static const struct sim_cmd_desc *
sim_cmd_desc(uint16_t opcode)
{
	const struct sim_cmd_desc *row = sim_cmd_row(opcode);

	return row != NULL && row->cls != SIM_CMD_NONE ? row : NULL;
}

/*
 * The kernel's DEVX front (drivers/infiniband/hw/mlx5/devx.c): mailboxes of
 * at least a general object header each, no vhca_tunnel_id (the device has
 * no vhca_tunnel_commands), and an opcode its entry point admits. Anything
 * shorter than a command's layout past that is the device's BAD_INPUT_LEN
 * or BAD_OUTPUT_LEN.
 */
#define SIM_DEVX_MIN_IN MLX5_ST_SZ_BYTES(general_obj_in_cmd_hdr)
#define SIM_DEVX_MIN_OUT MLX5_ST_SZ_BYTES(general_obj_out_cmd_hdr)
/* devx_handle_mkey_create(): the input must hold the whole mkey context. */
#define SIM_DEVX_MIN_CREATE_MKEY \
	(MLX5_BYTE_OFF(create_mkey_in, memory_key_mkey_entry) + \
	 MLX5_ST_SZ_BYTES(mkc))
/* devx_is_general_cmd(): opcodes of commands that work on no object. */
#define SIM_DEVX_GENERAL_START 0xb00
#define SIM_DEVX_GENERAL_END 0xd00


/* Does the kernel let @in through entry point @cls of a (non-)DEVX file? */
static bool
sim_kernel_admits_cmd(enum sim_cmd_class cls, bool devx, const void *in)
{
	uint16_t opcode = MLX5_GET(general_obj_in_cmd_hdr, in, opcode);
	uint16_t op_mod = MLX5_GET(mbox_in, in, op_mod);
	const struct sim_cmd_desc *row = sim_cmd_row(opcode);
	uint8_t admit = row != NULL ? row->admit : 0;
	if (admit & SIM_K_FTE)
		admit = op_mod == 0 ? SIM_K_CREATE :
			op_mod == 1 ? SIM_K_MODIFY : 0;
	if (cls == SIM_CMD_GENERAL && opcode >= SIM_DEVX_GENERAL_START &&
	    opcode < SIM_DEVX_GENERAL_END)
		admit |= SIM_K_GENERAL;
	/* Without DEVX: the whitelisted queries, answered with the kernel's uid. */
	if (!devx)
		return cls == SIM_CMD_GENERAL && (admit & SIM_K_NO_DEVX);
	switch (cls) {
	case SIM_CMD_GENERAL:
		return admit & SIM_K_GENERAL;
	case SIM_CMD_CREATE:
		return admit & SIM_K_CREATE;
	case SIM_CMD_QUERY:
		return admit & SIM_K_QUERY;
	case SIM_CMD_MODIFY:
		return admit & SIM_K_MODIFY;
	default:
		return false;
	}
}

static const char *const sim_cmd_class_names[] = {
	[SIM_CMD_GENERAL] = "devx_general_cmd",
	[SIM_CMD_CREATE] = "devx_obj_create",
	[SIM_CMD_QUERY] = "devx_obj_query",
	[SIM_CMD_MODIFY] = "devx_obj_modify",
	[SIM_CMD_DESTROY] = "devx_obj_destroy",
	[SIM_CMD_KERNEL] = "the kernel",
};


const char *
mlx5_sim_opcode_name(uint16_t opcode)
{
	const struct sim_cmd_desc *desc = sim_cmd_desc(opcode);

	return desc != NULL ? desc->name : "UNKNOWN";
}

int
mlx5_sim_opcode_parse(const char *name, uint16_t *opcode)
{
	static const char prefix[] = "MLX5_CMD_OP_";
	unsigned int i;

	if (strncasecmp(name, prefix, sizeof(prefix) - 1) == 0)
		name += sizeof(prefix) - 1;
	for (i = 0; i < RTE_DIM(sim_cmds); i++)
		if (sim_cmds[i].cls != SIM_CMD_NONE &&
		    strcasecmp(sim_cmds[i].name, name) == 0) {
			*opcode = sim_cmds[i].opcode;
			return 0;
		}
	return -EINVAL;
}

/* QUERY_HCA_CAP: the general, general_2 and QoS blocks. */
static uint32_t
sim_cmd_query_hca_cap(struct mlx5_sim_vhca *vhca, const void *in, void *out)
{
	void *cap = MLX5_ADDR_OF(query_hca_cap_out, out, capability);
	const struct mlx5_sim_caps *caps = &vhca->caps;
	bool crossing = mlx5_sim_vhca_crossing(vhca);
	uint16_t type = MLX5_GET(query_hca_cap_in, in, op_mod) >> 1;

	RTE_BUILD_BUG_ON(MLX5_ST_SZ_BYTES(cmd_hca_cap) > SIM_HCA_CAP_PAGE ||
			 MLX5_ST_SZ_BYTES(cmd_hca_cap_2) > SIM_HCA_CAP_PAGE ||
			 MLX5_ST_SZ_BYTES(qos_cap) > SIM_HCA_CAP_PAGE ||
			 MLX5_ST_SZ_BYTES(roce_cap) > SIM_HCA_CAP_PAGE ||
			 MLX5_ST_SZ_BYTES(per_protocol_networking_offload_caps) >
			 SIM_HCA_CAP_PAGE ||
			 MLX5_ST_SZ_BYTES(crypto_cap) > SIM_HCA_CAP_PAGE);
	if (MLX5_GET(query_hca_cap_in, in, other_function))
		return MLX5_SIM_SYND_CAP_OTHER_FUNC;
	/* The current and maximum values are the same on the sim. */
	switch (type) {
	case MLX5_HCA_CAP_GENERAL:
		MLX5_SET(cmd_hca_cap, cap, vhca_id, vhca->vhca_id);
		MLX5_SET(cmd_hca_cap, cap, hca_cap_2, caps->hca_cap_2);
		MLX5_SET(cmd_hca_cap, cap, dump_fill_mkey, 1);
		MLX5_SET(cmd_hca_cap, cap, null_mkey, 1);
		MLX5_SET(cmd_hca_cap, cap, qos, caps->pacing);
		MLX5_SET64(cmd_hca_cap, cap, general_obj_types,
			   RTE_BIT64(SIM_OBJ_TYPE_UCTX) |
			   RTE_BIT64(SIM_OBJ_TYPE_UMEM));
		MLX5_SET(cmd_hca_cap, cap, crossing_vhca_mkey, crossing);
		MLX5_SET(cmd_hca_cap, cap, log_max_cq_sz,
			 MLX5_SIM_LOG_MAX_CQ_SZ);
		MLX5_SET(cmd_hca_cap, cap, log_max_qp_sz,
			 MLX5_SIM_LOG_MAX_QP_SZ);
		MLX5_SET(cmd_hca_cap, cap, log_max_msg, MLX5_SIM_LOG_MAX_MSG);
		/*
		 * The largest send WQE: what the control segment's 6-bit ds
		 * can describe, 63 segments of 16 bytes (DPDK's crypto PMD
		 * sizes its UMR and RDMA WRITE WQEs from it).
		 */
		MLX5_SET(cmd_hca_cap, cap, max_wqe_sz_sq,
			 MLX5_SIM_WQE_MAX_BYTES);
		/* Ethernet ports (RoCE), as a ConnectX in Ethernet mode. */
		MLX5_SET(cmd_hca_cap, cap, port_type, MLX5_CAP_PORT_TYPE_ETH);
		MLX5_SET(cmd_hca_cap, cap, num_ports, caps->nports);
		MLX5_SET(cmd_hca_cap, cap, cqe_version, 1);
		/*
		 * CQE compression of 64-byte CQEs, hash and checksum
		 * mini-CQEs (no stride index: no striding RQ). No timeout
		 * is announced: a session ends with the doorbell that formed
		 * it (mlx5_sim_engine.c).
		 */
		MLX5_SET(cmd_hca_cap, cap, cqe_compression,
			 caps->cqe_comp_max != 0);
		MLX5_SET(cmd_hca_cap, cap, cqe_compression_max_num,
			 caps->cqe_comp_max);
		MLX5_SET(cmd_hca_cap, cap, max_qp_cnt, MLX5_SIM_MAX_Q_COUNTERS);
		MLX5_SET(cmd_hca_cap, cap, modify_rq_counter_set_id, 1);
		MLX5_SET(cmd_hca_cap, cap, roce, 1);
		MLX5_SET(cmd_hca_cap, cap, eth_net_offloads, 1);
		/* XRC domains, XRC SRQs, XRC initiator and target QPs. */
		MLX5_SET(cmd_hca_cap, cap, xrc, 1);
		/*
		 * Crypto: DEK objects and crypto mkeys configured by UMR;
		 * AES-XTS with the tweak a 128-bit little-endian number,
		 * plus one per data unit (mlx5_sim_umr.c).
		 */
		MLX5_SET(cmd_hca_cap, cap, crypto, caps->crypto);
		MLX5_SET(cmd_hca_cap, cap, aes_xts_multi_block_le_tweak,
			 caps->crypto);
		if (caps->crypto)
			MLX5_SET64(cmd_hca_cap, cap, general_obj_types,
				   MLX5_GET64(cmd_hca_cap, cap,
					      general_obj_types) |
				   MLX5_GENERAL_OBJ_TYPES_CAP_DEK |
				   (caps->crypto_wrapped ?
				    MLX5_GENERAL_OBJ_TYPES_CAP_CRYPTO_LOGIN :
				    0));
		MLX5_SET(cmd_hca_cap, cap, fl_rc_qp_when_roce_disabled, 1);
		/* Two ports make a LAG; lag port and UDP port by RTS2RTS. */
		MLX5_SET(cmd_hca_cap, cap, num_lag_ports,
			 mlx5_sim_lag_ports(vhca));
		MLX5_SET(cmd_hca_cap, cap, lag_tx_port_affinity,
			 mlx5_sim_lag_ports(vhca) != 0);
		MLX5_SET(cmd_hca_cap, cap, rts2rts_lag_tx_port_affinity,
			 mlx5_sim_lag_ports(vhca) != 0);
		MLX5_SET(cmd_hca_cap, cap, rts2rts_qp_udp_sport, 1);
		return MLX5_SIM_SYND_OK;
	case MLX5_HCA_CAP_GENERAL_2:
		if (!caps->hca_cap_2)
			return MLX5_SIM_SYND_CAP_GENERAL_2_OFF;
		MLX5_SET(cmd_hca_cap_2, cap,
			 cross_vhca_object_to_object_supported,
			 crossing ?
			 MLX5_CROSS_VHCA_OBJ_TO_OBJ_LOCAL_MKEY_TO_REMOTE_MKEY :
			 0);
		MLX5_SET64(cmd_hca_cap_2, cap,
			   allowed_object_for_other_vhca_access,
			   crossing ? MLX5_ALLOWED_OBJ_FOR_OTHER_VHCA_ACCESS_MKEY :
			   0);
		return MLX5_SIM_SYND_OK;
	case MLX5_HCA_CAP_CRYPTO:
		if (!caps->crypto)
			return MLX5_SIM_SYND_CAP_TYPE;
		/*
		 * Up to 2^15 DEKs; AES-XTS keys wrapped or plaintext (the
		 * import method), operational once the CRYPTO_OPERATIONAL
		 * register is set (mlx5_sim_dek.c).
		 */
		MLX5_SET(crypto_cap, cap, log_max_num_deks, 15);
		MLX5_SET(crypto_cap, cap, wrapped_import_method,
			 caps->crypto_wrapped ?
			 MLX5_CRYPTO_WRAPPED_IMPORT_METHOD_AES_XTS : 0);
		MLX5_SET(crypto_cap, cap, wrapped_crypto_operational,
			 caps->crypto_wrapped && caps->crypto_kek_len != 0);
		return MLX5_SIM_SYND_OK;
	case MLX5_HCA_CAP_ETH_OFFLOADS:
		/*
		 * What the device's Ethernet queues will honour: checksums,
		 * FCS scatter, self-loopback control, RQTs up to 2^8; no LSO,
		 * LRO or VLAN insertion; no inline headers required.
		 */
		MLX5_SET(per_protocol_networking_offload_caps, cap, csum_cap,
			 1);
		MLX5_SET(per_protocol_networking_offload_caps, cap,
			 self_lb_en_modifiable, 1);
		MLX5_SET(per_protocol_networking_offload_caps, cap,
			 scatter_fcs, 1);
		MLX5_SET(per_protocol_networking_offload_caps, cap,
			 wqe_inline_mode, MLX5_CAP_INLINE_MODE_NOT_REQUIRED);
		MLX5_SET(per_protocol_networking_offload_caps, cap,
			 rss_ind_tbl_cap, 8);
		if (vhca->caps.empw) {
			MLX5_SET(per_protocol_networking_offload_caps, cap,
				 multi_pkt_send_wqe, 1);
			MLX5_SET(per_protocol_networking_offload_caps, cap,
				 enhanced_multi_pkt_send_wqe, 1);
		}
		return MLX5_SIM_SYND_OK;
	case MLX5_HCA_CAP_ROCE:
		/* Force-loopback RC QPs; both timestamp formats. */
		MLX5_SET(roce_cap, cap, fl_rc_qp_when_roce_disabled, 1);
		MLX5_SET(roce_cap, cap, fl_rc_qp_when_roce_enabled, 1);
		MLX5_SET(roce_cap, cap, qp_ts_format,
			 MLX5_QP_TS_FORMAT_CAP_FREE_RUNNING_AND_REAL_TIME);
		return MLX5_SIM_SYND_OK;
	case MLX5_HCA_CAP_NIC_FLOW_TABLE:
		/*
		 * flow_table_nic_cap, every field 0: the model has no flow
		 * table for DEVX (no sampler, header rewrite or metadata
		 * registers), where a ConnectX reports its tables here. Its
		 * NIC receive rules are the kernel's (ibv_create_flow(),
		 * mlx5dv matchers) and the rdma-core front's software
		 * steering (mlx5_sim_ftable_create()), which does not read
		 * this page (libmlx5 would, for rx_sw_owner: the front's
		 * difference, its guide says so).
		 */
		return MLX5_SIM_SYND_OK;
	case MLX5_HCA_CAP_QOS:
		if (!caps->pacing)
			return MLX5_SIM_SYND_CAP_QOS_OFF;
		MLX5_SET(qos_cap, cap, packet_pacing, 1);
		MLX5_SET(qos_cap, cap, packet_pacing_burst_bound, 1);
		MLX5_SET(qos_cap, cap, packet_pacing_typical_size, 1);
		MLX5_SET(qos_cap, cap, packet_pacing_uid, caps->pp_uid);
		MLX5_SET(qos_cap, cap, packet_pacing_max_rate, caps->pp_max_rate);
		MLX5_SET(qos_cap, cap, packet_pacing_min_rate, caps->pp_min_rate);
		MLX5_SET(qos_cap, cap, packet_pacing_rate_table_size,
			 caps->pp_table_size);
		return MLX5_SIM_SYND_OK;
	default:
		return MLX5_SIM_SYND_CAP_TYPE;
	}
}

/*
 * One DEVX command through the device: counted, maybe injected, length
 * checked, executed; the object handle of a create/destroy is linked or
 * unlinked with the object under the same lock.
 *
 * @return 0, or EREMOTEIO with status and syndrome in @p out.
 */
static int
sim_devx_run(struct mlx5_sim_file *file, uint16_t opcode, const void *in,
	     size_t inlen, void *out, size_t outlen,
	     struct mlx5_sim_devx_obj *obj)
{
	const struct sim_cmd_desc *desc = sim_cmd_desc(opcode);
	struct mlx5_sim_vhca *vhca = file->vhca;
	uint8_t status = 0;
	uint32_t synd;

	mlx5_sim_vhca_lock(vhca);
	memset(out, 0, outlen);
	synd = mlx5_sim_cmd_start(vhca, opcode, &status);
	if (synd == MLX5_SIM_SYND_OK) {
		if (desc == NULL)
			synd = MLX5_SIM_SYND_BAD_OPCODE;
		else if (inlen < desc->in_min)
			synd = MLX5_SIM_SYND_IN_LEN;
		else if (outlen < desc->out_min)
			synd = MLX5_SIM_SYND_OUT_LEN;
		else if (desc->run == NULL)
			synd = MLX5_SIM_SYND_BAD_OPCODE;
		else
			synd = desc->run(file, opcode, in, inlen, out, outlen,
					 obj);
	}
	status = mlx5_sim_cmd_finish(vhca, opcode, synd, status);
	if (status != MLX5_CMD_STAT_OK) {
		MLX5_SET(mbox_out, out, status, status);
		MLX5_SET(mbox_out, out, syndrome, synd);
	} else if (desc != NULL && desc->cls == SIM_CMD_CREATE) {
		TAILQ_INSERT_TAIL(&file->objs, obj, next);
	} else if (desc != NULL && desc->cls == SIM_CMD_DESTROY) {
		TAILQ_REMOVE(&file->objs, obj, next);
	}
	mlx5_sim_vhca_unlock(vhca);
	return status != MLX5_CMD_STAT_OK ? EREMOTEIO : 0;
}

/*
 * What the kernel checks before a DEVX mailbox reaches firmware: mailboxes
 * holding at least the general object headers, no vhca_tunnel_id, an opcode
 * this entry point admits (a context without DEVX: the whitelisted queries
 * only), and a CREATE_MKEY input holding the whole mkey context. Every
 * refusal here is EINVAL and never becomes a command.
 *
 * @return 0 and the opcode, or a positive errno.
 */
static int
sim_devx_front(struct mlx5_sim_file *file, enum sim_cmd_class cls,
	       const void *in, size_t inlen, void *out, size_t outlen,
	       uint16_t *opcode)
{
	const char *why = NULL;

	if (in == NULL || out == NULL || inlen < SIM_DEVX_MIN_IN ||
	    outlen < SIM_DEVX_MIN_OUT) {
		why = "mailbox shorter than a general object header";
	} else {
		*opcode = MLX5_GET(general_obj_in_cmd_hdr, in, opcode);
		if (MLX5_GET(general_obj_in_cmd_hdr, in, vhca_tunnel_id))
			why = "vhca_tunnel_id set";
		else if (!sim_kernel_admits_cmd(cls, file->devx, in))
			why = file->devx ? "opcode not admitted at this entry point" :
			      "context opened without DEVX";
		else if (*opcode == MLX5_CMD_OP_CREATE_MKEY &&
			 inlen < SIM_DEVX_MIN_CREATE_MKEY)
			why = "CREATE_MKEY input without the whole mkey context";
	}
	if (why == NULL)
		return 0;
	SIM_LOG(DEBUG, "%s: %s: %s: EINVAL", file->vhca->ibdev.name,
		sim_cmd_class_names[cls], why);
	return EINVAL;
}

int
mlx5_sim_general_cmd(struct ibv_context *ctx, const void *in, size_t inlen,
		     void *out, size_t outlen)
{
	struct mlx5_sim_ctx *sctx = mlx5_sim_ctx_get(ctx);
	uint16_t opcode;
	int ret;

	if (sctx == NULL)
		return EINVAL;
	ret = sim_devx_front(sctx->file, SIM_CMD_GENERAL, in, inlen, out,
			     outlen, &opcode);
	if (ret != 0)
		return ret;
	return sim_devx_run(sctx->file, opcode, in, inlen, out, outlen, NULL);
}

struct mlx5dv_devx_obj *
mlx5_sim_obj_create(struct ibv_context *ctx, const void *in, size_t inlen,
		    void *out, size_t outlen)
{
	struct mlx5_sim_ctx *sctx = mlx5_sim_ctx_get(ctx);
	const struct sim_cmd_desc *desc;
	struct mlx5_sim_devx_obj *obj;
	uint16_t opcode;
	void *kin;
	int ret;

	if (sctx == NULL) {
		errno = EINVAL;
		return NULL;
	}
	ret = sim_devx_front(sctx->file, SIM_CMD_CREATE, in, inlen, out,
			     outlen, &opcode);
	if (ret != 0) {
		errno = ret;
		return NULL;
	}
	obj = calloc(1, sizeof(*obj));
	/* The kernel works on its own copy of the mailbox (it may rewrite). */
	kin = malloc(inlen);
	if (obj == NULL || kin == NULL) {
		free(obj);
		free(kin);
		errno = ENOMEM;
		return NULL;
	}
	memcpy(kin, in, inlen);
	/* Past the device's length check only: the kernel writes in place. */
	desc = sim_cmd_desc(opcode);
	if (desc != NULL && desc->kernel_fix != NULL && inlen >= desc->in_min)
		desc->kernel_fix(kin);
	obj->magic = MLX5_SIM_MAGIC_OBJ;
	obj->file = sctx->file;
	ret = sim_devx_run(sctx->file, opcode, kin, inlen, out, outlen, obj);
	/* The kernel's copy may hold a key (DEK): wiped before it goes. */
	explicit_bzero(kin, inlen);
	free(kin);
	if (ret != 0) {
		free(obj);
		errno = ret;
		return NULL;
	}
	return (struct mlx5dv_devx_obj *)obj;
}

static struct mlx5_sim_devx_obj *
sim_obj_get(struct mlx5dv_devx_obj *dv)
{
	struct mlx5_sim_devx_obj *obj = (struct mlx5_sim_devx_obj *)dv;

	return obj != NULL && obj->magic == MLX5_SIM_MAGIC_OBJ ? obj : NULL;
}

/*
 * The kernel lets a query/modify through only for the object it names. A
 * mailbox too short to name one goes on to the device's length check.
 */
static bool
sim_obj_named(const struct mlx5_sim_devx_obj *obj, uint16_t opcode,
	      const void *in, size_t inlen)
{
	const struct sim_cmd_desc *desc = sim_cmd_desc(opcode);

	if (desc == NULL || inlen < desc->in_min)
		return true;
	switch (opcode) {
	case MLX5_CMD_OP_QUERY_MKEY:
		return obj->kind == MLX5_SIM_OBJ_MKEY &&
		       MLX5_GET(query_mkey_in, in, mkey_index) == obj->index;
	case MLX5_CMD_OP_QUERY_CQ:
		return obj->kind == MLX5_SIM_OBJ_CQ &&
		       MLX5_GET(query_cq_in, in, cqn) == obj->index;
	case MLX5_CMD_OP_QUERY_QP:
	case MLX5_CMD_OP_RST2INIT_QP:
	case MLX5_CMD_OP_INIT2RTR_QP:
	case MLX5_CMD_OP_RTR2RTS_QP:
	case MLX5_CMD_OP_RTS2RTS_QP:
	case MLX5_CMD_OP_2ERR_QP:
	case MLX5_CMD_OP_2RST_QP:
		return obj->kind == MLX5_SIM_OBJ_QP &&
		       MLX5_GET(qp_2err_in, in, qpn) == obj->index;
	case MLX5_CMD_OP_QUERY_SQ:
	case MLX5_CMD_OP_MODIFY_SQ:
		return obj->kind == MLX5_SIM_OBJ_SQ &&
		       MLX5_GET(modify_sq_in, in, sqn) == obj->index;
	case MLX5_CMD_OP_QUERY_RQ:
	case MLX5_CMD_OP_MODIFY_RQ:
		return obj->kind == MLX5_SIM_OBJ_RQ &&
		       MLX5_GET(modify_rq_in, in, rqn) == obj->index;
	case MLX5_CMD_OP_MODIFY_RQT:
		return obj->kind == MLX5_SIM_OBJ_RQT &&
		       MLX5_GET(modify_rqt_in, in, rqtn) == obj->index;
	case MLX5_CMD_OP_QUERY_RQT:
		return obj->kind == MLX5_SIM_OBJ_RQT &&
		       MLX5_GET(query_rqt_in, in, rqtn) == obj->index;
	case MLX5_CMD_OP_QUERY_TIS:
		return obj->kind == MLX5_SIM_OBJ_TIS &&
		       MLX5_GET(query_tis_in, in, tisn) == obj->index;
	case MLX5_CMD_OP_MODIFY_CQ:
		return obj->kind == MLX5_SIM_OBJ_CQ &&
		       MLX5_GET(modify_cq_in, in, cqn) == obj->index;
	case MLX5_CMD_OP_QUERY_RMP:
	case MLX5_CMD_OP_MODIFY_RMP:
		return false; /* RMPs are the kernel's (verbs SRQs). */
	case MLX5_CMD_OP_QUERY_Q_COUNTER:
		return obj->kind == MLX5_SIM_OBJ_QCNT &&
		       MLX5_GET(query_q_counter_in, in, counter_set_id) ==
		       obj->index;
	case MLX5_CMD_OP_QUERY_FLOW_COUNTER:
		return obj->kind == MLX5_SIM_OBJ_FCNT &&
		       MLX5_GET(query_flow_counter_in, in, flow_counter_id) ==
		       obj->index;
	case MLX5_CMD_OP_QUERY_GENERAL_OBJECT:
	case MLX5_CMD_OP_MODIFY_GENERAL_OBJECT:
		return (obj->kind == MLX5_SIM_OBJ_ALIAS ||
			obj->kind == MLX5_SIM_OBJ_DEK ||
			obj->kind == MLX5_SIM_OBJ_LOGIN) &&
		       MLX5_GET(general_obj_in_cmd_hdr, in, obj_type) ==
		       obj->obj_type &&
		       MLX5_GET(general_obj_in_cmd_hdr, in, obj_id) ==
		       obj->index;
	default:
		return true;
	}
}

static int
sim_obj_cmd(struct mlx5dv_devx_obj *dv, enum sim_cmd_class cls,
	    const void *in, size_t inlen, void *out, size_t outlen)
{
	struct mlx5_sim_devx_obj *obj = sim_obj_get(dv);
	uint16_t opcode;
	int ret;

	if (obj == NULL)
		return EINVAL;
	ret = sim_devx_front(obj->file, cls, in, inlen, out, outlen, &opcode);
	if (ret != 0)
		return ret;
	if (!sim_obj_named(obj, opcode, in, inlen)) {
		SIM_LOG(DEBUG, "%s: %s (0x%x) names another object than the"
			" one it is issued on: EINVAL",
			obj->file->vhca->ibdev.name,
			mlx5_sim_opcode_name(opcode), opcode);
		return EINVAL;
	}
	return sim_devx_run(obj->file, opcode, in, inlen, out, outlen, NULL);
}

int
mlx5_sim_obj_query(struct mlx5dv_devx_obj *obj, const void *in, size_t inlen,
		   void *out, size_t outlen)
{
	return sim_obj_cmd(obj, SIM_CMD_QUERY, in, inlen, out, outlen);
}

int
mlx5_sim_obj_modify(struct mlx5dv_devx_obj *obj, const void *in,
		    size_t inlen, void *out, size_t outlen)
{
	return sim_obj_cmd(obj, SIM_CMD_MODIFY, in, inlen, out, outlen);
}

int
mlx5_sim_obj_destroy(struct mlx5dv_devx_obj *dv)
{
	struct mlx5_sim_devx_obj *obj = sim_obj_get(dv);
	uint32_t in[MLX5_ST_SZ_DW(general_obj_in_cmd_hdr)] = { 0 };
	uint32_t out[MLX5_ST_SZ_DW(general_obj_out_cmd_hdr)] = { 0 };
	uint16_t opcode;
	int ret;

	if (obj == NULL)
		return EINVAL;
	/* The destroy mailbox the kernel saved when the object was made. */
	if (obj->kind == MLX5_SIM_OBJ_PD) {
		RTE_BUILD_BUG_ON(sizeof(in) < MLX5_ST_SZ_BYTES(dealloc_pd_in));
		opcode = MLX5_CMD_OP_DEALLOC_PD;
		MLX5_SET(dealloc_pd_in, in, opcode, opcode);
		MLX5_SET(dealloc_pd_in, in, pd, obj->index);
	} else if (obj->kind == MLX5_SIM_OBJ_CQ) {
		opcode = MLX5_CMD_OP_DESTROY_CQ;
		MLX5_SET(destroy_cq_in, in, opcode, opcode);
		MLX5_SET(destroy_cq_in, in, cqn, obj->index);
	} else if (obj->kind == MLX5_SIM_OBJ_QP) {
		opcode = MLX5_CMD_OP_DESTROY_QP;
		MLX5_SET(destroy_qp_in, in, opcode, opcode);
		MLX5_SET(destroy_qp_in, in, qpn, obj->index);
	} else if (obj->kind == MLX5_SIM_OBJ_SQ ||
		   obj->kind == MLX5_SIM_OBJ_RQ ||
		   obj->kind == MLX5_SIM_OBJ_TIS ||
		   obj->kind == MLX5_SIM_OBJ_TD ||
		   obj->kind == MLX5_SIM_OBJ_RQT ||
		   obj->kind == MLX5_SIM_OBJ_TIR) {
		static const uint16_t ops[] = {
			[MLX5_SIM_OBJ_SQ] = MLX5_CMD_OP_DESTROY_SQ,
			[MLX5_SIM_OBJ_RQ] = MLX5_CMD_OP_DESTROY_RQ,
			[MLX5_SIM_OBJ_TIS] = MLX5_CMD_OP_DESTROY_TIS,
			[MLX5_SIM_OBJ_TD] =
				MLX5_CMD_OP_DEALLOC_TRANSPORT_DOMAIN,
			[MLX5_SIM_OBJ_RQT] = MLX5_CMD_OP_DESTROY_RQT,
			[MLX5_SIM_OBJ_TIR] = MLX5_CMD_OP_DESTROY_TIR,
		};

		/* All of them name the object at the same place. */
		opcode = ops[obj->kind];
		MLX5_SET(destroy_sq_in, in, opcode, opcode);
		MLX5_SET(destroy_sq_in, in, sqn, obj->index);
	} else if (obj->kind == MLX5_SIM_OBJ_QCNT) {
		RTE_BUILD_BUG_ON(sizeof(in) <
				 MLX5_ST_SZ_BYTES(dealloc_q_counter_in));
		opcode = MLX5_CMD_OP_DEALLOC_Q_COUNTER;
		MLX5_SET(dealloc_q_counter_in, in, opcode, opcode);
		MLX5_SET(dealloc_q_counter_in, in, counter_set_id, obj->index);
	} else if (obj->kind == MLX5_SIM_OBJ_FCNT) {
		RTE_BUILD_BUG_ON(sizeof(in) <
				 MLX5_ST_SZ_BYTES(dealloc_flow_counter_in));
		opcode = MLX5_CMD_OP_DEALLOC_FLOW_COUNTER;
		MLX5_SET(dealloc_flow_counter_in, in, opcode, opcode);
		MLX5_SET(dealloc_flow_counter_in, in, flow_counter_id,
			 obj->index);
	} else if (obj->kind == MLX5_SIM_OBJ_MKEY) {
		RTE_BUILD_BUG_ON(sizeof(in) < MLX5_ST_SZ_BYTES(destroy_mkey_in));
		opcode = MLX5_CMD_OP_DESTROY_MKEY;
		MLX5_SET(destroy_mkey_in, in, opcode, opcode);
		MLX5_SET(destroy_mkey_in, in, mkey_index, obj->index);
	} else {
		opcode = MLX5_CMD_OP_DESTROY_GENERAL_OBJECT;
		MLX5_SET(general_obj_in_cmd_hdr, in, opcode, opcode);
		MLX5_SET(general_obj_in_cmd_hdr, in, obj_type, obj->obj_type);
		MLX5_SET(general_obj_in_cmd_hdr, in, obj_id, obj->index);
	}
	/* A steering rule holds a reference on its destination TIR. */
	if (obj->kind == MLX5_SIM_OBJ_TIR) {
		bool busy;

		mlx5_sim_vhca_lock(obj->file->vhca);
		busy = mlx5_sim_tir_steered(obj->file->vhca, obj->index);
		mlx5_sim_vhca_unlock(obj->file->vhca);
		if (busy)
			return EBUSY;
	}
	ret = sim_devx_run(obj->file, opcode, in, sizeof(in), out, sizeof(out),
			   obj);
	/* The kernel runs the destroy itself: the status's errno, no mailbox. */
	if (ret != 0)
		return mlx5_sim_status_errno(MLX5_GET(mbox_out, out, status));
	obj->magic = MLX5_SIM_MAGIC_DEAD;
	free(obj);
	return 0;
}

/*
 * devx_get_obj_id() of the kernel for the commands that work on queues:
 * the object a mailbox names, as (creating opcode << 32 | number); 0 for
 * a command that names none. Each names it in the 24 bits at 0x48.
 */
static uint64_t
sim_cmd_obj_id(uint16_t opcode, const void *in)
{
	uint64_t num = MLX5_GET(query_qp_in, in, qpn);
	uint16_t create;

	switch (opcode) {
	case MLX5_CMD_OP_QUERY_QP:
	case MLX5_CMD_OP_RST2INIT_QP:
	case MLX5_CMD_OP_INIT2RTR_QP:
	case MLX5_CMD_OP_RTR2RTS_QP:
	case MLX5_CMD_OP_RTS2RTS_QP:
	case 0x506: /* SQERR2RTS_QP */
	case 0x50e: /* INIT2INIT_QP */
	case MLX5_CMD_OP_2ERR_QP:
	case MLX5_CMD_OP_2RST_QP:
		create = MLX5_CMD_OP_CREATE_QP;
		break;
	case MLX5_CMD_OP_QUERY_CQ:
	case MLX5_CMD_OP_MODIFY_CQ:
		create = MLX5_CMD_OP_CREATE_CQ;
		break;
	case MLX5_CMD_OP_QUERY_RQ:
	case MLX5_CMD_OP_MODIFY_RQ:
	case 0x703: /* ARM_RQ: its srq_number, taken for an RQ's */
		create = MLX5_CMD_OP_CREATE_RQ;
		break;
	case MLX5_CMD_OP_QUERY_SQ:
	case MLX5_CMD_OP_MODIFY_SQ:
		create = MLX5_CMD_OP_CREATE_SQ;
		break;
	case MLX5_CMD_OP_QUERY_RMP:
	case MLX5_CMD_OP_MODIFY_RMP:
		create = MLX5_CMD_OP_CREATE_RMP;
		break;
	case 0x702: /* QUERY_SRQ: a device without ISSI 1 */
		create = 0x700; /* CREATE_SRQ */
		break;
	case MLX5_CMD_OP_QUERY_RQT:
	case MLX5_CMD_OP_MODIFY_RQT:
		create = MLX5_CMD_OP_CREATE_RQT;
		break;
	case MLX5_CMD_OP_QUERY_TIS:
	case MLX5_CMD_OP_MODIFY_TIS:
		create = MLX5_CMD_OP_CREATE_TIS;
		break;
	case MLX5_CMD_OP_QUERY_TIR:
	case MLX5_CMD_OP_MODIFY_TIR:
		create = MLX5_CMD_OP_CREATE_TIR;
		break;
	default:
		return 0;
	}
	return (uint64_t)create << 32 | num;
}

int
mlx5_sim_cmd_kernel_query(struct mlx5_sim_file *file, const void *in,
			  size_t inlen, void *out, size_t outlen)
{
	uint16_t opcode = MLX5_GET(mbox_in, in, opcode);
	const struct sim_cmd_desc *desc = sim_cmd_desc(opcode);

	/* The kernel's own queries: no DEVX admission, no object handle. */
	if (desc == NULL || desc->cls != SIM_CMD_QUERY)
		return EINVAL;
	return sim_devx_run(file, opcode, in, inlen, out, outlen, NULL);
}

int
mlx5_sim_verbs_devx_cmd_objs(struct mlx5_sim_file *file, bool modify,
			     const uint64_t *ids, unsigned int n,
			     const void *in, size_t inlen, void *out,
			     size_t outlen)
{
	enum sim_cmd_class cls = modify ? SIM_CMD_MODIFY : SIM_CMD_QUERY;
	uint64_t id;
	uint16_t opcode;
	unsigned int i;
	int ret;

	ret = sim_devx_front(file, cls, in, inlen, out, outlen, &opcode);
	if (ret != 0)
		return ret;
	/* devx_is_valid_obj_id(): an object of the handle's, else EINVAL. */
	id = sim_cmd_obj_id(opcode, in);
	for (i = 0; i < n && ids[i] != id; i++)
		;
	if (id == 0 || i == n) {
		SIM_LOG(DEBUG, "%s: %s (0x%x) on a verbs object names none"
			" of its %u object(s): EINVAL", file->vhca->ibdev.name,
			mlx5_sim_opcode_name(opcode), opcode, n);
		return EINVAL;
	}
	return sim_devx_run(file, opcode, in, inlen, out, outlen, NULL);
}

int
mlx5_sim_verbs_devx_cmd(struct mlx5_sim_file *file, bool modify,
			uint16_t create_op, uint32_t num, const void *in,
			size_t inlen, void *out, size_t outlen)
{
	uint64_t id = (uint64_t)create_op << 32 | num;

	return mlx5_sim_verbs_devx_cmd_objs(file, modify, &id, 1, in, inlen,
					    out, outlen);
}
