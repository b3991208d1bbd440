#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
#
# `meson install` into a temporary prefix, then, with only the installed
# files and pkg-config:
#  - an application of the public API (rte_pmd_mlx5.h) builds with
#    `pkg-config --cflags --libs libdpdk-mlx5-common` and runs;
#  - examples/cross_vhca builds with `pkg-config --cflags --libs
#    libdpdk-mlx5-common-driver` (the class-driver interface it uses) and runs;
#  - the stock dpdk-test loads the installed plugin directory
#    (`pkg-config --variable=plugindir ...`) with -d.
# The prefix lives in the build folder (a configure of its own, so that
# the installed rpaths are those of that prefix), never in the checkout.
#
# The test `install`.
#
# Usage: test/install_check.sh [--build-dir DIR] [--sdk DIR] [--cc CC] [--help]
#   --sdk DIR  the DPDK driver SDK headers (default <build dir>/sdk-include)
#   --cc CC    the compiler of the build (default cc)
set -eu

src=$(cd "$(dirname "$0")/.." && pwd)
. "$src/devtools/cli.sh"
cli_parse "$0" "--sdk: --cc:" "$@"
build=$CLI_BUILD
sdk=${cli_sdk:-}
cc=${cli_cc:-}
sdk=$(cd "${sdk:-$build/sdk-include}" && pwd)
cc=${cc:-cc}
work=$build/install-check
prefix=$work/prefix

rm -rf "$work"
mkdir -p "$work"
echo "configure: --prefix=$prefix"
CC=$cc meson setup "$work/build" "$src" --prefix="$prefix" \
	-Dsdk_headers="$sdk" -Dtests=false -Dexamples=false -Dwerror=true \
	>"$work/setup.log" 2>&1 || { cat "$work/setup.log"; exit 1; }
echo "meson install -C $work/build"
meson install -C "$work/build" >"$work/install.log" 2>&1 ||
	{ cat "$work/install.log"; exit 1; }

pc=$(find "$prefix" -name libdpdk-mlx5-common.pc)
[ -n "$pc" ] || { echo "FAIL: no libdpdk-mlx5-common.pc under $prefix"; exit 1; }
PKG_CONFIG_PATH=$(dirname "$pc")
export PKG_CONFIG_PATH
echo "PKG_CONFIG_PATH=$PKG_CONFIG_PATH"
echo "installed:"
(cd "$prefix" && find . -name '*.so*' -o -name '*.pc' -o -name 'rte_pmd_mlx5.h' | sort | sed 's/^/  /')
plugindir=$(pkg-config --variable=plugindir libdpdk-mlx5-common)
echo "plugindir: $plugindir"
for f in librte_common_mlx5.so librte_common_mlx5_sim.so libmlx5_sim_model.so; do
	[ -f "$plugindir/$f" ] || { echo "FAIL: $f not in $plugindir"; exit 1; }
done
# The production library holds no software device and needs no libcrypto:
# the model is a library of its own, reached only by its adapter.
if ldd "$plugindir/librte_common_mlx5.so" | grep -E 'libcrypto|libmlx5_sim_model'; then
	echo "FAIL: the installed librte_common_mlx5.so needs the above"
	exit 1
fi
echo "  ok: the installed librte_common_mlx5.so needs neither libcrypto nor the device model"
# The software device's adapter is a plugin like the drivers: the programs
# below take it with -d (a private copy when the folder is under a
# world-writable one, test/plugin_dir.sh).
# shellcheck source=test/plugin_dir.sh
. "$src/test/plugin_dir.sh"
safe_plugin_dir "$plugindir"
dir=$plugin_dir
trap remove_plugin_copy EXIT

# Nothing of the checkout or of the build folders may leak into the flags.
for p in libdpdk-mlx5-common libdpdk-mlx5-common-driver; do
	flags=$(pkg-config --cflags --libs "$p")
	echo "pkg-config --cflags --libs $p:"
	echo "  $flags"
	case $flags in
	*"$src/drivers"*|*"$build/drivers"*|*"$sdk"*)
		echo "FAIL: $p points into the source or build tree"; exit 1 ;;
	esac
done

# An application of the public API only.
cat >"$work/public_api.c" <<'CEOF'
#include <stdio.h>
#include <rte_dev.h>
#include <rte_eal.h>
#include <rte_pmd_mlx5.h>

int
main(int argc, char **argv)
{
	struct rte_dev_iterator it;
	struct rte_device *dev;
	int n = 0;

	if (rte_eal_init(argc, argv) < 0)
		return 1;
	RTE_DEV_FOREACH(dev, "bus=vdev", &it) {
		uint16_t vhca_id;

		if (rte_pmd_mlx5_get_vhca_id(dev, &vhca_id) != 0)
			continue;
		printf("%s: vhca_id %u\n", rte_dev_name(dev), vhca_id);
		n++;
	}
	rte_eal_cleanup();
	return n == 1 ? 0 : 1;
}
CEOF
echo "build: $cc -DALLOW_EXPERIMENTAL_API public_api.c \$(pkg-config --cflags --libs libdpdk-mlx5-common)"
# shellcheck disable=SC2046
"$cc" -Wall -Wextra -Werror -DALLOW_EXPERIMENTAL_API -o "$work/public_api" \
	"$work/public_api.c" $(pkg-config --cflags --libs libdpdk-mlx5-common)
"$work/public_api" --no-huge -m 256 --no-pci --no-shconf -l 0 -d "$dir" \
	--vdev=mlx5_sim0,card=9,vhca_id=7 --log-level=lib.eal:error
echo "  ok: public API application built and ran"

echo "build: $cc -DALLOW_EXPERIMENTAL_API examples/cross_vhca/main.c \$(pkg-config --cflags --libs libdpdk-mlx5-common-driver)"
# shellcheck disable=SC2046
"$cc" -Wall -Wextra -Werror -DALLOW_EXPERIMENTAL_API -o "$work/cross_vhca" \
	"$src/examples/cross_vhca/main.c" \
	$(pkg-config --cflags --libs libdpdk-mlx5-common-driver)
if ! ldd "$work/cross_vhca" | grep -q "librte_common_mlx5.so.* => $plugindir/"; then
	ldd "$work/cross_vhca"
	echo "FAIL: cross_vhca does not take librte_common_mlx5 from $plugindir"
	exit 1
fi
out=$("$work/cross_vhca" --no-huge -m 256 --no-pci --no-shconf -l 0 \
	-d "$dir" --log-level=lib.eal:error 2>&1) || { echo "$out"; echo "FAIL: cross_vhca"; exit 1; }
echo "$out" | tail -n 3
echo "  ok: examples/cross_vhca built from the installed files and ran"

# The installed plugin directory in a stock application.
if command -v dpdk-test >/dev/null 2>&1; then
	out=$(printf 'quit\n' | timeout 60 dpdk-test --no-huge -m 256 --no-pci \
		--no-shconf -l 0 -d "$dir" --vdev=mlx5_sim0 \
		--log-level=pmd.net.mlx5:info 2>&1) || true
	if ! echo "$out" | grep "mlx5_net: mlx5_sim0: port"; then
		echo "$out"
		echo "FAIL: dpdk-test -d $dir did not probe mlx5_sim0"
		exit 1
	fi
	echo "  ok: dpdk-test -d <plugindir> probed the software device"
fi
# -Dsim=false: the drivers a ConnectX or BlueField needs, and nothing of
# the software device installed.
echo "meson configure -Dsim=false, meson install into another prefix"
meson configure "$work/build" -Dsim=false --prefix="$prefix-nosim" \
	>"$work/setup-nosim.log" 2>&1 || { cat "$work/setup-nosim.log"; exit 1; }
meson install -C "$work/build" >"$work/install-nosim.log" 2>&1 ||
	{ cat "$work/install-nosim.log"; exit 1; }
found=$(find "$prefix-nosim" -name '*mlx5_sim*')
if [ -n "$found" ]; then
	echo "$found"
	echo "FAIL: -Dsim=false installed the above"
	exit 1
fi
[ -n "$(find "$prefix-nosim" -name 'librte_net_mlx5.so*')" ] ||
	{ echo "FAIL: -Dsim=false installed no net driver"; exit 1; }
echo "  ok: -Dsim=false installs the drivers and nothing of the software device"
echo "install_check: OK"
