/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cfg_text.h - the configuration values that are text rather than a
 * number: the topology, "crossbar" or "fattree:L,W", and the policy's
 * flags as words, "sla,preempt" (docs/names.md).  The module parameters,
 * netlink's HYBRIDNET_ATTR_TOPOLOGY, sysfs, libhybridnet (so hnctl) and
 * hnsim all read and print them here; their rows in hn_fields.h name the
 * two functions of each.
 */
#ifndef HN_CFG_TEXT_H
#define HN_CFG_TEXT_H

#include "hn_core.h"

/*
 * @s as the topology of @c: "crossbar" (c->nodes ports) or "fattree:L,W"
 * (FT(L, W) of Ch. 7: L levels of 2W-port switches, W^L nodes).  Sets
 * c->topology, ->levels and ->width, and for a fat tree c->nodes to W^L;
 * a node count given after it must agree, which hn_config_check() holds.
 * Nothing changes on -EINVAL, whose @err says what is wrong.
 */
int hn_topology_parse(struct hn_config *c, const char *s, struct hn_err *err);

/*
 * The topology of @c as hn_topology_parse() reads it back: "crossbar"
 * (the node count is c->nodes) or "fattree:L,W", into @buf of @len
 * bytes, NUL-ended; returns @buf.  The longest text of a configuration
 * that hn_topology_parse() reads, "fattree:12,2", has 12 characters: the
 * row of hn_fields.h allows HN_TEXT_MAX.
 */
char *hn_topology_print(const struct hn_config *c, char *buf, u32 len);

/* @v in decimal at @p, 20 bytes at most, not NUL-ended; returns the end */
char *hn_text_dec(char *p, u64 v);

/*
 * The number in [@s, @end), decimal or 0x hex, into *@v: 0; -EINVAL when
 * it is none; -ERANGE when it is past u64 (*@v then wrong).
 */
int hn_text_number(const char *s, const char *end, u64 *v);

/*
 * @s as policy flags (enum hn_policy) into *@policy: words of
 * HN_WL_POLICY (hn_fields.h) joined by ',' or '+', where "fixed" is none,
 * "sla" is ses+sla and "dynamic" is dynamic+no-w+ses, or numbers (decimal
 * or 0x hex) among them; a flag beyond HN_POL_ALL is the caller's to
 * refuse.  -EINVAL (nothing set) when a word is not one; the words of
 * @err->msg say which are.
 */
int hn_policy_from_text(const char *s, u32 *policy, struct hn_err *err);

/*
 * @policy as hn_policy_from_text() reads it back, in @buf of @len bytes,
 * NUL-ended: "fixed", or the words in the order of HN_WL_POLICY, the
 * composites first ("sla,preempt,slot"), then any flag without a word in
 * hex ("no-w,0x2"); returns @buf.  64 bytes hold any.
 */
char *hn_policy_text(u32 policy, char *buf, u32 len);

/* The same as a field's functions: the policy of @c */
int hn_policy_parse(struct hn_config *c, const char *s, struct hn_err *err);
char *hn_policy_print(const struct hn_config *c, char *buf, u32 len);

/*
 * @s as a fat tree's dilation level by level, "D,D,.." (each 1..8, at
 * most HN_DIL_LEVELS_MAX, from the nodes' links up), "0" (every link
 * c->dilation) or netlink's u32 in hex ("0x5322" is "2,2,3,5"), into
 * c->dil_levels, 4 bits a level; -EINVAL with @err.
 * Whether the levels are the tree's is hn_config_check()'s.
 */
int hn_dil_levels_parse(struct hn_config *c, const char *s,
			struct hn_err *err);
/* c->dil_levels as hn_dil_levels_parse() reads it back; returns @buf */
char *hn_dil_levels_print(const struct hn_config *c, char *buf, u32 len);

/*
 * A text field's functions, as HN_TEXT() of hn_fields.h gives them:
 * { hn_topology_parse, hn_topology_print } for the topology, the policy's
 * for the policy, NULLs for a number.
 */
struct hn_cfg_text {
	int (*parse)(struct hn_config *c, const char *s, struct hn_err *err);
	char *(*print)(const struct hn_config *c, char *buf, u32 len);
};

#endif /* HN_CFG_TEXT_H */
