#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
#
# DPDK multi-process on two software devices, with the stock Debian tools:
#   1. a primary dpdk-testpmd (--num-procs=2 --proc-id=0) configures two
#      wired ports with two queues each and receives on queue 0 (rxonly);
#   2. a secondary dpdk-testpmd (--proc-type=secondary --proc-id=1) sends
#      and receives on queue 1 of both ports (flowgen: many flows, so RSS
#      spreads them over both queues): its doorbells, memory registrations
#      and counter reads go to the primary over DPDK's IPC;
#   3. the stock dpdk-proc-info, another secondary, prints both ports'
#      stats and xstats;
#   4. a secondary sending from mempools of its own (test/mp_secondary_app,
#      when given): every key registered by the primary on request, and
#      none stale after its pool is freed and another made;
#   5. the primary still sends and receives (flowgen) after the secondaries
#      left, and quits.
# Prints the figures and "multiprocess: N checks passed, N failed".
#
# Secondary processes need shared hugepage memory: as root, the script
# mounts a private hugetlbfs of the smallest hugepage size and reserves the
# pages it needs (640 MB), and gives both back at the end. Exit 77 (skipped) when it cannot: not root,
# no hugepages, or the kernel refuses the pages.
#
# The test `multiprocess`.
#
# Usage: test/run-multiprocess.sh [--build-dir DIR] [--help]
#   (the drivers of DIR/drivers, the application DIR/test/mp_secondary_app)
# MLX5_MP_LOG=<level> adds --log-level=pmd.*mlx5*:<level> to every process.
set -u

cd "$(dirname "$0")/.."
. devtools/cli.sh
cli_parse "$0" "" "$@"
drivers=$CLI_BUILD/drivers
app=$CLI_BUILD/test/mp_secondary_app
testpmd=$(command -v dpdk-testpmd || true)
procinfo=$(command -v dpdk-proc-info || true)
if [ -z "$testpmd" ] || [ -z "$procinfo" ]; then
	echo "dpdk-testpmd or dpdk-proc-info not installed (package dpdk)"
	exit 77
fi
if [ "$(id -u)" != 0 ]; then
	echo "skipped: hugepages for secondary processes need root"
	exit 77
fi
# The smallest hugepage size the kernel exposes (machines differ).
kb=""
for d in /sys/kernel/mm/hugepages/hugepages-*kB; do
	[ -d "$d" ] || continue
	k=${d##*/hugepages-}
	k=${k%kB}
	if [ -z "$kb" ] || [ "$k" -lt "$kb" ]; then kb=$k; fi
done
hp=/sys/kernel/mm/hugepages/hugepages-${kb}kB
if [ -z "$kb" ] || [ ! -w "$hp/nr_hugepages" ] ||
   ! grep -qw hugetlbfs /proc/filesystems; then
	echo "skipped: no hugepages (or hugetlbfs) here"
	exit 77
fi
# EAL refuses plugins under a world-writable directory: the one helper.
# shellcheck source=test/plugin_dir.sh
. test/plugin_dir.sh
safe_plugin_dir "$drivers"
dir=$plugin_dir

work=$(mktemp -d)
mnt=$work/huge
prefix=mlx5mp$$
need=$(( (640 * 1024 + kb - 1) / kb )) # The primary's 512 MB and margin.
old_nr=$(cat "$hp/nr_hugepages")
raised=0
added=0
mounted=0
holder=""
cleanup() {
	[ -n "$holder" ] && kill "$holder" 2>/dev/null
	[ -n "${primary:-}" ] && kill "$primary" 2>/dev/null && sleep 1
	[ "$mounted" = 1 ] && umount "$mnt" 2>/dev/null
	# Give back what was added (relative: other runs on this machine
	# may add or give back pages meanwhile).
	[ "$raised" = 1 ] &&
		echo $(( $(cat "$hp/nr_hugepages") - added )) \
			>"$hp/nr_hugepages" 2>/dev/null
	# MLX5_MP_KEEP=1: keep the processes' outputs.
	if [ -n "${MLX5_MP_KEEP:-}" ]; then
		echo "outputs kept in $work"
	else
		rm -rf "$work"
	fi
	rm -rf /var/run/dpdk/"$prefix"
	remove_plugin_copy
}
trap cleanup EXIT
free=$(cat "$hp/free_hugepages")
if [ "$free" -lt "$need" ]; then
	echo $((old_nr + need - free)) >"$hp/nr_hugepages" 2>/dev/null
	added=$(( $(cat "$hp/nr_hugepages") - old_nr ))
	raised=1
	if [ "$(cat "$hp/free_hugepages")" -lt "$need" ]; then
		echo "skipped: the kernel gives no $need free ${kb} kB hugepages"
		exit 77
	fi
fi
mkdir -p "$mnt"
if ! mount -t hugetlbfs -o pagesize="${kb}K" nodev "$mnt" 2>/dev/null; then
	echo "skipped: cannot mount hugetlbfs"
	exit 77
fi
mounted=1

logs=""
if [ -n "${MLX5_MP_LOG:-}" ]; then
	logs="--log-level=pmd.common.mlx5*:$MLX5_MP_LOG --log-level=pmd.net.mlx5:$MLX5_MP_LOG"
fi
eal="--huge-dir $mnt --file-prefix $prefix --no-pci -d $dir $logs"

# The value of xstat $2 of port $1 in file $3 (testpmd-lib.sh).
xstat() { testpmd_xstat "$@"; }
# Wait (30 s at most) until file $1 has line $2.
wait_for() {
	i=0
	while ! grep -q "$2" "$1" 2>/dev/null; do
		i=$((i + 1))
		[ "$i" -gt 300 ] && return 1
		sleep 0.1
	done
}

# shellcheck source=test/testpmd-lib.sh
. "$(pwd)/test/testpmd-lib.sh"
# The primary reads its commands from a fifo held open by a sleeper.
mkfifo "$work/in"
sleep 600 >"$work/in" &
holder=$!
# shellcheck disable=SC2086
timeout 300 $testpmd_linebuf "$testpmd" -l 0-1 $eal -m 512 \
	--vdev=mlx5_sim0,card=46 --vdev=mlx5_sim1,card=46 -- -i \
	--rxq=2 --txq=2 --num-procs=2 --proc-id=0 --total-num-mbufs=8192 \
	--forward-mode=rxonly <"$work/in" >"$work/primary" 2>&1 &
primary=$!
send() { printf '%s\n' "$@" >"$work/in"; }

echo "1. primary: two ports, two queues each, rxonly on queue 0"
wait_for "$work/primary" "testpmd>"
check $? "the primary is up"
send start

echo "2. secondary: flowgen on queue 1 of both ports"
# Until both ports' queues 1 sent and received and the primary's queues 0
# received (testpmd-lib.sh: not a fixed time, a busy machine may starve
# the forwarding thread for seconds), 60 s at most.
out="$work/secondary"
secondary_moved() {
	for p in 0 1; do
		for x in tx_q1_packets rx_q1_packets rx_q0_packets; do
			[ "$(xstat $p $x "$out")" -gt 0 ] || return 1
		done
	done
}
testpmd_ready=secondary_moved
# shellcheck disable=SC2086
testpmd_feed start "show port xstats all" "show port xstats all;stop;quit" |
	timeout $((TESTPMD_WAIT_MAX + 60)) $testpmd_linebuf "$testpmd" \
	-l 0-1 --main-lcore 1 --proc-type=secondary \
	$eal -- -i --rxq=2 --txq=2 --num-procs=2 --proc-id=1 \
	--forward-mode=flowgen >"$work/secondary" 2>&1
rc=$?
[ "$rc" = 0 ] && grep -q "^Bye" "$work/secondary"
check $? "the secondary ran and quit (exit $rc)"
for p in 0 1; do
	tx1=$(xstat $p tx_q1_packets "$work/secondary")
	rx1=$(xstat $p rx_q1_packets "$work/secondary")
	rx0=$(xstat $p rx_q0_packets "$work/secondary")
	errs=$(( $(xstat $p rx_errors "$work/secondary") + \
		 $(xstat $p tx_errors "$work/secondary") ))
	echo "  port $p: secondary Tx queue 1 $tx1, Rx queue 1 $rx1; primary Rx queue 0 $rx0; errors $errs"
	[ "$tx1" -gt 0 ]; check $? "port $p: the secondary sends on queue 1"
	[ "$rx1" -gt 0 ]; check $? "port $p: the secondary receives on queue 1"
	[ "$rx0" -gt 0 ]; check $? "port $p: the primary receives what the secondary sent"
	[ "$errs" -eq 0 ]; check $? "port $p: no error"
done

echo "3. dpdk-proc-info --stats, then --xstats (one at a time, as it takes them)"
# shellcheck disable=SC2086
timeout 60 "$procinfo" $eal -- --stats >"$work/procinfo" 2>&1
rc=$?
# shellcheck disable=SC2086
timeout 60 "$procinfo" $eal -- --xstats >"$work/procinfo_x" 2>&1
rcx=$?
[ "$rc" = 0 ] && [ "$rcx" = 0 ]
check $? "dpdk-proc-info ran (exit $rc and $rcx)"
for p in 0 1; do
	rx=$(awk -v port="$p" '
		/NIC statistics for port/ { p = $(NF - 1) }
		p == port && $1 == "RX-packets:" { print $2; exit }' \
		"$work/procinfo")
	tx1=$(xstat "$p" tx_q1_packets "$work/procinfo_x")
	echo "  port $p: RX-packets ${rx:-none}, xstat tx_q1_packets $tx1"
	[ "${rx:-0}" -gt 0 ]; check $? "port $p: stats shown"
	[ "$tx1" -gt 0 ] &&
		grep -q "rx_out_of_buffer" "$work/procinfo_x"
	check $? "port $p: xstats shown (tx_q1_packets, rx_out_of_buffer)"
done

echo "4. a secondary sending from pools of its own"
if [ -x "$app" ]; then
	# shellcheck disable=SC2086
	timeout 120 "$app" -l 0 --proc-type=secondary $eal -- 1 \
		>"$work/own" 2>&1
	rc=$?
	grep "^mp_secondary_app:" "$work/own" | sed 's/^/  /'
	check $rc "keys of the secondary's own memory (exit $rc)"
else
	echo "  $app not built: not run"
	check 1 "the secondary application is built ($app)"
fi

echo "5. the primary after the secondaries"
# Flowgen on the primary's queues 0 (its flows spread by RSS over both
# queues; what lands on queue 1, the secondary's, is not read), counters
# cleared first: until more than 1,000 sent and some received
# (testpmd-lib.sh).
out="$work/primary"
primary_moved() {
	[ "$(xstat 0 tx_q0_packets "$out")" -gt 1000 ] &&
		[ "$(xstat 0 rx_q0_packets "$out")" -gt 0 ]
}
testpmd_ready=primary_moved
testpmd_feed "stop;clear port xstats all;set fwd flowgen;start" \
	"show port xstats all" "show port xstats all;stop;quit" >"$work/in"
wait "$primary"
rc=$?
primary=""
tx0=$(xstat 0 tx_q0_packets "$work/primary")
rx0=$(xstat 0 rx_q0_packets "$work/primary")
echo "  port 0: primary Tx queue 0 $tx0, Rx queue 0 $rx0 since cleared (exit $rc)"
[ "$tx0" -gt 1000 ] && [ "$rx0" -gt 0 ]
check $? "the primary still sends and receives"
[ "$rc" = 0 ] && grep -q "^Bye" "$work/primary"
check $? "the primary quit cleanly"
if [ "$failed" -ne 0 ] || [ -n "${MLX5_MP_LOG:-}" ]; then
	for f in primary secondary procinfo procinfo_x own; do
		echo "---- $f"
		grep -v "^testpmd> *$" "$work/$f" | tail -40
	done
fi
echo "multiprocess: $passed checks passed, $failed failed"
[ "$failed" -eq 0 ]
