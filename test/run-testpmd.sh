#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
#
# The stock Debian dpdk-testpmd on two software devices through our net PMD,
# non-interactively, with the counters checked:
#   1. io forwarding, start tx_first: packets flow both ways, no error;
#   2. --rxq=2 --txq=2 in flowgen mode (many flows): every Rx queue of both
#      ports carries traffic (RSS), no error;
#   3. txonly with `set port 0 queue 0 rate 100` (pace_clock=wall): port 0
#      sends at most 100 Mb/s, port 1 (not limited) faster.
# Prints each run's figures and "testpmd: N checks passed, N failed". The
# test `testpmd_traffic`.
#
# Usage: test/run-testpmd.sh [--build-dir DIR] [--help]
set -u

cd "$(dirname "$0")/.."
. devtools/cli.sh
cli_parse "$0" "" "$@"
drivers=$CLI_BUILD/drivers
testpmd=$(command -v dpdk-testpmd || true)
if [ -z "$testpmd" ]; then
	echo "dpdk-testpmd not installed (package dpdk)"
	exit 77
fi
# EAL refuses plugins under a world-writable directory: the one helper.
# shellcheck source=test/plugin_dir.sh
. test/plugin_dir.sh
safe_plugin_dir "$drivers"
dir=$plugin_dir
trap remove_plugin_copy EXIT


# shellcheck source=test/testpmd-lib.sh
. "$(pwd)/test/testpmd-lib.sh"
out=$(mktemp)
trap 'rm -f "$out"; remove_plugin_copy' EXIT

# run <devargs suffix> <testpmd args> -- <commands before start>
# testpmd until $testpmd_ready says its traffic is there (see
# testpmd-lib.sh), then two statistics a second apart (the throughput
# since the last one) and the xstats. Writes testpmd's output to $out.
run() {
	devs=$1; shift
	args=""
	while [ "$1" != "--" ]; do args="$args $1"; shift; done
	shift
	pre=$*
	# shellcheck disable=SC2086
	{ testpmd_feed "$pre" "$show" "show port stats all";
	  sleep 1;
	  printf 'show port stats all\nshow port xstats 0\nshow port xstats 1\nstop\nquit\n'; } |
		timeout $((TESTPMD_WAIT_MAX + 60)) $testpmd_linebuf "$testpmd" \
		--no-huge -m 1024 --no-pci --no-shconf \
		-l 0-1 -d "$dir" --vdev=mlx5_sim0,card=45$devs \
		--vdev=mlx5_sim1,card=45$devs -- -i --total-num-mbufs=8192 \
		$args >"$out" 2>&1
}
stat() { testpmd_stat "$@"; }
xstat() { testpmd_xstat "$@"; }
# Each Rx queue of both ports received packets.
rx_queues_used() {
	for p in 0 1; do
		[ "$(xstat $p rx_q0_packets)" -gt 0 ] &&
			[ "$(xstat $p rx_q1_packets)" -gt 0 ] || return 1
	done
}
# Both ports sent more than 10,000 packets (last NIC blocks).
both_sent() {
	[ "$(stat 0 TX-packets:)" -gt 10000 ] &&
		[ "$(stat 1 TX-packets:)" -gt 10000 ]
}

echo "1. io forwarding, start tx_first"
show="show port stats all"
testpmd_ready="testpmd_moved 10000"
run "" -- "start tx_first"
testpmd_check_moving

echo "2. flowgen, --rxq=2 --txq=2"
show="show port xstats 0;show port xstats 1"
testpmd_ready=rx_queues_used
run "" --rxq=2 --txq=2 --forward-mode=flowgen -- "start"
for p in 0 1; do
	q0=$(xstat $p rx_q0_packets); q1=$(xstat $p rx_q1_packets)
	errs=$(( $(stat $p RX-errors:) + $(stat $p TX-errors:) ))
	echo "  port $p: Rx queue 0 $q0, Rx queue 1 $q1, errors $errs"
	[ "$q0" -gt 0 ] && [ "$q1" -gt 0 ]; check $? "port $p: both Rx queues carry traffic"
	[ "$errs" -eq 0 ]; check $? "port $p: no error"
done

echo "3. txonly, set port 0 queue 0 rate 100"
show="show port stats all"
testpmd_ready=both_sent
run ",pace_clock=wall" --forward-mode=txonly -- "set port 0 queue 0 rate 100;start"
bps0=$(stat 0 Tx-bps:); bps1=$(stat 1 Tx-bps:)
echo "  port 0 (100 Mb/s): $bps0 b/s; port 1 (no limit): $bps1 b/s"
[ "$bps0" -gt 0 ] && [ "$bps0" -le 110000000 ]; check $? "port 0 sends at most 100 Mb/s (+10% for the measure)"
[ "$bps1" -gt "$bps0" ]; check $? "port 1, not limited, sends faster"
[ "$(stat 0 TX-errors:)" -eq 0 ]; check $? "port 0: no error"

echo "testpmd: $passed checks passed, $failed failed"
[ "$failed" -eq 0 ]
