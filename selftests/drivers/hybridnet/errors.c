// SPDX-License-Identifier: GPL-2.0
/*
 * errors.c - libhybridnet's errors say what to do: hn_strerror() and
 * hn_ctl_strerror() give, word for word, the cause and the next step of
 * each failure of the device and of the control plane.  Run by
 * errors-vm.sh, as root, with the module loaded (nodes=8 slots=4) and no
 * file open; the last test unloads it and loads it again.  The refusals
 * of a user without the device's group are errors-vm.sh's.
 */
#include <grp.h>
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "hn_test.h"

#define NOT_LOADED	"the hybridnet module is not loaded: load it (sudo " \
			"modprobe hybridnet), or run the program in the VM " \
			"of the source tree (make vm-run CMD='...')"

static const char *fmt(char *buf, size_t len, const char *f, ...)
	__attribute__((format(printf, 3, 4)));

static const char *fmt(char *buf, size_t len, const char *f, ...)
{
	va_list ap;

	va_start(ap, f);
	vsnprintf(buf, len, f, ap);
	va_end(ap);
	return buf;
}

/* Set the fields marked in @cfg's mask (HN_CTL_MARK): the call's errno. */
static int ctl_set(struct hn_ctl_config *cfg)
{
	struct hn_ctl *c;
	int rc = hn_ctl_open(&c);

	if (!rc)
		rc = hn_ctl_config_set(c, cfg);
	hn_ctl_close(c);
	return rc;
}

/*
 * FT(2,4) without circuit slots, the cut-off tests' fabric, and the
 * fields marked in @cfg: the call's errno.
 */
static int ctl_ft24(struct hn_ctl_config *cfg)
{
	HN_CTL_MARK(cfg, HYBRIDNET_ATTR_TOPOLOGY);
	snprintf(cfg->topology, sizeof(cfg->topology), "fattree:2,4");
	HN_CTL_MARK(cfg, HYBRIDNET_ATTR_SLOTS);
	cfg->slots = 0;
	return ctl_set(cfg);
}

/* Back to the fabric errors-vm.sh loads: the call's errno. */
static int ctl_restore(void)
{
	struct hn_ctl_config cfg = { 0 };

	HN_CTL_MARK(&cfg, HYBRIDNET_ATTR_TOPOLOGY);
	snprintf(cfg.topology, sizeof(cfg.topology), "crossbar");
	HN_CTL_MARK(&cfg, HYBRIDNET_ATTR_NODES);
	cfg.nodes = 8;
	HN_CTL_MARK(&cfg, HYBRIDNET_ATTR_SLOTS);
	cfg.slots = 4;
	HN_CTL_MARK(&cfg, HYBRIDNET_ATTR_RX_BUF_BYTES);
	cfg.rx_buf_bytes = 65536;
	HN_CTL_MARK(&cfg, HYBRIDNET_ATTR_MAX_MSG_BYTES);
	cfg.max_msg_bytes = 8192;
	return ctl_set(&cfg);
}

TEST(open_says)
{
	struct hn_handle *h = NULL;
	int rc;

	rc = hn_open(&h, "/nonexistent", 0);
	EXPECT_EQ(-ENOENT, rc);
	EXPECT_STREQ("cannot open /nonexistent: No such file or directory",
		     hn_strerror(NULL, rc));
	/* the module is loaded, its device file gone */
	ASSERT_EQ(0, rename("/dev/hybridnet", "/dev/hybridnet.away"));
	rc = hn_open(&h, NULL, 0);
	ASSERT_EQ(0, rename("/dev/hybridnet.away", "/dev/hybridnet"));
	EXPECT_EQ(-ENOENT, rc);
	EXPECT_STREQ("cannot open /dev/hybridnet: the module is loaded but the device file is missing: mount devtmpfs on /dev, or make it (mknod /dev/hybridnet c $(tr : ' ' < /sys/class/misc/hybridnet/dev))",
		     hn_strerror(NULL, rc));
}

TEST(bind_says)
{
	struct hn_handle *a, *b, *n;
	char want[400];
	pid_t pid;
	int rc, st;

	ASSERT_EQ(0, hn_open(&a, NULL, 0));
	ASSERT_EQ(0, hn_open(&b, NULL, 0));
	rc = hn_bind(a, 8);
	EXPECT_EQ(-EINVAL, rc);
	EXPECT_STREQ("cannot bind node 8: no such node: the fabric has 8 nodes (0..7)",
		     hn_strerror(a, rc));
	ASSERT_EQ(0, hn_bind(a, 2));
	rc = hn_bind(a, 3);
	EXPECT_EQ(-EBUSY, rc);
	EXPECT_STREQ("cannot bind node 3: this handle is bound to node 2 already: a handle binds one node; open another (hn_open()) for node 3",
		     hn_strerror(a, rc));
	rc = hn_bind(b, 2);
	EXPECT_EQ(-EBUSY, rc);
	EXPECT_STREQ(fmt(want, sizeof(want), "cannot bind node 2: it is bound to a file of pid %d (errors), another handle of this program: bind each node once",
			 getpid()), hn_strerror(b, rc));
	/* another program: its pid and name, from sysfs nodes/2/holder */
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		rc = hn_bind(b, 2);
		fmt(want, sizeof(want), "cannot bind node 2: it is bound to a file of pid %d (errors): bind another node, or end that program (hnctl show lists the nodes bound)",
		    getppid());
		_exit(rc != -EBUSY || strcmp(want, hn_strerror(b, rc)));
	}
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	EXPECT_EQ(0, st);
	/* a file that is not the device */
	ASSERT_EQ(0, hn_open(&n, "/dev/null", 0));
	rc = hn_bind(n, 0);
	EXPECT_EQ(-ENOTTY, rc);
	EXPECT_STREQ("cannot bind node 0: the file is not /dev/hybridnet",
		     hn_strerror(n, rc));
	hn_close(n);
	hn_close(b);
	hn_close(a);
}

TEST(send_says)
{
	struct hn_ctl_config cfg = { 0 };
	struct hybridnet_info info;
	struct hn_handle *a, *b;
	static char buf[HYBRIDNET_MAX_MSG + 1];
	char want[400];
	int rc, i;

	ASSERT_EQ(0, hn_open(&a, NULL, 0));
	ASSERT_EQ(0, hn_open(&b, NULL, HN_NONBLOCK));
	rc = hn_send(a, 1, buf, 10);
	EXPECT_EQ(-ENOTCONN, rc);
	EXPECT_STREQ("cannot send: the handle is bound to no node: hn_bind() it first",
		     hn_strerror(a, rc));
	ASSERT_EQ(0, hn_bind(a, 0));
	ASSERT_EQ(0, hn_bind(b, 1));
	ASSERT_EQ(0, hn_info(a, &info));
	rc = hn_send(a, 8, buf, 10);
	EXPECT_EQ(-EINVAL, rc);
	EXPECT_STREQ("cannot send to node 8: no such node: the fabric has 8 nodes (0..7)",
		     hn_strerror(a, rc));
	rc = hn_send(a, 1, buf, 0);
	EXPECT_EQ(-EINVAL, rc);
	EXPECT_STREQ("cannot send an empty message to node 1: send at least one byte",
		     hn_strerror(a, rc));
	rc = hn_send(a, 1, buf, info.max_msg + 1);
	EXPECT_EQ(-EMSGSIZE, rc);
	EXPECT_STREQ(fmt(want, sizeof(want), "cannot send %u bytes to node 1: more than max-msg-bytes (%u): split the message, or raise the limit (hnctl set max-msg-bytes %u)",
			 info.max_msg + 1, info.max_msg, info.max_msg + 1),
		     hn_strerror(a, rc));
	rc = hn_send(a, 1, buf, HYBRIDNET_MAX_MSG + 1);
	EXPECT_EQ(-EMSGSIZE, rc);
	EXPECT_STREQ("cannot send 1048577 bytes to node 1: more than the largest message (1048576 bytes): split it",
		     hn_strerror(a, rc));
	/* pure TDM (no wormhole slot) and no circuit */
	memset(cfg.mask, 0, sizeof(cfg.mask));
	HN_CTL_MARK(&cfg, HYBRIDNET_ATTR_POLICY);
	cfg.policy = HYBRIDNET_POL_NO_W;
	ASSERT_EQ(0, ctl_set(&cfg));
	rc = hn_send(a, 1, buf, 10);
	cfg.policy = HYBRIDNET_POL_SES;
	ASSERT_EQ(0, ctl_set(&cfg));
	EXPECT_EQ(-EHOSTUNREACH, rc);
	EXPECT_STREQ("cannot send to node 1: no circuit from node 0 to it, and the policy has no wormhole slot (no-w): preload one (hnctl preload slot 0 0:1) or choose a policy with the wormhole slot (hnctl set policy ses)",
		     hn_strerror(a, rc));
	/* node 1 reads nothing: its buffers fill, then node 0's NIC */
	ASSERT_EQ(0, hn_set_nonblock(a, 1));
	for (i = 0, rc = 0; i < 100000 && !rc; i++)
		rc = hn_send(a, 1, buf, info.max_msg);
	EXPECT_EQ(-EAGAIN, rc);
	EXPECT_STREQ("cannot send now: the node's NIC buffer or the device's message memory is full and the handle does not wait: poll() hn_fd() for POLLOUT, then send again",
		     hn_strerror(a, rc));
	hn_close(b);
	hn_close(a);
}

/*
 * A fault cuts node 5 off FT(2,4) (no circuit slots): a send to it says
 * so, others go; back up, it goes and arrives.
 */
TEST(send_cut_off_says)
{
	struct hn_ctl_config cfg = { 0 };
	struct hybridnet_msg_hdr hdr;
	struct hn_handle *a, *b;
	char buf[16] = "x";
	struct hn_ctl *c;
	int rc;

	ASSERT_EQ(0, ctl_ft24(&cfg));
	ASSERT_EQ(0, hn_open_pair(&c, &a, 0, &b, 5));
	ASSERT_EQ(0, hn_ctl_fault_set(c, HN_CTL_NODE_END, 5, 1));
	rc = hn_send(a, 5, buf, 1);
	EXPECT_EQ(-EHOSTUNREACH, rc);
	EXPECT_STREQ("cannot send to node 5: no live route from node 0 to it: links or switches on every route are down (hnctl links; hnctl link up NAME)",
		     hn_strerror(a, rc));
	EXPECT_EQ(-EHOSTUNREACH, hn_send(b, 0, buf, 1));
	EXPECT_EQ(0, hn_send(a, 1, buf, 1));
	ASSERT_EQ(0, hn_ctl_fault_set(c, HN_CTL_NODE_END, 5, 0));
	EXPECT_EQ(0, hn_send(a, 5, buf, 2));
	rc = hn_recv(b, &hdr, buf, sizeof(buf));
	EXPECT_EQ(2, rc);
	EXPECT_EQ(0, hdr.src);
	hn_close_pair(c, a, b);
	ASSERT_EQ(0, ctl_restore());
}

/*
 * Messages queued before a fault cut their destination off are not
 * silent: stats/unreach_waiting_msgs counts them while they wait (node
 * 5 holds 4 of the 8 in its receive buffer, unread; the other 4 wait at
 * node 0), and they arrive once the link is back.
 */
TEST(queued_for_a_cut_off_node_counted)
{
	struct hn_ctl_config cfg = { 0 };
	struct hybridnet_msg_hdr hdr;
	struct hn_handle *a, *b;
	char buf[64] = "x";
	struct hn_ctl *c;
	int i, got = 0;

	HN_CTL_MARK(&cfg, HYBRIDNET_ATTR_RX_BUF_BYTES);
	cfg.rx_buf_bytes = 4 * sizeof(buf);
	HN_CTL_MARK(&cfg, HYBRIDNET_ATTR_MAX_MSG_BYTES);
	cfg.max_msg_bytes = sizeof(buf);
	ASSERT_EQ(0, ctl_ft24(&cfg));
	ASSERT_EQ(0, hn_open_pair(&c, &a, 0, &b, 5));
	for (i = 0; i < 8; i++)
		ASSERT_EQ(0, hn_send(a, 5, buf, sizeof(buf)));
	for (i = 0; i < 100 && hn_sys("stats/rx_msgs_wormhole") < 4; i++)
		usleep(10000);
	EXPECT_EQ(4, hn_sys("stats/rx_msgs_wormhole"));
	EXPECT_EQ(0, hn_sys("stats/unreach_waiting_msgs"));
	ASSERT_EQ(0, hn_ctl_fault_set(c, HN_CTL_NODE_END, 5, 1));
	EXPECT_EQ(4, hn_sys("stats/unreach_waiting_msgs"));
	ASSERT_EQ(0, hn_ctl_fault_set(c, HN_CTL_NODE_END, 5, 0));
	EXPECT_EQ(0, hn_sys("stats/unreach_waiting_msgs"));
	for (i = 0; i < 8; i++)
		got += hn_recv(b, &hdr, buf, sizeof(buf)) == sizeof(buf);
	EXPECT_EQ(8, got);
	hn_close_pair(c, a, b);
	ASSERT_EQ(0, ctl_restore());
}

TEST(recv_says)
{
	struct hn_handle *a, *b;
	char buf[100] = "", want[300];
	struct hybridnet_info info;
	ssize_t n;

	ASSERT_EQ(0, hn_open(&a, NULL, 0));
	ASSERT_EQ(0, hn_open(&b, NULL, HN_NONBLOCK));
	n = hn_recv(b, NULL, buf, sizeof(buf));
	EXPECT_EQ(-ENOTCONN, n);
	EXPECT_STREQ("cannot receive: the handle is bound to no node: hn_bind() it first",
		     hn_strerror(b, (int)n));
	ASSERT_EQ(0, hn_bind(a, 0));
	ASSERT_EQ(0, hn_bind(b, 1));
	n = hn_recv(b, NULL, buf, sizeof(buf));
	EXPECT_EQ(-EAGAIN, n);
	EXPECT_STREQ("nothing to receive, and the handle does not wait: poll() hn_fd() for POLLIN, then receive again",
		     hn_strerror(b, (int)n));
	ASSERT_EQ(0, hn_send(a, 1, buf, sizeof(buf)));
	ASSERT_EQ(0, hn_set_nonblock(b, 0));
	ASSERT_EQ(0, hn_info(b, &info));
	n = hn_recv(b, NULL, buf, 10);
	EXPECT_EQ(-EMSGSIZE, n);
	/* the last call's: hn_recv()'s */
	EXPECT_STREQ(fmt(want, sizeof(want), "cannot receive: the next message has 100 bytes, more than the buffer's 10: give a buffer of max-msg-bytes (%u, hn_info())",
			 info.max_msg), hn_strerror(b, (int)n));
	hn_close(b);
	hn_close(a);
}

TEST(ctl_says)
{
	struct hn_ctl_config cfg = { 0 };
	struct hn_ctl *c;
	pid_t pid;
	int rc, st;

	/* the kernel's policy refuses it: its range comes with the reason */
	ASSERT_EQ(0, hn_ctl_open(&c));
	memset(cfg.mask, 0, sizeof(cfg.mask));
	HN_CTL_MARK(&cfg, HYBRIDNET_ATTR_NODES);
	cfg.nodes = 100000;
	rc = hn_ctl_config_set(c, &cfg);
	EXPECT_EQ(-ERANGE, rc);
	EXPECT_STREQ("integer out of range (attribute nodes: 2..4096)",
		     hn_ctl_strerror(c, rc));
	/* a change without CAP_NET_ADMIN */
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		if (setgroups(0, NULL) || setgid(65534) || setuid(65534))
			_exit(2);
		memset(cfg.mask, 0, sizeof(cfg.mask));
		HN_CTL_MARK(&cfg, HYBRIDNET_ATTR_POLICY);
		cfg.policy = HYBRIDNET_POL_SES;
		rc = hn_ctl_config_set(c, &cfg);
		_exit(rc != -EPERM ||
		      strcmp("Operation not permitted: this needs CAP_NET_ADMIN: run it as root (sudo)",
			     hn_ctl_strerror(c, rc)));
	}
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	EXPECT_EQ(0, st);
	hn_ctl_close(c);
}

/* Last: the module goes, and comes back. */
TEST(unloaded_says)
{
	struct hn_ctl_config cfg;
	struct hn_handle *h;
	struct hn_ctl *c, *c2;
	int rc;

	ASSERT_EQ(0, hn_ctl_open(&c));
	ASSERT_EQ(0, hn_unload());
	rc = hn_ctl_config_get(c, &cfg);
	EXPECT_EQ(-ENOENT, rc);
	EXPECT_STREQ("the hybridnet module is gone (unloaded since the handle was opened): load it again (sudo modprobe hybridnet) and open a new handle",
		     hn_ctl_strerror(c, rc));
	hn_ctl_close(c);
	rc = hn_ctl_open(&c2);
	EXPECT_EQ(-ENOENT, rc);
	EXPECT_STREQ("no generic netlink family 'hybridnet': " NOT_LOADED,
		     hn_ctl_strerror(NULL, rc));
	rc = hn_open(&h, NULL, 0);
	EXPECT_EQ(-ENOENT, rc);
	EXPECT_STREQ("cannot open /dev/hybridnet: " NOT_LOADED,
		     hn_strerror(NULL, rc));
	ASSERT_EQ(0, hn_load("nodes=8 slots=4"));
}

TEST_HARNESS_MAIN
