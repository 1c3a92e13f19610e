// SPDX-License-Identifier: GPL-2.0
/*
 * hnctl.c - hnctl, the control tool of hybridnet, in the style of ip(8):
 * its global options and the command table (the commands are cmd_*.c,
 * what they share common.c).
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
	{ "fabric", cmd_fabric, "list, add or delete fabrics",
	  hnctl_help_fabric },
	{ NULL, NULL, NULL, NULL },
};

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
	struct hnctl o = { .fabric = HN_CTL_FIRST_FABRIC };
	const struct hnctl_cmd *c;
	uint64_t v;
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
		else if (!strcmp(argv[i], "-f") || !strcmp(argv[i], "--fabric")) {
			if (i + 1 == argc ||
			    hnctl_num(argv[i + 1], HYBRIDNET_MAX_FABRICS - 1, &v))
				return hnctl_usage(NULL, "%s takes a fabric's "
						   "number, 0..%u", argv[i],
						   HYBRIDNET_MAX_FABRICS - 1);
			o.fabric = (uint32_t)v;
			i++;
		}
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
			hnctl_help(c->help);
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
		hnctl_help(c->help);
		return 0;
	}
	o.help = c->help;
	argc = hnctl_common_opts(&o, argc - i - 1, argv + i + 1);
	if (argc < 0)
		return 0;
	rc = c->run(&o, argc, argv + i + 1);
	hn_ctl_close(o.ctl);
	return rc;
}
