/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * The common device on the software device: probe and remove, capabilities
 * from devargs, every devarg error, context/PD import, and a fault-injection
 * sweep over the probe's commands. Every failure must leave nothing alive.
 */

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <rte_malloc.h>
#include <rte_pmd_mlx5.h>

#include <mlx5_common_mr.h>
#include <mlx5_common_pp.h>

#include "mlx5_test.h"
#include "mlx5_test_sim.h"

static int
test_probe_remove(void)
{
	struct mlx5_common_device *cdev;

	TEST_ASSERT_SUCCESS(sim_probe("mlx5_sim0", "card=1,vhca_id=7"), "probe");
	cdev = sim_cdev("mlx5_sim0");
	TEST_ASSERT_NOT_NULL(cdev, "common device after probe");
	TEST_ASSERT(cdev->ctx != NULL && cdev->pd != NULL, "context and PD");
	TEST_ASSERT(!cdev->ctx_imported && !cdev->pd_imported, "own ctx/PD");
	TEST_ASSERT_EQUAL(cdev->caps.vhca_id, 7, "vhca_id from QUERY_HCA_CAP");
	TEST_ASSERT(cdev->caps.hca_cap_2, "default hca_cap_2");
	TEST_ASSERT(cdev->caps.crossing_vhca_mkey, "default crossing cap");
	TEST_ASSERT(cdev->caps.cross_vhca_object_to_object_supported &
		    MLX5_CROSS_VHCA_OBJ_TO_OBJ_LOCAL_MKEY_TO_REMOTE_MKEY, "");
	TEST_ASSERT(cdev->caps.allowed_object_for_other_vhca_access &
		    MLX5_ALLOWED_OBJ_FOR_OTHER_VHCA_ACCESS_MKEY, "");
	TEST_ASSERT(cdev->caps.qos.sup && cdev->caps.qos.packet_pacing, "");
	TEST_ASSERT_EQUAL(cdev->caps.qos.rate_table_size, 128, "default size");
	TEST_ASSERT_EQUAL(cdev->config.classes, MLX5_CLASS_ETH, "default class");
	TEST_ASSERT(cdev->config.mr_ext_memseg_en, "default on");
	TEST_ASSERT(cdev->config.mr_mempool_reg_en, "default on");
	TEST_ASSERT(!cdev->config.sys_mem_en, "default off");
	TEST_ASSERT(sim_live(1, 7) > 0, "context and PD are alive");
	TEST_ASSERT_SUCCESS(sim_remove("mlx5_sim0"), "remove");
	TEST_ASSERT(sim_cdev("mlx5_sim0") == NULL, "gone from the device list");
	TEST_ASSERT_EQUAL(sim_live(1, 7), 0, "nothing alive after remove");
	TEST_ASSERT_EQUAL(sim_reclaimed(1, 7), 0, "nothing leaked");
	return TEST_SUCCESS;
}

static int
test_caps_from_devargs(void)
{
	struct mlx5_common_device *cdev;

	TEST_ASSERT_SUCCESS(sim_probe("mlx5_sim0",
		"card=2,vhca_id=5,crossing=0,pp_table_size=16,pp_min_rate=500,pp_max_rate=2000,class=eth:crypto,sys_mem_en=1,mr_ext_memseg_en=0,mr_mempool_reg_en=0"),
		"probe");
	cdev = sim_cdev("mlx5_sim0");
	TEST_ASSERT_NOT_NULL(cdev, "");
	TEST_ASSERT(!cdev->caps.crossing_vhca_mkey, "crossing=0");
	TEST_ASSERT_EQUAL(cdev->caps.qos.rate_table_size, 16, "");
	TEST_ASSERT_EQUAL(cdev->caps.qos.min_rate_kbps, 500, "");
	TEST_ASSERT_EQUAL(cdev->caps.qos.max_rate_kbps, 2000, "");
	TEST_ASSERT_EQUAL(cdev->config.classes,
			  MLX5_CLASS_ETH | MLX5_CLASS_CRYPTO, "");
	TEST_ASSERT(cdev->config.sys_mem_en, "");
	TEST_ASSERT(!cdev->config.mr_ext_memseg_en, "");
	TEST_ASSERT(!cdev->config.mr_mempool_reg_en, "");
	TEST_ASSERT_SUCCESS(sim_remove("mlx5_sim0"), "");

	TEST_ASSERT_SUCCESS(sim_probe("mlx5_sim0",
		"card=2,vhca_id=6,hca_cap_2=0,pacing=0"), "probe");
	cdev = sim_cdev("mlx5_sim0");
	TEST_ASSERT_NOT_NULL(cdev, "");
	TEST_ASSERT(!cdev->caps.hca_cap_2, "hca_cap_2=0");
	TEST_ASSERT_EQUAL(cdev->caps.allowed_object_for_other_vhca_access, 0,
			  "no general_2 block read");
	TEST_ASSERT(!cdev->caps.qos.packet_pacing, "pacing=0");
	TEST_ASSERT_SUCCESS(sim_remove("mlx5_sim0"), "");
	TEST_ASSERT_EQUAL(sim_live(2, 5) + sim_live(2, 6), 0, "");
	return TEST_SUCCESS;
}

/* Devargs that must fail the probe, and the key the log must name. */
static const struct {
	const char *args;
	int err;
	const char *named;
} bad_devargs[] = {
	{ "card=10,foo=1", EINVAL, "foo" },
	{ "card=10,class=bogus", EINVAL, "bogus" },
	{ "card=10,class=", EINVAL, "class" },
	{ "card=10,class", EINVAL, "class" },
	{ "card=10,mr_ext_memseg_en=2", EINVAL, "mr_ext_memseg_en" },
	{ "card=10,mr_mempool_reg_en=-1", EINVAL, "mr_mempool_reg_en" },
	{ "card=10,sys_mem_en=yes", EINVAL, "sys_mem_en" },
	{ "card=10,cmd_fd=3", EINVAL, "pd_handle" },
	{ "card=10,pd_handle=1", EINVAL, "cmd_fd" },
	{ "card=10,cmd_fd=x,pd_handle=1", EINVAL, "cmd_fd" },
	{ "card=256", EINVAL, "card" },
	{ "card=10,vhca_id=65536", EINVAL, "vhca_id" },
	{ "card=10,crossing=2", EINVAL, "crossing" },
	{ "card=10,pp_table_size=65536", EINVAL, "pp_table_size" },
	{ "card=10,pp_uid=2", EINVAL, "pp_uid" },
	{ "card=10,cross_rule=maybe", EINVAL, "cross_rule" },
	{ "card=10,signature=yes", EINVAL, "signature" },
	{ "card=10,pp_min_rate=10,pp_max_rate=5", EINVAL, "pp_m" },
	{ "card=10,fail_status=zzz", EINVAL, "fail_status" },
	{ "card=10,fail_cmd=NOT_A_COMMAND", EINVAL, "fail_cmd" },
	{ "card=10,fail_nth=0x", EINVAL, "fail_nth" },
	/* Integers are decimal or 0x hexadecimal, exactly. */
	{ "card=10,vhca_id=\t1000", EINVAL, "vhca_id" },
	{ "card=10,vhca_id=\n1000", EINVAL, "vhca_id" },
	{ "card=10,vhca_id=\v1000", EINVAL, "vhca_id" },
	{ "card=10,vhca_id= 1000", EINVAL, "vhca_id" },
	{ "card=10,vhca_id=1000 ", EINVAL, "vhca_id" },
	{ "card=10,vhca_id=+1000", EINVAL, "vhca_id" },
	{ "card=10,vhca_id=01002", EINVAL, "vhca_id" },
	{ "card=010", EINVAL, "card" },
	{ "card=00", EINVAL, "card" },
	{ "card=10,vhca_id=1e3", EINVAL, "vhca_id" },
	{ "card=10,vhca_id=0x3g8", EINVAL, "vhca_id" },
	{ "card=10,vhca_id=0x-1", EINVAL, "vhca_id" },
	{ "card=10,vhca_id=0x 1", EINVAL, "vhca_id" },
	{ "card=10,vhca_id=18446744073709551616", EINVAL, "vhca_id" },
	{ "card=10,vhca_id=0x10000000000000000", EINVAL, "vhca_id" },
	{ "card=10,mr_ext_memseg_en=01", EINVAL, "mr_ext_memseg_en" },
	{ "card=10,mr_ext_memseg_en=\t1", EINVAL, "mr_ext_memseg_en" },
};

/* The two spellings an integer devarg takes, and the device they name. */
static int
test_devargs_integers(void)
{
	static const struct {
		const char *args;
		uint16_t card;
		uint16_t vhca_id;
	} t[] = {
		{ "card=0xA,vhca_id=0X3E8", 10, 1000 },
		{ "card=10,vhca_id=0x3e8", 10, 1000 },
		{ "card=0,vhca_id=0", 0, 0 },
		{ "card=0x0,vhca_id=0x0000", 0, 0 },
		{ "card=255,vhca_id=65535", 255, 65535 },
	};

	for (size_t i = 0; i < RTE_DIM(t); i++) {
		struct mlx5_common_device *cdev;
		uint16_t card = 0, vhca_id = 0;

		TEST_ASSERT_SUCCESS(sim_probe("mlx5_sim0", t[i].args), "\"%s\"",
				    t[i].args);
		cdev = sim_cdev("mlx5_sim0");
		TEST_ASSERT_NOT_NULL(cdev, "");
		TEST_ASSERT_SUCCESS(mlx5_sim_vhca_id_of_ctx(cdev->ctx, &card,
							    &vhca_id), "");
		TEST_ASSERT_EQUAL(card, t[i].card, "\"%s\"", t[i].args);
		TEST_ASSERT_EQUAL(vhca_id, t[i].vhca_id, "\"%s\"", t[i].args);
		TEST_ASSERT_EQUAL(cdev->caps.vhca_id, t[i].vhca_id, "");
		TEST_ASSERT_SUCCESS(sim_remove("mlx5_sim0"), "");
	}
	return TEST_SUCCESS;
}

static int
test_devargs_errors(void)
{
	for (size_t i = 0; i < RTE_DIM(bad_devargs); i++) {
		const char *log;
		int ret;

		mlx5_test_log_capture_start();
		ret = sim_probe("mlx5_sim0", bad_devargs[i].args);
		log = mlx5_test_log_capture_stop();
		TEST_ASSERT_EQUAL(ret, -bad_devargs[i].err, "devargs \"%s\"",
				  bad_devargs[i].args);
		TEST_ASSERT(strstr(log, bad_devargs[i].named) != NULL,
			    "the error log names \"%s\" for \"%s\"",
			    bad_devargs[i].named, bad_devargs[i].args);
		TEST_ASSERT(sim_cdev("mlx5_sim0") == NULL, "no device left");
		TEST_ASSERT(sim_eal_dev("mlx5_sim0") == NULL,
			    "no vdev left");
		/* The vHCA may not exist (bad card); if it does, it is empty. */
		TEST_ASSERT(sim_live(10, 0) <= 0, "nothing alive after \"%s\"",
			    bad_devargs[i].args);
	}
	return TEST_SUCCESS;
}

static int
test_caps_fixed_per_vhca(void)
{
	TEST_ASSERT_SUCCESS(sim_probe("mlx5_sim0", "card=3,crossing=1"), "");
	TEST_ASSERT_SUCCESS(sim_remove("mlx5_sim0"), "");
	TEST_ASSERT_EQUAL(sim_probe("mlx5_sim0", "card=3,crossing=0"), -EEXIST,
			  "capabilities of an existing vHCA cannot change");
	TEST_ASSERT_SUCCESS(sim_probe("mlx5_sim0", "card=3,crossing=1"),
			    "same capabilities are fine");
	TEST_ASSERT_SUCCESS(sim_remove("mlx5_sim0"), "");
	TEST_ASSERT_EQUAL(sim_live(3, 0), 0, "");
	return TEST_SUCCESS;
}

static bool
fd_is_open(int fd)
{
	return fcntl(fd, F_GETFD) != -1;
}

static int
test_import_ctx_pd(void)
{
	struct mlx5_common_device *a, *b;
	struct mlx5_sim_stats st;
	char args[128];
	int fd;

	TEST_ASSERT_SUCCESS(sim_probe("mlx5_sim0", "card=4,vhca_id=0"), "");
	a = sim_cdev("mlx5_sim0");
	TEST_ASSERT_NOT_NULL(a, "");
	fd = dup(a->ctx->cmd_fd);
	TEST_ASSERT(fd >= 0, "dup");
	snprintf(args, sizeof(args), "card=4,vhca_id=0,cmd_fd=%d,pd_handle=%u",
		 fd, a->pd->handle);
	TEST_ASSERT_SUCCESS(sim_probe("mlx5_sim1", args), "import");
	b = sim_cdev("mlx5_sim1");
	TEST_ASSERT_NOT_NULL(b, "");
	TEST_ASSERT(b->ctx_imported && b->pd_imported, "flags");
	TEST_ASSERT_EQUAL(b->pdn, a->pdn, "the same PD");
	TEST_ASSERT(b->ctx != a->ctx, "a context of its own");
	TEST_ASSERT_SUCCESS(mlx5_sim_vhca_stats(4, 0, &st), "");
	TEST_ASSERT_EQUAL(st.pds, 1, "the PD is shared, not duplicated");
	TEST_ASSERT_SUCCESS(sim_remove("mlx5_sim1"), "");
	TEST_ASSERT(!fd_is_open(fd), "the imported context closed its cmd_fd");
	TEST_ASSERT_SUCCESS(mlx5_sim_vhca_stats(4, 0, &st), "");
	TEST_ASSERT_EQUAL(st.pds, 1, "the imported PD was un-imported, not freed");
	TEST_ASSERT_EQUAL(st.contexts, 1, "");
	TEST_ASSERT_SUCCESS(sim_remove("mlx5_sim0"), "");
	TEST_ASSERT_EQUAL(sim_live(4, 0), 0, "");
	TEST_ASSERT_EQUAL(sim_reclaimed(4, 0), 0, "");
	return TEST_SUCCESS;
}

static int
test_import_errors(void)
{
	struct mlx5_common_device *a;
	char args[128];
	long live;
	int fd;

	TEST_ASSERT_SUCCESS(sim_probe("mlx5_sim0", "card=5,vhca_id=0"), "");
	a = sim_cdev("mlx5_sim0");
	TEST_ASSERT_NOT_NULL(a, "");
	live = sim_live(5, 0);
	fd = dup(a->ctx->cmd_fd);
	TEST_ASSERT(fd >= 0, "dup");

	/* A PD handle that does not exist. */
	snprintf(args, sizeof(args), "card=5,vhca_id=0,cmd_fd=%d,pd_handle=%u",
		 fd, a->pd->handle + 1000);
	TEST_ASSERT(sim_probe("mlx5_sim1", args) < 0, "bad pd_handle");
	TEST_ASSERT(fd_is_open(fd), "a failed probe leaves the fd to the application");
	TEST_ASSERT_EQUAL(sim_live(5, 0), live, "nothing left behind");

	/* A context of another vHCA than the one the devargs name. */
	snprintf(args, sizeof(args), "card=5,vhca_id=1,cmd_fd=%d,pd_handle=%u",
		 fd, a->pd->handle);
	TEST_ASSERT_EQUAL(sim_probe("mlx5_sim1", args), -EINVAL,
			  "cmd_fd of another device");
	TEST_ASSERT(fd_is_open(fd), "");
	TEST_ASSERT_EQUAL(sim_live(5, 0), live, "");
	TEST_ASSERT_EQUAL(sim_live(5, 1), 0, "");
	close(fd);

	/* An fd that is not a device context at all. */
	fd = open("/dev/null", O_RDONLY);
	snprintf(args, sizeof(args), "card=5,vhca_id=0,cmd_fd=%d,pd_handle=%u",
		 fd, a->pd->handle);
	TEST_ASSERT(sim_probe("mlx5_sim1", args) < 0, "not a context fd");
	close(fd);
	TEST_ASSERT_SUCCESS(sim_remove("mlx5_sim0"), "");
	TEST_ASSERT_EQUAL(sim_live(5, 0), 0, "");
	TEST_ASSERT_EQUAL(sim_reclaimed(5, 0), 0, "");
	return TEST_SUCCESS;
}

static int
test_fault_sweep(void)
{
	unsigned int failures = 0;
	char args[64];
	unsigned int n;

	for (n = 1; n <= 64; n++) {
		int ret;

		snprintf(args, sizeof(args), "card=6,fail_nth=%u", n);
		ret = sim_probe("mlx5_sim0", args);
		if (ret == 0)
			break;
		failures++;
		TEST_ASSERT(ret < 0, "negative errno");
		TEST_ASSERT(sim_cdev("mlx5_sim0") == NULL, "fail_nth=%u", n);
		TEST_ASSERT_EQUAL(sim_live(6, 0), 0,
				  "command %u failed: nothing alive", n);
		TEST_ASSERT_EQUAL(sim_reclaimed(6, 0), 0, "fail_nth=%u", n);
	}
	TEST_ASSERT(n <= 64, "the probe succeeds once faults run out");
	/* open, PD, 3 capability queries at least. */
	TEST_ASSERT(failures >= 5, "only %u commands in a probe", failures);
	printf("    probe issues %u commands; each failure was clean\n",
	       failures);
	/* The last fail_nth is still armed: disarm it before the remove. */
	TEST_ASSERT_SUCCESS(mlx5_sim_fault_clear(6, 0), "");
	TEST_ASSERT_SUCCESS(sim_remove("mlx5_sim0"), "");
	TEST_ASSERT_EQUAL(sim_live(6, 0), 0, "");
	TEST_ASSERT_EQUAL(sim_reclaimed(6, 0), 0, "remove destroyed everything");
	return TEST_SUCCESS;
}

static int
test_fault_status_errno(void)
{
	static const struct { const char *status; int err; } t[] = {
		{ "BAD_PARAM", EINVAL }, { "NO_RESOURCES", EAGAIN },
		{ "LIM", ENOMEM }, { "RES_BUSY", EBUSY }, { "INT_ERR", EIO },
		{ "0x9", EINVAL },
	};

	for (size_t i = 0; i < RTE_DIM(t); i++) {
		char args[96];
		const char *log;
		int ret;

		snprintf(args, sizeof(args),
			 "card=7,fail_cmd=QUERY_HCA_CAP,fail_status=%s",
			 t[i].status);
		mlx5_test_log_capture_start();
		ret = sim_probe("mlx5_sim0", args);
		log = mlx5_test_log_capture_stop();
		TEST_ASSERT_EQUAL(ret, -t[i].err, "status %s", t[i].status);
		TEST_ASSERT(strstr(log, "QUERY_HCA_CAP") != NULL,
			    "the log names the command");
		if (t[i].status[0] != '0')
			TEST_ASSERT(strstr(log, t[i].status) != NULL,
				    "the log names status %s", t[i].status);
		TEST_ASSERT(strstr(log, "syndrome") != NULL, "and the syndrome");
		TEST_ASSERT_EQUAL(sim_live(7, 0), 0, "");
	}
	return TEST_SUCCESS;
}

static int
test_remove_refused_destroy(void)
{
	const char *log;

	TEST_ASSERT_SUCCESS(sim_probe("mlx5_sim0", "card=8"), "");
	TEST_ASSERT_SUCCESS(mlx5_sim_fault_set(8, 0, MLX5_CMD_OP_DEALLOC_PD, 0,
					       MLX5_CMD_STAT_RES_BUSY), "");
	mlx5_test_log_capture_start();
	TEST_ASSERT_SUCCESS(sim_remove("mlx5_sim0"),
			    "remove completes when the device refuses a destroy");
	log = mlx5_test_log_capture_stop();
	TEST_ASSERT(strstr(log, "deallocating the PD failed") != NULL,
		    "the refusal is logged");
	TEST_ASSERT_SUCCESS(mlx5_sim_fault_clear(8, 0), "");
	TEST_ASSERT_EQUAL(sim_live(8, 0), 0,
			  "closing the context reclaimed the PD");
	TEST_ASSERT_EQUAL(sim_reclaimed(8, 0), 1, "and counted it");
	return TEST_SUCCESS;
}

static int
test_remove_unknown(void)
{
	struct rte_device fake = { .name = "not_ours" };

	TEST_ASSERT_EQUAL(mlx5_common_dev_remove(&fake), -ENODEV, "");
	TEST_ASSERT_EQUAL(rte_errno, ENODEV, "");
	TEST_ASSERT(mlx5_common_dev_get(&fake) == NULL, "");
	TEST_ASSERT(mlx5_common_dev_get(NULL) == NULL, "");
	return TEST_SUCCESS;
}

/* Bytes allocated from DPDK's heap, all sockets. */
static size_t
dpdk_heap_bytes(void)
{
	struct rte_malloc_socket_stats st;
	size_t total = 0;

	for (int s = 0; s < RTE_MAX_NUMA_NODES; s++)
		if (rte_malloc_get_socket_stats(s, &st) == 0)
			total += st.heap_allocsz_bytes;
	return total;
}

/*
 * What the driver allocates for a device (keys, DEVX objects, pacing
 * entries, MRs, queue MR tables) comes from DPDK's heap, or from the
 * system's with sys_mem_en=1: the heap does not grow then.
 */
static size_t
heap_growth_of_device_work(const char *args, int *err)
{
	static const uint8_t key[RTE_PMD_MLX5_ACCESS_KEY_LEN] = "sys_mem_en key";
	struct mlx5_pp_attr pp_attr = { .rate_kbps = 10000 };
	struct mlx5_common_device *cdev;
	struct mlx5_pp_entry *pp = NULL;
	struct mlx5_mr_ctrl ctrl;
	rte_iova_t cross = 0;
	size_t before, after;
	uint8_t *buf;
	uint32_t mkey = 0;
	uint16_t vhca;

	*err = -1;
	buf = aligned_alloc(4096, 8192);
	if (buf == NULL || sim_probe("mlx5_sim0", args) != 0) {
		free(buf);
		return 0;
	}
	cdev = sim_cdev("mlx5_sim0");
	before = dpdk_heap_bytes();
	if (rte_pmd_mlx5_export_mem(cdev->dev, buf, 8192, key, &vhca,
				    &mkey) == 0)
		cross = rte_pmd_mlx5_create_cross_vhca_mkey(cdev->dev, vhca,
							    mkey);
	if (mlx5_pp_alloc(cdev, &pp_attr, &pp) == 0 &&
	    mlx5_mr_ctrl_init(&ctrl, cdev, SOCKET_ID_ANY) == 0) {
		if (mlx5_mr_ext_register(cdev, buf, 8192) == 0 &&
		    mlx5_mr_addr2lkey(&ctrl, (uintptr_t)buf + 100) !=
		    MLX5_MR_LKEY_INVALID && cross != 0)
			*err = 0;
		after = dpdk_heap_bytes();
		mlx5_mr_ext_unregister(cdev, buf, 8192);
		mlx5_mr_ctrl_free(&ctrl);
	} else {
		after = dpdk_heap_bytes();
	}
	if (pp != NULL)
		mlx5_pp_free(cdev, pp);
	if (cross != 0)
		rte_pmd_mlx5_release_key(cdev->dev, cross);
	if (mkey != 0)
		rte_pmd_mlx5_release_key(cdev->dev, mkey);
	sim_remove("mlx5_sim0");
	free(buf);
	return after - before;
}

static int
test_sys_mem_en(void)
{
	size_t rte_growth, sys_growth;
	int err;

	rte_growth = heap_growth_of_device_work("card=12,vhca_id=1", &err);
	TEST_ASSERT_SUCCESS(err, "the device work succeeds");
	sys_growth = heap_growth_of_device_work("card=12,vhca_id=1,sys_mem_en=1",
						&err);
	TEST_ASSERT_SUCCESS(err, "the device work succeeds with sys_mem_en=1");
	printf("    DPDK heap growth: %zu bytes by default, %zu with sys_mem_en=1\n",
	       rte_growth, sys_growth);
	TEST_ASSERT(rte_growth > 0, "by default the driver uses DPDK's heap");
	TEST_ASSERT_EQUAL(sys_growth, 0, "sys_mem_en=1: the system heap only");
	TEST_ASSERT_EQUAL(sim_live(12, 1), 0, "");
	return TEST_SUCCESS;
}

static const struct mlx5_test_case probe_cases[] = {
	{ "sys_mem_en", test_sys_mem_en },
	{ "probe_remove", test_probe_remove },
	{ "caps_from_devargs", test_caps_from_devargs },
	{ "devargs_errors", test_devargs_errors },
	{ "devargs_integers", test_devargs_integers },
	{ "caps_fixed_per_vhca", test_caps_fixed_per_vhca },
	{ "import_ctx_pd", test_import_ctx_pd },
	{ "import_errors", test_import_errors },
	{ "fault_sweep", test_fault_sweep },
	{ "fault_status_errno", test_fault_status_errno },
	{ "remove_refused_destroy", test_remove_refused_destroy },
	{ "remove_unknown", test_remove_unknown },
	{ NULL, NULL },
};

static void
probe_case_teardown(void)
{
	/* Leave no device behind for the next case, whatever happened. */
	sim_remove("mlx5_sim1");
	sim_remove("mlx5_sim0");
}

static const struct mlx5_test_suite probe_suite = {
	.name = "probe",
	.case_teardown = probe_case_teardown,
	.cases = probe_cases,
};

MLX5_TEST_MAIN(probe_suite)
