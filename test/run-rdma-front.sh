#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
#
# Our rdma-core backend (drivers/common/mlx5/linux) on the software device
# through its rdma-core front: a host of two PCI functions of a ConnectX-6
# Dx (devtools/sim-host.sh), found by EAL's PCI bus through
# SYSFS_PCI_DEVICES, probed by the PCI driver mlx5c_pci (no vdev), each
# matched to its RDMA device through <ibdev_path>/device, opened with
# libibverbs.so.1/libmlx5.so.1 of the front. The C suites run on them as on
# real devices (MLX5_TEST_DEVICE, MLX5_TEST_DEVICE2 = the PCI addresses):
# every case passes or skips with the reason a real device would give.
# Then examples/cross_vhca (when built) with the host and DPU vHCAs of a
# BlueField-2 card probed by PCI address, and a sub-function probed by the
# auxiliary bus (auxiliary:mlx5_core.sf.2: EAL reads /sys/bus/auxiliary
# only, so that step runs in a mount namespace of its own, unshare -m,
# with the host tree's devices mounted there; skipped where the machine
# gives none).
# Last line "rdma-front: N suites passed, N failed".
#
# Usage: test/run-rdma-front.sh [--build-dir DIR]
# Time: about 30 s. The test rdma_front_probe; the test command also runs
# it on its -Dibverbs_link=dlopen build.
set -eu
src=$(cd "$(dirname "$0")/.." && pwd)
. "$src/devtools/cli.sh"
cli_parse "$0" "" "$@"
build=$CLI_BUILD

pass=0
fail=0

# host DIR [LINE...]: a host of the devices.conf LINEs (the default
# two-function ConnectX-6 Dx without LINEs), its environment set.
host() {
	dir=$1
	shift
	mkdir -p "$dir"
	if [ $# -gt 0 ]; then
		printf '%s\n' "$@" > "$dir/devices.conf"
		set -- --conf "$dir/devices.conf"
	fi
	eval "$("$src/devtools/sim-host.sh" --build-dir "$build" "$@" "$dir")"
}

# suite SUITE LOG WHERE COMMAND...: run a C suite's COMMAND; it passes
# with no failed case and the log showing the backend probed the device
# (WHERE: "<device>: rdma-core device <ibdev>").
suite() {
	t=$1 log=$2 where=$3
	shift 3
	if "$@" >"$log" 2>&1 &&
	   grep -q "^$t: [0-9]* passed, 0 failed" "$log" &&
	   grep -q "$where" "$log"; then
		echo "rdma-front: ${where%%: rdma-core*}: $(tail -n 1 "$log")"
		pass=$((pass + 1))
	else
		grep -B3 'FAILED$' "$log" | tail -n 40 || true
		echo "rdma-front: ${where%%: rdma-core*}: $t: FAILED ($(tail -n 1 "$log"); log $log)"
		fail=$((fail + 1))
	fi
}

host "$build/rdma-front-host"
export MLX5_TEST_DEVICE=0000:08:00.0 MLX5_TEST_DEVICE2=0000:08:00.1
for t in devx pp vhca mr qcnt verbs_obj queue eth crypto crypto_pmd net; do
	exe=$build/test/test_$t
	if [ ! -x "$exe" ]; then
		echo "rdma-front: $t: no $exe (build with -Dsim=true -Dtests=true)"
		fail=$((fail + 1))
		continue
	fi
	suite "$t" "$MLX5_SIM_HOST/$t.log" "0000:08:00.0: rdma-core device mlx5_0" \
		timeout -k 10 600 "$exe"
done
ex=$build/examples/cross_vhca/cross_vhca
if [ -x "$ex" ]; then
	host "$build/rdma-front-bf2" \
		"mlx5_0 0000:08:00.0 - card=3,vhca_id=1,device_id=0xa2d6" \
		"mlx5_1 0000:08:00.1 - card=3,vhca_id=2,device_id=0xa2d6"
	if timeout -k 10 120 "$ex" --no-huge -m 256 --no-shconf -l 0 \
			-a 0000:08:00.0 -a 0000:08:00.1 -- 0000:08:00.0 \
			0000:08:00.1 >"$MLX5_SIM_HOST/cross_vhca.log" 2>&1; then
		echo "rdma-front: cross_vhca: $(tail -n 1 "$MLX5_SIM_HOST/cross_vhca.log") (BlueField-2 host and DPU by PCI address)"
		pass=$((pass + 1))
	else
		cat "$MLX5_SIM_HOST/cross_vhca.log"
		echo "rdma-front: cross_vhca: FAILED"
		fail=$((fail + 1))
	fi
else
	echo "rdma-front: cross_vhca: not built (-Dexamples=false)"
fi
host "$build/rdma-front-sf" "mlx5_0 0000:08:00.0 - card=5,vhca_id=0" \
	"mlx5_2 auxiliary:mlx5_core.sf.2 - card=5,vhca_id=5"
if ! unshare -m true 2>/dev/null; then
	echo "rdma-front: auxiliary: skipped: no mount namespace here (unshare -m needs CAP_SYS_ADMIN)"
else
	for t in devx pp vhca; do
		MLX5_TEST_DEVICE=auxiliary:mlx5_core.sf.2 MLX5_TEST_DEVICE2= \
		suite "$t" "$MLX5_SIM_HOST/$t.log" \
			"mlx5_core.sf.2: rdma-core device mlx5_2" \
			unshare -m sh -c '
			mount -t tmpfs none /sys/bus &&
			mkdir -p /sys/bus/auxiliary &&
			ln -s "$1/sys/bus/auxiliary/devices" /sys/bus/auxiliary/devices &&
			exec timeout -k 10 600 "$2"' sh "$MLX5_SIM_HOST" \
			"$build/test/test_$t"
	done
fi
echo "rdma-front: $pass suites passed, $fail failed"
[ "$fail" -eq 0 ]
