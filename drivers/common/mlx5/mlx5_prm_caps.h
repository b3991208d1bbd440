/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/* PRM layouts: QUERY_HCA_CAP and the capability blocks we read. */

#ifndef MLX5_PRM_CAPS_H_
#define MLX5_PRM_CAPS_H_

/* op_mod of QUERY_HCA_CAP = (cap_type << 1) | current. */
enum mlx5_hca_cap_type {
	MLX5_HCA_CAP_GENERAL = 0x0,
	MLX5_HCA_CAP_ETH_OFFLOADS = 0x1,
	MLX5_HCA_CAP_ROCE = 0x4,
	MLX5_HCA_CAP_NIC_FLOW_TABLE = 0x7,
	MLX5_HCA_CAP_QOS = 0xc,
	MLX5_HCA_CAP_CRYPTO = 0x1a,
	MLX5_HCA_CAP_GENERAL_2 = 0x20,
};

enum {
	MLX5_HCA_CAP_OPMOD_MAX = 0x0,
	MLX5_HCA_CAP_OPMOD_CUR = 0x1,
};

#define MLX5_HCA_CAP_OPMOD(type, cur) (((type) << 1) | (cur))

/* cmd_hca_cap.port_type. */
enum {
	MLX5_CAP_PORT_TYPE_IB = 0x0,
	MLX5_CAP_PORT_TYPE_ETH = 0x1,
};

/* cmd_hca_cap_2.cross_vhca_object_to_object_supported bits. */
#define MLX5_CROSS_VHCA_OBJ_TO_OBJ_LOCAL_MKEY_TO_REMOTE_MKEY 0x100
/* cmd_hca_cap_2.allowed_object_for_other_vhca_access bits. */
#define MLX5_ALLOWED_OBJ_FOR_OTHER_VHCA_ACCESS_MKEY 0x4

struct mlx5_ifc_cmd_hca_cap_bits {
	u8 reserved_at_0[0x20];
	u8 hca_cap_2[0x1];
	u8 reserved_at_21[0xf];
	u8 vhca_id[0x10];
	u8 reserved_at_40[0x48];
	u8 log_max_qp_sz[0x8];
	u8 reserved_at_90[0x38];
	u8 log_max_cq_sz[0x8];
	u8 reserved_at_d0[0x28];
	u8 dump_fill_mkey[0x1];
	u8 reserved_at_f9[0x20];
	u8 null_mkey[0x1];
	u8 reserved_at_11a[0x37];
	u8 rts2rts_qp_udp_sport[0x1];
	u8 rts2rts_lag_tx_port_affinity[0x1];
	u8 reserved_at_153[0x31];
	u8 modify_rq_counter_set_id[0x1];
	u8 reserved_at_185[0x1];
	u8 max_qp_cnt[0xa];        /* Queue counter sets. */
	u8 reserved_at_190[0x26];
	u8 port_type[0x2];         /* 0: InfiniBand, 1: Ethernet. */
	u8 num_ports[0x8];
	u8 reserved_at_1c0[0x3];
	u8 log_max_msg[0x5];
	u8 reserved_at_1c8[0x34];
	u8 cqe_version[0x4];
	u8 reserved_at_200[0x1b];
	u8 qos[0x1];
	u8 eth_net_offloads[0x1];
	u8 roce[0x1];
	u8 reserved_at_21e[0x1e];
	u8 xrc[0x1];
	u8 reserved_at_23d[0xb];
	u8 fl_rc_qp_when_roce_disabled[0x1];
	u8 reserved_at_249[0x2f];
	u8 lag_tx_port_affinity[0x1];
	u8 reserved_at_279[0x3];
	u8 num_lag_ports[0x4];
	u8 reserved_at_280[0x10];
	u8 max_wqe_sz_sq[0x10];    /* Bytes. */
	u8 reserved_at_2a0[0x151];
	u8 aes_xts_single_block_le_tweak[0x1];
	u8 aes_xts_multi_block_be_tweak[0x1];
	u8 reserved_at_3f3[0xd];
	u8 general_obj_types[0x40];
	u8 reserved_at_440[0x28];
	u8 aes_xts_multi_block_le_tweak[0x1];
	u8 crypto[0x1];
	u8 reserved_at_46a[0x148];
	u8 crossing_vhca_mkey[0x1];
	u8 reserved_at_5b3[0x9];
	/* CQE compression (mlx5_prm_rx.h: mini-CQEs). */
	u8 mini_cqe_resp_stride_index[0x1];
	u8 cqe_128_always[0x1];
	u8 cqe_compression_128[0x1];
	u8 cqe_compression[0x1];
	u8 cqe_compression_timeout[0x10]; /* Microseconds. */
	u8 cqe_compression_max_num[0x10]; /* CQEs a session holds at most. */
	u8 reserved_at_5e0[0x220];
};

struct mlx5_ifc_cmd_hca_cap_2_bits {
	u8 reserved_at_0[0xe0];
	u8 cross_vhca_object_to_object_supported[0x20];
	u8 allowed_object_for_other_vhca_access[0x40];
	u8 reserved_at_140[0x6c0];
};

struct mlx5_ifc_qos_cap_bits {
	u8 packet_pacing[0x1];
	u8 esw_scheduling[0x1];
	u8 esw_bw_share[0x1];
	u8 esw_rate_limit[0x1];
	u8 reserved_at_4[0x1];
	u8 packet_pacing_burst_bound[0x1];
	u8 packet_pacing_typical_size[0x1];
	u8 reserved_at_7[0x4];
	u8 packet_pacing_uid[0x1];
	u8 reserved_at_c[0x14];
	u8 reserved_at_20[0x20];
	u8 packet_pacing_max_rate[0x20];
	u8 packet_pacing_min_rate[0x20];
	u8 reserved_at_80[0x10];
	u8 packet_pacing_rate_table_size[0x10];
	u8 reserved_at_a0[0x760];
};

/* general_obj_types bit of the DEK (encryption key) object. */
#define MLX5_GENERAL_OBJ_TYPES_CAP_DEK (UINT64_C(1) << 0xc)

/* general_obj_types bit of the crypto login object (type 0x1f). */
#define MLX5_GENERAL_OBJ_TYPES_CAP_CRYPTO_LOGIN (UINT64_C(1) << 0x1f)

/*
 * crypto_cap.wrapped_import_method: the key kinds the device takes
 * wrapped only (the kernel's MLX5_CRYPTO_WRAPPED_IMPORT_METHOD_CAP_*).
 */
#define MLX5_CRYPTO_WRAPPED_IMPORT_METHOD_AES_XTS 0x4

/* The crypto block (QUERY_HCA_CAP type 0x1a, with cmd_hca_cap.crypto). */
struct mlx5_ifc_crypto_cap_bits {
	u8 wrapped_crypto_operational[0x1];
	u8 wrapped_crypto_going_to_commissioning[0x1];
	u8 reserved_at_2[0x1];
	u8 synchronize_dek[0x1];
	u8 int_kek_manual[0x1];
	u8 int_kek_auto[0x1];
	u8 reserved_at_6[0x12];
	u8 wrapped_import_method[0x8];
	u8 reserved_at_20[0x3];
	u8 log_dek_max_alloc[0x5];
	u8 reserved_at_28[0x3];
	u8 log_max_num_deks[0x5];
	u8 reserved_at_30[0x7d0];
};

/* per_protocol_networking_offload_caps.wqe_inline_mode. */
enum {
	MLX5_CAP_INLINE_MODE_L2 = 0x0,
	MLX5_CAP_INLINE_MODE_VPORT_CONTEXT = 0x1,
	MLX5_CAP_INLINE_MODE_NOT_REQUIRED = 0x2,
};

/* The Ethernet offloads block (QUERY_HCA_CAP type 0x1). */
struct mlx5_ifc_per_protocol_networking_offload_caps_bits {
	u8 csum_cap[0x1];
	u8 vlan_cap[0x1];
	u8 lro_cap[0x1];
	u8 reserved_at_3[0x5];
	u8 self_lb_en_modifiable[0x1];
	u8 reserved_at_9[0x2];
	u8 max_lso_cap[0x5];
	u8 multi_pkt_send_wqe[0x2];
	u8 wqe_inline_mode[0x2];
	u8 rss_ind_tbl_cap[0x4];
	u8 reg_umr_sq[0x1];
	u8 scatter_fcs[0x1];
	u8 enhanced_multi_pkt_send_wqe[0x1];
	u8 reserved_at_1b[0x8];
	u8 cqe_checksum_full[0x1];
	u8 reserved_at_24[0x7dc];
};

/* roce_cap.qp_ts_format: the timestamp formats a QP may use. */
enum {
	MLX5_QP_TS_FORMAT_CAP_FREE_RUNNING = 0x0,
	MLX5_QP_TS_FORMAT_CAP_REAL_TIME = 0x1,
	MLX5_QP_TS_FORMAT_CAP_FREE_RUNNING_AND_REAL_TIME = 0x2,
};

/* qpc.ts_format. */
enum {
	MLX5_QPC_TIMESTAMP_FORMAT_FREE_RUNNING = 0x0,
	MLX5_QPC_TIMESTAMP_FORMAT_DEFAULT = 0x1,
	MLX5_QPC_TIMESTAMP_FORMAT_REAL_TIME = 0x2,
};

struct mlx5_ifc_roce_cap_bits {
	u8 roce_apm[0x1];
	u8 reserved_at_1[0x3];
	u8 sw_r_roce_src_udp_port[0x1];
	u8 fl_rc_qp_when_roce_disabled[0x1];
	u8 fl_rc_qp_when_roce_enabled[0x1];
	u8 reserved_at_7[0x17];
	u8 qp_ts_format[0x2];
	u8 reserved_at_20[0x7e0];
};

union mlx5_ifc_hca_cap_union_bits {
	struct mlx5_ifc_cmd_hca_cap_bits cmd_hca_cap;
	struct mlx5_ifc_cmd_hca_cap_2_bits cmd_hca_cap_2;
	struct mlx5_ifc_qos_cap_bits qos_cap;
	struct mlx5_ifc_roce_cap_bits roce_cap;
	struct mlx5_ifc_per_protocol_networking_offload_caps_bits eth_cap;
	struct mlx5_ifc_crypto_cap_bits crypto_cap;
	u8 reserved_at_0[0x8000];
};

struct mlx5_ifc_query_hca_cap_in_bits {
	u8 opcode[0x10];
	u8 uid[0x10];
	u8 reserved_at_20[0x10];
	u8 op_mod[0x10];
	u8 other_function[0x1];
	u8 reserved_at_41[0xf];
	u8 function_id[0x10];
	u8 reserved_at_60[0x20];
};

struct mlx5_ifc_query_hca_cap_out_bits {
	u8 status[0x8];
	u8 reserved_at_8[0x18];
	u8 syndrome[0x20];
	u8 reserved_at_40[0x40];
	union mlx5_ifc_hca_cap_union_bits capability;
};

#endif /* MLX5_PRM_CAPS_H_ */
