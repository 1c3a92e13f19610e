#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# paced-bench.sh - make bench-paced, in the VM: how closely the paced
# clock's kthread holds real time at pace 1:1 (pace_ppm=1000000), for
# slot lengths from 1 ms down to 1 us (predictive and wormhole slots
# alike), with the timer period tick_us at 1000 (the default) and 100.
#
# Each run keeps the engine busy without rest: 4 nodes, 4 predictive
# slots, 10 Mb/s links, hntraffic's uniform batch of 4 x 1200 messages
# of 1 KB (about 1.5 s of virtual time whatever the slot length: the
# links' rate does not depend on it).  Per run, from sysfs clock/ and
# stats/:
#   steps/s     slots run per wall second
#   late %      clock/late_steps of clock/steps: slots run more than two
#               ticks after their virtual time was due (they missed
#               their tick)
#   slip %      clock/slip_ns of the wall time: time the clock fell
#               behind wall time at its overruns, and shifted (virtual
#               time then advanced that much less than wall time)
#   overruns    clock/overruns: ticks that could not run their slots
# One line per run; the last line names the shortest slot with late and
# slip both under 1 %, per tick.  Loads and unloads the module (HN_KO).

KO=${HN_KO:-/lib/hn/hybridnet.ko}
SYS=/sys/class/hybridnet/fabric0
SLOTS=${HN_PACED_SLOTS:-1000000 500000 200000 100000 50000 20000 10000 5000 2000 1000}
TICKS=${HN_PACED_TICKS:-1000 100}
now() { cut -d' ' -f1 /proc/uptime; }
rd() { cat $SYS/clock/steps $SYS/clock/late_steps $SYS/clock/slip_ns \
	   $SYS/clock/overruns $SYS/stats/now_ns | tr '\n' ' '; }

printf '# paced clock at 1:1, kernel %s, %s CPUs\n' "$(uname -r)" \
	"$(grep -c ^processor /proc/cpuinfo)"
echo "# late: slots run over two ticks after due; slip: wall time not emulated"
printf '%8s %8s %8s %8s %10s %8s %8s %9s\n' tick_us slot_ns wall_s virt_s \
	steps/s late% slip% overruns
for tick in $TICKS; do
	best=none
	for slot in $SLOTS; do
		insmod "$KO" clock=paced pace_ppm=1000000 tick_us="$tick" \
			nodes=4 slots=4 link_mbps=10 slot_p_ns="$slot" \
			slot_w_ns="$slot" || continue
		# shellcheck disable=SC2046 # the words wanted
		set -- $(rd)
		s0=$1 l0=$2 p0=$3 o0=$4 v0=$5 w0=$(now)
		hntraffic --pattern uniform --batch 1200 --size 1024 --seed 1 \
			--timeout 60 >/tmp/pb.out 2>&1 ||
			{ echo "# hntraffic failed:"; sed 's/^/# /' /tmp/pb.out; }
		w1=$(now)
		# shellcheck disable=SC2046 # the words wanted
		set -- $(rd)
		rmmod hybridnet
		line=$(awk -v t="$tick" -v L="$slot" -v w="$w1" -v w0="$w0" \
			-v s="$(($1 - s0))" -v l="$(($2 - l0))" -v p="$(($3 - p0))" \
			-v o="$(($4 - o0))" -v v="$(($5 - v0))" 'BEGIN {
			ws = w - w0; late = s ? 100 * l / s : 0
			slip = 100 * p / (ws * 1e9)
			printf "%8d %8d %8.2f %8.3f %10.0f %8.2f %8.2f %9d", t, L,
				ws, v / 1e9, s / ws, late, slip, o
			exit !(late < 1 && slip < 1) }')
		ok=$?
		echo "$line"
		[ $ok -eq 0 ] && best=$slot
	done
	echo "# tick_us $tick: shortest slot with under 1 % late and 1 % slipped: $best ns"
done
