#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
#
# Our mlx5 PMDs beside Debian's own (DPDK 22.11's net/mlx5 and
# crypto/mlx5, as installed) on the software device, in one run, through
# the same rdma-core front, on the same kind of host: two functions of one
# card cabled to each other, their veth netdevs in a network namespace of
# this script's own (unshare -n). Debian's PMDs take ConnectX-6 Dx
# functions (device id 0x101d, no devarg: its defaults, the DV flow engine
# and CQE compression among them); ours,
# loaded with -d, ConnectX-8 functions (0x1023, which Debian's PMD does
# not know): the same model behind both, the same front, the device's
# work on the front's doorbell thread for both.
#   1. dpdk-test pmd_perf_autotest (-l 0-1, the two ports): its cycles per
#      packet, the median of --repeats runs of each, alternated;
#   2. the PMDs' bursts under callgrind: Debian's dpdk-testpmd forwarding
#      64-byte packets (io, start tx_first), instrumented for --secs
#      seconds after 5 s of traffic (callgrind_control -i): the calls from
#      testpmd's loop into the PMD's library and their inclusive
#      instructions (the device is on the front's doorbell thread, not in
#      them; Debian's library is stripped: its bursts are the functions
#      that loop calls in it). Tx: the tx burst's, per sent packet. Rx:
#      in a second run with the Rx gate preloaded
#      (app/test-mlx5-burst/rx_gate.c: each Rx poll asks the PMD's
#      rx_queue_count first and calls the burst only when a completion is
#      there, under callgrind the device being slower than the polling),
#      the instructions of the bursts called per received packet;
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
# Time: about 8 minutes with the defaults.
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
# The Rx gate preloaded into the gated runs (app/test-mlx5-burst).
gate=$build/app/test-mlx5-burst/libmlx5_rx_gate.so
if [ ! -f "$gate" ]; then
	echo "run-upstream-bench: no $gate (ninja -C $build)" >&2
	exit 1
fi
# A valgrind left running by a failed step goes with the script.
trap '[ -z "$vgpid" ] || kill "$vgpid" 2>/dev/null; remove_plugin_copy' EXIT
dir=$build/upstream-bench
rm -rf "$dir"
mkdir -p "$dir"

# host <who>: the host of upstream's or our functions; sets $ports (the
# EAL arguments of both functions) and $crypto (of function 0 as a
# crypto device) and $devtype (crypto-perf's name of its PCI driver).
host() {
	if [ "$1" = upstream ]; then
		testpmd_host "$dir/host-upstream" 4 0x101d "$build" >/dev/null
		ports="-a 0000:08:00.0 -a 0000:08:00.1"
		crypto="-a 0000:08:00.0,class=crypto"
		devtype=mlx5_pci
	else
		testpmd_host "$dir/host-ours" 6 0x1023 "$build" >/dev/null
		ports="-d $drv -a 0000:08:00.0 -a 0000:08:00.1"
		crypto="-d $drv -a 0000:08:00.0,class=crypto"
		devtype=mlx5c_pci
	fi
}

# median of the numbers on stdin (empty if none; the mean of the two
# middle ones for an even count).
median() {
	sort -n | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]
		else if (NR) print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
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

# cg_run <who> <traffic|gated>: testpmd io forwarding under callgrind,
# started with traffic (start tx_first), instrumented for $secs seconds
# (callgrind_control -i on valgrind's pid) after 5 s of it; "gated": with
# the Rx gate preloaded (the Rx bursts called only when their queue has
# a completion: rx_gate.c); the port statistics cleared and shown inside
# that window. Leaves "<RX packets> <TX packets>" in $dir/pk-<who>-<run>
# and in $dir/cg-<who>-<run>.calls the calls into the PMD's net library,
# one line a callee, "<calls> <inclusive instructions>", the most called
# first: from testpmd (traffic), from the gate's mlx5_rx_gate_burst()
# (gated). Returns 1 if something failed.
vgpid=
cg_run() {
	host "$1"
	log=$dir/cg-$1-$2.log
	cg=$dir/cg-$1-$2.out
	fifo=$dir/cg-$1-$2.fifo
	: >"$dir/pk-$1-$2"
	: >"$dir/cg-$1-$2.calls"
	rm -f "$fifo" "$cg"
	mkfifo "$fifo"
	preload=
	[ "$2" != gated ] || preload=$gate
	# shellcheck disable=SC2086
	timeout 900 $testpmd_linebuf env ${preload:+LD_PRELOAD=$preload} \
		valgrind --tool=callgrind \
		--instr-atstart=no --fair-sched=yes --dump-instr=no \
		--callgrind-out-file="$cg" \
		"$testpmd" --no-huge -m 1024 --no-shconf -l 0-1 \
		$ports -- -i --total-num-mbufs=8192 --rxd=256 --txd=256 \
		--forward-mode=io <"$fifo" >"$log" 2>&1 &
	vg=$!
	exec 3>"$fifo"
	i=0
	while [ $i -lt 600 ] && ! grep -q "testpmd> " "$log" &&
			kill -0 "$vg" 2>/dev/null; do
		sleep 1
		i=$((i + 1))
	done
	# timeout's child: valgrind (stdbuf execs it).
	vgpid=$(pgrep -P "$vg" | head -n 1 || true)
	if ! grep -q "testpmd> " "$log" || [ -z "$vgpid" ]; then
		exec 3>&-
		kill "$vg" 2>/dev/null || true
		wait "$vg" || true
		echo "  testpmd under valgrind did not start (log: $log)" >&2
		return 1
	fi
	echo "start tx_first" >&3
	sleep 5
	ok=1
	callgrind_control -i on "$vgpid" >/dev/null 2>&1 || ok=0
	echo "clear port stats all" >&3
	sleep "$secs"
	echo "show port stats all" >&3
	sleep 1
	callgrind_control -i off "$vgpid" >/dev/null 2>&1 || ok=0
	printf 'stop\nquit\n' >&3
	exec 3>&-
	wait "$vg" || true
	vgpid=
	rm -f "$fifo"
	if [ "$ok" = 0 ] || [ ! -s "$cg" ]; then
		echo "  callgrind_control failed (log: $log)" >&2
		return 1
	fi
	out=$log
	echo "$(($(testpmd_stat 0 RX-packets:) + $(testpmd_stat 1 RX-packets:))) $(($(testpmd_stat 0 TX-packets:) + $(testpmd_stat 1 TX-packets:)))" \
		>"$dir/pk-$1-$2"
	# The PMD's net library: Debian's under /usr, ours under $drv;
	# the callers: testpmd's loop, or the gate's burst call.
	if [ "$1" = upstream ]; then lib=/usr/; else lib=$drv/; fi
	gated=0
	[ "$2" != gated ] || gated=1
	# The line after "calls=" is the call's inclusive cost; cob= names
	# the callee's object for that call only; names are "(id) name"
	# once, "(id)" after, objects (ob, cob) and functions (fn, cfn)
	# numbered apart: one table each.
	awk -v lib="$lib" -v gated="$gated" '
	function name(t, s,   id, n) {
		id = s; sub(/ .*/, "", id)
		n = s; sub(/^\([0-9]+\) ?/, "", n)
		if (n != "") names[t, id] = n
		return names[t, id]
	}
	/^ob=/ { ob = name("ob", substr($0, 4)); cob = ob; next }
	/^cob=/ { cob = name("ob", substr($0, 5)); next }
	/^fn=/ { fn = name("fn", substr($0, 4)); cob = ob; next }
	/^cfn=/ { cfn = name("fn", substr($0, 5)); next }
	/^calls=/ { n = $1; sub(/calls=/, "", n); call = 1; next }
	/^[0-9+*-]/ {
		if (call) {
			if (gated) sel = fn == "mlx5_rx_gate_burst"
			else sel = ob ~ /\/dpdk-testpmd$/
			if (sel && index(cob, lib) == 1 &&
			    cob ~ /librte_net_mlx5\.so/) {
				c[cfn] += n; ir[cfn] += $NF
			}
			call = 0; cob = ob
		}
		next
	}
	END { for (f in c) printf "%.0f %.0f\n", c[f], ir[f] }' "$cg" |
		sort -k1,1nr >"$dir/cg-$1-$2.calls"
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

echo "2. the PMDs' bursts under callgrind ($secs s windows, io forwarding)"
for who in upstream ours; do
	for t in traffic gated; do
		if cg_run $who $t; then
			echo "  $who $t: RX, TX packets: $(cat "$dir/pk-$who-$t"); calls, instructions of each callee: $(tr '\n' ';' <"$dir/cg-$who-$t.calls")"
		fi
	done
done
# bursts <who>: "<Tx calls/packet> <Tx instr/packet> <Rx calls/packet>
# <Rx instr/packet>". In io forwarding, testpmd's loop calls the tx
# burst once for each Rx poll that got packets: in the traffic run the
# callee called second most (the rx burst is the first), its figures per
# sent packet. The rx burst's from the gated run: its calls (the gate's
# burst calls, each with a completion there) and their instructions, per
# received packet.
bursts() {
	[ -s "$dir/cg-$1-traffic.calls" ] && [ -s "$dir/cg-$1-gated.calls" ] &&
		[ -s "$dir/pk-$1-traffic" ] && [ -s "$dir/pk-$1-gated" ] ||
		return 0
	read -r _ txp <"$dir/pk-$1-traffic"
	read -r grx _ <"$dir/pk-$1-gated"
	{ sed -n 2p "$dir/cg-$1-traffic.calls"; head -n 1 "$dir/cg-$1-gated.calls"; } |
		awk -v txp="$txp" -v grx="$grx" '
		NR == 1 { tc = $1; ti = $2 } NR == 2 { rc = $1; ri = $2 }
		END { if (NR == 2 && grx > 0 && txp > 0)
			printf "%.2f %.1f %.2f %.1f\n", tc / txp, ti / txp,
				rc / grx, ri / grx }'
}
for who in upstream ours; do
	bursts $who >"$dir/burst-$who"
	if read -r tc ti rc ri <"$dir/burst-$who"; then
		echo "  $who: tx burst $tc calls and $ti instructions a packet; rx burst (gated) $rc calls and $ri instructions a packet"
	fi
done
# instr <who> <tx|rx>: the burst's instructions per packet; nothing if
# not measured, or if it took less than 4 packets a call.
instr() {
	read -r tc ti rc ri <"$dir/burst-$1" || return 0
	if [ "$2" = tx ]; then
		awk -v c="$tc" -v i="$ti" 'BEGIN { if (c <= 0.25) print i }'
	else
		awk -v c="$rc" -v i="$ri" 'BEGIN { if (c <= 0.25) print i }'
	fi
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
echo "(Rx: the bursts the Rx gate calls, each with a completion there;"
echo "without it the device's thread, slow under callgrind, leaves most polls empty.)"
echo "(logs: $dir)"
echo "ours/upstream: pmd_perf cycles $(ratio "$perf_ours" "$perf_up"), PMD instr Tx $(ratio "$tx_ours" "$tx_up"), Rx $(ratio "$rx_ours" "$rx_up"), crypto throughput $(ratio "$cr_ours" "$cr_up")"
# It ran: every figure that does not depend on callgrind's timing.
[ -n "$perf_up" ] && [ -n "$perf_ours" ] && [ -n "$cr_up" ] &&
	[ -n "$cr_ours" ]
