// SPDX-License-Identifier: GPL-2.0
/*
 * nd_probe.c - what netdev-if-vm.sh does to an interface that busybox
 * cannot:
 *
 *   nd_probe tstamp ADDR PORT    one UDP datagram to ADDR (IPv4) asking
 *                                for its software transmit timestamp
 *                                (SO_TIMESTAMPING); prints "tx timestamp"
 *                                once the socket's error queue gives it,
 *                                which only a driver that calls
 *                                skb_tx_timestamp() makes happen
 *   nd_probe raw IFNAME LEN NODE [PRIO]
 *                                one Ethernet frame of LEN bytes (VLAN
 *                                tagged, so that it may be 4 bytes over
 *                                the MTU) to node NODE's MAC, through a
 *                                packet socket, at SO_PRIORITY PRIO (0)
 *   nd_probe recv NODE           binds a file of /dev/hybridnet to node
 *                                NODE, prints "bound", then the flags of
 *                                the first message it reads (in 5 s)
 *   nd_probe short SRC DST LEN   a message of LEN bytes, from a file of
 *                                /dev/hybridnet bound to node SRC, to
 *                                node DST
 *
 * Exit status 0 when done, 1 when refused or timed out, 2 on bad usage.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/errqueue.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <linux/net_tstamp.h>
#include <net/if.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <linux/hybridnet.h>

static int tstamp(const char *addr, int port)
{
	int fd, on = SOF_TIMESTAMPING_TX_SOFTWARE | SOF_TIMESTAMPING_SOFTWARE;
	struct sockaddr_in to = { .sin_family = AF_INET };
	char data[64], ctl[512];
	struct iovec iov = { data, sizeof(data) };
	struct msghdr m = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = ctl, .msg_controllen = sizeof(ctl),
	};
	struct pollfd p;
	struct cmsghdr *c;

	to.sin_port = htons(port);
	if (inet_pton(AF_INET, addr, &to.sin_addr) != 1)
		return 2;
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (fd < 0 || setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPING, &on,
				 sizeof(on))) {
		perror("nd_probe: socket");
		return 1;
	}
	memset(data, 'x', sizeof(data));
	if (sendto(fd, data, sizeof(data), 0, (struct sockaddr *)&to,
		   sizeof(to)) != sizeof(data)) {
		perror("nd_probe: sendto");
		return 1;
	}
	p.fd = fd;
	p.events = POLLERR;
	if (poll(&p, 1, 5000) != 1 || recvmsg(fd, &m, MSG_ERRQUEUE) < 0) {
		fprintf(stderr, "nd_probe: no transmit timestamp in 5 s\n");
		return 1;
	}
	for (c = CMSG_FIRSTHDR(&m); c; c = CMSG_NXTHDR(&m, c))
		if (c->cmsg_level == SOL_SOCKET &&
		    c->cmsg_type == SO_TIMESTAMPING) {
			printf("tx timestamp\n");
			return 0;
		}
	fprintf(stderr, "nd_probe: the error queue had no timestamp\n");
	return 1;
}

static int raw(const char *ifname, int len, unsigned int node, int prio)
{
	struct sockaddr_ll to = {
		.sll_family = AF_PACKET, .sll_halen = ETH_ALEN,
	};
	unsigned char *f;
	int fd;

	to.sll_ifindex = if_nametoindex(ifname);
	if (!to.sll_ifindex || len < ETH_HLEN + 4)
		return 2;
	f = calloc(1, len);
	if (!f)
		return 1;
	/* 02:68:6e:00:HH:LL, then ours, then an 802.1Q tag */
	f[0] = 0x02;
	f[1] = 0x68;
	f[2] = 0x6e;
	f[4] = node >> 8;
	f[5] = node & 0xff;
	f[6] = 0x02;
	f[12] = 0x81;
	f[13] = 0x00;
	memcpy(to.sll_addr, f, ETH_ALEN);
	fd = socket(AF_PACKET, SOCK_RAW, 0);
	if (fd < 0 ||
	    setsockopt(fd, SOL_SOCKET, SO_PRIORITY, &prio, sizeof(prio)) ||
	    sendto(fd, f, len, 0, (struct sockaddr *)&to, sizeof(to)) != len) {
		perror("nd_probe: packet socket");
		return 1;
	}
	printf("sent %d bytes\n", len);
	return 0;
}

static int shortmsg(unsigned int src, unsigned int dst, unsigned int len)
{
	struct {
		struct hybridnet_msg_hdr h;
		char data[64];
	} m = { .h = { .dst = dst, .len = len } };
	int fd = open("/dev/" HYBRIDNET_DEV_NAME, O_RDWR);

	if (len > sizeof(m.data))
		return 2;
	if (fd < 0 || ioctl(fd, HYBRIDNET_IOC_BIND, &src) ||
	    write(fd, &m, sizeof(m.h) + len) != (ssize_t)(sizeof(m.h) + len)) {
		perror("nd_probe: /dev/hybridnet");
		return 1;
	}
	printf("sent %u bytes from node %u to node %u\n", len, src, dst);
	return 0;
}

static int recv1(unsigned int node)
{
	struct {
		struct hybridnet_msg_hdr h;
		char data[65536];
	} *m = malloc(sizeof(*m));
	int fd = open("/dev/" HYBRIDNET_DEV_NAME, O_RDWR);
	struct pollfd p = { .fd = fd, .events = POLLIN };

	if (!m || fd < 0 || ioctl(fd, HYBRIDNET_IOC_BIND, &node)) {
		perror("nd_probe: /dev/hybridnet");
		return 1;
	}
	printf("bound\n");
	fflush(stdout);
	if (poll(&p, 1, 5000) != 1 || read(fd, m, sizeof(*m)) < 0) {
		fprintf(stderr, "nd_probe: no message in 5 s\n");
		return 1;
	}
	printf("flags %u\n", m->h.flags);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "tstamp"))
		return tstamp(argv[2], atoi(argv[3]));
	if ((argc == 5 || argc == 6) && !strcmp(argv[1], "raw"))
		return raw(argv[2], atoi(argv[3]), strtoul(argv[4], NULL, 0),
			   argc == 6 ? atoi(argv[5]) : 0);
	if (argc == 3 && !strcmp(argv[1], "recv"))
		return recv1(strtoul(argv[2], NULL, 0));
	if (argc == 5 && !strcmp(argv[1], "short"))
		return shortmsg(strtoul(argv[2], NULL, 0),
				strtoul(argv[3], NULL, 0),
				strtoul(argv[4], NULL, 0));
	fprintf(stderr, "usage: nd_probe tstamp ADDR PORT | raw IFNAME LEN NODE [PRIO] | recv NODE | short SRC DST LEN\n");
	return 2;
}
