#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# switching.sh - the switching experiments of Ding's dissertation
# (cited by chapter and section), run with hnsim:
# Ch. 4 mixed traffic (Figs. 4.11-4.13) and unknown phases (4.14-4.16),
# Ch. 5 (Figs. 5.3-5.6), Ch. 1 random-to-all (Fig. 1.3) and all-to-all
# against system size (Fig. 1.4).  docs/results/
# switching.md gives the reasons for every parameter and the results.
#
# Usage: switching.sh HNSIM DATADIR
# Writes DATADIR/*.dat (gnuplot columns, utilisation in %, Ding's Ch. 1
# metric over the senders' links) and DATADIR/tables.md.  Sequential: one
# core.  Every run is deterministic (seed 1).
set -eu

H=${1:?usage: switching.sh HNSIM DATADIR}
D=${2:?usage: switching.sh HNSIM DATADIR}
mkdir -p "$D"
SEED=1

# utilisation in % (2 decimals) of one hnsim run; a saturated or failed
# run is a hard error: these are batch runs, which must complete
util() {
	out=$("$H" run --seed $SEED --json "$@") || {
		echo "switching.sh: hnsim run $* failed" >&2
		exit 1
	}
	echo "$out" | sed -n 's/.*"util_ppm": \([0-9]*\).*/\1/p' |
		awk '{ printf "%.2f", $1 / 10000 }'
}

ratio() {	# 0..100 -> 0, 0.1, ..., 1
	awk -v p="$1" 'BEGIN { printf "%g", p / 100 }'
}

# ---- Ch. 4: 64 nodes, ding4 (Secs. 4.6, 4.6.1) ---------------------------------
# 1024 messages of 128 B per node; the PE makes 1 word (64 bit) per 2 ns =
# 32 Gb/s (Sec. 4.6); the ordered mesh (8 x 8 torus) preloaded in the K = 4
# slots (Sec. 4.2.2); NIC buffer = the switch's VQ_W buffer per input = B.
# SLA: NUM_W / (K NUM_P + NUM_W) = 1 - c, c = the share of bytes that go
# by circuit: the ordered mesh plus the random messages that happen to go
# to a neighbour (4 of 63): c = p + (1 - p) 4/63 (note 3.4).
C4="-p ding4 --batch 1024 --gen-rate 32000 -s max_msg_bytes=128"
ch4() {		# pattern buffer
	f="$D/ch4-$1-$2.dat"
	echo "# ratio% wormhole ses sla preempt  ($1, NIC buffer $2 B)" > "$f"
	for p in 0 10 20 30 40 50 60 70 80 90 100; do
		r=$(ratio $p)
		c=$((p * 10000 + (100 - p) * 10000 * 4 / 63))
		nw=$((800 * (1000000 - c) / c))
		[ $nw -lt 200 ] && nw=200
		b="$C4 --pattern $1 --pred $r --phase-len 256"
		b="$b -s nic_buf_bytes=$2 -s sw_buf_bytes=$2"
		w=$(util $b --net wormhole)
		s=$(util $b -P ses --preload-slots 4)
		l=$(util $b -P sla -s slot_w_ns=$nw --preload-slots 4)
		m=$(util $b -P preempt --preload-slots 4)
		echo "$p $w $s $l $m" >> "$f"
	done
}
for pat in mixed phased; do
	for buf in 8192 2048 128; do
		ch4 $pat $buf
	done
done
# sensitivity: the batch length (the text gives none), 8 KB, mixed
f="$D/ch4-batch.dat"
echo "# ratio% (wormhole preempt) for 128 256 1024 4096 messages per node  (mixed, 8 KB)" > "$f"
for p in 0 10 20 30 40 50 60 70 80 90 100; do
	line="$p"
	for n in 128 256 1024 4096; do
		b="-p ding4 --batch $n --gen-rate 32000 -s max_msg_bytes=128"
		b="$b --pattern mixed --pred $(ratio $p)"
		line="$line $(util $b --net wormhole)"
		line="$line $(util $b -P preempt --preload-slots 4)"
	done
	echo "$line" >> "$f"
done
# sensitivity: SLA's slot lengths (the text gives none): our rule
# NUM_W / (K NUM_P + NUM_W) = 1 - c against fixed wormhole slots of 1, 4
# and 16 predictive slots (200, 800, 3200 ns), mixed, 8 KB and 128 B
for buf in 8192 128; do
	f="$D/ch4-sla-$buf.dat"
	echo "# ratio% wormhole sla(1-c) sla(200) sla(800) sla(3200)  (mixed, $buf B)" > "$f"
	for p in 0 10 20 30 40 50 60 70 80 90 100; do
		c=$((p * 10000 + (100 - p) * 10000 * 4 / 63))
		nw=$((800 * (1000000 - c) / c))
		[ $nw -lt 200 ] && nw=200
		b="$C4 --pattern mixed --pred $(ratio $p)"
		b="$b -s nic_buf_bytes=$buf -s sw_buf_bytes=$buf"
		line="$p $(util $b --net wormhole)"
		for w in $nw 200 800 3200; do
			line="$line $(util $b -P sla -s slot_w_ns=$w --preload-slots 4)"
		done
		echo "$line" >> "$f"
	done
done

# ---- Ch. 5: 128 nodes, ding5 (Secs. 5.5, 5.5.2) ------------------------------
# 100 ns = 80 B slots, 240 ns circuit set-up, worms of 128 B at 80 ns +
# 10 ns per 8 B flit, 8 KB NIC buffers; 16 x 8 torus; Preload and Dynamic
# TDM with K = 4; Dynamic TDM's time-out one slot (100 ns); circuit
# switching = K = 1 with a circuit per message.  Batches: one Scatter from
# node 0 (127 messages), 128 mesh messages per node, Two Phase = one
# all-to-all (127) + 16 random mesh (Sec. 5.5.2).
C5="-p ding5"
# Ch. 5's wormhole network is a separate digital crossbar with 10 ns of
# propagation (Sec. 5.5); the engine has one fabric, whose LVDS delay
# ding5 neglects (fabric_ns = 0), so the wormhole runs set it
W5="-s fabric_ns=10"
SIZES="8 16 32 64 128 256 512 1024 2048"
ch5() {		# pattern batch
	f="$D/ch5-$1.dat"
	echo "# size wormhole circuit dynamic preload  ($1)" > "$f"
	for z in $SIZES; do
		b="$C5 --pattern $1 --batch $2 --size $z"
		echo "$z $(util $b --net wormhole $W5) $(util $b --net circuit)" \
		     "$(util $b --net dynamic -s idle_timeout_ns=100)" \
		     "$(util $b --net preload)" >> "$f"
	done
}
ch5 scatter 127
ch5 random-mesh 128
ch5 ordered-mesh 128
ch5 two-phase 143
# Fig. 5.6: degree 3, k preloaded + 3 - k dynamic; "determinism" = share
# of messages to the two fixed destinations (east, west), the rest uniform
f="$D/ch5-partial.dat"
echo "# determinism% 0P/3D 1P/2D 2P/1D  (128 B, K = 3)" > "$f"
for p in 0 10 20 30 40 50 60 70 80 85 90 95 100; do
	b="$C5 -k 3 --pattern mixed --dirs 2 --pred $(ratio $p) --batch 128"
	b="$b --size 128 --net dynamic -s idle_timeout_ns=100"
	echo "$p $(util $b) $(util $b --preload-slots 1)" \
	     "$(util $b --preload-slots 2)" >> "$f"
done
# sensitivity: Fig. 5.6's fixed destinations (the text gives neither their
# number nor the message size): 1 to 4 directions at 128 B, and 32 to 512 B
# with 2 directions; 0P/3D, 1P/2D and 2P/1D at 50 % and 85 % determinism
part() {	# dirs size
	line=""
	for p in 50 85; do
		b="$C5 -k 3 --pattern mixed --dirs $1 --pred $(ratio $p) --batch 128"
		b="$b --size $2 --net dynamic -s idle_timeout_ns=100"
		line="$line $(util $b) $(util $b --preload-slots 1)"
		line="$line $(util $b --preload-slots 2)"
	done
	echo "$line"
}
f="$D/ch5-partial-dirs.dat"
echo "# dirs (0P/3D 1P/2D 2P/1D at 50 %) (the same at 85 %)  (128 B, K = 3)" > "$f"
for d in 1 2 3 4; do
	echo "$d$(part $d 128)" >> "$f"
done
f="$D/ch5-partial-size.dat"
echo "# size (0P/3D 1P/2D 2P/1D at 50 %) (the same at 85 %)  (2 directions, K = 3)" > "$f"
for z in 32 128 512; do
	echo "$z$(part 2 $z)" >> "$f"
done
# sensitivity: the NIC buffer of Ch. 5 (the text gives none; 8 KB is
# Ch. 4's large one), random mesh at 128 B and 2048 B
f="$D/ch5-buffer.dat"
echo "# nic_buf (wormhole circuit dynamic preload at 128 B) (the same at 2048 B)  (random mesh)" > "$f"
for buf in 2048 8192 32768; do
	line="$buf"
	for z in 128 2048; do
		b="$C5 --pattern random-mesh --batch 128 --size $z"
		b="$b -s nic_buf_bytes=$buf -s max_msg_bytes=2048"
		line="$line $(util $b --net wormhole $W5) $(util $b --net circuit)"
		line="$line $(util $b --net dynamic -s idle_timeout_ns=100)"
		line="$line $(util $b --net preload)"
	done
	echo "$line" >> "$f"
done
# sensitivity: Dynamic TDM's time-out, 128 B
f="$D/ch5-timeout.dat"
echo "# timeout_ns scatter random-mesh ordered-mesh two-phase  (dynamic, 128 B)" > "$f"
for to in 100 400 1600; do
	line="$to"
	for pb in scatter:127 random-mesh:128 ordered-mesh:128 two-phase:143; do
		line="$line $(util $C5 --pattern ${pb%:*} --batch ${pb#*:} \
			--size 128 --net dynamic -s idle_timeout_ns=$to)"
	done
	echo "$line" >> "$f"
done

# ---- Ch. 1: random-to-all, 32 nodes (Secs. 1.1.3, 8.5) ------------
# 6.4 Gb/s; cable 100 ns (Sec. 1.1.3); scheduler 100 MHz, 2 cycles = 20 ns and
# switch 1 cycle (Sec. 8.5): first flit 30 ns, then 10 ns per 8 B flit; worms
# of 80 B (a ten-flit payload, Sec. 8.4.1); a communication cycle = slot of
# 100 ns = 80 B (Sec. 8.5).  Predictive: all 31 shift configurations
# preloaded and rotated (Sec. 8.5), K = 31.  Buffers: small = one message
# (the 128 B N-Queue of Sec. 8.5, or the message if longer: the engine keeps
# whole messages); large = 240 KB (Sec. 1.1.3).  16 KB per node (at least 32
# messages).  PE at 1.2 Gb/s (Sec. 1.1.3) and at 32 Gb/s (f_pe = 500 MHz x 64
# bit, Sec. 8.5).
C1T="-p ding4 -s wire_ns=100 -s sched_ns=20 -s wh_first_ns=30"
C1T="$C1T -s slot_p_ns=100 -s slot_w_ns=100 -s worm_bytes=80"
C1T="$C1T -s rx_buf_bytes=262144"
C1="$C1T -n 32 --pattern random-to-all"
for g in 1200 32000; do
	f="$D/ch1-$g.dat"
	echo "# size wormhole circuit predictive (small buffers) wormhole circuit predictive (large)  (gen $g Mb/s)" > "$f"
	for z in $SIZES; do
		n=$((16384 / z))
		[ $n -lt 32 ] && n=32
		line="$z"
		for buf in small large; do
			if [ $buf = small ]; then
				m=$((z < 128 ? 128 : z))
			else
				m=245760
			fi
			b="$C1 --batch $n --size $z --gen-rate $g"
			b="$b -s nic_buf_bytes=$m -s sw_buf_bytes=$m -s max_msg_bytes=$z"
			line="$line $(util $b --net wormhole) $(util $b --net circuit)"
			line="$line $(util $b --net preload -k 31)"
		done
		echo "$line" >> "$f"
	done
done

# ---- Ch. 1: all-to-all against system size (Fig. 1.4, Sec. 1.1.4) --------
# 512 B messages (Fig. 1.4a); the platform of Fig. 1.3 (C1 without its
# pattern, C1T) with large buffers, the PE at 32 Gb/s (at 1.2 Gb/s every
# network would sit at the generation ceiling).  Four all-to-all rounds
# per sender.  Predictive: the N - 1 shift configurations preloaded in
# K = N - 1 slots.  No point above 64 nodes: the engine holds 64 slot
# configurations, and rotating groups of them is another network.
f="$D/ch1-a2a.dat"
echo "# nodes wormhole circuit predictive  (all-to-all, 512 B, 32 Gb/s)" > "$f"
for n in 4 8 16 32 64; do
	k=$((n - 1))
	b="$C1T -n $n --pattern all-to-all --batch $((4 * (n - 1)))"
	b="$b --size 512 --gen-rate 32000 -s max_msg_bytes=512"
	b="$b -s nic_buf_bytes=245760 -s sw_buf_bytes=245760"
	echo "$n $(util $b --net wormhole) $(util $b --net circuit)" \
	     "$(util $b --net preload -k $k)" >> "$f"
done

# ---- the data as markdown tables -----------------------------------------
T="$D/tables.md"
: > "$T"
for f in "$D"/*.dat; do
	awk -v name="$(basename "$f" .dat)" '
		NR == 1 { sub(/^# */, ""); print "#### " name ": " $0; print "";
			  next }
		{ row = "|"; for (i = 1; i <= NF; i++) row = row " " $i " |";
		  if (NR == 2) { sep = "|"; for (i = 1; i <= NF; i++)
			sep = sep "---|"; print sep_hdr(NF); print sep }
		  print row }
		function sep_hdr(n,   s, i) { s = "|"; for (i = 1; i <= n; i++)
			s = s " c" i " |"; return s }
		END { print "" }' "$f" >> "$T"
done
echo "switching.sh: data in $D"
