#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
#
# A program built against the build tree with the uninstalled pkg-config
# files (<build>/meson-uninstalled): it must take our rte_pmd_mlx5.h, not
# the one of Debian's libdpdk-dev (/usr/include/dpdk/rte_pmd_mlx5.h, DPDK's
# net/mlx5 API), link our common library from the build's drivers folder
# and run: EAL probes a software device (-d the plugindir variable) and the
# program uses symbols only our header declares.
#
# The test `pkgconfig_uninstalled`.
#
# Usage: test/pkgconfig_uninstalled.sh [--build-dir DIR] [--help]
set -eu

src=$(cd "$(dirname "$0")/.." && pwd)
. "$src/devtools/cli.sh"
cli_parse "$0" "" "$@"
build=$CLI_BUILD
PKG_CONFIG_PATH=$build/meson-uninstalled
export PKG_CONFIG_PATH
work=$(mktemp -d "$build/pkgconfig-check.XXXXXX")
# shellcheck source=test/plugin_dir.sh
. "$src/test/plugin_dir.sh"
trap 'rm -rf "$work"; remove_plugin_copy' EXIT

for p in libdpdk-mlx5-common libdpdk-mlx5-common-driver; do
	if ! pkg-config --exists "$p"; then
		echo "FAIL: $p not found in $PKG_CONFIG_PATH"
		exit 1
	fi
	echo "$p: $(pkg-config --cflags --libs "$p")"
done
plugindir=$(pkg-config --variable=plugindir libdpdk-mlx5-common)
if [ "$plugindir" != "$build/drivers" ]; then
	echo "FAIL: plugindir is '$plugindir', not $build/drivers"
	exit 1
fi
cat >"$work/use.c" <<'CEOF'
#include <errno.h>
#include <stdio.h>

#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_pmd_mlx5.h>

int
main(int argc, char **argv)
{
	static const uint8_t key[RTE_PMD_MLX5_ACCESS_KEY_LEN];
	uint16_t vhca_id;
	uint32_t mkey;

	if (rte_eal_init(argc, argv) < 0)
		return 1;
	/* Registered by the software device's probe. */
	if (rte_pmd_mlx5_private_iova_flag() == 0) {
		printf("no private-IOVA flag\n");
		return 1;
	}
	if (rte_pmd_mlx5_export_mem(NULL, (void *)key, sizeof(key), key,
				    &vhca_id, &mkey) != -ENODEV) {
		printf("export_mem(NULL) did not fail with ENODEV\n");
		return 1;
	}
	printf("uninstalled pkg-config: our rte_pmd_mlx5.h, linked and run\n");
	rte_eal_cleanup();
	return 0;
}
CEOF
# shellcheck disable=SC2046
if ! cc -Wall -Wextra -Werror -DALLOW_EXPERIMENTAL_API -o "$work/use" \
		"$work/use.c" $(pkg-config --cflags --libs libdpdk-mlx5-common) \
		2>"$work/cc.log"; then
	cat "$work/cc.log"
	echo "FAIL: a program of our rte_pmd_mlx5.h does not build with the uninstalled pkg-config files"
	exit 1
fi
safe_plugin_dir "$plugindir"
if ! "$work/use" --no-huge -m 256 --no-pci --no-shconf -l 0 \
		-d "$plugin_dir" --vdev=mlx5_sim0 --log-level=pmd.*:error; then
	echo "FAIL: the program did not run"
	exit 1
fi
# The class-driver interface compiles too.
printf '#include <mlx5_common.h>\nint main(void) { return 0; }\n' >"$work/drv.c"
# shellcheck disable=SC2046
if ! cc -Wall -Wextra -Werror -DALLOW_EXPERIMENTAL_API -c -o "$work/drv.o" \
		"$work/drv.c" $(pkg-config --cflags libdpdk-mlx5-common-driver) \
		2>"$work/cc.log"; then
	cat "$work/cc.log"
	echo "FAIL: mlx5_common.h does not build with libdpdk-mlx5-common-driver-uninstalled"
	exit 1
fi
echo "pkgconfig_uninstalled: ok"
