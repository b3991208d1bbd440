#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
#
# One log type per component, each set by EAL's --log-level: the stock
# dpdk-test loads our drivers (-d), probes a software device with both
# classes, and each component's message appears only at the level that
# shows it. dump_log_types shows the four types and the levels asked for.
#
# The test `log_levels`.
#
# Usage: test/log_levels.sh [--build-dir DIR] [--help]
set -u

src=$(cd "$(dirname "$0")/.." && pwd)
. "$src/devtools/cli.sh"
cli_parse "$0" "" "$@"
build=$CLI_BUILD
dpdk_test=$(command -v dpdk-test || true)
if [ -z "$dpdk_test" ]; then
	echo "dpdk-test not installed (package dpdk-dev)"
	exit 77
fi
# shellcheck source=test/plugin_dir.sh
. "$(dirname "$0")/plugin_dir.sh"
safe_plugin_dir "$build/drivers"
dir=$plugin_dir
trap remove_plugin_copy EXIT

fails=0
run() { # <commands> <EAL options...>
	cmds=$1
	shift
	printf '%s\nquit\n' "$cmds" | timeout 60 "$dpdk_test" --no-huge -m 256 \
		--no-pci --no-shconf -l 0 -d "$dir" \
		--vdev=mlx5_sim0,class=eth:crypto "$@" 2>&1
}
expect() { # <yes|no> <what> <output> <string>
	if printf '%s\n' "$3" | grep -qF -- "$4"; then
		found=yes
	else
		found=no
	fi
	if [ "$1" = yes ]; then
		what="$2: printed"
	else
		what="$2: not printed"
	fi
	if [ "$found" = "$1" ]; then
		echo "  ok: $what"
	else
		echo "  FAILED: $what (\"$4\")"
		fails=$((fails + 1))
	fi
}

NET_DEBUG="mlx5_net: mlx5_sim0: devargs: txq_inline_min"
NET_INFO="mlx5_net: mlx5_sim0: port "
COMMON_INFO="mlx5_common: mlx5_sim0: sim device "
SIM_DEBUG="mlx5_sim: device mlx5_sim0 is "
CRYPTO_INFO="crypto_mlx5: mlx5_sim0: cryptodev "

echo "default levels (notice):"
out=$(run "")
for s in "$NET_DEBUG" "$NET_INFO" "$COMMON_INFO" "$SIM_DEBUG" "$CRYPTO_INFO"; do
	expect no "$s" "$out" "$s"
done

echo "--log-level=pmd.net.mlx5:info:"
out=$(run "" --log-level=pmd.net.mlx5:info)
expect yes "net PMD info line" "$out" "$NET_INFO"
expect no "net PMD debug line" "$out" "$NET_DEBUG"

echo "--log-level=pmd.net.mlx5:debug:"
out=$(run "dump_log_types" --log-level=pmd.net.mlx5:debug)
printf '%s\n' "$out" | grep -F "$NET_INFO"
printf '%s\n' "$out" | grep -F "$NET_DEBUG"
expect yes "net PMD info line" "$out" "$NET_INFO"
expect yes "net PMD debug line" "$out" "$NET_DEBUG"
expect no "common layer info line" "$out" "$COMMON_INFO"
expect yes "dump_log_types: pmd.net.mlx5 at debug" "$out" "pmd.net.mlx5, level is debug"
for t in pmd.common.mlx5 pmd.common.mlx5.sim pmd.crypto.mlx5; do
	expect yes "dump_log_types: $t at notice" "$out" "$t, level is notice"
done

echo "--log-level=pmd.common.mlx5:info --log-level=pmd.common.mlx5.sim:debug --log-level=pmd.crypto.mlx5:info:"
out=$(run "" --log-level=pmd.common.mlx5:info \
	--log-level=pmd.common.mlx5.sim:debug --log-level=pmd.crypto.mlx5:info)
printf '%s\n' "$out" | grep -F -e "$COMMON_INFO" -e "$SIM_DEBUG" -e "$CRYPTO_INFO"
expect yes "common layer info line" "$out" "$COMMON_INFO"
expect yes "software device debug line" "$out" "$SIM_DEBUG"
expect yes "crypto PMD info line" "$out" "$CRYPTO_INFO"
expect no "net PMD info line" "$out" "$NET_INFO"

echo "log_levels: $fails failed"
[ "$fails" = 0 ]
