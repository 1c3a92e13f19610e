/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hn_nl.h - the generic netlink family "hybridnet": netlink.c (the
 * family, its policies and operations), nl_msg.c (what every command's
 * messages need) and the nl_*.c files that implement the commands.
 */
#ifndef HN_NL_H
#define HN_NL_H

#include <net/genetlink.h>

#include "hn_kmod.h"

extern struct genl_family hn_nl_family;

int hn_nl_init(void);
void hn_nl_exit(void);

/*
 * One request's formatted extack message (netlink.c says why): room for
 * the longest, an unknown pattern's with the list of all of them
 * (nl_traffic.c), which the VM test nl_traffic.c reads whole.
 */
#define HN_NL_MSG_MAX	256

struct hn_nl_req {
	char msg[HN_NL_MSG_MAX];
};

/* Every policy's entry for the fabric a command is on. */
#define HN_NL_POLICY_FABRIC						\
	[HYBRIDNET_ATTR_FABRIC] = NLA_POLICY_MAX(NLA_U32,		\
						 HYBRIDNET_MAX_FABRICS - 1)

/* The fabric of a command (hn_nl_doit() found and holds it). */
static inline struct hn_dev *hn_nl_dev(struct genl_info *info)
{
	return info->user_ptr[1];
}

/* cb->args[] of a dump that holds its fabric (netlink.c) */
#define HN_NL_DUMP_FABRIC	5

/* nl_msg.c: extack text naming the node, slot or pair at fault */
extern const struct nla_policy hn_pair_policy[HYBRIDNET_ATTR_MAX + 1];
void hn_nl_errf(struct genl_info *info, const struct nlattr *attr,
		const char *fmt, ...) __printf(3, 4);
int hn_nl_core_err(struct genl_info *info, int rc,
		   const struct hn_err *err, const char *what);
int hn_nl_pair(const struct nlattr *nest, u32 nodes, struct hn_pair *p,
	       u8 *path, int *plen, struct genl_info *info);
u32 hn_nl_count(struct genl_info *info, int type);
int hn_nl_reply(struct genl_info *info, u8 cmd, size_t size,
		int (*fill)(struct sk_buff *msg, struct hn_dev *hd));
struct hn_pair *hn_nl_pairs(struct genl_info *info, u32 nodes, u32 *np,
			    int *rc);

/* a u64 statistic in a HYBRIDNET_ATTR_STATS nest */
static inline int hn_nl_put64(struct sk_buff *skb, int type, u64 v)
{
	return nla_put_u64_64bit(skb, type, v, HYBRIDNET_STAT_PAD);
}

/* events on the "events" multicast group, to @hd's namespace */
struct sk_buff *hn_nl_event_new(struct hn_dev *hd, u32 event, size_t size,
				void **hdr);
void hn_nl_event_send(struct hn_dev *hd, struct sk_buff *skb, void *hdr);

/* A dump of one fabric's: one part, with the fabric the dump holds. */
typedef int (*hn_nl_dump_fn)(struct sk_buff *skb, struct netlink_callback *cb,
			     struct hn_dev *hd);

/* nl_fault.c */
int hn_nl_fault_set(struct sk_buff *skb, struct genl_info *info);

/* What a fault changed, for its event (nl_msg.c's hn_nl_fault_event()) */
struct hn_nl_fault {
	bool down, sw;
	bool ch;		/* of the link's channel chan alone */
	u32 id, released, rerouted, chan;
	int random;		/* RANDOM or RANDOM_CHANNELS, or 0: by name */
	u32 count;		/* random's */
	u64 seed;
};

void hn_nl_fault_event(struct hn_dev *hd, const struct hn_nl_fault *f,
		       const char *name);

/* nl_config.c */
int hn_nl_put_config(struct sk_buff *skb, struct hn_dev *hd);
int hn_nl_config_get(struct sk_buff *skb, struct genl_info *info);
int hn_nl_config_set(struct sk_buff *skb, struct genl_info *info);
int hn_nl_parse_config(struct genl_info *info, struct hn_fabric_cfg *fc,
		       bool *rebuild);

/* nl_circuit.c */
int hn_nl_preload(struct sk_buff *skb, struct genl_info *info);
int hn_nl_predict(struct sk_buff *skb, struct genl_info *info);
int hn_nl_release(struct sk_buff *skb, struct genl_info *info);
int hn_nl_circuit_dump(struct sk_buff *skb, struct netlink_callback *cb,
		       struct hn_dev *hd);

/* nl_fabric.c: the fabrics themselves */
int hn_nl_fabric_new(struct sk_buff *skb, struct genl_info *info);
int hn_nl_fabric_del(struct sk_buff *skb, struct genl_info *info);
int hn_nl_fabric_get(struct sk_buff *skb, struct genl_info *info);
int hn_nl_fabric_dump(struct sk_buff *skb, struct netlink_callback *cb);

/* nl_links.c: a fabric's links and switches; a switch's switching */
int hn_nl_link_dump(struct sk_buff *skb, struct netlink_callback *cb,
		    struct hn_dev *hd);
int hn_nl_switch_dump(struct sk_buff *skb, struct netlink_callback *cb,
		      struct hn_dev *hd);
int hn_nl_switch_set(struct sk_buff *skb, struct genl_info *info);

/* nl_sched.c */
int hn_nl_sched_run(struct sk_buff *skb, struct genl_info *info);

/* nl_stats.c */
int hn_nl_stats_get(struct sk_buff *skb, struct genl_info *info);
int hn_nl_stats_dump(struct sk_buff *skb, struct netlink_callback *cb,
		     struct hn_dev *hd);
int hn_nl_stats_reset(struct sk_buff *skb, struct genl_info *info);
int hn_nl_pair_dump(struct sk_buff *skb, struct netlink_callback *cb,
		    struct hn_dev *hd);

/* nl_traffic.c */
extern const struct nla_policy hn_traffic_policy[HYBRIDNET_ATTR_MAX + 1];
int hn_nl_traffic_start(struct sk_buff *skb, struct genl_info *info);
int hn_nl_traffic_stop(struct sk_buff *skb, struct genl_info *info);
int hn_nl_traffic_get(struct sk_buff *skb, struct genl_info *info);

/* nl_netdev.c */
extern const struct nla_policy hn_netdev_policy[HYBRIDNET_ATTR_MAX + 1];
int hn_nl_netdev_del(struct sk_buff *skb, struct genl_info *info);
int hn_nl_netdev_dump(struct sk_buff *skb, struct netlink_callback *cb,
		      struct hn_dev *hd);

/* nl_capture.c */
extern const struct nla_policy hn_capture_policy[HYBRIDNET_ATTR_MAX + 1];
int hn_nl_capture_on(struct sk_buff *skb, struct genl_info *info);
int hn_nl_capture_off(struct sk_buff *skb, struct genl_info *info);
int hn_nl_capture_get(struct sk_buff *skb, struct genl_info *info);

#endif /* HN_NL_H */
