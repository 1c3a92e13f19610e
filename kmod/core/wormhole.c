// SPDX-License-Identifier: GPL-2.0
/*
 * wormhole.c - the wormhole slot S_W (slot id K).
 *
 * Inside S_W the fabric is configured packet by packet (Sec. 4.2.1): each
 * input port, whenever it is free, serves the next non-empty virtual
 * output queue VQ_W in round-robin order of destinations (Sec. 3.3.1, Fig.
 * 4.3 "continuing the round-robin", Sec. 4.2.1; or as voq_arbiter says,
 * queue.c) whose output is free, one worm of at most worm_bytes at a time.
 * A worm costs wh_first_ns for its first flit (arbitration and set-up
 * included) and wh_flit_ns for each further flit (Sec. 5.5.2), so a k-worm
 * message at zero load takes k (T_sch + T_setup) + T_packet in the switch,
 * as Eq. 3.3 (Sec. 3.1) has it.  The worm holds its input and output for
 * all of it: the arbitration is serial, as in Duato's router, where a
 * message blocked on a busy link "will be routed again after the link is
 * freed" (Sec. 2.1).  With wh_overlap a worm whose head has waited at the
 * switch (the message there, the VQ_W's previous worm gone) was arbitrated
 * meanwhile and holds them for its flits only; the worms of one message
 * still pay the arbitration one after the other, as Eq. 3.3's k (T_sch +
 * T_setup) says.  A worm still running when S_W ends is suspended in the
 * switch buffers, holding its input and output, and resumes first in the
 * next S_W (DESIGN.md).
 *
 * The slot is simulated event by event (event.c: inputs ordered by the
 * time each is next free, ties broken by a rotating input priority), and
 * may be run in segments (hn_run_until() stopping inside it): a message
 * that reaches VQ_W in the middle of the slot, because it was injected
 * then or its NIC found room then, is taken by its input from the time
 * its head reaches the switch (hn_wormhole_arm()).  Without predictive
 * slots (K = 0, SES) the wormhole slot therefore behaves as a wormhole
 * network with no slots at all: a worm that crosses the slot's end is
 * suspended and resumed at the same instant, and which input wins a tie
 * depends on the time alone (event.c), not on the slot length.
 *
 * This is the crossbar's wormhole (topo_xbar.c): one switch, whose port p
 * is node p's link, so the state of output p is kept in e->node[p]
 * (out_free, out_held) beside input p's.  The output a VQ_W asks for is
 * the topology's answer (hn_topo_out()), which the crossbar gives inline.
 */
#include "engine.h"

/* The worm at input @u finishes at @t. */
static void worm_done(struct hn_engine *e, u32 u, u64 t)
{
	struct hn_node *n = &e->node[u];
	struct hn_stream *st = n->worm.st;
	struct hn_msg *m = st->vq_w.head;

	n->worm.st = NULL;
	e->w_running--;
	st->w_end = t;
	m->sent += n->worm.bytes;
	e->g.slot[e->cfg.k].bytes += n->worm.bytes;
	if (m->sent < m->len)
		return;
	hn_q_pop(&st->vq_w);
	n->sw_used -= m->len;
	e->wh_msgs--;
	if (!st->vq_w.count)
		hn_ring_del(e, u, st);
	/* through the fabric, then the receiver's link (link m->dst) */
	hn_deliver(e, m, t + e->cfg.fabric_ns +
		   hn_topo_link_ns(&e->topo, m->dst) + e->cfg.nic_ns,
		   HN_MODE_WORMHOLE, e->cfg.k);
	hn_stream_put(e, st);
	hn_nic_forward(e, u, t);
}

/*
 * When the next worm of @m may be switched: once its head has reached the
 * switch, or its tail when it is stored and forwarded (a message's own
 * switching, flow.c; the crossbar has no buffer ahead to cut through to).
 */
static u64 worm_at(const struct hn_config *c, const struct hn_msg *m)
{
	if (m->sw != HN_SWITCH_SAF + 1)	/* no switches of their own here */
		return m->t_ready;
	return hn_max64(m->t_ready,
			hn_tail_at(c, m, m->sent +
				   (u32)hn_min64(c->worm_bytes,
						 m->len - m->sent)));
}

/*
 * Input @u found a VQ_W that could go but for its receiver's room
 * (@wait), and started nothing: nothing it knows says when the room
 * comes, so it looks again when the next S_W begins (every input does
 * after a hard end; after a soft one, those on e->w_rxl).
 */
static void rx_wait(struct hn_engine *e, struct hn_node *n, u32 u, bool wait)
{
	n->w_rx = wait;
	if (wait && !n->w_rxq) {
		n->w_rxq = 1;
		e->w_rxl[e->nw_rxl++] = u;
	}
}

/*
 * Start the next worm at input @u at time @t: of the VQ_W whose head has
 * reached the switch, whose output is free and whose receiver has room,
 * the first in round-robin order of destinations after the one served
 * last (a round-robin arbiter over the input's N virtual output queues,
 * Sec. 3.3.1), or as voq_arbiter orders them (hn_voq_key()).  Returns
 * the time the input next needs attention, HN_U64_MAX for never.
 */
static u64 worm_start(struct hn_engine *e, u32 u, u64 t, u64 end)
{
	const struct hn_config *c = &e->cfg;
	struct hn_node *n = &e->node[u];
	struct hn_stream *st = n->ring, *best = NULL;
	u64 wake = HN_U64_MAX, fin, key, best_key = HN_U64_MAX, at;
	bool rx = false;
	u32 bytes, flits;
	struct hn_node *o;
	struct hn_msg *m;

	if (!st)
		return wake;
	do {
		m = st->vq_w.head;
		o = &e->node[hn_topo_out(&e->topo, 0, st->dst)];
		at = worm_at(c, m);
		if (hn_cut_off(e, u, st->dst)) {
			;		/* a link up wakes it */
		} else if (at > t) {
			wake = hn_min64(wake, at);
		} else if (o->out_free > t) {
			if (o->out_held == HN_NONE)
				wake = hn_min64(wake, o->out_free);
		} else if (hn_rx_fits(e, m)) {
			key = hn_voq_key(e, n, st, t);
			if (key < best_key) {
				best = st;
				best_key = key;
			}
		} else {
			rx = true;
		}
		st = st->rr_next;
	} while (st != n->ring && best_key);
	if ((rx && !best) != n->w_rx)
		rx_wait(e, n, u, rx && !best);
	if (!best)
		return wake;
	st = best;
	m = st->vq_w.head;
	o = &e->node[hn_topo_out(&e->topo, 0, st->dst)];
	hn_rx_reserve(e, m);
	bytes = (u32)hn_min64(c->worm_bytes, m->len - m->sent);
	flits = (bytes + c->flit_bytes - 1) / c->flit_bytes;
	fin = t + c->wh_first_ns + (u64)(flits - 1) * c->wh_flit_ns;
	if (c->wh_overlap)	/* arbitrated while its head waited */
		fin = hn_max64(t, hn_max64(worm_at(c, m), st->w_end) +
			       c->wh_first_ns - c->wh_flit_ns) +
		      (u64)flits * c->wh_flit_ns;
	/* not before its last byte has come over the uplink */
	fin = hn_max64(fin, hn_tail_at(c, m, m->sent + bytes));
	n->rr_last = st->dst;
	n->worm.st = st;
	e->w_running++;
	n->worm.bytes = bytes;
	n->in_free = fin;
	o->out_free = fin;
	if (fin <= end || hn_keep_past(e, fin))
		return fin;
	n->worm.ns_left = fin - end;
	o->out_held = u;
	e->worms++;
	return HN_U64_MAX;
}

/*
 * S_W begins at e->slot_start: resume suspended worms, arm every input
 * with worms to send (e->w_act, in no order: the heap's keys are unique,
 * event.c).  An output no worm holds was freed by the last S_W's end,
 * before t0, which every time of this slot reads as free.
 */
void hn_wormhole_begin(struct hn_engine *e)
{
	u64 t0 = e->slot_start + e->cfg.guard_ns, end = e->slot_end;
	u32 N = e->cfg.nodes, u, i;
	struct hn_node *n, *o;
	struct hn_msg *m;

	e->g.slot[e->cfg.k].cap_bytes += hn_ns_bytes(&e->cfg, end - t0) * N;
	if (e->fab) {
		if (e->fab->fl)
			hn_flit_begin(e);
		else if (e->fab->dr)
			hn_drop_begin(e);
		else
			hn_sw_begin(e);
		return;
	}
	for (i = 0; i < e->nw_act; i++) {
		u = e->w_act[i];
		n = &e->node[u];
		n->in_free = t0;
		if (n->worm.st) {		/* resume a suspended worm */
			m = n->worm.st->vq_w.head;
			o = &e->node[hn_topo_out(&e->topo, 0, m->dst)];
			e->worms--;
			o->out_held = HN_NONE;
			n->in_free = hn_max64(t0 + n->worm.ns_left,
					      hn_tail_at(&e->cfg, m, m->sent +
							 n->worm.bytes));
			o->out_free = n->in_free;
			if (n->in_free > end && !hn_keep_past(e, n->in_free)) {
				n->worm.ns_left = n->in_free - end;
				o->out_held = u;
				e->worms++;
				continue;
			}
		}
		hn_ev_set(e, u, n->in_free);
	}
}

/*
 * At a soft end, may the events at the boundary run as those of the
 * next S_W's start, each input's worm ending and its next one starting
 * together, rather than every worm ending first and every input looking
 * after (wormhole.c's looks)?  They may when nothing can tell the two
 * apart: the run goes on past the boundary (the caller's, who checks
 * that nothing asked to stop yet) with no work budget to stop it there,
 * the next S_W begins for sure (more wormhole messages than worms that
 * may end), no input waits for a receiver's room, and what one worm's
 * end does cannot change what another input chooses at that time: no
 * receiver is tight (each has room for e->nev of the longest message),
 * round-robin arbitration (lqf and bytes count messages that a callback
 * may inject), and a message's head reaches the switch after it is
 * injected (nic_ns + wire_ns > 0).
 */
static bool soft_unsplit(const struct hn_engine *e)
{
	const struct hn_config *c = &e->cfg;

	return hn_soft_len(e) && !e->work_max && !e->nw_rxl && !e->rx_tight &&
	       e->rx_thresh && !c->voq_arbiter && c->nic_ns + c->wire_ns &&
	       (e->wh_msgs > e->w_running ||
		!(c->policy & (HN_POL_SES | HN_POL_PREEMPT)));
}

/*
 * The events at the start of this S_W that the last one's soft end left
 * it (soft_unsplit()) are done.  The worms that ended there would
 * have ended with the last S_W, and a stop one of them asked for
 * (ops->deliver, ops->room) would have ended the call there: it does.
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
 * Every event of S_W up to @lim (<= its end), or to a stop (ops->room).
 * With @cont, the caller goes on past the end if it is a soft one and
 * nothing asks to stop there.
 */
void hn_wormhole_run(struct hn_engine *e, u64 lim, bool cont)
{
	u64 end = e->slot_end, wake, t;
	struct hn_node *n;
	u32 u;

	if (e->fab && !e->fab->fl && !e->fab->dr) {
		hn_sw_run(e, lim);
		return;
	}
	if (e->fab) {		/* flit.c's or drop.c's: their inputs' events */
		while ((t = hn_ev_top(e)) <= hn_min64(lim, e->stop_at)) {
			if (t == e->slot_end && hn_ev_is_look(e))
				break;		/* the next S_W's */
			e->now = t;
			if (e->fab->fl)
				hn_flit_event(e, hn_ev_peek(e), t);
			else
				hn_drop_event(e, hn_ev_peek(e), t);
			hn_work(e, t);
		}
		return;
	}
	for (;;) {
		if (e->w_topj < e->w_topn) {	/* a soft end, below */
			u = e->w_top[e->w_topj++] & (HN_EV_MAX - 1);
			t = end;
		} else {
			t = hn_ev_top(e);
			if (t > hn_min64(lim, e->stop_at))
				break;
			if (e->w_unsplit && t > e->slot_start &&
			    unsplit_stop(e))
				break;
			if (t == end && e->w_soft) {
				if (hn_ev_is_look(e))
					break;
				if (cont && e->stop_at == HN_U64_MAX &&
				    soft_unsplit(e)) {
					e->w_unsplit = true;
					return;
				}
				/*
				 * A soft end: the worms that end here finish,
				 * in the order of their events, and every
				 * event here becomes a look (event.c): its
				 * input looks for its next worm when the next
				 * S_W begins here, after all of them, as it
				 * would after a hard end.
				 */
				e->w_topn = hn_ev_at(e, t, e->w_top);
				e->w_topj = 0;
				e->look_t = t;
				continue;
			}
			u = hn_ev_peek(e);
		}
		n = &e->node[u];
		e->now = t;
		if (n->worm.st)
			worm_done(e, u, t);
		if (e->w_topn) {
			hn_work(e, t);
			if (e->w_topj < e->w_topn)
				continue;
			hn_ev_looks(e, e->w_top, e->w_topn);
			e->w_topn = 0;
			break;
		}
		wake = t < end ? worm_start(e, u, t, end) : HN_U64_MAX;
		if (n->worm.st ? wake != HN_U64_MAX :
		    wake < end || (wake != HN_U64_MAX && hn_keep_past(e, wake))) {
			n->in_free = wake;
			hn_ev_set(e, u, n->in_free);
		} else {
			hn_ev_del(e, u);
		}
		hn_work(e, t);
	}
	if (e->w_unsplit)
		unsplit_stop(e);
}

/*
 * The last S_W's end turns out hard (engine.c: something else runs
 * next, or may): leave what a hard end leaves, the worms still running
 * suspended with the time they have left past the end, no event kept.
 */
void hn_wormhole_harden(struct hn_engine *e)
{
	u64 end = e->slot_end;
	struct hn_node *n;
	u32 j, u;

	if (e->fab) {
		hn_sw_harden(e);
		return;
	}
	for (j = 0; j < e->nheap; j++) {
		u = hn_ev_input(e, j);
		n = &e->node[u];
		if (!n->worm.st || n->in_free <= end)
			continue;
		n->worm.ns_left = n->in_free - end;
		e->node[hn_topo_out(&e->topo, 0, n->worm.st->dst)].out_held = u;
		e->worms++;
	}
	hn_ev_clear(e);
	e->look_t = HN_U64_MAX;
	e->w_carry = false;
	e->w_soft = false;
}

/* S_W ends: worms still running were suspended when they started. */
void hn_wormhole_end(struct hn_engine *e)
{
	if (e->fab && e->fab->fl)
		hn_flit_end(e);
	else if (e->fab)
		hn_sw_end(e);
	else if (e->w_soft)
		e->w_carry = true;	/* kept for the next S_W, or hardened */
	else
		hn_wormhole_harden(e);
}

/*
 * S_W begins again at e->slot_start, just after the one that ended
 * there with a soft end (engine.c): its events go on where they were,
 * worms running past the boundary as if there were none.  What a hard
 * end and begin would add is that every input with worms to send looks
 * at e->slot_start; of those, the ones whose event was at the end (it
 * is there still, a look: event.c) and the ones waiting for a
 * receiver's room (e->w_rxl) may find something, the others would find
 * what they know already (each of their VQ_W waits for a time their
 * event is at, or beyond).
 */
void hn_wormhole_resume(struct hn_engine *e)
{
	u64 t0 = e->slot_start;
	struct hn_node *n;
	u32 j, u;

	if (e->slot_end - e->ev_base > HN_SOFT_AHEAD)
		hn_ev_rebase(e, t0);
	if (e->fab) {
		hn_sw_resume(e);
		return;
	}
	for (j = 0; j < e->nw_rxl;) {
		u = e->w_rxl[j];
		n = &e->node[u];
		if (!n->w_rx || !n->ring) {
			n->w_rx = 0;
			n->w_rxq = 0;
			e->w_rxl[j] = e->w_rxl[--e->nw_rxl];
			continue;
		}
		j++;
		if (!n->worm.st) {
			n->in_free = t0;
			hn_ev_set_look(e, u, t0);
		}
	}
}

/*
 * A message has reached @u's VQ_W in the middle of S_W, its head at the
 * switch at @t: an idle input takes it from then on.  A busy input looks
 * at its ring when its worm ends, a suspended one in the next S_W.
 * Between a soft end and the next S_W (e->w_carry) it is an event kept
 * for that S_W.
 */
void hn_wormhole_arm(struct hn_engine *e, u32 u, u64 t)
{
	struct hn_node *n = &e->node[u];

	if (n->worm.st || (e->in_slot ? e->cur != e->cfg.k : !e->w_carry))
		return;
	t = hn_max64(t, hn_max64(e->now, e->slot_start + e->cfg.guard_ns));
	if (t >= e->slot_end && !hn_keep_past(e, t)) {
		if (!e->in_slot)	/* it looks when S_W begins */
			hn_wormhole_harden(e);
		return;
	}
	if (e->hpos[u] != HN_NONE && n->in_free <= t)
		return;
	n->in_free = t;
	if (t == e->look_t)
		hn_ev_set_look(e, u, t);
	else
		hn_ev_set(e, u, t);
}
