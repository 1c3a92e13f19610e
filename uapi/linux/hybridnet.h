/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * hybridnet - emulated hybrid (predictive circuit + wormhole) interconnect.
 *
 * The user-space ABI of the hybridnet module:
 *   - the character device /dev/hybridnet (message header, ioctls);
 *   - the generic netlink family "hybridnet" (reserved section below).
 *
 * Device model: an open file is bound to one virtual node with
 * HN_IOC_BIND.  write() sends exactly one message: a struct
 * hybridnet_msg_hdr followed by hdr.len payload bytes.  read() returns
 * exactly one delivered message in the same layout, with every header
 * field filled in.  Times are virtual nanoseconds of the emulated fabric.
 */
#ifndef _UAPI_LINUX_HYBRIDNET_H
#define _UAPI_LINUX_HYBRIDNET_H

#include <linux/ioctl.h>
#include <linux/types.h>

#define HYBRIDNET_DEV_NAME	"hybridnet"	/* /dev/hybridnet */

/* Limits.  The configured values are in sysfs and in hybridnet_info. */
#define HYBRIDNET_MIN_NODES	2
#define HYBRIDNET_MAX_NODES	4096
#define HYBRIDNET_MAX_SLOTS	64		/* predictive slots, K */
#define HYBRIDNET_MAX_MSG	1048576U	/* ceiling of max_msg_bytes */

/* The tag bit: which switching mode carries a message. */
enum hybridnet_mode {
	HYBRIDNET_MODE_CIRCUIT = 0,	/* predictive circuit, slots 0..K-1 */
	HYBRIDNET_MODE_WORMHOLE = 1,	/* wormhole, slot K */
};

/*
 * The header in front of every message, on write() and on read().
 *
 * write(): dst and len are used; flags must be 0; every other field is
 * ignored (the source is the node the file is bound to).
 * read(): every field is filled in; flags and __reserved are 0.
 */
struct hybridnet_msg_hdr {
	__u32 src;		/* sending node */
	__u32 dst;		/* receiving node */
	__u32 len;		/* payload bytes after the header, >= 1 */
	__u32 flags;		/* none defined yet: must be 0 */
	__u8 mode;		/* enum hybridnet_mode that carried the last byte */
	__u8 tag;		/* enum hybridnet_mode chosen at injection */
	__u16 slot;		/* TDM slot that carried the last byte */
	__u32 __reserved;	/* 0 */
	__u64 t_inject;		/* virtual ns: handed to the NIC */
	__u64 t_deliver;	/* virtual ns: last byte at the receiver */
};

/* HN_IOC_INFO: what this file and the fabric look like now. */
struct hybridnet_info {
	__u32 nodes;		/* N */
	__u32 slots;		/* K predictive slots (wormhole slot is K) */
	__u32 max_msg;		/* largest payload a write() may carry */
	__u32 node;		/* node this file is bound to, or ~0U */
	__u32 nic_room;		/* bound node: free bytes in its NIC buffer */
	__u32 rx_queued;	/* bound node: messages waiting for read() */
	__u32 rx_next_len;	/* bound node: payload bytes of the next one */
	__u32 __reserved;	/* 0 */
	__u64 now;		/* virtual time, ns */
};

#define HYBRIDNET_UNBOUND	(~0U)

/*
 * ioctl magic 0xBE, numbers 0x00-0x0F (free in
 * Documentation/userspace-api/ioctl/ioctl-number.rst).
 */
#define HN_IOC_MAGIC	0xBE
/* Bind this file to a node (__u32 node, passed by pointer). */
#define HN_IOC_BIND	_IOW(HN_IOC_MAGIC, 0x00, __u32)
/* Fill a struct hybridnet_info. */
#define HN_IOC_INFO	_IOR(HN_IOC_MAGIC, 0x01, struct hybridnet_info)

/*
 * ------------------------------------------------------------------------
 * Generic netlink family (reserved: added by a later change).
 *
 * Family name "hybridnet", version 1.  Its commands, attributes,
 * multicast groups and enums go in this section, with the prefix
 * HYBRIDNET_CMD_ / HYBRIDNET_ATTR_ / HYBRIDNET_MCGRP_.
 * ------------------------------------------------------------------------
 */
#define HYBRIDNET_GENL_NAME	"hybridnet"
#define HYBRIDNET_GENL_VERSION	1

/* ---------------------- end of the netlink section ---------------------- */

#endif /* _UAPI_LINUX_HYBRIDNET_H */
