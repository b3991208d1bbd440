/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * Telemetry endpoints (/mlx5/..., mlx5_common_telemetry.c) through DPDK's
 * own telemetry socket, as dpdk-telemetry.py reads them: this process's
 * EAL serves the socket, the suite connects to it and checks the JSON
 * answers against what the devices hold (vHCA ids, keys, pacing entries,
 * queues), the error answers of bad input, and that answers stay sane
 * while a device is removed and probed again under a reader's feet.
 */

#include <pthread.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <rte_eal.h>
#include <rte_pmd_mlx5.h>

#include <mlx5_common_devx.h>
#include <mlx5_common_mr.h>
#include <mlx5_common_pp.h>

#include "mlx5_test.h"
#include "mlx5_test_dev.h"

#define CARD 53
#define VHCA0 5
#define VHCA1 6
#define TEL_MAX_OUT (16 * 1024)

static char answer[TEL_MAX_OUT + 1];
static int tel_fd = -1;

/* Connect to this process's telemetry socket; -1 when there is none. */
static int
tel_connect(void)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	char hello[1024];
	int fd;

	snprintf(addr.sun_path, sizeof(addr.sun_path), "%s/dpdk_telemetry.v2",
		 rte_eal_get_runtime_dir());
	fd = socket(AF_UNIX, SOCK_SEQPACKET, 0);
	if (fd < 0)
		return -1;
	if (connect(fd, (struct sockaddr *)&addr, sizeof(addr)) != 0 ||
	    recv(fd, hello, sizeof(hello), 0) <= 0) {
		close(fd);
		return -1;
	}
	return fd;
}

/* Send @cmd on @fd; the answer in @buf (NUL-terminated), NULL on error. */
static const char *
tel_ask(int fd, const char *cmd, char *buf, size_t size)
{
	ssize_t n;

	if (send(fd, cmd, strlen(cmd), 0) < 0)
		return NULL;
	n = recv(fd, buf, size - 1, 0);
	if (n <= 0)
		return NULL;
	buf[n] = '\0';
	return buf;
}

static const char *tel(const char *fmt, ...) __rte_format_printf(1, 2);

static const char *
tel(const char *fmt, ...)
{
	char cmd[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	if (tel_ask(tel_fd, cmd, answer, sizeof(answer)) == NULL)
		return "";
	return answer;
}

/* Assert that the last answer holds @text. */
#define TEL_HAS(text) \
	TEST_ASSERT(strstr(answer, (text)) != NULL, "expected %s in %s", \
		    (text), answer)
#define TEL_HASNT(text) \
	TEST_ASSERT(strstr(answer, (text)) == NULL, "did not expect %s in %s", \
		    (text), answer)

static int
tel_setup(void)
{
	tel_fd = tel_connect();
	if (tel_fd < 0)
		printf("    no telemetry socket in %s: EAL telemetry disabled?\n",
		       rte_eal_get_runtime_dir());
	return TEST_SUCCESS;
}

static void
tel_teardown(void)
{
	if (tel_fd >= 0)
		close(tel_fd);
	tel_fd = -1;
}

static int
tel_case_setup(void)
{
	char args[64];

	if (tel_fd < 0)
		TEST_SKIP("no telemetry socket (EAL without telemetry)");
	snprintf(args, sizeof(args), "card=%d,vhca_id=%d", CARD, VHCA0);
	if (tdev_probe(0, args) != 0)
		return TEST_FAILED;
	snprintf(args, sizeof(args), "card=%d,vhca_id=%d", CARD, VHCA1);
	if (tdev_probe(1, args) != 0)
		return TEST_FAILED;
	return TEST_SUCCESS;
}

static void
tel_case_teardown(void)
{
	tdev_remove_all();
}

static int
test_devices(void)
{
	char want[128];

	tel("/mlx5/devices");
	snprintf(want, sizeof(want), "{\"/mlx5/devices\":[\"%s\",\"%s\"]}",
		 tdev_name(0), tdev_name(1));
	TEST_ASSERT(strcmp(answer, want) == 0, "expected %s, got %s", want,
		    answer);
	tdev_remove(1);
	tel("/mlx5/devices");
	TEL_HAS(tdev_name(0));
	TEL_HASNT(tdev_name(1));
	/* Listed among the commands, with their help. */
	tel("/");
	TEL_HAS("\"/mlx5/queues\"");
	tel("/help,/mlx5/keys");
	TEL_HAS("<device>[,<first>]");
	return TEST_SUCCESS;
}

static int
test_device(void)
{
	struct mlx5_common_device *cdev = tdev_cdev(1);
	char want[64];

	tel("/mlx5/device,%s", tdev_name(1));
	snprintf(want, sizeof(want), "\"name\":\"%s\"", tdev_name(1));
	TEL_HAS(want);
	snprintf(want, sizeof(want), "\"vhca_id\":%u", cdev->caps.vhca_id);
	TEL_HAS(want);
	if (!tdev_hw()) {
		snprintf(want, sizeof(want), "\"vhca_id\":%d", VHCA1);
		TEL_HAS(want);
		TEL_HAS("\"backend\":\"sim\"");
	}
	snprintf(want, sizeof(want), "\"pdn\":%u", cdev->pdn);
	TEL_HAS(want);
	snprintf(want, sizeof(want), "\"crossing_vhca_mkey\":%d",
		 cdev->caps.crossing_vhca_mkey);
	TEL_HAS(want);
	snprintf(want, sizeof(want), "\"rate_table_size\":%u",
		 cdev->caps.qos.rate_table_size);
	TEL_HAS(want);
	TEL_HAS("\"crypto\":{");
	TEL_HAS("\"eth\":{");
	TEL_HAS("\"ports\":{\"1\":{\"up\":");
	return TEST_SUCCESS;
}

static int
test_mrs(void)
{
	struct mlx5_common_device *cdev = tdev_cdev(0);
	static uint8_t buf[8192];
	struct mlx5_mr_stats st;
	char want[64];

	TEST_ASSERT_SUCCESS(mlx5_mr_ext_register(cdev, buf, sizeof(buf)), "");
	TEST_ASSERT_SUCCESS(mlx5_mr_stats(cdev, &st), "");
	tel("/mlx5/mrs,%s", tdev_name(0));
	snprintf(want, sizeof(want), "{\"/mlx5/mrs\":{\"mrs\":%u,", st.mrs);
	TEL_HAS(want);
	snprintf(want, sizeof(want), "\"created\":%" PRIu64, st.created);
	TEL_HAS(want);
	TEST_ASSERT_SUCCESS(mlx5_mr_ext_unregister(cdev, buf, sizeof(buf)), "");
	return TEST_SUCCESS;
}

static int
test_keys(void)
{
	static const uint8_t key[RTE_PMD_MLX5_ACCESS_KEY_LEN] =
		"telemetry shows no access key..";
	struct rte_device *host = tdev_eal_dev(0), *dpu = tdev_eal_dev(1);
	uint8_t *buf = aligned_alloc(4096, 8192);
	rte_iova_t cross = 0;
	char want[96];
	uint16_t vhca;
	uint32_t mkey;
	int ret = TEST_FAILED;

	TEST_ASSERT_NOT_NULL(buf, "");
	memset(buf, 0, 8192);
	tel("/mlx5/keys,%s", tdev_name(0));
	TEL_HAS("\"count\":0");
	if (rte_pmd_mlx5_export_mem(host, buf, 8192, key, &vhca, &mkey) != 0) {
		printf("    export refused: rte_errno %d\n", rte_errno);
		goto out;
	}
	cross = rte_pmd_mlx5_create_cross_vhca_mkey(dpu, vhca, mkey);
	if (cross == 0) {
		printf("    crossing mkey refused: rte_errno %d\n", rte_errno);
		goto out;
	}
	tel("/mlx5/keys,%s", tdev_name(0));
	if (strstr(answer,
		   "\"count\":1,\"first\":0,\"shown\":1,\"exported\":1,\"imported\":0") ==
	    NULL)
		goto bad;
	snprintf(want, sizeof(want),
		 "\"mkey\":%u,\"kind\":\"export\",\"refcnt\":1,\"va\":%" PRIuPTR
		 ",\"len\":8192",
		 mkey, (uintptr_t)buf);
	if (strstr(answer, want) == NULL)
		goto bad;
	/* The access key is a secret: never shown. */
	if (strstr(answer, "access") != NULL)
		goto bad;
	tel("/mlx5/keys,%s", tdev_name(1));
	if (strstr(answer, "\"exported\":0,\"imported\":1") == NULL)
		goto bad;
	snprintf(
		want, sizeof(want),
		"\"mkey\":%u,\"kind\":\"crossing\",\"refcnt\":1,\"remote_vhca_id\":%u,\"remote_mkey\":%u",
		rte_pmd_mlx5_iova_to_mkey(cross), vhca, mkey);
	if (strstr(answer, want) == NULL)
		goto bad;
	/* A page past the end: the count, nothing shown. */
	tel("/mlx5/keys,%s,1", tdev_name(1));
	if (strstr(answer, "\"count\":1,\"first\":1,\"shown\":0") == NULL ||
	    strstr(answer, "\"keys\":{}") == NULL)
		goto bad;
	ret = TEST_SUCCESS;
	goto out;
bad:
	printf("    unexpected answer: %s\n", answer);
out:
	if (cross != 0)
		rte_pmd_mlx5_release_key(dpu, cross);
	if (ret == TEST_SUCCESS || cross != 0)
		rte_pmd_mlx5_release_key(host, mkey);
	free(buf);
	if (ret == TEST_SUCCESS) {
		tel("/mlx5/keys,%s", tdev_name(1));
		TEL_HAS("\"count\":0");
	}
	return ret;
}

static int
test_pp(void)
{
	struct mlx5_common_device *cdev = tdev_cdev(0);
	const struct mlx5_hca_qos_attr *qos = &cdev->caps.qos;
	struct mlx5_pp_entry *e[70];
	struct mlx5_pp_attr attr = { .dedicated = true };
	unsigned int n = 0, i;
	char want[96];
	int ret = TEST_SUCCESS;

	if (!qos->packet_pacing || qos->rate_table_size < 72)
		TEST_SKIP("device %s: no pacing table of 72 entries",
			  tdev_name(0));
	attr.rate_kbps = qos->min_rate_kbps;
	for (n = 0; n < RTE_DIM(e); n++)
		if (mlx5_pp_alloc(cdev, &attr, &e[n]) != 0)
			break;
	if (n != RTE_DIM(e)) {
		printf("    pacing entry %u refused\n", n);
		ret = TEST_FAILED;
		goto out;
	}
	tel("/mlx5/pp,%s", tdev_name(0));
	snprintf(want, sizeof(want),
		 "\"count\":70,\"first\":0,\"shown\":64,\"rate_table_size\":%u",
		 qos->rate_table_size);
	if (strstr(answer, want) == NULL)
		goto bad;
	snprintf(want, sizeof(want), "\"0\":{\"index\":%u,\"rate_kbps\":%u,",
		 e[0]->index, attr.rate_kbps);
	if (strstr(answer, want) == NULL ||
	    strstr(answer, "\"63\":{") == NULL ||
	    strstr(answer, "\"64\":{") != NULL)
		goto bad;
	tel("/mlx5/pp,%s,64", tdev_name(0));
	snprintf(want, sizeof(want), "\"69\":{\"index\":%u,", e[69]->index);
	if (strstr(answer, "\"count\":70,\"first\":64,\"shown\":6") == NULL ||
	    strstr(answer, want) == NULL ||
	    strstr(answer, "\"63\":{") != NULL ||
	    strstr(answer, "\"dedicated\":1") == NULL)
		goto bad;
	goto out;
bad:
	printf("    unexpected answer: %s\n", answer);
	ret = TEST_FAILED;
out:
	for (i = 0; i < n; i++)
		mlx5_pp_free(cdev, e[i]);
	return ret;
}

static int
test_queues(void)
{
	struct mlx5_common_device *cdev = tdev_cdev(0);
	struct mlx5_devx_cq cq;
	struct mlx5_uar uar;
	char want[96];
	int ret = TEST_FAILED;

	tel("/mlx5/queues,%s", tdev_name(0));
	TEL_HAS("\"class_devices\":{},\"count\":0");
	TEST_ASSERT_SUCCESS(mlx5_uar_prepare(cdev, &uar), "");
	if (mlx5_devx_cq_create(cdev, &cq, 6, &uar, SOCKET_ID_ANY) != 0) {
		mlx5_uar_release(cdev, &uar);
		TEST_ASSERT(false, "CQ refused: rte_errno %d", rte_errno);
	}
	mlx5_class_dev_info_add(cdev, MLX5_CLASS_ETH, "ethdev", "port_x", 7);
	tel("/mlx5/queues,%s", tdev_name(0));
	snprintf(
		want, sizeof(want),
		"\"queues\":{\"0\":{\"type\":\"cq\",\"id\":%u,\"log_size\":6}}",
		cq.obj->id);
	if (strstr(answer, want) == NULL ||
	    strstr(answer,
		   "\"class_devices\":{\"0\":{\"class\":\"eth\",\"kind\":\"ethdev\",\"name\":\"port_x\",\"id\":7}}") ==
		    NULL)
		goto bad;
	mlx5_class_dev_info_del(cdev, MLX5_CLASS_ETH, 7);
	mlx5_class_dev_info_del(cdev, MLX5_CLASS_ETH, 7); /* No-op. */
	mlx5_devx_cq_destroy(&cq);
	tel("/mlx5/queues,%s", tdev_name(0));
	if (strstr(answer, "\"class_devices\":{},\"count\":0") == NULL)
		goto bad;
	ret = TEST_SUCCESS;
	goto out;
bad:
	printf("    unexpected answer: %s\n", answer);
	mlx5_class_dev_info_del(cdev, MLX5_CLASS_ETH, 7);
	mlx5_devx_cq_destroy(&cq);
out:
	mlx5_uar_release(cdev, &uar);
	return ret;
}

/* Left behind by a class driver: dropped at removal (valgrind checks). */
static int
test_left_behind(void)
{
	mlx5_class_dev_info_add(
		tdev_cdev(1), MLX5_CLASS_CRYPTO, "cryptodev",
		"a name of more than the sixty-three characters kept for it: XXXXXXXXXXXXXXXXXXXX",
		3);
	tel("/mlx5/queues,%s", tdev_name(1));
	TEL_HAS("\"kind\":\"cryptodev\"");
	TEL_HAS("\"id\":3");
	TEL_HAS("kept for it: XXX\"");
	TEL_HASNT("XXXXXXXXXXXXXXXXXXXX");
	TEST_ASSERT_SUCCESS(tdev_remove(1), "");
	return TEST_SUCCESS;
}

static int
test_bad_input(void)
{
	static const char *const cases[][2] = {
		{ "/mlx5/device",
		  "\"error\":\"usage: /mlx5/device,<device> (names: /mlx5/devices)\"" },
		{ "/mlx5/device,", "\"error\":\"usage: /mlx5/device,<device>" },
		{ "/mlx5/keys",
		  "\"error\":\"usage: /mlx5/keys,<device>[,<first>]" },
		{ "/mlx5/device,nosuch",
		  "\"error\":\"no mlx5 device \\\"nosuch\\\"" },
		{ "/mlx5/mrs,nosuch",
		  "\"error\":\"no mlx5 device \\\"nosuch\\\"" },
		{ "/mlx5/device,a\xff\x01z",
		  "\"error\":\"no mlx5 device \\\"a??z\\\"" },
		{ "/mlx5/devices,x",
		  "\"error\":\"/mlx5/devices takes no parameter\"" },
		{ "/mlx5/pp,,5", "\"error\":\"bad device name" },
	};
	char cmd[512];
	unsigned int i;

	for (i = 0; i < RTE_DIM(cases); i++) {
		tel("%s", cases[i][0]);
		TEST_ASSERT(strstr(answer, cases[i][1]) != NULL,
			    "%s: expected %s in %s", cases[i][0], cases[i][1],
			    answer);
	}
	tel("/mlx5/mrs,%s,1", tdev_name(0));
	TEL_HAS("\"error\":\"/mlx5/mrs takes one parameter, the device name\"");
	tel("/mlx5/keys,%s,-1", tdev_name(0));
	TEL_HAS("\"error\":\"bad <first> \\\"-1\\\": a decimal entry number\"");
	tel("/mlx5/keys,%s,12x", tdev_name(0));
	TEL_HAS("\"error\":\"bad <first>");
	tel("/mlx5/queues,%s,99999999999", tdev_name(0));
	TEL_HAS("\"error\":\"bad <first>");
	tel("/mlx5/queues,%s,", tdev_name(0));
	TEL_HAS("\"error\":\"bad <first>");
	/* A name longer than any device name. */
	memset(cmd, 'n', sizeof(cmd) - 1);
	cmd[sizeof(cmd) - 1] = '\0';
	memcpy(cmd, "/mlx5/pp,", 9);
	tel("%s", cmd);
	TEL_HAS("\"error\":\"bad device name");
	/* The socket still answers. */
	tel("/mlx5/devices");
	TEL_HAS(tdev_name(0));
	return TEST_SUCCESS;
}

/* A reader on its own connection, while the main thread removes/probes. */
static volatile bool race_stop;
static unsigned int race_answers, race_errors;

static void *
race_reader(void *arg)
{
	static const char *const cmds[] = {
		"/mlx5/device,", "/mlx5/keys,",	  "/mlx5/mrs,",
		"/mlx5/pp,",	 "/mlx5/queues,",
	};
	const char *name = arg;
	char buf[TEL_MAX_OUT + 1], cmd[128];
	int fd = tel_connect();
	unsigned int i = 0;

	if (fd < 0)
		return NULL;
	while (!__atomic_load_n(&race_stop, __ATOMIC_RELAXED)) {
		snprintf(cmd, sizeof(cmd), "%s%s", cmds[i++ % RTE_DIM(cmds)],
			 name);
		if (tel_ask(fd, cmd, buf, sizeof(buf)) == NULL)
			break;
		if (strstr(buf, "\"error\":\"no mlx5 device") != NULL)
			race_errors++;
		else if (buf[0] == '{' && strstr(buf, ": null}") == NULL)
			race_answers++;
	}
	close(fd);
	return NULL;
}

static int
test_removal_race(void)
{
	char args[64], name[64];
	pthread_t t;
	int i;

	TDEV_SIM_ONLY("probes and removes the device in a loop");
	rte_strscpy(name, tdev_name(1), sizeof(name));
	snprintf(args, sizeof(args), "card=%d,vhca_id=%d", CARD, VHCA1);
	race_stop = false;
	race_answers = 0;
	race_errors = 0;
	TEST_ASSERT_SUCCESS(pthread_create(&t, NULL, race_reader, name), "");
	for (i = 0; i < 20; i++) {
		TEST_ASSERT_SUCCESS(tdev_remove(1), "removal %d", i);
		usleep(5000);
		TEST_ASSERT_SUCCESS(tdev_probe(1, args), "probe %d", i);
		usleep(2000);
	}
	__atomic_store_n(&race_stop, true, __ATOMIC_RELAXED);
	pthread_join(t, NULL);
	printf("    %u answers, %u \"no device\" answers during 20 removals\n",
	       race_answers, race_errors);
	TEST_ASSERT(race_answers > 0, "the reader got answers");
	return TEST_SUCCESS;
}

static const struct mlx5_test_case cases[] = {
	{ "devices", test_devices },
	{ "device", test_device },
	{ "mrs", test_mrs },
	{ "keys", test_keys },
	{ "pp", test_pp },
	{ "queues", test_queues },
	{ "left_behind", test_left_behind },
	{ "bad_input", test_bad_input },
	{ "removal_race", test_removal_race },
	{ NULL, NULL },
};

static const struct mlx5_test_suite suite = {
	.name = "telemetry",
	.setup = tel_setup,
	.teardown = tel_teardown,
	.case_setup = tel_case_setup,
	.case_teardown = tel_case_teardown,
	.cases = cases,
};

MLX5_TEST_MAIN(suite)
