// SPDX-License-Identifier: GPL-2.0
/*
 * flit.c - the flit router (vc_count >= 1; docs/model.md "Flit router"):
 * packets across the switches of a topology flit by flit, with virtual
 * channels (Duato, Secs. 2.3.4 and 2.6 on wormhole and virtual channels).
 *
 * Every input fed by a switch has vc_count virtual channels, each a FIFO
 * of vc_flits flits (struct hn_fvc).  The output feeding it counts each
 * one's free flits (credits): it spends one per flit it sends and has it
 * back when that flit leaves the FIFO.  A node's input is its VQ_W (per
 * destination, as switch.c's) with vc_count VCs of its own: it sends up
 * to vc_count worms at once, one in each, the first ready in round-robin
 * order of destinations (or voq_arbiter's) whose output has a virtual
 * channel free for it, several of one destination too, but a message's
 * worms one after another in one VC.  A node's link, the last output,
 * likewise takes up to vc_count worms at once, their flits interleaved.
 *
 * A header at the head of its FIFO is routed (hn_sw_route()) and asks its
 * output for a virtual channel of the next input, of the class the
 * topology gives (ops->vc_class: a torus's dateline; else any).  Each
 * output takes one flit per crossing from the FIFOs asking it, in
 * round-robin order of (input port, VC) after the one it served last: a
 * header if a virtual channel is free for it (which its worm then holds
 * until its tail has gone through: the next worm may follow it into that
 * FIFO), any other flit if its virtual channel has credit.  An input
 * sends one flit at a time over all its VCs.  So a worm blocked in one
 * VC leaves the link to the others, and flits of several worms
 * interleave on a link.
 *
 * Times are switch.c's, so that a lone worm's latency is Duato's: a
 * header crosses a switch in wh_first_ns (routing, arbitration and
 * crossing), any other flit in wh_flit_ns; with wh_overlap the routing
 * and arbitration (wh_first_ns - wh_flit_ns) is done while the header
 * waits, and it crosses in wh_flit_ns.  A flit is in the next input
 * f->lat after it has crossed; the credit for the place it left is back
 * as it starts crossing (so the flit behind it leaves no earlier than it
 * did, as in switch.c).  A node's flits stream in from its link: its
 * tail leaves no earlier than it is in.  Virtual cut-through takes a VC
 * only with credit for the whole worm; store-and-forward moreover moves
 * a header only once its tail is in.
 *
 * Events: input i is event i (a node's picks its next worm, any other
 * routes the headers at the heads of its VCs), output o is event nin +
 * o.  At the end of S_W every flit stays where it is; the next S_W moves
 * every time still to come by the time between them.
 */
#include "engine.h"

static bool in_sw(const struct hn_engine *e)
{
	return e->in_slot && e->cur == e->cfg.k;
}

static struct hn_fvc *vc_of(const struct hn_flit *fl, u32 i, u32 v)
{
	return &fl->vc[(u64)i * fl->V + v];
}

static void stash(struct hn_engine *e, u32 j)
{
	struct hn_flit *fl = e->fab->fl;

	if (in_sw(e))
		hn_ev_del(e, j);
	if (!fl->stashed[j]) {
		fl->stashed[j] = 1;
		fl->stash[fl->nstash++] = j;
	}
}

/* Event @j at @t. */
static void ev_at(struct hn_engine *e, u32 j, u64 t)
{
	t = hn_max64(t, e->now);
	e->fab->fl->evt[j] = t;
	if (in_sw(e) && t <= e->slot_end)
		hn_ev_set(e, j, t);
	else
		stash(e, j);
}

/* A node's event on the stash to look again when S_W begins. */
#define RETRY	(HN_U64_MAX - 1)

/* Event @j at @t unless it has one as early (in the heap or the stash). */
static void arm(struct hn_engine *e, u32 j, u64 t)
{
	struct hn_flit *fl = e->fab->fl;

	t = hn_max64(t, e->now);
	if ((e->hpos[j] != HN_NONE || fl->stashed[j]) && fl->evt[j] <= t)
		return;
	ev_at(e, j, t);
}

static void no_event(struct hn_engine *e, u32 j)
{
	struct hn_flit *fl = e->fab->fl;

	hn_ev_del(e, j);
	fl->evt[j] = HN_U64_MAX;
}

static void arm_out(struct hn_engine *e, u32 o, u64 t)
{
	arm(e, e->fab->nin + o, t);
}

/* ---- requests: the VCs whose head worm wants or holds output o */

static void req_add(struct hn_flit *fl, u32 o, struct hn_fvc *r)
{
	r->prev = NULL;
	r->next = fl->req[o];
	if (r->next)
		r->next->prev = r;
	fl->req[o] = r;
}

static void req_del(struct hn_flit *fl, u32 o, struct hn_fvc *r)
{
	if (r->prev)
		r->prev->next = r->next;
	else
		fl->req[o] = r->next;
	if (r->next)
		r->next->prev = r->prev;
	r->next = NULL;
	r->prev = NULL;
}

/* Nodes waiting at output @o for a VC or credit look again at @t. */
static void wake_nodes(struct hn_engine *e, u32 o, u64 t)
{
	struct hn_fab *f = e->fab;
	struct hn_flit *fl = f->fl;
	u64 *w = &fl->wait[(u64)o * fl->words], b;
	u32 j, base = o - o % f->radix;

	for (j = 0; j < fl->words; j++) {
		while ((b = w[j])) {
			w[j] = b & (b - 1);
			arm(e, f->in_of[base + j * 64 + hn_ctz64(b)], t);
		}
	}
}

/* ---- virtual channels */

static u32 cls_of(const struct hn_flit *fl, u32 v)
{
	return fl->classes > 1 && v >= fl->V / 2;
}

/* The class of VC a header in VC @v of input @i takes at output @o. */
static u32 next_cls(const struct hn_engine *e, u32 i, u32 v, u32 o)
{
	const struct hn_fab *f = e->fab;
	const struct hn_topo *t = &e->topo;

	if (e->fab->fl->classes < 2)
		return 0;
	return t->ops->vc_class(t, o / f->radix, f->in[i].port,
				o % f->radix, cls_of(f->fl, v));
}

/*
 * A VC of class @cls free at output @o with credit for @need flits, or
 * HN_NONE.  An output to a node has one, free when no worm holds it.
 */
static u32 free_vc(const struct hn_fab *f, u32 o, u32 cls, u32 need)
{
	const struct hn_flit *fl = f->fl;
	u32 v, lo = 0, hi = fl->V;
	u64 k = (u64)o * fl->V;

	if (f->out[o].down == HN_NONE) {
		for (v = 0; v < fl->V; v++)
			if (!fl->owner[k + v])
				return v;
		return HN_NONE;
	}
	if (fl->classes > 1) {
		lo = cls ? fl->V / 2 : 0;
		hi = cls ? fl->V : fl->V / 2;
	}
	for (v = lo; v < hi; v++)
		if (!fl->owner[k + v] && fl->credit[k + v] >= need)
			return v;
	return HN_NONE;
}

/* Credit a header of @flits of @m needs to leave by @o (flow.c). */
static u32 need_of(const struct hn_engine *e, const struct hn_msg *m, u32 o,
		   u32 flits)
{
	return hn_flow_whole(e, m, o) ? flits : 1;
}

/* A flit has reached the head of @r (an input's VC) at @th. */
static void head_in(struct hn_engine *e, struct hn_fvc *r, u64 th)
{
	struct hn_fflit *h = &r->ring[r->head];

	if (h->x) {		/* its worm holds its output already */
		arm_out(e, r->out, h->t);
		return;
	}
	r->since = hn_max64(h->t, th);
	r->stalled = 0;
	arm(e, r->in, r->since);
}

/*
 * When the next flit of @r may cross to its output, HN_U64_MAX if it is
 * not there; its number in *@x, its crossing time in *@c.
 */
static u64 ready_at(const struct hn_engine *e, const struct hn_fvc *r,
		    struct hn_fworm **wp, u32 *x, u64 *c)
{
	const struct hn_config *cf = &e->cfg;
	const struct hn_flit *fl = e->fab->fl;
	struct hn_fworm *w;
	u64 t, ta = 0;
	bool store;

	if (r->ring) {
		if (!r->n)
			return HN_U64_MAX;
		w = r->ring[r->head].w;
		*x = r->ring[r->head].x;
		t = *x ? r->ring[r->head].t : r->since;
		if (!*x && hn_flow_store_in(e, w->m, r->in)) {	/* all of it first */
			if (r->n < w->flits)
				return HN_U64_MAX;
			t = hn_max64(t, r->ring[(r->head + w->flits - 1) %
						fl->depth].t);
		}
	} else {
		w = r->w;
		*x = r->x;
		t = *x ? w->at : r->since;
		store = hn_flow_store_in(e, w->m, r->in);
		if (store || *x + 1 == w->flits)
			ta = hn_tail_at(cf, w->m, w->off + w->bytes);
		if (!*x && store)
			t = hn_max64(t, ta);
	}
	*wp = w;
	*c = !*x && !cf->wh_overlap ? cf->wh_first_ns : cf->wh_flit_ns;
	if (!*x && cf->wh_overlap)
		t += cf->wh_first_ns - cf->wh_flit_ns;
	if (!r->ring && *x + 1 == w->flits && ta > *c)
		t = hn_max64(t, ta - *c);	/* it streams in from the NIC */
	return t;
}

/* ---- a flit crosses */

/*
 * Node @u cuts @w from the message at the head of its VQ_W, to send in
 * @r: until the message's last worm @r sends its worms.  Their bytes stay
 * in the switch until their tails have left (node_done()).
 */
static void cut(struct hn_engine *e, u32 u, struct hn_fworm *w,
		struct hn_fvc *r)
{
	struct hn_stream *st = w->st;

	if (hn_sw_cut(e, u, st, w->bytes)) {
		st->cutting = 0;
		r->st = NULL;
	} else {
		st->cutting = r->v + 1;
		r->st = st;
	}
}

/* A node's VC sends a worm, or has its bytes to give back to VQ_W. */
static bool busy(const struct hn_fvc *r)
{
	return r->w || r->left;
}

/* Node @u's input has sent the tail of @w, which crossed by @tl. */
static void node_done(struct hn_engine *e, struct hn_fvc *r,
		      struct hn_fworm *w, u64 tl)
{
	r->w = NULL;
	r->fin = tl;
	r->left = w->bytes;	/* room in VQ_W at tl (node_event()) */
	w->st->w_end = tl;	/* its VQ_W was served until then (queue.c) */
	hn_in_sent(e, r->in, w->bytes);
	arm(e, r->in, tl);
}

/* Output @o sends the next flit of @r at @t, in VC @v (allocated now). */
static void send(struct hn_engine *e, u32 o, struct hn_fvc *r, u32 v, u64 t)
{
	const struct hn_config *c = &e->cfg;
	struct hn_fab *f = e->fab;
	struct hn_flit *fl = f->fl;
	struct hn_oport *op = &f->out[o];
	struct hn_iport *in = &f->in[r->in];
	struct hn_fworm *w;
	struct hn_fvc *q;
	u32 x;
	struct hn_fflit *h;
	u64 cross, tl, j, k = (u64)o * fl->V;

	ready_at(e, r, &w, &x, &cross);
	tl = t + cross;
	if (r->ovc == HN_NONE) {
		r->ovc = v;
		fl->owner[k + v] = r;
		in->blocked_ns += t - hn_min64(r->since, t);
	}
	fl->in_busy[r->in] = tl;
	op->busy = tl;
	op->busy_ns += cross;
	fl->rr[o] = in->port * fl->V + r->v;
	if (tl > f->moved)
		f->moved = tl;
	/* it leaves its input */
	if (r->ring) {
		r->head = (r->head + 1) % fl->depth;
		r->n--;
		fl->flits_in--;
		hn_hold(in, t, -(s64)c->flit_bytes);
		j = (u64)in->feed * fl->V + r->v;
		fl->credit[j]++;
		arm_out(e, in->feed, t);
		if (!fl->owner[j])
			wake_nodes(e, in->feed, t);	/* it may be free */
	} else {
		r->x++;
	}
	/* and enters the next */
	if (op->down != HN_NONE) {
		q = vc_of(fl, op->down, r->ovc);
		h = &q->ring[(q->head + q->n) % fl->depth];
		h->w = w;
		h->x = x;
		h->t = tl + f->lat;
		q->n++;
		fl->flits_in++;
		fl->credit[k + r->ovc]--;
		hn_hold(&f->in[op->down], t, c->flit_bytes);
		if (q->n == 1)
			head_in(e, q, h->t);
		else if (x + 1 == w->flits &&
			 hn_flow_store_in(e, w->m, op->down) &&
			 q->out != HN_NONE)
			arm_out(e, q->out, h->t);	/* a header waits for it */
	}
	if (x + 1 < w->flits)
		return;
	/* the tail: the VC it held is free, the worm has left this input */
	op->bytes += w->bytes;
	op->worms++;
	fl->owner[k + r->ovc] = NULL;
	wake_nodes(e, o, t);
	req_del(fl, o, r);
	r->out = HN_NONE;
	r->ovc = HN_NONE;
	if (!r->ring)
		node_done(e, r, w, tl);
	else if (r->n)
		head_in(e, r, tl);
	if (op->down == HN_NONE)	/* it arrives when it has crossed */
		fl->arrive[o] = w;
}

/* The tail output @o sent to its node has crossed by @t: it arrives. */
static void arrived(struct hn_engine *e, u32 o)
{
	struct hn_fab *f = e->fab;
	struct hn_fworm *w = f->fl->arrive[o];

	f->fl->arrive[o] = NULL;
	hn_sw_arrive(e, w, f->out[o].busy);
}

/* Output @o at @t: the first ready of its requests after the last served. */
static void out_event(struct hn_engine *e, u32 o, u64 t)
{
	struct hn_fab *f = e->fab;
	struct hn_flit *fl = f->fl;
	struct hn_oport *op = &f->out[o];
	u32 n = f->radix * fl->V, best_d = n, best_v = 0, v, d, x;
	u64 wake_t = HN_U64_MAX, rt, cross;
	struct hn_fvc *r, *best = NULL;
	struct hn_fworm *w;

	if (op->busy > t) {
		ev_at(e, f->nin + o, op->busy);
		return;
	}
	if (fl->arrive[o])
		arrived(e, o);
	for (r = fl->req[o]; r; r = r->next) {
		rt = ready_at(e, r, &w, &x, &cross);
		if (rt > t) {
			wake_t = hn_min64(wake_t, rt);
			continue;
		}
		if (fl->in_busy[r->in] > t) {
			wake_t = hn_min64(wake_t, fl->in_busy[r->in]);
			continue;
		}
		v = r->ovc;
		if (v == HN_NONE)
			v = free_vc(f, o, r->cls,
				    need_of(e, w->m, o, w->flits));
		if (v == HN_NONE || (op->down != HN_NONE &&
				     !fl->credit[(u64)o * fl->V + v])) {
			if (!r->stalled) {	/* woken by a credit, a VC */
				r->stalled = 1;
				f->in[r->in].stalls++;
				op->stalls++;
			}
			continue;
		}
		d = hn_rr_dist(f->in[r->in].port * fl->V + r->v, fl->rr[o], n);
		if (d < best_d) {
			best = r;
			best_d = d;
			best_v = v;
		}
	}
	if (best) {
		send(e, o, best, best_v, t);
		wake_t = op->busy;
	}
	if (wake_t != HN_U64_MAX && (fl->req[o] || fl->arrive[o]))
		ev_at(e, f->nin + o, wake_t);
	else
		no_event(e, f->nin + o);
}

/* Inner input @i at @t: route the headers at the heads of its VCs. */
static void in_event(struct hn_engine *e, u32 i, u64 t)
{
	struct hn_fab *f = e->fab;
	struct hn_flit *fl = f->fl;
	u64 wake_t = HN_U64_MAX;
	struct hn_fworm *w;
	struct hn_fvc *r;
	u32 v, o;

	for (v = 0; v < fl->V; v++) {
		r = vc_of(fl, i, v);
		if (!r->n || r->out != HN_NONE)
			continue;
		if (r->since > t) {
			wake_t = hn_min64(wake_t, r->since);
			continue;
		}
		w = r->ring[r->head].w;
		o = hn_sw_route(e, i, w->m->dst);
		r->out = o;
		r->cls = next_cls(e, i, v, o);
		req_add(fl, o, r);
		arm_out(e, o, t);
	}
	if (wake_t != HN_U64_MAX)
		ev_at(e, i, wake_t);
	else
		no_event(e, i);
}

/*
 * The VC of node @u's input that would send @st's next worm, NULL if it
 * is busy: the one sending its message's worms, or else the first free.
 */
static struct hn_fvc *slot_of(const struct hn_flit *fl, u32 u,
			      const struct hn_stream *st, struct hn_fvc *free)
{
	struct hn_fvc *r;

	if (!st->cutting)
		return free;
	r = vc_of(fl, u, st->cutting - 1);
	return busy(r) ? NULL : r;
}

/*
 * Node @u's input at @t: of its VQ_W the first ready in round-robin
 * order of destinations after the one served last (or voq_arbiter's:
 * hn_voq_key()) whose output has a VC
 * free for it starts its message's next worm, in a VC of the input free
 * for it.  Up to vc_count worms go at once, several of one stream too,
 * but a message's worms one after another, in one VC.
 */
static void node_event(struct hn_engine *e, u32 u, u64 t)
{
	const struct hn_config *c = &e->cfg;
	struct hn_fab *f = e->fab;
	struct hn_flit *fl = f->fl;
	struct hn_fvc *free = NULL, *r, *best_r = NULL;
	struct hn_node *n = &e->node[u];
	struct hn_stream *st, *best = NULL;
	u32 bytes, o, v, best_v = 0, p;
	u64 wake_t = HN_U64_MAX, at, best_at = 0, key, best_key = HN_U64_MAX;
	bool room = false;
	struct hn_fworm *w;
	struct hn_msg *m;

	for (v = 0; v < fl->V; v++) {
		r = vc_of(fl, u, v);
		if (r->left && r->fin <= t) {	/* a tail has left */
			n->sw_used -= r->left;
			r->left = 0;
			room = true;
		} else if (r->left) {
			wake_t = hn_min64(wake_t, r->fin);
		}
		if (!busy(r) && !r->st && !free)
			free = r;
	}
	if (room)
		hn_nic_forward(e, u, t);
	st = n->ring;
	if (!st) {
		if (wake_t != HN_U64_MAX)
			ev_at(e, u, wake_t);
		else
			no_event(e, u);
		return;
	}
	do {
		r = slot_of(fl, u, st, free);
		if (!r)
			goto next;
		m = st->vq_w.head;
		bytes = (u32)hn_min64(c->worm_bytes, m->len - m->sent);
		at = st->cutting ? hn_max64(m->t_ready, r->fin) : m->t_ready;
		if (hn_cut_off(e, u, st->dst)) {
			;		/* a link up wakes it */
		} else if (at > t) {
			wake_t = hn_min64(wake_t, at);
		} else {
			if (!st->port)	/* routed once, when first looked at */
				st->port = 1 + hn_sw_route(e, u, st->dst) %
					   f->radix;
			o = f->in[u].sw * f->radix + st->port - 1;
			v = free_vc(f, o, next_cls(e, u, 0, o),
				    need_of(e, m, o, (bytes + c->flit_bytes - 1) /
						  c->flit_bytes));
			p = f->in[u].port;	/* waits on o by its port */
			if (v == HN_NONE) {
				fl->wait[(u64)o * fl->words + p / 64] |=
					1ULL << (p % 64);
			} else if (hn_rx_fits(e, m)) {
				key = hn_voq_key(e, n, st, t);
				if (key < best_key) {
					best = st;
					best_r = r;
					best_v = v;
					best_at = at;
					best_key = key;
				}
			}
		}
next:
		st = st->rr_next;
	} while (st != n->ring && best_key);
	if (!best) {
		if (wake_t != HN_U64_MAX)
			ev_at(e, u, wake_t);
		else		/* a VC, a credit, a tail wakes it; room */
			ev_at(e, u, RETRY);	/* at the receiver: next S_W */
		return;
	}
	r = best_r;
	o = f->in[u].sw * f->radix + best->port - 1;
	w = hn_sw_worm_new(e, u, best);
	w->at = best_at;
	best->port = 0;
	cut(e, u, w, r);
	r->w = w;
	r->x = 0;
	r->out = o;
	r->ovc = best_v;
	r->since = w->at;
	r->stalled = 0;
	fl->owner[(u64)o * fl->V + best_v] = r;
	req_add(fl, o, r);
	arm_out(e, o, w->at);
	ev_at(e, u, t);			/* another VC, another stream */
}

void hn_flit_event(struct hn_engine *e, u32 j, u64 t)
{
	struct hn_fab *f = e->fab;

	if (t >= e->slot_end) {		/* the next S_W's */
		stash(e, j);
		return;
	}
	if (j >= f->nin)
		out_event(e, j - f->nin, t);
	else if (j < e->cfg.nodes)
		node_event(e, j, t);
	else
		in_event(e, j, t);
}

/* A message has reached node @u's VQ_W, its header at the switch at @t. */
void hn_flit_arm(struct hn_engine *e, u32 u, u64 t)
{
	struct hn_flit *fl = e->fab->fl;
	u32 v;

	for (v = 0; v < fl->V && busy(vc_of(fl, u, v)); v++)
		;
	if (v == fl->V)
		return;		/* it looks when a worm's tail has gone */
	if (in_sw(e))
		t = hn_max64(t, e->slot_start + e->cfg.guard_ns);
	arm(e, u, t);
}

/* ---- the wormhole slot's boundaries */

/* Every time after @end moves @gap later. */
static void shift(struct hn_engine *e, u64 end, u64 gap)
{
	struct hn_fab *f = e->fab;
	struct hn_flit *fl = f->fl;
	struct hn_fvc *r;
	struct hn_fflit *h;
	u32 i, k;
	u64 j;

	for (j = e->cfg.nodes; j < fl->nev; j++)	/* a node's looks anew */
		fl->evt[j] = hn_later(fl->evt[j], end, gap);
	for (i = 0; i < f->nout; i++)
		f->out[i].busy = hn_later(f->out[i].busy, end, gap);
	for (i = 0; i < f->nin; i++)
		fl->in_busy[i] = hn_later(fl->in_busy[i], end, gap);
	for (j = 0; j < (u64)f->nin * fl->V; j++) {
		r = &fl->vc[j];
		r->since = hn_later(r->since, end, gap);
		r->fin = hn_later(r->fin, end, gap);
		if (r->w)
			r->w->at = hn_later(r->w->at, end, gap);
		for (k = 0; k < r->n; k++) {
			h = &r->ring[(r->head + k) % fl->depth];
			h->t = hn_later(h->t, end, gap);
		}
		if (!(j % 4096))
			hn_resched();
	}
}

/* S_W begins at e->slot_start: the stashed events happen from then on. */
void hn_flit_begin(struct hn_engine *e)
{
	struct hn_fab *f = e->fab;
	struct hn_flit *fl = f->fl;
	u64 t0 = e->slot_start + e->cfg.guard_ns;
	u32 k, n = fl->nstash, j;

	if (f->w_end != HN_U64_MAX && t0 > f->w_end) {
		f->moved += t0 - f->w_end;	/* timed in S_W only */
		shift(e, f->w_end, t0 - f->w_end);
	}
	fl->nstash = 0;
	for (k = 0; k < n; k++) {
		j = fl->stash[k];
		fl->stashed[j] = 0;
		if (fl->evt[j] == RETRY)
			ev_at(e, j, t0);
		else if (fl->evt[j] != HN_U64_MAX)
			ev_at(e, j, hn_max64(fl->evt[j], t0));
	}
}

/* ---- deadlock */

/* The VC @r waits for (its index), HN_NONE if it waits for none. */
static u32 waits_for(const struct hn_engine *e, const struct hn_fvc *r)
{
	const struct hn_fab *f = e->fab;
	const struct hn_flit *fl = f->fl;
	u32 o = r->out, d, v;
	u64 k = (u64)o * fl->V;

	if (o == HN_NONE || (r->ring && !r->n))
		return HN_NONE;
	d = f->out[o].down;
	if (d == HN_NONE)
		return HN_NONE;
	if (r->ovc != HN_NONE)		/* credit: that FIFO must move */
		return fl->credit[k + r->ovc] ? HN_NONE :
		       d * fl->V + r->ovc;
	for (v = 0; v < fl->V; v++)	/* a VC: its holder must fill it */
		if (fl->owner[k + v] &&
		    (fl->classes < 2 || cls_of(fl, v) == r->cls))
			return d * fl->V + v;
	return HN_NONE;
}

/* No flit has moved since f->moved: the cycle of waiting VCs. */
static void deadlock(struct hn_engine *e)
{
	struct hn_fab *f = e->fab;
	struct hn_flit *fl = f->fl;
	struct hn_deadlock *d = &f->dl;
	u32 nvc = f->nin * fl->V, *seen, i, j, k, start, n;

	f->deadlocked = true;
	d->at = e->now;
	d->since = f->moved;
	seen = hn_zalloc(nvc * sizeof(*seen));
	if (!seen)
		return;			/* reported with no cycle */
	for (start = 0; start < nvc && !d->n; start++) {
		if (!(start % 4096))
			hn_resched();
		if (seen[start])
			continue;
		for (i = start; i != HN_NONE && !seen[i];
		     i = waits_for(e, &fl->vc[i]))
			seen[i] = start + 1;
		if (i == HN_NONE || seen[i] != start + 1)
			continue;
		n = 0;
		j = i;
		do {		/* the channel and the VC it waits for */
			k = waits_for(e, &fl->vc[j]);
			hn_sw_dl_chan(e, n++, fl->vc[j].out, k % fl->V);
			j = k;
		} while (j != i && n <= nvc);
		d->n = n;
	}
	hn_free(seen);
}

/* S_W ends: its events are done; the rest wait on the stash. */
void hn_flit_end(struct hn_engine *e)
{
	struct hn_fab *f = e->fab;
	struct hn_flit *fl = f->fl;
	u32 k, j;

	for (k = 0; k < e->nheap; k++) {
		j = hn_ev_input(e, k);
		if (!fl->stashed[j]) {
			fl->stashed[j] = 1;
			fl->stash[fl->nstash++] = j;
		}
	}
	hn_ev_clear(e);
	f->w_end = e->slot_end;
	if (hn_sw_dl_due(e))
		deadlock(e);
}

/* ---- life cycle */

/* The virtual channels of switch.c's ports (e->fab, made before). */
int hn_flit_create(struct hn_engine *e)
{
	struct hn_fab *f = e->fab;
	const struct hn_config *c = &e->cfg;
	u32 V = c->vc_count, N = c->nodes, v, o;
	struct hn_flit *fl;
	struct hn_fvc *r;
	u64 nvc = (u64)f->nin * V, j;

	HN_STATIC_ASSERT(sizeof(struct hn_fflit) <= HN_FLIT_BYTES);
	HN_STATIC_ASSERT(HN_VC_MAX < 127);		/* hn_stream.cutting */
	if ((u64)f->nin + f->nout > HN_EV_MAX)
		return -E2BIG;
	fl = hn_zalloc(sizeof(*fl));
	if (!fl)
		return -ENOMEM;
	f->fl = fl;
	fl->V = V;
	fl->depth = c->vc_flits;
	fl->classes = e->topo.ops->vc_class && V > 1 ? 2 : 1;
	fl->nev = f->nin + f->nout;
	fl->words = (f->radix + 63) / 64;
	fl->vc = hn_zalloc(nvc * sizeof(*fl->vc));
	fl->flits = hn_zalloc((nvc - (u64)N * V) * fl->depth *
			      sizeof(*fl->flits));
	fl->req = hn_zalloc((u64)f->nout * sizeof(*fl->req));
	fl->owner = hn_zalloc((u64)f->nout * V * sizeof(*fl->owner));
	fl->arrive = hn_zalloc((u64)f->nout * sizeof(*fl->arrive));
	fl->credit = hn_zalloc((u64)f->nout * V * sizeof(*fl->credit));
	fl->rr = hn_zalloc((u64)f->nout * sizeof(*fl->rr));
	fl->in_busy = hn_zalloc((u64)f->nin * sizeof(*fl->in_busy));
	fl->evt = hn_zalloc((u64)fl->nev * sizeof(*fl->evt));
	fl->wait = hn_zalloc((u64)f->nout * fl->words * sizeof(*fl->wait));
	fl->stash = hn_zalloc((u64)fl->nev * sizeof(*fl->stash));
	fl->stashed = hn_zalloc(fl->nev);
	if (!fl->vc || !fl->flits || !fl->req || !fl->owner || !fl->arrive ||
	    !fl->credit || !fl->rr || !fl->in_busy || !fl->evt ||
	    !fl->wait || !fl->stash || !fl->stashed)
		return -ENOMEM;		/* hn_flit_destroy() frees */
	for (j = 0; j < nvc; j++) {
		r = &fl->vc[j];
		r->in = (u32)(j / V);
		r->v = (u32)(j % V);
		r->out = HN_NONE;
		r->ovc = HN_NONE;
		if (r->in >= N)
			r->ring = fl->flits + (j - (u64)N * V) * fl->depth;
	}
	for (j = 0; j < fl->nev; j++)
		fl->evt[j] = HN_U64_MAX;
	for (o = 0; o < f->nout; o++) {
		fl->rr[o] = f->radix * V - 1;
		if (f->out[o].down != HN_NONE)
			for (v = 0; v < V; v++)
				fl->credit[(u64)o * V + v] = fl->depth;
	}
	e->nev = fl->nev;
	return 0;
}

void hn_flit_destroy(struct hn_engine *e)
{
	struct hn_flit *fl = e->fab ? e->fab->fl : NULL;

	if (!fl)
		return;
	hn_free(fl->vc);
	hn_free(fl->flits);
	hn_free(fl->req);
	hn_free(fl->owner);
	hn_free(fl->arrive);
	hn_free(fl->credit);
	hn_free(fl->rr);
	hn_free(fl->in_busy);
	hn_free(fl->evt);
	hn_free(fl->wait);
	hn_free(fl->stash);
	hn_free(fl->stashed);
	hn_free(fl);
	e->fab->fl = NULL;
}
