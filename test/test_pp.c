/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * Packet pacing: the device's rate table (through the backend, as rdma-core's
 * mlx5dv_pp_alloc) and the common layer's service over it.
 *
 * On the software device the rate range and the table size are the case
 * setup's (100..1000000 kbps, 8 entries); on a real device they are read
 * from its QoS capabilities, and a case that needs packet pacing skips
 * where the device lacks it.
 */

#include "mlx5_test.h"
#include "mlx5_test_dev.h"
#include "mlx5_test_sim.h"
#include <mlx5_common_pp.h>

#define PP_CARD 20
#define PP_TABLE 8
#define PP_MIN_RATE 100
#define PP_MAX_RATE 1000000

static struct mlx5_common_device *cdev;

static int
pp_case_setup(void)
{
	char args[128];

	snprintf(args, sizeof(args),
		 "card=%d,pp_table_size=%d,pp_min_rate=%d,pp_max_rate=%d",
		 PP_CARD, PP_TABLE, PP_MIN_RATE, PP_MAX_RATE);
	if (tdev_probe(0, args) != 0)
		return TEST_FAILED;
	cdev = tdev_cdev(0);
	if (cdev == NULL)
		return TEST_FAILED;
	/*
	 * The cases take the range and the table size from the capabilities:
	 * on the software device they must be the ones asked for.
	 */
	if (!tdev_hw() &&
	    (cdev->caps.qos.min_rate_kbps != PP_MIN_RATE ||
	     cdev->caps.qos.max_rate_kbps != PP_MAX_RATE ||
	     cdev->caps.qos.rate_table_size != PP_TABLE)) {
		printf("    capabilities %u..%u kbps, %u entries: not the setup's\n",
		       cdev->caps.qos.min_rate_kbps,
		       cdev->caps.qos.max_rate_kbps,
		       cdev->caps.qos.rate_table_size);
		return TEST_FAILED;
	}
	return TEST_SUCCESS;
}

static void
pp_case_teardown(void)
{
	tdev_remove_all();
	cdev = NULL;
}

/*
 * What packet pacing with @entries rate entries needs that the device
 * lacks, or NULL.
 */
static const char *
pp_lacks(unsigned int entries)
{
	const struct mlx5_hca_qos_attr *qos = &cdev->caps.qos;
	static char what[96];

	if (!qos->sup)
		return "the QoS capabilities (qos)";
	if (!qos->packet_pacing)
		return "packet pacing (packet_pacing)";
	if (!qos->pp_uid)
		return "rate entries for user space (packet_pacing_uid)";
	if (entries > 0 && qos->rate_table_size < entries + 1) {
		snprintf(what, sizeof(what),
			 "%u rate entries (packet_pacing_rate_table_size is %u)",
			 entries, qos->rate_table_size);
		return what;
	}
	return NULL;
}

/*
 * Skip on a real device without packet pacing or @entries rate entries.
 * The software device of the case setup has them: there a missing
 * capability is a failure, not a skip.
 */
#define PP_NEED_PACING(entries) do { \
	const char *lacks__ = tdev_hw() ? pp_lacks(entries) : NULL; \
	if (lacks__ != NULL) \
		TEST_SKIP("device lacks %s", lacks__); \
} while (0)

/* The rates the cases ask for: PP_RATE_LO + 0..65536. */
#define PP_RATE_LO 1000u
#define PP_RATE_HI (PP_RATE_LO + UINT16_MAX + 1)

/*
 * The rate the device takes for @want (PP_RATE_LO..PP_RATE_HI): @want where
 * the device's range holds every rate the cases ask for (the software
 * device's does), else @want moved to the bottom of the range, distinct
 * rates staying distinct as far as the range allows.
 */
static uint32_t
pp_rate(uint32_t want)
{
	const struct mlx5_hca_qos_attr *qos = &cdev->caps.qos;
	uint32_t lo = RTE_MAX(qos->min_rate_kbps, 1u);
	uint64_t span;

	if (qos->min_rate_kbps <= PP_RATE_LO &&
	    qos->max_rate_kbps >= PP_RATE_HI)
		return want;
	if (qos->max_rate_kbps < lo)
		return lo;
	span = (uint64_t)qos->max_rate_kbps - lo + 1;
	return lo + (uint32_t)((want - PP_RATE_LO) % span);
}

/* Build a 48-byte rate-limit context. */
static void
pp_ctx(uint8_t *ctx, uint32_t rate, uint32_t burst)
{
	memset(ctx, 0, MLX5_ST_SZ_BYTES(set_pp_rate_limit_context));
	MLX5_SET(set_pp_rate_limit_context, ctx, rate_limit, rate);
	MLX5_SET(set_pp_rate_limit_context, ctx, burst_upper_bound, burst);
}

static int
test_backend_rules(void)
{
	uint8_t ctx[48];
	const struct mlx5_glue *g = cdev->glue;
	const struct mlx5_hca_qos_attr *qos = &cdev->caps.qos;
	struct mlx5dv_pp *pp;

	PP_NEED_PACING(1);
	pp_ctx(ctx, pp_rate(1000), 0);
	errno = 0;
	TEST_ASSERT(g->dv_pp_alloc(cdev->ctx, 0, ctx, 0) == NULL &&
		    errno == EINVAL, "context size 0");
	TEST_ASSERT(g->dv_pp_alloc(cdev->ctx, 49, ctx, 0) == NULL &&
		    errno == EINVAL, "context size 49");
	TEST_ASSERT(g->dv_pp_alloc(cdev->ctx, 48, ctx, 2) == NULL &&
		    errno == EOPNOTSUPP, "unknown flag");
	pp_ctx(ctx, 0, 0);
	TEST_ASSERT(g->dv_pp_alloc(cdev->ctx, 48, ctx, 0) == NULL &&
		    errno == EINVAL, "rate 0");
	/* Just past the range (99 and 1000001 on the software device). */
	if (qos->min_rate_kbps > 1) {
		pp_ctx(ctx, qos->min_rate_kbps - 1, 0);
		TEST_ASSERT(g->dv_pp_alloc(cdev->ctx, 48, ctx, 0) == NULL &&
			    errno == EINVAL, "rate below min");
	}
	if (qos->max_rate_kbps < UINT32_MAX) {
		pp_ctx(ctx, qos->max_rate_kbps + 1, 0);
		TEST_ASSERT(g->dv_pp_alloc(cdev->ctx, 48, ctx, 0) == NULL &&
			    errno == EINVAL, "rate above max");
	}
	/* A 4-byte context: the rest reads as zero. */
	pp_ctx(ctx, RTE_MAX(qos->min_rate_kbps, 1u), 0);
	pp = g->dv_pp_alloc(cdev->ctx, 4, ctx, 0);
	TEST_ASSERT_NOT_NULL(pp, "short context");
	TEST_ASSERT(pp->index >= 1 && pp->index < qos->rate_table_size,
		    "index %u", pp->index);
	g->dv_pp_free(pp);
	TDEV_ASSERT_LIVE(0, 2, "back to context + PD");
	return TEST_SUCCESS;
}

static int
test_backend_shared_dedicated(void)
{
	const struct mlx5_glue *g = cdev->glue;
	struct mlx5dv_pp *a, *b, *c, *d;
	struct mlx5_sim_stats st;
	uint8_t ctx[48];

	PP_NEED_PACING(3);
	if (tdev_hw() && !cdev->caps.qos.burst_bound)
		TEST_SKIP("device lacks burst bounds in rate entries (packet_pacing_burst_bound)");
	pp_ctx(ctx, pp_rate(5000), 0);
	a = g->dv_pp_alloc(cdev->ctx, 48, ctx, 0);
	b = g->dv_pp_alloc(cdev->ctx, 48, ctx, 0);
	TEST_ASSERT(a != NULL && b != NULL, "");
	TEST_ASSERT_EQUAL(a->index, b->index, "identical shared contexts share");
	c = g->dv_pp_alloc(cdev->ctx, 48, ctx,
			   MLX5DV_PP_ALLOC_FLAGS_DEDICATED_INDEX);
	TEST_ASSERT_NOT_NULL(c, "");
	TEST_ASSERT(c->index != a->index, "dedicated takes a new index");
	pp_ctx(ctx, pp_rate(5000), 64);
	d = g->dv_pp_alloc(cdev->ctx, 48, ctx, 0);
	TEST_ASSERT_NOT_NULL(d, "");
	TEST_ASSERT(d->index != a->index && d->index != c->index,
		    "a different context is a different entry");
	/* The table's entry count is the software device's to give. */
	if (!tdev_hw()) {
		TEST_ASSERT_SUCCESS(mlx5_sim_vhca_stats(PP_CARD, 0, &st), "");
		TEST_ASSERT_EQUAL(st.pp_entries, 3, "a/b share one entry");
	}
	g->dv_pp_free(a);
	if (!tdev_hw()) {
		TEST_ASSERT_SUCCESS(mlx5_sim_vhca_stats(PP_CARD, 0, &st), "");
		TEST_ASSERT_EQUAL(st.pp_entries, 3,
				  "b still holds the shared entry");
	}
	g->dv_pp_free(b);
	g->dv_pp_free(c);
	g->dv_pp_free(d);
	if (!tdev_hw()) {
		TEST_ASSERT_SUCCESS(mlx5_sim_vhca_stats(PP_CARD, 0, &st), "");
		TEST_ASSERT_EQUAL(st.pp_entries, 0, "");
	}
	return TEST_SUCCESS;
}

static int
test_backend_table_full(void)
{
	const struct mlx5_glue *g = cdev->glue;
	static struct mlx5dv_pp *pp[UINT16_MAX + 1];
	static bool seen[UINT16_MAX + 1];
	unsigned int size = cdev->caps.qos.rate_table_size, n, i;
	uint8_t ctx[48];

	PP_NEED_PACING(1);
	if (tdev_hw() && pp_rate(PP_RATE_LO) + (uint64_t)size >
			 cdev->caps.qos.max_rate_kbps)
		TEST_SKIP("device lacks a rate range as wide as its rate table (a distinct rate per entry)");
	memset(seen, 0, sizeof(seen));
	/*
	 * Indices 1..size-1: size-1 entries fit where nobody else holds one
	 * (the software device). On a real device the kernel's own users may
	 * hold some: the table is full once the device says so.
	 */
	for (n = 0; n < size - 1; n++) {
		pp_ctx(ctx, pp_rate(1000 + n), 0);
		errno = 0;
		pp[n] = g->dv_pp_alloc(cdev->ctx, 48, ctx, 0);
		if (pp[n] == NULL && tdev_hw() && errno == ENOSPC) {
			if (n == 0)
				TEST_SKIP("every rate entry of the device is held by other users");
			break;
		}
		TEST_ASSERT_NOT_NULL(pp[n], "entry %u", n);
		TEST_ASSERT(pp[n]->index >= 1 && pp[n]->index < size, "");
		TEST_ASSERT(!seen[pp[n]->index], "index %u given twice",
			    pp[n]->index);
		seen[pp[n]->index] = true;
	}
	/* A rate no entry has. */
	pp_ctx(ctx, pp_rate(1000 + size), 0);
	errno = 0;
	TEST_ASSERT(g->dv_pp_alloc(cdev->ctx, 48, ctx, 0) == NULL &&
		    errno == ENOSPC, "table full");
	TEST_ASSERT(g->dv_pp_alloc(cdev->ctx, 48, ctx,
		    MLX5DV_PP_ALLOC_FLAGS_DEDICATED_INDEX) == NULL &&
		    errno == ENOSPC, "table full, dedicated");
	/* A shared request identical to a live entry still succeeds. */
	pp_ctx(ctx, pp_rate(1000), 0);
	pp[n] = g->dv_pp_alloc(cdev->ctx, 48, ctx, 0);
	TEST_ASSERT_NOT_NULL(pp[n], "sharing needs no new index");
	for (i = 0; i <= n; i++)
		g->dv_pp_free(pp[i]);
	TDEV_ASSERT_LIVE(0, 2, "");
	return TEST_SUCCESS;
}

/*
 * A dedicated entry is never shared: a shared request with the very same
 * context gets an entry of its own (then shared by the next one), as the
 * kernel's mlx5_rl_add_rate_raw() looks up shared entries only. Rates at
 * the ends of the device's range are in it.
 */
static int
test_backend_dedicated_not_shared(void)
{
	const struct mlx5_glue *g = cdev->glue;
	const struct mlx5_hca_qos_attr *qos = &cdev->caps.qos;
	struct mlx5dv_pp *ded, *s1, *s2, *lo, *hi;
	struct mlx5_sim_stats st;
	uint8_t ctx[48];

	PP_NEED_PACING(4);
	pp_ctx(ctx, pp_rate(7000), 0);
	ded = g->dv_pp_alloc(cdev->ctx, 48, ctx,
			     MLX5DV_PP_ALLOC_FLAGS_DEDICATED_INDEX);
	TEST_ASSERT_NOT_NULL(ded, "dedicated");
	s1 = g->dv_pp_alloc(cdev->ctx, 48, ctx, 0);
	TEST_ASSERT_NOT_NULL(s1, "shared");
	TEST_ASSERT(s1->index != ded->index,
		    "a shared request does not take the dedicated entry");
	s2 = g->dv_pp_alloc(cdev->ctx, 48, ctx, 0);
	TEST_ASSERT_NOT_NULL(s2, "");
	TEST_ASSERT_EQUAL(s2->index, s1->index, "shared with the shared one");
	if (!tdev_hw()) {
		TEST_ASSERT_SUCCESS(mlx5_sim_vhca_stats(PP_CARD, 0, &st), "");
		TEST_ASSERT_EQUAL(st.pp_entries, 2, "");
	}
	pp_ctx(ctx, RTE_MAX(qos->min_rate_kbps, 1u), 0);
	lo = g->dv_pp_alloc(cdev->ctx, 48, ctx, 0);
	TEST_ASSERT_NOT_NULL(lo, "the minimum rate");
	pp_ctx(ctx, qos->max_rate_kbps, 0);
	hi = g->dv_pp_alloc(cdev->ctx, 48, ctx, 0);
	TEST_ASSERT_NOT_NULL(hi, "the maximum rate");
	g->dv_pp_free(hi);
	g->dv_pp_free(lo);
	g->dv_pp_free(s2);
	g->dv_pp_free(s1);
	g->dv_pp_free(ded);
	if (!tdev_hw()) {
		TEST_ASSERT_SUCCESS(mlx5_sim_vhca_stats(PP_CARD, 0, &st), "");
		TEST_ASSERT_EQUAL(st.pp_entries, 0, "");
	}
	TDEV_ASSERT_LIVE(0, 2, "back to context + PD");
	return TEST_SUCCESS;
}

/*
 * Rate 0 is "unlimited" (index 0), never an entry: refused also where the
 * device's minimum rate is 0.
 */
static int
test_backend_rate_zero(void)
{
	struct mlx5_common_device *z;
	uint8_t ctx[48];

	TDEV_SIM_ONLY("a device whose minimum rate is 0 (pp_min_rate=0)");
	TEST_ASSERT_SUCCESS(sim_probe("mlx5_sim1", "card=26,pp_min_rate=0"),
			    "");
	z = sim_cdev("mlx5_sim1");
	TEST_ASSERT_NOT_NULL(z, "");
	TEST_ASSERT_EQUAL(z->caps.qos.min_rate_kbps, 0, "");
	pp_ctx(ctx, 0, 0);
	errno = 0;
	TEST_ASSERT(z->glue->dv_pp_alloc(z->ctx, 48, ctx, 0) == NULL &&
		    errno == EINVAL, "rate 0 (errno %d)", errno);
	TEST_ASSERT_EQUAL(sim_live(26, 1), 2, "context + PD only");
	TEST_ASSERT_SUCCESS(sim_remove("mlx5_sim1"), "");
	TEST_ASSERT_EQUAL(sim_live(26, 1), 0, "");
	return TEST_SUCCESS;
}

/*
 * mlx5dv_pp_free() clears an entry with a SET_PP_RATE_LIMIT when its last
 * reference goes, and issues nothing for the others; a refused clear
 * (counted) still frees the entry, as in the kernel.
 */
static int
test_backend_free_clears(void)
{
	const struct mlx5_glue *g = cdev->glue;
	struct mlx5_sim_stats before, after;
	struct mlx5dv_pp *a, *b;
	uint8_t ctx[48];

	TDEV_SIM_ONLY("the command count of a vHCA and fault injection");
	for (int faulted = 0; faulted <= 1; faulted++) {
		pp_ctx(ctx, 9000 + faulted, 0);
		a = g->dv_pp_alloc(cdev->ctx, 48, ctx, 0);
		b = g->dv_pp_alloc(cdev->ctx, 48, ctx, 0);
		TEST_ASSERT(a != NULL && b != NULL && a->index == b->index, "");
		TEST_ASSERT_SUCCESS(mlx5_sim_vhca_stats(PP_CARD, 0, &before),
				    "");
		g->dv_pp_free(a);
		TEST_ASSERT_SUCCESS(mlx5_sim_vhca_stats(PP_CARD, 0, &after),
				    "");
		TEST_ASSERT_EQUAL(after.commands, before.commands,
				  "a reference left: no command");
		if (faulted)
			TEST_ASSERT_SUCCESS(mlx5_sim_fault_set(PP_CARD, 0,
				MLX5_CMD_OP_SET_PP_RATE_LIMIT, 1,
				MLX5_CMD_STAT_INT_ERR), "");
		g->dv_pp_free(b);
		mlx5_sim_fault_clear(PP_CARD, 0);
		TEST_ASSERT_SUCCESS(mlx5_sim_vhca_stats(PP_CARD, 0, &after),
				    "");
		TEST_ASSERT_EQUAL(after.commands - before.commands, 1,
				  "the last reference clears the entry");
		TEST_ASSERT_EQUAL(after.failed_commands -
				  before.failed_commands, faulted, "");
		TEST_ASSERT_EQUAL(after.pp_entries, 0, "freed either way");
	}
	TDEV_ASSERT_LIVE(0, 2, "back to context + PD");
	return TEST_SUCCESS;
}

static int
test_service(void)
{
	struct mlx5_pp_attr attr = { .rate_kbps = 2000 };
	struct mlx5_pp_entry *a, *b, *c;

	PP_NEED_PACING(2);
	attr.rate_kbps = pp_rate(attr.rate_kbps);
	TEST_ASSERT_SUCCESS(mlx5_pp_alloc(cdev, &attr, &a), "");
	TEST_ASSERT_SUCCESS(mlx5_pp_alloc(cdev, &attr, &b), "");
	TEST_ASSERT_EQUAL(a->index, b->index, "shared");
	attr.dedicated = true;
	TEST_ASSERT_SUCCESS(mlx5_pp_alloc(cdev, &attr, &c), "");
	TEST_ASSERT(c->index != a->index, "dedicated");
	TEST_ASSERT_SUCCESS(mlx5_pp_free(cdev, a), "");
	TEST_ASSERT_SUCCESS(mlx5_pp_free(cdev, b), "");
	TEST_ASSERT_EQUAL(mlx5_pp_free(cdev, b), -EINVAL, "double free");
	TEST_ASSERT_EQUAL(rte_errno, EINVAL, "");
	/* c is left allocated on purpose: remove must release it. */
	(void)c;
	return TEST_SUCCESS;
}

static int
test_service_checks_caps_first(void)
{
	const struct mlx5_hca_qos_attr *qos = &cdev->caps.qos;
	struct mlx5_pp_attr attr = { .rate_kbps = 0 };
	struct mlx5_sim_stats before, after;
	struct mlx5_pp_entry *e = NULL;

	PP_NEED_PACING(0);
	if (!tdev_hw())
		TEST_ASSERT_SUCCESS(mlx5_sim_vhca_stats(PP_CARD, 0, &before),
				    "");
	/* Half the minimum, twice the maximum: 50 and 2000000 on the sim. */
	if (qos->min_rate_kbps >= 2) {
		attr.rate_kbps = qos->min_rate_kbps / 2;
		TEST_ASSERT_EQUAL(mlx5_pp_alloc(cdev, &attr, &e), -EINVAL,
				  "below min");
	}
	if (qos->max_rate_kbps < UINT32_MAX) {
		attr.rate_kbps = qos->max_rate_kbps > UINT32_MAX / 2 ?
				 UINT32_MAX : qos->max_rate_kbps * 2;
		TEST_ASSERT_EQUAL(mlx5_pp_alloc(cdev, &attr, &e), -EINVAL,
				  "above max");
	}
	attr.rate_kbps = 0;
	TEST_ASSERT_EQUAL(mlx5_pp_alloc(cdev, &attr, &e), -EINVAL, "zero");
	attr.rate_kbps = pp_rate(1000);
	attr.rate_mode = 7;
	TEST_ASSERT_EQUAL(mlx5_pp_alloc(cdev, &attr, &e), -EINVAL, "mode");
	/* The software device counts the commands that reach it. */
	if (!tdev_hw()) {
		TEST_ASSERT_SUCCESS(mlx5_sim_vhca_stats(PP_CARD, 0, &after),
				    "");
		TEST_ASSERT_EQUAL(after.commands, before.commands,
				  "refused before reaching the device");
	}
	TEST_ASSERT(e == NULL, "");
	return TEST_SUCCESS;
}

static int
test_service_no_pacing(void)
{
	struct mlx5_pp_attr attr = { .rate_kbps = 1000 };
	struct mlx5_common_device *np;
	struct mlx5_pp_entry *e;
	uint8_t ctx[48];

	TDEV_SIM_ONLY("a device without packet pacing (pacing=0)");
	TEST_ASSERT_SUCCESS(sim_probe("mlx5_sim1", "card=21,vhca_id=0,pacing=0"), "");
	np = sim_cdev("mlx5_sim1");
	TEST_ASSERT_NOT_NULL(np, "");
	TEST_ASSERT_EQUAL(mlx5_pp_alloc(np, &attr, &e), -ENOTSUP, "");
	/* The backend too: the kernel has no PP object without pacing. */
	pp_ctx(ctx, 1000, 0);
	errno = 0;
	TEST_ASSERT(np->glue->dv_pp_alloc(np->ctx, 48, ctx, 0) == NULL &&
		    errno == EOPNOTSUPP, "mlx5dv_pp_alloc (errno %d)", errno);
	TEST_ASSERT_SUCCESS(sim_remove("mlx5_sim1"), "");
	TEST_ASSERT_EQUAL(sim_live(21, 0), 0, "");
	return TEST_SUCCESS;
}

static int
test_service_device_refusal(void)
{
	struct mlx5_pp_attr attr = { .rate_kbps = 1000 };
	struct mlx5_pp_entry *e;
	long live = tdev_live(0);

	TDEV_SIM_ONLY("fault injection (a refused SET_PP_RATE_LIMIT)");
	TEST_ASSERT_SUCCESS(mlx5_sim_fault_set(PP_CARD, 0,
		MLX5_CMD_OP_SET_PP_RATE_LIMIT, 1, MLX5_CMD_STAT_NO_RES_ERR), "");
	TEST_ASSERT_EQUAL(mlx5_pp_alloc(cdev, &attr, &e), -EAGAIN,
			  "NO_RESOURCES maps to EAGAIN");
	TEST_ASSERT_EQUAL(tdev_live(0), live, "nothing half-built");
	TEST_ASSERT_SUCCESS(mlx5_pp_alloc(cdev, &attr, &e), "one-shot fault");
	TEST_ASSERT_SUCCESS(mlx5_pp_free(cdev, e), "");
	mlx5_sim_fault_clear(PP_CARD, 0);
	return TEST_SUCCESS;
}

static int
test_remove_releases_entries(void)
{
	struct mlx5_pp_attr attr = { .rate_kbps = 3000, .dedicated = true };
	struct mlx5_pp_entry *e;

	PP_NEED_PACING(3);
	attr.rate_kbps = pp_rate(attr.rate_kbps);
	for (int i = 0; i < 3; i++)
		TEST_ASSERT_SUCCESS(mlx5_pp_alloc(cdev, &attr, &e), "");
	TEST_ASSERT_SUCCESS(tdev_remove(0), "");
	cdev = NULL;
	TDEV_ASSERT_LIVE(0, 0, "entries freed at remove");
	/* What a close reclaims is counted by the software device. */
	if (!tdev_hw())
		TEST_ASSERT_EQUAL(sim_reclaimed(PP_CARD, 0), 0,
				  "not leaked to close");
	return TEST_SUCCESS;
}

/* A second context on the vHCA of @dev: a file (and DEVX uid) of its own. */
static struct ibv_context *
pp_open_ctx(struct mlx5_common_device *dev, bool devx)
{
	struct mlx5dv_context_attr attr = {
		.flags = devx ? MLX5DV_CONTEXT_FLAGS_DEVX : 0,
	};

	return dev->glue->dv_open_device(dev->ibv_dev, &attr);
}

/* The kernel's order of checks, each one ahead of the next. */
static int
test_backend_check_order(void)
{
	const struct mlx5_glue *g = cdev->glue;
	struct mlx5_common_device *z;
	struct ibv_context *plain;
	uint8_t ctx[48];

	TDEV_SIM_ONLY("devices with a one-entry rate table (pp_table_size=1) and without packet_pacing_uid (pp_uid=0)");
	/* On this device: non-DEVX before the context size and the rate. */
	plain = pp_open_ctx(cdev, false);
	TEST_ASSERT_NOT_NULL(plain, "a context without DEVX");
	pp_ctx(ctx, 0, 0);
	errno = 0;
	TEST_ASSERT(g->dv_pp_alloc(plain, 0, ctx, 0) == NULL && errno == EINVAL,
		    "non-DEVX context: EINVAL (%d)", errno);
	errno = 0;
	TEST_ASSERT(g->dv_pp_alloc(plain, 48, ctx, 2) == NULL &&
		    errno == EOPNOTSUPP, "unknown flags first (library)");
	TEST_ASSERT_SUCCESS(g->close_device(plain), "");

	/* A table without entries: EOPNOTSUPP before the rate is read. */
	TEST_ASSERT_SUCCESS(sim_probe("mlx5_sim1", "card=22,pp_table_size=1"), "");
	z = sim_cdev("mlx5_sim1");
	errno = 0;
	TEST_ASSERT(g->dv_pp_alloc(z->ctx, 48, ctx, 0) == NULL &&
		    errno == EOPNOTSUPP, "table size 1, rate 0: EOPNOTSUPP (%d)",
		    errno);
	plain = pp_open_ctx(z, false);
	TEST_ASSERT_NOT_NULL(plain, "");
	errno = 0;
	TEST_ASSERT(g->dv_pp_alloc(plain, 48, ctx, 0) == NULL && errno == EINVAL,
		    "non-DEVX before table size (%d)", errno);
	TEST_ASSERT_SUCCESS(g->close_device(plain), "");
	TEST_ASSERT_SUCCESS(sim_remove("mlx5_sim1"), "");

	/* No packet_pacing_uid: no PP object at all, DEVX or not. */
	TEST_ASSERT_SUCCESS(sim_probe("mlx5_sim1", "card=23,pp_uid=0"), "");
	z = sim_cdev("mlx5_sim1");
	pp_ctx(ctx, 1000, 0);
	errno = 0;
	TEST_ASSERT(g->dv_pp_alloc(z->ctx, 48, ctx, 0) == NULL &&
		    errno == EOPNOTSUPP, "no pp uid: EOPNOTSUPP (%d)", errno);
	TEST_ASSERT_SUCCESS(sim_remove("mlx5_sim1"), "");
	TEST_ASSERT_EQUAL(sim_live(22, 1), 0, "");
	TEST_ASSERT_EQUAL(sim_live(23, 1), 0, "");
	return TEST_SUCCESS;
}

/* Shared entries are shared within one DEVX uid only. */
static int
test_backend_shared_per_uid(void)
{
	const struct mlx5_glue *g = cdev->glue;
	struct ibv_context *other;
	struct mlx5dv_pp *a, *b, *c;
	struct mlx5_sim_stats st;
	uint8_t ctx[48];

	PP_NEED_PACING(2);
	other = pp_open_ctx(cdev, true);
	TEST_ASSERT_NOT_NULL(other, "a second DEVX context");
	pp_ctx(ctx, pp_rate(7000), 0);
	a = g->dv_pp_alloc(cdev->ctx, 48, ctx, 0);
	b = g->dv_pp_alloc(cdev->ctx, 48, ctx, 0);
	c = g->dv_pp_alloc(other, 48, ctx, 0);
	TEST_ASSERT(a != NULL && b != NULL && c != NULL, "");
	TEST_ASSERT_EQUAL(a->index, b->index, "same uid: shared");
	TEST_ASSERT(c->index != a->index, "another uid: an entry of its own");
	if (!tdev_hw()) {
		TEST_ASSERT_SUCCESS(mlx5_sim_vhca_stats(PP_CARD, 0, &st), "");
		TEST_ASSERT_EQUAL(st.pp_entries, 2, "");
	}
	g->dv_pp_free(a);
	g->dv_pp_free(b);
	g->dv_pp_free(c);
	TEST_ASSERT_SUCCESS(g->close_device(other), "");
	return TEST_SUCCESS;
}

/*
 * The last reference clears its entry with SET_PP_RATE_LIMIT, also when
 * the file closes with entries still allocated: counted, and faultable.
 */
static int
test_backend_close_clears(void)
{
	struct mlx5_sim_stats before, after;
	const struct mlx5_glue *g;
	struct mlx5_common_device *dev;
	struct ibv_context *other;
	uint8_t ctx[48];

	TDEV_SIM_ONLY("fault injection and the command and reclaim counts of a vHCA");
	/* A vHCA of its own: what a close reclaims is counted per vHCA. */
	TEST_ASSERT_SUCCESS(sim_probe("mlx5_sim1", "card=25"), "");
	dev = sim_cdev("mlx5_sim1");
	g = dev->glue;
	for (int faulted = 0; faulted <= 1; faulted++) {
		other = pp_open_ctx(dev, true);
		TEST_ASSERT_NOT_NULL(other, "");
		pp_ctx(ctx, 8000 + faulted, 0);
		TEST_ASSERT_NOT_NULL(g->dv_pp_alloc(other, 48, ctx, 0), "");
		TEST_ASSERT_NOT_NULL(g->dv_pp_alloc(other, 48, ctx,
			MLX5DV_PP_ALLOC_FLAGS_DEDICATED_INDEX), "");
		if (faulted)
			TEST_ASSERT_SUCCESS(mlx5_sim_fault_set(25, 1,
				MLX5_CMD_OP_SET_PP_RATE_LIMIT, 0,
				MLX5_CMD_STAT_INT_ERR), "");
		TEST_ASSERT_SUCCESS(mlx5_sim_vhca_stats(25, 1, &before), "");
		TEST_ASSERT_SUCCESS(g->close_device(other), "close with entries");
		TEST_ASSERT_SUCCESS(mlx5_sim_vhca_stats(25, 1, &after), "");
		mlx5_sim_fault_clear(25, 1);
		/* Two entries cleared, plus DESTROY_UCTX. */
		TEST_ASSERT_EQUAL(after.commands - before.commands, 3,
				  "one clearing command per entry");
		TEST_ASSERT_EQUAL(after.failed_commands - before.failed_commands,
				  faulted ? 2 : 0, "faulted clears are refused");
		TEST_ASSERT_EQUAL(after.pp_entries, 0,
				  "the entries go either way");
		TEST_ASSERT_EQUAL(after.reclaimed - before.reclaimed, 2,
				  "reclaimed at close");
	}
	TEST_ASSERT_SUCCESS(sim_remove("mlx5_sim1"), "");
	TEST_ASSERT_EQUAL(sim_live(25, 1), 0, "");
	return TEST_SUCCESS;
}

/* The service checks packet_pacing_uid before asking the device. */
static int
test_service_needs_pp_uid(void)
{
	struct mlx5_pp_attr attr = { .rate_kbps = 1000 };
	struct mlx5_sim_stats before, after;
	struct mlx5_common_device *np;
	struct mlx5_pp_entry *e;
	const char *log;

	TDEV_SIM_ONLY("a device without packet_pacing_uid (pp_uid=0)");
	TEST_ASSERT_SUCCESS(sim_probe("mlx5_sim1", "card=24,pp_uid=0"), "");
	np = sim_cdev("mlx5_sim1");
	TEST_ASSERT(!np->caps.qos.pp_uid, "the capability reads 0");
	TEST_ASSERT_SUCCESS(mlx5_sim_vhca_stats(24, 1, &before), "");
	mlx5_test_log_capture_start();
	TEST_ASSERT_EQUAL(mlx5_pp_alloc(np, &attr, &e), -ENOTSUP, "");
	log = mlx5_test_log_capture_stop();
	TEST_ASSERT(strstr(log, "packet_pacing_uid") != NULL,
		    "the log names the capability");
	TEST_ASSERT_SUCCESS(mlx5_sim_vhca_stats(24, 1, &after), "");
	TEST_ASSERT_EQUAL(after.commands, before.commands, "no command");
	TEST_ASSERT_SUCCESS(sim_remove("mlx5_sim1"), "");
	return TEST_SUCCESS;
}

/*
 * The software device's default rate range: rdma-core's own test_mlx5_pp
 * allocates a 4-byte context of 100 kb/s as "an arbitrary valid rate" of
 * the hardware it runs on; a device with the default shape must take it.
 */
static int
test_default_min_rate(void)
{
	const struct mlx5_glue *g;
	struct mlx5_common_device *dflt;
	uint8_t ctx[4] = { 0, 0, 0, 100 }; /* rate_limit, big-endian. */
	struct mlx5dv_pp *pp;

	if (tdev_hw())
		return TEST_SKIPPED;
	TEST_ASSERT_SUCCESS(tdev_probe(1, "card=21"), "default shape");
	dflt = tdev_cdev(1);
	TEST_ASSERT_NOT_NULL(dflt, "");
	g = dflt->glue;
	TEST_ASSERT(dflt->caps.qos.min_rate_kbps <= 100,
		    "packet_pacing_min_rate %u kb/s",
		    dflt->caps.qos.min_rate_kbps);
	pp = g->dv_pp_alloc(dflt->ctx, sizeof(ctx), ctx, 0);
	TEST_ASSERT_NOT_NULL(pp, "100 kb/s: errno %d", errno);
	g->dv_pp_free(pp);
	return TEST_SUCCESS;
}

static const struct mlx5_test_case pp_cases[] = {
	{ "default_min_rate", test_default_min_rate },
	{ "backend_rules", test_backend_rules },
	{ "backend_shared_dedicated", test_backend_shared_dedicated },
	{ "backend_dedicated_not_shared", test_backend_dedicated_not_shared },
	{ "backend_rate_zero", test_backend_rate_zero },
	{ "backend_free_clears", test_backend_free_clears },
	{ "backend_table_full", test_backend_table_full },
	{ "backend_check_order", test_backend_check_order },
	{ "backend_shared_per_uid", test_backend_shared_per_uid },
	{ "backend_close_clears", test_backend_close_clears },
	{ "service_needs_pp_uid", test_service_needs_pp_uid },
	{ "service", test_service },
	{ "service_checks_caps_first", test_service_checks_caps_first },
	{ "service_no_pacing", test_service_no_pacing },
	{ "service_device_refusal", test_service_device_refusal },
	{ "remove_releases_entries", test_remove_releases_entries },
	{ NULL, NULL },
};

static const struct mlx5_test_suite pp_suite = {
	.name = "pp",
	.case_setup = pp_case_setup,
	.case_teardown = pp_case_teardown,
	.cases = pp_cases,
};

MLX5_TEST_MAIN(pp_suite)
