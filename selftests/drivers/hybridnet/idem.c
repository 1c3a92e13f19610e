// SPDX-License-Identifier: GPL-2.0
/*
 * idem.c - exactly once through /dev/hybridnet (docs/model.md "Exactly
 * once"; Woods-Corwin C4.1, C4.5): each test loads the module itself on
 * FT(2,4) with the protocol on (idem_timeout_ns) and unloads it.
 *
 * - random_faults.*.lossy: a third of every kind of copy lost (loss_ppm),
 *   bits flipped (flip_ppm), and four rounds of links between switches
 *   taken down by the seeded random injector and brought back up while
 *   the nodes write: every message read is read once, in its pair's
 *   order, its payload intact; the protocol's statistics show what it
 *   made up for, and its records are gone once all is quiet.  Variant
 *   joined: no round cuts a pair off, and every message is read, none
 *   given up; variant cut_off: rounds cut pairs off, and a message never
 *   read is one of theirs, given up, its writer told (ETIMEDOUT).
 * - random_faults.*.cut_off_as_refused: the pairs the test takes as cut
 *   off in those rounds are those the module refuses without the
 *   protocol (EHOSTUNREACH).
 * - cut_off: a destination whose link is down: the writer's next write()
 *   fails with ETIMEDOUT (and poll() says POLLERR) once its message is
 *   given up after idem_retry_max resends; errors/given_up counts it.
 */
#include <poll.h>

#include "kselftest_harness.h"
#include "hn_test.h"

#define NODES	16
#ifndef PER			/* idem_1e5: 6250, 10^5 in all (C4.1's scale) */
#define PER	150		/* messages each node writes */
#endif
#define LEN	64
#define ROUNDS	4		/* of random links down, then all up */

struct body {
	uint32_t src, dst, seq;
	uint8_t fill[LEN - 12];
};

static void fill(struct body *b, uint32_t src, uint32_t dst, uint32_t seq)
{
	uint32_t i;

	b->src = src;
	b->dst = dst;
	b->seq = seq;
	for (i = 0; i < sizeof(b->fill); i++)
		b->fill[i] = (uint8_t)(src * 31 + dst * 7 + seq * 13 + i);
}

/* What the nodes wrote and read, pair by pair */
struct tally {
	uint32_t sent[NODES][NODES];	/* written: the pair's next seq */
	uint32_t next[NODES][NODES];	/* read: the seq after the last */
	uint16_t at[NODES][NODES][PER];	/* its writer's wrote[] then */
	uint8_t seen[NODES][NODES][PER];	/* read */
	uint8_t cut[NODES][NODES];	/* cut off in some round */
	uint8_t now[NODES][NODES];	/* cut off now, in a round that settles */
	uint8_t stranded[NODES][NODES][PER];	/* written then */
	uint32_t wrote[NODES];		/* each node's messages written */
	uint32_t told_at[NODES];	/* wrote[] at its last ETIMEDOUT */
	uint32_t told, got, bad;
};

/*
 * Mark in @cut the pairs that no live route joins now.  On a two-level
 * fat tree a route climbs from the source's leaf switch to a top switch
 * and down to the destination's leaf: nodes under two leaves are cut
 * off from each other when no top switch has a live link to both.  How
 * many pairs are cut off now, or -errno.
 */
static int mark_cut_off(struct hn_ctl *c, uint8_t cut[NODES][NODES])
{
	uint64_t tops[64] = { 0 };	/* by leaf switch: tops it reaches */
	uint32_t leaf[NODES] = { 0 }, u, v;
	const struct hn_ctl_channel *ch;
	struct hn_ctl_link *l;
	size_t n, i;
	int rc = hn_ctl_links(c, HN_CTL_ALL, &l, &n);

	if (rc)
		return rc;
	for (i = 0; i < n; i++) {
		ch = l[i].ch;
		if (ch[HYBRIDNET_DIR_UP].sw == HN_CTL_NODE_END) {
			if (ch[HYBRIDNET_DIR_UP].port < NODES)
				leaf[ch[HYBRIDNET_DIR_UP].port] =
					ch[HYBRIDNET_DIR_DOWN].sw % 64;
		} else if (!l[i].dead) {
			tops[ch[HYBRIDNET_DIR_UP].sw % 64] |=
				1ull << (ch[HYBRIDNET_DIR_DOWN].sw % 64);
		}
	}
	free(l);
	for (u = 0; u < NODES; u++)
		for (v = 0; v < NODES; v++)
			if (leaf[u] != leaf[v] &&
			    !(tops[leaf[u]] & tops[leaf[v]])) {
				cut[u][v] = 1;
				rc++;
			}
	return rc;
}

/* Bring every link that is down back up, by name: how many, or -errno. */
static int all_up(struct hn_ctl *c)
{
	const struct hn_ctl_channel *ch;
	struct hn_ctl_link *l;
	size_t n, i;
	int rc = hn_ctl_links(c, HN_CTL_ALL, &l, &n), k = 0;

	if (rc)
		return rc;
	for (i = 0; !rc && i < n; i++) {
		if (!l[i].down)
			continue;
		ch = &l[i].ch[HYBRIDNET_DIR_UP];
		rc = hn_ctl_fault_set(c, ch->sw, ch->port, 0);
		k++;
	}
	free(l);
	return rc ? rc : k;
}

/*
 * @count random links down, chosen by @seed, and the pairs they cut off
 * marked in @cut: how many pairs, or -errno (-EPROTO: not @count down).
 */
static int fault_round(struct hn_ctl *c, uint32_t count, uint64_t seed,
		       uint8_t cut[NODES][NODES])
{
	struct hn_ctl_fabric f;
	int rc = hn_ctl_fault_random(c, count, seed);

	if (!rc)
		rc = hn_ctl_fabric_get(c, &f);
	if (!rc && f.links_down != count)
		rc = -EPROTO;
	return rc ? rc : mark_cut_off(c, cut);
}

/* A message given up: node @u's call said so (ETIMEDOUT) */
static void told(struct tally *t, uint32_t u)
{
	t->told++;
	t->told_at[u] = t->wrote[u];
}

/* Each node that has not written all its messages writes one. */
static int write_some(struct hn_handle **h, struct tally *t, uint64_t *rng)
{
	uint32_t u, d;
	struct body b;
	int rc;

	for (u = 0; u < NODES; u++) {
		if (t->wrote[u] == PER)
			continue;
		d = (u + 1 + ht_rng(rng) % (NODES - 1)) % NODES;
		fill(&b, u, d, t->sent[u][d]);
		rc = hn_send(h[u], d, &b, sizeof(b));
		if (rc == -ETIMEDOUT)
			told(t, u);
		if (rc == -EAGAIN || rc == -ETIMEDOUT)
			continue;
		if (rc)
			return rc;
		t->stranded[u][d][t->sent[u][d]] = t->now[u][d];
		t->at[u][d][t->sent[u][d]++] = t->wrote[u]++;
	}
	return 0;
}

/*
 * Node @u read @n bytes from @src: its pair's next message, or a later
 * one (those between were given up); intact.
 */
static void take(struct tally *t, uint32_t u, uint32_t src,
		 const struct body *b, ssize_t n)
{
	struct body want;

	if (n != sizeof(*b) || src >= NODES || b->seq >= t->sent[src][u] ||
	    b->seq < t->next[src][u]) {
		t->bad++;		/* a duplicate, out of order, unknown */
		return;
	}
	fill(&want, src, u, b->seq);
	if (memcmp(b, &want, sizeof(want))) {
		t->bad++;
		return;
	}
	t->seen[src][u][b->seq] = 1;
	t->next[src][u] = b->seq + 1;
	t->got++;
}

/* Every node reads all there is: -EAGAIN, or what failed. */
static int read_all(struct hn_handle **h, struct tally *t)
{
	struct hybridnet_msg_hdr hdr;
	struct body b;
	ssize_t n = -EAGAIN;
	uint32_t u;

	for (u = 0; u < NODES; u++) {
		for (;;) {
			n = hn_recv(h[u], &hdr, &b, sizeof(b));
			if (n > 0)
				take(t, u, hdr.src, &b, n);
			else if (n == -ETIMEDOUT)
				told(t, u);
			else
				break;
		}
		if (n != -EAGAIN)
			return (int)n;
	}
	return -EAGAIN;
}

/* Every MSG was acknowledged or given up, and the fabric is empty. */
static int settled(void)
{
	return !hn_sys("stats/idem_send_state_entries") &&
	       !hn_sys("stats/in_flight_msgs");
}

/* Settled, and no receiver holds a record. */
static int quiet(void)
{
	return settled() && !hn_sys("stats/idem_recv_state_entries");
}

FIXTURE(random_faults) {
	int unused;
};

FIXTURE_VARIANT(random_faults) {
	const char *params;		/* hn_load()'s */
	uint32_t down[ROUNDS];		/* links each round takes down */
	uint64_t seed;			/* round r's random links: seed + r */
	uint32_t settle;		/* bit r: round r settles */
	int cuts;			/* a round cuts a pair off */
};

/*
 * Any three links between switches of FT(2,4) leave every pair joined:
 * two leaves have four routes, through the four top switches, with no
 * link in common.  Nothing may be given up.
 */
FIXTURE_VARIANT_ADD(random_faults, joined) {
	.params = "topology=fattree:2,4 slots=0 idem_timeout_ns=20000 loss_ppm=300000 flip_ppm=2000",
	.down = { 3, 3, 3, 3 },
	.seed = 1,
	.cuts = 0,
};

/*
 * More links down, with seeds that cut pairs off in three rounds of the
 * four, and a cap of 100 resends (2 ms; a third of every kind lost
 * exhausts it once in 10^14): a cut-off pair's messages arrive once its
 * links are back, or are given up and their writer told.  The third
 * round's links stay down until every MSG is acknowledged or given up:
 * those written to a pair it cut off are given up, never read.
 */
FIXTURE_VARIANT_ADD(random_faults, cut_off) {
	.params = "topology=fattree:2,4 slots=0 idem_timeout_ns=20000 idem_retry_max=100 loss_ppm=300000 flip_ppm=2000",
	.down = { 6, 3, 8, 5 },
	.seed = 1,
	.settle = 1 << 2,
	.cuts = 1,
};

FIXTURE_SETUP(random_faults)
{
}

FIXTURE_TEARDOWN(random_faults)
{
}

/*
 * The nodes write while round r takes its random links down, when
 * (2r + 1) / 9 of the messages are written, and brings them back up at
 * (2r + 2) / 9 (a round that settles: once every MSG is acknowledged or
 * given up, the nodes writing no more meanwhile).  Every message read is
 * its pair's next or a later one, intact; one never read is a pair's
 * that a round cut off, given up and said to its writer at a later call;
 * one stranded (written to a pair cut off in a round that settles) is
 * never read; the protocol's records are gone once all is quiet.  With
 * no pair cut off, every message is read and nothing is given up.
 */
TEST_F(random_faults, lossy)
{
	uint32_t u, d, q, k = 0, phase = 0, r, total = NODES * PER;
	uint32_t lost = 0, lost_joined = 0, untold = 0, cut_rounds = 0;
	uint32_t stranded = 0, stranded_read = 0;
	uint64_t rng = 5, t0;
	struct hn_ctl *c;
	struct hn_handle *h[NODES];
	struct tally *t = calloc(1, sizeof(*t));
	int rc;

	ASSERT_NE(NULL, t);
	hn_unload();
	ASSERT_EQ(0, hn_load(variant->params));
	ASSERT_EQ(0, hn_ctl_open(&c));
	for (u = 0; u < NODES; u++) {
		ASSERT_EQ(0, hn_open(&h[u], NULL, HN_NONBLOCK));
		ASSERT_EQ(0, hn_bind(h[u], u));
	}
	/* the limit finds a hang: it takes seconds, under TCG and KASAN too */
	for (t0 = hn_now_ns(); hn_now_ns() - t0 < 600ull * 1000000000;) {
		if (phase < 2 * ROUNDS &&
		    k >= (phase + 1) * total / (2 * ROUNDS + 1)) {
			r = phase / 2;
			if (phase % 2 == 0) {
				rc = fault_round(c, variant->down[r],
						 variant->seed + r, t->cut);
				ASSERT_LE(0, rc) TH_LOG("%s", hn_ctl_strerror(c, rc));
				cut_rounds += rc > 0;
				if (variant->settle & 1u << r)
					ASSERT_LE(0, mark_cut_off(c, t->now));
			} else if (!(variant->settle & 1u << r) || settled()) {
				ASSERT_EQ(variant->down[r], all_up(c));
				memset(t->now, 0, sizeof(t->now));
			} else {
				/* no writes until the round settles */
				ASSERT_EQ(-EAGAIN, read_all(h, t));
				usleep(1000);
				continue;
			}
			phase++;
		}
		rc = write_some(h, t, &rng);
		ASSERT_EQ(0, rc) TH_LOG("%s", hn_strerror(NULL, rc));
		for (k = 0, u = 0; u < NODES; u++)
			k += t->wrote[u];
		rc = read_all(h, t);
		ASSERT_EQ(-EAGAIN, rc) TH_LOG("%s", hn_strerror(NULL, rc));
		if (k < total)
			continue;
		if (quiet()) {
			/* the last deliveries, and each writer told */
			ASSERT_EQ(-EAGAIN, read_all(h, t));
			break;
		}
		usleep(1000);
	}
	EXPECT_EQ(2 * ROUNDS, phase);
	EXPECT_EQ(total, k);
	EXPECT_EQ(variant->cuts, cut_rounds > 0);
	for (u = 0; u < NODES; u++)
		for (d = 0; d < NODES; d++)
			for (q = 0; q < t->sent[u][d]; q++) {
				stranded += t->stranded[u][d][q];
				stranded_read += t->stranded[u][d][q] &&
					       t->seen[u][d][q];
				if (t->seen[u][d][q])
					continue;
				lost++;
				lost_joined += !t->cut[u][d];
				untold += t->told_at[u] <= t->at[u][d][q];
			}
	TH_LOG("%u rounds cut pairs off; %u of %u messages read, %u never (%u stranded)",
	       cut_rounds, t->got, total, lost, stranded);
	TH_LOG("copies: MSG %llu (sent again %llu), lost MSG %llu ACK %llu ACK2 %llu, CRC failures %llu, duplicates suppressed %llu",
	       (unsigned long long)hn_sys("stats/idem_msg_tx"),
	       (unsigned long long)hn_sys("stats/idem_msg_resends"),
	       (unsigned long long)hn_sys("stats/idem_msg_lost"),
	       (unsigned long long)hn_sys("stats/idem_ack_lost"),
	       (unsigned long long)hn_sys("stats/idem_ack2_lost"),
	       (unsigned long long)hn_sys("stats/idem_crc_fail"),
	       (unsigned long long)hn_sys("stats/idem_dups_suppressed"));
	EXPECT_EQ(0, t->bad);		/* once, in order, intact */
	EXPECT_EQ(0, lost_joined);	/* a pair never cut off: all read */
	EXPECT_EQ(0, untold);		/* a loss is never silent */
	EXPECT_EQ(t->told, hn_sys("errors/given_up"));
	EXPECT_LE(lost, hn_sys("stats/idem_retries_exhausted"));
	EXPECT_EQ(0, stranded_read);	/* given up: it never arrived */
	EXPECT_EQ(!!variant->settle, stranded > 0);
	EXPECT_EQ(0, hn_sys("stats/idem_recv_state_entries")) {
		TH_LOG("written %u, read %u; records: send %llu, recv %llu; in flight %llu",
		       k, t->got,
		       (unsigned long long)hn_sys("stats/idem_send_state_entries"),
		       (unsigned long long)hn_sys("stats/idem_recv_state_entries"),
		       (unsigned long long)hn_sys("stats/in_flight_msgs"));
	}
	EXPECT_EQ(0, hn_sys("stats/idem_send_state_entries"));
	if (!cut_rounds) {
		EXPECT_EQ(total, t->got);
		EXPECT_EQ(0, hn_sys("stats/idem_retries_exhausted"));
		EXPECT_EQ(0, hn_sys("errors/given_up"));
	}
	EXPECT_GT(hn_sys("stats/idem_msg_lost"), total / 5);
	EXPECT_GT(hn_sys("stats/idem_ack_lost"), total / 5);
	EXPECT_GT(hn_sys("stats/idem_ack2_lost"), total / 5);
	EXPECT_GT(hn_sys("stats/idem_crc_fail"), 0);
	EXPECT_GE(hn_sys("stats/idem_msg_tx"),
		  total + hn_sys("stats/idem_msg_lost"));
	EXPECT_GT(hn_sys("stats/idem_dups_suppressed"), 0);
	for (u = 0; u < NODES; u++)
		hn_close(h[u]);
	hn_ctl_close(c);
	free(t);
	EXPECT_EQ(0, hn_unload());
}

/*
 * The pairs a variant's rounds cut off are the module's: without the
 * protocol a write to one is refused (EHOSTUNREACH) and a write to any
 * other is taken, and arrives.
 */
TEST_F(random_faults, cut_off_as_refused)
{
	static uint8_t cut[NODES][NODES];
	static uint32_t want[NODES];
	struct hn_handle *h[NODES];
	uint32_t u, v, r, wrong = 0, cuts = 0;
	struct hn_ctl *c;
	char x = 1;
	int rc;

	hn_unload();
	ASSERT_EQ(0, hn_load("topology=fattree:2,4 slots=0"));
	ASSERT_EQ(0, hn_ctl_open(&c));
	for (u = 0; u < NODES; u++) {
		ASSERT_EQ(0, hn_open(&h[u], NULL, 0));
		ASSERT_EQ(0, hn_bind(h[u], u));
	}
	for (r = 0; r < ROUNDS; r++) {
		memset(cut, 0, sizeof(cut));
		rc = fault_round(c, variant->down[r], variant->seed + r, cut);
		ASSERT_LE(0, rc) TH_LOG("%s", hn_ctl_strerror(c, rc));
		cuts += rc;
		for (u = 0; u < NODES; u++)
			for (v = 0; v < NODES; v++) {
				if (u == v)
					continue;
				rc = hn_send(h[u], v, &x, 1);
				ASSERT_TRUE(!rc || rc == -EHOSTUNREACH)
					TH_LOG("%s", hn_strerror(h[u], rc));
				wrong += (rc == -EHOSTUNREACH) != cut[u][v];
				want[v] += !rc;
			}
		ASSERT_EQ(variant->down[r], all_up(c));
	}
	EXPECT_EQ(0, wrong);
	EXPECT_EQ(variant->cuts, cuts > 0);
	for (u = 0; u < NODES; u++) {
		for (v = 0; v < want[u]; v++)
			ASSERT_EQ(1, hn_recv(h[u], NULL, &x, 1));
		ASSERT_EQ(0, hn_set_nonblock(h[u], 1));
		EXPECT_EQ(-EAGAIN, hn_recv(h[u], NULL, &x, 1));
		hn_close(h[u]);
	}
	hn_ctl_close(c);
	EXPECT_EQ(0, hn_unload());
}

TEST(cut_off)
{
	struct hn_handle *a, *b;
	struct pollfd pfd;
	struct hn_ctl *c;
	char buf[8] = "x";
	int rc = 0, i;

	hn_unload();
	ASSERT_EQ(0, hn_load("topology=fattree:2,4 slots=0 idem_timeout_ns=20000 idem_retry_max=3"));
	ASSERT_EQ(0, hn_open_pair(&c, &a, 0, &b, 5));
	ASSERT_EQ(0, hn_ctl_fault_set(c, HN_CTL_NODE_END, 5, 1));
	/* taken, then given up after 3 resends: said by the next call */
	EXPECT_EQ(0, hn_send(a, 5, buf, 1));
	pfd.fd = hn_fd(a);
	pfd.events = POLLIN;
	for (i = 0; i < 1000 && hn_sys("stats/idem_retries_exhausted") < 1; i++)
		usleep(10000);
	EXPECT_EQ(1, hn_sys("stats/idem_retries_exhausted"));
	EXPECT_EQ(3, hn_sys("stats/idem_msg_resends"));
	EXPECT_EQ(1, poll(&pfd, 1, 0));
	EXPECT_TRUE(pfd.revents & POLLERR);
	rc = hn_send(a, 1, buf, 1);
	EXPECT_EQ(-ETIMEDOUT, rc);
	EXPECT_EQ(1, hn_sys("errors/given_up"));
	EXPECT_EQ(0, hn_send(a, 1, buf, 1));	/* said once */
	ASSERT_EQ(0, hn_ctl_fault_set(c, HN_CTL_NODE_END, 5, 0));
	EXPECT_EQ(0, hn_send(a, 5, buf, 2));
	EXPECT_EQ(2, hn_recv(b, NULL, buf, sizeof(buf)));
	hn_close_pair(c, a, b);
	EXPECT_EQ(0, hn_unload());
}

TEST_HARNESS_MAIN
