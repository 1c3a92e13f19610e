// SPDX-License-Identifier: GPL-2.0
/*
 * engine.c - life cycle, injection and the clock.
 *
 * Time advances event by event inside a slot, and slot by slot: the TDM
 * cycle controller chooses the next slot when one ends.  hn_run_until(t)
 * makes everything due up to t happen and may stop inside a slot; the
 * slot goes on where it stopped at the next call.  At one instant t the
 * order is always: the events of the slot in progress at t; the end of
 * that slot, if it ends at t; what the caller injects at t; the start of
 * the next slot.  So the outcome depends only on what is injected when,
 * never on the steps the caller took to get there (kthread or hnsim),
 * and a message injected in the middle of a slot takes part in it if it
 * can (wormhole.c, circuit_slot.c).  While nothing is queued anywhere,
 * whole cycles are skipped in O(1).
 */
#include "engine.h"
#include "hn_sched.h"
#include "cfg_field.h"		/* the live fields */

/*
 * Soft boundaries.  When nothing can run between two wormhole slots (no
 * predictive slot: K = 0, or SES or PREEMPT with no circuit in any; no
 * guard band; not Dynamic TDM, whose scheduler acts at every slot), one
 * S_W follows another at the same instant, and what its end and the next
 * one's begin do (stop the worms running past the boundary where they
 * are and go on at once, every input with worms to send look again)
 * changes nothing but for a few inputs: the end keeps its events for
 * the next S_W instead (hn_wormhole_resume()), and the controller counts
 * the slots passed over without looking at them.  The end stays where it
 * was, so everything else happens as at a hard one (what the caller does
 * at the boundary, hn_step() returning there, the counts), and when
 * something else comes next after all (a circuit made at the boundary,
 * the policy changed), the end is made hard first (hn_wormhole_harden()).
 * switch.c's fabrics, the crossbar's too (not the flit router's
 * or drop.c's, whose boundaries stay hard).  e->w_len is
 * the wormhole slot's length while its boundaries may be soft as long as
 * no circuit exists, else 0, made anew with the configuration
 * (hn_set_live()); hn_soft_len() adds the circuits, looking at them when
 * it is asked, so that slot.c, which makes and drops them, need not call
 * here.
 */
static void soft_update(struct hn_engine *e)
{
	const struct hn_config *c = &e->cfg;
	u64 len = hn_slot_len(e, c->k);

	e->w_len = 0;
	if (!e->fab->fl && !e->fab->dr && !c->guard_ns &&
	    !(c->policy & (HN_POL_NO_W | HN_POL_DYNAMIC)) &&
	    (!c->k || (c->policy & (HN_POL_SES | HN_POL_PREEMPT))) &&
	    len <= HN_SOFT_LEN_MAX)
		e->w_len = len;
	e->w_cap = hn_ns_bytes(c, len) * c->nodes;
}

struct hn_engine *hn_create(const struct hn_config *c,
			    const struct hn_ops *ops, void *ctx, int *errp)
{
	struct hn_engine *e;
	int rc = hn_config_check(c, NULL);
	u32 u;

	if (!rc && (!ops || !ops->deliver || !ops->reclaim))
		rc = -EINVAL;
	if (rc)
		goto out;
	rc = -ENOMEM;
	e = hn_zalloc(sizeof(*e));
	if (!e)
		goto out;
	e->cfg = *c;
	e->ops = ops;
	e->ctx = ctx;
	e->nslots = c->k + 1;
	e->cur = c->k;
	e->sl_slot = HN_NONE;
	e->circuit_gen = 1;
	e->nev = c->nodes;
	e->ft_seed = 1;		/* ft_sched local-random: reproducible */
	rc = 0;
	switch (c->topology) {
	case HN_TOPO_FATTREE:
		rc = hn_topo_ft(&e->topo, c->levels, c->width, c->wire_ns,
				c->link_mbps, NULL);
		if (!rc)
			rc = hn_ft_create(c->levels, c->width, &e->ft, NULL);
		break;
	case HN_TOPO_MESH:
	case HN_TOPO_TORUS:
		rc = hn_topo_cube(&e->topo, c->levels, c->width,
				  c->topology == HN_TOPO_TORUS, c->wire_ns,
				  c->link_mbps);
		break;
	case HN_TOPO_GH:
		rc = hn_topo_gh(&e->topo, c->levels, c->width, c->wire_ns,
				c->link_mbps);
		break;
	default:
		hn_topo_xbar(&e->topo, c->nodes, c->wire_ns, c->link_mbps);
		break;
	}
	if (!rc)
		rc = hn_sw_create(e);
	if (!rc && c->vc_count)		/* the flit router */
		rc = hn_flit_create(e);
	if (!rc && c->switching == HN_SWITCH_DROP)
		rc = hn_drop_create(e);
	if (rc) {
		hn_destroy(e);
		goto out;
	}
	e->w_arm = e->fab->fl ? hn_flit_arm :
		   e->fab->dr ? hn_drop_arm : hn_sw_arm;
	rc = -ENOMEM;
	e->node = hn_zalloc(c->nodes * sizeof(*e->node));
	e->heap = hn_zalloc(e->nev * sizeof(*e->heap));
	e->hpos = hn_zalloc(e->nev * sizeof(*e->hpos));
	e->scratch = hn_zalloc(2 * c->nodes * sizeof(*e->scratch));
	if (!e->node || !e->heap || !e->hpos || !e->scratch ||
	    hn_slots_alloc(e) || hn_pairs_alloc(e)) {
		hn_destroy(e);
		goto out;
	}
	for (u = 0; u < 2 * c->nodes; u++)
		e->scratch[u] = HN_NONE;
	for (u = 0; u < e->nev; u++)
		e->hpos[u] = HN_NONE;
	for (u = 0; u < c->nodes; u++)
		e->node[u].rr_last = c->nodes - 1;
	e->stop_at = HN_U64_MAX;
	e->look_t = HN_U64_MAX;
	e->rx_thresh = c->rx_buf_bytes;
	soft_update(e);
	hn_stats_init(e);
	if (hn_flap_set(e, c->fault_mtbf_ns)) {
		hn_destroy(e);
		goto out;
	}
	if (errp)
		*errp = 0;
	return e;
out:
	if (errp)
		*errp = rc;
	return NULL;
}

static void reclaim_queue(struct hn_engine *e, struct hn_queue *q)
{
	struct hn_msg *m;

	while ((m = hn_q_pop(q)))
		e->ops->reclaim(e->ctx, m);
}

static void reclaim_list(struct hn_engine *e, struct hn_msg **l)
{
	struct hn_msg *m;

	while ((m = *l)) {
		*l = m->next;
		e->ops->reclaim(e->ctx, m);
	}
}

/* Hands every queued message back through ops->reclaim, then frees all. */
void hn_destroy(struct hn_engine *e)
{
	struct hn_node *n;
	u32 u, i;

	if (!e)
		return;
	for (u = 0; e->node && u < e->cfg.nodes; u++) {
		n = &e->node[u];
		reclaim_queue(e, &n->q_w);
		hn_free(n->rel);
		for (i = 0; i < n->tab_cap; i++) {
			if (n->tab[i]) {
				reclaim_queue(e, &n->tab[i]->vq_pckt);
				reclaim_queue(e, &n->tab[i]->vq_w);
				reclaim_list(e, &n->tab[i]->fab);
			}
		}
		if (!(u % 64))
			hn_resched();
	}
	if (e->node)
		hn_streams_free(e);
	hn_slots_free(e);
	hn_fault_destroy(e);
	hn_pairs_free(e);
	hn_xbar_destroy(e->xbar);
	hn_ft_destroy(e->ft);
	hn_flit_destroy(e);
	hn_drop_destroy(e);
	hn_sw_destroy(e);
	hn_topo_fini(&e->topo);
	hn_free(e->node);
	hn_free(e->heap);
	hn_free(e->hpos);
	hn_free(e->scratch);
	hn_free(e->req_pairs);
	hn_free(e->req_grants);
	hn_free(e);
}

/*
 * The most memory the engine takes for one more message of @len bytes in
 * flight, as the allocator rounds it: switch.c's worms for it, a stream
 * (one per pair with data, so at most one per message), its place in the
 * NIC's table of streams (which doubles when half full: at most 4
 * entries a stream), on the uplink's ring (2 entries: it doubles too) and
 * in Dynamic TDM's request arrays (2 of each).  Everything else the
 * engine holds is fixed by the configuration.
 */
u64 hn_msg_mem(const struct hn_engine *e, u32 len)
{
	return hn_alloc_size(sizeof(struct hn_stream)) +
	       4 * sizeof(struct hn_stream *) + 2 * sizeof(struct hn_rel) +
	       2 * (sizeof(struct hn_pair) + sizeof(struct hn_grant)) +
	       hn_sw_msg_mem(e, len);
}

/*
 * No message in the engine: free what it made for messages and keeps for
 * the next ones (worms, spare streams, the nodes' stream tables and
 * uplink rings), down to what the configuration fixes.  An uplink ring
 * forgets a transfer only when its NIC next looks (hn_nic_release()):
 * with every message delivered, all have left, so each NIC looks now.
 */
void hn_trim(struct hn_engine *e)
{
	struct hn_node *n;
	u32 u;

	if (e->in_msgs != e->out_msgs)
		return;
	hn_sw_trim(e);
	hn_streams_trim(e);
	for (u = 0; u < e->cfg.nodes; u++) {
		n = &e->node[u];
		hn_nic_release(e, u);
		if (n->rel_n)
			continue;
		hn_free(n->rel);
		n->rel = NULL;
		n->rel_cap = 0;
		n->rel_head = 0;
	}
}

const struct hn_config *hn_cfg(const struct hn_engine *e)
{
	return &e->cfg;
}

int hn_route_switches(const struct hn_engine *e, u32 src, u32 dst)
{
	struct hn_upsel_arg a = { .mode = HN_UPSEL_DET, .detour = true };

	return hn_topo_path(&e->topo, src, dst, &a, NULL, 0);
}

u64 hn_now(const struct hn_engine *e)
{
	return e->now;
}

bool hn_busy(const struct hn_engine *e)
{
	return e->pending || e->wh_msgs || e->req_msgs;
}

static int fail(struct hn_err *err, int rc, const char *msg, u32 node)
{
	return hn_fail(err, rc, msg, HN_NONE, node, HN_NONE);
}

/*
 * Change every field that may change while traffic flows (the live rows
 * of hn_fields.h: policy and slot lengths, idle time-out, predictor,
 * eviction) to @n's, at once: a configuration valid as a whole goes in
 * even when none of its changes alone would (Dynamic TDM and its eviction
 * predictor), and a refusal changes nothing.
 */
int hn_set_live(struct hn_engine *e, const struct hn_config *n,
		struct hn_err *err)
{
	struct hn_config c = e->cfg;
	int rc;
	u32 i;

	for (i = 0; i < HN_CFG_NR; i++)	/* the fields hn_fields.h marks live */
		if (hn_cfg_fields[i].live)
			hn_cfg_set(&c, i, hn_cfg_get(n, i));
	if ((c.policy & HN_POL_NO_W) && e->wh_msgs)
		return fail(err, -EBUSY,
			    "wormhole data waiting: cannot drop the wormhole slot",
			    HN_NONE);
	if (!(c.policy & HN_POL_DYNAMIC) && e->req_msgs)
		return fail(err, -EBUSY,
			    "messages wait for circuits: cannot leave Dynamic TDM",
			    HN_NONE);
	rc = hn_config_check(&c, err);
	if (rc)
		return rc;
	if (c.fault_mtbf_ns != e->cfg.fault_mtbf_ns &&
	    hn_flap_set(e, c.fault_mtbf_ns))
		return fail(err, -ENOMEM,
			    "no memory for links failing over time", HN_NONE);
	e->cfg = c;
	soft_update(e);
	return 0;
}

/* Change the cycle-controller policy and slot lengths live (Ch. 4). */
int hn_set_policy(struct hn_engine *e, u32 policy, u32 slot_p_ns,
		  u32 slot_w_ns, struct hn_err *err)
{
	struct hn_config c = e->cfg;

	c.policy = policy;
	c.slot_p_ns = slot_p_ns;
	c.slot_w_ns = slot_w_ns;
	return hn_set_live(e, &c, err);
}

int hn_set_timeout(struct hn_engine *e, u64 idle_timeout_ns)
{
	struct hn_config c = e->cfg;

	c.idle_timeout_ns = idle_timeout_ns;
	return hn_set_live(e, &c, NULL);
}

/* Choose the eviction predictor (enum hn_evict_algo) live. */
int hn_set_evict(struct hn_engine *e, u32 algo, u32 count,
		 struct hn_err *err)
{
	struct hn_config c = e->cfg;

	c.evict_algo = algo;
	c.evict_count = count;
	return hn_set_live(e, &c, err);
}

/* Choose how hn_predict() places requests (enum hn_predict_algo). */
int hn_set_predict(struct hn_engine *e, u32 algo, u32 kstep,
		   struct hn_err *err)
{
	struct hn_config c = e->cfg;

	c.predict_algo = algo;
	c.predict_kstep = kstep;
	return hn_set_live(e, &c, err);
}

/*
 * What a message must be for its NIC to take it, room aside: returns 0
 * with the predictive slot that would carry @m in *@slot (HN_NONE: the
 * wormhole slot, or a request under Dynamic TDM), or the errno.
 */
/* hn_inject_route(), inline in hn_inject(): it is paid a message */
static __always_inline int inject_route(struct hn_engine *e,
					const struct hn_msg *m, u32 *slot,
					struct hn_err *err)
{
	const struct hn_config *c = &e->cfg;
	struct hn_stream *st;
	const char *why;
	u32 s;

	if (m->src >= c->nodes || m->dst >= c->nodes)
		return fail(err, -EINVAL, "node out of range",
			    m->src >= c->nodes ? m->src : m->dst);
	if (!m->len)
		return fail(err, -EINVAL, "empty message", m->src);
	if (m->len > c->max_msg_bytes)
		return fail(err, -EMSGSIZE, "message longer than max_msg_bytes",
			    m->src);
	if (m->t_inject > e->now)
		return fail(err, -EINVAL, "injection time is in the future",
			    m->src);
	why = m->sw ? hn_flow_bad(c, m) : NULL;
	if (why)
		return fail(err, -EINVAL, why, m->src);
	if (hn_cut_off(e, m->src, m->dst))
		return fail(err, -EHOSTUNREACH,
			    "no live route to this destination: a link or switch is down",
			    m->src);
	if (hn_deadlocked(e))
		return fail(err, -EDEADLK,
			    "the fabric is deadlocked: no flit moves (hn_deadlock())",
			    m->src);
	s = hn_pcs_slot(e, m->src, m->dst);
	if (s != HN_NONE && e->topo.fault && !hn_circuit_live(e, s, m->src))
		s = HN_NONE;		/* a fault: fault.c */
	if (s != HN_NONE && m->hint == HN_HINT_WORMHOLE &&
	    !(c->policy & HN_POL_NO_W)) {
		st = hn_stream_find(e, m->src, m->dst);
		if (!st || !st->vq_pckt.count)
			s = HN_NONE;	/* the PE's hint (enum hn_hint) */
	}
	if (s == HN_NONE && (c->policy & HN_POL_NO_W) &&
	    !(c->policy & HN_POL_DYNAMIC))
		return fail(err, -EHOSTUNREACH,
			    "no circuit to this destination and no wormhole slot",
			    m->src);
	*slot = s;
	return 0;
}

int hn_inject_route(struct hn_engine *e, const struct hn_msg *m, u32 *slot,
		    struct hn_err *err)
{
	return inject_route(e, m, slot, err);
}

/*
 * A PE hands a message to its NIC (Sec. 3.3).  The NIC tags it from its
 * Predicted Circuit Switching Table (Sec. 3.4.1): a destination in the table
 * goes to that circuit's VQ_PCKT with tag 0, any other to Q_W with tag 1.
 * Under Dynamic TDM (Sec. 5.3) there is no Q_W: a message with no circuit
 * waits in its VQ_PCKT, whose being non-empty is the request R_u,v (Sec. 5.3.1).
 * A message the PE hints HN_HINT_WORMHOLE goes to Q_W whatever the table
 * says, unless the pair has messages waiting for its circuit.
 * Returns -EAGAIN, changing nothing, when the NIC buffer is full.
 */
/*
 * The longest message so far is @len bytes: which receivers are tight
 * (hn_rx_tight()) is worked out anew.  Every receiver is, when e->nev
 * such messages do not fit in a receive buffer (e->rx_thresh 0).
 */
static void len_max_grew(struct hn_engine *e, u32 len)
{
	u64 slack = (u64)e->nev * len;
	u32 u;

	e->len_max = len;
	e->rx_thresh = slack < e->cfg.rx_buf_bytes ?
		       e->cfg.rx_buf_bytes - (u32)slack : 0;
	e->rx_tight = 0;
	for (u = 0; u < e->cfg.nodes; u++)
		e->rx_tight += e->node[u].rx_used > e->rx_thresh;
}

int hn_inject(struct hn_engine *e, struct hn_msg *m, struct hn_err *err)
{
	const struct hn_config *c = &e->cfg;
	struct hn_node *n;
	struct hn_stream *st;
	bool dyn;
	u32 s;
	int rc;

	rc = inject_route(e, m, &s, err);
	if (rc)
		return rc;
	if (m->len > e->len_max)
		len_max_grew(e, m->len);
	dyn = s == HN_NONE && (c->policy & HN_POL_DYNAMIC);
	n = &e->node[m->src];
	hn_nic_release(e, m->src);
	if (n->buf_used + m->len > c->nic_buf_bytes) {
		n->st.tx_full++;
		e->g.tx_full++;
		return fail(err, -EAGAIN, "NIC buffer full", m->src);
	}
	st = hn_stream_get(e, m->src, m->dst);
	if (!st)
		return -ENOMEM;
	/* switch.c's worms for it, made now: none is missing later */
	if (e->fab && hn_sw_reserve(e, m)) {
		hn_stream_put(e, st);
		return fail(err, -ENOMEM, "no memory for the message's worms",
			    m->src);
	}
	m->sent = 0;
	m->rcvd = 0;
	m->rx_held = 0;
	m->t_ready = 0;
	m->t_deliver = 0;
	m->tag = s == HN_NONE && !dyn ? HN_MODE_WORMHOLE : HN_MODE_CIRCUIT;
	m->mode = m->tag;
	m->slot = s == HN_NONE ? c->k : s;
	n->buf_used += m->len;
	n->st.tx_msgs[m->tag]++;
	n->st.tx_bytes[m->tag] += m->len;
	e->g.tx_msgs[m->tag]++;
	e->g.tx_bytes[m->tag] += m->len;
	e->g.t_first_inject = hn_min64(e->g.t_first_inject, m->t_inject);
	e->in_msgs++;
	e->in_bytes += m->len;
	if (s != HN_NONE) {
		hn_q_push(&st->vq_pckt, m);
		e->slot[s].pending++;
		e->pending++;
		if (st->vq_pckt.count == 1) {
			hn_slot_wake(e, s, m->src);
			if (e->in_slot && e->cur == s)
				hn_circuit_arm(e, s, m->src);
		}
	} else if (dyn) {
		if (!st->vq_pckt.count)
			hn_req_add(e, st, e->now);
		hn_q_push(&st->vq_pckt, m);
		e->req_msgs++;
	} else {
		hn_q_push_prio(&n->q_w, m, false);
		st->q_w_msgs++;
		e->wh_msgs++;
		hn_nic_forward(e, m->src, e->now);
	}
	return 0;
}

/* The owner of @node's receive buffer has taken @bytes out of it. */
void hn_consume(struct hn_engine *e, u32 node, u32 bytes)
{
	struct hn_node *n;

	if (node >= e->cfg.nodes)
		return;
	n = &e->node[node];
	bytes = bytes < n->rx_used ? bytes : n->rx_used;
	hn_rx_tight(e, n->rx_used, n->rx_used - bytes);
	n->rx_used -= bytes;
}

/* Free bytes in @node's NIC buffer: a message this long is accepted. */
u32 hn_nic_room(const struct hn_engine *e, u32 node)
{
	const struct hn_node *n;
	u32 used, i;

	if (node >= e->cfg.nodes)
		return 0;
	n = &e->node[node];
	used = n->buf_used;
	for (i = 0; i < n->rel_n; i++) {
		const struct hn_rel *r = &n->rel[(n->rel_head + i) % n->rel_cap];

		if (r->t > e->now)
			break;
		used -= r->len;
	}
	return e->cfg.nic_buf_bytes - used;
}

/*
 * When @node's NIC will have room for @bytes without anything new
 * leaving it: now, when a message on the uplink has left, or HN_U64_MAX
 * (ops->room will tell).
 */
u64 hn_nic_room_at(const struct hn_engine *e, u32 node, u32 bytes)
{
	const struct hn_node *n;
	u64 room;
	u32 i;

	if (node >= e->cfg.nodes)
		return HN_U64_MAX;
	n = &e->node[node];
	room = e->cfg.nic_buf_bytes - n->buf_used;
	if (room >= bytes)
		return e->now;
	for (i = 0; i < n->rel_n; i++) {
		const struct hn_rel *r = &n->rel[(n->rel_head + i) % n->rel_cap];

		room += r->len;
		if (room >= bytes)
			return hn_max64(r->t, e->now);
	}
	return HN_U64_MAX;
}

/* After a soft end at now, the next S_W begins at once, if it may. */
static inline bool soft_begin(struct hn_engine *e, u64 n)
{
	u64 len = hn_soft_len(e);
	u32 k = e->cfg.k;

	if (!len || ((e->cfg.policy & (HN_POL_SES | HN_POL_PREEMPT)) &&
		     !e->wh_msgs))
		return false;
	e->w_skips += n;		/* each predictive slot passed over */
	e->g.cycles += n;
	e->g.slot[k].runs += n;
	e->g.slot[k].time_ns += n * len;
	e->g.slot[k].cap_bytes += n * e->w_cap;
	e->run += n;
	e->in_slot = true;
	e->now += (n - 1) * len;
	e->slot_start = e->now;
	e->slot_end = e->now + len;
	e->look_t = e->now;
	e->w_carry = false;
	if (hn_w_looks(e) || e->slot_end - e->ev_base > HN_SOFT_AHEAD)
		hn_wormhole_resume(e);
	return true;
}

/*
 * After a soft end at now, when the run goes on to @t with nothing in
 * between (no call returns), how many S_W may begin at once: up to the
 * last before the next event or @t, as those before it have no event,
 * no input that looks at their start (none looks now, none waits for a
 * receiver), and nothing of the caller, so each would begin and end with
 * nothing done (soft_begin() counts them).
 */
static u64 soft_ahead(const struct hn_engine *e, u64 t)
{
	u64 x = hn_min64(hn_ev_top(e), t), len = hn_soft_len(e);

	if (hn_w_looks(e) || !len || x == HN_U64_MAX || x <= e->now + len)
		return 1;
	return hn_div(x - e->now - 1, len) + 1;
}

/* Begin the slot that comes next at now; false when none can run. */
static bool slot_begin(struct hn_engine *e)
{
	u32 s;
	u64 len;

	if (e->w_carry) {
		if (soft_begin(e, 1))
			return true;
		hn_wormhole_harden(e);
	}
	if (e->cfg.policy & HN_POL_DYNAMIC)
		hn_dyn_schedule(e);
	s = hn_tdm_next(e);
	if (s == HN_NONE)
		return false;
	len = hn_slot_len(e, s);
	if (s <= e->cur)
		e->g.cycles++;
	e->g.slot[s].runs++;
	e->g.slot[s].time_ns += len;
	e->cur = s;
	e->run++;
	e->in_slot = true;
	e->slot_start = e->now;
	e->slot_end = e->now + len;
	e->ev_base = e->now;
	if (s < e->cfg.k) {
		hn_circuit_begin(e);
	} else {
		e->w_soft = !!hn_soft_len(e);
		hn_wormhole_begin(e);
	}
	return true;
}

/*
 * Run the slot in progress up to @t: every event at or before t, or
 * before a stop; it ends if it reaches its end.  Unless the call is to
 * run one slot (@one), the next S_W after a soft end begins at once when
 * advance() would begin it without anything in between.
 */
static void slot_run(struct hn_engine *e, u64 t, bool one)
{
	u64 lim;

	for (;;) {
		lim = hn_min64(t, e->slot_end);
		if (e->cur < e->cfg.k)
			hn_circuit_run(e, lim);
		else
			hn_wormhole_run(e, lim, !one && t > e->slot_end);
		e->now = hn_min64(lim, e->stop_at);
		if (e->now < e->slot_end)
			return;
		if (e->cur < e->cfg.k)
			hn_circuit_end(e);
		else
			hn_wormhole_end(e);
		e->in_slot = false;
		if (one || !e->w_carry || e->now >= t ||
		    e->stop_at != HN_U64_MAX || !hn_busy(e) ||
		    !soft_begin(e, soft_ahead(e, t)))
			return;
	}
}

/* Nothing queued: skip whole cycles up to @t, or idle if no slot runs. */
static bool idle_skip(struct hn_engine *e, u64 t)
{
	u64 cyc, n, lim;

	if (e->w_carry)
		hn_wormhole_harden(e);
	cyc = hn_idle_cycles(e, 0);
	lim = hn_min64(t, hn_next_timeout(e));

	if (!cyc) {
		if (lim > e->now) {
			e->g.idle_ns += lim - e->now;
			e->now = lim;
		}
		hn_tdm_next(e);		/* let time-outs due now fire */
		return true;
	}
	n = lim > e->now ? hn_div(lim - e->now, cyc) : 0;
	if (!n)
		return false;
	hn_idle_cycles(e, n);
	e->now += n * cyc;
	e->g.cycles += n;
	return true;
}

/*
 * Make everything due up to @t happen, or, with @one, at most the rest of
 * the slot in progress or else one slot.  A stop asked for by ops->room
 * ends the call at the time of the stop.
 */
static void advance(struct hn_engine *e, u64 until, bool one)
{
	u64 t;

	e->stop_at = HN_U64_MAX;
	e->work_left = e->work_max;
	for (;;) {
		/* links failing over time (fault.c): each at its time */
		if (hn_flap_due(e) <= e->now) {
			hn_flap_run(e);
			if (e->stop_at != HN_U64_MAX)
				return;		/* the call's work is spent */
		}
		t = hn_min64(until, hn_flap_due(e));
		if (e->in_slot) {
			slot_run(e, t, one);
			if (e->stop_at != HN_U64_MAX)
				return;
			if (e->in_slot && t < until)
				continue;	/* a failure or repair is due */
			if (e->in_slot || one)
				return;
		}
		if (e->now >= t) {
			if (t < until)
				continue;
			return;
		}
		if (!one && !hn_busy(e) && idle_skip(e, t)) {
			if (e->stop_at != HN_U64_MAX)
				return;
			continue;
		}
		if (!slot_begin(e)) {		/* no slot can run */
			if (hn_dyn_wait(e, t)) {	/* but the array will act */
				if (one)
					return;
				continue;
			}
			if (one)
				return;
			e->g.idle_ns += t - e->now;
			e->now = t;
			if (t == until)
				return;
		}
	}
}

/*
 * From a callback (ops->deliver, ops->room): the call in progress returns
 * at @t at the latest, so that its caller can act then.
 */
void hn_stop_at(struct hn_engine *e, u64 t)
{
	t = hn_max64(t, e->now);
	if (t < e->stop_at)
		e->stop_at = t;
}

void hn_set_work(struct hn_engine *e, u32 events)
{
	e->work_max = events;
}

/* The last call stopped because its work was spent (hn_set_work()). */
bool hn_cut(const struct hn_engine *e)
{
	return e->work_max && !e->work_left;
}

u64 hn_step_until(struct hn_engine *e, u64 t)
{
	advance(e, t, true);
	return e->now;
}

/* Give the slot in progress, or else the next slot, its time. */
u64 hn_step(struct hn_engine *e)
{
	return hn_step_until(e, HN_U64_MAX);
}

void hn_run_until(struct hn_engine *e, u64 t)
{
	advance(e, t, false);
}
