// SPDX-License-Identifier: GPL-2.0
/*
 * event.c - the events of the slot in progress: an indexed min-heap of
 * inputs, each at the time it next needs attention.  In the wormhole slot
 * that is when its worm's tail leaves or when a header may go on
 * (switch.c, flit.c, drop.c); in a predictive slot, when the message its
 * circuit is sending has left (node->in_free, circuit_slot.c).  Equal times are broken by an input
 * priority that rotates with time (below).
 *
 * The heap is indexed (e->hpos[]) so that an input can be moved
 * when something arrives for it in the middle of a slot (a message
 * injected, a circuit released): the slot can be run in segments, and
 * what arrives between two segments takes part at once.
 *
 * The inputs are the nodes' (e->node[], the circuits) or every switch
 * input port of the fabric (switch.c: the nodes' first), e->nev of them;
 * the caller gives each input's time.
 *
 * Keys: every time lies in [ev_base, ev_base + 2^30 ns): a slot begins
 * with ev_base at its start and lasts at most 1 s < 2^30 ns, and a
 * wormhole slot that keeps its events past its end for the next one
 * (engine.c's soft boundaries) keeps them within HN_SOFT_AHEAD of it and
 * moves ev_base on before the times could reach 2^30 ns
 * (hn_ev_rebase()); priority and input are below 2^17 (HN_EV_MAX), so
 * (time - ev_base) << 34 | priority << 17 | input orders as (time,
 * priority) does, in one u64.
 *
 * Priority: among inputs due at the same time t, input f(t) = floor(t /
 * wh_flit_ns) mod nev goes first, then f(t) + 1, and so on: the pointer
 * of a rotating-priority arbiter that moves one input per flit time.  It
 * depends on the time alone, not on the slots, so a network without
 * predictive slots treats its inputs alike whatever the slot length.
 */
#include "engine.h"

#define IN_MASK		(HN_EV_MAX - 1)

/* The input with the highest priority at @t (cached: ties are common). */
static u32 first_at(struct hn_engine *e, u64 t)
{
	u64 q;

	if (t != e->rot_t) {
		q = hn_div(t, e->cfg.wh_flit_ns);
		e->rot_t = t;
		e->rot_f = (u32)(q - hn_div(q, e->nev) * e->nev);
	}
	return e->rot_f;
}

static u64 key_of(struct hn_engine *e, u32 u, u64 t)
{
	u32 n = e->nev, f = 0, p;

	HN_STATIC_ASSERT(HN_EV_SHIFT == 2 * HN_EV_BITS &&
			 HN_EV_MAX == 1u << HN_EV_BITS &&
			 HN_EV_MAX == HN_PORTS_MAX);
	if (e->cur == e->cfg.k)		/* circuits never tie for a port */
		f = first_at(e, t);
	p = u >= f ? u - f : u + n - f;
	return (t - e->ev_base) << HN_EV_SHIFT | (u64)p << HN_EV_BITS | u;
}

static u32 node_of(const struct hn_engine *e, u64 key)
{
	(void)e;
	return key & IN_MASK;
}

static void put(struct hn_engine *e, u32 i, u64 k)
{
	e->heap[i] = k;
	e->hpos[node_of(e, k)] = i;
}

static void sift_up(struct hn_engine *e, u32 i, u64 k)
{
	u32 p;

	while (i && k < e->heap[p = (i - 1) / 2]) {
		put(e, i, e->heap[p]);
		i = p;
	}
	put(e, i, k);
}

/*
 * Bottom-up: move the hole at @i down to a leaf along the smaller
 * children, then let @k rise from there.  A key that moves down usually
 * goes far (a worm's end is later than most events), so this costs about
 * one comparison per level instead of two.
 */
static void sift_down(struct hn_engine *e, u32 i, u64 k)
{
	u64 *h = e->heap;
	u32 c, n = e->nheap;

	while ((c = 2 * i + 1) < n) {
		if (c + 1 < n && h[c + 1] < h[c])
			c++;
		put(e, i, h[c]);
		i = c;
	}
	sift_up(e, i, k);
}

/* @u's event now has key @k: insert it, or move it there. */
static void set_key(struct hn_engine *e, u32 u, u64 k)
{
	u32 i = e->hpos[u];

	if (i == HN_NONE)
		sift_up(e, e->nheap++, k);
	else if (k == e->heap[i])
		return;			/* there already */
	else if (k < e->heap[i])
		sift_up(e, i, k);
	else
		sift_down(e, i, k);
}

/* @u's event is now at @t: insert it, or move it there. */
void hn_ev_set(struct hn_engine *e, u32 u, u64 t)
{
	set_key(e, u, key_of(e, u, t));
}

/*
 * Looks (switch.c's soft boundaries): the events at e->look_t of the
 * inputs that look for their next worm when S_W begins again there.
 * Each comes after every other event at that time, as the start of a
 * slot comes after the end of the one before, and among them in the
 * order of their priority: their priority is above every other's, by
 * e->nev (a single switch's e->nev, its nodes, is at most HN_EV_MAX / 2).
 */
void hn_ev_set_look(struct hn_engine *e, u32 u, u64 t)
{
	u64 k = key_of(e, u, t) + ((u64)e->nev << HN_EV_BITS), *h = e->heap;
	u32 i = e->hpos[u], c;

	if (i == HN_NONE || k <= h[i]) {
		set_key(e, u, k);
		return;
	}
	/* it goes below the events at t only, near the top: top-down */
	while ((c = 2 * i + 1) < e->nheap) {
		if (c + 1 < e->nheap && h[c + 1] < h[c])
			c++;
		if (k < h[c])
			break;
		put(e, i, h[c]);
		i = c;
	}
	put(e, i, k);
}

/* @u has no event any more. */
void hn_ev_del(struct hn_engine *e, u32 u)
{
	u32 i = e->hpos[u];
	u64 last;

	if (i == HN_NONE)
		return;
	e->hpos[u] = HN_NONE;
	last = e->heap[--e->nheap];
	if (i == e->nheap)
		return;
	if (i && last < e->heap[(i - 1) / 2])
		sift_up(e, i, last);
	else
		sift_down(e, i, last);
}

/* The input of the heap's entry @j (< e->nheap), in no order. */
u32 hn_ev_input(const struct hn_engine *e, u32 j)
{
	return node_of(e, e->heap[j]);
}

void hn_ev_clear(struct hn_engine *e)
{
	while (e->nheap)
		e->hpos[node_of(e, e->heap[--e->nheap])] = HN_NONE;
}

/*
 * The heap's times count from @base from now on (no event is before it):
 * every key moves by the same amount, so the order stays.
 */
void hn_ev_rebase(struct hn_engine *e, u64 base)
{
	u64 d = (base - e->ev_base) << HN_EV_SHIFT;
	u32 i;

	for (i = 0; i < e->nheap; i++)
		e->heap[i] -= d;
	e->ev_base = base;
}
