// SPDX-License-Identifier: GPL-2.0
/*
 * topo_cube.c - the k-ary n-cube, mesh or torus (Duato, Sec. 1.6.2), a
 * direct network: k^n switches, switch s the router of node s, whose
 * coordinates are the base-k digits of s (digit d: dimension d).  Port 0
 * is the node's; ports 1 + 2d and 2 + 2d lead to the neighbour in
 * dimension d whose digit is one more and one less (a mesh's edge ports
 * are unconnected, a torus wraps around).
 *
 * Links 0..N-1 are the nodes'.  The links of dimension d come next, M of
 * them each (M = k^n on a torus, k^(n-1) (k - 1) on a mesh), link N + d M
 * + q joining switch s by its + port to the switch one further: q = s on
 * a torus; on a mesh q numbers the switches whose digit d is below k - 1.
 * A link's channel in the + direction is its HN_UP.
 *
 * Routing is dimension order, minimal (Duato, Sec. 4.2): the lowest
 * dimension whose digit differs from the destination's, towards it; a
 * torus takes the shorter way round, + on a tie.  Channel ranks: in
 * dimension d the + channel leaving digit c ranks 1 + 2 d k + c, the -
 * channel leaving digit c ranks 1 + 2 d k + k + (k - 1 - c), the node's
 * 1 + 2 n k.  On a mesh every route climbs them, so dimension order is
 * deadlock-free (Dally and Seitz).  A torus's wrap-around channel breaks
 * the order: with one virtual channel, a ring of worms each waiting for
 * the next one's channel can form, and the deadlock detector reports it.
 * Against it, the dateline (Dally and Seitz; Duato, Sec. 4.2): a header
 * enters each ring in class 0 and takes class 1 from the wrap-around
 * channel on (cube_vc_class()), so that no ring closes in either class.
 */
#include "topo.h"

struct cube {
	u32 n, k;
	bool torus;
	u32 m;				/* links per dimension */
	u32 pw[HN_CUBE_MAX_DIMS + 1];	/* k^d */
};

static const struct cube *cube_of(const struct hn_topo *t)
{
	return t->priv;
}

static u32 digit(const struct cube *q, u32 s, u32 d)
{
	return hn_topo_digit(q->pw, q->k, s, d);
}

/* The switch whose digit d is @c, the others @s's. */
static u32 with_digit(const struct cube *q, u32 s, u32 d, u32 c)
{
	return s - digit(q, s, d) * q->pw[d] + c * q->pw[d];
}

/* The link from @s by its + port in dimension @d (one exists). */
static u32 plus_link(const struct hn_topo *t, u32 s, u32 d)
{
	const struct cube *q = cube_of(t);
	u32 hi = s / q->pw[d + 1], lo = s % q->pw[d];

	if (q->torus)
		return t->nodes + d * q->m + s;
	return t->nodes + d * q->m + hi * (q->k - 1) * q->pw[d] +
	       digit(q, s, d) * q->pw[d] + lo;
}

static u32 cube_route(const struct hn_topo *t, u32 sw, u32 dst)
{
	const struct cube *q = cube_of(t);
	u32 d, a, b, fwd;

	for (d = 0; d < q->n; d++) {
		a = digit(q, sw, d);
		b = digit(q, dst, d);
		if (a == b)
			continue;
		if (!q->torus)
			return b > a ? 1 + 2 * d : 2 + 2 * d;
		fwd = (b + q->k - a) % q->k;
		return fwd <= q->k - fwd ? 1 + 2 * d : 2 + 2 * d;
	}
	return 0;
}

/* The switch the port @port of @sw leads to, HN_NONE at a mesh's edge. */
static u32 next_sw(const struct cube *q, u32 sw, u32 port)
{
	u32 d = (port - 1) / 2, c = digit(q, sw, d);

	if (port % 2)		/* + */
		return c + 1 < q->k ? with_digit(q, sw, d, c + 1) :
		       q->torus ? with_digit(q, sw, d, 0) : HN_NONE;
	return c ? with_digit(q, sw, d, c - 1) :
	       q->torus ? with_digit(q, sw, d, q->k - 1) : HN_NONE;
}

static struct hn_tport cube_peer(const struct hn_topo *t, u32 sw, u32 port)
{
	u32 s;

	if (sw >= t->nsw || port >= t->radix)
		return (struct hn_tport){ HN_NONE, HN_NONE };
	if (!port)
		return (struct hn_tport){ HN_TOPO_NODE, sw };
	s = next_sw(cube_of(t), sw, port);
	if (s == HN_NONE)
		return (struct hn_tport){ HN_NONE, HN_NONE };
	return (struct hn_tport){ s, port % 2 ? port + 1 : port - 1 };
}

static struct hn_tport cube_attach(const struct hn_topo *t, u32 u)
{
	(void)t;
	return (struct hn_tport){ u, 0 };
}

static u32 cube_link(const struct hn_topo *t, u32 sw, u32 port)
{
	u32 s;

	if (sw >= t->nsw || port >= t->radix)
		return HN_NONE;
	if (!port)
		return sw;
	s = next_sw(cube_of(t), sw, port);
	if (s == HN_NONE)
		return HN_NONE;
	return plus_link(t, port % 2 ? sw : s, (port - 1) / 2);
}

static u32 cube_rank(const struct hn_topo *t, u32 sw, u32 port)
{
	const struct cube *q = cube_of(t);
	u32 d = (port - 1) / 2, c;

	if (!port)
		return 1 + 2 * q->n * q->k;
	c = digit(q, sw, d);
	return 1 + 2 * d * q->k +
	       (port % 2 ? c : q->k + (q->k - 1 - c));
}

/*
 * The dateline: a header entering dimension @out's ring (from its node
 * or another dimension) is in class 0, and from the wrap-around channel
 * on (the + channel leaving digit k - 1, the - channel leaving 0) in
 * class 1.  A minimal route never wraps twice in one ring.
 */
static u32 cube_vc_class(const struct hn_topo *t, u32 sw, u32 in, u32 out,
			 u32 cls)
{
	const struct cube *q = cube_of(t);
	u32 d = (out - 1) / 2, c;

	if (!q->torus || !out)
		return 0;
	if (!in || (in - 1) / 2 != d)
		cls = 0;
	c = digit(q, sw, d);
	return cls | (out % 2 ? c == q->k - 1 : c == 0);
}

static const struct hn_topo_ops cube_ops = {
	.name = "cube",
	.route = cube_route,
	.peer = cube_peer,
	.attach = cube_attach,
	.link = cube_link,
	.rank = cube_rank,
	.vc_class = cube_vc_class,
	.fini = hn_topo_free_priv,
};

int hn_topo_cube(struct hn_topo *t, u32 n, u32 k, bool torus, u64 link_ns,
		 u32 link_mbps)
{
	struct cube *q;

	if (!n || n > HN_CUBE_MAX_DIMS || k < 2)
		return -EINVAL;
	q = hn_zalloc(sizeof(*q));
	if (!q)
		return -ENOMEM;
	q->n = n;
	q->k = k;
	q->torus = torus;
	if (hn_topo_powers(q->pw, n, k)) {
		hn_free(q);
		return -EINVAL;
	}
	q->m = torus ? q->pw[n] : q->pw[n - 1] * (k - 1);
	*t = (struct hn_topo){
		.ops = &cube_ops,
		.kind = torus ? HN_TOPO_TORUS : HN_TOPO_MESH,
		.nodes = q->pw[n],
		.nsw = q->pw[n],
		.radix = 1 + 2 * n,
		.nlinks = q->pw[n] + n * q->m,
		.max_hops = 1 + n * (torus ? k / 2 : k - 1),
		.levels = 1,
		.width = 1 + 2 * n,
		.acyclic = !torus,
		.link_mbps = link_mbps,
		.link_ns = link_ns,
		.priv = q,
	};
	return 0;
}
