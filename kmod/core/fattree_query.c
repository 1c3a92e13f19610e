// SPDX-License-Identifier: GPL-2.0
/*
 * fattree_query.c - what the tests and tools ask of a fat tree FT(l, w)
 * (see fattree.c): its size, switch naming SW(h, t_{l-2}..t_0) (Sec. 7.2),
 * the parent formula of Theorem 3 (Sec. 7.3) and its inverse, the
 * common-ancestor level (eqs. 7.10-7.13), and reading or setting one
 * link of the state vectors Ulink/Dlink.
 *
 * The schedulers use the inline forms in sched_int.h, so, like check.c
 * and introspect.c, this file is in the user-space library but not in
 * hybridnet.ko (kmod/Kbuild leaves it out).
 */
#include "sched_int.h"

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

/* t_i = (tau div w^i) mod w; Sec. 7.2 omits the mod (note A10) */
u32 hn_ft_digit(const struct hn_ft *ft, u32 tau, u32 i)
{
	if (tau >= ft->nsw || i + 1 >= ft->l)
		return HN_NONE;
	return tau / ft->pw[i] % ft->w;
}

static const char hn_digit_chars[] = "0123456789abcdefghijklmnopqrstuvwxyz";

/*
 * "SW(h,t_{l-2}..t_0)": one character per digit while w <= 36 (Sec. 7.4
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

/* the inverse of Theorem 3 (hn_ft_down()) */
u32 hn_ft_child(const struct hn_ft *ft, u32 h, u32 tau, u32 d)
{
	if (h < 1 || h >= ft->l || tau >= ft->nsw || d >= ft->w)
		return HN_NONE;
	return hn_ft_down(ft, h, tau, d);
}

/* eqs. 7.10-7.13 (Sec. 7.3): the route turns at the first level where
 * the digits above agree; H = 1 + the highest digit where they differ.
 */
u32 hn_ft_common_level(const struct hn_ft *ft, u32 sigma, u32 delta)
{
	if (sigma >= ft->nsw || delta >= ft->nsw)
		return HN_NONE;
	return hn_ft_h(ft, sigma, delta);
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
