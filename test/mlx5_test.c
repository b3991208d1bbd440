/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <rte_eal.h>
#include <rte_log.h>

#include "mlx5_test.h"
#include "mlx5_test_dev.h"

static char *log_buf;
static size_t log_len;
static FILE *log_stream;

void
mlx5_test_log_capture_start(void)
{
	if (log_stream != NULL)
		fclose(log_stream);
	free(log_buf);
	log_buf = NULL;
	log_len = 0;
	log_stream = open_memstream(&log_buf, &log_len);
	rte_openlog_stream(log_stream);
}

const char *
mlx5_test_log_capture_stop(void)
{
	rte_openlog_stream(NULL);
	if (log_stream != NULL) {
		fclose(log_stream);
		log_stream = NULL;
	}
	/* Echo what was captured, so failures stay readable. */
	if (log_buf != NULL && log_len > 0)
		fputs(log_buf, stderr);
	return log_buf != NULL ? log_buf : "";
}

int
mlx5_test_run(const struct mlx5_test_suite *suite, int argc, char **argv)
{
	char prefix[64];
	/* --no-pci, or -a pairs for real devices (MLX5_TEST_DEVICE). */
	char *eal_args[20] = {
		argv[0], "--no-huge", "-m", "256", "--no-shconf",
		"-l", "0", "--file-prefix", prefix,
		"--log-level", "pmd.common.mlx5*:info",
	};
	int eal_argc = 11;
	unsigned int passed = 0, failed = 0, skipped = 0;
	int ret;

	(void)argc;
	snprintf(prefix, sizeof(prefix), "mlx5test%d", (int)getpid());
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (tdev_env_init() != 0)
		return 1;
	eal_argc += tdev_eal_args(&eal_args[eal_argc]);
	ret = rte_eal_init(eal_argc, eal_args);
	if (ret < 0) {
		printf("%s: EAL init failed: %s\n", suite->name,
		       rte_strerror(rte_errno));
		return 1;
	}
	tdev_eal_ready();
	printf("suite %s%s%s\n", suite->name, tdev_hw() ? " on " : "",
	       tdev_hw() ? tdev_name(0) : "");
	if (suite->setup != NULL && suite->setup() != TEST_SUCCESS) {
		printf("%s: suite setup failed\n", suite->name);
		rte_eal_cleanup();
		return 1;
	}
	for (const struct mlx5_test_case *tc = suite->cases; tc->name; tc++) {
		printf("  case %s ...\n", tc->name);
		ret = suite->case_setup != NULL ? suite->case_setup() :
		      TEST_SUCCESS;
		if (ret == TEST_SKIPPED) {
			/* The setup said why; there is nothing to tear down. */
			printf("  case %s: skipped\n", tc->name);
			skipped++;
			continue;
		}
		if (ret != TEST_SUCCESS) {
			printf("  case %s: FAILED (case setup)\n", tc->name);
			failed++;
			continue;
		}
		ret = tc->fn();
		if (suite->case_teardown != NULL)
			suite->case_teardown();
		if (ret == TEST_SUCCESS) {
			printf("  case %s: passed\n", tc->name);
			passed++;
		} else if (ret == TEST_SKIPPED) {
			printf("  case %s: skipped\n", tc->name);
			skipped++;
		} else {
			printf("  case %s: FAILED\n", tc->name);
			failed++;
		}
	}
	if (suite->teardown != NULL)
		suite->teardown();
	rte_eal_cleanup();
	printf("%s: %u passed, %u failed, %u skipped\n", suite->name, passed,
	       failed, skipped);
	return failed ? 1 : 0;
}
