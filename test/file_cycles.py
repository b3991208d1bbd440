#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""File dependency graph of the driver libraries, from the built objects.

File A depends on file B when A's object uses a global symbol (nm: U) that
B's object defines. Any cycle between files (a strongly connected component
of more than one file) fails, unless every edge of it is in the allow-list.
The software device's model (drivers/common/mlx5/sim/) is left out.

With --guide, also check that every function a guide's "Where is it
decided" section names (``name()``) is defined in the objects (the model's
included).

Usage: test/file_cycles.py [--build-dir DIR] [--allow FILE] [--guide RST]
                      [--graph] [--self-test] [--help]
  --build-dir DIR  a configured and built meson folder (compile_commands.json)
  --allow FILE     edges "a.c -> b.c" (paths under drivers/) to tolerate;
                   default: test/file_cycles.allow beside this script
  --guide RST      the internals guide whose table names functions
  --graph          print every edge between files (with one symbol each)
  --self-test      first prove on two objects made here that a cycle is
                   found and that an allowed edge breaks it
Exit status 0 when no cycle is left (and every name exists), 1 otherwise,
2 on a usage error.
"""

import argparse
import collections
import json
import os
import re
import subprocess
import sys
import tempfile

EXCLUDED = ("common/mlx5/sim/",)


def objects(build, excluded=EXCLUDED):
    """Map each driver source (path under drivers/) to its library object."""
    with open(os.path.join(build, "compile_commands.json")) as f:
        cmds = json.load(f)
    out = {}
    build = os.path.realpath(build)
    for c in cmds:
        obj = c["output"]
        src = os.path.realpath(os.path.join(c["directory"], c["file"]))
        # The drivers' own sources (the PMD info files are generated).
        if ("_objs.a.p/" not in obj and "libmlx5_sim_model" not in obj) or \
                src.startswith(build + os.sep) or "/drivers/" not in src:
            continue
        key = src.split("/drivers/", 1)[-1]
        if key.startswith(excluded):
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


GUIDE_SECTION = "Where is it decided"


def guide_names(path):
    """The ``name()`` references of the guide's decision table."""
    with open(path) as f:
        text = f.read()
    at = text.find("\n" + GUIDE_SECTION + "\n")
    if at < 0:
        sys.exit("file_cycles: %s has no section \"%s\"" % (path, GUIDE_SECTION))
    body = text[at + 1:]
    # Up to the next section title (a line of = or - under a title).
    nxt = re.search(r"\n[^\n]+\n[=\-~]{4,}\n", body[len(GUIDE_SECTION) + 1:])
    if nxt:
        body = body[:len(GUIDE_SECTION) + 1 + nxt.start()]
    return sorted(set(re.findall(r"``([A-Za-z_]\w*)\(\)``", body)))


def check_guide(build, path):
    defined = set()
    for obj in objects(build, excluded=()).values():
        nm = subprocess.run(["nm", "--defined-only", obj], capture_output=True,
                            text=True, check=True).stdout
        for line in nm.splitlines():
            p = line.split()
            if len(p) == 3 and p[1] in "TtWw":
                defined.add(p[2])
    names = guide_names(path)
    missing = [n for n in names if n not in defined]
    if not names:
        print("guide: %s names no function" % path)
        return 1
    for n in missing:
        print("guide: %s names %s(), which no driver object defines"
              % (path, n))
    if not missing:
        print("guide: the %d functions %s names exist" % (len(names), path))
    return 1 if missing else 0


def self_test():
    """Two objects that call each other: a cycle, broken by the allow-list."""
    cc = os.environ.get("CC", "cc").split()
    with tempfile.TemporaryDirectory() as d:
        src = {"a.c": "int b(void); int a(void) { return b(); }\n",
               "b.c": "int a(void); int b(void) { return a() + 1; }\n",
               "c.c": "int a(void); int c(void) { return a(); }\n"}
        cmds = []
        for name, code in src.items():
            os.makedirs(os.path.join(d, "drivers", "x"), exist_ok=True)
            os.makedirs(os.path.join(d, "b", "lib_objs.a.p"), exist_ok=True)
            with open(os.path.join(d, "drivers", "x", name), "w") as f:
                f.write(code)
            out = "lib_objs.a.p/" + name + ".o"
            subprocess.run(cc + ["-c", "-o", os.path.join(d, "b", out),
                                 os.path.join(d, "drivers", "x", name)],
                           check=True)
            cmds.append({"directory": os.path.join(d, "b"),
                         "file": "../drivers/x/" + name, "output": out})
        with open(os.path.join(d, "b", "compile_commands.json"), "w") as f:
            json.dump(cmds, f)
        nodes, edges = graph(objects(os.path.join(d, "b")))
        found = [c for c in sccs(nodes, edges) if len(c) > 1]
        kept = {a: {b: s for b, s in e.items() if (a, b) != ("x/b.c", "x/a.c")}
                for a, e in edges.items()}
        left = [c for c in sccs(nodes, kept) if len(c) > 1]
        if found != [["x/a.c", "x/b.c"]] or left:
            print("self-test: FAILED (cycles %s, after the allowed edge %s)"
                  % (found, left))
            return 1
    print("self-test: a.c <-> b.c found as a cycle, c.c outside it; gone once b.c -> a.c is allowed")
    return 0


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(
        description="Fail on a dependency cycle between driver files "
        "(nm of the built objects).")
    ap.add_argument("--build-dir", default="build",
                    help="meson build folder (default: build, relative to "
                    "the repository root)")
    ap.add_argument("--allow", default=os.path.join(here, "file_cycles.allow"))
    ap.add_argument("--guide")
    ap.add_argument("--graph", action="store_true")
    ap.add_argument("--self-test", action="store_true")
    args = ap.parse_args()
    args.build_dir = os.path.join(os.path.dirname(here), args.build_dir)
    rc = 0
    if args.self_test:
        rc |= self_test()
    if args.guide:
        rc |= check_guide(args.build_dir, args.guide)
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
        return rc
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
