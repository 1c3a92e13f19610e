/* SPDX-License-Identifier: GPL-2.0 */
/*
 * json_pretty.h - --pretty for the tools that print JSON with printf
 * (hnsim, hntraffic): what they print to stdout between the two calls is
 * kept in memory, then printed again indented as hnctl -j -p indents:
 * one member or element per line, two spaces a level, ": " after a key,
 * "{}" and "[]" when empty.  Several JSON values in a row stay on lines
 * of their own.
 */
#ifndef HN_JSON_PRETTY_H
#define HN_JSON_PRETTY_H

#include <stddef.h>
#include <stdio.h>

/* Print the JSON text @s (@n bytes) to @out, indented. */
void json_pretty(FILE *out, const char *s, size_t n);

/* stdout into memory from now on: 0, or -1 (stdout is left alone then). */
int json_pretty_begin(void);
/* stdout back, and what it got since json_pretty_begin() indented on it. */
void json_pretty_end(void);

#endif /* HN_JSON_PRETTY_H */
