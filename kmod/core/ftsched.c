// SPDX-License-Identifier: GPL-2.0
/*
 * ftsched.c - circuit schedulers for the fat tree FT(l, w): level-wise
 * (Ch. 7, Sec. 7.4; the SC2006
 * paper, Sec. 4), the local baselines, and an
 * optimal scheduler that routes every permutation.
 *
 * All of them rest on Theorem 4 (Sec. 7.3, paper Sec. 3): a route that climbs through
 * up-ports P_0..P_{H-1} must come down through the same port numbers,
 * Dlink(h, delta_h, P_h) with delta_{h+1} = parent(h, delta_h, P_h).  A
 * request is thus only its source and destination leaf switches and its
 * ports (Fig. 7.5, Sec. 7.4).
 */
#include "sched_int.h"

static inline u64 *ulink(struct hn_ft *ft, u32 h, u32 tau)
{
	return &ft->up[h * ft->nsw + tau];
}

static inline u64 *dlink(struct hn_ft *ft, u32 h, u32 tau)
{
	return &ft->down[h * ft->nsw + tau];
}

/* Give back the links of levels < upto (both directions) of route r. */
static void release(struct hn_ft *ft, const struct hn_route *r, u32 upto)
{
	u32 s = hn_ft_leafsw(ft, r->src), d = hn_ft_leafsw(ft, r->dst), h, p;

	for (h = 0; h < upto; h++) {
		p = r->port[h];
		*ulink(ft, h, s) |= 1ULL << p;
		*dlink(ft, h, d) |= 1ULL << p;
		s = hn_ft_up(ft, h, s, p);
		d = hn_ft_up(ft, h, d, p);
	}
}

/* Give back the up-links of levels < upto of route r. */
static void release_up(struct hn_ft *ft, const struct hn_route *r, u32 upto)
{
	u32 s = hn_ft_leafsw(ft, r->src), h;

	for (h = 0; h < upto; h++) {
		*ulink(ft, h, s) |= 1ULL << r->port[h];
		s = hn_ft_up(ft, h, s, r->port[h]);
	}
}

/*
 * A request set must be a partial permutation of the tree's nodes: check
 * request i against the nodes seen so far, and mark its nodes.
 */
static inline int check_one(struct hn_ft *ft, const struct hn_pair *req,
			    u32 i, struct hn_err *err)
{
	u32 s = req[i].src, d = req[i].dst;
	u64 *seen = ft->seen;
	int rc;

	if (likely(s < ft->n && d < ft->n && !hn_test_bit(seen, s) &&
		   !hn_test_bit(seen, ft->n + d))) {
		hn_set_bit(seen, s);
		hn_set_bit(seen, ft->n + d);
		return 0;
	}
	if (s >= ft->n || d >= ft->n)
		rc = hn_sched_err(err, -EINVAL,
				  "request names a node past the tree",
				  s >= ft->n ? s : d, i);
	else if (hn_test_bit(seen, s))
		rc = hn_sched_err(err, -EINVAL,
				  "node is the source of two requests", s, i);
	else
		rc = hn_sched_err(err, -EINVAL,
				  "node is the destination of two requests", d,
				  i);
	if (err) {
		err->a = req[i];
		err->b = req[i];
	}
	return rc;
}

/* the checks of the whole set; with all, also every request's nodes */
static int check_requests(struct hn_ft *ft, const struct hn_pair *req,
			  u32 nreq, bool all, struct hn_err *err)
{
	u32 i;
	int rc;

	if (nreq && !req)
		return hn_sched_err(err, -EINVAL, "no request array", HN_NONE,
				    HN_NONE);
	if (nreq > ft->n)
		return hn_sched_err(err, -EINVAL,
				    "more requests than nodes in the tree",
				    HN_NONE, nreq);
	memset(ft->seen, 0, HN_WORDS(2 * ft->n) * sizeof(u64));
	for (i = 0; all && i < nreq; i++) {
		rc = check_one(ft, req, i, err);
		if (rc)
			return rc;
	}
	return 0;
}

/* set up request i's outcome; returns its level H */
static inline u32 init_route(struct hn_ft *ft, struct hn_route *r,
			     const struct hn_pair *q, u32 *sp, u32 *dp)
{
	r->src = q->src;
	r->dst = q->dst;
	r->granted = 0;
	r->fail = HN_FT_NOFAIL;
	r->nports = 0;
	memset(r->port, 0, sizeof(r->port));
	*sp = hn_ft_leafsw(ft, q->src);
	*dp = hn_ft_leafsw(ft, q->dst);
	r->level = hn_ft_h(ft, *sp, *dp);
	return r->level;
}

/*
 * Level-wise (Fig. 7.6, Sec. 7.4; paper Sec. 4).  At level h of a request
 * from sigma_h to delta_h: "A port number is selected only when both the
 * port on the upward port and the port on the downward port are available"
 * (Sec. 7.4, paper Sec. 4): avail = Ulink(h, sigma_h) AND Dlink(h, delta_h) (Sec. 7.4,
 * paper Sec. 4); "we select the first available port" (Sec. 7.4); then sigma_{h+1}
 * and delta_{h+1} by Theorem 3 (lines 8, Sec. 7.4).  A request whose avail is
 * all zeros fails (Sec. 7.4); "a failure routing in one level will destroy
 * all previous routing for this request" (Sec. 7.5), and its links go back
 * unless the caller keeps them (note A6).
 *
 * Order.  Level-major is the prose of Sec. 7.4: "Once level h has been
 * scheduled, a new set of sources for level h + 1 are created from the set
 * of scheduled sources at level h"; request-major is the hardware pipeline
 * (paper Sec. 6).  The links of different levels are disjoint, so what request i
 * meets at level h is, in both orders, the level-h links reserved by the
 * requests before it that reached level h.  A failed request's links
 * below h are given back only after every request has finished those
 * levels in level-major order, so they help nobody there.  Hence
 * level-major = request-major with keep-on-fail, then (unless keeping)
 * give back the failed requests' links; that is how it runs here, in one
 * pass (test_fattree.c checks it against a literal level-major pass).
 */
/*
 * Route one request from leaf switches s and d through its H levels,
 * first free port both ways at each level; returns the levels routed.
 * The tree's fields come in as locals (the kernel builds without strict
 * aliasing, so the stores below would make it reload them).
 */
static inline u32 lw_route(u64 *upl, u64 *dnl, u32 nsw, u32 w, u32 shift,
			   const u32 *pw, u8 *port, u32 H, u32 s, u32 d)
{
	u32 h, p, m, base = 0;
	u64 a, *up, *down;

	for (h = 0; h < H; h++, base += nsw) {
		up = upl + base + s;
		down = dnl + base + d;
		a = *up & *down;
		if (unlikely(!a))
			break;
		a &= -a;
		p = hn_ctz64(a);
		*up &= ~a;
		*down &= ~a;
		port[h] = p;
		m = pw[h + 1];
		if (shift) {	/* Theorem 3 with shifts */
			s = (s & ~(m - 1)) | (((s << shift) | p) & (m - 1));
			d = (d & ~(m - 1)) | (((d << shift) | p) & (m - 1));
		} else {
			s = s - s % m + (s % m * w + p) % m;
			d = d - d % m + (d % m * w + p) % m;
		}
	}
	return h;
}

static int levelwise(struct hn_ft *ft, u32 flags, const struct hn_pair *req,
		     u32 nreq, struct hn_route *out, struct hn_sched_result *res,
		     struct hn_err *err)
{
	bool now = (flags & HN_SCHED_REQUEST_MAJOR) &&
		   !(flags & HN_SCHED_KEEP_ON_FAIL);
	bool later = !(flags & HN_SCHED_REQUEST_MAJOR) &&
		     !(flags & HN_SCHED_KEEP_ON_FAIL);
	u32 i, h, H, s, d, failed = 0, local = 0;
	u64 *upl = ft->up, *dnl = ft->down;
	u32 nsw = ft->nsw, w = ft->w, shift = ft->shift;
	u32 pw[HN_FT_MAX_LEVELS + 1];
	int rc;

	memcpy(pw, ft->pw, sizeof(pw));
	for (i = 0; i < nreq; i++) {
		struct hn_route *r = &out[i];

		/*
		 * The set is checked as it goes, to save a pass; a bad request
		 * undoes the earlier ones exactly: a route only ever reserved
		 * links that were free, and giving back links twice is
		 * harmless since every route before it is given back too.
		 */
		rc = check_one(ft, req, i, err);
		if (unlikely(rc)) {
			while (i--)
				release(ft, &out[i], out[i].nports);
			return rc;
		}
		H = init_route(ft, r, &req[i], &s, &d);
		if (shift)
			h = lw_route(upl, dnl, nsw, w, shift, pw, r->port, H,
				     s, d);
		else
			h = lw_route(upl, dnl, nsw, w, 0, pw, r->port, H, s, d);
		r->nports = h;
		if (likely(h == H)) {
			r->granted = 1;
			local += !H;
			continue;
		}
		r->fail = h;
		ft->chain[failed++] = i;
		if (now)
			release(ft, r, h);
	}
	if (res) {
		res->requests += nreq;
		res->granted += nreq - failed;
		res->local += local;
	}
	for (i = 0; later && i < failed; i++)
		release(ft, &out[ft->chain[i]], out[ft->chain[i]].fail);
	return 0;
}

/*
 * The local baselines (note section 2.5, A13): "each switch selects a
 * routing path randomly from the available local ports" (Sec. 7.1, paper Sec. 1).  A
 * request climbs with local information only, the lowest free up-port
 * (greedy) or a uniformly random one, and meets conflicts "until they are
 * routed back to level 0" (Sec. 7.4): on the way down its path is forced
 * (Theorem 4) and it fails at the first busy down-link.
 */
static void local(struct hn_ft *ft, u32 flags, u64 *seed, u32 nreq,
		  struct hn_route *out)
{
	u32 dsw[HN_FT_MAX_LEVELS];
	u32 i, h, s, d, p, top;
	u64 a;

	for (i = 0; i < nreq; i++) {
		struct hn_route *r = &out[i];

		s = hn_ft_leafsw(ft, r->src);
		d = hn_ft_leafsw(ft, r->dst);
		for (h = 0; h < r->level; h++) {
			a = *ulink(ft, h, s);
			if (!a)
				break;
			if (seed) {
				p = hn_popcount64(a);
				p = hn_nth_bit(a, hn_rand_below(seed, p));
			} else {
				p = hn_ctz64(a);
			}
			*ulink(ft, h, s) &= ~(1ULL << p);
			r->port[h] = p;
			r->nports = h + 1;
			s = hn_ft_up(ft, h, s, p);
			dsw[h] = d;
			d = hn_ft_up(ft, h, d, p);
		}
		if (h < r->level) {		/* no free up-port */
			r->fail = h;
			if (!(flags & HN_SCHED_KEEP_ON_FAIL))
				release_up(ft, r, h);
			continue;
		}
		for (h = r->level; h-- > 0;) {
			p = r->port[h];
			if (!((*dlink(ft, h, dsw[h]) >> p) & 1))
				break;
			*dlink(ft, h, dsw[h]) &= ~(1ULL << p);
		}
		if (h == HN_NONE)
			continue;
		r->fail = h;
		if (flags & HN_SCHED_KEEP_ON_FAIL)
			continue;
		for (top = h + 1; top < r->level; top++)
			*dlink(ft, top, dsw[top]) |= 1ULL << r->port[top];
		release_up(ft, r, r->level);
	}
}

/*
 * The optimal scheduler.  At level h every switch has w links up and each
 * route still climbing came up through a different one of its w links
 * below, so a switch is the sigma_h of at most w routes and the delta_h of
 * at most w.  Choosing P_h is then colouring the edges of the bipartite
 * multigraph sigma_h -> delta_h with w colours so that no switch sees a
 * colour twice on either side: Koenig's theorem says w colours suffice
 * (Benes/Clos looping, generalised).  Each edge takes a colour free at both
 * ends, or else the a/b alternating path from delta_h is recoloured b/a
 * first.  Level by level, every request of a partial permutation is routed.
 */
static int colour_level(struct hn_ft *ft, u32 h, u32 nreq,
			struct hn_route *out)
{
	u32 w = ft->w, i, e, c, a, b, u, v, len, k, col;
	bool dst_side;

	for (i = 0; i < ft->nsw; i++) {
		ft->free_s[i] = ft->full;
		ft->free_d[i] = ft->full;
	}
	for (i = 0; i < nreq; i++) {
		if (out[i].level <= h)
			continue;
		u = ft->cur_s[i];
		v = ft->cur_d[i];
		if (!ft->free_s[u] || !ft->free_d[v])
			return -EIO;	/* degree above w: not a permutation */
		if (ft->free_s[u] & ft->free_d[v]) {
			c = hn_ctz64(ft->free_s[u] & ft->free_d[v]);
		} else {
			a = hn_ctz64(ft->free_s[u]);	/* busy at v */
			b = hn_ctz64(ft->free_d[v]);	/* busy at u */
			len = 0;
			dst_side = true;
			k = v;
			col = a;
			for (;;) {
				if (dst_side) {
					if ((ft->free_d[k] >> col) & 1)
						break;
					e = ft->dst_col[k * w + col];
					k = ft->cur_s[e];
				} else {
					if ((ft->free_s[k] >> col) & 1)
						break;
					e = ft->src_col[k * w + col];
					k = ft->cur_d[e];
				}
				ft->chain[len++] = e;
				dst_side = !dst_side;
				col = col == a ? b : a;
			}
			for (k = 0; k < len; k++) {
				e = ft->chain[k];
				col = out[e].port[h];
				ft->free_s[ft->cur_s[e]] |= 1ULL << col;
				ft->free_d[ft->cur_d[e]] |= 1ULL << col;
			}
			for (k = 0; k < len; k++) {
				e = ft->chain[k];
				col = out[e].port[h] == a ? b : a;
				out[e].port[h] = col;
				ft->free_s[ft->cur_s[e]] &= ~(1ULL << col);
				ft->free_d[ft->cur_d[e]] &= ~(1ULL << col);
				ft->src_col[ft->cur_s[e] * w + col] = e;
				ft->dst_col[ft->cur_d[e] * w + col] = e;
			}
			c = a;
		}
		out[i].port[h] = c;
		out[i].nports = h + 1;
		ft->free_s[u] &= ~(1ULL << c);
		ft->free_d[v] &= ~(1ULL << c);
		ft->src_col[u * w + c] = i;
		ft->dst_col[v * w + c] = i;
	}
	for (i = 0; i < nreq; i++) {
		if (out[i].level <= h)
			continue;
		c = out[i].port[h];
		u = ft->cur_s[i];
		v = ft->cur_d[i];
		*ulink(ft, h, u) &= ~(1ULL << c);
		*dlink(ft, h, v) &= ~(1ULL << c);
		ft->cur_s[i] = hn_ft_up(ft, h, u, c);
		ft->cur_d[i] = hn_ft_up(ft, h, v, c);
	}
	return 0;
}

static int rearrange(struct hn_ft *ft, u32 nreq, struct hn_route *out,
		     struct hn_err *err)
{
	u32 h, i, nlinks = (ft->l - 1) * ft->nsw;

	for (i = 0; i < nlinks; i++)
		if (ft->up[i] != ft->full || ft->down[i] != ft->full)
			return hn_sched_err(err, -EBUSY,
					    "routing every permutation needs every link free",
					    HN_NONE, i % ft->nsw);
	for (h = 0; h + 1 < ft->l; h++)
		if (colour_level(ft, h, nreq, out))
			return hn_sched_err(err, -EIO,
					    "a switch has more than w routes at one level",
					    HN_NONE, h);
	return 0;
}

int hn_ft_schedule(struct hn_ft *ft, u32 algo, u32 flags, u64 *seed,
		   const struct hn_pair *req, u32 nreq, struct hn_route *out,
		   struct hn_sched_result *res, struct hn_err *err)
{
	u32 i;
	int rc;

	if (algo != HN_SCHED_LEVELWISE && algo != HN_SCHED_LOCAL_GREEDY &&
	    algo != HN_SCHED_LOCAL_RANDOM && algo != HN_SCHED_OPTIMAL)
		return hn_sched_err(err, -EINVAL,
				    "not a fat-tree scheduler (levelwise, local-greedy, local-random, optimal)",
				    HN_NONE, algo);
	if (flags & ~HN_SCHED_ALL_FLAGS)
		return hn_sched_err(err, -EINVAL, "unknown scheduler flags",
				    HN_NONE, flags);
	if (algo == HN_SCHED_LOCAL_RANDOM && !seed)
		return hn_sched_err(err, -EINVAL,
				    "local-random needs a random seed", HN_NONE,
				    HN_NONE);
	if (nreq && !out)
		return hn_sched_err(err, -EINVAL, "no result array", HN_NONE,
				    HN_NONE);
	rc = check_requests(ft, req, nreq, algo != HN_SCHED_LEVELWISE, err);
	if (rc)
		return rc;
	if (algo != HN_SCHED_LEVELWISE)
		for (i = 0; i < nreq; i++)
			init_route(ft, &out[i], &req[i], &ft->cur_s[i],
				   &ft->cur_d[i]);
	switch (algo) {
	case HN_SCHED_LEVELWISE:
		return levelwise(ft, flags, req, nreq, out, res, err);
	case HN_SCHED_LOCAL_GREEDY:
		local(ft, flags, NULL, nreq, out);
		break;
	case HN_SCHED_LOCAL_RANDOM:
		local(ft, flags, seed, nreq, out);
		break;
	default:
		rc = rearrange(ft, nreq, out, err);
		if (rc)
			return rc;
	}
	if (algo != HN_SCHED_LEVELWISE)
		for (i = 0; i < nreq; i++)
			out[i].granted = out[i].fail == HN_FT_NOFAIL;
	if (res) {
		res->requests += nreq;
		for (i = 0; i < nreq; i++) {
			res->granted += out[i].granted;
			res->local += out[i].granted && !out[i].level;
		}
	}
	return 0;
}
