// SPDX-License-Identifier: GPL-2.0
/*
 * run_report.c - what "hnsim run --pattern" prints of a point (hnsim.h):
 * for people, or its fields as one JSON object or one CSV row.  The
 * fields are listed once, in run_fields(), for both: a CSV column is the
 * JSON member of the same name, with the same value (the sample periods'
 * arrays are JSON only), and a figure the point did not measure is null
 * in JSON and empty in CSV, never 0.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cfg_field.h"
#include "fab_name.h"
#include "hnsim.h"
#include "hn_traffic.h"
#include "topts.h"

#define U(x) ((unsigned long long)(x))

/* a percentile: an upper bound, within [min, max] (hn_hist_percentile) */
static u64 pct(const struct hn_tres *r, u32 permille)
{
	return hn_hist_percentile(r->hist, r->lat_min, r->lat_max, permille);
}

/* the sample periods' figures: @what 0 mean latency, 1 offered, 2 accepted */
static u64 smp(const struct hn_tres *r, u32 i, int what, double cap)
{
	u64 b = what == 1 ? r->smp_gen_bytes[i] : r->smp_acc_bytes[i];

	if (!what)
		return r->smp_lat_n[i] ? r->smp_lat_sum[i] / r->smp_lat_n[i] : 0;
	return cap > 0 ? (u64)(b * 1e6 / cap + 0.5) : 0;
}

/* bytes the senders' links carry in one sample period */
static double smp_cap(const struct hn_config *c, const struct hn_trun_cfg *rc,
		      const struct hn_tres *r)
{
	return (double)rc->measure_ns / HN_TRUN_SAMPLES * c->link_mbps /
	       8000 * r->active;
}

/* "+12.3 %": the second half's mean latency against the first's */
static double rise_pct(const struct hn_tres *r)
{
	return r->lat_first ? 100.0 * ((double)r->lat_second - r->lat_first) /
			      r->lat_first : 0;
}

static void print_convergence(FILE *f, const struct hn_trun_cfg *rc,
			      const struct hn_tres *r)
{
	u32 i;

	fprintf(f, "convergence mean latency by generation, %u sample periods of %llu ns:",
		HN_TRUN_SAMPLES, U(rc->measure_ns / HN_TRUN_SAMPLES));
	for (i = 0; i < HN_TRUN_SAMPLES; i++)
		fprintf(f, " %llu", U(smp(r, i, 0, 0)));
	fprintf(f, " ns\n");
	fprintf(f, "            halves %llu, %llu ns (%+.1f %%); trend S = %d over %u periods, a rise from %u (%s): %s\n",
		U(r->lat_first), U(r->lat_second), rise_pct(r),
		(int)r->trend_up - (int)r->trend_down, r->trend_periods,
		r->trend_min, r->warmup_capped ?
		"10 %, the warm-up never settled" : "0.1 %",
		r->end == HN_END_STOPPED ? "not judged" :
		r->rising ? "rising, not converged" : "converged");
}

/* predictive slots: given time, passed over empty (SES), preempted */
static void pslots(const struct hn_gstats *g, u32 k, u64 *run, u64 *skip,
		   u64 *pre)
{
	u32 s;

	*run = *skip = *pre = 0;
	for (s = 0; s < k; s++) {
		*run += g->slot[s].runs;
		*skip += g->slot[s].skipped;
		*pre += g->slot[s].preempted;
	}
}

/*
 * The deadlock's cycle of channels as text, each "SW.PORT/LINK", the
 * first HN_DL_MAX; "" when the fabric is not deadlocked.
 */
static const char *cycle_text(const struct hn_engine *e, char *buf,
			      size_t len)
{
	struct hn_deadlock d;
	size_t at = 0;
	u32 i;

	buf[0] = 0;
	if (hn_deadlock(e, &d))
		return buf;
	for (i = 0; i < d.n && i < HN_DL_MAX && at < len; i++) {
		at += (size_t)snprintf(buf + at, len - at, "%s%u.%u/%u",
				       i ? " " : "", d.ch[i].sw, d.ch[i].port,
				       d.ch[i].link);
		if (d.ch[i].vc != HN_NONE && at < len)
			at += (size_t)snprintf(buf + at, len - at, ":v%u",
					       d.ch[i].vc);
	}
	return buf;
}

/* The messages' own switching (--msg-switching), "fabric" for none */
static const char *msg_switching(const struct hn_tcfg *t, char *buf,
				 u32 len)
{
	struct hn_config x;

	if (!t->sw)
		return "fabric";
	x.switching = t->sw - 1;
	return hn_cfg_print(&x, HN_CFG_switching, buf, len);
}

/*
 * The switches' own switching, "sw1.0=saf,sw1.1=vct" in the order of the
 * switches, allocated; NULL when none has one (or no memory).
 */
static char *switch_switching(const struct hn_engine *e)
{
	char name[HN_FAB_NAME_LEN], w[HN_CFG_TEXT_LEN], *buf;
	struct hn_fabric_info fi;
	struct hn_config x;
	size_t n = 0, len;
	u32 sw, flow;

	if (hn_fabric_info(e, &fi))
		return NULL;
	len = (size_t)fi.switches * (sizeof(name) + sizeof(w) + 2) + 1;
	buf = calloc(1, len);
	for (sw = 0; buf && sw < fi.switches; sw++) {
		flow = hn_switch_flow(e, sw);
		if (!flow || hn_fault_name(e, true, sw, name, sizeof(name)))
			continue;
		x.switching = flow - 1;
		n += snprintf(buf + n, len - n, "%s%s=%s", n ? "," : "", name,
			      hn_cfg_print(&x, HN_CFG_switching, w, sizeof(w)));
	}
	if (buf && !*buf) {
		free(buf);
		buf = NULL;
	}
	return buf;
}

static void print_human(FILE *f, const struct run_point *p)
{
	const struct hn_tcfg *t = p->t;
	const struct hn_trun_cfg *rc = p->rc;
	const struct hn_tres *r = p->r;
	const struct hn_config *c = hn_cfg(p->e);
	u64 run, skip, pre;
	u32 down_l, down_s;
	struct hn_gstats g;
	char pol[64], sz[96], cyc[HN_DL_MAX * 24], *own = switch_switching(p->e);

	hn_stats_global(p->e, &g);
	if (p->what)
		fprintf(f, "point       %u of %u: %s\n", p->index + 1, p->count,
			p->what);
	fprintf(f, "run         %s, %u nodes (%u send), net %s, slots %u, policy %s, seed %llu\n",
		hn_pattern_name(t->pattern), c->nodes, r->active,
		hn_net_name(rc->net), c->k,
		cfg_policy_name(c->policy, pol, sizeof(pol)), U(t->seed));
	if (t->inject == HN_INJ_BATCH)
		fprintf(f, "injection   batch of %u per sender, %s, generation %s%u Mb/s\n",
			t->batch, hn_topts_size_desc(t, sz, sizeof(sz)),
			t->gen_mbps ? "" : "unlimited, ", t->gen_mbps);
	else
		fprintf(f, "injection   Bernoulli, offered %.4f of the link, %s\n",
			t->load_ppm / 1e6, hn_topts_size_desc(t, sz, sizeof(sz)));
	if (t->sw)
		fprintf(f, "switching   the messages' own: %s (the fabric's: %s)\n",
			msg_switching(t, pol, sizeof(pol)),
			hn_cfg_print(c, HN_CFG_switching, sz, sizeof(sz)));
	if (own)
		fprintf(f, "switching   the switches' own: %s (the fabric's: %s)\n",
			own, hn_cfg_print(c, HN_CFG_switching, sz, sizeof(sz)));
	free(own);
	if (t->pattern == HN_PAT_PHASED)
		fprintf(f, "phases      %s, %u messages per ordered+random pair, ratio %.6f\n",
			hn_phases_name(t->phases), t->phase_msgs,
			t->pred_ppm / 1e6);
	fprintf(f, "ended       %s, at %llu ns virtual (%.3f s wall)\n", r->why,
		U(r->t_end), p->wall_s);
	if (r->end == HN_END_DEADLOCK)
		fprintf(f, "deadlock    a cycle of channels (switch.port/link), each held by a worm waiting for the next: %s\n",
			cycle_text(p->e, cyc, sizeof(cyc)));
	fprintf(f, "messages    generated %llu, delivered %llu (circuit %llu, wormhole %llu), not delivered %llu; measured %llu, of them delivered %llu\n",
		U(r->gen_msgs), U(r->done_msgs), U(g.rx_msgs[0]),
		U(g.rx_msgs[1]), U(r->gen_msgs - r->done_msgs - r->unreach_msgs),
		U(r->tagged),
		U(r->tagged_done));
	if (t->inject == HN_INJ_BERNOULLI && !r->measured_ns) {
		fprintf(f, "window      none: the run ended in the warm-up, after %llu ns, offered %.4f over it\n",
			U(r->warmup_taken_ns), r->offered_ppm / 1e6);
	} else if (t->inject == HN_INJ_BERNOULLI) {
		fprintf(f, "window      [%llu, %llu) ns, %llu ns of it measured; warm-up %llu ns (--warmup %llu%s)\n",
			U(r->warmup_taken_ns),
			U(r->warmup_taken_ns + rc->measure_ns),
			U(r->measured_ns), U(r->warmup_taken_ns),
			U(rc->warmup_ns), r->warmup_capped ?
			", cut at --warmup-max with the latency still rising" :
			", half the window, then while the latency rose");
		fprintf(f, "throughput  offered %.4f, accepted %.4f of the senders' link capacity (window)\n",
			r->offered_ppm / 1e6, r->accepted_ppm / 1e6);
		print_convergence(f, rc, r);
	}
	if (r->lat_n)
		fprintf(f, "latency     min %llu, mean %llu, p50 <= %llu, p99 <= %llu, max %llu ns (generation to delivery; p50, p99: upper bounds)\n",
			U(r->lat_min), U(r->lat_sum / r->lat_n),
			U(pct(r, 500)), U(pct(r, 990)), U(r->lat_max));
	report_mode_lat_human(f, r->lat_mode, r->hist_mode, r->lat_n_mode);
	fprintf(f, "utilisation %.2f %% of the senders' links, %.2f %% of all N links (Ch. 1)\n",
		r->util_ppm / 1e4, r->util_all_ppm / 1e4);
	fprintf(f, "circuits    %llu grants, %llu refusals, %llu time-outs, %llu plan groups; source queue max %llu\n",
		U(g.grants), U(g.refusals), U(g.timeouts), U(r->groups),
		U(r->queue_max));
	if (c->switching == HN_SWITCH_DROP)
		fprintf(f, "drop        %llu attempts, %llu dropped, %llu preempted (%llu late, %llu stub flits): %.4f of them through\n",
			U(g.attempts), U(g.drops), U(g.preemptions),
			U(g.preemptions_late), U(g.stub_flits), g.attempts ? 1.0 -
			(double)(g.drops + g.preemptions) / g.attempts : 0.0);
	hn_faults(p->e, &down_l, &down_s);
	if (down_l || down_s || r->unreach_msgs)
		fprintf(f, "faults      %u links and %u switches down; %llu messages refused, their destination cut off\n",
			down_l, down_s, U(r->unreach_msgs));
	if (hn_chans_down(p->e))
		fprintf(f, "faults      %u channels of links down, each link keeping one up\n",
			hn_chans_down(p->e));
	if (g.links_failed)
		fprintf(f, "failures    %llu links failed over time, %llu repaired (fault_mtbf_ns, fault_repair_ns)\n",
			U(g.links_failed), U(g.links_repaired));
	pslots(&g, c->k, &run, &skip, &pre);
	fprintf(f, "slots       predictive: %llu run, %llu skipped (empty), %llu preempted; wormhole: %llu run\n",
		U(run), U(skip), U(pre), U(g.slot[c->k].runs));
	if (p->links)
		links_report(f, RUN_HUMAN, p->e);
}

/* ---- the fields, for JSON and CSV ---- */

struct emit {
	FILE *f;
	int fmt;		/* RUN_JSON, RUN_CSV_HEAD, RUN_CSV */
	int n;			/* fields so far */
	const char *only;	/* --fields: the one field to print, or NULL */
	size_t only_len;
	int count;		/* only count the fields named @only */
};

/*
 * The field's name, or its separator; 0: print its value.  1: print
 * nothing of it (a header; another field than @only; counting).
 */
static int field(struct emit *o, const char *name)
{
	if (o->only && (strlen(name) != o->only_len ||
			strncmp(name, o->only, o->only_len)))
		return 1;
	if (o->count) {
		o->n++;
		return 1;
	}
	if (o->fmt == RUN_JSON)
		fprintf(o->f, "%s\"%s\": ", o->n ? ", " : "{", name);
	else if (o->fmt == RUN_CSV_HEAD)
		fprintf(o->f, "%s%s", o->n ? "," : "", name);
	else if (o->n)
		fputc(',', o->f);
	o->n++;
	return o->fmt == RUN_CSV_HEAD;
}

/* a number, or null (JSON) / nothing (CSV) when @have is 0 */
static void e_num(struct emit *o, const char *name, int have, u64 v)
{
	if (field(o, name))
		return;
	if (have)
		fprintf(o->f, "%llu", U(v));
	else if (o->fmt == RUN_JSON)
		fputs("null", o->f);
}

static void e_u64(struct emit *o, const char *name, u64 v)
{
	e_num(o, name, 1, v);
}

static void e_bool(struct emit *o, const char *name, int have, int v)
{
	if (field(o, name))
		return;
	if (have)
		fputs(v ? "true" : "false", o->f);
	else if (o->fmt == RUN_JSON)
		fputs("null", o->f);
}

/* a string: quoted in JSON; in CSV quoted when it has a comma or quote */
static void e_str(struct emit *o, const char *name, const char *s)
{
	const char *p;

	if (field(o, name))
		return;
	if (o->fmt == RUN_JSON || !strpbrk(s, ",\"\n")) {
		fprintf(o->f, o->fmt == RUN_JSON ? "\"%s\"" : "%s", s);
		return;
	}
	fputc('"', o->f);
	for (p = s; *p; p++)
		fprintf(o->f, *p == '"' ? "\"\"" : "%c", *p);
	fputc('"', o->f);
}

/* a -s key's value as given: a number, or a string */
static void e_given(struct emit *o, const char *name, const char *v)
{
	if (v[strspn(v, "0123456789")] || !*v)
		e_str(o, name, v);
	else if (!field(o, name))
		fputs(v, o->f);
}

/* the sample periods' figures, JSON only */
static void e_samples(struct emit *o, const char *name, const struct hn_tres *r,
		      int what, double cap)
{
	u32 i;

	if (o->fmt != RUN_JSON || field(o, name))
		return;
	fputc('[', o->f);
	for (i = 0; i < HN_TRUN_SAMPLES; i++)
		fprintf(o->f, "%s%llu", i ? ", " : "", U(smp(r, i, what, cap)));
	fputc(']', o->f);
}

/*
 * The window as measured, and the convergence test's figures: a Bernoulli
 * run's; CSV has the columns for every run, empty for a batch.
 */
static void e_convergence(struct emit *o, const struct run_point *p)
{
	const struct hn_tres *r = p->r;
	int b = p->t->inject == HN_INJ_BERNOULLI, m = b && r->measured_ns;
	double cap = smp_cap(hn_cfg(p->e), p->rc, r);

	if (!b && o->fmt == RUN_JSON)
		return;
	e_num(o, "warmup_taken_ns", b, r->warmup_taken_ns);
	e_num(o, "measured_ns", b, r->measured_ns);
	e_num(o, "sample_ns", b, p->rc->measure_ns / HN_TRUN_SAMPLES);
	e_samples(o, "sample_lat_mean", r, 0, 0);
	e_samples(o, "sample_offered_ppm", r, 1, cap);
	e_samples(o, "sample_accepted_ppm", r, 2, cap);
	e_num(o, "lat_mean_first", m, r->lat_first);
	e_num(o, "lat_mean_second", m, r->lat_second);
	e_num(o, "lat_trend_up", b, r->trend_up);
	e_num(o, "lat_trend_down", b, r->trend_down);
	e_num(o, "lat_trend_min", b, r->trend_min);
	e_num(o, "lat_trend_periods", b, r->trend_periods);
	e_bool(o, "warmup_capped", b, r->warmup_capped);
	e_bool(o, "converged", m, !r->rising);
}

/* lat_min_circuit_ns, ...: each mode's, null when it carried none */
static void e_mode_lat(struct emit *o, const struct hn_tres *r)
{
	static const char *const mode[HN_NMODES] = { "circuit", "wormhole" };
	static const char *const what[5] = { "min", "mean", "p50", "p99",
					     "max" };
	char key[32];
	u32 m, i;

	for (m = 0; m < HN_NMODES; m++) {
		const struct hn_lat *l = &r->lat_mode[m];
		u64 n = r->lat_n_mode[m];
		const u64 v[5] = {
			l->min, n ? l->sum / n : 0,
			hn_hist_percentile(r->hist_mode[m], l->min, l->max, 500),
			hn_hist_percentile(r->hist_mode[m], l->min, l->max, 990),
			l->max,
		};

		for (i = 0; i < 5; i++) {
			snprintf(key, sizeof(key), "lat_%s_%s_ns", what[i],
				 mode[m]);
			e_num(o, key, n != 0, v[i]);
		}
	}
}

static void run_fields(struct emit *o, const struct run_point *p)
{
	const struct hn_tcfg *t = p->t;
	const struct hn_tres *r = p->r;
	const struct hn_config *c = hn_cfg(p->e);
	int batch = t->inject == HN_INJ_BATCH, lat = r->lat_n != 0;
	u64 run, skip, pre;
	u32 down_l, down_s;
	struct hn_gstats g;
	char buf[64], cyc[HN_DL_MAX * 24], *own;
	u32 i;

	hn_stats_global(p->e, &g);
	e_str(o, "pattern", hn_pattern_name(t->pattern));
	e_u64(o, "nodes", c->nodes);
	e_u64(o, "active", r->active);
	e_str(o, "net", hn_net_name(p->rc->net));
	e_u64(o, "slots", c->k);
	e_str(o, "policy", cfg_policy_name(c->policy, buf, sizeof(buf)));
	e_u64(o, "seed", t->seed);
	for (i = 0; i < p->nset; i++)
		e_given(o, p->set[i].key, p->set[i].val);
	e_str(o, "inject", batch ? "batch" : "bernoulli");
	e_u64(o, "load_ppm", batch ? 0 : t->load_ppm);
	e_u64(o, "batch", batch ? t->batch : 0);
	e_u64(o, "size", t->size);
	e_u64(o, "size_max", t->size_dist == HN_SIZE_FIXED ? t->size :
	      t->size_max);
	e_str(o, "msg_switching", msg_switching(t, buf, sizeof(buf)));
	e_str(o, "end", r->end == HN_END_DONE ? "done" :
	      r->end == HN_END_LIMIT ? "limit" :
	      r->end == HN_END_DEADLOCK ? "deadlock" : "saturated");
	e_bool(o, "saturated", 1, r->end != HN_END_DONE &&
	       r->end != HN_END_LIMIT && r->end != HN_END_DEADLOCK);
	e_bool(o, "completed", 1, r->end == HN_END_DONE);
	e_str(o, "why", r->why);
	e_str(o, "deadlock_cycle", cycle_text(p->e, cyc, sizeof(cyc)));
	e_u64(o, "t_end_ns", r->t_end);
	if (!field(o, "wall_s"))
		fprintf(o->f, "%.6f", p->wall_s);
	e_convergence(o, p);
	e_u64(o, "gen_msgs", r->gen_msgs);
	e_u64(o, "gen_bytes", r->gen_bytes);
	e_u64(o, "done_msgs", r->done_msgs);
	e_u64(o, "done_bytes", r->done_bytes);
	e_u64(o, "circuit_msgs", g.rx_msgs[0]);
	e_u64(o, "wormhole_msgs", g.rx_msgs[1]);
	e_u64(o, "tagged", r->tagged);
	e_u64(o, "tagged_done", r->tagged_done);
	/* a batch measures no load; a run that ended in its warm-up measured
	 * no window: its offered load is the warm-up's (traffic_run.c)
	 */
	e_num(o, "offered_ppm", !batch, r->offered_ppm);
	e_num(o, "accepted_ppm", !batch && r->measured_ns, r->accepted_ppm);
	e_u64(o, "util_ppm", r->util_ppm);
	e_u64(o, "util_all_ppm", r->util_all_ppm);
	e_num(o, "lat_min_ns", lat, r->lat_min);
	e_num(o, "lat_mean_ns", lat, lat ? r->lat_sum / r->lat_n : 0);
	e_num(o, "lat_p50_ns", lat, pct(r, 500));
	e_num(o, "lat_p99_ns", lat, pct(r, 990));
	e_num(o, "lat_max_ns", lat, r->lat_max);
	e_mode_lat(o, r);
	pslots(&g, c->k, &run, &skip, &pre);
	e_u64(o, "pslot_runs", run);
	e_u64(o, "pslot_skipped", skip);
	e_u64(o, "pslot_preempted", pre);
	e_u64(o, "wslot_runs", g.slot[c->k].runs);
	e_u64(o, "grants", g.grants);
	e_u64(o, "refusals", g.refusals);
	e_u64(o, "timeouts", g.timeouts);
	e_u64(o, "releases", g.releases);
	e_u64(o, "circuit_reroutes", g.circuit_reroutes);
	e_u64(o, "groups", r->groups);
	e_u64(o, "queue_max", r->queue_max);
	e_u64(o, "attempts", g.attempts);
	e_u64(o, "drops", g.drops);
	e_u64(o, "preemptions", g.preemptions);
	e_u64(o, "preemptions_late", g.preemptions_late);
	e_u64(o, "stub_flits", g.stub_flits);
	hn_faults(p->e, &down_l, &down_s);
	e_u64(o, "links_down", down_l);
	e_u64(o, "channels_down", hn_chans_down(p->e));
	e_u64(o, "switches_down", down_s);
	e_u64(o, "unreach_msgs", r->unreach_msgs);
	own = switch_switching(p->e);
	e_str(o, "switch_switching", own ? own : "fabric");
	free(own);
	e_u64(o, "links_failed", g.links_failed);
	e_u64(o, "links_repaired", g.links_repaired);
	if (p->links && o->fmt == RUN_JSON && !field(o, "links"))
		links_report(o->f, RUN_JSON, p->e);
}

void run_report(FILE *f, int fmt, const struct run_point *p)
{
	struct emit o = { .f = f, .fmt = fmt };
	const char *s;

	if (fmt == RUN_HUMAN) {
		print_human(f, p);
		return;
	}
	if (!p->fields)
		run_fields(&o, p);
	for (s = p->fields; s && *s; s += o.only_len + !!s[o.only_len]) {
		o.only = s;
		o.only_len = strcspn(s, ",");
		run_fields(&o, p);
	}
	fputs(fmt == RUN_JSON ? "}\n" : "\n", f);
}

int run_fields_check(int fmt, const struct run_point *p)
{
	struct emit o = { .fmt = fmt == RUN_CSV ? RUN_CSV_HEAD : fmt,
			  .count = 1 };
	const char *s;

	for (s = p->fields; *s; s += o.only_len + !!s[o.only_len]) {
		o.only = s;
		o.only_len = strcspn(s, ",");
		o.n = 0;
		run_fields(&o, p);
		if (!o.n) {
			fprintf(stderr, "hnsim run: --fields: no %s '%.*s' (%s)\n",
				fmt == RUN_JSON ? "key" : "column",
				(int)o.only_len, s, fmt == RUN_JSON ?
				"the keys: hnsim run --json without --fields" :
				"the columns: the header of hnsim run --csv without --fields");
			return -EINVAL;
		}
	}
	return 0;
}
