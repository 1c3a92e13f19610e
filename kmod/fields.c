// SPDX-License-Identifier: GPL-2.0
/*
 * fields.c - the engine's configuration fields as the module sees them:
 * one entry per row of hn_fields.h (name, attribute, place, size, whether
 * it changes live, range, words, text), and reading and writing a field
 * by its index.  The module parameters, sysfs config/ and netlink
 * CONFIG_GET/SET all go through this table.  A STRING field (the
 * topology) is read and printed by its text functions, never by
 * hn_cfg_get() and hn_cfg_set().
 */
#include "hn_kmod.h"

#define HN_FIELD_IS64_U32	false
#define HN_FIELD_IS64_U64	true
#define HN_FIELD_IS64_STRING	false

const struct hn_cfg_field hn_cfg_fields[HN_CFG_NR] = {
#define HN_FIELD(f, A, ctl, nl, T, lo, hi, _live, _words)		\
	[HN_CFG_##f] = {						\
		.name = #ctl,						\
		.attr = HYBRIDNET_ATTR_##A,				\
		.off = offsetof(struct hn_config, f),			\
		.is64 = HN_FIELD_IS64_##T,				\
		.live = _live,						\
		.min = lo,						\
		.max = hi,						\
		.words = HN_WORDS_##_words,				\
		.text = HN_TEXT(T, _words),				\
	},
#include "hn_fields.h"
#undef HN_FIELD
};

u64 hn_cfg_get(const struct hn_config *c, enum hn_cfg_index i)
{
	const void *p = (const char *)c + hn_cfg_fields[i].off;

	return hn_cfg_fields[i].is64 ? *(const u64 *)p : *(const u32 *)p;
}

/* @v must lie in the field's range. */
void hn_cfg_set(struct hn_config *c, enum hn_cfg_index i, u64 v)
{
	void *p = (char *)c + hn_cfg_fields[i].off;

	if (hn_cfg_fields[i].is64)
		*(u64 *)p = v;
	else
		*(u32 *)p = v;
}
