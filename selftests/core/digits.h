/* SPDX-License-Identifier: GPL-2.0 */
/*
 * digits.h - the tests' own arithmetic on base-k digit vectors, which
 * the topologies' tests (test_topo.c, test_direct.c) compare the engine's
 * with: none of it is the engine's.
 */
#ifndef HN_TEST_DIGITS_H
#define HN_TEST_DIGITS_H

#include "hn_core.h"

static inline u32 ipow(u32 k, u32 n)
{
	u32 v = 1;

	while (n--)
		v *= k;
	return v;
}

/* digit @i of @x in base @k */
static inline u32 digit(u32 x, u32 k, u32 i)
{
	return x / ipow(k, i) % k;
}

#endif
