// SPDX-License-Identifier: GPL-2.0
/*
 * circuit.c - predictive circuit switching: the configuration registers
 * B^(0..K-1), preloading (Sec. 3.3.3), the greedy first-fit scheduler for
 * predicted requests (Sec. 3.3.2), release, idle time-out (L937), and the
 * data a predictive slot carries.
 *
 * Every B^(s) is a partial permutation at all times (L955): out[u] and in[v]
 * are kept as inverse maps, and a connection lives in at most one slot
 * (Table 5.1, L972: a requested connection already in B* is left alone).
 * B* = OR of the B^(s) is each NIC's Predicted Circuit Switching Table
 * (L674, L681); NIC u's row is out[s][u] over the K slots, so the table
 * costs O(N K) memory, not O(N^2).
 */
#include "engine.h"

#define HN_MAX_REQ	65536u		/* predicted requests per call */

u32 hn_pcs_slot(const struct hn_engine *e, u32 src, u32 dst)
{
	u32 s;

	if (src >= e->cfg.nodes)
		return HN_NONE;
	for (s = 0; s < e->cfg.k; s++)
		if (e->slot[s].out[src] == dst)
			return s;
	return HN_NONE;
}

u32 hn_circuit(const struct hn_engine *e, u32 slot, u32 src)
{
	if (slot >= e->cfg.k || src >= e->cfg.nodes)
		return HN_NONE;
	return e->slot[slot].out[src];
}

/* Changes whenever any B^(s) changes, for consistent dumps; never 0. */
u32 hn_circuit_gen(const struct hn_engine *e)
{
	return e->circuit_gen;
}

u32 hn_slot_conns(const struct hn_engine *e, u32 slot)
{
	return slot < e->cfg.k ? e->slot[slot].nconn : 0;
}

int hn_pcs_row(const struct hn_engine *e, u32 src, u64 *bitmap, u32 nwords)
{
	u32 s, v;

	if (src >= e->cfg.nodes || (u64)nwords * 64 < e->cfg.nodes)
		return -EINVAL;
	memset(bitmap, 0, nwords * sizeof(*bitmap));
	for (s = 0; s < e->cfg.k; s++) {
		v = e->slot[s].out[src];
		if (v != HN_NONE)
			bitmap[v / 64] |= 1ULL << (v % 64);
	}
	return 0;
}

void hn_slot_add(struct hn_engine *e, u32 s, u32 u, u32 v, u64 from)
{
	struct hn_slot *sl = &e->slot[s];

	sl->out[u] = v;
	sl->in[v] = u;
	sl->pos[u] = sl->nconn;
	sl->conn[sl->nconn++] = u;
	sl->valid_from[u] = from;
	sl->last_use[u] = from;
	e->circuit_gen = e->circuit_gen + 1 ? e->circuit_gen + 1 : 1;
	hn_req_granted(e, s, u, v);
}

/* u's circuit in slot s has data waiting: the slot must visit it. */
void hn_slot_wake(struct hn_engine *e, u32 s, u32 u)
{
	struct hn_slot *sl = &e->slot[s];

	if (sl->apos[u] != HN_NONE)
		return;
	sl->apos[u] = sl->nact;
	sl->act[sl->nact++] = u;
}

static void slot_sleep(struct hn_engine *e, u32 s, u32 u)
{
	struct hn_slot *sl = &e->slot[s];
	u32 last;

	if (sl->apos[u] == HN_NONE)
		return;
	last = sl->act[--sl->nact];
	sl->act[sl->apos[u]] = last;
	sl->apos[last] = sl->apos[u];
	sl->apos[u] = HN_NONE;
}

/*
 * With no wormhole slot (HN_POL_NO_W) a circuit's waiting data has nowhere
 * else to go, so such a circuit may not be released or replaced.
 */
static bool stranded(struct hn_engine *e, u32 s, u32 u)
{
	struct hn_stream *st;

	if (!(e->cfg.policy & HN_POL_NO_W))
		return false;
	st = hn_stream_find(e, u, e->slot[s].out[u]);
	return st && st->vq_pckt.count;
}

static const char no_w_busy[] =
	"circuit has data waiting and there is no wormhole slot";

/*
 * Remove u's circuit from slot s.  Messages still waiting for it in VQ_PCKT
 * are re-tagged wormhole and go to the tail of Q_W (note 8.10 leaves this
 * open): Q_W holds only older messages of the pair, so order is kept.
 */
void hn_slot_del(struct hn_engine *e, u32 s, u32 u)
{
	struct hn_slot *sl = &e->slot[s];
	u32 v = sl->out[u], last;
	struct hn_stream *st = hn_stream_find(e, u, v);
	struct hn_msg *m;

	while (st && (m = hn_q_pop(&st->vq_pckt))) {
		hn_q_push(&e->node[u].q_w, m);
		st->q_w_msgs++;
		sl->pending--;
		e->pending--;
		e->wh_msgs++;
		e->g.retagged++;
	}
	slot_sleep(e, s, u);
	e->circuit_gen = e->circuit_gen + 1 ? e->circuit_gen + 1 : 1;
	sl->out[u] = HN_NONE;
	sl->in[v] = HN_NONE;
	last = sl->conn[--sl->nconn];
	sl->conn[sl->pos[u]] = last;
	sl->pos[last] = sl->pos[u];
	if (st)
		hn_nic_forward(e, u, e->now);
}

int hn_release(struct hn_engine *e, u32 src, u32 dst, struct hn_err *err)
{
	u32 s;

	if (src >= e->cfg.nodes || dst >= e->cfg.nodes)
		return hn_fail(err, -EINVAL, "node out of range", HN_NONE,
			       src >= e->cfg.nodes ? src : dst, HN_NONE);
	s = hn_pcs_slot(e, src, dst);
	if (s == HN_NONE)
		return hn_fail(err, -ENOENT, "no such circuit", HN_NONE, src,
			       HN_NONE);
	if (stranded(e, s, src))
		return hn_fail(err, -EBUSY, no_w_busy, s, src, HN_NONE);
	hn_slot_del(e, s, src);
	e->g.releases++;
	return 0;
}

int hn_release_slot(struct hn_engine *e, u32 slot, struct hn_err *err)
{
	struct hn_slot *sl;
	u32 i;

	if (slot >= e->cfg.k)
		return hn_fail(err, -EINVAL, "slot out of range", slot, HN_NONE,
			       HN_NONE);
	sl = &e->slot[slot];
	for (i = 0; i < sl->nconn; i++)
		if (stranded(e, slot, sl->conn[i]))
			return hn_fail(err, -EBUSY, no_w_busy, slot, sl->conn[i],
				       HN_NONE);
	while (sl->nconn) {
		hn_slot_del(e, slot, sl->conn[sl->nconn - 1]);
		e->g.releases++;
	}
	return 0;
}

int hn_release_all(struct hn_engine *e, struct hn_err *err)
{
	u32 s, i;

	for (s = 0; s < e->cfg.k; s++)
		for (i = 0; i < e->slot[s].nconn; i++)
			if (stranded(e, s, e->slot[s].conn[i]))
				return hn_fail(err, -EBUSY, no_w_busy, s,
					       e->slot[s].conn[i], HN_NONE);
	for (s = 0; s < e->cfg.k; s++)
		hn_release_slot(e, s, NULL);
	return 0;
}

/* Idle time-out predictor (L937): drop circuits unused for the time-out. */
void hn_timeouts(struct hn_engine *e, u32 s, u64 t)
{
	struct hn_slot *sl = &e->slot[s];
	u64 to = e->cfg.idle_timeout_ns;
	struct hn_stream *st;
	u32 i, u;

	if (!to || s < e->cfg.pin_slots)	/* pinned: the preload's */
		return;
	for (i = sl->nconn; i-- > 0;) {
		u = sl->conn[i];
		if (sl->last_use[u] + to > t)
			continue;
		st = hn_stream_find(e, u, sl->out[u]);
		if (st && st->vq_pckt.count)
			continue;
		hn_slot_del(e, s, u);
		e->g.timeouts++;
	}
}

u64 hn_next_timeout(const struct hn_engine *e)
{
	u64 t = HN_U64_MAX;
	u32 s, i;

	if (!e->cfg.idle_timeout_ns)
		return t;
	for (s = e->cfg.pin_slots; s < e->cfg.k; s++)
		for (i = 0; i < e->slot[s].nconn; i++)
			t = hn_min64(t, e->slot[s].last_use[e->slot[s].conn[i]] +
				     e->cfg.idle_timeout_ns);
	return t;
}

/* Does (u, v) sit in a slot that this preload leaves alone? */
static u32 kept_slot(const struct hn_engine *e, const u8 *replaced, u32 u,
		     u32 v)
{
	u32 s = hn_pcs_slot(e, u, v);

	return s != HN_NONE && !replaced[s] ? s : HN_NONE;
}

static void clear_src(const struct hn_slot_cfg *cfg, u32 i, u32 *src_of)
{
	u32 p;

	for (p = 0; p < cfg[i].npairs; p++)
		src_of[cfg[i].pairs[p].src] = HN_NONE;
}

/* @pr, for @slot, is already in slot @other (Table 5.1). */
static int dup(struct hn_err *err, u32 slot, u32 other, u32 p,
	       const struct hn_pair *pr)
{
	if (err) {
		err->a = *pr;
		err->other = other;
	}
	return hn_fail(err, -EEXIST, "connection already in another slot", slot,
		       pr->src, p);
}

static int preload_check(struct hn_engine *e, const struct hn_slot_cfg *cfg,
			 u32 n, u8 *replaced, u32 *src_of, u32 *dst_of,
			 struct hn_err *err)
{
	u32 i, j, p, s, u, v, N = e->cfg.nodes;

	for (i = 0; i < n; i++) {
		s = cfg[i].slot;
		if (s >= e->cfg.k)
			return hn_fail(err, -EINVAL, "slot out of range", s,
				       HN_NONE, i);
		if (replaced[s])
			return hn_fail(err, -EINVAL, "slot given twice", s,
				       HN_NONE, i);
		replaced[s] = 1;
		if (cfg[i].npairs > N)
			return hn_fail(err, -E2BIG, "more pairs than nodes", s,
				       HN_NONE, i);
		for (p = 0; p < cfg[i].npairs; p++) {
			u = cfg[i].pairs[p].src;
			v = cfg[i].pairs[p].dst;
			if (u >= N || v >= N)
				return hn_fail(err, -EINVAL, "node out of range",
					       s, u >= N ? u : v, p);
		}
	}
	/* each slot must be a partial permutation (L955) */
	for (i = 0; i < n; i++) {
		const struct hn_pair *pr = cfg[i].pairs;
		int rc = 0;

		for (p = 0; p < cfg[i].npairs && !rc; p++) {
			u = pr[p].src;
			v = pr[p].dst;
			j = src_of[u] != HN_NONE ? src_of[u] : dst_of[v];
			if (j != HN_NONE) {
				rc = hn_fail(err, -EINVAL, src_of[u] != HN_NONE ?
					     "two circuits from one input" :
					     "two circuits to one output",
					     cfg[i].slot, HN_NONE, p);
				if (err) {
					err->a = pr[j];
					err->b = pr[p];
					err->pairs = true;
				}
			}
			src_of[u] = p;
			dst_of[v] = p;
		}
		for (p = 0; p < cfg[i].npairs; p++) {
			src_of[pr[p].src] = HN_NONE;
			dst_of[pr[p].dst] = HN_NONE;
		}
		if (rc)
			return rc;
	}
	/* and no connection may sit in two slots (Table 5.1) */
	for (i = 0; i < n; i++) {
		for (p = 0; p < cfg[i].npairs; p++) {
			u = cfg[i].pairs[p].src;
			v = cfg[i].pairs[p].dst;
			j = kept_slot(e, replaced, u, v);
			if (j != HN_NONE) {
				clear_src(cfg, i, src_of);
				return dup(err, cfg[i].slot, j, p, &cfg[i].pairs[p]);
			}
			src_of[u] = v;
		}
		for (j = i + 1; j < n; j++)
			for (p = 0; p < cfg[j].npairs; p++)
				if (src_of[cfg[j].pairs[p].src] ==
				    cfg[j].pairs[p].dst) {
					clear_src(cfg, i, src_of);
					return dup(err, cfg[j].slot,
						   cfg[i].slot, p,
						   &cfg[j].pairs[p]);
				}
		clear_src(cfg, i, src_of);
	}
	return 0;
}

/* Mode 3 (Sec. 3.3.3): install whole configurations, all or nothing. */
int hn_preload(struct hn_engine *e, const struct hn_slot_cfg *cfg, u32 n,
	       struct hn_err *err)
{
	u8 replaced[HN_MAX_K + 1] = { 0 };
	u32 *src_of = e->scratch, *dst_of = e->scratch + e->cfg.nodes;
	u32 i, p, s, u, v, k;
	struct hn_slot *sl;
	int rc;

	if (n > e->cfg.k)
		return hn_fail(err, -EINVAL, "more slot configurations than slots",
			       HN_NONE, HN_NONE, n);
	rc = preload_check(e, cfg, n, replaced, src_of, dst_of, err);
	if (rc)
		return rc;
	for (i = 0; i < n && (e->cfg.policy & HN_POL_NO_W); i++) {
		sl = &e->slot[cfg[i].slot];
		for (p = 0; p < cfg[i].npairs; p++)
			src_of[cfg[i].pairs[p].src] = cfg[i].pairs[p].dst;
		for (k = 0; k < sl->nconn && !rc; k++) {
			u = sl->conn[k];
			if (src_of[u] != sl->out[u] && stranded(e, cfg[i].slot, u))
				rc = hn_fail(err, -EBUSY, no_w_busy, cfg[i].slot,
					     u, HN_NONE);
		}
		for (p = 0; p < cfg[i].npairs; p++)
			src_of[cfg[i].pairs[p].src] = HN_NONE;
		if (rc)
			return rc;
	}
	for (i = 0; i < n; i++) {
		s = cfg[i].slot;
		sl = &e->slot[s];
		for (p = 0; p < cfg[i].npairs; p++)
			src_of[cfg[i].pairs[p].src] = cfg[i].pairs[p].dst;
		for (k = sl->nconn; k-- > 0;) {
			u = sl->conn[k];
			if (src_of[u] != sl->out[u])
				hn_slot_del(e, s, u);
		}
		for (p = 0; p < cfg[i].npairs; p++) {
			u = cfg[i].pairs[p].src;
			v = cfg[i].pairs[p].dst;
			src_of[u] = HN_NONE;
			if (sl->out[u] != v)
				hn_slot_add(e, s, u, v, e->now);
		}
	}
	e->g.preloads++;
	return 0;
}

/* Rotated row-major order of request @r (L1000): key for the sort. */
static u64 req_key(const struct hn_engine *e, const struct hn_pair *r)
{
	u32 N = e->cfg.nodes;

	return (u64)((r->src + N - e->rot_a) % N) * N +
	       (r->dst + N - e->rot_b) % N;
}

/* Priority order of requests @i and @j: key, then submission order. */
static bool req_after(const struct hn_engine *e, const struct hn_pair *req,
		      u32 i, u32 j)
{
	u64 ki = req_key(e, &req[i]), kj = req_key(e, &req[j]);

	return ki != kj ? ki > kj : i > j;
}

/* In-place heap sort of request indices; no recursion. */
static void sift(const struct hn_engine *e, const struct hn_pair *req,
		 u32 *idx, u32 i, u32 n)
{
	u32 c, t;

	while ((c = 2 * i + 1) < n) {
		if (c + 1 < n && req_after(e, req, idx[c + 1], idx[c]))
			c++;
		if (!req_after(e, req, idx[c], idx[i]))
			break;
		t = idx[i];
		idx[i] = idx[c];
		idx[c] = t;
		i = c;
	}
}

static void sort_requests(const struct hn_engine *e,
			  const struct hn_pair *req, u32 *idx, u32 n)
{
	u32 i, t;

	for (i = n / 2; i-- > 0;)
		sift(e, req, idx, i, n);
	for (i = n; i-- > 1;) {
		t = idx[0];
		idx[0] = idx[i];
		idx[i] = t;
		sift(e, req, idx, 0, i);
	}
}

/*
 * Mode 2 (Sec. 3.3.2): schedule predicted requests first fit from slot 0
 * (pin_slots when slots are pinned for a preload, Fig. 5.6 L1065)
 * to K-1 (L685, L734), taking requests in the rotated priority order of
 * L1000 (equal keys keep their order: the index breaks ties).  A granted
 * circuit is usable once the request, the scheduler and the grant have
 * crossed: wire + sched + wire + setup (Ch. 5: 80 + 80 + 80 ns, L1036).
 */
int hn_predict(struct hn_engine *e, const struct hn_pair *req, u32 n,
	       struct hn_grant *out, struct hn_err *err)
{
	const struct hn_config *c = &e->cfg;
	u64 from = e->now + 2ULL * c->wire_ns + c->sched_ns + c->setup_ns;
	struct hn_pair first = { HN_NONE, HN_NONE };
	u32 i, s, u, v, *idx;
	int rc = 0;

	if (n > HN_MAX_REQ)
		return hn_fail(err, -E2BIG, "too many requests", HN_NONE,
			       HN_NONE, n);
	for (i = 0; i < n; i++)
		if (req[i].src >= c->nodes || req[i].dst >= c->nodes)
			return hn_fail(err, -EINVAL, "node out of range",
				       HN_NONE, req[i].src >= c->nodes ?
				       req[i].src : req[i].dst, i);
	if (!n)
		return 0;
	idx = hn_zalloc(n * sizeof(*idx));
	if (!idx)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		idx[i] = i;
		out[i].src = req[i].src;
		out[i].dst = req[i].dst;
		out[i].slot = HN_NONE;
		out[i].result = 0xff;	/* pending */
	}
	sort_requests(e, req, idx, n);
	if (c->predict_algo == HN_PREDICT_KSTEP)
		rc = hn_predict_kstep(e, req, idx, n, out, from, &first, err);
	for (i = 0; i < n && !rc; i++) {
		struct hn_grant *g = &out[idx[i]];

		if (g->result != 0xff)
			continue;
		u = g->src;
		v = g->dst;
		g->slot = hn_pcs_slot(e, u, v);
		if (g->slot != HN_NONE) {
			g->result = HN_EXISTS;
			e->g.exists++;
			continue;
		}
		/* first fit; after K-step, only what it could not place */
		for (s = c->pin_slots; s < c->k &&
		     c->predict_algo == HN_PREDICT_FIRST_FIT; s++)
			if (e->slot[s].out[u] == HN_NONE &&
			    e->slot[s].in[v] == HN_NONE)
				break;
		if (s < c->k && c->predict_algo == HN_PREDICT_FIRST_FIT) {
			hn_slot_add(e, s, u, v, from);
			g->slot = s;
			g->result = HN_GRANTED;
			e->g.grants++;
			if (first.src == HN_NONE)
				first = req[idx[i]];
		} else {
			g->result = HN_REFUSED;
			e->g.refusals++;
		}
	}
	hn_free(idx);
	if (rc)
		return rc;
	/*
	 * Round robin (L1000): the priority pointers move one past the first
	 * request granted, as iSLIP's do, so contenders alternate; one step
	 * on when nothing was granted.
	 */
	if (first.src == HN_NONE) {
		first.src = e->rot_a;
		first.dst = e->rot_b;
	}
	e->rot_a = (first.src + 1) % c->nodes;
	e->rot_b = (first.dst + 1) % c->nodes;
	return 0;
}

/*
 * A predictive slot [start, start + len): every NIC whose circuit is in
 * B^(s) sends from that circuit's VQ_PCKT (L616) after the guard band,
 * messages spanning slots as needed (L1046).  Only circuits with data
 * waiting are visited, so a slot costs O(active connections).
 */
void hn_circuit_slot(struct hn_engine *e, u32 s, u64 start, u64 len)
{
	const struct hn_config *c = &e->cfg;
	struct hn_slot *sl = &e->slot[s];
	u64 cap = hn_ns_bytes(c, len - c->guard_ns);
	u64 lat = 2ULL * c->nic_ns + 2ULL * c->wire_ns + c->fabric_ns;
	struct hn_stream *st;
	struct hn_msg *m;
	u64 left, x;
	u32 i, u;

	/* backwards: slot_sleep() moves the last entry into this place */
	for (i = sl->nact; i-- > 0;) {
		u = sl->act[i];
		if (sl->valid_from[u] > start)
			continue;
		st = hn_stream_find(e, u, sl->out[u]);
		if (st->q_w_msgs || st->vq_w.count)
			continue;	/* older messages still on the wormhole */
		left = cap;
		while (left && (m = st->vq_pckt.head) && hn_rx_reserve(e, m)) {
			x = hn_min64(m->len - m->sent, left);
			m->sent += x;
			left -= x;
			if (m->sent < m->len)
				break;
			hn_q_pop(&st->vq_pckt);
			sl->pending--;
			e->pending--;
			e->node[u].buf_used -= m->len;
			hn_deliver(e, m, start + c->guard_ns +
				   hn_bytes_ns(c, cap - left) + lat,
				   HN_MODE_CIRCUIT, s);
		}
		if (left < cap) {
			sl->last_use[u] = start;
			e->g.slot[s].bytes += cap - left;
		}
		if (!st->vq_pckt.count) {
			slot_sleep(e, s, u);
			hn_stream_put(e, st);
		}
	}
	e->g.slot[s].cap_bytes += cap * c->nodes;
}
