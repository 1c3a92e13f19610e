// SPDX-License-Identifier: GPL-2.0
/*
 * hn_ctl_stats.c - libhybridnet's control plane: HYBRIDNET_CMD_STATS_GET
 * (global and per slot; the dump: per node), HYBRIDNET_CMD_STATS_RESET
 * and the per-pair dump HYBRIDNET_CMD_PAIR_GET.
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

static int node_reply(struct nlattr **tb, struct nlmsghdr *nlh, void *arg)
{
	struct hn_ctl_node_stats *ns;

	(void)nlh;
	if (!tb[HYBRIDNET_ATTR_NODE] || !tb[HYBRIDNET_ATTR_STATS])
		return -EPROTO;
	ns = hn_ctl_dump_next(arg);
	if (!ns)
		return -ENOMEM;
	ns->node = nla_get_u32(tb[HYBRIDNET_ATTR_NODE]);
	if (hn_ctl_get_stats(tb[HYBRIDNET_ATTR_STATS], &ns->s))
		return -EPROTO;
	((struct hn_ctl_dump *)arg)->n++;
	return 0;
}

int hn_ctl_stats_dump(struct hn_ctl *c, uint32_t node,
		      struct hn_ctl_node_stats **out, size_t *n)
{
	const uint32_t sel[1][2] = { { HYBRIDNET_ATTR_NODE, node } };

	return hn_ctl_dump(c, HYBRIDNET_CMD_STATS_GET, sel, 1, node_reply,
			   sizeof(**out), (void **)out, n);
}

static int pair_reply(struct nlattr **tb, struct nlmsghdr *nlh, void *arg)
{
	static const unsigned int stat[3][2] = {
		{ HYBRIDNET_STAT_RX_MSGS_CIRCUIT,
		  HYBRIDNET_STAT_RX_MSGS_WORMHOLE },
		{ HYBRIDNET_STAT_RX_BYTES_CIRCUIT,
		  HYBRIDNET_STAT_RX_BYTES_WORMHOLE },
		{ HYBRIDNET_STAT_LAT_MEAN_CIRCUIT_NS,
		  HYBRIDNET_STAT_LAT_MEAN_WORMHOLE_NS },
	};
	struct hn_ctl_pair_stats *ps;
	struct hn_ctl_stats st;
	unsigned int i;

	(void)nlh;
	if (!tb[HYBRIDNET_ATTR_SRC] || !tb[HYBRIDNET_ATTR_DST] ||
	    !tb[HYBRIDNET_ATTR_STATS] ||
	    hn_ctl_get_stats(tb[HYBRIDNET_ATTR_STATS], &st))
		return -EPROTO;
	ps = hn_ctl_dump_next(arg);
	if (!ps)
		return -ENOMEM;
	memset(ps, 0, sizeof(*ps));
	ps->src = nla_get_u32(tb[HYBRIDNET_ATTR_SRC]);
	ps->dst = nla_get_u32(tb[HYBRIDNET_ATTR_DST]);
	if (tb[HYBRIDNET_ATTR_NOW])
		ps->now = nla_get_u64(tb[HYBRIDNET_ATTR_NOW]);
	for (i = 0; i < 2; i++) {
		ps->msgs[i] = st.v[stat[0][i]];
		ps->bytes[i] = st.v[stat[1][i]];
		ps->lat_mean_ns[i] = st.v[stat[2][i]];
	}
	((struct hn_ctl_dump *)arg)->n++;
	return 0;
}

int hn_ctl_pairs(struct hn_ctl *c, uint32_t src, uint32_t dst,
		 struct hn_ctl_pair_stats **out, size_t *n)
{
	const uint32_t sel[2][2] = {
		{ HYBRIDNET_ATTR_SRC, src }, { HYBRIDNET_ATTR_DST, dst },
	};

	return hn_ctl_dump(c, HYBRIDNET_CMD_PAIR_GET, sel, 2, pair_reply,
			   sizeof(**out), (void **)out, n);
}

int hn_ctl_stats_reset(struct hn_ctl *c)
{
	return hn_ctl_run(c, hn_ctl_msg(c, HYBRIDNET_CMD_STATS_RESET, 0, 0),
			  NULL, NULL);
}
