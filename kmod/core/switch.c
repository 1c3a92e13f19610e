// SPDX-License-Identifier: GPL-2.0
/*
 * switch.c - packets across the switches of a topology (docs/model.md
 * "Topologies"), in the wormhole slot: every fabric, the crossbar a
 * single switch whose port p is node p's link (the flit router, flit.c,
 * and drop on block, drop.c, use parts of it).
 *
 * Every input port of every switch has a buffer (f->buf: vc_flits flits,
 * or sw_buf_bytes at a node's input or when vc_flits is 0) whose
 * worms wait in virtual output queues, one per output port of its switch
 * (kept as one list in order of arrival; a worm waits behind the earlier
 * ones to its output only).  A node's input is its VQ_W, whose queues are
 * per destination (Sec. 3.3.1).  An input sends one worm at a time: of
 * the queue heads whose header is in, whose output is free and whose
 * credit suffices (flow.c), the first in round-robin order of outputs
 * after the one it served last.  Ties in time between inputs go by
 * event.c's rotating priority, the arbiter of every output.  Every link
 * has credits: the sender counts the bytes claimed in the input buffer
 * it feeds, a worm claims them when its header crosses and gives them
 * back when its tail leaves that buffer.
 *
 * A worm's header is routed at each switch it reaches (hn_topo_choose():
 * by destination digit, random, or the least occupied up-port), when the
 * input first looks at it.  It holds its input and output from when it
 * takes them until its tail has left; a header that cannot go on stays
 * where it is, and its worm keeps what it holds in every switch behind.
 * The model moves whole worms, not flits: an input's events are the
 * moment its worm's tail leaves and the moments a header may go on; when
 * the tail leaves is computed from where the header went and what the
 * worm claimed ahead (flow.c), so that with nothing in the way the
 * latency is Duato's base latency exactly.
 *
 * The receiver's room for the whole message is reserved before its
 * first worm leaves the first switch (the consumption assumption).  At
 * the end of S_W every worm stays where it is, holding what it holds; the
 * next S_W moves every time still to come by the time between them.  A
 * soft end (engine.c) keeps the events for the next S_W instead, and only
 * the inputs on the stash look when it begins (hn_sw_resume()).
 */
#include "engine.h"

/* ---- worms: made when a message is injected, so never missing later */

/* Bytes of switch.c's worms that one more message of @len bytes may take. */
u64 hn_sw_msg_mem(const struct hn_engine *e, u32 len)
{
	return hn_msg_worms(&e->cfg, len) * e->fab->wsize;
}

/*
 * hn_sw_reserve() finds too few worms for @need: make more, each
 * allocation at least 64 of them, as many as the allocator's rounding
 * gives room for.  They stay, for the next messages, until hn_trim() or
 * the engine goes.
 */
int hn_sw_grow(struct hn_engine *e, u64 need)
{
	struct hn_fab *f = e->fab;
	u64 k = hn_max64(64, need - f->wcap), i, bytes;
	struct hn_fworm *w;
	void **chunk;

	bytes = hn_alloc_size(sizeof(void *) + k * f->wsize);
	k = hn_div(bytes - sizeof(void *), f->wsize);
	chunk = hn_zalloc(bytes);
	if (!chunk)
		return -ENOMEM;
	*chunk = f->chunks;
	f->chunks = chunk;
	for (i = 0; i < k; i++) {
		w = (struct hn_fworm *)((char *)(chunk + 1) + i * f->wsize);
		w->next = f->free;
		f->free = w;
	}
	f->wcap += k;
	return 0;
}

/*
 * @m leaves the engine, delivered by a circuit (circuit_slot.c) or by its
 * last worm (arrive()): the worms it may have held are needed no more.
 */
void hn_sw_unreserve(struct hn_engine *e, const struct hn_msg *m)
{
	e->fab->wneed -= hn_msg_worms(&e->cfg, m->len);
}

/* Nothing is in the engine: give the worms' memory back. */
void hn_sw_trim(struct hn_engine *e)
{
	struct hn_fab *f = e->fab;
	void **c;
	u32 i = 0;

	if (!f || f->wneed)
		return;
	while ((c = f->chunks)) {
		f->chunks = *c;
		hn_free(c);
		if (!(++i % 64))
			hn_resched();
	}
	f->free = NULL;
	f->wcap = 0;
}

static struct hn_fworm *worm_get(struct hn_fab *f)
{
	struct hn_fworm *w = f->free;

	f->free = w->next;
	f->wused++;
	w->next = NULL;
	return w;
}

static void worm_put(struct hn_fab *f, struct hn_fworm *w)
{
	w->next = f->free;
	f->free = w;
	f->wused--;
}

/* @w is needed no more: a dropped worm (drop.c) */
void hn_sw_worm_free(struct hn_engine *e, struct hn_fworm *w)
{
	worm_put(e->fab, w);
}

/* ---- events: an input's, in the heap during S_W, else on the stash */

/*
 * The heap is S_W's: in progress, or kept past a soft end for the next
 * (engine.c); else it is circuits', or no slot runs.
 */
static bool in_sw(const struct hn_engine *e)
{
	return e->cur == e->cfg.k && (e->in_slot || e->w_carry);
}

/* Input @i looks when S_W next begins, whatever event it has till then. */
static void look_next(struct hn_engine *e, u32 i)
{
	struct hn_fab *f = e->fab;

	if (!f->in[i].stash) {
		f->in[i].stash = 1;
		f->stash[f->nstash++] = i;
	}
}

/* Input @i waits on the stash for S_W to begin (drop.c's too). */
void hn_sw_stash(struct hn_engine *e, u32 i)
{
	if (in_sw(e))
		hn_ev_del(e, i);
	look_next(e, i);
}

/*
 * Can an input's look for the next S_W at a soft boundary wait in the
 * heap as a look (event.c) rather than on the stash?  Where no input
 * waits for another's worm to go (no credit, no waiter: one switch), a
 * look comes after every other event at its time, in order of priority,
 * as the stash's inputs would when S_W begins there.
 */
static bool may_look(const struct hn_fab *f)
{
	/* a look's key holds its priority + e->nev: one switch's, N's */
	HN_STATIC_ASSERT(HN_EV_MAX / 2 >= HN_MAX_NODES);
	return !f->wait && !f->fl && !f->dr;
}

/*
 * Input @i needs attention at @t; @on: the heap is S_W's (in_sw(), known
 * to every caller inside an event).
 */
static inline void ev_at(struct hn_engine *e, u32 i, u64 t, bool on)
{
	t = hn_max64(t, e->now);
	if (on && e->hpos[i] != HN_NONE && e->fab->in[i].t == t)
		return;			/* there already */
	e->fab->in[i].t = t;
	if (on && (t <= e->slot_end || hn_keep_past(e, t))) {
		if (t == e->look_t && may_look(e->fab))	/* with the looks */
			hn_ev_set_look(e, i, t);
		else
			hn_ev_set(e, i, t);
		return;
	}
	if (e->w_carry)		/* the soft end turns out hard */
		hn_sw_harden(e);
	hn_sw_stash(e, i);
}

/* Input @i needs attention at @t (drop.c's too). */
void hn_sw_ev_at(struct hn_engine *e, u32 i, u64 t)
{
	ev_at(e, i, t, in_sw(e));
}

/* Idle input @i may send from @t: bring its event forward (@on: ev_at()). */
static void arm_on(struct hn_engine *e, u32 i, u64 t, bool on)
{
	struct hn_iport *in = &e->fab->in[i];

	if (in->cur)
		return;			/* it looks when its worm has left */
	t = hn_max64(t, e->now);
	if (on && e->hpos[i] != HN_NONE && in->t <= t)
		return;
	ev_at(e, i, t, on);
}

static void arm(struct hn_engine *e, u32 i, u64 t)
{
	arm_on(e, i, t, in_sw(e));
}

static void wait_on(struct hn_fab *f, u32 o, u32 i)
{
	u32 p = f->in[i].port;

	f->wait[o * f->words + p / 64] |= 1ULL << (p % 64);
}

/* Output @o is free, or has more credit, from @t: its waiters look. */
static void wake(struct hn_engine *e, u32 o, u64 t)
{
	struct hn_fab *f = e->fab;
	u64 *w, b;
	u32 j, base;

	if (!f->wait || o == HN_NONE)
		return;
	w = &f->wait[o * f->words];
	base = o - o % f->radix;
	for (j = 0; j < f->words; j++) {
		while ((b = w[j])) {
			w[j] = b & (b - 1);
			arm(e, f->in_of[base + j * 64 + hn_ctz64(b)], t);
		}
	}
}

/* ---- routing */

static u32 occ_of(void *ctx, u32 sw, u32 port)
{
	const struct hn_fab *f = ctx;
	u32 d = f->out[sw * f->radix + port].down;

	return d == HN_NONE ? 0 : f->in[d].used;
}

/* route() where there is a port to choose */
static u32 choose(struct hn_engine *e, u32 i, u32 dst)
{
	struct hn_fab *f = e->fab;
	u32 sw = f->in[i].sw;
	struct hn_upsel_arg a = {
		.mode = e->cfg.up_select,
		.seed = &f->seed,
		.occ = occ_of,
		.ctx = f,
		.detour = true,
		.in = f->in[i].port,
	};

	return sw * f->radix + hn_topo_choose(&e->topo, sw, dst, &a);
}

/* The output a header that came in by input @i towards @dst takes. */
static inline u32 route(struct hn_engine *e, u32 i, u32 dst)
{
	struct hn_fab *f = e->fab;
	u32 sw = f->in[i].sw;

	if (!hn_topo_fixed(&e->topo, e->cfg.up_select))
		return choose(e, i, dst);
	return sw * f->radix + hn_topo_out(&e->topo, sw, dst);
}

u32 hn_sw_route(struct hn_engine *e, u32 i, u32 dst)
{
	return route(e, i, dst);
}

/* ---- a worm's progress */

/*
 * Hop @h's tail leaves at @fin (not before now): its flits move until
 * then, and its output frees then, those waiting for it looking.
 */
static void hop_fin(struct hn_engine *e, struct hn_fhop *h, u64 fin)
{
	struct hn_fab *f = e->fab;

	h->fin = hn_max64(fin, e->now);
	if (h->fin > f->moved)
		f->moved = h->fin;
	f->out[h->out].busy = h->fin;
	if (f->wait)		/* a single switch has no waiters */
		wake(e, h->out, h->fin);
}

/*
 * The hops of @w whose tail time has become known: each frees its
 * output then, and the input sending it looks again then.
 */
static void resolve(struct hn_engine *e, struct hn_fworm *w)
{
	const struct hn_config *c = &e->cfg;
	struct hn_fab *f = e->fab;
	struct hn_fhop *h;
	u64 ta, fin;
	u32 k;

	for (k = w->tl; k < w->nh; k++) {
		h = &w->hop[k];
		if (h->fin != HN_U64_MAX)
			continue;
		if (k && h[-1].fin == HN_U64_MAX)
			return;
		ta = k ? h[-1].fin + f->lat :
		     hn_tail_at(c, w->m, w->off + w->bytes);
		fin = hn_flow_tail(c, w, k, ta);
		if (fin == HN_U64_MAX)
			return;
		hop_fin(e, h, fin);
		hn_sw_ev_at(e, h->in, h->fin);
		if (k + 1 == w->nh && k != w->last &&
		    hn_flow_store_in(e, w->m, h[1].in))
			arm(e, h[1].in, h->fin + f->lat);
	}
}

/*
 * Input @i sends @w, whose header is at hop w->nh and routed, from @t:
 * it holds the input and the output until its tail has left; its header
 * claims room in the next input buffer and reaches it one flit and the
 * link later.
 */
static void take(struct hn_engine *e, u32 i, struct hn_fworm *w, u64 t)
{
	const struct hn_config *c = &e->cfg;
	struct hn_fab *f = e->fab;
	struct hn_iport *in = &f->in[i], *d;
	u32 k = w->nh;
	struct hn_fhop *h = &w->hop[k];
	struct hn_oport *op = &f->out[h->out];
	u64 since = k ? hn_max64(w->at, in->last) : w->at;

	if (hn_flow_store(e, w->m, in->sw))	/* routed once all of it is in */
		since = hn_max64(since, k ? h[-1].fin + f->lat :
				 hn_tail_at(c, w->m, w->off + w->bytes));
	h->s = t;
	h->e = t + c->wh_first_ns - c->wh_flit_ns;
	if (c->wh_overlap)	/* arbitrated while its header waited */
		h->e = hn_max64(t, since + c->wh_first_ns - c->wh_flit_ns);
	h->fin = HN_U64_MAX;
	in->cur = w;
	in->hop = k;
	in->blocked_ns += t - hn_min64(since, t);
	w->nh = k + 1;
	w->stalled = 0;
	if (op->down == HN_NONE && !k) {
		/* node to node, its one hop: its tail time known now */
		u64 ta = hn_tail_at(c, w->m, w->off + w->bytes);

		w->last = 0;
		hop_fin(e, h, hn_flow_tail(c, w, 0, ta));
		return;		/* event() sets @i's event then */
	}
	op->busy = HN_U64_MAX;
	if (op->down == HN_NONE) {
		w->last = k;
	} else {
		d = &f->in[op->down];
		h[1].in = op->down;
		h[1].out = HN_NONE;
		h[1].fin = HN_U64_MAX;
		h[1].claim = hn_flow_claim(c, w->bytes,
					   f->buf - d->used);
		hn_hold(d, t, h[1].claim);
		w->at = h->e + c->wh_flit_ns + f->lat;
		if (w->at > f->moved)		/* its header crosses the link */
			f->moved = w->at;
		if (d->tail)
			d->tail->next = w;
		else
			d->head = w;
		d->tail = w;
		arm(e, op->down, w->at);
	}
	resolve(e, w);
}

/*
 * May a worm of @bytes of @m whose tail is at the switch from @ta leave input
 * @i by output @o at @t?  If not, when to look again goes into @wake, or
 * the input waits for the output (wake()).  Inline: it is asked for every
 * queue an input looks at, and most answers are the first test's.
 */
static inline bool ready(struct hn_engine *e, u32 i, u32 o,
			 const struct hn_msg *m, u32 bytes, u64 ta, u64 t,
			 u64 *wake_t, u8 *stalled)
{
	struct hn_fab *f = e->fab;
	struct hn_oport *op = &f->out[o];

	if (op->busy > t) {
		if (op->busy != HN_U64_MAX)
			*wake_t = hn_min64(*wake_t, op->busy);
		else
			wait_on(f, o, i);
		return false;
	}
	if (op->down != HN_NONE &&
	    f->buf - f->in[op->down].used <
	    hn_flow_need(e, m, o, bytes)) {
		wait_on(f, o, i);
		if (!*stalled) {
			*stalled = 1;
			f->in[i].stalls++;
			op->stalls++;
		}
		return false;
	}
	if (ta > t) {
		if (ta != HN_U64_MAX)
			*wake_t = hn_min64(*wake_t, ta);
		return false;
	}
	return true;
}

/*
 * Node @u's input starts the next worm of the message at the head of
 * @st's VQ_W, its receiver's room reserved (switch.c's and flit.c's).
 */
static inline struct hn_fworm *worm_new(struct hn_engine *e, u32 u,
					struct hn_stream *st)
{
	const struct hn_config *c = &e->cfg;
	struct hn_msg *m = st->vq_w.head;
	struct hn_fworm *w;

	hn_rx_reserve(e, m);
	e->node[u].rr_last = st->dst;
	w = worm_get(e->fab);
	w->m = m;
	w->st = st;
	w->off = m->sent;
	w->bytes = (u32)hn_min64(c->worm_bytes, m->len - m->sent);
	w->flits = w->bytes == c->worm_bytes ? e->fab->worm_flits :
		   (w->bytes + c->flit_bytes - 1) / c->flit_bytes;
	w->at = hn_max64(m->t_ready, st->w_end);
	st->stalled = 0;
	return w;
}

struct hn_fworm *hn_sw_worm_new(struct hn_engine *e, u32 u,
				struct hn_stream *st)
{
	return worm_new(e, u, st);
}

/*
 * Node @u's input, idle at @t: of its VQ_W (per destination, Sec.
 * 3.3.1) the first ready in round-robin order of destinations after
 * the one served last (or voq_arbiter's: hn_voq_key()) sends its
 * message's next worm.  Returns when to
 * look again, HN_U64_MAX for when something else says.
 */
static u64 start_node(struct hn_engine *e, u32 u, u64 t)
{
	const struct hn_config *c = &e->cfg;
	struct hn_fab *f = e->fab;
	struct hn_node *n = &e->node[u];
	struct hn_stream *st = n->ring, *best = NULL;
	u64 wake_t = HN_U64_MAX, ta, key, best_key = HN_U64_MAX;
	bool rx = false;
	u32 bytes;
	struct hn_fworm *w;
	struct hn_msg *m;

	if (!st)
		return wake_t;
	do {
		m = st->vq_w.head;
		if (hn_cut_off(e, u, st->dst)) {
			;		/* a link up wakes it */
		} else if (m->t_ready > t) {
			wake_t = hn_min64(wake_t, m->t_ready);
		} else {
			if (!st->port)	/* routed once, when first looked at */
				st->port = 1 + route(e, u, st->dst) %
					   f->radix;
			bytes = (u32)hn_min64(c->worm_bytes, m->len - m->sent);
			ta = hn_flow_store_in(e, m, u) ?  /* each VQ_W its own */
			     hn_tail_at(c, m, m->sent + bytes) : 0;
			if (!ready(e, u, f->in[u].sw * f->radix + st->port - 1,
				   m, bytes, ta, t, &wake_t, &st->stalled)) {
				;
			} else if (hn_rx_fits(e, m)) {
				key = hn_voq_key(e, n, st, t);
				if (key < best_key) {
					best = st;
					best_key = key;
				}
			} else {
				rx = true;
			}
		}
		st = st->rr_next;
	} while (st != n->ring && best_key);
	if (!best && rx)	/* nothing says when the room comes */
		look_next(e, u);
	if (!best)
		return wake_t;
	st = best;
	w = worm_new(e, u, st);
	w->nh = 0;
	w->tl = 0;
	w->last = HN_NONE;
	w->hop[0].in = u;
	w->hop[0].out = f->in[u].sw * f->radix + st->port - 1;
	w->hop[0].claim = 0;
	st->port = 0;
	take(e, u, w, t);
	return wake_t;
}

/*
 * Internal input @i, idle at @t: of the worms at the heads of its
 * virtual output queues, the first ready in round-robin order of output
 * ports after the one served last goes on.
 */
static u64 start_inner(struct hn_engine *e, u32 i, u64 t)
{
	struct hn_fab *f = e->fab;
	struct hn_iport *in = &f->in[i];
	struct hn_fworm *w, *prev = NULL, *best = NULL, *best_prev = NULL;
	u64 seen[HN_SW_MAX_RADIX / 64] = { 0 }, wake_t = HN_U64_MAX, ta;
	u32 R = f->radix, best_d = R, p, d;
	struct hn_fhop *h;

	for (w = in->head; w; prev = w, w = w->next) {
		if (w->at > t) {	/* nor the later ones */
			wake_t = hn_min64(wake_t, w->at);
			break;
		}
		h = &w->hop[w->nh];
		if (h->out == HN_NONE)
			h->out = route(e, i, w->m->dst);
		p = h->out % R;
		if (seen[p / 64] & 1ULL << (p % 64))
			continue;	/* behind another in its queue */
		seen[p / 64] |= 1ULL << (p % 64);
		ta = !hn_flow_store(e, w->m, in->sw) ? 0 :	/* each its own */
		     h[-1].fin == HN_U64_MAX ? HN_U64_MAX : h[-1].fin + f->lat;
		if (!ready(e, i, h->out, w->m, w->bytes, ta, t, &wake_t,
			   &w->stalled))
			continue;
		d = hn_rr_dist(p, in->rr, R);
		if (d < best_d) {
			best = w;
			best_prev = prev;
			best_d = d;
		}
		if (!d)
			break;
	}
	if (!best)
		return wake_t;
	if (best_prev)
		best_prev->next = best->next;
	else
		in->head = best->next;
	if (in->tail == best)
		in->tail = best_prev;
	best->next = NULL;
	in->rr = best->hop[best->nh].out % R;
	take(e, i, best, t);
	return wake_t;
}

/* The last of @w has reached the receiver's link at @t. */
static inline void arrive(struct hn_engine *e, struct hn_fworm *w, u64 t)
{
	const struct hn_config *c = &e->cfg;
	struct hn_msg *m = w->m, **l;
	struct hn_stream *st = w->st;

	m->rcvd += w->bytes;
	e->g.slot[c->k].bytes += w->bytes;
	worm_put(e->fab, w);
	if (m->rcvd < m->len)
		return;
	for (l = &st->fab; *l != m; l = &(*l)->next)
		;
	*l = m->next;
	m->next = NULL;
	e->wh_msgs--;
	hn_sw_unreserve(e, m);
	/* through the fabric, then the receiver's link (link m->dst) */
	hn_deliver(e, m, t + c->fabric_ns +
		   hn_topo_link_ns(&e->topo, m->dst) + c->nic_ns,
		   HN_MODE_WORMHOLE, c->k);
	hn_stream_put(e, st);
}

void hn_sw_arrive(struct hn_engine *e, struct hn_fworm *w, u64 t)
{
	arrive(e, w, t);
}

/*
 * Node @u cuts a worm of @bytes from the message at the head of @st's
 * VQ_W (switch.c when its tail has left, flit.c when it starts): true
 * when that was the message's last, which then leaves VQ_W for st->fab
 * until it has arrived.
 */
static inline bool cut(struct hn_engine *e, u32 u, struct hn_stream *st,
		       u32 bytes)
{
	struct hn_msg *m = st->vq_w.head;

	m->sent += bytes;
	if (m->sent < m->len)
		return false;
	hn_q_pop(&st->vq_w);
	if (!st->vq_w.count)
		hn_ring_del(e, u, st);
	m->next = st->fab;
	st->fab = m;
	return true;
}

bool hn_sw_cut(struct hn_engine *e, u32 u, struct hn_stream *st, u32 bytes)
{
	return cut(e, u, st, bytes);
}

/*
 * The tail of a worm of @bytes of the message at the head of @st's VQ_W
 * has left node @u's input at @t: true when that was the message's last.
 */
static bool sent(struct hn_engine *e, u32 u, struct hn_stream *st,
		 u32 bytes, u64 t)
{
	struct hn_msg *m = st->vq_w.head;

	hn_in_sent(e, u, bytes);
	st->w_end = t;
	if (!cut(e, u, st, bytes))
		return false;
	e->node[u].sw_used -= m->len;
	return true;
}

/* The tail of input @i's worm leaves at @t: give back what it held. */
static void release(struct hn_engine *e, u32 i, u64 t)
{
	struct hn_fab *f = e->fab;
	struct hn_iport *in = &f->in[i];
	struct hn_fworm *w = in->cur;
	u32 k = in->hop;
	struct hn_fhop *h = &w->hop[k];
	struct hn_oport *op = &f->out[h->out];
	struct hn_stream *st = w->st;
	bool left = false;		/* its message's last byte left VQ_W */

	in->cur = NULL;
	in->last = t;
	w->tl = k + 1;
	op->bytes += w->bytes;
	op->worms++;
	op->busy_ns += t - h->s;
	if (k) {
		hn_hold(in, t, -(s64)h->claim);
		wake(e, in->feed, t);
	} else {
		left = sent(e, i, st, w->bytes, t);
	}
	if (k == w->last)
		arrive(e, w, t);
	if (left)
		hn_nic_forward(e, i, t);
}

static bool has_work(const struct hn_engine *e, u32 i)
{
	return i < e->cfg.nodes ? !!e->node[i].ring : !!e->fab->in[i].head;
}

/*
 * After input @i's event: its next one, if it has any.  With none, it
 * waits on the stash for S_W to begin, but where a soft S_W @looked
 * already: what it waits for wakes it (resolve(), wake(), a link up,
 * look_next()).
 */
static void next_event(struct hn_engine *e, u32 i, u64 wake_t, bool looked)
{
	struct hn_iport *in = &e->fab->in[i];

	if (in->cur)
		wake_t = in->cur->hop[in->hop].fin;
	if (wake_t != HN_U64_MAX) {
		ev_at(e, i, wake_t, true);
		return;
	}
	if (!in->cur && !has_work(e, i)) {
		hn_ev_del(e, i);
		return;
	}
	if (looked && e->w_soft) {
		e->fab->parked = true;	/* hn_sw_harden() finds it */
		hn_ev_del(e, i);
	} else if (e->w_soft && e->now == e->slot_end && may_look(e->fab)) {
		in->t = e->now;		/* it looks when the next S_W begins */
		hn_ev_set_look(e, i, e->now);
	} else {
		hn_sw_stash(e, i);
	}
}

/* Input @i's event at @t. */
static inline void event(struct hn_engine *e, u32 i, u64 t)
{
	struct hn_iport *in = &e->fab->in[i];
	u64 wake_t = HN_U64_MAX;
	bool looked = false;

	if (in->cur && in->cur->hop[in->hop].fin <= t)
		release(e, i, t);
	if (!in->cur && t < e->slot_end) {
		wake_t = i < e->cfg.nodes ? start_node(e, i, t) :
			 start_inner(e, i, t);
		looked = true;
	}
	next_event(e, i, wake_t, looked);
}

/*
 * At a soft end, may the events at the boundary run as those of the next
 * S_W's start, each input's worm leaving and its next one starting in one
 * event, rather than every worm leaving first and every input looking
 * after (the looks)?  They may when nothing can tell the two apart: one
 * switch (what a worm's end frees is known before it: its output's time,
 * no credit, no waiter), no input on the stash (it would look after them
 * all), no work budget to stop the call there (the caller's, who checks
 * that nothing asked to stop yet and that the run goes on past the
 * boundary), the next S_W begins for sure (more wormhole messages than
 * worms that may end), and what one worm's end does cannot change what
 * another input chooses at that time: no receiver is tight (each has room
 * for e->nev of the longest message, whatever a delivery's callback
 * consumes), round-robin arbitration (lqf and bytes count messages that a
 * callback may inject), and a message's head reaches the switch after it
 * is injected (nic_ns + wire_ns > 0).
 */
static bool unsplit(const struct hn_engine *e)
{
	const struct hn_config *c = &e->cfg;
	const struct hn_fab *f = e->fab;

	return may_look(f) && !f->nstash && !e->work_max && !e->rx_tight &&
	       e->rx_thresh && !c->voq_arbiter && !c->voq_timeout_ns &&
	       c->nic_ns + c->wire_ns &&
	       (e->wh_msgs > f->wused ||
		!(c->policy & (HN_POL_SES | HN_POL_PREEMPT)));
}

/*
 * The events at the start of this S_W that the last one's soft end left
 * it (unsplit()) are done.  The worms that left there would have left
 * with the last S_W, and a stop one of them asked for (ops->deliver,
 * ops->room) would have ended the call there: it does.
 */
static bool unsplit_stop(struct hn_engine *e)
{
	if (!e->w_unsplit || e->cur != e->cfg.k || !e->in_slot ||
	    e->now > e->slot_start)
		return false;
	e->w_unsplit = false;
	if (e->stop_at == HN_U64_MAX)
		return false;
	e->stop_at = e->slot_start;
	return true;
}

/*
 * Every event of S_W up to @lim (<= its end), or to a stop (ops->room),
 * but the next S_W's looks at a soft end (wormhole.c's slot).  With
 * @cont, the caller goes on past the end if it is a soft one and nothing
 * asks to stop there: the events at the end may wait for the next S_W.
 */
void hn_sw_run(struct hn_engine *e, u64 lim, bool cont)
{
	u64 t;

	while ((t = hn_ev_top(e)) <= hn_min64(lim, e->stop_at)) {
		if (t == e->slot_end || e->w_unsplit) {	/* seldom */
			if (e->w_unsplit && t > e->slot_start &&
			    unsplit_stop(e))
				break;
			if (t == e->slot_end && e->w_soft) {
				if (hn_ev_is_look(e))
					break;
				if (cont && e->stop_at == HN_U64_MAX &&
				    unsplit(e)) {
					e->w_unsplit = true;
					return;
				}
			}
		}
		e->now = t;
		event(e, hn_ev_peek(e), t);
		hn_work(e, t);
	}
	if (e->w_unsplit)
		unsplit_stop(e);
}

/* ---- the wormhole slot's boundaries */

/*
 * S_W resumes @gap after it ended at @end: what was to happen after the
 * end happens that much later, at input @i and the output its worm
 * holds.  A worm that was sending starts its flits again: its start moves
 * too.  Only inputs on the stash can have such times: every input with a
 * worm or a header is on the heap or the stash in S_W, and the heap goes
 * onto the stash when S_W ends.
 */
static void shift(struct hn_engine *e, u32 i, u64 end, u64 gap)
{
	struct hn_fab *f = e->fab;
	struct hn_iport *in = &f->in[i];
	struct hn_fworm *w;
	struct hn_fhop *h;

	in->t = hn_later(in->t, end, gap);
	if (in->cur) {
		h = &in->cur->hop[in->hop];
		h->s += gap;
		h->e += gap;
		h->fin = hn_later(h->fin, end, gap);
		f->out[h->out].busy = hn_later(f->out[h->out].busy, end, gap);
	}
	for (w = in->head; w; w = w->next)
		w->at = hn_later(w->at, end, gap);
}

/*
 * S_W begins at e->slot_start: every input on the stash looks, but one
 * whose worm's tail time is not known yet; that one stays on the stash,
 * so that its times move with the next gap too.
 */
void hn_sw_begin(struct hn_engine *e)
{
	struct hn_fab *f = e->fab;
	u64 t0 = e->slot_start + e->cfg.guard_ns, fin;
	u32 j, n = f->nstash, i;
	struct hn_iport *in;
	bool gap = f->w_end != HN_U64_MAX && t0 > f->w_end;

	f->nstash = 0;
	if (gap)		/* a deadlock is timed in S_W only */
		f->moved += t0 - f->w_end;
	for (j = 0; j < n; j++) {
		i = f->stash[j];
		in = &f->in[i];
		if (gap)
			shift(e, i, f->w_end, t0 - f->w_end);
		fin = in->cur ? in->cur->hop[in->hop].fin : t0;
		if (fin == HN_U64_MAX) {
			f->stash[f->nstash++] = i;
			continue;
		}
		in->stash = 0;
		hn_sw_ev_at(e, i, hn_max64(fin, t0));
	}
}

/*
 * S_W begins again at e->slot_start, just after the one that ended there
 * with a soft end (engine.c): its events go on where they were.  What a
 * hard end and begin would add is that every input with something to
 * send looks at e->slot_start; of those, the ones on the stash (their
 * event was at the end, or they wait for a receiver's room) may find
 * something, and look; the others would find what they know already
 * (each waits for a time its event is at).
 */
void hn_sw_resume(struct hn_engine *e)
{
	e->fab->w_end = e->slot_start;	/* the S_W passed over ran */
	hn_sw_begin(e);
}

/*
 * The last S_W's end is a hard one (its soft end turns out hard, or S_W
 * keeps an event too far past it): every input with an event waits on
 * the stash for the next S_W, which moves their times by the gap.
 */
void hn_sw_harden(struct hn_engine *e)
{
	struct hn_fab *f = e->fab;
	u32 j;

	for (j = 0; j < e->nheap; j++)
		look_next(e, hn_ev_input(e, j));
	/* those a soft S_W left waiting with no event (next_event()) */
	for (j = 0; f->parked && j < f->nin; j++)
		if (e->hpos[j] == HN_NONE && (f->in[j].cur || has_work(e, j)))
			look_next(e, j);
	f->parked = false;
	hn_ev_clear(e);
	e->look_t = HN_U64_MAX;
	e->w_carry = false;
	e->w_soft = false;
}

/* ---- deadlock */

/* The input where the header of @w waits, HN_NONE if it is not waiting. */
static u32 header_at(const struct hn_engine *e, const struct hn_fworm *w)
{
	return w->nh < e->topo.max_hops && w->nh <= w->last &&
	       w->at <= e->now ? w->hop[w->nh].in : HN_NONE;
}

/*
 * What input @i's first waiting header waits for, the channel in *@o:
 * the input sending its own worm if it is busy (that worm's header is
 * where to look next), else the output it wants, held by a worm (look
 * where that worm's header waits) or feeding a full buffer (look there).
 * HN_NONE when no header waits at @i.
 */
static u32 waits_for(const struct hn_engine *e, const u32 *holder, u32 i,
		     u32 *o)
{
	const struct hn_fab *f = e->fab;
	const struct hn_iport *in = &f->in[i];
	const struct hn_fworm *w;

	if (in->cur) {
		*o = in->cur->hop[in->hop].out;
		return header_at(e, in->cur);
	}
	for (w = in->head; w; w = w->next)
		if (w->at <= e->now && w->hop[w->nh].out != HN_NONE)
			break;
	if (!w)
		return HN_NONE;
	*o = w->hop[w->nh].out;
	if (f->out[*o].busy > e->now)
		return holder[*o] == HN_NONE ? HN_NONE :
		       header_at(e, f->in[holder[*o]].cur);
	return f->out[*o].down;		/* credit: that buffer must move */
}

/*
 * No flit has moved since f->moved: find a cycle of waiting headers,
 * from each input in turn until one leads into a cycle, and keep its
 * channels.  The engine then takes no more messages.
 */
static void deadlock(struct hn_engine *e)
{
	struct hn_fab *f = e->fab;
	struct hn_deadlock *d = &f->dl;
	u32 *holder, *seen, *via, i, j, o, start, n;

	f->deadlocked = true;
	d->at = e->now;
	d->since = f->moved;
	holder = hn_zalloc(f->nout * sizeof(*holder));
	seen = hn_zalloc(f->nin * sizeof(*seen));
	via = hn_zalloc(f->nin * sizeof(*via));
	if (!holder || !seen || !via)
		goto out;		/* reported with no cycle */
	for (o = 0; o < f->nout; o++)
		holder[o] = HN_NONE;
	for (i = 0; i < f->nin; i++)
		if (f->in[i].cur)
			holder[f->in[i].cur->hop[f->in[i].hop].out] = i;
	for (start = 0; start < f->nin && !d->n; start++) {
		if (seen[start])
			continue;
		for (i = start; i != HN_NONE && !seen[i]; i = j) {
			seen[i] = start + 1;
			j = waits_for(e, holder, i, &o);
			via[i] = o;
		}
		if (i == HN_NONE || seen[i] != start + 1)
			continue;	/* ended, or ran into an earlier walk */
		n = 0;
		j = i;
		do {
			hn_sw_dl_chan(e, n++, via[j], HN_NONE);
			j = waits_for(e, holder, j, &o);
		} while (j != i && n <= f->nin);
		d->n = n;
	}
out:
	hn_free(holder);
	hn_free(seen);
	hn_free(via);
}

/*
 * Channel @n of the deadlock's cycle is the one output @o drives, its
 * virtual channel @vc (the flit router's; HN_NONE).
 */
void hn_sw_dl_chan(struct hn_engine *e, u32 n, u32 o, u32 vc)
{
	struct hn_fab *f = e->fab;

	if (n >= HN_DL_MAX)
		return;
	f->dl.ch[n].sw = o / f->radix;
	f->dl.ch[n].port = o % f->radix;
	f->dl.ch[n].link = e->topo.ops->link(&e->topo, o / f->radix,
					     o % f->radix);
	f->dl.ch[n].vc = vc;
}

/* S_W has ended with worms in the fabric and none moving deadlock_ns. */
bool hn_sw_dl_due(const struct hn_engine *e)
{
	const struct hn_fab *f = e->fab;

	return f->wused && e->cfg.deadlock_ns && !f->deadlocked && !f->dr &&
	       e->slot_end - hn_min64(f->moved, e->slot_end) >=
	       e->cfg.deadlock_ns;
}

int hn_deadlock(const struct hn_engine *e, struct hn_deadlock *d)
{
	if (!e->fab->deadlocked)
		return -ENOENT;
	if (d)
		*d = e->fab->dl;
	return 0;
}

/*
 * S_W ends: its events are all done; the rest are kept for the next S_W
 * at a soft end, else wait on the stash.
 */
void hn_sw_end(struct hn_engine *e)
{
	struct hn_fab *f = e->fab;

	if (e->w_soft)
		e->w_carry = true;
	else
		hn_sw_harden(e);
	f->w_end = e->slot_end;
	if (hn_sw_dl_due(e))
		deadlock(e);
}

/*
 * A message has reached node @u's VQ_W, its header at the switch at @t:
 * an idle input looks then (in S_W, else when S_W begins).
 */
void hn_sw_arm(struct hn_engine *e, u32 u, u64 t)
{
	bool on = in_sw(e);

	if (on)
		t = hn_max64(t, e->slot_start + e->cfg.guard_ns);
	arm_on(e, u, t, on);
}

/* ---- life cycle */

static int fail(struct hn_engine *e, int rc)
{
	hn_sw_destroy(e);
	return rc;
}

/*
 * The ports of e->topo: node u's link is input u; every other port that
 * leads to a switch has an input after them, in order of switch and
 * port.  Output o = sw * radix + port drives the link on that port.
 */
int hn_sw_create(struct hn_engine *e)
{
	const struct hn_topo *t = &e->topo;
	u32 R = t->radix, o, i, n = t->nodes, l, r;
	struct hn_tport q;
	struct hn_fab *f;

	/* hn_stream.port: a crossbar's (a port a node) or a switch's */
	HN_STATIC_ASSERT(HN_MAX_NODES < 65535 && HN_SW_MAX_RADIX < 65535);
	if (t->max_hops > 1 && R > HN_SW_MAX_RADIX)
		return -EINVAL;
	f = hn_zalloc(sizeof(*f));
	if (!f)
		return -ENOMEM;
	e->fab = f;
	f->radix = R;
	f->nout = t->nsw * R;
	f->w_end = HN_U64_MAX;
	f->seed = 0x6a09e667f3bcc909ULL;
	f->lat = e->cfg.fabric_ns + t->link_ns;
	f->buf = e->cfg.vc_flits ? e->cfg.vc_flits * e->cfg.flit_bytes :
		 e->cfg.sw_buf_bytes;
	f->wsize = sizeof(struct hn_fworm) + t->max_hops * sizeof(struct hn_fhop);
	f->worm_flits = (e->cfg.worm_bytes + e->cfg.flit_bytes - 1) /
			e->cfg.flit_bytes;
	f->worm_ns = hn_bytes_ns(&e->cfg, e->cfg.worm_bytes);
	/* one switch: a worm at most at each node's input, none queued */
	f->wmax = t->max_hops == 1 && !e->cfg.vc_count &&
		  e->cfg.switching != HN_SWITCH_DROP ? n : HN_U64_MAX;
	f->in_of = hn_zalloc(f->nout * sizeof(*f->in_of));
	f->out = hn_zalloc(f->nout * sizeof(*f->out));
	f->chan = hn_zalloc(2 * t->nlinks * sizeof(*f->chan));
	if (!f->in_of || !f->out || !f->chan)
		return fail(e, -ENOMEM);
	for (l = 0; l < 2 * t->nlinks; l++)
		f->chan[l] = HN_NONE;
	for (o = 0; o < f->nout; o++) {
		q = t->ops->peer(t, o / R, o % R);
		f->out[o].down = HN_NONE;
		f->out[o].node = HN_NONE;
		f->in_of[o] = q.sw == HN_TOPO_NODE ? q.port :
			      q.sw == HN_NONE ? HN_NONE : n++;
		if (q.sw == HN_TOPO_NODE)
			f->out[o].node = q.port;
		l = t->ops->link(t, o / R, o % R);
		if (l == HN_NONE)
			continue;
		/* the channel a route takes first, of lower rank, is [HN_UP] */
		r = q.sw == HN_TOPO_NODE ? 1 :
		    t->ops->rank(t, o / R, o % R) >
		    t->ops->rank(t, q.sw, q.port);
		f->chan[2 * l + r] = o;
	}
	if (n > HN_EV_MAX)
		return fail(e, -E2BIG);
	f->nin = n;
	f->in = hn_zalloc(n * sizeof(*f->in));
	f->stash = hn_zalloc(n * sizeof(*f->stash));
	if (!f->in || !f->stash)
		return fail(e, -ENOMEM);
	for (o = 0; o < f->nout; o++) {
		i = f->in_of[o];
		if (i == HN_NONE)
			continue;
		f->in[i].sw = o / R;
		f->in[i].port = o % R;
		f->in[i].rr = R - 1;
		f->in[i].feed = HN_NONE;
		if (f->out[o].node != HN_NONE)
			continue;
		q = t->ops->peer(t, o / R, o % R);
		f->in[i].feed = q.sw * R + q.port;
	}
	for (i = 0; i < n; i++)
		if (f->in[i].feed != HN_NONE)
			f->out[f->in[i].feed].down = i;
	if (t->max_hops > 1) {
		f->words = (R + 63) / 64;
		f->wait = hn_zalloc((u64)f->nout * f->words * sizeof(u64));
		if (!f->wait)
			return fail(e, -ENOMEM);
	}
	e->nev = n;
	return 0;
}

void hn_sw_destroy(struct hn_engine *e)
{
	struct hn_fab *f = e->fab;

	if (!f)
		return;
	f->wneed = 0;		/* what it held is reclaimed */
	hn_sw_trim(e);
	hn_free(f->in);
	hn_free(f->out);
	hn_free(f->in_of);
	hn_free(f->chan);
	hn_free(f->wait);
	hn_free(f->stash);
	hn_free(f->flow);
	hn_free(f);
	e->fab = NULL;
}
