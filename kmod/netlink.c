// SPDX-License-Identifier: GPL-2.0
/*
 * netlink.c - the generic netlink family "hybridnet": policies, the
 * operations table, extack messages and the events multicast group.
 * Documentation/netlink/specs/hybridnet.yaml describes the family.
 *
 * Every operation has its own strict policy; operations that change state
 * carry GENL_ADMIN_PERM.  Node and slot numbers are checked against the
 * current configuration in the handlers, which say in the extack message
 * which node, slot or pair is at fault.
 *
 * The family is not parallel_ops: genl_mutex serialises every operation,
 * from parsing to the ack.  That is what makes hn_nl_errf()'s one static
 * message buffer safe, and it serialises configuration changes against
 * each other.  Handlers take hd->lock around each call into the engine.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/module.h>

#include "hn_nl.h"

struct hn_dev *hn_nl_hd;

static char hn_nl_msg[192];	/* see above: guarded by genl_mutex */

void hn_nl_errf(struct netlink_ext_ack *extack, const struct nlattr *attr,
		const char *fmt, ...)
{
	va_list ap;

	if (!extack)
		return;
	va_start(ap, fmt);
	vscnprintf(hn_nl_msg, sizeof(hn_nl_msg), fmt, ap);
	va_end(ap);
	extack->_msg = hn_nl_msg;
	if (attr)
		extack->bad_attr = attr;
}

/* Turn an engine refusal into an extack message; returns @rc. */
int hn_nl_core_err(struct netlink_ext_ack *extack, int rc,
		   const struct hn_err *err, const char *what)
{
	const char *msg = err->msg ? err->msg : "refused";

	if (rc == -EEXIST && err->slot != HN_NONE)
		hn_nl_errf(extack, NULL, "%s: %u:%u for slot %u is already in slot %u",
			   what, err->a.src, err->a.dst, err->slot, err->other);
	else if (err->pairs)
		hn_nl_errf(extack, NULL, "%s: %s in slot %u: %u:%u and %u:%u",
			   what, msg, err->slot, err->a.src, err->a.dst,
			   err->b.src, err->b.dst);
	else if (err->slot != HN_NONE && err->node != HN_NONE)
		hn_nl_errf(extack, NULL, "%s: %s (slot %u, node %u)", what,
			   msg, err->slot, err->node);
	else if (err->slot != HN_NONE)
		hn_nl_errf(extack, NULL, "%s: %s (slot %u)", what, msg,
			   err->slot);
	else if (err->node != HN_NONE)
		hn_nl_errf(extack, NULL, "%s: %s (node %u)", what, msg,
			   err->node);
	else
		hn_nl_errf(extack, NULL, "%s: %s", what, msg);
	return rc;
}

/* Number of top-level attributes of @type in the request. */
u32 hn_nl_count(struct genl_info *info, int type)
{
	const struct nlattr *a;
	u32 n = 0;
	int rem;

	nlmsg_for_each_attr(a, info->nlhdr, GENL_HDRLEN, rem)
		n += nla_type(a) == type;
	return n;
}

static const struct nla_policy hn_pair_policy[HYBRIDNET_ATTR_MAX + 1] = {
	[HYBRIDNET_ATTR_SRC] = NLA_POLICY_MAX(NLA_U32, HYBRIDNET_MAX_NODES - 1),
	[HYBRIDNET_ATTR_DST] = NLA_POLICY_MAX(NLA_U32, HYBRIDNET_MAX_NODES - 1),
};

/* Parse one HYBRIDNET_ATTR_PAIR nest against the current node count. */
int hn_nl_pair(const struct nlattr *nest, u32 nodes, struct hn_pair *p,
	       struct netlink_ext_ack *extack)
{
	struct nlattr *tb[HYBRIDNET_ATTR_MAX + 1];
	int rc;

	rc = nla_parse_nested(tb, HYBRIDNET_ATTR_MAX, nest, hn_pair_policy,
			      extack);
	if (rc)
		return rc;
	if (!tb[HYBRIDNET_ATTR_SRC] || !tb[HYBRIDNET_ATTR_DST]) {
		NL_SET_ERR_MSG_ATTR(extack, nest, "a pair needs src and dst");
		return -EINVAL;
	}
	p->src = nla_get_u32(tb[HYBRIDNET_ATTR_SRC]);
	p->dst = nla_get_u32(tb[HYBRIDNET_ATTR_DST]);
	if (p->src >= nodes || p->dst >= nodes) {
		hn_nl_errf(extack, nest, "pair %u:%u: node %u out of range (%u nodes)",
			   p->src, p->dst, p->src >= nodes ? p->src : p->dst,
			   nodes);
		return -EINVAL;
	}
	return 0;
}

/*
 * Every top-level HYBRIDNET_ATTR_PAIR of the request, parsed against
 * @nodes into a new array (kvfree() it) of *@np entries: at least one, at
 * most HYBRIDNET_MAX_PAIRS, counted before anything is allocated.
 */
struct hn_pair *hn_nl_pairs(struct genl_info *info, u32 nodes, u32 *np,
			    int *rc)
{
	struct netlink_ext_ack *extack = info->extack;
	u32 n = hn_nl_count(info, HYBRIDNET_ATTR_PAIR), i = 0;
	const struct nlattr *a;
	struct hn_pair *req;
	int rem;

	*rc = -EINVAL;
	if (!n) {
		NL_SET_ERR_MSG(extack, "missing pair attribute");
		return NULL;
	}
	if (n > HYBRIDNET_MAX_PAIRS) {
		hn_nl_errf(extack, NULL, "%u requests: at most %u per message",
			   n, HYBRIDNET_MAX_PAIRS);
		*rc = -E2BIG;
		return NULL;
	}
	req = kvcalloc(n, sizeof(*req), GFP_KERNEL);
	if (!req) {
		*rc = -ENOMEM;
		return NULL;
	}
	nlmsg_for_each_attr(a, info->nlhdr, GENL_HDRLEN, rem) {
		if (nla_type(a) != HYBRIDNET_ATTR_PAIR)
			continue;
		*rc = hn_nl_pair(a, nodes, &req[i++], extack);
		if (*rc) {
			kvfree(req);
			return NULL;
		}
	}
	*np = n;
	*rc = 0;
	return req;
}

static struct netlink_range_validation hn_r_nodes = {
	.min = HYBRIDNET_MIN_NODES, .max = HYBRIDNET_MAX_NODES,
};

static struct netlink_range_validation hn_r_ns = {
	.min = 0, .max = 1000000000,
};

static struct netlink_range_validation hn_r_ns1 = {
	.min = 1, .max = 1000000000,
};

static struct netlink_range_validation hn_r_mbps = {
	.min = 1, .max = 1000000,
};

static struct netlink_range_validation hn_r_buf = {
	.min = 1, .max = 64 * 1024 * 1024,
};

static struct netlink_range_validation hn_r_msg = {
	.min = 1, .max = HYBRIDNET_MAX_MSG,
};

static struct netlink_range_validation hn_r_timeout = {
	.min = 0, .max = 1000000ULL * 1000000000ULL,
};

static const struct nla_policy hn_config_policy[HYBRIDNET_ATTR_MAX + 1] = {
	[HYBRIDNET_ATTR_NODES] = NLA_POLICY_FULL_RANGE(NLA_U32, &hn_r_nodes),
	[HYBRIDNET_ATTR_SLOTS] = NLA_POLICY_MAX(NLA_U32, HYBRIDNET_MAX_SLOTS),
	[HYBRIDNET_ATTR_POLICY] = NLA_POLICY_MASK(NLA_U32, HN_POL_ALL),
	[HYBRIDNET_ATTR_LINK_MBPS] = NLA_POLICY_FULL_RANGE(NLA_U32, &hn_r_mbps),
	[HYBRIDNET_ATTR_SLOT_P_NS] = NLA_POLICY_FULL_RANGE(NLA_U32, &hn_r_ns1),
	[HYBRIDNET_ATTR_SLOT_W_NS] = NLA_POLICY_FULL_RANGE(NLA_U32, &hn_r_ns1),
	[HYBRIDNET_ATTR_GUARD_NS] = NLA_POLICY_FULL_RANGE(NLA_U32, &hn_r_ns),
	[HYBRIDNET_ATTR_SCHED_NS] = NLA_POLICY_FULL_RANGE(NLA_U32, &hn_r_ns),
	[HYBRIDNET_ATTR_SETUP_NS] = NLA_POLICY_FULL_RANGE(NLA_U32, &hn_r_ns),
	[HYBRIDNET_ATTR_WH_FIRST_NS] = NLA_POLICY_FULL_RANGE(NLA_U32, &hn_r_ns1),
	[HYBRIDNET_ATTR_WH_FLIT_NS] = NLA_POLICY_FULL_RANGE(NLA_U32, &hn_r_ns1),
	[HYBRIDNET_ATTR_FLIT_BYTES] = NLA_POLICY_RANGE(NLA_U32, 1, 4096),
	[HYBRIDNET_ATTR_WORM_BYTES] = NLA_POLICY_FULL_RANGE(NLA_U32, &hn_r_msg),
	[HYBRIDNET_ATTR_WIRE_NS] = NLA_POLICY_FULL_RANGE(NLA_U32, &hn_r_ns),
	[HYBRIDNET_ATTR_NIC_NS] = NLA_POLICY_FULL_RANGE(NLA_U32, &hn_r_ns),
	[HYBRIDNET_ATTR_FABRIC_NS] = NLA_POLICY_FULL_RANGE(NLA_U32, &hn_r_ns),
	[HYBRIDNET_ATTR_NIC_BUF] = NLA_POLICY_FULL_RANGE(NLA_U32, &hn_r_buf),
	[HYBRIDNET_ATTR_SW_BUF] = NLA_POLICY_FULL_RANGE(NLA_U32, &hn_r_buf),
	[HYBRIDNET_ATTR_RX_BUF] = NLA_POLICY_FULL_RANGE(NLA_U32, &hn_r_buf),
	[HYBRIDNET_ATTR_MAX_MSG] = NLA_POLICY_FULL_RANGE(NLA_U32, &hn_r_msg),
	[HYBRIDNET_ATTR_IDLE_TIMEOUT_NS] =
		NLA_POLICY_FULL_RANGE(NLA_U64, &hn_r_timeout),
	[HYBRIDNET_ATTR_PIN_SLOTS] = NLA_POLICY_MAX(NLA_U32, HYBRIDNET_MAX_SLOTS),
	[HYBRIDNET_ATTR_PROFILE] = { .type = NLA_NUL_STRING, .len = 15 },
	[HYBRIDNET_ATTR_CLOCK] = NLA_POLICY_MAX(NLA_U32, HYBRIDNET_CLOCK_PACED),
	[HYBRIDNET_ATTR_PACE_PPM] = NLA_POLICY_FULL_RANGE(NLA_U32, &hn_r_ns1),
	[HYBRIDNET_ATTR_PREDICT_ALGO] =
		NLA_POLICY_MAX(NLA_U32, HYBRIDNET_PREDICT_KSTEP),
	[HYBRIDNET_ATTR_PREDICT_KSTEP] =
		NLA_POLICY_RANGE(NLA_U32, 1, 2 * HYBRIDNET_MAX_NODES - 1),
};

static const struct nla_policy hn_slotcfg_policy[HYBRIDNET_ATTR_MAX + 1] = {
	[HYBRIDNET_ATTR_SLOT] = NLA_POLICY_MAX(NLA_U32, HYBRIDNET_MAX_SLOTS - 1),
	[HYBRIDNET_ATTR_PAIR] = NLA_POLICY_NESTED(hn_pair_policy),
};

static const struct nla_policy hn_preload_policy[HYBRIDNET_ATTR_MAX + 1] = {
	[HYBRIDNET_ATTR_SLOT_CONFIG] = NLA_POLICY_NESTED(hn_slotcfg_policy),
	[HYBRIDNET_ATTR_PHASE] = { .type = NLA_NUL_STRING, .len = 63 },
};

static const struct nla_policy hn_predict_policy[HYBRIDNET_ATTR_MAX + 1] = {
	[HYBRIDNET_ATTR_PAIR] = NLA_POLICY_NESTED(hn_pair_policy),
};

static const struct nla_policy hn_release_policy[HYBRIDNET_ATTR_MAX + 1] = {
	[HYBRIDNET_ATTR_PAIR] = NLA_POLICY_NESTED(hn_pair_policy),
	[HYBRIDNET_ATTR_SLOT] = NLA_POLICY_MAX(NLA_U32, HYBRIDNET_MAX_SLOTS - 1),
	[HYBRIDNET_ATTR_ALL] = { .type = NLA_FLAG },
};

static const struct nla_policy hn_sched_policy[HYBRIDNET_ATTR_MAX + 1] = {
	[HYBRIDNET_ATTR_TOPOLOGY] = { .type = NLA_NUL_STRING, .len = 31 },
	[HYBRIDNET_ATTR_ALGO] = { .type = NLA_NUL_STRING, .len = 31 },
	[HYBRIDNET_ATTR_KSTEP] = NLA_POLICY_RANGE(NLA_U32, 1, 2 * HYBRIDNET_MAX_NODES - 1),
	[HYBRIDNET_ATTR_SCHED_FLAGS] = NLA_POLICY_MASK(NLA_U32, 3),
	[HYBRIDNET_ATTR_SEED] = { .type = NLA_U64 },
	[HYBRIDNET_ATTR_PAIR] = NLA_POLICY_NESTED(hn_pair_policy),
};

static const struct nla_policy hn_stats_policy[HYBRIDNET_ATTR_MAX + 1] = {
	[HYBRIDNET_ATTR_NODE] = NLA_POLICY_MAX(NLA_U32, HYBRIDNET_MAX_NODES - 1),
};

/* Operations without a policy take no attributes (resv_start_op is 0). */
static const struct genl_ops hn_nl_ops[] = {
	{
		.cmd = HYBRIDNET_CMD_CONFIG_GET,
		.doit = hn_nl_config_get,
	},
	{
		.cmd = HYBRIDNET_CMD_CONFIG_SET,
		.doit = hn_nl_config_set,
		.policy = hn_config_policy,
		.maxattr = HYBRIDNET_ATTR_MAX,
		.flags = GENL_ADMIN_PERM,
	},
	{
		.cmd = HYBRIDNET_CMD_PRELOAD,
		.doit = hn_nl_preload,
		.policy = hn_preload_policy,
		.maxattr = HYBRIDNET_ATTR_MAX,
		.flags = GENL_ADMIN_PERM,
	},
	{
		.cmd = HYBRIDNET_CMD_PREDICT,
		.doit = hn_nl_predict,
		.policy = hn_predict_policy,
		.maxattr = HYBRIDNET_ATTR_MAX,
		.flags = GENL_ADMIN_PERM,
	},
	{
		.cmd = HYBRIDNET_CMD_RELEASE,
		.doit = hn_nl_release,
		.policy = hn_release_policy,
		.maxattr = HYBRIDNET_ATTR_MAX,
		.flags = GENL_ADMIN_PERM,
	},
	{
		.cmd = HYBRIDNET_CMD_CIRCUIT_GET,
		.dumpit = hn_nl_circuit_dump,
	},
	{
		.cmd = HYBRIDNET_CMD_STATS_GET,
		.doit = hn_nl_stats_get,
		.dumpit = hn_nl_stats_dump,
		.policy = hn_stats_policy,
		.maxattr = HYBRIDNET_ATTR_MAX,
	},
	{
		.cmd = HYBRIDNET_CMD_STATS_RESET,
		.doit = hn_nl_stats_reset,
		.flags = GENL_ADMIN_PERM,
	},
	{
		/* changes nothing, but holds genl_mutex for milliseconds */
		.cmd = HYBRIDNET_CMD_SCHED_RUN,
		.doit = hn_nl_sched_run,
		.policy = hn_sched_policy,
		.maxattr = HYBRIDNET_ATTR_MAX,
		.flags = GENL_ADMIN_PERM,
	},
	{
		.cmd = HYBRIDNET_CMD_TRAFFIC_START,
		.doit = hn_nl_traffic_start,
		.policy = hn_traffic_policy,
		.maxattr = HYBRIDNET_ATTR_MAX,
		.flags = GENL_ADMIN_PERM,
	},
	{
		.cmd = HYBRIDNET_CMD_TRAFFIC_STOP,
		.doit = hn_nl_traffic_stop,
		.flags = GENL_ADMIN_PERM,
	},
	{
		.cmd = HYBRIDNET_CMD_TRAFFIC_GET,
		.doit = hn_nl_traffic_get,
	},
};

static const struct genl_multicast_group hn_nl_mcgrps[] = {
	{ .name = HYBRIDNET_MCGRP_EVENTS },
};

struct genl_family hn_nl_family __ro_after_init = {
	.name = HYBRIDNET_GENL_NAME,
	.version = HYBRIDNET_GENL_VERSION,
	.maxattr = HYBRIDNET_ATTR_MAX,
	.module = THIS_MODULE,
	.ops = hn_nl_ops,
	.n_ops = ARRAY_SIZE(hn_nl_ops),
	.mcgrps = hn_nl_mcgrps,
	.n_mcgrps = ARRAY_SIZE(hn_nl_mcgrps),
};

/*
 * Reply to @info with one @cmd message of at most @size bytes, its
 * attributes put by @fill (which takes the locks it needs).
 */
int hn_nl_reply(struct genl_info *info, u8 cmd, size_t size,
		int (*fill)(struct sk_buff *msg, struct hn_dev *hd))
{
	struct sk_buff *msg;
	void *hdr;
	int rc;

	msg = genlmsg_new(size, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	hdr = genlmsg_put_reply(msg, info, &hn_nl_family, 0, cmd);
	rc = hdr ? fill(msg, hn_nl_hd) : -EMSGSIZE;
	if (rc) {
		nlmsg_free(msg);
		return rc;
	}
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);
}

/*
 * A new event message with room for @size bytes of attributes (0: a
 * page), or NULL when nobody listens or there is no memory.
 */
struct sk_buff *hn_nl_event_new(u32 event, size_t size, void **hdr)
{
	struct sk_buff *skb;

	if (!genl_has_listeners(&hn_nl_family, &init_net, 0))
		return NULL;
	skb = genlmsg_new(size ? size + 64 : NLMSG_GOODSIZE, GFP_KERNEL);
	if (!skb)
		return NULL;
	*hdr = genlmsg_put(skb, 0, 0, &hn_nl_family, 0, HYBRIDNET_CMD_EVENT);
	if (!*hdr || nla_put_u32(skb, HYBRIDNET_ATTR_EVENT, event)) {
		nlmsg_free(skb);
		return NULL;
	}
	return skb;
}

void hn_nl_event_send(struct sk_buff *skb, void *hdr)
{
	if (!skb)
		return;
	genlmsg_end(skb, hdr);
	genlmsg_multicast(&hn_nl_family, skb, 0, 0, GFP_KERNEL);
}

int hn_nl_init(struct hn_dev *hd)
{
	BUILD_BUG_ON(HYBRIDNET_POL_SES != HN_POL_SES);
	BUILD_BUG_ON(HYBRIDNET_POL_SLA != HN_POL_SLA);
	BUILD_BUG_ON(HYBRIDNET_POL_PREEMPT != HN_POL_PREEMPT);
	BUILD_BUG_ON(HYBRIDNET_POL_PREEMPT_SLOT != HN_POL_PREEMPT_SLOT);
	BUILD_BUG_ON(HYBRIDNET_POL_NO_W != HN_POL_NO_W);
	BUILD_BUG_ON(HYBRIDNET_POL_DYNAMIC != HN_POL_DYNAMIC);
	BUILD_BUG_ON((int)HYBRIDNET_GRANT_GRANTED != (int)HN_GRANTED);
	BUILD_BUG_ON((int)HYBRIDNET_GRANT_EXISTS != (int)HN_EXISTS);
	BUILD_BUG_ON((int)HYBRIDNET_GRANT_REFUSED != (int)HN_REFUSED);
	BUILD_BUG_ON((int)HYBRIDNET_CLOCK_FREE != (int)HN_CLOCK_FREE);
	BUILD_BUG_ON((int)HYBRIDNET_CLOCK_PACED != (int)HN_CLOCK_PACED);

	hn_nl_hd = hd;
	return genl_register_family(&hn_nl_family);
}

void hn_nl_exit(void)
{
	genl_unregister_family(&hn_nl_family);
	hn_nl_hd = NULL;
}
