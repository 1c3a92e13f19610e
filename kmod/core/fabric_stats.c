// SPDX-License-Identifier: GPL-2.0
/*
 * fabric_stats.c - the fabric's statistics per link and per switch
 * (hn_core.h, docs/model.md "Statistics"), read from what switch.c
 * counts in its ports: bytes and worms each channel carried and how long
 * worms held it, the credit stalls of the headers that wanted it, and the
 * bytes the input buffer it feeds held (peak, and integrated over time);
 * per switch, the sums over its ports and the time its headers waited;
 * per level, the sums over its switches and the links up into them.
 * Beside the worms', the payload circuits carried over each channel,
 * counted here along each circuit's path (hn_fab_circuit()).
 */
#include "engine.h"

int hn_fabric_info(const struct hn_engine *e, struct hn_fabric_info *out)
{
	const struct hn_topo *t = &e->topo;

	*out = (struct hn_fabric_info){
		.topology = t->kind,
		.levels = t->levels,
		.width = t->width,
		.nodes = t->nodes,
		.switches = t->nsw,
		.radix = t->radix,
		.links = t->nlinks,
		.max_hops = t->max_hops,
	};
	hn_topo_fault_count(t, &out->links_down, &out->switches_down);
	out->channels_down = hn_drop_chans_down(e);
	return 0;
}

/* The bytes input @i's buffer has held, integrated up to now. */
static u64 held(const struct hn_engine *e, const struct hn_iport *in)
{
	return in->occ + (u64)in->used * (e->now - in->occ_t);
}

/* The channel output @o drives, and the buffer it feeds. */
static void chan_of(const struct hn_engine *e, u32 o, struct hn_chan_stats *s)
{
	const struct hn_fab *f = e->fab;
	const struct hn_oport *op = &f->out[o];
	const struct hn_iport *in;

	s->bytes = op->bytes;
	s->worms = op->worms;
	s->busy_ns = op->busy_ns;
	s->credit_stalls = op->stalls;
	s->circuit_bytes = op->cbytes;
	if (op->down == HN_NONE)
		return;
	in = &f->in[op->down];
	s->buf_peak = in->peak;
	s->buf_byte_ns = held(e, in);
}

int hn_link_stats(const struct hn_engine *e, u32 link,
		  struct hn_link_stats *out)
{
	const struct hn_topo *t = &e->topo;
	const struct hn_fab *f = e->fab;
	const struct hn_iport *in;
	u32 d, o;

	if (link >= t->nlinks)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	for (d = HN_UP; d <= HN_DOWN; d++) {
		o = f->chan[2 * link + d];
		if (o != HN_NONE) {	/* its sender is at end d */
			chan_of(e, o, &out->ch[d]);
			out->sw[d] = o / f->radix;
			out->port[d] = o % f->radix;
			continue;
		}
		/* node @link's own channel into the fabric, its input's */
		in = &f->in[link];
		out->sw[d] = HN_NONE;
		out->port[d] = link;
		out->ch[d].bytes = in->bytes;
		out->ch[d].worms = in->worms;
		out->ch[d].busy_ns = in->busy_ns;
		out->ch[d].circuit_bytes = in->cbytes;
	}
	out->down = hn_topo_link_is_down(t, link);
	out->dead = out->down ||
		    hn_topo_switch_is_down(t, out->sw[HN_UP]) ||
		    hn_topo_switch_is_down(t, out->sw[HN_DOWN]);
	return 0;
}

void hn_fab_circuit(struct hn_engine *e, u32 s, u32 u, u64 bytes)
{
	const struct hn_slot *sl = &e->slot[s];
	struct hn_fab *f = e->fab;
	const struct hn_tport *h = e->c_hop;
	int n, i;

	if (e->topo.max_hops == 1 && !sl->pick && !e->topo.fault) {
		f->in[u].cbytes += bytes;
		f->out[hn_topo_out(&e->topo, 0, sl->out[u])].cbytes += bytes;
		return;
	}
	n = hn_circuit_hops(e, s, u);
	if (n <= 0)
		return;
	f->in[u].cbytes += bytes;
	for (i = 0; i < n; i++)
		f->out[h[i].sw * f->radix + h[i].port].cbytes += bytes;
}

/* The level of switch @sw: a fat tree's; 0 in every other topology. */
static u32 sw_level(const struct hn_engine *e, u32 sw)
{
	u32 h = 0, tau;

	if (e->topo.kind == HN_TOPO_FATTREE)
		hn_topo_ft_sw(&e->topo, sw, &h, &tau);
	return h;
}

int hn_switch_stats(const struct hn_engine *e, u32 sw,
		    struct hn_switch_stats *out)
{
	const struct hn_fab *f = e->fab;
	const struct hn_iport *in;
	const struct hn_oport *op;
	u32 p, i;

	if (sw >= e->topo.nsw)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	out->level = sw_level(e, sw);
	out->down = hn_topo_switch_is_down(&e->topo, sw);
	for (p = 0; p < f->radix; p++) {
		op = &f->out[sw * f->radix + p];
		out->bytes += op->bytes;
		out->worms += op->worms;
		out->circuit_bytes += op->cbytes;
		out->held += op->busy > e->now;
		i = f->in_of[sw * f->radix + p];
		if (i == HN_NONE)
			continue;
		in = &f->in[i];
		out->blocked_ns += in->blocked_ns;
		out->credit_stalls += in->stalls;
		out->buf_peak = hn_max64(out->buf_peak, in->peak);
		out->buf_byte_ns += held(e, in);
		if (i >= e->cfg.nodes)	/* a node's is its VQ_W: node stats */
			out->buf_bytes += in->used;
	}
	return 0;
}

/*
 * A link belongs to the level of its upper end, the switch that sends its
 * [HN_DOWN] channel.  -EINVAL for a level the fabric does not have.
 */
int hn_level_stats(const struct hn_engine *e, u32 level,
		   struct hn_level_stats *out)
{
	struct hn_switch_stats ss;
	struct hn_link_stats ls;
	u32 i, d;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < e->topo.nsw; i++) {
		if (sw_level(e, i) != level)
			continue;
		hn_switch_stats(e, i, &ss);
		out->switches++;
		out->bytes += ss.bytes;
		out->worms += ss.worms;
		out->blocked_ns += ss.blocked_ns;
		out->credit_stalls += ss.credit_stalls;
		out->buf_peak = hn_max64(out->buf_peak, ss.buf_peak);
		out->buf_byte_ns += ss.buf_byte_ns;
		out->circuit_bytes += ss.circuit_bytes;
	}
	if (!out->switches)
		return -EINVAL;
	for (i = 0; i < e->topo.nlinks; i++) {
		hn_link_stats(e, i, &ls);
		if (ls.sw[HN_DOWN] == HN_NONE ||
		    sw_level(e, ls.sw[HN_DOWN]) != level)
			continue;
		out->links++;
		for (d = HN_UP; d <= HN_DOWN; d++)
			out->busy_ns[d] += ls.ch[d].busy_ns;
	}
	return 0;
}

void hn_fab_stats_reset(struct hn_engine *e)
{
	struct hn_fab *f = e->fab;
	struct hn_iport *in;
	struct hn_oport *op;
	u32 i;

	for (i = 0; i < f->nin; i++) {
		in = &f->in[i];
		in->peak = in->used;
		in->occ = 0;
		in->occ_t = e->now;
		in->blocked_ns = 0;
		in->stalls = 0;
		in->bytes = 0;
		in->worms = 0;
		in->busy_ns = 0;
		in->cbytes = 0;
	}
	for (i = 0; i < f->nout; i++) {
		op = &f->out[i];
		op->bytes = 0;
		op->worms = 0;
		op->busy_ns = 0;
		op->stalls = 0;
		op->cbytes = 0;
	}
}
