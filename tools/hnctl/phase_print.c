// SPDX-License-Identifier: GPL-2.0
/*
 * phase_print.c - phases printed back as a phase file or as JSON.
 */
#include <stdio.h>

#include "json.h"
#include "phase_int.h"

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
				ph_print_pair(&s->pairs[p],
					      s->paths ? &s->paths[p] : NULL);
			putchar('\n');
		}
	}
}

void ph_print_pair(const struct hn_ctl_pair *p, const struct hn_ctl_path *path)
{
	uint32_t h;

	printf(" %u:%u", p->src, p->dst);
	for (h = 0; path && h < path->len; h++)
		printf("%c%u", h ? '.' : '/', path->port[h]);
}

static void print_json(const struct ph_file *pf, const struct ph_phase *only)
{
	size_t i, j;

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
			j_pairs("pairs", s->pairs, s->npairs);
			if (s->paths)
				j_paths("paths", s->paths, s->npairs);
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
	const struct ph_phase *only = name ? ph_find_phase(pf, name) : NULL;

	if (json)
		print_json(pf, only);
	else
		print_text(pf, only);
}
