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
# Usage: devtools/run-mr-asm-bench.sh [--build-dir DIR] [--portable DIR]
#          [--help] [-- run-mr-bench.sh options]
#   --portable DIR  the -DMLX5_MR_PORTABLE build (default build-mr-portable)
# Environment (fallbacks): BUILD_DIR, PORTABLE_DIR.
set -eu

cd "$(dirname "$0")/.."
. devtools/cli.sh
BUILD_DIR=${BUILD_DIR:-build}
PORTABLE_DIR=${PORTABLE_DIR:-build-mr-portable}
while [ $# -gt 0 ]; do
	case $1 in
	--build-dir) BUILD_DIR=${2:?--build-dir needs a folder}; shift 2 ;;
	--portable) PORTABLE_DIR=${2:?--portable needs a folder}; shift 2 ;;
	--help) cli_usage "$0"; exit 0 ;;
	--) shift; break ;;
	*) cli_bad "$0" "$1" ;;
	esac
done
SDK="$(pwd)/build/sdk-include"
[ -d "$SDK" ] || devtools/setup.sh
if [ ! -f "$PORTABLE_DIR/build.ninja" ]; then
	meson setup "$PORTABLE_DIR" -Dsdk_headers="$SDK" \
		-Dc_args=-DMLX5_MR_PORTABLE >/dev/null
fi
exec devtools/run-mr-bench.sh --build-dir "$BUILD_DIR" \
	--portable "$PORTABLE_DIR" --mbufs 0 --mt 0 "$@"
