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
 * The technique is the fabric's (switching), or a switch's own where one
 * is set (routers of both kinds in one fabric: ours), or, where the sender
 * chose one, the message's (hn_msg.sw): each switch applies it worm by
 * worm (hn_flow_of(), engine.h), when the header leaves it (the credit it
 * needs ahead) and when it is routed there.
 */
#include "engine.h"

static const char no_room[] =
	"cut-through and store-and-forward need buffers of a worm: vc_flits holds less";

/* Do buffers of vc_flits hold @bytes (vct and saf need them to)? */
static bool room_for(const struct hn_config *c, u64 bytes)
{
	return !c->vc_flits || bytes <= (u64)c->vc_flits * c->flit_bytes;
}

/*
 * Why the fabric cannot carry @m by the switching its sender chose, NULL
 * when it can: not drop on block, and cut-through and store-and-forward
 * need buffers that hold a whole worm (vc_flits may be smaller).
 */
const char *hn_flow_bad(const struct hn_config *c, const struct hn_msg *m)
{
	if (m->sw > HN_SWITCH_SAF + 1)
		return "a message's switching is wormhole, vct or saf";
	if (m->sw && c->switching == HN_SWITCH_DROP)
		return "switching drop carries no message by a switching of its own";
	if (m->sw > HN_SWITCH_WORMHOLE + 1 &&
	    !room_for(c, hn_min64(c->worm_bytes, m->len)))
		return no_room;
	return NULL;
}

static int fail(struct hn_err *err, int rc, const char *msg, u32 sw)
{
	return hn_fail(err, rc, msg, HN_NONE, HN_NONE, sw);
}

int hn_set_switch_flow(struct hn_engine *e, u32 sw, u32 flow,
		       struct hn_err *err)
{
	struct hn_fab *f = e->fab;

	if (sw >= e->topo.nsw)
		return fail(err, -EINVAL, "no such switch", sw);
	if (flow > HN_SWITCH_SAF + 1)
		return fail(err, -EINVAL,
			    "a switch's switching is wormhole, vct or saf, or the fabric's",
			    sw);
	if (e->cfg.switching == HN_SWITCH_DROP)
		return fail(err, -EOPNOTSUPP,
			    "switching drop is the whole fabric's: no switch has one of its own",
			    sw);
	if (flow > HN_SWITCH_WORMHOLE + 1 &&
	    !room_for(&e->cfg, e->cfg.worm_bytes))
		return fail(err, -EINVAL, no_room, sw);
	if (f->wused)
		return fail(err, -EBUSY,
			    "worms are in the fabric: set a switch's switching while it is empty",
			    sw);
	if (!f->flow) {
		if (!flow)
			return 0;
		f->flow = hn_zalloc(e->topo.nsw);
		if (!f->flow)
			return fail(err, -ENOMEM, "no memory for the switches' switching",
				    sw);
	}
	f->flow[sw] = (u8)flow;
	return 0;
}

u32 hn_switch_flow(const struct hn_engine *e, u32 sw)
{
	const struct hn_fab *f = e->fab;

	return f->flow && sw < e->topo.nsw ? f->flow[sw] : 0;
}

/* hn_flow_whole() where a switch has a switching of its own */
bool hn_flow_whole_at(const struct hn_engine *e, const struct hn_msg *m,
		      u32 o)
{
	const struct hn_fab *f = e->fab;
	u32 d = f->out[o].down;

	return hn_flow_of(e, m, o / f->radix) != HN_SWITCH_WORMHOLE ||
	       (d != HN_NONE && hn_flow_store(e, m, f->in[d].sw));
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
