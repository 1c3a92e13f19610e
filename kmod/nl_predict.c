// SPDX-License-Identifier: GPL-2.0
/*
 * nl_predict.c - HYBRIDNET_CMD_PREDICT: predicted requests to the
 * scheduler, and a reply that says why each refused request was refused.
 *
 * A request is refused when, once the scheduler is done, every slot it
 * may use has the request's source or destination taken (predict.c): so
 * its conflicts are read from the circuit table afterwards, still under
 * hd->lock.  Each predictive slot gets a HYBRIDNET_ATTR_CONFLICT nest:
 * PINNED for a slot below pin-slots, else the circuits holding the
 * source (SRC -> x) and the destination (y -> DST).  The reply is
 * allocated before the scheduler runs (a failure then changes nothing),
 * with HN_NL_WHY_ROOM bytes for conflicts; the refusals that do not fit
 * come without them.  The grant event lists the granted requests, and is
 * not sent when there is none.
 */
#include <linux/mm.h>
#include <linux/slab.h>

#include "hn_nl.h"

/* room for conflicts in one reply; the rest of the refusals go without */
#define HN_NL_WHY_ROOM		(64 * 1024)
/* bytes of a grant nest without conflicts: SRC, DST, RESULT, SLOT */
#define HN_NL_GRANT_SIZE	(NLA_HDRLEN + 4 * nla_total_size(sizeof(u32)))
/* and of one conflict at most: SLOT and two pairs */
#define HN_NL_PAIR_SIZE		(NLA_HDRLEN + 2 * nla_total_size(sizeof(u32)))
#define HN_NL_CONFLICT_SIZE	(NLA_HDRLEN + nla_total_size(sizeof(u32)) + \
				 2 * HN_NL_PAIR_SIZE)

/* The sources of every slot's circuits, by destination: into[s * N + v]. */
static u32 *hn_circuits_into(const struct hn_engine *e)
{
	const struct hn_config *c = hn_cfg(e);
	u32 s, u, v, *into;

	into = kvmalloc_array((size_t)c->k * c->nodes, sizeof(*into),
			      GFP_KERNEL);
	if (!into)
		return NULL;
	memset(into, 0xff, (size_t)c->k * c->nodes * sizeof(*into));
	for (s = 0; s < c->k; s++)
		for (u = 0; u < c->nodes; u++) {
			v = hn_circuit(e, s, u);
			if (v != HN_NONE)
				into[(size_t)s * c->nodes + v] = u;
		}
	return into;
}

static int hn_put_pair(struct sk_buff *msg, u32 src, u32 dst)
{
	struct nlattr *nest = nla_nest_start(msg, HYBRIDNET_ATTR_PAIR);

	if (!nest || nla_put_u32(msg, HYBRIDNET_ATTR_SRC, src) ||
	    nla_put_u32(msg, HYBRIDNET_ATTR_DST, dst))
		return -EMSGSIZE;
	nla_nest_end(msg, nest);
	return 0;
}

/* Why slot @s could not take refused request @g. */
static int hn_put_conflict(struct sk_buff *msg, const struct hn_engine *e,
			   const u32 *into, const struct hn_grant *g, u32 s)
{
	const struct hn_config *c = hn_cfg(e);
	struct nlattr *nest = nla_nest_start(msg, HYBRIDNET_ATTR_CONFLICT);
	u32 to, from;

	if (!nest || nla_put_u32(msg, HYBRIDNET_ATTR_SLOT, s))
		return -EMSGSIZE;
	if (s < c->pin_slots) {
		if (nla_put_flag(msg, HYBRIDNET_ATTR_PINNED))
			return -EMSGSIZE;
	} else {
		to = hn_circuit(e, s, g->src);
		from = into[(size_t)s * c->nodes + g->dst];
		if ((to != HN_NONE && hn_put_pair(msg, g->src, to)) ||
		    (from != HN_NONE && hn_put_pair(msg, from, g->dst)))
			return -EMSGSIZE;
	}
	nla_nest_end(msg, nest);
	return 0;
}

/*
 * One GRANT nest; a refusal gets its conflicts (every slot's) when @into
 * is given and *@room has space for them, which they then take from it.
 */
static int hn_put_grant(struct sk_buff *msg, const struct hn_engine *e,
			const u32 *into, size_t *room, const struct hn_grant *g)
{
	struct nlattr *nest = nla_nest_start(msg, HYBRIDNET_ATTR_GRANT);
	size_t need = e ? (size_t)hn_cfg(e)->k * HN_NL_CONFLICT_SIZE : 0;
	u32 s;

	if (!nest ||
	    nla_put_u32(msg, HYBRIDNET_ATTR_SRC, g->src) ||
	    nla_put_u32(msg, HYBRIDNET_ATTR_DST, g->dst) ||
	    nla_put_u32(msg, HYBRIDNET_ATTR_RESULT, g->result) ||
	    (g->slot != HN_NONE &&
	     nla_put_u32(msg, HYBRIDNET_ATTR_SLOT, g->slot)))
		return -EMSGSIZE;
	if (g->result == HN_REFUSED && into && need <= *room) {
		*room -= need;
		for (s = 0; s < hn_cfg(e)->k; s++)
			if (hn_put_conflict(msg, e, into, g, s))
				return -EMSGSIZE;
	}
	nla_nest_end(msg, nest);
	return 0;
}

static void hn_grant_event(struct hn_dev *hd, const struct hn_grant *g,
			   u32 n)
{
	struct sk_buff *skb;
	u32 i, granted = 0;
	void *hdr;

	for (i = 0; i < n; i++)
		granted += g[i].result == HN_GRANTED;
	if (!granted)
		return;
	skb = hn_nl_event_new(hd, HYBRIDNET_EVENT_GRANT,
			      (size_t)granted * HN_NL_GRANT_SIZE, &hdr);
	if (!skb)
		return;
	for (i = 0; i < n; i++) {
		if (g[i].result != HN_GRANTED)
			continue;
		if (hn_put_grant(skb, NULL, NULL, NULL, &g[i])) {
			nlmsg_free(skb);
			return;
		}
	}
	hn_nl_event_send(hd, skb, hdr);
}

/* The reply's attributes, under hd->lock: the engine is as predict left it. */
static int hn_fill_predict(struct sk_buff *msg, const struct hn_engine *e,
			   const struct hn_grant *g, u32 n)
{
	size_t room = HN_NL_WHY_ROOM;
	u32 *into = NULL, i;
	int rc = 0;

	for (i = 0; i < n && !into; i++)
		if (g[i].result == HN_REFUSED && hn_cfg(e)->k)
			into = hn_circuits_into(e);	/* NULL: no conflicts */
	if (nla_put_u32(msg, HYBRIDNET_ATTR_SLOTS, hn_cfg(e)->k))
		rc = -EMSGSIZE;
	for (i = 0; i < n && !rc; i++)
		rc = hn_put_grant(msg, e, into, &room, &g[i]);
	kvfree(into);
	return rc;
}

int hn_nl_predict(struct sk_buff *skb, struct genl_info *info)
{
	struct hn_dev *hd = hn_nl_dev(info);
	struct hn_grant *g = NULL;
	struct hn_pair *req;
	struct hn_err err = { };
	struct sk_buff *msg = NULL;
	u32 n, nodes;
	void *hdr;
	int rc;

	mutex_lock(&hd->lock);
	nodes = hn_cfg(hd->e)->nodes;
	mutex_unlock(&hd->lock);
	req = hn_nl_pairs(info, nodes, &n, &rc);
	if (!req)
		return rc;
	g = kvcalloc(n, sizeof(*g), GFP_KERNEL);
	msg = genlmsg_new((size_t)n * HN_NL_GRANT_SIZE + HN_NL_WHY_ROOM + 64,
			  GFP_KERNEL);
	rc = -ENOMEM;
	if (!g || !msg)
		goto out;
	hdr = genlmsg_put_reply(msg, info, &hn_nl_family, 0,
				HYBRIDNET_CMD_PREDICT);
	rc = -EMSGSIZE;
	if (!hdr)
		goto out;
	mutex_lock(&hd->lock);
	rc = hn_predict(hd->e, req, n, g, &err);
	if (!rc)
		rc = hn_fill_predict(msg, hd->e, g, n);
	mutex_unlock(&hd->lock);
	if (rc) {
		if (rc != -EMSGSIZE)
			hn_nl_core_err(info, rc, &err, "predict refused");
		goto out;
	}
	genlmsg_end(msg, hdr);
	hn_clock_kick(hd);
	hn_grant_event(hd, g, n);
	rc = genlmsg_reply(msg, info);
	msg = NULL;
out:
	nlmsg_free(msg);
	kvfree(req);
	kvfree(g);
	return rc;
}
