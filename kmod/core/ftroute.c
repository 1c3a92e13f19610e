// SPDX-License-Identifier: GPL-2.0
/*
 * ftroute.c - routing circuits through one slot of a fat tree FT(l, w).
 *
 * A circuit of slot s reserves, at each level h below its common-ancestor
 * level H, the up-link it climbs by and, by Theorem 4 (Sec. 7.3), the
 * down-link with the same port number on the way down: Ulink(h, sigma_h,
 * P_h) and Dlink(h, delta_h, P_h).  Slot s's links are its own (slot.c
 * keeps one Ulink/Dlink state per slot); the circuits of other slots use
 * the same wires at other times of the global TDM cycle.
 *
 * New circuits are routed by the configured scheduler (ft_sched: level-wise,
 * Sec. 7.4; the local baselines; optimal) on a copy of the slot's link
 * state in e->ft, so what the live engine grants is what hn_sched_run()
 * grants for the same requests on the same state.  The optimal scheduler
 * needs every link free: it routes the slot's circuits again together with
 * the new ones (FT(l, w) is rearrangeable, so every one of them gets a
 * path); the paths change between two runs of the slot, which the
 * circuits' data never sees.  With a link down (fault.c) the tree is
 * rearrangeable no more: it routes each new pair by the first path free
 * (first_free()), as a circuit the fault cut is routed again.  Explicit
 * paths are checked link by link, and a refusal names the link and the
 * circuit that holds it.
 */
#include "engine.h"
#include "sched_int.h"

/* ft_sched (enum hn_ft_sched) as hn_ft_schedule() takes it */
static u32 ft_algo(const struct hn_engine *e)
{
	return HN_SCHED_LEVELWISE + e->cfg.ft_sched;
}

/* Slot @s's links as hn_ft's Ulink/Dlink (1 = free): topo_ft.c's ft_chan() */
static void slot_links(struct hn_engine *e, u32 s)
{
	const u64 *busy = e->slot[s].busy;
	struct hn_ft *ft = e->ft;
	u32 nl = (ft->l - 1) * ft->nsw, i;

	for (i = 0; i < nl; i++) {
		ft->up[i] = ft->full & ~busy[i];
		ft->down[i] = ft->full & ~busy[nl + i];
	}
}

/* Which of routes r[0..n-1] uses up-port @p of SW(@h, @tau) (@down: Dlink)? */
static u32 owner(const struct hn_ft *ft, const struct hn_route *r, u32 n,
		 u32 h, u32 tau, u32 p, bool down)
{
	u32 i, j, a, b;

	for (i = 0; i < n; i++) {
		a = hn_ft_leafsw(ft, r[i].src);
		b = hn_ft_leafsw(ft, r[i].dst);
		for (j = 0; j < r[i].level && j <= h; j++) {
			if (j == h && r[i].port[j] == p &&
			    (down ? b : a) == tau)
				return i;
			a = hn_ft_up(ft, j, a, r[i].port[j]);
			b = hn_ft_up(ft, j, b, r[i].port[j]);
		}
	}
	return HN_NONE;
}

/* Whether bit @p of Ulink/Dlink word @i is a dead link's (fault.c). */
static bool dead(const struct hn_engine *e, u32 i, u32 p)
{
	return e->dead_chan && (e->dead_chan[i] >> p & 1);
}

/* The first free path, in port order, from level @h up to @H (below). */
static bool free_path(const struct hn_ft *ft, u32 h, u32 H, u32 a, u32 b,
		      u8 *port)
{
	u64 free;
	u32 p;

	if (h == H)
		return true;
	free = ft->up[h * ft->nsw + a] & ft->down[h * ft->nsw + b];
	for (; free; free &= free - 1) {
		p = hn_ctz64(free);
		port[h] = p;
		if (free_path(ft, h + 1, H, hn_ft_up(ft, h, a, p),
			      hn_ft_up(ft, h, b, p), port))
			return true;
	}
	return false;
}

/* Some link is dead (fault.c): FT(l, w) is rearrangeable no more. */
static bool any_dead(const struct hn_engine *e)
{
	u32 i, n = 2 * (e->ft->l - 1) * e->ft->nsw;

	for (i = 0; e->dead_chan && i < n; i++)
		if (e->dead_chan[i])
			return true;
	return false;
}

/* Name, in @err, the link of a refusal: -EBUSY. */
static int busy(struct hn_err *err, const char *msg, u32 s, u32 p,
		const struct hn_pair *pr, u32 h, u32 tau, u32 port, bool down,
		const struct hn_route *o)
{
	hn_fail(err, -EBUSY, msg, s, pr->src, p);
	if (err) {
		err->a = *pr;
		err->pairs = false;
		err->link = true;
		err->down = down;
		err->level = h;
		err->sw = tau;
		err->port = port;
		err->owner.src = o ? o->src : HN_NONE;
		err->owner.dst = o ? o->dst : HN_NONE;
	}
	return -EBUSY;
}

/*
 * Take the path @port of pair @pr (the @i-th of slot @s's configuration)
 * on the link state of e->ft, the routes r[0..i-1] already taken: -EINVAL
 * for a port past the switch, -EBUSY naming a link already taken.
 */
static int take_path(struct hn_engine *e, u32 i, const struct hn_pair *pr,
		     const u8 *port, struct hn_route *r)
{
	struct hn_ft *ft = e->ft;
	u32 a = hn_ft_leafsw(ft, pr->src), b = hn_ft_leafsw(ft, pr->dst), h;
	struct hn_route *mine = &r[i];
	u64 *up, *dn;

	memset(mine, 0, sizeof(*mine));
	mine->src = pr->src;
	mine->dst = pr->dst;
	mine->level = hn_ft_h(ft, a, b);
	mine->fail = HN_FT_NOFAIL;
	for (h = 0; h < mine->level; h++) {
		if (port[h] >= ft->w)
			return -EINVAL;
		up = &ft->up[h * ft->nsw + a];
		dn = &ft->down[h * ft->nsw + b];
		if (!(*up & *dn & (1ULL << port[h])))
			return -EBUSY;
		*up &= ~(1ULL << port[h]);
		*dn &= ~(1ULL << port[h]);
		mine->port[h] = port[h];
		mine->nports = h + 1;
		a = hn_ft_up(ft, h, a, port[h]);
		b = hn_ft_up(ft, h, b, port[h]);
	}
	mine->granted = 1;
	return 0;
}

/*
 * The optimal scheduler with a dead link (ours): it needs every link up,
 * so each pair in turn takes the first path free on e->ft's state
 * (free_path(), found whenever one is), or fails at level 0.
 */
static void first_free(struct hn_engine *e, const struct hn_pair *req, u32 n,
		       struct hn_route *out)
{
	struct hn_ft *ft = e->ft;
	u8 port[HN_FT_MAX_LEVELS];
	u32 i, a, b;

	for (i = 0; i < n; i++) {
		a = hn_ft_leafsw(ft, req[i].src);
		b = hn_ft_leafsw(ft, req[i].dst);
		if (free_path(ft, 0, hn_ft_h(ft, a, b), a, b, port)) {
			take_path(e, i, &req[i], port, out);	/* free: 0 */
			continue;
		}
		memset(&out[i], 0, sizeof(out[i]));
		out[i].src = req[i].src;
		out[i].dst = req[i].dst;
		out[i].level = hn_ft_h(ft, a, b);
	}
}

/*
 * Why pair @i of @cfg, with the routes r[0..i-1] taken, cannot take its
 * path: the first link of it that is not free, and who holds it.
 */
static int explain_path(struct hn_engine *e, const struct hn_slot_cfg *cfg,
			u32 i, const u8 *port, const struct hn_route *r,
			struct hn_err *err)
{
	const struct hn_pair *pr = &cfg->pairs[i];
	struct hn_ft *ft = e->ft;
	u32 a = hn_ft_leafsw(ft, pr->src), b = hn_ft_leafsw(ft, pr->dst);
	u32 H = hn_ft_h(ft, a, b), h, o;

	for (h = 0; h < H; h++) {
		if (port[h] == HN_PORT_NONE)
			return hn_fail(err, -EINVAL,
				       "path too short: it needs an up-port for every level below the common ancestor",
				       cfg->slot, pr->src, i);
		if (port[h] >= ft->w)
			return hn_fail(err, -EINVAL,
				       "path names an up-port past the switch",
				       cfg->slot, pr->src, i);
		if (dead(e, h * ft->nsw + a, port[h]))
			return busy(err, "path's up-link is down", cfg->slot,
				    i, pr, h, a, port[h], false, NULL);
		if (dead(e, (ft->l - 1 + h) * ft->nsw + b, port[h]))
			return busy(err, "path's down-link is down",
				    cfg->slot, i, pr, h, b, port[h], true, NULL);
		o = owner(ft, r, i, h, a, port[h], false);
		if (o != HN_NONE)
			return busy(err, "path's up-link already taken",
				    cfg->slot, i, pr, h, a, port[h], false,
				    &r[o]);
		o = owner(ft, r, i, h, b, port[h], true);
		if (o != HN_NONE)
			return busy(err, "path's down-link already taken",
				    cfg->slot, i, pr, h, b, port[h], true,
				    &r[o]);
		a = hn_ft_up(ft, h, a, port[h]);
		b = hn_ft_up(ft, h, b, port[h]);
	}
	return 0;
}

int hn_ft_blocked(const struct hn_engine *e, u32 slot, u32 src, u32 dst,
		  struct hn_err *err)
{
	const struct hn_ft *ft = e->ft;
	const struct hn_slot *sl;
	u32 a, b, h, H, p, nl;
	struct hn_pair pr = { src, dst };
	u64 free;

	if (!ft || slot >= e->cfg.k || src >= e->cfg.nodes ||
	    dst >= e->cfg.nodes)
		return -EINVAL;
	sl = &e->slot[slot];
	nl = (ft->l - 1) * ft->nsw;
	a = hn_ft_leafsw(ft, src);
	b = hn_ft_leafsw(ft, dst);
	H = hn_ft_h(ft, a, b);
	for (h = 0; h < H; h++) {
		free = ft->full & ~sl->busy[h * ft->nsw + a] &
		       ~sl->busy[nl + h * ft->nsw + b];
		if (!free)
			return busy(err, "no up-port free both ways at this level",
				    slot, HN_NONE, &pr, h, a, HN_NONE, false,
				    NULL);
		p = hn_ctz64(free);
		a = hn_ft_up(ft, h, a, p);
		b = hn_ft_up(ft, h, b, p);
	}
	return 0;
}

/*
 * Route slot @cfg->slot's whole configuration, all links free, into
 * r[0..npairs-1]: by its explicit paths when it has them, else by
 * ft_sched.  0, or -EBUSY naming the link where a pair found no way.
 */
int hn_ft_route_cfg(struct hn_engine *e, const struct hn_slot_cfg *cfg,
		    struct hn_route *r, struct hn_err *err)
{
	struct hn_ft *ft = e->ft;
	u32 L = ft->l - 1, i, h, a, b;
	int rc = 0;

	hn_ft_clear(ft);
	for (i = 0; e->dead_chan && i < L * ft->nsw; i++) {	/* fault.c */
		ft->up[i] &= ~e->dead_chan[i];
		ft->down[i] &= ~e->dead_chan[L * ft->nsw + i];
	}
	for (i = 0; cfg->ports && i < cfg->npairs; i++) {
		rc = take_path(e, i, &cfg->pairs[i], cfg->ports + i * L, r);
		if (rc)
			return explain_path(e, cfg, i, cfg->ports + i * L, r,
					    err);
	}
	if (cfg->ports)
		return 0;
	if (ft_algo(e) == HN_SCHED_OPTIMAL && any_dead(e))
		first_free(e, cfg->pairs, cfg->npairs, r);
	else
		rc = hn_ft_schedule(ft, ft_algo(e), 0, &e->ft_seed,
				    cfg->pairs, cfg->npairs, r, NULL, err);
	if (rc)
		return rc;
	for (i = 0; i < cfg->npairs && r[i].granted; i++)
		;
	if (i == cfg->npairs)
		return 0;
	/* climb r[i]'s ports to the level where it failed */
	a = hn_ft_leafsw(ft, r[i].src);
	b = hn_ft_leafsw(ft, r[i].dst);
	for (h = 0; h < r[i].fail && h < r[i].nports; h++) {
		a = hn_ft_up(ft, h, a, r[i].port[h]);
		b = hn_ft_up(ft, h, b, r[i].port[h]);
	}
	return busy(err, "no up-port free both ways at this level", cfg->slot,
		    i, &cfg->pairs[i], r[i].fail, a, HN_NONE, false, NULL);
}

/*
 * Route @n pairs, a partial permutation of nodes free in slot @s, on the
 * slot's free links with ft_sched; out[i] is pairs[i]'s outcome.  With
 * the optimal scheduler the slot's own circuits are routed again with
 * them (scratch: nconn + n entries of @pairs and @out, the new pairs
 * last), and get their new paths here.
 */
int hn_ft_route_new(struct hn_engine *e, u32 s, struct hn_pair *pairs,
		    u32 n, struct hn_route *out, struct hn_err *err)
{
	struct hn_slot *sl = &e->slot[s];
	u32 algo = ft_algo(e), m = 0, i;
	int rc;

	if (algo == HN_SCHED_OPTIMAL && any_dead(e)) {
		slot_links(e, s);
		first_free(e, pairs, n, out);
		return 0;
	}
	if (algo != HN_SCHED_OPTIMAL) {
		slot_links(e, s);
		return hn_ft_schedule(e->ft, algo, 0, &e->ft_seed, pairs, n,
				      out, NULL, err);
	}
	/* optimal: the slot's circuits first, then the new pairs */
	memmove(pairs + sl->nconn, pairs, n * sizeof(*pairs));
	for (m = 0; m < sl->nconn; m++) {
		pairs[m].src = sl->conn[m];
		pairs[m].dst = sl->out[sl->conn[m]];
	}
	hn_ft_clear(e->ft);
	rc = hn_ft_schedule(e->ft, algo, 0, &e->ft_seed, pairs, m + n, out,
			    NULL, err);
	if (rc)
		return rc;
	hn_slot_unroute(e, s);
	for (i = 0; i < m; i++)
		hn_slot_path(e, s, pairs[i].src, out[i].port);
	memmove(out, out + m, n * sizeof(*out));
	return 0;
}

/*
 * A circuit a fault cut (fault.c), its links given back: a path for
 * @src -> @dst on slot @s's free links (the dead ones held: fault.c),
 * into @port.  Not the scheduler's: the first path in port order, every
 * one tried (at most w^(l-1) = N / w, l - 1 levels deep), so that a path
 * is found whenever one is free.  False when none is.
 */
bool hn_ft_reroute(struct hn_engine *e, u32 s, u32 src, u32 dst, u8 *port)
{
	struct hn_ft *ft = e->ft;
	u32 a = hn_ft_leafsw(ft, src), b = hn_ft_leafsw(ft, dst);

	slot_links(e, s);
	memset(port, 0, ft->l - 1);
	return free_path(ft, 0, hn_ft_h(ft, a, b), a, b, port);
}
