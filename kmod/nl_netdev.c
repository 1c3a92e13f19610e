// SPDX-License-Identifier: GPL-2.0
/*
 * nl_netdev.c - HYBRIDNET_CMD_NETDEV_DEL and _GET: remove a node's
 * network interface (netdev.c), and the list of interfaces.  They are
 * made by rtnetlink alone (the link kind "hybridnet").
 *
 * DEL removes the caller's namespace's interface IFNAME, or the
 * interface of NODE wherever it is, of the fabric (which rtnetlink cannot
 * name).  The GET dump gives, per interface of the fabric, what names it
 * across namespaces (its NODE, ADDRESS and NETNS_COOKIE) beside what
 * names it inside its own (IFNAME, IFINDEX).
 */
#include <linux/etherdevice.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <net/net_namespace.h>

#include "hn_nl.h"

const struct nla_policy hn_netdev_policy[HYBRIDNET_ATTR_MAX + 1] = {
	[HYBRIDNET_ATTR_NODE] = NLA_POLICY_MAX(NLA_U32, HYBRIDNET_MAX_NODES - 1),
	[HYBRIDNET_ATTR_IFNAME] = { .type = NLA_NUL_STRING, .len = IFNAMSIZ - 1 },
	HN_NL_POLICY_FABRIC,
};

int hn_nl_netdev_del(struct sk_buff *skb, struct genl_info *info)
{
	const struct nlattr *na = info->attrs[HYBRIDNET_ATTR_NODE];
	const struct nlattr *ia = info->attrs[HYBRIDNET_ATTR_IFNAME];
	struct hn_dev *hd = hn_nl_dev(info);
	int rc;

	if (!na == !ia) {
		NL_SET_ERR_MSG(info->extack,
			       "give the interface's name or its node, one of them");
		return -EINVAL;
	}
	rc = hn_netdev_del(hd, genl_info_net(info), ia ? nla_data(ia) : NULL,
			   na ? nla_get_u32(na) : 0);
	if (rc == -ENODEV && ia)
		hn_nl_errf(info, ia, "no interface %s in this network namespace",
			   (const char *)nla_data(ia));
	else if (rc == -ENODEV)
		hn_nl_errf(info, na, "node %u has no interface",
			   nla_get_u32(na));
	else if (rc == -EOPNOTSUPP)
		hn_nl_errf(info, ia, "%s is not an interface of hybridnet",
			   (const char *)nla_data(ia));
	else if (rc == -EXDEV)
		hn_nl_errf(info, ia, "%s is an interface of another fabric",
			   (const char *)nla_data(ia));
	return rc;
}

static int hn_put_netdev(struct sk_buff *skb, u32 node,
			 const struct net_device *ndev)
{
	if (nla_put_u32(skb, HYBRIDNET_ATTR_NODE, node) ||
	    nla_put_string(skb, HYBRIDNET_ATTR_IFNAME, ndev->name) ||
	    nla_put_u32(skb, HYBRIDNET_ATTR_IFINDEX, ndev->ifindex) ||
	    nla_put(skb, HYBRIDNET_ATTR_ADDRESS, ETH_ALEN, ndev->dev_addr) ||
	    nla_put_u64_64bit(skb, HYBRIDNET_ATTR_NETNS_COOKIE,
			      dev_net(ndev)->net_cookie, HYBRIDNET_ATTR_PAD))
		return -EMSGSIZE;
	return 0;
}

/* One message per interface, by node; cb->args[0] is the next node. */
int hn_nl_netdev_dump(struct sk_buff *skb, struct netlink_callback *cb,
		      struct hn_dev *hd)
{
	const struct net_device *ndev;
	u32 u = cb->args[0];
	void *hdr;

	rtnl_lock();
	mutex_lock(&hd->lock);
	for (; u < HYBRIDNET_MAX_NODES; u++) {
		ndev = hn_netdev_get(hd, u);
		if (!ndev)
			continue;
		hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid,
				  cb->nlh->nlmsg_seq, &hn_nl_family,
				  NLM_F_MULTI, HYBRIDNET_CMD_NETDEV_GET);
		if (!hdr)
			break;
		if (hn_put_netdev(skb, u, ndev)) {
			genlmsg_cancel(skb, hdr);
			break;
		}
		genlmsg_end(skb, hdr);
	}
	mutex_unlock(&hd->lock);
	rtnl_unlock();
	cb->args[0] = u;
	return skb->len;
}
