/* SPDX-License-Identifier: GPL-2.0 */
/*
 * topts.h - the traffic options that "hnsim run --pattern" and hntraffic
 * share: the pattern and its parameters, message sizes, the injection
 * process, the seed and the methodology (warm-up, window, drain,
 * saturation).  One table, one parser, one help text, so the two tools
 * take the same words with the same meaning and fill the core's
 * struct hn_tcfg and struct hn_trun_cfg (kmod/core/hn_traffic.h) alike.
 *
 * A tool puts HN_TOPT_LONGOPTS in its getopt_long() table, numbers its
 * own long options from HN_TOPT_END, hands every result to
 * hn_topts_opt() first, and calls hn_topts_finish() after the loop.
 * Messages start with the tool's name (hn_topts_init()).
 */
#ifndef HN_TOPTS_H
#define HN_TOPTS_H

#include <getopt.h>
#include <stdio.h>
#include "hn_traffic.h"

enum {
	HN_TOPT_PATTERN = 256, HN_TOPT_ROOT, HN_TOPT_HOT, HN_TOPT_HOTF,
	HN_TOPT_PRED, HN_TOPT_DIRS, HN_TOPT_PHASE, HN_TOPT_RMESH,
	HN_TOPT_GRID, HN_TOPT_SIZE, HN_TOPT_LOAD, HN_TOPT_BATCH, HN_TOPT_GEN,
	HN_TOPT_CYCLE, HN_TOPT_WARM, HN_TOPT_MEAS, HN_TOPT_DRAIN,
	HN_TOPT_MAXQ, HN_TOPT_LIMIT, HN_TOPT_SEED, HN_TOPT_SATTOL,
	HN_TOPT_PHASES, HN_TOPT_MSGSW,
	HN_TOPT_END		/* a tool's own long options start here */
};

#define HN_TOPT_LONGOPTS						\
	{ "pattern", required_argument, NULL, HN_TOPT_PATTERN },	\
	{ "root", required_argument, NULL, HN_TOPT_ROOT },		\
	{ "hot", required_argument, NULL, HN_TOPT_HOT },		\
	{ "hot-frac", required_argument, NULL, HN_TOPT_HOTF },		\
	{ "pred", required_argument, NULL, HN_TOPT_PRED },		\
	{ "dirs", required_argument, NULL, HN_TOPT_DIRS },		\
	{ "phase-len", required_argument, NULL, HN_TOPT_PHASE },	\
	{ "phases", required_argument, NULL, HN_TOPT_PHASES },		\
	{ "rmesh", required_argument, NULL, HN_TOPT_RMESH },		\
	{ "grid", required_argument, NULL, HN_TOPT_GRID },		\
	{ "size", required_argument, NULL, HN_TOPT_SIZE },		\
	{ "load", required_argument, NULL, HN_TOPT_LOAD },		\
	{ "batch", required_argument, NULL, HN_TOPT_BATCH },		\
	{ "gen-rate", required_argument, NULL, HN_TOPT_GEN },		\
	{ "cycle", required_argument, NULL, HN_TOPT_CYCLE },		\
	{ "warmup", required_argument, NULL, HN_TOPT_WARM },		\
	{ "measure", required_argument, NULL, HN_TOPT_MEAS },		\
	{ "drain", required_argument, NULL, HN_TOPT_DRAIN },		\
	{ "max-queue", required_argument, NULL, HN_TOPT_MAXQ },		\
	{ "limit", required_argument, NULL, HN_TOPT_LIMIT },		\
	{ "seed", required_argument, NULL, HN_TOPT_SEED },		\
	{ "sat-tol", required_argument, NULL, HN_TOPT_SATTOL },		\
	{ "msg-switching", required_argument, NULL, HN_TOPT_MSGSW }

struct hn_topts {
	const char *prog;		/* "hnsim run", "hntraffic" */
	struct hn_tcfg t;		/* complete after hn_topts_finish() */
	struct hn_trun_cfg r;		/* the method options land here */
	/* as given, applied by hn_topts_finish() */
	const char *pattern, *hot, *size;
	long long pred, hotf;		/* ppm, -1: not given */
	u32 root, dirs, phase, rmesh, gw, gh;
	int have_load, have_batch, have_root;
};

void hn_topts_init(struct hn_topts *o, const char *prog);
/*
 * One getopt_long() result @c with its @arg: 0 taken, 1 a bad value
 * (said on stderr), -1 not a traffic option.
 */
int hn_topts_opt(struct hn_topts *o, int c, const char *arg);
/*
 * After the options: the pattern, exactly one of --load and --batch, the
 * hot set and the sizes, for a run on @nodes nodes.  0, or 1 when
 * something is wrong (said on stderr).  The core's hn_tcfg_check() then
 * checks the whole against the network.
 */
int hn_topts_finish(struct hn_topts *o, u32 nodes);

/* Help: the pattern list, the pattern parameters and the size forms. */
void hn_topts_usage_patterns(FILE *f);

/* "12 B", "uniform 1..9 B", "bimodal 256 B / 8192 B w.p. 0.111111" */
const char *hn_topts_size_desc(const struct hn_tcfg *t, char *buf, size_t n);

/* Ratios ("0.35", "35%") are read by hn_parse_ppm() (tools/common/parse.h). */
int hn_topt_u64(const char *s, unsigned long long *v);	/* 0 or -1 */
int hn_topt_u32(const char *s, u32 *v);			/* 0 or -1 */
/* "PROG: OPT 'VAL': WHAT" on stderr; returns 1 */
int hn_topt_err(const char *prog, const char *opt, const char *val,
		const char *what);

#endif /* HN_TOPTS_H */
