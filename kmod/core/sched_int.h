/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sched_int.h - internals shared by the scheduler files: u64 bitmaps and the
 * fat tree's state.
 */
#ifndef HN_SCHED_INT_H
#define HN_SCHED_INT_H

#include "hn_sched.h"

#define HN_WORDS(n)	(((n) + 63) / 64)

#ifndef unlikely
#define unlikely(x)	__builtin_expect(!!(x), 0)
#endif
#ifndef likely
#define likely(x)	__builtin_expect(!!(x), 1)
#endif

/* 1 + index of the highest set bit, 0 for 0 */
static inline u32 hn_fls32(u32 x)
{
#ifdef __KERNEL__
	return fls(x);
#else
	return x ? 32 - (u32)__builtin_clz(x) : 0;
#endif
}

static inline u32 hn_popcount64(u64 x)
{
	x = x - ((x >> 1) & 0x5555555555555555ULL);
	x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
	x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
	return (u32)((x * 0x0101010101010101ULL) >> 56);
}

static inline bool hn_test_bit(const u64 *map, u32 i)
{
	return (map[i / 64] >> (i % 64)) & 1;
}

static inline void hn_set_bit(u64 *map, u32 i)
{
	map[i / 64] |= 1ULL << (i % 64);
}

static inline void hn_clear_bit(u64 *map, u32 i)
{
	map[i / 64] &= ~(1ULL << (i % 64));
}

/* the first set bit at or after from, HN_NONE when none */
static inline u32 hn_next_bit(const u64 *map, u32 words, u32 from)
{
	u32 i = from / 64;
	u64 m;

	if (i >= words)
		return HN_NONE;
	m = map[i] & (~0ULL << (from % 64));
	while (!m) {
		if (++i >= words)
			return HN_NONE;
		m = map[i];
	}
	return i * 64 + hn_ctz64(m);
}

/* the r-th (0-based) set bit of m; r < popcount(m) */
static inline u32 hn_nth_bit(u64 m, u32 r)
{
	while (r--)
		m &= m - 1;
	return hn_ctz64(m);
}

/* a scheduler's errors are about a node or a request, never a slot */
static inline int hn_sched_err(struct hn_err *err, int rc, const char *msg,
			       u32 node, u32 index)
{
	return hn_fail(err, rc, msg, HN_NONE, node, index);
}

struct hn_ft {
	u32 l;			/* levels 0..l-1 */
	u32 w;			/* ports up and down per switch */
	u32 n;			/* nodes, w^l */
	u32 nsw;		/* switches per level, w^(l-1) */
	u32 shift;		/* log2(w) when w is a power of two, else 0 */
	u64 full;		/* the w low bits */
	u32 pw[HN_FT_MAX_LEVELS + 1];	/* w^i */
	u8 hlev[33];		/* power-of-two w: H by hn_fls32(s ^ d) */
	u64 *up;		/* [(h * nsw + tau)]: Ulink(h, tau), 1 = free */
	u64 *down;		/* Dlink(h, tau) */
	/* scratch for the schedulers and the checker */
	u32 *cur_s;		/* sigma_h per request */
	u32 *cur_d;		/* delta_h per request */
	u64 *seen;		/* validation and link-use bitmaps */
	u32 nseen;		/* its words */
	u32 *src_col;		/* optimal: [tau * w + c] = request */
	u32 *dst_col;
	u64 *free_s;		/* optimal: colours free per switch */
	u64 *free_d;
	u32 *chain;		/* optimal: an alternating path */
};

/*
 * Theorem 3 (Sec. 7.3, eqs. 7.1-7.5, Sec. 7.3; paper Sec. 3): keep the digits above
 * h, drop digit h, shift digits h-1..0 up one place, put p in digit 0:
 * parent = (tau div w^(h+1)) w^(h+1) + ((tau mod w^(h+1)) w + p) mod w^(h+1)
 * (note section 6 A10).
 */
static inline u32 hn_ft_up(const struct hn_ft *ft, u32 h, u32 tau, u32 p)
{
	u32 m = ft->pw[h + 1];

	if (ft->shift)
		return (tau & ~(m - 1)) | (((tau << ft->shift) | p) & (m - 1));
	return tau - tau % m + (tau % m * ft->w + p) % m;
}

/*
 * The inverse of Theorem 3: the children of SW(h, pi), h >= 1, all reach
 * it through up-port (pi mod w) and differ only in digit h-1, the digit
 * the parent formula drops; down-port d leads to the child whose digit
 * h-1 is d.
 */
static inline u32 hn_ft_down(const struct hn_ft *ft, u32 h, u32 pi, u32 d)
{
	u32 m = ft->pw[h];

	return pi - pi % m + d * ft->pw[h - 1] + pi % m / ft->w;
}

/* the leaf switch of a node: node div w */
static inline u32 hn_ft_leafsw(const struct hn_ft *ft, u32 node)
{
	return ft->shift ? node >> ft->shift : node / ft->w;
}

/* H = 1 + the highest digit where sigma and delta differ; 0 if equal. */
static inline u32 hn_ft_h(const struct hn_ft *ft, u32 s, u32 d)
{
	u32 h = 0;

	if (ft->shift)
		return ft->hlev[hn_fls32(s ^ d)];
	while (s != d) {
		s /= ft->w;
		d /= ft->w;
		h++;
	}
	return h;
}

#endif /* HN_SCHED_INT_H */
