// SPDX-License-Identifier: GPL-2.0
/*
 * config_file.c - hnctl -c FILE: the configuration a dry run (-n) checks
 * against when the module is not loaded.  FILE is what "hnctl show"
 * prints (KEY VALUE lines, '#' comments), KEY=VALUE lines as hnsim -c
 * takes them, or the object "hnctl -j show" prints.  Each value is read
 * as "hnctl set" reads it; what show gives besides the configuration
 * (now, the nodes bound, the module's load-time parameters) is skipped.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hnctl.h"
#include "json_read.h"

struct cfile {
	struct hn_ctl_config *cfg;
	char why[256];
};

/* show's keys that are not configuration fields */
static int skipped(const char *key)
{
	static const char *const keys[] = {
		"now", "preload-at-load", "preload", "tick-us", "open-files",
	};
	size_t i;

	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (!strcmp(key, keys[i]))
			return 1;
	return 0;
}

static int member(const char *key, const char *val, void *arg)
{
	struct cfile *cf = arg;

	if (skipped(key))
		return 0;
	return config_value(cf->cfg, key, val, cf->why, sizeof(cf->why)) ?
	       1 : 0;
}

int config_file(const char *path, struct hn_ctl_config *cfg, char *err,
		size_t len)
{
	struct cfile cf = { cfg, "" };
	char *text = read_file(path), *line, *next, *key, *val;
	const char *why = NULL;
	unsigned long n = 0;
	long at = 0;
	int rc = 0;

	memset(cfg, 0, sizeof(*cfg));
	if (!text) {
		snprintf(err, len, "-c %s: %s", path, strerror(errno));
		return -1;
	}
	if (text[strspn(text, " \t\r\n")] == '{') {
		rc = json_members(text, member, &cf, &why, &at);
		if (rc < 0)
			snprintf(err, len, "-c %s: byte %ld: not JSON: %s",
				 path, at, why);
		else if (rc)
			snprintf(err, len, "-c %s: %s", path, cf.why);
		free(text);
		return rc ? -1 : 0;
	}
	for (line = text; !rc && line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		n++;
		line[strcspn(line, "#")] = '\0';
		key = line + strspn(line, " \t\r");
		if (!*key)
			continue;
		val = key + strcspn(key, " \t=");
		if (*val)
			*val++ = '\0';
		val += strspn(val, " \t=");
		val[strcspn(val, " \t\r")] = '\0';
		if (!skipped(key) && config_value(cfg, key, *val ? val : NULL,
						  cf.why, sizeof(cf.why))) {
			snprintf(err, len, "-c %s:%lu: %s", path, n, cf.why);
			rc = -1;
		}
	}
	free(text);
	return rc;
}
