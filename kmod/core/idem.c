// SPDX-License-Identifier: GPL-2.0
/*
 * idem.c - Woods-Corwin's idempotent protocol in the NICs [W:393-403,
 * W:709-713, W:759-761]: every message a client sends is delivered to its
 * destination's client once, in its (source, destination) pair's order,
 * whatever the fabric loses or corrupts, or given back as given up
 * (docs/model.md "Exactly once").
 *
 * - The sender gives each MSG the pair's next tag ("sequential, similar
 *   to TCP", [W:403]) when it first goes, keeps it until its ACK comes
 *   and sends it again when its timer runs out, at most retry_max times;
 *   then it gives the message back to its client (-ETIMEDOUT).  At most
 *   `window` MSGs of a node await their ACK ("as many as it has timer
 *   resources").
 * - The receiver takes a MSG whose tag it has not seen and hands the
 *   client its MSGs in tag order, holding one that came early; it
 *   replies ACK to a MSG once it has delivered it (so an ACK means
 *   "delivered", and a sender never forgets a MSG that could still be
 *   lost in a receiver's hold), and keeps a record of it, with a timer
 *   that sends the ACK again, until ACK2 comes (then it "can forget
 *   about the message").  A copy of a MSG taken already (a tag below
 *   the next one it expects, or one it holds a record of) is a
 *   duplicate: suppressed, answered with its ACK if it was delivered
 *   and its record lives.  A MSG held past retry_max timeouts for a gap
 *   is delivered over it (gaps_passed): its sender has given the gap up.
 * - The sender answers every ACK with ACK2, one for a MSG it has forgotten
 *   too: its first ACK2 may have been lost.
 * - Each MSG carries the lowest tag its sender still awaits an ACK for
 *   (ours): tags below it that never came were given up, and the receiver
 *   passes over them instead of waiting for ever.
 * - A node offers its NIC the ACK2s that wait first, then ACKs, then MSGs
 *   sent again, then new ones ("later stage messages are sent first",
 *   [W:759]), in its queue's order, until the NIC is full.
 * - The receiving NIC checks each copy's CRC-32 [W:289-291] and discards
 *   it on a mismatch, so that the sender's timer sends it again.
 *
 * Injectors (ours, seeded): a copy of each kind is lost with its
 * probability as it arrives, having crossed the fabric; a copy of F flits
 * is corrupted with probability 1 - (1 - flip)^F, one bit of it at a
 * random place (a CRC-32 catches every error of up to three bits at these
 * lengths, so the count beyond one would change nothing).  With the
 * client's payload (struct hn_idem_ops.payload) the receiver computes the
 * CRC-32 of the bytes as they arrived; without it, a flip is caught.
 *
 * Virtual nodes share memory, so a copy carries no bytes: the client's
 * message stays in its sender's record until a copy of it is taken, then
 * in its receiver's until its turn.  Every copy's receive space goes back
 * to the fabric as it arrives (hn_consume()): a receiver holding messages
 * for their turn must still take the one they wait for.
 */
#include "idem.h"
#include "crc.h"

#define HN_IDEM_PPM	1000000u

enum { Q_ACK2, Q_ACK, Q_MSG, Q_NEW, NQ };	/* a node's queues, in order */
enum { T_TX, T_RX };				/* the timer queues */

struct ipair;

/* A MSG's record at its sender (tx) or its receiver (rx) */
struct ient {
	struct ient *next;		/* in its pair's list, by tag */
	struct ient *tprev, *tnext;	/* in its timer queue */
	u64 due;
	struct ipair *p;
	struct hn_msg *m;		/* the client's, while this holds it */
	struct ient *spare;		/* tx: the receiver's record, unused */
	u32 seq, len, crc, resends;
	u8 owner, prio, hint, sw;	/* the client's message's */
	u8 timed;			/* in its timer queue */
	u8 queued;			/* a copy of it waits for its NIC */
	u8 done;			/* rx: ACK2 came, or its ACKs gave up */
};

struct ipair {
	struct ipair *hnext;
	u32 src, dst;
	u32 next_seq;			/* the sender's next tag */
	u32 expect;			/* the receiver's next tag to deliver */
	struct ient *tx, *rx;		/* by tag */
};

/* A copy on the wire, or waiting for its NIC */
struct iwire {
	struct hn_msg m;		/* first: the engine sees only this */
	struct iwire *next;
	struct ipair *p;
	struct ient *tx;		/* a new MSG's record, until it goes */
	u32 seq, base, len0, crc;
	u8 kind, owner;
};

struct iq {
	struct iwire *head, *tail;
};

struct itimers {
	struct ient *head, *tail;
};

struct hn_idem {
	struct hn_engine *e;
	bool own_engine;		/* hn_idem_create()'s, not attached */
	u8 owner;			/* struct hn_msg.owner of its copies */
	struct hn_idem_cfg cfg;
	const struct hn_idem_ops *ops;
	void *ctx;
	u32 nodes, flit_bytes, max_msg;
	u64 rng;
	struct ipair **hash;
	u32 hmask;
	u64 npairs;
	struct iq *q;			/* [node * NQ + queue] */
	u64 *busy;			/* nodes with a copy waiting */
	u32 *outstanding;		/* per node: MSGs awaiting their ACK */
	u32 *records;			/* per node: its receiver's records */
	struct itimers tmr[2];
	struct iwire *spare;		/* copies for reuse */
	struct hn_idem_stats st;
};

static bool seq_before(u32 a, u32 b)
{
	return (s32)(a - b) < 0;
}

void hn_idem_cfg_default(struct hn_idem_cfg *ic)
{
	memset(ic, 0, sizeof(*ic));
	ic->timeout_ns = 100000;
	ic->retry_max = 20000;		/* "a few tens of thousands" [W:713] */
	ic->reply_ppm = 200000;		/* 20 % of the MSG [W:892] */
	ic->seed = 1;
}

/* The settings of the device's protocol: struct hn_config's */
void hn_idem_cfg_of(const struct hn_config *c, struct hn_idem_cfg *ic)
{
	u32 k;

	hn_idem_cfg_default(ic);
	ic->timeout_ns = c->idem_timeout_ns;
	ic->retry_max = c->idem_retry_max;
	for (k = 0; k < HN_IDEM_KINDS; k++)
		ic->loss_ppm[k] = c->loss_ppm;
	ic->flip_ppm = c->flip_ppm;
}

static int fail(struct hn_err *err, const char *msg)
{
	return hn_fail(err, -EINVAL, msg, HN_NONE, HN_NONE, HN_NONE);
}

int hn_idem_cfg_check(const struct hn_idem_cfg *ic, struct hn_err *err)
{
	u32 k, lossy = ic->flip_ppm;

	for (k = 0; k < HN_IDEM_KINDS; k++) {
		if (ic->loss_ppm[k] > HN_IDEM_PPM)
			return fail(err, "a loss probability is at most 1");
		lossy |= ic->loss_ppm[k];
	}
	if (ic->flip_ppm > HN_IDEM_PPM)
		return fail(err, "a bit flip's probability is at most 1 a flit");
	if (ic->reply_ppm > HN_IDEM_PPM)
		return fail(err, "a reply is at most as long as its MSG");
	for (k = 0; k < HN_IDEM_KINDS; k++)
		if (ic->prio[k] > 15)
			return fail(err, "a priority is 0..15");
	if (lossy && !ic->timeout_ns)
		return fail(err, "a fabric that loses messages needs a timeout to send them again");
	if (ic->table && !ic->timeout_ns)
		return fail(err, "a bounded table drops MSGs: they need a timeout to go again");
	return 0;
}

/* The pair's record, made on its first message; NULL without memory */
static struct ipair *pair_get(struct hn_idem *x, u32 src, u32 dst)
{
	u32 h = (src * 0x9e3779b1u ^ dst * 0x85ebca6bu) & x->hmask, i;
	struct ipair *p, **nh, *next;

	for (p = x->hash[h]; p; p = p->hnext)
		if (p->src == src && p->dst == dst)
			return p;
	if (x->npairs > x->hmask) {	/* grow: at most one pair a bucket */
		nh = hn_zalloc(2 * ((size_t)x->hmask + 1) * sizeof(*nh));
		if (!nh)
			return NULL;
		for (i = 0; i <= x->hmask; i++)
			for (p = x->hash[i]; p; p = next) {
				next = p->hnext;
				h = (p->src * 0x9e3779b1u ^ p->dst * 0x85ebca6bu) &
				    (2 * x->hmask + 1);
				p->hnext = nh[h];
				nh[h] = p;
			}
		hn_free(x->hash);
		x->hash = nh;
		x->hmask = 2 * x->hmask + 1;
		h = (src * 0x9e3779b1u ^ dst * 0x85ebca6bu) & x->hmask;
	}
	p = hn_zalloc(sizeof(*p));
	if (!p)
		return NULL;
	p->src = src;
	p->dst = dst;
	p->hnext = x->hash[h];
	x->hash[h] = p;
	x->npairs++;
	return p;
}

static struct ient *ent_find(struct ient *l, u32 seq)
{
	for (; l && seq_before(l->seq, seq); l = l->next)
		;
	return l && l->seq == seq ? l : NULL;
}

static void ent_insert(struct ient **l, struct ient *n)
{
	while (*l && seq_before((*l)->seq, n->seq))
		l = &(*l)->next;
	n->next = *l;
	*l = n;
}

static void ent_unlink(struct ient **l, struct ient *n)
{
	while (*l != n)
		l = &(*l)->next;
	*l = n->next;
}

static void timer_stop(struct hn_idem *x, u32 k, struct ient *n)
{
	struct itimers *t = &x->tmr[k];

	if (!n->timed)
		return;
	if (n->tprev)
		n->tprev->tnext = n->tnext;
	else
		t->head = n->tnext;
	if (n->tnext)
		n->tnext->tprev = n->tprev;
	else
		t->tail = n->tprev;
	n->timed = 0;
}

/* One timeout for all: a timer started now is the last to run out. */
static void timer_start(struct hn_idem *x, u32 k, struct ient *n)
{
	struct itimers *t = &x->tmr[k];

	timer_stop(x, k, n);
	if (!x->cfg.timeout_ns)
		return;
	n->due = hn_now(x->e) + x->cfg.timeout_ns;
	n->tprev = t->tail;
	n->tnext = NULL;
	if (t->tail)
		t->tail->tnext = n;
	else
		t->head = n;
	t->tail = n;
	n->timed = 1;
}

static void tx_free(struct hn_idem *x, struct ient *t)
{
	timer_stop(x, T_TX, t);
	ent_unlink(&t->p->tx, t);
	x->outstanding[t->p->src]--;
	x->st.send_state_entries--;
	hn_free(t->spare);
	hn_free(t);
}

static void rx_free(struct hn_idem *x, struct ient *r)
{
	timer_stop(x, T_RX, r);
	ent_unlink(&r->p->rx, r);
	x->records[r->p->dst]--;
	x->st.recv_state_entries--;
	hn_free(r);
}

static struct iwire *wire_get(struct hn_idem *x)
{
	struct iwire *w = x->spare;

	if (!w)
		return hn_zalloc(sizeof(*w));
	x->spare = w->next;
	memset(w, 0, sizeof(*w));
	return w;
}

static void wire_put(struct hn_idem *x, struct iwire *w)
{
	w->next = x->spare;
	x->spare = w;
}

static void push(struct hn_idem *x, u32 u, u32 qi, struct iwire *w)
{
	struct iq *q = &x->q[(u64)u * NQ + qi];

	w->next = NULL;
	if (q->tail)
		q->tail->next = w;
	else
		q->head = w;
	q->tail = w;
	x->busy[u / 64] |= 1ULL << (u % 64);
	x->st.waiting++;
}

static u32 reply_len(const struct hn_idem *x, u32 len0)
{
	return (u32)hn_max64(1, ((u64)len0 * x->cfg.reply_ppm +
				 HN_IDEM_PPM / 2) / HN_IDEM_PPM);
}

/*
 * A copy of @kind of @n's MSG, to wait for its NIC; false without memory.
 * MSGs and ACKs are sent once a queue: a copy waiting is enough.
 */
static bool queue_copy(struct hn_idem *x, u32 kind, struct ient *n)
{
	static const u8 qi[HN_IDEM_KINDS] = { Q_MSG, Q_ACK, Q_ACK2 };
	struct ipair *p = n->p;
	struct iwire *w;

	if (n->queued)
		return true;
	w = wire_get(x);
	if (!w)
		return false;
	w->kind = (u8)kind;
	w->p = p;
	w->seq = n->seq;
	w->len0 = n->len;
	w->crc = n->crc;
	w->owner = n->owner;
	n->queued = kind != HN_IDEM_ACK2;
	push(x, kind == HN_IDEM_ACK ? p->dst : p->src, qi[kind], w);
	return true;
}

/* ACK2 for @seq of @p: from a record of the sender's or a forgotten MSG's */
static void queue_ack2(struct hn_idem *x, struct ipair *p, u32 seq, u32 len0,
		       u8 owner)
{
	struct ient n = { .p = p, .seq = seq, .len = len0, .owner = owner };

	if (!queue_copy(x, HN_IDEM_ACK2, &n))
		x->st.refused++;	/* the receiver's ACK timer asks again */
}

int hn_idem_send(struct hn_idem *x, struct hn_msg *m)
{
	const u8 *pl;
	struct ipair *p;
	struct iwire *w;
	struct ient *t;

	if (m->src >= x->nodes || m->dst >= x->nodes || !m->len ||
	    m->len > x->max_msg || m->prio > 15 ||
	    (m->sw && hn_flow_bad(hn_cfg(x->e), m)))
		return -EINVAL;
	p = pair_get(x, m->src, m->dst);
	w = p ? wire_get(x) : NULL;
	t = w ? hn_zalloc(sizeof(*t)) : NULL;
	if (t)
		t->spare = hn_zalloc(sizeof(*t));
	if (!t || !t->spare) {
		if (t)
			hn_free(t);
		if (w)
			wire_put(x, w);
		return -ENOMEM;
	}
	pl = x->ops->payload ? x->ops->payload(x->ctx, m) : NULL;
	t->p = p;
	t->m = m;
	t->len = m->len;
	t->owner = m->owner;
	t->prio = m->prio;
	t->hint = m->hint;
	t->sw = m->sw;
	t->crc = pl ? hn_crc32(0, pl, m->len) : 0;
	w->kind = HN_IDEM_MSG;
	w->p = p;
	w->tx = t;
	push(x, m->src, Q_NEW, w);
	return 0;
}

/* Is @w still wanted?  Its MSG may have been acknowledged meanwhile. */
static bool wanted(struct iwire *w, struct ient **n)
{
	*n = NULL;
	if (w->tx || w->kind == HN_IDEM_ACK2)
		return true;
	*n = ent_find(w->kind == HN_IDEM_MSG ? w->p->tx : w->p->rx, w->seq);
	if (*n)
		(*n)->queued = 0;
	return *n && !(*n)->done;
}

/* Hands @w to its NIC: 0, -EAGAIN when it is full, or a refusal. */
static int put_on_wire(struct hn_idem *x, struct iwire *w, struct ient *n,
		       u64 now)
{
	struct ipair *p = w->p;
	struct hn_msg *m = &w->m;
	struct ient *t = w->tx;

	if (w->kind == HN_IDEM_MSG) {
		m->src = p->src;
		m->dst = p->dst;
		if (t) {		/* a new MSG: its tag now */
			w->seq = p->next_seq;
			w->len0 = t->len;
			w->crc = t->crc;
			w->owner = t->owner;
		}
		w->base = p->tx ? p->tx->seq : w->seq;
		m->len = w->len0;
		n = t ? t : n;
		m->prio = n->prio;
		m->hint = n->hint;
		m->sw = n->sw;
	} else {
		m->src = w->kind == HN_IDEM_ACK ? p->dst : p->src;
		m->dst = w->kind == HN_IDEM_ACK ? p->src : p->dst;
		m->len = reply_len(x, w->len0);
		m->prio = x->cfg.prio[w->kind];
	}
	m->owner = x->owner;
	m->t_inject = now;
	m->tries = 0;
	return hn_inject(x->e, m, NULL);
}

/* @w has gone (@rc 0) or was refused: its record and timer follow. */
static void sent(struct hn_idem *x, struct iwire *w, struct ient *n, int rc)
{
	struct ient *t = w->tx;
	struct ipair *p = w->p;

	if (t) {			/* a new MSG's record begins */
		w->tx = NULL;
		t->seq = p->next_seq++;
		ent_insert(&p->tx, t);
		x->outstanding[p->src]++;
		x->st.send_state_entries++;
		n = t;
	}
	if (rc) {
		x->st.refused++;	/* as if lost: its timer sends it again */
		wire_put(x, w);
	} else {
		x->st.tx[w->kind]++;
	}
	if (n)
		timer_start(x, w->kind == HN_IDEM_MSG ? T_TX : T_RX, n);
}

/* @u's NIC takes what waits, in order, until it is full. */
static void offer_node(struct hn_idem *x, u32 u, u64 now)
{
	struct iq *q = &x->q[(u64)u * NQ];
	struct iwire *w;
	struct ient *n;
	u32 qi;
	int rc;

	for (qi = 0; qi < NQ; qi++) {
		while ((w = q[qi].head)) {
			if (qi == Q_NEW && x->cfg.window &&
			    x->outstanding[u] >= x->cfg.window)
				return;
			if (!wanted(w, &n)) {
				rc = 1;		/* dropped unsent */
			} else {
				rc = put_on_wire(x, w, n, now);
				if (rc == -EAGAIN) {
					if (n && w->kind != HN_IDEM_ACK2)
						n->queued = 1;
					return;
				}
			}
			q[qi].head = w->next;
			if (!q[qi].head)
				q[qi].tail = NULL;
			x->st.waiting--;
			if (rc == 1)
				wire_put(x, w);
			else
				sent(x, w, n, rc);
		}
	}
	x->busy[u / 64] &= ~(1ULL << (u % 64));
}

static void offer(struct hn_idem *x)
{
	u64 now = hn_now(x->e), bits;
	u32 i, u;

	for (i = 0; i < (x->nodes + 63) / 64; i++) {
		bits = x->busy[i];
		while (bits) {
			u = i * 64 + hn_ctz64(bits);
			bits &= bits - 1;
			offer_node(x, u, now);
		}
	}
}

/* The receiver hands the client @r's MSG: its turn has come. */
/*
 * The receiver hands the client @r's MSG, its turn come, and only now
 * acknowledges it: an ACK says "delivered", so its sender may forget it.
 */
static void deliver_one(struct hn_idem *x, struct ipair *p, struct ient *r)
{
	struct hn_msg *m = r->m;

	r->m = NULL;
	r->resends = 0;
	p->expect++;
	timer_stop(x, T_RX, r);		/* its hold timer */
	if (!queue_copy(x, HN_IDEM_ACK, r))
		timer_start(x, T_RX, r);	/* no memory: its timer asks */
	x->st.delivered++;
	x->ops->deliver(x->ctx, m);
}

static void release(struct hn_idem *x, struct ipair *p)
{
	struct ient *r;

	while ((r = ent_find(p->rx, p->expect)) && r->m)
		deliver_one(x, p, r);
}

/* Tags below @base were given up by their sender: pass over the gaps. */
static void advance(struct hn_idem *x, struct ipair *p, u32 base)
{
	struct ient *r;

	while (seq_before(p->expect, base)) {
		r = ent_find(p->rx, p->expect);
		if (r && r->m)
			deliver_one(x, p, r);
		else
			p->expect++;
	}
}

/* Does the receiver hold a MSG of @p for its turn? */
static bool held(const struct ipair *p)
{
	const struct ient *r;

	for (r = p->rx; r; r = r->next)
		if (r->m)
			return true;
	return false;
}

static u32 msg_in(struct hn_idem *x, struct iwire *w)
{
	struct ipair *p = w->p;
	struct ient *r, *t;

	if (seq_before(p->expect, w->base))
		advance(x, p, w->base);
	r = ent_find(p->rx, w->seq);
	if (r || seq_before(w->seq, p->expect)) {
		/* delivered, not yet freed by ACK2: its ACK again */
		x->st.dups_suppressed++;
		if (r && !r->m && !r->done && !queue_copy(x, HN_IDEM_ACK, r))
			x->st.refused++;
		return HN_IDEM_DUP;
	}
	t = ent_find(p->tx, w->seq);
	if (!t || !t->m) {
		x->st.stale++;
		return HN_IDEM_STALE;
	}
	/*
	 * A bounded table [W:407-411]: a new MSG that finds it full is
	 * dropped unacknowledged, and its sender's timer sends it again;
	 * but one whose turn has come while its pair's later MSGs wait for
	 * it in the table is taken (ours: the in-order hold), or they would
	 * hold its place for ever.
	 */
	if (x->cfg.table && x->records[p->dst] >= x->cfg.table &&
	    !(w->seq == p->expect && held(p))) {
		x->st.table_full++;
		return HN_IDEM_FULL;
	}
	r = t->spare;
	t->spare = NULL;
	r->p = p;
	r->seq = t->seq;
	r->len = t->len;
	r->owner = t->owner;
	r->m = t->m;
	t->m = NULL;
	r->m->t_deliver = w->m.t_deliver;
	r->m->mode = w->m.mode;
	r->m->tag = w->m.tag;
	r->m->slot = w->m.slot;
	r->m->tries = w->m.tries;
	ent_insert(&p->rx, r);
	x->records[p->dst]++;
	x->st.recv_state_entries++;
	timer_start(x, T_RX, r);	/* held: its hold timer */
	release(x, p);
	return HN_IDEM_TAKEN;
}

static u32 ack_in(struct hn_idem *x, struct iwire *w)
{
	struct ient *t = ent_find(w->p->tx, w->seq);
	bool first = t && !t->m;	/* its MSG was taken: it can go */

	if (first)
		tx_free(x, t);
	queue_ack2(x, w->p, w->seq, w->len0, w->owner);
	return first ? HN_IDEM_TAKEN : HN_IDEM_DUP;
}

static u32 ack2_in(struct hn_idem *x, struct iwire *w)
{
	struct ient *r = ent_find(w->p->rx, w->seq);

	if (!r || r->done)
		return HN_IDEM_DUP;
	timer_stop(x, T_RX, r);
	r->done = 1;
	if (!r->m)
		rx_free(x, r);
	return HN_IDEM_TAKEN;
}

/* (1 - @ppm / 10^6)^@n in units of 2^-32 */
static u64 clean_q32(u32 ppm, u32 n)
{
	u64 b = (1ULL << 32) - (((u64)ppm << 32) + HN_IDEM_PPM / 2) /
			       HN_IDEM_PPM, r = 1ULL << 32;

	for (; n; n >>= 1) {
		if (n & 1)
			r = (r * b) >> 32;
		b = (b * b) >> 32;
	}
	return r;
}

/* Did the injector flip a bit of @w, and did the CRC-32 see it? */
static bool corrupt(struct hn_idem *x, struct iwire *w)
{
	u32 len = w->m.len, flits = (len + x->flit_bytes - 1) / x->flit_bytes;
	u32 bit, at, crc;
	struct ient *t;
	const u8 *pl;
	u8 b;

	if (!x->cfg.flip_ppm ||
	    hn_rand(&x->rng) >> 32 < clean_q32(x->cfg.flip_ppm, flits))
		return false;
	bit = hn_rand_below(&x->rng, len * 8);
	t = w->kind == HN_IDEM_MSG ? ent_find(w->p->tx, w->seq) : NULL;
	pl = t && t->m && x->ops->payload ? x->ops->payload(x->ctx, t->m) :
	     NULL;
	if (!pl)
		return true;	/* no bytes at hand: a flip shows */
	at = bit / 8;
	b = pl[at] ^ (u8)(1u << (bit % 8));
	crc = hn_crc32(0, pl, at);
	crc = hn_crc32(crc, &b, 1);
	crc = hn_crc32(crc, pl + at + 1, len - at - 1);
	return crc != w->crc;
}

/* The engine delivered a copy: the receiving NIC's part. */
void hn_idem_arrived(struct hn_idem *x, struct hn_msg *m)
{
	struct iwire *w = (struct iwire *)m;
	u32 fate, k = w->kind;
	int sw;

	hn_consume(x->e, m->dst, m->len);
	x->st.arrived[k]++;
	x->st.attempts[k] += m->tries;
	sw = k == HN_IDEM_MSG ? hn_route_switches(x->e, m->src, m->dst) : 0;
	if (sw > 0)		/* its route now, as hnsim idem's E counts */
		x->st.msg_switches += sw;
	if (x->cfg.loss_ppm[k] &&
	    hn_rand_below(&x->rng, HN_IDEM_PPM) < x->cfg.loss_ppm[k]) {
		x->st.lost[k]++;
		fate = HN_IDEM_LOST;
	} else if (corrupt(x, w)) {
		x->st.crc_fail++;
		fate = HN_IDEM_CORRUPT;
	} else if (k == HN_IDEM_MSG) {
		fate = msg_in(x, w);
	} else if (k == HN_IDEM_ACK) {
		fate = ack_in(x, w);
	} else {
		fate = ack2_in(x, w);
	}
	if (x->ops->arrive)
		x->ops->arrive(x->ctx, m, k, w->owner, fate);
	wire_put(x, w);
}

void hn_idem_reclaimed(struct hn_idem *x, struct hn_msg *m)
{
	wire_put(x, (struct iwire *)m);
}

static void arrived(void *ctx, struct hn_msg *m)
{
	hn_idem_arrived(ctx, m);
}

static void reclaimed(void *ctx, struct hn_msg *m)
{
	hn_idem_reclaimed(ctx, m);
}

static const struct hn_ops idem_engine_ops = {
	.deliver = arrived,
	.reclaim = reclaimed,
};

/* A record's timer ran out: a copy again, or, past retry_max, give up. */
static void expired(struct hn_idem *x, u32 k, struct ient *n)
{
	u32 src = n->p->src, dst = n->p->dst;
	struct hn_msg *m = n->m;

	if (k == T_RX && m) {
		/* held for its turn: wait again, or pass over the gap */
		if (n->resends++ < x->cfg.retry_max) {
			timer_start(x, T_RX, n);
			return;
		}
		x->st.gaps_passed++;
		advance(x, n->p, n->seq);
		release(x, n->p);
	} else if (n->resends < x->cfg.retry_max) {
		n->resends++;
		x->st.resends[k]++;
		if (!queue_copy(x, k == T_TX ? HN_IDEM_MSG : HN_IDEM_ACK, n)) {
			x->st.refused++;
			timer_start(x, k, n);
		}
	} else if (k == T_TX) {
		n->m = NULL;
		tx_free(x, n);
		x->st.retries_exhausted++;
		x->ops->give_up(x->ctx, m, src, dst, -ETIMEDOUT);
	} else {
		x->st.acks_exhausted++;
		rx_free(x, n);
	}
}

/* Timers that ran out send again or give up; then the NICs take copies. */
void hn_idem_tick(struct hn_idem *x)
{
	u64 now = hn_now(x->e);
	struct ient *n;
	u32 k;

	for (k = T_TX; k <= T_RX; k++)
		while ((n = x->tmr[k].head) && n->due <= now) {
			timer_stop(x, k, n);
			expired(x, k, n);
		}
	offer(x);
}

struct hn_engine *hn_idem_engine(const struct hn_idem *x)
{
	return x->e;
}

bool hn_idem_busy(const struct hn_idem *x)
{
	return x->st.send_state_entries || x->st.recv_state_entries ||
	       x->st.waiting;
}

u64 hn_idem_due(const struct hn_idem *x)
{
	u64 t = HN_U64_MAX;
	u32 k;

	for (k = T_TX; k <= T_RX; k++)
		if (x->tmr[k].head)
			t = hn_min64(t, x->tmr[k].head->due);
	return t;
}

void hn_idem_stats(const struct hn_idem *x, struct hn_idem_stats *s)
{
	*s = x->st;
}

const struct hn_idem_stats *hn_idem_counters(const struct hn_idem *x)
{
	return &x->st;
}

/* The counters from now on; the gauges stay */
void hn_idem_stats_reset(struct hn_idem *x)
{
	struct hn_idem_stats g = x->st;

	memset(&x->st, 0, sizeof(x->st));
	x->st.send_state_entries = g.send_state_entries;
	x->st.recv_state_entries = g.recv_state_entries;
	x->st.waiting = g.waiting;
}

static struct hn_idem *layer_new(const struct hn_config *c,
				 const struct hn_idem_cfg *ic,
				 const struct hn_idem_ops *ops, void *ctx,
				 int *rc)
{
	struct hn_idem *x;

	*rc = -EINVAL;
	if (!ops || !ops->deliver || !ops->give_up || !ops->reclaim ||
	    hn_idem_cfg_check(ic, NULL))
		return NULL;
	*rc = -ENOMEM;
	x = hn_zalloc(sizeof(*x));
	if (!x)
		return NULL;
	x->cfg = *ic;
	x->ops = ops;
	x->ctx = ctx;
	x->nodes = c->nodes;
	x->flit_bytes = c->flit_bytes ? c->flit_bytes : 1;
	x->max_msg = c->max_msg_bytes;
	x->rng = ic->seed;
	x->hmask = 63;
	x->hash = hn_zalloc(64 * sizeof(*x->hash));
	x->q = hn_zalloc((size_t)c->nodes * NQ * sizeof(*x->q));
	x->busy = hn_zalloc((c->nodes + 63) / 64 * sizeof(*x->busy));
	x->outstanding = hn_zalloc((size_t)c->nodes *
				   sizeof(*x->outstanding));
	x->records = hn_zalloc((size_t)c->nodes * sizeof(*x->records));
	if (!x->hash || !x->q || !x->busy || !x->outstanding || !x->records) {
		hn_idem_destroy(x);
		return NULL;
	}
	*rc = 0;
	return x;
}

struct hn_idem *hn_idem_create(const struct hn_config *c,
			       const struct hn_idem_cfg *ic,
			       const struct hn_idem_ops *ops, void *ctx,
			       int *rc)
{
	struct hn_idem *x;

	*rc = hn_config_check(c, NULL);
	x = *rc ? NULL : layer_new(c, ic, ops, ctx, rc);
	if (!x)
		return NULL;
	x->own_engine = true;
	x->e = hn_create(c, &idem_engine_ops, x, rc);
	if (!x->e) {
		hn_idem_destroy(x);
		return NULL;
	}
	return x;
}

struct hn_idem *hn_idem_attach(struct hn_engine *e,
			       const struct hn_idem_cfg *ic,
			       const struct hn_idem_ops *ops, void *ctx,
			       u8 owner, int *rc)
{
	struct hn_idem *x = layer_new(hn_cfg(e), ic, ops, ctx, rc);

	if (x) {
		x->e = e;
		x->owner = owner;
	}
	return x;
}

static void ent_list_free(struct hn_idem *x, struct ient *n)
{
	struct ient *next;

	for (; n; n = next) {
		next = n->next;
		if (n->m)
			x->ops->reclaim(x->ctx, n->m);
		hn_free(n->spare);
		hn_free(n);
	}
}

/* Hands the client back every message the layer holds, and frees it. */
void hn_idem_destroy(struct hn_idem *x)
{
	struct iwire *w;
	struct ipair *p;
	u64 i;

	if (!x)
		return;
	if (x->own_engine && x->e)
		hn_destroy(x->e);	/* its copies: reclaimed() */
	for (i = 0; x->q && i < (u64)x->nodes * NQ; i++)
		while ((w = x->q[i].head)) {
			x->q[i].head = w->next;
			if (w->tx)
				ent_list_free(x, w->tx);
			hn_free(w);
		}
	for (i = 0; x->hash && i <= x->hmask; i++) {
		while ((p = x->hash[i])) {
			x->hash[i] = p->hnext;
			ent_list_free(x, p->tx);
			ent_list_free(x, p->rx);
			hn_free(p);
		}
		hn_resched();
	}
	while ((w = x->spare)) {
		x->spare = w->next;
		hn_free(w);
	}
	hn_free(x->hash);
	hn_free(x->q);
	hn_free(x->busy);
	hn_free(x->outstanding);
	hn_free(x->records);
	hn_free(x);
}
