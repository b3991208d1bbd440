/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * The receive side of the Ethernet datapath: a frame at a port, through
 * the vport's MTU, steering, the TIR and RSS to an RQ's posted WQE and
 * its CQE (mlx5_sim_wire.h gives the whole picture).
 */

#include "mlx5_sim_wire.h"

/* The Toeplitz hash of @n bytes with a 40-byte key (n <= 36). */
static uint32_t
sim_toeplitz(const uint8_t *key, const uint8_t *in, unsigned int n)
{
	unsigned int next = 8, i;
	uint32_t hash = 0;
	uint64_t window;
	int b;

	memcpy(&window, key, sizeof(window));
	window = rte_be_to_cpu_64(window);
	for (i = 0; i < n; i++) {
		for (b = 7; b >= 0; b--) {
			if ((in[i] >> b) & 1)
				hash ^= (uint32_t)(window >> 32);
			window <<= 1;
		}
		if (next < MLX5_RSS_HASH_KEY_LEN)
			window |= key[next++];
	}
	return hash;
}

/* The hash result and type of a frame at an indirect TIR. */
static uint32_t
sim_rss(const struct mlx5_sim_tir *tir, const uint8_t *f,
	const struct mlx5_sim_hdrs *h, uint8_t *type)
{
	uint8_t in[36];
	unsigned int n = 0, alen = h->l3 == 4 ? 4 : 16;
	bool ip_ok =
		h->l3 == (tir->l3_prot_type == MLX5_L3_PROT_TYPE_IPV4 ? 4 : 6);
	uint8_t l4 = tir->l4_prot_type == MLX5_L4_PROT_TYPE_TCP ? IPPROTO_TCP :
								  IPPROTO_UDP;
	bool l4_ok = ip_ok && h->l4 == l4;
	const uint8_t *src = f + h->l3_off + (h->l3 == 4 ? 12 : 8);

	*type = 0;
	if (tir->hash_fn != MLX5_RX_HASH_FN_TOEPLITZ || !ip_ok)
		return 0;
	/* The fields the TIR selects, in the standard order. */
	if (tir->fields & MLX5_HASH_FIELD_SEL_SRC_IP) {
		memcpy(in + n, src, alen);
		n += alen;
	}
	if (tir->fields & MLX5_HASH_FIELD_SEL_DST_IP) {
		memcpy(in + n, src + alen, alen);
		n += alen;
	}
	if (n != 0)
		*type |= h->l3 == 4 ? MLX5_CQE_RSS_HTYPE_IPV4 :
				      MLX5_CQE_RSS_HTYPE_IPV6;
	if (l4_ok && (tir->fields & (MLX5_HASH_FIELD_SEL_L4_SPORT |
				     MLX5_HASH_FIELD_SEL_L4_DPORT))) {
		if (tir->fields & MLX5_HASH_FIELD_SEL_L4_SPORT) {
			memcpy(in + n, f + h->l4_off, 2);
			n += 2;
		}
		if (tir->fields & MLX5_HASH_FIELD_SEL_L4_DPORT) {
			memcpy(in + n, f + h->l4_off + 2, 2);
			n += 2;
		}
		*type |= h->l4 == IPPROTO_TCP ? MLX5_CQE_RSS_HTYPE_TCP :
						MLX5_CQE_RSS_HTYPE_UDP;
	}
	return n != 0 ? sim_toeplitz(tir->key, in, n) : 0;
}

/*
 * The receive CQE's parse and checksum fields. Each byte after the L2
 * header is summed once: the IP header (its own check), the L4 bytes
 * (their check, with the pseudo header) and what follows them, added up
 * for check_sum, when the L4 bytes start and end at even offsets (words
 * stay words); otherwise check_sum is summed on its own.
 */
static void
sim_rx_cqe_fill(struct mlx5_cqe_eth *cqe, const uint8_t *f, uint32_t len,
		const struct mlx5_sim_hdrs *h)
{
	uint8_t ok = MLX5_CQE_L2_OK, l3t = 0, l4t = 0;
	uint32_t l3_end = h->l3_off + (uint32_t)h->l3_len;
	uint64_t hdr_sum = 0, l4_sum = 0;

	if (h->l3 != 0)
		hdr_sum = mlx5_sim_sum(f + h->l3_off, h->l4_off - h->l3_off);
	if (h->l3 == 4) {
		l3t = MLX5_CQE_L3_HDR_TYPE_IPV4;
		if (mlx5_sim_fold(hdr_sum) == 0xffff)
			ok |= MLX5_CQE_L3_OK;
	} else if (h->l3 == 6) {
		l3t = MLX5_CQE_L3_HDR_TYPE_IPV6;
		ok |= MLX5_CQE_L3_OK;
	}
	if (h->l4 != 0)
		l4_sum = mlx5_sim_sum(f + h->l4_off, l3_end - h->l4_off);
	if (h->l4 == IPPROTO_UDP) {
		const uint8_t *field = f + h->l4_off + 6;

		l4t = MLX5_CQE_L4_HDR_TYPE_UDP;
		/* A zero UDP checksum over IPv4 means none: good. */
		if ((h->l3 == 4 && field[0] == 0 && field[1] == 0) ||
		    mlx5_sim_fold(mlx5_sim_pseudo_sum(f, h) + l4_sum) == 0xffff)
			ok |= MLX5_CQE_L4_OK;
	} else if (h->l4 == IPPROTO_TCP) {
		uint8_t flags = f[h->l4_off + 13];
		uint32_t hl = (f[h->l4_off + 12] >> 4) * 4u;
		bool data = l3_end > h->l4_off + hl;

		l4t = !(flags & RTE_TCP_ACK_FLAG) ?
			      MLX5_CQE_L4_HDR_TYPE_TCP_NO_ACK :
		      data ? MLX5_CQE_L4_HDR_TYPE_TCP_ACK_AND_DATA :
			     MLX5_CQE_L4_HDR_TYPE_TCP_ACK_NO_DATA;
		if (mlx5_sim_fold(mlx5_sim_pseudo_sum(f, h) + l4_sum) == 0xffff)
			ok |= MLX5_CQE_L4_OK;
	}
	cqe->hds_ip_ext = ok;
	cqe->l4_l3_hdr_type = (uint8_t)(l4t << MLX5_CQE_L4_HDR_TYPE_SHIFT |
					l3t << MLX5_CQE_L3_HDR_TYPE_SHIFT);
	/*
	 * The ones' complement sum of everything after the L2 header; the
	 * machine-order sum stored as is reads big-endian.
	 */
	if (len <= h->l3_off)
		return;
	if (h->l3 == 0 || ((l3_end - h->l4_off) & 1))
		cqe->check_sum = mlx5_sim_fold(
			mlx5_sim_sum(f + h->l3_off, len - h->l3_off));
	else if (h->l4 != 0)
		cqe->check_sum =
			mlx5_sim_fold(hdr_sum + l4_sum +
				      mlx5_sim_sum(f + l3_end, len - l3_end));
	else
		cqe->check_sum = mlx5_sim_fold(
			hdr_sum + mlx5_sim_sum(f + h->l4_off, len - h->l4_off));
}

/* An error CQE of a receive WQE. */
static void
sim_rx_err(struct mlx5_sim_vhca *vhca, struct mlx5_sim_rq *rq, uint8_t syndrome)
{
	struct mlx5_cqe64 cqe;
	struct mlx5_err_cqe *err = (struct mlx5_err_cqe *)&cqe;

	memset(&cqe, 0, sizeof(cqe));
	err->syndrome = syndrome;
	err->srqn = rte_cpu_to_be_32(rq->wq.user_index & 0xffffff);
	err->s_wqe_opcode_qpn = rte_cpu_to_be_32(rq->rqn);
	err->wqe_counter = rte_cpu_to_be_16((uint16_t)rq->wq.hw_counter);
	err->op_own = MLX5_CQE_RESP_ERR << 4;
	mlx5_sim_cq_write(vhca, rq->wq.cqn, &cqe);
}

/* An RQ entering ERR: its posted WQEs complete flushed, if it asked so. */
void
mlx5_sim_rq_error(struct mlx5_sim_vhca *vhca, struct mlx5_sim_rq *rq)
{
	uint32_t posted;

	rq->wq.state = MLX5_WQ_STATE_ERR;
	if (!rq->wq.flush_in_error_en ||
	    !mlx5_sim_dbr_read(rq->wq.dbr.host, MLX5_SIM_DBR_RCV, &posted))
		return;
	while ((uint16_t)rq->wq.hw_counter != (uint16_t)posted) {
		sim_rx_err(vhca, rq, MLX5_CQE_SYNDROME_WR_FLUSH_ERR);
		rq->wq.hw_counter++;
	}
}

/* A receive WQE that failed with @synd: its error CQE, the RQ's state. */
void
mlx5_sim_rx_fail(struct mlx5_sim_vhca *vhca, struct mlx5_sim_port *port,
		 struct mlx5_sim_rq *rq, uint8_t synd)
{
	port->st.rx_errors++;
	sim_rx_err(vhca, rq, synd);
	rq->wq.hw_counter++;
	if (synd != MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR)
		mlx5_sim_rq_error(vhca, rq);
}

/*
 * The Ethernet FCS of @len bytes at @f (IEEE 802.3's CRC-32: reflected,
 * all ones in and out), in @fcs in the order the wire carries it (least
 * significant byte first). A scatter_fcs RQ receives it after the frame.
 */
static void
sim_eth_fcs(const uint8_t *f, uint32_t len, uint8_t fcs[SIM_FCS_LEN])
{
	uint32_t crc = UINT32_MAX;

	for (uint32_t i = 0; i < len; i++) {
		crc ^= f[i];
		for (unsigned int b = 0; b < 8; b++)
			crc = (crc >> 1) ^ (UINT32_C(0xedb88320) & -(crc & 1));
	}
	crc = ~crc;
	for (unsigned int k = 0; k < SIM_FCS_LEN; k++)
		fcs[k] = (uint8_t)(crc >> (8 * k));
}

/*
 * Receive frame @f on the RQ of @r (r->rq of r->rx_vhca at r->rx_port):
 * scatter into the next posted WQE, then a CQE. The RQ's doorbell record
 * is read when the WQEs known posted are used up (the driver only moves
 * it forward), its WQE, buffers and CQ under the guard of the doorbell.
 */
static __rte_always_inline void
sim_rq_receive(struct mlx5_sim_sq_run *r, uint8_t *f, uint32_t len,
	       const struct mlx5_sim_hdrs *h, uint32_t hash, uint8_t htype,
	       uint64_t ts, uint32_t flow_tag)
{
	struct mlx5_sim_vhca *vhca = r->rx_vhca;
	struct mlx5_sim_port *port = r->rx_port;
	struct mlx5_sim_rq *rq = r->rq;
	struct mlx5_sim_wq *wq = &rq->wq;
	uint8_t wqe[SIM_RX_WQE_MAX] __rte_aligned(16);
	uint32_t stride = 1u << wq->log_wq_stride, off = 0, i;
	struct mlx5_cqe_eth cqe;
	struct mlx5_sim_cq *cq;
	uint32_t flen = len;
	uint8_t synd = 0;

	if (wq->state != MLX5_WQ_STATE_RDY) {
		port->st.rx_rq_not_ready++;
		return;
	}
	/* scatter_fcs: the frame's FCS too, counted in the byte count. */
	if (unlikely(rq->scatter_fcs)) {
		sim_eth_fcs(f, len, f + len);
		len += SIM_FCS_LEN;
	}
	if (r->rq_known != rq ||
	    (uint16_t)wq->hw_counter == (uint16_t)r->rq_posted) {
		uint32_t be;

		r->rq_known = NULL;
		r->armed = SIM_ARMED_RQ_DBR;
		mlx5_sim_copy_armed(&r->guard, &be,
				    wq->dbr.host +
					    MLX5_SIM_DBR_RCV * sizeof(be),
				    sizeof(be));
		r->rq_posted = rte_be_to_cpu_32(be);
		r->rq_cq = mlx5_sim_idtab_get(&vhca->cqs, wq->cqn);
		r->rq_known = rq;
	}
	if ((uint16_t)wq->hw_counter == (uint16_t)r->rq_posted) {
		port->st.rx_out_of_buffer++;
		mlx5_sim_q_counter_out_of_buffer(vhca, rq->counter_set_id);
		return;
	}
	r->armed = SIM_ARMED_RQ_WQE;
	mlx5_sim_copy_armed(
		&r->guard, wqe,
		wq->ring.host + (size_t)stride * (wq->hw_counter &
						  ((1u << wq->log_wq_sz) - 1)),
		stride);
	for (i = 0; i < stride / 16 && off < len; i++) {
		const struct mlx5_wqe_data_seg *d =
			(const void *)(wqe + 16 * i);
		uint32_t bc = rte_be_to_cpu_32(d->byte_count);
		uint32_t lkey = rte_be_to_cpu_32(d->lkey);
		uint64_t addr = rte_be_to_cpu_64(d->addr);
		uint32_t n = RTE_MIN(bc, len - off);
		uint8_t *host;
		int ret;

		if (bc == 0 || lkey == MLX5_INVALID_LKEY)
			break;
		host = mlx5_sim_xcache_host(vhca, wq->xc, lkey, wq->pdn, addr,
					    n, true);
		if (likely(host != NULL)) {
			r->armed = SIM_ARMED_RX_DATA;
			mlx5_sim_copy_armed(&r->guard, host, f + off, n);
		} else {
			ret = mlx5_sim_xfer_q(vhca, wq->xc, lkey, wq->pdn, addr,
					      f + off, n, MLX5_SIM_XFER_WRITE);
			if (ret != 0) {
				synd = mlx5_sim_local_syndrome(ret);
				break;
			}
		}
		off += n;
	}
	if (synd == 0 && off < len)
		synd = MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR;
	if (unlikely(synd != 0)) {
		mlx5_sim_rx_fail(vhca, port, rq, synd);
		return;
	}
	memset(&cqe, 0, sizeof(cqe));
	sim_rx_cqe_fill(&cqe, f, flen, h);
	cqe.rss_hash_result = rte_cpu_to_be_32(hash);
	cqe.rss_hash_type = htype;
	cqe.srqn = rte_cpu_to_be_32(wq->user_index & 0xffffff);
	cqe.byte_cnt = rte_cpu_to_be_32(len);
	cqe.timestamp = rte_cpu_to_be_64(mlx5_sim_cqe_ts(ts, wq->ts_format));
	/*
	 * The rule's flow tag, not a queue number: an RQ's CQE names its
	 * queue by the user index (srqn) alone (libmlx5's
	 * mlx5_cq_read_flow_tag, DPDK's mark read this field; 0: no tag).
	 */
	cqe.sop_drop_qpn = rte_cpu_to_be_32(flow_tag & 0xffffff);
	cqe.wqe_counter = rte_cpu_to_be_16((uint16_t)wq->hw_counter);
	cqe.op_own = MLX5_CQE_RESP_SEND << 4;
	wq->hw_counter++;
	port->st.rx_frames++;
	port->st.rx_bytes += flen;
	cq = r->rq_cq;
	if (cq == NULL || cq->status != 0)
		return;
	r->armed = SIM_ARMED_RX_CQE;
	if (cq->zip)
		mlx5_sim_cq_zip_put_armed(&r->guard, vhca->card, cq,
					  (const struct mlx5_cqe64 *)&cqe);
	else if (!mlx5_sim_cqe_put_armed(&r->guard, cq,
					 (const struct mlx5_cqe64 *)&cqe))
		mlx5_sim_cq_overrun(cq);
}

/* Is RQ @rqn of the TIR's owner a receive queue now? */
static struct mlx5_sim_rq *
sim_rq_get(struct mlx5_sim_vhca *vhca, uint32_t rqn)
{
	return mlx5_sim_qnum_get(&vhca->qps, rqn, MLX5_SIM_Q_RQ);
}

/*
 * The frame of doorbell @r (r->frame, @len bytes, sent at r->sent_ns
 * from a TIS of r->vhca) arriving at the far end of its cable.
 */
void
mlx5_sim_port_rx(struct mlx5_sim_sq_run *r, const uint32_t len)
{
	struct mlx5_sim_vhca *vhca = r->far;
	const unsigned int pi = r->far_idx;
	const struct mlx5_sim_vhca *src = r->vhca;
	const uint32_t src_tdn = r->tis != NULL ? r->tis->tdn : 0;
	uint8_t *f = r->frame;
	const uint64_t ts = r->sent_ns;
	struct mlx5_sim_port *port = &vhca->port[pi];
	uint32_t tirn = 0, flow_tag;
	enum mlx5_sim_fate fate;
	struct mlx5_sim_rqt *rqt;
	struct mlx5_sim_tir *tir;
	struct mlx5_sim_rq *rq;
	struct mlx5_sim_hdrs h;
	uint32_t hash = 0, rqn;
	uint8_t htype = 0;

	mlx5_sim_frame_parse(f, len, &h);
	/* The MTU counts from L3: the L2 header and a VLAN tag more. */
	if (len > vhca->mtu + SIM_ETH_HLEN + (h.vlan ? 4u : 0u)) {
		port->st.rx_oversize++;
		return;
	}
	fate = mlx5_sim_flow_steer(vhca, f, len, &tirn, &flow_tag);
	if (fate == MLX5_SIM_FATE_MISS) {
		port->st.rx_no_rule++;
		return;
	}
	if (fate == MLX5_SIM_FATE_DROP) {
		port->st.rx_rule_drop++;
		return;
	}
	tir = mlx5_sim_idtab_get(&vhca->tirs, tirn);
	if (tir == NULL) {
		port->st.rx_no_rule++;
		return;
	}
	if (src == vhca && tir->tdn == src_tdn &&
	    (tir->self_lb_block &
	     ((f[0] & 1) ? MLX5_TIRC_SELF_LB_BLOCK_BLOCK_MULTICAST :
			   MLX5_TIRC_SELF_LB_BLOCK_BLOCK_UNICAST))) {
		port->st.rx_self_lb++;
		return;
	}
	if (tir->disp_type == MLX5_TIRC_DISP_TYPE_DIRECT) {
		rqn = tir->inline_rqn;
	} else {
		if (r->rss_tir != tir) {
			r->rss_rqt = mlx5_sim_idtab_get(&vhca->rqts, tir->rqtn);
			r->rss_tir = tir;
		}
		rqt = r->rss_rqt;
		if (rqt == NULL || rqt->n == 0) {
			port->st.rx_no_rule++;
			return;
		}
		hash = sim_rss(tir, f, &h, &htype);
		/* The RQT is indexed by the hash's low bits. */
		rqn = rqt->rqns[(rte_is_power_of_2(rqt->n) ?
					 hash & (rqt->n - 1u) :
					 hash % rqt->n)];
	}
	rq = sim_rq_get(vhca, rqn);
	if (rq == NULL) {
		port->st.rx_rq_not_ready++;
		return;
	}
	r->rx_vhca = vhca;
	r->rx_port = port;
	r->rq = rq;
	sim_rq_receive(r, f, len, &h, hash, htype, ts, flow_tag);
}
