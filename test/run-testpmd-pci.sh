#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
#
# The stock Debian dpdk-testpmd on two PCI functions of the software device
# (no vdev), through our net PMD, our rdma-core backend and the rdma-core
# front, in a network namespace of its own (unshare -n) holding the
# ports' netdevs (a veth pair: the two ports are cabled to each other):
#  1. io forwarding, start tx_first: both ports move packets, no error;
#  2. the netdev is the vport: it carries the vport's MAC, and what is set
#     on it (MTU, down/up) is what the RDMA port reports (ibv_query_port
#     through pyverbs), as on a ConnectX where both are one vport.
# The functions are ConnectX-8s (device_id=0x1023): Debian's testpmd links
# Debian's own mlx5 PMD, whose PCI driver registers first for every id
# DPDK 22.11 knows (ConnectX-6 Dx, BlueField-2, ...) and would take them.
# Skips (exit 77) where the machine gives no network namespace.
# Last line "testpmd-pci: N checks passed, N failed".
#
# Usage: test/run-testpmd-pci.sh [--build-dir DIR]
# Time: about 15 s. The test testpmd_pci.
set -eu
src=$(cd "$(dirname "$0")/.." && pwd)
. "$src/devtools/cli.sh"
cli_parse "$0" "" "$@"
build=$CLI_BUILD
. "$src/test/testpmd-lib.sh"
testpmd_netns testpmd-pci "$0" --build-dir "$build"
cd "$src"
. test/plugin_dir.sh
safe_plugin_dir "$build/drivers"
dir=$plugin_dir
testpmd_host "$build/testpmd-pci-host" 2 0x1023 "$build"
trap 'remove_plugin_copy' EXIT

echo "1. io forwarding on 0000:08:00.0 and 0000:08:00.1, start tx_first"
testpmd_ready="testpmd_moved 10000"
{ testpmd_feed "start tx_first" "show port stats all" "show port stats all";
  printf 'stop\nquit\n'; } |
	timeout $((TESTPMD_WAIT_MAX + 60)) $testpmd_linebuf "$testpmd" \
	--no-huge -m 1024 --no-shconf -l 0-1 -d "$dir" \
	-a 0000:08:00.0 -a 0000:08:00.1 -- -i --total-num-mbufs=8192 \
	>"$out" 2>&1 || true
grep -q "Probe PCI driver: mlx5c_pci (15b3:1023) device: 0000:08:00.0" "$out"
check $? "our PCI driver probed 0000:08:00.0 (no vdev)"
testpmd_check_moving
grep -q "Bye" "$out"; check $? "testpmd quit cleanly"

echo "2. the netdev is the vport"
mac=$(cat /sys/class/net/simeth0/address 2>/dev/null ||
	ip -br link show simeth0 | awk '{print $3}')
# One process: the front follows the netdev while the context is open.
port_states() {
	/usr/bin/python3 -c '
import subprocess, time
import pyverbs.device as d
ctx = d.Context(name="mlx5_0")
def state(cmd):
    subprocess.run(["ip", "link", "set", "simeth0"] + cmd.split(),
                   check=True)
    for _ in range(100):  # the netlink message: at most 1 s
        a = ctx.query_port(1)
        if want(cmd, a):
            break
        time.sleep(0.01)
    return "%d %d" % (a.state, a.active_mtu)
def want(cmd, a):
    return {"mtu 1500": a.active_mtu == 3, "mtu 4200": a.active_mtu == 5,
            "down": a.state == 1, "up": a.state == 4}[cmd]
print(",".join(state(c) for c in ("mtu 1500", "mtu 4200", "down", "up")))'
}
if /usr/bin/python3 -c 'import pyverbs' 2>/dev/null; then
	echo "  simeth0: $mac"
	[ "$mac" = 02:00:00:02:00:00 ]
	check $? "the netdev carries the vport's MAC (card 2, vHCA 0)"
	states=$(port_states)
	echo "  (state, active MTU) after mtu 1500, mtu 4200, down, up: $states"
	# IBV_PORT_ACTIVE 4, DOWN 1; IBV_MTU_1024 3, IBV_MTU_4096 5.
	IFS=, read -r s1 s2 s3 s4 <<EOF2
$states
EOF2
	[ "$s1" = "4 3" ]; check $? "netdev MTU 1500: RoCE MTU 1024"
	[ "$s2" = "4 5" ]; check $? "netdev MTU 4200: RoCE MTU 4096"
	[ "${s3%% *}" = 1 ]; check $? "netdev down: port down"
	[ "${s4%% *}" = 4 ]; check $? "netdev up again: port active"
else
	echo "  skipped: /usr/bin/python3 has no pyverbs (python3-pyverbs)"
fi

echo "testpmd-pci: $passed checks passed, $failed failed"
[ "$failed" -eq 0 ]
