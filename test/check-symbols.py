#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
#
# Exported symbols of every driver library against the version maps and
# the headers:
#  - the checked-in maps follow DPDK's conventions, as DPDK's developer
#    mode checks them in its tree (buildtools/check-symbols.sh,
#    devtools/check-symbol-maps.sh): nodes DPDK_<abi>, EXPERIMENTAL and
#    INTERNAL only, a "local: *;" catch-all, no symbol twice, each symbol
#    named in another file of its driver, and no map without a symbol (a
#    driver exporting nothing has none and takes drivers/version.map);
#  - the placement DPDK checks in the compiled objects: a function of an
#    EXPERIMENTAL node is in .text.experimental (__rte_experimental), one
#    of an INTERNAL node in .text.internal (__rte_internal), and every
#    global function of those sections is in that node;
#  - the map each library is linked with (generated from the checked-in
#    one, buildtools/gen-version-map.py) names no node of DPDK's own
#    (DPDK_*, EXPERIMENTAL, INTERNAL): Debian's libraries use those;
#  - every symbol a library exports (readelf --dyn-syms) carries a version
#    node of that map and is listed in that node; every symbol the map
#    lists is exported by the library (no stale entries);
#  - every function declared in the public header (rte_pmd_mlx5.h) is
#    marked __rte_experimental and is in an EXPERIMENTAL node, and every
#    symbol of an EXPERIMENTAL node is such a function;
#  - every function declared __rte_internal in a driver's headers is in an
#    INTERNAL-like node (named *INTERNAL* or inheriting from one), and every
#    symbol of those nodes is declared __rte_internal.
# The rdma-core glue module of a -Dibverbs_link=dlopen build is checked
# against linux/mlx5_glue.map when present.
#
# The test `symbols`.
#
# Usage: test/check-symbols.py [--build-dir DIR] [--help]
# Prints one line per finding, then a summary; exit 1 on any finding.

import argparse
import glob
import os
import re
import subprocess
import sys

DRIVERS = ['common/mlx5', 'common/mlx5/sim', 'net/mlx5', 'crypto/mlx5']
PUBLIC_HEADER = 'drivers/common/mlx5/rte_pmd_mlx5.h'

errors = []


def error(msg):
    errors.append(msg)
    print('ERROR: ' + msg)


def parse_map(path):
    """Version script -> {node: {'symbols': set, 'parent': str|None}}."""
    text = open(path).read()
    text = re.sub(r'#[^\n]*', '', text)
    text = re.sub(r'/\*.*?\*/', '', text, flags=re.S)
    nodes = {}
    for m in re.finditer(r'(\w*)\s*\{(.*?)\}\s*(\w*)\s*;', text, re.S):
        name, body, parent = m.group(1), m.group(2), m.group(3) or None
        syms = set()
        scope = 'global'
        for tok in re.findall(r'(global:|local:|[^\s;]+;)', body):
            if tok in ('global:', 'local:'):
                scope = tok[:-1]
            elif scope == 'global':
                syms.add(tok[:-1].strip())
        nodes[name] = {'symbols': syms, 'parent': parent}
    return nodes


DPDK_NODE = re.compile(r'^(DPDK_\d+|EXPERIMENTAL|INTERNAL)$')
# The sections of DPDK's __rte_experimental and __rte_internal.
PLACEMENT = {'EXPERIMENTAL': '.text.experimental',
             'INTERNAL': '.text.internal'}


def check_dpdk_map(mapfile, src_dir):
    """A checked-in map against DPDK's developer-mode checks."""
    text = open(mapfile).read()
    rel = os.path.relpath(mapfile)
    nodes = parse_map(mapfile)
    for name, info in nodes.items():
        if not DPDK_NODE.match(name):
            error('%s: node %s: DPDK knows DPDK_<abi>, EXPERIMENTAL and '
                  'INTERNAL only' % (rel, name or '(anonymous)'))
        if info['parent']:
            error('%s: node %s inherits from %s: DPDK\'s maps have none'
                  % (rel, name, info['parent']))
    if not re.search(r'^\s*local: \*;', text, re.M):
        error('%s: no "local: *;" catch-all' % rel)
    # DPDK's map-list-symbol.sh: an indented "symbol;" line in a node.
    listed = re.findall(r'^\s+([A-Za-z_]\w*)\s*;', text, re.M)
    if src_dir is None:
        if listed:
            error('%s: the map of drivers exporting nothing lists %s'
                  % (rel, ', '.join(listed)))
        return nodes
    if not listed:
        error('%s: lists no symbol; DPDK refuses an empty map: remove it '
              '(drivers/version.map applies)' % rel)
    for s in sorted({s for s in listed if listed.count(s) > 1}):
        error('%s: %s is listed more than once' % (rel, s))
    words = set()
    for root, _, files in os.walk(src_dir):
        for fn in files:
            path = os.path.join(root, fn)
            if os.path.samefile(path, mapfile):
                continue
            try:
                words |= set(re.findall(r'\w+', open(path, errors='replace')
                                        .read()))
            except OSError:
                pass
    for s in sorted(set(listed) - words):
        error('%s: %s is named in no other file of %s' % (rel, s, src_dir))
    return nodes


def defined_functions(archive):
    """Global symbols defined in an archive's objects -> {name: section}."""
    out = subprocess.run(['objdump', '-t', archive], check=True,
                         capture_output=True, text=True).stdout
    syms = {}
    for line in out.splitlines():
        m = re.match(r'^[0-9a-f]+ (.{7}) (\S+)\s+[0-9a-f]+\s+(\S+)$', line)
        if not m or m.group(1)[0] == 'l' or m.group(2) == '*UND*':
            continue
        syms[m.group(3)] = m.group(2)
    return syms


def check_placement(archive, nodes, rel):
    """DPDK's buildtools/check-symbols.sh on the driver's objects."""
    if not os.path.exists(archive):
        print('%s: %s not built, placement not checked' % (rel, archive))
        return
    sections = defined_functions(archive)
    if not sections:
        print('%s: no symbol table in %s (LTO?), placement not checked'
              % (rel, archive))
        return
    for node, section in PLACEMENT.items():
        mapped = nodes.get(node, {'symbols': set()})['symbols']
        for s in sorted(mapped):
            sec = sections.get(s, '')
            if sec.startswith('.text') and sec != section:
                error('%s: %s is in node %s but in section %s, not %s '
                      '(mark its declaration __rte_%s)'
                      % (rel, s, node, sec, section, node.lower()))
        for s, sec in sorted(sections.items()):
            if sec == section and s not in mapped:
                error('%s: %s is in section %s but not in node %s'
                      % (rel, s, section, node))


def is_internal_node(nodes, name):
    seen = set()
    while name and name not in seen:
        if 'INTERNAL' in name:
            return True
        seen.add(name)
        name = nodes.get(name, {}).get('parent')
    return False


def exported(lib):
    """Defined global symbols of a shared object -> {name: version|None}."""
    out = subprocess.run(['readelf', '--dyn-syms', '--wide', lib],
                         check=True, capture_output=True, text=True).stdout
    syms = {}
    for line in out.splitlines():
        f = line.split()
        if len(f) < 8 or not f[0].rstrip(':').isdigit():
            continue
        bind, ndx, name = f[4], f[6], f[7]
        if ndx == 'UND' or bind not in ('GLOBAL', 'WEAK'):
            continue
        ver = None
        if '@' in name:
            name, ver = re.split(r'@+', name, maxsplit=1)
        syms[name] = ver
    return syms


def strip_c(text):
    text = re.sub(r'/\*.*?\*/', ' ', text, flags=re.S)
    text = re.sub(r'//[^\n]*', ' ', text)
    # Preprocessor lines, continuations included.
    text = re.sub(r'^\s*#(?:[^\n]*\\\n)*[^\n]*', ' ', text, flags=re.M)
    return text


def declarations(path):
    """Top-level function declarations of a header: [(name, text)]."""
    text = strip_c(open(path).read())
    text = re.sub(r'extern\s+"C"\s*\{', ' ', text)
    # Bodies (inline functions, structs, enums) become ';' so that each
    # declaration ends up in a chunk of its own.
    prev = None
    while prev != text:
        prev = text
        text = re.sub(r'\{[^{}]*\}', ';', text)
    text = text.replace('}', ';')
    decls = []
    for chunk in text.split(';'):
        chunk = ' '.join(chunk.split())
        if '(' not in chunk or chunk.startswith(('static ', 'typedef ')):
            continue
        if re.match(r'(struct|union|enum)\s+\w+\s*$', chunk):
            continue
        m = re.search(r'\b([A-Za-z_]\w*)\s*\(', chunk)
        if m and m.group(1) not in ('__attribute__', 'sizeof'):
            decls.append((m.group(1), chunk))
    return decls


def check_lib(lib, mapfile, label):
    nodes = parse_map(mapfile)
    listed = {}
    for node, info in nodes.items():
        for s in info['symbols']:
            listed[s] = node
    syms = exported(lib)
    n = 0
    for name, ver in sorted(syms.items()):
        if name in nodes and ver is None:
            continue  # the version node's own marker symbol
        n += 1
        if name not in listed:
            error('%s: %s is exported (version %s) but not in %s'
                  % (label, name, ver, os.path.relpath(mapfile)))
        elif ver != listed[name] and listed[name] != '':
            error('%s: %s has version %s, %s puts it in %s'
                  % (label, name, ver, os.path.relpath(mapfile),
                     listed[name]))
    for name, node in sorted(listed.items()):
        if '*' in name:
            continue
        if name not in syms:
            error('%s: %s lists %s (node %s) but the library does not '
                  'export it' % (label, os.path.relpath(mapfile), name,
                                 node or '(anonymous)'))
    return nodes, n


def main():
    src = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap = argparse.ArgumentParser(
        description='Exported symbols of the driver libraries against the '
        'version maps and the headers.')
    ap.add_argument('--build-dir', default='build',
                    help='meson build folder (default: build, relative to '
                    'the repository root)')
    args = ap.parse_args()
    build = os.path.join(src, args.build_dir)
    os.chdir(src)
    all_nodes = {}
    for d in DRIVERS:
        name = d.replace('/', '_')
        lib = os.path.join(build, 'drivers', 'librte_%s.so' % name)
        # DPDK's rule: a driver without a map takes drivers/version.map.
        src_map = os.path.join('drivers', d, 'version.map')
        if os.path.exists(src_map):
            dpdk_nodes = check_dpdk_map(src_map, os.path.join('drivers', d))
        else:
            src_map = os.path.join('drivers', 'version.map')
            dpdk_nodes = check_dpdk_map(src_map, None)
        check_placement(os.path.join(build, 'drivers',
                                     'librte_%s_objs.a' % name),
                        dpdk_nodes, src_map)
        mapfile = os.path.join(build, 'drivers', 'rte_%s_version.map' % name)
        if not os.path.exists(lib) or not os.path.exists(mapfile):
            error('%s: %s or %s not built' % (name, lib, mapfile))
            continue
        for node in parse_map(mapfile):
            if DPDK_NODE.match(node) or not node:
                error('%s: node %s is DPDK\'s (or anonymous): our libraries '
                      'need nodes of their own' % (mapfile, node))
        nodes, n = check_lib(lib, mapfile, name)
        all_nodes[d] = nodes
        print('%s: %d exported symbols checked against %s (from %s)'
              % (name, n, os.path.relpath(mapfile), src_map))
    for glue in glob.glob(os.path.join(build, 'drivers',
                                       'librte_common_mlx5_glue.so*')):
        _, n = check_lib(glue, 'drivers/common/mlx5/linux/mlx5_glue.map',
                         'glue')
        print('glue: %d exported symbols' % n)

    # Public header: every function __rte_experimental, in an
    # EXPERIMENTAL node; nothing else in those nodes.
    common = all_nodes.get('common/mlx5', {})
    exp_nodes = [k for k in common if 'EXPERIMENTAL' in k]
    exp_syms = set().union(*[common[k]['symbols'] for k in exp_nodes]) \
        if exp_nodes else set()
    public = declarations(PUBLIC_HEADER)
    for fn, decl in public:
        if '__rte_experimental' not in decl.split():
            error('%s: %s is not marked __rte_experimental'
                  % (PUBLIC_HEADER, fn))
        if '__rte_internal' in decl.split():
            error('%s: %s is marked __rte_internal in the public header'
                  % (PUBLIC_HEADER, fn))
        if fn not in exp_syms:
            error('%s: %s is not in an EXPERIMENTAL node of '
                  'drivers/common/mlx5/version.map' % (PUBLIC_HEADER, fn))
    public_names = {fn for fn, _ in public}
    for s in sorted(exp_syms - public_names):
        error('drivers/common/mlx5/version.map: %s is in an EXPERIMENTAL '
              'node but not declared in %s' % (s, PUBLIC_HEADER))
    print('public API: %d functions of %s checked against %s'
          % (len(public), PUBLIC_HEADER, '/'.join(exp_nodes)))

    # __rte_internal declarations <-> INTERNAL-like nodes, per driver.
    for d, nodes in sorted(all_nodes.items()):
        internal = set()
        for k in nodes:
            if is_internal_node(nodes, k):
                internal |= nodes[k]['symbols']
        marked = {}
        for h in sorted(glob.glob('drivers/%s/**/*.h' % d, recursive=True)):
            for fn, decl in declarations(h):
                if '__rte_internal' in decl.split():
                    marked[fn] = h
        for fn, h in sorted(marked.items()):
            if fn not in internal:
                error('%s: %s is __rte_internal but not in an INTERNAL '
                      'node of drivers/%s/version.map' % (h, fn, d))
        for s in sorted(internal - set(marked)):
            error('drivers/%s/version.map: %s is in an INTERNAL node but '
                  'declared __rte_internal in no header of drivers/%s'
                  % (d, s, d))
        if internal or marked:
            print('%s: %d __rte_internal functions checked'
                  % (d, len(marked)))

    if errors:
        print('symbols: FAILED, %d finding(s)' % len(errors))
        return 1
    print('symbols: PASS')
    return 0


if __name__ == '__main__':
    sys.exit(main())
