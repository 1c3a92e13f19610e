// SPDX-License-Identifier: GPL-2.0
/*
 * hn_zmsg.c - Zydallis's compact 128-bit messages [Z:395, Z:519-533,
 * Z:604-627]: a 64-bit header and 64 bits of data, in the two formats a
 * message has between a coprocessor's decoder tree and a destination
 * queue.  CIMF (Table 5) is what the decoder tree reads: a broadcast
 * code, the destination card's two coordinates and processor (or a code
 * and a multicast bitmap), a word address and the data.  DMF (Table 9)
 * is what leaves for one destination queue: the decoder puts the
 * source's coordinates and processor in the top 15 bits, the concrete
 * destination card in DD0/DD1, moves CDP onto CDD's bits and C and D
 * onto XDD's.  The bit positions follow Table 5's order with the text's
 * two anchors (CDP "moved from bit location 114 to bit location 95";
 * "the upper 15-bits ... replaced with the SD0, SD1, and SP fields").
 */
#include <errno.h>

#include "libhybridnet.h"

/* A field of the 128 bits: its lowest bit and width. */
struct zfield {
	unsigned int lo, width;
};

static const struct zfield cimf_f[] = {
	[HN_CIMF_BC] = { 122, 6 },  [HN_CIMF_U] = { 117, 5 },
	[HN_CIMF_C] = { 116, 1 },   [HN_CIMF_D] = { 115, 1 },
	[HN_CIMF_CDP] = { 113, 2 }, [HN_CIMF_DD0] = { 107, 6 },
	[HN_CIMF_DD1] = { 101, 6 }, [HN_CIMF_DP] = { 98, 3 },
	[HN_CIMF_XDD] = { 96, 2 },  [HN_CIMF_CDD] = { 94, 2 },
	[HN_CIMF_MA] = { 64, 30 },
};

static const struct zfield dmf_f[] = {
	[HN_DMF_SD0] = { 122, 6 }, [HN_DMF_SD1] = { 116, 6 },
	[HN_DMF_SP] = { 113, 3 },  [HN_DMF_DD0] = { 107, 6 },
	[HN_DMF_DD1] = { 101, 6 }, [HN_DMF_DP] = { 98, 3 },
	[HN_DMF_C] = { 97, 1 },    [HN_DMF_D] = { 96, 1 },
	[HN_DMF_CDP] = { 94, 2 },  [HN_DMF_MA] = { 64, 30 },
};

/* Pack @n fields @v of the table @f and @data into @m: -EINVAL if wide */
static int pack(const struct zfield *f, unsigned int n, const uint32_t *v,
		uint64_t data, struct hn_zmsg *m)
{
	unsigned int i;

	m->hi = 0;
	m->lo = data;
	for (i = 0; i < n; i++) {
		if (v[i] >> f[i].width)
			return -EINVAL;
		m->hi |= (uint64_t)v[i] << (f[i].lo - 64);
	}
	return 0;
}

static void unpack(const struct zfield *f, unsigned int n,
		   const struct hn_zmsg *m, uint32_t *v)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		v[i] = (uint32_t)(m->hi >> (f[i].lo - 64)) &
		       ((1U << f[i].width) - 1);
}

int hn_cimf_pack(const uint32_t *v, uint64_t data, struct hn_zmsg *m)
{
	return pack(cimf_f, HN_CIMF_NR, v, data, m);
}

void hn_cimf_unpack(const struct hn_zmsg *m, uint32_t *v)
{
	unpack(cimf_f, HN_CIMF_NR, m, v);
}

int hn_dmf_pack(const uint32_t *v, uint64_t data, struct hn_zmsg *m)
{
	return pack(dmf_f, HN_DMF_NR, v, data, m);
}

void hn_dmf_unpack(const struct hn_zmsg *m, uint32_t *v)
{
	unpack(dmf_f, HN_DMF_NR, m, v);
}

/*
 * The replica a decoder writes for one destination queue [Z:621-627]:
 * the CIMF @c's address, data, processor and codes, with the source's
 * @sd0, @sd1 and @sp and the queue's concrete card @dd0, @dd1.
 */
int hn_cimf_to_dmf(const struct hn_zmsg *c, uint32_t sd0, uint32_t sd1,
		   uint32_t sp, uint32_t dd0, uint32_t dd1, struct hn_zmsg *d)
{
	uint32_t in[HN_CIMF_NR], out[HN_DMF_NR];

	hn_cimf_unpack(c, in);
	out[HN_DMF_SD0] = sd0;
	out[HN_DMF_SD1] = sd1;
	out[HN_DMF_SP] = sp;
	out[HN_DMF_DD0] = dd0;
	out[HN_DMF_DD1] = dd1;
	out[HN_DMF_DP] = in[HN_CIMF_DP];
	out[HN_DMF_C] = in[HN_CIMF_C];
	out[HN_DMF_D] = in[HN_CIMF_D];
	out[HN_DMF_CDP] = in[HN_CIMF_CDP];
	out[HN_DMF_MA] = in[HN_CIMF_MA];
	return hn_dmf_pack(out, c->lo, d);
}
