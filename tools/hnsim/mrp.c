// SPDX-License-Identifier: GPL-2.0
/*
 * mrp.c - "hnsim mrp": the MRP source route of Woods-Corwin's fat tree
 * from one node to another (the engine's mrp.c), the message it makes
 * with some data, and the routers that read it, each swallowing words,
 * down to the data the destination gets.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include "hnsim.h"
#include "mrp.h"

#define MRP_DATA_MAX	256	/* --data's bytes */

static void usage(FILE *f)
{
	fprintf(f,
"NAME\n"
"    hnsim mrp - the MRP route words of Woods-Corwin's radix-4 fat tree\n"
"    from one node to another, and the routers that read them\n"
"\n"
"SYNOPSIS\n"
"    hnsim mrp --levels L [--up-x BITS] [--across X] [--pad P] [--prio P]\n"
"              [--data HEX] [--json] SRC DST\n"
"\n"
"DESCRIPTION\n"
"    A source routes its message itself: before the data go route words of\n"
"    8 bits, two bits for each router.  Climbing, the router at level l\n"
"    reads 1X to go up (X: one of the equivalent up-links) or 0X to go\n"
"    across into the down tree; down, it reads the destination's two bits\n"
"    of its level.  A word is swallowed once read: up after the levels 3\n"
"    mod 4, at the crossing, and down after the levels 0 mod 4 (with a\n"
"    priority, 2 and 0 mod 2).  It prints the message, then each router\n"
"    as it reads it, and the data the destination gets (docs/model.md,\n"
"    \"MRP route words\").\n"
"\n"
"OPTIONS\n"
"  --levels L     the tree's levels, 1..16: 4^L nodes; SRC and DST below\n"
"  --up-x BITS    the X of each up pair, level 0 first, as 0s and 1s (0s)\n"
"  --across X     the across pair's X, 0 or 1 (0)\n"
"  --pad P        the pair that fills the crossing's word, 0..3 (1)\n"
"  --prio P       each word's low 4 bits a priority P, 0..15: twice the\n"
"                 words (none)\n"
"  --data HEX     the data after the route, bytes in hex (none)\n"
"  --json         one JSON object\n"
"  SRC, DST       node numbers, decimal or 0x hex, different\n"
"\n"
"EXAMPLE\n"
"    hnsim mrp --levels 8 --up-x 000110 --data 12345678 0xc423 0xd7f3\n"
"    prints the message ab e1 d7 f3 12 34 56 78 [W:585].\n"
"\n"
"EXIT STATUS\n"
"    0, or 1 on a bad option or operand.\n");
}

static int bad(const char *opt, const char *val, const char *want)
{
	fprintf(stderr, "hnsim mrp: %s '%s': %s\n", opt, val, want);
	return 1;
}

/* a number of at most @max, decimal or 0x hex */
static int number(const char *s, unsigned long long max,
		  unsigned long long *v)
{
	char *end;

	errno = 0;
	*v = strtoull(s, &end, 0);
	return !*s || *end || errno || *s == '-' || *v > max;
}

static void hex(FILE *f, const u8 *b, u32 n, const char *sep)
{
	u32 i;

	for (i = 0; i < n; i++)
		fprintf(f, "%s%02x", i ? sep : "", b[i]);
}

static const char *const dir_name[] = { "up", "across", "down" };

static void print(const struct hn_mrp_opts *o, u32 src, u32 dst,
		  const u8 *msg, u32 words, u32 len,
		  const struct hn_mrp_hop *hop, int n, u32 at, int json)
{
	int i, up = 0;

	while (hop[up].dir == HN_MRP_UP)
		up++;
	if (json) {
		printf("{\"src\": %u, \"dst\": %u, \"levels\": %u, \"prio\": ",
		       src, dst, o->levels);
		if (o->prio)
			printf("%u", o->prio_val);
		else
			printf("null");
		printf(", \"words\": \"");
		hex(stdout, msg, words, "");
		printf("\", \"message\": \"");
		hex(stdout, msg, len, "");
		printf("\", \"up\": %d, \"routers\": %d, \"hops\": [", up, n);
		for (i = 0; i < n; i++)
			printf("%s{\"level\": %u, \"dir\": \"%s\", \"port\": %u, \"swallow\": %s}",
			       i ? ", " : "", hop[i].level, dir_name[hop[i].dir],
			       hop[i].port, hop[i].swallow ? "true" : "false");
		printf("], \"payload\": \"");
		hex(stdout, msg + at, len - at, "");
		printf("\"}\n");
		return;
	}
	printf("route       %#x -> %#x on %u level%s: %d up, across at level %d, %d down: %d routers\n",
	       src, dst, o->levels, o->levels > 1 ? "s" : "", up, up,
	       n - up - 1, n);
	printf("message     ");
	hex(stdout, msg, len, " ");
	printf(" (%u route words%s, %u of data)\n", words,
	       o->prio ? ", a priority in each" : "", len - words);
	printf("router      level  does    port  swallows\n");
	for (i = 0; i < n; i++)
		printf("            %-5u  %-6s  %-4u  %s\n", hop[i].level,
		       dir_name[hop[i].dir], hop[i].port,
		       hop[i].swallow ? "yes" : "no");
	printf("payload     ");
	hex(stdout, msg + at, len - at, " ");
	printf("%s\n", at == len ? "(none)" : "");
}

int mrp_main(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "levels", required_argument, NULL, 'L' },
		{ "up-x", required_argument, NULL, 'X' },
		{ "across", required_argument, NULL, 'A' },
		{ "pad", required_argument, NULL, 'P' },
		{ "prio", required_argument, NULL, 'Q' },
		{ "data", required_argument, NULL, 'D' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	u8 msg[2 * 2 * HN_MRP_MAX_LEVELS + MRP_DATA_MAX];
	struct hn_mrp_hop hop[2 * HN_MRP_MAX_LEVELS + 2];
	struct hn_mrp_opts o = { .pad = 1 };
	unsigned long long v, src, dst;
	u32 ndata = 0, i, at;
	int opt, json = 0, words, n;
	u8 data[MRP_DATA_MAX];

	optind = 1;
	while ((opt = getopt_long(argc, argv, "jh", lo, NULL)) != -1) {
		switch (opt) {
		case 'L':
			if (number(optarg, HN_MRP_MAX_LEVELS, &v) || !v)
				return bad("--levels", optarg, "want 1..16");
			o.levels = (u32)v;
			break;
		case 'X':
			if (strlen(optarg) > HN_MRP_MAX_LEVELS ||
			    optarg[strspn(optarg, "01")])
				return bad("--up-x", optarg,
					   "want 0s and 1s, level 0 first, at most 16");
			for (o.xbits = 0, i = 0; optarg[i]; i++)
				o.xbits |= (u32)(optarg[i] - '0') << i;
			break;
		case 'A':
			if (number(optarg, 1, &v))
				return bad("--across", optarg, "want 0 or 1");
			o.across = (u8)v;
			break;
		case 'P':
			if (number(optarg, 3, &v))
				return bad("--pad", optarg, "want 0..3");
			o.pad = (u8)v;
			break;
		case 'Q':
			if (number(optarg, 15, &v))
				return bad("--prio", optarg, "want 0..15");
			o.prio = true;
			o.prio_val = (u8)v;
			break;
		case 'D':
			n = (int)strlen(optarg);
			if (n % 2 || n / 2 > MRP_DATA_MAX ||
			    optarg[strspn(optarg, "0123456789abcdefABCDEF")])
				return bad("--data", optarg,
					   "want bytes in hex, at most 256");
			for (ndata = 0; ndata < (u32)n / 2; ndata++)
				sscanf(optarg + 2 * ndata, "%2hhx", &data[ndata]);
			break;
		case 'j':
			json = 1;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			fprintf(stderr, "Try 'hnsim mrp --help'.\n");
			return 1;
		}
	}
	if (!o.levels || argc - optind != 2) {
		fprintf(stderr, "hnsim mrp: %s ('hnsim mrp --help')\n",
			!o.levels ? "--levels is needed" :
			"want SRC and DST, two node numbers");
		return 1;
	}
	v = o.levels < 16 ? (1ULL << 2 * o.levels) - 1 : 0xffffffffULL;
	if (number(argv[optind], v, &src))
		return bad("SRC", argv[optind], "not a node of the tree");
	if (number(argv[optind + 1], v, &dst))
		return bad("DST", argv[optind + 1], "not a node of the tree");
	if (src == dst)
		return bad("DST", argv[optind + 1],
			   "the source itself: no router is crossed");
	words = hn_mrp_encode(&o, (u32)src, (u32)dst, msg, sizeof(msg));
	if (words < 0)
		return bad("SRC", argv[optind], strerror(-words));
	memcpy(msg + words, data, ndata);
	n = hn_mrp_walk(&o, msg, words + ndata, hop, ARRAY_SIZE(hop), &at);
	if (n < 0 || at != (u32)words) {	/* mrp.c disagrees with itself */
		fprintf(stderr, "hnsim mrp: the route does not read back\n");
		return 1;
	}
	print(&o, (u32)src, (u32)dst, msg, words, words + ndata, hop, n, at,
	      json);
	return 0;
}
