// SPDX-License-Identifier: GPL-2.0
/*
 * phase_gen.c - the generators of hnctl's phase files.  Each one adds
 * slot configurations to the current phase, numbered on from the last,
 * with the builder's functions (phase_build.c) and nothing else:
 *
 *   mesh [WxH] [open] [dirs ewsn]   one slot per direction of a 2-D mesh
 *                                   (the W x H grid of node = y W + x);
 *                                   wraps around unless "open"
 *   shift D...                      one slot per distance: s -> s + D
 *   xor M...                        one slot per mask: s -> s XOR M
 *   scatter ROOT [D...]             one slot per distance: ROOT -> ROOT + D
 *   gather ROOT [D...]              one slot per distance: ROOT - D -> ROOT
 *   perm D0 D1 ...                  one slot: s -> Ds ('-': none)
 *
 * D and M may be ranges A..B.  Nodes are taken modulo N.  A generated
 * pair that connects a node to itself, or repeats a connection the phase
 * already has (a connection lives in one slot only), is left out.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "phase_int.h"

static int need_nodes(struct ph_builder *p, const char *what)
{
	if (p->pf->nodes)
		return 0;
	return ph_fail(p, "'%s' needs the node count: %s or give --nodes N",
		       what, p->pf->path ? "add a 'nodes N' line" :
		       "add 'nodes N'");
}

/* The values of @argv: numbers and ranges A..B, at most PH_MAX_SLOTS. */
static int values(struct ph_builder *p, const char *what, int argc,
		  char **argv, int64_t *v, size_t *n, int neg)
{
	int64_t a, b, x;
	int i;

	*n = 0;
	for (i = 0; i < argc; i++) {
		char *dots = strstr(argv[i], ".."), *tok = argv[i];

		if (dots) {
			*dots = '\0';
			if (ph_i64(tok, &a) || ph_i64(dots + 2, &b) || a > b) {
				*dots = '.';
				return ph_fail(p, "%s: '%s' is not a range A..B "
					       "with A <= B", what, tok);
			}
			*dots = '.';
		} else if (ph_i64(tok, &a)) {
			return ph_fail(p, "%s: '%s' is not a number", what,
				       tok);
		} else {
			b = a;
		}
		if (!neg && a < 0)
			return ph_fail(p, "%s: '%s' is negative", what, tok);
		if (b - a >= PH_MAX_SLOTS)
			return ph_fail(p, "%s: more than %u slot configurations",
				       what, PH_MAX_SLOTS);
		for (x = a; x <= b; x++) {
			if (*n == PH_MAX_SLOTS)
				return ph_fail(p, "%s: more than %u slot "
					       "configurations", what,
					       PH_MAX_SLOTS);
			v[(*n)++] = x;
		}
	}
	return 0;
}

static uint32_t mod_n(int64_t d, uint32_t n)
{
	int64_t m = d % (int64_t)n;

	return (uint32_t)(m < 0 ? m + n : m);
}

/* The grid the engine's mesh patterns use for N nodes (traffic.c). */
static void grid_of(uint32_t n, uint32_t *w, uint32_t *h)
{
	uint32_t r = 0, d;

	while ((uint64_t)(r + 1) * (r + 1) <= n)
		r++;
	for (d = r; d > 1 && n % d; d--)
		;
	*h = d ? d : 1;
	*w = n / *h;
}

static int gen_mesh(struct ph_builder *p, int argc, char **argv)
{
	const char *dirs = "ewsn";
	uint32_t w = 0, h = 0, n = p->pf->nodes, x, y;
	int i = 1, wrap = 1;
	size_t d;

	if (i < argc && isdigit((unsigned char)argv[i][0])) {
		if (ph_u32_pair(argv[i], 'x', &w, &h) || !w || !h)
			return ph_fail(p, "mesh: '%s' is not WxH (e.g. 8x8)",
				       argv[i]);
		i++;
	}
	for (; i < argc; i++) {
		if (!strcmp(argv[i], "open")) {
			wrap = 0;
		} else if (!strcmp(argv[i], "wrap")) {
			wrap = 1;
		} else if (!strcmp(argv[i], "dirs") && i + 1 < argc) {
			dirs = argv[++i];
			for (d = 0; dirs[d]; d++)
				if (!strchr("ewsn", dirs[d]) ||
				    strchr(dirs + d + 1, dirs[d]))
					break;
			if (!*dirs || dirs[d])
				return ph_fail(p, "mesh: dirs '%s': give each "
					       "of e, w, s, n at most once",
					       dirs);
		} else {
			return ph_fail(p, "mesh: unknown argument '%s' (usage: "
				       "mesh [WxH] [open] [dirs ewsn])",
				       argv[i]);
		}
	}
	if (!w) {
		if (need_nodes(p, "mesh"))
			return -1;
		grid_of(n, &w, &h);
	}
	if ((uint64_t)w * h < 2 || (uint64_t)w * h > PH_MAX_NODES)
		return ph_fail(p, "mesh %ux%u: a mesh has 2 to %u nodes", w, h,
			       PH_MAX_NODES);
	if (n && (uint64_t)w * h > n)
		return ph_fail(p, "mesh %ux%u needs %u nodes, there are %u", w,
			       h, w * h, n);
	for (d = 0; dirs[d]; d++) {
		struct ph_slot *s = ph_new_slot(p, UINT32_MAX);

		if (!s)
			return -1;
		for (y = 0; y < h; y++) {
			for (x = 0; x < w; x++) {
				int64_t nx = x, ny = y;

				switch (dirs[d]) {
				case 'e': nx++; break;
				case 'w': nx--; break;
				case 's': ny++; break;
				default: ny--; break;
				}
				if (!wrap && (nx < 0 || nx >= w || ny < 0 ||
					      ny >= h))
					continue;
				nx = (nx + w) % w;
				ny = (ny + h) % h;
				if (ph_add(p, s, y * w + x,
					   (uint32_t)(ny * w + nx), 1))
					return -1;
			}
		}
	}
	return 0;
}

/* shift, scatter, gather: one slot per distance */
static int gen_dist(struct ph_builder *p, int argc, char **argv)
{
	const char *what = argv[0];
	int64_t v[PH_MAX_SLOTS];
	uint32_t n = p->pf->nodes, root = 0, s, m;
	int shift = !strcmp(what, "shift"), first = shift ? 1 : 2;
	size_t nv, i;

	if (need_nodes(p, what))
		return -1;
	if (!shift) {
		if (argc < 2 || ph_u32(argv[1], &root))
			return ph_fail(p, "usage: %s ROOT [DISTANCE...]", what);
		if (root >= n)
			return ph_fail(p, "%s: root %u out of range (%u nodes)",
				       what, root, n);
	}
	if (argc <= first && shift)
		return ph_fail(p, "usage: shift DISTANCE...");
	if (argc <= first) {
		if (n - 1 > PH_MAX_SLOTS)
			return ph_fail(p, "%s %u: %u destinations need more than "
				       "%u slots: give the distances (e.g. "
				       "'%s %u 1..4')", what, root, n - 1,
				       PH_MAX_SLOTS, what, root);
		for (nv = 0; nv < n - 1; nv++)
			v[nv] = (int64_t)nv + 1;
	} else if (values(p, what, argc - first, argv + first, v, &nv, 1)) {
		return -1;
	}
	for (i = 0; i < nv; i++) {
		struct ph_slot *sl;

		m = mod_n(v[i], n);
		if (!m)
			return ph_fail(p, "%s: distance %lld connects a node to "
				       "itself (%u nodes)", what,
				       (long long)v[i], n);
		sl = ph_new_slot(p, UINT32_MAX);
		if (!sl)
			return -1;
		if (shift) {
			for (s = 0; s < n; s++)
				if (ph_add(p, sl, s, (s + m) % n, 1))
					return -1;
		} else if (!strcmp(what, "scatter")) {
			if (ph_add(p, sl, root, (root + m) % n, 1))
				return -1;
		} else if (ph_add(p, sl, (root + n - m) % n, root, 1)) {
			return -1;
		}
	}
	return 0;
}

static int gen_xor(struct ph_builder *p, int argc, char **argv)
{
	int64_t v[PH_MAX_SLOTS];
	uint32_t n = p->pf->nodes, s, m;
	size_t nv, i;

	if (need_nodes(p, "xor"))
		return -1;
	if (argc < 2)
		return ph_fail(p, "usage: xor MASK...");
	if (values(p, "xor", argc - 1, argv + 1, v, &nv, 0))
		return -1;
	for (i = 0; i < nv; i++) {
		struct ph_slot *sl;

		m = v[i] > UINT32_MAX ? 0 : (uint32_t)v[i];
		for (s = 0; m && s < n && (s ^ m) >= n; s++)
			;
		if (!m || s == n)
			return ph_fail(p, "xor %lld connects no two nodes (%u "
				       "nodes)", (long long)v[i], n);
		sl = ph_new_slot(p, UINT32_MAX);
		if (!sl)
			return -1;
		for (s = 0; s < n; s++)
			if ((s ^ m) < n && ph_add(p, sl, s, s ^ m, 1))
				return -1;
	}
	return 0;
}

static int gen_perm(struct ph_builder *p, int argc, char **argv)
{
	uint32_t n = p->pf->nodes ? p->pf->nodes : PH_MAX_NODES, d;
	struct ph_slot *sl;
	int s;

	if (argc < 2)
		return ph_fail(p, "usage: perm D0 D1 ... (D of node s, or '-')");
	if ((uint32_t)(argc - 1) > n)
		return ph_fail(p, "perm: %d entries for %u nodes", argc - 1, n);
	sl = ph_new_slot(p, UINT32_MAX);
	if (!sl)
		return -1;
	for (s = 0; s + 1 < argc; s++) {
		if (!strcmp(argv[s + 1], "-"))
			continue;
		if (ph_u32(argv[s + 1], &d))
			return ph_fail(p, "perm: '%s' is not a node or '-'",
				       argv[s + 1]);
		if (d != (uint32_t)s && ph_add(p, sl, (uint32_t)s, d, 0))
			return -1;
	}
	return 0;
}

int ph_generate(struct ph_builder *p, int argc, char **argv)
{
	if (!strcmp(argv[0], "mesh"))
		return gen_mesh(p, argc, argv);
	if (!strcmp(argv[0], "shift") || !strcmp(argv[0], "scatter") ||
	    !strcmp(argv[0], "gather"))
		return gen_dist(p, argc, argv);
	if (!strcmp(argv[0], "xor"))
		return gen_xor(p, argc, argv);
	if (!strcmp(argv[0], "perm"))
		return gen_perm(p, argc, argv);
	return 1;
}
