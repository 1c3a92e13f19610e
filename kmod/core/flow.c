// SPDX-License-Identifier: GPL-2.0
/*
 * flow.c - the switching technique (Duato, Sec. 2.3; docs/model.md
 * "Topologies"): when a worm's header may leave a switch, and when its
 * tail follows.
 *
 * - Wormhole (Sec. 2.3.4): the header leaves on one flit of credit in the
 *   next input buffer and the worm claims what is free there, in whole
 *   flits; the rest of it waits in the switches behind, each holding what
 *   it claimed, and follows as its own flits free room ahead.  A blocked
 *   worm therefore holds buffers in several switches.
 * - Virtual cut-through (Sec. 2.3.3): the header leaves only on credit for
 *   the whole worm, so a blocked worm ends up in one switch.
 * - Store-and-forward (Sec. 2.3.2): as cut-through, and the header is
 *   routed only once the whole worm is in the switch.
 *
 * A worm of F flits moves one flit per wh_flit_ns through a switch and its
 * output link.  Flit x of it leaves hop j at e_j + x wh_flit_ns (e_j: when
 * its flits started there), or later if flit x had no room yet in the next
 * input: there it must wait until flit x - R_{j+1} (R: the flits the worm
 * claimed there) has left hop j + 1.  Only the header and the tail pay
 * the links' latency; inside a worm, room freed ahead is used at once.
 *
 * The technique is the fabric's (switching) or, where the sender chose
 * one, the message's (hn_msg.sw): each switch applies it worm by worm
 * (hn_flow_of(), engine.h).
 */
#include "engine.h"

/*
 * Why the fabric cannot carry @m by the switching its sender chose, NULL
 * when it can: not drop on block, and cut-through and store-and-forward
 * need buffers that hold a whole worm (vc_flits may be smaller).
 */
const char *hn_flow_bad(const struct hn_config *c, const struct hn_msg *m)
{
	static const char no_room[] =
		"cut-through and store-and-forward need buffers of a worm: vc_flits holds less";

	if (m->sw > HN_SWITCH_SAF + 1)
		return "a message's switching is wormhole, vct or saf";
	if (m->sw && c->switching == HN_SWITCH_DROP)
		return "switching drop carries no message by a switching of its own";
	if (m->sw > HN_SWITCH_WORMHOLE + 1 && c->vc_flits &&
	    hn_min64(c->worm_bytes, m->len) > (u64)c->vc_flits * c->flit_bytes)
		return no_room;
	return NULL;
}

/* Credit the header of @bytes of @m needs in the next input buffer. */
u32 hn_flow_need(const struct hn_config *c, const struct hn_msg *m,
		 u32 bytes)
{
	if (hn_flow_of(c, m) == HN_SWITCH_WORMHOLE && bytes > c->flit_bytes)
		return c->flit_bytes;
	return bytes;
}

/* Bytes a leaving header claims where @free are free (>= the need). */
u32 hn_flow_claim(const struct hn_config *c, u32 bytes, u32 free)
{
	if (free >= bytes)
		return bytes;
	return free / c->flit_bytes * c->flit_bytes;	/* wormhole only */
}

static u32 claimed(const struct hn_config *c, const struct hn_fworm *w,
		   u32 j)
{
	return w->hop[j].claim >= w->bytes ? w->flits :
	       w->hop[j].claim / c->flit_bytes;
}

/*
 * When @w's tail leaves hop @k, its tail being in the switch from @ta:
 * after its flits at the switch's pace, after its tail came in, and once
 * the hops ahead had room for the rest of it.  HN_U64_MAX when that
 * depends on a hop its header has not left yet.
 */
u64 hn_flow_tail(const struct hn_config *c, const struct hn_fworm *w, u32 k,
		 u64 ta)
{
	u64 flit = c->wh_flit_ns;
	u64 t = hn_max64(w->hop[k].e + w->flits * flit, ta);
	u32 j = k, x = w->flits, r;

	while (j != w->last) {
		r = claimed(c, w, j + 1);
		if (x <= r)
			break;
		x -= r;			/* flit x waits for flit x - r ahead */
		if (++j >= w->nh)
			return HN_U64_MAX;
		t = hn_max64(t, w->hop[j].e + x * flit);
	}
	return t;
}
