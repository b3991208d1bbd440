/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * The backend contract: one table of operations per device, shaped like
 * rdma-core's API (ibv_*, mlx5dv_*), because that is what the hardware path
 * calls. Two backends implement it: linux/ (rdma-core) and sim/ (the software
 * device). Nothing above them knows which one a device has.
 *
 * Error reporting is exactly rdma-core's:
 * - functions returning a pointer return NULL and set errno;
 * - functions returning int return 0 or a positive errno value (and leave
 *   errno alone, as rdma-core does), except close_device which returns -1
 *   and sets errno like ibv_close_device();
 * - DEVX commands the device refused return EREMOTEIO (NULL + errno EREMOTEIO
 *   for devx_obj_create) with the output mailbox copied back, so that status
 *   and syndrome can be read from it.
 *
 * The types come from the installed <infiniband/verbs.h> and
 * <infiniband/mlx5dv.h>; a backend may embed them in larger structures of
 * its own but must keep the public fields (ibv_pd.handle, ibv_mr.lkey,
 * mlx5dv_mkey.lkey, mlx5dv_pp.index, mlx5dv_devx_umem.umem_id,
 * mlx5dv_devx_uar.page_id/reg_addr/base_addr, ibv_context.cmd_fd and
 * ibv_context.device->name) meaningful.
 */

#ifndef MLX5_GLUE_H_
#define MLX5_GLUE_H_

#include <stddef.h>
#include <stdint.h>

#include <infiniband/verbs.h>
#include <infiniband/mlx5dv.h>

struct mlx5_glue {
	/** Backend name for logs: "rdma-core" or "sim". */
	const char *name;

	/* Devices and contexts. */
	struct ibv_device **(*get_device_list)(int *num_devices);
	void (*free_device_list)(struct ibv_device **list);
	/** mlx5dv_open_device(); attr->flags carries MLX5DV_CONTEXT_FLAGS_DEVX. */
	struct ibv_context *(*dv_open_device)(struct ibv_device *device,
					      struct mlx5dv_context_attr *attr);
	/** ibv_close_device(): 0, or -1 with errno. */
	int (*close_device)(struct ibv_context *ctx);
	/** ibv_import_device(): takes ownership of cmd_fd on success. */
	struct ibv_context *(*import_device)(int cmd_fd);
	/**
	 * ibv_query_device_ex(): device attributes, among them the
	 * on-demand paging capabilities (odp_caps). input may be NULL.
	 */
	int (*query_device_ex)(struct ibv_context *ctx,
			       const struct ibv_query_device_ex_input *input,
			       struct ibv_device_attr_ex *attr);

	/* Protection domains. */
	struct ibv_pd *(*alloc_pd)(struct ibv_context *ctx);
	int (*dealloc_pd)(struct ibv_pd *pd);
	/** ibv_import_pd(): pd_handle is ibv_pd->handle, not the pdn. */
	struct ibv_pd *(*import_pd)(struct ibv_context *ctx, uint32_t pd_handle);
	void (*unimport_pd)(struct ibv_pd *pd);
	/** mlx5dv_init_obj(MLX5DV_OBJ_PD): the PD number. */
	int (*query_pdn)(struct ibv_pd *pd, uint32_t *pdn);

	/*
	 * Memory regions (verbs). IBV_ACCESS_ON_DEMAND with addr NULL and
	 * length SIZE_MAX is rdma-core's implicit ODP MR: every address of
	 * the process, paged in on access.
	 */
	struct ibv_mr *(*reg_mr)(struct ibv_pd *pd, void *addr, size_t length,
				 int access);
	int (*dereg_mr)(struct ibv_mr *mr);

	/* DEVX objects and commands. */
	struct mlx5dv_devx_obj *(*devx_obj_create)(struct ibv_context *ctx,
						   const void *in, size_t inlen,
						   void *out, size_t outlen);
	int (*devx_obj_query)(struct mlx5dv_devx_obj *obj, const void *in,
			      size_t inlen, void *out, size_t outlen);
	int (*devx_obj_modify)(struct mlx5dv_devx_obj *obj, const void *in,
			       size_t inlen, void *out, size_t outlen);
	int (*devx_obj_destroy)(struct mlx5dv_devx_obj *obj);
	int (*devx_general_cmd)(struct ibv_context *ctx, const void *in,
				size_t inlen, void *out, size_t outlen);
	struct mlx5dv_devx_umem *(*devx_umem_reg)(struct ibv_context *ctx,
						  void *addr, size_t size,
						  uint32_t access);
	int (*devx_umem_dereg)(struct mlx5dv_devx_umem *umem);
	struct mlx5dv_devx_uar *(*devx_alloc_uar)(struct ibv_context *ctx,
						  uint32_t flags);
	void (*devx_free_uar)(struct mlx5dv_devx_uar *uar);
	/* The event queue of completion vector @vector (for CREATE_CQ). */
	int (*devx_query_eqn)(struct ibv_context *ctx, uint32_t vector,
			      uint32_t *eqn);
	/*
	 * The device noticing a send doorbell: called after the doorbell
	 * record store and the 8-byte UAR store of @db (the value stored) on
	 * @uar. NULL on real devices (the UAR store is the notification); the
	 * software device runs its engine here, in the caller's thread.
	 */
	void (*uar_kick)(struct mlx5dv_devx_uar *uar, uint64_t db);

	/* Indirect mkeys (mlx5dv_create_mkey). */
	struct mlx5dv_mkey *(*dv_create_mkey)(struct mlx5dv_mkey_init_attr *attr);
	int (*dv_destroy_mkey)(struct mlx5dv_mkey *mkey);

	/* Packet pacing entries. */
	struct mlx5dv_pp *(*dv_pp_alloc)(struct ibv_context *ctx, size_t pp_context_sz,
					 const void *pp_context, uint32_t flags);
	void (*dv_pp_free)(struct mlx5dv_pp *pp);

	/* DEVX access to verbs-created queue objects. */
	int (*devx_qp_query)(struct ibv_qp *qp, const void *in, size_t inlen,
			     void *out, size_t outlen);
	int (*devx_qp_modify)(struct ibv_qp *qp, const void *in, size_t inlen,
			      void *out, size_t outlen);
	int (*devx_cq_query)(struct ibv_cq *cq, const void *in, size_t inlen,
			     void *out, size_t outlen);
	int (*devx_cq_modify)(struct ibv_cq *cq, const void *in, size_t inlen,
			      void *out, size_t outlen);
	int (*devx_srq_query)(struct ibv_srq *srq, const void *in, size_t inlen,
			      void *out, size_t outlen);
	int (*devx_srq_modify)(struct ibv_srq *srq, const void *in, size_t inlen,
			       void *out, size_t outlen);
	int (*devx_wq_query)(struct ibv_wq *wq, const void *in, size_t inlen,
			     void *out, size_t outlen);
	int (*devx_wq_modify)(struct ibv_wq *wq, const void *in, size_t inlen,
			      void *out, size_t outlen);
	int (*devx_ind_tbl_query)(struct ibv_rwq_ind_table *ind_tbl,
				  const void *in, size_t inlen,
				  void *out, size_t outlen);
	int (*devx_ind_tbl_modify)(struct ibv_rwq_ind_table *ind_tbl,
				   const void *in, size_t inlen,
				   void *out, size_t outlen);
	int (*dv_query_qp_lag_port)(struct ibv_qp *qp, uint8_t *port_num,
				    uint8_t *active_port_num);
	int (*dv_modify_qp_lag_port)(struct ibv_qp *qp, uint8_t port_num);
	int (*dv_modify_qp_udp_sport)(struct ibv_qp *qp, uint16_t udp_sport);

	/*
	 * Verbs queue objects: what the devx_qp/cq/srq/wq/ind_tbl operations
	 * above work on. The kernel creates them; the provider library
	 * allocates their rings. ibv_create_cq(), ibv_destroy_cq(),
	 * ibv_create_qp_ex() (attr->comp_mask must hold IBV_QP_INIT_ATTR_PD),
	 * ibv_modify_qp() (which also updates qp->state), ibv_destroy_qp(),
	 * ibv_create_srq(), ibv_modify_srq(), ibv_destroy_srq(),
	 * ibv_create_wq(), ibv_destroy_wq(), ibv_create_rwq_ind_table(),
	 * ibv_destroy_rwq_ind_table(), and mlx5dv_init_obj() for the numbers
	 * verbs does not show (cqn of an ibv_cq, srqn of an ibv_srq).
	 */
	struct ibv_cq *(*create_cq)(struct ibv_context *ctx, int cqe,
				    void *cq_context,
				    struct ibv_comp_channel *channel,
				    int comp_vector);
	int (*destroy_cq)(struct ibv_cq *cq);
	struct ibv_qp *(*create_qp_ex)(struct ibv_context *ctx,
				       struct ibv_qp_init_attr_ex *attr);
	int (*modify_qp)(struct ibv_qp *qp, struct ibv_qp_attr *attr,
			 int attr_mask);
	int (*destroy_qp)(struct ibv_qp *qp);
	struct ibv_srq *(*create_srq)(struct ibv_pd *pd,
				      struct ibv_srq_init_attr *attr);
	int (*modify_srq)(struct ibv_srq *srq, struct ibv_srq_attr *attr,
			  int attr_mask);
	int (*destroy_srq)(struct ibv_srq *srq);
	struct ibv_wq *(*create_wq)(struct ibv_context *ctx,
				    struct ibv_wq_init_attr *attr);
	int (*destroy_wq)(struct ibv_wq *wq);
	struct ibv_rwq_ind_table *(*create_rwq_ind_table)
		(struct ibv_context *ctx,
		 struct ibv_rwq_ind_table_init_attr *attr);
	int (*destroy_rwq_ind_table)(struct ibv_rwq_ind_table *ind_tbl);
	int (*dv_init_obj)(struct mlx5dv_obj *obj, uint64_t obj_type);

	/*
	 * Flow steering: rdma-core's mlx5dv flow API on the NIC receive
	 * table. A matcher holds a priority and a mask (fte_match_param
	 * layout), a rule a value and its actions (here: one
	 * MLX5DV_FLOW_ACTION_DEST_DEVX to a DEVX TIR). destroy_flow is
	 * ibv_destroy_flow().
	 */
	struct mlx5dv_flow_matcher *(*dv_create_flow_matcher)
		(struct ibv_context *ctx,
		 struct mlx5dv_flow_matcher_attr *attr);
	int (*dv_destroy_flow_matcher)(struct mlx5dv_flow_matcher *matcher);
	struct ibv_flow *(*dv_create_flow)
		(struct mlx5dv_flow_matcher *matcher,
		 struct mlx5dv_flow_match_parameters *match_value,
		 size_t num_actions,
		 struct mlx5dv_flow_action_attr actions_attr[]);
	int (*destroy_flow)(struct ibv_flow *flow);

	/*
	 * Port attributes, outside rdma-core: the port's network device on
	 * Linux (its MTU, ethtool link speed and running state), the port
	 * model on the software device. @port counts from 1; @mtu is the
	 * network MTU (without L2 header); a speed of 0 is unknown. Each
	 * returns 0 or a positive errno.
	 */
	int (*port_link_get)(struct ibv_context *ctx, uint8_t port,
			     uint32_t *speed_mbps, uint16_t *mtu, int *up);
	int (*port_mtu_set)(struct ibv_context *ctx, uint8_t port,
			    uint16_t mtu);
	int (*port_speed_set)(struct ibv_context *ctx, uint8_t port,
			      uint32_t speed_mbps);
	/* Administrative state: up (1) or down (0), as `ip link set`. */
	int (*port_link_set)(struct ibv_context *ctx, uint8_t port, int up);
};

#endif /* MLX5_GLUE_H_ */
