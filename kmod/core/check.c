// SPDX-License-Identifier: GPL-2.0
/*
 * check.c - hn_check(): verify the engine's invariants at any instant.
 *
 * Every B^(s) is a partial permutation whose out[] and in[] agree, no
 * connection sits in two slots, a circuit's path holds its slot's links
 * alone (on switches feeding switches), the queues hold exactly what the counters
 * say, the buffers hold what they account for, the Dynamic TDM request
 * list holds exactly the streams that wait for a circuit, the statistics
 * by mode and by pair add up, and injected = delivered + in flight
 * (messages and bytes).
 */
#include "engine.h"
#include "sched_int.h"		/* hn_test_bit() */

static int bad(struct hn_err *err, const char *msg, u32 slot, u32 node)
{
	return hn_fail(err, -EIO, msg, slot, node, HN_NONE);
}

/* @msg about slot @s's circuit from @u, and from @w that holds its link */
static int path_bad(const struct hn_engine *e, struct hn_err *err,
		    const char *msg, u32 s, u32 u, u32 w)
{
	const struct hn_slot *sl = &e->slot[s];

	hn_fail(err, -EIO, msg, s, u, HN_NONE);
	if (err && u != HN_NONE && w != HN_NONE) {
		err->pairs = true;
		err->a = (struct hn_pair){ u, sl->out[u] };
		err->b = (struct hn_pair){ w, sl->out[w] };
	}
	return -EIO;
}

/* Which circuit of slot @sl before its @i-th holds channel @c? */
static u32 holder(const struct hn_engine *e, const struct hn_slot *sl,
		  u32 i, u32 c)
{
	u32 j, w, L = e->topo.npick;
	int n, k;

	for (j = 0; j < i; j++) {
		w = sl->conn[j];
		n = hn_circuit_chans(e, w, sl->out[w], sl->pick + w * L);
		for (k = 0; k < n; k++)
			if (e->c_chan[k] == c)
				return w;
	}
	return HN_NONE;
}

/*
 * Switches feeding switches: slot @s's circuits are paths of the topology
 * by their choices, no channel carries two of them, and the slot's
 * channel state marks exactly theirs held (@seen: scratch of @w words).
 */
static int check_slot_paths(const struct hn_engine *e, u32 s, u64 *seen,
			    u32 w, struct hn_err *err)
{
	const struct hn_slot *sl = &e->slot[s];
	u32 L = e->topo.npick, i, u;
	int n, k;

	memset(seen, 0, w * sizeof(*seen));
	for (i = 0; i < sl->nconn; i++) {
		u = sl->conn[i];
		n = hn_circuit_chans(e, u, sl->out[u], sl->pick + u * L);
		if (n < 0)
			return path_bad(e, err, "circuit's choices make no path",
					s, u, HN_NONE);
		if (sl->hops[u] != n)
			return path_bad(e, err, "circuit's hop count wrong", s,
					u, HN_NONE);
		for (k = 0; k < n; k++) {
			if (hn_test_bit(seen, e->c_chan[k]))
				return path_bad(e, err,
						"two circuits hold one link", s,
						u, holder(e, sl, i, e->c_chan[k]));
			hn_set_bit(seen, e->c_chan[k]);
		}
	}
	for (i = 0; e->dead_chan && i < w; i++)	/* taken: fault.c */
		seen[i] |= e->dead_chan[i];
	if (memcmp(seen, sl->busy, w * sizeof(*seen)))
		return path_bad(e, err,
				"link state differs from the circuits' links",
				s, HN_NONE, HN_NONE);
	return 0;
}

static int check_paths(const struct hn_engine *e, struct hn_err *err)
{
	u32 w = HN_WORDS(hn_topo_nchan(&e->topo)), s;
	u64 *seen;
	int rc = 0;

	if (!hn_paths(e))
		return 0;
	seen = hn_zalloc(w * sizeof(*seen));
	if (!seen)
		return -ENOMEM;
	for (s = 0; s < e->cfg.k && !rc; s++)
		rc = check_slot_paths(e, s, seen, w, err);
	hn_free(seen);
	return rc;
}

static int check_slots(const struct hn_engine *e, struct hn_err *err)
{
	u32 N = e->cfg.nodes, s, t, u, v, n;
	const struct hn_slot *sl;

	for (s = 0; s < e->cfg.k; s++) {
		sl = &e->slot[s];
		for (u = 0, n = 0; u < N; u++) {
			v = sl->out[u];
			if (v == HN_NONE)
				continue;
			if (v >= N || sl->in[v] != u)
				return bad(err, "out[] and in[] disagree", s, u);
			if (sl->pos[u] >= sl->nconn || sl->conn[sl->pos[u]] != u)
				return bad(err, "connection list broken", s, u);
			for (t = s + 1; t < e->cfg.k; t++)
				if (e->slot[t].out[u] == v)
					return bad(err, "connection in two slots",
						   t, u);
			n++;
		}
		if (n != sl->nconn)
			return bad(err, "connection count wrong", s, HN_NONE);
		for (v = 0, n = 0; v < N; v++)
			n += sl->in[v] != HN_NONE;
		if (n != sl->nconn)
			return bad(err, "two circuits to one output", s, HN_NONE);
		for (n = 0; n < sl->nact; n++) {
			const struct hn_stream *st;

			u = sl->act[n];
			if (sl->out[u] == HN_NONE || sl->apos[u] != n)
				return bad(err, "active list broken", s, u);
			st = hn_stream_find(e, u, sl->out[u]);
			if (!st || !st->vq_pckt.count)
				return bad(err, "idle circuit on active list", s,
					   u);
		}
	}
	return 0;
}

/* Dynamic TDM: the request list holds exactly the flagged streams. */
static int check_requests(const struct hn_engine *e, u32 nreq, u64 reqm,
			  struct hn_err *err)
{
	const struct hn_stream *st, *prev = NULL;
	u32 n = 0;

	for (st = e->req_head; st && n <= nreq; st = st->req_next, n++) {
		if (!st->req || st->req_prev != prev)
			return bad(err, "request list broken", HN_NONE, st->src);
		prev = st;
	}
	if (n != nreq || n != e->nreq || prev != e->req_tail)
		return bad(err, "request list length wrong", HN_NONE, HN_NONE);
	if (reqm != e->req_msgs)
		return bad(err, "messages waiting for circuits miscounted",
			   HN_NONE, HN_NONE);
	return 0;
}

/* @q's bytes, and its messages in @count: HN_NONE if it counts otherwise */
/*
 * @q's messages come in order of priority, the highest first (from the
 * second if @skip_head: the head is on its way).
 */
static bool prio_ordered(const struct hn_queue *q, bool skip_head)
{
	const struct hn_msg *m = q->head;

	if (m && skip_head)
		m = m->next;
	for (; m && m->next; m = m->next)
		if (m->next->prio > m->prio)
			return false;
	return true;
}

static u64 queue_bytes(const struct hn_queue *q, u32 *count)
{
	const struct hn_msg *m;
	u64 b = 0;

	*count = 0;
	for (m = q->head; m; m = m->next) {
		b += m->len;
		(*count)++;
	}
	if (b != q->bytes)
		*count = HN_NONE;
	return b;
}

/*
 * The bytes of the worms node @u's input sends through the flit router:
 * cut from their messages in VQ_W, still in the switch.
 */
static u64 flit_sending(const struct hn_engine *e, u32 u)
{
	const struct hn_flit *fl = e->fab->fl;
	const struct hn_fvc *r = &fl->vc[(u64)u * fl->V];
	u64 b = 0;
	u32 v;

	for (v = 0; v < fl->V; v++)
		b += (r[v].w ? r[v].w->bytes : 0) + r[v].left;
	return b;
}

/* The time event @u's owner keeps for it. */
static u64 ev_time(const struct hn_engine *e, u32 u)
{
	if (e->cur != e->cfg.k)
		return e->node[u].in_free;
	return e->fab->fl ? e->fab->fl->evt[u] : e->fab->in[u].t;
}

/*
 * The slot in progress: time inside it, its events a heap whose entries
 * and e->hpos[] agree, none in the past; no events between slots but
 * those a wormhole slot's soft end keeps for the next (engine.c).
 */
static int check_events(const struct hn_engine *e, struct hn_err *err)
{
	u32 u, i, in = 0;

	if (!e->in_slot && !e->w_carry && e->nheap)
		return bad(err, "events with no slot in progress", HN_NONE,
			   HN_NONE);
	if (e->in_slot && (e->now < e->slot_start || e->now > e->slot_end))
		return bad(err, "time outside the slot in progress", e->cur,
			   HN_NONE);
	for (i = 1; i < e->nheap; i++)
		if (e->heap[(i - 1) / 2] > e->heap[i])
			return bad(err, "event heap out of order", HN_NONE,
				   HN_NONE);
	for (i = 0; i < e->nheap; i++)
		if (e->ev_base + (e->heap[i] >> HN_EV_SHIFT) < e->now)
			return bad(err, "event in the past", HN_NONE, HN_NONE);
	for (u = 0; u < e->nev; u++) {
		i = e->hpos[u];
		if (i == HN_NONE)
			continue;
		in++;
		if (i >= e->nheap || ev_time(e, u) !=
		    e->ev_base + (e->heap[i] >> HN_EV_SHIFT))
			return bad(err, "event heap index wrong", HN_NONE, u);
	}
	if (in != e->nheap)
		return bad(err, "event heap index wrong", HN_NONE, HN_NONE);
	return 0;
}

/*
 * Every engine of a multistage fabric: its @worms in use are the worms
 * taken, no more than its messages may need, and the @bytes of those
 * still to arrive are what the messages have cut and not yet delivered.
 */
static int check_worms(const struct hn_fab *f, u64 worms, u64 bytes, u64 cut,
		       struct hn_err *err)
{
	if (worms != f->wused || f->wused > f->wcap)
		return bad(err, "worms miscounted", HN_NONE, HN_NONE);
	if (f->wused > f->wneed || f->wused > f->wmax ||
	    hn_min64(f->wneed, f->wmax) > f->wcap)
		return bad(err, "worms beyond what the messages may need",
			   HN_NONE, HN_NONE);
	if (bytes != cut)
		return bad(err, "worms do not carry what messages cut",
			   HN_NONE, HN_NONE);
	return 0;
}

/*
 * A multistage fabric (switch.c): each input's buffer holds what its
 * worms claimed, every worm in use is in exactly one place (waiting at
 * one input, or sending its last hop), and the worms carry exactly the
 * bytes their messages have cut and not yet delivered (@cut, summed by
 * hn_check() over the messages in VQ_W and in the fabric).
 */
static int check_fabric(const struct hn_engine *e, u64 cut,
			struct hn_err *err)
{
	const struct hn_fab *f = e->fab;
	const struct hn_iport *in;
	const struct hn_fworm *w;
	u64 bytes = 0, worms = 0, used;
	u32 i;

	for (i = 0; i < f->nin; i++) {
		in = &f->in[i];
		used = 0;
		w = in->cur;
		if (w && (w->hop[in->hop].in != i || in->hop < w->tl ||
			  in->hop >= w->nh))
			return bad(err, "input sends a worm not at it",
				   HN_NONE, i);
		if (w && in->hop)
			used += w->hop[in->hop].claim;
		if (w && i < e->cfg.nodes)
			cut += w->bytes;	/* cut, not yet in sent */
		if (w && in->hop == w->last) {
			bytes += w->bytes;
			worms++;
		}
		for (w = in->head; w; w = w->next) {
			if (w->nh == 0 || w->hop[w->nh].in != i ||
			    (!w->next && in->tail != w))
				return bad(err, "input's queue broken",
					   HN_NONE, i);
			used += w->hop[w->nh].claim;
			bytes += w->bytes;
			worms++;
		}
		if (i >= e->cfg.nodes && used != in->used)
			return bad(err, "input buffer accounting wrong",
				   HN_NONE, i);
		if (used > (i < e->cfg.nodes ? e->cfg.sw_buf_bytes : f->buf))
			return bad(err, "input buffer overfull", HN_NONE, i);
		/*
		 * switch.c's hn_sw_begin() moves the times of these only
		 * (a soft S_W's waiting inputs are stashed if it hardens)
		 */
		if ((in->cur || in->head) && !in->stash &&
		    e->hpos[i] == HN_NONE && !f->parked)
			return bad(err, "busy input neither in the heap nor stashed",
				   HN_NONE, i);
	}
	return check_worms(f, worms, bytes, cut, err);
}

/*
 * The flit router (flit.c): each VC holds at most its depth, its credit at
 * the output feeding it is what it has free, its input's buffer counts
 * its flits; each worm in use has its tail in one place (a node's input
 * or one VC), and they carry what the messages have cut and not yet
 * delivered; a VC whose head worm wants an output is among its requests.
 */
static int check_flit(const struct hn_engine *e, u64 cut, struct hn_err *err)
{
	const struct hn_fab *f = e->fab;
	const struct hn_flit *fl = f->fl;
	const struct hn_fvc *r, *q;
	const struct hn_fflit *h;
	u64 bytes = 0, worms = 0, flits = 0, used;
	u32 i, v, k, o, reqs = 0, want = 0;

	for (i = 0; i < f->nin; i++) {
		used = 0;
		for (v = 0; v < fl->V; v++) {
			r = &fl->vc[(u64)i * fl->V + v];
			if (r->out != HN_NONE)
				want++;
			if (!r->ring) {
				if (r->w) {
					bytes += r->w->bytes;
					worms++;
				}
				continue;
			}
			if (r->n > fl->depth ||
			    fl->credit[(u64)f->in[i].feed * fl->V + v] +
			    r->n != fl->depth)
				return bad(err, "virtual channel's credit wrong",
					   HN_NONE, i);
			for (k = 0; k < r->n; k++) {
				h = &r->ring[(r->head + k) % fl->depth];
				if (h->x >= h->w->flits)
					return bad(err, "flit past its worm",
						   HN_NONE, i);
				if (h->x + 1 == h->w->flits) {
					bytes += h->w->bytes;
					worms++;
				}
			}
			used += r->n;
			flits += r->n;
		}
		if (i >= e->cfg.nodes &&
		    used * e->cfg.flit_bytes != f->in[i].used)
			return bad(err, "input buffer accounting wrong",
				   HN_NONE, i);
	}
	for (o = 0; o < f->nout; o++) {
		if (fl->arrive[o]) {	/* its tail crossing to the node */
			bytes += fl->arrive[o]->bytes;
			worms++;
		}
		for (q = fl->req[o]; q; q = q->next, reqs++)
			if (q->out != o || reqs > want)
				return bad(err, "output's requests broken",
					   HN_NONE, o);
	}
	if (reqs != want)
		return bad(err, "a VC's request is at no output", HN_NONE,
			   HN_NONE);
	if (flits != fl->flits_in)
		return bad(err, "flits miscounted", HN_NONE, HN_NONE);
	return check_worms(f, worms, bytes, cut, err);
}

/*
 * Drop on block (drop.c): no switch holds a byte and every channel's
 * time is known.  Each worm in use is a header on its way, at the input
 * it is to reach; or got through, on the list of its last switch's input
 * in the order its tail leaves; or was lost, on its node's list only, in
 * the order its node learns so: each its stream's only one, whose
 * message stays whole in VQ_W until it has arrived (so no message has
 * cut a byte).  A channel's worm is one of them.
 */
/*
 * Worm @w, going, holds each channel its tail has not left, its node's
 * link's too, until its tail leaves it.
 */
static bool drop_holds(const struct hn_engine *e, const struct hn_fworm *w)
{
	const struct hn_drop *dr = e->fab->dr;
	const struct hn_fhop *h;
	u64 x;
	u32 k;

	for (k = 0; k < w->nh; k++) {
		h = &w->hop[k];
		x = (u64)h->out * dr->d + h->claim;
		if (h->fin > e->now &&
		    (dr->busy[x] != h->fin || dr->own[x] != w))
			return false;
	}
	x = (u64)w->st->src * dr->d + w->inj;
	return !w->nh || w->hop[0].fin <= e->now ||
	       dr->inj[x] == w->hop[0].fin;
}

static int check_drop(const struct hn_engine *e, u64 cut, struct hn_err *err)
{
	const struct hn_fab *f = e->fab;
	const struct hn_drop *dr = f->dr;
	const struct hn_iport *in;
	const struct hn_stream *st;
	const struct hn_fworm *w;
	u64 worms = 0, j, t;
	u32 i, u, trying = 0, k;

	for (j = 0; j < (u64)f->nout * dr->d; j++)
		if (dr->busy[j] == HN_U64_MAX ||
		    (dr->own[j] && dr->own[j]->m->src >= e->cfg.nodes))
			return bad(err, "channel held until no known time, or by no worm",
				   HN_NONE, HN_NONE);
	for (j = 0; dr->gone && j < (u64)f->nout * dr->d; j++)
		if ((dr->own[j] || dr->busy[j]) &&
		    dr->gone[j / dr->d] & (1u << (j % dr->d)))
			return bad(err, "link channel it has not taken",
				   HN_NONE, HN_NONE);
	for (u = 0; u < e->cfg.nodes; u++) {
		for (k = 0; k < e->node[u].tab_cap; k++)
			trying += e->node[u].tab[k] &&
				  e->node[u].tab[k]->cutting;
		for (j = 0; j < dr->d; j++)
			if (dr->inj[(u64)u * dr->d + j] == HN_U64_MAX)
				return bad(err, "node's channel held until no known time",
					   HN_NONE, u);
		for (j = 0; dr->gone && j < dr->d; j++)
			if (dr->iown[(u64)u * dr->d + j] &&
			    dr->gone[f->nout + u] & (1u << j))
				return bad(err, "node's link channel it has not taken",
					   HN_NONE, u);
		st = e->node[u].ring;
		do {		/* one not trying: the node looks, or will */
			if (st && !st->cutting && !f->in[u].stash &&
			    e->hpos[u] == HN_NONE &&
			    !hn_cut_off(e, u, st->dst))
				return bad(err, "node with a stream to send has no event",
					   HN_NONE, u);
			st = st ? st->rr_next : NULL;
		} while (st && st != e->node[u].ring);
		t = 0;
		for (w = dr->pend[u]; w; w = w->pnext) {
			if (!w->pend || w->st->src != u || w->over < t)
				return bad(err, "node's list of lost worms broken",
					   HN_NONE, u);
			t = w->over;
			worms++;
		}
	}
	for (i = 0; i < f->nin; i++) {
		in = &f->in[i];
		if (in->used)
			return bad(err, "a switch buffers bytes with switching drop",
				   HN_NONE, i);
		for (w = in->head; w; w = w->next) {
			if (!w->nh || w->hop[w->nh].in != i || w->pend ||
			    w->last != HN_NONE || (!w->next && in->tail != w) ||
			    !drop_holds(e, w))
				return bad(err, "input's headers broken",
					   HN_NONE, i);
			worms++;
		}
		t = 0;
		for (w = dr->done[i]; w; w = w->next) {
			if (w->last == HN_NONE || w->pend ||
			    w->hop[w->last].in != i || w->hop[w->last].fin < t ||
			    !drop_holds(e, w))
				return bad(err, "input's list of worms through broken",
					   HN_NONE, i);
			t = w->hop[w->last].fin;
			worms++;
		}
		if ((in->head || dr->done[i] ||
		     (i < e->cfg.nodes && dr->pend[i])) &&
		    !in->stash && e->hpos[i] == HN_NONE)
			return bad(err, "busy input neither in the heap nor stashed",
				   HN_NONE, i);
	}
	if (trying != worms)
		return bad(err, "streams trying != their worms", HN_NONE,
			   HN_NONE);
	return check_worms(f, worms, 0, cut, err);
}

/*
 * The statistics by mode add up to the totals, and the pair table holds
 * every delivered message but the overflow's: per mode exactly, with
 * their latency, when nothing overflowed.
 */
static int check_stats(const struct hn_engine *e, struct hn_err *err)
{
	const struct hn_gstats *g = &e->g;
	const struct hn_pairs *p = &e->pairs;
	u64 msgs[HN_NMODES] = { 0 }, bytes[HN_NMODES] = { 0 };
	u64 lat[HN_NMODES] = { 0 };
	u32 i, m, b, used = 0;

	for (b = 0; b < HN_HIST_BUCKETS; b++)
		if (g->hist[b] != g->hist_mode[0][b] + g->hist_mode[1][b])
			return bad(err, "histograms by mode do not add up",
				   HN_NONE, HN_NONE);
	if (g->lat_sum != g->lat_mode[0].sum + g->lat_mode[1].sum)
		return bad(err, "latency by mode does not add up", HN_NONE,
			   HN_NONE);
	if (p->n > p->max)
		return bad(err, "pair table overfull", HN_NONE, HN_NONE);
	for (i = 0; i < p->n; i++) {
		for (m = 0; m < HN_NMODES; m++) {
			msgs[m] += p->v[i].msgs[m];
			bytes[m] += p->v[i].bytes[m];
			lat[m] += p->v[i].lat_sum[m];
		}
	}
	for (i = 0; i <= p->mask; i++)
		used += p->idx[i] != HN_NONE;
	if (used != p->n)
		return bad(err, "pair index wrong", HN_NONE, HN_NONE);
	if (msgs[0] + msgs[1] + g->pair_overflow_msgs !=
	    g->rx_msgs[0] + g->rx_msgs[1] ||
	    bytes[0] + bytes[1] + g->pair_overflow_bytes !=
	    g->rx_bytes[0] + g->rx_bytes[1])
		return bad(err, "pairs + overflow != delivered", HN_NONE,
			   HN_NONE);
	for (m = 0; m < HN_NMODES && !g->pair_overflow_msgs; m++)
		if (msgs[m] != g->rx_msgs[m] || bytes[m] != g->rx_bytes[m] ||
		    lat[m] != g->lat_mode[m].sum)
			return bad(err, "pairs by mode != delivered by mode",
				   HN_NONE, HN_NONE);
	return 0;
}

int hn_check(const struct hn_engine *e, struct hn_err *err)
{
	u64 msgs = 0, bytes = 0, pend = 0, wh = 0, reqm = 0, nb, sb, cut = 0;
	u64 slot_pend[HN_MAX_K] = { 0 };
	u32 N = e->cfg.nodes, u, i, c, nreq = 0;
	const struct hn_stream *st;
	const struct hn_node *n;
	const struct hn_msg *m;
	int rc = check_slots(e, err);

	if (!rc)
		rc = check_paths(e, err);
	if (!rc)
		rc = check_events(e, err);
	if (rc)
		return rc;
	for (u = 0; u < N; u++) {
		n = &e->node[u];
		nb = queue_bytes(&n->q_w, &c);
		if (c != n->q_w.count)
			return bad(err, "Q_W count or bytes wrong", HN_NONE, u);
		if (!prio_ordered(&n->q_w, false))
			return bad(err, "Q_W out of priority order", HN_NONE,
				   u);
		msgs += c;
		wh += c;
		sb = 0;
		for (i = 0; i < n->tab_cap; i++) {
			u32 q_w = 0, slot;

			st = n->tab[i];
			if (!st)
				continue;
			for (m = n->q_w.head; m; m = m->next)
				q_w += m->dst == st->dst;
			if (q_w != st->q_w_msgs)
				return bad(err, "stream's Q_W count wrong",
					   HN_NONE, u);
			nb += queue_bytes(&st->vq_pckt, &c);
			if (c != st->vq_pckt.count)
				return bad(err, "VQ_PCKT count or bytes wrong",
					   HN_NONE, u);
			msgs += c;
			slot = hn_pcs_slot(e, u, st->dst);
			if (st->req && (slot != HN_NONE || !c))
				return bad(err, "request for a circuit that exists or with no data",
					   slot, u);
			if (c && slot == HN_NONE && !st->req)
				return bad(err, "circuit data with no circuit",
					   HN_NONE, u);
			nreq += st->req;
			if (st->req) {
				reqm += c;
				c = 0;
			}
			pend += c;
			if (c && e->slot[slot].apos[u] == HN_NONE)
				return bad(err, "circuit data not on active list",
					   slot, u);
			if (c)
				slot_pend[slot] += c;
			sb += queue_bytes(&st->vq_w, &c);
			if (c != st->vq_w.count)
				return bad(err, "VQ_W count or bytes wrong",
					   HN_NONE, u);
			if (e->cfg.switching == HN_SWITCH_DROP &&
			    !prio_ordered(&st->vq_w, st->cutting))
				return bad(err, "VQ_W out of priority order",
					   HN_NONE, u);
			if (!c != !st->rr_next)
				return bad(err, "round-robin ring wrong",
					   HN_NONE, u);
			msgs += c;
			wh += c;
			for (m = st->fab; m; m = m->next) {
				cut += m->len - m->rcvd;
				msgs++;
				wh++;
			}
			for (m = st->vq_w.head; m; m = m->next) {
				cut += m->sent - m->rcvd;
				if (e->fab->fl)
					sb -= m->sent;
			}
		}
		if (e->fab->fl)
			sb += flit_sending(e, u);
		if (nb + n->rel_bytes != n->buf_used || sb != n->sw_used)
			return bad(err, "buffer accounting wrong", HN_NONE, u);
		if (n->q_w.head &&
		    hn_sw_fits(&e->cfg, n, n->q_w.head))
			return bad(err, "Q_W's first waits with room in VQ_W",
				   HN_NONE, u);
		if (n->rx_used > e->cfg.rx_buf_bytes)
			return bad(err, "receive buffer overfull", HN_NONE, u);
	}
	for (u = 0; u < N; u++) {
		m = NULL;
		for (i = 0; i < e->node[u].tab_cap; i++) {
			st = e->node[u].tab[i];
			for (m = st ? st->vq_pckt.head : NULL; m; m = m->next)
				bytes += m->len;
			for (m = st ? st->vq_w.head : NULL; m; m = m->next)
				bytes += m->len;
			for (m = st ? st->fab : NULL; m; m = m->next)
				bytes += m->len;
		}
		for (m = e->node[u].q_w.head; m; m = m->next)
			bytes += m->len;
	}
	for (i = 0; i < e->cfg.k; i++)
		if (slot_pend[i] != e->slot[i].pending)
			return bad(err, "slot pending count wrong", i, HN_NONE);
	if (pend != e->pending || wh != e->wh_msgs)
		return bad(err, "queue counters wrong", HN_NONE, HN_NONE);
	rc = check_requests(e, nreq, reqm, err);
	if (!rc)
		rc = check_stats(e, err);
	if (!rc && e->fab->fl)
		rc = check_flit(e, cut, err);
	else if (!rc && e->fab->dr)
		rc = check_drop(e, cut, err);
	else if (!rc)
		rc = check_fabric(e, cut, err);
	if (rc)
		return rc;
	if (e->in_msgs != e->out_msgs + msgs ||
	    e->in_bytes != e->out_bytes + bytes)
		return bad(err, "injected != delivered + in flight", HN_NONE,
			   HN_NONE);
	return 0;
}
