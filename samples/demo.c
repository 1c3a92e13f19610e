// SPDX-License-Identifier: GPL-2.0
/*
 * demo.c - a short traffic scenario through /dev/hybridnet, for "make
 * demo".  Expects the module loaded with nodes=8 preload=shift: with K
 * slots, node u has circuits to u+1 .. u+K, and reaches the others by
 * wormhole.  "demo -f F" runs it on fabric F (as hnctl fabric lists
 * them), not the network namespace's first.
 *
 *  1. every node sends one 128-byte message to every other node: node
 *     0's deliveries are printed with their mode, slot and virtual times,
 *     then the latency of all 56 by mode;
 *  2. node 0 streams 400 x 1 KiB to node 1 (a circuit) and to node 6
 *     (wormhole) at once: latency and virtual throughput per stream,
 *     against the share of the TDM cycle each has;
 *  3. per-mode counts and latencies.
 * Each part says what its figures mean; the fabric's configuration comes
 * from sysfs (config/).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libhybridnet.h"

#define N	8
#define BULK	400

static const char *mode_name(unsigned int m)
{
	return m == HYBRIDNET_MODE_CIRCUIT ? "circuit" : "wormhole";
}

struct agg {
	uint64_t n, sum, min, max;
};

static void agg_add(struct agg *a, uint64_t v)
{
	if (!a->n || v < a->min)
		a->min = v;
	if (v > a->max)
		a->max = v;
	a->n++;
	a->sum += v;
}

static void agg_print(const char *what, const struct agg *a)
{
	if (!a->n) {
		printf("  %-22s none\n", what);
		return;
	}
	printf("  %-22s %5llu messages, latency min %llu avg %llu max %llu ns\n",
	       what, (unsigned long long)a->n, (unsigned long long)a->min,
	       (unsigned long long)(a->sum / a->n),
	       (unsigned long long)a->max);
}

/* a configuration field of @fabric (sysfs config/), 0 if unreadable */
static unsigned long cfg(uint32_t fabric, const char *name)
{
	char path[128];
	unsigned long v = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/class/hybridnet/fabric%u/config/%s",
		 fabric, name);
	f = fopen(path, "r");
	if (f) {
		if (fscanf(f, "%lu", &v) != 1)
			v = 0;
		fclose(f);
	}
	return v;
}

/* a bulk stream: its latencies, its span of virtual time, its bytes */
struct stream {
	struct agg lat;
	uint64_t first, last, bytes;
};

/* One message of stream @s received, @n bytes; counted by mode too. */
static void stream_add(struct stream *s, struct agg *by_mode,
		       const struct hybridnet_msg_hdr *hdr, ssize_t n)
{
	agg_add(&s->lat, hdr->t_deliver - hdr->t_inject);
	agg_add(&by_mode[hdr->mode], hdr->t_deliver - hdr->t_inject);
	if (hdr->t_inject < s->first)
		s->first = hdr->t_inject;
	if (hdr->t_deliver > s->last)
		s->last = hdr->t_deliver;
	s->bytes += n;
}

int main(int argc, char **argv)
{
	uint32_t fabric = HYBRIDNET_FABRIC_FIRST;
	struct hn_handle *h[N];
	struct hybridnet_msg_hdr hdr;
	struct agg mode[2] = { 0 }, first[2] = { { 0 } };
	struct stream bulk[2] = { { .first = ~0ull }, { .first = ~0ull } };
	static uint8_t buf[1024];
	struct hybridnet_info info;
	unsigned long slot_ns, mbps, cycle_ns;
	int u, v, i, rc;
	ssize_t n;

	if (argc == 3 && !strcmp(argv[1], "-f")) {
		fabric = (uint32_t)strtoul(argv[2], NULL, 0);
	} else if (argc != 1) {
		fprintf(stderr, "usage: demo [-f FABRIC]\n");
		return 2;
	}
	for (u = 0; u < N; u++) {
		rc = hn_open(&h[u], NULL, 0);
		if (rc) {
			fprintf(stderr, "demo: %s\n", hn_strerror(NULL, rc));
			return 1;
		}
		rc = hn_bind_fabric(h[u], fabric, u);
		if (rc) {
			fprintf(stderr, "demo: %s\n", hn_strerror(h[u], rc));
			return 1;
		}
	}
	hn_info(h[0], &info);
	printf("== hybridnet demo: %u nodes, %u predictive slots + 1 wormhole slot\n",
	       info.nodes, info.slots);
	printf("== 1. all-to-all, one 128-byte message per pair: what node 0 received\n");
	printf("   src -> dst  mode      slot   t_inject(ns)  t_deliver(ns)  latency(ns)\n");
	for (u = 0; u < N; u++)
		for (v = 0; v < N; v++)
			if (u != v) {
				snprintf((char *)buf, 128, "hello %d -> %d", u, v);
				rc = hn_send(h[u], v, buf, 128);
				if (rc) {
					fprintf(stderr, "demo: %s\n",
						hn_strerror(h[u], rc));
					return 1;
				}
			}
	for (v = 0; v < N; v++)
		for (i = 0; i < N - 1; i++) {
			n = hn_recv(h[v], &hdr, buf, sizeof(buf));
			if (n < 0) {
				fprintf(stderr, "demo: %s\n",
					hn_strerror(h[v], (int)n));
				return 1;
			}
			agg_add(&mode[hdr.mode], hdr.t_deliver - hdr.t_inject);
			agg_add(&first[hdr.mode], hdr.t_deliver - hdr.t_inject);
			if (v)
				continue;
			printf("   %3u -> %-3u %-9s %4u %14llu %14llu %12llu   \"%s\"\n",
			       hdr.src, hdr.dst, mode_name(hdr.mode), hdr.slot,
			       (unsigned long long)hdr.t_inject,
			       (unsigned long long)hdr.t_deliver,
			       (unsigned long long)(hdr.t_deliver - hdr.t_inject),
			       (char *)buf);
		}
	printf("   all %d messages:\n", N * (N - 1));
	agg_print("by circuit", &first[HYBRIDNET_MODE_CIRCUIT]);
	agg_print("by wormhole", &first[HYBRIDNET_MODE_WORMHOLE]);
	printf("   A pair with a circuit (u -> u+1 .. u+%u) sends in its circuit's slot,\n"
	       "   alone on its path: its latency is the wait for that slot and the transfer.\n"
	       "   The other pairs go by wormhole in slot %u, where worms are arbitrated:\n"
	       "   the worms bound for one node cross one after another, so the later ones\n"
	       "   wait for whole wormhole slots (%llu ns at most here).\n",
	       info.slots, info.slots,
	       (unsigned long long)first[HYBRIDNET_MODE_WORMHOLE].max);

	printf("== 2. node 0 streams %d x 1 KiB to node 1 (circuit) and node 6 (wormhole)\n",
	       BULK);
	memset(buf, 0xab, sizeof(buf));
	for (i = 0; i < BULK; i++) {
		for (v = 0; v < 2; v++) {
			rc = hn_send(h[0], v ? 6 : 1, buf, sizeof(buf));
			if (rc) {
				fprintf(stderr, "demo: %s\n",
					hn_strerror(h[0], rc));
				return 1;
			}
		}
		/* read as we go: the receive buffers are finite */
		for (v = 0; v < 2; v++) {
			struct hn_handle *r = h[v ? 6 : 1];

			hn_set_nonblock(r, 1);
			while ((n = hn_recv(r, &hdr, buf, sizeof(buf))) > 0) {
				stream_add(&bulk[v], mode, &hdr, n);
			}
			hn_set_nonblock(r, 0);
		}
	}
	for (v = 0; v < 2; v++) {
		struct hn_handle *r = h[v ? 6 : 1];

		while (bulk[v].lat.n < BULK) {
			n = hn_recv(r, &hdr, buf, sizeof(buf));
			if (n < 0) {
				fprintf(stderr, "demo: %s\n",
					hn_strerror(r, (int)n));
				return 1;
			}
			stream_add(&bulk[v], mode, &hdr, n);
		}
	}
	for (v = 0; v < 2; v++) {
		agg_print(v ? "0 -> 6 (wormhole)" : "0 -> 1 (circuit)",
			  &bulk[v].lat);
		printf("  %-22s %.2f Gb/s of virtual time\n", "",
		       bulk[v].bytes * 8.0 / (bulk[v].last - bulk[v].first));
	}
	/* every slot holds circuits (shift 1..K), so a cycle runs them all */
	slot_ns = cfg(info.fabric, "slot_p_ns");
	mbps = cfg(info.fabric, "link_mbps");
	cycle_ns = slot_ns * (info.slots + 1);
	if (cycle_ns)
		printf("   Each stream has one slot of the %u in each TDM cycle of %lu ns: the\n"
		       "   circuit its slot 0, the worms slot %u. So each can carry at most\n"
		       "   1/%u of the %.1f Gb/s link, %.2f Gb/s, the worms less (a worm's first\n"
		       "   flit costs more than the others). Here the sending program,\n"
		       "   slowed down by the VM's emulation, sets the pace as much as the\n"
		       "   fabric does; the latencies are those of 1 KiB messages queued behind\n"
		       "   each other in node 0's NIC. hnsim gives the fabric's own figures.\n",
		       info.slots + 1, cycle_ns, info.slots, info.slots + 1,
		       mbps / 1000.0, mbps / 1000.0 / (info.slots + 1));
	printf("== 3. per switching mode, all messages\n");
	agg_print("circuit", &mode[HYBRIDNET_MODE_CIRCUIT]);
	agg_print("wormhole", &mode[HYBRIDNET_MODE_WORMHOLE]);
	for (u = 0; u < N; u++)
		hn_close(h[u]);
	return 0;
}
