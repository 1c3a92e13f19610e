#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# netdev-vm.sh - the network interfaces (kmod/netdev.c), in the VM, as
# TAP.  One interface per node (Debian's ip with the link kind's plugin)
# with its documented MAC, two network namespaces (busybox unshare,
# nsenter and ip) pinging each other over the fabric both ways, the
# per-mode counters of sysfs and of ethtool -S (hn_ethtool) moving
# (wormhole, then circuit with preload=shift), broadcasts to interfaces
# that are down counted as drops, a file refused a node with an
# interface, the rebuild refused with the reason, interfaces given back
# when their namespace ends, and the unload with interfaces in other
# namespaces.  The plugin: node and fabric shown by ip -d, its help, its
# refusals.  The link kind refused to an unprivileged user in a user
# namespace of its own, which claims nothing.  At run time: add and
# delete by hnctl and by ip, the refusals and their messages, EBUSY both
# ways, a file and interfaces on one fabric, add/del against rebuilds,
# binds and the unload, add/del/unload 20 times; a flood into a slow
# file with a small msg_mem_max_bytes (nd_flood), held back, not lost.
# Loads and unloads the module itself (HN_KO).

KO=${HN_KO:-/lib/hn/hybridnet.ko}
NODES=/sys/class/hybridnet/fabric0/nodes
n=0
fails=0

# shellcheck disable=SC2034 # netns-lib.sh uses them
pids=

. "$(dirname "$0")/netns-lib.sh"

# node N's messages of MODE (circuit or wormhole) sent
tx_msgs() { cat $NODES/$1/tx_msgs_$2; }

# ethtool -S's STAT of hnN, in namespace PID: nd_stat PID N STAT
nd_stat() { nsenter -t "$1" -n hn_ethtool "hn$2" "$3"; }

# refused MESSAGE CMD...: CMD fails with status 2 and says MESSAGE
refused() {
	msg=$1
	shift
	out=$("$@" 2>&1)
	rc=$?
	echo "$out (status $rc)"
	[ $rc -eq 2 ] && echo "$out" | grep -qF "$msg"
}

# wait until FILE says "held"
held() {
	i=0
	while ! grep -q held "$1" 2>/dev/null && [ $i -lt 500 ]; do
		sleep 0.01
		i=$((i + 1))
	done
	grep -q held "$1"
}

# hn0 into namespace A as 10.0.0.1, hn1 into B as 10.0.0.2, neighbours
# found by ARP (netns-lib.sh's setup_pair makes them static)
setup_pair_arp() {
	A=$(mkns)
	B=$(mkns)
	pids="$pids $A $B"
	ip link set hn0 netns "$A" && ip link set hn1 netns "$B" &&
	in_ns "$A" ip addr add 10.0.0.1/24 dev hn0 &&
	in_ns "$A" ip link set hn0 up &&
	in_ns "$B" ip addr add 10.0.0.2/24 dev hn1 &&
	in_ns "$B" ip link set hn1 up
}

# ping both ways, 3 each; the sender's MODE messages must move, in sysfs
# and in ethtool -S; so must their latency
ping_pair() {
	mode=$1
	c0=$(tx_msgs 0 "$mode")
	c1=$(tx_msgs 1 "$mode")
	e0=$(nd_stat "$A" 0 "tx_msgs_$mode")
	e1=$(nd_stat "$B" 1 "rx_msgs_$mode")
	in_ns "$A" ping -c 3 -W 5 10.0.0.2 || return 1
	in_ns "$B" ping -c 3 -W 5 10.0.0.1 || return 1
	echo "node 0 $mode: $c0 -> $(tx_msgs 0 "$mode"), node 1: $c1 -> $(tx_msgs 1 "$mode")"
	echo "ethtool -S hn0 tx_msgs_$mode: $e0 -> $(nd_stat "$A" 0 "tx_msgs_$mode"), hn1 rx_msgs_$mode: $e1 -> $(nd_stat "$B" 1 "rx_msgs_$mode")"
	in_ns "$A" hn_ethtool hn0
	[ "$(tx_msgs 0 "$mode")" -ge $((c0 + 6)) ] &&
	[ "$(tx_msgs 1 "$mode")" -ge $((c1 + 6)) ] &&
	[ "$(nd_stat "$A" 0 "tx_msgs_$mode")" -ge $((e0 + 6)) ] &&
	[ "$(nd_stat "$B" 1 "rx_msgs_$mode")" -ge $((e1 + 6)) ] &&
	[ "$(nd_stat "$A" 0 lat_mean_ns)" -gt 0 ] &&
	[ "$(nd_stat "$A" 0 lat_max_ns)" -ge "$(nd_stat "$A" 0 lat_min_ns)" ]
}


check "insmod nodes=4, an interface per node (ipr link add hnN type hybridnet node N)" \
	load_links 4 nodes=4
check "hn0..hn3, MAC 02:68:6e:00:00:NN of node NN" sh -c '
	for i in 0 1 2 3; do
		a=$(cat /sys/class/net/hn$i/address); echo "hn$i $a"
		[ "$a" = "02:68:6e:00:00:0$i" ] || exit 1
	done'
check "MTU: max_msg_bytes less the Ethernet header" sh -c '
	m=$(cat /sys/class/hybridnet/fabric0/config/max_msg_bytes)
	echo "max_msg_bytes $m, mtu $(cat /sys/class/net/hn0/mtu)"
	[ "$(cat /sys/class/net/hn0/mtu)" -eq $((m - 14)) ]'
check "a file cannot bind a node that has an interface, which is named" sh -c '
	for i in 0 3; do
		out=$(timeout 5 hn_hold $i 2>&1); rc=$?; echo "$out"
		[ $rc -eq 1 ] && [ "$out" = "hn_hold: cannot bind node $i: it is bound to the interface hn$i: bind another node, or delete the interface (sudo hnctl netdev del hn$i)" ] || exit 1
	done'
check "a rebuild is refused while interfaces hold the nodes, with the reason" sh -c '
	out=$(hnctl set nodes 8 2>&1); rc=$?; echo "$out"
	[ $rc -ne 0 ] && echo "$out" | grep -q "node 0 has the interface hn0: delete it first (hnctl netdev del hn0)"'
check "two namespaces, hn0 and hn1 configured" setup_pair_arp
check "ping both ways as wormhole messages" ping_pair wormhole
# one snapshot (hnctl stats), not sysfs file by file: IPv6 and ARP go on
# sending between two reads
check "broadcast and multicast frames (ARP, IPv6): each one injection and a copy for each of the 3 other interfaces" sh -c '
	j=$(hnctl -j stats) || exit 1
	v() { echo "$j" | sed -n "s/.*\"$1\":\([0-9]*\).*/\1/p"; }
	m=$(v mcast-msgs); i=$(v mcast-injections); c=$(v mcast-copies)
	echo "mcast_msgs $m, mcast_injections $i, mcast_copies $c"
	[ "$m" -ge 1 ] && [ "$i" -eq "$m" ] && [ "$c" -eq $((3 * m)) ]'
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

check "insmod nodes=4 preload=shift, hn0..hn3" load_links 4 nodes=4 preload=shift
check "two namespaces again" setup_pair_arp
check "ping both ways as circuit messages" ping_pair circuit
check "rmmod with preloaded circuits and interfaces in namespaces" rmmod hybridnet
cleanup_ns

# a namespace that ends gives its interfaces back to the initial one
check "insmod for namespaces that end, hn0..hn3" load_links 4 nodes=4
check "two namespaces, then they end" setup_pair_arp
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
	load_links 4 nodes=4 && setup_pair_arp &&
		in_ns "$A" ping -c 1 -W 5 10.0.0.2 >/dev/null && rmmod hybridnet || break
	cleanup_ns
	i=$((i + 1))
done
check "load, ping and unload 5 times" [ $i -eq 5 ]
cleanup_ns
[ -e /sys/module/hybridnet ] && rmmod hybridnet

# ---- interfaces at run time ----------------------------------------------
check "insmod nodes=4, no interface" sh -c "insmod $KO nodes=4 && ! ls /sys/class/net | grep -q '^hn'"
# rtnetlink asks for CAP_NET_ADMIN over the caller's namespace only,
# which the root of any user namespace has; a fabric is its namespace's,
# and a namespace of its own has none (nor may its root make one)
for node in "node 0" ""; do
	check "an unprivileged user, root in its own user and network namespace: ipr link add ... $node refused, said" sh -c "
		out=\$(hn_asuser 65534 65534 unshare -r -n ipr link add hn0 type hybridnet $node 2>&1); rc=\$?; echo \"\$out\"
		[ \$rc -ne 0 ] && echo \"\$out\" | grep -q '^Error: no fabric in this network namespace (hnctl fabric add makes one).\$'"
done
check "it claimed nothing" sh -c '
	hnctl netdev; grep . '"$NODES"'/*/holder
	[ -z "$(hnctl netdev)" ] && ! grep -v "^nothing$" '"$NODES"'/*/holder'
check "hnctl netdev add node 0: hn0, the MAC of node 0" sh -c '
	hnctl netdev add node 0 && [ "$(cat /sys/class/net/hn0/address)" = 02:68:6e:00:00:00 ]'
check "hnctl netdev add NAME node 1" sh -c '
	hnctl netdev add eth-n1 node 1 && [ "$(cat /sys/class/net/eth-n1/address)" = 02:68:6e:00:00:01 ]'
check "hnctl netdev lists them: node, ifindex, address, namespace" sh -c '
	out=$(hnctl netdev); echo "$out"
	[ "$(echo "$out" | wc -l)" -eq 2 ] &&
	echo "$out" | grep -q "^hn0 node 0 ifindex $(cat /sys/class/net/hn0/ifindex) address 02:68:6e:00:00:00 netns [0-9]" &&
	echo "$out" | grep -q "^eth-n1 node 1 ifindex $(cat /sys/class/net/eth-n1/ifindex) address 02:68:6e:00:00:01 netns [0-9]"'
check "hnctl -j netdev" sh -c '
	out=$(hnctl -j netdev); echo "$out"
	echo "$out" | grep -q "{\"netdevs\":\[{\"name\":\"hn0\",\"node\":0,\"ifindex\":[0-9]*,\"address\":\"02:68:6e:00:00:00\",\"netns\":[0-9]*},{\"name\":\"eth-n1\",\"node\":1,"'
check "a node out of range: refused, said" \
	refused "the node is out of the fabric's range (hnctl show nodes)" hnctl netdev add node 4
check "a node that has an interface: EBUSY, said" \
	refused "the node has an interface already" hnctl netdev add x0 node 0
check "a name taken: EEXIST" \
	refused "File exists" hnctl netdev add eth-n1 node 2
hn_hold 2 >/tmp/nd.hold 2>&1 &
H=$!
check "a file holds node 2" held /tmp/nd.hold
check "a node bound to a file: EBUSY, said" \
	refused "the node is bound to a file (sysfs nodes/N/holder names it)" hnctl netdev add node 2
check "sysfs nodes/2/holder names the file's program" \
	grep -qx "a file of pid $H (hn_hold)" $NODES/2/holder
check "ip link add: EBUSY for a node bound to a file, said" sh -c '
	out=$(ipr link add hn2 type hybridnet node 2 2>&1); rc=$?; echo "$out"
	[ $rc -ne 0 ] && echo "$out" | grep -q "Error: the node is bound to a file" &&
	! test -e /sys/class/net/hn2'
check "a file cannot bind a node with a run-time interface (EBUSY)" sh -c '
	out=$(timeout 5 hn_hold 1 2>&1); rc=$?; echo "$out"
	[ $rc -eq 1 ] && echo "$out" | grep -q "cannot bind node 1"'
check "ipr link add hn3 type hybridnet node 3" sh -c '
	ipr link add hn3 type hybridnet node 3 && [ "$(cat /sys/class/net/hn3/address)" = 02:68:6e:00:00:03 ] &&
	hnctl netdev | grep -q "^hn3 node 3 "'
check "ipr -d link show hn3: the link kind, its fabric and its node" sh -c '
	out=$(ipr -d link show hn3); echo "$out"
	echo "$out" | grep -q "^ *hybridnet fabric 0 node 3 "'
check "ipr -j -d link show hn3: the same in JSON" sh -c '
	out=$(ipr -j -d link show hn3); echo "$out"
	echo "$out" | grep -q "\"linkinfo\":{\"info_kind\":\"hybridnet\",\"info_data\":{\"fabric\":0,\"node\":3}}"'
check "ipr link help hybridnet: the plugin's usage" sh -c '
	out=$(ipr link help hybridnet 2>&1); echo "$out"
	echo "$out" | grep -q "^Usage: ip link add \[NAME\] type hybridnet \[ fabric F \] \[ node N \]$"'
check "ipr link add ... fabric 1: refused, said" sh -c '
	out=$(ipr link add hnf type hybridnet fabric 1 node 3 2>&1); rc=$?; echo "$out"
	[ $rc -ne 0 ] && [ "$out" = "Error: no such fabric in this network namespace (hnctl fabric lists them)." ]'
check "ipr link add ... node 9 on 4 nodes: refused, said" sh -c '
	out=$(ipr link add hnf type hybridnet node 9 2>&1); rc=$?; echo "$out"
	[ $rc -ne 0 ] && [ "$out" = "Error: the node is out of the fabric'"'"'s range (hnctl show nodes)." ]'
check "ip link add with every node taken: refused" sh -c '
	out=$(ip link add type hybridnet 2>&1); rc=$?; echo "$out"; ip link
	[ $rc -ne 0 ] && [ "$(hnctl netdev | wc -l)" -eq 3 ]'
check "a rebuild refused while interfaces hold nodes, naming them" \
	refused "node 0 has the interface hn0: delete it first (hnctl netdev del hn0)" hnctl set nodes 8
check "ip link del hn3" sh -c 'ip link del hn3 && ! test -e /sys/class/net/hn3'
check "ip link add NAME type hybridnet: the lowest free node (3)" sh -c '
	ip link add other type hybridnet && [ "$(cat /sys/class/net/other/address)" = 02:68:6e:00:00:03 ] &&
	ip link del other'
check "hnctl netdev del eth-n1" sh -c '
	hnctl netdev del eth-n1 && ! test -e /sys/class/net/eth-n1'
check "del of an interface that is not hybridnet's: refused, said" \
	refused "lo is not an interface of hybridnet" hnctl netdev del lo
check "del of a name that does not exist: refused, said" \
	refused "no interface hn9 in this network namespace" hnctl netdev del hn9
check "hn1 for node 1 again" hnctl netdev add node 1
check "the pair in namespaces" setup_pair_arp
check "a file and interfaces on one fabric: ping while a file holds node 2" in_ns "$A" ping -c 2 -W 5 10.0.0.2
check "hnctl netdev del node 1, from another namespace" sh -c '
	hnctl netdev del node 1 && ! hnctl netdev | grep -q "node 1 "'
kill $H
wait $H 2>/dev/null
cleanup_ns
check "rmmod with an interface in a namespace" rmmod hybridnet

# against rebuilds, binds and the unload
check "insmod for the races" insmod "$KO" nodes=4
( for _ in $(seq 30); do
	hnctl netdev add node 0; hnctl netdev del hn0
  done ) >/dev/null 2>&1 &
R1=$!
( for _ in $(seq 15); do
	hnctl set nodes 6; hnctl set nodes 4; timeout 1 hn_hold 0
  done ) >/dev/null 2>&1 &
R2=$!
( for _ in $(seq 30); do
	ipr link add hn1 type hybridnet node 1; ip link set hn1 up; ip link del hn1
  done ) >/dev/null 2>&1 &
R3=$!
wait $R1 $R2 $R3
check "after add/del against rebuilds and binds: consistent" sh -c '
	hnctl netdev; ls /sys/class/net; n=$(hnctl netdev | wc -l)
	[ "$n" -eq "$(ls /sys/class/net | grep -c "^hn")" ]'
( while :; do hnctl netdev add node 1; hnctl netdev del hn1; done ) \
	>/dev/null 2>&1 &
R1=$!
sleep 1
check "rmmod while interfaces come and go" rmmod hybridnet
kill $R1
wait $R1 2>/dev/null

i=0
while [ $i -lt 20 ]; do
	insmod "$KO" nodes=4 && hnctl netdev add node 0 &&
		ipr link add hn1 type hybridnet node 1 && P=$(mkns) &&
		ip link set hn1 netns "$P" && hnctl netdev del hn0 &&
		hnctl netdev add x2 node 2 && rmmod hybridnet || break
	kill "$P"
	wait "$P" 2>/dev/null
	i=$((i + 1))
done
check "add, move, delete and unload 20 times" [ $i -eq 20 ]
[ -e /sys/module/hybridnet ] && rmmod hybridnet

# ---- backpressure on message memory --------------------------------------
# the NIC buffer alone holds more than the 16 MiB of message memory: the
# flood into a file that reads nothing until the sender makes no progress
# for 2 s must wait for memory, not drop
check "insmod msg_mem_max_bytes=16M, a 16 MiB NIC buffer" insmod "$KO" nodes=2 \
	msg_mem_max_bytes=16777216 nic_buf_bytes=16777216 sw_buf_bytes=8388608 \
	rx_buf_bytes=8388608
# pfifo_fast: the default fq_codel would drop, as CoDel does, frames that
# wait in it longer than its target while the queue is stopped (the
# stack's drops, which its statistics count); pfifo_fast refuses them at
# the door instead, and nd_flood sends them again.  BQL lets no frame
# be in flight (limit_max 0): xmit never runs while a frame waits for
# memory, so the kthread must stop the queue (it did not: no stop counted)
qd=$(cat /proc/sys/net/core/default_qdisc)
bql=/sys/class/net/hn0/queues/tx-0/byte_queue_limits/limit_max
check "hn0 up, on pfifo_fast, BQL limit_max 0, 10.9.0.1/24" sh -c "
	echo pfifo_fast >/proc/sys/net/core/default_qdisc &&
	hnctl netdev add node 0 && echo 0 >$bql &&
	ip addr add 10.9.0.1/24 dev hn0 && ip link set hn0 up"
echo "$qd" >/proc/sys/net/core/default_qdisc
check "10000 frames into a slow file: held back, then every one arrives, in order" \
	sh -c 'out=$(nd_flood hn0 1 10000 2000); rc=$?; echo "$out"
	[ $rc -eq 0 ] && echo "$out" | grep -q "was held back"'
check "none dropped for message memory; the queue stopped for it" sh -c '
	hn_ethtool hn0; grep . /sys/class/net/hn0/statistics/tx_*
	[ "$(hn_ethtool hn0 tx_drop_no_mem)" -eq 0 ] &&
	[ "$(hn_ethtool hn0 tx_stop_msg_mem)" -ge 1 ] &&
	[ "$(cat /sys/class/net/hn0/statistics/tx_packets)" -ge 10000 ] &&
	[ "$(cat /sys/class/hybridnet/fabric0/stats/rx_dropped)" -eq 0 ]'
check "rmmod after the flood" rmmod hybridnet

echo "1..$n"
[ $fails -eq 0 ]
