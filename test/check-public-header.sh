#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
#
# The public header compiles on its own, first and only include of a
# translation unit, in C (gcc) and in C++ (g++), warnings as errors; both
# without ALLOW_EXPERIMENTAL_API (an application that only includes it)
# and with it, calling every function (an application that uses the API).
# The flags are those an application gets from pkg-config libdpdk, after
# the header's own folder: Debian's libdpdk-dev installs DPDK's own
# rte_pmd_mlx5.h in /usr/include/dpdk, which would be taken otherwise.
# The test `public_header`; its files go to <build dir>/check-public-header.
#
# Usage: test/check-public-header.sh [--build-dir DIR] [--help]
set -eu
src=$(cd "$(dirname "$0")/.." && pwd)
. "$src/devtools/cli.sh"
cli_parse "$0" "" "$@"
build=$CLI_BUILD
out=$build/check-public-header
hdr_dir=$src/drivers/common/mlx5
hdr=rte_pmd_mlx5.h
cflags=$(pkg-config --cflags libdpdk)
mkdir -p "$out"

printf '#include <%s>\n' "$hdr" > "$out/alone.c"
cp "$out/alone.c" "$out/alone.cpp"
cat > "$out/use.c" <<'EOF'
#include <rte_pmd_mlx5.h>
#include <rte_mbuf_dyn.h>

/* Every public function and macro once (compiled, never run). */
int use_api(struct rte_device *dev, struct rte_mbuf *m);
int
use_api(struct rte_device *dev, struct rte_mbuf *m)
{
	static const uint8_t key[RTE_PMD_MLX5_ACCESS_KEY_LEN] = { 0 };
	char name[RTE_MBUF_DYN_NAMESIZE];
	char *names[1] = { name };
	void *ctx, *pd;
	uint16_t vhca_id;
	uint32_t mkey;
	rte_iova_t iova;
	int ret = 0;

	ret |= rte_pmd_common_mlx5_get_dyn_flag_names(names, 1);
	ret |= rte_pmd_mlx5_private_iova_flag() != 0;
	ret |= rte_pmd_mlx5_get_dev_ctx_and_pd(dev, &ctx, &pd);
	ret |= rte_pmd_mlx5_get_vhca_id(dev, &vhca_id);
	ret |= rte_pmd_mlx5_export_mem(dev, name, sizeof(name), key,
				       &vhca_id, &mkey);
	iova = rte_pmd_mlx5_create_cross_vhca_mkey(dev, vhca_id, mkey);
	iova |= rte_pmd_mlx5_import_mem(dev, vhca_id, mkey, key);
	iova |= rte_pmd_mlx5_get_buf_private_iova(dev, name, sizeof(name));
	ret |= rte_pmd_mlx5_release_key(dev, iova);
	ret |= rte_pmd_mlx5_mbuf_set_private_iova(m,
			rte_pmd_mlx5_mkey_to_iova(rte_pmd_mlx5_iova_to_mkey(iova)));
	return ret;
}
EOF
cp "$out/use.c" "$out/use.cpp"

rc=0
run() { # <label> <compiler and flags...>
	label=$1
	shift
	# shellcheck disable=SC2086
	if "$@" -I"$hdr_dir" $cflags -c -o /dev/null 2>"$out/err.log"; then
		echo "PASS: $label"
	else
		cat "$out/err.log"
		echo "FAIL: $label"
		rc=1
	fi
}
# -std=c11 -D_GNU_SOURCE as DPDK builds (DPDK's own headers need
# _GNU_SOURCE under strict C11), and gnu11.
run "C (c11): $hdr alone" \
	gcc -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror "$out/alone.c"
run "C (gnu11): $hdr alone" \
	gcc -std=gnu11 -Wall -Wextra -Werror "$out/alone.c"

run "C: every function, -DALLOW_EXPERIMENTAL_API" \
	gcc -Wall -Wextra -Werror -DALLOW_EXPERIMENTAL_API "$out/use.c"
if command -v g++ >/dev/null 2>&1; then
	run "C++: $hdr alone" g++ -Wall -Werror "$out/alone.cpp"
	run "C++: every function, -DALLOW_EXPERIMENTAL_API" \
		g++ -Wall -Wextra -Werror -DALLOW_EXPERIMENTAL_API "$out/use.cpp"
else
	echo "FAIL: no g++ (Debian package g++; devtools/setup.sh installs it)"
	rc=1
fi
# The functions are experimental for real: without ALLOW_EXPERIMENTAL_API
# each call is refused with rte_compat.h's message.
# shellcheck disable=SC2086
gcc -Wall -Werror -I"$hdr_dir" $cflags -c -o /dev/null "$out/use.c" \
	2>"$out/err.log" || true
n=$(grep -c 'not yet part of stable ABI' "$out/err.log" || true)
if [ "$n" -ge 10 ]; then
	echo "PASS: without ALLOW_EXPERIMENTAL_API each of the $n calls is refused"
else
	cat "$out/err.log"
	echo "FAIL: without ALLOW_EXPERIMENTAL_API only $n calls refused"
	rc=1
fi
exit $rc
