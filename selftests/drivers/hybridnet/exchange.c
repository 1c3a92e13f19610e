// SPDX-License-Identifier: GPL-2.0
/*
 * exchange.c - two nodes exchange HN_COUNT (10,000) messages of random
 * sizes (1..HN_MAXLEN, default max_msg_bytes) in both directions at once,
 * blocking reads and writes from four threads.  Contents, order, headers
 * and counts are checked exactly, then the sysfs counters of both nodes
 * and of the fabric, including the latency sum, against what the
 * receivers saw.
 *
 * HN_EXPECT=circuits: the module was loaded with preload=shift, so 0 -> 1
 *                     must go by circuit (slot 0) and 1 -> 0 by wormhole.
 * HN_EXPECT=paced:    the clock is paced; virtual time must have followed
 *                     wall time at pace_ppm (no faster, and no slower
 *                     than half unless ticks were overrun).
 */
#include <pthread.h>

#include "kselftest_harness.h"
#include "hn_test.h"

struct dir {
	struct hn_handle *tx, *rx;
	uint32_t src, dst, count, maxlen;
	uint64_t seed;
	uint64_t bytes;		/* sent */
	uint64_t lat_sum, lat_min, lat_max;
	uint64_t modes[2];
	uint32_t slots_seen;	/* bitmap of slots 0..31 */
	int err;		/* first error, as a line number */
	char why[160];
};

static uint32_t len_of(const struct dir *d, uint64_t i)
{
	uint64_t s = d->seed ^ (i * 0x51ed27ull);

	return 1 + ht_rng(&s) % d->maxlen;
}

#define FAIL(d, ...) do {						\
	if (!(d)->err) {						\
		(d)->err = __LINE__;					\
		snprintf((d)->why, sizeof((d)->why), __VA_ARGS__);	\
	}								\
	return NULL;							\
} while (0)

static void *sender(void *arg)
{
	struct dir *d = arg;
	uint8_t *buf = malloc(d->maxlen);
	uint64_t i;
	uint32_t len;
	int rc;

	for (i = 0; i < d->count; i++) {
		len = len_of(d, i);
		ht_fill(buf, len, d->src, d->dst, i);
		rc = hn_send(d->tx, d->dst, buf, len);
		if (rc)
			FAIL(d, "send %llu: %d", (unsigned long long)i, rc);
		d->bytes += len;
	}
	free(buf);
	return NULL;
}

static void *receiver(void *arg)
{
	struct dir *d = arg;
	uint8_t *buf = malloc(d->maxlen);
	struct hybridnet_msg_hdr h;
	uint64_t i, lat;
	ssize_t n;

	d->lat_min = ~0ull;
	for (i = 0; i < d->count; i++) {
		n = hn_recv(d->rx, &h, buf, d->maxlen);
		if (n < 0)
			FAIL(d, "recv %llu: %zd", (unsigned long long)i, n);
		if (h.src != d->src || h.dst != d->dst)
			FAIL(d, "msg %llu: %u -> %u", (unsigned long long)i,
			     h.src, h.dst);
		if (n != len_of(d, i))
			FAIL(d, "msg %llu: len %zd, want %u",
			     (unsigned long long)i, n, len_of(d, i));
		if (ht_check(buf, n, d->src, d->dst, i))
			FAIL(d, "msg %llu: wrong contents or order",
			     (unsigned long long)i);
		if (h.t_deliver <= h.t_inject || h.mode > 1 || h.tag > 1)
			FAIL(d, "msg %llu: bad header", (unsigned long long)i);
		lat = h.t_deliver - h.t_inject;
		d->lat_sum += lat;
		d->lat_min = lat < d->lat_min ? lat : d->lat_min;
		d->lat_max = lat > d->lat_max ? lat : d->lat_max;
		d->modes[h.mode]++;
		if (h.slot < 32)
			d->slots_seen |= 1u << h.slot;
	}
	free(buf);
	return NULL;
}

static uint32_t env_u32(const char *name, uint32_t def)
{
	const char *v = getenv(name);

	return v ? strtoul(v, NULL, 0) : def;
}

static uint64_t node_sum(int node, const char *what)
{
	return hn_sys("nodes/%d/%s_circuit", node, what) +
	       hn_sys("nodes/%d/%s_wormhole", node, what);
}

TEST(two_nodes_both_ways)
{
	const char *expect = getenv("HN_EXPECT") ? getenv("HN_EXPECT") : "";
	uint32_t count = env_u32("HN_COUNT", 10000);
	uint32_t maxlen = env_u32("HN_MAXLEN", hn_sys("config/max_msg_bytes"));
	uint32_t k = hn_sys("config/slots");
	struct hn_handle *a, *b;
	struct dir d[2];
	pthread_t t[4];
	uint64_t v0, w0, v1, w1, vt, w0_out, w1_out, vt_out;
	int i;

	ASSERT_TRUE(hn_loaded());
	ASSERT_EQ(0, hn_quiesce(5000));
	ASSERT_EQ(0, hn_open(&a, NULL, 0));
	ASSERT_EQ(0, hn_open(&b, NULL, 0));
	ASSERT_EQ(0, hn_bind(a, 0));
	ASSERT_EQ(0, hn_bind(b, 1));
	ASSERT_EQ(0, hn_sys_write("reset", "1"));
	memset(d, 0, sizeof(d));
	d[0] = (struct dir){ .tx = a, .rx = b, .src = 0, .dst = 1,
			     .count = count, .maxlen = maxlen, .seed = 11 };
	d[1] = (struct dir){ .tx = b, .rx = a, .src = 1, .dst = 0,
			     .count = count, .maxlen = maxlen, .seed = 22 };
	/*
	 * Each read of virtual time is bracketed by two of wall time: the
	 * outer pair bounds what pacing may let virtual time run, the inner
	 * pair what it must run, however long the test waits between reads.
	 */
	w0_out = hn_now_ns();
	v0 = hn_sys("stats/now_ns");
	w0 = hn_now_ns();
	for (i = 0; i < 2; i++) {
		ASSERT_EQ(0, pthread_create(&t[2 * i], NULL, receiver, &d[i]));
		ASSERT_EQ(0, pthread_create(&t[2 * i + 1], NULL, sender,
					    &d[i]));
	}
	for (i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
	w1 = hn_now_ns();
	v1 = hn_sys("stats/now_ns");
	w1_out = hn_now_ns();
	for (i = 0; i < 2; i++) {
		if (d[i].err)
			TH_LOG("%u -> %u: line %d: %s", d[i].src, d[i].dst,
			       d[i].err, d[i].why);
		ASSERT_EQ(0, d[i].err);
	}
	TH_LOG("%u messages each way, %llu + %llu bytes, %.1f s",
	       count, (unsigned long long)d[0].bytes,
	       (unsigned long long)d[1].bytes, (w1 - w0) / 1e9);

	/* the fabric's counters agree with what the programs saw */
	ASSERT_EQ(0, hn_quiesce(5000));
	for (i = 0; i < 2; i++) {
		EXPECT_EQ(count, node_sum(d[i].src, "tx_msgs"));
		EXPECT_EQ(d[i].bytes, node_sum(d[i].src, "tx_bytes"));
		EXPECT_EQ(count, hn_sys("nodes/%d/tx_done", d[i].src));
		EXPECT_EQ(count, node_sum(d[i].dst, "rx_msgs"));
		EXPECT_EQ(d[i].bytes, node_sum(d[i].dst, "rx_bytes"));
		EXPECT_EQ(count, hn_sys("nodes/%d/rx_read", d[i].dst));
		EXPECT_EQ(0, hn_sys("nodes/%d/rx_queued", d[i].dst));
		EXPECT_EQ(0, hn_sys("nodes/%d/rx_dropped", d[i].dst));
		EXPECT_EQ(d[i].lat_sum, hn_sys("nodes/%d/lat_sum_ns",
					       d[i].dst));
		EXPECT_EQ(d[i].lat_min, hn_sys("nodes/%d/lat_min_ns",
					       d[i].dst));
		EXPECT_EQ(d[i].lat_max, hn_sys("nodes/%d/lat_max_ns",
					       d[i].dst));
		EXPECT_EQ(d[i].modes[HYBRIDNET_MODE_CIRCUIT],
			  hn_sys("nodes/%d/rx_msgs_circuit", d[i].dst));
	}
	EXPECT_EQ(2ull * count, hn_tx_msgs());
	EXPECT_EQ(2ull * count, hn_rx_msgs());
	EXPECT_EQ(d[0].bytes + d[1].bytes,
		  hn_sys("stats/tx_bytes_circuit") +
		  hn_sys("stats/tx_bytes_wormhole"));
	EXPECT_EQ(d[0].bytes + d[1].bytes,
		  hn_sys("stats/rx_bytes_circuit") +
		  hn_sys("stats/rx_bytes_wormhole"));
	EXPECT_EQ(d[0].lat_sum + d[1].lat_sum, hn_sys("stats/lat_sum_ns"));
	EXPECT_EQ(0, hn_sys("stats/in_flight_msgs"));
	EXPECT_EQ(0, hn_sys("stats/in_flight_bytes"));
	EXPECT_EQ(2ull * count, hn_sys("stats/rx_read"));
	EXPECT_EQ(0, hn_sys("stats/rx_dropped"));
	EXPECT_EQ(0, hn_sys("stats/rx_queued"));
	EXPECT_EQ(0, hn_sys("errors/write_fault") + hn_sys("errors/read_fault") +
		     hn_sys("errors/write_intr") + hn_sys("errors/read_intr") +
		     hn_sys("errors/write_again") + hn_sys("errors/read_again"));

	if (!strcmp(expect, "circuits")) {
		/* preload=shift: slot 0 connects 0 -> 1; 1 -> 0 needs N-1 */
		EXPECT_EQ(count, d[0].modes[HYBRIDNET_MODE_CIRCUIT]);
		EXPECT_EQ(1u, d[0].slots_seen);
		EXPECT_EQ(count, hn_sys("nodes/0/tx_msgs_circuit"));
		EXPECT_EQ(count, d[1].modes[HYBRIDNET_MODE_WORMHOLE]);
		EXPECT_EQ(1u << k, d[1].slots_seen);
		EXPECT_EQ(d[0].bytes, hn_sys("stats/rx_bytes_circuit"));
	} else {
		EXPECT_EQ(0, hn_sys("stats/tx_msgs_circuit"));
		EXPECT_EQ(2ull * count, hn_sys("stats/rx_msgs_wormhole"));
	}
	if (!strcmp(expect, "paced")) {
		uint64_t ppm = hn_sys("config/pace_ppm");
		uint64_t slot = hn_sys("config/slot_p_ns");

		vt = (w1 - w0) * ppm / 1000000;
		vt_out = (w1_out - w0_out) * ppm / 1000000;
		TH_LOG("paced: virtual %llu ns over wall %llu to %llu ns, ideal %llu to %llu, %llu overruns",
		       (unsigned long long)(v1 - v0),
		       (unsigned long long)(w1 - w0),
		       (unsigned long long)(w1_out - w0_out),
		       (unsigned long long)vt, (unsigned long long)vt_out,
		       (unsigned long long)hn_sys("clock/overruns"));
		EXPECT_LE(v1 - v0, vt_out + vt_out / 20 + 4 * slot);
		if (hn_sys("clock/overruns") == 0)
			EXPECT_GE(v1 - v0, vt / 2);
		EXPECT_GT(v1, v0);
	}
	hn_close(a);
	hn_close(b);
}

TEST_HARNESS_MAIN
