#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
#
# The cost per call of rte_pmd_mlx5_mbuf_set_private_iova(): the header's
# inline over the cached flag mask, the library's exported function, the
# lookup per call it replaced (rte_mbuf_dynflag_lookup() + the stores) and
# the anchor (the two stores with the mask in a local). Instructions per
# call under callgrind (stable), cycles per call natively (TSC, median of 9
# runs; a shared host makes them a hint). Printed, never asserted.
#
# Usage: devtools/run-api-bench.sh [--build-dir DIR] [--help] [--calls N]
# Also run by `meson test -C build --benchmark --suite api`.
set -eu

cd "$(dirname "$0")/.."
. devtools/cli.sh
BUILD_DIR=build
CALLS=1000000
while [ $# -gt 0 ]; do
	case $1 in
	--build-dir) BUILD_DIR=${2:?--build-dir needs a folder}; shift 2 ;;
	--calls) CALLS=$2; shift 2 ;;
	--help) sed -n 3,12p "$0"; exit 0 ;;
	--help) cli_usage "$0"; exit 0 ;;
	*) cli_bad "$0" "$1" ;;
	esac
done
bench=$BUILD_DIR/app/test-mlx5-api/dpdk-test-mlx5-api
[ -x "$bench" ] || ninja -C "$BUILD_DIR" >/dev/null
if ! command -v valgrind >/dev/null 2>&1; then
	echo "valgrind is not installed (package valgrind): no instruction counts"
	exit 77
fi
out=$(mktemp -d "${TMPDIR:-/tmp}/api-bench.XXXXXX")
trap 'rm -rf "$out"' EXIT

printf '%-10s %12s %12s\n' mode instr/call cycles/call
for mode in plain inline function lookup; do
	# The lookup takes a lock and searches names: fewer calls.
	n=$CALLS
	[ "$mode" = lookup ] && n=$((CALLS / 100))
	if ! valgrind --tool=callgrind --dump-instr=no --dump-line=no \
			--callgrind-out-file="$out/cg.$mode" "$bench" "--$mode" \
			"$n" >"$out/$mode.log" 2>&1; then
		cat "$out/$mode.log"
		echo "FAIL: $mode did not run under callgrind"
		exit 1
	fi
	ir=$(cat "$out"/cg."$mode"* | awk '/^desc: Trigger: Client Request: bench:/ {
			sub(/.*bench:/, ""); split($0, a, ":"); n = a[2] }
		/^(summary|totals):/ { ir = $2 }
		END { if (n != "") printf "%.2f", ir / n }')
	cy=$("$bench" "--$mode" "$n" 2>/dev/null | awk '/cycles\/call/ { print $2 }')
	printf '%-10s %12s %12s\n' "$mode" "${ir:-?}" "${cy:-?}"
	[ -n "$ir" ] && [ -n "$cy" ] || { cat "$out/$mode.log"; exit 1; }
done
