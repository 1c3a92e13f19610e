// SPDX-License-Identifier: GPL-2.0
/*
 * direct.c - the module on the direct networks (topo_cube.c, topo_gh.c).
 * Each test loads the module itself and unloads it at the end.
 *
 * - exchange: on mesh:4x4, torus:4x4 and gh:2,4 (slots=0), on the
 *   torus through the flit router (vc_count=2), and on the three with
 *   Dynamic TDM's circuits only (policy=dynamic: each placed where its
 *   path's links are free in its slot), every node sends three messages,
 *   of 1 B, a worm and max_msg_bytes, to the nodes 1, 5 and 10 further
 *   on; each arrives once, intact (by circuit, every one, with Dynamic
 *   TDM, and the switches count each circuit byte once per switch of
 *   its path, two at least: fabric/level0/circuit_bytes; none without
 *   slots), and fabric/deadlock reads "none".
 * - deadlock: a 4x4 torus with buffers of one flit, under the in-kernel
 *   generator's uniform traffic at full load, deadlocks: the run ends in
 *   state deadlock, fabric/deadlock names a cycle of channels, each
 *   leading to the next one's switch (ports 1 and 2 lead to the + and -
 *   neighbours in dimension 0, ports 3 and 4 in dimension 1), hnctl
 *   fabric (netlink FABRIC_GET) gives the same cycle, as text and as JSON
 *   (its channels), a write fails with EDEADLK, and rmmod hands back
 *   every message.
 *   The mesh under the same load never deadlocks, nor does the torus
 *   through the flit router with two virtual channels (the dateline).
 */
#include "kselftest_harness.h"
#include "hn_test.h"
#include "nl_raw.h"
#include "nl_traffic.h"

#define NODES	16

static const char *const fabrics[] = {
	"topology=mesh:4x4 slots=0",
	"topology=torus:4x4 slots=0",
	"topology=gh:2,4 slots=0",
	"topology=torus:4x4 slots=0 vc_count=2 vc_flits=2",
	"topology=mesh:4x4 policy=dynamic idle_timeout_ns=2000",
	"topology=torus:4x4 policy=dynamic idle_timeout_ns=2000",
	"topology=gh:2,4 policy=dynamic idle_timeout_ns=2000",
};

static void unload_all(void)
{
	if (hn_loaded())
		hn_unload();
}

static int read_deadlock(char *buf, size_t cap)
{
	return hn_read_file(HN_SYSFS "/fabric/deadlock", buf, cap);
}

/*
 * What "hnctl fabric" (netlink FABRIC_GET) says of the deadlock: its
 * line from " deadlock " on, as sysfs gives it; "none" without one.
 */
static int hnctl_deadlock(char *buf, size_t cap)
{
	char line[4096], *p;
	FILE *f = popen("hnctl fabric", "r");
	int st;

	if (!f)
		return -errno;
	if (!fgets(line, sizeof(line), f))
		line[0] = 0;
	st = pclose(f);
	if (st)
		return -EIO;
	line[strcspn(line, "\n")] = 0;
	p = strstr(line, " deadlock ");
	snprintf(buf, cap, "%s", p ? p + 10 : "none");
	return 0;
}

/* The channels of the cycle in "hnctl -j fabric"'s deadlock; -1: none. */
static int hnctl_json_cycle(void)
{
	static char js[16384];
	FILE *f = popen("hnctl -j fabric", "r");
	size_t len;
	char *p;
	int n = 0;

	if (!f)
		return -1;
	len = fread(js, 1, sizeof(js) - 1, f);
	js[len] = 0;
	if (pclose(f))
		return -1;
	p = strstr(js, "\"deadlock\":{\"deadlock-at\":");
	if (!p || !strstr(p, "\"cycle\":["))
		return -1;
	for (; (p = strstr(p, "{\"switch\":")); p++)
		n++;
	return n;
}

TEST(exchange)
{
	static const uint32_t len[] = { 1, 128, 8192 };
	static const uint32_t step[] = { 1, 5, 10 };
	struct hn_handle *h[NODES] = { 0 };
	static char buf[8192], got[8192];
	struct hybridnet_msg_hdr hdr;
	uint32_t f, u, i, j, src;
	char dl[64];
	ssize_t n;

	for (f = 0; f < ARRAY_SIZE(fabrics); f++) {
		unload_all();
		ASSERT_EQ(0, hn_load(fabrics[f])) TH_LOG("%s", fabrics[f]);
		for (u = 0; u < NODES; u++) {
			ASSERT_EQ(0, hn_open(&h[u], NULL, 0));
			ASSERT_EQ(0, hn_bind(h[u], u));
		}
		for (i = 0; i < ARRAY_SIZE(step); i++) {
			for (u = 0; u < NODES; u++) {
				memset(buf, (int)(u + i), len[i]);
				ASSERT_EQ(0, hn_send(h[u], (u + step[i]) % NODES,
						     buf, len[i]));
			}
		}
		for (u = 0; u < NODES; u++) {
			for (j = 0; j < ARRAY_SIZE(step); j++) {
				n = hn_recv(h[u], &hdr, got, sizeof(got));
				ASSERT_LT(0, n) TH_LOG("%s node %u", fabrics[f], u);
				src = hdr.src;
				for (i = 0; i < ARRAY_SIZE(step); i++)
					if ((src + step[i]) % NODES == u)
						break;
				ASSERT_GT(ARRAY_SIZE(step), i);
				EXPECT_EQ(len[i], (uint32_t)n);
				EXPECT_EQ((char)(src + i), got[n - 1]);
			}
		}
		ASSERT_EQ(0, read_deadlock(dl, sizeof(dl)));
		EXPECT_STREQ("none", dl);
		if (strstr(fabrics[f], "dynamic")) {
			EXPECT_EQ(NODES * ARRAY_SIZE(step),
				  hn_sys("stats/rx_msgs_circuit"))
				TH_LOG("%s", fabrics[f]);
			EXPECT_LE(2 * NODES * (1 + 128 + 8192),
				  hn_sys("fabric/level0/circuit_bytes"))
				TH_LOG("%s", fabrics[f]);
		} else {
			EXPECT_EQ(0, hn_sys("fabric/level0/circuit_bytes"))
				TH_LOG("%s", fabrics[f]);
		}
		for (u = 0; u < NODES; u++)
			hn_close(h[u]);
		unload_all();
	}
}

/* The generator at full uniform load on @params: its end state. */
static uint32_t full_load(struct __test_metadata *_metadata,
			  const char *params, struct tstate *s)
{
	struct nlr r;

	unload_all();
	if (hn_load(params))
		return ~0u;
	EXPECT_EQ(0, nlr_open(&r));
	start_msg(&r, "uniform");
	nlr_u32(&r, HYBRIDNET_ATTR_LOAD_PPM, 1000000);
	EXPECT_EQ(0, nlr_call(&r, NULL, NULL));
	EXPECT_EQ(0, wait_end(&r, s, 120));
	nlr_close(&r);
	return s->state;
}

TEST(deadlock)
{
	uint32_t n = 0, sw, port, link, next, k;
	char dl[4096], nl[4096], *p;
	struct hn_handle *h;
	struct tstate s;
	int used;

	ASSERT_EQ(HYBRIDNET_TRAFFIC_DEADLOCK,
		  full_load(_metadata, "topology=torus:4x4 slots=0 vc_flits=1",
			    &s));
	EXPECT_NE(NULL, strstr(s.why, "deadlock")) TH_LOG("%s", s.why);
	ASSERT_EQ(0, read_deadlock(dl, sizeof(dl)));
	ASSERT_EQ(0, strncmp(dl, "at ", 3)) TH_LOG("%s", dl);
	p = strchr(dl, ':');
	ASSERT_NE(NULL, p);
	for (p++, next = ~0u; sscanf(p, " %u.%u/%u%n", &sw, &port, &link,
				     &used) == 3; p += used, n++) {
		if (next != ~0u)
			EXPECT_EQ(next, sw) TH_LOG("%s", dl);
		ASSERT_LE(1, port);
		ASSERT_GE(4, port);
		k = port <= 2 ? 1 : 4;		/* dimension 0 or 1 */
		next = sw - sw / k % 4 * k +
		       (sw / k % 4 + (port % 2 ? 1 : 3)) % 4 * k;
		EXPECT_LE(NODES, link);
	}
	EXPECT_LE(2, n) TH_LOG("%s", dl);
	/* netlink gives the same cycle */
	ASSERT_EQ(0, hnctl_deadlock(nl, sizeof(nl)));
	EXPECT_STREQ(dl, nl);
	EXPECT_EQ((int)n, hnctl_json_cycle());
	ASSERT_EQ(0, hn_open(&h, NULL, 0));
	ASSERT_EQ(0, hn_bind(h, 0));
	EXPECT_EQ(-EDEADLK, hn_send(h, 1, "x", 1));
	EXPECT_EQ(1, hn_sys("errors/write_deadlock"));
	hn_close(h);
	unload_all();		/* the worms' messages are handed back */

	EXPECT_NE(HYBRIDNET_TRAFFIC_DEADLOCK,
		  full_load(_metadata, "topology=mesh:4x4 slots=0 vc_flits=1",
			    &s));
	ASSERT_EQ(0, read_deadlock(dl, sizeof(dl)));
	EXPECT_STREQ("none", dl);
	ASSERT_EQ(0, hnctl_deadlock(nl, sizeof(nl)));
	EXPECT_STREQ("none", nl);
	EXPECT_EQ(-1, hnctl_json_cycle());
	EXPECT_NE(HYBRIDNET_TRAFFIC_DEADLOCK,
		  full_load(_metadata,
			    "topology=torus:4x4 slots=0 vc_count=2 vc_flits=1",
			    &s));
	ASSERT_EQ(0, read_deadlock(dl, sizeof(dl)));
	EXPECT_STREQ("none", dl);
	unload_all();
}

TEST_HARNESS_MAIN
