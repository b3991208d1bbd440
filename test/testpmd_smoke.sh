#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
#
# The stock Debian dpdk-testpmd loads our drivers with -d, probes the software
# device, and exits cleanly.
#
# The test `testpmd_smoke`.
#
# Usage: test/testpmd_smoke.sh [--build-dir DIR] [--help]
set -u

src=$(cd "$(dirname "$0")/.." && pwd)
. "$src/devtools/cli.sh"
cli_parse "$0" "" "$@"
build=$CLI_BUILD
drivers=$build/drivers
testpmd=$(command -v dpdk-testpmd || true)
if [ -z "$testpmd" ]; then
	echo "dpdk-testpmd not installed (package dpdk-dev)"
	exit 77
fi

# EAL refuses plugins under a world-writable directory (e.g. a checkout in
# /tmp): in that case load a private copy of the drivers.
# shellcheck source=test/plugin_dir.sh
. "$(dirname "$0")/plugin_dir.sh"
safe_plugin_dir "$drivers"
dir=$plugin_dir
trap remove_plugin_copy EXIT

out=$(printf 'show device info all\nquit\n' | timeout 120 "$testpmd" \
	--no-huge -m 512 --no-pci --no-shconf -l 0-1 -d "$dir" \
	--vdev=mlx5_sim0,card=40 --log-level='pmd.common.mlx5*:info' \
	-- -i --total-num-mbufs=4096 2>&1)
rc=$?
echo "$out"
if [ $rc -ne 0 ]; then
	echo "FAIL: dpdk-testpmd exited with $rc"
	exit 1
fi
for want in "mlx5_sim0: sim device mlx5_sim_c40_v0" "Bye"; do
	if ! printf '%s\n' "$out" | grep -q "$want"; then
		echo "FAIL: expected \"$want\" in the output"
		exit 1
	fi
done
echo "PASS: dpdk-testpmd probed mlx5_sim0 and exited cleanly"
