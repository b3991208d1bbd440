#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
#
# The crypto PMD under DPDK's own tools, as Debian ships them (package
# dpdk / dpdk-dev, DPDK 22.11), on the software device:
#   1. dpdk-test cryptodev_mlx5_autotest: the stock cryptodev suite; the
#      executed/skipped/failed counts are printed, and the XTS cases run;
#   2. dpdk-test-crypto-perf --ptest throughput: AES-XTS-256, 4 KiB;
#   3. dpdk-test-crypto-perf --ptest verify: IEEE 1619 vector 4 (one
#      512-byte unit, XTS-AES-128) from a vector file written here;
#   4. the same with vector 4's key wrapped, on a device in wrapped import
#      (the PMD logged in with wcs_file, as DPDK's own crypto/mlx5);
#   5. dpdk-test cryptodev_mlx5_autotest there: its 16 wrapped-key cases
#      run, 12 pass, 4 fail in the test's own mbuf set-up.
# The PMD is loaded with -d <build>/drivers (a private copy when that is
# under a world-writable directory, test/plugin_dir.sh); the device is
# --vdev=mlx5_sim0,class=crypto. crypto-perf picks devices by their EAL
# driver's name: the software device's is mlx5_sim (--devtype mlx5_sim);
# dpdk-test finds the cryptodev driver crypto_mlx5 by name.
# Exit code 0 only when all five ran and nothing else failed. The test
# `crypto_stock`.
#
# Usage: test/run-crypto-stock.sh [--build-dir DIR] [--help]
set -eu

cd "$(dirname "$0")/.."
. devtools/cli.sh
cli_parse "$0" "" "$@"
for tool in dpdk-test dpdk-test-crypto-perf; do
	if ! command -v $tool >/dev/null 2>&1; then
		echo "$tool not found (apt-get install dpdk dpdk-dev)"
		exit 77
	fi
done
# EAL refuses plugins under a world-writable directory: the one helper.
# shellcheck source=test/plugin_dir.sh
. test/plugin_dir.sh
safe_plugin_dir "$CLI_BUILD/drivers"
drivers=$plugin_dir
trap remove_plugin_copy EXIT
# EAL refuses plugins under a world-writable folder: keep the work files
# in the build tree.
work=$(cd "$CLI_BUILD" && pwd)/crypto-stock
rm -rf "$work"
mkdir -p "$work"
eal="--no-huge -m 1024 --no-pci -d $drivers --vdev=mlx5_sim0,class=crypto"
status=0

echo "== dpdk-test cryptodev_mlx5_autotest"
# shellcheck disable=SC2086
if ! echo cryptodev_mlx5_autotest | timeout 600 dpdk-test -l 0 $eal \
		--file-prefix crypto-stock-$$ >"$work/autotest.log" 2>&1; then
	echo "dpdk-test exited with an error (log: $work/autotest.log)"
	status=1
fi
grep 'TestCase.*XTS.*\(succeeded\|failed\)' "$work/autotest.log" || true
executed=$(sed -n 's/^ + Tests Executed : *\([0-9]*\)$/\1/p' "$work/autotest.log" | tail -n 1)
skipped=$(sed -n 's/^ + Tests Skipped : *\([0-9]*\)$/\1/p' "$work/autotest.log" | tail -n 1)
failed=$(sed -n 's/^ + Tests Failed : *\([0-9]*\)$/\1/p' "$work/autotest.log" | tail -n 1)
passed=$(sed -n 's/^ + Tests Passed : *\([0-9]*\)$/\1/p' "$work/autotest.log" | tail -n 1)
echo "cryptodev_mlx5_autotest: executed ${executed:-?}, passed ${passed:-?}, skipped ${skipped:-?}, failed ${failed:-?}"
if [ "${failed:-1}" != 0 ] || [ "${executed:-0}" = 0 ] ||
		! grep -q '^Test OK' "$work/autotest.log"; then
	status=1
fi

perf_common="--devtype mlx5_sim --optype cipher-only --cipher-algo aes-xts --cipher-iv-sz 16"

echo "== dpdk-test-crypto-perf --ptest throughput (AES-XTS-256, 4 KiB)"
# shellcheck disable=SC2086
if timeout 300 dpdk-test-crypto-perf -l 0-1 $eal \
		--file-prefix crypto-stock-$$ -- --ptest throughput \
		$perf_common --cipher-op encrypt --cipher-key-sz 64 \
		--buffer-sz 4096 --burst-sz 32 --total-ops 200000 \
		>"$work/throughput.log" 2>&1; then
	grep -A 2 'lcore id' "$work/throughput.log" | grep -v '^$'
else
	echo "throughput run failed (log: $work/throughput.log)"
	status=1
fi

# IEEE 1619 vector 4 (test/crypto-vectors.sh).
. test/crypto-vectors.sh
xts_ieee4_file "$work/xts_ieee4.data"

# verify <label> <EAL args> <key bytes> <vector file> <log name>: crypto-perf
# verify of the vector, both ways, 10000 operations, none failed.
verify() {
	for op in encrypt decrypt; do
		echo "== dpdk-test-crypto-perf --ptest verify ($op, $1)"
		log=$work/$5-$op.log
		# shellcheck disable=SC2086
		if timeout 300 dpdk-test-crypto-perf -l 0-1 $2 \
				--file-prefix crypto-stock-$$ -- --ptest verify \
				$perf_common --cipher-op $op --cipher-key-sz $3 \
				--buffer-sz 512 --burst-sz 32 --total-ops 10000 \
				--test-file "$4" >"$log" 2>&1; then
			grep -A 2 'lcore id' "$log" | grep -v '^$'
			if ! awk '/lcore id/ { getline; getline; n = 1
				if ($5 != 10000 || $6 != 0 || $7 != 0 || $8 != 0) bad = 1 }
				END { exit bad || !n }' "$log"; then
				echo "verify: operations failed"
				status=1
			fi
		else
			echo "verify run failed (log: $log)"
			status=1
		fi
	done
}
verify "IEEE 1619 vector 4" "$eal" 32 "$work/xts_ieee4.data" verify

# Wrapped keys: a device in wrapped import whose import KEK is the one
# DPDK's wrapped-key vectors are wrapped with, the PMD logged in with the
# credential file DPDK's own crypto/mlx5 takes (wcs_file).
echo "$XTS_WRAPPED_CREDENTIAL" >"$work/wcs"
weal="--no-huge -m 1024 --no-pci -d $drivers --vdev=mlx5_sim0,card=9,crypto=wrapped,crypto_kek=$XTS_KEK,crypto_credential=$XTS_CREDENTIAL,class=crypto,wcs_file=$work/wcs"
xts_ieee4_file "$work/xts_ieee4_wrapped.data" "$XTS_IEEE4_WRAPPED_KEY"
verify "IEEE 1619 vector 4, wrapped key" "$weal" 48 \
	"$work/xts_ieee4_wrapped.data" verify-wrapped

echo "== dpdk-test cryptodev_mlx5_autotest, wrapped keys"
# shellcheck disable=SC2086
echo cryptodev_mlx5_autotest | timeout 600 dpdk-test -l 0 $weal \
	--file-prefix crypto-stock-$$ >"$work/autotest-wrapped.log" 2>&1 || true
grep -E 'TestCase.*XTS.*(succeeded|failed)' "$work/autotest-wrapped.log" || true
res=$(awk '/Tests Executed :/ && $NF > 0 { e = $NF; getline; getline;
	p = $NF; getline; f = $NF; print e, p, f; exit }' "$work/autotest-wrapped.log")
echo "cryptodev_mlx5_autotest, wrapped keys: executed, passed, failed: ${res:-none}"
# The 16 wrapped-key cases run; the 4 of 4096 bytes scatter-gather out of
# place fail in the test's own set-up (it appends the length twice to a
# one-segment destination mbuf: no room), before any operation.
if [ "$res" != "16 12 4" ] || [ "$(grep -c 'TestCase.*(4096-byte.*Scatter gather OOP failed' \
		"$work/autotest-wrapped.log")" != 4 ]; then
	echo "wrapped-key autotest: not the 12 passed expected"
	status=1
fi
exit $status
