// SPDX-License-Identifier: GPL-2.0
/*
 * hn_ctl_traffic.c - libhybridnet's control plane: the in-kernel traffic
 * generator, HYBRIDNET_CMD_TRAFFIC_START, _STOP and _GET.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "hn_ctl_int.h"

/* the request attributes, TOPOLOGY to LIMIT_NS, fit the mask */
_Static_assert(HYBRIDNET_ATTR_LIMIT_NS - HYBRIDNET_ATTR_TOPOLOGY < 64,
	       "traffic attributes in a u64");

int hn_ctl_traffic_start(struct hn_ctl *c, const struct hn_ctl_traffic *t)
{
	static const struct {
		uint16_t attr;
		uint16_t off;
	} u32s[] = {
#define F(a, m) { HYBRIDNET_ATTR_##a, offsetof(struct hn_ctl_traffic, m) }
		F(LOAD_PPM, load_ppm), F(BATCH, batch), F(SIZE, size),
		F(SIZE_MAX, size_max), F(PRED_PPM, pred_ppm), F(ROOT, root),
	}, u64s[] = {
		F(SEED, seed), F(WARMUP_NS, warmup_ns),
		F(MEASURE_NS, measure_ns), F(DRAIN_NS, drain_ns),
		F(LIMIT_NS, limit_ns),
#undef F
	};
	struct nl_msg *m;
	size_t i;
	int rc = 0;

	c->err[0] = '\0';
	if (!t)
		return -EINVAL;
	m = hn_ctl_msg(c, HYBRIDNET_CMD_TRAFFIC_START, 256, 0);
	if (!m)
		return -ENOMEM;
	if (t->pattern[0])
		rc |= nla_put_string(m, HYBRIDNET_ATTR_PATTERN, t->pattern);
	if (t->size_dist[0])
		rc |= nla_put_string(m, HYBRIDNET_ATTR_SIZE_DIST, t->size_dist);
	if (t->phases[0])
		rc |= nla_put_string(m, HYBRIDNET_ATTR_PHASES, t->phases);
	for (i = 0; i < sizeof(u32s) / sizeof(u32s[0]); i++)
		if (t->mask & HN_CTL_TBIT(u32s[i].attr))
			rc |= nla_put_u32(m, u32s[i].attr,
					  *(const uint32_t *)((const char *)t +
							      u32s[i].off));
	for (i = 0; i < sizeof(u64s) / sizeof(u64s[0]); i++)
		if (t->mask & HN_CTL_TBIT(u64s[i].attr))
			rc |= nla_put_u64(m, u64s[i].attr,
					  *(const uint64_t *)((const char *)t +
							      u64s[i].off));
	if (rc) {
		nlmsg_free(m);
		return -EMSGSIZE;
	}
	return hn_ctl_run(c, m, NULL, NULL);
}

int hn_ctl_traffic_stop(struct hn_ctl *c)
{
	return hn_ctl_run(c, hn_ctl_msg(c, HYBRIDNET_CMD_TRAFFIC_STOP, 0, 0),
			  NULL, NULL);
}

static void get_str(struct nlattr *a, char *buf, size_t len)
{
	if (a)
		snprintf(buf, len, "%.*s", nla_len(a), (const char *)nla_data(a));
}

static int traffic_reply(struct nlattr **tb, struct nlmsghdr *nlh, void *arg)
{
	static const struct {
		uint16_t attr;
		uint16_t off;
		uint8_t wide;
	} nums[] = {
#define F(a, m, w) { HYBRIDNET_ATTR_##a, offsetof(struct hn_ctl_traffic, m), w }
		F(LOAD_PPM, load_ppm, 0), F(BATCH, batch, 0), F(SIZE, size, 0),
		F(SIZE_MAX, size_max, 0), F(PRED_PPM, pred_ppm, 0),
		F(ROOT, root, 0), F(SEED, seed, 1), F(WARMUP_NS, warmup_ns, 1),
		F(MEASURE_NS, measure_ns, 1), F(DRAIN_NS, drain_ns, 1),
		F(LIMIT_NS, limit_ns, 1),
#undef F
	};
	struct hn_ctl_traffic *t = arg;
	size_t i;
	char *p;

	(void)nlh;
	if (!tb[HYBRIDNET_ATTR_TRAFFIC_STATE])
		return -EPROTO;
	t->state = nla_get_u32(tb[HYBRIDNET_ATTR_TRAFFIC_STATE]);
	if (tb[HYBRIDNET_ATTR_NOW])
		t->now = nla_get_u64(tb[HYBRIDNET_ATTR_NOW]);
	get_str(tb[HYBRIDNET_ATTR_PATTERN], t->pattern, sizeof(t->pattern));
	get_str(tb[HYBRIDNET_ATTR_SIZE_DIST], t->size_dist,
		sizeof(t->size_dist));
	get_str(tb[HYBRIDNET_ATTR_WHY], t->why, sizeof(t->why));
	get_str(tb[HYBRIDNET_ATTR_PHASES], t->phases, sizeof(t->phases));
	for (i = 0; i < sizeof(nums) / sizeof(nums[0]); i++) {
		if (!tb[nums[i].attr])
			continue;
		p = (char *)t + nums[i].off;
		if (nums[i].wide)
			*(uint64_t *)p = nla_get_u64(tb[nums[i].attr]);
		else
			*(uint32_t *)p = nla_get_u32(tb[nums[i].attr]);
		t->mask |= HN_CTL_TBIT(nums[i].attr);
	}
	if (tb[HYBRIDNET_ATTR_STATS] &&
	    hn_ctl_get_stats(tb[HYBRIDNET_ATTR_STATS], &t->stats))
		return -EPROTO;
	return 0;
}

int hn_ctl_traffic_get(struct hn_ctl *c, struct hn_ctl_traffic *t)
{
	memset(t, 0, sizeof(*t));
	return hn_ctl_run(c, hn_ctl_msg(c, HYBRIDNET_CMD_TRAFFIC_GET, 0, 0),
			  traffic_reply, t);
}
