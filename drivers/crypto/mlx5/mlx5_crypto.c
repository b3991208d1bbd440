/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * The mlx5 crypto PMD: the crypto class driver of the common device
 * (class=crypto), a cryptodev named after the EAL device under the driver
 * name crypto_mlx5. This file: probe and remove, devargs, the device
 * operations and sessions (one DEK each). The queue pairs and the
 * datapath are in mlx5_crypto_qp.c, below: this file calls it, never the
 * other way.
 */

#include <ctype.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/queue.h>

#include <rte_common.h>
#include <rte_cryptodev.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_string_fns.h>

#include <mlx5_common.h>
#include <mlx5_common_umr.h>

#include "mlx5_crypto.h"

#define MLX5_CRYPTO_FEATURE_FLAGS \
	(RTE_CRYPTODEV_FF_SYMMETRIC_CRYPTO | RTE_CRYPTODEV_FF_HW_ACCELERATED | \
	 RTE_CRYPTODEV_FF_IN_PLACE_SGL | RTE_CRYPTODEV_FF_OOP_SGL_IN_SGL_OUT | \
	 RTE_CRYPTODEV_FF_OOP_SGL_IN_LB_OUT | \
	 RTE_CRYPTODEV_FF_OOP_LB_IN_SGL_OUT | \
	 RTE_CRYPTODEV_FF_OOP_LB_IN_LB_OUT | \
	 RTE_CRYPTODEV_FF_CIPHER_MULTIPLE_DATA_UNITS)

uint8_t mlx5_crypto_driver_id;

static TAILQ_HEAD(, mlx5_crypto_priv) mlx5_crypto_privs =
	TAILQ_HEAD_INITIALIZER(mlx5_crypto_privs);
static pthread_mutex_t mlx5_crypto_privs_lock = PTHREAD_MUTEX_INITIALIZER;

/*
 * AES-XTS with two keys of 128 or 256 bits and a 16-byte tweak. Data units
 * of 512 B, 4 KiB and 1 MiB, or 0: the whole operation one unit. The key
 * is given as the pair (32 or 64 bytes), or on a device in wrapped import
 * as the pair and its key tag wrapped (48 or 80 bytes).
 */
#define MLX5_CRYPTO_XTS_CAPS(kmin, kmax) { \
	{ \
		.op = RTE_CRYPTO_OP_TYPE_SYMMETRIC, \
		.sym = { \
			.xform_type = RTE_CRYPTO_SYM_XFORM_CIPHER, \
			.cipher = { \
				.algo = RTE_CRYPTO_CIPHER_AES_XTS, \
				.block_size = MLX5_CRYPTO_XTS_BLOCK, \
				.key_size = { .min = (kmin), .max = (kmax), \
					      .increment = 32 }, \
				.iv_size = { .min = MLX5_CRYPTO_IV_LEN, \
					     .max = MLX5_CRYPTO_IV_LEN, \
					     .increment = 0 }, \
				.dataunit_set = \
				RTE_CRYPTO_CIPHER_DATA_UNIT_LEN_512_BYTES | \
				RTE_CRYPTO_CIPHER_DATA_UNIT_LEN_4096_BYTES | \
				RTE_CRYPTO_CIPHER_DATA_UNIT_LEN_1_MEGABYTES, \
			}, \
		}, \
	}, \
	/* RTE_CRYPTODEV_END_OF_CAPABILITIES_LIST(), designated for clang. */ \
	{ .op = RTE_CRYPTO_OP_TYPE_UNDEFINED }, \
}

static const struct rte_cryptodev_capabilities mlx5_crypto_caps[] =
	MLX5_CRYPTO_XTS_CAPS(32, 64);
static const struct rte_cryptodev_capabilities mlx5_crypto_caps_wrapped[] =
	MLX5_CRYPTO_XTS_CAPS(MLX5_CRYPTO_WRAPPED_KEY_128,
			     MLX5_CRYPTO_WRAPPED_KEY_256);

static void
mlx5_crypto_dev_infos_get(struct rte_cryptodev *dev,
			  struct rte_cryptodev_info *info)
{
	struct mlx5_crypto_priv *priv = dev->data->dev_private;
	uint8_t log_deks = priv->cdev->caps.crypto.log_max_num_deks;

	if (info == NULL)
		return;
	info->driver_id = mlx5_crypto_driver_id;
	info->feature_flags = dev->feature_flags;
	info->capabilities = priv->login != NULL ? mlx5_crypto_caps_wrapped :
						   mlx5_crypto_caps;
	info->max_nb_queue_pairs = priv->cfg.max_qps;
	info->min_mbuf_headroom_req = 0;
	info->min_mbuf_tailroom_req = 0;
	/* A session is a DEK: the device's DEK limit, 0 when not told. */
	info->sym.max_nb_sessions = log_deks > 0 && log_deks < 32 ?
				    UINT32_C(1) << log_deks : 0;
}

static int
mlx5_crypto_dev_configure(struct rte_cryptodev *dev,
			  struct rte_cryptodev_config *config)
{
	if (config == NULL) {
		DRV_LOG(ERR, "%s: configure without a configuration",
			dev->data->name);
		rte_errno = EINVAL;
		return -EINVAL;
	}
	if (config->ff_disable & RTE_CRYPTODEV_FF_SYMMETRIC_CRYPTO) {
		DRV_LOG(ERR, "%s: symmetric crypto cannot be disabled: it is all the device does",
			dev->data->name);
		rte_errno = ENOTSUP;
		return -ENOTSUP;
	}
	return 0;
}

static int
mlx5_crypto_dev_start(struct rte_cryptodev *dev)
{
	RTE_SET_USED(dev);
	return 0;
}

static void
mlx5_crypto_dev_stop(struct rte_cryptodev *dev)
{
	RTE_SET_USED(dev);
}

static int
mlx5_crypto_dev_close(struct rte_cryptodev *dev)
{
	mlx5_crypto_qp_destroy_all(dev);
	return 0;
}

static void
mlx5_crypto_stats_get(struct rte_cryptodev *dev,
		      struct rte_cryptodev_stats *stats)
{
	uint16_t i;

	for (i = 0; i < dev->data->nb_queue_pairs; i++) {
		const struct mlx5_crypto_qp *qp = dev->data->queue_pairs[i];

		if (qp == NULL)
			continue;
		stats->enqueued_count += qp->stats.enqueued_count;
		stats->dequeued_count += qp->stats.dequeued_count;
		stats->enqueue_err_count += qp->stats.enqueue_err_count;
		stats->dequeue_err_count += qp->stats.dequeue_err_count;
	}
}

static void
mlx5_crypto_stats_reset(struct rte_cryptodev *dev)
{
	uint16_t i;

	for (i = 0; i < dev->data->nb_queue_pairs; i++) {
		struct mlx5_crypto_qp *qp = dev->data->queue_pairs[i];

		if (qp != NULL)
			memset(&qp->stats, 0, sizeof(qp->stats));
	}
}

static unsigned int
mlx5_crypto_sym_session_get_size(struct rte_cryptodev *dev)
{
	RTE_SET_USED(dev);
	return sizeof(struct mlx5_crypto_session);
}

/* The data-unit code of @dataunit_len; 0 when the device has none. */
static uint8_t
mlx5_crypto_block_size(uint32_t dataunit_len)
{
	switch (dataunit_len) {
	case 0:
		/* One unit as large as any operation this PMD takes. */
		return MLX5_CRYPTO_BLOCK_SIZE_1MB;
	case 512:
		return MLX5_CRYPTO_BLOCK_SIZE_512B;
	case 4096:
		return MLX5_CRYPTO_BLOCK_SIZE_4096B;
	case 1u << 20:
		return MLX5_CRYPTO_BLOCK_SIZE_1MB;
	default:
		return 0;
	}
}

/* Destroy a session's DEK (lock held, or the device going away). */
static void
mlx5_crypto_session_dek_destroy(struct mlx5_crypto_session *sess)
{
	if (sess->dek != NULL && mlx5_devx_cmd_destroy(sess->dek) != 0)
		DRV_LOG(WARNING, "DEK 0x%x not destroyed: %s", sess->dek_id,
			rte_strerror(rte_errno));
	sess->dek = NULL;
	sess->fast_blocks = 0;
}

static int
mlx5_crypto_sym_session_configure(struct rte_cryptodev *dev,
				  struct rte_crypto_sym_xform *xform,
				  struct rte_cryptodev_sym_session *session)
{
	struct mlx5_crypto_priv *priv = dev->data->dev_private;
	struct mlx5_crypto_session *sess = CRYPTODEV_GET_SYM_SESS_PRIV(session);
	const struct rte_crypto_cipher_xform *cipher;
	struct mlx5_devx_dek_attr attr = {
		.key_purpose = MLX5_DEK_KEY_PURPOSE_AES_XTS,
		.pd = priv->cdev->pdn,
	};
	const char *why = NULL;
	int ret = -EINVAL;

	memset(sess, 0, sizeof(*sess));
	if (xform == NULL) {
		why = "no transform";
	} else if (xform->next != NULL) {
		why = "chained transforms (only a single cipher transform)";
		ret = -ENOTSUP;
	} else if (xform->type != RTE_CRYPTO_SYM_XFORM_CIPHER ||
		   xform->cipher.algo != RTE_CRYPTO_CIPHER_AES_XTS) {
		why = "not an AES-XTS cipher transform";
		ret = -ENOTSUP;
	}
	if (why != NULL)
		goto refused;
	cipher = &xform->cipher;
	if (priv->login == NULL && cipher->key.length != 32 &&
	    cipher->key.length != 64) {
		why = "key length: AES-XTS takes 32 or 64 bytes (two keys)";
	} else if (priv->login != NULL &&
		   cipher->key.length != MLX5_CRYPTO_WRAPPED_KEY_128 &&
		   cipher->key.length != MLX5_CRYPTO_WRAPPED_KEY_256) {
		why = "key length: the device takes wrapped keys, AES-XTS two keys and their key tag wrapped: 48 or 80 bytes";
	} else if (cipher->key.data == NULL) {
		why = "no key";
	} else if (cipher->iv.length != MLX5_CRYPTO_IV_LEN) {
		why = "IV length: the tweak is 16 bytes";
	} else if (mlx5_crypto_block_size(cipher->dataunit_len) == 0) {
		why = "data-unit length: 0, 512, 4096 or 1048576 bytes";
		ret = -ENOTSUP;
	}
	if (why != NULL)
		goto refused;
	attr.key_size = cipher->key.length == 64 ||
			cipher->key.length == MLX5_CRYPTO_WRAPPED_KEY_256 ?
			MLX5_DEK_KEY_SIZE_256 : MLX5_DEK_KEY_SIZE_128;
	attr.key = cipher->key.data;
	attr.key_len = cipher->key.length;
	/* Every DEK has the key tag, wrapped with it or given here. */
	attr.wrapped = priv->login != NULL;
	attr.has_keytag = true;
	attr.keytag = priv->cfg.keytag;
	sess->dek = mlx5_devx_cmd_create_dek(priv->cdev, &attr);
	if (sess->dek == NULL) {
		ret = -rte_errno;
		DRV_LOG(ERR, "%s: session: DEK: %s", dev->data->name,
			rte_strerror(rte_errno));
		return ret;
	}
	sess->dek_id = sess->dek->id;
	sess->priv = priv;
	sess->dataunit_len = cipher->dataunit_len;
	sess->max_len = cipher->dataunit_len == 0 ?
			RTE_MIN(priv->max_len, MLX5_CRYPTO_WHOLE_OP_MAX) :
			priv->max_len;
	sess->block_size = mlx5_crypto_block_size(cipher->dataunit_len);
	sess->iv_offset = cipher->iv.offset;
	sess->encryption_order = cipher->op == RTE_CRYPTO_CIPHER_OP_ENCRYPT ?
				 MLX5_ENCRYPTION_ORDER_ENCRYPTED_RAW_MEMORY :
				 MLX5_ENCRYPTION_ORDER_ENCRYPTED_RAW_WIRE;
	ret = mlx5_crypto_umr_tmpl_build(sess);
	if (ret != 0) {
		mlx5_crypto_session_dek_destroy(sess);
		why = "UMR WQE refused by the builder";
		goto refused;
	}
	sess->fast_blocks = priv->tweak_be ? 0 :
			    sess->max_len / MLX5_CRYPTO_XTS_BLOCK;
	rte_spinlock_lock(&priv->sess_lock);
	LIST_INSERT_HEAD(&priv->sessions, sess, next);
	rte_spinlock_unlock(&priv->sess_lock);
	return 0;
refused:
	DRV_LOG(ERR, "%s: session refused: %s", dev->data->name, why);
	rte_errno = -ret;
	return ret;
}

static void
mlx5_crypto_sym_session_clear(struct rte_cryptodev *dev,
			      struct rte_cryptodev_sym_session *session)
{
	struct mlx5_crypto_priv *priv = dev->data->dev_private;
	struct mlx5_crypto_session *sess = CRYPTODEV_GET_SYM_SESS_PRIV(session);

	if (sess->dek == NULL)
		return;
	rte_spinlock_lock(&priv->sess_lock);
	LIST_REMOVE(sess, next);
	rte_spinlock_unlock(&priv->sess_lock);
	mlx5_crypto_session_dek_destroy(sess);
}

static struct rte_cryptodev_ops mlx5_crypto_ops = {
	.dev_configure = mlx5_crypto_dev_configure,
	.dev_start = mlx5_crypto_dev_start,
	.dev_stop = mlx5_crypto_dev_stop,
	.dev_close = mlx5_crypto_dev_close,
	.dev_infos_get = mlx5_crypto_dev_infos_get,
	.stats_get = mlx5_crypto_stats_get,
	.stats_reset = mlx5_crypto_stats_reset,
	.queue_pair_setup = mlx5_crypto_qp_setup,
	.queue_pair_release = mlx5_crypto_qp_release,
	.sym_session_get_size = mlx5_crypto_sym_session_get_size,
	.sym_session_configure = mlx5_crypto_sym_session_configure,
	.sym_session_clear = mlx5_crypto_sym_session_clear,
};

/* Devargs of the crypto class (DPDK's own names among them). */
static const char *const mlx5_crypto_keys[] = {
	"max_qps", "max_segs", "max_segs_num", "qp_mkeys", "keytag",
	"credential_id", "import_kek_id", "wcs_file", NULL,
};

/* The value of hexadecimal digit @c. */
static int
mlx5_crypto_hex(int c)
{
	return isdigit(c) ? c - '0' : tolower(c) - 'a' + 10;
}

/*
 * The wrapped credential in file @path: 48 bytes as hexadecimal digit
 * pairs, white space anywhere between pairs (DPDK's own format). 0 or
 * -EINVAL, logged.
 */
static int
mlx5_crypto_wcs_read(const char *path, uint8_t *cred)
{
	FILE *f = path != NULL && path[0] != '\0' ? fopen(path, "r") : NULL;
	size_t n = 0;
	int c, hi = -1;
	const char *why = NULL;

	if (f == NULL) {
		DRV_LOG(ERR, "devarg wcs_file=%s: %s", path != NULL ? path : "",
			path != NULL && path[0] != '\0' ? strerror(errno) :
			"no file named");
		rte_errno = EINVAL;
		return -EINVAL;
	}
	/* No stdio buffer keeps a copy of the credential. */
	setvbuf(f, NULL, _IONBF, 0);
	while (why == NULL && (c = fgetc(f)) != EOF) {
		if (isspace(c)) {
			if (hi >= 0)
				why = "a digit pair split by white space";
		} else if (!isxdigit(c)) {
			why = "a character that is not a hexadecimal digit";
		} else if (hi < 0) {
			hi = mlx5_crypto_hex(c);
		} else if (n == MLX5_CRYPTO_WRAPPED_CREDENTIAL_LEN) {
			why = "more than 48 bytes";
		} else {
			cred[n++] = (uint8_t)(hi << 4 | mlx5_crypto_hex(c));
			hi = -1;
		}
	}
	fclose(f);
	if (why == NULL && (n != MLX5_CRYPTO_WRAPPED_CREDENTIAL_LEN || hi >= 0))
		why = "fewer than 48 bytes (96 hexadecimal digits)";
	if (why == NULL)
		return 0;
	explicit_bzero(cred, MLX5_CRYPTO_WRAPPED_CREDENTIAL_LEN);
	DRV_LOG(ERR, "devarg wcs_file=%s: the wrapped credential: %s", path,
		why);
	rte_errno = EINVAL;
	return -EINVAL;
}

static int
mlx5_crypto_kvarg(const char *key, const char *value, void *opaque)
{
	struct mlx5_crypto_config *cfg = opaque;
	uint64_t v;
	int ret;

	if (strcmp(key, "max_qps") == 0) {
		ret = mlx5_kvarg_parse_uint(key, value, 1,
					    MLX5_CRYPTO_MAX_QPS_MAX, &v);
		cfg->max_qps = (uint16_t)v;
	} else if (strcmp(key, "max_segs") == 0 ||
		   strcmp(key, "max_segs_num") == 0) {
		ret = mlx5_kvarg_parse_uint(key, value, 1,
					    MLX5_UMR_CRYPTO_KLM_MAX, &v);
		cfg->max_segs = (uint16_t)v;
	} else if (strcmp(key, "qp_mkeys") == 0) {
		ret = mlx5_kvarg_parse_uint(key, value, 1,
					    MLX5_CRYPTO_QP_MKEYS_MAX, &v);
		cfg->qp_mkeys = rte_align32pow2((uint32_t)v);
	} else if (strcmp(key, "keytag") == 0) {
		ret = mlx5_kvarg_parse_uint(key, value, 0, UINT64_MAX, &v);
		cfg->keytag = v;
	} else if (strcmp(key, "credential_id") == 0) {
		ret = mlx5_kvarg_parse_uint(key, value, 0, RTE_BIT32(24) - 1,
					    &v);
		cfg->login.credential_id = (uint32_t)v;
	} else if (strcmp(key, "import_kek_id") == 0) {
		ret = mlx5_kvarg_parse_uint(key, value, 0, RTE_BIT32(24) - 1,
					    &v);
		cfg->login.import_kek_id = (uint32_t)v;
	} else if (strcmp(key, "wcs_file") == 0) {
		ret = mlx5_crypto_wcs_read(value, cfg->login.credential);
		cfg->wcs_given = ret == 0;
	} else {
		DRV_LOG(ERR, "devarg %s: not a crypto devarg", key);
		rte_errno = EINVAL;
		ret = -EINVAL;
	}
	return ret;
}

/* The devices' limits the devargs must fit: 0 or -EINVAL, logged. */
static int
mlx5_crypto_config_check(struct mlx5_common_device *cdev,
			 const struct mlx5_crypto_config *cfg)
{
	uint32_t op_bbs = mlx5_crypto_op_bbs(cfg->max_segs);
	uint32_t ring = rte_align32pow2(cfg->qp_mkeys * op_bbs);
	uint32_t log_sq = RTE_MIN(cdev->caps.log_max_qp_sz, 15);

	if (ring > (UINT32_C(1) << log_sq) ||
	    rte_log2_u32(2 * cfg->qp_mkeys) > cdev->caps.log_max_cq_sz) {
		DRV_LOG(ERR, "%s: qp_mkeys=%u with max_segs=%u needs %u WQE blocks and %u CQEs per queue pair; the device takes 2^%u and 2^%u",
			cdev->dev->name, cfg->qp_mkeys, cfg->max_segs, ring,
			2 * cfg->qp_mkeys, log_sq, cdev->caps.log_max_cq_sz);
		rte_errno = EINVAL;
		return -EINVAL;
	}
	return 0;
}

/* What the device must have: 0 or -ENOTSUP naming what lacks. */
static int
mlx5_crypto_caps_check(struct mlx5_common_device *cdev)
{
	const struct mlx5_hca_crypto_attr *c = &cdev->caps.crypto;
	const char *lack = NULL;

	if (!c->sup)
		lack = "crypto";
	else if (!c->dek)
		lack = "DEK objects";
	else if (c->wrapped_import && !c->login)
		lack = "the crypto login object its wrapped import needs";
	else if (c->wrapped_import && !c->wrapped_crypto_operational)
		lack = "an operational crypto (in wrapped import it is still in commissioning: the officer sets its CRYPTO_OPERATIONAL register)";
	else if (!c->aes_xts_multi_block_le_tweak &&
		 !c->aes_xts_multi_block_be_tweak)
		lack = "AES-XTS over many blocks (aes_xts_multi_block_le_tweak or _be_tweak)";
	else if (!cdev->caps.fl_rc_qp_when_roce_enabled &&
		 !cdev->caps.fl_rc_qp_when_roce_disabled)
		lack = "force-loopback RC QPs";
	if (lack == NULL)
		return 0;
	DRV_LOG(ERR, "%s: the device lacks %s", cdev->dev->name, lack);
	rte_errno = ENOTSUP;
	return -ENOTSUP;
}

/* Log out: destroy the crypto login @login (NULL: none). */
static void
mlx5_crypto_login_destroy(struct mlx5_devx_obj *login)
{
	if (login != NULL && mlx5_devx_cmd_destroy(login) != 0)
		DRV_LOG(WARNING, "crypto login 0x%x not destroyed: %s",
			login->id, rte_strerror(rte_errno));
}

static int
mlx5_crypto_probe(struct mlx5_common_device *cdev, struct mlx5_kvargs_ctrl *kv)
{
	struct mlx5_crypto_config cfg = {
		.max_qps = MLX5_CRYPTO_MAX_QPS_DEFAULT,
		.max_segs = MLX5_CRYPTO_MAX_SEGS_DEFAULT,
		.qp_mkeys = MLX5_CRYPTO_QP_MKEYS_DEFAULT,
	};
	struct rte_cryptodev_pmd_init_params params = {
		.private_data_size = sizeof(struct mlx5_crypto_priv),
		.socket_id = cdev->dev->numa_node,
	};
	struct mlx5_devx_obj *login = NULL;
	struct rte_cryptodev *crypto_dev;
	struct mlx5_crypto_priv *priv;
	int ret;

	if (rte_eal_process_type() != RTE_PROC_PRIMARY) {
		DRV_LOG(ERR, "%s: secondary processes are not supported",
			cdev->dev->name);
		rte_errno = ENOTSUP;
		return -ENOTSUP;
	}
	ret = mlx5_kvargs_process(kv, mlx5_crypto_keys, mlx5_crypto_kvarg,
				  &cfg);
	if (ret == 0)
		ret = mlx5_crypto_caps_check(cdev);
	if (ret == 0)
		ret = mlx5_crypto_config_check(cdev, &cfg);
	if (ret == 0 && cdev->caps.crypto.wrapped_import && !cfg.wcs_given) {
		DRV_LOG(ERR, "%s: the device's crypto takes wrapped keys: devarg wcs_file (the credential wrapped with the import KEK) is mandatory",
			cdev->dev->name);
		rte_errno = EINVAL;
		ret = -EINVAL;
	}
	if (ret != 0) {
		explicit_bzero(&cfg.login, sizeof(cfg.login));
		return ret;
	}
	if (!cdev->caps.crypto.wrapped_import && cfg.wcs_given)
		DRV_LOG(WARNING, "%s: wcs_file, credential_id, import_kek_id ignored: the device takes plaintext keys",
			cdev->dev->name);
	if (cdev->caps.crypto.wrapped_import) {
		login = mlx5_devx_cmd_create_crypto_login(cdev, &cfg.login);
		if (login == NULL) {
			ret = -rte_errno;
			DRV_LOG(ERR, "%s: crypto login refused (credential %u, import KEK %u): %s",
				cdev->dev->name, cfg.login.credential_id,
				cfg.login.import_kek_id,
				rte_strerror(rte_errno));
			explicit_bzero(&cfg.login, sizeof(cfg.login));
			return ret;
		}
	}
	/* The credential served its purpose: no copy stays. */
	explicit_bzero(cfg.login.credential, sizeof(cfg.login.credential));
	params.max_nb_queue_pairs = cfg.max_qps;
	rte_strscpy(params.name, cdev->dev->name, sizeof(params.name));
	crypto_dev = rte_cryptodev_pmd_create(params.name, cdev->dev, &params);
	if (crypto_dev == NULL) {
		DRV_LOG(ERR, "%s: cryptodev not created", cdev->dev->name);
		mlx5_crypto_login_destroy(login);
		rte_errno = ENODEV;
		return -ENODEV;
	}
	crypto_dev->dev_ops = &mlx5_crypto_ops;
	crypto_dev->enqueue_burst = mlx5_crypto_enqueue_burst;
	crypto_dev->dequeue_burst = mlx5_crypto_dequeue_burst;
	crypto_dev->feature_flags = MLX5_CRYPTO_FEATURE_FLAGS |
		(login != NULL ? RTE_CRYPTODEV_FF_CIPHER_WRAPPED_KEY : 0);
	crypto_dev->driver_id = mlx5_crypto_driver_id;
	priv = crypto_dev->data->dev_private;
	priv->cdev = cdev;
	priv->crypto_dev = crypto_dev;
	priv->cfg = cfg;
	priv->login = login;
	/* The device names the byte order it increments the tweak in. */
	priv->tweak_be = !cdev->caps.crypto.aes_xts_multi_block_le_tweak;
	priv->op_bbs_max = mlx5_crypto_op_bbs(cfg.max_segs);
	priv->max_len = UINT32_C(1) << RTE_MIN(cdev->caps.log_max_msg, 30);
	rte_spinlock_init(&priv->sess_lock);
	LIST_INIT(&priv->sessions);
	ret = mlx5_uar_prepare(cdev, &priv->uar);
	if (ret != 0) {
		/* The cryptodev is freed with its private data. */
		crypto_dev->dev_ops = NULL;
		rte_cryptodev_pmd_destroy(crypto_dev);
		mlx5_crypto_login_destroy(login);
		return ret;
	}
	pthread_mutex_lock(&mlx5_crypto_privs_lock);
	TAILQ_INSERT_TAIL(&mlx5_crypto_privs, priv, next);
	pthread_mutex_unlock(&mlx5_crypto_privs_lock);
	rte_cryptodev_pmd_probing_finish(crypto_dev);
	/* Telemetry's /mlx5/queues names the cryptodev of the device. */
	mlx5_class_dev_info_add(cdev, MLX5_CLASS_CRYPTO, "cryptodev",
				crypto_dev->data->name,
				crypto_dev->data->dev_id);
	DRV_LOG(INFO, "%s: cryptodev %u, %u queue pairs of %u operations in flight, %u segments, %s keys",
		cdev->dev->name, crypto_dev->data->dev_id, cfg.max_qps,
		cfg.qp_mkeys, cfg.max_segs,
		login != NULL ? "wrapped" : "plaintext");
	return 0;
}

static int
mlx5_crypto_remove(struct mlx5_common_device *cdev)
{
	struct rte_cryptodev *dev;
	struct mlx5_crypto_priv *priv;
	struct mlx5_crypto_session *sess;

	pthread_mutex_lock(&mlx5_crypto_privs_lock);
	TAILQ_FOREACH(priv, &mlx5_crypto_privs, next)
		if (priv->cdev == cdev)
			break;
	if (priv != NULL)
		TAILQ_REMOVE(&mlx5_crypto_privs, priv, next);
	pthread_mutex_unlock(&mlx5_crypto_privs_lock);
	if (priv == NULL)
		return 0;
	dev = priv->crypto_dev;
	mlx5_class_dev_info_del(cdev, MLX5_CLASS_CRYPTO, dev->data->dev_id);
	if (dev->data->dev_started)
		rte_cryptodev_stop(dev->data->dev_id);
	mlx5_crypto_qp_destroy_all(dev);
	/* Sessions the application did not clear lose their keys now. */
	rte_spinlock_lock(&priv->sess_lock);
	if (!LIST_EMPTY(&priv->sessions))
		DRV_LOG(WARNING, "%s: sessions still live at removal: their DEKs are destroyed",
			dev->data->name);
	while ((sess = LIST_FIRST(&priv->sessions)) != NULL) {
		LIST_REMOVE(sess, next);
		mlx5_crypto_session_dek_destroy(sess);
	}
	rte_spinlock_unlock(&priv->sess_lock);
	/* The close refuses while the session pool is not full: go anyway. */
	dev->data->session_pool = NULL;
	mlx5_uar_release(cdev, &priv->uar);
	mlx5_crypto_login_destroy(priv->login);
	priv->login = NULL;
	if (rte_cryptodev_pmd_destroy(dev) != 0)
		DRV_LOG(WARNING, "%s: cryptodev not released", cdev->dev->name);
	return 0;
}

static struct mlx5_class_driver mlx5_crypto_class_driver = {
	.drv_class = MLX5_CLASS_CRYPTO,
	.name = RTE_STR(MLX5_CRYPTO_DRIVER_NAME),
	.probe = mlx5_crypto_probe,
	.remove = mlx5_crypto_remove,
};

static struct cryptodev_driver mlx5_crypto_cryptodev_driver;

static const struct rte_driver mlx5_crypto_rte_driver = {
	.name = RTE_STR(MLX5_CRYPTO_DRIVER_NAME),
	.alias = RTE_STR(MLX5_CRYPTO_DRIVER_NAME),
};

RTE_INIT(mlx5_crypto_init)
{
	mlx5_class_driver_register(&mlx5_crypto_class_driver);
}

RTE_PMD_REGISTER_CRYPTO_DRIVER(mlx5_crypto_cryptodev_driver,
			       mlx5_crypto_rte_driver, mlx5_crypto_driver_id);
/*
 * PMD info (dpdk-pmdinfo.py). A class driver of the common device, not an
 * EAL driver: named as DPDK's own mlx5 class drivers are, with the devargs
 * it takes besides the common ones of the device's bus driver.
 */
RTE_PMD_EXPORT_NAME(MLX5_CRYPTO_DRIVER_NAME, __COUNTER__);
RTE_PMD_REGISTER_PARAM_STRING(MLX5_CRYPTO_DRIVER_NAME,
	"max_qps=<1-" RTE_STR(MLX5_CRYPTO_MAX_QPS_MAX) "> "
	"max_segs=<1-" RTE_STR(MLX5_UMR_CRYPTO_KLM_MAX) "> "
	"max_segs_num=<1-" RTE_STR(MLX5_UMR_CRYPTO_KLM_MAX) "> "
	"qp_mkeys=<1-" RTE_STR(MLX5_CRYPTO_QP_MKEYS_MAX) "> "
	"keytag=<u64> "
	"credential_id=<0-0xffffff> "
	"import_kek_id=<0-0xffffff> "
	"wcs_file=<path>");
RTE_PMD_REGISTER_KMOD_DEP(MLX5_CRYPTO_DRIVER_NAME,
			  "* ib_uverbs & mlx5_core & mlx5_ib");
