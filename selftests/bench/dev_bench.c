// SPDX-License-Identifier: GPL-2.0
/*
 * dev_bench.c - messages/s and bytes/s between two processes through
 * /dev/hybridnet (free clock, nodes 0 and 1, blocking I/O through
 * libhybridnet), against an AF_UNIX SOCK_SEQPACKET socket pair carrying
 * the same messages in the same VM, for 128 B and 4 KiB messages.
 *
 * make bench-vm runs it in the VM.
 * Usage: dev_bench [SECONDS [SIZE dev|unix]]
 * SECONDS per run (2); with SIZE and a kind, that alone, one run, its
 * figures only: to profile one side (perf record -a, docs/performance.md).
 * Each size runs three rounds, each a device run then a socket run; the
 * ratio is of the medians.  Output: one "# " line per round and a summary
 * line per size, "bench 128 B: ratio 0.85 (median of 3: ...)".
 */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/wait.h>

#include "libhybridnet.h"

#define ROUNDS	3		/* alternating runs; the median counts */

struct result {
	uint64_t msgs, bytes, ns;
};

enum kind { DEV, UNIX };

struct chan {
	enum kind kind;
	struct hn_handle *h;
	int fd;
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static int chan_send(struct chan *c, const void *buf, size_t len)
{
	ssize_t n;

	if (c->kind == DEV)
		return hn_send(c->h, 1, buf, len);
	n = write(c->fd, buf, len);
	return n == (ssize_t)len ? 0 : -errno;
}

static ssize_t chan_recv(struct chan *c, void *buf, size_t cap)
{
	ssize_t n;

	if (c->kind == DEV)
		return hn_recv(c->h, NULL, buf, cap);
	n = read(c->fd, buf, cap);
	return n < 0 ? -errno : n;
}

/* Receiver: count until the 1-byte stop message; report via @pipefd. */
static void receive(struct chan *c, size_t size, int pipefd)
{
	struct result r = { 0 };
	uint8_t *buf = malloc(size);
	uint64_t t0 = 0;
	ssize_t n;

	for (;;) {
		n = chan_recv(c, buf, size);
		if (n < 0) {
			fprintf(stderr, "recv: %s\n", strerror(-n));
			exit(1);
		}
		if (!t0)
			t0 = now_ns();
		if (n == 1)
			break;
		r.msgs++;
		r.bytes += n;
	}
	r.ns = now_ns() - t0;
	if (write(pipefd, &r, sizeof(r)) != sizeof(r))
		exit(1);
	exit(0);
}

static int run(enum kind kind, size_t size, int secs, struct result *r)
{
	struct chan tx = { .kind = kind }, rx = { .kind = kind };
	uint8_t *buf = calloc(1, size);
	int p[2], sv[2], st, rc = 0;
	uint64_t end;
	pid_t pid;

	if (pipe(p))
		return -errno;
	if (kind == DEV) {
		if (hn_open(&tx.h, NULL, 0) || hn_bind(tx.h, 0) ||
		    hn_open(&rx.h, NULL, 0) || hn_bind(rx.h, 1))
			return -ENODEV;
	} else {
		if (socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sv))
			return -errno;
		tx.fd = sv[0];
		rx.fd = sv[1];
	}
	pid = fork();
	if (pid < 0)
		return -errno;
	if (!pid) {
		close(p[0]);
		if (kind == DEV)
			hn_close(tx.h);
		else
			close(tx.fd);
		receive(&rx, size, p[1]);
	}
	close(p[1]);
	if (kind == DEV)
		hn_close(rx.h);
	else
		close(rx.fd);
	end = now_ns() + (uint64_t)secs * 1000000000ull;
	while (!rc) {
		int i;

		for (i = 0; i < 64 && !rc; i++)
			rc = chan_send(&tx, buf, size);
		if (now_ns() >= end)
			break;
	}
	if (!rc)
		rc = chan_send(&tx, buf, 1);
	if (read(p[0], r, sizeof(*r)) != sizeof(*r))
		rc = rc ? rc : -EIO;
	waitpid(pid, &st, 0);
	if (kind == DEV)
		hn_close(tx.h);
	else
		close(tx.fd);
	close(p[0]);
	free(buf);
	return rc;
}

/* Growth of a sysfs counter since the last call, per message. */
static double delta(const char *name, uint64_t msgs)
{
	static char names[8][32];
	static uint64_t last[8];
	char path[128], buf[32];
	uint64_t v = 0;
	FILE *f;
	int i;

	snprintf(path, sizeof(path), "/sys/class/hybridnet/fabric0/%s", name);
	f = fopen(path, "r");
	if (f) {
		if (fgets(buf, sizeof(buf), f))
			v = strtoull(buf, NULL, 0);
		fclose(f);
	}
	for (i = 0; i < 8 && names[i][0] && strcmp(names[i], name); i++)
		;
	if (i == 8)
		return 0;
	if (!names[i][0])
		snprintf(names[i], sizeof(names[i]), "%s", name);
	msgs = msgs ? msgs : 1;
	v -= last[i];
	last[i] += v;
	return (double)v / msgs;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	static const size_t sizes[] = { 128, 4096 };
	int secs = argc > 1 ? atoi(argv[1]) : 2, fails = 0, r;
	double dm[ROUNDS], um[ROUNDS], db[ROUNDS], ub[ROUNDS];
	struct result d, u;
	unsigned int i;

	if (argc == 4) {	/* one side alone */
		delta("clock/wakeups", 1);	/* from here on */
		delta("stats/tx_waits", 1);
		delta("clock/steps", 1);
		r = run(strcmp(argv[3], "unix") ? DEV : UNIX,
			strtoul(argv[2], NULL, 0), secs, &d);
		printf("%s %s B: %.0f msg/s, %.3f kthread wakeups, %.3f writer waits, %.2f slots a message\n",
		       argv[3], argv[2], d.msgs / (d.ns / 1e9),
		       delta("clock/wakeups", d.msgs),
		       delta("stats/tx_waits", d.msgs),
		       delta("clock/steps", d.msgs));
		return r ? 1 : 0;
	}
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		for (r = 0; r < ROUNDS; r++) {
			if (run(DEV, sizes[i], secs, &d) ||
			    run(UNIX, sizes[i], secs, &u)) {
				printf("not ok - bench %zu B: run failed\n",
				       sizes[i]);
				return 1;
			}
			dm[r] = d.msgs / (d.ns / 1e9);
			um[r] = u.msgs / (u.ns / 1e9);
			db[r] = d.bytes / (d.ns / 1e9) / 1e6;
			ub[r] = u.bytes / (u.ns / 1e9) / 1e6;
			printf("# %5zu B round %d: hybridnet %9.0f msg/s %7.1f MB/s, AF_UNIX %9.0f msg/s %7.1f MB/s\n",
			       sizes[i], r + 1, dm[r], db[r], um[r], ub[r]);
			printf("#   per message: %.3f kthread wakeups, %.3f writer waits, %.2f slots\n",
			       delta("clock/wakeups", d.msgs),
			       delta("stats/tx_waits", d.msgs),
			       delta("clock/steps", d.msgs));
		}
		qsort(dm, ROUNDS, sizeof(double), cmp_double);
		qsort(um, ROUNDS, sizeof(double), cmp_double);
		qsort(db, ROUNDS, sizeof(double), cmp_double);
		qsort(ub, ROUNDS, sizeof(double), cmp_double);
		printf("bench %zu B: ratio %.2f (median of %d: hybridnet %.0f msg/s %.1f MB/s, AF_UNIX SOCK_SEQPACKET %.0f msg/s %.1f MB/s)\n",
		       sizes[i], dm[ROUNDS / 2] / um[ROUNDS / 2], ROUNDS,
		       dm[ROUNDS / 2], db[ROUNDS / 2], um[ROUNDS / 2],
		       ub[ROUNDS / 2]);
	}
	return fails ? 1 : 0;
}
