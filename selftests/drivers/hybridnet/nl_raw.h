/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nl_raw.h - a small raw generic netlink client for the module tests:
 * byte-level control over requests (bad input, fuzzing) and the kernel's
 * extack message on every error.  No libnl, so it links statically.  The
 * same on an rtnetlink socket (nlr_route_open()), for the link kind.
 */
#ifndef HN_NL_RAW_H
#define HN_NL_RAW_H

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <linux/genetlink.h>
#include <linux/if_link.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>

#include <linux/hybridnet.h>

#ifndef NETLINK_EXT_ACK
#define NETLINK_EXT_ACK 11
#endif

struct nlr {
	int fd;
	uint16_t family;
	uint32_t mcgrp;			/* "events" group id */
	uint32_t seq;
	char msg[256];			/* extack text of the last error */
	uint8_t buf[1 << 17];		/* request being built */
	uint32_t len;
	uint8_t rx[1 << 17];		/* last datagram received */
	int rxlen;
	uint8_t reply[1 << 17];		/* last data message of the call */
};

#define NLR_ALIGN(x)	(((x) + 3) & ~3u)

static inline struct nlattr *nlr_put(struct nlr *r, uint16_t type,
				     const void *data, uint16_t len)
{
	struct nlattr *a = (struct nlattr *)(r->buf + r->len);

	a->nla_type = type;
	a->nla_len = NLA_HDRLEN + len;
	if (len)
		memcpy((uint8_t *)a + NLA_HDRLEN, data, len);
	memset((uint8_t *)a + NLA_HDRLEN + len, 0,
	       NLR_ALIGN(a->nla_len) - a->nla_len);
	r->len += NLR_ALIGN(a->nla_len);
	return a;
}

static inline void nlr_u32(struct nlr *r, uint16_t type, uint32_t v)
{
	nlr_put(r, type, &v, 4);
}

static inline void nlr_u64(struct nlr *r, uint16_t type, uint64_t v)
{
	nlr_put(r, type, &v, 8);
}

static inline void nlr_str(struct nlr *r, uint16_t type, const char *s)
{
	nlr_put(r, type, s, strlen(s) + 1);
}

static inline struct nlattr *nlr_nest(struct nlr *r, uint16_t type)
{
	return nlr_put(r, type | NLA_F_NESTED, NULL, 0);
}

static inline void nlr_end(struct nlr *r, struct nlattr *nest)
{
	nest->nla_len = (uint8_t *)(r->buf + r->len) - (uint8_t *)nest;
}

static inline void nlr_pair(struct nlr *r, uint32_t src, uint32_t dst)
{
	struct nlattr *n = nlr_nest(r, HYBRIDNET_ATTR_PAIR);

	nlr_u32(r, HYBRIDNET_ATTR_SRC, src);
	nlr_u32(r, HYBRIDNET_ATTR_DST, dst);
	nlr_end(r, n);
}

/* Start a request: command @cmd of family @family, @flags besides REQUEST. */
static inline void nlr_start(struct nlr *r, uint16_t family, uint8_t cmd,
			     uint16_t flags)
{
	struct nlmsghdr *h = (struct nlmsghdr *)r->buf;
	struct genlmsghdr *g = (struct genlmsghdr *)(r->buf + NLMSG_HDRLEN);

	memset(h, 0, NLMSG_HDRLEN + GENL_HDRLEN);
	h->nlmsg_type = family;
	h->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK | flags;
	h->nlmsg_seq = ++r->seq;
	g->cmd = cmd;
	g->version = 1;
	r->len = NLMSG_HDRLEN + GENL_HDRLEN;
}

static inline void nlr_msg(struct nlr *r, uint8_t cmd, uint16_t flags)
{
	nlr_start(r, r->family, cmd, flags);
}

/*
 * extack message of an NLMSG_ERROR, or of the NLMSG_DONE that ends a
 * dump (its TLVs follow the errno), if any
 */
static inline void nlr_extack(struct nlr *r, const struct nlmsghdr *h)
{
	const struct nlmsgerr *e = NLMSG_DATA(h);
	const uint8_t *p, *end = (const uint8_t *)h + h->nlmsg_len;
	const struct nlattr *a;

	if (!(h->nlmsg_flags & NLM_F_ACK_TLVS))
		return;
	p = (const uint8_t *)e + sizeof(*e);
	if (h->nlmsg_type == NLMSG_DONE)
		p = (const uint8_t *)e + sizeof(int);
	else if (!(h->nlmsg_flags & NLM_F_CAPPED))
		p += e->msg.nlmsg_len - sizeof(e->msg);
	while (p + NLA_HDRLEN <= end) {
		a = (const struct nlattr *)p;
		if (a->nla_len < NLA_HDRLEN)
			break;
		if ((a->nla_type & NLA_TYPE_MASK) == NLMSGERR_ATTR_MSG)
			snprintf(r->msg, sizeof(r->msg), "%.*s",
				 (int)(a->nla_len - NLA_HDRLEN),
				 (const char *)a + NLA_HDRLEN);
		p += NLR_ALIGN(a->nla_len);
	}
}

/*
 * Send the request and read until its ack.  Data messages before the ack
 * are counted and the last one is copied to r->reply; @each, when given, sees
 * every data message.  Returns 0, a negative errno, or the count.
 */
static inline int nlr_call(struct nlr *r,
			   void (*each)(void *ctx, const struct nlmsghdr *h),
			   void *ctx)
{
	struct nlmsghdr *h = (struct nlmsghdr *)r->buf;
	int n, count = 0;

	h->nlmsg_len = r->len;
	r->msg[0] = 0;
	if (send(r->fd, r->buf, r->len, 0) != (ssize_t)r->len)
		return -errno;
	for (;;) {
		n = recv(r->fd, r->rx, sizeof(r->rx), 0);
		if (n < 0)
			return -errno;
		r->rxlen = n;
		for (h = (struct nlmsghdr *)r->rx; NLMSG_OK(h, (unsigned int)n);
		     h = NLMSG_NEXT(h, n)) {
			if (h->nlmsg_seq != r->seq)
				continue;
			if (h->nlmsg_type == NLMSG_ERROR) {
				const struct nlmsgerr *e = NLMSG_DATA(h);

				nlr_extack(r, h);
				return e->error ? e->error : count;
			}
			if (h->nlmsg_type == NLMSG_DONE) {
				int err = 0;

				if (h->nlmsg_len >= NLMSG_LENGTH(sizeof(err)))
					memcpy(&err, NLMSG_DATA(h), sizeof(err));
				nlr_extack(r, h);
				return err < 0 ? err : count;
			}
			count++;
			if (h->nlmsg_len <= sizeof(r->reply))
				memcpy(r->reply, h, h->nlmsg_len);
			if (each)
				each(ctx, h);
		}
	}
}

/*
 * Attributes of a message (top level), after @hdrlen bytes of its family's
 * header, into tb[0..max].
 */
static inline void nlr_parse_after(const struct nlmsghdr *h, size_t hdrlen,
				   const struct nlattr **tb, int max)
{
	const uint8_t *p = (const uint8_t *)NLMSG_DATA(h) + hdrlen;
	const uint8_t *end = (const uint8_t *)h + h->nlmsg_len;
	const struct nlattr *a;

	memset(tb, 0, (max + 1) * sizeof(*tb));
	for (; p + NLA_HDRLEN <= end; p += NLR_ALIGN(a->nla_len)) {
		a = (const struct nlattr *)p;
		if (a->nla_len < NLA_HDRLEN)
			break;
		if ((a->nla_type & NLA_TYPE_MASK) <= max)
			tb[a->nla_type & NLA_TYPE_MASK] = a;
	}
}

/* Attributes of a genetlink message (top level) into tb[0..max]. */
static inline void nlr_parse(const struct nlmsghdr *h, const struct nlattr **tb,
			     int max)
{
	nlr_parse_after(h, GENL_HDRLEN, tb, max);
}

static inline void nlr_parse_nest(const struct nlattr *nest,
				  const struct nlattr **tb, int max)
{
	const uint8_t *p = (const uint8_t *)nest + NLA_HDRLEN;
	const uint8_t *end = (const uint8_t *)nest + nest->nla_len;
	const struct nlattr *a;

	memset(tb, 0, (max + 1) * sizeof(*tb));
	for (; p + NLA_HDRLEN <= end; p += NLR_ALIGN(a->nla_len)) {
		a = (const struct nlattr *)p;
		if (a->nla_len < NLA_HDRLEN)
			break;
		if ((a->nla_type & NLA_TYPE_MASK) <= max)
			tb[a->nla_type & NLA_TYPE_MASK] = a;
	}
}

static inline uint32_t nlr_get_u32(const struct nlattr *a)
{
	uint32_t v;

	memcpy(&v, (const uint8_t *)a + NLA_HDRLEN, 4);
	return v;
}

static inline uint64_t nlr_get_u64(const struct nlattr *a)
{
	uint64_t v;

	memcpy(&v, (const uint8_t *)a + NLA_HDRLEN, 8);
	return v;
}

/* A PREDICT reply's grants, in order: slot (~0 if none) and result. */
struct nlr_grants {
	uint32_t n, slot[16], result[16];
};

/* nlr_call()'s @each for a PREDICT: the grants into struct nlr_grants */
static inline void nlr_grant_cb(void *ctx, const struct nlmsghdr *h)
{
	const uint8_t *p = (const uint8_t *)NLMSG_DATA(h) + GENL_HDRLEN;
	const uint8_t *end = (const uint8_t *)h + h->nlmsg_len;
	const struct nlattr *a, *tb[HYBRIDNET_ATTR_MAX + 1];
	struct nlr_grants *g = ctx;

	for (; p + NLA_HDRLEN <= end; p += NLR_ALIGN(a->nla_len)) {
		a = (const struct nlattr *)p;
		if ((a->nla_type & NLA_TYPE_MASK) != HYBRIDNET_ATTR_GRANT ||
		    g->n >= 16)
			continue;
		nlr_parse_nest(a, tb, HYBRIDNET_ATTR_MAX);
		g->slot[g->n] = tb[HYBRIDNET_ATTR_SLOT] ?
				nlr_get_u32(tb[HYBRIDNET_ATTR_SLOT]) : ~0u;
		g->result[g->n++] = tb[HYBRIDNET_ATTR_RESULT] ?
				    nlr_get_u32(tb[HYBRIDNET_ATTR_RESULT]) : ~0u;
	}
}

/*
 * nlr_call() of a request whose reply (CONFIG_SET's and PRELOAD's say
 * what they changed) is not looked at: 0 or -errno.
 */
static inline int nlr_do(struct nlr *r)
{
	int rc = nlr_call(r, NULL, NULL);

	return rc < 0 ? rc : 0;
}

/* CONFIG_SET of one u32 attribute: 0 or -errno. */
static inline int nlr_set_u32(struct nlr *r, int attr, uint32_t v)
{
	nlr_msg(r, HYBRIDNET_CMD_CONFIG_SET, 0);
	nlr_u32(r, attr, v);
	return nlr_do(r);
}

/* One global statistic (enum hybridnet_stat), or -1. */
static inline int64_t nlr_gstat(struct nlr *r, int which)
{
	const struct nlattr *tb[HYBRIDNET_ATTR_MAX + 1];
	const struct nlattr *st[HYBRIDNET_STAT_MAX + 1];

	nlr_msg(r, HYBRIDNET_CMD_STATS_GET, 0);
	if (nlr_call(r, NULL, NULL) != 1)
		return -1;
	nlr_parse((const struct nlmsghdr *)r->reply, tb, HYBRIDNET_ATTR_MAX);
	if (!tb[HYBRIDNET_ATTR_STATS])
		return -1;
	nlr_parse_nest(tb[HYBRIDNET_ATTR_STATS], st, HYBRIDNET_STAT_MAX);
	return st[which] ? (int64_t)nlr_get_u64(st[which]) : -1;
}

static void nlr_family_cb(void *ctx, const struct nlmsghdr *h)
{
	const struct nlattr *tb[CTRL_ATTR_MAX + 1], *g, *gt[CTRL_ATTR_MCAST_GRP_MAX + 1];
	struct nlr *r = ctx;
	const uint8_t *p, *end;

	nlr_parse(h, tb, CTRL_ATTR_MAX);
	if (tb[CTRL_ATTR_FAMILY_ID])
		memcpy(&r->family, (const uint8_t *)tb[CTRL_ATTR_FAMILY_ID] +
		       NLA_HDRLEN, 2);
	if (!tb[CTRL_ATTR_MCAST_GROUPS])
		return;
	p = (const uint8_t *)tb[CTRL_ATTR_MCAST_GROUPS] + NLA_HDRLEN;
	end = (const uint8_t *)tb[CTRL_ATTR_MCAST_GROUPS] +
	      tb[CTRL_ATTR_MCAST_GROUPS]->nla_len;
	for (; p + NLA_HDRLEN <= end; p += NLR_ALIGN(g->nla_len)) {
		g = (const struct nlattr *)p;
		nlr_parse_nest(g, gt, CTRL_ATTR_MCAST_GRP_MAX);
		if (gt[CTRL_ATTR_MCAST_GRP_NAME] && gt[CTRL_ATTR_MCAST_GRP_ID] &&
		    !strcmp((const char *)gt[CTRL_ATTR_MCAST_GRP_NAME] + NLA_HDRLEN,
			    HYBRIDNET_MCGRP_EVENTS))
			r->mcgrp = nlr_get_u32(gt[CTRL_ATTR_MCAST_GRP_ID]);
	}
}

/* Open a socket and resolve the hybridnet family: 0 or -errno. */
static inline int nlr_open(struct nlr *r)
{
	int one = 1, rc;

	memset(r, 0, offsetof(struct nlr, buf));
	r->fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
	if (r->fd < 0)
		return -errno;
	setsockopt(r->fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
	nlr_start(r, GENL_ID_CTRL, CTRL_CMD_GETFAMILY, 0);
	((struct genlmsghdr *)(r->buf + NLMSG_HDRLEN))->version = 2;
	nlr_str(r, CTRL_ATTR_FAMILY_NAME, HYBRIDNET_GENL_NAME);
	rc = nlr_call(r, nlr_family_cb, r);
	if (rc < 0) {
		close(r->fd);
		return rc;
	}
	return r->family ? 0 : -ENOENT;
}

/* An rtnetlink socket, with extended ACKs: 0 or -errno. */
static inline int nlr_route_open(struct nlr *r)
{
	int one = 1;

	memset(r, 0, offsetof(struct nlr, buf));
	r->fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	if (r->fd < 0)
		return -errno;
	setsockopt(r->fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
	return 0;
}

/* Start an rtnetlink link request: @type (RTM_NEWLINK, ...), @flags. */
static inline void nlr_link_start(struct nlr *r, uint16_t type,
				  uint16_t flags)
{
	struct nlmsghdr *h = (struct nlmsghdr *)r->buf;
	struct ifinfomsg *ifi = (struct ifinfomsg *)(r->buf + NLMSG_HDRLEN);

	memset(h, 0, NLMSG_HDRLEN + NLMSG_ALIGN(sizeof(*ifi)));
	h->nlmsg_type = type;
	h->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK | flags;
	h->nlmsg_seq = ++r->seq;
	ifi->ifi_family = AF_UNSPEC;
	r->len = NLMSG_HDRLEN + NLMSG_ALIGN(sizeof(*ifi));
}

/*
 * RTM_NEWLINK of the link kind hybridnet: @name (NULL: the kernel's
 * choice), IFLA_HYBRIDNET_FABRIC and _NODE when not negative; @extra, when
 * given, adds attributes at the top level first.  0 or -errno.
 */
static inline int nlr_link_add(struct nlr *r, const char *name, int64_t fabric,
			       int64_t node, void (*extra)(struct nlr *r))
{
	struct nlattr *info, *data;

	nlr_link_start(r, RTM_NEWLINK, NLM_F_CREATE | NLM_F_EXCL);
	if (extra)
		extra(r);
	if (name)
		nlr_str(r, IFLA_IFNAME, name);
	info = nlr_nest(r, IFLA_LINKINFO);
	nlr_str(r, IFLA_INFO_KIND, "hybridnet");
	if (fabric >= 0 || node >= 0) {
		data = nlr_nest(r, IFLA_INFO_DATA);
		if (fabric >= 0)
			nlr_u32(r, IFLA_HYBRIDNET_FABRIC, fabric);
		if (node >= 0)
			nlr_u32(r, IFLA_HYBRIDNET_NODE, node);
		nlr_end(r, data);
	}
	nlr_end(r, info);
	return nlr_call(r, NULL, NULL);
}

static inline void nlr_close(struct nlr *r)
{
	close(r->fd);
}

#endif /* HN_NL_RAW_H */
