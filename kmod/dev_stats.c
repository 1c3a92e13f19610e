// SPDX-License-Identifier: GPL-2.0
/*
 * dev_stats.c - the device's statistics as a whole, for sysfs and netlink:
 * the engine's global figures brought up to date, and one reset of every
 * counter (the engine's, the clock's, the ports' and the errors), and
 * the number of circuits.
 */
#include "hn_kmod.h"

/* The engine's global statistics now, in hd->gs. */
struct hn_gstats *hn_dev_gstats(struct hn_dev *hd)
{
	lockdep_assert_held(&hd->lock);
	hn_clock_sync(hd);
	hn_stats_global(hd->e, hd->gs);
	return hd->gs;
}

/* Clear every statistic (sysfs reset, netlink STATS_RESET). */
void hn_dev_reset_stats(struct hn_dev *hd)
{
	lockdep_assert_held(&hd->lock);
	hn_stats_reset(hd->e);
	hn_clock_reset_stats(hd);
	hn_ports_reset_stats(hd);
}

/* The circuits of @e, over all its slots (sysfs, a rebuild's reply). */
u32 hn_dev_circuits(const struct hn_engine *e)
{
	u32 s, u, n = 0;

	for (s = 0; s < hn_cfg(e)->k; s++)
		for (u = 0; u < hn_cfg(e)->nodes; u++)
			n += hn_circuit(e, s, u) != HN_NONE;
	return n;
}
