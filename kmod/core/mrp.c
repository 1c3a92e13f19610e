// SPDX-License-Identifier: GPL-2.0
/*
 * mrp.c - Woods-Corwin's MRP source routes on a radix-4 fat tree
 * ([W:382, W:534, W:568, W:581-585]; docs/model.md "MRP route words").
 *
 * Each router reads one pair of bits.  Climbing, the router at level l
 * reads the pair for l: 1X goes up (X picks one of the equivalent
 * up-links, chosen at random by the source), 0X goes across into the down
 * tree.  The source climbs (highest bit where src and dst differ) / 2
 * levels.  Down, the router at level l reads the destination's pair at
 * bits 2l+1:2l: the down words are the destination, right-justified.  A
 * word holds P pairs (4 in 8 bits; 2 with a priority in its low 4 bits)
 * and is swallowed once used: up, after the levels P-1 mod P, and at the
 * crossing (the rest of its word is padding); down, after the levels 0
 * mod P.  So a route has at least two words.
 */
#include "mrp.h"

static u32 pairs_per_word(const struct hn_mrp_opts *o)
{
	return o->prio ? 2 : 4;
}

/* @pairs (P of them, the first highest) as a word */
static u8 word(const struct hn_mrp_opts *o, u32 pairs)
{
	return o->prio ? (u8)(pairs << 4 | o->prio_val) : (u8)pairs;
}

int hn_mrp_encode(const struct hn_mrp_opts *o, u32 src, u32 dst, u8 *out,
		  u32 cap)
{
	u32 P = pairs_per_word(o), up = 0, l, k, n = 0, w = 0, at = 0;
	u32 diff = src ^ dst, bits = 2 * o->levels;

	if (!o->levels || o->levels > HN_MRP_MAX_LEVELS || o->across > 1 ||
	    o->pad > 3 || o->prio_val > 15 || !diff ||
	    (bits < 32 && (src >> bits || dst >> bits)))
		return -EINVAL;
	while (diff >>= 1)
		up++;
	up /= 2;			/* the levels it climbs */
	/* up: a pair per level, the across pair, padding to the word's end */
	for (l = 0; l <= up; l++) {
		w = w << 2 | (l < up ? 2 | (o->xbits >> l & 1) : o->across);
		if (++at < P && l < up)
			continue;
		while (at++ < P)
			w = w << 2 | o->pad;
		if (n == cap)
			return -ENOSPC;
		out[n++] = word(o, w);
		w = 0;
		at = 0;
	}
	/* down: the destination's words from the one holding level up */
	for (k = up / P + 1; k-- > 0;) {
		if (n == cap)
			return -ENOSPC;
		out[n++] = word(o, dst >> (2 * P * k) & ((1u << 2 * P) - 1));
	}
	return n;
}

/* the pair at @at (0 first) of @w */
static u32 pair(const struct hn_mrp_opts *o, u8 w, u32 at)
{
	u32 P = pairs_per_word(o);

	if (o->prio)
		w >>= 4;
	return w >> 2 * (P - 1 - at) & 3;
}

int hn_mrp_walk(const struct hn_mrp_opts *o, const u8 *msg, u32 len,
		struct hn_mrp_hop *hop, u32 max, u32 *payload)
{
	u32 P = pairs_per_word(o), pos = 0, at = 0, l = 0, n = 0, p;
	struct hn_mrp_hop h;
	bool down = false;

	if (!o->levels || o->levels > HN_MRP_MAX_LEVELS)
		return -EINVAL;
	for (;;) {
		if (pos >= len)
			return -EINVAL;	/* the route ran out */
		p = pair(o, msg[pos], at);
		h.level = (u8)l;
		if (down) {
			h.dir = HN_MRP_DOWN;
			h.port = (u8)p;
			h.swallow = !(l % P);
		} else if (p & 2) {
			if (l + 1 >= o->levels)
				return -EINVAL;	/* up past the top */
			h.dir = HN_MRP_UP;
			h.port = p & 1;
			h.swallow = l % P == P - 1;
		} else {
			h.dir = HN_MRP_ACROSS;
			h.port = p & 1;
			h.swallow = 1;
		}
		if (n < max)
			hop[n] = h;
		n++;
		at = h.swallow ? 0 : at + 1;
		pos += h.swallow;
		if (h.dir == HN_MRP_ACROSS) {
			down = true;	/* the down router of this level next */
			at = P - 1 - l % P;
		} else if (h.dir == HN_MRP_UP) {
			l++;
		} else if (!l--) {
			break;
		}
	}
	*payload = pos;
	return n;
}

/* a router's 4 ports, and none: no message going */
enum { NO_PORT = 4 };

int hn_mrp_stage(const struct hn_mrp_opts *o, u32 at, bool swallow,
		 const u16 *in, u32 n, u16 *const out[4], u32 cap,
		 u32 len[4])
{
	u32 i, p = NO_PORT;	/* the port of the message going */
	u16 w;

	if (at >= pairs_per_word(o))
		return -EINVAL;
	memset(len, 0, 4 * sizeof(*len));
	for (i = 0; i < n; i++) {
		w = in[i];
		if (!(w & HN_MRP_CTL)) {	/* drop, or drop and reroute */
			if (p != NO_PORT && w == HN_MRP_DROP) {
				if (len[p] == cap)
					return -ENOSPC;
				out[p][len[p]++] = w;
			}
			p = NO_PORT;
			if (w == HN_MRP_DROP)
				continue;
			w |= HN_MRP_CTL;	/* a new message's first word */
		}
		if (p == NO_PORT) {		/* a first word routes it */
			p = pair(o, (u8)w, at);
			if (swallow)
				continue;
		}
		if (len[p] == cap)
			return -ENOSPC;
		out[p][len[p]++] = w;
	}
	return 0;
}
