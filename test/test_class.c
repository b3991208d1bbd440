/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * Class-driver dispatch: a class driver registered with the common layer is
 * probed for the classes named by class=, takes its own devargs, can fail
 * the probe (and then nothing is left), and is removed with the device.
 */

#include "mlx5_test.h"
#include "mlx5_test_sim.h"

static struct {
	unsigned int probes;
	unsigned int removes;
	unsigned int removes_listed; /* Removes that found the device listed. */
	uint64_t queues;
	bool fail;
	struct mlx5_common_device *cdev;
} fake;

static int
fake_arg(const char *key, const char *value, void *opaque)
{
	(void)opaque;
	if (strcmp(key, "fake_queues") == 0)
		return mlx5_kvarg_parse_u64(key, value, 64, &fake.queues);
	if (strcmp(key, "fake_fail") == 0) {
		uint64_t v;
		int ret = mlx5_kvarg_parse_u64(key, value, 1, &v);

		fake.fail = v;
		return ret;
	}
	return -EINVAL;
}

static int
fake_probe(struct mlx5_common_device *cdev, struct mlx5_kvargs_ctrl *kv)
{
	static const char *const keys[] = { "fake_queues", "fake_fail", NULL };
	int ret;

	fake.queues = 1;
	fake.fail = false;
	ret = mlx5_kvargs_process(kv, keys, fake_arg, NULL);
	if (ret)
		return ret;
	if (fake.fail)
		return -EIO;
	/* A class driver has the context, the PD and the caps to work with. */
	if (cdev->ctx == NULL || cdev->pd == NULL)
		return -EINVAL;
	/* And finds its device without deadlocking on the device list. */
	if (mlx5_common_dev_get(cdev->dev) != cdev)
		return -ENODEV;
	fake.probes++;
	fake.cdev = cdev;
	return 0;
}

static int
fake_remove(struct mlx5_common_device *cdev)
{
	if (cdev != fake.cdev)
		return -EINVAL;
	/* The contract: the device is complete but no longer listed. */
	if (cdev->ctx == NULL || cdev->pd == NULL)
		return -EINVAL;
	if (mlx5_common_dev_get(cdev->dev) != NULL)
		fake.removes_listed++;
	fake.removes++;
	fake.cdev = NULL;
	return 0;
}

static struct mlx5_class_driver fake_crypto = {
	.drv_class = MLX5_CLASS_CRYPTO,
	.name = "fake_crypto",
	.probe = fake_probe,
	.remove = fake_remove,
};

static int
class_setup(void)
{
	mlx5_class_driver_register(&fake_crypto);
	return TEST_SUCCESS;
}

static void
class_case_teardown(void)
{
	sim_remove("mlx5_sim0");
	memset(&fake, 0, sizeof(fake));
}

static int
test_dispatch(void)
{
	struct mlx5_common_device *cdev;

	TEST_ASSERT_SUCCESS(sim_probe("mlx5_sim0",
		"card=60,class=crypto,fake_queues=8"), "");
	cdev = sim_cdev("mlx5_sim0");
	TEST_ASSERT_NOT_NULL(cdev, "");
	TEST_ASSERT_EQUAL(fake.probes, 1, "the crypto class driver probed");
	TEST_ASSERT(fake.cdev == cdev, "with the common device");
	TEST_ASSERT_EQUAL(fake.queues, 8, "its own devarg reached it");
	TEST_ASSERT_SUCCESS(sim_remove("mlx5_sim0"), "");
	TEST_ASSERT_EQUAL(fake.removes, 1, "removed with the device");
	TEST_ASSERT_EQUAL(fake.removes_listed, 0, "unlisted before remove");
	TEST_ASSERT_EQUAL(sim_live(60, 0), 0, "");
	return TEST_SUCCESS;
}

static int
test_not_requested(void)
{
	TEST_ASSERT_SUCCESS(sim_probe("mlx5_sim0", "card=60,class=eth"), "");
	TEST_ASSERT_EQUAL(fake.probes, 0, "class=eth does not probe crypto");
	TEST_ASSERT_SUCCESS(sim_remove("mlx5_sim0"), "");
	TEST_ASSERT_EQUAL(fake.removes, 0, "");
	/* The class driver's keys are unknown when it does not probe. */
	TEST_ASSERT_EQUAL(sim_probe("mlx5_sim0", "card=60,class=eth,fake_queues=2"),
			  -EINVAL, "");
	TEST_ASSERT_EQUAL(sim_live(60, 0), 0, "");
	return TEST_SUCCESS;
}

static int
test_class_failure(void)
{
	TEST_ASSERT_EQUAL(sim_probe("mlx5_sim0", "card=60,class=crypto,fake_fail=1"),
			  -EIO, "the class driver's error comes back");
	TEST_ASSERT(sim_cdev("mlx5_sim0") == NULL, "no device left");
	TEST_ASSERT_EQUAL(fake.removes, 0, "a failed class is not removed");
	TEST_ASSERT_EQUAL(sim_live(60, 0), 0, "nothing alive");
	TEST_ASSERT_EQUAL(sim_probe("mlx5_sim0",
		"card=60,class=crypto,fake_queues=65"), -EINVAL,
		"a bad value of a class devarg");
	TEST_ASSERT_EQUAL(sim_live(60, 0), 0, "");
	return TEST_SUCCESS;
}

static int
test_unknown_after_class(void)
{
	TEST_ASSERT_EQUAL(sim_probe("mlx5_sim0",
		"card=60,class=crypto,fake_queues=2,bogus=1"), -EINVAL, "");
	TEST_ASSERT_EQUAL(fake.probes, 1, "the class probed first...");
	TEST_ASSERT_EQUAL(fake.removes, 1, "...and was removed on the error");
	TEST_ASSERT_EQUAL(fake.removes_listed, 0, "unlisted before remove");
	TEST_ASSERT(sim_cdev("mlx5_sim0") == NULL, "");
	TEST_ASSERT_EQUAL(sim_live(60, 0), 0, "");
	return TEST_SUCCESS;
}

static const struct mlx5_test_case class_cases[] = {
	{ "dispatch", test_dispatch },
	{ "not_requested", test_not_requested },
	{ "class_failure", test_class_failure },
	{ "unknown_after_class", test_unknown_after_class },
	{ NULL, NULL },
};

static const struct mlx5_test_suite class_suite = {
	.name = "class",
	.setup = class_setup,
	.case_teardown = class_case_teardown,
	.cases = class_cases,
};

MLX5_TEST_MAIN(class_suite)
