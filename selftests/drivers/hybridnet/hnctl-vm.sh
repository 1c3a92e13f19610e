#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# hnctl-vm.sh - hnctl against the loaded module, inside the VM; prints TAP.
# Expects hybridnet loaded with nodes=8 slots=4 and no file open; hnctl, demo
# and hn_hold on PATH, the module at $HN_KO (it is unloaded and loaded
# again, with nodes=8 slots=4).  Each check compares exact output.

n=0
fails=0

# check DESC CMD...: CMD's success is the check
check() {
	n=$((n + 1))
	desc=$1
	shift
	if "$@" >/tmp/check.out 2>&1; then
		echo "ok $n hnctl: $desc"
	else
		fails=$((fails + 1))
		sed 's/^/# /' /tmp/check.out
		echo "not ok $n hnctl: $desc"
	fi
}

# same WANT CMD...: CMD succeeds and prints exactly WANT (stdout and
# stderr); "same WANT status N CMD..." wants CMD to exit with N instead
same() {
	want=$1
	shift
	got=$("$@" 2>&1)
	rc=$?
	[ $rc -eq 0 ] && [ "$got" = "$want" ] && return 0
	echo "want: $want"
	echo "got:  $got (status $rc)"
	return 1
}

# status WANT CMD...: CMD exits with status WANT
status() {
	want=$1
	shift
	"$@"
	[ $? -eq "$want" ]
}

check "show the loaded fabric" \
	same '{"nodes":8,"slots":4}' hnctl -j show nodes slots
check "show preload: the module parameter" \
	same 'slots 4
preload-at-load none' hnctl show slots preload
check "k, the earlier name of slots, is no key" \
	same "hnctl show: unknown key 'k'
Try 'hnctl show --help'.
status 1" sh -c 'hnctl show k; echo "status $?"'
# sysfs config/ prints what hnctl show prints: the word, the policy's words
check "set policy sla,preempt: sysfs and hnctl show the same words" \
	same "policy sla,preempt
sla,preempt" sh -c 'hnctl set policy ses+sla+preempt >/dev/null &&
		hnctl show policy && cat /sys/class/hybridnet/fabric0/config/policy &&
		hnctl set policy ses >/dev/null'
# one vocabulary: hnsim takes the module's configuration as hnctl gives it
check "hnsim config -c reads hnctl -j show back, field for field" sh -c \
	'hnctl set policy sla,no-w predict-algo kstep evict-algo counter >/dev/null &&
	 hnctl -j show > /tmp/show.json &&
	 keys=$(hnsim config | sed -n "s/=.*//p" | grep -vx preload | tr _ -) &&
	 hnsim config -j -c /tmp/show.json > /tmp/sim.json &&
	 hnctl -j show $keys > /tmp/ctl.json && cat /tmp/sim.json &&
	 cmp /tmp/sim.json /tmp/ctl.json && grep -q "\"evict-algo\":\"counter\"" /tmp/sim.json &&
	 hnctl set policy ses predict-algo first-fit evict-algo timeout >/dev/null'
check "set then show" sh -c \
	'hnctl set policy sla slot-w-ns 300 && hnctl show policy slot-w-ns | tr "\n" " " | grep -qx "policy sla slot-w-ns 300 "'
check "set back" hnctl set policy ses slot-w-ns 200
check "show topology: the crossbar" same "topology crossbar" hnctl show topology
check "set topology crossbar with nodes" same '{"topology":"crossbar","nodes":8}' \
	sh -c 'hnctl set topology crossbar nodes 8 && hnctl -j show topology nodes'
check "set topology: text that is no topology, the kernel's reason" \
	same "hnctl: configuration refused: topology must be crossbar, fattree:L,W, mesh:KxK, torus:KxK or gh:N,K (attribute topology)
status 2" sh -c 'hnctl set topology ring:8; echo "status $?"'
check "set topology fattree:2,4: W^L nodes" same "topology fattree:2,4
nodes 16" sh -c 'hnctl set topology fattree:2,4 policy no-w >/dev/null &&
		hnctl show topology nodes'
check "set topology back to the crossbar" \
	sh -c 'hnctl set topology crossbar nodes 8 policy ses >/dev/null'
check "set topology fattree:2,4 with the wormhole slot: it reads back" \
	same '{"topology":"fattree:2,4","nodes":16}' \
	sh -c 'hnctl set topology fattree:2,4 >/dev/null && hnctl -j show topology nodes'
check "set topology back to the crossbar, again" hnctl set topology crossbar nodes 8
check "set up-select: each choice reads back" same "up-select det
up-select random
up-select adaptive" sh -c 'for u in det random adaptive; do
		hnctl set up-select $u >/dev/null && hnctl show up-select; done'
check "show -j: switching and up-select are words" \
	same '{"switching":"wormhole","up-select":"adaptive"}' \
	hnctl -j show switching up-select
check "set up-select back" sh -c 'hnctl set up-select 0 >/dev/null'
check "set ft-sched: each scheduler reads back, live" same "ft-sched local-greedy
ft-sched local-random
ft-sched optimal
ft-sched levelwise" sh -c 'for a in local-greedy local-random optimal levelwise; do
		hnctl set ft-sched $a >/dev/null && hnctl show ft-sched; done'
# Fig. 7.4's conflict on FT(2,3): 0->3 and 6->4 both reach leaf 1;
# local-greedy climbs both by up-port 0 and meets the same down-link,
# level-wise takes up-port 1 for the second
check "ft-sched routes a preload: local-greedy refuses Fig. 7.4's pairs, levelwise routes them" \
	same "status 2
slot 0 0:3/0 6:4/1" sh -c 'hnctl set topology fattree:2,3 >/dev/null &&
		hnctl set ft-sched local-greedy >/dev/null &&
		{ hnctl preload slot 0 0:3 6:4 2>/dev/null; echo "status $?"; } &&
		hnctl set ft-sched levelwise >/dev/null &&
		hnctl preload slot 0 0:3 6:4 >/dev/null && hnctl circuits'
# a refusal names the switch, and the link, as hnctl links does
check "preload refusals name switches and links as hnctl links does" \
	same "hnctl: preload refused: slot 0, pair 6:4: no up-port free both ways at this level: from switch sw0.2
hnctl: preload refused: slot 0, pair 1:4: path's up-link already taken: link sw0.0/up0 up, held by 0:3
status 2" \
	sh -c 'hnctl release all >/dev/null &&
		hnctl set ft-sched local-greedy >/dev/null &&
		hnctl preload slot 0 0:3 6:4; hnctl set ft-sched levelwise >/dev/null &&
		hnctl preload slot 0 0:3/0 1:4/0; echo "status $?"'
check "set topology back to the crossbar, a third time" hnctl set topology crossbar nodes 8
check "set switching: each technique reads back, in sysfs too" same "switching vct
vct
switching saf
saf
switching wormhole
wormhole" sh -c 'for s in vct saf wormhole; do
		hnctl set switching $s >/dev/null && hnctl show switching &&
		cat /sys/class/hybridnet/fabric0/config/switching; done'
check "preload four shifts" hnctl preload shift 1..4
check "circuits as preloaded" same "slot 0 0:1 1:2 2:3 3:4 4:5 5:6 6:7 7:0
slot 1 0:2 1:3 2:4 3:5 4:6 5:7 6:0 7:1
slot 2 0:3 1:4 2:5 3:6 4:7 5:0 6:1 7:2
slot 3 0:4 1:5 2:6 3:7 4:0 5:1 6:2 7:3" hnctl circuits
check "a non-permutation is refused with the kernel's reason, status 2" \
	same "hnctl: preload refused: two circuits to one output in slot 1: 2:3 and 4:3" \
	status 2 hnctl preload slot 1 2:3 4:3
check "nothing changed after the refusal" sh -c \
	'[ "$(hnctl circuits | wc -l)" -eq 4 ]'
check "a bad key is refused, status 1" status 1 hnctl set nodez 4

# the circuit/wormhole split of the demo's traffic (see samples/demo.c):
# all-to-all with shifts 1..4 is 32 circuit + 24 wormhole messages, and
# the bulk streams add 400 to node 1 (circuit) and 400 to node 6 (wormhole)
check "stats reset" hnctl stats reset
check "demo runs" sh -c 'demo > /tmp/demo.out'
check "circuit/wormhole split in hnctl stats" same "432 424" sh -c \
	'hnctl -j stats | sed "s/.*\"rx-msgs-circuit\":\([0-9]*\).*\"rx-msgs-wormhole\":\([0-9]*\).*/\1 \2/"'
check "the same split in sysfs" sh -c \
	'[ "$(cat /sys/class/hybridnet/fabric0/stats/rx_msgs_circuit)" = 432 ] && [ "$(cat /sys/class/hybridnet/fabric0/stats/rx_msgs_wormhole)" = 424 ]'
# hnctl top: the same split, pair by pair; the demo's 8 nodes have 56
# pairs, which the table holds all of, so nothing overflows.  top_sums:
# hnctl top -j's pairs' circuit and wormhole messages summed, then the
# overflow and the table's size from its stats
top_sums() {
	hnctl -j top --count 0 | tr '{' '\n' | awk '
		function num(k) {
			return match($0, "\"" k "\":[0-9]+") ?
				substr($0, RSTART + length(k) + 3, RLENGTH - length(k) - 3) : 0
		}
		/"pairs-max"/ { o = num("pair-overflow-msgs"); m = num("pairs-max"); next }
		{ c += num("rx-msgs-circuit"); w += num("rx-msgs-wormhole") }
		END { print c, w, o, m }'
}
check "top -j: the pairs' messages by mode add up to the split, nothing overflows" \
	same "432 424 0 56" top_sums
check "top: a line per mode, the overflow, and the busiest pair first" sh -c \
	'hnctl top --count 3 > /tmp/top.out; cat /tmp/top.out
	 grep -q "^circuit " /tmp/top.out && grep -q "^wormhole " /tmp/top.out &&
	 grep -q "overflow 0 msgs, 0 bytes" /tmp/top.out &&
	 [ $(grep -cE "^ +[0-9]+ +[0-9]+ +[0-9]+ +[0-9]+ " /tmp/top.out) -eq 3 ] &&
	 grep -q "^(53 more pairs" /tmp/top.out'
check "top -j -i 100ms --iterations 3: three views, then status 0" same 3 sh -c \
	'hnctl -j top -i 100ms --iterations 3 | grep -c "^{\"now\":"'
check "top -i 1 ends on SIGINT with status 0" sh -c \
	'hnctl top -i 1 > /tmp/top.out 2>&1 & p=$!; sleep 2; kill -INT $p; wait $p
	 rc=$?; cat /tmp/top.out; [ $rc -eq 0 ] && grep -q "^circuit " /tmp/top.out'

# monitor_start ARGS...: hnctl ARGS in the background, output (stdout and
# stderr) to /tmp/events, its pid in $mon; returns once it listens
monitor_start() {
	rm -f /tmp/ready /tmp/events
	hnctl "$@" --ready /tmp/ready >/tmp/events 2>&1 &
	mon=$!
	i=0
	while [ ! -e /tmp/ready ] && [ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
}

# monitor sees what another hnctl does
monitor_start -j monitor --count 3 --timeout 10
hnctl release all
hnctl preload phase halo mesh 4x2 >/dev/null
wait $mon
check "monitor exits once it has seen 3 events" [ $? -eq 0 ]
check "monitor saw release, preload, phase" same "release preload phase " sh -c \
	'sed -n "s/^{\"event\":\"\([a-z-]*\)\".*/\1/p" /tmp/events | tr "\n" " "'
check "release all" hnctl release all

# sched: the kernel's schedulers on request sets (the fabric is untouched)
check "sched: optimal routes a whole permutation of fattree:2,4" \
	same "16 16" sh -c 'hnctl -j sched fattree:2,4 optimal --perm 1 |
		sed "s/.*\"requests\":\([0-9]*\),\"granted\":\([0-9]*\),.*/\1 \2/"'
check "sched: kstep K=3 grants 2 of 3 where greedy grants 1" \
	same "granted 2 of 3, rounds 1
0:1 refused
0:2 granted
1:1 granted
granted 1 of 3, rounds 0
0:1 granted
0:2 refused
1:1 refused" sh -c 'hnctl sched crossbar:4 kstep kstep 3 0:1 0:2 1:1 &&
		hnctl sched crossbar:4 greedy 0:1 0:2 1:1'
# hnsim sched -t fattree:3,4 -a local-random -s 7 -n 1: 53.125% of 64
check "sched: local-random grants what hnsim sched's same trial does" \
	same "granted 34 of 64, rounds 0" sh -c \
	'hnctl sched fattree:3,4 local-random --perm 7 | head -n 1'
check "sched: an unknown scheduler is refused, status 2" \
	same "hnctl: sched refused: unknown scheduler 'x' (attribute algo)
status 2" sh -c 'hnctl sched crossbar:4 x 0:1; echo "status $?"'

# traffic: the in-kernel generator, started, waited for, stopped
check "traffic start --wait: 50 messages from each of 8 nodes, all delivered" \
	same "done 400 400 400" sh -c \
	'hnctl traffic start --pattern uniform --batch 50 --size 64 --wait |
		sed -n "s/^state *\([a-z]*\).*/\1/p; s/^messages *generated \([0-9]*\), injected \([0-9]*\), delivered \([0-9]*\) .*/\1 \2 \3/p" |
		tr "\n" " " | sed "s/ \$//"'
check "traffic status -j round-trips the run" same "done uniform" sh -c \
	'hnctl -j traffic status | sed "s/.*\"state\":\"\([a-z]*\)\".*\"pattern\":\"\([a-z-]*\)\".*/\1 \2/"'
# the VQ_W arbiter changes live while a run sends: nothing is lost
check "set voq-arbiter and voq-timeout-ns under traffic: every message delivered" \
	same "done 8000 8000 8000
voq-arbiter rr
voq-timeout-ns 0" sh -c \
	'hnctl traffic start --pattern hotspot --batch 1000 --size 64-2048 --seed 5 --wait >/tmp/voq.out &
	p=$!
	hnctl set voq-arbiter lqf >/dev/null &&
		hnctl set voq-arbiter bytes voq-timeout-ns 500 >/dev/null &&
		hnctl set voq-arbiter rr voq-timeout-ns 0 >/dev/null || echo "set failed"
	wait $p
	sed -n "s/^state *\([a-z]*\).*/\1/p; s/^messages *generated \([0-9]*\), injected \([0-9]*\), delivered \([0-9]*\) .*/\1 \2 \3/p" /tmp/voq.out |
		tr "\n" " " | sed "s/ \$//"; echo
	hnctl show voq-arbiter voq-timeout-ns'

# one run, one set of latencies: hnctl traffic, hnctl stats and sysfs give
# the same min, p50, p99 and max (one function reads the histogram), and
# p99 is never above max
cat >/tmp/lat4 <<'END'
#!/bin/sh
# min p50 p99 max of the JSON object on stdin
exec sed 's/.*"lat-min-ns":\([0-9]*\).*"lat-max-ns":\([0-9]*\),"lat-p50-ns":\([0-9]*\),"lat-p99-ns":\([0-9]*\).*/\1 \3 \4 \2/'
END
chmod +x /tmp/lat4
check "traffic: a batch of mixed sizes after a statistics reset" sh -c \
	'hnctl stats reset && hnctl traffic start --pattern uniform --batch 200 --size 64-2048 --seed 3 --wait >/dev/null'
check "latency min, p50, p99, max: hnctl traffic = hnctl stats = sysfs, p99 <= max" sh -c '
	a=$(hnctl -j traffic status | /tmp/lat4)
	b=$(hnctl -j stats | /tmp/lat4)
	d=/sys/class/hybridnet/fabric0/stats
	c="$(cat $d/lat_min_ns) $(cat $d/lat_p50_ns) $(cat $d/lat_p99_ns) $(cat $d/lat_max_ns)"
	echo "traffic: $a"; echo "stats:   $b"; echo "sysfs:   $c"
	[ -n "$a" ] && [ "$a" = "$b" ] && [ "$b" = "$c" ] &&
		set -- $a && [ "$1" -le "$2" ] && [ "$2" -le "$3" ] && [ "$3" -le "$4" ]'
check "traffic: a Bernoulli run reports its window and convergence" sh -c '
	hnctl traffic start --pattern uniform --load 0.2 --seed 3 --wait >/tmp/bern.out; rc=$?
	cat /tmp/bern.out
	[ $rc -eq 0 ] && grep -q "^window .* ns measured, after a warm-up of" /tmp/bern.out &&
		grep -q "^convergence .*: converged" /tmp/bern.out &&
		grep -q "every measured message delivered" /tmp/bern.out'
check "traffic: a Bernoulli run started, then stopped" same "stopped" sh -c \
	'hnctl traffic start --pattern uniform --load 0.3 --measure 1s >/dev/null &&
		hnctl traffic stop && hnctl traffic status | sed -n "s/^state *\([a-z]*\).*/\1/p"'
check "traffic: the fabric cannot be rebuilt under a run (EBUSY, the reason)" sh -c \
	'hnctl traffic start --pattern uniform --load 0.3 --measure 1s >/dev/null &&
		out=$(hnctl set nodes 16 2>&1); rc=$?; hnctl traffic stop; echo "$out";
		[ $rc -eq 2 ] && echo "$out" | grep -q "the traffic generator is running: stop it first"'
check "traffic: a bad pattern is refused by the kernel, status 2" sh -c \
	'out=$(hnctl traffic start --pattern nope --batch 1 2>&1); rc=$?; echo "$out";
		[ $rc -eq 2 ] && echo "$out" | grep -q "unknown pattern \"nope\""'

# what a command changed, said by the kernel and printed by hnctl; the
# traffic above drains first, and leaves no circuit
i=0
while [ "$(cat /sys/class/hybridnet/fabric0/stats/in_flight_msgs)" != 0 ] &&
	[ $i -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
hnctl release all
# the fabric's links and switches, in a table and in JSON: the crossbar
# by wormhole's one switch and its nodes' links, then a fat tree's
check "links on the crossbar by wormhole: a link a node, sw0.0 its one switch, nothing since the reset" same \
	"switching wormhole
crossbar: 8 links, 1 switch
18
crossbar: 8 links, 1 switch
link          state dir  from          to                   bytes    worms   util%   stalls buf-peak  buf-mean      circuit chans-down
node3         up    up   node3         sw0.0/down3              0        0    0.00        0        0       0.0            0          -
node3         up    down sw0.0/down3   node3                    0        0    0.00        0        0       0.0            0          -
crossbar: 1 switch of 8 ports, 1 level
switch     level state switching        bytes    worms   blocked-ns   stalls buf-peak  buf-mean buf-bytes held      circuit
sw0.0          0 up    fabric               0        0            0        0        0       0.0         0    0            0" \
	sh -c 'hnctl show switching && hnctl stats reset && hnctl links | head -n 1 &&
		hnctl links | wc -l && hnctl links link node3 && hnctl switches'
check "links on the crossbar after traffic: each node's link carried its own, sw0.0 all, as sysfs fabric/level0/" \
	sh -c 'hnctl traffic start --pattern uniform --batch 20 --size 64-512 --seed 5 --wait >/dev/null &&
		up=$(hnctl links | awk "NR > 2 && \$3 == \"up\" { s += \$6 } END { print s }") &&
		down=$(hnctl links | awk "NR > 2 && \$3 == \"down\" { s += \$6 } END { print s }") &&
		sw=$(hnctl switches | awk "NR == 3 { print \$5 }") &&
		tx=$(cat /sys/class/hybridnet/fabric0/stats/tx_bytes_wormhole) &&
		l0=$(cat /sys/class/hybridnet/fabric0/fabric/level0/bytes) &&
		echo "up $up, down $down, sw0.0 $sw, tx_bytes_wormhole $tx, level0 $l0" &&
		[ "$up" -gt 0 ] && [ "$up" = "$tx" ] && [ "$down" = "$tx" ] &&
		[ "$sw" = "$tx" ] && [ "$l0" = "$tx" ]'
check "links on an idle FT(2,4): 32 links, a row per channel" same \
	"fattree:2,4: 32 links, 8 switches
66" sh -c 'hnctl set topology fattree:2,4 >/dev/null &&
		hnctl links | head -n 1 && hnctl links | wc -l'
check "links link sw0.1/up0: its two channels, from and to, nothing yet" same \
	"fattree:2,4: 32 links, 8 switches
link          state dir  from          to                   bytes    worms   util%   stalls buf-peak  buf-mean      circuit chans-down
sw0.1/up0     up    up   sw0.1/up0     sw1.0/down1              0        0    0.00        0        0       0.0            0          -
sw0.1/up0     up    down sw1.0/down1   sw0.1/up0                0        0    0.00        0        0       0.0            0          -" hnctl links link sw0.1/up0
check "links -j link node0: node 0's link, the names of its ends" same \
	'{"topology":"fattree:2,4","links":[{"link":"node0","down":false,"dead":false,"channels-down":[],"now":T,"channels":[{"dir":"up","from":"node0","to":"sw0.0/down0","bytes":0,"worms":0,"busy-ns":0,"credit-stalls":0,"buf-peak":0,"buf-byte-ns":0,"circuit-bytes":0},{"dir":"down","from":"sw0.0/down0","to":"node0","bytes":0,"worms":0,"busy-ns":0,"credit-stalls":0,"buf-peak":0,"buf-byte-ns":0,"circuit-bytes":0}]}]}' \
	sh -c 'hnctl -j links link node0 | sed "s/\"now\":[0-9]*/\"now\":T/"'
check "links: a link is named by its lower end; the top level has none up" same \
	"rows of sw0.1/up0: 2, of sw1.0/up0: 0
hnctl links: fattree:2,4 has no link sw1.0/down1
Try 'hnctl links --help'.
status 1" sh -c 'echo "rows of sw0.1/up0: $(hnctl links | grep -c "^sw0.1/up0 "), of sw1.0/up0: $(hnctl links | grep -c "^sw1.0/up0 ")"
		hnctl links link sw1.0/down1; echo "status $?"'
check "switches: 8, level 0 first, none of its own switching" same "fattree:2,4: 8 switches of 8 ports, 2 levels
switch     level state switching        bytes    worms   blocked-ns   stalls buf-peak  buf-mean buf-bytes held      circuit
sw0.0          0 up    fabric               0        0            0        0        0       0.0         0    0            0
sw0.1          0 up    fabric               0        0            0        0        0       0.0         0    0            0
sw0.2          0 up    fabric               0        0            0        0        0       0.0         0    0            0
sw0.3          0 up    fabric               0        0            0        0        0       0.0         0    0            0
sw1.0          1 up    fabric               0        0            0        0        0       0.0         0    0            0
sw1.1          1 up    fabric               0        0            0        0        0       0.0         0    0            0
sw1.2          1 up    fabric               0        0            0        0        0       0.0         0    0            0
sw1.3          1 up    fabric               0        0            0        0        0       0.0         0    0            0" hnctl switches
check "switches -j switch sw1.3: a top switch" same \
	'{"topology":"fattree:2,4","switches":[{"switch":"sw1.3","level":1,"down":false,"switching":"fabric","now":T,"bytes":0,"worms":0,"blocked-ns":0,"credit-stalls":0,"buf-peak":0,"buf-byte-ns":0,"buf-bytes":0,"held":0,"circuit-bytes":0}]}' \
	sh -c 'hnctl -j switches switch sw1.3 | sed "s/\"now\":[0-9]*/\"now\":T/"'
check "switches: a switch that is not there, status 1" \
	same "hnctl switches: fattree:2,4 has no switch sw2.0
Try 'hnctl switches --help'.
status 1" sh -c 'hnctl switches switch sw2.0; echo "status $?"'
check "links after traffic: the nodes' up channels carried what was injected" \
	sh -c 'hnctl traffic start --pattern uniform --batch 20 --size 64-512 --seed 5 --wait >/dev/null &&
		a=$(hnctl links | awk "NR > 2 && \$1 ~ /^node/ && \$3 == \"up\" { s += \$6 } END { print s }") &&
		b=$(cat /sys/class/hybridnet/fabric0/stats/tx_bytes_wormhole) &&
		echo "links $a, tx_bytes_wormhole $b" && [ "$a" = "$b" ] && [ "$a" -gt 0 ]'
check "links after traffic: a busy channel's util% is above 0 and at most 100" \
	sh -c 'hnctl links | awk "NR > 2 && \$6 > 0 { n++; if (\$8 <= 0 || \$8 > 100) bad++ }
		END { print n, bad + 0; exit !(n > 0 && !bad) }"'
check "switches after traffic: bytes by level as sysfs fabric/levelN/bytes" \
	sh -c 'for l in 0 1; do
		a=$(hnctl switches | awk "NR > 2 && \$2 == $l { s += \$5 } END { print s }")
		b=$(cat /sys/class/hybridnet/fabric0/fabric/level$l/bytes)
		echo "level $l: $a $b"; [ "$a" = "$b" ] || exit 1; done'
# links and switches down and up (docs/model.md "Faults")
export F=/sys/class/hybridnet/fabric0/fabric
check "link down under pure TDM: refused, the kernel says why, status 2" same \
	"hnctl: fault refused: links and switches fail only with a wormhole slot: under pure TDM a dead circuit's messages have nowhere to go
status 2" sh -c 'hnctl set policy no-w >/dev/null; hnctl link down sw0.1/up0;
		echo "status $?"; hnctl set policy ses >/dev/null'
check "switch down: the circuit through it released, a new one refused; up: taken" same \
	"circuits 1
circuits 0
circuits 1" sh -c 'S=/sys/class/hybridnet/fabric0/stats/circuits
		hnctl preload slot 0 0:5 >/dev/null && echo "circuits $(cat $S)" &&
		hnctl switch down sw1.0 sw1.1 sw1.2 sw1.3 && echo "circuits $(cat $S)" &&
		! hnctl preload slot 0 0:5 >/dev/null 2>&1 &&
		hnctl switch up sw1.0 sw1.1 sw1.2 sw1.3 &&
		hnctl preload slot 0 0:5 >/dev/null && echo "circuits $(cat $S)" &&
		hnctl release all'
check "link down, switch down: hnctl links and switches, sysfs and fabric say so" same \
	"sw0.1/up0 down
sw0.0/up0 dead
sw1.0 down
2 1
sw1.0
node3
sw0.1/up0
links-down 2 switches-down 1" sh -c 'hnctl link down sw0.1/up0 node3 &&
		hnctl switch down sw1.0 &&
		hnctl links link sw0.1/up0 | awk "NR == 3 { print \$1, \$2 }" &&
		hnctl links link sw0.0/up0 | awk "NR == 3 { print \$1, \$2 }" &&
		hnctl switches switch sw1.0 | awk "NR == 3 { print \$1, \$3 }" &&
		echo "$(cat $F/links_down) $(cat $F/switches_down)" && cat $F/down &&
		hnctl fabric | grep -o "links-down [0-9]* switches-down [0-9]*"'
check "traffic with node3 cut off: it completes, nothing crosses what is down" \
	sh -c 'hnctl stats reset &&
		hnctl traffic start --pattern uniform --batch 20 --size 64-512 --seed 5 --wait >/dev/null &&
		hnctl traffic | grep -E "^refused +[1-9][0-9]*: no live route" &&
		hnctl links | awk "NR > 2 && (\$2 != \"up\") { s += \$6 } END { print \"bytes on dead links\", s + 0; exit s != 0 }" &&
		hnctl switches switch sw1.0 | awk "NR == 3 { print \"sw1.0 bytes\", \$5; exit \$5 != 0 }"'
check "link up, switch up: all up again, sysfs down is empty" same "0 0 0" \
	sh -c 'hnctl link up sw0.1/up0 node3 && hnctl switch up sw1.0 &&
		echo "$(cat $F/links_down) $(cat $F/switches_down) $(wc -c < $F/down)"'
# the circuit on up0 goes to the first free up-port each time: up1, up2, up3
check "links down under a circuit: routed again around them, counted; its last way up down: released" same \
	"rerouted 3 circuits 1 releases 0
circuits 0 releases 1" sh -c 'S=/sys/class/hybridnet/fabric0/stats
		hnctl stats reset >/dev/null && hnctl preload slot 0 0:5 >/dev/null &&
		hnctl link down sw0.0/up0 sw0.0/up1 sw0.0/up2 &&
		r=$(cat $S/circuit_reroutes) &&
		echo "rerouted $r circuits $(cat $S/circuits) releases $(cat $S/releases)" &&
		hnctl link down sw0.0/up3 &&
		echo "circuits $(cat $S/circuits) releases $(cat $S/releases)" &&
		[ "$(hnctl -j stats | sed "s/.*\"circuit-reroutes\":\([0-9]*\).*/\1/")" = "$r" ] &&
		hnctl link up sw0.0/up0 sw0.0/up1 sw0.0/up2 sw0.0/up3'
monitor_start monitor --count 5 --timeout 10
hnctl preload slot 0 0:5 >/dev/null
hnctl switch down sw1.0 sw1.1 sw1.2 sw1.3 >/dev/null 2>&1
wait $mon
check "monitor: the preload, then each switch down, the circuit routed again until the last takes it: released" same \
	"fault switch down sw1.0 rerouted 1
fault switch down sw1.1 rerouted 1
fault switch down sw1.2 rerouted 1
fault switch down sw1.3 released 1" sed -n 2,5p /tmp/events
check "switches up again" hnctl switch up sw1.0 sw1.1 sw1.2 sw1.3
check "link down random 3 seed 2: three links between switches, not a node's" same "3
0" sh -c 'hnctl link down random 3 seed 2 && cat $F/links_down &&
		{ grep -c "^node" $F/down || true; }'
check "link down: a name the fabric has not, status 1" same \
	"hnctl link: fattree:2,4 has no link sw5.0/up0
Try 'hnctl link --help'.
status 1" sh -c 'hnctl link down sw5.0/up0; echo "status $?"'
check "links failing over time: fault-mtbf-ns, fault-repair-ns set" \
	hnctl set topology fattree:2,4 slots 0 fault-mtbf-ns 500 fault-repair-ns 2000
monitor_start monitor --count 6 --timeout 60
hnctl traffic start --pattern uniform --batch 100 --size 64 --seed 3 --wait >/dev/null
wait $mon
check "monitor: links failing over time and coming back, as hnctl link down|up says them" \
	sh -c 'cat /tmp/events; [ "$(grep -cE "^fault link (down|up) sw[01]\.[0-3]/(up|down)[0-3]( released [0-9]+)?$" /tmp/events)" -ge 4 ] &&
		[ "$(cat $F/../stats/links_failed)" -ge 2 ]'
check "links failing over time: stopped live, nothing rebuilt (their counts kept)" same \
	'{"rebuilt":false}' sh -c 'hnctl -j set fault-mtbf-ns 0 fault-repair-ns 0 &&
		[ "$(cat $F/../stats/links_failed)" -ge 2 ]'
check "links failing over time: started live" same \
	'{"rebuilt":false}' hnctl -j set fault-mtbf-ns 500
# a dilated link's channels down alone (docs/model.md "Faults", "A channel alone")
check "channels: switching drop, dilation 2" hnctl set topology fattree:2,4 \
	slots 0 switching drop dilation 2 fault-mtbf-ns 0 fault-repair-ns 0
monitor_start monitor --count 3 --timeout 10
hnctl link down sw0.1/up0/c1 node3/c0 >/dev/null 2>&1
hnctl link down random-channels 6 seed 2 >/dev/null 2>&1
wait $mon
check "channels down: by name and at random, sysfs, hnctl fabric and the monitor say so" same \
	"fault link down sw0.1/up0/c1
fault link down node3/c0
fault link down random-channels 6 seed 2
8 0
channels-down 8
node3/c0
sw0.1/up0/c1
8" sh -c 'cat /tmp/events && echo "$(cat $F/channels_down) $(cat $F/links_down)" &&
		hnctl fabric | grep -o "channels-down [0-9]*" &&
		grep -E "^(node3|sw0.1/up0)/c" $F/down && grep -cE "/c[01]$" $F/down'
check "channels down: the link's last channel refused, the kernel says why, status 2" same \
	"hnctl: fault refused: the link's last channel up: take the link down instead
status 2" sh -c 'hnctl link down node3/c1; echo "status $?"'
check "channels down in hnctl links: the column and -j's channels-down" same \
	"1 1
[1]
0 0" sh -c 'hnctl links link sw0.1/up0 | awk "NR > 2 { printf \"%s \", \$NF }" | sed "s/ \$//" && echo &&
		hnctl -j links link sw0.1/up0 | grep -o "\"channels-down\":\[[0-9,]*\]" | sed "s/.*://" &&
		hnctl links link node3 | awk "NR > 2 { printf \"%s \", \$NF }" | sed "s/ \$//" && echo'
check "traffic with channels down: it completes, none refused" \
	sh -c 'hnctl traffic start --pattern uniform --batch 20 --size 64-512 --seed 5 --wait >/dev/null &&
		hnctl traffic && ! hnctl traffic | grep -E "^refused +[1-9]"'
check "channels up again by name: the random ones stay" same "6" \
	sh -c 'hnctl link up sw0.1/up0/c1 node3/c0 && cat $F/channels_down'
check "channels on a torus: down at random, each up again by the name fabric/down gives (a down-port's)" \
	same "5 5 0" sh -c 'hnctl set topology torus:4x4 >/dev/null &&
		hnctl link down random-channels 5 seed 3 >/dev/null &&
		n=$(grep -c "^sw[0-9.]*/down[0-9]*/c[01]$" $F/down) &&
		c=$(cat $F/channels_down) &&
		hnctl link up $(cat $F/down) && echo "$n $c $(cat $F/channels_down)"'
# Woods-Corwin's variable dilation: a fat tree's channels level by level
check "dilation-levels: each level its channels, sysfs and hnctl config say 2,1" \
	same "2,1 1
dilation-levels 2,1" sh -c 'hnctl set topology fattree:2,4 switching drop dilation 1 \
		dilation-levels 2,1 >/dev/null &&
		echo "$(cat $F/../config/dilation_levels) $(cat $F/../config/dilation)" &&
		hnctl show dilation-levels'
check "dilation-levels: a node's link has 2 channels, a level-1 link 1: its c1 refused, said, status 2" \
	same "hnctl: fault refused: no such channel: a link has dilation channels, 0 to dilation - 1
status 2
1" sh -c 'hnctl link down node3/c1 >/dev/null && hnctl link down sw0.1/up0/c1; echo "status $?"; cat $F/channels_down'
check "dilation-levels: traffic completes, none refused" \
	sh -c 'hnctl traffic start --pattern uniform --batch 20 --size 64-512 --seed 5 --wait >/dev/null &&
		! hnctl traffic | grep -E "^refused +[1-9]"'
check "dilation-levels: not the fat tree's levels, refused, said, status 2" same \
	"hnctl: configuration refused: dilation_levels: one number 1..8 for each of the fat tree's levels (at most 8), from the nodes' links up
status 2" sh -c 'hnctl set dilation-levels 2,1,2; echo "status $?"'
check "links: back to the crossbar" hnctl set topology crossbar nodes 8 slots 4 \
	switching wormhole dilation 1 dilation-levels 0 fault-mtbf-ns 0 fault-repair-ns 0
check "channels: a crossbar's link of dilation 1 refused, said, status 2" same \
	"hnctl: fault refused: a channel fails alone only on a link of dilation 2 or more, under switching drop: take the link down
status 2" sh -c 'hnctl link down node0/c0; echo "status $?"'

check "set: a rebuild says what it released" same \
	"rebuilt the fabric: 8 circuits released, statistics and virtual time reset" \
	sh -c 'hnctl preload shift 1 >/dev/null && hnctl set slots 3'
check "set: a live change says nothing; -j says rebuilt false" same \
	'{"rebuilt":false}' sh -c 'hnctl set slot-p-ns 200 && hnctl -j set slot-p-ns 200'
check "preload: what each slot held before" same "slot 0: 8 circuits installed
slot 0: 8 circuits replaced by 1
slot 0: 1 circuit released, now empty" sh -c \
	'hnctl preload shift 1 && hnctl preload slot 0 0:5 && hnctl preload slot 0'
check "sysfs: stats/circuits counts them, config/preload_at_load stays none" \
	same "8 none 0 none" sh -c 'd=/sys/class/hybridnet/fabric0
	hnctl preload shift 1 >/dev/null && a="$(cat $d/stats/circuits) $(cat $d/config/preload_at_load)" &&
	hnctl release all && echo "$a $(cat $d/stats/circuits) $(cat $d/config/preload_at_load)"'
check "preload -j: the same" same '{"slots":[{"slot":0,"before":0,"after":2}]}' \
	hnctl -j preload slot 0 2:3 3:2
check "preload -j -p: the same, indented" same '{
  "slots": [
    {
      "slot": 1,
      "before": 0,
      "after": 2
    }
  ]
}' hnctl -j -p preload slot 1 0:1 1:0

# why a request was refused (the example of hnctl predict --help)
check "predict: set slots 2 pin-slots 1" same \
	"rebuilt the fabric: 4 circuits released, statistics and virtual time reset" \
	hnctl set slots 2 pin-slots 1
check "predict: a refusal says why, slot by slot; exit 0 when one is granted" \
	same "0:1 granted slot 1
0:2 refused: slot 0 pinned; slot 1 taken by 0:1" hnctl predict 0:1 0:2
check "predict: source and destination taken; every request refused: exit 4" \
	same "2:1 refused: slot 0 pinned; slot 1 taken by 0:1
0:4 refused: slot 0 pinned; slot 1 taken by 0:1
status 4" sh -c 'hnctl predict 2:1 0:4; echo "status $?"'
check "predict: both ports taken in one slot" same \
	"6:1 refused: slot 0 pinned; slot 1 taken by 6:7, 0:1
status 4" sh -c 'hnctl predict 6:7 >/dev/null; hnctl predict 6:1; echo "status $?"'
check "predict -j: the conflicts as objects" same \
	'{"slots":2,"grants":[{"src":2,"dst":1,"result":"refused","conflicts":[{"slot":0,"pinned":true},{"slot":1,"dst-taken-by":[{"src":0,"dst":1}]}]}]}' \
	sh -c 'hnctl -j predict 2:1; [ $? -eq 4 ]'
check "predict: no predictive slots" same \
	"0:1 refused: no predictive slots (slots 0)" sh -c \
	'hnctl set slots 0 pin-slots 0 >/dev/null && hnctl predict 0:1; [ $? -eq 4 ]'

# hntraffic --json --pretty: hnctl -j -p's indentation
check "hntraffic --json --pretty: indented two spaces a level" sh -c \
	'hntraffic --pattern all-to-all --batch 1 --json --pretty >/tmp/hnt.p &&
		[ "$(head -n 1 /tmp/hnt.p)" = "{" ] && [ "$(tail -n 1 /tmp/hnt.p)" = "}" ] &&
		grep -q "^  \"tool\": \"hntraffic\",\$" /tmp/hnt.p &&
		grep -q "^  \"verified\": true,\$" /tmp/hnt.p || { cat /tmp/hnt.p; false; }'
# it reads the policy's words from sysfs config/policy
check "hntraffic --json: the policy in force, as config/ prints it" sh -c \
	'hnctl set policy sla,preempt >/dev/null &&
		hntraffic --pattern all-to-all --batch 1 --json >/tmp/hnt.j;
		hnctl set policy ses >/dev/null;
		grep -q "\"policy\": \"sla,preempt\"" /tmp/hnt.j || { cat /tmp/hnt.j; false; }'

# who holds the device: bound nodes, open files
hn_hold 3 5 >/tmp/hold.out &
hold=$!
i=0
while ! grep -q held /tmp/hold.out 2>/dev/null && [ $i -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
check "show: the nodes bound and the files open" same \
	"# nodes bound: 3, 5 (the fabric cannot be rebuilt while they are)
# 2 files of /dev/hybridnet open: the module cannot be unloaded until they are closed" \
	sh -c 'hnctl show | grep "^#"'
check "show -j: bound-nodes and open-files" same '[3,5] 2' sh -c \
	'hnctl -j show | sed "s/.*\"bound-nodes\":\(\[[0-9,]*\]\),\"open-files\":\([0-9]*\)}/\1 \2/"'
check "rmmod is refused while they are open" sh -c '! rmmod hybridnet 2>/dev/null'
kill $hold
wait $hold 2>/dev/null
check "show: nothing bound, nothing open" sh -c \
	'hnctl show >/tmp/show.out && grep -q "^now " /tmp/show.out && ! grep "^#" /tmp/show.out'

# monitor: no bare grant for a predict that granted nothing; it outlives
# the module, and listens to it again once it is loaded again
monitor_start monitor --count 3 --timeout 30
hnctl predict 0:1 >/dev/null		# slots 0: refused
rmmod hybridnet
insmod "$HN_KO" nodes=8 slots=4
hnctl release all
wait $mon
check "monitor exits once it has seen 3 events" [ $? -eq 0 ]
check "monitor: no bare grant; unloaded, loaded, then the new module's events" \
	same "unloaded
loaded
release all" cat /tmp/events

echo "# hnctl: $n checks, $fails failed"
[ $fails -eq 0 ]
