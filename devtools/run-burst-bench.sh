#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
#
# Burst benchmark: the net PMD's Rx and Tx bursts beside DPDK 22.11's own
# net/mlx5 bursts, over the same work, in one run (app/test-mlx5-burst).
# DPDK's mlx5_rx.c, mlx5_rxtx_vec.c, mlx5_rxtx.c and mlx5_tx*.c are taken
# from Debian's source package of the installed DPDK (nothing of them
# committed), with mlx5_autoconf.h generated from the installed rdma-core
# headers by the checks DPDK's own build runs, and compiled with the
# benchmark's compiler and flags into a plugin with
# app/test-mlx5-burst/dpdk_ref/burst_ref.c, which builds their queues as
# DPDK's queue setup does. The benchmark plays the device: CQEs written
# before the timed bursts, every WQE read and checked after them and
# completed. Per implementation: instructions per frame (callgrind, the
# bursts only) and cycles per frame (TSC around the bursts, the median of
# --repeats measurements, alternated). Figures are reported, never
# asserted: the exit code says only whether it ran and every frame checked.
#
# Usage: devtools/run-burst-bench.sh [--build-dir DIR] [--help]
#          [--repeats N] [--frames N] [--size N] [--session N] [--offloads]
#          [--tx-offloads] [--queues N] [--no-dpdk]
#   --size: frame length (64 default; 1500 for the large-frame figures);
#   --session: frames per compressed CQE session (32 default);
#   --offloads: Rx checksum and RSS hash on, for both PMDs;
#   --tx-offloads: Tx IPv4 and UDP checksums asked on every frame, for
#     both PMDs (DPDK's default template is then sc_empw);
#   --queues: 1, 2, 4 or 8 queues a PMD, each round's frames spread over
#     them, their bursts in turn (from 8 queues DPDK's default Tx template
#     inlines: i_empw, or sci_empw with --tx-offloads).
# Also run by `meson test -C build --benchmark --suite burst`.
set -eu

cd "$(dirname "$0")/.."
. devtools/cli.sh
BUILD_DIR=build
REPEATS=9
FRAMES=65536
SIZE=64
SESSION=32
OFFLOADS=
TX_OFFLOADS=
QUEUES=1
DPDK=yes
while [ $# -gt 0 ]; do
	case $1 in
	--build-dir) BUILD_DIR=${2:?--build-dir needs a folder}; shift 2 ;;
	--repeats) REPEATS=$2; shift 2 ;;
	--frames) FRAMES=$2; shift 2 ;;
	--size) SIZE=$2; shift 2 ;;
	--session) SESSION=$2; shift 2 ;;
	--offloads) OFFLOADS=--offloads; shift ;;
	--tx-offloads) TX_OFFLOADS=--tx-offloads; shift ;;
	--queues) QUEUES=$2; shift 2 ;;
	--no-dpdk) DPDK=; shift ;;
	--help) cli_usage "$0"; exit 0 ;;
	*) cli_bad "$0" "$1" ;;
	esac
done
bench=$BUILD_DIR/app/test-mlx5-burst/dpdk-test-mlx5-burst
ninja -C "$BUILD_DIR" app/test-mlx5-burst/dpdk-test-mlx5-burst >/dev/null
if ! command -v valgrind >/dev/null 2>&1; then
	echo "valgrind is not installed (package valgrind): no instruction counts"
	exit 77
fi
out=$(mktemp -d "${TMPDIR:-/tmp}/burst-bench.XXXXXX")
trap 'rm -rf "$out"' EXIT

plugin=
if [ -n "$DPDK" ]; then
	ref="$(cd "$BUILD_DIR" && pwd)/dpdk-burst-ref"
	src="$ref/src"
	if ! buildtools/get-dpdk-sdk-headers.sh "$src" drivers/net/mlx5/ \
			drivers/common/mlx5/ lib/eal/linux/include/rte_os_shim.h \
			>"$out/fetch.log" 2>&1; then
		cat "$out/fetch.log"
		echo "FAIL: cannot fetch DPDK's net/mlx5 source"
		exit 1
	fi
	gen="$ref/gen"
	mkdir -p "$gen"
	cp "$src/rte_os_shim.h" "$gen/"
	# mlx5_autoconf.h: the checks of DPDK's drivers/common/mlx5/linux/
	# meson.build, run against the installed rdma-core headers.
	if ! /usr/bin/python3 - "$src/drivers/common/mlx5/linux/meson.build" \
			"$gen/mlx5_autoconf.h" <<'PYEOF'
import os, re, subprocess, sys, tempfile
text = open(sys.argv[1]).read()
def arrays(name):
    m = re.search(name + r"\s*=\s*\[(.*?)\n\]", text, re.S)
    if not m:
        sys.exit("no %s in %s" % (name, sys.argv[1]))
    return re.findall(r"\[\s*'([^']+)'\s*,\s*'([^']+)'\s*,\s*'([^']+)'"
                      r"\s*(?:,\s*'([^']+)'\s*)?\]", m.group(1))
tmp = tempfile.mkdtemp()
def builds(code):
    f = os.path.join(tmp, "t.c")
    open(f, "w").write(code)
    return subprocess.run(["cc", "-c", f, "-o", f + ".o"],
                          capture_output=True).returncode == 0
lines = []
for mac, hdr, sym, _ in arrays("has_sym_args"):
    sym = sym.strip()
    ok = builds("#include <%s>\nint main(void) {\n#ifndef %s\n(void)%s;\n"
                "#endif\nreturn 0; }\n" % (hdr, sym, sym))
    lines.append("#define %s 1" % mac if ok else "/* #undef %s */" % mac)
for mac, hdr, st, mem in arrays("has_member_args"):
    ok = builds("#include <%s>\nint f(void);\nint f(void) { %s x; "
                "return (int)sizeof(x.%s); }\n" % (hdr, st, mem))
    lines.append("#define %s 1" % mac if ok else "/* #undef %s */" % mac)
open(sys.argv[2], "w").write("\n".join(lines) + "\n")
PYEOF
	then
		echo "FAIL: cannot generate mlx5_autoconf.h"
		exit 1
	fi
	# The benchmark's own compile command: compiler, optimisation,
	# target, defines, the DPDK include folders (not this tree's).
	cmd=$(/usr/bin/python3 buildtools/bench-compile-cmd.py "$BUILD_DIR" \
		test-mlx5-burst/main.c) || cmd=
	if [ -z "$cmd" ]; then
		echo "FAIL: no compile command of the benchmark in $BUILD_DIR"
		exit 1
	fi
	version=$(cat "$src/.sdk-version")
	inc="-I$gen -I$src/drivers/net/mlx5 -I$src/drivers/net/mlx5/linux"
	inc="$inc -I$src/drivers/net/mlx5/hws -I$src/drivers/common/mlx5"
	inc="$inc -I$src/drivers/common/mlx5/linux -Iapp/test-mlx5-burst"
	# DPDK's files with DPDK's own options (drivers/net/mlx5/meson.build);
	# their warnings are not this project's. The adapter with ours.
	dpdk_opts="-std=c11 -D_BSD_SOURCE -D_DEFAULT_SOURCE -D_XOPEN_SOURCE=600 -UPEDANTIC -w"
	objs=
	for f in mlx5_rx.c mlx5_rxtx_vec.c mlx5_rxtx.c mlx5_tx.c \
			mlx5_tx_empw.c mlx5_tx_nompw.c mlx5_tx_mpw.c \
			mlx5_tx_txpp.c; do
		# shellcheck disable=SC2086
		if ! eval "$cmd" -fPIC -fvisibility=hidden $dpdk_opts $inc \
				-c "$src/drivers/net/mlx5/$f" \
				-o "$out/${f%.c}.o" >>"$out/plugin.log" 2>&1; then
			cat "$out/plugin.log"
			echo "FAIL: cannot compile DPDK's $f"
			exit 1
		fi
		objs="$objs $out/${f%.c}.o"
	done
	# shellcheck disable=SC2086
	if ! eval "$cmd" -fPIC -fvisibility=hidden -Wall -Wextra -Werror \
			"-DBURST_REF_SRC_VERSION='\"$version\"'" $inc \
			-c app/test-mlx5-burst/dpdk_ref/burst_ref.c \
			-o "$out/burst_ref.o" >>"$out/plugin.log" 2>&1; then
		cat "$out/plugin.log"
		echo "FAIL: cannot compile the plugin's adapter"
		exit 1
	fi
	objs="$objs $out/burst_ref.o"
	libs="-lrte_ethdev -lrte_mbuf -lrte_mempool -lrte_ring -lrte_net"
	libs="$libs -lrte_eal -lrte_kvargs -lrte_telemetry"
	# What the bursts' files call of the rest of DPDK's driver: its slow
	# paths (errors, queue state, multi-process). Each becomes a function
	# that aborts with its name: a run that reaches one fails loudly.
	# shellcheck disable=SC2086
	eval "$cmd" -shared -o "$out/probe.so" $objs >>"$out/plugin.log" 2>&1
	nm -u "$out/probe.so" | awk '$1 == "U" && $2 !~ /@/ &&
		$2 !~ /^(rte_|__rte_|per_lcore_)/ { print $2 }' >"$out/stubs.txt"
	{
		echo "#include <stdio.h>"
		echo "#include <stdlib.h>"
		while read -r s; do
			printf 'void %s(void);\n' "$s"
			printf 'void %s(void) { fprintf(stderr, "burst_ref: %s called\\n"); abort(); }\n' "$s" "$s"
		done <"$out/stubs.txt"
	} >"$out/stubs.c"
	plugin="$ref/burst_ref.so"
	# shellcheck disable=SC2086
	if ! eval "$cmd" -fPIC -fvisibility=hidden -c "$out/stubs.c" \
			-o "$out/stubs.o" >>"$out/plugin.log" 2>&1 ||
	   ! eval "$cmd" -shared -Wl,-z,defs -o "$plugin" $objs \
			"$out/stubs.o" $libs >>"$out/plugin.log" 2>&1; then
		cat "$out/plugin.log"
		echo "FAIL: cannot link DPDK's bursts into a plugin"
		exit 1
	fi
	echo "DPDK $version net/mlx5 bursts: $(tr '\n' ' ' <"$out/stubs.txt" | wc -w) slow-path functions stubbed"
fi

args="--size $SIZE --session $SESSION --queues $QUEUES $OFFLOADS $TX_OFFLOADS"
[ -n "$plugin" ] && args="$args --dpdk $plugin"
eal="-l 0 --no-huge -m 512 --no-pci --no-shconf --no-telemetry --log-level *:warning"
cg_frames=$((FRAMES / 4))
[ "$cg_frames" -lt 4096 ] && cg_frames=4096
# shellcheck disable=SC2086
if ! valgrind --tool=callgrind --collect-atstart=no --dump-instr=no \
		--callgrind-out-file="$out/cg" "$bench" $eal -- $args \
		--frames "$cg_frames" >"$out/callgrind.log" 2>&1; then
	cat "$out/callgrind.log"
	echo "FAIL: the bursts did not run under callgrind"
	exit 1
fi
for f in "$out"/cg.*; do
	awk '/^desc: Trigger: Client Request: bench:/ {
		sub(/.*bench:/, ""); split($0, a, ":")
		dir = a[1]; impl = a[2]; n = a[3]
	}
	/^(summary|totals):/ { ir = $2 }
	END { if (impl != "") print "ir", dir, impl, ir / n }' "$f"
done >"$out/figures"
# shellcheck disable=SC2086
if ! "$bench" $eal -- $args --frames "$FRAMES" --repeats "$REPEATS" \
		>"$out/native.log" 2>&1; then
	cat "$out/native.log"
	echo "FAIL: the bursts did not run natively"
	exit 1
fi
grep '^peer \|^note \|^checked ' "$out/native.log" || true
sed -n 's/^cycles /cyc /p' "$out/native.log" >>"$out/figures"

/usr/bin/python3 - "$out/figures" "$SIZE" "$SESSION" "$REPEATS" "$OFFLOADS" \
	"$TX_OFFLOADS" "$QUEUES" <<'PYEOF'
import sys
path, size, session, repeats, offloads, tx_offloads, queues = sys.argv[1:8]
ir, cyc = {}, {}
for line in open(path):
    f = line.split()
    (ir if f[0] == "ir" else cyc)[(f[1], f[2])] = float(f[3])
def fmt(v):
    return "%.1f" % v if v is not None else "n/a"
print("\n%s-byte frames, %s, bursts of 32%s%s; compressed sessions of %s"
      % (size, "one queue" if queues == "1" else queues + " queues",
         ", Rx checksum + RSS" if offloads else "",
         ", Tx checksums" if tx_offloads else "", session))
print("%-3s %-26s %14s %16s" % ("", "implementation", "instr/frame",
                                "cycles/frame"))
for d in ("rx", "tx"):
    for (dd, name) in sorted(set(ir) | set(cyc)):
        if dd != d:
            continue
        print("%-3s %-26s %14s %16s" % (d, name, fmt(ir.get((d, name))),
                                        fmt(cyc.get((d, name)))))
def ratio(a, b):
    if a is None or b is None or b == 0:
        return "n/a"
    return "%.2f" % (a / b)
# DPDK's defaults for one queue: vector Rx (the device not compressing
# under light load), Tx enhanced MPW without inlining (from 8 queues on,
# inlining; with Tx checksums, its checksum template sc_empw). Its best:
# the lowest of its implementations.
inl = int(queues) >= 8
dflt = {"rx": "dpdk-vector",
        "tx": "dpdk-%s_empw" % (("sci" if inl else "sc") if tx_offloads
                                else ("i" if inl else "none"))}
if any(k[1].startswith("dpdk") for k in ir):
    print()
    for d in ("rx", "tx"):
        peers = [n for (dd, n) in ir if dd == d and n.startswith("dpdk")]
        best = min(peers, key=lambda n: ir[(d, n)])
        for ours in sorted(n for (dd, n) in ir
                           if dd == d and not n.startswith("dpdk")):
            o_ir, o_cyc = ir.get((d, ours)), cyc.get((d, ours))
            print("%s %-16s / dpdk default (%s): instr %s cycles %s;"
                  " / dpdk best in instr (%s): instr %s cycles %s"
                  % (d, ours, dflt[d], ratio(o_ir, ir.get((d, dflt[d]))),
                     ratio(o_cyc, cyc.get((d, dflt[d]))), best,
                     ratio(o_ir, ir[(d, best)]),
                     ratio(o_cyc, cyc.get((d, best)))))
    print("ours/dpdk default: Tx instr %s cycles %s, Rx instr %s cycles %s"
          % (ratio(ir.get(("tx", "ours")), ir.get(("tx", dflt["tx"]))),
             ratio(cyc.get(("tx", "ours")), cyc.get(("tx", dflt["tx"]))),
             ratio(ir.get(("rx", "ours")), ir.get(("rx", dflt["rx"]))),
             ratio(cyc.get(("rx", "ours")), cyc.get(("rx", dflt["rx"])))))
PYEOF
