/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hn_ctl_int.h - libhybridnet's control plane, shared by the hn_ctl*.c
 * files: the handle, the request/reply loop, the attribute policies.
 */
#ifndef HN_CTL_INT_H
#define HN_CTL_INT_H

#include <netlink/netlink.h>
#include <netlink/genl/genl.h>

#include "libhybridnet.h"
#include "hn_dev_int.h"		/* HN_ERR_NOT_LOADED */

struct hn_ctl {
	struct nl_sock *sk;		/* requests and their replies */
	struct nl_sock *ev;		/* the events group, once subscribed */
	struct nl_sock *rt;		/* rtnetlink, once used */
	int family;			/* generic netlink family id */
	int grp;			/* the events group id */
	uint32_t fabric;		/* every request's; HN_CTL_FIRST_FABRIC */
	char err[320];			/* hn_ctl_errmsg() */
	char why[400];			/* hn_ctl_strerror() */
	unsigned char *evbuf;		/* a datagram of events being read */
	int evlen, evoff;
};

/* Parses one reply message (its genl attributes); < 0 stops the call. */
typedef int (*hn_ctl_reply_fn)(struct nlattr **tb, struct nlmsghdr *nlh,
			       void *arg);

/* Policy of every attribute in replies and events (libnl's checks). */
extern const struct nla_policy hn_ctl_policy[HYBRIDNET_ATTR_MAX + 1];

/* A new request of @cmd with room for @size bytes of attributes. */
struct nl_msg *hn_ctl_msg(struct hn_ctl *c, uint8_t cmd, size_t size,
			  int flags);
/*
 * Send @m (consumed) and read until its ACK, NLMSG_DONE or error.  Each
 * reply is parsed with hn_ctl_policy and handed to @fn (may be NULL).
 * Returns 0, a negative errno (the kernel's, with its extack text in
 * c->err) or -EAGAIN when a dump was interrupted (NLM_F_DUMP_INTR).
 */
int hn_ctl_run(struct hn_ctl *c, struct nl_msg *m, hn_ctl_reply_fn fn,
	       void *arg);
/* The same on socket @sk (c->sk: hn_ctl_run()). */
int hn_ctl_talk(struct hn_ctl *c, struct nl_sock *sk, struct nl_msg *m,
		hn_ctl_reply_fn fn, void *arg);
/* An rtnetlink request @m (consumed), answered by an ACK alone. */
int hn_ctl_run_route(struct hn_ctl *c, struct nl_msg *m);

/* A dump's growing array of @size-byte entries, @n of them filled. */
struct hn_ctl_dump {
	void *v;
	size_t n, cap, size;
};

/* Room for the next entry (x->n is not moved), or NULL. */
void *hn_ctl_dump_next(struct hn_ctl_dump *x);

/*
 * The dump of @cmd with the u32 selectors @sel[i] = { attribute, value }
 * (a value UINT32_MAX is left out), each reply parsed by @fn into the
 * hn_ctl_dump of @size-byte entries it is given: *@out, *@n entries, to
 * free(); nothing on an error.
 */
int hn_ctl_dump(struct hn_ctl *c, uint8_t cmd, const uint32_t (*sel)[2],
		size_t nsel, hn_ctl_reply_fn fn, size_t size, void **out,
		size_t *n);

/* errno of a libnl error code (negative in, negative out) */
int hn_ctl_errno(int nlerr);

/* Attribute helpers */
int hn_ctl_put_pair(struct nl_msg *m, uint32_t src, uint32_t dst);
int hn_ctl_get_pair(struct nlattr *nest, struct hn_ctl_pair *p);
int hn_ctl_get_grant(struct nlattr *nest, struct hn_ctl_grant *g);
int hn_ctl_get_stats(struct nlattr *nest, struct hn_ctl_stats *st);
/* Fill the configuration fields present in @tb; returns 0. */
int hn_ctl_get_config(struct nlattr **tb, struct hn_ctl_config *cfg);
/* Put the configuration fields marked in @cfg: 0, or -EINVAL, -EMSGSIZE. */
int hn_ctl_put_config(struct nl_msg *m, const struct hn_ctl_config *cfg);
/* Parse an event message into *ev (hn_ctl_event.c). */
int hn_ctl_parse_event(struct nlmsghdr *nlh, struct hn_ctl_event *ev);

#endif /* HN_CTL_INT_H */
