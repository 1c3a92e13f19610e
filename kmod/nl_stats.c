// SPDX-License-Identifier: GPL-2.0
/*
 * nl_stats.c - HYBRIDNET_CMD_STATS_GET (global do, per-node dump) and
 * HYBRIDNET_CMD_STATS_RESET.
 */
#include "hn_nl.h"

static int hn_put64(struct sk_buff *skb, int type, u64 v)
{
	return nla_put_u64_64bit(skb, type, v, HYBRIDNET_STAT_PAD);
}

static u64 hn_lat_min(u64 v)
{
	return v == HN_U64_MAX ? 0 : v;
}

static int hn_put_global(struct sk_buff *skb, struct hn_dev *hd,
			 const struct hn_gstats *g)
{
	u64 n = g->rx_msgs[0] + g->rx_msgs[1];
	struct nlattr *nest, *sn;
	u32 s;

	if (nla_put_u64_64bit(skb, HYBRIDNET_ATTR_NOW, g->now,
			      HYBRIDNET_ATTR_PAD))
		return -EMSGSIZE;
	nest = nla_nest_start(skb, HYBRIDNET_ATTR_STATS);
	if (!nest ||
	    hn_put64(skb, HYBRIDNET_STAT_TX_CIRCUIT_MSGS, g->tx_msgs[0]) ||
	    hn_put64(skb, HYBRIDNET_STAT_TX_WORMHOLE_MSGS, g->tx_msgs[1]) ||
	    hn_put64(skb, HYBRIDNET_STAT_TX_CIRCUIT_BYTES, g->tx_bytes[0]) ||
	    hn_put64(skb, HYBRIDNET_STAT_TX_WORMHOLE_BYTES, g->tx_bytes[1]) ||
	    hn_put64(skb, HYBRIDNET_STAT_RX_CIRCUIT_MSGS, g->rx_msgs[0]) ||
	    hn_put64(skb, HYBRIDNET_STAT_RX_WORMHOLE_MSGS, g->rx_msgs[1]) ||
	    hn_put64(skb, HYBRIDNET_STAT_RX_CIRCUIT_BYTES, g->rx_bytes[0]) ||
	    hn_put64(skb, HYBRIDNET_STAT_RX_WORMHOLE_BYTES, g->rx_bytes[1]) ||
	    hn_put64(skb, HYBRIDNET_STAT_IN_FLIGHT_MSGS, g->in_flight_msgs) ||
	    hn_put64(skb, HYBRIDNET_STAT_IN_FLIGHT_BYTES, g->in_flight_bytes) ||
	    hn_put64(skb, HYBRIDNET_STAT_TX_FULL, g->tx_full) ||
	    hn_put64(skb, HYBRIDNET_STAT_RETAGGED, g->retagged) ||
	    hn_put64(skb, HYBRIDNET_STAT_LAT_MIN_NS, hn_lat_min(g->lat_min)) ||
	    hn_put64(skb, HYBRIDNET_STAT_LAT_MEAN_NS,
		     n ? div64_u64(g->lat_sum, n) : 0) ||
	    hn_put64(skb, HYBRIDNET_STAT_LAT_MAX_NS, g->lat_max) ||
	    hn_put64(skb, HYBRIDNET_STAT_LAT_P50_NS,
		     hn_hist_percentile(g->hist, 500)) ||
	    hn_put64(skb, HYBRIDNET_STAT_LAT_P99_NS,
		     hn_hist_percentile(g->hist, 990)) ||
	    hn_put64(skb, HYBRIDNET_STAT_UTIL_PPM, g->util_ppm) ||
	    hn_put64(skb, HYBRIDNET_STAT_CYCLES, g->cycles) ||
	    hn_put64(skb, HYBRIDNET_STAT_IDLE_NS, g->idle_ns) ||
	    hn_put64(skb, HYBRIDNET_STAT_GRANTS, g->grants) ||
	    hn_put64(skb, HYBRIDNET_STAT_EXISTS, g->exists) ||
	    hn_put64(skb, HYBRIDNET_STAT_REFUSALS, g->refusals) ||
	    hn_put64(skb, HYBRIDNET_STAT_RELEASES, g->releases) ||
	    hn_put64(skb, HYBRIDNET_STAT_TIMEOUTS, g->timeouts) ||
	    hn_put64(skb, HYBRIDNET_STAT_PRELOADS, g->preloads) ||
	    hn_put64(skb, HYBRIDNET_STAT_RX_DROPPED, hd->rx_dropped))
		return -EMSGSIZE;
	nla_nest_end(skb, nest);
	for (s = 0; s < g->nslots; s++) {
		const struct hn_slot_stats *ss = &g->slot[s];

		sn = nla_nest_start(skb, HYBRIDNET_ATTR_SLOT_STATS);
		if (!sn || nla_put_u32(skb, HYBRIDNET_ATTR_SLOT, s))
			return -EMSGSIZE;
		nest = nla_nest_start(skb, HYBRIDNET_ATTR_STATS);
		if (!nest ||
		    hn_put64(skb, HYBRIDNET_STAT_RUNS, ss->runs) ||
		    hn_put64(skb, HYBRIDNET_STAT_TIME_NS, ss->time_ns) ||
		    hn_put64(skb, HYBRIDNET_STAT_BYTES, ss->bytes) ||
		    hn_put64(skb, HYBRIDNET_STAT_CAP_BYTES, ss->cap_bytes) ||
		    hn_put64(skb, HYBRIDNET_STAT_SKIPPED, ss->skipped) ||
		    hn_put64(skb, HYBRIDNET_STAT_PREEMPTED, ss->preempted))
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
	hn_stats_global(hd->e, hd->gs);
	rc = hn_put_global(msg, hd, hd->gs);
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
	struct hn_nstats st;
	struct nlattr *nest;
	u64 n;

	hn_stats_node(hd->e, u, &st);
	n = st.rx_msgs[0] + st.rx_msgs[1];
	if (nla_put_u32(skb, HYBRIDNET_ATTR_NODE, u))
		return -EMSGSIZE;
	nest = nla_nest_start(skb, HYBRIDNET_ATTR_STATS);
	if (!nest ||
	    hn_put64(skb, HYBRIDNET_STAT_TX_CIRCUIT_MSGS, st.tx_msgs[0]) ||
	    hn_put64(skb, HYBRIDNET_STAT_TX_WORMHOLE_MSGS, st.tx_msgs[1]) ||
	    hn_put64(skb, HYBRIDNET_STAT_TX_CIRCUIT_BYTES, st.tx_bytes[0]) ||
	    hn_put64(skb, HYBRIDNET_STAT_TX_WORMHOLE_BYTES, st.tx_bytes[1]) ||
	    hn_put64(skb, HYBRIDNET_STAT_RX_CIRCUIT_MSGS, st.rx_msgs[0]) ||
	    hn_put64(skb, HYBRIDNET_STAT_RX_WORMHOLE_MSGS, st.rx_msgs[1]) ||
	    hn_put64(skb, HYBRIDNET_STAT_RX_CIRCUIT_BYTES, st.rx_bytes[0]) ||
	    hn_put64(skb, HYBRIDNET_STAT_RX_WORMHOLE_BYTES, st.rx_bytes[1]) ||
	    hn_put64(skb, HYBRIDNET_STAT_TX_DONE, st.tx_done) ||
	    hn_put64(skb, HYBRIDNET_STAT_TX_FULL, st.tx_full) ||
	    hn_put64(skb, HYBRIDNET_STAT_LAT_MIN_NS, hn_lat_min(st.lat_min)) ||
	    hn_put64(skb, HYBRIDNET_STAT_LAT_MEAN_NS,
		     n ? div64_u64(st.lat_sum, n) : 0) ||
	    hn_put64(skb, HYBRIDNET_STAT_LAT_MAX_NS, st.lat_max) ||
	    hn_put64(skb, HYBRIDNET_STAT_RX_DROPPED, hd->ports[u].rx_dropped))
		return -EMSGSIZE;
	nla_nest_end(skb, nest);
	return 0;
}

/* One message per node; cb->args[0] is the next node. */
int hn_nl_stats_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	const struct genl_dumpit_info *di = genl_dumpit_info(cb);
	const struct nlattr *only = di->attrs[HYBRIDNET_ATTR_NODE];
	struct hn_dev *hd = hn_nl_hd;
	u32 u = cb->args[0], end;
	void *hdr;

	mutex_lock(&hd->lock);
	end = hn_cfg(hd->e)->nodes;
	if (only) {
		if (nla_get_u32(only) >= end) {
			mutex_unlock(&hd->lock);
			/* a literal: the error is sent after genl_mutex */
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

int hn_nl_stats_reset(struct sk_buff *skb, struct genl_info *info)
{
	struct hn_dev *hd = hn_nl_hd;
	struct sk_buff *ev;
	void *hdr;

	mutex_lock(&hd->lock);
	hn_dev_reset_stats(hd);
	mutex_unlock(&hd->lock);
	ev = hn_nl_event_new(HYBRIDNET_EVENT_STATS_RESET, 0, &hdr);
	hn_nl_event_send(ev, hdr);
	return 0;
}
