// SPDX-License-Identifier: GPL-2.0
/*
 * hn_ctl.c - libhybridnet's control plane: the handle (a generic netlink
 * socket on libnl-genl-3, and an rtnetlink one for the interfaces), the
 * request/reply loop and the kernel's reasons for a refusal.
 *
 * libnl 3.7 has no helper for extended ACKs, so the socket gets
 * NETLINK_EXT_ACK (and NETLINK_CAP_ACK: an error does not echo a large
 * request back) with setsockopt(), and the error callback reads the
 * NLMSGERR_ATTR_* TLVs behind struct nlmsgerr itself.  A dump that fails
 * reports its errno and TLVs in NLMSG_DONE instead, which the finish
 * callback reads the same way.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <linux/netlink.h>

#include <netlink/genl/ctrl.h>

#include "hn_ctl_int.h"

#ifndef SOL_NETLINK
#define SOL_NETLINK	270
#endif

/* Room the sockets ask for; the kernel caps it at [rw]mem_max x 2. */
#define HN_CTL_SOCKBUF	(4 << 20)
/* and the send buffer, when allowed: 64 slots of 3276 pairs are 4.2 MB */
#define HN_CTL_BIGBUF	(8 << 20)

int hn_ctl_errno(int nlerr)
{
	switch (-nlerr) {
	case 0:
		return 0;
	case NLE_INTR:
		return -EINTR;
	case NLE_AGAIN:
		return -EAGAIN;
	case NLE_NOMEM:
		return -ENOMEM;
	case NLE_PERM:
		return -EPERM;
	case NLE_INVAL:
	case NLE_RANGE:
		return -EINVAL;
	case NLE_OBJ_NOTFOUND:
		return -ENOENT;
	case NLE_MSGSIZE:
		return -EMSGSIZE;
	case NLE_MSG_TRUNC:
	case NLE_MSG_OVERFLOW:
		return -ENOBUFS;
	case NLE_DUMP_INTR:
		return -EAGAIN;
	case NLE_NOACCESS:
		return -EACCES;
	case NLE_BUSY:
		return -EBUSY;
	case NLE_OPNOTSUPP:
		return -EOPNOTSUPP;
	case NLE_PROTO_MISMATCH:
		return -EPROTONOSUPPORT;
	case NLE_SEQ_MISMATCH:
	case NLE_MSG_TOOSHORT:
	case NLE_MSGTYPE_NOSUPPORT:
	case NLE_PARSE_ERR:
		return -EPROTO;
	default:
		return -EIO;
	}
}

static void hn_ctl_seterr(struct hn_ctl *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void hn_ctl_seterr(struct hn_ctl *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(c->err, sizeof(c->err), fmt, ap);
	va_end(ap);
}

const char *hn_ctl_errmsg(const struct hn_ctl *c)
{
	return c ? c->err : "";
}

/* hn_ctl_open()'s failures have no handle: this thread's last one */
static __thread char hn_ctl_open_why[sizeof(((struct hn_ctl *)0)->why)];

const char *hn_ctl_strerror(struct hn_ctl *c, int err)
{
	char *why = c ? c->why : hn_ctl_open_why;
	size_t len = sizeof(hn_ctl_open_why);

	if (err < 0)
		err = -err;
	if (!c && err == ENOENT)
		snprintf(why, len, "no generic netlink family '%s': %s",
			 HYBRIDNET_GENL_NAME, HN_ERR_NOT_LOADED);
	else if (!c)
		snprintf(why, len, "cannot open a generic netlink socket: %s",
			 strerror(err));
	else if (c->err[0])
		snprintf(why, len, "%s", c->err);
	else if (err == EPERM)
		snprintf(why, len, "%s: this needs CAP_NET_ADMIN: run it as "
			 "root (sudo)", strerror(err));
	else if (err == ENOENT)
		snprintf(why, len, "the hybridnet module is gone (unloaded "
			 "since the handle was opened): load it again (sudo "
			 "modprobe hybridnet) and open a new handle");
	else
		snprintf(why, len, "%s", strerror(err));
	return why;
}

/*
 * A netlink socket of @proto (NETLINK_GENERIC, NETLINK_ROUTE) with
 * extended ACKs and room for big messages.
 */
static int hn_ctl_socket(struct nl_sock **skp, int proto)
{
	struct nl_sock *sk;
	int one = 1, rc;

	sk = nl_socket_alloc();
	if (!sk)
		return -ENOMEM;
	rc = hn_ctl_errno(nl_connect(sk, proto));
	if (rc)
		goto fail;
	if (setsockopt(nl_socket_get_fd(sk), SOL_NETLINK, NETLINK_EXT_ACK,
		       &one, sizeof(one)) ||
	    setsockopt(nl_socket_get_fd(sk), SOL_NETLINK, NETLINK_CAP_ACK,
		       &one, sizeof(one))) {
		rc = -errno;
		goto fail;
	}
	rc = hn_ctl_errno(nl_socket_set_buffer_size(sk, HN_CTL_SOCKBUF,
						    HN_CTL_SOCKBUF));
	if (rc)
		goto fail;
	/*
	 * A request must fit in the send buffer whole: with CAP_NET_ADMIN
	 * (needed by every large request anyway) go past wmem_max, for
	 * preloads of thousands of pairs.  Without it, the capped size.
	 */
	setsockopt(nl_socket_get_fd(sk), SOL_SOCKET, SO_SNDBUFFORCE,
		   &(int){ HN_CTL_BIGBUF }, sizeof(int));
	setsockopt(nl_socket_get_fd(sk), SOL_SOCKET, SO_RCVBUFFORCE,
		   &(int){ HN_CTL_SOCKBUF }, sizeof(int));
	nl_socket_enable_msg_peek(sk);
	*skp = sk;
	return 0;
fail:
	nl_socket_free(sk);
	return rc;
}

int hn_ctl_open(struct hn_ctl **cp)
{
	struct hn_ctl *c;
	int rc;

	if (!cp)
		return -EINVAL;
	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	c->fabric = HN_CTL_FIRST_FABRIC;
	rc = hn_ctl_socket(&c->sk, NETLINK_GENERIC);
	if (rc)
		goto fail;
	c->family = genl_ctrl_resolve(c->sk, HYBRIDNET_GENL_NAME);
	if (c->family < 0) {
		rc = hn_ctl_errno(c->family);
		goto fail;
	}
	c->grp = genl_ctrl_resolve_grp(c->sk, HYBRIDNET_GENL_NAME,
				       HYBRIDNET_MCGRP_EVENTS);
	if (c->grp < 0) {
		rc = hn_ctl_errno(c->grp);
		goto fail;
	}
	*cp = c;
	return 0;
fail:
	hn_ctl_close(c);
	return rc;
}

void hn_ctl_close(struct hn_ctl *c)
{
	if (!c)
		return;
	nl_socket_free(c->sk);
	nl_socket_free(c->ev);
	nl_socket_free(c->rt);
	free(c->evbuf);
	free(c);
}

int hn_ctl_subscribe(struct hn_ctl *c)
{
	int rc;

	c->err[0] = '\0';
	if (c->ev)
		return 0;
	rc = hn_ctl_socket(&c->ev, NETLINK_GENERIC);
	if (rc)
		return rc;
	nl_socket_disable_seq_check(c->ev);
	/* the controller's: the module unloaded and loaded again */
	rc = genl_ctrl_resolve_grp(c->sk, "nlctrl", "notify");
	if (rc >= 0)
		rc = nl_socket_add_membership(c->ev, rc);
	if (!rc)
		rc = nl_socket_add_membership(c->ev, c->grp);
	rc = hn_ctl_errno(rc);
	if (!rc)
		rc = hn_ctl_errno(nl_socket_set_nonblocking(c->ev));
	if (rc) {
		nl_socket_free(c->ev);
		c->ev = NULL;
	}
	return rc;
}

int hn_ctl_event_fd(const struct hn_ctl *c)
{
	return c && c->ev ? nl_socket_get_fd(c->ev) : -EINVAL;
}

void *hn_ctl_dump_next(struct hn_ctl_dump *x)
{
	if (x->n == x->cap) {
		size_t cap = x->cap ? 2 * x->cap : 64;
		void *v = realloc(x->v, cap * x->size);

		if (!v)
			return NULL;
		x->v = v;
		x->cap = cap;
	}
	return (char *)x->v + x->n * x->size;
}

int hn_ctl_set_fabric(struct hn_ctl *c, uint32_t id)
{
	if (!c || (id >= HYBRIDNET_MAX_FABRICS && id != HN_CTL_FIRST_FABRIC))
		return -EINVAL;
	c->fabric = id;
	return 0;
}

/* Every request but FABRIC_NEW's names the handle's fabric, if set. */
struct nl_msg *hn_ctl_msg(struct hn_ctl *c, uint8_t cmd, size_t size,
			  int flags)
{
	struct nl_msg *m;

	m = nlmsg_alloc_size(NLMSG_HDRLEN + GENL_HDRLEN + size + 64);
	if (!m)
		return NULL;
	if (!genlmsg_put(m, NL_AUTO_PORT, NL_AUTO_SEQ, c->family, 0, flags,
			 cmd, HYBRIDNET_GENL_VERSION) ||
	    (cmd != HYBRIDNET_CMD_FABRIC_NEW &&
	     c->fabric != HN_CTL_FIRST_FABRIC &&
	     nla_put_u32(m, HYBRIDNET_ATTR_FABRIC, c->fabric))) {
		nlmsg_free(m);
		return NULL;
	}
	return m;
}

/* State of one request while its replies come in. */
struct hn_run {
	struct hn_ctl *c;
	const struct nlmsghdr *req;	/* what was sent, for offsets */
	hn_ctl_reply_fn fn;
	void *arg;
	int done;
	int rc;				/* first failure */
	int intr;			/* NLM_F_DUMP_INTR seen */
};

static int hn_multi_attr(int type)
{
	return type == HYBRIDNET_ATTR_PAIR || type == HYBRIDNET_ATTR_SLOT_CONFIG ||
	       type == HYBRIDNET_ATTR_GRANT || type == HYBRIDNET_ATTR_SLOT_STATS;
}

static int hn_nest_attr(int type)
{
	return type == HYBRIDNET_ATTR_PAIR || type == HYBRIDNET_ATTR_SLOT_CONFIG;
}

/*
 * Name the request's attribute at byte @off of the message ("slot-config
 * [1]/pair[0]/dst"), looking into the nests a request can carry.
 */
static int hn_attr_path(const struct nlmsghdr *req, struct nlattr *head,
			int len, uint32_t off, char *buf, size_t size)
{
	int count[HYBRIDNET_ATTR_MAX + 1] = { 0 };
	struct nlattr *a;
	int rem;

	nla_for_each_attr(a, head, len, rem) {
		uint32_t at = (uint32_t)((char *)a - (char *)req);
		int type = nla_type(a), idx;
		const char *name;
		size_t n;

		if (type > HYBRIDNET_ATTR_MAX)
			continue;
		idx = count[type]++;
		if (off < at || off >= at + NLA_ALIGN(a->nla_len))
			continue;
		name = hn_ctl_attr_name(type);
		if (hn_multi_attr(type))
			n = snprintf(buf, size, "%s[%d]", name ? name : "?", idx);
		else if (name)
			n = snprintf(buf, size, "%s", name);
		else
			n = snprintf(buf, size, "%d", type);
		if (n >= size)
			return 1;
		if (off != at && hn_nest_attr(type) && n + 1 < size) {
			buf[n] = '/';
			if (hn_attr_path(req, nla_data(a), nla_len(a), off,
					 buf + n + 1, size - n - 1))
				return 1;
			buf[n] = '\0';
		}
		return 1;
	}
	return 0;
}

/*
 * ": MIN..MAX" of the policy the kernel refused an attribute by, into
 * @buf ("" when it gave none): what "integer out of range" would take.
 */
static void hn_policy_range(struct nlattr *pol, char *buf, size_t size)
{
	struct nlattr *a;
	uint64_t lo = 0, hi = 0;
	int64_t slo = 0, shi = 0;
	int have = 0, rem;

	buf[0] = '\0';
	if (!pol)
		return;
	nla_for_each_nested(a, pol, rem) {
		if (nla_len(a) < 8)
			continue;
		switch (nla_type(a)) {
		case NL_POLICY_TYPE_ATTR_MIN_VALUE_U:
			lo = nla_get_u64(a);
			have |= 1;
			break;
		case NL_POLICY_TYPE_ATTR_MAX_VALUE_U:
			hi = nla_get_u64(a);
			have |= 2;
			break;
		case NL_POLICY_TYPE_ATTR_MIN_VALUE_S:
			slo = (int64_t)nla_get_u64(a);
			have |= 4;
			break;
		case NL_POLICY_TYPE_ATTR_MAX_VALUE_S:
			shi = (int64_t)nla_get_u64(a);
			have |= 8;
			break;
		}
	}
	if ((have & 3) == 3)
		snprintf(buf, size, ": %llu..%llu", (unsigned long long)lo,
			 (unsigned long long)hi);
	else if ((have & 12) == 12)
		snprintf(buf, size, ": %lld..%lld", (long long)slo,
			 (long long)shi);
}

/*
 * The extended ACK TLVs in @tlv (@len bytes) into c->err: the message,
 * the attribute it points at (with the range its policy takes), a
 * missing attribute.
 */
static void hn_extack(struct hn_run *r, struct nlattr *tlv, int len)
{
	struct nlattr *tb[NLMSGERR_ATTR_MAX + 1] = { 0 };
	char path[128] = "", range[48];
	struct hn_ctl *c = r->c;
	const char *msg = "";
	struct nlattr *a;
	int rem;

	nla_for_each_attr(a, tlv, len, rem)
		if (nla_type(a) <= NLMSGERR_ATTR_MAX)
			tb[nla_type(a)] = a;
	if (tb[NLMSGERR_ATTR_MSG] && nla_len(tb[NLMSGERR_ATTR_MSG]) > 0)
		msg = nla_data(tb[NLMSGERR_ATTR_MSG]);
	if (tb[NLMSGERR_ATTR_OFFS] && nla_len(tb[NLMSGERR_ATTR_OFFS]) >= 4 &&
	    r->req) {
		uint32_t off = nla_get_u32(tb[NLMSGERR_ATTR_OFFS]);
		int hlen = NLMSG_HDRLEN + GENL_HDRLEN;

		if (off >= (uint32_t)hlen && off < r->req->nlmsg_len)
			hn_attr_path(r->req,
				     (struct nlattr *)((char *)r->req + hlen),
				     r->req->nlmsg_len - hlen, off, path,
				     sizeof(path));
	}
	if (tb[NLMSGERR_ATTR_MISS_TYPE] &&
	    nla_len(tb[NLMSGERR_ATTR_MISS_TYPE]) >= 4) {
		uint32_t t = nla_get_u32(tb[NLMSGERR_ATTR_MISS_TYPE]);
		const char *name = t <= HYBRIDNET_ATTR_MAX ?
				   hn_ctl_attr_name(t) : NULL;

		if (name)
			hn_ctl_seterr(c, "%.*s%smissing attribute %s",
				      (int)strnlen(msg, 200), msg,
				      *msg ? ": " : "", name);
		else
			hn_ctl_seterr(c, "%.*s%smissing attribute %u",
				      (int)strnlen(msg, 200), msg,
				      *msg ? ": " : "", t);
		return;
	}
	hn_policy_range(tb[NLMSGERR_ATTR_POLICY], range, sizeof(range));
	if (*path && *msg)
		hn_ctl_seterr(c, "%.*s (attribute %s%s)", (int)strnlen(msg, 200),
			      msg, path, range);
	else if (*path)
		hn_ctl_seterr(c, "invalid attribute %s%s", path, range);
	else
		hn_ctl_seterr(c, "%.*s", (int)strnlen(msg, 300), msg);
}

static int hn_cb_err(struct sockaddr_nl *nla, struct nlmsgerr *e, void *arg)
{
	struct nlmsghdr *nlh = (struct nlmsghdr *)((char *)e - NLMSG_HDRLEN);
	struct hn_run *r = arg;
	size_t off = sizeof(*e);

	(void)nla;
	r->done = 1;
	if (!r->rc)
		r->rc = e->error < 0 ? e->error : -EPROTO;
	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS))
		return NL_STOP;
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
		off += e->msg.nlmsg_len - sizeof(e->msg);
	off = NLMSG_ALIGN(off);
	if (NLMSG_HDRLEN + off < nlh->nlmsg_len)
		hn_extack(r, (struct nlattr *)((char *)e + off),
			  nlh->nlmsg_len - NLMSG_HDRLEN - off);
	return NL_STOP;
}

static int hn_cb_ack(struct nl_msg *msg, void *arg)
{
	struct hn_run *r = arg;

	(void)msg;
	r->done = 1;
	return NL_STOP;
}

/* NLMSG_DONE: the dump's errno, and its extack when it failed. */
static int hn_cb_finish(struct nl_msg *msg, void *arg)
{
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	struct hn_run *r = arg;
	int err = 0;

	r->done = 1;
	if (nlh->nlmsg_len >= NLMSG_HDRLEN + sizeof(int))
		memcpy(&err, nlmsg_data(nlh), sizeof(int));
	if (err < 0 && !r->rc) {
		r->rc = err;
		if ((nlh->nlmsg_flags & NLM_F_ACK_TLVS) &&
		    nlh->nlmsg_len > NLMSG_HDRLEN + NLMSG_ALIGN(sizeof(int)))
			hn_extack(r, (struct nlattr *)((char *)nlmsg_data(nlh) +
						       NLMSG_ALIGN(sizeof(int))),
				  nlh->nlmsg_len - NLMSG_HDRLEN -
				  NLMSG_ALIGN(sizeof(int)));
	}
	return NL_STOP;
}

/* Every message, first: a dump interrupted by a change. */
static int hn_cb_in(struct nl_msg *msg, void *arg)
{
	struct hn_run *r = arg;

	if (nlmsg_hdr(msg)->nlmsg_flags & NLM_F_DUMP_INTR)
		r->intr = 1;
	return NL_OK;
}

static int hn_cb_valid(struct nl_msg *msg, void *arg)
{
	struct nlattr *tb[HYBRIDNET_ATTR_MAX + 1];
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	struct hn_run *r = arg;
	int rc;

	if (r->rc || !r->fn)
		return NL_OK;	/* drain what is left of the answer */
	rc = genlmsg_parse(nlh, 0, tb, HYBRIDNET_ATTR_MAX, hn_ctl_policy);
	if (rc) {
		r->rc = -EPROTO;
		hn_ctl_seterr(r->c, "malformed reply from the kernel");
		return NL_OK;
	}
	rc = r->fn(tb, nlh, r->arg);
	if (rc < 0)
		r->rc = rc;
	return NL_OK;
}

/* The rtnetlink socket, opened on first use. */
static int hn_ctl_route(struct hn_ctl *c)
{
	return c->rt ? 0 : hn_ctl_socket(&c->rt, NETLINK_ROUTE);
}

int hn_ctl_run(struct hn_ctl *c, struct nl_msg *m, hn_ctl_reply_fn fn,
	       void *arg)
{
	return hn_ctl_talk(c, c->sk, m, fn, arg);
}

int hn_ctl_run_route(struct hn_ctl *c, struct nl_msg *m)
{
	int rc = hn_ctl_route(c);

	if (rc) {
		nlmsg_free(m);
		return rc;
	}
	return hn_ctl_talk(c, c->rt, m, NULL, NULL);
}

int hn_ctl_talk(struct hn_ctl *c, struct nl_sock *sk, struct nl_msg *m,
		hn_ctl_reply_fn fn, void *arg)
{
	struct hn_run r = { .c = c, .fn = fn, .arg = arg };
	struct nl_cb *cb;
	int rc;

	c->err[0] = '\0';
	if (!m)
		return -ENOMEM;
	cb = nl_cb_alloc(NL_CB_DEFAULT);
	if (!cb) {
		nlmsg_free(m);
		return -ENOMEM;
	}
	nl_cb_err(cb, NL_CB_CUSTOM, hn_cb_err, &r);
	nl_cb_set(cb, NL_CB_ACK, NL_CB_CUSTOM, hn_cb_ack, &r);
	nl_cb_set(cb, NL_CB_FINISH, NL_CB_CUSTOM, hn_cb_finish, &r);
	nl_cb_set(cb, NL_CB_MSG_IN, NL_CB_CUSTOM, hn_cb_in, &r);
	nl_cb_set(cb, NL_CB_VALID, NL_CB_CUSTOM, hn_cb_valid, &r);

	errno = 0;
	rc = nl_send_auto(sk, m);
	if (rc < 0) {
		/* the system call's errno says more than libnl's code */
		rc = errno ? -errno : hn_ctl_errno(rc);
		if (rc == -EMSGSIZE || rc == -ENOBUFS || rc == -ENOMEM)
			hn_ctl_seterr(c, "a request of %u bytes is more than "
				      "the socket can send",
				      nlmsg_hdr(m)->nlmsg_len);
		goto out;
	}
	/* the attributes named in a refusal are the family's */
	r.req = sk == c->sk ? nlmsg_hdr(m) : NULL;
	while (!r.done) {
		rc = nl_recvmsgs(sk, cb);
		if (rc < 0 && !r.done) {
			r.rc = r.rc ? r.rc : hn_ctl_errno(rc);
			break;
		}
	}
	rc = r.rc;
	if (!rc && r.intr)
		rc = -EAGAIN;
out:
	nl_cb_put(cb);
	nlmsg_free(m);
	return rc;
}

int hn_ctl_dump(struct hn_ctl *c, uint8_t cmd, const uint32_t (*sel)[2],
		size_t nsel, hn_ctl_reply_fn fn, size_t size, void **out,
		size_t *n)
{
	struct hn_ctl_dump x = { .size = size };
	struct nl_msg *m;
	size_t i;
	int rc;

	*out = NULL;
	*n = 0;
	m = hn_ctl_msg(c, cmd, 8 * nsel, NLM_F_DUMP);
	for (i = 0; m && i < nsel; i++) {
		if (sel[i][1] != UINT32_MAX &&
		    nla_put_u32(m, (int)sel[i][0], sel[i][1])) {
			nlmsg_free(m);
			return -EMSGSIZE;
		}
	}
	rc = hn_ctl_run(c, m, fn, &x);
	if (rc) {
		free(x.v);
		return rc;
	}
	*out = x.v;
	*n = x.n;
	return 0;
}
