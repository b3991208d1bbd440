#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
#
# Debian's own DPDK 22.11 mlx5 PMD (linked into Debian's dpdk-testpmd; no
# driver of ours loaded) on two ConnectX-6 Dx functions of the software
# device, through the rdma-core front, in a network namespace of its own
# (unshare -n) holding the ports' netdevs (a veth pair: the ports are
# cabled to each other). The stock PMD runs its verbs flow path
# (dv_flow_en=0: raw packet QPs for Tx, WQs and RSS QPs for Rx, verbs
# flows); CQE compression off (rxq_cqe_comp_en=0: the device announces
# none). Checks:
#  1. Debian's PCI driver (mlx5_pci) probes both functions;
#  2. io forwarding, start tx_first: both ports move packets, no error;
#  3. testpmd quits cleanly.
# Skips (exit 77) where the machine gives no network namespace.
# Last line "testpmd-upstream: N checks passed, N failed".
#
# Usage: test/run-testpmd-upstream.sh [--build-dir DIR]
# Time: about 5 s. The test testpmd_upstream.
set -eu
src=$(cd "$(dirname "$0")/.." && pwd)
. "$src/devtools/cli.sh"
cli_parse "$0" "" "$@"
build=$CLI_BUILD
. "$src/test/testpmd-lib.sh"
testpmd_netns testpmd-upstream "$0" --build-dir "$build"
cd "$src"
testpmd_host "$build/testpmd-upstream-host" 4 0x101d "$build"
dv="dv_flow_en=0,rxq_cqe_comp_en=0"

echo "1. Debian's mlx5 PMD on 0000:08:00.0 and 0000:08:00.1, start tx_first"
testpmd_ready="testpmd_moved 10000"
{ testpmd_feed "start tx_first" "show port stats all" "show port stats all";
  printf 'stop\nquit\n'; } |
	timeout $((TESTPMD_WAIT_MAX + 60)) $testpmd_linebuf "$testpmd" \
	--no-huge -m 1024 --no-shconf -l 0-1 \
	-a "0000:08:00.0,$dv" -a "0000:08:00.1,$dv" -- -i \
	--total-num-mbufs=8192 >"$out" 2>&1 || true
for f in 0000:08:00.0 0000:08:00.1; do
	grep -q "Probe PCI driver: mlx5_pci (15b3:101d) device: $f" "$out"
	check $? "Debian's PCI driver (mlx5_pci) probed $f"
done
! grep -q "cannot be used\|Fail to start port" "$out"
check $? "both ports probed and started"
testpmd_check_moving
grep -q "Bye" "$out"; check $? "testpmd quit cleanly"

echo "testpmd-upstream: $passed checks passed, $failed failed"
[ "$failed" -eq 0 ]
