// SPDX-License-Identifier: GPL-2.0
/*
 * cfg_keys.c - hnsim: struct hn_config fields by name (--set KEY=VALUE,
 * --config FILE), and policy names.
 */
#include <errno.h>
#include <stdio.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "hnsim.h"

static const struct {
	const char *name;
	size_t off;
	int wide;			/* u64 rather than u32 */
	const char *help;
} keys[] = {
#define K(f, h) { #f, offsetof(struct hn_config, f), 0, h }
	K(nodes, "virtual nodes N, 2..4096"),
	K(k, "predictive slots K, 0..64 (slot K is the wormhole slot)"),
	K(link_mbps, "link rate, Mb/s"),
	K(slot_p_ns, "predictive slot length NUM_P, ns"),
	K(slot_w_ns, "wormhole slot length NUM_W, ns (used with sla)"),
	K(guard_ns, "guard band at the start of each slot, ns"),
	K(sched_ns, "predictive scheduler latency, ns"),
	K(setup_ns, "switch configuration delay, ns"),
	K(wh_first_ns, "wormhole: first flit of a worm, arbitration incl., ns"),
	K(wh_flit_ns, "wormhole: each further flit, ns"),
	K(flit_bytes, "flit size, bytes"),
	K(worm_bytes, "largest worm, bytes; longer messages are split"),
	K(wire_ns, "NIC to switch wire, one way, ns"),
	K(nic_ns, "NIC send or receive delay, ns"),
	K(fabric_ns, "propagation through the fabric, ns"),
	K(nic_buf_bytes, "NIC buffer (Q_W + VQ_PCKT), bytes"),
	K(sw_buf_bytes, "switch VQ_W per input port, bytes"),
	K(rx_buf_bytes, "receive buffer per node, bytes"),
	K(max_msg_bytes, "largest message, bytes"),
	K(predict_algo, "predict placement: 0 first fit (Sec. 3.4.2), 1 K-step (Ch. 6), 2 second level (Sec. 5.2.3)"),
	K(predict_kstep, "K of the K-step placement, 1..2N-1"),
	K(evict_algo, "eviction predictor (Sec. 5.2.2): 0 time-out, 1 counter"),
	K(evict_count, "counter predictor: uses of other circuits that evict one"),
	K(wh_overlap, "wormhole arbitration: 0 serial, 1 overlaps the previous worm"),
	K(serdes_ns, "of wire_ns, one end's (de)serialiser, ns; a circuit skips the switch's two"),
#undef K
	{ "idle_timeout_ns", offsetof(struct hn_config, idle_timeout_ns), 1,
	  "release circuits idle this long, ns (0: never)" },
	{ "pin_slots", offsetof(struct hn_config, pin_slots), 0,
	  "slots 0..pin_slots-1 are the preload's: no time-out, no scheduling" },
};

static const struct {
	const char *name;
	u32 flags;
} pols[] = {
	{ "fixed", 0 },
	{ "ses", HN_POL_SES },
	{ "sla", HN_POL_SES | HN_POL_SLA },
	{ "preempt", HN_POL_PREEMPT },
	{ "slot", HN_POL_PREEMPT_SLOT },
	{ "no-w", HN_POL_NO_W },
	{ "dynamic", HN_POL_DYNAMIC | HN_POL_NO_W | HN_POL_SES },
};

int cfg_set(struct hn_config *c, const char *key, const char *val,
	    char *why, size_t whylen)
{
	unsigned long long v;
	char *end;
	size_t i;

	if (!strcmp(key, "policy"))
		return cfg_policy(val, &c->policy) ?
		       (snprintf(why, whylen, "unknown policy '%s'", val), -1) :
		       0;
	if (!strcmp(key, "profile")) {
		if (!hn_config_profile(c, val))
			return 0;
		snprintf(why, whylen, "unknown profile '%s'", val);
		return -1;
	}
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		if (strcmp(key, keys[i].name))
			continue;
		errno = 0;
		v = strtoull(val, &end, 0);
		if (errno || end == val || *end || val[0] == '-' ||
		    (!keys[i].wide && v > 0xffffffffULL)) {
			snprintf(why, whylen, "%s: '%s' is not a number in range",
				 key, val);
			return -1;
		}
		if (keys[i].wide)
			*(u64 *)((char *)c + keys[i].off) = v;
		else
			*(u32 *)((char *)c + keys[i].off) = (u32)v;
		return 0;
	}
	snprintf(why, whylen, "unknown key '%s' (see --help)", key);
	return -1;
}

int cfg_opt(struct hn_config *c, int opt, char *arg, const char *prog)
{
	static const struct {
		int opt;
		const char *key;
	} keyed[] = {
		{ 'p', "profile" }, { 'n', "nodes" }, { 'k', "k" },
		{ 'P', "policy" },
	};
	const char *key = NULL, *val = arg;
	char why[160], *eq;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(keyed); i++)
		if (opt == keyed[i].opt)
			key = keyed[i].key;
	if (opt == 'c')
		return cfg_file(c, arg, prog) ? 1 : 0;
	if (opt == 's') {
		eq = strchr(arg, '=');
		if (!eq) {
			fprintf(stderr, "%s: --set '%s': want KEY=VALUE\n",
				prog, arg);
			return 1;
		}
		*eq = 0;
		key = arg;
		val = eq + 1;
	}
	if (!key)
		return -1;
	if (cfg_set(c, key, val, why, sizeof(why))) {
		fprintf(stderr, "%s: %s\n", prog, why);
		return 1;
	}
	return 0;
}

/* "ses", "sla", "preempt,slot", "ses,no-w", ... */
int cfg_policy(const char *s, u32 *policy)
{
	char buf[128], *tok, *save;
	u32 p = 0;
	size_t i;

	if (strlen(s) >= sizeof(buf))
		return -1;
	strcpy(buf, s);
	for (tok = strtok_r(buf, ",+", &save); tok;
	     tok = strtok_r(NULL, ",+", &save)) {
		for (i = 0; i < sizeof(pols) / sizeof(pols[0]); i++)
			if (!strcmp(tok, pols[i].name))
				break;
		if (i == sizeof(pols) / sizeof(pols[0]))
			return -1;
		p |= pols[i].flags;
	}
	*policy = p;
	return 0;
}

const char *cfg_policy_name(u32 p, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s%s%s%s",
		 p & HN_POL_PREEMPT ? "preempt" :
		 p & HN_POL_SLA ? "sla" : p & HN_POL_SES ? "ses" : "fixed",
		 (p & HN_POL_PREEMPT) && (p & HN_POL_SLA) ? ",sla" : "",
		 p & HN_POL_PREEMPT_SLOT ? ",slot" : "",
		 p & HN_POL_NO_W ? ",no-w" : "",
		 p & HN_POL_DYNAMIC ? ",dynamic" : "");
	return buf;
}

void cfg_print_keys(FILE *f)
{
	struct hn_config d;
	size_t i;

	hn_config_default(&d);
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		unsigned long long v = keys[i].wide ?
			*(u64 *)((char *)&d + keys[i].off) :
			*(u32 *)((char *)&d + keys[i].off);

		fprintf(f, "  %-16s %s [ding4: %llu]\n", keys[i].name,
			keys[i].help, v);
	}
}

/* Apply KEY=VALUE lines ('#' comments) of @path; @prog names the tool. */
int cfg_file(struct hn_config *c, const char *path, const char *prog)
{
	char *buf = NULL, *eq, *k, *v, why[160];
	unsigned long n = 0;
	size_t cap = 0;
	FILE *f = fopen(path, "r");
	int rc = 0;

	if (!f) {
		perror(path);
		return -1;
	}
	while (!rc && getline(&buf, &cap, f) >= 0) {
		n++;
		k = strchr(buf, '#');
		if (k)
			*k = 0;
		k = buf + strspn(buf, " \t\r\n");
		if (!*k)
			continue;
		eq = strchr(k, '=');
		if (!eq) {
			fprintf(stderr, "%s: %s:%lu: want KEY=VALUE\n", prog, path,
				n);
			rc = -1;
			break;
		}
		*eq = 0;
		v = eq + 1 + strspn(eq + 1, " \t");
		k[strcspn(k, " \t")] = 0;
		v[strcspn(v, " \t\r\n")] = 0;
		if (cfg_set(c, k, v, why, sizeof(why))) {
			fprintf(stderr, "%s: %s:%lu: %s\n", prog, path, n, why);
			rc = -1;
		}
	}
	free(buf);
	fclose(f);
	return rc;
}
