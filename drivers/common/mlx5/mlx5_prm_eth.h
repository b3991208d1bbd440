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

#endif /* MLX5_PRM_ETH_H_ */
