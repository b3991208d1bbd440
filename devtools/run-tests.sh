#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
#
# Set up, build and run the whole test suite (meson test). The last line is
# "tests: N passed, N failed". Exit code 0 only when every test passed.
set -eu

cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
devtools/setup.sh
SDK="$(cd "$BUILD_DIR" && pwd)/sdk-include"
# Count only this run's results.
rm -f "$BUILD_DIR"/meson-logs/testlog*.json

# The MR memory-event suite (mr_events) needs EAL's dynamic memory mode,
# hence hugepages. As root, reserve a few 2 MB pages for the run and give
# them back afterwards; otherwise that suite skips itself.
hp=/proc/sys/vm/nr_hugepages
hp_reserved=
hidden_glue=
cleanup() {
	if [ -n "$hidden_glue" ]; then
		mv "$hidden_glue.hidden" "$hidden_glue" 2>/dev/null || true
	fi
	if [ -n "$hp_reserved" ]; then
		echo 0 > "$hp"
	fi
}
trap cleanup EXIT
if [ "$(id -u)" = 0 ] && [ -w "$hp" ] && [ "$(cat "$hp")" = 0 ] &&
		[ -z "${SKIP_HUGEPAGES:-}" ]; then
	hp_reserved=1
	echo 128 > "$hp" || true
	echo "reserved $(cat "$hp") hugepages for the run"
fi
# Where hugepages exist, the memory-event suite must run, not skip.
if [ "$(cat "$hp" 2>/dev/null || echo 0)" != 0 ]; then
	export MLX5_TEST_REQUIRE_HUGEPAGES=1
fi

set +e
meson test -C "$BUILD_DIR" --print-errorlogs --num-processes 2 "$@"
rc=$?
# The C suites once more under valgrind memcheck (errors, definite leaks).
if command -v valgrind >/dev/null 2>&1 && [ -z "${SKIP_VALGRIND:-}" ]; then
	meson test -C "$BUILD_DIR" --print-errorlogs --num-processes 2 \
		--setup=valgrind --suite unit "$@" || rc=1
fi
set -e

# Warnings are defects under clang too: build everything once more with it.
if command -v clang >/dev/null 2>&1 && [ -z "${SKIP_CLANG:-}" ]; then
	if [ ! -f "$BUILD_DIR-clang/build.ninja" ]; then
		CC=clang meson setup "$BUILD_DIR-clang" -Dwerror=true \
			-Dsdk_headers="$SDK" >/dev/null
	fi
	if ninja -C "$BUILD_DIR-clang" >"$BUILD_DIR-clang/build-output.log" 2>&1; then
		echo "clang build: no warnings"
	else
		cat "$BUILD_DIR-clang/build-output.log"
		echo "clang build: FAILED (warnings are errors)"
		rc=1
	fi
fi
# -Dibverbs_link=dlopen: the common library must not need rdma-core's
# libraries, and must run the software device when the glue is missing.
if [ -z "${SKIP_DLOPEN:-}" ]; then
	dl="$BUILD_DIR-dlopen"
	if [ ! -f "$dl/build.ninja" ]; then
		meson setup "$dl" -Dibverbs_link=dlopen -Dwerror=true \
			-Dexamples=false \
			-Dsdk_headers="$SDK" >/dev/null
	fi
	if ! ninja -C "$dl" >"$dl/build-output.log" 2>&1; then
		cat "$dl/build-output.log"
		echo "dlopen build: FAILED"
		rc=1
	elif readelf -d "$dl"/drivers/librte_common_mlx5.so |
			grep -E 'NEEDED.*lib(ibverbs|mlx5)\.' ; then
		echo "dlopen build: FAILED, the common library links rdma-core"
		rc=1
	else
		# Hide the glue (exactly one, the one this build made): nothing
		# of rdma-core can be loaded from the build tree.
		glue=$(meson introspect --targets "$dl" |
			/usr/bin/python3 -c 'import json,sys; print("\n".join(f for t in json.load(sys.stdin) if t["name"] == "rte_common_mlx5_glue" for f in t["filename"]))')
		if [ -z "$glue" ] || [ "$(echo "$glue" | wc -l)" != 1 ] ||
				[ ! -f "$glue" ]; then
			echo "dlopen build: FAILED, glue module not found ($glue)"
			rc=1
		else
			mv "$glue" "$glue.hidden"
			hidden_glue=$glue
			if MLX5_GLUE_PATH=/nonexistent "$dl/test/test_vhca" \
					>"$dl/test_vhca.log" 2>&1; then
				echo "dlopen build: no rdma-core library needed; software device works without the glue"
			else
				cat "$dl/test_vhca.log"
				echo "dlopen build: FAILED without the glue"
				rc=1
			fi
			mv "$glue.hidden" "$glue"
			hidden_glue=
		fi
	fi
fi

logs=$(ls "$BUILD_DIR"/meson-logs/testlog*.json 2>/dev/null || true)
if [ -n "$logs" ]; then
	# shellcheck disable=SC2086
	passed=$(cat $logs | grep -c '"result": "OK"' || true)
	# shellcheck disable=SC2086
	failed=$(cat $logs | grep -c -E '"result": "(FAIL|TIMEOUT|ERROR|UNEXPECTEDPASS)"' || true)
	# shellcheck disable=SC2086
	skipped=$(cat $logs | grep -c '"result": "SKIP"' || true)
	echo "tests: $passed passed, $failed failed, $skipped skipped"
fi
exit $rc
