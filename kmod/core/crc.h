/* SPDX-License-Identifier: GPL-2.0 */
/*
 * crc.h - the CRC-32 a receiving NIC checks on every message (Woods-
 * Corwin's end-to-end checksum [W:289-291]; docs/model.md "Exactly once").
 */
#ifndef HN_CRC_H
#define HN_CRC_H

#include "compat.h"

/*
 * IEEE 802.3's CRC-32 (reflected, polynomial 0xedb88320): start with
 * @crc = 0, feed the bytes in any number of pieces, in order.
 */
u32 hn_crc32(u32 crc, const u8 *p, size_t len);

#endif /* HN_CRC_H */
