/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * Telemetry: the common devices as DPDK's telemetry socket shows them
 * (dpdk-telemetry.py). Endpoints, documented in doc/guides/platform/mlx5.rst:
 *
 *   /mlx5/devices                        names of the probed devices
 *   /mlx5/device,<device>                backend, vHCA id, PD, capabilities, ports
 *   /mlx5/mrs,<device>                   the MR cache's figures
 *   /mlx5/keys,<device>[,<first>]        keys of the public API
 *   /mlx5/pp,<device>[,<first>]          packet-pacing entries
 *   /mlx5/queues,<device>[,<first>]      class devices and DEVX queues
 *
 * Callbacks run on the telemetry thread. A device is held as the public
 * API holds it (mlx5_common_dev_acquire_by_name()): its removal waits, so
 * nothing read here is freed under us. Each list is copied under the lock
 * its writers take (keys_lock, cdev->lock, the MR cache's rwlocks), then
 * formatted outside it. Bad input gets {"error": "<why>"}, never NULL, so
 * that the reply says what was wrong.
 */

#include <ctype.h>
#include <stddef.h>
#include <stdarg.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_errno.h>
#include <rte_string_fns.h>
#include <rte_telemetry.h>

#include "mlx5_malloc.h"
#include "mlx5_common.h"
#include "mlx5_common_log.h"
#include "mlx5_common_mr.h"
#include "mlx5_common_port.h"
#include "mlx5_common_pp.h"
#include "mlx5_common_private.h"

/*
 * Entries of a list in one answer. The telemetry socket answers with at
 * most 16 KiB of JSON; 64 entries of ~150 bytes fit with room to spare.
 * Longer lists are read in pages: /mlx5/keys,<device>,64 and so on.
 */
#define MLX5_TEL_PAGE 64
/* Ports of a device shown by /mlx5/device. */
#define MLX5_TEL_MAX_PORTS 8

static const char *const mlx5_queue_kind_names[] = {
	[MLX5_QUEUE_CQ] = "cq",
	[MLX5_QUEUE_SQ] = "sq",
	[MLX5_QUEUE_RQ] = "rq",
	[MLX5_QUEUE_QP] = "qp",
};

static int mlx5_tel_error(struct rte_tel_data *d, const char *fmt, ...)
	__rte_format_printf(2, 3);

static int
mlx5_tel_error(struct rte_tel_data *d, const char *fmt, ...)
{
	char msg[RTE_TEL_MAX_STRING_LEN];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	rte_tel_data_start_dict(d);
	rte_tel_data_add_dict_string(d, "error", msg);
	return 0;
}

/* @in, at most 64 characters, non-printable ones as '?'. */
static const char *
mlx5_tel_printable(const char *in, char out[65])
{
	size_t i;

	for (i = 0; i < 64 && in[i] != '\0'; i++)
		out[i] = isprint((unsigned char)in[i]) ? in[i] : '?';
	out[i] = '\0';
	return out;
}

/*
 * Parse "<device>[,<first>]" and hold the device. On failure, fills @d
 * with the error and returns NULL.
 */
static struct mlx5_common_device *
mlx5_tel_dev_get(const char *cmd, const char *params, bool paged,
		 unsigned int *first, struct rte_tel_data *d)
{
	char name[RTE_DEV_NAME_MAX_LEN];
	char shown[65];
	struct mlx5_common_device *cdev;
	const char *comma;
	size_t len;

	if (first != NULL)
		*first = 0;
	if (params == NULL || params[0] == '\0') {
		mlx5_tel_error(d, "usage: %s,<device>%s (names: /mlx5/devices)",
			       cmd, paged ? "[,<first>]" : "");
		return NULL;
	}
	comma = strchr(params, ',');
	len = comma != NULL ? (size_t)(comma - params) : strlen(params);
	if (comma != NULL && !paged) {
		mlx5_tel_error(d, "%s takes one parameter, the device name",
			       cmd);
		return NULL;
	}
	if (len == 0 || len >= sizeof(name)) {
		mlx5_tel_error(d, "bad device name \"%s\"",
			       mlx5_tel_printable(params, shown));
		return NULL;
	}
	memcpy(name, params, len);
	name[len] = '\0';
	if (comma != NULL) {
		const char *s = comma + 1;
		/* strtoul() would take a sign or spaces: digits only. */
		bool digits = isdigit((unsigned char)s[0]) != 0;
		char *end;
		unsigned long v;

		errno = 0;
		v = digits ? strtoul(s, &end, 10) : 0;
		if (!digits || *end != '\0' || errno != 0 || v > UINT32_MAX) {
			mlx5_tel_error(
				d, "bad <first> \"%s\": a decimal entry number",
				mlx5_tel_printable(s, shown));
			return NULL;
		}
		*first = (unsigned int)v;
	}
	cdev = mlx5_common_dev_acquire_by_name(name);
	if (cdev == NULL)
		mlx5_tel_error(d,
			       "no mlx5 device \"%s\" (names: /mlx5/devices)",
			       mlx5_tel_printable(name, shown));
	return cdev;
}

/* A new dict for a container; NULL when out of memory. */
static struct rte_tel_data *
mlx5_tel_dict(void)
{
	struct rte_tel_data *c = rte_tel_data_alloc();

	if (c != NULL)
		rte_tel_data_start_dict(c);
	return c;
}

/* Hand container @c to @d under @name (freed with @d's answer). */
static void
mlx5_tel_put(struct rte_tel_data *d, const char *name, struct rte_tel_data *c)
{
	if (c != NULL && rte_tel_data_add_dict_container(d, name, c, 0) != 0)
		rte_tel_data_free(c);
}

/*
 * A new dict, entry "<pos>" of @list (filled after: the answer is written
 * once the callback returns). NULL without memory or room.
 */
static struct rte_tel_data *
mlx5_tel_entry(struct rte_tel_data *list, unsigned int pos)
{
	struct rte_tel_data *e;
	char key[12];

	if (list == NULL)
		return NULL;
	e = mlx5_tel_dict();
	if (e == NULL)
		return NULL;
	snprintf(key, sizeof(key), "%u", pos);
	if (rte_tel_data_add_dict_container(list, key, e, 0) != 0) {
		rte_tel_data_free(e);
		return NULL;
	}
	return e;
}

static void
mlx5_tel_name_add(const char *name, void *arg)
{
	rte_tel_data_add_array_string(arg, name);
}

static int
mlx5_tel_devices(const char *cmd, const char *params, struct rte_tel_data *d)
{
	if (params != NULL && params[0] != '\0')
		return mlx5_tel_error(d, "%s takes no parameter", cmd);
	rte_tel_data_start_array(d, RTE_TEL_STRING_VAL);
	mlx5_common_dev_names(mlx5_tel_name_add, d);
	return 0;
}

/* "eth:crypto" for a class mask. */
static void
mlx5_tel_classes(uint32_t classes, char *buf, size_t size)
{
	size_t used = 0;

	buf[0] = '\0';
	for (uint32_t cls = 1; cls != 0; cls <<= 1) {
		if (!(classes & cls))
			continue;
		used += snprintf(buf + used, size - RTE_MIN(used, size), "%s%s",
				 used ? ":" : "",
				 mlx5_class_name((enum mlx5_class)cls));
		if (used >= size)
			break;
	}
}

static struct rte_tel_data *
mlx5_tel_ports(struct mlx5_common_device *cdev)
{
	struct ibv_device_attr_ex attr;
	struct rte_tel_data *ports = mlx5_tel_dict();
	unsigned int n, p;

	if (ports == NULL)
		return NULL;
	memset(&attr, 0, sizeof(attr));
	if (cdev->glue->query_device_ex(cdev->ctx, NULL, &attr) != 0)
		return ports;
	n = RTE_MIN(attr.orig_attr.phys_port_cnt, MLX5_TEL_MAX_PORTS);
	for (p = 1; p <= n; p++) {
		struct rte_tel_data *port = mlx5_tel_entry(ports, p);
		struct mlx5_port_link link;

		if (port == NULL)
			break;
		if (mlx5_port_link_get(cdev, (uint8_t)p, &link) == 0) {
			rte_tel_data_add_dict_int(port, "up", link.up);
			rte_tel_data_add_dict_u64(port, "speed_mbps",
						  link.speed_mbps);
			rte_tel_data_add_dict_u64(port, "mtu", link.mtu);
		} else {
			rte_tel_data_add_dict_string(port, "error",
						     strerror(rte_errno));
		}
	}
	return ports;
}

/* A capability shown by /mlx5/device: group, name, field of the caps. */
struct mlx5_tel_cap {
	const char *group;
	const char *name;
	size_t offset;
	size_t size; /* 1 (bool, uint8_t), 2, 4 or 8 bytes. */
};

#define MLX5_TEL_CAP(group, name, field) \
	{ \
		group, name, offsetof(struct mlx5_hca_attr, field), \
			sizeof(((struct mlx5_hca_attr *)NULL)->field) \
	}

/* In groups: the entries of one group follow each other. */
static const struct mlx5_tel_cap mlx5_tel_caps_shown[] = {
	MLX5_TEL_CAP("crossing", "crossing_vhca_mkey", crossing_vhca_mkey),
	MLX5_TEL_CAP("crossing", "cross_vhca_object_to_object",
		     cross_vhca_object_to_object_supported),
	MLX5_TEL_CAP("crossing", "allowed_object_for_other_vhca_access",
		     allowed_object_for_other_vhca_access),
	MLX5_TEL_CAP("pacing", "packet_pacing", qos.packet_pacing),
	MLX5_TEL_CAP("pacing", "min_rate_kbps", qos.min_rate_kbps),
	MLX5_TEL_CAP("pacing", "max_rate_kbps", qos.max_rate_kbps),
	MLX5_TEL_CAP("pacing", "rate_table_size", qos.rate_table_size),
	MLX5_TEL_CAP("pacing", "burst_bound", qos.burst_bound),
	MLX5_TEL_CAP("pacing", "typical_size", qos.typical_size),
	MLX5_TEL_CAP("crypto", "crypto", crypto.sup),
	MLX5_TEL_CAP("crypto", "dek", crypto.dek),
	MLX5_TEL_CAP("crypto", "wrapped_import", crypto.wrapped_import),
	MLX5_TEL_CAP("crypto", "crypto_login", crypto.login),
	MLX5_TEL_CAP("crypto", "wrapped_crypto_operational",
		     crypto.wrapped_crypto_operational),
	MLX5_TEL_CAP("crypto", "aes_xts_single_block_le_tweak",
		     crypto.aes_xts_single_block_le_tweak),
	MLX5_TEL_CAP("crypto", "aes_xts_multi_block_be_tweak",
		     crypto.aes_xts_multi_block_be_tweak),
	MLX5_TEL_CAP("crypto", "aes_xts_multi_block_le_tweak",
		     crypto.aes_xts_multi_block_le_tweak),
	MLX5_TEL_CAP("crypto", "log_max_num_deks", crypto.log_max_num_deks),
	MLX5_TEL_CAP("eth", "eth_net_offloads", eth.sup),
	MLX5_TEL_CAP("eth", "csum", eth.csum_cap),
	MLX5_TEL_CAP("eth", "vlan", eth.vlan_cap),
	MLX5_TEL_CAP("eth", "lro", eth.lro_cap),
	MLX5_TEL_CAP("eth", "scatter_fcs", eth.scatter_fcs),
	MLX5_TEL_CAP("eth", "log_max_lso", eth.max_lso_cap),
	MLX5_TEL_CAP("eth", "log_max_rqt", eth.rss_ind_tbl_cap),
	MLX5_TEL_CAP("eth", "log_max_cq_sz", log_max_cq_sz),
	MLX5_TEL_CAP("eth", "log_max_qp_sz", log_max_qp_sz),
	MLX5_TEL_CAP("eth", "cqe_comp_max", cqe_comp_max),
};

static uint64_t
mlx5_tel_cap_value(const struct mlx5_hca_attr *caps,
		   const struct mlx5_tel_cap *cap)
{
	const uint8_t *field = (const uint8_t *)caps + cap->offset;
	uint64_t v64;
	uint32_t v32;
	uint16_t v16;

	switch (cap->size) {
	case 8:
		memcpy(&v64, field, sizeof(v64));
		return v64;
	case 4:
		memcpy(&v32, field, sizeof(v32));
		return v32;
	case 2:
		memcpy(&v16, field, sizeof(v16));
		return v16;
	default:
		return *field; /* bool or uint8_t. */
	}
}

/* One dict per group of mlx5_tel_caps_shown. */
static void
mlx5_tel_caps(struct rte_tel_data *d, const struct mlx5_hca_attr *caps)
{
	struct rte_tel_data *c = NULL;
	unsigned int i;

	for (i = 0; i < RTE_DIM(mlx5_tel_caps_shown); i++) {
		const struct mlx5_tel_cap *cap = &mlx5_tel_caps_shown[i];

		if (i == 0 || strcmp(cap->group, cap[-1].group) != 0)
			c = mlx5_tel_dict();
		if (c != NULL)
			rte_tel_data_add_dict_u64(
				c, cap->name, mlx5_tel_cap_value(caps, cap));
		if (i + 1 == RTE_DIM(mlx5_tel_caps_shown) ||
		    strcmp(cap->group, cap[1].group) != 0) {
			mlx5_tel_put(d, cap->group, c);
			c = NULL;
		}
	}
}

static int
mlx5_tel_device(const char *cmd, const char *params, struct rte_tel_data *d)
{
	struct mlx5_common_device *cdev;
	char classes[64];

	cdev = mlx5_tel_dev_get(cmd, params, false, NULL, d);
	if (cdev == NULL)
		return 0;
	rte_tel_data_start_dict(d);
	rte_tel_data_add_dict_string(d, "name", cdev->dev->name);
	rte_tel_data_add_dict_string(d, "backend", cdev->backend->name);
	rte_tel_data_add_dict_string(d, "ibdev", cdev->ctx->device->name);
	rte_tel_data_add_dict_u64(d, "vhca_id", cdev->caps.vhca_id);
	rte_tel_data_add_dict_u64(d, "pdn", cdev->pdn);
	rte_tel_data_add_dict_int(d, "imported_ctx_pd", cdev->ctx_imported);
	mlx5_tel_classes(cdev->config.classes, classes, sizeof(classes));
	rte_tel_data_add_dict_string(d, "classes", classes);
	/* Set by the probe of each class, maybe on another thread now. */
	mlx5_tel_classes(
		__atomic_load_n(&cdev->classes_loaded, __ATOMIC_RELAXED),
		classes, sizeof(classes));
	rte_tel_data_add_dict_string(d, "classes_loaded", classes);
	mlx5_tel_caps(d, &cdev->caps);
	mlx5_tel_put(d, "ports", mlx5_tel_ports(cdev));
	mlx5_common_dev_release(cdev);
	return 0;
}

static int
mlx5_tel_mrs(const char *cmd, const char *params, struct rte_tel_data *d)
{
	struct mlx5_common_device *cdev;
	struct mlx5_mr_stats st;
	int ret;

	cdev = mlx5_tel_dev_get(cmd, params, false, NULL, d);
	if (cdev == NULL)
		return 0;
	ret = mlx5_mr_stats(cdev, &st);
	mlx5_common_dev_release(cdev);
	if (ret != 0)
		return mlx5_tel_error(d, "no MR cache: %s", strerror(-ret));
	rte_tel_data_start_dict(d);
	rte_tel_data_add_dict_u64(d, "mrs", st.mrs);
	rte_tel_data_add_dict_u64(d, "segments", st.segments);
	rte_tel_data_add_dict_u64(d, "mempools", st.mempools);
	rte_tel_data_add_dict_u64(d, "generation", st.gen);
	rte_tel_data_add_dict_u64(d, "created", st.created);
	rte_tel_data_add_dict_u64(d, "destroyed", st.destroyed);
	rte_tel_data_add_dict_u64(d, "invalidated", st.invalidated);
	rte_tel_data_add_dict_int(d, "mem_events", st.mem_events);
	rte_tel_data_add_dict_int(d, "mempool_events", st.mempool_events);
	rte_tel_data_add_dict_int(d, "whole_mem", st.whole_mem);
	if (st.whole_mem)
		rte_tel_data_add_dict_u64(d, "whole_lkey", st.whole_lkey);
	return 0;
}

/* The page header of a list: total, first shown, shown. */
static void
mlx5_tel_page(struct rte_tel_data *d, unsigned int total, unsigned int first,
	      unsigned int shown)
{
	rte_tel_data_add_dict_u64(d, "count", total);
	rte_tel_data_add_dict_u64(d, "first", first);
	rte_tel_data_add_dict_u64(d, "shown", shown);
}

static int
mlx5_tel_keys(const char *cmd, const char *params, struct rte_tel_data *d)
{
	struct mlx5_key_info *keys;
	struct mlx5_common_device *cdev;
	struct rte_tel_data *list;
	unsigned int first, total, n, i, imported = 0, exported = 0;

	cdev = mlx5_tel_dev_get(cmd, params, true, &first, d);
	if (cdev == NULL)
		return 0;
	/* Sized before the lock; the list may grow meanwhile: cut there. */
	n = mlx5_keys_snapshot(cdev, NULL, 0);
	keys = calloc(RTE_MAX(n, 1u), sizeof(*keys));
	if (keys == NULL) {
		mlx5_common_dev_release(cdev);
		return mlx5_tel_error(d, "no memory");
	}
	total = mlx5_keys_snapshot(cdev, keys, n);
	mlx5_common_dev_release(cdev);
	n = RTE_MIN(n, total);
	list = mlx5_tel_dict();
	for (i = 0; i < n; i++) {
		imported += keys[i].imported;
		exported += strcmp(keys[i].kind, "export") == 0;
	}
	rte_tel_data_start_dict(d);
	mlx5_tel_page(d, total, first,
		      first < n ?
			      RTE_MIN(n - first, (unsigned int)MLX5_TEL_PAGE) :
			      0);
	rte_tel_data_add_dict_u64(d, "exported", exported);
	rte_tel_data_add_dict_u64(d, "imported", imported);
	rte_tel_data_add_dict_u64(d, "private", n - exported - imported);
	for (i = first; i < n && i - first < MLX5_TEL_PAGE; i++) {
		struct rte_tel_data *k = mlx5_tel_entry(list, i);

		if (k == NULL)
			break;
		rte_tel_data_add_dict_u64(k, "mkey", keys[i].mkey);
		rte_tel_data_add_dict_string(k, "kind", keys[i].kind);
		rte_tel_data_add_dict_u64(k, "refcnt", keys[i].refcnt);
		if (keys[i].imported) {
			rte_tel_data_add_dict_u64(k, "remote_vhca_id",
						  keys[i].remote_vhca_id);
			rte_tel_data_add_dict_u64(k, "remote_mkey",
						  keys[i].remote_mkey);
		} else {
			rte_tel_data_add_dict_u64(k, "va", keys[i].va);
			rte_tel_data_add_dict_u64(k, "len", keys[i].len);
		}
	}
	mlx5_tel_put(d, "keys", list);
	free(keys);
	return 0;
}

static int
mlx5_tel_pp(const char *cmd, const char *params, struct rte_tel_data *d)
{
	struct mlx5_pp_entry entries[MLX5_TEL_PAGE];
	struct mlx5_common_device *cdev;
	const struct mlx5_pp_entry *e;
	struct rte_tel_data *list;
	unsigned int first, total = 0, n = 0, i;
	uint16_t table_size;

	cdev = mlx5_tel_dev_get(cmd, params, true, &first, d);
	if (cdev == NULL)
		return 0;
	rte_spinlock_lock(&cdev->lock);
	TAILQ_FOREACH (e, &cdev->pp_entries, next) {
		if (total >= first && n < MLX5_TEL_PAGE)
			entries[n++] = *e;
		total++;
	}
	rte_spinlock_unlock(&cdev->lock);
	table_size = cdev->caps.qos.rate_table_size;
	mlx5_common_dev_release(cdev);
	rte_tel_data_start_dict(d);
	mlx5_tel_page(d, total, first, n);
	rte_tel_data_add_dict_u64(d, "rate_table_size", table_size);
	list = mlx5_tel_dict();
	for (i = 0; i < n; i++) {
		struct rte_tel_data *p = mlx5_tel_entry(list, first + i);

		if (p == NULL)
			break;
		rte_tel_data_add_dict_u64(p, "index", entries[i].index);
		rte_tel_data_add_dict_u64(p, "rate_kbps",
					  entries[i].attr.rate_kbps);
		rte_tel_data_add_dict_u64(p, "burst_bytes",
					  entries[i].attr.burst_bytes);
		rte_tel_data_add_dict_u64(p, "typical_pkt_size",
					  entries[i].attr.typical_pkt_size);
		rte_tel_data_add_dict_u64(p, "rate_mode",
					  entries[i].attr.rate_mode);
		rte_tel_data_add_dict_int(p, "dedicated",
					  entries[i].attr.dedicated);
	}
	mlx5_tel_put(d, "entries", list);
	return 0;
}

/* Class devices, then one page of queues. */
static int
mlx5_tel_queues(const char *cmd, const char *params, struct rte_tel_data *d)
{
	struct mlx5_queue_track queues[MLX5_TEL_PAGE];
	struct mlx5_class_dev_info devs[8];
	struct mlx5_common_device *cdev;
	const struct mlx5_queue_track *q;
	const struct mlx5_class_dev_info *info;
	struct rte_tel_data *list;
	unsigned int first, total = 0, n = 0, ndevs = 0, i;
	uint32_t untracked;

	cdev = mlx5_tel_dev_get(cmd, params, true, &first, d);
	if (cdev == NULL)
		return 0;
	rte_spinlock_lock(&cdev->lock);
	TAILQ_FOREACH (info, &cdev->class_devs, next)
		if (ndevs < RTE_DIM(devs))
			devs[ndevs++] = *info;
	TAILQ_FOREACH (q, &cdev->queues, next) {
		if (total >= first && n < MLX5_TEL_PAGE)
			queues[n++] = *q;
		total++;
	}
	rte_spinlock_unlock(&cdev->lock);
	untracked = __atomic_load_n(&cdev->queues_untracked, __ATOMIC_RELAXED);
	mlx5_common_dev_release(cdev);
	rte_tel_data_start_dict(d);
	list = mlx5_tel_dict();
	for (i = 0; i < ndevs; i++) {
		struct rte_tel_data *c = mlx5_tel_entry(list, i);

		if (c == NULL)
			break;
		rte_tel_data_add_dict_string(
			c, "class", mlx5_class_name(devs[i].drv_class));
		rte_tel_data_add_dict_string(c, "kind", devs[i].kind);
		rte_tel_data_add_dict_string(c, "name", devs[i].name);
		rte_tel_data_add_dict_u64(c, "id", devs[i].id);
	}
	mlx5_tel_put(d, "class_devices", list);
	mlx5_tel_page(d, total, first, n);
	if (untracked != 0)
		rte_tel_data_add_dict_u64(d, "untracked", untracked);
	list = mlx5_tel_dict();
	for (i = 0; i < n; i++) {
		struct rte_tel_data *c = mlx5_tel_entry(list, first + i);

		if (c == NULL)
			break;
		rte_tel_data_add_dict_string(
			c, "type", mlx5_queue_kind_names[queues[i].kind]);
		rte_tel_data_add_dict_u64(c, "id", queues[i].id);
		rte_tel_data_add_dict_u64(c, "log_size", queues[i].log_size);
		if (queues[i].kind != MLX5_QUEUE_CQ)
			rte_tel_data_add_dict_u64(c, "cqn", queues[i].cqn);
	}
	mlx5_tel_put(d, "queues", list);
	return 0;
}

RTE_INIT(mlx5_telemetry_init)
{
	static const struct {
		const char *cmd;
		telemetry_cb fn;
		const char *help;
	} cmds[] = {
		{ "/mlx5/devices", mlx5_tel_devices,
		  "Names of the mlx5 common devices. Takes no parameter." },
		{ "/mlx5/device", mlx5_tel_device,
		  "Backend, vHCA id, PD, capabilities, ports. Parameter: <device>" },
		{ "/mlx5/mrs", mlx5_tel_mrs,
		  "MR cache figures. Parameter: <device>" },
		{ "/mlx5/keys", mlx5_tel_keys,
		  "Keys of the public API. Parameters: <device>[,<first>]" },
		{ "/mlx5/pp", mlx5_tel_pp,
		  "Packet-pacing entries. Parameters: <device>[,<first>]" },
		{ "/mlx5/queues", mlx5_tel_queues,
		  "Class devices and DEVX queues. Parameters: <device>[,<first>]" },
	};
	unsigned int i;

	for (i = 0; i < RTE_DIM(cmds); i++)
		if (rte_telemetry_register_cmd(cmds[i].cmd, cmds[i].fn,
					       cmds[i].help) != 0)
			DRV_LOG(DEBUG, "telemetry command %s not registered",
				cmds[i].cmd);
}
