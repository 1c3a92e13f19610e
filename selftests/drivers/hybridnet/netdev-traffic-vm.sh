#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# netdev-traffic-vm.sh - traffic through an interface per node
# (kmod/netdev.c), in the VM, as TAP.  Each check compares counts that
# must agree exactly:
#  - ping both ways, IPv4 and IPv6: the replies equal the engine's
#    delivered messages for the pair (sysfs nodes/N/), and the interfaces'
#    counters;
#  - with a circuit preloaded between the two nodes (hnctl preload) the
#    pings go as circuit messages; after hnctl release, as wormhole;
#    hnctl top shows them under their modes, per pair, with the virtual
#    latencies the model gives each;
#  - a UDP flood (udpflood) into a slow fabric (paced 1:1, 1 Mb/s links,
#    a qdisc of 20 frames): the queue is stopped, hybridnet drops nothing,
#    and sent = delivered + the qdisc's drops + hybridnet's drops; the
#    same on the free clock into a small receive buffer, where the flow
#    goes on only if the receiving interface kicks the clock;
#  - iperf3 TCP and UDP: the bytes iperf3 reports, both interfaces' and
#    the engine's agree.
# Frames that are not the test's own would blur the counts: the
# neighbours are static (no ARP, no neighbour discovery), IPv6 does no
# DAD and sends no router solicitation, and each measurement starts once
# the fabric has been quiet for a second (the MLD reports of the
# interfaces coming up are over).
#
# Debian's ip, tc and iperf3 run in the busybox initramfs as ipr, tcr and
# iperf3 (selftests/vm/dynbin.sh).  Loads and unloads the module (HN_KO).

KO=${HN_KO:-/lib/hn/hybridnet.ko}
# to iterate on the free-clock flood (vm-run.sh's hn.run=netdev-traffic):
# HN_FREE_ONLY=1 runs it alone, HN_FLOODS=N runs it N times in one load
free_only=${HN_FREE_ONLY:-}
NODES=/sys/class/hybridnet/fabric0/nodes
n=0
fails=0
# shellcheck disable=SC2034 # netns-lib.sh uses them
pids=

. "$(dirname "$0")/netns-lib.sh"

# ping_count FROM_NS FROM_NODE TO_NODE ADDR COUNT MODE: COUNT echo
# requests; every reply back, and the engine delivered exactly COUNT
# messages each way (MODE messages, when MODE is circuit or wormhole)
ping_count() {
	pn=$1 s=$2 d=$3 addr=$4 c=$5 mode=$6
	ts=$(eng "$s" tx_msgs) td=$(eng "$d" tx_msgs)
	rs=$(eng "$s" rx_msgs) rd=$(eng "$d" rx_msgs)
	ms=$(cat $NODES/$s/tx_msgs_$mode 2>/dev/null)
	md=$(cat $NODES/$d/tx_msgs_$mode 2>/dev/null)
	irx=$(ifc "$pn" "hn$s" rx_packets)
	in_ns "$pn" ping -c "$c" -i 0.2 -W 10 "$addr" >/tmp/ping.out 2>&1
	cat /tmp/ping.out
	got=$(sed -n 's/.* \([0-9]*\) packets received.*/\1/p' /tmp/ping.out)
	req=$(($(eng "$d" rx_msgs) - rd))
	rep=$(($(eng "$s" rx_msgs) - rs))
	echo "replies $got; engine: $req requests delivered to node $d" \
	     "($(($(eng "$s" tx_msgs) - ts)) sent), $rep replies delivered to node $s" \
	     "($(($(eng "$d" tx_msgs) - td)) sent); hn$s rx_packets +$(($(ifc "$pn" "hn$s" rx_packets) - irx))"
	[ "$got" = "$c" ] && [ $req -eq "$c" ] && [ $rep -eq "$c" ] &&
	[ $(($(eng "$s" tx_msgs) - ts)) -eq "$c" ] &&
	[ $(($(eng "$d" tx_msgs) - td)) -eq "$c" ] &&
	[ $(($(ifc "$pn" "hn$s" rx_packets) - irx)) -eq "$c" ] || return 1
	[ "$mode" = any ] && return 0
	echo "$mode messages: node $s +$(($(cat $NODES/$s/tx_msgs_$mode) - ms)), node $d +$(($(cat $NODES/$d/tx_msgs_$mode) - md))"
	[ $(($(cat $NODES/$s/tx_msgs_$mode) - ms)) -eq "$c" ] &&
	[ $(($(cat $NODES/$d/tx_msgs_$mode) - md)) -eq "$c" ]
}

# the sum of hnN's drop counters (both directions), in its namespace
hn_drops() {
	echo $(($(ifc "$1" "hn$2" tx_dropped) + $(ifc "$1" "hn$2" rx_dropped)))
}

# ---- ping, IPv4 and IPv6, counted; circuit, then wormhole -------------
if [ -z "$free_only" ]; then
check "insmod nodes=4, hn0..hn3" load_links 4 nodes=4
check "two namespaces, static neighbours, the fabric quiet" setup_pair
check "IPv4 ping A -> B: 10 replies = 10 requests and 10 replies delivered" \
	ping_count "$A" 0 1 10.0.0.2 10 any
check "IPv4 ping B -> A: likewise" ping_count "$B" 1 0 10.0.0.1 10 any
check "IPv6 ping A -> B: likewise" ping_count "$A" 0 1 fd00::2 10 any
check "IPv6 ping B -> A: likewise" ping_count "$B" 1 0 fd00::1 10 any
check "hnctl preload slot 0 0:1 1:0" hnctl preload slot 0 0:1 1:0
check "hnctl circuits lists them" sh -c '
	hnctl circuits | tee /dev/stderr | grep -q "0:1"'
check "IPv4 ping A -> B over the circuits: every message a circuit message" \
	ping_count "$A" 0 1 10.0.0.2 10 circuit
check "IPv6 ping B -> A over the circuits: likewise" \
	ping_count "$B" 1 0 fd00::1 10 circuit
check "hnctl release all" hnctl release all
check "IPv4 ping A -> B after the release: every message a wormhole message" \
	ping_count "$A" 0 1 10.0.0.2 10 wormhole
check "IPv6 ping B -> A after the release: likewise" \
	ping_count "$B" 1 0 fd00::1 10 wormhole
fi

# ---- hnctl top: the same pings by mode, in virtual time ---------------
# 10 IPv4 echoes on a circuit, then 10 once it is released; hnctl top -j
# must show each pair's requests and replies under the mode that carried
# them, and the circuit's mean latency below the wormhole's.  What the
# model guarantees for a frame of L bytes alone in the fabric (the closed
# forms of selftests/core/test_latency.c and test_mode_stats.c), from the
# configuration in sysfs:
#  - on a circuit whose slot is the only one configured (SES runs it back
#    to back while no worm waits), the frame leaves at link rate from the
#    next byte's start, then crosses both NICs and wires (less the
#    switch's serdes, which a circuit skips) and the fabric:
#    at most bytes_ns(L + 1) + 2 nic + 2 (wire - serdes) + fabric;
#  - with no circuit configured (SES idles; the wormhole slot starts with
#    the frame), Eq. 3.3: the same NICs and wires, the first flit's
#    arbitration and a flit time per flit, at least 2 (nic + wire) +
#    fabric + (wh_first - wh_flit) + ceil(L / flit) wh_flit.
# For ding4 and 98-byte frames: at most 165 ns against at least 191 ns.
cfgv() { cat "/sys/class/hybridnet/fabric0/config/$1"; }
# a member of the JSON object on the line: jnum LINE KEY
jnum() { echo "$1" | sed -n "s/.*\"$2\":\([0-9]*\).*/\1/p"; }
# hnctl top's pair SRC -> DST, one line
top_pair() { tr '{' '\n' </tmp/top.json | grep "^\"src\":$1,\"dst\":$2,"; }
# top_modes SRC DST COUNT: the pair's COUNT circuit and COUNT wormhole
# messages of one size L, and their mean latencies within the bounds
top_modes() {
	s=$1 d=$2 c=$3
	hnctl -j top --count 0 >/tmp/top.json || return 1
	cat /tmp/top.json
	p=$(top_pair "$s" "$d")
	mc=$(jnum "$p" rx-msgs-circuit) mw=$(jnum "$p" rx-msgs-wormhole)
	bc=$(jnum "$p" rx-bytes-circuit) bw=$(jnum "$p" rx-bytes-wormhole)
	lc=$(jnum "$p" lat-mean-circuit-ns) lw=$(jnum "$p" lat-mean-wormhole-ns)
	if [ "$mc" != "$c" ] || [ "$mw" != "$c" ] || [ "$bc" != "$bw" ]; then
		echo "pair $s -> $d: $mc circuit and $mw wormhole messages" \
		     "($bc and $bw bytes), want $c of one size each"
		return 1
	fi
	L=$((bc / c)) mbps=$(cfgv link_mbps) flit=$(cfgv flit_bytes)
	cmax=$(( (( (L + 1) * 8000 + mbps - 1) / mbps) + 2 * $(cfgv nic_ns) +
		2 * ($(cfgv wire_ns) - $(cfgv serdes_ns)) + $(cfgv fabric_ns) ))
	wmin=$(( 2 * ($(cfgv nic_ns) + $(cfgv wire_ns)) + $(cfgv fabric_ns) +
		$(cfgv wh_first_ns) - $(cfgv wh_flit_ns) +
		((L + flit - 1) / flit) * $(cfgv wh_flit_ns) ))
	echo "pair $s -> $d: $c frames of $L bytes each way; virtual mean" \
	     "latency: circuit $lc ns (model: at most $cmax), wormhole $lw ns" \
	     "(model: at least $wmin)"
	[ "$L" -le "$(cfgv worm_bytes)" ] && [ "$cmax" -lt "$wmin" ] &&
	[ "$lc" -gt 0 ] && [ "$lc" -le "$cmax" ] && [ "$lw" -ge "$wmin" ] &&
	[ "$lc" -lt "$lw" ] &&
	[ "$(jnum "$(head -c 2000 /tmp/top.json)" pair-overflow-msgs)" = 0 ]
}
# ping's average round trip, wall clock (for the record: under TCG it
# says nothing of the fabric)
rtt() { sed -n 's|.*min/avg/max = [0-9.]*/\([0-9.]*\)/.*|\1|p' /tmp/ping.out; }

if [ -z "$free_only" ]; then
check "hnctl stats reset, hnctl preload slot 0 0:1 1:0" sh -c \
	'hnctl stats reset && hnctl preload slot 0 0:1 1:0'
check "IPv4 ping A -> B, 10 over the circuits" \
	ping_count "$A" 0 1 10.0.0.2 10 circuit
w_c=$(rtt)
check "hnctl release all" hnctl release all
check "IPv4 ping A -> B, 10 by wormhole" \
	ping_count "$A" 0 1 10.0.0.2 10 wormhole
w_w=$(rtt)
echo "# ping's wall-clock round trip: circuit $w_c ms, wormhole $w_w ms"
check "hnctl top -j: requests 0 -> 1, 10 by circuit and 10 by wormhole, the circuit faster in virtual time within the model's bounds" \
	top_modes 0 1 10
grep '^pair' /tmp/netns-check.out | sed 's/^/# /'
check "hnctl top -j: replies 1 -> 0 likewise" top_modes 1 0 10
grep '^pair' /tmp/netns-check.out | sed 's/^/# /'
check "hnctl top: the mode lines and both pairs, the overflow shown" sh -c '
	hnctl top --sort pair >/tmp/top.txt; cat /tmp/top.txt
	grep -q "^circuit " /tmp/top.txt && grep -q "^wormhole " /tmp/top.txt &&
	grep -q "overflow 0 msgs" /tmp/top.txt &&
	grep -qE "^ +0 +1 +20 +1960 +10 +980 " /tmp/top.txt &&
	grep -qE "^ +1 +0 +20 +1960 +10 +980 " /tmp/top.txt'
sed 's/^/# /' /tmp/top.txt
check "hnctl stats: the per-mode latency lines" sh -c '
	hnctl stats >/tmp/st.txt &&
	grep -E "^lat-(mean|p50|p99)-(circuit|wormhole)-ns " /tmp/st.txt &&
	[ $(grep -cE "^lat-(min|mean|max|p50|p99)-(circuit|wormhole)-ns +[1-9]" /tmp/st.txt) -eq 10 ]'
check "sysfs stats/ and nodes/1/: the per-mode means, as hnctl stats" sh -c '
	S=/sys/class/hybridnet/fabric0
	a=$(sed -n "s/^lat-mean-circuit-ns *//p" /tmp/st.txt)
	echo "stats/lat_mean_circuit_ns $(cat $S/stats/lat_mean_circuit_ns), hnctl $a;" \
	     "nodes/1/lat_mean_circuit_ns $(cat $S/nodes/1/lat_mean_circuit_ns)"
	[ "$(cat $S/stats/lat_mean_circuit_ns)" = "$a" ] &&
	[ "$(cat $S/nodes/1/lat_mean_circuit_ns)" -gt 0 ] &&
	[ "$(cat $S/nodes/1/lat_mean_wormhole_ns)" -gt \
	  "$(cat $S/nodes/1/lat_mean_circuit_ns)" ]'
check "hnctl stats reset empties the pair table" sh -c '
	hnctl stats reset && hnctl -j top >/tmp/top.json && cat /tmp/top.json &&
	grep -q "\"pairs\":0," /tmp/top.json && grep -q "\"pairs\":\[\]" /tmp/top.json'
fi

# B's or A's Udp counter $2 of /proc/net/snmp
snmp() { in_ns "$1" awk -v k="$2" '/^Udp:/ { if (!h) { split($0, n); h = 1 }
	else { for (i = 1; i <= NF; i++) if (n[i] == k) print $i } }' /proc/net/snmp; }
# frames the CPUs' backlogs refused (softnet_stat), all CPUs: none of the
# interfaces', whose NAPI poll hands frames to the stack without one
softdrop() {
	s=0
	while read -r _ d _; do
		s=$((s + 0x$d))
	done </proc/net/softnet_stat
	echo $s
}

# ---- iperf3, TCP and UDP ----------------------------------------------
# jnum FILE SECTION KEY: the first "KEY": NUMBER after "SECTION" (sum_sent,
# sum_received, sum) in iperf3 -J's end section (not an interval's "end")
jnum() { awk -v s="\"$2\"" -v k="\"$3\"" '/"end":[^0-9]*[{]/ { e = 1 }
	e && index($0, s) { f = 1 } f && index($0, k) { gsub(/[,]/, ""); print $2; exit }' "$1"; }

# iperf3 MODE ARGS...: a run from A to B; the counts agree
iperf() {
	mode=$1
	shift
	in_ns "$B" iperf3 -s -1 -B 10.0.0.2 >/tmp/iperf-s.out 2>&1 &
	sp=$!
	sleep 1
	t0=$(eng 0 tx_bytes) r1=$(eng 1 rx_bytes)
	m0=$(eng 0 tx_msgs) m1=$(eng 1 rx_msgs)
	i0=$(ifc "$A" hn0 tx_bytes) i1=$(ifc "$B" hn1 rx_bytes)
	p0=$(ifc "$A" hn0 tx_packets) p1=$(ifc "$B" hn1 rx_packets)
	d0=$(hn_drops "$A" 0) d1=$(hn_drops "$B" 1)
	sb=$(snmp "$A" SndbufErrors) rb=$(snmp "$B" RcvbufErrors) sd=$(softdrop)
	in_ns "$A" iperf3 -c 10.0.0.2 -J "$@" >/tmp/iperf.json 2>&1
	rc=$?
	wait $sp
	quiet
	[ $rc -eq 0 ] || { cat /tmp/iperf.json /tmp/iperf-s.out; return 1; }
	et=$(($(eng 0 tx_bytes) - t0)) er=$(($(eng 1 rx_bytes) - r1))
	it=$(($(ifc "$A" hn0 tx_bytes) - i0)) ir=$(($(ifc "$B" hn1 rx_bytes) - i1))
	pt=$(($(ifc "$A" hn0 tx_packets) - p0)) pr=$(($(ifc "$B" hn1 rx_packets) - p1))
	mt=$(($(eng 0 tx_msgs) - m0)) mr=$(($(eng 1 rx_msgs) - m1))
	dd=$(($(hn_drops "$A" 0) - d0 + $(hn_drops "$B" 1) - d1))
	sbe=$(($(snmp "$A" SndbufErrors) - sb))
	rbe=$(($(snmp "$B" RcvbufErrors) - rb)) sdd=$(($(softdrop) - sd))
	if [ "$mode" = tcp ]; then
		sent=$(jnum /tmp/iperf.json sum_sent bytes)
		# what the server had read when the client said it was done;
		# the server then closes, and what was in flight goes no
		# further: the frames carry at least recv and at most sent
		recv=$(jnum /tmp/iperf.json sum_received bytes)
		lost=0
	else
		sent=$(jnum /tmp/iperf.json sum bytes)
		pk=$(jnum /tmp/iperf.json sum packets)
		lost=$(jnum /tmp/iperf.json sum lost_packets)
		recv=$(( sent - lost * (sent / pk) ))
	fi
	echo "iperf3 $mode: sent $sent bytes, received $recv (lost datagrams $lost)"
	echo "hn0 tx $it bytes $pt frames, engine node 0 sent $et bytes $mt messages"
	echo "engine node 1 delivered $er bytes $mr messages, hn1 rx $ir bytes $pr frames; hybridnet drops $dd"
	echo "A: Udp SndbufErrors +$sbe (the qdisc's drops); B: Udp RcvbufErrors +$rbe; softnet drops +$sdd"
	# frames: the interfaces and the engine agree exactly, and hybridnet
	# dropped none; iperf3's payload is under the frames' bytes, by the
	# headers and the control connection (at most 10 %: 66 of 1514 for
	# TCP, 42 of 1042 for UDP); UDP's lost datagrams are among the
	# qdisc's, the receiving socket's and the backlog's drops, all
	# outside hybridnet (a drop late in the run is no gap iperf3 sees)
	# a backlog's drops (softnet drops) would be the core's rx_dropped,
	# in neither rx_packets nor rx_bytes
	[ "$it" -eq "$et" ] && [ "$et" -eq "$er" ] &&
	{ [ "$er" -eq "$ir" ] || [ "$sdd" -gt 0 ]; } &&
	[ "$pt" -eq "$mt" ] && [ "$mt" -eq "$mr" ] && [ "$mr" -eq $((pr + sdd)) ] &&
	[ "$dd" -eq "$sdd" ] && [ "$recv" -gt 0 ] && [ "$recv" -le "$sent" ] &&
	[ "$it" -gt "$recv" ] && [ "$it" -lt $((sent + sent / 10 + 20000)) ] &&
	[ "$lost" -le $((sbe + rbe + sdd)) ]
}

if [ -z "$free_only" ]; then
check "iperf3 TCP A -> B, 1 MB: iperf3's bytes, the interfaces' and the engine's agree" \
	iperf tcp -n 1M
check "iperf3 UDP A -> B, 1 MB at 20 Mb/s in 1000-byte datagrams: likewise, every loss outside hybridnet" \
	iperf udp -n 1M -u -b 20M -l 1000
check "iperf3 UDP A -> B at 1 Gb/s for 3 s, more than the fabric takes: likewise" \
	iperf udp -t 3 -u -b 1G -l 1000
check "rmmod" rmmod hybridnet
cleanup_ns
fi

# ---- backpressure: a UDP flood into a slow fabric ---------------------
# paced at 1:1, 1 Mb/s links and slots of 100 us, one wormhole slot in
# five: a datagram of 1000 bytes takes 40 ms of the fabric, so the sender
# outruns it whatever the kernel (on the debug kernel a 10 Mb/s fabric,
# 4 ms a datagram, once kept up with it and the queue never stopped)
FLOOD=500
if [ -z "$free_only" ]; then
check "insmod nodes=4 clock=paced pace_ppm=1000000 link_mbps=1 slots of 100 us, hn0..hn3" \
	load_links 4 nodes=4 clock=paced pace_ppm=1000000 link_mbps=1 \
	slot_p_ns=100000 slot_w_ns=100000
check "two namespaces, static neighbours, the fabric quiet" setup_pair
check "hn0's qdisc: pfifo_fast with a queue of 20 frames" sh -c "
	nsenter -t $A -n ipr link set hn0 txqueuelen 20 &&
	nsenter -t $A -n tcr qdisc replace dev hn0 root pfifo_fast &&
	nsenter -t $A -n tcr -s qdisc show dev hn0"
fi

# tc's "Sent B bytes P pkt (dropped D, ...": P or D
qd() { in_ns "$A" tcr -s qdisc show dev hn0 |
	sed -n "s/.*Sent [0-9]* bytes \([0-9]*\) pkt (dropped \([0-9]*\),.*/\\$1/p"; }
# flood [stop]: FLOOD datagrams from A to B, every one accounted for;
# with "stop", the queue must have been stopped (the qdisc dropped)
flood() {
	qs=$(qd 1) qdr=$(qd 2)
	t0=$(ifc "$A" hn0 tx_packets) x0=$(ifc "$A" hn0 tx_dropped)
	m0=$(eng 0 tx_msgs) m1=$(eng 1 rx_msgs)
	r1=$(ifc "$B" hn1 rx_packets) y1=$(ifc "$B" hn1 rx_dropped)
	sb=$(snmp "$A" SndbufErrors) rb=$(snmp "$B" RcvbufErrors)
	sd=$(softdrop)
	np=$(snmp "$B" NoPorts) ie=$(snmp "$B" InErrors)
	# the receiver ends after 10 s without a datagram: the fabric moves
	# only on events (a write, a read, a kick), so a lost wake-up stops
	# the flow for good, while a vCPU of this VM that the shared host
	# does not run for seconds only delays it (per-CPU work items and
	# backlogs wait for it); "gap" shows the longest wait
	in_ns "$B" udpflood recv 9000 10000 >/tmp/flood-r.out 2>/tmp/flood-r.err &
	rp=$!
	hogs=
	for _ in $HN_HOGS; do
		sh -c 'while :; do :; done' & hogs="$hogs $!"
	done
	i=0
	while ! grep -q ready /tmp/flood-r.err && [ $i -lt 100 ]; do
		sleep 0.05
		i=$((i + 1))
	done
	# the sender outruns the fabric: once hn0's NIC (its ring) is
	# full, the interface stops its queue and the qdisc holds 20
	# frames, then drops (pfifo_fast drops only while the queue is
	# stopped: it is otherwise emptied as it is filled)
	in_ns "$A" udpflood send 10.0.0.2 9000 $FLOOD 1000 >/tmp/flood-s.out
	wait $rp
	[ -n "$hogs" ] && kill $hogs
	# where the frames were as the receiver gave up (a late one shows)
	late="$(($(eng 0 tx_msgs) - m0)) $(($(eng 1 rx_msgs) - m1)) $(($(ifc "$B" hn1 rx_packets) - r1))"
	late="$late $(cat /sys/class/hybridnet/fabric0/stats/rx_queued)"
	late="$late $(cat /sys/class/hybridnet/fabric0/clock/stalls) $(cat /sys/class/hybridnet/fabric0/clock/wakeups)"
	quiet
	sent=$(sed -n 's/^sent //p' /tmp/flood-s.out)
	got=$(sed -n 's/^received //p' /tmp/flood-r.out)
	qsent=$(($(qd 1) - qs)) qdrop=$(($(qd 2) - qdr))
	hntx=$(($(ifc "$A" hn0 tx_packets) - t0)) hnxd=$(($(ifc "$A" hn0 tx_dropped) - x0))
	etx=$(($(eng 0 tx_msgs) - m0)) erx=$(($(eng 1 rx_msgs) - m1))
	hnrx=$(($(ifc "$B" hn1 rx_packets) - r1)) hnrd=$(($(ifc "$B" hn1 rx_dropped) - y1))
	sbe=$(($(snmp "$A" SndbufErrors) - sb)) rbe=$(($(snmp "$B" RcvbufErrors) - rb))
	sdd=$(($(softdrop) - sd))
	# frames hn1 handed to B's stack that reached UDP after the receiver
	# had given up (a vCPU the loaded host did not run held them in a
	# per-CPU backlog): B counts them as NoPorts, not lost
	npd=$(($(snmp "$B" NoPorts) - np))
	echo "udpflood: sent $sent, received $got, longest gap $(sed -n 's/^gap //p' /tmp/flood-r.out) ms"
	echo "qdisc: sent $qsent, dropped $qdrop (Udp SndbufErrors +$sbe)"
	echo "hn0: tx_packets $hntx, tx_dropped $hnxd; engine: node 0 sent $etx, node 1 delivered $erx"
	echo "hn1: rx_packets $hnrx, rx_dropped $hnrd; B: Udp RcvbufErrors +$rbe; softnet drops +$sdd"
	echo "B: Udp NoPorts +$npd, InErrors +$(($(snmp "$B" InErrors) - ie))"
	echo "as the receiver ended: node 0 sent, node 1 delivered, hn1 rx_packets, rx_queued, clock stalls, wakeups: $late"
	[ "$sent" -eq $FLOOD ] &&
	[ "$sent" -eq $((qsent + qdrop)) ] && [ "$qdrop" -eq "$sbe" ] &&
	[ "$qsent" -eq $((hntx + hnxd)) ] && [ "$hnxd" -eq 0 ] &&
	[ "$hntx" -eq "$etx" ] && [ "$etx" -eq "$erx" ] &&
	[ "$erx" -eq $((hnrx + hnrd)) ] && [ "$hnrd" -eq "$sdd" ] &&
	[ "$hnrx" -eq $((got + rbe + npd)) ] &&
	{ [ "$1" != stop ] || [ "$qdrop" -gt 0 ]; }
}
if [ -z "$free_only" ]; then
check "UDP flood, $FLOOD x 1000 bytes into 1 Mb/s: the queue stops, hybridnet drops none, every datagram accounted for" \
	flood stop
check "rmmod after the flood" rmmod hybridnet
cleanup_ns
fi

# the free clock, NIC and receive buffers of one largest message: the
# fabric waits for hn1 to take frames off its port, and the clock's
# kthread, finding no slot can run, counts a stall and sleeps until a
# kick; hn0's NIC is full, so hn0 waits for room that only the kthread
# announces.  hn1 only receives: the room it gives back must kick the
# clock, as a read of a file does, or the flow stops for good.
FLOOD=2000
check "insmod nodes=4 rx_buf_bytes=8192 nic_buf_bytes=8192 (the free clock), hn0..hn3" \
	load_links 4 nodes=4 rx_buf_bytes=8192 nic_buf_bytes=8192
check "two namespaces, static neighbours, the fabric quiet" setup_pair
check "hn0's qdisc: pfifo_fast with a queue of 20 frames" sh -c "
	nsenter -t $A -n ipr link set hn0 txqueuelen 20 &&
	nsenter -t $A -n tcr qdisc replace dev hn0 root pfifo_fast"
nf=0
while [ $nf -lt "${HN_FLOODS:-1}" ]; do
	nf=$((nf + 1))
	check "UDP flood $nf, $FLOOD x 1000 bytes, free clock, a receiver that only receives: every datagram delivered or accounted for" \
		flood
done
check "rmmod after the flood" rmmod hybridnet
cleanup_ns
[ -e /sys/module/hybridnet ] && rmmod hybridnet

echo "1..$n"
[ $fails -eq 0 ]
