// SPDX-License-Identifier: GPL-2.0
/*
 * nl_fabric.c - the fabrics through netlink (fabrics.c makes and deletes
 * them): HYBRIDNET_CMD_FABRIC_NEW, _DEL and _GET.
 *
 * NEW makes a fabric in the caller's network namespace, configured as
 * CONFIG_SET configures one (hn_nl_parse_config(): the attributes not
 * given are the profile's, ding4's by default), and replies with what
 * GET gives of it, FABRIC its number first.  DEL deletes the fabric
 * FABRIC, refused with EBUSY while a file or an interface holds one of
 * its nodes (the extack names it).  GET describes a fabric: FABRIC,
 * TOPOLOGY, the shape (LEVELS, WIDTH, NODES, SWITCHES, RADIX, LINKS,
 * MAX_HOPS), SLOTS, NOW and, once it has deadlocked, DEADLOCK (the time
 * and cycle of channels hn_deadlock() gives); its dump describes every
 * fabric of the caller's namespace, by number (FABRIC restricts it to
 * that one), a part resuming at the number after the last it gave.
 *
 * Events HYBRIDNET_EVENT_FABRIC_NEW (with GET's attributes) and
 * _FABRIC_DEL (FABRIC) go to the fabric's namespace, as every event does.
 * The end of a namespace deletes its fabrics without an event: nobody is
 * left there to hear it.
 */
#include <net/sock.h>

#include "hn_nl.h"

/* The DEADLOCK nest of @d: its times and its cycle's first channels. */
static int hn_put_deadlock(struct sk_buff *msg, const struct hn_deadlock *d)
{
	struct nlattr *dl, *ch;
	u32 i;

	dl = nla_nest_start(msg, HYBRIDNET_ATTR_DEADLOCK);
	if (!dl ||
	    nla_put_u64_64bit(msg, HYBRIDNET_ATTR_DEADLOCK_AT, d->at,
			      HYBRIDNET_ATTR_PAD) ||
	    nla_put_u64_64bit(msg, HYBRIDNET_ATTR_DEADLOCK_SINCE, d->since,
			      HYBRIDNET_ATTR_PAD))
		return -EMSGSIZE;
	for (i = 0; i < d->n && i < HN_DL_MAX; i++) {
		ch = nla_nest_start(msg, HYBRIDNET_ATTR_CHANNEL);
		if (!ch ||
		    nla_put_u32(msg, HYBRIDNET_ATTR_SWITCH, d->ch[i].sw) ||
		    nla_put_u32(msg, HYBRIDNET_ATTR_PORT, d->ch[i].port) ||
		    nla_put_u32(msg, HYBRIDNET_ATTR_LINK, d->ch[i].link) ||
		    (d->ch[i].vc != HN_NONE &&
		     nla_put_u32(msg, HYBRIDNET_ATTR_VC, d->ch[i].vc)))
			return -EMSGSIZE;
		nla_nest_end(msg, ch);
	}
	nla_nest_end(msg, dl);
	return 0;
}

/*
 * What GET gives of @hd; takes hd->lock.  -ENOMEM only for a deadlocked
 * fabric (a new one never is), -EMSGSIZE when @msg is full.
 */
static int hn_fill_fabric(struct sk_buff *msg, struct hn_dev *hd)
{
	const struct hn_cfg_text *t = &hn_cfg_fields[HN_CFG_topology].text;
	char text[HN_TEXT_MAX + 1];
	struct hn_deadlock *d = NULL;
	struct hn_fabric_info fi;
	int rc = 0;
	u64 now;
	u32 k;

	mutex_lock(&hd->lock);
	hn_fabric_info(hd->e, &fi);
	t->print(hn_cfg(hd->e), text, sizeof(text));
	k = hn_cfg(hd->e)->k;
	now = hn_now(hd->e);
	if (!hn_deadlock(hd->e, NULL)) {
		d = kmalloc(sizeof(*d), GFP_KERNEL);
		if (d)
			hn_deadlock(hd->e, d);
		else
			rc = -ENOMEM;
	}
	mutex_unlock(&hd->lock);
	if (rc)
		return rc;
	rc = -EMSGSIZE;
	if (nla_put_u32(msg, HYBRIDNET_ATTR_FABRIC, hd->id) ||
	    nla_put_string(msg, HYBRIDNET_ATTR_TOPOLOGY, text) ||
	    nla_put_u32(msg, HYBRIDNET_ATTR_LEVELS, fi.levels) ||
	    nla_put_u32(msg, HYBRIDNET_ATTR_WIDTH, fi.width) ||
	    nla_put_u32(msg, HYBRIDNET_ATTR_NODES, fi.nodes) ||
	    nla_put_u32(msg, HYBRIDNET_ATTR_SLOTS, k) ||
	    nla_put_u32(msg, HYBRIDNET_ATTR_SWITCHES, fi.switches) ||
	    nla_put_u32(msg, HYBRIDNET_ATTR_RADIX, fi.radix) ||
	    nla_put_u32(msg, HYBRIDNET_ATTR_LINKS, fi.links) ||
	    nla_put_u32(msg, HYBRIDNET_ATTR_MAX_HOPS, fi.max_hops) ||
	    nla_put_u32(msg, HYBRIDNET_ATTR_LINKS_DOWN, fi.links_down) ||
	    nla_put_u32(msg, HYBRIDNET_ATTR_SWITCHES_DOWN, fi.switches_down) ||
	    nla_put_u32(msg, HYBRIDNET_ATTR_CHANNELS_DOWN, fi.channels_down) ||
	    nla_put_u64_64bit(msg, HYBRIDNET_ATTR_NOW, now, HYBRIDNET_ATTR_PAD))
		goto out;
	rc = d ? hn_put_deadlock(msg, d) : 0;
out:
	kfree(d);
	return rc;
}

int hn_nl_fabric_get(struct sk_buff *skb, struct genl_info *info)
{
	return hn_nl_reply(info, HYBRIDNET_CMD_FABRIC_GET, NLMSG_GOODSIZE,
			   hn_fill_fabric);
}

/*
 * One part of the dump: cb->args[0] is the number to go on from;
 * cb->args[1] says that a dump of one fabric (FABRIC) has given it.
 * Extack messages are literals, sent after we return.
 */
int hn_nl_fabric_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	const struct genl_dumpit_info *di = genl_dumpit_info(cb);
	const struct nlattr *only = di->attrs[HYBRIDNET_ATTR_FABRIC];
	struct net *net = sock_net(cb->skb->sk);
	u32 id = cb->args[0];
	struct hn_dev *hd;
	void *hdr;
	int rc;

	if (only && cb->args[1])
		return 0;
	if (only)
		id = nla_get_u32(only);
	while ((hd = hn_fabric_next(net, id))) {
		if (only && hd->id != id) {
			hn_fabric_put(hd);
			NL_SET_ERR_MSG_ATTR(cb->extack, only,
					    "no such fabric in this network namespace");
			return -ENODEV;
		}
		hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid,
				  cb->nlh->nlmsg_seq, &hn_nl_family,
				  NLM_F_MULTI, HYBRIDNET_CMD_FABRIC_GET);
		rc = hdr ? hn_fill_fabric(skb, hd) : -EMSGSIZE;
		if (rc) {
			if (hdr)
				genlmsg_cancel(skb, hdr);
			hn_fabric_put(hd);
			if (rc != -EMSGSIZE)
				return rc;
			break;
		}
		genlmsg_end(skb, hdr);
		id = hd->id + 1;
		hn_fabric_put(hd);
		if (only) {
			cb->args[1] = 1;
			break;
		}
	}
	if (only && !hd && !cb->args[1]) {
		NL_SET_ERR_MSG_ATTR(cb->extack, only,
				    "no such fabric in this network namespace");
		return -ENODEV;
	}
	cb->args[0] = id;
	return skb->len;
}

int hn_nl_fabric_new(struct sk_buff *skb, struct genl_info *info)
{
	struct hn_fabric_cfg fc;
	struct sk_buff *msg, *ev;
	void *hdr, *ev_hdr;
	struct hn_dev *hd;
	const char *why;
	bool rebuild;
	int rc;

	hn_fabric_cfg_default(&fc);
	rc = hn_nl_parse_config(info, &fc, &rebuild);
	if (rc)
		return rc;
	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	hdr = genlmsg_put_reply(msg, info, &hn_nl_family, 0,
				HYBRIDNET_CMD_FABRIC_NEW);
	if (!hdr) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	hd = hn_fabric_new(genl_info_net(info), &fc, &why);
	if (IS_ERR(hd)) {
		nlmsg_free(msg);
		hn_nl_errf(info, NULL, "cannot make the fabric: %s", why);
		return PTR_ERR(hd);
	}
	/* a page holds it: the reply is never lost once the fabric is made */
	hn_fill_fabric(msg, hd);
	genlmsg_end(msg, hdr);
	ev = hn_nl_event_new(hd, HYBRIDNET_EVENT_FABRIC_NEW, 0, &ev_hdr);
	if (ev && hn_fill_fabric(ev, hd)) {
		nlmsg_free(ev);
		ev = NULL;
	}
	hn_nl_event_send(hd, ev, ev_hdr);
	hn_fabric_put(hd);
	return genlmsg_reply(msg, info);
}

/* hd->nl_lock held (netlink.c): FABRIC_DEL is a change of the fabric's. */
int hn_nl_fabric_del(struct sk_buff *skb, struct genl_info *info)
{
	struct hn_dev *hd = hn_nl_dev(info);
	struct sk_buff *ev;
	char why[160];
	void *hdr;
	int rc;

	/* made while the fabric is alive, sent once it is gone */
	ev = hn_nl_event_new(hd, HYBRIDNET_EVENT_FABRIC_DEL, 0, &hdr);
	rc = hn_fabric_del(hd, why, sizeof(why));
	if (rc) {
		nlmsg_free(ev);
		if (rc == -EBUSY)
			hn_nl_errf(info, info->attrs[HYBRIDNET_ATTR_FABRIC],
				   "cannot delete fabric %u: %s", hd->id, why);
		return rc;
	}
	hn_nl_event_send(hd, ev, hdr);
	return 0;
}
