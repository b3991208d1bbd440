#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
#
# Our mlx5 PMDs beside Debian's own (DPDK 22.11's net/mlx5 and
# crypto/mlx5, as installed) on the software device, in one run, through
# the same rdma-core front, on the same kind of host: two functions of one
# card cabled to each other, their veth netdevs in a network namespace of
# this script's own (unshare -n). Debian's PMDs take ConnectX-6 Dx
# functions (device id 0x101d, devargs dv_flow_en=0,rxq_cqe_comp_en=0: the
# device announces neither DR steering nor CQE compression); ours,
# loaded with -d, ConnectX-8 functions (0x1023, which Debian's PMD does
# not know): the same model behind both, the same front, the device's
# work on the front's doorbell thread for both.
#   1. dpdk-test pmd_perf_autotest (-l 0-1, the two ports): its cycles per
#      packet, the median of --repeats runs of each, alternated;
#   2. the PMDs' bursts under callgrind: Debian's dpdk-testpmd sending
#      (txonly) and forwarding (io, start tx_first) 64-byte packets,
#      instrumented for --secs seconds once traffic moves (callgrind_control
#      -i): per packet, the calls from testpmd into the PMD's tx burst
#      (txonly) and rx burst (io) and their inclusive instructions (the
#      device is on the front's doorbell thread, not in them; Debian's
#      library is stripped: its bursts are the two functions testpmd's
#      loop calls in it). A burst called more than twice a packet is
#      mostly empty polls: its figure is then given as measured and left
#      out of the ratios (n/a);
#   3. dpdk-test-crypto-perf --ptest throughput, AES-XTS-256 on 4 KiB
#      buffers, of each crypto PMD on function 0 (class=crypto): Gbps, the
#      median of --repeats runs, alternated.
# Ends with the line
#   ours/upstream: pmd_perf cycles R, PMD instr Tx R, Rx R, crypto throughput R
# (cycles and instructions: lower is better for ours; throughput: higher).
# Figures are reported, never asserted: the exit code says only whether it
# ran. Skips (exit 77) without a network namespace or valgrind.
#
# Usage: devtools/run-upstream-bench.sh [--build-dir DIR] [--repeats N]
#                                       [--secs S]
#   --repeats  runs of pmd_perf_autotest and of crypto-perf per PMD (3)
#   --secs     seconds of each callgrind window (10)
# Time: about 6 minutes with the defaults.
set -eu
src=$(cd "$(dirname "$0")/.." && pwd)
. "$src/devtools/cli.sh"
cli_repeats=3
cli_secs=10
cli_parse "$0" "--repeats: --secs:" "$@"
build=$CLI_BUILD
repeats=$cli_repeats
secs=$cli_secs
. "$src/test/testpmd-lib.sh"
testpmd_netns upstream-bench "$0" --build-dir "$build" --repeats "$repeats" \
	--secs "$secs"
for tool in valgrind callgrind_control dpdk-test dpdk-test-crypto-perf; do
	if ! command -v $tool >/dev/null 2>&1; then
		echo "upstream-bench: skipped: $tool not installed (packages valgrind, dpdk)"
		exit 77
	fi
done
cd "$src"
. test/plugin_dir.sh
safe_plugin_dir "$build/drivers"
drv=$plugin_dir
trap 'remove_plugin_copy' EXIT
dir=$build/upstream-bench
rm -rf "$dir"
mkdir -p "$dir"
dv="dv_flow_en=0,rxq_cqe_comp_en=0"

# host <who>: the host of upstream's or our functions; sets $ports (the
# EAL arguments of both functions) and $crypto (of function 0 as a
# crypto device) and $devtype (crypto-perf's name of its PCI driver).
host() {
	if [ "$1" = upstream ]; then
		testpmd_host "$dir/host-upstream" 4 0x101d "$build" >/dev/null
		ports="-a 0000:08:00.0,$dv -a 0000:08:00.1,$dv"
		crypto="-a 0000:08:00.0,class=crypto"
		devtype=mlx5_pci
	else
		testpmd_host "$dir/host-ours" 6 0x1023 "$build" >/dev/null
		ports="-d $drv -a 0000:08:00.0 -a 0000:08:00.1"
		crypto="-d $drv -a 0000:08:00.0,class=crypto"
		devtype=mlx5c_pci
	fi
}

# median of the numbers on stdin (empty if none).
median() {
	sort -n | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)] }'
}

# perf_run <who> <n>: pmd_perf_autotest's cycles per packet.
perf_run() {
	host "$1"
	log=$dir/perf-$1-$2.log
	# shellcheck disable=SC2086
	(echo pmd_perf_autotest; sleep 1; echo quit) |
		timeout 600 dpdk-test -l 0-1 --no-huge -m 1024 --no-shconf \
		$ports >"$log" 2>&1 || true
	sed -n 's/^Result: \([0-9]*\) cycles per packet.*/\1/p' "$log" |
		tail -n 1
}

# crypto_run <who> <n>: crypto-perf throughput in Gbps.
crypto_run() {
	host "$1"
	log=$dir/crypto-$1-$2.log
	# shellcheck disable=SC2086
	timeout 300 dpdk-test-crypto-perf -l 0-1 --no-huge -m 1024 \
		--no-shconf $crypto -- --ptest throughput --devtype "$devtype" \
		--optype cipher-only --cipher-algo aes-xts --cipher-op encrypt \
		--cipher-key-sz 64 --cipher-iv-sz 16 --buffer-sz 4096 \
		--burst-sz 32 --total-ops 200000 >"$log" 2>&1 || true
	# lcore, sizes, enqueued, dequeued, failed, failed, MOps, Gbps.
	awk '/lcore id/ { getline; getline
		if ($4 > 0 && $4 == $5) print $9; exit }' "$log"
}

# cg_run <who> <mode>: testpmd in forwarding mode <mode> under callgrind,
# instrumented for $secs seconds once traffic moves; prints "<RX packets>
# <TX packets>" of the window and leaves its calls into the PMD in
# $dir/cg-<who>-<mode>.calls.
cg_run() {
	host "$1"
	log=$dir/cg-$1-$2.log
	cg=$dir/cg-$1-$2.out
	fifo=$dir/cg-$1-$2.fifo
	rm -f "$fifo"
	mkfifo "$fifo"
	# shellcheck disable=SC2086
	timeout 900 $testpmd_linebuf valgrind --tool=callgrind \
		--instr-atstart=no --fair-sched=yes --dump-instr=no \
		--callgrind-out-file="$cg" \
		"$testpmd" --no-huge -m 1024 --no-shconf -l 0-1 \
		$ports -- -i --total-num-mbufs=8192 --rxd=256 --txd=256 \
		--forward-mode="$2" <"$fifo" >"$log" 2>&1 &
	vg=$!
	exec 3>"$fifo"
	i=0
	while [ $i -lt 600 ] && ! grep -q "testpmd> " "$log"; do
		sleep 1
		i=$((i + 1))
	done
	if [ "$2" = io ]; then
		echo "start tx_first" >&3
	else
		echo "start" >&3
	fi
	# Warm-up: the first packets, then the window.
	sleep 5
	echo "clear port stats all" >&3
	# The one callgrind process of the run.
	callgrind_control -i on >/dev/null 2>&1 || true
	sleep "$secs"
	callgrind_control -i off >/dev/null 2>&1 || true
	echo "show port stats all" >&3
	sleep 3
	printf 'stop\nquit\n' >&3
	exec 3>&-
	wait "$vg" || true
	rm -f "$fifo"
	out=$log
	rx=$(($(testpmd_stat 0 RX-packets:) + $(testpmd_stat 1 RX-packets:)))
	tx=$(($(testpmd_stat 0 TX-packets:) + $(testpmd_stat 1 TX-packets:)))
	# The calls from testpmd's forwarding into the PMD's library (the
	# rx and tx bursts through ethdev's inline calls: one callee
	# function each, told apart by the txonly run having the tx one
	# only): per callee, "<calls> <inclusive instructions>". The line
	# after "calls=" is the call's inclusive cost.
	if [ "$1" = upstream ]; then ver=23; else ver=0; fi
	awk -v ver="$ver" '
	function name(s,   id, n) {
		id = s; sub(/ .*/, "", id)
		n = s; sub(/^\([0-9]+\) ?/, "", n)
		if (n != "") names[id] = n
		return names[id]
	}
	/^ob=/ { ob = name(substr($0, 4)); next }
	/^cob=/ { cob = name(substr($0, 5)); next }
	/^fn=/ { cob = ob; next }
	/^cfn=/ { cfn = substr($0, 5); sub(/ .*/, "", cfn); next }
	/^calls=/ { n = $1; sub(/calls=/, "", n); call = 1; next }
	/^[0-9+*-]/ {
		if (call) {
			k = split(ob, p, "/"); j = split(cob, q, "/")
			if (p[k] == "dpdk-testpmd" &&
			    q[j] ~ "^librte_net_mlx5\\.so\\." ver) {
				c[cfn] += n; ir[cfn] += $NF
			}
			call = 0; cob = ob
		}
		next
	}
	END { for (f in c) printf "%s %.0f %.0f\n", f, c[f], ir[f] }' \
		"$cg" >"$dir/cg-$1-$2.calls"
	echo "$rx $tx"
}

ratio() {
	awk -v a="$1" -v b="$2" 'BEGIN { if (a != "" && b > 0) printf "%.2f", a / b; else printf "n/a" }'
}

# alternate <run function> <name> <unit>: $repeats runs of each PMD,
# alternated, each figure printed and kept in $dir/<name>-<who>.
alternate() {
	: >"$dir/$2-upstream"
	: >"$dir/$2-ours"
	r=0
	while [ $r -lt "$repeats" ]; do
		for who in upstream ours; do
			v=$($1 $who $r)
			echo "  $who run $r: ${v:-none} $3"
			[ -z "$v" ] || echo "$v" >>"$dir/$2-$who"
		done
		r=$((r + 1))
	done
}

echo "1. pmd_perf_autotest, $repeats runs each, alternated"
alternate perf_run perf cycles/packet
perf_up=$(median <"$dir/perf-upstream")
perf_ours=$(median <"$dir/perf-ours")

echo "2. the PMDs' bursts under callgrind ($secs s windows)"
for who in upstream ours; do
	for mode in txonly io; do
		cg_run $who $mode >"$dir/pk-$who-$mode"
		echo "  $who $mode: RX, TX packets: $(cat "$dir/pk-$who-$mode")"
	done
done
# burst <who> <tx|rx>: "<calls per packet> <instructions per packet>" of
# the burst: tx, the txonly run's callee of the most instructions, per
# sent packet; rx, the io run's callee of the most calls other than that
# one, per received packet.
burst() {
	txf=$(sort -k3,3n "$dir/cg-$1-txonly.calls" | tail -n 1 |
		cut -d' ' -f1)
	if [ "$2" = tx ]; then
		read -r _ pk <"$dir/pk-$1-txonly"
		line=$(grep "^$txf " "$dir/cg-$1-txonly.calls")
	else
		read -r pk _ <"$dir/pk-$1-io"
		line=$(grep -v "^$txf " "$dir/cg-$1-io.calls" |
			sort -k2,2n | tail -n 1)
	fi
	echo "$line" | awk -v p="$pk" '{ if (p > 0)
		printf "%.1f %.1f\n", $2 / p, $3 / p }'
}
for who in upstream ours; do
	for d in tx rx; do
		burst $who $d >"$dir/burst-$who-$d"
		read -r calls ir <"$dir/burst-$who-$d" || true
		echo "  $who $d burst: ${calls:-?} calls and ${ir:-?} instructions per packet"
	done
done
# instr <who> <tx|rx>: the burst's instructions per packet, or nothing
# when its calls per packet show empty polls (more than 2 calls a
# packet): the device, on its own thread, could not keep up under
# callgrind, and the figure is the polling's, not the packets'.
instr() {
	read -r calls ir <"$dir/burst-$1-$2" || return 0
	awk -v c="$calls" -v i="$ir" 'BEGIN { if (c != "" && c <= 2) print i }'
}
tx_up=$(instr upstream tx)
tx_ours=$(instr ours tx)
rx_up=$(instr upstream rx)
rx_ours=$(instr ours rx)

echo "3. crypto-perf throughput, AES-XTS-256, 4 KiB, $repeats runs each"
alternate crypto_run crypto Gbps
cr_up=$(median <"$dir/crypto-upstream")
cr_ours=$(median <"$dir/crypto-ours")

echo
printf '%-44s %12s %12s %8s\n' figure upstream ours ours/up
printf '%-44s %12s %12s %8s\n' "pmd_perf_autotest (cycles/packet, median)" \
	"${perf_up:-n/a}" "${perf_ours:-n/a}" "$(ratio "$perf_ours" "$perf_up")"
printf '%-44s %12s %12s %8s\n' "PMD Tx burst (instructions/packet)" \
	"${tx_up:-n/a}" "${tx_ours:-n/a}" "$(ratio "$tx_ours" "$tx_up")"
printf '%-44s %12s %12s %8s\n' "PMD Rx burst (instructions/packet)" \
	"${rx_up:-n/a}" "${rx_ours:-n/a}" "$(ratio "$rx_ours" "$rx_up")"
printf '%-44s %12s %12s %8s\n' "crypto-perf AES-XTS-256 4 KiB (Gbps, median)" \
	"${cr_up:-n/a}" "${cr_ours:-n/a}" "$(ratio "$cr_ours" "$cr_up")"
if [ -z "$tx_up" ] || [ -z "$tx_ours" ] || [ -z "$rx_up" ] ||
		[ -z "$rx_ours" ]; then
	echo "n/a: a burst called more than twice a packet (calls per packet above):"
	echo "the device works on the front's doorbell thread, which callgrind runs"
	echo "far slower than the PMD polls it; the polls then outnumber the packets"
	echo "and their cost, not the packets', is what would be counted."
fi
echo "(logs: $dir)"
echo "ours/upstream: pmd_perf cycles $(ratio "$perf_ours" "$perf_up"), PMD instr Tx $(ratio "$tx_ours" "$tx_up"), Rx $(ratio "$rx_ours" "$rx_up"), crypto throughput $(ratio "$cr_ours" "$cr_up")"
# It ran: every figure that does not depend on callgrind's timing.
[ -n "$perf_up" ] && [ -n "$perf_ours" ] && [ -n "$cr_up" ] &&
	[ -n "$cr_ours" ]
