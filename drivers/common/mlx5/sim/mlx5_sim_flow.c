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
 * A rule of ibv_create_flow() may drop what it matches instead
 * (IBV_FLOW_SPEC_ACTION_DROP: the kernel's MLX5_FLOW_CONTEXT_ACTION_DROP,
 * no destination) and give its receive CQEs a flow tag
 * (IBV_FLOW_SPEC_ACTION_TAG, below 2^24: the FTE's flow_tag; a rule
 * without one has the kernel's default tag, 0).
 * A TIR a rule sends to cannot be destroyed (the kernel holds a reference
 * on the DEVX object: EBUSY). ibv_create_flow() makes a rule of the same
 * table from verbs specs, to a raw packet QP's TIR, with a matcher of
 * its own (the kernel's); the QP cannot be destroyed while it has rules.
 *
 * Above that root table, libmlx5's software steering (mlx5dv_dr_*, the
 * front's sim_rdma_dr.c) has tables of levels 1 and up, one firmware
 * table each (CREATE_FLOW_TABLE), of one file: matchers and rules as the
 * root's, and a rule may forward to a table of a higher level (the PRM:
 * a flow table forwards only to tables of higher levels, so a walk
 * always ends), send to the kernel (the default miss: no TIR of the
 * program gets the frame; above the root libmlx5's default miss of NIC
 * receive is its drop) or drop. A frame no rule of a table above the
 * root matches is dropped (software steering's NIC receive miss). Above
 * the root, rules are tried matcher by matcher, lowest priority first
 * and, of equal priority, the newest matcher first (libmlx5 inserts a
 * matcher before those of its priority), each matcher's rules oldest
 * first; in the root table (the kernel's), by priority, oldest first.
 * Tables of NIC transmit are made, and take no matcher: the model steers
 * no egress (EOPNOTSUPP).
 *
 * A received frame goes to the first rule, lowest priority value first
 * then oldest first, whose masked value equals the frame's masked fields;
 * a tag of a later table's rule replaces an earlier one's.
 *
 * Flow counters (ALLOC_FLOW_COUNTER, QUERY_FLOW_COUNTER,
 * DEALLOC_FLOW_COUNTER): a rule with a count action adds each frame it
 * takes, and its length, to the counter; one counter a command (the
 * device announces no bulk allocation and no dump to memory), of the file
 * that allocated it, which only may query, free or count on it; it
 * cannot be freed while a rule counts on it (the model's choice, as for
 * queue counters).
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

/* The first rule of @head frame @f matches (fields parsed into @v once). */
static const struct mlx5_sim_flow *
sim_flow_first(const struct mlx5_sim_flow_list *head, const uint8_t *f,
	       uint32_t len, uint8_t *v, bool *parsed)
{
	const struct mlx5_sim_flow *fl;

	TAILQ_FOREACH(fl, head, vnext) {
		/* An empty mask matches without looking at the frame. */
		if (!fl->matcher->any) {
			if (!*parsed) {
				sim_frame_fields(f, len, v);
				*parsed = true;
			}
			if (!sim_masked_equal(v, fl->value, fl->matcher->mask))
				continue;
		}
		return fl;
	}
	return NULL;
}

enum mlx5_sim_fate
mlx5_sim_flow_steer(struct mlx5_sim_vhca *vhca, const uint8_t *f,
		    uint32_t len, uint32_t *tirn, uint32_t *flow_tag)
{
	uint8_t v[SIM_LYR_BYTES] __rte_aligned(8);
	const struct mlx5_sim_flow_list *head = &vhca->flows;
	const struct mlx5_sim_flow *fl;
	bool parsed = false;

	*flow_tag = 0;
	/* Levels only rise along the way: the walk ends. */
	while ((fl = sim_flow_first(head, f, len, v, &parsed)) != NULL) {
		if (fl->fcnt != NULL) {
			fl->fcnt->packets++;
			fl->fcnt->octets += len;
		}
		if (fl->flow_tag != 0)
			*flow_tag = fl->flow_tag;
		if (fl->fate != MLX5_SIM_FATE_TABLE) {
			*tirn = fl->tirn;
			/* Software steering's default miss is its drop. */
			return fl->fate == MLX5_SIM_FATE_MISS &&
					       head != &vhca->flows ?
				       MLX5_SIM_FATE_DROP :
				       fl->fate;
		}
		head = &fl->dest_ft->flows;
	}
	/* The root's miss goes to the kernel; a higher table's is a drop. */
	return head == &vhca->flows ? MLX5_SIM_FATE_MISS : MLX5_SIM_FATE_DROP;
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

static struct mlx5_sim_ftable *
sim_ftable_get(struct mlx5_sim_ftable *ft)
{
	return ft != NULL && ft->magic == MLX5_SIM_MAGIC_FTABLE ? ft : NULL;
}

struct mlx5_sim_ftable *
mlx5_sim_ftable_create(struct ibv_context *ctx, int type, uint32_t level)
{
	struct mlx5_sim_ctx *sctx = mlx5_sim_ctx_get(ctx);
	struct mlx5_sim_ftable *ft;
	struct mlx5_sim_vhca *vhca;
	int err;

	if (sctx == NULL || level == 0 ||
	    (type != MLX5DV_FLOW_TABLE_TYPE_NIC_RX &&
	     type != MLX5DV_FLOW_TABLE_TYPE_NIC_TX)) {
		errno = EINVAL;
		return NULL;
	}
	ft = calloc(1, sizeof(*ft));
	if (ft == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	ft->magic = MLX5_SIM_MAGIC_FTABLE;
	ft->file = sctx->file;
	ft->type = type;
	ft->level = level;
	TAILQ_INIT(&ft->flows);
	vhca = ft->file->vhca;
	mlx5_sim_vhca_lock(vhca);
	err = mlx5_sim_cmd_kernel(vhca, MLX5_CMD_OP_CREATE_FLOW_TABLE,
				  MLX5_SIM_SYND_OK);
	if (err == 0) {
		TAILQ_INSERT_TAIL(&ft->file->ftables, ft, next);
		vhca->live.flow_tables++;
	}
	mlx5_sim_vhca_unlock(vhca);
	if (err != 0) {
		free(ft);
		errno = err;
		return NULL;
	}
	return ft;
}

/* Unlink and free table @ft (vHCA lock held). */
static void
sim_ftable_free(struct mlx5_sim_vhca *vhca, struct mlx5_sim_ftable *ft)
{
	TAILQ_REMOVE(&ft->file->ftables, ft, next);
	vhca->live.flow_tables--;
	ft->magic = MLX5_SIM_MAGIC_DEAD;
	free(ft);
}

int
mlx5_sim_ftable_destroy(struct mlx5_sim_ftable *ft)
{
	struct mlx5_sim_vhca *vhca;
	int err;

	ft = sim_ftable_get(ft);
	if (ft == NULL)
		return EINVAL;
	vhca = ft->file->vhca;
	mlx5_sim_vhca_lock(vhca);
	err = ft->matchers != 0 || ft->users != 0 ?
		      EBUSY :
		      mlx5_sim_cmd_kernel(vhca, MLX5_CMD_OP_DESTROY_FLOW_TABLE,
					  MLX5_SIM_SYND_OK);
	if (err == 0)
		sim_ftable_free(vhca, ft);
	mlx5_sim_vhca_unlock(vhca);
	return err;
}

struct mlx5dv_flow_matcher *
mlx5_sim_flow_matcher_create(struct ibv_context *ctx,
			     struct mlx5dv_flow_matcher_attr *attr)
{
	return mlx5_sim_ftable_matcher_create(ctx, attr, NULL);
}

struct mlx5dv_flow_matcher *
mlx5_sim_ftable_matcher_create(struct ibv_context *ctx,
			       struct mlx5dv_flow_matcher_attr *attr,
			       struct mlx5_sim_ftable *ft)
{
	struct mlx5_sim_ctx *sctx = mlx5_sim_ctx_get(ctx);
	uint8_t mask[MLX5_ST_SZ_BYTES(fte_match_param)] = { 0 };
	struct mlx5_sim_matcher *m;
	unsigned int i;

	if (sctx == NULL || attr == NULL || !sim_match_len_ok(attr->match_mask) ||
	    attr->type != IBV_FLOW_ATTR_NORMAL || attr->flags != 0 ||
	    (attr->comp_mask & ~(uint64_t)MLX5DV_FLOW_MATCHER_MASK_FT_TYPE) ||
	    (ft != NULL &&
	     (sim_ftable_get(ft) == NULL || ft->file != sctx->file))) {
		errno = EINVAL;
		return NULL;
	}
	/* NIC receive tables only (the root's default type). */
	if ((ft != NULL && ft->type != MLX5DV_FLOW_TABLE_TYPE_NIC_RX) ||
	    ((attr->comp_mask & MLX5DV_FLOW_MATCHER_MASK_FT_TYPE) &&
	     attr->ft_type != MLX5DV_FLOW_TABLE_TYPE_NIC_RX)) {
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
	m->ft = ft;
	m->priority = attr->priority;
	m->criteria = attr->match_criteria_enable;
	memcpy(m->mask, mask, sizeof(m->mask));
	m->any = true;
	for (i = 0; i < SIM_LYR_BYTES; i++)
		if (mask[i] != 0)
			m->any = false;
	mlx5_sim_vhca_lock(m->file->vhca);
	m->seq = ++m->file->vhca->matcher_seq;
	if (ft != NULL)
		ft->matchers++;
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
	if (m->ft != NULL)
		m->ft->matchers--;
	TAILQ_REMOVE(&m->file->matchers, m, next);
	mlx5_sim_vhca_unlock(vhca);
	m->magic = MLX5_SIM_MAGIC_DEAD;
	free(m);
	return 0;
}

/* The rules of @fl's table. */
static struct mlx5_sim_flow_list *
sim_flow_table(struct mlx5_sim_vhca *vhca, const struct mlx5_sim_flow *fl)
{
	return fl->matcher->ft != NULL ? &fl->matcher->ft->flows : &vhca->flows;
}

/*
 * Insert @fl in its table's rules: by priority, after its equals; above
 * the root, of equal priority before the rules of older matchers.
 */
static void
sim_flow_link(struct mlx5_sim_vhca *vhca, struct mlx5_sim_flow *fl)
{
	struct mlx5_sim_flow_list *head = sim_flow_table(vhca, fl);
	const struct mlx5_sim_matcher *m = fl->matcher;
	struct mlx5_sim_flow *it;

	TAILQ_FOREACH(it, head, vnext)
		if (it->matcher->priority > m->priority ||
		    (m->ft != NULL && it->matcher->priority == m->priority &&
		     it->matcher->seq < m->seq)) {
			TAILQ_INSERT_BEFORE(it, fl, vnext);
			return;
		}
	TAILQ_INSERT_TAIL(head, fl, vnext);
}

/* Flow counter @id of @file, or NULL. */
static struct mlx5_sim_fcnt *
sim_fcnt_of(struct mlx5_sim_file *file, uint32_t id)
{
	struct mlx5_sim_fcnt *c = mlx5_sim_idtab_get(&file->vhca->fcnts, id);

	return c != NULL && c->file == file ? c : NULL;
}

/*
 * May matcher @m's rule have actions @act (vHCA lock held)? 0 or EINVAL:
 * a counter or TIR not of @m's file, a table of another file, of
 * another type or not of a higher level than @m's table (the root's is
 * 0).
 */
static int
sim_flow_act_check(struct mlx5_sim_vhca *vhca, const struct mlx5_sim_matcher *m,
		   const struct mlx5_sim_flow_act *act)
{
	const struct mlx5_sim_ftable *ft = act->ft;

	if (act->counter_id != 0 && sim_fcnt_of(m->file, act->counter_id) == NULL)
		return EINVAL;

	switch (act->fate) {
	case MLX5_SIM_FATE_TIR: {
		const struct mlx5_sim_tir *tir =
			mlx5_sim_idtab_get(&vhca->tirs, act->tirn);

		/* A TIR of the rule's own file (mlx5_ib_devx_is_flow_dest). */
		return tir != NULL && tir->file == m->file ? 0 : EINVAL;
	}
	case MLX5_SIM_FATE_TABLE:
		return ft != NULL && ft->magic == MLX5_SIM_MAGIC_FTABLE &&
				       ft->file == m->file &&
				       ft->type == MLX5DV_FLOW_TABLE_TYPE_NIC_RX &&
				       ft->level > (m->ft != NULL ? m->ft->level : 0) ?
			       0 :
			       EINVAL;
	case MLX5_SIM_FATE_DROP:
	case MLX5_SIM_FATE_MISS:
		return 0;
	}
	return EINVAL;
}

/* Has @fl's matcher a rule of @fl's value already? (vHCA lock held) */
static bool
sim_flow_dup(struct mlx5_sim_vhca *vhca, const struct mlx5_sim_flow *fl)
{
	const struct mlx5_sim_flow *it;

	TAILQ_FOREACH(it, sim_flow_table(vhca, fl), vnext)
		if (it->matcher == fl->matcher &&
		    memcmp(it->value, fl->value, sizeof(fl->value)) == 0)
			return true;
	return false;
}

/*
 * A rule of matcher @m: the frames whose fields under its mask equal @v
 * get @act (@qp: the raw packet QP of
 * ibv_create_flow(), whose matcher is the rule's own). The kernel's
 * SET_FLOW_TABLE_ENTRY. NULL with errno on failure, @m then freed if it
 * was the rule's.
 */
static struct ibv_flow *
sim_flow_insert(struct mlx5_sim_matcher *m, const uint8_t *v,
		const struct mlx5_sim_flow_act *act, struct mlx5_sim_vobj *qp)
{
	struct mlx5_sim_vhca *vhca = m->file->vhca;
	struct mlx5_sim_flow *fl = calloc(1, sizeof(*fl));
	struct mlx5_sim_tir *tir;
	unsigned int i;
	int err;

	if (fl == NULL) {
		err = ENOMEM;
		goto fail;
	}
	/* The device compares under the mask: keep the masked value. */
	for (i = 0; i < sizeof(fl->value); i++)
		fl->value[i] = v[i] & m->mask[i];
	fl->magic = MLX5_SIM_MAGIC_FLOW;
	fl->file = m->file;
	fl->matcher = m;
	fl->fate = act->fate;
	fl->flow_tag = act->flow_tag;
	fl->tirn = act->fate == MLX5_SIM_FATE_TIR ? act->tirn : 0;
	fl->dest_ft = act->fate == MLX5_SIM_FATE_TABLE ? act->ft : NULL;
	fl->qp = qp;
	/* As rdma-core: ibv_destroy_flow() goes through its context. */
	fl->ibflow.context = m->ctx;
	mlx5_sim_vhca_lock(vhca);
	err = sim_flow_act_check(vhca, m, act);
	if (err == 0 && act->unique && sim_flow_dup(vhca, fl))
		err = EEXIST;
	if (err == 0)
		err = mlx5_sim_cmd_kernel(vhca, MLX5_CMD_OP_SET_FLOW_TABLE_ENTRY,
					  MLX5_SIM_SYND_OK);
	if (err != 0) {
		mlx5_sim_vhca_unlock(vhca);
		goto fail;
	}
	tir = mlx5_sim_idtab_get(&vhca->tirs, fl->tirn);
	if (tir != NULL)
		tir->flows++;
	fl->fcnt = act->counter_id != 0 ? sim_fcnt_of(m->file, act->counter_id) :
					  NULL;
	if (fl->fcnt != NULL)
		fl->fcnt->users++;
	/* A table forwarded to cannot go (rdma-core's reference). */
	if (fl->dest_ft != NULL)
		fl->dest_ft->users++;
	m->users++;
	/* The kernel holds the QP of a rule: it cannot go (EBUSY). */
	if (qp != NULL)
		qp->users++;
	vhca->live.flows++;
	TAILQ_INSERT_TAIL(&fl->file->flows, fl, next);
	sim_flow_link(vhca, fl);
	mlx5_sim_vhca_unlock(vhca);
	return &fl->ibflow;
fail:
	free(fl);
	if (qp != NULL)
		free(m);
	errno = err;
	return NULL;
}

struct ibv_flow *
mlx5_sim_flow_create(struct mlx5dv_flow_matcher *dv,
		     struct mlx5dv_flow_match_parameters *value,
		     size_t num_actions, struct mlx5dv_flow_action_attr actions[])
{
	struct mlx5_sim_matcher *m = sim_matcher_get(dv);
	uint8_t v[MLX5_ST_SZ_BYTES(fte_match_param)] = { 0 };
	struct mlx5_sim_devx_obj *dest;

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
	return sim_flow_insert(m, v,
			       &(struct mlx5_sim_flow_act){
				       .fate = MLX5_SIM_FATE_TIR,
				       .tirn = dest->index,
			       },
			       NULL);
}

struct ibv_flow *
mlx5_sim_flow_rule(struct mlx5dv_flow_matcher *dv,
		   const struct mlx5dv_flow_match_parameters *value,
		   const struct mlx5_sim_flow_act *act)
{
	struct mlx5_sim_matcher *m = sim_matcher_get(dv);
	uint8_t v[MLX5_ST_SZ_BYTES(fte_match_param)] = { 0 };

	if (m == NULL || !sim_match_len_ok(value) || act == NULL ||
	    act->flow_tag >= RTE_BIT32(24)) {
		errno = EINVAL;
		return NULL;
	}
	memcpy(v, value->match_buf, value->match_sz);
	return sim_flow_insert(m, v, act, NULL);
}

/* @n bytes of a match: the mask @m at @mask, the masked value @v at @val. */
static void
sim_flow_bytes(uint8_t *mask, uint8_t *val, const void *m, const void *v,
	       size_t n)
{
	const uint8_t *mb = m, *vb = v;

	for (size_t k = 0; k < n; k++) {
		mask[k] = mb[k];
		val[k] = mb[k] & vb[k];
	}
}

/*
 * ibv_create_flow()'s specs as the kernel turns them into a match (mlx5_ib
 * parse_flow_attr): each spec sets the fields it masks in @mask and their
 * values in @val (fte_match_set_lyr_2_4); an IP spec also matches its
 * ethertype, a TCP or UDP spec its protocol, and a field two specs match
 * must agree (else EINVAL, as mlx5_ib sets a protocol). A field the model
 * does not parse (IPv4 TOS, TTL and flags; IPv6 flow label, class and
 * hop limit) or a spec of another kind is refused EOPNOTSUPP, a spec
 * shorter than its kind's EINVAL. The action specs set @act (the
 * kernel's parse_flow_attr): a drop, a flow tag (below 2^24, else
 * EINVAL). The specs are walked by their sizes, as libibverbs walks
 * them.
 */
static int
sim_flow_specs(const struct ibv_flow_attr *attr, uint8_t *mask, uint8_t *val,
	       struct mlx5_sim_flow_act *act)
{
#define SIM_AT(b, f) ((uint8_t *)MLX5_ADDR_OF(fte_match_set_lyr_2_4, b, f))
#define SIM_SET(f, m, v) \
	do { \
		MLX5_SET(fte_match_set_lyr_2_4, mask, f, (m)); \
		MLX5_SET(fte_match_set_lyr_2_4, val, f, (m) & (v)); \
	} while (0)
	/* A field another spec may match too: set once, or the same. */
#define SIM_SET_ONCE(f, m, v) \
	do { \
		uint32_t m_ = (m), v_ = (v) & m_; \
		if (m_ == 0) \
			break; \
		if (MLX5_GET(fte_match_set_lyr_2_4, mask, f) != 0 && \
		    (MLX5_GET(fte_match_set_lyr_2_4, mask, f) != m_ || \
		     MLX5_GET(fte_match_set_lyr_2_4, val, f) != v_)) \
			return EINVAL; \
		SIM_SET(f, m_, v_); \
	} while (0)
	/* The specs follow, each its size long (libibverbs' walk). */
	const uint8_t *p = (const uint8_t *)(attr + 1);
	/* IPv4 addresses in the last 4 bytes of the 16-byte fields. */
	uint8_t *sm = SIM_AT(mask, src_ipv4_src_ipv6);
	uint8_t *sv = SIM_AT(val, src_ipv4_src_ipv6);
	uint8_t *dm = SIM_AT(mask, dst_ipv4_dst_ipv6);
	uint8_t *dv = SIM_AT(val, dst_ipv4_dst_ipv6);

	for (unsigned int i = 0; i < attr->num_of_specs; i++) {
		const struct ibv_flow_spec_eth *eth = (const void *)p;
		const struct ibv_flow_spec_ipv4 *ip4 = (const void *)p;
		const struct ibv_flow_spec_ipv4_ext *v4 = (const void *)p;
		const struct ibv_flow_spec_ipv6 *v6 = (const void *)p;
		const struct ibv_flow_spec_tcp_udp *l4 = (const void *)p;
		const struct ibv_flow_spec_action_tag *tag = (const void *)p;
		uint32_t type = eth->type;
		size_t need;

		if (type == IBV_FLOW_SPEC_ACTION_DROP ||
		    type == IBV_FLOW_SPEC_ACTION_TAG) {
			need = type == IBV_FLOW_SPEC_ACTION_DROP ?
				       sizeof(struct ibv_flow_spec_action_drop) :
				       sizeof(*tag);
			if (eth->size < need ||
			    (type == IBV_FLOW_SPEC_ACTION_TAG &&
			     tag->tag_id >= RTE_BIT32(24)))
				return EINVAL;
			if (type == IBV_FLOW_SPEC_ACTION_DROP)
				act->fate = MLX5_SIM_FATE_DROP;
			else
				act->flow_tag = tag->tag_id;
			p += eth->size;
			continue;
		}
		need = type == IBV_FLOW_SPEC_ETH ?
			       sizeof(*eth) :
		       type == IBV_FLOW_SPEC_IPV4 ?
			       sizeof(*ip4) :
		       type == IBV_FLOW_SPEC_IPV4_EXT ? sizeof(*v4) :
		       type == IBV_FLOW_SPEC_IPV6     ? sizeof(*v6) :
		       type == IBV_FLOW_SPEC_TCP || type == IBV_FLOW_SPEC_UDP ?
						    sizeof(*l4) :
						    0;
		if (need == 0)
			return EOPNOTSUPP;
		if (eth->size < need)
			return EINVAL;
		if (type == IBV_FLOW_SPEC_ETH) {
			uint16_t tm = rte_be_to_cpu_16(eth->mask.vlan_tag);
			uint16_t tv = rte_be_to_cpu_16(eth->val.vlan_tag);

			sim_flow_bytes(SIM_AT(mask, dmac_47_16),
				       SIM_AT(val, dmac_47_16),
				       eth->mask.dst_mac, eth->val.dst_mac, 6);
			sim_flow_bytes(SIM_AT(mask, smac_47_16),
				       SIM_AT(val, smac_47_16),
				       eth->mask.src_mac, eth->val.src_mac, 6);
			SIM_SET_ONCE(ethertype,
				     rte_be_to_cpu_16(eth->mask.ether_type),
				     rte_be_to_cpu_16(eth->val.ether_type));
			if (tm != 0) {
				/* A tag matched: the frame has one. */
				SIM_SET(cvlan_tag, 1, 1);
				SIM_SET(first_prio, tm >> 13, tv >> 13);
				SIM_SET(first_cfi, (tm >> 12) & 1,
					(tv >> 12) & 1);
				SIM_SET(first_vid, tm & 0xfff, tv & 0xfff);
			}
		} else if (type == IBV_FLOW_SPEC_IPV4) {
			/* The plain spec: addresses only. */
			SIM_SET_ONCE(ethertype, 0xffff, RTE_ETHER_TYPE_IPV4);
			sim_flow_bytes(sm + 12, sv + 12, &ip4->mask.src_ip,
				       &ip4->val.src_ip, 4);
			sim_flow_bytes(dm + 12, dv + 12, &ip4->mask.dst_ip,
				       &ip4->val.dst_ip, 4);
		} else if (type == IBV_FLOW_SPEC_IPV4_EXT) {
			if (v4->mask.tos || v4->mask.ttl || v4->mask.flags)
				return EOPNOTSUPP;
			SIM_SET_ONCE(ethertype, 0xffff, RTE_ETHER_TYPE_IPV4);
			sim_flow_bytes(sm + 12, sv + 12, &v4->mask.src_ip,
				       &v4->val.src_ip, 4);
			sim_flow_bytes(dm + 12, dv + 12, &v4->mask.dst_ip,
				       &v4->val.dst_ip, 4);
			SIM_SET_ONCE(ip_protocol, v4->mask.proto,
				     v4->val.proto);
		} else if (type == IBV_FLOW_SPEC_IPV6) {
			if (v6->mask.flow_label || v6->mask.traffic_class ||
			    v6->mask.hop_limit)
				return EOPNOTSUPP;
			SIM_SET_ONCE(ethertype, 0xffff, RTE_ETHER_TYPE_IPV6);
			sim_flow_bytes(sm, sv, v6->mask.src_ip, v6->val.src_ip,
				       16);
			sim_flow_bytes(dm, dv, v6->mask.dst_ip, v6->val.dst_ip,
				       16);
			SIM_SET_ONCE(ip_protocol, v6->mask.next_hdr,
				     v6->val.next_hdr);
		} else {
			uint16_t pm = rte_be_to_cpu_16(l4->mask.src_port);
			uint16_t pv = rte_be_to_cpu_16(l4->val.src_port);
			uint16_t qm = rte_be_to_cpu_16(l4->mask.dst_port);
			uint16_t qv = rte_be_to_cpu_16(l4->val.dst_port);

			if (type == IBV_FLOW_SPEC_TCP) {
				SIM_SET_ONCE(ip_protocol, 0xff, IPPROTO_TCP);
				SIM_SET(tcp_sport, pm, pv);
				SIM_SET(tcp_dport, qm, qv);
			} else {
				SIM_SET_ONCE(ip_protocol, 0xff, IPPROTO_UDP);
				SIM_SET(udp_sport, pm, pv);
				SIM_SET(udp_dport, qm, qv);
			}
		}
		p += eth->size;
	}
#undef SIM_SET_ONCE
#undef SIM_SET
#undef SIM_AT
	return 0;
}

struct ibv_flow *
mlx5_sim_flow_create_qp(struct ibv_qp *qp, struct ibv_flow_attr *attr)
{
	struct mlx5_sim_vobj *v = mlx5_sim_vobj_of(qp, MLX5_SIM_OBJ_QP);
	uint8_t val[MLX5_ST_SZ_BYTES(fte_match_param)] = { 0 };
	struct mlx5_sim_flow_act act = { .fate = MLX5_SIM_FATE_TIR };
	struct mlx5_sim_matcher *m;
	int err;

	/*
	 * A raw packet QP with a receive queue (its TIR), its port, a
	 * normal rule (the kernel's checks; no sniffer, default or egress
	 * rules, no "don't trap").
	 */
	if (v == NULL || attr == NULL || !v->raw || v->raw_tirn == 0 ||
	    attr->comp_mask != 0 || attr->port != 1) {
		errno = EINVAL;
		return NULL;
	}
	if (attr->type != IBV_FLOW_ATTR_NORMAL || attr->flags != 0) {
		errno = EOPNOTSUPP;
		return NULL;
	}
	m = calloc(1, sizeof(*m));
	if (m == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	err = sim_flow_specs(attr, m->mask, val, &act);
	if (err != 0) {
		free(m);
		errno = err;
		return NULL;
	}
	m->magic = MLX5_SIM_MAGIC_MATCHER;
	m->file = v->file;
	m->ctx = qp->context;
	m->priority = attr->priority;
	m->criteria = MLX5_MATCH_OUTER_HEADERS;
	m->any = true;
	for (unsigned int i = 0; i < SIM_LYR_BYTES; i++)
		if (m->mask[i] != 0)
			m->any = false;
	if (act.fate == MLX5_SIM_FATE_TIR)
		act.tirn = v->raw_tirn;
	return sim_flow_insert(m, val, &act, v);
}

/* Unlink and free a rule (vHCA lock held). */
static void
sim_flow_free(struct mlx5_sim_vhca *vhca, struct mlx5_sim_flow *fl)
{
	struct mlx5_sim_tir *tir = mlx5_sim_idtab_get(&vhca->tirs, fl->tirn);

	if (tir != NULL)
		tir->flows--;
	if (fl->dest_ft != NULL)
		fl->dest_ft->users--;
	if (fl->fcnt != NULL)
		fl->fcnt->users--;
	TAILQ_REMOVE(sim_flow_table(vhca, fl), fl, vnext);
	fl->matcher->users--;
	if (fl->qp != NULL) {
		fl->qp->users--;
		fl->matcher->magic = MLX5_SIM_MAGIC_DEAD;
		free(fl->matcher);
	}
	vhca->live.flows--;
	TAILQ_REMOVE(&fl->file->flows, fl, next);
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
	struct mlx5_sim_ftable *ft;
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
	while ((ft = TAILQ_FIRST(&file->ftables)) != NULL) {
		sim_ftable_free(vhca, ft);
		vhca->reclaimed++;
	}
}

static uint32_t
sim_fcnt_alloc(struct mlx5_sim_file *file, const void *in, void *out,
	       struct mlx5_sim_devx_obj *obj)
{
	struct mlx5_sim_vhca *vhca = file->vhca;
	struct mlx5_sim_fcnt *c;
	uint32_t id;

	if (MLX5_GET(alloc_flow_counter_in, in, flow_counter_bulk) != 0 ||
	    MLX5_GET(alloc_flow_counter_in, in, flow_counter_bulk_log_size) != 0)
		return MLX5_SIM_SYND_FCNT_BULK;
	c = calloc(1, sizeof(*c));
	if (c == NULL || mlx5_sim_idtab_alloc(&vhca->fcnts, c, &id) != 0) {
		free(c);
		return MLX5_SIM_SYND_FCNT_TABLE_FULL;
	}
	c->file = file;
	vhca->live.flow_counters++;
	MLX5_SET(alloc_flow_counter_out, out, flow_counter_id, id);
	obj->kind = MLX5_SIM_OBJ_FCNT;
	obj->index = id;
	return MLX5_SIM_SYND_OK;
}

static void
sim_fcnt_free(struct mlx5_sim_vhca *vhca, uint32_t id)
{
	free(mlx5_sim_idtab_get(&vhca->fcnts, id));
	mlx5_sim_idtab_free(&vhca->fcnts, id);
	vhca->live.flow_counters--;
}

static uint32_t
sim_fcnt_query(struct mlx5_sim_file *file, const void *in, void *out)
{
	struct mlx5_sim_fcnt *c = sim_fcnt_of(file,
		MLX5_GET(query_flow_counter_in, in, flow_counter_id));

	if (c == NULL)
		return MLX5_SIM_SYND_FCNT_UNKNOWN;
	if (MLX5_GET(query_flow_counter_in, in, num_of_counters) > 1 ||
	    MLX5_GET(query_flow_counter_in, in, dump_to_memory))
		return MLX5_SIM_SYND_FCNT_BULK;
	MLX5_SET64(query_flow_counter_out, out, flow_statistics.packets,
		   c->packets);
	MLX5_SET64(query_flow_counter_out, out, flow_statistics.octets,
		   c->octets);
	/* Read and cleared in one command: no frame falls in between. */
	if (MLX5_GET(query_flow_counter_in, in, clear))
		c->packets = c->octets = 0;
	return MLX5_SIM_SYND_OK;
}

uint32_t
mlx5_sim_cmd_fcnt(struct mlx5_sim_file *file, uint16_t opcode,
		  const void *in, void *out, struct mlx5_sim_devx_obj *obj)
{
	struct mlx5_sim_fcnt *c;
	uint32_t id;

	switch (opcode) {
	case MLX5_CMD_OP_ALLOC_FLOW_COUNTER:
		return sim_fcnt_alloc(file, in, out, obj);
	case MLX5_CMD_OP_DEALLOC_FLOW_COUNTER:
		id = MLX5_GET(dealloc_flow_counter_in, in, flow_counter_id);
		c = sim_fcnt_of(file, id);
		if (c == NULL)
			return MLX5_SIM_SYND_FCNT_UNKNOWN;
		if (c->users != 0)
			return MLX5_SIM_SYND_FCNT_BUSY;
		sim_fcnt_free(file->vhca, id);
		return MLX5_SIM_SYND_OK;
	case MLX5_CMD_OP_QUERY_FLOW_COUNTER:
		return sim_fcnt_query(file, in, out);
	default:
		return MLX5_SIM_SYND_BAD_OPCODE;
	}
}

void
mlx5_sim_fcnt_reclaim(struct mlx5_sim_vhca *vhca,
		      const struct mlx5_sim_devx_obj *obj)
{
	/* The file's rules went first: nothing counts on it any more. */
	if (sim_fcnt_of(obj->file, obj->index) == NULL)
		return;
	sim_fcnt_free(vhca, obj->index);
	vhca->reclaimed++;
}
