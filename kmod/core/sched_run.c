// SPDX-License-Identifier: GPL-2.0
/*
 * sched_run.c - hn_sched_run(): run a named scheduler on a request set, for a
 * control plane (and for hnsim), so that kernel and user-space results can
 * be compared.  It builds the topology, schedules, checks the result and
 * frees everything again.
 */
#include "sched_int.h"

static const char * const hn_algo_names[HN_SCHED_NALGOS] = {
	[HN_SCHED_GREEDY]		= "greedy",
	[HN_SCHED_KSTEP]		= "kstep",
	[HN_SCHED_HOPCROFT_KARP]	= "hopcroft-karp",
	[HN_SCHED_LEVELWISE]		= "levelwise",
	[HN_SCHED_LOCAL_GREEDY]		= "local-greedy",
	[HN_SCHED_LOCAL_RANDOM]		= "local-random",
	[HN_SCHED_OPTIMAL]		= "optimal",
};

const char *hn_sched_algo_name(u32 algo)
{
	return algo < HN_SCHED_NALGOS ? hn_algo_names[algo] : NULL;
}

int hn_sched_algo_parse(const char *name)
{
	u32 i;

	if (!name)
		return -EINVAL;
	for (i = 0; i < HN_SCHED_NALGOS; i++)
		if (!strcmp(name, hn_algo_names[i]))
			return i;
	return -EINVAL;
}

static bool is_xbar_algo(u32 algo)
{
	return algo <= HN_SCHED_HOPCROFT_KARP;
}

int hn_sched_check_params(const struct hn_sched_params *p,
			  struct hn_err *err)
{
	if (!p)
		return hn_sched_err(err, -EINVAL, "no parameters", HN_NONE,
				    HN_NONE);
	if (p->algo >= HN_SCHED_NALGOS)
		return hn_sched_err(err, -EINVAL, "unknown scheduler", HN_NONE,
				    p->algo);
	switch (p->topology) {
	case HN_TOPO_CROSSBAR:
		if (!is_xbar_algo(p->algo))
			return hn_sched_err(err, -EINVAL,
					    "a crossbar takes greedy, kstep or hopcroft-karp",
					    HN_NONE, p->algo);
		if (p->nodes < 2 || p->nodes > HN_XBAR_MAX_NODES)
			return hn_sched_err(err, -EINVAL,
					    "crossbar size must be 2..4096",
					    p->nodes, HN_NONE);
		if (p->algo == HN_SCHED_KSTEP && !p->k)
			return hn_sched_err(err, -EINVAL,
					    "kstep needs K >= 1 (longest augmenting path)",
					    HN_NONE, p->k);
		if (p->flags)
			return hn_sched_err(err, -EINVAL,
					    "flags apply to fat trees only",
					    HN_NONE, p->flags);
		return 0;
	case HN_TOPO_FATTREE:
		if (is_xbar_algo(p->algo))
			return hn_sched_err(err, -EINVAL,
					    "a fat tree takes levelwise, local-greedy, local-random or optimal",
					    HN_NONE, p->algo);
		if (p->flags & ~HN_SCHED_ALL_FLAGS)
			return hn_sched_err(err, -EINVAL,
					    "unknown scheduler flags", HN_NONE,
					    p->flags);
		return 0;
	default:
		return hn_sched_err(err, -EINVAL,
				    "topology must be crossbar or fat tree",
				    HN_NONE, p->topology);
	}
}

static int run_xbar(const struct hn_sched_params *p, const struct hn_pair *req,
		    u32 nreq, struct hn_route *out, struct hn_sched_result *res,
		    struct hn_err *err)
{
	struct hn_xbar *x;
	u32 i, k;
	int rc;

	rc = hn_xbar_create(p->nodes, &x, err);
	if (rc)
		return rc;
	rc = hn_xbar_set_requests(x, req, nreq, err);
	if (rc)
		goto out;
	switch (p->algo) {
	case HN_SCHED_GREEDY:
		hn_xbar_greedy(x);
		break;
	case HN_SCHED_KSTEP:
		/* K = 2N - 1 is already exact (Sec. 6.2); larger K changes nothing */
		k = p->k < 2 * p->nodes - 1 ? p->k : 2 * p->nodes - 1;
		hn_xbar_greedy(x);
		hn_xbar_kstep(x, k, p->max_rounds, NULL, res);
		break;
	default:
		hn_xbar_hopcroft_karp(x, &res->steps);
	}
	rc = hn_xbar_check(x, err);
	if (rc)
		goto out;
	res->requests += nreq;
	for (i = 0; i < nreq; i++) {
		memset(&out[i], 0, sizeof(out[i]));
		out[i].src = req[i].src;
		out[i].dst = req[i].dst;
		out[i].fail = HN_FT_NOFAIL;
		if (hn_xbar_mate(x, req[i].src) == req[i].dst) {
			out[i].granted = 1;
			res->granted++;
		} else {
			out[i].fail = 0;
		}
	}
out:
	hn_xbar_destroy(x);
	return rc;
}

static int run_ft(const struct hn_sched_params *p, const struct hn_pair *req,
		  u32 nreq, struct hn_route *out, struct hn_sched_result *res,
		  struct hn_err *err)
{
	struct hn_ft *ft;
	u64 seed = p->seed;
	int rc;

	rc = hn_ft_create(p->levels, p->width, &ft, err);
	if (rc)
		return rc;
	rc = hn_ft_schedule(ft, p->algo, p->flags, &seed, req, nreq, out, res,
			    err);
	if (!rc)
		rc = hn_ft_check(ft, out, nreq,
				 !(p->flags & HN_SCHED_KEEP_ON_FAIL), err);
	hn_ft_destroy(ft);
	return rc;
}

int hn_sched_run(const struct hn_sched_params *p, const struct hn_pair *req,
		 u32 nreq, struct hn_route *out, struct hn_sched_result *res,
		 struct hn_err *err)
{
	int rc;

	rc = hn_sched_check_params(p, err);
	if (rc)
		return rc;
	if (!res)
		return hn_sched_err(err, -EINVAL, "no result", HN_NONE,
				    HN_NONE);
	if (nreq && (!req || !out))
		return hn_sched_err(err, -EINVAL,
				    "no request or result array", HN_NONE,
				    HN_NONE);
	memset(res, 0, sizeof(*res));
	if (p->topology == HN_TOPO_CROSSBAR)
		return run_xbar(p, req, nreq, out, res, err);
	return run_ft(p, req, nreq, out, res, err);
}
