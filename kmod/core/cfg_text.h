/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cfg_text.h - the configuration values that are text rather than a
 * number: the topology, "crossbar" or "fattree:L,W" (docs/names.md).
 * The module parameter, netlink's HYBRIDNET_ATTR_TOPOLOGY, sysfs, hnctl
 * (through the kernel) and hnsim all read and print it here; its row in
 * hn_fields.h names these two functions.
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

/*
 * A STRING field's functions, as HN_TEXT() of hn_fields.h gives them:
 * { hn_topology_parse, hn_topology_print } for the topology, NULLs for a
 * number.
 */
struct hn_cfg_text {
	int (*parse)(struct hn_config *c, const char *s, struct hn_err *err);
	char *(*print)(const struct hn_config *c, char *buf, u32 len);
};

#endif /* HN_CFG_TEXT_H */
