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
#include "hn_sched.h"		/* enum hn_topology */
#include "hn_traffic.h"

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
	u64 *next_seq;			/* N * N * classes: sent so far */
	u64 *next_rx;			/* N * N * classes: received so far */
	u32 classes;			/* 1: order per pair; 16: and priority */
	u32 order_errors;
	u32 reclaimed;
	int hold_rx;			/* do not consume on delivery */
	u8 prio;			/* of every message it makes */
	u8 sw;				/* and its switching (hn_msg.sw) */
};

/* Where the order of @src's messages of @prio to @dst is counted */
static inline u64 sim_seq_at(const struct sim *s, u32 src, u32 dst, u8 prio)
{
	return ((u64)src * s->cfg.nodes + dst) * s->classes +
	       (s->classes > 1 ? prio : 0);
}

static void sim_deliver(void *ctx, struct hn_msg *m)
{
	struct sim *s = ctx;
	struct tmsg *t = (struct tmsg *)m;
	u64 *rx = &s->next_rx[sim_seq_at(s, m->src, m->dst, m->prio)];

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

/* The same on the fat tree FT(@l, @w) of Ch. 7: w^l nodes. */
static inline void sim_config_ft(struct hn_config *c, u32 l, u32 w, u32 k)
{
	u32 n = 1, i;

	for (i = 0; i < l; i++)
		n *= w;
	sim_config_zero(c, n, k);
	c->topology = HN_TOPO_FATTREE;
	c->levels = l;
	c->width = w;
}

/*
 * Fig. 4.7's slot arithmetic (Sec. 4.4): 6.4 Gb/s, 200 ns slots of one
 * 160 B chunk, 80 B packets of 10 + 9 x 10 = 100 ns, two per equal slot.
 */
#define SIM_CHUNK	160
#define SIM_PACKET	80

static inline void sim_config_units(struct hn_config *c)
{
	c->slot_p_ns = 200;
	c->slot_w_ns = 200;
	c->wh_first_ns = 10;
	c->wh_flit_ns = 10;
	c->flit_bytes = 8;
	c->worm_bytes = 80;
}

static inline int sim_init(struct sim *s, const struct hn_config *c)
{
	int rc;

	memset(s, 0, sizeof(*s));
	s->cfg = *c;
	s->classes = 1;
	s->next_seq = calloc((size_t)c->nodes * c->nodes, sizeof(u64));
	s->next_rx = calloc((size_t)c->nodes * c->nodes, sizeof(u64));
	s->e = hn_create(c, &sim_ops, s, &rc);
	return rc;
}

/*
 * Before the first message: order is kept per pair and priority (a
 * message passes those of lower priorities in its NIC), not per pair.
 */
static inline void sim_by_prio(struct sim *s)
{
	size_t n = (size_t)s->cfg.nodes * s->cfg.nodes * (HN_PRIO_TOP + 1);

	s->classes = HN_PRIO_TOP + 1;
	free(s->next_seq);
	free(s->next_rx);
	s->next_seq = calloc(n, sizeof(u64));
	s->next_rx = calloc(n, sizeof(u64));
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
	t->m.prio = s->prio;
	t->m.sw = s->sw;
	t->m.t_inject = hn_now(s->e);
	if (src < s->cfg.nodes && dst < s->cfg.nodes)
		t->seq = s->next_seq[sim_seq_at(s, src, dst, s->prio)];
	rc = hn_inject(s->e, &t->m, NULL);
	if (rc)
		free(t);
	else
		s->next_seq[sim_seq_at(s, src, dst, s->prio)]++;
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

/*
 * Fig. 4.7 on @c (2 slots, sim_config_units()): PE_0 has circuits to d[0]
 * in slot 0 and d[1] in slot 1, two chunks each, and six packets to d[2]
 * by wormhole.  The last delivery, or 0 if anything went wrong.
 */
static inline u64 sim_fig4_7(const struct hn_config *c, const u32 *d)
{
	struct hn_pair a = { 0, d[0] }, b = { 0, d[1] };
	struct sim s;
	u32 i;
	u64 t;

	if (sim_init(&s, c))
		return 0;
	sim_preload1(&s, 0, &a, 1);
	sim_preload1(&s, 1, &b, 1);
	for (i = 0; i < 2; i++) {
		sim_send(&s, 0, d[0], SIM_CHUNK);
		sim_send(&s, 0, d[1], SIM_CHUNK);
	}
	for (i = 0; i < 6; i++)
		sim_send(&s, 0, d[2], SIM_PACKET);
	sim_drain(&s, 100000);
	t = s.nlog == 10 && !s.order_errors && !hn_check(s.e, NULL) ?
	    sim_last_delivery(&s) : 0;
	sim_fini(&s);
	return t;
}

/*
 * Run @t on @c to its end with the run driver (@r): 0, its result in
 * *@out and the engine's statistics in *@g (when given), or -errno; the
 * engine must end idle and hn_check() true.
 */
static inline int sim_trun(const struct hn_config *c, const struct hn_tcfg *t,
			   const struct hn_trun_cfg *r, struct hn_tres *out,
			   struct hn_gstats *g)
{
	struct hn_err err = { 0 };
	struct hn_trun *run;
	int rv;

	run = hn_trun_create(c, t, r, &rv, &err);
	if (!run) {
		fprintf(stderr, "# create: %s\n", err.msg);
		return rv;
	}
	rv = hn_trun_run(run, 0);
	*out = *hn_trun_result(run);
	if (!rv)
		rv = hn_check(hn_trun_engine(run), &err);
	if (!rv && hn_busy(hn_trun_engine(run)))
		rv = -EBUSY;
	if (g)
		hn_stats_global(hn_trun_engine(run), g);
	hn_trun_destroy(run);
	return rv;
}

#endif /* HN_TEST_SIM_H */
