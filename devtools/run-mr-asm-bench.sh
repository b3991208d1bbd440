#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
#
# The MR cache's x86-64 assembly searches (mlx5_common_mr_private.h) beside
# their portable C form, in one run: the benchmark is built twice (./build,
# and ./build-mr-portable with -DMLX5_MR_PORTABLE), then for each scenario
# that reaches a search it prints instructions per lookup (callgrind) and
# time per lookup (TSC, median of --repeats native runs, the two builds
# alternated), with the ratios. Figures only: the exit code says whether it
# ran.
#
# Usage: devtools/run-mr-asm-bench.sh [--repeats N] [--lookups N]
set -eu

cd "$(dirname "$0")/.."
REPEATS=7
LOOKUPS=262144
while [ $# -gt 0 ]; do
	case $1 in
	--repeats) REPEATS=$2; shift 2 ;;
	--lookups) LOOKUPS=$2; shift 2 ;;
	*) echo "usage: $0 [--repeats N] [--lookups N]" >&2; exit 2 ;;
	esac
done
SDK="$(pwd)/build/sdk-include"
[ -d "$SDK" ] || devtools/setup.sh
ninja -C build >/dev/null
if [ ! -d build-mr-portable ]; then
	meson setup build-mr-portable -Dsdk_headers="$SDK" \
		-Dc_args=-DMLX5_MR_PORTABLE >/dev/null
fi
ninja -C build-mr-portable >/dev/null
out=$(mktemp -d "${TMPDIR:-/tmp}/mr-asm.XXXXXX")
trap 'rm -rf "$out"' EXIT

for b in build build-mr-portable; do
	tag=$(basename "$b")
	devtools/run-mr-bench.sh --build-dir "$b" --mbufs 0 \
		--lookups "$LOOKUPS" >"$out/ir.$tag" 2>&1 || {
		cat "$out/ir.$tag"; exit 1; }
done
i=0
while [ "$i" -lt "$REPEATS" ]; do
	for b in build build-mr-portable; do
		tag=$(basename "$b")
		"$b/app/test-mlx5-mr/dpdk-test-mlx5-mr" --lookups \
			--n "$LOOKUPS" 2>/dev/null | grep 'ns/lookup' \
			>>"$out/ns.$tag" || true
	done
	i=$((i + 1))
done

awk -v out="$out" '
function median(list,    a, n, i, j, t) {
	n = split(list, a, " ")
	for (i = 2; i <= n; i++)
		for (j = i; j > 1 && a[j - 1] + 0 > a[j] + 0; j--) {
			t = a[j]; a[j] = a[j - 1]; a[j - 1] = t
		}
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
function load_ir(file, arr,    line, label) {
	while ((getline line < file) > 0)
		if (line ~ /^(per-queue table hit|global hit)/) {
			# run-mr-bench.sh: a 44-column label, then the figure.
			label = substr(line, 1, 44); sub(/ +$/, "", label)
			arr[label] = substr(line, 45, 10) + 0
		}
}
function load_ns(file, arr,    line, f) {
	while ((getline line < file) > 0) {
		split(line, f, " "); arr[f[1]] = arr[f[1]] " " f[2]
	}
}
BEGIN {
	load_ir(out "/ir.build", ir_a); load_ir(out "/ir.build-mr-portable", ir_c)
	load_ns(out "/ns.build", ns_a); load_ns(out "/ns.build-mr-portable", ns_c)
	split("table_16 table_255 global_10 global_1000 global_10000", sc, " ")
	split("per-queue table hit, 16 ranges|per-queue table hit, 255 ranges (full)|global hit, 10 MRs|global hit, 1,000 MRs|global hit, 10,000 MRs", lab, "|")
	printf "MR searches: x86-64 assembly vs portable C (-DMLX5_MR_PORTABLE)\n"
	printf "instructions per lookup (callgrind, net of the empty loop); time per\n"
	printf "lookup (TSC, median of the native runs, builds alternated)\n\n"
	printf "%-40s %8s %8s %6s   %8s %8s %6s\n", "scenario", "asm ir", "C ir",
	       "C/asm", "asm ns", "C ns", "C/asm"
	for (k = 1; k <= 5; k++) {
		a = ir_a[lab[k]]; c = ir_c[lab[k]]
		ta = median(ns_a[sc[k]]); tc = median(ns_c[sc[k]])
		ri = (a > 0) ? c / a : 0
		rt = (ta > 0) ? tc / ta : 0
		printf "%-40s %8.1f %8.1f %6.2f   %8.2f %8.2f %6.2f\n", lab[k],
		       a, c, ri, ta, tc, rt
	}
}'
