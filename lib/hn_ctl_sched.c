// SPDX-License-Identifier: GPL-2.0
/*
 * hn_ctl_sched.c - libhybridnet's control plane: HYBRIDNET_CMD_SCHED_RUN,
 * any scheduler of the engine (kmod/core/) run by the kernel on a request
 * set, with one route per request in the reply.
 *
 * As for the other requests, the topology, the scheduler's name and the
 * pairs go to the kernel as they are: it is the kernel that says what is
 * wrong with them (hn_ctl_errmsg()).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "hn_ctl_int.h"

/* bytes of one PAIR nest: header, SRC, DST */
#define PAIR_BYTES	(NLA_HDRLEN + 2 * nla_total_size(sizeof(uint32_t)))

struct sched_ctx {
	struct hn_ctl_route *r;
	size_t cap, n;
	struct hn_ctl_sched_result *res;
	int count;			/* COUNT was in the reply */
};

static int get_route(struct nlattr *nest, struct hn_ctl_route *r)
{
	struct nlattr *tb[HYBRIDNET_ATTR_MAX + 1], *a;

	if (nla_parse_nested(tb, HYBRIDNET_ATTR_MAX, nest, hn_ctl_policy) ||
	    !tb[HYBRIDNET_ATTR_SRC] || !tb[HYBRIDNET_ATTR_DST] ||
	    !tb[HYBRIDNET_ATTR_RESULT])
		return -EPROTO;
	memset(r, 0, sizeof(*r));
	r->src = nla_get_u32(tb[HYBRIDNET_ATTR_SRC]);
	r->dst = nla_get_u32(tb[HYBRIDNET_ATTR_DST]);
	r->result = nla_get_u32(tb[HYBRIDNET_ATTR_RESULT]);
	r->level = tb[HYBRIDNET_ATTR_LEVEL] ?
		   nla_get_u32(tb[HYBRIDNET_ATTR_LEVEL]) : HN_CTL_NO_LEVEL;
	a = tb[HYBRIDNET_ATTR_ROUTE];
	if (a) {
		if (nla_len(a) > HN_CTL_MAX_LEVELS)
			return -EPROTO;
		r->nports = (uint32_t)nla_len(a);
		memcpy(r->port, nla_data(a), r->nports);
	}
	return 0;
}

static int sched_reply(struct nlattr **tb, struct nlmsghdr *nlh, void *arg)
{
	struct genlmsghdr *gh = nlmsg_data(nlh);
	struct sched_ctx *x = arg;
	struct nlattr *a;
	int rem;

	if (tb[HYBRIDNET_ATTR_COUNT]) {
		x->res->granted = nla_get_u32(tb[HYBRIDNET_ATTR_COUNT]);
		x->count = 1;
	}
	if (tb[HYBRIDNET_ATTR_STATS]) {
		if (hn_ctl_get_stats(tb[HYBRIDNET_ATTR_STATS],
				     &x->res->stats))
			return -EPROTO;
		x->res->rounds = x->res->stats.v[HYBRIDNET_STAT_ROUNDS];
	}
	nla_for_each_attr(a, genlmsg_attrdata(gh, 0), genlmsg_attrlen(gh, 0),
			  rem) {
		if (nla_type(a) != HYBRIDNET_ATTR_GRANT)
			continue;
		if (x->n == x->cap)
			return -EPROTO;		/* more routes than requests */
		if (get_route(a, &x->r[x->n]))
			return -EPROTO;
		x->n++;
	}
	return 0;
}

int hn_ctl_sched_run(struct hn_ctl *c, const struct hn_ctl_sched *s,
		     const struct hn_ctl_pair *req, size_t n,
		     struct hn_ctl_route *out, struct hn_ctl_sched_result *res)
{
	struct sched_ctx x = { .r = out, .cap = n, .res = res };
	struct nl_msg *m;
	size_t i, size;
	int rc;

	c->err[0] = '\0';
	if (!s || !s->topology || !s->algo || !res || (n && (!req || !out)))
		return -EINVAL;
	memset(res, 0, sizeof(*res));
	size = nla_total_size(strlen(s->topology) + 1) +
	       nla_total_size(strlen(s->algo) + 1) +
	       2 * nla_total_size(sizeof(uint32_t)) +
	       nla_total_size(sizeof(uint64_t)) + n * PAIR_BYTES;
	m = hn_ctl_msg(c, HYBRIDNET_CMD_SCHED_RUN, size, 0);
	if (!m)
		return -ENOMEM;
	if (nla_put_string(m, HYBRIDNET_ATTR_TOPOLOGY, s->topology) ||
	    nla_put_string(m, HYBRIDNET_ATTR_ALGO, s->algo) ||
	    (s->kstep && nla_put_u32(m, HYBRIDNET_ATTR_KSTEP, s->kstep)) ||
	    (s->flags &&
	     nla_put_u32(m, HYBRIDNET_ATTR_SCHED_FLAGS, s->flags)) ||
	    (s->seed && nla_put_u64(m, HYBRIDNET_ATTR_SEED, s->seed)))
		goto full;
	for (i = 0; i < n; i++)
		if (hn_ctl_put_pair(m, req[i].src, req[i].dst))
			goto full;
	rc = hn_ctl_run(c, m, sched_reply, &x);
	if (rc)
		return rc;
	/* the kernel answers every request, in order, or refuses them all */
	if (!x.count || x.n != n) {
		snprintf(c->err, sizeof(c->err), "the kernel's reply has %zu "
			 "routes for %zu requests%s", x.n, n,
			 x.count ? "" : " and no count");
		return -EPROTO;
	}
	return (int)x.n;
full:
	nlmsg_free(m);
	return -EMSGSIZE;
}
