// SPDX-License-Identifier: GPL-2.0
/*
 * fault.c - links and switches of a running fabric taken down and brought
 * back up, one by one or a seeded random set of links at once
 * (docs/model.md "Faults").  Which links are dead and which destinations
 * a switch still reaches is the topology's (topo_fault.c); this file
 * makes the engine see a change:
 * - every node looks again at once, its streams routed afresh; a message
 *   whose destination no route reaches any more waits at its source (the
 *   engines skip its stream) until one does, and hn_inject() refuses new
 *   ones with -EHOSTUNREACH;
 * - the channels of dead links are marked taken in every slot, so the
 *   schedulers route new circuits around them; a circuit whose path
 *   crosses one is routed again around it where a path is free in its
 *   slot (a fat tree's: hn_ft_reroute()), else, or when its end is cut
 *   off, released (its waiting messages go by wormhole,
 *   hn_circuit_drop()); a circuit that comes to cross one all the same
 *   carries nothing (hn_circuit_live()).
 */
#include "engine.h"
#include "sched_int.h"		/* HN_WORDS(), hn_set_bit(), hn_popcount64() */
#include "fab_name.h"
#include "kth.h"

static int fail(struct hn_err *err, int rc, const char *msg, u32 id)
{
	return hn_fail(err, rc, msg, HN_NONE, HN_NONE, id);
}

/*
 * Every node routes its streams afresh and looks again now, or, out of
 * the wormhole slot, when it begins (each engine's arm stashes it).
 */
static void look_again(struct hn_engine *e)
{
	struct hn_stream *st;
	u32 u;

	for (u = 0; u < e->cfg.nodes; u++) {
		st = e->node[u].ring;
		if (!st)
			continue;
		do {
			st->port = 0;
			st = st->rr_next;
		} while (st != e->node[u].ring);
		e->w_arm(e, u, e->now);
	}
}

static int check(const struct hn_engine *e, struct hn_err *err)
{
	if (e->cfg.k && (e->cfg.policy & HN_POL_NO_W))
		return fail(err, -EOPNOTSUPP,
			    "links and switches fail only with a wormhole slot: under pure TDM a dead circuit's messages have nowhere to go",
			    HN_NONE);
	return 0;
}

bool hn_circuit_live(const struct hn_engine *e, u32 s, u32 u)
{
	const struct hn_topo *t = &e->topo;
	int n, i;

	if (!t->fault)
		return true;
	if (hn_topo_link_is_down(t, u))
		return false;
	n = hn_circuit_hops(e, s, u);
	for (i = 0; i < n; i++)
		if (hn_topo_port_dead(t, e->c_hop[i].sw, e->c_hop[i].port))
			return false;
	return n > 0;
}

/*
 * The channels circuits hold (hn_topo_chan()) of the dead links into
 * e->dead_chan, and in every slot's taken ones in place of the last: a
 * new circuit's route finds them taken.  No circuit holds one.
 */
static int mark_dead(struct hn_engine *e)
{
	const struct hn_topo *t = &e->topo;
	u32 w = HN_WORDS(hn_topo_nchan(t)), s, sw, p, i;
	u64 *old = e->dead_chan, *d = NULL;
	struct hn_tport q;

	if (!hn_paths(e))
		return 0;
	if (t->fault) {
		d = hn_zalloc(w * sizeof(u64));
		if (!d)
			return -ENOMEM;
		for (sw = 0; sw < t->nsw; sw++)
			for (p = 0; p < t->radix; p++) {
				q = t->ops->peer(t, sw, p);
				if (q.sw != HN_NONE && q.sw != HN_TOPO_NODE &&
				    hn_topo_port_dead(t, sw, p))
					hn_set_bit(d, hn_topo_chan(t, sw, p));
			}
	}
	for (s = 0; s < e->cfg.k; s++)
		for (i = 0; i < w; i++)
			e->slot[s].busy[i] = (e->slot[s].busy[i] &
					      ~(old ? old[i] : 0)) |
					     (d ? d[i] : 0);
	hn_free(old);
	e->dead_chan = d;
	return 0;
}

/* Slot @s's dead channels taken again (a circuit giving its own back gave them) */
static void retake_dead(struct hn_engine *e, u32 s)
{
	u32 w = HN_WORDS(hn_topo_nchan(&e->topo)), i;

	for (i = 0; e->dead_chan && i < w; i++)
		e->slot[s].busy[i] |= e->dead_chan[i];
}

/*
 * u's circuit of slot @s is not live: route it again on the slot's free
 * links (a fat tree's, where a circuit chooses its up-ports) if that
 * makes it live, else keep its path.  True when it was routed again.
 */
static bool reroute(struct hn_engine *e, u32 s, u32 u)
{
	struct hn_slot *sl = &e->slot[s];
	u8 old[HN_FT_MAX_LEVELS], port[HN_FT_MAX_LEVELS];
	u32 L = e->topo.npick;

	if (!e->ft || !L)
		return false;
	memcpy(old, sl->pick + (size_t)u * L, L);
	hn_slot_repath(e, s, u, NULL);
	retake_dead(e, s);
	if (hn_ft_reroute(e, s, u, sl->out[u], port)) {
		hn_slot_repath(e, s, u, port);
		if (hn_circuit_live(e, s, u)) {
			hn_circuit_stop(e, s, u);	/* no more this run */
			e->g.circuit_reroutes++;
			return true;
		}
		hn_slot_repath(e, s, u, NULL);
	}
	hn_slot_path(e, s, u, old);
	return false;
}

/*
 * Route again, or release, every circuit that is not live: how many were
 * released.
 */
static u32 release_dead(struct hn_engine *e)
{
	struct hn_slot *sl;
	u32 s, i, n = 0;

	for (s = 0; s < e->cfg.k; s++) {
		sl = &e->slot[s];
		for (i = sl->nconn; i-- > 0;) {
			if (hn_circuit_live(e, s, sl->conn[i]) ||
			    reroute(e, s, sl->conn[i]))
				continue;
			hn_circuit_drop(e, s, sl->conn[i]);
			retake_dead(e, s);
			e->g.releases++;
			n++;
		}
	}
	return n;
}

/*
 * What a change means for the engine: dead circuits released, dead
 * channels taken in every slot, every node looking again.  Returns the
 * circuits released.
 */
static u32 changed(struct hn_engine *e)
{
	u64 before = e->g.circuit_reroutes;
	u32 n;

	/*
	 * Out of memory, the slots keep the marks they had: a scheduler may
	 * then route a circuit over a dead link, which hn_circuit_live()
	 * keeps from carrying anything, or around a live one.  First, so
	 * that a circuit routed again goes around the dead links.
	 */
	mark_dead(e);
	n = release_dead(e);
	e->fault_rerouted = (u32)(e->g.circuit_reroutes - before);
	look_again(e);
	return n;
}

u32 hn_fault_rerouted(const struct hn_engine *e)
{
	return e->fault_rerouted;
}

/* The links between switches still up */
static u32 live_links(const struct hn_topo *t)
{
	u32 up = 0, l;

	for (l = t->nodes; l < t->nlinks; l++)
		up += !hn_topo_link_is_down(t, l);
	return up;
}

/* The @k-th of them (from 0), or HN_NONE */
static u32 live_link(const struct hn_topo *t, u32 k)
{
	u32 l;

	for (l = t->nodes; l < t->nlinks; l++)
		if (!hn_topo_link_is_down(t, l) && !k--)
			return l;
	return HN_NONE;
}

/*
 * Links failing over time (ours: C4.6's injector as a process in virtual
 * time).  Failures come one after another, the time from one to the next
 * drawn uniformly from 1 to 2 fault_mtbf_ns - 1 (mean fault_mtbf_ns: the
 * kernel has no logarithm for an exponential draw); each takes a live
 * link between switches down, chosen at random, and fault_repair_ns
 * later brings it back up.  Seeded by the configuration, so a run is the
 * same run every time.
 */
static u64 flap_gap(struct hn_engine *e, u64 m)
{
	return m > 1 ? 1 + hn_rand(&e->flap_seed) % (2 * m - 1) : 1;
}

/*
 * Failures from now on at @mtbf (0: no more; the links they took down
 * still come back up at their time), the next one drawn from now.  The
 * draws are seeded by the first @mtbf that is not 0 and go on from there
 * when it changes live.
 */
int hn_flap_set(struct hn_engine *e, u64 mtbf)
{
	if (mtbf && !e->flap) {
		e->flap = hn_zalloc(e->topo.nlinks * sizeof(*e->flap));
		if (!e->flap)
			return -ENOMEM;
		e->flap_cap = e->topo.nlinks;
		e->flap_seed = 0x666c6170ULL ^ mtbf;
	}
	e->flap_next = mtbf ? e->now + flap_gap(e, mtbf) : HN_U64_MAX;
	return 0;
}

/* The first failure or repair due. */
static void flap_one(struct hn_engine *e)
{
	struct hn_flap *f = &e->flap[e->flap_head];
	u32 l, n;

	if (e->flap_n && f->up_at <= e->flap_next) {
		if (hn_link_down(e, f->link) &&
		    !hn_set_fault(e, false, f->link, false, &n, NULL)) {
			e->g.links_repaired++;
			if (e->ops->fault)
				e->ops->fault(e->ctx, f->link, false, n);
		}
		e->flap_head = (e->flap_head + 1) % e->flap_cap;
		e->flap_n--;
		return;
	}
	n = live_links(&e->topo);
	l = n ? live_link(&e->topo, hn_rand_below(&e->flap_seed, n)) : HN_NONE;
	if (l != HN_NONE && !hn_set_fault(e, false, l, true, &n, NULL)) {
		e->g.links_failed++;
		if (e->ops->fault)
			e->ops->fault(e->ctx, l, true, n);
		if (e->cfg.fault_repair_ns && e->flap_n < e->flap_cap) {
			f = &e->flap[(e->flap_head + e->flap_n++) %
				     e->flap_cap];
			f->link = l;
			f->up_at = e->flap_next + e->cfg.fault_repair_ns;
		}
	}
	e->flap_next += flap_gap(e, e->cfg.fault_mtbf_ns);
}

/*
 * Every failure and repair due by now, in time order, each an event of
 * the call's work (hn_work()): however short fault_mtbf_ns, a call stops
 * once its work is spent, and the next goes on with the rest.
 */
void hn_flap_run(struct hn_engine *e)
{
	while (hn_flap_due(e) <= e->now && e->stop_at > e->now) {
		flap_one(e);
		hn_work(e, e->now);
	}
}

void hn_fault_destroy(struct hn_engine *e)
{
	hn_free(e->flap);
	e->flap = NULL;
	hn_free(e->dead_chan);
	e->dead_chan = NULL;
}

int hn_set_fault(struct hn_engine *e, bool sw, u32 id, bool down,
		 u32 *released, struct hn_err *err)
{
	int rc = check(e, err);
	u32 n;

	if (rc)
		return rc;
	rc = hn_topo_fault_set(&e->topo, sw, id, down);
	if (rc == -EINVAL)
		return fail(err, rc, sw ? "no such switch" : "no such link",
			    id);
	if (rc)
		return fail(err, rc, "no memory for the fault tables", id);
	n = changed(e);
	if (released)
		*released = n;
	return 0;
}

/*
 * Take down @count links between switches, chosen at random by @seed
 * among those still up.  -EINVAL when fewer are up; nothing changes on
 * an error.
 */
int hn_set_fault_random(struct hn_engine *e, u32 count, u64 seed,
			u32 *released, struct hn_err *err)
{
	struct hn_topo *t = &e->topo;
	u32 up = live_links(t), l, n, r;
	int rc = check(e, err);
	struct hn_kth k;

	if (rc)
		return rc;
	if (count > up)
		return fail(err, -EINVAL,
			    "more links to take down than links between switches up",
			    up);
	if (hn_kth_init(&k, t->nlinks - t->nodes))
		return fail(err, -ENOMEM, "no memory for the fault tables",
			    HN_NONE);
	for (l = t->nodes; l < t->nlinks; l++)
		if (!hn_topo_link_is_down(t, l))
			hn_kth_add(&k, l - t->nodes, 1);
	for (; count && !rc; count--, up--) {
		r = hn_rand_below(&seed, up);	/* the r-th live link */
		l = t->nodes + hn_kth_find(&k, &r);
		rc = hn_topo_fault_set(t, false, l, true);
		hn_kth_add(&k, l - t->nodes, -1);
		hn_resched();
	}
	hn_kth_free(&k);
	if (rc)
		return fail(err, rc, "no memory for the fault tables", l);
	n = changed(e);
	if (released)
		*released = n;
	return 0;
}

u8 hn_link_chans_down(const struct hn_engine *e, u32 link)
{
	if (!e->fab->dr || link >= e->topo.nlinks)
		return 0;
	return hn_drop_chan_dead(e, link);
}

u32 hn_chans_down(const struct hn_engine *e)
{
	return hn_drop_chans_down(e);
}

/* A channel fails alone only on a dilated link of switching drop. */
static int chans_fail(const struct hn_engine *e, struct hn_err *err)
{
	const struct hn_config *c = &e->cfg;

	if (c->switching != HN_SWITCH_DROP || hn_dil_max(c) < 2)
		return fail(err, -EOPNOTSUPP,
			    "a channel fails alone only on a link of dilation 2 or more, under switching drop: take the link down",
			    HN_NONE);
	return check(e, err);
}

/*
 * Whether channel @j of link @link may go down (@down) or up, or
 * -errno with *@err: never the last one up (its link goes down then).
 */
static int chan_check(const struct hn_engine *e, u32 link, u32 j, bool down,
		      struct hn_err *err)
{
	u32 d;
	u8 dead;

	if (link >= e->topo.nlinks)
		return fail(err, -EINVAL, "no such link", link);
	d = hn_drop_link_d(e, link);
	if (j >= d)
		return fail(err, -EINVAL,
			    "no such channel: a link has dilation channels, 0 to dilation - 1",
			    j);
	dead = hn_link_chans_down(e, link) | (down ? 1u << j : 0);
	if (hn_popcount64(dead) == d)
		return fail(err, -EBUSY,
			    "the link's last channel up: take the link down instead",
			    link);
	return 0;
}

int hn_set_chan_fault(struct hn_engine *e, u32 link, u32 j, bool down,
		      struct hn_err *err)
{
	int rc = chans_fail(e, err) ?: chan_check(e, link, j, down, err);

	if (rc)
		return rc;
	rc = hn_drop_chan_set(e, link, j, down);
	if (rc)
		return fail(err, rc, "no memory for the fault tables", link);
	look_again(e);
	return 0;
}

/*
 * How many more channels may go down, each link between switches that is
 * up keeping one of its own
 */
static u32 chans_may_go(const struct hn_engine *e)
{
	const struct hn_topo *t = &e->topo;
	u32 n = 0, l;

	for (l = t->nodes; l < t->nlinks; l++)
		if (!hn_topo_link_is_down(t, l))
			n += hn_drop_link_d(e, l) - 1 -
			     hn_popcount64(hn_link_chans_down(e, l));
	return n;
}

/*
 * The channels of @link that may be chosen to go down: every one up, if
 * the link is up and keeps another up.
 */
static u32 chan_weight(const struct hn_engine *e, u32 link)
{
	u32 d = hn_drop_link_d(e, link), dn;

	if (hn_topo_link_is_down(&e->topo, link))
		return 0;
	dn = hn_popcount64(hn_link_chans_down(e, link));
	return dn + 1 < d ? d - dn : 0;
}

int hn_set_chan_fault_random(struct hn_engine *e, u32 count, u64 seed,
			     struct hn_err *err)
{
	const struct hn_topo *t = &e->topo;
	int rc = chans_fail(e, err);
	u32 up, l, j, r, w;
	struct hn_kth k;
	u8 dead;

	if (rc)
		return rc;
	up = chans_may_go(e);
	if (count > up)
		return fail(err, -EINVAL,
			    "more channels to take down than may go: every link keeps one up",
			    up);
	if (hn_kth_init(&k, t->nlinks - t->nodes))
		return fail(err, -ENOMEM, "no memory for the fault tables",
			    HN_NONE);
	for (up = 0, l = t->nodes; l < t->nlinks; l++) {
		w = chan_weight(e, l);
		hn_kth_add(&k, l - t->nodes, w);
		up += w;
	}
	for (; count && !rc; count--) {
		r = hn_rand_below(&seed, up);	/* the r-th such channel */
		l = t->nodes + hn_kth_find(&k, &r);
		dead = hn_link_chans_down(e, l);
		for (j = 0; j < hn_drop_link_d(e, l); j++)	/* its r-th up */
			if (!(dead & (1u << j)) && !r--)
				break;
		w = chan_weight(e, l);
		rc = hn_drop_chan_set(e, l, j, true);
		w -= chan_weight(e, l);
		hn_kth_add(&k, l - t->nodes, -(s32)w);
		up -= w;
		hn_resched();
	}
	hn_kth_free(&k);
	if (rc)
		return fail(err, rc, "no memory for the fault tables", l);
	look_again(e);
	return 0;
}

u32 hn_link_at(const struct hn_engine *e, u32 sw, u32 port)
{
	const struct hn_topo *t = &e->topo;

	if (sw == HN_NONE)
		return port < t->nodes ? port : HN_NONE;
	if (sw >= t->nsw || port >= t->radix)
		return HN_NONE;
	return t->ops->link(t, sw, port);
}

bool hn_link_down(const struct hn_engine *e, u32 link)
{
	return hn_topo_link_is_down(&e->topo, link);
}

bool hn_switch_down(const struct hn_engine *e, u32 sw)
{
	return hn_topo_switch_is_down(&e->topo, sw);
}

void hn_faults(const struct hn_engine *e, u32 *links, u32 *switches)
{
	hn_topo_fault_count(&e->topo, links, switches);
}

/*
 * The messages that wait at their source, in its NIC or its first
 * switch's VQ_W, for a destination no live route reaches: they go when a
 * link or switch comes back up.  A walk over every node's streams, made
 * only while something is down.
 */
u64 hn_unreach_waiting(const struct hn_engine *e)
{
	const struct hn_node *n;
	const struct hn_stream *st;
	u64 msgs = 0;
	u32 u, i;

	if (!e->topo.fault)
		return 0;
	for (u = 0; u < e->cfg.nodes; u++) {
		n = &e->node[u];
		for (i = 0; i < n->tab_cap; i++) {
			st = n->tab[i];
			if (st && hn_cut_off(e, u, st->dst))
				msgs += st->q_w_msgs + st->vq_pckt.count +
					st->vq_w.count;
		}
	}
	return msgs;
}

int hn_fault_name(const struct hn_engine *e, bool sw, u32 id, char *buf,
		  u32 len)
{
	struct hn_fabric_info fi;
	struct hn_link_stats ls;
	struct hn_fab_name n;
	u32 s = id, p = HN_NONE;

	hn_fabric_info(e, &fi);
	if (!sw && id < fi.nodes) {		/* node id's own link */
		s = HN_NONE;
		p = id;
	} else if (!sw) {			/* by its up channel's sender */
		if (hn_link_stats(e, id, &ls))
			return -EINVAL;
		s = ls.sw[HN_UP];
		p = ls.port[HN_UP];
	}
	if (hn_fab_of(&fi, s, p, &n))
		return -EINVAL;
	hn_fab_print(&n, buf, len);
	return 0;
}
