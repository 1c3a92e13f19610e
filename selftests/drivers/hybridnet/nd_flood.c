// SPDX-License-Identifier: GPL-2.0
/*
 * nd_flood.c - nd_flood IFNAME NODE COUNT STALL_MS: a flood from a
 * network interface of hybridnet into a node held by a slow file.  Binds
 * a file of /dev/hybridnet to NODE, then a child sends COUNT frames of
 * 1514 bytes to NODE's MAC on IFNAME (a packet socket; when the qdisc is
 * full it waits and sends the same frame again), while the file reads
 * nothing until the sender has sent everything or made no progress for
 * STALL_MS (it is held back), then reads everything.  Exit 0 when every
 * frame sent arrived, once and in order; prints the counts.  For
 * netdev-vm.sh: with a small msg_mem_max_bytes, the interface must hold
 * frames back, never drop them.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>
#include <net/if.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>

#include "libhybridnet.h"

#define FRAME	1514
#define PROTO	0x88b5		/* IEEE local experimental */

/* frames the child has sent, shared with the parent */
static volatile unsigned int *progress;

static int send_all(const char *ifname, unsigned int node, unsigned int count)
{
	struct sockaddr_ll to = { 0 };
	unsigned char f[FRAME] = { 0x02, 0x68, 0x6e, 0x00 };
	unsigned int i, retries = 0;
	int fd;

	fd = socket(AF_PACKET, SOCK_RAW, htons(PROTO));
	if (fd < 0) {
		perror("nd_flood: socket");
		return 1;
	}
	to.sll_family = AF_PACKET;
	to.sll_ifindex = if_nametoindex(ifname);
	to.sll_halen = ETH_ALEN;
	f[4] = node >> 8;
	f[5] = node & 0xff;
	memcpy(to.sll_addr, f, ETH_ALEN);
	f[12] = PROTO >> 8;
	f[13] = PROTO & 0xff;
	for (i = 0; i < count; i++) {
		memcpy(f + 14, &i, sizeof(i));
		while (sendto(fd, f, sizeof(f), 0, (struct sockaddr *)&to,
			      sizeof(to)) < 0) {
			if (errno != ENOBUFS && errno != EAGAIN) {
				perror("nd_flood: sendto");
				return 1;
			}
			retries++;
			usleep(1000);
		}
		*progress = i + 1;
	}
	printf("sent %u, %u retries after ENOBUFS\n", count, retries);
	return 0;
}

int main(int argc, char **argv)
{
	unsigned int node, count, got = 0, seq, bad = 0, seen, waited;
	static unsigned char buf[65536];
	struct hn_handle *h;
	struct pollfd pfd;
	int status, idle;
	ssize_t len;
	pid_t pid;

	if (argc != 5) {
		fprintf(stderr, "usage: nd_flood IFNAME NODE COUNT STALL_MS\n");
		return 2;
	}
	node = atoi(argv[2]);
	count = atoi(argv[3]);
	if (hn_open(&h, NULL, HN_NONBLOCK) || hn_bind(h, node)) {
		fprintf(stderr, "nd_flood: cannot bind node %u\n", node);
		return 2;
	}
	progress = mmap(NULL, sizeof(*progress), PROT_READ | PROT_WRITE,
			MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (progress == MAP_FAILED)
		return 2;
	fflush(stdout);
	pid = fork();
	if (pid == 0)
		_exit(send_all(argv[1], node, count));
	/* read nothing while the sender gets on, 10 minutes at most */
	for (seen = 0, waited = 0; *progress < count && waited < 600000;
	     waited += atoi(argv[4])) {
		seen = *progress;
		usleep(atoi(argv[4]) * 1000);
		if (*progress == seen)
			break;
	}
	printf("the sender %s after %u frames\n",
	       *progress < count ? "was held back" : "was done", *progress);
	pfd.fd = hn_fd(h);
	pfd.events = POLLIN;
	/* 30 s with nothing to read ends it */
	for (idle = 0; got < count && idle < 300;) {
		len = hn_recv(h, NULL, buf, sizeof(buf));
		if (len == -EAGAIN) {
			idle += poll(&pfd, 1, 100) == 0;
			continue;
		}
		if (len < 0) {
			fprintf(stderr, "nd_flood: read: %s\n", strerror(-len));
			break;
		}
		idle = 0;
		memcpy(&seq, buf + 14, sizeof(seq));
		if (len != FRAME || seq != got)
			bad++;
		got++;
	}
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) ||
	    WEXITSTATUS(status)) {
		kill(pid, SIGKILL);
		fprintf(stderr, "nd_flood: the sender failed\n");
		return 1;
	}
	printf("received %u of %u, %u out of order or damaged\n", got, count,
	       bad);
	return got == count && !bad ? 0 : 1;
}
