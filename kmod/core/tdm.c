// SPDX-License-Identifier: GPL-2.0
/*
 * tdm.c - the TDM cycle controller.  Slots 0..K-1 are predictive, slot K is
 * the wormhole slot; the counter runs modulo K + 1 (note 8.2).
 *
 * policy 0  the plain counter of Fig. 4.4 (Sec. 4.2.2): every slot gets time.
 * SES       skip a predictive slot whose B^(i) is empty, E_i = OR B^(i)
 *           (Sec. 4.3), and the wormhole slot when no wormhole data
 *           waits (E_K, note 8.3).
 * SLA       the wormhole slot lasts NUM_W instead of NUM_P (Sec. 4.4).
 * PREEMPT   E_i AND R_valid: predictive slots are skipped while no
 *           predictable traffic waits (Sec. 4.5); R_valid is global, or
 *           per slot with HN_POL_PREEMPT_SLOT.  PREEMPT includes SES.
 * NO_W      no wormhole slot (pure TDM, the Ch. 5 baseline).
 */
#include "engine.h"

u64 hn_slot_len(const struct hn_engine *e, u32 s)
{
	if (s == e->cfg.k && (e->cfg.policy & HN_POL_SLA))
		return e->cfg.slot_w_ns;
	return e->cfg.slot_p_ns;
}

enum { RUN, SKIP, PREEMPT };

static int slot_state(const struct hn_engine *e, u32 s)
{
	u32 pol = e->cfg.policy;
	u64 pend;

	if (s == e->cfg.k) {
		if (pol & HN_POL_NO_W)
			return SKIP;
		if ((pol & (HN_POL_SES | HN_POL_PREEMPT)) &&
		    !e->wh_msgs)
			return SKIP;
		return RUN;
	}
	if (!(pol & (HN_POL_SES | HN_POL_PREEMPT)))
		return RUN;
	if (!e->slot[s].nconn)
		return SKIP;
	if (pol & HN_POL_PREEMPT) {
		pend = (pol & HN_POL_PREEMPT_SLOT) ? e->slot[s].pending :
						     e->pending;
		if (!pend)
			return PREEMPT;
	}
	return RUN;
}

/*
 * The slot after e->cur that gets time, or HN_NONE when every slot would be
 * passed over (the controller idles).  Passed-over slots are counted only
 * when a slot is found, so idling counts nothing.
 */
u32 hn_tdm_next(struct hn_engine *e)
{
	u32 i, s = 0, st;

	for (i = 1; i <= e->nslots; i++) {
		s = (e->cur + i) % e->nslots;
		if (s < e->cfg.k && !hn_dyn_array(e))
			hn_timeouts(e, s, e->now);
		if (slot_state(e, s) == RUN)
			break;
	}
	if (i > e->nslots)
		return HN_NONE;
	for (i = 1; (e->cur + i) % e->nslots != s; i++) {
		st = slot_state(e, (e->cur + i) % e->nslots);
		if (st == SKIP)
			e->g.slot[(e->cur + i) % e->nslots].skipped++;
		else if (st == PREEMPT)
			e->g.slot[(e->cur + i) % e->nslots].preempted++;
	}
	return s;
}

/*
 * Length of one cycle while nothing is queued anywhere (0 when every slot
 * would be passed over); with @n > 0, also account @n such cycles.
 */
u64 hn_idle_cycles(struct hn_engine *e, u64 n)
{
	u64 len, total = 0;
	u32 s;

	for (s = 0; s < e->nslots; s++) {
		if (slot_state(e, s) != RUN)
			continue;
		len = hn_slot_len(e, s);
		total += len;
		e->g.slot[s].runs += n;
		e->g.slot[s].time_ns += n * len;
		e->g.slot[s].cap_bytes += n * e->cfg.nodes *
			hn_ns_bytes(&e->cfg, len - e->cfg.guard_ns);
	}
	return total;
}
