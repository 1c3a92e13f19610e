// SPDX-License-Identifier: GPL-2.0
/*
 * cfg_text.c - the topology, the policy and a fat tree's dilation level
 * by level as text (cfg_text.h): one parser and one printer of each for
 * the module, libhybridnet, hnsim and the tests.  The engine's own
 * checks of a configuration are hn_config_check()'s; this file only
 * reads and writes the text, and refuses what no configuration could be.
 */
#include "cfg_field.h"		/* the table's words, and cfg_text.h */
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

int hn_text_number(const char *s, const char *end, u64 *v)
{
	u64 n = 0;
	u32 d, base = 10;
	int rc = 0;

	if (end - s > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	}
	if (s == end)
		return -EINVAL;
	for (; s < end; s++) {
		if (*s >= '0' && *s <= '9')
			d = (u32)(*s - '0');
		else if (base == 16 && *s >= 'a' && *s <= 'f')
			d = (u32)(*s - 'a' + 10);
		else if (base == 16 && *s >= 'A' && *s <= 'F')
			d = (u32)(*s - 'A' + 10);
		else
			return -EINVAL;
		if (n > (~0ULL - d) / base)
			rc = -ERANGE;
		n = n * base + d;
	}
	*v = n;
	return rc;
}

static int bad(struct hn_err *err, const char *msg)
{
	return hn_fail(err, -EINVAL, msg, HN_NONE, HN_NONE, HN_NONE);
}

/* @kind of @n stages or dimensions of @k, k^n nodes (checked) */
static int set_shape(struct hn_config *c, u32 kind, u32 n, u32 k)
{
	c->topology = kind;
	c->levels = n;
	c->width = k;
	c->nodes = (u32)hn_shape_nodes(k, n);
	return 0;
}

/* "KxKx..": *@n dimensions of *@k, each K the same */
static int dims_parse(const char *s, const char *end, u32 *n, u32 *k,
		      struct hn_err *err)
{
	const char *x;
	u32 v;

	for (*n = 0;; s = x + 1) {
		x = strchr(s, 'x');
		if (!x)
			x = end;
		if (dec(s, x, HN_U32_MAX, &v))
			return bad(err, "topology mesh:KxK, torus:KxK: each K must be a number");
		if ((*n)++ && v != *k)
			return bad(err, "topology mesh:KxK, torus:KxK: one K for every dimension");
		*k = v;
		if (x == end)
			return 0;
	}
}

/*
 * "mesh:KxKx..", "torus:KxKx.." (n dimensions of K) and "gh:N,K": K^n
 * nodes.  config.c checks the rest of the shape.
 */
static int cube_parse(struct hn_config *c, const char *s, u32 kind,
		      struct hn_err *err)
{
	const char *end = s + strlen(s), *x = strchr(s, ',');
	u32 n = 0, k = 0;
	int rc;

	if (kind != HN_TOPO_GH) {
		rc = dims_parse(s, end, &n, &k, err);
		if (rc)
			return rc;
	} else if (!x || dec(s, x, HN_U32_MAX, &n) ||
		   dec(x + 1, end, HN_U32_MAX, &k)) {
		return bad(err, "topology gh:N,K: N and K must be numbers");
	}
	if (k < 2 || !n || n > HN_CUBE_MAX_DIMS)
		return bad(err, "topology mesh, torus, gh: K 2 or more, 1..12 dimensions");
	if (hn_shape_nodes(k, n) > HN_MAX_NODES)
		return bad(err, "topology mesh, torus, gh: K^n, the nodes, at most 4096");
	return set_shape(c, kind, n, k);
}

int hn_topology_parse(struct hn_config *c, const char *s, struct hn_err *err)
{
	const char *end = s + strlen(s), *comma;
	u32 l, w;

	if (!strcmp(s, "crossbar")) {
		c->topology = HN_TOPO_CROSSBAR;
		c->levels = 0;
		c->width = 0;
		return 0;
	}
	if (!strncmp(s, "mesh:", 5))
		return cube_parse(c, s + 5, HN_TOPO_MESH, err);
	if (!strncmp(s, "torus:", 6))
		return cube_parse(c, s + 6, HN_TOPO_TORUS, err);
	if (!strncmp(s, "gh:", 3))
		return cube_parse(c, s + 3, HN_TOPO_GH, err);
	if (strncmp(s, "fattree:", 8))
		return bad(err,
			   "topology must be crossbar, fattree:L,W, mesh:KxK, torus:KxK or gh:N,K");
	comma = strchr(s + 8, ',');
	if (!comma || dec(s + 8, comma, HN_U32_MAX, &l) ||
	    dec(comma + 1, end, HN_U32_MAX, &w))
		return bad(err, "topology fattree:L,W: L and W must be numbers");
	if (w < 2 || w > HN_FT_MAX_W)
		return bad(err, "topology fattree:L,W: W, the width, must be 2..64");
	if (l < 1)
		return bad(err, "topology fattree:L,W: L, the levels, must be at least 1");
	if (hn_shape_nodes(w, l) > HN_MAX_NODES)	/* w >= 2: ends */
		return bad(err, "topology fattree:L,W: W^L, the nodes, must be at most 4096");
	return set_shape(c, HN_TOPO_FATTREE, l, w);
}

char *hn_text_dec(char *p, u64 v)
{
	char d[20];
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
		p = hn_text_dec(p + 8, c->levels);
		*p++ = ',';
		p = hn_text_dec(p, c->width);
	} else if (c->topology == HN_TOPO_GH) {
		memcpy(p, "gh:", 3);
		p = hn_text_dec(p + 3, c->levels);
		*p++ = ',';
		p = hn_text_dec(p, c->width);
	} else if (c->topology == HN_TOPO_MESH ||
		   c->topology == HN_TOPO_TORUS) {
		n = c->topology == HN_TOPO_MESH ? 5 : 6;
		memcpy(p, c->topology == HN_TOPO_MESH ? "mesh:" : "torus:", n);
		p += n;
		for (n = 0; n < c->levels && p < t + sizeof(t) - 6; n++) {
			if (n)
				*p++ = 'x';
			p = hn_text_dec(p, c->width);
		}
	} else {
		memcpy(p, "crossbar", 8);
		p += 8;
	}
	n = (u32)(p - t) < len - 1 ? (u32)(p - t) : len - 1;
	memcpy(buf, t, n);
	buf[n] = 0;
	return buf;
}

/* ---- the policy ------------------------------------------------------- */

/* the words of HN_WL_POLICY, and the flags of each */
static const char *const hn_policy_words[] = { HN_WL_POLICY };

static const u32 hn_policy_flags[] = {
	0,					/* fixed */
	HN_POL_SES,				/* ses */
	HN_POL_SES | HN_POL_SLA,		/* sla */
	HN_POL_PREEMPT,				/* preempt */
	HN_POL_PREEMPT_SLOT,			/* slot */
	HN_POL_NO_W,				/* no-w */
	HN_POL_DYNAMIC | HN_POL_NO_W | HN_POL_SES, /* dynamic */
};

int hn_policy_from_text(const char *s, u32 *policy, struct hn_err *err)
{
	const char *end;
	u32 pol = 0, i, len;
	u64 v;

	static_assert(ARRAY_SIZE(hn_policy_words) ==
		      ARRAY_SIZE(hn_policy_flags),
		      "a policy word without its flags");
	for (;;) {
		for (end = s; *end && *end != ',' && *end != '+'; end++)
			;
		len = (u32)(end - s);
		for (i = 0; i < ARRAY_SIZE(hn_policy_words); i++)
			if (strlen(hn_policy_words[i]) == len &&
			    !strncmp(s, hn_policy_words[i], len))
				break;
		if (i < ARRAY_SIZE(hn_policy_words))
			pol |= hn_policy_flags[i];
		else if (!hn_text_number(s, end, &v) && v <= HN_U32_MAX)
			pol |= (u32)v;
		else
			return bad(err, "not words of "
				   HN_JOIN(HN_WL_POLICY)
				   " joined by ',', nor a number");
		if (!*end)
			break;
		s = end + 1;
	}
	*policy = pol;
	return 0;
}

/* the flags set in @f */
static u32 flags(u32 f)
{
	u32 n = 0;

	for (; f; f &= f - 1)
		n++;
	return n;
}

/* @s at @p, as much as fits before @end; returns the new end */
static char *put_str(char *p, char *end, const char *s)
{
	while (*s && p < end)
		*p++ = *s++;
	return p;
}

char *hn_policy_text(u32 policy, char *buf, u32 len)
{
	static const char hex[] = "0123456789abcdef";
	char *p = buf, *end = buf + len - 1, d[8];
	u32 left = policy, bits, f, i, n;

	if (!len)
		return buf;
	if (!policy)
		p = put_str(p, end, hn_policy_words[0]);
	/*
	 * the words of most flags first, dynamic, sla, then one flag each;
	 * a word whose flags are set and that adds one
	 */
	for (bits = 3; bits; bits--) {
		for (i = 1; i < ARRAY_SIZE(hn_policy_flags); i++) {
			f = hn_policy_flags[i];
			if (flags(f) != bits || (policy & f) != f ||
			    !(left & f))
				continue;
			if (p != buf)
				p = put_str(p, end, ",");
			p = put_str(p, end, hn_policy_words[i]);
			left &= ~f;
		}
	}
	if (left) {
		if (p != buf)
			p = put_str(p, end, ",");
		p = put_str(p, end, "0x");
		n = 0;
		do {
			d[n++] = hex[left & 15];
			left >>= 4;
		} while (left);
		while (n && p < end)
			*p++ = d[--n];
	}
	*p = 0;
	return buf;
}

int hn_policy_parse(struct hn_config *c, const char *s, struct hn_err *err)
{
	return hn_policy_from_text(s, &c->policy, err);
}

char *hn_policy_print(const struct hn_config *c, char *buf, u32 len)
{
	return hn_policy_text(c->policy, buf, len);
}

int hn_dil_levels_parse(struct hn_config *c, const char *s,
			struct hn_err *err)
{
	const char *end = s + strlen(s), *comma;
	u32 v = 0, n = 0, d;
	u64 x;

	if (!strcmp(s, "0") || !*s) {
		c->dil_levels = 0;
		return 0;
	}
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {	/* netlink's */
		if (hn_text_number(s, end, &x) || x > HN_U32_MAX)
			return bad(err, "dilation_levels: 0x... must be a u32, 4 bits a level");
		c->dil_levels = (u32)x;
		return 0;
	}
	for (;;) {
		comma = strchr(s, ',');
		if (!comma)
			comma = end;
		if (n == HN_DIL_LEVELS_MAX)
			return bad(err, "dilation_levels: at most 8 levels");
		if (dec(s, comma, HN_DILATION_MAX, &d) || !d)
			return bad(err,
				   "dilation_levels: numbers 1..8 joined by ',', one a level from the nodes' links up, or 0");
		v |= d << (4 * n++);
		if (comma == end)
			break;
		s = comma + 1;
	}
	c->dil_levels = v;
	return 0;
}

char *hn_dil_levels_print(const struct hn_config *c, char *buf, u32 len)
{
	char t[2 * HN_DIL_LEVELS_MAX], *p = t;
	u32 v = c->dil_levels;

	if (!len)
		return buf;
	if (!v)
		*p++ = '0';
	for (; v; v >>= 4) {
		p = hn_text_dec(p, v & 15);
		if (v >> 4)
			*p++ = ',';
	}
	len = (u32)(p - t) < len - 1 ? (u32)(p - t) : len - 1;
	memcpy(buf, t, len);
	buf[len] = 0;
	return buf;
}
