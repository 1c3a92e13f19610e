/* SPDX-License-Identifier: GPL-2.0 */
/*
 * topo.h - the fabric as a topology: switches with numbered ports, links
 * joining two switch ports or a switch port and a node's NIC, each link
 * with its latency and rate, and a routing function (docs/model.md,
 * "Topologies").
 *
 * One file per topology fills struct hn_topo_ops: topo_xbar.c (Ding's
 * single crossbar, Chs. 3-5), topo_ft.c (the fat tree FT(l, w) of Ch. 7),
 * topo_cube.c (Duato's k-ary n-cube, mesh and torus) and topo_gh.c
 * (Zydallis's generalized hypercube).  topo.c
 * holds what every topology shares: the choice among a header's allowed
 * output ports (deterministic, random, adaptive, explicit) and the walk
 * of a route from node to node.  None of these files calls the engine.
 *
 * Conventions every topology keeps:
 * - switches are 0..nsw-1, each with ports 0..radix-1 (a port may be
 *   unconnected);
 * - links are 0..nlinks-1, and link u < nodes is node u's link to the
 *   fabric, so a NIC's link needs no lookup;
 * - a route is deterministic given the choices made at the hops where
 *   ops->alts offers more than one port;
 * - the two channels of a link between switches differ in ops->rank, and
 *   when hn_topo.acyclic says so every route's channels have strictly
 *   increasing ops->rank: the channel dependency graph is then acyclic
 *   and wormhole routing deadlock-free (Dally and Seitz's condition;
 *   Duato's Sec. 2.3.4 notes, duato.md Sec. 5.2).  A topology that
 *   cannot promise it (the torus) says so, and the deadlock detectors
 *   of switch.c and flit.c watch its runs; with ops->vc_class it splits
 *   flit.c's virtual channels into classes whose channels do rise (the
 *   dateline: Dally and Seitz's torus, Duato's Sec. 4.2).
 */
#ifndef HN_TOPO_H
#define HN_TOPO_H

#include "hn_sched.h"		/* enum hn_topology: the kinds */

/* One end of a link: port @port of switch @sw, or node @port (sw NODE). */
struct hn_tport {
	u32 sw, port;
};

#define HN_TOPO_NODE	0xfffffffeu	/* hn_tport.sw: the end is a node */
#define HN_SW_MAX_RADIX	128		/* a multistage switch's ports, at most */
#define HN_TOPO_MAX_ALTS 64		/* ports offered at one hop, at most */

/* How a header picks among the ports ops->alts allows (topo.c). */
enum hn_upsel {
	HN_UPSEL_DET = 0,	/* ops->route: by destination digits */
	HN_UPSEL_RANDOM = 1,	/* uniform (Woods-Corwin's random up-link) */
	HN_UPSEL_ADAPTIVE = 2,	/* least occupied, ties to ops->route's */
	HN_UPSEL_EXPLICIT = 3,	/* the caller's: index i at the i-th choice */
};

struct hn_topo;
struct hn_topo_fault;

struct hn_topo_ops {
	const char *name;
	/* the deterministic output port at switch @sw towards node @dst */
	u32 (*route)(const struct hn_topo *t, u32 sw, u32 dst);
	/*
	 * Every output port a header at @sw may take towards @dst, in
	 * increasing order, at most @max of them into @port; returns how
	 * many there are (>= 1).  NULL: only ops->route's.
	 */
	u32 (*alts)(const struct hn_topo *t, u32 sw, u32 dst, u32 *port,
		    u32 max);
	/* the far end of the link on (@sw, @port); sw HN_NONE: unconnected */
	struct hn_tport (*peer)(const struct hn_topo *t, u32 sw, u32 port);
	/* where node @u's link enters the fabric */
	struct hn_tport (*attach)(const struct hn_topo *t, u32 u);
	/* the link on (@sw, @port), HN_NONE when unconnected */
	u32 (*link)(const struct hn_topo *t, u32 sw, u32 port);
	/*
	 * Under faults (topo_fault.c): the ports by which a header at @sw
	 * towards @dst that came in by port @in (HN_NONE: not known, not
	 * by a detour) may go around a dead link when none of ops->alts'
	 * (or ops->route's) leads on, in increasing order, at most @max
	 * into @port; how many.  The switch a detour port leads to goes on
	 * by its own ops->alts or ops->route ports, with ranks climbing on
	 * from the detour's, and offers a header that came in by a detour
	 * none: a detour is two hops.  NULL: none.
	 */
	u32 (*detour)(const struct hn_topo *t, u32 sw, u32 dst, u32 in,
		      u32 *port, u32 max);
	/*
	 * The rank of the channel leaving @sw by @port; a node's channel
	 * into the fabric has rank 0.  Every route climbs strictly.
	 */
	u32 (*rank)(const struct hn_topo *t, u32 sw, u32 port);
	/*
	 * The virtual-channel class, 0 or 1, of the channel leaving @sw by
	 * @out for a header that came in by @in holding a channel of class
	 * @cls (a node's, class 0): a torus's dateline.  NULL: one class,
	 * the ranks rising along every route being enough.
	 */
	u32 (*vc_class)(const struct hn_topo *t, u32 sw, u32 in, u32 out,
			u32 cls);
	/*
	 * The number, below nchan, of the channel leaving @sw by @port for
	 * another switch: what a circuit holds in its slot (slot.c).  NULL:
	 * hn_topo_chan()'s, the link's number, plus nlinks when the channel
	 * leaves the link's higher-numbered switch.
	 */
	u32 (*chan)(const struct hn_topo *t, u32 sw, u32 port);
	void (*fini)(struct hn_topo *t);
};

struct hn_topo {
	const struct hn_topo_ops *ops;
	u32 kind;			/* enum hn_topology */
	u32 nodes;
	u32 nsw;			/* switches */
	u32 radix;			/* ports per switch */
	u32 nlinks;			/* bidirectional: two channels each */
	u32 max_hops;			/* switches on the longest route */
	u32 levels, width;		/* a fat tree's; else 1, the radix */
	bool acyclic;			/* ranks rise along every route */
	/*
	 * Circuits: the choices among ops->alts' ports a circuit's path
	 * makes, at most (0: it takes ops->route's path), and the channels
	 * ops->chan numbers (0: 2 nlinks).
	 */
	u32 npick, nchan;
	u32 link_mbps;			/* every link's rate, Mb/s */
	u64 link_ns;			/* every link's latency, one way */
	void *priv;			/* the topology's own state */
	struct hn_topo_fault *fault;	/* links, switches down; or NULL */
};

/* topo_xbar.c */
void hn_topo_xbar(struct hn_topo *t, u32 nodes, u64 link_ns, u32 link_mbps);
/* topo_ft.c: FT(@levels, @width); errors as hn_ft_create()'s */
int hn_topo_ft(struct hn_topo *t, u32 levels, u32 width, u64 link_ns,
	       u32 link_mbps, struct hn_err *err);
/* topo_cube.c: the k-ary n-cube, @torus or mesh; -EINVAL, -ENOMEM */
int hn_topo_cube(struct hn_topo *t, u32 n, u32 k, bool torus, u64 link_ns,
		 u32 link_mbps);
/* topo_gh.c: the generalized hypercube GH(@n, @k); -EINVAL, -ENOMEM */
int hn_topo_gh(struct hn_topo *t, u32 n, u32 k, u64 link_ns, u32 link_mbps);
/*
 * FT's link @link is at level 0 (a node's) to l - 1 (into the top
 * level's switches): its links are numbered level by level
 */
u32 hn_topo_ft_level(const struct hn_topo *t, u32 link);
/* FT's switch @sw is SW(*h, *tau) (Sec. 7.2) */
void hn_topo_ft_sw(const struct hn_topo *t, u32 sw, u32 *h, u32 *tau);

/* topo.c */
struct hn_upsel_arg {
	u32 mode;			/* enum hn_upsel */
	u64 *seed;			/* HN_UPSEL_RANDOM */
	/* HN_UPSEL_ADAPTIVE: how full the channel leaving (sw, port) is */
	u32 (*occ)(void *ctx, u32 sw, u32 port);
	void *ctx;
	const u8 *pick;			/* HN_UPSEL_EXPLICIT */
	u32 npick;
	u32 used;			/* choices made so far */
	/*
	 * A header's (switch.c, drop.c), under faults: ops->detour's ports
	 * when no other leads on, @in the port it came in by.  A circuit's
	 * path keeps to the routing function's (it must not change while
	 * the circuit holds its channels).
	 */
	bool detour;
	u32 in;
};

void hn_topo_fini(struct hn_topo *t);
/* ops->fini of a topology whose priv is one allocation */
void hn_topo_free_priv(struct hn_topo *t);
/* @pw[d] = @k^d for d = 0..@n; -EINVAL past HN_MAX_NODES nodes */
int hn_topo_powers(u32 *pw, u32 n, u32 k);

/* digit @d of switch @s in base @k, @pw its powers */
static inline u32 hn_topo_digit(const u32 *pw, u32 k, u32 s, u32 d)
{
	return s / pw[d] % k;
}

u32 hn_topo_choose(const struct hn_topo *t, u32 sw, u32 dst,
		   struct hn_upsel_arg *a);
/*
 * (a->in is set at each hop: the port the walk came in by; @hop NULL:
 * the hops counted only)
 */
int hn_topo_path(const struct hn_topo *t, u32 src, u32 dst,
		 struct hn_upsel_arg *a, struct hn_tport *hop, u32 max);

/*
 * A circuit's path from @src to @dst into hop[0..max-1]: the choices
 * @pick[0..t->npick-1] where ops->alts offers several ports (none when
 * t->npick is 0: ops->route's path); how many hops, or -errno as
 * hn_topo_path()'s.  *@used, when given, is how many choices it made.
 * Hop i < n - 1 leaves its switch for another by channel
 * hn_topo_chan(hop[i]); the last reaches @dst.
 */
int hn_topo_circuit(const struct hn_topo *t, u32 src, u32 dst,
		    const u8 *pick, u32 *used, struct hn_tport *hop, u32 max);
/* the channel leaving @sw by @port for another switch (ops->chan) */
u32 hn_topo_chan(const struct hn_topo *t, u32 sw, u32 port);
/*
 * topo_fault.c: links and switches down (docs/model.md "Faults").  A
 * header's choice among ops->alts' ports (hn_topo_choose(), but for
 * explicit choices) keeps to those that still lead to its destination,
 * else to ops->detour's that do (a->detour), and takes ops->route's when
 * none does.
 */
int hn_topo_fault_set(struct hn_topo *t, bool sw, u32 id, bool down);
void hn_topo_fault_fini(struct hn_topo *t);
bool hn_topo_link_is_down(const struct hn_topo *t, u32 link);
bool hn_topo_switch_is_down(const struct hn_topo *t, u32 sw);
void hn_topo_fault_count(const struct hn_topo *t, u32 *links, u32 *switches);
/*
 * The ports of ops->alts (or ops->route's @det) at @sw that still lead
 * to @dst, into @port (HN_TOPO_MAX_ALTS of room), @det first if it does;
 * when none does and @a->detour, ops->detour's that do, for a header
 * that came in by @a->in; how many.  A function apart, so that
 * hn_topo_choose() stays as lean with nothing down.
 */
u32 hn_topo_live_ports(const struct hn_topo *t, u32 sw, u32 dst, u32 det,
		       const struct hn_upsel_arg *a, u32 *port);
/* the link on (@sw, @port) is dead: down, or a switch at an end is */
bool hn_topo_port_dead(const struct hn_topo *t, u32 sw, u32 port);
/* the link on (@sw, @port) is live and a route to @dst goes on from it */
bool hn_topo_port_live(const struct hn_topo *t, u32 sw, u32 port, u32 dst);
/* some route from node @src to node @dst crosses only live links */
bool hn_topo_reach(const struct hn_topo *t, u32 src, u32 dst);

/* the channels hn_topo_chan() numbers, 0..n-1 */
static inline u32 hn_topo_nchan(const struct hn_topo *t)
{
	return t->nchan ? t->nchan : 2 * t->nlinks;
}

/*
 * The engine's data path asks these.  The crossbar answers inline, with
 * no indirect call (which costs a retpoline thunk in the module, see
 * docs/model.md "Engine code"), so its speed does not change.
 */

/* The output port at switch @sw towards node @dst. */
static inline u32 hn_topo_out(const struct hn_topo *t, u32 sw, u32 dst)
{
	if (t->kind == HN_TOPO_CROSSBAR)
		return dst;
	return t->ops->route(t, sw, dst);
}

/*
 * Does every header on @t take ops->route's port under up-port mode
 * @mode: no equivalent port to choose among, no dead link to avoid?
 */
static inline bool hn_topo_fixed(const struct hn_topo *t, u32 mode)
{
	return !t->fault && (!t->ops->alts || mode == HN_UPSEL_DET);
}

/* Link @l's latency, one way (every link's, until links differ). */
static inline u64 hn_topo_link_ns(const struct hn_topo *t, u32 l)
{
	(void)l;
	return t->link_ns;
}

#endif /* HN_TOPO_H */
