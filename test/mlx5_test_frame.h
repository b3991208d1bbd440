/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * Test frames shared by the suites that send them: the device's Ethernet
 * queues (test_wire) and the net PMD (test_net).
 */

#ifndef MLX5_TEST_FRAME_H_
#define MLX5_TEST_FRAME_H_

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_ip.h>

/*
 * Fill the @len bytes at @f (zeroed first) with an Ethernet frame from and
 * to MAC @mac carrying IPv4 (10.0.0.1 to @dst4) or, with @v6, IPv6 (::1
 * to ::2), whose next header is @proto (IPPROTO_TCP or IPPROTO_UDP) and
 * whose lengths cover the frame; no checksum, the L4 header left zero.
 * The L4 header's address.
 */
static inline uint8_t *
mlx5_test_frame_l3(uint8_t *f, uint32_t len, const void *mac, bool v6,
		   uint8_t proto, uint32_t dst4)
{
	memset(f, 0, len);
	memcpy(f, mac, 6);
	memcpy(f + 6, mac, 6);
	f[12] = v6 ? 0x86 : 0x08;
	f[13] = v6 ? 0xdd : 0x00;
	if (v6) {
		struct rte_ipv6_hdr *ip6 = (void *)(f + 14);

		ip6->vtc_flow = rte_cpu_to_be_32(6u << 28);
		ip6->payload_len = rte_cpu_to_be_16((uint16_t)(len - 54));
		ip6->proto = proto;
		ip6->hop_limits = 64;
		ip6->src_addr[15] = 1;
		ip6->dst_addr[15] = 2;
		return f + 14 + sizeof(*ip6);
	} else {
		struct rte_ipv4_hdr *ip = (void *)(f + 14);

		ip->version_ihl = 0x45;
		ip->total_length = rte_cpu_to_be_16((uint16_t)(len - 14));
		ip->time_to_live = 64;
		ip->next_proto_id = proto;
		ip->src_addr = rte_cpu_to_be_32(0x0a000001);
		ip->dst_addr = rte_cpu_to_be_32(dst4);
		return f + 14 + sizeof(*ip);
	}
}

#endif /* MLX5_TEST_FRAME_H_ */
