# SPDX-License-Identifier: GPL-2.0
#
# switching.gp - the plots of docs/results/switching.md from the data of
# switching.sh.  gnuplot -e "D='DATADIR'; O='PNGDIR'" switching.gp
# Utilisation is Ding's Ch. 1 metric, in %, over the senders' links.

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
set xrange [3:80]
set xlabel "nodes"
set key bottom left
f = sprintf("%s/ch1-a2a.dat", D)
plot f u 1:2 w lp lw 2 lc 1 pt 7 t "wormhole", \
     f u 1:3 w lp lw 2 lc 2 pt 5 t "circuit", \
     f u 1:4 w lp lw 2 lc 3 pt 9 t "predictive"

# ---- sensitivity to what the text leaves open -----------------------------
set terminal pngcairo size 1800,860 font ",10"
set output sprintf("%s/switching-sensitivity.png", O)
set multiplot layout 2,4 title "Sensitivity of the claims to the parameters the text does not give (gain > 0: the claim's direction)"
unset logscale x
set autoscale y
set key top left
set ylabel "gain (points of utilisation)"
set xlabel "predictable traffic ratio (%)"
set xrange [0:100]
f = sprintf("%s/ch4-batch.dat", D)
set title "Ch. 4 mixed, 8 KB: PREEMPT - wormhole, by batch (claim 2)"
plot f u 1:($3-$2) w lp lw 2 pt 7 t "128 msgs/node", \
     f u 1:($5-$4) w lp lw 2 pt 5 t "256", \
     f u 1:($7-$6) w lp lw 2 pt 9 t "1024 (ours)", \
     f u 1:($9-$8) w lp lw 2 pt 13 t "4096", 0 w l lc "black" notitle
do for [b in "8192 128"] {
	f = sprintf("%s/ch4-sla-%s.dat", D, b)
	set title sprintf("Ch. 4 mixed, %s B: SLA - wormhole, by S_W length", b)
	plot f u 1:($3-$2) w lp lw 2 pt 7 t "1 - c (ours)", \
	     f u 1:($4-$2) w lp lw 2 pt 5 t "200 ns", \
	     f u 1:($5-$2) w lp lw 2 pt 9 t "800 ns", \
	     f u 1:($6-$2) w lp lw 2 pt 13 t "3200 ns", 0 w l lc "black" notitle
}
set xlabel "Dynamic TDM time-out (ns)"
set logscale x 2
set xrange [80:2000]
set ylabel "bandwidth utilisation (%)"
f = sprintf("%s/ch5-timeout.dat", D)
set title "Ch. 5, 128 B: Dynamic TDM by time-out"
plot f u 1:2 w lp lw 2 pt 7 t "scatter", \
     f u 1:3 w lp lw 2 pt 5 t "random mesh", \
     f u 1:4 w lp lw 2 pt 9 t "ordered mesh", \
     f u 1:5 w lp lw 2 pt 13 t "two phase"
set ylabel "gain (points, or % for 2P/1D over 1P/2D)"
unset logscale x
set xrange [0.5:4.5]
set xtics 1
set xlabel "fixed destinations"
f = sprintf("%s/ch5-partial-dirs.dat", D)
set title "Fig. 5.6, 128 B: by fixed destinations"
plot f u 1:($3-$2) w lp lw 2 pt 7 t "1P/2D - 0P/3D at 50 %", \
     f u 1:(100*($7/$6-1)) w lp lw 2 pt 5 t "2P/1D over 1P/2D at 85 % (%)", \
     0 w l lc "black" notitle, 10 w l lc "gray" dt 2 notitle
set xtics autofreq
set logscale x 2
set xrange [24:700]
set xlabel "message size (bytes)"
f = sprintf("%s/ch5-partial-size.dat", D)
set title "Fig. 5.6, 2 destinations: by message size"
plot f u 1:($3-$2) w lp lw 2 pt 7 t "1P/2D - 0P/3D at 50 %", \
     f u 1:(100*($7/$6-1)) w lp lw 2 pt 5 t "2P/1D over 1P/2D at 85 % (%)", \
     0 w l lc "black" notitle, 10 w l lc "gray" dt 2 notitle
set xrange [1500:45000]
set xlabel "NIC buffer (bytes)"
set ylabel "preload's gain (%)"
set key bottom right
f = sprintf("%s/ch5-buffer.dat", D)
set title "Ch. 5 random mesh: preload over wormhole and circuit"
plot f u 1:(100*($5/$2-1)) w lp lw 2 pt 7 t "/ wormhole, 128 B", \
     f u 1:(100*($5/$3-1)) w lp lw 2 pt 5 t "/ circuit, 128 B", \
     f u 1:(100*($9/$6-1)) w lp lw 2 pt 9 t "/ wormhole, 2048 B", \
     f u 1:(100*($9/$7-1)) w lp lw 2 pt 13 t "/ circuit, 2048 B", \
     0 w l lc "black" notitle, 10 w l lc "gray" dt 2 notitle
unset multiplot
