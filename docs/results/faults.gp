# SPDX-License-Identifier: GPL-2.0
#
# faults.gp - the plot of docs/results/faults.md from the data of
# faults.sh.  gnuplot -e "D='DATADIR'; O='PNGDIR'" faults.gp

set grid
set key bottom right
set terminal pngcairo size 900,560 font ",10"
set output sprintf("%s/faults-density.png", O)
set title "Drop on block, FT(4,4), 10-word messages: success per attempt against the gap between a node's messages"
set xlabel "mean gap after a message, cycles (offered load 10 / (10 + gap))"
set ylabel "success per attempt"
set yrange [0:1]
set xrange [0:65]
plot sprintf("%s/density.dat", D) using 1:2 with linespoints title "MSGs only: localized, dilation 2", \
     "" using 1:3 with linespoints title "MSGs only: uniform, dilation 2", \
     "" using 1:4 with linespoints title "MSGs only: localized, dilation 1", \
     sprintf("%s/three.dat", D) using 1:2 with linespoints dt 2 lw 2 title "MSG, ACK, ACK2: localized, dilation 2", \
     "" using 1:3 with linespoints dt 2 lw 2 title "MSG, ACK, ACK2: uniform, dilation 2", \
     "-" using 1:2 with points pt 7 ps 1.5 title "Woods-Corwin [W:945], all three kinds, his tree"
5 0.58
30 0.82
e
