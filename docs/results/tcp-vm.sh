#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# tcp-vm.sh - the TCP experiment of docs/results/tcp.md, in the VM
# (hn.run=results-tcp, make results-tcp); its output is parsed by
# docs/results/tcp.sh on the host.
#
# The fabric: 2 nodes with an interface each (hn0, hn1), the paced clock
# at 1:1, one predictive slot reserved for preloads (pin_slots=1, so no
# circuit is ever predicted), the fixed policy (the predictive slot and
# the wormhole slot alternate, both HN_TCP_SLOT_NS long), links of
# HN_TCP_MBPS, interfaces of MTU 1500.  One TCP flow from hn0 to hn1 for HN_TCP_SECONDS; its
# receiver counts bytes per HN_TCP_BIN_US and, every PERIOD ms, runs
# "hnctl preload slot 0 0:1 1:0" and "hnctl release all" in turn
# (tcpbins), for each PERIOD of HN_TCP_PERIODS: 0 means never (the flow
# on the wormhole slot only), "on" a circuit throughout.  Then ping
# latency, HN_TCP_PINGS echoes on a circuit and as many by wormhole.
#
# Output: "== tcp PERIOD", tcpbins' lines; "== ping MODE", one round
# trip in ms per line; each with a "# counters" line: the engine's
# per-mode counts and TCP's retransmissions before and after.

KO=${HN_KO:-/lib/hn/hybridnet.ko}
NODES=/sys/class/hybridnet/fabric0/nodes
SLOT=${HN_TCP_SLOT_NS:-100000}
MBPS=${HN_TCP_MBPS:-100}
SECS=${HN_TCP_SECONDS:-4}
BIN=${HN_TCP_BIN_US:-100}
PERIODS=${HN_TCP_PERIODS:-0 on 1000 500 200}
PINGS=${HN_TCP_PINGS:-200}
# shellcheck disable=SC2034 # netns-lib.sh uses them
pids=
. "$(dirname "$0")/netns-lib.sh"

ON="nsenter -t 1 -n hnctl preload slot 0 0:1 1:0 >/dev/null"
OFF="nsenter -t 1 -n hnctl release all >/dev/null"
# the per-mode messages sent by node 0 / node 1, the frames hn0 and hn1
# dropped (all reasons, both ways), and the segments A's TCP retransmitted
modes() {
	for m in circuit wormhole; do
		printf ' %s %s/%s' $m "$(($(cat $NODES/0/tx_msgs_$m)))" \
			"$(($(cat $NODES/1/tx_msgs_$m)))"
	done
	printf ' drops %s' $(($(ifc "$A" hn0 tx_dropped) + $(ifc "$A" hn0 rx_dropped) +
		$(ifc "$B" hn1 tx_dropped) + $(ifc "$B" hn1 rx_dropped)))
	printf ' retrans %s' "$(in_ns "$A" awk '/^Tcp:/ { if (!h) { split($0, n); h = 1 }
		else for (i = 1; i <= NF; i++) if (n[i] == "RetransSegs") print $i }' /proc/net/snmp)"
}

load_links 2 nodes=2 clock=paced pace_ppm=1000000 slots=1 \
	pin_slots=1 policy=0 slot_p_ns="$SLOT" slot_w_ns="$SLOT" \
	link_mbps="$MBPS" || exit 1
setup_pair >/dev/null || { echo "setup failed"; exit 1; }
# Ethernet's MTU: a frame of 1514 bytes is 121 us on a 100 Mb/s link
in_ns "$A" ipr link set hn0 mtu 1500
in_ns "$B" ipr link set hn1 mtu 1500
echo "# kernel $(uname -r), $(grep -c ^processor /proc/cpuinfo) CPUs"
echo "# config: nodes 2, slots 1 (pinned), policy fixed, slot ${SLOT} ns, link ${MBPS} Mb/s, MTU 1500, paced 1:1"
for period in $PERIODS; do
	p=$period
	case $period in
	on)	eval "$ON"; p=0 ;;
	*)	eval "$OFF" ;;
	esac
	rm -f /tmp/tb.err
	in_ns "$B" tcpbins sink 5001 "$BIN" "$SECS" "$p" "$ON" "$OFF" \
		>/tmp/tb.out 2>/tmp/tb.err &
	sp=$!
	i=0
	while ! grep -q ready /tmp/tb.err 2>/dev/null && [ $i -lt 200 ]; do
		sleep 0.05
		i=$((i + 1))
	done
	c0=$(modes)
	in_ns "$A" tcpbins send 10.0.0.2 5001 $((SECS + 2)) 2>/dev/null
	wait $sp
	echo "== tcp $period"
	echo "# counters before:$c0 after:$(modes)"
	cat /tmp/tb.out
	eval "$OFF"
	quiet >/dev/null
done
for mode in circuit wormhole; do
	if [ $mode = circuit ]; then eval "$ON"; else eval "$OFF"; fi
	c0=$(modes)
	in_ns "$A" ping -c "$PINGS" -i 0.02 10.0.0.2 >/tmp/ping.out 2>&1
	echo "== ping $mode"
	echo "# counters before:$c0 after:$(modes)"
	sed -n 's/.*time=\([0-9.]*\) ms/\1/p' /tmp/ping.out
done
eval "$OFF"
echo "== clock"
grep . /sys/class/hybridnet/fabric0/clock/overruns \
	/sys/class/hybridnet/fabric0/clock/late_steps \
	/sys/class/hybridnet/fabric0/clock/slip_ns \
	/sys/class/hybridnet/fabric0/clock/steps
cleanup_ns
rmmod hybridnet
