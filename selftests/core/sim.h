/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim.h - helpers for the engine's unit tests: an engine whose deliveries
 * are recorded, with per-stream sequence numbers to check order.
 */
#ifndef HN_TEST_SIM_H
#define HN_TEST_SIM_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hn_core.h"

struct tmsg {
	struct hn_msg m;		/* first: the engine sees only this */
	u64 seq;			/* per (src, dst) stream */
	int delivered;
};

struct sim {
	struct hn_engine *e;
	struct hn_config cfg;
	struct tmsg **log;		/* deliveries, in order */
	u32 nlog, caplog;
	u64 *next_seq;			/* N * N: sent so far */
	u64 *next_rx;			/* N * N: received so far */
	u32 order_errors;
	u32 reclaimed;
	int hold_rx;			/* do not consume on delivery */
};

static void sim_deliver(void *ctx, struct hn_msg *m)
{
	struct sim *s = ctx;
	struct tmsg *t = (struct tmsg *)m;
	u64 *rx = &s->next_rx[(u64)m->src * s->cfg.nodes + m->dst];

	if (t->seq != (*rx)++ || t->delivered)
		s->order_errors++;
	t->delivered = 1;
	if (s->nlog == s->caplog) {
		s->caplog = s->caplog ? 2 * s->caplog : 256;
		s->log = realloc(s->log, s->caplog * sizeof(*s->log));
	}
	s->log[s->nlog++] = t;
	if (!s->hold_rx)
		hn_consume(s->e, m->dst, m->len);
}

static void sim_reclaim(void *ctx, struct hn_msg *m)
{
	struct sim *s = ctx;

	s->reclaimed++;
	free(m);
}

static const struct hn_ops sim_ops = {
	.deliver = sim_deliver,
	.reclaim = sim_reclaim,
};

/* A configuration with every delay zero: times are pure slot arithmetic. */
static inline void sim_config_zero(struct hn_config *c, u32 nodes, u32 k)
{
	hn_config_default(c);
	c->nodes = nodes;
	c->k = k;
	c->guard_ns = c->sched_ns = c->setup_ns = 0;
	c->wire_ns = c->nic_ns = c->fabric_ns = 0;
}

static inline int sim_init(struct sim *s, const struct hn_config *c)
{
	int rc;

	memset(s, 0, sizeof(*s));
	s->cfg = *c;
	s->next_seq = calloc((size_t)c->nodes * c->nodes, sizeof(u64));
	s->next_rx = calloc((size_t)c->nodes * c->nodes, sizeof(u64));
	s->e = hn_create(c, &sim_ops, s, &rc);
	return rc;
}

static inline void sim_fini(struct sim *s)
{
	u32 i;

	hn_destroy(s->e);
	for (i = 0; i < s->nlog; i++)
		free(s->log[i]);
	free(s->log);
	free(s->next_seq);
	free(s->next_rx);
}

/* Inject now; returns the engine's result (the message is freed on error). */
static inline int sim_send(struct sim *s, u32 src, u32 dst, u32 len)
{
	struct tmsg *t = calloc(1, sizeof(*t));
	int rc;

	t->m.src = src;
	t->m.dst = dst;
	t->m.len = len;
	t->m.t_inject = hn_now(s->e);
	if (src < s->cfg.nodes && dst < s->cfg.nodes)
		t->seq = s->next_seq[(u64)src * s->cfg.nodes + dst];
	rc = hn_inject(s->e, &t->m, NULL);
	if (rc)
		free(t);
	else
		s->next_seq[(u64)src * s->cfg.nodes + dst]++;
	return rc;
}

/* Run until nothing is queued, at most @limit ns of virtual time. */
static inline void sim_drain(struct sim *s, u64 limit)
{
	while (hn_busy(s->e) && hn_now(s->e) < limit)
		hn_step(s->e);
}

/* The k-th delivery of (src, dst), or NULL. */
static inline struct tmsg *sim_find(struct sim *s, u32 src, u32 dst, u32 k)
{
	u32 i;

	for (i = 0; i < s->nlog; i++)
		if (s->log[i]->m.src == src && s->log[i]->m.dst == dst &&
		    !k--)
			return s->log[i];
	return NULL;
}

static inline int sim_preload1(struct sim *s, u32 slot,
			       const struct hn_pair *p, u32 n)
{
	struct hn_slot_cfg c = { .slot = slot, .npairs = n, .pairs = p };

	return hn_preload(s->e, &c, 1, NULL);
}

static inline u64 sim_last_delivery(struct sim *s)
{
	u64 t = 0;
	u32 i;

	for (i = 0; i < s->nlog; i++)
		if (s->log[i]->m.t_deliver > t)
			t = s->log[i]->m.t_deliver;
	return t;
}

#endif /* HN_TEST_SIM_H */
