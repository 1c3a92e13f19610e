// SPDX-License-Identifier: GPL-2.0
/*
 * hn_ctl_event.c - libhybridnet's control plane: the "events" multicast
 * group.  Events are read on a socket of their own, so they never mix
 * with the replies to requests; one datagram may carry several events,
 * which are handed out one per call.
 *
 * The socket is in the generic netlink controller's "notify" group too:
 * when the module is unloaded, the family and its group go away without
 * a word on the events group, so the controller's DELFAMILY is reported
 * as HN_CTL_EVENT_UNLOADED; its NEWFAMILY, when the module is loaded
 * again, carries the new family's id and group, which the handle takes
 * and joins before it reports HN_CTL_EVENT_LOADED.
 */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <netlink/genl/ctrl.h>

#include "hn_ctl_int.h"

void hn_ctl_event_free(struct hn_ctl_event *ev)
{
	if (!ev)
		return;
	free(ev->mem);
	memset(ev, 0, sizeof(*ev));
}

/* The SLOT_CONFIGs of a PRELOAD event, in one allocation with the GRANTs. */
static int event_lists(struct nlmsghdr *nlh, struct hn_ctl_event *ev)
{
	struct genlmsghdr *gh = nlmsg_data(nlh);
	struct nlattr *head = genlmsg_attrdata(gh, 0), *a, *p;
	int len = genlmsg_attrlen(gh, 0), rem, prem;
	size_t nslots = 0, npairs = 0, ngrants = 0, np = 0;
	struct hn_ctl_pair *pairs;
	char *mem;

	nla_for_each_attr(a, head, len, rem) {
		if (nla_type(a) == HYBRIDNET_ATTR_SLOT_CONFIG) {
			nslots++;
			nla_for_each_nested(p, a, prem)
				npairs += nla_type(p) == HYBRIDNET_ATTR_PAIR;
		} else if (nla_type(a) == HYBRIDNET_ATTR_GRANT) {
			ngrants++;
		}
	}
	if (!nslots && !ngrants)
		return 0;
	mem = calloc(1, nslots * sizeof(*ev->slots) +
			ngrants * sizeof(*ev->grants) +
			npairs * sizeof(*pairs));
	if (!mem)
		return -ENOMEM;
	ev->mem = mem;
	ev->slots = (struct hn_ctl_slot_cfg *)mem;
	ev->grants = (struct hn_ctl_grant *)(ev->slots + nslots);
	pairs = (struct hn_ctl_pair *)(ev->grants + ngrants);
	nla_for_each_attr(a, head, len, rem) {
		if (nla_type(a) == HYBRIDNET_ATTR_GRANT) {
			if (hn_ctl_get_grant(a, &ev->grants[ev->ngrants++]))
				return -EPROTO;
		} else if (nla_type(a) == HYBRIDNET_ATTR_SLOT_CONFIG) {
			struct hn_ctl_slot_cfg *sc = &ev->slots[ev->nslots++];
			int have_slot = 0;

			sc->pairs = pairs + np;
			nla_for_each_nested(p, a, prem) {
				if (nla_type(p) == HYBRIDNET_ATTR_SLOT &&
				    nla_len(p) >= 4) {
					sc->slot = nla_get_u32(p);
					have_slot = 1;
				} else if (nla_type(p) == HYBRIDNET_ATTR_PAIR) {
					if (hn_ctl_get_pair(p, &pairs[np++]))
						return -EPROTO;
					sc->npairs++;
				}
			}
			if (!have_slot)
				return -EPROTO;
		}
	}
	return 0;
}

static void copy_str(char *dst, size_t size, struct nlattr *a)
{
	size_t n;

	if (!a)
		return;
	n = strnlen(nla_data(a), (size_t)nla_len(a));
	if (n >= size)
		n = size - 1;
	memcpy(dst, nla_data(a), n);
	dst[n] = '\0';
}

int hn_ctl_parse_event(struct nlmsghdr *nlh, struct hn_ctl_event *ev)
{
	struct nlattr *tb[HYBRIDNET_ATTR_MAX + 1];
	struct genlmsghdr *gh = nlmsg_data(nlh);
	int rc;

	memset(ev, 0, sizeof(*ev));
	if (!genlmsg_valid_hdr(nlh, 0) || gh->cmd != HYBRIDNET_CMD_EVENT)
		return -ENOENT;
	if (genlmsg_parse(nlh, 0, tb, HYBRIDNET_ATTR_MAX, hn_ctl_policy) ||
	    !tb[HYBRIDNET_ATTR_EVENT])
		return -EPROTO;
	ev->kind = nla_get_u32(tb[HYBRIDNET_ATTR_EVENT]);
	ev->fabric = tb[HYBRIDNET_ATTR_FABRIC] ?
		     nla_get_u32(tb[HYBRIDNET_ATTR_FABRIC]) :
		     HN_CTL_FIRST_FABRIC;
	/* a switch's switching, not the fabric's configuration */
	if (ev->kind == HYBRIDNET_EVENT_SWITCHING) {
		ev->has_switching = 1;
		ev->switching = tb[HYBRIDNET_ATTR_SWITCHING] ?
				nla_get_u32(tb[HYBRIDNET_ATTR_SWITCHING]) :
				HN_CTL_SWITCHING_FABRIC;
		copy_str(ev->name, sizeof(ev->name), tb[HYBRIDNET_ATTR_NAME]);
	} else {
		hn_ctl_get_config(tb, &ev->config);
	}
	if (tb[HYBRIDNET_ATTR_PAIR]) {
		if (hn_ctl_get_pair(tb[HYBRIDNET_ATTR_PAIR], &ev->pair))
			return -EPROTO;
		ev->has_pair = 1;
	}
	if (tb[HYBRIDNET_ATTR_SLOT]) {
		ev->slot = nla_get_u32(tb[HYBRIDNET_ATTR_SLOT]);
		ev->has_slot = 1;
	}
	ev->all = !!tb[HYBRIDNET_ATTR_ALL];
	copy_str(ev->phase, sizeof(ev->phase), tb[HYBRIDNET_ATTR_PHASE]);
	if (tb[HYBRIDNET_ATTR_TRAFFIC_STATE]) {
		ev->traffic_state = nla_get_u32(tb[HYBRIDNET_ATTR_TRAFFIC_STATE]);
		ev->has_state = 1;
	}
	copy_str(ev->pattern, sizeof(ev->pattern), tb[HYBRIDNET_ATTR_PATTERN]);
	copy_str(ev->why, sizeof(ev->why), tb[HYBRIDNET_ATTR_WHY]);
	if (tb[HYBRIDNET_ATTR_DOWN]) {
		ev->has_fault = 1;
		ev->down = nla_get_u8(tb[HYBRIDNET_ATTR_DOWN]);
		ev->fault_sw = !!tb[HYBRIDNET_ATTR_SWITCH];
		copy_str(ev->name, sizeof(ev->name), tb[HYBRIDNET_ATTR_NAME]);
		if (tb[HYBRIDNET_ATTR_RANDOM])
			ev->random = nla_get_u32(tb[HYBRIDNET_ATTR_RANDOM]);
		if (tb[HYBRIDNET_ATTR_RANDOM_CHANNELS])
			ev->random_chans =
				nla_get_u32(tb[HYBRIDNET_ATTR_RANDOM_CHANNELS]);
		if (tb[HYBRIDNET_ATTR_SEED])
			ev->seed = nla_get_u64(tb[HYBRIDNET_ATTR_SEED]);
		if (tb[HYBRIDNET_ATTR_RELEASED])
			ev->released = nla_get_u32(tb[HYBRIDNET_ATTR_RELEASED]);
		if (tb[HYBRIDNET_ATTR_REROUTED])
			ev->rerouted = nla_get_u32(tb[HYBRIDNET_ATTR_REROUTED]);
	}
	rc = event_lists(nlh, ev);
	if (rc)
		hn_ctl_event_free(ev);
	return rc;
}

/* The id of the "events" group in a CTRL_ATTR_MCAST_GROUPS nest, or -1. */
static int events_group(struct nlattr *groups)
{
	struct nlattr *g, *tb[CTRL_ATTR_MCAST_GRP_MAX + 1];
	int rem;

	nla_for_each_nested(g, groups, rem) {
		if (nla_parse_nested(tb, CTRL_ATTR_MCAST_GRP_MAX, g, NULL) ||
		    !tb[CTRL_ATTR_MCAST_GRP_NAME] || !tb[CTRL_ATTR_MCAST_GRP_ID])
			continue;
		if (!strcmp(nla_get_string(tb[CTRL_ATTR_MCAST_GRP_NAME]),
			    HYBRIDNET_MCGRP_EVENTS))
			return (int)nla_get_u32(tb[CTRL_ATTR_MCAST_GRP_ID]);
	}
	return -1;
}

/*
 * A message of the controller: the family unloaded or loaded again
 * (joined then).  -ENOENT: about something else.
 */
static int ctrl_event(struct hn_ctl *c, struct nlmsghdr *nlh,
		      struct hn_ctl_event *ev)
{
	struct nlattr *tb[CTRL_ATTR_MAX + 1];
	struct genlmsghdr *gh = nlmsg_data(nlh);
	int grp;

	if (!genlmsg_valid_hdr(nlh, 0) ||
	    (gh->cmd != CTRL_CMD_NEWFAMILY && gh->cmd != CTRL_CMD_DELFAMILY) ||
	    genlmsg_parse(nlh, 0, tb, CTRL_ATTR_MAX, NULL) ||
	    !tb[CTRL_ATTR_FAMILY_NAME] ||
	    strcmp(nla_get_string(tb[CTRL_ATTR_FAMILY_NAME]),
		   HYBRIDNET_GENL_NAME))
		return -ENOENT;
	memset(ev, 0, sizeof(*ev));
	ev->fabric = HN_CTL_FIRST_FABRIC;	/* of no fabric: the module's */
	if (gh->cmd == CTRL_CMD_DELFAMILY) {
		ev->kind = HN_CTL_EVENT_UNLOADED;
		return 0;
	}
	if (!tb[CTRL_ATTR_FAMILY_ID] || !tb[CTRL_ATTR_MCAST_GROUPS])
		return -EPROTO;
	grp = events_group(tb[CTRL_ATTR_MCAST_GROUPS]);
	if (grp < 0)
		return -EPROTO;
	/* the unloading cleared the old membership, even of the same id */
	if (nl_socket_add_membership(c->ev, grp))
		return -EPROTO;
	c->grp = grp;
	c->family = nla_get_u16(tb[CTRL_ATTR_FAMILY_ID]);
	ev->kind = HN_CTL_EVENT_LOADED;
	return 0;
}

static long long ms_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

int hn_ctl_event_recv(struct hn_ctl *c, struct hn_ctl_event *ev,
		      int timeout_ms)
{
	long long end = timeout_ms > 0 ? ms_now() + timeout_ms : 0;
	struct sockaddr_nl nla;
	struct pollfd pfd;
	unsigned char *buf;
	int n, rc;

	memset(ev, 0, sizeof(*ev));
	if (!c || !c->ev)
		return -EINVAL;
	for (;;) {
		while (c->evbuf && c->evoff < c->evlen) {
			struct nlmsghdr *nlh =
				(struct nlmsghdr *)(c->evbuf + c->evoff);

			if (!nlmsg_ok(nlh, c->evlen - c->evoff))
				break;
			c->evoff += NLMSG_ALIGN(nlh->nlmsg_len);
			if (nlh->nlmsg_type == GENL_ID_CTRL)
				rc = ctrl_event(c, nlh, ev);
			else if (nlh->nlmsg_type == c->family)
				rc = hn_ctl_parse_event(nlh, ev);
			else
				continue;
			if (rc != -ENOENT)
				return rc;
		}
		free(c->evbuf);
		c->evbuf = NULL;

		pfd.fd = nl_socket_get_fd(c->ev);
		pfd.events = POLLIN;
		n = poll(&pfd, 1, timeout_ms < 0 ? -1 :
			 timeout_ms == 0 ? 0 : (int)(end > ms_now() ?
						      end - ms_now() : 0));
		if (n < 0)
			return -errno;
		if (!n)
			return -EAGAIN;
		n = nl_recv(c->ev, &nla, &buf, NULL);
		if (n < 0)
			return errno == ENOBUFS ? -ENOBUFS : hn_ctl_errno(n);
		if (!n)
			continue;	/* nothing after all (EAGAIN) */
		c->evbuf = buf;
		c->evlen = n;
		c->evoff = 0;
	}
}
