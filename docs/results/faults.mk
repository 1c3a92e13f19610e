# SPDX-License-Identifier: GPL-2.0
#
# docs/results/faults.mk - the drop-on-block experiments, included by the
# top-level Makefile.
#
#   make results-faults   run the sweeps (build/results/faults/), print
#                         their tables and render docs/results/faults-*.png
#
# docs/results/faults.md reads the plot and the tables.

FAULTS_DATA := $(O)/results/faults

.PHONY: results-faults

results-faults: $(O)/hnsim
	@command -v gnuplot >/dev/null || { echo "need gnuplot: run 'make deps'"; exit 1; }
	docs/results/faults.sh $(O)/hnsim $(FAULTS_DATA)
	gnuplot -e "D='$(FAULTS_DATA)'; O='docs/results'" docs/results/faults.gp
	@echo "results-faults: docs/results/faults-density.png and $(FAULTS_DATA)/tables.md"
