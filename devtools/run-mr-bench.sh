#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
#
# MR cache benchmark: this project's cache beside DPDK 22.11's own mlx5 MR
# cache, same workloads and address streams, in one run. DPDK's
# mlx5_common_mr.c is taken from Debian's source package of the installed
# DPDK (buildtools/get-dpdk-sdk-headers.sh, nothing of it committed) and
# compiled with the benchmark's own compiler and flags into a plugin
# (app/test-mlx5-mr/dpdk_ref/). Per workload: instructions per operation
# (callgrind) and cycles (TSC, median of --repeats runs in one process) of
# both, and the ratios ours/DPDK; with --portable DIR also this cache built
# without its assembly (-DMLX5_MR_PORTABLE). Then lookups per second on 1
# and 2 threads while another thread registers and frees memory, and the
# registration of a 1M-mbuf mempool. Figures are reported, never asserted:
# the exit code says only whether the benchmark ran.
#
# Usage: devtools/run-mr-bench.sh [--build-dir DIR] [--help] [--portable DIR]
#          [--repeats N] [--lookups N] [--mt SECONDS] [--mbufs N] [--no-dpdk]
#   --mbufs 0 skips the mempool part (1M mbufs need about 4.3 GB of memory,
#   since EAL runs without hugepages); --mt 0 the threads.
# Also run by `meson test -C build --benchmark`.
set -eu

cd "$(dirname "$0")/.."
. devtools/cli.sh
BUILD_DIR=build
PORTABLE=
MBUFS=1048576
LOOKUPS=65536
REPEATS=7
MT=1
DPDK=yes
while [ $# -gt 0 ]; do
	case $1 in
	--build-dir) BUILD_DIR=${2:?--build-dir needs a folder}; shift 2 ;;
	--portable) PORTABLE=$2; shift 2 ;;
	--mbufs) MBUFS=$2; shift 2 ;;
	--lookups) LOOKUPS=$2; shift 2 ;;
	--repeats) REPEATS=$2; shift 2 ;;
	--mt) MT=$2; shift 2 ;;
	--no-dpdk) DPDK=; shift ;;
	--help) cli_usage "$0"; exit 0 ;;
	*) cli_bad "$0" "$1" ;;
	esac
done
bench=$BUILD_DIR/app/test-mlx5-mr/dpdk-test-mlx5-mr
ninja -C "$BUILD_DIR" app/test-mlx5-mr/dpdk-test-mlx5-mr >/dev/null
if [ -n "$PORTABLE" ]; then
	ninja -C "$PORTABLE" app/test-mlx5-mr/dpdk-test-mlx5-mr >/dev/null
fi
if ! command -v valgrind >/dev/null 2>&1; then
	echo "valgrind is not installed (package valgrind): no instruction counts"
	exit 77
fi
out=$(mktemp -d "${TMPDIR:-/tmp}/mr-bench.XXXXXX")
trap 'rm -rf "$out"' EXIT

# DPDK's MR cache: its source of the installed version, then the plugin,
# compiled as the benchmark's main.c is (compiler, optimisation, target,
# defines; none of this tree's include folders, whose headers share the
# names of DPDK's).
plugin=
if [ -n "$DPDK" ]; then
	ref="$(cd "$BUILD_DIR" && pwd)/dpdk-mr-ref"
	src=drivers/common/mlx5
	if ! buildtools/get-dpdk-sdk-headers.sh "$ref/src" \
			$src/mlx5_common_mr.c $src/mlx5_common_mr.h \
			$src/mlx5_common_defs.h >"$out/fetch.log" 2>&1; then
		cat "$out/fetch.log"
		echo "FAIL: cannot fetch DPDK's MR cache source"
		exit 1
	fi
	cmd=$(/usr/bin/python3 buildtools/bench-compile-cmd.py "$BUILD_DIR" \
		test-mlx5-mr/main.c) || cmd=
	if [ -z "$cmd" ]; then
		echo "FAIL: no compile command of the benchmark in $BUILD_DIR"
		exit 1
	fi
	plugin="$ref/dpdk_mr_ref.so"
	version=$(cat "$ref/src/.sdk-version")
	# shellcheck disable=SC2086
	if ! eval "$cmd" -fPIC -shared -fvisibility=hidden \
			"-DDPDK_MR_SRC_VERSION='\"$version\"'" \
			-Iapp/test-mlx5-mr/dpdk_ref/shim -I"$ref/src" \
			-Iapp/test-mlx5-mr/dpdk_ref \
			-o "$plugin" app/test-mlx5-mr/dpdk_ref/dpdk_mr_ref.c \
			-lrte_eal -lrte_mempool -lrte_mbuf \
			>"$out/plugin.log" 2>&1; then
		cat "$out/plugin.log"
		echo "FAIL: cannot build DPDK's MR cache plugin"
		exit 1
	fi
fi

# Instructions: one callgrind dump per workload, bench:<impl>:<name>:<ops>;
# cycles: "cycles <impl> <name> <median>" lines of a native run.
measure() { # <tag> <bench> [args]
	tag=$1; b=$2; shift 2
	if ! valgrind --tool=callgrind --dump-instr=no --dump-line=no \
			--callgrind-out-file="$out/cg.$tag" "$b" --workloads \
			--n "$LOOKUPS" "$@" >"$out/callgrind.$tag.log" 2>&1; then
		cat "$out/callgrind.$tag.log"
		echo "FAIL: the workloads did not run under callgrind ($tag)"
		exit 1
	fi
	for f in "$out"/cg."$tag"*; do
		awk -v tag="$tag" '/^desc: Trigger: Client Request: bench:/ {
			sub(/.*bench:/, ""); split($0, a, ":")
			impl = a[1]; name = a[2]; n = a[3]
		}
		/^(summary|totals):/ { ir = $2 }
		END { if (name != "") print "ir", tag "/" impl, name, ir / n }' "$f"
	done >>"$out/figures"
	if ! "$b" --workloads --n "$LOOKUPS" --repeats "$REPEATS" "$@" \
			>"$out/native.$tag.log" 2>&1; then
		cat "$out/native.$tag.log"
		echo "FAIL: the workloads did not run natively ($tag)"
		exit 1
	fi
	awk -v tag="$tag" '/^cycles / { print "cyc", tag "/" $2, $3, $4 }
		/^failed / { print "failed", tag "/" $2, $3, $4 }
		/^note / { sub(/^note /, ""); print "note", $0 }' \
		"$out/native.$tag.log" >>"$out/figures"
}
: >"$out/figures"
if [ -n "$plugin" ]; then
	measure asm "$bench" --dpdk "$plugin"
else
	measure asm "$bench"
fi
if [ -n "$PORTABLE" ]; then
	measure c "$PORTABLE/app/test-mlx5-mr/dpdk-test-mlx5-mr"
fi
if [ "$MT" != 0 ]; then
	"$bench" --mt "$MT" >"$out/mt.log" 2>&1 || { cat "$out/mt.log"; exit 1; }
fi
if [ "$MBUFS" -gt 0 ]; then
	if ! "$bench" --mempool "$MBUFS" >"$out/mempool.log" 2>&1; then
		cat "$out/mempool.log"
		echo "FAIL: the mempool registration did not run"
		exit 1
	fi
fi

/usr/bin/python3 - "$out" "$LOOKUPS" "$REPEATS" "${PORTABLE:+yes}" <<'PYEOF'
import sys, re
out, lookups, repeats, portable = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
ir, cyc, failed, notes = {}, {}, {}, []
for line in open(out + "/figures"):
    f = line.split()
    if f[0] == "ir":
        ir[(f[1], f[2])] = float(f[3])
    elif f[0] == "cyc":
        cyc[(f[1], f[2])] = float(f[3])
    elif f[0] == "failed":
        failed[(f[1], f[2])] = int(f[3])
    elif f[0] == "note":
        n = " ".join(f[1:])
        if n not in notes:
            notes.append(n)
rows = [
    ("most-recent hit (address)", "mru_addr", True),
    ("most-recent hit (mbuf)", "mru_mbuf", True),
    ("per-queue hit, 16 ranges", "table_16", True),
    ("per-queue hit, 255 ranges", "table_255", True),
    ("two ranges in turn, 248 others held", "two_in_turn", True),
    ("global hit, 10 MRs (flush + lookup)", "global_10", True),
    ("global hit, 1,000 MRs", "global_1000", True),
    ("global hit, 10,000 MRs", "global_10000", True),
    ("random among 2 ranges", "random_2", True),
    ("random among 8 ranges", "random_8", True),
    ("random among 16 ranges", "random_16", True),
    ("random among 255 ranges", "random_255", True),
    ("random among 1,000 ranges", "random_1000", True),
    ("random among 10,000 ranges", "random_10000", True),
    ("first touch after a flush, 255", "refill_255", True),
    ("first touch after a flush, 1,000", "refill_1000", True),
    ("first touch after a flush, 10,000", "refill_10000", True),
    ("registration at 1,000 MRs, ascending", "reg_asc_1000", False),
    ("registration at 10,000 MRs, ascending", "reg_asc_10000", False),
    ("registration at 1,000 MRs, descending", "reg_desc_1000", False),
    ("registration at 10,000 MRs, descending", "reg_desc_10000", False),
]
def val(d, impl, wl, net):
    v = d.get((impl, wl))
    if v is None:
        return None
    if net:
        base = d.get(("asm/ours" if impl.startswith("asm") else "c/ours", "base"))
        if base is not None:
            v -= base
    return v
def fmt(v, w=8):
    return ("%*.1f" % (w, v)) if v is not None else "%*s" % (w, "-")
def ratio(a, b):
    return ("%6.2f" % (a / b)) if a is not None and b not in (None, 0) else "     -"
print("MR cache: this project's (ours) beside DPDK 22.11's (dpdk), same workloads.")
print("ir: instructions per operation (callgrind; lookups net of the empty loop,")
print("%s lookups a workload); cyc: TSC cycles per operation, median of %s runs." % (lookups, repeats))
print("ratio = ours / dpdk: below 1.00, ours is ahead.%s\n" %
      (" C: ours built without assembly." if portable else ""))
hdr = "%-39s %8s %8s %6s  %8s %8s %6s" % ("workload", "dpdk ir", "ours ir", "ratio", "dpdk cyc", "ours cyc", "ratio")
if portable:
    hdr += "  %8s %6s %8s %6s" % ("C ir", "ratio", "C cyc", "ratio")
print(hdr)
behind = []
for label, wl, net in rows:
    di, oi = val(ir, "asm/dpdk", wl, net), val(ir, "asm/ours", wl, net)
    dc, oc = val(cyc, "asm/dpdk", wl, net), val(cyc, "asm/ours", wl, net)
    line = "%-39s %s %s %s  %s %s %s" % (label, fmt(di), fmt(oi), ratio(oi, di), fmt(dc), fmt(oc), ratio(oc, dc))
    if portable:
        ci, cc = val(ir, "c/ours", wl, net), val(cyc, "c/ours", wl, net)
        line += "  %s %s %s %s" % (fmt(ci), ratio(ci, di), fmt(cc), ratio(cc, dc))
    print(line)
    if di is not None and oi is not None and oi > di:
        behind.append("%s: instructions %.2f" % (label, oi / di))
    if dc is not None and oc is not None and oc > dc:
        behind.append("%s: cycles %.2f" % (label, oc / dc))
print("(the empty loop itself: %s instructions, %s cycles per iteration)" %
      (fmt(ir.get(("asm/ours", "base")), 0), fmt(cyc.get(("asm/ours", "base")), 0)))
for k, v in sorted(failed.items()):
    print("FAILED lookups: %s %s: %d" % (k[0], k[1], v))
for n in notes:
    print("note: " + n)
if behind:
    print("\nours behind dpdk (ratio > 1.00):")
    for b in behind:
        print("  - " + b)
elif any(k[0] == "asm/dpdk" for k in ir):
    print("\nevery ratio at or below 1.00")
try:
    mt = [l.split() for l in open(out + "/mt.log") if l.startswith("mt ")]
except OSError:
    mt = []
if mt:
    print("\nThreads (ours; own queue each, random among 1,000 ranges; churn: another")
    print("thread registers and frees a range, about every 40 us; every key checked):")
    print("%-8s %-6s %14s %12s %10s" % ("lookup", "churn", "lookups/s", "frees/s", "wrong keys"))
    for f in mt:
        print("%-8s %-6s %14s %12s %10s" % (f[2] + (" thread" if f[2] == "1" else " threads"), f[4], "{:,}".format(int(float(f[6]))), "{:,}".format(int(float(f[8]))), f[10]))
try:
    mp = open(out + "/mempool.log").read()
    m = re.search(r"registration: ([\d.]+) ms, (\d+) MR", mp)
    c = re.search(r"(\d+) contiguous", mp)
    if m and c:
        print("\nmempool of 1M mbufs: registration %s ms, %s MR(s) for %s contiguous chunk(s): %s"
              % (m.group(1), m.group(2), c.group(1), "ok" if m.group(2) == c.group(1) else "MISSED"))
except OSError:
    pass
PYEOF
