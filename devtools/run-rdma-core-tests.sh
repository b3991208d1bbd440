#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
#
# rdma-core 44's own tests (tests/ of Debian's rdma-core source package,
# or the same files python3-pyverbs installs under
# /usr/share/doc/rdma-core/tests), run unmodified with Debian's pyverbs on
# the software device through its rdma-core front
# (drivers/common/mlx5/sim/rdma: libibverbs.so.1 and libmlx5.so.1 first on
# LD_LIBRARY_PATH). Prints each case with its result (a skip with
# rdma-core's reason) and ends with "N passed, N failed, N skipped". A
# module runs under a time limit: it fails, never hangs.
#
# The tests are fetched at run time into <build>/rdma-core-tests (nothing
# of them is in this tree). The device: $MLX5_SIM_HOST if set (see
# doc/guides/platform/mlx5_rdma_front.rst), else the front's own mlx5_0.
#
# Usage: devtools/run-rdma-core-tests.sh [--build-dir DIR] [MODULE...]
#   MODULE  a module of rdma-core's tests/ (test_device, test_mr, ...);
#           default: test_device test_pd test_mr test_cq test_qp
#           test_shared_pd test_mlx5_devx test_mlx5_pp test_mlx5_mkey
#           test_cq_events test_qpex test_atomic test_flow
#           test_rss_traffic test_cqex
# Exit status: 0 if no case failed, 1 otherwise, 2 on a bad argument.
# Time: seconds. Run by the test command (meson test rdma_core_tests) with
# the default list.
set -eu
src=$(cd "$(dirname "$0")/.." && pwd)
. "$src/devtools/cli.sh"

cli_parse "$0" "ARGS" "$@"
eval "set -- $CLI_REST"
modules=
for m in "$@"; do
	case $m in
	test_*) modules="$modules $m" ;;
	*) cli_bad "$0" "$m" ;;
	esac
done
build=$CLI_BUILD
[ -n "$modules" ] || modules="test_device test_pd test_mr test_cq test_qp
test_shared_pd test_mlx5_devx test_mlx5_pp test_mlx5_mkey test_cq_events
test_qpex test_atomic test_flow test_rss_traffic test_cqex"
front=$build/drivers/common/mlx5/sim/rdma
py=/usr/bin/python3

if [ ! -e "$front/libibverbs.so.1" ] || [ ! -e "$front/libmlx5.so.1" ]; then
	echo "run-rdma-core-tests: no rdma-core front in $front (build with -Dsim=true: ninja -C $build)" >&2
	exit 1
fi
if ! "$py" -c 'import pyverbs.device' 2>/dev/null; then
	echo "run-rdma-core-tests: $py cannot import pyverbs: install python3-pyverbs (devtools/setup.sh does)" >&2
	exit 1
fi

# rdma-core's tests, once per build folder: from the source package of the
# installed version when the archive has it, else pyverbs' own copy.
cache=$build/rdma-core-tests
if [ ! -f "$cache/tests/run_tests.py" ]; then
	rm -rf "$cache"
	mkdir -p "$cache/dl"
	ver=$(dpkg-query -W -f='${Version}' libibverbs1 2>/dev/null || true)
	if [ -n "$ver" ] && (cd "$cache/dl" &&
		apt-get source -qq --download-only "rdma-core=$ver") \
		>/dev/null 2>&1 &&
	   dpkg-source --no-check -x "$cache"/dl/rdma-core_*.dsc \
		"$cache/src" >/dev/null 2>&1; then
		cp -r "$cache/src/tests" "$cache/tests"
		echo "run-rdma-core-tests: tests/ of the source package rdma-core $ver"
	elif [ -f /usr/share/doc/rdma-core/tests/run_tests.py ]; then
		cp -r /usr/share/doc/rdma-core/tests "$cache/tests"
		find "$cache/tests" -name '*.gz' -exec gunzip -f {} +
		echo "run-rdma-core-tests: tests/ as python3-pyverbs $(dpkg-query -W -f='${Version}' python3-pyverbs) installs them (the source package could not be fetched)"
	else
		echo "run-rdma-core-tests: neither the source package rdma-core nor python3-pyverbs' copy of tests/ is available" >&2
		exit 1
	fi
	rm -rf "$cache/dl" "$cache/src"
fi

# rdma-core's tests take a port's MAC and address from its netdev, found
# under /sys/class/infiniband/<dev>/device/net/ (the DevX tests put that MAC
# in their QPs' address path). With the front's own device (no
# $MLX5_SIM_HOST) and root, each module runs in mount and network
# namespaces of its own holding that: a netdev (veth) with the vport's MAC
# (card 0, vHCA 0: 02:00:00:00:00:00) and a /sys/class/infiniband naming
# it. Otherwise the tests find no netdev, as on a host without one.
wrap=
if [ -z "${MLX5_SIM_HOST:-}" ] && [ "$(id -u)" = 0 ] &&
   unshare -m -n true 2>/dev/null; then
	wrap=netns
fi

# Run "$@" in the namespaces described above.
in_netns() {
	unshare -m -n sh -c '
		set -e
		ip link add simnet0 type veth peer name simnet1
		ip link set simnet0 address 02:00:00:00:00:00
		ip link set simnet1 up
		ip link set simnet0 up
		mount --make-rprivate /
		mount -t tmpfs simclass /sys/class
		mkdir -p /sys/class/infiniband/mlx5_0/device/net/simnet0
		exec "$@"' sh "$@"
}

status=0
summary=$cache/summary
: > "$summary"
for m in $modules; do
	if [ ! -f "$cache/tests/$m.py" ]; then
		echo "run-rdma-core-tests: rdma-core's tests/ has no module $m" >&2
		echo "$m FAIL no such module" >> "$summary"
		continue
	fi
	log=$cache/$m.log
	rc=0
	(cd "$cache" && LD_LIBRARY_PATH=$front${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} \
		${wrap:+in_netns} timeout -k 10 600 "$py" tests/run_tests.py \
		-v "$m") > "$log" 2>&1 || rc=$?
	"$py" - "$log" "$m" "$rc" >> "$summary" <<'EOF'
import re, sys
log, module, rc = sys.argv[1], sys.argv[2], int(sys.argv[3])
name = None
seen = 0
for line in open(log, errors="replace"):
    line = line.rstrip("\n")
    m = re.match(r"^(test\w*) \((tests\.[\w.]+)\)", line)
    if m:
        name = m.group(2).replace("tests.", "", 1)
    # The result ends the case's line, or stands alone on a later one
    # when the case printed something (a warning) in between.
    m = re.search(r"(?: \.\.\. |^)(ok|FAIL|ERROR|skipped '(.*)'"
                  r"|expected failure|unexpected success)$", line)
    if m and name:
        res = m.group(1)
        kind = {"ok": "PASS", "expected failure": "PASS",
                "FAIL": "FAIL", "ERROR": "FAIL",
                "unexpected success": "FAIL"}.get(res, "SKIP")
        print(name, kind, m.group(2) or "")
        seen += 1
        name = None
if rc == 124 or rc == 137:
    print(module, "FAIL", "timed out after 600 s")
elif rc != 0 and seen == 0:
    print(module, "FAIL", "did not run (exit %d): see %s" % (rc, log))
EOF
done

while read -r name kind why; do
	case $kind in
	SKIP) echo "$name: skipped ($why)" ;;
	FAIL) echo "$name: FAILED${why:+ ($why)}" ;;
	*) echo "$name: passed" ;;
	esac
done < "$summary"
pass=$(grep -c ' PASS' "$summary" || true)
fail=$(grep -c ' FAIL' "$summary" || true)
skip=$(grep -c ' SKIP' "$summary" || true)
[ "$fail" -eq 0 ] || status=1
[ "$status" -eq 0 ] || echo "run-rdma-core-tests: logs in $cache/<module>.log"
echo "$pass passed, $fail failed, $skip skipped"
exit $status
