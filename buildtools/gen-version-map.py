#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The dpdk-mlx5-common authors
"""
Write the linker version script of one driver library of our own build
from the driver's checked-in version.map.

The checked-in maps follow DPDK's conventions, so that the drivers build in
DPDK's tree in developer mode (buildtools/check-symbols.sh): the nodes are
DPDK_<abi> (the catch-all "local: *;"), EXPERIMENTAL and INTERNAL, and a
driver that exports nothing has no map (drivers/version.map applies).

Our own build renames every node with the driver's prefix (DPDK_23 ->
MLX5C_23, EXPERIMENTAL -> MLX5C_EXPERIMENTAL, INTERNAL -> MLX5C_INTERNAL):
stock applications link Debian's librte_common_mlx5.so.23, whose symbols
of the same names carry the plain nodes and come first in the global
scope; a node of our own binds every reference to our symbols to ours
(doc/guides/platform/mlx5.rst, "Building"). A symbol whose line ends with
a comment naming a node of ours ("mlx5_sim_dma; # MLX5C_SIM_TEST") goes to
that node, which inherits from its node's renamed one.

Usage: gen-version-map.py PREFIX INPUT OUTPUT
"""

import re
import sys

NODE_OPEN = re.compile(r'^\s*([A-Za-z_]\w*)\s*\{\s*(#.*)?$')
NODE_CLOSE = re.compile(r'^\s*\}\s*([A-Za-z_]\w*)?\s*;\s*(#.*)?$')
SYMBOL = re.compile(r'^\s*([A-Za-z_]\w*)\s*;\s*(?:#\s*(.*?))?\s*$')
DPDK_NODE = re.compile(r'^(DPDK_\d+|EXPERIMENTAL|INTERNAL)$')


def rename(node, prefix):
    """DPDK's node name -> ours."""
    if node.startswith('DPDK_'):
        return prefix + node[len('DPDK'):]
    return prefix + '_' + node


def translate(text, prefix, path='version.map'):
    """DPDK-style map text -> (our map text, [errors])."""
    errors = []
    out = []
    extra = {}  # our node name -> (parent, [symbols]), in first-seen order
    node = None
    for lineno, line in enumerate(text.splitlines(), 1):
        where = '%s:%d' % (path, lineno)
        m = NODE_OPEN.match(line)
        if m:
            node = m.group(1)
            if not DPDK_NODE.match(node):
                errors.append('%s: node %s: DPDK knows DPDK_<abi>, '
                              'EXPERIMENTAL and INTERNAL only' % (where, node))
            out.append(line.replace(node, rename(node, prefix), 1))
            continue
        m = NODE_CLOSE.match(line)
        if m:
            if m.group(1):
                errors.append('%s: node %s inherits from %s: DPDK\'s maps '
                              'have no inheritance' % (where, node, m.group(1)))
            node = None
            out.append(line)
            continue
        m = SYMBOL.match(line)
        tag = m.group(2) if m else None
        if tag and tag.startswith(prefix + '_'):
            if node is None:
                errors.append('%s: %s outside a node' % (where, m.group(1)))
                continue
            if not re.match(r'^[A-Z0-9_]+$', tag):
                errors.append('%s: %s is not a node name' % (where, tag))
                continue
            extra.setdefault(tag, (rename(node, prefix), []))[1].append(
                m.group(1))
            continue
        out.append(line)
    for name, (parent, symbols) in extra.items():
        out.append('')
        out.append('%s {' % name)
        out.append('\tglobal:')
        out.append('')
        out.extend('\t%s;' % s for s in symbols)
        out.append('} %s;' % parent)
    return '\n'.join(out) + '\n', errors


def main():
    if len(sys.argv) != 4:
        sys.exit('usage: gen-version-map.py PREFIX INPUT OUTPUT')
    prefix, src, dst = sys.argv[1:]
    with open(src) as f:
        text, errors = translate(f.read(), prefix, src)
    for e in errors:
        print('gen-version-map: ' + e, file=sys.stderr)
    if errors:
        return 1
    with open(dst, 'w') as f:
        f.write('# Generated from %s by buildtools/gen-version-map.py '
                '(node prefix %s): edit that file.\n' % (src, prefix))
        f.write(text)
    return 0


if __name__ == '__main__':
    sys.exit(main())
