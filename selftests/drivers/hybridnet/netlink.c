// SPDX-License-Identifier: GPL-2.0
/*
 * netlink.c - module tests of the generic netlink family "hybridnet":
 * round trips, circuit/wormhole split, a preloaded 2-D mesh, first-fit
 * prediction and why a request was refused, the replies that say what a
 * command changed, bad input (errno and extack text, nothing changed),
 * the clock following a configuration change, each concurrent request's
 * extack its own, permission, events, the fabric's links and switches,
 * the per-pair dump, and a fuzzer.  Expects the module loaded with nodes=16 slots=4 and no
 * file open.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "hn_test.h"
#include "nl_raw.h"
#include "hn_sched.h"

struct circ {
	uint32_t n;
	uint32_t slot[4096], src[4096], dst[4096];
	int intr;
};

static void circ_cb(void *ctx, const struct nlmsghdr *h)
{
	const struct nlattr *tb[HYBRIDNET_ATTR_MAX + 1];
	struct circ *c = ctx;

	if (h->nlmsg_flags & NLM_F_DUMP_INTR)
		c->intr = 1;
	nlr_parse(h, tb, HYBRIDNET_ATTR_MAX);
	if (c->n < 4096 && tb[HYBRIDNET_ATTR_SLOT] && tb[HYBRIDNET_ATTR_SRC] &&
	    tb[HYBRIDNET_ATTR_DST]) {
		c->slot[c->n] = nlr_get_u32(tb[HYBRIDNET_ATTR_SLOT]);
		c->src[c->n] = nlr_get_u32(tb[HYBRIDNET_ATTR_SRC]);
		c->dst[c->n] = nlr_get_u32(tb[HYBRIDNET_ATTR_DST]);
		c->n++;
	}
}

static int dump_circuits(struct nlr *r, struct circ *c)
{
	memset(c, 0, sizeof(*c));
	nlr_msg(r, HYBRIDNET_CMD_CIRCUIT_GET, NLM_F_DUMP);
	return nlr_call(r, circ_cb, c);
}

/* One u32 of the configuration. */
static int64_t config_u32(struct nlr *r, int attr)
{
	const struct nlattr *tb[HYBRIDNET_ATTR_MAX + 1];
	int rc;

	nlr_msg(r, HYBRIDNET_CMD_CONFIG_GET, 0);
	rc = nlr_call(r, NULL, NULL);
	if (rc != 1)
		return rc < 0 ? rc : -EPROTO;
	nlr_parse((const struct nlmsghdr *)r->reply, tb, HYBRIDNET_ATTR_MAX);
	return tb[attr] ? (int64_t)nlr_get_u32(tb[attr]) : -ENOENT;
}

/* One string of the configuration, into @buf of 32 bytes; "" if none. */
static const char *config_str(struct nlr *r, int attr, char *buf)
{
	const struct nlattr *tb[HYBRIDNET_ATTR_MAX + 1];

	buf[0] = 0;
	nlr_msg(r, HYBRIDNET_CMD_CONFIG_GET, 0);
	if (nlr_call(r, NULL, NULL) != 1)
		return buf;
	nlr_parse((const struct nlmsghdr *)r->reply, tb, HYBRIDNET_ATTR_MAX);
	if (tb[attr])
		snprintf(buf, 32, "%.*s", (int)(tb[attr]->nla_len - NLA_HDRLEN),
			 (const char *)tb[attr] + NLA_HDRLEN);
	return buf;
}

static int set_str(struct nlr *r, int attr, const char *s)
{
	nlr_msg(r, HYBRIDNET_CMD_CONFIG_SET, 0);
	nlr_str(r, attr, s);
	return nlr_do(r);
}


static int release_all(struct nlr *r)
{
	nlr_msg(r, HYBRIDNET_CMD_RELEASE, 0);
	nlr_put(r, HYBRIDNET_ATTR_ALL, NULL, 0);
	return nlr_call(r, NULL, NULL);
}

/* Preload @n pairs into @slot. */
static int preload(struct nlr *r, uint32_t slot, const uint32_t (*p)[2],
		   int n)
{
	struct nlattr *sc;
	int i;

	nlr_msg(r, HYBRIDNET_CMD_PRELOAD, 0);
	sc = nlr_nest(r, HYBRIDNET_ATTR_SLOT_CONFIG);
	nlr_u32(r, HYBRIDNET_ATTR_SLOT, slot);
	for (i = 0; i < n; i++)
		nlr_pair(r, p[i][0], p[i][1]);
	nlr_end(r, sc);
	return nlr_do(r);
}

FIXTURE(nl) {
	struct nlr r;
};

FIXTURE_SETUP(nl)
{
	ASSERT_EQ(0, nlr_open(&self->r));
	ASSERT_EQ(0, release_all(&self->r));
	ASSERT_EQ(0, nlr_set_u32(&self->r, HYBRIDNET_ATTR_NODES, 16));
	ASSERT_EQ(0, nlr_set_u32(&self->r, HYBRIDNET_ATTR_SLOTS, 4));
}

FIXTURE_TEARDOWN(nl)
{
	nlr_close(&self->r);
}

TEST_F(nl, config_round_trip)
{
	struct nlr *r = &self->r;

	nlr_msg(r, HYBRIDNET_CMD_CONFIG_SET, 0);
	nlr_u32(r, HYBRIDNET_ATTR_POLICY, HYBRIDNET_POL_SES | HYBRIDNET_POL_SLA);
	nlr_u32(r, HYBRIDNET_ATTR_SLOT_W_NS, 300);
	nlr_u64(r, HYBRIDNET_ATTR_IDLE_TIMEOUT_NS, 123456);
	ASSERT_EQ(0, nlr_do(r));
	EXPECT_EQ(HYBRIDNET_POL_SES | HYBRIDNET_POL_SLA,
		  config_u32(r, HYBRIDNET_ATTR_POLICY));
	EXPECT_EQ(300, config_u32(r, HYBRIDNET_ATTR_SLOT_W_NS));
	/* a structural change: a new engine, new sysfs node directories */
	ASSERT_EQ(0, nlr_set_u32(r, HYBRIDNET_ATTR_NODES, 24));
	EXPECT_EQ(24, config_u32(r, HYBRIDNET_ATTR_NODES));
	EXPECT_EQ(0, access(HN_SYSFS "/nodes/23", F_OK));
	EXPECT_NE(0, access(HN_SYSFS "/nodes/24", F_OK));
	ASSERT_EQ(0, nlr_set_u32(r, HYBRIDNET_ATTR_NODES, 16));
	EXPECT_NE(0, access(HN_SYSFS "/nodes/16", F_OK));
	EXPECT_EQ(HYBRIDNET_POL_SES | HYBRIDNET_POL_SLA,
		  config_u32(r, HYBRIDNET_ATTR_POLICY));
	ASSERT_EQ(0, nlr_set_u32(r, HYBRIDNET_ATTR_POLICY, HYBRIDNET_POL_SES));
}

/*
 * A bound file keeps the fabric from changing shape (EBUSY): the reason
 * names the node and who bound it, the pid and name of this program.
 */
TEST_F(nl, config_busy)
{
	struct nlr *r = &self->r;
	struct hn_handle *h;
	char want[160];

	ASSERT_EQ(0, hn_open(&h, NULL, 0));
	ASSERT_EQ(0, hn_bind(h, 3));
	EXPECT_EQ(-EBUSY, nlr_set_u32(r, HYBRIDNET_ATTR_NODES, 8));
	snprintf(want, sizeof(want),
		 "cannot change the fabric now: node 3 is bound to a file of pid %d (netlink): close it first",
		 getpid());
	EXPECT_STREQ(want, r->msg);
	EXPECT_EQ(16, config_u32(r, HYBRIDNET_ATTR_NODES));
	/* live changes still work */
	EXPECT_EQ(0, nlr_set_u32(r, HYBRIDNET_ATTR_SLOT_P_NS, 250));
	EXPECT_EQ(250, config_u32(r, HYBRIDNET_ATTR_SLOT_P_NS));
	EXPECT_EQ(0, nlr_set_u32(r, HYBRIDNET_ATTR_SLOT_P_NS, 200));
	hn_close(h);
}

TEST_F(nl, preload_then_dump)
{
	static uint32_t p[4][16][2];
	struct nlr *r = &self->r;
	static struct circ c;
	uint32_t s, u, i;

	for (s = 0; s < 4; s++) {
		for (u = 0; u < 16; u++) {
			p[s][u][0] = u;
			p[s][u][1] = (u + s + 1) % 16;
		}
		ASSERT_EQ(0, preload(r, s, p[s], 16));
	}
	ASSERT_EQ(64, dump_circuits(r, &c));
	EXPECT_EQ(0, c.intr);
	for (i = 0; i < c.n; i++)
		EXPECT_EQ((c.src[i] + c.slot[i] + 1) % 16, c.dst[i]);
}

/* Nests for one slot are joined; a duplicate names both slots. */
TEST_F(nl, preload_joined_and_exists)
{
	static const uint32_t a[1][2] = { { 0, 1 } };
	struct nlr *r = &self->r;
	static struct circ c;
	struct nlattr *sc;
	int i;

	nlr_msg(r, HYBRIDNET_CMD_PRELOAD, 0);
	for (i = 0; i < 2; i++) {
		sc = nlr_nest(r, HYBRIDNET_ATTR_SLOT_CONFIG);
		nlr_u32(r, HYBRIDNET_ATTR_SLOT, 1);
		nlr_pair(r, i, i + 2);
		nlr_end(r, sc);
	}
	ASSERT_EQ(0, nlr_do(r));
	ASSERT_EQ(2, dump_circuits(r, &c));
	EXPECT_EQ(1, c.slot[0]);
	EXPECT_EQ(1, c.slot[1]);
	ASSERT_EQ(0, preload(r, 0, a, 1));
	EXPECT_EQ(-EEXIST, preload(r, 2, a, 1));
	EXPECT_STREQ("preload refused: 0:1 for slot 2 is already in slot 0",
		     r->msg);
}

/* Circuit to a destination in the table, wormhole to any other. */
TEST_F(nl, circuit_and_wormhole)
{
	static const uint32_t p[1][2] = { { 0, 1 } };
	struct hybridnet_msg_hdr hdr;
	struct hn_handle *h[3];
	struct nlr *r = &self->r;
	char buf[64];
	int i;

	ASSERT_EQ(0, preload(r, 0, p, 1));
	nlr_msg(r, HYBRIDNET_CMD_STATS_RESET, 0);
	ASSERT_EQ(0, nlr_call(r, NULL, NULL));
	for (i = 0; i < 3; i++) {
		ASSERT_EQ(0, hn_open(&h[i], NULL, 0));
		ASSERT_EQ(0, hn_bind(h[i], i));
	}
	ASSERT_EQ(0, hn_send(h[0], 1, "circuit", 7));
	ASSERT_EQ(0, hn_send(h[0], 2, "wormhole", 8));
	ASSERT_EQ(7, hn_recv(h[1], &hdr, buf, sizeof(buf)));
	EXPECT_EQ(HYBRIDNET_MODE_CIRCUIT, hdr.mode);
	EXPECT_EQ(0, hdr.slot);
	ASSERT_EQ(8, hn_recv(h[2], &hdr, buf, sizeof(buf)));
	EXPECT_EQ(HYBRIDNET_MODE_WORMHOLE, hdr.mode);
	EXPECT_EQ(4, hdr.slot);
	EXPECT_EQ(1, nlr_gstat(r, HYBRIDNET_STAT_RX_MSGS_CIRCUIT));
	EXPECT_EQ(1, nlr_gstat(r, HYBRIDNET_STAT_RX_MSGS_WORMHOLE));
	EXPECT_EQ(1, nlr_gstat(r, HYBRIDNET_STAT_TX_MSGS_CIRCUIT));
	EXPECT_EQ(8, nlr_gstat(r, HYBRIDNET_STAT_RX_BYTES_WORMHOLE));
	for (i = 0; i < 3; i++)
		hn_close(h[i]);
}

/* The PAIR_GET dump: each pair's messages, bytes and mean latency. */
struct pairs {
	uint32_t n;
	uint32_t src[64], dst[64];
	uint64_t st[64][HYBRIDNET_STAT_MAX + 1];
	int now;			/* every message carried NOW */
};

static void pair_cb(void *ctx, const struct nlmsghdr *h)
{
	const struct nlattr *tb[HYBRIDNET_ATTR_MAX + 1];
	const struct nlattr *st[HYBRIDNET_STAT_MAX + 1];
	struct pairs *p = ctx;
	int i;

	nlr_parse(h, tb, HYBRIDNET_ATTR_MAX);
	if (p->n == 64 || !tb[HYBRIDNET_ATTR_SRC] || !tb[HYBRIDNET_ATTR_DST] ||
	    !tb[HYBRIDNET_ATTR_STATS])
		return;
	p->now &= !!tb[HYBRIDNET_ATTR_NOW];
	p->src[p->n] = nlr_get_u32(tb[HYBRIDNET_ATTR_SRC]);
	p->dst[p->n] = nlr_get_u32(tb[HYBRIDNET_ATTR_DST]);
	nlr_parse_nest(tb[HYBRIDNET_ATTR_STATS], st, HYBRIDNET_STAT_MAX);
	for (i = 0; i <= HYBRIDNET_STAT_MAX; i++)
		p->st[p->n][i] = st[i] ? nlr_get_u64(st[i]) : ~0ull;
	p->n++;
}

/* PAIR_GET, every pair or those of @src / @dst (-1: any). */
static int dump_pairs(struct nlr *r, struct pairs *p, int64_t src,
		      int64_t dst)
{
	memset(p, 0, sizeof(*p));
	p->now = 1;
	nlr_msg(r, HYBRIDNET_CMD_PAIR_GET, NLM_F_DUMP);
	if (src >= 0)
		nlr_u32(r, HYBRIDNET_ATTR_SRC, (uint32_t)src);
	if (dst >= 0)
		nlr_u32(r, HYBRIDNET_ATTR_DST, (uint32_t)dst);
	return nlr_call(r, pair_cb, p);
}

/*
 * Three messages 0 -> 1 on a circuit, then one once it is released, one
 * 2 -> 1 by wormhole: PAIR_GET gives both pairs in the order they first
 * delivered, with their split by mode and the receiver's latencies as
 * the mean; STATS_GET the table's size, bound and no overflow, and each
 * mode's latency; the selectors and the reset.
 */
TEST_F(nl, pairs_by_mode)
{
	static const uint32_t p01[1][2] = { { 0, 1 } };
	uint64_t lat[2] = { 0 }, n[2] = { 0 }, i;
	struct hybridnet_msg_hdr hdr;
	struct nlr *r = &self->r;
	struct hn_handle *h[3];
	struct pairs p;
	char buf[64];

	ASSERT_EQ(0, preload(r, 0, p01, 1));
	nlr_msg(r, HYBRIDNET_CMD_STATS_RESET, 0);
	ASSERT_EQ(0, nlr_call(r, NULL, NULL));
	for (i = 0; i < 3; i++) {
		ASSERT_EQ(0, hn_open(&h[i], NULL, 0));
		ASSERT_EQ(0, hn_bind(h[i], i));
	}
	for (i = 0; i < 5; i++) {
		if (i == 3) {
			ASSERT_EQ(0, release_all(r));
		}
		if (i < 4) {
			ASSERT_EQ(0, hn_send(h[0], 1, "abcdefgh", 8));
		} else {
			ASSERT_EQ(0, hn_send(h[2], 1, "abcd", 4));
		}
		ASSERT_LT(0, hn_recv(h[1], &hdr, buf, sizeof(buf)));
		EXPECT_EQ(i < 3 ? HYBRIDNET_MODE_CIRCUIT :
			  HYBRIDNET_MODE_WORMHOLE, hdr.mode);
		if (i < 4) {
			lat[hdr.mode] += hdr.t_deliver - hdr.t_inject;
			n[hdr.mode]++;
		}
	}
	ASSERT_EQ(2, dump_pairs(r, &p, -1, -1));
	EXPECT_TRUE(p.now);
	EXPECT_EQ(0, p.src[0]);
	EXPECT_EQ(1, p.dst[0]);
	EXPECT_EQ(3, p.st[0][HYBRIDNET_STAT_RX_MSGS_CIRCUIT]);
	EXPECT_EQ(1, p.st[0][HYBRIDNET_STAT_RX_MSGS_WORMHOLE]);
	EXPECT_EQ(24, p.st[0][HYBRIDNET_STAT_RX_BYTES_CIRCUIT]);
	EXPECT_EQ(8, p.st[0][HYBRIDNET_STAT_RX_BYTES_WORMHOLE]);
	EXPECT_EQ(lat[0] / n[0], p.st[0][HYBRIDNET_STAT_LAT_MEAN_CIRCUIT_NS]);
	EXPECT_EQ(lat[1], p.st[0][HYBRIDNET_STAT_LAT_MEAN_WORMHOLE_NS]);
	EXPECT_EQ(2, p.src[1]);
	EXPECT_EQ(0, p.st[1][HYBRIDNET_STAT_RX_MSGS_CIRCUIT]);
	EXPECT_EQ(0, p.st[1][HYBRIDNET_STAT_LAT_MEAN_CIRCUIT_NS]);
	EXPECT_EQ(4, p.st[1][HYBRIDNET_STAT_RX_BYTES_WORMHOLE]);
	EXPECT_EQ(2, nlr_gstat(r, HYBRIDNET_STAT_PAIRS));
	EXPECT_EQ(16 * 15, nlr_gstat(r, HYBRIDNET_STAT_PAIRS_MAX));
	EXPECT_EQ(0, nlr_gstat(r, HYBRIDNET_STAT_PAIR_OVERFLOW_MSGS));
	EXPECT_EQ(0, nlr_gstat(r, HYBRIDNET_STAT_PAIR_OVERFLOW_BYTES));
	EXPECT_EQ(lat[0] / n[0],
		  nlr_gstat(r, HYBRIDNET_STAT_LAT_MEAN_CIRCUIT_NS));
	EXPECT_EQ(lat[0] / n[0],
		  hn_sys("nodes/1/lat_mean_circuit_ns"));
	/* the 99th of 3 is the largest */
	EXPECT_EQ(nlr_gstat(r, HYBRIDNET_STAT_LAT_MAX_CIRCUIT_NS),
		  nlr_gstat(r, HYBRIDNET_STAT_LAT_P99_CIRCUIT_NS));
	EXPECT_EQ(hn_sys("stats/lat_p99_wormhole_ns"),
		  nlr_gstat(r, HYBRIDNET_STAT_LAT_P99_WORMHOLE_NS));
	/* the selectors, checked against the fabric */
	ASSERT_EQ(1, dump_pairs(r, &p, 2, -1));
	EXPECT_EQ(2, p.src[0]);
	ASSERT_EQ(2, dump_pairs(r, &p, -1, 1));
	ASSERT_EQ(1, dump_pairs(r, &p, 0, 1));
	ASSERT_EQ(0, dump_pairs(r, &p, 1, 0));
	EXPECT_EQ(-EINVAL, dump_pairs(r, &p, 16, -1));
	EXPECT_STREQ("node out of range (config-get gives nodes)", r->msg);
	EXPECT_EQ(-ERANGE, dump_pairs(r, &p, -1, 4096));	/* the policy's */
	nlr_msg(r, HYBRIDNET_CMD_PAIR_GET, NLM_F_DUMP);
	nlr_u32(r, HYBRIDNET_ATTR_NODE, 1);	/* not the dump's */
	EXPECT_EQ(-EINVAL, nlr_call(r, NULL, NULL));
	/* a reset empties the table */
	nlr_msg(r, HYBRIDNET_CMD_STATS_RESET, 0);
	ASSERT_EQ(0, nlr_call(r, NULL, NULL));
	ASSERT_EQ(0, dump_pairs(r, &p, -1, -1));
	EXPECT_EQ(0, nlr_gstat(r, HYBRIDNET_STAT_PAIRS));
	EXPECT_EQ(0, hn_sys("stats/lat_max_circuit_ns"));
	for (i = 0; i < 3; i++)
		hn_close(h[i]);
}

/* An 8 x 8 torus in 4 slots: nearest-neighbour traffic is all circuit. */
TEST_F(nl, mesh64_all_circuit)
{
	static uint32_t p[4][64][2];
	static struct hn_handle *h[64];
	struct hybridnet_msg_hdr hdr;
	struct nlr *r = &self->r;
	uint32_t u, d, x, y, nb[4];
	char buf[32];

	ASSERT_EQ(0, nlr_set_u32(r, HYBRIDNET_ATTR_NODES, 64));
	for (u = 0; u < 64; u++) {
		x = u % 8;
		y = u / 8;
		nb[0] = y * 8 + (x + 1) % 8;
		nb[1] = y * 8 + (x + 7) % 8;
		nb[2] = (y + 1) % 8 * 8 + x;
		nb[3] = (y + 7) % 8 * 8 + x;
		for (d = 0; d < 4; d++) {
			p[d][u][0] = u;
			p[d][u][1] = nb[d];
		}
	}
	for (d = 0; d < 4; d++)
		ASSERT_EQ(0, preload(r, d, p[d], 64));
	nlr_msg(r, HYBRIDNET_CMD_STATS_RESET, 0);
	ASSERT_EQ(0, nlr_call(r, NULL, NULL));
	for (u = 0; u < 64; u++) {
		ASSERT_EQ(0, hn_open(&h[u], NULL, 0));
		ASSERT_EQ(0, hn_bind(h[u], u));
	}
	for (u = 0; u < 64; u++)
		for (d = 0; d < 4; d++)
			ASSERT_EQ(0, hn_send(h[u], p[d][u][1], "nn", 2));
	for (u = 0; u < 64; u++) {
		for (d = 0; d < 4; d++) {
			ASSERT_EQ(2, hn_recv(h[u], &hdr, buf, sizeof(buf)));
			EXPECT_EQ(HYBRIDNET_MODE_CIRCUIT, hdr.mode);
		}
	}
	EXPECT_EQ(256, nlr_gstat(r, HYBRIDNET_STAT_RX_MSGS_CIRCUIT));
	EXPECT_EQ(0, nlr_gstat(r, HYBRIDNET_STAT_RX_MSGS_WORMHOLE));
	for (u = 0; u < 64; u++)
		hn_close(h[u]);
	ASSERT_EQ(0, release_all(r));
	ASSERT_EQ(0, nlr_set_u32(r, HYBRIDNET_ATTR_NODES, 16));
}

/* First fit (Sec. 3.4.2): 0 -> 1..6 with K = 4 fills slots 0..3, refuses 2. */
TEST_F(nl, predict_first_fit)
{
	struct nlr *r = &self->r;
	struct nlr_grants g = { 0 };
	uint32_t i;

	nlr_msg(r, HYBRIDNET_CMD_PREDICT, 0);
	for (i = 1; i <= 6; i++)
		nlr_pair(r, 0, i);
	ASSERT_EQ(1, nlr_call(r, nlr_grant_cb, &g));
	ASSERT_EQ(6, g.n);
	for (i = 0; i < 4; i++) {
		EXPECT_EQ(HYBRIDNET_GRANT_GRANTED, g.result[i]);
		EXPECT_EQ(i, g.slot[i]);
	}
	EXPECT_EQ(HYBRIDNET_GRANT_REFUSED, g.result[4]);
	EXPECT_EQ(HYBRIDNET_GRANT_REFUSED, g.result[5]);
	EXPECT_EQ(~0u, g.slot[5]);
}

/* A grant's conflicts: per slot, pinned, and up to two pairs. */
struct why {
	uint32_t slots, n;			/* K of the reply, grants */
	uint32_t result[8], nk[8];
	uint32_t kslot[8][4], pinned[8][4], np[8][4];
	uint32_t pair[8][4][2][2];
};

static void why_cb(void *ctx, const struct nlmsghdr *h)
{
	const uint8_t *p = (const uint8_t *)NLMSG_DATA(h) + GENL_HDRLEN;
	const uint8_t *end = (const uint8_t *)h + h->nlmsg_len;
	const struct nlattr *a, *k, *q, *tb[HYBRIDNET_ATTR_MAX + 1];
	const struct nlattr *kt[HYBRIDNET_ATTR_MAX + 1];
	struct why *w = ctx;
	const uint8_t *kp, *qp;
	uint32_t i, j;

	nlr_parse(h, tb, HYBRIDNET_ATTR_MAX);
	if (tb[HYBRIDNET_ATTR_SLOTS])
		w->slots = nlr_get_u32(tb[HYBRIDNET_ATTR_SLOTS]);
	for (; p + NLA_HDRLEN <= end; p += NLR_ALIGN(a->nla_len)) {
		a = (const struct nlattr *)p;
		if ((a->nla_type & NLA_TYPE_MASK) != HYBRIDNET_ATTR_GRANT ||
		    w->n >= 8)
			continue;
		i = w->n++;
		nlr_parse_nest(a, tb, HYBRIDNET_ATTR_MAX);
		w->result[i] = nlr_get_u32(tb[HYBRIDNET_ATTR_RESULT]);
		for (kp = (const uint8_t *)a + NLA_HDRLEN;
		     kp < (const uint8_t *)a + a->nla_len;
		     kp += NLR_ALIGN(k->nla_len)) {
			k = (const struct nlattr *)kp;
			if ((k->nla_type & NLA_TYPE_MASK) !=
			    HYBRIDNET_ATTR_CONFLICT || w->nk[i] >= 4)
				continue;
			j = w->nk[i]++;
			nlr_parse_nest(k, kt, HYBRIDNET_ATTR_MAX);
			w->kslot[i][j] = nlr_get_u32(kt[HYBRIDNET_ATTR_SLOT]);
			w->pinned[i][j] = !!kt[HYBRIDNET_ATTR_PINNED];
			for (qp = kp + NLA_HDRLEN; qp < kp + k->nla_len;
			     qp += NLR_ALIGN(q->nla_len)) {
				q = (const struct nlattr *)qp;
				if ((q->nla_type & NLA_TYPE_MASK) !=
				    HYBRIDNET_ATTR_PAIR || w->np[i][j] >= 2)
					continue;
				nlr_parse_nest(q, kt, HYBRIDNET_ATTR_MAX);
				w->pair[i][j][w->np[i][j]][0] =
					nlr_get_u32(kt[HYBRIDNET_ATTR_SRC]);
				w->pair[i][j][w->np[i][j]++][1] =
					nlr_get_u32(kt[HYBRIDNET_ATTR_DST]);
			}
		}
	}
}

/* The u32 @attr of the reply's top level, or -1. */
static int64_t reply_u32(struct nlr *r, int attr)
{
	const struct nlattr *tb[HYBRIDNET_ATTR_MAX + 1];

	nlr_parse((const struct nlmsghdr *)r->reply, tb, HYBRIDNET_ATTR_MAX);
	return tb[attr] ? (int64_t)nlr_get_u32(tb[attr]) : -1;
}

/*
 * What a command changed: CONFIG_SET says it rebuilt the fabric and how
 * many circuits that released, PRELOAD what each slot held before.
 */
TEST_F(nl, replies_say_what_changed)
{
	static const uint32_t p3[3][2] = { { 0, 1 }, { 1, 2 }, { 2, 3 } };
	const struct nlattr *tb[HYBRIDNET_ATTR_MAX + 1];
	struct nlr *r = &self->r;
	struct nlattr *sc;

	ASSERT_EQ(0, preload(r, 2, p3, 3));
	nlr_msg(r, HYBRIDNET_CMD_CONFIG_SET, 0);
	nlr_u32(r, HYBRIDNET_ATTR_NODES, 12);
	ASSERT_EQ(1, nlr_call(r, NULL, NULL));
	nlr_parse((const struct nlmsghdr *)r->reply, tb, HYBRIDNET_ATTR_MAX);
	EXPECT_NE(NULL, tb[HYBRIDNET_ATTR_REBUILT]);
	EXPECT_EQ(3, reply_u32(r, HYBRIDNET_ATTR_RELEASED));
	/* a live change: a reply that says nothing */
	nlr_msg(r, HYBRIDNET_CMD_CONFIG_SET, 0);
	nlr_u32(r, HYBRIDNET_ATTR_SLOT_P_NS, 250);
	ASSERT_EQ(1, nlr_call(r, NULL, NULL));
	nlr_parse((const struct nlmsghdr *)r->reply, tb, HYBRIDNET_ATTR_MAX);
	EXPECT_EQ(NULL, tb[HYBRIDNET_ATTR_REBUILT]);
	EXPECT_EQ(NULL, tb[HYBRIDNET_ATTR_RELEASED]);
	ASSERT_EQ(0, nlr_set_u32(r, HYBRIDNET_ATTR_SLOT_P_NS, 200));
	/* slot 2: three circuits replaced by one */
	ASSERT_EQ(0, preload(r, 2, p3, 3));
	nlr_msg(r, HYBRIDNET_CMD_PRELOAD, 0);
	sc = nlr_nest(r, HYBRIDNET_ATTR_SLOT_CONFIG);
	nlr_u32(r, HYBRIDNET_ATTR_SLOT, 2);
	nlr_pair(r, 0, 5);
	nlr_end(r, sc);
	ASSERT_EQ(1, nlr_call(r, NULL, NULL));
	nlr_parse((const struct nlmsghdr *)r->reply, tb, HYBRIDNET_ATTR_MAX);
	ASSERT_NE(NULL, tb[HYBRIDNET_ATTR_SLOT_CONFIG]);
	nlr_parse_nest(tb[HYBRIDNET_ATTR_SLOT_CONFIG], tb, HYBRIDNET_ATTR_MAX);
	ASSERT_NE(NULL, tb[HYBRIDNET_ATTR_RELEASED]);
	EXPECT_EQ(2, nlr_get_u32(tb[HYBRIDNET_ATTR_SLOT]));
	EXPECT_EQ(1, nlr_get_u32(tb[HYBRIDNET_ATTR_COUNT]));
	EXPECT_EQ(3, nlr_get_u32(tb[HYBRIDNET_ATTR_RELEASED]));
	ASSERT_EQ(0, release_all(r));
	ASSERT_EQ(0, nlr_set_u32(r, HYBRIDNET_ATTR_NODES, 16));
}

/*
 * A refusal says why, slot by slot: slot 0 is pinned, and in each other
 * slot the circuits that hold the source or the destination.  First fit
 * from slot 1 places 0:1, 0:2, 0:3 in slots 1..3 and 6:4 in slot 1:
 * 0:4 fits nowhere.
 */
TEST_F(nl, predict_says_why)
{
	static const uint32_t pin[1][2] = { { 0, 5 } };
	static const uint32_t req[5][2] = {
		{ 0, 1 }, { 0, 2 }, { 0, 3 }, { 0, 4 }, { 6, 4 },
	};
	struct nlr *r = &self->r;
	static struct why w;
	uint32_t i;

	ASSERT_EQ(0, nlr_set_u32(r, HYBRIDNET_ATTR_PIN_SLOTS, 1));
	ASSERT_EQ(0, preload(r, 0, pin, 1));
	nlr_msg(r, HYBRIDNET_CMD_PREDICT, 0);
	for (i = 0; i < 5; i++)
		nlr_pair(r, req[i][0], req[i][1]);
	memset(&w, 0, sizeof(w));
	ASSERT_EQ(1, nlr_call(r, why_cb, &w));
	EXPECT_EQ(4, w.slots);
	ASSERT_EQ(5, w.n);
	for (i = 0; i < 5; i++) {
		EXPECT_EQ(i == 3 ? HYBRIDNET_GRANT_REFUSED :
			  HYBRIDNET_GRANT_GRANTED, w.result[i]);
		EXPECT_EQ(i == 3 ? 4 : 0, w.nk[i]);	/* one per slot */
	}
	EXPECT_EQ(0, w.kslot[3][0]);
	EXPECT_EQ(1, w.pinned[3][0]);
	EXPECT_EQ(0, w.np[3][0]);
	for (i = 1; i < 4; i++) {
		EXPECT_EQ(i, w.kslot[3][i]);
		EXPECT_EQ(0, w.pinned[3][i]);
		EXPECT_EQ(0, w.pair[3][i][0][0]);	/* 0:i holds 0 */
		EXPECT_EQ(i, w.pair[3][i][0][1]);
	}
	ASSERT_EQ(2, w.np[3][1]);			/* and 6:4 holds 4 */
	EXPECT_EQ(6, w.pair[3][1][1][0]);
	EXPECT_EQ(4, w.pair[3][1][1][1]);
	EXPECT_EQ(1, w.np[3][2]);
	EXPECT_EQ(1, w.np[3][3]);
	ASSERT_EQ(0, release_all(r));
	ASSERT_EQ(0, nlr_set_u32(r, HYBRIDNET_ATTR_PIN_SLOTS, 0));
}

struct sched_reply {
	uint32_t count, n;
	uint32_t result[256], level[256];
	uint8_t route[256][16];
	uint32_t nroute[256];
};

static void sched_cb(void *ctx, const struct nlmsghdr *h)
{
	const uint8_t *p = (const uint8_t *)NLMSG_DATA(h) + GENL_HDRLEN;
	const uint8_t *end = (const uint8_t *)h + h->nlmsg_len;
	const struct nlattr *a, *tb[HYBRIDNET_ATTR_MAX + 1];
	struct sched_reply *s = ctx;

	for (; p + NLA_HDRLEN <= end; p += NLR_ALIGN(a->nla_len)) {
		a = (const struct nlattr *)p;
		if ((a->nla_type & NLA_TYPE_MASK) == HYBRIDNET_ATTR_COUNT)
			s->count = nlr_get_u32(a);
		if ((a->nla_type & NLA_TYPE_MASK) != HYBRIDNET_ATTR_GRANT ||
		    s->n >= 256)
			continue;
		nlr_parse_nest(a, tb, HYBRIDNET_ATTR_MAX);
		s->result[s->n] = nlr_get_u32(tb[HYBRIDNET_ATTR_RESULT]);
		s->level[s->n] = tb[HYBRIDNET_ATTR_LEVEL] ?
				 nlr_get_u32(tb[HYBRIDNET_ATTR_LEVEL]) : 0;
		if (tb[HYBRIDNET_ATTR_ROUTE]) {
			s->nroute[s->n] = tb[HYBRIDNET_ATTR_ROUTE]->nla_len -
					  NLA_HDRLEN;
			memcpy(s->route[s->n], (const uint8_t *)
			       tb[HYBRIDNET_ATTR_ROUTE] + NLA_HDRLEN,
			       s->nroute[s->n]);
		}
		s->n++;
	}
}

/* The kernel's SCHED_RUN equals the same scheduler run in user space. */
static void sched_compare(struct __test_metadata *_metadata, struct nlr *r,
			  const char *topo, const char *algo,
			  const struct hn_sched_params *p,
			  const struct hn_pair *req, uint32_t n)
{
	static struct hn_route want[256];
	static struct sched_reply got;
	struct hn_sched_result res = { 0 };
	uint32_t i;

	memset(&got, 0, sizeof(got));
	nlr_msg(r, HYBRIDNET_CMD_SCHED_RUN, 0);
	nlr_str(r, HYBRIDNET_ATTR_TOPOLOGY, topo);
	nlr_str(r, HYBRIDNET_ATTR_ALGO, algo);
	nlr_u32(r, HYBRIDNET_ATTR_KSTEP, p->k);
	nlr_u64(r, HYBRIDNET_ATTR_SEED, p->seed);
	for (i = 0; i < n; i++)
		nlr_pair(r, req[i].src, req[i].dst);
	ASSERT_EQ(1, nlr_call(r, sched_cb, &got));
	ASSERT_EQ(0, hn_sched_run(p, req, n, want, &res, NULL));
	ASSERT_EQ(n, got.n);
	EXPECT_EQ(res.granted, got.count);
	for (i = 0; i < n; i++) {
		EXPECT_EQ(want[i].granted ? HYBRIDNET_GRANT_GRANTED :
			  HYBRIDNET_GRANT_REFUSED, got.result[i]);
		if (!want[i].granted || p->topology != HN_TOPO_FATTREE)
			continue;
		EXPECT_EQ(want[i].level, got.level[i]);
		EXPECT_EQ(want[i].nports, got.nroute[i]);
		EXPECT_EQ(0, memcmp(want[i].port, got.route[i],
				    want[i].nports));
	}
}

TEST_F(nl, sched_run_matches_user_space)
{
	struct hn_sched_params p = { .topology = HN_TOPO_CROSSBAR,
				     .nodes = 16, .k = 3 };
	static struct hn_pair req[256];
	struct nlr *r = &self->r;
	uint64_t s = 42;
	uint32_t i, n = 0, perm[64];

	/* 60 distinct random requests on a 16 x 16 crossbar */
	while (n < 60) {
		struct hn_pair q;

		q.src = hn_rand_below(&s, 16);
		q.dst = hn_rand_below(&s, 16);
		for (i = 0; i < n; i++)
			if (req[i].src == q.src && req[i].dst == q.dst)
				break;
		if (i == n)
			req[n++] = q;
	}
	p.algo = HN_SCHED_KSTEP;
	sched_compare(_metadata, r, "crossbar:16", "kstep", &p, req, n);
	p.algo = HN_SCHED_GREEDY;
	sched_compare(_metadata, r, "crossbar:16", "greedy", &p, req, n);
	/* a random permutation on FT(3,4), 64 nodes */
	for (i = 0; i < 64; i++)
		perm[i] = i;
	for (i = 63; i > 0; i--) {
		uint32_t j = hn_rand_below(&s, i + 1), t = perm[i];

		perm[i] = perm[j];
		perm[j] = t;
	}
	for (i = 0; i < 64; i++)
		req[i] = (struct hn_pair){ i, perm[i] };
	p = (struct hn_sched_params){ .topology = HN_TOPO_FATTREE,
				      .levels = 3, .width = 4, .k = 9,
				      .seed = 7 };
	p.algo = HN_SCHED_LEVELWISE;
	sched_compare(_metadata, r, "fattree:3,4", "levelwise", &p, req, 64);
	p.algo = HN_SCHED_LOCAL_RANDOM;
	sched_compare(_metadata, r, "fattree:3,4", "local-random", &p, req,
		      64);
	p.algo = HN_SCHED_OPTIMAL;
	sched_compare(_metadata, r, "fattree:3,4", "optimal", &p, req, 64);
	/* bad names */
	nlr_msg(r, HYBRIDNET_CMD_SCHED_RUN, 0);
	nlr_str(r, HYBRIDNET_ATTR_TOPOLOGY, "crossbar:16");
	nlr_str(r, HYBRIDNET_ATTR_ALGO, "nope");
	nlr_pair(r, 0, 1);
	EXPECT_EQ(-EINVAL, nlr_call(r, NULL, NULL));
	EXPECT_STREQ("unknown scheduler 'nope'", r->msg);
	nlr_msg(r, HYBRIDNET_CMD_SCHED_RUN, 0);
	nlr_str(r, HYBRIDNET_ATTR_TOPOLOGY, "ring:8");
	nlr_str(r, HYBRIDNET_ATTR_ALGO, "greedy");
	nlr_pair(r, 0, 1);
	EXPECT_EQ(-EINVAL, nlr_call(r, NULL, NULL));
	EXPECT_STREQ("topology 'ring:8': want crossbar:N or fattree:L,W",
		     r->msg);
}

/* PREDICT with the K-step placement finds the maximum in a slot. */
TEST_F(nl, predict_kstep)
{
	static const uint32_t req[3][2] = { { 0, 1 }, { 0, 2 }, { 2, 1 } };
	struct nlr *r = &self->r;
	struct nlr_grants g = { 0 };
	int algo, i;

	ASSERT_EQ(0, nlr_set_u32(r, HYBRIDNET_ATTR_SLOTS, 1));
	for (algo = 0; algo < 2; algo++) {
		ASSERT_EQ(0, release_all(r));
		nlr_msg(r, HYBRIDNET_CMD_CONFIG_SET, 0);
		nlr_u32(r, HYBRIDNET_ATTR_PREDICT_ALGO, algo);
		nlr_u32(r, HYBRIDNET_ATTR_PREDICT_KSTEP, 3);
		ASSERT_EQ(0, nlr_do(r));
		EXPECT_EQ(algo, config_u32(r, HYBRIDNET_ATTR_PREDICT_ALGO));
		memset(&g, 0, sizeof(g));
		nlr_msg(r, HYBRIDNET_CMD_PREDICT, 0);
		for (i = 0; i < 3; i++)
			nlr_pair(r, req[i][0], req[i][1]);
		ASSERT_EQ(1, nlr_call(r, nlr_grant_cb, &g));
		ASSERT_EQ(3, g.n);
		/* first fit: 0:1 only; K-step: 0:2 and 2:1 */
		EXPECT_EQ(algo ? HYBRIDNET_GRANT_REFUSED :
			  HYBRIDNET_GRANT_GRANTED, g.result[0]);
		EXPECT_EQ(algo ? HYBRIDNET_GRANT_GRANTED :
			  HYBRIDNET_GRANT_REFUSED, g.result[1]);
		EXPECT_EQ(algo ? HYBRIDNET_GRANT_GRANTED :
			  HYBRIDNET_GRANT_REFUSED, g.result[2]);
	}
	ASSERT_EQ(0, nlr_set_u32(r, HYBRIDNET_ATTR_PREDICT_ALGO, 0));
	ASSERT_EQ(0, release_all(r));
	ASSERT_EQ(0, nlr_set_u32(r, HYBRIDNET_ATTR_SLOTS, 4));
}

/*
 * The second-level working set (Sec. 5.2.3): PRELOAD with level 2 stores
 * it; under predict-algo second-level a request for one of its
 * connections swaps it in, and one for the old set swaps that back.
 */
static int predict1(struct nlr *r, uint32_t u, uint32_t v, struct nlr_grants *g)
{
	memset(g, 0, sizeof(*g));
	nlr_msg(r, HYBRIDNET_CMD_PREDICT, 0);
	nlr_pair(r, u, v);
	return nlr_call(r, nlr_grant_cb, g);
}

TEST_F(nl, predict_second_level)
{
	static const uint32_t w[1][2] = { { 0, 1 } }, w2[1][2] = { { 0, 2 } };
	static const uint32_t w2b[1][2] = { { 3, 4 } };
	struct nlr *r = &self->r;
	struct nlr_grants g;
	struct circ c;
	struct nlattr *sc;

	ASSERT_EQ(0, nlr_set_u32(r, HYBRIDNET_ATTR_PREDICT_ALGO, 2));
	EXPECT_EQ(2, config_u32(r, HYBRIDNET_ATTR_PREDICT_ALGO));
	ASSERT_EQ(0, preload(r, 0, w, 1));
	nlr_msg(r, HYBRIDNET_CMD_PRELOAD, 0);
	nlr_u32(r, HYBRIDNET_ATTR_LEVEL, 2);
	sc = nlr_nest(r, HYBRIDNET_ATTR_SLOT_CONFIG);
	nlr_u32(r, HYBRIDNET_ATTR_SLOT, 0);
	nlr_pair(r, w2[0][0], w2[0][1]);
	nlr_end(r, sc);
	sc = nlr_nest(r, HYBRIDNET_ATTR_SLOT_CONFIG);
	nlr_u32(r, HYBRIDNET_ATTR_SLOT, 1);
	nlr_pair(r, w2b[0][0], w2b[0][1]);
	nlr_end(r, sc);
	ASSERT_EQ(0, nlr_do(r));
	/* stored, not in the fabric */
	ASSERT_EQ(1, dump_circuits(r, &c));
	ASSERT_EQ(1, c.n);
	EXPECT_EQ(1, c.dst[0]);
	/* the conditional: 0:2 swaps the second level in */
	ASSERT_EQ(1, predict1(r, 0, 2, &g));
	ASSERT_EQ(1, g.n);
	EXPECT_EQ(HYBRIDNET_GRANT_EXISTS, g.result[0]);
	EXPECT_EQ(0, g.slot[0]);
	ASSERT_EQ(2, dump_circuits(r, &c));
	EXPECT_EQ(2, c.n);
	/* and 0:1 swaps the old set back */
	ASSERT_EQ(1, predict1(r, 0, 1, &g));
	EXPECT_EQ(HYBRIDNET_GRANT_EXISTS, g.result[0]);
	ASSERT_EQ(1, dump_circuits(r, &c));
	ASSERT_EQ(1, c.n);
	EXPECT_EQ(1, c.dst[0]);
	/* a level other than 1 and 2 is refused */
	nlr_msg(r, HYBRIDNET_CMD_PRELOAD, 0);
	nlr_u32(r, HYBRIDNET_ATTR_LEVEL, 3);
	sc = nlr_nest(r, HYBRIDNET_ATTR_SLOT_CONFIG);
	nlr_u32(r, HYBRIDNET_ATTR_SLOT, 2);
	nlr_end(r, sc);
	EXPECT_EQ(-ERANGE, nlr_call(r, NULL, NULL));
	ASSERT_EQ(0, nlr_set_u32(r, HYBRIDNET_ATTR_PREDICT_ALGO, 0));
	ASSERT_EQ(0, release_all(r));
}

/* The eviction predictor (Sec. 5.2.2) is configured live. */
TEST_F(nl, evict_predictor)
{
	struct nlr *r = &self->r;

	nlr_msg(r, HYBRIDNET_CMD_CONFIG_SET, 0);
	nlr_u32(r, HYBRIDNET_ATTR_EVICT_ALGO, 1);
	nlr_u32(r, HYBRIDNET_ATTR_EVICT_COUNT, 7);
	ASSERT_EQ(0, nlr_do(r));
	EXPECT_EQ(1, config_u32(r, HYBRIDNET_ATTR_EVICT_ALGO));
	EXPECT_EQ(7, config_u32(r, HYBRIDNET_ATTR_EVICT_COUNT));
	EXPECT_EQ(-ERANGE, nlr_set_u32(r, HYBRIDNET_ATTR_EVICT_COUNT, 0));
	EXPECT_EQ(-ERANGE, nlr_set_u32(r, HYBRIDNET_ATTR_EVICT_ALGO, 2));
	nlr_msg(r, HYBRIDNET_CMD_CONFIG_SET, 0);
	nlr_u32(r, HYBRIDNET_ATTR_EVICT_ALGO, 0);
	nlr_u32(r, HYBRIDNET_ATTR_EVICT_COUNT, 64 * 4);
	ASSERT_EQ(0, nlr_do(r));
}

/*
 * The switching technique and the up-port choice: every value the engine
 * takes reads back; a value out of range is refused by the policy, and
 * nothing changes.
 */
TEST_F(nl, switching_and_up_select)
{
	struct nlr *r = &self->r;
	uint32_t u;

	for (u = HYBRIDNET_UP_SELECT_DET; u <= HYBRIDNET_UP_SELECT_ADAPTIVE; u++) {
		ASSERT_EQ(0, nlr_set_u32(r, HYBRIDNET_ATTR_UP_SELECT, u));
		EXPECT_EQ(u, config_u32(r, HYBRIDNET_ATTR_UP_SELECT));
	}
	EXPECT_EQ(-ERANGE, nlr_set_u32(r, HYBRIDNET_ATTR_UP_SELECT, 3));
	EXPECT_EQ(HYBRIDNET_UP_SELECT_ADAPTIVE,
		  config_u32(r, HYBRIDNET_ATTR_UP_SELECT));
	ASSERT_EQ(0, nlr_set_u32(r, HYBRIDNET_ATTR_SWITCHING,
				 HYBRIDNET_SWITCHING_WORMHOLE));
	EXPECT_EQ(HYBRIDNET_SWITCHING_WORMHOLE,
		  config_u32(r, HYBRIDNET_ATTR_SWITCHING));
	EXPECT_EQ(-ERANGE, nlr_set_u32(r, HYBRIDNET_ATTR_SWITCHING, 4));
	/* dilation: drop's only, 1..8 */
	EXPECT_EQ(-EINVAL, nlr_set_u32(r, HYBRIDNET_ATTR_DILATION, 2));
	EXPECT_STREQ("configuration refused: dilation above 1 needs switching drop: the other switchings' ports have one channel",
		     r->msg);
	EXPECT_EQ(-ERANGE, nlr_set_u32(r, HYBRIDNET_ATTR_DILATION, 9));
	EXPECT_EQ(-ERANGE, nlr_set_u32(r, HYBRIDNET_ATTR_DILATION, 0));
	EXPECT_EQ(1, config_u32(r, HYBRIDNET_ATTR_DILATION));
	ASSERT_EQ(0, nlr_set_u32(r, HYBRIDNET_ATTR_SWITCHING,
				 HYBRIDNET_SWITCHING_DROP));
	EXPECT_EQ(HYBRIDNET_SWITCHING_DROP,
		  config_u32(r, HYBRIDNET_ATTR_SWITCHING));
	ASSERT_EQ(0, nlr_set_u32(r, HYBRIDNET_ATTR_DILATION, 2));
	EXPECT_EQ(2, config_u32(r, HYBRIDNET_ATTR_DILATION));
	EXPECT_EQ(-EINVAL, nlr_set_u32(r, HYBRIDNET_ATTR_SWITCHING,
				       HYBRIDNET_SWITCHING_VCT));
	ASSERT_EQ(0, nlr_set_u32(r, HYBRIDNET_ATTR_DILATION, 1));
	ASSERT_EQ(0, nlr_set_u32(r, HYBRIDNET_ATTR_SWITCHING,
				 HYBRIDNET_SWITCHING_VCT));
	EXPECT_EQ(HYBRIDNET_SWITCHING_VCT,
		  config_u32(r, HYBRIDNET_ATTR_SWITCHING));
	ASSERT_EQ(0, nlr_set_u32(r, HYBRIDNET_ATTR_SWITCHING,
				 HYBRIDNET_SWITCHING_SAF));
	EXPECT_EQ(HYBRIDNET_SWITCHING_SAF,
		  config_u32(r, HYBRIDNET_ATTR_SWITCHING));
	ASSERT_EQ(0, nlr_set_u32(r, HYBRIDNET_ATTR_SWITCHING,
				 HYBRIDNET_SWITCHING_WORMHOLE));
	ASSERT_EQ(0, nlr_set_u32(r, HYBRIDNET_ATTR_UP_SELECT,
				 HYBRIDNET_UP_SELECT_DET));
}

/*
 * The topology, as text: the crossbar and a fat tree read back, the fat
 * tree with its W^L nodes; text that is no topology is refused with the
 * reason, pointing at the attribute, and nothing changes.
 */
TEST_F(nl, topology)
{
	struct nlr *r = &self->r;
	char buf[32];

	EXPECT_STREQ("crossbar", config_str(r, HYBRIDNET_ATTR_TOPOLOGY, buf));
	nlr_msg(r, HYBRIDNET_CMD_CONFIG_SET, 0);
	nlr_str(r, HYBRIDNET_ATTR_TOPOLOGY, "crossbar");
	nlr_u32(r, HYBRIDNET_ATTR_NODES, 24);
	ASSERT_EQ(0, nlr_do(r));
	EXPECT_STREQ("crossbar", config_str(r, HYBRIDNET_ATTR_TOPOLOGY, buf));
	EXPECT_EQ(24, config_u32(r, HYBRIDNET_ATTR_NODES));
	EXPECT_EQ(-EINVAL, set_str(r, HYBRIDNET_ATTR_TOPOLOGY, "ring:8"));
	EXPECT_STREQ("configuration refused: topology must be crossbar, fattree:L,W, mesh:KxK, torus:KxK or gh:N,K",
		     r->msg);
	EXPECT_EQ(-EINVAL, set_str(r, HYBRIDNET_ATTR_TOPOLOGY, "fattree:3,65"));
	EXPECT_STREQ("configuration refused: topology fattree:L,W: W, the width, must be 2..64",
		     r->msg);
	/* longer than the policy's 15 bytes */
	EXPECT_NE(0, set_str(r, HYBRIDNET_ATTR_TOPOLOGY, "fattree:0000003,4"));
	/* a fat tree reads back, with its W^L nodes, wormhole slot and all */
	ASSERT_EQ(0, set_str(r, HYBRIDNET_ATTR_TOPOLOGY, "fattree:3,4"));
	EXPECT_STREQ("fattree:3,4", config_str(r, HYBRIDNET_ATTR_TOPOLOGY,
					       buf));
	EXPECT_EQ(64, config_u32(r, HYBRIDNET_ATTR_NODES));
	ASSERT_EQ(0, set_str(r, HYBRIDNET_ATTR_TOPOLOGY, "crossbar"));
	ASSERT_EQ(0, nlr_set_u32(r, HYBRIDNET_ATTR_NODES, 24));

	nlr_msg(r, HYBRIDNET_CMD_CONFIG_SET, 0);
	nlr_str(r, HYBRIDNET_ATTR_TOPOLOGY, "fattree:3,4");
	nlr_u32(r, HYBRIDNET_ATTR_POLICY, HYBRIDNET_POL_NO_W);
	ASSERT_EQ(0, nlr_do(r));
	EXPECT_STREQ("fattree:3,4", config_str(r, HYBRIDNET_ATTR_TOPOLOGY, buf));
	EXPECT_EQ(64, config_u32(r, HYBRIDNET_ATTR_NODES));
	EXPECT_EQ(0, access(HN_SYSFS "/nodes/63", F_OK));
	/* nodes alone must stay W^L */
	EXPECT_EQ(-EINVAL, nlr_set_u32(r, HYBRIDNET_ATTR_NODES, 32));
	EXPECT_STREQ("configuration refused: a fat tree FT(l, w) has w^l nodes: nodes must be width^levels",
		     r->msg);
	/* another fat tree of as many nodes is another fabric */
	ASSERT_EQ(0, set_str(r, HYBRIDNET_ATTR_TOPOLOGY, "fattree:2,8"));
	EXPECT_STREQ("fattree:2,8", config_str(r, HYBRIDNET_ATTR_TOPOLOGY, buf));
	EXPECT_EQ(64, config_u32(r, HYBRIDNET_ATTR_NODES));

	nlr_msg(r, HYBRIDNET_CMD_CONFIG_SET, 0);
	nlr_str(r, HYBRIDNET_ATTR_TOPOLOGY, "crossbar");
	nlr_u32(r, HYBRIDNET_ATTR_NODES, 16);
	nlr_u32(r, HYBRIDNET_ATTR_POLICY, HYBRIDNET_POL_SES);
	ASSERT_EQ(0, nlr_do(r));
	EXPECT_STREQ("crossbar", config_str(r, HYBRIDNET_ATTR_TOPOLOGY, buf));
}

/* The fabric's links and switches, as the dumps give them. */
struct fab_chan {
	uint32_t sw, port;	/* sw UINT32_MAX: a node, port its number */
	uint64_t st[HYBRIDNET_STAT_MAX + 1];
};

struct fab {
	uint32_t nlinks, nsw, bad, intr;
	uint32_t link[256], sw[64], level[64];
	struct fab_chan ch[256][2];
	uint64_t swst[64][HYBRIDNET_STAT_MAX + 1];
};

static void fab_stats(const struct nlattr *nest, uint64_t *st)
{
	const struct nlattr *tb[HYBRIDNET_STAT_MAX + 1];
	int i;

	nlr_parse_nest(nest, tb, HYBRIDNET_STAT_MAX);
	for (i = 0; i <= HYBRIDNET_STAT_MAX; i++)
		st[i] = tb[i] ? nlr_get_u64(tb[i]) : UINT64_MAX;
}

static void link_cb(void *ctx, const struct nlmsghdr *h)
{
	const struct nlattr *tb[HYBRIDNET_ATTR_MAX + 1];
	const struct nlattr *ct[HYBRIDNET_ATTR_MAX + 1];
	const uint8_t *p = (const uint8_t *)NLMSG_DATA(h) + GENL_HDRLEN;
	const uint8_t *end = (const uint8_t *)h + h->nlmsg_len;
	struct fab *f = ctx;
	const struct nlattr *a;
	struct fab_chan *c;
	uint32_t n = f->nlinks, d, chans = 0;

	f->intr |= !!(h->nlmsg_flags & NLM_F_DUMP_INTR);
	nlr_parse(h, tb, HYBRIDNET_ATTR_MAX);
	if (n == 256 || !tb[HYBRIDNET_ATTR_LINK] || !tb[HYBRIDNET_ATTR_NOW]) {
		f->bad++;
		return;
	}
	f->link[n] = nlr_get_u32(tb[HYBRIDNET_ATTR_LINK]);
	for (; p + NLA_HDRLEN <= end; p += NLR_ALIGN(a->nla_len)) {
		a = (const struct nlattr *)p;
		if (a->nla_len < NLA_HDRLEN)
			break;
		if ((a->nla_type & NLA_TYPE_MASK) !=
		    HYBRIDNET_ATTR_CHANNEL)
			continue;
		nlr_parse_nest(a, ct, HYBRIDNET_ATTR_MAX);
		if (!ct[HYBRIDNET_ATTR_DIR] || !ct[HYBRIDNET_ATTR_STATS] ||
		    (d = nlr_get_u32(ct[HYBRIDNET_ATTR_DIR])) > 1) {
			f->bad++;
			return;
		}
		c = &f->ch[n][d];
		if (ct[HYBRIDNET_ATTR_NODE]) {
			c->sw = UINT32_MAX;
			c->port = nlr_get_u32(ct[HYBRIDNET_ATTR_NODE]);
		} else if (ct[HYBRIDNET_ATTR_SWITCH] && ct[HYBRIDNET_ATTR_PORT]) {
			c->sw = nlr_get_u32(ct[HYBRIDNET_ATTR_SWITCH]);
			c->port = nlr_get_u32(ct[HYBRIDNET_ATTR_PORT]);
		} else {
			f->bad++;
			return;
		}
		fab_stats(ct[HYBRIDNET_ATTR_STATS], c->st);
		chans++;
	}
	f->bad += chans != 2;
	f->nlinks++;
}

static void switch_cb(void *ctx, const struct nlmsghdr *h)
{
	const struct nlattr *tb[HYBRIDNET_ATTR_MAX + 1];
	struct fab *f = ctx;
	uint32_t n = f->nsw;

	f->intr |= !!(h->nlmsg_flags & NLM_F_DUMP_INTR);
	nlr_parse(h, tb, HYBRIDNET_ATTR_MAX);
	if (n == 64 || !tb[HYBRIDNET_ATTR_SWITCH] || !tb[HYBRIDNET_ATTR_LEVEL] ||
	    !tb[HYBRIDNET_ATTR_NOW] || !tb[HYBRIDNET_ATTR_STATS]) {
		f->bad++;
		return;
	}
	f->sw[n] = nlr_get_u32(tb[HYBRIDNET_ATTR_SWITCH]);
	f->level[n] = nlr_get_u32(tb[HYBRIDNET_ATTR_LEVEL]);
	fab_stats(tb[HYBRIDNET_ATTR_STATS], f->swst[n]);
	f->nsw++;
}

/* Both dumps into @f: 0, or the first one's -errno. */
static int dump_fabric(struct nlr *r, struct fab *f)
{
	int rc;

	memset(f, 0, sizeof(*f));
	nlr_msg(r, HYBRIDNET_CMD_LINK_GET, NLM_F_DUMP);
	rc = nlr_call(r, link_cb, f);
	if (rc < 0)
		return rc;
	nlr_msg(r, HYBRIDNET_CMD_SWITCH_GET, NLM_F_DUMP);
	rc = nlr_call(r, switch_cb, f);
	return rc < 0 ? rc : 0;
}

/* FABRIC_GET's u32 @attr, or -errno */
static int64_t fabric_u32(struct nlr *r, int attr)
{
	const struct nlattr *tb[HYBRIDNET_ATTR_MAX + 1];
	int rc;

	nlr_msg(r, HYBRIDNET_CMD_FABRIC_GET, 0);
	rc = nlr_call(r, NULL, NULL);
	if (rc != 1)
		return rc < 0 ? rc : -EPROTO;
	nlr_parse((const struct nlmsghdr *)r->reply, tb, HYBRIDNET_ATTR_MAX);
	return tb[attr] ? (int64_t)nlr_get_u32(tb[attr]) : -ENOENT;
}

/*
 * @n messages { src, dst, bytes }, to distinct destinations, sent and
 * received, by wormhole (no circuit exists); returns their bytes.
 */
static uint64_t fab_send(struct __test_metadata *_metadata,
			 const uint32_t (*msg)[3], uint32_t n)
{
	struct hn_handle *h[64] = { NULL };
	struct hybridnet_msg_hdr hdr;
	static char buf[4096];
	uint64_t bytes = 0;
	uint32_t i, e, k;

	for (i = 0; i < n; i++)		/* every end bound first */
		for (e = 0; e < 2; e++) {
			k = msg[i][e];
			if (h[k])
				continue;
			ASSERT_EQ(0, hn_open(&h[k], NULL, 0));
			ASSERT_EQ(0, hn_bind(h[k], k));
		}
	for (i = 0; i < n; i++) {
		memset(buf, (int)i, msg[i][2]);
		ASSERT_EQ(0, hn_send(h[msg[i][0]], msg[i][1], buf, msg[i][2]));
		bytes += msg[i][2];
	}
	for (i = 0; i < n; i++) {
		ASSERT_EQ((int)msg[i][2], hn_recv(h[msg[i][1]], &hdr, buf,
						  sizeof(buf)));
		EXPECT_EQ(HYBRIDNET_MODE_WORMHOLE, hdr.mode);
	}
	for (i = 0; i < 64; i++)
		if (h[i])
			hn_close(h[i]);
	return bytes;
}

/*
 * LINK_GET and SWITCH_GET: on the crossbar with wormhole switching its
 * one switch and a link a node, each node's up channel carrying what it
 * sent and its down channel what it was delivered; on an idle FT(3,4)
 * every link and switch, its ends and zero counters; after wormhole
 * traffic the counters sum as they must (the nodes' up channels carried
 * what was injected, their down channels what was delivered, each switch
 * sent what its output channels carried), and sysfs fabric/levelN/ sums
 * them per level.
 */
TEST_F(nl, fabric_dumps)
{
	static const uint32_t msg[4][3] = {	/* src, dst, bytes */
		{ 0, 63, 300 }, { 5, 10, 1000 }, { 63, 0, 77 }, { 10, 5, 2500 },
	};
	static const uint32_t xmsg[5][3] = {	/* on the crossbar */
		{ 0, 15, 300 }, { 5, 10, 1000 }, { 15, 0, 77 }, { 10, 5, 2500 },
		{ 3, 12, 64 },
	};
	static const int fields[] = {
		HYBRIDNET_STAT_BYTES, HYBRIDNET_STAT_WORMS,
		HYBRIDNET_STAT_BUSY_NS, HYBRIDNET_STAT_CREDIT_STALLS,
		HYBRIDNET_STAT_BUF_PEAK, HYBRIDNET_STAT_BUF_BYTE_NS,
		HYBRIDNET_STAT_CIRCUIT_BYTES,
	};
	static const int swfields[] = {
		HYBRIDNET_STAT_BYTES, HYBRIDNET_STAT_WORMS,
		HYBRIDNET_STAT_BLOCKED_NS, HYBRIDNET_STAT_CREDIT_STALLS,
		HYBRIDNET_STAT_BUF_PEAK, HYBRIDNET_STAT_BUF_BYTE_NS,
		HYBRIDNET_STAT_BUF_BYTES, HYBRIDNET_STAT_HELD,
		HYBRIDNET_STAT_CIRCUIT_BYTES,
	};
	uint64_t up = 0, down = 0, chan = 0, swb = 0, lvb[3] = { 0 };
	uint64_t lvbusy[3][2] = { { 0 } }, injected = 0;
	uint64_t sent[16] = { 0 }, got[16] = { 0 }, worms = 0;
	static struct fab f;
	struct nlr *r = &self->r;
	char buf[32];
	uint32_t i, d, k;

	/*
	 * The crossbar with wormhole switching: switch 0, its port p node
	 * p's link, zero counters after a reset; then its counters move
	 */
	ASSERT_EQ(0, nlr_set_u32(r, HYBRIDNET_ATTR_SWITCHING,
				 HYBRIDNET_SWITCHING_WORMHOLE));
	EXPECT_STREQ("crossbar", config_str(r, HYBRIDNET_ATTR_TOPOLOGY, buf));
	nlr_msg(r, HYBRIDNET_CMD_STATS_RESET, 0);
	ASSERT_EQ(0, nlr_call(r, NULL, NULL));
	EXPECT_EQ(1, fabric_u32(r, HYBRIDNET_ATTR_LEVELS));
	EXPECT_EQ(16, fabric_u32(r, HYBRIDNET_ATTR_LINKS));
	EXPECT_EQ(1, fabric_u32(r, HYBRIDNET_ATTR_SWITCHES));
	ASSERT_EQ(0, dump_fabric(r, &f));
	EXPECT_EQ(0, f.bad);
	EXPECT_EQ(0, f.intr);
	ASSERT_EQ(16, f.nlinks);
	ASSERT_EQ(1, f.nsw);
	EXPECT_EQ(0, f.sw[0]);
	EXPECT_EQ(0, f.level[0]);
	for (k = 0; k < ARRAY_SIZE(swfields); k++)
		EXPECT_EQ(0, f.swst[0][swfields[k]]);
	for (i = 0; i < 16; i++) {
		EXPECT_EQ(i, f.link[i]);
		EXPECT_EQ(UINT32_MAX, f.ch[i][0].sw);	/* node i up */
		EXPECT_EQ(i, f.ch[i][0].port);
		EXPECT_EQ(0, f.ch[i][1].sw);		/* port i down */
		EXPECT_EQ(i, f.ch[i][1].port);
		for (d = 0; d < 2; d++)
			for (k = 0; k < ARRAY_SIZE(fields); k++)
				EXPECT_EQ(0, f.ch[i][d].st[fields[k]]);
	}
	EXPECT_EQ(1, hn_sys("fabric/levels"));
	EXPECT_EQ(0, hn_sys("fabric/level0/bytes"));
	EXPECT_NE(0, access(HN_SYSFS "/fabric/level1", F_OK));

	injected = fab_send(_metadata, xmsg, ARRAY_SIZE(xmsg));
	for (i = 0; i < ARRAY_SIZE(xmsg); i++) {
		sent[xmsg[i][0]] += xmsg[i][2];
		got[xmsg[i][1]] += xmsg[i][2];
	}
	EXPECT_EQ(injected, nlr_gstat(r, HYBRIDNET_STAT_TX_BYTES_WORMHOLE));
	ASSERT_EQ(0, dump_fabric(r, &f));
	EXPECT_EQ(0, f.bad);
	ASSERT_EQ(16, f.nlinks);
	ASSERT_EQ(1, f.nsw);
	for (i = 0; i < 16; i++) {
		EXPECT_EQ(sent[i], f.ch[i][0].st[HYBRIDNET_STAT_BYTES]);
		EXPECT_EQ(got[i], f.ch[i][1].st[HYBRIDNET_STAT_BYTES]);
		for (d = 0; d < 2; d++) {
			const uint64_t *st = f.ch[i][d].st;

			EXPECT_EQ(!st[HYBRIDNET_STAT_BYTES],
				  !st[HYBRIDNET_STAT_BUSY_NS]);
			EXPECT_EQ(!st[HYBRIDNET_STAT_BYTES],
				  !st[HYBRIDNET_STAT_WORMS]);
			EXPECT_EQ(0, st[HYBRIDNET_STAT_CIRCUIT_BYTES]);
			lvbusy[0][d] += st[HYBRIDNET_STAT_BUSY_NS];
		}
		worms += f.ch[i][1].st[HYBRIDNET_STAT_WORMS];
	}
	/* every worm crossed switch 0 once, out on its destination's link */
	EXPECT_EQ(injected, f.swst[0][HYBRIDNET_STAT_BYTES]);
	EXPECT_EQ(worms, f.swst[0][HYBRIDNET_STAT_WORMS]);
	EXPECT_LE(ARRAY_SIZE(xmsg), worms);
	EXPECT_EQ(0, f.swst[0][HYBRIDNET_STAT_BUF_BYTES]);
	EXPECT_EQ(0, f.swst[0][HYBRIDNET_STAT_HELD]);
	EXPECT_EQ(injected, hn_sys("fabric/level0/bytes"));
	EXPECT_EQ(worms, hn_sys("fabric/level0/worms"));
	EXPECT_EQ(1, hn_sys("fabric/level0/switches"));
	EXPECT_EQ(16, hn_sys("fabric/level0/links"));
	EXPECT_EQ(lvbusy[0][0], hn_sys("fabric/level0/up_busy_ns"));
	EXPECT_EQ(lvbusy[0][1], hn_sys("fabric/level0/down_busy_ns"));
	memset(lvbusy, 0, sizeof(lvbusy));

	/* an idle fat tree: every link and switch, zero counters */
	ASSERT_EQ(0, set_str(r, HYBRIDNET_ATTR_TOPOLOGY, "fattree:3,4"));
	EXPECT_EQ(3, fabric_u32(r, HYBRIDNET_ATTR_LEVELS));
	EXPECT_EQ(4, fabric_u32(r, HYBRIDNET_ATTR_WIDTH));
	EXPECT_EQ(64, fabric_u32(r, HYBRIDNET_ATTR_NODES));
	EXPECT_EQ(48, fabric_u32(r, HYBRIDNET_ATTR_SWITCHES));
	EXPECT_EQ(8, fabric_u32(r, HYBRIDNET_ATTR_RADIX));
	EXPECT_EQ(192, fabric_u32(r, HYBRIDNET_ATTR_LINKS));
	EXPECT_EQ(5, fabric_u32(r, HYBRIDNET_ATTR_MAX_HOPS));
	EXPECT_EQ(3, hn_sys("fabric/levels"));
	EXPECT_EQ(192, hn_sys("fabric/links"));
	EXPECT_EQ(0, access(HN_SYSFS "/fabric/level2/up_busy_ns", F_OK));
	EXPECT_NE(0, access(HN_SYSFS "/fabric/level3", F_OK));
	ASSERT_EQ(0, dump_fabric(r, &f));
	EXPECT_EQ(0, f.bad);
	EXPECT_EQ(0, f.intr);
	ASSERT_EQ(192, f.nlinks);	/* several messages: resumed */
	ASSERT_EQ(48, f.nsw);
	for (i = 0; i < 192; i++) {
		EXPECT_EQ(i, f.link[i]);
		for (d = 0; d < 2; d++)
			for (k = 0; k < ARRAY_SIZE(fields); k++)
				EXPECT_EQ(0, f.ch[i][d].st[fields[k]]);
		if (i < 64) {	/* node i up to its leaf SW(0, i / 4) */
			EXPECT_EQ(UINT32_MAX, f.ch[i][0].sw);
			EXPECT_EQ(i, f.ch[i][0].port);
			EXPECT_EQ(i / 4, f.ch[i][1].sw);
			EXPECT_EQ(i % 4, f.ch[i][1].port);
			continue;
		}
		/* level L-1's up-port to level L's down-port */
		EXPECT_EQ(i / 64 - 1, f.ch[i][0].sw / 16);
		EXPECT_LE(4, f.ch[i][0].port);
		EXPECT_EQ(i / 64, f.ch[i][1].sw / 16);
		EXPECT_GT(4, f.ch[i][1].port);
	}
	for (i = 0; i < 48; i++) {
		EXPECT_EQ(i, f.sw[i]);
		EXPECT_EQ(i / 16, f.level[i]);
		for (k = 0; k < ARRAY_SIZE(swfields); k++)
			EXPECT_EQ(0, f.swst[i][swfields[k]]);
	}

	/* traffic by wormhole through the tree */
	injected = fab_send(_metadata, msg, ARRAY_SIZE(msg));
	EXPECT_EQ(injected, nlr_gstat(r, HYBRIDNET_STAT_TX_BYTES_WORMHOLE));
	ASSERT_EQ(0, dump_fabric(r, &f));
	EXPECT_EQ(0, f.bad);
	ASSERT_EQ(192, f.nlinks);
	ASSERT_EQ(48, f.nsw);
	for (i = 0; i < 192; i++)
		for (d = 0; d < 2; d++) {
			const uint64_t *st = f.ch[i][d].st;

			if (i < 64)
				*(d ? &down : &up) += st[HYBRIDNET_STAT_BYTES];
			if (i >= 64 || d)	/* a switch's output drives it */
				chan += st[HYBRIDNET_STAT_BYTES];
			lvbusy[i / 64][d] += st[HYBRIDNET_STAT_BUSY_NS];
			/* a channel that carried bytes was held */
			EXPECT_EQ(!st[HYBRIDNET_STAT_BYTES],
				  !st[HYBRIDNET_STAT_BUSY_NS]);
			EXPECT_EQ(!st[HYBRIDNET_STAT_BYTES],
				  !st[HYBRIDNET_STAT_WORMS]);
		}
	EXPECT_EQ(injected, up);	/* what the nodes sent */
	EXPECT_EQ(injected, down);	/* what they were delivered */
	for (i = 0; i < 48; i++) {
		swb += f.swst[i][HYBRIDNET_STAT_BYTES];
		lvb[i / 16] += f.swst[i][HYBRIDNET_STAT_BYTES];
		EXPECT_EQ(0, f.swst[i][HYBRIDNET_STAT_BUF_BYTES]);
		EXPECT_EQ(0, f.swst[i][HYBRIDNET_STAT_HELD]);
	}
	EXPECT_EQ(chan, swb);
	/* 0 -> 63 and 63 -> 0 cross the top; 5 <-> 10 turn at level 1 */
	EXPECT_EQ(2 * (300 + 77 + 1000 + 2500), lvb[0]);
	EXPECT_EQ(2 * (300 + 77) + 1000 + 2500, lvb[1]);
	EXPECT_EQ(300 + 77, lvb[2]);
	for (i = 0; i < 3; i++) {
		EXPECT_EQ(lvb[i], hn_sys("fabric/level%u/bytes", i));
		EXPECT_EQ(16, hn_sys("fabric/level%u/switches", i));
		EXPECT_EQ(64, hn_sys("fabric/level%u/links", i));
		EXPECT_EQ(lvbusy[i][0], hn_sys("fabric/level%u/up_busy_ns", i));
		EXPECT_EQ(lvbusy[i][1],
			  hn_sys("fabric/level%u/down_busy_ns", i));
	}

	/* one link, one switch; the selector checked against the fabric */
	memset(&f, 0, sizeof(f));
	nlr_msg(r, HYBRIDNET_CMD_LINK_GET, NLM_F_DUMP);
	nlr_u32(r, HYBRIDNET_ATTR_LINK, 70);
	ASSERT_EQ(1, nlr_call(r, link_cb, &f));
	EXPECT_EQ(70, f.link[0]);
	nlr_msg(r, HYBRIDNET_CMD_LINK_GET, NLM_F_DUMP);
	nlr_u32(r, HYBRIDNET_ATTR_LINK, 192);
	EXPECT_EQ(-EINVAL, nlr_call(r, NULL, NULL));
	EXPECT_STREQ("link out of range (fabric-get gives links)", r->msg);
	nlr_msg(r, HYBRIDNET_CMD_SWITCH_GET, NLM_F_DUMP);
	nlr_u32(r, HYBRIDNET_ATTR_SWITCH, 48);
	EXPECT_EQ(-EINVAL, nlr_call(r, NULL, NULL));
	EXPECT_STREQ("switch out of range (fabric-get gives switches)", r->msg);
	nlr_msg(r, HYBRIDNET_CMD_SWITCH_GET, NLM_F_DUMP);
	nlr_u64(r, HYBRIDNET_ATTR_SWITCH, 1);	/* not a u32 */
	EXPECT_EQ(-EINVAL, nlr_call(r, NULL, NULL));
	nlr_msg(r, HYBRIDNET_CMD_LINK_GET, NLM_F_DUMP);
	nlr_u32(r, HYBRIDNET_ATTR_NODES, 1);	/* not the dump's */
	EXPECT_EQ(-EINVAL, nlr_call(r, NULL, NULL));
	nlr_msg(r, HYBRIDNET_CMD_FABRIC_GET, 0);
	nlr_u32(r, HYBRIDNET_ATTR_LINK, 1);	/* FABRIC_GET takes none */
	EXPECT_EQ(-EINVAL, nlr_call(r, NULL, NULL));

	/* back to a crossbar: the levels above 0 go */
	ASSERT_EQ(0, set_str(r, HYBRIDNET_ATTR_TOPOLOGY, "crossbar"));
	ASSERT_EQ(0, nlr_set_u32(r, HYBRIDNET_ATTR_NODES, 16));
	EXPECT_NE(0, access(HN_SYSFS "/fabric/level1", F_OK));
	EXPECT_EQ(0, access(HN_SYSFS "/fabric/level0", F_OK));
	EXPECT_NE(0, access(HN_SYSFS "/fabric/level2", F_OK));
}

/* Bad input: errno and extack text, and nothing changes. */
TEST_F(nl, bad_input)
{
	static const uint32_t ok[2][2] = { { 0, 1 }, { 1, 2 } };
	static const uint32_t clash[2][2] = { { 2, 3 }, { 4, 3 } };
	static const uint32_t dup[2][2] = { { 5, 6 }, { 5, 6 } };
	static const uint32_t far[1][2] = { { 100, 1 } };
	static const uint32_t self_[2][2] = { { 7, 8 }, { 9, 9 } };
	static struct circ before, after;
	struct nlr *r = &self->r;
	int64_t tx;
	uint32_t i;

	ASSERT_EQ(0, preload(r, 0, ok, 2));
	ASSERT_EQ(2, dump_circuits(r, &before));
	tx = nlr_gstat(r, HYBRIDNET_STAT_PRELOADS);

	nlr_msg(r, HYBRIDNET_CMD_PREDICT, 0);
	EXPECT_EQ(-EINVAL, nlr_call(r, NULL, NULL));
	EXPECT_STREQ("missing pair attribute", r->msg);

	EXPECT_EQ(-EINVAL, preload(r, 1, far, 1));
	EXPECT_STREQ("pair 100:1: node 100 out of range (16 nodes)", r->msg);

	EXPECT_EQ(-EINVAL, preload(r, 7, ok, 2));
	EXPECT_STREQ("slot 7 out of range (4 predictive slots)", r->msg);

	EXPECT_EQ(-EINVAL, preload(r, 1, clash, 2));
	EXPECT_STREQ("preload refused: two circuits to one output in slot 1: 2:3 and 4:3",
		     r->msg);

	EXPECT_EQ(-EINVAL, preload(r, 1, dup, 2));
	EXPECT_STREQ("preload refused: two circuits from one input in slot 1: 5:6 and 5:6",
		     r->msg);

	/* a circuit from a node to itself carries nothing */
	EXPECT_EQ(-EINVAL, preload(r, 1, self_, 2));
	EXPECT_STREQ("preload refused: a circuit cannot connect a node to itself (slot 1, node 9)",
		     r->msg);
	nlr_msg(r, HYBRIDNET_CMD_PREDICT, 0);
	nlr_pair(r, 7, 8);
	nlr_pair(r, 9, 9);
	EXPECT_EQ(-EINVAL, nlr_call(r, NULL, NULL));
	EXPECT_STREQ("predict refused: a circuit cannot connect a node to itself (node 9)",
		     r->msg);

	nlr_msg(r, HYBRIDNET_CMD_PREDICT, 0);
	for (i = 0; i < HYBRIDNET_MAX_PAIRS + 1; i++)
		nlr_pair(r, i % 16, (i + 1) % 16);
	EXPECT_EQ(-E2BIG, nlr_call(r, NULL, NULL));
	EXPECT_STREQ("4097 requests: at most 4096 per message", r->msg);

	nlr_msg(r, HYBRIDNET_CMD_RELEASE, 0);
	EXPECT_EQ(-EINVAL, nlr_call(r, NULL, NULL));
	EXPECT_STREQ("give exactly one of pair, slot or all", r->msg);

	nlr_msg(r, HYBRIDNET_CMD_PRELOAD, 0);
	EXPECT_EQ(-EINVAL, nlr_call(r, NULL, NULL));
	EXPECT_STREQ("missing slot-config attribute", r->msg);

	nlr_msg(r, 99, 0);
	EXPECT_EQ(-EOPNOTSUPP, nlr_call(r, NULL, NULL));

	/* an attribute the operation does not take */
	nlr_msg(r, HYBRIDNET_CMD_CONFIG_GET, 0);
	nlr_u32(r, HYBRIDNET_ATTR_NODES, 4);
	EXPECT_EQ(-EINVAL, nlr_call(r, NULL, NULL));

	/* policy: out of range */
	EXPECT_EQ(-ERANGE, nlr_set_u32(r, HYBRIDNET_ATTR_NODES, 5000));
	EXPECT_EQ(-ERANGE, nlr_set_u32(r, HYBRIDNET_ATTR_SLOTS, 65));
	/* a random count of 0 takes nothing down (its event named no link) */
	for (i = 0; i < 2; i++) {
		nlr_msg(r, HYBRIDNET_CMD_FAULT_SET, 0);
		nlr_u32(r, i ? HYBRIDNET_ATTR_RANDOM_CHANNELS :
			HYBRIDNET_ATTR_RANDOM, 0);
		EXPECT_EQ(-ERANGE, nlr_call(r, NULL, NULL)) TH_LOG("%u", i);
	}

	ASSERT_EQ(2, dump_circuits(r, &after));
	EXPECT_EQ(0, memcmp(&before, &after, sizeof(before)));
	EXPECT_EQ(tx, nlr_gstat(r, HYBRIDNET_STAT_PRELOADS));
	EXPECT_EQ(16, config_u32(r, HYBRIDNET_ATTR_NODES));
}

/*
 * The clock derives its batch, stall threshold, step and receive batch
 * from the configuration: they follow a live change (slot lengths) and a
 * rebuild (node count), as the values computed from the new one.
 */
TEST_F(nl, clock_follows_config)
{
	struct nlr *r = &self->r;
	int64_t rx_buf = config_u32(r, HYBRIDNET_ATTR_RX_BUF_BYTES);
	int64_t p = config_u32(r, HYBRIDNET_ATTR_SLOT_P_NS);
	int64_t w = config_u32(r, HYBRIDNET_ATTR_SLOT_W_NS);
	uint64_t stall = hn_sys("clock/stall_ns");

	ASSERT_EQ(0, nlr_set_u32(r, HYBRIDNET_ATTR_SLOT_P_NS, 10 * p));
	ASSERT_EQ(0, nlr_set_u32(r, HYBRIDNET_ATTR_SLOT_W_NS, 10 * w));
	/* (k + 1) slots, each at least 10 p, in each of at least 3 cycles */
	EXPECT_LT(stall, hn_sys("clock/stall_ns"));
	EXPECT_LE(5ull * 10 * p * 3, hn_sys("clock/stall_ns"));
	ASSERT_EQ(0, nlr_set_u32(r, HYBRIDNET_ATTR_SLOT_P_NS, p));
	ASSERT_EQ(0, nlr_set_u32(r, HYBRIDNET_ATTR_SLOT_W_NS, w));
	EXPECT_EQ(stall, hn_sys("clock/stall_ns"));

	/* a new engine: 16384 / nodes steps per batch, at most 64 */
	EXPECT_EQ(64, hn_sys("clock/budget"));
	ASSERT_EQ(0, nlr_set_u32(r, HYBRIDNET_ATTR_NODES, 1024));
	EXPECT_EQ(16, hn_sys("clock/budget"));
	ASSERT_EQ(0, nlr_set_u32(r, HYBRIDNET_ATTR_RX_BUF_BYTES, 2 * rx_buf));
	EXPECT_EQ(rx_buf / 2, hn_sys("clock/rx_batch"));
	ASSERT_EQ(0, nlr_set_u32(r, HYBRIDNET_ATTR_RX_BUF_BYTES, rx_buf));
	EXPECT_EQ(rx_buf / 4, hn_sys("clock/rx_batch"));
	ASSERT_EQ(0, nlr_set_u32(r, HYBRIDNET_ATTR_NODES, 16));
	EXPECT_EQ(64, hn_sys("clock/budget"));
}

/*
 * Four threads, each on its own socket, send PREDICT with a pair out of
 * range, each its own: every reply's extack names that thread's pair,
 * never another's.
 */
#define XT_THREADS	4
#define XT_CALLS	4000

struct xt_arg {
	uint32_t id;
	uint32_t calls, wrong, failed;
	char last[256];
};

static void *xt_thread(void *p)
{
	struct nlr *r = calloc(1, sizeof(*r));
	struct xt_arg *a = p;
	char want[128];
	uint32_t i, bad = 100 + a->id;

	if (!r || nlr_open(r)) {
		a->failed = XT_CALLS;
		free(r);
		return NULL;
	}
	snprintf(want, sizeof(want),
		 "pair %u:1: node %u out of range (16 nodes)", bad, bad);
	for (i = 0; i < XT_CALLS; i++) {
		nlr_msg(r, HYBRIDNET_CMD_PREDICT, 0);
		nlr_pair(r, bad, 1);
		if (nlr_call(r, NULL, NULL) != -EINVAL) {
			a->failed++;
			continue;
		}
		a->calls++;
		if (strcmp(r->msg, want)) {
			a->wrong++;
			snprintf(a->last, sizeof(a->last), "%s", r->msg);
		}
	}
	nlr_close(r);
	free(r);
	return NULL;
}

TEST_F_TIMEOUT(nl, extack_per_request, 600)
{
	static struct xt_arg arg[XT_THREADS];
	pthread_t t[XT_THREADS];
	uint32_t i;

	for (i = 0; i < XT_THREADS; i++) {
		arg[i].id = i;
		ASSERT_EQ(0, pthread_create(&t[i], NULL, xt_thread, &arg[i]));
	}
	for (i = 0; i < XT_THREADS; i++)
		pthread_join(t[i], NULL);
	for (i = 0; i < XT_THREADS; i++) {
		EXPECT_EQ(XT_CALLS, arg[i].calls);
		EXPECT_EQ(0, arg[i].failed);
		EXPECT_EQ(0, arg[i].wrong) {
			TH_LOG("thread %u got \"%s\"", i, arg[i].last);
		}
	}
}

static int netdev_del_node(struct nlr *r, uint32_t node)
{
	nlr_msg(r, HYBRIDNET_CMD_NETDEV_DEL, 0);
	nlr_u32(r, HYBRIDNET_ATTR_NODE, node);
	return nlr_call(r, NULL, NULL);
}

/* the last NETDEV_GET message's node and name */
static void netdev_cb(void *ctx, const struct nlmsghdr *h)
{
	const struct nlattr *tb[HYBRIDNET_ATTR_MAX + 1];
	char *out = ctx;

	nlr_parse(h, tb, HYBRIDNET_ATTR_MAX);
	if (tb[HYBRIDNET_ATTR_NODE] && tb[HYBRIDNET_ATTR_IFNAME])
		snprintf(out, 64, "%u %s",
			 nlr_get_u32(tb[HYBRIDNET_ATTR_NODE]),
			 (const char *)tb[HYBRIDNET_ATTR_IFNAME] + NLA_HDRLEN);
}

/* An RTM_GETLINK reply: "KIND fabric F node N mtu M" */
static void getlink_cb(void *ctx, const struct nlmsghdr *h)
{
	const struct nlattr *tb[IFLA_MAX + 1], *li[IFLA_INFO_MAX + 1];
	const struct nlattr *d[IFLA_HYBRIDNET_MAX + 1];
	char *out = ctx;

	nlr_parse_after(h, NLMSG_ALIGN(sizeof(struct ifinfomsg)), tb, IFLA_MAX);
	if (!tb[IFLA_LINKINFO] || !tb[IFLA_MTU])
		return;
	nlr_parse_nest(tb[IFLA_LINKINFO], li, IFLA_INFO_MAX);
	if (!li[IFLA_INFO_KIND] || !li[IFLA_INFO_DATA])
		return;
	nlr_parse_nest(li[IFLA_INFO_DATA], d, IFLA_HYBRIDNET_MAX);
	if (d[IFLA_HYBRIDNET_FABRIC] && d[IFLA_HYBRIDNET_NODE])
		snprintf(out, 64, "%s fabric %u node %u mtu %u",
			 (const char *)li[IFLA_INFO_KIND] + NLA_HDRLEN,
			 nlr_get_u32(d[IFLA_HYBRIDNET_FABRIC]),
			 nlr_get_u32(d[IFLA_HYBRIDNET_NODE]),
			 nlr_get_u32(tb[IFLA_MTU]));
}

static int link_get(struct nlr *rt, const char *name, char *out)
{
	out[0] = 0;
	nlr_link_start(rt, RTM_GETLINK, 0);
	nlr_str(rt, IFLA_IFNAME, name);
	return nlr_call(rt, getlink_cb, out);
}

static void with_address(struct nlr *r)
{
	static const uint8_t mac[6] = { 2, 0, 0, 0, 0, 1 };

	nlr_put(r, IFLA_ADDRESS, mac, sizeof(mac));
}

static void with_mtu_1000(struct nlr *r)
{
	nlr_u32(r, IFLA_MTU, 1000);
}

static void with_mtu_big(struct nlr *r)
{
	nlr_u32(r, IFLA_MTU, 100000);
}

/*
 * The link kind (RTM_NEWLINK, the only way interfaces are made): its
 * policy, refusals and their text, what RTM_GETLINK gives back; NETDEV_GET
 * and _DEL.  16 nodes, max_msg_bytes the profile's.
 */
TEST_F(nl, netdev)
{
	struct nlr *r = &self->r, rt;
	char last[64] = "", want[64];

	ASSERT_EQ(0, nlr_route_open(&rt));
	EXPECT_EQ(-ERANGE, nlr_link_add(&rt, "nl-t3", -1, HYBRIDNET_MAX_NODES,
					NULL));
	EXPECT_EQ(-EINVAL, nlr_link_add(&rt, "nl-t3", -1, 16, NULL));
	EXPECT_STREQ("the node is out of the fabric's range (hnctl show nodes)",
		     rt.msg);
	EXPECT_EQ(-ENODEV, nlr_link_add(&rt, "nl-t3", 1, 3, NULL));
	EXPECT_STREQ("no such fabric in this network namespace (hnctl fabric lists them)",
		     rt.msg);
	EXPECT_EQ(-EINVAL, nlr_link_add(&rt, "nl-t3", 0, 3, with_address));
	EXPECT_STREQ("an interface's MAC is its node's, 02:68:6e:00:HH:LL",
		     rt.msg);
	EXPECT_EQ(-EINVAL, nlr_link_add(&rt, "nl-t3", 0, 3, with_mtu_big));
	EXPECT_STREQ("the MTU is above the fabric's, max_msg_bytes less 14",
		     rt.msg);
	/* nothing claimed by any of them */
	nlr_msg(r, HYBRIDNET_CMD_NETDEV_GET, NLM_F_DUMP);
	EXPECT_EQ(0, nlr_call(r, NULL, NULL));

	ASSERT_EQ(0, nlr_link_add(&rt, "nl-t3", 0, 3, with_mtu_1000));
	EXPECT_EQ(1, link_get(&rt, "nl-t3", last));
	EXPECT_STREQ("hybridnet fabric 0 node 3 mtu 1000", last);
	nlr_msg(r, HYBRIDNET_CMD_NETDEV_GET, NLM_F_DUMP);
	EXPECT_EQ(1, nlr_call(r, netdev_cb, last));
	EXPECT_STREQ("3 nl-t3", last);
	EXPECT_EQ(-EBUSY, nlr_link_add(&rt, "nl-t3b", -1, 3, NULL));
	EXPECT_STREQ("the node has an interface already", rt.msg);
	/* rtnetlink's own refusal of a name taken */
	EXPECT_EQ(-EEXIST, nlr_link_add(&rt, "nl-t3", -1, 4, NULL));
	/* no node: the lowest free one; no name: hnN */
	ASSERT_EQ(0, nlr_link_add(&rt, NULL, -1, -1, NULL));
	EXPECT_EQ(1, link_get(&rt, "hn0", last));
	snprintf(want, sizeof(want), "hybridnet fabric 0 node 0 mtu %lld",
		 (long long)config_u32(r, HYBRIDNET_ATTR_MAX_MSG_BYTES) - 14);
	EXPECT_STREQ(want, last);
	/* an interface cannot change its node */
	nlr_link_start(&rt, RTM_NEWLINK, 0);
	nlr_str(&rt, IFLA_IFNAME, "hn0");
	{
		struct nlattr *info = nlr_nest(&rt, IFLA_LINKINFO), *data;

		nlr_str(&rt, IFLA_INFO_KIND, "hybridnet");
		data = nlr_nest(&rt, IFLA_INFO_DATA);
		nlr_u32(&rt, IFLA_HYBRIDNET_NODE, 5);
		nlr_end(&rt, data);
		nlr_end(&rt, info);
	}
	EXPECT_EQ(-EOPNOTSUPP, nlr_call(&rt, NULL, NULL));
	/* a rebuild while an interface holds a node */
	EXPECT_EQ(-EBUSY, nlr_set_u32(r, HYBRIDNET_ATTR_NODES, 8));
	EXPECT_STREQ("cannot change the fabric now: node 0 has the interface hn0: delete it first (hnctl netdev del hn0)",
		     r->msg);

	nlr_msg(r, HYBRIDNET_CMD_NETDEV_DEL, 0);
	EXPECT_EQ(-EINVAL, nlr_call(r, NULL, NULL));
	nlr_msg(r, HYBRIDNET_CMD_NETDEV_DEL, 0);
	nlr_str(r, HYBRIDNET_ATTR_IFNAME, "lo");
	EXPECT_EQ(-EOPNOTSUPP, nlr_call(r, NULL, NULL));
	EXPECT_STREQ("lo is not an interface of hybridnet", r->msg);
	EXPECT_EQ(0, netdev_del_node(r, 3));
	EXPECT_EQ(-ENODEV, netdev_del_node(r, 3));
	EXPECT_STREQ("node 3 has no interface", r->msg);
	EXPECT_EQ(0, netdev_del_node(r, 0));
	nlr_msg(r, HYBRIDNET_CMD_NETDEV_GET, NLM_F_DUMP);
	EXPECT_EQ(0, nlr_call(r, NULL, NULL));
	nlr_close(&rt);
}

static int capture_on(struct nlr *r, const char *name, int snaplen, int ring)
{
	nlr_msg(r, HYBRIDNET_CMD_CAPTURE_ON, 0);
	if (name)
		nlr_str(r, HYBRIDNET_ATTR_IFNAME, name);
	if (snaplen >= 0)
		nlr_u32(r, HYBRIDNET_ATTR_SNAPLEN, snaplen);
	if (ring >= 0)
		nlr_u32(r, HYBRIDNET_ATTR_RING, ring);
	return nlr_call(r, NULL, NULL);
}

/* CAPTURE_GET's reply: "NAME SNAPLEN RING CAPTURED", or "off" */
static void capture_cb(void *ctx, const struct nlmsghdr *h)
{
	const struct nlattr *tb[HYBRIDNET_ATTR_MAX + 1];
	char *out = ctx;

	nlr_parse(h, tb, HYBRIDNET_ATTR_MAX);
	if (!tb[HYBRIDNET_ATTR_IFNAME]) {
		snprintf(out, 64, "off");
		return;
	}
	snprintf(out, 64, "%s %u %u %llu",
		 (const char *)tb[HYBRIDNET_ATTR_IFNAME] + NLA_HDRLEN,
		 nlr_get_u32(tb[HYBRIDNET_ATTR_SNAPLEN]),
		 nlr_get_u32(tb[HYBRIDNET_ATTR_RING]),
		 (unsigned long long)nlr_get_u64(tb[HYBRIDNET_ATTR_CAPTURED]));
}

/* CAPTURE_ON, _OFF and _GET: the policy, the refusals and their text. */
TEST_F(nl, capture)
{
	struct nlr *r = &self->r;
	char got[64] = "";

	nlr_msg(r, HYBRIDNET_CMD_CAPTURE_GET, 0);
	EXPECT_EQ(1, nlr_call(r, capture_cb, got));
	EXPECT_STREQ("off", got);
	EXPECT_EQ(-ERANGE, capture_on(r, NULL, 65536, -1));
	EXPECT_EQ(-ERANGE, capture_on(r, NULL, -1, 0));
	EXPECT_EQ(-ERANGE, capture_on(r, NULL, -1, 65537));
	EXPECT_EQ(-EINVAL, capture_on(r, "a/b", -1, -1));
	EXPECT_STREQ("\"a/b\" is not a valid interface name", r->msg);
	EXPECT_EQ(-EINVAL, capture_on(r, "sixteen-chars-xx", -1, -1));
	nlr_msg(r, HYBRIDNET_CMD_CAPTURE_OFF, 0);
	EXPECT_EQ(-ENODEV, nlr_call(r, NULL, NULL));
	EXPECT_STREQ("capture is off: there is no capture interface", r->msg);
	EXPECT_EQ(-EEXIST, capture_on(r, "lo", -1, -1));
	EXPECT_STREQ("the name lo is taken in this network namespace", r->msg);

	ASSERT_EQ(0, capture_on(r, NULL, -1, -1));
	nlr_msg(r, HYBRIDNET_CMD_CAPTURE_GET, 0);
	EXPECT_EQ(1, nlr_call(r, capture_cb, got));
	EXPECT_STREQ("hnmon0 65535 1024 0", got);
	EXPECT_EQ(-EEXIST, capture_on(r, "cap1", 0, 1));
	EXPECT_STREQ("capture is on already: hnmon0 (hnctl capture off first)",
		     r->msg);
	nlr_msg(r, HYBRIDNET_CMD_CAPTURE_OFF, 0);
	EXPECT_EQ(0, nlr_call(r, NULL, NULL));

	ASSERT_EQ(0, capture_on(r, "nl-cap", 0, 65536));
	nlr_msg(r, HYBRIDNET_CMD_CAPTURE_GET, 0);
	EXPECT_EQ(1, nlr_call(r, capture_cb, got));
	EXPECT_STREQ("nl-cap 0 65536 0", got);
	nlr_msg(r, HYBRIDNET_CMD_CAPTURE_OFF, 0);
	EXPECT_EQ(0, nlr_call(r, NULL, NULL));
	nlr_msg(r, HYBRIDNET_CMD_CAPTURE_GET, 0);
	EXPECT_EQ(1, nlr_call(r, capture_cb, got));
	EXPECT_STREQ("off", got);
}

/*
 * An unprivileged user in a user and network namespace of its own has
 * CAP_NET_ADMIN there, which is all rtnetlink asks of RTM_NEWLINK: the
 * link kind refuses it, as its namespace has no fabric (fabric 0 is the
 * initial namespace's, and FABRIC_NEW needs CAP_NET_ADMIN in the initial
 * user namespace), whichever node and fabric it asks for; it claims
 * nothing, and root still makes interfaces after it.  Skipped on a
 * kernel without user namespaces.
 */
TEST_F(nl, userns)
{
	struct nlr *r = &self->r, rt;
	int status;
	pid_t pid = fork();

	ASSERT_LE(0, pid);
	if (!pid) {
		int bad = 0, rc, n;

		if (setresgid(65534, 65534, 65534) ||
		    setresuid(65534, 65534, 65534))
			_exit(100);
		if (unshare(CLONE_NEWUSER | CLONE_NEWNET))
			_exit(errno == EINVAL || errno == ENOSPC ? 99 : 101);
		if (nlr_route_open(&rt))
			_exit(102);
		for (n = -1; n < 4; n++) {
			rc = nlr_link_add(&rt, NULL, -1, n, NULL);
			bad |= rc != -ENODEV;
			bad |= strcmp(rt.msg, "no fabric in this network namespace (hnctl fabric add makes one)") != 0;
			rc = nlr_link_add(&rt, NULL, 0, n, NULL);
			bad |= (rc != -ENODEV) << 1;
		}
		_exit(bad);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	if (WEXITSTATUS(status) == 99)
		SKIP(return, "no user namespaces in this kernel");
	EXPECT_EQ(0, WEXITSTATUS(status));
	/* it claimed nothing, and nobody is locked out */
	nlr_msg(r, HYBRIDNET_CMD_NETDEV_GET, NLM_F_DUMP);
	EXPECT_EQ(0, nlr_call(r, NULL, NULL));
	ASSERT_EQ(0, nlr_route_open(&rt));
	EXPECT_EQ(0, nlr_link_add(&rt, "nl-u0", -1, 0, NULL));
	EXPECT_EQ(0, nlr_link_add(&rt, "nl-u1", -1, -1, NULL));
	nlr_msg(r, HYBRIDNET_CMD_NETDEV_GET, NLM_F_DUMP);
	EXPECT_EQ(2, nlr_call(r, NULL, NULL));
	EXPECT_EQ(0, netdev_del_node(r, 0));
	EXPECT_EQ(0, netdev_del_node(r, 1));
	nlr_close(&rt);
}

/* Without CAP_NET_ADMIN: read, but not change. */
TEST_F(nl, permission)
{
	static const uint32_t p[1][2] = { { 0, 1 } };
	int status;
	pid_t pid = fork();

	ASSERT_LE(0, pid);
	if (!pid) {
		struct nlr c, rt;
		int bad = 0;

		if (setresgid(65534, 65534, 65534) ||
		    setresuid(65534, 65534, 65534))
			_exit(100);
		if (nlr_open(&c))
			_exit(101);
		bad |= config_u32(&c, HYBRIDNET_ATTR_NODES) != 16;
		bad |= (nlr_set_u32(&c, HYBRIDNET_ATTR_POLICY, 0) != -EPERM) << 1;
		bad |= (preload(&c, 0, p, 1) != -EPERM) << 2;
		bad |= (release_all(&c) != -EPERM) << 3;
		nlr_msg(&c, HYBRIDNET_CMD_STATS_RESET, 0);
		bad |= (nlr_call(&c, NULL, NULL) != -EPERM) << 4;
		nlr_msg(&c, HYBRIDNET_CMD_CIRCUIT_GET, NLM_F_DUMP);
		bad |= (nlr_call(&c, NULL, NULL) < 0) << 5;
		bad |= (nlr_route_open(&rt) ||
			nlr_link_add(&rt, NULL, -1, 0, NULL) != -EPERM) << 7;
		nlr_msg(&c, HYBRIDNET_CMD_NETDEV_DEL, 0);
		nlr_u32(&c, HYBRIDNET_ATTR_NODE, 0);
		bad |= (nlr_call(&c, NULL, NULL) != -EPERM) << 8;
		nlr_msg(&c, HYBRIDNET_CMD_NETDEV_GET, NLM_F_DUMP);
		bad |= (nlr_call(&c, NULL, NULL) < 0) << 9;
		bad |= (capture_on(&c, NULL, -1, -1) != -EPERM) << 10;
		nlr_msg(&c, HYBRIDNET_CMD_CAPTURE_OFF, 0);
		bad |= (nlr_call(&c, NULL, NULL) != -EPERM) << 11;
		nlr_msg(&c, HYBRIDNET_CMD_CAPTURE_GET, 0);
		bad |= (nlr_call(&c, NULL, NULL) < 0) << 12;
		/* the events group is the administrators' */
		bad |= (!c.mcgrp ||
			!setsockopt(c.fd, SOL_NETLINK, NETLINK_ADD_MEMBERSHIP,
				    &c.mcgrp, sizeof(c.mcgrp)) ||
			errno != EPERM) << 6;
		_exit(bad);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_EQ(0, WEXITSTATUS(status));
	EXPECT_EQ(0, dump_circuits(&self->r, &(struct circ){ 0 }));
}

/* A predict that granted nothing sends no (bare) grant event. */
TEST_F(nl, events_no_bare_grant)
{
	static const uint32_t p[1][2] = { { 3, 4 } };
	const struct nlattr *tb[HYBRIDNET_ATTR_MAX + 1];
	struct nlr *r = &self->r;
	static struct nlr ev;
	int n;

	ASSERT_EQ(0, nlr_set_u32(r, HYBRIDNET_ATTR_SLOTS, 1));
	ASSERT_EQ(0, preload(r, 0, p, 1));
	ASSERT_EQ(0, nlr_open(&ev));
	ASSERT_EQ(0, setsockopt(ev.fd, SOL_NETLINK, NETLINK_ADD_MEMBERSHIP,
				&ev.mcgrp, sizeof(ev.mcgrp)));
	nlr_msg(r, HYBRIDNET_CMD_PREDICT, 0);
	nlr_pair(r, 3, 5);			/* 3 is taken in the one slot */
	ASSERT_EQ(1, nlr_call(r, NULL, NULL));
	ASSERT_EQ(0, release_all(r));
	n = recv(ev.fd, ev.rx, sizeof(ev.rx), MSG_DONTWAIT);
	ASSERT_LT(0, n);
	nlr_parse((struct nlmsghdr *)ev.rx, tb, HYBRIDNET_ATTR_MAX);
	ASSERT_NE(NULL, tb[HYBRIDNET_ATTR_EVENT]);
	EXPECT_EQ(HYBRIDNET_EVENT_RELEASE, nlr_get_u32(tb[HYBRIDNET_ATTR_EVENT]));
	nlr_close(&ev);
	ASSERT_EQ(0, nlr_set_u32(r, HYBRIDNET_ATTR_SLOTS, 4));
}

/* The events group sees a preload, a grant, a release. */
TEST_F(nl, events)
{
	static const uint32_t p[1][2] = { { 3, 4 } };
	const struct nlattr *tb[HYBRIDNET_ATTR_MAX + 1];
	struct nlr *r = &self->r;
	static struct nlr ev;
	uint32_t want[3] = { HYBRIDNET_EVENT_PRELOAD, HYBRIDNET_EVENT_GRANT,
			     HYBRIDNET_EVENT_RELEASE };
	struct nlmsghdr *h;
	int i, n;

	ASSERT_EQ(0, nlr_open(&ev));
	ASSERT_NE(0, ev.mcgrp);
	ASSERT_EQ(0, setsockopt(ev.fd, SOL_NETLINK, NETLINK_ADD_MEMBERSHIP,
				&ev.mcgrp, sizeof(ev.mcgrp)));
	ASSERT_EQ(0, preload(r, 1, p, 1));
	nlr_msg(r, HYBRIDNET_CMD_PREDICT, 0);
	nlr_pair(r, 5, 6);
	ASSERT_EQ(1, nlr_call(r, NULL, NULL));
	ASSERT_EQ(0, release_all(r));
	for (i = 0; i < 3; i++) {
		n = recv(ev.fd, ev.rx, sizeof(ev.rx), MSG_DONTWAIT);
		ASSERT_LT(0, n);
		h = (struct nlmsghdr *)ev.rx;
		nlr_parse(h, tb, HYBRIDNET_ATTR_MAX);
		ASSERT_NE(NULL, tb[HYBRIDNET_ATTR_EVENT]);
		EXPECT_EQ(want[i], nlr_get_u32(tb[HYBRIDNET_ATTR_EVENT]));
	}
	nlr_close(&ev);
}

/* Thousands of random messages: no kernel warning, still usable. */
/* A valid configuration, drawn from @s, between fuzzed messages. */
static void fuzz_config(struct nlr *r, uint64_t s)
{
	static const uint32_t nodes[] = { 4, 8, 16, 16 };

	nlr_msg(r, HYBRIDNET_CMD_TRAFFIC_STOP, 0);
	nlr_call(r, NULL, NULL);
	nlr_msg(r, HYBRIDNET_CMD_CONFIG_SET, 0);
	nlr_u32(r, HYBRIDNET_ATTR_NODES, nodes[s % 4]);
	nlr_u32(r, HYBRIDNET_ATTR_SLOTS, (s >> 8) % 9);
	nlr_u32(r, HYBRIDNET_ATTR_POLICY, (s >> 16) % 4);
	nlr_u32(r, HYBRIDNET_ATTR_SLOT_P_NS, 100 + (s >> 24) % 2000);
	nlr_call(r, NULL, NULL);	/* EBUSY while traffic drains: fine */
}

/* Start a dump and close the socket after its first message. */
static void fuzz_cut_dump(uint8_t cmd)
{
	struct nlr *c = calloc(1, sizeof(*c));

	if (c && !nlr_open(c)) {
		nlr_msg(c, cmd, NLM_F_DUMP);
		((struct nlmsghdr *)c->buf)->nlmsg_len = c->len;
		send(c->fd, c->buf, c->len, 0);
		recv(c->fd, c->rx, 512, MSG_TRUNC);
		nlr_close(c);
	}
	free(c);
}

/*
 * Seeded junk on every command (HN_FUZZ_SEED, HN_FUZZ_OPS; 3000 messages
 * by default; HN_FUZZ_SECONDS for a time limit instead): random attributes, nests four deep, oversized attributes,
 * a valid random configuration every 100 messages, dumps cut short.  The
 * module must answer each and stay usable.
 */
TEST_F_TIMEOUT(nl, fuzz, 7200)
{
	static const uint32_t p[1][2] = { { 0, 1 } };
	static uint8_t big[65000];
	const char *e = getenv("HN_FUZZ_SEED");
	uint64_t s = e ? strtoull(e, NULL, 0) : 0x5eed, n = 3000, end = 0;
	struct nlr *r = &self->r;
	struct nlattr *nest[4];
	int i, j, depth;

	e = getenv("HN_FUZZ_OPS");
	if (e)
		n = strtoull(e, NULL, 0);
	e = getenv("HN_FUZZ_SECONDS");	/* a time limit instead */
	if (e) {
		end = hn_now_ns() + strtoull(e, NULL, 0) * 1000000000ull;
		n = UINT64_MAX;
	}
	for (i = 0; (uint64_t)i < n && (!end || hn_now_ns() < end); i++) {
		uint8_t junk[40];

		s = s * 6364136223846793005ULL + 1442695040888963407ULL;
		if (i % 100 == 99)
			fuzz_config(r, s);
		if (i % 250 == 249)
			fuzz_cut_dump((s >> 7) & 1 ? HYBRIDNET_CMD_STATS_GET :
				      HYBRIDNET_CMD_CIRCUIT_GET);
		nlr_msg(r, (s >> 33) % (HYBRIDNET_CMD_MAX + 2),
			(s >> 40) % 5 == 0 ? NLM_F_DUMP : 0);
		depth = 0;
		for (j = 0; j < (int)((s >> 20) % 12); j++) {
			uint16_t type = (s >> (j % 40)) % (HYBRIDNET_ATTR_MAX + 4);
			uint16_t len = (s >> (j * 3 % 50)) % 24;

			s = s * 6364136223846793005ULL + 1442695040888963407ULL;
			if ((s >> 60) == 0 && depth < 4) {
				nest[depth++] = nlr_nest(r, type);
				continue;
			}
			if ((s >> 52) == 0 && r->len + sizeof(big) + 8 <
			    sizeof(r->buf)) {
				memset(big, (int)s, sizeof(big));
				nlr_put(r, type, big, sizeof(big));
				continue;
			}
			memcpy(junk, &s, 8);
			memcpy(junk + 8, &s, 8);
			junk[16] = (s >> 7) & 0x3f;
			nlr_put(r, type, junk, len);
			if (depth && (s >> 59) == 1)
				nlr_end(r, nest[--depth]);
		}
		while (depth)
			nlr_end(r, nest[--depth]);
		nlr_call(r, NULL, NULL);
	}
	TH_LOG("%d fuzzed messages", i);
	/* still usable, once the generator's messages have drained */
	nlr_msg(r, HYBRIDNET_CMD_TRAFFIC_STOP, 0);
	ASSERT_EQ(0, nlr_call(r, NULL, NULL));
	ASSERT_EQ(0, hn_quiesce(20000));
	ASSERT_EQ(0, release_all(r));
	ASSERT_EQ(0, nlr_set_u32(r, HYBRIDNET_ATTR_NODES, 16));
	ASSERT_EQ(0, nlr_set_u32(r, HYBRIDNET_ATTR_SLOTS, 4));
	ASSERT_EQ(0, nlr_set_u32(r, HYBRIDNET_ATTR_POLICY, 0));
	ASSERT_EQ(0, nlr_set_u32(r, HYBRIDNET_ATTR_SLOT_P_NS, 200));
	ASSERT_EQ(0, preload(r, 0, p, 1));
	EXPECT_EQ(16, config_u32(r, HYBRIDNET_ATTR_NODES));
	ASSERT_EQ(0, release_all(r));
}

TEST_HARNESS_MAIN
