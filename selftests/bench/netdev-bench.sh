#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# netdev-bench.sh - make bench-netdev, in the VM: iperf3 TCP and UDP
# throughput through two interfaces, hn0 and hn1 (free clock, the
# default fabric) against a veth pair, in the same VM and the same run,
# each pair across two network namespaces.  Prints one line per test
# and the ratio hybridnet / veth.  Loads and unloads the module (HN_KO).

KO=${HN_KO:-/lib/hn/hybridnet.ko}
# shellcheck disable=SC2034 # netns-lib.sh uses it
NODES=/sys/class/hybridnet/fabric0/nodes
SECS=${HN_BENCH_SECONDS:-5}
# shellcheck disable=SC2034 # netns-lib.sh uses them
pids=
. "$(dirname "$0")/netns-lib.sh"

# Debian's veth is a module of the initramfs (HN_VM_KMODS); the debug
# kernel has it built in
[ -d /sys/module/veth ] || insmod /lib/hn/kmod/veth.ko 2>/dev/null

# iperf3 from namespace $1 to $3 in namespace $2, $4 tcp or udp; prints
# the receiver's Mb/s, and for UDP the share of datagrams lost (the
# sender offers 1 Gb/s in 1400-byte datagrams: the qdisc drops the rest)
rate() {
	in_ns "$2" iperf3 -s -1 -B "$3" >/dev/null 2>&1 &
	sp=$!
	sleep 1
	a=$1 ip=$3 proto=$4
	if [ "$proto" = udp ]; then
		set -- -u -b 1G -l 1400
	else
		set --
	fi
	in_ns "$a" iperf3 -c "$ip" -t "$SECS" -f m "$@" >/tmp/nb-$proto.out 2>&1
	wait $sp
	awk '/receiver/ { for (i = 1; i < NF; i++) if ($(i + 1) == "Mbits/sec") r = $i
			  if (match($0, /\([0-9.e+-]+%\)/)) l = substr($0, RSTART + 1, RLENGTH - 3) }
	     END { print r + 0, (l == "" ? "-" : l "%") }' /tmp/nb-$proto.out
}

load_links 2 nodes=2 || exit 1
mtu=$(($(cat /sys/class/hybridnet/fabric0/config/max_msg_bytes) - 14))
setup_pair >/dev/null || { echo "setup failed"; exit 1; }
C=$(mkns)
D=$(mkns)
pids="$pids $C $D"
ipr link add vb0 netns "$C" type veth peer name vb1 netns "$D" || exit 1
in_ns "$C" ipr addr add 10.1.0.1/24 dev vb0
in_ns "$D" ipr addr add 10.1.0.2/24 dev vb1
in_ns "$C" ipr link set vb0 up
in_ns "$D" ipr link set vb1 up
in_ns "$C" ping -c 1 -W 5 10.1.0.2 >/dev/null

echo "# kernel $(uname -r), $(grep -c ^processor /proc/cpuinfo) CPUs, iperf3 $SECS s each, MTU hn $mtu, veth 1500"
for proto in tcp udp; do
	# shellcheck disable=SC2046 # the words wanted
	set -- $(rate "$A" "$B" 10.0.0.2 $proto)
	h=$1 hl=$2
	grep -E 'sender|receiver' /tmp/nb-$proto.out | sed 's/^/# hybridnet: /'
	# shellcheck disable=SC2046 # the words wanted
	set -- $(rate "$C" "$D" 10.1.0.2 $proto)
	v=$1 vl=$2
	grep -E 'sender|receiver' /tmp/nb-$proto.out | sed 's/^/# veth: /'
	awk -v p=$proto -v h="$h" -v v="$v" -v hl="$hl" -v vl="$vl" 'BEGIN {
		printf "%s: hybridnet %.0f Mb/s, veth %.0f Mb/s, ratio %.3f", p, h, v,
			v ? h / v : 0
		if (p == "udp") printf " (lost: hybridnet %s, veth %s)", hl, vl
		printf "\n" }'
done
cleanup_ns
rmmod hybridnet
