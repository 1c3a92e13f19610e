/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nl_traffic.h - the in-kernel generator's netlink commands for the module
 * tests (nl_traffic.c, genmem.c): TRAFFIC_GET read into a struct tstate,
 * waiting for a run's end or its drain, starting a run, and the memory
 * bound a run reserves.
 */
#ifndef HN_NL_TRAFFIC_H
#define HN_NL_TRAFFIC_H

#include "hn_test.h"
#include "nl_raw.h"

struct tstate {
	uint32_t state;
	char pattern[32];
	char why[160];
	char phases[16];
	uint64_t now;
	uint64_t st[HYBRIDNET_STAT_MAX + 1];
	int have[HYBRIDNET_STAT_MAX + 1];
	uint64_t seed;
};

static inline void parse_traffic(const struct nlmsghdr *h, struct tstate *s)
{
	const struct nlattr *tb[HYBRIDNET_ATTR_MAX + 1];
	const struct nlattr *st[HYBRIDNET_STAT_MAX + 1];
	int i;

	memset(s, 0, sizeof(*s));
	s->state = ~0u;
	nlr_parse(h, tb, HYBRIDNET_ATTR_MAX);
	if (tb[HYBRIDNET_ATTR_TRAFFIC_STATE])
		s->state = nlr_get_u32(tb[HYBRIDNET_ATTR_TRAFFIC_STATE]);
	if (tb[HYBRIDNET_ATTR_PATTERN])
		snprintf(s->pattern, sizeof(s->pattern), "%s",
			 (const char *)tb[HYBRIDNET_ATTR_PATTERN] + NLA_HDRLEN);
	if (tb[HYBRIDNET_ATTR_WHY])
		snprintf(s->why, sizeof(s->why), "%s",
			 (const char *)tb[HYBRIDNET_ATTR_WHY] + NLA_HDRLEN);
	if (tb[HYBRIDNET_ATTR_PHASES])
		snprintf(s->phases, sizeof(s->phases), "%s",
			 (const char *)tb[HYBRIDNET_ATTR_PHASES] + NLA_HDRLEN);
	if (tb[HYBRIDNET_ATTR_NOW])
		s->now = nlr_get_u64(tb[HYBRIDNET_ATTR_NOW]);
	if (tb[HYBRIDNET_ATTR_SEED])
		s->seed = nlr_get_u64(tb[HYBRIDNET_ATTR_SEED]);
	if (!tb[HYBRIDNET_ATTR_STATS])
		return;
	nlr_parse_nest(tb[HYBRIDNET_ATTR_STATS], st, HYBRIDNET_STAT_MAX);
	for (i = 0; i <= HYBRIDNET_STAT_MAX; i++) {
		if (!st[i])
			continue;
		s->have[i] = 1;
		s->st[i] = nlr_get_u64(st[i]);
	}
}

static inline int traffic_get(struct nlr *r, struct tstate *s)
{
	int rc;

	nlr_msg(r, HYBRIDNET_CMD_TRAFFIC_GET, 0);
	rc = nlr_call(r, NULL, NULL);
	if (rc != 1)
		return rc < 0 ? rc : -EPROTO;
	parse_traffic((const struct nlmsghdr *)r->reply, s);
	return 0;
}

/* Poll until the run is no longer running: 0, or -ETIMEDOUT. */
static inline int wait_end(struct nlr *r, struct tstate *s, int seconds)
{
	uint64_t end = hn_now_ns() + seconds * 1000000000ull;

	while (hn_now_ns() < end) {
		if (traffic_get(r, s))
			return -EPROTO;
		if (s->state != HYBRIDNET_TRAFFIC_RUNNING)
			return 0;
		usleep(5000);
	}
	return -ETIMEDOUT;
}

/* Poll until the stopped run's injected messages have all arrived. */
static inline int wait_drained(struct nlr *r, struct tstate *s, int seconds)
{
	uint64_t end = hn_now_ns() + seconds * 1000000000ull;

	while (hn_now_ns() < end) {
		if (traffic_get(r, s))
			return -EPROTO;
		if (!s->st[HYBRIDNET_STAT_IN_FLIGHT_MSGS])
			return 0;
		usleep(5000);
	}
	return -ETIMEDOUT;
}

static inline void start_msg(struct nlr *r, const char *pattern)
{
	nlr_msg(r, HYBRIDNET_CMD_TRAFFIC_START, 0);
	if (pattern)
		nlr_str(r, HYBRIDNET_ATTR_PATTERN, pattern);
}

/*
 * What a run may hold: HN_GEN_MEM_MAX, at most half of msg_mem_max_bytes
 * (the parameter shows the value in force), with no device message in
 * the way.
 */
static inline uint64_t gen_bound(void)
{
	char buf[32];
	uint64_t max;

	if (hn_read_file("/sys/module/hybridnet/parameters/msg_mem_max_bytes",
			 buf, sizeof(buf)))
		return 0;
	max = strtoull(buf, NULL, 0) / 2;
	return max < (64 << 20) ? max : 64 << 20;
}

#endif
