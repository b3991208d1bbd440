/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * What the libFuzzer targets share: EAL set-up, a reader that turns the
 * fuzzer's bytes into small integers (zeros once the input is exhausted, so
 * that every prefix of an input is a valid input), the matching writer the
 * seed generators use, and the check that turns a broken invariant into a
 * crash libFuzzer reports.
 */

#ifndef MLX5_FUZZ_COMMON_H_
#define MLX5_FUZZ_COMMON_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/*
 * Environment variable of the seed mode: a target started with it set to
 * a folder writes its seed corpus there and exits instead of fuzzing.
 */
#define FUZZ_SEED_ENV "MLX5_FUZZ_WRITE_SEEDS"

/* A broken invariant is a bug: abort() so that libFuzzer keeps the input. */
#define FUZZ_CHECK(cond, fmt, ...) do { \
	if (!(cond)) { \
		fprintf(stderr, "fuzz: %s:%d: %s: " fmt "\n", __func__, \
			__LINE__, #cond, ##__VA_ARGS__); \
		abort(); \
	} \
} while (0)

/*
 * MLX5_FUZZ_VERBOSE=1 makes the targets say what each step of an input
 * did: to check that seeds reach what they are meant to, and to read a
 * reproducer.
 */
extern bool fuzz_verbose;

#define FUZZ_TRACE(fmt, ...) do { \
	if (fuzz_verbose) \
		fprintf(stderr, "  " fmt "\n", ##__VA_ARGS__); \
} while (0)

/* The fuzzer's input, consumed from the front. */
struct fuzz_in {
	const uint8_t *p;
	size_t len;
};

static inline bool
fuzz_empty(const struct fuzz_in *in)
{
	return in->len == 0;
}

static inline uint8_t
fuzz_u8(struct fuzz_in *in)
{
	uint8_t v = 0;

	if (in->len > 0) {
		v = in->p[0];
		in->p++;
		in->len--;
	}
	return v;
}

/* Little-endian, so that a mutated low byte changes the value a little. */
static inline uint16_t
fuzz_u16(struct fuzz_in *in)
{
	uint16_t v = fuzz_u8(in);

	return v | (uint16_t)fuzz_u8(in) << 8;
}

static inline uint32_t
fuzz_u32(struct fuzz_in *in)
{
	uint32_t v = fuzz_u16(in);

	return v | (uint32_t)fuzz_u16(in) << 16;
}

static inline uint64_t
fuzz_u64(struct fuzz_in *in)
{
	uint64_t v = fuzz_u32(in);

	return v | (uint64_t)fuzz_u32(in) << 32;
}

/* Copy up to @n bytes into @dst, zero-filling what the input lacks. */
size_t fuzz_bytes(struct fuzz_in *in, void *dst, size_t n);

/* A seed being written: the inverse of struct fuzz_in. */
struct fuzz_out {
	uint8_t buf[8192];
	size_t len;
};

void fuzz_put_u8(struct fuzz_out *out, uint8_t v);
void fuzz_put_u16(struct fuzz_out *out, uint16_t v);
void fuzz_put_u32(struct fuzz_out *out, uint32_t v);
void fuzz_put_u64(struct fuzz_out *out, uint64_t v);
void fuzz_put_bytes(struct fuzz_out *out, const void *src, size_t n);

/* Write @len bytes as file @name of folder @dir; exits on error. */
void fuzz_seed_write(const char *dir, const char *name, const void *data,
		     size_t len);

/*
 * Initialise EAL once for target @name: no hugepages, no PCI, no shared
 * configuration, one lcore, a file prefix of its own, logging off (the
 * driver logs every refusal, and refusals are most of what a fuzzer
 * provokes). Exits on failure.
 */
void fuzz_eal_init(const char *name);

#endif /* MLX5_FUZZ_COMMON_H_ */
