// SPDX-License-Identifier: GPL-2.0
/*
 * nl_links.c - the dumps HYBRIDNET_CMD_LINK_GET and
 * HYBRIDNET_CMD_SWITCH_GET: one message per link or switch of a fabric
 * with its statistics (hn_link_stats(), hn_switch_stats(); docs/model.md
 * "Statistics"), and a switch's own switching; the fabric's shape is
 * FABRIC_GET's (nl_fabric.c).  HYBRIDNET_CMD_SWITCH_SET sets that
 * switching (below).
 *
 * Each part of a dump runs under hd->lock, as the other dumps do, and
 * carries the virtual time its counters were read at.  A rebuild between
 * two parts changes hd->rebuilds, which flags the dump NLM_F_DUMP_INTR;
 * the next part stops at the new fabric's end.  A LINK or SWITCH in the
 * request restricts the dump to that one, as NODE does STATS_GET's.
 * Every fabric has them: the crossbar is one switch, switch 0, whose
 * port p is node p's link.
 *
 * SWITCH_SET sets a switch's own switching (hn_set_switch_flow();
 * docs/model.md "A switch's own switching") under hd->lock, which
 * SWITCH_GET gives back as SWITCHING; its event names the switch, so a
 * monitor reads it as the hnctl command that did it.
 */
#include "hn_nl.h"
#include "fab_name.h"

/* One channel of a link: its direction, its sender, its statistics. */
static int hn_put_channel(struct sk_buff *skb, const struct hn_link_stats *ls,
			  u32 d)
{
	const struct hn_chan_stats *c = &ls->ch[d];
	struct nlattr *ch, *st;

	ch = nla_nest_start(skb, HYBRIDNET_ATTR_CHANNEL);
	if (!ch || nla_put_u32(skb, HYBRIDNET_ATTR_DIR, d))
		return -EMSGSIZE;
	if (ls->sw[d] == HN_NONE) {
		if (nla_put_u32(skb, HYBRIDNET_ATTR_NODE, ls->port[d]))
			return -EMSGSIZE;
	} else if (nla_put_u32(skb, HYBRIDNET_ATTR_SWITCH, ls->sw[d]) ||
		   nla_put_u32(skb, HYBRIDNET_ATTR_PORT, ls->port[d])) {
		return -EMSGSIZE;
	}
	st = nla_nest_start(skb, HYBRIDNET_ATTR_STATS);
	if (!st ||
	    hn_nl_put64(skb, HYBRIDNET_STAT_BYTES, c->bytes) ||
	    hn_nl_put64(skb, HYBRIDNET_STAT_WORMS, c->worms) ||
	    hn_nl_put64(skb, HYBRIDNET_STAT_BUSY_NS, c->busy_ns) ||
	    hn_nl_put64(skb, HYBRIDNET_STAT_CREDIT_STALLS, c->credit_stalls) ||
	    hn_nl_put64(skb, HYBRIDNET_STAT_BUF_PEAK, c->buf_peak) ||
	    hn_nl_put64(skb, HYBRIDNET_STAT_BUF_BYTE_NS, c->buf_byte_ns) ||
	    hn_nl_put64(skb, HYBRIDNET_STAT_CIRCUIT_BYTES, c->circuit_bytes))
		return -EMSGSIZE;
	nla_nest_end(skb, st);
	nla_nest_end(skb, ch);
	return 0;
}

static int hn_put_link(struct sk_buff *skb, struct hn_dev *hd, u32 link)
{
	struct hn_link_stats ls;

	hn_link_stats(hd->e, link, &ls);
	if (nla_put_u32(skb, HYBRIDNET_ATTR_LINK, link) ||
	    nla_put_u8(skb, HYBRIDNET_ATTR_DOWN, ls.down) ||
	    nla_put_u8(skb, HYBRIDNET_ATTR_DEAD, ls.dead) ||
	    nla_put_u32(skb, HYBRIDNET_ATTR_LINK_CHANNELS_DOWN,
			hn_link_chans_down(hd->e, link)) ||
	    nla_put_u64_64bit(skb, HYBRIDNET_ATTR_NOW, hn_now(hd->e),
			      HYBRIDNET_ATTR_PAD) ||
	    hn_put_channel(skb, &ls, HN_UP) ||
	    hn_put_channel(skb, &ls, HN_DOWN))
		return -EMSGSIZE;
	return 0;
}

static int hn_put_switch(struct sk_buff *skb, struct hn_dev *hd, u32 sw)
{
	u32 flow = hn_switch_flow(hd->e, sw);	/* 0: the fabric's */
	struct hn_switch_stats ss;
	struct nlattr *st;

	hn_switch_stats(hd->e, sw, &ss);
	if (nla_put_u32(skb, HYBRIDNET_ATTR_SWITCH, sw) ||
	    nla_put_u32(skb, HYBRIDNET_ATTR_LEVEL, ss.level) ||
	    nla_put_u8(skb, HYBRIDNET_ATTR_DOWN, ss.down) ||
	    (flow && nla_put_u32(skb, HYBRIDNET_ATTR_SWITCHING, flow - 1)) ||
	    nla_put_u64_64bit(skb, HYBRIDNET_ATTR_NOW, hn_now(hd->e),
			      HYBRIDNET_ATTR_PAD))
		return -EMSGSIZE;
	st = nla_nest_start(skb, HYBRIDNET_ATTR_STATS);
	if (!st ||
	    hn_nl_put64(skb, HYBRIDNET_STAT_BYTES, ss.bytes) ||
	    hn_nl_put64(skb, HYBRIDNET_STAT_WORMS, ss.worms) ||
	    hn_nl_put64(skb, HYBRIDNET_STAT_BLOCKED_NS, ss.blocked_ns) ||
	    hn_nl_put64(skb, HYBRIDNET_STAT_CREDIT_STALLS, ss.credit_stalls) ||
	    hn_nl_put64(skb, HYBRIDNET_STAT_BUF_PEAK, ss.buf_peak) ||
	    hn_nl_put64(skb, HYBRIDNET_STAT_BUF_BYTE_NS, ss.buf_byte_ns) ||
	    hn_nl_put64(skb, HYBRIDNET_STAT_BUF_BYTES, ss.buf_bytes) ||
	    hn_nl_put64(skb, HYBRIDNET_STAT_HELD, ss.held) ||
	    hn_nl_put64(skb, HYBRIDNET_STAT_CIRCUIT_BYTES, ss.circuit_bytes))
		return -EMSGSIZE;
	nla_nest_end(skb, st);
	return 0;
}

/* What one of the two dumps walks. */
struct hn_fab_walk {
	u8 cmd;
	int attr;			/* the selector: LINK or SWITCH */
	int (*put)(struct sk_buff *skb, struct hn_dev *hd, u32 i);
};

static const struct hn_fab_walk hn_walk_links = {
	.cmd = HYBRIDNET_CMD_LINK_GET,
	.attr = HYBRIDNET_ATTR_LINK,
	.put = hn_put_link,
};

static const struct hn_fab_walk hn_walk_switches = {
	.cmd = HYBRIDNET_CMD_SWITCH_GET,
	.attr = HYBRIDNET_ATTR_SWITCH,
	.put = hn_put_switch,
};

/*
 * One part of a dump: cb->args[0] is the next link or switch; extack
 * messages are literals, sent after we return (nl_stats.c says why).
 */
static int hn_fab_dump(struct sk_buff *skb, struct netlink_callback *cb,
		       struct hn_dev *hd, const struct hn_fab_walk *w)
{
	const struct genl_dumpit_info *di = genl_dumpit_info(cb);
	const struct nlattr *only = di->attrs[w->attr];
	struct hn_fabric_info fi;
	u32 i = cb->args[0], end;
	void *hdr;

	mutex_lock(&hd->lock);
	hn_fabric_info(hd->e, &fi);
	end = w->cmd == HYBRIDNET_CMD_LINK_GET ? fi.links : fi.switches;
	cb->seq = hd->rebuilds + 1;	/* 0 would mean no check */
	if (only) {
		if (nla_get_u32(only) >= end) {
			mutex_unlock(&hd->lock);
			if (w->attr == HYBRIDNET_ATTR_LINK)
				NL_SET_ERR_MSG_ATTR(cb->extack, only,
						    "link out of range (fabric-get gives links)");
			else
				NL_SET_ERR_MSG_ATTR(cb->extack, only,
						    "switch out of range (fabric-get gives switches)");
			return -EINVAL;
		}
		if (!i)
			i = nla_get_u32(only);
		end = nla_get_u32(only) + 1;
	}
	for (; i < end; i++) {
		hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid,
				  cb->nlh->nlmsg_seq, &hn_nl_family,
				  NLM_F_MULTI, w->cmd);
		if (!hdr)
			break;
		genl_dump_check_consistent(cb, hdr);
		if (w->put(skb, hd, i)) {
			genlmsg_cancel(skb, hdr);
			break;
		}
		genlmsg_end(skb, hdr);
	}
	mutex_unlock(&hd->lock);
	cb->args[0] = i;
	return skb->len;
}

int hn_nl_link_dump(struct sk_buff *skb, struct netlink_callback *cb,
		    struct hn_dev *hd)
{
	return hn_fab_dump(skb, cb, hd, &hn_walk_links);
}

int hn_nl_switch_dump(struct sk_buff *skb, struct netlink_callback *cb,
		      struct hn_dev *hd)
{
	return hn_fab_dump(skb, cb, hd, &hn_walk_switches);
}

/*
 * The event: the SWITCH, its NAME and its SWITCHING, none when it is the
 * fabric's again (@flow 0), as a monitor prints it ("switching switch
 * sw1.0 saf").
 */
static void hn_switching_event(struct hn_dev *hd, u32 sw, u32 flow,
			       const char *name)
{
	struct sk_buff *skb;
	void *hdr;

	skb = hn_nl_event_new(hd, HYBRIDNET_EVENT_SWITCHING, 0, &hdr);
	if (!skb)
		return;
	if (nla_put_u32(skb, HYBRIDNET_ATTR_SWITCH, sw) ||
	    nla_put_string(skb, HYBRIDNET_ATTR_NAME, name) ||
	    (flow && nla_put_u32(skb, HYBRIDNET_ATTR_SWITCHING, flow - 1))) {
		nlmsg_free(skb);
		return;
	}
	hn_nl_event_send(hd, skb, hdr);
}

/*
 * SWITCH_SET: switch SWITCH switches by SWITCHING (enum
 * hybridnet_switching, HN_SWITCH_*'s numbers), or by the fabric's when
 * SWITCHING is absent; the engine says why it refuses.
 */
int hn_nl_switch_set(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr **tb = info->attrs;
	struct hn_dev *hd = hn_nl_dev(info);
	char name[HN_FAB_NAME_LEN] = "";
	struct hn_err err = { };
	u32 sw, flow = 0;
	int rc;

	if (GENL_REQ_ATTR_CHECK(info, HYBRIDNET_ATTR_SWITCH))
		return -EINVAL;
	sw = nla_get_u32(tb[HYBRIDNET_ATTR_SWITCH]);
	if (tb[HYBRIDNET_ATTR_SWITCHING])
		flow = 1 + nla_get_u32(tb[HYBRIDNET_ATTR_SWITCHING]);
	mutex_lock(&hd->lock);
	rc = hn_set_switch_flow(hd->e, sw, flow, &err);
	if (!rc && hn_fault_name(hd->e, true, sw, name, sizeof(name)))
		name[0] = 0;
	mutex_unlock(&hd->lock);
	if (rc)
		return hn_nl_core_err(info, rc, &err, "switching refused");
	hn_switching_event(hd, sw, flow, name);
	return 0;
}
