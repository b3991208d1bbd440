# SPDX-License-Identifier: BSD-3-Clause
#
# Sourced, not run: shell functions for the scripts that drive an
# interactive dpdk-testpmd through a pipe (test/run-testpmd.sh,
# test/run-multiprocess.sh, test/run-testpmd-pci.sh,
# devtools/run-upstream-pmds.sh, devtools/build-in-dpdk.sh).
# They set $out (testpmd's output file) and $testpmd_ready (a command that
# succeeds once the traffic being checked is there).
#
# Traffic is checked once it is there, not after a fixed time: on a busy
# machine (two meson tests at a time, a compiler in parallel) the kernel
# may give testpmd's forwarding thread a few percent of a CPU for
# seconds, so a fixed window finds a few hundred packets where an idle
# machine finds millions. A real stall stays under the mark however long
# testpmd runs, and still fails after TESTPMD_WAIT_MAX seconds.

# shellcheck disable=SC2034,SC2154  # set here, used by the sourcing script
TESTPMD_WAIT_MAX=${TESTPMD_WAIT_MAX:-60}

# check <status> <what>: count a check (0: passed) and print it; the
# sourcing script prints "<name>: $passed checks passed, $failed failed".
passed=0
failed=0
check() {
	if [ "$1" = 0 ]; then
		passed=$((passed + 1))
		echo "  ok: $2"
	else
		failed=$((failed + 1))
		echo "  FAILED: $2"
	fi
}

# testpmd's stdout line-buffered (the checks read it while it runs), when
# coreutils' stdbuf is there; without it the wait runs to its end.
testpmd_linebuf=$(command -v stdbuf >/dev/null 2>&1 && echo "stdbuf -oL")

# The value of field $2 (e.g. RX-packets:) of port $1's last NIC block.
testpmd_stat() {
	awk -v port="$1" -v key="$2" '
	/NIC statistics for port/ { p = $(NF - 1); next }
	/^ *#+ *$/ { p = -1 }
	p == port { for (i = 1; i < NF; i++) if ($i == key) v[p] = $(i + 1) }
	END { printf "%.0f\n", v[port] + 0 }' "$out"
}

# The value of xstat $2 of port $1 (its last listing) in file $3, $out by
# default (testpmd's and dpdk-proc-info's listings alike).
testpmd_xstat() {
	awk -v port="$1" -v key="$2:" '
	/NIC extended statistics for port/ {
		for (i = 1; i < NF; i++) if ($i == "port") p = $(i + 1) }
	p == port && $1 == key { v = $2 }
	END { printf "%.0f\n", v + 0 }' "${3:-$out}"
}

# Commands for testpmd's stdin: $1 (';'-separated), then each second $2's
# until $testpmd_ready succeeds or TESTPMD_WAIT_MAX seconds passed, then
# $3's: the measure and the end ("...;stop;quit").
testpmd_feed() {
	printf '%s\n' "$1" | tr ';' '\n'
	i=0
	while [ "$i" -lt "$TESTPMD_WAIT_MAX" ]; do
		sleep 1
		printf '%s\n' "$2" | tr ';' '\n'
		# What testpmd printed for the commands of the second before.
		i=$((i + 1))
		if $testpmd_ready; then
			echo "  (the traffic was there after $i s)" >&2
			break
		fi
	done
	[ "$i" -lt "$TESTPMD_WAIT_MAX" ] ||
		echo "  (no traffic as checked after $i s)" >&2
	printf '%s\n' "$3" | tr ';' '\n'
}

# Two checks a port (0 and 1, last NIC blocks of $out): more than 10,000
# packets each way, and no error. The 32 frames of start tx_first go
# round for seconds: a stalled queue stops at a few hundred packets, a
# working one reaches millions.
testpmd_check_moving() {
	for p in 0 1; do
		rx=$(testpmd_stat $p RX-packets:)
		tx=$(testpmd_stat $p TX-packets:)
		errs=$(( $(testpmd_stat $p RX-errors:) + \
			 $(testpmd_stat $p TX-errors:) ))
		echo "  port $p: RX $rx TX $tx errors $errs"
		[ "$rx" -gt 10000 ] && [ "$tx" -gt 10000 ]
		check $? "port $p moves packets (more than 10,000: no stall)"
		[ "$errs" -eq 0 ]; check $? "port $p: no error"
	done
}

# Both ports moved more than $1 packets each way (last NIC blocks).
testpmd_moved() {
	for p in 0 1; do
		[ "$(testpmd_stat $p RX-packets:)" -gt "$1" ] &&
			[ "$(testpmd_stat $p TX-packets:)" -gt "$1" ] || return 1
	done
}

# testpmd_netns <name> <script> [args...]: run <script> (with args) again in a
# network namespace of its own (SIM_TESTPMD_NS set there) that can hold
# veth netdevs, or exit 77 (skipped) where the machine gives none; then
# set $testpmd to Debian's dpdk-testpmd (exit 1 if not installed).
testpmd_netns() {
	name=$1
	script=$2
	shift 2
	if [ -z "${SIM_TESTPMD_NS:-}" ]; then
		if ! unshare -n true 2>/dev/null; then
			echo "$name: skipped: no network namespace here (unshare -n needs CAP_SYS_ADMIN)"
			exit 77
		fi
		SIM_TESTPMD_NS=1 exec unshare -n "$script" "$@"
	fi
	if ! ip link add simprobe0 type veth peer name simprobe1 2>/dev/null
	then
		echo "$name: skipped: no veth in this network namespace"
		exit 77
	fi
	ip link del simprobe0
	testpmd=$(command -v dpdk-testpmd || true)
	if [ -z "$testpmd" ]; then
		echo "$name: dpdk-testpmd not installed (package dpdk)"
		exit 1
	fi
}

# testpmd_host <dir> <card> <device_id> <build>: two functions of card
# <card> (device id <device_id>) at 0000:08:00.0 and 0000:08:00.1, cabled
# to each other, their veth netdevs simeth0 and simeth1: the host tree in
# <dir> (devtools/sim-host.sh) and the environment that points EAL and
# the rdma-core front at it; $out is <dir>/testpmd.log.
testpmd_host() {
	mkdir -p "$1"
	printf '%s\n' \
		"mlx5_0 0000:08:00.0 simeth0 card=$2,vhca_id=0,wire=1,device_id=$3" \
		"mlx5_1 0000:08:00.1 simeth1 card=$2,vhca_id=1,device_id=$3" \
		>"$1/devices.conf"
	eval "$(devtools/sim-host.sh --build-dir "$4" --netdevs \
		--conf "$1/devices.conf" "$1")"
	out=$1/testpmd.log
}
