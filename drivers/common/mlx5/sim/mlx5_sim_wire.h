/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * Ports, cables and the Ethernet datapath: what the device does with the
 * send WQEs of an SQ (mlx5_sim_sq.c), with a frame that reaches a port
 * (mlx5_sim_rq.c), and the ports and cables themselves (mlx5_sim_port.c).
 * This header holds what the three share: the frame's parsing and
 * checksums (inline: both directions run them per frame), the state of
 * one SQ doorbell, and the calls from one file to another.
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

#ifndef MLX5_SIM_WIRE_H_
#define MLX5_SIM_WIRE_H_

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
/* The Ethernet FCS (CRC-32), which frames carry on the wire. */
#define SIM_FCS_LEN 4
/* Frames shorter than this are padded with zeros (64 bytes with FCS). */
#define SIM_FRAME_MIN 60
#define SIM_ETH_HLEN 14
/* A WQE's timestamp format (sqc/rqc.ts_format): real time is sec:ns. */
#define SIM_TS_FORMAT_REAL_TIME 2
/* Largest receive WQE: 2 KiB (log_wq_stride 11), 128 data segments. */
#define SIM_RX_WQE_MAX 2048

/* What the device parsed of a frame. */
struct mlx5_sim_hdrs {
	uint16_t ethertype; /* After VLAN tags. */
	bool vlan;
	uint8_t l3; /* 0, 4 or 6. */
	uint8_t l4; /* IPPROTO_TCP, IPPROTO_UDP or 0. */
	bool frag;
	uint16_t l3_off, l4_off;
	uint16_t l3_len; /* IP header + payload, as the header says. */
};

static inline void
mlx5_sim_frame_parse(const uint8_t *f, uint32_t len, struct mlx5_sim_hdrs *h)
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
		const struct rte_ipv4_hdr *ip = (const void *)(f + h->l3_off);

		ihl = (f[h->l3_off] & 0xf) * 4u;
		h->l3_len = rte_be_to_cpu_16(ip->total_length);
		if (ihl < 20 || h->l3_len < ihl ||
		    h->l3_off + (uint32_t)h->l3_len > len)
			return;
		h->l3 = 4;
		h->frag = (rte_be_to_cpu_16(ip->fragment_offset) &
			   (RTE_IPV4_HDR_MF_FLAG | RTE_IPV4_HDR_OFFSET_MASK)) !=
			  0;
		h->l4_off = (uint16_t)(h->l3_off + ihl);
		if (!h->frag)
			h->l4 = ip->next_proto_id;
	} else if (et == RTE_ETHER_TYPE_IPV6 && len >= h->l3_off + 40u &&
		   f[h->l3_off] >> 4 == 6) {
		const struct rte_ipv6_hdr *ip6 = (const void *)(f + h->l3_off);

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
static inline uint8_t *
mlx5_sim_l4_csum_field(uint8_t *f, const struct mlx5_sim_hdrs *h)
{
	return f + h->l4_off + (h->l4 == IPPROTO_TCP ? 16 : 6);
}

/* The L4 checksum to store, over the pseudo header and the L4 bytes. */
static inline uint16_t
mlx5_sim_l4_csum(const uint8_t *f, const struct mlx5_sim_hdrs *h)
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
mlx5_sim_sum(const uint8_t *p, uint32_t len)
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

/* Fold a sum of mlx5_sim_sum() to 16 bits. */
static inline uint16_t
mlx5_sim_fold(uint64_t sum)
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
 * machine's order as mlx5_sim_sum() loads it.
 */
static inline uint64_t
mlx5_sim_pseudo_sum(const uint8_t *f, const struct mlx5_sim_hdrs *h)
{
	uint32_t l4_len = h->l3_off + (uint32_t)h->l3_len - h->l4_off;
	uint64_t sum = rte_cpu_to_be_16((uint16_t)l4_len) +
		       rte_cpu_to_be_16((uint16_t)h->l4);

	if (h->l3 == 4)
		return sum + mlx5_sim_sum(f + h->l3_off + 12, 8);
	return sum + mlx5_sim_sum(f + h->l3_off + 8, 32);
}

/* The checksum offloads of a send WQE's Ethernet segment. */
static inline void
mlx5_sim_tx_csum(uint8_t *f, uint8_t cs_flags)
{
	struct mlx5_sim_hdrs h;

	mlx5_sim_frame_parse(f, UINT16_MAX, &h);
	if ((cs_flags & MLX5_ETH_WQE_L3_CSUM) && h.l3 == 4) {
		struct rte_ipv4_hdr *ip = (void *)(f + h.l3_off);

		ip->hdr_checksum = 0;
		ip->hdr_checksum = rte_ipv4_cksum(ip);
	}
	if ((cs_flags & MLX5_ETH_WQE_L4_CSUM) && h.l4 != 0) {
		uint8_t *field = mlx5_sim_l4_csum_field(f, &h);
		uint16_t sum;

		field[0] = 0;
		field[1] = 0;
		sum = mlx5_sim_l4_csum(f, &h);
		memcpy(field, &sum, sizeof(sum));
	}
}

/* A CQE timestamp of virtual time @ns in format @fmt. */
static inline uint64_t
mlx5_sim_cqe_ts(uint64_t ns, uint8_t fmt)
{
	if (fmt == SIM_TS_FORMAT_REAL_TIME)
		return (ns / 1000000000u) << 32 | (ns % 1000000000u);
	return ns;
}

/*
 * What a fault under the guard of an SQ's doorbell hit: the access armed
 * (each is a call of mlx5_sim_wqe.h), which says what completes next.
 */
enum mlx5_sim_armed {
	SIM_ARMED_RING,	   /* The SQ's ring: WQEs read ahead or one. */
	SIM_ARMED_TX_DATA, /* A data segment of the frame. */
	SIM_ARMED_TX_CQE,  /* The send CQE. */
	SIM_ARMED_RQ_DBR,  /* The receiving RQ's doorbell record. */
	SIM_ARMED_RQ_WQE,  /* Its receive WQE. */
	SIM_ARMED_RX_DATA, /* Its buffers. */
	SIM_ARMED_RX_CQE,  /* Its CQE. */
};

/*
 * One doorbell of an SQ: the one fault guard, the WQE in flight and what
 * the engine looks up once per doorbell (the card lock is held: no object
 * changes under it but by the engine itself).
 */
struct mlx5_sim_sq_run {
	struct mlx5_sim_guard guard;
	volatile uint8_t armed; /* enum mlx5_sim_armed. */
	volatile bool per_wqe;	/* A read-ahead faulted: WQE by WQE. */
	struct mlx5_sim_vhca *vhca;
	struct mlx5_sim_sq *sq;
	uint32_t pi; /* The doorbell record's send counter. */
	uint32_t n;  /* Basic blocks of the ring. */
	/* The WQE in flight and its good completion. */
	struct mlx5_sim_wqe wqe;
	/* The control segment of a WQE whose read faulted (wqe points at it). */
	struct mlx5_wqe_ctrl_seg unread;
	uint64_t ts;
	uint32_t bytes;	  /* Of its frames (an eMPW WQE sends several). */
	uint64_t sent_ns; /* The frame's departure, wire time. */
	/* An eMPW WQE: the segment after the frame in flight. */
	const uint8_t *empw_next;
	/* The sending side, at the first SEND. */
	bool tx_known;
	struct mlx5_sim_cq *cq; /* The SQ's CQ, or NULL. */
	struct mlx5_sim_tis *tis;
	struct mlx5_sim_port *port;
	unsigned int port_idx;
	struct mlx5_sim_vhca *far; /* The far end of the cable, or NULL. */
	unsigned int far_idx;
	uint32_t rate; /* Of the SQ's pacing entry, kb/s. */
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
	/* The frame, and room for the FCS an RQ may scatter after it. */
	uint8_t frame[SIM_FRAME_MAX + SIM_FCS_LEN] __rte_aligned(8);
};

/* The receive side (mlx5_sim_rq.c). */
/* An RQ entering ERR: its posted WQEs complete flushed, if it asked so. */
void mlx5_sim_rq_error(struct mlx5_sim_vhca *vhca, struct mlx5_sim_rq *rq);
/* A receive WQE that failed with @synd: its error CQE, the RQ's state. */
void mlx5_sim_rx_fail(struct mlx5_sim_vhca *vhca, struct mlx5_sim_port *port,
		      struct mlx5_sim_rq *rq, uint8_t synd);
/*
 * The frame of doorbell @r (r->frame, @len bytes, sent at r->sent_ns
 * from a TIS of r->vhca) arriving at the far end of its cable.
 */
void mlx5_sim_port_rx(struct mlx5_sim_sq_run *r, uint32_t len);

/* The ports (mlx5_sim_port.c). */
/*
 * The far end of port @pi of @vhca (its port index in @fpi), or NULL: no
 * cable, peer absent, or either end set administratively down.
 */
struct mlx5_sim_vhca *mlx5_sim_port_far(struct mlx5_sim_vhca *vhca,
					unsigned int pi, unsigned int *fpi);

#endif /* MLX5_SIM_WIRE_H_ */
