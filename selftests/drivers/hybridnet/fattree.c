// SPDX-License-Identifier: GPL-2.0
/*
 * fattree.c - the module on a fat tree FT(l, w) (Ch. 7; issue 13, step
 * 5): what works on the crossbar works on the tree.  Each test loads the
 * module itself with topology=fattree:3,4 and with fattree:2,8 (64 nodes
 * each) and unloads it at the end.
 *
 * A pair's level H is the level of its nearest common ancestor: 0 when
 * both nodes hang on one leaf switch, H when their node numbers, written
 * in base w, first differ (from the top) in digit H.  A pair of level H
 * climbs H levels and comes down H (Sec. 7.3).
 *
 * - exchange: at every level H = 0..l-1 every node sends to the node whose
 *   digit H is one higher and to the one whose digit H is one lower,
 *   messages of 1 B to max_msg_bytes (one worm of worm_bytes and many),
 *   all at once; each arrives once, in order, from its source, intact,
 *   by wormhole, and the statistics count them so.  Under wormhole,
 *   virtual cut-through and store-and-forward switching; with the random
 *   and the adaptive up-port choice, which may reorder a pair's messages
 *   (Duato, Sec. 2.3.2), each arrives once.
 * - circuits: a PRELOAD of those permutations, one slot each, routed by
 *   level-wise (ft_sched's default): the same messages go by circuit,
 *   the circuit dump gives every circuit its path, and the paths, walked
 *   by the parent formula of Theorem 3, meet at the common ancestor and
 *   are link-disjoint in each slot; paths given by the caller are kept,
 *   a conflicting one is refused with EBUSY naming the link and its
 *   holder, and nothing of the refused preload stays; PREDICT grants
 *   pairs of every level, which then go by circuit.
 * - generator: the in-kernel generator runs every traffic pattern to its
 *   end and delivers all it injected.
 * - policies: fixed, SES, SLA, PREEMPT and Dynamic TDM each carry the
 *   generator's traffic and the device's through the tree.
 */
#include <poll.h>

#include "kselftest_harness.h"
#include "hn_test.h"
#include "nl_raw.h"
#include "hn_core.h"		/* HN_POL_* */

#define NODES		64	/* both trees */
#define MAX_PAIRS	(2 * NODES)
#define MAX_SLOTS	8

struct tree {
	uint32_t l, w, n;
	struct hn_handle *h[NODES];
	struct nlr r;
};

/* What an exchange saw. */
struct xres {
	uint64_t msgs, bytes, mode[2];
	char why[200];
};

static void unload_all(void)
{
	if (hn_loaded())
		hn_unload();
}

static int tree_up(struct tree *t, const char *params, uint32_t l, uint32_t w)
{
	uint32_t u;
	int rc;

	memset(t, 0, offsetof(struct tree, r));
	t->l = l;
	t->w = w;
	t->n = NODES;
	unload_all();
	rc = hn_load(params);
	if (rc) {
		printf("# insmod %s: %d\n", params, rc);
		return rc;
	}
	for (u = 0; u < t->n; u++)
		if (hn_open(&t->h[u], NULL, 0) || hn_bind(t->h[u], u))
			return -1;
	return nlr_open(&t->r);
}

static void tree_down(struct tree *t)
{
	uint32_t u;

	for (u = 0; u < t->n; u++)
		if (t->h[u])
			hn_close(t->h[u]);
	if (t->r.fd > 0)
		nlr_close(&t->r);
	unload_all();
}

static uint32_t upow(uint32_t w, uint32_t e)
{
	uint32_t p = 1;

	while (e--)
		p *= w;
	return p;
}

/* Node @u with its base-w digit @j moved by @d (mod w). */
static uint32_t shift(const struct tree *t, uint32_t u, uint32_t j, int d)
{
	uint32_t p = upow(t->w, j), dig = u / p % t->w;

	return u - dig * p + (dig + t->w + d) % t->w * p;
}

/* The level of @u and @v's common ancestor: their highest differing digit. */
static uint32_t level_of(const struct tree *t, uint32_t u, uint32_t v)
{
	uint32_t j = 0;

	for (u /= t->w, v /= t->w; u != v; u /= t->w, v /= t->w)
		j++;
	return j;
}

/* Every node to its digit-@j neighbours, +1 and -1: 2 N pairs. */
static uint32_t level_pairs(const struct tree *t, uint32_t j,
			    uint32_t (*p)[2])
{
	uint32_t u, n = 0;

	for (u = 0; u < t->n; u++) {
		p[n][0] = u;
		p[n++][1] = shift(t, u, j, 1);
		p[n][0] = u;
		p[n++][1] = shift(t, u, j, -1);
	}
	return n;
}

/* 1 B to max_msg_bytes, one worm (128 B) and many; 16 KiB a pair */
static const uint32_t sizes[] = {
	1, 24, 127, 128, 129, 600, 1000, 2048, 4097, 8192,
};
/* the same, all long enough to name their sequence number */
static const uint32_t sizes24[] = {
	24, 8192, 128, 129, 600, 1000, 2048, 4097, 24, 300,
};
#define NSIZES	ARRAY_SIZE(sizes)

#define XFAIL(x, ...) do {						\
	snprintf((x)->why, sizeof((x)->why), __VA_ARGS__);		\
	goto out;							\
} while (0)

/*
 * Pairs p[0..np-1] send @nmsg messages each (message i of sz[i] bytes),
 * all of them before any is read (a receiver's share stays below its
 * receive buffer); then every receiver reads what it is owed.  @ordered:
 * each pair's messages arrive in the order sent; else each once.  0, or
 * -1 with x->why.
 */
static int exchange(struct tree *t, const uint32_t (*p)[2], uint32_t np,
		    const uint32_t *sz, uint32_t nmsg, int ordered,
		    struct xres *x)
{
	static uint8_t buf[8192];
	uint32_t owed[NODES] = { 0 }, next[MAX_PAIRS] = { 0 };
	uint32_t seen[MAX_PAIRS] = { 0 };
	struct pollfd pf = { .events = POLLIN };
	struct hybridnet_msg_hdr h;
	uint32_t i, k, v, seq;
	ssize_t len;
	int rc = -1;

	memset(x, 0, sizeof(*x));
	for (k = 0; k < np; k++)
		owed[p[k][1]] += nmsg;
	for (i = 0; i < nmsg; i++)
		for (k = 0; k < np; k++) {
			ht_fill(buf, sz[i], p[k][0], p[k][1], i);
			if (hn_send(t->h[p[k][0]], p[k][1], buf, sz[i]))
				XFAIL(x, "send %u -> %u #%u: %s", p[k][0],
				      p[k][1], i, strerror(errno));
		}
	for (v = 0; v < t->n; v++) {
		for (; owed[v]; owed[v]--) {
			pf.fd = hn_fd(t->h[v]);
			if (poll(&pf, 1, 30000) != 1)
				XFAIL(x, "node %u: %u messages never came", v,
				      owed[v]);
			len = hn_recv(t->h[v], &h, buf, sizeof(buf));
			if (len <= 0)
				XFAIL(x, "node %u: recv %zd", v, len);
			for (k = 0; k < np; k++)
				if (p[k][0] == h.src && p[k][1] == v)
					break;
			if (k == np || h.dst != v)
				XFAIL(x, "node %u: a message %u -> %u", v,
				      h.src, h.dst);
			seq = next[k];
			if (!ordered) {
				seq = len >= 24 ? ht_seq_of(buf) : nmsg;
				if (seq >= nmsg || seen[k] & 1u << seq)
					XFAIL(x, "%u -> %u: sequence %u again or unknown",
					      h.src, v, seq);
			}
			if (seq >= nmsg)
				XFAIL(x, "%u -> %u: more than %u messages",
				      h.src, v, nmsg);
			if (len != sz[seq] || ht_check(buf, len, h.src, v, seq))
				XFAIL(x, "%u -> %u #%u: %zd bytes, want %u, or wrong payload (out of order?)",
				      h.src, v, seq, len, sz[seq]);
			if (h.mode > 1 || h.t_deliver <= h.t_inject)
				XFAIL(x, "%u -> %u #%u: bad header", h.src,
				      v, seq);
			seen[k] |= 1u << seq;
			next[k]++;
			x->msgs++;
			x->bytes += len;
			x->mode[h.mode]++;
		}
	}
	/* nothing more: no message twice, none to a wrong node */
	if (hn_quiesce(10000))
		XFAIL(x, "the fabric did not empty");
	for (v = 0; v < t->n; v++) {
		pf.fd = hn_fd(t->h[v]);
		if (poll(&pf, 1, 0) != 0)
			XFAIL(x, "node %u: a message more than sent", v);
	}
	rc = 0;
out:
	return rc;
}

static uint64_t rx_mode(const char *mode)
{
	return hn_sys("stats/rx_msgs_%s", mode);
}

/*
 * Every level, both ways: every message once (in order when @ordered),
 * all by wormhole, and the statistics say so.
 */
static int exchange_levels(struct __test_metadata *_metadata, struct tree *t,
			   int ordered)
{
	static uint32_t p[MAX_PAIRS][2];
	uint64_t w0, c0, tx0;
	struct xres x;
	uint32_t j, np, k;

	for (j = 0; j < t->l; j++) {
		np = level_pairs(t, j, p);
		for (k = 0; k < np; k++)
			if (level_of(t, p[k][0], p[k][1]) != j)
				return -1;
		w0 = rx_mode("wormhole");
		c0 = rx_mode("circuit");
		tx0 = hn_tx_msgs();
		if (exchange(t, (const uint32_t (*)[2])p, np,
			     ordered ? sizes : sizes24, NSIZES, ordered, &x)) {
			TH_LOG("level %u: %s", j, x.why);
			return -1;
		}
		TH_LOG("level %u: %llu messages, %llu bytes", j,
		       (unsigned long long)x.msgs,
		       (unsigned long long)x.bytes);
		EXPECT_EQ((uint64_t)np * NSIZES, x.msgs);
		EXPECT_EQ(x.msgs, x.mode[HYBRIDNET_MODE_WORMHOLE]);
		EXPECT_EQ(x.msgs, rx_mode("wormhole") - w0);
		EXPECT_EQ(0, rx_mode("circuit") - c0);
		EXPECT_EQ(x.msgs, hn_tx_msgs() - tx0);
	}
	EXPECT_EQ(0, hn_sys("stats/rx_dropped"));
	EXPECT_EQ(0, hn_sys("stats/in_flight_msgs"));
	return 0;
}

/* ---- exchanges under each switching technique and up-port choice ---- */

FIXTURE(xchg) {
	struct tree t;
};

FIXTURE_VARIANT(xchg) {
	const char *params;
	uint32_t l, w;
	uint32_t switching, up_select;
};

#define XCHG(_name, _l, _w, _sw, _up, _params)				\
	FIXTURE_VARIANT_ADD(xchg, _name) {				\
		.params = "topology=fattree:" #_l "," #_w " " _params,	\
		.l = _l, .w = _w, .switching = _sw, .up_select = _up,	\
	}

XCHG(ft34_wormhole, 3, 4, 0, 0, "");
XCHG(ft34_vct, 3, 4, 1, 0, "switching=vct");
XCHG(ft34_saf, 3, 4, 2, 0, "switching=saf");
XCHG(ft34_random, 3, 4, 0, 1, "up_select=random");
XCHG(ft34_adaptive, 3, 4, 0, 2, "up_select=adaptive");
XCHG(ft28_wormhole, 2, 8, 0, 0, "switching=wormhole up_select=det");
XCHG(ft28_vct, 2, 8, 1, 0, "switching=vct");
XCHG(ft28_saf, 2, 8, 2, 0, "switching=saf");

FIXTURE_SETUP(xchg)
{
	ASSERT_EQ(0, tree_up(&self->t, variant->params, variant->l,
			     variant->w));
}

FIXTURE_TEARDOWN(xchg)
{
	tree_down(&self->t);
}

TEST_F_TIMEOUT(xchg, every_level_both_ways, 600)
{
	char topo[32], want[32];

	ASSERT_EQ(0, hn_read_file(HN_SYSFS "/config/topology", topo,
				  sizeof(topo)));
	snprintf(want, sizeof(want), "fattree:%u,%u", variant->l, variant->w);
	EXPECT_STREQ(want, topo);
	EXPECT_EQ(NODES, hn_sys("config/nodes"));
	/* config/ prints the words of the parameters' numbers */
	ASSERT_EQ(0, hn_read_file(HN_SYSFS "/config/switching", want,
				  sizeof(want)));
	EXPECT_STREQ(((const char *[]){ "wormhole", "vct", "saf" })
		     [variant->switching], want);
	ASSERT_EQ(0, hn_read_file(HN_SYSFS "/config/up_select", want,
				  sizeof(want)));
	EXPECT_STREQ(((const char *[]){ "det", "random", "adaptive" })
		     [variant->up_select], want);
	/* by destination digit a pair keeps one path: in order */
	ASSERT_EQ(0, exchange_levels(_metadata, &self->t,
				     variant->up_select == 0));
}

/* ---- circuits, the generator and the policies on the tree ---------- */

FIXTURE(tree) {
	struct tree t;
};

FIXTURE_VARIANT(tree) {
	const char *params;
	uint32_t l, w;
};

/* 2 l slots: one per level and direction */
FIXTURE_VARIANT_ADD(tree, ft34) {
	.params = "topology=fattree:3,4 slots=6", .l = 3, .w = 4,
};

FIXTURE_VARIANT_ADD(tree, ft28) {
	.params = "topology=fattree:2,8 slots=4", .l = 2, .w = 8,
};

FIXTURE_SETUP(tree)
{
	ASSERT_EQ(0, tree_up(&self->t, variant->params, variant->l,
			     variant->w));
}

FIXTURE_TEARDOWN(tree)
{
	tree_down(&self->t);
}

struct circ {
	uint32_t n;
	uint32_t slot[512], src[512], dst[512], plen[512];
	uint8_t path[512][HYBRIDNET_MAX_PATH];
};

static void circ_cb(void *ctx, const struct nlmsghdr *h)
{
	const struct nlattr *tb[HYBRIDNET_ATTR_MAX + 1];
	struct circ *c = ctx;
	uint32_t i = c->n;

	nlr_parse(h, tb, HYBRIDNET_ATTR_MAX);
	if (i >= 512 || !tb[HYBRIDNET_ATTR_SLOT] || !tb[HYBRIDNET_ATTR_SRC] ||
	    !tb[HYBRIDNET_ATTR_DST])
		return;
	c->slot[i] = nlr_get_u32(tb[HYBRIDNET_ATTR_SLOT]);
	c->src[i] = nlr_get_u32(tb[HYBRIDNET_ATTR_SRC]);
	c->dst[i] = nlr_get_u32(tb[HYBRIDNET_ATTR_DST]);
	c->plen[i] = 0;
	if (tb[HYBRIDNET_ATTR_PATH]) {
		c->plen[i] = tb[HYBRIDNET_ATTR_PATH]->nla_len - NLA_HDRLEN;
		if (c->plen[i] > HYBRIDNET_MAX_PATH)
			c->plen[i] = HYBRIDNET_MAX_PATH;
		memcpy(c->path[i], (const uint8_t *)tb[HYBRIDNET_ATTR_PATH] +
		       NLA_HDRLEN, c->plen[i]);
	}
	c->n++;
}

static int dump_circuits(struct nlr *r, struct circ *c)
{
	memset(c, 0, sizeof(*c));
	nlr_msg(r, HYBRIDNET_CMD_CIRCUIT_GET, NLM_F_DUMP);
	return nlr_call(r, circ_cb, c);
}

/* Theorem 3: up-port @p of SW(@h, @tau) goes to this switch of level h+1. */
static uint32_t parent(const struct tree *t, uint32_t h, uint32_t tau,
		       uint32_t p)
{
	uint32_t m = upow(t->w, h + 1);

	return tau / m * m + (tau % m * t->w + p) % m;
}

/*
 * Every circuit's path has one up-port per level below its pair's common
 * ancestor, climbs from the source's leaf and from the destination's to
 * one switch (Theorem 4: down by the same port numbers), and no two
 * circuits of a slot share a link either way.  0, or the index + 1 of the
 * first circuit at fault.
 */
static uint32_t check_paths(const struct tree *t, const struct circ *c)
{
	static uint8_t up[MAX_SLOTS][3][16][8], down[MAX_SLOTS][3][16][8];
	uint32_t i, h, H, a, b, pp;

	memset(up, 0, sizeof(up));
	memset(down, 0, sizeof(down));
	for (i = 0; i < c->n; i++) {
		H = level_of(t, c->src[i], c->dst[i]);
		if (c->plen[i] != H || c->slot[i] >= MAX_SLOTS)
			return i + 1;
		a = c->src[i] / t->w;
		b = c->dst[i] / t->w;
		for (h = 0; h < H; h++) {
			pp = c->path[i][h];
			if (pp >= t->w || up[c->slot[i]][h][a][pp]++ ||
			    down[c->slot[i]][h][b][pp]++)
				return i + 1;
			a = parent(t, h, a, pp);
			b = parent(t, h, b, pp);
		}
		if (a != b)
			return i + 1;
	}
	return 0;
}

/* A slot's configuration for a PRELOAD; paths given when plen[] is set */
struct slotcfg {
	uint32_t n;
	uint32_t p[MAX_PAIRS][2];
	uint8_t plen[MAX_PAIRS];
	uint8_t path[MAX_PAIRS][HYBRIDNET_MAX_PATH];
};

/* One PRELOAD of slots 0..@ns-1: 0 or -errno (extack in r->msg). */
static int preload(struct nlr *r, const struct slotcfg *sc, uint32_t ns)
{
	struct nlattr *a, *pr;
	uint32_t s, i;

	nlr_msg(r, HYBRIDNET_CMD_PRELOAD, 0);
	for (s = 0; s < ns; s++) {
		a = nlr_nest(r, HYBRIDNET_ATTR_SLOT_CONFIG);
		nlr_u32(r, HYBRIDNET_ATTR_SLOT, s);
		for (i = 0; i < sc[s].n; i++) {
			pr = nlr_nest(r, HYBRIDNET_ATTR_PAIR);
			nlr_u32(r, HYBRIDNET_ATTR_SRC, sc[s].p[i][0]);
			nlr_u32(r, HYBRIDNET_ATTR_DST, sc[s].p[i][1]);
			if (sc[s].plen[i])
				nlr_put(r, HYBRIDNET_ATTR_PATH, sc[s].path[i],
					sc[s].plen[i]);
			nlr_end(r, pr);
		}
		nlr_end(r, a);
	}
	return nlr_do(r);
}

static int release_all(struct nlr *r)
{
	nlr_msg(r, HYBRIDNET_CMD_RELEASE, 0);
	nlr_put(r, HYBRIDNET_ATTR_ALL, NULL, 0);
	return nlr_do(r);
}

/* Every node to its digit-@j neighbour @d (+1 or -1): one permutation */
static void perm_slot(const struct tree *t, struct slotcfg *q, uint32_t j,
		      int d)
{
	uint32_t u;

	memset(q, 0, sizeof(*q));
	for (u = 0; u < t->n; u++) {
		q->p[u][0] = u;
		q->p[u][1] = shift(t, u, j, d);
	}
	q->n = t->n;
}

/* The exchange of @np pairs, @nmsg sizes each: all by circuit, or none. */
static int exchange_mode(struct __test_metadata *_metadata, struct tree *t,
			 const uint32_t (*p)[2], uint32_t np, uint32_t nmsg,
			 int circuit)
{
	uint64_t w0 = rx_mode("wormhole"), c0 = rx_mode("circuit");
	struct xres x;

	if (exchange(t, p, np, sizes, nmsg, 1, &x)) {
		TH_LOG("%s", x.why);
		return -1;
	}
	EXPECT_EQ((uint64_t)np * nmsg, x.msgs);
	EXPECT_EQ(circuit ? x.msgs : 0, x.mode[HYBRIDNET_MODE_CIRCUIT]);
	EXPECT_EQ(circuit ? x.msgs : 0, rx_mode("circuit") - c0);
	EXPECT_EQ(circuit ? 0 : x.msgs, rx_mode("wormhole") - w0);
	return 0;
}

/*
 * The digit-shift permutations of every level and both ways, a slot
 * each, in one PRELOAD routed by level-wise: every circuit reports a
 * valid path, disjoint from the others of its slot, and the exchange of
 * every level goes by circuit; released, by wormhole again.
 */
TEST_F_TIMEOUT(tree, preloaded_permutations_carry, 600)
{
	static struct slotcfg sc[MAX_SLOTS];
	static uint32_t p[MAX_PAIRS][2];
	static struct circ c;
	struct tree *t = &self->t;
	uint32_t j, np, bad, paths = 0, i;
	int rc;

	ASSERT_EQ(2 * t->l, hn_sys("config/slots"));
	for (j = 0; j < t->l; j++) {
		perm_slot(t, &sc[2 * j], j, 1);
		perm_slot(t, &sc[2 * j + 1], j, -1);
	}
	rc = preload(&t->r, sc, 2 * t->l);
	if (rc)
		TH_LOG("preload: %d %s", rc, t->r.msg);
	ASSERT_EQ(0, rc);
	ASSERT_EQ(2 * t->l * t->n, dump_circuits(&t->r, &c));
	ASSERT_EQ(2 * t->l * t->n, c.n);
	bad = check_paths(t, &c);
	if (bad)
		TH_LOG("circuit %u:%u of slot %u: path of %u ports", c.src[bad - 1],
		       c.dst[bad - 1], c.slot[bad - 1], c.plen[bad - 1]);
	EXPECT_EQ(0, bad);
	for (i = 0; i < c.n; i++)
		paths += c.plen[i] > 0;
	EXPECT_EQ(2 * (t->l - 1) * t->n, paths);
	for (j = 0; j < t->l; j++) {
		np = level_pairs(t, j, p);
		ASSERT_EQ(0, exchange_mode(_metadata, t,
					   (const uint32_t (*)[2])p, np,
					   NSIZES, 1));
	}
	EXPECT_LE(2 * t->l * t->n * NSIZES, hn_sys("stats/tx_msgs_circuit"));
	ASSERT_EQ(0, release_all(&t->r));
	ASSERT_EQ(0, dump_circuits(&t->r, &c));
	np = level_pairs(t, t->l - 1, p);
	ASSERT_EQ(0, exchange_mode(_metadata, t, (const uint32_t (*)[2])p, np,
				   4, 0));
}

/*
 * Paths given by the caller are installed as given and carry the pairs'
 * messages; a preload whose path takes a link another circuit of the
 * slot holds is refused with EBUSY, naming the link and its holder, and
 * changes nothing; a path too long or a port past the switch: EINVAL.
 */
TEST_F(tree, explicit_paths)
{
	static struct slotcfg sc[2];
	static struct circ c;
	struct tree *t = &self->t;
	uint32_t top = t->l - 1, L = t->l - 1, i, h;
	char want[128];
	int rc;

	memset(sc, 0, sizeof(sc));
	/* slot 0: two top-level circuits, by the last ports and others */
	sc[0].n = 2;
	for (i = 0; i < 2; i++) {
		sc[0].p[i][0] = i;
		sc[0].p[i][1] = shift(t, i, top, 1);
		sc[0].plen[i] = L;
		for (h = 0; h < L; h++)
			sc[0].path[i][h] = (t->w - 1 - i - h) % t->w;
	}
	rc = preload(&t->r, sc, 1);
	if (rc)
		TH_LOG("preload: %d %s", rc, t->r.msg);
	ASSERT_EQ(0, rc);
	ASSERT_EQ(2, dump_circuits(&t->r, &c));
	EXPECT_EQ(0, check_paths(t, &c));
	for (i = 0; i < 2; i++) {
		EXPECT_EQ(i, c.src[i]);
		ASSERT_EQ(L, c.plen[i]);
		EXPECT_EQ(0, memcmp(c.path[i], sc[0].path[i], L));
	}
	ASSERT_EQ(0, exchange_mode(_metadata, t,
				   (const uint32_t (*)[2])sc[0].p, 2, NSIZES,
				   1));

	/* slot 1: 2 and 3 both leave leaf 0 by up-port 0 */
	sc[1].n = 2;
	sc[1].p[0][0] = 2;
	sc[1].p[0][1] = shift(t, 2, top, 1);
	sc[1].p[1][0] = 3;
	sc[1].p[1][1] = shift(t, 3, top, 2);
	sc[1].plen[0] = sc[1].plen[1] = L;
	EXPECT_EQ(-EBUSY, preload(&t->r, sc, 2));
	snprintf(want, sizeof(want),
		 "slot 1, pair 3:%u: path's up-link already taken: link sw0.0/up0 up, held by 2:%u",
		 sc[1].p[1][1], sc[1].p[0][1]);
	TH_LOG("%s", t->r.msg);
	EXPECT_NE(NULL, strstr(t->r.msg, want));
	/* all or nothing: slot 0 as it was, slot 1 empty */
	ASSERT_EQ(2, dump_circuits(&t->r, &c));
	EXPECT_EQ(0, c.slot[0] + c.slot[1]);
	EXPECT_EQ(0, memcmp(c.path[1], sc[0].path[1], L));

	/* not a path of this tree */
	sc[1].path[1][0] = 1;
	sc[1].plen[1] = L + 1;
	EXPECT_EQ(-EINVAL, preload(&t->r, sc, 2));
	TH_LOG("%s", t->r.msg);
	snprintf(want, sizeof(want),
		 "a path of %u up-ports, at most %u on this tree (one per level below the top)",
		 L + 1, L);
	EXPECT_NE(NULL, strstr(t->r.msg, want));
	sc[1].plen[1] = L;
	sc[1].path[1][0] = t->w;
	EXPECT_EQ(-EINVAL, preload(&t->r, sc, 2));
	TH_LOG("%s", t->r.msg);
	EXPECT_NE(NULL, strstr(t->r.msg, "past the switch"));
	ASSERT_EQ(2, dump_circuits(&t->r, &c));
	/* a path belongs to a preload's pair only */
	nlr_msg(&t->r, HYBRIDNET_CMD_PREDICT, 0);
	{
		struct nlattr *pr = nlr_nest(&t->r, HYBRIDNET_ATTR_PAIR);

		nlr_u32(&t->r, HYBRIDNET_ATTR_SRC, 5);
		nlr_u32(&t->r, HYBRIDNET_ATTR_DST, shift(t, 5, top, 1));
		nlr_put(&t->r, HYBRIDNET_ATTR_PATH, sc[0].path[0], L);
		nlr_end(&t->r, pr);
	}
	EXPECT_EQ(-EINVAL, nlr_do(&t->r));
	EXPECT_STREQ("a path is given only with a preload's pair", t->r.msg);
	ASSERT_EQ(2, dump_circuits(&t->r, &c));
	/* and a good one goes in */
	sc[1].path[1][0] = 1;
	EXPECT_EQ(0, preload(&t->r, sc, 2));
	ASSERT_EQ(4, dump_circuits(&t->r, &c));
	EXPECT_EQ(0, check_paths(t, &c));
}

/*
 * PREDICT on the tree: a pair of every level from leaf 0, each granted,
 * routed through the tree (a path per level below its ancestor), and
 * then carried by circuit; asked again, each exists.
 */
TEST_F(tree, predict_grants)
{
	static uint32_t p[8][2];
	static struct circ c;
	struct tree *t = &self->t;
	struct nlr_grants g;
	uint32_t j;

	for (j = 0; j < t->l; j++) {
		p[j][0] = j;
		p[j][1] = shift(t, j, j, 1);
	}
	memset(&g, 0, sizeof(g));
	nlr_msg(&t->r, HYBRIDNET_CMD_PREDICT, 0);
	for (j = 0; j < t->l; j++)
		nlr_pair(&t->r, p[j][0], p[j][1]);
	ASSERT_EQ(1, nlr_call(&t->r, nlr_grant_cb, &g));
	ASSERT_EQ(t->l, g.n);
	for (j = 0; j < t->l; j++) {
		EXPECT_EQ(HYBRIDNET_GRANT_GRANTED, g.result[j]);
		EXPECT_GT(2 * t->l, g.slot[j]);
	}
	ASSERT_EQ(t->l, dump_circuits(&t->r, &c));
	EXPECT_EQ(0, check_paths(t, &c));
	for (j = 0; j < t->l; j++)
		EXPECT_EQ(level_of(t, c.src[j], c.dst[j]), c.plen[j]);
	ASSERT_EQ(0, exchange_mode(_metadata, t, (const uint32_t (*)[2])p,
				   t->l, NSIZES, 1));
	memset(&g, 0, sizeof(g));
	nlr_msg(&t->r, HYBRIDNET_CMD_PREDICT, 0);
	for (j = 0; j < t->l; j++)
		nlr_pair(&t->r, p[j][0], p[j][1]);
	ASSERT_EQ(1, nlr_call(&t->r, nlr_grant_cb, &g));
	for (j = 0; j < t->l; j++)
		EXPECT_EQ(HYBRIDNET_GRANT_EXISTS, g.result[j]);
}

/* ---- the in-kernel generator ---------------------------------------- */

struct tstate {
	uint32_t state;
	char why[160];
	uint64_t st[HYBRIDNET_STAT_MAX + 1];
};

static int traffic_get(struct nlr *r, struct tstate *s)
{
	const struct nlattr *tb[HYBRIDNET_ATTR_MAX + 1];
	const struct nlattr *st[HYBRIDNET_STAT_MAX + 1];
	int rc, i;

	nlr_msg(r, HYBRIDNET_CMD_TRAFFIC_GET, 0);
	rc = nlr_call(r, NULL, NULL);
	if (rc != 1)
		return rc < 0 ? rc : -EPROTO;
	memset(s, 0, sizeof(*s));
	s->state = ~0u;
	nlr_parse((const struct nlmsghdr *)r->reply, tb, HYBRIDNET_ATTR_MAX);
	if (tb[HYBRIDNET_ATTR_TRAFFIC_STATE])
		s->state = nlr_get_u32(tb[HYBRIDNET_ATTR_TRAFFIC_STATE]);
	if (tb[HYBRIDNET_ATTR_WHY])
		snprintf(s->why, sizeof(s->why), "%s",
			 (const char *)tb[HYBRIDNET_ATTR_WHY] + NLA_HDRLEN);
	if (!tb[HYBRIDNET_ATTR_STATS])
		return 0;
	nlr_parse_nest(tb[HYBRIDNET_ATTR_STATS], st, HYBRIDNET_STAT_MAX);
	for (i = 0; i <= HYBRIDNET_STAT_MAX; i++)
		if (st[i])
			s->st[i] = nlr_get_u64(st[i]);
	return 0;
}

/*
 * A batch run of @pattern, @batch messages a sender, to its end: every
 * message it generated injected and delivered, none left in flight.
 */
static int batch_run(struct __test_metadata *_metadata, struct nlr *r,
		     const char *pattern, uint32_t batch, uint64_t seed)
{
	uint64_t end = hn_now_ns() + 120 * 1000000000ull;
	struct tstate s;
	int rc;

	nlr_msg(r, HYBRIDNET_CMD_TRAFFIC_START, 0);
	nlr_str(r, HYBRIDNET_ATTR_PATTERN, pattern);
	nlr_u32(r, HYBRIDNET_ATTR_BATCH, batch);
	nlr_u64(r, HYBRIDNET_ATTR_SEED, seed);
	rc = nlr_do(r);
	if (rc) {
		TH_LOG("%s: start: %d %s", pattern, rc, r->msg);
		return rc;
	}
	do {
		usleep(5000);
		if (traffic_get(r, &s))
			return -EPROTO;
	} while (s.state == HYBRIDNET_TRAFFIC_RUNNING && hn_now_ns() < end);
	TH_LOG("%s: %s, %llu messages", pattern, s.why,
	       (unsigned long long)s.st[HYBRIDNET_STAT_DONE_MSGS]);
	EXPECT_EQ(HYBRIDNET_TRAFFIC_DONE, s.state);
	EXPECT_LT(0, s.st[HYBRIDNET_STAT_GEN_MSGS]);
	EXPECT_EQ(s.st[HYBRIDNET_STAT_GEN_MSGS], s.st[HYBRIDNET_STAT_INJ_MSGS]);
	EXPECT_EQ(s.st[HYBRIDNET_STAT_INJ_MSGS], s.st[HYBRIDNET_STAT_DONE_MSGS]);
	EXPECT_EQ(0, s.st[HYBRIDNET_STAT_IN_FLIGHT_MSGS]);
	return s.state == HYBRIDNET_TRAFFIC_DONE ? 0 : -1;
}

/* Every pattern the generator knows (its error message lists them). */
static const char *const patterns[] = {
	"uniform", "transpose", "bitcomp", "bitrev", "shuffle", "tornado",
	"neighbor", "randperm", "hotspot", "scatter", "all-to-all",
	"random-to-all", "ordered-mesh", "random-mesh", "two-phase", "mixed",
	"phased", "localized",
};

TEST_F_TIMEOUT(tree, generator_every_pattern, 900)
{
	struct nlr *r = &self->t.r;
	uint64_t d0 = hn_sys("stats/rx_dropped");
	char known[sizeof(r->msg)], *w;
	unsigned int i, n = 0;

	/* the module's list of patterns is this one */
	nlr_msg(r, HYBRIDNET_CMD_TRAFFIC_START, 0);
	nlr_str(r, HYBRIDNET_ATTR_PATTERN, "nosuch");
	nlr_u32(r, HYBRIDNET_ATTR_BATCH, 1);
	ASSERT_EQ(-EINVAL, nlr_do(r));
	w = strchr(r->msg, '(');
	ASSERT_NE(NULL, w);
	snprintf(known, sizeof(known), " %s", w + 1);
	for (w = known; *w; w++)
		n += *w == ' ';
	EXPECT_EQ(ARRAY_SIZE(patterns), n);
	for (i = 0; i < ARRAY_SIZE(patterns); i++) {
		char word[40];

		snprintf(word, sizeof(word), " %s%s", patterns[i],
			 i + 1 < ARRAY_SIZE(patterns) ?
			 " " : ")");
		EXPECT_NE(NULL, strstr(known, word)) TH_LOG("%s", patterns[i]);
		EXPECT_EQ(0, batch_run(_metadata, r, patterns[i], 8, i + 1));
	}
	EXPECT_EQ(d0, hn_sys("stats/rx_dropped"));
	EXPECT_EQ(0, hn_sys("stats/in_flight_msgs"));
}

/* ---- the cycle controller's policies -------------------------------- */

static const struct {
	const char *name;
	uint32_t policy, evict;
	uint64_t idle_ns;
} policies[] = {
	{ "fixed", 0 },
	{ "ses", HN_POL_SES },
	{ "sla", HN_POL_SLA | HN_POL_SES },
	{ "preempt", HN_POL_PREEMPT | HN_POL_SES },
	{ "preempt per slot", HN_POL_PREEMPT | HN_POL_PREEMPT_SLOT },
	{ "dynamic, counter", HN_POL_NO_W | HN_POL_DYNAMIC, 1, 0 },
	{ "dynamic, idle time-out", HN_POL_NO_W | HN_POL_DYNAMIC, 0, 20000 },
};

/*
 * Each policy carries the generator's uniform traffic and the device's
 * through the tree.  With a wormhole slot, the top level's preloaded
 * circuits carry their pairs' messages and the rest go by wormhole; with
 * Dynamic TDM (no wormhole slot) everything goes by the circuits it sets
 * up, and they stay link-disjoint paths.
 */
TEST_F_TIMEOUT(tree, policies, 900)
{
	static uint32_t p[MAX_PAIRS][2];
	static struct slotcfg sc;
	static struct circ c;
	struct tree *t = &self->t;
	struct nlr *r = &t->r;
	uint64_t c0;
	unsigned int i;
	int dyn;

	perm_slot(t, &sc, t->l - 1, 1);
	for (i = 0; i < ARRAY_SIZE(policies); i++) {
		dyn = !!(policies[i].policy & HN_POL_DYNAMIC);
		TH_LOG("policy %s", policies[i].name);
		ASSERT_EQ(0, release_all(r));
		nlr_msg(r, HYBRIDNET_CMD_CONFIG_SET, 0);
		nlr_u32(r, HYBRIDNET_ATTR_EVICT_ALGO, policies[i].evict);
		nlr_u64(r, HYBRIDNET_ATTR_IDLE_TIMEOUT_NS,
			policies[i].idle_ns);
		nlr_u32(r, HYBRIDNET_ATTR_SLOT_W_NS, 400);
		nlr_u32(r, HYBRIDNET_ATTR_POLICY, policies[i].policy);
		ASSERT_EQ(0, nlr_do(r)) TH_LOG("%s", r->msg);
		ASSERT_EQ(policies[i].policy, hn_sys_policy());
		if (!dyn)
			ASSERT_EQ(0, preload(r, &sc, 1)) TH_LOG("%s", r->msg);
		c0 = rx_mode("circuit");
		ASSERT_EQ(0, batch_run(_metadata, r, "uniform", 10, 9 + i));
		if (dyn) {
			/* no wormhole slot: the generator's went by circuit */
			EXPECT_LT(c0, rx_mode("circuit"));
			ASSERT_LE(0, dump_circuits(r, &c));
			EXPECT_EQ(0, check_paths(t, &c));
		}
		ASSERT_EQ(t->n, level_pairs(t, t->l - 1, p) / 2);
		/* the +1 pairs: preloaded, or Dynamic TDM's */
		ASSERT_EQ(0, exchange_mode(_metadata, t,
					   (const uint32_t (*)[2])sc.p, t->n,
					   6, 1));
		if (!dyn) {	/* the -1 pairs have no circuit */
			uint32_t k;

			for (k = 0; k < t->n; k++) {
				p[k][0] = p[2 * k + 1][0];
				p[k][1] = p[2 * k + 1][1];
			}
			ASSERT_EQ(0, exchange_mode(_metadata, t,
						   (const uint32_t (*)[2])p,
						   t->n, 6, 0));
		}
		EXPECT_EQ(0, hn_sys("stats/rx_dropped"));
	}
}

TEST_HARNESS_MAIN
