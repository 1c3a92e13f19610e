// SPDX-License-Identifier: GPL-2.0
/*
 * predict.c - mode 2 of predictive circuit switching (Sec. 3.3.2): place
 * predicted requests in the slots 0..K-1, by one of two algorithms
 * (enum hn_predict_algo), both taking the requests in the rotating
 * priority order of Sec. 5.3.2.
 *
 * First fit (HN_PREDICT_FIRST_FIT): each request in turn goes to the first
 * slot, from 0 to K-1 (Secs. 3.4.2, 4.2.2), whose input and output are both free.
 *
 * K-step (HN_PREDICT_KSTEP): slot by slot, the requests still pending
 * whose input and output are both free in that slot are matched greedily
 * and the matching is grown by augmenting paths of at most K edges (Ch. 6,
 * Ch. 6, Sec. 6.5.3; kmod/core/xbar.c); the
 * matched pairs are granted in that slot.  Existing circuits are never
 * moved: only free ports take part, so an augmenting path re-pairs only
 * requests of this call.  With K = 9 the matching is about 99 % of the
 * maximum (Sec. 6.5.3); first fit is the K = 1 greedy of one request at a time.
 *
 * Either way a connection already in B* is not placed again (Table 5.1,
 * Sec. 5.3.2), a request that fits no slot is refused, slots below pin_slots are
 * the preload's (Fig. 5.6, Sec. 5.5.2), and a stream of Dynamic TDM waiting for
 * a circuit granted here is told so (hn_req_granted()).
 */
#include "engine.h"
#include "hn_sched.h"

#define HN_PENDING	0xff		/* out[].result while not decided */

/* Rotated row-major order of request @r (Sec. 5.3.2): key for the sort. */
static u64 req_key(const struct hn_engine *e, const struct hn_pair *r)
{
	u32 N = e->cfg.nodes;
	u32 s = r->src >= e->rot_a ? r->src - e->rot_a : r->src + N - e->rot_a;
	u32 d = r->dst >= e->rot_b ? r->dst - e->rot_b : r->dst + N - e->rot_b;

	return (u64)s * N + d;
}

/*
 * Sort the requests' indices @idx (0..@n-1 on entry) into the priority
 * order: key, then submission order.  Each request is the word key << 32
 * | index (a key is below N^2 <= 2^32), sorted a byte of the key a pass,
 * stably (least significant byte first), so equal keys keep their
 * indices' order; as many passes as N^2 - 1 has bytes.  @w has room for
 * 2 @n words and @cnt for 256 counts.
 */
static void sort_requests(const struct hn_engine *e,
			  const struct hn_pair *req, u32 *idx, u32 n, u64 *w,
			  u32 *cnt)
{
	u64 top = (u64)e->cfg.nodes * e->cfg.nodes - 1, *a = w, *b = w + n, *x;
	u32 i, sh, sum, t;

	for (i = 0; i < n; i++)
		a[i] = req_key(e, &req[i]) << 32 | i;
	for (sh = 32; sh < 64 && top >> (sh - 32); sh += 8) {
		memset(cnt, 0, 256 * sizeof(*cnt));
		for (i = 0; i < n; i++)
			cnt[(a[i] >> sh) & 255]++;
		for (sum = 0, i = 0; i < 256; i++) {
			t = cnt[i];
			cnt[i] = sum;
			sum += t;
		}
		for (i = 0; i < n; i++)
			b[cnt[(a[i] >> sh) & 255]++] = a[i];
		x = a;
		a = b;
		b = x;
	}
	for (i = 0; i < n; i++)
		idx[i] = (u32)a[i];
}

/*
 * Grant @g, still pending, slot @s (on a fat tree by the path @port); the
 * first grant moves the priority.
 */
static void grant(struct hn_engine *e, struct hn_grant *g, u32 s, u64 from,
		  struct hn_pair *first, const u8 *port)
{
	hn_slot_add(e, s, g->src, g->dst, from, port);
	hn_req_granted(e, s, g->src, g->dst);
	g->slot = s;
	g->result = HN_GRANTED;
	e->g.grants++;
	if (first->src == HN_NONE) {
		first->src = g->src;
		first->dst = g->dst;
	}
}

/* Are u and v, and the links between, free in slot @s? */
static bool fits(const struct hn_engine *e, u32 s, u32 u, u32 v)
{
	return e->slot[s].out[u] == HN_NONE && e->slot[s].in[v] == HN_NONE &&
	       hn_slot_fits(e, s, u, v);
}

/* The first slot of [lo, hi) where u -> v fits, else HN_NONE. */
static u32 first_free(const struct hn_engine *e, u32 lo, u32 hi, u32 u,
		      u32 v)
{
	u32 s;

	for (s = lo; s < hi; s++)
		if (fits(e, s, u, v))
			return s;
	return HN_NONE;
}

/*
 * Decide every request still pending, in priority order: a connection
 * already realised (before or by an equal request) exists; the others go
 * first fit when @fit, else (what K-step could not place) are refused.
 */
static void place_first_fit(struct hn_engine *e, const u32 *idx, u32 n,
			    struct hn_grant *out, u32 lo, u32 hi, u64 from,
			    struct hn_pair *first, bool fit)
{
	struct hn_grant *g;
	u32 i, s;

	for (i = 0; i < n; i++) {
		g = &out[idx[i]];
		if (g->result != HN_PENDING)
			continue;
		g->slot = hn_pcs_slot(e, g->src, g->dst);
		if (g->slot != HN_NONE) {
			g->result = HN_EXISTS;
			e->g.exists++;
			continue;
		}
		s = fit ? first_free(e, lo, hi, g->src, g->dst) : HN_NONE;
		if (s != HN_NONE) {
			grant(e, g, s, from, first, NULL);
		} else {
			g->result = HN_REFUSED;
			e->g.refusals++;
		}
	}
}

/* K-step, slot by slot; what it cannot place stays pending. */
static int place_kstep(struct hn_engine *e, const u32 *idx, u32 n,
		       struct hn_grant *out, u32 lo, u32 hi, u64 from,
		       struct hn_pair *first, struct hn_err *err)
{
	const struct hn_config *c = &e->cfg;
	struct hn_pair *pairs;
	struct hn_grant *g;
	u32 i, m, s, u, v;
	int rc = 0;

	if (!e->xbar) {
		rc = hn_xbar_create(c->nodes, &e->xbar, err);
		if (rc)
			return rc;
	}
	pairs = hn_zalloc((n ? n : 1) * sizeof(*pairs));
	if (!pairs)
		return -ENOMEM;
	for (s = lo; s < hi && !rc; s++) {
		for (i = 0, m = 0; i < n; i++) {
			g = &out[idx[i]];
			u = g->src;
			v = g->dst;
			if (g->result != HN_PENDING)
				continue;
			/* already realised, before or by a twin (Table 5.1) */
			g->slot = hn_pcs_slot(e, u, v);
			if (g->slot != HN_NONE) {
				g->result = HN_EXISTS;
				e->g.exists++;
				continue;
			}
			if (e->slot[s].out[u] != HN_NONE ||
			    e->slot[s].in[v] != HN_NONE)
				continue;
			/* equal requests are adjacent in priority order */
			if (m && pairs[m - 1].src == u && pairs[m - 1].dst == v)
				continue;
			pairs[m].src = u;
			pairs[m++].dst = v;
		}
		if (!m)
			continue;
		hn_xbar_clear_match(e->xbar);
		rc = hn_xbar_set_requests(e->xbar, pairs, m, err);
		if (rc)
			break;
		hn_xbar_greedy(e->xbar);
		hn_xbar_kstep(e->xbar, c->predict_kstep, 0, NULL, NULL);
		for (i = 0; i < n; i++) {
			g = &out[idx[i]];
			u = g->src;
			v = g->dst;
			if (g->result != HN_PENDING ||
			    hn_xbar_mate(e->xbar, u) != v)
				continue;
			if (e->slot[s].out[u] == v) {	/* its twin got it */
				g->slot = s;
				g->result = HN_EXISTS;
				e->g.exists++;
				continue;
			}
			/* across switches, the matching knows no links */
			if (fits(e, s, u, v))
				grant(e, g, s, from, first, NULL);
		}
	}
	hn_free(pairs);
	return rc;
}

/*
 * Is @g still to place, and not yet realised (Table 5.1)?  A connection
 * already in B*, before or by a twin, exists.
 */
static bool pending(struct hn_engine *e, struct hn_grant *g)
{
	if (g->result != HN_PENDING)
		return false;
	g->slot = hn_pcs_slot(e, g->src, g->dst);
	if (g->slot == HN_NONE)
		return true;
	g->result = HN_EXISTS;
	e->g.exists++;
	return false;
}

/* Scratch of place_tree(): N + n pairs and routes, n request indices. */
struct tree_scratch {
	struct hn_pair *pairs;
	struct hn_route *r;
	u32 *bi;
};

/*
 * A fat tree (Ch. 7), slot by slot: the requests still pending whose nodes
 * are free in the slot are routed through its free links by ft_sched
 * (ftroute.c).  First fit routes them one at a time in priority order,
 * each on what the ones before it left, which is each request going to
 * the first slot where it is routed; otherwise the first request of each
 * source and of each destination are routed together, as Ch. 7's
 * schedulers take a request set.  What no slot routes stays pending.
 */
static int place_tree(struct hn_engine *e, const u32 *idx, u32 n,
		      struct hn_grant *out, u32 lo, u32 hi, u64 from,
		      struct hn_pair *first, struct tree_scratch *t,
		      struct hn_err *err)
{
	u32 *src_of = e->scratch, *dst_of = e->scratch + e->cfg.nodes;
	bool one = e->cfg.predict_algo == HN_PREDICT_FIRST_FIT;
	struct hn_pair *pairs = t->pairs;
	struct hn_route *r = t->r;
	struct hn_grant *g;
	u32 i, m, s;
	int rc = 0;

	for (s = lo; s < hi && !rc; s++) {
		for (i = 0, m = 0; i < n && !rc; i++) {
			g = &out[idx[i]];
			if (!pending(e, g) || e->slot[s].out[g->src] != HN_NONE ||
			    e->slot[s].in[g->dst] != HN_NONE ||
			    src_of[g->src] != HN_NONE ||
			    dst_of[g->dst] != HN_NONE)
				continue;
			pairs[m].src = g->src;
			pairs[m].dst = g->dst;
			if (one) {
				rc = hn_ft_route_new(e, s, pairs, 1, r, err);
				if (!rc && r->granted)
					grant(e, g, s, from, first, r->port);
				continue;
			}
			src_of[g->src] = g->dst;
			dst_of[g->dst] = g->src;
			t->bi[m++] = idx[i];
		}
		for (i = 0; i < m; i++) {
			src_of[pairs[i].src] = HN_NONE;
			dst_of[pairs[i].dst] = HN_NONE;
		}
		if (!m || rc)
			continue;
		rc = hn_ft_route_new(e, s, pairs, m, r, err);
		for (i = 0; i < m && !rc; i++)
			if (r[i].granted)
				grant(e, &out[t->bi[i]], s, from, first,
				      r[i].port);
	}
	return rc;
}

/* place_tree() with its scratch */
static int place_ft(struct hn_engine *e, const u32 *idx, u32 n,
		    struct hn_grant *out, u32 lo, u32 hi, u64 from,
		    struct hn_pair *first, struct hn_err *err)
{
	u32 N = e->cfg.nodes;
	struct tree_scratch t;
	int rc = -ENOMEM;

	t.pairs = hn_zalloc((N + n) * sizeof(*t.pairs));
	t.r = hn_zalloc((N + n) * sizeof(*t.r));
	t.bi = hn_zalloc(n * sizeof(*t.bi));
	if (t.pairs && t.r && t.bi)
		rc = place_tree(e, idx, n, out, lo, hi, from, first, &t, err);
	hn_free(t.pairs);
	hn_free(t.r);
	hn_free(t.bi);
	return rc;
}

/*
 * Place @n requests in the slots [lo, hi), usable from @from; out[i] is
 * req[i]'s outcome.  Equal keys of the priority order keep their order:
 * the index breaks ties.  hn_predict() places over every slot that is not
 * pinned; Dynamic TDM's scheduling array (dynamic.c) over one slot per SL
 * clock.
 */
int hn_place(struct hn_engine *e, const struct hn_pair *req, u32 n,
	     struct hn_grant *out, u32 lo, u32 hi, u64 from,
	     struct hn_err *err)
{
	const struct hn_config *c = &e->cfg;
	struct hn_pair first = { HN_NONE, HN_NONE };
	u32 i, *idx;
	u64 *w;
	int rc = 0;

	if (n > HN_MAX_REQ)
		return hn_fail(err, -E2BIG, "too many requests", HN_NONE,
			       HN_NONE, n);
	for (i = 0; i < n; i++)
		if (req[i].src >= c->nodes || req[i].dst >= c->nodes)
			return hn_fail(err, -EINVAL, "node out of range",
				       HN_NONE, req[i].src >= c->nodes ?
				       req[i].src : req[i].dst, i);
	if (!n)
		return 0;
	w = hn_zalloc(n * (2 * sizeof(*w) + sizeof(*idx)) +
		      256 * sizeof(*idx));
	if (!w)
		return -ENOMEM;
	idx = (u32 *)(w + 2 * n);	/* and 256 counts after the n indices */
	for (i = 0; i < n; i++) {
		out[i].src = req[i].src;
		out[i].dst = req[i].dst;
		out[i].slot = HN_NONE;
		out[i].result = HN_PENDING;
	}
	/*
	 * Sec. 5.2.3: a request for a connection of the second-level working
	 * set says the conditional is true: swap that set in (second.c), then
	 * place what is still missing first fit.
	 */
	if (c->predict_algo == HN_PREDICT_SECOND_LEVEL &&
	    hn_second_hit(e, req, n))
		hn_swap_second(e, NULL);
	sort_requests(e, req, idx, n, w, idx + n);
	if (e->ft)
		rc = place_ft(e, idx, n, out, lo, hi, from, &first, err);
	else if (c->predict_algo == HN_PREDICT_KSTEP)
		rc = place_kstep(e, idx, n, out, lo, hi, from, &first, err);
	if (!rc)
		place_first_fit(e, idx, n, out, lo, hi, from, &first,
				!e->ft && c->predict_algo != HN_PREDICT_KSTEP);
	hn_free(w);
	if (rc)
		return rc;
	/*
	 * Round robin (Sec. 5.3.2): the priority pointers move one past the first
	 * request granted, as iSLIP's do, so contenders alternate; one step
	 * on when nothing was granted.
	 */
	if (first.src == HN_NONE) {
		first.src = e->rot_a;
		first.dst = e->rot_b;
	}
	e->rot_a = (first.src + 1) % c->nodes;
	e->rot_b = (first.dst + 1) % c->nodes;
	return 0;
}

/*
 * Place @n requests over the slots that are not pinned.  A granted
 * circuit is usable once the request, the scheduler and the grant have
 * crossed: wire + sched + wire + setup (Ch. 5: 80 + 80 + 80 ns, Sec. 5.5.2).
 */
int hn_place_all(struct hn_engine *e, const struct hn_pair *req, u32 n,
		 struct hn_grant *out, struct hn_err *err)
{
	const struct hn_config *c = &e->cfg;

	return hn_place(e, req, n, out, c->pin_slots, c->k,
			e->now + 2ULL * c->wire_ns + c->sched_ns + c->setup_ns,
			err);
}

/*
 * Predicted requests (mode 2): placed as hn_place_all() does, once none
 * asks for a circuit from a node to itself.  A node's messages to itself
 * are not network traffic (the patterns never make them, pattern.c), and
 * such a circuit would take the node's input and output in its slot from
 * every real one.  Dynamic TDM places its streams' requests itself.
 */
int hn_predict(struct hn_engine *e, const struct hn_pair *req, u32 n,
	       struct hn_grant *out, struct hn_err *err)
{
	u32 i;

	for (i = 0; i < n && n <= HN_MAX_REQ; i++)
		if (req[i].src == req[i].dst && req[i].src < e->cfg.nodes)
			return hn_fail(err, -EINVAL, HN_SELF_CIRCUIT, HN_NONE,
				       req[i].src, i);
	return hn_place_all(e, req, n, out, err);
}
