/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * Verbs queue objects of a common device (mlx5_common_verbs.h): thin
 * wrappers over the device's backend that turn rdma-core's error
 * conventions into the driver's (negative errno, rte_errno, a log line).
 */

#include <errno.h>
#include <string.h>

#include <rte_errno.h>

#include "mlx5_common_log.h"
#include "mlx5_common_verbs.h"

static const char *const mlx5_verbs_obj_names[] = {
	[MLX5_VERBS_OBJ_CQ] = "CQ",
	[MLX5_VERBS_OBJ_QP] = "QP",
	[MLX5_VERBS_OBJ_SRQ] = "SRQ",
	[MLX5_VERBS_OBJ_WQ] = "WQ",
	[MLX5_VERBS_OBJ_IND_TBL] = "indirection table",
};

/* Log a refused call and set rte_errno; the negative errno. */
static int
mlx5_verbs_error(const char *call, int err)
{
	if (err == 0)
		err = EIO;
	DRV_LOG(ERR, "%s failed: errno=%d (%s)", call, err, strerror(err));
	rte_errno = err;
	return -err;
}

/* A pointer-returning call: NULL with rte_errno from errno. */
static void *
mlx5_verbs_made(const char *call, void *obj)
{
	if (obj == NULL)
		mlx5_verbs_error(call, errno);
	return obj;
}

static bool
mlx5_verbs_type_valid(enum mlx5_verbs_obj_type type, const void *obj)
{
	if ((unsigned int)type < RTE_DIM(mlx5_verbs_obj_names) && obj != NULL)
		return true;
	rte_errno = EINVAL;
	return false;
}

struct ibv_cq *
mlx5_verbs_cq_create(struct mlx5_common_device *cdev, int cqe,
		     int comp_vector)
{
	errno = 0;
	return mlx5_verbs_made("ibv_create_cq",
		cdev->glue->create_cq(cdev->ctx, cqe, NULL, NULL,
				      comp_vector));
}

struct ibv_qp *
mlx5_verbs_qp_create(struct mlx5_common_device *cdev,
		     struct ibv_qp_init_attr_ex *attr)
{
	if (!(attr->comp_mask & IBV_QP_INIT_ATTR_PD)) {
		attr->comp_mask |= IBV_QP_INIT_ATTR_PD;
		attr->pd = cdev->pd;
	}
	errno = 0;
	return mlx5_verbs_made("ibv_create_qp_ex",
			       cdev->glue->create_qp_ex(cdev->ctx, attr));
}

int
mlx5_verbs_qp_modify(struct mlx5_common_device *cdev, struct ibv_qp *qp,
		     struct ibv_qp_attr *attr, int attr_mask)
{
	int ret = cdev->glue->modify_qp(qp, attr, attr_mask);

	return ret != 0 ? mlx5_verbs_error("ibv_modify_qp", ret) : 0;
}

struct ibv_srq *
mlx5_verbs_srq_create(struct mlx5_common_device *cdev,
		      struct ibv_srq_init_attr *attr)
{
	errno = 0;
	return mlx5_verbs_made("ibv_create_srq",
			       cdev->glue->create_srq(cdev->pd, attr));
}

int
mlx5_verbs_srq_limit_set(struct mlx5_common_device *cdev,
			 struct ibv_srq *srq, uint32_t limit)
{
	struct ibv_srq_attr attr = { .srq_limit = limit };
	int ret = cdev->glue->modify_srq(srq, &attr, IBV_SRQ_LIMIT);

	return ret != 0 ? mlx5_verbs_error("ibv_modify_srq", ret) : 0;
}

struct ibv_wq *
mlx5_verbs_wq_create(struct mlx5_common_device *cdev,
		     struct ibv_wq_init_attr *attr)
{
	if (attr->pd == NULL)
		attr->pd = cdev->pd;
	errno = 0;
	return mlx5_verbs_made("ibv_create_wq",
			       cdev->glue->create_wq(cdev->ctx, attr));
}

struct ibv_rwq_ind_table *
mlx5_verbs_ind_tbl_create(struct mlx5_common_device *cdev,
			  struct ibv_wq **wqs, uint32_t log_size)
{
	struct ibv_rwq_ind_table_init_attr attr = {
		.log_ind_tbl_size = log_size,
		.ind_tbl = wqs,
	};

	errno = 0;
	return mlx5_verbs_made("ibv_create_rwq_ind_table",
		cdev->glue->create_rwq_ind_table(cdev->ctx, &attr));
}

int
mlx5_verbs_obj_destroy(struct mlx5_common_device *cdev,
		       enum mlx5_verbs_obj_type type, void *obj)
{
	const struct mlx5_glue *glue = cdev->glue;
	int ret;

	if (!mlx5_verbs_type_valid(type, obj))
		return -EINVAL;
	switch (type) {
	case MLX5_VERBS_OBJ_CQ:
		ret = glue->destroy_cq(obj);
		break;
	case MLX5_VERBS_OBJ_QP:
		ret = glue->destroy_qp(obj);
		break;
	case MLX5_VERBS_OBJ_SRQ:
		ret = glue->destroy_srq(obj);
		break;
	case MLX5_VERBS_OBJ_WQ:
		ret = glue->destroy_wq(obj);
		break;
	default:
		ret = glue->destroy_rwq_ind_table(obj);
		break;
	}
	if (ret != 0) {
		DRV_LOG(ERR, "destroy of a verbs %s refused",
			mlx5_verbs_obj_names[type]);
		return mlx5_verbs_error("verbs destroy", ret);
	}
	return 0;
}

int
mlx5_verbs_obj_number(struct mlx5_common_device *cdev,
		      enum mlx5_verbs_obj_type type, void *obj, uint32_t *num)
{
	struct mlx5dv_cq dv_cq = { .comp_mask = 0 };
	struct mlx5dv_srq dv_srq = { .comp_mask = MLX5DV_SRQ_MASK_SRQN };
	struct mlx5dv_obj dv = { .cq = { .in = obj, .out = &dv_cq } };
	int ret;

	if (!mlx5_verbs_type_valid(type, obj))
		return -EINVAL;
	switch (type) {
	case MLX5_VERBS_OBJ_CQ:
		ret = cdev->glue->dv_init_obj(&dv, MLX5DV_OBJ_CQ);
		if (ret != 0)
			return mlx5_verbs_error("mlx5dv_init_obj(CQ)", ret);
		*num = dv_cq.cqn;
		return 0;
	case MLX5_VERBS_OBJ_SRQ:
		memset(&dv, 0, sizeof(dv));
		dv.srq.in = obj;
		dv.srq.out = &dv_srq;
		ret = cdev->glue->dv_init_obj(&dv, MLX5DV_OBJ_SRQ);
		if (ret == 0 && !(dv_srq.comp_mask & MLX5DV_SRQ_MASK_SRQN))
			ret = EOPNOTSUPP;
		if (ret != 0)
			return mlx5_verbs_error("mlx5dv_init_obj(SRQ)", ret);
		*num = dv_srq.srqn;
		return 0;
	case MLX5_VERBS_OBJ_QP:
		*num = ((struct ibv_qp *)obj)->qp_num;
		return 0;
	case MLX5_VERBS_OBJ_WQ:
		*num = ((struct ibv_wq *)obj)->wq_num;
		return 0;
	default:
		*num = (uint32_t)((struct ibv_rwq_ind_table *)obj)->ind_tbl_num;
		return 0;
	}
}

/* One DEVX query (@modify false) or modify on a verbs object. */
static int
mlx5_verbs_devx(struct mlx5_common_device *cdev, bool modify,
		enum mlx5_verbs_obj_type type, void *obj, const char *name,
		const void *in, size_t inlen, void *out, size_t outlen)
{
	const struct mlx5_glue *glue = cdev->glue;
	int ret;

	if (!mlx5_verbs_type_valid(type, obj))
		return -EINVAL;
	memset(out, 0, outlen);
	switch (type) {
	case MLX5_VERBS_OBJ_CQ:
		ret = (modify ? glue->devx_cq_modify : glue->devx_cq_query)
			(obj, in, inlen, out, outlen);
		break;
	case MLX5_VERBS_OBJ_QP:
		ret = (modify ? glue->devx_qp_modify : glue->devx_qp_query)
			(obj, in, inlen, out, outlen);
		break;
	case MLX5_VERBS_OBJ_SRQ:
		ret = (modify ? glue->devx_srq_modify : glue->devx_srq_query)
			(obj, in, inlen, out, outlen);
		break;
	case MLX5_VERBS_OBJ_WQ:
		ret = (modify ? glue->devx_wq_modify : glue->devx_wq_query)
			(obj, in, inlen, out, outlen);
		break;
	default:
		ret = (modify ? glue->devx_ind_tbl_modify :
		       glue->devx_ind_tbl_query)(obj, in, inlen, out, outlen);
		break;
	}
	if (ret != 0 || MLX5_GET(mbox_out, out, status) != MLX5_CMD_STAT_OK)
		return mlx5_devx_cmd_error(name, ret, out);
	return 0;
}

int
mlx5_verbs_devx_query(struct mlx5_common_device *cdev,
		      enum mlx5_verbs_obj_type type, void *obj,
		      const char *name, const void *in, size_t inlen,
		      void *out, size_t outlen)
{
	return mlx5_verbs_devx(cdev, false, type, obj, name, in, inlen, out,
			       outlen);
}

int
mlx5_verbs_devx_modify(struct mlx5_common_device *cdev,
		       enum mlx5_verbs_obj_type type, void *obj,
		       const char *name, const void *in, size_t inlen,
		       void *out, size_t outlen)
{
	return mlx5_verbs_devx(cdev, true, type, obj, name, in, inlen, out,
			       outlen);
}

int
mlx5_verbs_qp_lag_port_get(struct mlx5_common_device *cdev,
			   struct ibv_qp *qp, uint8_t *port,
			   uint8_t *active_port)
{
	int ret = cdev->glue->dv_query_qp_lag_port(qp, port, active_port);

	return ret != 0 ? mlx5_verbs_error("mlx5dv_query_qp_lag_port", ret) :
	       0;
}

int
mlx5_verbs_qp_lag_port_set(struct mlx5_common_device *cdev,
			   struct ibv_qp *qp, uint8_t port)
{
	int ret = cdev->glue->dv_modify_qp_lag_port(qp, port);

	return ret != 0 ? mlx5_verbs_error("mlx5dv_modify_qp_lag_port", ret) :
	       0;
}

int
mlx5_verbs_qp_udp_sport_set(struct mlx5_common_device *cdev,
			    struct ibv_qp *qp, uint16_t udp_sport)
{
	int ret = cdev->glue->dv_modify_qp_udp_sport(qp, udp_sport);

	return ret != 0 ? mlx5_verbs_error("mlx5dv_modify_qp_udp_sport", ret) :
	       0;
}
