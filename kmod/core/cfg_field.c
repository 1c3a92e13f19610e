// SPDX-License-Identifier: GPL-2.0
/*
 * cfg_field.c - the configuration's fields by index (cfg_field.h): the
 * table made from the rows of hn_fields.h, and a field's value read and
 * written as a number or as text.  Text goes through the field's words or
 * its text functions (cfg_text.c); the configuration as a whole is
 * hn_config_check()'s (config.c), which starts with every field's range.
 */
#include "cfg_field.h"
#include "topo.h"		/* HN_UPSEL_ADAPTIVE */

#define HN_CFG_TYPE_U32		HN_CFG_U32
#define HN_CFG_TYPE_U64		HN_CFG_U64
#define HN_CFG_TYPE_STRING	HN_CFG_STRING

const struct hn_cfg_field hn_cfg_fields[HN_CFG_NR] = {
#define HN_FIELD(f, A, param, nl, _help, T, lo, hi, _live, _words)	\
	[HN_CFG_##f] = {						\
		.name = #param,						\
		.help = _help,						\
		.off = offsetof(struct hn_config, f),			\
		.type = HN_CFG_TYPE_##T,				\
		.live = _live,						\
		.min = lo,						\
		.max = hi,						\
		.words = HN_WORDS_##_words,				\
		.text = HN_TEXT_##_words,				\
	},
#include "hn_fields.h"
#undef HN_FIELD
};

const char *const hn_cfg_values[HN_CFG_NR] = {
#define HN_FIELD(f, A, param, nl, help, T, lo, hi, live, words)	\
	[HN_CFG_##f] = HN_VALUES_##words(lo, hi),
#include "hn_fields.h"
#undef HN_FIELD
};

/* hn_config_check()'s reason for a field out of its range */
static const char *const hn_cfg_range_msg[HN_CFG_NR] = {
#define HN_FIELD(f, A, param, nl, help, T, lo, hi, live, words)	\
	[HN_CFG_##f] = #param " must be " HN_VALUES_##words(lo, hi),
#include "hn_fields.h"
#undef HN_FIELD
};

/* the ranges written as numbers in hn_fields.h are the engine's */
static_assert(HN_POL_ALL == 63, "policy: its range is 0..63");
static_assert(2 * HN_MAX_NODES - 1 == 8191, "predict_kstep: 1..2N-1");
static_assert(HN_UPSEL_ADAPTIVE == 2, "up_select: 0..2");

u64 hn_cfg_get(const struct hn_config *c, u32 i)
{
	const void *p = (const char *)c + hn_cfg_fields[i].off;

	return hn_cfg_fields[i].type == HN_CFG_U64 ? *(const u64 *)p :
	       *(const u32 *)p;
}

void hn_cfg_set(struct hn_config *c, u32 i, u64 v)
{
	void *p = (char *)c + hn_cfg_fields[i].off;

	if (hn_cfg_fields[i].type == HN_CFG_U64)
		*(u64 *)p = v;
	else
		*(u32 *)p = (u32)v;
}

/* ---- text, without a libc: appending to a buffer ---------------------- */

struct hn_out {
	char *p, *end;		/* end: the place of the NUL */
};

static void put(struct hn_out *o, const char *s)
{
	while (*s && o->p < o->end)
		*o->p++ = *s++;
	*o->p = 0;
}

static void put_u64(struct hn_out *o, u64 v)
{
	char d[21];

	*hn_text_dec(d, v) = 0;
	put(o, d);
}

/*
 * @s as a number, decimal or 0x hex: 0, -ERANGE for one no field takes
 * (negative, or past u64), -EINVAL for no number
 */
static int number(const char *s, u64 *v)
{
	bool neg = *s == '-';
	int rc = hn_text_number(s + neg, s + strlen(s), v);

	return !rc && neg ? -ERANGE : rc;
}

static int why_range(const struct hn_cfg_field *cf, struct hn_out *o)
{
	put(o, "out of range ");
	put_u64(o, cf->min);
	put(o, "..");
	put_u64(o, cf->max);
	return -EINVAL;
}

int hn_cfg_parse(struct hn_config *c, u32 i, const char *s, char *why,
		 u32 len)
{
	const struct hn_cfg_field *cf = &hn_cfg_fields[i];
	struct hn_out o = { why, why + len - 1 };
	const char *const *w;
	struct hn_err err = { 0 };
	struct hn_config t = *c;
	u64 v;
	int rc;

	why[0] = 0;
	if (cf->text.parse) {	/* the topology, the policy */
		if (cf->text.parse(&t, s, &err)) {
			put(&o, err.msg);
			return -EINVAL;
		}
		if (cf->type != HN_CFG_STRING &&
		    (hn_cfg_get(&t, i) < cf->min || hn_cfg_get(&t, i) > cf->max))
			return why_range(cf, &o);
		*c = t;
		return 0;
	}
	for (w = cf->words; w && *w; w++)
		if (!strcmp(*w, s)) {
			hn_cfg_set(c, i, (u64)(w - cf->words));
			return 0;
		}
	rc = number(s, &v);
	if (rc == -EINVAL && cf->words) {
		put(&o, "neither ");
		for (w = cf->words; *w; w++) {
			put(&o, *w);
			put(&o, ", ");
		}
		o.p -= o.p - why >= 2 ? 2 : 0;
		put(&o, " nor a number");
		return -EINVAL;
	}
	if (rc == -EINVAL) {
		put(&o, "not a number");
		return -EINVAL;
	}
	if (rc || v < cf->min || v > cf->max)
		return why_range(cf, &o);
	hn_cfg_set(c, i, v);
	return 0;
}

char *hn_cfg_print(const struct hn_config *c, u32 i, char *buf, u32 len)
{
	const struct hn_cfg_field *cf = &hn_cfg_fields[i];
	struct hn_out o = { buf, buf + len - 1 };
	u64 v, n;

	if (!len)
		return buf;
	if (cf->text.print)
		return cf->text.print(c, buf, len);
	v = hn_cfg_get(c, i);
	for (n = 0; cf->words && cf->words[n]; n++)
		if (n == v) {
			put(&o, cf->words[n]);
			return buf;
		}
	put_u64(&o, v);
	return buf;
}

int hn_cfg_check_ranges(const struct hn_config *c, struct hn_err *err)
{
	u64 v;
	u32 i;

	for (i = 0; i < HN_CFG_NR; i++) {
		if (hn_cfg_fields[i].type == HN_CFG_STRING)
			continue;
		v = hn_cfg_get(c, i);
		if (v < hn_cfg_fields[i].min || v > hn_cfg_fields[i].max)
			return hn_fail(err, -EINVAL, hn_cfg_range_msg[i],
				       HN_NONE, HN_NONE, HN_NONE);
	}
	return 0;
}
