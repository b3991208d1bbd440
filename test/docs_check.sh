#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
#
# The guides build without a single Sphinx warning.
# The test `docs`; the HTML goes to <build dir>/doc-html.
#
# Usage: test/docs_check.sh [--build-dir DIR] [--help]
set -eu
src=$(cd "$(dirname "$0")/.." && pwd)
. "$src/devtools/cli.sh"
cli_parse "$0" "" "$@"
build=$CLI_BUILD
out=$build/doc-html
if ! /usr/bin/python3 -c 'import sphinx' 2>/dev/null; then
	echo "Sphinx is not installed (python3-sphinx)"
	exit 77
fi
rm -rf "$out"
/usr/bin/python3 -m sphinx -q -W -b html "$src/doc/guides" "$out"
echo "PASS: guides built with no warning into $out"
