/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * PRM layouts the verbs queue objects need beyond mlx5_prm_queue.h and
 * mlx5_prm_eth.h: the RMP (what the kernel makes of a verbs SRQ on a
 * device with ISSI 1), MODIFY_CQ (moderation), QUERY_RQT (a verbs RWQ
 * indirection table is an RQT), QUERY_LAG (read by rdma-core's
 * mlx5dv_query_qp_lag_port()) and the optional-parameter bits of the QP
 * transitions that rdma-core's lag-port and UDP source-port calls set,
 * and XRC: the XRC domain (ALLOC_XRCD), the XRC SRQ (CREATE_XRC_SRQ) and
 * the XRC segment of an XRC send WQE.
 * Field names are the kernel's (include/linux/mlx5/mlx5_ifc.h) and
 * rdma-core's (providers/mlx5/mlx5_ifc.h).
 */

#ifndef MLX5_PRM_VERBS_H_
#define MLX5_PRM_VERBS_H_

enum mlx5_verbs_cmd_opcode {
	MLX5_CMD_OP_CREATE_RMP = 0x90c,
	MLX5_CMD_OP_MODIFY_RMP = 0x90d,
	MLX5_CMD_OP_DESTROY_RMP = 0x90e,
	MLX5_CMD_OP_QUERY_RMP = 0x90f,
	MLX5_CMD_OP_QUERY_LAG = 0x842,
	MLX5_CMD_OP_CREATE_XRC_SRQ = 0x705,
	MLX5_CMD_OP_DESTROY_XRC_SRQ = 0x706,
	MLX5_CMD_OP_QUERY_XRC_SRQ = 0x707,
	MLX5_CMD_OP_ALLOC_XRCD = 0x80e,
	MLX5_CMD_OP_DEALLOC_XRCD = 0x80f,
};

/* qpc.st of an XRC QP (initiator or target). */
enum {
	MLX5_QP_ST_XRC = 0x3,
};

/* xrc_srqc.state. */
enum {
	MLX5_XRC_SRQC_STATE_GOOD = 0x0,
	MLX5_XRC_SRQC_STATE_ERROR = 0x1,
};

/*
 * The XRC segment: right after the control segment of each WQE of an XRC
 * initiator QP that goes on the wire, the XRC SRQ the message is for
 * (the packet's XRCETH).
 */
struct mlx5_wqe_xrc_seg {
	rte_be32_t xrc_srqn;
	uint8_t rsvd[12];
};

/* rts2rts_qp_in.opt_param_mask and .opt_param_mask_95_32 (rdma-core). */
enum {
	MLX5_QPC_OPT_MASK_RTS2RTS_LAG_TX_PORT_AFFINITY = 1u << 15,
};

enum {
	MLX5_QPC_OPT_MASK_32_UDP_SPORT = 1u << 2,
};

/* rmpc.state. */
enum {
	MLX5_RMPC_STATE_RDY = 0x1,
	MLX5_RMPC_STATE_ERR = 0x3,
};

/* modify_cq_in: op_mod and the fields a moderation change selects. */
enum {
	MLX5_CQ_OPMOD_MODIFY = 0x0,
	MLX5_CQ_OPMOD_RESIZE = 0x1,
};

enum {
	MLX5_CQ_MODIFY_PERIOD = 1u << 0,
	MLX5_CQ_MODIFY_COUNT = 1u << 1,
};

struct mlx5_ifc_rmpc_bits {
	u8 reserved_at_0[0x8];
	u8 state[0x4];
	u8 reserved_at_c[0x14];
	u8 basic_cyclic_rcv_wqe[0x1];
	u8 reserved_at_21[0x1f];
	u8 reserved_at_40[0x140];
	struct mlx5_ifc_wq_bits wq;
};

struct mlx5_ifc_create_rmp_in_bits {
	u8 opcode[0x10];
	u8 uid[0x10];
	u8 reserved_at_20[0x10];
	u8 op_mod[0x10];
	u8 reserved_at_40[0xc0];
	struct mlx5_ifc_rmpc_bits ctx;
};

MLX5_IFC_RETURN_ONE_OUT(create_rmp_out, rmpn);
MLX5_IFC_NAME_ONE_IN(destroy_rmp_in, rmpn);
MLX5_IFC_STATUS_OUT(destroy_rmp_out);
MLX5_IFC_NAME_ONE_IN(query_rmp_in, rmpn);

struct mlx5_ifc_query_rmp_out_bits {
	u8 status[0x8];
	u8 reserved_at_8[0x18];
	u8 syndrome[0x20];
	u8 reserved_at_40[0xc0];
	struct mlx5_ifc_rmpc_bits rmp_context;
};

struct mlx5_ifc_rmp_bitmask_bits {
	u8 reserved_at_0[0x20];
	u8 reserved_at_20[0x1f];
	u8 lwm[0x1];
};

struct mlx5_ifc_modify_rmp_in_bits {
	u8 opcode[0x10];
	u8 uid[0x10];
	u8 reserved_at_20[0x10];
	u8 op_mod[0x10];
	u8 rmp_state[0x4];
	u8 reserved_at_44[0x4];
	u8 rmpn[0x18];
	u8 reserved_at_60[0x20];
	struct mlx5_ifc_rmp_bitmask_bits bitmask;
	u8 reserved_at_c0[0x40];
	struct mlx5_ifc_rmpc_bits ctx;
};

MLX5_IFC_STATUS_OUT(modify_rmp_out);

struct mlx5_ifc_modify_cq_in_bits {
	u8 opcode[0x10];
	u8 uid[0x10];
	u8 reserved_at_20[0x10];
	u8 op_mod[0x10];
	u8 reserved_at_40[0x8];
	u8 cqn[0x18];
	/* The kernel's modify_field_select_resize_field_select union. */
	u8 modify_field_select[0x20];
	struct mlx5_ifc_cqc_bits cq_context;
	u8 reserved_at_280[0x60];
	u8 cq_umem_valid[0x1];
	u8 reserved_at_2e1[0x1f];
	u8 reserved_at_300[0x580];
};

MLX5_IFC_STATUS_OUT(modify_cq_out);
MLX5_IFC_NAME_ONE_IN(query_rqt_in, rqtn);

struct mlx5_ifc_query_rqt_out_bits {
	u8 status[0x8];
	u8 reserved_at_8[0x18];
	u8 syndrome[0x20];
	u8 reserved_at_40[0xc0];
	struct mlx5_ifc_rqtc_bits rqt_context;
};

/* The LAG context: lag_state non-zero when the ports are bonded. */
struct mlx5_ifc_lagc_bits {
	u8 reserved_at_0[0x1d];
	u8 lag_state[0x3];
	u8 reserved_at_20[0x14];
	u8 tx_remap_affinity_2[0x4];
	u8 reserved_at_38[0x4];
	u8 tx_remap_affinity_1[0x4];
};

struct mlx5_ifc_query_lag_in_bits {
	u8 opcode[0x10];
	u8 uid[0x10];
	u8 reserved_at_20[0x10];
	u8 op_mod[0x10];
	u8 reserved_at_40[0x40];
};

struct mlx5_ifc_query_lag_out_bits {
	u8 status[0x8];
	u8 reserved_at_8[0x18];
	u8 syndrome[0x20];
	struct mlx5_ifc_lagc_bits ctx;
};

struct mlx5_ifc_xrc_srqc_bits {
	u8 state[0x4];
	u8 log_xrc_srq_size[0x4];
	u8 reserved_at_8[0x18];
	u8 wq_signature[0x1];
	u8 cont_srq[0x1];
	u8 reserved_at_22[0x1];
	u8 rlky[0x1];
	u8 basic_cyclic_rcv_wqe[0x1];
	u8 log_rq_stride[0x3];
	u8 xrcd[0x18];
	u8 page_offset[0x6];
	u8 reserved_at_46[0x1];
	u8 dbr_umem_valid[0x1];
	u8 cqn[0x18];
	u8 reserved_at_60[0x20];
	u8 user_index_equal_xrc_srqn[0x1];
	u8 reserved_at_81[0x1];
	u8 log_page_size[0x6];
	u8 user_index[0x18];
	u8 reserved_at_a0[0x20];
	u8 reserved_at_c0[0x8];
	u8 pd[0x18];
	u8 lwm[0x10];
	u8 wqe_cnt[0x10];
	u8 reserved_at_100[0x40];
	u8 db_record_addr_h[0x20];
	u8 db_record_addr_l[0x1e];
	u8 reserved_at_17e[0x2];
	u8 reserved_at_180[0x80];
};

struct mlx5_ifc_create_xrc_srq_in_bits {
	u8 opcode[0x10];
	u8 uid[0x10];
	u8 reserved_at_20[0x10];
	u8 op_mod[0x10];
	u8 reserved_at_40[0x40];
	struct mlx5_ifc_xrc_srqc_bits xrc_srq_context_entry;
	u8 reserved_at_280[0x60];
	u8 xrc_srq_umem_valid[0x1];
	u8 reserved_at_2e1[0x1f];
	u8 reserved_at_300[0x580];
};

MLX5_IFC_RETURN_ONE_OUT(create_xrc_srq_out, xrc_srqn);
MLX5_IFC_NAME_ONE_IN(destroy_xrc_srq_in, xrc_srqn);
MLX5_IFC_STATUS_OUT(destroy_xrc_srq_out);
MLX5_IFC_NAME_ONE_IN(query_xrc_srq_in, xrc_srqn);

struct mlx5_ifc_query_xrc_srq_out_bits {
	u8 status[0x8];
	u8 reserved_at_8[0x18];
	u8 syndrome[0x20];
	u8 reserved_at_40[0x40];
	struct mlx5_ifc_xrc_srqc_bits xrc_srq_context_entry;
	u8 reserved_at_280[0x600];
};

struct mlx5_ifc_alloc_xrcd_in_bits {
	u8 opcode[0x10];
	u8 uid[0x10];
	u8 reserved_at_20[0x10];
	u8 op_mod[0x10];
	u8 reserved_at_40[0x40];
};

MLX5_IFC_RETURN_ONE_OUT(alloc_xrcd_out, xrcd);
MLX5_IFC_NAME_ONE_IN(dealloc_xrcd_in, xrcd);
MLX5_IFC_STATUS_OUT(dealloc_xrcd_out);

#endif /* MLX5_PRM_VERBS_H_ */
