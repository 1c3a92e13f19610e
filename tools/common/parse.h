/* SPDX-License-Identifier: GPL-2.0 */
/*
 * parse.h - words that hnsim, hntraffic and hnctl read alike (parse.c,
 * compiled into each of them).
 */
#ifndef HN_TOOLS_PARSE_H
#define HN_TOOLS_PARSE_H

/*
 * A ratio in parts per million: "0.35", "35%", "1" -> 350000, 350000,
 * 1000000.  Digits after the sixth decimal are dropped (after the fourth
 * with '%'); at most 10^9 before the point.  -1 if @s is not such a
 * number.  The caller checks the range.
 */
long long hn_parse_ppm(const char *s);

#endif /* HN_TOOLS_PARSE_H */
