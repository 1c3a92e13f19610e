// SPDX-License-Identifier: GPL-2.0
/*
 * hn_ctl_fabric.c - libhybridnet's control plane: the fabrics (making,
 * deleting and listing them: HYBRIDNET_CMD_FABRIC_NEW, _DEL, _GET), a
 * fabric's shape (FABRIC_GET) and the dumps of its links and switches
 * (HYBRIDNET_CMD_LINK_GET, HYBRIDNET_CMD_SWITCH_GET).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "hn_ctl_int.h"

static uint8_t get_u8(struct nlattr **tb, int attr)
{
	return tb[attr] ? nla_get_u8(tb[attr]) : 0;
}

static uint32_t get_u32(struct nlattr **tb, int attr)
{
	return tb[attr] ? nla_get_u32(tb[attr]) : 0;
}

/* The DEADLOCK nest: its times and its cycle of channels, in order. */
static int get_deadlock(struct nlattr *nest, struct hn_ctl_fabric *f)
{
	struct nlattr *tb[HYBRIDNET_ATTR_MAX + 1], *a;
	struct hn_ctl_dl_channel *ch;
	int rem;

	if (nla_parse_nested(tb, HYBRIDNET_ATTR_MAX, nest, hn_ctl_policy) ||
	    !tb[HYBRIDNET_ATTR_DEADLOCK_AT] || !tb[HYBRIDNET_ATTR_DEADLOCK_SINCE])
		return -EPROTO;
	f->dl_at = nla_get_u64(tb[HYBRIDNET_ATTR_DEADLOCK_AT]);
	f->dl_since = nla_get_u64(tb[HYBRIDNET_ATTR_DEADLOCK_SINCE]);
	nla_for_each_nested(a, nest, rem) {
		if (nla_type(a) != HYBRIDNET_ATTR_CHANNEL)
			continue;
		if (f->dl_n == HYBRIDNET_MAX_DEADLOCK ||
		    nla_parse_nested(tb, HYBRIDNET_ATTR_MAX, a, hn_ctl_policy) ||
		    !tb[HYBRIDNET_ATTR_SWITCH] || !tb[HYBRIDNET_ATTR_PORT] ||
		    !tb[HYBRIDNET_ATTR_LINK])
			return -EPROTO;
		ch = &f->dl[f->dl_n++];
		ch->sw = nla_get_u32(tb[HYBRIDNET_ATTR_SWITCH]);
		ch->port = nla_get_u32(tb[HYBRIDNET_ATTR_PORT]);
		ch->link = nla_get_u32(tb[HYBRIDNET_ATTR_LINK]);
		ch->vc = tb[HYBRIDNET_ATTR_VC] ?
			 nla_get_u32(tb[HYBRIDNET_ATTR_VC]) : UINT32_MAX;
	}
	return f->dl_n ? 0 : -EPROTO;
}

static int fabric_reply(struct nlattr **tb, struct nlmsghdr *nlh, void *arg)
{
	struct hn_ctl_fabric *f = arg;

	(void)nlh;
	if (!tb[HYBRIDNET_ATTR_LINKS] || !tb[HYBRIDNET_ATTR_SWITCHES] ||
	    !tb[HYBRIDNET_ATTR_FABRIC])
		return -EPROTO;
	f->id = nla_get_u32(tb[HYBRIDNET_ATTR_FABRIC]);
	f->slots = get_u32(tb, HYBRIDNET_ATTR_SLOTS);
	if (tb[HYBRIDNET_ATTR_TOPOLOGY])
		nla_strlcpy(f->topology, tb[HYBRIDNET_ATTR_TOPOLOGY],
			    sizeof(f->topology));
	f->levels = get_u32(tb, HYBRIDNET_ATTR_LEVELS);
	f->width = get_u32(tb, HYBRIDNET_ATTR_WIDTH);
	f->nodes = get_u32(tb, HYBRIDNET_ATTR_NODES);
	f->switches = get_u32(tb, HYBRIDNET_ATTR_SWITCHES);
	f->radix = get_u32(tb, HYBRIDNET_ATTR_RADIX);
	f->links = get_u32(tb, HYBRIDNET_ATTR_LINKS);
	f->max_hops = get_u32(tb, HYBRIDNET_ATTR_MAX_HOPS);
	f->links_down = get_u32(tb, HYBRIDNET_ATTR_LINKS_DOWN);
	f->switches_down = get_u32(tb, HYBRIDNET_ATTR_SWITCHES_DOWN);
	f->channels_down = get_u32(tb, HYBRIDNET_ATTR_CHANNELS_DOWN);
	if (tb[HYBRIDNET_ATTR_NOW])
		f->now = nla_get_u64(tb[HYBRIDNET_ATTR_NOW]);
	if (tb[HYBRIDNET_ATTR_DEADLOCK])
		return get_deadlock(tb[HYBRIDNET_ATTR_DEADLOCK], f);
	return 0;
}

int hn_ctl_fabric_get(struct hn_ctl *c, struct hn_ctl_fabric *f)
{
	memset(f, 0, sizeof(*f));
	return hn_ctl_run(c, hn_ctl_msg(c, HYBRIDNET_CMD_FABRIC_GET, 0, 0),
			  fabric_reply, f);
}

static int fabric_list_reply(struct nlattr **tb, struct nlmsghdr *nlh,
			     void *arg)
{
	struct hn_ctl_fabric *f = hn_ctl_dump_next(arg);
	struct hn_ctl_dump *x = arg;
	int rc;

	if (!f)
		return -ENOMEM;
	memset(f, 0, sizeof(*f));
	rc = fabric_reply(tb, nlh, f);
	if (!rc)
		x->n++;
	return rc;
}

int hn_ctl_fabric_list(struct hn_ctl *c, struct hn_ctl_fabric **out,
		       size_t *n)
{
	uint32_t keep = c->fabric;
	int rc;

	c->fabric = HN_CTL_FIRST_FABRIC;	/* every one, not the handle's */
	rc = hn_ctl_dump(c, HYBRIDNET_CMD_FABRIC_GET, NULL, 0,
			 fabric_list_reply, sizeof(**out), (void **)out, n);
	c->fabric = keep;
	return rc;
}

int hn_ctl_fabric_new(struct hn_ctl *c, const struct hn_ctl_config *cfg,
		      struct hn_ctl_fabric *f)
{
	struct hn_ctl_fabric tmp;
	struct nl_msg *m;
	int rc;

	c->err[0] = '\0';
	m = hn_ctl_msg(c, HYBRIDNET_CMD_FABRIC_NEW, 512, 0);
	if (!m)
		return -ENOMEM;
	rc = cfg ? hn_ctl_put_config(m, cfg) : 0;
	if (rc) {
		nlmsg_free(m);
		return rc;
	}
	if (!f)
		f = &tmp;
	memset(f, 0, sizeof(*f));
	return hn_ctl_run(c, m, fabric_reply, f);
}

int hn_ctl_fabric_del(struct hn_ctl *c, uint32_t id)
{
	uint32_t keep = c->fabric;
	struct nl_msg *m;

	if (id >= HYBRIDNET_MAX_FABRICS)
		return -EINVAL;
	c->fabric = id;		/* the one asked for, whatever the handle's */
	m = hn_ctl_msg(c, HYBRIDNET_CMD_FABRIC_DEL, 0, 0);
	c->fabric = keep;
	return hn_ctl_run(c, m, NULL, NULL);
}

static int get_channel(struct nlattr *nest, struct hn_ctl_link *l)
{
	struct nlattr *tb[HYBRIDNET_ATTR_MAX + 1];
	struct hn_ctl_channel *ch;
	struct hn_ctl_stats st;
	uint32_t d;

	if (nla_parse_nested(tb, HYBRIDNET_ATTR_MAX, nest, hn_ctl_policy) ||
	    !tb[HYBRIDNET_ATTR_DIR] || !tb[HYBRIDNET_ATTR_STATS] ||
	    hn_ctl_get_stats(tb[HYBRIDNET_ATTR_STATS], &st))
		return -EPROTO;
	d = nla_get_u32(tb[HYBRIDNET_ATTR_DIR]);
	if (d > HYBRIDNET_DIR_DOWN)
		return -EPROTO;
	ch = &l->ch[d];
	if (tb[HYBRIDNET_ATTR_NODE]) {
		ch->sw = HN_CTL_NODE_END;
		ch->port = nla_get_u32(tb[HYBRIDNET_ATTR_NODE]);
	} else if (tb[HYBRIDNET_ATTR_SWITCH] && tb[HYBRIDNET_ATTR_PORT]) {
		ch->sw = nla_get_u32(tb[HYBRIDNET_ATTR_SWITCH]);
		ch->port = nla_get_u32(tb[HYBRIDNET_ATTR_PORT]);
	} else {
		return -EPROTO;
	}
	ch->bytes = st.v[HYBRIDNET_STAT_BYTES];
	ch->worms = st.v[HYBRIDNET_STAT_WORMS];
	ch->busy_ns = st.v[HYBRIDNET_STAT_BUSY_NS];
	ch->credit_stalls = st.v[HYBRIDNET_STAT_CREDIT_STALLS];
	ch->buf_peak = st.v[HYBRIDNET_STAT_BUF_PEAK];
	ch->buf_byte_ns = st.v[HYBRIDNET_STAT_BUF_BYTE_NS];
	ch->circuit_bytes = st.v[HYBRIDNET_STAT_CIRCUIT_BYTES];
	return 0;
}

static int link_reply(struct nlattr **tb, struct nlmsghdr *nlh, void *arg)
{
	struct genlmsghdr *gh = nlmsg_data(nlh);
	struct hn_ctl_link *l;
	struct nlattr *a;
	int rem, chans = 0;

	if (!tb[HYBRIDNET_ATTR_LINK] || !tb[HYBRIDNET_ATTR_NOW])
		return -EPROTO;
	l = hn_ctl_dump_next(arg);
	if (!l)
		return -ENOMEM;
	memset(l, 0, sizeof(*l));
	l->link = nla_get_u32(tb[HYBRIDNET_ATTR_LINK]);
	l->down = get_u8(tb, HYBRIDNET_ATTR_DOWN);
	l->dead = get_u8(tb, HYBRIDNET_ATTR_DEAD);
	l->chans_down = (uint8_t)get_u32(tb, HYBRIDNET_ATTR_LINK_CHANNELS_DOWN);
	l->now = nla_get_u64(tb[HYBRIDNET_ATTR_NOW]);
	nla_for_each_attr(a, genlmsg_attrdata(gh, 0), genlmsg_attrlen(gh, 0),
			  rem) {
		if (nla_type(a) != HYBRIDNET_ATTR_CHANNEL)
			continue;
		if (get_channel(a, l))
			return -EPROTO;
		chans++;
	}
	if (chans != 2)
		return -EPROTO;
	((struct hn_ctl_dump *)arg)->n++;
	return 0;
}

static int switch_reply(struct nlattr **tb, struct nlmsghdr *nlh, void *arg)
{
	struct hn_ctl_switch *s;
	struct hn_ctl_stats st;

	(void)nlh;
	if (!tb[HYBRIDNET_ATTR_SWITCH] || !tb[HYBRIDNET_ATTR_NOW] ||
	    !tb[HYBRIDNET_ATTR_STATS] ||
	    hn_ctl_get_stats(tb[HYBRIDNET_ATTR_STATS], &st))
		return -EPROTO;
	s = hn_ctl_dump_next(arg);
	if (!s)
		return -ENOMEM;
	s->sw = nla_get_u32(tb[HYBRIDNET_ATTR_SWITCH]);
	s->level = get_u32(tb, HYBRIDNET_ATTR_LEVEL);
	s->down = get_u8(tb, HYBRIDNET_ATTR_DOWN);
	s->switching = tb[HYBRIDNET_ATTR_SWITCHING] ?
		       nla_get_u32(tb[HYBRIDNET_ATTR_SWITCHING]) :
		       HN_CTL_SWITCHING_FABRIC;
	s->now = nla_get_u64(tb[HYBRIDNET_ATTR_NOW]);
	s->bytes = st.v[HYBRIDNET_STAT_BYTES];
	s->worms = st.v[HYBRIDNET_STAT_WORMS];
	s->blocked_ns = st.v[HYBRIDNET_STAT_BLOCKED_NS];
	s->credit_stalls = st.v[HYBRIDNET_STAT_CREDIT_STALLS];
	s->buf_peak = st.v[HYBRIDNET_STAT_BUF_PEAK];
	s->buf_byte_ns = st.v[HYBRIDNET_STAT_BUF_BYTE_NS];
	s->buf_bytes = st.v[HYBRIDNET_STAT_BUF_BYTES];
	s->held = st.v[HYBRIDNET_STAT_HELD];
	s->circuit_bytes = st.v[HYBRIDNET_STAT_CIRCUIT_BYTES];
	((struct hn_ctl_dump *)arg)->n++;
	return 0;
}

int hn_ctl_links(struct hn_ctl *c, uint32_t link, struct hn_ctl_link **out,
		 size_t *n)
{
	const uint32_t sel[1][2] = { { HYBRIDNET_ATTR_LINK, link } };

	return hn_ctl_dump(c, HYBRIDNET_CMD_LINK_GET, sel, 1, link_reply,
			   sizeof(**out), (void **)out, n);
}

int hn_ctl_switches(struct hn_ctl *c, uint32_t sw,
		    struct hn_ctl_switch **out, size_t *n)
{
	const uint32_t sel[1][2] = { { HYBRIDNET_ATTR_SWITCH, sw } };

	return hn_ctl_dump(c, HYBRIDNET_CMD_SWITCH_GET, sel, 1, switch_reply,
			   sizeof(**out), (void **)out, n);
}

/* FAULT_SET of what @sw and @port name, or its channel @chan (HN_NONE: all) */
static int fault_set(struct hn_ctl *c, uint32_t sw, uint32_t port,
		     uint32_t chan, int down)
{
	struct nl_msg *m = hn_ctl_msg(c, HYBRIDNET_CMD_FAULT_SET, 32, 0);
	int rc;

	if (!m)
		return -ENOMEM;
	rc = nla_put_u8(m, HYBRIDNET_ATTR_DOWN, !!down);
	if (!rc && sw == HN_CTL_NODE_END)
		rc = nla_put_u32(m, HYBRIDNET_ATTR_NODE, port);
	else if (!rc)
		rc = nla_put_u32(m, HYBRIDNET_ATTR_SWITCH, sw);
	if (!rc && sw != HN_CTL_NODE_END && port != HN_CTL_ALL)
		rc = nla_put_u32(m, HYBRIDNET_ATTR_PORT, port);
	if (!rc && chan != HN_CTL_ALL)
		rc = nla_put_u32(m, HYBRIDNET_ATTR_LINK_CHANNEL, chan);
	if (rc) {
		nlmsg_free(m);
		return -EMSGSIZE;
	}
	return hn_ctl_run(c, m, NULL, NULL);
}

int hn_ctl_fault_set(struct hn_ctl *c, uint32_t sw, uint32_t port, int down)
{
	return fault_set(c, sw, port, HN_CTL_ALL, down);
}

int hn_ctl_fault_chan_set(struct hn_ctl *c, uint32_t sw, uint32_t port,
			  uint32_t chan, int down)
{
	return chan == HN_CTL_ALL ? -EINVAL : fault_set(c, sw, port, chan, down);
}

/* FAULT_SET: @count of what @attr counts down at random, by @seed */
static int fault_random(struct hn_ctl *c, int attr, uint32_t count,
			uint64_t seed)
{
	struct nl_msg *m = hn_ctl_msg(c, HYBRIDNET_CMD_FAULT_SET, 32, 0);

	if (!m)
		return -ENOMEM;
	if (nla_put_u8(m, HYBRIDNET_ATTR_DOWN, 1) ||
	    nla_put_u32(m, attr, count) ||
	    nla_put_u64(m, HYBRIDNET_ATTR_SEED, seed)) {
		nlmsg_free(m);
		return -EMSGSIZE;
	}
	return hn_ctl_run(c, m, NULL, NULL);
}

int hn_ctl_fault_random(struct hn_ctl *c, uint32_t count, uint64_t seed)
{
	return fault_random(c, HYBRIDNET_ATTR_RANDOM, count, seed);
}

int hn_ctl_fault_random_chans(struct hn_ctl *c, uint32_t count,
			      uint64_t seed)
{
	return fault_random(c, HYBRIDNET_ATTR_RANDOM_CHANNELS, count, seed);
}

int hn_ctl_switch_set(struct hn_ctl *c, uint32_t sw, uint32_t switching)
{
	struct nl_msg *m = hn_ctl_msg(c, HYBRIDNET_CMD_SWITCH_SET, 16, 0);

	if (!m)
		return -ENOMEM;
	if (nla_put_u32(m, HYBRIDNET_ATTR_SWITCH, sw) ||
	    (switching != HN_CTL_SWITCHING_FABRIC &&
	     nla_put_u32(m, HYBRIDNET_ATTR_SWITCHING, switching))) {
		nlmsg_free(m);
		return -EMSGSIZE;
	}
	return hn_ctl_run(c, m, NULL, NULL);
}
