/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hnctl.h - hnctl, the control tool of hybridnet: shared state, the
 * command table and helpers.
 *
 * Exit status: 0 done; 1 bad usage or input (command line, phase file);
 * 2 the kernel refused or could not be reached; 3 "monitor --count N
 * --timeout S" saw fewer than N events; 4 predict: every request was
 * refused.
 */
#ifndef HNCTL_H
#define HNCTL_H

#include <stdint.h>

#include "libhybridnet.h"

#define EXIT_USAGE	1
#define EXIT_KERNEL	2
#define EXIT_TIMEOUT	3
#define EXIT_REFUSED	4

struct hnctl {
	uint32_t fabric;		/* -f; HN_CTL_FIRST_FABRIC */
	int json;			/* -j */
	int pretty;			/* -p: JSON indented */
	int dry_run;			/* -n: print the request, send nothing */
	const char *config_file;	/* -c: the fabric of a dry run */
	struct hn_ctl *ctl;		/* once connected */
	const char *help;		/* the command's: -h, --help */
};

struct hnctl_cmd {
	const char *name;
	int (*run)(struct hnctl *o, int argc, char **argv);
	const char *summary;		/* one line for "hnctl --help" */
	const char *help;		/* "hnctl NAME --help" */
};

extern const struct hnctl_cmd hnctl_cmds[];

/*
 * Open the control handle (or say why not), on the fabric of -f: 0 or
 * EXIT_KERNEL.
 */
int hnctl_connect(struct hnctl *o);
/*
 * The sysfs directory of the fabric the handle is on,
 * /sys/class/hybridnet/fabricN, into @buf: 0 or the call's errno.
 */
int hnctl_sysfs_dir(struct hnctl *o, char *buf, size_t len);
/* "hnctl: WHAT refused: REASON" (or strerror); returns EXIT_KERNEL. */
int hnctl_refused(struct hnctl *o, const char *what, int rc);
/* Every circuit (a dump a change interrupted is tried again): 0, or
 * EXIT_KERNEL once said why. */
int hnctl_circuits(struct hnctl *o, struct hn_ctl_circuits *t);
/* "hnctl CMD: MESSAGE" and a pointer to --help; returns EXIT_USAGE. */
int hnctl_usage(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * Take the options every command shares (-j, -p, -n, -h and their long
 * forms) out of @argv wherever they stand, the other words kept in order:
 * how many are left, or -1 once -h has printed the command's help.
 */
int hnctl_common_opts(struct hnctl *o, int argc, char **argv);
/* Print a help text (stdout), its lines @KEYS@ and @VALUES@ filled in. */
void hnctl_help(const char *text);

/* Numbers: decimal or 0x hex, whole token, within [0, max]. */
int hnctl_num(const char *s, uint64_t max, uint64_t *v);
/*
 * A number as hnctl_num(), or decimal digits with a unit of @units:
 * HNCTL_UNIT_TIME ns, us, ms, s (in ns); HNCTL_UNIT_BYTES K or k, M
 * (in bytes).  The value, unit applied, is within [0, max].
 */
#define HNCTL_UNIT_TIME		1u
#define HNCTL_UNIT_BYTES	2u
int hnctl_num_unit(const char *s, unsigned int units, uint64_t max,
		   uint64_t *v);
/* "SRC:DST" */
int hnctl_pair(const char *s, struct hn_ctl_pair *p);
/* The name of a grant result, or its number written into @num. */
const char *hnctl_grant_str(unsigned int result, char *num, size_t len);

/* Configuration as text ("nodes 64 slots 4 ...", one line, or one
 * "KEY VALUE" line per field) and as JSON members (config_text.c). */
void config_print(const struct hn_ctl_config *cfg, int one_line);
void config_json(const struct hn_ctl_config *cfg);
/*
 * @key @val into @cfg as "hnctl set" reads them: a key, and a value
 * within the range the kernel takes (hn_fields.h); 0, or -1 with @why.
 */
int config_value(struct hn_ctl_config *cfg, const char *key, const char *val,
		 char *why, size_t len);
/* -c FILE into @cfg (config_file.c): 0, or -1 with @err. */
int config_file(const char *path, struct hn_ctl_config *cfg, char *err,
		size_t len);
/* The keys of show --help, and the keys and values of set --help, from
 * libhybridnet's table of fields (config_text.c) */
void config_help_keys(void);
void config_help_values(void);
/* The field called @key (its name, or with '_' for '-'), or NULL. */
const struct hn_ctl_field *config_field(const char *key);
/*
 * A switch's own switching (hn_ctl_switch_set()) as a word: the words
 * of the field switching but drop, and "fabric" for
 * HN_CTL_SWITCHING_FABRIC; NULL for another value.  And a word back: 0,
 * or -1 for none of those.
 */
const char *switching_word(uint32_t v);
int switching_parse(const char *s, uint32_t *v);

/* The commands */
int cmd_show(struct hnctl *o, int argc, char **argv);
int cmd_set(struct hnctl *o, int argc, char **argv);
int cmd_preload(struct hnctl *o, int argc, char **argv);
int cmd_predict(struct hnctl *o, int argc, char **argv);
int cmd_release(struct hnctl *o, int argc, char **argv);
int cmd_circuits(struct hnctl *o, int argc, char **argv);
int cmd_stats(struct hnctl *o, int argc, char **argv);
int cmd_top(struct hnctl *o, int argc, char **argv);
int cmd_monitor(struct hnctl *o, int argc, char **argv);
int cmd_traffic(struct hnctl *o, int argc, char **argv);
int cmd_sched(struct hnctl *o, int argc, char **argv);
int cmd_links(struct hnctl *o, int argc, char **argv);
int cmd_switches(struct hnctl *o, int argc, char **argv);
int cmd_netdev(struct hnctl *o, int argc, char **argv);
int cmd_capture(struct hnctl *o, int argc, char **argv);
int cmd_fabric(struct hnctl *o, int argc, char **argv);
/* cmd_fault.c: "link|switch down|up ..." (@sw: a switch) */
int fault_cmd(struct hnctl *o, int sw, int argc, char **argv);
/* cmd_fault.c: "switch switching NAME SWITCHING" */
int switching_cmd(struct hnctl *o, int argc, char **argv);
/*
 * cmd_config.c: the KEY VALUE... of @argv into @cfg, as set and fabric
 * add take them: 0, or hnctl_usage()'s status, its message
 * "hnctl CMD: SUBWHY".
 */
int config_args(const char *cmd, const char *sub, int argc, char **argv,
		struct hn_ctl_config *cfg);
/* -n: the request @req with @cfg's fields, as text or JSON. */
void config_dry(struct hnctl *o, const char *req,
		const struct hn_ctl_config *cfg);

/* The help texts (help.c) */
extern const char hnctl_help_main[];
extern const char hnctl_help_show[], hnctl_help_set[], hnctl_help_preload[];
extern const char hnctl_help_predict[], hnctl_help_release[];
extern const char hnctl_help_circuits[], hnctl_help_stats[];
extern const char hnctl_help_top[];
extern const char hnctl_help_monitor[], hnctl_help_sched[];
extern const char hnctl_help_links[], hnctl_help_switches[];
extern const char hnctl_help_netdev[], hnctl_help_capture[];
extern const char hnctl_help_fabric[];

/* cmd_traffic.c */
extern const char hnctl_help_traffic[];

#endif /* HNCTL_H */
