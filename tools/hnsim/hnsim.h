/* SPDX-License-Identifier: GPL-2.0 */
/* hnsim.h - the parts of hnsim: options, trace driver, report, sched. */
#ifndef HNSIM_H
#define HNSIM_H

#include <stdio.h>
#include "hn_core.h"

struct sim_opts {
	struct hn_config cfg;
	const char *trace;		/* path, "-" for stdin */
	u64 until;			/* 0: run until drained */
	int json;
	int per_node;
	int progress;			/* -1: when stderr is a terminal */
	u32 preload;			/* 1: preload=shift at time 0 */
};

struct sim_result {
	u64 events;			/* trace lines applied */
	u64 retries;			/* injections that waited for room */
	u64 max_blocked;		/* most messages waiting at once */
	u64 waiting;			/* never accepted by their NIC */
	int drained;			/* nothing left in flight at the end */
	double wall_s;
};

/*
 * configuration keys and policy names (cfg_keys.c); @preload, where not
 * NULL, takes the key preload (0 none, 1 shift)
 */
int cfg_set(struct hn_config *c, u32 *preload, const char *key,
	    const char *val, char *why, size_t whylen);
int cfg_policy(const char *s, u32 *policy);
const char *cfg_policy_name(u32 policy, char *buf, size_t len);
void cfg_print_keys(FILE *f);
void cfg_print(FILE *f, const struct hn_config *c, u32 preload);
void cfg_print_json(FILE *f, const struct hn_config *c);
int cfg_file(struct hn_config *c, u32 *preload, const char *path,
	     const char *prog);
/*
 * The engine's options of every hnsim mode (getopt result @opt, its
 * @arg): -p PROFILE, -t TOPOLOGY, -n N, -k K, -P POLICY, -s KEY=VALUE,
 * -c FILE.
 * 0 taken, 1 a bad value (said on stderr after @prog), -1 not one.
 */
int cfg_opt(struct hn_config *c, u32 *preload, int opt, char *arg,
	    const char *prog);
/* those options, for every mode's getopt_long() table and short string */
#define HNSIM_CFG_LONGOPTS						\
	{ "profile", required_argument, NULL, 'p' },			\
	{ "topology", required_argument, NULL, 't' },			\
	{ "nodes", required_argument, NULL, 'n' },			\
	{ "slots", required_argument, NULL, 'k' },			\
	{ "policy", required_argument, NULL, 'P' },			\
	{ "set", required_argument, NULL, 's' },			\
	{ "config", required_argument, NULL, 'c' }
#define HNSIM_CFG_SHORTOPTS	"p:t:n:k:P:s:c:"

/* a configuration file whole, NUL-ended, or NULL (said); cfg_json.c */
char *cfg_read(const char *path);
/* hnctl show -j's object: profile first, then every other member */
int cfg_json(struct hn_config *c, u32 *preload, char *text,
	     const char *path, const char *prog);

/* a trace run (trace.c) and its statistics (trace_report.c) */
int trace_run(struct sim_opts *o, struct hn_engine **ep,
	      struct sim_result *res);

void report(FILE *f, const struct sim_opts *o, struct hn_engine *e,
	    const struct sim_result *res);

/* "hnsim sched ...": scheduler experiments (sched_study.c) */
int sched_main(int argc, char **argv);

/* "hnsim run --pattern ...": synthetic traffic (run.c) */
int run_wanted(int argc, char **argv);
int run_main(int argc, char **argv);

#endif
