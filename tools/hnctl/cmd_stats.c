// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_stats.c - "hnctl stats": global and per-slot statistics, the
 * per-node dump, and "stats reset".  Statistics are printed under their
 * spec names (tx-msgs-circuit, ...) in the kernel's order; a statistic
 * this hnctl does not know is printed by number.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hnctl.h"
#include "json.h"

static const char *stat_name(unsigned int i, char *buf, size_t len)
{
	const char *n = hn_ctl_stat_name(i);

	if (n)
		return n;
	snprintf(buf, len, "stat-%u", i);
	return buf;
}

static void stats_json(const struct hn_ctl_stats *st)
{
	unsigned int i;
	char buf[16];

	for (i = 0; i <= HYBRIDNET_STAT_MAX; i++)
		if (hn_ctl_stat_has(st, i))
			j_u64(stat_name(i, buf, sizeof(buf)), st->v[i]);
}

static int digits(uint64_t v)
{
	int n = 1;

	while (v >= 10) {
		v /= 10;
		n++;
	}
	return n;
}

/* A table: a first column (@head, @label[r]), then one per statistic. */
static void table(const char *head, char (*label)[16],
		  const struct hn_ctl_stats *const *rows, size_t n)
{
	int w0 = (int)strlen(head), w[HYBRIDNET_STAT_MAX + 1];
	char any[HYBRIDNET_STAT_MAX + 1] = { 0 };
	unsigned int i;
	char buf[16];
	size_t r;

	for (r = 0; r < n; r++) {
		for (i = 0; i <= HYBRIDNET_STAT_MAX; i++)
			any[i] |= hn_ctl_stat_has(rows[r], i);
		if ((int)strlen(label[r]) > w0)
			w0 = (int)strlen(label[r]);
	}
	for (i = 0; i <= HYBRIDNET_STAT_MAX; i++) {
		w[i] = (int)strlen(stat_name(i, buf, sizeof(buf)));
		for (r = 0; r < n; r++)
			if (digits(rows[r]->v[i]) > w[i])
				w[i] = digits(rows[r]->v[i]);
	}
	printf("%-*s", w0, head);
	for (i = 0; i <= HYBRIDNET_STAT_MAX; i++)
		if (any[i])
			printf("  %*s", w[i], stat_name(i, buf, sizeof(buf)));
	putchar('\n');
	for (r = 0; r < n; r++) {
		printf("%-*s", w0, label[r]);
		for (i = 0; i <= HYBRIDNET_STAT_MAX; i++) {
			if (!any[i])
				continue;
			if (hn_ctl_stat_has(rows[r], i))
				printf("  %*" PRIu64, w[i], rows[r]->v[i]);
			else
				printf("  %*s", w[i], "-");
		}
		putchar('\n');
	}
}

static void print_global(const struct hn_ctl_gstats *gs, int json)
{
	const struct hn_ctl_stats *rows[HYBRIDNET_MAX_SLOTS + 1];
	char label[HYBRIDNET_MAX_SLOTS + 1][16];
	unsigned int i;
	char buf[16];

	if (json) {
		j_obj(NULL);
		j_u64("now", gs->now);
		j_obj("stats");
		stats_json(&gs->g);
		j_obj_end();
		j_arr("slots");
		for (i = 0; i < gs->nslots; i++) {
			j_obj(NULL);
			j_u64("slot", gs->slot[i].slot);
			if (i + 1 == gs->nslots)
				j_bool("wormhole", 1);
			stats_json(&gs->slot[i].s);
			j_obj_end();
		}
		j_arr_end();
		j_obj_end();
		j_end();
		return;
	}
	printf("%-18s %" PRIu64 "\n", "now", gs->now);
	for (i = 0; i <= HYBRIDNET_STAT_MAX; i++)
		if (hn_ctl_stat_has(&gs->g, i))
			printf("%-18s %" PRIu64 "\n",
			       stat_name(i, buf, sizeof(buf)), gs->g.v[i]);
	if (!gs->nslots)
		return;
	for (i = 0; i < gs->nslots; i++) {
		/* the last slot, K, is the wormhole slot */
		snprintf(label[i], sizeof(label[i]), "%u%s", gs->slot[i].slot,
			 i + 1 == gs->nslots ? "w" : "");
		rows[i] = &gs->slot[i].s;
	}
	putchar('\n');
	table("slot", label, rows, gs->nslots);
}

static int print_nodes(const struct hn_ctl_node_stats *ns, size_t n, int json)
{
	const struct hn_ctl_stats **rows;
	char (*label)[16];
	size_t i;

	if (json) {
		j_obj(NULL);
		j_arr("nodes");
		for (i = 0; i < n; i++) {
			j_obj(NULL);
			j_u64("node", ns[i].node);
			stats_json(&ns[i].s);
			j_obj_end();
		}
		j_arr_end();
		j_obj_end();
		j_end();
		return 0;
	}
	rows = calloc(n + 1, sizeof(*rows));
	label = calloc(n + 1, sizeof(*label));
	if (!rows || !label) {
		free(rows);
		free(label);
		return EXIT_KERNEL;
	}
	for (i = 0; i < n; i++) {
		snprintf(label[i], sizeof(label[i]), "%u", ns[i].node);
		rows[i] = &ns[i].s;
	}
	table("node", label, rows, n);
	free(rows);
	free(label);
	return 0;
}

static void dry(const char *req, int dump, int64_t node, int json)
{
	if (json) {
		j_obj(NULL);
		j_str("request", req);
		if (dump)
			j_bool("dump", 1);
		if (node >= 0)
			j_u64("node", (uint64_t)node);
		j_obj_end();
		j_end();
		return;
	}
	printf("%s%s", req, dump ? " dump" : "");
	if (node >= 0)
		printf(" node %" PRId64, node);
	putchar('\n');
}

int cmd_stats(struct hnctl *o, int argc, char **argv)
{
	enum { GLOBAL, NODES, RESET } what = GLOBAL;
	struct hn_ctl_node_stats *ns;
	struct hn_ctl_gstats *gs;
	int64_t node = -1;
	int i, rc, words = 0;
	uint64_t v;
	size_t n;

	for (i = 0; i < argc; i++) {
		if (words++)
			return hnctl_usage("stats", "'%s': one of node N, nodes "
					   "or reset", argv[i]);
		if (!strcmp(argv[i], "reset")) {
			what = RESET;
		} else if (!strcmp(argv[i], "nodes")) {
			what = NODES;
		} else if (!strcmp(argv[i], "node")) {
			if (i + 1 == argc ||
			    hnctl_num(argv[i + 1], UINT32_MAX - 1, &v))
				return hnctl_usage("stats", "node needs a node "
						   "number");
			node = (int64_t)v;
			what = NODES;
			i++;
		} else {
			return hnctl_usage("stats", "'%s': expected node N, "
					   "nodes or reset", argv[i]);
		}
	}
	if (o->dry_run) {
		dry(what == RESET ? "stats-reset" : "stats-get", what == NODES,
		    node, o->json);
		return 0;
	}
	rc = hnctl_connect(o);
	if (rc)
		return rc;
	if (what == RESET) {
		rc = hn_ctl_stats_reset(o->ctl);
		return rc ? hnctl_refused(o, "stats reset", rc) : 0;
	}
	if (what == NODES) {
		rc = hn_ctl_stats_dump(o->ctl, node < 0 ? HN_CTL_ALL_NODES :
				       (uint32_t)node, &ns, &n);
		if (rc)
			return hnctl_refused(o, "stats", rc);
		rc = print_nodes(ns, n, o->json);
		free(ns);
		return rc;
	}
	gs = malloc(sizeof(*gs));
	if (!gs)
		return EXIT_KERNEL;
	rc = hn_ctl_stats_get(o->ctl, gs);
	if (rc)
		rc = hnctl_refused(o, "stats", rc);
	else
		print_global(gs, o->json);
	free(gs);
	return rc;
}
