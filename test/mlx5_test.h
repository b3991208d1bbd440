/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * A small test harness in the shape of DPDK's app/test suites: a suite has
 * setup/teardown, cases run one behaviour each, assertions say what was
 * expected. Each test program initialises EAL once (no hugepages, no PCI,
 * no shared config) and prints one line per case and a closing
 * "N passed, N failed, N skipped" line; its exit code is non-zero on failure.
 */

#ifndef MLX5_TEST_H_
#define MLX5_TEST_H_

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_errno.h>

/*
 * Running under valgrind's memcheck (MLX5_TEST_VALGRIND, set by the
 * valgrind test setup): cases that make the device touch memory the
 * process unmapped or protected skip there, memcheck reporting the access
 * before the device's fault guard runs.
 */
static inline bool
mlx5_test_under_valgrind(void)
{
	return getenv("MLX5_TEST_VALGRIND") != NULL;
}

#define TEST_SUCCESS 0
#define TEST_FAILED (-1)
#define TEST_SKIPPED 77

#define TEST_ASSERT(cond, fmt, ...) do { \
	if (!(cond)) { \
		printf("    %s:%d: assertion failed: %s: " fmt "\n", \
		       __func__, __LINE__, #cond, ##__VA_ARGS__); \
		return TEST_FAILED; \
	} \
} while (0)

#define TEST_ASSERT_EQUAL(a, b, fmt, ...) do { \
	long long a__ = (long long)(a), b__ = (long long)(b); \
	if (a__ != b__) { \
		printf("    %s:%d: expected %s == %s, got %lld != %lld: " fmt "\n", \
		       __func__, __LINE__, #a, #b, a__, b__, ##__VA_ARGS__); \
		return TEST_FAILED; \
	} \
} while (0)

#define TEST_ASSERT_SUCCESS(expr, fmt, ...) do { \
	long long r__ = (long long)(expr); \
	if (r__ != 0) { \
		printf("    %s:%d: %s returned %lld (rte_errno %d: %s): " fmt "\n", \
		       __func__, __LINE__, #expr, r__, rte_errno, \
		       rte_strerror(rte_errno), ##__VA_ARGS__); \
		return TEST_FAILED; \
	} \
} while (0)

#define TEST_ASSERT_NOT_NULL(p, fmt, ...) \
	TEST_ASSERT((p) != NULL, fmt " (rte_errno %d: %s)", ##__VA_ARGS__, \
		    rte_errno, rte_strerror(rte_errno))

#define TEST_SKIP(fmt, ...) do { \
	printf("    skipped: " fmt "\n", ##__VA_ARGS__); \
	return TEST_SKIPPED; \
} while (0)

struct mlx5_test_case {
	const char *name;
	int (*fn)(void);
};

struct mlx5_test_suite {
	const char *name;
	int (*setup)(void);     /* Once, after EAL init; may be NULL. */
	void (*teardown)(void); /* Once, at the end; may be NULL. */
	int (*case_setup)(void);     /* Before each case; may be NULL. */
	void (*case_teardown)(void); /* After each case; may be NULL. */
	const struct mlx5_test_case *cases; /* Ends with { NULL, NULL }. */
};

/* Run @suite with EAL initialised from the default test arguments. */
int mlx5_test_run(const struct mlx5_test_suite *suite, int argc, char **argv);

/* Start capturing log output (to check that errors are named). */
void mlx5_test_log_capture_start(void);
/* Stop capturing; returns the captured text (valid until the next start). */
const char *mlx5_test_log_capture_stop(void);

#define MLX5_TEST_MAIN(suite) \
	int main(int argc, char **argv) \
	{ \
		return mlx5_test_run(&(suite), argc, argv); \
	}

#endif /* MLX5_TEST_H_ */
