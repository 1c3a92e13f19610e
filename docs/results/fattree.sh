#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# fattree.sh - the fat-tree experiments of docs/results/fattree.md,
# run with hnsim on FT(3,4) (64 nodes) and FT(3,8) (512 nodes):
#  1. latency against offered load for Duato's switching techniques
#     (wormhole, virtual cut-through, store-and-forward), with the
#     zero-load latencies checked against his base-latency formulas;
#  2. a permutation carried on circuits routed by each of Ch. 7's
#     schedulers: the delivered throughput beside the scheduled fraction;
#  3. Ch. 4's mixed traffic (Sec. 4.6.1) on FT(3,4) against the 64-node
#     crossbar.
#
# Usage: fattree.sh HNSIM DATADIR
# Writes DATADIR/*.dat (gnuplot columns) and DATADIR/tables.md.  Exits 1
# when a zero-load latency misses its formula (before the sweeps), or a
# run that must complete does not.  Sequential: one core.  Deterministic (seed 1).
set -eu

H=${1:?usage: fattree.sh HNSIM DATADIR}
D=${2:?usage: fattree.sh HNSIM DATADIR}
mkdir -p "$D"
SEED=1
fail=0

die() { echo "fattree.sh: $*" >&2; exit 1; }

# one member of a JSON object printed on one line
key() { sed -n "s/.*\"$1\": \\([0-9.]*\\).*/\\1/p"; }

# ---- Duato's base latencies for ding4 (docs/model.md) ---------------------
# The constants come from the profile itself, so the formula and the
# engine read the same numbers.
cfg=$("$H" config -p ding4)
val() { echo "$cfg" | sed -n "s/^$1=//p"; }
FIRST=$(val wh_first_ns); FLIT=$(val wh_flit_ns); FB=$(val flit_bytes)
WIRE=$(val wire_ns); NIC=$(val nic_ns); FAB=$(val fabric_ns)
SIZE=128	# one worm (worm_bytes), the runs' message size
# zl SWITCHING D: eq. 2.10 (wormhole; eq. 2.3 VCT the same) or eq. 2.2
# (SAF), with t_r = wh_first - wh_flit, t_s + t_w = wh_flit, a message of
# F = ceil(SIZE / flit) flits (its header the first), plus T_0 = 2 nic +
# D wire + (D - 1) fabric
zl() {
	awk -v sw="$1" -v d="$2" -v b=$SIZE -v fb="$FB" -v first="$FIRST" \
	    -v flit="$FLIT" -v wire="$WIRE" -v nic="$NIC" -v fab="$FAB" '
	BEGIN { f = int((b + fb - 1) / fb); t0 = 2 * nic + d * wire + (d - 1) * fab
		if (sw == "saf") t = (d - 1) * (first - flit) + d * flit * f
		else t = (d - 1) * first + flit * (f - 1)
		print t + t0 }'
}
# mean of zl over a pattern's pairs on FT(3,W) (w = 0: the crossbar, D =
# 2), each sender weighted alike; the destinations of docs/model.md
# ('Traffic'): uniform over the others, transpose, bit reversal, hotspot
# (node 0 with probability 0.1, else uniform)
zl_mean() {	# pattern switching W N
	awk -v p="$1" -v w="$3" -v n="$4" -v z2="$(zl "$2" 2)" \
	    -v z4="$(zl "$2" 4)" -v z6="$(zl "$2" 6)" '
	function lvl(s, d,   h, i) {
		if (!w) return 0
		s = int(s / w); d = int(d / w)
		h = 0
		for (i = 1; s != d; i++) {
			if (s % w != d % w) h = i
			s = int(s / w); d = int(d / w)
		}
		return h
	}
	function lat(s, d) { return z[lvl(s, d)] }
	function unif(s,   d, t) {
		for (d = 0; d < n; d++) if (d != s) t += lat(s, d)
		return t / (n - 1)
	}
	function rev(s,   b, r, k) {
		for (b = 1; 2 ^ b < n; b++) ;
		r = 0
		for (k = 0; k < b; k++) { r = r * 2 + s % 2; s = int(s / 2) }
		return r
	}
	BEGIN { z[0] = z2; z[1] = z4; z[2] = z6; m = sqrt(n)
		for (s = 0; s < n; s++) {
			if (p == "uniform") { t += unif(s); k++ }
			else if (p == "hotspot") {
				t += s ? 0.1 * lat(s, 0) + 0.9 * unif(s) : unif(s); k++
			} else {
				d = p == "bitrev" ? rev(s) : (s % m) * m + int(s / m)
				if (d != s) { t += lat(s, d); k++ }
			}
		}
		printf "%.1f", t / k }'
}

TREES="3,4 3,8"
SWS="wormhole vct saf"
# transpose needs a square node count: 64 is 8 x 8, 512 is not
pats() { [ "$1" = 3,4 ] && echo "uniform transpose bitrev hotspot" ||
	 echo "uniform bitrev hotspot"; }
nodes() { echo "$1" | awk -F, '{ print $2 ^ $1 }'; }

# ---- 1a. zero load, one message per distance: exact ----------------------
f="$D/zero-load.dat"
echo "# tree H D switching formula_ns measured_ns  (one 128 B message, trace)" > "$f"
for t in $TREES; do
	w=${t#*,}
	for h in 0 1 2; do
		d=$((2 * h + 2))
		dst=$(awk -v w="$w" -v h="$h" 'BEGIN { print w ^ h }')
		for sw in $SWS; do
			m=$(printf '0 0 %s %s\n' "$dst" $SIZE |
			    "$H" -t fattree:$t -k 0 -s switching=$sw --json \
				--no-progress | key lat_max_ns)
			z=$(zl $sw $d)
			echo "FT($t) $h $d $sw $z $m" >> "$f"
			[ "$m" = "$z" ] || {
				echo "fattree.sh: FT($t) H=$h $sw: $m ns, formula $z ns" >&2
				fail=1
			}
		done
	done
done

# the crossbar: D = 2 for every pair
for sw in $SWS; do
	m=$(printf '0 0 1 %s\n' $SIZE | "$H" -k 0 -s switching=$sw --json \
		--no-progress | key lat_max_ns)
	z=$(zl $sw 2)
	echo "crossbar - 2 $sw $z $m" >> "$f"
	[ "$m" = "$z" ] || {
		echo "fattree.sh: crossbar $sw: $m ns, formula $z ns" >&2
		fail=1
	}
done

# ---- 1b. zero load under each pattern, and 1c. latency against load ------
# Zero load: 0.2 % offered, 1 ms measured.  The minimum must equal the
# formula of the nearest pair the pattern has; the mean may exceed the
# pattern's formula mean by the little queueing 0.2 % makes and the
# sample's mix of distances, at most 3 %.
LOADS="0.05 0.1 0.15 0.2 0.25 0.3 0.35 0.4 0.5 0.6 0.7 0.8 0.85 0.9 1"
# hotspot: the hot node takes 0.1 N of the load, so it saturates near
# 1 / (0.1 N) (0.16 on 64 nodes, 0.02 on 512): finer steps below that
hot_loads() { [ "$1" = 64 ] && echo "0.02 0.04 0.06 0.08 0.1 0.12 0.14 0.16" ||
	      echo "0.0025 0.005 0.0075 0.01 0.0125 0.015 0.0175 0.02"; }
f0="$D/zero-load-patterns.dat"
echo "# tree pattern switching formula_mean measured_mean measured_min formula_min  (0.2 % load)" > "$f0"
fs="$D/saturation.dat"
echo "# tree pattern net last_load_below_saturation accepted_there" > "$fs"
# one hnsim run --json, its output in $out_; a failure other than
# saturation is fatal
run() {
	out_=$("$H" run --seed $SEED --json "$@") && return 0
	echo "$out_" | grep -q '"end": "saturated"' && return 0
	die "hnsim run $* failed"
}
# sweep TAG TOPOLOGY OPTIONS...: offered accepted mean p99 per line, up to
# the first saturated load; a source queue of 200 messages (25 KB) is
# saturation (hnsim's 1000 takes FT(3,8) 40 s to reach past capacity)
sweep() {
	tag=$1; topo=$2; shift 2
	out="$D/lat-$tag.dat"
	echo "# offered accepted lat_mean_ns lat_p99_ns  ($tag)" > "$out"
	last="- -"
	for l in $loads; do
		run -t $topo --load $l --max-queue 200 "$@"
		if echo "$out_" | grep -q '"saturated": true'; then
			break
		fi
		a=$(echo "$out_" | key accepted_ppm)
		echo "$l $(awk -v a="$a" 'BEGIN { printf "%.4f", a / 1e6 }')" \
		     "$(echo "$out_" | key lat_mean_ns)" \
		     "$(echo "$out_" | key lat_p99_ns)" >> "$out"
		last="$l $(awk -v a="$a" 'BEGIN { printf "%.3f", a / 1e6 }')"
	done
	echo "$last"
}
for t in $TREES; do
	n=$(nodes $t)
	for p in $(pats $t); do
		for sw in $SWS; do
			run -t fattree:$t --net wormhole -s switching=$sw \
				--pattern $p --load 0.002 --measure 1000000
			mm=$(echo "$out_" | key lat_mean_ns)
			mn=$(echo "$out_" | key lat_min_ns)
			zm=$(zl_mean $p $sw "${t#*,}" "$n")
			case $p in	# the nearest pair: a leaf's neighbour,
			uniform|hotspot) zn=$(zl $sw 2) ;;	# or H = 1
			*) zn=$(zl $sw 4) ;;
			esac
			echo "FT($t) $p $sw $zm $mm $mn $zn" >> "$f0"
			awk -v m="$mm" -v z="$zm" 'BEGIN { exit !(m >= z * 0.99 && m <= z * 1.03) }' &&
			[ "$mn" = "$zn" ] || {
				echo "fattree.sh: FT($t) $p $sw zero load: mean $mm (formula $zm), min $mn (formula $zn)" >&2
				fail=1
			}
		done
	done
done
[ $fail = 0 ] || die "zero-load latencies differ from Duato's formulas (above)"
for t in $TREES; do
	n=$(nodes $t)
	for p in $(pats $t); do
		loads=$LOADS
		[ $p = hotspot ] && loads=$(hot_loads $n)
		for sw in $SWS; do
			r=$(sweep "$t-$p-$sw" fattree:$t --net wormhole \
				-s switching=$sw --pattern $p)
			echo "FT($t) $p $sw $r" >> "$fs"
		done
		# the crossbar of as many nodes, wormhole (D = 2 for every pair)
		r=$(sweep "x$n-$p" crossbar -n $n --net wormhole --pattern $p)
		echo "xbar($n) $p wormhole $r" >> "$fs"
		# the up-port choice (Woods-Corwin's random up-link, adaptive)
		[ $p = hotspot ] && continue
		for u in random adaptive; do
			r=$(sweep "$t-$p-$u" fattree:$t --net wormhole \
				-s up_select=$u --pattern $p)
			echo "FT($t) $p wormhole,$u $r" >> "$fs"
		done
	done
done

# ---- 1d. where wormhole and cut-through part: worms of mixed sizes -------
# A buffer gives its credit back when a worm's tail leaves (switch.c), so
# with worms of one size and buffers a multiple of it a wormhole header
# always finds whole worms free and never claims less than all of its
# worm: wormhole and VCT then coincide.  Messages of 8..128 B and 200 B
# switch buffers (one worm and a half) leave partial room.
LOADS="0.05 0.1 0.15 0.2 0.25 0.3 0.35 0.4 0.45 0.5"
loads=$LOADS
for sw in $SWS; do
	r=$(sweep "3,4-mixsize-$sw" fattree:3,4 --net wormhole -s switching=$sw \
		-s max_msg_bytes=128 -s sw_buf_bytes=200 --size 8-128 \
		--pattern uniform)
	echo "FT(3,4) uniform,8-128B,200B-buffers $sw $r" >> "$fs"
done

# ---- 1e. flit buffers between switches (vc_flits) -------------------------
# Wormhole with buffers of 2..32 flits between switches (the nodes' own
# inputs keep sw_buf_bytes), random up-ports, FT(3,4): the last load below
# saturation, against the default (0: 8 KB, 64 worms).
ff="$D/flitbuf.dat"
echo "# vc_flits pattern last_load_below_saturation accepted_there  (FT(3,4), wormhole, random up-ports)" > "$ff"
loads="0.05 0.1 0.15 0.2 0.25 0.3 0.35 0.4 0.45 0.5 0.55 0.6 0.65 0.7 0.75 0.8 0.85 0.9"
for v in 0 2 4 8 16 32; do
	for p in uniform transpose; do
		r=$(sweep "3,4-flitbuf-$v-$p" fattree:3,4 --net wormhole \
			-s vc_flits=$v -s up_select=random --pattern $p)
		echo "$v $p $r" >> "$ff"
	done
done

# ---- 1f. the flit router (vc_count): virtual channels, credit per flit ---
# flit.c: every input between switches has vc_count virtual channels of
# vc_flits flits, credit comes back per flit, flits of several worms share
# a link.  FT(3,4), wormhole, random up-ports, VCs of 2, 4 and 16 flits,
# 1 to 8 of them; the 8x8 torus (dimension order, the dateline: 2 VCs at
# least) beside it.  The last load below saturation.
fr="$D/flitrouter.dat"
echo "# topology vc_count vc_flits pattern last_load_below_saturation accepted_there  (wormhole, flit router)" > "$fr"
for d in 2 4 16; do
	for v in 1 2 4 8; do
		for p in uniform transpose bitrev; do
			r=$(sweep "3,4-flit-$v-$d-$p" fattree:3,4 --net wormhole \
				-s vc_count=$v -s vc_flits=$d -s up_select=random \
				--pattern $p)
			echo "fattree:3,4 $v $d $p $r" >> "$fr"
		done
	done
done
# beside the reference router (routing and arbitration while the header
# waits, as there: wh_overlap), 8 VCs of 16 flits, FT(3,4) and FT(3,8)
for t in 3,4 3,8; do
	for p in $(pats $t | sed 's/ hotspot//'); do
		r=$(sweep "$t-flit-8-16-overlap-$p" fattree:$t --net wormhole \
			-s vc_count=8 -s vc_flits=16 -s up_select=random \
			-s wh_overlap=1 --pattern $p)
		echo "fattree:$t 8 16 $p $r overlap" >> "$fr"
	done
done
for v in 2 4 8; do
	for p in uniform transpose tornado; do
		r=$(sweep "torus8x8-flit-$v-$p" torus:8x8 --net wormhole \
			-s vc_count=$v -s vc_flits=4 --pattern $p)
		echo "torus:8x8 $v 4 $p $r" >> "$fr"
	done
done

# ---- 2. a permutation on circuits, by scheduler (Ch. 7) ------------------
ALGOS="levelwise local-greedy local-random optimal"
# 2a. Ch. 7's metric, the fraction routed: hnsim sched, 100 permutations
"$H" sched -t fattree:3,4 -t fattree:3,8 -a "$(echo $ALGOS | tr ' ' ,)" \
	-n 100 -s $SEED --no-progress > "$D/sched.dat"
# 2b. the same, live: one predict of a whole random permutation (no fixed
# points) at time 0, routed as a set in one slot (K = 1, predict_algo
# kstep: Ch. 7's schedulers take a request set), then every sender keeps
# its NIC full from 1 us on.  The cycle is fixed (slot 0 and the wormhole
# slot, 200 ns each: the circuits can carry half of every link at most)
# or SES (a slot with nothing to send is skipped: with every pair routed
# the wormhole slot is).  Over the 40 us window: messages delivered on
# circuits and by wormhole.
perm_trace() {	# N SEED MSGS: a Park-Miller generator, the same everywhere
	awk -v n="$1" -v seed="$2" -v m="$3" 'BEGIN {
		x = seed * 7919 + 1
		for (i = 0; i < n; i++) p[i] = i
		for (i = n - 1; i > 0; i--) {
			x = (x * 16807) % 2147483647
			j = x % (i + 1); t = p[i]; p[i] = p[j]; p[j] = t
		}
		l = "0 predict"
		for (i = 0; i < n; i++) if (p[i] != i) l = l " " i ":" p[i]
		print l
		for (k = 0; k < m; k++)
			for (i = 0; i < n; i++) if (p[i] != i) print 1000, i, p[i], 128
	}'
}
WIN=40000
f="$D/perm-static.dat"
echo "# tree algo trial senders grants (circuit_msgs wormhole_msgs: fixed, ses)  (K = 1, $WIN ns)" > "$f"
for t in $TREES; do
	n=$(nodes $t)
	tr=$((n == 64 ? 20 : 4))
	i=1
	while [ $i -le $tr ]; do
		perm_trace "$n" $i 256 > "$D/perm.tr"
		s=$(head -1 "$D/perm.tr" | awk '{ print NF - 2 }')
		for a in $ALGOS; do
			line="FT($t) $a $i $s"
			for pol in fixed ses; do
				o=$("$H" -t fattree:$t -k 1 -P $pol \
					-s predict_algo=kstep -s ft_sched=$a \
					-u $((1000 + WIN)) --json --no-progress \
					"$D/perm.tr") || [ $? = 2 ] ||
					die "perm trace FT($t) $a failed"
				[ $pol = fixed ] && line="$line $(echo "$o" | key grants)"
				line="$line $(echo "$o" | sed -n 's/.*"rx_msgs": {"circuit": \([0-9]*\), "wormhole": \([0-9]*\)}.*/\1 \2/p')"
			done
			echo "$line" >> "$f"
		done
		i=$((i + 1))
	done
done
rm -f "$D/perm.tr"
# per tree, by scheduler (means): Ch. 7's metric from hnsim sched (the
# same schedulers on 100 other permutations), granted % of the senders,
# and what was delivered in % of the N links' capacity over the window:
# on circuits and by wormhole, fixed cycle, then SES
for t in $TREES; do
	awk -v t="FT($t)" -v win=$WIN -v sz=128 -v w="${t#*,}" '
	FNR == 1 { file++ }
	file == 1 && !/^#/ && $2 == w { ch7[$4] = $5 }
	file == 2 && FNR > 1 && $1 == t {
		k = $2; if (!(k in n)) ord[++m] = k; n[k]++
		cap = win * w ^ 3 * 0.8 / sz	# messages the N links carry
		g[k] += 100 * $5 / $4
		for (c = 6; c <= 9; c++) v[k, c] += 100 * $c / cap
	}
	END { print "# algo ch7_sched% granted% (circuit% wormhole%: fixed, ses) of the links  (" t ")"
		for (i = 1; i <= m; i++) { k = ord[i]
		printf "%s %.1f %.1f", k, ch7[k], g[k] / n[k]
		for (c = 6; c <= 9; c++) printf " %.1f", v[k, c] / n[k]
		printf "\n" } }' \
		"$D/sched.dat" "$D/perm-static.dat" > "$D/perm-$t.dat"
done
# 2c. Dynamic TDM (Ch. 5): randperm, 64 messages of 128 B per sender,
# circuits set up on demand by the scheduler and released one slot after
# they idle; delivered throughput = Ding's utilisation (Ch. 1)
f="$D/perm-dynamic.dat"
echo "# algo (util% mean min max: FT(3,4) K = 1, K = 4, FT(3,8) K = 1, K = 4)  (randperm, 10 seeds)" > "$f"
for a in $ALGOS; do
	line=$a
	for t in $TREES; do
		for k in 1 4; do
			u=""
			for sd in 1 2 3 4 5 6 7 8 9 10; do
				o=$("$H" run -t fattree:$t --pattern randperm \
					--batch 64 --net dynamic -k $k -s ft_sched=$a \
					-s predict_algo=kstep --seed $sd --json) ||
					die "dynamic FT($t) $a K=$k seed $sd failed"
				u="$u $(echo "$o" | key util_ppm)"
			done
			line="$line $(echo $u | awk '{ mn = 1e9
				for (i = 1; i <= NF; i++) { t += $i
					if ($i < mn) mn = $i; if ($i > mx) mx = $i }
				printf "%.1f %.1f %.1f", t / NF / 1e4, mn / 1e4, mx / 1e4 }')"
		done
	done
	echo "$line" >> "$f"
done

# ---- 3. Ch. 4 mixed traffic, FT(3,4) against the 64-node crossbar --------
# switching.sh's runs (Sec. 4.6.1), the same parameters, on both fabrics;
# the ordered mesh's four slots routed by level-wise on the tree
C4="-p ding4 --batch 1024 --gen-rate 32000 -s max_msg_bytes=128"
util() { run "$@"; echo "$out_" | grep -q '"completed": true' ||
	 die "hnsim run $* did not complete"
	 echo "$out_" | key util_ppm | awk '{ printf "%.2f", $1 / 10000 }'; }
for buf in 8192 2048 128; do
	f="$D/ch4-$buf.dat"
	echo "# ratio% (wormhole ses sla preempt) on the crossbar, then on FT(3,4)  (mixed, $buf B)" > "$f"
	for p in 0 10 20 30 40 50 60 70 80 90 100; do
		r=$(awk -v p=$p 'BEGIN { printf "%g", p / 100 }')
		c=$((p * 10000 + (100 - p) * 10000 * 4 / 63))
		nw=$((800 * (1000000 - c) / c))
		[ $nw -lt 200 ] && nw=200
		line=$p
		for topo in crossbar fattree:3,4; do
			b="$C4 -t $topo --pattern mixed --pred $r --phase-len 256"
			b="$b -s nic_buf_bytes=$buf -s sw_buf_bytes=$buf"
			line="$line $(util $b --net wormhole)"
			line="$line $(util $b -P ses --preload-slots 4)"
			line="$line $(util $b -P sla -s slot_w_ns=$nw --preload-slots 4)"
			line="$line $(util $b -P preempt --preload-slots 4)"
		done
		echo "$line" >> "$f"
	done
done

# ---- the data as markdown tables -----------------------------------------
T="$D/tables.md"
: > "$T"
for f in "$D"/*.dat; do
	awk -v name="$(basename "$f" .dat)" '
		/^#/ && NR == 1 { sub(/^# */, ""); print "#### " name ": " $0
			print ""; next }
		/^#/ { next }
		{ if (!hdr) { s = "|"; for (i = 1; i <= NF; i++) s = s " c" i " |"
			print s; s = "|"; for (i = 1; i <= NF; i++) s = s "---|"
			print s; hdr = 1 }
		  row = "|"; for (i = 1; i <= NF; i++) row = row " " $i " |"
		  print row }
		END { print "" }' "$f" >> "$T"
done
echo "fattree.sh: data in $D; zero-load latencies equal Duato's formulas"
