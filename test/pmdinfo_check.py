#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The dpdk-mlx5-common authors
"""
The stock dpdk-pmdinfo.py (Debian package dpdk) on each driver library:
every driver of the library is listed with its kernel modules, its PCI ids
(real-device drivers) and each devarg key with a value type ("key=<...>").

The expected keys are each parser's own table in the source, so a key
added to a parser and not registered in RTE_PMD_REGISTER_PARAM_STRING (or
the reverse) fails.

The test `pmdinfo`.

Usage: test/pmdinfo_check.py [--build-dir DIR] [--help]
Exit 77 (skip) when dpdk-pmdinfo.py is not installed.
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys

KMOD = ("mlx5_core", "mlx5_ib", "ib_uverbs")
# Each parser's own key table, read from the source: a key the parser
# takes and the PMD info does not show (or the reverse) fails.
PARSERS = {
    # name: (source file, array name)
    "common": ("drivers/common/mlx5/mlx5_common_devargs.c", "keys"),
    "sim": ("drivers/common/mlx5/sim/mlx5_sim_shape.c", "mlx5_sim_shape_keys"),
    "net": ("drivers/net/mlx5/mlx5_net_probe.c", "keys"),
    "crypto": ("drivers/crypto/mlx5/mlx5_crypto.c", "mlx5_crypto_keys"),
}
DEFINES_FROM = "drivers/common/mlx5/mlx5_common_private.h"


def parser_keys(src, name):
    """The strings (literals or MLX5_ARG_* macros) of a parser's key array."""
    with open(os.path.join(src, DEFINES_FROM)) as f:
        defines = dict(re.findall(r'#define\s+(MLX5_ARG_\w+)\s+"([^"]+)"', f.read()))
    path, array = PARSERS[name]
    with open(os.path.join(src, path)) as f:
        text = f.read()
    m = re.search(r"\b%s\[\]\s*=\s*\{(.*?)\};" % re.escape(array), text, re.S)
    if m is None:
        raise SystemExit("pmdinfo: no key array %s in %s" % (array, path))
    keys = []
    for lit, macro in re.findall(r'"([^"]*)"|\b(MLX5_ARG_\w+)\b', m.group(1)):
        keys.append(lit if lit else defines[macro])
    return keys


def expected(src):
    common = parser_keys(src, "common")
    return {
        "librte_common_mlx5.so": {
            "mlx5c_pci": (common, True, True),
            "mlx5c_auxiliary": (common, True, False),
        },
        # The software device's adapter, a driver of its own.
        "librte_common_mlx5_sim.so": {
            "mlx5_sim": (parser_keys(src, "sim") + common, False, False),
        },
        "librte_net_mlx5.so": {
            "mlx5_eth": (parser_keys(src, "net"), True, False),
        },
        "librte_crypto_mlx5.so": {
            "crypto_mlx5": (parser_keys(src, "crypto"), True, False),
        },
    }


# A few devices the PCI driver must claim: ConnectX-4, ConnectX-6 Dx, BlueField-2.
PCI_SAMPLE = [("15b3", "1013"), ("15b3", "101d"), ("15b3", "a2d6")]
PARAM_RE = re.compile(r"^([a-z0-9_]+)=<[^<>]+>$")


def find_pmdinfo():
    for cand in ("/usr/bin/dpdk-pmdinfo.py", shutil.which("dpdk-pmdinfo.py")):
        if cand and os.access(cand, os.X_OK):
            return cand
    return None


def main():
    src = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--build-dir", default="build",
                    help="meson build folder (default: build, relative to "
                    "the repository root)")
    args = ap.parse_args()
    drivers_dir = os.path.join(src, args.build_dir, "drivers")
    tool = find_pmdinfo()
    if tool is None:
        print("dpdk-pmdinfo.py not installed (Debian package dpdk): skipped")
        return 77
    failures = 0

    def fail(msg):
        nonlocal failures
        failures += 1
        print("  FAILED: " + msg)

    for lib, drivers in expected(src).items():
        path = os.path.join(drivers_dir, lib)
        print("%s %s" % (tool, path))
        proc = subprocess.run([tool, path], capture_output=True, text=True)
        if proc.returncode != 0:
            fail("%s exited with %d: %s" % (tool, proc.returncode, proc.stderr.strip()))
            continue
        listed = {d["name"]: d for d in json.loads(proc.stdout)}
        for name, (keys, kmod, pci) in drivers.items():
            info = listed.get(name)
            if info is None:
                fail("%s: driver %s not listed (listed: %s)"
                     % (lib, name, ", ".join(sorted(listed))))
                continue
            params = info.get("params", "").split()
            got = {}
            for p in params:
                m = PARAM_RE.match(p)
                if m is None:
                    fail("%s: parameter %r has no value type (key=<type>)" % (name, p))
                else:
                    got[m.group(1)] = p
            missing = [k for k in keys if k not in got]
            unknown = [k for k in got if k not in keys]
            if missing:
                fail("%s: parameters missing: %s" % (name, ", ".join(missing)))
            if unknown:
                fail("%s: parameters registered that no parser takes: %s" % (name, ", ".join(unknown)))
            if kmod:
                if not all(m in info.get("kmod", "") for m in KMOD):
                    fail("%s: kmod %r lacks one of %s" % (name, info.get("kmod"), KMOD))
            elif "kmod" in info:
                fail("%s: a software driver with kernel modules %r" % (name, info["kmod"]))
            ids = {(p.get("vendor"), p.get("device")) for p in info.get("pci_ids", [])}
            if pci:
                lack = [i for i in PCI_SAMPLE if i not in ids]
                if lack:
                    fail("%s: PCI ids missing: %s" % (name, lack))
            elif ids:
                fail("%s: PCI ids listed for a driver that matches none" % name)
            print("  ok: %s: %d parameters (%s), kmod %r, %d PCI ids"
                  % (name, len(got), " ".join(got), info.get("kmod", ""), len(ids)))
    print("pmdinfo: %d failed" % failures)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
