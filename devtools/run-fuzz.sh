#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The dpdk-mlx5-common authors
#
# Build the libFuzzer targets (test/fuzz) with clang, ASan and UBSan into
# their own build folder and run each for a bounded time on a copy of its
# seed corpus.
#
# Usage: devtools/run-fuzz.sh [--build-dir DIR] [--seconds N] [--help]
#   --build-dir DIR  the fuzzing build (default build-fuzz; the SDK headers
#                    are the normal build's, build/sdk-include)
#   --seconds N      seconds per target (default 60)
#
# One line per target, "fuzz <name>: <N> executions, <M> crashes", then
# "fuzz: N targets, N executions, N crashes". Exit code 0 only if no target
# crashed, leaked, timed out or ran out of memory; otherwise the reproducer
# and the sanitizer's report are printed (replay with
# build-fuzz/test/fuzz/fuzz_<name> <reproducer>, MLX5_FUZZ_VERBOSE=1 to
# trace it). New inputs stay in a temporary folder: the committed corpus
# is never written.
#
# Environment: FUZZ_BUILD_DIR (fallback for --build-dir), FUZZ_JOBS (targets run
# at once, default the number of CPUs), FUZZ_TARGETS (default
# "devargs sim_cmd api"), FUZZ_WORK_DIR (default a new folder under
# TMPDIR, removed when nothing failed).
set -eu

cd "$(dirname "$0")/.."
. devtools/cli.sh
SECONDS_PER_TARGET=60
BUILD_DIR=${FUZZ_BUILD_DIR:-build-fuzz}
while [ $# -gt 0 ]; do
	case $1 in
	--build-dir) BUILD_DIR=${2:?--build-dir needs a folder}; shift 2 ;;
	--seconds) SECONDS_PER_TARGET=${2:?--seconds needs a number}; shift 2 ;;
	--help) cli_usage "$0"; exit 0 ;;
	*) cli_bad "$0" "$1" ;;
	esac
done
TARGETS=${FUZZ_TARGETS:-devargs sim_cmd api}
JOBS=${FUZZ_JOBS:-$(nproc 2>/dev/null || echo 1)}

case $SECONDS_PER_TARGET in
''|*[!0-9]*)
	cli_bad "$0" "--seconds $SECONDS_PER_TARGET"
	;;
esac
[ "$JOBS" -ge 1 ] 2>/dev/null || JOBS=1

# The SDK headers of the normal build; setup.sh fetches them (as root).
if [ ! -f build/sdk-include/bus_vdev_driver.h ]; then
	devtools/setup.sh --build-dir build </dev/null
fi
SDK="$(pwd)/build/sdk-include"
if [ ! -f "$BUILD_DIR/build.ninja" ]; then
	CC=clang meson setup "$BUILD_DIR" -Dsdk_headers="$SDK" -Dfuzz=true \
		-Db_sanitize=address,undefined -Db_lundef=false \
		-Dtests=false -Dexamples=false -Dwerror=true </dev/null >/dev/null
fi
ninja -C "$BUILD_DIR" </dev/null >/dev/null

WORK=${FUZZ_WORK_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/mlx5-fuzz.XXXXXX")}
mkdir -p "$WORK"

# Undefined behaviour is fatal (the build says so too) and shows its stack.
export UBSAN_OPTIONS="${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}halt_on_error=1:print_stacktrace=1"
# The software device's fault guard leaves its SIGSEGV handler with
# siglongjmp(); from ASan's alternate signal stack each such exit costs a
# read of /proc/self/maps, which halves the executions. Without the
# alternate stack only a stack overflow would go unreported by ASan (the
# target then dies without a reproducer and the run still fails).
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}use_sigaltstack=0"

# Longest input worth trying per target.
max_len() {
	case $1 in
	devargs) echo 1024 ;;
	*) echo 4096 ;;
	esac
}

run_target() {
	t=$1
	dir="$WORK/$t"
	rm -rf "$dir"
	mkdir -p "$dir/corpus" "$dir/artifacts"
	cp test/fuzz/corpus/"$t"/* "$dir/corpus/"
	# -timeout: per input (one input is milliseconds); -rss_limit_mb: the
	# process holds a 256 MB EAL heap plus ASan's quarantine.
	rc=0
	"$BUILD_DIR/test/fuzz/fuzz_$t" -max_total_time="$SECONDS_PER_TARGET" \
		-print_final_stats=1 -timeout=20 -rss_limit_mb=2560 \
		-max_len="$(max_len "$t")" -artifact_prefix="$dir/artifacts/" \
		"$dir/corpus" </dev/null >"$dir/log" 2>&1 || rc=$?
	echo $rc >"$dir/status"
}

# Run the targets, JOBS at a time.
# shellcheck disable=SC2086 # A list of words.
set -- $TARGETS
while [ $# -gt 0 ]; do
	n=0
	while [ $# -gt 0 ] && [ $n -lt "$JOBS" ]; do
		run_target "$1" &
		shift
		n=$((n + 1))
	done
	wait
done

total_exec=0
total_crash=0
failed=0
for t in $TARGETS; do
	dir="$WORK/$t"
	status=$(cat "$dir/status" 2>/dev/null || echo 1)
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$dir/log" |
		tail -n 1)
	execs=${execs:-0}
	# slow-unit-* files are reports, not failures.
	crashes=$(find "$dir/artifacts" -type f \( -name 'crash-*' -o \
		-name 'leak-*' -o -name 'timeout-*' -o -name 'oom-*' \) |
		wc -l)
	if [ "$status" != 0 ] && [ "$crashes" -eq 0 ]; then
		crashes=1 # Died without an artifact (EAL init, OOM, ...).
	fi
	echo "fuzz $t: $execs executions, $crashes crashes"
	total_exec=$((total_exec + execs))
	total_crash=$((total_crash + crashes))
	if [ "$crashes" -ne 0 ]; then
		failed=1
		find "$dir/artifacts" -type f ! -name 'slow-unit-*' |
			sed 's/^/  reproducer: /'
		echo "  replay: $BUILD_DIR/test/fuzz/fuzz_$t <reproducer>"
		echo "  log: $dir/log; the report:"
		# From the first report line on, without the dictionary noise;
		# the end of the log if no report is recognised.
		awk '/^==[0-9]+==(ERROR|WARNING)|^fuzz: |runtime error:|ERROR: libFuzzer/ { on = 1 }
		     /Recommended dictionary|Uses: / { next }
		     on { print "    " $0 }' "$dir/log" >"$dir/report"
		[ -s "$dir/report" ] || tail -n 40 "$dir/log" |
			sed 's/^/    /' >"$dir/report"
		head -n 120 "$dir/report"
	fi
done
echo "fuzz: $(echo "$TARGETS" | wc -w) targets, $total_exec executions, $total_crash crashes"
if [ $failed -ne 0 ]; then
	echo "fuzz: reproducers and logs kept in $WORK"
	exit 1
fi
[ -n "${FUZZ_WORK_DIR:-}" ] || rm -rf "$WORK"
exit 0
