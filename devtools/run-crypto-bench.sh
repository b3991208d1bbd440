#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
#
# AES-XTS-256 on 4 KiB buffers: the crypto PMD (crypto_mlx5) on the
# software device beside a plain OpenSSL EVP loop over the same buffers in
# the same run (app/test-mlx5-crypto). The same CPU does the AES in both,
# so the ratio is the PMD + UMR + engine overhead; target >= 0.9. Cycles
# by TSC, the median of the runs; a shared host makes them a hint. The
# figures are printed, never asserted: the exit code says only whether it
# ran (and that the PMD's ciphertext equals OpenSSL's). Where valgrind is
# installed, instructions per operation of each side too (callgrind,
# stable): the inclusive counts of bench_pmd() and bench_evp() in a run of
# 2 * N operations less those in a run of N, divided by N (EAL's start-up
# and the sessions' set-up cancel out).
#
# --invocations K: the benchmark runs K times, each a process of its own,
# and a last line sums them up: the median, lowest and highest of the K
# invocations' figures (each the median of its runs' own ratios) and how
# many reach 0.9. The load of a shared host moves within seconds and for
# minutes; one invocation's figure is one sample of it, K of them show
# where the ratio stands and how far it moves.
#
# --devargs KEY=VALUE,...: more devargs of the device (qp_mkeys=64, ...).
#
# Usage: devtools/run-crypto-bench.sh [--build-dir DIR] [--help] [--ops N] [--runs N]
#        [--bufs N] [--invocations K] [--devargs KEY=VALUE,...]
# Also run by `meson test -C build --benchmark --suite crypto`.
set -eu

cd "$(dirname "$0")/.."
. devtools/cli.sh
BUILD_DIR=build
OPS=100000
RUNS=5
BUFS=256
INVOCATIONS=1
DEVARGS=
while [ $# -gt 0 ]; do
	case $1 in
	--build-dir) BUILD_DIR=${2:?--build-dir needs a folder}; shift 2 ;;
	--ops) OPS=$2; shift 2 ;;
	--runs) RUNS=$2; shift 2 ;;
	--bufs) BUFS=$2; shift 2 ;;
	--invocations) INVOCATIONS=$2; shift 2 ;;
	--devargs) DEVARGS=$2; shift 2 ;;
	--help) cli_usage "$0"; exit 0 ;;
	*) cli_bad "$0" "$1" ;;
	esac
done
bench=$BUILD_DIR/app/test-mlx5-crypto/dpdk-test-mlx5-crypto
if [ ! -x "$bench" ]; then
	ninja -C "$BUILD_DIR" >/dev/null
fi
case $INVOCATIONS in
''|*[!0-9]*|0) echo "--invocations: a count of at least 1" >&2; exit 2 ;;
esac
ratios=$(mktemp "${TMPDIR:-/tmp}/crypto-ratios.XXXXXX")
i=0
while [ "$i" -lt "$INVOCATIONS" ]; do
	i=$((i + 1))
	if ! "$bench" --ops "$OPS" --runs "$RUNS" --size 4096 --burst 32 \
		--bufs "$BUFS" ${DEVARGS:+--devargs "$DEVARGS"} \
		>"$ratios.log" 2>&1; then
		grep -v '^EAL: \|^CRYPTODEV: \|^TELEMETRY: ' "$ratios.log"
		rm -f "$ratios" "$ratios.log"
		exit 1
	fi
	[ "$INVOCATIONS" -gt 1 ] && printf 'invocation %s: ' "$i"
	grep -v '^EAL: \|^CRYPTODEV: \|^TELEMETRY: ' "$ratios.log" |
		if [ "$INVOCATIONS" -gt 1 ]; then grep '^ratio'; else cat; fi
	sed -n 's/.*median of the runs. own ratios \([0-9.]*\).*/\1/p' \
		"$ratios.log" >>"$ratios"
done
if [ "$INVOCATIONS" -gt 1 ]; then
	sort -n "$ratios" | awk -v k="$INVOCATIONS" '
		{ r[NR] = $1; if ($1 + 0 >= 0.9) met++ }
		END {
			m = NR % 2 ? r[(NR + 1) / 2] : (r[NR / 2] + r[NR / 2 + 1]) / 2
			printf "%d invocations: median of their ratios %.3f " \
			       "(%.3f to %.3f), %d of %d at least 0.9\n",
			       k, m, r[1], r[NR], met, NR
		}'
fi
rm -f "$ratios" "$ratios.log"

if ! command -v valgrind >/dev/null 2>&1 ||
   ! command -v callgrind_annotate >/dev/null 2>&1; then
	echo "valgrind is not installed (package valgrind): no instruction counts"
	exit 0
fi
out=$(mktemp -d "${TMPDIR:-/tmp}/crypto-bench.XXXXXX")
trap 'rm -rf "$out"' EXIT
CG_OPS=2000
# Inclusive instructions of bench_pmd and bench_evp in a run of $1 ops.
cg_run() {
	if ! valgrind --tool=callgrind --dump-instr=no --dump-line=no \
		--callgrind-out-file="$out/cg.$1" "$bench" --ops "$1" \
		--runs 1 --size 4096 --burst 32 --bufs "$BUFS" \
		${DEVARGS:+--devargs "$DEVARGS"} >"$out/cg.$1.log" 2>&1; then
		cat "$out/cg.$1.log"
		echo "FAIL: the benchmark did not run under callgrind"
		exit 1
	fi
	# From / : where the build's relative source paths resolve,
	# callgrind_annotate may list a function twice, split; the largest
	# inclusive figure is its whole.
	(cd / && callgrind_annotate --inclusive=yes --auto=no "$out/cg.$1" \
		2>/dev/null) |
		awk '{ gsub(/,/, "", $1) }
		/ bench_pmd / || /:bench_pmd / { if ($1 + 0 > p) p = $1 + 0 }
		/ bench_evp / || /:bench_evp / { if ($1 + 0 > e) e = $1 + 0 }
		END { print p, e }'
}
one=$(cg_run "$CG_OPS")
two=$(cg_run $((2 * CG_OPS)))
echo "$one $two" | awk -v n="$CG_OPS" '{
	p = ($3 - $1) / n; e = ($4 - $2) / n
	if (p <= 0 || e <= 0) { print "FAIL: no callgrind figures"; exit 1 }
	printf "instructions per op (callgrind): PMD %.0f, EVP %.0f, " \
	       "overhead %.0f, ratio EVP/PMD %.3f\n", p, e, p - e, e / p
}'
