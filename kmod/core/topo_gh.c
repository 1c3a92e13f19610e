// SPDX-License-Identifier: GPL-2.0
/*
 * topo_gh.c - the generalized hypercube GH(n, k) of Zydallis's system
 * (zydallis_woodscorwin.md A1: k^n nodes, degree n (k - 1), diameter n),
 * a direct network: switch s is node s's router, its coordinates the
 * base-k digits of s, and it has a link to every switch that differs
 * from it in one digit.  Port 0 is the node's; port 1 + d (k - 1) + j
 * leads to the switch whose digit d is the j-th value other than s's
 * own (j, or j + 1 from s's digit on).
 *
 * Links 0..N-1 are the nodes'.  Dimension d has M = k^(n-1) k (k - 1) / 2
 * links, one per pair of switches that differ in digit d only: link N +
 * d M + g k (k - 1) / 2 + p, g numbering the other digits (s without
 * digit d), p the pair of values (a < b) in the order (0,1), (0,2), ...,
 * (1,2), ...  The channel from a to b is the link's HN_UP.
 *
 * Routing is dimension order: in the lowest dimension whose digit
 * differs, one hop to the destination's digit, so a route crosses at most
 * n links between switches.  Channel ranks: 1 + 2 d from the lower digit,
 * 2 + 2 d from the higher, the node's 1 + 2 n; every route climbs them, so
 * it is deadlock-free.
 *
 * Zydallis's 2-hop detour around a dead link (notes C2.5), under faults
 * only (topo_fault.c: when the link a -> b of dimension d, or the way on
 * from b, is dead): a -> c -> b through a switch whose digit d is c >
 * max(a, b), so that a -> c climbs (rank 1 + 2 d) and c -> b comes down
 * (2 + 2 d) and the ranks still rise: ours, his text does not say how his
 * detour avoids deadlock.  A detour through a lower c would break them,
 * so a link with max(a, b) = k - 1 has none: its pairs are cut off.  At
 * most one detour a dimension, so a route crosses at most 2 n links.
 */
#include "topo.h"

struct gh {
	u32 n, k;
	u32 pairs;			/* k (k - 1) / 2 */
	u32 pw[HN_CUBE_MAX_DIMS + 1];	/* k^d */
};

static const struct gh *gh_of(const struct hn_topo *t)
{
	return t->priv;
}

static u32 digit(const struct gh *g, u32 s, u32 d)
{
	return hn_topo_digit(g->pw, g->k, s, d);
}

/* Port of a switch whose digit d is @c towards the value @v != @c. */
static u32 port_to(const struct gh *g, u32 d, u32 c, u32 v)
{
	return 1 + d * (g->k - 1) + (v < c ? v : v - 1);
}

/* The value port @port (not 0) of a switch with digit @c leads to. */
static u32 value_of(const struct gh *g, u32 port, u32 c)
{
	u32 j = (port - 1) % (g->k - 1);

	return j < c ? j : j + 1;
}

static u32 gh_route(const struct hn_topo *t, u32 sw, u32 dst)
{
	const struct gh *g = gh_of(t);
	u32 d, a, b;

	for (d = 0; d < g->n; d++) {
		a = digit(g, sw, d);
		b = digit(g, dst, d);
		if (a != b)
			return port_to(g, d, a, b);
	}
	return 0;
}

/*
 * The ports around a dead link: at @sw, whose lowest differing digit d is
 * a and @dst's b, to the switches whose digit d is c > max(a, b).  None
 * for a header that came in by a link of dimension d: dimension order
 * never does, only a detour's first hop, and a detour is two hops.
 */
static u32 gh_detour(const struct hn_topo *t, u32 sw, u32 dst, u32 in,
		     u32 *port, u32 max)
{
	const struct gh *g = gh_of(t);
	u32 d, a = 0, b = 0, c, n = 0;

	for (d = 0; d < g->n; d++) {
		a = digit(g, sw, d);
		b = digit(g, dst, d);
		if (a != b)
			break;
	}
	if (d == g->n || (in && in < t->radix && (in - 1) / (g->k - 1) == d))
		return 0;
	for (c = (a > b ? a : b) + 1; c < g->k && n < max; c++)
		port[n++] = port_to(g, d, a, c);
	return n;
}

static struct hn_tport gh_peer(const struct hn_topo *t, u32 sw, u32 port)
{
	const struct gh *g = gh_of(t);
	u32 d, c, v;

	if (sw >= t->nsw || port >= t->radix)
		return (struct hn_tport){ HN_NONE, HN_NONE };
	if (!port)
		return (struct hn_tport){ HN_TOPO_NODE, sw };
	d = (port - 1) / (g->k - 1);
	c = digit(g, sw, d);
	v = value_of(g, port, c);
	return (struct hn_tport){ sw - c * g->pw[d] + v * g->pw[d],
				  port_to(g, d, v, c) };
}

static struct hn_tport gh_attach(const struct hn_topo *t, u32 u)
{
	(void)t;
	return (struct hn_tport){ u, 0 };
}

static u32 gh_link(const struct hn_topo *t, u32 sw, u32 port)
{
	const struct gh *g = gh_of(t);
	u32 d, c, v, a, b, grp;

	if (sw >= t->nsw || port >= t->radix)
		return HN_NONE;
	if (!port)
		return sw;
	d = (port - 1) / (g->k - 1);
	c = digit(g, sw, d);
	v = value_of(g, port, c);
	a = c < v ? c : v;
	b = c < v ? v : c;
	grp = sw / g->pw[d + 1] * g->pw[d] + sw % g->pw[d];
	return t->nodes + d * g->pw[g->n - 1] * g->pairs + grp * g->pairs +
	       a * (2 * g->k - a - 1) / 2 + (b - a - 1);
}

static u32 gh_rank(const struct hn_topo *t, u32 sw, u32 port)
{
	const struct gh *g = gh_of(t);
	u32 d, c;

	if (!port)
		return 1 + 2 * g->n;
	d = (port - 1) / (g->k - 1);
	c = digit(g, sw, d);
	return 1 + 2 * d + (value_of(g, port, c) < c);
}

static const struct hn_topo_ops gh_ops = {
	.name = "gh",
	.route = gh_route,
	.peer = gh_peer,
	.attach = gh_attach,
	.link = gh_link,
	.detour = gh_detour,
	.rank = gh_rank,
	.fini = hn_topo_free_priv,
};

int hn_topo_gh(struct hn_topo *t, u32 n, u32 k, u64 link_ns, u32 link_mbps)
{
	struct gh *g;

	if (!n || n > HN_CUBE_MAX_DIMS || k < 2)
		return -EINVAL;
	g = hn_zalloc(sizeof(*g));
	if (!g)
		return -ENOMEM;
	g->n = n;
	g->k = k;
	g->pairs = k * (k - 1) / 2;
	if (hn_topo_powers(g->pw, n, k)) {
		hn_free(g);
		return -EINVAL;
	}
	*t = (struct hn_topo){
		.ops = &gh_ops,
		.kind = HN_TOPO_GH,
		.nodes = g->pw[n],
		.nsw = g->pw[n],
		.radix = 1 + n * (k - 1),
		.nlinks = g->pw[n] + n * g->pw[n - 1] * g->pairs,
		.max_hops = k > 2 ? 1 + 2 * n : 1 + n,	/* with detours */
		.levels = 1,
		.width = 1 + n * (k - 1),
		.acyclic = true,
		.link_mbps = link_mbps,
		.link_ns = link_ns,
		.priv = g,
	};
	return 0;
}
