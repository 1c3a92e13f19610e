# SPDX-License-Identifier: GPL-2.0
#
# docs/results/results.mk - the experiments behind docs/results/*.md,
# included by the top-level Makefile.
#
#   make results-sched   scheduler sweeps (Ch. 6 and 7): data in
#                        $(O)/results/, tables in docs/results/sched-tables.md,
#                        plots docs/results/*.png (gnuplot)
#   make bench-sched     scheduler speed on one core vs the papers' FPGA

.PHONY: results-sched bench-sched

# $(call hn_time_results,NAME,COMMAND,LIMIT): bench-NAME's recipe: time
# COMMAND (the regeneration of NAME.md's data) pinned to one core, and
# fail above LIMIT seconds
hn_time_results = @pin=; command -v taskset >/dev/null && pin="taskset -c 0"; \
	t0=$$(date +%s.%N); \
	$$pin $(2) >/dev/null || exit 1; \
	t1=$$(date +%s.%N); \
	awk -v a=$$t0 -v b=$$t1 'BEGIN { s = b - a; \
		printf "bench-$(1): all of $(1).md'"'"'s data in %.1f s wall on one core (target < $(3) s): %s\n", \
		s, s < $(3) ? "ok" : "TOO SLOW"; exit s >= $(3) }'

results-sched: $(O)/hnsim
	@command -v gnuplot >/dev/null || { echo "need gnuplot: run 'make deps'"; exit 1; }
	docs/results/sched.sh $(O)

$(O)/bench/sched_bench: selftests/bench/sched/*.c $(CORE_HDR) $(O)/libhncore.a
	@mkdir -p $(@D)
	$(CC) $(BASE) -O2 -g selftests/bench/sched/*.c $(O)/libhncore.a -o $@

bench-sched: $(O)/bench/sched_bench
	@mkdir -p $(O)/results
	$(O)/bench/sched_bench | tee $(O)/results/bench-sched.md
