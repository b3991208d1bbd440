#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
#
# EAL refuses a plugin (-d) path that is world-writable or under a
# world-writable directory, such as a checkout under /tmp. Every script
# that hands our drivers to a stock DPDK application goes through one
# helper (test/plugin_dir.sh, safe_plugin_dir). This test:
#   1. finds every script of test/ and devtools/ that passes a drivers
#      folder with -d and fails if one does not use the helper;
#   2. puts the build's drivers in a folder under /tmp made world-writable
#      (what a clone under /tmp has) and runs the stock dpdk-test
#      pmd_perf_autotest through test/pmd_perf_check.sh on it: it must pass,
#      and the helper's private copy must be gone afterwards.
#
# The test `plugin_paths`.
#
# Usage: test/plugin_paths.sh [--build-dir DIR] [--help]
set -u

src=$(cd "$(dirname "$0")/.." && pwd)
. "$src/devtools/cli.sh"
cli_parse "$0" "" "$@"
build=$CLI_BUILD
drivers=$(cd "$build/drivers" && pwd)
fail=0

# 1. The -d users: a line passing -d "$dir" (or $drivers, $plugin_dir, ...).
for f in "$src"/test/*.sh "$src"/devtools/*.sh; do
	[ "$(basename "$f")" = plugin_dir.sh ] && continue
	if grep -Eq -- '(^|[[:space:]])-d "?\$\{?(dir|drivers|plugin_dir|plugindir)\b' "$f" &&
			! grep -q 'safe_plugin_dir' "$f"; then
		echo "FAIL: ${f#"$src"/} passes a drivers folder with -d without safe_plugin_dir (test/plugin_dir.sh)"
		fail=1
	fi
done
[ "$fail" = 0 ] && echo "  ok: every -d user of test/ and devtools/ goes through safe_plugin_dir"

# 2. The drivers under a world-writable folder of /tmp (a build folder
#    there holding only drivers/).
if ! command -v dpdk-test >/dev/null 2>&1; then
	echo "dpdk-test not installed (package dpdk-dev): part 2 skipped"
	exit $fail
fi
tmp=$(mktemp -d /tmp/mlx5-plugin-paths.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
chmod 1777 "$tmp"
mkdir "$tmp/drivers"
for f in "$drivers"/*.so*; do
	[ -d "$f" ] || cp -P "$f" "$tmp/drivers/"
done
before=$(ls -d "${HOME:-/root}"/.cache/mlx5-plugins.* 2>/dev/null | wc -l)
if ! sh "$src/test/pmd_perf_check.sh" --build-dir "$tmp"; then
	echo "FAIL: pmd_perf_check.sh with the drivers under $tmp (world-writable)"
	fail=1
else
	echo "  ok: pmd_perf_autotest loaded the drivers from under a world-writable /tmp folder"
fi
after=$(ls -d "${HOME:-/root}"/.cache/mlx5-plugins.* 2>/dev/null | wc -l)
if [ "$after" != "$before" ]; then
	echo "FAIL: the helper's private copy of the drivers was left in ~/.cache"
	fail=1
fi
exit $fail
