// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_circuit.c - "hnctl preload", "predict", "release" and "circuits".
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hnctl.h"
#include "dry_run.h"
#include "json.h"
#include "phase.h"

static int opt_arg(const char *cmd, int argc, char **argv, int *i,
		   const char **val)
{
	if (*i + 1 >= argc)
		return hnctl_usage(cmd, "%s needs a value", argv[*i]);
	*val = argv[++*i];
	return 0;
}

/* What a preload replaced: "slot 0: 16 circuits replaced by 1". */
static void print_replaced(const struct hn_ctl_change *chg, int second,
			   int json)
{
	const char *lvl = second ? "second-level " : "";
	size_t i;

	if (json) {
		j_obj(NULL);
		j_arr("slots");
	}
	for (i = 0; i < chg->nslots; i++) {
		const struct hn_ctl_slot_change *sc = &chg->slot[i];

		if (json) {
			j_obj(NULL);
			j_u64("slot", sc->slot);
			j_u64("before", sc->before);
			j_u64("after", sc->after);
			j_obj_end();
		} else if (sc->before && sc->after) {
			printf("%sslot %u: %u circuit%s replaced by %u\n", lvl,
			       sc->slot, sc->before, sc->before == 1 ? "" : "s",
			       sc->after);
		} else if (sc->before) {
			printf("%sslot %u: %u circuit%s released, now empty\n",
			       lvl, sc->slot, sc->before,
			       sc->before == 1 ? "" : "s");
		} else if (sc->after) {
			printf("%sslot %u: %u circuit%s installed\n", lvl,
			       sc->slot, sc->after, sc->after == 1 ? "" : "s");
		} else {
			printf("%sslot %u: empty, unchanged\n", lvl, sc->slot);
		}
	}
	if (json) {
		j_arr_end();
		if (second)
			j_u64("level", 2);
		j_obj_end();
		j_end();
	}
}

/*
 * The slots of @cfg against K, the fabric's @slots: 0, or EXIT_USAGE
 * once said why ("8 slot configurations for 4 slots").
 */
static int check_slots(const struct hn_ctl_slot_cfg *cfg, size_t n,
		       uint32_t slots)
{
	uint32_t lo = UINT32_MAX, hi = 0, need;
	size_t i;

	for (i = 0; i < n; i++) {
		lo = cfg[i].slot < lo ? cfg[i].slot : lo;
		hi = cfg[i].slot > hi ? cfg[i].slot : hi;
	}
	if (!n || hi < slots)
		return 0;
	need = n > hi + 1 ? (uint32_t)n : hi + 1;
	if (n > slots)
		fprintf(stderr, "hnctl: preload: %zu slot configurations "
			"(slots %u..%u), but the fabric has %u slots: give at "
			"most %u, or set more first (hnctl set slots %u)\n", n,
			lo, hi, slots, slots, need);
	else
		fprintf(stderr, "hnctl: preload: slot %u, but the fabric has "
			"%u slots (0..%u): number the slots from 0, or set "
			"more first (hnctl set slots %u)\n", hi, slots,
			slots - 1, need);
	return EXIT_USAGE;
}

int cmd_preload(struct hnctl *o, int argc, char **argv)
{
	const char *file = NULL, *phase = NULL, *nodes_s = NULL, *name;
	char **stmt, err[512];
	int i, n = 0, print = 0, second = 0, rc;
	struct hn_ctl_slot_cfg *cfg;
	struct dry fab = { 0 };
	uint32_t nodes = 0;
	const char *from = NULL;
	struct ph_file pf;
	uint64_t v = 0;
	size_t ncfg;

	stmt = calloc(argc + 1, sizeof(*stmt));
	if (!stmt)
		return EXIT_KERNEL;
	for (i = 0, rc = 0; i < argc && !rc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "-f") || !strcmp(a, "--file")) {
			rc = opt_arg("preload", argc, argv, &i, &file);
		} else if (!strcmp(a, "--phase")) {
			rc = opt_arg("preload", argc, argv, &i, &phase);
		} else if (!strcmp(a, "--nodes")) {
			rc = opt_arg("preload", argc, argv, &i, &nodes_s);
			if (!rc && (hnctl_num(nodes_s, HYBRIDNET_MAX_NODES, &v) ||
				    v < HYBRIDNET_MIN_NODES))
				rc = hnctl_usage("preload", "--nodes: '%s' is not "
						 "%u..%u", nodes_s,
						 HYBRIDNET_MIN_NODES,
						 HYBRIDNET_MAX_NODES);
			nodes = (uint32_t)v;
		} else if (!strcmp(a, "--print")) {
			print = 1;
		} else if (!strcmp(a, "--second-level")) {
			second = 1;
		} else if (!strncmp(a, "--", 2)) {
			rc = hnctl_usage("preload", "unknown option '%s'", a);
		} else {
			stmt[n++] = argv[i];
		}
	}
	if (!rc && file && n)
		rc = hnctl_usage("preload", "give either --file or statements, "
				 "not both");
	if (!rc && !file && !n)
		rc = hnctl_usage("preload", "nothing to preload: give slot N "
				 "SRC:DST..., a generator (mesh, shift, xor, "
				 "scatter, gather, perm) or --file FILE");
	if (!rc && phase && !file)
		rc = hnctl_usage("preload", "--phase picks a phase of --file; "
				 "on the command line, name it with "
				 "'phase NAME'");
	if (rc)
		goto out;
	if (nodes)
		from = "--nodes";
	if (!print && (rc = dry_fabric(o, &fab)) != 0)
		goto out;
	if (hn_ctl_config_count(&fab.cfg)) {
		if (nodes && nodes != fab.cfg.nodes) {
			rc = hnctl_usage("preload", "--nodes %u, but %s has %u "
					 "nodes", nodes, fab.from,
					 fab.cfg.nodes);
			goto out;
		}
		nodes = fab.cfg.nodes;
		from = fab.from;
	}
	if (file)
		rc = ph_load(&pf, file, nodes, from, err, sizeof(err));
	else
		rc = ph_args(&pf, n, stmt, nodes, from, err, sizeof(err));
	/* --print shows the file; loading (and -n) needs the phases chosen */
	cfg = NULL;
	if (!rc && (!print || phase) &&
	    ph_select(&pf, phase, &cfg, &ncfg, &name, err, sizeof(err))) {
		ph_free(&pf);
		rc = -1;
	}
	if (rc) {
		if (file)
			fprintf(stderr, "hnctl: %s\n", err);
		else
			hnctl_usage("preload", "%s", err);
		rc = EXIT_USAGE;
		goto out;
	}
	if (!print && hn_ctl_config_count(&fab.cfg))
		rc = check_slots(cfg, ncfg, fab.cfg.slots);
	if (!rc)
		rc = dry_engine(o, &fab);
	if (!rc && o->dry_run)
		rc = dry_preload(&fab, cfg, ncfg, second);
	if (rc) {
		/* refused before it reached the kernel */
	} else if (print || o->dry_run) {
		ph_print(&pf, phase, o->json);
	} else {
		struct hn_ctl_change chg;

		rc = hn_ctl_preload_change(o->ctl, cfg, ncfg, name,
					   second ? 2 : 1, &chg);
		if (rc)
			rc = hnctl_refused(o, "preload", rc);
		else
			print_replaced(&chg, second, o->json);
	}
	free(cfg);
	ph_free(&pf);
out:
	dry_free(&fab);
	free(stmt);
	return rc;
}

/* The conflicts of request @i: a run of why->c, by request. */
static const struct hn_ctl_conflict *conflicts_of(const struct hn_ctl_why *why,
						  size_t i, size_t *n)
{
	size_t a = 0, b;

	while (a < why->n && why->c[a].index < i)
		a++;
	for (b = a; b < why->n && why->c[b].index == i; b++)
		;
	*n = b - a;
	return why->c + a;
}

/* "slot 0 pinned; slot 1 taken by 0:3, 2:1; ..." */
static void why_text(const struct hn_ctl_grant *g,
		     const struct hn_ctl_conflict *k, size_t n, uint32_t slots)
{
	size_t i;

	if (!n) {
		if (!slots)
			printf(": no predictive slots (slots 0)");
		else
			printf(": no reason given (one reply explains 64 KiB "
			       "of refusals)");
		return;
	}
	for (i = 0; i < n; i++) {
		printf("%s slot %u", i ? ";" : ":", k[i].slot);
		if (k[i].pinned) {
			printf(" pinned");
			continue;
		}
		printf(" taken by");
		if (k[i].src_to != HN_CTL_NO_NODE)
			printf(" %u:%u", g->src, k[i].src_to);
		if (k[i].src_to != HN_CTL_NO_NODE &&
		    k[i].from_dst != HN_CTL_NO_NODE)
			putchar(',');
		if (k[i].from_dst != HN_CTL_NO_NODE)
			printf(" %u:%u", k[i].from_dst, g->dst);
	}
}

static void why_json(const struct hn_ctl_grant *g,
		     const struct hn_ctl_conflict *k, size_t n)
{
	size_t i;

	j_arr("conflicts");
	for (i = 0; i < n; i++) {
		j_obj(NULL);
		j_u64("slot", k[i].slot);
		if (k[i].pinned)
			j_bool("pinned", 1);
		if (k[i].src_to != HN_CTL_NO_NODE)
			j_pairs("src-taken-by", &(struct hn_ctl_pair){
				g->src, k[i].src_to }, 1);
		if (k[i].from_dst != HN_CTL_NO_NODE)
			j_pairs("dst-taken-by", &(struct hn_ctl_pair){
				k[i].from_dst, g->dst }, 1);
		j_obj_end();
	}
	j_arr_end();
}

static void print_grants(const struct hn_ctl_grant *g, size_t n,
			 const struct hn_ctl_why *why, int json)
{
	const struct hn_ctl_conflict *k;
	size_t i, nk;

	if (json) {
		j_obj(NULL);
		j_u64("slots", why->slots);
		j_arr("grants");
	}
	for (i = 0; i < n; i++) {
		char num[16];
		const char *r = hnctl_grant_str(g[i].result, num, sizeof(num));

		k = conflicts_of(why, i, &nk);
		if (json) {
			j_obj(NULL);
			j_u64("src", g[i].src);
			j_u64("dst", g[i].dst);
			j_str("result", r);
			if (g[i].slot != HN_CTL_NO_SLOT)
				j_u64("slot", g[i].slot);
			if (g[i].result == HYBRIDNET_GRANT_REFUSED)
				why_json(&g[i], k, nk);
			j_obj_end();
			continue;
		}
		printf("%u:%u %s", g[i].src, g[i].dst, r);
		if (g[i].slot != HN_CTL_NO_SLOT)
			printf(" slot %u", g[i].slot);
		if (g[i].result == HYBRIDNET_GRANT_REFUSED)
			why_text(&g[i], k, nk, why->slots);
		putchar('\n');
	}
	if (json) {
		j_arr_end();
		j_obj_end();
		j_end();
	}
}

static void print_pairs_request(const char *req, const struct hn_ctl_pair *p,
				size_t n, int json)
{
	size_t i;

	if (json) {
		j_obj(NULL);
		j_str("request", req);
		j_pairs("pairs", p, n);
		j_obj_end();
		j_end();
		return;
	}
	printf("%s", req);
	for (i = 0; i < n; i++)
		printf(" %u:%u", p[i].src, p[i].dst);
	putchar('\n');
}

int cmd_predict(struct hnctl *o, int argc, char **argv)
{
	struct hn_ctl_why why = { 0 };
	struct hn_ctl_pair *req;
	struct hn_ctl_grant *g;
	struct dry fab = { 0 };
	int i, rc = 0;
	size_t n = 0, k;

	req = calloc(argc + 1, sizeof(*req));
	g = calloc(argc + 1, sizeof(*g));
	if (!req || !g) {
		rc = EXIT_KERNEL;
		goto out;
	}
	for (i = 0; i < argc && !rc; i++) {
		if (hnctl_pair(argv[i], &req[n++]))
			rc = hnctl_usage("predict", "'%s' is not SRC:DST",
					 argv[i]);
		else if (req[n - 1].src == req[n - 1].dst)
			rc = hnctl_usage("predict", "'%s': %s", argv[i],
					 HN_SELF_CIRCUIT);
	}
	if (!rc && !n)
		rc = hnctl_usage("predict", "no requests: give SRC:DST...");
	if (!rc && o->dry_run)
		rc = dry_fabric(o, &fab);
	/* the kernel's check of the nodes, in its words */
	for (k = 0; !rc && hn_ctl_config_count(&fab.cfg) && k < n; k++)
		if (req[k].src >= fab.cfg.nodes || req[k].dst >= fab.cfg.nodes) {
			fprintf(stderr, "hnctl: predict refused: pair %u:%u: "
				"node %u out of range (%u nodes)\n", req[k].src,
				req[k].dst, req[k].src >= fab.cfg.nodes ?
				req[k].src : req[k].dst, fab.cfg.nodes);
			rc = EXIT_KERNEL;
		}
	if (rc)
		goto out;
	if (o->dry_run) {
		print_pairs_request("predict", req, n, o->json);
		goto out;
	}
	rc = hnctl_connect(o);
	if (rc)
		goto out;
	rc = hn_ctl_predict_why(o->ctl, req, n, g, &why);
	if (rc < 0) {
		rc = hnctl_refused(o, "predict", rc);
		goto out;
	}
	n = (size_t)rc;
	print_grants(g, n, &why, o->json);
	/* nothing has a circuit: every request was refused */
	rc = EXIT_REFUSED;
	for (i = 0; i < (int)n; i++)
		if (g[i].result != HYBRIDNET_GRANT_REFUSED)
			rc = 0;
out:
	hn_ctl_why_free(&why);
	free(req);
	free(g);
	return rc;
}

int cmd_release(struct hnctl *o, int argc, char **argv)
{
	enum { NONE, PAIR, SLOT, ALL } what = NONE;
	struct hn_ctl_pair p = { 0, 0 };
	uint64_t slot = 0;
	int i, rc;

	for (i = 0; i < argc; i++) {
		if (what != NONE)
			return hnctl_usage("release", "release one thing: "
					   "SRC:DST, slot N or all");
		if (!strcmp(argv[i], "all")) {
			what = ALL;
		} else if (!strcmp(argv[i], "slot")) {
			if (i + 1 == argc ||
			    hnctl_num(argv[i + 1], UINT32_MAX, &slot))
				return hnctl_usage("release", "slot needs a "
						   "slot number");
			i++;
			what = SLOT;
		} else if (!hnctl_pair(argv[i], &p)) {
			what = PAIR;
		} else {
			return hnctl_usage("release", "'%s': expected SRC:DST, "
					   "slot N or all", argv[i]);
		}
	}
	if (what == NONE)
		return hnctl_usage("release", "what? SRC:DST, slot N or all");
	if (o->dry_run) {
		if (o->json) {
			j_obj(NULL);
			j_str("request", "release");
			if (what == PAIR) {
				j_obj("pair");
				j_u64("src", p.src);
				j_u64("dst", p.dst);
				j_obj_end();
			} else if (what == SLOT) {
				j_u64("slot", slot);
			} else {
				j_bool("all", 1);
			}
			j_obj_end();
			j_end();
		} else if (what == PAIR) {
			printf("release %u:%u\n", p.src, p.dst);
		} else if (what == SLOT) {
			printf("release slot %u\n", (uint32_t)slot);
		} else {
			printf("release all\n");
		}
		return 0;
	}
	rc = hnctl_connect(o);
	if (rc)
		return rc;
	if (what == PAIR)
		rc = hn_ctl_release_pair(o->ctl, p.src, p.dst);
	else if (what == SLOT)
		rc = hn_ctl_release_slot(o->ctl, (uint32_t)slot);
	else
		rc = hn_ctl_release_all(o->ctl);
	return rc ? hnctl_refused(o, "release", rc) : 0;
}

static void print_circuits(const struct hn_ctl_circuits *t, int64_t only,
			   int json)
{
	int64_t last = -1;
	size_t i;

	if (json) {
		j_obj(NULL);
		if (t->generation)
			j_u64("generation", t->generation);
		j_arr("circuits");
		for (i = 0; i < t->n; i++) {
			if (only >= 0 && t->c[i].slot != only)
				continue;
			j_obj(NULL);
			j_u64("slot", t->c[i].slot);
			j_u64("src", t->c[i].src);
			j_u64("dst", t->c[i].dst);
			if (t->c[i].path.len)
				j_path("path", &t->c[i].path);
			j_obj_end();
		}
		j_arr_end();
		j_obj_end();
		j_end();
		return;
	}
	/* as a phase file: "slot N SRC:DST ..." (the dump is by slot) */
	for (i = 0; i < t->n; i++) {
		if (only >= 0 && t->c[i].slot != only)
			continue;
		if (t->c[i].slot != last) {
			if (last >= 0)
				putchar('\n');
			printf("slot %u", t->c[i].slot);
			last = t->c[i].slot;
		}
		ph_print_pair(&(struct hn_ctl_pair){ t->c[i].src, t->c[i].dst },
			      &t->c[i].path);
	}
	if (last >= 0)
		putchar('\n');
}

int cmd_circuits(struct hnctl *o, int argc, char **argv)
{
	struct hn_ctl_circuits t;
	int64_t only = -1;
	uint64_t v;
	int i, rc;

	for (i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "slot") && i + 1 < argc &&
		    !hnctl_num(argv[i + 1], UINT32_MAX, &v)) {
			only = (int64_t)v;
			i++;
			continue;
		}
		return hnctl_usage("circuits", "'%s': expected slot N",
				   argv[i]);
	}
	if (o->dry_run) {
		if (o->json) {
			j_obj(NULL);
			j_str("request", "circuit-get");
			j_bool("dump", 1);
			j_obj_end();
			j_end();
		} else {
			printf("circuit-get dump\n");
		}
		return 0;
	}
	rc = hnctl_connect(o);
	if (!rc)
		rc = hnctl_circuits(o, &t);
	if (rc)
		return rc;
	print_circuits(&t, only, o->json);
	hn_ctl_circuits_free(&t);
	return 0;
}
