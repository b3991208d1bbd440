#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
#
# AES-XTS-256 on 4 KiB buffers: the crypto PMD (crypto_mlx5) on the
# software device beside a plain OpenSSL EVP loop over the same buffers in
# the same run (app/test-mlx5-crypto). The same CPU does the AES in both,
# so the ratio is the PMD + UMR + engine overhead; target >= 0.9. Cycles
# by TSC, the median of the runs; a shared host makes them a hint. The
# figures are printed, never asserted: the exit code says only whether it
# ran (and that the PMD's ciphertext equals OpenSSL's).
#
# Usage: devtools/run-crypto-bench.sh [--build-dir DIR] [--ops N] [--runs N]
# Also run by `meson test -C build --benchmark --suite crypto`.
set -eu

cd "$(dirname "$0")/.."
BUILD_DIR=build
OPS=100000
RUNS=5
while [ $# -gt 0 ]; do
	case $1 in
	--build-dir) BUILD_DIR=$2; shift 2 ;;
	--ops) OPS=$2; shift 2 ;;
	--runs) RUNS=$2; shift 2 ;;
	*) echo "usage: $0 [--build-dir DIR] [--ops N] [--runs N]" >&2; exit 2 ;;
	esac
done
bench=$BUILD_DIR/app/test-mlx5-crypto/dpdk-test-mlx5-crypto
if [ ! -x "$bench" ]; then
	ninja -C "$BUILD_DIR" >/dev/null
fi
"$bench" --ops "$OPS" --runs "$RUNS" --size 4096 --burst 32 2>&1 |
	grep -v '^EAL: \|^CRYPTODEV: \|^TELEMETRY: '
