// SPDX-License-Identifier: GPL-2.0
/*
 * phase.c - hnctl's phase files: statements (nodes, phase, slot and the
 * generators of phase_gen.c), the checks a preload must pass, selecting
 * the phases to load and printing them back as a file or as JSON.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "phase_int.h"

#define PH_BITMAP	((size_t)PH_MAX_NODES * PH_MAX_NODES / 8)
#define PH_MAX_ARGS	(PH_MAX_NODES + 8)	/* a "perm" of every node */

int ph_fail(struct ph_parser *p, const char *fmt, ...)
{
	const char *path = p->pf->path;
	size_t n = 0;
	va_list ap;

	if (path && p->line)
		n = snprintf(p->err, p->errlen, "%s:%d: ", path, p->line);
	else if (path)
		n = snprintf(p->err, p->errlen, "%s: ", path);
	if (n >= p->errlen)
		return -1;
	va_start(ap, fmt);
	vsnprintf(p->err + n, p->errlen - n, fmt, ap);
	va_end(ap);
	return -1;
}

int ph_u32(const char *s, uint32_t *v)
{
	unsigned long long x;
	char *end;

	if (!isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	x = strtoull(s, &end, 10);
	if (errno || *end || x > UINT32_MAX)
		return -1;
	*v = (uint32_t)x;
	return 0;
}

int ph_i64(const char *s, int64_t *v)
{
	long long x;
	char *end;

	if (!isdigit((unsigned char)*s) &&
	    !((*s == '-' || *s == '+') && isdigit((unsigned char)s[1])))
		return -1;
	errno = 0;
	x = strtoll(s, &end, 10);
	if (errno || *end)
		return -1;
	*v = x;
	return 0;
}

static int bit(const unsigned char *map, uint32_t src, uint32_t dst)
{
	size_t b = (size_t)src * PH_MAX_NODES + dst;

	return map[b / 8] >> (b % 8) & 1;
}

static void set_bit(unsigned char *map, uint32_t src, uint32_t dst, int on)
{
	size_t b = (size_t)src * PH_MAX_NODES + dst;

	if (on)
		map[b / 8] |= 1u << (b % 8);
	else
		map[b / 8] &= ~(1u << (b % 8));
}

static struct ph_phase *cur_phase(struct ph_parser *p)
{
	struct ph_file *pf = p->pf;

	return pf->nphases ? &pf->phases[pf->nphases - 1] : NULL;
}

/* Where (slot, line) an earlier slot of @ph has (src, dst). */
static const struct ph_slot *find_conn(const struct ph_phase *ph,
				       uint32_t src, uint32_t dst)
{
	size_t i;
	uint32_t j;

	for (i = 0; i < ph->nslots; i++)
		for (j = 0; j < ph->slots[i].npairs; j++)
			if (ph->slots[i].pairs[j].src == src &&
			    ph->slots[i].pairs[j].dst == dst)
				return &ph->slots[i];
	return NULL;
}

static int new_phase(struct ph_parser *p, const char *name)
{
	struct ph_file *pf = p->pf;
	struct ph_phase *ph, *old = cur_phase(p);
	size_t i;

	/* the connections of the last phase no longer count */
	if (old)
		for (i = 0; i < old->nslots; i++) {
			uint32_t j;

			for (j = 0; j < old->slots[i].npairs; j++) {
				const struct hn_ctl_pair *q =
					&old->slots[i].pairs[j];

				if (q->src < PH_MAX_NODES &&
				    q->dst < PH_MAX_NODES)
					set_bit(p->conn, q->src, q->dst, 0);
			}
		}
	ph = realloc(pf->phases, (pf->nphases + 1) * sizeof(*ph));
	if (!ph)
		return ph_fail(p, "out of memory");
	pf->phases = ph;
	ph = &pf->phases[pf->nphases++];
	memset(ph, 0, sizeof(*ph));
	snprintf(ph->name, sizeof(ph->name), "%s", name);
	ph->line = p->line;
	p->next = 0;
	return 0;
}

struct ph_slot *ph_new_slot(struct ph_parser *p, uint32_t slot)
{
	struct ph_phase *ph = cur_phase(p);
	struct ph_slot *s;
	size_t i;

	if (!ph) {
		/* slots before any phase line: the file is one phase */
		if (new_phase(p, ""))
			return NULL;
		p->implicit = 1;
		ph = cur_phase(p);
	}
	p->started = 1;
	if (slot == UINT32_MAX)
		slot = p->next;
	if (p->strict && slot >= PH_MAX_SLOTS) {
		ph_fail(p, "slot %u out of range (slots are 0..%u)", slot,
			PH_MAX_SLOTS - 1);
		return NULL;
	}
	for (i = 0; p->strict && i < ph->nslots; i++)
		if (ph->slots[i].slot == slot) {
			if (ph->slots[i].line && ph->slots[i].line != p->line)
				ph_fail(p, "slot %u is already configured (line %d)",
					slot, ph->slots[i].line);
			else
				ph_fail(p, "slot %u is already configured",
					slot);
			return NULL;
		}
	if (ph->nslots == ph->cap) {
		size_t cap = ph->cap ? 2 * ph->cap : 8;

		s = realloc(ph->slots, cap * sizeof(*s));
		if (!s) {
			ph_fail(p, "out of memory");
			return NULL;
		}
		ph->slots = s;
		ph->cap = cap;
	}
	s = &ph->slots[ph->nslots++];
	memset(s, 0, sizeof(*s));
	s->slot = slot;
	s->line = p->line;
	p->next = slot + 1;
	p->serial++;
	return s;
}

/* The kernel's checks of one explicit pair (strict parsers). */
static int check_pair(struct ph_parser *p, struct ph_slot *s, uint32_t src,
		      uint32_t dst)
{
	uint32_t n = p->pf->nodes ? p->pf->nodes : PH_MAX_NODES;
	const struct ph_slot *o;
	uint32_t j;

	if (src >= n || dst >= n) {
		if (p->pf->nodes)
			return ph_fail(p, "pair %u:%u: node %u out of range "
				       "(%u nodes)", src, dst,
				       src >= n ? src : dst, n);
		return ph_fail(p, "pair %u:%u: node %u out of range (at most "
			       "%u nodes)", src, dst, src >= n ? src : dst, n);
	}
	if (p->stamp[src] == p->serial || p->stamp[PH_MAX_NODES + dst] ==
	    p->serial) {
		int in = p->stamp[src] == p->serial;
		const struct hn_ctl_pair *q =
			&s->pairs[in ? p->idx[src] : p->idx[PH_MAX_NODES + dst]];

		return ph_fail(p, "two circuits %s in slot %u: %u:%u and %u:%u",
			       in ? "from one input" : "to one output", s->slot,
			       q->src, q->dst, src, dst);
	}
	if (bit(p->conn, src, dst)) {
		o = find_conn(cur_phase(p), src, dst);
		if (o && o->line && o->line != p->line)
			return ph_fail(p, "connection %u:%u is already in slot "
				       "%u (line %d)", src, dst, o->slot,
				       o->line);
		return ph_fail(p, "connection %u:%u is already in slot %u",
			       src, dst, o ? o->slot : 0);
	}
	j = s->npairs;
	p->stamp[src] = p->serial;
	p->idx[src] = j;
	p->stamp[PH_MAX_NODES + dst] = p->serial;
	p->idx[PH_MAX_NODES + dst] = j;
	return 0;
}

int ph_add(struct ph_parser *p, struct ph_slot *s, uint32_t src, uint32_t dst,
	   int generated)
{
	int known = src < PH_MAX_NODES && dst < PH_MAX_NODES;

	if (generated && (src == dst || bit(p->conn, src, dst)))
		return 0;
	if (!generated && p->strict && check_pair(p, s, src, dst))
		return -1;
	if (s->npairs == s->cap) {
		uint32_t cap = s->cap ? 2 * s->cap : 16;
		struct hn_ctl_pair *q = realloc(s->pairs, cap * sizeof(*q));

		if (!q)
			return ph_fail(p, "out of memory");
		s->pairs = q;
		s->cap = cap;
	}
	s->pairs[s->npairs++] = (struct hn_ctl_pair){ src, dst };
	if (known)
		set_bit(p->conn, src, dst, 1);
	return 0;
}

static int parse_pair(const char *tok, uint32_t *src, uint32_t *dst)
{
	const char *colon = strchr(tok, ':');
	char a[16];

	if (!colon || (size_t)(colon - tok) >= sizeof(a))
		return -1;
	memcpy(a, tok, colon - tok);
	a[colon - tok] = '\0';
	return ph_u32(a, src) || ph_u32(colon + 1, dst) ? -1 : 0;
}

/* slot [N] [SRC:DST ...] */
static int st_slot(struct ph_parser *p, int argc, char **argv)
{
	uint32_t slot = UINT32_MAX, src, dst;
	struct ph_slot *s;
	int i = 1;

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
		if (parse_pair(argv[i], &src, &dst))
			return ph_fail(p, "slot %u: '%s' is not a SRC:DST pair",
				       s->slot, argv[i]);
		if (ph_add(p, s, src, dst, 0))
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
static int st_phase(struct ph_parser *p, int argc, char **argv)
{
	const struct ph_phase *ph = cur_phase(p);
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
	if (new_phase(p, argv[1]))
		return -1;
	p->started = 1;
	p->next = at;
	return 0;
}

/* nodes N */
static int st_nodes(struct ph_parser *p, int argc, char **argv)
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

static int statement(struct ph_parser *p, int argc, char **argv)
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

static int parser_init(struct ph_parser *p, struct ph_file *pf,
		       const char *path, uint32_t nodes, const char *from,
		       char *err, size_t len)
{
	memset(pf, 0, sizeof(*pf));
	memset(p, 0, sizeof(*p));
	pf->path = path;
	pf->nodes = nodes;
	p->pf = pf;
	p->strict = path != NULL;
	p->from = from;
	p->err = err;
	p->errlen = len;
	err[0] = '\0';
	p->conn = calloc(1, PH_BITMAP);
	p->stamp = calloc(2 * PH_MAX_NODES, sizeof(*p->stamp));
	p->idx = calloc(2 * PH_MAX_NODES, sizeof(*p->idx));
	if (!p->conn || !p->stamp || !p->idx)
		return ph_fail(p, "out of memory");
	return 0;
}

static int parser_end(struct ph_parser *p, int rc)
{
	const struct ph_phase *ph = cur_phase(p);

	if (!rc && !ph) {
		p->line = 0;
		rc = ph_fail(p, "no slot configuration");
	} else if (!rc && !ph->nslots) {
		p->line = ph->line;
		rc = ph_fail(p, "phase %s has no slot configuration",
			     ph->name);
	}
	free(p->conn);
	free(p->stamp);
	free(p->idx);
	if (rc)
		ph_free(p->pf);
	return rc;
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
	struct ph_parser p;
	char *line = NULL, *stmt = NULL, **argv = NULL;
	size_t cap = 0, slen = 0;
	int rc, lineno = 0, first = 0;
	FILE *f;
	ssize_t n;

	rc = parser_init(&p, pf, path, nodes, from, err, len);
	if (rc)
		return parser_end(&p, rc);
	f = strcmp(path, "-") ? fopen(path, "r") : stdin;
	if (!f) {
		rc = ph_fail(&p, "%s", strerror(errno));
		return parser_end(&p, rc);
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
	return parser_end(&p, rc);
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
	struct ph_parser p;
	int i = 0, j, rc;

	rc = parser_init(&p, pf, NULL, nodes, from, err, len);
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
	return parser_end(&p, rc);
}

void ph_free(struct ph_file *pf)
{
	size_t i, j;

	for (i = 0; i < pf->nphases; i++) {
		for (j = 0; j < pf->phases[i].nslots; j++)
			free(pf->phases[i].slots[j].pairs);
		free(pf->phases[i].slots);
	}
	free(pf->phases);
	pf->phases = NULL;
	pf->nphases = 0;
}

static const struct ph_phase *find_phase(const struct ph_file *pf,
					 const char *name)
{
	size_t i;

	for (i = 0; i < pf->nphases; i++)
		if (!strcmp(pf->phases[i].name, name))
			return &pf->phases[i];
	return NULL;
}

static void phase_list(const struct ph_file *pf, char *buf, size_t len)
{
	size_t i, n = 0;

	buf[0] = '\0';
	for (i = 0; i < pf->nphases && n < len; i++)
		n += snprintf(buf + n, len - n, "%s%s", i ? ", " : "",
			      pf->phases[i].name);
}

/* The phase and slot of @pf before @ph that have (src, dst). */
static const struct ph_phase *conn_owner(const struct ph_file *pf,
					 const struct ph_phase *ph,
					 const struct hn_ctl_pair *q,
					 const struct ph_slot **slot)
{
	const struct ph_phase *o;

	for (o = pf->phases; o < ph; o++) {
		*slot = find_conn(o, q->src, q->dst);
		if (*slot)
			return o;
	}
	return NULL;
}

static void mark_phase(unsigned char *map, const struct ph_phase *ph)
{
	size_t j;
	uint32_t k;

	for (j = 0; j < ph->nslots; j++)
		for (k = 0; k < ph->slots[j].npairs; k++) {
			const struct hn_ctl_pair *q = &ph->slots[j].pairs[k];

			if (q->src < PH_MAX_NODES && q->dst < PH_MAX_NODES)
				set_bit(map, q->src, q->dst, 1);
		}
}

/* A connection in two of the phases: the kernel would refuse it too. */
static int check_conns(const struct ph_file *pf, char *err, size_t len)
{
	const char *path = pf->path ? pf->path : "preload";
	unsigned char *map = calloc(1, PH_BITMAP);
	const struct ph_phase *ph, *o;
	const struct ph_slot *s, *os;
	size_t i, j;
	uint32_t k;

	if (!map) {
		snprintf(err, len, "out of memory");
		return -1;
	}
	for (i = 0; i < pf->nphases; i++) {
		ph = &pf->phases[i];
		for (j = 0; j < ph->nslots; j++) {
			s = &ph->slots[j];
			for (k = 0; k < s->npairs; k++) {
				const struct hn_ctl_pair *q = &s->pairs[k];

				if (q->src >= PH_MAX_NODES ||
				    q->dst >= PH_MAX_NODES ||
				    !bit(map, q->src, q->dst))
					continue;
				o = conn_owner(pf, ph, q, &os);
				if (!o)
					continue;
				snprintf(err, len, "%s:%d: connection %u:%u is in "
					 "phase %s (slot %u, line %d) and in "
					 "phase %s (slot %u): load one of them "
					 "with --phase NAME", path, s->line,
					 q->src, q->dst, o->name, os->slot,
					 os->line, ph->name, s->slot);
				free(map);
				return -1;
			}
		}
		mark_phase(map, ph);
	}
	free(map);
	return 0;
}

/* Phases loaded together: no slot, no connection in two of them. */
static int check_overlap(const struct ph_file *pf, char *err, size_t len)
{
	const struct ph_slot *by_slot[PH_MAX_SLOTS] = { NULL };
	const struct ph_phase *owner[PH_MAX_SLOTS] = { NULL };
	const char *path = pf->path ? pf->path : "preload";
	size_t i, j;

	for (i = 0; i < pf->nphases; i++) {
		const struct ph_phase *ph = &pf->phases[i];

		for (j = 0; j < ph->nslots; j++) {
			const struct ph_slot *s = &ph->slots[j];

			if (s->slot >= PH_MAX_SLOTS)
				continue;	/* the kernel will say */
			if (by_slot[s->slot]) {
				snprintf(err, len, "%s:%d: slot %u is in phase "
					 "%s (line %d) and in phase %s: load "
					 "one of them with --phase NAME", path,
					 s->line, s->slot,
					 owner[s->slot]->name,
					 by_slot[s->slot]->line, ph->name);
				return -1;
			}
			by_slot[s->slot] = s;
			owner[s->slot] = ph;
		}
	}
	return check_conns(pf, err, len);
}

int ph_select(const struct ph_file *pf, const char *name,
	      struct hn_ctl_slot_cfg **cfg, size_t *n, const char **phase,
	      char *err, size_t len)
{
	const struct ph_phase *only = NULL;
	size_t i, j, k = 0, total = 0;
	char names[256];

	*cfg = NULL;
	*n = 0;
	*phase = NULL;
	if (name) {
		only = find_phase(pf, name);
		if (!only) {
			phase_list(pf, names, sizeof(names));
			snprintf(err, len, "%s: no phase '%s' (phases: %s)",
				 pf->path ? pf->path : "preload", name,
				 names);
			return -1;
		}
		total = only->nslots;
		*phase = only->name[0] ? only->name : NULL;
	} else {
		if (pf->nphases > 1 && check_overlap(pf, err, len))
			return -1;
		for (i = 0; i < pf->nphases; i++)
			total += pf->phases[i].nslots;
		if (pf->nphases == 1 && pf->phases[0].name[0])
			*phase = pf->phases[0].name;
	}
	*cfg = calloc(total ? total : 1, sizeof(**cfg));
	if (!*cfg) {
		snprintf(err, len, "out of memory");
		return -1;
	}
	for (i = 0; i < pf->nphases; i++) {
		const struct ph_phase *ph = &pf->phases[i];

		if (only && ph != only)
			continue;
		for (j = 0; j < ph->nslots; j++) {
			(*cfg)[k].slot = ph->slots[j].slot;
			(*cfg)[k].npairs = ph->slots[j].npairs;
			(*cfg)[k].pairs = ph->slots[j].pairs;
			k++;
		}
	}
	*n = k;
	return 0;
}

static void print_text(const struct ph_file *pf, const struct ph_phase *only)
{
	size_t i, j;
	uint32_t p;

	if (pf->nodes)
		printf("nodes %u\n", pf->nodes);
	for (i = 0; i < pf->nphases; i++) {
		const struct ph_phase *ph = &pf->phases[i];

		if (only && ph != only)
			continue;
		if (ph->name[0])
			printf("phase %s\n", ph->name);
		for (j = 0; j < ph->nslots; j++) {
			const struct ph_slot *s = &ph->slots[j];

			printf("slot %u", s->slot);
			for (p = 0; p < s->npairs; p++)
				printf(" %u:%u", s->pairs[p].src,
				       s->pairs[p].dst);
			putchar('\n');
		}
	}
}

static void print_json(const struct ph_file *pf, const struct ph_phase *only)
{
	size_t i, j;
	uint32_t p;

	j_obj(NULL);
	if (pf->nodes)
		j_u64("nodes", pf->nodes);
	j_arr("phases");
	for (i = 0; i < pf->nphases; i++) {
		const struct ph_phase *ph = &pf->phases[i];

		if (only && ph != only)
			continue;
		j_obj(NULL);
		if (ph->name[0])
			j_str("name", ph->name);
		j_arr("slots");
		for (j = 0; j < ph->nslots; j++) {
			const struct ph_slot *s = &ph->slots[j];

			j_obj(NULL);
			j_u64("slot", s->slot);
			j_arr("pairs");
			for (p = 0; p < s->npairs; p++) {
				j_obj(NULL);
				j_u64("src", s->pairs[p].src);
				j_u64("dst", s->pairs[p].dst);
				j_obj_end();
			}
			j_arr_end();
			j_obj_end();
		}
		j_arr_end();
		j_obj_end();
	}
	j_arr_end();
	j_obj_end();
	j_end();
}

void ph_print(const struct ph_file *pf, const char *name, int json)
{
	const struct ph_phase *only = name ? find_phase(pf, name) : NULL;

	if (json)
		print_json(pf, only);
	else
		print_text(pf, only);
}
