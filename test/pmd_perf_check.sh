#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
#
# The stock `dpdk-test pmd_perf_autotest` (-l 0-1, two ports in loopback)
# on two software devices through our net PMD: it must pass ("Test OK")
# and print its cycles per packet. The figure is printed, never judged
# (devtools/run-pmd-bench.sh sets it beside net_ring's and the target).
#
# The test `pmd_perf`.
#
# Usage: test/pmd_perf_check.sh [--build-dir DIR] [--help]
set -u

# EAL refuses plugins under a world-writable directory: the one helper.
# shellcheck source=test/plugin_dir.sh
src=$(cd "$(dirname "$0")/.." && pwd)
. "$src/devtools/cli.sh"
cli_parse "$0" "" "$@"
build=$CLI_BUILD
. "$(dirname "$0")/plugin_dir.sh"
safe_plugin_dir "$build/drivers"
drivers=$plugin_dir
if ! command -v dpdk-test >/dev/null 2>&1; then
	echo "dpdk-test not installed (package dpdk-dev)"
	exit 77
fi
log=$(mktemp)
trap 'rm -f "$log"; remove_plugin_copy' EXIT
# speed=1000: the test runs for two seconds of line rate per port.
printf 'pmd_perf_autotest\nquit\n' |
	timeout 300 dpdk-test -l 0-1 --no-huge -m 1024 --no-pci --no-shconf \
	-d "$drivers" --vdev=mlx5_sim0,card=204,speed=1000 \
	--vdev=mlx5_sim1,card=204,speed=1000 >"$log" 2>&1
rc=$?
grep -E '^Result:' "$log"
if [ "$rc" != 0 ] || ! grep -q '^Test OK' "$log" ||
		! grep -q '^Result: [0-9]* cycles per packet' "$log"; then
	tail -n 30 "$log"
	echo "pmd_perf: FAILED (exit $rc)"
	exit 1
fi
echo "pmd_perf: Test OK"
