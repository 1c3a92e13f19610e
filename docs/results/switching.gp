# SPDX-License-Identifier: GPL-2.0
#
# switching.gp - the plots of docs/results/switching.md from the data of
# switching.sh.  gnuplot -e "D='DATADIR'; O='PNGDIR'" switching.gp
# Utilisation is Ding's L316 metric, in %, over the senders' links.

set terminal pngcairo size 1500,460 font ",10"
set grid
set key bottom right
set yrange [0:100]
set ylabel "bandwidth utilisation (%)"

# ---- Ch. 4: utilisation vs predictable-traffic ratio, three buffers ------
do for [pat in "mixed phased"] {
	set output sprintf("%s/switching-ch4-%s.png", O, pat)
	set multiplot layout 1,3 title sprintf("Ch. 4, %s traffic: 64 nodes, ding4, 128 B messages (Figs. %s)", \
		pat, pat eq "mixed" ? "4.11-4.13" : "4.14-4.16")
	set xlabel "predictable traffic ratio (%)"
	set xrange [0:100]
	do for [b in "8192 2048 128"] {
		f = sprintf("%s/ch4-%s-%s.dat", D, pat, b)
		set title sprintf("NIC buffer %s B", b)
		plot f u 1:2 w lp lw 2 pt 7 t "wormhole", \
		     f u 1:3 w lp lw 2 pt 5 t "SES", \
		     f u 1:4 w lp lw 2 pt 9 t "SLA", \
		     f u 1:5 w lp lw 2 pt 13 t "PREEMPT"
	}
	unset multiplot
}

# ---- Ch. 5: utilisation vs message size ---------------------------------
set terminal pngcairo size 1100,800 font ",10"
set output sprintf("%s/switching-ch5.png", O)
set multiplot layout 2,2 title "Ch. 5: 128 nodes, ding5, K = 4 (Figs. 5.3-5.5)"
set logscale x 2
set xrange [6:2800]
set xlabel "message size (bytes)"
do for [p in "scatter random-mesh ordered-mesh two-phase"] {
	f = sprintf("%s/ch5-%s.dat", D, p)
	set title p
	plot f u 1:2 w lp lw 2 pt 7 t "wormhole", \
	     f u 1:3 w lp lw 2 pt 5 t "circuit", \
	     f u 1:4 w lp lw 2 pt 9 t "dynamic TDM", \
	     f u 1:5 w lp lw 2 pt 13 t "preload"
}
unset multiplot
unset logscale x

set terminal pngcairo size 640,460 font ",10"
set output sprintf("%s/switching-ch5-partial.png", O)
set title "Ch. 5 partial preload, degree 3, 128 B (Fig. 5.6)"
set xlabel "determinism (%)"
set xrange [0:100]
f = sprintf("%s/ch5-partial.dat", D)
plot f u 1:2 w lp lw 2 pt 7 t "0 preload / 3 dynamic", \
     f u 1:3 w lp lw 2 pt 5 t "1 preload / 2 dynamic", \
     f u 1:4 w lp lw 2 pt 9 t "2 preload / 1 dynamic"

# ---- Ch. 1: random-to-all, 32 nodes --------------------------------------
set terminal pngcairo size 1100,460 font ",10"
set output sprintf("%s/switching-ch1.png", O)
set multiplot layout 1,2 title "Ch. 1 random-to-all, 32 nodes (Fig. 1.3): solid large buffers (240 KB), dashed small (one message)"
set logscale x 2
set xrange [6:2800]
set xlabel "message size (bytes)"
set key top right
do for [g in "1200 32000"] {
	f = sprintf("%s/ch1-%s.dat", D, g)
	set title sprintf("PE generating %s Mb/s", g)
	plot f u 1:5 w lp lw 2 lc 1 pt 7 t "wormhole", \
	     f u 1:6 w lp lw 2 lc 2 pt 5 t "circuit", \
	     f u 1:7 w lp lw 2 lc 3 pt 9 t "predictive", \
	     f u 1:2 w lp lw 2 lc 1 pt 7 dt 2 notitle, \
	     f u 1:3 w lp lw 2 lc 2 pt 5 dt 2 notitle, \
	     f u 1:4 w lp lw 2 lc 3 pt 9 dt 2 notitle
}
unset multiplot

# ---- Ch. 1: all-to-all against system size --------------------------------
set terminal pngcairo size 640,460 font ",10"
set output sprintf("%s/switching-ch1-a2a.png", O)
set title "Ch. 1 all-to-all, 512 B messages (Fig. 1.4a), PE at 32 Gb/s"
set logscale x 2
set xrange [3:160]
set xlabel "nodes"
set key bottom left
f = sprintf("%s/ch1-a2a.dat", D)
plot f u 1:2 w lp lw 2 lc 1 pt 7 t "wormhole", \
     f u 1:3 w lp lw 2 lc 2 pt 5 t "circuit", \
     f u 1:4 w lp lw 2 lc 3 pt 9 t "predictive"
