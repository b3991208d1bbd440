/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * Ports, cables and the Ethernet datapath: what the device does with the
 * send WQEs of an SQ, and with a frame that reaches a port.
 *
 * Send: a SEND WQE is a control segment, an Ethernet segment (checksum
 * flags, the first bytes of the frame inline) and data segments, each a
 * pointer (key, address, length: read through mlx5_sim_xfer() with the
 * SQ's PD, as every device access) or inline bytes. The device builds the
 * frame, fills the IPv4 header and TCP/UDP checksums the flags ask for,
 * pads it to 60 bytes as a MAC does, and sends it out of the port of the
 * SQ's TIS (lag_tx_port_affinity, 0 meaning port 1).
 *
 * Time: each port has a virtual wire clock. A frame leaves at the wire's
 * time, or later if its SQ is paced (its rate entry's rate_limit, in kb/s,
 * applied to the frame's bytes), and occupies the wire for its length at
 * the link speed. The departure time is the timestamp of the send CQE and
 * of the receive CQE; no wall clock is read, so spacing is exact.
 *
 * Receive: the frame goes through the cable (loopback, another vHCA's
 * port of the same card, or nothing), the receiving vport's MTU, the
 * steering rules (mlx5_sim_flow.c) to a TIR, the TIR's self-loopback
 * block, then to its RQ or, through the Toeplitz hash of the fields it
 * selects, to an RQ of its RQT. The RQ's next posted WQE (cyclic, data
 * segments ending at a zero length or MLX5_INVALID_LKEY) receives the
 * frame and a CQE reports its length, RSS hash and type, header types and
 * checksum verdicts. No posted WQE: the frame is dropped and counted
 * (port counter and the RQ's queue counter, out_of_buffer).
 *
 * Errors: a failed access or a malformed WQE is an error CQE with the
 * hardware's syndrome; the SQ moves to ERR and flushes what follows. On
 * receive, a frame longer than the WQE's buffers is a LOCAL_LENGTH error
 * CQE (the RQ stays ready, as the kernel's mlx5e expects: it recovers
 * only after LOCAL_QP_OP, LOCAL_PROT and WR_FLUSH errors); a protection
 * error moves the RQ to ERR.
 *
 * Everything runs under the card lock, in the thread that rang the SQ's
 * doorbell: a cable joins vHCAs of one card only.
 */

#include <errno.h>
#include <pthread.h>
#include <string.h>
#include <time.h>

#include <rte_byteorder.h>
#include <rte_common.h>
#include <rte_ether.h>
#include <rte_ip.h>
#include <rte_tcp.h>

#include "mlx5_sim_wqe.h"

/* A new port: 100 Gb/s; a new vport: MTU 1500 (the kernel's default). */
#define SIM_DEFAULT_SPEED_MBPS 100000
#define SIM_DEFAULT_MTU 1500
/* The vport's hardware MTU: the L2 header, a VLAN tag and the FCS more. */
#define SIM_HW_MTU_EXTRA 22
/* The largest MTU ConnectX firmware accepts (9978 + 22 = 10000). */
#define SIM_MAX_MTU 9978
/* The longest frame the device builds: MTU + L2 header + VLAN tag. */
#define SIM_FRAME_MAX (SIM_MAX_MTU + 18)
/* Frames shorter than this are padded with zeros (64 bytes with FCS). */
#define SIM_FRAME_MIN 60
#define SIM_ETH_HLEN 14
/* A WQE's timestamp format (sqc/rqc.ts_format): real time is sec:ns. */
#define SIM_TS_FORMAT_REAL_TIME 2
/* Largest receive WQE: 2 KiB (log_wq_stride 11), 128 data segments. */
#define SIM_RX_WQE_MAX 2048

/* What the device parsed of a frame. */
struct sim_hdrs {
	uint16_t ethertype;        /* After VLAN tags. */
	bool vlan;
	uint8_t l3;                /* 0, 4 or 6. */
	uint8_t l4;                /* IPPROTO_TCP, IPPROTO_UDP or 0. */
	bool frag;
	uint16_t l3_off, l4_off;
	uint16_t l3_len;           /* IP header + payload, as the header says. */
};

static void
sim_parse(const uint8_t *f, uint32_t len, struct sim_hdrs *h)
{
	uint32_t off = 12, ihl;
	uint16_t et;

	memset(h, 0, sizeof(*h));
	if (len < SIM_ETH_HLEN)
		return;
	et = (uint16_t)(f[off] << 8 | f[off + 1]);
	/* Up to two VLAN tags. */
	while ((et == RTE_ETHER_TYPE_VLAN || et == RTE_ETHER_TYPE_QINQ) &&
	       off < 20 && len >= off + 6) {
		h->vlan = true;
		off += 4;
		et = (uint16_t)(f[off] << 8 | f[off + 1]);
	}
	h->ethertype = et;
	h->l3_off = (uint16_t)(off + 2);
	if (et == RTE_ETHER_TYPE_IPV4 && len >= h->l3_off + 20u &&
	    f[h->l3_off] >> 4 == 4) {
		const struct rte_ipv4_hdr *ip =
			(const void *)(f + h->l3_off);

		ihl = (f[h->l3_off] & 0xf) * 4u;
		h->l3_len = rte_be_to_cpu_16(ip->total_length);
		if (ihl < 20 || h->l3_len < ihl ||
		    h->l3_off + (uint32_t)h->l3_len > len)
			return;
		h->l3 = 4;
		h->frag = (rte_be_to_cpu_16(ip->fragment_offset) &
			   (RTE_IPV4_HDR_MF_FLAG | RTE_IPV4_HDR_OFFSET_MASK)) != 0;
		h->l4_off = (uint16_t)(h->l3_off + ihl);
		if (!h->frag)
			h->l4 = ip->next_proto_id;
	} else if (et == RTE_ETHER_TYPE_IPV6 && len >= h->l3_off + 40u &&
		   f[h->l3_off] >> 4 == 6) {
		const struct rte_ipv6_hdr *ip6 =
			(const void *)(f + h->l3_off);

		h->l3_len = (uint16_t)(40 + rte_be_to_cpu_16(ip6->payload_len));
		if (h->l3_off + (uint32_t)h->l3_len > len)
			return;
		h->l3 = 6;
		h->l4_off = (uint16_t)(h->l3_off + 40);
		/* Extension headers are not parsed: no L4 behind them. */
		h->l4 = ip6->proto;
	} else {
		return;
	}
	if ((h->l4 == IPPROTO_TCP &&
	     (h->l3_off + (uint32_t)h->l3_len < h->l4_off + 20u ||
	      (f[h->l4_off + 12] >> 4) < 5)) ||
	    (h->l4 == IPPROTO_UDP &&
	     h->l3_off + (uint32_t)h->l3_len < h->l4_off + 8u) ||
	    (h->l4 != IPPROTO_TCP && h->l4 != IPPROTO_UDP))
		h->l4 = 0;
}

/* The TCP/UDP checksum field of a parsed frame. */
static uint8_t *
sim_l4_csum_field(uint8_t *f, const struct sim_hdrs *h)
{
	return f + h->l4_off + (h->l4 == IPPROTO_TCP ? 16 : 6);
}

/* The L4 checksum to store, over the pseudo header and the L4 bytes. */
static uint16_t
sim_l4_csum(const uint8_t *f, const struct sim_hdrs *h)
{
	const void *ip = f + h->l3_off;
	const void *l4 = f + h->l4_off;

	return h->l3 == 4 ? rte_ipv4_udptcp_cksum(ip, l4) :
	       rte_ipv6_udptcp_cksum(ip, l4);
}

/*
 * The ones' complement sum of @len bytes at @p (not folded, below 2^34),
 * as 16-bit words loaded in the machine's order, the way rte_raw_cksum()
 * adds them (so its folded value stored as is reads big-endian): 64-bit
 * words added with their carries counted apart (2^64 is 1 modulo
 * 2^16 - 1), 32 bytes a step.
 */
static __rte_always_inline uint64_t
sim_sum(const uint8_t *p, uint32_t len)
{
	uint64_t sum = 0, carry = 0, v;
	uint32_t w;
	uint16_t h = 0;

	for (; len >= 32; p += 32, len -= 32) {
		uint64_t a, b, c, d;

		memcpy(&a, p, 8);
		memcpy(&b, p + 8, 8);
		memcpy(&c, p + 16, 8);
		memcpy(&d, p + 24, 8);
		sum += a;
		carry += sum < a;
		sum += b;
		carry += sum < b;
		sum += c;
		carry += sum < c;
		sum += d;
		carry += sum < d;
	}
	for (; len >= 8; p += 8, len -= 8) {
		memcpy(&v, p, 8);
		sum += v;
		carry += sum < v;
	}
	sum = (sum & UINT32_MAX) + (sum >> 32) + carry;
	if (len >= 4) {
		memcpy(&w, p, 4);
		sum += w;
		p += 4;
		len -= 4;
	}
	if (len >= 2) {
		memcpy(&h, p, 2);
		sum += h;
		p += 2;
		len -= 2;
	}
	if (len != 0) {
		h = 0;
		memcpy(&h, p, 1);
		sum += h;
	}
	return sum;
}

/* Fold a sum of sim_sum() to 16 bits. */
static uint16_t
sim_fold(uint64_t sum)
{
	sum = (sum & UINT32_MAX) + (sum >> 32);
	sum = (sum & UINT32_MAX) + (sum >> 32);
	sum = (sum & 0xffff) + (sum >> 16);
	sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)sum;
}

/*
 * The sum of the pseudo header of a received frame's TCP or UDP
 * checksum: addresses, protocol and L4 length, each 16-bit word in the
 * machine's order as sim_sum() loads it.
 */
static uint64_t
sim_pseudo_sum(const uint8_t *f, const struct sim_hdrs *h)
{
	uint32_t l4_len = h->l3_off + (uint32_t)h->l3_len - h->l4_off;
	uint64_t sum = rte_cpu_to_be_16((uint16_t)l4_len) +
		       rte_cpu_to_be_16((uint16_t)h->l4);

	if (h->l3 == 4)
		return sum + sim_sum(f + h->l3_off + 12, 8);
	return sum + sim_sum(f + h->l3_off + 8, 32);
}

/* The checksum offloads of a send WQE's Ethernet segment. */
static void
sim_tx_csum(uint8_t *f, uint8_t cs_flags)
{
	struct sim_hdrs h;

	sim_parse(f, UINT16_MAX, &h);
	if ((cs_flags & MLX5_ETH_WQE_L3_CSUM) && h.l3 == 4) {
		struct rte_ipv4_hdr *ip = (void *)(f + h.l3_off);

		ip->hdr_checksum = 0;
		ip->hdr_checksum = rte_ipv4_cksum(ip);
	}
	if ((cs_flags & MLX5_ETH_WQE_L4_CSUM) && h.l4 != 0) {
		uint8_t *field = sim_l4_csum_field(f, &h);
		uint16_t sum;

		field[0] = 0;
		field[1] = 0;
		sum = sim_l4_csum(f, &h);
		memcpy(field, &sum, sizeof(sum));
	}
}

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
	const struct sim_hdrs *h, uint8_t *type)
{
	uint8_t in[36];
	unsigned int n = 0, alen = h->l3 == 4 ? 4 : 16;
	bool ip_ok = h->l3 == (tir->l3_prot_type == MLX5_L3_PROT_TYPE_IPV4 ?
			       4 : 6);
	uint8_t l4 = tir->l4_prot_type == MLX5_L4_PROT_TYPE_TCP ?
		     IPPROTO_TCP : IPPROTO_UDP;
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

/* A CQE timestamp of virtual time @ns in format @fmt. */
static uint64_t
sim_ts(uint64_t ns, uint8_t fmt)
{
	if (fmt == SIM_TS_FORMAT_REAL_TIME)
		return (ns / 1000000000u) << 32 | (ns % 1000000000u);
	return ns;
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
		const struct sim_hdrs *h)
{
	uint8_t ok = MLX5_CQE_L2_OK, l3t = 0, l4t = 0;
	uint32_t l3_end = h->l3_off + (uint32_t)h->l3_len;
	uint64_t hdr_sum = 0, l4_sum = 0;

	if (h->l3 != 0)
		hdr_sum = sim_sum(f + h->l3_off, h->l4_off - h->l3_off);
	if (h->l3 == 4) {
		l3t = MLX5_CQE_L3_HDR_TYPE_IPV4;
		if (sim_fold(hdr_sum) == 0xffff)
			ok |= MLX5_CQE_L3_OK;
	} else if (h->l3 == 6) {
		l3t = MLX5_CQE_L3_HDR_TYPE_IPV6;
		ok |= MLX5_CQE_L3_OK;
	}
	if (h->l4 != 0)
		l4_sum = sim_sum(f + h->l4_off, l3_end - h->l4_off);
	if (h->l4 == IPPROTO_UDP) {
		const uint8_t *field = f + h->l4_off + 6;

		l4t = MLX5_CQE_L4_HDR_TYPE_UDP;
		/* A zero UDP checksum over IPv4 means none: good. */
		if ((h->l3 == 4 && field[0] == 0 && field[1] == 0) ||
		    sim_fold(sim_pseudo_sum(f, h) + l4_sum) == 0xffff)
			ok |= MLX5_CQE_L4_OK;
	} else if (h->l4 == IPPROTO_TCP) {
		uint8_t flags = f[h->l4_off + 13];
		uint32_t hl = (f[h->l4_off + 12] >> 4) * 4u;
		bool data = l3_end > h->l4_off + hl;

		l4t = !(flags & RTE_TCP_ACK_FLAG) ?
		      MLX5_CQE_L4_HDR_TYPE_TCP_NO_ACK :
		      data ? MLX5_CQE_L4_HDR_TYPE_TCP_ACK_AND_DATA :
		      MLX5_CQE_L4_HDR_TYPE_TCP_ACK_NO_DATA;
		if (sim_fold(sim_pseudo_sum(f, h) + l4_sum) == 0xffff)
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
		cqe->check_sum = sim_fold(sim_sum(f + h->l3_off,
						  len - h->l3_off));
	else if (h->l4 != 0)
		cqe->check_sum = sim_fold(hdr_sum + l4_sum +
					  sim_sum(f + l3_end, len - l3_end));
	else
		cqe->check_sum = sim_fold(hdr_sum +
					  sim_sum(f + h->l4_off,
						  len - h->l4_off));
}

/* An error CQE of a receive WQE. */
static void
sim_rx_err(struct mlx5_sim_vhca *vhca, struct mlx5_sim_rq *rq,
	   uint8_t syndrome)
{
	struct mlx5_cqe64 cqe;
	struct mlx5_err_cqe *err = (struct mlx5_err_cqe *)&cqe;

	memset(&cqe, 0, sizeof(cqe));
	err->syndrome = syndrome;
	err->s_wqe_opcode_qpn = rte_cpu_to_be_32(rq->rqn);
	err->wqe_counter = rte_cpu_to_be_16((uint16_t)rq->wq.hw_counter);
	err->op_own = MLX5_CQE_RESP_ERR << 4;
	mlx5_sim_cq_write(vhca, rq->wq.cqn, &cqe);
}

/* An RQ entering ERR: its posted WQEs complete flushed, if it asked so. */
static void
sim_rq_error(struct mlx5_sim_vhca *vhca, struct mlx5_sim_rq *rq)
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

/*
 * What a fault under the guard of an SQ's doorbell hit: the access armed
 * (each is a call of mlx5_sim_wqe.h), which says what completes next.
 */
enum sim_armed {
	SIM_ARMED_RING,            /* The SQ's ring: WQEs read ahead or one. */
	SIM_ARMED_TX_DATA,         /* A data segment of the frame. */
	SIM_ARMED_TX_CQE,          /* The send CQE. */
	SIM_ARMED_RQ_DBR,          /* The receiving RQ's doorbell record. */
	SIM_ARMED_RQ_WQE,          /* Its receive WQE. */
	SIM_ARMED_RX_DATA,         /* Its buffers. */
	SIM_ARMED_RX_CQE,          /* Its CQE. */
};

/*
 * One doorbell of an SQ: the one fault guard, the WQE in flight and what
 * the engine looks up once per doorbell (the card lock is held: no object
 * changes under it but by the engine itself).
 */
struct sim_sq_run {
	struct mlx5_sim_guard guard;
	volatile uint8_t armed;    /* enum sim_armed. */
	volatile bool per_wqe;     /* A read-ahead faulted: WQE by WQE. */
	struct mlx5_sim_vhca *vhca;
	struct mlx5_sim_sq *sq;
	uint32_t pi;               /* The doorbell record's send counter. */
	uint32_t n;                /* Basic blocks of the ring. */
	/* The WQE in flight and its good completion. */
	struct mlx5_sim_wqe wqe;
	/* The control segment of a WQE whose read faulted (wqe points at it). */
	struct mlx5_wqe_ctrl_seg unread;
	uint64_t ts;
	uint32_t bytes;
	/* The sending side, at the first SEND. */
	bool tx_known;
	struct mlx5_sim_cq *cq;    /* The SQ's CQ, or NULL. */
	struct mlx5_sim_tis *tis;
	struct mlx5_sim_port *port;
	unsigned int port_idx;
	struct mlx5_sim_vhca *far; /* The far end of the cable, or NULL. */
	unsigned int far_idx;
	uint32_t rate;             /* Of the SQ's pacing entry, kb/s. */
	/* The receiving side of the frame in flight. */
	struct mlx5_sim_vhca *rx_vhca;
	struct mlx5_sim_port *rx_port;
	struct mlx5_sim_rq *rq;
	/* The RQ whose doorbell record was read last, and what it said. */
	struct mlx5_sim_rq *rq_known;
	struct mlx5_sim_cq *rq_cq;
	uint32_t rq_posted;
	/* The last indirect TIR's table. */
	const struct mlx5_sim_tir *rss_tir;
	struct mlx5_sim_rqt *rss_rqt;
	struct mlx5_sim_ahead ahead;
	uint8_t frame[SIM_FRAME_MAX] __rte_aligned(8);
};

/* A receive WQE that failed with @synd: its error CQE, the RQ's state. */
static void
sim_rx_fail(struct mlx5_sim_vhca *vhca, struct mlx5_sim_port *port,
	    struct mlx5_sim_rq *rq, uint8_t synd)
{
	port->st.rx_errors++;
	sim_rx_err(vhca, rq, synd);
	rq->wq.hw_counter++;
	if (synd != MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR)
		sim_rq_error(vhca, rq);
}

/*
 * Receive frame @f on the RQ of @r (r->rq of r->rx_vhca at r->rx_port):
 * scatter into the next posted WQE, then a CQE. The RQ's doorbell record
 * is read when the WQEs known posted are used up (the driver only moves
 * it forward), its WQE, buffers and CQ under the guard of the doorbell.
 */
static void
sim_rq_receive(struct sim_sq_run *r, uint8_t *f, uint32_t len,
	       const struct sim_hdrs *h, uint32_t hash, uint8_t htype,
	       uint64_t ts)
{
	struct mlx5_sim_vhca *vhca = r->rx_vhca;
	struct mlx5_sim_port *port = r->rx_port;
	struct mlx5_sim_rq *rq = r->rq;
	struct mlx5_sim_wq *wq = &rq->wq;
	uint8_t wqe[SIM_RX_WQE_MAX] __rte_aligned(16);
	uint32_t stride = 1u << wq->log_wq_stride, off = 0, i;
	struct mlx5_cqe_eth cqe;
	struct mlx5_sim_cq *cq;
	uint8_t synd = 0;

	if (wq->state != MLX5_WQ_STATE_RDY) {
		port->st.rx_rq_not_ready++;
		return;
	}
	if (r->rq_known != rq ||
	    (uint16_t)wq->hw_counter == (uint16_t)r->rq_posted) {
		uint32_t be;

		r->rq_known = NULL;
		r->armed = SIM_ARMED_RQ_DBR;
		mlx5_sim_copy_armed(&r->guard, &be, wq->dbr.host +
				    MLX5_SIM_DBR_RCV * sizeof(be), sizeof(be));
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
	mlx5_sim_copy_armed(&r->guard, wqe, wq->ring.host + (size_t)stride *
			    (wq->hw_counter & ((1u << wq->log_wq_sz) - 1)),
			    stride);
	for (i = 0; i < stride / 16 && off < len; i++) {
		const struct mlx5_wqe_data_seg *d = (const void *)(wqe + 16 * i);
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
			ret = mlx5_sim_xfer_q(vhca, wq->xc, lkey, wq->pdn,
					      addr, f + off, n,
					      MLX5_SIM_XFER_WRITE);
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
		sim_rx_fail(vhca, port, rq, synd);
		return;
	}
	memset(&cqe, 0, sizeof(cqe));
	sim_rx_cqe_fill(&cqe, f, len, h);
	cqe.rss_hash_result = rte_cpu_to_be_32(hash);
	cqe.rss_hash_type = htype;
	cqe.srqn = rte_cpu_to_be_32(wq->user_index & 0xffffff);
	cqe.byte_cnt = rte_cpu_to_be_32(len);
	cqe.timestamp = rte_cpu_to_be_64(sim_ts(ts, wq->ts_format));
	cqe.sop_drop_qpn = rte_cpu_to_be_32(rq->rqn & 0xffffff);
	cqe.wqe_counter = rte_cpu_to_be_16((uint16_t)wq->hw_counter);
	cqe.op_own = MLX5_CQE_RESP_SEND << 4;
	wq->hw_counter++;
	port->st.rx_frames++;
	port->st.rx_bytes += len;
	cq = r->rq_cq;
	if (cq == NULL || cq->status != 0)
		return;
	r->armed = SIM_ARMED_RX_CQE;
	if (!mlx5_sim_cqe_put_armed(&r->guard, cq,
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
 * A frame arriving at port @pi of @vhca, sent by @src from a TIS of
 * transport domain @src_tdn at virtual time @ts, in doorbell @r.
 */
static void
sim_port_rx(struct sim_sq_run *r, struct mlx5_sim_vhca *vhca,
	    unsigned int pi, const struct mlx5_sim_vhca *src,
	    uint32_t src_tdn, uint8_t *f, uint32_t len, uint64_t ts)
{
	struct mlx5_sim_port *port = &vhca->port[pi];
	struct mlx5_sim_rqt *rqt;
	struct mlx5_sim_tir *tir;
	struct mlx5_sim_rq *rq;
	struct sim_hdrs h;
	uint32_t hash = 0, rqn;
	uint8_t htype = 0;

	sim_parse(f, len, &h);
	/* The MTU counts from L3: the L2 header and a VLAN tag more. */
	if (len > vhca->mtu + SIM_ETH_HLEN + (h.vlan ? 4u : 0u)) {
		port->st.rx_oversize++;
		return;
	}
	tir = mlx5_sim_flow_steer(vhca, f, len);
	if (tir == NULL) {
		port->st.rx_no_rule++;
		return;
	}
	if (src == vhca && tir->tdn == src_tdn &&
	    (tir->self_lb_block & ((f[0] & 1) ?
				   MLX5_TIRC_SELF_LB_BLOCK_BLOCK_MULTICAST :
				   MLX5_TIRC_SELF_LB_BLOCK_BLOCK_UNICAST))) {
		port->st.rx_self_lb++;
		return;
	}
	if (tir->disp_type == MLX5_TIRC_DISP_TYPE_DIRECT) {
		rqn = tir->inline_rqn;
	} else {
		if (r->rss_tir != tir) {
			r->rss_rqt = mlx5_sim_idtab_get(&vhca->rqts,
							tir->rqtn);
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
				 hash & (rqt->n - 1u) : hash % rqt->n)];
	}
	rq = sim_rq_get(vhca, rqn);
	if (rq == NULL) {
		port->st.rx_rq_not_ready++;
		return;
	}
	r->rx_vhca = vhca;
	r->rx_port = port;
	r->rq = rq;
	sim_rq_receive(r, f, len, &h, hash, htype, ts);
}

/*
 * The far end of port @pi of @vhca, or NULL: no cable, peer absent, or
 * either end set administratively down (the link is down for both ends,
 * as a PHY whose partner went down).
 */
static struct mlx5_sim_vhca *
sim_port_far(struct mlx5_sim_vhca *vhca, unsigned int pi, unsigned int *fpi)
{
	struct mlx5_sim_port *port = &vhca->port[pi];
	struct mlx5_sim_vhca *far;

	if (__atomic_load_n(&port->admin_down, __ATOMIC_RELAXED))
		return NULL;
	if (port->wire == MLX5_SIM_WIRE_LOOPBACK) {
		*fpi = pi;
		return vhca;
	}
	if (!MLX5_SIM_WIRE_IS_PEER(port->wire))
		return NULL;
	if (port->peer == NULL) {
		/* Cabled before the far vHCA existed: find it now. */
		far = MLX5_SIM_WIRE_VHCA(port->wire) == vhca->vhca_id ? vhca :
		      mlx5_sim_card_vhca(vhca->card,
					 MLX5_SIM_WIRE_VHCA(port->wire));
		if (far == NULL ||
		    MLX5_SIM_WIRE_PORT(port->wire) > far->caps.nports)
			return NULL;
		port->peer = far;
		port->peer_port = MLX5_SIM_WIRE_PORT(port->wire) - 1;
	}
	*fpi = port->peer_port;
	/* The far vHCA's state, read without its lock: atomic. */
	if (__atomic_load_n(&port->peer->port[port->peer_port].admin_down,
			    __ATOMIC_RELAXED))
		return NULL;
	return port->peer;
}

bool
mlx5_sim_port_up(struct mlx5_sim_vhca *vhca, unsigned int pi)
{
	unsigned int fpi;

	return pi < vhca->caps.nports && sim_port_far(vhca, pi, &fpi) != NULL;
}

/*
 * The frame of the SEND WQE of @r, built in r->frame: inline header, then
 * data segments, each read under the doorbell's guard when the SQ's
 * cache translates its key. Returns a CQE syndrome, 0 on success, the
 * length in @len.
 */
static uint8_t
sim_sq_frame(struct sim_sq_run *r, uint32_t *len)
{
	struct mlx5_sim_vhca *vhca = r->vhca;
	struct mlx5_sim_sq *sq = r->sq;
	const struct mlx5_sim_wqe *w = &r->wqe;
	uint8_t *f = r->frame;
	const uint8_t *seg = w->bytes + sizeof(struct mlx5_wqe_ctrl_seg);
	const struct mlx5_wqe_eth_seg *es = (const void *)seg;
	/* The segments after the control segment. */
	const uint8_t *end = w->bytes + (size_t)w->ds * 16;
	const uint8_t *p;
	uint32_t inl, n = 0;
	int ret;

	if (w->ds < 2)
		return MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR;
	inl = rte_be_to_cpu_16(es->inline_hdr_sz);
	/* The inline header starts in the segment's last two bytes. */
	p = (const uint8_t *)es->inline_hdr_start;
	if (inl > (size_t)(end - p) || inl > SIM_FRAME_MAX)
		return MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR;
	/* The SQ's minimal inline mode: at least the L2 header inline. */
	if (sq->min_wqe_inline_mode != 0 && inl < SIM_ETH_HLEN)
		return MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR;
	memcpy(f, p, inl);
	n = inl;
	p = seg + 16 + (inl > 2 ? RTE_ALIGN_CEIL(inl - 2, 16u) : 0);
	while (p < end) {
		uint32_t bc;

		memcpy(&bc, p, sizeof(bc));
		bc = rte_be_to_cpu_32(bc);

		if (bc & MLX5_INLINE_SEG) {
			bc &= ~MLX5_INLINE_SEG;
			if (bc > (size_t)(end - p) - 4 ||
			    n + bc > SIM_FRAME_MAX)
				return MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR;
			memcpy(f + n, p + 4, bc);
			p += RTE_ALIGN_CEIL(4 + bc, 16u);
		} else {
			const struct mlx5_wqe_data_seg *d = (const void *)p;
			uint32_t lkey = rte_be_to_cpu_32(d->lkey);
			uint64_t addr = rte_be_to_cpu_64(d->addr);
			const uint8_t *host;

			/* 0 is 2^31 bytes: longer than any frame. */
			if (bc == 0 || n + bc > SIM_FRAME_MAX)
				return MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR;
			host = mlx5_sim_xcache_host(vhca, sq->wq.xc, lkey,
						    sq->wq.pdn, addr, bc,
						    false);
			if (likely(host != NULL)) {
				r->armed = SIM_ARMED_TX_DATA;
				mlx5_sim_copy_armed(&r->guard, f + n, host,
						    bc);
			} else {
				ret = mlx5_sim_xfer_q(vhca, sq->wq.xc, lkey,
						      sq->wq.pdn, addr, f + n,
						      bc, 0);
				if (ret != 0)
					return mlx5_sim_local_syndrome(ret);
			}
			p += sizeof(*d);
		}
		n += bc;
	}
	*len = n;
	return 0;
}

/* Wall-clock time (ns) of the pace_clock=wall setting. */
static uint64_t
sim_wall_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/*
 * The device's own progress for pace_clock=wall: a paced SQ whose next
 * WQE must wait is listed with the time it may leave, and a thread of the
 * device (started at the first such wait, stopped at exit) sends it then,
 * as hardware does without another doorbell. Entries name (vHCA, SQ
 * number), looked up again under the card lock: a destroyed SQ is simply
 * not found.
 */
#define SIM_PACE_MAX 1024
/* How far a paced SQ may fall behind its schedule and catch up (1 ms). */
#define SIM_PACE_SLACK_NS UINT64_C(1000000)

struct sim_pace_ent {
	struct mlx5_sim_vhca *vhca;
	uint32_t sqn;
	uint64_t due;
};

static struct {
	struct mlx5_sim_thread t;  /* Its lock after a card lock, never before. */
	bool full_logged;
	unsigned int n;
	struct sim_pace_ent ent[SIM_PACE_MAX];
} sim_pace = {
	.t = MLX5_SIM_THREAD_INIT,
};

static void *
sim_pace_main(void *arg)
{
	struct sim_pace_ent due[SIM_PACE_MAX];

	RTE_SET_USED(arg);
	pthread_mutex_lock(&sim_pace.t.lock);
	while (!sim_pace.t.stop) {
		uint64_t now = sim_wall_ns(), first = UINT64_MAX;
		unsigned int i, nd = 0;

		for (i = 0; i < sim_pace.n;) {
			if (sim_pace.ent[i].due <= now) {
				due[nd++] = sim_pace.ent[i];
				sim_pace.ent[i] = sim_pace.ent[--sim_pace.n];
				continue;
			}
			first = RTE_MIN(first, sim_pace.ent[i].due);
			i++;
		}
		if (nd == 0) {
			struct timespec ts = {
				.tv_sec = (time_t)(first / 1000000000u),
				.tv_nsec = (long)(first % 1000000000u),
			};

			if (first == UINT64_MAX)
				pthread_cond_wait(&sim_pace.t.cond, &sim_pace.t.lock);
			else
				pthread_cond_timedwait(&sim_pace.t.cond,
						       &sim_pace.t.lock, &ts);
			continue;
		}
		pthread_mutex_unlock(&sim_pace.t.lock);
		for (i = 0; i < nd; i++) {
			struct mlx5_sim_sq *sq;

			mlx5_sim_vhca_lock(due[i].vhca);
			sq = mlx5_sim_qnum_get(&due[i].vhca->qps, due[i].sqn,
					       MLX5_SIM_Q_SQ);
			if (sq != NULL)
				mlx5_sim_engine_sq(due[i].vhca, sq);
			mlx5_sim_vhca_unlock(due[i].vhca);
		}
		pthread_mutex_lock(&sim_pace.t.lock);
	}
	pthread_mutex_unlock(&sim_pace.t.lock);
	return NULL;
}

/* List @sq to be sent at @due (card lock held). */
static void
sim_pace_arm(struct mlx5_sim_vhca *vhca, const struct mlx5_sim_sq *sq,
	     uint64_t due)
{
	unsigned int i;

	pthread_mutex_lock(&sim_pace.t.lock);
	if (sim_pace.t.stop)
		goto out;
	if (mlx5_sim_thread_start_locked(&sim_pace.t, sim_pace_main,
			"the pacing thread: paced SQs progress at doorbells only") != 0)
		goto out;
	for (i = 0; i < sim_pace.n; i++)
		if (sim_pace.ent[i].vhca == vhca &&
		    sim_pace.ent[i].sqn == sq->sqn)
			break;
	if (i == sim_pace.n) {
		if (sim_pace.n == SIM_PACE_MAX) {
			if (!sim_pace.full_logged)
				SIM_LOG(WARNING, "more than %u paced SQs wait:"
					" the others progress at doorbells",
					SIM_PACE_MAX);
			sim_pace.full_logged = true;
			goto out;
		}
		sim_pace.n++;
	}
	sim_pace.ent[i] = (struct sim_pace_ent){
		.vhca = vhca, .sqn = sq->sqn, .due = due,
	};
	pthread_cond_signal(&sim_pace.t.cond);
out:
	pthread_mutex_unlock(&sim_pace.t.lock);
}

void
mlx5_sim_pace_stop(void)
{
	mlx5_sim_thread_stop(&sim_pace.t);
}

/* The rate of pacing entry @index (kb/s), 0 for none. */
static uint32_t
sim_pp_rate(const struct mlx5_sim_vhca *vhca, uint16_t index)
{
	if (index == 0 || vhca->pp == NULL || index >= vhca->caps.pp_table_size)
		return 0;
	return MLX5_GET(set_pp_rate_limit_context, vhca->pp[index - 1].ctx,
			rate_limit);
}

/* The sending side of @r, at its first SEND: TIS, port, cable, rate. */
static void
sim_sq_tx_known(struct sim_sq_run *r)
{
	struct mlx5_sim_vhca *vhca = r->vhca;
	unsigned int pi;

	r->tis = mlx5_sim_idtab_get(&vhca->tiss, r->sq->tisn);
	pi = r->tis != NULL && r->tis->lag_tx_port_affinity != 0 ?
	     r->tis->lag_tx_port_affinity - 1u : 0;
	if (pi >= vhca->caps.nports)
		pi = 0;
	r->port_idx = pi;
	r->port = &vhca->port[pi];
	r->far = sim_port_far(vhca, pi, &r->far_idx);
	r->rate = sim_pp_rate(vhca, r->sq->rate_index);
	r->tx_known = true;
}

/* Send the frame of the WQE of @r: build it, time it, put it on the wire. */
static uint8_t
sim_sq_send(struct sim_sq_run *r)
{
	const struct mlx5_wqe_eth_seg *es = (const void *)
		(r->wqe.bytes + sizeof(struct mlx5_wqe_ctrl_seg));
	struct mlx5_sim_vhca *vhca = r->vhca;
	struct mlx5_sim_sq *sq = r->sq;
	uint8_t *f = r->frame;
	struct mlx5_sim_port *port;
	uint64_t bits, t;
	uint32_t len = 0, rate;
	uint8_t synd;

	synd = sim_sq_frame(r, &len);
	if (synd != 0)
		return synd;
	if (len < SIM_FRAME_MIN) {
		memset(f + len, 0, SIM_FRAME_MIN - len);
		len = SIM_FRAME_MIN;
	}
	if (es->cs_flags & (MLX5_ETH_WQE_L3_CSUM | MLX5_ETH_WQE_L4_CSUM))
		sim_tx_csum(f, es->cs_flags);
	if (unlikely(!r->tx_known))
		sim_sq_tx_known(r);
	port = r->port;
	/*
	 * Departure: the wire's virtual time, or later when paced. In wall
	 * time, now; a paced SQ keeps its schedule, catching up at most
	 * SIM_PACE_SLACK_NS it fell behind (the burst a limiter allows).
	 */
	bits = (uint64_t)len * 8;
	rate = r->rate;
	if (vhca->caps.pace_wall) {
		uint64_t now = sim_wall_ns();

		t = rate != 0 ? RTE_MAX(sq->vt_next_ns,
					now - SIM_PACE_SLACK_NS) : now;
	} else {
		t = port->vclock_ns;
		if (rate != 0)
			t = RTE_MAX(t, sq->vt_next_ns);
	}
	if (rate != 0)
		sq->vt_next_ns = t + (bits * 1000000 + rate - 1) / rate;
	port->vclock_ns = RTE_MAX(port->vclock_ns, t) +
			  bits * 1000 / port->speed_mbps;
	r->ts = sim_ts(t, sq->wq.ts_format);
	r->bytes = len;
	if (r->far == NULL) {
		port->st.tx_link_down++;
		return 0;
	}
	port->st.tx_frames++;
	port->st.tx_bytes += len;
	sim_port_rx(r, r->far, r->far_idx, vhca,
		    r->tis != NULL ? r->tis->tdn : 0, f, len, t);
	return 0;
}

/* The SQ's counter is past the doorbell's (a doorbell beyond the WQEs). */
static inline bool
sim_sq_past_doorbell(const struct sim_sq_run *r)
{
	return ((r->pi - r->sq->wq.hw_counter) & 0xffff) > r->n;
}

/*
 * The end of the WQE of @r, with syndrome @synd (0: it succeeded): true
 * if the engine stops there. An error completes through a guard of its
 * own (mlx5_sim_req_complete()), a signaled success under the doorbell's.
 */
static bool
sim_sq_wqe_end(struct sim_sq_run *r, uint8_t synd)
{
	struct mlx5_sim_sq *sq = r->sq;
	struct mlx5_sim_wq *wq = &sq->wq;
	const struct mlx5_sim_wqe *w = &r->wqe;

	wq->hw_counter += w->bbs;
	if (unlikely(synd != 0)) {
		if (wq->state == MLX5_WQ_STATE_RDY) {
			SIM_LOG(DEBUG, "%s: SQ 0x%x: WQE %u opcode 0x%x:"
				" error completion, syndrome 0x%x",
				r->vhca->ibdev.name, sq->sqn,
				mlx5_sim_wqe_index(w), w->opcode, synd);
			wq->state = MLX5_WQ_STATE_ERR;
		}
		mlx5_sim_req_complete(r->vhca, wq->cqn, sq->sqn, w->opcode,
				      mlx5_sim_wqe_index(w), synd, 0, 0);
	} else if (mlx5_sim_wqe_signaled(w) && r->cq != NULL &&
		   r->cq->status == 0) {
		struct mlx5_cqe64 cqe;

		mlx5_sim_req_cqe(&cqe, sq->sqn, w->opcode,
				 mlx5_sim_wqe_index(w), 0, r->bytes, r->ts);
		r->armed = SIM_ARMED_TX_CQE;
		if (!mlx5_sim_cqe_put_armed(&r->guard, r->cq, &cqe))
			mlx5_sim_cq_overrun(r->cq);
	}
	/* A doorbell beyond the WQEs posted: stop at the counter. */
	return sim_sq_past_doorbell(r);
}

/*
 * A fault under the guard of @r's doorbell: what the armed access was
 * decides the completion, as with a guard per access. Returns true if
 * the engine stops.
 */
static bool
sim_sq_fault(struct sim_sq_run *r)
{
	struct mlx5_sim_wq *wq = &r->sq->wq;

	switch (r->armed) {
	case SIM_ARMED_RING:
		/* A read-ahead: read again, WQE by WQE. */
		if (!r->per_wqe) {
			/* The read-ahead empty (mlx5_sim_wqe_next()). */
			r->per_wqe = true;
			r->ahead.len = 0;
			return false;
		}
		/* One WQE: not a WQE, one block consumed. */
		mlx5_sim_wqe_unread(&r->wqe, &r->unread,
				    (uint16_t)wq->hw_counter);
		return sim_sq_wqe_end(r, MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR);
	case SIM_ARMED_TX_DATA:
		return sim_sq_wqe_end(r, mlx5_sim_local_syndrome(-EFAULT));
	case SIM_ARMED_TX_CQE:
		r->cq->status = MLX5_SIM_CQ_STATUS_WRITE_FAIL;
		return sim_sq_past_doorbell(r);
	case SIM_ARMED_RQ_DBR:
		r->rx_port->st.rx_errors++;
		sim_rq_error(r->rx_vhca, r->rq);
		break;
	case SIM_ARMED_RQ_WQE:
		sim_rx_fail(r->rx_vhca, r->rx_port, r->rq,
			    MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR);
		break;
	case SIM_ARMED_RX_DATA:
		sim_rx_fail(r->rx_vhca, r->rx_port, r->rq,
			    mlx5_sim_local_syndrome(-EFAULT));
		break;
	default: /* SIM_ARMED_RX_CQE */
		r->rq_cq->status = MLX5_SIM_CQ_STATUS_WRITE_FAIL;
		break;
	}
	/* The receiving side failed: the frame left all the same. */
	return sim_sq_wqe_end(r, 0);
}

/*
 * An SQ's doorbell: its WQEs from the device's counter to the doorbell
 * record's, under one fault guard (mlx5_sim_wqe.h), armed only while the
 * application's memory is read or written: the SQ's ring (read ahead as
 * a QP's, WQE by WQE after a fault), the frame's data, and on the
 * receiving side the RQ's doorbell record, WQE, buffers and CQ. A fault
 * comes back here; sim_sq_fault() completes what it hit.
 */
void
mlx5_sim_engine_sq(struct mlx5_sim_vhca *vhca, struct mlx5_sim_sq *sq)
{
	struct mlx5_sim_wq *wq = &sq->wq;
	struct sim_sq_run run;
	struct sim_sq_run *r = &run;
	uint32_t pi;

	if (wq->state != MLX5_WQ_STATE_RDY && wq->state != MLX5_WQ_STATE_ERR)
		return;
	if (!mlx5_sim_dbr_read(wq->dbr.host, MLX5_SIM_DBR_SND, &pi) ||
	    mlx5_sim_guard_push(&r->guard) != 0) {
		wq->state = MLX5_WQ_STATE_ERR;
		return;
	}
	r->armed = SIM_ARMED_RING;
	r->per_wqe = false;
	r->vhca = vhca;
	r->sq = sq;
	r->pi = pi & 0xffff;
	r->n = 1u << wq->log_wq_sz;
	r->tx_known = false;
	r->cq = mlx5_sim_idtab_get(&vhca->cqs, wq->cqn);
	r->rq_known = NULL;
	r->rss_tir = NULL;
	r->ahead.first = 0;
	r->ahead.len = 0;
	if (MLX5_SIM_GUARD_SETJMP(&r->guard) != 0) {
		if (sim_sq_fault(r))
			goto out;
	}
	while ((uint16_t)wq->hw_counter != r->pi) {
		uint8_t synd = 0;
		int ret;

		/* Wall-clock pacing: a WQE waits for its time to come. */
		if (vhca->caps.pace_wall && wq->state == MLX5_WQ_STATE_RDY &&
		    sq->rate_index != 0 && sq->vt_next_ns > sim_wall_ns()) {
			sim_pace_arm(vhca, sq, sq->vt_next_ns);
			break;
		}
		r->armed = SIM_ARMED_RING;
		ret = mlx5_sim_wqe_next(&r->guard, &r->ahead, wq->ring.host,
					r->n, sq->sqn, (uint16_t)wq->hw_counter,
					r->pi, r->per_wqe, &r->wqe);
		r->bytes = 0;
		r->ts = 0;
		if (unlikely(ret != 0)) {
			/* Not a WQE: an error completion, one block consumed. */
			synd = MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR;
			r->wqe.bbs = 1;
		} else if (unlikely(wq->state == MLX5_WQ_STATE_ERR)) {
			synd = MLX5_CQE_SYNDROME_WR_FLUSH_ERR;
		} else if (likely(r->wqe.opcode == MLX5_OPCODE_SEND)) {
			synd = sim_sq_send(r);
		} else if (r->wqe.opcode != MLX5_OPCODE_NOP) {
			synd = MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR;
		}
		if (sim_sq_wqe_end(r, synd))
			break;
	}
out:
	mlx5_sim_guard_pop(&r->guard);
}

/* Ports: cables at vHCA creation. */

void
mlx5_sim_ports_init(struct mlx5_sim_vhca *vhca)
{
	unsigned int p;

	if (vhca->caps.nports == 0)
		vhca->caps.nports = 1;
	vhca->mtu = SIM_DEFAULT_MTU;
	for (p = 0; p < MLX5_SIM_MAX_PORTS; p++) {
		vhca->port[p].wire = p < vhca->caps.nports ?
				     vhca->caps.wire[p] : MLX5_SIM_WIRE_NONE;
		vhca->port[p].speed_mbps = vhca->caps.speed_mbps != 0 ?
					   vhca->caps.speed_mbps :
					   SIM_DEFAULT_SPEED_MBPS;
	}
}

/*
 * The port a cable of new vHCA @vhca names, checked: NULL with *far NULL
 * when that vHCA does not exist yet; -EINVAL in *err when the port is
 * missing or cabled elsewhere.
 */
static struct mlx5_sim_port *
sim_cable_end(struct mlx5_sim_vhca *vhca, unsigned int p,
	      struct mlx5_sim_vhca **far, int *err)
{
	uint32_t wire = vhca->port[p].wire;
	uint32_t back = MLX5_SIM_WIRE_PEER(vhca->vhca_id, p + 1);
	unsigned int q = MLX5_SIM_WIRE_PORT(wire) - 1u;
	struct mlx5_sim_port *fp;

	*err = 0;
	*far = MLX5_SIM_WIRE_VHCA(wire) == vhca->vhca_id ? vhca :
	       mlx5_sim_card_vhca(vhca->card, MLX5_SIM_WIRE_VHCA(wire));
	if (*far == NULL)
		return NULL;
	if (q >= (*far)->caps.nports || (*far == vhca && q == p)) {
		SIM_LOG(ERR, "%s: port %u cabled to port %u of vHCA %u, which"
			" %s", vhca->ibdev.name, p + 1, q + 1,
			MLX5_SIM_WIRE_VHCA(wire),
			*far == vhca && q == p ? "is itself (use loopback)" :
			"it does not have");
		*err = -EINVAL;
		return NULL;
	}
	fp = &(*far)->port[q];
	if (fp->wire != back && (fp->wire_given ||
				 fp->wire != MLX5_SIM_WIRE_LOOPBACK)) {
		SIM_LOG(ERR, "%s: port %u cabled to port %u of vHCA %u, which"
			" is cabled elsewhere", vhca->ibdev.name, p + 1, q + 1,
			MLX5_SIM_WIRE_VHCA(wire));
		*err = -EINVAL;
		return NULL;
	}
	return fp;
}

int
mlx5_sim_ports_cable(struct mlx5_sim_vhca *vhca, uint32_t given)
{
	static const uint32_t bits[MLX5_SIM_MAX_PORTS] = {
		MLX5_SIM_CAP_WIRE1, MLX5_SIM_CAP_WIRE2,
	};
	struct mlx5_sim_vhca *far, *v;
	struct mlx5_sim_port *fp;
	unsigned int p, q;
	int err;

	/* Check every end first: a refused probe changes no cable. */
	for (p = 0; p < vhca->caps.nports; p++) {
		vhca->port[p].wire_given = (given & bits[p]) != 0;
		if (!vhca->port[p].wire_given ||
		    !MLX5_SIM_WIRE_IS_PEER(vhca->port[p].wire))
			continue;
		sim_cable_end(vhca, p, &far, &err);
		if (err != 0) {
			errno = -err;
			return err;
		}
	}
	for (p = 0; p < vhca->caps.nports; p++) {
		struct mlx5_sim_port *port = &vhca->port[p];

		if (port->wire_given && MLX5_SIM_WIRE_IS_PEER(port->wire)) {
			fp = sim_cable_end(vhca, p, &far, &err);
			if (fp == NULL)
				continue;
			fp->wire = MLX5_SIM_WIRE_PEER(vhca->vhca_id, p + 1);
			fp->peer = vhca;
			fp->peer_port = (uint8_t)p;
			port->peer = far;
			port->peer_port = MLX5_SIM_WIRE_PORT(port->wire) - 1;
			continue;
		}
		if (port->wire_given)
			continue;
		/* Cabled by default: take a cable an older vHCA points here. */
		TAILQ_FOREACH(v, &vhca->card->vhcas, card_next)
			for (q = 0; q < v->caps.nports; q++) {
				if (v->port[q].wire !=
				    MLX5_SIM_WIRE_PEER(vhca->vhca_id, p + 1) ||
				    MLX5_SIM_WIRE_IS_PEER(port->wire))
					continue;
				port->wire = MLX5_SIM_WIRE_PEER(v->vhca_id,
								 q + 1);
				port->peer = v;
				port->peer_port = (uint8_t)q;
				v->port[q].peer = vhca;
				v->port[q].peer_port = (uint8_t)p;
			}
	}
	return 0;
}

/* Port attributes: link, speed and the vport's MTU. */

/* The vHCA of @ctx, locked, if @port is one of its ports. */
static struct mlx5_sim_vhca *
sim_port_vhca(struct mlx5_sim_vhca *vhca, uint8_t port)
{
	if (vhca == NULL || port < 1 || port > vhca->caps.nports)
		return NULL;
	mlx5_sim_vhca_lock(vhca);
	return vhca;
}

/* The vHCA of a context, or NULL. */
static struct mlx5_sim_vhca *
sim_ctx_vhca(struct ibv_context *ctx)
{
	struct mlx5_sim_ctx *sctx = mlx5_sim_ctx_get(ctx);

	return sctx != NULL ? sctx->file->vhca : NULL;
}

int
mlx5_sim_port_link_get(struct ibv_context *ctx, uint8_t port,
		       uint32_t *speed_mbps, uint16_t *mtu, int *up)
{
	struct mlx5_sim_vhca *vhca = sim_port_vhca(sim_ctx_vhca(ctx), port);

	if (vhca == NULL)
		return EINVAL;
	*speed_mbps = vhca->port[port - 1].speed_mbps;
	*mtu = vhca->mtu;
	*up = mlx5_sim_port_up(vhca, port - 1u);
	mlx5_sim_vhca_unlock(vhca);
	return 0;
}

/*
 * The vport's MTU, as the netdev's: 68 (IPv4's minimum) to the largest
 * the firmware takes. One vport per vHCA: both ports share it.
 */
int
mlx5_sim_port_mtu_set(struct ibv_context *ctx, uint8_t port, uint16_t mtu)
{
	return mlx5_sim_vport_mtu_set(sim_ctx_vhca(ctx), port, mtu);
}

int
mlx5_sim_vport_mtu_set(struct mlx5_sim_vhca *vhca_in, uint8_t port,
		       uint16_t mtu)
{
	struct mlx5_sim_vhca *vhca = sim_port_vhca(vhca_in, port);

	if (vhca == NULL)
		return EINVAL;
	if (mtu < RTE_ETHER_MIN_MTU || mtu > SIM_MAX_MTU) {
		SIM_LOG(ERR, "%s: MTU %u out of range [%u, %u]",
			vhca->ibdev.name, mtu, RTE_ETHER_MIN_MTU, SIM_MAX_MTU);
		mlx5_sim_vhca_unlock(vhca);
		return EINVAL;
	}
	vhca->mtu = mtu;
	mlx5_sim_vhca_unlock(vhca);
	return 0;
}

/*
 * The port's administrative state. Down, the port sends nothing (frames
 * are lost, counted tx_link_down) and receives nothing, and the link is
 * down at both ends of its cable.
 */
int
mlx5_sim_port_link_set(struct ibv_context *ctx, uint8_t port, int up)
{
	return mlx5_sim_vport_link_set(sim_ctx_vhca(ctx), port, up);
}

int
mlx5_sim_vport_link_set(struct mlx5_sim_vhca *vhca_in, uint8_t port, int up)
{
	struct mlx5_sim_vhca *vhca = sim_port_vhca(vhca_in, port);

	if (vhca == NULL)
		return EINVAL;
	__atomic_store_n(&vhca->port[port - 1].admin_down, !up,
			 __ATOMIC_RELAXED);
	mlx5_sim_vhca_unlock(vhca);
	return 0;
}

/* A forced link speed: 10 Mb/s to 800 Gb/s. */
int
mlx5_sim_port_speed_set(struct ibv_context *ctx, uint8_t port,
			uint32_t speed_mbps)
{
	return mlx5_sim_vport_speed_set(sim_ctx_vhca(ctx), port, speed_mbps);
}

int
mlx5_sim_vport_speed_set(struct mlx5_sim_vhca *vhca_in, uint8_t port,
			 uint32_t speed_mbps)
{
	struct mlx5_sim_vhca *vhca = sim_port_vhca(vhca_in, port);

	if (vhca == NULL)
		return EINVAL;
	if (speed_mbps < 10 || speed_mbps > 800000) {
		SIM_LOG(ERR, "%s: speed %u Mb/s out of range [10, 800000]",
			vhca->ibdev.name, speed_mbps);
		mlx5_sim_vhca_unlock(vhca);
		return EINVAL;
	}
	vhca->port[port - 1].speed_mbps = speed_mbps;
	mlx5_sim_vhca_unlock(vhca);
	return 0;
}

uint16_t
mlx5_sim_vport_hw_mtu(const struct mlx5_sim_vhca *vhca)
{
	return (uint16_t)(vhca->mtu + SIM_HW_MTU_EXTRA);
}

int
mlx5_sim_port_stats(uint16_t card, uint16_t vhca_id, uint8_t port,
		    struct mlx5_sim_port_stats *st)
{
	struct mlx5_sim_vhca *vhca = mlx5_sim_vhca_find(card, vhca_id);

	if (vhca == NULL || st == NULL || port < 1 ||
	    port > vhca->caps.nports) {
		errno = ENODEV;
		return -ENODEV;
	}
	mlx5_sim_vhca_lock(vhca);
	*st = vhca->port[port - 1].st;
	mlx5_sim_vhca_unlock(vhca);
	return 0;
}
