/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * The device's view of the process's memory.
 *
 * Registration: the kernel pins the pages of an MR or umem before any
 * command (ib_umem_get(): get_user_pages with FOLL_WRITE when the access is
 * writable). Pinning fails with EFAULT where a page is not mapped, not
 * readable (PROT_NONE), or not writable for a writable registration. The
 * model asks the kernel the same question: madvise(MADV_POPULATE_READ or
 * _WRITE) faults the pages in with the same checks as the pin (Linux 5.14
 * and later), else it reads the mappings from /proc/self/maps.
 *
 * Access: real hardware keeps pinned pages, so the application unmapping or
 * protecting registered memory afterwards never faults the device. The model
 * works on the process's virtual addresses and cannot pin, so a device access
 * to such memory would fault in the model's own copy. Every copy of the
 * model therefore runs under a fault guard: a SIGSEGV or SIGBUS raised while
 * the guard is armed on this thread ends the copy with -EFAULT (which the
 * caller reports as an error completion or a command status), and any other
 * SIGSEGV/SIGBUS goes to the handler that was installed before the model's.
 * A caller with many accesses (the engine, per doorbell) holds one guard
 * and arms it around each access (mlx5_sim_guard.h).
 */

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <rte_branch_prediction.h>
#include <rte_common.h>

#include "mlx5_sim_guard.h"
#include "mlx5_sim_priv.h"

size_t
mlx5_sim_page_size(void)
{
	long sz = sysconf(_SC_PAGESIZE);

	return sz > 0 ? (size_t)sz : 4096;
}

int
mlx5_sim_range_mapped(const void *addr, size_t len)
{
	uintptr_t page = mlx5_sim_page_size();
	uintptr_t cur = RTE_ALIGN_FLOOR((uintptr_t)addr, page);
	uintptr_t end = (uintptr_t)addr + len;
	unsigned char vec[256];

	while (cur < end) {
		size_t chunk = RTE_MIN((size_t)(end - cur), sizeof(vec) * page);

		if (mincore((void *)cur, chunk, vec) != 0)
			return errno == ENOMEM ? EFAULT : errno;
		cur += chunk;
	}
	return 0;
}

/* One line of /proc/self/maps: "start-end rwxp ...". */
static bool
sim_maps_line(const char *line, uintptr_t *start, uintptr_t *end,
	      bool *readable, bool *writable)
{
	char *p;

	errno = 0;
	*start = (uintptr_t)strtoull(line, &p, 16);
	if (errno != 0 || *p != '-')
		return false;
	*end = (uintptr_t)strtoull(p + 1, &p, 16);
	if (errno != 0 || *p != ' ' || strlen(p) < 3)
		return false;
	*readable = p[1] == 'r';
	*writable = p[2] == 'w';
	return true;
}

/* Linux 5.14 and later; the values are the kernel's ABI. */
#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ 22
#endif
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

static pthread_once_t sim_populate_once = PTHREAD_ONCE_INIT;
static bool sim_populate_works;
static enum mlx5_sim_pin_check sim_pin_check = MLX5_SIM_PIN_CHECK_AUTO;

void
mlx5_sim_pin_check_set(enum mlx5_sim_pin_check how)
{
	__atomic_store_n(&sim_pin_check, how, __ATOMIC_RELAXED);
}

/* Does this kernel know MADV_POPULATE_WRITE? An older one says EINVAL. */
static void
sim_populate_probe(void)
{
	size_t page = mlx5_sim_page_size();
	void *p = mmap(NULL, page, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return;
	sim_populate_works = madvise(p, page, MADV_POPULATE_WRITE) == 0;
	munmap(p, page);
}

/* The pin's checks by /proc/self/maps: EFAULT or 0. */
static int
sim_range_pinnable_maps(const void *addr, size_t len, bool write)
{
	uintptr_t cur = (uintptr_t)addr;
	uintptr_t last = cur + len - 1;
	char *line = NULL;
	size_t cap = 0;
	int ret = EFAULT;
	FILE *maps;

	maps = fopen("/proc/self/maps", "re");
	if (maps == NULL)
		return mlx5_sim_range_mapped(addr, len); /* No procfs: less. */
	/* Lines come in address order: walk them until the range is covered. */
	while (getline(&line, &cap, maps) > 0) {
		uintptr_t start, end;
		bool readable, writable;

		if (!sim_maps_line(line, &start, &end, &readable, &writable))
			continue;
		if (end <= cur)
			continue;
		if (start > cur || !readable || (write && !writable))
			break; /* A hole, or a page the pin would refuse. */
		if (end - 1 >= last) {
			ret = 0;
			break;
		}
		cur = end;
	}
	free(line);
	fclose(maps);
	return ret;
}

int
mlx5_sim_range_pinnable(const void *addr, size_t len, bool write)
{
	size_t page = mlx5_sim_page_size();
	uintptr_t start = RTE_ALIGN_FLOOR((uintptr_t)addr, page);
	uintptr_t last = (uintptr_t)addr + len - 1;
	int ret;

	if (len == 0 || last < (uintptr_t)addr)
		return EFAULT;
	pthread_once(&sim_populate_once, sim_populate_probe);
	if (!sim_populate_works ||
	    __atomic_load_n(&sim_pin_check, __ATOMIC_RELAXED) ==
	    MLX5_SIM_PIN_CHECK_MAPS)
		return sim_range_pinnable_maps(addr, len, write);
	/*
	 * ENOMEM: a hole; EINVAL: PROT_NONE, read-only for write, or I/O
	 * memory; EFAULT: a page that cannot be faulted in. The pin fails
	 * the same ways.
	 */
	do {
		ret = madvise((void *)start, last - start + 1,
			      write ? MADV_POPULATE_WRITE : MADV_POPULATE_READ);
	} while (ret != 0 && errno == EINTR);
	return ret == 0 ? 0 : EFAULT;
}

/* The guards of this thread: mlx5_sim_guard.h. */
__thread struct mlx5_sim_guard *mlx5_sim_guard_top
	__attribute__((tls_model("initial-exec")));
static struct sigaction sim_prev_segv;
static struct sigaction sim_prev_bus;
static pthread_once_t sim_guard_once = PTHREAD_ONCE_INIT;
bool mlx5_sim_guard_installed;

static void
sim_fault_handler(int sig, siginfo_t *info, void *uctx)
{
	struct mlx5_sim_guard *guard = mlx5_sim_guard_top;
	const struct sigaction *prev;

	if (guard != NULL && guard->armed) {
		guard->armed = 0;
		MLX5_SIM_GUARD_LONGJMP(guard);
	}
	/* Not a device access: what was there before decides. */
	prev = sig == SIGBUS ? &sim_prev_bus : &sim_prev_segv;
	if ((prev->sa_flags & SA_SIGINFO) && prev->sa_sigaction != NULL) {
		prev->sa_sigaction(sig, info, uctx);
		return;
	}
	if (prev->sa_handler != SIG_DFL && prev->sa_handler != SIG_IGN) {
		prev->sa_handler(sig);
		return;
	}
	/* The default action: die of this signal, as without the model. */
	signal(sig, SIG_DFL);
	raise(sig);
}

static void
sim_guard_install(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = sim_fault_handler;
	/* Not blocked in the handler: siglongjmp() then needs no mask restore. */
	sa.sa_flags = SA_SIGINFO | SA_NODEFER | SA_ONSTACK;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGSEGV, &sa, &sim_prev_segv) != 0)
		return;
	if (sigaction(SIGBUS, &sa, &sim_prev_bus) != 0) {
		sigaction(SIGSEGV, &sim_prev_segv, NULL);
		return;
	}
	__atomic_store_n(&mlx5_sim_guard_installed, true, __ATOMIC_RELEASE);
}

int
mlx5_sim_guard_init(void)
{
	if (likely(__atomic_load_n(&mlx5_sim_guard_installed, __ATOMIC_ACQUIRE)))
		return 0;
	pthread_once(&sim_guard_once, sim_guard_install);
	if (!mlx5_sim_guard_installed) {
		SIM_LOG(ERR, "cannot install the fault guard of device accesses: %s",
			strerror(errno));
		return -EFAULT;
	}
	return 0;
}

int
mlx5_sim_guarded(void (*fn)(void *arg), void *arg)
{
	struct mlx5_sim_guard guard;

	/* In memory (its address is the top): intact after the jump. */
	if (mlx5_sim_guard_push(&guard) != 0)
		return -EFAULT;
	if (MLX5_SIM_GUARD_SETJMP(&guard) != 0) {
		/* A device access faulted: the handler disarmed the guard. */
		mlx5_sim_guard_pop(&guard);
		return -EFAULT;
	}
	guard.armed = 1;
	fn(arg);
	mlx5_sim_guard_pop(&guard);
	return 0;
}

struct sim_copy {
	void *dst;
	const void *src;
	size_t len;
};

static void
sim_copy_fn(void *arg)
{
	const struct sim_copy *c = arg;

	memcpy(c->dst, c->src, c->len);
}

int
mlx5_sim_copy_guarded(void *dst, const void *src, size_t len)
{
	struct sim_copy c = { .dst = dst, .src = src, .len = len };

	return mlx5_sim_guarded(sim_copy_fn, &c);
}

struct sim_load32 {
	const uint32_t *src;
	uint32_t val;
};

static void
sim_load32_fn(void *arg)
{
	struct sim_load32 *l = arg;

	l->val = __atomic_load_n(l->src, __ATOMIC_ACQUIRE);
}

int
mlx5_sim_load32_guarded(const void *src, uint32_t *val)
{
	struct sim_load32 l = { .src = src };
	int ret = mlx5_sim_guarded(sim_load32_fn, &l);

	*val = l.val;
	return ret;
}
