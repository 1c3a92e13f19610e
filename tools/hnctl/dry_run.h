/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dry_run.h - the fabric hnctl checks a request against, and -n's checks
 * by the module's engine in user space (dry_run.c).
 */
#ifndef HNCTL_DRY_RUN_H
#define HNCTL_DRY_RUN_H

#include "hnctl.h"
#include "hn_core.h"

struct dry {
	struct hn_ctl_config cfg;	/* mask 0: nothing is known */
	const char *from;		/* "the fabric", or -c's file */
	struct hn_engine *e;		/* a dry run's, with cfg known */
};

/*
 * The fabric's configuration into d->cfg: -c's file, or the module's
 * (connecting; a dry run without the module leaves it unknown).  0, or
 * EXIT_* once said why.
 */
int dry_fabric(struct hnctl *o, struct dry *d);
/* A dry run with a known configuration: its engine, with the module's
 * circuits (none from a file).  0, or EXIT_* once said why. */
int dry_engine(struct hnctl *o, struct dry *d);
/*
 * Apply a preload (@second: of the second level) to the dry run's
 * engine, if any: 0, or EXIT_KERNEL once said why, as the kernel would
 * ("hnctl: preload refused: ...").
 */
int dry_preload(struct dry *d, const struct hn_ctl_slot_cfg *cfg, size_t n,
		int second);
void dry_free(struct dry *d);

#endif /* HNCTL_DRY_RUN_H */
