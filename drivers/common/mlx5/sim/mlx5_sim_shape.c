/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * The shape of a vHCA: the key=value settings that create it (card,
 * vhca_id, capabilities, cabling, an injected fault), parsed here for every
 * front (the vdev adapter's devargs, the rdma-core front's host file), and
 * the vHCA they name, created or checked against it.
 */

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "mlx5_parse.h"
#include "mlx5_sim_priv.h"

/* An unsigned number within [min, max], as the common layer's devargs. */
static int
sim_parse_uint(const char *key, const char *value, uint64_t min, uint64_t max,
	       uint64_t *result)
{
	uint64_t v;

	if (value == NULL || value[0] == '\0') {
		SIM_LOG(ERR, "devarg %s: missing value", key);
		return -EINVAL;
	}
	if (mlx5_parse_uint_strict(value, &v) != 0) {
		SIM_LOG(ERR,
			"devarg %s: \"%s\" is not an unsigned integer in decimal or 0x hexadecimal",
			key, value);
		return -EINVAL;
	}
	if (v < min || v > max) {
		SIM_LOG(ERR,
			"devarg %s: %s is out of range [%" PRIu64 ", %" PRIu64
			"]",
			key, value, min, max);
		return -EINVAL;
	}
	*result = v;
	return 0;
}

#define SIM_DEFAULT_PP_TABLE_SIZE 128
/*
 * 100 kb/s: rdma-core's own test_mlx5_pp allocates an entry of that rate
 * as "an arbitrary valid rate" of the hardware it runs on.
 */
#define SIM_DEFAULT_PP_MIN_RATE 100
#define SIM_DEFAULT_PP_MAX_RATE 100000000

/* Device memory of a ConnectX-6 Dx (128 KiB of MEMIC). */
#define SIM_DEFAULT_DM_SIZE (128u * 1024)

const char *const mlx5_sim_shape_keys[] = {
	"card",
	"vhca_id",
	"crossing",
	"hca_cap_2",
	"pacing",
	"pp_uid",
	"pp_table_size",
	"pp_min_rate",
	"pp_max_rate",
	"update_tag",
	"crypto",
	"signature",
	"cross_rule",
	"alias_status",
	"odp",
	"ports",
	"wire",
	"wire2",
	"pace_clock",
	"speed",
	"device_id",
	"dm_size",
	"fail_cmd",
	"fail_nth",
	"fail_status",
	"log_max_mkey",
	"crypto_kek",
	"crypto_credential",
	"cqe_comp",
	"empw",
	NULL,
};

/* A 0|1 capability devarg. */
static int
sim_parse_bool(const char *key, const char *value, bool *result)
{
	uint64_t v;
	int ret = sim_parse_uint(key, value, 0, 1, &v);

	if (ret == 0)
		*result = v != 0;
	return ret;
}

/*
 * The crypto devarg: 0 (none), 1 or plaintext (plaintext DEKs), wrapped
 * (the wrapped import method).
 */
static int
sim_parse_crypto(const char *key, const char *value, struct mlx5_sim_caps *caps)
{
	if (value != NULL && strcmp(value, "wrapped") == 0) {
		caps->crypto = true;
		caps->crypto_wrapped = true;
		return 0;
	}
	caps->crypto_wrapped = false;
	if (value != NULL && strcmp(value, "plaintext") == 0) {
		caps->crypto = true;
		return 0;
	}
	if (value != NULL &&
	    (strcmp(value, "0") == 0 || strcmp(value, "1") == 0))
		return sim_parse_bool(key, value, &caps->crypto);
	SIM_LOG(ERR, "devarg %s=%s: expected 0, 1, plaintext or wrapped", key,
		value != NULL ? value : "");
	return -EINVAL;
}

/*
 * A devarg of hexadecimal digits, two a byte: @min or @max bytes (a
 * secret: the log line never repeats it), their count in *@len.
 */
static int
sim_parse_hex(const char *key, const char *value, uint8_t *buf, size_t min,
	      size_t max, size_t *len)
{
	size_t n = value != NULL ? strlen(value) : 0;
	size_t i;

	if (n % 2 == 0 && (n / 2 == min || n / 2 == max)) {
		for (i = 0; i < n; i++)
			if (!isxdigit((unsigned char)value[i]))
				break;
		if (i == n) {
			for (i = 0; i < n / 2; i++) {
				char byte[3] = { value[2 * i], value[2 * i + 1],
						 '\0' };

				buf[i] = (uint8_t)strtoul(byte, NULL, 16);
			}
			*len = n / 2;
			return 0;
		}
	}
	if (min == max)
		SIM_LOG(ERR, "devarg %s: expected %zu hexadecimal digits", key,
			2 * max);
	else
		SIM_LOG(ERR,
			"devarg %s: expected %zu or %zu hexadecimal digits",
			key, 2 * min, 2 * max);
	return -EINVAL;
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
		if (errno == 0 && *end == ':' && end[1] >= '0' && end[1] <= '9')
			port = strtoul(end + 1, &end, 0);
		if (errno == 0 && *end == '\0' && id <= MLX5_SIM_MAX_VHCA_ID &&
		    port >= 1 && port <= MLX5_SIM_MAX_PORTS) {
			*wire = MLX5_SIM_WIRE_PEER(id, port);
			return 0;
		}
	}
	SIM_LOG(ERR,
		"devarg %s=%s: expected loopback, none, or <vhca_id>"
		" or <vhca_id>:<port> (port 1..%u) of a vHCA of the same card",
		key, value != NULL ? value : "", MLX5_SIM_MAX_PORTS);
	return -EINVAL;
}

static int
sim_parse_fail_cmd(const char *key, const char *value, uint16_t *opcode)
{
	uint64_t v;

	if (value != NULL && value[0] >= '0' && value[0] <= '9') {
		if (sim_parse_uint(key, value, 0, UINT16_MAX, &v) < 0)
			return -EINVAL;
		*opcode = (uint16_t)v;
		return 0;
	}
	if (value != NULL && mlx5_sim_opcode_parse(value, opcode) == 0)
		return 0;
	SIM_LOG(ERR,
		"devarg %s=%s: expected an opcode (0..0xffff) or a"
		" command name such as CREATE_MKEY",
		key, value != NULL ? value : "");
	return -EINVAL;
}

static int
sim_parse_fail_status(const char *key, const char *value, uint8_t *status)
{
	uint64_t v;

	if (value != NULL && value[0] >= '0' && value[0] <= '9') {
		if (sim_parse_uint(key, value, 1, UINT8_MAX, &v) < 0)
			return -EINVAL;
		*status = (uint8_t)v;
		return 0;
	}
	if (value != NULL && mlx5_sim_status_parse(value, status) == 0 &&
	    *status != MLX5_CMD_STAT_OK)
		return 0;
	SIM_LOG(ERR,
		"devarg %s=%s: expected a non-zero status (1..255) or a"
		" status name such as BAD_PARAM",
		key, value != NULL ? value : "");
	return -EINVAL;
}

int
mlx5_sim_shape_set(struct mlx5_sim_shape *da, const char *key,
		   const char *value)
{
	struct mlx5_sim_caps *caps = &da->caps;
	size_t len = 0;
	uint64_t v;
	int ret;

	if (strcmp(key, "card") == 0) {
		ret = sim_parse_uint(key, value, 0, MLX5_SIM_MAX_CARD, &v);
		da->card = (uint16_t)v;
	} else if (strcmp(key, "vhca_id") == 0) {
		ret = sim_parse_uint(key, value, 0, MLX5_SIM_MAX_VHCA_ID, &v);
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
		ret = sim_parse_uint(key, value, 0, UINT16_MAX, &v);
		caps->pp_table_size = (uint16_t)v;
		da->caps_given |= MLX5_SIM_CAP_PP_TABLE_SIZE;
	} else if (strcmp(key, "pp_min_rate") == 0) {
		ret = sim_parse_uint(key, value, 0, UINT32_MAX, &v);
		caps->pp_min_rate = (uint32_t)v;
		da->caps_given |= MLX5_SIM_CAP_PP_MIN_RATE;
	} else if (strcmp(key, "pp_max_rate") == 0) {
		ret = sim_parse_uint(key, value, 0, UINT32_MAX, &v);
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
			SIM_LOG(ERR,
				"devarg %s=%s: expected grant, mark or both",
				key, value != NULL ? value : "");
			ret = -EINVAL;
		}
		da->caps_given |= MLX5_SIM_CAP_CROSS_RULE;
	} else if (strcmp(key, "alias_status") == 0) {
		ret = sim_parse_uint(key, value, 0, 7, &v);
		caps->alias_status = (uint8_t)v;
		da->caps_given |= MLX5_SIM_CAP_ALIAS_STATUS;
	} else if (strcmp(key, "signature") == 0) {
		ret = sim_parse_bool(key, value, &caps->signature);
		da->caps_given |= MLX5_SIM_CAP_SIGNATURE;
	} else if (strcmp(key, "crypto") == 0) {
		ret = sim_parse_crypto(key, value, caps);
		da->caps_given |= MLX5_SIM_CAP_CRYPTO;
	} else if (strcmp(key, "crypto_kek") == 0) {
		ret = sim_parse_hex(key, value, caps->crypto_kek, 16,
				    sizeof(caps->crypto_kek), &len);
		caps->crypto_kek_len = (uint8_t)len;
		da->caps_given |= MLX5_SIM_CAP_CRYPTO_KEK;
	} else if (strcmp(key, "crypto_credential") == 0) {
		ret = sim_parse_hex(key, value, caps->crypto_credential,
				    sizeof(caps->crypto_credential),
				    sizeof(caps->crypto_credential), &len);
		da->caps_given |= MLX5_SIM_CAP_CRYPTO_CREDENTIAL;
	} else if (strcmp(key, "empw") == 0) {
		ret = sim_parse_bool(key, value, &caps->empw);
		da->caps_given |= MLX5_SIM_CAP_EMPW;
	} else if (strcmp(key, "odp") == 0) {
		ret = sim_parse_bool(key, value, &caps->odp);
		da->caps_given |= MLX5_SIM_CAP_ODP;
	} else if (strcmp(key, "ports") == 0) {
		ret = sim_parse_uint(key, value, 1, MLX5_SIM_MAX_PORTS, &v);
		caps->nports = (uint8_t)v;
		da->caps_given |= MLX5_SIM_CAP_PORTS;
	} else if (strcmp(key, "wire") == 0) {
		ret = sim_parse_wire(key, value, &caps->wire[0]);
		da->caps_given |= MLX5_SIM_CAP_WIRE1;
	} else if (strcmp(key, "speed") == 0) {
		ret = sim_parse_uint(key, value, 10, 800000, &v);
		caps->speed_mbps = (uint32_t)v;
		da->caps_given |= MLX5_SIM_CAP_SPEED;
	} else if (strcmp(key, "device_id") == 0) {
		ret = sim_parse_uint(key, value, 1, UINT16_MAX, &v);
		caps->device_id = (uint16_t)v;
		da->caps_given |= MLX5_SIM_CAP_DEVICE_ID;
	} else if (strcmp(key, "log_max_mkey") == 0) {
		ret = sim_parse_uint(key, value, MLX5_SIM_LOG_MIN_MKEY,
				     MLX5_SIM_LOG_MAX_MKEY, &v);
		caps->log_max_mkey = (uint8_t)v;
		da->caps_given |= MLX5_SIM_CAP_LOG_MAX_MKEY;
	} else if (strcmp(key, "cqe_comp") == 0) {
		/* 0, or a session of at least two CQEs (a header and one array). */
		ret = sim_parse_uint(key, value, 0, MLX5_SIM_CQE_COMP_MAX, &v);
		if (ret == 0 && v == 1) {
			SIM_LOG(ERR,
				"devarg %s=1: a compressed session holds 2"
				" CQEs at least; 0 announces no compression",
				key);
			ret = -EINVAL;
		}
		caps->cqe_comp_max = (uint8_t)v;
		da->caps_given |= MLX5_SIM_CAP_CQE_COMP;
	} else if (strcmp(key, "dm_size") == 0) {
		ret = sim_parse_uint(key, value, 0, MLX5_SIM_MAX_DM_SIZE, &v);
		caps->dm_size = (uint32_t)v;
		da->caps_given |= MLX5_SIM_CAP_DM_SIZE;
	} else if (strcmp(key, "pace_clock") == 0) {
		ret = 0;
		if (value != NULL && strcmp(value, "virtual") == 0) {
			caps->pace_wall = false;
		} else if (value != NULL && strcmp(value, "wall") == 0) {
			caps->pace_wall = true;
		} else {
			SIM_LOG(ERR, "devarg %s=%s: expected virtual or wall",
				key, value != NULL ? value : "");
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
		ret = sim_parse_uint(key, value, 1, UINT32_MAX, &v);
		da->fail_nth = (uint32_t)v;
		da->fail_nth_set = true;
	} else if (strcmp(key, "fail_status") == 0) {
		ret = sim_parse_fail_status(key, value, &da->fail_status);
		da->fail_status_set = true;
	} else {
		/* Not one of mlx5_sim_shape_keys[]. */
		SIM_LOG(ERR, "devarg %s=%s: not a key of the software device",
			key, value != NULL ? value : "");
		ret = -EINVAL;
	}
	return ret;
}

void
mlx5_sim_shape_init(struct mlx5_sim_shape *sh)
{
	*sh = (struct mlx5_sim_shape){
		.card = 0,
		.caps = {
			.hca_cap_2 = true,
			.crossing = true,
			.pacing = true,
			.pp_uid = true,
			.update_tag = true,
			.crypto = true,
			/* Announced only on request: not modelled. */
			.signature = false,
			.cross_rule = MLX5_SIM_CROSS_BOTH,
			.odp = true,
			.pp_table_size = SIM_DEFAULT_PP_TABLE_SIZE,
			.pp_min_rate = SIM_DEFAULT_PP_MIN_RATE,
			.pp_max_rate = SIM_DEFAULT_PP_MAX_RATE,
			.nports = 1,
			.speed_mbps = 100000,
			.device_id = 0x101d, /* ConnectX-6 Dx. */
			.dm_size = SIM_DEFAULT_DM_SIZE,
			.log_max_mkey = MLX5_SIM_LOG_DEFAULT_MKEY,
			.cqe_comp_max = MLX5_SIM_CQE_COMP_MAX,
			.empw = true,
		},
		.fail_status = MLX5_CMD_STAT_BAD_PARAM_ERR,
	};
}

int
mlx5_sim_shape_parse(struct mlx5_sim_shape *sh, const char *text)
{
	char *copy = strdup(text != NULL ? text : "");
	char *save = NULL, *item;
	int ret = 0;

	if (copy == NULL)
		return -ENOMEM;
	for (item = strtok_r(copy, ",", &save); item != NULL && ret == 0;
	     item = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(item, '=');

		if (eq == NULL) {
			/* Not the whole shape: it may hold secrets. */
			SIM_LOG(ERR, "shape: \"%s\" is not key=value", item);
			ret = -EINVAL;
			break;
		}
		*eq = '\0';
		ret = mlx5_sim_shape_set(sh, item, eq + 1);
	}
	/* The copy may hold secrets (crypto_kek, crypto_credential). */
	explicit_bzero(copy, strlen(text != NULL ? text : ""));
	free(copy);
	return ret;
}

int
mlx5_sim_shape_apply(const struct mlx5_sim_shape *sh,
		     struct mlx5_sim_vhca **out)
{
	struct mlx5_sim_fault fault = { .armed = false, .opcode = -1 };
	struct mlx5_sim_vhca *vhca;
	int ret;

	if (sh->caps.pp_min_rate > sh->caps.pp_max_rate) {
		SIM_LOG(ERR,
			"devargs pp_min_rate=%u pp_max_rate=%u: the"
			" minimum rate is above the maximum",
			sh->caps.pp_min_rate, sh->caps.pp_max_rate);
		return -EINVAL;
	}
	if ((sh->caps_given & MLX5_SIM_CAP_WIRE2) && sh->caps.nports < 2) {
		SIM_LOG(ERR, "devarg wire2: the vHCA has one port (ports=2"
			     " gives it a second)");
		return -EINVAL;
	}
	if (!!(sh->caps_given & MLX5_SIM_CAP_CRYPTO_KEK) !=
		    !!(sh->caps_given & MLX5_SIM_CAP_CRYPTO_CREDENTIAL) ||
	    ((sh->caps_given & MLX5_SIM_CAP_CRYPTO_KEK) &&
	     !sh->caps.crypto_wrapped)) {
		SIM_LOG(ERR, "devargs crypto_kek and crypto_credential: the"
			     " CRYPTO_OPERATIONAL register of a crypto=wrapped"
			     " device takes both");
		return -EINVAL;
	}
	if (sh->fail_status_set && !sh->fail_cmd_set && !sh->fail_nth_set) {
		SIM_LOG(ERR,
			"devarg fail_status=%s: needs fail_cmd or fail_nth",
			mlx5_sim_status_name(sh->fail_status));
		return -EINVAL;
	}
	ret = mlx5_sim_vhca_get(sh->card, sh->vhca_id, &sh->caps,
				sh->caps_given, &vhca);
	if (ret < 0)
		return ret;
	if (sh->fail_cmd_set || sh->fail_nth_set) {
		fault.armed = true;
		fault.opcode = sh->fail_cmd_set ? sh->fail_cmd : -1;
		fault.nth = sh->fail_nth_set ? sh->fail_nth : 0;
		fault.status = sh->fail_status;
	}
	mlx5_sim_vhca_fault_arm(vhca, &fault);
	*out = vhca;
	return 0;
}
