#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# netdev-if-vm.sh - the interfaces held to what a network driver owes the
# stack, in the VM, as TAP:
#  - NAPI: a kthread per interface while it is up (napi/hnN-I, threaded
#    1), none while it is down; frames flow in softirq mode too
#    (threaded 0);
#  - drops: each kind counted in /proc/net/dev (tx_dropped, rx_dropped)
#    and by reason in ethtool -S, and, when the kernel traces, freed with
#    the closest drop reason (the kfree_skb tracepoint, which drop monitor
#    reads);
#  - software transmit timestamps (skb_tx_timestamp());
#  - BQL: tx-0's byte_queue_limits has bytes in flight while a UDP flood
#    outruns a slow fabric, none once it is quiet, and a limit learnt.
# Debian's ip runs as ipr with the link kind's plugin.  Loads and unloads
# the module (HN_KO).

KO=${HN_KO:-/lib/hn/hybridnet.ko}
NODES=/sys/class/hybridnet/fabric0/nodes
n=0
fails=0

# shellcheck disable=SC2034 # netns-lib.sh uses them
pids=

. "$(dirname "$0")/netns-lib.sh"

# sysfs as namespaces A and B see it (sysfs shows its mounter's)
SA=/tmp/nd-sys-a
SB=/tmp/nd-sys-b
mkdir -p $SA $SB
TR=/sys/kernel/tracing

# ethtool -S's STAT of hnN in namespace P: eths P N STAT
eths() { in_ns "$1" hn_ethtool "hn$2" "$3"; }

# the NAPI kthreads of interface $1
napi_threads() { ps -o comm | grep -c "^napi/$1-"; }

napi_up_down() {
	ip link set hn2 up && t=$(cat /sys/class/net/hn2/threaded) &&
	up=$(napi_threads hn2) && ip link set hn2 down &&
	down=$(napi_threads hn2)
	echo "threaded $t, napi/hn2 kthreads: up $up, down $down"
	[ "$t" = 1 ] && [ "$up" -eq 1 ] && [ "$down" -eq 0 ]
}

softirq_ping() {
	echo 0 >$SA/class/net/hn0/threaded && echo 0 >$SB/class/net/hn1/threaded &&
	echo "napi/hn1 kthreads in softirq mode: $(napi_threads hn1)" &&
	in_ns "$A" ping -c 2 -W 5 10.0.0.2 &&
	echo 1 >$SA/class/net/hn0/threaded && echo 1 >$SB/class/net/hn1/threaded &&
	in_ns "$A" ping -c 2 -W 5 10.0.0.2
}

# grew P N COUNTER STAT K CMD...: CMD makes hnN (namespace P, "-" for
# here) count K more in /proc/net/dev's COUNTER and ethtool -S's STAT
grew() {
	p=$1 nd=$2 c=$3 st=$4 k=$5
	shift 5
	if [ "$p" = - ]; then
		c0=$(cat /sys/class/net/hn$nd/statistics/$c) s0=$(hn_ethtool hn$nd $st)
	else
		c0=$(ifc "$p" hn$nd $c) s0=$(eths "$p" $nd $st)
	fi
	"$@"
	sleep 0.5
	if [ "$p" = - ]; then
		c1=$(cat /sys/class/net/hn$nd/statistics/$c) s1=$(hn_ethtool hn$nd $st)
	else
		c1=$(ifc "$p" hn$nd $c) s1=$(eths "$p" $nd $st)
	fi
	echo "hn$nd $c $c0 -> $c1, $st $s0 -> $s1"
	[ "$c1" -eq $((c0 + k)) ] && [ "$s1" -eq $((s0 + k)) ]
}

ping_nowhere() {
	in_ns "$A" ipr neigh replace 10.0.0.9 lladdr 02:68:6e:00:00:09 \
		dev hn0 nud permanent &&
	! in_ns "$A" ping -c 3 -W 1 10.0.0.9
}

# the tracepoint's reasons: traced REASON AT_LEAST
traced() {
	k=$(grep -c "reason: $1\$" $TR/trace)
	echo "kfree_skb with reason $1: $k"
	[ "$k" -ge "$2" ]
}

check "insmod nodes=4, hn0..hn2 (node 3 for a file)" load_links 3 nodes=4

# ---- NAPI ------------------------------------------------------------------
check "NAPI: threaded by default, a kthread while up, none while down" napi_up_down
check "two namespaces, static neighbours, the fabric quiet" setup_pair
check "their sysfs" sh -c "
	nsenter -t $A -n mount -t sysfs none $SA &&
	nsenter -t $B -n mount -t sysfs none $SB"
check "ping, threaded NAPI" in_ns "$A" ping -c 2 -W 5 10.0.0.2
check "ping, NAPI in softirq (threaded 0 both ends), then threaded again" softirq_ping

# ---- drops -----------------------------------------------------------------
tracing=
{ [ -d $TR/events/skb ] || mount -t tracefs none $TR 2>/dev/null; } &&
	[ -d $TR/events/skb/kfree_skb ] && tracing=1
if [ -n "$tracing" ]; then
	echo >$TR/trace
	echo 1 >$TR/events/skb/kfree_skb/enable
fi
mtu=$(($(cat /sys/class/hybridnet/fabric0/config/max_msg_bytes) - 14))
check "a MAC that names no node (node 9 of 4): tx_dropped, tx_drop_no_node" \
	grew "$A" 0 tx_dropped tx_drop_no_node 3 ping_nowhere
check "a frame over max_msg_bytes (a VLAN tag on a full MTU): tx_dropped, tx_drop_too_big" \
	grew "$A" 0 tx_dropped tx_drop_too_big 1 in_ns "$A" nd_probe raw hn0 $((mtu + 18)) 1
check "a file's message shorter than an Ethernet header: rx_dropped, rx_drop_short" \
	grew "$B" 1 rx_dropped rx_drop_short 1 nd_probe short 3 1 10
check "a message for an interface that is down: rx_dropped, rx_drop_down" \
	grew - 2 rx_dropped rx_drop_down 1 nd_probe short 3 2 60
if [ -n "$tracing" ]; then
	echo 0 >$TR/events/skb/kfree_skb/enable
	check "drop monitor's tracepoint: no node as IP_OUTNOROUTES" traced IP_OUTNOROUTES 3
	check "drop monitor's tracepoint: too big as PKT_TOO_BIG" traced PKT_TOO_BIG 1
else
	echo "# no kfree_skb tracepoint in this kernel: the drop reasons are not looked at"
fi

# ---- priority ------------------------------------------------------------------
# prio_through PRIO WANT: a frame from hn0 at SO_PRIORITY PRIO to node 3,
# which a file holds, reaches the file with WANT in its header's flags
prio_through() {
	rm -f /tmp/prio.out
	nd_probe recv 3 > /tmp/prio.out &
	pid=$!
	for _ in $(seq 50); do
		grep -q bound /tmp/prio.out 2>/dev/null && break
		sleep 0.1
	done
	in_ns "$A" nd_probe raw hn0 64 3 "$1" > /dev/null || return 1
	wait $pid || return 1
	grep -qx "flags $2" /tmp/prio.out
}
check "SO_PRIORITY 3: the message's priority, the reader's header flags" \
	prio_through 3 3
check "SO_PRIORITY 20: priority 14, 15 being the fabric's own" \
	prio_through 20 14

# ---- transmit timestamps -------------------------------------------------------
check "SO_TIMESTAMPING: a software transmit timestamp (skb_tx_timestamp)" \
	in_ns "$A" nd_probe tstamp 10.0.0.2 9
check "rmmod" rmmod hybridnet
cleanup_ns
umount $SA $SB 2>/dev/null

# ---- BQL -----------------------------------------------------------------------
# paced at 1:1 with 10 Mb/s links: a datagram of 1000 bytes takes about
# 1 ms of the fabric, so udpflood outruns it and the NIC stays full
BQ=$SA/class/net/hn0/queues/tx-0/byte_queue_limits

bql_flood() {
	in_ns "$B" udpflood recv 9000 3000 >/dev/null 2>&1 &
	r=$!
	in_ns "$A" udpflood send 10.0.0.2 9000 300 1000 >/dev/null &
	s=$!
	most=0
	while kill -0 $s 2>/dev/null; do
		i=$(cat $BQ/inflight)
		[ "$i" -gt $most ] && most=$i
		sleep 0.01
	done
	wait $r
	echo "most in flight $most, limit $(cat $BQ/limit)"
	[ $most -gt 0 ]
}

check "insmod nodes=2 clock=paced pace_ppm=1000000 link_mbps=10, slots of 100 us, hn0 and hn1" \
	load_links 2 nodes=2 clock=paced pace_ppm=1000000 link_mbps=10 \
	slot_p_ns=100000 slot_w_ns=100000
check "two namespaces, static neighbours, the fabric quiet" setup_pair
check "A's sysfs" nsenter -t "$A" -n mount -t sysfs none $SA
check "BQL at rest: nothing in flight" sh -c "grep . $BQ/*; [ \$(cat $BQ/inflight) -eq 0 ]"
check "BQL during a flood: bytes in flight" bql_flood
check "BQL once the fabric is quiet: nothing in flight, a limit learnt" sh -c "
	sleep 1; grep . $BQ/*; [ \$(cat $BQ/inflight) -eq 0 ] && [ \$(cat $BQ/limit) -gt 0 ]"
check "rmmod after the flood" rmmod hybridnet
cleanup_ns
umount $SA 2>/dev/null

echo "1..$n"
[ $fails -eq 0 ]
