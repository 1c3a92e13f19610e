// SPDX-License-Identifier: GPL-2.0
/*
 * tcpbins.c - TCP goodput over time in fine bins, with the times at
 * which a command changed the fabric, for make results-tcp
 * (docs/results/tcp-vm.sh):
 *
 *   tcpbins send ADDR PORT SECONDS       connect (IPv4) and write for
 *                                        SECONDS
 *   tcpbins sink PORT BIN_US SECONDS PERIOD_MS CMD_ON CMD_OFF
 *                                        accept one connection, count the
 *                                        bytes read per BIN_US bin of
 *                                        CLOCK_MONOTONIC for SECONDS; from
 *                                        the first byte, run the shell
 *                                        command CMD_ON, PERIOD_MS later
 *                                        CMD_OFF, and so on (PERIOD_MS 0:
 *                                        never)
 *
 * The sink prints "toggle on|off START_US END_US" for each command (its
 * start and end, from the first byte), then "bin START_US BYTES" per bin.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define MAX_TOGGLES	4096

static uint64_t now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000ULL + ts.tv_nsec / 1000;
}

static int usage(void)
{
	fprintf(stderr, "usage: tcpbins send ADDR PORT SECONDS | sink PORT BIN_US SECONDS PERIOD_MS CMD_ON CMD_OFF\n");
	return 2;
}

static int sender(const char *addr, int port, int secs)
{
	struct sockaddr_in to = { .sin_family = AF_INET };
	static char buf[65536];
	uint64_t end;
	int fd;

	if (port < 1 || port > 65535 || secs < 1 ||
	    inet_pton(AF_INET, addr, &to.sin_addr) != 1)
		return usage();
	to.sin_port = htons(port);
	fd = socket(AF_INET, SOCK_STREAM, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&to, sizeof(to))) {
		perror("tcpbins: connect");
		return 1;
	}
	end = now_us() + secs * 1000000ULL;
	while (now_us() < end)
		if (write(fd, buf, sizeof(buf)) < 0) {
			perror("tcpbins: write");
			return 1;
		}
	close(fd);
	return 0;
}

struct toggler {
	uint64_t t0, period_us, end_us;
	const char *cmd[2];
	uint64_t start[MAX_TOGGLES], stop[MAX_TOGGLES];
	int n;
};

static void *toggle(void *arg)
{
	struct toggler *t = arg;
	uint64_t next = t->t0;

	while (t->n < MAX_TOGGLES && next < t->end_us) {
		while (now_us() < next)
			usleep(100);
		t->start[t->n] = now_us() - t->t0;
		if (system(t->cmd[t->n & 1]))
			fprintf(stderr, "tcpbins: '%s' failed\n", t->cmd[t->n & 1]);
		t->stop[t->n] = now_us() - t->t0;
		t->n++;
		next += t->period_us;
	}
	return NULL;
}

static int sink(int port, int bin_us, int secs, int period_ms,
		const char *on, const char *off)
{
	struct sockaddr_in me = { .sin_family = AF_INET };
	static char buf[65536];
	static struct toggler t;
	uint64_t *bins, nbins, b, now;
	pthread_t th;
	int lfd, fd, one = 1;
	ssize_t r;

	if (port < 1 || port > 65535 || bin_us < 1 || secs < 1 ||
	    secs > 3600 || period_ms < 0)
		return usage();
	nbins = secs * 1000000ULL / bin_us;
	bins = calloc(nbins, sizeof(*bins));
	me.sin_port = htons(port);
	lfd = socket(AF_INET, SOCK_STREAM, 0);
	setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (!bins || lfd < 0 || bind(lfd, (struct sockaddr *)&me, sizeof(me)) ||
	    listen(lfd, 1)) {
		perror("tcpbins: listen");
		return 1;
	}
	fprintf(stderr, "ready\n");
	fd = accept(lfd, NULL, NULL);
	if (fd < 0) {
		perror("tcpbins: accept");
		return 1;
	}
	r = read(fd, buf, sizeof(buf));
	t.t0 = now_us();
	t.end_us = t.t0 + secs * 1000000ULL;
	t.period_us = period_ms * 1000ULL;
	t.cmd[0] = on;
	t.cmd[1] = off;
	if (period_ms && pthread_create(&th, NULL, toggle, &t)) {
		perror("tcpbins: pthread_create");
		return 1;
	}
	while (r > 0) {
		now = now_us();
		if (now >= t.end_us)
			break;
		b = (now - t.t0) / bin_us;
		bins[b] += r;
		r = read(fd, buf, sizeof(buf));
	}
	close(fd);
	if (period_ms)
		pthread_join(th, NULL);
	for (b = 0; b < (uint64_t)t.n; b++)
		printf("toggle %s %llu %llu\n", b & 1 ? "off" : "on",
		       (unsigned long long)t.start[b],
		       (unsigned long long)t.stop[b]);
	for (b = 0; b < nbins; b++)
		printf("bin %llu %llu\n", (unsigned long long)(b * bin_us),
		       (unsigned long long)bins[b]);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 5 && !strcmp(argv[1], "send"))
		return sender(argv[2], atoi(argv[3]), atoi(argv[4]));
	if (argc == 8 && !strcmp(argv[1], "sink"))
		return sink(atoi(argv[2]), atoi(argv[3]), atoi(argv[4]),
			    atoi(argv[5]), argv[6], argv[7]);
	return usage();
}
