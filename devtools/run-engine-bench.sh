#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
#
# The software device's engine per packet (64-byte frames, bursts of 32,
# send + loopback + steering + receive), beside DPDK's net_ring moving the
# same bursts in the same run, and the doorbell helper with the kick hook
# NULL (a real device) beside the same stores without the hook's test.
# Instructions under callgrind (stable), cycles natively (TSC, median of 9
# runs; a shared host makes them a hint). Figures are printed beside their
# target, never asserted: the exit code says only whether it ran.
#
# Usage: devtools/run-engine-bench.sh [--build-dir DIR] [--help] [--bursts N]
# Also run by `meson test -C build --benchmark --suite engine`.
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
if [ ! -x "$bench" ]; then
	ninja -C "$BUILD_DIR" >/dev/null
fi
if ! command -v valgrind >/dev/null 2>&1; then
	echo "valgrind is not installed (package valgrind): no instruction counts"
	exit 77
fi
out=$(mktemp -d "${TMPDIR:-/tmp}/engine-bench.XXXXXX")
trap 'rm -rf "$out"' EXIT

# Instructions per packet of a callgrind run's bench:<name>:<n> dumps.
ir_of() {
	for f in "$out/$1"*; do
		awk '/^desc: Trigger: Client Request: bench:/ {
			sub(/.*bench:/, ""); split($0, a, ":"); name = a[1]; n = a[2]
		}
		/^(summary|totals):/ { ir = $2 }
		END { if (name != "") printf "%s %.1f\n", name, ir / n }' "$f"
	done
}

# cg <out name> <valgrind option>... -- <bench args>...
cg() {
	name=$1; shift
	vg=""
	while [ "$1" != "--" ]; do vg="$vg $1"; shift; done
	shift
	# shellcheck disable=SC2086
	if ! valgrind --tool=callgrind --dump-instr=no --dump-line=no $vg \
		--callgrind-out-file="$out/$name" "$bench" "$@" \
		>"$out/$name.log" 2>&1; then
		cat "$out/$name.log"
		echo "FAIL: $name did not run under callgrind"
		exit 1
	fi
}

# 1. Instructions. Whole loops: the driver side and the device for the
# software device, tx_burst + rx_burst for net_ring, and the doorbells.
cg cg.engine -- --engine "$BURSTS"
cg cg.ring -- --ring "$BURSTS"
cg cg.doorbell -- --doorbell "$BURSTS"
{ ir_of cg.engine; ir_of cg.ring; ir_of cg.doorbell; } >"$out/ir"
# The device alone: the inclusive cost of the UAR's kick hook in the
# engine's dump.
for f in "$out"/cg.engine*; do
	grep -q 'bench:engine:' "$f" || continue
	n=$(sed -n 's/.*bench:engine:\([0-9]*\).*/\1/p' "$f" | head -n 1)
	# From / : where the build's relative source paths resolve,
	# callgrind_annotate lists a function twice, split; the largest
	# inclusive figure is its whole.
	(cd / && callgrind_annotate --inclusive=yes --auto=no "$f" \
		2>/dev/null) |
		awk -v n="$n" '/mlx5_sim_uar_kick \[/ {
			gsub(/,/, "", $1); if ($1 + 0 > v) v = $1 + 0 }
			END { printf "device %.1f\n", v / n }'
done >>"$out/ir"

# 2. Cycles, natively.
"$bench" --engine "$BURSTS" >"$out/native" 2>&1
"$bench" --ring "$BURSTS" >>"$out/native" 2>&1
"$bench" --doorbell "$BURSTS" >>"$out/native" 2>&1

awk -v ir_file="$out/ir" -v cy_file="$out/native" '
BEGIN {
	while ((getline l < ir_file) > 0) { split(l, f, " "); ir[f[1]] = f[2] }
	while ((getline l < cy_file) > 0)
		if (l ~ /cycles\/packet/) { split(l, f, " "); cy[f[1]] = f[2] }
	printf "Software device engine: 64-byte frames, bursts of 32, loopback\n"
	printf "(send, cable, steering, receive), beside net_ring in the same run.\n\n"
	printf "%-46s %12s %14s  %s\n", "figure", "instr/packet", "cycles/packet", "target"
	printf "%-46s %12.1f %14.1f  %s\n", "device only (inside the kick)",
	       ir["device"], cy["device"], "<= 60 instructions: " \
	       (ir["device"] <= 60 ? "ok" : "MISSED")
	printf "%-46s %12.1f %14.1f\n", "whole loop: WQEs, doorbell, device, CQEs",
	       ir["engine"], cy["engine"]
	printf "%-46s %12.1f %14.1f\n", "net_ring: tx_burst + rx_burst (anchor)",
	       ir["net_ring"], cy["net_ring"]
	printf "%-46s %12.2f %14.2f\n", "ratio whole loop / net_ring",
	       ir["engine"] / ir["net_ring"], cy["engine"] / cy["net_ring"]
	printf "%-46s %12.1f %14.2f\n", "doorbell helper, kick NULL (real device)",
	       ir["doorbell"], cy["doorbell"]
	printf "%-46s %12.1f %14.2f\n", "the same stores without the hook test",
	       ir["doorbell_bare"], cy["doorbell_bare"]
	printf "%-46s %12.1f %14.2f  (per doorbell, i.e. per burst)\n",
	       "cost of the hook on a real device",
	       ir["doorbell"] - ir["doorbell_bare"],
	       cy["doorbell"] - cy["doorbell_bare"]
}'
