/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/* Devargs: the used-key bookkeeping and the common keys. */

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <rte_errno.h>

#include "mlx5_common.h"
#include "mlx5_common_private.h"
#include "mlx5_common_log.h"
#include "mlx5_parse.h"

int
mlx5_kvargs_process(struct mlx5_kvargs_ctrl *kv, const char *const keys[],
		    mlx5_kvarg_handler_t handler, void *opaque)
{
	const struct rte_kvargs *kvlist = kv->kvlist;

	if (kvlist == NULL)
		return 0;
	for (unsigned int i = 0; i < kvlist->count; i++) {
		const struct rte_kvargs_pair *pair = &kvlist->pairs[i];

		for (unsigned int k = 0; keys[k] != NULL; k++) {
			int ret;

			if (strcmp(pair->key, keys[k]) != 0)
				continue;
			kv->is_used[i] = true;
			ret = handler(pair->key, pair->value, opaque);
			if (ret < 0) {
				rte_errno = -ret;
				return ret;
			}
			break;
		}
	}
	return 0;
}

int
mlx5_kvarg_parse_uint(const char *key, const char *value, uint64_t min,
		      uint64_t max, uint64_t *result)
{
	uint64_t v;

	if (value == NULL || value[0] == '\0') {
		DRV_LOG(ERR, "devarg %s: missing value", key);
		goto error;
	}
	if (mlx5_parse_uint_strict(value, &v) != 0) {
		DRV_LOG(ERR, "devarg %s: \"%s\" is not an unsigned integer in decimal or 0x hexadecimal",
			key, value);
		goto error;
	}
	if (v < min || v > max) {
		DRV_LOG(ERR, "devarg %s: %s is out of range [%" PRIu64 ", %"
			PRIu64 "]", key, value, min, max);
		goto error;
	}
	*result = v;
	return 0;
error:
	rte_errno = EINVAL;
	return -EINVAL;
}

int
mlx5_kvarg_parse_u64(const char *key, const char *value, uint64_t max,
		     uint64_t *result)
{
	return mlx5_kvarg_parse_uint(key, value, 0, max, result);
}

static const struct {
	const char *name;
	enum mlx5_class cls;
} mlx5_class_names[] = {
	{ "eth", MLX5_CLASS_ETH },
	{ "net", MLX5_CLASS_ETH },
	{ "vdpa", MLX5_CLASS_VDPA },
	{ "regex", MLX5_CLASS_REGEX },
	{ "compress", MLX5_CLASS_COMPRESS },
	{ "crypto", MLX5_CLASS_CRYPTO },
};

const char *
mlx5_class_name(enum mlx5_class cls)
{
	for (size_t i = 0; i < RTE_DIM(mlx5_class_names); i++)
		if (mlx5_class_names[i].cls == cls)
			return mlx5_class_names[i].name;
	return "unknown";
}

/* Parse "eth:crypto" into a class bit mask. */
static int
mlx5_parse_classes(const char *key, const char *value, uint32_t *classes)
{
	char buf[128];
	char *tok, *save = NULL;
	uint32_t mask = 0;

	if (strlen(value) >= sizeof(buf) || value[0] == '\0') {
		DRV_LOG(ERR, "devarg %s: bad value \"%s\"", key, value);
		return -EINVAL;
	}
	strcpy(buf, value);
	for (tok = strtok_r(buf, ":", &save); tok != NULL;
	     tok = strtok_r(NULL, ":", &save)) {
		size_t i;

		for (i = 0; i < RTE_DIM(mlx5_class_names); i++)
			if (strcmp(tok, mlx5_class_names[i].name) == 0)
				break;
		if (i == RTE_DIM(mlx5_class_names)) {
			DRV_LOG(ERR, "devarg %s: unknown class \"%s\" (known: eth, vdpa, regex, compress, crypto)",
				key, tok);
			return -EINVAL;
		}
		mask |= mlx5_class_names[i].cls;
	}
	if (mask == 0) {
		DRV_LOG(ERR, "devarg %s: no class in \"%s\"", key, value);
		return -EINVAL;
	}
	*classes = mask;
	return 0;
}

struct mlx5_common_args {
	struct mlx5_common_dev_config *cfg;
	bool cmd_fd_set;
	bool pd_handle_set;
};

static int
mlx5_common_arg(const char *key, const char *value, void *opaque)
{
	struct mlx5_common_args *args = opaque;
	struct mlx5_common_dev_config *cfg = args->cfg;
	uint64_t v;
	int ret;

	if (value == NULL) {
		DRV_LOG(ERR, "devarg %s: missing value", key);
		return -EINVAL;
	}
	if (strcmp(key, MLX5_ARG_CLASS) == 0)
		return mlx5_parse_classes(key, value, &cfg->classes);
	if (strcmp(key, MLX5_ARG_CMD_FD) == 0) {
		ret = mlx5_kvarg_parse_u64(key, value, INT32_MAX, &v);
		if (ret)
			return ret;
		cfg->cmd_fd = (int)v;
		args->cmd_fd_set = true;
		return 0;
	}
	if (strcmp(key, MLX5_ARG_PD_HANDLE) == 0) {
		ret = mlx5_kvarg_parse_u64(key, value, UINT32_MAX, &v);
		if (ret)
			return ret;
		cfg->pd_handle = (uint32_t)v;
		args->pd_handle_set = true;
		return 0;
	}
	/* The remaining keys are booleans. */
	ret = mlx5_kvarg_parse_u64(key, value, 1, &v);
	if (ret)
		return ret;
	if (strcmp(key, MLX5_ARG_MR_EXT_MEMSEG_EN) == 0)
		cfg->mr_ext_memseg_en = v;
	else if (strcmp(key, MLX5_ARG_MR_MEMPOOL_REG_EN) == 0)
		cfg->mr_mempool_reg_en = v;
	else if (strcmp(key, MLX5_ARG_SYS_MEM_EN) == 0)
		cfg->sys_mem_en = v;
	else if (strcmp(key, MLX5_ARG_MR_WHOLE_MEM_EN) == 0)
		cfg->mr_whole_mem_en = v;
	return 0;
}

int
mlx5_common_config_parse(struct mlx5_kvargs_ctrl *kv,
			 struct mlx5_common_dev_config *cfg)
{
	static const char *const keys[] = {
		MLX5_ARG_CLASS, MLX5_ARG_CMD_FD, MLX5_ARG_PD_HANDLE,
		MLX5_ARG_MR_EXT_MEMSEG_EN, MLX5_ARG_MR_MEMPOOL_REG_EN,
		MLX5_ARG_SYS_MEM_EN, MLX5_ARG_MR_WHOLE_MEM_EN, NULL,
	};
	struct mlx5_common_args args = { .cfg = cfg };
	int ret;

	cfg->classes = MLX5_CLASS_ETH;
	cfg->cmd_fd = -1;
	cfg->pd_handle = 0;
	cfg->mr_ext_memseg_en = true;
	cfg->mr_mempool_reg_en = true;
	cfg->sys_mem_en = false;
	cfg->mr_whole_mem_en = false;
	ret = mlx5_kvargs_process(kv, keys, mlx5_common_arg, &args);
	if (ret)
		return ret;
	if (args.cmd_fd_set != args.pd_handle_set) {
		DRV_LOG(ERR, "devarg %s needs devarg %s: a context and its PD are imported together",
			args.cmd_fd_set ? MLX5_ARG_CMD_FD : MLX5_ARG_PD_HANDLE,
			args.cmd_fd_set ? MLX5_ARG_PD_HANDLE : MLX5_ARG_CMD_FD);
		rte_errno = EINVAL;
		return -EINVAL;
	}
	return 0;
}

int
mlx5_kvargs_check_unused(const char *dev_name, struct mlx5_kvargs_ctrl *kv)
{
	const struct rte_kvargs *kvlist = kv->kvlist;

	if (kvlist == NULL)
		return 0;
	for (unsigned int i = 0; i < kvlist->count; i++) {
		if (kv->is_used[i])
			continue;
		DRV_LOG(ERR, "%s: unknown devarg key \"%s\"", dev_name,
			kvlist->pairs[i].key);
		rte_errno = EINVAL;
		return -EINVAL;
	}
	return 0;
}
