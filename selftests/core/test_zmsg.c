// SPDX-License-Identifier: GPL-2.0
/*
 * test_zmsg.c - Zydallis's compact 128-bit messages (lib/hn_zmsg.c; his
 * C5.1 acceptance): every field of CIMF and DMF packs and unpacks to
 * itself, alone and all at once; DMF's CDP lies at bits 95:94 and its
 * source at 127:113; a field wider than its bits is refused; and the
 * decoder's replica keeps the address, data and codes, takes the source
 * and the concrete card, and moves CDP, C and D as the text says.
 */
#include "harness.h"
#include "../../lib/hn_zmsg.c"

/* splitmix64 */
static uint64_t rnd(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static const unsigned int cimf_width[HN_CIMF_NR] = {
	6, 5, 1, 1, 2, 6, 6, 3, 2, 2, 30 };
static const unsigned int dmf_width[HN_DMF_NR] = {
	6, 6, 3, 6, 6, 3, 1, 1, 2, 30 };

/* Each field alone at its largest, then all at random: round trips. */
static void round_trips(struct __test_metadata *_metadata, unsigned int n,
			const unsigned int *width,
			int (*pk)(const uint32_t *, uint64_t, struct hn_zmsg *),
			void (*up)(const struct hn_zmsg *, uint32_t *))
{
	uint32_t v[16], back[16];
	uint64_t seed = 7, bits = 0;
	struct hn_zmsg m;
	unsigned int i, j, k;

	for (i = 0; i < n; i++) {
		memset(v, 0, sizeof(v));
		v[i] = (1U << width[i]) - 1;
		ASSERT_EQ(0, pk(v, 0, &m));
		EXPECT_EQ(0, m.lo);
		EXPECT_EQ(width[i], (unsigned int)__builtin_popcountll(m.hi));
		EXPECT_EQ(0, bits & m.hi) TH_LOG("field %u overlaps", i);
		bits |= m.hi;
		up(&m, back);
		for (j = 0; j < n; j++)
			EXPECT_EQ(v[j], back[j]) TH_LOG("field %u of %u", j, i);
		v[i] = 1U << width[i];		/* one bit too wide */
		EXPECT_EQ(-EINVAL, pk(v, 0, &m));
	}
	EXPECT_EQ(~0ULL, bits);			/* 64 header bits, all used */
	for (k = 0; k < 1000; k++) {
		for (i = 0; i < n; i++)
			v[i] = (uint32_t)(rnd(&seed) &
					  ((1ULL << width[i]) - 1));
		ASSERT_EQ(0, pk(v, rnd(&seed), &m));
		up(&m, back);
		EXPECT_EQ(0, memcmp(v, back, n * sizeof(*v)));
	}
}

TEST(cimf_round_trips)
{
	round_trips(_metadata, HN_CIMF_NR, cimf_width, hn_cimf_pack,
		    hn_cimf_unpack);
}

TEST(dmf_round_trips)
{
	round_trips(_metadata, HN_DMF_NR, dmf_width, hn_dmf_pack,
		    hn_dmf_unpack);
}

/* [Z:604, Z:627]: CDP at 95:94, the source in the upper 15 bits */
TEST(dmf_places_cdp_and_the_source)
{
	uint32_t v[HN_DMF_NR] = { 0 };
	struct hn_zmsg m;

	v[HN_DMF_CDP] = 3;
	ASSERT_EQ(0, hn_dmf_pack(v, 0, &m));
	EXPECT_EQ(3ULL << (94 - 64), m.hi);
	v[HN_DMF_CDP] = 0;
	v[HN_DMF_SD0] = 63;
	v[HN_DMF_SD1] = 63;
	v[HN_DMF_SP] = 7;
	ASSERT_EQ(0, hn_dmf_pack(v, 0, &m));
	EXPECT_EQ(0x7fffULL << (113 - 64), m.hi);
}

/* [Z:543, Z:621-627]: card (0,0) to (0,1),(0,2),(0,3); the replica to (0,2) */
TEST(decoder_replica)
{
	uint32_t c[HN_CIMF_NR] = { 0 }, d[HN_DMF_NR];
	struct hn_zmsg cm, dm;

	c[HN_CIMF_CDD] = 1;		/* multicast, XDD appended to DD0 */
	c[HN_CIMF_DD0] = 0x0e >> 2;	/* bitmap 00001110: DD0 then XDD */
	c[HN_CIMF_XDD] = 0x0e & 3;
	c[HN_CIMF_DD1] = 0;
	c[HN_CIMF_CDP] = 1;		/* DP is a code */
	c[HN_CIMF_DP] = 1;		/* even processors */
	c[HN_CIMF_C] = 1;
	c[HN_CIMF_D] = 1;
	c[HN_CIMF_MA] = 0x2abcdef;
	ASSERT_EQ(0, hn_cimf_pack(c, 0x1122334455667788ULL, &cm));
	ASSERT_EQ(0, hn_cimf_to_dmf(&cm, 0, 0, 5, 0, 2, &dm));
	hn_dmf_unpack(&dm, d);
	EXPECT_EQ(0, d[HN_DMF_SD0]);
	EXPECT_EQ(5, d[HN_DMF_SP]);
	EXPECT_EQ(0, d[HN_DMF_DD0]);
	EXPECT_EQ(2, d[HN_DMF_DD1]);	/* the concrete card, no bitmap */
	EXPECT_EQ(1, d[HN_DMF_DP]);
	EXPECT_EQ(1, d[HN_DMF_CDP]);	/* moved from 114:113 to 95:94 */
	EXPECT_EQ(1, d[HN_DMF_C]);
	EXPECT_EQ(1, d[HN_DMF_D]);
	EXPECT_EQ(0x2abcdef, d[HN_DMF_MA]);
	EXPECT_EQ(0x1122334455667788ULL, dm.lo);
	EXPECT_EQ(-EINVAL, hn_cimf_to_dmf(&cm, 64, 0, 0, 0, 2, &dm));
}

TEST_HARNESS_MAIN
