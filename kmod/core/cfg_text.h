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

/* room for the longest topology text, "crossbar:4096" or "fattree:12,2" */
#define HN_TOPO_TEXT_LEN	16

/*
 * @s as the topology of @c: "crossbar" (the kind alone), "crossbar:N"
 * (N nodes) or "fattree:L,W" (FT(L, W) of Ch. 7: L levels of 2W-port
 * switches, W^L nodes).  Sets c->topology, ->levels and ->width, and
 * c->nodes to the count the text implies (N, W^L); a node count given
 * after it must agree, which hn_config_check() holds.  Nothing changes on
 * -EINVAL, whose @err says what is wrong.
 */
int hn_topology_parse(struct hn_config *c, const char *s, struct hn_err *err);

/*
 * The topology of @c as hn_topology_parse() reads it back: "crossbar"
 * (the node count is c->nodes) or "fattree:L,W", into @buf of @len
 * bytes (HN_TOPO_TEXT_LEN holds every value), NUL-ended; returns @buf.
 */
char *hn_topology_print(const struct hn_config *c, char *buf, u32 len);

#endif /* HN_CFG_TEXT_H */
