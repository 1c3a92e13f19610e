// SPDX-License-Identifier: GPL-2.0
/*
 * modparams.c - the module loads with its defaults and with every
 * parameter at each end of its range (config/ shows the value, a message
 * goes from node 0 to the last node where that is quick), and every bad
 * parameter makes the load fail with EINVAL (EOPNOTSUPP: what the engine
 * does not model yet), a kernel message naming it, and no trace (no
 * module, no device).
 *
 * Loads and unloads by finit_module()/delete_module(); the module must
 * not be loaded when this starts.  HN_KO names the .ko file.
 */
#include <sys/uio.h>

#include "kselftest_harness.h"
#include "hn_test.h"
#include "hn_core.h"		/* HN_POL_ALL */

#define S1	"1000000000"		/* 1 s, the largest delay */

static void unload_all(void)
{
	if (hn_loaded())
		hn_unload();
}

/* One message from node 0 to @dst and back out at @dst. */
static int roundtrip(uint32_t dst, uint32_t len, int want_rc)
{
	struct pollfd p = { .events = POLLIN };
	struct hn_handle *a, *b = NULL;
	uint8_t *out = malloc(len), *in = malloc(len);
	struct hybridnet_msg_hdr h;
	int rc;

	if (hn_open(&a, NULL, 0) || hn_bind(a, 0))
		return -1;
	if (dst && (hn_open(&b, NULL, 0) || hn_bind(b, dst)))
		return -2;
	if (!b)
		b = a;
	ht_fill(out, len, 0, dst, 1);
	rc = hn_send(a, dst, out, len);
	if (rc != want_rc) {
		printf("# send: %d, expected %d\n", rc, want_rc);
		return -3;
	}
	if (!rc) {
		p.fd = hn_fd(b);
		if (poll(&p, 1, 20000) != 1)
			return -4;
		if (hn_recv(b, &h, in, len) != (ssize_t)len ||
		    memcmp(in, out, len) || h.src != 0 || h.dst != dst)
			return -5;
	}
	if (b != a)
		hn_close(b);
	hn_close(a);
	free(out);
	free(in);
	return 0;
}

FIXTURE(good) {
	int unused;
};

FIXTURE_VARIANT(good) {
	const char *params;
	const char *cfg;	/* config/<cfg> must read val */
	const char *val;
	int traffic;		/* 0: skip (too slow), 1: 100 B, 2: max_msg */
	int send_rc;
	int dst;		/* 0: the last node */
};

FIXTURE_SETUP(good)
{
	unload_all();
	ASSERT_FALSE(hn_loaded());
}

FIXTURE_TEARDOWN(good)
{
	unload_all();
}

#define GOOD(_name, _params, _cfg, _val, _traffic)			\
	FIXTURE_VARIANT_ADD(good, _name) {				\
		.params = _params, .cfg = _cfg, .val = _val,		\
		.traffic = _traffic,					\
	}

GOOD(defaults, "", "profile", "ding4", 1);
GOOD(default_topology, "", "topology", "crossbar", 0);
GOOD(topology_crossbar, "topology=crossbar nodes=16", "topology", "crossbar",
     1);
GOOD(topology_fattree, "topology=fattree:3,4 policy=16", "topology",
     "fattree:3,4", 0);
GOOD(topology_mesh, "topology=mesh:8x8 slots=0", "topology", "mesh:8x8", 1);
GOOD(topology_torus_nodes, "topology=torus:4x4x4 slots=0", "nodes", "64", 1);
GOOD(topology_torus_slots, "topology=torus:4x4", "slots", "4", 1);
GOOD(topology_gh, "topology=gh:2,8 slots=0 vc_flits=2", "topology", "gh:2,8",
     1);
GOOD(deadlock_ns_off, "deadlock_ns=0", "deadlock_ns", "0", 1);
GOOD(topology_fattree_nodes, "topology=fattree:3,4 policy=16", "nodes", "64",
     0);
GOOD(topology_fattree_nodes_given, "topology=fattree:2,4 nodes=16 policy=16",
     "nodes", "16", 0);
GOOD(default_nodes, "", "nodes", "64", 1);
GOOD(default_clock, "", "clock", "free", 1);
GOOD(profile_ding5, "profile=ding5", "nodes", "128", 1);
GOOD(profile_ding5_slot, "profile=ding5", "slot_p_ns", "100", 1);
GOOD(nodes_min, "nodes=2", "nodes", "2", 1);
GOOD(nodes_max, "nodes=4096", "nodes", "4096", 1);
GOOD(slots_min, "slots=0", "slots", "0", 1);
GOOD(slots_max, "slots=64", "slots", "64", 1);
GOOD(nodes_hex, "nodes=0x10", "nodes", "16", 1);
GOOD(slots_max_preloaded, "slots=64 preload=shift", "slots", "64", 1);
/* the policy takes words, as hnctl and hnsim do, and config/ prints them */
GOOD(policy_min, "policy=0", "policy", "fixed", 1);
GOOD(policy_fixed, "policy=fixed", "policy", "fixed", 1);
GOOD(policy_words, "policy=sla,preempt", "policy", "sla,preempt", 1);
GOOD(policy_plus, "policy=ses+preempt+slot", "policy", "ses,preempt,slot", 1);
GOOD(policy_number, "policy=7", "policy", "sla,preempt", 1);
GOOD(policy_dynamic, "policy=dynamic idle_timeout_ns=1000000", "policy",
     "dynamic", 0);
GOOD(link_mbps_min, "link_mbps=1 slot_p_ns=8000 slot_w_ns=8000",
     "link_mbps", "1", 1);
GOOD(link_mbps_max, "link_mbps=1000000", "link_mbps", "1000000", 1);
GOOD(slot_p_ns_min, "slot_p_ns=1 link_mbps=8000", "slot_p_ns", "1", 1);
GOOD(slot_p_ns_max, "slot_p_ns=" S1, "slot_p_ns", S1, 1);
GOOD(slot_w_ns_min, "slot_w_ns=1 policy=3", "slot_w_ns", "1", 1);
GOOD(slot_w_ns_max, "slot_w_ns=" S1 " policy=3", "slot_w_ns", S1, 1);
GOOD(guard_ns_min, "guard_ns=0", "guard_ns", "0", 1);
GOOD(guard_ns_max, "guard_ns=999999999 slot_p_ns=" S1 " slot_w_ns=" S1
     " link_mbps=8000", "guard_ns", "999999999", 1);
GOOD(sched_ns_min, "sched_ns=0", "sched_ns", "0", 1);
GOOD(sched_ns_max, "sched_ns=" S1, "sched_ns", S1, 1);
GOOD(setup_ns_min, "setup_ns=0", "setup_ns", "0", 1);
GOOD(setup_ns_max, "setup_ns=" S1, "setup_ns", S1, 1);
GOOD(wh_first_ns_min, "wh_first_ns=1 wh_flit_ns=1", "wh_first_ns", "1", 1);
GOOD(wh_first_ns_max, "wh_first_ns=" S1, "wh_first_ns", S1, 0);
GOOD(wh_flit_ns_min, "wh_flit_ns=1", "wh_flit_ns", "1", 1);
GOOD(wh_flit_ns_max, "wh_flit_ns=" S1 " wh_first_ns=" S1,
     "wh_flit_ns", S1, 0);
GOOD(flit_bytes_min, "flit_bytes=1", "flit_bytes", "1", 1);
GOOD(flit_bytes_max, "flit_bytes=4096 worm_bytes=4096",
     "flit_bytes", "4096", 1);
GOOD(worm_bytes_min, "worm_bytes=1 flit_bytes=1", "worm_bytes", "1", 1);
GOOD(worm_bytes_max, "worm_bytes=1048576", "worm_bytes", "1048576", 1);
GOOD(wire_ns_min, "wire_ns=0", "wire_ns", "0", 1);
GOOD(wire_ns_max, "wire_ns=" S1, "wire_ns", S1, 0);
GOOD(nic_ns_min, "nic_ns=0", "nic_ns", "0", 1);
GOOD(nic_ns_max, "nic_ns=" S1, "nic_ns", S1, 0);
GOOD(fabric_ns_min, "fabric_ns=0", "fabric_ns", "0", 1);
GOOD(fabric_ns_max, "fabric_ns=" S1, "fabric_ns", S1, 1);
GOOD(nic_buf_bytes_min, "nic_buf_bytes=1 max_msg_bytes=1",
     "nic_buf_bytes", "1", 1);
GOOD(nic_buf_bytes_max, "nic_buf_bytes=67108864",
     "nic_buf_bytes", "67108864", 1);
GOOD(sw_buf_bytes_min, "sw_buf_bytes=1 max_msg_bytes=1",
     "sw_buf_bytes", "1", 1);
GOOD(sw_buf_bytes_max, "sw_buf_bytes=67108864",
     "sw_buf_bytes", "67108864", 1);
GOOD(rx_buf_bytes_min, "rx_buf_bytes=1 max_msg_bytes=1",
     "rx_buf_bytes", "1", 1);
GOOD(rx_buf_bytes_max, "rx_buf_bytes=67108864",
     "rx_buf_bytes", "67108864", 1);
GOOD(max_msg_bytes_min, "max_msg_bytes=1", "max_msg_bytes", "1", 2);
GOOD(max_msg_bytes_max, "max_msg_bytes=1048576 nic_buf_bytes=1048576 "
     "sw_buf_bytes=1048576 rx_buf_bytes=1048576",
     "max_msg_bytes", "1048576", 2);
GOOD(pin_slots_min, "pin_slots=0", "pin_slots", "0", 1);
GOOD(pin_slots_max, "pin_slots=64 slots=64", "pin_slots", "64", 1);
GOOD(pin_slots_all, "pin_slots=4 preload=shift", "pin_slots", "4", 1);
GOOD(idle_timeout_ns_min, "idle_timeout_ns=0", "idle_timeout_ns", "0", 1);
GOOD(idle_timeout_ns_max, "idle_timeout_ns=1000000000000000",
     "idle_timeout_ns", "1000000000000000", 1);
GOOD(evict_algo_counter, "evict_algo=1 evict_count=1", "evict_algo",
     "counter", 1);
GOOD(evict_count_max, "evict_count=2147483647", "evict_count",
     "2147483647", 0);
GOOD(predict_algo_second, "predict_algo=2", "predict_algo", "second-level",
     0);
GOOD(predict_algo_word, "predict_algo=kstep", "predict_algo", "kstep", 0);
GOOD(evict_algo_word, "evict_algo=counter evict_count=1", "evict_algo",
     "counter", 0);
GOOD(switching_wormhole, "switching=wormhole", "switching", "wormhole", 1);
GOOD(switching_number, "switching=0", "switching", "wormhole", 0);
GOOD(switching_vct, "switching=vct", "switching", "vct", 1);
GOOD(switching_saf, "switching=2", "switching", "saf", 1);
GOOD(switching_drop, "topology=fattree:3,4 switching=drop dilation=2",
     "switching", "drop", 1);
GOOD(dilation_two, "switching=drop dilation=2", "dilation", "2", 2);
/* traffic across the tree's switches, to the last node: three hops up */
GOOD(topology_fattree_worms, "topology=fattree:3,4", "topology",
     "fattree:3,4", 1);
GOOD(topology_fattree_saf, "topology=fattree:2,8 switching=saf", "nodes",
     "64", 1);
GOOD(up_select_det, "up_select=det", "up_select", "det", 0);
GOOD(ft_sched_optimal, "topology=fattree:2,4 ft_sched=optimal", "ft_sched",
     "optimal", 1);
GOOD(ft_sched_number, "ft_sched=1", "ft_sched", "local-greedy", 0);
GOOD(up_select_random, "up_select=random", "up_select", "random", 1);
GOOD(up_select_adaptive, "up_select=adaptive", "up_select", "adaptive", 0);
GOOD(up_select_number, "up_select=1", "up_select", "random", 0);
GOOD(voq_arbiter_lqf, "voq_arbiter=lqf voq_timeout_ns=2000", "voq_arbiter",
     "lqf", 1);
GOOD(voq_arbiter_number, "voq_arbiter=2", "voq_arbiter", "bytes", 0);
GOOD(clock_free, "clock=free", "clock", "free", 1);
GOOD(clock_paced, "clock=paced", "clock", "paced", 1);
GOOD(pace_ppm_min, "clock=paced pace_ppm=1", "pace_ppm", "1", 0);
GOOD(pace_ppm_max, "clock=paced pace_ppm=1000000000",
     "pace_ppm", "1000000000", 1);
GOOD(tick_us_min, "clock=paced tick_us=10", "tick_us", "10", 1);
GOOD(tick_us_max, "clock=paced tick_us=1000000", "tick_us", "1000000", 1);
GOOD(preload_none, "preload=none", "preload_at_load", "none", 1);
GOOD(preload_shift, "preload=shift", "preload_at_load", "shift", 1);

/* pure TDM (policy bit 16): only circuits carry data */
FIXTURE_VARIANT_ADD(good, policy_static_no_circuit) {
	.params = "policy=31", .cfg = "policy", .val = "sla,preempt,slot,no-w",
	.traffic = 1, .send_rc = -EHOSTUNREACH,
};

FIXTURE_VARIANT_ADD(good, policy_static_circuit) {
	.params = "policy=sla,preempt,slot,no-w preload=shift", .cfg = "policy",
	.val = "sla,preempt,slot,no-w",
	.traffic = 1, .dst = 1,
};

/*
 * every policy flag the engine knows (dynamic TDM needs a time-out), as
 * words: each takes the composites' words first
 */
TEST(policy_max)
{
	char params[96], val[64];

	if (hn_loaded())
		hn_unload();
	snprintf(params, sizeof(params), "policy=%u idle_timeout_ns=1000000",
		 (unsigned int)HN_POL_ALL);
	ASSERT_EQ(0, hn_load(params));
	ASSERT_EQ(0, hn_read_file(HN_SYSFS "/config/policy", val, sizeof(val)));
	EXPECT_STREQ("dynamic,sla,preempt,slot", val);
	EXPECT_EQ(0, hn_unload());
}

/*
 * The earlier name k of slots is gone, from the parameters and from
 * config/ (docs/names.md has no deprecated names before the first release)
 */
TEST(no_k)
{
	if (hn_loaded())
		hn_unload();
	ASSERT_EQ(0, hn_load(""));
	EXPECT_EQ(0, access(HN_SYSFS "/config/slots", R_OK));
	EXPECT_NE(0, access(HN_SYSFS "/config/k", F_OK));
	EXPECT_EQ(0, access("/sys/module/hybridnet/parameters/slots", F_OK));
	EXPECT_NE(0, access("/sys/module/hybridnet/parameters/k", F_OK));
	EXPECT_EQ(0, hn_unload());
}

/* a parameter not given reads an empty line, not "(null)"; one given, itself */
TEST(param_files)
{
	char buf[32];

	if (hn_loaded())
		hn_unload();
	ASSERT_EQ(0, hn_load("nodes=8"));
	EXPECT_EQ(0, hn_read_file("/sys/module/hybridnet/parameters/slots",
				  buf, sizeof(buf)));
	EXPECT_STREQ("", buf);
	EXPECT_EQ(0, hn_read_file("/sys/module/hybridnet/parameters/nodes",
				  buf, sizeof(buf)));
	EXPECT_STREQ("8", buf);
	EXPECT_EQ(0, hn_unload());
}

/*
 * A hang detector, not a speed limit: nodes=4096 makes 4096 directories
 * of sysfs files, which on the debug kernel (lockdep, KASAN, kmemleak)
 * under TCG on a busy host took over 60 s.  A load cut short by the
 * timeout still completes in the kernel and fails every test after it.
 */
TEST_F_TIMEOUT(good, loads, 600)
{
	char path[128], val[64];
	uint32_t nodes, dst, len;
	uint64_t t0 = hn_now_ns();

	ASSERT_EQ(0, hn_load(variant->params));
	ASSERT_TRUE(hn_loaded());
	snprintf(path, sizeof(path), HN_SYSFS "/config/%s", variant->cfg);
	ASSERT_EQ(0, hn_read_file(path, val, sizeof(val)));
	EXPECT_STREQ(variant->val, val);
	nodes = hn_sys("config/nodes");
	snprintf(path, sizeof(path), HN_SYSFS "/nodes/%u/rx_read", nodes - 1);
	EXPECT_EQ(0, access(path, R_OK));
	snprintf(path, sizeof(path), HN_SYSFS "/nodes/%u", nodes);
	EXPECT_NE(0, access(path, F_OK));
	if (variant->traffic) {
		dst = variant->dst ? variant->dst : nodes - 1;
		len = hn_sys("config/max_msg_bytes");
		if (variant->traffic == 1 && len > 100)
			len = 100;
		EXPECT_EQ(0, roundtrip(dst, len, variant->send_rc));
	}
	EXPECT_EQ(0, hn_unload());
	EXPECT_FALSE(hn_loaded());
	TH_LOG("%.2f s", (hn_now_ns() - t0) / 1e9);
}

FIXTURE(bad) {
	int kmsg;
};

FIXTURE_VARIANT(bad) {
	const char *params;
	const char *needle;	/* in the kernel log */
	int rc;			/* 0: -EINVAL */
};

FIXTURE_SETUP(bad)
{
	unload_all();
	ASSERT_FALSE(hn_loaded());
	self->kmsg = hn_kmsg_open();
	ASSERT_LE(0, self->kmsg);
}

FIXTURE_TEARDOWN(bad)
{
	close(self->kmsg);
	unload_all();
}

#define BAD_RC(_name, _params, _rc, _needle)				\
	FIXTURE_VARIANT_ADD(bad, _name) {				\
		.params = _params, .needle = _needle, .rc = _rc,	\
	}
#define BAD(_name, _params, _needle) BAD_RC(_name, _params, 0, _needle)

BAD(nodes_low, "nodes=1", "hybridnet: nodes=1: out of range 2..4096");
BAD(nodes_high, "nodes=4097", "hybridnet: nodes=4097: out of range");
BAD(nodes_negative, "nodes=-2", "hybridnet: nodes=-2: out of range");
BAD(nodes_not_a_number, "nodes=abc", "hybridnet: nodes=abc: not a number");
BAD(slots_high, "slots=65", "hybridnet: slots=65: out of range 0..64");
BAD(slots_negative, "slots=-5", "hybridnet: slots=-5: out of range");
BAD(policy_high, "policy=1073741824",
    "hybridnet: policy=1073741824: out of range 0..63");
BAD(policy_unknown, "policy=fast",
    "hybridnet: policy=fast: not words of fixed|ses|sla|preempt|slot|no-w|dynamic joined by ',', nor a number");
BAD(policy_word_high, "policy=ses,64",
    "hybridnet: policy=ses,64: out of range 0..63");
BAD(link_mbps_low, "link_mbps=0", "hybridnet: link_mbps=0: out of range");
BAD(link_mbps_high, "link_mbps=1000001", "hybridnet: link_mbps=1000001");
BAD(slot_p_ns_low, "slot_p_ns=0", "hybridnet: slot_p_ns=0: out of range");
BAD(slot_p_ns_high, "slot_p_ns=1000000001", "hybridnet: slot_p_ns=");
BAD(slot_p_ns_no_byte, "slot_p_ns=1",
    "a predictive slot must carry at least one byte");
BAD(slot_w_ns_low, "slot_w_ns=0", "hybridnet: slot_w_ns=0: out of range");
BAD(guard_ns_high, "guard_ns=1000000000", "hybridnet: guard_ns=");
BAD(guard_ns_slot, "guard_ns=200", "guard_ns must be shorter than every slot");
BAD(sched_ns_high, "sched_ns=1000000001", "hybridnet: sched_ns=");
BAD(setup_ns_negative, "setup_ns=-3", "hybridnet: setup_ns=-3");
BAD(wh_first_ns_low, "wh_first_ns=0", "hybridnet: wh_first_ns=0");
BAD(wh_first_below_flit, "wh_first_ns=5 wh_flit_ns=10",
    "wh_flit_ns <= wh_first_ns");
BAD(wh_flit_ns_low, "wh_flit_ns=0", "hybridnet: wh_flit_ns=0");
BAD(flit_bytes_low, "flit_bytes=0", "hybridnet: flit_bytes=0");
BAD(flit_bytes_high, "flit_bytes=4097", "hybridnet: flit_bytes=4097");
BAD(worm_bytes_low, "worm_bytes=0", "hybridnet: worm_bytes=0");
BAD(worm_bytes_high, "worm_bytes=1048577", "hybridnet: worm_bytes=1048577");
BAD(worm_below_flit, "worm_bytes=4 flit_bytes=8",
    "worm_bytes must be at least flit_bytes");
BAD(wire_ns_high, "wire_ns=1000000001", "hybridnet: wire_ns=");
BAD(nic_ns_high, "nic_ns=1000000001", "hybridnet: nic_ns=");
BAD(fabric_ns_high, "fabric_ns=1000000001", "hybridnet: fabric_ns=");
BAD(nic_buf_bytes_low, "nic_buf_bytes=0", "hybridnet: nic_buf_bytes=0");
BAD(nic_buf_bytes_high, "nic_buf_bytes=67108865",
    "hybridnet: nic_buf_bytes=67108865");
BAD(sw_buf_bytes_low, "sw_buf_bytes=0", "hybridnet: sw_buf_bytes=0");
BAD(rx_buf_bytes_high, "rx_buf_bytes=67108865",
    "hybridnet: rx_buf_bytes=67108865");
BAD(max_msg_bytes_low, "max_msg_bytes=0", "hybridnet: max_msg_bytes=0");
BAD(max_msg_bytes_high, "max_msg_bytes=1048577",
    "hybridnet: max_msg_bytes=1048577");
BAD(max_msg_over_buffers, "max_msg_bytes=16384",
    "every buffer must hold a max_msg_bytes message");
BAD(pin_slots_high, "pin_slots=65", "hybridnet: pin_slots=65: out of range 0..64");
BAD(pin_slots_over_k, "pin_slots=5", "pin_slots must be at most slots");
BAD(idle_timeout_negative, "idle_timeout_ns=-2",
    "hybridnet: idle_timeout_ns=-2");
BAD(idle_timeout_high, "idle_timeout_ns=1000000000000001",
    "hybridnet: idle_timeout_ns=1000000000000001");
BAD(evict_algo_high, "evict_algo=2",
    "hybridnet: evict_algo=2: out of range 0..1");
BAD(evict_count_zero, "evict_count=0",
    "hybridnet: evict_count=0: out of range 1..2147483647");
BAD(profile_unknown, "profile=ding9", "hybridnet: profile=ding9: unknown");
BAD(clock_unknown, "clock=fast", "hybridnet: clock=fast: must be free or paced");
BAD(pace_ppm_low, "pace_ppm=0", "hybridnet: pace_ppm=0: out of range");
BAD(pace_ppm_high, "pace_ppm=1000000001", "hybridnet: pace_ppm=1000000001");
BAD(tick_us_low, "tick_us=9", "hybridnet: tick_us=9: out of range");
BAD(tick_us_high, "tick_us=1000001", "hybridnet: tick_us=1000001");
BAD(preload_unknown, "preload=ring", "hybridnet: preload=ring");
BAD(preload_without_slots, "preload=shift slots=0", "hybridnet: preload=shift");
BAD(predict_algo_unknown, "predict_algo=best", "hybridnet: predict_algo=best: "
    "neither first-fit, kstep, second-level nor a number");
BAD(evict_algo_negative, "evict_algo=-1",
    "hybridnet: evict_algo=-1: out of range 0..1");
BAD(switching_unknown, "switching=cut",
    "hybridnet: switching=cut: neither wormhole, vct, saf, drop nor a number");
BAD(switching_high, "switching=4", "hybridnet: switching=4: out of range 0..3");
BAD(dilation_high, "switching=drop dilation=9",
    "hybridnet: dilation=9: out of range 1..8");
BAD(dilation_without_drop, "dilation=2",
    "hybridnet: parameters refused: dilation above 1 needs switching drop: the other switchings' ports have one channel");
BAD(drop_with_vcs, "topology=fattree:2,4 switching=drop vc_count=1 vc_flits=4",
    "hybridnet: parameters refused: switching drop buffers no flit in a switch: vc_count and vc_flits must be 0");
BAD(up_select_unknown, "up_select=least",
    "hybridnet: up_select=least: neither det, random, adaptive nor a number");
BAD(up_select_high, "up_select=3", "hybridnet: up_select=3: out of range 0..2");
BAD(voq_arbiter_unknown, "voq_arbiter=fifo",
    "hybridnet: voq_arbiter=fifo: neither rr, lqf, bytes nor a number");
BAD(voq_arbiter_high, "voq_arbiter=3",
    "hybridnet: voq_arbiter=3: out of range 0..2");
BAD(ft_sched_unknown, "ft_sched=kstep",
    "hybridnet: ft_sched=kstep: neither levelwise, local-greedy, local-random, optimal nor a number");
BAD(ft_sched_high, "ft_sched=4", "hybridnet: ft_sched=4: out of range 0..3");
BAD(topology_unknown, "topology=ring",
    "hybridnet: topology=ring: topology must be crossbar, fattree:L,W, mesh:KxK, torus:KxK or gh:N,K");
BAD(topology_no_levels, "topology=fattree:0,4",
    "hybridnet: topology=fattree:0,4: topology fattree:L,W: L, the levels, must be at least 1");
BAD(topology_too_big, "topology=fattree:4,16",
    "hybridnet: topology=fattree:4,16: topology fattree:L,W: W^L, the nodes, must be at most 4096");
BAD_RC(topology_torus_second, "topology=torus:4x4 predict_algo=second-level",
       -EOPNOTSUPP,
       "hybridnet: parameters refused: the second-level working set is crossbar only");
BAD(topology_mesh_uneven, "topology=mesh:4x8",
    "hybridnet: topology=mesh:4x8: topology mesh:KxK, torus:KxK: one K for every dimension");
BAD(vc_flits_crossbar, "vc_flits=4",
    "hybridnet: parameters refused: crossbar: no switch feeds another, vc_flits and vc_count must be 0");
BAD(topology_fattree_nodes_not_wl, "topology=fattree:3,4 nodes=32 policy=16",
    "hybridnet: parameters refused: a fat tree FT(l, w) has w^l nodes: nodes must be width^levels");

TEST_F(bad, refused)
{
	EXPECT_EQ(variant->rc ? variant->rc : -EINVAL,
		  hn_load(variant->params));
	EXPECT_FALSE(hn_loaded());
	EXPECT_NE(0, access("/dev/hybridnet", F_OK));
	EXPECT_NE(0, access(HN_SYSFS, F_OK));
	EXPECT_TRUE(hn_kmsg_has(self->kmsg, variant->needle));
}

TEST_HARNESS_MAIN
