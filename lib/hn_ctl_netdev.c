// SPDX-License-Identifier: GPL-2.0
/*
 * hn_ctl_netdev.c - libhybridnet's control plane: the network interfaces
 * of the nodes.  They are made by rtnetlink, as "ip link add NAME type
 * hybridnet node N" makes them (RTM_NEWLINK of the link kind hybridnet,
 * its node in IFLA_INFO_DATA); removed and listed by the generic netlink
 * family (HYBRIDNET_CMD_NETDEV_DEL, the _GET dump).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <linux/if_link.h>
#include <linux/rtnetlink.h>

#include "hn_ctl_int.h"

int hn_ctl_netdev_add(struct hn_ctl *c, const char *name, uint32_t node)
{
	struct ifinfomsg ifi = { .ifi_family = AF_UNSPEC };
	struct nlattr *info, *data;
	struct nl_msg *m;

	m = nlmsg_alloc_simple(RTM_NEWLINK, NLM_F_CREATE | NLM_F_EXCL);
	if (!m)
		return -ENOMEM;
	if (nlmsg_append(m, &ifi, sizeof(ifi), NLMSG_ALIGNTO) ||
	    (name && nla_put_string(m, IFLA_IFNAME, name)) ||
	    !(info = nla_nest_start(m, IFLA_LINKINFO)) ||
	    nla_put_string(m, IFLA_INFO_KIND, "hybridnet") ||
	    !(data = nla_nest_start(m, IFLA_INFO_DATA)) ||
	    (c->fabric != HN_CTL_FIRST_FABRIC &&
	     nla_put_u32(m, IFLA_HYBRIDNET_FABRIC, c->fabric)) ||
	    nla_put_u32(m, IFLA_HYBRIDNET_NODE, node)) {
		nlmsg_free(m);
		return -EMSGSIZE;
	}
	nla_nest_end(m, data);
	nla_nest_end(m, info);
	return hn_ctl_run_route(c, m);
}

int hn_ctl_netdev_del(struct hn_ctl *c, const char *name, uint32_t node)
{
	struct nl_msg *m = hn_ctl_msg(c, HYBRIDNET_CMD_NETDEV_DEL, 32, 0);

	if (m && (name ? nla_put_string(m, HYBRIDNET_ATTR_IFNAME, name) :
		  nla_put_u32(m, HYBRIDNET_ATTR_NODE, node))) {
		nlmsg_free(m);
		return -EMSGSIZE;
	}
	return hn_ctl_run(c, m, NULL, NULL);
}

struct netdev_ctx {
	struct hn_ctl_netdev *v;
	size_t n, cap;
};

static int netdev_reply(struct nlattr **tb, struct nlmsghdr *nlh, void *arg)
{
	struct netdev_ctx *x = arg;
	struct hn_ctl_netdev *d;

	(void)nlh;
	if (!tb[HYBRIDNET_ATTR_NODE] || !tb[HYBRIDNET_ATTR_IFNAME] ||
	    !tb[HYBRIDNET_ATTR_IFINDEX] || !tb[HYBRIDNET_ATTR_ADDRESS])
		return -EPROTO;
	if (x->n == x->cap) {
		size_t cap = x->cap ? 2 * x->cap : 16;

		d = realloc(x->v, cap * sizeof(*d));
		if (!d)
			return -ENOMEM;
		x->v = d;
		x->cap = cap;
	}
	d = &x->v[x->n++];
	memset(d, 0, sizeof(*d));
	d->node = nla_get_u32(tb[HYBRIDNET_ATTR_NODE]);
	d->ifindex = nla_get_u32(tb[HYBRIDNET_ATTR_IFINDEX]);
	strncpy(d->name, nla_get_string(tb[HYBRIDNET_ATTR_IFNAME]),
		sizeof(d->name) - 1);
	memcpy(d->address, nla_data(tb[HYBRIDNET_ATTR_ADDRESS]),
	       sizeof(d->address));
	if (tb[HYBRIDNET_ATTR_NETNS_COOKIE])
		d->netns_cookie =
			nla_get_u64(tb[HYBRIDNET_ATTR_NETNS_COOKIE]);
	return 0;
}

int hn_ctl_netdevs(struct hn_ctl *c, struct hn_ctl_netdev **out, size_t *n)
{
	struct netdev_ctx x = { 0 };
	int rc;

	rc = hn_ctl_run(c, hn_ctl_msg(c, HYBRIDNET_CMD_NETDEV_GET, 0,
				      NLM_F_DUMP), netdev_reply, &x);
	if (rc) {
		free(x.v);
		x.v = NULL;
		x.n = 0;
	}
	*out = x.v;
	*n = x.n;
	return rc;
}
