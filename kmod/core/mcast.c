// SPDX-License-Identifier: GPL-2.0
/*
 * mcast.c - one message to many: Zydallis's NIC multicast [Z:543-547,
 * Z:589, Z:621-625].  His coprocessor takes one message whose header
 * names, for one port, a bitmap over the 8 destination cards that port
 * serves (or all cards: a broadcast), and its decoder tree writes it into
 * the destination queue of every card the bitmap selects, rewriting the
 * header of each so that it names that card: every replica leaves as a
 * unicast message.  Destinations behind two ports cost two messages
 * handed to the coprocessor.
 *
 * Here a group is 8 consecutive node numbers (group g: nodes 8g..8g+7;
 * ours: the text's groups are a port's cards of a GH(2,40)), an entry is
 * a group and its bitmap (or HN_MCAST_ALL, every node but the sender),
 * an injection is one group's entry handed to the NIC and a copy is one
 * member's message in the VOQ of its destination, which the fabric then
 * carries as any other (the text's dedicated per-card links are the
 * fabric's job here).  The copies go into the NIC all or none, so a
 * writer never learns of half a multicast; the NIC's buffer holds each
 * copy, as his destination queues do.
 */
#include "engine.h"

static_assert(HN_MCAST_MAX == 512 && HN_MCAST_MAX % 64 == 0);

/* a bad entry, @i */
static int bad(struct hn_err *err, const char *msg, u32 i)
{
	return hn_fail(err, -EINVAL, msg, HN_NONE, HN_NONE, i);
}

/*
 * The members the @n entries @ent name for a message from @src, in @dst
 * (room for @nodes), entry by entry and ascending in each; returns how
 * many (>= 1) with the groups that have one in *@groups, or -EINVAL.
 */
int hn_mcast_members(const u32 *ent, u32 n, u32 src, u32 nodes, u32 *dst,
		     u32 *groups, struct hn_err *err)
{
	u64 seen[HN_MAX_NODES / HN_MCAST_GROUP / 64] = { 0 };
	u32 i, b, g, bits, count = 0, last = HN_NONE;

	*groups = 0;
	if (!n || n > HN_MCAST_MAX)
		return hn_fail(err, -EINVAL,
			       "a multicast has 1 to 512 destination entries",
			       HN_NONE, src, HN_NONE);
	if (ent[0] == HN_MCAST_ALL && n == 1) {
		for (i = 0; i < nodes; i++) {
			if (i == src)
				continue;
			dst[count++] = i;
			*groups += i / HN_MCAST_GROUP != last;
			last = i / HN_MCAST_GROUP;
		}
		if (!count)
			return hn_fail(err, -EINVAL,
				       "a broadcast with no other node",
				       HN_NONE, src, HN_NONE);
		return count;
	}
	for (i = 0; i < n; i++) {
		g = ent[i] >> 8;
		bits = ent[i] & 0xff;
		if (ent[i] == HN_MCAST_ALL)
			return bad(err, "a broadcast entry must be the only one",
				   i);
		if (g * HN_MCAST_GROUP >= nodes ||
		    (nodes - g * HN_MCAST_GROUP < HN_MCAST_GROUP &&
		     bits >> (nodes - g * HN_MCAST_GROUP)))
			return bad(err, "a multicast entry names a node out of range",
				   i);
		if (!bits)
			return bad(err, "a multicast entry with no member", i);
		if (seen[g / 64] & 1ULL << (g % 64))
			return bad(err, "a group named by two multicast entries",
				   i);
		seen[g / 64] |= 1ULL << (g % 64);
		for (b = 0; b < HN_MCAST_GROUP; b++)
			if (bits & 1U << b)
				dst[count++] = g * HN_MCAST_GROUP + b;
		(*groups)++;
	}
	return count;
}

void hn_mcast_count(struct hn_engine *e, u32 copies, u32 groups)
{
	e->g.mcast_msgs++;
	e->g.mcast_injections += groups;
	e->g.mcast_copies += copies;
}

/*
 * Hand the NIC of @m[0]->src the @n copies of one message, each to its
 * member, all or none: -EAGAIN while its buffer cannot take them all,
 * -EMSGSIZE when it never can, or the errno hn_inject() gives the first
 * copy it would refuse.  Only running out of memory can stop it midway:
 * *@sent says how many the NIC took.
 */
int hn_inject_mcast(struct hn_engine *e, struct hn_msg **m, u32 n,
		    u32 groups, u32 *sent, struct hn_err *err)
{
	const struct hn_config *c = &e->cfg;
	u32 i, s, src = m[0]->src;
	u64 bytes = (u64)n * m[0]->len;
	struct hn_node *node;
	int rc = 0;

	*sent = 0;
	for (i = 0; i < n; i++) {
		rc = hn_inject_route(e, m[i], &s, err);
		if (rc)
			return rc;
	}
	if (bytes > c->nic_buf_bytes)
		return hn_fail(err, -EMSGSIZE,
			       "the copies of a multicast exceed nic_buf_bytes",
			       HN_NONE, src, HN_NONE);
	node = &e->node[src];
	hn_nic_release(e, src);
	if (node->buf_used + bytes > c->nic_buf_bytes) {
		node->st.tx_full++;
		e->g.tx_full++;
		return hn_fail(err, -EAGAIN, "NIC buffer full", HN_NONE, src,
			       HN_NONE);
	}
	for (i = 0; i < n; i++) {
		rc = hn_inject(e, m[i], err);
		if (rc)
			break;
		(*sent)++;
	}
	if (*sent)
		hn_mcast_count(e, *sent, groups);
	return rc;
}
