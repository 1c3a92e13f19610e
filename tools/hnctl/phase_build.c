// SPDX-License-Identifier: GPL-2.0
/*
 * phase_build.c - the builder of hnctl's phase files: a struct ph_file
 * grows phase by phase, slot by slot, pair by pair, and a strict builder
 * (a file) checks every explicit pair as the kernel would.  The parser
 * (phase_parse.c) and the generators (phase_gen.c) build with these
 * functions; the builder calls neither.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "phase_int.h"

int ph_fail(struct ph_builder *p, const char *fmt, ...)
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

/* ---- the numbers of the statements, for the parser and the generators */

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

int ph_u32_pair(const char *s, char sep, uint32_t *a, uint32_t *b)
{
	const char *mid = strchr(s, sep);
	char first[16];

	if (!mid || (size_t)(mid - s) >= sizeof(first))
		return -1;
	memcpy(first, s, mid - s);
	first[mid - s] = '\0';
	return ph_u32(first, a) || ph_u32(mid + 1, b) ? -1 : 0;
}

/* ---- phases, slots and pairs */

struct ph_phase *ph_cur_phase(struct ph_builder *p)
{
	struct ph_file *pf = p->pf;

	return pf->nphases ? &pf->phases[pf->nphases - 1] : NULL;
}

/* Where (slot, line) an earlier slot of @ph has (src, dst). */
const struct ph_slot *ph_find_conn(const struct ph_phase *ph,
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

const struct ph_phase *ph_find_phase(const struct ph_file *pf,
				     const char *name)
{
	size_t i;

	for (i = 0; i < pf->nphases; i++)
		if (!strcmp(pf->phases[i].name, name))
			return &pf->phases[i];
	return NULL;
}

int ph_new_phase(struct ph_builder *p, const char *name)
{
	struct ph_file *pf = p->pf;
	struct ph_phase *ph, *old = ph_cur_phase(p);
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
					ph_set_bit(p->conn, q->src, q->dst, 0);
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

struct ph_slot *ph_new_slot(struct ph_builder *p, uint32_t slot)
{
	struct ph_phase *ph = ph_cur_phase(p);
	struct ph_slot *s;
	size_t i;

	if (!ph) {
		/* slots before any phase line: the file is one phase */
		if (ph_new_phase(p, ""))
			return NULL;
		p->implicit = 1;
		ph = ph_cur_phase(p);
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

/* The kernel's checks of one explicit pair's nodes (every builder). */
static int check_nodes(struct ph_builder *p, uint32_t src, uint32_t dst)
{
	uint32_t n = p->pf->nodes ? p->pf->nodes : PH_MAX_NODES;

	if (src == dst)
		return ph_fail(p, "pair %u:%u: %s", src, dst, HN_SELF_CIRCUIT);
	if (src < n && dst < n)
		return 0;
	if (p->pf->nodes)
		return ph_fail(p, "pair %u:%u: node %u out of range (%u nodes)",
			       src, dst, src >= n ? src : dst, n);
	return ph_fail(p, "pair %u:%u: node %u out of range (at most %u "
		       "nodes)", src, dst, src >= n ? src : dst, n);
}

/* And its place in the phase (strict builders). */
static int check_pair(struct ph_builder *p, struct ph_slot *s, uint32_t src,
		      uint32_t dst)
{
	const struct ph_slot *o;
	uint32_t j;

	if (p->stamp[src] == p->serial || p->stamp[PH_MAX_NODES + dst] ==
	    p->serial) {
		int in = p->stamp[src] == p->serial;
		const struct hn_ctl_pair *q =
			&s->pairs[in ? p->idx[src] : p->idx[PH_MAX_NODES + dst]];

		return ph_fail(p, "two circuits %s in slot %u: %u:%u and %u:%u",
			       in ? "from one input" : "to one output", s->slot,
			       q->src, q->dst, src, dst);
	}
	if (ph_bit(p->conn, src, dst)) {
		o = ph_find_conn(ph_cur_phase(p), src, dst);
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

int ph_add(struct ph_builder *p, struct ph_slot *s, uint32_t src, uint32_t dst,
	   int generated)
{
	int known = src < PH_MAX_NODES && dst < PH_MAX_NODES;

	if (generated && (src == dst || ph_bit(p->conn, src, dst)))
		return 0;
	if (!generated && check_nodes(p, src, dst))
		return -1;
	if (!generated && p->strict && check_pair(p, s, src, dst))
		return -1;
	if (s->npairs == s->cap) {
		uint32_t cap = s->cap ? 2 * s->cap : 16;
		struct hn_ctl_pair *q = realloc(s->pairs, cap * sizeof(*q));
		struct hn_ctl_path *t;

		if (!q)
			return ph_fail(p, "out of memory");
		s->pairs = q;
		if (s->paths) {
			t = realloc(s->paths, cap * sizeof(*t));
			if (!t)
				return ph_fail(p, "out of memory");
			memset(t + s->cap, 0, (cap - s->cap) * sizeof(*t));
			s->paths = t;
		}
		s->cap = cap;
	}
	s->pairs[s->npairs++] = (struct hn_ctl_pair){ src, dst };
	if (known)
		ph_set_bit(p->conn, src, dst, 1);
	return 0;
}

int ph_set_path(struct ph_builder *p, struct ph_slot *s,
		const struct hn_ctl_path *path)
{
	if (!s->paths) {
		s->paths = calloc(s->cap, sizeof(*s->paths));
		if (!s->paths)
			return ph_fail(p, "out of memory");
	}
	s->paths[s->npairs - 1] = *path;
	return 0;
}

/* ---- the builder's life */

int ph_build_init(struct ph_builder *p, struct ph_file *pf,
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

int ph_build_end(struct ph_builder *p, int rc)
{
	const struct ph_phase *ph = ph_cur_phase(p);

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

void ph_free(struct ph_file *pf)
{
	size_t i, j;

	for (i = 0; i < pf->nphases; i++) {
		for (j = 0; j < pf->phases[i].nslots; j++) {
			free(pf->phases[i].slots[j].pairs);
			free(pf->phases[i].slots[j].paths);
		}
		free(pf->phases[i].slots);
	}
	free(pf->phases);
	pf->phases = NULL;
	pf->nphases = 0;
}
