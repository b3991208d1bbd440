#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
#
# Test wrapper of `meson test --setup=tsan` (test/meson.build): run the
# program with address space randomisation off (setarch -R). clang 14's
# ThreadSanitizer expects the executable, libraries and mmap()s in fixed
# address ranges, which hold with the kernel's usual 28 bits of mmap
# randomisation but not with more (vm.mmap_rnd_bits = 32 on newer kernels:
# "FATAL: ThreadSanitizer: unexpected memory mapping"); LLVM 18 re-executes
# itself without randomisation, 14 does not. EAL is no problem either way:
# its hinted mappings (--base-virtaddr, 4 GB by default; the --no-huge memfd
# or the hugetlbfs files of test_mr_events) fall in TSan's low application
# range. Where the personality cannot be changed (a seccomp profile that
# refuses it), run as is: fine with 28 bits.
if setarch -R true 2>/dev/null; then
	exec setarch -R "$@"
fi
echo "tsan-exec: cannot turn address space randomisation off; running as is" >&2
exec "$@"
