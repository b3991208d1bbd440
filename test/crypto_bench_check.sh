#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
#
# The crypto benchmark (app/test-mlx5-crypto) still runs: a few operations
# through the PMD, each buffer's ciphertext equal to OpenSSL's (the
# program checks one and fails on any operation's error status), with a
# devarg passed through --devargs; a devarg the device does not take ends
# it with the driver's log naming it; bad arguments are refused. Its
# figures are the benchmark's (devtools/run-crypto-bench.sh), not judged.
#
# The test `crypto_bench`.
#
# Usage: test/crypto_bench_check.sh [--build-dir DIR] [--help]
set -u

src=$(cd "$(dirname "$0")/.." && pwd)
. "$src/devtools/cli.sh"
cli_parse "$0" "" "$@"
build=$CLI_BUILD
bench=$build/app/test-mlx5-crypto/dpdk-test-mlx5-crypto
log=$(mktemp)
trap 'rm -f "$log"' EXIT
fail() {
	cat "$log"
	echo "crypto_bench: FAILED: $1"
	exit 1
}

"$bench" --ops 256 --runs 3 --bufs 32 --burst 16 \
	--devargs qp_mkeys=32 >"$log" 2>&1 || fail "a short run (exit $?)"
grep -q '^ratio PMD/EVP: [0-9.]* ' "$log" || fail "no ratio printed"
grep '^ratio' "$log"

if "$bench" --ops 64 --runs 1 --devargs no_such_key=1 >"$log" 2>&1; then
	fail "an unknown devarg was taken"
fi
grep -q 'unknown devarg key "no_such_key"' "$log" ||
	fail "the unknown devarg is not named"
grep -q '^setup failed' "$log" || fail "no 'setup failed' line"

if "$bench" --ops 64 --burst 0 >"$log" 2>&1; then
	fail "a burst of 0 was taken"
fi
grep -q '^bad arguments' "$log" || fail "no 'bad arguments' line"
echo "crypto_bench: OK"
