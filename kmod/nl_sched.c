// SPDX-License-Identifier: GPL-2.0
/*
 * nl_sched.c - HYBRIDNET_CMD_SCHED_RUN: run any scheduler of kmod/core on
 * a request set given by the user and reply with one grant per request,
 * so that kernel and user-space results (hnsim sched, the same code) can
 * be compared.  The computation touches no engine state and runs without
 * hd->lock; the request count is checked before anything is allocated.
 */
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/slab.h>

#include "hn_nl.h"
#include "hn_sched.h"

/* "crossbar:N" or "fattree:L,W" */
static int hn_parse_topology(const char *s, struct hn_sched_params *p)
{
	char buf[32], *comma;

	strscpy(buf, s, sizeof(buf));
	if (str_has_prefix(buf, "crossbar:")) {
		p->topology = HN_TOPO_CROSSBAR;
		return kstrtou32(buf + 9, 10, &p->nodes);
	}
	if (!str_has_prefix(buf, "fattree:"))
		return -EINVAL;
	comma = strchr(buf + 8, ',');
	if (!comma)
		return -EINVAL;
	*comma = 0;
	p->topology = HN_TOPO_FATTREE;
	if (kstrtou32(buf + 8, 10, &p->levels) ||
	    kstrtou32(comma + 1, 10, &p->width))
		return -EINVAL;
	p->nodes = 0;
	return 0;
}

static int hn_put_route(struct sk_buff *msg, const struct hn_route *r,
			bool fattree)
{
	struct nlattr *nest = nla_nest_start(msg, HYBRIDNET_ATTR_GRANT);

	if (!nest ||
	    nla_put_u32(msg, HYBRIDNET_ATTR_SRC, r->src) ||
	    nla_put_u32(msg, HYBRIDNET_ATTR_DST, r->dst) ||
	    nla_put_u32(msg, HYBRIDNET_ATTR_RESULT, r->granted ?
			HYBRIDNET_GRANT_GRANTED : HYBRIDNET_GRANT_REFUSED))
		return -EMSGSIZE;
	if (fattree && r->granted &&
	    (nla_put_u32(msg, HYBRIDNET_ATTR_LEVEL, r->level) ||
	     nla_put(msg, HYBRIDNET_ATTR_ROUTE, r->nports, r->port)))
		return -EMSGSIZE;
	nla_nest_end(msg, nest);
	return 0;
}

int hn_nl_sched_run(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr **tb = info->attrs;
	struct hn_sched_params p = { };
	struct hn_sched_result res = { };
	struct hn_route *routes = NULL;
	struct hn_pair *req = NULL;
	struct sk_buff *msg = NULL;
	struct hn_err err = { };
	struct nlattr *st;
	u32 n, i;
	void *hdr;
	int rc, algo;

	if (GENL_REQ_ATTR_CHECK(info, HYBRIDNET_ATTR_TOPOLOGY) ||
	    GENL_REQ_ATTR_CHECK(info, HYBRIDNET_ATTR_ALGO))
		return -EINVAL;
	if (hn_parse_topology(nla_data(tb[HYBRIDNET_ATTR_TOPOLOGY]), &p)) {
		hn_nl_errf(info, tb[HYBRIDNET_ATTR_TOPOLOGY],
			   "topology '%s': want crossbar:N or fattree:L,W",
			   (const char *)nla_data(tb[HYBRIDNET_ATTR_TOPOLOGY]));
		return -EINVAL;
	}
	algo = hn_sched_algo_parse(nla_data(tb[HYBRIDNET_ATTR_ALGO]));
	if (algo < 0) {
		hn_nl_errf(info, tb[HYBRIDNET_ATTR_ALGO],
			   "unknown scheduler '%s'",
			   (const char *)nla_data(tb[HYBRIDNET_ATTR_ALGO]));
		return -EINVAL;
	}
	p.algo = algo;
	p.k = tb[HYBRIDNET_ATTR_KSTEP] ?
	      nla_get_u32(tb[HYBRIDNET_ATTR_KSTEP]) : 9;
	if (tb[HYBRIDNET_ATTR_SCHED_FLAGS])
		p.flags = nla_get_u32(tb[HYBRIDNET_ATTR_SCHED_FLAGS]);
	if (tb[HYBRIDNET_ATTR_SEED])
		p.seed = nla_get_u64(tb[HYBRIDNET_ATTR_SEED]);

	req = hn_nl_pairs(info, HYBRIDNET_MAX_NODES, &n, &rc);
	if (!req)
		return rc;
	routes = kvcalloc(n, sizeof(*routes), GFP_KERNEL);
	msg = genlmsg_new((size_t)n * 64 + 256, GFP_KERNEL);
	rc = -ENOMEM;
	if (!routes || !msg)
		goto out;
	rc = hn_sched_run(&p, req, n, routes, &res, &err);
	if (rc) {
		hn_nl_core_err(info, rc, &err, "scheduler refused");
		goto out;
	}
	hdr = genlmsg_put_reply(msg, info, &hn_nl_family, 0,
				HYBRIDNET_CMD_SCHED_RUN);
	rc = -EMSGSIZE;
	if (!hdr || nla_put_u32(msg, HYBRIDNET_ATTR_COUNT, res.granted))
		goto out;
	st = nla_nest_start(msg, HYBRIDNET_ATTR_STATS);
	if (!st || nla_put_u64_64bit(msg, HYBRIDNET_STAT_ROUNDS, res.rounds,
				     HYBRIDNET_STAT_PAD))
		goto out;
	nla_nest_end(msg, st);
	for (i = 0; i < n; i++)
		if (hn_put_route(msg, &routes[i],
				 p.topology == HN_TOPO_FATTREE))
			goto out;
	genlmsg_end(msg, hdr);
	rc = genlmsg_reply(msg, info);
	msg = NULL;
out:
	nlmsg_free(msg);
	kvfree(req);
	kvfree(routes);
	return rc;
}
