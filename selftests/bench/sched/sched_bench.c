// SPDX-License-Identifier: GPL-2.0
/*
 * sched_bench.c - the speed of the schedulers (kmod/core/xbar.c, ftsched.c)
 * on one core, beside the FPGA figures of Ding's thesis:
 * level-wise on FT(3,4), FT(3,8),
 * FT(3,16) against Table 7.1 (Sec. 7.6: 15/17/19 ns per request,
 * 480/4,352/38,912 ns for all), the K-step optimiser per unfolded step
 * against "less than 90 ns per optimization step" (Ch. 6), the optimal
 * fat-tree scheduler at 4096 nodes, and Hopcroft-Karp at N = 4096.
 *
 * Build and run: make bench-sched; "sched_bench fattree" or "crossbar" runs
 * one section, "sched_bench kstep N [K]" one K-step row (K = 9 unless
 * given), short enough for callgrind.  Every figure is the median of 7 batches
 * (the minimum in brackets); each batch runs the same pre-generated request
 * sets, so only the scheduler is timed, and no figure is the difference of
 * two timings.  Time is the thread's CPU time
 * (CLOCK_THREAD_CPUTIME_ID), so that other work on a shared machine does not
 * count; caches and the memory bus are still shared.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "hn_sched.h"
#include "workload.h"		/* hnsim sched's request sets */

#define BATCHES	7
#define NSETS	16

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

struct stat2 {
	double med, min;
};

static struct stat2 summarise(double *v)
{
	struct stat2 s;

	qsort(v, BATCHES, sizeof(double), cmp_d);
	s.med = v[BATCHES / 2];
	s.min = v[0];
	return s;
}

/* ---- fat trees ---- */

static struct stat2 bench_ft(u32 l, u32 w, u32 algo, u32 flags, u32 reps)
{
	struct hn_ft *ft;
	u32 n, s, r, b;
	struct hn_pair *req[NSETS];
	struct hn_route *out;
	double per[BATCHES];
	u64 rs = 1, rnd = 2;

	hn_ft_create(l, w, &ft, NULL);
	n = hn_ft_nodes(ft);
	out = malloc(n * sizeof(*out));
	for (s = 0; s < NSETS; s++) {
		req[s] = malloc(n * sizeof(**req));
		hn_wl_perm(&rs, n, req[s]);
	}
	for (b = 0; b < BATCHES; b++) {
		double t0 = now_ns();

		for (r = 0; r < reps; r++) {
			hn_ft_clear(ft);
			hn_ft_schedule(ft, algo, flags, &rnd, req[r % NSETS],
				       n, out, NULL, NULL);
		}
		per[b] = (now_ns() - t0) / reps;
	}
	for (s = 0; s < NSETS; s++)
		free(req[s]);
	free(out);
	hn_ft_destroy(ft);
	return summarise(per);
}

static void fattree_section(void)
{
	static const struct {
		u32 w, fpga_one, fpga_all;
	} t71[] = {
		{ 4, 15, 480 }, { 8, 17, 4352 }, { 16, 19, 38912 },
	};
	static const u32 shapes[][2] = {
		{ 2, 64 }, { 3, 16 }, { 4, 8 }, { 6, 4 }, { 12, 2 },
	};
	u32 i, a;

	printf("Level-wise, whole permutation on FT(3,w), one core, vs Table 7.1 (Sec. 7.6)\n");
	printf("(software time includes clearing the link state and checking the request set;\n");
	printf("target: the dissertation's ASIC estimate, five times faster than the FPGA)\n\n");
	printf("| tree | nodes | order | ns per schedule | ns per request | FPGA per request | FPGA all | software / FPGA all | software / ASIC (target <= 1) |\n");
	printf("|---|---|---|---|---|---|---|---|---|\n");
	for (i = 0; i < 3; i++) {
		u32 w = t71[i].w, n = w * w * w, reps = 400000 / n + 20;
		u32 fl;

		for (fl = 0; fl < 2; fl++) {
			struct stat2 s = bench_ft(3, w, HN_SCHED_LEVELWISE,
						  fl ? HN_SCHED_REQUEST_MAJOR : 0,
						  reps);

			printf("| FT(3,%u) | %u | %s | %.0f (%.0f) | %.1f | %u | %u | %.2f | %.2f |\n",
			       w, n, fl ? "request-major" : "level-major",
			       s.med, s.min, s.med / n, t71[i].fpga_one,
			       t71[i].fpga_all, s.med / t71[i].fpga_all,
			       s.med / (t71[i].fpga_all / 5.0));
		}
	}
	printf("\nOther fat-tree schedulers, ns per whole permutation (median (min))\n\n");
	printf("| tree | nodes | levelwise | local-greedy | local-random | optimal | optimal ns/request |\n");
	printf("|---|---|---|---|---|---|---|\n");
	for (i = 0; i < 3 + ARRAY_SIZE(shapes); i++) {
		u32 l = i < 3 ? 3 : shapes[i - 3][0];
		u32 w = i < 3 ? t71[i].w : shapes[i - 3][1];
		u32 n = 1, k, reps;
		struct stat2 s[4];

		if (i >= 3 && l == 3 && w == 16)
			continue;
		for (k = 0; k < l; k++)
			n *= w;
		reps = 200000 / n + 10;
		for (a = 0; a < 4; a++)
			s[a] = bench_ft(l, w, HN_SCHED_LEVELWISE + a, 0, reps);
		printf("| FT(%u,%u) | %u | %.0f (%.0f) | %.0f (%.0f) | %.0f (%.0f) | %.0f (%.0f) | %.1f |\n",
		       l, w, n, s[0].med, s[0].min, s[1].med, s[1].min,
		       s[2].med, s[2].min, s[3].med, s[3].min, s[3].med / n);
	}
}

/* ---- crossbars ---- */

struct xres {
	struct stat2 greedy, kstep, hk;
	double steps, rounds, ns_step;
};

/* @x's runs cleared, outside the timed loops */
static void clear_all(struct hn_xbar **x, u32 nsets)
{
	u32 s;

	for (s = 0; s < nsets; s++)
		hn_xbar_clear_match(x[s]);
}

/*
 * Each phase is timed alone, over the request sets back to back: the
 * clearing between runs is outside the timed loops, so no figure is the
 * difference of two timings (which noise can make negative).  There are
 * enough sets that a timed loop is long beside the clock's own cost (a
 * system call), which it still includes: a figure errs high, never low.
 */
static struct xres bench_xbar(u32 n, double load, int mixed, u32 k,
			      u32 reps)
{
	u32 nsets = n >= 2048 ? 4 : n >= 128 ? NSETS : 2048 / n;
	u32 s, r, b, m = (u32)(load * n + 0.5);
	double g[BATCHES], ks[BATCHES], hk[BATCHES], t0, t1, t2;
	struct hn_xbar **x = calloc(nsets, sizeof(*x));
	struct hn_sched_result res = { 0 };
	struct xres out;
	u64 rs = 5, *bits = malloc(hn_wl_bitmap_bytes(n));

	/* a permutation (mixed) or nothing (random), plus m distinct pairs */
	for (s = 0; s < nsets; s++) {
		struct hn_pair *req = malloc((n + m) * sizeof(*req));
		u32 nreq = hn_wl_xbar(&rs, mixed ? HN_WL_MIXED : HN_WL_RANDOM,
				      n, m, req, bits);

		hn_xbar_create(n, &x[s], NULL);
		hn_xbar_set_requests(x[s], req, nreq, NULL);
		free(req);
	}
	free(bits);
	reps = (reps + nsets - 1) / nsets * nsets;
	for (b = 0; b < BATCHES; b++) {
		g[b] = ks[b] = hk[b] = 0;
		memset(&res, 0, sizeof(res));
		for (r = 0; r < reps; r += nsets) {
			clear_all(x, nsets);
			t0 = now_ns();
			for (s = 0; s < nsets; s++)
				hn_xbar_greedy(x[s]);
			t1 = now_ns();
			for (s = 0; s < nsets; s++)
				hn_xbar_kstep(x[s], k, 0, NULL, &res);
			t2 = now_ns();
			g[b] += t1 - t0;
			ks[b] += t2 - t1;
			clear_all(x, nsets);
			t0 = now_ns();
			for (s = 0; s < nsets; s++)
				hn_xbar_hopcroft_karp(x[s], NULL);
			hk[b] += now_ns() - t0;
		}
		g[b] /= reps;
		ks[b] /= reps;
		hk[b] /= reps;
	}
	out.greedy = summarise(g);
	out.kstep = summarise(ks);
	out.hk = summarise(hk);
	out.steps = (double)res.steps / reps;
	out.rounds = (double)res.rounds / reps;
	out.ns_step = res.steps ? out.kstep.med / out.steps : 0;
	for (s = 0; s < nsets; s++)
		hn_xbar_destroy(x[s]);
	free(x);
	return out;
}

/* one row of the K-step table: N = @n, K = @k, mixed load 1 */
static void kstep_row(u32 n, u32 k)
{
	struct xres r = bench_xbar(n, 1, 1, k, 400000 / n + 10);
	struct hn_xbar *x;

	hn_xbar_create(n, &x, NULL);
	printf("| %u | %u | %.1f | %.2f | %.1f | %.2f | %.0f | %.0f | %.0f | %llu |\n",
	       n, k, r.steps, r.rounds, r.ns_step, r.ns_step / 90,
	       r.kstep.med, r.greedy.med, r.hk.med,
	       (unsigned long long)hn_xbar_mem_bytes(x));
	hn_xbar_destroy(x);
}

static void kstep_head(void)
{
	printf("\nK-step optimiser, one unfolded stage = one step (Ch. 6: < 90 ns per step, 8x8 to 512x512)\n");
	printf("mixed workload at load 1 (a permutation + N random requests), greedy first\n\n");
	printf("| N | K | steps per run | rounds per run | ns per step | ns per step / 90 ns (target <= 1) | ns K-step run | ns greedy | ns Hopcroft-Karp | memory (bytes) |\n");
	printf("|---|---|---|---|---|---|---|---|---|---|\n");
}

static void xbar_section(void)
{
	static const u32 sizes[] = { 8, 16, 32, 64, 128, 256, 512, 1024 };
	u32 i;

	kstep_head();
	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		kstep_row(sizes[i], 9);
		kstep_row(sizes[i], 2 * sizes[i] - 1);
	}
	printf("\nHopcroft-Karp and greedy at N = 4096, ns per run (median (min))\n\n");
	printf("| workload | load | requests | greedy | K-step K=9 | K-step K=2N-1 | Hopcroft-Karp |\n");
	printf("|---|---|---|---|---|---|---|\n");
	for (i = 0; i < 4; i++) {
		int mixed = i & 1;
		double load = i < 2 ? 1 : 8;
		struct xres a = bench_xbar(4096, load, mixed, 9, 5);
		struct xres b = bench_xbar(4096, load, mixed, 8191, 5);

		printf("| %s | %g | %u | %.0f (%.0f) | %.0f (%.0f) | %.0f (%.0f) | %.0f (%.0f) |\n",
		       mixed ? "mixed" : "random", load,
		       (u32)(load * 4096) + (mixed ? 4096 : 0),
		       a.greedy.med, a.greedy.min, a.kstep.med, a.kstep.min,
		       b.kstep.med, b.kstep.min, a.hk.med, a.hk.min);
	}
}

int main(int argc, char **argv)
{
	int ft = 1, xb = 1;

	if (argc > 1 && !strcmp(argv[1], "fattree"))
		xb = 0;
	if (argc > 1 && !strcmp(argv[1], "crossbar"))
		ft = 0;
	if (argc > 2 && !strcmp(argv[1], "kstep")) {
		u32 n = strtoul(argv[2], NULL, 10);
		u32 k = argc > 3 ? strtoul(argv[3], NULL, 10) : 9;

		if (n < 2 || n > HN_XBAR_MAX_NODES || k < 1 || k > 2 * n - 1) {
			fprintf(stderr, "sched_bench kstep N [K]: 2 <= N <= %u, 1 <= K <= 2N - 1\n",
				HN_XBAR_MAX_NODES);
			return 2;
		}
		kstep_head();
		kstep_row(n, k);
		return 0;
	}
	printf("# sched_bench: one core, thread CPU time, median of %d batches (min)\n\n",
	       BATCHES);
	if (ft)
		fattree_section();
	if (xb)
		xbar_section();
	return 0;
}
