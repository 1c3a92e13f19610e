/* SPDX-License-Identifier: GPL-2.0 */
/*
 * phase_int.h - the phase parser's state, shared by phase.c (statements,
 * checks, files) and phase_gen.c (the generators).
 */
#ifndef HNCTL_PHASE_INT_H
#define HNCTL_PHASE_INT_H

#include "phase.h"

#define PH_MAX_NODES	HYBRIDNET_MAX_NODES
#define PH_MAX_SLOTS	HYBRIDNET_MAX_SLOTS

struct ph_parser {
	struct ph_file *pf;
	int strict;			/* check as the kernel would (files) */
	const char *from;		/* where a known node count came from */
	int line;			/* of the statement being parsed */
	int implicit;			/* slots came before any phase line */
	int started;			/* a phase or slot statement was seen */
	uint32_t next;			/* the next slot number of the phase */
	unsigned char *conn;		/* bitmap: connections of the phase */
	uint32_t *stamp, *idx;		/* per port, the slot being checked */
	uint32_t serial;		/* of that slot */
	char *err;
	size_t errlen;
};

/* Sets the error ("PATH:LINE: ..."); returns -1. */
int ph_fail(struct ph_parser *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* A new slot configuration in the current phase (number @slot, or the
 * next one when @slot is UINT32_MAX). */
struct ph_slot *ph_new_slot(struct ph_parser *p, uint32_t slot);
/*
 * Add (src, dst) to @s.  A generated pair is skipped when it connects a
 * node to itself or repeats a connection of the phase; an explicit one is
 * checked (strict parsers only).
 */
int ph_add(struct ph_parser *p, struct ph_slot *s, uint32_t src, uint32_t dst,
	   int generated);

/* Unsigned / signed decimal numbers, whole token. */
int ph_u32(const char *s, uint32_t *v);
int ph_i64(const char *s, int64_t *v);

/* The generators: argv[0] is the keyword.  Returns 0, -1 (error set) or
 * 1 when argv[0] is not a generator. */
int ph_generate(struct ph_parser *p, int argc, char **argv);

#endif /* HNCTL_PHASE_INT_H */
