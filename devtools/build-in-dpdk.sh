#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
#
# Build DPDK 22.11 itself with our drivers in its tree, as a user building
# DPDK from source would: copy a DPDK source tree to a scratch folder,
# replace its drivers/common/mlx5, drivers/net/mlx5 and drivers/crypto/mlx5
# with ours, configure it with DPDK's own meson (only what the check needs)
# in developer mode (a git clone's default: DPDK's symbol check runs on our
# version map), build what the check needs of it, and run the DPDK-built
# dpdk-testpmd on two software devices: `start tx_first`, then both ports
# must have received and sent packets with no error.
#
# Usage: devtools/build-in-dpdk.sh [--dpdk-src DIR] [--build-dir DIR] [--keep]
#          [--help]
#   --dpdk-src DIR   an extracted DPDK 22.11 source tree (default: Debian's
#                    source package of the installed libdpdk-dev, fetched
#                    with `apt-get source` once into a cache,
#                    $DPDK_SRC_CACHE, default ~/.cache/dpdk-mlx5-common)
#   --build-dir DIR  scratch folder for the tree copy (DIR/src) and DPDK's
#                    build (DIR/build); kept afterwards. Default: a
#                    temporary folder, removed at exit unless --keep.
# Must be outside this checkout. Prints the configure and build times and
# "build-in-dpdk: N checks passed, N failed"; exit 0 only when all passed.
# A compiler or linker warning in building our drivers is a failed check
# (DPDK's extra warning flags, e.g. -Wcast-qual, apply to them there);
# the warnings of DPDK's own files are counted but do not fail it.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/devtools/cli.sh"
src=
work=
keep=0
while [ $# -gt 0 ]; do
	case $1 in
	--dpdk-src) src=${2:?--dpdk-src needs a folder}; shift 2 ;;
	--build-dir) work=${2:?--build-dir needs a folder}; keep=1; shift 2 ;;
	--keep) keep=1; shift ;;
	--help) cli_usage "$0"; exit 0 ;;
	*) cli_bad "$0" "$1" ;;
	esac
done

for tool in meson ninja; do
	if ! command -v $tool >/dev/null; then
		echo "build-in-dpdk: $tool not installed"
		exit 77
	fi
done

# Debian's DPDK source of the installed version, extracted once into the
# cache (the same package buildtools/get-dpdk-sdk-headers.sh takes the SDK
# headers from; setup.sh has enabled its deb-src entry).
fetch_debian_source() {
	installed=$(dpkg-query -W -f='${Version}' libdpdk-dev 2>/dev/null || true)
	if [ -z "$installed" ]; then
		echo "build-in-dpdk: libdpdk-dev not installed; give --dpdk-src" >&2
		exit 77
	fi
	cache=${DPDK_SRC_CACHE:-${HOME:-/root}/.cache/dpdk-mlx5-common}
	dest="$cache/dpdk-$installed"
	if [ -f "$dest/VERSION" ]; then
		src=$dest
		return 0
	fi
	if ! apt-cache showsrc dpdk 2>/dev/null |
			grep -q "^Version: $installed\$"; then
		echo "build-in-dpdk: no deb-src for dpdk $installed (run devtools/setup.sh as root once); or give --dpdk-src" >&2
		exit 77
	fi
	mkdir -p "$cache"
	dl=$(mktemp -d "$cache/dl.XXXXXX")
	( cd "$dl" && apt-get source -qq --download-only "dpdk=$installed" \
		>/dev/null )
	dpkg-source --no-check -x "$dl"/dpdk_*.dsc "$dl/src" >/dev/null
	rm -rf "$dest"
	mv "$dl/src" "$dest"
	rm -rf "$dl"
	src=$dest
}

if [ -z "$src" ]; then
	fetch_debian_source
fi
src=$(cd "$src" && pwd)
if [ ! -f "$src/VERSION" ] || [ ! -f "$src/drivers/meson.build" ]; then
	echo "build-in-dpdk: $src is not a DPDK source tree" >&2
	exit 1
fi
case $(cat "$src/VERSION") in
22.11*) ;;
*) echo "build-in-dpdk: DPDK $(cat "$src/VERSION") in $src; 22.11 is needed" >&2
	exit 1 ;;
esac

if [ -z "$work" ]; then
	work=$(mktemp -d "${TMPDIR:-/tmp}/mlx5-in-dpdk.XXXXXX")
fi
mkdir -p "$work"
work=$(cd "$work" && pwd)
case "$work/" in
"$top"/*) echo "build-in-dpdk: $work is inside the checkout" >&2; exit 2 ;;
esac
if [ $keep = 0 ]; then
	trap 'rm -rf "$work"' EXIT
fi
trap 'exit 130' INT TERM

# The tree: DPDK's, with its three mlx5 drivers replaced by ours. The
# other mlx5 drivers (vdpa, regex, compress) are left but not enabled:
# they are DPDK's and need DPDK's common/mlx5 API.
# Without .git (history the build does not need); the configure below
# asks for developer mode, the default of a git clone of DPDK.
rm -rf "$work/src" "$work/build"
mkdir "$work/src"
( cd "$src" && tar cf - --exclude=./.git . ) | ( cd "$work/src" && tar xf - )
for d in common/mlx5 net/mlx5 crypto/mlx5; do
	rm -rf "$work/src/drivers/$d"
	cp -a "$top/drivers/$d" "$work/src/drivers/$d"
done
echo "build-in-dpdk: DPDK $(cat "$src/VERSION") from $src, our drivers from $top/drivers"

# As little as the check needs: the three buses the common driver uses,
# mempool/ring (always built), our three drivers; no optional library;
# dpdk-testpmd only; no unit tests, docs or examples. A static build links
# every driver into dpdk-testpmd: no -d, and nothing of Debian's installed
# DPDK (its plugin folder) can be loaded instead. Developer mode, as in a
# git clone of DPDK: DPDK's symbol check (buildtools/check-symbols.sh) runs
# on every driver that has a version.map, and a finding fails the build.
optional_libs=bitratestats,cfgfile,flow_classify,gpudev,gro,gso,kni,jobstats,latencystats,metrics,node,pdump,pipeline,port,power,table,vhost
t0=$(date +%s)
meson setup "$work/build" "$work/src" \
	-Ddefault_library=static \
	-Denable_drivers=bus/pci,bus/vdev,bus/auxiliary,mempool/ring,common/mlx5,net/mlx5,crypto/mlx5 \
	-Ddisable_libs=$optional_libs \
	-Denable_apps=test-pmd -Dtests=false -Denable_docs=false \
	-Denable_kmods=false -Dexamples= -Ddeveloper_mode=enabled \
	>"$work/configure.log" 2>&1 || {
	tail -n 40 "$work/configure.log"
	echo "build-in-dpdk: configure FAILED (log: $work/configure.log)"
	exit 1
}
t1=$(date +%s)
# DPDK's own summary of the drivers it enabled (with mlx5 in each class).
echo "build-in-dpdk: DPDK's meson enabled:" $(sed -n '/^Drivers Enabled/,/^Message/p' \
	"$work/configure.log" | grep -A1 -E '^(common|bus|net|crypto):' |
	grep -v '^--' | tr -d '\t' | paste -sd ' ')
if ! grep -q 'RTE_COMMON_MLX5' "$work/build/rte_build_config.h" ||
		! grep -q 'RTE_NET_MLX5' "$work/build/rte_build_config.h" ||
		! grep -q 'RTE_CRYPTO_MLX5' "$work/build/rte_build_config.h"; then
	grep -E '(common|net|crypto)/mlx5:' "$work/configure.log"
	echo "build-in-dpdk: DPDK's meson did not enable all three mlx5 drivers"
	exit 1
fi
# What the check runs and checks: dpdk-testpmd (with every library it
# links), our three drivers, static and shared, and common/mlx5's symbol
# check. The mandatory DPDK libraries nothing of it links (eventdev, sched,
# acl, ...) are DPDK's own, untouched by our drivers: not built (a fifth
# of the steps, 15 to 30 % of the time).
targets=$(cd "$work/build" && meson introspect --targets . |
	/usr/bin/python3 -c 'import json, os, sys
want = {"dpdk-testpmd", "rte_common_mlx5.sym_chk"}
want |= {"rte_%s_mlx5" % c for c in ("common", "net", "crypto")}
got = [t for t in json.load(sys.stdin) if t["name"] in want]
if {t["name"] for t in got} != want:
    sys.exit("build-in-dpdk: DPDK configured no target of " +
             ", ".join(sorted(want - {t["name"] for t in got})))
print(" ".join(os.path.relpath(f) for t in got for f in t["filename"]))')
# A fixed status format: our_warnings() below reads the step lines.
# shellcheck disable=SC2086 # A list of words.
NINJA_STATUS='[%f/%t] ' ninja -C "$work/build" $targets \
		>"$work/build.log" 2>&1 || {
	grep -E -B2 -A8 'error|FAILED' "$work/build.log" | head -n 60
	echo "build-in-dpdk: build FAILED (log: $work/build.log)"
	exit 1
}
t2=$(date +%s)
warnings=$(grep -c 'warning:' "$work/build.log" || true)

# The warnings of our drivers in a build log: those printed by a step that
# builds one of them (ninja prints a step's output under its status line,
# so this includes what a DPDK header warns of in our code), and any whose
# location is one of our files.
our_warnings() {
	awk '
	/^\[[0-9]+\/[0-9]+\] / {
		ours = $0 ~ /rte_(common|net|crypto)_mlx5[._]/
		next
	}
	/warning:/ && (ours || $0 ~ /drivers\/(common|net|crypto)\/mlx5\//)
	' "$1"
}
our_warnings "$work/build.log" >"$work/our-warnings.log"
ours=$(wc -l <"$work/our-warnings.log")
echo "build-in-dpdk: configure $((t1 - t0)) s, build $((t2 - t1)) s" \
	"($(nproc) cpus), $warnings compiler warnings, $ours from our drivers"
for lib in common_mlx5 net_mlx5 crypto_mlx5; do
	ls "$work/build/drivers/librte_$lib.so"* >/dev/null
done

# The check: DPDK's own dpdk-testpmd, io forwarding between two software
# devices wired together (same card), start tx_first.
testpmd="$work/build/app/dpdk-testpmd"
out="$work/testpmd.log"
# shellcheck source=test/testpmd-lib.sh
. "$top/test/testpmd-lib.sh"
testpmd_ready="testpmd_moved 10000"
# shellcheck disable=SC2086
{ testpmd_feed "start tx_first" "show port stats all" "stop"; sleep 1;
  printf 'show port stats all\nquit\n'; } |
	timeout $((TESTPMD_WAIT_MAX + 60)) $testpmd_linebuf "$testpmd" \
	--no-huge -m 1024 --no-pci --no-shconf -l 0-1 \
	--vdev=mlx5_sim0,card=47 --vdev=mlx5_sim1,card=47 -- -i \
	--total-num-mbufs=8192 >"$out" 2>&1 || true
stat() { testpmd_stat "$@"; }

# A check's test may fail: it is counted, it does not end the script.
set +e
# Each distinct warning once, with how many times it was printed (a
# header's warning repeats in every file that includes it).
if [ "$ours" != 0 ]; then
	sort "$work/our-warnings.log" | uniq -c | sort -rn | sed 's/^/  /'
fi
[ "$ours" = 0 ]
check $? "no compiler warning from our drivers ($ours)"
# The build stops at a failed symbol check; this proves that it ran.
grep -q '## Building in Developer Mode ##' "$work/configure.log" &&
	[ -f "$work/build/drivers/rte_common_mlx5.sym_chk" ]
check $? "developer mode: DPDK's symbol check passed on common/mlx5's version.map"
grep -E 'mlx5|Port [01]: ' "$out" | head -n 6
for p in 0 1; do
	rx=$(stat $p RX-packets:)
	tx=$(stat $p TX-packets:)
	err=$(( $(stat $p RX-errors:) + $(stat $p TX-errors:) +
		$(stat $p RX-missed:) + $(stat $p RX-nombuf:) ))
	echo "  port $p: RX-packets $rx TX-packets $tx errors $err"
	# tx_first's 32 frames per port go round for seconds: millions of
	# packets; a queue that stalls stops at a few hundred.
	[ "$rx" -gt 10000 ] && [ "$tx" -gt 10000 ]
	check $? "port $p received and sent packets (more than 10,000: no stall)"
	[ "$err" = 0 ]
	check $? "port $p has no error"
done
if [ $failed != 0 ]; then
	tail -n 40 "$out"
fi
echo "build-in-dpdk: $passed checks passed, $failed failed"
[ $failed = 0 ]
