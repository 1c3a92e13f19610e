// SPDX-License-Identifier: GPL-2.0
/*
 * sweep.c - hnsim run's sweeps (hnsim.h): the options whose value is a
 * list (A,B,...) or a range (FIRST:LAST:STEP), and the command lines of
 * the points of their cross product.
 *
 * A point is the command line as given with each list replaced by one of
 * its values, so a point prints exactly what that command line prints on
 * its own, wherever it stands in the sweep and whatever the other points
 * are.  Ranges are counted in whole units (millionths for a ratio), so
 * 0.05:0.95:0.05 ends at 0.95, not at 0.9500000001 or short of it.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "hnsim.h"
#include "parse.h"
#include "cfg_field.h"		/* which fields are read as text */

#define SWEEP_MAX_ITEMS		10000

static void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n);

	if (!q) {
		fprintf(stderr, "hnsim run: out of memory\n");
		exit(1);
	}
	return q;
}

static char *xstrdup(const char *s)
{
	return strcpy(xrealloc(NULL, strlen(s) + 1), s);
}

static int bad(const struct sweep_dim *d, const char *what)
{
	fprintf(stderr, "hnsim run: %s '%s': %s\n", d->opt->name, d->given,
		what);
	return -1;
}

static int add_item(struct sweep_dim *d, const char *s)
{
	if (d->n == SWEEP_MAX_ITEMS)
		return bad(d, "more than 10000 values");
	d->item = xrealloc(d->item, (d->n + 1) * sizeof(*d->item));
	d->item[d->n++] = xstrdup(s);
	return 0;
}

/* a whole number of a range, or of a ratio's millionths */
static int range_num(const struct sweep_dim *d, const char *s,
		     unsigned long long *v)
{
	long long ppm;
	char *end;

	if (d->opt->kind == SWEEP_RATIO) {
		ppm = hn_parse_ppm(s);
		*v = (unsigned long long)ppm;
		return ppm < 0 ? -1 : 0;
	}
	errno = 0;
	if (!*s || *s == '-')
		return -1;
	*v = strtoull(s, &end, 10);
	return errno || *end ? -1 : 0;
}

/* FIRST:LAST:STEP: FIRST, FIRST + STEP, ... up to LAST */
static int add_range(struct sweep_dim *d, char *s)
{
	unsigned long long a, b, step, v;
	char *c1 = strchr(s, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
	char buf[32];

	if (d->opt->kind == SWEEP_WORD)
		return bad(d, "a range FIRST:LAST:STEP is for numbers; list the values, comma-separated");
	if (!c2 || strchr(c2 + 1, ':'))
		return bad(d, "a range is FIRST:LAST:STEP");
	*c1 = *c2 = 0;
	if (range_num(d, s, &a) || range_num(d, c1 + 1, &b) ||
	    range_num(d, c2 + 1, &step))
		return bad(d, d->opt->kind == SWEEP_RATIO ?
			   "a range is FIRST:LAST:STEP of ratios (0.05 or 5%)" :
			   "a range is FIRST:LAST:STEP of whole numbers");
	if (!step)
		return bad(d, "the STEP of a range must be above 0");
	if (a > b)
		return bad(d, "a range's FIRST must be at most its LAST");
	if ((b - a) / step >= SWEEP_MAX_ITEMS)
		return bad(d, "more than 10000 values");
	for (v = a; v <= b; v += step) {
		if (d->opt->kind == SWEEP_RATIO) {
			/* millionths as a decimal, trailing zeros dropped */
			size_t n = (size_t)snprintf(buf, sizeof(buf), "%llu.%06llu",
						    v / 1000000, v % 1000000);

			while (buf[n - 1] == '0')
				buf[--n] = 0;
			if (buf[n - 1] == '.')
				buf[n - 1] = 0;
		} else {
			snprintf(buf, sizeof(buf), "%llu", v);
		}
		if (add_item(d, buf))
			return -1;
		if (b - v < step)
			break;
	}
	return 0;
}

/* the values of @list, comma-separated, each a value or a range */
static int add_list(struct sweep_dim *d, const char *list)
{
	char *buf = xstrdup(list), *p = buf, *comma;
	int rc = 0;

	do {
		comma = strchr(p, ',');
		if (comma)
			*comma = 0;
		if (!*p)
			rc = bad(d, "an empty value in the list");
		else if (strchr(p, ':'))
			rc = add_range(d, p);
		else
			rc = add_item(d, p);
		p = comma + 1;
	} while (!rc && comma);
	free(buf);
	return rc;
}

/* -s KEY=VALUE: is VALUE a sweep (not a field read as text, the topology,
 * the policy, dilation_levels, whose values have commas of their own)?
 * The key, '-' as '_', in @key.
 */
static int set_is_list(const char *arg, char *key, size_t len)
{
	const char *eq = strchr(arg, '=');
	size_t i;

	if (!eq || (size_t)(eq - arg) >= len)
		return 0;
	for (i = 0; arg + i < eq; i++)
		key[i] = arg[i] == '-' ? '_' : arg[i];
	key[i] = 0;
	for (i = 0; i < HN_CFG_NR; i++)
		if (!strcmp(key, hn_cfg_fields[i].name) &&
		    hn_cfg_fields[i].text.parse)
			return 0;
	return strpbrk(eq + 1, ",:") != NULL;
}

/* which element of @argv holds the text at @p */
static int owner(int argc, char **argv, const char *p)
{
	int i;

	for (i = 0; i < argc; i++)
		if ((uintptr_t)p >= (uintptr_t)argv[i] &&
		    (uintptr_t)p <= (uintptr_t)argv[i] + strlen(argv[i]))
			return i;
	return -1;
}

int sweep_parse(struct sweep *s, int argc, char **argv,
		const struct option *lo, const char *shortopts,
		const struct sweep_opt *sw, u32 nsw)
{
	char **scan = xrealloc(NULL, (size_t)(argc + 1) * sizeof(*scan));
	int c, saved = opterr, rank, i, list, nseen = 0;
	u64 points = 1;
	struct sweep_dim *d, t;
	char key[sizeof(d->key)];
	struct {
		u32 opt;
		char key[sizeof(d->key)];
	} *seen = xrealloc(NULL, (size_t)(argc + 1) * sizeof(*seen));
	u32 j, n;

	memset(s, 0, sizeof(*s));
	s->argc = argc;
	s->argv = argv;
	memcpy(scan, argv, (size_t)(argc + 1) * sizeof(*scan));
	opterr = 0;		/* the point's own parse says what is wrong */
	optind = 0;
	while ((c = getopt_long(argc, scan, shortopts, lo, NULL)) != -1) {
		for (j = 0; j < nsw && sw[j].opt != c; j++)
			;
		if (j == nsw || !optarg)
			continue;
		key[0] = 0;
		list = sw[j].kind == SWEEP_KEYED ?
		       set_is_list(optarg, key, sizeof(key)) :
		       strpbrk(optarg, ",:") != NULL;
		seen[nseen].opt = j;
		strcpy(seen[nseen++].key, key);
		if (!list)
			continue;
		if (s->ndim == SWEEP_MAX_DIMS) {
			fprintf(stderr, "hnsim run: at most %d lists in a sweep\n",
				SWEEP_MAX_DIMS);
			goto fail;
		}
		d = &s->dim[s->ndim];
		memset(d, 0, sizeof(*d));
		d->opt = &sw[j];
		d->given = optarg;
		d->arg = owner(argc, argv, optarg);
		d->at = d->arg < 0 ? 0 : (size_t)(optarg - argv[d->arg]);
		if (d->opt->kind == SWEEP_KEYED) {
			strcpy(d->key, key);
			d->at += strlen(key) + 1;
		}
		s->ndim++;
		if (d->arg < 0 || add_list(d, argv[d->arg] + d->at))
			goto fail;
	}
	opterr = saved;
	/* a list and another value of its option: which would a point take? */
	for (j = 0; j < s->ndim; j++) {
		for (n = 0, i = 0; i < nseen; i++)
			n += s->dim[j].opt == &sw[seen[i].opt] &&
			     !strcmp(s->dim[j].key, seen[i].key);
		if (n > 1) {
			bad(&s->dim[j], "a list, and the option again: give its values once");
			goto fail_quiet;
		}
	}
	/* nesting: the table's order, -s keys in the order given (stable) */
	for (j = 1; j < s->ndim; j++) {
		t = s->dim[j];
		rank = (int)(t.opt - sw);
		for (i = (int)j - 1; i >= 0 && s->dim[i].opt - sw > rank; i--)
			s->dim[i + 1] = s->dim[i];
		s->dim[i + 1] = t;
	}
	for (j = 0; j < s->ndim; j++) {
		points *= s->dim[j].n;
		if (points > SWEEP_MAX_ITEMS) {
			fprintf(stderr, "hnsim run: a sweep of more than %d points\n",
				SWEEP_MAX_ITEMS);
			goto fail_quiet;
		}
	}
	s->npoints = (u32)points;
	free(scan);
	free(seen);
	return 0;
fail:
	opterr = saved;
fail_quiet:
	free(scan);
	free(seen);
	sweep_free(s);
	return -1;
}

/* the value of dimension @j at point @i: the last dimension varies fastest */
static u32 index_of(const struct sweep *s, u32 i, u32 j)
{
	u32 k;

	for (k = s->ndim - 1; k > j; k--)
		i /= s->dim[k].n;
	return i % s->dim[j].n;
}

const char *sweep_value(const struct sweep *s, u32 i, u32 j)
{
	return s->dim[j].item[index_of(s, i, j)];
}

char **sweep_argv(const struct sweep *s, u32 i)
{
	char **v = xrealloc(NULL, (size_t)(s->argc + 1) * sizeof(*v));
	const struct sweep_dim *d;
	const char *val;
	size_t n;
	u32 j;

	int a;

	/* copies: a parse may write into its arguments (-s KEY=VALUE) */
	for (a = 0; a < s->argc; a++)
		v[a] = xstrdup(s->argv[a]);
	v[a] = NULL;
	for (j = 0; j < s->ndim; j++) {
		d = &s->dim[j];
		val = sweep_value(s, i, j);
		n = d->at + strlen(val) + 1;
		v[d->arg] = xrealloc(v[d->arg], n);
		strcpy(v[d->arg] + d->at, val);
	}
	return v;
}

void sweep_argv_free(const struct sweep *s, char **v)
{
	int a;

	for (a = 0; v && a < s->argc; a++)
		free(v[a]);
	free(v);
}

void sweep_describe(const struct sweep *s, u32 i, char *buf, size_t len)
{
	size_t n = 0;
	u32 j;

	buf[0] = 0;
	for (j = 0; j < s->ndim && n < len; j++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s %s%s%s",
				      j ? " " : "", s->dim[j].opt->name,
				      s->dim[j].key, *s->dim[j].key ? "=" : "",
				      sweep_value(s, i, j));
}

void sweep_free(struct sweep *s)
{
	u32 j, k;

	for (j = 0; j < s->ndim; j++) {
		for (k = 0; k < s->dim[j].n; k++)
			free(s->dim[j].item[k]);
		free(s->dim[j].item);
	}
	s->ndim = 0;
	s->npoints = 0;
}
