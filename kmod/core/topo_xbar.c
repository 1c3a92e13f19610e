// SPDX-License-Identifier: GPL-2.0
/*
 * topo_xbar.c - the crossbar as a topology: Ding's one switch node with a
 * port per node (Secs. 3.2, 3.3).  Port p of switch 0 is node p's link, so
 * the output towards node d is port d, and a route crosses one switch.
 * The engine's data path (switch.c, nic.c) asks through topo.h's inline
 * helpers, which answer for the crossbar without calling in here.
 */
#include "topo.h"

static u32 xbar_route(const struct hn_topo *t, u32 sw, u32 dst)
{
	(void)t;
	(void)sw;
	return dst;
}

static struct hn_tport xbar_peer(const struct hn_topo *t, u32 sw, u32 port)
{
	if (sw || port >= t->nodes)
		return (struct hn_tport){ HN_NONE, HN_NONE };
	return (struct hn_tport){ HN_TOPO_NODE, port };
}

static struct hn_tport xbar_attach(const struct hn_topo *t, u32 u)
{
	(void)t;
	return (struct hn_tport){ 0, u };
}

static u32 xbar_link(const struct hn_topo *t, u32 sw, u32 port)
{
	return sw || port >= t->nodes ? HN_NONE : port;
}

/* into the switch 0, out of it 1 */
static u32 xbar_rank(const struct hn_topo *t, u32 sw, u32 port)
{
	(void)t;
	(void)sw;
	(void)port;
	return 1;
}

static const struct hn_topo_ops xbar_ops = {
	.name = "crossbar",
	.route = xbar_route,
	.peer = xbar_peer,
	.attach = xbar_attach,
	.link = xbar_link,
	.rank = xbar_rank,
};

void hn_topo_xbar(struct hn_topo *t, u32 nodes, u64 link_ns, u32 link_mbps)
{
	*t = (struct hn_topo){
		.ops = &xbar_ops,
		.kind = HN_TOPO_CROSSBAR,
		.nodes = nodes,
		.nsw = 1,
		.radix = nodes,
		.nlinks = nodes,
		.max_hops = 1,
		.levels = 1,
		.width = nodes,
		.acyclic = true,
		.link_mbps = link_mbps,
		.link_ns = link_ns,
	};
}
