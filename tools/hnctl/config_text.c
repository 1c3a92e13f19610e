// SPDX-License-Identifier: GPL-2.0
/*
 * config_text.c - the configuration fields as hnctl writes and reads
 * them: values as text and JSON, "KEY VALUE" parsed and checked against
 * the field's range, and the keys' lines of the help texts; all from
 * libhybridnet's table of fields.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hnctl.h"
#include "json.h"

/* The field called @key (spec name, or with '_' for '-'). */
const struct hn_ctl_field *config_field(const char *key)
{
	char buf[32];
	size_t i;

	if (strlen(key) >= sizeof(buf))
		return NULL;
	for (i = 0; key[i]; i++)
		buf[i] = key[i] == '_' ? '-' : key[i];
	buf[i] = '\0';
	return hn_ctl_config_field(buf);
}

const char *switching_word(uint32_t v)
{
	const struct hn_ctl_field *f = config_field("switching");

	if (v == HN_CTL_SWITCHING_FABRIC)
		return "fabric";
	return v < HYBRIDNET_SWITCHING_DROP && f && f->enums ?
	       f->enums[v] : NULL;
}

int switching_parse(const char *s, uint32_t *v)
{
	uint32_t i;

	if (!strcmp(s, "fabric")) {
		*v = HN_CTL_SWITCHING_FABRIC;
		return 0;
	}
	for (i = 0; i < HYBRIDNET_SWITCHING_DROP; i++)
		if (switching_word(i) && !strcmp(s, switching_word(i))) {
			*v = i;
			return 0;
		}
	return -1;
}

static uint64_t get_u(const struct hn_ctl_config *cfg,
		      const struct hn_ctl_field *f)
{
	const char *p = (const char *)cfg + f->off;

	return f->type == HN_CTL_U64 ? *(const uint64_t *)p :
	       *(const uint32_t *)p;
}

/* The name of an enum field's value, or NULL. */
static const char *enum_name(const struct hn_ctl_config *cfg,
			     const struct hn_ctl_field *f)
{
	uint64_t v = get_u(cfg, f), i;

	for (i = 0; f->enums && f->enums[i]; i++)
		if (i == v)
			return f->enums[i];
	return NULL;
}

/* The value of @f as text, or NULL for a number without words. */
static const char *text_str(const struct hn_ctl_config *cfg,
			    const struct hn_ctl_field *f, char *buf, size_t len)
{
	const char *name;

	if (f->type == HN_CTL_STRING)
		return (const char *)cfg + f->off;
	name = hn_ctl_field_str(f, (uint32_t)get_u(cfg, f), buf, len);
	return name ? name : enum_name(cfg, f);
}

/* The value of @f as "hnctl set" reads it. */
static const char *value_str(const struct hn_ctl_config *cfg,
			     const struct hn_ctl_field *f, char *buf,
			     size_t len)
{
	const char *s = text_str(cfg, f, buf, len);

	if (s)
		return s;
	snprintf(buf, len, "%llu", (unsigned long long)get_u(cfg, f));
	return buf;
}

void config_print(const struct hn_ctl_config *cfg, int one_line)
{
	const struct hn_ctl_field *f;
	char buf[64];
	int n = 0;

	for (f = hn_ctl_config_fields; f->name; f++) {
		if (!HN_CTL_HAS(cfg, f->attr))
			continue;
		printf("%s%s %s", one_line && n++ ? " " : "", f->name,
		       value_str(cfg, f, buf, sizeof(buf)));
		if (!one_line)
			putchar('\n');
	}
}

void config_json(const struct hn_ctl_config *cfg)
{
	const struct hn_ctl_field *f;
	const char *s;
	char buf[64];

	for (f = hn_ctl_config_fields; f->name; f++) {
		if (!HN_CTL_HAS(cfg, f->attr))
			continue;
		s = text_str(cfg, f, buf, sizeof(buf));
		if (s)
			j_str(f->name, s);
		else
			j_u64(f->name, get_u(cfg, f));
	}
}


/* ---- help: the keys, from libhybridnet's table ----------------------- */

#define HELP_INDENT	25	/* where the help of a key starts */
#define HELP_WIDTH	79

/*
 * @s from column *@col on, wrapped at HELP_WIDTH with HELP_INDENT; a
 * word that is a key's name with '_' is written with '-', as hnctl's
 * keys are.
 */
static void help_words(const char *s, int *col)
{
	char word[64], key[64];
	size_t n, k, i;

	while (*s) {
		n = strcspn(s, " ");
		if (n >= sizeof(word))
			n = sizeof(word) - 1;
		memcpy(word, s, n);
		word[n] = '\0';
		/* a key's name with '_' at its start ("wh_flit_ns,") */
		k = strspn(word, "abcdefghijklmnopqrstuvwxyz_");
		for (i = 0; i < k; i++)
			key[i] = word[i] == '_' ? '-' : word[i];
		key[k] = '\0';
		if (memchr(word, '_', k) && config_field(key))
			memcpy(word, key, k);
		if (*col > HELP_INDENT && *col + 1 + (int)n > HELP_WIDTH) {
			printf("\n%*s", HELP_INDENT, "");
			*col = HELP_INDENT;
		} else if (*col > HELP_INDENT) {
			putchar(' ');
			(*col)++;
		}
		*col += printf("%s", word);
		s += n;
		s += strspn(s, " ");
	}
}

/*
 * What a value of @f is written as in hnctl set --help, into @buf: its
 * words ("det|random|adaptive"), or T (a time), B (bytes), N; returns
 * the rest of f->values, what its help adds in brackets ("" for none).
 */
static const char *value_kind(const struct hn_ctl_field *f, char *buf,
			      size_t len)
{
	size_t n = strlen(f->name), w = strcspn(f->values, " ");

	if (memchr(f->values, '|', w)) {		/* its words */
		snprintf(buf, len, "%.*s", (int)w, f->values);
		return f->values + w + strspn(f->values + w, " ");
	}
	if (n > 3 && !strcmp(f->name + n - 3, "-ns"))
		snprintf(buf, len, "T");
	else if (n > 6 && !strcmp(f->name + n - 6, "-bytes"))
		snprintf(buf, len, "B");
	else
		snprintf(buf, len, "N");
	return f->values;
}

void config_help_values(void)
{
	const struct hn_ctl_field *f;
	char help[512], kind[64];
	const char *more;
	int col;

	for (f = hn_ctl_config_fields; f->name; f++) {
		if (f->readonly)
			continue;
		more = value_kind(f, kind, sizeof(kind));
		col = printf("    %s %s", f->name, kind);
		if (col >= HELP_INDENT)
			printf("\n%*s", HELP_INDENT, "");
		else
			printf("%*s", HELP_INDENT - col, "");
		col = HELP_INDENT;
		snprintf(help, sizeof(help), "%s%s%s%s%s", f->help,
			 *more ? " (" : "", more, *more ? ")" : "",
			 f->live ? "; live" : "");
		help_words(help, &col);
		putchar('\n');
	}
}

void config_help_keys(void)
{
	const struct hn_ctl_field *f;
	int col = printf("    KEYs:");

	for (f = hn_ctl_config_fields; f->name; f++) {
		if (col + 1 + (int)strlen(f->name) > HELP_WIDTH - 3)
			col = printf("\n   ");
		col += printf(" %s", f->name);
	}
	putchar('\n');
}


/* The units a value of @f may take: times in ns, sizes in bytes. */
static unsigned int field_units(const struct hn_ctl_field *f)
{
	size_t len = strlen(f->name);

	if (len > 3 && !strcmp(f->name + len - 3, "-ns"))
		return HNCTL_UNIT_TIME;
	if (len > 6 && !strcmp(f->name + len - 6, "-bytes"))
		return HNCTL_UNIT_BYTES;
	return 0;
}

/* A number with a unit: ns, us, ms, s for times; K, M for bytes. */
static int parse_value(const struct hn_ctl_field *f, const char *s,
		       uint64_t *v)
{
	return hnctl_num_unit(s, field_units(f),
			      f->type == HN_CTL_U64 ? UINT64_MAX : UINT32_MAX,
			      v);
}

static int set_field(struct hn_ctl_config *cfg, const struct hn_ctl_field *f,
		     const char *val)
{
	char *p = (char *)cfg + f->off;
	uint64_t v;
	uint32_t i;
	int rc;

	for (i = 0; f->enums && f->enums[i]; i++)
		if (!strcmp(val, f->enums[i])) {
			*(uint32_t *)p = i;
			return 0;
		}
	rc = hn_ctl_field_parse(f, val, (uint32_t *)p);
	if (rc != -ENOENT)			/* a number read as text */
		return rc ? -1 : 0;
	switch (f->attr) {
	case HYBRIDNET_ATTR_IDLE_TIMEOUT_NS:
		if (!strcmp(val, "never") || !strcmp(val, "off")) {
			cfg->idle_timeout_ns = 0;
			return 0;
		}
		break;
	default:
		break;
	}
	if (f->type == HN_CTL_STRING) {
		if (strlen(val) >= sizeof(cfg->profile))
			return -1;
		strcpy(p, val);
		return 0;
	}
	if (parse_value(f, val, &v))
		return -1;
	if (f->type == HN_CTL_U64)
		*(uint64_t *)p = v;
	else
		*(uint32_t *)p = (uint32_t)v;
	return 0;
}

static const char *value_hint(const struct hn_ctl_field *f)
{
	static char words[128];
	size_t i, n = 0;

	for (i = 0; f->enums && f->enums[i]; i++)	/* "a, b or c" */
		n += (size_t)snprintf(words + n, n < sizeof(words) ?
				      sizeof(words) - n : 0, "%s%s",
				      !i ? "" : f->enums[i + 1] ? ", " : " or ",
				      f->enums[i]);
	if (n)
		return words;
	switch (f->attr) {
	case HYBRIDNET_ATTR_POLICY:
		return "fixed, ses, sla, preempt[,slot][,no-w], dynamic, or a "
		       "number";
	case HYBRIDNET_ATTR_DILATION_LEVELS:
		return "0, or D,D,.. (1..8 a level from the nodes' links up)";
	case HYBRIDNET_ATTR_PROFILE:
		return "a profile name: ding4 or ding5";
	case HYBRIDNET_ATTR_TOPOLOGY:
		return "crossbar, fattree:L,W, mesh:KxK.., torus:KxK.. or gh:N,K";
	case HYBRIDNET_ATTR_IDLE_TIMEOUT_NS:
		return "a time (e.g. 5000, 5us, 2ms) or never";
	default:
		break;
	}
	switch (field_units(f)) {
	case HNCTL_UNIT_TIME:
		return "a time in ns (or with us, ms, s)";
	case HNCTL_UNIT_BYTES:
		return "bytes (or with K, M)";
	default:
		return "a number";
	}
}

/* The range of @f as the kernel takes it (hn_fields.h): "2..4096". */
static const char *range_str(const struct hn_ctl_field *f, char *buf,
			     size_t len)
{
	static const char *const unit[] = { "", " ns", " bytes" };

	if (f->type == HN_CTL_STRING)
		snprintf(buf, len, "at most %llu characters",
			 (unsigned long long)f->max);
	else if (f->enums)
		snprintf(buf, len, "%s, or %llu..%llu", value_hint(f),
			 (unsigned long long)f->min,
			 (unsigned long long)f->max);
	else
		snprintf(buf, len, "%llu..%llu%s", (unsigned long long)f->min,
			 (unsigned long long)f->max, unit[field_units(f)]);
	return buf;
}

static int in_range(const struct hn_ctl_config *cfg,
		    const struct hn_ctl_field *f)
{
	uint64_t v;

	if (f->type == HN_CTL_STRING)
		return strlen((const char *)cfg + f->off) <= f->max;
	v = get_u(cfg, f);
	return v >= f->min && v <= f->max;
}

int config_value(struct hn_ctl_config *cfg, const char *key, const char *val,
		 char *why, size_t len)
{
	const struct hn_ctl_field *f = config_field(key);
	char range[64];

	if (!f)
		snprintf(why, len, "unknown key '%s'", key);
	else if (f->readonly)
		snprintf(why, len, "%s cannot be set", f->name);
	else if (HN_CTL_HAS(cfg, f->attr))
		snprintf(why, len, "%s given twice", f->name);
	else if (!val)
		snprintf(why, len, "%s needs a value (%s)", f->name,
			 value_hint(f));
	else if (set_field(cfg, f, val))
		snprintf(why, len, "%s: '%s' is not %s", f->name, val,
			 value_hint(f));
	else if (!in_range(cfg, f))
		snprintf(why, len, "%s: '%s' is out of range: %s", f->name,
			 val, range_str(f, range, sizeof(range)));
	else {
		HN_CTL_MARK(cfg, f->attr);
		return 0;
	}
	return -1;
}

