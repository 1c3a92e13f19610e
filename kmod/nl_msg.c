// SPDX-License-Identifier: GPL-2.0
/*
 * nl_msg.c - the messages of the generic netlink family "hybridnet" that
 * every command uses: extack text naming the node, slot or pair at fault
 * (in the request's own buffer, see netlink.c), engine refusals as text,
 * request pairs parsed against the node count, single-message replies and
 * events on the "events" multicast group.
 */
#include <linux/kernel.h>
#include <linux/mm.h>

#include "hn_nl.h"

void hn_nl_errf(struct genl_info *info, const struct nlattr *attr,
		const char *fmt, ...)
{
	struct hn_nl_req *req = info->user_ptr[0];
	va_list ap;

	va_start(ap, fmt);
	vscnprintf(req->msg, sizeof(req->msg), fmt, ap);
	va_end(ap);
	info->extack->_msg = req->msg;
	if (attr)
		info->extack->bad_attr = attr;
}

/* Turn an engine refusal into an extack message; returns @rc. */
int hn_nl_core_err(struct genl_info *info, int rc,
		   const struct hn_err *err, const char *what)
{
	struct hn_nl_req *req = info->user_ptr[0];

	hn_err_text(req->msg, sizeof(req->msg), rc, err, what);
	info->extack->_msg = req->msg;
	return rc;
}

/* Number of top-level attributes of @type in the request. */
u32 hn_nl_count(struct genl_info *info, int type)
{
	const struct nlattr *a;
	u32 n = 0;
	int rem;

	nlmsg_for_each_attr(a, info->nlhdr, GENL_HDRLEN, rem)
		n += nla_type(a) == type;
	return n;
}

/*
 * A pair: SRC and DST, and in a preload on a fat tree its path, the
 * up-port per level (HYBRIDNET_ATTR_PATH, at most HYBRIDNET_MAX_PATH
 * bytes).  The requests' policies (netlink.c) validate every PAIR nest
 * with it, so it admits PATH wherever a pair goes, and hn_nl_pair()
 * refuses a PATH where none belongs.
 */
const struct nla_policy hn_pair_policy[HYBRIDNET_ATTR_MAX + 1] = {
	[HYBRIDNET_ATTR_SRC] = NLA_POLICY_MAX(NLA_U32, HYBRIDNET_MAX_NODES - 1),
	[HYBRIDNET_ATTR_DST] = NLA_POLICY_MAX(NLA_U32, HYBRIDNET_MAX_NODES - 1),
	[HYBRIDNET_ATTR_PATH] = { .type = NLA_BINARY,
				  .len = HYBRIDNET_MAX_PATH },
};

/*
 * Parse one PAIR nest against @nodes.  With @path (HYBRIDNET_MAX_PATH
 * bytes) the pair may carry a PATH, copied there, its length in *@plen
 * (-1: none); without, a PATH is refused.
 */
int hn_nl_pair(const struct nlattr *nest, u32 nodes, struct hn_pair *p,
	       u8 *path, int *plen, struct genl_info *info)
{
	struct netlink_ext_ack *extack = info->extack;
	struct nlattr *tb[HYBRIDNET_ATTR_MAX + 1];
	int rc;

	rc = nla_parse_nested(tb, HYBRIDNET_ATTR_MAX, nest, hn_pair_policy,
			      extack);
	if (rc)
		return rc;
	if (!path && tb[HYBRIDNET_ATTR_PATH]) {
		NL_SET_ERR_MSG_ATTR(extack, tb[HYBRIDNET_ATTR_PATH],
				    "a path is given only with a preload's pair");
		return -EINVAL;
	}
	if (path) {
		*plen = tb[HYBRIDNET_ATTR_PATH] ?
			nla_len(tb[HYBRIDNET_ATTR_PATH]) : -1;
		memset(path, HN_PORT_NONE, HYBRIDNET_MAX_PATH);
		if (*plen > 0)
			nla_memcpy(path, tb[HYBRIDNET_ATTR_PATH], *plen);
	}
	if (!tb[HYBRIDNET_ATTR_SRC] || !tb[HYBRIDNET_ATTR_DST]) {
		NL_SET_ERR_MSG_ATTR(extack, nest, "a pair needs src and dst");
		return -EINVAL;
	}
	p->src = nla_get_u32(tb[HYBRIDNET_ATTR_SRC]);
	p->dst = nla_get_u32(tb[HYBRIDNET_ATTR_DST]);
	if (p->src >= nodes || p->dst >= nodes) {
		hn_nl_errf(info, nest, "pair %u:%u: node %u out of range (%u nodes)",
			   p->src, p->dst, p->src >= nodes ? p->src : p->dst,
			   nodes);
		return -EINVAL;
	}
	return 0;
}

/*
 * Every top-level HYBRIDNET_ATTR_PAIR of the request, parsed against
 * @nodes into a new array (kvfree() it) of *@np entries: at least one, at
 * most HYBRIDNET_MAX_PAIRS, counted before anything is allocated.
 */
struct hn_pair *hn_nl_pairs(struct genl_info *info, u32 nodes, u32 *np,
			    int *rc)
{
	struct netlink_ext_ack *extack = info->extack;
	u32 n = hn_nl_count(info, HYBRIDNET_ATTR_PAIR), i = 0;
	const struct nlattr *a;
	struct hn_pair *req;
	int rem;

	*rc = -EINVAL;
	if (!n) {
		NL_SET_ERR_MSG(extack, "missing pair attribute");
		return NULL;
	}
	if (n > HYBRIDNET_MAX_PAIRS) {
		hn_nl_errf(info, NULL, "%u requests: at most %u per message",
			   n, HYBRIDNET_MAX_PAIRS);
		*rc = -E2BIG;
		return NULL;
	}
	req = kvcalloc(n, sizeof(*req), GFP_KERNEL);
	if (!req) {
		*rc = -ENOMEM;
		return NULL;
	}
	nlmsg_for_each_attr(a, info->nlhdr, GENL_HDRLEN, rem) {
		if (nla_type(a) != HYBRIDNET_ATTR_PAIR)
			continue;
		*rc = hn_nl_pair(a, nodes, &req[i++], NULL, NULL, info);
		if (*rc) {
			kvfree(req);
			return NULL;
		}
	}
	*np = n;
	*rc = 0;
	return req;
}

/*
 * Reply to @info with one @cmd message of at most @size bytes, its
 * attributes put by @fill (which takes the locks it needs).
 */
int hn_nl_reply(struct genl_info *info, u8 cmd, size_t size,
		int (*fill)(struct sk_buff *msg, struct hn_dev *hd))
{
	struct sk_buff *msg;
	void *hdr;
	int rc;

	msg = genlmsg_new(size, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	hdr = genlmsg_put_reply(msg, info, &hn_nl_family, 0, cmd);
	rc = hdr ? fill(msg, hn_nl_dev(info)) : -EMSGSIZE;
	if (rc) {
		nlmsg_free(msg);
		return rc;
	}
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);
}

/*
 * A new event message of fabric @hd, with room for @size bytes of
 * attributes (0: a page), or NULL when nobody listens in its namespace,
 * it is deleted, or there is no memory.  Every event carries its FABRIC.
 */
struct sk_buff *hn_nl_event_new(struct hn_dev *hd, u32 event, size_t size,
				void **hdr)
{
	struct sk_buff *skb;

	if (READ_ONCE(hd->dead) ||
	    !genl_has_listeners(&hn_nl_family, hd->net, 0))
		return NULL;
	skb = genlmsg_new(size ? size + 64 : NLMSG_GOODSIZE, GFP_KERNEL);
	if (!skb)
		return NULL;
	*hdr = genlmsg_put(skb, 0, 0, &hn_nl_family, 0, HYBRIDNET_CMD_EVENT);
	if (!*hdr || nla_put_u32(skb, HYBRIDNET_ATTR_EVENT, event) ||
	    nla_put_u32(skb, HYBRIDNET_ATTR_FABRIC, hd->id)) {
		nlmsg_free(skb);
		return NULL;
	}
	return skb;
}

/*
 * A fault's event: DOWN, the circuits RELEASED, and the LINK or SWITCH
 * with its @name, or RANDOM and SEED, as a monitor prints it ("link down
 * sw1.3/up2").  FAULT_SET's (nl_fault.c) and the failures' over time
 * (port.c).
 */
void hn_nl_fault_event(struct hn_dev *hd, const struct hn_nl_fault *f,
		       const char *name)
{
	struct sk_buff *skb;
	void *hdr;
	int rc;

	skb = hn_nl_event_new(hd, HYBRIDNET_EVENT_FAULT, 0, &hdr);
	if (!skb)
		return;
	rc = nla_put_u8(skb, HYBRIDNET_ATTR_DOWN, f->down) ||
	     nla_put_u32(skb, HYBRIDNET_ATTR_RELEASED, f->released) ||
	     nla_put_u32(skb, HYBRIDNET_ATTR_REROUTED, f->rerouted);
	if (!rc && f->random)
		rc = nla_put_u32(skb, f->random, f->count) ||
		     nla_put_u64_64bit(skb, HYBRIDNET_ATTR_SEED, f->seed,
				       HYBRIDNET_ATTR_PAD);
	else if (!rc)
		rc = nla_put_u32(skb, f->sw ? HYBRIDNET_ATTR_SWITCH :
				 HYBRIDNET_ATTR_LINK, f->id) ||
		     (f->ch &&
		      nla_put_u32(skb, HYBRIDNET_ATTR_LINK_CHANNEL, f->chan)) ||
		     nla_put_string(skb, HYBRIDNET_ATTR_NAME, name);
	if (rc) {
		nlmsg_free(skb);
		return;
	}
	hn_nl_event_send(hd, skb, hdr);
}

/* Send an event of @hd's to the listeners of its namespace only. */
void hn_nl_event_send(struct hn_dev *hd, struct sk_buff *skb, void *hdr)
{
	if (!skb)
		return;
	genlmsg_end(skb, hdr);
	genlmsg_multicast_netns(&hn_nl_family, hd->net, skb, 0, 0, GFP_KERNEL);
}
