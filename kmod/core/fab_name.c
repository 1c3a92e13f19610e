// SPDX-License-Identifier: GPL-2.0
/*
 * fab_name.c - the names of a fabric's switches, ports and links
 * (fab_name.h): printed and read back, and held to a fabric's shape.
 */
#include "fab_name.h"
#include "cfg_text.h"		/* hn_text_dec(), hn_text_number() */

/* @s at @p, before @end */
static char *put(char *p, const char *end, const char *s)
{
	while (*s && p < end)
		*p++ = *s++;
	return p;
}

/* @v in decimal at @p, before @end */
static char *put_num(char *p, const char *end, u32 v)
{
	char d[21];

	*hn_text_dec(d, v) = 0;
	return put(p, end, d);
}

char *hn_fab_print(const struct hn_fab_name *n, char *buf, u32 len)
{
	static const char *const port[] = {
		[HN_FAB_UP] = "/up", [HN_FAB_DOWN] = "/down",
	};
	const char *end = buf + len - 1;
	char *p = buf;

	if (!len)
		return buf;
	if (n->kind == HN_FAB_NODE) {
		p = put_num(put(p, end, "node"), end, n->port);
	} else {
		p = put_num(put(p, end, "sw"), end, n->level);
		p = put_num(put(p, end, "."), end, n->index);
		if (n->kind == HN_FAB_UP || n->kind == HN_FAB_DOWN)
			p = put_num(put(p, end, port[n->kind]), end, n->port);
	}
	*p = 0;
	return buf;
}

char *hn_fab_chans_print(u8 bits, char *buf)
{
	const char *end = buf + HN_FAB_CHANS_LEN - 1;
	char *p = buf;
	u32 j;

	for (j = 0; j < 8; j++)
		if (bits & (1u << j))
			p = put_num(put(p, end, p == buf ? "" : ","), end, j);
	if (p == buf)
		p = put(p, end, "-");
	*p = 0;
	return buf;
}

/* @s starts with @word: past it, or NULL */
static const char *word(const char *s, const char *w)
{
	u32 n = (u32)strlen(w);

	return strncmp(s, w, n) ? NULL : s + n;
}

/* the decimal number at *@s, and *@s past it */
static int dec(const char **s, u32 *v)
{
	const char *e = *s;
	u64 n;

	while (*e >= '0' && *e <= '9')
		e++;
	if (e == *s || hn_text_number(*s, e, &n) || n > HN_NONE - 1)
		return -EINVAL;
	*v = (u32)n;
	*s = e;
	return 0;
}

int hn_fab_scan(const char *s, struct hn_fab_name *n)
{
	struct hn_fab_name t = { .kind = HN_FAB_SWITCH };
	const char *p = word(s, "node");

	if (p) {
		t.kind = HN_FAB_NODE;
		if (dec(&p, &t.port) || *p)
			return -EINVAL;
		*n = t;
		return 0;
	}
	p = word(s, "sw");
	if (!p || dec(&p, &t.level) || *p++ != '.' || dec(&p, &t.index))
		return -EINVAL;
	if (*p) {
		if (word(p, "/up"))
			t.kind = HN_FAB_UP;
		else if (word(p, "/down"))
			t.kind = HN_FAB_DOWN;
		else
			return -EINVAL;
		p += t.kind == HN_FAB_UP ? 3 : 5;
		if (dec(&p, &t.port) || *p)
			return -EINVAL;
	}
	*n = t;
	return 0;
}

int hn_fab_scan_chan(const char *s, struct hn_fab_name *n, u32 *chan)
{
	const char *c = strrchr(s, '/');
	char link[HN_FAB_NAME_LEN];

	if (!c || c[1] != 'c' || c - s >= HN_FAB_NAME_LEN)
		return -EINVAL;
	memcpy(link, s, c - s);
	link[c - s] = 0;
	c += 2;
	if (dec(&c, chan) || *c || hn_fab_scan(link, n) ||
	    n->kind == HN_FAB_SWITCH)
		return -EINVAL;
	return 0;
}

/* the switches of a level of @fi */
static u32 per_level(const struct hn_fabric_info *fi)
{
	return fi->levels ? fi->switches / fi->levels : 0;
}

int hn_fab_of(const struct hn_fabric_info *fi, u32 sw, u32 port,
	      struct hn_fab_name *n)
{
	u32 per = per_level(fi);

	if (sw == HN_NONE) {
		if (port >= fi->nodes)
			return -EINVAL;
		*n = (struct hn_fab_name){ .kind = HN_FAB_NODE, .port = port };
		return 0;
	}
	if (!per || sw >= fi->switches ||
	    (port != HN_NONE && port >= fi->radix))
		return -EINVAL;
	*n = (struct hn_fab_name){
		.kind = port == HN_NONE ? HN_FAB_SWITCH :
			port < fi->width ? HN_FAB_DOWN : HN_FAB_UP,
		.level = sw / per,
		.index = sw % per,
		.port = port == HN_NONE ? 0 :
			port < fi->width ? port : port - fi->width,
	};
	return 0;
}

int hn_fab_numbers(const struct hn_fabric_info *fi,
		   const struct hn_fab_name *n, u32 *sw, u32 *port)
{
	u32 per = per_level(fi);

	switch (n->kind) {
	case HN_FAB_NODE:
		if (n->port >= fi->nodes)
			return -EINVAL;
		*sw = HN_NONE;
		*port = n->port;
		return 0;
	case HN_FAB_DOWN:
		if (n->port >= fi->width)
			return -EINVAL;
		*port = n->port;
		break;
	case HN_FAB_UP:
		if (n->port >= fi->radix - fi->width)
			return -EINVAL;
		*port = fi->width + n->port;
		break;
	default:
		*port = HN_NONE;
		break;
	}
	if (n->level >= fi->levels || n->index >= per)
		return -EINVAL;
	*sw = n->level * per + n->index;
	return 0;
}
