// SPDX-License-Identifier: GPL-2.0
/*
 * topts.c - the traffic options of "hnsim run --pattern" and hntraffic
 * (topts.h): parsing into the core's struct hn_tcfg and hn_trun_cfg, and
 * the help text of the patterns and sizes.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "cfg_field.h"
#include "parse.h"
#include "topts.h"

int hn_topt_err(const char *prog, const char *opt, const char *val,
		const char *what)
{
	fprintf(stderr, "%s: %s '%s': %s\n", prog, opt, val, what);
	return 1;
}

/*
 * A list or a range where one value goes: hnsim run makes a sweep of it
 * and hands each point one value (sweep.c); any other tool runs once.
 */
static int one_value(const char *prog, const char *opt, const char *arg)
{
	return hn_topt_err(prog, opt, arg,
			   "one value here: lists and ranges (A,B and FIRST:LAST:STEP) are sweeps, which hnsim run runs");
}

int hn_topt_u64(const char *s, unsigned long long *v)
{
	char *end;

	errno = 0;
	if (!*s || *s == '-')
		return -1;
	*v = strtoull(s, &end, 0);
	return errno || *end ? -1 : 0;
}

int hn_topt_u32(const char *s, u32 *v)
{
	unsigned long long x;

	if (hn_topt_u64(s, &x) || x > 0xffffffffULL)
		return -1;
	*v = (u32)x;
	return 0;
}

static int parse_size(const char *s, struct hn_tcfg *t)
{
	char buf[96], *a, *b, *c;
	long long f;

	if (!strcmp(s, "80/80")) {
		t->size_dist = HN_SIZE_BIMODAL;
		t->size = HN_8080_SMALL;
		t->size_max = HN_8080_LARGE;
		t->large_ppm = HN_8080_PPM;
		return 0;
	}
	if (strlen(s) >= sizeof(buf))
		return -1;
	strcpy(buf, s);
	if (!strncmp(buf, "bimodal:", 8)) {
		a = buf + 8;
		b = strchr(a, ',');
		c = b ? strchr(b + 1, ',') : NULL;
		if (!b || !c)
			return -1;
		*b++ = 0;
		*c++ = 0;
		f = hn_parse_ppm(c);
		if (hn_topt_u32(a, &t->size) || hn_topt_u32(b, &t->size_max) ||
		    f < 0)
			return -1;
		t->large_ppm = (u32)f;
		t->size_dist = HN_SIZE_BIMODAL;
		return 0;
	}
	a = strchr(buf, '-');
	if (a) {
		*a++ = 0;
		t->size_dist = HN_SIZE_UNIFORM;
		return hn_topt_u32(buf, &t->size) ||
		       hn_topt_u32(a, &t->size_max);
	}
	t->size_dist = HN_SIZE_FIXED;
	if (hn_topt_u32(buf, &t->size))
		return -1;
	t->size_max = t->size;
	return 0;
}

static int parse_hot(const char *s, struct hn_tcfg *t)
{
	char buf[256], *tok, *save;

	if (strlen(s) >= sizeof(buf))
		return -1;
	strcpy(buf, s);
	t->nhot = 0;
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (t->nhot == HN_MAX_HOT ||
		    hn_topt_u32(tok, &t->hot[t->nhot]))
			return -1;
		t->nhot++;
	}
	return t->nhot ? 0 : -1;
}

void hn_topts_init(struct hn_topts *o, const char *prog)
{
	memset(o, 0, sizeof(*o));
	o->prog = prog;
	hn_tcfg_default(&o->t, 0);
	hn_trun_cfg_default(&o->r);
	o->pred = o->hotf = -1;
	o->dirs = 4;
	o->phase = 256;
	o->rmesh = 16;
	o->size = "128";
}

int hn_topts_opt(struct hn_topts *o, int c, const char *arg)
{
	const char *p = o->prog;
	char why[HN_CFG_WHY_LEN];
	struct hn_config x;
	unsigned long long v;
	long long ppm;
	int rv;

	switch (c) {
	case HN_TOPT_PATTERN:
		o->pattern = arg;
		return 0;
	case HN_TOPT_ROOT:
		if (hn_topt_u32(arg, &o->root))
			return hn_topt_err(p, "--root", arg, "not a node number");
		o->have_root = 1;
		return 0;
	case HN_TOPT_HOT:
		o->hot = arg;
		return 0;
	case HN_TOPT_HOTF:
		o->hotf = hn_parse_ppm(arg);
		if (o->hotf < 0 || o->hotf > 1000000)
			return hn_topt_err(p, "--hot-frac", arg,
					   "want a fraction 0..1");
		return 0;
	case HN_TOPT_PRED:
		o->pred = hn_parse_ppm(arg);
		if (o->pred < 0 || o->pred > 1000000)
			return hn_topt_err(p, "--pred", arg, "want a ratio 0..1");
		return 0;
	case HN_TOPT_DIRS:
		if (hn_topt_u32(arg, &o->dirs))
			return hn_topt_err(p, "--dirs", arg, "want 1..4");
		return 0;
	case HN_TOPT_PHASE:
		if (hn_topt_u32(arg, &o->phase))
			return hn_topt_err(p, "--phase-len", arg, "want messages");
		return 0;
	case HN_TOPT_PHASES:
		rv = hn_phases_parse(arg);
		if (rv < 0) {
			fprintf(stderr, "%s: --phases '%s': want one of", p, arg);
			for (rv = 0; hn_phases_name(rv); rv++)
				fprintf(stderr, " %s", hn_phases_name(rv));
			fprintf(stderr, "\n");
			return 1;
		}
		o->t.phases = (u32)rv;
		return 0;
	case HN_TOPT_RMESH:
		if (hn_topt_u32(arg, &o->rmesh))
			return hn_topt_err(p, "--rmesh", arg, "want messages");
		return 0;
	case HN_TOPT_GRID:
		if (sscanf(arg, "%ux%u", &o->gw, &o->gh) != 2)
			return hn_topt_err(p, "--grid", arg, "want WxH");
		return 0;
	case HN_TOPT_SIZE:
		o->size = arg;
		return 0;
	case HN_TOPT_LOAD:
		if (strpbrk(arg, ",:"))
			return one_value(p, "--load", arg);
		ppm = hn_parse_ppm(arg);
		if (ppm < 0)
			return hn_topt_err(p, "--load", arg,
					   "not a load: want a fraction of the link rate, 0 < L <= 1");
		if (ppm == 0 || ppm > 1000000)
			return hn_topt_err(p, "--load", arg,
					   "out of range: the offered load must be above 0 and at most 1 (the link rate)");
		o->t.load_ppm = (u32)ppm;
		o->have_load = 1;
		return 0;
	case HN_TOPT_BATCH:
		if (hn_topt_u32(arg, &o->t.batch) || !o->t.batch)
			return hn_topt_err(p, "--batch", arg,
					   "want messages per sender, >= 1");
		o->have_batch = 1;
		return 0;
	case HN_TOPT_GEN:
		if (hn_topt_u32(arg, &o->t.gen_mbps))
			return hn_topt_err(p, "--gen-rate", arg, "want Mb/s");
		return 0;
	case HN_TOPT_MSGSW:	/* the words of the fabric's switching */
		if (hn_cfg_parse(&x, HN_CFG_switching, arg, why, sizeof(why)) ||
		    x.switching == HN_SWITCH_DROP)
			return hn_topt_err(p, "--msg-switching", arg,
					   "want wormhole, vct or saf");
		o->t.sw = x.switching + 1;
		return 0;
	case HN_TOPT_CYCLE:
		if (hn_topt_u32(arg, &o->t.cycle_ns))
			return hn_topt_err(p, "--cycle", arg, "want ns");
		return 0;
	case HN_TOPT_WARM:
	case HN_TOPT_MEAS:
	case HN_TOPT_DRAIN:
	case HN_TOPT_LIMIT:
		if (hn_topt_u64(arg, &v))
			return hn_topt_err(p, c == HN_TOPT_WARM ? "--warmup" :
					   c == HN_TOPT_MEAS ? "--measure" :
					   c == HN_TOPT_DRAIN ? "--drain" :
					   "--limit", arg, "want ns");
		if (c == HN_TOPT_WARM)
			o->r.warmup_ns = v;
		else if (c == HN_TOPT_MEAS)
			o->r.measure_ns = v;
		else if (c == HN_TOPT_DRAIN)
			o->r.drain_ns = v;
		else
			o->r.limit_ns = v;
		return 0;
	case HN_TOPT_MAXQ:
		if (hn_topt_u32(arg, &o->r.max_queue))
			return hn_topt_err(p, "--max-queue", arg, "want messages");
		return 0;
	case HN_TOPT_SEED:
		if (strpbrk(arg, ",:"))
			return one_value(p, "--seed", arg);
		if (hn_topt_u64(arg, &v))
			return hn_topt_err(p, "--seed", arg, "want a number");
		o->t.seed = v;
		return 0;
	case HN_TOPT_SATTOL:
		ppm = hn_parse_ppm(arg);
		if (ppm < 0 || ppm > 1000000)
			return hn_topt_err(p, "--sat-tol", arg,
					   "want a fraction 0..1");
		o->r.sat_tol_ppm = (u32)ppm;
		return 0;
	default:
		return -1;
	}
}

int hn_topts_finish(struct hn_topts *o, u32 nodes)
{
	struct hn_tcfg *t = &o->t;
	int rv;

	if (!o->pattern) {
		fprintf(stderr, "%s: --pattern NAME is required; try '%s --help'\n",
			o->prog, o->prog);
		return 1;
	}
	if (strpbrk(o->pattern, ",:"))
		return one_value(o->prog, "--pattern", o->pattern);
	rv = hn_pattern_parse(o->pattern);
	if (rv < 0) {
		fprintf(stderr, "%s: unknown pattern '%s'; the patterns are:",
			o->prog, o->pattern);
		for (rv = 0; hn_pattern_name(rv); rv++)
			fprintf(stderr, " %s", hn_pattern_name(rv));
		fprintf(stderr, "\n");
		return 1;
	}
	t->pattern = (u32)rv;
	if (o->have_load == o->have_batch) {
		fprintf(stderr, "%s: give exactly one of --load L (Bernoulli) and --batch M\n",
			o->prog);
		return 1;
	}
	t->inject = o->have_batch ? HN_INJ_BATCH : HN_INJ_BERNOULLI;
	t->nodes = nodes;
	t->root = o->root;
	t->dirs = o->dirs;
	t->phase_msgs = o->phase;
	t->rmesh_msgs = o->rmesh;
	t->grid_w = o->gw;
	t->grid_h = o->gh;
	if (o->pred >= 0)
		t->pred_ppm = (u32)o->pred;
	if (o->hotf >= 0)
		t->hot_ppm = (u32)o->hotf;
	if (o->hot && parse_hot(o->hot, t))
		return hn_topt_err(o->prog, "--hot", o->hot,
				   "want up to 16 node numbers, comma-separated");
	if (parse_size(o->size, t))
		return hn_topt_err(o->prog, "--size", o->size,
				   "want B, A-B, bimodal:S,L,F or 80/80");
	return 0;
}

const char *hn_topts_size_desc(const struct hn_tcfg *t, char *buf, size_t n)
{
	if (t->size_dist == HN_SIZE_UNIFORM)
		snprintf(buf, n, "uniform %u..%u B", t->size, t->size_max);
	else if (t->size_dist == HN_SIZE_BIMODAL)
		snprintf(buf, n, "bimodal %u B / %u B w.p. %.6f", t->size,
			 t->size_max, t->large_ppm / 1e6);
	else
		snprintf(buf, n, "%u B", t->size);
	return buf;
}

void hn_topts_usage_patterns(FILE *f)
{
	u32 i;

	fprintf(f, "Patterns (destination formulas: docs/model.md, 'Traffic'):\n ");
	for (i = 0; hn_pattern_name(i); i++)
		fprintf(f, " %s", hn_pattern_name(i));
	fprintf(f,
"\n"
"  --root R          scatter: the sending node (0)\n"
"  --hot LIST        hotspot: hot nodes, comma-separated (0)\n"
"  --hot-frac F      hotspot: fraction of messages to the hot set (0.1)\n"
"  --pred F          mixed, phased: predictable (ordered-mesh) ratio (0.5)\n"
"  --dirs D          mixed, phased: mesh directions used, 1..4 (4)\n"
"  --phase-len M     phased: messages per node per ordered+random pair (256)\n"
"  --phases global   phased (Sec. 4.6.2): the machine goes through each phase\n"
"                    together (a node starts its next phase once every message\n"
"                    of the current one has arrived); the NIC's table tags\n"
"                    every message, as the text's NIC does (the default)\n"
"  --phases global-hint  the same, and the PE hints random-phase messages\n"
"                    wormhole, past the table (our option)\n"
"  --phases per-node each node through its own phases, unsynchronised; the\n"
"                    NIC's table tags every message\n"
"  --rmesh M         two-phase: random-mesh messages after the all-to-all (16)\n"
"  --grid WxH        grid of the mesh patterns, tornado, neighbor (auto)\n"
"Sizes (--size, default 128):\n"
"  B                 fixed, bytes\n"
"  A-B               uniform on A..B\n"
"  bimodal:S,L,F     L bytes with probability F, else S\n"
"  80/80             Ch. 1's rule (Sec. 1.1.2): bimodal:256,8192,0.111111 - 8/9 of\n"
"                    messages 256 B, 80 %% of the bytes in 8 KB messages\n");
}
