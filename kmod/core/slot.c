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
 * On a topology whose switches feed switches a circuit is also a path:
 * the choices among equivalent ports it makes (a fat tree's up-port at
 * each level below its common-ancestor level H, Fig. 7.5's request entry;
 * none on a mesh, a torus or a GH, whose circuits take the topology's
 * route) and so the channels between switches it holds in its slot
 * (hn_topo_circuit(), hn_topo_chan()).  Each slot keeps its own channel
 * state, no channel held by two of its circuits (Sec. 7.3's Ulink/Dlink
 * on a fat tree, laid out by topo_ft.c as struct hn_ft's, so the fat
 * tree's schedulers route new circuits of slot s on s's state); the TDM
 * cycle stays one for the whole fabric.
 */
#include "engine.h"
#include "sched_int.h"		/* hn_set_bit() */

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
		hn_free(e->slot[s].pick);
		hn_free(e->slot[s].hops);
		hn_free(e->slot[s].busy);
	}
	hn_free(e->slot);
	hn_free(e->c_hop);
	hn_free(e->c_chan);
}

/* Slot @s's paths: no circuit, every channel free. */
static int paths_alloc(struct hn_engine *e, struct hn_slot *sl)
{
	const struct hn_topo *t = &e->topo;

	sl->pick = hn_zalloc((size_t)e->cfg.nodes * t->npick + 1);
	sl->hops = hn_zalloc(e->cfg.nodes * sizeof(*sl->hops));
	sl->busy = hn_zalloc(HN_WORDS(hn_topo_nchan(t)) * sizeof(u64));
	return sl->pick && sl->hops && sl->busy ? 0 : -ENOMEM;
}

/* K empty registers, plus one struct for the wormhole slot K. */
int hn_slots_alloc(struct hn_engine *e)
{
	u32 N = e->cfg.nodes, s, u;
	struct hn_slot *sl;

	e->slot = hn_zalloc((e->cfg.k + 1) * sizeof(*e->slot));
	if (!e->slot)
		return -ENOMEM;
	e->c_hop = hn_zalloc(e->topo.max_hops * sizeof(*e->c_hop));
	e->c_chan = hn_zalloc(e->topo.max_hops * sizeof(*e->c_chan));
	if (!e->c_hop || !e->c_chan)
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
		if (hn_paths(e) && paths_alloc(e, sl))
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

/* u's choices in slot @sl: t->npick of them */
static u8 *pick_of(const struct hn_engine *e, const struct hn_slot *sl, u32 u)
{
	return sl->pick + (size_t)u * e->topo.npick;
}

int hn_circuit_path(const struct hn_engine *e, u32 slot, u32 src, u8 *port,
		    u32 max)
{
	const struct hn_slot *sl;
	u32 used, i;

	if (!e->topo.npick || slot >= e->cfg.k || src >= e->cfg.nodes)
		return -EINVAL;
	sl = &e->slot[slot];
	if (sl->out[src] == HN_NONE)
		return -ENOENT;
	if (hn_topo_circuit(&e->topo, src, sl->out[src], pick_of(e, sl, src),
			    &used, e->c_hop, e->topo.max_hops) < 0)
		return -EIO;
	for (i = 0; i < used && i < max; i++)
		port[i] = pick_of(e, sl, src)[i];
	return used;
}

int hn_circuit_chans(const struct hn_engine *e, u32 u, u32 v, const u8 *pick)
{
	const struct hn_topo *t = &e->topo;
	int n, i;

	n = hn_topo_circuit(t, u, v, pick, NULL, e->c_hop, t->max_hops);
	for (i = 0; i + 1 < n; i++)
		e->c_chan[i] = hn_topo_chan(t, e->c_hop[i].sw,
					    e->c_hop[i].port);
	return n < 0 ? n : n - 1;
}

int hn_circuit_hops(const struct hn_engine *e, u32 s, u32 u)
{
	const struct hn_slot *sl = &e->slot[s];

	return hn_topo_circuit(&e->topo, u, sl->out[u],
			       sl->pick ? pick_of(e, sl, u) : NULL, NULL,
			       e->c_hop, e->topo.max_hops);
}

bool hn_slot_fits(const struct hn_engine *e, u32 s, u32 u, u32 v)
{
	const struct hn_slot *sl = &e->slot[s];
	int n, i;

	if (!sl->busy)
		return true;
	if (e->topo.npick)	/* its choices are its scheduler's */
		return false;
	n = hn_circuit_chans(e, u, v, NULL);
	for (i = 0; i < n; i++)
		if (hn_test_bit(sl->busy, e->c_chan[i]))
			return false;
	return n >= 0;
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
 * Take (@take) or give back the channels of u's circuit in slot @sl, its
 * path by its choices (hn_circuit_chans()): on a fat tree, Ulink and
 * Dlink at each level h below H by port pick[h] (Theorem 4).
 */
static void links(struct hn_engine *e, struct hn_slot *sl, u32 u, bool take)
{
	int n = hn_circuit_chans(e, u, sl->out[u], pick_of(e, sl, u)), i;

	for (i = 0; i < n; i++) {
		if (take)
			hn_set_bit(sl->busy, e->c_chan[i]);
		else
			hn_clear_bit(sl->busy, e->c_chan[i]);
	}
	sl->hops[u] = n > 0 ? n : 0;	/* n < 0: hn_check() says so */
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

/* u's circuit in slot @s, its links given back, takes the path @pick. */
void hn_slot_path(struct hn_engine *e, u32 s, u32 u, const u8 *pick)
{
	struct hn_slot *sl = &e->slot[s];

	memcpy(pick_of(e, sl, u), pick, e->topo.npick);
	links(e, sl, u, true);
}

/*
 * u's circuit in slot @s gives its channels back (@pick NULL) or takes
 * the path @pick in place of its own: a circuit a fault cut, routed again
 * (fault.c).  Usable from now on: not in a run of slot s in progress,
 * which the caller stops (hn_circuit_stop()); its data goes in the next
 * run, from what the runs before sent.
 */
void hn_slot_repath(struct hn_engine *e, u32 s, u32 u, const u8 *pick)
{
	struct hn_slot *sl = &e->slot[s];

	if (!pick) {
		links(e, sl, u, false);
		return;
	}
	hn_slot_path(e, s, u, pick);
	sl->valid_from[u] = hn_max64(sl->valid_from[u], e->now);
	circuit_changed(e);
}

/*
 * B^(s) gains u -> v, usable from @from; both ports are free in slot @s,
 * and so are the channels of its path with the choices @pick (NULL when
 * the topology's circuits make none).  A stream waiting for this circuit
 * is the caller's (hn_req_granted()).
 */
void hn_slot_add(struct hn_engine *e, u32 s, u32 u, u32 v, u64 from,
		 const u8 *pick)
{
	struct hn_slot *sl = &e->slot[s];

	sl->out[u] = v;
	sl->in[v] = u;
	sl->pos[u] = sl->nconn;
	sl->conn[sl->nconn++] = u;
	e->nconn_all++;
	sl->valid_from[u] = from;
	sl->last_use[u] = from;
	sl->use_at[u] = e->uses;
	if (sl->busy) {
		if (pick)
			memcpy(pick_of(e, sl, u), pick, e->topo.npick);
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
	if (sl->busy)
		links(e, sl, u, false);
	sl->out[u] = HN_NONE;
	sl->in[v] = HN_NONE;
	last = sl->conn[--sl->nconn];
	e->nconn_all--;
	sl->conn[sl->pos[u]] = last;
	sl->pos[last] = sl->pos[u];
}
