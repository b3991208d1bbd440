#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
#
# The net PMD's cost per packet, two ways, each printed beside its target:
#   1. the stock `dpdk-test pmd_perf_autotest` (-l 0-1, two ports, loopback)
#      on two software devices (speed=1000: the test sizes its run from the
#      link speed) and, in the same run, on two net_ring ports: cycles per
#      packet as the test prints them, and the ratio;
#   2. callgrind on app/test-mlx5-engine --pmd (64-byte packets, bursts of
#      32, tx_burst then rx_burst on a looped port): instructions per packet
#      of the PMD's Tx burst without the device's work (the UAR kick) and
#      of its Rx burst, with Rx CQE compression (the default: a burst's
#      CQEs are one session) and without (--pmd-nocomp,
#      rxq_cqe_comp_en=0).
# Figures are reported, never asserted: the exit code says only whether it
# ran.
#
# Usage: devtools/run-pmd-bench.sh [--build-dir DIR] [--help] [--bursts N]
set -eu

cd "$(dirname "$0")/.."
. devtools/cli.sh
BUILD_DIR=build
BURSTS=2048
while [ $# -gt 0 ]; do
	case $1 in
	--build-dir) BUILD_DIR=${2:?--build-dir needs a folder}; shift 2 ;;
	--bursts) BURSTS=$2; shift 2 ;;
	--help) cli_usage "$0"; exit 0 ;;
	*) cli_bad "$0" "$1" ;;
	esac
done
bench=$BUILD_DIR/app/test-mlx5-engine/dpdk-test-mlx5-engine
# EAL refuses plugins under a world-writable directory: the one helper.
# shellcheck source=test/plugin_dir.sh
. test/plugin_dir.sh
safe_plugin_dir "$BUILD_DIR/drivers"
drivers=$plugin_dir
if ! command -v dpdk-test >/dev/null 2>&1; then
	echo "dpdk-test is not installed (package dpdk)"
	exit 77
fi
if ! command -v valgrind >/dev/null 2>&1; then
	echo "valgrind is not installed (package valgrind)"
	exit 77
fi
out=$(mktemp -d "${TMPDIR:-/tmp}/pmd-bench.XXXXXX")
trap 'rm -rf "$out"; remove_plugin_copy' EXIT

# pmd_perf_autotest on the given --vdev arguments: its "Result:" figure.
perf() {
	name=$1; shift
	# shellcheck disable=SC2068
	(echo pmd_perf_autotest; sleep 1; echo quit) |
		timeout 600 dpdk-test -l 0-1 --no-huge -m 1024 --no-pci \
		--no-shconf -d "$drivers" $@ >"$out/$name.log" 2>&1 || true
	sed -n 's/^Result: \([0-9]*\) cycles per packet.*/\1/p' \
		"$out/$name.log" | tail -n 1
}
ours=$(perf mlx5 --vdev=mlx5_sim0,card=202,speed=1000 \
	--vdev=mlx5_sim1,card=202,speed=1000)
ring=$(perf ring --vdev=net_ring0 --vdev=net_ring1)
if [ -z "$ours" ] || [ -z "$ring" ]; then
	tail -n 20 "$out/mlx5.log" "$out/ring.log"
	echo "FAIL: pmd_perf_autotest printed no result"
	exit 1
fi

# pmd_ir <name> <option>: "tx rx device" instructions per packet of the
# bench's --pmd or --pmd-nocomp run under callgrind, into $out/<name>.ir.
pmd_ir() {
	if ! valgrind --tool=callgrind --dump-instr=no \
		--callgrind-out-file="$out/$1" "$bench" "$2" "$BURSTS" \
		>"$out/$1.log" 2>&1; then
		cat "$out/$1.log"
		echo "FAIL: the PMD bursts did not run under callgrind ($2)"
		exit 1
	fi
	dump=$(grep -l 'bench:pmd:' "$out/$1"* | head -n 1)
	n=$(sed -n 's/.*bench:pmd:\([0-9]*\).*/\1/p' "$dump" | head -n 1)
	# From a directory where the build's relative source paths do not
	# resolve: callgrind_annotate would otherwise list a function twice,
	# split. The largest inclusive figure of each function is its whole.
	(cd / && callgrind_annotate --inclusive=yes --auto=no "$dump" \
		2>/dev/null) |
		awk -v n="$n" '
		function num(s) { gsub(/,/, "", s); return s + 0 }
		/mlx5_net_tx_burst_[a-z_]* \[/ { v = num($1); if (v > tx) tx = v }
		/mlx5_net_rx_burst_[a-z_]* \[/ { v = num($1); if (v > rx) rx = v }
		/mlx5_sim_uar_kick \[/ { v = num($1); if (v > kick) kick = v }
		END { printf "%.1f %.1f %.1f\n", (tx - kick) / n, rx / n,
			kick / n }' >"$out/$1.ir"
	# A burst function missing from the profile (renamed) is a failure,
	# not a figure of 0.
	if awk '{ exit !($1 <= 0 || $2 <= 0) }' "$out/$1.ir"; then
		echo "FAIL: no mlx5_net_{tx,rx}_burst_* function in the profile ($2)"
		exit 1
	fi
}
pmd_ir zip --pmd
pmd_ir plain --pmd-nocomp
read -r tx_ir rx_ir dev_ir <"$out/zip.ir"
read -r _ rx_plain_ir _ <"$out/plain.ir"

printf 'net/mlx5 on the software device (cycles: the stock pmd_perf_autotest)\n\n'
printf '%-52s %10s  %s\n' figure measured target
printf '%-52s %10s  %s\n' "pmd_perf_autotest, our ports (cycles/packet)" \
	"$ours" "<= 60: $([ "$ours" -le 60 ] && echo ok || echo MISSED)"
printf '%-52s %10s\n' "pmd_perf_autotest, net_ring ports (cycles/packet)" \
	"$ring"
printf '%-52s %10s\n' "ratio ours / net_ring" \
	"$(awk -v a="$ours" -v b="$ring" 'BEGIN { printf "%.1f", a / b }')"
printf '%-52s %10s  %s\n' "PMD Tx burst without the device (instr/packet)" \
	"$tx_ir" "<= 60: $(awk -v v="$tx_ir" 'BEGIN { print v <= 60 ? "ok" : "MISSED" }')"
printf '%-52s %10s  %s\n' "PMD Rx burst, compressed CQEs (instr/packet)" \
	"$rx_ir" \
	"<= 60: $(awk -v v="$rx_ir" 'BEGIN { print v <= 60 ? "ok" : "MISSED" }')"
printf '%-52s %10s  %s\n' "PMD Rx burst, rxq_cqe_comp_en=0 (instr/packet)" \
	"$rx_plain_ir" \
	"<= 60: $(awk -v v="$rx_plain_ir" 'BEGIN { print v <= 60 ? "ok" : "MISSED" }')"
printf '%-52s %10s\n' "the device's work per packet (instr)" "$dev_ir"
