// SPDX-License-Identifier: GPL-2.0
/*
 * json_pretty.c - JSON text indented (json_pretty.h).  It reads the text
 * once, character by character, knowing only whether it is inside a
 * string: white space outside strings is dropped and made again around
 * brackets, commas and colons.  stdout is captured with open_memstream()
 * (glibc lets a program assign stdout).
 */
#include <stdlib.h>

#include "json_pretty.h"

static void newline(FILE *out, int depth)
{
	fprintf(out, "\n%*s", 2 * depth, "");
}

/* The next character of s[i..n) that is not white space, or 0. */
static char next_char(const char *s, size_t i, size_t n)
{
	for (; i < n; i++)
		if (s[i] != ' ' && s[i] != '\t' && s[i] != '\n' && s[i] != '\r')
			return s[i];
	return 0;
}

void json_pretty(FILE *out, const char *s, size_t n)
{
	int depth = 0, str = 0, esc = 0;
	size_t i;
	char c;

	for (i = 0; i < n; i++) {
		c = s[i];
		if (str) {
			fputc(c, out);
			if (esc)
				esc = 0;
			else if (c == '\\')
				esc = 1;
			else if (c == '"')
				str = 0;
			continue;
		}
		switch (c) {
		case '"':
			str = 1;
			fputc(c, out);
			break;
		case '{':
		case '[':
			fputc(c, out);
			if (next_char(s, i + 1, n) == (c == '{' ? '}' : ']')) {
				while (s[++i] != (c == '{' ? '}' : ']'))
					;
				fputc(s[i], out);
				break;
			}
			newline(out, ++depth);
			break;
		case '}':
		case ']':
			newline(out, depth > 0 ? --depth : 0);
			fputc(c, out);
			break;
		case ',':
			fputc(c, out);
			newline(out, depth);
			break;
		case ':':
			fputs(": ", out);
			break;
		case '\n':
			if (!depth)	/* between values of their own */
				fputc(c, out);
			break;
		case ' ':
		case '\t':
		case '\r':
			break;
		default:
			fputc(c, out);
			break;
		}
	}
}

static FILE *saved;
static char *buf;
static size_t len;

int json_pretty_begin(void)
{
	FILE *f;

	fflush(stdout);
	f = open_memstream(&buf, &len);
	if (!f)
		return -1;
	saved = stdout;
	stdout = f;
	return 0;
}

void json_pretty_end(void)
{
	if (!saved)
		return;
	fclose(stdout);
	stdout = saved;
	saved = NULL;
	json_pretty(stdout, buf, len);
	fflush(stdout);
	free(buf);
	buf = NULL;
}
