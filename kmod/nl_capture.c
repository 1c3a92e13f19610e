// SPDX-License-Identifier: GPL-2.0
/*
 * nl_capture.c - HYBRIDNET_CMD_CAPTURE_ON, _OFF and _GET: the capture
 * interface (capture.c) through netlink.
 *
 * ON makes the fabric's in the caller's network namespace, named IFNAME
 * or hnmon0,
 * keeping SNAPLEN bytes of each payload (default and most
 * HYBRIDNET_CAPTURE_SNAPLEN_MAX) on a ring of RING frames (default
 * HN_CAP_RING_DEFAULT),
 * and brings it up.  OFF removes it wherever it is.  GET answers with its
 * IFNAME, IFINDEX, NETNS_COOKIE, SNAPLEN, RING and counters (CAPTURED,
 * TRUNCATED, RX_DROP_NO_MEM, RX_DROP_RING_FULL), or with nothing when
 * there is none.
 */
#include <linux/netdevice.h>

#include "hn_nl.h"

static struct netlink_range_validation hn_snaplen_range = {
	.max = HYBRIDNET_CAPTURE_SNAPLEN_MAX,
};

static struct netlink_range_validation hn_ring_range = {
	.min = 1,
	.max = HN_CAP_RING_MAX,
};

const struct nla_policy hn_capture_policy[HYBRIDNET_ATTR_MAX + 1] = {
	[HYBRIDNET_ATTR_IFNAME] = { .type = NLA_NUL_STRING, .len = IFNAMSIZ - 1 },
	[HYBRIDNET_ATTR_SNAPLEN] = NLA_POLICY_FULL_RANGE(NLA_U32, &hn_snaplen_range),
	[HYBRIDNET_ATTR_RING] = NLA_POLICY_FULL_RANGE(NLA_U32, &hn_ring_range),
	HN_NL_POLICY_FABRIC,
};

int hn_nl_capture_on(struct sk_buff *skb, struct genl_info *info)
{
	const struct nlattr *ia = info->attrs[HYBRIDNET_ATTR_IFNAME];
	const struct nlattr *sa = info->attrs[HYBRIDNET_ATTR_SNAPLEN];
	const struct nlattr *ra = info->attrs[HYBRIDNET_ATTR_RING];
	const char *name = ia ? nla_data(ia) : NULL;
	struct hn_dev *hd = hn_nl_dev(info);
	struct hn_cap_info ci;
	enum hn_cap_why why;
	int rc;

	if (name && !dev_valid_name(name)) {
		hn_nl_errf(info, ia, "\"%s\" is not a valid interface name",
			   name);
		return -EINVAL;
	}
	rc = hn_cap_add(hd, genl_info_net(info), name,
			sa ? nla_get_u32(sa) : HYBRIDNET_CAPTURE_SNAPLEN_MAX,
			ra ? nla_get_u32(ra) : HN_CAP_RING_DEFAULT, &why);
	if (!rc || rc == -ENOMEM)
		return rc;
	if (why == HN_CAP_WHY_EXISTS && !hn_cap_info(hd, &ci))
		hn_nl_errf(info, NULL, "capture is on already: %s (hnctl capture off first)",
			   ci.name);
	else if (why == HN_CAP_WHY_NAME)
		hn_nl_errf(info, ia, "the name %s is taken in this network namespace",
			   name ?: "hnmon0");
	else
		hn_nl_errf(info, ia, "%s", hn_cap_why(why));
	return rc;
}

int hn_nl_capture_off(struct sk_buff *skb, struct genl_info *info)
{
	int rc = hn_cap_del(hn_nl_dev(info));

	if (rc == -ENODEV)
		NL_SET_ERR_MSG(info->extack, "capture is off: there is no capture interface");
	return rc;
}

static int hn_put_capture(struct sk_buff *skb, struct hn_dev *hd)
{
	static const int attr[HN_CAP_CNT_NR] = {
		[HN_CAP_CAPTURED] = HYBRIDNET_ATTR_CAPTURED,
		[HN_CAP_TRUNCATED] = HYBRIDNET_ATTR_TRUNCATED,
		[HN_CAP_DROP_NO_MEM] = HYBRIDNET_ATTR_RX_DROP_NO_MEM,
		[HN_CAP_DROP_RING_FULL] = HYBRIDNET_ATTR_RX_DROP_RING_FULL,
	};
	struct hn_cap_info ci;
	int i;

	if (hn_cap_info(hd, &ci))
		return 0;	/* none: an empty reply */
	if (nla_put_string(skb, HYBRIDNET_ATTR_IFNAME, ci.name) ||
	    nla_put_u32(skb, HYBRIDNET_ATTR_IFINDEX, ci.ifindex) ||
	    nla_put_u64_64bit(skb, HYBRIDNET_ATTR_NETNS_COOKIE,
			      ci.netns_cookie, HYBRIDNET_ATTR_PAD) ||
	    nla_put_u32(skb, HYBRIDNET_ATTR_SNAPLEN, ci.snaplen) ||
	    nla_put_u32(skb, HYBRIDNET_ATTR_RING, ci.ring))
		return -EMSGSIZE;
	for (i = 0; i < HN_CAP_CNT_NR; i++)
		if (nla_put_u64_64bit(skb, attr[i], ci.cnt[i],
				      HYBRIDNET_ATTR_PAD))
			return -EMSGSIZE;
	return 0;
}

int hn_nl_capture_get(struct sk_buff *skb, struct genl_info *info)
{
	return hn_nl_reply(info, HYBRIDNET_CMD_CAPTURE_GET, 256,
			   hn_put_capture);
}
