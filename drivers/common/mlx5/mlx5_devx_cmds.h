/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * Typed DEVX command builders. Each builder fills a PRM mailbox, runs it
 * through the device's backend and interprets the answer. A refused command
 * is logged with its name, errno, status name and syndrome; rte_errno is set
 * to the errno rdma-core maps the status to (EINVAL, ENOMEM, EBUSY, EAGAIN,
 * EIO), or to the backend's errno when there is no status.
 */

#ifndef MLX5_DEVX_CMDS_H_
#define MLX5_DEVX_CMDS_H_

#include <stdbool.h>
#include <stdint.h>

#include <rte_compat.h>

#include "mlx5_glue.h"
#include "mlx5_prm.h"

struct mlx5_common_device;

/* Packet-pacing (QoS) capabilities. */
struct mlx5_hca_qos_attr {
	bool sup;                 /* QoS capability block present. */
	bool packet_pacing;
	bool burst_bound;         /* burst_upper_bound honoured. */
	bool typical_size;        /* typical_packet_size honoured. */
	bool pp_uid;
	uint32_t max_rate_kbps;
	uint32_t min_rate_kbps;
	/* Entries 1..size-1 (index 0 means no limit); below 2, none. */
	uint16_t rate_table_size;
};

/* The Ethernet offloads block (read when eth_net_offloads is set). */
struct mlx5_hca_eth_attr {
	bool sup;                 /* eth_net_offloads. */
	bool csum_cap;            /* L3/L4 checksum offloads. */
	bool vlan_cap;
	bool lro_cap;
	bool self_lb_en_modifiable;
	bool scatter_fcs;
	bool cqe_checksum_full;
	uint8_t max_lso_cap;      /* log2 of the largest LSO, 0: none. */
	uint8_t wqe_inline_mode;  /* MLX5_CAP_INLINE_MODE_*. */
	uint8_t rss_ind_tbl_cap;  /* log2 of the largest RQT. */
	/* Enhanced multi-packet send WQEs (MLX5_WQE_OPCODE_ENHANCED_MPSW). */
	bool empw;
};

/* Crypto: the general block's bits and the crypto block. */
struct mlx5_hca_crypto_attr {
	bool sup;                  /* cmd_hca_cap.crypto. */
	bool dek;                  /* DEK in general_obj_types. */
	bool aes_xts_single_block_le_tweak;
	bool aes_xts_multi_block_be_tweak;
	bool aes_xts_multi_block_le_tweak;
	/*
	 * The import method (crypto_cap.wrapped_import_method): AES-XTS
	 * DEKs are wrapped with an import KEK, within a crypto login.
	 */
	bool wrapped_import;
	bool login;                /* Crypto login in general_obj_types. */
	/* Wrapped import: out of commissioning (the officer's register set). */
	bool wrapped_crypto_operational;
	uint8_t log_max_num_deks;
	uint8_t log_dek_max_alloc;
};

/* Capabilities read by QUERY_HCA_CAP (general, general_2, QoS, RoCE, Eth). */
struct mlx5_hca_attr {
	uint16_t vhca_id;
	bool hca_cap_2;
	bool dump_fill_mkey;
	bool null_mkey;
	bool crossing_vhca_mkey;
	uint64_t general_obj_types;
	/* Queue limits (log2): CQEs per CQ, WQEs per QP work queue. */
	uint8_t log_max_cq_sz;
	uint8_t log_max_qp_sz;
	uint8_t log_max_msg;      /* Largest message of a QP (log2 bytes). */
	uint8_t cqe_version;
	/*
	 * CQE compression (cqe_compression): the longest session
	 * (cqe_compression_max_num); 0: the device does not compress.
	 */
	uint16_t cqe_comp_max;
	/* A LAG device: its ports (0 or 1: none), TIS port affinity. */
	uint8_t num_lag_ports;
	bool lag_tx_port_affinity;
	/* Queue counter sets (max_qp_cnt; 0: none) and MODIFY_RQ of one. */
	uint16_t max_q_counters;
	bool modify_rq_counter_set_id;
	/* RoCE: force-loopback RC QPs and the QP timestamp formats. */
	bool roce;
	bool fl_rc_qp_when_roce_disabled;
	bool fl_rc_qp_when_roce_enabled;  /* From the RoCE block. */
	uint8_t qp_ts_format;             /* MLX5_QP_TS_FORMAT_CAP_*. */
	/* From cmd_hca_cap_2 (0 when hca_cap_2 is not set). */
	uint32_t cross_vhca_object_to_object_supported;
	uint64_t allowed_object_for_other_vhca_access;
	struct mlx5_hca_qos_attr qos;
	struct mlx5_hca_eth_attr eth;
	struct mlx5_hca_crypto_attr crypto;
};

/* A DEVX object and the backend that created it. */
struct mlx5_devx_obj {
	struct mlx5dv_devx_obj *obj;
	const struct mlx5_glue *glue;
	uint32_t id;    /* Object id; for an mkey, the full key. */
	uint16_t type;  /* General object type, or 0 for an mkey. */
};

/* One KLM entry of an indirect mkey. */
struct mlx5_klm {
	uint32_t byte_count;
	uint32_t mkey;
	uint64_t address;
};

/* Attributes of CREATE_MKEY. */
struct mlx5_devx_mkey_attr {
	uint32_t access_mode;  /* MLX5_MKC_ACCESS_MODE_*: MTT, KLM, CROSSING. */
	uint64_t addr;         /* Start (I/O virtual) address. */
	uint64_t size;         /* Length in bytes. */
	uint32_t pd;           /* PD number. */
	/* Local/remote access rights. */
	bool lr, lw, rr, rw, atomic;
	bool umr_en;
	bool free;             /* Create in the free state (UMR fills it). */
	/*
	 * KLM mode: a crypto mkey (crypto_en, with room for a crypto BSF),
	 * which a UMR WQE configures (mlx5_common_umr.h). Needs crypto.
	 */
	bool crypto_en;
	/*
	 * Mark the key as one that crossing mkeys of other vHCAs may target
	 * (mkc.crossed_side_mkey); the owner also grants access with
	 * ALLOW_OTHER_VHCA_ACCESS.
	 */
	bool crossed_side_mkey;
	/* MTT mode: the umem that backs the range. */
	uint32_t umem_id;
	uint64_t umem_offset;
	uint32_t log_page_size;
	/* KLM mode: the translation entries (may be 0 with free=1). */
	const struct mlx5_klm *klm_array;
	uint32_t klm_num;
	/*
	 * CROSSING mode: the mkey of another vHCA this one points at; with
	 * size 0 the crossing mkey spans the whole address space (length64).
	 */
	uint16_t crossing_target_vhca_id;
	uint32_t crossing_target_mkey;
};

/* What QUERY_MKEY returns. */
struct mlx5_devx_mkey_info {
	uint32_t access_mode;
	bool free;
	bool lr, lw, rr, rw, atomic;
	uint32_t pd;
	uint64_t start_addr;
	uint64_t len;
	uint32_t qpn;
	uint16_t crossing_target_vhca_id;
	uint32_t translations_octword_size;
};

/* Attributes of an alias object (importer side of cross-vHCA access). */
struct mlx5_devx_alias_attr {
	uint16_t obj_type;                 /* MLX5_GENERAL_OBJ_TYPE_MKEY. */
	uint16_t vhca_id;                  /* Owner vHCA. */
	uint32_t obj_id;                   /* Owner's object id (mkey >> 8). */
	uint8_t access_key[MLX5_ACCESS_KEY_LEN];
	uint32_t pdn;                      /* Importer's PD, in metadata. */
};

/**
 * Name of a command status ("BAD_PARAM", ...), "UNKNOWN" for others.
 */
__rte_internal
const char *mlx5_cmd_status_name(uint8_t status);

/**
 * The errno rdma-core maps a command status to.
 */
__rte_internal
int mlx5_cmd_status_to_errno(uint8_t status);

/**
 * Name of a command opcode ("CREATE_MKEY", ...), "UNKNOWN" for others.
 */
__rte_internal
const char *mlx5_cmd_opcode_name(uint16_t opcode);

/**
 * Run a general command through the device's backend and interpret the
 * answer. Prefer MLX5_DEVX_CMD(), which derives the mailbox sizes.
 *
 * @return
 *   0 on success, a negative errno value otherwise and rte_errno is set.
 */
__rte_internal
int mlx5_devx_cmd_exec(struct mlx5_common_device *cdev, const char *name,
		       const void *in, size_t inlen, void *out, size_t outlen);

#define MLX5_DEVX_CMD(cdev, typ, in, out) \
	mlx5_devx_cmd_exec((cdev), #typ, (in), MLX5_ST_SZ_BYTES(typ##_in), \
			   (out), MLX5_ST_SZ_BYTES(typ##_out))

/**
 * Create a DEVX object with the create command in @in (the backend's
 * devx_obj_create) and interpret the answer. Prefer MLX5_DEVX_OBJ_CREATE(),
 * which derives the mailbox sizes from the layout names; the id and type
 * of the object are the caller's to read from @out.
 *
 * @return
 *   The object, or NULL with rte_errno set and the refusal logged (the
 *   command's name, errno, status and syndrome).
 */
__rte_internal
struct mlx5_devx_obj *
mlx5_devx_obj_create(struct mlx5_common_device *cdev, const char *name,
		     const void *in, size_t inlen, void *out, size_t outlen);

/**
 * Query or modify a DEVX object (the command in @in must name @obj, as the
 * kernel requires). Prefer MLX5_DEVX_OBJ_QUERY()/MLX5_DEVX_OBJ_MODIFY().
 *
 * @return
 *   0 on success, a negative errno value otherwise and rte_errno is set.
 */
__rte_internal
int mlx5_devx_obj_query(struct mlx5_devx_obj *obj, const char *name,
			const void *in, size_t inlen, void *out,
			size_t outlen);
__rte_internal
int mlx5_devx_obj_modify(struct mlx5_devx_obj *obj, const char *name,
			 const void *in, size_t inlen, void *out,
			 size_t outlen);

/* The same with mailbox sizes of the layouts <typ>_in and <typ>_out. */
#define MLX5_DEVX_OBJ_CREATE(cdev, typ, in, out) \
	mlx5_devx_obj_create((cdev), #typ, (in), MLX5_ST_SZ_BYTES(typ##_in), \
			     (out), MLX5_ST_SZ_BYTES(typ##_out))
#define MLX5_DEVX_OBJ_QUERY(obj, typ, in, out) \
	mlx5_devx_obj_query((obj), #typ, (in), MLX5_ST_SZ_BYTES(typ##_in), \
			    (out), MLX5_ST_SZ_BYTES(typ##_out))
#define MLX5_DEVX_OBJ_MODIFY(obj, typ, in, out) \
	mlx5_devx_obj_modify((obj), #typ, (in), MLX5_ST_SZ_BYTES(typ##_in), \
			     (out), MLX5_ST_SZ_BYTES(typ##_out))

/**
 * Log a refused command and set rte_errno. Used by every builder.
 *
 * @return
 *   The negative errno value set in rte_errno.
 */
__rte_internal
int mlx5_devx_cmd_error(const char *name, int err, const void *out);

/**
 * Query the general, general_2 and QoS capabilities.
 *
 * @return
 *   0 on success, a negative errno value otherwise and rte_errno is set.
 */
__rte_internal
int mlx5_devx_cmd_query_hca_attr(struct mlx5_common_device *cdev,
				 struct mlx5_hca_attr *attr);

/**
 * Create an mkey (MTT over a umem, KLM indirect, or crossing).
 *
 * @return
 *   The object, or NULL with rte_errno set.
 */
__rte_internal
struct mlx5_devx_obj *
mlx5_devx_cmd_mkey_create(struct mlx5_common_device *cdev,
			  const struct mlx5_devx_mkey_attr *attr);

/**
 * Query an mkey created by mlx5_devx_cmd_mkey_create().
 *
 * @return
 *   0 on success, a negative errno value otherwise and rte_errno is set.
 */
__rte_internal
int mlx5_devx_cmd_mkey_query(struct mlx5_devx_obj *mkey,
			     struct mlx5_devx_mkey_info *info);

/**
 * Create an alias general object for another vHCA's object.
 *
 * @return
 *   The object (id = alias object id), or NULL with rte_errno set.
 */
__rte_internal
struct mlx5_devx_obj *
mlx5_devx_cmd_alias_obj_create(struct mlx5_common_device *cdev,
			       const struct mlx5_devx_alias_attr *attr);

/**
 * Query an alias object; @status receives alias_context.status (0 = valid).
 *
 * @return
 *   0 on success, a negative errno value otherwise and rte_errno is set.
 */
__rte_internal
int mlx5_devx_cmd_alias_obj_query(struct mlx5_devx_obj *alias,
				  uint32_t *status);

/**
 * Let other vHCAs of the card access one of this device's objects when they
 * present @access_key (ALLOW_OTHER_VHCA_ACCESS).
 *
 * @return
 *   0 on success, a negative errno value otherwise and rte_errno is set.
 */
__rte_internal
int mlx5_devx_cmd_allow_other_vhca_access(struct mlx5_common_device *cdev,
					  uint16_t obj_type, uint32_t obj_id,
					  const uint8_t *access_key);

/**
 * Destroy any DEVX object created by the builders above.
 *
 * @return
 *   0 on success, a negative errno value otherwise and rte_errno is set.
 *   The object is freed only on success.
 */
__rte_internal
int mlx5_devx_cmd_destroy(struct mlx5_devx_obj *obj);

/* Attributes of CREATE_CQ: a ring and a doorbell record in umems. */
struct mlx5_devx_cq_attr {
	uint32_t log_cq_size;      /* log2 of the number of 64-byte CQEs. */
	uint32_t uar_page_id;      /* UAR page of the CQ's doorbells. */
	uint32_t eqn;              /* Event queue (mlx5dv_devx_query_eqn). */
	uint32_t q_umem_id;        /* The ring. */
	uint64_t q_umem_offset;
	uint32_t db_umem_id;       /* The doorbell record (8 bytes). */
	uint64_t db_umem_offset;
	bool overrun_ignore;       /* cqc.oi: no error on overrun. */
	/*
	 * cqc.cqe_comp_en: receive CQEs compressed in sessions of
	 * mini-CQEs of format mini_cqe_format (MLX5_MINI_CQE_FORMAT_*).
	 */
	bool cqe_comp;
	uint8_t mini_cqe_format;
};

/* What QUERY_CQ tells. */
struct mlx5_devx_cq_info {
	uint8_t status;            /* 0 OK, 0x9 overflow, 0xa write fail. */
	uint32_t log_cq_size;
	uint32_t uar_page_id;
	uint32_t producer_counter;
	uint32_t consumer_counter;
};

/* Attributes of CREATE_QP (RC, ring and doorbell record in umems). */
struct mlx5_devx_qp_attr {
	uint32_t pd;
	uint32_t uar_page_id;
	uint32_t cqn_snd;          /* Send completions. */
	uint32_t cqn_rcv;          /* Receive completions. */
	uint32_t log_sq_size;      /* log2 of 64-byte send WQE basic blocks. */
	/* log2 of receive WQEs, 0 with no_rq; stride 16 << log_rq_stride. */
	uint32_t log_rq_size;
	uint32_t log_rq_stride;
	bool no_rq;                /* Zero-size receive queue. */
	uint32_t wq_umem_id;       /* Ring: receive queue, then send queue. */
	uint64_t wq_umem_offset;
	uint32_t db_umem_id;       /* Doorbell record: receive, send counter. */
	uint64_t db_umem_offset;
};

/* What QUERY_QP tells. */
struct mlx5_devx_qp_info {
	uint8_t state;             /* enum mlx5_qp_state. */
	uint32_t pd;
	uint32_t remote_qpn;
	uint32_t cqn_snd;
	uint32_t cqn_rcv;
	bool rre, rwe;
	bool force_loopback;
	uint16_t hw_sq_wqebb_counter;
	uint32_t hw_rq_counter;
};

/**
 * Create a completion queue (CREATE_CQ); the object's id is the CQ number.
 *
 * @return
 *   The object, or NULL with rte_errno set and the refusal logged.
 */
__rte_internal
struct mlx5_devx_obj *
mlx5_devx_cmd_create_cq(struct mlx5_common_device *cdev,
			const struct mlx5_devx_cq_attr *attr);

/**
 * Query a CQ made by mlx5_devx_cmd_create_cq().
 *
 * @return
 *   0 on success, a negative errno value otherwise and rte_errno is set.
 */
__rte_internal
int mlx5_devx_cmd_query_cq(struct mlx5_devx_obj *cq,
			   struct mlx5_devx_cq_info *info);

/**
 * Create an RC queue pair in the RST state (CREATE_QP); the object's id is
 * the QP number.
 *
 * @return
 *   The object, or NULL with rte_errno set and the refusal logged.
 */
__rte_internal
struct mlx5_devx_obj *
mlx5_devx_cmd_create_qp(struct mlx5_common_device *cdev,
			const struct mlx5_devx_qp_attr *attr);

/**
 * Move a QP through one state transition.
 *
 * @param opcode
 *   MLX5_CMD_OP_RST2INIT_QP (remote read and write enabled),
 *   MLX5_CMD_OP_INIT2RTR_QP (connected to @p remote_qpn, a QP of the same
 *   function, with force loopback), MLX5_CMD_OP_RTR2RTS_QP,
 *   MLX5_CMD_OP_2ERR_QP or MLX5_CMD_OP_2RST_QP.
 * @param remote_qpn
 *   The peer QP (INIT2RTR only).
 *
 * @return
 *   0 on success, a negative errno value otherwise and rte_errno is set:
 *   -EINVAL for another opcode or a transition the QP's state forbids
 *   (BAD_QP_STATE).
 */
__rte_internal
int mlx5_devx_cmd_modify_qp_state(struct mlx5_devx_obj *qp, uint16_t opcode,
				  uint32_t remote_qpn);

/**
 * Query a QP made by mlx5_devx_cmd_create_qp().
 *
 * @return
 *   0 on success, a negative errno value otherwise and rte_errno is set.
 */
__rte_internal
int mlx5_devx_cmd_query_qp(struct mlx5_devx_obj *qp,
			   struct mlx5_devx_qp_info *info);

/* Attributes of CREATE_TIS. */
struct mlx5_devx_tis_attr {
	uint32_t transport_domain;
	uint8_t prio;
	uint8_t lag_tx_port_affinity;  /* 0: any port. */
	uint32_t pd;                   /* 0: none. */
};

/* The work queue of an SQ or RQ: ring and doorbell record in umems. */
struct mlx5_devx_wq_attr {
	uint8_t wq_type;           /* MLX5_WQ_TYPE_CYCLIC, ... */
	uint32_t pd;
	uint32_t uar_page_id;
	uint32_t log_wq_stride;    /* log2 of bytes per WQE stride. */
	uint32_t log_wq_sz;        /* log2 of WQE strides. */
	uint32_t wq_umem_id;
	uint64_t wq_umem_offset;
	uint32_t db_umem_id;
	uint64_t db_umem_offset;
};

/* Attributes of CREATE_SQ (created in RST). */
struct mlx5_devx_sq_attr {
	uint32_t cqn;
	uint32_t tisn;
	uint16_t rate_index;       /* Pacing entry, 0: none. */
	uint8_t min_wqe_inline_mode;
	bool flush_in_error_en;
	/* Takes enhanced multi-packet WQEs (needs caps.eth.empw). */
	bool allow_empw;
	uint32_t user_index;
	struct mlx5_devx_wq_attr wq;
};

/* A MODIFY_SQ: state @cur_state to @new_state, maybe a pacing entry. */
struct mlx5_devx_sq_modify {
	uint8_t cur_state;         /* enum mlx5_wq_state. */
	uint8_t new_state;
	bool set_rate;             /* With the rate-limit bit (to RDY). */
	uint16_t rate_index;
};

/* Attributes of CREATE_RQ (created in RST). */
struct mlx5_devx_rq_attr {
	uint32_t cqn;
	bool vsd;                  /* VLAN stripping disabled. */
	bool scatter_fcs;
	bool flush_in_error_en;
	uint32_t user_index;
	uint8_t counter_set_id;
	struct mlx5_devx_wq_attr wq;
};

/* What QUERY_SQ/QUERY_RQ tell. */
struct mlx5_devx_wq_info {
	uint8_t state;
	uint32_t cqn;
	uint16_t rate_index;       /* SQ only. */
	uint32_t hw_counter;
	uint8_t counter_set_id;    /* RQ only: its queue counter, 0: none. */
};

/**
 * Allocate a transport domain (ALLOC_TRANSPORT_DOMAIN); id is its number.
 *
 * @return
 *   The object, or NULL with rte_errno set and the refusal logged.
 */
__rte_internal
struct mlx5_devx_obj *mlx5_devx_cmd_alloc_td(struct mlx5_common_device *cdev);

/**
 * Create a TIS (CREATE_TIS); id is the TIS number.
 *
 * @return
 *   The object, or NULL with rte_errno set and the refusal logged.
 */
__rte_internal
struct mlx5_devx_obj *
mlx5_devx_cmd_create_tis(struct mlx5_common_device *cdev,
			 const struct mlx5_devx_tis_attr *attr);

/**
 * Create an Ethernet send queue in RST (CREATE_SQ) with one TIS; id is
 * the SQ number.
 *
 * @return
 *   The object, or NULL with rte_errno set and the refusal logged.
 */
__rte_internal
struct mlx5_devx_obj *
mlx5_devx_cmd_create_sq(struct mlx5_common_device *cdev,
			const struct mlx5_devx_sq_attr *attr);

/**
 * Modify an SQ: a state transition (RST->RDY, RDY->RDY, RDY->ERR,
 * RDY->RST, ERR->RST), with @p m->set_rate also its pacing entry
 * (packet_pacing_rate_limit_index and the modify_bitmask bit, which DPDK
 * 22.11's helper cannot set).
 *
 * @return
 *   0 on success, a negative errno value otherwise and rte_errno is set.
 */
__rte_internal
int mlx5_devx_cmd_modify_sq(struct mlx5_devx_obj *sq,
			    const struct mlx5_devx_sq_modify *m);

/**
 * Query an SQ.
 *
 * @return
 *   0 on success, a negative errno value otherwise and rte_errno is set.
 */
__rte_internal
int mlx5_devx_cmd_query_sq(struct mlx5_devx_obj *sq,
			   struct mlx5_devx_wq_info *info);

/**
 * Create a receive queue in RST (CREATE_RQ); id is the RQ number.
 *
 * @return
 *   The object, or NULL with rte_errno set and the refusal logged.
 */
__rte_internal
struct mlx5_devx_obj *
mlx5_devx_cmd_create_rq(struct mlx5_common_device *cdev,
			const struct mlx5_devx_rq_attr *attr);

/**
 * Move an RQ from @p cur_state to @p new_state (as for an SQ).
 *
 * @return
 *   0 on success, a negative errno value otherwise and rte_errno is set.
 */
__rte_internal
int mlx5_devx_cmd_modify_rq(struct mlx5_devx_obj *rq, uint8_t cur_state,
			    uint8_t new_state);

/**
 * Query an RQ.
 *
 * @return
 *   0 on success, a negative errno value otherwise and rte_errno is set.
 */
__rte_internal
int mlx5_devx_cmd_query_rq(struct mlx5_devx_obj *rq,
			   struct mlx5_devx_wq_info *info);

/* Attributes of CREATE_TIR. */
struct mlx5_devx_tir_attr {
	uint8_t disp_type;         /* MLX5_TIRC_DISP_TYPE_DIRECT/INDIRECT. */
	uint32_t inline_rqn;       /* Direct: the RQ. */
	uint32_t indirect_table;   /* Indirect: the RQT. */
	uint8_t rx_hash_fn;        /* Indirect: MLX5_RX_HASH_FN_TOEPLITZ. */
	bool rx_hash_symmetric;
	uint8_t rx_hash_toeplitz_key[MLX5_RSS_HASH_KEY_LEN];
	uint8_t l3_prot_type;      /* MLX5_L3_PROT_TYPE_IPV4/IPV6. */
	uint8_t l4_prot_type;      /* MLX5_L4_PROT_TYPE_TCP/UDP. */
	uint32_t selected_fields;  /* MLX5_HASH_FIELD_SEL_*; 0: no hash. */
	uint32_t transport_domain;
	uint8_t self_lb_block;     /* MLX5_TIRC_SELF_LB_BLOCK_* bits. */
};

/**
 * Create an RQ table of @p n RQs (room for @p max, a power of two at most
 * 2^caps.eth.rss_ind_tbl_cap).
 *
 * @return
 *   The object (id: the RQT's number), or NULL with rte_errno set.
 */
__rte_internal
struct mlx5_devx_obj *
mlx5_devx_cmd_create_rqt(struct mlx5_common_device *cdev,
			 const uint32_t *rqns, uint32_t n, uint32_t max);

/**
 * Replace the RQs of an RQT (MODIFY_RQT with the RQ-list bit): a RETA
 * update.
 *
 * @return
 *   0 on success, a negative errno value otherwise and rte_errno is set.
 */
__rte_internal
int mlx5_devx_cmd_modify_rqt(struct mlx5_devx_obj *rqt, const uint32_t *rqns,
			     uint32_t n, uint32_t max);

/**
 * Create a TIR: received packets to one RQ (direct), or spread over an
 * RQT by a Toeplitz hash of the selected fields (indirect).
 *
 * @return
 *   The object (id: the TIR's number), or NULL with rte_errno set.
 */
__rte_internal
struct mlx5_devx_obj *
mlx5_devx_cmd_create_tir(struct mlx5_common_device *cdev,
			 const struct mlx5_devx_tir_attr *attr);

/* What QUERY_NIC_VPORT_CONTEXT tells of the function's own vport. */
struct mlx5_nic_vport_info {
	uint8_t mac[6];            /* permanent_address. */
	uint16_t mtu;              /* Bytes, L2 included as firmware counts. */
	bool roce_en;
	uint8_t min_wqe_inline_mode;
	bool promisc_uc, promisc_mc, promisc_all;
};

/**
 * Query the NIC vport context of the device's own vport: MAC address, MTU,
 * RoCE, inline mode, promiscuity.
 *
 * @return
 *   0 on success, a negative errno value otherwise and rte_errno is set.
 */
__rte_internal
int mlx5_devx_cmd_query_nic_vport(struct mlx5_common_device *cdev,
				  struct mlx5_nic_vport_info *info);

/**
 * Query the link of the device's own vport (QUERY_VPORT_STATE):
 * MLX5_VPORT_STATE_UP or _DOWN in @p state, the administrative state in
 * @p admin_state (each may be NULL).
 *
 * @return
 *   0 on success, a negative errno value otherwise and rte_errno is set.
 */
__rte_internal
int mlx5_devx_cmd_query_vport_state(struct mlx5_common_device *cdev,
				    uint8_t *admin_state, uint8_t *state);

/* Attributes of a DEK (data encryption key) object. */
struct mlx5_devx_dek_attr {
	uint8_t key_size;          /* MLX5_DEK_KEY_SIZE_128/256 (per key). */
	uint8_t key_purpose;       /* MLX5_DEK_KEY_PURPOSE_AES_XTS, ... */
	uint32_t pd;
	/*
	 * AES-XTS, plaintext: the two keys, 2 x 16 or 2 x 32 bytes.
	 * Wrapped (@wrapped): the two keys and, with @has_keytag, the key
	 * tag (big-endian), wrapped together with the login's import KEK
	 * (RFC 3394): 40 or 48 bytes (128-bit keys), 72 or 80 (256-bit).
	 */
	const uint8_t *key;
	size_t key_len;
	bool wrapped;
	bool has_keytag;
	uint64_t keytag;           /* Plaintext: after the key, if has_keytag. */
	uint64_t opaque;
};

/* What QUERY_GENERAL_OBJECT of a DEK tells (never the key). */
struct mlx5_devx_dek_info {
	uint8_t state;             /* MLX5_DEK_STATE_*. */
	uint8_t key_size;
	uint8_t key_purpose;
	bool has_keytag;
	uint32_t pd;
	uint64_t opaque;
};

/**
 * Create a DEK (CREATE_GENERAL_OBJECT, type 0xc), its key plaintext or
 * wrapped as the device's import method wants: refused with -ENOTSUP
 * before asking on a device without crypto or without the DEK object, or
 * when @p attr->wrapped is not the device's import method (a wrapped
 * device also needs a live crypto login of the context,
 * mlx5_devx_cmd_create_crypto_login()); -EINVAL when @p attr->key_len
 * does not match the key size (see struct mlx5_devx_dek_attr).
 *
 * @return
 *   The object (id: the DEK's number), or NULL with rte_errno set.
 */
__rte_internal
struct mlx5_devx_obj *
mlx5_devx_cmd_create_dek(struct mlx5_common_device *cdev,
			 const struct mlx5_devx_dek_attr *attr);

/* What a crypto login names (CREATE_GENERAL_OBJECT, type 0x1f). */
struct mlx5_devx_crypto_login_attr {
	uint32_t credential_id;    /* 0: the CRYPTO_OPERATIONAL register's. */
	uint32_t import_kek_id;    /* 0: the CRYPTO_OPERATIONAL register's. */
	/* The credential wrapped with the import KEK (RFC 3394). */
	uint8_t credential[MLX5_CRYPTO_WRAPPED_CREDENTIAL_LEN];
};

/**
 * Log in to the crypto of a device in wrapped import (create the crypto
 * login object): within it the context's wrapped DEKs are created.
 * Refused with -ENOTSUP before asking on a device whose import method is
 * not wrapped or that lacks the login object, or that is still in
 * commissioning; -EINVAL for an id beyond 24 bits. The device refuses a
 * credential that does not unwrap or match (BAD_PARAM: -EINVAL, status
 * and syndrome logged). Destroy it with mlx5_devx_cmd_destroy() (after the DEKs made
 * within it, which it does not hold).
 *
 * @return
 *   The object, or NULL with rte_errno set.
 */
__rte_internal
struct mlx5_devx_obj *
mlx5_devx_cmd_create_crypto_login(struct mlx5_common_device *cdev,
				  const struct mlx5_devx_crypto_login_attr *attr);

/**
 * Query a DEK.
 *
 * @return
 *   0 on success, a negative errno value otherwise and rte_errno is set.
 */
__rte_internal
int mlx5_devx_cmd_query_dek(struct mlx5_devx_obj *dek,
			    struct mlx5_devx_dek_info *info);

/* What QUERY_Q_COUNTER tells of a counter set. */
struct mlx5_devx_q_counter_info {
	/*
	 * Packets dropped at an RQ of the set for want of a posted receive
	 * WQE (32 bits, wrapping; the PMD's imissed / rx_out_of_buffer).
	 */
	uint32_t out_of_buffer;
};

/**
 * Allocate a queue counter set (ALLOC_Q_COUNTER) for RQs to name in
 * mlx5_devx_rq_attr.counter_set_id; the object's id is the counter set id
 * (8 bits, never 0). Destroy it with mlx5_devx_cmd_destroy() once no RQ
 * names it.
 *
 * @return
 *   The object, or NULL with rte_errno set: ENOTSUP before asking when
 *   the device has no queue counters (max_qp_cnt 0); EAGAIN (or the
 *   status's errno) when the device has no counter set left, the refusal
 *   logged with its status and syndrome.
 */
__rte_internal
struct mlx5_devx_obj *
mlx5_devx_cmd_queue_counter_alloc(struct mlx5_common_device *cdev);

/**
 * Read a counter set (QUERY_Q_COUNTER) and, with @p clear, reset it to 0
 * in the same command (what is read is what was cleared).
 *
 * @param dcs
 *   A counter set from mlx5_devx_cmd_queue_counter_alloc().
 * @param clear
 *   Reset the counters after reading them.
 * @param info
 *   Receives the counters.
 *
 * @return
 *   0 on success, a negative errno value otherwise and rte_errno is set:
 *   -EINVAL for a NULL argument or an object whose id cannot be a counter
 *   set (above 255 or 0), logged; otherwise the refused command's errno.
 */
__rte_internal
int mlx5_devx_cmd_queue_counter_query(struct mlx5_devx_obj *dcs, bool clear,
				      struct mlx5_devx_q_counter_info *info);

#endif /* MLX5_DEVX_CMDS_H_ */
