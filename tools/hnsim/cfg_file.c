// SPDX-License-Identifier: GPL-2.0
/*
 * cfg_file.c - hnsim's configuration options (-p -t -n -k -P -s -c), and
 * -c FILE: KEY=VALUE lines, or the JSON object hnctl show -j prints, so
 * that the module's configuration runs in hnsim unchanged.  Its members are keys as -s takes them (hnctl's
 * names are keys, docs/names.md); arrays and objects (bound-nodes) and
 * null are skipped (json_read.c); the profile applies first, as it sets
 * every field.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "hnsim.h"
#include "json_read.h"

/* a configuration file whole, NUL-ended, or NULL (said) */
static char *cfg_read(const char *path)
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

/* hnctl show -j's object: profile first, then every other member */
static int cfg_json(struct hn_config *c, u32 *preload, char *text,
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

/* Apply KEY=VALUE lines ('#' comments), or hnctl show -j's object, of
 * @path; @prog names the tool.
 */
int cfg_file(struct hn_config *c, u32 *preload, const char *path,
	     const char *prog)
{
	char *buf = NULL, *eq, *k, *v, *line, *next, why[256];
	unsigned long n = 0;
	int rc = 0;

	buf = cfg_read(path);
	if (!buf)
		return -1;
	if (buf[strspn(buf, " \t\r\n")] == '{') {
		rc = cfg_json(c, preload, buf, path, prog);
		free(buf);
		return rc;
	}
	for (line = buf; !rc && line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = 0;
		n++;
		k = strchr(line, '#');
		if (k)
			*k = 0;
		k = line + strspn(line, " \t\r");
		if (!*k)
			continue;
		eq = strchr(k, '=');
		if (!eq) {
			fprintf(stderr, "%s: %s:%lu: want KEY=VALUE\n", prog, path,
				n);
			rc = -1;
			break;
		}
		*eq = 0;
		v = eq + 1 + strspn(eq + 1, " \t");
		k[strcspn(k, " \t")] = 0;
		v[strcspn(v, " \t\r")] = 0;
		if (cfg_set(c, preload, k, v, why, sizeof(why))) {
			fprintf(stderr, "%s: %s:%lu: %s\n", prog, path, n, why);
			rc = -1;
		}
	}
	free(buf);
	return rc;
}

int cfg_opt(struct hn_config *c, u32 *preload, int opt, char *arg,
	    const char *prog)
{
	static const struct {
		int opt;
		const char *key;
	} keyed[] = {
		{ 'p', "profile" }, { 't', "topology" }, { 'n', "nodes" },
		{ 'k', "slots" }, { 'P', "policy" },
	};
	const char *key = NULL, *val = arg;
	char why[256], *eq;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(keyed); i++)
		if (opt == keyed[i].opt)
			key = keyed[i].key;
	if (opt == 'c')
		return cfg_file(c, preload, arg, prog) ? 1 : 0;
	if (opt == 's') {
		eq = strchr(arg, '=');
		if (!eq) {
			fprintf(stderr, "%s: --set '%s': want KEY=VALUE\n",
				prog, arg);
			return 1;
		}
		*eq = 0;
		key = arg;
		val = eq + 1;
	}
	if (!key)
		return -1;
	if (cfg_set(c, preload, key, val, why, sizeof(why))) {
		fprintf(stderr, "%s: %s\n", prog, why);
		return 1;
	}
	return 0;
}
