/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hn_test.h - helpers for the hybridnet module tests (run inside the VM):
 * sysfs counters and snapshots, module load and unload by system call,
 * two nodes' files, the kernel log, message payloads that can be checked.
 */
#ifndef HN_TEST_H
#define HN_TEST_H

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#include "libhybridnet.h"

#define HN_SYSFS	"/sys/class/hybridnet/fabric0"
#define HN_HDR		((uint32_t)sizeof(struct hybridnet_msg_hdr))

/* an address no process has mapped, out of the compiler's sight */
static volatile uintptr_t hn_bad_addr = 16;
#define HN_BAD_PTR	((void *)hn_bad_addr)

/*
 * A test's time limit detects a hang, never slowness: under KASAN in TCG
 * on a loaded host a test takes 10 to 50 times its time on a quiet one,
 * so the harness's 30 s for TEST() and TEST_F() becomes 900 s here (this
 * header comes after kselftest_harness.h, and the harness's macros read
 * TEST_TIMEOUT_DEFAULT where a test is defined).  The VM's own time-out
 * (selftests/vm/run.sh -t) bounds the run as a whole.
 */
#undef TEST_TIMEOUT_DEFAULT
#define TEST_TIMEOUT_DEFAULT	900

/* A test with no fixture of its own but a time limit of its own. */
#define HN_TEST_TIMEOUT(name, seconds)					\
	FIXTURE(name) {							\
		int unused;						\
	};								\
	FIXTURE_SETUP(name) { }						\
	FIXTURE_TEARDOWN(name) { }					\
	TEST_F_TIMEOUT(name, name, seconds)

static inline const char *hn_ko(void)
{
	const char *p = getenv("HN_KO");

	return p ? p : "/lib/hn/hybridnet.ko";
}

/* Load the module with @params: 0 or -errno. */
static inline int hn_load(const char *params)
{
	int fd = open(hn_ko(), O_RDONLY | O_CLOEXEC), rc;

	if (fd < 0)
		return -errno;
	rc = syscall(SYS_finit_module, fd, params ? params : "", 0);
	rc = rc ? -errno : 0;
	close(fd);
	return rc;
}

/* Unload: 0 or -errno (-EWOULDBLOCK while a file is open). */
static inline int hn_unload(void)
{
	return syscall(SYS_delete_module, "hybridnet", O_NONBLOCK) ? -errno : 0;
}

static inline int hn_loaded(void)
{
	return access("/sys/module/hybridnet", F_OK) == 0;
}

static inline uint64_t hn_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static inline int hn_read_file(const char *path, char *buf, size_t cap)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, cap - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = 0;
	if (n && buf[n - 1] == '\n')
		buf[n - 1] = 0;
	return 0;
}

/* A sysfs value below /sys/class/hybridnet/fabric0; ~0 if unreadable. */
static inline uint64_t hn_sys(const char *fmt, ...)
{
	char path[256], rel[200], buf[64];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(rel, sizeof(rel), fmt, ap);
	va_end(ap);
	snprintf(path, sizeof(path), HN_SYSFS "/%s", rel);
	if (hn_read_file(path, buf, sizeof(buf)))
		return ~0ull;
	return strtoull(buf, NULL, 0);
}

/*
 * config/policy, which reads as words ("sla,preempt"), as flags; ~0 if
 * unreadable or not the policy's words
 */
static inline uint32_t hn_sys_policy(void)
{
	char buf[64];
	uint32_t p;

	if (hn_read_file(HN_SYSFS "/config/policy", buf, sizeof(buf)) ||
	    hn_ctl_policy_parse(buf, &p))
		return ~0u;
	return p;
}

static inline int hn_sys_write(const char *rel, const char *val)
{
	char path[256];
	int fd, rc = 0;

	snprintf(path, sizeof(path), HN_SYSFS "/%s", rel);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (write(fd, val, strlen(val)) < 0)
		rc = -errno;
	close(fd);
	return rc;
}

static inline uint64_t hn_tx_msgs(void)
{
	return hn_sys("stats/tx_msgs_circuit") +
	       hn_sys("stats/tx_msgs_wormhole");
}

static inline uint64_t hn_rx_msgs(void)
{
	return hn_sys("stats/rx_msgs_circuit") +
	       hn_sys("stats/rx_msgs_wormhole");
}

/* Wait until nothing is in flight in the fabric; 0 or -ETIMEDOUT. */
static inline int hn_quiesce(int timeout_ms)
{
	for (; timeout_ms > 0; timeout_ms -= 10) {
		if (hn_sys("stats/in_flight_msgs") == 0)
			return 0;
		usleep(10000);
	}
	return -ETIMEDOUT;
}

/* ---- two nodes' files ------------------------------------------------ */

static inline void hn_close_pair(struct hn_ctl *c, struct hn_handle *a,
				 struct hn_handle *b)
{
	hn_close(b);
	hn_close(a);
	hn_ctl_close(c);
}

/*
 * A control handle in *@c and two files of the device, *@a bound to node
 * @u and *@b to node @v (the cut-off tests' pair): 0, or the first
 * failure's -errno with nothing left open.
 */
static inline int hn_open_pair(struct hn_ctl **c, struct hn_handle **a,
			       uint32_t u, struct hn_handle **b, uint32_t v)
{
	int rc;

	*c = NULL;
	*a = NULL;
	*b = NULL;
	rc = hn_ctl_open(c);
	if (!rc)
		rc = hn_open(a, NULL, 0);
	if (!rc)
		rc = hn_open(b, NULL, 0);
	if (!rc)
		rc = hn_bind(*a, u);
	if (!rc)
		rc = hn_bind(*b, v);
	if (rc) {
		hn_close_pair(*c, *a, *b);
		*c = NULL;
		*a = NULL;
		*b = NULL;
	}
	return rc;
}

/* ---- snapshots of every counter, to prove what changed -------------- */

struct hn_snap {
	int n;
	char name[2048][48];
	uint64_t v[2048];
};

static inline void hn_snap_dir(struct hn_snap *s, const char *rel)
{
	char path[128], file[400], buf[64];
	struct dirent *d;
	DIR *dir;

	snprintf(path, sizeof(path), HN_SYSFS "/%s", rel);
	dir = opendir(path);
	if (!dir)
		return;
	while ((d = readdir(dir)) && s->n < 2048) {
		if (d->d_name[0] == '.' || !strcmp(d->d_name, "reset"))
			continue;
		snprintf(file, sizeof(file), "%s/%.255s", path, d->d_name);
		if (hn_read_file(file, buf, sizeof(buf)))
			continue;
		snprintf(s->name[s->n], sizeof(s->name[0]), "%.15s/%.31s",
			 rel, d->d_name);
		s->v[s->n++] = strtoull(buf, NULL, 0);
	}
	closedir(dir);
}

/* stats/, errors/, clock/ and nodes/0 .. nodes/@nodes-1 */
static inline void hn_snap_take(struct hn_snap *s, int nodes)
{
	char rel[32];
	int i;

	s->n = 0;
	hn_snap_dir(s, "stats");
	hn_snap_dir(s, "errors");
	hn_snap_dir(s, "clock");
	for (i = 0; i < nodes; i++) {
		snprintf(rel, sizeof(rel), "nodes/%d", i);
		hn_snap_dir(s, rel);
	}
}

/*
 * Compare two snapshots: returns the number of values that changed other
 * than @only (which must have grown by exactly @by), and prints them.
 */
static inline int hn_snap_diff(const struct hn_snap *a, const struct hn_snap *b,
			       const char *only, uint64_t by)
{
	int i, bad = 0, seen = 0;

	if (a->n != b->n) {
		printf("# snapshot sizes differ: %d %d\n", a->n, b->n);
		return 1;
	}
	for (i = 0; i < a->n; i++) {
		if (only && !strcmp(a->name[i], only)) {
			seen = 1;
			if (b->v[i] != a->v[i] + by) {
				printf("# %s: %llu -> %llu, expected +%llu\n",
				       a->name[i], (unsigned long long)a->v[i],
				       (unsigned long long)b->v[i],
				       (unsigned long long)by);
				bad++;
			}
			continue;
		}
		if (a->v[i] != b->v[i]) {
			printf("# %s changed: %llu -> %llu\n", a->name[i],
			       (unsigned long long)a->v[i],
			       (unsigned long long)b->v[i]);
			bad++;
		}
	}
	if (only && !seen) {
		printf("# %s: no such counter\n", only);
		bad++;
	}
	return bad;
}

/* ---- the kernel log ------------------------------------------------- */

/* Open /dev/kmsg positioned at its end: later records only. */
static inline int hn_kmsg_open(void)
{
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	if (fd >= 0)
		lseek(fd, 0, SEEK_END);
	return fd;
}

/* Does a record written since hn_kmsg_open() contain @needle? */
static inline int hn_kmsg_has(int fd, const char *needle)
{
	char rec[1024];
	ssize_t n;
	int found = 0;

	for (;;) {
		n = read(fd, rec, sizeof(rec) - 1);
		if (n < 0 && errno == EPIPE)	/* overwritten: go on */
			continue;
		if (n <= 0)
			break;
		rec[n] = 0;
		if (strstr(rec, needle))
			found = 1;
	}
	return found;
}

/* ---- checkable payloads -------------------------------------------- */

static inline uint64_t ht_rng(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* A payload is (src, dst, seq, len) then bytes derived from them. */
struct hn_stamp {
	uint32_t src, dst;
	uint64_t seq;
	uint32_t len, pad;
};

static inline void ht_fill(uint8_t *buf, uint32_t len, uint32_t src,
			   uint32_t dst, uint64_t seq)
{
	struct hn_stamp st = { src, dst, seq, len, 0 };
	uint64_t r = ((uint64_t)src << 40) ^ ((uint64_t)dst << 20) ^ seq;
	uint32_t i;

	for (i = 0; i < len; i++) {
		if (i % 8 == 0)
			r = ht_rng(&r);
		buf[i] = (uint8_t)(r >> (8 * (i % 8)));
	}
	memcpy(buf, &st, len < sizeof(st) ? len : sizeof(st));
}

/* 0 if @buf is the payload ht_fill() makes for these values. */
static inline int ht_check(const uint8_t *buf, uint32_t len, uint32_t src,
			   uint32_t dst, uint64_t seq)
{
	static __thread uint8_t *want;
	static __thread uint32_t cap;

	if (len > cap) {
		free(want);
		want = malloc(len);
		cap = len;
	}
	ht_fill(want, len, src, dst, seq);
	return memcmp(want, buf, len) ? -1 : 0;
}

/* Read the sequence number of a payload of at least 16 bytes. */
static inline uint64_t ht_seq_of(const uint8_t *buf)
{
	struct hn_stamp st;

	memcpy(&st, buf, sizeof(st));
	return st.seq;
}

/*
 * Read @n messages of @len bytes at @b, all from node 0 to node 1 and
 * numbered from @first: 0, or -1 for a wrong length, -2 a wrong payload.
 */
static inline int ht_drain(struct hn_handle *b, uint32_t len, uint64_t first,
			   uint64_t n)
{
	struct hybridnet_msg_hdr h;
	uint8_t *buf = malloc(len);
	uint64_t i;
	int rc = 0;

	for (i = first; i < first + n && !rc; i++) {
		if (!buf || hn_recv(b, &h, buf, len) != (ssize_t)len)
			rc = -1;
		else if (h.src != 0 || ht_check(buf, len, 0, 1, i))
			rc = -2;
	}
	free(buf);
	return rc;
}

/* A write of message @seq (@len bytes, node 0 to 1) in its own thread. */
struct ht_blocked {
	struct hn_handle *h;
	uint32_t len;
	uint64_t seq;
	int rc;
	volatile int done;
};

static inline void *ht_blocking_send(void *arg)
{
	struct ht_blocked *bs = arg;
	uint8_t *buf = malloc(bs->len);

	bs->rc = -ENOMEM;
	if (buf) {
		ht_fill(buf, bs->len, 0, 1, bs->seq);
		bs->rc = hn_send(bs->h, 1, buf, bs->len);
	}
	free(buf);
	bs->done = 1;
	return NULL;
}

#endif /* HN_TEST_H */
