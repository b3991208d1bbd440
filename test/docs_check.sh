#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
#
# The guides build without a single Sphinx warning.
# Usage: docs_check.sh SOURCE_ROOT BUILD_ROOT
set -eu
src=$1
out=$2/doc-html
if ! /usr/bin/python3 -c 'import sphinx' 2>/dev/null; then
	echo "Sphinx is not installed (python3-sphinx)"
	exit 77
fi
rm -rf "$out"
/usr/bin/python3 -m sphinx -q -W -b html "$src/doc/guides" "$out"
echo "PASS: guides built with no warning into $out"
