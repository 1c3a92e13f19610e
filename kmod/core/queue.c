// SPDX-License-Identifier: GPL-2.0
/*
 * queue.c - message FIFOs, the per-NIC table of streams (open addressing,
 * linear probing, backward-shift deletion), the round-robin ring of an
 * input's non-empty VQ_W queues and the order its arbiter serves them in.
 */
#include "engine.h"

void hn_q_push(struct hn_queue *q, struct hn_msg *m)
{
	m->next = NULL;
	if (q->tail)
		q->tail->next = m;
	else
		q->head = m;
	q->tail = m;
	q->count++;
	q->bytes += m->len;
}

/*
 * Put @m behind every message of its priority or a higher one, and
 * behind the head if @keep_head (it is on its way): a message of a
 * higher priority passes those of lower priorities that wait ("control
 * messages must be sent immediately" [Z:671]), and a queue of one
 * priority is a FIFO.
 */
void hn_q_push_prio(struct hn_queue *q, struct hn_msg *m, bool keep_head)
{
	struct hn_msg **l, *x;

	if (!q->tail || q->tail->prio >= m->prio ||
	    (keep_head && q->head == q->tail)) {
		hn_q_push(q, m);
		return;
	}
	l = keep_head ? &q->head->next : &q->head;
	for (x = *l; x; x = x->next)	/* behind the last of them */
		if (x->prio >= m->prio)
			l = &x->next;
	m->next = *l;
	*l = m;
	q->count++;
	q->bytes += m->len;
}

/*
 * The head of @q, which hn_q_push_prio() kept first while it was on its
 * way, is not any more: it goes behind those of higher priorities, still
 * ahead of its own priority's, which came after it.
 */
void hn_q_head_back(struct hn_queue *q)
{
	struct hn_msg *m = q->head, **l;

	if (!m || !m->next || m->next->prio <= m->prio)
		return;
	q->head = m->next;
	for (l = &q->head; *l && (*l)->prio > m->prio; l = &(*l)->next)
		;
	m->next = *l;
	*l = m;
	if (!m->next)
		q->tail = m;
}

struct hn_msg *hn_q_pop(struct hn_queue *q)
{
	struct hn_msg *m = q->head;

	if (m) {
		q->head = m->next;
		if (!q->head)
			q->tail = NULL;
		q->count--;
		q->bytes -= m->len;
		m->next = NULL;
	}
	return m;
}

static u32 home(const struct hn_node *n, u32 dst)
{
	return (dst * 2654435761u) & (n->tab_cap - 1);
}

static u32 probe(const struct hn_node *n, u32 dst)
{
	u32 i = home(n, dst);

	while (n->tab[i] && n->tab[i]->dst != dst)
		i = (i + 1) & (n->tab_cap - 1);
	return i;
}

struct hn_stream *hn_stream_find(const struct hn_engine *e, u32 src, u32 dst)
{
	const struct hn_node *n = &e->node[src];

	return n->tab_cap ? n->tab[probe(n, dst)] : NULL;
}

static int grow(struct hn_node *n)
{
	u32 cap = n->tab_cap ? n->tab_cap * 2 : 8;
	struct hn_stream **old = n->tab;
	u32 i, oldcap = n->tab_cap;

	n->tab = hn_zalloc(cap * sizeof(*n->tab));
	if (!n->tab) {
		n->tab = old;
		return -ENOMEM;
	}
	n->tab_cap = cap;
	for (i = 0; i < oldcap; i++)
		if (old[i])
			n->tab[probe(n, old[i]->dst)] = old[i];
	hn_free(old);
	return 0;
}

struct hn_stream *hn_stream_get(struct hn_engine *e, u32 src, u32 dst)
{
	struct hn_node *n = &e->node[src];
	struct hn_stream *st;
	u32 i = 0;

	/* one a pair in use: a byte more and each takes the next bucket */
	HN_STATIC_ASSERT(sizeof(struct hn_stream) <= 128);

	if (n->tab_cap) {
		i = probe(n, dst);
		if (n->tab[i])
			return n->tab[i];
	}
	if ((n->tab_used + 1) * 2 > n->tab_cap) {
		if (grow(n))
			return NULL;
		i = probe(n, dst);	/* where it goes in the new table */
	}
	st = e->free_streams;
	if (st) {
		e->free_streams = st->free_next;
		memset(st, 0, sizeof(*st));
	} else {
		st = hn_zalloc(sizeof(*st));
		if (!st)
			return NULL;
	}
	st->src = src;
	st->dst = dst;
	n->tab[i] = st;
	n->tab_used++;
	return st;
}

/* Forget @st if it holds nothing any more. */
void hn_stream_put(struct hn_engine *e, struct hn_stream *st)
{
	struct hn_node *n = &e->node[st->src];
	u32 mask = n->tab_cap - 1;
	u32 i, j, h;

	if (st->vq_pckt.count || st->vq_w.count || st->q_w_msgs || st->fab ||
	    st->cutting)
		return;
	i = probe(n, st->dst);
	n->tab[i] = NULL;
	for (j = (i + 1) & mask; n->tab[j]; j = (j + 1) & mask) {
		h = home(n, n->tab[j]->dst);
		/* move tab[j] back unless its home lies in (i, j] */
		if (((j - h) & mask) >= ((j - i) & mask)) {
			n->tab[i] = n->tab[j];
			n->tab[j] = NULL;
			i = j;
		}
	}
	n->tab_used--;
	st->free_next = e->free_streams;
	e->free_streams = st;
}

/*
 * Insert @st just before the next one to serve at node @u's input: it is
 * served last.
 */
void hn_ring_add(struct hn_engine *e, u32 u, struct hn_stream *st)
{
	struct hn_node *n = &e->node[u];
	struct hn_stream *r = n->ring;

	if (!r) {
		st->rr_next = st;
		st->rr_prev = st;
		n->ring = st;
		return;
	}
	st->rr_next = r;
	st->rr_prev = r->rr_prev;
	r->rr_prev->rr_next = st;
	r->rr_prev = st;
}

void hn_ring_del(struct hn_engine *e, u32 u, struct hn_stream *st)
{
	struct hn_node *n = &e->node[u];

	if (st->rr_next == st) {
		n->ring = NULL;
	} else {
		st->rr_prev->rr_next = st->rr_next;
		st->rr_next->rr_prev = st->rr_prev;
		if (n->ring == st)
			n->ring = st->rr_next;
	}
	st->rr_next = NULL;
	st->rr_prev = NULL;
}

#define VOQ_LATE	0x8000000000000000ULL	/* not timed out */
#define VOQ_LEN_MAX	0x7fffffffULL

/*
 * hn_voq_key() of a voq_arbiter other than round-robin, or with a
 * voq_timeout_ns (docs/model.md, "The input's arbiter"): a VQ_W that has
 * not been served for voq_timeout_ns while its head waited at the switch
 * (since its head came, and since its last worm left: st->w_end) goes
 * first, then the arbiter's order; among equals, the highest
 * destination, as the priority encoders of Zydallis's arbiter (Table 10)
 * have it.  Round-robin has no equals.
 */
u64 hn_voq_key_of(const struct hn_engine *e, const struct hn_node *n,
		  const struct hn_stream *st, u64 t)
{
	const struct hn_config *c = &e->cfg;
	const struct hn_msg *m = st->vq_w.head;
	u64 high = c->nodes - 1 - st->dst, len, since;

	if (c->voq_timeout_ns) {
		since = hn_max64(m->t_ready, st->w_end);
		if (t >= since && t - since >= c->voq_timeout_ns)
			return high;
	}
	switch (c->voq_arbiter) {
	case HN_VOQ_LQF:
		len = st->vq_w.count;
		break;
	case HN_VOQ_BYTES:
		len = st->vq_w.bytes - m->sent;
		break;
	default:
		return VOQ_LATE | hn_rr_dist(st->dst, n->rr_last, c->nodes);
	}
	return VOQ_LATE | (VOQ_LEN_MAX - hn_min64(len, VOQ_LEN_MAX)) << 32 |
	       high;
}

/* The spare streams, and the tables of nodes that have none. */
void hn_streams_trim(struct hn_engine *e)
{
	struct hn_stream *st;
	struct hn_node *n;
	u32 u, i = 0;

	while ((st = e->free_streams)) {
		e->free_streams = st->free_next;
		hn_free(st);
		if (!(++i % 256))
			hn_resched();
	}
	for (u = 0; u < e->cfg.nodes; u++) {
		n = &e->node[u];
		if (n->tab_used)
			continue;
		hn_free(n->tab);
		n->tab = NULL;
		n->tab_cap = 0;
	}
}

void hn_streams_free(struct hn_engine *e)
{
	struct hn_node *n;
	u32 u, i;

	for (u = 0; u < e->cfg.nodes; u++) {
		n = &e->node[u];
		for (i = 0; i < n->tab_cap; i++)
			hn_free(n->tab[i]);
		n->tab_used = 0;
		if (!(u % 64))
			hn_resched();
	}
	hn_streams_trim(e);
}
