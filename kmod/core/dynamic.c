// SPDX-License-Identifier: GPL-2.0
/*
 * dynamic.c - Dynamic TDM (Sec. 5.3, the "Dynamic TDM" network of
 * Sec. 5.5): circuits made on demand by the scheduling array of Sec. 5.3.2
 * and removed by an eviction predictor (Sec. 5.2.2, release.c).
 *
 * With HN_POL_DYNAMIC (which needs HN_POL_NO_W: there is no wormhole
 * path) a message whose destination has no circuit waits in its VQ_PCKT,
 * and a non-empty VQ_PCKT is the request R_u,v (Sec. 5.3.1: R_u "indicating
 * which of the logical queues of that NIC is not empty").
 *
 * The scheduling array works at its own rate, not the slot clock's
 * (Sec. 5.3.2: "the period of the SL clock depends on the propagation delay in
 * the scheduling logic and is independent of the period of the time slot
 * clock").  At every SL clock tick T (period sched_ns, the array's delay:
 * 80 ns in Ch. 5, Secs. 5.4, 5.5.2; 20 ns at Ch. 4's 50 MHz, Sec. 4.6) it
 * completes the configuration of ONE slot s (Sec. 5.3.2: "completing the
 * scheduling process for slot s in one SL clock cycle"):
 *
 *   - s is chosen by the SL counter, round robin over the slots that hold
 *     connections (Sec. 5.3.2: "a round robin rotation among the k currently
 *     active configurations") plus the lowest empty one, so that the
 *     degree can grow (note 8.8 leaves growth open); pinned slots are the
 *     preload's and never scheduled;
 *   - Table 5.1 (Sec. 5.3.2): a connection of B^(s) that is not requested is
 *     released, the eviction predictor being the request's memory (note
 *     8.7): it is released when the predictor says so (release.c) and
 *     nothing waits for it, as the NIC's R was wire_ns before T;
 *   - a request (u, v) the array can see, raised at least wire_ns before
 *     T (the request line, Sec. 5.5.2), and not realised in any slot (B*), is
 *     established in s if u and v are both free there, in the rotated
 *     priority order of Sec. 5.3.2 (hn_place(), one slot); the grant reaches
 *     the NIC and the fabric after sched + wire + setup (Sec. 5.5.2).
 *
 * So K requests of one input need K ticks, and a request is granted no
 * sooner than its line, the wait for a tick of a slot with room, and the
 * array's delay allow.  A refused request stays and is seen again.
 *
 * Two simplifications, both documented in docs/model.md: releases of a
 * tick are made before its establishments (the array offers a port freed
 * by a release only to cells after it in priority order), and the release
 * rule reads the VQ as it is when the tick is simulated, at the next slot
 * boundary, rather than wire_ns before T.
 *
 * Ticks are simulated lazily, at each slot boundary, for every tick up to
 * the engine's time: a grant made at T is usable only after T, and slots
 * use a circuit only from a slot start on, so no slot that has run could
 * have used it.  Ticks at which nothing can change are skipped in O(K).
 *
 * sched_ns = 0 is an array without delay: every waiting request is
 * placed first fit over all slots before each slot (hn_place_all()), after
 * the predictor's releases.
 *
 * Pure circuit switching is the same machine with one slot (Sec. 5.2:
 * "circuit switching amounts to TDM with a multiplexing degree of one")
 * and a time-out of 1 ns: a circuit is requested per message and held
 * while the NIC has data for that pair (Sec. 8.4.2).
 */
#include "engine.h"

static int req_grow(struct hn_engine *e, u32 n)
{
	u32 cap = e->req_cap ? e->req_cap : 64;
	struct hn_pair *p;
	struct hn_grant *g;

	while (cap < n)
		cap *= 2;
	p = hn_zalloc(cap * sizeof(*p));
	g = hn_zalloc(cap * sizeof(*g));
	if (!p || !g) {
		hn_free(p);
		hn_free(g);
		return -ENOMEM;
	}
	hn_free(e->req_pairs);
	hn_free(e->req_grants);
	e->req_pairs = p;
	e->req_grants = g;
	e->req_cap = cap;
	return 0;
}

/* The scheduling array runs at its own clock (sched_ns > 0). */
bool hn_dyn_array(const struct hn_engine *e)
{
	return (e->cfg.policy & HN_POL_DYNAMIC) && e->cfg.sched_ns;
}

/*
 * The waiting requests the array sees at @t (all of them when @t is
 * HN_U64_MAX) into e->req_pairs; their number, 0 also when out of memory
 * (the requests are tried again at a later tick).
 */
static u32 visible(struct hn_engine *e, u64 t)
{
	u64 wire = e->cfg.wire_ns;
	struct hn_stream *st;
	u32 n;

	n = e->nreq < HN_MAX_REQ ? e->nreq : HN_MAX_REQ;
	if (n > e->req_cap && req_grow(e, n))
		return 0;
	n = 0;
	for (st = e->req_head; st && n < e->req_cap && n < HN_MAX_REQ;
	     st = st->req_next)
		if (t == HN_U64_MAX || st->req_t + wire <= t)
			e->req_pairs[n++] = (struct hn_pair){ st->src, st->dst };
	return n;
}

/* When the array first sees a request that waits now; HN_U64_MAX: none. */
static u64 first_visible(const struct hn_engine *e)
{
	const struct hn_stream *st;
	u64 t = HN_U64_MAX;

	for (st = e->req_head; st; st = st->req_next)
		t = hn_min64(t, st->req_t + e->cfg.wire_ns);
	return t;
}

/* The SL counter's next slot: a slot with connections, or the lowest empty. */
static u32 sl_select(struct hn_engine *e)
{
	u32 lo = e->cfg.pin_slots, hi = e->cfg.k, s = e->sl_slot;
	u32 empty = HN_NONE, i;

	for (i = lo; i < hi && empty == HN_NONE; i++)
		if (!e->slot[i].nconn)
			empty = i;
	for (i = lo; i < hi; i++) {
		s = s == HN_NONE || s + 1 >= hi || s < lo ? lo : s + 1;
		if (e->slot[s].nconn || s == empty)
			break;
	}
	e->sl_slot = s;
	return s;
}

/* @n ticks at which nothing changes: only the SL counter moves. */
static void sl_advance(struct hn_engine *e, u64 n)
{
	u32 m = 0, s;

	for (s = e->cfg.pin_slots; s < e->cfg.k; s++)
		m += e->slot[s].nconn ? 1 : 0;
	if (m < e->cfg.k - e->cfg.pin_slots)
		m++;			/* the lowest empty slot */
	n = n - hn_div(n, m) * m;
	while (n--)
		sl_select(e);
}

/*
 * The counter predictor counts uses of other circuits; a request the array
 * had to refuse is communication too (the application is not in a
 * computation phase, Sec. 5.2.2), so it counts as one use, once per pass: without
 * it the last requests could wait for ports held by idle circuits that
 * nothing would ever evict.
 */
static void refused_count(struct hn_engine *e, u32 n)
{
	u32 i;

	for (i = 0; i < n; i++) {
		if (e->req_grants[i].result == HN_REFUSED) {
			e->uses++;
			return;
		}
	}
}

/* One SL clock tick at @t: slot @s's releases, then its establishments. */
static void sl_tick(struct hn_engine *e, u32 s, u64 t)
{
	const struct hn_config *c = &e->cfg;
	u32 n;

	/* R as the array sees it: the NIC's of wire_ns ago */
	hn_timeouts(e, s, t > c->wire_ns ? t - c->wire_ns : 0);
	if (!e->req_head)
		return;
	n = visible(e, t);
	if (n && !hn_place(e, e->req_pairs, n, e->req_grants, s, s + 1,
			   t + c->sched_ns + c->wire_ns + c->setup_ns, NULL))
		refused_count(e, n);
}

/*
 * Before a slot: the array's ticks up to the engine's time.  A tick can
 * act only once a request is visible or a circuit is due to leave; the
 * ticks before that are skipped.
 */
void hn_dyn_schedule(struct hn_engine *e)
{
	u64 P = e->cfg.sched_ns, t, n;
	u32 s, m;

	if (!P) {
		for (s = e->cfg.pin_slots; s < e->cfg.k; s++)
			hn_timeouts(e, s, e->now);
		m = e->req_head ? visible(e, HN_U64_MAX) : 0;
		/* out of memory: tried again before the next slot */
		if (m && !hn_place_all(e, e->req_pairs, m, e->req_grants, NULL))
			refused_count(e, m);
		return;
	}
	while (e->sl_next <= e->now) {
		t = hn_next_timeout(e);
		if (t != HN_U64_MAX)
			t += e->cfg.wire_ns;
		t = hn_min64(t, first_visible(e));
		if (t > e->sl_next) {
			t = hn_min64(t, e->now + 1);
			n = hn_div(t - e->sl_next + P - 1, P);
			sl_advance(e, n);
			e->sl_next += n * P;
			continue;
		}
		sl_tick(e, sl_select(e), e->sl_next);
		e->sl_next += P;
	}
}

/*
 * No slot can run (no circuit exists) but requests wait: the time does not
 * jump to the caller's horizon, it goes to the array's next tick, or to
 * @lim if that comes first.  Returns whether the time moved.
 */
bool hn_dyn_wait(struct hn_engine *e, u64 lim)
{
	u64 t;

	if (!hn_dyn_array(e) || !e->req_head || e->sl_next <= e->now ||
	    lim <= e->now)
		return false;
	t = hn_min64(e->sl_next, lim);
	e->g.idle_ns += t - e->now;
	e->now = t;
	return true;
}
