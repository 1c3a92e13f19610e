# SPDX-License-Identifier: GPL-2.0
# tcp.gp - the plots of docs/results/tcp.md, from docs/results/tcp.sh's
# files: gnuplot -e "dir='...'; periods='0 50 ...'; outdir='...'; ymax=Mb/s" tcp.gp
set terminal pngcairo size 1000,1200 font ",9"
set output outdir.'/tcp-throughput.png'
n = words(periods)
set multiplot layout n,1 title "TCP goodput over time, hn0 -> hn1, paced 1:1 (dots: 1 ms means; line: 10 ms means; shaded: circuit up)"
set ylabel "Mb/s"
set xrange [0:*]
set yrange [0:ymax]
set key top right
do for [i=1:n] {
	p = word(periods, i)
	title = p eq "0" ? "no circuit (wormhole only)" : (p eq "on" ? "circuit throughout" : "circuit ".p." ms up, ".p." ms down")
	set title title
	if (i == n) { set xlabel "time, ms" } else { unset xlabel }
	unset object
	load dir.'/tcp-'.p.'.on'
	plot dir.'/tcp-'.p.'.dat' every 10 using 1:3 with points pt 7 ps 0.2 lc rgb "#8080c0" notitle, \
	     '' every 10 using 1:4 with lines lw 1.5 lc rgb "#202080" title "10 ms mean"
}
unset multiplot

set terminal pngcairo size 800,500 font ",10"
set output outdir.'/tcp-ping.png'
unset object
set title "ping round trip, hn0 -> hn1, paced 1:1"
set xlabel "round trip, ms"
set ylabel "fraction of pings"
set logscale x
set xrange [*:*]
set yrange [0:1]
set key bottom right
plot dir.'/ping-circuit.dat' using 1:2 with steps lw 2 title "circuit", \
     dir.'/ping-wormhole.dat' using 1:2 with steps lw 2 title "wormhole"
