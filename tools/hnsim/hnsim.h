/* SPDX-License-Identifier: GPL-2.0 */
/* hnsim.h - the parts of hnsim: options, trace driver, report, sched. */
#ifndef HNSIM_H
#define HNSIM_H

#include <getopt.h>
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
const char *cfg_policy_name(u32 policy, char *buf, size_t len);
void cfg_print_keys(FILE *f);
void cfg_print(FILE *f, const struct hn_config *c, u32 preload);
void cfg_print_json(FILE *f, const struct hn_config *c);
/* -c FILE and the engine's options (cfg_file.c) */
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

/* a trace run (trace.c) and its statistics (trace_report.c) */
int trace_run(struct sim_opts *o, struct hn_engine **ep,
	      struct sim_result *res);

void report(FILE *f, const struct sim_opts *o, struct hn_engine *e,
	    const struct sim_result *res);
/*
 * Each mode's latency, of @n[mode] messages, @lat[mode] and @hist[mode]:
 * JSON members lat_min_circuit_ns, lat_mean_circuit_ns, lat_p50_..,
 * lat_p99_.., lat_max_.., the same for wormhole (each followed by ", "),
 * or a line per mode that carried any (the trace's and run's reports).
 */
void report_mode_lat_json(FILE *f, const struct hn_lat *lat,
			  const u64 (*hist)[HN_HIST_BUCKETS], const u64 *n);
void report_mode_lat_human(FILE *f, const struct hn_lat *lat,
			   const u64 (*hist)[HN_HIST_BUCKETS], const u64 *n);

/* "hnsim sched ...": scheduler experiments (sched_study.c) */
int sched_main(int argc, char **argv);

/* "hnsim idem ...": Woods-Corwin's three messages as traffic (idem.c) */
int idem_main(int argc, char **argv);

/* "hnsim mrp ...": Woods-Corwin's MRP route words (mrp.c) */
int mrp_main(int argc, char **argv);

/* "hnsim run --pattern ...": synthetic traffic (run.c) */
int run_wanted(int argc, char **argv);
int run_main(int argc, char **argv);

/* what hnsim run prints of a point (run_report.c) */
enum { RUN_HUMAN, RUN_JSON, RUN_CSV_HEAD, RUN_CSV };

struct run_set {		/* a swept -s KEY and the point's value */
	const char *key, *val;
};

struct run_point {
	const struct hn_tcfg *t;
	const struct hn_trun_cfg *rc;
	struct hn_engine *e;
	const struct hn_tres *r;
	double wall_s;
	const char *what;	/* a sweep's point: what it sets; or NULL */
	u32 index, count;	/* of a sweep */
	const struct run_set *set;	/* columns of the swept -s keys */
	u32 nset;
	int links;		/* --links: the links' and switches' figures */
	const char *fields;	/* --fields: these, in this order; or NULL */
};

/*
 * @fmt RUN_HUMAN, RUN_JSON (one line), RUN_CSV_HEAD or RUN_CSV (a row);
 * with @p->fields, only those keys or columns, in that order
 */
void run_report(FILE *f, int fmt, const struct run_point *p);

/* -EINVAL (said on stderr) if @p->fields names one @fmt has not */
int run_fields_check(int fmt, const struct run_point *p);

/*
 * links_report.c: the links' and switches' statistics of @e, a table
 * (RUN_HUMAN) or, RUN_JSON, the text '[...], "switches": [...]' (the
 * value of a "links" key, and one key more); every fabric has them, the
 * crossbar one switch whose port p is node p's link
 */
void links_report(FILE *f, int fmt, struct hn_engine *e);

/*
 * hnsim run's sweeps (sweep.c): an option of the table of struct
 * sweep_opt whose value is a list A,B,... of values or ranges
 * FIRST:LAST:STEP is a dimension; the points are the cross product, the
 * table's first option varying slowest (-s keys in the order given), the
 * last fastest.  A point is the command line with each list replaced by
 * one of its values.
 */
enum sweep_kind {
	SWEEP_WORD,		/* a list of words */
	SWEEP_NUMBER,		/* whole numbers, ranges too */
	SWEEP_RATIO,		/* ratios (hn_parse_ppm), ranges in millionths */
	SWEEP_KEYED,		/* -s KEY=LIST: numbers or words */
};

struct sweep_opt {
	int opt;		/* the getopt_long() result */
	const char *name;	/* "--load" */
	enum sweep_kind kind;
};

#define SWEEP_MAX_DIMS	16

struct sweep_dim {
	const struct sweep_opt *opt;
	char key[32];		/* -s: the key, '-' as '_' */
	const char *given;	/* the option's argument as given */
	int arg;		/* the element of argv that holds the list */
	size_t at;		/* where in it the list starts */
	char **item;		/* the values, as a single run takes them */
	u32 n;
};

struct sweep {
	int argc;
	char **argv;		/* the command line as given */
	struct sweep_dim dim[SWEEP_MAX_DIMS];	/* slowest first */
	u32 ndim;
	u32 npoints;		/* 1 without a list */
};

/* 0, or -1 when a list is wrong (said on stderr) */
int sweep_parse(struct sweep *s, int argc, char **argv,
		const struct option *lo, const char *shortopts,
		const struct sweep_opt *sw, u32 nsw);
/* point @i's command line (sweep_argv_free() it), its value of list @j */
char **sweep_argv(const struct sweep *s, u32 i);
void sweep_argv_free(const struct sweep *s, char **argv);
const char *sweep_value(const struct sweep *s, u32 i, u32 j);
/* "--pattern uniform --load 0.1 -s switching=vct": what point @i sets */
void sweep_describe(const struct sweep *s, u32 i, char *buf, size_t len);
void sweep_free(struct sweep *s);

#endif
