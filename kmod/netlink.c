// SPDX-License-Identifier: GPL-2.0
/*
 * netlink.c - the generic netlink family "hybridnet": its policies, its
 * operations and their one doit, and the events multicast group (the
 * messages every command builds are nl_msg.c's).
 * Documentation/netlink/specs/hybridnet.yaml describes the family.
 *
 * Every operation has its own strict policy; operations that change state
 * carry GENL_ADMIN_PERM.  Node and slot numbers are checked against the
 * current configuration in the handlers, which say in the extack message
 * which node, slot or pair is at fault.
 *
 * The family is parallel_ops: genl_mutex is not held while our commands
 * run.  Every command that changes state runs under hd->nl_lock, so they
 * are serialised against each other as before, but a command that sleeps
 * (a rebuild; the generator's start, which waits for the last run to
 * drain) holds up only this family.  Reads take hd->lock around each call
 * into the engine; SCHED_RUN computes on its own data and takes neither.
 *
 * extack messages that name the node, slot or pair are formatted
 * (hn_nl_errf()).  Linux 6.1 has no NL_SET_ERR_MSG_FMT: extack->_msg must
 * stay valid until netlink_rcv_skb() builds the ack, after the handler
 * has returned, so one shared buffer would let concurrent requests
 * overwrite each other's message.  Each request's message lives instead
 * in a buffer on the stack of hn_nl_doit(), the one doit of every
 * operation: when a handler fails with a formatted message, hn_nl_doit()
 * sends the ack itself, with netlink_ack(), while the buffer is alive,
 * and returns -EINTR, which tells netlink_rcv_skb() that the ack has been
 * taken care of (as a dump's start does).  The ack is the one netlink
 * would have built.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/module.h>

#include "hn_nl.h"
#include "topo.h"		/* enum hn_upsel */

struct hn_dev *hn_nl_hd;

/* the ranges of the configuration fields (hn_fields.h) */
static struct netlink_range_validation hn_cfg_range[HN_CFG_NR] = {
#define HN_FIELD(f, A, ctl, nl, help, T, lo, hi, live, words)		\
	[HN_CFG_##f] = { .min = lo, .max = hi },
#include "hn_fields.h"
#undef HN_FIELD
};

static struct netlink_range_validation hn_r_pace = {
	.min = 1, .max = HN_NS_MAX,
};

/* a field's policy: a number in its range, or text of at most max bytes */
#define HN_NL_POLICY_U32(i, max)	NLA_POLICY_FULL_RANGE(NLA_U32, &hn_cfg_range[i])
#define HN_NL_POLICY_U64(i, max)	NLA_POLICY_FULL_RANGE(NLA_U64, &hn_cfg_range[i])
#define HN_NL_POLICY_STRING(i, max)	{ .type = NLA_NUL_STRING, .len = max }

static const struct nla_policy hn_config_policy[HYBRIDNET_ATTR_MAX + 1] = {
#define HN_FIELD(f, A, ctl, nl, help, T, lo, hi, live, words)		\
	[HYBRIDNET_ATTR_##A] = HN_NL_POLICY_##T(HN_CFG_##f, hi),
#include "hn_fields.h"
#undef HN_FIELD
	[HYBRIDNET_ATTR_PROFILE] = { .type = NLA_NUL_STRING, .len = 15 },
	[HYBRIDNET_ATTR_CLOCK] = NLA_POLICY_MAX(NLA_U32, HYBRIDNET_CLOCK_PACED),
	[HYBRIDNET_ATTR_PACE_PPM] = NLA_POLICY_FULL_RANGE(NLA_U32, &hn_r_pace),
};

static const struct nla_policy hn_slotcfg_policy[HYBRIDNET_ATTR_MAX + 1] = {
	[HYBRIDNET_ATTR_SLOT] = NLA_POLICY_MAX(NLA_U32, HYBRIDNET_MAX_SLOTS - 1),
	[HYBRIDNET_ATTR_PAIR] = NLA_POLICY_NESTED(hn_pair_policy),
};

static const struct nla_policy hn_preload_policy[HYBRIDNET_ATTR_MAX + 1] = {
	[HYBRIDNET_ATTR_SLOT_CONFIG] = NLA_POLICY_NESTED(hn_slotcfg_policy),
	[HYBRIDNET_ATTR_PHASE] = { .type = NLA_NUL_STRING, .len = 63 },
	[HYBRIDNET_ATTR_LEVEL] = NLA_POLICY_RANGE(NLA_U32, 1, 2),
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

/* checked against the fabric in the dump, which says so in the extack */
static const struct nla_policy hn_pair_get_policy[HYBRIDNET_ATTR_MAX + 1] = {
	[HYBRIDNET_ATTR_SRC] = NLA_POLICY_MAX(NLA_U32, HYBRIDNET_MAX_NODES - 1),
	[HYBRIDNET_ATTR_DST] = NLA_POLICY_MAX(NLA_U32, HYBRIDNET_MAX_NODES - 1),
};

static const struct nla_policy hn_link_policy[HYBRIDNET_ATTR_MAX + 1] = {
	[HYBRIDNET_ATTR_LINK] = { .type = NLA_U32 },
};

static const struct nla_policy hn_switch_policy[HYBRIDNET_ATTR_MAX + 1] = {
	[HYBRIDNET_ATTR_SWITCH] = { .type = NLA_U32 },
};

/* Each command's handler, and whether it changes state. */
static const struct hn_nl_cmd {
	int (*doit)(struct sk_buff *skb, struct genl_info *info);
	bool locked;		/* under hd->nl_lock */
} hn_nl_cmds[HYBRIDNET_CMD_MAX + 1] = {
	[HYBRIDNET_CMD_CONFIG_GET] = { hn_nl_config_get, false },
	[HYBRIDNET_CMD_CONFIG_SET] = { hn_nl_config_set, true },
	[HYBRIDNET_CMD_PRELOAD] = { hn_nl_preload, true },
	[HYBRIDNET_CMD_PREDICT] = { hn_nl_predict, true },
	[HYBRIDNET_CMD_RELEASE] = { hn_nl_release, true },
	[HYBRIDNET_CMD_STATS_GET] = { hn_nl_stats_get, false },
	[HYBRIDNET_CMD_STATS_RESET] = { hn_nl_stats_reset, true },
	/* changes nothing: admin-only for its CPU time, and unlocked */
	[HYBRIDNET_CMD_SCHED_RUN] = { hn_nl_sched_run, false },
	[HYBRIDNET_CMD_TRAFFIC_START] = { hn_nl_traffic_start, true },
	[HYBRIDNET_CMD_TRAFFIC_STOP] = { hn_nl_traffic_stop, true },
	[HYBRIDNET_CMD_TRAFFIC_GET] = { hn_nl_traffic_get, false },
	[HYBRIDNET_CMD_FABRIC_GET] = { hn_nl_fabric_get, false },
	[HYBRIDNET_CMD_NETDEV_DEL] = { hn_nl_netdev_del, true },
	[HYBRIDNET_CMD_CAPTURE_ON] = { hn_nl_capture_on, true },
	[HYBRIDNET_CMD_CAPTURE_OFF] = { hn_nl_capture_off, true },
	[HYBRIDNET_CMD_CAPTURE_GET] = { hn_nl_capture_get, false },
};

/*
 * The doit of every command: runs its handler, under hd->nl_lock if it
 * changes state, with the request's extack buffer; sends the ack itself
 * when the handler failed with a formatted message (see above).
 */
static int hn_nl_doit(struct sk_buff *skb, struct genl_info *info)
{
	const struct hn_nl_cmd *c = &hn_nl_cmds[info->genlhdr->cmd];
	struct hn_dev *hd = hn_nl_hd;
	struct hn_nl_req req;
	int rc;

	info->user_ptr[0] = &req;
	if (c->locked)
		mutex_lock(&hd->nl_lock);
	rc = c->doit(skb, info);
	if (c->locked)
		mutex_unlock(&hd->nl_lock);
	if (info->extack->_msg != req.msg)
		return rc;
	if (rc) {	/* the ack, while req is alive */
		netlink_ack(skb, info->nlhdr, rc, info->extack);
		rc = -EINTR;
	}
	info->extack->_msg = NULL;	/* req goes now */
	return rc;
}

#define HN_NL_OP(_cmd, _policy, _flags)					\
	{								\
		.cmd = HYBRIDNET_CMD_##_cmd,				\
		.doit = hn_nl_doit,					\
		.policy = _policy,					\
		.maxattr = HYBRIDNET_ATTR_MAX,				\
		.flags = _flags,					\
	}
#define HN_NL_OP0(_cmd, _flags)						\
	{								\
		.cmd = HYBRIDNET_CMD_##_cmd,				\
		.doit = hn_nl_doit,					\
		.flags = _flags,					\
	}

/* Operations without a policy take no attributes (resv_start_op is 0). */
static const struct genl_ops hn_nl_ops[] = {
	HN_NL_OP0(CONFIG_GET, 0),
	HN_NL_OP(CONFIG_SET, hn_config_policy, GENL_ADMIN_PERM),
	HN_NL_OP(PRELOAD, hn_preload_policy, GENL_ADMIN_PERM),
	HN_NL_OP(PREDICT, hn_predict_policy, GENL_ADMIN_PERM),
	HN_NL_OP(RELEASE, hn_release_policy, GENL_ADMIN_PERM),
	{
		.cmd = HYBRIDNET_CMD_CIRCUIT_GET,
		.dumpit = hn_nl_circuit_dump,
	},
	{
		.cmd = HYBRIDNET_CMD_STATS_GET,
		.doit = hn_nl_doit,
		.dumpit = hn_nl_stats_dump,
		.policy = hn_stats_policy,
		.maxattr = HYBRIDNET_ATTR_MAX,
	},
	HN_NL_OP0(STATS_RESET, GENL_ADMIN_PERM),
	HN_NL_OP(SCHED_RUN, hn_sched_policy, GENL_ADMIN_PERM),
	HN_NL_OP(TRAFFIC_START, hn_traffic_policy, GENL_ADMIN_PERM),
	HN_NL_OP0(TRAFFIC_STOP, GENL_ADMIN_PERM),
	HN_NL_OP0(TRAFFIC_GET, 0),
	HN_NL_OP0(FABRIC_GET, 0),
	{
		.cmd = HYBRIDNET_CMD_LINK_GET,
		.dumpit = hn_nl_link_dump,
		.policy = hn_link_policy,
		.maxattr = HYBRIDNET_ATTR_MAX,
	},
	{
		.cmd = HYBRIDNET_CMD_SWITCH_GET,
		.dumpit = hn_nl_switch_dump,
		.policy = hn_switch_policy,
		.maxattr = HYBRIDNET_ATTR_MAX,
	},
	HN_NL_OP(NETDEV_DEL, hn_netdev_policy, GENL_ADMIN_PERM),
	{
		.cmd = HYBRIDNET_CMD_NETDEV_GET,
		.dumpit = hn_nl_netdev_dump,
	},
	HN_NL_OP(CAPTURE_ON, hn_capture_policy, GENL_ADMIN_PERM),
	HN_NL_OP0(CAPTURE_OFF, GENL_ADMIN_PERM),
	HN_NL_OP0(CAPTURE_GET, 0),
	{
		.cmd = HYBRIDNET_CMD_PAIR_GET,
		.dumpit = hn_nl_pair_dump,
		.policy = hn_pair_get_policy,
		.maxattr = HYBRIDNET_ATTR_MAX,
	},
};

/* who changed what, and when, is the administrators' to follow */
static const struct genl_multicast_group hn_nl_mcgrps[] = {
	{ .name = HYBRIDNET_MCGRP_EVENTS, .flags = GENL_MCAST_CAP_NET_ADMIN },
};

struct genl_family hn_nl_family __ro_after_init = {
	.name = HYBRIDNET_GENL_NAME,
	.version = HYBRIDNET_GENL_VERSION,
	.maxattr = HYBRIDNET_ATTR_MAX,
	.module = THIS_MODULE,
	.parallel_ops = true,
	.ops = hn_nl_ops,
	.n_ops = ARRAY_SIZE(hn_nl_ops),
	.mcgrps = hn_nl_mcgrps,
	.n_mcgrps = ARRAY_SIZE(hn_nl_mcgrps),
};

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
	BUILD_BUG_ON((int)HYBRIDNET_SWITCHING_WORMHOLE != (int)HN_SWITCH_WORMHOLE);
	BUILD_BUG_ON((int)HYBRIDNET_SWITCHING_VCT != (int)HN_SWITCH_VCT);
	BUILD_BUG_ON((int)HYBRIDNET_SWITCHING_SAF != (int)HN_SWITCH_SAF);
	BUILD_BUG_ON((int)HYBRIDNET_UP_SELECT_DET != (int)HN_UPSEL_DET);
	BUILD_BUG_ON((int)HYBRIDNET_UP_SELECT_RANDOM != (int)HN_UPSEL_RANDOM);
	BUILD_BUG_ON((int)HYBRIDNET_UP_SELECT_ADAPTIVE != (int)HN_UPSEL_ADAPTIVE);
	BUILD_BUG_ON((int)HYBRIDNET_DIR_UP != (int)HN_UP);
	BUILD_BUG_ON((int)HYBRIDNET_FT_SCHED_OPTIMAL != (int)HN_FT_OPTIMAL);
	BUILD_BUG_ON((int)HYBRIDNET_FT_SCHED_LOCAL_RANDOM !=
		     (int)HN_FT_LOCAL_RANDOM);
	BUILD_BUG_ON(HN_SCHED_LEVELWISE + HN_FT_OPTIMAL != HN_SCHED_OPTIMAL);
	BUILD_BUG_ON(HN_SCHED_LEVELWISE + HN_FT_LOCAL_GREEDY !=
		     HN_SCHED_LOCAL_GREEDY);
	BUILD_BUG_ON((int)HYBRIDNET_DIR_DOWN != (int)HN_DOWN);

	hn_nl_hd = hd;
	return genl_register_family(&hn_nl_family);
}

void hn_nl_exit(void)
{
	genl_unregister_family(&hn_nl_family);
	hn_nl_hd = NULL;
}
