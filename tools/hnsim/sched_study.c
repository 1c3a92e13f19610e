// SPDX-License-Identifier: GPL-2.0
/*
 * sched_study.c - "hnsim sched": the scheduler experiments of Ding's Ch. 6 and 7
 * (crossbar matching, fat-tree level-wise scheduling) on generated
 * workloads, with the same core code as hybridnet.ko (kmod/core/xbar.c,
 * fattree.c, ftsched.c).
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "hnsim.h"
#include "hn_sched.h"
#include "workload.h"
#include "json_pretty.h"

#define MAX_TOPO	64
#define MAX_LOADS	64
#define MAX_ALGOS	64

static void sched_usage(FILE *f)
{
	fprintf(f,
"NAME\n"
"    hnsim sched - run circuit schedulers on generated request sets\n"
"\n"
"SYNOPSIS\n"
"    hnsim sched --topology crossbar:N --algo ALGO[,ALGO...]\n"
"                [--workload random|mixed|perm] [--load L[,L...]]\n"
"                [--trials T] [--seed S] [--rounds R] [--direct]\n"
"    hnsim sched --topology fattree:L,W [--topology ...] --algo ALGO[,...]\n"
"                [--workload perm] [--trials T] [--seed S]\n"
"                [--request-major] [--keep-on-fail]\n"
"    common:     [--json [--pretty]] [--progress|--no-progress] [--no-check]\n"
"\n"
"DESCRIPTION\n"
"    Generates T request sets per point, runs every ALGO on the same sets and\n"
"    prints, per point, the mean, minimum and maximum over the trials.  The\n"
"    schedulers are the engine's (kmod/core/), the same code as in the\n"
"    kernel module; every schedule is checked for legality unless\n"
"    --no-check.  The same options and seed always print the same numbers.\n"
"    Each set has a random state of its own, mixed from the seed, the point\n"
"    (nodes and pairs drawn, or the tree) and the set's number: a point\n"
"    prints the same numbers in any list, and seeds share no set.\n"
"\n"
"    Crossbar (Ding, Ch. 6): the metric is the matching size |M| and its\n"
"    ratio to the maximum matching |M_max| (Hopcroft-Karp), per trial.\n"
"    Fat tree (Ch. 7): the schedulability ratio = granted / requests, with\n"
"    and without the requests whose source and destination share a leaf\n"
"    switch (those need no link and always succeed).\n"
"\n"
"OPTIONS\n"
"    -t, --topology crossbar:N    an N x N crossbar, N = 2..4096\n"
"    -t, --topology fattree:L,W   the fat tree FT(L,W): W^L nodes, L levels\n"
"                                 of W^(L-1) switches with W ports up and W\n"
"                                 down; W = 2..64, W^L <= 65536.  Repeat\n"
"                                 --topology for several trees.\n"
"    -a, --algo LIST              comma-separated:\n"
"        greedy          crossbar: row-major first fit (Ch. 5, K = 1)\n"
"        kstep:K         crossbar: greedy, then augmenting paths of length\n"
"                        at most K edges until none is left (Ch. 6); K = 1\n"
"                        is greedy, K = 2N-1 is a maximum matching.  Only\n"
"                        odd K matter (a path has odd length): K = 2 is 1.\n"
"        kstep:A-B       every K from A to B, one point each\n"
"        hopcroft-karp   crossbar: maximum matching (the reference)\n"
"        levelwise       fat tree: Ding's level-wise scheduler (Ch. 7),\n"
"                        level by level, first port free both up and down\n"
"        local-greedy    fat tree: climb by the lowest free up-port, fail\n"
"                        at the first busy down-link\n"
"        local-random    fat tree: climb by a uniformly random free\n"
"                        up-port\n"
"        optimal         fat tree: edge-colour the demands level by level;\n"
"                        routes every permutation\n"
"    -w, --workload NAME          random (crossbar default), mixed, perm\n"
"                                 (fat tree default); see WORKLOADS\n"
"    -l, --load LIST              loads L for random and mixed, comma-\n"
"                                 separated (default 1)\n"
"    -n, --trials T               request sets per point (default 100)\n"
"    -s, --seed S                 seed of the generator (default 1)\n"
"    -r, --rounds R               kstep: at most R augmenting rounds\n"
"        --direct                 kstep: run greedy + K-step afresh for every\n"
"                                 K (default: one run; see NOTES)\n"
"        --request-major          levelwise: all levels of one request\n"
"                                 before the next (the hardware pipeline,\n"
"                                 paper Sec. 6) instead of level by level (Sec. 7.4)\n"
"        --keep-on-fail           levelwise, local-*: a request that fails\n"
"                                 keeps the links it reserved (default: it\n"
"                                 gives them back)\n"
"    -j, --json                   one JSON object instead of the table\n"
"        --pretty                 with --json: indented (as hnctl -j -p)\n"
"        --progress, --no-progress  progress line on standard error (default:\n"
"                                 when it is a terminal)\n"
"        --no-check               skip the legality check of each schedule\n"
"    -h, --help                   this text\n"
"\n"
"WORKLOADS\n"
"    random  L*N distinct (source, destination) pairs drawn uniformly\n"
"            without replacement from all N^2 pairs (a node may request\n"
"            itself: x_i and y_i are different vertices).  Load L is\n"
"            requests / N: 0.125 is 12.5%% loaded, 1 is one permutation's\n"
"            worth, 8 is 800%% (Fig. 6.16; Ding's \"density\" 4/(8x8) =\n"
"            \"0.125\" only fits requests/N, note A3).  L*N is rounded to\n"
"            the nearest integer; at most N^2/2 requests.\n"
"    mixed   a uniformly random permutation (so |M_max| = N) plus L*N\n"
"            further distinct random pairs (Fig. 6.17, note A4).\n"
"    perm    a uniformly random permutation, one request per node, in\n"
"            source order; fixed points are requests inside one leaf switch\n"
"            (Figs. 7.8-7.11: \"random communication permutations\").\n"
"\n"
"OUTPUT\n"
"    A table with one line per point and '#' comment lines (gnuplot reads\n"
"    it as is).  Crossbar columns: nodes load algo k requests (mean)\n"
"    matched_mean matched_min matched_max maximum_mean pct_mean pct_min\n"
"    pct_max, pct = 100 |M| / |M_max| per trial (100 when no request).\n"
"    Fat-tree columns: levels width nodes algo pct_mean pct_min pct_max\n"
"    nl_pct_mean nl_pct_min nl_pct_max local_mean, pct = 100 granted /\n"
"    requests and nl_pct the same without the local (same leaf) requests.\n"
"\n"
"NOTES\n"
"    A K-step round finds a shortest augmenting path whatever K is, and\n"
"    shortest-path lengths never decrease from round to round, so the\n"
"    result for every K is the same run cut at the first path longer than\n"
"    K: kstep:A-B costs one run per trial (--direct checks this).\n"
"\n"
"EXAMPLES\n"
"    hnsim sched -t crossbar:64 -a kstep:1-15 -w random -l 0.125,1,8\n"
"    hnsim sched -t fattree:3,8 -a levelwise,local-greedy,optimal\n"
"\n"
"EXIT STATUS\n"
"    0 on success, 1 on bad options, 2 when a schedule failed its\n"
"    legality check (a bug).\n");
}

struct topo {
	u32 kind;		/* enum hn_topology */
	u32 n, l, w;
};

struct algo {
	u32 id;			/* enum hn_sched_algo */
	u32 k;			/* kstep */
};

struct acc {
	double sum, min, max;
	u64 cnt;
};

struct point {
	struct acc matched, maximum, pct, nl_pct, local, requests;
};

struct opts {
	struct topo topo[MAX_TOPO];
	u32 ntopo;
	struct algo algo[MAX_ALGOS];
	u32 nalgo;
	double load[MAX_LOADS];
	u32 nload;
	u32 workload;		/* enum hn_wl_kind; 3 unset */
	u32 trials;
	u64 seed;
	u32 rounds;
	u32 flags;
	int direct, json, progress, check;
};

static const char * const workload_names[] = { "random", "mixed", "perm" };

static void acc_add(struct acc *a, double v)
{
	if (!a->cnt || v < a->min)
		a->min = v;
	if (!a->cnt || v > a->max)
		a->max = v;
	a->sum += v;
	a->cnt++;
}

static double acc_mean(const struct acc *a)
{
	return a->cnt ? a->sum / a->cnt : 0;
}

static int parse_u32(const char *s, u32 *v, u32 lo, u32 hi)
{
	char *end;
	unsigned long x;

	if (!*s)
		return -1;
	x = strtoul(s, &end, 10);
	if (*end || x < lo || x > hi)
		return -1;
	*v = x;
	return 0;
}

static int parse_topology(struct opts *o, const char *s)
{
	struct topo *t = &o->topo[o->ntopo];
	char buf[64], *comma;

	if (o->ntopo >= MAX_TOPO) {
		fprintf(stderr, "hnsim sched: at most %d topologies\n",
			MAX_TOPO);
		return -1;
	}
	snprintf(buf, sizeof(buf), "%s", s);
	if (!strncmp(buf, "crossbar:", 9)) {
		t->kind = HN_TOPO_CROSSBAR;
		if (parse_u32(buf + 9, &t->n, 2, HN_XBAR_MAX_NODES)) {
			fprintf(stderr,
				"hnsim sched: crossbar:N wants N in 2..%d, not '%s'\n",
				HN_XBAR_MAX_NODES, buf + 9);
			return -1;
		}
	} else if (!strncmp(buf, "fattree:", 8)) {
		struct hn_err err = { 0 };
		struct hn_ft *ft;

		t->kind = HN_TOPO_FATTREE;
		comma = strchr(buf + 8, ',');
		if (!comma) {
			fprintf(stderr,
				"hnsim sched: fattree:L,W wants levels and width, not '%s'\n",
				s);
			return -1;
		}
		*comma = 0;
		if (parse_u32(buf + 8, &t->l, 1, 1000) ||
		    parse_u32(comma + 1, &t->w, 0, 1000000)) {
			fprintf(stderr,
				"hnsim sched: fattree:L,W wants two numbers, not '%s'\n",
				s);
			return -1;
		}
		if (hn_ft_create(t->l, t->w, &ft, &err)) {
			fprintf(stderr, "hnsim sched: %s: %s\n", s, err.msg);
			return -1;
		}
		t->n = hn_ft_nodes(ft);
		hn_ft_destroy(ft);
	} else {
		fprintf(stderr,
			"hnsim sched: topology must be crossbar:N or fattree:L,W, not '%s'\n",
			s);
		return -1;
	}
	o->ntopo++;
	return 0;
}

static int add_algo(struct opts *o, u32 id, u32 k)
{
	if (o->nalgo >= MAX_ALGOS) {
		fprintf(stderr, "hnsim sched: at most %d algorithm points\n",
			MAX_ALGOS);
		return -1;
	}
	o->algo[o->nalgo].id = id;
	o->algo[o->nalgo].k = k;
	o->nalgo++;
	return 0;
}

static int parse_algos(struct opts *o, const char *s)
{
	char buf[512], *tok, *save = NULL;

	snprintf(buf, sizeof(buf), "%s", s);
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		u32 a, b, k;
		char *dash;
		int id;

		if (!strncmp(tok, "kstep:", 6)) {
			char orig[64];

			snprintf(orig, sizeof(orig), "%s", tok);
			dash = strchr(tok + 6, '-');
			if (dash)
				*dash = 0;
			if (parse_u32(tok + 6, &a, 1, 8191) ||
			    (dash && parse_u32(dash + 1, &b, a, 8191))) {
				fprintf(stderr,
					"hnsim sched: kstep:K or kstep:A-B wants 1 <= A <= B, not '%s'\n",
					orig);
				return -1;
			}
			if (!dash)
				b = a;
			for (k = a; k <= b; k++)
				if (add_algo(o, HN_SCHED_KSTEP, k))
					return -1;
			continue;
		}
		id = hn_sched_algo_parse(tok);
		if (id < 0 || id == HN_SCHED_KSTEP) {
			fprintf(stderr,
				"hnsim sched: unknown algorithm '%s' (try --help)\n",
				tok);
			return -1;
		}
		if (add_algo(o, id, 0))
			return -1;
	}
	return 0;
}

static int parse_loads(struct opts *o, const char *s)
{
	char buf[512], *tok, *save = NULL, *end;

	snprintf(buf, sizeof(buf), "%s", s);
	o->nload = 0;
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		double l = strtod(tok, &end);

		if (*end || end == tok || !(l >= 0) || l > 4096) {
			fprintf(stderr,
				"hnsim sched: a load is a number >= 0 (requests / N), not '%s'\n",
				tok);
			return -1;
		}
		if (o->nload >= MAX_LOADS) {
			fprintf(stderr, "hnsim sched: at most %d loads\n",
				MAX_LOADS);
			return -1;
		}
		o->load[o->nload++] = l;
	}
	return o->nload ? 0 : -1;
}

/* ---- progress ---- */

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void progress(const struct opts *o, double *last, const char *what,
		     u32 point, u32 npoints, u32 trial)
{
	double t;

	if (!o->progress)
		return;
	t = now_s();
	if (t - *last < 0.25)
		return;
	*last = t;
	fprintf(stderr, "\rhnsim sched: %s: point %u/%u, trial %u/%u   ", what,
		point + 1, npoints, trial + 1, o->trials);
}

static void progress_done(const struct opts *o)
{
	if (o->progress)
		fprintf(stderr, "\r%60s\r", "");
}

/* ---- output ---- */

static int json_first = 1;

static void json_acc(FILE *f, const char *name, const struct acc *a,
		     const char *tail)
{
	fprintf(f, "\"%s\": {\"mean\": %.4f, \"min\": %.4f, \"max\": %.4f}%s",
		name, acc_mean(a), a->min, a->max, tail);
}

static void print_head(const struct opts *o, FILE *f)
{
	if (o->json) {
		fprintf(f, "{\"command\": \"sched\", \"workload\": \"%s\", "
			"\"trials\": %u, \"seed\": %llu, \"flags\": {"
			"\"request_major\": %s, \"keep_on_fail\": %s}, "
			"\"points\": [\n",
			workload_names[o->workload], o->trials,
			(unsigned long long)o->seed,
			o->flags & HN_SCHED_REQUEST_MAJOR ? "true" : "false",
			o->flags & HN_SCHED_KEEP_ON_FAIL ? "true" : "false");
		return;
	}
	fprintf(f, "# hnsim sched: workload %s, %u trials, seed %llu%s%s\n",
		workload_names[o->workload], o->trials,
		(unsigned long long)o->seed,
		o->flags & HN_SCHED_REQUEST_MAJOR ? ", request-major" : "",
		o->flags & HN_SCHED_KEEP_ON_FAIL ? ", keep-on-fail" : "");
}

static void print_xbar(const struct opts *o, FILE *f, const struct topo *t,
		       double load, const struct algo *a,
		       const struct point *p)
{
	const char *name = hn_sched_algo_name(a->id);

	if (o->json) {
		fprintf(f, "%s  {\"topology\": \"crossbar\", \"nodes\": %u, "
			"\"load\": %g, \"algo\": \"%s\", \"kstep\": %u, "
			"\"requests\": %.2f, ", json_first ? "" : ",\n",
			t->n, load, name, a->k, acc_mean(&p->requests));
		json_first = 0;
		json_acc(f, "matched", &p->matched, ", ");
		json_acc(f, "maximum", &p->maximum, ", ");
		json_acc(f, "pct", &p->pct, "}");
		return;
	}
	fprintf(f, "%5u %7g %-13s %4u %9.2f %9.2f %6.0f %6.0f %9.2f %7.3f %7.3f %7.3f\n",
		t->n, load, name, a->k, acc_mean(&p->requests),
		acc_mean(&p->matched), p->matched.min, p->matched.max,
		acc_mean(&p->maximum), acc_mean(&p->pct), p->pct.min,
		p->pct.max);
}

static void print_ft(const struct opts *o, FILE *f, const struct topo *t,
		     const struct algo *a, const struct point *p)
{
	const char *name = hn_sched_algo_name(a->id);

	if (o->json) {
		fprintf(f, "%s  {\"topology\": \"fattree\", \"levels\": %u, "
			"\"width\": %u, \"nodes\": %u, \"algo\": \"%s\", ",
			json_first ? "" : ",\n", t->l, t->w, t->n, name);
		json_first = 0;
		json_acc(f, "pct", &p->pct, ", ");
		json_acc(f, "nl_pct", &p->nl_pct, ", ");
		json_acc(f, "local", &p->local, "}");
		return;
	}
	fprintf(f, "%2u %3u %6u %-13s %7.3f %7.3f %7.3f %7.3f %7.3f %7.3f %8.2f\n",
		t->l, t->w, t->n, name, acc_mean(&p->pct), p->pct.min,
		p->pct.max, acc_mean(&p->nl_pct), p->nl_pct.min,
		p->nl_pct.max, acc_mean(&p->local));
}

/* ---- runs ---- */

static int bad_schedule(const char *what, const struct hn_err *err)
{
	fprintf(stderr, "\nhnsim sched: %s: illegal schedule: %s\n", what,
		err->msg ? err->msg : "?");
	return 2;
}

static int run_xbar(const struct opts *o, FILE *f, const struct topo *t,
		    u32 ti, u32 *pointno, u32 npoints, double *last)
{
	u32 n = t->n, li, ai, trial, i, max_req = n + n * n / 2;
	struct hn_pair *req = malloc((size_t)max_req * sizeof(*req));
	u64 *bits = malloc(hn_wl_bitmap_bytes(n));
	u32 *lens = malloc(n * sizeof(u32));
	struct point *pts = calloc(o->nalgo, sizeof(*pts));
	struct hn_err err = { 0 };
	struct hn_xbar *x = NULL;
	int rc = 0;

	if (!req || !bits || !lens || !pts ||
	    hn_xbar_create(n, &x, &err)) {
		fprintf(stderr, "hnsim sched: out of memory\n");
		rc = 1;
		goto out;
	}
	for (li = 0; li < o->nload; li++) {
		u32 m = (u32)(o->load[li] * n + 0.5);
		int any_kstep = 0;

		memset(pts, 0, o->nalgo * sizeof(*pts));
		for (ai = 0; ai < o->nalgo; ai++)
			any_kstep |= o->algo[ai].id == HN_SCHED_KSTEP;
		for (trial = 0; trial < o->trials; trial++) {
			u64 rs = hn_wl_trial_seed(o->seed, n, o->workload ==
						  HN_WL_PERM ? 0 : m, trial);
			u32 nreq, g, maxm, rounds = 0, len;

			progress(o, last, "crossbar", *pointno, npoints, trial);
			nreq = hn_wl_xbar(&rs, o->workload, n, m, req, bits);
			if (hn_xbar_set_requests(x, req, nreq, &err)) {
				fprintf(stderr, "hnsim sched: %s\n", err.msg);
				rc = 1;
				goto out;
			}
			g = hn_xbar_greedy(x);
			if (any_kstep && !o->direct) {
				while ((!o->rounds || rounds < o->rounds) &&
				       hn_xbar_augment(x, 2 * n - 1, NULL, &len,
						       NULL) == 1)
					lens[rounds++] = len;
			}
			if (o->check && hn_xbar_check(x, &err)) {
				rc = bad_schedule("kstep", &err);
				goto out;
			}
			hn_xbar_clear_match(x);
			maxm = hn_xbar_hopcroft_karp(x, NULL);
			if (o->check && hn_xbar_check(x, &err)) {
				rc = bad_schedule("hopcroft-karp", &err);
				goto out;
			}
			for (ai = 0; ai < o->nalgo; ai++) {
				const struct algo *a = &o->algo[ai];
				u32 size;

				if (a->id == HN_SCHED_GREEDY) {
					size = g;
				} else if (a->id == HN_SCHED_HOPCROFT_KARP) {
					size = maxm;
				} else if (o->direct) {
					hn_xbar_clear_match(x);
					hn_xbar_greedy(x);
					size = hn_xbar_kstep(x, a->k, o->rounds,
							     NULL, NULL);
					if (o->check &&
					    hn_xbar_check(x, &err)) {
						rc = bad_schedule("kstep",
								  &err);
						goto out;
					}
				} else {
					for (size = g, i = 0; i < rounds; i++)
						size += lens[i] <= a->k;
				}
				if (size > maxm) {
					fprintf(stderr,
						"\nhnsim sched: matching above the maximum\n");
					rc = 2;
					goto out;
				}
				acc_add(&pts[ai].requests, nreq);
				acc_add(&pts[ai].matched, size);
				acc_add(&pts[ai].maximum, maxm);
				acc_add(&pts[ai].pct,
					maxm ? 100.0 * size / maxm : 100.0);
			}
		}
		for (ai = 0; ai < o->nalgo; ai++)
			print_xbar(o, f, t, o->load[li], &o->algo[ai],
				   &pts[ai]);
		(*pointno)++;
	}
out:
	(void)ti;
	hn_xbar_destroy(x);
	free(req);
	free(bits);
	free(lens);
	free(pts);
	return rc;
}

static int run_ft(const struct opts *o, FILE *f, const struct topo *t,
		  u32 ti, u32 *pointno, u32 npoints, double *last)
{
	u32 n = t->n, ai, trial;
	struct hn_pair *req = malloc(n * sizeof(*req));
	struct hn_route *out = malloc(n * sizeof(*out));
	struct point *pts = calloc(o->nalgo, sizeof(*pts));
	struct hn_err err = { 0 };
	struct hn_ft *ft = NULL;
	int rc = 0;

	if (!req || !out || !pts || hn_ft_create(t->l, t->w, &ft, &err)) {
		fprintf(stderr, "hnsim sched: out of memory\n");
		rc = 1;
		goto out;
	}
	for (trial = 0; trial < o->trials; trial++) {
		u64 rs = hn_wl_trial_seed(o->seed, t->l, t->w, trial);
		u64 rnd = rs ^ HN_WL_LOCAL_RANDOM_MIX;

		progress(o, last, "fat tree", *pointno, npoints, trial);
		hn_wl_perm(&rs, n, req);
		for (ai = 0; ai < o->nalgo; ai++) {
			struct hn_sched_result res = { 0 };
			u32 id = o->algo[ai].id;
			u32 flags = id == HN_SCHED_OPTIMAL ? 0 : o->flags;
			u32 nl;

			hn_ft_clear(ft);
			if (hn_ft_schedule(ft, id, flags, &rnd, req, n, out,
					   &res, &err)) {
				fprintf(stderr, "hnsim sched: %s\n", err.msg);
				rc = 1;
				goto out;
			}
			if (o->check &&
			    hn_ft_check(ft, out, n,
					!(flags & HN_SCHED_KEEP_ON_FAIL),
					&err)) {
				rc = bad_schedule(hn_sched_algo_name(id), &err);
				goto out;
			}
			nl = res.requests - res.local;
			acc_add(&pts[ai].pct, 100.0 * res.granted / n);
			acc_add(&pts[ai].nl_pct, nl ? 100.0 *
				(res.granted - res.local) / nl : 100.0);
			acc_add(&pts[ai].local, res.local);
		}
	}
	for (ai = 0; ai < o->nalgo; ai++)
		print_ft(o, f, t, &o->algo[ai], &pts[ai]);
	(*pointno)++;
out:
	(void)ti;
	hn_ft_destroy(ft);
	free(req);
	free(out);
	free(pts);
	return rc;
}

int sched_main(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "topology", required_argument, NULL, 't' },
		{ "algo", required_argument, NULL, 'a' },
		{ "workload", required_argument, NULL, 'w' },
		{ "load", required_argument, NULL, 'l' },
		{ "trials", required_argument, NULL, 'n' },
		{ "seed", required_argument, NULL, 's' },
		{ "rounds", required_argument, NULL, 'r' },
		{ "direct", no_argument, NULL, 1 },
		{ "request-major", no_argument, NULL, 2 },
		{ "keep-on-fail", no_argument, NULL, 3 },
		{ "json", no_argument, NULL, 'j' },
		{ "pretty", no_argument, NULL, 7 },
		{ "progress", no_argument, NULL, 4 },
		{ "no-progress", no_argument, NULL, 5 },
		{ "no-check", no_argument, NULL, 6 },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct opts o = {
		.workload = 3, .trials = 100, .seed = 1, .progress = -1,
		.check = 1, .nload = 1, .load = { 1 },
	};
	u32 i, ai, npoints = 0, pointno = 0, kind;
	double last = 0, t0;
	int pretty = 0;
	char *end;
	int c, rc = 0;

	optind = 1;
	while ((c = getopt_long(argc, argv, "t:a:w:l:n:s:r:jh", lo,
				NULL)) != -1) {
		switch (c) {
		case 't':
			if (parse_topology(&o, optarg))
				return 1;
			break;
		case 'a':
			if (parse_algos(&o, optarg))
				return 1;
			break;
		case 'w':
			for (o.workload = 0; o.workload < 3; o.workload++)
				if (!strcmp(optarg,
					    workload_names[o.workload]))
					break;
			if (o.workload == 3) {
				fprintf(stderr,
					"hnsim sched: workload must be random, mixed or perm, not '%s'\n",
					optarg);
				return 1;
			}
			break;
		case 'l':
			if (parse_loads(&o, optarg))
				return 1;
			break;
		case 'n':
			if (parse_u32(optarg, &o.trials, 1, 100000000)) {
				fprintf(stderr,
					"hnsim sched: --trials wants a number >= 1, not '%s'\n",
					optarg);
				return 1;
			}
			break;
		case 's':
			o.seed = strtoull(optarg, &end, 0);
			if (*end || !*optarg) {
				fprintf(stderr,
					"hnsim sched: --seed wants a number, not '%s'\n",
					optarg);
				return 1;
			}
			break;
		case 'r':
			if (parse_u32(optarg, &o.rounds, 1, 100000000)) {
				fprintf(stderr,
					"hnsim sched: --rounds wants a number >= 1, not '%s'\n",
					optarg);
				return 1;
			}
			break;
		case 1:
			o.direct = 1;
			break;
		case 2:
			o.flags |= HN_SCHED_REQUEST_MAJOR;
			break;
		case 3:
			o.flags |= HN_SCHED_KEEP_ON_FAIL;
			break;
		case 'j':
			o.json = 1;
			break;
		case 4:
		case 5:
			o.progress = c == 4;
			break;
		case 6:
			o.check = 0;
			break;
		case 7:
			pretty = 1;
			break;
		case 'h':
			sched_usage(stdout);
			return 0;
		default:
			fprintf(stderr, "Try 'hnsim sched --help'.\n");
			return 1;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "hnsim sched: unexpected argument '%s'\n",
			argv[optind]);
		return 1;
	}
	if (!o.ntopo || !o.nalgo) {
		fprintf(stderr,
			"hnsim sched: --topology and --algo are required; try 'hnsim sched --help'\n");
		return 1;
	}
	kind = o.topo[0].kind;
	for (i = 0; i < o.ntopo; i++)
		if (o.topo[i].kind != kind) {
			fprintf(stderr,
				"hnsim sched: crossbars and fat trees in separate runs, please\n");
			return 1;
		}
	for (ai = 0; ai < o.nalgo; ai++) {
		bool xa = o.algo[ai].id <= HN_SCHED_HOPCROFT_KARP;

		if (xa != (kind == HN_TOPO_CROSSBAR)) {
			fprintf(stderr,
				"hnsim sched: %s does not schedule a %s\n",
				hn_sched_algo_name(o.algo[ai].id),
				kind == HN_TOPO_CROSSBAR ? "crossbar" :
				"fat tree");
			return 1;
		}
	}
	if (o.workload == 3)
		o.workload = kind == HN_TOPO_CROSSBAR ? HN_WL_RANDOM :
			     HN_WL_PERM;
	if (kind == HN_TOPO_FATTREE && o.workload != HN_WL_PERM) {
		fprintf(stderr,
			"hnsim sched: fat trees take the perm workload (a schedule is a partial permutation)\n");
		return 1;
	}
	if (kind == HN_TOPO_FATTREE && o.direct) {
		fprintf(stderr, "hnsim sched: --direct is for kstep\n");
		return 1;
	}
	if (kind == HN_TOPO_CROSSBAR && o.flags) {
		fprintf(stderr,
			"hnsim sched: --request-major and --keep-on-fail are for fat trees\n");
		return 1;
	}
	for (i = 0; kind == HN_TOPO_CROSSBAR && i < o.ntopo; i++) {
		u32 n = o.topo[i].n, li;

		for (li = 0; li < o.nload; li++)
			if ((u32)(o.load[li] * n + 0.5) > n * n / 2) {
				fprintf(stderr,
					"hnsim sched: load %g on crossbar:%u asks for more than N^2/2 = %u requests\n",
					o.load[li], n, n * n / 2);
				return 1;
			}
	}
	if (o.progress < 0)
		o.progress = isatty(2);
	for (i = 0; i < o.ntopo; i++)
		npoints += kind == HN_TOPO_CROSSBAR ? o.nload : 1;
	t0 = now_s();
	if (o.json && pretty)
		json_pretty_begin();
	print_head(&o, stdout);
	if (!o.json) {
		if (kind == HN_TOPO_CROSSBAR)
			printf("# nodes    load algo            k  requests matched_mean/min/max  maximum_mean pct_mean pct_min pct_max\n");
		else
			printf("# l   w  nodes algo          pct_mean pct_min pct_max nl_mean  nl_min  nl_max local_mean\n");
	}
	for (i = 0; i < o.ntopo && !rc; i++) {
		if (kind == HN_TOPO_CROSSBAR)
			rc = run_xbar(&o, stdout, &o.topo[i], i, &pointno,
				      npoints, &last);
		else
			rc = run_ft(&o, stdout, &o.topo[i], i, &pointno,
				    npoints, &last);
		fflush(stdout);
	}
	progress_done(&o);
	if (o.json)
		printf("\n], \"wall_s\": %.3f}\n", now_s() - t0);
	else
		printf("# wall %.3f s\n", now_s() - t0);
	json_pretty_end();
	return rc;
}
