// SPDX-License-Identifier: GPL-2.0
/*
 * cfg_json.c - hnsim -c FILE: a configuration file whole, and the JSON
 * object hnctl show -j prints, so that the module's configuration runs
 * in hnsim unchanged.  Its members are keys as -s takes them (hnctl's
 * names are keys, docs/names.md); arrays and objects (bound-nodes) and
 * null are skipped (json_read.c); the profile applies first, as it sets
 * every field.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "hnsim.h"
#include "json_read.h"

char *cfg_read(const char *path)
{
	char *buf = read_file(path);

	if (!buf)
		perror(path);
	return buf;
}

struct jcfg {
	struct hn_config *c;
	u32 *preload;
	int pass;		/* 0: the profile only, 1: the others */
	char why[256];
};

static int member(const char *key, const char *val, void *arg)
{
	struct jcfg *j = arg;

	if (j->pass != !!strcmp(key, "profile"))
		return 0;
	return cfg_set(j->c, j->preload, key, val, j->why, sizeof(j->why)) ?
	       1 : 0;
}

int cfg_json(struct hn_config *c, u32 *preload, char *text,
	     const char *path, const char *prog)
{
	struct jcfg j = { c, preload, 0, "" };
	const char *why = NULL;
	long at = 0;
	int rc = 0;

	for (j.pass = 0; j.pass < 2 && !rc; j.pass++)
		rc = json_members(text, member, &j, &why, &at);
	if (rc < 0)
		fprintf(stderr, "%s: %s: byte %ld: not JSON: %s\n", prog, path,
			at, why);
	else if (rc)
		fprintf(stderr, "%s: %s: %s\n", prog, path, j.why);
	return rc ? -1 : 0;
}
