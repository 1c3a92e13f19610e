// SPDX-License-Identifier: GPL-2.0
/*
 * wormhole.c - the wormhole slot S_W (slot id K).
 *
 * Inside S_W the fabric is configured packet by packet (L708, L717): each
 * input port, whenever it is free, serves the next non-empty virtual output
 * queue VQ_W of its round-robin ring (L595, Fig. 4.3 "continuing the
 * round-robin", L724) whose output is free, one worm of at most worm_bytes
 * at a time.  A worm costs wh_first_ns for its first flit (arbitration and
 * set-up included) and wh_flit_ns for each further flit (L1034), so a
 * k-worm message at zero load takes k (T_sch + T_setup) + T_packet in the
 * switch, as Eq. 3.3 (L523) has it.  A worm still running when S_W ends is
 * suspended in the switch buffers, holding its input and output, and
 * resumes first in the next S_W (DESIGN.md).
 *
 * The slot is simulated event by event: a min-heap of inputs ordered by the
 * time each is next free (ties broken by a rotating input priority).
 */
#include "engine.h"

/*
 * Heap keys: within a slot every time lies in [start, end] and end - start
 * is at most 1 s < 2^30 ns; the rotated input priority is below 4096, so
 * (time - start) << 12 | priority orders as (time, priority) does, in one
 * u64, and the input is recovered from its priority.
 */
#define PRIO_BITS	12

static void heap_push(struct hn_engine *e, u32 *n, u32 u, u64 start)
{
	u64 *h = e->heap, k;
	u32 i = (*n)++, p;

	HN_STATIC_ASSERT(HN_MAX_NODES <= 1 << PRIO_BITS);
	k = (e->node[u].in_free - start) << PRIO_BITS |
	    (u >= e->rr_base ? u - e->rr_base : u + e->cfg.nodes - e->rr_base);
	while (i && k < h[p = (i - 1) / 2]) {
		h[i] = h[p];
		i = p;
	}
	h[i] = k;
}

static u32 heap_pop(struct hn_engine *e, u32 *n)
{
	u64 *h = e->heap, top = h[0], last = h[--(*n)];
	u32 i = 0, c, prio;

	while ((c = 2 * i + 1) < *n) {
		if (c + 1 < *n && h[c + 1] < h[c])
			c++;
		if (last <= h[c])
			break;
		h[i] = h[c];
		i = c;
	}
	h[i] = last;
	prio = top & ((1u << PRIO_BITS) - 1);
	return prio + e->rr_base < e->cfg.nodes ? prio + e->rr_base :
	       prio + e->rr_base - e->cfg.nodes;
}

/* The worm at input @u finishes at @t. */
static void worm_done(struct hn_engine *e, u32 u, u64 t)
{
	struct hn_node *n = &e->node[u];
	struct hn_stream *st = n->worm.st;
	struct hn_msg *m = st->vq_w.head;

	n->worm.st = NULL;
	m->sent += n->worm.bytes;
	e->g.slot[e->cfg.k].bytes += n->worm.bytes;
	if (m->sent < m->len)
		return;
	hn_q_pop(&st->vq_w);
	n->sw_used -= m->len;
	e->wh_msgs--;
	if (!st->vq_w.count)
		hn_ring_del(n, st);
	hn_deliver(e, m, t + e->cfg.wire_ns + e->cfg.nic_ns,
		   HN_MODE_WORMHOLE, e->cfg.k);
	hn_stream_put(e, st);
	hn_nic_forward(e, u, t);
}

/*
 * Start the next worm at input @u at time @t, round robin over its ring.
 * Returns the time the input next needs attention, HN_U64_MAX for never.
 */
static u64 worm_start(struct hn_engine *e, u32 u, u64 t, u64 end)
{
	const struct hn_config *c = &e->cfg;
	struct hn_node *n = &e->node[u];
	struct hn_stream *st = n->ring, *first = st;
	u64 wake = HN_U64_MAX, fin;
	struct hn_node *o;
	struct hn_msg *m;
	u32 bytes, flits;

	if (!st)
		return wake;
	do {
		m = st->vq_w.head;
		o = &e->node[st->dst];
		if (m->t_ready > t) {
			wake = hn_min64(wake, m->t_ready);
		} else if (o->out_free > t) {
			if (o->out_held == HN_NONE)
				wake = hn_min64(wake, o->out_free);
		} else if (hn_rx_reserve(e, m)) {
			bytes = (u32)hn_min64(c->worm_bytes, m->len - m->sent);
			flits = (bytes + c->flit_bytes - 1) / c->flit_bytes;
			fin = t + c->wh_first_ns + (u64)(flits - 1) * c->wh_flit_ns;
			n->ring = st->rr_next;
			n->worm.st = st;
			n->worm.bytes = bytes;
			n->in_free = fin;
			o->out_free = fin;
			if (fin <= end)
				return fin;
			n->worm.ns_left = fin - end;
			o->out_held = u;
			e->worms++;
			return HN_U64_MAX;
		}
		st = st->rr_next;
	} while (st != first);
	return wake;
}

void hn_wormhole_slot(struct hn_engine *e, u64 start, u64 end)
{
	u64 t0 = start + e->cfg.guard_ns, wake;
	u32 N = e->cfg.nodes, u, i, nheap = 0;
	struct hn_node *n;

	e->rr_base = (e->rr_base + 1) % N;
	e->g.slot[e->cfg.k].cap_bytes += hn_ns_bytes(&e->cfg, end - t0) * N;
	for (u = 0; u < N; u++) {
		n = &e->node[u];
		n->out_free = n->out_held == HN_NONE ? t0 : HN_U64_MAX;
	}
	/* in priority order: inputs free at t0 enter the heap without sifting */
	for (i = 0; i < N; i++) {
		u = e->rr_base + i < N ? e->rr_base + i : e->rr_base + i - N;
		n = &e->node[u];
		n->in_free = t0;
		if (n->worm.st) {		/* resume a suspended worm */
			e->worms--;
			e->node[n->worm.st->dst].out_held = HN_NONE;
			n->in_free = t0 + n->worm.ns_left;
			e->node[n->worm.st->dst].out_free = n->in_free;
			if (n->in_free > end) {
				n->worm.ns_left = n->in_free - end;
				e->node[n->worm.st->dst].out_held = u;
				e->worms++;
				continue;
			}
		} else if (!n->ring) {
			continue;
		}
		heap_push(e, &nheap, u, start);
	}
	while (nheap) {
		u = heap_pop(e, &nheap);
		n = &e->node[u];
		if (n->worm.st)
			worm_done(e, u, n->in_free);
		if (n->in_free >= end)
			continue;
		wake = worm_start(e, u, n->in_free, end);
		if (n->worm.st ? wake != HN_U64_MAX : wake < end) {
			n->in_free = wake;
			heap_push(e, &nheap, u, start);
		}
	}
}
