#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""File dependency graph of the driver libraries, from the built objects.

File A depends on file B when A's object uses a global symbol (nm: U) that
B's object defines. Any cycle between files (a strongly connected component
of more than one file) fails, unless every edge of it is in the allow-list.
The software device's model (drivers/common/mlx5/sim/) is left out.

Usage: file_cycles.py --build-dir DIR [--allow FILE] [--graph] [--help]
  --build-dir DIR  a configured and built meson folder (compile_commands.json)
  --allow FILE     edges "a.c -> b.c" (paths under drivers/) to tolerate;
                   default: test/file_cycles.allow beside this script
  --graph          print every edge between files (with one symbol each)
Exit status 0 when no cycle is left, 1 otherwise, 2 on a usage error.
"""

import argparse
import collections
import json
import os
import subprocess
import sys

EXCLUDED = ("common/mlx5/sim/",)


def objects(build):
    """Map each driver source (path under drivers/) to its library object."""
    with open(os.path.join(build, "compile_commands.json")) as f:
        cmds = json.load(f)
    out = {}
    for c in cmds:
        obj = c["output"]
        if "_objs.a.p/" not in obj:
            continue
        src = os.path.normpath(os.path.join(c["directory"], c["file"]))
        key = src.split("/drivers/", 1)[-1]
        if key.startswith(EXCLUDED):
            continue
        out[key] = os.path.join(build, obj)
    return out


def symbols(obj):
    nm = subprocess.run(["nm", obj], capture_output=True, text=True,
                        check=True).stdout
    defined, used = set(), set()
    for line in nm.splitlines():
        p = line.split()
        if len(p) == 2 and p[0] == "U":
            used.add(p[1])
        elif len(p) == 3 and p[1] in "TDBRVWGSC":
            defined.add(p[2])
    return defined, used


def graph(objs):
    owner = {}
    uses = {}
    for src, obj in objs.items():
        if not os.path.exists(obj):
            sys.exit("file_cycles: %s not built (%s)" % (src, obj))
        d, u = symbols(obj)
        uses[src] = u
        for s in d:
            owner.setdefault(s, src)
    edges = collections.defaultdict(dict)
    for src, used in uses.items():
        for s in sorted(used):
            dst = owner.get(s)
            if dst and dst != src:
                edges[src].setdefault(dst, s)
    return list(uses), edges


def sccs(nodes, edges):
    """Tarjan's strongly connected components (iterative)."""
    index, low, on, stack, out = {}, {}, set(), [], []
    counter = 0
    for root in sorted(nodes):
        if root in index:
            continue
        work = [(root, iter(sorted(edges.get(root, {}))))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            nxt = next(it, None)
            if nxt is not None:
                if nxt not in index:
                    index[nxt] = low[nxt] = counter
                    counter += 1
                    stack.append(nxt)
                    on.add(nxt)
                    work.append((nxt, iter(sorted(edges.get(nxt, {})))))
                elif nxt in on:
                    low[v] = min(low[v], index[nxt])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                out.append(sorted(comp))
    return out


def read_allow(path):
    allowed = set()
    if not path or not os.path.exists(path):
        return allowed
    with open(path) as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            a, sep, b = line.partition("->")
            if not sep:
                sys.exit("file_cycles: %s: not an edge: %s" % (path, line))
            allowed.add((a.strip(), b.strip()))
    return allowed


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(
        description="Fail on a dependency cycle between driver files "
        "(nm of the built objects).")
    ap.add_argument("--build-dir", required=True)
    ap.add_argument("--allow", default=os.path.join(here, "file_cycles.allow"))
    ap.add_argument("--graph", action="store_true")
    args = ap.parse_args()
    objs = objects(args.build_dir)
    if not objs:
        sys.exit("file_cycles: no driver object in %s" % args.build_dir)
    nodes, edges = graph(objs)
    allowed = read_allow(args.allow)
    if args.graph:
        for a in sorted(edges):
            for b, s in sorted(edges[a].items()):
                print("%s -> %s (%s)" % (a, b, s))
    # Drop the tolerated edges, then look for cycles in what is left.
    kept = {a: {b: s for b, s in e.items() if (a, b) not in allowed}
            for a, e in edges.items()}
    bad = [c for c in sccs(nodes, kept) if len(c) > 1]
    n_edges = sum(len(e) for e in kept.values())
    if not bad:
        print("file_cycles: %d files, %d edges, no cycle (%d edges allowed)"
              % (len(nodes), n_edges, len(allowed)))
        return 0
    for comp in bad:
        print("cycle between %d files:" % len(comp))
        inside = set(comp)
        for a in comp:
            for b, s in sorted(kept.get(a, {}).items()):
                if b in inside:
                    print("  %s -> %s (uses %s)" % (a, b, s))
    print("file_cycles: %d cycle(s) among %d files" % (len(bad), len(nodes)))
    return 1


if __name__ == "__main__":
    sys.exit(main())
