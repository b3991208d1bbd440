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
 *   signature      0|1                 0            signature offload:
 *                                                   mlx5dv_create_mkey
 *                                                   accepts BLOCK_SIGNATURE
 *                                                   (announced only: no
 *                                                   signature BSF runs)
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
 *   cqe_comp       0, 2..64            64           CQE compression: the
 *                                                   longest session
 *                                                   (cqe_compression_max_num);
 *                                                   0: not announced
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

/* A devarg of the device's shape: the model parses it. */
static int
sim_devarg_handler(const char *key, const char *value, void *opaque)
{
	int ret = mlx5_sim_shape_set(opaque, key, value);

	if (ret < 0)
		rte_errno = -ret;
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
	       struct mlx5_sim_shape *da)
{
	const char *name = cdev->dev != NULL ? cdev->dev->name : NULL;
	int ret;

	ret = mlx5_kvargs_process(kv, mlx5_sim_shape_keys, sim_devarg_handler,
				  da);
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
	struct mlx5_sim_shape da;
	const char *name = cdev->dev != NULL ? cdev->dev->name : NULL;
	struct mlx5_sim_vhca *vhca;
	int ret;

	ret = sim_mp_primary_init();
	if (ret < 0)
		return ret;
	mlx5_sim_shape_init(&da);
	ret = sim_parse_vhca(cdev, kv, &da);
	if (ret == 0)
		ret = mlx5_sim_shape_apply(&da, &vhca);
	/* The vHCA keeps its secrets: no copy stays on the stack. */
	mlx5_sim_caps_wipe(&da.caps);
	if (ret < 0) {
		rte_errno = -ret;
		return ret;
	}
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

	/* Port attributes: the port model (mlx5_sim_port.c). */
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
	"crypto=<0|1|plaintext|wrapped> "
	"crypto_kek=<hex:16|32_bytes> "
	"crypto_credential=<hex:40_bytes> "
	"signature=<0|1> "
	"cross_rule=<grant|mark|both> "
	"alias_status=<0-7> "
	"odp=<0|1> "
	"ports=<1-" RTE_STR(MLX5_SIM_MAX_PORTS) "> "
	"wire=<loopback|none|vhca_id[:port]> "
	"wire2=<loopback|none|vhca_id[:port]> "
	"speed=<10-800000> "
	"pace_clock=<virtual|wall> "
	"device_id=<1-0xffff> "
	"dm_size=<0-16777216> "
	"log_max_mkey=<16-24> "
	"cqe_comp=<0-64> "
	"empw=<0|1> "
	"fail_cmd=<opcode|name> "
	"fail_nth=<n> "
	"fail_status=<status|name> "
	MLX5_COMMON_PARAM_STRING);
