/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * Cards and vHCAs: the process-global registry, the device list, the
 * accounting of commands (counters, fault injection, syndromes) and the
 * statistics tests read.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <rte_common.h>

#include "mlx5_sim_priv.h"

static struct {
	pthread_mutex_t lock;
	struct mlx5_sim_card *cards[MLX5_SIM_MAX_CARD + 1];
	TAILQ_HEAD(, mlx5_sim_vhca) vhcas;
} sim_registry = {
	.lock = PTHREAD_MUTEX_INITIALIZER,
	.vhcas = TAILQ_HEAD_INITIALIZER(sim_registry.vhcas),
};

/* One rule of the device: its syndrome, status and meaning. */
struct mlx5_sim_rule {
	uint32_t syndrome;
	uint8_t status;
	const char *text;
};

static const struct mlx5_sim_rule sim_rules[] = {
	{ MLX5_SIM_SYND_INJECTED, 0,
	  "fault injected (fail_cmd/fail_nth)" },
	{ MLX5_SIM_SYND_BAD_OPCODE, MLX5_CMD_STAT_BAD_OP_ERR,
	  "opcode not implemented by the device" },
	{ MLX5_SIM_SYND_IN_LEN, MLX5_CMD_STAT_BAD_INP_LEN_ERR,
	  "input mailbox shorter than the command's layout" },
	{ MLX5_SIM_SYND_OUT_LEN, MLX5_CMD_STAT_BAD_OUTP_LEN_ERR,
	  "output mailbox shorter than the command's layout" },
	{ MLX5_SIM_SYND_CAP_TYPE, MLX5_CMD_STAT_BAD_PARAM_ERR,
	  "capability type not supported" },
	{ MLX5_SIM_SYND_CAP_GENERAL_2_OFF, MLX5_CMD_STAT_BAD_PARAM_ERR,
	  "general_2 capabilities queried but hca_cap_2 is off" },
	{ MLX5_SIM_SYND_CAP_QOS_OFF, MLX5_CMD_STAT_BAD_PARAM_ERR,
	  "QoS capabilities queried but qos (packet pacing) is off" },
	{ MLX5_SIM_SYND_CAP_OTHER_FUNC, MLX5_CMD_STAT_BAD_PARAM_ERR,
	  "querying another function's capabilities is not supported" },
	{ MLX5_SIM_SYND_MKEY_ACCESS_MODE, MLX5_CMD_STAT_BAD_PARAM_ERR,
	  "mkey access mode not supported (only MTT, KLM, CROSSING)" },
	{ MLX5_SIM_SYND_MKEY_PD_UNKNOWN, MLX5_CMD_STAT_BAD_RES_ERR,
	  "mkc.pd is not a PD of this vHCA" },
	{ MLX5_SIM_SYND_MKEY_PD_FOREIGN, MLX5_CMD_STAT_BAD_RES_ERR,
	  "mkc.pd belongs to another context (uid)" },
	{ MLX5_SIM_SYND_MKEY_LENGTH64, MLX5_CMD_STAT_BAD_PARAM_ERR,
	  "length64 (2^64-byte mkey) over a umem" },
	{ MLX5_SIM_SYND_MKEY_LEN_ZERO, MLX5_CMD_STAT_BAD_PARAM_ERR,
	  "mkey length is 0" },
	{ MLX5_SIM_SYND_MKEY_RANGE_WRAP, MLX5_CMD_STAT_BAD_PARAM_ERR,
	  "start_addr + len wraps around" },
	{ MLX5_SIM_SYND_MKEY_MTT_NO_UMEM, MLX5_CMD_STAT_BAD_PARAM_ERR,
	  "MTT mkey without mkey_umem_valid: inline page lists not supported" },
	{ MLX5_SIM_SYND_MKEY_UMEM_NOT_MTT, MLX5_CMD_STAT_BAD_PARAM_ERR,
	  "mkey_umem_valid set for an access mode other than MTT" },
	{ MLX5_SIM_SYND_MKEY_UMEM_UNKNOWN, MLX5_CMD_STAT_BAD_RES_ERR,
	  "mkey_umem_id is not a umem of this vHCA" },
	{ MLX5_SIM_SYND_MKEY_UMEM_FOREIGN, MLX5_CMD_STAT_BAD_RES_ERR,
	  "the umem belongs to another context (uid)" },
	{ MLX5_SIM_SYND_MKEY_UMEM_RANGE, MLX5_CMD_STAT_BAD_PARAM_ERR,
	  "[mkey_umem_offset, +len) does not fit in the umem" },
	{ MLX5_SIM_SYND_MKEY_KLM_TOO_MANY, MLX5_CMD_STAT_BAD_PARAM_ERR,
	  "translations_octword_size above the device limit" },
	{ MLX5_SIM_SYND_MKEY_KLM_COUNT, MLX5_CMD_STAT_BAD_PARAM_ERR,
	  "translations_octword_actual_size exceeds translations_octword_size" },
	{ MLX5_SIM_SYND_MKEY_KLM_EMPTY, MLX5_CMD_STAT_BAD_PARAM_ERR,
	  "KLM mkey without entries must be created free" },
	{ MLX5_SIM_SYND_MKEY_KLM_ENTRY_LEN, MLX5_CMD_STAT_BAD_PARAM_ERR,
	  "KLM entry with byte_count 0" },
	{ MLX5_SIM_SYND_MKEY_KLM_ENTRY_MKEY, MLX5_CMD_STAT_BAD_RES_ERR,
	  "KLM entry names an mkey that does not exist on this vHCA" },
	{ MLX5_SIM_SYND_MKEY_CROSS_CAP, MLX5_CMD_STAT_BAD_PARAM_ERR,
	  "crossing mkey without the crossing_vhca_mkey capability" },
	{ MLX5_SIM_SYND_MKEY_CROSS_VHCA, MLX5_CMD_STAT_BAD_PARAM_ERR,
	  "crossing_target_vhca_id is not a vHCA of this card" },
	{ MLX5_SIM_SYND_MKEY_CROSS_TARGET, MLX5_CMD_STAT_BAD_RES_ERR,
	  "crossing target mkey does not exist on the target vHCA" },
	{ MLX5_SIM_SYND_MKEY_CROSS_NOT_ALLOWED, MLX5_CMD_STAT_BAD_PARAM_ERR,
	  "crossing target mkey not allowed for other-vHCA access" },
	{ MLX5_SIM_SYND_MKEY_CROSS_START, MLX5_CMD_STAT_BAD_PARAM_ERR,
	  "crossing mkey start_addr must be 0" },
	{ MLX5_SIM_SYND_MKEY_CROSS_FREE, MLX5_CMD_STAT_BAD_PARAM_ERR,
	  "crossing mkey cannot be created free" },
	{ MLX5_SIM_SYND_MKEY_TABLE_FULL, MLX5_CMD_STAT_NO_RES_ERR,
	  "mkey table full" },
	{ MLX5_SIM_SYND_MKEY_INDEX_RANGE, MLX5_CMD_STAT_IX_ERR,
	  "mkey index out of the table's range" },
	{ MLX5_SIM_SYND_MKEY_INDEX_UNKNOWN, MLX5_CMD_STAT_BAD_RES_ERR,
	  "no mkey at this index" },
	{ MLX5_SIM_SYND_MKEY_CRYPTO_CAP, MLX5_CMD_STAT_BAD_PARAM_ERR,
	  "crypto mkey on a device without crypto" },
	{ MLX5_SIM_SYND_MKEY_UPDATE_TAG_CAP, MLX5_CMD_STAT_BAD_PARAM_ERR,
	  "tag update on a device that cannot" },
	{ MLX5_SIM_SYND_MKEY_KSM_ENTITY, MLX5_CMD_STAT_BAD_PARAM_ERR,
	  "KSM entity size (log_page_size) above 2^31" },
	{ MLX5_SIM_SYND_MKEY_CROSS_NOT_MARKED, MLX5_CMD_STAT_BAD_PARAM_ERR,
	  "crossing target mkey not marked crossed_side_mkey" },
	{ MLX5_SIM_SYND_GOBJ_TYPE, MLX5_CMD_STAT_BAD_PARAM_ERR,
	  "general object type not supported" },
	{ MLX5_SIM_SYND_GOBJ_NOT_ALIAS, MLX5_CMD_STAT_BAD_PARAM_ERR,
	  "mkey general objects exist only as aliases (alias_object=1)" },
	{ MLX5_SIM_SYND_GOBJ_UNKNOWN, MLX5_CMD_STAT_BAD_RES_ERR,
	  "no general object with this type and id" },
	{ MLX5_SIM_SYND_GOBJ_MODIFY, MLX5_CMD_STAT_BAD_PARAM_ERR,
	  "alias objects cannot be modified" },
	{ MLX5_SIM_SYND_ALIAS_CAP, MLX5_CMD_STAT_BAD_PARAM_ERR,
	  "importer lacks cross_vhca_object_to_object LOCAL_MKEY_TO_REMOTE_MKEY" },
	{ MLX5_SIM_SYND_ALIAS_VHCA, MLX5_CMD_STAT_BAD_PARAM_ERR,
	  "vhca_id_to_be_accessed is not a vHCA of this card" },
	{ MLX5_SIM_SYND_ALIAS_OBJECT, MLX5_CMD_STAT_BAD_PARAM_ERR,
	  "object_id_to_be_accessed is not an mkey of the owner vHCA" },
	{ MLX5_SIM_SYND_ALIAS_NOT_ALLOWED, MLX5_CMD_STAT_BAD_PARAM_ERR,
	  "the owner did not allow this object for other-vHCA access" },
	{ MLX5_SIM_SYND_ALIAS_KEY, MLX5_CMD_STAT_BAD_PARAM_ERR,
	  "access_key differs from the key the owner allowed" },
	{ MLX5_SIM_SYND_ALIAS_PD_UNKNOWN, MLX5_CMD_STAT_BAD_RES_ERR,
	  "metadata pdn is not a PD of the importer's context" },
	{ MLX5_SIM_SYND_ALLOW_CAP, MLX5_CMD_STAT_BAD_PARAM_ERR,
	  "allowed_object_for_other_vhca_access lacks MKEY" },
	{ MLX5_SIM_SYND_ALLOW_TYPE, MLX5_CMD_STAT_BAD_PARAM_ERR,
	  "object_type_to_be_accessed not supported (only MKEY 0xff01)" },
	{ MLX5_SIM_SYND_ALLOW_OBJECT, MLX5_CMD_STAT_BAD_RES_ERR,
	  "object_id_to_be_accessed is not an mkey of this vHCA" },
	{ MLX5_SIM_SYND_ALLOW_FOREIGN, MLX5_CMD_STAT_BAD_RES_ERR,
	  "the mkey belongs to another context (uid)" },
	{ MLX5_SIM_SYND_ALLOW_INDIRECT, MLX5_CMD_STAT_BAD_PARAM_ERR,
	  "crossing and alias keys cannot be offered to other vHCAs" },
	{ MLX5_SIM_SYND_PD_TABLE_FULL, MLX5_CMD_STAT_NO_RES_ERR,
	  "PD table full" },
	{ MLX5_SIM_SYND_UAR_TABLE_FULL, MLX5_CMD_STAT_NO_RES_ERR,
	  "UAR pages exhausted" },
	{ MLX5_SIM_SYND_UMEM_TABLE_FULL, MLX5_CMD_STAT_NO_RES_ERR,
	  "umem table full" },
	{ MLX5_SIM_SYND_UMEM_BUSY, MLX5_CMD_STAT_BAD_RES_STATE_ERR,
	  "umem still backs an mkey or a queue" },
	{ MLX5_SIM_SYND_DM_FULL, MLX5_CMD_STAT_NO_RES_ERR,
	  "device memory exhausted" },
	{ MLX5_SIM_SYND_UCTX_TABLE_FULL, MLX5_CMD_STAT_NO_RES_ERR,
	  "DEVX uid space exhausted" },
	{ MLX5_SIM_SYND_PD_UNKNOWN, MLX5_CMD_STAT_BAD_RES_ERR,
	  "no such PD of this context (DEALLOC_PD)" },
	{ MLX5_SIM_SYND_CQ_TABLE_FULL, MLX5_CMD_STAT_NO_RES_ERR,
	  "CQ table full" },
	{ MLX5_SIM_SYND_CQ_SIZE, MLX5_CMD_STAT_BAD_PARAM_ERR,
	  "log_cq_size above log_max_cq_sz" },
	{ MLX5_SIM_SYND_CQ_CQE_SIZE, MLX5_CMD_STAT_BAD_PARAM_ERR,
	  "cqe_sz other than 64 bytes (the device models 64-byte CQEs)" },
	{ MLX5_SIM_SYND_CQ_EQN, MLX5_CMD_STAT_BAD_PARAM_ERR,
	  "c_eqn is not an event queue of the device" },
	{ MLX5_SIM_SYND_CQ_UNKNOWN, MLX5_CMD_STAT_BAD_RES_ERR,
	  "no CQ with this number in this context" },
	{ MLX5_SIM_SYND_CQ_BUSY, MLX5_CMD_STAT_BAD_RES_STATE_ERR,
	  "CQ still used by a QP" },
	{ MLX5_SIM_SYND_CQ_COMP, MLX5_CMD_STAT_BAD_PARAM_ERR,
	  "cqe_comp_en without the cqe_compression capability" },
	{ MLX5_SIM_SYND_CQ_COMP_FORMAT, MLX5_CMD_STAT_BAD_PARAM_ERR,
	  "mini-CQE format other than hash or checksum (mini_cqe_res_format"
	  " 0 or 1, no _ext, basic layout): the device announces no other" },
	{ MLX5_SIM_SYND_Q_UMEM_UNKNOWN, MLX5_CMD_STAT_BAD_RES_ERR,
	  "ring or doorbell umem is not a umem of this context" },
	{ MLX5_SIM_SYND_Q_UMEM_RANGE, MLX5_CMD_STAT_BAD_PARAM_ERR,
	  "ring or doorbell record beyond the end of its umem" },
	{ MLX5_SIM_SYND_Q_DBR_ALIGN, MLX5_CMD_STAT_BAD_PARAM_ERR,
	  "doorbell record not 8-byte aligned" },
	{ MLX5_SIM_SYND_Q_UAR, MLX5_CMD_STAT_BAD_PARAM_ERR,
	  "uar_page is not a UAR page of this context" },
	{ MLX5_SIM_SYND_Q_UMEM_READ_ONLY, MLX5_CMD_STAT_BAD_PARAM_ERR,
	  "CQ ring umem registered without local write (the device writes it)" },
	{ MLX5_SIM_SYND_Q_RING_ALIGN, MLX5_CMD_STAT_BAD_PARAM_ERR,
	  "CQ ring not 64-byte aligned (cqc's page offset counts 64 bytes)" },
	{ MLX5_SIM_SYND_QP_TABLE_FULL, MLX5_CMD_STAT_NO_RES_ERR,
	  "QP table full" },
	{ MLX5_SIM_SYND_QP_TYPE, MLX5_CMD_STAT_BAD_PARAM_ERR,
	  "QP service type other than RC, UC, UD or XRC, or no send queue"
	  " (only an XRC target has none)" },
	{ MLX5_SIM_SYND_QP_PD, MLX5_CMD_STAT_BAD_RES_ERR,
	  "QP pd is not a PD of this context" },
	{ MLX5_SIM_SYND_QP_CQ, MLX5_CMD_STAT_BAD_RES_ERR,
	  "cqn_snd or cqn_rcv is not a CQ of this context" },
	{ MLX5_SIM_SYND_QP_SIZE, MLX5_CMD_STAT_BAD_PARAM_ERR,
	  "log_sq_size or log_rq_size above log_max_qp_sz" },
	{ MLX5_SIM_SYND_QP_RQ_TYPE, MLX5_CMD_STAT_BAD_PARAM_ERR,
	  "rq_type other than regular, zero-size or SRQ, or srqn not an RMP"
	  " of this context" },
	{ MLX5_SIM_SYND_QP_TS_FORMAT, MLX5_CMD_STAT_BAD_PARAM_ERR,
	  "ts_format reserved value" },
	{ MLX5_SIM_SYND_QP_UNKNOWN, MLX5_CMD_STAT_BAD_RES_ERR,
	  "no QP with this number in this context" },
	{ MLX5_SIM_SYND_QP_STATE, MLX5_CMD_STAT_BAD_QP_STATE_ERR,
	  "transition not allowed from the QP's state" },
	{ MLX5_SIM_SYND_QP_PORT, MLX5_CMD_STAT_BAD_PARAM_ERR,
	  "primary_address_path.vhca_port_num is not a port of the vHCA" },
	{ MLX5_SIM_SYND_QP_MTU, MLX5_CMD_STAT_BAD_PARAM_ERR,
	  "QP mtu not 256..4096 bytes" },
	{ MLX5_SIM_SYND_QP_REMOTE, MLX5_CMD_STAT_BAD_PARAM_ERR,
	  "remote_qpn of a loopback QP is not a QP of this vHCA" },
	{ MLX5_SIM_SYND_ETH_TABLE_FULL, MLX5_CMD_STAT_NO_RES_ERR,
	  "transport domain or TIS table full" },
	{ MLX5_SIM_SYND_ETH_TD, MLX5_CMD_STAT_BAD_RES_ERR,
	  "transport_domain is not a transport domain of this context" },
	{ MLX5_SIM_SYND_ETH_PORT, MLX5_CMD_STAT_BAD_PARAM_ERR,
	  "lag_tx_port_affinity names a port the vHCA does not have" },
	{ MLX5_SIM_SYND_ETH_PD, MLX5_CMD_STAT_BAD_RES_ERR,
	  "pd is not a PD of this context" },
	{ MLX5_SIM_SYND_ETH_STATE, MLX5_CMD_STAT_BAD_PARAM_ERR,
	  "SQ/RQ state not RST at creation, or a transition not allowed" },
	{ MLX5_SIM_SYND_ETH_CQ, MLX5_CMD_STAT_BAD_RES_ERR,
	  "cqn is not a CQ of this context" },
	{ MLX5_SIM_SYND_ETH_TIS, MLX5_CMD_STAT_BAD_RES_ERR,
	  "SQ needs exactly one TIS of this context (tis_lst_sz 1)" },
	{ MLX5_SIM_SYND_ETH_RATE_INDEX, MLX5_CMD_STAT_BAD_PARAM_ERR,
	  "packet_pacing_rate_limit_index is not a rate entry in use (or"
	  " set on a transition to another state than RDY)" },
	{ MLX5_SIM_SYND_ETH_WQ_TYPE, MLX5_CMD_STAT_BAD_PARAM_ERR,
	  "work queue type not cyclic (SQ) or cyclic/linked list (RQ)" },
	{ MLX5_SIM_SYND_ETH_WQ_STRIDE, MLX5_CMD_STAT_BAD_PARAM_ERR,
	  "log_wq_stride not 6 (SQ) or 4..11 (RQ)" },
	{ MLX5_SIM_SYND_ETH_WQ_SIZE, MLX5_CMD_STAT_BAD_PARAM_ERR,
	  "log_wq_sz above 15" },
	{ MLX5_SIM_SYND_ETH_COUNTER, MLX5_CMD_STAT_BAD_RES_ERR,
	  "counter_set_id is not a queue counter set of this context" },
	{ MLX5_SIM_SYND_ETH_UNKNOWN, MLX5_CMD_STAT_BAD_RES_ERR,
	  "no such SQ, RQ, TIS or transport domain in this context" },
	{ MLX5_SIM_SYND_ETH_CUR_STATE, MLX5_CMD_STAT_BAD_RES_STATE_ERR,
	  "the command's current state is not the queue's state" },
	{ MLX5_SIM_SYND_ETH_BITMASK, MLX5_CMD_STAT_BAD_PARAM_ERR,
	  "modify_bitmask names a field that cannot be modified" },
	{ MLX5_SIM_SYND_ETH_OTHER_VPORT, MLX5_CMD_STAT_BAD_PARAM_ERR,
	  "other_vport: the vHCA is not an e-switch manager" },
	{ MLX5_SIM_SYND_ETH_RQT_SIZE, MLX5_CMD_STAT_BAD_PARAM_ERR,
	  "RQT: not a list of RQs, or 0 entries, more than rqt_max_size or"
	  " than 2^rss_ind_tbl_cap" },
	{ MLX5_SIM_SYND_ETH_RQT_RQ, MLX5_CMD_STAT_BAD_RES_ERR,
	  "RQT entry is not an RQ of this context" },
	{ MLX5_SIM_SYND_ETH_TIR_DEST, MLX5_CMD_STAT_BAD_RES_ERR,
	  "TIR: disp_type, inline_rqn or indirect_table names nothing of"
	  " this context" },
	{ MLX5_SIM_SYND_ETH_TIR_HASH, MLX5_CMD_STAT_BAD_PARAM_ERR,
	  "TIR hash: function other than Toeplitz, or fields other than IPs"
	  " and L4 ports (not modelled)" },
	{ MLX5_SIM_SYND_ETH_MPW, MLX5_CMD_STAT_BAD_PARAM_ERR,
	  "allow_multi_pkt_send_wqe without the enhanced_multi_pkt_send_wqe"
	  " capability" },
	{ MLX5_SIM_SYND_ETH_TIR_FEATURE, MLX5_CMD_STAT_BAD_PARAM_ERR,
	  "a feature the device does not have: TLS, tunnel offloads, LRO,"
	  " hairpin, software parsing, VLAN stripping (vsd 0)" },
	{ MLX5_SIM_SYND_ETH_BUSY, MLX5_CMD_STAT_BAD_RES_STATE_ERR,
	  "TD, TIS, RQ or RQT still named by another object" },
	{ MLX5_SIM_SYND_DEK_ALIAS, MLX5_CMD_STAT_BAD_PARAM_ERR,
	  "a DEK cannot be an alias object" },
	{ MLX5_SIM_SYND_DEK_PURPOSE, MLX5_CMD_STAT_BAD_PARAM_ERR,
	  "DEK key_purpose other than AES-XTS (not modelled)" },
	{ MLX5_SIM_SYND_DEK_SIZE, MLX5_CMD_STAT_BAD_PARAM_ERR,
	  "DEK key_size other than 128 or 256 bits" },
	{ MLX5_SIM_SYND_DEK_PD, MLX5_CMD_STAT_BAD_RES_ERR,
	  "DEK pd is not a PD of this context" },
	{ MLX5_SIM_SYND_DEK_TABLE_FULL, MLX5_CMD_STAT_NO_RES_ERR,
	  "DEK table full" },
	{ MLX5_SIM_SYND_DEK_LOGIN, MLX5_CMD_STAT_BAD_RES_STATE_ERR,
	  "wrapped import: a DEK needs a crypto login of its context" },
	{ MLX5_SIM_SYND_DEK_UNWRAP, MLX5_CMD_STAT_BAD_PARAM_ERR,
	  "wrapped import: the DEK's key does not unwrap under the login's"
	  " import KEK (RFC 3394 integrity check)" },
	{ MLX5_SIM_SYND_CRYPTO_COMMISSIONING, MLX5_CMD_STAT_BAD_RES_STATE_ERR,
	  "wrapped import: the crypto is in commissioning (the"
	  " CRYPTO_OPERATIONAL register was never set)" },
	{ MLX5_SIM_SYND_LOGIN_POINTER, MLX5_CMD_STAT_BAD_PARAM_ERR,
	  "crypto login: no such credential or import KEK (the device has"
	  " those of its CRYPTO_OPERATIONAL register, 0, only)" },
	{ MLX5_SIM_SYND_LOGIN_DENIED, MLX5_CMD_STAT_BAD_PARAM_ERR,
	  "crypto login: the wrapped credential does not unwrap under the"
	  " import KEK or is not the credential named" },
	{ MLX5_SIM_SYND_LOGIN_BUSY, MLX5_CMD_STAT_BAD_RES_STATE_ERR,
	  "crypto login: the context has one already" },
	{ MLX5_SIM_SYND_QCNT_TABLE_FULL, MLX5_CMD_STAT_NO_RES_ERR,
	  "every queue counter set of the vHCA is allocated (max_qp_cnt)" },
	{ MLX5_SIM_SYND_QCNT_UNKNOWN, MLX5_CMD_STAT_BAD_RES_ERR,
	  "counter_set_id is not a queue counter set of this context" },
	{ MLX5_SIM_SYND_QCNT_BUSY, MLX5_CMD_STAT_BAD_RES_STATE_ERR,
	  "queue counter set still named by an RQ" },
	{ MLX5_SIM_SYND_FCNT_TABLE_FULL, MLX5_CMD_STAT_NO_RES_ERR,
	  "every flow counter id of the vHCA is allocated" },
	{ MLX5_SIM_SYND_FCNT_UNKNOWN, MLX5_CMD_STAT_BAD_RES_ERR,
	  "flow_counter_id is not a flow counter of this context" },
	{ MLX5_SIM_SYND_FCNT_BUSY, MLX5_CMD_STAT_BAD_RES_STATE_ERR,
	  "flow counter still named by a steering rule" },
	{ MLX5_SIM_SYND_FCNT_BULK, MLX5_CMD_STAT_BAD_PARAM_ERR,
	  "flow counters in bulk (flow_counter_bulk, num_of_counters above"
	  " 1) or dumped to memory: the device announces neither"
	  " (flow_counter_bulk_alloc, flow_counters_dump 0)" },
	{ MLX5_SIM_SYND_VERBS_LAG_PORT, MLX5_CMD_STAT_BAD_PARAM_ERR,
	  "lag_tx_port_affinity beyond the lag ports (RTS2RTS: 1..ports)" },
	{ MLX5_SIM_SYND_VERBS_CQ_MODIFY, MLX5_CMD_STAT_BAD_PARAM_ERR,
	  "MODIFY_CQ other than moderation (period, count): not modelled" },
	{ MLX5_SIM_SYND_RMP_TABLE_FULL, MLX5_CMD_STAT_NO_RES_ERR,
	  "QP/RQ/RMP number space full" },
	{ MLX5_SIM_SYND_RMP_UNKNOWN, MLX5_CMD_STAT_BAD_RES_ERR,
	  "no such RMP in this context" },
	{ MLX5_SIM_SYND_RMP_PARAM, MLX5_CMD_STAT_BAD_PARAM_ERR,
	  "RMP context: state not RDY, or work queue type, stride or size" },
	{ MLX5_SIM_SYND_RMP_PD, MLX5_CMD_STAT_BAD_RES_ERR,
	  "RMP pd is not a PD of this context" },
	{ MLX5_SIM_SYND_RMP_BITMASK, MLX5_CMD_STAT_BAD_PARAM_ERR,
	  "MODIFY_RMP of another field than lwm, or to another state" },
	{ MLX5_SIM_SYND_RMP_STATE, MLX5_CMD_STAT_BAD_RES_STATE_ERR,
	  "MODIFY_RMP rmp_state is not the RMP's state" },
	{ MLX5_SIM_SYND_RMP_BUSY, MLX5_CMD_STAT_BAD_RES_STATE_ERR,
	  "RMP still used by a QP" },
	{ MLX5_SIM_SYND_XRCD_UNKNOWN, MLX5_CMD_STAT_BAD_RES_ERR,
	  "no such XRC domain in this context" },
	{ MLX5_SIM_SYND_XRCD_BUSY, MLX5_CMD_STAT_BAD_RES_STATE_ERR,
	  "XRC domain still used by an XRC SRQ or XRC target QP" },
	{ MLX5_SIM_SYND_XRCD_TABLE_FULL, MLX5_CMD_STAT_NO_RES_ERR,
	  "XRC domain table full" },
	{ MLX5_SIM_SYND_XSRQ_PARAM, MLX5_CMD_STAT_BAD_PARAM_ERR,
	  "XRC SRQ context: state not GOOD, or stride or size" },
	{ MLX5_SIM_SYND_XSRQ_RES, MLX5_CMD_STAT_BAD_RES_ERR,
	  "XRC SRQ xrcd, pd or cqn is not this context's" },
	{ MLX5_SIM_SYND_XSRQ_UNKNOWN, MLX5_CMD_STAT_BAD_RES_ERR,
	  "no such XRC SRQ in this context" },
	{ MLX5_SIM_SYND_QP_XRCD, MLX5_CMD_STAT_BAD_RES_ERR,
	  "XRC target QP: xrcd is not an XRC domain of this context" },
};

static const struct mlx5_sim_rule *
sim_rule(uint32_t syndrome)
{
	unsigned int i;

	for (i = 0; i < RTE_DIM(sim_rules); i++)
		if (sim_rules[i].syndrome == syndrome)
			return &sim_rules[i];
	return NULL;
}

const char *
mlx5_sim_syndrome_text(uint32_t syndrome)
{
	const struct mlx5_sim_rule *rule = sim_rule(syndrome);

	return rule != NULL ? rule->text : "unknown syndrome";
}

uint8_t
mlx5_sim_syndrome_status(uint32_t syndrome)
{
	const struct mlx5_sim_rule *rule = sim_rule(syndrome);

	/* An unlisted syndrome is a sim bug: report an internal error. */
	return rule != NULL && rule->status ? rule->status :
					       MLX5_CMD_STAT_INT_ERR;
}

static const char *const sim_status_names[] = {
	[MLX5_CMD_STAT_OK] = "OK",
	[MLX5_CMD_STAT_INT_ERR] = "INT_ERR",
	[MLX5_CMD_STAT_BAD_OP_ERR] = "BAD_OP",
	[MLX5_CMD_STAT_BAD_PARAM_ERR] = "BAD_PARAM",
	[MLX5_CMD_STAT_BAD_SYS_STATE_ERR] = "BAD_SYS_STATE",
	[MLX5_CMD_STAT_BAD_RES_ERR] = "BAD_RES",
	[MLX5_CMD_STAT_RES_BUSY] = "RES_BUSY",
	[MLX5_CMD_STAT_NOT_READY] = "NOT_READY",
	[MLX5_CMD_STAT_LIM_ERR] = "LIM",
	[MLX5_CMD_STAT_BAD_RES_STATE_ERR] = "BAD_RES_STATE",
	[MLX5_CMD_STAT_IX_ERR] = "BAD_INDEX",
	[MLX5_CMD_STAT_NO_RES_ERR] = "NO_RESOURCES",
	[MLX5_CMD_STAT_BAD_QP_STATE_ERR] = "BAD_QP_STATE",
	[MLX5_CMD_STAT_BAD_PKT_ERR] = "BAD_PKT",
	[MLX5_CMD_STAT_BAD_SIZE_OUTS_CQES_ERR] = "BAD_SIZE_OUTS_CQES",
	[MLX5_CMD_STAT_BAD_INP_LEN_ERR] = "BAD_INPUT_LEN",
	[MLX5_CMD_STAT_BAD_OUTP_LEN_ERR] = "BAD_OUTPUT_LEN",
};

const char *
mlx5_sim_status_name(uint8_t status)
{
	if (status < RTE_DIM(sim_status_names) &&
	    sim_status_names[status] != NULL)
		return sim_status_names[status];
	return "UNKNOWN";
}

/*
 * The errno the kernel makes of a status (cmd.c, cmd_status_to_err()): what
 * a verbs-style call, a destroy or a umem registration returns when the
 * device refuses it, with no mailbox to read.
 */
int
mlx5_sim_status_errno(uint8_t status)
{
	switch (status) {
	case MLX5_CMD_STAT_OK:
		return 0;
	case MLX5_CMD_STAT_BAD_OP_ERR:
	case MLX5_CMD_STAT_BAD_PARAM_ERR:
	case MLX5_CMD_STAT_BAD_RES_ERR:
	case MLX5_CMD_STAT_BAD_RES_STATE_ERR:
	case MLX5_CMD_STAT_IX_ERR:
	case MLX5_CMD_STAT_BAD_QP_STATE_ERR:
	case MLX5_CMD_STAT_BAD_PKT_ERR:
	case MLX5_CMD_STAT_BAD_SIZE_OUTS_CQES_ERR:
		return EINVAL;
	case MLX5_CMD_STAT_RES_BUSY:
		return EBUSY;
	case MLX5_CMD_STAT_NOT_READY:
	case MLX5_CMD_STAT_NO_RES_ERR:
		return EAGAIN;
	case MLX5_CMD_STAT_LIM_ERR:
		return ENOMEM;
	default: /* INT_ERR, BAD_SYS_STATE, BAD_INPUT_LEN, BAD_OUTPUT_LEN. */
		return EIO;
	}
}

int
mlx5_sim_status_parse(const char *name, uint8_t *status)
{
	unsigned int i;

	for (i = 0; i < RTE_DIM(sim_status_names); i++)
		if (sim_status_names[i] != NULL &&
		    strcasecmp(sim_status_names[i], name) == 0) {
			*status = (uint8_t)i;
			return 0;
		}
	return -EINVAL;
}

void
mlx5_sim_registry_lock(void)
{
	pthread_mutex_lock(&sim_registry.lock);
}

void
mlx5_sim_registry_unlock(void)
{
	pthread_mutex_unlock(&sim_registry.lock);
}

void
mlx5_sim_vhca_lock(struct mlx5_sim_vhca *vhca)
{
	pthread_mutex_lock(&vhca->card->lock);
}

void
mlx5_sim_vhca_unlock(struct mlx5_sim_vhca *vhca)
{
	pthread_mutex_unlock(&vhca->card->lock);
}

struct mlx5_sim_vhca *
mlx5_sim_card_vhca(struct mlx5_sim_card *card, uint16_t vhca_id)
{
	struct mlx5_sim_vhca *vhca;

	TAILQ_FOREACH(vhca, &card->vhcas, card_next)
		if (vhca->vhca_id == vhca_id)
			return vhca;
	return NULL;
}

struct mlx5_sim_vhca *
mlx5_sim_vhca_of_device(struct ibv_device *dev)
{
	struct mlx5_sim_vhca *vhca;

	if (dev == NULL)
		return NULL;
	mlx5_sim_registry_lock();
	TAILQ_FOREACH(vhca, &sim_registry.vhcas, next)
		if (&vhca->ibdev == dev)
			break;
	mlx5_sim_registry_unlock();
	return vhca;
}

/* Find a vHCA by card and id; registry lock held. */
static struct mlx5_sim_vhca *
sim_vhca_lookup(uint16_t card_id, uint16_t vhca_id)
{
	struct mlx5_sim_card *card;
	struct mlx5_sim_vhca *vhca;

	if (card_id > MLX5_SIM_MAX_CARD)
		return NULL;
	card = sim_registry.cards[card_id];
	if (card == NULL)
		return NULL;
	pthread_mutex_lock(&card->lock);
	vhca = mlx5_sim_card_vhca(card, vhca_id);
	pthread_mutex_unlock(&card->lock);
	return vhca;
}

struct mlx5_sim_vhca *
mlx5_sim_vhca_find(uint16_t card_id, uint16_t vhca_id)
{
	struct mlx5_sim_vhca *vhca;

	mlx5_sim_registry_lock();
	vhca = sim_vhca_lookup(card_id, vhca_id);
	mlx5_sim_registry_unlock();
	return vhca;
}

/*
 * A digest of a secret setting (FNV-1a, 64 bits), to tell two values
 * apart; never logged.
 */
static uint64_t
sim_secret_digest(const uint8_t *b, size_t len)
{
	uint64_t h = UINT64_C(0xcbf29ce484222325);
	size_t i;

	for (i = 0; i < len; i++)
		h = (h ^ b[i]) * UINT64_C(0x100000001b3);
	return h ^ len;
}

void
mlx5_sim_caps_wipe(struct mlx5_sim_caps *caps)
{
	explicit_bzero(caps->crypto_kek, sizeof(caps->crypto_kek));
	explicit_bzero(caps->crypto_credential,
		       sizeof(caps->crypto_credential));
}

/* The value of the capability devarg @bit in @caps. */
static uint64_t
sim_cap_value(const struct mlx5_sim_caps *caps, uint32_t bit)
{
	switch (bit) {
	case MLX5_SIM_CAP_HCA_CAP_2:
		return caps->hca_cap_2;
	case MLX5_SIM_CAP_CROSSING:
		return caps->crossing;
	case MLX5_SIM_CAP_PACING:
		return caps->pacing;
	case MLX5_SIM_CAP_PP_TABLE_SIZE:
		return caps->pp_table_size;
	case MLX5_SIM_CAP_PP_MIN_RATE:
		return caps->pp_min_rate;
	case MLX5_SIM_CAP_PP_MAX_RATE:
		return caps->pp_max_rate;
	case MLX5_SIM_CAP_UPDATE_TAG:
		return caps->update_tag;
	case MLX5_SIM_CAP_ODP:
		return caps->odp;
	case MLX5_SIM_CAP_PP_UID:
		return caps->pp_uid;
	case MLX5_SIM_CAP_SIGNATURE:
		return caps->signature;
	case MLX5_SIM_CAP_CROSS_RULE:
		return caps->cross_rule;
	case MLX5_SIM_CAP_ALIAS_STATUS:
		return caps->alias_status;
	case MLX5_SIM_CAP_PORTS:
		return caps->nports;
	case MLX5_SIM_CAP_WIRE1:
		return caps->wire[0];
	case MLX5_SIM_CAP_WIRE2:
		return caps->wire[1];
	case MLX5_SIM_CAP_PACE_CLOCK:
		return caps->pace_wall;
	case MLX5_SIM_CAP_SPEED:
		return caps->speed_mbps;
	case MLX5_SIM_CAP_DEVICE_ID:
		return caps->device_id;
	case MLX5_SIM_CAP_DM_SIZE:
		return caps->dm_size;
	case MLX5_SIM_CAP_LOG_MAX_MKEY:
		return caps->log_max_mkey;
	case MLX5_SIM_CAP_CQE_COMP:
		return caps->cqe_comp_max;
	case MLX5_SIM_CAP_EMPW:
		return caps->empw;
	case MLX5_SIM_CAP_CRYPTO_KEK:
		return sim_secret_digest(caps->crypto_kek,
					 caps->crypto_kek_len);
	case MLX5_SIM_CAP_CRYPTO_CREDENTIAL:
		return sim_secret_digest(caps->crypto_credential,
					 sizeof(caps->crypto_credential));
	default:
		/* 0 none, 1 plaintext, 3 wrapped. */
		return caps->crypto | (uint64_t)caps->crypto_wrapped << 1;
	}
}

/* Report a capability a later probe tries to change. */
static int
sim_caps_check(const struct mlx5_sim_vhca *vhca,
	       const struct mlx5_sim_caps *caps, uint32_t given)
{
	const struct mlx5_sim_caps *cur = &vhca->caps;
	static const struct {
		uint32_t bit;
		const char *key;
	} keys[] = {
		{ MLX5_SIM_CAP_HCA_CAP_2, "hca_cap_2" },
		{ MLX5_SIM_CAP_CROSSING, "crossing" },
		{ MLX5_SIM_CAP_PACING, "pacing" },
		{ MLX5_SIM_CAP_PP_TABLE_SIZE, "pp_table_size" },
		{ MLX5_SIM_CAP_PP_MIN_RATE, "pp_min_rate" },
		{ MLX5_SIM_CAP_PP_MAX_RATE, "pp_max_rate" },
		{ MLX5_SIM_CAP_UPDATE_TAG, "update_tag" },
		{ MLX5_SIM_CAP_CRYPTO, "crypto" },
		{ MLX5_SIM_CAP_ODP, "odp" },
		{ MLX5_SIM_CAP_PP_UID, "pp_uid" },
		{ MLX5_SIM_CAP_SIGNATURE, "signature" },
		{ MLX5_SIM_CAP_CROSS_RULE, "cross_rule" },
		{ MLX5_SIM_CAP_ALIAS_STATUS, "alias_status" },
		{ MLX5_SIM_CAP_PORTS, "ports" },
		{ MLX5_SIM_CAP_WIRE1, "wire" },
		{ MLX5_SIM_CAP_WIRE2, "wire2" },
		{ MLX5_SIM_CAP_PACE_CLOCK, "pace_clock" },
		{ MLX5_SIM_CAP_SPEED, "speed" },
		{ MLX5_SIM_CAP_DEVICE_ID, "device_id" },
		{ MLX5_SIM_CAP_DM_SIZE, "dm_size" },
		{ MLX5_SIM_CAP_LOG_MAX_MKEY, "log_max_mkey" },
		{ MLX5_SIM_CAP_CQE_COMP, "cqe_comp" },
		{ MLX5_SIM_CAP_EMPW, "empw" },
		{ MLX5_SIM_CAP_CRYPTO_KEK, "crypto_kek" },
		{ MLX5_SIM_CAP_CRYPTO_CREDENTIAL, "crypto_credential" },
	};
	unsigned int i;

	for (i = 0; i < RTE_DIM(keys); i++) {
		uint64_t have, want;

		if (!(given & keys[i].bit))
			continue;
		have = sim_cap_value(cur, keys[i].bit);
		want = sim_cap_value(caps, keys[i].bit);
		if (have != want && (keys[i].bit & MLX5_SIM_CAP_SECRETS)) {
			SIM_LOG(ERR, "vHCA %u of card %u exists with another %s;"
				" capabilities are fixed at creation",
				vhca->vhca_id, vhca->card->id, keys[i].key);
			return -EEXIST;
		}
		if (have != want) {
			SIM_LOG(ERR, "vHCA %u of card %u exists with %s=%" PRIu64
				"; capabilities are fixed at creation, %s=%"
				PRIu64 " refused", vhca->vhca_id,
				vhca->card->id, keys[i].key, have, keys[i].key,
				want);
			return -EEXIST;
		}
	}
	return 0;
}

static struct mlx5_sim_vhca *
sim_vhca_new(struct mlx5_sim_card *card, uint16_t vhca_id,
	     const struct mlx5_sim_caps *caps)
{
	struct mlx5_sim_vhca *vhca = calloc(1, sizeof(*vhca));

	if (vhca == NULL)
		return NULL;
	if (caps->pp_table_size > 1) {
		vhca->pp = calloc(caps->pp_table_size - 1, sizeof(*vhca->pp));
		if (vhca->pp == NULL) {
			free(vhca);
			return NULL;
		}
	}
	vhca->card = card;
	vhca->vhca_id = vhca_id;
	vhca->caps = *caps;
	TAILQ_INIT(&vhca->files);
	vhca->mkey_hint = 1;
	vhca->next_serial = 1;
	vhca->next_variant = 0x5a;
	vhca->next_pdn = MLX5_SIM_PDN_BASE;
	vhca->next_umem_id = 1;
	vhca->next_uar_page = 1;
	vhca->cqs.max = MLX5_SIM_MAX_CQS;
	vhca->cqs.next = 1;
	vhca->qps.max = MLX5_SIM_MAX_QPS;
	vhca->qps.next = 1;
	vhca->tiss.max = MLX5_SIM_MAX_QPS;
	vhca->tiss.next = 1;
	vhca->tds.max = MLX5_SIM_MAX_QPS;
	vhca->tds.next = 1;
	vhca->fcnts.max = MLX5_SIM_MAX_QPS;
	vhca->fcnts.next = 1;
	vhca->deks.max = MLX5_SIM_MAX_QPS;
	vhca->deks.next = 1;
	vhca->xrcds.max = MLX5_SIM_MAX_XRCDS;
	vhca->xrcds.next = 1;
	vhca->rqts.max = MLX5_SIM_MAX_QPS;
	vhca->rqts.next = 1;
	vhca->tirs.max = MLX5_SIM_MAX_QPS;
	vhca->tirs.next = 1;
	vhca->next_uid = 1;
	vhca->xgen = 1;
	TAILQ_INIT(&vhca->flows);
	mlx5_sim_ports_init(vhca);
	vhca->ibdev.node_type = IBV_NODE_CA;
	vhca->ibdev.transport_type = IBV_TRANSPORT_IB;
	snprintf(vhca->ibdev.name, sizeof(vhca->ibdev.name),
		 "mlx5_sim_c%u_v%u", card->id, vhca_id);
	snprintf(vhca->ibdev.dev_name, sizeof(vhca->ibdev.dev_name),
		 "uverbs_sim_c%u_v%u", card->id, vhca_id);
	snprintf(vhca->ibdev.dev_path, sizeof(vhca->ibdev.dev_path),
		 "/sys/class/infiniband_verbs/%s", vhca->ibdev.dev_name);
	snprintf(vhca->ibdev.ibdev_path, sizeof(vhca->ibdev.ibdev_path),
		 "/sys/class/infiniband/%s", vhca->ibdev.name);
	return vhca;
}

int
mlx5_sim_vhca_get(uint16_t card_id, uint16_t vhca_id,
		  const struct mlx5_sim_caps *caps, uint32_t caps_given,
		  struct mlx5_sim_vhca **out)
{
	struct mlx5_sim_card *card;
	struct mlx5_sim_vhca *vhca;
	int ret = 0;

	if (card_id > MLX5_SIM_MAX_CARD) {
		errno = EINVAL;
		return -EINVAL;
	}
	mlx5_sim_registry_lock();
	card = sim_registry.cards[card_id];
	if (card == NULL) {
		card = calloc(1, sizeof(*card));
		if (card == NULL) {
			ret = -ENOMEM;
			goto out;
		}
		card->id = card_id;
		pthread_mutex_init(&card->lock, NULL);
		TAILQ_INIT(&card->vhcas);
		sim_registry.cards[card_id] = card;
	}
	pthread_mutex_lock(&card->lock);
	vhca = mlx5_sim_card_vhca(card, vhca_id);
	if (vhca != NULL) {
		ret = sim_caps_check(vhca, caps, caps_given);
	} else {
		vhca = sim_vhca_new(card, vhca_id, caps);
		if (vhca == NULL) {
			ret = -ENOMEM;
		} else if ((ret = mlx5_sim_ports_cable(vhca,
							caps_given)) != 0) {
			free(vhca->pp);
			mlx5_sim_caps_wipe(&vhca->caps);
			free(vhca);
		} else {
			TAILQ_INSERT_TAIL(&card->vhcas, vhca, card_next);
			TAILQ_INSERT_TAIL(&sim_registry.vhcas, vhca, next);
			SIM_LOG(INFO, "created vHCA %s: hca_cap_2=%u crossing=%u"
				" pacing=%u pp_table_size=%u pp_rate=[%u, %u]"
				" update_tag=%u crypto=%u odp=%u",
				vhca->ibdev.name, caps->hca_cap_2,
				caps->crossing, caps->pacing,
				caps->pp_table_size, caps->pp_min_rate,
				caps->pp_max_rate, caps->update_tag,
				caps->crypto, caps->odp);
		}
	}
	pthread_mutex_unlock(&card->lock);
	if (ret == 0)
		*out = vhca;
out:
	mlx5_sim_registry_unlock();
	if (ret < 0)
		errno = -ret;
	return ret;
}

uint64_t
mlx5_sim_vhca_guid(const struct mlx5_sim_vhca *vhca)
{
	return 0x0002c90300000000ULL | ((uint64_t)vhca->card->id << 16) |
	       vhca->vhca_id;
}

uint64_t
mlx5_sim_card_guid(const struct mlx5_sim_vhca *vhca)
{
	return 0x0002c90300000000ULL | ((uint64_t)vhca->card->id << 16) |
	       0xffff;
}

int
mlx5_sim_vhca_ibdev_set(struct mlx5_sim_vhca *vhca, const char *name,
			const char *ibdev_path)
{
	if (strlen(name) >= sizeof(vhca->ibdev.name) ||
	    strlen(ibdev_path) >= sizeof(vhca->ibdev.ibdev_path))
		return -ENAMETOOLONG;
	mlx5_sim_registry_lock();
	snprintf(vhca->ibdev.name, sizeof(vhca->ibdev.name), "%s", name);
	snprintf(vhca->ibdev.ibdev_path, sizeof(vhca->ibdev.ibdev_path), "%s",
		 ibdev_path);
	mlx5_sim_registry_unlock();
	return 0;
}

void
mlx5_sim_vhca_foreach(void (*fn)(struct mlx5_sim_vhca *vhca, void *arg),
		      void *arg)
{
	struct mlx5_sim_vhca *vhca;

	mlx5_sim_registry_lock();
	TAILQ_FOREACH(vhca, &sim_registry.vhcas, next)
		fn(vhca, arg);
	mlx5_sim_registry_unlock();
}

struct ibv_device **
mlx5_sim_get_device_list(int *num_devices)
{
	struct ibv_device **list;
	struct mlx5_sim_vhca *vhca;
	int n = 0;

	mlx5_sim_registry_lock();
	TAILQ_FOREACH(vhca, &sim_registry.vhcas, next)
		n++;
	list = calloc(n + 1, sizeof(*list));
	if (list == NULL) {
		mlx5_sim_registry_unlock();
		errno = ENOMEM;
		return NULL;
	}
	n = 0;
	TAILQ_FOREACH(vhca, &sim_registry.vhcas, next)
		list[n++] = &vhca->ibdev;
	mlx5_sim_registry_unlock();
	if (num_devices != NULL)
		*num_devices = n;
	return list;
}

void
mlx5_sim_free_device_list(struct ibv_device **list)
{
	free(list);
}

void
mlx5_sim_vhca_fault_arm(struct mlx5_sim_vhca *vhca,
			const struct mlx5_sim_fault *fault)
{
	mlx5_sim_vhca_lock(vhca);
	vhca->fault = *fault;
	vhca->fault.seen = 0;
	mlx5_sim_vhca_unlock(vhca);
	if (fault->armed)
		SIM_LOG(DEBUG, "%s: fault armed: opcode %s%s nth %u status %s",
			vhca->ibdev.name, fault->opcode < 0 ? "any" : "",
			fault->opcode < 0 ? "" :
			mlx5_sim_opcode_name((uint16_t)fault->opcode),
			fault->nth, mlx5_sim_status_name(fault->status));
}

int
mlx5_sim_fault_set(uint16_t card, uint16_t vhca_id, int opcode, uint32_t nth,
		   uint8_t status)
{
	struct mlx5_sim_fault fault = {
		.armed = true,
		.opcode = opcode,
		.nth = nth,
		.status = status,
	};
	struct mlx5_sim_vhca *vhca;

	if (opcode < -1 || opcode > UINT16_MAX || status == 0) {
		errno = EINVAL;
		return -EINVAL;
	}
	mlx5_sim_registry_lock();
	vhca = sim_vhca_lookup(card, vhca_id);
	mlx5_sim_registry_unlock();
	if (vhca == NULL) {
		errno = ENOENT;
		return -ENOENT;
	}
	mlx5_sim_vhca_fault_arm(vhca, &fault);
	return 0;
}

int
mlx5_sim_fault_clear(uint16_t card, uint16_t vhca_id)
{
	struct mlx5_sim_fault fault = { .armed = false, .opcode = -1 };
	struct mlx5_sim_vhca *vhca;

	mlx5_sim_registry_lock();
	vhca = sim_vhca_lookup(card, vhca_id);
	mlx5_sim_registry_unlock();
	if (vhca == NULL) {
		errno = ENOENT;
		return -ENOENT;
	}
	mlx5_sim_vhca_fault_arm(vhca, &fault);
	return 0;
}

int
mlx5_sim_vhca_stats(uint16_t card, uint16_t vhca_id, struct mlx5_sim_stats *st)
{
	struct mlx5_sim_vhca *vhca;
	const struct mlx5_sim_live *live;

	if (st == NULL) {
		errno = EINVAL;
		return -EINVAL;
	}
	mlx5_sim_registry_lock();
	vhca = sim_vhca_lookup(card, vhca_id);
	mlx5_sim_registry_unlock();
	if (vhca == NULL) {
		errno = ENOENT;
		return -ENOENT;
	}
	mlx5_sim_vhca_lock(vhca);
	live = &vhca->live;
	st->contexts = live->contexts;
	st->pds = live->pds;
	st->mrs = live->mrs;
	st->mkeys = live->mkeys;
	st->umems = live->umems;
	st->uars = live->uars;
	st->general_objs = live->general_objs;
	st->pp_entries = live->pp_entries;
	st->allowed = live->allowed;
	st->cqs = live->cqs;
	st->qps = live->qps;
	st->sqs = live->sqs;
	st->rqs = live->rqs;
	st->tiss = live->tiss;
	st->tds = live->tds;
	st->rqts = live->rqts;
	st->tirs = live->tirs;
	st->q_counters = live->q_counters;
	st->flows = live->flows;
	st->flow_tables = live->flow_tables;
	st->flow_counters = live->flow_counters;
	st->srqs = live->srqs;
	st->dms = live->dms;
	st->xrcds = live->xrcds;
	st->live_objects = live->pds + live->mrs + live->mkeys + live->umems +
			   live->uars + live->general_objs +
			   live->pp_entries + live->allowed + live->cqs +
			   live->qps + live->sqs + live->rqs + live->tiss +
			   live->tds + live->rqts + live->tirs +
			   live->q_counters + live->flows +
			   live->flow_tables + live->flow_counters + live->srqs +
			   live->dms + live->xrcds;
	st->reclaimed = vhca->reclaimed;
	st->commands = vhca->commands;
	st->failed_commands = vhca->failed_commands;
	st->compressed_sessions = vhca->zip_sessions;
	st->compressed_cqes = vhca->zip_cqes;
	mlx5_sim_vhca_unlock(vhca);
	return 0;
}

uint32_t
mlx5_sim_cmd_start(struct mlx5_sim_vhca *vhca, uint16_t opcode,
		   uint8_t *status)
{
	struct mlx5_sim_fault *fault = &vhca->fault;

	vhca->commands++;
	if (!fault->armed || (fault->opcode >= 0 && fault->opcode != opcode))
		return MLX5_SIM_SYND_OK;
	fault->seen++;
	if (fault->nth != 0 && fault->seen != fault->nth)
		return MLX5_SIM_SYND_OK;
	if (fault->nth != 0)
		fault->armed = false; /* The nth command fails once. */
	*status = fault->status;
	return MLX5_SIM_SYND_INJECTED;
}

uint8_t
mlx5_sim_cmd_finish(struct mlx5_sim_vhca *vhca, uint16_t opcode,
		    uint32_t syndrome, uint8_t status)
{
	if (syndrome == MLX5_SIM_SYND_OK)
		return MLX5_CMD_STAT_OK;
	if (syndrome != MLX5_SIM_SYND_INJECTED)
		status = mlx5_sim_syndrome_status(syndrome);
	if (status == MLX5_CMD_STAT_OK)
		status = MLX5_CMD_STAT_INT_ERR; /* A refusal is never OK. */
	vhca->failed_commands++;
	SIM_LOG(DEBUG, "%s: %s (0x%x) refused: status %s (0x%x),"
		" syndrome 0x%08x: %s", vhca->ibdev.name,
		mlx5_sim_opcode_name(opcode), opcode,
		mlx5_sim_status_name(status), status, syndrome,
		mlx5_sim_syndrome_text(syndrome));
	return status;
}

int
mlx5_sim_cmd_kernel(struct mlx5_sim_vhca *vhca, uint16_t opcode,
		    uint32_t rule)
{
	uint8_t status = 0;
	uint32_t synd = mlx5_sim_cmd_start(vhca, opcode, &status);

	if (synd == MLX5_SIM_SYND_OK)
		synd = rule;
	status = mlx5_sim_cmd_finish(vhca, opcode, synd, status);
	return mlx5_sim_status_errno(status);
}

/*
 * At exit, free the vHCAs nobody uses any more, so that a clean run leaves
 * nothing allocated; a vHCA with open files is kept (its objects are the
 * caller's leak, reported by the stats).
 */
RTE_FINI(mlx5_sim_registry_fini)
{
	unsigned int i;

	/* The device's threads touch vHCAs: they go first. */
	mlx5_sim_pace_stop();
	mlx5_sim_doorbell_stop();
	mlx5_sim_registry_lock();
	for (i = 0; i <= MLX5_SIM_MAX_CARD; i++) {
		struct mlx5_sim_card *card = sim_registry.cards[i];
		struct mlx5_sim_vhca *vhca, *tmp;

		if (card == NULL)
			continue;
		pthread_mutex_lock(&card->lock);
		for (vhca = TAILQ_FIRST(&card->vhcas); vhca != NULL; vhca = tmp) {
			tmp = TAILQ_NEXT(vhca, card_next);
			if (!TAILQ_EMPTY(&vhca->files))
				continue;
			TAILQ_REMOVE(&card->vhcas, vhca, card_next);
			TAILQ_REMOVE(&sim_registry.vhcas, vhca, next);
			free(vhca->mkeys);
			mlx5_sim_mkey_spare_free(vhca);
			free(vhca->pp);
			free(vhca->cqs.slot);
			free(vhca->qps.slot);
			free(vhca->tiss.slot);
			free(vhca->tds.slot);
			free(vhca->fcnts.slot);
			free(vhca->deks.slot);
			free(vhca->xrcds.slot);
			free(vhca->rqts.slot);
			free(vhca->tirs.slot);
			mlx5_sim_caps_wipe(&vhca->caps);
			free(vhca);
		}
		pthread_mutex_unlock(&card->lock);
		if (TAILQ_EMPTY(&card->vhcas)) {
			sim_registry.cards[i] = NULL;
			pthread_mutex_destroy(&card->lock);
			free(card);
		}
	}
	mlx5_sim_registry_unlock();
}
