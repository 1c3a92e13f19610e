/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cfg_field.h - the configuration's fields (the rows of hn_fields.h) by
 * index: what each is, reading and writing one, its value as text both
 * ways, and the check of every field's range.  The module's parameters,
 * sysfs files and netlink attributes and hnsim's keys all go through it;
 * libhybridnet makes a table of its own from the same rows, for its
 * struct hn_ctl_config.
 */
#ifndef HN_CFG_FIELD_H
#define HN_CFG_FIELD_H

#include "cfg_text.h"

enum hn_cfg_index {
#define HN_FIELD(f, A, param, nl, help, T, lo, hi, live, words)	HN_CFG_##f,
#include "hn_fields.h"
#undef HN_FIELD
	HN_CFG_NR
};

enum hn_cfg_type {
	HN_CFG_U32,
	HN_CFG_U64,
	HN_CFG_STRING,		/* text, read and printed by text */
};

struct hn_cfg_field {
	const char *name;	/* the parameter: module, sysfs, hnsim */
	const char *help;	/* what it is, one line */
	u16 off;		/* in struct hn_config */
	u8 type;		/* enum hn_cfg_type */
	bool live;		/* changes without a new engine */
	u64 min, max;		/* of a STRING, its text's length */
	const char *const *words;	/* an enum's, of 0, 1, ...; or NULL */
	struct hn_cfg_text text;	/* its text's functions, or NULLs */
};

extern const struct hn_cfg_field hn_cfg_fields[HN_CFG_NR];
/* what each takes, as help gives it: "2..4096", "det|random|adaptive" */
extern const char *const hn_cfg_values[HN_CFG_NR];

/* Field @i's member in @c (a STRING's: the u32 its text sets) */
u64 hn_cfg_get(const struct hn_config *c, u32 i);
/* @v must lie in the field's range; not for a STRING */
void hn_cfg_set(struct hn_config *c, u32 i, u64 v);

/* The longest text hn_cfg_print() makes, and hn_cfg_parse()'s reason */
#define HN_CFG_TEXT_LEN		64
#define HN_CFG_WHY_LEN		192

/*
 * Field @i of @c from @s, as every interface but netlink takes it: a word
 * of the field's or its number (decimal or 0x hex), its text, or a number
 * in its range.  0, or -EINVAL with @c unchanged and the reason in @why
 * (@len bytes, NUL-ended): "out of range 2..4096", "not a number",
 * "neither det, random, adaptive nor a number", or the text's own.
 */
int hn_cfg_parse(struct hn_config *c, u32 i, const char *s, char *why,
		 u32 len);

/*
 * Field @i of @c as hn_cfg_parse() reads it back, and as every interface
 * but netlink prints it: its word, its text, or its number, in @buf of
 * @len bytes (HN_CFG_TEXT_LEN hold any), NUL-ended; returns @buf.
 */
char *hn_cfg_print(const struct hn_config *c, u32 i, char *buf, u32 len);

/* -EINVAL and "FIELD must be VALUES" in @err when one is out of range */
int hn_cfg_check_ranges(const struct hn_config *c, struct hn_err *err);

#endif /* HN_CFG_FIELD_H */
