/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fabric.h - helpers for the tests of the multistage fabrics
 * (test_fabric.c: switch.c; test_flit.c: the flit router): fabrics by
 * profile and shape, Duato's base latencies, one message's latency,
 * random traffic logged for comparison, and a run at offered load 1.0
 * that must drain.  Each test that includes it uses a few of them.
 */
#ifndef HN_TEST_FABRIC_H
#define HN_TEST_FABRIC_H

#include "sim.h"
#include "hn_traffic.h"
#include "hn_sched.h"
#include "topo.h"
#include "cfg_text.h"

/*
 * A pair's messages arrive in order: by destination digit a pair's worms
 * keep to one path, and with one virtual channel to one FIFO in each
 * switch.  Several VCs let two of a pair leave the node at once (the
 * shorter first in), and a worm pass one of the same pair blocked in
 * another, as random and adaptive up-ports let it take another path.
 */
static inline bool in_order(const struct hn_config *c)
{
	return !c->up_select && c->vc_count <= 1;
}

static inline void ft_config(struct hn_config *c, const char *profile, u32 levels,
		      u32 width)
{
	u32 i;

	hn_config_profile(c, profile);
	c->topology = 1;		/* HN_TOPO_FATTREE */
	c->levels = levels;
	c->width = width;
	for (c->nodes = 1, i = 0; i < levels; i++)
		c->nodes *= width;
	c->k = 0;
	c->policy = 0;
}

/*
 * Duato's base latency (Sec. 2.3) with the engine's constants
 * (docs/model.md "Switching techniques"): the input-buffered router of
 * Exercise 2.1, eq. 2.10, t_r = wh_first_ns - wh_flit_ns, t_s + t_w =
 * wh_flit_ns; D links, the first leaving a NIC that makes no routing
 * decision; every link adds its latency wire_ns, every switch fabric_ns,
 * each NIC nic_ns.  A message of packets (worms) of f[0], f[1], ...
 * flits: the first packet's latency, then each further packet's routing
 * and flits.
 */
static inline u64 duato(const struct hn_config *c, u32 sw, u32 D, const u32 *f,
		 u32 n)
{
	u64 tr = c->wh_first_ns - c->wh_flit_ns, cyc = c->wh_flit_ns, t;
	u32 j;

	t = 2 * c->nic_ns + D * (u64)c->wire_ns + (D - 1) * (u64)c->fabric_ns;
	if (sw == 2)			/* store-and-forward, eq. 2.10 */
		t += (D - 1) * tr + D * cyc * f[0];
	else				/* wormhole, eq. 2.10; VCT, 2.3 */
		t += (D - 1) * (tr + cyc) + cyc * (f[0] - 1);
	for (j = 1; j < n; j++)
		t += tr + cyc * f[j];
	return t;
}

/* One message of @len from @src to @dst on an idle fabric: its latency. */
static inline u64 one(const struct hn_config *c, u32 src, u32 dst, u32 len)
{
	struct sim s;
	u64 lat = 0;

	if (sim_init(&s, c) || sim_send(&s, src, dst, len))
		return 0;
	sim_drain(&s, 1000000);
	if (s.nlog == 1 && !hn_check(s.e, NULL))
		lat = s.log[0]->m.t_deliver - s.log[0]->m.t_inject;
	sim_fini(&s);
	return lat;
}

/* @text's fabric under ding4, with no slot: packets only. */
static inline void direct_config(struct hn_config *c, const char *text)
{
	hn_config_profile(c, "ding4");
	hn_topology_parse(c, text, NULL);
	c->k = 0;
	c->policy = 0;
}

/*
 * Random traffic, the same for every engine: each node, every 40 ns,
 * sends w.p. 1/3 a message of 1..max_msg bytes to a random other node
 * (a refused one is counted); then everything drains.  The deliveries
 * in order, with their times, are written into @out (src, dst, len,
 * t_deliver each); returns how many, or -1 if an engine check failed.
 * traffic_sw(): every message of switching @sw (hn_msg.sw); @sw of
 * HN_SW_MIXED: each its own at random, wormhole, VCT, SAF or the fabric's
 * (drawn apart: the traffic is the same).  traffic_at(): and switch j of
 * its own switching @flow[j] (hn_set_switch_flow()), if @flow.
 */
#define HN_SW_MIXED	0xff
static inline int traffic_at(const struct hn_config *c, const u8 *flow,
			     u8 sw, u64 span, u64 seed, u64 *out, u32 max)
{
	struct hn_fabric_info fi = { 0 };
	struct sim s;
	u64 t, refused = 0, sw_seed = seed + 1;
	u32 u, v, i, n = 0;

	if (sim_init(&s, c))
		return -1;
	if (flow && hn_fabric_info(s.e, &fi))
		goto bad;
	for (i = 0; flow && i < fi.switches; i++)
		if (hn_set_switch_flow(s.e, i, flow[i], NULL))
			goto bad;
	s.sw = sw;
	for (t = 0; t < span; t += 40) {
		hn_run_until(s.e, t);
		if (hn_check(s.e, NULL))
			goto bad;
		for (u = 0; u < c->nodes; u++) {
			if (hn_rand_below(&seed, 3))
				continue;
			v = (u + 1 + hn_rand_below(&seed, c->nodes - 1)) %
			    c->nodes;
			if (sw == HN_SW_MIXED)
				s.sw = (u8)hn_rand_below(&sw_seed, 4);
			refused += !!sim_send(&s, u, v, 1 +
					      hn_rand_below(&seed,
							    c->max_msg_bytes));
		}
	}
	sim_drain(&s, span * 1000);
	if (hn_busy(s.e) || hn_check(s.e, NULL) ||
	    (in_order(c) && s.order_errors))
		goto bad;
	for (i = 0; i < s.nlog && n + 4 <= max; i++) {
		out[n++] = s.log[i]->m.src;
		out[n++] = s.log[i]->m.dst;
		out[n++] = s.log[i]->m.len;
		out[n++] = s.log[i]->m.t_deliver;
	}
	out[n++] = refused;
	sim_fini(&s);
	return n;
bad:
	sim_fini(&s);
	return -1;
}

static inline int traffic_sw(const struct hn_config *c, u8 sw, u64 span,
			     u64 seed, u64 *out, u32 max)
{
	return traffic_at(c, NULL, sw, span, seed, out, max);
}

static inline int traffic(const struct hn_config *c, u64 span, u64 seed,
			  u64 *out, u32 max)
{
	return traffic_sw(c, 0, span, seed, out, max);
}

/*
 * At @t each node of @s whose next message from @g is due makes it (a
 * node with none, @held[u] NULL, at its time @next[u]) and offers it to
 * its NIC, which may refuse it (it is offered again next time).  Returns
 * how many the NICs took.
 */
static inline u64 offer(struct sim *s, struct hn_tgen *g, struct tmsg **held,
			u64 *next, u64 t)
{
	u32 u, d, N = s->cfg.nodes;
	u64 made = 0;

	for (u = 0; u < N; u++) {
		if (!held[u] && next[u] <= t) {
			next[u] = hn_tgen_next_ns(g, u);
			d = hn_tgen_dest(g, u);
			if (d == HN_NONE)
				continue;
			held[u] = calloc(1, sizeof(*held[u]));
			held[u]->m.src = u;
			held[u]->m.dst = d;
			held[u]->m.len = hn_tgen_size(g, u);
			held[u]->m.prio = s->prio;
			held[u]->seq = s->next_seq[sim_seq_at(s, u, d, s->prio)];
		}
		if (!held[u])
			continue;
		held[u]->m.t_inject = hn_now(s->e);
		if (hn_inject(s->e, &held[u]->m, NULL))
			continue;	/* full: again later */
		s->next_seq[sim_seq_at(s, u, held[u]->m.dst,
				       held[u]->m.prio)]++;
		held[u] = NULL;
		made++;
	}
	return made;
}

/*
 * Offered load 1.0 of @pattern for @span ns on @c, then nothing more:
 * each node makes a message (1..512 B) at every Bernoulli success at the
 * link rate and holds it until its NIC takes it.  Everything must then
 * drain: every message delivered, hn_check() true, no byte in any switch
 * buffer, no output held.  Meanwhile the engine's memory grows by no more
 * than hn_msg_mem() says for the most messages it held at once, but for
 * the parts the configuration fixes (a stream table of 8 entries per
 * node, an allocation of 64 worms), and hn_trim() gives it all back
 * after the drain.  Returns the messages delivered, or -1.
 */
static inline long saturate(struct __test_metadata *_metadata,
		     const struct hn_config *c, u32 pattern, u64 span,
		     u32 shifts)
{
	struct hn_fabric_info fi;
	struct hn_switch_stats ss;
	struct tmsg *held[64] = { 0 };
	struct hn_tcfg tc;
	struct hn_tgen *g;
	u64 next[64], t, made = 0, stalls = 0, base, peak = 0, fixed;
	struct sim s;
	long n = -1;
	u32 u, sw;
	int rc;

	hn_tcfg_default(&tc, c->nodes);
	tc.pattern = pattern;
	tc.size_dist = HN_SIZE_UNIFORM;
	tc.size = 1;
	tc.size_max = 512;
	tc.load_ppm = HN_PPM;
	if (hn_tcfg_check(&tc, c, NULL))
		return 0;		/* not a pattern of this node count */
	g = hn_tgen_create(&tc, c, &rc);
	if (!g || sim_init(&s, c))
		return -1;
	for (u = 0; u < shifts; u++)	/* slot u: every node to u + u + 1 */
		EXPECT_EQ(0, hn_preload_shift(s.e, u, NULL));
	base = hn_mem_bytes(s.e);
	for (u = 0; u < c->nodes; u++)
		next[u] = hn_tgen_active(g, u) ? hn_tgen_next_ns(g, u) :
			  HN_U64_MAX;
	for (t = 0; t < span; t += 20) {
		hn_run_until(s.e, t);
		made += offer(&s, g, held, next, t);
		if (made - s.nlog > peak)
			peak = made - s.nlog;
	}
	fixed = c->nodes * 8 * sizeof(void *) + 64 * hn_msg_mem(s.e, 1);
	EXPECT_LE(hn_mem_bytes(s.e) - base,
		  peak * hn_msg_mem(s.e, tc.size_max) + fixed);
	for (u = 0; u < c->nodes; u++)
		free(held[u]);
	EXPECT_EQ(0, hn_check(s.e, NULL));
	sim_drain(&s, t + 10000000);
	EXPECT_FALSE(hn_busy(s.e));
	EXPECT_EQ(0, hn_check(s.e, NULL));
	EXPECT_EQ(made, s.nlog);
	hn_fabric_info(s.e, &fi);
	for (sw = 0; sw < fi.switches; sw++) {
		hn_switch_stats(s.e, sw, &ss);
		EXPECT_EQ(0, ss.buf_bytes + ss.held) TH_LOG("switch %u", sw);
		stalls += ss.credit_stalls;
	}
	/* the buffers did fill: headers waited for credit */
	if (pattern == HN_PAT_UNIFORM)
		EXPECT_LT(0, stalls);
	if (in_order(c))
		EXPECT_EQ(0, s.order_errors);
	if (!hn_busy(s.e) && made == s.nlog)
		n = s.nlog;
	hn_trim(s.e);
	EXPECT_EQ(base, hn_mem_bytes(s.e));
	sim_fini(&s);
	hn_tgen_destroy(g);
	return n;
}

/*
 * Full uniform load of 128 B messages on @s, a 4x4 torus, until it
 * deadlocks or @span ns have passed, hn_check() every 20 ns; returns
 * whether it deadlocked, having checked the report: found deadlock_ns or
 * more after the last flit moved, a cycle of channels each leading to
 * the next one's switch around a ring of one dimension (through the
 * flit router, naming its one VC), and EDEADLK for the next message.
 */
static inline bool torus_flood(struct __test_metadata *_metadata,
			       struct sim *s, u64 span)
{
	struct hn_deadlock d;
	struct hn_tport e;
	struct hn_topo t;
	u64 seed = 1, at;
	u32 u, i;

	for (at = 0; at < span && hn_deadlock(s->e, NULL); at += 20) {
		hn_run_until(s->e, at);
		if (hn_check(s->e, NULL))
			return false;
		for (u = 0; u < 16; u++)
			sim_send(s, u, (u + 1 + hn_rand_below(&seed, 15)) % 16,
				 128);
	}
	if (hn_deadlock(s->e, &d))
		return false;
	EXPECT_EQ(0, hn_topo_cube(&t, 2, 4, true, 1, 1));
	EXPECT_LE(s->cfg.deadlock_ns, d.at - d.since);
	EXPECT_LE(2, d.n);
	EXPECT_GE(HN_DL_MAX, d.n);
	for (i = 0; i < d.n && i < HN_DL_MAX; i++) {
		e = t.ops->peer(&t, d.ch[i].sw, d.ch[i].port);
		EXPECT_EQ(d.ch[(i + 1) % d.n].sw, e.sw) TH_LOG("channel %u", i);
		EXPECT_EQ(t.ops->link(&t, d.ch[i].sw, d.ch[i].port),
			  d.ch[i].link);
		EXPECT_EQ(d.ch[0].port, d.ch[i].port);	/* one dimension */
		/* the flit router names the VC: one, 0 */
		EXPECT_EQ(s->cfg.vc_count ? 0 : HN_NONE, d.ch[i].vc);
	}
	EXPECT_EQ(-EDEADLK, sim_send(s, 0, 1, 8));
	EXPECT_EQ(0, hn_check(s->e, NULL));
	hn_topo_fini(&t);
	return true;
}

#endif /* HN_TEST_FABRIC_H */
