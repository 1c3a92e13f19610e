// SPDX-License-Identifier: GPL-2.0
/*
 * idem.c - "hnsim idem": the three messages of Woods-Corwin's idempotent
 * protocol [W:393-397] as traffic on a fabric with switching drop.
 *
 * Each node makes messages (MSG) as a Bernoulli process (hn_tgen: the
 * pattern, length and load given).  A MSG's arrival makes its receiver
 * send an acknowledgement (ACK) back; the ACK's arrival makes the MSG's
 * sender send the acknowledgement of it (ACK2).  Each reply is a fraction
 * of the MSG's length [W:892] and has a priority of its own.  A node
 * offers its NIC the ACK2s waiting first, then the ACKs, then the MSGs
 * ("later stage messages are sent first", [W:759]).  Nothing is lost, so
 * nothing is sent twice but the drop's own retries.
 *
 * Of the transactions whose MSG was made in the window: per kind, the
 * messages, the attempts their headers took (struct hn_msg.tries) and so
 * the success per attempt p; and E = mean switches on a MSG's route x
 * (1/p_MSG + 1/p_ACK + 1/p_ACK2), Woods-Corwin's expected latency of a
 * transaction [W:872, W:880], in switches.
 */
#include <stdlib.h>
#include <string.h>
#include "hnsim.h"
#include "hn_traffic.h"
#include "parse.h"

enum { MSG, ACK, ACK2, KINDS };
static const char *const kind_name[KINDS] = { "msg", "ack", "ack2" };

struct imsg {
	struct hn_msg m;		/* first: the engine sees only this */
	struct imsg *next;
	u32 len0;			/* its MSG's length */
	u8 kind, measured;
};

struct idem {
	struct hn_engine *e;
	u32 nodes, reply_ppm;
	u8 prio[KINDS];
	struct imsg **head, **tail;	/* [node * KINDS + kind] */
	u64 msgs[KINDS], tries[KINDS];	/* measured, delivered */
	u64 made, done;			/* measured transactions */
	u64 switches;			/* over the measured MSGs */
};

static void push(struct idem *s, u32 u, struct imsg *im)
{
	u64 q = (u64)u * KINDS + im->kind;

	im->next = NULL;
	if (s->tail[q])
		s->tail[q]->next = im;
	else
		s->head[q] = im;
	s->tail[q] = im;
}

/* A message of @kind from @src to @dst, replying to one of @len0. */
static struct imsg *make(struct idem *s, u8 kind, u32 src, u32 dst,
			 u32 len0, u8 measured)
{
	struct imsg *im = calloc(1, sizeof(*im));

	if (!im)
		return NULL;
	im->m.src = src;
	im->m.dst = dst;
	im->m.len = kind == MSG ? len0 :
		    (u32)hn_max64(1, ((u64)len0 * s->reply_ppm + 500000) /
				     1000000);
	im->m.prio = s->prio[kind];
	im->len0 = len0;
	im->kind = kind;
	im->measured = measured;
	return im;
}

static void delivered(void *ctx, struct hn_msg *m)
{
	struct idem *s = ctx;
	struct imsg *im = (struct imsg *)m, *r = NULL;

	hn_consume(s->e, m->dst, m->len);
	if (im->measured) {
		s->msgs[im->kind]++;
		s->tries[im->kind] += m->tries;
		s->done += im->kind == ACK2;
	}
	if (im->kind != ACK2)
		r = make(s, im->kind + 1, m->dst, m->src, im->len0,
			 im->measured);
	if (r)
		push(s, r->m.src, r);
	free(im);
}

static void reclaimed(void *ctx, struct hn_msg *m)
{
	(void)ctx;
	free(m);
}

static const struct hn_ops idem_ops = {
	.deliver = delivered,
	.reclaim = reclaimed,
};

/* Each node offers its NIC what waits, ACK2s first, until it is full. */
static void offer_all(struct idem *s)
{
	struct imsg **h, *im;
	u32 u, k;

	for (u = 0; u < s->nodes; u++) {
		for (k = KINDS; k-- > 0;) {
			h = &s->head[(u64)u * KINDS + k];
			while ((im = *h)) {
				im->m.t_inject = hn_now(s->e);
				if (hn_inject(s->e, &im->m, NULL))
					break;
				*h = im->next;
				if (!*h)
					s->tail[(u64)u * KINDS + k] = NULL;
			}
			if (im)
				break;	/* full: nothing else now */
		}
	}
}

static void usage(FILE *f)
{
	fprintf(f,
"NAME\n"
"    hnsim idem - Woods-Corwin's three-message protocol as traffic, on\n"
"    switching drop: success per attempt of each kind\n"
"\n"
"SYNOPSIS\n"
"    hnsim idem [ENGINE OPTIONS] --load L [--size WORDS] [--pattern NAME]\n"
"               [--reply F] [--ack-prio P] [--warmup NS] [--measure NS]\n"
"               [--seed S] [--json]\n"
"\n"
"DESCRIPTION\n"
"    Each node sends messages (MSG) at random times; a MSG's arrival makes\n"
"    its receiver send an ACK back, and the ACK's arrival makes the MSG's\n"
"    sender send an ACK2, each reply --reply of the MSG's length.  A node\n"
"    sends its ACK2s first, then ACKs, then MSGs.  For the transactions whose\n"
"    MSG was made in the window, it prints per kind the messages, the\n"
"    attempts their headers took and the success per attempt p, and\n"
"    E = mean switches of a MSG's route x (1/p_msg + 1/p_ack + 1/p_ack2).\n"
"    The fabric must have switching drop (-s switching=drop).\n"
"\n"
"OPTIONS\n"
"  --load L       offered load of MSGs per node, fraction of the link (0..1]\n"
"  --size WORDS   MSG length, bytes (flits of one byte make them words) (10)\n"
"  --pattern NAME MSG destinations, as hnsim run's (localized)\n"
"  --reply F      a reply's length, fraction of its MSG's, at least 1 (0.2)\n"
"  --ack-prio P   the priority of ACKs and ACK2s, 0..15; MSGs have 0 (0)\n"
"  --warmup NS    not measured (20000)\n"
"  --measure NS   MSGs made in this window are measured (100000)\n"
"  --seed S       the traffic's seed (1)\n"
"  --json         one JSON object\n"
"  Engine options: -p, -t, -n, -k, -P, -s KEY=VALUE, -c FILE as 'hnsim run'.\n"
"\n"
"EXIT STATUS\n"
"    0 when every measured transaction completed, 1 on a bad option, 2 when\n"
"    some did not within 10 ms of virtual time after the window.\n");
}

/* --load and --reply: a fraction in ppm, (0, 1]; or -1 */
static long long frac(const char *opt, const char *s, int zero_ok)
{
	long long v = hn_parse_ppm(s);

	if (v < 0 || v > 1000000 || (!zero_ok && !v)) {
		fprintf(stderr, "hnsim idem: %s wants a fraction in (0, 1], not '%s'\n",
			opt, s);
		return -1;
	}
	return v;
}

static int num(const char *opt, const char *s, u64 max, u64 *v)
{
	char *end;

	*v = strtoull(s, &end, 0);
	if (!*s || *end || *v > max) {
		fprintf(stderr, "hnsim idem: %s wants a number up to %llu, not '%s'\n",
			opt, (unsigned long long)max, s);
		return -1;
	}
	return 0;
}

static double pk(const struct idem *s, u32 k)
{
	return s->tries[k] ? (double)s->msgs[k] / s->tries[k] : 0;
}

static void idem_report(const struct idem *s, int json, u64 t_end)
{
	double hops = s->msgs[MSG] ? (double)s->switches / s->msgs[MSG] : 0;
	double e = 0;
	u32 k;

	for (k = 0; k < KINDS; k++)
		e += pk(s, k) ? 1 / pk(s, k) : 0;
	e *= hops;
	if (json) {
		printf("{\"transactions\": %llu, \"completed\": %llu, \"t_end_ns\": %llu, \"mean_switches\": %.4f, ",
		       (unsigned long long)s->made, (unsigned long long)s->done,
		       (unsigned long long)t_end, hops);
		for (k = 0; k < KINDS; k++)
			printf("\"%s\": {\"messages\": %llu, \"attempts\": %llu, \"p\": %.6f}, ",
			       kind_name[k], (unsigned long long)s->msgs[k],
			       (unsigned long long)s->tries[k], pk(s, k));
		printf("\"e\": %.4f}\n", e);
		return;
	}
	printf("transactions %llu measured, %llu completed, at %llu ns virtual\n",
	       (unsigned long long)s->made, (unsigned long long)s->done,
	       (unsigned long long)t_end);
	for (k = 0; k < KINDS; k++)
		printf("%-12s %llu messages, %llu attempts: p = %.4f\n",
		       kind_name[k], (unsigned long long)s->msgs[k],
		       (unsigned long long)s->tries[k], pk(s, k));
	printf("E            %.4f switches = %.4f mean switches x the sum of 1/p\n",
	       e, hops);
}

int idem_main(int argc, char **argv)
{
	static const struct option lo[] = {
		HNSIM_CFG_LONGOPTS,
		{ "load", required_argument, NULL, 'L' },
		{ "size", required_argument, NULL, 'S' },
		{ "pattern", required_argument, NULL, 'A' },
		{ "reply", required_argument, NULL, 'R' },
		{ "ack-prio", required_argument, NULL, 'Q' },
		{ "warmup", required_argument, NULL, 'W' },
		{ "measure", required_argument, NULL, 'M' },
		{ "seed", required_argument, NULL, 'D' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	u64 warmup = 20000, measure = 100000, seed = 1, v, t, end, *next;
	long long load = -1, reply = 200000;
	struct idem s = { 0 };
	struct hn_config c;
	struct hn_tcfg tc;
	struct hn_tgen *g;
	u32 size = 10, u, d, preload = 0;
	int pattern = -1, json = 0, opt, rc;
	struct imsg *im;

	hn_config_default(&c);
	optind = 1;
	while ((opt = getopt_long(argc, argv, HNSIM_CFG_SHORTOPTS "jh", lo,
				  NULL)) != -1) {
		rc = cfg_opt(&c, &preload, opt, optarg, "hnsim idem");
		if (rc > 0)
			return 1;
		if (!rc)
			continue;
		switch (opt) {
		case 'L':
			load = frac("--load", optarg, 0);
			if (load < 0)
				return 1;
			break;
		case 'R':
			reply = frac("--reply", optarg, 0);
			if (reply < 0)
				return 1;
			break;
		case 'S':
			if (num("--size", optarg, HN_MAX_MSG, &v) || !v)
				return 1;
			size = (u32)v;
			break;
		case 'A':
			pattern = hn_pattern_parse(optarg);
			if (pattern < 0) {
				fprintf(stderr, "hnsim idem: unknown pattern '%s'\n",
					optarg);
				return 1;
			}
			break;
		case 'Q':
			if (num("--ack-prio", optarg, 15, &v))
				return 1;
			s.prio[ACK] = (u8)v;
			s.prio[ACK2] = (u8)v;
			break;
		case 'W':
			if (num("--warmup", optarg, 1000000000000000ULL, &warmup))
				return 1;
			break;
		case 'M':
			if (num("--measure", optarg, 1000000000000000ULL, &measure) ||
			    !measure)
				return 1;
			break;
		case 'D':
			if (num("--seed", optarg, ~0ULL, &seed))
				return 1;
			break;
		case 'j':
			json = 1;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 1;
		}
	}
	if (optind < argc || load < 0) {
		fprintf(stderr, "hnsim idem: %s ('hnsim idem --help')\n",
			optind < argc ? "no operand is taken" : "--load is needed");
		return 1;
	}
	if (c.switching != HN_SWITCH_DROP) {
		fprintf(stderr, "hnsim idem: the success per attempt is switching drop's: -s switching=drop\n");
		return 1;
	}
	hn_tcfg_default(&tc, c.nodes);
	if (pattern >= 0)
		tc.pattern = (u32)pattern;
	else
		tc.pattern = (u32)hn_pattern_parse("localized");
	tc.size = size;
	tc.load_ppm = (u32)load;
	tc.seed = seed;
	rc = hn_tcfg_check(&tc, &c, NULL);
	if (rc) {
		fprintf(stderr, "hnsim idem: the traffic does not fit this fabric (%d)\n",
			rc);
		return 1;
	}
	g = hn_tgen_create(&tc, &c, &rc);
	s.e = g ? hn_create(&c, &idem_ops, &s, &rc) : NULL;
	s.nodes = c.nodes;
	s.reply_ppm = (u32)reply;
	s.head = calloc((size_t)c.nodes * KINDS, sizeof(*s.head));
	s.tail = calloc((size_t)c.nodes * KINDS, sizeof(*s.tail));
	next = calloc(c.nodes, sizeof(*next));
	if (!s.e || !s.head || !s.tail || !next) {
		fprintf(stderr, "hnsim idem: cannot make the engine: %s\n",
			strerror(rc < 0 ? -rc : ENOMEM));
		return 1;
	}
	for (u = 0; u < c.nodes; u++)
		next[u] = hn_tgen_next_ns(g, u);
	end = warmup + measure;
	for (t = 0; t < end || (s.done < s.made && t < end + 10000000);
	     t += c.wh_flit_ns) {
		hn_run_until(s.e, t);
		for (u = 0; u < c.nodes && t < end; u++) {
			while (next[u] <= t) {
				next[u] = hn_tgen_next_ns(g, u);
				d = hn_tgen_dest(g, u);
				if (d == HN_NONE)
					continue;
				im = make(&s, MSG, u, d, size, t >= warmup);
				if (!im)
					return 1;
				if (im->measured) {
					s.made++;
					s.switches += (u32)hn_route_switches(s.e,
									     u, d);
				}
				push(&s, u, im);
			}
		}
		offer_all(&s);
	}
	idem_report(&s, json, hn_now(s.e));
	rc = s.done < s.made ? 2 : 0;
	hn_destroy(s.e);	/* reclaims what is still in it */
	for (u = 0; u < c.nodes * KINDS; u++)
		while ((im = s.head[u])) {
			s.head[u] = im->next;
			free(im);
		}
	free(s.head);
	free(s.tail);
	free(next);
	hn_tgen_destroy(g);
	return rc;
}
