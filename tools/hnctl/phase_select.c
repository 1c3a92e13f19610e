// SPDX-License-Identifier: GPL-2.0
/*
 * phase_select.c - the slot configurations a preload sends (ph_select):
 * one phase, or all of them when no slot and no connection is in two.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "phase_int.h"

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
		*slot = ph_find_conn(o, q->src, q->dst);
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
				ph_set_bit(map, q->src, q->dst, 1);
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
				    !ph_bit(map, q->src, q->dst))
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
		only = ph_find_phase(pf, name);
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
			(*cfg)[k].paths = ph->slots[j].paths;
			k++;
		}
	}
	*n = k;
	return 0;
}
