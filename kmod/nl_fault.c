// SPDX-License-Identifier: GPL-2.0
/*
 * nl_fault.c - HYBRIDNET_CMD_FAULT_SET: a link or a switch of the fabric
 * down or up again, or a random set of links down (the engine's fault.c;
 * docs/model.md "Faults").  The link is given by number (LINK), as a
 * node's (NODE) or as the one on a switch's port (SWITCH and PORT); a
 * switch by SWITCH alone; with LINK_CHANNEL, that channel of the link
 * alone, and RANDOM_CHANNELS a random set of channels (a dilated link's,
 * under switching drop).  The event names what changed, so a monitor
 * reads it as the hnctl command that did it; the clock looks again,
 * since messages that waited for a route may go.
 */
#include "hn_nl.h"
#include "fab_name.h"

/* The event of what a request changed: the name read under hd->lock */
static void hn_fault_event(struct hn_dev *hd, const struct hn_nl_fault *f)
{
	char name[HN_FAB_NAME_LEN] = "";

	size_t n;

	if (!f->random) {
		mutex_lock(&hd->lock);
		if (hn_fault_name(hd->e, f->sw, f->id, name, sizeof(name)))
			name[0] = 0;
		mutex_unlock(&hd->lock);
		n = strlen(name);
		if (n && f->ch)
			snprintf(name + n, sizeof(name) - n, "/c%u", f->chan);
	}
	hn_nl_fault_event(hd, f, name);
}

/* What the request names, under hd->lock: done, or -errno said. */
/* The circuits the change just made routed again, for its event: 0 */
static int hn_rerouted(struct hn_dev *hd, struct hn_nl_fault *f)
{
	f->rerouted = hn_fault_rerouted(hd->e);
	return 0;
}

static int hn_fault_apply(struct hn_dev *hd, struct genl_info *info,
			  struct hn_nl_fault *f)
{
	struct nlattr **tb = info->attrs, *rnd;
	struct hn_err err = { };
	bool down = f->down;
	u32 link, sw, port;
	u64 seed = 1;
	int rc;

	rnd = tb[HYBRIDNET_ATTR_RANDOM] ?: tb[HYBRIDNET_ATTR_RANDOM_CHANNELS];
	if (rnd) {
		if (!down) {
			NL_SET_ERR_MSG_ATTR(info->extack, rnd,
					    "random links or channels go down only: bring each up by its name");
			return -EINVAL;
		}
		if (tb[HYBRIDNET_ATTR_SEED])
			seed = nla_get_u64(tb[HYBRIDNET_ATTR_SEED]);
		f->seed = seed;
		f->count = nla_get_u32(rnd);
		f->random = nla_type(rnd);
		if (f->random == HYBRIDNET_ATTR_RANDOM)
			rc = hn_set_fault_random(hd->e, f->count, seed,
						 &f->released, &err) ?:
			     hn_rerouted(hd, f);
		else
			rc = hn_set_chan_fault_random(hd->e, f->count, seed,
						      &err);
		return rc ? hn_nl_core_err(info, rc, &err, "fault refused") : 0;
	}
	if (tb[HYBRIDNET_ATTR_SWITCH] && !tb[HYBRIDNET_ATTR_PORT]) {
		f->sw = true;
		f->id = nla_get_u32(tb[HYBRIDNET_ATTR_SWITCH]);
		rc = hn_set_fault(hd->e, true, f->id, down, &f->released,
				  &err) ?: hn_rerouted(hd, f);
		return rc ? hn_nl_core_err(info, rc, &err, "fault refused") : 0;
	}
	if (tb[HYBRIDNET_ATTR_LINK]) {
		link = nla_get_u32(tb[HYBRIDNET_ATTR_LINK]);
	} else if (tb[HYBRIDNET_ATTR_NODE]) {
		link = hn_link_at(hd->e, HN_NONE,
				  nla_get_u32(tb[HYBRIDNET_ATTR_NODE]));
	} else {
		sw = nla_get_u32(tb[HYBRIDNET_ATTR_SWITCH]);
		port = nla_get_u32(tb[HYBRIDNET_ATTR_PORT]);
		link = hn_link_at(hd->e, sw, port);
		if (link == HN_NONE) {
			hn_nl_errf(info, tb[HYBRIDNET_ATTR_PORT],
				   "switch %u has no link on port %u", sw,
				   port);
			return -EINVAL;
		}
	}
	f->id = link;
	if (tb[HYBRIDNET_ATTR_LINK_CHANNEL]) {
		f->ch = true;
		f->chan = nla_get_u32(tb[HYBRIDNET_ATTR_LINK_CHANNEL]);
		rc = hn_set_chan_fault(hd->e, link, f->chan, down, &err);
	} else {
		rc = hn_set_fault(hd->e, false, link, down, &f->released,
				  &err) ?: hn_rerouted(hd, f);
	}
	return rc ? hn_nl_core_err(info, rc, &err, "fault refused") : 0;
}

int hn_nl_fault_set(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr **tb = info->attrs;
	struct hn_dev *hd = hn_nl_dev(info);
	struct hn_nl_fault f = { };
	int rc, given;

	if (GENL_REQ_ATTR_CHECK(info, HYBRIDNET_ATTR_DOWN))
		return -EINVAL;
	given = !!tb[HYBRIDNET_ATTR_LINK] + !!tb[HYBRIDNET_ATTR_NODE] +
		!!tb[HYBRIDNET_ATTR_SWITCH] + !!tb[HYBRIDNET_ATTR_RANDOM] +
		!!tb[HYBRIDNET_ATTR_RANDOM_CHANNELS];
	if (given != 1 || (tb[HYBRIDNET_ATTR_PORT] && !tb[HYBRIDNET_ATTR_SWITCH])) {
		NL_SET_ERR_MSG(info->extack,
			       "give exactly one of link, node, switch (with port: the link on it), random or random-channels");
		return -EINVAL;
	}
	if (tb[HYBRIDNET_ATTR_LINK_CHANNEL] &&
	    (tb[HYBRIDNET_ATTR_RANDOM] || tb[HYBRIDNET_ATTR_RANDOM_CHANNELS] ||
	     (tb[HYBRIDNET_ATTR_SWITCH] && !tb[HYBRIDNET_ATTR_PORT]))) {
		NL_SET_ERR_MSG_ATTR(info->extack,
				    tb[HYBRIDNET_ATTR_LINK_CHANNEL],
				    "link-channel is a channel of a link: give the link by link, node, or switch and port");
		return -EINVAL;
	}
	f.down = nla_get_u8(tb[HYBRIDNET_ATTR_DOWN]);
	mutex_lock(&hd->lock);
	rc = hn_fault_apply(hd, info, &f);
	mutex_unlock(&hd->lock);
	if (rc)
		return rc;
	hn_clock_kick(hd);
	hn_fault_event(hd, &f);
	return 0;
}
