// SPDX-License-Identifier: GPL-2.0
/*
 * nl_circuit.c - HYBRIDNET_CMD_PRELOAD, _RELEASE and the circuit dump
 * (PREDICT is nl_predict.c's).  Allocations are bounded by the
 * configuration, never by a count taken from the message: K x N pairs for
 * a preload (several slot-config nests for one slot are joined).  The
 * preload's reply says, per slot, how many circuits it held before (all
 * replaced) and holds now.
 */
#include <linux/mm.h>
#include <linux/slab.h>

#include "hn_nl.h"
#include "hn_sched.h"		/* HN_TOPO_FATTREE */

static const struct nla_policy hn_slotcfg_parse[HYBRIDNET_ATTR_MAX + 1] = {
	[HYBRIDNET_ATTR_SLOT] = { .type = NLA_U32 },
	[HYBRIDNET_ATTR_PAIR] = { .type = NLA_NESTED },
};

static void hn_slots_event(struct hn_dev *hd, u32 event,
			   const struct hn_slot_cfg *cfg, u32 n,
			   const char *phase)
{
	struct nlattr *nest, *pn;
	struct sk_buff *skb;
	u32 i, p, total = 0;
	void *hdr;

	skb = hn_nl_event_new(hd, event, 0, &hdr);
	if (!skb)
		return;
	for (i = 0; i < n; i++)
		total += cfg[i].npairs;
	for (i = 0; i < n; i++) {
		nest = nla_nest_start(skb, HYBRIDNET_ATTR_SLOT_CONFIG);
		if (!nest || nla_put_u32(skb, HYBRIDNET_ATTR_SLOT, cfg[i].slot) ||
		    nla_put_u32(skb, HYBRIDNET_ATTR_COUNT, cfg[i].npairs))
			goto drop;
		/* the pairs too, while the event stays small */
		for (p = 0; total <= 256 && p < cfg[i].npairs; p++) {
			pn = nla_nest_start(skb, HYBRIDNET_ATTR_PAIR);
			if (!pn ||
			    nla_put_u32(skb, HYBRIDNET_ATTR_SRC,
					cfg[i].pairs[p].src) ||
			    nla_put_u32(skb, HYBRIDNET_ATTR_DST,
					cfg[i].pairs[p].dst))
				goto drop;
			nla_nest_end(skb, pn);
		}
		nla_nest_end(skb, nest);
	}
	if (phase && nla_put_string(skb, HYBRIDNET_ATTR_PHASE, phase))
		goto drop;
	hn_nl_event_send(hd, skb, hdr);
	return;
drop:
	nlmsg_free(skb);
}

/*
 * Parse one HYBRIDNET_ATTR_SLOT_CONFIG, appending its pairs to its slot's
 * buffer: several nests for one slot are joined, so a slot may hold more
 * pairs than fit in one attribute (16-bit length).
 */
static_assert(HYBRIDNET_PORT_NONE == HN_PORT_NONE);

/* Up-ports in a circuit's path: levels - 1 on a fat tree, else none. */
static u32 hn_path_len(const struct hn_config *c)
{
	return c->topology == HN_TOPO_FATTREE ? c->levels - 1 : 0;
}

struct hn_preload_req {
	struct hn_pair *pairs;		/* slot s's at pairs + s N */
	u8 *ports;			/* fat tree: at ports + (s N + i) L */
	u32 used[HN_MAX_K];		/* pairs per slot */
	u32 paths[HN_MAX_K];		/* of them given with a path */
};

/*
 * A fat tree's pair may give its path, L = levels - 1 up-ports at most;
 * the ones it leaves out are HN_PORT_NONE, which the engine refuses
 * below the pair's common-ancestor level.
 */
static int hn_parse_path(const struct hn_config *c, const struct nlattr *a,
			 const struct hn_pair *p, const u8 *path, int plen,
			 u8 *to, struct genl_info *info)
{
	u32 L = hn_path_len(c);

	if (plen >= 0 && !L) {
		hn_nl_errf(info, a, "pair %u:%u: a path is for a fat tree of two levels or more",
			   p->src, p->dst);
		return -EINVAL;
	}
	if (plen > (int)L) {
		hn_nl_errf(info, a,
			   "pair %u:%u: a path of %d up-ports, at most %u on this tree (one per level below the top)",
			   p->src, p->dst, plen, L);
		return -EINVAL;
	}
	if (L)
		memcpy(to, path, L);
	return 0;
}

static int hn_parse_slotcfg(const struct hn_config *c, const struct nlattr *nest,
			    struct hn_preload_req *r, u32 *slot,
			    struct genl_info *info)
{
	u32 L = hn_path_len(c);
	struct netlink_ext_ack *extack = info->extack;
	struct nlattr *tb[HYBRIDNET_ATTR_MAX + 1];
	u8 path[HYBRIDNET_MAX_PATH];
	const struct nlattr *a;
	struct hn_pair *p;
	int rc, rem, plen;
	u32 s, i;

	rc = nla_parse_nested(tb, HYBRIDNET_ATTR_MAX, nest, hn_slotcfg_parse,
			      extack);
	if (rc)
		return rc;
	if (!tb[HYBRIDNET_ATTR_SLOT]) {
		NL_SET_ERR_MSG_ATTR(extack, nest, "a slot-config needs a slot");
		return -EINVAL;
	}
	s = nla_get_u32(tb[HYBRIDNET_ATTR_SLOT]);
	if (s >= c->k) {
		hn_nl_errf(info, tb[HYBRIDNET_ATTR_SLOT],
			   "slot %u out of range (%u predictive slots)", s,
			   c->k);
		return -EINVAL;
	}
	*slot = s;
	p = r->pairs + (size_t)s * c->nodes;
	nla_for_each_nested(a, nest, rem) {
		if (nla_type(a) != HYBRIDNET_ATTR_PAIR)
			continue;
		i = r->used[s];
		if (i == c->nodes) {
			hn_nl_errf(info, a, "slot %u: more pairs than nodes (%u)",
				   s, c->nodes);
			return -E2BIG;
		}
		rc = hn_nl_pair(a, c->nodes, &p[i], path, &plen, info);
		if (!rc)
			rc = hn_parse_path(c, a, &p[i], path, plen,
					   r->ports + ((size_t)s * c->nodes + i) * L,
					   info);
		if (rc)
			return rc;
		r->paths[s] += plen >= 0;
		r->used[s]++;
	}
	return 0;
}

/* Circuits of @slot: of the working set, or (@second) of the second level. */
static u32 hn_slot_circuits(const struct hn_engine *e, u32 slot, bool second)
{
	u32 u, n = 0;

	for (u = 0; u < hn_cfg(e)->nodes; u++)
		n += (second ? hn_second(e, slot, u) :
		      hn_circuit(e, slot, u)) != HN_NONE;
	return n;
}

/* The reply: per slot installed, its circuits before and now. */
static int hn_put_replaced(struct sk_buff *msg, const struct hn_slot_cfg *cfg,
			   const u32 *before, u32 n)
{
	struct nlattr *nest;
	u32 i;

	for (i = 0; i < n; i++) {
		nest = nla_nest_start(msg, HYBRIDNET_ATTR_SLOT_CONFIG);
		if (!nest ||
		    nla_put_u32(msg, HYBRIDNET_ATTR_SLOT, cfg[i].slot) ||
		    nla_put_u32(msg, HYBRIDNET_ATTR_COUNT, cfg[i].npairs) ||
		    nla_put_u32(msg, HYBRIDNET_ATTR_RELEASED, before[i]))
			return -EMSGSIZE;
		nla_nest_end(msg, nest);
	}
	return 0;
}

int hn_nl_preload(struct sk_buff *skb, struct genl_info *info)
{
	struct netlink_ext_ack *extack = info->extack;
	const struct nlattr *phase = info->attrs[HYBRIDNET_ATTR_PHASE];
	const struct nlattr *level = info->attrs[HYBRIDNET_ATTR_LEVEL];
	bool second = level && nla_get_u32(level) == 2;
	u32 order[HN_MAX_K], before[HN_MAX_K];
	u32 n = 0, i, s, L;
	struct hn_dev *hd = hn_nl_dev(info);
	struct sk_buff *msg = NULL;
	void *hdr;
	struct hn_slot_cfg *cfg = NULL;
	struct hn_preload_req *r = NULL;
	struct hn_err err = { };
	const struct nlattr *a;
	struct hn_config c;
	bool seen[HN_MAX_K] = { };
	int rc, rem;

	if (!hn_nl_count(info, HYBRIDNET_ATTR_SLOT_CONFIG)) {
		NL_SET_ERR_MSG(extack, "missing slot-config attribute");
		return -EINVAL;
	}
	mutex_lock(&hd->lock);
	c = *hn_cfg(hd->e);	/* hd->nl_lock keeps it as read */
	mutex_unlock(&hd->lock);
	L = hn_path_len(&c);
	cfg = kcalloc(HN_MAX_K, sizeof(*cfg), GFP_KERNEL);
	r = kzalloc(sizeof(*r), GFP_KERNEL);
	msg = genlmsg_new(HN_MAX_K * (NLA_HDRLEN + 3 * nla_total_size(4)) + 64,
			  GFP_KERNEL);
	rc = -ENOMEM;
	if (!cfg || !r || !msg)
		goto out;
	r->pairs = kvcalloc((size_t)(c.k ? c.k : 1) * c.nodes,
			    sizeof(*r->pairs), GFP_KERNEL);
	r->ports = kvmalloc((size_t)(c.k ? c.k : 1) * c.nodes * (L ? L : 1),
			    GFP_KERNEL);
	if (!r->pairs || !r->ports)
		goto out;
	hdr = genlmsg_put_reply(msg, info, &hn_nl_family, 0,
				HYBRIDNET_CMD_PRELOAD);
	if (!hdr)
		goto out;
	nlmsg_for_each_attr(a, info->nlhdr, GENL_HDRLEN, rem) {
		if (nla_type(a) != HYBRIDNET_ATTR_SLOT_CONFIG)
			continue;
		rc = hn_parse_slotcfg(&c, a, r, &s, info);
		if (rc)
			goto out;
		if (!seen[s])
			order[n++] = s;
		seen[s] = true;
	}
	for (i = 0; i < n; i++) {
		s = order[i];
		if (r->paths[s] && r->paths[s] != r->used[s]) {
			hn_nl_errf(info, NULL,
				   "slot %u: give a path for every pair or for none (%u of %u have one)",
				   s, r->paths[s], r->used[s]);
			rc = -EINVAL;
			goto out;
		}
		cfg[i].slot = s;
		cfg[i].pairs = r->pairs + (size_t)s * c.nodes;
		cfg[i].npairs = r->used[s];
		cfg[i].ports = r->paths[s] ?
			r->ports + (size_t)s * c.nodes * L : NULL;
	}
	mutex_lock(&hd->lock);
	for (i = 0; i < n; i++)
		before[i] = hn_slot_circuits(hd->e, cfg[i].slot, second);
	if (second)	/* Sec. 5.2.3: stored, used only when swapped in */
		rc = hn_preload_second(hd->e, cfg, n, &err);
	else
		rc = hn_preload(hd->e, cfg, n, &err);
	mutex_unlock(&hd->lock);
	if (rc) {
		hn_nl_core_err(info, rc, &err, "preload refused");
		goto out;
	}
	hn_put_replaced(msg, cfg, before, n);	/* has the room */
	genlmsg_end(msg, hdr);
	if (!second) {
		hn_clock_kick(hd);
		hn_slots_event(hd, HYBRIDNET_EVENT_PRELOAD, cfg, n, NULL);
		if (phase)
			hn_slots_event(hd, HYBRIDNET_EVENT_PHASE, cfg, 0,
				       nla_data(phase));
	}
	rc = genlmsg_reply(msg, info);
	msg = NULL;
out:
	nlmsg_free(msg);
	if (r) {
		kvfree(r->pairs);
		kvfree(r->ports);
	}
	kfree(r);
	kfree(cfg);
	return rc;
}

static void hn_release_event(struct hn_dev *hd, struct genl_info *info)
{
	static const int keep[] = {
		HYBRIDNET_ATTR_PAIR, HYBRIDNET_ATTR_SLOT, HYBRIDNET_ATTR_ALL,
	};
	struct sk_buff *skb;
	unsigned int i;
	void *hdr;

	skb = hn_nl_event_new(hd, HYBRIDNET_EVENT_RELEASE, 0, &hdr);
	if (!skb)
		return;
	for (i = 0; i < ARRAY_SIZE(keep); i++) {
		const struct nlattr *a = info->attrs[keep[i]];

		if (a && nla_put(skb, keep[i], nla_len(a), nla_data(a))) {
			nlmsg_free(skb);
			return;
		}
	}
	hn_nl_event_send(hd, skb, hdr);
}

int hn_nl_release(struct sk_buff *skb, struct genl_info *info)
{
	struct netlink_ext_ack *extack = info->extack;
	struct nlattr **tb = info->attrs;
	struct hn_dev *hd = hn_nl_dev(info);
	struct hn_err err = { };
	struct hn_pair p;
	int rc, given;

	given = !!tb[HYBRIDNET_ATTR_PAIR] + !!tb[HYBRIDNET_ATTR_SLOT] +
		!!tb[HYBRIDNET_ATTR_ALL];
	if (given != 1) {
		NL_SET_ERR_MSG(extack, "give exactly one of pair, slot or all");
		return -EINVAL;
	}
	if (hn_nl_count(info, HYBRIDNET_ATTR_PAIR) > 1) {
		NL_SET_ERR_MSG(extack, "release takes one pair at a time");
		return -EINVAL;
	}
	mutex_lock(&hd->lock);
	if (tb[HYBRIDNET_ATTR_PAIR]) {
		rc = hn_nl_pair(tb[HYBRIDNET_ATTR_PAIR],
				hn_cfg(hd->e)->nodes, &p, NULL, NULL, info);
		if (!rc) {
			rc = hn_release(hd->e, p.src, p.dst, &err);
			if (rc)
				hn_nl_errf(info, tb[HYBRIDNET_ATTR_PAIR],
					   "release %u:%u: %s", p.src, p.dst,
					   err.msg);
		}
	} else if (tb[HYBRIDNET_ATTR_SLOT]) {
		u32 s = nla_get_u32(tb[HYBRIDNET_ATTR_SLOT]);

		rc = hn_release_slot(hd->e, s, &err);
		if (rc)
			hn_nl_core_err(info, rc, &err, "release refused");
	} else {
		rc = hn_release_all(hd->e, &err);
		if (rc)
			hn_nl_core_err(info, rc, &err, "release refused");
	}
	mutex_unlock(&hd->lock);
	if (rc)
		return rc;
	hn_clock_kick(hd);
	hn_release_event(hd, info);
	return 0;
}

/*
 * Dump every circuit as (slot, src, dst), on a fat tree with its path.
 * cb->args[0] is the next slot, cb->args[1] the next input; the circuit
 * generation flags a table that changed between two parts of the dump
 * (NLM_F_DUMP_INTR).
 */
int hn_nl_circuit_dump(struct sk_buff *skb, struct netlink_callback *cb,
		       struct hn_dev *hd)
{
	u32 s = cb->args[0], u = cb->args[1], v, k, nodes, gen;
	u8 path[HYBRIDNET_MAX_PATH];
	void *hdr;
	int H;

	mutex_lock(&hd->lock);
	k = hn_cfg(hd->e)->k;
	nodes = hn_cfg(hd->e)->nodes;
	cb->seq = hn_circuit_gen(hd->e);
	for (; s < k; s++, u = 0) {
		for (; u < nodes; u++) {
			v = hn_circuit(hd->e, s, u);
			if (v == HN_NONE)
				continue;
			gen = hn_circuit_gen(hd->e);
			hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid,
					  cb->nlh->nlmsg_seq, &hn_nl_family,
					  NLM_F_MULTI, HYBRIDNET_CMD_CIRCUIT_GET);
			if (!hdr)
				goto full;
			genl_dump_check_consistent(cb, hdr);
			H = hn_circuit_path(hd->e, s, u, path, sizeof(path));
			if (nla_put_u32(skb, HYBRIDNET_ATTR_SLOT, s) ||
			    nla_put_u32(skb, HYBRIDNET_ATTR_SRC, u) ||
			    nla_put_u32(skb, HYBRIDNET_ATTR_DST, v) ||
			    nla_put_u32(skb, HYBRIDNET_ATTR_GENERATION, gen) ||
			    (H > 0 &&
			     nla_put(skb, HYBRIDNET_ATTR_PATH, H, path))) {
				genlmsg_cancel(skb, hdr);
				goto full;
			}
			genlmsg_end(skb, hdr);
		}
	}
full:
	mutex_unlock(&hd->lock);
	cb->args[0] = s;
	cb->args[1] = u;
	return skb->len;
}
