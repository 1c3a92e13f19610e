/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mrp.h - Woods-Corwin's METRO (MRP) source routes on a radix-4 fat tree
 * (docs/model.md "MRP route words"): the route a source writes before a
 * message's data, two bits a router, in words that routers swallow.
 */
#ifndef HN_MRP_H
#define HN_MRP_H

#include "compat.h"

#define HN_MRP_MAX_LEVELS	16	/* 4^16 nodes: the node ids are u32 */

enum { HN_MRP_UP, HN_MRP_ACROSS, HN_MRP_DOWN };

struct hn_mrp_opts {
	u32 levels;	/* the tree's levels, 1..16: 4^levels nodes */
	u32 xbits;	/* bit l: the X of the up pair at level l */
	u8 across;	/* the across pair's X, 0 or 1 */
	u8 pad;		/* the pair that fills the crossing's word, 0..3 */
	bool prio;	/* each word's low 4 bits a priority, 2 pairs a word */
	u8 prio_val;	/* that priority, 0..15 */
};

/* A router the route crosses: its level, what it does, the port it takes */
struct hn_mrp_hop {
	u8 level;
	u8 dir;		/* HN_MRP_UP, _ACROSS or _DOWN */
	u8 port;	/* up, across: X; down: the destination's pair there */
	u8 swallow;	/* it swallowed the word it read */
};

/*
 * The route words from @src to @dst (< 4^levels, different), into @out:
 * how many bytes, or -EINVAL (bad options or nodes), -ENOSPC (@cap).
 */
int hn_mrp_encode(const struct hn_mrp_opts *o, u32 src, u32 dst, u8 *out,
		  u32 cap);

/*
 * The routers a message of @len bytes beginning with route words crosses,
 * each swallowing words as it goes: how many hops (at most @max into
 * @hop), and in *@payload where its data begins; -EINVAL if the words are
 * no route (up past the top, or shorter than their route).
 */
int hn_mrp_walk(const struct hn_mrp_opts *o, const u8 *msg, u32 len,
		struct hn_mrp_hop *hop, u32 max, u32 *payload);

#endif
