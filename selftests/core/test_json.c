// SPDX-License-Identifier: GPL-2.0
/*
 * test_json.c - hnctl's JSON writer (tools/hnctl/json.c, compiled in
 * here): commas and indentation stay right however deep the document
 * nests; it once kept 16 levels on a fixed stack and wrote past it.
 */
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "../../tools/hnctl/json.c"

#define DEEP	40

/* What the writer prints to stdout while @fn runs, NUL-ended. */
static char *capture(void (*fn)(void))
{
	FILE *saved = stdout, *mem;
	char *buf = NULL;
	size_t len = 0;

	fflush(stdout);
	mem = open_memstream(&buf, &len);
	if (!mem)
		return NULL;
	stdout = mem;
	fn();
	fclose(mem);
	stdout = saved;
	return buf;
}

/* DEEP arrays in one another, each with a number before the next one. */
static void nest(void)
{
	int i;

	for (i = 0; i < DEEP; i++) {
		j_arr(NULL);
		j_u64(NULL, i);
	}
	for (i = 0; i < DEEP; i++)
		j_arr_end();
	j_end();
}

static void nest_pretty(void)
{
	j_pretty(1);
	nest();
	j_pretty(0);
}

TEST(deep_compact)
{
	char want[DEEP * 8 + 8], *got;
	size_t n = 0;
	int i;

	for (i = 0; i < DEEP; i++)
		n += sprintf(want + n, "%s[%d", i ? "," : "", i);
	for (i = 0; i < DEEP; i++)
		want[n++] = ']';
	strcpy(want + n, "\n");
	got = capture(nest);
	ASSERT_NE(NULL, got);
	EXPECT_STREQ(want, got);
	free(got);
}

/* "[" then at each level its number and the next "[" on lines of their own */
TEST(deep_pretty)
{
	char *want = malloc(DEEP * DEEP * 8), *got;
	size_t n = 0;
	int i;

	ASSERT_NE(NULL, want);
	n += sprintf(want + n, "[");
	for (i = 0; i < DEEP; i++) {
		n += sprintf(want + n, "\n%*s%d", 2 * (i + 1), "", i);
		if (i + 1 < DEEP)
			n += sprintf(want + n, ",\n%*s[", 2 * (i + 1), "");
	}
	for (i = DEEP - 1; i >= 0; i--)
		n += sprintf(want + n, "\n%*s]", 2 * i, "");
	strcpy(want + n, "\n");
	got = capture(nest_pretty);
	ASSERT_NE(NULL, got);
	EXPECT_STREQ(want, got);
	free(got);
	free(want);
}

static void members(void)
{
	j_obj(NULL);
	j_u64("a", 1);
	j_obj("b");
	j_str("c", "x\"y");
	j_obj_end();
	j_bool("d", 1);
	j_obj_end();
	j_end();
}

/* after a deep document, a shallow one is as it always was */
TEST(after_deep)
{
	char *got;

	free(capture(nest));
	got = capture(members);
	ASSERT_NE(NULL, got);
	EXPECT_STREQ("{\"a\":1,\"b\":{\"c\":\"x\\\"y\"},\"d\":true}\n", got);
	free(got);
}

TEST_HARNESS_MAIN
