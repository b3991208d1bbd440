/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * The software device as a DPDK driver: the "sim" backend (operations table
 * and device lookup from devargs) and the vdev driver "mlx5_sim" whose
 * devices mlx5_sim0, mlx5_sim1, ... are probed through the common layer.
 *
 *   --vdev=mlx5_sim0,card=0,vhca_id=2,class=eth:crypto
 *
 * Devargs of the software device (the common layer takes class, cmd_fd,
 * pd_handle, mr_ext_memseg_en, mr_mempool_reg_en, sys_mem_en and
 * mr_whole_mem_en, and rejects unknown keys). Integers are decimal or 0x
 * hexadecimal.
 *
 *   key            range               default      meaning
 *   card           0..255              0            card holding the vHCA;
 *                                                   cross-vHCA access works
 *                                                   only inside a card
 *   vhca_id        0..65535            N of         vHCA of the card; created
 *                                      mlx5_sim<N>  by the first probe naming
 *                                                   it, alive until exit
 *   crossing       0|1                 1            crossing_vhca_mkey,
 *                                                   cross_vhca_object_to_object
 *                                                   (LOCAL_MKEY_TO_REMOTE_MKEY)
 *                                                   and
 *                                                   allowed_object_for_other_
 *                                                   vhca_access (MKEY) caps
 *   hca_cap_2      0|1                 1            general_2 capability
 *                                                   block; 0 also hides the
 *                                                   cross-vHCA caps
 *   pacing         0|1                 1            qos + packet_pacing caps
 *                                                   and the rate table
 *   pp_uid         0|1                 1            packet_pacing_uid cap
 *                                                   (without it the kernel
 *                                                   has no PP object)
 *   pp_table_size  0..65535            128          rate table size; indices
 *                                                   1..size-1 (index 0 means
 *                                                   no limit); below 2, no
 *                                                   entry
 *   pp_min_rate    0..4294967295 kbps  1000         lowest rate accepted
 *   pp_max_rate    0..4294967295 kbps  100000000    highest rate accepted;
 *                                                   pp_min_rate <= pp_max_rate
 *   update_tag     0|1                 1            mlx5dv_create_mkey
 *                                                   accepts UPDATE_TAG
 *   cross_rule     grant|mark|both     both         what an mkey needs before
 *                                                   crossing mkeys of other
 *                                                   vHCAs may target it:
 *                                                   the grant, the
 *                                                   crossed_side_mkey mark,
 *                                                   or both (unsettled by
 *                                                   public sources)
 *   alias_status   0..7                0            complete every alias
 *                                                   CREATE with this
 *                                                   alias_context.status
 *                                                   (an unusable alias)
 *   signature      0|1                 1            signature offload:
 *                                                   mlx5dv_create_mkey
 *                                                   accepts BLOCK_SIGNATURE
 *   crypto         0|1                 1            mlx5dv_create_mkey
 *                                                   accepts CRYPTO
 *   odp            0|1                 1            on-demand paging:
 *                                                   odp_caps report
 *                                                   IBV_ODP_SUPPORT and
 *                                                   _IMPLICIT; reg_mr
 *                                                   takes ON_DEMAND,
 *                                                   (NULL, SIZE_MAX) is
 *                                                   the implicit MR of
 *                                                   every mapped address
 *   ports          1..2                1            Ethernet ports of the
 *                                                   vHCA
 *   wire           loopback | none |   loopback     what port 1 is cabled
 *                  <vhca_id>[:<port>]               to: looped back to
 *                                                   itself, nothing (link
 *                                                   down), or a port of
 *                                                   another vHCA of the
 *                                                   card (both ends are
 *                                                   cabled; a port cabled
 *                                                   by default is re-cabled)
 *   wire2          as wire             loopback     port 2 (needs ports=2)
 *   speed          10..800000 Mb/s     100000       link speed of the ports
 *                                                   (the wire's time per
 *                                                   bit; what a PMD
 *                                                   reports)
 *   pace_clock     virtual|wall        virtual      time of the wire: virtual
 *                                                   (frames leave at once,
 *                                                   CQE times are the
 *                                                   wire's) or wall (a paced
 *                                                   SQ's WQE waits for its
 *                                                   wall-clock time; a later
 *                                                   doorbell sends it)
 *   fail_cmd       opcode 0..0xffff    none         fault injection: the
 *                  or name                          command to fail
 *                  (CREATE_MKEY, ...)
 *   fail_nth       1..4294967295       none         fault injection: fail
 *                                                   the nth command (of
 *                                                   fail_cmd if given, else
 *                                                   of any opcode) counted
 *                                                   from the probe, once
 *   fail_status    status 1..255 or    0x3          status of the injected
 *                  name (BAD_PARAM,    BAD_PARAM    failure; needs fail_cmd
 *                  NO_RESOURCES, ...)               or fail_nth
 *
 * fail_cmd alone fails every command with that opcode; fail_nth alone fails
 * the nth command of any opcode once; both fail the nth command of that
 * opcode once. Each probe of a vHCA replaces its fault setting (no fail_*
 * key: no fault). Capabilities are fixed when the vHCA is created: a later
 * probe of the same vHCA giving a capability key with another value fails
 * with EEXIST. A malformed or out-of-range value fails with EINVAL.
 *
 * Command names: QUERY_HCA_CAP, CREATE_MKEY, QUERY_MKEY, DESTROY_MKEY,
 * QUERY_SPECIAL_CONTEXTS, SET_PP_RATE_LIMIT, QUERY_RATE_LIMIT, ALLOC_PD,
 * DEALLOC_PD, ALLOC_UAR, DEALLOC_UAR, CREATE_GENERAL_OBJECT,
 * MODIFY_GENERAL_OBJECT, QUERY_GENERAL_OBJECT, DESTROY_GENERAL_OBJECT,
 * CREATE_UMEM, DESTROY_UMEM, ALLOW_OTHER_VHCA_ACCESS, CREATE_CQ,
 * DESTROY_CQ, QUERY_CQ, CREATE_QP, DESTROY_QP, RST2INIT_QP, INIT2RTR_QP,
 * RTR2RTS_QP, RTS2RTS_QP, 2ERR_QP, 2RST_QP, QUERY_QP, QUERY_VPORT_STATE,
 * QUERY_NIC_VPORT_CONTEXT, ALLOC_TRANSPORT_DOMAIN,
 * DEALLOC_TRANSPORT_DOMAIN, CREATE_TIS, DESTROY_TIS, CREATE_SQ, MODIFY_SQ,
 * QUERY_SQ, DESTROY_SQ, CREATE_RQ, MODIFY_RQ, QUERY_RQ, DESTROY_RQ,
 * CREATE_RQT, MODIFY_RQT, DESTROY_RQT, CREATE_TIR, DESTROY_TIR,
 * ALLOC_Q_COUNTER, DEALLOC_Q_COUNTER, QUERY_Q_COUNTER, QUERY_RQT,
 * MODIFY_CQ, CREATE_RMP, QUERY_RMP, MODIFY_RMP, DESTROY_RMP, QUERY_LAG,
 * SET_FLOW_TABLE_ENTRY, DELETE_FLOW_TABLE_ENTRY, CREATE_UCTX, DESTROY_UCTX
 * (case-insensitive, optional MLX5_CMD_OP_ prefix).
 * Status names: INT_ERR, BAD_OP, BAD_PARAM, BAD_SYS_STATE, BAD_RES, RES_BUSY,
 * LIM, BAD_RES_STATE, BAD_INDEX, NO_RESOURCES, BAD_QP_STATE, BAD_PKT,
 * BAD_SIZE_OUTS_CQES, BAD_INPUT_LEN, BAD_OUTPUT_LEN.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_eal.h>
#include <rte_log.h>
#include <rte_errno.h>
#include <rte_string_fns.h>
#include <bus_vdev_driver.h>

#include "mlx5_common.h"
#include "mlx5_common_devx.h"
#include "mlx5_common_mr.h"
#include "mlx5_common_private.h"
#include "mlx5_sim_adapter.h"

/*
 * The device's log lines on rte_log: the log type pmd.common.mlx5.sim is
 * the adapter's, the model only formats (mlx5_sim_log_set()).
 */
RTE_LOG_REGISTER(mlx5_sim_logtype, pmd.common.mlx5.sim, NOTICE);

static void
mlx5_sim_rte_log(int level, const char *line)
{
	rte_log((uint32_t)level, mlx5_sim_logtype, "%s", line);
}

static bool
mlx5_sim_rte_log_enabled(int level)
{
	return rte_log_can_log(mlx5_sim_logtype, (uint32_t)level);
}

RTE_INIT(mlx5_sim_adapter_log_init)
{
	mlx5_sim_log_set(mlx5_sim_rte_log, mlx5_sim_rte_log_enabled);
}

#define SIM_DEFAULT_PP_TABLE_SIZE 128
#define SIM_DEFAULT_PP_MIN_RATE 1000
#define SIM_DEFAULT_PP_MAX_RATE 100000000

static const char *const sim_devarg_keys[] = {
	"card", "vhca_id", "crossing", "hca_cap_2", "pacing", "pp_uid",
	"pp_table_size",
	"pp_min_rate", "pp_max_rate", "update_tag", "crypto", "signature",
	"cross_rule", "alias_status",
	"odp", "ports", "wire", "wire2", "pace_clock", "speed",
	"fail_cmd", "fail_nth", "fail_status", NULL,
};

/* What the devargs of one probe say. */
struct sim_devargs {
	uint16_t card;
	bool vhca_id_set;
	uint16_t vhca_id;
	struct mlx5_sim_caps caps;
	uint32_t caps_given;        /* MLX5_SIM_CAP_* keys present. */
	bool fail_cmd_set;
	uint16_t fail_cmd;
	bool fail_nth_set;
	uint32_t fail_nth;
	bool fail_status_set;
	uint8_t fail_status;
};

/* A 0|1 capability devarg. */
static int
sim_parse_bool(const char *key, const char *value, bool *result)
{
	uint64_t v;
	int ret = mlx5_kvarg_parse_uint(key, value, 0, 1, &v);

	if (ret == 0)
		*result = v != 0;
	return ret;
}

/*
 * A cable devarg: loopback, none, or <vhca_id>[:<port>] (a port of
 * another vHCA of the card; port 1 if not given).
 */
static int
sim_parse_wire(const char *key, const char *value, uint32_t *wire)
{
	unsigned long id, port = 1;
	char *end = NULL;

	if (value != NULL && strcmp(value, "loopback") == 0) {
		*wire = MLX5_SIM_WIRE_LOOPBACK;
		return 0;
	}
	if (value != NULL && strcmp(value, "none") == 0) {
		*wire = MLX5_SIM_WIRE_NONE;
		return 0;
	}
	if (value != NULL && value[0] >= '0' && value[0] <= '9') {
		errno = 0;
		id = strtoul(value, &end, 0);
		if (errno == 0 && *end == ':' && end[1] >= '0' &&
		    end[1] <= '9')
			port = strtoul(end + 1, &end, 0);
		if (errno == 0 && *end == '\0' && id <= MLX5_SIM_MAX_VHCA_ID &&
		    port >= 1 && port <= MLX5_SIM_MAX_PORTS) {
			*wire = MLX5_SIM_WIRE_PEER(id, port);
			return 0;
		}
	}
	SIM_LOG(ERR, "devarg %s=%s: expected loopback, none, or <vhca_id>"
		" or <vhca_id>:<port> (port 1..%u) of a vHCA of the same card",
		key, value != NULL ? value : "", MLX5_SIM_MAX_PORTS);
	rte_errno = EINVAL;
	return -EINVAL;
}

static int
sim_parse_fail_cmd(const char *key, const char *value, uint16_t *opcode)
{
	uint64_t v;

	if (value != NULL && value[0] >= '0' && value[0] <= '9') {
		if (mlx5_kvarg_parse_uint(key, value, 0, UINT16_MAX, &v) < 0)
			return -EINVAL;
		*opcode = (uint16_t)v;
		return 0;
	}
	if (value != NULL && mlx5_sim_opcode_parse(value, opcode) == 0)
		return 0;
	SIM_LOG(ERR, "devarg %s=%s: expected an opcode (0..0xffff) or a"
		" command name such as CREATE_MKEY", key,
		value != NULL ? value : "");
	rte_errno = EINVAL;
	return -EINVAL;
}

static int
sim_parse_fail_status(const char *key, const char *value, uint8_t *status)
{
	uint64_t v;

	if (value != NULL && value[0] >= '0' && value[0] <= '9') {
		if (mlx5_kvarg_parse_uint(key, value, 1, UINT8_MAX, &v) < 0)
			return -EINVAL;
		*status = (uint8_t)v;
		return 0;
	}
	if (value != NULL && mlx5_sim_status_parse(value, status) == 0 &&
	    *status != MLX5_CMD_STAT_OK)
		return 0;
	SIM_LOG(ERR, "devarg %s=%s: expected a non-zero status (1..255) or a"
		" status name such as BAD_PARAM", key,
		value != NULL ? value : "");
	rte_errno = EINVAL;
	return -EINVAL;
}

static int
sim_devarg_handler(const char *key, const char *value, void *opaque)
{
	struct sim_devargs *da = opaque;
	struct mlx5_sim_caps *caps = &da->caps;
	uint64_t v;
	int ret;

	if (strcmp(key, "card") == 0) {
		ret = mlx5_kvarg_parse_uint(key, value, 0, MLX5_SIM_MAX_CARD, &v);
		da->card = (uint16_t)v;
	} else if (strcmp(key, "vhca_id") == 0) {
		ret = mlx5_kvarg_parse_uint(key, value, 0, MLX5_SIM_MAX_VHCA_ID, &v);
		da->vhca_id = (uint16_t)v;
		da->vhca_id_set = true;
	} else if (strcmp(key, "crossing") == 0) {
		ret = sim_parse_bool(key, value, &caps->crossing);
		da->caps_given |= MLX5_SIM_CAP_CROSSING;
	} else if (strcmp(key, "hca_cap_2") == 0) {
		ret = sim_parse_bool(key, value, &caps->hca_cap_2);
		da->caps_given |= MLX5_SIM_CAP_HCA_CAP_2;
	} else if (strcmp(key, "pacing") == 0) {
		ret = sim_parse_bool(key, value, &caps->pacing);
		da->caps_given |= MLX5_SIM_CAP_PACING;
	} else if (strcmp(key, "pp_uid") == 0) {
		ret = sim_parse_bool(key, value, &caps->pp_uid);
		da->caps_given |= MLX5_SIM_CAP_PP_UID;
	} else if (strcmp(key, "pp_table_size") == 0) {
		ret = mlx5_kvarg_parse_uint(key, value, 0, UINT16_MAX, &v);
		caps->pp_table_size = (uint16_t)v;
		da->caps_given |= MLX5_SIM_CAP_PP_TABLE_SIZE;
	} else if (strcmp(key, "pp_min_rate") == 0) {
		ret = mlx5_kvarg_parse_uint(key, value, 0, UINT32_MAX, &v);
		caps->pp_min_rate = (uint32_t)v;
		da->caps_given |= MLX5_SIM_CAP_PP_MIN_RATE;
	} else if (strcmp(key, "pp_max_rate") == 0) {
		ret = mlx5_kvarg_parse_uint(key, value, 0, UINT32_MAX, &v);
		caps->pp_max_rate = (uint32_t)v;
		da->caps_given |= MLX5_SIM_CAP_PP_MAX_RATE;
	} else if (strcmp(key, "update_tag") == 0) {
		ret = sim_parse_bool(key, value, &caps->update_tag);
		da->caps_given |= MLX5_SIM_CAP_UPDATE_TAG;
	} else if (strcmp(key, "cross_rule") == 0) {
		ret = 0;
		if (value != NULL && strcmp(value, "grant") == 0) {
			caps->cross_rule = MLX5_SIM_CROSS_GRANT;
		} else if (value != NULL && strcmp(value, "mark") == 0) {
			caps->cross_rule = MLX5_SIM_CROSS_MARK;
		} else if (value != NULL && strcmp(value, "both") == 0) {
			caps->cross_rule = MLX5_SIM_CROSS_BOTH;
		} else {
			SIM_LOG(ERR, "devarg %s=%s: expected grant, mark or both",
				key, value != NULL ? value : "");
			ret = -EINVAL;
		}
		da->caps_given |= MLX5_SIM_CAP_CROSS_RULE;
	} else if (strcmp(key, "alias_status") == 0) {
		ret = mlx5_kvarg_parse_uint(key, value, 0, 7, &v);
		caps->alias_status = (uint8_t)v;
		da->caps_given |= MLX5_SIM_CAP_ALIAS_STATUS;
	} else if (strcmp(key, "signature") == 0) {
		ret = sim_parse_bool(key, value, &caps->signature);
		da->caps_given |= MLX5_SIM_CAP_SIGNATURE;
	} else if (strcmp(key, "crypto") == 0) {
		ret = sim_parse_bool(key, value, &caps->crypto);
		da->caps_given |= MLX5_SIM_CAP_CRYPTO;
	} else if (strcmp(key, "odp") == 0) {
		ret = sim_parse_bool(key, value, &caps->odp);
		da->caps_given |= MLX5_SIM_CAP_ODP;
	} else if (strcmp(key, "ports") == 0) {
		ret = mlx5_kvarg_parse_uint(key, value, 1, MLX5_SIM_MAX_PORTS,
					    &v);
		caps->nports = (uint8_t)v;
		da->caps_given |= MLX5_SIM_CAP_PORTS;
	} else if (strcmp(key, "wire") == 0) {
		ret = sim_parse_wire(key, value, &caps->wire[0]);
		da->caps_given |= MLX5_SIM_CAP_WIRE1;
	} else if (strcmp(key, "speed") == 0) {
		ret = mlx5_kvarg_parse_uint(key, value, 10, 800000, &v);
		caps->speed_mbps = (uint32_t)v;
		da->caps_given |= MLX5_SIM_CAP_SPEED;
	} else if (strcmp(key, "pace_clock") == 0) {
		ret = 0;
		if (value != NULL && strcmp(value, "virtual") == 0) {
			caps->pace_wall = false;
		} else if (value != NULL && strcmp(value, "wall") == 0) {
			caps->pace_wall = true;
		} else {
			SIM_LOG(ERR, "devarg %s=%s: expected virtual or wall",
				key, value != NULL ? value : "");
			rte_errno = EINVAL;
			ret = -EINVAL;
		}
		da->caps_given |= MLX5_SIM_CAP_PACE_CLOCK;
	} else if (strcmp(key, "wire2") == 0) {
		ret = sim_parse_wire(key, value, &caps->wire[1]);
		da->caps_given |= MLX5_SIM_CAP_WIRE2;
	} else if (strcmp(key, "fail_cmd") == 0) {
		ret = sim_parse_fail_cmd(key, value, &da->fail_cmd);
		da->fail_cmd_set = true;
	} else if (strcmp(key, "fail_nth") == 0) {
		ret = mlx5_kvarg_parse_uint(key, value, 1, UINT32_MAX, &v);
		da->fail_nth = (uint32_t)v;
		da->fail_nth_set = true;
	} else if (strcmp(key, "fail_status") == 0) {
		ret = sim_parse_fail_status(key, value, &da->fail_status);
		da->fail_status_set = true;
	} else {
		/* mlx5_kvargs_process() passes only the keys listed. */
		SIM_LOG(ERR, "devarg %s=%s: not a sim key", key,
			value != NULL ? value : "");
		rte_errno = EINVAL;
		ret = -EINVAL;
	}
	return ret;
}

/* vhca_id default: N of the device name mlx5_sim<N>. */
static int
sim_vhca_id_from_name(const char *name, uint16_t *vhca_id)
{
	size_t plen = strlen(MLX5_SIM_DRIVER_NAME);
	unsigned long v;
	char *end = NULL;

	if (name == NULL || strncmp(name, MLX5_SIM_DRIVER_NAME, plen) != 0 ||
	    name[plen] < '0' || name[plen] > '9')
		return -EINVAL;
	errno = 0;
	v = strtoul(name + plen, &end, 10);
	if (errno != 0 || *end != '\0' || v > MLX5_SIM_MAX_VHCA_ID)
		return -EINVAL;
	*vhca_id = (uint16_t)v;
	return 0;
}

/*
 * Secondary processes. The device (this model) lives in the primary
 * process; a secondary maps the primary's queues and buffers (DPDK's
 * shared memory) but not the device. Its UAR stores reach the device as
 * they would through a UAR page mapped in both processes: each doorbell is
 * a one-way IPC message {card, vHCA, page, 8 bytes} that the primary's
 * IPC thread hands to the device, which then runs the queues of that page
 * as for a store of the primary (mlx5_sim_uar_ring()).
 */
#define SIM_MP_DOORBELL "mlx5_sim_doorbell"

struct sim_mp_doorbell {
	uint16_t card;
	uint16_t vhca_id;
	uint32_t page_id;
	uint64_t db;
};

/* What a secondary process keeps of its device (cdev->backend_priv). */
struct sim_secondary {
	uint16_t card;
	uint16_t vhca_id;
};

/* A UAR page of the primary, as a secondary process rings it. */
struct sim_remote_uar {
	struct mlx5dv_devx_uar dv;
	struct sim_secondary where;
	uint64_t reg;              /* The doorbell register's store. */
};

static int
sim_mp_doorbell_action(const struct rte_mp_msg *msg, const void *peer)
{
	struct sim_mp_doorbell d;

	RTE_SET_USED(peer);
	if (msg->len_param != sizeof(d)) {
		SIM_LOG(ERR, "IPC doorbell of %d bytes (%zu expected)",
			msg->len_param, sizeof(d));
		return -EINVAL;
	}
	memcpy(&d, msg->param, sizeof(d));
	if (mlx5_sim_uar_ring(d.card, d.vhca_id, d.page_id, d.db) != 0)
		SIM_LOG(DEBUG, "doorbell from a secondary process on card %u vHCA %u page %u: no such page",
			d.card, d.vhca_id, d.page_id);
	/* One-way: a UAR store has no reply. */
	return 0;
}

static int
sim_mp_primary_init(void)
{
	if (rte_eal_process_type() != RTE_PROC_PRIMARY)
		return 0;
	if (rte_mp_action_register(SIM_MP_DOORBELL,
				   sim_mp_doorbell_action) == 0 ||
	    rte_errno == EEXIST || rte_errno == ENOTSUP)
		return 0;
	SIM_LOG(ERR, "cannot register the IPC action %s: %s",
		SIM_MP_DOORBELL, rte_strerror(rte_errno));
	return -rte_errno;
}

static void
sim_remote_kick(struct mlx5dv_devx_uar *dv, uint64_t db)
{
	struct sim_remote_uar *r = container_of(dv, struct sim_remote_uar, dv);
	struct sim_mp_doorbell d = {
		.card = r->where.card,
		.vhca_id = r->where.vhca_id,
		.page_id = dv->page_id,
		.db = db,
	};
	struct rte_mp_msg msg;

	memset(&msg, 0, sizeof(msg));
	rte_strlcpy(msg.name, SIM_MP_DOORBELL, sizeof(msg.name));
	msg.len_param = sizeof(d);
	memcpy(msg.param, &d, sizeof(d));
	if (rte_mp_sendmsg(&msg) != 0)
		SIM_LOG(ERR, "doorbell to the primary process lost: %s",
			rte_strerror(rte_errno));
}

/* The vHCA the devargs name, without creating it (see sim_find_device). */
static int
sim_parse_vhca(struct mlx5_common_device *cdev, struct mlx5_kvargs_ctrl *kv,
	       struct sim_devargs *da)
{
	const char *name = cdev->dev != NULL ? cdev->dev->name : NULL;
	int ret;

	ret = mlx5_kvargs_process(kv, sim_devarg_keys, sim_devarg_handler, da);
	if (ret < 0)
		return ret;
	if (!da->vhca_id_set &&
	    sim_vhca_id_from_name(name, &da->vhca_id) < 0) {
		SIM_LOG(ERR, "device %s: no vhca_id devarg and no number in the"
			" name (mlx5_sim<N>) to take it from",
			name != NULL ? name : "(unnamed)");
		rte_errno = EINVAL;
		return -EINVAL;
	}
	return 0;
}

static int
sim_attach_secondary(struct mlx5_common_device *cdev,
		     struct mlx5_kvargs_ctrl *kv)
{
	struct sim_secondary *sec;

	RTE_SET_USED(kv);
	sec = calloc(1, sizeof(*sec));
	if (sec == NULL) {
		rte_errno = ENOMEM;
		return -ENOMEM;
	}
	/* Which vHCA: as the primary's find_device recorded it. */
	memcpy(sec, cdev->primary->backend_id, sizeof(*sec));
	cdev->backend_priv = sec;
	return 0;
}

static void
sim_detach_secondary(struct mlx5_common_device *cdev)
{
	free(cdev->backend_priv);
	cdev->backend_priv = NULL;
}

static int
sim_uar_import(struct mlx5_common_device *cdev, uint32_t page_id,
	       uint64_t mmap_off, struct mlx5_uar *uar)
{
	const struct sim_secondary *sec = cdev->backend_priv;
	struct sim_remote_uar *r;

	if (sec == NULL)
		return -ENODEV;
	r = calloc(1, sizeof(*r));
	if (r == NULL)
		return -ENOMEM;
	r->where = *sec;
	r->dv.page_id = page_id;
	r->dv.mmap_off = (off_t)mmap_off;
	r->dv.reg_addr = &r->reg;
	r->dv.base_addr = &r->reg;
	uar->obj = &r->dv;
	uar->db = &r->reg;
	uar->page_id = page_id;
	uar->mmap_off = mmap_off;
	uar->kick = sim_remote_kick;
	return 0;
}

static void
sim_uar_unimport(struct mlx5_common_device *cdev, struct mlx5_uar *uar)
{
	RTE_SET_USED(cdev);
	free(container_of(uar->obj, struct sim_remote_uar, dv));
}

static int
sim_find_device(struct mlx5_common_device *cdev, struct mlx5_kvargs_ctrl *kv,
		struct ibv_device **ibv_dev)
{
	struct sim_devargs da = {
		.card = 0,
		.caps = {
			.hca_cap_2 = true,
			.crossing = true,
			.pacing = true,
			.pp_uid = true,
			.update_tag = true,
			.crypto = true,
			.signature = true,
			.cross_rule = MLX5_SIM_CROSS_BOTH,
			.odp = true,
			.pp_table_size = SIM_DEFAULT_PP_TABLE_SIZE,
			.pp_min_rate = SIM_DEFAULT_PP_MIN_RATE,
			.pp_max_rate = SIM_DEFAULT_PP_MAX_RATE,
			.nports = 1,
			.speed_mbps = 100000,
		},
		.fail_status = MLX5_CMD_STAT_BAD_PARAM_ERR,
	};
	struct mlx5_sim_fault fault = { .armed = false, .opcode = -1 };
	const char *name = cdev->dev != NULL ? cdev->dev->name : NULL;
	struct mlx5_sim_vhca *vhca;
	int ret;

	ret = sim_mp_primary_init();
	if (ret < 0)
		return ret;
	ret = sim_parse_vhca(cdev, kv, &da);
	if (ret < 0)
		return ret;
	if (da.caps.pp_min_rate > da.caps.pp_max_rate) {
		SIM_LOG(ERR, "devargs pp_min_rate=%u pp_max_rate=%u: the"
			" minimum rate is above the maximum",
			da.caps.pp_min_rate, da.caps.pp_max_rate);
		rte_errno = EINVAL;
		return -EINVAL;
	}
	if ((da.caps_given & MLX5_SIM_CAP_WIRE2) && da.caps.nports < 2) {
		SIM_LOG(ERR, "devarg wire2: the vHCA has one port (ports=2"
			" gives it a second)");
		rte_errno = EINVAL;
		return -EINVAL;
	}
	if (da.fail_status_set && !da.fail_cmd_set && !da.fail_nth_set) {
		SIM_LOG(ERR, "devarg fail_status=%s: needs fail_cmd or fail_nth",
			mlx5_sim_status_name(da.fail_status));
		rte_errno = EINVAL;
		return -EINVAL;
	}
	ret = mlx5_sim_vhca_get(da.card, da.vhca_id, &da.caps, da.caps_given,
				&vhca);
	if (ret < 0)
		return ret;
	if (da.fail_cmd_set || da.fail_nth_set) {
		fault.armed = true;
		fault.opcode = da.fail_cmd_set ? da.fail_cmd : -1;
		fault.nth = da.fail_nth_set ? da.fail_nth : 0;
		fault.status = da.fail_status;
	}
	mlx5_sim_vhca_fault_arm(vhca, &fault);
	*ibv_dev = &vhca->ibdev;
	/* For secondary processes (sim_attach_secondary()). */
	RTE_BUILD_BUG_ON(sizeof(struct sim_secondary) >
			 sizeof(cdev->backend_id));
	memcpy(cdev->backend_id, &(struct sim_secondary){
		.card = da.card, .vhca_id = da.vhca_id }, sizeof(struct sim_secondary));
	SIM_LOG(DEBUG, "device %s is %s", name != NULL ? name : "(unnamed)",
		vhca->ibdev.name);
	return 0;
}

const struct mlx5_glue mlx5_sim_glue = {
	.name = "sim",
	.get_device_list = mlx5_sim_get_device_list,
	.free_device_list = mlx5_sim_free_device_list,
	.dv_open_device = mlx5_sim_open_device,
	.close_device = mlx5_sim_close_device,
	.import_device = mlx5_sim_import_device,
	.query_device_ex = mlx5_sim_query_device_ex,
	.alloc_pd = mlx5_sim_alloc_pd,
	.dealloc_pd = mlx5_sim_dealloc_pd,
	.import_pd = mlx5_sim_import_pd,
	.unimport_pd = mlx5_sim_unimport_pd,
	.query_pdn = mlx5_sim_query_pdn,
	.reg_mr = mlx5_sim_reg_mr,
	.dereg_mr = mlx5_sim_dereg_mr,
	.devx_obj_create = mlx5_sim_obj_create,
	.devx_obj_query = mlx5_sim_obj_query,
	.devx_obj_modify = mlx5_sim_obj_modify,
	.devx_obj_destroy = mlx5_sim_obj_destroy,
	.devx_general_cmd = mlx5_sim_general_cmd,
	.devx_umem_reg = mlx5_sim_umem_reg,
	.devx_umem_dereg = mlx5_sim_umem_dereg,
	.devx_alloc_uar = mlx5_sim_alloc_uar,
	.devx_free_uar = mlx5_sim_free_uar,
	.devx_query_eqn = mlx5_sim_query_eqn,
	.uar_kick = mlx5_sim_uar_kick,
	.dv_create_mkey = mlx5_sim_dv_create_mkey,
	.dv_destroy_mkey = mlx5_sim_dv_destroy_mkey,
	.dv_pp_alloc = mlx5_sim_pp_alloc,
	.dv_pp_free = mlx5_sim_pp_free,
	.devx_qp_query = mlx5_sim_qp_query,
	.devx_qp_modify = mlx5_sim_qp_modify,
	.devx_cq_query = mlx5_sim_cq_query,
	.devx_cq_modify = mlx5_sim_cq_modify,
	.devx_srq_query = mlx5_sim_srq_query,
	.devx_srq_modify = mlx5_sim_srq_modify,
	.devx_wq_query = mlx5_sim_wq_query,
	.devx_wq_modify = mlx5_sim_wq_modify,
	.devx_ind_tbl_query = mlx5_sim_ind_tbl_query,
	.devx_ind_tbl_modify = mlx5_sim_ind_tbl_modify,
	.dv_query_qp_lag_port = mlx5_sim_query_qp_lag_port,
	.dv_modify_qp_lag_port = mlx5_sim_modify_qp_lag_port,
	.dv_modify_qp_udp_sport = mlx5_sim_modify_qp_udp_sport,

	/* Flow steering: the NIC receive table (mlx5_sim_flow.c). */
	.dv_create_flow_matcher = mlx5_sim_flow_matcher_create,
	.dv_destroy_flow_matcher = mlx5_sim_flow_matcher_destroy,
	.dv_create_flow = mlx5_sim_flow_create,
	.destroy_flow = mlx5_sim_flow_destroy,

	/* Port attributes: the port model (mlx5_sim_wire.c). */
	.port_link_get = mlx5_sim_port_link_get,
	.port_mtu_set = mlx5_sim_port_mtu_set,
	.port_speed_set = mlx5_sim_port_speed_set,
	.port_link_set = mlx5_sim_port_link_set,

	/* Verbs queue objects (mlx5_sim_verbs.c). */
	.create_cq = mlx5_sim_create_cq,
	.destroy_cq = mlx5_sim_destroy_cq,
	.create_qp_ex = mlx5_sim_create_qp_ex,
	.modify_qp = mlx5_sim_modify_qp,
	.destroy_qp = mlx5_sim_destroy_qp,
	.create_srq = mlx5_sim_create_srq,
	.modify_srq = mlx5_sim_modify_srq,
	.destroy_srq = mlx5_sim_destroy_srq,
	.create_wq = mlx5_sim_create_wq,
	.destroy_wq = mlx5_sim_destroy_wq,
	.create_rwq_ind_table = mlx5_sim_create_rwq_ind_table,
	.destroy_rwq_ind_table = mlx5_sim_destroy_rwq_ind_table,
	.dv_init_obj = mlx5_sim_dv_init_obj,
};

static const struct mlx5_backend mlx5_sim_backend = {
	.name = "sim",
	.glue = &mlx5_sim_glue,
	.find_device = sim_find_device,
	.release_device = NULL, /* vHCAs live until the process ends. */
	.attach_secondary = sim_attach_secondary,
	.detach_secondary = sim_detach_secondary,
	.uar_import = sim_uar_import,
	.uar_unimport = sim_uar_unimport,
};

static int
mlx5_sim_vdev_probe(struct rte_vdev_device *vdev)
{
	return mlx5_common_dev_probe(&vdev->device, &mlx5_sim_backend);
}

static int
mlx5_sim_vdev_remove(struct rte_vdev_device *vdev)
{
	return mlx5_common_dev_remove(&vdev->device);
}

/* rte_dev_dma_map()/unmap(): explicit registration of external memory. */
static int
mlx5_sim_vdev_dma_map(struct rte_vdev_device *vdev, void *addr, uint64_t iova,
		      size_t len)
{
	return mlx5_mr_dev_dma_map(&vdev->device, addr, iova, len);
}

static int
mlx5_sim_vdev_dma_unmap(struct rte_vdev_device *vdev, void *addr,
			uint64_t iova, size_t len)
{
	return mlx5_mr_dev_dma_unmap(&vdev->device, addr, iova, len);
}

static struct rte_vdev_driver mlx5_sim_vdev_driver = {
	.probe = mlx5_sim_vdev_probe,
	.remove = mlx5_sim_vdev_remove,
	.dma_map = mlx5_sim_vdev_dma_map,
	.dma_unmap = mlx5_sim_vdev_dma_unmap,
};

RTE_PMD_REGISTER_VDEV(mlx5_sim, mlx5_sim_vdev_driver);
RTE_PMD_REGISTER_PARAM_STRING(mlx5_sim,
	"card=<0-255> "
	"vhca_id=<0-65535> "
	"crossing=<0|1> "
	"hca_cap_2=<0|1> "
	"pacing=<0|1> "
	"pp_uid=<0|1> "
	"pp_table_size=<0-65535> "
	"pp_min_rate=<kbps> "
	"pp_max_rate=<kbps> "
	"update_tag=<0|1> "
	"crypto=<0|1> "
	"signature=<0|1> "
	"cross_rule=<grant|mark|both> "
	"alias_status=<0-7> "
	"odp=<0|1> "
	"ports=<1-" RTE_STR(MLX5_SIM_MAX_PORTS) "> "
	"wire=<loopback|none|vhca_id[:port]> "
	"wire2=<loopback|none|vhca_id[:port]> "
	"speed=<10-800000> "
	"pace_clock=<virtual|wall> "
	"fail_cmd=<opcode|name> "
	"fail_nth=<n> "
	"fail_status=<status|name> "
	MLX5_COMMON_PARAM_STRING);
