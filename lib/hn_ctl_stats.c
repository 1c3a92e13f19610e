// SPDX-License-Identifier: GPL-2.0
/*
 * hn_ctl_stats.c - libhybridnet's control plane: HYBRIDNET_CMD_STATS_GET
 * (global and per slot; the dump: per node) and HYBRIDNET_CMD_STATS_RESET.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "hn_ctl_int.h"

static int gstats_reply(struct nlattr **tb, struct nlmsghdr *nlh, void *arg)
{
	struct genlmsghdr *gh = nlmsg_data(nlh);
	struct hn_ctl_gstats *gs = arg;
	struct nlattr *a, *st[HYBRIDNET_ATTR_MAX + 1];
	int rem;

	if (tb[HYBRIDNET_ATTR_NOW])
		gs->now = nla_get_u64(tb[HYBRIDNET_ATTR_NOW]);
	if (tb[HYBRIDNET_ATTR_STATS] &&
	    hn_ctl_get_stats(tb[HYBRIDNET_ATTR_STATS], &gs->g))
		return -EPROTO;
	nla_for_each_attr(a, genlmsg_attrdata(gh, 0), genlmsg_attrlen(gh, 0),
			  rem) {
		struct hn_ctl_slot_stats *ss;

		if (nla_type(a) != HYBRIDNET_ATTR_SLOT_STATS)
			continue;
		if (gs->nslots == HYBRIDNET_MAX_SLOTS + 1)
			return -EPROTO;
		if (nla_parse_nested(st, HYBRIDNET_ATTR_MAX, a, hn_ctl_policy) ||
		    !st[HYBRIDNET_ATTR_SLOT] || !st[HYBRIDNET_ATTR_STATS])
			return -EPROTO;
		ss = &gs->slot[gs->nslots++];
		ss->slot = nla_get_u32(st[HYBRIDNET_ATTR_SLOT]);
		if (hn_ctl_get_stats(st[HYBRIDNET_ATTR_STATS], &ss->s))
			return -EPROTO;
	}
	return 0;
}

int hn_ctl_stats_get(struct hn_ctl *c, struct hn_ctl_gstats *gs)
{
	memset(gs, 0, sizeof(*gs));
	return hn_ctl_run(c, hn_ctl_msg(c, HYBRIDNET_CMD_STATS_GET, 0, 0),
			  gstats_reply, gs);
}

struct node_ctx {
	struct hn_ctl_node_stats *v;
	size_t n, cap;
};

static int node_reply(struct nlattr **tb, struct nlmsghdr *nlh, void *arg)
{
	struct node_ctx *x = arg;
	struct hn_ctl_node_stats *ns;

	(void)nlh;
	if (!tb[HYBRIDNET_ATTR_NODE] || !tb[HYBRIDNET_ATTR_STATS])
		return -EPROTO;
	if (x->n == x->cap) {
		size_t cap = x->cap ? 2 * x->cap : 64;

		ns = realloc(x->v, cap * sizeof(*ns));
		if (!ns)
			return -ENOMEM;
		x->v = ns;
		x->cap = cap;
	}
	ns = &x->v[x->n];
	ns->node = nla_get_u32(tb[HYBRIDNET_ATTR_NODE]);
	if (hn_ctl_get_stats(tb[HYBRIDNET_ATTR_STATS], &ns->s))
		return -EPROTO;
	x->n++;
	return 0;
}

int hn_ctl_stats_dump(struct hn_ctl *c, uint32_t node,
		      struct hn_ctl_node_stats **out, size_t *n)
{
	struct node_ctx x = { 0 };
	struct nl_msg *m;
	int rc;

	*out = NULL;
	*n = 0;
	m = hn_ctl_msg(c, HYBRIDNET_CMD_STATS_GET, 8, NLM_F_DUMP);
	if (m && node != HN_CTL_ALL_NODES &&
	    nla_put_u32(m, HYBRIDNET_ATTR_NODE, node)) {
		nlmsg_free(m);
		return -EMSGSIZE;
	}
	rc = hn_ctl_run(c, m, node_reply, &x);
	if (rc) {
		free(x.v);
		return rc;
	}
	*out = x.v;
	*n = x.n;
	return 0;
}

int hn_ctl_stats_reset(struct hn_ctl *c)
{
	return hn_ctl_run(c, hn_ctl_msg(c, HYBRIDNET_CMD_STATS_RESET, 0, 0),
			  NULL, NULL);
}
