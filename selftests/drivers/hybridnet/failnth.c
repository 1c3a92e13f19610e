// SPDX-License-Identifier: GPL-2.0
/*
 * failnth.c - systematic allocation-failure injection, on a kernel with
 * FAULT_INJECTION, FAILSLAB, FAIL_PAGE_ALLOC and FAULT_INJECTION_DEBUG_FS
 * (make check-vm-debug); skipped elsewhere.
 *
 * For each kind of request (load, open and bind, write, every netlink
 * command, the generator's start) it fails the request's 1st, 2nd, ...
 * allocation (/proc/thread-self/fail-nth) until the request runs without
 * meeting the failure.  The test's own netlink socket is made anew after
 * each failure (a lost ack leaves an error on it).  HN_FAILNTH_STRIDE=S fails the first 32 one by
 * one and then every S-th, for a shorter run (make check; make soak-debug
 * fails every one).  Every failure must come back as an error and leave
 * the module working (a configuration read and a message exchanged); an
 * injected failure the request absorbed must leave it working too.
 * kmemleak, at the end of the VM run, then finds nothing (but the one
 * leak Linux 6.1 itself has there, known_kernel_leaks()).
 *
 * Allocation failures make the kernel print allocation-failure reports
 * with a stack trace.  At the end the test reads the kernel log: if every
 * stack trace in it belongs to such a report and nothing else is wrong, it
 * clears the log, so that the harness's scan sees only the rest of the run.
 * Expects the module not loaded; leaves it unloaded.
 */
#define _GNU_SOURCE
#include <sys/klog.h>

#include "kselftest_harness.h"
#include "hn_test.h"
#include "nl_raw.h"

#define PARAMS		"nodes=16 slots=4"
/* loading makes every node's sysfs directory: two nodes are enough */
#define PARAMS_LOAD	"nodes=2 slots=1"
#define MAX_NTH		2000	/* allocations of one request, at most */
#define EVERY_NTH	32	/* failed one by one, then every stride-th */

/* HN_FAILNTH_STRIDE: after the first EVERY_NTH, fail every stride-th */
static unsigned int stride = 1;

static unsigned int injected;	/* failures met, over all requests */

static unsigned int next_nth(unsigned int n)
{
	return n < EVERY_NTH ? n + 1 : n + stride;
}

static int fail_nth_fd = -1;

static int debugfs_set(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC), rc;

	if (fd < 0)
		return -errno;
	rc = write(fd, val, strlen(val)) < 0 ? -errno : 0;
	close(fd);
	return rc;
}

/* Fail every kind of allocation, quietly; false where there is no way. */
static bool injection_ready(void)
{
	static const char *const set[][2] = {
		{ "/sys/kernel/debug/failslab/ignore-gfp-wait", "N" },
		{ "/sys/kernel/debug/failslab/verbose", "0" },
		{ "/sys/kernel/debug/fail_page_alloc/ignore-gfp-wait", "N" },
		{ "/sys/kernel/debug/fail_page_alloc/ignore-gfp-highmem", "N" },
		{ "/sys/kernel/debug/fail_page_alloc/min-order", "0" },
		{ "/sys/kernel/debug/fail_page_alloc/verbose", "0" },
	};
	unsigned int i;

	fail_nth_fd = open("/proc/thread-self/fail-nth", O_RDWR | O_CLOEXEC);
	if (fail_nth_fd < 0)
		return false;
	for (i = 0; i < ARRAY_SIZE(set); i++)
		if (debugfs_set(set[i][0], set[i][1]))
			return false;
	return true;
}

static void fail_nth(unsigned int n)
{
	char buf[16];
	int len = snprintf(buf, sizeof(buf), "%u", n);

	if (pwrite(fail_nth_fd, buf, len, 0) != len)
		abort();
}

/* Whether the failure set up with fail_nth() is still to come. */
static bool fail_pending(void)
{
	char buf[16] = "";

	if (pread(fail_nth_fd, buf, sizeof(buf) - 1, 0) <= 0)
		abort();
	return atoi(buf) > 0;
}

struct req {
	const char *name;
	int (*prepare)(struct nlr *r);	/* without injection */
	int (*run)(struct nlr *r);	/* the request, with injection */
	int (*undo)(struct nlr *r);	/* after it succeeded */
	/*
	 * undo after a failure too: a request may have been carried out
	 * and only its ack lost (netlink reports ENOBUFS then)
	 */
	bool always;
};

/* ---- the requests ------------------------------------------------- */

static int config_get(struct nlr *r)
{
	nlr_msg(r, HYBRIDNET_CMD_CONFIG_GET, 0);
	return nlr_call(r, NULL, NULL) == 1 ? 0 : -EPROTO;
}

static int load(struct nlr *r)
{
	return hn_load(PARAMS_LOAD);
}

static int unload(struct nlr *r)
{
	return hn_unload();
}

static int bind_node(struct nlr *r)
{
	struct hn_handle *h;
	int rc;

	rc = hn_open(&h, NULL, 0);
	if (rc)
		return rc;
	rc = hn_bind(h, 5);
	hn_close(h);
	return rc;
}

static struct hn_handle *tx, *rx;

static int open_pair(struct nlr *r)
{
	int rc = hn_open(&tx, NULL, 0);

	if (!rc)
		rc = hn_bind(tx, 1);
	if (!rc)
		rc = hn_open(&rx, NULL, 0);
	if (!rc)
		rc = hn_bind(rx, 2);
	return rc;
}

static int send_one(struct nlr *r)
{
	static const char msg[] = "fail-nth";

	return hn_send(tx, 2, msg, sizeof(msg));
}

static int close_pair(struct nlr *r)
{
	if (tx)
		hn_close(tx);
	if (rx)
		hn_close(rx);
	tx = rx = NULL;
	return 0;
}

/* the message arrives, then both files close */
static int recv_one(struct nlr *r)
{
	struct hybridnet_msg_hdr h;
	char buf[64];
	int rc = hn_recv(rx, &h, buf, sizeof(buf));

	close_pair(r);
	return rc < 0 ? rc : 0;
}

static int set_live(struct nlr *r)
{
	return nlr_set_u32(r, HYBRIDNET_ATTR_SLOT_P_NS, 300);
}

static int live_back(struct nlr *r)
{
	return nlr_set_u32(r, HYBRIDNET_ATTR_SLOT_P_NS, 200);
}

static int set_rebuild(struct nlr *r)
{
	return nlr_set_u32(r, HYBRIDNET_ATTR_NODES, 4);
}

static int rebuild_back(struct nlr *r)
{
	return nlr_set_u32(r, HYBRIDNET_ATTR_NODES, 16);
}

static int preload(struct nlr *r)
{
	struct nlattr *sc;
	uint32_t u;

	nlr_msg(r, HYBRIDNET_CMD_PRELOAD, 0);
	sc = nlr_nest(r, HYBRIDNET_ATTR_SLOT_CONFIG);
	nlr_u32(r, HYBRIDNET_ATTR_SLOT, 1);
	for (u = 0; u < 16; u++)
		nlr_pair(r, u, (u + 3) % 16);
	nlr_end(r, sc);
	return nlr_do(r);
}

static int predict(struct nlr *r)
{
	nlr_msg(r, HYBRIDNET_CMD_PREDICT, 0);
	nlr_pair(r, 0, 1);
	nlr_pair(r, 2, 3);
	return nlr_call(r, NULL, NULL) < 0 ? -EIO : 0;
}

static int release_all(struct nlr *r)
{
	nlr_msg(r, HYBRIDNET_CMD_RELEASE, 0);
	nlr_put(r, HYBRIDNET_ATTR_ALL, NULL, 0);
	return nlr_call(r, NULL, NULL);
}

static int circuit_dump(struct nlr *r)
{
	nlr_msg(r, HYBRIDNET_CMD_CIRCUIT_GET, NLM_F_DUMP);
	return nlr_call(r, NULL, NULL) < 0 ? -EIO : 0;
}

static int stats_get(struct nlr *r)
{
	nlr_msg(r, HYBRIDNET_CMD_STATS_GET, 0);
	return nlr_call(r, NULL, NULL) == 1 ? 0 : -EIO;
}

static int stats_dump(struct nlr *r)
{
	nlr_msg(r, HYBRIDNET_CMD_STATS_GET, NLM_F_DUMP);
	return nlr_call(r, NULL, NULL) == 16 ? 0 : -EIO;
}

static int stats_reset(struct nlr *r)
{
	nlr_msg(r, HYBRIDNET_CMD_STATS_RESET, 0);
	return nlr_call(r, NULL, NULL);
}

static int sched_run(struct nlr *r)
{
	uint32_t u;

	nlr_msg(r, HYBRIDNET_CMD_SCHED_RUN, 0);
	nlr_str(r, HYBRIDNET_ATTR_TOPOLOGY, "fattree:2,4");
	nlr_str(r, HYBRIDNET_ATTR_ALGO, "levelwise");
	for (u = 0; u < 16; u++)
		nlr_pair(r, u, 15 - u);
	return nlr_call(r, NULL, NULL) == 1 ? 0 : -EIO;
}

static int traffic_start(struct nlr *r)
{
	nlr_msg(r, HYBRIDNET_CMD_TRAFFIC_START, 0);
	nlr_str(r, HYBRIDNET_ATTR_PATTERN, "uniform");
	nlr_u32(r, HYBRIDNET_ATTR_BATCH, 4);
	return nlr_call(r, NULL, NULL);
}

/* let the run end and its messages drain */
static int traffic_wait(struct nlr *r)
{
	int i;

	for (i = 0; i < 500; i++) {
		nlr_msg(r, HYBRIDNET_CMD_TRAFFIC_STOP, 0);
		if (nlr_call(r, NULL, NULL))
			return -EIO;
		if (!hn_sys("stats/in_flight_msgs"))
			return 0;
		usleep(10000);
	}
	return -ETIMEDOUT;
}

static int traffic_get(struct nlr *r)
{
	nlr_msg(r, HYBRIDNET_CMD_TRAFFIC_GET, 0);
	return nlr_call(r, NULL, NULL) == 1 ? 0 : -EIO;
}

static int set_tree(struct nlr *r)
{
	nlr_msg(r, HYBRIDNET_CMD_CONFIG_SET, 0);
	nlr_str(r, HYBRIDNET_ATTR_TOPOLOGY, "fattree:2,4");	/* 16 nodes */
	return nlr_do(r);
}

static int tree_back(struct nlr *r)
{
	nlr_msg(r, HYBRIDNET_CMD_CONFIG_SET, 0);
	nlr_str(r, HYBRIDNET_ATTR_TOPOLOGY, "crossbar");
	nlr_u32(r, HYBRIDNET_ATTR_NODES, 16);
	return nlr_do(r);
}

static int fabric_get(struct nlr *r)
{
	nlr_msg(r, HYBRIDNET_CMD_FABRIC_GET, 0);
	return nlr_call(r, NULL, NULL) == 1 ? 0 : -EIO;
}

/* the crossbar's links, a node's each, and its one switch */
static int link_dump(struct nlr *r)
{
	nlr_msg(r, HYBRIDNET_CMD_LINK_GET, NLM_F_DUMP);
	return nlr_call(r, NULL, NULL) == 16 ? 0 : -EIO;
}

static int switch_dump(struct nlr *r)
{
	nlr_msg(r, HYBRIDNET_CMD_SWITCH_GET, NLM_F_DUMP);
	return nlr_call(r, NULL, NULL) == 1 ? 0 : -EIO;
}

static const struct req reqs[] = {
	{ "bind", NULL, bind_node, NULL },
	{ "write", open_pair, send_one, recv_one },
	{ "config-set, live", NULL, set_live, live_back, true },
	{ "config-set, fewer nodes", NULL, set_rebuild, rebuild_back, true },
	/*
	 * growing makes sysfs directories: a failure must leave 4 nodes
	 * with theirs; one that claimed success must have made all 16
	 * (undoing sets 16 again, which changes nothing then)
	 */
	{ "config-set, more nodes", set_rebuild, rebuild_back, rebuild_back,
	  true },
	{ "preload", NULL, preload, release_all, true },
	{ "predict", NULL, predict, release_all, true },
	{ "release", preload, release_all, NULL },
	{ "circuit dump", preload, circuit_dump, release_all, true },
	{ "config-get", NULL, config_get, NULL },
	{ "stats-get", NULL, stats_get, NULL },
	{ "stats dump", NULL, stats_dump, NULL },
	{ "stats-reset", NULL, stats_reset, NULL },
	{ "sched-run", NULL, sched_run, NULL },
	{ "traffic-start", NULL, traffic_start, traffic_wait, true },
	{ "traffic-get", NULL, traffic_get, NULL },
	/* a second level: fabric/level1/ made, or nothing changed */
	{ "config-set, a fat tree", NULL, set_tree, tree_back, true },
	{ "fabric-get", NULL, fabric_get, NULL },
	{ "link dump", NULL, link_dump, NULL },
	{ "switch dump", NULL, switch_dump, NULL },
};

/* ---- the test ----------------------------------------------------- */

/*
 * The module answers, sysfs has a directory for each node and for each
 * level of the fabric and no more, and it carries a message from node 3
 * to node 4.
 */
static int works(struct nlr *r)
{
	struct hybridnet_msg_hdr h;
	struct hn_handle *a, *b;
	char buf[16], path[128];
	uint64_t n;
	int rc;

	if (config_get(r))
		return -EPROTO;
	n = hn_sys("config/nodes");
	snprintf(path, sizeof(path), HN_SYSFS "/nodes/%llu",
		 (unsigned long long)n);
	if (n < 5 || hn_sys("nodes/%llu/bound", (unsigned long long)n - 1) ||
	    !access(path, F_OK))
		return -ENOENT;
	/* and fabric/ a directory for each level, and no more */
	n = hn_sys("fabric/levels");
	if (!n || n > 12)
		return -ENOENT;
	snprintf(path, sizeof(path), HN_SYSFS "/fabric/level%llu/links",
		 (unsigned long long)n - 1);
	if (access(path, F_OK))
		return -ENOENT;
	snprintf(path, sizeof(path), HN_SYSFS "/fabric/level%llu",
		 (unsigned long long)n);
	if (!access(path, F_OK))
		return -ENOENT;
	rc = hn_open(&a, NULL, 0);
	if (rc)
		return rc;
	rc = hn_open(&b, NULL, 0);
	if (!rc) {
		rc = hn_bind(a, 3);
		if (!rc)
			rc = hn_bind(b, 4);
		if (!rc)
			rc = hn_send(a, 4, "ok", 3);
		if (!rc)
			rc = hn_recv(b, &h, buf, sizeof(buf)) < 0 ? -EIO : 0;
		hn_close(b);
	}
	hn_close(a);
	return rc;
}

/*
 * Fail the 1st, 2nd, ... allocation of @q until it runs without meeting
 * the failure; returns the request's number of allocations, or -1.
 */
static int inject(struct __test_metadata *_metadata, struct nlr *r,
		  const struct req *q, unsigned int *errors)
{
	unsigned int n;
	bool pending;
	int rc;

	for (n = 1; n <= MAX_NTH; n = next_nth(n)) {
		if (q->prepare && q->prepare(r)) {
			TH_LOG("%s: cannot prepare", q->name);
			return -1;
		}
		fail_nth(n);
		rc = q->run(r);
		pending = fail_pending();
		fail_nth(0);
		injected += !pending;
		if (rc)
			(*errors)++;
		if (rc && q->run == send_one)
			close_pair(r);
		/*
		 * A failure may have hit the socket rather than the module:
		 * an ack netlink could not allocate is lost, and the socket
		 * reports ENOBUFS once (netlink_ack()).  Undo and check the
		 * module on a fresh socket.
		 */
		nlr_close(r);
		if (nlr_open(r)) {
			TH_LOG("%s: no netlink socket after fault %u", q->name, n);
			return -1;
		}
		if ((!rc || q->always) && q->undo && q->undo(r)) {
			TH_LOG("%s: undoing failed after fault %u", q->name, n);
			return -1;
		}
		if (works(r)) {
			TH_LOG("%s: the module no longer works after fault %u (rc %d)",
			       q->name, n, rc);
			return -1;
		}
		if (pending) {
			if (rc) {
				TH_LOG("%s: failed (%d) with no fault", q->name,
				       rc);
				return -1;
			}
			return n - 1;
		}
	}
	TH_LOG("%s: more than %u allocations", q->name, MAX_NTH);
	return -1;
}

/*
 * Every stack trace in the kernel log belongs to an allocation-failure
 * report (from its first line to the end of its trace), and nothing else
 * is wrong: then clear the log.  Returns the number of bad lines.
 */
static int log_only_alloc_failures(struct __test_metadata *_metadata)
{
	static const char *const report[] = {
		"page allocation failure", "vmalloc error", "FAULT_INJECTION",
	};
	static const char *const wrong[] = {
		"WARNING:", "BUG:", "KASAN", "UBSAN", "circular locking",
		"recursive locking", "inconsistent lock state", "refcount_t",
		"corruption", "stall", "lockup", "LOCKUP", "blocked for more",
		"oom-kill",
	};
	static char buf[1 << 21];
	char *line, *save = NULL;
	bool in_report = false;
	unsigned int i;
	int len, bad = 0;

	len = klogctl(3 /* SYSLOG_ACTION_READ_ALL */, buf, sizeof(buf) - 1);
	if (len < 0)
		return -errno;
	buf[len] = 0;
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		for (i = 0; i < ARRAY_SIZE(report); i++)
			if (strstr(line, report[i]))
				in_report = true;
		for (i = 0; i < ARRAY_SIZE(wrong); i++)
			if (strstr(line, wrong[i]))
				break;
		if (i < ARRAY_SIZE(wrong) ||
		    (strstr(line, "Call Trace") && !in_report)) {
			TH_LOG("kernel: %s", line);
			bad++;
		}
		if (strstr(line, "</TASK>"))
			in_report = false;
	}
	if (!bad)
		klogctl(5 /* SYSLOG_ACTION_CLEAR */, NULL, 0);
	return bad;
}

/*
 * kmemleak's reports, if every one is the leak Linux 6.1 has itself under
 * failed allocations: __class_register() frees the class's subsystem but
 * not its name when kset_register() fails (fixed in 6.2, "driver core:
 * class: fix possible memory leak in __class_register()").  Loading the
 * module meets it when the failure lands there.  Then they are cleared,
 * and counted; anything else stays for the harness's kmemleak check.
 */
static unsigned int known_kernel_leaks(void)
{
	static const char kml[] = "/sys/kernel/debug/kmemleak";
	static char buf[1 << 16];
	unsigned int n = 0, ours = 0;
	char *rec, *next;
	ssize_t len;
	int fd;

	if (debugfs_set(kml, "scan") || debugfs_set(kml, "scan"))
		return 0;
	fd = open(kml, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	len = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (len <= 0 || len == sizeof(buf) - 1)
		return 0;
	buf[len] = 0;
	for (rec = strstr(buf, "unreferenced object"); rec; rec = next) {
		next = strstr(rec + 1, "unreferenced object");
		if (next)
			next[-1] = 0;
		if (strstr(rec, "__class_register") &&
		    strstr(rec, "kobject_set_name"))
			n++;
		else
			ours++;
	}
	if (!n || ours)
		return 0;
	debugfs_set(kml, "clear");
	return n;
}

HN_TEST_TIMEOUT(every_allocation_of_every_request, 1200)
{
	struct nlr *r = calloc(1, sizeof(*r));
	unsigned int i, errors = 0;
	int n;

	ASSERT_NE(NULL, r);
	if (getenv("HN_FAILNTH_STRIDE"))
		stride = strtoul(getenv("HN_FAILNTH_STRIDE"), NULL, 0) ?: 1;
	if (!injection_ready())
		SKIP(return, "no fault injection in this kernel");
	if (hn_loaded())
		ASSERT_EQ(0, hn_unload());

	/* loading: each failure leaves no module behind */
	{
		const struct req q = { "load", NULL, load, unload };
		unsigned int nth;
		bool pending;
		int rc;

		for (nth = 1; nth <= MAX_NTH; nth = next_nth(nth)) {
			fail_nth(nth);
			rc = q.run(r);
			pending = fail_pending();
			fail_nth(0);
			injected += !pending;
			if (rc) {
				errors++;
				ASSERT_FALSE(hn_loaded()) {
					TH_LOG("load: failed (%d) at fault %u, loaded",
					       rc, nth);
				}
			} else {
				ASSERT_EQ(0, q.undo(r));
			}
			if (pending) {
				ASSERT_EQ(0, rc);
				break;
			}
		}
		ASSERT_LE(nth, MAX_NTH);
		TH_LOG("%-24s %4u allocations", q.name, nth - 1);
	}

	ASSERT_EQ(0, hn_load(PARAMS));
	ASSERT_EQ(0, nlr_open(r));
	ASSERT_EQ(0, works(r));
	for (i = 0; i < ARRAY_SIZE(reqs); i++) {
		n = inject(_metadata, r, &reqs[i], &errors);
		EXPECT_LE(0, n);
		if (n < 0)
			continue;
		TH_LOG("%-24s %4d allocations", reqs[i].name, n);
	}
	nlr_close(r);
	free(r);
	EXPECT_EQ(0, hn_unload());
	TH_LOG("%u failures injected (stride %u past %u), %u requests refused, all clean",
	       injected, stride, EVERY_NTH, errors);
	EXPECT_GT(errors, 0);
	n = (int)known_kernel_leaks();
	if (n)
		TH_LOG("%d leak%s of Linux 6.1's own __class_register() cleared (fixed in 6.2)",
		       n, n == 1 ? "" : "s");
	EXPECT_EQ(0, log_only_alloc_failures(_metadata));
}

TEST_HARNESS_MAIN
