/* SPDX-License-Identifier: GPL-2.0 */
/*
 * engine.h - private state of the engine, shared by the files of kmod/core/.
 *
 * Memory is O(N * K) plus O(active streams), and a pair table of at most
 * HN_PAIRS_MAX pairs: no N x N array anywhere.
 *
 * A stream is one (src, dst) pair that has messages somewhere.  It holds the
 * pair's VQ_PCKT queue at the NIC (circuit-tagged messages, Sec. 3.4.1) and
 * its VQ_W queue in the switch (Sec. 3.4.2), and counts the pair's messages
 * still in the NIC's single wormhole FIFO Q_W.  A circuit may carry a stream
 * only when none of its earlier messages is on the wormhole path, which is
 * what keeps every stream in order when its tag changes.
 */
#ifndef HN_ENGINE_H
#define HN_ENGINE_H

#include "hn_core.h"
#include "topo.h"

struct hn_queue {
	struct hn_msg *head;
	struct hn_msg *tail;
	u32 count;
	u32 bytes;			/* of its messages, sent or not */
};

struct hn_stream {
	u32 src, dst;
	u32 q_w_msgs;			/* messages of this pair in Q_W */
	u16 port;			/* its next worm's port + 1 (fabrics) */
	u8 stalled;			/* switch.c: its worm's credit stall */
	u8 req:1;			/* on the request list */
	u8 cutting:7;			/* flit.c: 1 + the VC cutting its head; */
					/* drop.c: 1 while a worm of it is tried */
	struct hn_queue vq_pckt;	/* VQ_PCKT, at the NIC */
	struct hn_queue vq_w;		/* VQ_W, in the switch */
	u64 w_end;			/* VQ_W's last worm ended (wh_overlap) */
	struct hn_msg *fab;		/* switch.c: out of VQ_W, not arrived */
	struct hn_stream *rr_next;	/* ring of the input's busy VQ_W */
	struct hn_stream *rr_prev;
	struct hn_stream *free_next;
	struct hn_stream *req_next;	/* Dynamic TDM: waiting for a circuit */
	struct hn_stream *req_prev;
	u64 req_t;			/* when the request was raised */
};

struct hn_node {
	/* the fields a message touches first, together */
	u32 buf_used;			/* NIC buffer: Q_W + VQ_PCKT + uplink */
	u32 sw_used;			/* this input's VQ_W in the switch */
	u32 rx_used;			/* receive buffer */
	u32 rel_n;			/* messages on the uplink, in rel[] */
	u64 in_free;			/* circuit slot: next event at */
	u64 up_free;			/* uplink NIC -> switch free from */
	/* circuit slot in progress (circuit_slot.c), valid if c_run == run */
	struct hn_stream *c_st;		/* the stream its circuit carries */
	u64 c_pos;			/* bytes from the slot's data start */
	u64 c_run;			/* e->run when these were set */
	u64 c_busy;			/* its data holds the uplink until */
	u32 c_stall;			/* receiver full: nothing more this slot */
	u64 c_used;			/* e->run of the circuit's last use */
	u32 rr_last;			/* destination served last (RR) */
	struct hn_queue q_w;		/* Q_W: the NIC's wormhole FIFO */
	u32 tab_cap, tab_used;		/* open-addressing table of streams */
	struct hn_stream **tab;
	struct hn_stream *ring;		/* the input's busy VQ_W, a ring */
	u32 rel_cap, rel_head;		/* rel[]: a ring, see nic.c */
	u32 rel_bytes;			/* their bytes, still in buf_used */
	struct hn_rel *rel;		/* transfers not yet out of the NIC */
	struct hn_nstats st;
};

/*
 * A wormhole message crossing the uplink from s; its last byte leaves at
 * t.  m is valid while t is to come (it cannot be delivered before).
 */
struct hn_rel {
	u64 s, t;
	struct hn_msg *m;
	u32 len;
};

/* B^(s): a partial permutation kept as out[] and in[], plus a compact list. */
struct hn_slot {
	u32 *out;			/* out[u] = v, or HN_NONE */
	u32 *in;			/* in[v] = u, or HN_NONE */
	u32 *conn;			/* inputs with a circuit, nconn of them */
	u32 *pos;			/* pos[u] = index of u in conn[] */
	u64 *valid_from;		/* per input: grant usable from */
	u64 *last_use;			/* per input: last data sent */
	u64 *use_at;			/* per input: e->uses at its last use */
	u32 *act;			/* inputs whose circuit has data waiting */
	u32 *apos;			/* apos[u] = index in act[], or HN_NONE */
	u32 *out2;			/* the second-level working set's B^(s) */
	/* switches feeding switches (slot.c): each circuit's path */
	u8 *pick;			/* u's choices: pick[u npick + i] */
	u16 *hops;			/* u's channels between switches */
	u64 *busy;			/* bit c: channel c held (topo.h) */
	u32 nconn, nact;
	u32 pending;			/* messages in VQ_PCKT for this slot */
};

/*
 * switch.c: packets across the switches of a topology, every fabric's,
 * the crossbar's one switch too.  A worm is one packet of at
 * most worm_bytes of a message; hop k of its route is its k-th switch.
 */
struct hn_fhop {
	u32 in;				/* the input port it came in by */
	u32 out;			/* its output, sw * radix + port; */
					/* HN_NONE: not routed yet */
	u32 claim;			/* bytes claimed in in's buffer */
	u64 s;				/* it took in and out at */
	u64 e;				/* its flits start crossing at */
	u64 fin;			/* its tail leaves; HN_U64_MAX: not known */
};

struct hn_fworm {
	struct hn_msg *m;
	struct hn_stream *st;		/* m's stream */
	struct hn_fworm *next;		/* in its input's queue; free list */
	u64 at;				/* its header at hop nh's input from */
	u32 off, bytes, flits;		/* m's bytes [off, off + bytes) */
	u32 nh;				/* its header is at hop nh */
	u32 tl;				/* its tail has left hops 0..tl-1 */
	u32 last;			/* its last hop; HN_NONE: not yet routed */
	u8 stalled;			/* a credit stall counted at hop nh */
	u8 pend;			/* drop.c: lost, on its node's list */
	u32 inj;			/* drop.c: its channel of the node's link */
	u64 over;			/* drop.c: its node learns it was lost */
	struct hn_fworm *pnext;		/* drop.c: on its node's pend list */
	struct hn_fhop hop[];		/* the topology's max_hops */
};

/* An input port of a switch: node u's link is input u. */
struct hn_iport {
	struct hn_fworm *cur;		/* the worm it sends; NULL: idle */
	struct hn_fworm *head, *tail;	/* headers waiting, by arrival */
	u64 t;				/* its event */
	u64 last;			/* its previous worm's tail left at */
	u32 hop;			/* cur's hop here */
	u32 used;			/* bytes claimed in its buffer */
	u32 rr;				/* the port it served last */
	u32 sw, port;			/* where it is */
	u32 feed;			/* the output feeding it; HN_NONE: a node */
	u32 stash;			/* on the stash: armed when S_W begins */
	u32 peak;			/* statistics: most bytes used */
	u64 occ, occ_t;			/* used, integrated up to occ_t */
	u64 blocked_ns, stalls;		/* its headers' waits, credit stalls */
	u64 bytes, worms, busy_ns;	/* a node's: what its link brought */
	u64 cbytes;			/* ... by circuit (fabric_stats.c) */
};

/* An output port of a switch: the channel it drives. */
struct hn_oport {
	u64 busy;			/* held until; HN_U64_MAX: not known yet */
	u32 down;			/* the input port it feeds, or HN_NONE */
	u32 node;			/* the node it feeds, or HN_NONE */
	u64 bytes, worms, busy_ns, stalls;	/* statistics */
	u64 cbytes;			/* circuits' (fabric_stats.c) */
};

struct hn_fab {
	struct hn_iport *in;		/* nin inputs: the nodes' first */
	struct hn_oport *out;		/* nout = switches x radix */
	u32 *in_of;			/* [output]: the input on its port */
	u32 *chan;			/* [2 link + dir]: its output, HN_NONE */
	u64 *wait;			/* [output]: inputs waiting, a bitmap */
	u32 *stash;			/* inputs to arm when S_W begins */
	u32 nin, nout, radix, words, nstash;
	u64 lat;			/* a flit from a switch to the next input */
	u32 buf;			/* bytes of an input fed by a switch */
	u64 moved;			/* some flit moves until then */
	bool deadlocked;		/* dl holds the cycle */
	struct hn_deadlock dl;
	u64 seed;			/* the random up-port choice */
	u64 w_end;			/* the last S_W ended; HN_U64_MAX: none */
	bool parked;			/* a soft S_W left an input busy, no event */
	u64 wcap, wused;		/* worms made, in use */
	u64 wneed;			/* the most its messages may hold */
	u64 wmax;			/* ... its inputs: one switch's, one */
					/* each; else HN_U64_MAX */
	u32 wsize;			/* bytes of a worm */
	u32 worm_flits;			/* of worm_bytes, and their time on */
	u64 worm_ns;			/* a link: known, a division spared */
	struct hn_fworm *free;
	void *chunks;			/* the worms' allocations, a list */
	struct hn_flit *fl;		/* the flit router (vc_count); or NULL */
	struct hn_drop *dr;		/* drop on block (switching); or NULL */
	u8 *flow;			/* [switch]: 0 or 1 + its own switching */
					/* (flow.c); NULL: none has one */
};

/*
 * drop.c: the dilation channels of every output and of every node's
 * link, each held until a time, and by a worm.  A worm whose header got
 * through is on the done list of its last switch's input, in the order
 * its tail leaves (by w->next); a worm dropped or preempted, on its
 * node's pend list until its node learns so, in the order of w->over (by
 * w->pnext).
 */
struct hn_drop {
	u32 d;				/* dilation */
	u64 seed;			/* a dropped worm's wait */
	u64 *busy;			/* [output * d + j]: held until */
	struct hn_fworm **own;		/* [output * d + j]: by; or NULL */
	u64 *inj;			/* [node * d + j]: its link's */
	struct hn_fworm **iown;		/* [node * d + j]: by; or NULL */
	struct hn_fworm **done;		/* [input] */
	struct hn_fworm **pend;		/* [node] */
	u8 *dead;			/* [output], then [nout + node]: */
					/* its channels down, and gone; or NULL */
	u8 *gone;			/* as dead: channels its link has */
					/* not (dilation_levels); or NULL */
	u32 ndead;			/* their bits, while dead is set */
};

/* flit.c: a flit in a virtual channel's FIFO */
struct hn_fflit {
	struct hn_fworm *w;
	u32 x;				/* its number in w; 0: the header */
	u64 t;				/* in the buffer from */
};

/*
 * A virtual channel of a switch input fed by a switch: a FIFO of flits,
 * whose head worm wants, then holds, a virtual channel of the next input
 * (out, ovc).  A node's input has as many, each sending a worm (w) of
 * VQ_W at a time, with no FIFO: its flits are in VQ_W.
 */
struct hn_fvc {
	struct hn_fvc *next, *prev;	/* its output's requesters */
	struct hn_fflit *ring;		/* depth flits; NULL: a node's */
	u32 head, n;			/* ring's first flit, flits in it */
	u32 in, v;			/* its input, its number there */
	u32 out;			/* the head worm's output; HN_NONE */
	u32 ovc;			/* the VC it holds there; HN_NONE */
	u32 cls;			/* the class of VC it may take there */
	u64 since;			/* the head worm's header waits from */
	u8 stalled;			/* a credit stall counted */
	struct hn_fworm *w;		/* a node's: the worm it sends, */
	u32 x;				/* that worm's next flit, */
	u64 fin;			/* when the one before's tail left, */
	u32 left;			/* its bytes, VQ_W's again at fin, */
	struct hn_stream *st;		/* whose message's next worm it sends */
};

/* flit.c: events are the inputs (the nodes' first), then the outputs. */
struct hn_flit {
	u32 V, depth, classes, nev, words;
	struct hn_fvc *vc;		/* [input * V + v] */
	struct hn_fflit *flits;		/* the rings */
	struct hn_fvc **req;		/* [output]: requesters, a list */
	struct hn_fvc **owner;		/* [output * V + v]: holds that VC */
	struct hn_fworm **arrive;	/* [output]: a tail crossing to a node */
	u32 *credit;			/* [output * V + v]: free flits there */
	u32 *rr;			/* [output]: the VC it served last */
	u64 *in_busy;			/* [input]: sends its next flit from */
	u64 *evt;			/* [event]: its time */
	u64 *wait;			/* [output]: nodes waiting, by port */
	u32 *stash;			/* events to arm when S_W begins */
	u8 *stashed;			/* [event] */
	u32 nstash;
	u64 flits_in;			/* flits in the rings */
};

/*
 * pair_stats.c: the pair table.  v[0..n-1] are the pairs in the order of
 * their first delivery; idx[] (mask + 1 entries, twice max rounded up to
 * a power of two) holds indices into v by the pair's hash, HN_NONE where
 * free (open addressing, linear probing, no deletion).
 */
struct hn_pairs {
	struct hn_pair_stats *v;
	u32 *idx;
	u32 n, max, mask;
};

struct hn_xbar;

struct hn_engine {
	struct hn_config cfg;
	const struct hn_ops *ops;
	void *ctx;
	u64 now;			/* every event up to now has happened */
	u32 cur;			/* slot in progress, or the last one */
	bool in_slot;			/* cur is in progress */
	u64 slot_start, slot_end;	/* of cur */
	u64 slot_cap;			/* circuit slot: bytes per circuit */
	u64 run;			/* slots begun (tells runs apart) */
	u64 stop_at;			/* ops->room asked to stop: HN_U64_MAX */
	u32 work_max;			/* events per call (hn_set_work); 0: any */
	u32 work_left;			/* of the call in progress; 0: spent */
	u32 nheap;			/* events of the slot in progress */
	u64 ev_base;			/* event.c: the heap's times count from */
	u32 nev;			/* inputs that may have one */
	u32 nslots;			/* K + 1 */
	u32 rot_a, rot_b;		/* rotating priority (Sec. 5.3.2) */
	u32 circuit_gen;		/* bumped by every circuit change */
	u64 pending;			/* all VQ_PCKT messages (R_valid) */
	u64 wh_msgs;			/* messages in Q_W or VQ_W */
	struct hn_node *node;
	struct hn_slot *slot;
	u64 *heap;			/* the slot's events, see event.c */
	u32 *hpos;			/* hpos[u]: u's place in heap, HN_NONE */
	bool c_fresh;			/* circuit slot begun, not yet run */
	u64 rot_t;			/* event.c: priority at rot_t ... */
	u32 rot_f;			/* ... starts at input rot_f */
	u32 *scratch;			/* 2 N entries, all HN_NONE between uses */
	/* soft boundaries between wormhole slots (engine.c, switch.c) */
	bool w_soft;			/* S_W in progress keeps its events past */
					/* its end for the next S_W */
	bool w_carry;			/* between slots: the heap holds them */
	u64 look_t;			/* event.c: a soft boundary's time */
	u32 nconn_all;			/* circuits in all the slots */
	u64 w_len;			/* S_W's length if soft (no circuit) */
	bool w_unsplit;			/* switch.c: the S_W's start has the */
					/* last one's end's events */
	u32 len_max;			/* the longest message injected */
	u32 rx_thresh;			/* a receiver above it is tight: */
	u32 rx_tight;			/* ... so many; all when rx_thresh 0 */
	u64 w_cap;			/* bytes S_W's length carries */
	u64 w_skips;			/* each slot 0..K-1 skipped so many more */
	u64 uses;			/* circuit uses (HN_EVICT_COUNTER) */
	u64 in_msgs, in_bytes;		/* integrity: never reset */
	u64 out_msgs, out_bytes;
	struct hn_stream *free_streams;
	struct hn_xbar *xbar;		/* HN_PREDICT_KSTEP, made on first use */
	struct hn_stream *req_head;	/* Dynamic TDM: streams without circuit */
	struct hn_stream *req_tail;
	u32 nreq;			/* streams on the request list */
	u32 req_cap;			/* entries of req_pairs and req_grants */
	u64 req_msgs;			/* messages waiting for a circuit */
	struct hn_pair *req_pairs;
	struct hn_grant *req_grants;
	u64 sl_next;			/* Dynamic TDM: next SL clock tick */
	u32 sl_slot;			/* slot of the last tick; HN_NONE */
	struct hn_gstats g;
	struct hn_pairs pairs;		/* pair_stats.c */
	struct hn_topo topo;		/* the fabric */
	struct hn_fab *fab;		/* switch.c's, every fabric's */
	/* a worm's head reaches input u at t: its wormhole's hn_*_arm() */
	void (*w_arm)(struct hn_engine *e, u32 u, u64 t);
	struct hn_ft *ft;		/* fat tree: scratch to route circuits */
	struct hn_tport *c_hop;		/* slot.c: a circuit's path, ... */
	u32 *c_chan;			/* ... its channels (max_hops each) */
	u64 *dead_chan;			/* fault.c: circuits' channels dead */
	u64 ft_seed;			/* ft_sched local-random's */
	/* fault.c: links failing over time (cfg.fault_mtbf_ns) */
	u64 flap_next;			/* the next failure; HN_U64_MAX none */
	u64 flap_seed;
	u32 fault_rerouted;		/* by the last change (fault.c) */
	struct hn_flap *flap;		/* down, to repair, oldest first */
	u32 flap_head, flap_n, flap_cap;
};

struct hn_flap {
	u32 link;
	u64 up_at;
};

/*
 * One event handled at @t.  Once the call's work (hn_set_work()) is
 * spent, the call stops at @t, as hn_stop_at() would have it for
 * ops->room: what else is due at @t still happens, and the next call goes
 * on from there.  (Inline, so that the slots' files need not call back
 * into engine.c, which runs them.)
 */
static inline void hn_work(struct hn_engine *e, u64 t)
{
	if (e->work_left && !--e->work_left)
		e->stop_at = hn_min64(e->stop_at, hn_max64(t, e->now));
}

/* @t, unless it is after @end (and known): then @gap later (S_W resumes). */
static inline u64 hn_later(u64 t, u64 end, u64 gap)
{
	return t != HN_U64_MAX && t > end ? t + gap : t;
}

/* Input @in's buffer holds @delta bytes more from @t (switch.c, flit.c). */
static inline void hn_hold(struct hn_iport *in, u64 t, s64 delta)
{
	in->occ += (u64)in->used * (t - in->occ_t);
	in->occ_t = t;
	in->used += delta;
	if (in->used > in->peak)
		in->peak = in->used;
}

/*
 * Node @u's input has sent a worm of @bytes (switch.c, flit.c, drop.c):
 * a whole worm's time on its link is known, a division spared.
 */
static inline void hn_in_sent(struct hn_engine *e, u32 u, u32 bytes)
{
	struct hn_iport *in = &e->fab->in[u];

	in->bytes += bytes;
	in->worms++;
	in->busy_ns += bytes == e->cfg.worm_bytes ? e->fab->worm_ns :
		       hn_bytes_ns(&e->cfg, bytes);
}

/* How far @x comes after @last in round-robin order over 0..@n-1 (0: next). */
static inline u32 hn_rr_dist(u32 x, u32 last, u32 n)
{
	return x > last ? x - last - 1 : x + n - last - 1;
}

/* queue.c */
u64 hn_voq_key_of(const struct hn_engine *e, const struct hn_node *n,
		  const struct hn_stream *st, u64 t);

/*
 * The key of @st's VQ_W at node @n's arbiter at @t, its head at the
 * switch: of the VQ_W that may send, the lowest key's is served, and
 * none is lower than 0.  Round-robin without a time-out, the default,
 * inline.
 */
static inline u64 hn_voq_key(const struct hn_engine *e,
			     const struct hn_node *n,
			     const struct hn_stream *st, u64 t)
{
	if (!e->cfg.voq_arbiter && !e->cfg.voq_timeout_ns)
		return hn_rr_dist(st->dst, n->rr_last, e->cfg.nodes);
	return hn_voq_key_of(e, n, st, t);
}

/*
 * Whether @m goes first from its node: the fabric's own priority under
 * switching drop, which has room kept at its switch (hn_sw_fits()) and
 * the uplink after the message crossing it (nic.c); ours: Zydallis's
 * control messages "must be sent immediately" [Z:671].
 */
static inline bool hn_goes_first(const struct hn_config *c,
				 const struct hn_msg *m)
{
	return m->prio == HN_PRIO_TOP && c->switching == HN_SWITCH_DROP;
}

/*
 * Whether @m, Q_W's head, goes on into VQ_W at its switch now: the
 * buffer there has room for it, or, for a message that goes first, room
 * but for one largest message more, kept for it.
 */
static inline bool hn_sw_fits(const struct hn_config *c,
			      const struct hn_node *n, const struct hn_msg *m)
{
	u64 room = c->sw_buf_bytes;

	if (hn_goes_first(c, m))
		room += c->max_msg_bytes;
	return n->sw_used + m->len <= room;
}

void hn_q_push(struct hn_queue *q, struct hn_msg *m);
void hn_q_push_prio(struct hn_queue *q, struct hn_msg *m, bool keep_head);
void hn_q_head_back(struct hn_queue *q);
struct hn_msg *hn_q_pop(struct hn_queue *q);
struct hn_stream *hn_stream_find(const struct hn_engine *e, u32 src, u32 dst);
struct hn_stream *hn_stream_get(struct hn_engine *e, u32 src, u32 dst);
void hn_stream_put(struct hn_engine *e, struct hn_stream *st);
void hn_ring_add(struct hn_engine *e, u32 u, struct hn_stream *st);
void hn_ring_del(struct hn_engine *e, u32 u, struct hn_stream *st);
void hn_streams_trim(struct hn_engine *e);
void hn_streams_free(struct hn_engine *e);

/* engine.c: hn_inject()'s checks but the room; *@slot: its circuit */
int hn_inject_route(struct hn_engine *e, const struct hn_msg *m, u32 *slot,
		    struct hn_err *err);

/* nic.c */
void hn_nic_forward(struct hn_engine *e, u32 u, u64 t);
void hn_nic_release(struct hn_engine *e, u32 u);
void hn_uplink_preempt(struct hn_engine *e, u32 u, u64 a, u64 b);

/*
 * When byte @b of @m (the bytes before it) is at the switch: the tail's
 * time less the rest at link rate (inline: a worm's end, mostly the
 * message's, is asked every worm).
 */
static inline u64 hn_tail_at(const struct hn_config *c,
			     const struct hn_msg *m, u32 b)
{
	return b == m->len ? m->t_tail : m->t_tail - hn_bytes_ns(c, m->len - b);
}

bool hn_rx_fits(const struct hn_engine *e, const struct hn_msg *m);
bool hn_rx_reserve(struct hn_engine *e, struct hn_msg *m);
void hn_deliver(struct hn_engine *e, struct hn_msg *m, u64 t, u8 mode,
		u32 slot);

/*
 * A circuit is a path whose channels between switches its slot holds
 * (slot.c): on every topology whose switches feed switches.
 */
static inline bool hn_paths(const struct hn_engine *e)
{
	return e->topo.nsw > 1;
}

/* slot.c: the registers B^(s) (calls nothing else) */
int hn_slots_alloc(struct hn_engine *e);
void hn_slots_free(struct hn_engine *e);
void hn_slot_add(struct hn_engine *e, u32 s, u32 u, u32 v, u64 from,
		 const u8 *pick);
void hn_slot_unroute(struct hn_engine *e, u32 s);
void hn_slot_path(struct hn_engine *e, u32 s, u32 u, const u8 *pick);
void hn_slot_repath(struct hn_engine *e, u32 s, u32 u, const u8 *pick);
/*
 * The channels between switches of u -> v's path with the choices
 * @pick (NULL when the topology's circuits make none), in e->c_chan:
 * how many, or -EINVAL when the choices make no path.
 */
int hn_circuit_chans(const struct hn_engine *e, u32 u, u32 v, const u8 *pick);
/* u -> v's path, no choices made, is free in slot @s (a crossbar's is) */
bool hn_slot_fits(const struct hn_engine *e, u32 s, u32 u, u32 v);
/* the hops of u's circuit in slot @s in e->c_hop: how many, or -errno */
int hn_circuit_hops(const struct hn_engine *e, u32 s, u32 u);
void hn_slot_del(struct hn_engine *e, u32 s, u32 u);
void hn_slot_wake(struct hn_engine *e, u32 s, u32 u);
void hn_slot_sleep(struct hn_engine *e, u32 s, u32 u);

/* release.c */
void hn_circuit_stop(struct hn_engine *e, u32 s, u32 u);
void hn_circuit_drop(struct hn_engine *e, u32 s, u32 u);
int hn_circuit_busy(struct hn_engine *e, u32 s, u32 u, struct hn_err *err);
void hn_circuit_used(struct hn_engine *e, u32 s, u32 u, u64 t);
void hn_timeouts(struct hn_engine *e, u32 s, u64 t);
u64 hn_next_timeout(const struct hn_engine *e);

/* preload.c */
int hn_preload_check(struct hn_engine *e, const struct hn_slot_cfg *cfg,
		     u32 n, bool second, struct hn_err *err);

/* ftroute.c: circuits through a fat tree's slot (e->ft set) */
int hn_ft_route_cfg(struct hn_engine *e, const struct hn_slot_cfg *cfg,
		    struct hn_route *r, struct hn_err *err);
int hn_ft_route_new(struct hn_engine *e, u32 s, struct hn_pair *pairs,
		    u32 n, struct hn_route *out, struct hn_err *err);
/* a path for @src -> @dst on slot @s's free links into @port, or false */
bool hn_ft_reroute(struct hn_engine *e, u32 s, u32 src, u32 dst, u8 *port);

/* second.c */
bool hn_second_hit(const struct hn_engine *e, const struct hn_pair *req,
		   u32 n);

/* request.c */
void hn_req_add(struct hn_engine *e, struct hn_stream *st, u64 t);
void hn_req_granted(struct hn_engine *e, u32 s, u32 u, u32 v);

/* dynamic.c */
void hn_dyn_schedule(struct hn_engine *e);
bool hn_dyn_wait(struct hn_engine *e, u64 lim);
bool hn_dyn_array(const struct hn_engine *e);

/* predict.c */
int hn_place(struct hn_engine *e, const struct hn_pair *req, u32 n,
	     struct hn_grant *out, u32 lo, u32 hi, u64 from,
	     struct hn_err *err);
int hn_place_all(struct hn_engine *e, const struct hn_pair *req, u32 n,
		 struct hn_grant *out, struct hn_err *err);

/* event.c: the events of the slot in progress, by (time, priority) */
#define HN_EV_BITS	17		/* heap key: input and priority, */
#define HN_EV_MAX	0x20000u	/* 2^HN_EV_BITS: they are below it */
#define HN_EV_SHIFT	34		/* time above, see event.c */
void hn_ev_set(struct hn_engine *e, u32 u, u64 t);
void hn_ev_del(struct hn_engine *e, u32 u);
void hn_ev_clear(struct hn_engine *e);
void hn_ev_rebase(struct hn_engine *e, u64 base);
void hn_ev_set_look(struct hn_engine *e, u32 u, u64 t);
u32 hn_ev_input(const struct hn_engine *e, u32 j);

/*
 * @u's NIC has more room at @t (now, or later when a message still on
 * the uplink has left): tell the owner (ops->room), whose PE may hand it
 * a message at @t.  If the owner wants to, the run stops at @t, once
 * everything else due at @t has happened.
 */
/* fault.c */
void hn_fault_destroy(struct hn_engine *e);
int hn_flap_set(struct hn_engine *e, u64 mtbf);
void hn_flap_run(struct hn_engine *e);

/* The next failure or repair of links failing over time, or HN_U64_MAX */
static inline u64 hn_flap_due(const struct hn_engine *e)
{
	u64 t = e->flap_next;

	if (e->flap_n && e->flap[e->flap_head].up_at < t)
		t = e->flap[e->flap_head].up_at;
	return t;
}

/* u's circuit in slot @s crosses no dead link and has live ends */
bool hn_circuit_live(const struct hn_engine *e, u32 s, u32 u);

/* No live route from node @u to @dst: its stream waits (fault.c). */
/* switch.c's fabric has deadlocked (hn_deadlock()): it takes no message */
static inline bool hn_deadlocked(const struct hn_engine *e)
{
	return e->fab && e->fab->deadlocked;
}

static inline bool hn_cut_off(const struct hn_engine *e, u32 u, u32 dst)
{
	return e->topo.fault && !hn_topo_reach(&e->topo, u, dst);
}

static inline void hn_room_grew(struct hn_engine *e, u32 u, u64 t)
{
	if (e->ops->room && e->ops->room(e->ctx, u, t) && t < e->stop_at)
		e->stop_at = t;
}

/*
 * A receiver is tight when its room is below e->nev messages of the
 * longest length seen: the inputs' scans at one instant could then fill
 * it (switch.c's soft boundaries, engine.c).  @used is its rx_used
 * before, @now after a change.
 */
static inline void hn_rx_tight(struct hn_engine *e, u32 used, u32 now)
{
	if (!e->rx_thresh)	/* all are, for good: len_max only grows */
		return;
	if (used <= e->rx_thresh && now > e->rx_thresh)
		e->rx_tight++;
	else if (used > e->rx_thresh && now <= e->rx_thresh)
		e->rx_tight--;
}

/* Time of the next event, HN_U64_MAX when there is none. */
static inline u64 hn_ev_top(const struct hn_engine *e)
{
	if (!e->nheap)
		return HN_U64_MAX;
	return e->ev_base + (e->heap[0] >> HN_EV_SHIFT);
}

/* Is the next event a look (hn_ev_set_look())? */
static inline bool hn_ev_is_look(const struct hn_engine *e)
{
	return (e->heap[0] >> HN_EV_BITS & (HN_EV_MAX - 1)) >= e->nev;
}

/* The input of the next event, left in the heap (hn_ev_set/del it). */
static inline u32 hn_ev_peek(const struct hn_engine *e)
{
	return e->heap[0] & (HN_EV_MAX - 1);
}

/* circuit_slot.c */
void hn_circuit_begin(struct hn_engine *e);
void hn_circuit_run(struct hn_engine *e, u64 lim);
void hn_circuit_end(struct hn_engine *e);
void hn_circuit_arm(struct hn_engine *e, u32 s, u32 u);

/*
 * Soft boundaries (engine.c): how far past the end of S_W it may keep an
 * event for the next S_W, and the longest slot they take (the heap's
 * times, event.c, stay below 2^30 ns from e->ev_base).
 */
#define HN_SOFT_AHEAD	268435456ULL	/* 2^28 */
#define HN_SOFT_LEN_MAX	134217728ULL	/* 2^27 */

/* S_W's length while its boundaries are soft, else 0 */
static inline u64 hn_soft_len(const struct hn_engine *e)
{
	return e->nconn_all ? 0 : e->w_len;
}

/*
 * May S_W keep an event at @t, at or past its end, for the next S_W?
 * With a soft end (engine.c), what it would do at the next S_W's start
 * with an event past its end is to find it again, so it keeps it, up to
 * HN_SOFT_AHEAD past the end.  Else the end is a hard one after all:
 * worms past it stay where they are and every input looks anew when S_W
 * comes again.
 */
static inline bool hn_keep_past(struct hn_engine *e, u64 t)
{
	if (e->w_soft && t - e->slot_end <= HN_SOFT_AHEAD)
		return true;
	e->w_soft = false;
	return false;
}

/* Inputs look when the next S_W begins (switch.c's stash). */
static inline bool hn_w_looks(const struct hn_engine *e)
{
	return e->fab->nstash;
}

/* wormhole.c */
void hn_wormhole_begin(struct hn_engine *e);
void hn_wormhole_resume(struct hn_engine *e);
void hn_wormhole_harden(struct hn_engine *e);
void hn_wormhole_run(struct hn_engine *e, u64 lim, bool cont);
void hn_wormhole_end(struct hn_engine *e);

/* switch.c */
int hn_sw_create(struct hn_engine *e);
void hn_sw_destroy(struct hn_engine *e);
int hn_sw_grow(struct hn_engine *e, u64 need);
void hn_sw_unreserve(struct hn_engine *e, const struct hn_msg *m);
u64 hn_sw_msg_mem(const struct hn_engine *e, u32 len);
void hn_sw_trim(struct hn_engine *e);
void hn_sw_begin(struct hn_engine *e);
void hn_sw_resume(struct hn_engine *e);
void hn_sw_harden(struct hn_engine *e);
void hn_sw_run(struct hn_engine *e, u64 lim, bool cont);
void hn_sw_end(struct hn_engine *e);
void hn_sw_arm(struct hn_engine *e, u32 u, u64 t);
/* ... and what flit.c shares of it */
struct hn_fworm *hn_sw_worm_new(struct hn_engine *e, u32 u,
				struct hn_stream *st);
u32 hn_sw_route(struct hn_engine *e, u32 i, u32 dst);
bool hn_sw_cut(struct hn_engine *e, u32 u, struct hn_stream *st, u32 bytes);
void hn_sw_worm_free(struct hn_engine *e, struct hn_fworm *w);
void hn_sw_stash(struct hn_engine *e, u32 i);
void hn_sw_ev_at(struct hn_engine *e, u32 i, u64 t);
void hn_sw_arrive(struct hn_engine *e, struct hn_fworm *w, u64 t);
void hn_sw_dl_chan(struct hn_engine *e, u32 n, u32 o, u32 vc);
bool hn_sw_dl_due(const struct hn_engine *e);

/*
 * The worms a message of @len bytes may hold at once: its bytes cut into
 * worms of worm_bytes, whatever path it takes (a circuit's data moved to
 * the wormhole path keeps what it sent: the rest is no more worms).
 */
static inline u64 hn_msg_worms(const struct hn_config *c, u32 len)
{
	if (len && len <= c->worm_bytes)	/* most: no division */
		return 1;
	return hn_div((u64)len + c->worm_bytes - 1, c->worm_bytes);
}

/*
 * Enough of switch.c's worms for every message in the engine and @m,
 * which it takes (made by hn_sw_grow() when there are too few).
 */
static inline int hn_sw_reserve(struct hn_engine *e, const struct hn_msg *m)
{
	struct hn_fab *f = e->fab;
	u64 need = f->wneed + hn_msg_worms(&e->cfg, m->len);

	if (need > f->wcap && f->wcap < f->wmax &&
	    hn_sw_grow(e, hn_min64(need, f->wmax)))
		return -ENOMEM;
	f->wneed = need;
	return 0;
}

/* flit.c */
int hn_flit_create(struct hn_engine *e);
void hn_flit_destroy(struct hn_engine *e);
void hn_flit_begin(struct hn_engine *e);
void hn_flit_event(struct hn_engine *e, u32 i, u64 t);
void hn_flit_end(struct hn_engine *e);
void hn_flit_arm(struct hn_engine *e, u32 u, u64 t);

/* drop.c */
int hn_drop_create(struct hn_engine *e);
void hn_drop_destroy(struct hn_engine *e);
void hn_drop_begin(struct hn_engine *e);
void hn_drop_event(struct hn_engine *e, u32 i, u64 t);
void hn_drop_arm(struct hn_engine *e, u32 u, u64 t);
int hn_drop_chan_set(struct hn_engine *e, u32 link, u32 j, bool down);
u8 hn_drop_chan_dead(const struct hn_engine *e, u32 link);
u32 hn_drop_link_d(const struct hn_engine *e, u32 link);

/* The channels down alone: inline, so that a reader calls no drop.c */
static inline u32 hn_drop_chans_down(const struct hn_engine *e)
{
	/* each has both its directions' bits */
	return e->fab && e->fab->dr ? e->fab->dr->ndead / 2 : 0;
}

/* flow.c: the switching technique */
/*
 * The switching @m crosses switch @sw by (flow.c): its own when its
 * sender chose one (Zydallis's router takes store-and-forward and wormhole
 * messages alike), else the switch's when it has one, else the fabric's.
 */
static inline u32 hn_flow_of(const struct hn_engine *e, const struct hn_msg *m,
			     u32 sw)
{
	const u8 *flow = e->fab->flow;

	if (m->sw)
		return (u32)m->sw - 1;
	return flow && flow[sw] ? (u32)flow[sw] - 1 : e->cfg.switching;
}

/* Store-and-forward: @m's header is routed at @sw once its tail is in. */
static inline bool hn_flow_store(const struct hn_engine *e,
				 const struct hn_msg *m, u32 sw)
{
	return hn_flow_of(e, m, sw) == HN_SWITCH_SAF;
}

/* ... at the switch of input @i (its switch looked up only if need be) */
static inline bool hn_flow_store_in(const struct hn_engine *e,
				    const struct hn_msg *m, u32 i)
{
	const struct hn_fab *f = e->fab;

	return hn_flow_store(e, m, f->flow ? f->in[i].sw : 0);
}

bool hn_flow_whole_at(const struct hn_engine *e, const struct hn_msg *m,
		      u32 o);

/*
 * Must the header of @m leaving by output @o have room for its whole worm
 * in the input ahead?  Unless its switch passes it as a worm, and the
 * switch ahead does not store it before routing it (where it could never
 * come in whole, it would wait for ever).
 */
static inline bool hn_flow_whole(const struct hn_engine *e,
				 const struct hn_msg *m, u32 o)
{
	if (!e->fab->flow)
		return hn_flow_of(e, m, 0) != HN_SWITCH_WORMHOLE;
	return hn_flow_whole_at(e, m, o);
}

/* Credit the header of @bytes of @m needs to leave by @o, ahead. */
static inline u32 hn_flow_need(const struct hn_engine *e,
			       const struct hn_msg *m, u32 o, u32 bytes)
{
	u32 flit = e->cfg.flit_bytes;

	return bytes > flit && !hn_flow_whole(e, m, o) ? flit : bytes;
}

u32 hn_flow_claim(const struct hn_config *c, u32 bytes, u32 free);
u64 hn_flow_tail(const struct hn_config *c, const struct hn_fworm *w, u32 k,
		 u64 ta);

/* fabric_stats.c */
void hn_fab_stats_reset(struct hn_engine *e);
/*
 * @bytes of u's circuit in slot @s crossed its path: the node's link up,
 * each channel between switches and the last one down.
 */
void hn_fab_circuit(struct hn_engine *e, u32 s, u32 u, u64 bytes);

/* pair_stats.c */
int hn_pairs_alloc(struct hn_engine *e);
void hn_pairs_free(struct hn_engine *e);
void hn_pairs_reset(struct hn_engine *e);
void hn_pairs_delivered(struct hn_engine *e, const struct hn_msg *m, u64 lat);

/* tdm.c */
u32 hn_tdm_next(struct hn_engine *e);
u64 hn_slot_len(const struct hn_engine *e, u32 s);
u64 hn_idle_cycles(struct hn_engine *e, u64 n);

/* stats.c */
void hn_stats_init(struct hn_engine *e);
void hn_stats_delivered(struct hn_engine *e, const struct hn_msg *m);

#endif /* HN_ENGINE_H */
