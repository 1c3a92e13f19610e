// SPDX-License-Identifier: GPL-2.0
/*
 * hn_ctl_fabname.c - libhybridnet: the names of a fabric's switches,
 * ports and links, "swL.I", "swL.I/upP", "nodeU" (docs/names.md), as the
 * module's refusals spell them: by the engine's own printer and parser
 * (kmod/core/fab_name.c), on the shape FABRIC_GET gives.
 */
#include <errno.h>

#include "libhybridnet.h"
#include "fab_name.h"

/* the engine's view of @f's shape */
static void shape(const struct hn_ctl_fabric *f, struct hn_fabric_info *fi)
{
	*fi = (struct hn_fabric_info){
		.levels = f->levels, .width = f->width, .nodes = f->nodes,
		.switches = f->switches, .radix = f->radix, .links = f->links,
		.max_hops = f->max_hops,
	};
}

const char *hn_ctl_fabric_name(const struct hn_ctl_fabric *f, uint32_t sw,
			       uint32_t port, char *buf, size_t len)
{
	struct hn_fabric_info fi;
	struct hn_fab_name n;

	shape(f, &fi);
	if (hn_fab_of(&fi, sw, port, &n))
		return NULL;
	return hn_fab_print(&n, buf, len > UINT32_MAX ? UINT32_MAX : (u32)len);
}

int hn_ctl_fabric_parse(const struct hn_ctl_fabric *f, const char *name,
			uint32_t *sw, uint32_t *port)
{
	struct hn_fabric_info fi;
	struct hn_fab_name n;

	if (hn_fab_scan(name, &n))
		return -EINVAL;
	if (!f)
		return 0;
	shape(f, &fi);
	return hn_fab_numbers(&fi, &n, sw, port) ? -EINVAL : 0;
}

int hn_ctl_fabric_parse_chan(const struct hn_ctl_fabric *f, const char *name,
			     uint32_t *sw, uint32_t *port, uint32_t *chan)
{
	struct hn_fabric_info fi;
	struct hn_fab_name n;
	u32 j;

	if (hn_fab_scan_chan(name, &n, &j))
		return -EINVAL;
	if (!f)
		return 0;
	shape(f, &fi);
	if (hn_fab_numbers(&fi, &n, sw, port))
		return -EINVAL;
	*chan = j;
	return 0;
}

const char *hn_ctl_chans_name(uint8_t bits, char *buf)
{
	return hn_fab_chans_print(bits, buf);
}
