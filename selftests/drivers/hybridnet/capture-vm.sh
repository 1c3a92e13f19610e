#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# capture-vm.sh - the capture interface (kmod/capture.c), in the VM, as
# TAP:
#  - tcpdump -i hnmon0 -w records the messages of files (hntraffic), of
#    two interfaces (ping, IPv4 and IPv6) and of the generator, circuit
#    and wormhole; hn_pcap reads the capture back and checks every frame
#    (its header, lengths, MACs, times), and the counts per
#    sender kind, pair and mode against the fabric's: deliveries per node
#    and mode (sysfs nodes/N/), the interfaces' frames, the generator's
#    delivered messages, hntraffic's pairs;
#  - frames the capture cannot keep (a ring of one frame) are counted,
#    in hnctl capture, ethtool -S and rx_dropped, and are the gaps of seq;
#    payloads are cut at snaplen and counted as truncated;
#  - the capture changes nothing: the generator's run gives the same
#    result, to the nanosecond, with and without it, and hntraffic loses
#    nothing while the capture drops;
#  - made and removed by hnctl and by ip link, one at most, refused to a
#    user namespace's root; rmmod with tcpdump on it.
# Debian's tcpdump and ip run in the busybox initramfs as tcpdump and ipr
# (selftests/vm/dynbin.sh).  Loads and unloads the module (HN_KO).

KO=${HN_KO:-/lib/hn/hybridnet.ko}
NODES=/sys/class/hybridnet/fabric0/nodes
n=0
fails=0
# shellcheck disable=SC2034 # netns-lib.sh uses them
pids=

. "$(dirname "$0")/netns-lib.sh"

# a value of hnctl -j capture: capf KEY
capf() { hnctl -j capture | sed -n "s/.*\"$1\":\([0-9]*\).*/\1/p"; }
# every node's deliveries by mode, "N circuit wormhole" per line
rx_all() {
	for d in $NODES/*; do
		echo "${d##*/} $(cat "$d"/rx_msgs_circuit) $(cat "$d"/rx_msgs_wormhole)"
	done
}
# the sum of column $1 of hn_pcap's count lines whose fields match:
# pcap_sum FILE FROM SRC DST MODE ('*' matches anything)
pcap_sum() {
	awk -v f="$2" -v s="$3" -v d="$4" -v m="$5" '$1 == "count" &&
		(f == "*" || $2 == f) && (s == "*" || $3 == s) &&
		(d == "*" || $4 == d) && (m == "*" || $5 == m) { n += $6 }
		END { print n + 0 }' "$1"
}
# hn_pcap's figure KEY (frames, other, gaps, bad)
pcap_fig() { sed -n "s/^$2 //p" "$1"; }

# tcpdump needs packet sockets (the debug kernel has none): without
# them the checks of the capture file are skipped, the others run
pcap=
[ -e /proc/net/packet ] && pcap=1
# pcheck NAME CMD...: check, when tcpdump can capture
pcheck() {
	if [ -n "$pcap" ]; then
		check "$@"
	else
		n=$((n + 1))
		echo "ok $n - $1 # SKIP no packet sockets in this kernel (CONFIG_PACKET)"
	fi
}

# start tcpdump on hnmon0 into $1; returns once it listens
td_start() {
	[ -n "$pcap" ] || return 0
	rm -f "$1" /tmp/td.err
	tcpdump -Z root -U -n -i hnmon0 -w "$1" 2>/tmp/td.err &
	td=$!
	i=0
	while ! grep -q "listening on" /tmp/td.err 2>/dev/null && [ $i -lt 200 ]; do
		sleep 0.05
		i=$((i + 1))
	done
	grep "listening on" /tmp/td.err
}

# wait until the pcap $1 holds $2 hybridnet frames, then stop tcpdump
td_stop() {
	[ -n "$pcap" ] || return 0
	i=0
	while [ "$(hn_pcap "$1" 2>/dev/null | sed -n 's/^frames //p')" != "$2" ] &&
	      [ $i -lt 300 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	kill -INT $td
	wait $td
	cat /tmp/td.err
}

# ---- made and removed --------------------------------------------------
check "insmod nodes=8 slots=2" insmod "$KO" nodes=8 slots=2
check "no capture: hnctl capture says off" sh -c \
	'hnctl capture | tee /dev/stderr | grep -qx "capture off"'
check "hnctl capture off with none: refused, status 2" sh -c '
	out=$(hnctl capture off 2>&1); rc=$?; echo "$out"
	[ $rc -eq 2 ] && echo "$out" | grep -q "capture is off"'
check "ip link add hnmon0 type hybridnet-capture, up: hnctl capture shows it" sh -c '
	ipr link add hnmon0 type hybridnet-capture && ipr link set hnmon0 up &&
	ipr -d link show hnmon0 && hnctl capture | tee /dev/stderr |
	grep -q "^hnmon0 ifindex [0-9]* netns [0-9]* snaplen 65535 ring 1024$"'
check "a second capture interface: refused by ip and by hnctl, with the reason" sh -c '
	out=$(ipr link add cap2 type hybridnet-capture 2>&1); rc=$?; echo "$out"
	[ $rc -ne 0 ] && echo "$out" | grep -q "a capture interface exists already" &&
	out=$(hnctl capture on cap2 2>&1); rc=$?; echo "$out"
	[ $rc -eq 2 ] && echo "$out" | grep -q "capture is on already: hnmon0"'
check "ip link del hnmon0: capture off" sh -c \
	'ipr link del hnmon0 && hnctl capture | grep -qx "capture off"'
if unshare -U -r -n true 2>/dev/null; then
	# its own network namespace has no fabric, and it may make none
	check "root of a user namespace: no fabric to capture there, none made" sh -c '
		out=$(unshare -U -r -n ipr link add hnmon0 type hybridnet-capture 2>&1); rc=$?
		echo "$out"; [ $rc -ne 0 ] &&
		echo "$out" | grep -q "no fabric in this network namespace to capture" &&
		out=$(unshare -U -r -n hnctl fabric add 2>&1); rc=$?
		echo "$out"; [ $rc -eq 2 ] && echo "$out" | grep -q "Operation not permitted"'
else
	n=$((n + 1))
	echo "ok $n - root of a user namespace refused # SKIP no unshare -U -r"
fi
check "hnctl capture on cap0 snaplen 100 ring 7: up, ethtool -g says 7" sh -c '
	hnctl capture on cap0 snaplen 100 ring 7 && ipr link show cap0 | grep -q "UP" &&
	hnctl capture | tee /dev/stderr | grep -q "^cap0 .* snaplen 100 ring 7$"'
check "hnctl capture off" sh -c \
	'hnctl capture off && ! ipr link show cap0 2>/dev/null'

# ---- every sender, counted ----------------------------------------------
# the sum of hn_pcap's counts for MODE (circuit, wormhole) to node D
to_node() {
	awk -v d="$2" -v m="$3" '$1 == "count" && $4 == d && $5 == m { n += $6 }
		END { print n + 0 }' "$1"
}

# hn_pcap's figures of FILE are "frames N, bad 0, gaps 0, other 0"
pcap_clean() {
	cat /tmp/td.out "$1.txt" "$1.err" | grep -v '^count'
	[ "$(pcap_fig "$1.txt" frames) $(pcap_fig "$1.txt" bad)" = "$2 0" ] &&
	[ "$(pcap_fig "$1.txt" gaps) $(pcap_fig "$1.txt" other)" = "0 0" ]
}

# per node and mode, the frames equal the deliveries of sysfs nodes/N/
# between /tmp/rx0 and /tmp/rx1
per_node() {
	bad=0
	paste /tmp/rx0 /tmp/rx1 >/tmp/rx
	while read -r d c0 w0 _ c1 w1; do
		c=$(to_node "$1" "$d" circuit) w=$(to_node "$1" "$d" wormhole)
		echo "node $d: circuit $c of $((c1 - c0)), wormhole $w of $((w1 - w0))"
		[ "$c" -eq $((c1 - c0)) ] && [ "$w" -eq $((w1 - w0)) ] || bad=1
	done </tmp/rx
	[ $bad -eq 0 ] && [ "$(pcap_sum "$1" '*' '*' '*' circuit)" -gt 0 ] &&
	[ "$(pcap_sum "$1" '*' '*' '*' wormhole)" -gt 0 ]
}

# hntraffic's all-to-all among nodes 2-5: 3 frames for each of 12 pairs
file_pairs() {
	grep '^count file' "$1"
	[ "$(pcap_sum "$1" file '*' '*' '*')" -eq 36 ] || return 1
	for s in 2 3 4 5; do
		for d in 2 3 4 5; do
			[ $s -eq $d ] && continue
			[ "$(pcap_sum "$1" file $s $d '*')" -eq 3 ] || return 1
		done
	done
}

# the interfaces' frames: hn0's and hn1's tx_packets, $2, both ways
netdev_frames() {
	grep '^count netdev' "$1"
	a=$(pcap_sum "$1" netdev 0 1 '*') b=$(pcap_sum "$1" netdev 1 0 '*')
	[ "$a" -gt 0 ] && [ "$b" -gt 0 ] && [ $((a + b)) -eq "$2" ] &&
	[ "$(pcap_sum "$1" netdev '*' '*' '*')" -eq "$2" ]
}

# the generator's frames: its delivered messages, $2
gen_frames() {
	echo "generator: $(pcap_sum "$1" generator '*' '*' '*') frames, $2 delivered"
	[ -n "$2" ] && [ "$(pcap_sum "$1" generator '*' '*' '*')" -eq "$2" ]
}

# delivered since /tmp/rx0, by every node, both modes
delivered() {
	rx_all >/tmp/rx1
	paste /tmp/rx0 /tmp/rx1 | awk '{ n += $5 - $2 + $6 - $3 } END { print n }'
}

# hnctl capture counted $1 frames
captured() {
	echo "captured $(capf captured), delivered $1"
	[ "$(capf captured)" = "$1" ]
}

pings() {
	in_ns "$A" ping -c 5 -i 0.2 -W 10 10.0.0.2 &&
	in_ns "$B" ping -c 5 -i 0.2 -W 10 fd00::1
}

check "interfaces on nodes 0 and 1" sh -c \
	'hnctl netdev add node 0 && hnctl netdev add node 1'
check "two namespaces, the fabric quiet" setup_pair
check "hnctl preload shift 1..1: circuits u -> u+1" hnctl preload shift 1..1
check "hnctl capture on ring 65536 (no drop)" hnctl capture on ring 65536
pcheck "tcpdump -i hnmon0 -w listens" td_start /tmp/all.pcap
rx_all >/tmp/rx0
p0=$(ifc "$A" hn0 tx_packets) p1=$(ifc "$B" hn1 tx_packets)
check "files: hntraffic all-to-all among nodes 2-5, 9 messages each, 3 a pair, intact" sh -c \
	'hntraffic --pattern all-to-all --batch 9 --nodes 2-5 --size 64-3000 --seed 3 --json >/tmp/hnt.json &&
	 grep -q "\"verified\": true, \"in_order\": true, \"lost\": 0," /tmp/hnt.json'
check "interfaces: ping A -> B over IPv4, B -> A over IPv6" pings
check "the generator: uniform, 20 messages from each node, all delivered" sh -c \
	'hnctl traffic start --pattern uniform --batch 20 --size 64-512 --seed 5 --wait >/dev/null &&
	 hnctl traffic | grep -q "^state *done"'
quiet
gen=$(hnctl -j traffic | sed -n 's/.*"done-msgs":\([0-9]*\).*/\1/p')
nd=$(($(ifc "$A" hn0 tx_packets) - p0 + $(ifc "$B" hn1 tx_packets) - p1))
del=$(delivered)
check "hnctl capture counted every delivery" captured "$del"
td_stop /tmp/all.pcap "$del" >/tmp/td.out 2>&1
[ -z "$pcap" ] || hn_pcap /tmp/all.pcap >/tmp/all.pcap.txt 2>/tmp/all.pcap.err
pcheck "hn_pcap: $del frames, every one well formed, none missing, none else" \
	pcap_clean /tmp/all.pcap "$del"
pcheck "per node and mode: the frames equal the fabric's deliveries, both modes" \
	per_node /tmp/all.pcap.txt
pcheck "files: 36 frames, 3 for each of the 12 pairs of nodes 2-5" \
	file_pairs /tmp/all.pcap.txt
pcheck "interfaces: the frames equal hn0's and hn1's tx_packets ($nd)" \
	netdev_frames /tmp/all.pcap.txt "$nd"
pcheck "the generator: the frames equal its delivered messages" \
	gen_frames /tmp/all.pcap.txt "$gen"
check "hnctl capture: nothing dropped, nothing truncated" sh -c '
	hnctl capture
	[ "$(hnctl -j capture | sed "s/.*\"truncated\":\([0-9]*\),\"rx-drop-no-mem\":\([0-9]*\),\"rx-drop-ring-full\":\([0-9]*\).*/\1 \2 \3/")" = "0 0 0" ]'
check "hnctl capture off, interfaces deleted" sh -c \
	'hnctl capture off && hnctl netdev del node 0 && hnctl netdev del node 1'
cleanup_ns

# ---- frames the capture cannot keep are counted ------------------------
# captured + dropped = delivered; some dropped
drops() {
	hnctl capture
	echo "delivered $1"
	[ $((cap + nomem + full)) -eq "$1" ] && [ "$full" -gt 0 ]
}

drop_counters() {
	hn_ethtool hnmon0 && grep hnmon0 /proc/net/dev
	[ "$(hn_ethtool hnmon0 rx_drop_ring_full)" -eq "$full" ] &&
	[ "$(hn_ethtool hnmon0 captured)" -eq "$cap" ] &&
	[ "$(awk '$1 == "hnmon0:" { print $5 }' /proc/net/dev)" -ge $((nomem + full)) ]
}

# the frames kept are whole and cut at 16 bytes; seq's gaps are drops
drop_pcap() {
	cat /tmp/td.out /tmp/drop.pcap.txt /tmp/drop.pcap.err | grep -v '^count'
	g=$(pcap_fig /tmp/drop.pcap.txt gaps)
	[ "$(pcap_fig /tmp/drop.pcap.txt frames) $(pcap_fig /tmp/drop.pcap.txt bad)" = "$cap 0" ] &&
	[ "$g" -gt 0 ] && [ "$g" -le $((nomem + full)) ]
}

# every file message kept was longer than 16 bytes: truncated
truncated() {
	t=$(capf truncated) f=$(pcap_sum /tmp/drop.pcap.txt file '*' '*' '*')
	echo "truncated $t, file frames $f"
	[ "$t" -eq "$f" ] && [ "$t" -gt 0 ]
}

check "hnctl capture on snaplen 16 ring 1" hnctl capture on snaplen 16 ring 1
pcheck "tcpdump -i hnmon0 -w listens" td_start /tmp/drop.pcap
rx_all >/tmp/rx0
check "files: 2000 messages of 64-1024 bytes while the capture drops: none lost" sh -c \
	'hntraffic --pattern all-to-all --batch 100 --nodes 0-4 --size 64-1024 --seed 9 --json >/tmp/hnt.json &&
	 grep -q "\"verified\": true, \"in_order\": true, \"lost\": 0," /tmp/hnt.json'
check "the generator: 8 x 500 messages while the capture drops, all delivered" sh -c \
	'hnctl traffic start --pattern uniform --batch 500 --size 64 --seed 5 --wait >/dev/null &&
	 hnctl traffic | grep -q "^state *done"'
del=$(delivered)
cap=$(capf captured) nomem=$(capf rx-drop-no-mem) full=$(capf rx-drop-ring-full)
td_stop /tmp/drop.pcap "$cap" >/tmp/td.out 2>&1
[ -z "$pcap" ] || hn_pcap /tmp/drop.pcap 16 >/tmp/drop.pcap.txt 2>/tmp/drop.pcap.err
check "captured + dropped = delivered, some dropped with a ring of one frame" \
	drops "$del"
check "ethtool -S hnmon0 and rx_dropped count the drops" drop_counters
pcheck "hn_pcap: the frames kept are whole, cut at snaplen 16; seq's gaps are drops" \
	drop_pcap
pcheck "truncated: every file message kept" truncated
check "rmmod" rmmod hybridnet

# ---- the capture changes nothing ---------------------------------------
# the generator on a fresh module: a run in virtual time, the same seed
gen_run() {
	insmod "$KO" nodes=8 slots=2 || return 1
	[ -z "$1" ] || hnctl capture on ring "$1" || return 1
	hnctl traffic start --pattern uniform --batch 300 --size 64-2048 --seed 11 --wait >/dev/null &&
	hnctl -j traffic >"$2" && hnctl -j stats >>"$2" &&
	{ [ -z "$1" ] || { hnctl capture && [ "$(capf rx-drop-ring-full)" -gt 0 ]; }; } &&
	rmmod hybridnet
}
check "the generator without the capture" gen_run "" /tmp/gen0.json
check "the generator with a capture that drops (ring 1), and drops" gen_run 1 /tmp/gen1.json
check "the same run to the nanosecond: hnctl traffic's and hnctl stats' figures" sh -c '
	cat /tmp/gen0.json; cmp /tmp/gen0.json /tmp/gen1.json'

# ---- unload with tcpdump on the capture interface ----------------------
check "insmod, capture on, tcpdump on it, traffic" sh -c "
	insmod $KO nodes=8 slots=2 && hnctl capture on"
td=
td_start /tmp/unload.pcap >/dev/null
check "rmmod while tcpdump captures (if it can): done, and tcpdump ends" sh -c "
	hnctl traffic start --pattern uniform --load 0.3 --measure 1s >/dev/null &&
	rmmod hybridnet && i=0 && while kill -0 $td 2>/dev/null && [ \$i -lt 100 ]; do
		sleep 0.1; i=\$((i + 1)); done; ! kill -0 $td 2>/dev/null"
wait $td 2>/dev/null
[ -e /sys/module/hybridnet ] && rmmod hybridnet

echo "1..$n"
[ $fails -eq 0 ]
