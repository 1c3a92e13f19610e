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
 * as Eq. 3.3 (Sec. 3.1) has it.  A worm holds its input and output for
 * all of it: the arbitration is serial, as in Duato's router, where a
 * message blocked on a busy link "will be routed again after the link is
 * freed" (Sec. 2.1).  With wh_overlap a worm whose head has waited at the
 * switch was arbitrated meanwhile and holds them for its flits only.  A
 * worm still running when S_W ends holds what it holds in the switch
 * buffers and goes on in the next S_W (DESIGN.md).
 *
 * The packets move in the topology's switches: switch.c's worms (every
 * fabric, the crossbar a one-switch one, whose port p is node p's link),
 * flit.c's flits (vc_count) or drop.c's circuits (switching drop).  This
 * file begins, runs and ends the slot for whichever the engine has.
 *
 * The slot is simulated event by event (event.c: inputs ordered by the
 * time each is next free, ties broken by a rotating input priority), and
 * may be run in segments (hn_run_until() stopping inside it): a message
 * that reaches VQ_W in the middle of the slot, because it was injected
 * then or its NIC found room then, is taken by its input from the time
 * its head reaches the switch (e->w_arm).  Without predictive slots (K =
 * 0, SES) the wormhole slot therefore behaves as a wormhole network with
 * no slots at all (engine.c's soft boundaries): a worm that crosses the
 * slot's end goes on at the same instant, and which input wins a tie
 * depends on the time alone (event.c), not on the slot length.
 */
#include "engine.h"

/* S_W begins at e->slot_start. */
void hn_wormhole_begin(struct hn_engine *e)
{
	u64 t0 = e->slot_start + e->cfg.guard_ns;

	e->g.slot[e->cfg.k].cap_bytes +=
		hn_ns_bytes(&e->cfg, e->slot_end - t0) * e->cfg.nodes;
	if (e->fab->fl)
		hn_flit_begin(e);
	else if (e->fab->dr)
		hn_drop_begin(e);
	else
		hn_sw_begin(e);
}

/*
 * Every event of S_W up to @lim (<= its end), or to a stop (ops->room).
 * With @cont, the caller goes on past the end if it is a soft one and
 * nothing asks to stop there.
 */
void hn_wormhole_run(struct hn_engine *e, u64 lim, bool cont)
{
	u64 t;

	if (!e->fab->fl && !e->fab->dr) {
		hn_sw_run(e, lim, cont);
		return;
	}
	while ((t = hn_ev_top(e)) <= hn_min64(lim, e->stop_at)) {
		e->now = t;
		if (e->fab->fl)
			hn_flit_event(e, hn_ev_peek(e), t);
		else
			hn_drop_event(e, hn_ev_peek(e), t);
		hn_work(e, t);
	}
}

/*
 * The last S_W's end turns out hard (engine.c: something else runs
 * next, or may): every input with an event waits for the next S_W.
 */
void hn_wormhole_harden(struct hn_engine *e)
{
	hn_sw_harden(e);
}

/* S_W ends. */
void hn_wormhole_end(struct hn_engine *e)
{
	if (e->fab->fl)
		hn_flit_end(e);
	else
		hn_sw_end(e);
}

/*
 * S_W begins again at e->slot_start, just after the one that ended
 * there with a soft end (engine.c): its events go on where they were.
 */
void hn_wormhole_resume(struct hn_engine *e)
{
	if (e->slot_end - e->ev_base > HN_SOFT_AHEAD)
		hn_ev_rebase(e, e->slot_start);
	hn_sw_resume(e);
}
