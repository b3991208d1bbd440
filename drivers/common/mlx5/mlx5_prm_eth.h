/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * PRM layouts: the Ethernet queue objects around SQs and RQs (transport
 * domains, transport interface send objects), and the inputs and outputs
 * of the SQ/RQ commands whose contexts are in mlx5_prm_queue.h. Field
 * names are the kernel's (include/linux/mlx5/mlx5_ifc.h).
 */

#ifndef MLX5_PRM_ETH_H_
#define MLX5_PRM_ETH_H_

enum mlx5_eth_cmd_opcode {
	MLX5_CMD_OP_QUERY_VPORT_STATE = 0x750,
	MLX5_CMD_OP_QUERY_NIC_VPORT_CONTEXT = 0x754,
	MLX5_CMD_OP_CREATE_TIR = 0x900,
	MLX5_CMD_OP_MODIFY_TIR = 0x901,
	MLX5_CMD_OP_DESTROY_TIR = 0x902,
	MLX5_CMD_OP_QUERY_TIR = 0x903,
	MLX5_CMD_OP_CREATE_RQT = 0x916,
	MLX5_CMD_OP_MODIFY_RQT = 0x917,
	MLX5_CMD_OP_DESTROY_RQT = 0x918,
	MLX5_CMD_OP_QUERY_RQT = 0x919,
	MLX5_CMD_OP_ALLOC_TRANSPORT_DOMAIN = 0x816,
	MLX5_CMD_OP_DEALLOC_TRANSPORT_DOMAIN = 0x817,
	MLX5_CMD_OP_CREATE_TIS = 0x912,
	MLX5_CMD_OP_MODIFY_TIS = 0x913,
	MLX5_CMD_OP_DESTROY_TIS = 0x914,
	MLX5_CMD_OP_QUERY_TIS = 0x915,
};

/* query_vport_state_out.state / admin_state. */
enum {
	MLX5_VPORT_STATE_DOWN = 0x0,
	MLX5_VPORT_STATE_UP = 0x1,
};

/* tirc.disp_type, rx_hash_fn, self_lb_block. */
enum {
	MLX5_TIRC_DISP_TYPE_DIRECT = 0x0,
	MLX5_TIRC_DISP_TYPE_INDIRECT = 0x1,
};

enum {
	MLX5_RX_HASH_FN_NONE = 0x0,
	MLX5_RX_HASH_FN_INVERTED_XOR8 = 0x1,
	MLX5_RX_HASH_FN_TOEPLITZ = 0x2,
};

enum {
	MLX5_TIRC_SELF_LB_BLOCK_BLOCK_UNICAST = 0x1,
	MLX5_TIRC_SELF_LB_BLOCK_BLOCK_MULTICAST = 0x2,
};

/* rx_hash_field_select: protocols and fields RSS hashes. */
enum {
	MLX5_L3_PROT_TYPE_IPV4 = 0,
	MLX5_L3_PROT_TYPE_IPV6 = 1,
};

enum {
	MLX5_L4_PROT_TYPE_TCP = 0,
	MLX5_L4_PROT_TYPE_UDP = 1,
};

enum {
	MLX5_HASH_FIELD_SEL_SRC_IP = 1 << 0,
	MLX5_HASH_FIELD_SEL_DST_IP = 1 << 1,
	MLX5_HASH_FIELD_SEL_L4_SPORT = 1 << 2,
	MLX5_HASH_FIELD_SEL_L4_DPORT = 1 << 3,
	MLX5_HASH_FIELD_SEL_IPSEC_SPI = 1 << 4,
};

/* modify_rqt_in.bitmask: the RQ list. */
#define MLX5_MODIFY_RQT_BITMASK_RQN_LIST 0x1

/* Bytes of a Toeplitz key. */
#define MLX5_RSS_HASH_KEY_LEN 40

/* Bytes of a send WQE stride of an Ethernet SQ: log_wq_stride 6. */
#define MLX5_SQ_LOG_WQ_STRIDE 6

MLX5_IFC_RETURN_ONE_OUT(alloc_transport_domain_out, transport_domain);
MLX5_IFC_NAME_ONE_IN(dealloc_transport_domain_in, transport_domain);
MLX5_IFC_STATUS_OUT(dealloc_transport_domain_out);
MLX5_IFC_RETURN_ONE_OUT(create_tis_out, tisn);
MLX5_IFC_NAME_ONE_IN(destroy_tis_in, tisn);
MLX5_IFC_STATUS_OUT(destroy_tis_out);
MLX5_IFC_RETURN_ONE_OUT(create_sq_out, sqn);
MLX5_IFC_NAME_ONE_IN(destroy_sq_in, sqn);
MLX5_IFC_STATUS_OUT(destroy_sq_out);
MLX5_IFC_NAME_ONE_IN(query_sq_in, sqn);
MLX5_IFC_STATUS_OUT(modify_sq_out);
MLX5_IFC_RETURN_ONE_OUT(create_rq_out, rqn);
MLX5_IFC_NAME_ONE_IN(destroy_rq_in, rqn);
MLX5_IFC_STATUS_OUT(destroy_rq_out);
MLX5_IFC_NAME_ONE_IN(query_rq_in, rqn);
MLX5_IFC_STATUS_OUT(modify_rq_out);
MLX5_IFC_RETURN_ONE_OUT(create_rqt_out, rqtn);
MLX5_IFC_NAME_ONE_IN(destroy_rqt_in, rqtn);
MLX5_IFC_STATUS_OUT(destroy_rqt_out);
MLX5_IFC_STATUS_OUT(modify_rqt_out);
MLX5_IFC_NAME_ONE_IN(destroy_tir_in, tirn);
MLX5_IFC_STATUS_OUT(destroy_tir_out);

struct mlx5_ifc_alloc_transport_domain_in_bits {
	u8 opcode[0x10];
	u8 uid[0x10];
	u8 reserved_at_20[0x10];
	u8 op_mod[0x10];
	u8 reserved_at_40[0x40];
};

/* Transport interface send: what an SQ's packets go out as. */
struct mlx5_ifc_tisc_bits {
	u8 strict_lag_tx_port_affinity[0x1];
	u8 tls_en[0x1];
	u8 reserved_at_2[0x2];
	u8 lag_tx_port_affinity[0x4];
	u8 reserved_at_8[0x4];
	u8 prio[0x4];
	u8 reserved_at_10[0x118];
	u8 transport_domain[0x18];
	u8 reserved_at_140[0x8];
	u8 underlay_qpn[0x18];
	u8 reserved_at_160[0x8];
	u8 pd[0x18];
	u8 reserved_at_180[0x380];
};

struct mlx5_ifc_create_tis_in_bits {
	u8 opcode[0x10];
	u8 uid[0x10];
	u8 reserved_at_20[0x10];
	u8 op_mod[0x10];
	u8 reserved_at_40[0xc0];
	struct mlx5_ifc_tisc_bits ctx;
};

MLX5_IFC_NAME_ONE_IN(query_tis_in, tisn);

struct mlx5_ifc_query_tis_out_bits {
	u8 status[0x8];
	u8 reserved_at_8[0x18];
	u8 syndrome[0x20];
	u8 reserved_at_40[0x40];
	struct mlx5_ifc_tisc_bits tis_context;
};

struct mlx5_ifc_query_sq_out_bits {
	u8 status[0x8];
	u8 reserved_at_8[0x18];
	u8 syndrome[0x20];
	u8 reserved_at_40[0xc0];
	struct mlx5_ifc_sqc_bits sq_context;
};

struct mlx5_ifc_query_rq_out_bits {
	u8 status[0x8];
	u8 reserved_at_8[0x18];
	u8 syndrome[0x20];
	u8 reserved_at_40[0xc0];
	struct mlx5_ifc_rqc_bits rq_context;
};

/* QUERY_VPORT_STATE: the link of the function's own vport (other_vport 0). */
struct mlx5_ifc_query_vport_state_in_bits {
	u8 opcode[0x10];
	u8 reserved_at_10[0x10];
	u8 reserved_at_20[0x10];
	u8 op_mod[0x10];
	u8 other_vport[0x1];
	u8 reserved_at_41[0xf];
	u8 vport_number[0x10];
	u8 reserved_at_60[0x20];
};

struct mlx5_ifc_query_vport_state_out_bits {
	u8 status[0x8];
	u8 reserved_at_8[0x18];
	u8 syndrome[0x20];
	u8 reserved_at_40[0x38];
	u8 admin_state[0x4];
	u8 state[0x4];
};

/* The NIC vport context: MAC address, MTU, promiscuity, RoCE. */
struct mlx5_ifc_nic_vport_context_bits {
	u8 reserved_at_0[0x5];
	u8 min_wqe_inline_mode[0x3];
	u8 reserved_at_8[0x15];
	u8 disable_mc_local_lb[0x1];
	u8 disable_uc_local_lb[0x1];
	u8 roce_en[0x1];
	u8 reserved_at_20[0x110];
	u8 mtu[0x10];
	u8 reserved_at_140[0x640];
	u8 promisc_uc[0x1];
	u8 promisc_mc[0x1];
	u8 promisc_all[0x1];
	u8 reserved_at_783[0x1d];
	u8 permanent_address[0x40]; /* 16 reserved bits, then the MAC. */
	u8 reserved_at_7e0[0x20];
};

struct mlx5_ifc_query_nic_vport_context_in_bits {
	u8 opcode[0x10];
	u8 reserved_at_10[0x10];
	u8 reserved_at_20[0x10];
	u8 op_mod[0x10];
	u8 other_vport[0x1];
	u8 reserved_at_41[0xf];
	u8 vport_number[0x10];
	u8 reserved_at_60[0x5];
	u8 allowed_list_type[0x3];
	u8 reserved_at_68[0x18];
};

struct mlx5_ifc_query_nic_vport_context_out_bits {
	u8 status[0x8];
	u8 reserved_at_8[0x18];
	u8 syndrome[0x20];
	u8 reserved_at_40[0x40];
	struct mlx5_ifc_nic_vport_context_bits nic_vport_context;
};

/* An RQ table (RSS indirection): rqt_actual_size entries follow. */
struct mlx5_ifc_rq_num_bits {
	u8 reserved_at_0[0x8];
	u8 rq_num[0x18];
};

struct mlx5_ifc_rqtc_bits {
	u8 reserved_at_0[0xa5];
	u8 list_q_type[0x3];
	u8 reserved_at_a8[0x8];
	u8 rqt_max_size[0x10];
	u8 rq_vhca_id_format[0x1];
	u8 reserved_at_c1[0xf];
	u8 rqt_actual_size[0x10];
	u8 reserved_at_e0[0x6a0];
};

struct mlx5_ifc_create_rqt_in_bits {
	u8 opcode[0x10];
	u8 uid[0x10];
	u8 reserved_at_20[0x10];
	u8 op_mod[0x10];
	u8 reserved_at_40[0xc0];
	struct mlx5_ifc_rqtc_bits rqt_context;
};

struct mlx5_ifc_modify_rqt_in_bits {
	u8 opcode[0x10];
	u8 uid[0x10];
	u8 reserved_at_20[0x10];
	u8 op_mod[0x10];
	u8 reserved_at_40[0x8];
	u8 rqtn[0x18];
	u8 reserved_at_60[0x20];
	u8 bitmask[0x40];
	u8 reserved_at_c0[0x40];
	struct mlx5_ifc_rqtc_bits ctx;
};

struct mlx5_ifc_rx_hash_field_select_bits {
	u8 l3_prot_type[0x1];
	u8 l4_prot_type[0x1];
	u8 selected_fields[0x1e];
};

/* A TIR: where received packets go (an RQ, or RSS over an RQT). */
struct mlx5_ifc_tirc_bits {
	u8 reserved_at_0[0x20];
	u8 disp_type[0x4];
	u8 tls_en[0x1];
	u8 reserved_at_25[0x1b];
	u8 reserved_at_40[0x54];
	u8 packet_merge_mask[0x4];
	u8 reserved_at_98[0x50];
	u8 inline_rqn[0x18];
	u8 rx_hash_symmetric[0x1];
	u8 reserved_at_101[0x1];
	u8 tunneled_offload_en[0x1];
	u8 reserved_at_103[0x5];
	u8 indirect_table[0x18];
	u8 rx_hash_fn[0x4];
	u8 reserved_at_124[0x2];
	u8 self_lb_block[0x2];
	u8 transport_domain[0x18];
	u8 rx_hash_toeplitz_key[0x140];
	struct mlx5_ifc_rx_hash_field_select_bits rx_hash_field_selector_outer;
	struct mlx5_ifc_rx_hash_field_select_bits rx_hash_field_selector_inner;
	u8 reserved_at_2c0[0x4c0];
};

struct mlx5_ifc_create_tir_in_bits {
	u8 opcode[0x10];
	u8 uid[0x10];
	u8 reserved_at_20[0x10];
	u8 op_mod[0x10];
	u8 reserved_at_40[0xc0];
	struct mlx5_ifc_tirc_bits ctx;
};

struct mlx5_ifc_create_tir_out_bits {
	u8 status[0x8];
	u8 icm_address_63_40[0x18];
	u8 syndrome[0x20];
	u8 icm_address_39_32[0x8];
	u8 tirn[0x18];
	u8 icm_address_31_0[0x20];
};

/*
 * Queue counters (counter sets): ALLOC/DEALLOC/QUERY_Q_COUNTER. An RQ
 * counts on the set its rqc.counter_set_id names (0: none); for Ethernet
 * the set's out_of_buffer counts the packets dropped for want of a posted
 * receive WQE. The other counters of query_q_counter_out are the RDMA
 * transport's (requests, retries, NAKs, error CQEs of QPs).
 */
enum mlx5_qcnt_cmd_opcode {
	MLX5_CMD_OP_ALLOC_Q_COUNTER = 0x771,
	MLX5_CMD_OP_DEALLOC_Q_COUNTER = 0x772,
	MLX5_CMD_OP_QUERY_Q_COUNTER = 0x773,
};

/* modify_rq_in.modify_bitmask: a new rqc.counter_set_id. */
#define MLX5_MODIFY_RQ_IN_MODIFY_BITMASK_RQ_COUNTER_SET_ID (UINT64_C(1) << 3)

struct mlx5_ifc_alloc_q_counter_in_bits {
	u8 opcode[0x10];
	u8 uid[0x10];
	u8 reserved_at_20[0x10];
	u8 op_mod[0x10];
	u8 reserved_at_40[0x40];
};

struct mlx5_ifc_alloc_q_counter_out_bits {
	u8 status[0x8];
	u8 reserved_at_8[0x18];
	u8 syndrome[0x20];
	u8 reserved_at_40[0x18];
	u8 counter_set_id[0x8];
	u8 reserved_at_60[0x20];
};

struct mlx5_ifc_dealloc_q_counter_in_bits {
	u8 opcode[0x10];
	u8 reserved_at_10[0x10];
	u8 reserved_at_20[0x10];
	u8 op_mod[0x10];
	u8 reserved_at_40[0x18];
	u8 counter_set_id[0x8];
	u8 reserved_at_60[0x20];
};

MLX5_IFC_STATUS_OUT(dealloc_q_counter_out);

/* clear: the counters read are reset to 0 by the same command. */
struct mlx5_ifc_query_q_counter_in_bits {
	u8 opcode[0x10];
	u8 reserved_at_10[0x10];
	u8 reserved_at_20[0x10];
	u8 op_mod[0x10];
	u8 reserved_at_40[0x80];
	u8 clear[0x1];
	u8 reserved_at_c1[0x1f];
	u8 reserved_at_e0[0x18];
	u8 counter_set_id[0x8];
};

struct mlx5_ifc_query_q_counter_out_bits {
	u8 status[0x8];
	u8 reserved_at_8[0x18];
	u8 syndrome[0x20];
	u8 reserved_at_40[0x140];
	u8 out_of_buffer[0x20];
	u8 reserved_at_1a0[0x660];
};

#endif /* MLX5_PRM_ETH_H_ */
