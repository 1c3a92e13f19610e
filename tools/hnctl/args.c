// SPDX-License-Identifier: GPL-2.0
/*
 * args.c - hnctl's arguments: numbers with their units, pairs, and the
 * names of a scheduler's grant results.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hnctl.h"

int hnctl_num(const char *s, uint64_t max, uint64_t *v)
{
	unsigned long long x;
	char *end;
	int base = 10;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	}
	if (!((*s >= '0' && *s <= '9') ||
	      (base == 16 && strchr("abcdefABCDEF", *s) && *s)))
		return -1;
	errno = 0;
	x = strtoull(s, &end, base);
	if (errno || *end || x > max)
		return -1;
	*v = x;
	return 0;
}

int hnctl_num_unit(const char *s, unsigned int units, uint64_t max,
		   uint64_t *v)
{
	static const struct {
		const char *unit;
		uint64_t mul;
		unsigned int kind;
	} unit[] = {
		{ "ns", 1, HNCTL_UNIT_TIME },
		{ "us", 1000, HNCTL_UNIT_TIME },
		{ "ms", 1000000, HNCTL_UNIT_TIME },
		{ "s", 1000000000, HNCTL_UNIT_TIME },
		{ "K", 1024, HNCTL_UNIT_BYTES },
		{ "k", 1024, HNCTL_UNIT_BYTES },
		{ "M", 1048576, HNCTL_UNIT_BYTES },
	};
	char num[32];
	size_t i, n;

	if (!hnctl_num(s, max, v))
		return 0;
	for (n = 0; s[n] >= '0' && s[n] <= '9'; n++)
		;
	if (!n || n >= sizeof(num))
		return -1;
	memcpy(num, s, n);
	num[n] = '\0';
	for (i = 0; i < sizeof(unit) / sizeof(unit[0]); i++) {
		if (!(unit[i].kind & units) || strcmp(s + n, unit[i].unit))
			continue;
		if (hnctl_num(num, max / unit[i].mul, v))
			return -1;
		*v *= unit[i].mul;
		return 0;
	}
	return -1;
}

int hnctl_pair(const char *s, struct hn_ctl_pair *p)
{
	const char *colon = strchr(s, ':');
	uint64_t a, b;
	char buf[24];

	if (!colon || (size_t)(colon - s) >= sizeof(buf))
		return -1;
	memcpy(buf, s, colon - s);
	buf[colon - s] = '\0';
	if (hnctl_num(buf, UINT32_MAX, &a) ||
	    hnctl_num(colon + 1, UINT32_MAX, &b))
		return -1;
	p->src = (uint32_t)a;
	p->dst = (uint32_t)b;
	return 0;
}

const char *hnctl_grant_str(unsigned int result, char *num, size_t len)
{
	const char *name = hn_ctl_grant_name(result);

	if (name)
		return name;
	snprintf(num, len, "%u", result);
	return num;
}
