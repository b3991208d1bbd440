/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * The fault guard of the device's accesses to the process's memory
 * (mlx5_sim_mem.c), for a caller that holds one guard across many
 * accesses: the engine takes one per doorbell, not one per WQE read.
 *
 *	struct mlx5_sim_guard g;
 *
 *	if (mlx5_sim_guard_push(&g) != 0)
 *		... no guard: no access;
 *	if (MLX5_SIM_GUARD_SETJMP(&g) != 0)
 *		... an armed access faulted (the guard is disarmed, still
 *		    pushed; it may be armed again);
 *	... sim_access(&g, ...): a function that is not inlined and does
 *	    mlx5_sim_guard_arm(&g); <the access>; mlx5_sim_guard_disarm(&g);
 *	mlx5_sim_guard_pop(&g);
 *
 * Only the armed stretches are guarded: a fault anywhere else while the
 * guard is pushed (the model's own code, its state changes) goes to the
 * process's handler as without a guard, never to the jump. The access
 * sits in a function of its own, as the access of mlx5_sim_guarded()
 * does, so that the compiler sees a call where control may leave for the
 * jump. The caller pops the guard on every way out of the function that
 * pushed it; guarded calls (mlx5_sim_guarded()) may nest inside.
 */

#ifndef MLX5_SIM_GUARD_H_
#define MLX5_SIM_GUARD_H_

#include <setjmp.h>
#include <signal.h>
#include <stdbool.h>

#include "mlx5_sim_base.h"

/*
 * The jump out of a faulting access. The handler runs with the signal
 * unblocked (SA_NODEFER), so no signal mask needs restoring: the compiler's
 * __builtin_setjmp()/__builtin_longjmp() (the stack and frame pointers and
 * a label) suffice, at a tenth of sigsetjmp()'s cost on every access. The
 * sanitizers track stacks through the C library's jumps only: their builds
 * keep sigsetjmp()/siglongjmp(), as do targets where the builtins are not
 * known to work.
 */
#ifdef MLX5_SIM_SANITIZED
#define MLX5_SIM_GUARD_LIBC_JMP 1
#endif
/*
 * The builtins where they are known to work: gcc on x86-64 and Arm. gcc
 * takes every register as clobbered where __builtin_setjmp() returns the
 * second time; clang keeps values in callee-saved registers across it,
 * which the faulting callee may have changed and __builtin_longjmp()
 * does not restore (test queue/ring_fault failed so): the C library's
 * jump restores them.
 */
#if defined(__clang__) || \
	(!defined(__x86_64__) && !defined(__aarch64__))
#ifndef MLX5_SIM_GUARD_LIBC_JMP
#define MLX5_SIM_GUARD_LIBC_JMP 1
#endif
#endif

#ifdef MLX5_SIM_GUARD_LIBC_JMP
#define MLX5_SIM_GUARD_SETJMP(g) sigsetjmp((g)->env, 0)
#define MLX5_SIM_GUARD_LONGJMP(g) siglongjmp((g)->env, 1)
#else
#define MLX5_SIM_GUARD_SETJMP(g) __builtin_setjmp((g)->env)
#define MLX5_SIM_GUARD_LONGJMP(g) __builtin_longjmp((g)->env, 1)
#endif

/* A guard on this thread's stack of guards (innermost first). */
struct mlx5_sim_guard {
#ifdef MLX5_SIM_GUARD_LIBC_JMP
	sigjmp_buf env;
#else
	void *env[5];              /* What __builtin_setjmp() keeps. */
#endif
	struct mlx5_sim_guard *outer;
	volatile sig_atomic_t armed;
};

/*
 * This thread's innermost guard, if any (mlx5_sim_mem.c). Initial-exec:
 * read inline on every device access, not through __tls_get_addr() (one
 * pointer: the static TLS surplus that dlopen()ed libraries may use
 * easily holds it).
 */
extern __thread struct mlx5_sim_guard *mlx5_sim_guard_top
	__attribute__((tls_model("initial-exec")));
/* The fault handler is installed (mlx5_sim_guard_init() did it). */
extern bool mlx5_sim_guard_installed;

/* Install the fault guard of device accesses (once): 0 or -EFAULT. */
int mlx5_sim_guard_init(void);

/*
 * Make @g this thread's innermost guard, disarmed: 0, or -EFAULT when the
 * guard cannot be installed (then @g is not pushed).
 */
static inline int
mlx5_sim_guard_push(struct mlx5_sim_guard *g)
{
	if (__builtin_expect(!__atomic_load_n(&mlx5_sim_guard_installed,
					      __ATOMIC_ACQUIRE), 0) &&
	    mlx5_sim_guard_init() != 0)
		return -EFAULT;
	g->outer = mlx5_sim_guard_top;
	g->armed = 0;
	mlx5_sim_guard_top = g;
	return 0;
}

/* Take @g, the innermost guard, off this thread's stack of guards. */
static inline void
mlx5_sim_guard_pop(struct mlx5_sim_guard *g)
{
	g->armed = 0;
	mlx5_sim_guard_top = ((volatile struct mlx5_sim_guard *)g)->outer;
}

/*
 * Arm @g, the innermost guard, before an access: what the code wrote
 * before is in memory when the access faults, and the access is not
 * moved before the arming.
 */
static inline void
mlx5_sim_guard_arm(struct mlx5_sim_guard *g)
{
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	g->armed = 1;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
}

/* Disarm @g after the access (not moved after the disarming). */
static inline void
mlx5_sim_guard_disarm(struct mlx5_sim_guard *g)
{
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	g->armed = 0;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
}

#endif /* MLX5_SIM_GUARD_H_ */
