/* SPDX-License-Identifier: GPL-2.0 */
/*
 * phase_int.h - inside hnctl's phase files (phase.h is the outside): the
 * builder's state and functions (phase_build.c), which the parser
 * (phase_parse.c), the generators (phase_gen.c), the selection
 * (phase_select.c) and the printer (phase_print.c) use.
 *
 * Calls go one way: parse -> gen -> build, and select, print -> build.
 */
#ifndef HNCTL_PHASE_INT_H
#define HNCTL_PHASE_INT_H

#include "phase.h"
#include "hn_core.h"		/* HN_SELF_CIRCUIT */

#define PH_MAX_NODES	HYBRIDNET_MAX_NODES
#define PH_MAX_SLOTS	HYBRIDNET_MAX_SLOTS
/* a bitmap of (src, dst) connections */
#define PH_BITMAP	((size_t)PH_MAX_NODES * PH_MAX_NODES / 8)

/* A phase file being built, and where the statements come from. */
struct ph_builder {
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

static inline int ph_bit(const unsigned char *map, uint32_t src, uint32_t dst)
{
	size_t b = (size_t)src * PH_MAX_NODES + dst;

	return map[b / 8] >> (b % 8) & 1;
}

static inline void ph_set_bit(unsigned char *map, uint32_t src, uint32_t dst,
			      int on)
{
	size_t b = (size_t)src * PH_MAX_NODES + dst;

	if (on)
		map[b / 8] |= 1u << (b % 8);
	else
		map[b / 8] &= ~(1u << (b % 8));
}

/*
 * Start building @pf: from file @path (strict) or the command line
 * (@path NULL), @nodes known from @from (0: unknown), errors into @err.
 * 0 or -1 (error set).
 */
int ph_build_init(struct ph_builder *p, struct ph_file *pf,
		  const char *path, uint32_t nodes, const char *from,
		  char *err, size_t len);
/* Finish: @rc so far, or an error when a phase has no slot; frees the
 * builder's state, and @pf too on failure. */
int ph_build_end(struct ph_builder *p, int rc);

/* Sets the error ("PATH:LINE: ..."); returns -1. */
int ph_fail(struct ph_builder *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* The phase being built (NULL before the first). */
struct ph_phase *ph_cur_phase(struct ph_builder *p);
/* A new phase @name ("": the file's only, unnamed phase). */
int ph_new_phase(struct ph_builder *p, const char *name);
/* A new slot configuration in the current phase (number @slot, or the
 * next one when @slot is UINT32_MAX). */
struct ph_slot *ph_new_slot(struct ph_builder *p, uint32_t slot);
/*
 * Add (src, dst) to @s.  A generated pair is skipped when it connects a
 * node to itself or repeats a connection of the phase; an explicit one is
 * checked (strict builders only).
 */
int ph_add(struct ph_builder *p, struct ph_slot *s, uint32_t src,
	   uint32_t dst, int generated);
/* The pair added last goes by @path (a fat tree's up-ports). */
int ph_set_path(struct ph_builder *p, struct ph_slot *s,
		const struct hn_ctl_path *path);

/* The phase called @name; the slot of @ph that has (src, dst). */
const struct ph_phase *ph_find_phase(const struct ph_file *pf,
				     const char *name);
const struct ph_slot *ph_find_conn(const struct ph_phase *ph,
				   uint32_t src, uint32_t dst);

/* Unsigned / signed decimal numbers, whole token; "A<sep>B" ("3:5", "8x8"). */
int ph_u32(const char *s, uint32_t *v);
int ph_i64(const char *s, int64_t *v);
int ph_u32_pair(const char *s, char sep, uint32_t *a, uint32_t *b);

/* The generators (phase_gen.c): argv[0] is the keyword.  Returns 0, -1
 * (error set) or 1 when argv[0] is not a generator. */
int ph_generate(struct ph_builder *p, int argc, char **argv);

#endif /* HNCTL_PHASE_INT_H */
