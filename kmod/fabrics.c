// SPDX-License-Identifier: GPL-2.0
/*
 * fabrics.c - the fabrics the module runs, by number: what names a fabric
 * to a request that comes from outside it, the link kind's
 * IFLA_HYBRIDNET_FABRIC (netdev.c).  There is one, fabric 0, which the
 * module makes at load and removes at unload (main.c).
 *
 * The table changes under the RTNL, which its readers hold: a fabric
 * found stays until they let go of it, and one that is going is found no
 * more before its interfaces go.
 */
#include <linux/rtnetlink.h>

#include "hn_kmod.h"

static struct hn_dev *hn_fabric0;

void hn_fabric_register(struct hn_dev *hd)
{
	rtnl_lock();
	hn_fabric0 = hd;
	rtnl_unlock();
}

void hn_fabric_unregister(struct hn_dev *hd)
{
	rtnl_lock();
	if (hn_fabric0 == hd)
		hn_fabric0 = NULL;
	rtnl_unlock();
}

/* Fabric @index, or NULL.  RTNL. */
struct hn_dev *hn_fabric_get(u32 index)
{
	ASSERT_RTNL();
	return index ? NULL : hn_fabric0;
}
