/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/* DEVX command execution, error interpretation and capability queries. */

#include <errno.h>
#include <stdlib.h>

#include <rte_errno.h>

#include "mlx5_malloc.h"
#include "mlx5_common.h"
#include "mlx5_common_log.h"
#include "mlx5_devx_cmds.h"

/* Status -> name and errno (rdma-core's mapping). */
static const struct {
	uint8_t status;
	const char *name;
	int err;
} mlx5_cmd_status_table[] = {
	{ MLX5_CMD_STAT_OK, "OK", 0 },
	{ MLX5_CMD_STAT_INT_ERR, "INT_ERR", EIO },
	{ MLX5_CMD_STAT_BAD_OP_ERR, "BAD_OP", EINVAL },
	{ MLX5_CMD_STAT_BAD_PARAM_ERR, "BAD_PARAM", EINVAL },
	{ MLX5_CMD_STAT_BAD_SYS_STATE_ERR, "BAD_SYS_STATE", EIO },
	{ MLX5_CMD_STAT_BAD_RES_ERR, "BAD_RES", EINVAL },
	{ MLX5_CMD_STAT_RES_BUSY, "RES_BUSY", EBUSY },
	{ MLX5_CMD_STAT_LIM_ERR, "LIM", ENOMEM },
	{ MLX5_CMD_STAT_BAD_RES_STATE_ERR, "BAD_RES_STATE", EINVAL },
	{ MLX5_CMD_STAT_IX_ERR, "BAD_INDEX", EINVAL },
	{ MLX5_CMD_STAT_NO_RES_ERR, "NO_RESOURCES", EAGAIN },
	{ MLX5_CMD_STAT_BAD_QP_STATE_ERR, "BAD_QP_STATE", EINVAL },
	{ MLX5_CMD_STAT_BAD_PKT_ERR, "BAD_PKT", EINVAL },
	{ MLX5_CMD_STAT_BAD_SIZE_OUTS_CQES_ERR, "BAD_SIZE_OUTS_CQES", EINVAL },
	{ MLX5_CMD_STAT_BAD_INP_LEN_ERR, "BAD_INPUT_LEN", EIO },
	{ MLX5_CMD_STAT_BAD_OUTP_LEN_ERR, "BAD_OUTPUT_LEN", EIO },
};

static const struct {
	uint16_t opcode;
	const char *name;
} mlx5_cmd_opcode_table[] = {
	{ MLX5_CMD_OP_QUERY_HCA_CAP, "QUERY_HCA_CAP" },
	{ MLX5_CMD_OP_CREATE_MKEY, "CREATE_MKEY" },
	{ MLX5_CMD_OP_QUERY_MKEY, "QUERY_MKEY" },
	{ MLX5_CMD_OP_DESTROY_MKEY, "DESTROY_MKEY" },
	{ MLX5_CMD_OP_QUERY_SPECIAL_CONTEXTS, "QUERY_SPECIAL_CONTEXTS" },
	{ MLX5_CMD_OP_SET_PP_RATE_LIMIT, "SET_PP_RATE_LIMIT" },
	{ MLX5_CMD_OP_QUERY_RATE_LIMIT, "QUERY_RATE_LIMIT" },
	{ MLX5_CMD_OP_ALLOC_PD, "ALLOC_PD" },
	{ MLX5_CMD_OP_DEALLOC_PD, "DEALLOC_PD" },
	{ MLX5_CMD_OP_ALLOC_UAR, "ALLOC_UAR" },
	{ MLX5_CMD_OP_DEALLOC_UAR, "DEALLOC_UAR" },
	{ MLX5_CMD_OP_CREATE_GENERAL_OBJECT, "CREATE_GENERAL_OBJECT" },
	{ MLX5_CMD_OP_MODIFY_GENERAL_OBJECT, "MODIFY_GENERAL_OBJECT" },
	{ MLX5_CMD_OP_QUERY_GENERAL_OBJECT, "QUERY_GENERAL_OBJECT" },
	{ MLX5_CMD_OP_DESTROY_GENERAL_OBJECT, "DESTROY_GENERAL_OBJECT" },
	{ MLX5_CMD_OP_CREATE_UMEM, "CREATE_UMEM" },
	{ MLX5_CMD_OP_DESTROY_UMEM, "DESTROY_UMEM" },
	{ MLX5_CMD_OP_ALLOW_OTHER_VHCA_ACCESS, "ALLOW_OTHER_VHCA_ACCESS" },
	{ MLX5_CMD_OP_CREATE_CQ, "CREATE_CQ" },
	{ MLX5_CMD_OP_DESTROY_CQ, "DESTROY_CQ" },
	{ MLX5_CMD_OP_QUERY_CQ, "QUERY_CQ" },
	{ MLX5_CMD_OP_MODIFY_CQ, "MODIFY_CQ" },
	{ MLX5_CMD_OP_CREATE_QP, "CREATE_QP" },
	{ MLX5_CMD_OP_DESTROY_QP, "DESTROY_QP" },
	{ MLX5_CMD_OP_RST2INIT_QP, "RST2INIT_QP" },
	{ MLX5_CMD_OP_INIT2RTR_QP, "INIT2RTR_QP" },
	{ MLX5_CMD_OP_RTR2RTS_QP, "RTR2RTS_QP" },
	{ MLX5_CMD_OP_RTS2RTS_QP, "RTS2RTS_QP" },
	{ MLX5_CMD_OP_2ERR_QP, "2ERR_QP" },
	{ MLX5_CMD_OP_2RST_QP, "2RST_QP" },
	{ MLX5_CMD_OP_QUERY_QP, "QUERY_QP" },
	{ MLX5_CMD_OP_QUERY_VPORT_STATE, "QUERY_VPORT_STATE" },
	{ MLX5_CMD_OP_QUERY_NIC_VPORT_CONTEXT, "QUERY_NIC_VPORT_CONTEXT" },
	{ MLX5_CMD_OP_ALLOC_TRANSPORT_DOMAIN, "ALLOC_TRANSPORT_DOMAIN" },
	{ MLX5_CMD_OP_DEALLOC_TRANSPORT_DOMAIN, "DEALLOC_TRANSPORT_DOMAIN" },
	{ MLX5_CMD_OP_CREATE_TIS, "CREATE_TIS" },
	{ MLX5_CMD_OP_MODIFY_TIS, "MODIFY_TIS" },
	{ MLX5_CMD_OP_DESTROY_TIS, "DESTROY_TIS" },
	{ MLX5_CMD_OP_QUERY_TIS, "QUERY_TIS" },
	{ MLX5_CMD_OP_CREATE_TIR, "CREATE_TIR" },
	{ MLX5_CMD_OP_MODIFY_TIR, "MODIFY_TIR" },
	{ MLX5_CMD_OP_DESTROY_TIR, "DESTROY_TIR" },
	{ MLX5_CMD_OP_QUERY_TIR, "QUERY_TIR" },
	{ MLX5_CMD_OP_CREATE_RQT, "CREATE_RQT" },
	{ MLX5_CMD_OP_MODIFY_RQT, "MODIFY_RQT" },
	{ MLX5_CMD_OP_DESTROY_RQT, "DESTROY_RQT" },
	{ MLX5_CMD_OP_QUERY_RQT, "QUERY_RQT" },
	{ MLX5_CMD_OP_CREATE_SQ, "CREATE_SQ" },
	{ MLX5_CMD_OP_MODIFY_SQ, "MODIFY_SQ" },
	{ MLX5_CMD_OP_DESTROY_SQ, "DESTROY_SQ" },
	{ MLX5_CMD_OP_QUERY_SQ, "QUERY_SQ" },
	{ MLX5_CMD_OP_CREATE_RQ, "CREATE_RQ" },
	{ MLX5_CMD_OP_MODIFY_RQ, "MODIFY_RQ" },
	{ MLX5_CMD_OP_DESTROY_RQ, "DESTROY_RQ" },
	{ MLX5_CMD_OP_QUERY_RQ, "QUERY_RQ" },
	{ MLX5_CMD_OP_ALLOC_Q_COUNTER, "ALLOC_Q_COUNTER" },
	{ MLX5_CMD_OP_DEALLOC_Q_COUNTER, "DEALLOC_Q_COUNTER" },
	{ MLX5_CMD_OP_QUERY_Q_COUNTER, "QUERY_Q_COUNTER" },
};

const char *
mlx5_cmd_status_name(uint8_t status)
{
	for (size_t i = 0; i < RTE_DIM(mlx5_cmd_status_table); i++)
		if (mlx5_cmd_status_table[i].status == status)
			return mlx5_cmd_status_table[i].name;
	return "UNKNOWN";
}

int
mlx5_cmd_status_to_errno(uint8_t status)
{
	for (size_t i = 0; i < RTE_DIM(mlx5_cmd_status_table); i++)
		if (mlx5_cmd_status_table[i].status == status)
			return mlx5_cmd_status_table[i].err;
	return EIO;
}

const char *
mlx5_cmd_opcode_name(uint16_t opcode)
{
	for (size_t i = 0; i < RTE_DIM(mlx5_cmd_opcode_table); i++)
		if (mlx5_cmd_opcode_table[i].opcode == opcode)
			return mlx5_cmd_opcode_table[i].name;
	return "UNKNOWN";
}

int
mlx5_devx_cmd_error(const char *name, int err, const void *out)
{
	uint8_t status = 0;
	uint32_t syndrome = 0;

	if (out != NULL) {
		status = MLX5_GET(mbox_out, out, status);
		syndrome = MLX5_GET(mbox_out, out, syndrome);
	}
	if (status != MLX5_CMD_STAT_OK) {
		DRV_LOG(ERR, "DEVX command %s failed: errno=%d (%s), status=%s(0x%x), syndrome=0x%08x",
			name, err, strerror(err), mlx5_cmd_status_name(status),
			status, syndrome);
		/* The status says more than EREMOTEIO: report rdma-core's errno. */
		err = mlx5_cmd_status_to_errno(status);
	} else {
		if (err == 0)
			err = EIO;
		DRV_LOG(ERR, "DEVX command %s failed: errno=%d (%s), no status",
			name, err, strerror(err));
	}
	rte_errno = err;
	return -err;
}

/* The PRM's name of the command in @in when its opcode is known. */
static const char *
mlx5_devx_cmd_name(const char *name, const void *in)
{
	const char *opname = mlx5_cmd_opcode_name(MLX5_GET(mbox_in, in, opcode));

	return strcmp(opname, "UNKNOWN") != 0 ? opname : name;
}

/* Interpret the answer of a command the backend ran (@ret its errno). */
static int
mlx5_devx_cmd_result(const char *name, const void *in, int ret,
		     const void *out)
{
	if (ret != 0 || MLX5_GET(mbox_out, out, status) != MLX5_CMD_STAT_OK)
		return mlx5_devx_cmd_error(mlx5_devx_cmd_name(name, in), ret,
					   out);
	return 0;
}

int
mlx5_devx_cmd_exec(struct mlx5_common_device *cdev, const char *name,
		   const void *in, size_t inlen, void *out, size_t outlen)
{
	memset(out, 0, outlen);
	return mlx5_devx_cmd_result(name, in,
		cdev->glue->devx_general_cmd(cdev->ctx, in, inlen, out, outlen),
		out);
}

struct mlx5_devx_obj *
mlx5_devx_obj_create(struct mlx5_common_device *cdev, const char *name,
		     const void *in, size_t inlen, void *out, size_t outlen)
{
	struct mlx5_devx_obj *obj;

	obj = mlx5_malloc(cdev, MLX5_MEM_ZERO, sizeof(*obj), 0, SOCKET_ID_ANY);
	if (obj == NULL) {
		DRV_LOG(ERR, "DEVX command %s: out of memory",
			mlx5_devx_cmd_name(name, in));
		rte_errno = ENOMEM;
		return NULL;
	}
	memset(out, 0, outlen);
	obj->glue = cdev->glue;
	errno = 0;
	obj->obj = cdev->glue->devx_obj_create(cdev->ctx, in, inlen, out,
					       outlen);
	if (obj->obj == NULL) {
		mlx5_devx_cmd_error(mlx5_devx_cmd_name(name, in),
				    errno != 0 ? errno : EIO, out);
		mlx5_free(obj);
		return NULL;
	}
	return obj;
}

int
mlx5_devx_obj_query(struct mlx5_devx_obj *obj, const char *name,
		    const void *in, size_t inlen, void *out, size_t outlen)
{
	memset(out, 0, outlen);
	return mlx5_devx_cmd_result(name, in,
		obj->glue->devx_obj_query(obj->obj, in, inlen, out, outlen),
		out);
}

int
mlx5_devx_obj_modify(struct mlx5_devx_obj *obj, const char *name,
		     const void *in, size_t inlen, void *out, size_t outlen)
{
	memset(out, 0, outlen);
	return mlx5_devx_cmd_result(name, in,
		obj->glue->devx_obj_modify(obj->obj, in, inlen, out, outlen),
		out);
}

/* Run QUERY_HCA_CAP for one capability type into @out (query_hca_cap_out). */
static int
mlx5_devx_query_caps(struct mlx5_common_device *cdev, uint16_t cap_type,
		     void *out)
{
	uint32_t in[MLX5_ST_SZ_DW(query_hca_cap_in)] = { 0 };

	MLX5_SET(query_hca_cap_in, in, opcode, MLX5_CMD_OP_QUERY_HCA_CAP);
	MLX5_SET(query_hca_cap_in, in, op_mod,
		 MLX5_HCA_CAP_OPMOD(cap_type, MLX5_HCA_CAP_OPMOD_CUR));
	return MLX5_DEVX_CMD(cdev, query_hca_cap, in, out);
}

static void
mlx5_hca_attr_general(struct mlx5_hca_attr *attr, const void *cap)
{
	attr->vhca_id = MLX5_GET(cmd_hca_cap, cap, vhca_id);
	attr->hca_cap_2 = MLX5_GET(cmd_hca_cap, cap, hca_cap_2);
	attr->dump_fill_mkey = MLX5_GET(cmd_hca_cap, cap, dump_fill_mkey);
	attr->null_mkey = MLX5_GET(cmd_hca_cap, cap, null_mkey);
	attr->qos.sup = MLX5_GET(cmd_hca_cap, cap, qos);
	attr->crossing_vhca_mkey = MLX5_GET(cmd_hca_cap, cap,
					    crossing_vhca_mkey);
	attr->general_obj_types = MLX5_GET64(cmd_hca_cap, cap,
					     general_obj_types);
	attr->log_max_cq_sz = MLX5_GET(cmd_hca_cap, cap, log_max_cq_sz);
	attr->log_max_qp_sz = MLX5_GET(cmd_hca_cap, cap, log_max_qp_sz);
	attr->log_max_msg = MLX5_GET(cmd_hca_cap, cap, log_max_msg);
	attr->cqe_version = MLX5_GET(cmd_hca_cap, cap, cqe_version);
	attr->cqe_comp_max = MLX5_GET(cmd_hca_cap, cap, cqe_compression) ?
		MLX5_GET(cmd_hca_cap, cap, cqe_compression_max_num) : 0;
	attr->num_lag_ports = MLX5_GET(cmd_hca_cap, cap, num_lag_ports);
	attr->lag_tx_port_affinity = MLX5_GET(cmd_hca_cap, cap,
					      lag_tx_port_affinity);
	attr->max_q_counters = MLX5_GET(cmd_hca_cap, cap, max_qp_cnt);
	attr->modify_rq_counter_set_id = MLX5_GET(cmd_hca_cap, cap,
						  modify_rq_counter_set_id);
	attr->roce = MLX5_GET(cmd_hca_cap, cap, roce);
	attr->eth.sup = MLX5_GET(cmd_hca_cap, cap, eth_net_offloads);
	attr->crypto.sup = MLX5_GET(cmd_hca_cap, cap, crypto);
	attr->crypto.dek = !!(attr->general_obj_types &
			      MLX5_GENERAL_OBJ_TYPES_CAP_DEK);
	attr->crypto.login = !!(attr->general_obj_types &
				MLX5_GENERAL_OBJ_TYPES_CAP_CRYPTO_LOGIN);
	attr->crypto.aes_xts_single_block_le_tweak =
		MLX5_GET(cmd_hca_cap, cap, aes_xts_single_block_le_tweak);
	attr->crypto.aes_xts_multi_block_be_tweak =
		MLX5_GET(cmd_hca_cap, cap, aes_xts_multi_block_be_tweak);
	attr->crypto.aes_xts_multi_block_le_tweak =
		MLX5_GET(cmd_hca_cap, cap, aes_xts_multi_block_le_tweak);
	attr->fl_rc_qp_when_roce_disabled =
		MLX5_GET(cmd_hca_cap, cap, fl_rc_qp_when_roce_disabled);
}

static void
mlx5_hca_attr_general_2(struct mlx5_hca_attr *attr, const void *cap)
{
	attr->cross_vhca_object_to_object_supported =
		MLX5_GET(cmd_hca_cap_2, cap,
			 cross_vhca_object_to_object_supported);
	attr->allowed_object_for_other_vhca_access =
		MLX5_GET64(cmd_hca_cap_2, cap,
			   allowed_object_for_other_vhca_access);
}

static void
mlx5_hca_attr_eth(struct mlx5_hca_eth_attr *eth, const void *cap)
{
#define ETH_CAP(f) MLX5_GET(per_protocol_networking_offload_caps, cap, f)
	eth->csum_cap = ETH_CAP(csum_cap);
	eth->vlan_cap = ETH_CAP(vlan_cap);
	eth->lro_cap = ETH_CAP(lro_cap);
	eth->self_lb_en_modifiable = ETH_CAP(self_lb_en_modifiable);
	eth->scatter_fcs = ETH_CAP(scatter_fcs);
	eth->cqe_checksum_full = ETH_CAP(cqe_checksum_full);
	eth->max_lso_cap = ETH_CAP(max_lso_cap);
	eth->wqe_inline_mode = ETH_CAP(wqe_inline_mode);
	eth->rss_ind_tbl_cap = ETH_CAP(rss_ind_tbl_cap);
	eth->empw = ETH_CAP(enhanced_multi_pkt_send_wqe);
#undef ETH_CAP
}

static void
mlx5_hca_attr_qos(struct mlx5_hca_qos_attr *qos, const void *cap)
{
	qos->packet_pacing = MLX5_GET(qos_cap, cap, packet_pacing);
	qos->burst_bound = MLX5_GET(qos_cap, cap, packet_pacing_burst_bound);
	qos->typical_size = MLX5_GET(qos_cap, cap, packet_pacing_typical_size);
	qos->pp_uid = MLX5_GET(qos_cap, cap, packet_pacing_uid);
	qos->max_rate_kbps = MLX5_GET(qos_cap, cap, packet_pacing_max_rate);
	qos->min_rate_kbps = MLX5_GET(qos_cap, cap, packet_pacing_min_rate);
	qos->rate_table_size = MLX5_GET(qos_cap, cap,
					packet_pacing_rate_table_size);
}

int
mlx5_devx_cmd_query_hca_attr(struct mlx5_common_device *cdev,
			     struct mlx5_hca_attr *attr)
{
	size_t outlen = MLX5_ST_SZ_BYTES(query_hca_cap_out);
	void *out;
	void *cap;
	int ret;

	out = mlx5_malloc(cdev, MLX5_MEM_ZERO | MLX5_MEM_SYS, outlen, 0,
			  SOCKET_ID_ANY);
	if (out == NULL) {
		rte_errno = ENOMEM;
		return -ENOMEM;
	}
	cap = MLX5_ADDR_OF(query_hca_cap_out, out, capability);
	memset(attr, 0, sizeof(*attr));
	ret = mlx5_devx_query_caps(cdev, MLX5_HCA_CAP_GENERAL, out);
	if (ret)
		goto out;
	mlx5_hca_attr_general(attr, cap);
	if (attr->hca_cap_2) {
		ret = mlx5_devx_query_caps(cdev, MLX5_HCA_CAP_GENERAL_2, out);
		if (ret)
			goto out;
		mlx5_hca_attr_general_2(attr, cap);
	}
	if (attr->eth.sup) {
		ret = mlx5_devx_query_caps(cdev, MLX5_HCA_CAP_ETH_OFFLOADS,
					   out);
		if (ret)
			goto out;
		mlx5_hca_attr_eth(&attr->eth, cap);
	}
	if (attr->crypto.sup) {
		ret = mlx5_devx_query_caps(cdev, MLX5_HCA_CAP_CRYPTO, out);
		if (ret)
			goto out;
		attr->crypto.wrapped_crypto_operational =
			MLX5_GET(crypto_cap, cap, wrapped_crypto_operational);
		attr->crypto.wrapped_import =
			!!(MLX5_GET(crypto_cap, cap, wrapped_import_method) &
			   MLX5_CRYPTO_WRAPPED_IMPORT_METHOD_AES_XTS);
		attr->crypto.log_max_num_deks =
			MLX5_GET(crypto_cap, cap, log_max_num_deks);
		attr->crypto.log_dek_max_alloc =
			MLX5_GET(crypto_cap, cap, log_dek_max_alloc);
	}
	/* The RoCE block exists only with roce (as the kernel reads it). */
	if (attr->roce) {
		ret = mlx5_devx_query_caps(cdev, MLX5_HCA_CAP_ROCE, out);
		if (ret)
			goto out;
		attr->fl_rc_qp_when_roce_enabled =
			MLX5_GET(roce_cap, cap, fl_rc_qp_when_roce_enabled);
		attr->qp_ts_format = MLX5_GET(roce_cap, cap, qp_ts_format);
	}
	if (attr->qos.sup) {
		ret = mlx5_devx_query_caps(cdev, MLX5_HCA_CAP_QOS, out);
		if (ret)
			goto out;
		mlx5_hca_attr_qos(&attr->qos, cap);
	}
out:
	mlx5_free(out);
	return ret;
}

int
mlx5_devx_cmd_destroy(struct mlx5_devx_obj *obj)
{
	int ret;

	if (obj == NULL)
		return 0;
	ret = obj->glue->devx_obj_destroy(obj->obj);
	if (ret != 0) {
		DRV_LOG(ERR, "destroying DEVX object 0x%x (type 0x%x) failed: %s",
			obj->id, obj->type, strerror(ret));
		rte_errno = ret;
		return -ret;
	}
	mlx5_free(obj);
	return 0;
}
