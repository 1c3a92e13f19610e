// SPDX-License-Identifier: GPL-2.0
/*
 * cfg_keys.c - hnsim: struct hn_config fields by name (what --set
 * KEY=VALUE and --config FILE's lines set), and the policy's name.
 */
#include <errno.h>
#include <stdio.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "hnsim.h"
#include "cfg_field.h"

/*
 * The engine's fields are the core's (cfg_field.h, from the one table
 * kmod/core/hn_fields.h): a key is the field's parameter, as the module
 * parameter and sysfs name it; '-' may stand for '_', so hnctl's names
 * (and hnctl show -j's keys) are keys too (docs/names.md).  A value is
 * read and printed by the core, as the module does.
 */

/* sysfs's name of the module parameter preload (hnctl show -j's key) */
static const struct {
	const char *alias, *name;
} aliases[] = {
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

/* @key as hnsim knows it: '-' for '_', and an alias replaced */
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

/* field @i's value is a word or text (a string in JSON) */
static int key_quoted(size_t i)
{
	return hn_cfg_fields[i].words || hn_cfg_fields[i].text.print;
}

int cfg_set(struct hn_config *c, u32 *preload, const char *key,
	    const char *val, char *why, size_t whylen)
{
	char buf[32], reason[HN_CFG_WHY_LEN];
	size_t i;

	key = key_name(key, buf, sizeof(buf));
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
	for (i = 0; i < HN_CFG_NR; i++) {
		if (strcmp(key, hn_cfg_fields[i].name))
			continue;
		if (!hn_cfg_parse(c, (u32)i, val, reason, sizeof(reason)))
			return 0;
		snprintf(why, whylen, "%s=%s: %s", key, val, reason);
		return -1;
	}
	snprintf(why, whylen, "unknown key '%s' (see --help)", key);
	return -1;
}

const char *cfg_policy_name(u32 p, char *buf, size_t len)
{
	return hn_policy_text(p, buf, (u32)len);
}

void cfg_print_keys(FILE *f)
{
	char buf[HN_CFG_TEXT_LEN];
	struct hn_config d;
	size_t i;

	hn_config_default(&d);
	for (i = 0; i < HN_CFG_NR; i++)
		fprintf(f, "  %-16s %s (%s) [ding4: %s]\n", hn_cfg_fields[i].name,
			hn_cfg_fields[i].help, hn_cfg_values[i],
			hn_cfg_print(&d, (u32)i, buf, sizeof(buf)));
	fprintf(f,
"  preload          none, or shift: at time 0 slot s connects every u to\n"
"                   u+s+1 mod N, as the module's preload=shift [none]\n"
"Each key is the module parameter of the same name; '-' may stand for '_'\n"
"(hnctl's names).  A key whose values are words takes a word or its\n"
"number.  clock, pace_ppm, tick_us and msg_mem_max_bytes (the module's,\n"
"no effect on virtual time) are accepted and ignored.\n");
}

/* The printable keys of @c as module parameters (KEY=VALUE lines). */
void cfg_print(FILE *f, const struct hn_config *c, u32 preload)
{
	char buf[HN_CFG_TEXT_LEN];
	size_t i;

	for (i = 0; i < HN_CFG_NR; i++)
		fprintf(f, "%s=%s\n", hn_cfg_fields[i].name,
			hn_cfg_print(c, (u32)i, buf, sizeof(buf)));
	fprintf(f, "preload=%s\n", preload ? "shift" : "none");
}

/*
 * The same as one JSON object in hnctl show -j's names and words, so
 * that it equals what hnctl -j show KEY... prints of a module loaded
 * with these parameters (the preload is not a field: it is left out).
 */
void cfg_print_json(FILE *f, const struct hn_config *c)
{
	char name[32], buf[HN_CFG_TEXT_LEN];
	size_t i, k;

	for (i = 0; i < HN_CFG_NR; i++) {
		for (k = 0; hn_cfg_fields[i].name[k] && k + 1 < sizeof(name); k++)
			name[k] = hn_cfg_fields[i].name[k] == '_' ? '-' :
				  hn_cfg_fields[i].name[k];
		name[k] = 0;
		fprintf(f, key_quoted(i) ? "%s\"%s\":\"%s\"" : "%s\"%s\":%s",
			i ? "," : "{", name,
			hn_cfg_print(c, (u32)i, buf, sizeof(buf)));
	}
	fprintf(f, "}\n");
}
