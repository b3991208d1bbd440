/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * Queue pairs of the mlx5 crypto PMD and their datapath.
 *
 * A queue pair has room for `entries` operations in flight (the qp_mkeys
 * devarg, at most the descriptors asked for), one crypto mkey each. An
 * operation posted to the device is two WQEs, written back to back in the
 * send ring (wrapping like any WQE): a UMR on the slot's mkey (the
 * destination as a KLM list, the session's DEK, the op's tweak and data
 * unit), then an RDMA WRITE of the source to (mkey, 0), fenced after
 * the UMR. One doorbell per burst, and one completion per doorbell:
 * only the burst's last WRITE asks for a CQE (an error always completes),
 * and since the device executes and completes in order, a CQE naming an
 * operation's WQE completes every operation posted before it too. An
 * operation refused before the device sees it (bad arguments) takes its
 * slot with no WQE and comes back, in order, with its status.
 *
 * An error completion fails the operation whose WQE it names (every
 * earlier one completed before it); the QP is then taken through RST back
 * to RTS (the device forgets the rest of the posted work), the stale
 * completions the device wrote before the reset are dropped, and the
 * operations posted after the failed one are posted again.
 *
 * Below the cryptodev ops (mlx5_crypto.c, which installs the queue pair
 * ops and bursts): calls only the log type and the common layer.
 */

#include <errno.h>
#include <string.h>

#include <infiniband/mlx5dv.h>

#include <rte_branch_prediction.h>
#include <rte_byteorder.h>
#include <rte_crypto.h>
#include <rte_errno.h>
#include <rte_mbuf.h>

#include <mlx5_common_dp.h>
#include <mlx5_common_umr.h>
#include <mlx5_malloc.h>

#include "mlx5_crypto.h"

#define WQEBB MLX5_SEND_WQE_BB

/* 16-byte segments of the RDMA WRITE: control, remote address, data. */
static inline uint32_t
mlx5_crypto_write_ds(uint32_t segs)
{
	return 2 + segs;
}

static inline uint16_t
mlx5_crypto_ds_bbs(uint32_t ds)
{
	return (uint16_t)((ds * 16 + WQEBB - 1) / WQEBB);
}

uint16_t
mlx5_crypto_op_bbs(uint32_t segs)
{
	return mlx5_crypto_ds_bbs(MLX5_UMR_CRYPTO_WQE_DS_N(segs)) +
	       mlx5_crypto_ds_bbs(mlx5_crypto_write_ds(segs));
}

/*
 * The UMR WQE of an operation of one destination entry @klm, from the
 * session's template (mlx5_umr_crypto_wqe_build() with placeholders):
 * 16-byte lines of the template that hold session constants are copied,
 * lines the builder leaves zero are written as zeros, the operation's own
 * fields are written. mlx5_crypto_umr_tmpl_build() checks, once per
 * session, that this gives byte for byte what the builder writes.
 * @qpn_ds: the control segment's QP number and size, big-endian.
 */
static __rte_always_inline void
mlx5_crypto_op_umr_one(uint8_t *wqe, const struct mlx5_crypto_session *sess,
		       rte_be32_t qpn_ds, uint16_t wqe_index, uint32_t mkey,
		       const struct mlx5_klm *klm, const uint8_t *tweak)
{
	const uint8_t *tmpl = sess->umr_tmpl;
	struct mlx5_wqe_ctrl_seg *ctrl = (void *)wqe;
	struct mlx5_wqe_umr_ctrl_seg *umr = (void *)(ctrl + 1);
	struct mlx5_wqe_mkey_context_seg *mkc = (void *)(umr + 1);
	struct mlx5_wqe_umr_klm_seg *kseg = (void *)(mkc + 1);
	uint8_t *bsf = (uint8_t *)(kseg + MLX5_UMR_CRYPTO_KLM_OCTOWORDS_N(1));
	rte_be32_t len_be = rte_cpu_to_be_32(klm->byte_count);

	/* Where the lines below are, in the PRM layouts. */
	RTE_BUILD_BUG_ON(sizeof(*umr) != 48 || sizeof(*mkc) != 64);
	RTE_BUILD_BUG_ON(offsetof(struct mlx5_wqe_mkey_context_seg,
				  start_addr) != 16);
	RTE_BUILD_BUG_ON(MLX5_BYTE_OFF(crypto_bsf, raw_data_size) != 4 ||
			 MLX5_FLD_SZ_BYTES(crypto_bsf, raw_data_size) != 4);
	RTE_BUILD_BUG_ON(MLX5_BYTE_OFF(crypto_bsf, xts_initial_tweak) != 16 ||
			 MLX5_CRYPTO_XTS_TWEAK_LEN != 16);
	RTE_BUILD_BUG_ON(__mlx5_dw_off(crypto_bsf, dek_pointer) != 32 / 4);
	ctrl->opmod_idx_opcode = rte_cpu_to_be_32((uint32_t)wqe_index << 8 |
						  MLX5_OPCODE_UMR);
	ctrl->qpn_ds = qpn_ds;
	/* Unsignalled: the WRITE after it completes the operation. */
	ctrl->signature = 0;
	ctrl->dci_stream_channel_id = 0;
	ctrl->fm_ce_se = 0;
	ctrl->imm = rte_cpu_to_be_32(mkey);
	/* UMR control: flags, octowords, mask (template), then zeros. */
	memcpy(umr, tmpl + 16, 16);
	memset((uint8_t *)umr + 16, 0, 32);
	/* Mkey context: flags and PD (template), range at 0, zeros. */
	memcpy(mkc, tmpl + 64, 16);
	mkc->start_addr = 0;
	mkc->len = rte_cpu_to_be_64(klm->byte_count);
	memset((uint8_t *)mkc + 32, 0, 32);
	/* The entry, then the list's padding. */
	kseg->byte_count = len_be;
	kseg->mkey = rte_cpu_to_be_32(klm->mkey);
	kseg->address = rte_cpu_to_be_64(klm->address);
	memset(kseg + 1, 0, 3 * sizeof(*kseg));
	/* BSF: kind, order, standard, data-unit code (template), size. */
	memcpy(bsf, tmpl + 192, 16);
	memcpy(MLX5_ADDR_OF(crypto_bsf, bsf, raw_data_size), &len_be,
	       sizeof(len_be));
	memcpy(MLX5_ADDR_OF(crypto_bsf, bsf, xts_initial_tweak), tweak,
	       MLX5_CRYPTO_XTS_TWEAK_LEN);
	/* The session's DEK, key tag (template), then zeros. */
	memcpy(bsf + 32, tmpl + 224, 16);
	memset(bsf + 48, 0, 16);
}

int
mlx5_crypto_umr_tmpl_build(struct mlx5_crypto_session *sess)
{
	/* Placeholders of what each operation sets (mlx5_crypto_op_umr_one()). */
	struct mlx5_umr_crypto_wqe_attr a = {
		.len = MLX5_CRYPTO_XTS_BLOCK,
		.dek_id = sess->dek_id,
		.keytag = sess->priv->cfg.keytag,
		.block_size = sess->block_size,
		.encryption_order = sess->encryption_order,
	};
	/* An operation's fields, none of them 0, to check mlx5_crypto_op_umr_one(). */
	const struct mlx5_klm klm = {
		.byte_count = 0x12340,
		.mkey = 0x5a6b7c8d,
		.address = UINT64_C(0x1122334455667788),
	};
	uint8_t want[MLX5_UMR_CRYPTO_WQE_SIZE] __rte_aligned(16);
	uint8_t got[MLX5_UMR_CRYPTO_WQE_SIZE] __rte_aligned(16);
	uint32_t i;
	int ret = mlx5_umr_crypto_wqe_build(sess->umr_tmpl, &a);

	if (ret < 0)
		return ret;
	a.qpn = 0xabcdef;
	a.wqe_index = 0xfedc;
	a.mkey = 0x9e8d7c6b;
	a.lkey = klm.mkey;
	a.addr = klm.address;
	a.len = klm.byte_count;
	for (i = 0; i < MLX5_CRYPTO_XTS_TWEAK_LEN; i++)
		a.tweak[i] = (uint8_t)(0xa0 + i);
	ret = mlx5_umr_crypto_wqe_build(want, &a);
	if (ret < 0)
		return ret;
	memset(got, 0xee, sizeof(got));
	mlx5_crypto_op_umr_one(
		got, sess,
		rte_cpu_to_be_32(a.qpn << 8 | MLX5_UMR_CRYPTO_WQE_DS),
		a.wqe_index, a.mkey, &klm, a.tweak);
	for (i = 0; i < MLX5_UMR_CRYPTO_WQE_SIZE; i++) {
		if (got[i] != want[i]) {
			DRV_LOG(ERR, "UMR WQE: byte %u of the datapath's is 0x%02x, the builder's 0x%02x",
				i, got[i], want[i]);
			rte_errno = EINVAL;
			return -EINVAL;
		}
	}
	return 0;
}

/* Destroy what mlx5_crypto_qp_create() made; NULL is a no-op. */
static void
mlx5_crypto_qp_destroy(struct mlx5_crypto_qp *qp)
{
	uint32_t i;

	if (qp == NULL)
		return;
	if (qp->mkeys != NULL) {
		for (i = 0; i < qp->entries; i++)
			if (qp->mkeys[i] != NULL &&
			    mlx5_devx_cmd_destroy(qp->mkeys[i]) != 0)
				DRV_LOG(WARNING, "QP %u: crypto mkey 0x%x not destroyed",
					qp->qp_id, qp->mkeys[i]->id);
	}
	if (mlx5_devx_qp_destroy(&qp->qp) != 0)
		DRV_LOG(WARNING, "QP %u: the device kept the loopback QP",
			qp->qp_id);
	if (mlx5_devx_cq_destroy(&qp->cq) != 0)
		DRV_LOG(WARNING, "QP %u: the device kept the CQ", qp->qp_id);
	mlx5_mr_ctrl_free(&qp->mr_ctrl);
	mlx5_free(qp);
}

/* The crypto mkeys of the pool: free, waiting for a UMR. */
static int
mlx5_crypto_qp_mkeys_create(struct mlx5_crypto_qp *qp)
{
	/* Room for the longest list; a UMR fills it. */
	static const struct mlx5_klm mlx5_crypto_klm_none
		[MLX5_UMR_CRYPTO_KLM_OCTOWORDS_N(MLX5_UMR_CRYPTO_KLM_MAX)];
	struct mlx5_crypto_priv *priv = qp->priv;
	struct mlx5_devx_mkey_attr attr = {
		.access_mode = MLX5_MKC_ACCESS_MODE_KLM,
		.pd = priv->cdev->pdn,
		.lr = true, .lw = true, .rw = true,
		.umr_en = true,
		.crypto_en = true,
		.free = true,
		.klm_array = mlx5_crypto_klm_none,
		.klm_num = MLX5_UMR_CRYPTO_KLM_OCTOWORDS_N(priv->cfg.max_segs),
	};
	uint32_t i;

	for (i = 0; i < qp->entries; i++) {
		qp->mkeys[i] = mlx5_devx_cmd_mkey_create(priv->cdev, &attr);
		if (qp->mkeys[i] == NULL) {
			DRV_LOG(ERR, "QP %u: crypto mkey %u of %u: %s",
				qp->qp_id, i, qp->entries,
				rte_strerror(rte_errno));
			return -rte_errno;
		}
		qp->mkey_free[qp->mkey_top++] = qp->mkeys[i]->id;
	}
	return 0;
}

/* A queue pair of @entries operations in flight; NULL with rte_errno set. */
static struct mlx5_crypto_qp *
mlx5_crypto_qp_create(struct mlx5_crypto_priv *priv, uint16_t qp_id,
		      uint32_t entries, int socket)
{
	struct mlx5_common_device *cdev = priv->cdev;
	uint32_t segs = priv->cfg.max_segs;
	uint32_t ring_bbs = rte_align32pow2(entries * priv->op_bbs_max);
	struct mlx5_devx_qp_params params = {
		.pd = cdev->pdn,
		.log_sq_size = rte_log2_u32(ring_bbs),
		.uar = &priv->uar,
	};
	struct mlx5_crypto_qp *qp;
	size_t size;
	int ret;

	size = RTE_ALIGN_CEIL(sizeof(*qp), RTE_CACHE_LINE_SIZE) +
	       entries * (sizeof(qp->mkeys[0]) + sizeof(qp->slots[0]) +
			  sizeof(qp->mkey_free[0])) +
	       2 * segs * sizeof(struct mlx5_klm) +
	       (size_t)priv->op_bbs_max * WQEBB;
	qp = mlx5_malloc(cdev, MLX5_MEM_ZERO, size, RTE_CACHE_LINE_SIZE,
			 socket);
	if (qp == NULL) {
		DRV_LOG(ERR, "QP %u: no memory for %u entries", qp_id, entries);
		return NULL;
	}
	qp->priv = priv;
	qp->qp_id = qp_id;
	qp->socket = socket;
	qp->entries = entries;
	qp->mkeys = RTE_PTR_ADD(qp, RTE_ALIGN_CEIL(sizeof(*qp),
						   RTE_CACHE_LINE_SIZE));
	qp->slots = (void *)(qp->mkeys + entries);
	qp->klm_src = (void *)(qp->slots + entries);
	qp->klm_dst = qp->klm_src + segs;
	qp->stage = (void *)(qp->klm_dst + segs);
	qp->mkey_free = (void *)(qp->stage + (size_t)priv->op_bbs_max * WQEBB);
	/* One CQE per operation, but a flush may complete every WQE. */
	ret = mlx5_devx_cq_create(cdev, &qp->cq, rte_log2_u32(2 * entries),
				  &priv->uar, socket);
	if (ret != 0) {
		DRV_LOG(ERR, "QP %u: CQ of %u CQEs: %s", qp_id, 2 * entries,
			rte_strerror(-ret));
		goto error;
	}
	params.cqn = qp->cq.obj->id;
	ret = mlx5_devx_qp_create(cdev, &qp->qp, &params, socket);
	if (ret == 0)
		ret = mlx5_devx_qp_to_rts(&qp->qp, qp->qp.obj->id);
	if (ret != 0) {
		DRV_LOG(ERR, "QP %u: loopback QP of %u WQE blocks: %s", qp_id,
			ring_bbs, rte_strerror(-ret));
		goto error;
	}
	ret = mlx5_mr_ctrl_init(&qp->mr_ctrl, cdev, socket);
	if (ret != 0)
		goto error;
	ret = mlx5_crypto_qp_mkeys_create(qp);
	if (ret != 0)
		goto error;
	return qp;
error:
	mlx5_crypto_qp_destroy(qp);
	rte_errno = -ret;
	return NULL;
}

/*
 * 0 if QP @qp_id may be destroyed: it holds no operation the application
 * has not dequeued (every enqueued operation comes back); -EBUSY
 * otherwise, with a log line saying so.
 */
static int
mlx5_crypto_qp_idle_check(struct rte_cryptodev *dev, uint16_t qp_id,
			  const char *what)
{
	struct mlx5_crypto_qp *qp = dev->data->queue_pairs[qp_id];

	if (qp == NULL || qp->pi == qp->ci)
		return 0;
	DRV_LOG(ERR,
		"%s: QP %u: %s refused: %u operations enqueued and not dequeued yet (dequeue them first)",
		dev->data->name, qp_id, what, qp->pi - qp->ci);
	rte_errno = EBUSY;
	return -EBUSY;
}

int
mlx5_crypto_qp_release(struct rte_cryptodev *dev, uint16_t qp_id)
{
	int ret = mlx5_crypto_qp_idle_check(dev, qp_id, "release");

	if (ret != 0)
		return ret;
	mlx5_crypto_qp_destroy(dev->data->queue_pairs[qp_id]);
	dev->data->queue_pairs[qp_id] = NULL;
	return 0;
}

void
mlx5_crypto_qp_destroy_all(struct rte_cryptodev *dev)
{
	uint16_t i;

	if (dev->data->queue_pairs == NULL)
		return;
	for (i = 0; i < dev->data->nb_queue_pairs; i++) {
		struct mlx5_crypto_qp *qp = dev->data->queue_pairs[i];

		if (qp == NULL)
			continue;
		if (qp->pi != qp->ci)
			DRV_LOG(WARNING,
				"%s: QP %u destroyed with %u operations not dequeued: they are lost",
				dev->data->name, i, qp->pi - qp->ci);
		mlx5_crypto_qp_destroy(qp);
		dev->data->queue_pairs[i] = NULL;
	}
}

int
mlx5_crypto_qp_setup(struct rte_cryptodev *dev, uint16_t qp_id,
		     const struct rte_cryptodev_qp_conf *conf, int socket)
{
	struct mlx5_crypto_priv *priv = dev->data->dev_private;
	struct mlx5_crypto_qp *qp = dev->data->queue_pairs[qp_id];
	uint32_t entries;

	if (conf == NULL || conf->nb_descriptors == 0) {
		DRV_LOG(ERR, "QP %u: no descriptors asked for", qp_id);
		rte_errno = EINVAL;
		return -EINVAL;
	}
	entries = RTE_MIN(rte_align32pow2(conf->nb_descriptors),
			  priv->cfg.qp_mkeys);
	/* The stock tests set every QP up again before each case: reuse. */
	if (qp != NULL && qp->entries == entries && qp->socket == socket &&
	    qp->pi == qp->ci) {
		DRV_LOG(DEBUG, "QP %u: reused (%u in flight)", qp_id, entries);
		return 0;
	}
	if (qp != NULL) {
		int ret = mlx5_crypto_qp_release(dev, qp_id);

		if (ret != 0)
			return ret;
	}
	qp = mlx5_crypto_qp_create(priv, qp_id, entries, socket);
	if (qp == NULL)
		return -rte_errno;
	dev->data->queue_pairs[qp_id] = qp;
	DRV_LOG(DEBUG, "QP %u: %u operations in flight (%u descriptors asked)",
		qp_id, entries, conf->nb_descriptors);
	return 0;
}

/*
 * The KLM list of @len bytes at offset @off of the mbuf chain @m into @klm
 * (at most @max entries, empty segments skipped): the number of entries,
 * or 0 with @status set.
 */
static uint32_t
mlx5_crypto_op_klms(struct mlx5_crypto_qp *qp, struct rte_mbuf *m, uint32_t off,
		    uint32_t len, struct mlx5_klm *klm, uint32_t max,
		    uint8_t *status)
{
	uint32_t n = 0;

	/* The whole range in the first segment: the usual case. */
	if (likely(m != NULL && off < m->data_len &&
		   len <= (uint32_t)m->data_len - off)) {
		klm->mkey = mlx5_mr_mb2lkey(&qp->mr_ctrl, m);
		if (unlikely(klm->mkey == MLX5_MR_LKEY_INVALID)) {
			*status = RTE_CRYPTO_OP_STATUS_ERROR;
			return 0;
		}
		klm->byte_count = len;
		klm->address = rte_pktmbuf_mtod_offset(m, uintptr_t, off);
		return 1;
	}
	while (m != NULL && off >= m->data_len) {
		off -= m->data_len;
		m = m->next;
	}
	while (len > 0) {
		uint32_t chunk;

		if (unlikely(m == NULL)) {
			*status = RTE_CRYPTO_OP_STATUS_INVALID_ARGS;
			return 0;
		}
		chunk = RTE_MIN((uint32_t)m->data_len - off, len);
		if (chunk > 0) {
			if (unlikely(n == max)) {
				*status = RTE_CRYPTO_OP_STATUS_INVALID_ARGS;
				return 0;
			}
			klm[n].mkey = mlx5_mr_mb2lkey(&qp->mr_ctrl, m);
			if (unlikely(klm[n].mkey == MLX5_MR_LKEY_INVALID)) {
				*status = RTE_CRYPTO_OP_STATUS_ERROR;
				return 0;
			}
			klm[n].byte_count = chunk;
			klm[n].address = rte_pktmbuf_mtod_offset(m, uintptr_t,
								 off);
			n++;
			len -= chunk;
		}
		off = 0;
		m = m->next;
	}
	return n;
}

/* Why an operation cannot go to the device, for the log. */
static const char *
mlx5_crypto_op_check(const struct mlx5_crypto_priv *priv,
		     const struct rte_crypto_op *op,
		     const struct mlx5_crypto_session *sess, uint8_t *status)
{
	uint32_t len = op->sym->cipher.data.length;

	*status = RTE_CRYPTO_OP_STATUS_INVALID_ARGS;
	if (unlikely(len == 0 || len % MLX5_CRYPTO_XTS_BLOCK != 0))
		return "cipher length not a positive multiple of 16";
	/* One compare for both limits (sess->max_len, at session time). */
	if (unlikely(len > sess->max_len)) {
		if (len > priv->max_len)
			return "cipher length above the device's largest message";
		return "dataunit_len 0 (one data unit) on more than 1 MiB";
	}
	if (unlikely(op->sym->m_src == NULL))
		return "no source mbuf";
	return NULL;
}

/* Where the operation's WQEs go: the ring, or the stage at the ring end. */
static inline uint8_t *
mlx5_crypto_op_wqe_area(struct mlx5_crypto_qp *qp, uint16_t bbs)
{
	uint32_t size = 1u << qp->qp.log_sq_size;
	uint32_t first = qp->qp.sq_pi & (size - 1);

	return likely(first + bbs <= size) ?
	       qp->qp.sq + (size_t)first * WQEBB : qp->stage;
}

/* Copy staged WQE blocks into the ring, wrapping. */
static void
mlx5_crypto_op_wqe_unstage(struct mlx5_crypto_qp *qp, uint16_t bbs)
{
	uint32_t size = 1u << qp->qp.log_sq_size;
	uint16_t b;

	for (b = 0; b < bbs; b++)
		memcpy(qp->qp.sq + (size_t)((qp->qp.sq_pi + b) & (size - 1)) *
		       WQEBB, qp->stage + (size_t)b * WQEBB, WQEBB);
}

/*
 * Write the UMR and RDMA WRITE of @op on crypto mkey @mkey: the WQE blocks
 * used, or 0 with op->status set (nothing written). @last gets the WRITE's
 * control segment in the ring, for the doorbell.
 */
static __rte_noinline uint16_t
mlx5_crypto_op_post_any(struct mlx5_crypto_qp *qp, struct rte_crypto_op *op,
			uint32_t mkey, void **last)
{
	struct mlx5_crypto_priv *priv = qp->priv;
	struct rte_crypto_sym_op *sym = op->sym;
	struct mlx5_crypto_session *sess;
	uint8_t tweak[MLX5_CRYPTO_XTS_TWEAK_LEN];
	const struct mlx5_klm *src;
	struct mlx5_wqe_ctrl_seg *ctrl;
	struct mlx5_wqe_raddr_seg *raddr;
	struct mlx5_wqe_data_seg *dseg;
	uint32_t nsrc, ndst, i, size;
	uint16_t umr_bbs, bbs;
	const uint8_t *iv;
	const char *why;
	uint8_t status = RTE_CRYPTO_OP_STATUS_INVALID_ARGS;
	uint8_t *wqe;
	bool in_place;

	if (unlikely(op->type != RTE_CRYPTO_OP_TYPE_SYMMETRIC)) {
		why = "not a symmetric operation";
		goto refused;
	}
	if (unlikely(op->sess_type != RTE_CRYPTO_OP_WITH_SESSION ||
		     sym->session == NULL)) {
		status = RTE_CRYPTO_OP_STATUS_INVALID_SESSION;
		why = "no session";
		goto refused;
	}
	sess = CRYPTODEV_GET_SYM_SESS_PRIV(sym->session);
	if (unlikely(sess->dek == NULL || sess->priv != priv)) {
		status = RTE_CRYPTO_OP_STATUS_INVALID_SESSION;
		why = "session not configured on this device";
		goto refused;
	}
	why = mlx5_crypto_op_check(priv, op, sess, &status);
	if (unlikely(why != NULL))
		goto refused;
	in_place = sym->m_dst == NULL || sym->m_dst == sym->m_src;
	ndst = mlx5_crypto_op_klms(qp, in_place ? sym->m_src : sym->m_dst,
				   sym->cipher.data.offset,
				   sym->cipher.data.length, qp->klm_dst,
				   priv->cfg.max_segs, &status);
	if (unlikely(ndst == 0)) {
		why = "destination mbuf chain: too short, more segments than max_segs, or memory without a key";
		goto refused;
	}
	if (in_place) {
		nsrc = ndst;
		src = qp->klm_dst;
	} else {
		nsrc = mlx5_crypto_op_klms(qp, sym->m_src,
					   sym->cipher.data.offset,
					   sym->cipher.data.length, qp->klm_src,
					   priv->cfg.max_segs, &status);
		if (unlikely(nsrc == 0)) {
			why = "source mbuf chain: too short, more segments than max_segs, or memory without a key";
			goto refused;
		}
		src = qp->klm_src;
	}
	umr_bbs = mlx5_crypto_ds_bbs(MLX5_UMR_CRYPTO_WQE_DS_N(ndst));
	bbs = umr_bbs + mlx5_crypto_ds_bbs(mlx5_crypto_write_ds(nsrc));
	wqe = mlx5_crypto_op_wqe_area(qp, bbs);
	iv = rte_crypto_op_ctod_offset(op, const uint8_t *, sess->iv_offset);
	if (unlikely(priv->tweak_be)) {
		for (i = 0; i < MLX5_CRYPTO_IV_LEN; i++)
			tweak[i] = iv[MLX5_CRYPTO_IV_LEN - 1 - i];
		iv = tweak;
	}
	if (likely(ndst == 1)) {
		mlx5_crypto_op_umr_one(wqe, sess,
				       rte_cpu_to_be_32(qp->qp.obj->id << 8 |
							MLX5_UMR_CRYPTO_WQE_DS),
				       qp->qp.sq_pi, mkey, qp->klm_dst, iv);
	} else {
		struct mlx5_umr_crypto_wqe_attr a = {
			.qpn = qp->qp.obj->id,
			.wqe_index = qp->qp.sq_pi,
			.mkey = mkey,
			.len = sym->cipher.data.length,
			.klm = qp->klm_dst,
			.klm_num = ndst,
			.dek_id = sess->dek_id,
			.keytag = priv->cfg.keytag,
			.block_size = sess->block_size,
			.encryption_order = sess->encryption_order,
		};

		memcpy(a.tweak, iv, sizeof(a.tweak));
		if (unlikely(mlx5_umr_crypto_wqe_build(wqe, &a) < 0)) {
			status = RTE_CRYPTO_OP_STATUS_ERROR;
			why = "UMR WQE refused by the builder";
			goto refused;
		}
	}
	/* The RDMA WRITE of the source through the crypto mkey, at 0. */
	ctrl = (void *)(wqe + (size_t)umr_bbs * WQEBB);
	size = mlx5_crypto_write_ds(nsrc);
	ctrl->opmod_idx_opcode = rte_cpu_to_be_32(
		(uint32_t)(uint16_t)(qp->qp.sq_pi + umr_bbs) << 8 |
		MLX5_OPCODE_RDMA_WRITE);
	ctrl->qpn_ds = rte_cpu_to_be_32(qp->qp.obj->id << 8 | size);
	ctrl->signature = 0;
	ctrl->dci_stream_channel_id = 0;
	/* Signalled only as the burst's last (mlx5_crypto_qp_ring()). */
	ctrl->fm_ce_se = MLX5_WQE_CTRL_INITIATOR_SMALL_FENCE;
	ctrl->imm = 0;
	raddr = (void *)(ctrl + 1);
	raddr->raddr = 0;
	raddr->rkey = rte_cpu_to_be_32(mkey);
	raddr->reserved = 0;
	dseg = (void *)(raddr + 1);
	for (i = 0; i < nsrc; i++) {
		dseg[i].byte_count = rte_cpu_to_be_32(src[i].byte_count);
		dseg[i].lkey = rte_cpu_to_be_32(src[i].mkey);
		dseg[i].addr = rte_cpu_to_be_64(src[i].address);
	}
	if (unlikely(wqe == qp->stage))
		mlx5_crypto_op_wqe_unstage(qp, bbs);
	*last = qp->qp.sq + (size_t)((uint16_t)(qp->qp.sq_pi + umr_bbs) &
				     ((1u << qp->qp.log_sq_size) - 1)) *
				    WQEBB;
	qp->qp.sq_pi += bbs;
	return bbs;
refused:
	op->status = status;
	DRV_LOG(DEBUG, "QP %u: operation refused: %s", qp->qp_id, why);
	return 0;
}

/*
 * The send ring as a burst writes it, in the loop's registers rather than
 * in the QP (the WQE stores, bytes, could be the QP's fields for all the
 * compiler knows): mlx5_crypto_qp_cursor() takes it from the QP,
 * mlx5_crypto_qp_ring() gives the counter back with the doorbell.
 */
struct mlx5_crypto_sq_cursor {
	uint8_t *ring;
	uint32_t mask;		       /* WQE blocks of the ring, less 1. */
	uint32_t fit_last;             /* Last block a 5-block op starts at. */
	rte_be32_t umr_qpn_ds;         /* QP and size, control segments. */
	rte_be32_t write_qpn_ds;
	uint16_t pi;                   /* Send counter. */
	void *last;                    /* The last WRITE posted, or NULL. */
};

/* UMR of one entry (4 blocks), then WRITE of one segment (1 block). */
#define OP_UMR_BBS mlx5_crypto_ds_bbs(MLX5_UMR_CRYPTO_WQE_DS)
#define OP_BBS (OP_UMR_BBS + 1)

static inline void
mlx5_crypto_qp_cursor(const struct mlx5_crypto_qp *qp,
		      struct mlx5_crypto_sq_cursor *cur)
{
	uint32_t qpn = qp->qp.obj->id;

	cur->ring = qp->qp.sq;
	cur->mask = (1u << qp->qp.log_sq_size) - 1;
	/* The ring holds an operation of max_segs segments: >= 5 blocks. */
	cur->fit_last = cur->mask + 1 - OP_BBS;
	cur->umr_qpn_ds = rte_cpu_to_be_32(qpn << 8 | MLX5_UMR_CRYPTO_WQE_DS);
	cur->write_qpn_ds =
		rte_cpu_to_be_32(qpn << 8 | mlx5_crypto_write_ds(1));
	cur->pi = qp->qp.sq_pi;
	cur->last = NULL;
}

/* Rotate right by 4: the low 4 bits of @x become its top 4. */
static inline uint32_t
mlx5_crypto_ror4(uint32_t x)
{
	return x >> 4 | x << 28;
}

/*
 * mlx5_crypto_op_post_any() for the usual operation, inline in the burst
 * loop: one segment holding the range, in place, a little-endian tweak,
 * WQEs that do not cross the ring's end. Anything else, refusals included, goes the
 * general way, which checks everything again. The WQE blocks used (from
 * @cur's counter as it was), or 0 with op->status set.
 */
static __rte_always_inline uint16_t
mlx5_crypto_op_post(struct mlx5_crypto_qp *qp, struct rte_crypto_op *op,
		    uint32_t mkey, struct mlx5_crypto_sq_cursor *cur)
{
	struct rte_crypto_sym_op *sym = op->sym;
	const struct mlx5_crypto_session *sess;
	struct mlx5_wqe_ctrl_seg *ctrl;
	struct mlx5_wqe_raddr_seg *raddr;
	struct mlx5_wqe_data_seg *dseg;
	struct rte_mbuf *m = sym->m_src;
	struct rte_mbuf *m_dst = sym->m_dst;
	uint32_t off = sym->cipher.data.offset;
	uint32_t len = sym->cipher.data.length;
	uint16_t pi = cur->pi;
	uint32_t first = pi & cur->mask;
	struct mlx5_klm klm;
	uint8_t *wqe;
	void *last;
	uint16_t bbs;

	if (unlikely(op->type != RTE_CRYPTO_OP_TYPE_SYMMETRIC ||
		     op->sess_type != RTE_CRYPTO_OP_WITH_SESSION ||
		     sym->session == NULL))
		goto any;
	sess = CRYPTODEV_GET_SYM_SESS_PRIV(sym->session);
	/*
	 * Length: see fast_blocks (DEK and tweak order in it too). Range in
	 * the first segment: with len > 0, off + len <= data_len implies
	 * off < data_len; 64 bits, the sum does not wrap.
	 */
	if (unlikely(m == NULL || sess->priv != qp->priv ||
		     (m_dst != NULL && m_dst != m) ||
		     mlx5_crypto_ror4(len - MLX5_CRYPTO_XTS_BLOCK) >=
			     sess->fast_blocks ||
		     (uint64_t)off + len > m->data_len ||
		     first > cur->fit_last))
		goto any;
	klm.mkey = mlx5_mr_mb2lkey(&qp->mr_ctrl, m);
	if (unlikely(klm.mkey == MLX5_MR_LKEY_INVALID))
		goto any;
	klm.byte_count = len;
	klm.address = rte_pktmbuf_mtod_offset(m, uintptr_t, off);
	wqe = cur->ring + (size_t)first * WQEBB;
	mlx5_crypto_op_umr_one(wqe, sess, cur->umr_qpn_ds, pi, mkey, &klm,
			       rte_crypto_op_ctod_offset(op, const uint8_t *,
							 sess->iv_offset));
	/* The RDMA WRITE of the source through the crypto mkey, at 0. */
	ctrl = (void *)(wqe + (size_t)OP_UMR_BBS * WQEBB);
	ctrl->opmod_idx_opcode = rte_cpu_to_be_32(
		(uint32_t)(uint16_t)(pi + OP_UMR_BBS) << 8 |
		MLX5_OPCODE_RDMA_WRITE);
	ctrl->qpn_ds = cur->write_qpn_ds;
	ctrl->signature = 0;
	ctrl->dci_stream_channel_id = 0;
	/* Signalled only as the burst's last (mlx5_crypto_qp_ring()). */
	ctrl->fm_ce_se = MLX5_WQE_CTRL_INITIATOR_SMALL_FENCE;
	ctrl->imm = 0;
	raddr = (void *)(ctrl + 1);
	raddr->raddr = 0;
	raddr->rkey = rte_cpu_to_be_32(mkey);
	raddr->reserved = 0;
	dseg = (void *)(raddr + 1);
	dseg->byte_count = rte_cpu_to_be_32(len);
	dseg->lkey = rte_cpu_to_be_32(klm.mkey);
	dseg->addr = rte_cpu_to_be_64(klm.address);
	cur->last = ctrl;
	cur->pi = pi + OP_BBS;
	return OP_BBS;
any:
	/* The general way works on the QP's counter. */
	last = cur->last;
	qp->qp.sq_pi = pi;
	bbs = mlx5_crypto_op_post_any(qp, op, mkey, &last);
	cur->pi = qp->qp.sq_pi;
	cur->last = last;
	return bbs;
}

/* Ring the doorbell for the WQEs up to @cur's last, the one CQE asked. */
static inline void
mlx5_crypto_qp_ring(struct mlx5_crypto_qp *qp,
		    const struct mlx5_crypto_sq_cursor *cur)
{
	struct mlx5_wqe_ctrl_seg *ctrl = cur->last;

	qp->qp.sq_pi = cur->pi;
	ctrl->fm_ce_se |= MLX5_WQE_CTRL_CQ_UPDATE;
	mlx5_doorbell_ring(&qp->priv->uar, &qp->qp.db_rec[MLX5_SND_DBR],
			   cur->pi, ctrl);
}

uint16_t
mlx5_crypto_enqueue_burst(void *queue_pair, struct rte_crypto_op **ops,
			  uint16_t nb_ops)
{
	struct mlx5_crypto_qp *qp = queue_pair;
	struct mlx5_crypto_op_slot *slots = qp->slots;
	uint32_t mask = qp->entries - 1;
	uint32_t pi = qp->pi;
	uint32_t room = qp->entries - (pi - qp->ci);
	uint16_t n = RTE_MIN(nb_ops, room);
	/* The free stack's top; an op in flight fewer than entries. */
	const uint32_t *free_top = qp->mkey_free + qp->mkey_top;
	struct mlx5_crypto_sq_cursor cur;
	uint16_t i;

	mlx5_crypto_qp_cursor(qp, &cur);
	for (i = 0; i < n; i++, pi++) {
		struct mlx5_crypto_op_slot *slot = &slots[pi & mask];
		struct rte_crypto_op *op = ops[i];
		uint32_t mkey = *--free_top;
		uint16_t wqe_pi = cur.pi;
		uint16_t bbs;

		bbs = mlx5_crypto_op_post(qp, op, mkey, &cur);
		slot->op = op;
		slot->bbs = bbs;
		slot->wqe_pi = wqe_pi;
		slot->mkey = mkey;
		/*
		 * After mlx5_crypto_op_post() read the op (a refused one has its status
		 * already): a byte stored into the word it reads first would
		 * stall that read until the store is done.
		 */
		if (likely(bbs != 0))
			op->status = RTE_CRYPTO_OP_STATUS_NOT_PROCESSED;
	}
	qp->pi = pi;
	qp->mkey_top = free_top - qp->mkey_free;
	if (likely(cur.last != NULL))
		mlx5_crypto_qp_ring(qp, &cur);
	qp->stats.enqueued_count += n;
	return n;
}

/*
 * After an error completion of the operation at the head (qp->ci): reset
 * the QP, drop the completions written before the reset, and post again
 * the operations after the head. 0, or a negative errno when the QP could
 * not be recovered (the operations posted after the head then fail at
 * once; the QP, left in error, flushes what is posted next, and that
 * error completion tries the recovery again).
 */
static int
mlx5_crypto_qp_recover(struct mlx5_crypto_qp *qp)
{
	struct mlx5_devx_cq *cq = &qp->cq;
	struct mlx5_crypto_sq_cursor cur;
	uint32_t k;
	int ret;

	ret = mlx5_devx_qp_recover(&qp->qp);
	if (ret != 0) {
		DRV_LOG(ERR, "QP %u: recovery after an error completion failed: %s",
			qp->qp_id, rte_strerror(-ret));
		return ret;
	}
	while (mlx5_cqe_status(&cq->cqes[cq->ci & ((1u << cq->log_size) - 1)],
			       cq->log_size, cq->ci) != MLX5_CQE_STATUS_HW_OWN)
		cq->ci++;
	mlx5_cq_db_update(cq->db_rec, cq->ci);
	/* From the send counter as to_rts restarted it. */
	mlx5_crypto_qp_cursor(qp, &cur);
	for (k = qp->ci + 1; k != qp->pi; k++) {
		struct mlx5_crypto_op_slot *slot =
			&qp->slots[k & (qp->entries - 1)];

		if (slot->bbs != 0) {
			slot->wqe_pi = cur.pi;
			slot->bbs = mlx5_crypto_op_post(qp, slot->op,
							slot->mkey, &cur);
		}
	}
	if (cur.last != NULL)
		mlx5_crypto_qp_ring(qp, &cur);
	return 0;
}

static __rte_noinline void
mlx5_crypto_op_error(struct mlx5_crypto_qp *qp,
		     struct mlx5_crypto_op_slot *slot,
		     volatile struct mlx5_cqe64 *cqe)
{
	const volatile struct mlx5_err_cqe *err = (const volatile void *)cqe;

	slot->op->status = RTE_CRYPTO_OP_STATUS_ERROR;
	qp->stats.dequeue_err_count++;
	DRV_LOG(DEBUG, "QP %u: error completion, syndrome 0x%x, WQE %u",
		qp->qp_id, err->syndrome, rte_be_to_cpu_16(err->wqe_counter));
	slot->bbs = 0;
	if (mlx5_crypto_qp_recover(qp) != 0) {
		uint32_t k;

		/* Nothing of theirs will complete: fail them at once. */
		for (k = qp->ci + 1; k != qp->pi; k++) {
			struct mlx5_crypto_op_slot *s =
				&qp->slots[k & (qp->entries - 1)];

			if (s->bbs != 0) {
				s->op->status = RTE_CRYPTO_OP_STATUS_ERROR;
				s->bbs = 0;
			}
		}
	}
}

/*
 * The operation, from @from on, whose WQE blocks hold send counter @wqe;
 * qp->pi when none does. From the last one posted back: a success CQE
 * names the last operation of a burst, usually the last one posted.
 */
static inline uint32_t
mlx5_crypto_op_of_wqe(const struct mlx5_crypto_qp *qp, uint32_t from,
		      uint16_t wqe)
{
	uint32_t k;

	for (k = qp->pi; k != from; k--) {
		const struct mlx5_crypto_op_slot *s =
			&qp->slots[(k - 1) & (qp->entries - 1)];

		if (s->bbs != 0 && (uint16_t)(wqe - s->wqe_pi) < s->bbs)
			return k - 1;
	}
	return qp->pi;
}

uint16_t
mlx5_crypto_dequeue_burst(void *queue_pair, struct rte_crypto_op **ops,
			  uint16_t nb_ops)
{
	struct mlx5_crypto_qp *qp = queue_pair;
	struct mlx5_devx_cq *cq = &qp->cq;
	struct mlx5_crypto_op_slot *slots = qp->slots;
	uint32_t cq_mask = (1u << cq->log_size) - 1;
	uint32_t mask = qp->entries - 1;
	uint32_t cq_ci = cq->ci;
	/* Locals, not the QP's (op status bytes could be them). */
	uint32_t ci = qp->ci;
	uint32_t *free_top = qp->mkey_free + qp->mkey_top;
	struct rte_crypto_op **out = ops, **end = ops + nb_ops;

	while (out != end && ci != qp->pi) {
		struct mlx5_crypto_op_slot *slot = &slots[ci & mask];
		uint32_t ready = qp->done - ci;
		volatile struct mlx5_cqe64 *cqe;
		enum mlx5_cqe_status st;
		uint32_t k;

		if ((int32_t)ready > 0) {
			/* Completed by a later operation's CQE: in one go. */
			uint32_t last;

			last = ci + RTE_MIN(ready, (uint32_t)(end - out));
			for (; ci != last; ci++) {
				struct rte_crypto_op *op;

				slot = &slots[ci & mask];
				op = slot->op;
				if (likely(slot->bbs != 0))
					op->status =
						RTE_CRYPTO_OP_STATUS_SUCCESS;
				else /* Refused at enqueue: status set. */
					qp->stats.dequeue_err_count++;
				*free_top++ = slot->mkey;
				*out++ = op;
			}
			continue;
		}
		if (slot->bbs == 0) {
			/* Refused at enqueue: its status is set. */
			qp->stats.dequeue_err_count++;
			*free_top++ = slot->mkey;
			*out++ = slot->op;
			ci++;
			continue;
		}
		cqe = &cq->cqes[cq_ci & cq_mask];
		st = mlx5_cqe_status(cqe, cq->log_size, cq_ci);
		if (st == MLX5_CQE_STATUS_HW_OWN)
			break;
		k = mlx5_crypto_op_of_wqe(qp, ci,
					  rte_be_to_cpu_16(cqe->wqe_counter));
		if (unlikely(k == qp->pi)) {
			DRV_LOG(DEBUG,
				"QP %u: CQE of WQE %u: no such operation in flight",
				qp->qp_id, rte_be_to_cpu_16(cqe->wqe_counter));
			cq_ci++;
			continue;
		}
		if (likely(st == MLX5_CQE_STATUS_SW_OWN)) {
			/* In order: every operation up to k is done. */
			cq_ci++;
			qp->done = k + 1;
			continue;
		}
		if (k != ci) {
			/* Those before the failed one completed. */
			qp->done = k;
			continue;
		}
		/* The head failed: recovery works on the QP's counters. */
		cq->ci = cq_ci + 1;
		qp->ci = ci;
		mlx5_crypto_op_error(qp, slot, cqe);
		cq_ci = cq->ci;
		*free_top++ = slot->mkey;
		*out++ = slot->op;
		ci++;
	}
	qp->ci = ci;
	qp->mkey_top = free_top - qp->mkey_free;
	if (cq_ci != cq->ci) {
		cq->ci = cq_ci;
		mlx5_cq_db_update(cq->db_rec, cq_ci);
	}
	qp->stats.dequeued_count += out - ops;
	return out - ops;
}
