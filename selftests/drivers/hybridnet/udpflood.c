// SPDX-License-Identifier: GPL-2.0
/*
 * udpflood.c - a UDP flood with exact counts, for netdev-traffic-vm.sh
 * (backpressure through an interface of a node):
 *
 *   udpflood send ADDR PORT COUNT SIZE   COUNT datagrams of SIZE bytes
 *                                        to ADDR (IPv4), back to back, on
 *                                        a blocking socket; prints
 *                                        "sent N" (sendto's successes)
 *   udpflood recv PORT IDLE_MS           counts datagrams until none came
 *                                        for IDLE_MS after the first;
 *                                        prints "received N" and "gap MS",
 *                                        the longest wait between two
 *
 * The receiver prints "ready" on stderr once bound.  A sendto that the
 * qdisc refused still succeeds (Linux counts it in Udp SndbufErrors):
 * the script accounts for it with the qdisc's drops.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static int usage(void)
{
	fprintf(stderr, "usage: udpflood send ADDR PORT COUNT SIZE | recv PORT IDLE_MS\n");
	return 2;
}

static int flood(const char *addr, int port, long count, int size)
{
	struct sockaddr_in to = { .sin_family = AF_INET };
	static char buf[65507];
	long i, sent = 0;
	int fd;

	if (size < 1 || size > (int)sizeof(buf) || count < 0 ||
	    port < 1 || port > 65535 || inet_pton(AF_INET, addr, &to.sin_addr) != 1)
		return usage();
	to.sin_port = htons(port);
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (fd < 0) {
		perror("udpflood: socket");
		return 1;
	}
	for (i = 0; i < count; i++) {
		memcpy(buf, &i, sizeof(i));
		if (sendto(fd, buf, size, 0, (struct sockaddr *)&to,
			   sizeof(to)) == size)
			sent++;
		else
			perror("udpflood: sendto");
	}
	printf("sent %ld\n", sent);
	return sent == count ? 0 : 1;
}

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int sink(int port, int idle_ms)
{
	struct sockaddr_in me = { .sin_family = AF_INET };
	struct pollfd pfd = { .events = POLLIN };
	static char buf[65536];
	int fd, rcvbuf = 4 << 20;
	long got = 0, last = 0, gap = 0, t;

	if (port < 1 || port > 65535 || idle_ms < 1)
		return usage();
	me.sin_port = htons(port);
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (fd < 0 || bind(fd, (struct sockaddr *)&me, sizeof(me))) {
		perror("udpflood: socket or bind");
		return 1;
	}
	setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof(rcvbuf));
	fprintf(stderr, "ready\n");
	pfd.fd = fd;
	/* the first datagram may take long: wait for it 60 s at most */
	while (poll(&pfd, 1, got ? idle_ms : 60000) == 1) {
		if (recv(fd, buf, sizeof(buf), 0) < 0)
			continue;
		t = now_ms();
		if (got++ && t - last > gap)
			gap = t - last;
		last = t;
	}
	printf("received %ld\ngap %ld\n", got, gap);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 6 && !strcmp(argv[1], "send"))
		return flood(argv[2], atoi(argv[3]), atol(argv[4]),
			     atoi(argv[5]));
	if (argc == 4 && !strcmp(argv[1], "recv"))
		return sink(atoi(argv[2]), atoi(argv[3]));
	return usage();
}
