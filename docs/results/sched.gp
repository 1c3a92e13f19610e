# SPDX-License-Identifier: GPL-2.0
# sched.gp - plots of docs/results/schedulers.md, from the data that
# docs/results/sched.sh leaves in R (build/results); PNGs go to D.
# gnuplot -e "R='build/results'; D='docs/results'" docs/results/sched.gp

set terminal pngcairo size 1200,900 font ",10" noenhanced
set datafile commentschars "#"
set key bottom right
set grid

loads = "0.125 0.25 0.5 1 2 4 8"

# ---- Figs. 6.16 / 6.17: |M_K| / |M_max| vs K ----
do for [w in "random mixed"] {
	set output D."/kstep-".w.".png"
	set multiplot layout 2,2 title "K-step optimiser, ".w." requests: |M_K| / |M_max| (mean of 100 sets; K = 1 is greedy)"
	do for [n in "16 32 64 128"] {
		set title "N = ".n
		set xlabel "K (longest augmenting path, edges)"
		set ylabel "% of maximum matching"
		set xrange [1:15]
		set xtics 1,2,15
		set yrange [80:100.5]
		plot for [l in loads] R."/xbar-".w."-".n.".dat" \
			using ((strcol(3) eq "kstep") && ($2 == real(l)) ? $4 : 1/0):10 \
			with linespoints pt 7 ps 0.6 title "load ".l
	}
	unset multiplot
}

# ---- Figs. 7.8-7.11: schedulability vs nodes ----
set output D."/fattree.png"
set multiplot layout 2,2 title "Fat trees FT(l,w): schedulability of 100 random permutations (mean, min-max bars)"
set logscale x 2
set xrange [48:6000]
set xtics (64, 256, 512, 1024, 4096)
set xlabel "nodes (w^l)"
set ylabel "% of requests routed"
set yrange [0:101]
set key bottom left
algos = "levelwise local-random local-greedy optimal"
do for [l in "2 3 4"] {
	set title "".l."-level trees"
	plot for [a in algos] R."/fattree.dat" using (($1 == real(l)) && (strcol(4) eq a) ? $3 : 1/0):5:6:7 with yerrorlines pt 7 ps 0.8 title a
}
set title "Level-wise minus local (percentage points)"
set ylabel "points"
set yrange [0:70]
set key top left
plot for [l in "2 3 4"] "< awk '!/^#/ && $4 == \"levelwise\" {lw[$1\",\"$2] = $5} !/^#/ && $4 == \"local-greedy\" {print $1, $3, lw[$1\",\"$2] - $5}' ".R."/fattree.dat" \
	using ($1 == real(l) ? $2 : 1/0):3 with linespoints pt 7 title l."-level vs local-greedy", \
	for [l in "2 3 4"] "< awk '!/^#/ && $4 == \"levelwise\" {lw[$1\",\"$2] = $5} !/^#/ && $4 == \"local-random\" {print $1, $3, lw[$1\",\"$2] - $5}' ".R."/fattree.dat" \
	using ($1 == real(l) ? $2 : 1/0):3 with linespoints pt 5 dt 2 title l."-level vs local-random"
unset multiplot
