/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * PRM layouts: completion queues and queue pairs (CREATE/QUERY/DESTROY_CQ,
 * CREATE/QUERY/DESTROY_QP and the QP state transitions), send and receive
 * queues of Ethernet (SQ/RQ over a work queue context). Field names are
 * the kernel's (include/linux/mlx5/mlx5_ifc.h); the umem fields the kernel
 * leaves reserved (cq_umem_*, dbr_umem_id, wq_umem_*) are the DEVX ones.
 * The work queue entries and CQEs themselves are rdma-core's
 * (<infiniband/mlx5dv.h>: struct mlx5_wqe_ctrl_seg, struct mlx5_cqe64).
 */

#ifndef MLX5_PRM_QUEUE_H_
#define MLX5_PRM_QUEUE_H_

enum mlx5_queue_cmd_opcode {
	MLX5_CMD_OP_CREATE_CQ = 0x400,
	MLX5_CMD_OP_DESTROY_CQ = 0x401,
	MLX5_CMD_OP_QUERY_CQ = 0x402,
	MLX5_CMD_OP_MODIFY_CQ = 0x403,
	MLX5_CMD_OP_CREATE_QP = 0x500,
	MLX5_CMD_OP_DESTROY_QP = 0x501,
	MLX5_CMD_OP_RST2INIT_QP = 0x502,
	MLX5_CMD_OP_INIT2RTR_QP = 0x503,
	MLX5_CMD_OP_RTR2RTS_QP = 0x504,
	MLX5_CMD_OP_RTS2RTS_QP = 0x505,
	MLX5_CMD_OP_2ERR_QP = 0x507,
	MLX5_CMD_OP_2RST_QP = 0x50a,
	MLX5_CMD_OP_QUERY_QP = 0x50b,
	MLX5_CMD_OP_CREATE_SQ = 0x904,
	MLX5_CMD_OP_MODIFY_SQ = 0x905,
	MLX5_CMD_OP_DESTROY_SQ = 0x906,
	MLX5_CMD_OP_QUERY_SQ = 0x907,
	MLX5_CMD_OP_CREATE_RQ = 0x908,
	MLX5_CMD_OP_MODIFY_RQ = 0x909,
	MLX5_CMD_OP_DESTROY_RQ = 0x90a,
	MLX5_CMD_OP_QUERY_RQ = 0x90b,
};

/* cqc.cqe_sz. */
enum {
	MLX5_CQE_SIZE_64B = 0x0,
	MLX5_CQE_SIZE_128B = 0x1,
};

/* cqc.st: the CQ's event state; 0xa = armed, 0x9 = fired, 0x6 = none. */
enum {
	MLX5_CQ_STATE_NOTIFIED_DISARMED = 0x6,
};

/* qpc.state. */
enum mlx5_qp_state {
	MLX5_QP_STATE_RST = 0x0,
	MLX5_QP_STATE_INIT = 0x1,
	MLX5_QP_STATE_RTR = 0x2,
	MLX5_QP_STATE_RTS = 0x3,
	MLX5_QP_STATE_SQER = 0x4,
	MLX5_QP_STATE_ERR = 0x6,
};

/* qpc.st and qpc.pm_state. */
enum {
	MLX5_QP_ST_RC = 0x0,
	MLX5_QP_ST_UC = 0x1,
	MLX5_QP_ST_UD = 0x2,
	MLX5_QP_PM_MIGRATED = 0x3,
};

/* qpc.rq_type. */
enum {
	MLX5_QP_RQ_TYPE_REGULAR = 0x0,
	MLX5_QP_RQ_TYPE_SRQ = 0x1,
	MLX5_QP_RQ_TYPE_ZERO_SIZE = 0x3,
};

/* qpc.mtu: 256 << (mtu - 1) bytes. */
enum {
	MLX5_QP_MTU_256 = 0x1,
	MLX5_QP_MTU_1024 = 0x3,
	MLX5_QP_MTU_4096 = 0x5,
};

/* sqc.state / rqc.state (and MODIFY_SQ/RQ sq_state, rq_state). */
enum mlx5_wq_state {
	MLX5_WQ_STATE_RST = 0x0,
	MLX5_WQ_STATE_RDY = 0x1,
	MLX5_WQ_STATE_ERR = 0x3,
};

/* wq.wq_type. */
enum {
	MLX5_WQ_TYPE_LINKED_LIST = 0x0,
	MLX5_WQ_TYPE_CYCLIC = 0x1,
};

/* modify_sq_in.modify_bitmask. */
enum {
	MLX5_MODIFY_SQ_BITMASK_PACKET_PACING_RATE_LIMIT_INDEX = 0x1,
};

/*
 * The enhanced multi-packet send WQE of an Ethernet SQ created with
 * sqc.allow_multi_pkt_send_wqe (capability enhanced_multi_pkt_send_wqe):
 * a control segment, an Ethernet segment whose offloads apply to every
 * packet (no inline header), then one data segment per packet, by pointer
 * (struct mlx5_wqe_data_seg) or inline (byte_count with MLX5_INLINE_SEG,
 * the data from its byte 4, padded to 16 bytes). rdma-core 44's mlx5dv.h
 * does not name the opcode (later ones call it MLX5_OPCODE_ENHANCED_MPSW).
 */
#define MLX5_WQE_OPCODE_ENHANCED_MPSW 0x29

/* Bytes of a receive WQE stride: 16 << qpc.log_rq_stride. */
#define MLX5_RQ_STRIDE_UNIT 16

struct mlx5_ifc_cqc_bits {
	u8 status[0x4];
	u8 reserved_at_4[0x2];
	u8 dbr_umem_valid[0x1];
	u8 apu_cq[0x1];
	u8 cqe_sz[0x3];
	u8 cc[0x1];
	u8 reserved_at_c[0x1];
	u8 scqe_break_moderation_en[0x1];
	u8 oi[0x1];
	u8 cq_period_mode[0x2];
	u8 cqe_comp_en[0x1];
	u8 mini_cqe_res_format[0x2];
	u8 st[0x4];
	u8 reserved_at_18[0x1];
	u8 cqe_comp_layout[0x7];   /* 0: basic; else enhanced (not announced). */
	u8 dbr_umem_id[0x20];
	u8 reserved_at_40[0x14];
	u8 page_offset[0x6];
	u8 reserved_at_5a[0x2];
	u8 mini_cqe_res_format_ext[0x2];
	u8 reserved_at_5e[0x2];
	u8 reserved_at_60[0x3];
	u8 log_cq_size[0x5];
	u8 uar_page[0x18];
	u8 reserved_at_80[0x4];
	u8 cq_period[0xc];
	u8 cq_max_count[0x10];
	u8 c_eqn_or_apu_element[0x20];
	u8 reserved_at_c0[0x3];
	u8 log_page_size[0x5];
	u8 reserved_at_c8[0x18];
	u8 reserved_at_e0[0x20];
	u8 reserved_at_100[0x8];
	u8 last_notified_index[0x18];
	u8 reserved_at_120[0x8];
	u8 last_solicit_index[0x18];
	u8 reserved_at_140[0x8];
	u8 consumer_counter[0x18];
	u8 reserved_at_160[0x8];
	u8 producer_counter[0x18];
	u8 reserved_at_180[0x40];
	u8 dbr_addr[0x40];
};

struct mlx5_ifc_create_cq_in_bits {
	u8 opcode[0x10];
	u8 uid[0x10];
	u8 reserved_at_20[0x10];
	u8 op_mod[0x10];
	u8 reserved_at_40[0x40];
	struct mlx5_ifc_cqc_bits cq_context;
	u8 cq_umem_offset[0x40];
	u8 cq_umem_id[0x20];
	u8 cq_umem_valid[0x1];
	u8 reserved_at_2e1[0x59f];
};

struct mlx5_ifc_create_cq_out_bits {
	u8 status[0x8];
	u8 reserved_at_8[0x18];
	u8 syndrome[0x20];
	u8 reserved_at_40[0x8];
	u8 cqn[0x18];
	u8 reserved_at_60[0x20];
};

/* DESTROY_CQ and QUERY_CQ name the CQ the same way. */
struct mlx5_ifc_destroy_cq_in_bits {
	u8 opcode[0x10];
	u8 uid[0x10];
	u8 reserved_at_20[0x10];
	u8 op_mod[0x10];
	u8 reserved_at_40[0x8];
	u8 cqn[0x18];
	u8 reserved_at_60[0x20];
};

struct mlx5_ifc_query_cq_in_bits {
	u8 opcode[0x10];
	u8 reserved_at_10[0x10];
	u8 reserved_at_20[0x10];
	u8 op_mod[0x10];
	u8 reserved_at_40[0x8];
	u8 cqn[0x18];
	u8 reserved_at_60[0x20];
};

struct mlx5_ifc_query_cq_out_bits {
	u8 status[0x8];
	u8 reserved_at_8[0x18];
	u8 syndrome[0x20];
	u8 reserved_at_40[0x40];
	struct mlx5_ifc_cqc_bits cq_context;
	u8 reserved_at_280[0x600];
};

/* Address path of a QP (primary_address_path). */
struct mlx5_ifc_ads_bits {
	u8 fl[0x1];
	u8 free_ar[0x1];
	u8 reserved_at_2[0xe];
	u8 pkey_index[0x10];
	u8 reserved_at_20[0x8];
	u8 grh[0x1];
	u8 mlid[0x7];
	u8 rlid[0x10];
	u8 ack_timeout[0x5];
	u8 reserved_at_45[0x3];
	u8 src_addr_index[0x8];
	u8 reserved_at_50[0x4];
	u8 stat_rate[0x4];
	u8 hop_limit[0x8];
	u8 reserved_at_60[0x4];
	u8 tclass[0x8];
	u8 flow_label[0x14];
	u8 rgid_rip[0x80];
	u8 reserved_at_100[0x10];
	u8 udp_sport[0x10];
	u8 reserved_at_120[0x8];
	u8 vhca_port_num[0x8];
	u8 rmac_47_32[0x10];
	u8 rmac_31_0[0x20];
};

struct mlx5_ifc_qpc_bits {
	u8 state[0x4];
	u8 lag_tx_port_affinity[0x4];
	u8 st[0x8];
	u8 reserved_at_10[0x3];
	u8 pm_state[0x2];
	u8 reserved_at_15[0x3];
	u8 offload_type[0x4];
	u8 end_padding_mode[0x2];
	u8 reserved_at_1e[0x2];
	u8 wq_signature[0x1];
	u8 block_lb_mc[0x1];
	u8 reserved_at_22[0x6];
	u8 pd[0x18];
	u8 mtu[0x3];
	u8 log_msg_max[0x5];
	u8 reserved_at_48[0x1];
	u8 log_rq_size[0x4];
	u8 log_rq_stride[0x3];
	u8 no_sq[0x1];
	u8 log_sq_size[0x4];
	u8 reserved_at_55[0x3];
	u8 ts_format[0x2];
	u8 reserved_at_5a[0x6];
	u8 counter_set_id[0x8];
	u8 uar_page[0x18];
	u8 reserved_at_80[0x8];
	u8 user_index[0x18];
	u8 reserved_at_a0[0x3];
	u8 log_page_size[0x5];
	u8 remote_qpn[0x18];
	struct mlx5_ifc_ads_bits primary_address_path;
	u8 reserved_at_220[0x160];
	u8 log_ack_req_freq[0x4];
	u8 reserved_at_384[0x4];
	u8 log_sra_max[0x3];
	u8 reserved_at_38b[0x2];
	u8 retry_count[0x3];
	u8 rnr_retry[0x3];
	u8 reserved_at_393[0x35];
	u8 next_send_psn[0x18];
	u8 reserved_at_3e0[0x8];
	u8 cqn_snd[0x18];
	u8 reserved_at_400[0x88];
	u8 log_rra_max[0x3];
	u8 reserved_at_48b[0x1];
	u8 atomic_mode[0x4];
	u8 rre[0x1];
	u8 rwe[0x1];
	u8 rae[0x1];
	u8 reserved_at_493[0x1];
	u8 page_offset[0x6];
	u8 reserved_at_49a[0x9];
	u8 min_rnr_nak[0x5];
	u8 next_rcv_psn[0x18];
	u8 reserved_at_4c0[0x8];
	u8 xrcd[0x18];
	u8 reserved_at_4e0[0x8];
	u8 cqn_rcv[0x18];
	u8 dbr_addr[0x40];
	u8 q_key[0x20];
	u8 reserved_at_560[0x5];
	u8 rq_type[0x3];
	u8 srqn_rmpn_xrqn[0x18];
	u8 reserved_at_580[0x20];
	u8 hw_sq_wqebb_counter[0x10];
	u8 sw_sq_wqebb_counter[0x10];
	u8 hw_rq_counter[0x20];
	u8 sw_rq_counter[0x20];
	u8 reserved_at_600[0x83];
	u8 dbr_umem_valid[0x1];
	u8 reserved_at_684[0x9c];
	u8 dbr_umem_id[0x20];
};

struct mlx5_ifc_create_qp_in_bits {
	u8 opcode[0x10];
	u8 uid[0x10];
	u8 reserved_at_20[0x10];
	u8 op_mod[0x10];
	u8 reserved_at_40[0x40];
	u8 opt_param_mask[0x20];
	u8 reserved_at_a0[0x20];
	struct mlx5_ifc_qpc_bits qpc;
	u8 wq_umem_offset[0x40];
	u8 wq_umem_id[0x20];
	u8 wq_umem_valid[0x1];
	u8 reserved_at_861[0x1f];
};

struct mlx5_ifc_create_qp_out_bits {
	u8 status[0x8];
	u8 reserved_at_8[0x18];
	u8 syndrome[0x20];
	u8 reserved_at_40[0x8];
	u8 qpn[0x18];
	u8 reserved_at_60[0x20];
};

/*
 * RST2INIT, INIT2RTR, RTR2RTS and RTS2RTS share one input: the QP, the
 * optional-parameter mask and a QP context; 2ERR, 2RST, DESTROY and QUERY
 * only name the QP (mlx5_prm.h). One struct per command, with the
 * kernel's names.
 */
#define MLX5_IFC_QP_MODIFY_IN(name) \
	struct mlx5_ifc_ ## name ## _bits { \
		u8 opcode[0x10]; \
		u8 uid[0x10]; \
		u8 reserved_at_20[0x10]; \
		u8 op_mod[0x10]; \
		u8 reserved_at_40[0x8]; \
		u8 qpn[0x18]; \
		u8 reserved_at_60[0x20]; \
		u8 opt_param_mask[0x20]; \
		u8 reserved_at_a0[0x20]; \
		struct mlx5_ifc_qpc_bits qpc; \
		u8 reserved_at_800[0x80]; \
	}
MLX5_IFC_QP_MODIFY_IN(rst2init_qp_in);
MLX5_IFC_QP_MODIFY_IN(init2rtr_qp_in);
MLX5_IFC_QP_MODIFY_IN(rtr2rts_qp_in);
/* RTS2RTS also takes the upper optional-parameter mask (UDP sport). */
struct mlx5_ifc_rts2rts_qp_in_bits {
	u8 opcode[0x10];
	u8 uid[0x10];
	u8 reserved_at_20[0x10];
	u8 op_mod[0x10];
	u8 reserved_at_40[0x8];
	u8 qpn[0x18];
	u8 reserved_at_60[0x20];
	u8 opt_param_mask[0x20];
	u8 reserved_at_a0[0x20];
	struct mlx5_ifc_qpc_bits qpc;
	u8 reserved_at_800[0x40];
	u8 opt_param_mask_95_32[0x40];
};
MLX5_IFC_NAME_ONE_IN(qp_2err_in, qpn);
MLX5_IFC_NAME_ONE_IN(qp_2rst_in, qpn);
MLX5_IFC_NAME_ONE_IN(destroy_qp_in, qpn);
MLX5_IFC_NAME_ONE_IN(query_qp_in, qpn);
MLX5_IFC_STATUS_OUT(rst2init_qp_out);
MLX5_IFC_STATUS_OUT(init2rtr_qp_out);
MLX5_IFC_STATUS_OUT(rtr2rts_qp_out);
MLX5_IFC_STATUS_OUT(rts2rts_qp_out);
MLX5_IFC_STATUS_OUT(qp_2err_out);
MLX5_IFC_STATUS_OUT(qp_2rst_out);
MLX5_IFC_STATUS_OUT(destroy_qp_out);

struct mlx5_ifc_query_qp_out_bits {
	u8 status[0x8];
	u8 reserved_at_8[0x18];
	u8 syndrome[0x20];
	u8 reserved_at_40[0x40];
	u8 opt_param_mask[0x20];
	u8 reserved_at_a0[0x20];
	struct mlx5_ifc_qpc_bits qpc;
	u8 reserved_at_800[0x80];
};

/* Work queue context shared by SQs and RQs. */
struct mlx5_ifc_wq_bits {
	u8 wq_type[0x4];
	u8 wq_signature[0x1];
	u8 end_padding_mode[0x2];
	u8 cd_slave[0x1];
	u8 reserved_at_8[0x18];
	u8 hds_skip_first_sge[0x1];
	u8 log2_hds_buf_size[0x3];
	u8 reserved_at_24[0x7];
	u8 page_offset[0x5];
	u8 lwm[0x10];
	u8 reserved_at_40[0x8];
	u8 pd[0x18];
	u8 reserved_at_60[0x8];
	u8 uar_page[0x18];
	u8 dbr_addr[0x40];
	u8 hw_counter[0x20];
	u8 sw_counter[0x20];
	u8 reserved_at_100[0xc];
	u8 log_wq_stride[0x4];
	u8 reserved_at_110[0x3];
	u8 log_wq_pg_sz[0x5];
	u8 reserved_at_118[0x3];
	u8 log_wq_sz[0x5];
	u8 dbr_umem_valid[0x1];
	u8 wq_umem_valid[0x1];
	u8 reserved_at_122[0x1e];
	u8 dbr_umem_id[0x20];
	u8 wq_umem_id[0x20];
	u8 wq_umem_offset[0x40];
	u8 reserved_at_1c0[0x440];
};

struct mlx5_ifc_sqc_bits {
	u8 rlky[0x1];
	u8 cd_master[0x1];
	u8 fre[0x1];
	u8 flush_in_error_en[0x1];
	u8 allow_multi_pkt_send_wqe[0x1];
	u8 min_wqe_inline_mode[0x3];
	u8 state[0x4];
	u8 reg_umr[0x1];
	u8 allow_swp[0x1];
	u8 hairpin[0x1];
	u8 reserved_at_f[0xb];
	u8 ts_format[0x2];
	u8 reserved_at_1c[0x4];
	u8 reserved_at_20[0x8];
	u8 user_index[0x18];
	u8 reserved_at_40[0x8];
	u8 cqn[0x18];
	u8 reserved_at_60[0x90];
	u8 packet_pacing_rate_limit_index[0x10];
	u8 tis_lst_sz[0x10];
	u8 reserved_at_110[0x58];
	u8 tis_num_0[0x18];
	struct mlx5_ifc_wq_bits wq;
};

struct mlx5_ifc_rqc_bits {
	u8 rlky[0x1];
	u8 delay_drop_en[0x1];
	u8 scatter_fcs[0x1];
	u8 vsd[0x1];
	u8 mem_rq_type[0x4];
	u8 state[0x4];
	u8 reserved_at_c[0x1];
	u8 flush_in_error_en[0x1];
	u8 hairpin[0x1];
	u8 reserved_at_f[0xb];
	u8 ts_format[0x2];
	u8 reserved_at_1c[0x4];
	u8 reserved_at_20[0x8];
	u8 user_index[0x18];
	u8 reserved_at_40[0x8];
	u8 cqn[0x18];
	u8 counter_set_id[0x8];
	u8 reserved_at_68[0x118];
	struct mlx5_ifc_wq_bits wq;
};

struct mlx5_ifc_create_sq_in_bits {
	u8 opcode[0x10];
	u8 uid[0x10];
	u8 reserved_at_20[0x10];
	u8 op_mod[0x10];
	u8 reserved_at_40[0xc0];
	struct mlx5_ifc_sqc_bits ctx;
};

struct mlx5_ifc_create_rq_in_bits {
	u8 opcode[0x10];
	u8 uid[0x10];
	u8 reserved_at_20[0x10];
	u8 op_mod[0x10];
	u8 reserved_at_40[0xc0];
	struct mlx5_ifc_rqc_bits ctx;
};


struct mlx5_ifc_modify_sq_in_bits {
	u8 opcode[0x10];
	u8 uid[0x10];
	u8 reserved_at_20[0x10];
	u8 op_mod[0x10];
	u8 sq_state[0x4];
	u8 reserved_at_44[0x4];
	u8 sqn[0x18];
	u8 reserved_at_60[0x20];
	u8 modify_bitmask[0x40];
	u8 reserved_at_c0[0x40];
	struct mlx5_ifc_sqc_bits ctx;
};

struct mlx5_ifc_modify_rq_in_bits {
	u8 opcode[0x10];
	u8 uid[0x10];
	u8 reserved_at_20[0x10];
	u8 op_mod[0x10];
	u8 rq_state[0x4];
	u8 reserved_at_44[0x4];
	u8 rqn[0x18];
	u8 reserved_at_60[0x20];
	u8 modify_bitmask[0x40];
	u8 reserved_at_c0[0x40];
	struct mlx5_ifc_rqc_bits ctx;
};

#endif /* MLX5_PRM_QUEUE_H_ */
