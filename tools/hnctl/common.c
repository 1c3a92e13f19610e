// SPDX-License-Identifier: GPL-2.0
/*
 * common.c - what every hnctl command does alike: its usage message,
 * its common options and help, connecting to the generic netlink family
 * and reporting the kernel's refusals.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hnctl.h"
#include "json.h"

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
		rc = hn_ctl_set_fabric(o->ctl, o->fabric);
	if (!rc)
		return 0;
	fprintf(stderr, "hnctl: %s\n", hn_ctl_strerror(NULL, rc));
	return EXIT_KERNEL;
}

int hnctl_sysfs_dir(struct hnctl *o, char *buf, size_t len)
{
	struct hn_ctl_fabric f;
	int rc = hn_ctl_fabric_get(o->ctl, &f);

	if (!rc)
		snprintf(buf, len, "/sys/class/hybridnet/fabric%u", f.id);
	return rc;
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

void hnctl_help(const char *text)
{
	help_print(text);
}

static int common_opt(struct hnctl *o, const char *arg)
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
		hnctl_help(o->help);
		return -1;
	}
	return 0;
}

int hnctl_common_opts(struct hnctl *o, int argc, char **argv)
{
	int i, n = 0, rc;

	for (i = 0; i < argc; i++) {
		rc = common_opt(o, argv[i]);
		if (rc < 0)
			return -1;
		if (!rc)
			argv[n++] = argv[i];
	}
	return n;
}
