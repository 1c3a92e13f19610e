// SPDX-License-Identifier: GPL-2.0
/*
 * test_idem.c - exactly-once delivery by Woods-Corwin's three messages
 * (idem.c) over a fat tree that loses and corrupts them: every message
 * delivered once, in its pair's order, the receivers' records gone when
 * all is quiet (C4.1); a destination that never answers given up after
 * exactly the cap; flipped bits caught by a real CRC-32 and sent again
 * (C4.5); and the checks on the layer's settings.
 */
#include "harness.h"
#include "idem.h"
#include "crc.h"
#include "hn_sched.h"		/* HN_TOPO_FATTREE */
#include "topo.h"		/* HN_UPSEL_RANDOM */

struct tm {
	struct hn_msg m;	/* first: the layer sees only this */
	u32 seq;		/* its pair's, in send order */
	u32 got;		/* deliveries */
	u32 id;
};

struct cl {
	struct hn_idem *x;
	struct hn_config c;
	struct tm *msg;
	u32 total, sent;
	u64 rng;
	u32 *seq;		/* per pair: sent so far */
	s64 *last;		/* per pair: the last seq delivered, or -1 */
	u8 *pl;			/* a payload for each message, 256 bytes */
	u64 delivered, dups, disorder, reclaimed;
	u64 given_up, given_up_delivered, timed_out;
	u64 t_gave_up;
	u64 fate[HN_IDEM_KINDS][HN_IDEM_FATES];	/* copies, by kind */
	u64 msg_routes;		/* the MSG copies' routes' switches */
};

static void cl_deliver(void *ctx, struct hn_msg *m)
{
	struct cl *k = ctx;
	struct tm *t = (struct tm *)m;
	s64 *last = &k->last[(u64)m->src * k->c.nodes + m->dst];

	if (t->got++)
		k->dups++;
	if ((s64)t->seq <= *last)
		k->disorder++;
	*last = t->seq;
	k->delivered++;
}

static void cl_give_up(void *ctx, struct hn_msg *m, u32 src, u32 dst, int err)
{
	struct cl *k = ctx;

	(void)src;
	(void)dst;
	k->given_up++;
	k->given_up_delivered += !m;
	k->timed_out += err == -ETIMEDOUT;
	k->t_gave_up = hn_now(hn_idem_engine(k->x));
}

static void cl_reclaim(void *ctx, struct hn_msg *m)
{
	((struct cl *)ctx)->reclaimed++;
	(void)m;
}

static void cl_arrive(void *ctx, const struct hn_msg *copy, u32 kind,
		      u8 owner, u32 fate)
{
	struct cl *k = ctx;

	(void)owner;
	k->fate[kind][fate]++;
	if (kind == HN_IDEM_MSG)
		k->msg_routes += hn_route_switches(hn_idem_engine(k->x),
						   copy->src, copy->dst);
}

static const u8 *cl_payload(void *ctx, const struct hn_msg *m)
{
	struct cl *k = ctx;

	return k->pl + (u64)((const struct tm *)m)->id * 256;
}

static const struct hn_idem_ops ops = {
	.deliver = cl_deliver,
	.give_up = cl_give_up,
	.reclaim = cl_reclaim,
	.arrive = cl_arrive,
};

static const struct hn_idem_ops ops_pl = {
	.deliver = cl_deliver,
	.give_up = cl_give_up,
	.reclaim = cl_reclaim,
	.arrive = cl_arrive,
	.payload = cl_payload,
};

/* FT(2, 4), @sw, random up-ports: a pair's messages may pass each other */
static int cl_init_sw(struct cl *k, const struct hn_idem_cfg *ic,
		      const struct hn_idem_ops *o, u32 total, u32 sw)
{
	u64 i, pairs;
	int rc;

	memset(k, 0, sizeof(*k));
	hn_config_default(&k->c);
	k->c.topology = HN_TOPO_FATTREE;
	k->c.levels = 2;
	k->c.width = 4;
	k->c.nodes = 16;
	k->c.k = 0;
	k->c.policy = 0;
	k->c.switching = sw;
	k->c.up_select = HN_UPSEL_RANDOM;
	pairs = (u64)k->c.nodes * k->c.nodes;
	k->total = total;
	k->rng = 7;
	k->msg = calloc(total, sizeof(*k->msg));
	k->seq = calloc(pairs, sizeof(*k->seq));
	k->last = malloc(pairs * sizeof(*k->last));
	k->pl = malloc((size_t)total * 256);
	if (!k->msg || !k->seq || !k->last || !k->pl)
		return -ENOMEM;
	for (i = 0; i < pairs; i++)
		k->last[i] = -1;
	for (i = 0; i < (u64)total * 256; i++)
		k->pl[i] = (u8)hn_rand(&k->rng);
	k->x = hn_idem_create(&k->c, ic, o, k, &rc);
	return k->x ? 0 : rc;
}

static int cl_init(struct cl *k, const struct hn_idem_cfg *ic,
		   const struct hn_idem_ops *o, u32 total)
{
	return cl_init_sw(k, ic, o, total, HN_SWITCH_VCT);
}

static void cl_fini(struct cl *k)
{
	hn_idem_destroy(k->x);
	free(k->msg);
	free(k->seq);
	free(k->last);
	free(k->pl);
}

static int cl_send(struct cl *k, u32 src, u32 dst)
{
	struct tm *t = &k->msg[k->sent];

	t->id = k->sent++;
	t->m.src = src;
	t->m.dst = dst;
	t->m.len = 16 + hn_rand_below(&k->rng, 241);	/* 16..256 */
	t->m.t_inject = hn_now(hn_idem_engine(k->x));
	t->seq = k->seq[(u64)src * k->c.nodes + dst]++;
	return hn_idem_send(k->x, &t->m);
}

static bool quiet(const struct cl *k)
{
	struct hn_idem_stats s;

	hn_idem_stats(k->x, &s);
	return !s.send_state_entries && !s.recv_state_entries && !s.waiting &&
	       !hn_busy(hn_idem_engine(k->x));
}

/*
 * Every node sends to random others, a message every 1/@p_ppm steps of
 * 100 ns on average, until @total are sent; then until all is quiet or
 * @limit ns of virtual time.  Returns the time it ended.
 */
static u64 cl_run(struct cl *k, u32 p_ppm, u64 limit)
{
	struct hn_engine *e = hn_idem_engine(k->x);
	u64 t;
	u32 u, d;

	for (t = hn_now(e) / 100 * 100 + 100; t < limit; t += 100) {
		hn_run_until(e, t);
		for (u = 0; u < k->c.nodes && k->sent < k->total; u++) {
			if (hn_rand_below(&k->rng, 1000000) >= p_ppm)
				continue;
			d = hn_rand_below(&k->rng, k->c.nodes - 1);
			if (cl_send(k, u, d + (d >= u)))
				return 0;
		}
		hn_idem_tick(k->x);
		if (k->sent == k->total && quiet(k))
			break;
	}
	return t;
}

/* C4.1: a third of every kind lost, 10^5 messages, each delivered once */
TEST(exactly_once_through_loss)
{
	struct hn_idem_stats s;
	struct hn_idem_cfg ic;
	struct cl k;
	u64 arrived, lost = 0;
	u32 i, j;

	hn_idem_cfg_default(&ic);
	ic.timeout_ns = 20000;
	ic.window = 8;
	for (j = 0; j < HN_IDEM_KINDS; j++)
		ic.loss_ppm[j] = 300000;
	ASSERT_EQ(0, cl_init(&k, &ic, &ops, 100000));
	ASSERT_NE(0u, cl_run(&k, 150000, 1000000000));
	hn_idem_stats(k.x, &s);
	EXPECT_EQ(100000u, k.sent);
	EXPECT_EQ(100000u, k.delivered);
	EXPECT_EQ(0u, k.dups);
	EXPECT_EQ(0u, k.disorder);
	EXPECT_EQ(0u, k.given_up);
	EXPECT_EQ(0u, s.retries_exhausted);
	EXPECT_EQ(0u, s.acks_exhausted);
	EXPECT_EQ(0u, s.recv_state_entries);	/* ACK2 freed them all */
	EXPECT_EQ(0u, s.send_state_entries);
	EXPECT_EQ(100000u, s.delivered);
	for (i = 0; i < 100000; i++)
		if (k.msg[i].got != 1)
			break;
	EXPECT_EQ(100000u, i);
	/* each kind lost at its rate, and the protocol made up for it */
	for (j = 0; j < HN_IDEM_KINDS; j++) {
		arrived = s.tx[j];	/* every copy sent arrives */
		EXPECT_GT(s.lost[j] * 1000, arrived * 290);
		EXPECT_LT(s.lost[j] * 1000, arrived * 310);
		lost += s.lost[j];
	}
	EXPECT_GT(s.resends[0], s.lost[HN_IDEM_MSG] / 2);
	EXPECT_GT(s.resends[1], 0u);
	EXPECT_GT(s.dups_suppressed, 0u);	/* lost ACKs' MSGs again */
	/* a copy to send again is dropped if its ACK comes first */
	EXPECT_LE(s.tx[HN_IDEM_MSG], 100000u + s.resends[0]);
	EXPECT_GT(s.tx[HN_IDEM_MSG], 100000u + s.lost[HN_IDEM_MSG] / 2);
	EXPECT_GE(s.tx[HN_IDEM_ACK], 100000u);
	EXPECT_GE(s.tx[HN_IDEM_ACK2], 100000u);
	EXPECT_GT(lost, 0u);
	EXPECT_EQ(0, hn_check(hn_idem_engine(k.x), NULL));
	cl_fini(&k);
}

/* With nothing lost nothing is sent twice, and the timers stay quiet */
TEST(nothing_lost_nothing_resent)
{
	struct hn_idem_stats s;
	struct hn_idem_cfg ic;
	struct cl k;

	hn_idem_cfg_default(&ic);
	ic.timeout_ns = 0;
	ASSERT_EQ(0, cl_init(&k, &ic, &ops, 20000));
	ASSERT_NE(0u, cl_run(&k, 150000, 1000000000));
	hn_idem_stats(k.x, &s);
	EXPECT_EQ(20000u, k.delivered);
	EXPECT_EQ(0u, k.dups + k.disorder);
	EXPECT_EQ(20000u, s.tx[HN_IDEM_MSG]);
	EXPECT_EQ(20000u, s.tx[HN_IDEM_ACK]);
	EXPECT_EQ(20000u, s.tx[HN_IDEM_ACK2]);
	EXPECT_EQ(0u, s.resends[0] + s.resends[1] + s.dups_suppressed);
	EXPECT_EQ(20000u, s.arrived[HN_IDEM_ACK2]);	/* nothing lost */
	EXPECT_EQ(0u, s.attempts[HN_IDEM_MSG]);		/* no drop network */
	cl_fini(&k);
}

/*
 * Each phase's success per attempt (C1.3, C6): under switching drop the
 * copies of each kind that arrived and the headers they took, which add
 * up to the fabric's attempts once all is quiet and nothing was lost;
 * and the MSG copies' switches, E's mean path (1 or 3 on FT(2,4)).
 */
TEST(phases_per_attempt)
{
	struct hn_idem_stats s;
	struct hn_idem_cfg ic;
	struct hn_gstats g;
	struct cl k;
	u32 i;

	hn_idem_cfg_default(&ic);
	ic.timeout_ns = 0;
	ASSERT_EQ(0, cl_init_sw(&k, &ic, &ops, 5000, HN_SWITCH_DROP));
	ASSERT_NE(0u, cl_run(&k, 300000, 1000000000));
	hn_idem_stats(k.x, &s);
	hn_stats_global(hn_idem_engine(k.x), &g);
	EXPECT_EQ(5000u, k.delivered);
	for (i = 0; i < HN_IDEM_KINDS; i++) {
		EXPECT_EQ(5000u, s.arrived[i]) TH_LOG("kind %u", i);
		EXPECT_LE(s.arrived[i], s.attempts[i]) TH_LOG("kind %u", i);
	}
	EXPECT_LT(s.arrived[HN_IDEM_MSG], s.attempts[HN_IDEM_MSG]);
	EXPECT_EQ(g.attempts, s.attempts[HN_IDEM_MSG] +
		  s.attempts[HN_IDEM_ACK] + s.attempts[HN_IDEM_ACK2]);
	EXPECT_EQ(g.attempts - g.drops - g.preemptions, 3 * 5000u);
	/* E's mean path: between the shortest route and the longest */
	EXPECT_LE(s.arrived[HN_IDEM_MSG], s.msg_switches);
	EXPECT_GE(s.arrived[HN_IDEM_MSG] * 3, s.msg_switches);
	EXPECT_EQ(k.msg_routes, s.msg_switches);
	cl_fini(&k);
}

/*
 * A MSG never arrives: its sender sends it exactly retry_max times again,
 * a timeout apart, then gives it back (-ETIMEDOUT).  An ACK never
 * arrives: the MSG is delivered once, its sender gives up not knowing
 * (NULL), its receiver's record goes after as many ACKs.
 */
TEST(given_up_after_exactly_the_cap)
{
	struct hn_idem_stats s;
	struct hn_idem_cfg ic;
	struct cl k;
	u32 kind;

	for (kind = HN_IDEM_MSG; kind <= HN_IDEM_ACK; kind++) {
		hn_idem_cfg_default(&ic);
		ic.timeout_ns = 5000;
		ic.retry_max = 7;
		ic.loss_ppm[kind] = 1000000;
		ASSERT_EQ(0, cl_init(&k, &ic, &ops, 1));
		ASSERT_EQ(0, cl_send(&k, 0, 15));
		ASSERT_NE(0u, cl_run(&k, 0, 1000000));
		hn_idem_stats(k.x, &s);
		EXPECT_EQ(1u, k.given_up);
		EXPECT_EQ(1u, k.timed_out);
		EXPECT_EQ(7u, s.resends[0]);
		EXPECT_EQ(8u, s.tx[HN_IDEM_MSG]);
		EXPECT_EQ(1u, s.retries_exhausted);
		/* 8 timeouts from the first send; ticks are 100 ns apart */
		EXPECT_GE(k.t_gave_up, 8 * 5000u);
		EXPECT_LT(k.t_gave_up, 8 * (5000u + 2000));
		if (kind == HN_IDEM_MSG) {
			EXPECT_EQ(0u, k.delivered);
			EXPECT_EQ(0u, k.given_up_delivered);
			EXPECT_EQ(8u, s.lost[HN_IDEM_MSG]);
		} else {
			EXPECT_EQ(1u, k.delivered);	/* once */
			EXPECT_EQ(1u, k.given_up_delivered);
			EXPECT_EQ(7u, s.dups_suppressed);
			EXPECT_EQ(1u, s.acks_exhausted);
			EXPECT_EQ(7u, s.resends[1]);
			EXPECT_EQ(0u, s.recv_state_entries);
		}
		cl_fini(&k);
	}
}

/*
 * A destination cut off by a fault: the fabric refuses each copy, the
 * sender gives up after the cap; the link back up, the pair's next
 * message carries the tag given up below its own, and the receiver
 * passes over it instead of holding the next one for ever.
 */
TEST(given_up_tags_are_passed_over)
{
	struct hn_idem_stats s;
	struct hn_idem_cfg ic;
	struct cl k;

	hn_idem_cfg_default(&ic);
	ic.timeout_ns = 5000;
	ic.retry_max = 3;
	ASSERT_EQ(0, cl_init(&k, &ic, &ops, 2));
	/* links 0..15 are the nodes' own */
	ASSERT_EQ(0, hn_set_fault(hn_idem_engine(k.x), false, 15, true, NULL,
				  NULL));
	ASSERT_EQ(0, cl_send(&k, 0, 15));
	ASSERT_NE(0u, cl_run(&k, 0, 1000000));
	hn_idem_stats(k.x, &s);
	EXPECT_EQ(1u, k.given_up);
	EXPECT_EQ(4u, s.refused);		/* no route: each try refused */
	EXPECT_EQ(0u, s.tx[HN_IDEM_MSG]);
	ASSERT_EQ(0, hn_set_fault(hn_idem_engine(k.x), false, 15, false, NULL,
				  NULL));
	ASSERT_EQ(0, cl_send(&k, 0, 15));
	ASSERT_NE(0u, cl_run(&k, 0, 2000000));	/* from 1 ms */
	hn_idem_stats(k.x, &s);
	EXPECT_EQ(0u, k.msg[0].got);
	EXPECT_EQ(1u, k.msg[1].got);
	EXPECT_EQ(0u, s.recv_state_entries);
	EXPECT_TRUE(quiet(&k));
	cl_fini(&k);
}

/*
 * C4.5: bits flipped at 10^-4 a flit (of 8 bytes) are caught by the
 * CRC-32 the receiver computes over the bytes as they came, and every
 * message still arrives once; without the payload a flip shows as well.
 */
TEST(crc_catches_flipped_bits)
{
	const struct hn_idem_ops *o[2] = { &ops_pl, &ops };
	struct hn_idem_stats s;
	struct hn_idem_cfg ic;
	struct cl k;
	u32 i;

	for (i = 0; i < 2; i++) {
		hn_idem_cfg_default(&ic);
		ic.timeout_ns = 20000;
		ic.flip_ppm = 100;
		ASSERT_EQ(0, cl_init(&k, &ic, o[i], 50000));
		ASSERT_NE(0u, cl_run(&k, 150000, 1000000000));
		hn_idem_stats(k.x, &s);
		EXPECT_EQ(50000u, k.delivered);
		EXPECT_EQ(0u, k.dups + k.disorder + k.given_up);
		/* MSGs: about 50,000 x 17.5 flits x 10^-4 = 88 */
		EXPECT_GT(k.fate[HN_IDEM_MSG][HN_IDEM_CORRUPT], 50u);
		EXPECT_LT(k.fate[HN_IDEM_MSG][HN_IDEM_CORRUPT], 130u);
		EXPECT_EQ(s.crc_fail, k.fate[HN_IDEM_MSG][HN_IDEM_CORRUPT] +
			  k.fate[HN_IDEM_ACK][HN_IDEM_CORRUPT] +
			  k.fate[HN_IDEM_ACK2][HN_IDEM_CORRUPT]);
		EXPECT_GE(s.resends[0] + s.resends[1], s.crc_fail / 2);
		EXPECT_EQ(0u, s.recv_state_entries);
		cl_fini(&k);
	}
}

/* CRC-32's check value, pieces in any split, every one-bit error seen */
TEST(crc32)
{
	static const u8 nine[] = "123456789";
	u8 buf[1024], b;
	u64 r = 3;
	u32 crc, i, bad = 0;

	EXPECT_EQ(0xcbf43926u, hn_crc32(0, nine, 9));
	EXPECT_EQ(0xcbf43926u, hn_crc32(hn_crc32(0, nine, 4), nine + 4, 5));
	EXPECT_EQ(0u, hn_crc32(0, nine, 0));
	for (i = 0; i < sizeof(buf); i++)
		buf[i] = (u8)hn_rand(&r);
	crc = hn_crc32(0, buf, sizeof(buf));
	for (i = 0; i < 8 * sizeof(buf); i++) {
		b = (u8)(1u << (i % 8));
		buf[i / 8] ^= b;
		bad += hn_crc32(0, buf, sizeof(buf)) == crc;
		buf[i / 8] ^= b;
	}
	EXPECT_EQ(0u, bad);
}

/*
 * Node u sends to u + 5 of 16, a message every 100 ns, until all are sent
 * and the layer is quiet; @most gets the most MSGs awaiting their ACK and
 * records at the receivers seen at once.  0, or a send's error.
 */
static int cl_ring(struct cl *k, struct hn_idem_stats *most)
{
	struct hn_engine *e = hn_idem_engine(k->x);
	struct hn_idem_stats s;
	u64 t;
	u32 u;
	int rc;

	memset(most, 0, sizeof(*most));
	for (t = 100; t < 100000000 && !(k->sent == k->total && quiet(k));
	     t += 100) {
		hn_run_until(e, t);
		for (u = 0; u < 16 && k->sent < k->total; u++) {
			rc = cl_send(k, u, (u + 5) % 16);
			if (rc)
				return rc;
		}
		hn_idem_tick(k->x);
		hn_idem_stats(k->x, &s);
		most->send_state_entries = hn_max64(most->send_state_entries,
						    s.send_state_entries);
		most->recv_state_entries = hn_max64(most->recv_state_entries,
						    s.recv_state_entries);
	}
	return 0;
}

/* A window of W: never more than W MSGs of a node await their ACK */
TEST(window_bounds_what_awaits)
{
	struct hn_idem_stats most;
	struct hn_idem_cfg ic;
	struct cl k;

	hn_idem_cfg_default(&ic);
	ic.window = 2;
	ic.loss_ppm[HN_IDEM_ACK] = 200000;
	ASSERT_EQ(0, cl_init(&k, &ic, &ops, 3000));
	ASSERT_EQ(0, cl_ring(&k, &most));
	EXPECT_EQ(3000u, k.delivered);
	EXPECT_EQ(0u, k.dups + k.disorder);
	/* 16 nodes x 2, and no more */
	EXPECT_EQ(32u, most.send_state_entries);
	cl_fini(&k);
}

/*
 * A bounded receiver table (C4.7): a new MSG that finds its receiver's
 * records full is dropped unacknowledged and sent again on its timer;
 * every message still arrives once and in order.  With one MSG of a node
 * awaiting its ACK (window 1) no pair's MSGs come early, so no record is
 * held for its turn and the bound is strict: a node's records, one.  With
 * a window of 8 and a third of the ACK2s lost, MSGs come early and wait
 * in the table for the one before them, which is taken over the bound:
 * dropped, it could never come in (nothing given up).
 */
TEST(table_bounds_the_receivers_records)
{
	struct hn_idem_stats s, most;
	struct hn_idem_cfg ic;
	struct cl k;
	u32 w;

	for (w = 1; w <= 8; w += 7) {
		hn_idem_cfg_default(&ic);
		ic.timeout_ns = 5000;
		ic.table = 1;
		ic.window = w;
		if (w > 1)
			ic.loss_ppm[HN_IDEM_ACK2] = 300000;
		ASSERT_EQ(0, cl_init(&k, &ic, &ops, 3000));
		ASSERT_EQ(0, cl_ring(&k, &most));
		hn_idem_stats(k.x, &s);
		EXPECT_EQ(3000u, k.delivered);
		EXPECT_EQ(0u, k.dups + k.disorder + k.given_up);
		EXPECT_GT(s.table_full, 100u);
		EXPECT_EQ(s.table_full, k.fate[HN_IDEM_MSG][HN_IDEM_FULL]);
		if (w == 1)	/* 16 nodes x 1, and no more */
			EXPECT_LE(most.recv_state_entries, 16u);
		cl_fini(&k);
	}
	hn_idem_cfg_default(&ic);
	ic.table = 1;
	ic.timeout_ns = 0;
	EXPECT_EQ(-EINVAL, hn_idem_cfg_check(&ic, NULL));
}

/*
 * Attached to an engine of the caller's (the module's way): the engine's
 * ops hand the layer its copies (owner 0xfe) and the caller the rest; a
 * message sent plainly and one through the layer both arrive, the
 * layer's once; destroyed with messages inside, the engine first, every
 * one comes back.
 */
struct both {
	struct hn_idem *x;
	u32 plain, reclaimed;
};

static void both_deliver(void *ctx, struct hn_msg *m)
{
	struct both *b = ctx;

	if (m->owner == 0xfe) {
		hn_idem_arrived(b->x, m);
		return;
	}
	b->plain++;
	hn_consume(hn_idem_engine(b->x), m->dst, m->len);
}

static void both_reclaim(void *ctx, struct hn_msg *m)
{
	struct both *b = ctx;

	if (m->owner == 0xfe)
		hn_idem_reclaimed(b->x, m);
	else
		b->reclaimed++;
}

static const struct hn_ops both_ops = {
	.deliver = both_deliver,
	.reclaim = both_reclaim,
};

TEST(attached_to_an_engine)
{
	struct hn_msg plain = { .src = 1, .dst = 2, .len = 100 };
	struct hn_idem_stats s;
	struct hn_idem_cfg ic;
	struct both b = { 0 };
	struct hn_engine *e;
	struct cl k;
	int rc;

	hn_idem_cfg_default(&ic);
	ASSERT_EQ(0, cl_init(&k, &ic, &ops, 40));
	e = hn_create(&k.c, &both_ops, &b, &rc);
	ASSERT_NE(NULL, e);
	hn_idem_destroy(k.x);		/* cl_init's own: this one instead */
	ic.timeout_ns = 5000;
	k.x = hn_idem_attach(e, &ic, &ops, &k, 0xfe, &rc);
	ASSERT_NE(NULL, k.x);
	b.x = k.x;
	EXPECT_FALSE(hn_idem_busy(k.x));
	EXPECT_EQ(HN_U64_MAX, hn_idem_due(k.x));
	ASSERT_EQ(0, cl_send(&k, 0, 15));
	EXPECT_TRUE(hn_idem_busy(k.x));
	ASSERT_EQ(0, hn_inject(e, &plain, NULL));
	ASSERT_NE(0u, cl_run(&k, 0, 1000000));
	EXPECT_EQ(1u, k.delivered);
	EXPECT_EQ(1u, b.plain);
	EXPECT_FALSE(hn_idem_busy(k.x));
	/* 20 in flight, then the engine and the layer go */
	ASSERT_NE(0u, cl_run(&k, 1000000, hn_now(e) + 300));
	hn_idem_stats(k.x, &s);
	EXPECT_GT(s.send_state_entries + s.waiting, 0u);
	EXPECT_LT(hn_idem_due(k.x), HN_U64_MAX);
	hn_destroy(e);
	hn_idem_destroy(k.x);
	k.x = NULL;
	EXPECT_EQ(k.sent - k.delivered, k.reclaimed);
	cl_fini(&k);
}

TEST(settings_checked)
{
	struct hn_idem_cfg ic;
	struct hn_config c;
	struct hn_err err;
	int rc;

	hn_config_default(&c);
	hn_idem_cfg_default(&ic);
	EXPECT_EQ(0, hn_idem_cfg_check(&ic, NULL));
	ic.loss_ppm[HN_IDEM_ACK2] = 1000001;
	EXPECT_EQ(-EINVAL, hn_idem_cfg_check(&ic, &err));
	hn_idem_cfg_default(&ic);
	ic.timeout_ns = 0;
	ic.flip_ppm = 1;
	EXPECT_EQ(-EINVAL, hn_idem_cfg_check(&ic, &err));
	EXPECT_NE(NULL, strstr(err.msg, "timeout"));
	EXPECT_EQ(NULL, hn_idem_create(&c, &ic, &ops, NULL, &rc));
	EXPECT_EQ(-EINVAL, rc);
	hn_idem_cfg_default(&ic);
	ic.prio[HN_IDEM_ACK] = 16;
	EXPECT_EQ(-EINVAL, hn_idem_cfg_check(&ic, NULL));
	hn_idem_cfg_default(&ic);
	ic.reply_ppm = 1000001;
	EXPECT_EQ(-EINVAL, hn_idem_cfg_check(&ic, NULL));
}

TEST_HARNESS_MAIN
