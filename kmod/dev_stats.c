// SPDX-License-Identifier: GPL-2.0
/*
 * dev_stats.c - the device's statistics as a whole, for sysfs and netlink:
 * the engine's global figures brought up to date, and one reset of every
 * counter (the engine's, the clock's, the ports' and the errors), the
 * number of circuits, and one node's figures (the HN_NSTAT list).
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
	if (hd->idem)
		hn_idem_stats_reset(hd->idem);
	hd->resets++;
	hn_clock_reset_stats(hd);
	hn_ports_reset_stats(hd);
}

/*
 * Node @u's statistics, in the order of the HN_NSTAT list (netlink's
 * dump, an interface's ethtool -S): HN_NS_NR values into @v.
 */
void hn_dev_node_stats(struct hn_dev *hd, u32 u, u64 *v)
{
	struct hn_port_stats pstats, *ps = &pstats;
	struct hn_nstats nstats, *st = &nstats;

	lockdep_assert_held(&hd->lock);
	hn_stats_node(hd->e, u, st);
	hn_port_stats(hd, &hd->ports[u], ps);
	{
		const u64 vals[HN_NS_NR] = {
#define HN_NSTAT(file, stat, value) \
	[HN_NS_##file] = (value),
#include "hn_lists.h"
#undef HN_NSTAT
		};

		memcpy(v, vals, sizeof(vals));
	}
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
