// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_top.c - "hnctl top": what the fabric did for the traffic, by
 * switching mode, in virtual time: each mode's messages, bytes and
 * latency (mean, p50, p99, min, max; STATS_GET), then the busiest
 * (source, destination) pairs with their split between circuit and
 * wormhole (the PAIR_GET dump), and the pair table's overflow.  Once, or
 * every -i seconds like top(1) until SIGINT, SIGTERM or --iterations.
 */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "hnctl.h"
#include "json.h"

#define C	HYBRIDNET_MODE_CIRCUIT
#define W	HYBRIDNET_MODE_WORMHOLE

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

/* How pairs are ordered: the first is the default. */
enum top_sort { BY_MSGS, BY_BYTES, BY_CIRCUIT, BY_WORMHOLE, BY_LAT, BY_PAIR };

static const char *const sort_names[] = {
	"msgs", "bytes", "circuit", "wormhole", "lat", "pair", NULL,
};

struct top_opts {
	uint64_t count;			/* pairs shown; 0: all */
	enum top_sort sort;
	uint64_t interval_ns;		/* 0: once */
	uint64_t iterations;		/* 0: until a signal */
};

/* The statistics of one mode's line, and of the JSON "stats" object. */
static const unsigned int mode_stats[2][7] = {
	{ HYBRIDNET_STAT_RX_MSGS_CIRCUIT, HYBRIDNET_STAT_RX_BYTES_CIRCUIT,
	  HYBRIDNET_STAT_LAT_MEAN_CIRCUIT_NS, HYBRIDNET_STAT_LAT_P50_CIRCUIT_NS,
	  HYBRIDNET_STAT_LAT_P99_CIRCUIT_NS, HYBRIDNET_STAT_LAT_MIN_CIRCUIT_NS,
	  HYBRIDNET_STAT_LAT_MAX_CIRCUIT_NS },
	{ HYBRIDNET_STAT_RX_MSGS_WORMHOLE, HYBRIDNET_STAT_RX_BYTES_WORMHOLE,
	  HYBRIDNET_STAT_LAT_MEAN_WORMHOLE_NS,
	  HYBRIDNET_STAT_LAT_P50_WORMHOLE_NS,
	  HYBRIDNET_STAT_LAT_P99_WORMHOLE_NS,
	  HYBRIDNET_STAT_LAT_MIN_WORMHOLE_NS,
	  HYBRIDNET_STAT_LAT_MAX_WORMHOLE_NS },
};

static const unsigned int table_stats[] = {
	HYBRIDNET_STAT_PAIRS, HYBRIDNET_STAT_PAIRS_MAX,
	HYBRIDNET_STAT_PAIR_OVERFLOW_MSGS, HYBRIDNET_STAT_PAIR_OVERFLOW_BYTES,
};

static uint64_t sv(const struct hn_ctl_stats *s, unsigned int i)
{
	return hn_ctl_stat_has(s, i) ? s->v[i] : 0;
}

static uint64_t pair_msgs(const struct hn_ctl_pair_stats *p)
{
	return p->msgs[C] + p->msgs[W];
}

/* The mean over both modes (of the two means, weighted). */
static uint64_t pair_lat(const struct hn_ctl_pair_stats *p)
{
	uint64_t n = pair_msgs(p);

	return n ? (p->lat_mean_ns[C] * p->msgs[C] +
		    p->lat_mean_ns[W] * p->msgs[W]) / n : 0;
}

static enum top_sort sort_key;

/* Larger first; ties, and "pair", by source then destination. */
static int cmp_pairs(const void *a, const void *b)
{
	const struct hn_ctl_pair_stats *x = a, *y = b;
	uint64_t u = 0, v = 0;

	switch (sort_key) {
	case BY_MSGS:
		u = pair_msgs(x);
		v = pair_msgs(y);
		break;
	case BY_BYTES:
		u = x->bytes[C] + x->bytes[W];
		v = y->bytes[C] + y->bytes[W];
		break;
	case BY_CIRCUIT:
		u = x->msgs[C];
		v = y->msgs[C];
		break;
	case BY_WORMHOLE:
		u = x->msgs[W];
		v = y->msgs[W];
		break;
	case BY_LAT:
		u = pair_lat(x);
		v = pair_lat(y);
		break;
	case BY_PAIR:
		break;
	}
	if (u != v)
		return u > v ? -1 : 1;
	if (x->src != y->src)
		return x->src < y->src ? -1 : 1;
	return x->dst < y->dst ? -1 : x->dst > y->dst;
}

static void print_json(const struct hn_ctl_gstats *gs,
		       const struct hn_ctl_pair_stats *p, size_t n)
{
	unsigned int m, i;
	size_t k;

	j_obj(NULL);
	j_u64("now", gs->now);
	j_obj("stats");
	for (m = 0; m < 2; m++)
		for (i = 0; i < 7; i++)
			j_u64(hn_ctl_stat_name(mode_stats[m][i]),
			      sv(&gs->g, mode_stats[m][i]));
	for (i = 0; i < 4; i++)
		j_u64(hn_ctl_stat_name(table_stats[i]),
		      sv(&gs->g, table_stats[i]));
	j_obj_end();
	j_arr("pairs");
	for (k = 0; k < n; k++) {
		j_obj(NULL);
		j_u64("src", p[k].src);
		j_u64("dst", p[k].dst);
		for (m = 0; m < 2; m++) {
			j_u64(hn_ctl_stat_name(mode_stats[m][0]), p[k].msgs[m]);
			j_u64(hn_ctl_stat_name(mode_stats[m][1]), p[k].bytes[m]);
			j_u64(hn_ctl_stat_name(mode_stats[m][2]),
			      p[k].lat_mean_ns[m]);
		}
		j_obj_end();
	}
	j_arr_end();
	j_obj_end();
	j_end();
}

/* A mean latency, "-" when the mode carried nothing. */
static void lat_col(uint64_t msgs, uint64_t lat)
{
	if (msgs)
		printf(" %9" PRIu64, lat);
	else
		printf(" %9s", "-");
}

static void print_text(const struct hn_ctl_gstats *gs,
		       const struct hn_ctl_pair_stats *p, size_t n,
		       size_t total)
{
	static const char *const mode_name[2] = { "circuit", "wormhole" };
	const struct hn_ctl_stats *g = &gs->g;
	unsigned int m, i;
	size_t k;

	printf("since the last stats reset, virtual time now %" PRIu64
	       ".%09" PRIu64 " s; latencies in virtual ns\n",
	       gs->now / 1000000000, gs->now % 1000000000);
	printf("%-9s %10s %12s %9s %9s %9s %9s %9s\n", "mode", "msgs",
	       "bytes", "lat-mean", "lat-p50", "lat-p99", "lat-min",
	       "lat-max");
	for (m = 0; m < 2; m++) {
		uint64_t msgs = sv(g, mode_stats[m][0]);

		printf("%-9s %10" PRIu64 " %12" PRIu64, mode_name[m], msgs,
		       sv(g, mode_stats[m][1]));
		for (i = 2; i < 7; i++)
			lat_col(msgs, sv(g, mode_stats[m][i]));
		putchar('\n');
	}
	printf("pairs %" PRIu64 " (the table holds %" PRIu64 "); overflow %"
	       PRIu64 " msgs, %" PRIu64 " bytes of pairs it had no room for\n",
	       sv(g, HYBRIDNET_STAT_PAIRS), sv(g, HYBRIDNET_STAT_PAIRS_MAX),
	       sv(g, HYBRIDNET_STAT_PAIR_OVERFLOW_MSGS),
	       sv(g, HYBRIDNET_STAT_PAIR_OVERFLOW_BYTES));
	if (!n)
		return;
	printf("\n%-11s %21s  %30s  %30s\n", "", "all", "circuit", "wormhole");
	printf("%5s %5s %10s %10s  %10s %10s %9s  %10s %10s %9s\n", "src",
	       "dst", "msgs", "bytes", "msgs", "bytes", "lat-mean", "msgs",
	       "bytes", "lat-mean");
	for (k = 0; k < n; k++) {
		printf("%5u %5u %10" PRIu64 " %10" PRIu64, p[k].src, p[k].dst,
		       pair_msgs(&p[k]), p[k].bytes[C] + p[k].bytes[W]);
		for (m = 0; m < 2; m++) {
			printf("  %10" PRIu64 " %10" PRIu64, p[k].msgs[m],
			       p[k].bytes[m]);
			lat_col(p[k].msgs[m], p[k].lat_mean_ns[m]);
		}
		putchar('\n');
	}
	if (n < total)
		printf("(%zu more pairs; --count 0 shows all)\n", total - n);
}

/* One view: 0, or the library's -errno. */
static int once(struct hnctl *o, const struct top_opts *t, int clear)
{
	struct hn_ctl_pair_stats *p = NULL;
	struct hn_ctl_gstats *gs;
	size_t n = 0, shown;
	int rc, tries = 0;

	gs = malloc(sizeof(*gs));
	if (!gs)
		return -ENOMEM;
	do {	/* a reset between the two: take both again */
		free(p);
		p = NULL;
		rc = hn_ctl_stats_get(o->ctl, gs);
		if (!rc)
			rc = hn_ctl_pairs(o->ctl, HN_CTL_ALL, HN_CTL_ALL, &p, &n);
	} while (rc == -EAGAIN && ++tries < 5);
	if (!rc) {
		sort_key = t->sort;
		qsort(p, n, sizeof(*p), cmp_pairs);
		shown = t->count && t->count < n ? t->count : n;
		if (o->json) {
			print_json(gs, p, shown);
		} else {
			if (clear)
				fputs("\033[H\033[2J", stdout);
			print_text(gs, p, shown, n);
			fflush(stdout);
		}
	}
	free(p);
	free(gs);
	return rc;
}

/* -i: seconds, or a number with a unit (500ms). */
static int interval(const char *s, uint64_t *ns)
{
	uint64_t v;

	if (!hnctl_num(s, 1000000, &v)) {
		*ns = v * 1000000000;
		return *ns ? 0 : -1;
	}
	if (hnctl_num_unit(s, HNCTL_UNIT_TIME, 1000000ULL * 1000000000, ns))
		return -1;
	return *ns >= 1000000 ? 0 : -1;	/* at least 1 ms */
}

static int parse(int argc, char **argv, struct top_opts *t)
{
	int i, k;

	for (i = 0; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!v && (!strcmp(a, "--count") || !strcmp(a, "--sort") ||
			   !strcmp(a, "-i") || !strcmp(a, "--interval") ||
			   !strcmp(a, "--iterations")))
			return hnctl_usage("top", "%s needs a value", a);
		if (!strcmp(a, "--count")) {
			if (hnctl_num(v, UINT32_MAX, &t->count))
				return hnctl_usage("top", "--count needs a number of pairs (0: all)");
		} else if (!strcmp(a, "--sort")) {
			for (k = 0; sort_names[k] && strcmp(sort_names[k], v); k++)
				;
			if (!sort_names[k])
				return hnctl_usage("top", "--sort '%s': one of msgs, bytes, circuit, wormhole, lat, pair",
						   v);
			t->sort = (enum top_sort)k;
		} else if (!strcmp(a, "-i") || !strcmp(a, "--interval")) {
			if (interval(v, &t->interval_ns))
				return hnctl_usage("top", "%s '%s': seconds (1, 2, ...) or a time with a unit, at least 1ms (500ms)",
						   a, v);
		} else if (!strcmp(a, "--iterations")) {
			if (hnctl_num(v, UINT32_MAX, &t->iterations) ||
			    !t->iterations)
				return hnctl_usage("top", "--iterations needs a number, at least 1");
		} else {
			return hnctl_usage("top", "'%s': expected --count N, --sort KEY, -i SECONDS or --iterations N",
					   a);
		}
		i++;
	}
	return 0;
}

static void dry(int json)
{
	if (json) {
		j_obj(NULL);
		j_arr("requests");
		j_obj(NULL);
		j_str("request", "stats-get");
		j_obj_end();
		j_obj(NULL);
		j_str("request", "pair-get");
		j_bool("dump", 1);
		j_obj_end();
		j_arr_end();
		j_obj_end();
		j_end();
		return;
	}
	printf("stats-get\npair-get dump\n");
}

int cmd_top(struct hnctl *o, int argc, char **argv)
{
	struct top_opts t = { .count = 20 };
	struct timespec ts;
	struct sigaction sa;
	uint64_t it;
	int rc;

	rc = parse(argc, argv, &t);
	if (rc)
		return rc;
	if (o->dry_run) {
		dry(o->json);
		return 0;
	}
	rc = hnctl_connect(o);
	if (rc)
		return rc;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;	/* no SA_RESTART: nanosleep() returns */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	for (it = 1;; it++) {
		rc = once(o, &t, t.interval_ns && !o->json && isatty(1));
		if (rc)
			return hnctl_refused(o, "top", rc);
		if (!t.interval_ns || stop || it == t.iterations)
			return 0;
		ts.tv_sec = t.interval_ns / 1000000000;
		ts.tv_nsec = t.interval_ns % 1000000000;
		if (nanosleep(&ts, NULL) && stop)
			return 0;
		if (!o->json && !isatty(1))
			putchar('\n');
	}
}
