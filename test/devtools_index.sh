#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
#
# devtools/README against the scripts: every script of devtools/ and test/
# (shell and Python) is listed there and every script listed exists; each
# command (not the sourced libraries, whose header says "Sourced, not
# run") answers --help with exit 0 and a usage naming --build-dir, and
# refuses an unknown argument with exit 2. Only --help and the unknown
# argument are run: no script does its work here. The test
# `devtools_index`; --build-dir is taken for the convention's sake.
#
# Usage: test/devtools_index.sh [--build-dir DIR] [--help]
set -u
src=$(cd "$(dirname "$0")/.." && pwd)
. "$src/devtools/cli.sh"
cli_parse "$0" "" "$@"
cd "$src"
index=devtools/README
fail=0
n=0
bad() {
	echo "FAIL: $*"
	fail=1
}

# The paths the index lists, `devtools/x` or `test/x` at a line's start.
listed=$(sed -n 's/^`\(\(devtools\|test\)\/[^`]*\)`.*/\1/p' "$index")
for p in $listed; do
	[ -f "$p" ] || bad "$index lists $p, which does not exist"
done
for f in devtools/*.sh devtools/*.py test/*.sh test/*.py; do
	[ -f "$f" ] || continue
	n=$((n + 1))
	if ! printf '%s\n' "$listed" | grep -qx "$f"; then
		bad "$f is not in $index"
	fi
	if sed -n '1,12p' "$f" | grep -q '^# Sourced, not run'; then
		continue
	fi
	case $f in
	*.py) run="/usr/bin/python3 $f" ;;
	*) run="sh $f" ;;
	esac
	out=$($run --help </dev/null 2>&1)
	rc=$?
	if [ "$rc" != 0 ]; then
		bad "$f --help: exit $rc"
	elif ! printf '%s\n' "$out" | grep -q -- '--build-dir'; then
		bad "$f --help: the usage does not name --build-dir"
	fi
	$run --no-such-option </dev/null >/dev/null 2>&1
	rc=$?
	[ "$rc" = 2 ] || bad "$f --no-such-option: exit $rc, not 2"
done
if [ "$fail" = 0 ]; then
	echo "devtools_index: $n scripts, each in $index; every command answers --help and refuses an unknown argument"
fi
exit $fail
