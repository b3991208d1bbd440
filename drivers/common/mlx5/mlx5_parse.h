/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * Header-only parsing helpers shared by the common layer (devargs) and the
 * software device's model (its shape keys), which links no driver code.
 */

#ifndef MLX5_PARSE_H_
#define MLX5_PARSE_H_

#include <errno.h>
#include <stdint.h>

/*
 * The value of @text if it is exactly a decimal ("0", or digits without a
 * leading zero) or a hexadecimal ("0x" + hex digits) number that fits in 64
 * bits; -EINVAL otherwise. strtoull() alone would take leading white space,
 * a sign, and a leading zero as octal ("010" = 8).
 */
static inline int
mlx5_parse_uint_strict(const char *text, uint64_t *result)
{
	unsigned int base = 10;
	const char *p = text;
	uint64_t v = 0;

	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		base = 16;
		p += 2;
	} else if (p[0] == '0' && p[1] != '\0') {
		return -EINVAL; /* A leading zero: octal to strtoull(). */
	}
	if (*p == '\0')
		return -EINVAL;
	for (; *p != '\0'; p++) {
		unsigned int digit;

		if (*p >= '0' && *p <= '9')
			digit = *p - '0';
		else if (base == 16 && *p >= 'a' && *p <= 'f')
			digit = *p - 'a' + 10;
		else if (base == 16 && *p >= 'A' && *p <= 'F')
			digit = *p - 'A' + 10;
		else
			return -EINVAL;
		if (v > (UINT64_MAX - digit) / base)
			return -EINVAL; /* Does not fit in 64 bits. */
		v = v * base + digit;
	}
	*result = v;
	return 0;
}

#endif /* MLX5_PARSE_H_ */
