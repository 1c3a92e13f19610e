// SPDX-License-Identifier: GPL-2.0
/*
 * man-fields.c - the configuration fields as the man pages list them,
 * made at build time from the one table (kmod/core/hn_fields.h, through
 * the engine's cfg_field.h): one roff paragraph per field, its name, its
 * values, its line of help and ding4's and ding5's values.
 *
 *   man-fields param   as hybridnet(4)'s module parameters and hnsim(1)'s
 *                      keys: "nodes=2..4096"
 *   man-fields hnctl   as hnctl(8)'s keys of set: "nodes N"
 *
 * The build puts it where a page has the line ".\" @FIELDS@" (dist/install.mk).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cfg_field.h"

static FILE *out;	/* where roff() and help() write */

/* @s for roff: '-' as "\-", and '_' so too when @hyphens */
static void roff(const char *s, size_t n, int hyphens)
{
	size_t i;

	for (i = 0; i < n && s[i]; i++) {
		if (s[i] == '-' || (hyphens && s[i] == '_'))
			fputs("\\-", out);
		else if (s[i] == '\\')
			fputs("\\e", out);
		else
			fputc(s[i], out);
	}
}

/* @s, lines broken at spaces before 80 bytes, as the pages' style is */
static void wrap(const char *s)
{
	size_t n, col = 0;

	while (*s) {
		n = strcspn(s, " ");
		if (col && col + 1 + n >= 80) {
			putchar('\n');
			col = 0;
		} else if (col) {
			putchar(' ');
			col++;
		}
		fwrite(s, 1, n, stdout);
		col += n;
		s += n;
		s += strspn(s, " ");
	}
	putchar('\n');
}

/* the field called @name (@n bytes), or NULL */
static const struct hn_cfg_field *field(const char *name, size_t n)
{
	u32 i;

	for (i = 0; i < HN_CFG_NR; i++)
		if (strlen(hn_cfg_fields[i].name) == n &&
		    !strncmp(hn_cfg_fields[i].name, name, n))
			return &hn_cfg_fields[i];
	return NULL;
}

/* help text: a field's name at a word's start with '-' for hnctl */
static void help(const char *s, int hnctl)
{
	size_t k;

	while (*s) {
		k = strspn(s, "abcdefghijklmnopqrstuvwxyz_");
		roff(s, k, hnctl && memchr(s, '_', k) && field(s, k));
		s += k;
		k = strcspn(s, "abcdefghijklmnopqrstuvwxyz_");
		roff(s, k, 0);
		s += k;
	}
}

/* "w1|w2|w3" as .BR arguments: the words bold, the bars roman */
static void words(const char *w, size_t n)
{
	size_t k;

	while (n) {
		k = strcspn(w, "|");
		if (k > n)
			k = n;
		roff(w, k, 0);
		if (k == n)
			break;
		fputs(" | ", stdout);
		w += k + 1;
		n -= k + 1;
	}
}

/* what a value of a key of hnctl is written as */
static const char *kind(const char *name)
{
	size_t n = strlen(name);

	if (n > 3 && !strcmp(name + n - 3, "_ns"))
		return "T";
	if (n > 6 && !strcmp(name + n - 6, "_bytes"))
		return "B";
	return "N";
}

int main(int argc, char **argv)
{
	char a[HN_CFG_TEXT_LEN], b[HN_CFG_TEXT_LEN], *text;
	int hnctl = argc == 2 && !strcmp(argv[1], "hnctl");
	const struct hn_cfg_field *cf;
	struct hn_config d4, d5;
	size_t w, len;
	FILE *body;
	u32 i;

	if (argc != 2 || (!hnctl && strcmp(argv[1], "param"))) {
		fprintf(stderr, "usage: man-fields param|hnctl\n");
		return 1;
	}
	out = stdout;
	hn_config_profile(&d4, "ding4");
	hn_config_profile(&d5, "ding5");
	for (i = 0; i < HN_CFG_NR; i++) {
		cf = &hn_cfg_fields[i];
		/* the values' words, and what follows them */
		w = strcspn(hn_cfg_values[i], " ");
		if (!memchr(hn_cfg_values[i], '|', w))
			w = 0;
		puts(".TP");
		if (w) {
			fputs(".BR ", stdout);
			roff(cf->name, strlen(cf->name), hnctl);
			fputs(hnctl ? " \" \" " : "=", stdout);
			words(hn_cfg_values[i], w);
		} else {
			fputs(".BI ", stdout);
			roff(cf->name, strlen(cf->name), hnctl);
			fputs(hnctl ? " \" " : "= ", stdout);
			roff(hnctl ? kind(cf->name) : hn_cfg_values[i],
			     strlen(hnctl ? kind(cf->name) : hn_cfg_values[i]), 0);
			fputs(hnctl ? "\"" : "", stdout);
		}
		putchar('\n');
		/* the help, wrapped */
		body = open_memstream(&text, &len);
		if (!body)
			return 1;
		out = body;
		fprintf(out, "%c", cf->help[0] >= 'a' && cf->help[0] <= 'z' ?
			cf->help[0] - 'a' + 'A' : cf->help[0]);
		help(cf->help + 1, hnctl);
		if (w && hn_cfg_values[i][w])
			fprintf(out, " (%s)", hn_cfg_values[i] + w + 1);
		else if (!w && hnctl)
			fprintf(out, " (%s)", hn_cfg_values[i]);
		fprintf(out, "%s.", cf->live ? "; live" : "");
		fclose(body);
		out = stdout;
		wrap(text);
		free(text);
		hn_cfg_print(&d4, i, a, sizeof(a));
		hn_cfg_print(&d5, i, b, sizeof(b));
		fputs("[ding4: ", stdout);
		roff(a, strlen(a), 0);
		if (strcmp(a, b)) {
			fputs("; ding5: ", stdout);
			roff(b, strlen(b), 0);
		}
		puts("]");
	}
	return 0;
}
