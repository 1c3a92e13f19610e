// SPDX-License-Identifier: GPL-2.0
/*
 * phase_parse.c - hnctl's phase statements (nodes, phase, slot and the
 * generators of phase_gen.c), from a file (ph_load) or from the command
 * line of "hnctl preload" (ph_args), built with phase_build.c.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "phase_int.h"

#define PH_MAX_ARGS	(PH_MAX_NODES + 8)	/* a "perm" of every node */

/*
 * "/P0.P1...": a fat tree's path, the up-port at each level (Ch. 7); 0
 * with it in @path, -1 for bad syntax.
 */
static int parse_path(const char *s, struct hn_ctl_path *path)
{
	char *end;
	unsigned long v;

	path->len = 0;
	do {
		s++;			/* past '/' or '.' */
		if (path->len == HYBRIDNET_MAX_PATH || *s < '0' || *s > '9')
			return -1;
		v = strtoul(s, &end, 10);
		if (v >= HYBRIDNET_PORT_NONE)
			return -1;
		path->port[path->len++] = (uint8_t)v;
		s = end;
	} while (*s == '.');
	return *s ? -1 : 0;
}

/* slot [N] [SRC:DST[/P0.P1...] ...] */
static int st_slot(struct ph_builder *p, int argc, char **argv)
{
	uint32_t slot = UINT32_MAX, src, dst;
	struct hn_ctl_path path;
	struct ph_slot *s;
	char *slash;
	int i = 1, rc;

	if (argc > 1 && !strchr(argv[1], ':')) {
		if (ph_u32(argv[1], &slot) || slot == UINT32_MAX)
			return ph_fail(p, "slot: '%s' is neither a slot number "
				       "nor a SRC:DST pair", argv[1]);
		i = 2;
	}
	s = ph_new_slot(p, slot);
	if (!s)
		return -1;
	for (; i < argc; i++) {
		slash = strchr(argv[i], '/');
		if (slash && parse_path(slash, &path))
			return ph_fail(p, "slot %u: '%s': a path is /P0.P1..., "
				       "at most %u up-ports of 0..254",
				       s->slot, argv[i], HYBRIDNET_MAX_PATH);
		if (slash)
			*slash = '\0';
		rc = ph_u32_pair(argv[i], ':', &src, &dst);
		if (slash)
			*slash = '/';
		if (rc)
			return ph_fail(p, "slot %u: '%s' is not a SRC:DST pair",
				       s->slot, argv[i]);
		if (ph_add(p, s, src, dst, 0) ||
		    (slash && ph_set_path(p, s, &path)))
			return -1;
	}
	return 0;
}

static int valid_name(const char *s)
{
	size_t n = strlen(s);

	if (!n || n > PH_NAME_MAX)
		return 0;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr("_.-", *s))
			return 0;
	return 1;
}

/* phase NAME [at SLOT] */
static int st_phase(struct ph_builder *p, int argc, char **argv)
{
	const struct ph_phase *ph = ph_cur_phase(p);
	uint32_t at = 0;
	size_t i;

	if (argc != 2 && !(argc == 4 && !strcmp(argv[2], "at")))
		return ph_fail(p, "usage: phase NAME [at SLOT]");
	if (!valid_name(argv[1]))
		return ph_fail(p, "phase name '%s': use 1 to %d letters, "
			       "digits, '_', '.' or '-'", argv[1], PH_NAME_MAX);
	if (argc == 4 && (ph_u32(argv[3], &at) || at >= PH_MAX_SLOTS))
		return ph_fail(p, "phase %s: 'at %s' is not a slot (0..%u)",
			       argv[1], argv[3], PH_MAX_SLOTS - 1);
	if (p->implicit)
		return ph_fail(p, "'phase' after slots that belong to no "
			       "phase: start the file with a phase line");
	if (ph && !ph->nslots)
		return ph_fail(p, "phase %s (line %d) has no slot "
			       "configuration", ph->name, ph->line);
	for (i = 0; i < p->pf->nphases; i++)
		if (!strcmp(p->pf->phases[i].name, argv[1]))
			return ph_fail(p, "phase %s is already defined (line %d)",
				       argv[1], p->pf->phases[i].line);
	if (ph_new_phase(p, argv[1]))
		return -1;
	p->started = 1;
	p->next = at;
	return 0;
}

/* nodes N */
static int st_nodes(struct ph_builder *p, int argc, char **argv)
{
	uint32_t n;

	if (argc != 2 || ph_u32(argv[1], &n) || n < HYBRIDNET_MIN_NODES ||
	    n > PH_MAX_NODES)
		return ph_fail(p, "usage: nodes N (%u..%u)",
			       HYBRIDNET_MIN_NODES, PH_MAX_NODES);
	if (p->started)
		return ph_fail(p, "'nodes' must come before the first phase "
			       "or slot");
	if (p->pf->nodes && p->pf->nodes != n)
		return ph_fail(p, "the phases are for %u nodes, %s has %u",
			       n, p->from ? p->from : "the fabric",
			       p->pf->nodes);
	p->pf->nodes = n;
	return 0;
}

static int statement(struct ph_builder *p, int argc, char **argv)
{
	int rc;

	if (!strcmp(argv[0], "nodes"))
		return st_nodes(p, argc, argv);
	if (!strcmp(argv[0], "phase"))
		return st_phase(p, argc, argv);
	if (!strcmp(argv[0], "slot"))
		return st_slot(p, argc, argv);
	rc = ph_generate(p, argc, argv);
	if (rc <= 0)
		return rc;
	return ph_fail(p, "unknown statement '%s' (nodes, phase, slot, mesh, "
		       "shift, xor, scatter, gather, perm)", argv[0]);
}

/* Split @line (modified) into words; a '#' starts a comment. */
static int split(char *line, char **argv, int max)
{
	int argc = 0;
	char *s = line;

	for (;;) {
		while (*s && isspace((unsigned char)*s))
			s++;
		if (!*s || *s == '#')
			return argc;
		if (argc == max)
			return -1;
		argv[argc++] = s;
		while (*s && !isspace((unsigned char)*s) && *s != '#')
			s++;
		if (*s == '#') {
			*s = '\0';
			return argc;
		}
		if (*s)
			*s++ = '\0';
	}
}

int ph_load(struct ph_file *pf, const char *path, uint32_t nodes,
	    const char *from, char *err, size_t len)
{
	struct ph_builder p;
	char *line = NULL, *stmt = NULL, **argv = NULL;
	size_t cap = 0, slen = 0;
	int rc, lineno = 0, first = 0;
	FILE *f;
	ssize_t n;

	rc = ph_build_init(&p, pf, path, nodes, from, err, len);
	if (rc)
		return ph_build_end(&p, rc);
	f = strcmp(path, "-") ? fopen(path, "r") : stdin;
	if (!f) {
		rc = ph_fail(&p, "%s", strerror(errno));
		return ph_build_end(&p, rc);
	}
	argv = calloc(PH_MAX_ARGS, sizeof(*argv));
	if (!argv)
		rc = ph_fail(&p, "out of memory");
	while (!rc && (n = getline(&line, &cap, f)) >= 0) {
		int cont, argc;
		char *s;

		lineno++;
		while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
			line[--n] = '\0';
		cont = n > 0 && line[n - 1] == '\\';
		if (cont)
			line[--n] = '\0';
		s = realloc(stmt, slen + n + 2);
		if (!s) {
			rc = ph_fail(&p, "out of memory");
			break;
		}
		stmt = s;
		if (!slen)
			first = lineno;
		memcpy(stmt + slen, line, n);
		slen += n;
		stmt[slen++] = ' ';
		stmt[slen] = '\0';
		if (cont)
			continue;
		p.line = first;
		argc = split(stmt, argv, PH_MAX_ARGS);
		slen = 0;
		if (argc < 0)
			rc = ph_fail(&p, "statement too long");
		else if (argc > 0)
			rc = statement(&p, argc, argv);
	}
	if (!rc && ferror(f))
		rc = ph_fail(&p, "%s", strerror(errno));
	if (!rc && slen) {
		p.line = first;
		rc = ph_fail(&p, "the last line ends with '\\'");
	}
	if (f != stdin)
		fclose(f);
	free(line);
	free(stmt);
	free(argv);
	if (!rc)
		p.line = 0;
	return ph_build_end(&p, rc);
}

static int keyword(const char *s)
{
	static const char *const kw[] = {
		"nodes", "phase", "slot", "mesh", "shift", "xor", "scatter",
		"gather", "perm",
	};
	size_t i;

	for (i = 0; i < sizeof(kw) / sizeof(kw[0]); i++)
		if (!strcmp(s, kw[i]))
			return 1;
	return 0;
}

int ph_args(struct ph_file *pf, int argc, char **argv, uint32_t nodes,
	    const char *from, char *err, size_t len)
{
	struct ph_builder p;
	int i = 0, j, rc;

	rc = ph_build_init(&p, pf, NULL, nodes, from, err, len);
	while (!rc && i < argc) {
		if (!keyword(argv[i])) {
			rc = ph_fail(&p, "'%s': expected slot, phase or a "
				     "generator (mesh, shift, xor, scatter, "
				     "gather, perm)", argv[i]);
			break;
		}
		j = i + 1;
		if (!strcmp(argv[i], "phase") || !strcmp(argv[i], "nodes")) {
			/* a name may be a keyword: "phase mesh mesh 8x8" */
			j = j < argc ? j + 1 : j;
			if (!strcmp(argv[i], "phase") && j + 1 < argc &&
			    !strcmp(argv[j], "at"))
				j += 2;
		} else {
			while (j < argc && !keyword(argv[j]))
				j++;
		}
		rc = statement(&p, j - i, argv + i);
		i = j;
	}
	return ph_build_end(&p, rc);
}
