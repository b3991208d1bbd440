#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
#
# Build the host of the software device's rdma-core front in a folder: its
# devices.conf (one device a line: "<ibdev> <pci address|-> <netdev|->
# <shape>", the shape in the vdev's devargs keys) and the sysfs-shaped tree
# beside it (sys/): a PCI function per device (vendor 0x15b3, the shape's
# device_id, class Ethernet, uevent with PCI_SLOT_NAME, bound to mlx5_core,
# with infiniband/<ibdev>) and sys/class/infiniband/<ibdev>/device on it;
# an address "auxiliary:mlx5_core.sf.<n>" makes a sub-function instead
# (sys/bus/auxiliary/devices/<name>: EAL reads it only from
# /sys/bus/auxiliary/devices, so a test mounts it there in a mount
# namespace of its own, test/run-rdma-front.sh).
# Then prints the environment that points programs at it:
#   MLX5_SIM_HOST=<dir>                     (the front's devices)
#   SYSFS_PCI_DEVICES=<dir>/sys/bus/pci/devices  (EAL's PCI bus)
#   LD_LIBRARY_PATH=<build>/drivers/common/mlx5/sim/rdma  (the front)
# so that `eval "$(devtools/sim-host.sh DIR)"` sets it.
#
# With --netdevs, the devices' netdevs are made too, in the current
# network namespace (CAP_NET_ADMIN: run it in the test's own, `unshare
# -n`): a veth pair for two devices whose ports are cabled to each other
# (wire=), a dummy for any other; each up, and listed in sysfs as the
# function's (net/<ifname>/dev_port 0). The front gives each the vport's
# MAC and follows its MTU and state (sim_rdma_netdev.c).
#
# Usage: devtools/sim-host.sh [--build-dir DIR] [--conf FILE] [--netdevs]
#                             OUTPUT_DIR
#   --conf FILE  the devices (default: two functions of a ConnectX-6 Dx,
#                card 0, vHCAs 0 and 1 at 0000:08:00.0 and 0000:08:00.1,
#                port 1 of each cabled to the other; netdevs simeth0 and
#                simeth1)
# Time: instant. Used by the test command (test rdma_front_probe).
set -eu
src=$(cd "$(dirname "$0")/.." && pwd)
. "$src/devtools/cli.sh"

cli_conf=
cli_netdevs=
cli_parse "$0" "--conf: --netdevs ARGS" "$@"
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
mlx5_0   0000:08:00.0  simeth0 card=0,vhca_id=0,wire=1
mlx5_1   0000:08:00.1  simeth1 card=0,vhca_id=1
EOF
fi

pci=$out/sys/bus/pci
mkdir -p "$pci/devices" "$pci/drivers/mlx5_core" "$out/sys/class/infiniband" \
	"$out/sys/bus/auxiliary/devices"
grep -v '^[[:space:]]*\(#\|$\)' "$out/devices.conf" |
while read -r ibdev addr netdev shape; do
	[ -n "$ibdev" ] || continue
	ibd=$out/sys/class/infiniband/$ibdev
	mkdir -p "$ibd"
	case $addr in
	auxiliary:*)
		# A sub-function: an auxiliary device with its RDMA device.
		a=$out/sys/bus/auxiliary/devices/${addr#auxiliary:}
		mkdir -p "$a/infiniband/$ibdev"
		echo -1 > "$a/numa_node"
		printf 'DRIVER=mlx5_core.sf\nMODALIAS=auxiliary:%s\n' \
			"$(echo "${addr#auxiliary:}" | sed 's/\.[0-9]*$//')" \
			> "$a/uevent"
		ln -s "$a" "$ibd/device"
		continue ;;
	esac
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
		echo 0 > "$pci/devices/$addr/net/$netdev/dev_port"
	fi
done

# The netdevs: "<netdev> <card> <vhca_id> <wire target or ->" a line, then
# a veth for each pair naming each other (or one naming the other), a
# dummy for the rest.
if [ -n "$cli_netdevs" ]; then
	grep -v '^[[:space:]]*\(#\|$\)' "$out/devices.conf" | awk '
	$3 != "-" {
		card = 0; id = NR - 1; wire = "-"
		n = split($4, kv, ",")
		for (i = 1; i <= n; i++) {
			split(kv[i], p, "=")
			if (p[1] == "card") card = p[2] + 0
			if (p[1] == "vhca_id") id = p[2] + 0
			if (p[1] == "wire" && p[2] ~ /^[0-9]/) {
				split(p[2], w, ":"); wire = w[1] + 0
			}
		}
		print $3, card, id, wire
	}' > "$out/netdevs"
	made=
	while read -r nd card id wire; do
		case " $made " in *" $nd "*) continue ;; esac
		peer=$(awk -v c="$card" -v i="$id" -v w="$wire" -v me="$nd" '
			$1 != me && $2 == c && ($3 == w || $4 == i) { print $1; exit }' \
			"$out/netdevs")
		ip link del "$nd" 2>/dev/null || true
		if [ -n "$peer" ]; then
			ip link del "$peer" 2>/dev/null || true
			ip link add "$nd" type veth peer name "$peer"
			ip link set "$peer" up
			made="$made $peer"
		else
			ip link add "$nd" type dummy
		fi
		ip link set "$nd" up
		made="$made $nd"
	done < "$out/netdevs"
fi

echo "MLX5_SIM_HOST=$out; export MLX5_SIM_HOST"
echo "SYSFS_PCI_DEVICES=$pci/devices; export SYSFS_PCI_DEVICES"
echo "LD_LIBRARY_PATH=$build/drivers/common/mlx5/sim/rdma\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}; export LD_LIBRARY_PATH"
