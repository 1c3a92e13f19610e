# SPDX-License-Identifier: GPL-2.0
#
# docs/results/switching.mk - Ding's switching experiments,
# included by the top-level Makefile.
#
#   make results-switching   run the sweeps (build/results/switching/*.dat)
#                            and render docs/results/switching-*.png
#   make bench-switching     time the regeneration of all that data on one
#                            core; fails above 600 s
#
# docs/results/switching.md reads the plots and the data.

SW_DATA	:= $(O)/results/switching
SW_PNG	:= $(addprefix docs/results/switching-, ch4-mixed.png ch4-phased.png \
		ch5.png ch5-partial.png ch1.png ch1-a2a.png \
		sensitivity.png)

.PHONY: results-switching bench-switching

results-switching: $(O)/hnsim
	docs/results/switching.sh $(O)/hnsim $(SW_DATA)
	gnuplot -e "D='$(SW_DATA)'; O='docs/results'" docs/results/switching.gp
	@echo "results-switching: $(SW_PNG) from $(SW_DATA)"

bench-switching: $(O)/hnsim
	$(call hn_time_results,switching,docs/results/switching.sh $(O)/hnsim $(O)/bench/switching,600)
