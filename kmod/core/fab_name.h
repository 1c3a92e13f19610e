/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fab_name.h - the names of a fabric's switches, their ports and its
 * links: the one spelling of the kernel's refusals, hnctl's tables and
 * JSON, and the docs (docs/names.md).
 *
 *   swL.I        the switch of level L (0: the nodes' own) and index I in
 *                its level, 0..switches/levels-1 (Ch. 7's SW(L, I), I in
 *                decimal); a crossbar is the one switch sw0.0
 *   swL.I/upP    its up-port P, 0..W-1, towards level L+1
 *   swL.I/downP  its down-port P, 0..W-1, towards level L-1, or at level 0
 *                to node I*W+P (a crossbar's down-ports are its nodes')
 *   nodeU        node U
 *   LINK/cJ      channel J of link LINK (nodeU, or a port of a switch:
 *                swL.I/upP, or swL.I/downP, as a mesh's, a torus's or a
 *                GH's links are named), 0..dilation-1: a dilated link's
 *                physical link (switching drop)
 *
 * A link is named by its lower end, the sender of its up channel: nodeU
 * is node U's link to its switch, swL.I/upP the link up from that port.
 * One printer and one parser, here, serve the module and the tools.
 */
#ifndef HN_FAB_NAME_H
#define HN_FAB_NAME_H

#include "hn_core.h"

/* what a name names */
enum hn_fab_kind {
	HN_FAB_SWITCH,
	HN_FAB_UP,		/* an up-port, and the link up from it */
	HN_FAB_DOWN,		/* a down-port */
	HN_FAB_NODE,		/* a node, and its link */
};

struct hn_fab_name {
	u32 kind;		/* enum hn_fab_kind */
	u32 level, index;	/* the switch's (not a node's) */
	u32 port;		/* the port, of its kind; or the node */
};

#define HN_FAB_NAME_LEN	40	/* the longest name, NUL included */

/* @n as text in @buf of @len bytes, NUL-ended; returns @buf */
char *hn_fab_print(const struct hn_fab_name *n, char *buf, u32 len);

/*
 * A link's channels down alone, @bits (bit J: channel J), as hnctl links'
 * and hnsim --links' column prints them: "0,2", or "-" for none; in @buf
 * of HN_FAB_CHANS_LEN bytes; returns @buf
 */
#define HN_FAB_CHANS_LEN	16
char *hn_fab_chans_print(u8 bits, char *buf);

/* the text @s as *@n: 0, or -EINVAL for none of the forms above */
int hn_fab_scan(const char *s, struct hn_fab_name *n);

/*
 * The text @s as channel *@chan of the link *@n names, "LINK/cJ" (a
 * dilated link's channel J, 0..dilation-1): 0, or -EINVAL
 */
int hn_fab_scan_chan(const char *s, struct hn_fab_name *n, u32 *chan);

/*
 * Between a name and the numbers of the fabric @fi (hn_fabric_info(),
 * the numbers netlink carries): switch @sw, 0..switches-1 level by
 * level, and its port @port, 0..radix-1 with the down-ports first; node
 * @port when @sw is HN_NONE; switch @sw itself when @port is HN_NONE.
 * -EINVAL when the fabric has no such switch, port or node.
 */
int hn_fab_of(const struct hn_fabric_info *fi, u32 sw, u32 port,
	      struct hn_fab_name *n);
int hn_fab_numbers(const struct hn_fabric_info *fi,
		   const struct hn_fab_name *n, u32 *sw, u32 *port);

#endif /* HN_FAB_NAME_H */
