// SPDX-License-Identifier: GPL-2.0
/*
 * traffic_run.c - the run driver: processing elements that generate a
 * pattern's messages, hand them to their NICs, and the measurement
 * methodology of Duato (notes 6.3, 6.4) and BookSim around the engine.
 *
 * Each node's PE keeps a source queue.  A message's latency runs from its
 * generation to its delivery (Duato Sec. 1.3), so it includes the time spent
 * in the source queue and in the NIC.
 *
 * Bernoulli injection (an open loop, the offered load does not depend on
 * the network): the PE generates whenever its trials say so and the source
 * queue is unbounded.  The run has three phases:
 *   warm-up      [0, warmup): nothing is measured;
 *   measurement  [warmup, warmup + measure): messages generated are tagged;
 *                offered and accepted bytes are counted;
 *   drain        generation goes on, untagged, until every tagged message
 *                has arrived.
 * The run stops and reports saturation when a source queue grows past
 * max_queue messages, when the bytes delivered in the window fall short of
 * the bytes generated in it by more than sat_tol_ppm (5 %) and by more than
 * one largest message per sender (those refused at their source because a
 * fault cut their destination off, unreach_msgs, were never offered to the
 * fabric and are left out), when the
 * tagged messages have not all arrived drain_ns after the window, or when
 * their latency has not converged: the network cannot carry the offered
 * load (Duato Sec. 1.3).  Convergence is judged, as simulators such as
 * BookSim judge it, over successive sample periods: the window is cut into
 * HN_TRUN_SAMPLES periods, and the mean latency of the messages generated
 * in each must not rise through them.  Past capacity the backlog grows
 * without bound, so every later period waits longer, and a Mann-Kendall
 * trend test finds the rise (0.1 %, one sided); below capacity the
 * periods' means scatter around one value.  No tolerance is involved, so
 * a longer window sharpens the verdict instead of letting a small excess
 * through.  The warm-up lasts at least warmup_ns and half the window, then
 * goes on a period at a time while the latency delivered in the last
 * HN_TRUN_SAMPLES periods shows any sign of a rise (10 %), up to
 * warmup_max_ns; a run whose warm-up never settled is judged rising at
 * 10 %.  Offered and accepted load are over the part of the window the
 * run lived (measured_ns): all of it, unless the run ended inside it.  A
 * run that ended in its warm-up measured nothing (measured_ns 0, accepted
 * 0): its offered load is over the warm-up as lived.
 *
 * Batch injection (a closed loop, Ding's PE "driven by a command file",
 * Sec. 5.5.2): each sender has batch messages; the PE blocks while its NIC
 * refuses a message, and generating a message of len bytes takes
 * len / gen_mbps (0: no time), e.g. 1.2 Gb/s in Ch. 1 (Sec. 1.1.3), so a fast
 * PE hands its NIC several messages per slot.  The run ends when every
 * message has arrived, or at limit_ns.
 *
 * Time: a PE acts at the virtual time something happens to it, inside a
 * slot as well as between slots.  The driver runs the engine to the next
 * PE event, the earliest generation time (a min-heap of the PEs), and
 * a PE refused by its full NIC tries again when the NIC has room: at the
 * time the engine gives (hn_nic_room_at(), ops->room and hn_trun_room(),
 * which stops the engine there), so it hands its message over at that
 * very time.  A step is bounded: it pumps only the PEs due, and gives
 * the engine at most the rest of one slot.
 *
 * Times are counted from the start of the run: 0 on an engine of its own,
 * the engine's time at hn_trun_attach() on someone else's, whose clock
 * has usually run already.  Generation times, the window, the drain and
 * limit_ns are offsets from there; t_end and the message times stay the
 * engine's.
 *
 * Ding's bandwidth utilisation (Ch. 1) is bits delivered / (time taken) /
 * (peak bandwidth).  The time is from the start (batch: "the total time
 * required for a set of messages") or from the first generation
 * (Bernoulli) to the last delivery; the peak is the links of the nodes
 * that send (util_ppm; one link for Scatter, as "the peak bandwidth of the
 * cable", Sec. 8.5, has it) and, alongside, all N links (util_all_ppm).
 *
 * The phased pattern's phases (enum hn_phases): with GLOBAL, the machine
 * goes through each phase together (Sec. 4.6.2, Sec. 4.5): a PE whose next
 * message belongs to a later phase waits until every message of the
 * current phase, from every node, has arrived (a barrier), and then makes
 * it (batch: from the last arrival on; Bernoulli: its trials resume
 * there).  GLOBAL_HINT does the same and hints random-phase messages
 * HN_HINT_WORMHOLE.  PER_NODE keeps each node's own count, unsynchronised.
 *
 * How circuits exist (enum hn_net): as configured, plus the pattern's plan
 * in slots 0..P-1 (hybrid, Ch. 4); K = 0 (wormhole); Dynamic TDM or
 * circuit switching (dynamic.c); or pure TDM on the plan (preload, Sec. 4.2.2),
 * whose next group of configurations is installed when a PE waits for a
 * circuit the installed group lacks and no data is left in the fabric:
 * the compiler's flush and preload between phases (Sec. 5.2.3).
 */
#include "hn_traffic.h"

struct hn_tmsg {
	struct hn_msg m;		/* first: the engine sees only this */
	struct hn_tmsg *next;		/* source queue, free list */
	u32 tagged;
};

struct hn_src {
	struct hn_tmsg *head, *tail;	/* source queue */
	u64 qlen;
	u64 t_next;			/* next generation; HN_U64_MAX: none */
	u64 gen;			/* messages generated */
	u32 next_dst, next_len;		/* batch: drawn ahead */
	u32 blocked;			/* head has no circuit (preload) */
	u32 next_phase;			/* batch: the drawn message's phase */
	u8 next_random;			/* batch: it is of a random phase */
	u8 held;			/* waits for the phase to end */
	u32 full;			/* the NIC refused the head: wait */
	u64 retry_at;			/* full: try again then; HN_U64_MAX */
	u32 hpos;			/* in the PE heap, or HN_NONE */
};

/*
 * The trend test's one-sided quantiles, x 1000: the warm-up goes on at
 * the least sign of a rise (10 %); the window is judged rising when the
 * rise is clear (0.1 %), or at 10 % when the warm-up never settled.
 */
#define HN_TREND_Z_WEAK		1282
#define HN_TREND_Z_CLEAR	3090

/* warm-up: the sample periods remembered (10 tested, the rest slack) */
#define HN_TRUN_RING	(2 * HN_TRUN_SAMPLES)

/* u64 % in the kernel needs a helper on 32-bit machines: no bare % */
static inline u64 hn_mod(u64 a, u64 b)
{
	return a - hn_div(a, b) * b;
}

struct hn_trun {
	struct hn_engine *e;
	bool own;			/* the engine is ours */
	struct hn_config c;
	struct hn_tcfg t;
	struct hn_trun_cfg r;
	struct hn_tgen *g;
	struct hn_src *src;
	struct hn_tmsg *free;		/* spares, until the run ends */
	u32 tm_size;			/* a struct hn_tmsg, as allocated */
	u32 big;			/* the largest message it makes */
	u32 nactive;
	u32 plan_slots;			/* P */
	u32 group, ngroups;
	u32 futile;			/* groups installed without progress */
	struct hn_pair *pairs;		/* P x N */
	struct hn_slot_cfg *scfg;
	u64 queued;			/* messages in all source queues */
	u32 *heap;			/* PEs by (next event, node) */
	u32 nheap;
	u32 nblocked;			/* PEs waiting for a plan group */
	bool over_queue;		/* a source queue passed max_queue */
	u64 t0;				/* the engine's time at the start */
	u64 t_win0, t_win1;		/* the window; moves while warm */
	u64 period;			/* a sample period, measure_ns / 10 */
	u64 g0;				/* the sample periods' grid origin */
	u64 warm_max;			/* the warm-up's last possible end */
	bool warm;			/* Bernoulli: the window is not set */
	u64 ring_next;			/* newest period in the ring, + 1 */
	struct hn_ring {		/* warm-up: per period of the grid */
		u64 lat_sum, lat_n;	/* delivered in it */
		u64 bytes;
	} ring[HN_TRUN_RING];
	u64 injected_at_group;
	bool rate_checked;
	bool sync;			/* phases are global (hn_tgen_phase) */
	u32 phase;			/* the machine's current phase */
	u64 phase_need, phase_done;	/* its messages, and those arrived */
	struct hn_tres res;
};

static const char * const end_why[] = {
	[HN_END_RUNNING] = "running",
	[HN_END_DONE] = "completed: every message delivered",	/* batch */
	[HN_END_STOPPED] = "stopped: from outside, before the run ended",
	[HN_END_SAT_QUEUE] =
		"saturated: a source queue grew past max_queue messages (the network accepts less than is offered)",
	[HN_END_SAT_DRAIN] =
		"saturated: messages of the measurement window still undelivered drain_ns after it",
	[HN_END_LIMIT] = "stopped: the batch was not delivered by limit_ns",
	[HN_END_SAT_RATE] =
		"saturated: the accepted load fell short of the offered load in the measurement window",
	[HN_END_SAT_MEM] =
		"saturated: the run's messages, queued or in the fabric, hold max_mem bytes (the network accepts less than is offered)",
	[HN_END_SAT_TREND] =
		"saturated: the measured messages' latency rose through the window's sample periods (near capacity: or the window is too short)",
	[HN_END_DEADLOCK] =
		"deadlock: worms hold a cycle of channels, each waiting for the next, and no flit moves (deadlock_ns)",
};

static const char done_bernoulli[] =
	/* Bernoulli: the messages made after the window are not waited for */
	"completed: every measured message delivered (not those generated after the window)";

static int bad(struct hn_err *err, const char *msg)
{
	return hn_fail(err, -EINVAL, msg, HN_NONE, HN_NONE, HN_NONE);
}

void hn_trun_cfg_default(struct hn_trun_cfg *r)
{
	memset(r, 0, sizeof(*r));
	r->net = HN_NET_AS_IS;
	r->max_queue = 1000;
	r->sat_tol_ppm = 50000;		/* 5 %: above the noise of a window */
	r->warmup_ns = 20000;
	r->measure_ns = 100000;
	r->drain_ns = 200000;
	r->limit_ns = 10000000000ULL;	/* 10 s virtual */
}

/* Shape the engine's configuration for @r->net (before hn_create). */
int hn_net_apply(struct hn_config *c, const struct hn_trun_cfg *r,
		 struct hn_err *err)
{
	switch (r->net) {
	case HN_NET_AS_IS:
		break;
	case HN_NET_WORMHOLE:
		c->k = 0;
		c->policy = HN_POL_SES;
		c->pin_slots = 0;
		break;
	case HN_NET_CIRCUIT:
		c->k = 1;
		c->policy = HN_POL_SES | HN_POL_NO_W | HN_POL_DYNAMIC;
		c->idle_timeout_ns = 1;	/* held while data waits (Sec. 8.4.2) */
		c->pin_slots = 0;
		break;
	case HN_NET_DYNAMIC:
		c->policy = HN_POL_SES | HN_POL_NO_W | HN_POL_DYNAMIC;
		/*
		 * One slot: a circuit whose VQ stays empty until its slot is
		 * next scheduled goes, as Table 5.1 releases a connection that
		 * is not requested (Sec. 5.3.2).
		 */
		if (!c->idle_timeout_ns)
			c->idle_timeout_ns = c->slot_p_ns;
		c->pin_slots = r->preload_slots;
		break;
	case HN_NET_PRELOAD:
		c->policy = HN_POL_SES | HN_POL_NO_W;
		c->pin_slots = 0;
		break;
	default:
		return bad(err, "unknown network");
	}
	return hn_config_check(c, err);
}

int hn_trun_check(const struct hn_trun_cfg *r, const struct hn_tcfg *t,
		  const struct hn_config *c, struct hn_err *err)
{
	if (r->net >= HN_NNETS)
		return bad(err, "unknown network");
	if (r->preload_slots > c->k)
		return bad(err, "preload slots must be at most slots");
	if ((r->net == HN_NET_WORMHOLE || r->net == HN_NET_CIRCUIT) &&
	    r->preload_slots)
		return bad(err, "wormhole and circuit networks preload nothing");
	if (r->net == HN_NET_PRELOAD && !c->k)
		return bad(err, "preload needs k >= 1 slots");
	if (!r->max_queue)
		return bad(err, "max_queue must be at least 1");
	if (r->sat_tol_ppm > HN_PPM)
		return bad(err, "saturation tolerance must be 0..1");
	if (t->inject == HN_INJ_BATCH) {
		if (!r->limit_ns)
			return bad(err, "limit_ns must be above 0");
		return 0;
	}
	if (!r->measure_ns)
		return bad(err, "the measurement window must be above 0 ns");
	if (r->warmup_ns > 1000000000000ULL ||
	    r->warmup_max_ns > 1000000000000ULL ||
	    r->measure_ns > 1000000000000ULL ||
	    r->drain_ns > 1000000000000ULL)
		return bad(err, "warm-up, window and drain must be at most 1000 s");
	if (r->warmup_max_ns && r->warmup_max_ns < r->warmup_ns)
		return bad(err, "the longest warm-up must be at least the warm-up");
	return 0;
}

/*
 * The memory a message takes (struct hn_tres.mem_bytes): the engine's
 * part while it lives, its struct hn_tmsg until it is freed.
 */
static void mem_add(struct hn_trun *r, u64 bytes)
{
	r->res.mem_bytes += bytes;
	r->res.mem_max = hn_max64(r->res.mem_max, r->res.mem_bytes);
}

static struct hn_tmsg *msg_get(struct hn_trun *r)
{
	struct hn_tmsg *tm = r->free;

	if (tm) {
		r->free = tm->next;
		memset(tm, 0, sizeof(*tm));
		return tm;
	}
	tm = hn_zalloc(sizeof(*tm));
	if (tm)
		mem_add(r, r->tm_size);
	return tm;
}

static void msg_free(struct hn_trun *r, struct hn_tmsg *tm)
{
	hn_free(tm);
	r->res.mem_bytes -= r->tm_size;
}

/* A link or switch is down: a refusal may be a destination cut off. */
static bool cut_off(const struct hn_trun *r)
{
	u32 links, sws;

	hn_faults(r->e, &links, &sws);
	return links || sws;
}

/* @tm is dead: its engine's part goes; a spare until the run ends. */
static void msg_put(struct hn_trun *r, struct hn_tmsg *tm)
{
	r->res.mem_bytes -= hn_msg_mem(r->e, tm->m.len);
	if (r->res.end) {
		msg_free(r, tm);
		return;
	}
	tm->next = r->free;
	r->free = tm;
}

/*
 * The run has ended: the messages of the source queues, never injected,
 * and the spares go; those in the engine go when it hands them back.
 */
static void msgs_drop(struct hn_trun *r)
{
	struct hn_tmsg *tm;
	u32 u;

	for (u = 0; r->src && u < r->c.nodes; u++) {
		while ((tm = r->src[u].head)) {
			r->src[u].head = tm->next;
			r->res.mem_bytes -= hn_msg_mem(r->e, tm->m.len);
			msg_free(r, tm);
		}
		r->src[u].tail = NULL;
		r->src[u].qlen = 0;
		if (!(u % 64))
			hn_resched();
	}
	r->queued = 0;
	while ((tm = r->free)) {
		r->free = tm->next;
		msg_free(r, tm);
	}
}

/* A PE's next event: its next generation, or a retry once its NIC has room. */
static u64 pe_at(const struct hn_src *s)
{
	return hn_min64(s->t_next, s->retry_at);
}

/* The PE heap: every PE that has a next event. */
static bool pe_less(const struct hn_trun *r, u32 a, u32 b)
{
	u64 ta = pe_at(&r->src[a]), tb = pe_at(&r->src[b]);

	return ta < tb || (ta == tb && a < b);
}

static void pe_put(struct hn_trun *r, u32 i, u32 u)
{
	r->heap[i] = u;
	r->src[u].hpos = i;
}

static void pe_up(struct hn_trun *r, u32 i, u32 u)
{
	u32 p;

	while (i && pe_less(r, u, r->heap[p = (i - 1) / 2])) {
		pe_put(r, i, r->heap[p]);
		i = p;
	}
	pe_put(r, i, u);
}

static void pe_down(struct hn_trun *r, u32 i, u32 u)
{
	u32 c;

	while ((c = 2 * i + 1) < r->nheap) {
		if (c + 1 < r->nheap && pe_less(r, r->heap[c + 1], r->heap[c]))
			c++;
		if (!pe_less(r, r->heap[c], u))
			break;
		pe_put(r, i, r->heap[c]);
		i = c;
	}
	pe_put(r, i, u);
}

/* @u's next event has changed: put it in its place, or out of the heap. */
static void pe_sched(struct hn_trun *r, u32 u)
{
	struct hn_src *s = &r->src[u];
	u32 i = s->hpos, last;

	if (i == HN_NONE) {
		if (pe_at(s) != HN_U64_MAX)
			pe_up(r, r->nheap++, u);
		return;
	}
	if (pe_at(s) != HN_U64_MAX) {
		pe_up(r, i, u);
		pe_down(r, s->hpos, u);
		return;
	}
	s->hpos = HN_NONE;
	last = r->heap[--r->nheap];
	if (i < r->nheap) {
		pe_up(r, i, last);
		pe_down(r, r->src[last].hpos, last);
	}
}

/* The next event of any PE. */
static u64 pe_next(const struct hn_trun *r)
{
	return r->nheap ? pe_at(&r->src[r->heap[0]]) : HN_U64_MAX;
}

static u64 gen_ns(const struct hn_trun *r, u32 len)
{
	u64 rate = r->t.gen_mbps;

	return rate ? hn_div((u64)len * 8000 + rate - 1, rate) : 0;
}

/*
 * Global phases: @u's next message is of phase @phase; if that is past the
 * machine's, its PE waits (no generation) until the phase ends.
 */
static bool phase_hold(struct hn_trun *r, u32 u, u32 phase)
{
	struct hn_src *s = &r->src[u];

	if (!r->sync || phase <= r->phase)
		return false;
	s->held = 1;
	s->t_next = HN_U64_MAX;
	return true;
}

/* Batch: draw the next message of @u and when its PE will have made it. */
static void batch_next(struct hn_trun *r, u32 u, u64 t)
{
	struct hn_src *s = &r->src[u];
	bool rnd;

	if (s->gen >= r->t.batch) {
		s->t_next = HN_U64_MAX;
		return;
	}
	s->next_phase = hn_tgen_phase(r->g, u, &rnd);
	s->next_random = rnd;
	s->next_dst = hn_tgen_dest(r->g, u);
	s->next_len = hn_tgen_size(r->g, u);
	s->t_next = t + gen_ns(r, s->next_len);
	phase_hold(r, u, s->next_phase);
}

/* The phase's messages per node, for a run of this injection process. */
static u64 phase_msgs(const struct hn_trun *r, u32 phase)
{
	return hn_tgen_phase_msgs(r->g, phase, r->t.inject == HN_INJ_BATCH ?
				  r->t.batch : HN_U64_MAX);
}

/*
 * Global phases: one of the current phase's messages arrived at @t.  When
 * the last one has, the machine moves to the next phase and every PE that
 * waited goes on from @t.
 */
static void phase_arrived(struct hn_trun *r, u64 t)
{
	struct hn_src *s;
	u32 u;

	if (!r->sync || !r->phase_need || ++r->phase_done < r->phase_need)
		return;
	r->phase++;
	r->phase_done = 0;
	r->phase_need = (u64)r->nactive * phase_msgs(r, r->phase);
	for (u = 0; u < r->c.nodes; u++) {
		s = &r->src[u];
		if (!s->held)
			continue;
		s->held = 0;
		if (r->t.inject == HN_INJ_BATCH) {
			s->t_next = t + gen_ns(r, s->next_len);
		} else {
			hn_tgen_skip(r->g, u, t - r->t0);
			s->t_next = r->t0 + hn_tgen_next_ns(r->g, u);
		}
		pe_sched(r, u);
		hn_stop_at(r->e, s->t_next);	/* the PE acts then */
	}
}

/* The sample period of the window that time @t (inside it) falls in. */
static u32 period(const struct hn_trun *r, u64 t)
{
	return (u32)hn_min64(hn_div(t - r->t_win0, r->period),
			     HN_TRUN_SAMPLES - 1);
}

/* @u's PE makes the message due at s->t_next. */
static int generate(struct hn_trun *r, u32 u)
{
	struct hn_src *s = &r->src[u];
	bool batch = r->t.inject == HN_INJ_BATCH;
	struct hn_tmsg *tm;
	bool rnd = s->next_random;

	if (!batch && phase_hold(r, u, hn_tgen_phase(r->g, u, &rnd)))
		return 0;
	tm = msg_get(r);
	if (!tm)
		return -ENOMEM;
	tm->m.src = u;
	tm->m.sw = (u8)r->t.sw;
	tm->m.owner = HN_OWNER_TRUN;
	tm->m.t_inject = s->t_next;
	if (rnd && r->t.phases == HN_PHASES_GLOBAL_HINT)
		tm->m.hint = HN_HINT_WORMHOLE;	/* our option: past the table */
	if (batch) {
		tm->m.dst = s->next_dst;
		tm->m.len = s->next_len;
		s->t_next = HN_U64_MAX;	/* blocked until this one is taken */
	} else {
		tm->m.dst = hn_tgen_dest(r->g, u);
		tm->m.len = hn_tgen_size(r->g, u);
		s->t_next = r->t0 + hn_tgen_next_ns(r->g, u);
	}
	mem_add(r, hn_msg_mem(r->e, tm->m.len));
	tm->tagged = batch || (tm->m.t_inject >= r->t_win0 &&
			       tm->m.t_inject < r->t_win1);
	s->gen++;
	r->res.gen_msgs++;
	r->res.gen_bytes += tm->m.len;
	r->res.t_first = hn_min64(r->res.t_first, tm->m.t_inject);
	if (tm->tagged) {
		r->res.tagged++;
		r->res.win_gen_bytes += tm->m.len;
		if (!batch)
			r->res.smp_gen_bytes[period(r, tm->m.t_inject)] +=
				tm->m.len;
	}
	if (s->tail)
		s->tail->next = tm;
	else
		s->head = tm;
	s->tail = tm;
	s->qlen++;
	r->queued++;
	if (s->qlen > r->res.queue_max)
		r->res.queue_max = s->qlen;
	if (s->qlen > r->r.max_queue)
		r->over_queue = true;
	return 0;
}

/* The most memory one more message may add (struct hn_tres.mem_bytes). */
static u64 mem_next(const struct hn_trun *r)
{
	return (r->free ? 0 : r->tm_size) + hn_msg_mem(r->e, r->big);
}

/*
 * @u's PE may make another message: past max_queue, or with max_mem held
 * by the run's messages, the run is saturated and ends at this step, so
 * what it would make is never needed.  This bounds both the memory and
 * the work of a step.
 */
static bool may_generate(const struct hn_trun *r, const struct hn_src *s)
{
	return s->qlen <= r->r.max_queue &&
	       (!r->r.max_mem ||
		r->res.mem_bytes + mem_next(r) <= r->r.max_mem);
}

/*
 * Generate what is due at @u and hand its queue to the NIC, in order,
 * until the NIC refuses one (then wait for room) or the queue is empty.
 */
static int pump_node(struct hn_trun *r, u32 u, u64 now)
{
	struct hn_src *s = &r->src[u];
	struct hn_err err;
	struct hn_tmsg *tm;
	int rc = 0;

	if (s->full && s->retry_at <= now) {
		s->full = 0;		/* its NIC has room by now */
		s->retry_at = HN_U64_MAX;
	}
	for (;;) {
		while (s->t_next <= now && may_generate(r, s)) {
			rc = generate(r, u);
			if (rc)
				goto out;
		}
		tm = s->head;
		if (!tm || s->blocked || s->full)
			break;
		rc = hn_inject(r->e, &tm->m, &err);
		if (rc == -EAGAIN) {
			/* until it has room: known, or hn_trun_room() says */
			s->full = 1;
			s->retry_at = hn_nic_room_at(r->e, u, tm->m.len);
			rc = 0;
			break;
		}
		if (rc == -EHOSTUNREACH && r->r.net == HN_NET_PRELOAD) {
			s->blocked = 1;
			r->nblocked++;
			rc = 0;
			break;
		}
		if (rc && !(rc == -EHOSTUNREACH && cut_off(r)))
			break;
		s->head = tm->next;
		if (!s->head)
			s->tail = NULL;
		tm->next = NULL;
		s->qlen--;
		r->queued--;
		if (rc) {	/* counted, and out of the window's count */
			r->res.unreach_msgs++;
			r->res.tagged -= tm->tagged;
			if (tm->tagged)
				r->res.win_unreach_bytes += tm->m.len;
			msg_put(r, tm);
			rc = 0;
		} else {
			r->res.inj_msgs++;
		}
		/*
		 * The NIC took it now: when it was made, or when room
		 * appeared for it.  The PE makes the next one from now on,
		 * several per slot if it is fast enough.
		 */
		if (r->t.inject == HN_INJ_BATCH)
			batch_next(r, u, now);
	}
out:
	pe_sched(r, u);
	return rc;
}

/* Pump the PEs with an event due: a generation, or room in their NIC. */
static int pump(struct hn_trun *r)
{
	u64 now = hn_now(r->e);
	u32 u;
	int rc;

	while (r->nheap && pe_next(r) <= now) {
		u = r->heap[0];
		rc = pump_node(r, u, now);
		if (rc)
			return rc;
		if (pe_at(&r->src[u]) <= now)
			break;		/* may not generate: the run ends */
	}
	return 0;
}

/*
 * The engine: @u's NIC has more room at @t (now, or when a message on the
 * uplink has left).  If its PE waits for room, it tries again then, and
 * the engine stops there (return true).
 */
bool hn_trun_room(struct hn_trun *r, u32 u, u64 t)
{
	struct hn_src *s;

	if (r->res.end || u >= r->c.nodes)
		return false;
	s = &r->src[u];
	if (!s->full || t >= s->retry_at)
		return false;
	s->retry_at = t;
	pe_sched(r, u);
	return true;
}

/* Install plan group @grp in slots 0..P-1, all of them at once. */
static int install(struct hn_trun *r, u32 grp, struct hn_err *err)
{
	u32 j, P = r->plan_slots, N = r->c.nodes;

	for (j = 0; j < P; j++) {
		r->scfg[j].slot = j;
		r->scfg[j].pairs = r->pairs + (size_t)j * N;
		r->scfg[j].npairs = hn_tgen_plan(r->g, P, grp, j,
						 r->pairs + (size_t)j * N);
	}
	r->group = grp;
	r->res.groups++;
	return hn_preload(r->e, r->scfg, P, err);
}

/*
 * Preload: a PE waits for a circuit the installed group lacks and the
 * fabric holds no data: install the next group, until one serves a PE.
 */
static int next_group(struct hn_trun *r)
{
	u32 u;
	int rc;

	for (;;) {
		if (r->r.net != HN_NET_PRELOAD || hn_busy(r->e) ||
		    !r->nblocked)
			return 0;
		if (r->res.inj_msgs == r->injected_at_group) {
			if (++r->futile > r->ngroups)
				return -EHOSTUNREACH;	/* plan misses a pair */
		} else {
			r->futile = 0;
		}
		r->injected_at_group = r->res.inj_msgs;
		rc = install(r, (r->group + 1) % r->ngroups, NULL);
		if (rc)
			return rc;
		r->nblocked = 0;
		for (u = 0; u < r->c.nodes; u++) {
			if (!r->src[u].blocked)
				continue;
			r->src[u].blocked = 0;
			rc = pump_node(r, u, hn_now(r->e));
			if (rc)
				return rc;
		}
	}
}

/*
 * The least S that a rising trend over @m periods reaches with
 * probability below @alpha when there is none: S > z sd(S), one sided,
 * var(S) = m (m - 1) (2m + 5) / 18 (no ties); @z1000 = 1000 z.
 */
static u32 trend_min(u32 m, u32 z1000)
{
	u64 v = (u64)m * (m - 1) * (2 * m + 5) * z1000 * z1000;
	u32 s = 1;

	while ((u64)s * s * 18000000 <= v)
		s++;
	return s;
}

struct hn_trend {
	u64 first, second;	/* mean of each half's messages */
	u32 m, up, down;	/* as in struct hn_tres */
};

/*
 * The Mann-Kendall test over @len consecutive periods' latency sums and
 * counts: the periods that have a message, compared two by two; S, the
 * pairs where the later mean is above the earlier minus those where it is
 * below, is significant from trend_min() on.  The halves' means go along,
 * to show how large the rise is.
 */
static void trend(const u64 *sum, const u64 *n, u32 len, struct hn_trend *t)
{
	u64 mean[HN_TRUN_SAMPLES], hs[2] = { 0, 0 }, hn[2] = { 0, 0 };
	u32 i, j, h;

	memset(t, 0, sizeof(*t));
	for (i = 0; i < len; i++) {
		h = i >= len / 2;
		hs[h] += sum[i];
		hn[h] += n[i];
		if (n[i])
			mean[t->m++] = hn_div(sum[i], n[i]);
	}
	for (i = 0; i < t->m; i++) {
		for (j = i + 1; j < t->m; j++) {
			t->up += mean[j] > mean[i];
			t->down += mean[j] < mean[i];
		}
	}
	t->first = hn[0] ? hn_div(hs[0], hn[0]) : 0;
	t->second = hn[1] ? hn_div(hs[1], hn[1]) : 0;
}

static bool rises(const struct hn_trend *t, u32 z1000)
{
	return t->m >= 2 && t->up >= t->down + trend_min(t->m, z1000);
}

/* The window's convergence (see the top of the file), into the result. */
static void converge(struct hn_trun *r)
{
	struct hn_tres *res = &r->res;
	u32 z = res->warmup_capped ? HN_TREND_Z_WEAK : HN_TREND_Z_CLEAR;
	struct hn_trend t;

	trend(res->smp_lat_sum, res->smp_lat_n, HN_TRUN_SAMPLES, &t);
	res->lat_first = t.first;
	res->lat_second = t.second;
	res->trend_periods = t.m;
	res->trend_up = t.up;
	res->trend_down = t.down;
	res->trend_min = t.m >= 2 ? trend_min(t.m, z) : 0;
	res->rising = rises(&t, z);
}

/* Warm-up: a delivery at @t, into its period of the grid. */
static void ring_add(struct hn_trun *r, u64 t, u64 lat, u32 len)
{
	struct hn_ring *p;
	u64 q;

	if (t < r->g0)
		return;
	q = hn_div(t - r->g0, r->period);
	if (q >= r->ring_next) {
		if (q - r->ring_next >= HN_TRUN_RING)
			r->ring_next = q + 1 - HN_TRUN_RING;
		for (; r->ring_next <= q; r->ring_next++)
			memset(&r->ring[hn_mod(r->ring_next, HN_TRUN_RING)],
			       0, sizeof(r->ring[0]));
	}
	if (q + HN_TRUN_RING < r->ring_next)
		return;				/* forgotten already */
	p = &r->ring[hn_mod(q, HN_TRUN_RING)];
	p->lat_sum += lat;
	p->lat_n++;
	p->bytes += len;
}

/* Period @q of the ring, if it holds it (else NULL: nothing known). */
static const struct hn_ring *ring_get(const struct hn_trun *r, u64 q)
{
	if (q >= r->ring_next || q + HN_TRUN_RING < r->ring_next)
		return NULL;
	return &r->ring[hn_mod(q, HN_TRUN_RING)];
}

/*
 * Warm-up (Bernoulli): at least warmup_ns and HN_TRUN_SAMPLES / 2 sample
 * periods; then, a period at a time, until the latency of the messages
 * delivered in the last HN_TRUN_SAMPLES periods shows no sign of a rise
 * (the trend test at 10 %), or until warm_max (warmup_capped).  Called
 * before any message of @now is made, so that every one made from the
 * window's start on is measured; deliveries already counted in its first
 * periods join the window.
 */
static void warm_up(struct hn_trun *r, u64 now)
{
	u64 sum[HN_TRUN_SAMPLES], n[HN_TRUN_SAMPLES], qb, q;
	const struct hn_ring *p;
	struct hn_trend t;
	u32 i, len;

	while (r->warm && now >= r->t_win0) {
		qb = hn_div(r->t_win0 - r->g0, r->period);
		len = (u32)hn_min64(qb, HN_TRUN_SAMPLES);
		for (i = 0; i < len; i++) {
			p = ring_get(r, qb - len + i);
			sum[i] = p ? p->lat_sum : 0;
			n[i] = p ? p->lat_n : 0;
		}
		trend(sum, n, len, &t);
		if (rises(&t, HN_TREND_Z_WEAK)) {
			if (r->t_win0 < r->warm_max) {
				r->t_win0 += r->period;
				r->t_win1 += r->period;
				continue;
			}
			r->res.warmup_capped = 1;
		}
		r->warm = false;
		for (q = qb; q < qb + HN_TRUN_SAMPLES; q++) {
			p = ring_get(r, q);
			if (!p)
				continue;
			r->res.win_acc_bytes += p->bytes;
			r->res.smp_acc_bytes[q - qb] += p->bytes;
		}
	}
	r->res.warmup_taken_ns = r->t_win0 - r->t0;
}

static u32 ppm_of(u64 bytes, u64 cap)
{
	return cap ? (u32)hn_min64(hn_mul_div(bytes, HN_PPM, cap),
				   0xffffffffULL) : 0;
}

static void finish(struct hn_trun *r, u32 end)
{
	struct hn_tres *res = &r->res;
	u64 dt, cap, win;
	u64 t0 = r->t.inject == HN_INJ_BATCH ? r->t0 : res->t_first;

	res->end = end;
	res->why = end == HN_END_DONE && r->t.inject == HN_INJ_BERNOULLI ?
		   done_bernoulli : end_why[end];
	res->t_end = hn_now(r->e);
	msgs_drop(r);
	if (res->done_bytes && res->t_last > t0) {
		dt = res->t_last - t0;
		cap = hn_mul_div(dt, (u64)r->c.link_mbps * r->nactive, 8000);
		res->util_ppm = ppm_of(res->done_bytes, cap);
		res->util_all_ppm = (u32)hn_div((u64)res->util_ppm *
						r->nactive, r->c.nodes);
	}
	if (r->t.inject == HN_INJ_BATCH || !r->nactive)
		return;
	converge(r);
	if (r->warm) {
		/*
		 * Ended in the warm-up: no window, nothing measured; the load
		 * offered is that of the warm-up as lived (all it generated).
		 */
		res->warmup_taken_ns = res->t_end - r->t0;
		cap = hn_mul_div(res->warmup_taken_ns,
				 (u64)r->c.link_mbps * r->nactive, 8000);
		res->offered_ppm = ppm_of(res->gen_bytes, cap);
		return;
	}
	/* the window as lived: cut short when the run ended inside it */
	win = hn_min64(hn_max64(res->t_end, r->t_win0), r->t_win1) -
	      r->t_win0;
	res->measured_ns = win;
	cap = hn_mul_div(win, (u64)r->c.link_mbps * r->nactive, 8000);
	res->offered_ppm = ppm_of(res->win_gen_bytes, cap);
	res->accepted_ppm = ppm_of(res->win_acc_bytes, cap);
}

void hn_trun_stop(struct hn_trun *r)
{
	if (!r->res.end)
		finish(r, HN_END_STOPPED);
}

/*
 * At the end of the window every delivery inside it has been counted (a
 * slot is simulated before time passes its start): did the network accept
 * what was offered, give or take sat_tol_ppm, and by more than the largest
 * message per sender (the messages in flight at the window's two ends)?
 */
static bool short_of_offered(const struct hn_trun *r)
{
	u64 gen = r->res.win_gen_bytes - r->res.win_unreach_bytes;
	u64 acc = r->res.win_acc_bytes;

	return hn_mul_div(gen, HN_PPM - r->r.sat_tol_ppm, HN_PPM) > acc &&
	       gen - acc > (u64)r->big * r->nactive;
}

/*
 * One step: generate and inject what is due, decide whether the run is
 * over, then run the engine to the next PE event, the window's edges or
 * the limit, at most the rest of one slot while it is busy; it stops
 * earlier when a waiting PE's NIC finds room.  0: more to do; 1: ended;
 * < 0: an error.
 */
int hn_trun_step(struct hn_trun *r)
{
	bool batch = r->t.inject == HN_INJ_BATCH;
	u64 now, t, before;
	int rc;

	if (r->res.end)
		return 1;
	if (!hn_deadlock(r->e, NULL)) {
		finish(r, HN_END_DEADLOCK);
		return 1;
	}
	warm_up(r, hn_now(r->e));
	rc = pump(r);
	if (!rc)
		rc = next_group(r);
	if (rc)
		return rc;
	now = hn_now(r->e);
	if (r->over_queue) {
		finish(r, HN_END_SAT_QUEUE);
		return 1;
	}
	if (r->r.max_mem && r->res.mem_bytes + mem_next(r) > r->r.max_mem) {
		finish(r, HN_END_SAT_MEM);
		return 1;
	}
	if (batch) {
		if (r->res.done_msgs + r->res.unreach_msgs ==
		    r->res.gen_msgs && !r->queued &&
		    pe_next(r) == HN_U64_MAX && !hn_busy(r->e)) {
			finish(r, HN_END_DONE);
			return 1;
		}
		if (now - r->t0 >= r->r.limit_ns) {
			finish(r, HN_END_LIMIT);
			return 1;
		}
	} else if (now >= r->t_win1) {
		if (!r->rate_checked) {
			r->rate_checked = true;
			if (short_of_offered(r)) {
				finish(r, HN_END_SAT_RATE);
				return 1;
			}
		}
		if (r->res.tagged_done == r->res.tagged) {
			converge(r);
			finish(r, r->res.rising ? HN_END_SAT_TREND :
			       HN_END_DONE);
			return 1;
		}
		if (now >= r->t_win1 + r->r.drain_ns) {
			finish(r, HN_END_SAT_DRAIN);
			return 1;
		}
	}
	before = now;
	t = pe_next(r);
	if (!batch)
		t = hn_min64(t, r->warm ? r->t_win0 :
			     now < r->t_win1 ? r->t_win1 :
			     r->t_win1 + r->r.drain_ns);
	else
		t = hn_min64(t, r->r.limit_ns > HN_U64_MAX - r->t0 ?
			     HN_U64_MAX : r->t0 + r->r.limit_ns);
	if (hn_busy(r->e))
		hn_step_until(r->e, t);
	else
		hn_run_until(r->e, t);
	if (hn_now(r->e) == before && pe_next(r) > before) /* no slot ran */
		hn_run_until(r->e, before + 1);
	return 0;
}

int hn_trun_run(struct hn_trun *r, u64 max_steps)
{
	u64 n;
	int rc = 0;

	for (n = 0; !max_steps || n < max_steps; n++) {
		rc = hn_trun_step(r);
		if (rc)
			break;
	}
	return rc < 0 ? rc : 0;
}

/* The engine has delivered one of the driver's messages. */
void hn_trun_delivered(struct hn_trun *r, struct hn_msg *m)
{
	struct hn_tmsg *tm = (struct hn_tmsg *)m;
	struct hn_tres *res = &r->res;
	u64 lat = m->t_deliver - m->t_inject;

	hn_consume(r->e, m->dst, m->len);	/* the PE reads it at once */
	res->done_msgs++;
	res->done_bytes += m->len;
	res->t_last = hn_max64(res->t_last, m->t_deliver);
	if (r->t.inject == HN_INJ_BATCH) {
		res->win_acc_bytes += m->len;
	} else if (r->warm) {
		ring_add(r, m->t_deliver, lat, m->len);
	} else if (m->t_deliver >= r->t_win0 && m->t_deliver < r->t_win1) {
		res->win_acc_bytes += m->len;
		res->smp_acc_bytes[period(r, m->t_deliver)] += m->len;
	}
	if (tm->tagged && r->t.inject == HN_INJ_BERNOULLI) {
		res->smp_lat_sum[period(r, m->t_inject)] += lat;
		res->smp_lat_n[period(r, m->t_inject)]++;
	}
	if (tm->tagged) {
		res->tagged_done++;
		res->lat_n++;
		res->lat_sum += lat;
		res->lat_min = hn_min64(res->lat_min, lat);
		res->lat_max = hn_max64(res->lat_max, lat);
		res->hist[hn_hist_bucket(lat)]++;
		res->lat_n_mode[m->mode]++;
		hn_lat_add(&res->lat_mode[m->mode], lat);
		res->hist_mode[m->mode][hn_hist_bucket(lat)]++;
	}
	phase_arrived(r, m->t_deliver);
	msg_put(r, tm);
}

void hn_trun_reclaimed(struct hn_trun *r, struct hn_msg *m)
{
	msg_put(r, (struct hn_tmsg *)m);
}

static void own_deliver(void *ctx, struct hn_msg *m)
{
	hn_trun_delivered(ctx, m);
}

static void own_reclaim(void *ctx, struct hn_msg *m)
{
	hn_trun_reclaimed(ctx, m);
}

static bool own_room(void *ctx, u32 node, u64 t)
{
	return hn_trun_room(ctx, node, t);
}

static const struct hn_ops own_ops = {
	.deliver = own_deliver,
	.reclaim = own_reclaim,
	.room = own_room,
};

static struct hn_trun *setup(struct hn_engine *e, const struct hn_config *c,
			     const struct hn_tcfg *t,
			     const struct hn_trun_cfg *rc, int *errp,
			     struct hn_err *err)
{
	struct hn_trun *r;
	int rv = hn_tcfg_check(t, c, err);
	u32 u;

	if (!rv)
		rv = hn_trun_check(rc, t, c, err);
	if (rv)
		goto fail;
	rv = -ENOMEM;
	r = hn_zalloc(sizeof(*r));
	if (!r)
		goto fail;
	r->c = *c;
	r->t = *t;
	r->r = *rc;
	r->t0 = e ? hn_now(e) : 0;
	r->res.t_first = HN_U64_MAX;
	r->res.lat_min = HN_U64_MAX;
	r->res.lat_mode[HN_MODE_CIRCUIT].min = HN_U64_MAX;
	r->res.lat_mode[HN_MODE_WORMHOLE].min = HN_U64_MAX;
	r->tm_size = hn_alloc_size(sizeof(struct hn_tmsg));
	r->big = t->size_dist == HN_SIZE_FIXED ? t->size : t->size_max;
	r->g = hn_tgen_create(t, c, NULL);
	r->src = hn_zalloc((size_t)c->nodes * sizeof(*r->src));
	r->heap = hn_zalloc((size_t)c->nodes * sizeof(*r->heap));
	r->plan_slots = rc->preload_slots;
	if (rc->net == HN_NET_PRELOAD && !r->plan_slots)
		r->plan_slots = c->k;
	if (r->plan_slots) {
		r->pairs = hn_zalloc((size_t)r->plan_slots * c->nodes *
				     sizeof(*r->pairs));
		r->scfg = hn_zalloc(r->plan_slots * sizeof(*r->scfg));
	}
	if (!r->g || !r->src || !r->heap ||
	    (r->plan_slots && (!r->pairs || !r->scfg))) {
		hn_trun_destroy(r);
		goto fail;
	}
	if (t->inject == HN_INJ_BERNOULLI) {
		/* the first end of the warm-up the test may give */
		r->period = hn_max64(hn_div(rc->measure_ns, HN_TRUN_SAMPLES),
				     1);
		r->g0 = r->t0 + hn_mod(rc->warmup_ns, r->period);
		r->t_win0 = r->t0 + hn_max64(rc->warmup_ns, HN_TRUN_SAMPLES /
					     2 * r->period);
		r->t_win0 = r->g0 + hn_div(r->t_win0 - r->g0 + r->period - 1,
					   r->period) * r->period;
		r->t_win1 = r->t_win0 + rc->measure_ns;
		r->warm_max = r->t0 + hn_max64(rc->warmup_max_ns ?
					       rc->warmup_max_ns :
					       rc->warmup_ns + HN_TRUN_SAMPLES *
					       rc->measure_ns, rc->warmup_ns);
		r->warm = true;
	}
	for (u = 0; u < c->nodes; u++) {
		r->src[u].t_next = HN_U64_MAX;
		r->src[u].retry_at = HN_U64_MAX;
		r->src[u].hpos = HN_NONE;
		if (!hn_tgen_active(r->g, u))
			continue;
		r->nactive++;
		if (t->inject == HN_INJ_BATCH)
			batch_next(r, u, r->t0);
		else
			r->src[u].t_next = r->t0 + hn_tgen_next_ns(r->g, u);
		pe_sched(r, u);
	}
	r->res.active = r->nactive;
	r->ngroups = hn_tgen_groups(r->g, r->plan_slots);
	r->sync = t->phases != HN_PHASES_PER_NODE &&
		  hn_tgen_phase_msgs(r->g, 1, HN_U64_MAX);
	r->phase_need = (u64)r->nactive * phase_msgs(r, 0);
	r->e = e;
	if (errp)
		*errp = 0;
	return r;
fail:
	if (errp)
		*errp = rv;
	return NULL;
}

/* A run on an engine of its own, shaped by hn_net_apply(). */
struct hn_trun *hn_trun_create(const struct hn_config *c,
			       const struct hn_tcfg *t,
			       const struct hn_trun_cfg *rc, int *errp,
			       struct hn_err *err)
{
	return hn_trun_create_prep(c, t, rc, NULL, NULL, errp, err);
}

struct hn_trun *hn_trun_create_prep(const struct hn_config *c,
				    const struct hn_tcfg *t,
				    const struct hn_trun_cfg *rc,
				    int (*prep)(struct hn_engine *e, void *arg,
						struct hn_err *err),
				    void *arg, int *errp, struct hn_err *err)
{
	struct hn_config cc = *c;
	struct hn_trun *r;
	int rv = hn_net_apply(&cc, rc, err);

	if (!rv && c->idem_timeout_ns)
		rv = hn_fail(err, -EINVAL,
			     "idem_timeout_ns: the exactly-once protocol carries the device's messages and hnsim idem's; a traffic run's go once",
			     HN_NONE, HN_NONE, HN_NONE);
	if (rv) {
		if (errp)
			*errp = rv;
		return NULL;
	}
	r = setup(NULL, &cc, t, rc, errp, err);
	if (!r)
		return NULL;
	r->own = true;
	r->e = hn_create(&cc, &own_ops, r, &rv);
	if (r->e && prep)
		rv = prep(r->e, arg, err);
	if (r->e && !rv && r->plan_slots)
		rv = install(r, 0, err);
	if (!r->e || rv) {
		hn_trun_destroy(r);
		if (errp)
			*errp = rv ? rv : -ENOMEM;
		return NULL;
	}
	return r;
}

/* A run on someone else's engine (the module's): see hn_traffic.h. */
struct hn_trun *hn_trun_attach(struct hn_engine *e, const struct hn_tcfg *t,
			       const struct hn_trun_cfg *rc, int *errp,
			       struct hn_err *err)
{
	struct hn_trun *r = setup(e, hn_cfg(e), t, rc, errp, err);
	int rv;

	if (r && r->plan_slots) {
		rv = install(r, 0, err);
		if (rv) {
			r->e = NULL;
			hn_trun_destroy(r);
			if (errp)
				*errp = rv;
			return NULL;
		}
	}
	return r;
}

struct hn_engine *hn_trun_engine(struct hn_trun *r)
{
	return r->e;
}

const struct hn_tres *hn_trun_result(struct hn_trun *r)
{
	return &r->res;
}

/* Frees the run (and its engine, if it owns one). */
void hn_trun_destroy(struct hn_trun *r)
{
	struct hn_tmsg *tm;
	u32 u;

	if (!r)
		return;
	if (r->own)
		hn_destroy(r->e);	/* hands queued messages back first */
	for (u = 0; r->src && u < r->c.nodes; u++) {
		while ((tm = r->src[u].head)) {
			r->src[u].head = tm->next;
			hn_free(tm);
		}
		if (!(u % 64))
			hn_resched();
	}
	while ((tm = r->free)) {
		r->free = tm->next;
		hn_free(tm);
	}
	hn_tgen_destroy(r->g);
	hn_free(r->src);
	hn_free(r->heap);
	hn_free(r->pairs);
	hn_free(r->scfg);
	hn_free(r);
}
