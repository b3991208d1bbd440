#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
#
# The MR cache's x86-64 assembly searches (mlx5_common_mr_private.h) beside
# their portable C form, in one run: the tree is built a second time with
# -DMLX5_MR_PORTABLE (PORTABLE_DIR, default build-mr-portable) and
# devtools/run-mr-bench.sh prints both builds' instructions and cycles
# (its "C" columns) beside DPDK 22.11's. Figures only: the exit code says
# whether it ran.
#
# Usage: devtools/run-mr-asm-bench.sh [run-mr-bench.sh options]
# Environment: BUILD_DIR (default build), PORTABLE_DIR.
set -eu

cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
PORTABLE_DIR=${PORTABLE_DIR:-build-mr-portable}
SDK="$(pwd)/build/sdk-include"
[ -d "$SDK" ] || devtools/setup.sh
if [ ! -f "$PORTABLE_DIR/build.ninja" ]; then
	meson setup "$PORTABLE_DIR" -Dsdk_headers="$SDK" \
		-Dc_args=-DMLX5_MR_PORTABLE >/dev/null
fi
exec devtools/run-mr-bench.sh --build-dir "$BUILD_DIR" \
	--portable "$PORTABLE_DIR" --mbufs 0 --mt 0 "$@"
