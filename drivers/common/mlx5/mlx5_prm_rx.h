/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * PRM layouts of the Ethernet datapath around the wire: the receive CQE as
 * an Ethernet queue reads it, and the flow-table match parameters a
 * steering rule is written in. Field names follow the kernel
 * (include/linux/mlx5/device.h for the CQE, mlx5_ifc.h for the match).
 */

#ifndef MLX5_PRM_RX_H_
#define MLX5_PRM_RX_H_

#include <stdint.h>

/*
 * A 64-byte CQE with the fields an Ethernet receive queue uses named:
 * rdma-core's struct mlx5_cqe64 keeps the RSS hash and the checksum in
 * reserved bytes. The layout is the kernel's struct mlx5_cqe64; the last
 * 20 bytes are struct mlx5_cqe64's.
 */
struct mlx5_cqe_eth {
	uint8_t tls_outer_l3_tunneled;
	uint8_t rsvd0;
	uint16_t wqe_id;              /* BE. */
	uint8_t lro_tcppsh_abort_dupack;
	uint8_t lro_min_ttl;
	uint16_t lro_tcp_win;         /* BE. */
	uint32_t lro_ack_seq_num;     /* BE. */
	uint32_t rss_hash_result;     /* BE: the Toeplitz result. */
	uint8_t rss_hash_type;        /* MLX5_CQE_RSS_HTYPE_*. */
	uint8_t ml_path;
	uint8_t rsvd20[2];
	uint16_t check_sum;           /* BE: ones' complement sum from L3. */
	uint16_t slid;
	uint32_t flags_rqpn;
	uint8_t hds_ip_ext;           /* MLX5_CQE_L2_OK, _L3_OK, _L4_OK. */
	uint8_t l4_l3_hdr_type;       /* L4 type 6:4, L3 type 3:2. */
	uint16_t vlan_info;           /* BE. */
	uint32_t srqn;                /* BE: lro_num_seg 31:24, user index. */
	uint32_t ft_metadata;         /* BE: flow table metadata. */
	uint8_t rsvd40[4];
	uint32_t byte_cnt;            /* BE. */
	uint64_t timestamp;           /* BE. */
	/* BE: 23:0 an RQ's CQE: the rule's flow tag (a QP's: its number). */
	uint32_t sop_drop_qpn;
	uint16_t wqe_counter;         /* BE. */
	uint8_t signature;
	uint8_t op_own;
};

/*
 * CQE compression (cqc.cqe_comp_en, the cqe_compression capability): a
 * session of N receive CQEs (2 <= N <= cqe_compression_max_num) that
 * differ only in what a mini-CQE carries takes N slots of the ring, as N
 * CQEs would. Its first slot holds the header: the session's first CQE
 * with the byte count replaced by N and the format (op_own bits 3:2)
 * MLX5_CQE_FORMAT_COMPRESSED; its owner bit is the session's only one.
 * Arrays of MLX5_MINI_CQE_ARRAY_SIZE mini-CQEs follow, the first in the
 * next slot, array k >= 1 in slot header + 8 * k; the other slots are left
 * as they were. Packet i's WQE is the header's wqe_counter + i (a cyclic
 * RQ). This is the layout DPDK 22.11's mlx5_rx.c and the kernel's mlx5e
 * (en_rx.c) read.
 */
#define MLX5_CQE_FORMAT_SHIFT 2
#define MLX5_CQE_FORMAT_MASK 0x3
#define MLX5_CQE_FORMAT_COMPRESSED 0x3
#define MLX5_MINI_CQE_ARRAY_SIZE 8

/* cqc.mini_cqe_res_format: what a mini-CQE holds besides the byte count. */
enum {
	MLX5_MINI_CQE_FORMAT_HASH = 0x0, /* The RSS hash result. */
	MLX5_MINI_CQE_FORMAT_CSUM = 0x1, /* The checksum, a stride index. */
};

struct mlx5_mini_cqe8 {
	union {
		uint32_t rx_hash_result; /* BE: MLX5_MINI_CQE_FORMAT_HASH. */
		struct {                 /* MLX5_MINI_CQE_FORMAT_CSUM. */
			uint16_t checksum;   /* BE: the CQE's check_sum. */
			uint16_t stride_idx; /* BE: 0 on a cyclic RQ. */
		};
	};
	uint32_t byte_cnt; /* BE. */
};

/* l4_l3_hdr_type: the header types the device parsed. */
#define MLX5_CQE_L3_HDR_TYPE_SHIFT 2
#define MLX5_CQE_L3_HDR_TYPE_MASK 0x3
#define MLX5_CQE_L4_HDR_TYPE_SHIFT 4
#define MLX5_CQE_L4_HDR_TYPE_MASK 0x7
enum {
	MLX5_CQE_L4_HDR_TYPE_NONE = 0x0,
	MLX5_CQE_L4_HDR_TYPE_TCP_NO_ACK = 0x1,
	MLX5_CQE_L4_HDR_TYPE_UDP = 0x2,
	MLX5_CQE_L4_HDR_TYPE_TCP_ACK_NO_DATA = 0x3,
	MLX5_CQE_L4_HDR_TYPE_TCP_ACK_AND_DATA = 0x4,
};

/* rss_hash_type: what the hash covered (IP 3:2, L4 7:6). */
enum {
	MLX5_CQE_RSS_HTYPE_IPV4 = 0x1 << 2,
	MLX5_CQE_RSS_HTYPE_IPV6 = 0x2 << 2,
	MLX5_CQE_RSS_HTYPE_IP = 0x3 << 2,
	MLX5_CQE_RSS_HTYPE_TCP = 0x1 << 6,
	MLX5_CQE_RSS_HTYPE_UDP = 0x2 << 6,
	MLX5_CQE_RSS_HTYPE_L4 = 0x3 << 6,
};

/*
 * Flow tables and their entries (the kernel issues them for a steering
 * rule; libmlx5's software steering creates a table for each of its
 * tables above the root).
 */
enum {
	MLX5_CMD_OP_CREATE_FLOW_TABLE = 0x930,
	MLX5_CMD_OP_DESTROY_FLOW_TABLE = 0x931,
	MLX5_CMD_OP_SET_FLOW_TABLE_ENTRY = 0x936,
	MLX5_CMD_OP_DELETE_FLOW_TABLE_ENTRY = 0x938,
	MLX5_CMD_OP_ALLOC_FLOW_COUNTER = 0x939,
	MLX5_CMD_OP_DEALLOC_FLOW_COUNTER = 0x93a,
	MLX5_CMD_OP_QUERY_FLOW_COUNTER = 0x93b,
};

/*
 * Flow counters: a steering rule's count action adds each frame it
 * takes to a counter's packets and octets. ALLOC_FLOW_COUNTER makes one
 * (or, with flow_counter_bulk or flow_counter_bulk_log_size, a bulk of
 * them where the device announces bulk allocation); QUERY_FLOW_COUNTER reads (and with clear, zeroes)
 * num_of_counters of them from flow_counter_id (0 means one).
 */
struct mlx5_ifc_alloc_flow_counter_in_bits {
	u8 opcode[0x10];
	u8 uid[0x10];
	u8 reserved_at_20[0x10];
	u8 op_mod[0x10];
	u8 flow_counter_id[0x20];
	u8 reserved_at_60[0x13];
	u8 flow_counter_bulk_log_size[0x5];
	u8 flow_counter_bulk[0x8];
};

struct mlx5_ifc_alloc_flow_counter_out_bits {
	u8 status[0x8];
	u8 reserved_at_8[0x18];
	u8 syndrome[0x20];
	u8 flow_counter_id[0x20];
	u8 reserved_at_60[0x20];
};

struct mlx5_ifc_dealloc_flow_counter_in_bits {
	u8 opcode[0x10];
	u8 uid[0x10];
	u8 reserved_at_20[0x10];
	u8 op_mod[0x10];
	u8 flow_counter_id[0x20];
	u8 reserved_at_60[0x20];
};

struct mlx5_ifc_dealloc_flow_counter_out_bits {
	u8 status[0x8];
	u8 reserved_at_8[0x18];
	u8 syndrome[0x20];
	u8 reserved_at_40[0x40];
};

struct mlx5_ifc_traffic_counter_bits {
	u8 packets[0x40];
	u8 octets[0x40];
};

struct mlx5_ifc_query_flow_counter_in_bits {
	u8 opcode[0x10];
	u8 uid[0x10];
	u8 reserved_at_20[0x10];
	u8 op_mod[0x10];
	u8 reserved_at_40[0x20];
	u8 mkey[0x20];
	u8 address[0x40];
	u8 clear[0x1];
	u8 dump_to_memory[0x1];
	u8 num_of_counters[0x1e];
	u8 flow_counter_id[0x20];
};

struct mlx5_ifc_query_flow_counter_out_bits {
	u8 status[0x8];
	u8 reserved_at_8[0x18];
	u8 syndrome[0x20];
	u8 reserved_at_40[0x40];
	struct mlx5_ifc_traffic_counter_bits flow_statistics;
};

/* The outer (or inner) L2-L4 header fields a flow entry matches. */
struct mlx5_ifc_fte_match_set_lyr_2_4_bits {
	u8 smac_47_16[0x20];
	u8 smac_15_0[0x10];
	u8 ethertype[0x10];
	u8 dmac_47_16[0x20];
	u8 dmac_15_0[0x10];
	u8 first_prio[0x3];
	u8 first_cfi[0x1];
	u8 first_vid[0xc];
	u8 ip_protocol[0x8];
	u8 ip_dscp[0x6];
	u8 ip_ecn[0x2];
	u8 cvlan_tag[0x1];
	u8 svlan_tag[0x1];
	u8 frag[0x1];
	u8 ip_version[0x4];
	u8 tcp_flags[0x9];
	u8 tcp_sport[0x10];
	u8 tcp_dport[0x10];
	u8 reserved_at_c0[0x10];
	u8 ipv4_ihl[0x4];
	u8 reserved_at_d4[0x4];
	u8 ttl_hoplimit[0x8];
	u8 udp_sport[0x10];
	u8 udp_dport[0x10];
	u8 src_ipv4_src_ipv6[0x80];
	u8 dst_ipv4_dst_ipv6[0x80];
};

/*
 * The match parameters of a flow table entry (and of a matcher's mask):
 * outer headers first; the other sets are not used here.
 */
struct mlx5_ifc_fte_match_param_bits {
	struct mlx5_ifc_fte_match_set_lyr_2_4_bits outer_headers;
	u8 misc_parameters[0x200];
	u8 inner_headers[0x200];
	u8 misc_parameters_2[0x200];
	u8 misc_parameters_3[0x200];
	u8 misc_parameters_4[0x200];
	u8 misc_parameters_5[0x200];
	u8 reserved_at_e00[0x200];
};

/* match_criteria_enable: which sets of the match parameters are used. */
enum {
	MLX5_MATCH_OUTER_HEADERS = 1 << 0,
	MLX5_MATCH_MISC_PARAMETERS = 1 << 1,
	MLX5_MATCH_INNER_HEADERS = 1 << 2,
	MLX5_MATCH_MISC_PARAMETERS_2 = 1 << 3,
	MLX5_MATCH_MISC_PARAMETERS_3 = 1 << 4,
	MLX5_MATCH_MISC_PARAMETERS_4 = 1 << 5,
	MLX5_MATCH_MISC_PARAMETERS_5 = 1 << 6,
};

#endif /* MLX5_PRM_RX_H_ */
