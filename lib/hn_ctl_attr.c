// SPDX-License-Identifier: GPL-2.0
/*
 * hn_ctl_attr.c - libhybridnet's control plane: the attribute policy of
 * replies and events, and the pairs, grants, statistics and configuration
 * they carry.  An attribute newer than this library is ignored.
 */
#include <errno.h>
#include <string.h>

#include "hn_ctl_int.h"

#define U32	{ .type = NLA_U32 }
#define U64	{ .type = NLA_U64 }
#define NEST	{ .type = NLA_NESTED }
#define STR	{ .type = NLA_STRING }

#define HN_CTL_POLICY_U32	U32
#define HN_CTL_POLICY_U64	U64
#define HN_CTL_POLICY_STRING	STR

const struct nla_policy hn_ctl_policy[HYBRIDNET_ATTR_MAX + 1] = {
	/* the configuration's fields, from the one table (hn_fields.h) */
#define HN_FIELD(f, A, param, nl, help, T, lo, hi, live, words)	\
	[HYBRIDNET_ATTR_##A] = HN_CTL_POLICY_##T,
#include "hn_fields.h"
#undef HN_FIELD
	[HYBRIDNET_ATTR_PROFILE] = STR,
	[HYBRIDNET_ATTR_CLOCK] = U32,
	[HYBRIDNET_ATTR_PACE_PPM] = U32,
	[HYBRIDNET_ATTR_SLOT] = U32,
	[HYBRIDNET_ATTR_SRC] = U32,
	[HYBRIDNET_ATTR_DST] = U32,
	[HYBRIDNET_ATTR_PAIR] = NEST,
	[HYBRIDNET_ATTR_SLOT_CONFIG] = NEST,
	[HYBRIDNET_ATTR_GRANT] = NEST,
	[HYBRIDNET_ATTR_RESULT] = U32,
	[HYBRIDNET_ATTR_ALL] = { .type = NLA_FLAG },
	[HYBRIDNET_ATTR_PHASE] = STR,
	[HYBRIDNET_ATTR_GENERATION] = U32,
	[HYBRIDNET_ATTR_NODE] = U32,
	[HYBRIDNET_ATTR_STATS] = NEST,
	[HYBRIDNET_ATTR_SLOT_STATS] = NEST,
	[HYBRIDNET_ATTR_NOW] = U64,
	[HYBRIDNET_ATTR_EVENT] = U32,
	[HYBRIDNET_ATTR_ALGO] = STR,
	[HYBRIDNET_ATTR_KSTEP] = U32,
	[HYBRIDNET_ATTR_SCHED_FLAGS] = U32,
	[HYBRIDNET_ATTR_SEED] = U64,
	[HYBRIDNET_ATTR_LEVEL] = U32,
	[HYBRIDNET_ATTR_COUNT] = U32,
	[HYBRIDNET_ATTR_PATTERN] = STR,
	[HYBRIDNET_ATTR_LOAD_PPM] = U32,
	[HYBRIDNET_ATTR_BATCH] = U32,
	[HYBRIDNET_ATTR_SIZE] = U32,
	[HYBRIDNET_ATTR_SIZE_MAX] = U32,
	[HYBRIDNET_ATTR_SIZE_DIST] = STR,
	[HYBRIDNET_ATTR_PRED_PPM] = U32,
	[HYBRIDNET_ATTR_ROOT] = U32,
	[HYBRIDNET_ATTR_WARMUP_NS] = U64,
	[HYBRIDNET_ATTR_MEASURE_NS] = U64,
	[HYBRIDNET_ATTR_DRAIN_NS] = U64,
	[HYBRIDNET_ATTR_LIMIT_NS] = U64,
	[HYBRIDNET_ATTR_TRAFFIC_STATE] = U32,
	[HYBRIDNET_ATTR_WHY] = STR,
	[HYBRIDNET_ATTR_PHASES] = STR,
	[HYBRIDNET_ATTR_CONFLICT] = NEST,
	[HYBRIDNET_ATTR_PINNED] = { .type = NLA_FLAG },
	[HYBRIDNET_ATTR_REBUILT] = { .type = NLA_FLAG },
	[HYBRIDNET_ATTR_RELEASED] = U32,
	[HYBRIDNET_ATTR_REROUTED] = U32,
	[HYBRIDNET_ATTR_PATH] = { .type = NLA_BINARY,
				  .maxlen = HYBRIDNET_MAX_PATH },
	[HYBRIDNET_ATTR_LEVELS] = U32,
	[HYBRIDNET_ATTR_WIDTH] = U32,
	[HYBRIDNET_ATTR_SWITCHES] = U32,
	[HYBRIDNET_ATTR_RADIX] = U32,
	[HYBRIDNET_ATTR_LINKS] = U32,
	[HYBRIDNET_ATTR_MAX_HOPS] = U32,
	[HYBRIDNET_ATTR_LINK] = U32,
	[HYBRIDNET_ATTR_SWITCH] = U32,
	[HYBRIDNET_ATTR_PORT] = U32,
	[HYBRIDNET_ATTR_CHANNEL] = NEST,
	[HYBRIDNET_ATTR_DIR] = U32,
	[HYBRIDNET_ATTR_IFNAME] = STR,
	[HYBRIDNET_ATTR_IFINDEX] = U32,
	[HYBRIDNET_ATTR_ADDRESS] = { .type = NLA_BINARY, .minlen = 6,
				     .maxlen = 6 },
	[HYBRIDNET_ATTR_NETNS_COOKIE] = U64,
	[HYBRIDNET_ATTR_SNAPLEN] = U32,
	[HYBRIDNET_ATTR_RING] = U32,
	[HYBRIDNET_ATTR_CAPTURED] = U64,
	[HYBRIDNET_ATTR_TRUNCATED] = U64,
	[HYBRIDNET_ATTR_RX_DROP_NO_MEM] = U64,
	[HYBRIDNET_ATTR_RX_DROP_RING_FULL] = U64,
	[HYBRIDNET_ATTR_FABRIC] = U32,
	[HYBRIDNET_ATTR_DEADLOCK] = NEST,
	[HYBRIDNET_ATTR_DEADLOCK_AT] = U64,
	[HYBRIDNET_ATTR_DEADLOCK_SINCE] = U64,
	[HYBRIDNET_ATTR_VC] = U32,
	[HYBRIDNET_ATTR_DOWN] = { .type = NLA_U8 },
	[HYBRIDNET_ATTR_DEAD] = { .type = NLA_U8 },
	[HYBRIDNET_ATTR_RANDOM] = U32,
	[HYBRIDNET_ATTR_LINKS_DOWN] = U32,
	[HYBRIDNET_ATTR_SWITCHES_DOWN] = U32,
	[HYBRIDNET_ATTR_NAME] = STR,
	[HYBRIDNET_ATTR_LINK_CHANNEL] = U32,
	[HYBRIDNET_ATTR_RANDOM_CHANNELS] = U32,
	[HYBRIDNET_ATTR_CHANNELS_DOWN] = U32,
	[HYBRIDNET_ATTR_LINK_CHANNELS_DOWN] = U32,
};

static const struct nla_policy hn_stat_policy[HYBRIDNET_STAT_MAX + 1] = {
	[HYBRIDNET_STAT_TX_MSGS_CIRCUIT ... HYBRIDNET_STAT_MAX] = U64,
};

int hn_ctl_put_pair(struct nl_msg *m, uint32_t src, uint32_t dst)
{
	struct nlattr *nest = nla_nest_start(m, HYBRIDNET_ATTR_PAIR);

	if (!nest || nla_put_u32(m, HYBRIDNET_ATTR_SRC, src) ||
	    nla_put_u32(m, HYBRIDNET_ATTR_DST, dst))
		return -EMSGSIZE;
	return nla_nest_end(m, nest) < 0 ? -EMSGSIZE : 0;
}

int hn_ctl_get_pair(struct nlattr *nest, struct hn_ctl_pair *p)
{
	struct nlattr *tb[HYBRIDNET_ATTR_MAX + 1];

	if (nla_parse_nested(tb, HYBRIDNET_ATTR_MAX, nest, hn_ctl_policy) ||
	    !tb[HYBRIDNET_ATTR_SRC] || !tb[HYBRIDNET_ATTR_DST])
		return -EPROTO;
	p->src = nla_get_u32(tb[HYBRIDNET_ATTR_SRC]);
	p->dst = nla_get_u32(tb[HYBRIDNET_ATTR_DST]);
	return 0;
}

int hn_ctl_get_grant(struct nlattr *nest, struct hn_ctl_grant *g)
{
	struct nlattr *tb[HYBRIDNET_ATTR_MAX + 1];

	if (nla_parse_nested(tb, HYBRIDNET_ATTR_MAX, nest, hn_ctl_policy) ||
	    !tb[HYBRIDNET_ATTR_SRC] || !tb[HYBRIDNET_ATTR_DST] ||
	    !tb[HYBRIDNET_ATTR_RESULT])
		return -EPROTO;
	g->src = nla_get_u32(tb[HYBRIDNET_ATTR_SRC]);
	g->dst = nla_get_u32(tb[HYBRIDNET_ATTR_DST]);
	g->result = nla_get_u32(tb[HYBRIDNET_ATTR_RESULT]);
	g->slot = tb[HYBRIDNET_ATTR_SLOT] ?
		  nla_get_u32(tb[HYBRIDNET_ATTR_SLOT]) : HN_CTL_NO_SLOT;
	return 0;
}

int hn_ctl_get_stats(struct nlattr *nest, struct hn_ctl_stats *st)
{
	struct nlattr *tb[HYBRIDNET_STAT_MAX + 1];
	int i;

	memset(st, 0, sizeof(*st));
	if (nla_parse_nested(tb, HYBRIDNET_STAT_MAX, nest, hn_stat_policy))
		return -EPROTO;
	for (i = HYBRIDNET_STAT_TX_MSGS_CIRCUIT; i <= HYBRIDNET_STAT_MAX; i++) {
		if (!tb[i])
			continue;
		st->v[i] = nla_get_u64(tb[i]);
		st->mask[i / 64] |= 1ULL << (i % 64);
	}
	return 0;
}

int hn_ctl_stat_has(const struct hn_ctl_stats *st, unsigned int stat)
{
	return stat <= HYBRIDNET_STAT_MAX &&
	       (st->mask[stat / 64] >> (stat % 64) & 1);
}

int hn_ctl_get_config(struct nlattr **tb, struct hn_ctl_config *cfg)
{
	const struct hn_ctl_field *f;

	for (f = hn_ctl_config_fields; f->name; f++) {
		struct nlattr *a = tb[f->attr];
		char *p = (char *)cfg + f->off;

		if (!a)
			continue;
		switch (f->type) {
		case HN_CTL_U32:
			*(uint32_t *)p = nla_get_u32(a);
			break;
		case HN_CTL_U64:
			*(uint64_t *)p = nla_get_u64(a);
			break;
		default: {
			size_t n = (size_t)nla_len(a);

			if (n >= sizeof(cfg->profile))
				n = sizeof(cfg->profile) - 1;
			memcpy(p, nla_data(a), n);	/* profile */
			p[n] = '\0';
			break;
		}
		}
		HN_CTL_MARK(cfg, f->attr);
	}
	return 0;
}
