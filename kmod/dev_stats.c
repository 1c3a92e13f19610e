// SPDX-License-Identifier: GPL-2.0
/*
 * dev_stats.c - the device's statistics as a whole, for sysfs and netlink:
 * the engine's global figures brought up to date, and one reset of every
 * counter (the engine's, the clock's, the ports' and the errors).
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
