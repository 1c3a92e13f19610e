// SPDX-License-Identifier: GPL-2.0
/*
 * stress.c - 64 threads, one per node, each sending messages of random
 * sizes to random destinations for HN_SECONDS (3) seconds while reading
 * what arrives, all through poll() and non-blocking I/O.  Then every
 * thread reads until it has what the others sent it.  Nothing may be
 * lost or duplicated, each (source, destination) stream must keep its
 * order and contents, and the sysfs counters must conserve messages and
 * bytes, per node and in total, including the latency sum.
 *
 * HN_CHAOS=1 adds a thread that, all the while, changes the configuration
 * live (slot lengths, cycle-controller policy, idle time-out), preloads,
 * predicts and releases circuits, resets the statistics and interrupts the
 * senders with signals.  Nothing may be lost, duplicated or reordered
 * still; the statistics, reset midway, are then checked only for what no
 * reset can change (nothing in flight, queued or dropped at the end).
 */
#include <pthread.h>
#include <signal.h>

#include "kselftest_harness.h"
#include "hn_test.h"
#include "nl_raw.h"

#define NT	64
#define MAXLEN	2048

struct node {
	int id;
	pthread_t t;
	struct hn_handle *h;
	uint64_t sent[NT], sent_bytes;		/* to each destination */
	uint64_t next_in[NT];			/* from each source */
	uint64_t got, got_bytes, lat_sum, eagain;
	int err;
	char why[160];
};

static struct node nodes[NT];
static volatile int stop_sending;
static uint64_t chaos_acts;		/* what the chaos thread did */
static pthread_barrier_t sent_all;

static uint32_t len_of(uint32_t src, uint32_t dst, uint64_t seq)
{
	uint64_t s = ((uint64_t)src << 48) ^ ((uint64_t)dst << 32) ^ seq;

	return 1 + ht_rng(&s) % MAXLEN;
}

static int take(struct node *n, uint8_t *buf)
{
	struct hybridnet_msg_hdr h;
	ssize_t len;
	uint64_t seq;

	len = hn_recv(n->h, &h, buf, MAXLEN);
	if (len == -EAGAIN)
		return 0;
	if (len < 0) {
		snprintf(n->why, sizeof(n->why), "recv: %zd", len);
		return -1;
	}
	if (h.dst != (uint32_t)n->id || h.src >= NT) {
		snprintf(n->why, sizeof(n->why), "header %u -> %u", h.src,
			 h.dst);
		return -1;
	}
	seq = n->next_in[h.src]++;
	if (len != len_of(h.src, n->id, seq) ||
	    ht_check(buf, len, h.src, n->id, seq)) {
		snprintf(n->why, sizeof(n->why),
			 "from %u: message %llu wrong (lost, duplicated or reordered)",
			 h.src, (unsigned long long)seq);
		return -1;
	}
	n->got++;
	n->got_bytes += len;
	n->lat_sum += h.t_deliver - h.t_inject;
	return 1;
}

static void *run(void *arg)
{
	struct node *n = arg;
	uint8_t *out = malloc(MAXLEN), *in = malloc(MAXLEN);
	uint64_t rng = 1000 + n->id, want, deadline;
	struct pollfd p = { .fd = hn_fd(n->h) };
	uint32_t dst = 0, len = 0;
	int have = 0, rc, i, waited = 0;

	while (!stop_sending) {
		if (!have) {
			dst = ht_rng(&rng) % NT;
			len = len_of(n->id, dst, n->sent[dst]);
			ht_fill(out, len, n->id, dst, n->sent[dst]);
			have = 1;
		}
		p.events = POLLIN | POLLOUT;
		if (poll(&p, 1, 100) < 0 && errno != EINTR)
			goto fail;
		if (p.revents & POLLIN) {
			while ((rc = take(n, in)) > 0)
				;
			if (rc < 0)
				goto fail;
		}
		if (p.revents & POLLOUT) {
			rc = hn_send(n->h, dst, out, len);
			if (!rc) {
				n->sent[dst]++;
				n->sent_bytes += len;
				have = 0;
			} else if (rc == -EAGAIN) {
				n->eagain++;
			} else {
				snprintf(n->why, sizeof(n->why), "send: %d", rc);
				goto fail;
			}
		}
	}
	pthread_barrier_wait(&sent_all);
	waited = 1;
	for (want = 0, i = 0; i < NT; i++)
		want += nodes[i].sent[n->id];
	deadline = hn_now_ns() + 60ull * 1000000000;
	p.events = POLLIN;
	while (n->got < want && hn_now_ns() < deadline) {
		if (poll(&p, 1, 100) < 0 && errno != EINTR)
			goto fail;
		while ((rc = take(n, in)) > 0)
			;
		if (rc < 0)
			goto fail;
	}
	if (n->got != want)
		snprintf(n->why, sizeof(n->why), "received %llu of %llu",
			 (unsigned long long)n->got, (unsigned long long)want);
	n->err = n->got != want;
	free(out);
	free(in);
	return NULL;
fail:
	n->err = 1;
	if (!waited)		/* the others wait for everyone */
		pthread_barrier_wait(&sent_all);
	return NULL;
}

static void on_signal(int sig)
{
	(void)sig;
}

/* HN_CHAOS: reconfigure, change circuits, reset and interrupt, until told */
static void *chaos(void *arg)
{
	static const uint32_t pol[] = {
		0, HYBRIDNET_POL_SES, HYBRIDNET_POL_SES | HYBRIDNET_POL_SLA,
		HYBRIDNET_POL_SES | HYBRIDNET_POL_PREEMPT,
		HYBRIDNET_POL_SES | HYBRIDNET_POL_PREEMPT |
			HYBRIDNET_POL_PREEMPT_SLOT,
	};
	struct nlr *r = arg;
	uint32_t k = hn_sys("config/slots"), u;
	uint64_t rng = 77, x;
	struct nlattr *sc;

	while (!stop_sending) {
		x = ht_rng(&rng);
		switch (x % 8) {
		case 0:
			nlr_set_u32(r, HYBRIDNET_ATTR_SLOT_P_NS, 100 + x % 300);
			break;
		case 1:
			nlr_msg(r, HYBRIDNET_CMD_CONFIG_SET, 0);
			nlr_u32(r, HYBRIDNET_ATTR_POLICY, pol[(x >> 8) % 5]);
			nlr_u32(r, HYBRIDNET_ATTR_SLOT_W_NS, 100 + (x >> 16) % 2000);
			nlr_call(r, NULL, NULL);
			break;
		case 2:
			if (!k)
				break;
			nlr_msg(r, HYBRIDNET_CMD_PRELOAD, 0);
			sc = nlr_nest(r, HYBRIDNET_ATTR_SLOT_CONFIG);
			nlr_u32(r, HYBRIDNET_ATTR_SLOT, (x >> 8) % k);
			for (u = 0; u < NT; u++)
				nlr_pair(r, u, (u + 1 + (x >> 16) % (NT - 1)) % NT);
			nlr_end(r, sc);
			nlr_call(r, NULL, NULL);
			break;
		case 3:
			nlr_msg(r, HYBRIDNET_CMD_RELEASE, 0);
			nlr_put(r, HYBRIDNET_ATTR_ALL, NULL, 0);
			nlr_call(r, NULL, NULL);
			break;
		case 4:
			nlr_msg(r, HYBRIDNET_CMD_PREDICT, 0);
			for (u = 0; u < 8; u++)
				nlr_pair(r, (x >> u) % NT, (x >> (u + 8)) % NT);
			nlr_call(r, NULL, NULL);
			break;
		case 5:
			hn_sys_write("reset", "1");
			break;
		case 6:
			pthread_kill(nodes[(x >> 8) % NT].t, SIGUSR1);
			break;
		case 7:
			nlr_msg(r, HYBRIDNET_CMD_CONFIG_SET, 0);
			nlr_u64(r, HYBRIDNET_ATTR_IDLE_TIMEOUT_NS,
				(x >> 8) % 2 ? 0 : 1000 + (x >> 16) % 100000);
			nlr_call(r, NULL, NULL);
			break;
		}
		chaos_acts++;
		usleep(2000);
	}
	return NULL;
}

HN_TEST_TIMEOUT(sixty_four_nodes_random_traffic, 7200)
{
	struct sigaction sa = { .sa_handler = on_signal };
	bool wild = getenv("HN_CHAOS") && atoi(getenv("HN_CHAOS"));
	struct nlr *r = calloc(1, sizeof(*r));
	uint32_t policy = 0, slot_p = 0, slot_w = 0;
	uint64_t timeout = 0;
	pthread_t chaos_t;
	const char *sec = getenv("HN_SECONDS");
	uint64_t tx = 0, txb = 0, rx = 0, rxb = 0, lat = 0, eagain = 0;
	uint64_t node_tx, node_rx;
	int i, j;

	ASSERT_TRUE(hn_loaded());
	ASSERT_LE(NT, hn_sys("config/nodes"));
	ASSERT_EQ(0, hn_quiesce(5000));
	ASSERT_EQ(0, hn_sys_write("reset", "1"));
	ASSERT_EQ(0, pthread_barrier_init(&sent_all, NULL, NT + 1));
	for (i = 0; i < NT; i++) {
		memset(&nodes[i], 0, sizeof(nodes[i]));
		nodes[i].id = i;
		ASSERT_EQ(0, hn_open(&nodes[i].h, NULL, HN_NONBLOCK));
		ASSERT_EQ(0, hn_bind(nodes[i].h, i));
	}
	for (i = 0; i < NT; i++)
		ASSERT_EQ(0, pthread_create(&nodes[i].t, NULL, run, &nodes[i]));
	if (wild) {
		ASSERT_NE(NULL, r);
		ASSERT_EQ(0, nlr_open(r));
		policy = hn_sys_policy();
		slot_p = hn_sys("config/slot_p_ns");
		slot_w = hn_sys("config/slot_w_ns");
		timeout = hn_sys("config/idle_timeout_ns");
		sigaction(SIGUSR1, &sa, NULL);	/* no SA_RESTART */
		ASSERT_EQ(0, pthread_create(&chaos_t, NULL, chaos, r));
	}
	sleep(sec ? atoi(sec) : 3);
	stop_sending = 1;
	if (wild) {
		pthread_join(chaos_t, NULL);
		/* back to how it was: everything left drains */
		nlr_msg(r, HYBRIDNET_CMD_RELEASE, 0);
		nlr_put(r, HYBRIDNET_ATTR_ALL, NULL, 0);
		EXPECT_EQ(0, nlr_call(r, NULL, NULL));
		nlr_msg(r, HYBRIDNET_CMD_CONFIG_SET, 0);
		nlr_u32(r, HYBRIDNET_ATTR_POLICY, policy);
		nlr_u32(r, HYBRIDNET_ATTR_SLOT_P_NS, slot_p);
		nlr_u32(r, HYBRIDNET_ATTR_SLOT_W_NS, slot_w);
		nlr_u64(r, HYBRIDNET_ATTR_IDLE_TIMEOUT_NS, timeout);
		EXPECT_EQ(0, nlr_do(r));
		nlr_close(r);
	}
	free(r);
	pthread_barrier_wait(&sent_all);
	for (i = 0; i < NT; i++)
		pthread_join(nodes[i].t, NULL);

	for (i = 0; i < NT; i++) {
		struct node *n = &nodes[i];

		if (n->err)
			TH_LOG("node %d: %s", i, n->why);
		EXPECT_EQ(0, n->err);
		for (node_tx = 0, j = 0; j < NT; j++)
			node_tx += n->sent[j];
		tx += node_tx;
		txb += n->sent_bytes;
		rx += n->got;
		rxb += n->got_bytes;
		lat += n->lat_sum;
		eagain += n->eagain;
		EXPECT_EQ(0, hn_sys("nodes/%d/rx_dropped", i));
		EXPECT_EQ(0, hn_sys("nodes/%d/rx_queued", i));
		if (wild)	/* the counters were reset midway */
			continue;
		node_rx = hn_sys("nodes/%d/rx_msgs_circuit", i) +
			  hn_sys("nodes/%d/rx_msgs_wormhole", i);
		EXPECT_EQ(node_tx, hn_sys("nodes/%d/tx_msgs_circuit", i) +
				   hn_sys("nodes/%d/tx_msgs_wormhole", i));
		EXPECT_EQ(node_tx, hn_sys("nodes/%d/tx_done", i));
		EXPECT_EQ(n->sent_bytes,
			  hn_sys("nodes/%d/tx_bytes_circuit", i) +
			  hn_sys("nodes/%d/tx_bytes_wormhole", i));
		EXPECT_EQ(n->got, node_rx);
		EXPECT_EQ(n->got, hn_sys("nodes/%d/rx_read", i));
		EXPECT_EQ(n->got_bytes,
			  hn_sys("nodes/%d/rx_bytes_circuit", i) +
			  hn_sys("nodes/%d/rx_bytes_wormhole", i));
		EXPECT_EQ(n->lat_sum, hn_sys("nodes/%d/lat_sum_ns", i));
		EXPECT_EQ(n->eagain, hn_sys("nodes/%d/tx_full", i));
	}
	TH_LOG("%llu messages, %llu bytes in %s s; %llu EAGAIN",
	       (unsigned long long)tx, (unsigned long long)txb,
	       sec ? sec : "3", (unsigned long long)eagain);
	EXPECT_LT(1000, tx);
	EXPECT_EQ(tx, rx);
	EXPECT_EQ(txb, rxb);
	EXPECT_EQ(0, hn_sys("stats/in_flight_msgs"));
	if (wild) {
		TH_LOG("chaos: %llu changes, resets and signals meanwhile",
		       (unsigned long long)chaos_acts);
		goto out;
	}
	EXPECT_EQ(tx, hn_tx_msgs());
	EXPECT_EQ(rx, hn_rx_msgs());
	EXPECT_EQ(txb, hn_sys("stats/tx_bytes_wormhole") +
		       hn_sys("stats/tx_bytes_circuit"));
	EXPECT_EQ(rxb, hn_sys("stats/rx_bytes_wormhole") +
		       hn_sys("stats/rx_bytes_circuit"));
	EXPECT_EQ(lat, hn_sys("stats/lat_sum_ns"));
	EXPECT_EQ(0, hn_sys("stats/in_flight_msgs"));
	EXPECT_EQ(rx, hn_sys("stats/rx_read"));
	EXPECT_EQ(eagain, hn_sys("stats/tx_full"));
	EXPECT_EQ(eagain, hn_sys("errors/write_again"));
out:
	for (i = 0; i < NT; i++)
		hn_close(nodes[i].h);
}

TEST_HARNESS_MAIN
