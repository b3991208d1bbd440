#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
#
# Build the host of the software device's rdma-core front in a folder: its
# devices.conf (one device a line: "<ibdev> <pci address|-> <netdev|->
# <shape>", the shape in the vdev's devargs keys) and the sysfs-shaped tree
# beside it (sys/): a PCI function per device (vendor 0x15b3, the shape's
# device_id, class Ethernet, uevent with PCI_SLOT_NAME, bound to mlx5_core,
# with infiniband/<ibdev>) and sys/class/infiniband/<ibdev>/device on it.
# Then prints the environment that points programs at it:
#   MLX5_SIM_HOST=<dir>                     (the front's devices)
#   SYSFS_PCI_DEVICES=<dir>/sys/bus/pci/devices  (EAL's PCI bus)
#   LD_LIBRARY_PATH=<build>/drivers/common/mlx5/sim/rdma  (the front)
# so that `eval "$(devtools/sim-host.sh DIR)"` sets it.
#
# Usage: devtools/sim-host.sh [--build-dir DIR] [--conf FILE] OUTPUT_DIR
#   --conf FILE  the devices (default: two functions of a ConnectX-6 Dx,
#                card 0, vHCAs 0 and 1 at 0000:08:00.0 and 0000:08:00.1,
#                port 1 of each cabled to the other)
# Time: instant. Used by the test command (test rdma_front_probe).
set -eu
src=$(cd "$(dirname "$0")/.." && pwd)
. "$src/devtools/cli.sh"

cli_conf=
cli_parse "$0" "--conf: ARGS" "$@"
eval "set -- $CLI_REST"
[ $# -eq 1 ] || cli_bad "$0" "${2:-(no OUTPUT_DIR)}"
out=$1
conf=$cli_conf
build=$CLI_BUILD
mkdir -p "$out"
out=$(cd "$out" && pwd)
rm -rf "$out/sys"
if [ -n "$conf" ]; then
	[ "$(cd "$(dirname "$conf")" && pwd)/${conf##*/}" = "$out/devices.conf" ] ||
		cp "$conf" "$out/devices.conf"
else
	cat > "$out/devices.conf" <<'EOF'
# ibdev  PCI address   netdev  shape (the vdev's devargs keys)
mlx5_0   0000:08:00.0  -       card=0,vhca_id=0,wire=1
mlx5_1   0000:08:00.1  -       card=0,vhca_id=1
EOF
fi

pci=$out/sys/bus/pci
mkdir -p "$pci/devices" "$pci/drivers/mlx5_core" "$out/sys/class/infiniband"
grep -v '^[[:space:]]*\(#\|$\)' "$out/devices.conf" |
while read -r ibdev addr netdev shape; do
	[ -n "$ibdev" ] || continue
	ibd=$out/sys/class/infiniband/$ibdev
	mkdir -p "$ibd"
	if [ "$addr" != - ]; then
		d=$pci/devices/$addr
		id=$(printf '%s\n' "$shape" | tr ',' '\n' |
			sed -n 's/^device_id=//p' | tail -n 1)
		id=$(printf '0x%04x' "${id:-0x101d}")
		mkdir -p "$d/infiniband/$ibdev"
		echo 0x15b3 > "$d/vendor"
		echo "$id" > "$d/device"
		echo 0x15b3 > "$d/subsystem_vendor"
		echo 0x0016 > "$d/subsystem_device"
		echo 0x020000 > "$d/class"
		echo -1 > "$d/numa_node"
		# No BAR to map: mlx5 reaches the device through rdma-core.
		for _ in 1 2 3 4 5 6; do
			echo "0x0000000000000000 0x0000000000000000 0x0000000000000000"
		done > "$d/resource"
		printf 'DRIVER=mlx5_core\nPCI_CLASS=20000\nPCI_ID=15B3:%s\nPCI_SLOT_NAME=%s\n' \
			"$(echo "${id#0x}" | tr a-f A-F)" "$addr" > "$d/uevent"
		ln -s ../../drivers/mlx5_core "$d/driver"
		ln -s "$d" "$ibd/device"
	fi
	if [ "$netdev" != - ] && [ "$addr" != - ]; then
		mkdir -p "$pci/devices/$addr/net/$netdev"
	fi
done

echo "MLX5_SIM_HOST=$out; export MLX5_SIM_HOST"
echo "SYSFS_PCI_DEVICES=$pci/devices; export SYSFS_PCI_DEVICES"
echo "LD_LIBRARY_PATH=$build/drivers/common/mlx5/sim/rdma\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}; export LD_LIBRARY_PATH"
