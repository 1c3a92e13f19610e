// SPDX-License-Identifier: GPL-2.0
/*
 * json_read.c - read a file whole, and walk the members of one flat JSON
 * object (json_read.h).  Enough JSON for what hnctl -j show prints:
 * strings with \" and \\ escapes, numbers, true, false, null, and arrays
 * or objects skipped whole.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_read.h"

char *read_file(const char *path)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "r") : stdin;
	size_t len = 0, cap = 4096, got;
	char *buf = NULL, *nb;
	int e;

	if (!f)
		return NULL;
	do {
		nb = realloc(buf, cap + 1);
		if (!nb) {
			free(buf);
			buf = NULL;
			errno = ENOMEM;
			break;
		}
		buf = nb;
		got = fread(buf + len, 1, cap - len, f);
		len += got;
		cap *= 2;
	} while (got);
	e = errno;
	if (buf)
		buf[len] = 0;
	if (f != stdin)
		fclose(f);
	errno = e;
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

static int members(struct jp *j,
		   int (*fn)(const char *key, const char *val, void *arg),
		   void *arg)
{
	char *key, *val, save;
	size_t n;
	int rc;

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
			save = 0;
			if (*j->p == '"') {
				val = jstr(j);
				if (!val)
					return -1;
			} else {
				val = j->p;
				n = strcspn(val, " \t\r\n,}");
				j->p += n;
				save = *j->p;
				*j->p = 0;
			}
			rc = !strcmp(val, "null") ? 0 :
			     fn(key, !strcmp(val, "true") ? "1" :
				!strcmp(val, "false") ? "0" : val, arg);
			if (rc)
				return rc;
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

int json_members(const char *text,
		 int (*fn)(const char *key, const char *val, void *arg),
		 void *arg, const char **why, long *at)
{
	char *copy = strdup(text);
	struct jp j = { copy, NULL };
	int rc;

	if (!copy) {
		*why = "out of memory";
		*at = 0;
		return -1;
	}
	rc = members(&j, fn, arg);
	if (rc < 0) {
		*why = j.err;
		*at = (long)(j.p - copy);
	}
	free(copy);
	return rc;
}
