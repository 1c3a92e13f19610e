// SPDX-License-Identifier: GPL-2.0
/*
 * pingpong.c - the program of docs/tutorial.md.  Node 0 sends COUNT
 * messages of BYTES bytes to node 1, which sends each one back.  For
 * every message it prints how the fabric carried it (circuit or wormhole,
 * in which TDM slot) and its latency in virtual nanoseconds.  Exit status
 * 0 when every message came back intact, 1 otherwise.
 *
 *	pingpong [COUNT [BYTES]]	(default: 4 messages of 64 bytes)
 *
 * Build it against the build tree, or an installed libhybridnet:
 *	cc pingpong.c $(pkg-config --cflags --libs libhybridnet) -o pingpong
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libhybridnet.h>

/* One delivered message: who sent it, how it travelled, how long it took. */
static void show(const struct hybridnet_msg_hdr *hdr)
{
	printf("%u -> %u  %u bytes  %-8s  slot %u  latency %llu ns\n",
	       hdr->src, hdr->dst, hdr->len,
	       hdr->mode == HYBRIDNET_MODE_CIRCUIT ? "circuit" : "wormhole",
	       hdr->slot,
	       (unsigned long long)(hdr->t_deliver - hdr->t_inject));
}

/* @from sends @len bytes of @buf to node @to, where @into receives them. */
static int hop(struct hn_handle *from, uint32_t to, struct hn_handle *into,
	       const char *buf, char *got, size_t len)
{
	struct hybridnet_msg_hdr hdr;
	ssize_t n;
	int rc;

	rc = hn_send(from, to, buf, len);
	if (rc) {
		fprintf(stderr, "pingpong: %s\n", hn_strerror(from, rc));
		return -1;
	}
	n = hn_recv(into, &hdr, got, len);
	if (n < 0) {
		fprintf(stderr, "pingpong: %s\n", hn_strerror(into, (int)n));
		return -1;
	}
	show(&hdr);
	if ((size_t)n != len || memcmp(buf, got, len)) {
		fprintf(stderr, "pingpong: the message came back changed\n");
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	long count = argc > 1 ? strtol(argv[1], NULL, 0) : 4;
	long len = argc > 2 ? strtol(argv[2], NULL, 0) : 64;
	struct hn_handle *node[2];
	char *ping, *pong;
	int i, rc;

	if (argc > 3 || count < 1 || len < 1 || len > 1 << 20) {
		fprintf(stderr, "usage: pingpong [COUNT [BYTES]]\n");
		return 2;
	}
	ping = malloc(len);
	pong = malloc(len);
	if (!ping || !pong)
		return 1;

	/* one handle per node: an open file of /dev/hybridnet, bound */
	for (i = 0; i < 2; i++) {
		rc = hn_open(&node[i], NULL, 0);
		if (rc) {
			/* why, and what to do: hn_strerror() */
			fprintf(stderr, "pingpong: %s\n", hn_strerror(NULL, rc));
			return 1;
		}
		rc = hn_bind(node[i], i);
		if (rc) {
			fprintf(stderr, "pingpong: %s\n",
				hn_strerror(node[i], rc));
			return 1;
		}
	}

	for (i = 0; i < count; i++) {
		memset(ping, 'a' + i % 26, len);
		if (hop(node[0], 1, node[1], ping, pong, len) ||
		    hop(node[1], 0, node[0], pong, ping, len))
			return 1;
	}

	hn_close(node[0]);
	hn_close(node[1]);
	free(ping);
	free(pong);
	return 0;
}
