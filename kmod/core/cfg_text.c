// SPDX-License-Identifier: GPL-2.0
/*
 * cfg_text.c - the topology as text (cfg_text.h): one parser and one
 * printer for the module, hnsim and the tests.  The engine's own checks
 * of a topology are hn_config_check()'s; this file only reads and writes
 * the text, and refuses what no configuration could be.
 */
#include "cfg_text.h"
#include "hn_sched.h"		/* enum hn_topology, HN_FT_MAX_W */

#define HN_U32_MAX	0xffffffffu

/* the decimal number in [@s, @end), at most @max, into *@v */
static int dec(const char *s, const char *end, u32 max, u32 *v)
{
	u64 n = 0;

	if (s == end)
		return -EINVAL;
	for (; s < end; s++) {
		if (*s < '0' || *s > '9')
			return -EINVAL;
		n = n * 10 + (u64)(*s - '0');
		if (n > max)
			return -EINVAL;
	}
	*v = (u32)n;
	return 0;
}

static int bad(struct hn_err *err, const char *msg)
{
	return hn_fail(err, -EINVAL, msg, HN_NONE, HN_NONE, HN_NONE);
}

int hn_topology_parse(struct hn_config *c, const char *s, struct hn_err *err)
{
	const char *end = s + strlen(s), *comma;
	u32 n = 1, l, w, i;

	if (!strcmp(s, "crossbar")) {
		c->topology = HN_TOPO_CROSSBAR;
		c->levels = 0;
		c->width = 0;
		return 0;
	}
	if (strncmp(s, "fattree:", 8))
		return bad(err, "topology must be crossbar or fattree:L,W");
	comma = strchr(s + 8, ',');
	if (!comma || dec(s + 8, comma, HN_U32_MAX, &l) ||
	    dec(comma + 1, end, HN_U32_MAX, &w))
		return bad(err, "topology fattree:L,W: L and W must be numbers");
	if (w < 2 || w > HN_FT_MAX_W)
		return bad(err, "topology fattree:L,W: W, the width, must be 2..64");
	if (l < 1)
		return bad(err, "topology fattree:L,W: L, the levels, must be at least 1");
	for (i = 0; i < l && n <= HN_MAX_NODES; i++)	/* w >= 2: ends */
		n *= w;
	if (n > HN_MAX_NODES)
		return bad(err, "topology fattree:L,W: W^L, the nodes, must be at most 4096");
	c->topology = HN_TOPO_FATTREE;
	c->levels = l;
	c->width = w;
	c->nodes = n;
	return 0;
}

/* @v in decimal at @p; returns the end */
static char *put_dec(char *p, u32 v)
{
	char d[10];
	u32 n = 0;

	do {
		d[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (n)
		*p++ = d[--n];
	return p;
}

char *hn_topology_print(const struct hn_config *c, char *buf, u32 len)
{
	char t[32], *p = t;
	u32 n;

	if (!len)
		return buf;
	if (c->topology == HN_TOPO_FATTREE) {
		memcpy(p, "fattree:", 8);
		p = put_dec(p + 8, c->levels);
		*p++ = ',';
		p = put_dec(p, c->width);
	} else {
		memcpy(p, "crossbar", 8);
		p += 8;
	}
	n = (u32)(p - t) < len - 1 ? (u32)(p - t) : len - 1;
	memcpy(buf, t, n);
	buf[n] = 0;
	return buf;
}
