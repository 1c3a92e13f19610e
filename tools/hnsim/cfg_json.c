// SPDX-License-Identifier: GPL-2.0
/*
 * cfg_json.c - hnsim -c FILE: a configuration file whole, and the JSON
 * object hnctl show -j prints, so that the module's configuration runs
 * in hnsim unchanged.  Its members are keys as -s takes them (hnctl's
 * names are keys, docs/names.md); arrays and objects (bound-nodes) and
 * null are skipped; the profile applies first, as it sets every field.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "hnsim.h"

char *cfg_read(const char *path)
{
	FILE *f = fopen(path, "r");
	size_t len = 0, cap = 4096, got;
	char *buf = NULL, *nb;

	if (!f) {
		perror(path);
		return NULL;
	}
	do {
		nb = realloc(buf, cap + 1);
		if (!nb) {
			free(buf);
			fclose(f);
			fprintf(stderr, "%s: %s\n", path, strerror(ENOMEM));
			return NULL;
		}
		buf = nb;
		got = fread(buf + len, 1, cap - len, f);
		len += got;
		cap *= 2;
	} while (got);
	buf[len] = 0;
	fclose(f);
	return buf;
}

struct jp {
	char *p;
	const char *err;
};

static void ws(struct jp *j)
{
	j->p += strspn(j->p, " \t\r\n");
}

/* A string in place (its escapes \" and \\ undone); NULL on an error. */
static char *jstr(struct jp *j)
{
	char *out, *s;

	if (*j->p != '"') {
		j->err = "want a string";
		return NULL;
	}
	out = s = ++j->p;
	while (*j->p && *j->p != '"') {
		if (*j->p == '\\' && j->p[1])
			j->p++;
		*s++ = *j->p++;
	}
	if (*j->p != '"') {
		j->err = "a string does not end";
		return NULL;
	}
	j->p++;
	*s = 0;
	return out;
}

/* Skip an array or object (strings in it may hold brackets). */
static int jskip(struct jp *j)
{
	int depth = 0;

	do {
		if (*j->p == '"') {
			if (!jstr(j))
				return -1;
			continue;
		}
		if (!*j->p) {
			j->err = "an array or object does not end";
			return -1;
		}
		if (*j->p == '[' || *j->p == '{')
			depth++;
		else if (*j->p == ']' || *j->p == '}')
			depth--;
		j->p++;
	} while (depth);
	return 0;
}

/*
 * The members of the object at j->p, applied in two passes: @pass 0 the
 * profile only, 1 the others.
 */
static int jmembers(struct jp *j, struct hn_config *c, u32 *preload,
		    int pass, char *why, size_t whylen)
{
	char *key, *val, save;
	size_t n;

	ws(j);
	if (*j->p++ != '{') {
		j->err = "want an object";
		return -1;
	}
	for (ws(j); *j->p != '}'; ws(j)) {
		key = jstr(j);
		if (!key)
			return -1;
		ws(j);
		if (*j->p++ != ':') {
			j->err = "want ':' after a key";
			return -1;
		}
		ws(j);
		if (*j->p == '[' || *j->p == '{') {
			if (jskip(j))
				return -1;
		} else {
			if (*j->p == '"') {
				val = jstr(j);
				if (!val)
					return -1;
				save = 0;
			} else {
				val = j->p;
				n = strcspn(val, " \t\r\n,}");
				j->p += n;
				save = *j->p;
				*j->p = 0;
			}
			if (strcmp(val, "null") &&
			    (pass == !!strcmp(key, "profile")) &&
			    cfg_set(c, preload, key, !strcmp(val, "true") ? "1" :
				    !strcmp(val, "false") ? "0" : val, why,
				    whylen))
				return -2;
			if (save)
				*j->p = save;
		}
		ws(j);
		if (*j->p == ',')
			j->p++;
		else if (*j->p != '}') {
			j->err = "want ',' or '}'";
			return -1;
		}
	}
	return 0;
}

int cfg_json(struct hn_config *c, u32 *preload, char *text,
	     const char *path, const char *prog)
{
	char *copy = strdup(text), why[160];
	struct jp j = { 0 };
	int pass, rc = 0;

	for (pass = 0; pass < 2 && !rc && copy; pass++) {
		strcpy(copy, text);
		j.p = copy;
		rc = jmembers(&j, c, preload, pass, why, sizeof(why));
	}
	if (!copy)
		fprintf(stderr, "%s: %s: %s\n", prog, path, strerror(ENOMEM));
	else if (rc == -1)
		fprintf(stderr, "%s: %s: byte %ld: not JSON: %s\n", prog, path,
			(long)(j.p - copy), j.err);
	else if (rc)
		fprintf(stderr, "%s: %s: %s\n", prog, path, why);
	rc = copy && !rc ? 0 : -1;
	free(copy);
	return rc;
}
