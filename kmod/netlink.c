// SPDX-License-Identifier: GPL-2.0
/*
 * netlink.c - the generic netlink family "hybridnet": its policies, its
 * operations, their one doit and their one dumpit, and the events
 * multicast group (the messages every command builds are nl_msg.c's).
 * Documentation/netlink/specs/hybridnet.yaml describes the family.
 *
 * Every operation has its own strict policy; operations that change state
 * carry GENL_UNS_ADMIN_PERM, but two, which take GENL_ADMIN_PERM:
 * FABRIC_NEW, as a fabric holds the host's memory and a kthread, and the
 * fabrics' numbers are shared by every namespace, so the root of a user
 * namespace of its own makes none (it would lock the others out at
 * HYBRIDNET_MAX_FABRICS); and SCHED_RUN, for its CPU time, on no fabric.
 * Node and slot numbers are checked against the current configuration in
 * the handlers, which say in the extack message which node, slot or pair
 * is at fault.
 *
 * Fabrics: the family is netnsok; every command but FABRIC_NEW (and
 * SCHED_RUN, which needs none) is on one fabric of the caller's network
 * namespace, HYBRIDNET_ATTR_FABRIC or the namespace's first.  The one
 * doit and the one dumpit find it (fabrics.c) and hold it while the
 * command runs, a dump from its first part to its end (.done), so a
 * fabric deleted meanwhile is dead, not freed: a command that finds it so
 * fails with ENODEV.  As a fabric's netns is the caller's, the
 * capability GENL_UNS_ADMIN_PERM asks for, CAP_NET_ADMIN over the user
 * namespace that owns it, is over the fabric's.
 *
 * The family is parallel_ops: genl_mutex is not held while our commands
 * run.  Every command that changes state runs under its fabric's
 * hd->nl_lock, so they are serialised against each other as before, but
 * a command that sleeps (a rebuild; the generator's start, which waits
 * for the last run to drain) holds up only this fabric.  Reads take
 * hd->lock around each call into the engine; SCHED_RUN computes on its
 * own data and takes neither.
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

#include <net/sock.h>

#include "hn_nl.h"
#include "topo.h"		/* enum hn_upsel */

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

/*
 * A configuration: CONFIG_SET's on a fabric, FABRIC_NEW's of a new one:
 * the fields' (hn_fields.h), then these.
 */
#define HN_NL_POLICY_CONFIG						\
	[HYBRIDNET_ATTR_PROFILE] = { .type = NLA_NUL_STRING, .len = 15 },	\
	[HYBRIDNET_ATTR_CLOCK] = NLA_POLICY_MAX(NLA_U32, HYBRIDNET_CLOCK_PACED), \
	[HYBRIDNET_ATTR_PACE_PPM] = NLA_POLICY_FULL_RANGE(NLA_U32, &hn_r_pace)

static const struct nla_policy hn_config_policy[HYBRIDNET_ATTR_MAX + 1] = {
#define HN_FIELD(f, A, ctl, nl, help, T, lo, hi, live, words)		\
	[HYBRIDNET_ATTR_##A] = HN_NL_POLICY_##T(HN_CFG_##f, hi),
#include "hn_fields.h"
#undef HN_FIELD
	HN_NL_POLICY_CONFIG,
	HN_NL_POLICY_FABRIC,
};

static const struct nla_policy hn_fabric_new_policy[HYBRIDNET_ATTR_MAX + 1] = {
#define HN_FIELD(f, A, ctl, nl, help, T, lo, hi, live, words)		\
	[HYBRIDNET_ATTR_##A] = HN_NL_POLICY_##T(HN_CFG_##f, hi),
#include "hn_fields.h"
#undef HN_FIELD
	HN_NL_POLICY_CONFIG,
};

/* the commands that take no attribute but their fabric */
static const struct nla_policy hn_fabric_policy[HYBRIDNET_ATTR_MAX + 1] = {
	HN_NL_POLICY_FABRIC,
};

static const struct nla_policy hn_slotcfg_policy[HYBRIDNET_ATTR_MAX + 1] = {
	[HYBRIDNET_ATTR_SLOT] = NLA_POLICY_MAX(NLA_U32, HYBRIDNET_MAX_SLOTS - 1),
	[HYBRIDNET_ATTR_PAIR] = NLA_POLICY_NESTED(hn_pair_policy),
};

static const struct nla_policy hn_preload_policy[HYBRIDNET_ATTR_MAX + 1] = {
	[HYBRIDNET_ATTR_SLOT_CONFIG] = NLA_POLICY_NESTED(hn_slotcfg_policy),
	[HYBRIDNET_ATTR_PHASE] = { .type = NLA_NUL_STRING, .len = 63 },
	[HYBRIDNET_ATTR_LEVEL] = NLA_POLICY_RANGE(NLA_U32, 1, 2),
	HN_NL_POLICY_FABRIC,
};

static const struct nla_policy hn_predict_policy[HYBRIDNET_ATTR_MAX + 1] = {
	[HYBRIDNET_ATTR_PAIR] = NLA_POLICY_NESTED(hn_pair_policy),
	HN_NL_POLICY_FABRIC,
};

static const struct nla_policy hn_release_policy[HYBRIDNET_ATTR_MAX + 1] = {
	[HYBRIDNET_ATTR_PAIR] = NLA_POLICY_NESTED(hn_pair_policy),
	[HYBRIDNET_ATTR_SLOT] = NLA_POLICY_MAX(NLA_U32, HYBRIDNET_MAX_SLOTS - 1),
	[HYBRIDNET_ATTR_ALL] = { .type = NLA_FLAG },
	HN_NL_POLICY_FABRIC,
};

/* a fabric too, though it runs on none: every command takes one */
static const struct nla_policy hn_sched_policy[HYBRIDNET_ATTR_MAX + 1] = {
	[HYBRIDNET_ATTR_TOPOLOGY] = { .type = NLA_NUL_STRING, .len = 31 },
	[HYBRIDNET_ATTR_ALGO] = { .type = NLA_NUL_STRING, .len = 31 },
	[HYBRIDNET_ATTR_KSTEP] = NLA_POLICY_RANGE(NLA_U32, 1, 2 * HYBRIDNET_MAX_NODES - 1),
	[HYBRIDNET_ATTR_SCHED_FLAGS] = NLA_POLICY_MASK(NLA_U32, 3),
	[HYBRIDNET_ATTR_SEED] = { .type = NLA_U64 },
	[HYBRIDNET_ATTR_PAIR] = NLA_POLICY_NESTED(hn_pair_policy),
	HN_NL_POLICY_FABRIC,
};

static const struct nla_policy hn_stats_policy[HYBRIDNET_ATTR_MAX + 1] = {
	[HYBRIDNET_ATTR_NODE] = NLA_POLICY_MAX(NLA_U32, HYBRIDNET_MAX_NODES - 1),
	HN_NL_POLICY_FABRIC,
};

/* checked against the fabric in the dump, which says so in the extack */
static const struct nla_policy hn_pair_get_policy[HYBRIDNET_ATTR_MAX + 1] = {
	[HYBRIDNET_ATTR_SRC] = NLA_POLICY_MAX(NLA_U32, HYBRIDNET_MAX_NODES - 1),
	[HYBRIDNET_ATTR_DST] = NLA_POLICY_MAX(NLA_U32, HYBRIDNET_MAX_NODES - 1),
	HN_NL_POLICY_FABRIC,
};

static const struct nla_policy hn_link_policy[HYBRIDNET_ATTR_MAX + 1] = {
	[HYBRIDNET_ATTR_LINK] = { .type = NLA_U32 },
	HN_NL_POLICY_FABRIC,
};

static const struct nla_policy hn_switch_policy[HYBRIDNET_ATTR_MAX + 1] = {
	[HYBRIDNET_ATTR_SWITCH] = { .type = NLA_U32 },
	HN_NL_POLICY_FABRIC,
};

static const struct nla_policy hn_fault_policy[HYBRIDNET_ATTR_MAX + 1] = {
	[HYBRIDNET_ATTR_DOWN] = NLA_POLICY_MAX(NLA_U8, 1),
	[HYBRIDNET_ATTR_LINK] = { .type = NLA_U32 },
	[HYBRIDNET_ATTR_NODE] = NLA_POLICY_MAX(NLA_U32, HYBRIDNET_MAX_NODES - 1),
	[HYBRIDNET_ATTR_SWITCH] = { .type = NLA_U32 },
	[HYBRIDNET_ATTR_PORT] = { .type = NLA_U32 },
	[HYBRIDNET_ATTR_RANDOM] = NLA_POLICY_MIN(NLA_U32, 1),
	[HYBRIDNET_ATTR_SEED] = { .type = NLA_U64 },
	[HYBRIDNET_ATTR_LINK_CHANNEL] = NLA_POLICY_MAX(NLA_U32,
						       HN_DILATION_MAX - 1),
	[HYBRIDNET_ATTR_RANDOM_CHANNELS] = NLA_POLICY_MIN(NLA_U32, 1),
	HN_NL_POLICY_FABRIC,
};

/* SWITCHING's range is the spec's: drop is hn_set_switch_flow()'s to refuse */
static const struct nla_policy hn_switch_set_policy[HYBRIDNET_ATTR_MAX + 1] = {
	[HYBRIDNET_ATTR_SWITCH] = { .type = NLA_U32 },
	[HYBRIDNET_ATTR_SWITCHING] = NLA_POLICY_MAX(NLA_U32,
						    HYBRIDNET_SWITCHING_DROP),
	HN_NL_POLICY_FABRIC,
};

/* The fabric a command is on (hn_nl_cmd.on). */
enum hn_nl_on {
	HN_NL_ON_FABRIC,	/* FABRIC, or the namespace's first */
	HN_NL_ON_NAMED,		/* FABRIC, which must be given */
	HN_NL_ON_NONE,		/* none (FABRIC_NEW) */
	HN_NL_ON_ANY,		/* none needed, FABRIC when given */
};

/* Each command's handler, the fabric it is on, whether it changes it. */
static const struct hn_nl_cmd {
	int (*doit)(struct sk_buff *skb, struct genl_info *info);
	u8 on;			/* enum hn_nl_on */
	bool locked;		/* under hd->nl_lock */
} hn_nl_cmds[HYBRIDNET_CMD_MAX + 1] = {
	[HYBRIDNET_CMD_CONFIG_GET] = { hn_nl_config_get },
	[HYBRIDNET_CMD_CONFIG_SET] = { hn_nl_config_set, .locked = true },
	[HYBRIDNET_CMD_PRELOAD] = { hn_nl_preload, .locked = true },
	[HYBRIDNET_CMD_PREDICT] = { hn_nl_predict, .locked = true },
	[HYBRIDNET_CMD_RELEASE] = { hn_nl_release, .locked = true },
	[HYBRIDNET_CMD_STATS_GET] = { hn_nl_stats_get },
	[HYBRIDNET_CMD_STATS_RESET] = { hn_nl_stats_reset, .locked = true },
	/* changes nothing: admin-only for its CPU time, and unlocked */
	[HYBRIDNET_CMD_SCHED_RUN] = { hn_nl_sched_run, HN_NL_ON_ANY },
	[HYBRIDNET_CMD_TRAFFIC_START] = { hn_nl_traffic_start, .locked = true },
	[HYBRIDNET_CMD_TRAFFIC_STOP] = { hn_nl_traffic_stop, .locked = true },
	[HYBRIDNET_CMD_TRAFFIC_GET] = { hn_nl_traffic_get },
	[HYBRIDNET_CMD_FABRIC_GET] = { hn_nl_fabric_get },
	[HYBRIDNET_CMD_NETDEV_DEL] = { hn_nl_netdev_del, .locked = true },
	[HYBRIDNET_CMD_CAPTURE_ON] = { hn_nl_capture_on, .locked = true },
	[HYBRIDNET_CMD_CAPTURE_OFF] = { hn_nl_capture_off, .locked = true },
	[HYBRIDNET_CMD_CAPTURE_GET] = { hn_nl_capture_get },
	[HYBRIDNET_CMD_FABRIC_NEW] = { hn_nl_fabric_new, HN_NL_ON_NONE },
	[HYBRIDNET_CMD_FABRIC_DEL] = { hn_nl_fabric_del, HN_NL_ON_NAMED,
				       .locked = true },
	[HYBRIDNET_CMD_FAULT_SET] = { hn_nl_fault_set, .locked = true },
	[HYBRIDNET_CMD_SWITCH_SET] = { hn_nl_switch_set, .locked = true },
};

/* The fabric of @net that @a names (NULL: the first), held, or NULL. */
static struct hn_dev *hn_nl_find(struct net *net, const struct nlattr *a)
{
	return hn_fabric_get(net, a ? nla_get_u32(a) : HN_FABRIC_FIRST);
}

/* The fabric of a request, held, or NULL with the extack said. */
static struct hn_dev *hn_nl_fabric(struct genl_info *info)
{
	const struct nlattr *a = info->attrs[HYBRIDNET_ATTR_FABRIC];
	struct hn_dev *hd = hn_nl_find(genl_info_net(info), a);

	if (hd)
		return hd;
	if (a)
		hn_nl_errf(info, a, "no fabric %u in this network namespace",
			   nla_get_u32(a));
	else
		NL_SET_ERR_MSG(info->extack,
			       "no fabric in this network namespace (hnctl fabric add makes one)");
	return NULL;
}

/*
 * The doit of every command: finds its fabric and holds it, runs its
 * handler, under hd->nl_lock if it changes state, with the request's
 * extack buffer; sends the ack itself when the handler failed with a
 * formatted message (see above).
 */
static int hn_nl_doit(struct sk_buff *skb, struct genl_info *info)
{
	const struct hn_nl_cmd *c = &hn_nl_cmds[info->genlhdr->cmd];
	const struct nlattr *a = info->attrs[HYBRIDNET_ATTR_FABRIC];
	struct hn_dev *hd = NULL;
	struct hn_nl_req req;
	int rc = -ENODEV;

	info->user_ptr[0] = &req;
	info->user_ptr[1] = NULL;
	if (c->on == HN_NL_ON_NAMED &&
	    GENL_REQ_ATTR_CHECK(info, HYBRIDNET_ATTR_FABRIC))
		return -EINVAL;
	if (c->on == HN_NL_ON_FABRIC || c->on == HN_NL_ON_NAMED ||
	    (c->on == HN_NL_ON_ANY && a)) {
		hd = hn_nl_fabric(info);
		if (!hd)
			goto out;
		info->user_ptr[1] = hd;
		if (c->locked)
			mutex_lock(&hd->nl_lock);
	}
	/* dead: deleted since we found it (nl_lock: for good) */
	if (hd && READ_ONCE(hd->dead))
		hn_nl_errf(info, a, "fabric %u was deleted", hd->id);
	else
		rc = c->doit(skb, info);
	if (hd && c->locked)
		mutex_unlock(&hd->nl_lock);
	hn_fabric_put(hd);
out:
	if (info->extack->_msg != req.msg)
		return rc;
	if (rc) {	/* the ack, while req is alive */
		netlink_ack(skb, info->nlhdr, rc, info->extack);
		rc = -EINTR;
	}
	info->extack->_msg = NULL;	/* req goes now */
	return rc;
}

/* Each dump's part, by command. */
static const hn_nl_dump_fn hn_nl_dumps[HYBRIDNET_CMD_MAX + 1] = {
	[HYBRIDNET_CMD_CIRCUIT_GET] = hn_nl_circuit_dump,
	[HYBRIDNET_CMD_STATS_GET] = hn_nl_stats_dump,
	[HYBRIDNET_CMD_LINK_GET] = hn_nl_link_dump,
	[HYBRIDNET_CMD_SWITCH_GET] = hn_nl_switch_dump,
	[HYBRIDNET_CMD_NETDEV_GET] = hn_nl_netdev_dump,
	[HYBRIDNET_CMD_PAIR_GET] = hn_nl_pair_dump,
};

/*
 * The dumpit of every dump of one fabric's: its first part finds the
 * fabric and holds it in cb->args[HN_NL_DUMP_FABRIC] until .done; a
 * part that finds it deleted ends the dump with ENODEV.  Extack messages
 * are literals, sent after we return (nl_stats.c says why).
 */
static int hn_nl_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	const struct genl_dumpit_info *di = genl_dumpit_info(cb);
	const struct nlattr *a = di->attrs[HYBRIDNET_ATTR_FABRIC];
	struct hn_dev *hd = (struct hn_dev *)cb->args[HN_NL_DUMP_FABRIC];

	if (!hd) {
		hd = hn_nl_find(sock_net(cb->skb->sk), a);
		if (!hd) {
			if (a)
				NL_SET_ERR_MSG_ATTR(cb->extack, a,
						    "no such fabric in this network namespace");
			else
				NL_SET_ERR_MSG(cb->extack,
					       "no fabric in this network namespace (hnctl fabric add makes one)");
			return -ENODEV;
		}
		cb->args[HN_NL_DUMP_FABRIC] = (long)hd;
	}
	if (READ_ONCE(hd->dead)) {
		NL_SET_ERR_MSG(cb->extack, "the fabric was deleted");
		return -ENODEV;
	}
	return hn_nl_dumps[di->op.cmd](skb, cb, hd);
}

static int hn_nl_dump_done(struct netlink_callback *cb)
{
	hn_fabric_put((struct hn_dev *)cb->args[HN_NL_DUMP_FABRIC]);
	return 0;
}

#define HN_NL_OP(_cmd, _policy, _flags)					\
	{								\
		.cmd = HYBRIDNET_CMD_##_cmd,				\
		.doit = hn_nl_doit,					\
		.policy = _policy,					\
		.maxattr = HYBRIDNET_ATTR_MAX,				\
		.flags = _flags,					\
	}
#define HN_NL_DUMP(_cmd, _policy)					\
	{								\
		.cmd = HYBRIDNET_CMD_##_cmd,				\
		.dumpit = hn_nl_dumpit,					\
		.done = hn_nl_dump_done,				\
		.policy = _policy,					\
		.maxattr = HYBRIDNET_ATTR_MAX,				\
	}

static const struct genl_ops hn_nl_ops[] = {
	HN_NL_OP(CONFIG_GET, hn_fabric_policy, 0),
	HN_NL_OP(CONFIG_SET, hn_config_policy, GENL_UNS_ADMIN_PERM),
	HN_NL_OP(PRELOAD, hn_preload_policy, GENL_UNS_ADMIN_PERM),
	HN_NL_OP(PREDICT, hn_predict_policy, GENL_UNS_ADMIN_PERM),
	HN_NL_OP(RELEASE, hn_release_policy, GENL_UNS_ADMIN_PERM),
	HN_NL_DUMP(CIRCUIT_GET, hn_fabric_policy),
	{
		.cmd = HYBRIDNET_CMD_STATS_GET,
		.doit = hn_nl_doit,
		.dumpit = hn_nl_dumpit,
		.done = hn_nl_dump_done,
		.policy = hn_stats_policy,
		.maxattr = HYBRIDNET_ATTR_MAX,
	},
	HN_NL_OP(STATS_RESET, hn_fabric_policy, GENL_UNS_ADMIN_PERM),
	HN_NL_OP(SCHED_RUN, hn_sched_policy, GENL_ADMIN_PERM),
	HN_NL_OP(TRAFFIC_START, hn_traffic_policy, GENL_UNS_ADMIN_PERM),
	HN_NL_OP(TRAFFIC_STOP, hn_fabric_policy, GENL_UNS_ADMIN_PERM),
	HN_NL_OP(TRAFFIC_GET, hn_fabric_policy, 0),
	{	/* do: the fabric's; dump: the namespace's, its own walk */
		.cmd = HYBRIDNET_CMD_FABRIC_GET,
		.doit = hn_nl_doit,
		.dumpit = hn_nl_fabric_dump,
		.policy = hn_fabric_policy,
		.maxattr = HYBRIDNET_ATTR_MAX,
	},
	HN_NL_DUMP(LINK_GET, hn_link_policy),
	HN_NL_DUMP(SWITCH_GET, hn_switch_policy),
	HN_NL_OP(NETDEV_DEL, hn_netdev_policy, GENL_UNS_ADMIN_PERM),
	HN_NL_DUMP(NETDEV_GET, hn_fabric_policy),
	HN_NL_OP(CAPTURE_ON, hn_capture_policy, GENL_UNS_ADMIN_PERM),
	HN_NL_OP(CAPTURE_OFF, hn_fabric_policy, GENL_UNS_ADMIN_PERM),
	HN_NL_OP(CAPTURE_GET, hn_fabric_policy, 0),
	HN_NL_DUMP(PAIR_GET, hn_pair_get_policy),
	HN_NL_OP(FABRIC_NEW, hn_fabric_new_policy, GENL_ADMIN_PERM),
	HN_NL_OP(FABRIC_DEL, hn_fabric_policy, GENL_UNS_ADMIN_PERM),
	HN_NL_OP(FAULT_SET, hn_fault_policy, GENL_UNS_ADMIN_PERM),
	HN_NL_OP(SWITCH_SET, hn_switch_set_policy, GENL_UNS_ADMIN_PERM),
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
	.netnsok = true,
	.parallel_ops = true,
	.ops = hn_nl_ops,
	.n_ops = ARRAY_SIZE(hn_nl_ops),
	.mcgrps = hn_nl_mcgrps,
	.n_mcgrps = ARRAY_SIZE(hn_nl_mcgrps),
};

int hn_nl_init(void)
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
	BUILD_BUG_ON((int)HYBRIDNET_SWITCHING_DROP != (int)HN_SWITCH_DROP);
	BUILD_BUG_ON((int)HYBRIDNET_UP_SELECT_DET != (int)HN_UPSEL_DET);
	BUILD_BUG_ON((int)HYBRIDNET_UP_SELECT_RANDOM != (int)HN_UPSEL_RANDOM);
	BUILD_BUG_ON((int)HYBRIDNET_UP_SELECT_ADAPTIVE != (int)HN_UPSEL_ADAPTIVE);
	BUILD_BUG_ON((int)HYBRIDNET_VOQ_ARBITER_LQF != (int)HN_VOQ_LQF);
	BUILD_BUG_ON((int)HYBRIDNET_VOQ_ARBITER_BYTES != (int)HN_VOQ_BYTES);
	BUILD_BUG_ON(HN_DL_MAX != HYBRIDNET_MAX_DEADLOCK);
	BUILD_BUG_ON((int)HYBRIDNET_DIR_UP != (int)HN_UP);
	BUILD_BUG_ON((int)HYBRIDNET_FT_SCHED_OPTIMAL != (int)HN_FT_OPTIMAL);
	BUILD_BUG_ON((int)HYBRIDNET_FT_SCHED_LOCAL_RANDOM !=
		     (int)HN_FT_LOCAL_RANDOM);
	BUILD_BUG_ON(HN_SCHED_LEVELWISE + HN_FT_OPTIMAL != HN_SCHED_OPTIMAL);
	BUILD_BUG_ON(HN_SCHED_LEVELWISE + HN_FT_LOCAL_GREEDY !=
		     HN_SCHED_LOCAL_GREEDY);
	BUILD_BUG_ON((int)HYBRIDNET_DIR_DOWN != (int)HN_DOWN);

	return genl_register_family(&hn_nl_family);
}

void hn_nl_exit(void)
{
	genl_unregister_family(&hn_nl_family);
}
