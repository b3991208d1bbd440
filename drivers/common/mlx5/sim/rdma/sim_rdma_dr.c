/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * libmlx5's software steering (mlx5dv_dr_*) at its API, onto the model's
 * steering (mlx5_sim_flow.c), as DPDK's mlx5 PMDs use it with their
 * default flow engine (dv_flow_en=1). No ICM is emulated: what libmlx5
 * writes as steering entries the model keeps as tables, matchers and
 * rules, and its rules are walked as the hardware walks the entries.
 *
 * - A domain is NIC receive or NIC transmit (FDB: EOPNOTSUPP, the model
 *   has no e-switch). It holds its tables (EBUSY while it has any).
 * - A table of level 0 is the root, the kernel's table: its matchers and
 *   rules are mlx5dv_create_flow_matcher()'s and mlx5dv_create_flow()'s,
 *   as libmlx5 makes them there. A table of a higher level is a firmware
 *   table of the model's (mlx5_sim_ftable_create()). A table goes only
 *   when no matcher and no action names it (EBUSY), as in libmlx5.
 * - A matcher holds its table, a rule its matcher and its actions (each
 *   EBUSY while held). These counts are the front's own; a QP, TIR or
 *   counter a rule names is held by the model (its destroy refused while
 *   the rule is), the model's choice (libmlx5 and the kernel do not
 *   hold them). The entry points that change counts run one at a time.
 * - A rule's actions: one fate (a destination QP or DEVX TIR, a table
 *   of the same domain, drop, default miss), at most one tag and at most
 *   one flow counter (a DEVX ALLOC_FLOW_COUNTER object, offset 0: the
 *   device allocates no bulks); another count or kind is EINVAL, and
 *   the actions the model does not carry (header rewrites, VLAN push and
 *   pop, reformats and the like) are EOPNOTSUPP (their entry points are
 *   the generated ones). A rule with no fate is EINVAL (libmlx5 passes
 *   the frame on to the next matcher: not carried). A table of a rule
 *   must be of a higher level than the rule's own (the model's check:
 *   the PRM).
 * - The device's NIC flow table page announces no software steering
 *   (rx_sw_owner 0), which libmlx5 would refuse tables above the root
 *   for: the front carries them regardless.
 * - A NIC transmit table takes no matcher: the model steers no egress
 *   (EOPNOTSUPP).
 * - A domain that disallows duplicate rules refuses a rule of a table
 *   above the root whose matcher has one of the same value (EEXIST).
 */

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>

#include "sim_rdma.h"

#define SIM_DR_MAGIC_DOMAIN 0x5d7a0c70u
#define SIM_DR_MAGIC_ACTION 0x5d7a0c71u
#define SIM_DR_MAGIC_TABLE 0x5d7a0c72u
#define SIM_DR_MAGIC_MATCHER 0x5d7a0c73u
#define SIM_DR_MAGIC_RULE 0x5d7a0c74u

struct sim_dr_domain {
	uint32_t magic;
	struct ibv_context *ctx;
	enum mlx5dv_dr_domain_type type;
	bool no_dup;   /* Duplicate rules refused (EEXIST). */
	uint32_t refs; /* Its tables. */
};

struct sim_dr_table {
	uint32_t magic;
	struct sim_dr_domain *dmn;
	struct mlx5_sim_ftable *ft; /* NULL: the root (level 0). */
	uint32_t refs;		    /* Its matchers and actions. */
};

struct sim_dr_matcher {
	uint32_t magic;
	struct sim_dr_table *tbl;
	struct mlx5dv_flow_matcher *m;
	uint32_t refs; /* Its rules. */
};

enum sim_dr_kind {
	SIM_DR_QP,
	SIM_DR_TIR,
	SIM_DR_TABLE,
	SIM_DR_DROP,
	SIM_DR_MISS,
	SIM_DR_TAG,
	SIM_DR_COUNTER,
};

struct sim_dr_action {
	uint32_t magic;
	enum sim_dr_kind kind;
	/*
	 * A TIR or a counter: its file and number, taken when the action is
	 * made (as libmlx5 takes the number: a rule made after the object
	 * went names a number the device refuses, or another's).
	 */
	struct mlx5_sim_file *file;
	uint32_t num;
	union {
		struct ibv_qp *qp; /* Its TIR read at each rule, as libmlx5. */
		struct sim_dr_table *tbl;
		uint32_t tag;
	};
	uint32_t refs; /* Rules using it. */
};

#define SIM_DR_RULE_MAX_ACTIONS 3 /* A fate, a tag and a counter. */

struct sim_dr_rule {
	uint32_t magic;
	struct sim_dr_matcher *matcher;
	struct ibv_flow *flow;
	struct sim_dr_action *acts[SIM_DR_RULE_MAX_ACTIONS];
	size_t n_acts;
};

/* The object behind @p if its magic is @magic, else NULL. */
static void *
sim_dr_get(void *p, uint32_t magic)
{
	return p != NULL && *(uint32_t *)p == magic ? p : NULL;
}

/* Free @p of magic field @magic (its magic cleared first). */
static void
sim_dr_free(void *p, uint32_t *magic)
{
	*magic = 0;
	free(p);
}

/* A zeroed object of @size with @magic, or NULL with errno ENOMEM. */
static void *
sim_dr_new(size_t size, uint32_t magic)
{
	uint32_t *p = calloc(1, size);

	if (p == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	*p = magic;
	return p;
}

struct mlx5dv_dr_domain *
mlx5dv_dr_domain_create(struct ibv_context *ctx,
			enum mlx5dv_dr_domain_type type)
{
	struct sim_dr_domain *d;

	if (mlx5_sim_ctx_get(ctx) == NULL ||
	    (type != MLX5DV_DR_DOMAIN_TYPE_NIC_RX &&
	     type != MLX5DV_DR_DOMAIN_TYPE_NIC_TX &&
	     type != MLX5DV_DR_DOMAIN_TYPE_FDB)) {
		errno = EINVAL;
		return NULL;
	}
	if (type == MLX5DV_DR_DOMAIN_TYPE_FDB) {
		errno = EOPNOTSUPP;
		return NULL;
	}
	d = sim_dr_new(sizeof(*d), SIM_DR_MAGIC_DOMAIN);
	if (d == NULL)
		return NULL;
	d->ctx = ctx;
	d->type = type;
	return (struct mlx5dv_dr_domain *)(void *)d;
}

static int
sim_dr_domain_destroy(struct mlx5dv_dr_domain *domain)
{
	struct sim_dr_domain *d = sim_dr_get(domain, SIM_DR_MAGIC_DOMAIN);

	if (d == NULL)
		return EINVAL;
	if (d->refs != 0)
		return EBUSY;
	sim_dr_free(d, &d->magic);
	return 0;
}

/* Rules take effect when created: nothing is left to sync. */
int
mlx5dv_dr_domain_sync(struct mlx5dv_dr_domain *domain, uint32_t flags)
{
	const uint32_t known = MLX5DV_DR_DOMAIN_SYNC_FLAGS_SW |
			       MLX5DV_DR_DOMAIN_SYNC_FLAGS_HW |
			       MLX5DV_DR_DOMAIN_SYNC_FLAGS_MEM;

	if (sim_dr_get(domain, SIM_DR_MAGIC_DOMAIN) == NULL ||
	    (flags & ~known) != 0)
		return EINVAL;
	return 0;
}

/* No ICM is kept: nothing to reclaim. */
void
mlx5dv_dr_domain_set_reclaim_device_memory(struct mlx5dv_dr_domain *dmn,
					   bool enable)
{
	RTE_SET_USED(dmn);
	RTE_SET_USED(enable);
}

/*
 * Rules of equal matcher and value in a table above the root: kept both
 * by default (the first created takes the frames), as libmlx5 does;
 * refused (EEXIST) once the domain disallows them.
 */
void
mlx5dv_dr_domain_allow_duplicate_rules(struct mlx5dv_dr_domain *domain,
				       bool allow)
{
	struct sim_dr_domain *d = sim_dr_get(domain, SIM_DR_MAGIC_DOMAIN);

	if (d != NULL)
		d->no_dup = !allow;
}

static struct mlx5dv_dr_table *
sim_dr_table_create(struct mlx5dv_dr_domain *domain, uint32_t level)
{
	struct sim_dr_domain *d = sim_dr_get(domain, SIM_DR_MAGIC_DOMAIN);
	struct sim_dr_table *t;

	if (d == NULL) {
		errno = EINVAL;
		return NULL;
	}
	t = sim_dr_new(sizeof(*t), SIM_DR_MAGIC_TABLE);
	if (t == NULL)
		return NULL;
	if (level != 0) {
		t->ft = mlx5_sim_ftable_create(
			d->ctx,
			d->type == MLX5DV_DR_DOMAIN_TYPE_NIC_RX ?
				MLX5DV_FLOW_TABLE_TYPE_NIC_RX :
				MLX5DV_FLOW_TABLE_TYPE_NIC_TX,
			level);
		if (t->ft == NULL) {
			sim_dr_free(t, &t->magic);
			return NULL;
		}
	}
	t->dmn = d;
	d->refs++;
	return (struct mlx5dv_dr_table *)(void *)t;
}

static int
sim_dr_table_destroy(struct mlx5dv_dr_table *table)
{
	struct sim_dr_table *t = sim_dr_get(table, SIM_DR_MAGIC_TABLE);
	int err;

	if (t == NULL)
		return EINVAL;
	if (t->refs != 0)
		return EBUSY;
	if (t->ft != NULL) {
		err = mlx5_sim_ftable_destroy(t->ft);
		if (err != 0)
			return err;
	}
	t->dmn->refs--;
	sim_dr_free(t, &t->magic);
	return 0;
}

static struct mlx5dv_dr_matcher *
sim_dr_matcher_create(struct mlx5dv_dr_table *table, uint16_t priority,
		      uint8_t match_criteria_enable,
		      struct mlx5dv_flow_match_parameters *mask)
{
	struct sim_dr_table *t = sim_dr_get(table, SIM_DR_MAGIC_TABLE);
	struct mlx5dv_flow_matcher_attr attr = {
		.type = IBV_FLOW_ATTR_NORMAL,
		.priority = priority,
		.match_criteria_enable = match_criteria_enable,
		.match_mask = mask,
		.comp_mask = MLX5DV_FLOW_MATCHER_MASK_FT_TYPE,
	};
	struct sim_dr_matcher *m;

	if (t == NULL) {
		errno = EINVAL;
		return NULL;
	}
	attr.ft_type = t->dmn->type == MLX5DV_DR_DOMAIN_TYPE_NIC_RX ?
			       MLX5DV_FLOW_TABLE_TYPE_NIC_RX :
			       MLX5DV_FLOW_TABLE_TYPE_NIC_TX;
	m = sim_dr_new(sizeof(*m), SIM_DR_MAGIC_MATCHER);
	if (m == NULL)
		return NULL;
	m->m = mlx5_sim_ftable_matcher_create(t->dmn->ctx, &attr, t->ft);
	if (m->m == NULL) {
		sim_dr_free(m, &m->magic);
		return NULL;
	}
	m->tbl = t;
	t->refs++;
	return (struct mlx5dv_dr_matcher *)(void *)m;
}

static int
sim_dr_matcher_destroy(struct mlx5dv_dr_matcher *matcher)
{
	struct sim_dr_matcher *m = sim_dr_get(matcher, SIM_DR_MAGIC_MATCHER);
	int err;

	if (m == NULL)
		return EINVAL;
	if (m->refs != 0)
		return EBUSY;
	err = mlx5_sim_flow_matcher_destroy(m->m);
	if (err != 0)
		return err;
	m->tbl->refs--;
	sim_dr_free(m, &m->magic);
	return 0;
}

/*
 * The model's actions of a rule of matcher @m from libmlx5's @acts: one
 * fate, at most one tag and one counter. 0 or EINVAL.
 */
static int
sim_dr_rule_act(const struct sim_dr_matcher *m, struct sim_dr_action **acts,
		size_t n, struct mlx5_sim_flow_act *act)
{
	struct mlx5_sim_ctx *sctx = mlx5_sim_ctx_get(m->tbl->dmn->ctx);
	struct mlx5_sim_file *file = sctx != NULL ? sctx->file : NULL;
	bool fate = false, tag = false, counter = false;
	struct mlx5_sim_vobj *v;
	size_t i;

	/* A closed context's objects are gone: EINVAL. */
	if (file == NULL || n == 0 || n > SIM_DR_RULE_MAX_ACTIONS ||
	    acts == NULL)
		return EINVAL;
	for (i = 0; i < n; i++) {
		const struct sim_dr_action *a =
			sim_dr_get(acts[i], SIM_DR_MAGIC_ACTION);

		if (a == NULL)
			return EINVAL;
		if (a->kind == SIM_DR_TAG) {
			if (tag)
				return EINVAL;
			tag = true;
			act->flow_tag = a->tag;
			continue;
		}
		if (a->kind == SIM_DR_COUNTER) {
			if (counter)
				return EINVAL;
			counter = true;
			if (a->file != file)
				return EINVAL;
			act->counter_id = a->num;
			continue;
		}
		if (fate)
			return EINVAL;
		fate = true;
		switch (a->kind) {
		case SIM_DR_QP:
			/* A raw packet QP's receive queue (its TIR). */
			v = mlx5_sim_vobj_of(a->qp, MLX5_SIM_OBJ_QP);
			if (v == NULL || v->file != file || v->raw_tirn == 0)
				return EINVAL;
			act->fate = MLX5_SIM_FATE_TIR;
			act->tirn = v->raw_tirn;
			break;
		case SIM_DR_TIR:
			/* A TIR of the rule's file. */
			if (a->file != file)
				return EINVAL;
			act->fate = MLX5_SIM_FATE_TIR;
			act->tirn = a->num;
			break;
		case SIM_DR_TABLE:
			/* A table of the rule's domain, above the root. */
			if (a->tbl->dmn != m->tbl->dmn || a->tbl->ft == NULL)
				return EINVAL;
			act->fate = MLX5_SIM_FATE_TABLE;
			act->ft = a->tbl->ft;
			break;
		case SIM_DR_DROP:
			act->fate = MLX5_SIM_FATE_DROP;
			break;
		default:
			act->fate = MLX5_SIM_FATE_MISS;
			break;
		}
	}
	return fate ? 0 : EINVAL;
}

static struct mlx5dv_dr_rule *
sim_dr_rule_create(struct mlx5dv_dr_matcher *matcher,
		   struct mlx5dv_flow_match_parameters *value,
		   size_t num_actions, struct mlx5dv_dr_action *actions[])
{
	struct sim_dr_matcher *m = sim_dr_get(matcher, SIM_DR_MAGIC_MATCHER);
	struct sim_dr_action **acts = (struct sim_dr_action **)actions;
	struct mlx5_sim_flow_act act = { .fate = MLX5_SIM_FATE_MISS };
	struct sim_dr_rule *r;
	size_t i;
	int err;

	err = m == NULL ? EINVAL : sim_dr_rule_act(m, acts, num_actions, &act);
	if (err != 0) {
		errno = err;
		return NULL;
	}
	/* libmlx5 checks its own tables only, not the kernel's root. */
	act.unique = m->tbl->dmn->no_dup && m->tbl->ft != NULL;
	r = sim_dr_new(sizeof(*r), SIM_DR_MAGIC_RULE);
	if (r == NULL)
		return NULL;
	r->flow = mlx5_sim_flow_rule(m->m, value, &act);
	if (r->flow == NULL) {
		sim_dr_free(r, &r->magic);
		return NULL;
	}
	r->matcher = m;
	m->refs++;
	for (i = 0; i < num_actions; i++) {
		r->acts[i] = acts[i];
		acts[i]->refs++;
	}
	r->n_acts = num_actions;
	return (struct mlx5dv_dr_rule *)(void *)r;
}

static int
sim_dr_rule_destroy(struct mlx5dv_dr_rule *rule)
{
	struct sim_dr_rule *r = sim_dr_get(rule, SIM_DR_MAGIC_RULE);
	size_t i;
	int err;

	if (r == NULL)
		return EINVAL;
	err = mlx5_sim_flow_destroy(r->flow);
	if (err != 0)
		return err;
	r->matcher->refs--;
	for (i = 0; i < r->n_acts; i++)
		r->acts[i]->refs--;
	sim_dr_free(r, &r->magic);
	return 0;
}

/* A new action of @kind (NULL with errno), its object set by the caller. */
static struct sim_dr_action *
sim_dr_action_new(enum sim_dr_kind kind)
{
	struct sim_dr_action *a = sim_dr_new(sizeof(*a), SIM_DR_MAGIC_ACTION);

	if (a != NULL)
		a->kind = kind;
	return a;
}

static struct mlx5dv_dr_action *
sim_dr_action_of(struct sim_dr_action *a)
{
	return (struct mlx5dv_dr_action *)(void *)a;
}

/* An action of @kind naming object @num of @file. */
static struct mlx5dv_dr_action *
sim_dr_action_obj(enum sim_dr_kind kind, struct mlx5_sim_file *file,
		  uint32_t num)
{
	struct sim_dr_action *a = sim_dr_action_new(kind);

	if (a != NULL) {
		a->file = file;
		a->num = num;
	}
	return sim_dr_action_of(a);
}

/* DEVX object @devx_obj if it is of @kind, else NULL. */
static struct mlx5_sim_devx_obj *
sim_dr_devx(struct mlx5dv_devx_obj *devx_obj, enum mlx5_sim_obj_kind kind)
{
	struct mlx5_sim_devx_obj *o = (struct mlx5_sim_devx_obj *)devx_obj;

	return o != NULL && o->magic == MLX5_SIM_MAGIC_OBJ && o->kind == kind ?
		       o :
		       NULL;
}

/* To a raw packet QP's receive queue (its TIR then; none: EINVAL). */
struct mlx5dv_dr_action *
mlx5dv_dr_action_create_dest_ibv_qp(struct ibv_qp *ibqp)
{
	struct sim_dr_action *a;

	if (ibqp == NULL || mlx5_sim_vobj_of(ibqp, MLX5_SIM_OBJ_QP) == NULL) {
		errno = EINVAL;
		return NULL;
	}
	a = sim_dr_action_new(SIM_DR_QP);
	if (a != NULL)
		a->qp = ibqp;
	return sim_dr_action_of(a);
}

struct mlx5dv_dr_action *
mlx5dv_dr_action_create_dest_devx_tir(struct mlx5dv_devx_obj *devx_obj)
{
	struct mlx5_sim_devx_obj *o = sim_dr_devx(devx_obj, MLX5_SIM_OBJ_TIR);

	if (o == NULL) {
		errno = EINVAL;
		return NULL;
	}
	return sim_dr_action_obj(SIM_DR_TIR, o->file, o->index);
}

static struct mlx5dv_dr_action *
sim_dr_action_create_dest_table(struct mlx5dv_dr_table *table)
{
	struct sim_dr_table *t = sim_dr_get(table, SIM_DR_MAGIC_TABLE);
	struct sim_dr_action *a;

	if (t == NULL) {
		errno = EINVAL;
		return NULL;
	}
	a = sim_dr_action_new(SIM_DR_TABLE);
	if (a != NULL) {
		a->tbl = t;
		t->refs++;
	}
	return sim_dr_action_of(a);
}

struct mlx5dv_dr_action *
mlx5dv_dr_action_create_drop(void)
{
	return sim_dr_action_of(sim_dr_action_new(SIM_DR_DROP));
}

struct mlx5dv_dr_action *
mlx5dv_dr_action_create_default_miss(void)
{
	return sim_dr_action_of(sim_dr_action_new(SIM_DR_MISS));
}

/*
 * Counter @devx_obj (ALLOC_FLOW_COUNTER's) at @offset: 0 only, the device
 * announcing no bulk allocation (EINVAL otherwise).
 */
struct mlx5dv_dr_action *
mlx5dv_dr_action_create_flow_counter(struct mlx5dv_devx_obj *devx_obj,
				     uint32_t offset)
{
	struct mlx5_sim_devx_obj *o = sim_dr_devx(devx_obj, MLX5_SIM_OBJ_FCNT);

	if (o == NULL || offset != 0) {
		errno = EINVAL;
		return NULL;
	}
	return sim_dr_action_obj(SIM_DR_COUNTER, o->file, o->index);
}

/* The flow tag of a receive CQE has 24 bits (EINVAL above). */
struct mlx5dv_dr_action *
mlx5dv_dr_action_create_tag(uint32_t tag_value)
{
	struct sim_dr_action *a;

	if (tag_value >= RTE_BIT32(24)) {
		errno = EINVAL;
		return NULL;
	}
	a = sim_dr_action_new(SIM_DR_TAG);
	if (a != NULL)
		a->tag = tag_value;
	return sim_dr_action_of(a);
}

static int
sim_dr_action_destroy(struct mlx5dv_dr_action *action)
{
	struct sim_dr_action *a = sim_dr_get(action, SIM_DR_MAGIC_ACTION);

	if (a == NULL)
		return EINVAL;
	if (a->refs != 0)
		return EBUSY;
	if (a->kind == SIM_DR_TABLE)
		a->tbl->refs--;
	sim_dr_free(a, &a->magic);
	return 0;
}

/*
 * The entry points that read and change the objects' counts, one at a
 * time (libmlx5 takes its domain's lock): a rule and a destroy of what
 * it names cannot interleave.
 */
static pthread_mutex_t sim_dr_mutex = PTHREAD_MUTEX_INITIALIZER;

static void
sim_dr_lock(void)
{
	pthread_mutex_lock(&sim_dr_mutex);
}

/* Unlock, errno kept (the entry point's). */
static void
sim_dr_unlock(void)
{
	int e = errno;

	pthread_mutex_unlock(&sim_dr_mutex);
	errno = e;
}

int
mlx5dv_dr_domain_destroy(struct mlx5dv_dr_domain *domain)
{
	int r;

	sim_dr_lock();
	r = sim_dr_domain_destroy(domain);
	sim_dr_unlock();
	return r;
}

struct mlx5dv_dr_table *
mlx5dv_dr_table_create(struct mlx5dv_dr_domain *domain, uint32_t level)
{
	struct mlx5dv_dr_table *r;

	sim_dr_lock();
	r = sim_dr_table_create(domain, level);
	sim_dr_unlock();
	return r;
}

int
mlx5dv_dr_table_destroy(struct mlx5dv_dr_table *table)
{
	int r;

	sim_dr_lock();
	r = sim_dr_table_destroy(table);
	sim_dr_unlock();
	return r;
}

struct mlx5dv_dr_matcher *
mlx5dv_dr_matcher_create(struct mlx5dv_dr_table *table, uint16_t priority,
			 uint8_t match_criteria_enable,
			 struct mlx5dv_flow_match_parameters *mask)
{
	struct mlx5dv_dr_matcher *r;

	sim_dr_lock();
	r = sim_dr_matcher_create(table, priority, match_criteria_enable, mask);
	sim_dr_unlock();
	return r;
}

int
mlx5dv_dr_matcher_destroy(struct mlx5dv_dr_matcher *matcher)
{
	int r;

	sim_dr_lock();
	r = sim_dr_matcher_destroy(matcher);
	sim_dr_unlock();
	return r;
}

struct mlx5dv_dr_rule *
mlx5dv_dr_rule_create(struct mlx5dv_dr_matcher *matcher,
		      struct mlx5dv_flow_match_parameters *value,
		      size_t num_actions, struct mlx5dv_dr_action *actions[])
{
	struct mlx5dv_dr_rule *r;

	sim_dr_lock();
	r = sim_dr_rule_create(matcher, value, num_actions, actions);
	sim_dr_unlock();
	return r;
}

int
mlx5dv_dr_rule_destroy(struct mlx5dv_dr_rule *rule)
{
	int r;

	sim_dr_lock();
	r = sim_dr_rule_destroy(rule);
	sim_dr_unlock();
	return r;
}

struct mlx5dv_dr_action *
mlx5dv_dr_action_create_dest_table(struct mlx5dv_dr_table *table)
{
	struct mlx5dv_dr_action *r;

	sim_dr_lock();
	r = sim_dr_action_create_dest_table(table);
	sim_dr_unlock();
	return r;
}

int
mlx5dv_dr_action_destroy(struct mlx5dv_dr_action *action)
{
	int r;

	sim_dr_lock();
	r = sim_dr_action_destroy(action);
	sim_dr_unlock();
	return r;
}
