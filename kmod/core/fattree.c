// SPDX-License-Identifier: GPL-2.0
/*
 * fattree.c - the fat tree FT(l, w) of Ch. 7 (Secs. 7.2, 7.3; paper
 * Secs. 2, 3): construction,
 * the link state vectors Ulink/Dlink, and the legality check of a schedule.
 * Switch naming, Theorem 3's parent formula and the common-ancestor level,
 * as the tests and tools ask for them, are in fattree_query.c.
 *
 * FT(l, w) has w^l nodes and l levels of w^(l-1) switches SW(h, tau); tau
 * is written t_{l-2}..t_0 in base w (Sec. 7.2).  Node n hangs on down-port
 * n mod w of leaf SW(0, n div w) (Sec. 7.4: node 95 is on switch 23 = 113_4).
 * Up-port p of SW(h, tau), h < l - 1, is linked to SW(h+1, parent(h,tau,p));
 * that link is Ulink(h, tau, p) going up and Dlink(h, tau, p) going down
 * (Sec. 7.3).  Between two levels there are w^l links, each used once per
 * direction by at most one circuit.
 */
#include "sched_int.h"

void hn_ft_destroy(struct hn_ft *ft)
{
	if (!ft)
		return;
	hn_free(ft->up);
	hn_free(ft->down);
	hn_free(ft->cur_s);
	hn_free(ft->cur_d);
	hn_free(ft->seen);
	hn_free(ft->src_col);
	hn_free(ft->dst_col);
	hn_free(ft->free_s);
	hn_free(ft->free_d);
	hn_free(ft->chain);
	hn_free(ft);
}

int hn_ft_create(u32 levels, u32 width, struct hn_ft **ftp,
		 struct hn_err *err)
{
	struct hn_ft *ft;
	u32 i, n = 1, nlinks;

	if (!ftp)
		return hn_sched_err(err, -EINVAL, "no result pointer", HN_NONE,
				    HN_NONE);
	*ftp = NULL;
	if (width < 2)
		return hn_sched_err(err, -EINVAL,
				    "fat tree width w must be at least 2",
				    HN_NONE, width);
	if (width > HN_FT_MAX_W)
		return hn_sched_err(err, -EINVAL,
				    "fat tree width w must be at most 64",
				    HN_NONE, width);
	if (levels < 1)
		return hn_sched_err(err, -EINVAL,
				    "fat tree needs at least one level",
				    HN_NONE, levels);
	for (i = 0; i < levels; i++) {
		if (i >= HN_FT_MAX_LEVELS || n > HN_FT_MAX_NODES / width)
			return hn_sched_err(err, -EINVAL,
					    "fat tree too large: w^l must be at most 65536",
					    HN_NONE, levels);
		n *= width;
	}
	ft = hn_zalloc(sizeof(*ft));
	if (!ft)
		return hn_sched_err(err, -ENOMEM, "out of memory", HN_NONE,
				    HN_NONE);
	ft->l = levels;
	ft->w = width;
	ft->n = n;
	ft->nsw = n / width;
	ft->full = width == 64 ? ~0ULL : (1ULL << width) - 1;
	if (!(width & (width - 1)))
		ft->shift = hn_ctz64(width);
	for (i = 1; ft->shift && i <= 32; i++)
		ft->hlev[i] = (i - 1) / ft->shift + 1;
	ft->pw[0] = 1;
	for (i = 1; i <= levels; i++)
		ft->pw[i] = ft->pw[i - 1] * width;
	nlinks = (levels - 1) * ft->nsw;
	ft->nseen = HN_WORDS(2 * (levels - 1) * n + 2 * n);
	ft->up = hn_zalloc((nlinks ? nlinks : 1) * sizeof(u64));
	ft->down = hn_zalloc((nlinks ? nlinks : 1) * sizeof(u64));
	ft->cur_s = hn_zalloc(n * sizeof(u32));
	ft->cur_d = hn_zalloc(n * sizeof(u32));
	ft->seen = hn_zalloc(ft->nseen * sizeof(u64));
	ft->src_col = hn_zalloc(n * sizeof(u32));
	ft->dst_col = hn_zalloc(n * sizeof(u32));
	ft->free_s = hn_zalloc(ft->nsw * sizeof(u64));
	ft->free_d = hn_zalloc(ft->nsw * sizeof(u64));
	ft->chain = hn_zalloc(n * sizeof(u32));
	if (!ft->up || !ft->down || !ft->cur_s || !ft->cur_d || !ft->seen ||
	    !ft->src_col || !ft->dst_col || !ft->free_s || !ft->free_d ||
	    !ft->chain) {
		hn_ft_destroy(ft);
		return hn_sched_err(err, -ENOMEM, "out of memory", HN_NONE,
				    HN_NONE);
	}
	hn_ft_clear(ft);
	*ftp = ft;
	return 0;
}

void hn_ft_clear(struct hn_ft *ft)
{
	u32 i, nlinks = (ft->l - 1) * ft->nsw;

	for (i = 0; i < nlinks; i++) {
		ft->up[i] = ft->full;
		ft->down[i] = ft->full;
	}
}

/* bit layout of ft->seen for the checker */
static u32 seen_up(const struct hn_ft *ft, u32 h, u32 tau, u32 p)
{
	return (h * ft->nsw + tau) * ft->w + p;
}

static u32 seen_down(const struct hn_ft *ft, u32 h, u32 tau, u32 p)
{
	return (ft->l - 1) * ft->n + seen_up(ft, h, tau, p);
}

static int route_err(struct hn_err *err, const char *msg,
		     const struct hn_route *r, u32 i, const struct hn_route *o)
{
	hn_sched_err(err, -EIO, msg, r->src, i);
	if (err) {
		err->a.src = r->src;
		err->a.dst = r->dst;
		err->b = err->a;
		if (o) {
			err->b.src = o->src;
			err->b.dst = o->dst;
		}
	}
	return -EIO;
}

int hn_ft_check(struct hn_ft *ft, const struct hn_route *r, u32 n, bool exact,
		struct hn_err *err)
{
	u32 base = 2 * (ft->l - 1) * ft->n, i, h, s, d, p, tau;
	u64 *seen = ft->seen;

	if (n && !r)
		return hn_sched_err(err, -EINVAL, "no route array", HN_NONE,
				    HN_NONE);
	memset(seen, 0, ft->nseen * sizeof(u64));
	for (i = 0; i < n; i++) {
		if (!r[i].granted)
			continue;
		if (r[i].src >= ft->n || r[i].dst >= ft->n)
			return route_err(err, "route names a node past the tree",
					 &r[i], i, NULL);
		if (hn_test_bit(seen, base + r[i].src))
			return route_err(err, "node is the source of two routes",
					 &r[i], i, NULL);
		if (hn_test_bit(seen, base + ft->n + r[i].dst))
			return route_err(err,
					 "node is the destination of two routes",
					 &r[i], i, NULL);
		hn_set_bit(seen, base + r[i].src);
		hn_set_bit(seen, base + ft->n + r[i].dst);
		s = hn_ft_leafsw(ft, r[i].src);
		d = hn_ft_leafsw(ft, r[i].dst);
		if (r[i].level != hn_ft_h(ft, s, d) || r[i].nports < r[i].level)
			return route_err(err, "route has the wrong level",
					 &r[i], i, NULL);
		for (h = 0; h < r[i].level; h++) {
			p = r[i].port[h];
			if (p >= ft->w)
				return route_err(err, "route names no such port",
						 &r[i], i, NULL);
			if (hn_test_bit(seen, seen_up(ft, h, s, p)))
				return route_err(err, "up-link used twice",
						 &r[i], i, NULL);
			if (hn_test_bit(seen, seen_down(ft, h, d, p)))
				return route_err(err, "down-link used twice",
						 &r[i], i, NULL);
			if ((ft->up[h * ft->nsw + s] >> p) & 1 ||
			    (ft->down[h * ft->nsw + d] >> p) & 1)
				return route_err(err,
						 "link state shows a routed link free",
						 &r[i], i, NULL);
			hn_set_bit(seen, seen_up(ft, h, s, p));
			hn_set_bit(seen, seen_down(ft, h, d, p));
			s = hn_ft_up(ft, h, s, p);
			d = hn_ft_up(ft, h, d, p);
		}
		if (s != d)
			return route_err(err,
					 "route does not meet at its top switch",
					 &r[i], i, NULL);
	}
	if (!exact)
		return 0;
	for (h = 0; h + 1 < ft->l; h++)
		for (tau = 0; tau < ft->nsw; tau++)
			for (p = 0; p < ft->w; p++) {
				bool bu = !((ft->up[h * ft->nsw + tau] >> p) & 1);
				bool bd = !((ft->down[h * ft->nsw + tau] >> p) & 1);

				if (bu != hn_test_bit(seen, seen_up(ft, h, tau, p)) ||
				    bd != hn_test_bit(seen, seen_down(ft, h, tau, p)))
					return hn_sched_err(err, -EIO,
							    "a link is busy that no route uses",
							    HN_NONE, tau);
			}
	return 0;
}
