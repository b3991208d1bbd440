#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
#
# The /mlx5/... telemetry endpoints read with the stock dpdk-telemetry.py
# (package dpdk), non-interactively, from two applications:
#   1. the stock dpdk-testpmd on two software devices (vHCAs 3 and 4 of one
#      card): the device list, each device's vHCA id, the MR cache (its
#      mbuf pool), the ethdev port and the SQ/RQ/CQs of its queues, and the
#      error answer of an unknown device;
#   2. test/telemetry_app.c: an export on vHCA 5, a crossing mkey and an
#      alias of it on vHCA 6, a pacing entry: the keys on both sides and
#      the entry.
# Each application gets its own --file-prefix and a private runtime folder
# (RUNTIME_DIRECTORY, which EAL and dpdk-telemetry.py both honour).
#
# The test `telemetry_tool`.
#
# Usage: test/telemetry_tool.sh [--build-dir DIR] [--help]
#   (the drivers of DIR/drivers, the application DIR/test/telemetry_app)
set -u

src=$(cd "$(dirname "$0")/.." && pwd)
. "$src/devtools/cli.sh"
cli_parse "$0" "" "$@"
build=$CLI_BUILD
drivers=$build/drivers
app=$build/test/telemetry_app
testpmd=$(command -v dpdk-testpmd || true)
teltool=/usr/bin/dpdk-telemetry.py
py=/usr/bin/python3
if [ -z "$testpmd" ] || [ ! -x "$teltool" ] || [ ! -x "$py" ]; then
	echo "dpdk-testpmd or $teltool not installed (packages dpdk-dev, dpdk)"
	exit 77
fi

work=$(mktemp -d "${HOME:-/root}/.cache/mlx5-telemetry.XXXXXX" 2>/dev/null ||
	mktemp -d)
chmod 700 "$work"
pid=
cleanup() {
	exec 3>&- 2>/dev/null
	if [ -n "$pid" ]; then
		kill "$pid" 2>/dev/null
		wait "$pid" 2>/dev/null
	fi
	rm -rf "$work"
	remove_plugin_copy 2>/dev/null || true
}
trap cleanup EXIT

# EAL refuses plugins under a world-writable directory: the one helper
# (its copy is removed by cleanup).
# shellcheck source=test/plugin_dir.sh
. "$(dirname "$0")/plugin_dir.sh"
safe_plugin_dir "$drivers"
dir=$plugin_dir

export RUNTIME_DIRECTORY="$work/run"
mkdir -p "$RUNTIME_DIRECTORY"
failed=0

# start <prefix> <command...>: run it with stdin on a fifo (fd 3), wait for
# its telemetry socket.
start() {
	prefix=$1
	shift
	rm -f "$work/in"
	mkfifo "$work/in"
	"$@" <"$work/in" >"$work/$prefix.log" 2>&1 &
	pid=$!
	exec 3>"$work/in"
	sock=$RUNTIME_DIRECTORY/dpdk/$prefix/dpdk_telemetry.v2
	i=0
	while [ ! -S "$sock" ] && [ $i -lt 600 ]; do
		if ! kill -0 "$pid" 2>/dev/null; then
			break
		fi
		sleep 0.1
		i=$((i + 1))
	done
	if [ ! -S "$sock" ]; then
		cat "$work/$prefix.log"
		echo "FAIL: no telemetry socket $sock"
		exit 1
	fi
}

# stop <what to write before closing stdin>
stop() {
	printf '%s\n' "$1" >&3
	exec 3>&-
	wait "$pid"
	rc=$?
	pid=
	return $rc
}

# ask <prefix> <command>...: the answers, one JSON line each.
ask() {
	prefix=$1
	shift
	printf '%s\n' "$@" | "$teltool" -f "$prefix"
}

# check <answers file> <python checks on `a` (list of answers)>
check() {
	"$py" - "$1" "$2" <<'EOF'
import json, sys
a = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
try:
    exec(sys.argv[2])
except AssertionError as e:
    print("FAIL:", e)
    sys.exit(1)
EOF
}

verdict() {
	if [ "$1" = 0 ]; then
		echo "  ok: $2"
	else
		echo "  FAILED: $2"
		failed=$((failed + 1))
	fi
}

echo "1. dpdk-testpmd, mlx5_sim0 (vHCA 3) and mlx5_sim1 (vHCA 4)"
p=mlx5tel$$a
start $p "$testpmd" --no-huge -m 512 --no-pci --no-shconf --file-prefix $p \
	-l 0-1 -d "$dir" --vdev=mlx5_sim0,card=47,vhca_id=3 \
	--vdev=mlx5_sim1,card=47,vhca_id=4 -- -i --total-num-mbufs=4096
# testpmd starts its ports after its prompt: wait for the port's queues.
i=0
while [ $i -lt 100 ]; do
	ask $p "/mlx5/queues,mlx5_sim0" | grep -q '"type": "rq"' && break
	sleep 0.1
	i=$((i + 1))
done
ask $p "/mlx5/devices" "/mlx5/device,mlx5_sim0" "/mlx5/device,mlx5_sim1" \
	"/mlx5/mrs,mlx5_sim0" "/mlx5/queues,mlx5_sim1" "/mlx5/keys,mlx5_sim0" \
	"/mlx5/device,mlx5_sim9" >"$work/answers1"
cat "$work/answers1"
check "$work/answers1" '
assert a[0]["/mlx5/devices"] == ["mlx5_sim0", "mlx5_sim1"], "device list"
for i, v in ((1, 3), (2, 4)):
    d = a[i]["/mlx5/device"]
    assert d["vhca_id"] == v and d["backend"] == "sim", "vhca_id %d" % v
    assert d["classes_loaded"] == "eth", "eth class loaded"
    assert d["ports"]["1"]["up"] == 1, "port 1 up"
m = a[3]["/mlx5/mrs"]
assert m["mrs"] >= 1 and m["mempools"] >= 1, "the mbuf pool is registered"
q = a[4]["/mlx5/queues"]
c = q["class_devices"]["0"]
assert c["kind"] == "ethdev" and c["name"] == "mlx5_sim1" and c["id"] == 1, "port 1 of mlx5_sim1"
types = sorted(e["type"] for e in q["queues"].values())
assert types == ["cq", "cq", "rq", "sq"], "1 Rx and 1 Tx queue: %s" % types
assert a[5]["/mlx5/keys"]["count"] == 0, "no key"
assert "error" in a[6]["/mlx5/device"], "unknown device answered with an error"
'
verdict $? "devices, vHCA ids, MRs, queues, error answer"
stop quit
verdict $? "dpdk-testpmd exits cleanly"

echo "2. telemetry_app: export on vHCA 5, crossing mkey and alias on vHCA 6"
p=mlx5tel$$b
start $p "$app" --no-huge -m 256 --no-pci --no-shconf --file-prefix $p -l 0 \
	--vdev=mlx5_sim0,card=48,vhca_id=5 --vdev=mlx5_sim1,card=48,vhca_id=6
i=0
while ! grep -q '^ready' "$work/$p.log" && [ $i -lt 300 ]; do
	sleep 0.1
	i=$((i + 1))
done
ready=$(grep '^ready' "$work/$p.log")
echo "  $ready"
ask $p "/mlx5/keys,mlx5_sim0" "/mlx5/keys,mlx5_sim1" "/mlx5/pp,mlx5_sim0" \
	"/mlx5/keys,mlx5_sim1,1" >"$work/answers2"
cat "$work/answers2"
check "$work/answers2" "
r = '$ready'.split()
assert len(r) == 7, 'the application is ready'
vhca0, vhca1, mkey, cross, alias, pp = map(int, r[1:])
assert (vhca0, vhca1) == (5, 6), 'vhca ids'
k = a[0]['/mlx5/keys']
assert k['count'] == 1 and k['exported'] == 1 and k['imported'] == 0, 'one export'
e = k['keys']['0']
assert e['kind'] == 'export' and e['mkey'] == mkey and e['len'] == 16384, 'the export'
k = a[1]['/mlx5/keys']
assert k['count'] == 2 and k['imported'] == 2, 'two imports'
got = {(e['kind'], e['mkey'], e['remote_vhca_id'], e['remote_mkey']) for e in k['keys'].values()}
assert got == {('crossing', cross, 5, mkey), ('alias', alias, 5, mkey)}, got
assert 'access' not in str(a[1]), 'no access key shown'
p = a[2]['/mlx5/pp']
assert p['count'] == 1 and p['entries']['0']['index'] == pp, 'the pacing entry'
assert a[3]['/mlx5/keys']['first'] == 1 and list(a[3]['/mlx5/keys']['keys']) == ['1'], 'second page'
"
verdict $? "exported and imported keys, pacing entry"
stop quit
verdict $? "telemetry_app releases everything and exits"

if [ $failed -ne 0 ]; then
	echo "telemetry: $failed check(s) failed"
	exit 1
fi
echo "telemetry: every check passed"
