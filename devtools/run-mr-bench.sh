#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
#
# MR cache benchmark: instructions per lookup under callgrind (stable from
# run to run, unlike time on a shared host), then the registration of a
# 1M-mbuf mempool, natively. Prints every figure beside its target and a
# closing note. Figures are reported, never asserted: the exit code says
# only whether the benchmark ran.
#
# Usage: devtools/run-mr-bench.sh [--build-dir DIR] [--mbufs N] [--lookups N]
#   --mbufs 0 skips the mempool part (it needs about 4.3 GB of memory for
#   1M mbufs, since EAL runs without hugepages).
# Also run by `meson test -C build --benchmark`.
set -eu

cd "$(dirname "$0")/.."
BUILD_DIR=build
MBUFS=1048576
LOOKUPS=262144
while [ $# -gt 0 ]; do
	case $1 in
	--build-dir) BUILD_DIR=$2; shift 2 ;;
	--mbufs) MBUFS=$2; shift 2 ;;
	--lookups) LOOKUPS=$2; shift 2 ;;
	*) echo "usage: $0 [--build-dir DIR] [--mbufs N] [--lookups N]" >&2
	   exit 2 ;;
	esac
done
bench=$BUILD_DIR/app/test-mlx5-mr/dpdk-test-mlx5-mr
if [ ! -x "$bench" ]; then
	ninja -C "$BUILD_DIR" >/dev/null
fi
if ! command -v valgrind >/dev/null 2>&1; then
	echo "valgrind is not installed (package valgrind): no instruction counts"
	exit 77
fi
out=$(mktemp -d "${TMPDIR:-/tmp}/mr-bench.XXXXXX")
trap 'rm -rf "$out"' EXIT

# 1. Instructions: one callgrind dump per scenario, named bench:<name>:<n>.
if ! valgrind --tool=callgrind --dump-instr=no --dump-line=no \
		--callgrind-out-file="$out/cg" "$bench" --lookups \
		--n "$LOOKUPS" >"$out/callgrind.log" 2>&1; then
	cat "$out/callgrind.log"
	echo "FAIL: the lookup scenarios did not run under callgrind"
	exit 1
fi
for f in "$out"/cg*; do
	awk '/^desc: Trigger: Client Request: bench:/ {
		sub(/.*bench:/, ""); split($0, a, ":"); name = a[1]; n = a[2]
	}
	/^(summary|totals):/ { ir = $2 }
	END { if (name != "") print name, n, ir }' "$f"
done >"$out/ir"

# 2. Time, natively (a hint only: the host is shared).
"$bench" --lookups --n "$LOOKUPS" >"$out/native.log" 2>&1 || true

# 3. The 1M-mbuf mempool, natively.
if [ "$MBUFS" -gt 0 ]; then
	if ! "$bench" --mempool "$MBUFS" >"$out/mempool.log" 2>&1; then
		cat "$out/mempool.log"
		echo "FAIL: the mempool registration did not run"
		exit 1
	fi
fi

awk -v mbufs="$MBUFS" -v ir_file="$out/ir" -v ns_file="$out/native.log" \
    -v mp_file="$out/mempool.log" '
function per(name) {
	if (!(name in ir)) return -1
	return ir[name] / n[name]
}
function net(name, base) { return per(name) - per(base) }
function row(label, value, target, ns,    verdict) {
	if (target == "") verdict = ""
	else if (value <= target + 0) { verdict = "ok"; met++ }
	else { verdict = "MISSED"; missed = missed "\n  - " label; }
	printf "%-44s %9.1f   %6s   %-6s %s\n", label, value,
	       target == "" ? "-" : "<= " target, verdict,
	       ns == "" ? "" : sprintf("(%s ns native)", ns)
}
BEGIN {
	while ((getline line < ir_file) > 0) {
		split(line, f, " "); n[f[1]] = f[2]; ir[f[1]] = f[3]
	}
	while ((getline line < ns_file) > 0)
		if (line ~ /ns\/lookup/) { split(line, f, " "); ns[f[1]] = f[2] }
	while ((getline line < mp_file) > 0) {
		if (line ~ /^mempool registration:/) {
			split(line, f, " "); mp_ms = f[3]; mp_mrs = f[5]
		}
		if (line ~ /memory chunk/) { split(line, f, " "); mp_chunks = f[7] }
	}
	l01 = net("linear_0_1", "base"); l03 = net("linear_0_3", "base")
	l13 = net("linear_1_3", "base")
	slot0 = l01 + l03 - l13; slot3 = l03 + l13 - l01
	printf "MR cache lookups: instructions per lookup (callgrind), net of a\n"
	printf "loop calling a function that returns its argument; %d lookups each.\n\n", n["base"]
	printf "%-44s %9s   %6s   %s\n", "figure", "measured", "target", "verdict"
	row("most-recent hit (address)", net("mru_addr", "base"), 12, ns["mru_addr"])
	row("most-recent hit (mbuf)", net("mru_mbuf", "base"), 12, ns["mru_mbuf"])
	row("private IOVA (mbuf)", net("private_iova", "base"), 6, ns["private_iova"])
	row("per-queue table hit, 16 ranges", net("table_16", "base"), 40, ns["table_16"])
	row("per-queue table hit, 255 ranges (full)", net("table_255", "base"), 40, ns["table_255"])
	row("per-queue linear hit, table full, 1st slot", slot0, 40, "")
	row("per-queue linear hit, table full, 4th slot", slot3, 40, "")
	row("global hit, 10 MRs", net("global_10", "base"), "", ns["global_10"])
	row("global hit, 1,000 MRs", net("global_1000", "base"), "", ns["global_1000"])
	row("global hit, 10,000 MRs", net("global_10000", "base"), 250, ns["global_10000"])
	row("whole-memory key, any address", net("whole_mem", "base"), 12, ns["whole_mem"])
	printf "(the empty loop itself: %.1f instructions per iteration)\n",
	       per("base")
	if (mbufs > 0) {
		printf "\nmempool of %d mbufs: registration %s ms, %s MR(s) for %s contiguous chunk(s) (target: one MR per chunk): %s\n",
		       mbufs, mp_ms, mp_mrs, mp_chunks,
		       mp_mrs == mp_chunks ? "ok" : "MISSED"
		if (mp_mrs == mp_chunks) met++
		else missed = missed "\n  - one MR per mempool chunk"
	}
	printf "\nWhere we stand: %d target(s) met", met
	if (missed == "") printf ", none missed.\n"
	else printf "; missed:%s\n", missed
	printf "\nReading the figures (doc/guides/platform/mlx5_mr.rst):\n"
	printf "- a queue table hit costs the same for 1 or 255 ranges (8 steps);\n"
	printf "- the linear cache is reached only after a miss in a full queue\n"
	printf "  table (more than 255 ranges learned since the last flush);\n"
	printf "- a global hit includes the read lock, the search and learning\n"
	printf "  the range; instructions, not time: a shared lock line costs far\n"
	printf "  more on many cores than its few instructions;\n"
	printf "- the registration time is that of the software device (which checks\n"
	printf "  the mapping), not the time hardware takes to pin memory.\n"
}'
