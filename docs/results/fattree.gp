# SPDX-License-Identifier: GPL-2.0
#
# fattree.gp - the plots of docs/results/fattree.md from the data of
# fattree.sh.  gnuplot -e "D='DATADIR'; O='PNGDIR'" fattree.gp
# (docs/results/fattree.png is the scheduler study's: these are
# fattree-*.png.)

set grid
set key top left

# ---- 1. latency against offered load, by switching technique --------------
set terminal pngcairo size 1800,860 font ",10"
set output sprintf("%s/fattree-latency.png", O)
set multiplot layout 2,4 title "Mean latency against offered load, 128 B messages, ding4, up-port by destination digit (det); dashed: the crossbar of as many nodes, wormhole"
set logscale y
set yrange [150:20000]
set xrange [0:1]
set xlabel "offered load (fraction of the link rate per sender)"
set ylabel "mean latency (ns, log scale)"
do for [t in "3,4 3,8"] {
	n = t eq "3,4" ? 64 : 512
	do for [p in "uniform transpose bitrev hotspot"] {
		set title sprintf("FT(%s), %s", t, p)
		if (p eq "hotspot") {
			set xrange [0:(t eq "3,4" ? 0.2 : 0.025)]
		} else {
			set xrange [0:1]
		}
		if (t eq "3,8" && p eq "transpose") {
			set label 1 "transpose needs n x n nodes:\n512 is not a square" at 0.5,1000 center
			plot NaN notitle
			unset label 1
		} else {
			f = sprintf("%s/lat-%s-%s-", D, t, p)
			z = sprintf("%s/zero-load-patterns.dat", D)
			plot f."wormhole.dat" u 1:3 w lp lw 2 pt 7 t "wormhole", \
			     f."vct.dat" u 1:3 w lp lw 2 pt 4 dt 3 t "virtual cut-through", \
			     f."saf.dat" u 1:3 w lp lw 2 pt 9 t "store-and-forward", \
			     sprintf("%s/lat-x%d-%s.dat", D, n, p) u 1:3 w lp lw 1 pt 1 dt 2 lc "black" t sprintf("crossbar %d", n), \
			     z u (0):(strcol(1) eq sprintf("FT(%s)", t) && strcol(2) eq p ? $4 : 1/0) w p pt 6 ps 2 lw 2 lc "red" t "Duato's formulas, zero load"
		}
	}
}
unset multiplot

# ---- 1'. the up-port choice, wormhole --------------------------------------
set terminal pngcairo size 1300,860 font ",10"
set output sprintf("%s/fattree-upselect.png", O)
set multiplot layout 2,3 title "Wormhole: the up-port a header climbs by (up\\_select): the destination's digit (det), random, or the least occupied (adaptive); dashed: the crossbar"
set xrange [0:1]
set xlabel "offered load"
do for [tp in "3,4-uniform 3,4-transpose 3,4-bitrev 3,8-uniform 3,8-bitrev"] {
	t = tp[1:3]
	p = tp[5:]
	set title sprintf("FT(%s), %s", t, p)
	f = sprintf("%s/lat-%s-", D, tp)
	plot f."wormhole.dat" u 1:3 w lp lw 2 pt 7 t "det", \
	     f."random.dat" u 1:3 w lp lw 2 pt 5 t "random", \
	     f."adaptive.dat" u 1:3 w lp lw 2 pt 9 t "adaptive", \
	     sprintf("%s/lat-x%d-%s.dat", D, t eq "3,4" ? 64 : 512, p) u 1:3 w lp lw 1 pt 1 dt 2 lc "black" t "crossbar"
}
unset multiplot
unset logscale y

# ---- 2. a permutation on circuits, by scheduler -----------------------------
set terminal pngcairo size 1800,560 font ",10"
set output sprintf("%s/fattree-circuits.png", O)
set multiplot layout 1,3 title "A random permutation on the circuits of one slot, routed by Ch. 7's schedulers"
set style data histogram
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set yrange [0:149]
set xrange [*:*]
set key top left Left reverse maxrows 6 font ",9"
unset xlabel
set ylabel "% (bars left to right in the order of the key)"
do for [t in "3,4 3,8"] {
	set title sprintf("FT(%s), predicted at t = 0 in one slot (K = 1)", t)
	f = sprintf("%s/perm-%s.dat", D, t)
	plot f u 2:xtic(1) t "scheduled, % of requests: Ch. 7 metric (hnsim sched)", \
	     f u 3 t "granted by the live engine, % of senders", \
	     f u 4 t "fixed cycle: delivered on circuits, % of links", \
	     f u ($4 + $5) t "fixed cycle: circuits + wormhole, % of links", \
	     f u 6 t "SES: delivered on circuits, % of links", \
	     f u ($6 + $7) t "SES: circuits + wormhole, % of links"
}
set title "Dynamic TDM, randperm, 64 x 128 B per sender (batch)"
set ylabel "bandwidth utilisation (%, mean of 10 permutations)"
f = sprintf("%s/perm-dynamic.dat", D)
plot f u 2:xtic(1) t "FT(3,4), K = 1", \
     f u 5 t "FT(3,4), K = 4", \
     f u 8 t "FT(3,8), K = 1", \
     f u 11 t "FT(3,8), K = 4"
unset multiplot
set style data lines
set xtics autofreq

# ---- 3. Ch. 4 mixed traffic: FT(3,4) against the 64-node crossbar ----------
set terminal pngcairo size 1500,460 font ",10"
set output sprintf("%s/fattree-ch4-mixed.png", O)
set multiplot layout 1,3 title "Ch. 4 mixed traffic (Sec. 4.6.1), 64 nodes, ding4, 128 B: solid FT(3,4), dashed the crossbar"
set xlabel "predictable traffic ratio (%)"
set ylabel "bandwidth utilisation (%)"
set xrange [0:100]
set yrange [0:100]
set key bottom right
do for [b in "8192 2048 128"] {
	f = sprintf("%s/ch4-%s.dat", D, b)
	set title sprintf("NIC and switch buffers %s B", b)
	plot f u 1:6 w lp lw 2 lc 1 pt 7 t "wormhole", \
	     f u 1:7 w lp lw 2 lc 2 pt 5 t "SES", \
	     f u 1:8 w lp lw 2 lc 3 pt 9 t "SLA", \
	     f u 1:9 w lp lw 2 lc 4 pt 13 t "PREEMPT", \
	     f u 1:2 w lp lw 1 lc 1 pt 7 dt 2 notitle, \
	     f u 1:3 w lp lw 1 lc 2 pt 5 dt 2 notitle, \
	     f u 1:4 w lp lw 1 lc 3 pt 9 dt 2 notitle, \
	     f u 1:5 w lp lw 1 lc 4 pt 13 dt 2 notitle
}
unset multiplot

# ---- 1''. wormhole and cut-through part: worms of mixed sizes ------------
set terminal pngcairo size 640,460 font ",10"
set output sprintf("%s/fattree-mixsize.png", O)
set title "FT(3,4), uniform, messages of 8-128 B, 200 B switch buffers"
set logscale y
set autoscale y
set xrange [0:0.5]
set xlabel "offered load (fraction of the link rate per sender)"
set ylabel "mean latency (ns, log scale)"
set key top left
unset style data
f = sprintf("%s/lat-3,4-mixsize-", D)
plot f."wormhole.dat" u 1:3 w lp lw 2 pt 7 t "wormhole", \
     f."vct.dat" u 1:3 w lp lw 2 pt 4 t "virtual cut-through", \
     f."saf.dat" u 1:3 w lp lw 2 pt 9 t "store-and-forward"
