# SPDX-License-Identifier: GPL-2.0
#
# docs/results/fattree.mk - the fat-tree experiments,
# included by the top-level Makefile.
#
#   make results-fattree   run the sweeps (build/results/fattree/*.dat),
#                          check the zero-load latencies against Duato's
#                          formulas (a mismatch fails) and render
#                          docs/results/fattree-*.png
#   make bench-fattree     time the regeneration of all that data on one
#                          core; fails above 600 s
#
# docs/results/fattree.md reads the plots and the data.

FT_DATA	:= $(O)/results/fattree
FT_PNG	:= $(addprefix docs/results/fattree-, latency.png upselect.png mixsize.png \
		circuits.png ch4-mixed.png)

.PHONY: results-fattree bench-fattree

results-fattree: $(O)/hnsim
	@command -v gnuplot >/dev/null || { echo "need gnuplot: run 'make deps'"; exit 1; }
	docs/results/fattree.sh $(O)/hnsim $(FT_DATA)
	gnuplot -e "D='$(FT_DATA)'; O='docs/results'" docs/results/fattree.gp
	@echo "results-fattree: $(FT_PNG) from $(FT_DATA)"

bench-fattree: $(O)/hnsim
	$(call hn_time_results,fattree,docs/results/fattree.sh $(O)/hnsim $(O)/bench/fattree,600)
