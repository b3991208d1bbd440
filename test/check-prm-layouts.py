#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The dpdk-mlx5-common authors
"""Compare the PRM layouts of drivers/common/mlx5/mlx5_prm*.h with the
kernel's include/linux/mlx5/mlx5_ifc.h: every named field of ours that the
kernel also names must sit at the same bit offset with the same width, and
every struct the kernel also has must have the same size.

  test/check-prm-layouts.py [--ifc /path/to/mlx5_ifc.h] [--build-dir DIR]

(Debian: the linux-headers-*-common package holds it, under
/usr/src/linux-headers-*-common/include/linux/mlx5/, where --ifc looks by
default.) Fields the kernel leaves reserved (the DEVX umem fields) are
listed, not judged. Exit code 1 on any mismatch. It reads sources only:
--build-dir is taken for the convention's sake and not used. Run by hand
(not in the test command: the kernel's header is not a build dependency).
"""
import argparse
import glob
import os
import re
import sys

FIELD = re.compile(r'u8\s+(\w+)\[(0x[0-9a-fA-F]+|\d+)\]\s*;')
FIELD2 = re.compile(r'u8\s+(\w+)\[(\d+)\]\[(0x[0-9a-fA-F]+)\]\s*;')
SUB = re.compile(r'struct mlx5_ifc_(\w+?)(?:_bits)?\s+(\w+)\s*;')
UNION = re.compile(r'union mlx5_ifc_(\w+)_bits\s+(\w+)\s*;')
FLEX = re.compile(r'(u8|struct mlx5_ifc_\w+_bits)\s+\w+\[\]')


class Layouts:
    def __init__(self, text):
        self.text = re.sub(r'/\*.*?\*/', '', text, flags=re.S)
        self.cache = {}

    def body(self, kind, name):
        for tag in ('_bits', ''):
            m = re.search(r'%s mlx5_ifc_%s%s \{(.*?)\n\};' %
                          (kind, name, tag), self.text, re.S)
            if m:
                return m.group(1)
        return None

    def has(self, name):
        return self.body('struct', name) is not None

    def names(self):
        return re.findall(r'struct mlx5_ifc_(\w+)_bits \{', self.text)

    def union_size(self, name):
        size = 0
        for line in (self.body('union', name) or '').split('\n'):
            line = line.strip()
            m = SUB.match(line)
            if m and self.has(m.group(1)):
                size = max(size, self.size(m.group(1)))
            m = FIELD.match(line)
            if m:
                size = max(size, int(m.group(2), 0))
        return size

    def fields(self, name):
        """[(name, offset, width, substruct)] of struct @name."""
        if name in self.cache:
            return self.cache[name]
        out, off = [], 0
        for line in self.body('struct', name).split('\n'):
            line = line.strip()
            if not line or line.startswith('#') or FLEX.match(line):
                continue
            m = FIELD2.match(line)
            if m:
                w = int(m.group(2)) * int(m.group(3), 16)
                out.append((m.group(1), off, w, None))
                off += w
                continue
            m = FIELD.match(line)
            if m:
                w = int(m.group(2), 0)
                out.append((m.group(1), off, w, None))
                off += w
                continue
            m = SUB.match(line)
            if m:
                w = self.size(m.group(1))
                out.append((m.group(2), off, w, m.group(1)))
                off += w
                continue
            m = UNION.match(line)
            if m:
                w = self.union_size(m.group(1))
                out.append((m.group(2), off, w, None))
                off += w
                continue
            raise ValueError('%s: cannot parse: %s' % (name, line))
        self.cache[name] = out
        return out

    def size(self, name):
        return sum(f[2] for f in self.fields(name))

    def flat(self, name, prefix='', base=0):
        """{dotted name: (offset, width)} of every leaf field."""
        res = {}
        for fname, off, w, sub in self.fields(name):
            if sub is not None and self.has(sub):
                res.update(self.flat(sub, prefix + fname + '.', base + off))
            res[prefix + fname] = (base + off, w)
        return res


def main():
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument('--ifc', help="the kernel's mlx5_ifc.h")
    ap.add_argument('--build-dir', default='build', help='(not used)')
    args = ap.parse_args()
    ifc = args.ifc
    if ifc is None:
        found = sorted(glob.glob('/usr/src/linux-headers-*-common/include/'
                                 'linux/mlx5/mlx5_ifc.h'))
        if not found:
            sys.exit('check-prm-layouts: no mlx5_ifc.h found; install a '
                     'linux-headers-*-common package or give --ifc PATH')
        ifc = found[-1]
    kernel = Layouts(open(ifc).read())
    here = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..',
                        'drivers', 'common', 'mlx5')
    ours = Layouts('\n'.join(open(p).read() for p in
                             sorted(glob.glob(os.path.join(here,
                                                           'mlx5_prm*.h')))))
    bad = checked = 0
    for name in ours.names():
        if not kernel.has(name):
            print('%-32s not in the kernel header (not checked)' % name)
            continue
        ksize, osize = kernel.size(name), ours.size(name)
        if ksize != osize:
            print('%-32s size 0x%x, kernel 0x%x' % (name, osize, ksize))
            bad += 1
        kf = kernel.flat(name)
        devx_only = []
        for fname, (off, w) in sorted(ours.flat(name).items(),
                                      key=lambda x: x[1]):
            leaf = fname.split('.')[-1]
            if leaf.startswith('reserved'):
                continue
            if fname not in kf:
                devx_only.append(fname)
                continue
            checked += 1
            if kf[fname] != (off, w):
                print('%-32s %s at 0x%x/0x%x, kernel 0x%x/0x%x' %
                      (name, fname, off, w, kf[fname][0], kf[fname][1]))
                bad += 1
        if devx_only:
            print('%-32s not named by the kernel: %s' %
                  (name, ', '.join(devx_only)))
    print('%d fields checked, %d mismatches' % (checked, bad))
    sys.exit(1 if bad else 0)


if __name__ == '__main__':
    main()
