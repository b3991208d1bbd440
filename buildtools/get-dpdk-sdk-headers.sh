#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
#
# Fetch the DPDK driver SDK headers (ethdev_driver.h, bus_vdev_driver.h, ...)
# that Debian's libdpdk-dev does not ship, from Debian's source package of
# exactly the installed DPDK version, and copy them into OUTDIR.
#
# Usage: get-dpdk-sdk-headers.sh OUTDIR [FILE...]
#   FILEs (paths in the DPDK tree) replace the header list: the MR
#   benchmark takes DPDK's own MR cache source this way
#   (devtools/run-mr-bench.sh). A FILE is copied into OUTDIR itself; a
#   folder (a path ending in /) keeps its path under OUTDIR, with all it
#   holds (devtools/run-burst-bench.sh takes drivers/net/mlx5/ so).
#
# Refuses to produce headers of a version other than the installed library:
# a structure layout mismatch would corrupt memory silently.
set -eu

outdir=${1:?usage: $0 OUTDIR [FILE...]}
shift
stamp="$outdir/.sdk-version"

# Headers the drivers need, relative to the DPDK source tree.
HEADERS="
lib/eal/include/bus_driver.h
lib/eal/include/dev_driver.h
lib/ethdev/ethdev_driver.h
lib/ethdev/ethdev_vdev.h
lib/ethdev/ethdev_pci.h
lib/cryptodev/cryptodev_pmd.h
drivers/bus/vdev/bus_vdev_driver.h
drivers/bus/pci/bus_pci_driver.h
drivers/bus/auxiliary/bus_auxiliary_driver.h
"

if [ $# -gt 0 ]; then
	HEADERS="$*"
fi

installed=$(dpkg-query -W -f='${Version}' libdpdk-dev 2>/dev/null || true)
if [ -z "$installed" ]; then
	echo "error: libdpdk-dev is not installed (apt-get install libdpdk-dev)" >&2
	exit 1
fi
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$installed" ]; then
	exit 0
fi

enable_deb_src() {
	# Debian 12 images ship deb822 sources without deb-src; add it to the
	# entries that already name the main archive, same mirror.
	f=/etc/apt/sources.list.d/debian.sources
	if apt-cache showsrc dpdk 2>/dev/null | grep -q "^Version: $installed\$"; then
		return 0
	fi
	if [ "$(id -u)" != 0 ]; then
		echo "error: need deb-src entries for Debian main; run as root once" >&2
		exit 1
	fi
	if [ -f "$f" ]; then
		sed -i 's/^Types: deb$/Types: deb deb-src/' "$f"
	else
		grep -h '^deb ' /etc/apt/sources.list 2>/dev/null |
			sed 's/^deb /deb-src /' > /etc/apt/sources.list.d/mlx5-deb-src.list
	fi
	apt-get update -qq
}

enable_deb_src
if ! apt-cache showsrc dpdk | grep -q "^Version: $installed\$"; then
	echo "error: Debian source package dpdk $installed (the installed libdpdk-dev version) is not available; refusing to build against headers of another version" >&2
	exit 1
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/dpdk-src.XXXXXX")
trap 'rm -rf "$work"' EXIT
( cd "$work" && apt-get source -qq --download-only "dpdk=$installed" >/dev/null )
dsc=$(ls "$work"/dpdk_*.dsc)
# Check the version the .dsc declares, not only its file name.
srcver=$(sed -n 's/^Version: //p' "$dsc")
if [ "$srcver" != "$installed" ]; then
	echo "error: source version $srcver != installed libdpdk-dev $installed" >&2
	exit 1
fi
dpkg-source --no-check -x "$dsc" "$work/src" >/dev/null

# The tree's own VERSION must match the upstream part of the package version.
upstream=${installed%%-*}
if [ "$(cat "$work/src/VERSION")" != "$upstream" ]; then
	echo "error: DPDK source VERSION $(cat "$work/src/VERSION") != $upstream" >&2
	exit 1
fi

mkdir -p "$outdir"
for h in $HEADERS; do
	case $h in
	*/)
		mkdir -p "$outdir/$h"
		cp -R "$work/src/$h." "$outdir/$h"
		;;
	*)
		cp "$work/src/$h" "$outdir/"
		;;
	esac
done
echo "$installed" > "$stamp"
echo "DPDK $installed driver SDK headers in $outdir"
