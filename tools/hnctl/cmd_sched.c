// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_sched.c - "hnctl sched": the kernel runs one of the engine's circuit
 * schedulers (SCHED_RUN) on requests given as SRC:DST pairs or drawn as a
 * random permutation, so its results can be set beside those of hnsim
 * sched, which runs the same code in user space.
 *
 * --perm SEED draws the request set of hnsim sched's first trial with
 * --seed SEED and the perm workload, with hnsim's own functions
 * (tools/common/workload.h: the seed mixing, the Fisher-Yates shuffle).
 * The topology, the scheduler's name and the pairs are the kernel's to
 * judge; hnctl reads only what it needs to draw a permutation.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hnctl.h"
#include "json.h"
#include "workload.h"		/* as hnsim sched draws its requests */

struct sched_args {
	struct hn_ctl_sched s;
	char algo[32];			/* "kstep" out of "kstep:K" */
	struct hn_ctl_pair *req;
	size_t n;
	int has_kstep, has_seed, has_perm;
	uint64_t perm_seed;
};

/* A decimal u32, as the kernel reads the numbers of a topology. */
static int dec_u32(const char *s, size_t len, uint64_t *v)
{
	size_t i;

	*v = 0;
	for (i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		*v = *v * 10 + (uint64_t)(s[i] - '0');
		if (*v > UINT32_MAX)
			return -1;
	}
	return len ? 0 : -1;
}

/*
 * The node count of "crossbar:N" (a = N, b = 0: hnsim's perm workload) or
 * "fattree:L,W" (a = L, b = W, W^L nodes; more than UINT32_MAX is
 * UINT32_MAX + 1).  -1 when the text is neither.
 */
static int topo_nodes(const char *t, uint64_t *nodes, uint32_t *a,
		      uint32_t *b, int *fattree)
{
	const char *comma;
	uint64_t l, w, n = 1, i;

	if (!strncmp(t, "crossbar:", 9)) {
		if (dec_u32(t + 9, strlen(t + 9), &n))
			return -1;
		*fattree = 0;
		*a = (uint32_t)n;
		*b = 0;
	} else if (!strncmp(t, "fattree:", 8)) {
		comma = strchr(t + 8, ',');
		if (!comma || dec_u32(t + 8, comma - t - 8, &l) ||
		    dec_u32(comma + 1, strlen(comma + 1), &w))
			return -1;
		if (w < 2)
			n = l ? w : 1;
		for (i = 0; w >= 2 && i < l && n <= UINT32_MAX; i++)
			n *= w;
		*fattree = 1;
		*a = (uint32_t)l;
		*b = (uint32_t)w;
	} else {
		return -1;
	}
	*nodes = n > UINT32_MAX ? (uint64_t)UINT32_MAX + 1 : n;
	return 0;
}

/* The requests of --perm: node s to d_s, a uniformly random permutation. */
static int draw_perm(struct sched_args *x)
{
	uint32_t a, b, i;
	struct hn_pair *perm;
	uint64_t nodes;
	int fattree;
	u64 rs;

	if (topo_nodes(x->s.topology, &nodes, &a, &b, &fattree))
		return hnctl_usage("sched", "--perm: topology '%s': want "
				   "crossbar:N or fattree:L,W",
				   x->s.topology);
	if (!nodes)
		return hnctl_usage("sched", "--perm: %s has no nodes",
				   x->s.topology);
	if (nodes > HYBRIDNET_MAX_PAIRS)
		return hnctl_usage("sched", "--perm: %s has %s%llu nodes; one "
				   "request carries at most %u pairs",
				   x->s.topology,
				   nodes > UINT32_MAX ? "more than " : "",
				   (unsigned long long)(nodes > UINT32_MAX ?
							UINT32_MAX : nodes),
				   HYBRIDNET_MAX_PAIRS);
	free(x->req);
	x->req = calloc(nodes, sizeof(*x->req));
	perm = calloc(nodes, sizeof(*perm));
	if (!x->req || !perm) {
		free(perm);
		fprintf(stderr, "hnctl: out of memory\n");
		return EXIT_KERNEL;
	}
	rs = hn_wl_trial_seed(x->perm_seed, a, b, 0);
	/* hnsim's fat trees seed local-random from the trial seed */
	if (fattree && !x->has_seed)
		x->s.seed = rs ^ HN_WL_LOCAL_RANDOM_MIX;
	hn_wl_perm(&rs, (uint32_t)nodes, perm);
	for (i = 0; i < nodes; i++) {
		x->req[i].src = perm[i].src;
		x->req[i].dst = perm[i].dst;
	}
	free(perm);
	x->n = nodes;
	return 0;
}

/* @word's value, a number within [min, max]: 0 or EXIT_USAGE */
static int num_arg(int argc, char **argv, int *i, const char *what,
		   uint64_t min, uint64_t max, uint64_t *v)
{
	const char *word = argv[*i];

	if (*i + 1 >= argc)
		return hnctl_usage("sched", "%s needs a value (%s)", word, what);
	if (hnctl_num(argv[++*i], max, v) || *v < min)
		return hnctl_usage("sched", "%s: '%s' is not %s", word,
				   argv[*i], what);
	return 0;
}

static int parse(struct sched_args *x, int argc, char **argv)
{
	const char *a, *colon;
	uint64_t v;
	int i, rc;

	x->req = calloc(argc + 1, sizeof(*x->req));
	if (!x->req) {
		fprintf(stderr, "hnctl: out of memory\n");
		return EXIT_KERNEL;
	}
	for (i = 0; i < argc; i++) {
		a = argv[i];
		if (!strcmp(a, "--perm")) {
			if (x->has_perm)
				return hnctl_usage("sched", "--perm given twice");
			rc = num_arg(argc, argv, &i, "a seed", 0, UINT64_MAX,
				     &x->perm_seed);
			if (rc)
				return rc;
			x->has_perm = 1;
		} else if (a[0] == '-') {
			return hnctl_usage("sched", "unknown option '%s'", a);
		} else if (!x->s.topology) {
			x->s.topology = a;
		} else if (!x->s.algo) {
			/* hnsim's "kstep:K" is kstep with K */
			colon = strchr(a, ':');
			if (strncmp(a, "kstep:", 6)) {
				x->s.algo = a;
				continue;
			}
			if (hnctl_num(colon + 1, UINT32_MAX, &v) || !v)
				return hnctl_usage("sched", "'%s': K of kstep:K "
						   "is a number >= 1", a);
			snprintf(x->algo, sizeof(x->algo), "kstep");
			x->s.algo = x->algo;
			x->s.kstep = (uint32_t)v;
			x->has_kstep = 1;
		} else if (!strcmp(a, "kstep")) {
			if (x->has_kstep)
				return hnctl_usage("sched", "kstep given twice");
			rc = num_arg(argc, argv, &i, "a number >= 1", 1,
				     UINT32_MAX, &v);
			if (rc)
				return rc;
			x->s.kstep = (uint32_t)v;
			x->has_kstep = 1;
		} else if (!strcmp(a, "seed")) {
			if (x->has_seed)
				return hnctl_usage("sched", "seed given twice");
			rc = num_arg(argc, argv, &i, "a number", 0, UINT64_MAX,
				     &x->s.seed);
			if (rc)
				return rc;
			x->has_seed = 1;
		} else if (!strcmp(a, "request-major")) {
			x->s.flags |= HN_CTL_SCHED_REQUEST_MAJOR;
		} else if (!strcmp(a, "keep") || !strcmp(a, "keep-on-fail")) {
			x->s.flags |= HN_CTL_SCHED_KEEP_ON_FAIL;
		} else if (hnctl_pair(a, &x->req[x->n++])) {
			return hnctl_usage("sched", "'%s': expected SRC:DST, "
					   "kstep K, seed S, request-major or "
					   "keep", a);
		}
	}
	if (!x->s.topology)
		return hnctl_usage("sched", "what? give TOPOLOGY ALGO SRC:DST... "
				   "or TOPOLOGY ALGO --perm SEED");
	if (!x->s.algo)
		return hnctl_usage("sched", "no scheduler after '%s': give "
				   "ALGO (greedy, kstep, hopcroft-karp, "
				   "levelwise, local-greedy, local-random, "
				   "optimal)", x->s.topology);
	if (x->has_perm && x->n)
		return hnctl_usage("sched", "give SRC:DST pairs or --perm "
				   "SEED, not both");
	if (!x->has_perm && !x->n)
		return hnctl_usage("sched", "no requests: give SRC:DST... or "
				   "--perm SEED");
	return x->has_perm ? draw_perm(x) : 0;
}

/* "request-major,keep-on-fail", as the words of the command line */
static const char *flags_str(uint32_t flags, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s%s",
		 flags & HN_CTL_SCHED_REQUEST_MAJOR ? "request-major" : "",
		 flags == (HN_CTL_SCHED_REQUEST_MAJOR |
			   HN_CTL_SCHED_KEEP_ON_FAIL) ? "," : "",
		 flags & HN_CTL_SCHED_KEEP_ON_FAIL ? "keep-on-fail" : "");
	return buf;
}

/* -n: the request, with the attributes that would be sent */
static void print_request(const struct sched_args *x, int json)
{
	const struct hn_ctl_sched *s = &x->s;
	char fl[32];
	size_t i;

	flags_str(s->flags, fl, sizeof(fl));
	if (json) {
		j_obj(NULL);
		j_str("request", "sched-run");
		j_str("topology", s->topology);
		j_str("algo", s->algo);
		if (s->kstep)
			j_u64("kstep", s->kstep);
		if (s->flags)
			j_str("sched-flags", fl);
		if (s->seed)
			j_u64("seed", s->seed);
		j_pairs("pairs", x->req, x->n);
		j_obj_end();
		j_end();
		return;
	}
	printf("sched-run topology %s algo %s", s->topology, s->algo);
	if (s->kstep)
		printf(" kstep %u", s->kstep);
	if (s->flags)
		printf(" sched-flags %s", fl);
	if (s->seed)
		printf(" seed %llu", (unsigned long long)s->seed);
	for (i = 0; i < x->n; i++)
		printf(" %u:%u", x->req[i].src, x->req[i].dst);
	putchar('\n');
}

static void print_result(const struct sched_args *x,
			 const struct hn_ctl_route *r,
			 const struct hn_ctl_sched_result *res, int json)
{
	size_t i;
	uint32_t p;

	if (json) {
		j_obj(NULL);
		j_str("topology", x->s.topology);
		j_str("algo", x->s.algo);
		j_u64("requests", x->n);
		j_u64("granted", res->granted);
		j_u64("rounds", res->rounds);
		j_arr("grants");
	} else {
		printf("granted %u of %zu, rounds %llu\n", res->granted, x->n,
		       (unsigned long long)res->rounds);
	}
	for (i = 0; i < x->n; i++) {
		char num[16];
		const char *name = hnctl_grant_str(r[i].result, num,
						   sizeof(num));

		if (json) {
			j_obj(NULL);
			j_u64("src", r[i].src);
			j_u64("dst", r[i].dst);
			j_str("result", name);
			if (r[i].level != HN_CTL_NO_LEVEL) {
				j_u64("level", r[i].level);
				j_arr("up");
				for (p = 0; p < r[i].nports; p++)
					j_u64(NULL, r[i].port[p]);
				j_arr_end();
			}
			j_obj_end();
			continue;
		}
		printf("%u:%u %s", r[i].src, r[i].dst, name);
		if (r[i].level != HN_CTL_NO_LEVEL)
			printf(" level %u", r[i].level);
		for (p = 0; p < r[i].nports; p++)
			printf("%s%u", p ? "," : " up ", r[i].port[p]);
		putchar('\n');
	}
	if (json) {
		j_arr_end();
		j_obj_end();
		j_end();
	}
}

int cmd_sched(struct hnctl *o, int argc, char **argv)
{
	struct sched_args x = { 0 };
	struct hn_ctl_sched_result res;
	struct hn_ctl_route *r = NULL;
	int rc;

	rc = parse(&x, argc, argv);
	if (rc) {
		goto out;
	}
	if (o->dry_run) {
		print_request(&x, o->json);
		goto out;
	}
	r = calloc(x.n, sizeof(*r));
	if (!r) {
		fprintf(stderr, "hnctl: out of memory\n");
		rc = EXIT_KERNEL;
		goto out;
	}
	rc = hnctl_connect(o);
	if (rc)
		goto out;
	rc = hn_ctl_sched_run(o->ctl, &x.s, x.req, x.n, r, &res);
	if (rc < 0) {
		rc = hnctl_refused(o, "sched", rc);
		goto out;
	}
	print_result(&x, r, &res, o->json);
	/* as predict: nothing granted, every request refused */
	rc = res.granted || !x.n ? 0 : EXIT_REFUSED;
out:
	free(x.req);
	free(r);
	return rc;
}
