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
#include "cfg_text.h"
#include "hn_sched.h"
#include "libhybridnet.h"

/*
 * The engine's fields, from the one table (kmod/core/hn_fields.h): a key
 * is the field's parameter, as the module parameter and sysfs name it;
 * '-' may stand for '_', so hnctl's names (and hnctl show -j's keys) are
 * keys too (docs/names.md).  A text key (the topology) is read and
 * printed by the table's functions, as the module does.
 */
#define HNSIM_WIDE_U32		0
#define HNSIM_WIDE_U64		1
#define HNSIM_WIDE_STRING	0
static const struct {
	const char *name;
	size_t off;
	int wide;			/* u64 rather than u32 */
	unsigned long long lo, hi;	/* the range every interface takes */
	const char *const *words;	/* of 0, 1, ...; NULL: a number */
	struct hn_cfg_text text;	/* a STRING's functions */
} keys[] = {
#define HN_FIELD(f, A, param, nl, T, min, max, live, words)		\
	{ #param, offsetof(struct hn_config, f), HNSIM_WIDE_##T, min, max, \
	  HN_WORDS_##words, HN_TEXT(T, words) },
#include "hn_fields.h"
#undef HN_FIELD
};

/* What --help says of each key; a key missing here gets no text. */
static const struct {
	const char *name, *help;
} key_help[] = {
	{ "topology", "the fabric: crossbar, or fattree:L,W (L levels of 2W-port switches; nodes W^L), as -t" },
	{ "nodes", "virtual nodes N" },
	{ "slots", "predictive slots K (slot K is the wormhole slot)" },
	{ "policy", "cycle controller, as -P (or its number)" },
	{ "link_mbps", "link rate, Mb/s" },
	{ "slot_p_ns", "predictive slot length NUM_P, ns" },
	{ "slot_w_ns", "wormhole slot length NUM_W, ns (used with sla)" },
	{ "guard_ns", "guard band at the start of each slot, ns" },
	{ "sched_ns", "predictive scheduler latency, ns" },
	{ "setup_ns", "switch configuration delay, ns" },
	{ "wh_first_ns", "wormhole: first flit of a worm, arbitration incl., ns" },
	{ "wh_flit_ns", "wormhole: each further flit, ns" },
	{ "flit_bytes", "flit size, bytes" },
	{ "worm_bytes", "largest worm, bytes; longer messages are split" },
	{ "wire_ns", "NIC to switch wire, one way, ns" },
	{ "nic_ns", "NIC send or receive delay, ns" },
	{ "fabric_ns", "propagation through the fabric, ns" },
	{ "nic_buf_bytes", "NIC buffer (Q_W + VQ_PCKT), bytes" },
	{ "sw_buf_bytes", "switch VQ_W per input port, bytes" },
	{ "rx_buf_bytes", "receive buffer per node, bytes" },
	{ "max_msg_bytes", "largest message, bytes" },
	{ "idle_timeout_ns", "release circuits idle this long, ns (0: never)" },
	{ "pin_slots", "slots 0..pin_slots-1 are the preload's: no time-out, no scheduling" },
	{ "predict_algo", "predict placement: first-fit (0, Sec. 3.4.2), kstep (1, Ch. 6), second-level (2, Sec. 5.2.3)" },
	{ "predict_kstep", "K of the K-step placement, 1..2N-1" },
	{ "evict_algo", "eviction predictor (Sec. 5.2.2): timeout (0) or counter (1)" },
	{ "evict_count", "counter predictor: uses of other circuits that evict one" },
	{ "wh_overlap", "wormhole arbitration: 0 serial, 1 overlaps the previous worm" },
	{ "serdes_ns", "of wire_ns, one end's (de)serialiser, ns; a circuit skips the switch's two" },
	{ "switching", "a packet outside the circuits (Duato Sec. 2.3): wormhole (0), vct (1, virtual cut-through), saf (2, store-and-forward)" },
	{ "up_select", "a header's up-port in a multistage fabric: det (0, by the destination's digits), random (1), adaptive (2, the least occupied)" },
	{ "ft_sched", "a fat tree: the scheduler routing circuits in preload and predict (Ch. 7): levelwise (0, Sec. 7.4), local-greedy (1), local-random (2), optimal (3)" },
};

/* Deprecated names, still accepted (docs/names.md). */
static const struct {
	const char *alias, *name;
} aliases[] = {
	{ "k", "slots" },
	{ "nic_buf", "nic_buf_bytes" },
	{ "sw_buf", "sw_buf_bytes" },
	{ "rx_buf", "rx_buf_bytes" },
	{ "max_msg", "max_msg_bytes" },
	{ "preload_at_load", "preload" },
};

/*
 * The module's keys that do not change what the engine computes in
 * virtual time, and what hnctl show -j adds of the device's state:
 * accepted, so that the module's configuration reads back, and ignored.
 */
static const char *const ignored[] = {
	"clock", "pace_ppm", "tick_us", "msg_mem_max_bytes", "now",
	"bound_nodes", "open_files",
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

/* @key as hnsim knows it: '-' for '_', and a deprecated name replaced */
static const char *key_name(const char *key, char *buf, size_t len)
{
	size_t i;

	if (strlen(key) >= len)
		return key;
	for (i = 0; key[i]; i++)
		buf[i] = key[i] == '-' ? '_' : key[i];
	buf[i] = 0;
	for (i = 0; i < ARRAY_SIZE(aliases); i++)
		if (!strcmp(buf, aliases[i].alias))
			return aliases[i].name;
	return buf;
}

/* key @i's value by its word (first-fit, counter, ...), or -1 */
static long long key_word(size_t i, const char *val)
{
	size_t w;

	for (w = 0; keys[i].words && keys[i].words[w]; w++)
		if (!strcmp(val, keys[i].words[w]))
			return (long long)w;
	return -1;
}

/*
 * Key @i of @c as hnsim prints it: its text, its word or its number,
 * in @buf of @len bytes or a word; *@quote says whether it is a string
 * in JSON.
 */
static const char *key_str(size_t i, const struct hn_config *c, char *buf,
			   size_t len, int *quote)
{
	const char *p = (const char *)c + keys[i].off;
	unsigned long long v, w;

	*quote = 1;
	if (keys[i].text.print)
		return keys[i].text.print(c, buf, (u32)len);
	v = keys[i].wide ? *(const u64 *)p : *(const u32 *)p;
	for (w = 0; keys[i].words && keys[i].words[w]; w++)
		if (w == v)
			return keys[i].words[w];
	*quote = 0;
	snprintf(buf, len, "%llu", v);
	return buf;
}

int cfg_set(struct hn_config *c, u32 *preload, const char *key,
	    const char *val, char *why, size_t whylen)
{
	unsigned long long v;
	char buf[32], *end;
	long long w;
	size_t i;

	key = key_name(key, buf, sizeof(buf));
	if (!strcmp(key, "policy") && !(val[0] >= '0' && val[0] <= '9'))
		return cfg_policy(val, &c->policy) ?
		       (snprintf(why, whylen, "unknown policy '%s'", val), -1) :
		       0;
	if (!strcmp(key, "profile")) {
		if (!hn_config_profile(c, val))
			return 0;
		snprintf(why, whylen, "unknown profile '%s'", val);
		return -1;
	}
	if (!strcmp(key, "preload")) {
		if (!preload) {
			snprintf(why, whylen, "preload: only a trace run takes it (hnsim run has --preload-slots)");
			return -1;
		}
		if (!strcmp(val, "none") || !strcmp(val, "shift")) {
			*preload = !strcmp(val, "shift");
			return 0;
		}
		snprintf(why, whylen, "preload: '%s' is not none or shift", val);
		return -1;
	}
	for (i = 0; i < ARRAY_SIZE(ignored); i++)
		if (!strcmp(key, ignored[i]))
			return 0;
	for (i = 0; i < ARRAY_SIZE(keys); i++) {
		if (strcmp(key, keys[i].name))
			continue;
		if (keys[i].text.parse) {
			struct hn_err err = { 0 };

			if (!keys[i].text.parse(c, val, &err))
				return 0;
			snprintf(why, whylen, "%s, not '%s'", err.msg, val);
			return -1;
		}
		w = key_word(i, val);
		errno = 0;
		v = w >= 0 ? (unsigned long long)w : strtoull(val, &end, 0);
		if (w < 0 && (errno || end == val || *end || val[0] == '-' ||
			      v < keys[i].lo || v > keys[i].hi)) {
			size_t n = (size_t)snprintf(why, whylen, "%s: '%s' is not ",
						    key, val);

			for (w = 0; keys[i].words && keys[i].words[w]; w++)
				n += (size_t)snprintf(why + n, n < whylen ?
						      whylen - n : 0, "%s, ",
						      keys[i].words[w]);
			snprintf(why + n, n < whylen ? whylen - n : 0,
				 "%sa number in %llu..%llu", w ? "or " : "",
				 keys[i].lo, keys[i].hi);
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

int cfg_opt(struct hn_config *c, u32 *preload, int opt, char *arg,
	    const char *prog)
{
	static const struct {
		int opt;
		const char *key;
	} keyed[] = {
		{ 'p', "profile" }, { 't', "topology" }, { 'n', "nodes" },
		{ 'k', "slots" }, { 'P', "policy" },
	};
	const char *key = NULL, *val = arg;
	char why[160], *eq;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(keyed); i++)
		if (opt == keyed[i].opt)
			key = keyed[i].key;
	if (opt == 'c')
		return cfg_file(c, preload, arg, prog) ? 1 : 0;
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
	if (cfg_set(c, preload, key, val, why, sizeof(why))) {
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
	const char *help;
	struct hn_config d;
	char buf[32];
	size_t i, h;
	int quote;

	hn_config_default(&d);
	for (i = 0; i < ARRAY_SIZE(keys); i++) {
		help = "";
		for (h = 0; h < ARRAY_SIZE(key_help); h++)
			if (!strcmp(key_help[h].name, keys[i].name))
				help = key_help[h].help;
		fprintf(f, "  %-16s %s [ding4: %s]\n", keys[i].name, help,
			key_str(i, &d, buf, sizeof(buf), &quote));
	}
	fprintf(f,
"  preload          none, or shift: at time 0 slot s connects every u to\n"
"                   u+s+1 mod N, as the module's preload=shift [none]\n"
"Each key is the module parameter of the same name; '-' may stand for '_'\n"
"(hnctl's names).  The deprecated k, nic_buf, sw_buf, rx_buf, max_msg are\n"
"slots, nic_buf_bytes, ...; clock, pace_ppm, tick_us and msg_mem_max_bytes\n"
"(the module's, no effect on virtual time) are accepted and ignored.\n");
}

/* The printable keys of @c as module parameters (KEY=VALUE lines). */
void cfg_print(FILE *f, const struct hn_config *c, u32 preload)
{
	char buf[32];
	size_t i;
	int quote;

	for (i = 0; i < ARRAY_SIZE(keys); i++)
		fprintf(f, "%s=%s\n", keys[i].name,
			key_str(i, c, buf, sizeof(buf), &quote));
	fprintf(f, "preload=%s\n", preload ? "shift" : "none");
}

/*
 * The same as one JSON object in hnctl show -j's names and words, so
 * that it equals what hnctl -j show KEY... prints of a module loaded
 * with these parameters (the preload is not a field: it is left out).
 */
void cfg_print_json(FILE *f, const struct hn_config *c)
{
	char name[32], pol[64], buf[32];
	const char *s;
	size_t i, k;
	int quote;

	for (i = 0; i < ARRAY_SIZE(keys); i++) {
		for (k = 0; keys[i].name[k] && k + 1 < sizeof(name); k++)
			name[k] = keys[i].name[k] == '_' ? '-' : keys[i].name[k];
		name[k] = 0;
		fprintf(f, "%s\"%s\":", i ? "," : "{", name);
		s = key_str(i, c, buf, sizeof(buf), &quote);
		if (!strcmp(name, "policy"))
			fprintf(f, "\"%s\"", hn_ctl_policy_str(c->policy, pol,
							      sizeof(pol)));
		else
			fprintf(f, quote ? "\"%s\"" : "%s", s);
	}
	fprintf(f, "}\n");
}

/* Apply KEY=VALUE lines ('#' comments), or hnctl show -j's object, of
 * @path; @prog names the tool.
 */
int cfg_file(struct hn_config *c, u32 *preload, const char *path,
	     const char *prog)
{
	char *buf = NULL, *eq, *k, *v, *line, *next, why[160];
	unsigned long n = 0;
	int rc = 0;

	buf = cfg_read(path);
	if (!buf)
		return -1;
	if (buf[strspn(buf, " \t\r\n")] == '{') {
		rc = cfg_json(c, preload, buf, path, prog);
		free(buf);
		return rc;
	}
	for (line = buf; !rc && line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = 0;
		n++;
		k = strchr(line, '#');
		if (k)
			*k = 0;
		k = line + strspn(line, " \t\r");
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
		v[strcspn(v, " \t\r")] = 0;
		if (cfg_set(c, preload, k, v, why, sizeof(why))) {
			fprintf(stderr, "%s: %s:%lu: %s\n", prog, path, n, why);
			rc = -1;
		}
	}
	free(buf);
	return rc;
}
