// SPDX-License-Identifier: GPL-2.0
/*
 * drop.c - drop-on-block switching (switching drop; docs/model.md "Drop
 * on block"): the pipelined circuits of METRO as Woods-Corwin's routers
 * switch them [W:380, W:387, W:781], on switch.c's ports and worms.
 *
 * A message is one worm, whatever its length: a circuit carries any
 * [W:382].  Every link has dilation channels (Woods-Corwin's dilated
 * crossbars): a header reaching a switch takes the first free channel of
 * the output its route gives there (hn_sw_route(): by destination digit,
 * random or adaptive up-port), and its flits follow it through at the
 * switch's pace, no switch buffering any of them; each channel is free
 * once the tail has crossed it.  A header that finds no channel free is
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

/* Channel @j of output @o is held until @t (HN_U64_MAX: not known yet). */
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

/* The first of the @d channels @b free at @t, HN_NONE if none is. */
static u32 free_chan(const u64 *b, u32 d, u64 t)
{
	u32 j;

	for (j = 0; j < d; j++)
		if (b[j] <= t)
			return j;
	return HN_NONE;
}

/* ---- a node learns how its worms did */

/* Node @u learns @w's outcome at w->over: keep its list in that order. */
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

/*
 * Node @u learns @w's outcome: a dropped worm may be tried again, the
 * input is done with one that got through, whose bytes leave VQ_W.
 * True when VQ_W has room again.
 */
static bool learn(struct hn_engine *e, u32 u, struct hn_fworm *w)
{
	struct hn_fworm **l = &e->fab->dr->pend[u];
	struct hn_stream *st = w->st;
	bool ok = w->ok;

	while (*l != w)
		l = &(*l)->pnext;
	*l = w->pnext;
	w->pnext = NULL;
	w->pend = 0;
	st->cutting = 0;
	if (ok) {
		hn_in_sent(&e->fab->in[u], &e->cfg, w->bytes);
		st->w_end = w->over;
		e->node[u].sw_used -= w->bytes;
	} else {
		hn_sw_worm_free(e, w);
	}
	hn_stream_put(e, st);	/* none of its messages left: it goes */
	return ok;
}

/* ---- a header's progress */

/*
 * @w's header was dropped at hop w->nh at @t: the drop frees the
 * channels behind it on its way back, a link and a flit time a hop (those
 * its tail has left are free already), and reaches the source's VQ_W a
 * flit time after the first switch.  Its node may try it again after a
 * random wait of 0 to the worm's flits in flit times (ours: the texts
 * give no back-off), without which sources dropping each other's
 * headers can do so in step for ever.
 */
static void dropped(struct hn_engine *e, struct hn_fworm *w, u64 t)
{
	struct hn_fab *f = e->fab;
	struct hn_drop *dr = f->dr;
	u64 back = f->lat + e->cfg.wh_flit_ns, seen, *inj;
	u32 k = w->nh, j, u = w->st->src;
	struct hn_fhop *h;

	for (j = 0; j < k; j++) {
		h = &w->hop[j];
		hold(f, h->out, h->claim,
		     hn_min64(h->fin, t + (k - j) * back));
	}
	seen = t + k * back + e->cfg.wh_flit_ns;
	inj = &dr->inj[(u64)u * dr->d + w->inj];
	*inj = k ? hn_min64(w->hop[0].fin, seen) : seen;
	w->ok = 0;
	w->over = seen + e->cfg.wh_flit_ns *
			 hn_rand_below(&dr->seed, w->flits + 1);
	e->g.drops++;
	pend_add(e, u, w);
	arm(e, u, *inj);
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
 * @w's header has its path, hops 0..w->last, at @t: its message has sent
 * it; its node learns so at @t or once its tail has left, whichever is
 * later; it arrives once its tail has left the last switch.
 */
static void through(struct hn_engine *e, struct hn_fworm *w, u64 t)
{
	struct hn_fab *f = e->fab;
	struct hn_oport *op;
	struct hn_fhop *h;
	u32 k;

	for (k = 0; k <= w->last; k++) {
		h = &w->hop[k];
		op = &f->out[h->out];
		op->bytes += w->bytes;
		op->worms++;
		op->busy_ns += h->fin - h->s;
	}
	w->ok = 1;
	w->over = hn_max64(t, w->hop[0].fin);
	hn_sw_cut(e, w->st->src, w->st, w->bytes);
	pend_add(e, w->st->src, w);
	done_add(e, w->hop[w->last].in, w);
}

/*
 * The header of @w is at input @i at @t: it takes a free channel of its
 * output, or is dropped.  Its flits follow it at the switch's pace with
 * nothing in the way: each leaves once the worm has crossed the switch
 * and the flit has come in (hn_flow_tail() with room for the whole worm
 * ahead), so when its tail leaves is known now.
 */
static void hop(struct hn_engine *e, u32 i, struct hn_fworm *w, u64 t)
{
	const struct hn_config *c = &e->cfg;
	struct hn_fab *f = e->fab;
	struct hn_drop *dr = f->dr;
	u32 k = w->nh, o, j;
	struct hn_fhop *h = &w->hop[k];
	struct hn_iport *d;
	u64 ta;

	o = hn_sw_route(e, f->in[i].sw, w->m->dst);
	j = free_chan(&dr->busy[(u64)o * dr->d], dr->d, t);
	if (j == HN_NONE) {
		dropped(e, w, t);
		return;
	}
	ta = k ? h[-1].fin + f->lat : hn_tail_at(c, w->m, w->off + w->bytes);
	h->out = o;
	h->claim = j;			/* here: its channel of the output */
	h->s = t;
	h->e = t + c->wh_first_ns - c->wh_flit_ns;
	h->fin = hn_max64(h->e + (u64)w->flits * c->wh_flit_ns, ta);
	hold(f, o, j, h->fin);
	if (!k)				/* its node's link is free then */
		dr->inj[(u64)w->st->src * dr->d + w->inj] = h->fin;
	w->nh = k + 1;
	if (f->out[o].down == HN_NONE) {
		w->last = k;
		through(e, w, t);
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
 * Of node @u's VQ_W whose last worm's outcome it knows, the one its
 * arbiter serves next at @t (hn_voq_key()), its head at the switch and
 * its receiver's room free; NULL if none.  When to look again goes into
 * @wake_t, or *@retry says a receiver has no room (look when S_W
 * begins).
 */
static struct hn_stream *pick(struct hn_engine *e, u32 u, u64 t,
			      u64 *wake_t, bool *retry)
{
	struct hn_node *n = &e->node[u];
	struct hn_stream *st = n->ring, *best = NULL;
	u64 key, best_key = HN_U64_MAX;
	struct hn_msg *m;

	if (!st)
		return NULL;
	do {
		m = st->vq_w.head;
		if (st->cutting) {
			;		/* its outcome wakes the input */
		} else if (m->t_ready > t) {
			*wake_t = hn_min64(*wake_t, m->t_ready);
		} else if (!hn_rx_fits(e, m)) {
			*retry = true;
		} else {
			key = hn_voq_key(e, n, st, t);
			if (key < best_key) {
				best = st;
				best_key = key;
			}
		}
		st = st->rr_next;
	} while (st != n->ring && best_key);
	return best;
}

/*
 * Node @u at @t: it learns the outcomes due, then each free channel of
 * its link starts a worm, a whole message (a circuit carries any length).
 */
static u64 node_event(struct hn_engine *e, u32 u, u64 t, bool *retry)
{
	struct hn_drop *dr = e->fab->dr;
	u64 *inj = &dr->inj[(u64)u * dr->d], wake_t = HN_U64_MAX;
	struct hn_fworm *w;
	struct hn_stream *st;
	bool room = false;
	u32 j;

	while ((w = dr->pend[u]) && w->over <= t)
		room |= learn(e, u, w);
	if (room)
		hn_nic_forward(e, u, t);
	while ((j = free_chan(inj, dr->d, t)) != HN_NONE &&
	       (st = pick(e, u, t, &wake_t, retry))) {
		w = hn_sw_worm_new(e, u, st);
		w->bytes = w->m->len;
		w->flits = (w->bytes + e->cfg.flit_bytes - 1) /
			   e->cfg.flit_bytes;
		w->nh = 0;
		w->tl = 0;
		w->last = HN_NONE;
		w->hop[0].in = u;
		w->inj = j;
		inj[j] = HN_U64_MAX;	/* known once its header is past */
		st->cutting = 1;
		e->g.attempts++;
		hop(e, u, w, t);
	}
	if (dr->pend[u])
		wake_t = hn_min64(wake_t, dr->pend[u]->over);
	for (j = 0; j < dr->d && e->node[u].ring; j++)
		if (inj[j] > t)
			wake_t = hn_min64(wake_t, inj[j]);
	return wake_t;
}

/* Input @i's event at @t (wormhole.c's loop). */
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
		if (w->pend && learn(e, w->st->src, w))	/* by now */
			hn_nic_forward(e, w->st->src, t);
		hn_sw_arrive(e, w, w->hop[w->last].fin);
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

/* Every time after @end moves @gap later. */
static void shift(struct hn_engine *e, u64 end, u64 gap)
{
	struct hn_fab *f = e->fab;
	struct hn_drop *dr = f->dr;
	struct hn_iport *in;
	struct hn_fworm *w;
	u32 i, k;
	u64 j;

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
			w->hop[w->last].fin = hn_later(w->hop[w->last].fin,
						       end, gap);
		for (w = in->head; w; w = w->next) {	/* on their way */
			w->at = hn_later(w->at, end, gap);
			for (k = 0; k < w->nh; k++)
				w->hop[k].fin = hn_later(w->hop[k].fin, end,
							 gap);
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

/* ---- life cycle */

/* The channels of switch.c's ports (e->fab, made before), all free. */
int hn_drop_create(struct hn_engine *e)
{
	struct hn_fab *f = e->fab;
	u32 d = e->cfg.dilation;
	struct hn_drop *dr;
	u32 i;

	dr = hn_zalloc(sizeof(*dr));
	if (!dr)
		return -ENOMEM;
	f->dr = dr;
	dr->d = d;
	dr->seed = 0xbb67ae8584caa73bULL;
	dr->busy = hn_zalloc((u64)f->nout * d * sizeof(*dr->busy));
	dr->inj = hn_zalloc((u64)e->cfg.nodes * d * sizeof(*dr->inj));
	dr->done = hn_zalloc((u64)f->nin * sizeof(*dr->done));
	dr->pend = hn_zalloc((u64)e->cfg.nodes * sizeof(*dr->pend));
	if (!dr->busy || !dr->inj || !dr->done || !dr->pend)
		return -ENOMEM;		/* hn_drop_destroy() frees */
	for (i = 0; i < f->nin; i++)
		f->in[i].t = HN_U64_MAX;
	return 0;
}

void hn_drop_destroy(struct hn_engine *e)
{
	struct hn_drop *dr = e->fab ? e->fab->dr : NULL;

	if (!dr)
		return;
	hn_free(dr->busy);
	hn_free(dr->inj);
	hn_free(dr->done);
	hn_free(dr->pend);
	hn_free(dr);
	e->fab->dr = NULL;
}
