#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
#
# The software device's model is the hardware (kernel + firmware): it
# includes no driver header and calls no driver function, as a QEMU device
# core knows no guest driver. Checked two ways:
#  - includes: a model source (drivers/common/mlx5/sim, except the adapter:
#    mlx5_sim_vdev.c, mlx5_sim_adapter.h) includes, of the project's
#    headers, only the PRM layouts (mlx5_prm*.h, the spec shared with the
#    driver), the header-only parsing helpers (mlx5_parse.h) and the
#    model's own (mlx5_sim*.h); the PRM headers include only each other,
#    mlx5_parse.h none of the project's;
#  - calls: the model's compiled objects reference no mlx5_ symbol that is
#    not the model's own (mlx5_sim_*), in the build folder given.
# The test `sim_model`.
#
# Usage: test/check-sim-model.sh [--build-dir DIR] [--help]
set -eu
src=$(cd "$(dirname "$0")/.." && pwd)
. "$src/devtools/cli.sh"
cli_parse "$0" "" "$@"
build=$CLI_BUILD
sim=$src/drivers/common/mlx5/sim
bad=0

is_adapter() {
	case ${1##*/} in
	mlx5_sim_vdev.c|mlx5_sim_adapter.h) return 0 ;;
	esac
	return 1
}

for f in "$sim"/*.c "$sim"/*.h; do
	is_adapter "$f" && continue
	for inc in $(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$f"); do
		case $inc in
		mlx5_prm*.h|mlx5_parse.h|mlx5_sim*.h)
			[ "$inc" != mlx5_sim_adapter.h ] && continue ;;
		esac
		echo "check-sim-model: ${f#$src/} includes \"$inc\", a header of the driver or the adapter"
		bad=1
	done
	if grep -n '^#include <\(mlx5_\|rte_pmd_mlx5\)' "$f"; then
		echo "check-sim-model: ${f#$src/} includes a driver header"
		bad=1
	fi
done
if grep -n '^#include "' "$src/drivers/common/mlx5/mlx5_parse.h"; then
	echo "check-sim-model: drivers/common/mlx5/mlx5_parse.h includes a header of the project"
	bad=1
fi
for f in "$src"/drivers/common/mlx5/mlx5_prm*.h; do
	for inc in $(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$f"); do
		case $inc in
		mlx5_prm*.h) continue ;;
		esac
		echo "check-sim-model: ${f#$src/} (the PRM) includes \"$inc\""
		bad=1
	done
done

if [ -n "$build" ]; then
	n=0
	for o in "$build"/drivers/*.p/*mlx5_sim_*.c.o; do
		[ -f "$o" ] || continue
		case $o in *mlx5_sim_vdev.c.o) continue ;; esac
		n=$((n + 1))
		calls=$(nm -u "$o" | awk '{print $NF}' |
			grep '^mlx5_' | grep -v '^mlx5_sim_' || true)
		if [ -n "$calls" ]; then
			echo "check-sim-model: ${o##*/} calls driver functions:" $calls
			bad=1
		fi
	done
	if [ "$n" = 0 ]; then
		echo "check-sim-model: no model object found under $build/drivers"
		bad=1
	fi
	echo "check-sim-model: $n model objects call no driver function"
fi
# The model's library: plain C, pthreads and OpenSSL, so none of DPDK's
# libraries (EAL included) nor rdma-core's.
model=$build/drivers/libmlx5_sim_model.so
if [ -f "$model" ]; then
	needed=$(readelf -d "$model" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
	for n in $needed; do
		case $n in
		libc.so.*|libcrypto.so.*|ld-linux*|libpthread.so.*) ;;
		*) echo "check-sim-model: libmlx5_sim_model.so needs $n"; bad=1 ;;
		esac
	done
	echo "check-sim-model: libmlx5_sim_model.so needs only:" $needed
else
	echo "check-sim-model: no $model (built with -Dsim=false?)"
	bad=1
fi
if [ "$bad" != 0 ]; then
	echo "check-sim-model: FAILED"
	exit 1
fi
echo "check-sim-model: the model includes no driver header"
