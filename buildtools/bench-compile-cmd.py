#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Print the compile command of one of the build's files, cut to what
another file compiled "the same way" needs: the compiler, optimisation,
target, standard, warnings, defines and the DPDK include folders (none of
this tree's, whose headers share the names of DPDK's). The benchmarks that
compile DPDK's own code at benchmark time use it (run-mr-bench.sh,
run-burst-bench.sh).

Usage: bench-compile-cmd.py BUILD_DIR FILE_SUFFIX
"""
import json
import shlex
import sys


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    build, suffix = sys.argv[1:]
    for c in json.load(open(build + "/compile_commands.json")):
        if not c["file"].endswith(suffix):
            continue
        a = shlex.split(c["command"])
        keep, i = [a[0]], 1
        while i < len(a):
            t = a[i]
            if t in ("-include", "-MQ", "-MF", "-o"):
                if t == "-include":
                    keep += [t, a[i + 1]]
                i += 2
                continue
            if (t.startswith(("-O", "-march", "-mtune", "-std", "-D", "-W",
                              "-pthread", "-g"))
                    or (t.startswith("-f") and "diagnostics" not in t)
                    or (t.startswith("-I") and (t.startswith("-I/usr") or
                                                t.endswith("sdk-include")))):
                keep.append(t)
            i += 1
        print(" ".join(shlex.quote(k) for k in keep))
        return
    sys.exit("no compile command of *%s in %s" % (suffix, build))


main()
