#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
#
# Install what the project needs on Debian 12 and build it (default into
# ./build). Idempotent: packages already present are not reinstalled, an
# existing build folder is reused. Run as root (or with sudo available).
#
# Usage: devtools/setup.sh [--build-dir DIR] [--help]
# Environment: BUILD_DIR (fallback for --build-dir), MESON_OPTS (extra
# meson options).
set -eu

cd "$(dirname "$0")/.."
. devtools/cli.sh
CLI_BUILD_DIR=${BUILD_DIR:-build}
cli_parse "$0" "" "$@"
BUILD_DIR=$CLI_BUILD_DIR

PACKAGES="libdpdk-dev dpdk-dev dpdk libibverbs-dev rdma-core ibverbs-providers
meson ninja-build python3-pyelftools pkg-config libnuma-dev libssl-dev
dpkg-dev valgrind clang python3-sphinx python3-pyverbs iproute2
g++ clang-format abigail-tools doxygen"

# Without their recommendations (scapy's pull in a plotting stack):
# rdma-core's DevX tests build packets with scapy.
PACKAGES_LEAN="python3-scapy"

SUDO=
if [ "$(id -u)" != 0 ]; then
	SUDO=sudo
fi

# The packages named not installed yet.
missing_of() {
	for p in "$@"; do
		if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
				grep -q "install ok installed"; then
			printf ' %s' "$p"
		fi
	done
}
# shellcheck disable=SC2086
missing=$(missing_of $PACKAGES)
# shellcheck disable=SC2086
lean=$(missing_of $PACKAGES_LEAN)
if [ -n "$missing$lean" ]; then
	echo "setup: installing$missing$lean"
	$SUDO apt-get update -qq
fi
if [ -n "$missing" ]; then
	# shellcheck disable=SC2086
	DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $missing \
		>/dev/null
fi
if [ -n "$lean" ]; then
	# shellcheck disable=SC2086
	DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq \
		--no-install-recommends $lean >/dev/null
fi

# The driver SDK headers come from Debian's source package of the installed
# DPDK version; enabling deb-src needs root once.
$SUDO buildtools/get-dpdk-sdk-headers.sh "$BUILD_DIR/sdk-include"

if [ ! -f "$BUILD_DIR/build.ninja" ]; then
	sdk="$(cd "$BUILD_DIR" && pwd)/sdk-include"
	# shellcheck disable=SC2086
	meson setup "$BUILD_DIR" -Dsdk_headers="$sdk" -Dwerror=true \
		${MESON_OPTS:-} >/dev/null
fi
ninja -C "$BUILD_DIR"
