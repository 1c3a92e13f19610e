// SPDX-License-Identifier: GPL-2.0
/*
 * json.c - hnctl's JSON writer.  It keeps a stack of "first member yet?"
 * flags to place the commas, one per open container, as deep as the
 * document nests.
 * Pretty (-p): each member on a line of its own, indented two spaces per
 * level, ": " after a key; an empty object or array stays "{}" or "[]".
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "json.h"
#include "libhybridnet.h"

static size_t depth, cap;
static unsigned char *used;	/* the container at this depth has a member */
static int pretty;

static void j_quote(const char *s);

void j_pretty(int on)
{
	pretty = on;
}

static void j_indent(size_t level)
{
	putchar('\n');
	printf("%*s", (int)(2 * level), "");
}

static void j_key(const char *key)
{
	if (depth > 0 && used[depth - 1])
		putchar(',');
	if (depth > 0)
		used[depth - 1] = 1;
	if (depth > 0 && pretty)
		j_indent(depth);
	if (key) {
		j_quote(key);
		fputs(pretty ? ": " : ":", stdout);
	}
}

/* Before a container's closing bracket: its own line, when it has members. */
static void j_close(int c)
{
	depth--;
	if (pretty && used[depth])
		j_indent(depth);
	putchar(c);
}

static void j_open(const char *key, int c)
{
	j_key(key);
	putchar(c);
	if (depth == cap) {
		cap = cap ? 2 * cap : 16;
		used = realloc(used, cap);
		if (!used) {
			fprintf(stderr, "hnctl: out of memory\n");
			exit(1);
		}
	}
	used[depth++] = 0;
}

void j_obj(const char *key)
{
	j_open(key, '{');
}

void j_obj_end(void)
{
	j_close('}');
}

void j_arr(const char *key)
{
	j_open(key, '[');
}

void j_arr_end(void)
{
	j_close(']');
}

void j_u64(const char *key, uint64_t v)
{
	j_key(key);
	printf("%" PRIu64, v);
}

void j_bool(const char *key, int v)
{
	j_key(key);
	fputs(v ? "true" : "false", stdout);
}

void j_str(const char *key, const char *s)
{
	j_key(key);
	j_quote(s);
}

static void j_quote(const char *s)
{
	const unsigned char *p;

	putchar('"');
	for (p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			printf("\\%c", *p);
		else if (*p == '\n')
			fputs("\\n", stdout);
		else if (*p == '\t')
			fputs("\\t", stdout);
		else if (*p < 0x20)
			printf("\\u%04x", *p);
		else
			putchar(*p);
	}
	putchar('"');
}

void j_end(void)
{
	depth = 0;
	putchar('\n');
	fflush(stdout);
}

void j_path(const char *key, const struct hn_ctl_path *p)
{
	uint32_t h;

	j_arr(key);
	for (h = 0; h < p->len; h++)
		j_u64(NULL, p->port[h]);
	j_arr_end();
}

void j_paths(const char *key, const struct hn_ctl_path *p, size_t n)
{
	size_t i;

	j_arr(key);
	for (i = 0; i < n; i++)
		j_path(NULL, &p[i]);
	j_arr_end();
}

void j_pairs(const char *key, const struct hn_ctl_pair *p, size_t n)
{
	size_t i;

	j_arr(key);
	for (i = 0; i < n; i++) {
		j_obj(NULL);
		j_u64("src", p[i].src);
		j_u64("dst", p[i].dst);
		j_obj_end();
	}
	j_arr_end();
}
