// SPDX-License-Identifier: GPL-2.0
/*
 * slot.c - the configuration registers B^(0..K-1) of predictive circuit
 * switching (Sec. 3.3): their storage, reading them, and setting or
 * clearing one connection.  A leaf: nothing here calls another file of
 * the engine, so what a change to a register means for the traffic (a
 * message re-tagged, a waiting request granted) is for the caller.
 *
 * Every B^(s) is a partial permutation at all times (Sec. 5.3.1): out[u] and in[v]
 * are kept as inverse maps, and a connection lives in at most one slot
 * (Table 5.1, Sec. 5.3.2: a requested connection already in B* is left alone).
 * B* = OR of the B^(s) is each NIC's Predicted Circuit Switching Table
 * (Sec. 3.4.1); NIC u's row is out[s][u] over the K slots, so the table
 * costs O(N K) memory, not O(N^2).
 *
 * Alongside each register: the list of its inputs with a circuit (conn[],
 * to visit them in O(connections)) and the list of those whose circuit has
 * data waiting (act[], what the slot must serve, see circuit_slot.c).
 *
 * On a fat tree a circuit is also a path: the up-port it takes at each
 * level below its common-ancestor level H (Fig. 7.5's request entry), and
 * by Theorem 4 the same port numbers coming down (Sec. 7.3).  Each slot
 * keeps its own link state Ulink/Dlink (Sec. 7.3) of the links its
 * circuits take, laid out as struct hn_ft's, so the scheduler routes new
 * circuits of slot s on s's state (hn_slot_links()); the TDM cycle stays
 * one for the whole tree.
 */
#include "engine.h"
#include "sched_int.h"		/* hn_ft_up(), hn_ft_h(), hn_ft_leafsw() */

void hn_slots_free(struct hn_engine *e)
{
	u32 s;

	if (!e->slot)
		return;
	for (s = 0; s < e->cfg.k; s++) {
		hn_free(e->slot[s].out);
		hn_free(e->slot[s].in);
		hn_free(e->slot[s].conn);
		hn_free(e->slot[s].pos);
		hn_free(e->slot[s].valid_from);
		hn_free(e->slot[s].last_use);
		hn_free(e->slot[s].use_at);
		hn_free(e->slot[s].act);
		hn_free(e->slot[s].apos);
		hn_free(e->slot[s].out2);
		hn_free(e->slot[s].port);
		hn_free(e->slot[s].up);
		hn_free(e->slot[s].down);
	}
	hn_free(e->slot);
}

/* Slot @s's fat-tree state: no circuit, every link free. */
static int links_alloc(struct hn_engine *e, struct hn_slot *sl)
{
	u32 L = e->cfg.levels - 1, nl = L * e->ft->nsw, i;

	if (!L)		/* one switch: no links between levels */
		return 0;
	sl->port = hn_zalloc(e->cfg.nodes * L);
	sl->up = hn_zalloc(nl * sizeof(u64));
	sl->down = hn_zalloc(nl * sizeof(u64));
	if (!sl->port || !sl->up || !sl->down)
		return -ENOMEM;
	for (i = 0; i < nl; i++) {
		sl->up[i] = e->ft->full;
		sl->down[i] = e->ft->full;
	}
	return 0;
}

/* K empty registers, plus one struct for the wormhole slot K. */
int hn_slots_alloc(struct hn_engine *e)
{
	u32 N = e->cfg.nodes, s, u;
	struct hn_slot *sl;

	e->slot = hn_zalloc((e->cfg.k + 1) * sizeof(*e->slot));
	if (!e->slot)
		return -ENOMEM;
	for (s = 0; s < e->cfg.k; s++) {
		sl = &e->slot[s];
		sl->out = hn_zalloc(N * sizeof(u32));
		sl->in = hn_zalloc(N * sizeof(u32));
		sl->conn = hn_zalloc(N * sizeof(u32));
		sl->pos = hn_zalloc(N * sizeof(u32));
		sl->valid_from = hn_zalloc(N * sizeof(u64));
		sl->last_use = hn_zalloc(N * sizeof(u64));
		sl->use_at = hn_zalloc(N * sizeof(u64));
		sl->act = hn_zalloc(N * sizeof(u32));
		sl->apos = hn_zalloc(N * sizeof(u32));
		sl->out2 = hn_zalloc(N * sizeof(u32));
		if (!sl->out || !sl->in || !sl->conn || !sl->pos ||
		    !sl->valid_from || !sl->last_use || !sl->use_at ||
		    !sl->act || !sl->apos || !sl->out2)
			return -ENOMEM;
		if (e->ft && links_alloc(e, sl))
			return -ENOMEM;
		for (u = 0; u < N; u++) {
			sl->out[u] = HN_NONE;
			sl->in[u] = HN_NONE;
			sl->apos[u] = HN_NONE;
			sl->out2[u] = HN_NONE;
		}
	}
	return 0;
}

u32 hn_pcs_slot(const struct hn_engine *e, u32 src, u32 dst)
{
	u32 s;

	if (src >= e->cfg.nodes)
		return HN_NONE;
	for (s = 0; s < e->cfg.k; s++)
		if (e->slot[s].out[src] == dst)
			return s;
	return HN_NONE;
}

u32 hn_circuit(const struct hn_engine *e, u32 slot, u32 src)
{
	if (slot >= e->cfg.k || src >= e->cfg.nodes)
		return HN_NONE;
	return e->slot[slot].out[src];
}

int hn_circuit_path(const struct hn_engine *e, u32 slot, u32 src, u8 *port,
		    u32 max)
{
	const struct hn_slot *sl;
	u32 H, h;

	if (!e->ft || slot >= e->cfg.k || src >= e->cfg.nodes)
		return -EINVAL;
	sl = &e->slot[slot];
	if (sl->out[src] == HN_NONE)
		return -ENOENT;
	H = hn_ft_h(e->ft, hn_ft_leafsw(e->ft, src),
		    hn_ft_leafsw(e->ft, sl->out[src]));
	for (h = 0; h < H && h < max; h++)
		port[h] = sl->port[src * (e->cfg.levels - 1) + h];
	return H;
}

/* Changes whenever any B^(s) changes, for consistent dumps; never 0. */
u32 hn_circuit_gen(const struct hn_engine *e)
{
	return e->circuit_gen;
}

static void circuit_changed(struct hn_engine *e)
{
	e->circuit_gen = e->circuit_gen + 1 ? e->circuit_gen + 1 : 1;
}

/*
 * Take (@take) or give back the links of u's circuit in slot @s: Ulink
 * and Dlink at each level h below H, by port port[h] (Theorem 4).
 */
static void links(struct hn_engine *e, struct hn_slot *sl, u32 u, bool take)
{
	const struct hn_ft *ft = e->ft;
	u32 L = ft->l - 1, a, b, h, H, p;
	u64 bit;

	if (!L)
		return;
	a = hn_ft_leafsw(ft, u);
	b = hn_ft_leafsw(ft, sl->out[u]);
	H = hn_ft_h(ft, a, b);
	for (h = 0; h < H; h++) {
		p = sl->port[u * L + h];
		bit = 1ULL << p;
		if (take) {
			sl->up[h * ft->nsw + a] &= ~bit;
			sl->down[h * ft->nsw + b] &= ~bit;
		} else {
			sl->up[h * ft->nsw + a] |= bit;
			sl->down[h * ft->nsw + b] |= bit;
		}
		a = hn_ft_up(ft, h, a, p);
		b = hn_ft_up(ft, h, b, p);
	}
}

/* Copy slot @s's link state into @ft, for the scheduler to route on. */
void hn_slot_links(const struct hn_engine *e, u32 s, struct hn_ft *ft)
{
	u32 nl = (ft->l - 1) * ft->nsw;

	memcpy(ft->up, e->slot[s].up, nl * sizeof(u64));
	memcpy(ft->down, e->slot[s].down, nl * sizeof(u64));
}

/*
 * Give back the links of every circuit of slot @s, to route them all
 * again (hn_slot_path() each, before anything else reads the slot).
 */
void hn_slot_unroute(struct hn_engine *e, u32 s)
{
	struct hn_slot *sl = &e->slot[s];
	u32 i;

	for (i = 0; i < sl->nconn; i++)
		links(e, sl, sl->conn[i], false);
	circuit_changed(e);
}

/* u's circuit in slot @s, its links given back, takes the path @port. */
void hn_slot_path(struct hn_engine *e, u32 s, u32 u, const u8 *port)
{
	struct hn_slot *sl = &e->slot[s];
	u32 L = e->cfg.levels - 1;

	memcpy(sl->port + u * L, port, L);
	links(e, sl, u, true);
}

/*
 * B^(s) gains u -> v, usable from @from; both ports are free in slot @s,
 * and on a fat tree the links of the path @port.  A stream waiting for
 * this circuit is the caller's (hn_req_granted()).
 */
void hn_slot_add(struct hn_engine *e, u32 s, u32 u, u32 v, u64 from,
		 const u8 *port)
{
	struct hn_slot *sl = &e->slot[s];

	sl->out[u] = v;
	sl->in[v] = u;
	sl->pos[u] = sl->nconn;
	sl->conn[sl->nconn++] = u;
	sl->valid_from[u] = from;
	sl->last_use[u] = from;
	sl->use_at[u] = e->uses;
	if (sl->port) {
		memcpy(sl->port + u * (e->cfg.levels - 1), port,
		       e->cfg.levels - 1);
		links(e, sl, u, true);
	}
	circuit_changed(e);
}

/* u's circuit in slot s has data waiting: the slot must visit it. */
void hn_slot_wake(struct hn_engine *e, u32 s, u32 u)
{
	struct hn_slot *sl = &e->slot[s];

	if (sl->apos[u] != HN_NONE)
		return;
	sl->apos[u] = sl->nact;
	sl->act[sl->nact++] = u;
}

/* u's circuit in slot s has nothing waiting any more. */
void hn_slot_sleep(struct hn_engine *e, u32 s, u32 u)
{
	struct hn_slot *sl = &e->slot[s];
	u32 last;

	if (sl->apos[u] == HN_NONE)
		return;
	last = sl->act[--sl->nact];
	sl->act[sl->apos[u]] = last;
	sl->apos[last] = sl->apos[u];
	sl->apos[u] = HN_NONE;
}

/*
 * B^(s) loses u's connection.  Messages still waiting for it are the
 * caller's (hn_circuit_drop() re-tags them first).
 */
void hn_slot_del(struct hn_engine *e, u32 s, u32 u)
{
	struct hn_slot *sl = &e->slot[s];
	u32 v = sl->out[u], last;

	hn_slot_sleep(e, s, u);
	circuit_changed(e);
	if (sl->port)
		links(e, sl, u, false);
	sl->out[u] = HN_NONE;
	sl->in[v] = HN_NONE;
	last = sl->conn[--sl->nconn];
	sl->conn[sl->pos[u]] = last;
	sl->pos[last] = sl->pos[u];
}
