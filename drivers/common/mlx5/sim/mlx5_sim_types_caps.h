/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * The model's types: a vHCA's capabilities and fault-injection setting.
 */

#ifndef MLX5_SIM_TYPES_CAPS_H_
#define MLX5_SIM_TYPES_CAPS_H_

#include "mlx5_sim_base.h"

/* Capabilities, fixed when the vHCA is created. */
struct mlx5_sim_caps {
	bool hca_cap_2;
	bool crossing;     /* Cross-vHCA caps (effective only with hca_cap_2). */
	bool pacing;
	bool pp_uid;       /* packet_pacing_uid: the PP object exists. */
	bool signature;    /* Signature offload (BLOCK_SIGNATURE mkeys). */
	/*
	 * What this vHCA's firmware requires of one of its mkeys before a
	 * crossing mkey of another vHCA may target it (MLX5_SIM_CROSS_*): no
	 * public source settles it, so it is a setting.
	 */
	uint8_t cross_rule;
	/*
	 * Complete every alias CREATE with this alias_context.status (0:
	 * none): firmware can create an alias it cannot use, and the driver
	 * must tell.
	 */
	uint8_t alias_status;
	bool update_tag;
	bool crypto;
	/*
	 * The crypto's import method, set in the factory: plaintext DEKs, or
	 * wrapped (crypto=wrapped): DEKs and the login's credential wrapped
	 * with an import KEK (AES key wrap, RFC 3394). A wrapped device is
	 * in commissioning until its CRYPTO_OPERATIONAL register holds the
	 * first credential and import KEK (crypto_credential, crypto_kek:
	 * what the officer sets with mlxreg), then operational.
	 */
	bool crypto_wrapped;
	uint8_t crypto_kek_len;    /* 0: commissioning; 16 or 32 bytes. */
	uint8_t crypto_kek[MLX5_SIM_KEK_MAX];
	uint8_t crypto_credential[MLX5_SIM_CREDENTIAL_LEN];
	bool odp;          /* On-demand paging, implicit ODP included. */
	uint16_t pp_table_size;
	uint32_t pp_min_rate;
	uint32_t pp_max_rate;
	/*
	 * Pacing in wall-clock time: a paced SQ's WQE waits for its time
	 * (a later doorbell sends it) and CQEs carry wall-clock times;
	 * otherwise (default) time is the wire's virtual clock.
	 */
	bool pace_wall;
	uint32_t speed_mbps;       /* Link speed of the ports at creation. */
	/*
	 * PCI device id of the function (query_device's vendor_part_id):
	 * 0x101d ConnectX-6 Dx (default), 0xa2d6 BlueField-2, ...
	 */
	uint16_t device_id;
	/* Device memory (MEMIC) bytes programs may allocate; 0: none. */
	uint32_t dm_size;
	uint8_t log_max_mkey;      /* Mkey indices 1..2^log_max_mkey - 1. */
	/*
	 * CQE compression (the cqe_compression capability): the longest
	 * session, cqe_compression_max_num (2..MLX5_SIM_CQE_COMP_MAX); 0: not
	 * announced. No public source gives a ConnectX's value: a setting.
	 */
	uint8_t cqe_comp_max;
	/*
	 * Enhanced multi-packet send WQEs (the Ethernet capabilities'
	 * enhanced_multi_pkt_send_wqe, with multi_pkt_send_wqe, from which
	 * mlx5_ib reports rdma-core's MPW_ALLOWED and ENHANCED_MPW): an SQ
	 * created with allow_multi_pkt_send_wqe takes them.
	 */
	bool empw;
	/* Ports (1 or 2) and what each is cabled to (MLX5_SIM_WIRE_*). */
	uint8_t nports;
	uint32_t wire[MLX5_SIM_MAX_PORTS];
};

/*
 * What a port is cabled to: looped back to itself, nothing (link down),
 * or a port of another vHCA of the card (MLX5_SIM_WIRE_PEER()).
 */
#define MLX5_SIM_WIRE_LOOPBACK 0u
#define MLX5_SIM_WIRE_NONE 1u
#define MLX5_SIM_WIRE_PEER_FLAG RTE_BIT32(31)
#define MLX5_SIM_WIRE_PEER(vhca_id, port) \
	(MLX5_SIM_WIRE_PEER_FLAG | (uint32_t)(vhca_id) << 8 | (port))
#define MLX5_SIM_WIRE_IS_PEER(w) (((w) & MLX5_SIM_WIRE_PEER_FLAG) != 0)
#define MLX5_SIM_WIRE_VHCA(w) ((uint16_t)((w) >> 8))
#define MLX5_SIM_WIRE_PORT(w) ((uint8_t)((w) & 0xff))

/* Requirements of a crossing target (struct mlx5_sim_caps.cross_rule). */
#define MLX5_SIM_CROSS_GRANT RTE_BIT32(0) /* ALLOW_OTHER_VHCA_ACCESS. */
#define MLX5_SIM_CROSS_MARK RTE_BIT32(1)  /* mkc.crossed_side_mkey. */
#define MLX5_SIM_CROSS_BOTH (MLX5_SIM_CROSS_GRANT | MLX5_SIM_CROSS_MARK)

/* Fault injection setting. */
struct mlx5_sim_fault {
	bool armed;
	int opcode;        /* -1: any. */
	uint32_t nth;      /* 0: every matching command. */
	uint8_t status;
	uint32_t seen;     /* Matching commands since arming. */
};

#endif /* MLX5_SIM_TYPES_CAPS_H_ */
