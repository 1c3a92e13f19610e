// SPDX-License-Identifier: GPL-2.0
/*
 * nd_flood.c - nd_flood IFNAME NODE COUNT STALL_MS: a flood from a
 * network interface of hybridnet into a node held by a slow file.  Binds
 * a file of /dev/hybridnet to NODE, then a child sends COUNT frames of
 * 1514 bytes to NODE's MAC on IFNAME: UDP datagrams to 10.9.0.2, which a
 * permanent ARP entry gives NODE's MAC (IFNAME must have an address in
 * 10.9.0.0/24; UDP, as the debug kernel has no packet sockets).  When
 * the qdisc is full the sender is told (IP_RECVERR), waits and sends the
 * same datagram again.  Meanwhile the file reads
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
#include <netinet/in.h>
#include <sys/ioctl.h>
#include <net/if.h>
#include <net/if_arp.h>
#include <linux/if_ether.h>

#include "libhybridnet.h"

#define FRAME	1514
#define HDRS	(14 + 20 + 8)	/* Ethernet, IPv4, UDP */
#define DST	"10.9.0.2"

/* frames the child has sent, shared with the parent */
static volatile unsigned int *progress;

static int send_all(const char *ifname, unsigned int node, unsigned int count)
{
	struct sockaddr_in to = { .sin_family = AF_INET, .sin_port = htons(9) };
	struct sockaddr_in *pa;
	unsigned char d[FRAME - HDRS] = { 0 };
	unsigned int i, retries = 0;
	struct arpreq ar = { 0 };
	int fd, on = 1;

	fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (fd < 0) {
		perror("nd_flood: socket");
		return 1;
	}
	inet_pton(AF_INET, DST, &to.sin_addr);
	pa = (struct sockaddr_in *)&ar.arp_pa;
	*pa = to;
	ar.arp_ha.sa_family = ARPHRD_ETHER;
	memcpy(ar.arp_ha.sa_data, "\x02\x68\x6e\x00", 4);
	ar.arp_ha.sa_data[4] = node >> 8;
	ar.arp_ha.sa_data[5] = node & 0xff;
	ar.arp_flags = ATF_PERM | ATF_COM;
	snprintf(ar.arp_dev, sizeof(ar.arp_dev), "%s", ifname);
	if (ioctl(fd, SIOCSARP, &ar) ||
	    setsockopt(fd, SOL_IP, IP_RECVERR, &on, sizeof(on))) {
		perror("nd_flood: ARP entry or IP_RECVERR");
		return 1;
	}
	for (i = 0; i < count; i++) {
		memcpy(d, &i, sizeof(i));
		while (sendto(fd, d, sizeof(d), 0, (struct sockaddr *)&to,
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
		memcpy(&seq, buf + HDRS, sizeof(seq));
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
