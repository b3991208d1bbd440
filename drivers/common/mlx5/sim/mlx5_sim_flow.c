/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * Steering: the NIC receive flow table as rdma-core's mlx5dv flow API
 * reaches it. A matcher (mlx5dv_create_flow_matcher: the kernel's own
 * object, no firmware command) holds a priority and a mask in the PRM's
 * fte_match_param format; a rule (mlx5dv_create_flow: the kernel issues
 * SET_FLOW_TABLE_ENTRY) holds a value under that mask and one destination,
 * a DEVX TIR of the same file (the kernel's mlx5_ib_devx_is_flow_dest()).
 * A TIR a rule sends to cannot be destroyed (the kernel holds a reference
 * on the DEVX object: EBUSY).
 *
 * A received frame goes to the first rule, lowest priority value first
 * then oldest first, whose masked value equals the frame's masked fields.
 * The model parses the outer L2-L4 headers: MACs, ethertype, VLAN, IP
 * version, protocol, addresses and TCP/UDP ports. A matcher with mask bits
 * elsewhere (misc, inner headers, other fields) is refused EOPNOTSUPP: the
 * model could not honour it.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_common.h>
#include <rte_ether.h>
#include <rte_ip.h>

#include "mlx5_sim_priv.h"

#define SIM_LYR_BYTES MLX5_ST_SZ_BYTES(fte_match_set_lyr_2_4)

/* The outer header bits the model parses (built once, lock-free read). */
static uint8_t sim_supported[SIM_LYR_BYTES];

RTE_INIT(mlx5_sim_flow_init)
{
	uint8_t *m = sim_supported;

	MLX5_SET(fte_match_set_lyr_2_4, m, smac_47_16, UINT32_MAX);
	MLX5_SET(fte_match_set_lyr_2_4, m, smac_15_0, UINT16_MAX);
	MLX5_SET(fte_match_set_lyr_2_4, m, ethertype, UINT16_MAX);
	MLX5_SET(fte_match_set_lyr_2_4, m, dmac_47_16, UINT32_MAX);
	MLX5_SET(fte_match_set_lyr_2_4, m, dmac_15_0, UINT16_MAX);
	MLX5_SET(fte_match_set_lyr_2_4, m, first_prio, 0x7);
	MLX5_SET(fte_match_set_lyr_2_4, m, first_cfi, 1);
	MLX5_SET(fte_match_set_lyr_2_4, m, first_vid, 0xfff);
	MLX5_SET(fte_match_set_lyr_2_4, m, ip_protocol, UINT8_MAX);
	MLX5_SET(fte_match_set_lyr_2_4, m, cvlan_tag, 1);
	MLX5_SET(fte_match_set_lyr_2_4, m, ip_version, 0xf);
	MLX5_SET(fte_match_set_lyr_2_4, m, tcp_sport, UINT16_MAX);
	MLX5_SET(fte_match_set_lyr_2_4, m, tcp_dport, UINT16_MAX);
	MLX5_SET(fte_match_set_lyr_2_4, m, udp_sport, UINT16_MAX);
	MLX5_SET(fte_match_set_lyr_2_4, m, udp_dport, UINT16_MAX);
	memset(MLX5_ADDR_OF(fte_match_set_lyr_2_4, m, src_ipv4_src_ipv6),
	       0xff, 16);
	memset(MLX5_ADDR_OF(fte_match_set_lyr_2_4, m, dst_ipv4_dst_ipv6),
	       0xff, 16);
}

/* The match fields of frame @f, in the fte_match_set_lyr_2_4 layout. */
static void
sim_frame_fields(const uint8_t *f, uint32_t len, uint8_t *v)
{
	uint32_t off = 12, l3, l4 = 0;
	uint16_t et;
	uint8_t proto = 0;

	memset(v, 0, SIM_LYR_BYTES);
	if (len < RTE_ETHER_HDR_LEN)
		return;
	memcpy(MLX5_ADDR_OF(fte_match_set_lyr_2_4, v, dmac_47_16), f, 6);
	memcpy(MLX5_ADDR_OF(fte_match_set_lyr_2_4, v, smac_47_16), f + 6, 6);
	et = (uint16_t)(f[off] << 8 | f[off + 1]);
	if (et == RTE_ETHER_TYPE_VLAN && len >= off + 6) {
		uint16_t tci = (uint16_t)(f[off + 2] << 8 | f[off + 3]);

		MLX5_SET(fte_match_set_lyr_2_4, v, cvlan_tag, 1);
		MLX5_SET(fte_match_set_lyr_2_4, v, first_prio, tci >> 13);
		MLX5_SET(fte_match_set_lyr_2_4, v, first_cfi, (tci >> 12) & 1);
		MLX5_SET(fte_match_set_lyr_2_4, v, first_vid, tci & 0xfff);
		off += 4;
		et = (uint16_t)(f[off] << 8 | f[off + 1]);
	}
	MLX5_SET(fte_match_set_lyr_2_4, v, ethertype, et);
	l3 = off + 2;
	if (et == RTE_ETHER_TYPE_IPV4 && len >= l3 + 20) {
		MLX5_SET(fte_match_set_lyr_2_4, v, ip_version, 4);
		proto = f[l3 + 9];
		memcpy((uint8_t *)MLX5_ADDR_OF(fte_match_set_lyr_2_4, v,
					       src_ipv4_src_ipv6) + 12,
		       f + l3 + 12, 4);
		memcpy((uint8_t *)MLX5_ADDR_OF(fte_match_set_lyr_2_4, v,
					       dst_ipv4_dst_ipv6) + 12,
		       f + l3 + 16, 4);
		l4 = l3 + (f[l3] & 0xf) * 4u;
	} else if (et == RTE_ETHER_TYPE_IPV6 && len >= l3 + 40) {
		MLX5_SET(fte_match_set_lyr_2_4, v, ip_version, 6);
		proto = f[l3 + 6];
		memcpy(MLX5_ADDR_OF(fte_match_set_lyr_2_4, v,
				    src_ipv4_src_ipv6), f + l3 + 8, 16);
		memcpy(MLX5_ADDR_OF(fte_match_set_lyr_2_4, v,
				    dst_ipv4_dst_ipv6), f + l3 + 24, 16);
		l4 = l3 + 40;
	}
	MLX5_SET(fte_match_set_lyr_2_4, v, ip_protocol, proto);
	if (l4 == 0 || len < l4 + 4)
		return;
	if (proto == IPPROTO_TCP) {
		MLX5_SET(fte_match_set_lyr_2_4, v, tcp_sport,
			 f[l4] << 8 | f[l4 + 1]);
		MLX5_SET(fte_match_set_lyr_2_4, v, tcp_dport,
			 f[l4 + 2] << 8 | f[l4 + 3]);
	} else if (proto == IPPROTO_UDP) {
		MLX5_SET(fte_match_set_lyr_2_4, v, udp_sport,
			 f[l4] << 8 | f[l4 + 1]);
		MLX5_SET(fte_match_set_lyr_2_4, v, udp_dport,
			 f[l4 + 2] << 8 | f[l4 + 3]);
	}
}

static bool
sim_masked_equal(const uint8_t *a, const uint8_t *b, const uint8_t *mask)
{
	unsigned int i;

	for (i = 0; i < SIM_LYR_BYTES; i += 8) {
		uint64_t x, y, m;

		memcpy(&x, a + i, 8);
		memcpy(&y, b + i, 8);
		memcpy(&m, mask + i, 8);
		if ((x ^ y) & m)
			return false;
	}
	return true;
}

struct mlx5_sim_tir *
mlx5_sim_flow_steer(struct mlx5_sim_vhca *vhca, const uint8_t *f,
		    uint32_t len)
{
	uint8_t v[SIM_LYR_BYTES] __rte_aligned(8);
	struct mlx5_sim_flow *fl;
	bool parsed = false;

	TAILQ_FOREACH(fl, &vhca->flows, vnext) {
		/* An empty mask matches without looking at the frame. */
		if (!fl->matcher->any) {
			if (!parsed) {
				sim_frame_fields(f, len, v);
				parsed = true;
			}
			if (!sim_masked_equal(v, fl->value, fl->matcher->mask))
				continue;
		}
		return mlx5_sim_idtab_get(&vhca->tirs, fl->tirn);
	}
	return NULL;
}

bool
mlx5_sim_tir_steered(struct mlx5_sim_vhca *vhca, uint32_t tirn)
{
	struct mlx5_sim_tir *tir = mlx5_sim_idtab_get(&vhca->tirs, tirn);

	return tir != NULL && tir->flows != 0;
}

static struct mlx5_sim_matcher *
sim_matcher_get(struct mlx5dv_flow_matcher *dv)
{
	struct mlx5_sim_matcher *m = (void *)dv;

	return m != NULL && m->magic == MLX5_SIM_MAGIC_MATCHER ? m : NULL;
}

static struct mlx5_sim_flow *
sim_flow_get(struct ibv_flow *ibflow)
{
	struct mlx5_sim_flow *fl;

	if (ibflow == NULL)
		return NULL;
	fl = MLX5_SIM_OF(ibflow, struct mlx5_sim_flow, ibflow);
	return fl->magic == MLX5_SIM_MAGIC_FLOW ? fl : NULL;
}

/* Is the match buffer of mlx5dv's call well formed (1..512 bytes)? */
static bool
sim_match_len_ok(const struct mlx5dv_flow_match_parameters *p)
{
	return p != NULL && p->match_sz != 0 &&
	       p->match_sz <= MLX5_ST_SZ_BYTES(fte_match_param);
}

struct mlx5dv_flow_matcher *
mlx5_sim_flow_matcher_create(struct ibv_context *ctx,
			     struct mlx5dv_flow_matcher_attr *attr)
{
	struct mlx5_sim_ctx *sctx = mlx5_sim_ctx_get(ctx);
	uint8_t mask[MLX5_ST_SZ_BYTES(fte_match_param)] = { 0 };
	struct mlx5_sim_matcher *m;
	unsigned int i;

	if (sctx == NULL || attr == NULL || !sim_match_len_ok(attr->match_mask) ||
	    attr->type != IBV_FLOW_ATTR_NORMAL || attr->flags != 0 ||
	    (attr->comp_mask & ~(uint64_t)MLX5DV_FLOW_MATCHER_MASK_FT_TYPE)) {
		errno = EINVAL;
		return NULL;
	}
	/* The NIC receive table only (the default). */
	if ((attr->comp_mask & MLX5DV_FLOW_MATCHER_MASK_FT_TYPE) &&
	    attr->ft_type != MLX5DV_FLOW_TABLE_TYPE_NIC_RX) {
		errno = EOPNOTSUPP;
		return NULL;
	}
	memcpy(mask, attr->match_mask->match_buf, attr->match_mask->match_sz);
	/* Only the outer headers, and only fields the model parses. */
	if (attr->match_criteria_enable & ~MLX5_MATCH_OUTER_HEADERS) {
		errno = EOPNOTSUPP;
		return NULL;
	}
	for (i = 0; i < sizeof(mask); i++) {
		uint8_t ok = i < SIM_LYR_BYTES &&
			     (attr->match_criteria_enable &
			      MLX5_MATCH_OUTER_HEADERS) ? sim_supported[i] : 0;

		if (mask[i] & ~ok) {
			SIM_LOG(DEBUG, "flow matcher: mask byte %u (0x%02x)"
				" names fields the device does not match", i,
				mask[i]);
			errno = EOPNOTSUPP;
			return NULL;
		}
	}
	m = calloc(1, sizeof(*m));
	if (m == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	m->magic = MLX5_SIM_MAGIC_MATCHER;
	m->file = sctx->file;
	m->ctx = ctx;
	m->priority = attr->priority;
	m->criteria = attr->match_criteria_enable;
	memcpy(m->mask, mask, sizeof(m->mask));
	m->any = true;
	for (i = 0; i < SIM_LYR_BYTES; i++)
		if (mask[i] != 0)
			m->any = false;
	mlx5_sim_vhca_lock(m->file->vhca);
	TAILQ_INSERT_TAIL(&m->file->matchers, m, next);
	mlx5_sim_vhca_unlock(m->file->vhca);
	return (struct mlx5dv_flow_matcher *)(void *)m;
}

int
mlx5_sim_flow_matcher_destroy(struct mlx5dv_flow_matcher *dv)
{
	struct mlx5_sim_matcher *m = sim_matcher_get(dv);
	struct mlx5_sim_vhca *vhca;

	if (m == NULL)
		return EINVAL;
	vhca = m->file->vhca;
	mlx5_sim_vhca_lock(vhca);
	if (m->users != 0) {
		mlx5_sim_vhca_unlock(vhca);
		return EBUSY;
	}
	TAILQ_REMOVE(&m->file->matchers, m, next);
	mlx5_sim_vhca_unlock(vhca);
	m->magic = MLX5_SIM_MAGIC_DEAD;
	free(m);
	return 0;
}

/* Insert @fl in the vHCA's rules: by priority, after its equals. */
static void
sim_flow_link(struct mlx5_sim_vhca *vhca, struct mlx5_sim_flow *fl)
{
	struct mlx5_sim_flow *it;

	TAILQ_FOREACH(it, &vhca->flows, vnext)
		if (it->matcher->priority > fl->matcher->priority) {
			TAILQ_INSERT_BEFORE(it, fl, vnext);
			return;
		}
	TAILQ_INSERT_TAIL(&vhca->flows, fl, vnext);
}

struct ibv_flow *
mlx5_sim_flow_create(struct mlx5dv_flow_matcher *dv,
		     struct mlx5dv_flow_match_parameters *value,
		     size_t num_actions, struct mlx5dv_flow_action_attr actions[])
{
	struct mlx5_sim_matcher *m = sim_matcher_get(dv);
	uint8_t v[MLX5_ST_SZ_BYTES(fte_match_param)] = { 0 };
	struct mlx5_sim_devx_obj *dest;
	struct mlx5_sim_vhca *vhca;
	struct mlx5_sim_flow *fl;
	struct mlx5_sim_tir *tir;
	unsigned int i;
	int err;

	if (m == NULL || !sim_match_len_ok(value) || num_actions != 1 ||
	    actions == NULL) {
		errno = EINVAL;
		return NULL;
	}
	/* One destination: a DEVX TIR (counters, tags are not modelled). */
	if (actions[0].type != MLX5DV_FLOW_ACTION_DEST_DEVX) {
		errno = EOPNOTSUPP;
		return NULL;
	}
	dest = (struct mlx5_sim_devx_obj *)actions[0].obj;
	if (dest == NULL || dest->magic != MLX5_SIM_MAGIC_OBJ ||
	    dest->kind != MLX5_SIM_OBJ_TIR || dest->file != m->file) {
		errno = EINVAL;
		return NULL;
	}
	memcpy(v, value->match_buf, value->match_sz);
	fl = calloc(1, sizeof(*fl));
	if (fl == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	/* The device compares under the mask: keep the masked value. */
	for (i = 0; i < sizeof(fl->value); i++)
		fl->value[i] = v[i] & m->mask[i];
	fl->magic = MLX5_SIM_MAGIC_FLOW;
	fl->file = m->file;
	fl->matcher = m;
	fl->tirn = dest->index;
	/* As rdma-core: ibv_destroy_flow() goes through its context. */
	fl->ibflow.context = m->ctx;
	vhca = m->file->vhca;
	mlx5_sim_vhca_lock(vhca);
	tir = mlx5_sim_idtab_get(&vhca->tirs, fl->tirn);
	err = tir == NULL ? EINVAL :
	      mlx5_sim_cmd_kernel(vhca, MLX5_CMD_OP_SET_FLOW_TABLE_ENTRY,
				  MLX5_SIM_SYND_OK);
	if (err != 0) {
		mlx5_sim_vhca_unlock(vhca);
		free(fl);
		errno = err;
		return NULL;
	}
	tir->flows++;
	m->users++;
	vhca->live.flows++;
	TAILQ_INSERT_TAIL(&fl->file->flows, fl, next);
	sim_flow_link(vhca, fl);
	mlx5_sim_vhca_unlock(vhca);
	return &fl->ibflow;
}

/* Unlink and free a rule (vHCA lock held). */
static void
sim_flow_free(struct mlx5_sim_vhca *vhca, struct mlx5_sim_flow *fl)
{
	struct mlx5_sim_tir *tir = mlx5_sim_idtab_get(&vhca->tirs, fl->tirn);

	if (tir != NULL)
		tir->flows--;
	fl->matcher->users--;
	vhca->live.flows--;
	TAILQ_REMOVE(&fl->file->flows, fl, next);
	TAILQ_REMOVE(&vhca->flows, fl, vnext);
	fl->magic = MLX5_SIM_MAGIC_DEAD;
	free(fl);
}

int
mlx5_sim_flow_destroy(struct ibv_flow *ibflow)
{
	struct mlx5_sim_flow *fl = sim_flow_get(ibflow);
	struct mlx5_sim_vhca *vhca;
	int err;

	if (fl == NULL)
		return EINVAL;
	vhca = fl->file->vhca;
	mlx5_sim_vhca_lock(vhca);
	err = mlx5_sim_cmd_kernel(vhca, MLX5_CMD_OP_DELETE_FLOW_TABLE_ENTRY,
				  MLX5_SIM_SYND_OK);
	if (err == 0)
		sim_flow_free(vhca, fl);
	mlx5_sim_vhca_unlock(vhca);
	return err;
}

void
mlx5_sim_flow_reclaim(struct mlx5_sim_file *file)
{
	struct mlx5_sim_vhca *vhca = file->vhca;
	struct mlx5_sim_matcher *m;
	struct mlx5_sim_flow *fl;

	while ((fl = TAILQ_FIRST(&file->flows)) != NULL) {
		sim_flow_free(vhca, fl);
		vhca->reclaimed++;
	}
	while ((m = TAILQ_FIRST(&file->matchers)) != NULL) {
		TAILQ_REMOVE(&file->matchers, m, next);
		m->magic = MLX5_SIM_MAGIC_DEAD;
		free(m);
	}
}
