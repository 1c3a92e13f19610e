// SPDX-License-Identifier: GPL-2.0
/*
 * parse.c - words that hnsim, hntraffic and hnctl read alike (parse.h).
 */
#include "parse.h"

long long hn_parse_ppm(const char *s)
{
	unsigned long long ip = 0, fp = 0, scale = 1000000;
	const char *p = s;
	int digits = 0, pct = 0;

	if (!*p)
		return -1;
	for (; *p >= '0' && *p <= '9'; p++, digits++) {
		ip = ip * 10 + (*p - '0');
		if (ip > 1000000000ULL)
			return -1;
	}
	if (*p == '.') {
		for (p++; *p >= '0' && *p <= '9'; p++, digits++) {
			if (scale > 1) {
				scale /= 10;
				fp += (*p - '0') * scale;
			}
		}
	}
	if (*p == '%') {
		pct = 1;
		p++;
	}
	if (*p || !digits)
		return -1;
	ip = ip * 1000000 + fp;
	return pct ? (long long)(ip / 100) : (long long)ip;
}
