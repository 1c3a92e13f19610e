// SPDX-License-Identifier: GPL-2.0
/*
 * hn_pcap.c - hn_pcap FILE [SNAPLEN]: read a capture of the capture
 * interface (tcpdump -i hnmon0 -w FILE, pcap of LINKTYPE_ETHERNET, either
 * byte order, micro- or nanosecond) and check every frame of EtherType
 * HYBRIDNET_CAPTURE_ETHERTYPE against the format of linux/hybridnet.h:
 *
 *  - magic, version, hdr_len; the frame whole (tcpdump kept it all) and
 *    exactly the Ethernet header, hdr_len and caplen bytes long;
 *  - the MACs name the header's nodes (02:68:6e:00:HH:LL);
 *  - caplen is min(len, SNAPLEN) (default 65535), 0 for the generator's;
 *  - t_deliver >= t_inject (the frames of one step of the engine may come
 *    in another order than their t_deliver's);
 *  - an interface's payload is its Ethernet frame, from the source
 *    node's MAC;
 *  - seq: one more than the last, or a gap (a message not kept).
 *
 * Prints "frames N", "other N" (frames of another EtherType), "gaps N"
 * (messages missing by seq), "bad N" (frames failing a check, each told
 * on stderr), then one line per sender kind, source, destination and
 * mode: "count FROM SRC DST MODE N", FROM file, netdev or generator, MODE
 * circuit or wormhole.  Exit 0 when it could read the file, whatever it
 * found; 2 when not.  For capture-vm.sh.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <linux/hybridnet.h>

#define MAX_NODES	HYBRIDNET_MAX_NODES
#define ETH_HLEN	14u

static const char *const from_name[] = { "file", "netdev", "generator" };
static const char *const mode_name[] = { "circuit", "wormhole" };

struct key {
	uint8_t from, mode;
	uint32_t src, dst;
	uint64_t n;
};

static struct key *keys;
static size_t nkeys, capkeys;

static int count(uint8_t from, uint32_t src, uint32_t dst, uint8_t mode)
{
	size_t i;

	for (i = 0; i < nkeys; i++)
		if (keys[i].from == from && keys[i].src == src &&
		    keys[i].dst == dst && keys[i].mode == mode) {
			keys[i].n++;
			return 0;
		}
	if (nkeys == capkeys) {
		struct key *k;

		capkeys = capkeys ? 2 * capkeys : 256;
		k = realloc(keys, capkeys * sizeof(*k));
		if (!k)
			return -ENOMEM;
		keys = k;
	}
	keys[nkeys++] = (struct key){ from, mode, src, dst, 1 };
	return 0;
}

static int cmp_key(const void *a, const void *b)
{
	const struct key *x = a, *y = b;

	if (x->from != y->from)
		return x->from - y->from;
	if (x->src != y->src)
		return x->src < y->src ? -1 : 1;
	if (x->dst != y->dst)
		return x->dst < y->dst ? -1 : 1;
	return x->mode - y->mode;
}

static int swapped;	/* the file's byte order is not ours */

static uint32_t u32(uint32_t v)
{
	return swapped ? __builtin_bswap32(v) : v;
}

static uint64_t be64(const uint8_t *p)
{
	uint64_t v = 0;
	int i;

	for (i = 0; i < 8; i++)
		v = v << 8 | p[i];
	return v;
}

static int node_mac(const uint8_t *mac, uint32_t node)
{
	const uint8_t want[6] = { 0x02, 0x68, 0x6e, 0, node >> 8, node & 0xff };

	return !memcmp(mac, want, sizeof(want));
}

static unsigned long long frame_no;

static int bad(const char *why)
{
	fprintf(stderr, "hn_pcap: frame %llu: %s\n", frame_no, why);
	return 1;
}

static uint32_t snaplen = HYBRIDNET_CAPTURE_SNAPLEN_MAX;
static uint32_t last_seq;
static int have_seq;
static unsigned long long gaps;

/* Check one hybridnet frame @f of @n bytes (the Ethernet header first). */
static int check(const uint8_t *f, uint32_t n)
{
	struct hybridnet_capture_hdr h;
	uint32_t src, dst, len, caplen, seq;
	uint64_t t_inj, t_del;
	const uint8_t *pay;

	if (n < ETH_HLEN + sizeof(h))
		return bad("shorter than the Ethernet header and the header");
	memcpy(&h, f + ETH_HLEN, sizeof(h));
	if (ntohs(h.magic) != HYBRIDNET_CAPTURE_MAGIC)
		return bad("bad magic");
	if (h.version != HYBRIDNET_CAPTURE_VERSION)
		return bad("unknown version");
	if (h.hdr_len < sizeof(h) || n < ETH_HLEN + h.hdr_len)
		return bad("bad hdr_len");
	src = ntohl(h.src);
	dst = ntohl(h.dst);
	len = ntohl(h.len);
	caplen = ntohl(h.caplen);
	seq = ntohl(h.seq);
	t_inj = be64((const uint8_t *)&h.t_inject);
	t_del = be64((const uint8_t *)&h.t_deliver);
	pay = f + ETH_HLEN + h.hdr_len;
	if (h.from > HYBRIDNET_CAPTURE_FROM_GENERATOR || h.mode > 1 ||
	    h.tag > 1 || h.flags || h.fabric)
		return bad("a field out of range");
	if (src >= MAX_NODES || dst >= MAX_NODES || src == dst)
		return bad("bad nodes");
	if (!node_mac(f, dst) || !node_mac(f + 6, src))
		return bad("the MACs do not name the nodes");
	if (n != ETH_HLEN + h.hdr_len + caplen)
		return bad("the frame's length is not the header's and caplen");
	if (caplen != (h.from == HYBRIDNET_CAPTURE_FROM_GENERATOR ? 0 :
		       len < snaplen ? len : snaplen))
		return bad("caplen is not min(len, snaplen)");
	if (t_del < t_inj)
		return bad("delivered before it was injected");
	if (h.from == HYBRIDNET_CAPTURE_FROM_NETDEV &&
	    (caplen < ETH_HLEN || !node_mac(pay + 6, src) ||
	     (!(pay[0] & 1) && !node_mac(pay, dst))))
		return bad("an interface's payload is not its Ethernet frame");
	if (have_seq && seq != last_seq + 1) {
		if (seq - last_seq > 1U << 31)
			return bad("seq went backwards");
		gaps += seq - last_seq - 1;
	}
	have_seq = 1;
	last_seq = seq;
	if (count(h.from, src, dst, h.mode))
		return bad("no memory");
	return 0;
}

int main(int argc, char **argv)
{
	unsigned long long other = 0, nbad = 0;
	uint32_t hdr[6], rec[4], incl, orig;
	static uint8_t buf[262144];
	size_t i;
	FILE *in;

	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: hn_pcap FILE [SNAPLEN]\n");
		return 2;
	}
	if (argc == 3)
		snaplen = strtoul(argv[2], NULL, 0);
	in = fopen(argv[1], "rb");
	if (!in || fread(hdr, sizeof(hdr), 1, in) != 1) {
		fprintf(stderr, "hn_pcap: %s: cannot read a pcap header\n",
			argv[1]);
		return 2;
	}
	/* microseconds or nanoseconds, either byte order */
	if (hdr[0] == 0xa1b2c3d4 || hdr[0] == 0xa1b23c4d) {
		swapped = 0;
	} else if (hdr[0] == 0xd4c3b2a1 || hdr[0] == 0x4d3cb2a1) {
		swapped = 1;
	} else {
		fprintf(stderr, "hn_pcap: %s: not a pcap file\n", argv[1]);
		return 2;
	}
	if (u32(hdr[5]) != 1) {
		fprintf(stderr, "hn_pcap: link type %u, not Ethernet (1)\n",
			u32(hdr[5]));
		return 2;
	}
	while (fread(rec, sizeof(rec), 1, in) == 1) {
		frame_no++;
		incl = u32(rec[2]);
		orig = u32(rec[3]);
		if (incl > sizeof(buf) || fread(buf, 1, incl, in) != incl) {
			fprintf(stderr, "hn_pcap: frame %llu: cut short\n",
				frame_no);
			return 2;
		}
		if (incl < ETH_HLEN ||
		    (buf[12] << 8 | buf[13]) != HYBRIDNET_CAPTURE_ETHERTYPE) {
			other++;
			continue;
		}
		if (incl != orig)
			nbad += bad("tcpdump did not keep the frame whole");
		else
			nbad += check(buf, incl);
	}
	fclose(in);
	printf("frames %llu\nother %llu\ngaps %llu\nbad %llu\n", frame_no,
	       other, gaps, nbad);
	qsort(keys, nkeys, sizeof(*keys), cmp_key);
	for (i = 0; i < nkeys; i++)
		printf("count %s %u %u %s %llu\n", from_name[keys[i].from],
		       keys[i].src, keys[i].dst, mode_name[keys[i].mode],
		       (unsigned long long)keys[i].n);
	return 0;
}
