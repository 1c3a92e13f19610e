// SPDX-License-Identifier: GPL-2.0
/*
 * topo_ft.c - the fat tree FT(l, w) of Ch. 7 as a topology (Secs. 7.2,
 * 7.3; paper Secs. 2, 3), on fattree.c's construction: w^l nodes, l levels
 * of w^(l-1) switches of 2w ports.  Switch h * w^(l-1) + tau is SW(h, tau);
 * its ports 0..w-1 go down (to nodes at level 0), ports w..w+w-1 are its
 * up-ports 0..w-1, linked by Theorem 3's parent formula (unconnected at
 * the top level).  Links 0..w^l-1 are the nodes'; link w^l + (h w^(l-1) +
 * tau) w + p joins up-port p of SW(h, tau) to its parent.
 *
 * Routing is turnaround routing, up then down (Duato, Ch. 1's
 * bidirectional MINs and fat trees): a header climbs while its
 * destination is not below the switch it is in, taking any up-port (the
 * deterministic choice is digit h of the destination, which spreads the
 * destinations over the up-ports as d-mod-k routing does), and then comes
 * down the one way there is: down-port digit h of the destination at
 * level h.  That is Theorem 4: a route up through P_0..P_{H-1} comes down
 * through the same port numbers, since SW(h, delta_h) reaches its parent
 * delta_{h+1} by up-port P_h; H is the common-ancestor level of eqs.
 * 7.10-7.13.  Channel ranks rise along every route: up-channels of level
 * h rank 1 + h, down-channels leaving level h rank 2l - h.
 */
#include "topo.h"
#include "sched_int.h"

static const struct hn_ft *ft_of(const struct hn_topo *t)
{
	return t->priv;
}

/* dst is below SW(h, tau): their digits from h up agree */
static bool below(const struct hn_ft *ft, u32 h, u32 tau, u32 dst)
{
	return tau / ft->pw[h] == hn_ft_leafsw(ft, dst) / ft->pw[h];
}

static u32 ft_route(const struct hn_topo *t, u32 sw, u32 dst)
{
	const struct hn_ft *ft = ft_of(t);
	u32 h = sw / ft->nsw, tau = sw % ft->nsw;
	u32 digit = dst / ft->pw[h] % ft->w;

	return below(ft, h, tau, dst) ? digit : ft->w + digit;
}

static u32 ft_alts(const struct hn_topo *t, u32 sw, u32 dst, u32 *port,
		   u32 max)
{
	const struct hn_ft *ft = ft_of(t);
	u32 h = sw / ft->nsw, tau = sw % ft->nsw, p;

	if (below(ft, h, tau, dst)) {
		if (max)
			port[0] = dst / ft->pw[h] % ft->w;
		return 1;
	}
	for (p = 0; p < ft->w && p < max; p++)
		port[p] = ft->w + p;
	return ft->w;
}

static struct hn_tport ft_peer(const struct hn_topo *t, u32 sw, u32 port)
{
	const struct hn_ft *ft = ft_of(t);
	u32 h = sw / ft->nsw, tau = sw % ft->nsw, p;

	if (sw >= t->nsw || port >= 2 * ft->w)
		return (struct hn_tport){ HN_NONE, HN_NONE };
	if (port < ft->w) {
		if (!h)
			return (struct hn_tport){ HN_TOPO_NODE,
						  tau * ft->w + port };
		return (struct hn_tport){
			(h - 1) * ft->nsw + hn_ft_down(ft, h, tau, port),
			ft->w + tau % ft->w };
	}
	p = port - ft->w;
	if (h + 1 >= ft->l)
		return (struct hn_tport){ HN_NONE, HN_NONE };
	return (struct hn_tport){ (h + 1) * ft->nsw + hn_ft_up(ft, h, tau, p),
				  tau / ft->pw[h] % ft->w };
}

static struct hn_tport ft_attach(const struct hn_topo *t, u32 u)
{
	const struct hn_ft *ft = ft_of(t);

	return (struct hn_tport){ hn_ft_leafsw(ft, u), u % ft->w };
}

static u32 ft_link(const struct hn_topo *t, u32 sw, u32 port)
{
	const struct hn_ft *ft = ft_of(t);
	u32 h = sw / ft->nsw, tau = sw % ft->nsw;

	if (sw >= t->nsw || port >= 2 * ft->w)
		return HN_NONE;
	if (port >= ft->w)
		return h + 1 < ft->l ? ft->n + (h * ft->nsw + tau) * ft->w +
				       port - ft->w : HN_NONE;
	if (!h)
		return tau * ft->w + port;
	return ft->n + ((h - 1) * ft->nsw + hn_ft_down(ft, h, tau, port)) *
		       ft->w + tau % ft->w;
}

static u32 ft_rank(const struct hn_topo *t, u32 sw, u32 port)
{
	const struct hn_ft *ft = ft_of(t);
	u32 h = sw / ft->nsw;

	return port >= ft->w ? 1 + h : 2 * ft->l - h;
}

/*
 * A channel between switches as a bit of struct hn_ft's link words, so a
 * slot's channels read as Ulink and Dlink (ftroute.c): Ulink(h, tau, p),
 * up from SW(h, tau) by up-port p, is bit p of word h nsw + tau; the
 * Dlink down into that up-port is the same bit of word (l - 1 + h) nsw
 * + tau.
 */
static u32 ft_chan(const struct hn_topo *t, u32 sw, u32 port)
{
	const struct hn_ft *ft = ft_of(t);
	u32 h = sw / ft->nsw, tau = sw % ft->nsw;

	if (port >= ft->w)
		return (h * ft->nsw + tau) * 64 + port - ft->w;
	return ((ft->l - 2 + h) * ft->nsw + hn_ft_down(ft, h, tau, port)) *
	       64 + tau % ft->w;
}

static void ft_fini(struct hn_topo *t)
{
	hn_ft_destroy(t->priv);
	t->priv = NULL;
}

static const struct hn_topo_ops ft_ops = {
	.name = "fattree",
	.route = ft_route,
	.alts = ft_alts,
	.peer = ft_peer,
	.attach = ft_attach,
	.link = ft_link,
	.rank = ft_rank,
	.chan = ft_chan,
	.fini = ft_fini,
};

int hn_topo_ft(struct hn_topo *t, u32 levels, u32 width, u64 link_ns,
	       u32 link_mbps, struct hn_err *err)
{
	struct hn_ft *ft;
	int rc = hn_ft_create(levels, width, &ft, err);

	if (rc)
		return rc;
	*t = (struct hn_topo){
		.ops = &ft_ops,
		.kind = HN_TOPO_FATTREE,
		.nodes = ft->n,
		.nsw = levels * ft->nsw,
		.radix = 2 * width,
		.nlinks = levels * ft->n,
		.max_hops = 2 * levels - 1,
		.levels = levels,
		.width = width,
		.acyclic = true,
		.npick = levels - 1,
		.nchan = 2 * (levels - 1) * ft->nsw * 64,
		.link_mbps = link_mbps,
		.link_ns = link_ns,
		.priv = ft,
	};
	return 0;
}

u32 hn_topo_ft_level(const struct hn_topo *t, u32 link)
{
	return link / ft_of(t)->n;
}

void hn_topo_ft_sw(const struct hn_topo *t, u32 sw, u32 *h, u32 *tau)
{
	const struct hn_ft *ft = ft_of(t);

	*h = sw / ft->nsw;
	*tau = sw % ft->nsw;
}
