// SPDX-License-Identifier: GPL-2.0
/*
 * circuit.c - the control API of docs/tutorial.md: a program that sets
 * up its own circuit.  It preloads the circuit 0 -> 1 into TDM slot 0
 * (what "hnctl preload slot 0 0:1" does), lists the circuits, sends a
 * message each way between nodes 0 and 1 (0 -> 1 on the circuit, 1 -> 0
 * by wormhole), then releases the circuit and sends 0 -> 1 again, now
 * by wormhole.  The preload and the release need CAP_NET_ADMIN (root).
 * Exit status 0 when every message went the way expected, 1 otherwise.
 *
 *	circuit
 *
 * Build it as pingpong.c:
 *	cc circuit.c $(pkg-config --cflags --libs libhybridnet) -o circuit
 */
#include <stdio.h>

#include <libhybridnet.h>

/* Put the circuit 0 -> 1 into slot 0; whatever slot 0 held goes. */
static int preload(struct hn_ctl *c)
{
	struct hn_ctl_pair pair = { .src = 0, .dst = 1 };
	struct hn_ctl_slot_cfg slot0 = {
		.slot = 0, .npairs = 1, .pairs = &pair,
	};
	int rc;

	rc = hn_ctl_preload(c, &slot0, 1, "tutorial");
	if (rc)
		fprintf(stderr, "circuit: preload: %s\n", hn_ctl_strerror(c, rc));
	return rc;
}

/* Print every circuit of the fabric, as hnctl circuits lists them. */
static int list(struct hn_ctl *c)
{
	struct hn_ctl_circuits all;
	size_t i;
	int rc;

	rc = hn_ctl_circuits(c, &all);
	if (rc) {
		fprintf(stderr, "circuit: circuits: %s\n", hn_ctl_strerror(c, rc));
		return rc;
	}
	for (i = 0; i < all.n; i++)
		printf("circuit %u -> %u in slot %u\n",
		       all.c[i].src, all.c[i].dst, all.c[i].slot);
	hn_ctl_circuits_free(&all);
	return 0;
}

/* @from sends 64 bytes to node @to, read from @into; 0 when @mode took them. */
static int send_one(struct hn_handle *from, uint32_t to,
		    struct hn_handle *into, uint8_t mode)
{
	struct hybridnet_msg_hdr hdr;
	char buf[64] = "hello";
	ssize_t n;
	int rc;

	rc = hn_send(from, to, buf, sizeof(buf));
	if (rc) {
		fprintf(stderr, "circuit: %s\n", hn_strerror(from, rc));
		return -1;
	}
	n = hn_recv(into, &hdr, buf, sizeof(buf));
	if (n < 0) {
		fprintf(stderr, "circuit: %s\n", hn_strerror(into, (int)n));
		return -1;
	}
	printf("%u -> %u  %-8s  slot %u  latency %llu ns\n", hdr.src, hdr.dst,
	       hdr.mode == HYBRIDNET_MODE_CIRCUIT ? "circuit" : "wormhole",
	       hdr.slot, (unsigned long long)(hdr.t_deliver - hdr.t_inject));
	return hdr.mode == mode ? 0 : -1;
}

int main(void)
{
	struct hn_handle *node[2];
	struct hn_ctl *c;
	int i, rc;

	/* the control plane: one handle on the generic netlink family */
	rc = hn_ctl_open(&c);
	if (rc) {
		fprintf(stderr, "circuit: %s\n", hn_ctl_strerror(NULL, rc));
		return 1;
	}
	if (preload(c) || list(c))
		return 1;

	/* the data plane: nodes 0 and 1, as in pingpong.c */
	for (i = 0; i < 2; i++) {
		rc = hn_open(&node[i], NULL, 0);
		if (rc) {
			fprintf(stderr, "circuit: %s\n", hn_strerror(NULL, rc));
			return 1;
		}
		rc = hn_bind(node[i], i);
		if (rc) {
			fprintf(stderr, "circuit: %s\n", hn_strerror(node[i], rc));
			return 1;
		}
	}
	if (send_one(node[0], 1, node[1], HYBRIDNET_MODE_CIRCUIT) ||
	    send_one(node[1], 0, node[0], HYBRIDNET_MODE_WORMHOLE))
		return 1;

	/* without its circuit, the pair goes by wormhole */
	rc = hn_ctl_release_pair(c, 0, 1);
	if (rc) {
		fprintf(stderr, "circuit: release: %s\n", hn_ctl_strerror(c, rc));
		return 1;
	}
	printf("released 0 -> 1\n");
	if (send_one(node[0], 1, node[1], HYBRIDNET_MODE_WORMHOLE))
		return 1;

	hn_close(node[0]);
	hn_close(node[1]);
	hn_ctl_close(c);
	return 0;
}
