#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# netdev-vm.sh - the network interfaces of netdevs=1 (kmod/netdev.c), in
# the VM, as TAP: one interface per node with its documented MAC, two
# network namespaces (busybox unshare, nsenter and ip) pinging each other
# over the fabric both ways, the per-mode counters of sysfs moving
# (wormhole, then circuit with preload=shift), broadcasts to interfaces
# that are down counted as drops, a file refused a node with an
# interface, the rebuild refused with the reason, interfaces given back
# when their namespace ends, and the unload with interfaces in other
# namespaces.  Loads and unloads
# the module itself (HN_KO).

KO=${HN_KO:-/lib/hn/hybridnet.ko}
NODES=/sys/class/misc/hybridnet/nodes
n=0
fails=0
pids=

check() {
	name=$1
	shift
	n=$((n + 1))
	if "$@" >/tmp/nd.out 2>&1; then
		echo "ok $n - $name"
	else
		fails=$((fails + 1))
		sed 's/^/# /' /tmp/nd.out
		echo "not ok $n - $name"
	fi
}

# a process in a network namespace of its own; prints its pid
mkns() {
	unshare -n sleep 1000 </dev/null >/dev/null 2>&1 &
	p=$!
	i=0
	while [ "$(readlink /proc/$p/ns/net)" = "$(readlink /proc/self/ns/net)" ] &&
	      [ $i -lt 100 ]; do
		sleep 0.01
		i=$((i + 1))
	done
	echo $p
}

# in PID's namespace: CMD...
in_ns() {
	p=$1
	shift
	nsenter -t "$p" -n "$@"
}

# node N's messages of MODE (circuit or wormhole) sent
tx_msgs() { cat $NODES/$1/tx_msgs_$2; }

# hn0 into namespace A as 10.0.0.1, hn1 into B as 10.0.0.2
setup_pair() {
	A=$(mkns)
	B=$(mkns)
	pids="$pids $A $B"
	ip link set hn0 netns "$A" && ip link set hn1 netns "$B" &&
	in_ns "$A" ip addr add 10.0.0.1/24 dev hn0 &&
	in_ns "$A" ip link set hn0 up &&
	in_ns "$B" ip addr add 10.0.0.2/24 dev hn1 &&
	in_ns "$B" ip link set hn1 up
}

# ping both ways, 3 each; the sender's MODE messages must move
ping_pair() {
	mode=$1
	c0=$(tx_msgs 0 "$mode")
	c1=$(tx_msgs 1 "$mode")
	in_ns "$A" ping -c 3 -W 5 10.0.0.2 || return 1
	in_ns "$B" ping -c 3 -W 5 10.0.0.1 || return 1
	echo "node 0 $mode: $c0 -> $(tx_msgs 0 "$mode"), node 1: $c1 -> $(tx_msgs 1 "$mode")"
	[ "$(tx_msgs 0 "$mode")" -ge $((c0 + 6)) ] &&
	[ "$(tx_msgs 1 "$mode")" -ge $((c1 + 6)) ]
}

cleanup_ns() {
	for p in $pids; do
		kill "$p" 2>/dev/null
	done
	wait 2>/dev/null
	pids=
}

check "insmod netdevs=1 nodes=4" insmod "$KO" netdevs=1 nodes=4
check "hn0..hn3, MAC 02:68:6e:00:00:NN of node NN" sh -c '
	for i in 0 1 2 3; do
		a=$(cat /sys/class/net/hn$i/address); echo "hn$i $a"
		[ "$a" = "02:68:6e:00:00:0$i" ] || exit 1
	done'
check "MTU: max_msg_bytes less the Ethernet header" sh -c '
	m=$(cat /sys/class/misc/hybridnet/config/max_msg_bytes)
	echo "max_msg_bytes $m, mtu $(cat /sys/class/net/hn0/mtu)"
	[ "$(cat /sys/class/net/hn0/mtu)" -eq $((m - 14)) ]'
check "a file cannot bind a node that has an interface" sh -c '
	for i in 0 3; do
		out=$(timeout 5 hn_hold $i 2>&1); rc=$?; echo "$out"
		[ $rc -eq 1 ] && echo "$out" | grep -q "cannot bind node $i" || exit 1
	done'
check "a rebuild is refused while interfaces hold the nodes, with the reason" sh -c '
	out=$(hnctl set nodes 8 2>&1); rc=$?; echo "$out"
	[ $rc -ne 0 ] && echo "$out" | grep -q "a file or an interface is bound to a node"'
check "two namespaces, hn0 and hn1 configured" setup_pair
check "ping both ways as wormhole messages" ping_pair wormhole
check "broadcasts to hn2, which is down, counted as its rx_dropped" sh -c '
	d=$(cat /sys/class/net/hn2/statistics/rx_dropped); echo "hn2 rx_dropped $d"
	[ "$d" -ge 1 ]'
# /proc/net/dev is the reader's namespace's (sysfs is the mounter's)
check "hn0 counted its frames in its namespace" sh -c "
	nsenter -t $A -n cat /proc/net/dev
	t=\$(nsenter -t $A -n sed -n 's/^ *hn0: *//p' /proc/net/dev |
	    awk '{ print \$10 }')
	[ \"\$t\" -ge 6 ]"
check "rmmod with the interfaces in other namespaces" rmmod hybridnet
check "module gone" sh -c '! test -e /sys/module/hybridnet'
cleanup_ns

check "insmod netdevs=1 nodes=4 preload=shift" insmod "$KO" netdevs=1 nodes=4 preload=shift
check "two namespaces again" setup_pair
check "ping both ways as circuit messages" ping_pair circuit
check "rmmod with preloaded circuits and interfaces in namespaces" rmmod hybridnet
cleanup_ns

# a namespace that ends gives its interfaces back to the initial one
check "insmod for namespaces that end" insmod "$KO" netdevs=1 nodes=4
check "two namespaces, then they end" setup_pair
cleanup_ns
check "hn0 and hn1 back in the initial namespace" sh -c '
	i=0
	while ! { test -e /sys/class/net/hn0 && test -e /sys/class/net/hn1; } &&
	      [ $i -lt 500 ]; do
		sleep 0.01; i=$((i + 1))
	done
	ls /sys/class/net; test -e /sys/class/net/hn0 && test -e /sys/class/net/hn1'
check "rmmod after the namespaces ended" rmmod hybridnet

i=0
while [ $i -lt 5 ]; do
	insmod "$KO" netdevs=1 nodes=4 && setup_pair &&
		in_ns "$A" ping -c 1 -W 5 10.0.0.2 >/dev/null && rmmod hybridnet || break
	cleanup_ns
	i=$((i + 1))
done
check "load, ping and unload 5 times" [ $i -eq 5 ]
cleanup_ns
[ -e /sys/module/hybridnet ] && rmmod hybridnet

echo "1..$n"
[ $fails -eq 0 ]
