#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
#
# Set up, build and run the main demo on the software device: cross-vHCA
# memory access between a host and a DPU vHCA of one simulated BlueField card
# (examples/cross_vhca), the RFC's use case through the net PMD (examples/
# dpu_tx: the DPU transmits host memory under a crossing mkey, a receiver
# checks every byte, the host revokes and the next frames fail), then the
# tour of the common layer (examples/mlx5_sim_demo: capabilities, mkeys,
# pacing, a refused command, MR lookups).
#
# Usage: devtools/run-demo.sh [--build-dir DIR] [--help] [-- EAL options]
#   what follows -- goes to every program's EAL
# Environment (fallback): BUILD_DIR.
set -eu

cd "$(dirname "$0")/.."
. devtools/cli.sh
CLI_BUILD_DIR=${BUILD_DIR:-build}
cli_parse "$0" "" "$@"
BUILD_DIR=$CLI_BUILD_DIR
eval "set -- $CLI_REST"
devtools/setup.sh --build-dir "$BUILD_DIR" >/dev/null
EAL="--no-huge -m 256 --no-pci --no-shconf -l 0 --log-level=pmd.common.mlx5*:notice"
echo "== examples/cross_vhca =="
# shellcheck disable=SC2086
"$BUILD_DIR/examples/cross_vhca/cross_vhca" $EAL "$@"
echo
echo "== examples/dpu_tx =="
# shellcheck disable=SC2086
"$BUILD_DIR/examples/dpu_tx/dpu_tx" $EAL -m 512 "$@"
echo
echo "== examples/mlx5_sim_demo =="
# shellcheck disable=SC2086
"$BUILD_DIR/examples/mlx5_sim_demo/mlx5_sim_demo" $EAL "$@"
