/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <string.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_memory.h>

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#include <sanitizer/lsan_interface.h>
#define FUZZ_LSAN 1
#endif
#endif

#include "fuzz_common.h"

bool fuzz_verbose;

size_t
fuzz_bytes(struct fuzz_in *in, void *dst, size_t n)
{
	size_t k = RTE_MIN(n, in->len);

	if (k > 0)
		memcpy(dst, in->p, k);
	if (n > k)
		memset((uint8_t *)dst + k, 0, n - k);
	in->p += k;
	in->len -= k;
	return k;
}

void
fuzz_put_bytes(struct fuzz_out *out, const void *src, size_t n)
{
	if (n > sizeof(out->buf) - out->len) {
		fprintf(stderr, "fuzz: seed larger than %zu bytes\n",
			sizeof(out->buf));
		exit(1);
	}
	memcpy(out->buf + out->len, src, n);
	out->len += n;
}

void
fuzz_put_u8(struct fuzz_out *out, uint8_t v)
{
	fuzz_put_bytes(out, &v, 1);
}

void
fuzz_put_u16(struct fuzz_out *out, uint16_t v)
{
	fuzz_put_u8(out, (uint8_t)v);
	fuzz_put_u8(out, (uint8_t)(v >> 8));
}

void
fuzz_put_u32(struct fuzz_out *out, uint32_t v)
{
	fuzz_put_u16(out, (uint16_t)v);
	fuzz_put_u16(out, (uint16_t)(v >> 16));
}

void
fuzz_put_u64(struct fuzz_out *out, uint64_t v)
{
	fuzz_put_u32(out, (uint32_t)v);
	fuzz_put_u32(out, (uint32_t)(v >> 32));
}

void
fuzz_seed_write(const char *dir, const char *name, const void *data,
		size_t len)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "wb");
	if (f == NULL || (len > 0 && fwrite(data, len, 1, f) != 1) ||
	    fclose(f) != 0) {
		fprintf(stderr, "fuzz: cannot write %s: %s\n", path,
			strerror(errno));
		exit(1);
	}
}

#ifdef FUZZ_LSAN
/*
 * The driver keeps pointers to malloc()'ed memory (MR tables, ...) in
 * structures of EAL's heap, a mapping LeakSanitizer does not scan: without
 * this, whatever a probed device holds is reported as leaked.
 */
static int
fuzz_lsan_root(const struct rte_memseg_list *msl, void *arg)
{
	RTE_SET_USED(arg);
	if (msl->base_va != NULL && msl->len > 0)
		__lsan_register_root_region(msl->base_va, msl->len);
	return 0;
}
#endif

/* Nothing is left in the runtime folder (--no-shconf): remove it. */
static void
fuzz_eal_fini(void)
{
	rmdir(rte_eal_get_runtime_dir());
}

void
fuzz_eal_init(const char *name)
{
	char prefix[64];
	char *eal_args[] = {
		(char *)(uintptr_t)name, "--no-huge", "-m", "256", "--no-pci",
		"--no-shconf", "--no-telemetry", "-l", "0",
		"--file-prefix", prefix,
		/* Global level 1 (emergency): nothing the driver logs. */
		"--log-level", "1", NULL,
	};
	cpu_set_t cpus;
	bool have_cpus;

	fuzz_verbose = getenv("MLX5_FUZZ_VERBOSE") != NULL;
	snprintf(prefix, sizeof(prefix), "%s%d", name, (int)getpid());
	have_cpus = pthread_getaffinity_np(pthread_self(), sizeof(cpus),
					   &cpus) == 0;
	if (rte_eal_init(RTE_DIM(eal_args) - 1, eal_args) < 0) {
		fprintf(stderr, "%s: EAL init failed: %s\n", name,
			rte_strerror(rte_errno));
		exit(1);
	}
	/*
	 * EAL pinned this thread to core 0; targets running side by side
	 * would then share one core. Nothing here needs the pinning.
	 */
	if (have_cpus)
		pthread_setaffinity_np(pthread_self(), sizeof(cpus), &cpus);
#ifdef FUZZ_LSAN
	rte_memseg_list_walk(fuzz_lsan_root, NULL);
#endif
	atexit(fuzz_eal_fini);
}
