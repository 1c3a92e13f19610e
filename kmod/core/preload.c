// SPDX-License-Identifier: GPL-2.0
/*
 * preload.c - mode 3 of predictive circuit switching (Sec. 3.3.3): a
 * compiler or the user installs whole slot configurations B^(s) at once,
 * all or nothing.  Each must be a partial permutation (Sec. 5.3.1), and no
 * connection may sit in two slots (Table 5.1); connections of a replaced
 * slot that the new configuration lacks are released (release.c).
 */
#include "engine.h"
#include "sched_int.h"		/* hn_test_bit() */

/*
 * Does (u, v) sit in a slot that this preload leaves alone?  Of the
 * working set B^(s), or with @second of the second-level working set.
 */
static u32 kept_slot(const struct hn_engine *e, const u8 *replaced, u32 u,
		     u32 v, bool second)
{
	u32 s;

	if (!second) {
		s = hn_pcs_slot(e, u, v);
		return s != HN_NONE && !replaced[s] ? s : HN_NONE;
	}
	for (s = 0; s < e->cfg.k; s++)
		if (e->slot[s].out2[u] == v && !replaced[s])
			return s;
	return HN_NONE;
}

static void clear_src(const struct hn_slot_cfg *cfg, u32 i, u32 *src_of)
{
	u32 p;

	for (p = 0; p < cfg[i].npairs; p++)
		src_of[cfg[i].pairs[p].src] = HN_NONE;
}

/* @pr, for @slot, is already in slot @other (Table 5.1). */
static int dup(struct hn_err *err, u32 slot, u32 other, u32 p,
	       const struct hn_pair *pr)
{
	if (err) {
		err->a = *pr;
		err->other = other;
	}
	return hn_fail(err, -EEXIST, "connection already in another slot",
		       slot, pr->src, p);
}

static int preload_check(struct hn_engine *e, const struct hn_slot_cfg *cfg,
			 u32 n, u8 *replaced, u32 *src_of, u32 *dst_of,
			 bool second, struct hn_err *err)
{
	u32 i, j, p, s, u, v, N = e->cfg.nodes;

	for (i = 0; i < n; i++) {
		s = cfg[i].slot;
		if (s >= e->cfg.k)
			return hn_fail(err, -EINVAL, "slot out of range", s,
				       HN_NONE, i);
		if (replaced[s])
			return hn_fail(err, -EINVAL, "slot given twice", s,
				       HN_NONE, i);
		replaced[s] = 1;
		if (cfg[i].npairs > N)
			return hn_fail(err, -E2BIG, "more pairs than nodes", s,
				       HN_NONE, i);
		for (p = 0; p < cfg[i].npairs; p++) {
			u = cfg[i].pairs[p].src;
			v = cfg[i].pairs[p].dst;
			if (u >= N || v >= N)
				return hn_fail(err, -EINVAL,
					       "node out of range", s,
					       u >= N ? u : v, p);
			if (u == v)	/* see hn_predict() */
				return hn_fail(err, -EINVAL, HN_SELF_CIRCUIT,
					       s, u, p);
		}
	}
	/* each slot must be a partial permutation (Sec. 5.3.1) */
	for (i = 0; i < n; i++) {
		const struct hn_pair *pr = cfg[i].pairs;
		int rc = 0;

		for (p = 0; p < cfg[i].npairs && !rc; p++) {
			u = pr[p].src;
			v = pr[p].dst;
			j = src_of[u] != HN_NONE ? src_of[u] : dst_of[v];
			if (j != HN_NONE) {
				rc = hn_fail(err, -EINVAL,
					     src_of[u] != HN_NONE ?
					     "two circuits from one input" :
					     "two circuits to one output",
					     cfg[i].slot, HN_NONE, p);
				if (err) {
					err->a = pr[j];
					err->b = pr[p];
					err->pairs = true;
				}
			}
			src_of[u] = p;
			dst_of[v] = p;
		}
		for (p = 0; p < cfg[i].npairs; p++) {
			src_of[pr[p].src] = HN_NONE;
			dst_of[pr[p].dst] = HN_NONE;
		}
		if (rc)
			return rc;
	}
	/* and no connection may sit in two slots (Table 5.1) */
	for (i = 0; i < n; i++) {
		for (p = 0; p < cfg[i].npairs; p++) {
			u = cfg[i].pairs[p].src;
			v = cfg[i].pairs[p].dst;
			j = kept_slot(e, replaced, u, v, second);
			if (j != HN_NONE) {
				clear_src(cfg, i, src_of);
				return dup(err, cfg[i].slot, j, p, &cfg[i].pairs[p]);
			}
			src_of[u] = v;
		}
		for (j = i + 1; j < n; j++)
			for (p = 0; p < cfg[j].npairs; p++)
				if (src_of[cfg[j].pairs[p].src] ==
				    cfg[j].pairs[p].dst) {
					clear_src(cfg, i, src_of);
					return dup(err, cfg[j].slot,
						   cfg[i].slot, p,
						   &cfg[j].pairs[p]);
				}
		clear_src(cfg, i, src_of);
	}
	return 0;
}

/*
 * Switches feeding switches whose circuits take the topology's route (a
 * mesh, a torus, a GH): no channel carries two circuits of @cfg; a
 * refusal names the channel by the port that sends on it, and the pair
 * that holds it (@who: scratch of hn_topo_nchan() entries).
 */
static int paths_check(struct hn_engine *e, const struct hn_slot_cfg *cfg,
		       u32 *who, struct hn_err *err)
{
	const struct hn_pair *pr;
	u32 p, c;
	int n, k;

	if (cfg->ports)
		return hn_fail(err, -EINVAL,
			       "explicit paths are a fat tree's: a mesh's, a torus's and a GH's circuits take the topology's route",
			       cfg->slot, HN_NONE, HN_NONE);
	memset(who, 0xff, hn_topo_nchan(&e->topo) * sizeof(*who));
	for (p = 0; p < cfg->npairs; p++) {
		pr = &cfg->pairs[p];
		n = hn_circuit_chans(e, pr->src, pr->dst, NULL);
		for (k = 0; k < n; k++) {
			c = e->c_chan[k];
			if (who[c] == HN_NONE &&
			    !(e->dead_chan && hn_test_bit(e->dead_chan, c))) {
				who[c] = p;
				continue;
			}
			hn_fail(err, -EBUSY, who[c] == HN_NONE ?
				"path's link is down" :
				"path's link already taken", cfg->slot,
				pr->src, p);
			if (err) {
				err->a = *pr;
				err->link = true;
				err->chan = true;
				err->sw = e->c_hop[k].sw;
				err->port = e->c_hop[k].port;
				err->owner = who[c] == HN_NONE ?
					     (struct hn_pair){ HN_NONE, HN_NONE } :
					     cfg->pairs[who[c]];
			}
			return -EBUSY;
		}
	}
	return 0;
}

/*
 * Every configuration can be routed: on a fat tree each on a tree of its
 * own slot (ftroute.c), *@seed being where ft_sched's random numbers
 * start, so that routing them again gives the same paths; elsewhere on
 * the topology's route, link-disjoint.
 */
static int route_check(struct hn_engine *e, const struct hn_slot_cfg *cfg,
		       u32 n, struct hn_err *err)
{
	struct hn_route *r = NULL;
	u64 seed = e->ft_seed;
	u32 *who = NULL;
	int rc = 0;
	u32 i;

	if (!hn_paths(e))
		return 0;
	if (e->ft)
		r = hn_zalloc(e->cfg.nodes * sizeof(*r));
	else
		who = hn_zalloc(hn_topo_nchan(&e->topo) * sizeof(*who));
	if (!r && !who)
		return hn_fail(err, -ENOMEM, "no memory to route the preload",
			       HN_NONE, HN_NONE, HN_NONE);
	for (i = 0; i < n && !rc; i++)
		rc = r ? hn_ft_route_cfg(e, &cfg[i], r, err) :
			 paths_check(e, &cfg[i], who, err);
	hn_free(r);
	hn_free(who);
	e->ft_seed = seed;
	return rc;
}

/*
 * Check @n whole slot configurations for the working set, or with @second
 * for the second-level working set, as hn_preload() does; 0 or why not.
 */
int hn_preload_check(struct hn_engine *e, const struct hn_slot_cfg *cfg,
		     u32 n, bool second, struct hn_err *err)
{
	u8 replaced[HN_MAX_K + 1] = { 0 };

	if (n > e->cfg.k)
		return hn_fail(err, -EINVAL,
			       "more slot configurations than slots", HN_NONE,
			       HN_NONE, n);
	int rc = preload_check(e, cfg, n, replaced, e->scratch,
			       e->scratch + e->cfg.nodes, second, err);

	return rc ? rc : route_check(e, cfg, n, err);
}

/*
 * Slot @s takes the configuration @cfg: its circuits that @cfg lacks are
 * dropped, its new ones added, on a fat tree every one by the path of
 * @r (hn_ft_route_cfg()'s; NULL elsewhere: no choices to make).
 */
static void install(struct hn_engine *e, const struct hn_slot_cfg *cfg,
		    const struct hn_route *r, u32 *src_of)
{
	struct hn_slot *sl = &e->slot[cfg->slot];
	u32 p, k, u, v, s = cfg->slot;

	for (p = 0; p < cfg->npairs; p++)
		src_of[cfg->pairs[p].src] = cfg->pairs[p].dst;
	for (k = sl->nconn; k-- > 0;) {
		u = sl->conn[k];
		if (src_of[u] != sl->out[u])
			hn_circuit_drop(e, s, u);
	}
	if (r)
		hn_slot_unroute(e, s);
	for (p = 0; p < cfg->npairs; p++) {
		u = cfg->pairs[p].src;
		v = cfg->pairs[p].dst;
		src_of[u] = HN_NONE;
		if (sl->out[u] == v) {
			if (r)
				hn_slot_path(e, s, u, r[p].port);
			continue;
		}
		hn_slot_add(e, s, u, v, e->now, r ? r[p].port : NULL);
		hn_req_granted(e, s, u, v);
	}
}

/* Mode 3 (Sec. 3.3.3): install whole configurations, all or nothing. */
int hn_preload(struct hn_engine *e, const struct hn_slot_cfg *cfg, u32 n,
	       struct hn_err *err)
{
	u8 replaced[HN_MAX_K + 1] = { 0 };
	u32 *src_of = e->scratch, *dst_of = e->scratch + e->cfg.nodes;
	struct hn_route *r = NULL;
	struct hn_slot *sl;
	u32 i, p, u, k;
	int rc;

	if (n > e->cfg.k)
		return hn_fail(err, -EINVAL,
			       "more slot configurations than slots", HN_NONE,
			       HN_NONE, n);
	rc = preload_check(e, cfg, n, replaced, src_of, dst_of, false, err);
	if (!rc)
		rc = route_check(e, cfg, n, err);
	if (rc)
		return rc;
	for (i = 0; i < n && (e->cfg.policy & HN_POL_NO_W); i++) {
		sl = &e->slot[cfg[i].slot];
		for (p = 0; p < cfg[i].npairs; p++)
			src_of[cfg[i].pairs[p].src] = cfg[i].pairs[p].dst;
		for (k = 0; k < sl->nconn && !rc; k++) {
			u = sl->conn[k];
			if (src_of[u] != sl->out[u])
				rc = hn_circuit_busy(e, cfg[i].slot, u, err);
		}
		for (p = 0; p < cfg[i].npairs; p++)
			src_of[cfg[i].pairs[p].src] = HN_NONE;
		if (rc)
			return rc;
	}
	if (e->ft) {
		r = hn_zalloc(e->cfg.nodes * sizeof(*r));
		if (!r)
			return hn_fail(err, -ENOMEM,
				       "no memory to route the preload",
				       HN_NONE, HN_NONE, HN_NONE);
	}
	/* routed as route_check() did: the same paths, from the same seed */
	for (i = 0; i < n; i++) {
		if (r && hn_ft_route_cfg(e, &cfg[i], r, NULL))
			break;	/* cannot be: route_check() routed it */
		install(e, &cfg[i], r, src_of);
	}
	hn_free(r);
	e->g.preloads++;
	return 0;
}

/*
 * The module's preload=shift, one slot at a time: slot @s connects every
 * node u to u + s + 1 (mod N), a whole permutation.  hnsim's -s
 * preload=shift calls it for the same slots as the module.
 */
int hn_preload_shift(struct hn_engine *e, u32 s, struct hn_err *err)
{
	u32 n = e->cfg.nodes, u;
	struct hn_slot_cfg sc;
	struct hn_pair *pairs;
	int rc;

	pairs = hn_zalloc(n * sizeof(*pairs));
	if (!pairs)
		return hn_fail(err, -ENOMEM, "no memory for the preload",
			       HN_NONE, HN_NONE, n);
	for (u = 0; u < n; u++) {
		pairs[u].src = u;
		pairs[u].dst = (u + s + 1) % n;
	}
	sc.slot = s;
	sc.npairs = n;
	sc.pairs = pairs;
	sc.ports = NULL;
	rc = hn_preload(e, &sc, 1, err);
	hn_free(pairs);
	return rc;
}
