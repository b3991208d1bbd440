/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * The device a backend-contract suite runs on.
 *
 * By default a case's devices are software devices: slot N is the vdev
 * "mlx5_sim<N>", probed with the device shape the case asks for. When the
 * environment names real devices, slots 0 and 1 are those devices instead:
 *
 *   MLX5_TEST_DEVICE   slot 0: a PCI address (0000:08:00.0), an auxiliary
 *                      device (auxiliary:mlx5_core.sf.2) or an RDMA device
 *                      name (mlx5_0, resolved through sysfs);
 *   MLX5_TEST_DEVICE2  slot 1, the same forms: another function of the same
 *                      card, for the cross-vHCA cases.
 *
 * MLX5_TEST_DEVICE=emulate takes two software devices (vHCAs 1 and 2 of
 * card 240) for real ones: the paths for real devices run, and are tested,
 * on a machine without one.
 *
 * On a real device the shape arguments are ignored (the device is what it
 * is), capabilities decide what runs (a case skips and says which
 * capability is missing), and what only the software device can do (fault
 * injection, device settings, live-object counts) is skipped or not
 * checked, as each case says.
 */

#ifndef MLX5_TEST_DEV_H_
#define MLX5_TEST_DEV_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <mlx5_common.h>

#include "mlx5_test.h"

#define TDEV_SLOTS 4

/* A live count the device does not give (real devices). */
#define TDEV_UNCOUNTED (-2L)

/*
 * Read MLX5_TEST_DEVICE/MLX5_TEST_DEVICE2 (once, before EAL init).
 * Returns 0, or a negative errno with a message printed when a variable
 * names nothing usable.
 */
int tdev_env_init(void);
/* True when slot 0 is a real device. */
bool tdev_hw(void);
/* True when @slot is a real device. */
bool tdev_slot_hw(unsigned int slot);
/*
 * EAL arguments for the devices: "--no-pci", or "-a", address pairs for
 * real ones, written into @argv (room for 4 entries); returns how many.
 */
int tdev_eal_args(char **argv);
/* After EAL init: take back what EAL probed, so cases start clean. */
void tdev_eal_ready(void);

/*
 * Probe slot @slot; @sim_args is the software device's shape (ignored on a
 * real device). 0 or a negative errno.
 */
int tdev_probe(unsigned int slot, const char *sim_args);
/* Remove slot @slot; 0, or a negative errno (-ENODEV when not probed). */
int tdev_remove(unsigned int slot);
/* Remove every slot that is probed. */
void tdev_remove_all(void);
/* The EAL device / common device of a probed slot, or NULL. */
struct rte_device *tdev_eal_dev(unsigned int slot);
struct mlx5_common_device *tdev_cdev(unsigned int slot);
/* The name a slot is probed under (vdev name or device address). */
const char *tdev_name(unsigned int slot);

/*
 * Everything alive in the vHCA of @slot as last probed (objects and
 * contexts), which stays readable after the removal; TDEV_UNCOUNTED on a
 * real device, -1 if the slot was never probed.
 */
long tdev_live(unsigned int slot);

/*
 * The device reads (@to_memory false) or writes @len bytes at @addr
 * through key @key, as a queue of PD @pdn would. On the software device
 * this is its DMA entry point (errno per failed check); on a real device
 * the key is the local key of an RDMA on a loopback QP (-EIO on an error
 * completion; a @pdn other than the device's own gets a QP on a PD of its
 * own). @cqe_syndrome gets the error completion's syndrome. Returns 0 or
 * a negative errno. The slot's device is the one last probed (looked up
 * once, at the probe, not on the bus at each call).
 */
int tdev_access(unsigned int slot, uint32_t pdn, uint32_t key, uint64_t addr,
		void *buf, size_t len, bool to_memory, uint8_t *cqe_syndrome);

/* Skip the case on a real device: what it needs is the software device's. */
#define TDEV_SIM_ONLY(why) do { \
	if (tdev_hw()) \
		TEST_SKIP("needs the software device: %s", why); \
} while (0)

/* Skip the case unless slot 1 is usable (two vHCAs of one card). */
#define TDEV_NEED_SLOT1() do { \
	if (tdev_hw() && !tdev_slot_hw(1)) \
		TEST_SKIP("needs MLX5_TEST_DEVICE2 (a second vHCA of the card)"); \
} while (0)

/* Assert a live count where the device gives one. */
#define TDEV_ASSERT_LIVE(slot, expected, fmt, ...) do { \
	long live__ = tdev_live(slot); \
	if (live__ != TDEV_UNCOUNTED) \
		TEST_ASSERT_EQUAL(live__, (expected), fmt, ##__VA_ARGS__); \
} while (0)

#endif /* MLX5_TEST_DEV_H_ */
