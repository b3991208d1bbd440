#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
#
# The public API's ABI (rte_pmd_mlx5.h, the rte_pmd_* functions of
# librte_common_mlx5) against the dump recorded in
# test/abi/librte_common_mlx5.abi, with libabigail (Debian package
# abigail-tools): abidw dumps the built library, abidiff compares. Any
# difference fails, additions included: an ABI change is announced by
# recording the new dump in the same change (--update), so that the
# dump's diff shows it in review (see doc/guides/platform/mlx5.rst,
# "Checks"). The library needs debug info (-g, as the default
# debugoptimized build has). The test `abi`.
#
# Usage: test/check-abi.sh [--build-dir DIR] [--update] [--help]
#   --update  record the built library's ABI as the new reference
set -eu
src=$(cd "$(dirname "$0")/.." && pwd)
. "$src/devtools/cli.sh"
cli_parse "$0" "--update" "$@"
build=$CLI_BUILD
update=${cli_update:-}
lib=$build/drivers/librte_common_mlx5.so
ref=$src/test/abi/librte_common_mlx5.abi
supp=$src/test/abi/public-api.supp
out=$build/abi
hdr_dir=$src/drivers/common/mlx5

for t in abidw abidiff; do
	if ! command -v $t >/dev/null 2>&1; then
		echo "FAIL: no $t (Debian package abigail-tools; devtools/setup.sh installs it)"
		exit 1
	fi
done
if [ ! -f "$lib" ]; then
	echo "FAIL: $lib not built"
	exit 1
fi
if ! readelf -S "$lib" | grep -q '\.debug_info'; then
	echo "SKIP: $lib has no debug info (configure with -g, e.g. buildtype=debugoptimized)"
	exit 77
fi
mkdir -p "$out"
abidw --no-corpus-path --no-comp-dir-path --no-show-locs \
	--drop-undefined-syms --suppressions "$supp" \
	--headers-dir "$hdr_dir" --header-file "$hdr_dir/rte_pmd_mlx5.h" \
	--drop-private-types --out-file "$out/librte_common_mlx5.abi" "$lib"
nfn=$(grep -c '<elf-symbol .*func-type' "$out/librte_common_mlx5.abi" || true)

if [ -n "$update" ]; then
	if [ -f "$ref" ]; then
		abidiff --suppressions "$supp" "$ref" \
			"$out/librte_common_mlx5.abi" || true
	fi
	cp "$out/librte_common_mlx5.abi" "$ref"
	echo "abi: recorded $nfn public functions in ${ref#"$src"/}; commit it with the change"
	exit 0
fi
if [ ! -f "$ref" ]; then
	echo "FAIL: no recorded ABI ${ref#"$src"/} (record it with test/check-abi.sh --update)"
	exit 1
fi
set +e
abidiff --suppressions "$supp" "$ref" "$out/librte_common_mlx5.abi"
rc=$?
set -e
if [ $rc = 0 ]; then
	echo "abi: PASS, the $nfn public functions match ${ref#"$src"/}"
	exit 0
fi
# abidiff's status bits: 1 error, 2 usage, 4 change, 8 incompatible change.
if [ $((rc & 3)) != 0 ]; then
	echo "abi: FAILED, abidiff could not compare (status $rc)"
elif [ $((rc & 8)) != 0 ]; then
	echo "abi: FAILED, incompatible change of the public ABI (above), not recorded in ${ref#"$src"/}"
else
	echo "abi: FAILED, change of the public ABI (above), not recorded in ${ref#"$src"/}"
fi
echo "If the change is intended, announce it: test/check-abi.sh --update --build-dir $build, and commit the new dump with the change."
exit 1
