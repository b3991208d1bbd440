#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
#
# Formatting per the checked-in .clang-format (clang-format, Debian
# package clang-format) of the files listed in test/format-files.txt:
# prints clang-format's diff of every file that differs and fails.
# Fix with: clang-format -i FILE. The test `format`. It reads sources only:
# --build-dir is taken for the convention's sake and not used.
#
# Usage: test/check-format.sh [--build-dir DIR] [--help]
set -eu
src=$(cd "$(dirname "$0")/.." && pwd)
. "$src/devtools/cli.sh"
cli_parse "$0" "" "$@"
cd "$src"
if ! command -v clang-format >/dev/null 2>&1; then
	echo "FAIL: no clang-format (Debian package clang-format; devtools/setup.sh installs it)"
	exit 1
fi
files=
missing=0
# shellcheck disable=SC2013
for pattern in $(sed -e 's/#.*//' test/format-files.txt); do
	found=0
	for f in $pattern; do
		[ -f "$f" ] || continue
		files="$files $f"
		found=1
	done
	if [ "$found" = 0 ]; then
		echo "FAIL: test/format-files.txt: $pattern matches no file"
		missing=1
	fi
done
rc=$missing
n=0
bad=0
for f in $files; do
	n=$((n + 1))
	if ! clang-format --style=file "$f" | diff -u "$f" - \
			--label "$f" --label "$f (clang-format)"; then
		bad=$((bad + 1))
		rc=1
	fi
done
echo "format: $n files checked with $(clang-format --version | sed 's/.*version \([0-9.]*\).*/clang-format \1/'), $bad differ"
exit $rc
