// SPDX-License-Identifier: GPL-2.0
/*
 * fabrics.c - module tests of fabrics as instances: made, described,
 * listed and deleted over netlink (FABRIC_NEW, _GET, _DEL), each with
 * its own sysfs directory and clock kthread; a crossbar and a fat tree
 * side by side, each with files bound to it and traffic of its own;
 * every command's FABRIC, refused for a fabric that is not there, and
 * the new commands' bad input (errno and extack text, nothing changed);
 * binding by HYBRIDNET_IOC_BIND2 and by the old HYBRIDNET_IOC_BIND; the
 * events of a fabric, to its namespace only; a deletion refused while a
 * node is held; and a fabric of another network namespace, invisible
 * from this one, deleted with its namespace while a file is bound to it
 * (every call of that file then fails with ENODEV, a sleeping reader
 * wakes to it); and the root of a user namespace of its own, which
 * makes none.  Expects the module loaded with nodes=16 slots=4
 * (fabric 0, a crossbar, the only fabric) and no file open.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "hn_test.h"
#include "nl_raw.h"

#define NO_FABRIC	7	/* a number no test makes */

/* Start @cmd on fabric @id. */
static void on(struct nlr *r, uint8_t cmd, uint16_t flags, uint32_t id)
{
	nlr_msg(r, cmd, flags);
	nlr_u32(r, HYBRIDNET_ATTR_FABRIC, id);
}

/* FABRIC_NEW of @topology (NULL: the profile's) and @slots: its number. */
static int64_t fab_new(struct nlr *r, const char *topology, uint32_t slots)
{
	const struct nlattr *tb[HYBRIDNET_ATTR_MAX + 1];
	int rc;

	nlr_msg(r, HYBRIDNET_CMD_FABRIC_NEW, 0);
	if (topology)
		nlr_str(r, HYBRIDNET_ATTR_TOPOLOGY, topology);
	nlr_u32(r, HYBRIDNET_ATTR_SLOTS, slots);
	rc = nlr_call(r, NULL, NULL);
	if (rc != 1)
		return rc < 0 ? rc : -EPROTO;
	nlr_parse((const struct nlmsghdr *)r->reply, tb, HYBRIDNET_ATTR_MAX);
	return tb[HYBRIDNET_ATTR_FABRIC] ?
	       (int64_t)nlr_get_u32(tb[HYBRIDNET_ATTR_FABRIC]) : -EPROTO;
}

static int fab_del(struct nlr *r, uint32_t id)
{
	on(r, HYBRIDNET_CMD_FABRIC_DEL, 0, id);
	return nlr_do(r);
}

/* One u32 of fabric @id's FABRIC_GET (@attr), or -errno. */
static int64_t fab_get(struct nlr *r, uint32_t id, int attr)
{
	const struct nlattr *tb[HYBRIDNET_ATTR_MAX + 1];
	int rc;

	on(r, HYBRIDNET_CMD_FABRIC_GET, 0, id);
	rc = nlr_call(r, NULL, NULL);
	if (rc != 1)
		return rc < 0 ? rc : -EPROTO;
	nlr_parse((const struct nlmsghdr *)r->reply, tb, HYBRIDNET_ATTR_MAX);
	return tb[attr] ? (int64_t)nlr_get_u32(tb[attr]) : -ENOENT;
}

struct fab_list {
	int n;
	uint32_t id[HYBRIDNET_MAX_FABRICS];
};

static void list_cb(void *ctx, const struct nlmsghdr *h)
{
	const struct nlattr *tb[HYBRIDNET_ATTR_MAX + 1];
	struct fab_list *l = ctx;

	nlr_parse(h, tb, HYBRIDNET_ATTR_MAX);
	if (tb[HYBRIDNET_ATTR_FABRIC] && l->n < HYBRIDNET_MAX_FABRICS)
		l->id[l->n++] = nlr_get_u32(tb[HYBRIDNET_ATTR_FABRIC]);
}

/* The FABRIC_GET dump: the namespace's fabrics, their number. */
static int fab_list(struct nlr *r, struct fab_list *l)
{
	int rc;

	memset(l, 0, sizeof(*l));
	nlr_msg(r, HYBRIDNET_CMD_FABRIC_GET, NLM_F_DUMP);
	rc = nlr_call(r, list_cb, l);
	return rc < 0 ? rc : l->n;
}

/* sysfs file @rel of fabric @id, as text, into @buf (64 bytes); "" */
static const char *fsys_str(uint32_t id, const char *rel, char *buf)
{
	char path[128];

	snprintf(path, sizeof(path), "/sys/class/hybridnet/fabric%u/%s", id,
		 rel);
	if (hn_read_file(path, buf, 64))
		buf[0] = '\0';
	return buf;
}

/* sysfs file @rel of fabric @id, as a number; ~0 if unreadable */
static uint64_t fsys(uint32_t id, const char *rel)
{
	char buf[64];

	return *fsys_str(id, rel, buf) ? strtoull(buf, NULL, 0) : ~0ull;
}

static int fabric_dir(uint32_t id)
{
	char path[64];

	snprintf(path, sizeof(path), "/sys/class/hybridnet/fabric%u", id);
	return access(path, F_OK) == 0;
}

/* A kthread called @comm runs. */
static int kthread_runs(const char *comm)
{
	char path[300], buf[64];
	struct dirent *d;
	int found = 0;
	DIR *dir = opendir("/proc");

	while (dir && !found && (d = readdir(dir))) {
		if (d->d_name[0] < '1' || d->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%.255s/comm", d->d_name);
		found = !hn_read_file(path, buf, sizeof(buf)) &&
			!strcmp(buf, comm);
	}
	if (dir)
		closedir(dir);
	return found;
}

/* A file of /dev/hybridnet bound to @node of @fabric (BIND2), or -errno. */
static int bind2(uint32_t fabric, uint32_t node)
{
	struct hybridnet_bind b = { .fabric = fabric, .node = node };
	int fd = open(HN_DEV_PATH, O_RDWR | O_CLOEXEC), rc;

	if (fd < 0)
		return -errno;
	rc = ioctl(fd, HYBRIDNET_IOC_BIND2, &b);
	if (!rc)
		return fd;
	rc = -errno;
	close(fd);
	return rc;
}

static int send_msg(int fd, uint32_t dst, const char *text)
{
	struct {
		struct hybridnet_msg_hdr h;
		char data[64];
	} m = { .h = { .dst = dst, .len = (uint32_t)strlen(text) } };

	memcpy(m.data, text, m.h.len);
	return write(fd, &m, HN_HDR + m.h.len) < 0 ? -errno : 0;
}

/* Receive one message into @text (64 bytes); its header in *@h. */
static int recv_msg(int fd, struct hybridnet_msg_hdr *h, char *text)
{
	struct {
		struct hybridnet_msg_hdr h;
		char data[64];
	} m;
	ssize_t n = read(fd, &m, sizeof(m));

	if (n < 0)
		return -errno;
	*h = m.h;
	snprintf(text, 64, "%.*s", (int)m.h.len, m.data);
	return 0;
}

static int info(int fd, struct hybridnet_info *i)
{
	return ioctl(fd, HYBRIDNET_IOC_INFO, i) ? -errno : 0;
}

FIXTURE(fab) {
	struct nlr r;
};

FIXTURE_SETUP(fab)
{
	struct fab_list l;

	ASSERT_EQ(0, nlr_open(&self->r));
	ASSERT_EQ(1, fab_list(&self->r, &l));
	ASSERT_EQ(0, l.id[0]);
}

/* whatever a test made goes, so that the next starts from fabric 0 */
FIXTURE_TEARDOWN(fab)
{
	struct fab_list l;
	int i;

	fab_list(&self->r, &l);
	for (i = 0; i < l.n; i++)
		if (l.id[i])
			fab_del(&self->r, l.id[i]);
	nlr_close(&self->r);
}

/*
 * FABRIC_NEW makes fabric 1 with what it is asked and says so; it has
 * its sysfs directory and its kthread, the dump lists it after fabric 0;
 * FABRIC_DEL deletes it, directory, kthread and all.
 */
TEST_F(fab, new_get_del)
{
	struct nlr *r = &self->r;
	struct fab_list l;
	char topo[32];

	ASSERT_EQ(1, fab_new(r, "fattree:2,4", 2));
	EXPECT_EQ(1, fab_get(r, 1, HYBRIDNET_ATTR_FABRIC));
	EXPECT_EQ(16, fab_get(r, 1, HYBRIDNET_ATTR_NODES));
	EXPECT_EQ(2, fab_get(r, 1, HYBRIDNET_ATTR_SLOTS));
	EXPECT_EQ(2, fab_get(r, 1, HYBRIDNET_ATTR_LEVELS));
	EXPECT_EQ(8, fab_get(r, 1, HYBRIDNET_ATTR_SWITCHES));
	/* fabric 0 as it was: the first, of the parameters */
	EXPECT_EQ(16, fab_get(r, 0, HYBRIDNET_ATTR_NODES));
	EXPECT_EQ(4, fab_get(r, 0, HYBRIDNET_ATTR_SLOTS));
	EXPECT_EQ(1, fab_get(r, 0, HYBRIDNET_ATTR_LEVELS));
	ASSERT_EQ(2, fab_list(r, &l));
	EXPECT_EQ(0, l.id[0]);
	EXPECT_EQ(1, l.id[1]);

	ASSERT_EQ(0, hn_read_file("/sys/class/hybridnet/fabric1/config/topology",
				  topo, sizeof(topo)));
	EXPECT_STREQ("fattree:2,4", topo);
	EXPECT_EQ(2, fsys(1, "config/slots"));
	EXPECT_EQ(2, fsys(1, "fabric/levels"));
	EXPECT_EQ(4, fsys(0, "config/slots"));
	EXPECT_TRUE(kthread_runs("hybridnet/0"));
	EXPECT_TRUE(kthread_runs("hybridnet/1"));

	/* the first fabric is the default: fabric 0 */
	nlr_msg(r, HYBRIDNET_CMD_FABRIC_GET, 0);
	ASSERT_EQ(1, nlr_call(r, NULL, NULL));

	ASSERT_EQ(0, fab_del(r, 1));
	EXPECT_FALSE(fabric_dir(1));
	EXPECT_FALSE(kthread_runs("hybridnet/1"));
	ASSERT_EQ(1, fab_list(r, &l));
	EXPECT_EQ(-ENODEV, fab_get(r, 1, HYBRIDNET_ATTR_NODES));
	EXPECT_STREQ("no fabric 1 in this network namespace", r->msg);
	EXPECT_EQ(-ENODEV, fab_del(r, 1));
	EXPECT_STREQ("no fabric 1 in this network namespace", r->msg);

	/* the number is free again; a profile's fabric by default */
	nlr_msg(r, HYBRIDNET_CMD_FABRIC_NEW, 0);
	ASSERT_EQ(1, nlr_call(r, NULL, NULL));
	EXPECT_EQ(1, fab_get(r, 1, HYBRIDNET_ATTR_FABRIC));
	EXPECT_EQ(64, fab_get(r, 1, HYBRIDNET_ATTR_NODES));
}

/* The new commands' bad input: errno, extack, and nothing made. */
TEST_F(fab, bad_input)
{
	struct nlr *r = &self->r;
	struct fab_list l;

	/* a new fabric's number is the kernel's to choose */
	nlr_msg(r, HYBRIDNET_CMD_FABRIC_NEW, 0);
	nlr_u32(r, HYBRIDNET_ATTR_FABRIC, 3);
	EXPECT_EQ(-EINVAL, nlr_call(r, NULL, NULL));
	EXPECT_STREQ("Unsupported attribute", r->msg);

	nlr_msg(r, HYBRIDNET_CMD_FABRIC_NEW, 0);
	nlr_u32(r, HYBRIDNET_ATTR_NODES, 5000);
	EXPECT_EQ(-ERANGE, nlr_call(r, NULL, NULL));
	EXPECT_STREQ("integer out of range", r->msg);

	nlr_msg(r, HYBRIDNET_CMD_FABRIC_NEW, 0);
	nlr_str(r, HYBRIDNET_ATTR_PROFILE, "ding9");
	EXPECT_EQ(-EINVAL, nlr_call(r, NULL, NULL));
	EXPECT_STREQ("unknown profile (ding4 or ding5)", r->msg);

	nlr_msg(r, HYBRIDNET_CMD_FABRIC_NEW, 0);
	nlr_str(r, HYBRIDNET_ATTR_TOPOLOGY, "ring");
	EXPECT_EQ(-EINVAL, nlr_call(r, NULL, NULL));
	EXPECT_EQ(0, strncmp(r->msg, "configuration refused: ", 23));

	nlr_msg(r, HYBRIDNET_CMD_FABRIC_NEW, 0);
	nlr_u32(r, HYBRIDNET_ATTR_CLOCK, 2);
	EXPECT_EQ(-ERANGE, nlr_call(r, NULL, NULL));

	/* DEL names its fabric, in range, and one that is there */
	nlr_msg(r, HYBRIDNET_CMD_FABRIC_DEL, 0);
	EXPECT_EQ(-EINVAL, nlr_call(r, NULL, NULL));
	nlr_msg(r, HYBRIDNET_CMD_FABRIC_DEL, 0);
	nlr_u32(r, HYBRIDNET_ATTR_FABRIC, HYBRIDNET_MAX_FABRICS);
	EXPECT_EQ(-ERANGE, nlr_call(r, NULL, NULL));
	EXPECT_STREQ("integer out of range", r->msg);
	EXPECT_EQ(-ENODEV, fab_del(r, NO_FABRIC));
	EXPECT_STREQ("no fabric 7 in this network namespace", r->msg);
	/* a u16 is no fabric */
	nlr_msg(r, HYBRIDNET_CMD_FABRIC_DEL, 0);
	nlr_put(r, HYBRIDNET_ATTR_FABRIC, &(uint16_t){ 0 }, 2);
	EXPECT_EQ(-EINVAL, nlr_call(r, NULL, NULL));

	/* GET's dump of one fabric that is not there */
	on(r, HYBRIDNET_CMD_FABRIC_GET, NLM_F_DUMP, NO_FABRIC);
	EXPECT_EQ(-ENODEV, nlr_call(r, NULL, NULL));
	EXPECT_STREQ("no such fabric in this network namespace", r->msg);

	ASSERT_EQ(1, fab_list(r, &l));
	EXPECT_FALSE(fabric_dir(1));
}

/*
 * Every command takes FABRIC, and refuses one that is not in the
 * namespace: a do with the fabric's number in the extack, a dump with
 * the dump's literal.  SCHED_RUN, which needs no fabric, too.
 */
TEST_F(fab, every_command_on_a_missing_fabric)
{
	static const uint8_t dos[] = {
		HYBRIDNET_CMD_CONFIG_GET, HYBRIDNET_CMD_CONFIG_SET,
		HYBRIDNET_CMD_PRELOAD, HYBRIDNET_CMD_PREDICT,
		HYBRIDNET_CMD_RELEASE, HYBRIDNET_CMD_STATS_GET,
		HYBRIDNET_CMD_STATS_RESET, HYBRIDNET_CMD_SCHED_RUN,
		HYBRIDNET_CMD_TRAFFIC_START, HYBRIDNET_CMD_TRAFFIC_STOP,
		HYBRIDNET_CMD_TRAFFIC_GET, HYBRIDNET_CMD_FABRIC_GET,
		HYBRIDNET_CMD_NETDEV_DEL,
		HYBRIDNET_CMD_CAPTURE_ON, HYBRIDNET_CMD_CAPTURE_OFF,
		HYBRIDNET_CMD_CAPTURE_GET, HYBRIDNET_CMD_FABRIC_DEL,
		HYBRIDNET_CMD_SWITCH_SET,
	};
	static const uint8_t dumps[] = {
		HYBRIDNET_CMD_CIRCUIT_GET, HYBRIDNET_CMD_STATS_GET,
		HYBRIDNET_CMD_LINK_GET, HYBRIDNET_CMD_SWITCH_GET,
		HYBRIDNET_CMD_NETDEV_GET, HYBRIDNET_CMD_PAIR_GET,
	};
	struct nlr *r = &self->r;
	unsigned int i;

	for (i = 0; i < sizeof(dos); i++) {
		on(r, dos[i], 0, NO_FABRIC);
		EXPECT_EQ(-ENODEV, nlr_call(r, NULL, NULL))
			TH_LOG("command %u", dos[i]);
		EXPECT_STREQ("no fabric 7 in this network namespace", r->msg)
			TH_LOG("command %u", dos[i]);
	}
	for (i = 0; i < sizeof(dumps); i++) {
		on(r, dumps[i], NLM_F_DUMP, NO_FABRIC);
		EXPECT_EQ(-ENODEV, nlr_call(r, NULL, NULL))
			TH_LOG("dump %u", dumps[i]);
		EXPECT_STREQ("no such fabric in this network namespace", r->msg)
			TH_LOG("dump %u", dumps[i]);
	}
	/* and the fabric that is there, named */
	on(r, HYBRIDNET_CMD_CONFIG_GET, 0, 0);
	EXPECT_EQ(1, nlr_call(r, NULL, NULL));
	on(r, HYBRIDNET_CMD_CIRCUIT_GET, NLM_F_DUMP, 0);
	EXPECT_LE(0, nlr_call(r, NULL, NULL));
}

/* a preload of @n pairs into slot 0 of fabric @id */
static int preload_on(struct nlr *r, uint32_t id, const uint32_t (*p)[2],
		      int n)
{
	struct nlattr *sc;
	int i;

	on(r, HYBRIDNET_CMD_PRELOAD, 0, id);
	sc = nlr_nest(r, HYBRIDNET_ATTR_SLOT_CONFIG);
	nlr_u32(r, HYBRIDNET_ATTR_SLOT, 0);
	for (i = 0; i < n; i++)
		nlr_pair(r, p[i][0], p[i][1]);
	nlr_end(r, sc);
	return nlr_do(r);
}

static void count_cb(void *ctx, const struct nlmsghdr *h)
{
	(void)h;
	(*(int *)ctx)++;
}

/* The circuits of fabric @id. */
static int circuits_on(struct nlr *r, uint32_t id)
{
	int n = 0, rc;

	on(r, HYBRIDNET_CMD_CIRCUIT_GET, NLM_F_DUMP, id);
	rc = nlr_call(r, count_cb, &n);
	return rc < 0 ? rc : n;
}

/*
 * A crossbar (fabric 0) and a fat tree (fabric 1) side by side: circuits,
 * files and traffic of each, node numbers shared, nothing crossing over.
 */
TEST_F(fab, side_by_side)
{
	static const uint32_t x[2][2] = { { 0, 1 }, { 2, 3 } };
	static const uint32_t t[1][2] = { { 0, 1 } };
	struct nlr *r = &self->r;
	struct hybridnet_msg_hdr h;
	struct hybridnet_info in;
	int a0, b0, a1, b1, i;
	uint64_t rx0, rx1;
	char text[64];

	ASSERT_EQ(1, fab_new(r, "fattree:2,4", 2));
	ASSERT_EQ(0, preload_on(r, 0, x, 2));
	ASSERT_EQ(0, preload_on(r, 1, t, 1));
	EXPECT_EQ(2, circuits_on(r, 0));
	EXPECT_EQ(1, circuits_on(r, 1));
	rx0 = fsys(0, "stats/rx_msgs_circuit") + fsys(0, "stats/rx_msgs_wormhole");
	rx1 = fsys(1, "stats/rx_msgs_circuit") + fsys(1, "stats/rx_msgs_wormhole");

	/* nodes 0 and 1 of each: the old bind, the new */
	a0 = open(HN_DEV_PATH, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, a0);
	ASSERT_EQ(0, ioctl(a0, HYBRIDNET_IOC_BIND, &(uint32_t){ 0 }));
	b0 = bind2(HYBRIDNET_FABRIC_FIRST, 1);
	ASSERT_LE(0, b0);
	a1 = bind2(1, 0);
	ASSERT_LE(0, a1);
	b1 = bind2(1, 1);
	ASSERT_LE(0, b1);
	ASSERT_EQ(0, info(a0, &in));
	EXPECT_EQ(0, in.fabric);
	EXPECT_EQ(0, in.node);
	ASSERT_EQ(0, info(b1, &in));
	EXPECT_EQ(1, in.fabric);
	EXPECT_EQ(1, in.node);
	EXPECT_EQ(2, in.slots);
	EXPECT_EQ(1, fsys(1, "nodes/0/bound"));
	EXPECT_EQ(1, fsys(0, "nodes/0/bound"));
	EXPECT_EQ(0, fsys(1, "nodes/2/bound"));

	for (i = 0; i < 20; i++) {
		ASSERT_EQ(0, send_msg(a0, 1, "crossbar"));
		ASSERT_EQ(0, send_msg(a1, 1, "fat tree"));
	}
	for (i = 0; i < 20; i++) {
		ASSERT_EQ(0, recv_msg(b0, &h, text));
		EXPECT_STREQ("crossbar", text);
		EXPECT_EQ(0, h.src);
		ASSERT_EQ(0, recv_msg(b1, &h, text));
		EXPECT_STREQ("fat tree", text);
		EXPECT_EQ(HYBRIDNET_MODE_CIRCUIT, h.mode);
	}
	EXPECT_EQ(rx0 + 20, fsys(0, "stats/rx_msgs_circuit") +
			    fsys(0, "stats/rx_msgs_wormhole"));
	EXPECT_EQ(rx1 + 20, fsys(1, "stats/rx_msgs_circuit") +
			    fsys(1, "stats/rx_msgs_wormhole"));
	EXPECT_EQ(20, fsys(1, "nodes/1/rx_read"));

	/* a file binds one node of one fabric */
	EXPECT_EQ(-1, ioctl(a1, HYBRIDNET_IOC_BIND2,
			    &(struct hybridnet_bind){ .fabric = 0, .node = 0 }));
	EXPECT_EQ(EBUSY, errno);
	EXPECT_EQ(0, ioctl(a1, HYBRIDNET_IOC_BIND2,
			   &(struct hybridnet_bind){ .fabric = 1, .node = 0 }));
	close(a0);
	close(b0);
	close(a1);
	close(b1);
}

/* BIND2's refusals; INFO of an unbound file names the first fabric. */
TEST_F(fab, bind2)
{
	struct hybridnet_bind b = { .fabric = 0, .node = 2 };
	struct hybridnet_info in;
	int fd = open(HN_DEV_PATH, O_RDWR | O_CLOEXEC);

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, info(fd, &in));
	EXPECT_EQ(0, in.fabric);
	EXPECT_EQ(HYBRIDNET_UNBOUND, in.node);
	b.flags = 1;
	EXPECT_EQ(-1, ioctl(fd, HYBRIDNET_IOC_BIND2, &b));
	EXPECT_EQ(EINVAL, errno);
	b.flags = 0;
	b.__reserved[4] = 1;
	EXPECT_EQ(-1, ioctl(fd, HYBRIDNET_IOC_BIND2, &b));
	EXPECT_EQ(EINVAL, errno);
	b.__reserved[4] = 0;
	b.fabric = NO_FABRIC;
	EXPECT_EQ(-1, ioctl(fd, HYBRIDNET_IOC_BIND2, &b));
	EXPECT_EQ(ENODEV, errno);
	b.fabric = 0;
	b.node = 16;
	EXPECT_EQ(-1, ioctl(fd, HYBRIDNET_IOC_BIND2, &b));
	EXPECT_EQ(EINVAL, errno);
	b.node = 2;
	EXPECT_EQ(0, ioctl(fd, HYBRIDNET_IOC_BIND2, &b));
	EXPECT_EQ(0, ioctl(fd, HYBRIDNET_IOC_BIND, &(uint32_t){ 2 }));
	ASSERT_EQ(0, info(fd, &in));
	EXPECT_EQ(2, in.node);
	close(fd);
}

/*
 * A fabric whose node is held is not deleted; the holder is named.  The
 * interface that holds it is made by rtnetlink on the fabric it names
 * (IFLA_HYBRIDNET_FABRIC), or on the namespace's first without it; a
 * fabric the namespace does not have is refused.
 */
TEST_F(fab, del_refused_while_held)
{
	struct nlr *r = &self->r;
	static struct nlr rt;
	char want[160], buf[64];
	int fd;

	ASSERT_EQ(1, fab_new(r, NULL, 2));
	fd = bind2(1, 2);
	ASSERT_LE(0, fd);
	EXPECT_EQ(-EBUSY, fab_del(r, 1));
	snprintf(want, sizeof(want),
		 "cannot delete fabric 1: node 2 is bound to a file of pid %d (fabrics): close it first",
		 getpid());
	EXPECT_STREQ(want, r->msg);
	EXPECT_TRUE(fabric_dir(1));

	ASSERT_EQ(0, nlr_route_open(&rt));
	EXPECT_EQ(-ENODEV, nlr_link_add(&rt, "fab7n0", NO_FABRIC, 0, NULL));
	EXPECT_STREQ("no such fabric in this network namespace (hnctl fabric lists them)",
		     rt.msg);
	EXPECT_EQ(-ERANGE, nlr_link_add(&rt, "fab256", HYBRIDNET_MAX_FABRICS,
					0, NULL));
	ASSERT_EQ(0, nlr_link_add(&rt, "fab1n0", 1, 0, NULL));
	EXPECT_STREQ("the interface fab1n0", fsys_str(1, "nodes/0/holder", buf));
	EXPECT_STREQ("nothing", fsys_str(0, "nodes/0/holder", buf));
	/* no fabric named: the first, fabric 0 */
	ASSERT_EQ(0, nlr_link_add(&rt, "fab0n5", -1, 5, NULL));
	EXPECT_STREQ("the interface fab0n5", fsys_str(0, "nodes/5/holder", buf));
	EXPECT_STREQ("nothing", fsys_str(1, "nodes/5/holder", buf));
	on(r, HYBRIDNET_CMD_NETDEV_DEL, 0, 1);
	nlr_str(r, HYBRIDNET_ATTR_IFNAME, "fab0n5");
	EXPECT_EQ(-EXDEV, nlr_call(r, NULL, NULL));
	EXPECT_STREQ("fab0n5 is an interface of another fabric", r->msg);
	on(r, HYBRIDNET_CMD_NETDEV_DEL, 0, 0);
	nlr_str(r, HYBRIDNET_ATTR_IFNAME, "fab0n5");
	ASSERT_EQ(0, nlr_do(r));
	nlr_close(&rt);
	close(fd);
	EXPECT_EQ(-EBUSY, fab_del(r, 1));
	EXPECT_STREQ("cannot delete fabric 1: node 0 has the interface fab1n0: delete it first (hnctl netdev del fab1n0)",
		     r->msg);
	on(r, HYBRIDNET_CMD_NETDEV_DEL, 0, 1);
	nlr_str(r, HYBRIDNET_ATTR_IFNAME, "fab1n0");
	ASSERT_EQ(0, nlr_do(r));
	EXPECT_EQ(0, fab_del(r, 1));
	EXPECT_FALSE(fabric_dir(1));
}

/* The next event on @ev: its kind and fabric; -1 when none comes. */
static int next_event(struct nlr *ev, uint32_t *fabric)
{
	const struct nlattr *tb[HYBRIDNET_ATTR_MAX + 1];
	struct pollfd p = { .fd = ev->fd, .events = POLLIN };
	int n;

	if (poll(&p, 1, 2000) != 1)
		return -1;
	n = recv(ev->fd, ev->rx, sizeof(ev->rx), 0);
	if (n <= 0)
		return -1;
	nlr_parse((struct nlmsghdr *)ev->rx, tb, HYBRIDNET_ATTR_MAX);
	if (!tb[HYBRIDNET_ATTR_EVENT] || !tb[HYBRIDNET_ATTR_FABRIC])
		return -1;
	*fabric = nlr_get_u32(tb[HYBRIDNET_ATTR_FABRIC]);
	return (int)nlr_get_u32(tb[HYBRIDNET_ATTR_EVENT]);
}

/* Fabric made, changed, deleted: three events, each naming it. */
TEST_F(fab, events)
{
	struct nlr *r = &self->r;
	static struct nlr ev;
	uint32_t f = ~0u;

	ASSERT_EQ(0, nlr_open(&ev));
	ASSERT_EQ(0, setsockopt(ev.fd, SOL_NETLINK, NETLINK_ADD_MEMBERSHIP,
				&ev.mcgrp, sizeof(ev.mcgrp)));
	ASSERT_EQ(1, fab_new(r, "crossbar", 1));
	on(r, HYBRIDNET_CMD_CONFIG_SET, 0, 1);
	nlr_u32(r, HYBRIDNET_ATTR_SLOT_W_NS, 400);
	ASSERT_EQ(0, nlr_do(r));
	ASSERT_EQ(0, fab_del(r, 1));
	EXPECT_EQ(HYBRIDNET_EVENT_FABRIC_NEW, next_event(&ev, &f));
	EXPECT_EQ(1, f);
	EXPECT_EQ(HYBRIDNET_EVENT_CONFIG, next_event(&ev, &f));
	EXPECT_EQ(1, f);
	EXPECT_EQ(HYBRIDNET_EVENT_FABRIC_DEL, next_event(&ev, &f));
	EXPECT_EQ(1, f);
	/* fabric 0's say so too */
	nlr_msg(r, HYBRIDNET_CMD_STATS_RESET, 0);
	ASSERT_EQ(0, nlr_do(r));
	EXPECT_EQ(HYBRIDNET_EVENT_STATS_RESET, next_event(&ev, &f));
	EXPECT_EQ(0, f);
	nlr_close(&ev);
}

/* What the other namespace's child tells, and is told. */
struct ns_pipe {
	int up[2];	/* child -> parent */
	int down[2];	/* parent -> child */
};

static void ns_say(int fd, int64_t v)
{
	if (write(fd, &v, sizeof(v)) != sizeof(v))
		_exit(99);
}

static int64_t ns_hear(int fd)
{
	int64_t v = -1;

	if (read(fd, &v, sizeof(v)) != sizeof(v))
		return -1;
	return v;
}

/*
 * In a network namespace of its own: no fabric there, fabric 0
 * invisible; it makes one (an event for its own listener), binds the
 * parent's files @fa and @fb to its nodes 0 and 1 and queues a message
 * for node 1; reports the fabric's number, and ends when told.
 */
static int ns_child(struct ns_pipe *p, int fa, int fb)
{
	static struct nlr r, ev;
	struct hybridnet_bind b = { 0 };
	struct fab_list l;
	uint32_t f = ~0u;
	int64_t id;

	if (unshare(CLONE_NEWNET))
		return 10;
	if (nlr_open(&r) || nlr_open(&ev) ||
	    setsockopt(ev.fd, SOL_NETLINK, NETLINK_ADD_MEMBERSHIP, &ev.mcgrp,
		       sizeof(ev.mcgrp)))
		return 11;
	if (fab_list(&r, &l) != 0)
		return 12;
	nlr_msg(&r, HYBRIDNET_CMD_CONFIG_GET, 0);
	if (nlr_call(&r, NULL, NULL) != -ENODEV ||
	    strcmp(r.msg, "no fabric in this network namespace (hnctl fabric add makes one)"))
		return 13;
	if (fab_get(&r, 0, HYBRIDNET_ATTR_NODES) != -ENODEV)
		return 14;
	if (!ioctl(fa, HYBRIDNET_IOC_BIND, &(uint32_t){ 0 }) || errno != ENODEV)
		return 15;
	id = fab_new(&r, "crossbar", 2);
	if (id <= 0)
		return 16;
	if (next_event(&ev, &f) != HYBRIDNET_EVENT_FABRIC_NEW || f != id)
		return 17;
	b.fabric = (uint32_t)id;
	if (ioctl(fa, HYBRIDNET_IOC_BIND2, &b))
		return 18;
	if (ioctl(fb, HYBRIDNET_IOC_BIND, &(uint32_t){ 1 }))	/* its first */
		return 19;
	if (send_msg(fa, 1, "queued"))
		return 20;
	nlr_close(&r);
	nlr_close(&ev);
	ns_say(p->up[1], id);
	ns_hear(p->down[0]);		/* until the parent has looked */
	return 0;
}

struct reader {
	int fd;
	int err;
};

static void *read_one(void *arg)
{
	struct reader *rd = arg;
	char buf[HN_HDR + 64];

	rd->err = read(rd->fd, buf, sizeof(buf)) < 0 ? errno : 0;
	return NULL;
}

/*
 * A fabric of another namespace: not seen, named or bound from here, and
 * its events not heard; deleted when its namespace ends, with a file of
 * ours bound to it: every call of that file fails with ENODEV from then
 * on, a reader asleep in it wakes to ENODEV, and the fabric's memory
 * goes when the files close (kmemleak, make check-vm-debug).
 */
TEST_F_TIMEOUT(fab, other_namespace, 1800)
{
	struct nlr *r = &self->r;
	static struct nlr ev;
	struct reader rd = { .err = -1 };
	struct hybridnet_info in;
	struct pollfd pf;
	struct ns_pipe p;
	struct fab_list l;
	pthread_t th;
	uint32_t f;
	int64_t id;
	int fa, fb, st, i;
	pid_t pid;

	ASSERT_EQ(0, nlr_open(&ev));
	ASSERT_EQ(0, setsockopt(ev.fd, SOL_NETLINK, NETLINK_ADD_MEMBERSHIP,
				&ev.mcgrp, sizeof(ev.mcgrp)));
	fa = open(HN_DEV_PATH, O_RDWR | O_CLOEXEC);
	fb = open(HN_DEV_PATH, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, fa);
	ASSERT_LE(0, fb);
	ASSERT_EQ(0, pipe(p.up));
	ASSERT_EQ(0, pipe(p.down));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid)
		_exit(ns_child(&p, fa, fb));
	id = ns_hear(p.up[0]);
	ASSERT_LT(0, id) {
		waitpid(pid, &st, 0);
		TH_LOG("the child failed: %d", WEXITSTATUS(st));
	}

	/* from here, the other namespace's fabric is not there */
	EXPECT_TRUE(fabric_dir(id));	/* sysfs shows every fabric */
	ASSERT_EQ(1, fab_list(r, &l));
	EXPECT_EQ(0, l.id[0]);
	EXPECT_EQ(-ENODEV, fab_get(r, id, HYBRIDNET_ATTR_NODES));
	EXPECT_EQ(-ENODEV, fab_del(r, id));
	EXPECT_EQ(-ENODEV, bind2(id, 2));
	EXPECT_EQ(-1, next_event(&ev, &f));	/* its event stayed there */
	ASSERT_EQ(0, info(fa, &in));
	EXPECT_EQ(id, in.fabric);
	EXPECT_EQ(0, in.node);
	ASSERT_EQ(0, info(fb, &in));
	EXPECT_EQ(1, in.rx_queued);

	/* a reader of node 0 (nothing for it) sleeps */
	rd.fd = fa;
	ASSERT_EQ(0, pthread_create(&th, NULL, read_one, &rd));
	usleep(200000);
	EXPECT_EQ(-1, rd.err);

	/* the namespace ends with its last process */
	ns_say(p.down[1], 1);
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	EXPECT_EQ(0, WEXITSTATUS(st));
	for (i = 0; i < 6000 && fabric_dir(id); i++)
		usleep(10000);
	EXPECT_FALSE(fabric_dir(id));
	pthread_join(th, NULL);
	EXPECT_EQ(ENODEV, rd.err);

	EXPECT_EQ(-ENODEV, info(fa, &in));
	EXPECT_EQ(-ENODEV, send_msg(fa, 1, "late"));
	EXPECT_EQ(-ENODEV, recv_msg(fb, &(struct hybridnet_msg_hdr){ 0 },
				    (char[64]){ 0 }));
	pf = (struct pollfd){ .fd = fb, .events = POLLIN | POLLOUT };
	EXPECT_EQ(1, poll(&pf, 1, 0));
	EXPECT_EQ(POLLERR | POLLHUP, pf.revents);
	/* bound, if dead: it binds nothing else */
	EXPECT_EQ(-1, ioctl(fa, HYBRIDNET_IOC_BIND, &(uint32_t){ 3 }));
	EXPECT_EQ(EBUSY, errno);
	close(fa);
	close(fb);
	nlr_close(&ev);
	/* fabric 0 is as it was */
	EXPECT_EQ(16, fab_get(r, 0, HYBRIDNET_ATTR_NODES));
}

/*
 * The root of a user and network namespace of its own: no fabric there,
 * fabric 0 out of its sight, and FABRIC_NEW refused (EPERM: it needs
 * CAP_NET_ADMIN in the initial user namespace), so it holds no number
 * and locks nobody out.  0, or the step that failed.
 */
static int userns_child(void)
{
	static struct nlr r;
	struct fab_list l;

	if (setgid(65534) || setuid(65534))
		return 10;
	if (unshare(CLONE_NEWUSER | CLONE_NEWNET))
		return errno == EINVAL || errno == EPERM ? 99 : 11;
	if (nlr_open(&r))
		return 12;
	if (fab_list(&r, &l) != 0)
		return 13;
	if (fab_get(&r, 0, HYBRIDNET_ATTR_NODES) != -ENODEV)
		return 14;
	if (fab_new(&r, "crossbar", 1) != -EPERM)
		return 15;
	nlr_msg(&r, HYBRIDNET_CMD_CONFIG_GET, 0);
	if (nlr_call(&r, NULL, NULL) != -ENODEV)
		return 16;
	nlr_close(&r);
	return 0;
}

TEST_F(fab, unprivileged_makes_none)
{
	struct fab_list l;
	pid_t pid;
	int st;

	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid)
		_exit(userns_child());
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	ASSERT_TRUE(WIFEXITED(st));
	if (WEXITSTATUS(st) == 99)
		SKIP(return, "no user namespaces in this kernel");
	EXPECT_EQ(0, WEXITSTATUS(st));
	ASSERT_EQ(1, fab_list(&self->r, &l));
	ASSERT_EQ(1, fab_new(&self->r, NULL, 1));
}

TEST_HARNESS_MAIN
