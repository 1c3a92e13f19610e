/* SPDX-License-Identifier: GPL-2.0 */
/*
 * phase.h - hnctl's phase files: named phases, each a list of slot
 * configurations written as pairs or with generators (mesh, shift, xor,
 * scatter, gather, perm).  docs/hnctl.md describes the format.
 *
 * The same statements can come from a file (ph_load) or from the command
 * line of "hnctl preload" (ph_args).  From a file every configuration is
 * checked as the kernel would (node range, partial permutation, one slot
 * per connection) so that a mistake is reported with its line; from the
 * command line only the syntax is, and the kernel has the last word.
 *
 * phase_parse.c reads the statements, phase_gen.c has the generators,
 * phase_build.c builds the struct ph_file (phase_int.h), phase_select.c
 * picks what to send and phase_print.c prints it back.
 */
#ifndef HNCTL_PHASE_H
#define HNCTL_PHASE_H

#include <stddef.h>
#include <stdint.h>

#include "libhybridnet.h"

#define PH_NAME_MAX	63		/* HYBRIDNET_ATTR_PHASE, without NUL */

struct ph_slot {
	uint32_t slot;
	int line;			/* where it was configured */
	uint32_t npairs, cap;
	struct hn_ctl_pair *pairs;
	struct hn_ctl_path *paths;	/* fat tree: NULL, or one per pair */
};

struct ph_phase {
	char name[PH_NAME_MAX + 1];	/* "" in a file without phase lines */
	int line;
	size_t nslots, cap;
	struct ph_slot *slots;
};

struct ph_file {
	const char *path;		/* NULL: the command line */
	uint32_t nodes;			/* 0: not known */
	size_t nphases;
	struct ph_phase *phases;
};

/*
 * Parse @path ("-" is stdin) (phase_parse.c).  @nodes (0: unknown) is the node count
 * known from elsewhere, @from says where ("--nodes", "the fabric"): a
 * file's "nodes" line must agree with it.  On failure, @err holds
 * "PATH:LINE: reason" and -1 is returned.
 */
int ph_load(struct ph_file *pf, const char *path, uint32_t nodes,
	    const char *from, char *err, size_t len);
/* The same for statements on a command line (argv of "preload"). */
int ph_args(struct ph_file *pf, int argc, char **argv, uint32_t nodes,
	    const char *from, char *err, size_t len);
void ph_free(struct ph_file *pf);

/*
 * The slot configurations to send: those of phase @name, or of every
 * phase when @name is NULL (their slots and connections must not
 * overlap).  *cfg (free() it) points into @pf; *phase is the name to
 * announce, or NULL.
 */
int ph_select(const struct ph_file *pf, const char *name,
	      struct hn_ctl_slot_cfg **cfg, size_t *n, const char **phase,
	      char *err, size_t len);

/* " SRC:DST", and "/P0.P1..." with a path of a fat tree (may be NULL). */
void ph_print_pair(const struct hn_ctl_pair *p, const struct hn_ctl_path *path);

/* Print phase @name (NULL: all) as a phase file, or as JSON. */
void ph_print(const struct ph_file *pf, const char *name, int json);

#endif /* HNCTL_PHASE_H */
