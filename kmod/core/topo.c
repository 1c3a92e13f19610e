// SPDX-License-Identifier: GPL-2.0
/*
 * topo.c - what every topology shares (topo.h): which of the output ports
 * a header may take it takes, the walk of a route from node to node,
 * hop by hop, as a header makes it, and a circuit's path and channels.
 */
#include "topo.h"

void hn_topo_fini(struct hn_topo *t)
{
	if (!t)
		return;
	hn_topo_fault_fini(t);
	if (t->ops && t->ops->fini)
		t->ops->fini(t);
}

/* the least occupied of @port[0..n), ties to @det, then to the lowest */
static u32 least(u32 sw, const u32 *port, u32 n, u32 det,
		 struct hn_upsel_arg *a)
{
	u32 best = det, occ = a->occ(a->ctx, sw, det), o, i;

	for (i = 0; i < n; i++) {
		o = a->occ(a->ctx, sw, port[i]);
		if (o < occ) {
			occ = o;
			best = port[i];
		}
	}
	return best;
}

void hn_topo_free_priv(struct hn_topo *t)
{
	hn_free(t->priv);
	t->priv = NULL;
}

int hn_topo_powers(u32 *pw, u32 n, u32 k)
{
	u32 d;

	pw[0] = 1;
	for (d = 0; d < n; d++) {
		if (pw[d] > HN_MAX_NODES / k)
			return -EINVAL;
		pw[d + 1] = pw[d] * k;
	}
	return 0;
}

/*
 * The output port at switch @sw towards node @dst, chosen as @a says
 * among those ops->alts allows; HN_NONE when an explicit choice is
 * missing or out of range.
 */
u32 hn_topo_choose(const struct hn_topo *t, u32 sw, u32 dst,
		   struct hn_upsel_arg *a)
{
	u32 port[HN_TOPO_MAX_ALTS], n, det = t->ops->route(t, sw, dst), i;

	if (t->fault && a->mode != HN_UPSEL_EXPLICIT) {
		/*
		 * among the live ways (topo_fault.c), ops->route's first,
		 * else ops->detour's
		 */
		n = hn_topo_live_ports(t, sw, dst, det, a, port);
		if (!n)
			return det;
		det = port[0];
		if (n == 1 || a->mode == HN_UPSEL_DET)
			return det;
	} else {
		if (!t->ops->alts || a->mode == HN_UPSEL_DET)
			return det;
		n = t->ops->alts(t, sw, dst, port, HN_TOPO_MAX_ALTS);
		if (n <= 1)
			return det;
		n = n < HN_TOPO_MAX_ALTS ? n : HN_TOPO_MAX_ALTS;
	}
	switch (a->mode) {
	case HN_UPSEL_RANDOM:
		return port[hn_rand_below(a->seed, n)];
	case HN_UPSEL_ADAPTIVE:
		return least(sw, port, n, det, a);
	default:
		i = a->used++;
		if (i >= a->npick || a->pick[i] >= n)
			return HN_NONE;
		return port[a->pick[i]];
	}
}

/*
 * The route from node @src to node @dst: (switch, output port) of each
 * hop into @hop, at most @max.  Returns the number of hops, or -EINVAL
 * (a node out of range, a choice missing), -ELOOP (more hops than the
 * longest route has, or a port leading nowhere), -ENOSPC.
 */
int hn_topo_path(const struct hn_topo *t, u32 src, u32 dst,
		 struct hn_upsel_arg *a, struct hn_tport *hop, u32 max)
{
	struct hn_tport at;
	u32 n = 0, p;

	if (src >= t->nodes || dst >= t->nodes)
		return -EINVAL;
	at = t->ops->attach(t, src);
	for (;;) {
		if (n >= t->max_hops)
			return -ELOOP;
		if (hop && n >= max)
			return -ENOSPC;
		a->in = at.port;
		p = hn_topo_choose(t, at.sw, dst, a);
		if (p == HN_NONE)
			return -EINVAL;
		if (hop)
			hop[n] = (struct hn_tport){ at.sw, p };
		n++;
		at = t->ops->peer(t, at.sw, p);
		if (at.sw == HN_TOPO_NODE)
			return at.port == dst ? (int)n : -ELOOP;
		if (at.sw == HN_NONE)
			return -ELOOP;
	}
}

int hn_topo_circuit(const struct hn_topo *t, u32 src, u32 dst,
		    const u8 *pick, u32 *used, struct hn_tport *hop, u32 max)
{
	struct hn_upsel_arg a = {
		.mode = t->npick ? HN_UPSEL_EXPLICIT : HN_UPSEL_DET,
		.pick = pick,
		.npick = pick ? t->npick : 0,
	};
	int n = hn_topo_path(t, src, dst, &a, hop, max);

	if (used)
		*used = a.used;
	return n;
}

u32 hn_topo_chan(const struct hn_topo *t, u32 sw, u32 port)
{
	if (t->ops->chan)
		return t->ops->chan(t, sw, port);
	return t->ops->link(t, sw, port) +
	       (t->ops->peer(t, sw, port).sw < sw ? t->nlinks : 0);
}
