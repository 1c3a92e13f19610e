// SPDX-License-Identifier: GPL-2.0
/*
 * hn_ctl_names.c - libhybridnet's control plane: the spec's names of
 * attributes, statistics, events, grants and clocks, the configuration
 * fields (the engine's from its one table), and the cycle-controller
 * policy as text ("sla,no-w", by the engine's own functions).
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libhybridnet.h"
#include "hn_core.h"		/* the limits of hn_fields.h's ranges */
#include "cfg_text.h"		/* the policy's words, the fields' text */

#define N(x)	(sizeof(x) / sizeof((x)[0]))

static const char *const attr_names[HYBRIDNET_ATTR_MAX + 1] = {
	/* the configuration's fields, from the one table */
#define HN_FIELD(f, A, param, nl, help, T, lo, hi, live, words)	\
	[HYBRIDNET_ATTR_##A] = nl,
#include "hn_fields.h"
#undef HN_FIELD
	[HYBRIDNET_ATTR_PAD] = "pad",
	[HYBRIDNET_ATTR_PROFILE] = "profile",
	[HYBRIDNET_ATTR_CLOCK] = "clock",
	[HYBRIDNET_ATTR_PACE_PPM] = "pace-ppm",
	[HYBRIDNET_ATTR_SLOT] = "slot",
	[HYBRIDNET_ATTR_SRC] = "src",
	[HYBRIDNET_ATTR_DST] = "dst",
	[HYBRIDNET_ATTR_PAIR] = "pair",
	[HYBRIDNET_ATTR_SLOT_CONFIG] = "slot-config",
	[HYBRIDNET_ATTR_GRANT] = "grant",
	[HYBRIDNET_ATTR_RESULT] = "result",
	[HYBRIDNET_ATTR_ALL] = "all",
	[HYBRIDNET_ATTR_PHASE] = "phase",
	[HYBRIDNET_ATTR_GENERATION] = "generation",
	[HYBRIDNET_ATTR_NODE] = "node",
	[HYBRIDNET_ATTR_STATS] = "stats",
	[HYBRIDNET_ATTR_SLOT_STATS] = "slot-stats",
	[HYBRIDNET_ATTR_NOW] = "now",
	[HYBRIDNET_ATTR_EVENT] = "event",
	[HYBRIDNET_ATTR_ALGO] = "algo",
	[HYBRIDNET_ATTR_KSTEP] = "kstep",
	[HYBRIDNET_ATTR_SCHED_FLAGS] = "sched-flags",
	[HYBRIDNET_ATTR_SEED] = "seed",
	[HYBRIDNET_ATTR_LEVEL] = "level",
	[HYBRIDNET_ATTR_ROUTE] = "route",
	[HYBRIDNET_ATTR_COUNT] = "count",
	[HYBRIDNET_ATTR_PATTERN] = "pattern",
	[HYBRIDNET_ATTR_LOAD_PPM] = "load-ppm",
	[HYBRIDNET_ATTR_BATCH] = "batch",
	[HYBRIDNET_ATTR_SIZE] = "size",
	[HYBRIDNET_ATTR_SIZE_MAX] = "size-max",
	[HYBRIDNET_ATTR_SIZE_DIST] = "size-dist",
	[HYBRIDNET_ATTR_PRED_PPM] = "pred-ppm",
	[HYBRIDNET_ATTR_ROOT] = "root",
	[HYBRIDNET_ATTR_WARMUP_NS] = "warmup-ns",
	[HYBRIDNET_ATTR_MEASURE_NS] = "measure-ns",
	[HYBRIDNET_ATTR_DRAIN_NS] = "drain-ns",
	[HYBRIDNET_ATTR_LIMIT_NS] = "limit-ns",
	[HYBRIDNET_ATTR_TRAFFIC_STATE] = "traffic-state",
	[HYBRIDNET_ATTR_WHY] = "why",
	[HYBRIDNET_ATTR_PHASES] = "phases",
	[HYBRIDNET_ATTR_CONFLICT] = "conflict",
	[HYBRIDNET_ATTR_PINNED] = "pinned",
	[HYBRIDNET_ATTR_REBUILT] = "rebuilt",
	[HYBRIDNET_ATTR_RELEASED] = "released",
	[HYBRIDNET_ATTR_REROUTED] = "rerouted",
	[HYBRIDNET_ATTR_PATH] = "path",
	[HYBRIDNET_ATTR_LEVELS] = "levels",
	[HYBRIDNET_ATTR_WIDTH] = "width",
	[HYBRIDNET_ATTR_SWITCHES] = "switches",
	[HYBRIDNET_ATTR_RADIX] = "radix",
	[HYBRIDNET_ATTR_LINKS] = "links",
	[HYBRIDNET_ATTR_MAX_HOPS] = "max-hops",
	[HYBRIDNET_ATTR_LINK] = "link",
	[HYBRIDNET_ATTR_SWITCH] = "switch",
	[HYBRIDNET_ATTR_PORT] = "port",
	[HYBRIDNET_ATTR_CHANNEL] = "channel",
	[HYBRIDNET_ATTR_DIR] = "dir",
	[HYBRIDNET_ATTR_IFNAME] = "ifname",
	[HYBRIDNET_ATTR_IFINDEX] = "ifindex",
	[HYBRIDNET_ATTR_ADDRESS] = "address",
	[HYBRIDNET_ATTR_NETNS_COOKIE] = "netns-cookie",
	[HYBRIDNET_ATTR_SNAPLEN] = "snaplen",
	[HYBRIDNET_ATTR_RING] = "ring",
	[HYBRIDNET_ATTR_CAPTURED] = "captured",
	[HYBRIDNET_ATTR_TRUNCATED] = "truncated",
	[HYBRIDNET_ATTR_RX_DROP_NO_MEM] = "rx-drop-no-mem",
	[HYBRIDNET_ATTR_RX_DROP_RING_FULL] = "rx-drop-ring-full",
	[HYBRIDNET_ATTR_FABRIC] = "fabric",
	[HYBRIDNET_ATTR_DEADLOCK] = "deadlock",
	[HYBRIDNET_ATTR_DEADLOCK_AT] = "deadlock-at",
	[HYBRIDNET_ATTR_DEADLOCK_SINCE] = "deadlock-since",
	[HYBRIDNET_ATTR_VC] = "vc",
	[HYBRIDNET_ATTR_DOWN] = "down",
	[HYBRIDNET_ATTR_DEAD] = "dead",
	[HYBRIDNET_ATTR_RANDOM] = "random",
	[HYBRIDNET_ATTR_LINKS_DOWN] = "links-down",
	[HYBRIDNET_ATTR_SWITCHES_DOWN] = "switches-down",
	[HYBRIDNET_ATTR_NAME] = "name",
	[HYBRIDNET_ATTR_LINK_CHANNEL] = "link-channel",
	[HYBRIDNET_ATTR_RANDOM_CHANNELS] = "random-channels",
	[HYBRIDNET_ATTR_CHANNELS_DOWN] = "channels-down",
	[HYBRIDNET_ATTR_LINK_CHANNELS_DOWN] = "link-channels-down",
};

static const char *const stat_names[HYBRIDNET_STAT_MAX + 1] = {
	[HYBRIDNET_STAT_TX_MSGS_CIRCUIT] = "tx-msgs-circuit",
	[HYBRIDNET_STAT_TX_MSGS_WORMHOLE] = "tx-msgs-wormhole",
	[HYBRIDNET_STAT_TX_BYTES_CIRCUIT] = "tx-bytes-circuit",
	[HYBRIDNET_STAT_TX_BYTES_WORMHOLE] = "tx-bytes-wormhole",
	[HYBRIDNET_STAT_RX_MSGS_CIRCUIT] = "rx-msgs-circuit",
	[HYBRIDNET_STAT_RX_MSGS_WORMHOLE] = "rx-msgs-wormhole",
	[HYBRIDNET_STAT_RX_BYTES_CIRCUIT] = "rx-bytes-circuit",
	[HYBRIDNET_STAT_RX_BYTES_WORMHOLE] = "rx-bytes-wormhole",
	[HYBRIDNET_STAT_IN_FLIGHT_MSGS] = "in-flight-msgs",
	[HYBRIDNET_STAT_IN_FLIGHT_BYTES] = "in-flight-bytes",
	[HYBRIDNET_STAT_TX_FULL] = "tx-full",
	[HYBRIDNET_STAT_RETAGGED] = "retagged",
	[HYBRIDNET_STAT_LAT_MIN_NS] = "lat-min-ns",
	[HYBRIDNET_STAT_LAT_MEAN_NS] = "lat-mean-ns",
	[HYBRIDNET_STAT_LAT_MAX_NS] = "lat-max-ns",
	[HYBRIDNET_STAT_LAT_P50_NS] = "lat-p50-ns",
	[HYBRIDNET_STAT_LAT_P99_NS] = "lat-p99-ns",
	[HYBRIDNET_STAT_UTIL_PPM] = "util-ppm",
	[HYBRIDNET_STAT_CYCLES] = "cycles",
	[HYBRIDNET_STAT_IDLE_NS] = "idle-ns",
	[HYBRIDNET_STAT_GRANTS] = "grants",
	[HYBRIDNET_STAT_EXISTS] = "exists",
	[HYBRIDNET_STAT_REFUSALS] = "refusals",
	[HYBRIDNET_STAT_RELEASES] = "releases",
	[HYBRIDNET_STAT_TIMEOUTS] = "timeouts",
	[HYBRIDNET_STAT_PRELOADS] = "preloads",
	[HYBRIDNET_STAT_TX_DONE] = "tx-done",
	[HYBRIDNET_STAT_RX_DROPPED] = "rx-dropped",
	[HYBRIDNET_STAT_RUNS] = "runs",
	[HYBRIDNET_STAT_TIME_NS] = "time-ns",
	[HYBRIDNET_STAT_BYTES] = "bytes",
	[HYBRIDNET_STAT_CAP_BYTES] = "cap-bytes",
	[HYBRIDNET_STAT_SKIPPED] = "skipped",
	[HYBRIDNET_STAT_PREEMPTED] = "preempted",
	[HYBRIDNET_STAT_GEN_MSGS] = "gen-msgs",
	[HYBRIDNET_STAT_INJ_MSGS] = "inj-msgs",
	[HYBRIDNET_STAT_DONE_MSGS] = "done-msgs",
	[HYBRIDNET_STAT_DONE_BYTES] = "done-bytes",
	[HYBRIDNET_STAT_OFFERED_PPM] = "offered-ppm",
	[HYBRIDNET_STAT_ACCEPTED_PPM] = "accepted-ppm",
	[HYBRIDNET_STAT_QUEUE_MAX] = "queue-max",
	[HYBRIDNET_STAT_ROUNDS] = "rounds",
	[HYBRIDNET_STAT_WARMUP_TAKEN_NS] = "warmup-taken-ns",
	[HYBRIDNET_STAT_MEASURED_NS] = "measured-ns",
	[HYBRIDNET_STAT_LAT_MEAN_FIRST_NS] = "lat-mean-first-ns",
	[HYBRIDNET_STAT_LAT_MEAN_SECOND_NS] = "lat-mean-second-ns",
	[HYBRIDNET_STAT_LAT_TREND_UP] = "lat-trend-up",
	[HYBRIDNET_STAT_LAT_TREND_DOWN] = "lat-trend-down",
	[HYBRIDNET_STAT_LAT_TREND_MIN] = "lat-trend-min",
	[HYBRIDNET_STAT_WORMS] = "worms",
	[HYBRIDNET_STAT_BUSY_NS] = "busy-ns",
	[HYBRIDNET_STAT_CREDIT_STALLS] = "credit-stalls",
	[HYBRIDNET_STAT_CIRCUIT_BYTES] = "circuit-bytes",
	[HYBRIDNET_STAT_ATTEMPTS] = "attempts",
	[HYBRIDNET_STAT_DROPS] = "drops",
	[HYBRIDNET_STAT_PREEMPTIONS] = "preemptions",
	[HYBRIDNET_STAT_PREEMPTIONS_LATE] = "preemptions-late",
	[HYBRIDNET_STAT_STUB_FLITS] = "stub-flits",
	[HYBRIDNET_STAT_UNREACH_MSGS] = "unreach-msgs",
	[HYBRIDNET_STAT_UNREACH_WAITING_MSGS] = "unreach-waiting-msgs",
	[HYBRIDNET_STAT_IDEM_MSG_TX] = "idem-msg-tx",
	[HYBRIDNET_STAT_IDEM_ACK_TX] = "idem-ack-tx",
	[HYBRIDNET_STAT_IDEM_ACK2_TX] = "idem-ack2-tx",
	[HYBRIDNET_STAT_IDEM_MSG_RESENDS] = "idem-msg-resends",
	[HYBRIDNET_STAT_IDEM_ACK_RESENDS] = "idem-ack-resends",
	[HYBRIDNET_STAT_IDEM_DUPS_SUPPRESSED] = "idem-dups-suppressed",
	[HYBRIDNET_STAT_IDEM_MSG_LOST] = "idem-msg-lost",
	[HYBRIDNET_STAT_IDEM_MSG_ARRIVED] = "idem-msg-arrived",
	[HYBRIDNET_STAT_IDEM_ACK_ARRIVED] = "idem-ack-arrived",
	[HYBRIDNET_STAT_IDEM_ACK2_ARRIVED] = "idem-ack2-arrived",
	[HYBRIDNET_STAT_IDEM_MSG_ATTEMPTS] = "idem-msg-attempts",
	[HYBRIDNET_STAT_IDEM_ACK_ATTEMPTS] = "idem-ack-attempts",
	[HYBRIDNET_STAT_IDEM_ACK2_ATTEMPTS] = "idem-ack2-attempts",
	[HYBRIDNET_STAT_IDEM_MSG_SWITCHES] = "idem-msg-switches",
	[HYBRIDNET_STAT_CIRCUIT_REROUTES] = "circuit-reroutes",
	[HYBRIDNET_STAT_IDEM_ACK_LOST] = "idem-ack-lost",
	[HYBRIDNET_STAT_IDEM_ACK2_LOST] = "idem-ack2-lost",
	[HYBRIDNET_STAT_IDEM_CRC_FAIL] = "idem-crc-fail",
	[HYBRIDNET_STAT_IDEM_RETRIES_EXHAUSTED] = "idem-retries-exhausted",
	[HYBRIDNET_STAT_IDEM_ACKS_EXHAUSTED] = "idem-acks-exhausted",
	[HYBRIDNET_STAT_IDEM_GAPS_PASSED] = "idem-gaps-passed",
	[HYBRIDNET_STAT_IDEM_SEND_STATE_ENTRIES] = "idem-send-state-entries",
	[HYBRIDNET_STAT_IDEM_RECV_STATE_ENTRIES] = "idem-recv-state-entries",
	[HYBRIDNET_STAT_MCAST_MSGS] = "mcast-msgs",
	[HYBRIDNET_STAT_MCAST_INJECTIONS] = "mcast-injections",
	[HYBRIDNET_STAT_MCAST_COPIES] = "mcast-copies",
	[HYBRIDNET_STAT_LINKS_FAILED] = "links-failed",
	[HYBRIDNET_STAT_LINKS_REPAIRED] = "links-repaired",
	[HYBRIDNET_STAT_BUF_PEAK] = "buf-peak",
	[HYBRIDNET_STAT_BUF_BYTE_NS] = "buf-byte-ns",
	[HYBRIDNET_STAT_BLOCKED_NS] = "blocked-ns",
	[HYBRIDNET_STAT_BUF_BYTES] = "buf-bytes",
	[HYBRIDNET_STAT_HELD] = "held",
	[HYBRIDNET_STAT_LAT_MIN_CIRCUIT_NS] = "lat-min-circuit-ns",
	[HYBRIDNET_STAT_LAT_MEAN_CIRCUIT_NS] = "lat-mean-circuit-ns",
	[HYBRIDNET_STAT_LAT_MAX_CIRCUIT_NS] = "lat-max-circuit-ns",
	[HYBRIDNET_STAT_LAT_P50_CIRCUIT_NS] = "lat-p50-circuit-ns",
	[HYBRIDNET_STAT_LAT_P99_CIRCUIT_NS] = "lat-p99-circuit-ns",
	[HYBRIDNET_STAT_LAT_MIN_WORMHOLE_NS] = "lat-min-wormhole-ns",
	[HYBRIDNET_STAT_LAT_MEAN_WORMHOLE_NS] = "lat-mean-wormhole-ns",
	[HYBRIDNET_STAT_LAT_MAX_WORMHOLE_NS] = "lat-max-wormhole-ns",
	[HYBRIDNET_STAT_LAT_P50_WORMHOLE_NS] = "lat-p50-wormhole-ns",
	[HYBRIDNET_STAT_LAT_P99_WORMHOLE_NS] = "lat-p99-wormhole-ns",
	[HYBRIDNET_STAT_PAIRS] = "pairs",
	[HYBRIDNET_STAT_PAIRS_MAX] = "pairs-max",
	[HYBRIDNET_STAT_PAIR_OVERFLOW_MSGS] = "pair-overflow-msgs",
	[HYBRIDNET_STAT_PAIR_OVERFLOW_BYTES] = "pair-overflow-bytes",
	[HYBRIDNET_STAT_MEM_MAX] = "mem-max",
};

/* hn_ctl_stats.mask is an array of 64-bit masks */
_Static_assert(HYBRIDNET_STAT_MAX < 64 * HN_CTL_STAT_WORDS,
	       "hn_ctl_stats.mask is too small");
/* a text field is as long as the profile (hn_ctl_attr.c, hnctl set) */
_Static_assert(sizeof(((struct hn_ctl_config *)0)->topology) ==
	       sizeof(((struct hn_ctl_config *)0)->profile) &&
	       HN_TEXT_MAX < sizeof(((struct hn_ctl_config *)0)->profile),
	       "hn_ctl_config.topology holds no text of hn_fields.h");

static const char *const event_names[] = {
	[HYBRIDNET_EVENT_CONFIG] = "config",
	[HYBRIDNET_EVENT_PRELOAD] = "preload",
	[HYBRIDNET_EVENT_GRANT] = "grant",
	[HYBRIDNET_EVENT_RELEASE] = "release",
	[HYBRIDNET_EVENT_PHASE] = "phase",
	[HYBRIDNET_EVENT_STATS_RESET] = "stats-reset",
	[HYBRIDNET_EVENT_TRAFFIC] = "traffic",
	[HYBRIDNET_EVENT_FABRIC_NEW] = "fabric-new",
	[HYBRIDNET_EVENT_FABRIC_DEL] = "fabric-del",
	[HYBRIDNET_EVENT_FAULT] = "fault",
	[HYBRIDNET_EVENT_SWITCHING] = "switching",
};

static const char *const grant_names[] = {
	[HYBRIDNET_GRANT_GRANTED] = "granted",
	[HYBRIDNET_GRANT_EXISTS] = "exists",
	[HYBRIDNET_GRANT_REFUSED] = "refused",
};

static const char *const clock_names[] = {
	[HYBRIDNET_CLOCK_FREE] = "free",
	[HYBRIDNET_CLOCK_PACED] = "paced",
	NULL,
};

static const char *const traffic_names[] = {
	[HYBRIDNET_TRAFFIC_IDLE] = "idle",
	[HYBRIDNET_TRAFFIC_RUNNING] = "running",
	[HYBRIDNET_TRAFFIC_DONE] = "done",
	[HYBRIDNET_TRAFFIC_SATURATED] = "saturated",
	[HYBRIDNET_TRAFFIC_LIMIT] = "limit",
	[HYBRIDNET_TRAFFIC_STOPPED] = "stopped",
	[HYBRIDNET_TRAFFIC_DEADLOCK] = "deadlock",
};

#define F(n, a, t, f, ro, lo, hi, h, v, live) \
	{ n, HYBRIDNET_ATTR_##a, HN_CTL_##t, ro, \
	  offsetof(struct hn_ctl_config, f), NULL, lo, hi, h, v, live }
const struct hn_ctl_field hn_ctl_config_fields[] = {
	/* the engine's fields, from the one table (kmod/core/hn_fields.h) */
#define HN_FIELD(f, A, param, nl, help, T, lo, hi, _live, words) \
	{ nl, HYBRIDNET_ATTR_##A, HN_CTL_##T, 0, \
	  offsetof(struct hn_ctl_config, param), HN_WORDS_##words, lo, hi, \
	  help, HN_VALUES_##words(lo, hi), _live },
#include "hn_fields.h"
#undef HN_FIELD
	/* the device's own (kmod/netlink.c's policy) */
	F("profile", PROFILE, STRING, profile, 0, 0, 15,
	  "the timing profile, whose values every field takes first: Ch. 4's or Ch. 5's",
	  "ding4|ding5", 0),
	{ "clock", HYBRIDNET_ATTR_CLOCK, HN_CTL_U32, 0,
	  offsetof(struct hn_ctl_config, clock), clock_names,
	  0, HYBRIDNET_CLOCK_PACED,
	  "the clock: as fast as the CPU allows while busy, or virtual time following wall time",
	  "free|paced", 1 },
	F("pace-ppm", PACE_PPM, U32, pace_ppm, 0, 1, HN_NS_MAX,
	  "the paced clock: virtual ns per million wall ns", "1..1000000000",
	  1),
	F("now", NOW, U64, now, 1, 0, UINT64_MAX,
	  "the virtual time, ns (read only)", "", 0),
	{ NULL, 0, 0, 0, 0, NULL, 0, 0, NULL, NULL, 0 },
};

#undef F

const struct hn_ctl_field *hn_ctl_config_field(const char *name)
{
	const struct hn_ctl_field *f;

	for (f = hn_ctl_config_fields; f->name; f++)
		if (!strcmp(f->name, name))
			return f;
	return NULL;
}

const char *hn_ctl_attr_name(unsigned int attr)
{
	return attr < N(attr_names) ? attr_names[attr] : NULL;
}

const char *hn_ctl_stat_name(unsigned int stat)
{
	return stat < N(stat_names) ? stat_names[stat] : NULL;
}

const char *hn_ctl_event_name(unsigned int event)
{
	if (event == HN_CTL_EVENT_UNLOADED)
		return "unloaded";
	if (event == HN_CTL_EVENT_LOADED)
		return "loaded";
	return event < N(event_names) ? event_names[event] : NULL;
}

const char *hn_ctl_grant_name(unsigned int result)
{
	return result < N(grant_names) ? grant_names[result] : NULL;
}

const char *hn_ctl_clock_name(unsigned int clock)
{
	return clock < N(clock_names) ? clock_names[clock] : NULL;
}

const char *hn_ctl_predict_name(unsigned int algo)
{
	const char *const *w = HN_WORDS_PREDICT;
	unsigned int i;

	for (i = 0; w[i]; i++)
		if (i == algo)
			return w[i];
	return NULL;
}

const char *hn_ctl_traffic_name(unsigned int state)
{
	return state < N(traffic_names) ? traffic_names[state] : NULL;
}

/* the policy as the engine reads and prints it (kmod/core/cfg_text.c) */
int hn_ctl_policy_parse(const char *s, uint32_t *policy)
{
	return hn_policy_from_text(s, policy, NULL);
}

const char *hn_ctl_policy_str(uint32_t policy, char *buf, size_t len)
{
	return hn_policy_text(policy, buf, len > UINT32_MAX ? UINT32_MAX :
						      (u32)len);
}

/* each field's text functions and member, in hn_fields.h's order */
static const struct {
	struct hn_cfg_text text;
	size_t off;			/* in struct hn_config */
	uint8_t type;			/* enum hn_ctl_type */
} field_text[] = {
#define HN_FIELD(f, A, param, nl, help, T, lo, hi, live, words) \
	{ HN_TEXT_##words, offsetof(struct hn_config, f), HN_CTL_##T },
#include "hn_fields.h"
#undef HN_FIELD
};

/*
 * The member of a number field the engine reads as text, behind @f, in
 * @c: hn_ctl_config_fields begins with hn_fields.h's rows, in order.
 */
static u32 *text_member(const struct hn_ctl_field *f, struct hn_config *c,
			const struct hn_cfg_text **t)
{
	size_t i = (size_t)(f - hn_ctl_config_fields);

	if (f < hn_ctl_config_fields || i >= N(field_text) ||
	    field_text[i].type != HN_CTL_U32 || !field_text[i].text.parse)
		return NULL;
	memset(c, 0, sizeof(*c));
	*t = &field_text[i].text;
	return (u32 *)((char *)c + field_text[i].off);
}

int hn_ctl_field_parse(const struct hn_ctl_field *f, const char *s,
		       uint32_t *v)
{
	const struct hn_cfg_text *t;
	struct hn_config c;
	u32 *p = text_member(f, &c, &t);

	if (!p)
		return -ENOENT;
	if (t->parse(&c, s, NULL))
		return -EINVAL;
	*v = *p;
	return 0;
}

const char *hn_ctl_field_str(const struct hn_ctl_field *f, uint32_t v,
			     char *buf, size_t len)
{
	const struct hn_cfg_text *t;
	struct hn_config c;
	u32 *p = text_member(f, &c, &t);

	if (!p)
		return NULL;
	*p = v;
	return t->print(&c, buf, len > UINT32_MAX ? UINT32_MAX : (u32)len);
}
