// SPDX-License-Identifier: GPL-2.0
/*
 * nl_stats.c - HYBRIDNET_CMD_STATS_GET (global do, per-node dump),
 * HYBRIDNET_CMD_STATS_RESET and the per-pair dump HYBRIDNET_CMD_PAIR_GET.
 */
#include "hn_nl.h"

/* the attribute of each statistic of hn_lists.h */
static const u16 hn_gstat_attr[HN_GS_NR] = {
#define HN_GSTAT(file, stat, value) \
	[HN_GS_##file] = HYBRIDNET_STAT_##stat,
#include "hn_lists.h"
#undef HN_GSTAT
};

static const u16 hn_nstat_attr[HN_NS_NR] = {
#define HN_NSTAT(file, stat, value) \
	[HN_NS_##file] = HYBRIDNET_STAT_##stat,
#include "hn_lists.h"
#undef HN_NSTAT
};

/* @n values, each as its attribute of @attr */
static int hn_put_stats(struct sk_buff *skb, const u16 *attr, const u64 *v,
			unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (hn_nl_put64(skb, attr[i], v[i]))
			return -EMSGSIZE;
	return 0;
}

static int hn_put_global(struct sk_buff *skb, struct hn_dev *hd,
			 const struct hn_gstats *g)
{
	const u64 v[HN_GS_NR] = {
#define HN_GSTAT(file, stat, value) \
	[HN_GS_##file] = (value),
#include "hn_lists.h"
#undef HN_GSTAT
	};
	struct nlattr *nest, *sn;
	u32 s;

	if (nla_put_u64_64bit(skb, HYBRIDNET_ATTR_NOW, g->now,
			      HYBRIDNET_ATTR_PAD))
		return -EMSGSIZE;
	nest = nla_nest_start(skb, HYBRIDNET_ATTR_STATS);
	if (!nest || hn_put_stats(skb, hn_gstat_attr, v, HN_GS_NR))
		return -EMSGSIZE;
	nla_nest_end(skb, nest);
	for (s = 0; s < g->nslots; s++) {
		const struct hn_slot_stats *ss = &g->slot[s];

		sn = nla_nest_start(skb, HYBRIDNET_ATTR_SLOT_STATS);
		if (!sn || nla_put_u32(skb, HYBRIDNET_ATTR_SLOT, s))
			return -EMSGSIZE;
		nest = nla_nest_start(skb, HYBRIDNET_ATTR_STATS);
		if (!nest ||
		    hn_nl_put64(skb, HYBRIDNET_STAT_RUNS, ss->runs) ||
		    hn_nl_put64(skb, HYBRIDNET_STAT_TIME_NS, ss->time_ns) ||
		    hn_nl_put64(skb, HYBRIDNET_STAT_BYTES, ss->bytes) ||
		    hn_nl_put64(skb, HYBRIDNET_STAT_CAP_BYTES, ss->cap_bytes) ||
		    hn_nl_put64(skb, HYBRIDNET_STAT_SKIPPED, ss->skipped) ||
		    hn_nl_put64(skb, HYBRIDNET_STAT_PREEMPTED, ss->preempted))
			return -EMSGSIZE;
		nla_nest_end(skb, nest);
		nla_nest_end(skb, sn);
	}
	return 0;
}

static int hn_fill_global(struct sk_buff *msg, struct hn_dev *hd)
{
	int rc;

	mutex_lock(&hd->lock);
	rc = hn_put_global(msg, hd, hn_dev_gstats(hd));
	mutex_unlock(&hd->lock);
	return rc;
}

int hn_nl_stats_get(struct sk_buff *skb, struct genl_info *info)
{
	if (info->attrs[HYBRIDNET_ATTR_NODE]) {
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[HYBRIDNET_ATTR_NODE],
				    "per-node statistics come from the dump");
		return -EINVAL;
	}
	/* K + 1 slot nests do not fit a page */
	return hn_nl_reply(info, HYBRIDNET_CMD_STATS_GET, 16384,
			   hn_fill_global);
}

static int hn_put_node(struct sk_buff *skb, struct hn_dev *hd, u32 u)
{
	struct nlattr *nest;
	u64 v[HN_NS_NR];

	hn_dev_node_stats(hd, u, v);
	if (nla_put_u32(skb, HYBRIDNET_ATTR_NODE, u))
		return -EMSGSIZE;
	nest = nla_nest_start(skb, HYBRIDNET_ATTR_STATS);
	if (!nest || hn_put_stats(skb, hn_nstat_attr, v, HN_NS_NR))
		return -EMSGSIZE;
	nla_nest_end(skb, nest);
	return 0;
}

/* One message per node; cb->args[0] is the next node. */
int hn_nl_stats_dump(struct sk_buff *skb, struct netlink_callback *cb,
		     struct hn_dev *hd)
{
	const struct genl_dumpit_info *di = genl_dumpit_info(cb);
	const struct nlattr *only = di->attrs[HYBRIDNET_ATTR_NODE];
	u32 u = cb->args[0], end;
	void *hdr;

	mutex_lock(&hd->lock);
	end = hn_cfg(hd->e)->nodes;
	if (only) {
		if (nla_get_u32(only) >= end) {
			mutex_unlock(&hd->lock);
			/* a literal: the error is sent after we return */
			NL_SET_ERR_MSG_ATTR(cb->extack, only,
					    "node out of range");
			return -EINVAL;
		}
		if (!u)
			u = nla_get_u32(only);
		end = nla_get_u32(only) + 1;
	}
	for (; u < end; u++) {
		hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid,
				  cb->nlh->nlmsg_seq, &hn_nl_family,
				  NLM_F_MULTI, HYBRIDNET_CMD_STATS_GET);
		if (!hdr)
			break;
		if (hn_put_node(skb, hd, u)) {
			genlmsg_cancel(skb, hdr);
			break;
		}
		genlmsg_end(skb, hdr);
	}
	mutex_unlock(&hd->lock);
	cb->args[0] = u;
	return skb->len;
}

/* One pair of the engine's table: SRC, DST, NOW, its STATS by mode. */
static int hn_put_pair(struct sk_buff *skb, struct hn_dev *hd,
		       const struct hn_pair_stats *ps)
{
	const u32 c = HN_MODE_CIRCUIT, w = HN_MODE_WORMHOLE;
	struct nlattr *nest;

	if (nla_put_u32(skb, HYBRIDNET_ATTR_SRC, ps->src) ||
	    nla_put_u32(skb, HYBRIDNET_ATTR_DST, ps->dst) ||
	    nla_put_u64_64bit(skb, HYBRIDNET_ATTR_NOW, hn_now(hd->e),
			      HYBRIDNET_ATTR_PAD))
		return -EMSGSIZE;
	nest = nla_nest_start(skb, HYBRIDNET_ATTR_STATS);
	if (!nest ||
	    hn_nl_put64(skb, HYBRIDNET_STAT_RX_MSGS_CIRCUIT, ps->msgs[c]) ||
	    hn_nl_put64(skb, HYBRIDNET_STAT_RX_MSGS_WORMHOLE, ps->msgs[w]) ||
	    hn_nl_put64(skb, HYBRIDNET_STAT_RX_BYTES_CIRCUIT, ps->bytes[c]) ||
	    hn_nl_put64(skb, HYBRIDNET_STAT_RX_BYTES_WORMHOLE, ps->bytes[w]) ||
	    hn_nl_put64(skb, HYBRIDNET_STAT_LAT_MEAN_CIRCUIT_NS,
			hn_lat_mean(ps->lat_sum[c], ps->msgs[c])) ||
	    hn_nl_put64(skb, HYBRIDNET_STAT_LAT_MEAN_WORMHOLE_NS,
			hn_lat_mean(ps->lat_sum[w], ps->msgs[w])))
		return -EMSGSIZE;
	nla_nest_end(skb, nest);
	return 0;
}

/* A SRC or DST of the request, checked against the fabric: 0 or -EINVAL. */
static int hn_pair_sel(struct netlink_callback *cb, const struct nlattr *a,
		       u32 nodes, u32 *v)
{
	*v = HN_NONE;
	if (!a)
		return 0;
	if (nla_get_u32(a) >= nodes) {
		/* a literal: the error is sent after we return */
		NL_SET_ERR_MSG_ATTR(cb->extack, a,
				    "node out of range (config-get gives nodes)");
		return -EINVAL;
	}
	*v = nla_get_u32(a);
	return 0;
}

/*
 * One part of the PAIR_GET dump: cb->args[0] is the next pair of the
 * table.  The table only grows between resets, so a part goes on where
 * the last stopped; a reset or rebuild between parts flags the dump
 * NLM_F_DUMP_INTR.
 */
int hn_nl_pair_dump(struct sk_buff *skb, struct netlink_callback *cb,
		    struct hn_dev *hd)
{
	const struct genl_dumpit_info *di = genl_dumpit_info(cb);
	struct hn_pair_stats ps;
	u32 i = cb->args[0], src, dst, nodes;
	void *hdr;

	mutex_lock(&hd->lock);
	nodes = hn_cfg(hd->e)->nodes;
	if (hn_pair_sel(cb, di->attrs[HYBRIDNET_ATTR_SRC], nodes, &src) ||
	    hn_pair_sel(cb, di->attrs[HYBRIDNET_ATTR_DST], nodes, &dst)) {
		mutex_unlock(&hd->lock);
		return -EINVAL;
	}
	if (!i)
		hn_clock_sync(hd);
	cb->seq = hd->rebuilds + hd->resets + 1;	/* 0: no check */
	for (; !hn_pair_stats(hd->e, i, &ps); i++) {
		if ((src != HN_NONE && ps.src != src) ||
		    (dst != HN_NONE && ps.dst != dst))
			continue;
		hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid,
				  cb->nlh->nlmsg_seq, &hn_nl_family,
				  NLM_F_MULTI, HYBRIDNET_CMD_PAIR_GET);
		if (!hdr)
			break;
		genl_dump_check_consistent(cb, hdr);
		if (hn_put_pair(skb, hd, &ps)) {
			genlmsg_cancel(skb, hdr);
			break;
		}
		genlmsg_end(skb, hdr);
	}
	mutex_unlock(&hd->lock);
	cb->args[0] = i;
	return skb->len;
}

int hn_nl_stats_reset(struct sk_buff *skb, struct genl_info *info)
{
	struct hn_dev *hd = hn_nl_dev(info);
	struct sk_buff *ev;
	void *hdr;

	mutex_lock(&hd->lock);
	hn_dev_reset_stats(hd);
	mutex_unlock(&hd->lock);
	ev = hn_nl_event_new(hd, HYBRIDNET_EVENT_STATS_RESET, 0, &hdr);
	hn_nl_event_send(hd, ev, hdr);
	return 0;
}
