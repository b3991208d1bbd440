#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The dpdk-mlx5-common authors
"""
The stock dpdk-pmdinfo.py (Debian package dpdk) on each driver library:
every driver of the library is listed with its kernel modules, its PCI ids
(real-device drivers) and each devarg key with a value type ("key=<...>").

Usage: pmdinfo_check.py <build>/drivers
Exit 77 (skip) when dpdk-pmdinfo.py is not installed.
"""

import json
import os
import re
import shutil
import subprocess
import sys

KMOD = ("mlx5_core", "mlx5_ib", "ib_uverbs")
COMMON_KEYS = ["class", "cmd_fd", "pd_handle", "mr_ext_memseg_en",
               "mr_mempool_reg_en", "sys_mem_en", "mr_whole_mem_en"]
SIM_KEYS = ["card", "vhca_id", "crossing", "hca_cap_2", "pacing", "pp_uid",
            "pp_table_size", "pp_min_rate", "pp_max_rate", "update_tag",
            "crypto", "signature", "cross_rule", "alias_status", "odp",
            "fail_cmd", "fail_nth", "fail_status"]
# library -> {driver: (devarg keys, kernel modules expected, PCI ids expected)}
EXPECTED = {
    "librte_common_mlx5.so": {
        "mlx5c_pci": (COMMON_KEYS, True, True),
        "mlx5c_auxiliary": (COMMON_KEYS, True, False),
        "mlx5_sim": (SIM_KEYS + COMMON_KEYS, False, False),
    },
    "librte_net_mlx5.so": {
        "mlx5_eth": (["txq_inline_min"], True, False),
    },
    "librte_crypto_mlx5.so": {
        "crypto_mlx5": (["max_qps", "max_segs", "qp_mkeys"], True, False),
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
    drivers_dir = sys.argv[1]
    tool = find_pmdinfo()
    if tool is None:
        print("dpdk-pmdinfo.py not installed (Debian package dpdk): skipped")
        return 77
    failures = 0

    def fail(msg):
        nonlocal failures
        failures += 1
        print("  FAILED: " + msg)

    for lib, drivers in EXPECTED.items():
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
                fail("%s: parameters the test does not know: %s" % (name, ", ".join(unknown)))
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
