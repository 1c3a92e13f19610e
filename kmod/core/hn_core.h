/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hn_core.h - the hybridnet engine: an N-port crossbar whose time is shared
 * by a TDM cycle controller between K predictive-circuit slots (ids 0..K-1)
 * and one wormhole slot (id K), after Zhu Ding's dissertation
 * (Chapters 3 to 5).
 *
 * Time is virtual, in nanoseconds (u64), advanced event by event within a
 * slot and slot by slot (engine.c says in what order).  The engine
 * is single-threaded: the caller serialises every call (the module holds a
 * mutex, hnsim is single-threaded).  It never frees a message: messages are
 * owned by the caller and handed back through struct hn_ops.
 *
 * Every function returns 0 or a negative errno; struct hn_err, when given,
 * receives a human-readable reason and the offending slot, node or pair.
 */
#ifndef HN_CORE_H
#define HN_CORE_H

#include "compat.h"

#define HN_MIN_NODES	2
#define HN_MAX_NODES	4096
#define HN_MAX_K	64		/* predictive slots */
/* decimal, as the ranges of hn_fields.h print them */
#define HN_MAX_MSG	1048576		/* largest message, bytes: 1 MiB */
#define HN_PRIO_TOP	15		/* the fabric's own (HYBRIDNET_PRIO_RESERVED) */
#define HN_MAX_BUF	67108864	/* largest buffer, bytes: 64 MiB */
#define HN_VC_FLITS_MAX	1048576	/* vc_flits, at most */
#define HN_VC_MAX	16		/* vc_count, at most */
#define HN_DILATION_MAX	8		/* dilation, at most */
#define HN_DIL_LEVELS_MAX 8		/* dilation_levels: levels, at most */
#define HN_FLIT_IN_MAX	4096		/* flit router: vc_count x vc_flits */
#define HN_FLIT_MEM_MAX	268435456	/* flit router: its FIFOs, bytes */
#define HN_FLIT_BYTES	24		/* flit router: a flit in a FIFO */
#define HN_PORTS_MAX	131072		/* a fabric's switch ports: events */
#define HN_NONE		0xffffffffu
#define HN_MAX_REQ	65536u		/* requests per hn_predict() call */

/* The tag bit (Secs. 3.3.1, 3.3.2): 0 = predictive circuit, 1 = wormhole. */
enum hn_mode {
	HN_MODE_CIRCUIT = 0,
	HN_MODE_WORMHOLE = 1,
	HN_NMODES
};

/* How hn_predict() places requests in slots. */
enum hn_predict_algo {
	HN_PREDICT_FIRST_FIT = 0,	/* each request, slot 0 first (Sec. 3.4.2) */
	HN_PREDICT_KSTEP = 1,		/* per slot: greedy + K-step (Ch. 6) */
	HN_PREDICT_SECOND_LEVEL = 2,	/* first fit + second level (5.2.3) */
};

/*
 * The eviction predictor (Sec. 5.2.2, Sec. 5.2.2): when a circuit leaves the
 * working set, with nothing waiting for it.
 */
enum hn_evict_algo {
	HN_EVICT_TIMEOUT = 0,	/* unused for idle_timeout_ns ("time-out") */
	HN_EVICT_COUNTER = 1,	/* evict_count uses of others since its own */
};

/*
 * How a packet crosses a switch on the packet-switched path (Duato
 * Sec. 2.3, docs/model.md "Topologies"): its header leaves on one flit of
 * credit (wormhole), on credit for the whole packet (virtual cut-through),
 * or once the whole packet is in the switch (store-and-forward); or it
 * goes on only where a channel is free, else is dropped and sent again
 * by its source (drop on block, Woods-Corwin's METRO routers: drop.c).
 */
enum hn_switching {
	HN_SWITCH_WORMHOLE = 0,
	HN_SWITCH_VCT = 1,
	HN_SWITCH_SAF = 2,
	HN_SWITCH_DROP = 3,
};

/*
 * voq_arbiter: which VQ_W an idle node input serves next (queue.c): the
 * next in round-robin order of destinations (Sec. 3.3.1), or Zydallis's
 * longest queue, by messages or by bytes waiting, ties to the highest
 * destination.
 */
enum hn_voq_arbiter {
	HN_VOQ_RR = 0,
	HN_VOQ_LQF = 1,
	HN_VOQ_BYTES = 2,
};

/*
 * ft_sched: the scheduler that routes a fat tree's circuits (Ch. 7), in
 * the order of enum hn_sched_algo's fat-tree schedulers (hn_sched.h), so
 * that HN_SCHED_LEVELWISE + ft_sched is the one to run.
 */
enum hn_ft_sched {
	HN_FT_LEVELWISE = 0,	/* Sec. 7.4 */
	HN_FT_LOCAL_GREEDY = 1,	/* the lowest free up-port */
	HN_FT_LOCAL_RANDOM = 2,	/* a random free up-port */
	HN_FT_OPTIMAL = 3,	/* routes any permutation (rearranging) */
};

/* Cycle-controller policy flags (Ch. 4); 0 is the plain counter of Fig. 4.4. */
enum hn_policy {
	HN_POL_SES		= 1 << 0, /* skip empty slots, Sec. 4.3 */
	HN_POL_SLA		= 1 << 1, /* wormhole slot has its own length */
	HN_POL_PREEMPT		= 1 << 2, /* gate slots by R_valid, Sec. 4.5 */
	HN_POL_PREEMPT_SLOT	= 1 << 3, /* R_valid per slot, not global */
	HN_POL_NO_W		= 1 << 4, /* no wormhole slot: pure TDM */
	HN_POL_DYNAMIC		= 1 << 5, /* Dynamic TDM, Sec. 5.3 (no-w) */
	HN_POL_ALL		= (1 << 6) - 1,
};

struct hn_config {
	u32 nodes;		/* N, 2..4096 */
	u32 k;			/* predictive slots, 0..64 */
	u32 policy;		/* enum hn_policy flags */
	u32 link_mbps;		/* link rate, Mb/s */
	u32 slot_p_ns;		/* NUM_P: predictive slot length */
	u32 slot_w_ns;		/* NUM_W: wormhole slot length (with SLA) */
	u32 guard_ns;		/* guard band at the start of each slot */
	u32 sched_ns;		/* predictive scheduler latency */
	u32 setup_ns;		/* switch configuration delay */
	u32 wh_first_ns;	/* wormhole: first flit incl. arbitration */
	u32 wh_flit_ns;		/* wormhole: each further flit */
	u32 flit_bytes;
	u32 worm_bytes;		/* largest worm; longer messages are split */
	u32 wire_ns;		/* NIC <-> switch, one way */
	u32 serdes_ns;		/* of wire_ns: one end's (de)serialiser */
	u32 nic_ns;		/* NIC send or receive */
	u32 fabric_ns;		/* propagation through the analog fabric */
	u32 nic_buf_bytes;	/* NIC buffer: Q_W plus VQ_PCKT */
	u32 sw_buf_bytes;	/* switch VQ_W, per input port */
	u32 rx_buf_bytes;	/* receive buffer per node */
	u32 max_msg_bytes;	/* largest message accepted */
	u64 idle_timeout_ns;	/* release circuits idle this long; 0 = never */
	u32 pin_slots;		/* slots 0..pin_slots-1: preload only, kept */
	u32 predict_algo;	/* enum hn_predict_algo */
	u32 predict_kstep;	/* K of HN_PREDICT_KSTEP */
	u32 evict_algo;		/* enum hn_evict_algo */
	u32 evict_count;	/* HN_EVICT_COUNTER's threshold, >= 1 */
	u32 wh_overlap;		/* 1: arbitrate the next worm meanwhile */
	u32 topology;		/* enum hn_topology (hn_sched.h): 0 crossbar */
	/*
	 * fat tree FT(levels, width): width^levels nodes; k-ary n-cube
	 * (mesh, torus) and GH(n, k): n dimensions, k per dimension
	 */
	u32 levels, width;
	u32 switching;		/* enum hn_switching: 0 wormhole */
	u32 up_select;		/* enum hn_upsel (topo.h): a header's up-port */
	u32 ft_sched;		/* fat tree: enum hn_ft_sched routing circuits */
	u32 vc_flits;		/* multistage: a switch input's depth, flits */
	u32 vc_count;		/* multistage: virtual channels; 0 per-worm model */
	u64 deadlock_ns;	/* multistage: no flit moving this long: deadlock */
	u32 voq_arbiter;	/* enum hn_voq_arbiter: 0 round-robin */
	u64 voq_timeout_ns;	/* a VQ_W unserved this long: first */
	u32 dilation;		/* channels per link (HN_SWITCH_DROP's) */
	/*
	 * a fat tree's channels per link level by level, 4 bits a level
	 * from the nodes' links (bits 0..3) up; 0: every link dilation
	 */
	u32 dil_levels;
	/* exactly once (idem.c) for the device's messages; 0: off */
	u64 idem_timeout_ns;	/* MSG and ACK timers */
	u32 idem_retry_max;	/* resends, then given up */
	u32 loss_ppm;		/* injector: copies lost on arrival */
	u32 flip_ppm;		/* injector: a bit flipped, per flit */
	/* links failing over time (fault.c); 0: off, never repaired */
	u64 fault_mtbf_ns;	/* mean time from one failure to the next */
	u64 fault_repair_ns;	/* a failed link's time down */
};

/*
 * What the PE may ask of its NIC (struct hn_msg.hint).  HN_HINT_WORMHOLE:
 * this message is not predictable traffic, send it wormhole even if the
 * table has a circuit to its destination (Sec. 4.6.2's random phase, whose
 * traffic must not wake PREEMPT's circuits, Sec. 4.5).  The NIC honours
 * it when there is a wormhole slot and no earlier message of the pair
 * waits for the circuit (order first).
 */
enum hn_hint {
	HN_HINT_NONE = 0,
	HN_HINT_WORMHOLE = 1,
};

/*
 * A message.  The caller fills src, dst, len, t_inject (<= hn_now()) and
 * hint (0 when it has none) and may embed this struct at the start of its
 * own; the engine fills the rest.
 */
struct hn_msg {
	struct hn_msg *next;
	u64 t_inject;		/* generation time, virtual ns */
	u64 t_ready;		/* head at the switch (wormhole) */
	u64 t_tail;		/* last byte at the switch (wormhole) */
	u64 t_deliver;		/* last byte at the receiver */
	u32 src;
	u32 dst;
	u32 len;
	u32 sent;		/* bytes already through the fabric */
	u8 tag;			/* enum hn_mode chosen at injection */
	u8 mode;		/* enum hn_mode that carried the last byte */
	u8 slot;		/* slot id that carried the last byte */
	u8 rx_held;		/* receive space reserved */
	u8 owner;		/* the caller's; the engine never touches it */
	u8 hint;		/* the caller's: enum hn_hint */
	u8 prio;		/* 0..HN_PRIO_TOP: the higher first */
	u8 sw;			/* 0: the fabric's switching; else 1 + its own */
	u32 rcvd;		/* bytes at the receiver (switch.c) */
	u32 tries;		/* HN_SWITCH_DROP: its headers sent */
};

struct hn_ops {
	/* m has arrived at m->dst; the caller owns it again. */
	void (*deliver)(void *ctx, struct hn_msg *m);
	/* m was still queued when the engine was destroyed. */
	void (*reclaim)(void *ctx, struct hn_msg *m);
	/*
	 * Optional.  @node's NIC buffer has more room at @t (>= now: a
	 * message has left it, or will have left it over the uplink by
	 * @t).  Return true to stop hn_run_until()/hn_step() at @t, once
	 * everything else due at @t has happened, so that the PE can hand
	 * the NIC a message at @t; a call that ends before @t (its own
	 * limit, one slot) forgets the stop.  It must not call into the
	 * engine.
	 */
	bool (*room)(void *ctx, u32 node, u64 t);
	/*
	 * Optional.  The failures over time (cfg.fault_mtbf_ns) took @link
	 * down (@down) or brought it back up, releasing @released circuits.
	 * It must not call into the engine.
	 */
	void (*fault)(void *ctx, u32 link, bool down, u32 released);
};

struct hn_pair {
	u32 src;
	u32 dst;
};

/*
 * One slot's whole configuration, for hn_preload().  On a fat tree, @ports
 * may give each circuit's path: pair p climbs by up-port ports[p (l - 1)
 * + h] at level h < H (Sec. 7.3, Theorem 4: it comes down by the same
 * numbers); NULL lets ft_sched route them.
 */
#define HN_PORT_NONE	0xff	/* in hn_slot_cfg.ports: not given */

struct hn_slot_cfg {
	u32 slot;
	u32 npairs;
	const struct hn_pair *pairs;
	const u8 *ports;
};

enum hn_grant_result {
	HN_GRANTED = 0,		/* scheduled now, in .slot */
	HN_EXISTS = 1,		/* already realised, in .slot (Table 5.1) */
	HN_REFUSED = 2,		/* no slot had both ports free */
};

struct hn_grant {
	u32 src;
	u32 dst;
	u32 slot;		/* HN_NONE when refused */
	u32 result;		/* enum hn_grant_result */
};

struct hn_err {
	const char *msg;
	u32 slot;		/* HN_NONE when not about a slot */
	u32 node;		/* HN_NONE when not about a node */
	u32 index;		/* offending element of an array argument */
	struct hn_pair a, b;	/* conflicting pairs, when pairs is set */
	bool pairs;
	u32 other;		/* -EEXIST: the slot that already has pair a */
	/*
	 * A fat tree's link, when link is set: up-port port of SW(level,
	 * sw) (port HN_NONE: every one of them), in the down direction
	 * with down; with chan, the channel a mesh's, a torus's or a GH's
	 * switch sw sends on from that port.  owner is the circuit already
	 * on it (src HN_NONE: none).
	 */
	bool link;
	bool down, chan;
	u32 level, sw, port;
	struct hn_pair owner;
};

/*
 * The one place that says what is wrong: fill @err, when given, with @msg
 * and the offending slot, node and array index (HN_NONE: not about one),
 * and return @rc.  The pairs and other fields are left to the caller.
 */
/* The reason a circuit from a node to itself is refused (hn_predict()). */
#define HN_SELF_CIRCUIT	"a circuit cannot connect a node to itself"
/* The reason a fabric but the crossbar refuses the second level. */
#define HN_SECOND_XBAR	"the second-level working set is crossbar only"

/*
 * A refusal as one line, "WHAT: reason (slot S, node N)", the words of
 * the module's netlink extack and of hnctl -n's checks: @rc and @err as
 * the engine gave them, @what the request ("preload refused").  Returns
 * what snprintf() does (err_text.c).
 */
int hn_err_text(char *buf, size_t len, int rc, const struct hn_err *err,
		const char *what);

static inline int hn_fail(struct hn_err *err, int rc, const char *msg,
			  u32 slot, u32 node, u32 index)
{
	if (err) {
		err->msg = msg;
		err->slot = slot;
		err->node = node;
		err->index = index;
		err->link = false;
		err->chan = false;
	}
	return rc;
}

#define HN_HIST_SUB	8	/* linear sub-buckets per power of two */
#define HN_HIST_BUCKETS	(64 * HN_HIST_SUB)

/*
 * The latency of the messages one mode carried, virtual ns; their count
 * is rx_msgs[mode] of the same statistics.
 */
struct hn_lat {
	u64 sum;
	u64 min;			/* HN_U64_MAX when none */
	u64 max;
};

static inline void hn_lat_add(struct hn_lat *l, u64 lat)
{
	l->sum += lat;
	l->min = hn_min64(l->min, lat);
	l->max = hn_max64(l->max, lat);
}

/* Per-node statistics: tx as source, rx as destination. */
struct hn_nstats {
	u64 tx_msgs[HN_NMODES];		/* injected, by tag */
	u64 tx_bytes[HN_NMODES];
	u64 tx_done;			/* of those, delivered */
	u64 tx_full;			/* refused: NIC buffer full */
	u64 rx_msgs[HN_NMODES];		/* delivered here, by mode taken */
	u64 rx_bytes[HN_NMODES];
	u64 lat_sum;
	u64 lat_min;			/* HN_U64_MAX when none */
	u64 lat_max;
	struct hn_lat lat_mode[HN_NMODES];	/* delivered here, by mode */
};

struct hn_slot_stats {
	u64 runs;		/* times the slot was given time */
	u64 time_ns;		/* time given */
	u64 bytes;		/* payload carried */
	u64 cap_bytes;		/* payload it could have carried, all ports */
	u64 skipped;		/* passed over: empty (SES) */
	u64 preempted;		/* passed over: configured, R_valid = 0 */
};

struct hn_gstats {
	u64 now;
	u64 tx_msgs[HN_NMODES], tx_bytes[HN_NMODES];
	u64 rx_msgs[HN_NMODES], rx_bytes[HN_NMODES];
	u64 in_flight_msgs, in_flight_bytes;
	u64 tx_full;			/* injections refused, buffer full */
	u64 retagged;			/* circuit messages moved to wormhole */
	u64 lat_sum, lat_min, lat_max;
	u64 hist[HN_HIST_BUCKETS];	/* latency, see hn_hist_value() */
	u64 t_first_inject;		/* HN_U64_MAX when none */
	u64 t_last_deliver;
	u32 util_ppm;			/* Ch. 1 bandwidth utilisation */
	u32 nslots;			/* k + 1 */
	struct hn_slot_stats slot[HN_MAX_K + 1];
	u64 idle_ns;			/* every slot passed over */
	u64 cycles;
	u64 grants, exists, refusals, releases, timeouts;
	u64 preloads;
	u64 circuit_reroutes;		/* fault.c: circuits routed again */
	/*
	 * HN_SWITCH_DROP: headers sent, dropped, preempted (of them, late:
	 * their header had its whole path); stubs' flits
	 */
	u64 attempts, drops, preemptions, preemptions_late, stub_flits;
	/* fault.c: links failing over time, and repaired */
	u64 links_failed, links_repaired;
	/* hn_mcast_count(): multicasts, their groups and their copies */
	u64 mcast_msgs, mcast_injections, mcast_copies;
	u64 swaps;			/* second-level working set swapped in */
	/* latency by the mode that carried the message */
	struct hn_lat lat_mode[HN_NMODES];
	u64 hist_mode[HN_NMODES][HN_HIST_BUCKETS];
	/* the pair table (hn_pair_stats()) */
	u32 pairs;			/* pairs in it */
	u32 pairs_max;			/* pairs it can hold */
	u64 pair_overflow_msgs;		/* delivered, of pairs not in it */
	u64 pair_overflow_bytes;
};

/*
 * One (source, destination) pair's delivered messages, by the mode that
 * carried them (pair_stats.c).  The engine keeps a table of at most
 * min(N (N - 1), HN_PAIRS_MAX) pairs, in the order of their first
 * delivery since the last reset: no N x N array.  A message of a pair
 * that finds the table full is counted in pair_overflow_msgs and
 * pair_overflow_bytes of struct hn_gstats, so that the pairs' messages
 * plus the overflow are every message delivered.  HN_PAIRS_MAX holds
 * every pair of 128 nodes (Ch. 5's) in 1 MiB: 56 bytes a pair and twice
 * as many 4-byte index entries.
 */
#define HN_PAIRS_MAX	16384

struct hn_pair_stats {
	u32 src, dst;
	u64 msgs[HN_NMODES];
	u64 bytes[HN_NMODES];
	u64 lat_sum[HN_NMODES];
};

/*
 * The fabric's links and switches (docs/model.md "Statistics"), numbered
 * as the topology numbers them: links 0..nodes-1 are the nodes' own.  A
 * link has two channels, [HN_UP] the one a route takes first (from the
 * node, or a switch's up-port) and [HN_DOWN] the other.  Kept by the
 * packet-switched path of a multistage fabric (switch.c).
 */
enum hn_dir {
	HN_UP = 0,
	HN_DOWN = 1,
};

struct hn_fabric_info {
	u32 topology;		/* enum hn_topology (hn_sched.h) */
	u32 levels, width;	/* fat tree: FT(levels, width); else 1, radix */
	u32 nodes;
	u32 switches;
	u32 radix;		/* ports per switch */
	u32 links;		/* each with two channels */
	u32 max_hops;		/* switches on the longest route */
	u32 links_down;		/* taken down (fault.c) */
	u32 switches_down;
	u32 channels_down;	/* a link's, alone (hn_chans_down()) */
};

struct hn_chan_stats {
	u64 bytes;		/* payload that crossed it */
	u64 worms;		/* worms that crossed it */
	u64 busy_ns;		/* held by a worm (utilisation: over the time) */
	u64 credit_stalls;	/* headers that found too little credit */
	u64 buf_peak;		/* the input buffer it feeds: most bytes held */
	u64 buf_byte_ns;	/* its bytes held, integrated over time */
	u64 circuit_bytes;	/* payload circuits carried over it */
};

struct hn_link_stats {
	u32 sw[2];		/* its ends: [HN_UP] lower, [HN_DOWN] upper; */
	u32 port[2];		/* sw HN_NONE: node port */
	bool down;		/* taken down (fault.c) */
	bool dead;		/* down, or a switch at an end is */
	struct hn_chan_stats ch[2];	/* [HN_UP], [HN_DOWN] */
};

struct hn_switch_stats {
	u32 level;		/* fat tree: its level; else 0 */
	bool down;		/* taken down (fault.c) */
	u64 bytes;		/* payload through it */
	u64 worms;		/* worms through it */
	u64 blocked_ns;		/* headers at its inputs waited, in all */
	u64 credit_stalls;	/* its headers found too little credit */
	u64 buf_peak;		/* most bytes one of its input buffers held */
	u64 buf_byte_ns;	/* its input buffers' bytes, integrated */
	u64 buf_bytes;		/* bytes its input buffers hold now */
	u32 held;		/* its output ports a worm holds now */
	u64 circuit_bytes;	/* payload circuits carried out of it */
};

/*
 * One level of the fabric (fat tree: 0..levels-1; every other topology
 * has level 0 only): its switches' sums, and the channels of the links
 * that join them to the level below (level 0: the nodes' own links).
 */
struct hn_level_stats {
	u32 switches, links;
	u64 bytes, worms;	/* through its switches */
	u64 blocked_ns;		/* headers waited at their inputs */
	u64 credit_stalls;	/* their headers found too little credit */
	u64 buf_peak;		/* most bytes one of their buffers held */
	u64 buf_byte_ns;	/* their buffers' bytes, integrated */
	u64 busy_ns[2];		/* its links' [HN_UP], [HN_DOWN] channels */
	u64 circuit_bytes;	/* circuits' payload out of its switches */
};

/* configuration */
void hn_config_default(struct hn_config *c);
int hn_config_profile(struct hn_config *c, const char *name);
const char *hn_profile_name(u32 i);	/* NULL past the last */
int hn_config_check(const struct hn_config *c, struct hn_err *err);
/*
 * The channels of a link at @level (a fat tree's: 0 the nodes' links,
 * topo_ft.c), dil_levels' or dilation; and the most of any link.
 */
u32 hn_dil_at(const struct hn_config *c, u32 level);
u32 hn_dil_max(const struct hn_config *c);
u64 hn_bytes_ns(const struct hn_config *c, u64 bytes);
u64 hn_ns_bytes(const struct hn_config *c, u64 ns);

/* life cycle */
struct hn_engine *hn_create(const struct hn_config *c,
			    const struct hn_ops *ops, void *ctx, int *errp);
void hn_destroy(struct hn_engine *e);
const struct hn_config *hn_cfg(const struct hn_engine *e);
int hn_set_live(struct hn_engine *e, const struct hn_config *n,
		struct hn_err *err);
int hn_set_policy(struct hn_engine *e, u32 policy, u32 slot_p_ns,
		  u32 slot_w_ns, struct hn_err *err);
int hn_set_timeout(struct hn_engine *e, u64 idle_timeout_ns);
int hn_set_evict(struct hn_engine *e, u32 algo, u32 count,
		 struct hn_err *err);
int hn_set_predict(struct hn_engine *e, u32 algo, u32 kstep,
		   struct hn_err *err);
/*
 * fault.c: a link (@sw false) or a switch down or up again, or @count
 * random links down; *@released (if given): the circuits released
 */
int hn_set_fault(struct hn_engine *e, bool sw, u32 id, bool down,
		 u32 *released, struct hn_err *err);
int hn_set_fault_random(struct hn_engine *e, u32 count, u64 seed,
			u32 *released, struct hn_err *err);
/* The circuits the last link or switch change routed again (fault.c) */
u32 hn_fault_rerouted(const struct hn_engine *e);
/*
 * fault.c: channel @j of link @link down or up again, or @count random
 * channels of links between switches down, each link keeping one up
 * (a dilated link under switching drop; docs/model.md "Faults")
 */
int hn_set_chan_fault(struct hn_engine *e, u32 link, u32 j, bool down,
		      struct hn_err *err);
int hn_set_chan_fault_random(struct hn_engine *e, u32 count, u64 seed,
			     struct hn_err *err);
/* link @link's channels down, as bits (0 unless switching drop) */
u8 hn_link_chans_down(const struct hn_engine *e, u32 link);
/*
 * the channels down alone, those of links down whole too: a channel's
 * fault and its link's are apart, and a channel stays down while its
 * link goes down and up
 */
u32 hn_chans_down(const struct hn_engine *e);
/*
 * flow.c: switch @sw's own switching, @flow 0 the fabric's, else 1 +
 * HN_SWITCH_WORMHOLE, _VCT or _SAF; a message's own still comes first.
 * Set while no worm is in the fabric; a rebuild clears it.
 */
int hn_set_switch_flow(struct hn_engine *e, u32 sw, u32 flow,
		       struct hn_err *err);
/* switch @sw's own switching as set (0: the fabric's) */
u32 hn_switch_flow(const struct hn_engine *e, u32 sw);
/* the link on @port of switch @sw (HN_NONE: node @port's); or HN_NONE */
u32 hn_link_at(const struct hn_engine *e, u32 sw, u32 port);
bool hn_link_down(const struct hn_engine *e, u32 link);
bool hn_switch_down(const struct hn_engine *e, u32 sw);
void hn_faults(const struct hn_engine *e, u32 *links, u32 *switches);
/* messages waiting at their source for a destination a fault cut off */
u64 hn_unreach_waiting(const struct hn_engine *e);
/* link (@sw false) or switch @id's name (docs/names.md) in @buf: 0, -EINVAL */
int hn_fault_name(const struct hn_engine *e, bool sw, u32 id, char *buf,
		  u32 len);

/* traffic */
int hn_inject(struct hn_engine *e, struct hn_msg *m, struct hn_err *err);
/*
 * mcast.c: one message to many (Zydallis's multicast).  An entry is
 * group << 8 | bitmap (group g: nodes 8g..8g+7, bit i node 8g+i), or
 * HN_MCAST_ALL alone: every node but the sender.
 */
#define HN_MCAST_GROUP	8U
#define HN_MCAST_MAX	(HN_MAX_NODES / HN_MCAST_GROUP)
#define HN_MCAST_ALL	0xffffffffU
int hn_mcast_members(const u32 *ent, u32 n, u32 src, u32 nodes, u32 *dst,
		     u32 *groups, struct hn_err *err);
int hn_inject_mcast(struct hn_engine *e, struct hn_msg **m, u32 n,
		    u32 groups, u32 *sent, struct hn_err *err);
/* a multicast of @copies in @groups, its copies injected one by one */
void hn_mcast_count(struct hn_engine *e, u32 copies, u32 groups);
/* why @c cannot carry @m by its own switching (m->sw), NULL if it can */
const char *hn_flow_bad(const struct hn_config *c, const struct hn_msg *m);
void hn_consume(struct hn_engine *e, u32 node, u32 bytes);
u32 hn_nic_room(const struct hn_engine *e, u32 node);
u64 hn_nic_room_at(const struct hn_engine *e, u32 node, u32 bytes);
u64 hn_now(const struct hn_engine *e);
bool hn_busy(const struct hn_engine *e);
u64 hn_step(struct hn_engine *e);
u64 hn_step_until(struct hn_engine *e, u64 t);
void hn_stop_at(struct hn_engine *e, u64 t);
void hn_run_until(struct hn_engine *e, u64 t);
/*
 * Bound the work of each hn_step(), hn_step_until() and hn_run_until()
 * call: after about @events events (0: no bound, the default) it returns
 * early, at the time of the last one, with every event up to then done;
 * hn_cut() then says so.  Calling again goes on exactly as if it had not
 * stopped.  The wormhole slot always obeys it, a circuit slot when the
 * owner has ops->room (without it, each circuit's slot runs in one
 * piece).  The module bounds a step so that its clock thread yields and
 * stops promptly, whatever the slot length.
 */
void hn_set_work(struct hn_engine *e, u32 events);
bool hn_cut(const struct hn_engine *e);
/*
 * Memory: the most the engine takes for one more message of @len bytes
 * in flight, as the allocator rounds it (its worms, its stream; the rest
 * is fixed by the configuration); and, with no message in it, free what
 * it keeps for the next ones.
 */
u64 hn_msg_mem(const struct hn_engine *e, u32 len);
void hn_trim(struct hn_engine *e);

/* circuits */
int hn_preload(struct hn_engine *e, const struct hn_slot_cfg *cfg, u32 n,
	       struct hn_err *err);
/* preload=shift: slot @s connects u to u + s + 1 (mod N); s + 1 < N */
int hn_preload_shift(struct hn_engine *e, u32 s, struct hn_err *err);
int hn_predict(struct hn_engine *e, const struct hn_pair *req, u32 n,
	       struct hn_grant *out, struct hn_err *err);
/* The second-level working set (Sec. 5.2.3, second.c). */
int hn_preload_second(struct hn_engine *e, const struct hn_slot_cfg *cfg,
		      u32 n, struct hn_err *err);
int hn_swap_second(struct hn_engine *e, struct hn_err *err);
u32 hn_second(const struct hn_engine *e, u32 slot, u32 src);
int hn_release(struct hn_engine *e, u32 src, u32 dst, struct hn_err *err);
int hn_release_slot(struct hn_engine *e, u32 slot, struct hn_err *err);
int hn_release_all(struct hn_engine *e, struct hn_err *err);
u32 hn_circuit(const struct hn_engine *e, u32 slot, u32 src);
/*
 * The choices of @src's circuit in @slot into port[0..n-1] (at most @max):
 * on a fat tree its up-port at each level below its common-ancestor level
 * H (it comes down by the same numbers, Theorem 4), n = H.  Returns n,
 * -ENOENT when there is no such circuit, -EINVAL when the topology's
 * circuits make no choices (a crossbar's, a mesh's, a torus's, a GH's).
 */
int hn_circuit_path(const struct hn_engine *e, u32 slot, u32 src, u8 *port,
		    u32 max);
/*
 * On a fat tree, why @src -> @dst finds no path through @slot's free
 * links: -EBUSY with @err naming the first level where no up-port is free
 * both up from the source's switch and down to the destination's (taking
 * the first free one below, as level-wise does, Sec. 7.4); 0 when it
 * finds one, -EINVAL when the fabric is not a fat tree.
 */
int hn_ft_blocked(const struct hn_engine *e, u32 slot, u32 src, u32 dst,
		  struct hn_err *err);
u32 hn_pcs_slot(const struct hn_engine *e, u32 src, u32 dst);
u32 hn_circuit_gen(const struct hn_engine *e);

/* statistics and integrity */
int hn_fabric_info(const struct hn_engine *e, struct hn_fabric_info *out);

/*
 * A deadlock (switch.c): worms in the fabric and none of their flits
 * moving for deadlock_ns of the wormhole slot's time.  The cycle of
 * channels found then, each held by a worm whose header waits for the
 * next one (its first HN_DL_MAX; n counts them all).  From then on the
 * engine takes no message (-EDEADLK).
 */
#define HN_DL_MAX	64
struct hn_deadlock {
	u64 at;			/* found at, virtual ns */
	u64 since;		/* no flit has moved since */
	u32 n;			/* channels in the cycle */
	struct {
		u32 sw, port;	/* the output port driving it */
		u32 link;
		u32 vc;		/* the flit router's VC on it; HN_NONE */
	} ch[HN_DL_MAX];
};

/* 0 and the cycle in @d (if not NULL) once deadlocked; else -ENOENT. */
int hn_deadlock(const struct hn_engine *e, struct hn_deadlock *d);
int hn_link_stats(const struct hn_engine *e, u32 link,
		  struct hn_link_stats *out);
int hn_switch_stats(const struct hn_engine *e, u32 sw,
		    struct hn_switch_stats *out);
int hn_level_stats(const struct hn_engine *e, u32 level,
		   struct hn_level_stats *out);
void hn_stats_global(const struct hn_engine *e, struct hn_gstats *g);
int hn_stats_node(const struct hn_engine *e, u32 node, struct hn_nstats *s);
void hn_stats_reset(struct hn_engine *e);
/* The @i-th pair of the table (0..pairs - 1); -ENOENT past the last. */
int hn_pair_stats(const struct hn_engine *e, u32 i, struct hn_pair_stats *out);
u64 hn_hist_value(u32 bucket);
u32 hn_hist_bucket(u64 v);
u64 hn_hist_percentile(const u64 *hist, u64 min, u64 max, u32 permille);

/*
 * The switches on @src -> @dst's route now, the destination's digits
 * choosing (faults: the detour): idem.c's E, the tests, hnsim; -errno
 */
int hn_route_switches(const struct hn_engine *e, u32 src, u32 dst);

/*
 * For the tests and tools: in the user-space library, not in hybridnet.ko
 * (check.c and introspect.c, which kmod/Kbuild leaves out).
 */
int hn_check(const struct hn_engine *e, struct hn_err *err);
int hn_pcs_row(const struct hn_engine *e, u32 src, u64 *bitmap, u32 nwords);
u32 hn_slot_conns(const struct hn_engine *e, u32 slot);
u64 hn_mem_bytes(const struct hn_engine *e);

/* deterministic pseudo-random numbers (splitmix64) */
static inline u64 hn_rand(u64 *state)
{
	u64 z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static inline u32 hn_rand_below(u64 *state, u32 n)
{
	return (u32)(((hn_rand(state) >> 32) * n) >> 32);
}

#endif /* HN_CORE_H */
