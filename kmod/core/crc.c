// SPDX-License-Identifier: GPL-2.0
/*
 * crc.c - CRC-32 (IEEE 802.3: reflected, polynomial 0xedb88320, initial
 * and final value all ones), four bits a step from a table of 16.  The
 * receiving NIC computes it over a message as it arrived (idem.c).
 */
#include "crc.h"

/* the remainder of each 4-bit value, reflected */
static const u32 crc_nibble[16] = {
	0x00000000, 0x1db71064, 0x3b6e20c8, 0x26d930ac,
	0x76dc4190, 0x6b6b51f4, 0x4db26158, 0x5005713c,
	0xedb88320, 0xf00f9344, 0xd6d6a3e8, 0xcb61b38c,
	0x9b64c2b0, 0x86d3d2d4, 0xa00ae278, 0xbdbdf21c,
};

u32 hn_crc32(u32 crc, const u8 *p, size_t len)
{
	crc = ~crc;
	while (len--) {
		crc ^= *p++;
		crc = crc >> 4 ^ crc_nibble[crc & 15];
		crc = crc >> 4 ^ crc_nibble[crc & 15];
	}
	return ~crc;
}
