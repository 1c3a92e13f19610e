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

/*
 * The words on a wire with the control bit (bit 8) [W:818-824]: 1XX a
 * message's word (its first routes it), 0x000 drop (the message ends),
 * any other with the control bit low drop and reroute (the message ends
 * and its data begins a new one, the override of a higher priority).
 */
#define HN_MRP_CTL	0x100
#define HN_MRP_DROP	0x000

/*
 * One router's input: the @n words @in, each message routed to one of
 * the 4 output ports by the pair @at (0 first) of its first word, that
 * word swallowed if @swallow.  A message's words go to its port, in
 * out[port][0..len[port]-1] (at most @cap each); a drop goes with them
 * and ends the message; a drop and reroute ends the message where it is
 * (what went before is its stub, which gets nothing more: the text does
 * not say how a stub ends) and begins a new one, whose port gets its
 * first word with the control bit set [W:824].  After a drop the next
 * word with the control bit begins a message; a drop with none going is
 * nothing (the text gives the wire no idle word).  0, or -ENOSPC
 * (@cap), -EINVAL (@at past the word's pairs).
 */
int hn_mrp_stage(const struct hn_mrp_opts *o, u32 at, bool swallow,
		 const u16 *in, u32 n, u16 *const out[4], u32 cap,
		 u32 len[4]);

#endif
