// SPDX-License-Identifier: GPL-2.0
/*
 * hnctl.c - hnctl, the control tool of hybridnet, in the style of ip(8):
 * global options, the command table, connecting to the generic netlink
 * family and reporting the kernel's refusals.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hnctl.h"
#include "json.h"

const struct hnctl_cmd hnctl_cmds[] = {
	{ "show", cmd_show, "print the fabric's configuration",
	  hnctl_help_show },
	{ "set", cmd_set, "change configuration values", hnctl_help_set },
	{ "preload", cmd_preload, "install slot configurations or a phase file",
	  hnctl_help_preload },
	{ "predict", cmd_predict, "submit predicted requests to the scheduler",
	  hnctl_help_predict },
	{ "release", cmd_release, "release a circuit, a slot or all circuits",
	  hnctl_help_release },
	{ "circuits", cmd_circuits, "list the circuits of every slot",
	  hnctl_help_circuits },
	{ "stats", cmd_stats, "print or reset statistics", hnctl_help_stats },
	{ "top", cmd_top, "latency by switching mode, and the busiest pairs",
	  hnctl_help_top },
	{ "links", cmd_links, "print the statistics of the fabric's links",
	  hnctl_help_links },
	{ "switches", cmd_switches,
	  "print the statistics of the fabric's switches",
	  hnctl_help_switches },
	{ "monitor", cmd_monitor, "print events as they happen",
	  hnctl_help_monitor },
	{ "traffic", cmd_traffic, "start, stop or read the in-kernel traffic generator",
	  hnctl_help_traffic },
	{ "sched", cmd_sched, "run a circuit scheduler of the kernel on requests",
	  hnctl_help_sched },
	{ "netdev", cmd_netdev, "list, add or delete the nodes' network interfaces",
	  hnctl_help_netdev },
	{ "capture", cmd_capture, "show the fabric's messages on an interface for tcpdump",
	  hnctl_help_capture },
	{ NULL, NULL, NULL, NULL },
};

int hnctl_usage(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "hnctl%s%s: ", cmd ? " " : "", cmd ? cmd : "");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry 'hnctl %s%s--help'.\n", cmd ? cmd : "",
		cmd ? " " : "");
	return EXIT_USAGE;
}

int hnctl_connect(struct hnctl *o)
{
	int rc;

	if (o->ctl)
		return 0;
	rc = hn_ctl_open(&o->ctl);
	if (!rc)
		return 0;
	fprintf(stderr, "hnctl: %s\n", hn_ctl_strerror(NULL, rc));
	return EXIT_KERNEL;
}

#define CIRCUIT_TRIES	5	/* dumps interrupted by a change, retried */

int hnctl_circuits(struct hnctl *o, struct hn_ctl_circuits *t)
{
	int rc, tries;

	for (tries = 0; tries < CIRCUIT_TRIES; tries++) {
		rc = hn_ctl_circuits(o->ctl, t);
		if (rc != -EAGAIN)
			break;
	}
	return rc ? hnctl_refused(o, "circuits", rc) : 0;
}

/* The kernel's message starts "preload refused: ..." already. */
static int says_refused(const char *msg)
{
	const char *colon = strchr(msg, ':');

	return colon && colon - msg >= 8 && !strncmp(colon - 8, " refused", 8);
}

int hnctl_refused(struct hnctl *o, const char *what, int rc)
{
	const char *msg = o->ctl ? hn_ctl_strerror(o->ctl, rc) : strerror(-rc);

	if (says_refused(msg))
		fprintf(stderr, "hnctl: %s\n", msg);
	else
		fprintf(stderr, "hnctl: %s refused: %s\n", what, msg);
	return EXIT_KERNEL;
}

/* The help text @s, its lines @KEYS@ and @VALUES@ made from the fields */
static void help_print(const char *s)
{
	const char *nl;

	for (; *s; s = nl + 1) {
		nl = strchr(s, '\n');
		if (!nl)
			nl = s + strlen(s) - 1;
		if (!strncmp(s, "@KEYS@\n", 7))
			config_help_keys();
		else if (!strncmp(s, "@VALUES@\n", 9))
			config_help_values();
		else
			fwrite(s, 1, (size_t)(nl - s + 1), stdout);
	}
}

void hnctl_help(const char *cmd)
{
	const struct hnctl_cmd *c;

	for (c = hnctl_cmds; c->name; c++)
		if (!strcmp(c->name, cmd)) {
			help_print(c->help);
			return;
		}
}

int hnctl_common_opt(struct hnctl *o, const char *cmd, const char *arg)
{
	if (!strcmp(arg, "-j") || !strcmp(arg, "--json")) {
		o->json = 1;
		return 1;
	}
	if (!strcmp(arg, "-p") || !strcmp(arg, "--pretty")) {
		o->pretty = 1;
		j_pretty(1);
		return 1;
	}
	if (!strcmp(arg, "-n") || !strcmp(arg, "--dry-run")) {
		o->dry_run = 1;
		return 1;
	}
	if (!strcmp(arg, "-h") || !strcmp(arg, "--help")) {
		hnctl_help(cmd);
		return -1;
	}
	return 0;
}

int hnctl_num(const char *s, uint64_t max, uint64_t *v)
{
	unsigned long long x;
	char *end;
	int base = 10;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	}
	if (!((*s >= '0' && *s <= '9') ||
	      (base == 16 && strchr("abcdefABCDEF", *s) && *s)))
		return -1;
	errno = 0;
	x = strtoull(s, &end, base);
	if (errno || *end || x > max)
		return -1;
	*v = x;
	return 0;
}

int hnctl_num_unit(const char *s, unsigned int units, uint64_t max,
		   uint64_t *v)
{
	static const struct {
		const char *unit;
		uint64_t mul;
		unsigned int kind;
	} unit[] = {
		{ "ns", 1, HNCTL_UNIT_TIME },
		{ "us", 1000, HNCTL_UNIT_TIME },
		{ "ms", 1000000, HNCTL_UNIT_TIME },
		{ "s", 1000000000, HNCTL_UNIT_TIME },
		{ "K", 1024, HNCTL_UNIT_BYTES },
		{ "k", 1024, HNCTL_UNIT_BYTES },
		{ "M", 1048576, HNCTL_UNIT_BYTES },
	};
	char num[32];
	size_t i, n;

	if (!hnctl_num(s, max, v))
		return 0;
	for (n = 0; s[n] >= '0' && s[n] <= '9'; n++)
		;
	if (!n || n >= sizeof(num))
		return -1;
	memcpy(num, s, n);
	num[n] = '\0';
	for (i = 0; i < sizeof(unit) / sizeof(unit[0]); i++) {
		if (!(unit[i].kind & units) || strcmp(s + n, unit[i].unit))
			continue;
		if (hnctl_num(num, max / unit[i].mul, v))
			return -1;
		*v *= unit[i].mul;
		return 0;
	}
	return -1;
}

int hnctl_pair(const char *s, struct hn_ctl_pair *p)
{
	const char *colon = strchr(s, ':');
	uint64_t a, b;
	char buf[24];

	if (!colon || (size_t)(colon - s) >= sizeof(buf))
		return -1;
	memcpy(buf, s, colon - s);
	buf[colon - s] = '\0';
	if (hnctl_num(buf, UINT32_MAX, &a) ||
	    hnctl_num(colon + 1, UINT32_MAX, &b))
		return -1;
	p->src = (uint32_t)a;
	p->dst = (uint32_t)b;
	return 0;
}

const char *hnctl_grant_str(unsigned int result, char *num, size_t len)
{
	const char *name = hn_ctl_grant_name(result);

	if (name)
		return name;
	snprintf(num, len, "%u", result);
	return num;
}

/* The command named @name, or a unique prefix of one. */
/* "no command (show, set, ...)": the commands of hnctl_cmds[] */
static int no_command(void)
{
	char list[256];
	const struct hnctl_cmd *c;
	size_t len = 0;

	for (c = hnctl_cmds; c->name && len < sizeof(list); c++)
		len += snprintf(list + len, sizeof(list) - len, "%s%s",
				c == hnctl_cmds ? "" : ", ", c->name);
	return hnctl_usage(NULL, "no command (%s)", list);
}

static const struct hnctl_cmd *find_cmd(const char *name)
{
	const struct hnctl_cmd *c, *found = NULL;
	size_t len = strlen(name);
	int n = 0;

	for (c = hnctl_cmds; c->name; c++) {
		if (!strcmp(c->name, name))
			return c;
		if (!strncmp(c->name, name, len)) {
			found = c;
			n++;
		}
	}
	return n == 1 ? found : NULL;
}

static void main_help(void)
{
	const struct hnctl_cmd *c;

	fputs(hnctl_help_main, stdout);
	printf("\nCOMMANDS\n");
	for (c = hnctl_cmds; c->name; c++)
		printf("    %-10s %s\n", c->name, c->summary);
	printf("\nSee 'hnctl COMMAND --help' for each command, and "
	       "docs/hnctl.md.\n");
}

int main(int argc, char **argv)
{
	struct hnctl o = { 0 };
	const struct hnctl_cmd *c;
	int i, rc;

	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			main_help();
			return 0;
		}
		if (!strcmp(argv[i], "-V") || !strcmp(argv[i], "--version")) {
			printf("hnctl: generic netlink family %s version %d\n",
			       HYBRIDNET_GENL_NAME, HYBRIDNET_GENL_VERSION);
			return 0;
		}
		if (!strcmp(argv[i], "-j") || !strcmp(argv[i], "--json"))
			o.json = 1;
		else if (!strcmp(argv[i], "-p") || !strcmp(argv[i], "--pretty"))
			o.pretty = 1;
		else if (!strcmp(argv[i], "-n") ||
			 !strcmp(argv[i], "--dry-run"))
			o.dry_run = 1;
		else if ((!strcmp(argv[i], "-c") ||
			  !strcmp(argv[i], "--config")) && i + 1 < argc)
			o.config_file = argv[++i];
		else
			return hnctl_usage(NULL, "unknown option '%s'",
					   argv[i]);
	}
	j_pretty(o.pretty);
	if (i == argc)
		return no_command();
	if (o.config_file && !o.dry_run)
		return hnctl_usage(NULL, "-c FILE is the fabric of a dry run: "
				   "give -n too");
	if (!strcmp(argv[i], "help")) {
		/* "help --help", "help -h", "help help": the main help */
		if (i + 1 < argc && (!strcmp(argv[i + 1], "--help") ||
				     !strcmp(argv[i + 1], "-h") ||
				     !strcmp(argv[i + 1], "help")))
			main_help();
		else if (i + 1 < argc && (c = find_cmd(argv[i + 1])) != NULL)
			hnctl_help(c->name);
		else if (i + 1 < argc)
			return hnctl_usage(NULL, "unknown command '%s'",
					   argv[i + 1]);
		else
			main_help();
		return 0;
	}
	c = find_cmd(argv[i]);
	if (!c)
		return hnctl_usage(NULL, "unknown command '%s'", argv[i]);
	if (i + 1 < argc && !strcmp(argv[i + 1], "help")) {
		hnctl_help(c->name);
		return 0;
	}
	rc = c->run(&o, argc - i - 1, argv + i + 1);
	hn_ctl_close(o.ctl);
	return rc;
}
