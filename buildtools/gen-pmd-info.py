#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The dpdk-mlx5-common authors
"""
Write the PMD info C file of one driver library from its compiled objects.

DPDK's registration macros (RTE_PMD_REGISTER_VDEV/_PCI/_AUXILIARY, or
RTE_PMD_EXPORT_NAME for a class driver, and RTE_PMD_REGISTER_PARAM_STRING,
_KMOD_DEP, _PCI_TABLE) leave static string symbols in the objects:

    this_pmd_name<N>              "<driver>"
    __<driver>_param_string_export "key=<type> ..."
    __<driver>_kmod_dep_export     "* ib_uverbs & ..."
    __<driver>_pci_tbl_export      "<name of a struct rte_pci_id array>"

This script reads them from the objects' symbol tables (pyelftools) and
writes, per driver, the string the stock usertools/dpdk-pmdinfo.py looks for
in the library's .rodata:

    const char <driver>_pmd_info[] = "PMD_INFO_STRING= {json}";

with json = {"name", "params"?, "kmod"?, "pci_ids": [[vendor, device,
subsystem vendor, subsystem device], ...]}; "pci_ids" is always present
(dpdk-pmdinfo.py 22.11 expects it).

Usage: gen-pmd-info.py <output.c> <object.o>...
"""

import json
import re
import struct
import sys

try:
    from elftools.elf.elffile import ELFFile
    from elftools.elf.sections import SymbolTableSection
except ImportError:
    sys.exit("gen-pmd-info.py: pyelftools is missing (Debian: python3-pyelftools; "
             "run with /usr/bin/python3)")

NAME_RE = re.compile(r"^this_pmd_name[0-9]+$")
EXPORT_RE = re.compile(r"^__(\w+?)_(param_string|kmod_dep|pci_tbl)_export$")
C_IDENT_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
# struct rte_pci_id: uint32_t class_id; uint16_t vendor_id, device_id,
# subsystem_vendor_id, subsystem_device_id.
PCI_ID_FMT = "IHHHH"


class ObjectFile:
    """The defined data symbols of one relocatable object."""

    def __init__(self, path):
        self.path = path
        self._file = open(path, "rb")
        self.elf = ELFFile(self._file)
        symtab = self.elf.get_section_by_name(".symtab")
        if not isinstance(symtab, SymbolTableSection):
            raise SystemExit("gen-pmd-info.py: %s: no symbol table" % path)
        self.symbols = {}
        for sym in symtab.iter_symbols():
            if sym["st_info"]["type"] != "STT_OBJECT":
                continue
            if not isinstance(sym["st_shndx"], int):
                continue  # Undefined, common or absolute: no bytes here.
            self.symbols[sym.name] = sym

    def value(self, sym, offset=0, size=None):
        section = self.elf.get_section(sym["st_shndx"])
        if section["sh_type"] == "SHT_NOBITS":
            return b"\0" * (sym["st_size"] if size is None else size)
        start = sym["st_value"] + offset
        end = sym["st_value"] + (sym["st_size"] if size is None else offset + size)
        return section.data()[start:end]

    def string(self, sym):
        raw = self.value(sym)
        return raw.split(b"\0", 1)[0].decode("ascii")

    def pci_ids(self, sym):
        fmt = ("<" if self.elf.little_endian else ">") + PCI_ID_FMT
        step = struct.calcsize(fmt)
        ids = []
        for off in range(0, sym["st_size"] - step + 1, step):
            _, vendor, device, sub_vendor, sub_device = struct.unpack(
                fmt, self.value(sym, off, step))
            if vendor == 0:
                break  # The table's terminator.
            ids.append([vendor, device, sub_vendor, sub_device])
        return ids


def collect(paths):
    objects = [ObjectFile(p) for p in paths]
    names = []
    exports = {}
    for obj in objects:
        for sym_name, sym in obj.symbols.items():
            if NAME_RE.match(sym_name):
                names.append(obj.string(sym))
                continue
            m = EXPORT_RE.match(sym_name)
            if m:
                exports[(m.group(1), m.group(2))] = obj.string(sym)
    dup = sorted({n for n in names if names.count(n) > 1})
    if dup:
        raise SystemExit("gen-pmd-info.py: driver name(s) exported twice: "
                         + ", ".join(dup))
    # An option of a name nobody exports is a typo in a macro's first argument.
    orphans = sorted({drv for drv, _ in exports if drv not in names})
    if orphans:
        raise SystemExit("gen-pmd-info.py: PMD options for unknown driver(s) %s "
                         "(no RTE_PMD_REGISTER_* or RTE_PMD_EXPORT_NAME of that name)"
                         % ", ".join(orphans))
    drivers = []
    for name in sorted(names):
        if not C_IDENT_RE.match(name):
            raise SystemExit("gen-pmd-info.py: driver name %r is not a C identifier" % name)
        info = {"name": name}
        if (name, "param_string") in exports:
            info["params"] = exports[(name, "param_string")]
        if (name, "kmod_dep") in exports:
            info["kmod"] = exports[(name, "kmod_dep")]
        info["pci_ids"] = []
        table = exports.get((name, "pci_tbl"))
        if table is not None:
            holders = [o for o in objects if table in o.symbols]
            if not holders:
                raise SystemExit("gen-pmd-info.py: %s: PCI table %s is not defined in the objects"
                                 % (name, table))
            info["pci_ids"] = holders[0].pci_ids(holders[0].symbols[table])
        drivers.append(info)
    return drivers


def c_string(text):
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    output, paths = sys.argv[1], sys.argv[2:]
    drivers = collect(paths)
    lines = ["/* Generated by buildtools/gen-pmd-info.py: do not edit. */", ""]
    for info in drivers:
        text = "PMD_INFO_STRING= " + json.dumps(info, ensure_ascii=True)
        lines.append("const char %s_pmd_info[] __attribute__((used)) =\n\t%s;"
                     % (info["name"], c_string(text)))
    if not drivers:
        # Keep the translation unit non-empty (ISO C).
        lines.append("typedef int pmd_info_none;")
    with open(output, "w", encoding="ascii") as out:
        out.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
