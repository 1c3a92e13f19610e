// SPDX-License-Identifier: GPL-2.0
/*
 * hn_ctl_capture.c - libhybridnet's control plane: the capture interface
 * (HYBRIDNET_CMD_CAPTURE_ON, _OFF and _GET).
 */
#include <errno.h>
#include <string.h>

#include "hn_ctl_int.h"

int hn_ctl_capture_on(struct hn_ctl *c, const char *name, uint32_t snaplen,
		      uint32_t ring)
{
	struct nl_msg *m = hn_ctl_msg(c, HYBRIDNET_CMD_CAPTURE_ON, 64, 0);

	if (m && ((name && nla_put_string(m, HYBRIDNET_ATTR_IFNAME, name)) ||
		  (snaplen != HN_CTL_CAPTURE_DEFAULT &&
		   nla_put_u32(m, HYBRIDNET_ATTR_SNAPLEN, snaplen)) ||
		  (ring != HN_CTL_CAPTURE_DEFAULT &&
		   nla_put_u32(m, HYBRIDNET_ATTR_RING, ring)))) {
		nlmsg_free(m);
		return -EMSGSIZE;
	}
	return hn_ctl_run(c, m, NULL, NULL);
}

int hn_ctl_capture_off(struct hn_ctl *c)
{
	return hn_ctl_run(c, hn_ctl_msg(c, HYBRIDNET_CMD_CAPTURE_OFF, 0, 0),
			  NULL, NULL);
}

static uint64_t get_u64(struct nlattr **tb, int attr)
{
	return tb[attr] ? nla_get_u64(tb[attr]) : 0;
}

static int capture_reply(struct nlattr **tb, struct nlmsghdr *nlh, void *arg)
{
	struct hn_ctl_capture *cap = arg;

	(void)nlh;
	if (!tb[HYBRIDNET_ATTR_IFNAME])
		return 0;	/* capture is off */
	if (!tb[HYBRIDNET_ATTR_IFINDEX] || !tb[HYBRIDNET_ATTR_SNAPLEN] ||
	    !tb[HYBRIDNET_ATTR_RING])
		return -EPROTO;
	cap->on = 1;
	nla_strlcpy(cap->name, tb[HYBRIDNET_ATTR_IFNAME], sizeof(cap->name));
	cap->ifindex = nla_get_u32(tb[HYBRIDNET_ATTR_IFINDEX]);
	cap->netns_cookie = get_u64(tb, HYBRIDNET_ATTR_NETNS_COOKIE);
	cap->snaplen = nla_get_u32(tb[HYBRIDNET_ATTR_SNAPLEN]);
	cap->ring = nla_get_u32(tb[HYBRIDNET_ATTR_RING]);
	cap->captured = get_u64(tb, HYBRIDNET_ATTR_CAPTURED);
	cap->truncated = get_u64(tb, HYBRIDNET_ATTR_TRUNCATED);
	cap->rx_drop_no_mem = get_u64(tb, HYBRIDNET_ATTR_RX_DROP_NO_MEM);
	cap->rx_drop_ring_full = get_u64(tb, HYBRIDNET_ATTR_RX_DROP_RING_FULL);
	return 0;
}

int hn_ctl_capture_get(struct hn_ctl *c, struct hn_ctl_capture *cap)
{
	memset(cap, 0, sizeof(*cap));
	return hn_ctl_run(c, hn_ctl_msg(c, HYBRIDNET_CMD_CAPTURE_GET, 0, 0),
			  capture_reply, cap);
}
