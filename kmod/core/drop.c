// SPDX-License-Identifier: GPL-2.0
/*
 * drop.c - drop-on-block switching (switching drop; docs/model.md "Drop
 * on block"): the pipelined circuits of METRO as Woods-Corwin's routers
 * switch them [W:380, W:387, W:781], on switch.c's ports and worms.
 *
 * A message is one worm, whatever its length: a circuit carries any
 * [W:382].  Every link has dilation channels (Woods-Corwin's dilated
 * crossbars): a header reaching a switch takes the first free channel of
 * the output its route gives there (by destination digit, random, or
 * the up-port with the fewest busy channels), and its flits follow it
 * through at the switch's pace, no switch buffering any of them; each
 * channel is free once the tail has crossed it.  A header that finds no channel free is
 * dropped at once: the drop goes back over the channels its worm holds,
 * freeing each as it passes, a link and a flit time a hop, to the
 * source's VQ_W, where Ding's model keeps the source's copy; after a
 * random wait the input's arbiter may send it again.  Nothing waits in
 * the fabric, so nothing deadlocks.
 *
 * Times are switch.c's, so that a lone message's latency is Duato's for
 * one packet: a header crosses a switch in wh_first_ns and a link in
 * fabric_ns plus the link's latency, any other flit a switch in
 * wh_flit_ns.  A node's link has dilation channels too, each free for
 * another message once a tail has left it; but a stream sends its next
 * message only once its node knows the last one's header got through,
 * so that a stream's messages arrive in order.
 *
 * Events: input i is event i: the headers reaching it, the messages
 * whose tails leave the fabric through its switch (their last), and at
 * a node's input the outcomes it learns and the messages it starts.  At
 * the end of S_W everything stays as it is; the next S_W moves every
 * time still to come by the time between them.
 */
#include "engine.h"

/* An input's event: look when S_W begins (a receiver had no room). */
#define RETRY	(HN_U64_MAX - 1)

static bool in_sw(const struct hn_engine *e)
{
	return e->in_slot && e->cur == e->cfg.k;
}

/* Input @i needs attention at @t, unless it has an event as early. */
static void arm(struct hn_engine *e, u32 i, u64 t)
{
	struct hn_iport *in = &e->fab->in[i];

	t = hn_max64(t, e->now);
	if ((e->hpos[i] != HN_NONE || in->stash) && in->t <= t)
		return;
	hn_sw_ev_at(e, i, t);
}

/* ---- channels */

/* Channel @j of output @o is held until @t. */
static void hold(struct hn_fab *f, u32 o, u32 j, u64 t)
{
	struct hn_drop *dr = f->dr;
	u64 *b = &dr->busy[(u64)o * dr->d];
	u32 x;

	b[j] = t;
	f->out[o].busy = b[0];		/* the port: until its last is free */
	for (x = 1; x < dr->d; x++)
		f->out[o].busy = hn_max64(f->out[o].busy, b[x]);
}

/*
 * The channels down of output @o, or of node @o - nout's link, as bits
 * (dilation is at most 8), with those its link has not (dr->gone): a
 * header takes none of them.
 */
static u8 dead_of(const struct hn_drop *dr, u64 o)
{
	return dr->dead ? dr->dead[o] : 0;
}

/* The first of the @d channels @b free at @t and up, HN_NONE if none is. */
static u32 free_chan(const u64 *b, u32 d, u64 t, u8 dead)
{
	u32 j;

	for (j = 0; j < d; j++)
		if (b[j] <= t && !(dead & (1u << j)))
			return j;
	return HN_NONE;
}

/* A header's time at its switch, for busy_of() */
struct at {
	const struct hn_engine *e;
	u64 t;
};

/* The channels of output (@sw, @port) busy at the time @ctx gives. */
static u32 busy_of(void *ctx, u32 sw, u32 port)
{
	const struct at *at = ctx;
	const struct hn_fab *f = at->e->fab;
	const struct hn_drop *dr = f->dr;
	u32 o = sw * f->radix + port, j, n = 0;
	const u64 *b = &dr->busy[(u64)o * dr->d];
	u8 dead = dead_of(dr, o);

	for (j = 0; j < dr->d; j++)
		n += b[j] > at->t || (dead & (1u << j));
	return n;
}

/*
 * The output a header that came in by input @i towards @dst takes at @t:
 * as hn_sw_route(), but up_select adaptive picks the up-port with the
 * fewest busy channels (there is no buffer to be least full).
 */
static u32 route(struct hn_engine *e, u32 i, u32 dst, u64 t)
{
	struct hn_fab *f = e->fab;
	struct at at = { e, t };
	u32 sw = f->in[i].sw;
	struct hn_upsel_arg a = {
		.mode = e->cfg.up_select,
		.seed = &f->seed,
		.occ = busy_of,
		.ctx = &at,
		.detour = true,
		.in = f->in[i].port,
	};

	return sw * f->radix + hn_topo_choose(&e->topo, sw, dst, &a);
}

/* ---- a node learns how its worms did */

/* Node @u learns @w was dropped at w->over: keep its list in that order. */
static void pend_add(struct hn_engine *e, u32 u, struct hn_fworm *w)
{
	struct hn_fworm **l = &e->fab->dr->pend[u];

	while (*l && (*l)->over <= w->over)
		l = &(*l)->pnext;
	w->pnext = *l;
	*l = w;
	w->pend = 1;
	arm(e, u, w->over);
}

/* @w goes: no channel is its any more, its node's link's neither. */
static void disown(struct hn_drop *dr, const struct hn_fworm *w)
{
	u64 x;
	u32 k;

	for (k = 0; k < w->nh; k++) {
		x = (u64)w->hop[k].out * dr->d + w->hop[k].claim;
		if (dr->own[x] == w)
			dr->own[x] = NULL;
	}
	x = (u64)w->st->src * dr->d + w->inj;
	if (dr->iown[x] == w)
		dr->iown[x] = NULL;
}

/* Node @u, at the head of its list, learns @w was dropped: try again. */
static void learn(struct hn_engine *e, u32 u, struct hn_fworm *w)
{
	struct hn_drop *dr = e->fab->dr;

	dr->pend[u] = w->pnext;
	w->pnext = NULL;
	w->pend = 0;
	w->st->cutting = 0;
	hn_q_head_back(&w->st->vq_w);	/* one of higher priority came */
	disown(dr, w);
	hn_sw_worm_free(e, w);
}

/*
 * @w's tail has left its last switch at @t: its message has arrived, out
 * of VQ_W, and its node, which knows, may send the stream's next.
 */
static void arrive(struct hn_engine *e, struct hn_fworm *w, u64 t)
{
	struct hn_stream *st = w->st;
	struct hn_oport *op;
	u32 u = st->src, k;

	for (k = 0; k <= w->last; k++) {
		op = &e->fab->out[w->hop[k].out];
		op->bytes += w->bytes;
		op->worms++;
		op->busy_ns += w->hop[k].fin - w->hop[k].s;
	}
	disown(e->fab->dr, w);
	st->cutting = 0;
	st->w_end = t;
	hn_in_sent(e, u, w->bytes);
	e->node[u].sw_used -= w->bytes;
	hn_sw_cut(e, u, st, w->bytes);
	hn_sw_arrive(e, w, t);		/* which may free st */
	hn_nic_forward(e, u, t);
	arm(e, u, t);			/* the stream's next may go */
}

/* ---- a header's progress */

/* Take @w off the list it is on: its header's input's, or its last's. */
static void unlist(struct hn_engine *e, struct hn_fworm *w)
{
	struct hn_fab *f = e->fab;
	struct hn_iport *in;
	struct hn_fworm **l, *prev = NULL;

	if (w->last != HN_NONE) {
		l = &f->dr->done[w->hop[w->last].in];
		while (*l != w)
			l = &(*l)->next;
		*l = w->next;
	} else {
		in = &f->in[w->hop[w->nh].in];
		for (l = &in->head; *l != w; l = &(*l)->next)
			prev = *l;
		*l = w->next;
		if (in->tail == w)
			in->tail = prev;
	}
	w->next = NULL;
}

/*
 * @w loses at hop @k at @t: its header found no channel free there (k
 * is w->nh), or a header of higher priority took its channel there, or
 * (@link) its node's link's channel, before hop 0 (k is 0).
 * Behind hop k the drop frees its channels on its way back, a link and a
 * flit time a hop (those its tail has left are free already); ahead of
 * it, the stub, the flits that had crossed hop k, goes on and frees each
 * channel once past it, and its header, if still on its way, ends where
 * it is.  The drop reaches the source's VQ_W a flit time after the first
 * switch.  Its node may send it again after a random wait of 0 to the
 * worm's flits in flit times (ours: the texts give no back-off), without
 * which sources dropping each other's headers can do so in step for ever.
 */
static void lose(struct hn_engine *e, struct hn_fworm *w, u32 k, u64 t,
		 bool link)
{
	const struct hn_config *c = &e->cfg;
	struct hn_fab *f = e->fab;
	struct hn_drop *dr = f->dr;
	u64 back = f->lat + c->wh_flit_ns, seen, x, *inj;
	u32 j, u = w->st->src;
	struct hn_fhop *h;

	for (j = 0; j < k; j++) {
		h = &w->hop[j];
		if (h->fin > t)		/* else its tail has left: another's */
			hold(f, h->out, h->claim,
			     hn_min64(h->fin, t + (k - j) * back));
	}
	if (k < w->nh) {
		h = &w->hop[k];
		x = t > h->e ? hn_min64((t - h->e) / c->wh_flit_ns, w->flits) :
		    0;
		e->g.stub_flits += x;
		for (j = link ? k : k + 1; j < w->nh; j++) {
			h = &w->hop[j];
			hold(f, h->out, h->claim,
			     hn_min64(h->fin, h->e + x * c->wh_flit_ns));
		}
	}
	seen = t + k * back + c->wh_flit_ns;
	inj = &dr->inj[(u64)u * dr->d + w->inj];
	if (!w->nh || w->hop[0].fin > t)
		*inj = w->nh ? hn_min64(w->hop[0].fin, seen) : seen;
	w->over = seen + c->wh_flit_ns * hn_rand_below(&dr->seed, w->flits + 1);
	pend_add(e, u, w);
	arm(e, u, *inj);
}

/*
 * @v is preempted: late if its header had its whole path (it took its
 * destination's link, w->last), its tail still on its way.
 */
static void count_preemption(struct hn_engine *e, const struct hn_fworm *v)
{
	e->g.preemptions++;
	if (v->last != HN_NONE)
		e->g.preemptions_late++;
}

/*
 * Of output @o's channels, all busy, the one whose worm, still going,
 * has the lowest priority below @prio; HN_NONE if none has.  Its hop
 * there in *@k.  (Woods-Corwin's output keeps "the state of its current
 * priority" [W:808]; equal priorities never preempt.)
 */
static u32 victim(const struct hn_drop *dr, u32 o, u8 prio, u32 *k)
{
	const struct hn_fworm *v;
	u32 j, best = HN_NONE;
	u8 low = prio, dead = dead_of(dr, o);

	for (j = 0; j < dr->d; j++) {
		v = dr->own[(u64)o * dr->d + j];
		if (v && !v->pend && v->m->prio < low && !(dead & (1u << j))) {
			low = v->m->prio;
			best = j;
		}
	}
	if (best == HN_NONE)
		return best;
	v = dr->own[(u64)o * dr->d + best];
	for (*k = 0; v->hop[*k].out != o || v->hop[*k].claim != best; ++*k)
		;
	return best;
}

/* Keep @w, which leaves the fabric through input @i, in tail order. */
static void done_add(struct hn_engine *e, u32 i, struct hn_fworm *w)
{
	struct hn_fworm **l = &e->fab->dr->done[i];
	u64 fin = w->hop[w->last].fin;

	while (*l && (*l)->hop[(*l)->last].fin <= fin)
		l = &(*l)->next;
	w->next = *l;
	*l = w;
	arm(e, i, fin);
}

/*
 * The header of @w is at input @i at @t: it takes a free channel of its
 * output, or one a worm of lower priority holds, or is dropped.  Its
 * flits follow it at the switch's pace with nothing in the way: each
 * leaves once the worm has crossed the switch and the flit has come in
 * (hn_flow_tail() with room for the whole worm ahead), so when its tail
 * leaves is known now.  At its destination's link it has its path, and
 * arrives once its tail has left the last switch.
 */
static void hop(struct hn_engine *e, u32 i, struct hn_fworm *w, u64 t)
{
	const struct hn_config *c = &e->cfg;
	struct hn_fab *f = e->fab;
	struct hn_drop *dr = f->dr;
	u32 k = w->nh, o, j, kv;
	struct hn_fhop *h = &w->hop[k];
	struct hn_fworm *v;
	struct hn_iport *d;
	u64 ta;

	o = route(e, i, w->m->dst, t);
	j = HN_NONE;
	if (!e->topo.fault ||	/* a link down on the only way: dropped */
	    hn_topo_port_live(&e->topo, f->in[i].sw, o % f->radix,
			      w->m->dst))
		j = free_chan(&dr->busy[(u64)o * dr->d], dr->d, t,
			      dead_of(dr, o));
	if (j == HN_NONE) {
		j = victim(dr, o, w->m->prio, &kv);
		if (j == HN_NONE) {
			e->g.drops++;
			lose(e, w, k, t, false);
			return;
		}
		v = dr->own[(u64)o * dr->d + j];
		count_preemption(e, v);
		unlist(e, v);
		lose(e, v, kv, t, false);
	}
	ta = k ? h[-1].fin + f->lat : hn_tail_at(c, w->m, w->off + w->bytes);
	h->out = o;
	h->claim = j;			/* here: its channel of the output */
	h->s = t;
	h->e = t + c->wh_first_ns - c->wh_flit_ns;
	h->fin = hn_max64(h->e + (u64)w->flits * c->wh_flit_ns, ta);
	hold(f, o, j, h->fin);
	dr->own[(u64)o * dr->d + j] = w;
	if (!k)				/* its node's link is free then */
		dr->inj[(u64)w->st->src * dr->d + w->inj] = h->fin;
	w->nh = k + 1;
	if (f->out[o].down == HN_NONE) {
		w->last = k;
		done_add(e, i, w);
		return;
	}
	h[1].in = f->out[o].down;
	h[1].out = HN_NONE;
	w->at = t + c->wh_first_ns + f->lat;
	d = &f->in[h[1].in];
	if (d->tail)
		d->tail->next = w;
	else
		d->head = w;
	d->tail = w;
	arm(e, h[1].in, w->at);
}

/* ---- a node's input */

/*
 * Of node @u's VQ_W whose last worm's outcome it knows and whose head's
 * priority is @floor or more, the one its arbiter serves next at @t: the
 * highest priority's, then hn_voq_key()'s order; its head at the switch
 * and its receiver's room free; NULL if none.  When to look again goes
 * into @wake_t, or *@retry says a receiver has no room (look when S_W
 * begins).
 */
static struct hn_stream *pick(struct hn_engine *e, u32 u, u64 t, u8 floor,
			      u64 *wake_t, bool *retry)
{
	struct hn_node *n = &e->node[u];
	struct hn_stream *st = n->ring, *best = NULL;
	u64 key, best_key = HN_U64_MAX;
	struct hn_msg *m;
	u8 prio = 0;

	if (!st)
		return NULL;
	do {
		m = st->vq_w.head;
		if (m->prio < floor) {
			;	/* not to take a channel from another */
		} else if (st->cutting || hn_cut_off(e, u, st->dst)) {
			;	/* its outcome, or a link up, wakes it */
		} else if (m->t_ready > t) {
			*wake_t = hn_min64(*wake_t, m->t_ready);
		} else if (!hn_rx_fits(e, m)) {
			*retry = true;
		} else {
			key = hn_voq_key(e, n, st, t);
			if (m->prio > prio || (m->prio == prio && key < best_key)) {
				best = st;
				best_key = key;
				prio = m->prio;
			}
		}
		st = st->rr_next;
	} while (st != n->ring && (best_key || prio < HN_PRIO_TOP));
	return best;
}

/*
 * Of node @u's link's channels, all busy at @t, the one whose worm, still
 * sending, has the lowest priority below the fabric's own; HN_NONE if
 * none has.
 */
static u32 link_victim(const struct hn_drop *dr, u32 nout, u32 u, u64 t)
{
	const struct hn_fworm *v;
	u32 j, best = HN_NONE;
	u8 low = HN_PRIO_TOP, dead = dead_of(dr, (u64)nout + u);

	for (j = 0; j < dr->d; j++) {
		v = dr->iown[(u64)u * dr->d + j];
		if (v && !v->pend && v->nh && v->hop[0].fin > t &&
		    v->m->prio < low && !(dead & (1u << j))) {
			low = v->m->prio;
			best = j;
		}
	}
	return best;
}

/*
 * A header of the fabric's own priority from node @u takes channel @j of
 * its link at @t from the worm of lower priority sending on it, as a
 * switch's output is taken [W:806-824]: ours, the texts preempt in the
 * routers, but Zydallis's control messages "must be sent immediately"
 * [Z:671].
 */
static void preempt_link(struct hn_engine *e, u32 u, u32 j, u64 t)
{
	struct hn_drop *dr = e->fab->dr;
	struct hn_fworm *v = dr->iown[(u64)u * dr->d + j];

	count_preemption(e, v);
	unlist(e, v);
	lose(e, v, 0, t, true);
}

/*
 * Node @u at @t: it learns the outcomes due, then each free channel of
 * its link starts a worm, a whole message (a circuit carries any length).
 */
static u64 node_event(struct hn_engine *e, u32 u, u64 t, bool *retry)
{
	struct hn_drop *dr = e->fab->dr;
	u64 *inj = &dr->inj[(u64)u * dr->d], wake_t = HN_U64_MAX;
	u8 floor, dead = dead_of(dr, (u64)e->fab->nout + u);
	struct hn_fworm *w;
	struct hn_stream *st;
	u32 j;

	while ((w = dr->pend[u]) && w->over <= t)
		learn(e, u, w);
	for (;;) {
		floor = 0;
		j = free_chan(inj, dr->d, t, dead);
		if (j == HN_NONE) {
			j = link_victim(dr, e->fab->nout, u, t);
			if (j == HN_NONE)
				break;
			floor = HN_PRIO_TOP;
		}
		st = pick(e, u, t, floor, &wake_t, retry);
		if (!st)
			break;
		if (floor)
			preempt_link(e, u, j, t);
		w = hn_sw_worm_new(e, u, st);
		w->bytes = w->m->len;
		w->flits = (w->bytes + e->cfg.flit_bytes - 1) /
			   e->cfg.flit_bytes;
		w->nh = 0;
		w->last = HN_NONE;
		w->hop[0].in = u;
		w->inj = j;	/* hop() or lose() says until when */
		dr->iown[(u64)u * dr->d + j] = w;
		st->cutting = 1;
		e->g.attempts++;
		w->m->tries++;
		hop(e, u, w, t);
	}
	if (dr->pend[u])
		wake_t = hn_min64(wake_t, dr->pend[u]->over);
	for (j = 0; j < dr->d && e->node[u].ring; j++)
		if (inj[j] > t && !(dead & (1u << j)))
			wake_t = hn_min64(wake_t, inj[j]);
	return wake_t;
}

/* Input @i's event at @t (wormhole.c's slot). */
void hn_drop_event(struct hn_engine *e, u32 i, u64 t)
{
	struct hn_fab *f = e->fab;
	struct hn_fworm **done = &f->dr->done[i], *w;
	struct hn_iport *in = &f->in[i];
	u64 wake_t = HN_U64_MAX;
	bool retry = false;

	if (t >= e->slot_end) {		/* the next S_W's */
		hn_sw_stash(e, i);
		return;
	}
	while ((w = *done) && w->hop[w->last].fin <= t) {
		*done = w->next;
		w->next = NULL;
		arrive(e, w, w->hop[w->last].fin);
	}
	while ((w = in->head) && w->at <= t) {
		in->head = w->next;
		if (!in->head)
			in->tail = NULL;
		w->next = NULL;
		hop(e, i, w, t);
	}
	if (i < e->cfg.nodes)
		wake_t = node_event(e, i, t, &retry);
	if (in->head)
		wake_t = hn_min64(wake_t, in->head->at);
	if (*done)
		wake_t = hn_min64(wake_t, (*done)->hop[(*done)->last].fin);
	if (wake_t != HN_U64_MAX) {
		hn_sw_ev_at(e, i, wake_t);
	} else if (retry) {
		in->t = RETRY;
		hn_sw_stash(e, i);
	} else {
		hn_ev_del(e, i);
	}
}

/* A message has reached node @u's VQ_W, its header at the switch at @t. */
void hn_drop_arm(struct hn_engine *e, u32 u, u64 t)
{
	if (in_sw(e))
		t = hn_max64(t, e->slot_start + e->cfg.guard_ns);
	arm(e, u, t);
}

/* ---- the wormhole slot's boundaries */

/* @w's times at its hops after @end move @gap later. */
static void shift_hops(struct hn_fworm *w, u64 end, u64 gap)
{
	u32 k;

	for (k = 0; k < w->nh; k++) {
		w->hop[k].e = hn_later(w->hop[k].e, end, gap);
		w->hop[k].fin = hn_later(w->hop[k].fin, end, gap);
	}
}

/* Every time after @end moves @gap later. */
static void shift(struct hn_engine *e, u64 end, u64 gap)
{
	struct hn_fab *f = e->fab;
	struct hn_drop *dr = f->dr;
	struct hn_iport *in;
	struct hn_fworm *w;
	u64 j;
	u32 i;

	for (i = 0; i < f->nout; i++)
		f->out[i].busy = hn_later(f->out[i].busy, end, gap);
	for (j = 0; j < (u64)f->nout * dr->d; j++)
		dr->busy[j] = hn_later(dr->busy[j], end, gap);
	for (j = 0; j < (u64)e->cfg.nodes * dr->d; j++)
		dr->inj[j] = hn_later(dr->inj[j], end, gap);
	for (i = 0; i < e->cfg.nodes; i++)
		for (w = dr->pend[i]; w; w = w->pnext)
			w->over = hn_later(w->over, end, gap);
	for (i = 0; i < f->nin; i++) {
		in = &f->in[i];
		if (in->t != RETRY)
			in->t = hn_later(in->t, end, gap);
		for (w = dr->done[i]; w; w = w->next)
			shift_hops(w, end, gap);
		for (w = in->head; w; w = w->next) {	/* on their way */
			w->at = hn_later(w->at, end, gap);
			shift_hops(w, end, gap);
		}
		if (!(i % 4096))
			hn_resched();
	}
}

/* S_W begins at e->slot_start: the stashed inputs look from then on. */
void hn_drop_begin(struct hn_engine *e)
{
	struct hn_fab *f = e->fab;
	u64 t0 = e->slot_start + e->cfg.guard_ns;
	u32 j, n = f->nstash, i;
	struct hn_iport *in;

	if (f->w_end != HN_U64_MAX && t0 > f->w_end)
		shift(e, f->w_end, t0 - f->w_end);
	f->nstash = 0;
	for (j = 0; j < n; j++) {
		i = f->stash[j];
		in = &f->in[i];
		in->stash = 0;
		if (in->t == RETRY)
			hn_sw_ev_at(e, i, t0);
		else if (in->t != HN_U64_MAX)
			hn_sw_ev_at(e, i, hn_max64(in->t, t0));
	}
}

/* ---- channels down */

/* Where dead[] keeps end @d of link @link: its output, or its node's link */
static u64 dead_at(const struct hn_fab *f, u32 link, u32 d)
{
	u32 o = f->chan[2 * link + d];

	return o == HN_NONE ? (u64)f->nout + link : o;
}

/*
 * Channel @j of link @link down (@down) or up again, in both its
 * directions: Woods-Corwin's physical link of a dilated logical one
 * [W:249, W:356] (fault.c checks @link and @j).  A worm on it keeps it
 * until its tail has left; no header takes it after.  -ENOMEM.
 */
int hn_drop_chan_set(struct hn_engine *e, u32 link, u32 j, bool down)
{
	struct hn_fab *f = e->fab;
	struct hn_drop *dr = f->dr;
	u64 x;
	u32 d;

	if (!dr->dead) {
		if (!down)
			return 0;
		dr->dead = hn_zalloc((u64)f->nout + e->cfg.nodes);
		if (!dr->dead)
			return -ENOMEM;
	}
	for (d = HN_UP; d <= HN_DOWN; d++) {
		x = dead_at(f, link, d);
		if (down && !(dr->dead[x] & (1u << j)))
			dr->ndead++;
		else if (!down && (dr->dead[x] & (1u << j)))
			dr->ndead--;
		dr->dead[x] = down ? dr->dead[x] | (1u << j) :
			      dr->dead[x] & ~(1u << j);
	}
	if (!dr->ndead && !dr->gone) {
		hn_free(dr->dead);
		dr->dead = NULL;
	}
	return 0;
}

/* Link @link's channels down, as bits. */
u8 hn_drop_chan_dead(const struct hn_engine *e, u32 link)
{
	const struct hn_drop *dr = e->fab->dr;
	u64 x = dead_at(e->fab, link, HN_UP);

	return dr->dead ? dr->dead[x] & ~(dr->gone ? dr->gone[x] : 0) : 0;
}

/*
 * Link @link's channels: dilation, or under dilation_levels its level's
 * (which needs a fat tree: hn_config_check()).
 */
u32 hn_drop_link_d(const struct hn_engine *e, u32 link)
{
	const struct hn_config *c = &e->cfg;

	return hn_dil_at(c, c->dil_levels ?
			 hn_topo_ft_level(&e->topo, link) : 0);
}

/*
 * Under dilation_levels every channel is made for the most any link has
 * (dr->d); those past a link's own are gone, in both its directions, and
 * barred in dr->dead too, which then stays (dead_of() reads one array).
 */
static int gone_make(struct hn_engine *e)
{
	struct hn_fab *f = e->fab;
	struct hn_drop *dr = f->dr;
	u32 l, d;
	u8 m;

	if (!e->cfg.dil_levels)
		return 0;
	dr->gone = hn_zalloc((u64)f->nout + e->cfg.nodes);
	dr->dead = hn_zalloc((u64)f->nout + e->cfg.nodes);
	if (!dr->gone || !dr->dead)
		return -ENOMEM;
	for (l = 0; l < e->topo.nlinks; l++) {
		m = (u8)(((1u << dr->d) - 1) & ~((1u << hn_drop_link_d(e, l)) - 1));
		for (d = HN_UP; d <= HN_DOWN; d++) {
			dr->gone[dead_at(f, l, d)] = m;
			dr->dead[dead_at(f, l, d)] = m;
		}
	}
	return 0;
}

/* ---- life cycle */

/* The channels of switch.c's ports (e->fab, made before), all free. */
int hn_drop_create(struct hn_engine *e)
{
	struct hn_fab *f = e->fab;
	u32 d = hn_dil_max(&e->cfg);
	struct hn_drop *dr;
	u32 i;

	dr = hn_zalloc(sizeof(*dr));
	if (!dr)
		return -ENOMEM;
	f->dr = dr;
	dr->d = d;
	dr->seed = 0xbb67ae8584caa73bULL;
	dr->busy = hn_zalloc((u64)f->nout * d * sizeof(*dr->busy));
	dr->own = hn_zalloc((u64)f->nout * d * sizeof(*dr->own));
	dr->inj = hn_zalloc((u64)e->cfg.nodes * d * sizeof(*dr->inj));
	dr->iown = hn_zalloc((u64)e->cfg.nodes * d * sizeof(*dr->iown));
	dr->done = hn_zalloc((u64)f->nin * sizeof(*dr->done));
	dr->pend = hn_zalloc((u64)e->cfg.nodes * sizeof(*dr->pend));
	if (!dr->busy || !dr->own || !dr->inj || !dr->iown || !dr->done ||
	    !dr->pend)
		return -ENOMEM;		/* hn_drop_destroy() frees */
	for (i = 0; i < f->nin; i++)
		f->in[i].t = HN_U64_MAX;
	return gone_make(e);
}

void hn_drop_destroy(struct hn_engine *e)
{
	struct hn_drop *dr = e->fab ? e->fab->dr : NULL;

	if (!dr)
		return;
	hn_free(dr->busy);
	hn_free(dr->own);
	hn_free(dr->inj);
	hn_free(dr->iown);
	hn_free(dr->done);
	hn_free(dr->pend);
	hn_free(dr->dead);
	hn_free(dr->gone);
	hn_free(dr);
	e->fab->dr = NULL;
}
