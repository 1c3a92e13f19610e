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
 */
#include "engine.h"

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
	}
	hn_free(e->slot);
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
 * B^(s) gains u -> v, usable from @from; both ports are free in slot @s.
 * A stream waiting for this circuit is the caller's (hn_req_granted()).
 */
void hn_slot_add(struct hn_engine *e, u32 s, u32 u, u32 v, u64 from)
{
	struct hn_slot *sl = &e->slot[s];

	sl->out[u] = v;
	sl->in[v] = u;
	sl->pos[u] = sl->nconn;
	sl->conn[sl->nconn++] = u;
	sl->valid_from[u] = from;
	sl->last_use[u] = from;
	sl->use_at[u] = e->uses;
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
	sl->out[u] = HN_NONE;
	sl->in[v] = HN_NONE;
	last = sl->conn[--sl->nconn];
	sl->conn[sl->pos[u]] = last;
	sl->pos[last] = sl->pos[u];
}
