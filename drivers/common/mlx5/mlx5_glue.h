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
};

#endif /* MLX5_GLUE_H_ */
