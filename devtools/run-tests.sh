#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
#
# Set up, build and run the whole test suite (meson test), then the extra
# builds (clang, dlopen, portable without telemetry, ASan+UBSan, TSan) and
# the fuzzers. The last line is "tests: N passed, N failed, N skipped".
# Exit code 0 only when every test passed. .ci/run runs it.
#
# Usage: devtools/run-tests.sh [--build-dir DIR] [--help] [-- meson test args]
#   what follows -- goes to every `meson test` (e.g. test names)
# Environment (fallback): BUILD_DIR; SKIP_VALGRIND, SKIP_CLANG, SKIP_DLOPEN,
# SKIP_PORTABLE, SKIP_ASAN, SKIP_TSAN, SKIP_FUZZ, SKIP_HUGEPAGES=1 leave a
# part out; FUZZ_SECONDS (default 40, the seconds of each fuzz target),
# FUZZ_JOBS (fuzz targets run at once, default 8: all of them).
set -eu

cd "$(dirname "$0")/.."
. devtools/cli.sh
CLI_BUILD_DIR=${BUILD_DIR:-build}
cli_parse "$0" "" "$@"
BUILD_DIR=$CLI_BUILD_DIR
eval "set -- $CLI_REST"
devtools/setup.sh --build-dir "$BUILD_DIR"
SDK="$(cd "$BUILD_DIR" && pwd)/sdk-include"
# Count only this run's results (the sanitizer builds' too).
rm -f "$BUILD_DIR"/meson-logs/testlog*.json \
	"$BUILD_DIR-portable"/meson-logs/testlog*.json \
	"$BUILD_DIR-asan"/meson-logs/testlog*.json \
	"$BUILD_DIR-tsan"/meson-logs/testlog*.json

# The MR memory-event suite (mr_events) needs EAL's dynamic memory mode,
# hence hugepages. As root: take the smallest hugepage size the kernel
# offers, make sure a few pages of it are free (reserving more for the run),
# and mount a private hugetlbfs of exactly that size for the suite
# (MLX5_TEST_HUGE_DIR). A private mount keeps EAL off every other size:
# machines differ (a 1 GB size exposed or not, hugetlbfs mounted or not).
# Everything is given back at exit: page count and mount.
HUGE_MB_WANTED=128
hp_nr=
hp_orig=
hp_added=0
hp_mnt=
hidden_glue=
cleanup() {
	if [ -n "$hidden_glue" ]; then
		mv "$hidden_glue.hidden" "$hidden_glue" 2>/dev/null || true
	fi
	if [ -n "$hp_mnt" ]; then
		umount "$hp_mnt" 2>/dev/null || umount -l "$hp_mnt" || true
		rmdir "$hp_mnt" 2>/dev/null || true
	fi
	if [ -n "$hp_orig" ]; then
		# Give back what was added, not the old count: another run on
		# this machine may have added (or given back) pages meanwhile.
		echo $(( $(cat "$hp_nr") - hp_added )) > "$hp_nr" || true
	fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# The smallest hugepage size (kB) the kernel exposes, or nothing.
smallest_hugepage_kb() {
	for d in /sys/kernel/mm/hugepages/hugepages-*kB; do
		[ -d "$d" ] || continue
		kb=${d##*/hugepages-}
		echo "${kb%kB}"
	done | sort -n | head -n 1
}

setup_hugepages() {
	kb=$(smallest_hugepage_kb)
	if [ -z "$kb" ]; then
		echo "hugepages: the kernel exposes none; mr_events will skip"
		return 0
	fi
	if ! grep -qw hugetlbfs /proc/filesystems; then
		echo "hugepages: no hugetlbfs in this kernel; mr_events will skip"
		return 0
	fi
	sys=/sys/kernel/mm/hugepages/hugepages-${kb}kB
	HUGE_PAGES_WANTED=$(( (HUGE_MB_WANTED * 1024 + kb - 1) / kb ))
	[ "$HUGE_PAGES_WANTED" -ge 2 ] || HUGE_PAGES_WANTED=2
	free=$(cat "$sys/free_hugepages")
	if [ "$free" -lt "$HUGE_PAGES_WANTED" ]; then
		if [ ! -w "$sys/nr_hugepages" ]; then
			echo "hugepages: $free free of ${kb} kB and no right to reserve more; mr_events will skip"
			return 0
		fi
		hp_nr=$sys/nr_hugepages
		hp_orig=$(cat "$hp_nr")
		echo $((hp_orig + HUGE_PAGES_WANTED - free)) > "$hp_nr" || true
		hp_added=$(( $(cat "$hp_nr") - hp_orig ))
		free=$(cat "$sys/free_hugepages")
		echo "hugepages: reserved $(( $(cat "$hp_nr") - hp_orig )) of ${kb} kB for the run ($free free)"
		if [ "$free" -lt "$HUGE_PAGES_WANTED" ]; then
			echo "hugepages: the kernel could not give $HUGE_PAGES_WANTED; mr_events will skip"
			return 0
		fi
	fi
	dir=$(mktemp -d "${TMPDIR:-/tmp}/mlx5-test-huge.XXXXXX")
	if ! mount -t hugetlbfs -o "pagesize=${kb}K,mode=0700" nodev "$dir"; then
		rmdir "$dir"
		echo "hugepages: cannot mount a private hugetlbfs; mr_events will skip"
		return 0
	fi
	hp_mnt=$dir
	export MLX5_TEST_HUGE_DIR="$dir"
	# Where hugepages could be set up, the memory-event suite must run.
	export MLX5_TEST_REQUIRE_HUGEPAGES=1
	echo "hugepages: private hugetlbfs of ${kb} kB pages at $dir ($free free)"
}
if [ "$(id -u)" = 0 ] && [ -z "${SKIP_HUGEPAGES:-}" ]; then
	setup_hugepages
else
	echo "hugepages: not root (or SKIP_HUGEPAGES); mr_events will skip"
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
# The ASan+UBSan build below is that build (clang, -Werror, every target;
# the sanitizer flags add no warning; what it leaves out under them, the
# model's mkey spare list, is a branch on a constant, compiled all the
# same): a build of its own only without it.
if command -v clang >/dev/null 2>&1 && [ -z "${SKIP_CLANG:-}" ] &&
		[ -n "${SKIP_ASAN:-}" ]; then
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
			# The glue over the rdma-core front: our backend's PCI
			# probe and the C suites on the software device.
			if test/run-rdma-front.sh --build-dir "$dl" \
					>"$dl/rdma-front.log" 2>&1; then
				echo "dlopen build: $(tail -n 1 "$dl/rdma-front.log") (rdma-core front)"
			else
				cat "$dl/rdma-front.log"
				echo "dlopen build: FAILED on the rdma-core front"
				rc=1
			fi
		fi
	fi
fi

# The portable C: what other architectures (BlueField's Arm cores) build
# instead of the x86-64 assembly and SSSE3 paths (the MR cache's lookup,
# the software device's KLM byte swap), built here with
# -DMLX5_MR_PORTABLE -DMLX5_SIM_PORTABLE and run by every C suite; with
# -DMLX5_NET_VEC_GCC_SHUFFLE the vector Rx burst takes the shuffle form
# older GCCs (BlueField's Ubuntu 22.04) compile. The same build leaves
# telemetry out (-Dtelemetry=false): every other C suite passes without
# it.
if [ -z "${SKIP_PORTABLE:-}" ]; then
	port="$BUILD_DIR-portable"
	if [ ! -f "$port/build.ninja" ]; then
		meson setup "$port" -Dwerror=true -Dexamples=false \
			-Dtelemetry=false \
			"-Dc_args=-DMLX5_MR_PORTABLE -DMLX5_SIM_PORTABLE -DMLX5_NET_VEC_GCC_SHUFFLE" \
			-Dsdk_headers="$SDK" >/dev/null || true
	elif ! grep -q -- -DMLX5_NET_VEC_GCC_SHUFFLE "$port/build.ninja" ||
			grep -q mlx5_common_telemetry "$port/build.ninja"; then
		# A folder of that name made otherwise: bring it in line.
		meson configure "$port" -Dwerror=true -Dexamples=false \
			-Dtelemetry=false \
			"-Dc_args=-DMLX5_MR_PORTABLE -DMLX5_SIM_PORTABLE -DMLX5_NET_VEC_GCC_SHUFFLE" \
			-Dsdk_headers="$SDK" >/dev/null || true
	fi
	if [ ! -f "$port/build.ninja" ]; then
		echo "portable C build: FAILED (meson setup)"
		rc=1
	elif ! ninja -C "$port" >"$port/build-output.log" 2>&1; then
		cat "$port/build-output.log"
		echo "portable C build: FAILED"
		rc=1
	elif ! meson test -C "$port" --suite unit --print-errorlogs \
			--num-processes 2 "$@" >"$port/test-output.log" 2>&1; then
		cat "$port/test-output.log"
		echo "portable C: FAILED"
		rc=1
	else
		echo "portable C (-DMLX5_MR_PORTABLE -DMLX5_SIM_PORTABLE -DMLX5_NET_VEC_GCC_SHUFFLE), telemetry left out: every C suite passed"
	fi
fi

# Sanitizer passes (clang). The figures of a pass come from the meson log of
# its build folder: suites (meson tests) and cases (each suite's last line
# "<suite>: N passed, N failed, N skipped"). A failed suite or a sanitizer
# report in a test's output fails the run; a skipped suite says why.
san_figures() { # <name> <build dir>
	/usr/bin/python3 - "$@" <<'PYEOF'
import glob, json, re, sys
name, d = sys.argv[1], sys.argv[2]
res = {"OK": 0, "FAIL": 0, "SKIP": 0}
cases = [0, 0, 0]
notes = []
reports = 0
for f in sorted(glob.glob(d + "/meson-logs/testlog*.json")):
    for line in open(f):
        t = json.loads(line)
        test = t["name"].split(" / ")[-1]
        out = (t.get("stdout") or "") + (t.get("stderr") or "")
        r = t["result"] if t["result"] in ("OK", "SKIP") else "FAIL"
        res[r] += 1
        for m in re.finditer(r"^\S+: (\d+) passed, (\d+) failed, (\d+) skipped$",
                             t.get("stdout") or "", re.M):
            cases = [c + int(n) for c, n in zip(cases, m.groups())]
        # A fatal signal's report ends its process with a failure status:
        # the suite's own (counted as failed) or a child's, which the suite
        # judges (test_sim_mem's deliberate fault). Any other report fails.
        sums = re.findall(r"^SUMMARY: \w+Sanitizer: (\S+)", out, re.M)
        sig = [x for x in sums if x in ("SEGV", "BUS", "FPE", "ILL", "ABRT")]
        n = len(sums) - len(sig)
        reports += n
        if n:
            notes.append("  %s: %d sanitizer report(s)" % (test, n))
        if sig and r == "OK":
            notes.append("  %s: %d fatal-signal report(s) of a child (%s), judged by the suite"
                         % (test, len(sig), ", ".join(sorted(set(sig)))))
        if r == "SKIP":
            why = [l for l in (t.get("stdout") or "").splitlines() if l.strip()]
            notes.append("  %s skipped: %s" % (test, why[-1] if why else "no reason given"))
        elif r == "FAIL":
            notes.append("  %s: %s (exit status %s)" % (test, t["result"], t.get("returncode")))
print("%s: %d suites (%d passed, %d failed, %d skipped), %d cases: %d passed, %d failed, %d skipped"
      % (name, sum(res.values()), res["OK"], res["FAIL"], res["SKIP"],
         sum(cases), cases[0], cases[1], cases[2]))
for n in notes:
    print(n)
sys.exit(1 if res["FAIL"] or reports or sum(res.values()) == 0 else 0)
PYEOF
}
SAN_CFLAGS=-fno-sanitize-recover=all
# ASan + UBSan (-fno-sanitize-recover=all: any UBSan finding aborts, also
# when a test program is run directly), LeakSanitizer on: every C suite.
# This build compiles everything (examples and app included).
if command -v clang >/dev/null 2>&1 && [ -z "${SKIP_ASAN:-}" ]; then
	asan="$BUILD_DIR-asan"
	if [ ! -f "$asan/build.ninja" ]; then
		CC=clang meson setup "$asan" -Db_sanitize=address,undefined \
			-Db_lundef=false -Dc_args=$SAN_CFLAGS \
			-Dc_link_args=$SAN_CFLAGS -Dwerror=true \
			-Dsdk_headers="$SDK" >/dev/null
	elif ! grep -q -- "$SAN_CFLAGS" "$asan/build.ninja" ||
			! grep -q -- -Werror "$asan/build.ninja"; then
		# A folder of that name made otherwise: bring it in line.
		meson configure "$asan" -Db_sanitize=address,undefined \
			-Db_lundef=false -Dc_args=$SAN_CFLAGS \
			-Dc_link_args=$SAN_CFLAGS -Dwerror=true \
			-Dsdk_headers="$SDK" >/dev/null
	fi
	if ! ninja -C "$asan" >"$asan/build-output.log" 2>&1; then
		cat "$asan/build-output.log"
		echo "asan+ubsan build: FAILED (warnings are errors)"
		rc=1
	else
		[ -n "${SKIP_CLANG:-}" ] ||
			echo "clang build (the ASan+UBSan one): no warnings"
		if ! meson test -C "$asan" --setup=asan --suite unit \
				--print-errorlogs --num-processes 2 "$@" \
				>"$asan/test-output.log" 2>&1; then
			cat "$asan/test-output.log"
			rc=1
		fi
		san_figures "asan+ubsan" "$asan" || rc=1
	fi
elif [ -z "${SKIP_ASAN:-}" ]; then
	echo "asan+ubsan: no clang; skipped"
fi
# ThreadSanitizer: the suites that start threads. DPDK's libraries are not
# instrumented: test/sanitizers/tsan.supp lists what TSan cannot see there.
# The runs go through test/sanitizers/tsan-exec.sh (address space
# randomisation off, see there). Only these suites' programs are built.
if command -v clang >/dev/null 2>&1 && [ -z "${SKIP_TSAN:-}" ]; then
	tsan="$BUILD_DIR-tsan"
	tsan_tests=$(grep -l pthread_create test/test_*.c |
		sed -e 's|^test/test_||' -e 's|\.c$||')
	if [ ! -f "$tsan/build.ninja" ]; then
		CC=clang meson setup "$tsan" -Db_sanitize=thread \
			-Db_lundef=false -Dwerror=true \
			-Dsdk_headers="$SDK" >/dev/null
	fi
	# shellcheck disable=SC2046,SC2086
	if ! ninja -C "$tsan" $(printf 'test/test_%s ' $tsan_tests) \
			>"$tsan/build-output.log" 2>&1; then
		cat "$tsan/build-output.log"
		echo "tsan build: FAILED"
		rc=1
	else
		# shellcheck disable=SC2086
		if ! meson test -C "$tsan" --setup=tsan --print-errorlogs \
				--num-processes 2 "$@" $tsan_tests \
				>"$tsan/test-output.log" 2>&1; then
			cat "$tsan/test-output.log"
			rc=1
		fi
		san_figures "tsan" "$tsan" || rc=1
	fi
elif [ -z "${SKIP_TSAN:-}" ]; then
	echo "tsan: no clang; skipped"
fi

# libFuzzer targets (clang, ASan + UBSan): the devargs parsers, the
# software device's command interpreter (every DEVX entry point, two
# vHCAs), the public API's arguments; each for a bounded time on a copy of
# its corpus (test/fuzz/corpus). Prints executions and crashes per target;
# a crash, leak or timeout fails the run.
if command -v clang >/dev/null 2>&1 && [ -z "${SKIP_FUZZ:-}" ]; then
	# All targets at once (FUZZ_JOBS): 40 s of the run, not 40 s a
	# round of as many targets as CPUs.
	if ! FUZZ_BUILD_DIR="$BUILD_DIR-fuzz" FUZZ_JOBS="${FUZZ_JOBS:-8}" \
			devtools/run-fuzz.sh --seconds "${FUZZ_SECONDS:-40}" </dev/null; then
		echo "fuzz: FAILED"
		rc=1
	fi
elif [ -z "${SKIP_FUZZ:-}" ]; then
	echo "fuzz: no clang; skipped"
fi

# Every meson result of this run: the main build's, the portable C's and
# the sanitizer builds'.
logs=$(ls "$BUILD_DIR"/meson-logs/testlog*.json \
	"$BUILD_DIR-portable"/meson-logs/testlog*.json \
	"$BUILD_DIR-asan"/meson-logs/testlog*.json \
	"$BUILD_DIR-tsan"/meson-logs/testlog*.json 2>/dev/null || true)
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
