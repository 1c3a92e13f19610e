// SPDX-License-Identifier: GPL-2.0
/*
 * preempt.c - Woods-Corwin's preemptive priority through /dev/hybridnet
 * on a drop network (docs/model.md "Drop on block", "Priority and
 * preemption"): the test loads the module itself on FT(2,4) with
 * switching drop and dilation 1, and unloads it.
 *
 * - hot_spot: on the paced clock (a microsecond of virtual time a
 *   millisecond), nodes 0-13 write 512-byte messages at priority 0 to node
 *   15 and node 14 writes 16-byte ones at priority 5 to it too, so that
 *   headers of priority 5 find node 15's link held by worms of priority
 *   0: the module preempts (stats preemptions, stub_flits), and node 15
 *   reads every message once, each pair's in order, intact, and each
 *   with the priority it was written with.
 * - phases_with_exactly_once: the same with the exactly-once protocol:
 *   each phase's copies that arrived and the headers they took
 *   (idem_*_arrived, idem_*_attempts: the success per attempt of MSG,
 *   ACK and ACK2), adding up to the fabric's attempts; and the MSGs'
 *   switches (idem_msg_switches), 1 or 3 a route on FT(2,4), whence
 *   Woods-Corwin's E.
 */
#include "kselftest_harness.h"
#include "hn_test.h"

#define NODES	16
#define DST	15
#define HIGH	14		/* the node that writes at priority 5 */
#define PER	40		/* messages each writer writes */
#define BIG	512
#define SMALL	16

/* A message's length and priority by its writer */
static uint32_t len_of(uint32_t u)
{
	return u == HIGH ? SMALL : BIG;
}

/*
 * Load the module with @params, the writers write, node 15 reads: every
 * message once, each pair's in order, intact, with its priority.
 */
static void hot_run(struct __test_metadata *_metadata, const char *params)
{
	static uint8_t buf[BIG];
	struct hn_handle *h[NODES];
	struct hybridnet_msg_hdr hdr;
	uint32_t sent[NODES] = { 0 }, next[NODES] = { 0 }, got = 0, u;
	uint64_t t0;
	ssize_t n;
	int rc;

	hn_unload();
	ASSERT_EQ(0, hn_load(params));
	for (u = 0; u < NODES; u++) {
		ASSERT_EQ(0, hn_open(&h[u], NULL, HN_NONBLOCK));
		ASSERT_EQ(0, hn_bind(h[u], u));
	}
	t0 = hn_now_ns();
	while (got < (NODES - 1) * PER &&
	       hn_now_ns() - t0 < 120ull * 1000000000) {
		for (u = 0; u < NODES - 1; u++) {
			if (sent[u] == PER)
				continue;
			ht_fill(buf, len_of(u), u, DST, sent[u]);
			rc = hn_send_flags(h[u], DST, buf, len_of(u),
					   u == HIGH ? 5 : 0);
			if (rc == -EAGAIN)
				continue;
			ASSERT_EQ(0, rc) TH_LOG("node %u", u);
			sent[u]++;
		}
		while ((n = hn_recv(h[DST], &hdr, buf, sizeof(buf))) > 0) {
			u = hdr.src;
			ASSERT_LT(u, NODES - 1);
			ASSERT_EQ(len_of(u), (uint32_t)n);
			ASSERT_EQ(u == HIGH ? 5u : 0u, hdr.flags) TH_LOG("node %u", u);
			ASSERT_EQ(0, ht_check(buf, (uint32_t)n, u, DST, next[u]))
				TH_LOG("node %u, message %u", u, next[u]);
			next[u]++;
			got++;
		}
		if (n != -EAGAIN)
			ASSERT_EQ(-EAGAIN, n);
		usleep(200);
	}
	TH_LOG("%u read; %llu attempts, %llu drops, %llu preemptions, %llu stub flits",
	       got, (unsigned long long)hn_sys("stats/attempts"),
	       (unsigned long long)hn_sys("stats/drops"),
	       (unsigned long long)hn_sys("stats/preemptions"),
	       (unsigned long long)hn_sys("stats/stub_flits"));
	EXPECT_EQ((NODES - 1) * PER, got);
	for (u = 0; u < NODES - 1; u++)
		EXPECT_EQ(PER, next[u]) TH_LOG("node %u", u);
	for (u = 0; u < NODES; u++)
		hn_close(h[u]);
}

/* paced at 1 us a ms: the writers' messages meet in the fabric */
#define DROP	"topology=fattree:2,4 slots=0 switching=drop dilation=1 clock=paced"

TEST(hot_spot)
{
	hot_run(_metadata, DROP);
	EXPECT_LT(0, hn_sys("stats/preemptions"));
	EXPECT_LT(0, hn_sys("stats/stub_flits"));
	EXPECT_LE(hn_sys("stats/preemptions_late"),
		  hn_sys("stats/preemptions"));
	EXPECT_EQ(0, hn_unload());
}

/*
 * The same with exactly once: each phase's copies that arrived and the
 * headers they took (the success per attempt of MSG, ACK and ACK2),
 * which add up to the fabric's attempts once all is quiet.
 */
TEST(phases_with_exactly_once)
{
	static const char *const kind[] = { "msg", "ack", "ack2" };
	uint64_t arrived, attempts, sum = 0, sw;
	double e = 0;
	char name[64];
	uint32_t i;

	hot_run(_metadata, DROP " idem_timeout_ns=1000000");
	for (i = 0; i < 3000 && (hn_sys("stats/in_flight_msgs") ||
				 hn_sys("stats/idem_send_state_entries") ||
				 hn_sys("stats/idem_recv_state_entries")); i++)
		usleep(10000);		/* the last ACKs and ACK2s */
	for (i = 0; i < 3; i++) {
		snprintf(name, sizeof(name), "stats/idem_%s_arrived", kind[i]);
		arrived = hn_sys(name);
		snprintf(name, sizeof(name), "stats/idem_%s_attempts", kind[i]);
		attempts = hn_sys(name);
		TH_LOG("%s: %llu arrived, %llu attempts", kind[i],
		       (unsigned long long)arrived,
		       (unsigned long long)attempts);
		EXPECT_LE((NODES - 1) * PER, arrived) TH_LOG("%s", kind[i]);
		EXPECT_LE(arrived, attempts) TH_LOG("%s", kind[i]);
		sum += attempts;
		e += arrived ? (double)attempts / arrived : 0;
	}
	arrived = hn_sys("stats/idem_msg_arrived");
	sw = hn_sys("stats/idem_msg_switches");
	EXPECT_LE(arrived, sw);
	EXPECT_GE(3 * arrived, sw);
	TH_LOG("E = %.3f switches (mean path %.3f)",
	       arrived ? e * sw / arrived : 0, arrived ? (double)sw / arrived : 0);
	EXPECT_LT(hn_sys("stats/idem_msg_arrived"),
		  hn_sys("stats/idem_msg_attempts"));
	EXPECT_EQ(hn_sys("stats/attempts"), sum);
	EXPECT_EQ(0, hn_unload());
}

TEST_HARNESS_MAIN
