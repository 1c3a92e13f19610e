// SPDX-License-Identifier: GPL-2.0
/*
 * fattree.c - the fat tree FT(l, w) of Ch. 7 (seeds/000_fa1c7d81da297c92.txt
 * T1390-T1478; seeds/003_6d20c53b4657ec0e.txt P54-P104): construction,
 * switch naming, the parent formula of Theorem 3, the common-ancestor level,
 * the link state vectors Ulink/Dlink, and the legality check of a schedule.
 *
 * FT(l, w) has w^l nodes and l levels of w^(l-1) switches SW(h, tau); tau
 * is written t_{l-2}..t_0 in base w (T1392).  Node n hangs on down-port
 * n mod w of leaf SW(0, n div w) (T1526: node 95 is on switch 23 = 113_4).
 * Up-port p of SW(h, tau), h < l - 1, is linked to SW(h+1, parent(h,tau,p));
 * that link is Ulink(h, tau, p) going up and Dlink(h, tau, p) going down
 * (T1407).  Between two levels there are w^l links, each used once per
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

u32 hn_ft_levels(const struct hn_ft *ft)
{
	return ft->l;
}

u32 hn_ft_width(const struct hn_ft *ft)
{
	return ft->w;
}

u32 hn_ft_nodes(const struct hn_ft *ft)
{
	return ft->n;
}

u32 hn_ft_switches(const struct hn_ft *ft)
{
	return ft->nsw;
}

u32 hn_ft_leaf(const struct hn_ft *ft, u32 node)
{
	return node < ft->n ? node / ft->w : HN_NONE;
}

/* t_i = (tau div w^i) mod w; T1394 omits the mod (note A10) */
u32 hn_ft_digit(const struct hn_ft *ft, u32 tau, u32 i)
{
	if (tau >= ft->nsw || i + 1 >= ft->l)
		return HN_NONE;
	return tau / ft->pw[i] % ft->w;
}

static const char hn_digit_chars[] = "0123456789abcdefghijklmnopqrstuvwxyz";

/*
 * "SW(h,t_{l-2}..t_0)": one character per digit while w <= 36 (T1526
 * writes switch 23 of FT(4,4) as 113), else two decimal digits per digit
 * separated by dots.  Returns the length, or -ENOSPC / -EINVAL.
 */
int hn_ft_name(const struct hn_ft *ft, u32 h, u32 tau, char *buf, u32 len)
{
	char tmp[8 + 10 + 3 * HN_FT_MAX_LEVELS];
	u32 n = 0, i, d;

	if (h >= ft->l || tau >= ft->nsw || !buf)
		return -EINVAL;
	tmp[n++] = 'S';
	tmp[n++] = 'W';
	tmp[n++] = '(';
	if (h >= 10)
		tmp[n++] = '0' + h / 10;
	tmp[n++] = '0' + h % 10;
	tmp[n++] = ',';
	if (ft->l == 1)
		tmp[n++] = '0';
	for (i = ft->l - 1; i-- > 0;) {
		d = tau / ft->pw[i] % ft->w;
		if (ft->w <= 36) {
			tmp[n++] = hn_digit_chars[d];
			continue;
		}
		tmp[n++] = '0' + d / 10;
		tmp[n++] = '0' + d % 10;
		if (i)
			tmp[n++] = '.';
	}
	tmp[n++] = ')';
	if (n + 1 > len)
		return -ENOSPC;
	memcpy(buf, tmp, n);
	buf[n] = 0;
	return n;
}

u32 hn_ft_parent(const struct hn_ft *ft, u32 h, u32 tau, u32 p)
{
	if (h + 1 >= ft->l || tau >= ft->nsw || p >= ft->w)
		return HN_NONE;
	return hn_ft_up(ft, h, tau, p);
}

/*
 * The inverse of Theorem 3: the children of SW(h, pi) all reach it through
 * up-port (pi mod w) and differ only in digit h-1, the digit the parent
 * formula drops; down-port d leads to the child whose digit h-1 is d.
 */
u32 hn_ft_child(const struct hn_ft *ft, u32 h, u32 tau, u32 d)
{
	u32 m;

	if (h < 1 || h >= ft->l || tau >= ft->nsw || d >= ft->w)
		return HN_NONE;
	m = ft->pw[h];
	return tau - tau % m + d * ft->pw[h - 1] + tau % m / ft->w;
}

/* eqs. 7.10-7.13 (T1463-T1471): the route turns at the first level where
 * the digits above agree; H = 1 + the highest digit where they differ.
 */
u32 hn_ft_common_level(const struct hn_ft *ft, u32 sigma, u32 delta)
{
	if (sigma >= ft->nsw || delta >= ft->nsw)
		return HN_NONE;
	return hn_ft_h(ft, sigma, delta);
}

void hn_ft_clear(struct hn_ft *ft)
{
	u32 i, nlinks = (ft->l - 1) * ft->nsw;

	for (i = 0; i < nlinks; i++) {
		ft->up[i] = ft->full;
		ft->down[i] = ft->full;
	}
}

u64 hn_ft_links(const struct hn_ft *ft, u32 dir, u32 h, u32 tau)
{
	if (h + 1 >= ft->l || tau >= ft->nsw || dir > HN_FT_DOWN)
		return 0;
	return (dir == HN_FT_UP ? ft->up : ft->down)[h * ft->nsw + tau];
}

int hn_ft_set_link(struct hn_ft *ft, u32 dir, u32 h, u32 tau, u32 port,
		   bool free, struct hn_err *err)
{
	u64 *v;

	if (dir > HN_FT_DOWN)
		return hn_sched_err(err, -EINVAL,
				    "link direction must be up or down",
				    HN_NONE, dir);
	if (h + 1 >= ft->l)
		return hn_sched_err(err, -EINVAL,
				    "no up-links at the top level or above",
				    HN_NONE, h);
	if (tau >= ft->nsw)
		return hn_sched_err(err, -EINVAL, "no such switch", HN_NONE,
				    tau);
	if (port >= ft->w)
		return hn_sched_err(err, -EINVAL, "no such port", HN_NONE,
				    port);
	v = (dir == HN_FT_UP ? ft->up : ft->down) + h * ft->nsw + tau;
	if (free)
		*v |= 1ULL << port;
	else
		*v &= ~(1ULL << port);
	return 0;
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
