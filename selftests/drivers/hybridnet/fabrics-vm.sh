#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# fabrics-vm.sh - two fabrics side by side, in the VM, as TAP: the module
# loaded with none (fabrics=0); a crossbar made over netlink (hnctl
# fabric add) in network namespace X, a fat tree in namespace Y; each
# namespace sees its own fabric only; hntraffic runs on both at once,
# each run's messages counted by its own fabric alone, and on a fabric
# that is not its namespace's first (--fabric); a crossbar of 300 nodes
# by VCT carries tornado, each node's link its own worms; each fabric gets
# two interfaces ("ip link add"), one moved to a namespace of its own,
# and pings through its fabric; deleting a fabric is refused while an
# interface holds a node, and done once none does; the end of namespace
# X deletes its fabric, interfaces and all; and the unload, with a fabric
# left, its interfaces pinging and its generator running, frees
# everything (the module WARNs on a message left over; kmemleak in
# make check-vm-debug).  Debian's ip runs as ipr (selftests/vm/dynbin.sh).

KO=${HN_KO:-/lib/hn/hybridnet.ko}
CLASS=/sys/class/hybridnet
n=0
fails=0
pids=

. "$(dirname "$0")/netns-lib.sh"

# the messages fabric $1 delivered, both modes
delivered() {
	echo $(($(cat "$CLASS/fabric$1/stats/rx_msgs_circuit") + \
		$(cat "$CLASS/fabric$1/stats/rx_msgs_wormhole")))
}

no_fabric() {
	ls $CLASS
	! [ -e $CLASS/fabric0 ] && [ -z "$(hnctl fabric)" ] &&
	out=$(hnctl show 2>&1)
	rc=$?
	echo "$out"
	[ $rc -eq 2 ] &&
		echo "$out" | grep -q "no fabric in this network namespace (hnctl fabric add makes one)"
}

# fabric_add NS WANT ARGS...: hnctl fabric add ARGS in NS says "fabric WANT"
fabric_add() {
	ns=$1 want=$2
	shift 2
	out=$(in_ns "$ns" hnctl fabric add "$@")
	echo "$out"
	[ "$out" = "fabric $want" ] && [ -d $CLASS/fabric$want ]
}

# each namespace lists its own fabric, the initial one none
lists() {
	in_ns "$X" hnctl fabric >/tmp/fx && in_ns "$Y" hnctl fabric >/tmp/fy &&
	cat /tmp/fx /tmp/fy &&
	[ "$(wc -l </tmp/fx)" -eq 1 ] && [ "$(wc -l </tmp/fy)" -eq 1 ] &&
	grep -q '^fabric 0 crossbar nodes 8 slots 2 ' /tmp/fx &&
	grep -q '^fabric 1 fattree:2,4 nodes 16 slots 2 switches 8 ' /tmp/fy &&
	[ -z "$(hnctl fabric)" ] &&
	in_ns "$X" hnctl show topology | grep -qx 'topology crossbar' &&
	in_ns "$Y" hnctl show topology | grep -qx 'topology fattree:2,4' &&
	! in_ns "$X" hnctl -f 1 show >/dev/null 2>&1
}

# hntraffic in both namespaces at once, every message once and in order,
# each fabric delivering its own run's messages and no other's
programs() {
	d0=$(delivered 0) d1=$(delivered 1)
	in_ns "$X" hntraffic --pattern all-to-all --batch 20 --size 64-512 \
		--seed 1 --json >/tmp/hx.json 2>&1 &
	a=$!
	in_ns "$Y" hntraffic --pattern all-to-all --batch 20 --size 64-512 \
		--seed 2 --json >/tmp/hy.json 2>&1 &
	b=$!
	wait $a
	ra=$?
	wait $b
	rb=$?
	cat /tmp/hx.json /tmp/hy.json
	echo "fabric 0 delivered $(($(delivered 0) - d0)), fabric 1 $(($(delivered 1) - d1))"
	[ $ra -eq 0 ] && [ $rb -eq 0 ] &&
	grep -q '"verified": true, "in_order": true, "lost": 0,' /tmp/hx.json &&
	grep -q '"verified": true, "in_order": true, "lost": 0,' /tmp/hy.json &&
	grep -q '"recv_msgs": 160,' /tmp/hx.json &&
	grep -q '"recv_msgs": 320,' /tmp/hy.json &&
	[ $(($(delivered 0) - d0)) -eq 160 ] &&
	[ $(($(delivered 1) - d1)) -eq 320 ]
}

# hntraffic --fabric 2: a second fabric of Y, not its first, carries the
# run (its virtual time, as the run reports it, too), the first nothing
fabric_opt() {
	fabric_add "$Y" 2 topology crossbar nodes 4 || return 1
	d1=$(delivered 1) d2=$(delivered 2)
	in_ns "$Y" hntraffic --fabric 2 --pattern all-to-all --batch 5 --json \
		>/tmp/h2.json 2>&1
	r=$?
	cat /tmp/h2.json
	echo "fabric 1 delivered $(($(delivered 1) - d1)), fabric 2 $(($(delivered 2) - d2))"
	[ $r -eq 0 ] && grep -q '"recv_msgs": 20,' /tmp/h2.json &&
	! grep -q '"virtual_ns": 0,' /tmp/h2.json &&
	[ $(($(delivered 2) - d2)) -eq 20 ] && [ $(($(delivered 1) - d1)) -eq 0 ] &&
	in_ns "$Y" hnctl fabric del 2
}

# hntraffic --msg-switching saf: store-and-forward messages of their own
# over Y's wormhole fat tree, every one verified; a fabric of switching
# drop refuses them, and the writer is told why
msg_switching() {
	in_ns "$Y" hntraffic --msg-switching saf --pattern all-to-all --batch 5 \
		--json >/tmp/hs.json 2>&1
	r=$?
	cat /tmp/hs.json
	[ $r -eq 0 ] &&
	grep -q '"verified": true, "in_order": true, "lost": 0,' /tmp/hs.json &&
	grep -q '"recv_msgs": 80,' /tmp/hs.json &&
	fabric_add "$Y" 2 topology fattree:2,4 switching drop || return 1
	out=$(in_ns "$Y" hntraffic --fabric 2 --msg-switching saf \
		--pattern all-to-all --batch 1 2>&1)
	r=$?
	echo "$out"
	in_ns "$Y" hnctl fabric del 2 &&
	[ $r -ne 0 ] &&
	echo "$out" | grep -q "by a switching of its own (HYBRIDNET_MSG_SWITCHING): the fabric's switching is drop"
}

# a switch's own switching (hnctl switch switching; docs/model.md "A
# switch's own switching") on fabric 2 of Y, FT(2,4) of switching vct:
# sw1.0 set to saf, as hnctl switches shows it, text and JSON, the
# monitor watching
sw_set() {
	fabric_add "$Y" 2 topology fattree:2,4 switching vct slots 0 ||
		return 1
	rm -f /tmp/sw.ready
	# its events: sw1.0's two changes, two runs' starts and ends
	in_ns "$Y" hnctl -f 2 monitor --count 6 --timeout 120 \
		--ready /tmp/sw.ready >/tmp/sw.ev 2>&1 &
	swmon=$!
	i=0
	while ! [ -e /tmp/sw.ready ] && [ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	in_ns "$Y" hnctl -f 2 switch switching sw1.0 saf &&
	in_ns "$Y" hnctl -f 2 switches | tee /dev/stderr |
		awk 'NR > 2 { print $1, $4 }' >/tmp/sw.col &&
	printf '%s\n' "sw0.0 fabric" "sw0.1 fabric" "sw0.2 fabric" \
		"sw0.3 fabric" "sw1.0 saf" "sw1.1 fabric" "sw1.2 fabric" \
		"sw1.3 fabric" | diff - /tmp/sw.col &&
	in_ns "$Y" hnctl -f 2 -j switches | tee /dev/stderr |
		grep -q '{"switch":"sw1.0","level":1,"down":false,"switching":"saf",' &&
	in_ns "$Y" hnctl -f 2 -j switches >/tmp/sw.json &&
	[ "$(grep -o '"switching":"fabric"' /tmp/sw.json | wc -l)" -eq 7 ] &&
	[ "$(grep -o '"switching":"saf"' /tmp/sw.json | wc -l)" -eq 1 ]
}

# sw_run FABRIC NAME TRAFFIC...: hnctl traffic start TRAFFIC... --wait on
# fabric FABRIC of Y; the run in /tmp/NAME.FABRIC, sw1.0's row after it
# in /tmp/NAME.FABRIC.row
sw_run() {
	sf=$1 sn=$2
	shift 2
	in_ns "$Y" hnctl -f "$sf" traffic start "$@" --wait >/tmp/$sn.$sf &&
	in_ns "$Y" hnctl -f "$sf" switches switch sw1.0 | tail -n 1 \
		>/tmp/$sn.$sf.row
	sr=$?
	cat /tmp/$sn.$sf /tmp/$sn.$sf.row
	return $sr
}

# sw_lat FILE: the run's mean latency
sw_lat() {
	sed -n 's/^latency .* mean \([0-9]*\),.*/\1/p' "$1"
}

# the same traffic on fabric 2 (sw1.0 saf) and on a fabric 3 made alike
# whose sw1.0 went to saf and back to the fabric's: a uniform batch
# completes on both, sw1.0 carried the same bytes, and holds nothing
# after; then node 0 alone sends to each node in turn (scatter), over
# idle paths, where a message stored at sw1.0 arrives later and none
# earlier
sw_traffic() {
	fabric_add "$Y" 3 topology fattree:2,4 switching vct slots 0 &&
	in_ns "$Y" hnctl -f 3 switch switching sw1.0 saf &&
	in_ns "$Y" hnctl -f 3 switch switching sw1.0 fabric || return 1
	for sf in 2 3; do
		sw_run $sf batch --pattern uniform --batch 20 --size 512 \
			--seed 3 &&
		sw_run $sf scatter --pattern scatter --root 0 --batch 15 \
			--size 512 || return 1
	done
	in_ns "$Y" hnctl fabric del 3 || return 1
	echo "scatter's mean latency: sw1.0 saf $(sw_lat /tmp/scatter.2), back to the fabric's $(sw_lat /tmp/scatter.3)"
	for sf in 2 3; do
		grep -q '^state  *done' /tmp/batch.$sf &&
		grep -q ', in flight 0,' /tmp/batch.$sf &&
		awk '{ exit !($5 > 0 && $11 == 0 && $12 == 0) }' \
			/tmp/batch.$sf.row || return 1
	done
	[ "$(awk '{ print $5 }' /tmp/batch.2.row)" = \
	  "$(awk '{ print $5 }' /tmp/batch.3.row)" ] &&
	awk '{ exit $4 != "saf" }' /tmp/batch.2.row &&
	awk '{ exit $4 != "fabric" }' /tmp/batch.3.row &&
	grep -q '^state  *done' /tmp/scatter.2 &&
	grep -q '^state  *done' /tmp/scatter.3 &&
	[ "$(sw_lat /tmp/scatter.2)" -gt "$(sw_lat /tmp/scatter.3)" ]
}

# sw1.0 back to the fabric's; the monitor printed both changes
sw_back() {
	in_ns "$Y" hnctl -f 2 switch switching sw1.0 fabric &&
	[ -z "$(in_ns "$Y" hnctl -f 2 switches | awk 'NR > 2 && $4 != "fabric"')" ]
	r=$?
	wait "$swmon"
	m=$?
	cat /tmp/sw.ev
	[ $r -eq 0 ] && [ $m -eq 0 ] &&
	printf '%s\n' "switching switch sw1.0 saf" \
		"switching switch sw1.0 fabric" >/tmp/sw.want &&
	grep '^switching' /tmp/sw.ev | diff /tmp/sw.want -
}

# refused: a switch fabric 2 has not, the word drop (status 1), on a
# fabric of switching drop (the kernel's reason, status 2)
sw_refused() {
	o2=$(in_ns "$Y" hnctl -f 2 switch switching sw2.0 saf 2>&1)
	r2=$?
	o3=$(in_ns "$Y" hnctl -f 2 switch switching sw1.0 drop 2>&1)
	r3=$?
	fabric_add "$Y" 3 topology fattree:2,4 switching drop || return 1
	o4=$(in_ns "$Y" hnctl -f 3 switch switching sw1.0 saf 2>&1)
	r4=$?
	in_ns "$Y" hnctl fabric del 3 && in_ns "$Y" hnctl fabric del 2 ||
		return 1
	printf '%s\n' "$o2" "status $r2" "$o3" "status $r3" "$o4" \
		"status $r4" >/tmp/sw.got
	cat <<'EOF2' | diff - /tmp/sw.got
hnctl switch: fattree:2,4 has no switch sw2.0
Try 'hnctl switch --help'.
status 1
hnctl switch: 'drop': a switch's switching is wormhole, vct, saf, or fabric (the fabric's)
Try 'hnctl switch --help'.
status 1
hnctl: switching refused: switching drop is the whole fabric's: no switch has one of its own
status 2
EOF2
}

# the crossbar by wormhole (X's fabric 0) is one switch, sw0.0, which takes
# a switching of its own as any switch does: node 0's scatter over idle
# paths, all delivered, arrives later with sw0.0 storing and forwarding
# than with it back to the fabric's wormhole
xbar_switching() {
	in_ns "$X" hnctl show switching | grep -qx 'switching wormhole' &&
	in_ns "$X" hnctl switch switching sw0.0 saf &&
	in_ns "$X" hnctl switches | tee /dev/stderr |
		awk 'NR > 2 { print $1, $4 }' | grep -qx 'sw0.0 saf' &&
	in_ns "$X" hnctl traffic start --pattern scatter --root 0 --batch 14 \
		--size 512 --wait >/tmp/xs.saf &&
	in_ns "$X" hnctl switch switching sw0.0 fabric &&
	in_ns "$X" hnctl switches | awk 'NR > 2 { print $1, $4 }' |
		grep -qx 'sw0.0 fabric' &&
	in_ns "$X" hnctl traffic start --pattern scatter --root 0 --batch 14 \
		--size 512 --wait >/tmp/xs.fabric || return 1
	cat /tmp/xs.saf /tmp/xs.fabric
	echo "scatter's mean latency: sw0.0 saf $(sw_lat /tmp/xs.saf), the fabric's wormhole $(sw_lat /tmp/xs.fabric)"
	grep -q '^state  *done' /tmp/xs.saf &&
	grep -q '^state  *done' /tmp/xs.fabric &&
	[ "$(sw_lat /tmp/xs.saf)" -gt "$(sw_lat /tmp/xs.fabric)" ]
}

# a crossbar of 300 nodes by virtual cut-through: tornado's 2 messages a
# node all delivered, each node's own link carrying its 2 down (switch.c
# once kept a port in 8 bits: ports past 255 wrapped and indexed past its
# outputs)
wide_crossbar() {
	fabric_add "$Y" 2 topology crossbar nodes 300 switching vct slots 0 ||
		return 1
	in_ns "$Y" hnctl -f 2 traffic start --pattern tornado --batch 2 \
		--size 128 --seed 1 --wait >/tmp/wide &&
	in_ns "$Y" hnctl -f 2 links >/tmp/wide.links
	r=$?
	in_ns "$Y" hnctl fabric del 2 || return 1
	cat /tmp/wide
	[ $r -eq 0 ] && grep -q '^state  *done' /tmp/wide &&
	grep -q ', in flight 0,' /tmp/wide &&
	[ "$(awk '$1 ~ /^node/ && $3 == "down" && $6 == 256 && $7 == 2' \
		/tmp/wide.links | wc -l)" -eq 300 ]
}

# ifaces NS PEER_NS NET: hn0 and hn1 of NS's fabric (nodes 0 and 1), hn1
# moved to PEER_NS; NET.1 and NET.2, static neighbours
ifaces() {
	ns=$1 peer=$2 net=$3
	in_ns "$ns" ipr link add hn0 type hybridnet &&
	in_ns "$ns" ipr link add hn1 type hybridnet &&
	in_ns "$ns" ipr link set hn1 netns "$peer" &&
	in_ns "$ns" ipr addr add "$net.1/24" dev hn0 &&
	in_ns "$peer" ipr addr add "$net.2/24" dev hn1 &&
	in_ns "$ns" ipr link set hn0 up && in_ns "$peer" ipr link set hn1 up &&
	in_ns "$ns" ipr neigh replace "$net.2" lladdr 02:68:6e:00:00:01 \
		dev hn0 nud permanent &&
	in_ns "$peer" ipr neigh replace "$net.1" lladdr 02:68:6e:00:00:00 \
		dev hn1 nud permanent
}

# ping NS ADDR FABRIC: 5 replies, and the fabric delivered 10 messages
# at least (IPv6's own may come too)
pings() {
	d=$(delivered "$3")
	in_ns "$1" ping -c 5 -i 0.2 -W 10 "$2" >/tmp/ping.out 2>&1
	cat /tmp/ping.out
	echo "fabric $3 delivered $(($(delivered "$3") - d))"
	grep -q ' 5 packets received' /tmp/ping.out &&
	[ $(($(delivered "$3") - d)) -ge 10 ]
}

# hnctl fabric del in NS refused while an interface holds a node
del_busy() {
	out=$(in_ns "$1" hnctl fabric del "$2" 2>&1)
	rc=$?
	echo "$out"
	[ $rc -eq 2 ] && echo "$out" | grep -q "cannot delete fabric $2: node 0 has the interface hn0" &&
	[ -d $CLASS/fabric$2 ]
}

del_done() {
	in_ns "$Y" ipr link del hn0 && in_ns "$Y2" ipr link del hn1 &&
	in_ns "$Y" hnctl fabric del 1 && ! [ -d $CLASS/fabric1 ] &&
	[ -z "$(in_ns "$Y" hnctl fabric)" ]
}

x_ends() {
	kill "$X" && gone 0 && ! in_ns "$X2" ipr link show hn1 2>/dev/null
}

gone() {	# gone ID: fabric ID's directory goes (60 s at most)
	i=0
	while [ -d $CLASS/fabric$1 ] && [ $i -lt 600 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	! [ -d $CLASS/fabric$1 ]
}

check "insmod fabrics=0" insmod "$KO" fabrics=0
check "no fabric: none listed, none in sysfs, hnctl show says how to make one" no_fabric
X=$(mkns)
X2=$(mkns)
Y=$(mkns)
Y2=$(mkns)
pids="$X $X2 $Y $Y2"
check "namespace X: hnctl fabric add topology crossbar nodes 8 slots 2: fabric 0" \
	fabric_add "$X" 0 topology crossbar nodes 8 slots 2
check "namespace Y: hnctl fabric add topology fattree:2,4 slots 2: fabric 1" \
	fabric_add "$Y" 1 topology fattree:2,4 slots 2
check "each namespace sees its own fabric, the initial one none" lists
check "hntraffic in X and in Y at once: each fabric carries its own" programs
check "hntraffic --fabric 2 in Y: that fabric alone carries it" fabric_opt
check "hntraffic --msg-switching saf in Y; refused by a fabric of switching drop, saying why" \
	msg_switching
check "switch switching sw1.0 saf on a fat tree of switching vct: hnctl switches shows it, text and JSON" \
	sw_set
check "traffic through sw1.0 storing and forwarding: all delivered, nothing left in it, later than with sw1.0 back to the fabric's" \
	sw_traffic
check "switch switching sw1.0 fabric: all back to the fabric's; hnctl monitor printed both" \
	sw_back
check "switch switching refused: a fabric of switching drop (the kernel says why), a switch not there, drop" \
	sw_refused
check "switch switching sw0.0 saf on the crossbar by wormhole: taken, shown; its scatter later than by the fabric's, all delivered" \
	xbar_switching
check "a crossbar of 300 nodes by VCT: tornado delivered, each node's link carried its own" \
	wide_crossbar
check "two interfaces of fabric 0 in X and X2" ifaces "$X" "$X2" 10.0.0
check "two interfaces of fabric 1 in Y and Y2" ifaces "$Y" "$Y2" 10.0.1
check "ping over the crossbar, X to X2" pings "$X" 10.0.0.2 0
check "ping over the fat tree, Y to Y2" pings "$Y" 10.0.1.2 1
check "hnctl fabric del 1 refused while hn0 holds node 0" del_busy "$Y" 1
check "interfaces deleted, hnctl fabric del 1 deletes it" del_done
check "the end of namespace X deletes fabric 0, its interfaces too" x_ends

# the unload with a fabric, its interfaces pinging, its generator running
Z=$(mkns)
Z2=$(mkns)
pids="$pids $Z $Z2"
check "namespace Z: a fat tree, fabric 0 again" \
	fabric_add "$Z" 0 topology fattree:2,4
check "two interfaces of it in Z and Z2" ifaces "$Z" "$Z2" 10.0.2
check "its generator running" sh -c "
	nsenter -t $Z -n hnctl traffic start --pattern uniform --batch 100000 &&
	nsenter -t $Z -n hnctl traffic | tee /dev/stderr | grep -q running"
nsenter -t "$Z" -n ping -f -W 1 10.0.2.2 >/dev/null 2>&1 &
flood=$!
sleep 2
check "rmmod with that fabric, interfaces and traffic in flight" rmmod hybridnet
kill $flood 2>/dev/null
wait $flood 2>/dev/null
check "everything went: no fabric, no interface, no kthread" sh -c "
	! [ -e /sys/module/hybridnet ] && ! [ -d $CLASS ] &&
	! nsenter -t $Z -n ipr link show hn0 2>/dev/null &&
	! grep -q '^hybridnet/' /proc/[0-9]*/comm 2>/dev/null"
cleanup_ns
echo "1..$n"
[ $fails -eq 0 ]
