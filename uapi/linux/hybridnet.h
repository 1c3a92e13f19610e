/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * hybridnet - emulated hybrid (predictive circuit + wormhole) interconnect.
 *
 * The user-space ABI of the hybridnet module:
 *   - the character device /dev/hybridnet (message header, ioctls);
 *   - the generic netlink family "hybridnet" (reserved section below).
 *
 * Fabrics: the module runs any number of fabrics, each an instance of
 * the emulated interconnect with its own configuration, nodes, clock and
 * statistics, numbered 0..HYBRIDNET_MAX_FABRICS-1 (fabric N's sysfs
 * directory is /sys/class/hybridnet/fabricN).  A fabric belongs to the
 * network namespace it was made in: only there can it be named, bound or
 * commanded, and it goes when that namespace ends.  The module's
 * parameters make fabric 0 at load, in the initial namespace.  "The first
 * fabric" of a namespace is its fabric of the lowest number.
 *
 * Device model: an open file of /dev/hybridnet (one device for every
 * fabric) is bound to one virtual node of one fabric with
 * HYBRIDNET_IOC_BIND2 (or HYBRIDNET_IOC_BIND: a node of the first
 * fabric).  write() sends exactly one message: a struct
 * hybridnet_msg_hdr followed by hdr.len payload bytes.  read() returns
 * exactly one delivered message in the same layout, with every header
 * field filled in.  Times are virtual nanoseconds of the emulated fabric.
 * A file bound to a fabric that has been deleted (its namespace ended)
 * gets ENODEV from every call but close().
 *
 * Versions of the device's ABI (HYBRIDNET_DEV_VERSION):
 *   1  one fabric: HYBRIDNET_IOC_BIND, HYBRIDNET_IOC_INFO, sysfs
 *      /sys/class/misc/hybridnet/;
 *   2  fabrics: HYBRIDNET_IOC_BIND2; hybridnet_info.fabric, which was
 *      __reserved (0, and fabric 0 is what version 1 had); each fabric's
 *      sysfs directory /sys/class/hybridnet/fabricN/ (the misc device's
 *      keeps only what every misc device has).  A program of version 1
 *      runs unchanged, on the first fabric of its network namespace.
 * The netlink family keeps its version 1: FABRIC_NEW, FABRIC_DEL, the
 * FABRIC_GET dump and HYBRIDNET_ATTR_FABRIC were added to it, nothing
 * changed.
 */
#ifndef _UAPI_LINUX_HYBRIDNET_H
#define _UAPI_LINUX_HYBRIDNET_H

#include <linux/ioctl.h>
#include <linux/types.h>

#define HYBRIDNET_DEV_NAME	"hybridnet"	/* /dev/hybridnet */
#define HYBRIDNET_DEV_VERSION	2		/* the device's ABI, above */

/* Limits.  The configured values are in sysfs and in hybridnet_info. */
#define HYBRIDNET_MIN_NODES	2
#define HYBRIDNET_MAX_NODES	4096
#define HYBRIDNET_MAX_SLOTS	64		/* predictive slots, K */
#define HYBRIDNET_MAX_MSG	1048576U	/* ceiling of max_msg_bytes */
#define HYBRIDNET_MAX_PATH	11		/* fat tree: levels - 1, w^l <= 4096 */
#define HYBRIDNET_PORT_NONE	0xff		/* in a PATH: no port given */
#define HYBRIDNET_MAX_FABRICS	256		/* fabrics 0..255 at once */
#define HYBRIDNET_MAX_DEADLOCK	64		/* channels in a DEADLOCK nest */
#define HYBRIDNET_FABRIC_FIRST	(~0U)		/* bind2: the namespace's first */

/* The tag bit: which switching mode carries a message. */
enum hybridnet_mode {
	HYBRIDNET_MODE_CIRCUIT = 0,	/* predictive circuit, slots 0..K-1 */
	HYBRIDNET_MODE_WORMHOLE = 1,	/* wormhole, slot K */
};

/*
 * The header in front of every message, on write() and on read().
 *
 * write(): dst, len and flags are used; every other field is ignored
 * (the source is the node the file is bound to).
 * read(): every field is filled in; __reserved is 0.
 */
struct hybridnet_msg_hdr {
	__u32 src;		/* sending node */
	__u32 dst;		/* receiving node */
	__u32 len;		/* payload bytes after the header, >= 1 */
	__u32 flags;		/* HYBRIDNET_MSG_PRIO, _SWITCHING, _MULTICAST */
	__u8 mode;		/* enum hybridnet_mode that carried the last byte */
	__u8 tag;		/* enum hybridnet_mode chosen at injection */
	__u16 slot;		/* TDM slot that carried the last byte */
	__u32 __reserved;	/* 0 */
	__u64 t_inject;		/* virtual ns: handed to the NIC */
	__u64 t_deliver;	/* virtual ns: last byte at the receiver */
};

/*
 * hybridnet_msg_hdr.flags: the message's priority, 0..15, in its low four
 * bits.  With switching drop a header takes the channel a message of
 * lower priority holds, which its source then sends again (Woods-Corwin's
 * preemption); equal priorities never preempt, and the other switchings
 * ignore it.  Priority 15 is the fabric's own: writing it needs
 * CAP_NET_ADMIN over the fabric's network namespace (EPERM otherwise).
 * An interface sends a frame at its skb->priority, at most 14.
 */
#define HYBRIDNET_MSG_PRIO		0xfU
#define HYBRIDNET_PRIO_RESERVED		15

/*
 * hybridnet_msg_hdr.flags, bits 4 and 5: how the message crosses the
 * switches outside the circuits.  0: as the fabric's switching says;
 * otherwise 1 + HYBRIDNET_SWITCHING_WORMHOLE, _VCT or _SAF, whatever the
 * fabric's (Zydallis's router stores and forwards some messages and
 * passes others as worms).  EINVAL on a fabric of switching drop, and for
 * cut-through or store-and-forward where vc_flits buffers hold less than
 * the message's worm.  read() gives it back as written; a message a
 * circuit carries is not switched, and interfaces send by the fabric's.
 */
#define HYBRIDNET_MSG_SWITCHING		0x30U
#define HYBRIDNET_MSG_SWITCHING_SHIFT	4

/*
 * hybridnet_msg_hdr.flags, bit 6: one write() to many nodes, replicated
 * by the sending NIC (Zydallis's multicast).  dst is then the number of
 * __u32 destination entries between the header and the payload, 1 to
 * HYBRIDNET_MCAST_MAX, and len is still the payload's.  An entry names a
 * group of HYBRIDNET_MCAST_GROUP nodes (group g: nodes 8g to 8g + 7) and
 * a bitmap of its members, bit i for node 8g + i: HYBRIDNET_MCAST(g, bits),
 * each group in one entry at most; or it is HYBRIDNET_MCAST_ALL, alone:
 * every node but the sender (a broadcast).  The NIC makes one injection a
 * group and one copy a member, each an ordinary message to that member:
 * read() gives dst as the reader's node and this flag set.  All copies go
 * or none: EAGAIN until the NIC has room for them all, EMSGSIZE when it
 * never can, EHOSTUNREACH when a fault cut any member off.  Interfaces
 * send their Ethernet broadcast and multicast frames so.
 * HYBRIDNET_MCAST_CODE(c) is the bitmap of Zydallis's processor code c
 * (0..7): all, even, odd, {0,1,2,4}, {0-3}, {4-7}, {0,1,4,5}, {2,3,6,7}.
 */
#define HYBRIDNET_MSG_MULTICAST		0x40U
#define HYBRIDNET_MCAST_GROUP		8
#define HYBRIDNET_MCAST_MAX		(HYBRIDNET_MAX_NODES / HYBRIDNET_MCAST_GROUP)
#define HYBRIDNET_MCAST(g, bits)	((__u32)(g) << 8 | ((bits) & 0xffU))
#define HYBRIDNET_MCAST_ALL		0xffffffffU
#define HYBRIDNET_MCAST_CODE(c)	\
	((__u8)(0xcc33f00f17aa55ffULL >> (8 * ((c) & 7))))

/*
 * HYBRIDNET_IOC_INFO: what this file and its fabric look like now; an
 * unbound file is told of the first fabric of the caller's network
 * namespace (ENODEV when it has none).
 */
struct hybridnet_info {
	__u32 nodes;		/* N */
	__u32 slots;		/* K predictive slots (wormhole slot is K) */
	__u32 max_msg;		/* largest payload a write() may carry */
	__u32 node;		/* node this file is bound to, or ~0U */
	__u32 nic_room;		/* bound node: free bytes in its NIC buffer */
	__u32 rx_queued;	/* bound node: messages waiting for read() */
	__u32 rx_next_len;	/* bound node: payload bytes of the next one */
	__u32 fabric;		/* the fabric described: its number */
	__u64 now;		/* virtual time, ns */
};

#define HYBRIDNET_UNBOUND	(~0U)

/*
 * HYBRIDNET_IOC_BIND2: bind this file to @node of @fabric (a fabric of the
 * caller's network namespace, or HYBRIDNET_FABRIC_FIRST: its first).
 * @flags and __reserved must be 0 (EINVAL otherwise): later versions give
 * them a meaning without a new ioctl.  ENODEV: no such fabric there.
 */
struct hybridnet_bind {
	__u32 fabric;
	__u32 node;
	__u32 flags;		/* none defined yet: 0 */
	__u32 __reserved[5];	/* 0 */
};

/*
 * ioctl magic 0xBE, numbers 0x00-0x0F (free in
 * Documentation/userspace-api/ioctl/ioctl-number.rst).
 */
#define HYBRIDNET_IOC_MAGIC	0xBE
/*
 * Bind this file to a node (__u32 node, passed by pointer) of the first
 * fabric of the caller's network namespace: HYBRIDNET_IOC_BIND2 with
 * HYBRIDNET_FABRIC_FIRST.
 */
#define HYBRIDNET_IOC_BIND	_IOW(HYBRIDNET_IOC_MAGIC, 0x00, __u32)
/* Fill a struct hybridnet_info. */
#define HYBRIDNET_IOC_INFO	_IOR(HYBRIDNET_IOC_MAGIC, 0x01, \
				     struct hybridnet_info)
/* Bind this file to a node of a fabric (struct hybridnet_bind). */
#define HYBRIDNET_IOC_BIND2	_IOW(HYBRIDNET_IOC_MAGIC, 0x02, \
				     struct hybridnet_bind)

/* The names of version 1, kept for programs written against them. */
#define HN_IOC_MAGIC	HYBRIDNET_IOC_MAGIC
#define HN_IOC_BIND	HYBRIDNET_IOC_BIND
#define HN_IOC_INFO	HYBRIDNET_IOC_INFO

/*
 * ------------------------------------------------------------------------
 * The capture interface (hnmon0): every message that crosses the fabric,
 * from a file, a network interface or the in-kernel generator, as one
 * received Ethernet frame (ARPHRD_ETHER, pcap's LINKTYPE_ETHERNET):
 *
 *   destination MAC   the destination node's, 02:68:6e:00:HH:LL
 *   source MAC        the source node's
 *   EtherType         HYBRIDNET_CAPTURE_ETHERTYPE
 *   struct hybridnet_capture_hdr (hdr_len bytes)
 *   the first caplen bytes of the message's payload
 *
 * Every field of the header is big-endian (network byte order).  A reader
 * checks magic and version, and finds the payload hdr_len bytes after the
 * header's start: a later version may append fields, never move them.
 * A message is captured as the fabric delivers it (t_deliver is known),
 * in delivery order; its payload is kept up to the interface's snaplen
 * (caplen < len: truncated).  The generator's messages have no payload
 * (caplen 0).  seq counts the messages the interface was offered while
 * up, kept or not: a gap in seq is a message the capture could not keep.
 * ------------------------------------------------------------------------
 */
#define HYBRIDNET_CAPTURE_ETHERTYPE	0x88B5	/* IEEE 802 local experimental 1 */
#define HYBRIDNET_CAPTURE_MAGIC		0x686E	/* "hn" */
#define HYBRIDNET_CAPTURE_VERSION	1
#define HYBRIDNET_CAPTURE_SNAPLEN_MAX	65535	/* payload bytes kept, at most */

/* hybridnet_capture_hdr.from: who sent the message. */
enum hybridnet_capture_from {
	HYBRIDNET_CAPTURE_FROM_FILE,		/* a write() to /dev/hybridnet */
	HYBRIDNET_CAPTURE_FROM_NETDEV,		/* an interface: an Ethernet frame */
	HYBRIDNET_CAPTURE_FROM_GENERATOR,	/* the generator: no payload */
};

struct hybridnet_capture_hdr {
	__be16 magic;		/* HYBRIDNET_CAPTURE_MAGIC */
	__u8 version;		/* HYBRIDNET_CAPTURE_VERSION */
	__u8 hdr_len;		/* this header's bytes: the payload follows */
	__u8 from;		/* enum hybridnet_capture_from */
	__u8 mode;		/* enum hybridnet_mode that carried the last byte */
	__u8 tag;		/* enum hybridnet_mode chosen at injection */
	__u8 flags;		/* none defined yet: 0 */
	__be16 slot;		/* TDM slot that carried the last byte */
	__be16 fabric;		/* the fabric's number */
	__be32 seq;		/* messages offered to the interface, mod 2^32 */
	__be32 src;		/* sending node */
	__be32 dst;		/* receiving node */
	__be32 len;		/* the message's payload bytes */
	__be32 caplen;		/* of which here, after the header */
	__be64 t_inject;	/* virtual ns: handed to the NIC */
	__be64 t_deliver;	/* virtual ns: last byte at the receiver */
} __attribute__((packed));

/*
 * ------------------------------------------------------------------------
 * The link kind "hybridnet" of rtnetlink: a network interface for a node
 * (RTM_NEWLINK with IFLA_INFO_KIND "hybridnet"; "ip link add NAME type
 * hybridnet [fabric F] [node N]" with iproute2's plugin link_hybridnet.so).
 * Its attributes, in IFLA_INFO_DATA, are these; RTM_GETLINK gives them
 * back.  Without FABRIC the interface is of the first fabric of the
 * caller's network namespace; without NODE it takes the lowest node that
 * has no owner.  Creating one needs CAP_NET_ADMIN in the user namespace
 * that owns the fabric's network namespace.
 */
enum {
	IFLA_HYBRIDNET_UNSPEC,
	IFLA_HYBRIDNET_FABRIC,		/* u32: a fabric of the caller's netns */
	IFLA_HYBRIDNET_NODE,		/* u32: the node, below the fabric's nodes */
	__IFLA_HYBRIDNET_MAX
};

#define IFLA_HYBRIDNET_MAX	(__IFLA_HYBRIDNET_MAX - 1)

/*
 * ------------------------------------------------------------------------
 * Generic netlink family "hybridnet", version 1.
 *
 * Documentation/netlink/specs/hybridnet.yaml describes the same family;
 * a test checks that its numbers agree with this header.
 *
 * The family works in every network namespace, on that namespace's
 * fabrics.  Every command on a fabric takes HYBRIDNET_ATTR_FABRIC, its
 * number; without it, the command acts on the first fabric of the
 * caller's namespace.  A fabric that is not in the caller's namespace
 * is refused with ENODEV ("no fabric N in this network namespace").
 * FABRIC_NEW makes a fabric in the caller's namespace, configured as
 * CONFIG_SET would configure it (the attributes not given: the profile's
 * values; PROFILE, CLOCK and PACE_PPM too), and replies with its FABRIC.
 * FABRIC_DEL deletes the fabric FABRIC (required), with its capture
 * interface and the generator's run, and is refused with EBUSY while a
 * node is held, by a file or a network interface (the extack names it,
 * as a CONFIG_SET that needs a rebuild does); the end of the namespace
 * deletes its fabrics whatever holds them, their interfaces too.
 * FABRIC_GET gives a fabric (do) or every fabric of the namespace, by
 * number (dump): FABRIC, NODES, SLOTS, its shape and NOW (below).  Every event carries the
 * FABRIC it is about and goes to that fabric's namespace only.
 *
 * Every command that changes state needs CAP_NET_ADMIN over the user
 * namespace that owns the network namespace (so over the fabric's),
 * FABRIC_DEL too; FABRIC_NEW needs CAP_NET_ADMIN in the initial user
 * namespace (a fabric holds the host's memory and a kthread, and the
 * numbers are shared: the root of a user namespace of its own commands
 * the fabrics of its network namespace, but makes none).  Attributes are
 * validated strictly; a refusal carries an extack message naming the
 * attribute, node or slot at fault.  Pairs (source, destination) travel
 * as nested HYBRIDNET_ATTR_PAIR attributes holding HYBRIDNET_ATTR_SRC
 * and HYBRIDNET_ATTR_DST.  Several HYBRIDNET_ATTR_SLOT_CONFIG nests for one
 * slot in one PRELOAD are joined (a nest holds at most 64 KiB); in events
 * each slot-config carries HYBRIDNET_ATTR_COUNT, its number of pairs, and
 * the pairs themselves only while the event stays small.
 *
 * Replies say what a command changed besides what it was asked:
 * - PREDICT: one GRANT nest per request, in order.  A refused one holds
 *   one HYBRIDNET_ATTR_CONFLICT nest per predictive slot 0..K-1, saying
 *   why that slot could not take it: PINNED (the slot is below
 *   pin-slots), or the PAIR nests of the one or two circuits of the slot
 *   that hold the request's source (PAIR.src = SRC) or destination
 *   (PAIR.dst = DST).  The reply's HYBRIDNET_ATTR_SLOTS is K; conflicts
 *   are left out of the refusals after the first 64 KiB of them.
 * - PRELOAD: one SLOT_CONFIG nest per slot installed: SLOT, COUNT (its
 *   circuits now) and RELEASED (the circuits it held before, all
 *   replaced; at level 2 those of the second-level working set).
 * - CONFIG_SET: REBUILT when the change needed a new fabric, which
 *   released every circuit (RELEASED of them) and reset the statistics
 *   and the virtual time; nothing else otherwise.
 * - CAPTURE_GET: the capture interface's IFNAME, IFINDEX, NETNS_COOKIE,
 *   SNAPLEN, RING and counters (CAPTURED, TRUNCATED, RX_DROP_NO_MEM,
 *   RX_DROP_RING_FULL); nothing when there is none.
 *
 * The fabric's statistics (docs/model.md "Statistics"): FABRIC_GET gives
 * its shape (TOPOLOGY, LEVELS, WIDTH, NODES, SWITCHES, RADIX, LINKS,
 * MAX_HOPS) and NOW.  The LINK_GET dump gives one message per link: LINK,
 * NOW and two CHANNEL nests (DIR, the sender's SWITCH and PORT or NODE, a
 * STATS nest: BYTES, WORMS, BUSY_NS, CREDIT_STALLS, BUF_PEAK,
 * BUF_BYTE_NS); the SWITCH_GET dump one per switch: SWITCH, LEVEL, NOW,
 * STATS (BYTES, WORMS, BLOCKED_NS, CREDIT_STALLS, BUF_PEAK, BUF_BYTE_NS,
 * BUF_BYTES, HELD).  Utilisation is BUSY_NS over NOW, mean occupancy
 * BUF_BYTE_NS over NOW (since the last STATS_RESET or rebuild).  A LINK or
 * SWITCH in the request restricts the dump to that one.  The crossbar
 * is one switch, switch 0, whose port p is node p's link.  A rebuild
 * during a dump sets NLM_F_DUMP_INTR.
 *
 * Faults (docs/model.md "Faults"): FAULT_SET takes DOWN (1 down, 0 up)
 * and one of: a LINK by number, NODE (its link), SWITCH and PORT (the
 * link on that port), SWITCH alone (the switch), or RANDOM, a count of
 * links between switches to take down, chosen among those up by SEED (1
 * when absent; DOWN 1 only).  Circuits over a dead link are released.
 * EOPNOTSUPP under pure TDM (HYBRIDNET_POL_NO_W).  Its event gives DOWN,
 * RELEASED (the circuits released), and LINK or SWITCH with its NAME
 * ("sw1.3/up2", docs/names.md), or RANDOM and SEED.  FABRIC_GET gives
 * LINKS_DOWN and SWITCHES_DOWN, LINK_GET a link's DOWN and DEAD (down, or
 * a switch at an end is), SWITCH_GET a switch's DOWN.  A rebuild brings
 * every link and switch up.  Under switching drop with DILATION 2 or
 * more, LINK_CHANNEL J with a link (LINK, NODE, or SWITCH and PORT) takes
 * channel J of it down alone, or brings it up (EBUSY for the last of the
 * link's up: take the link down), and RANDOM_CHANNELS a count of channels
 * of links between switches down, chosen by SEED, every link keeping one;
 * their events give LINK, LINK_CHANNEL and NAME ("sw1.3/up2/c1"), or
 * RANDOM_CHANNELS and SEED; FABRIC_GET gives CHANNELS_DOWN.
 *
 * A switch's own switching (docs/model.md "A switch's own switching"):
 * SWITCH_SET takes SWITCH and SWITCHING, enum hybridnet_switching but
 * drop, which the switch applies to the worms it switches instead of the
 * fabric's (a message's own still comes first); without SWITCHING the
 * switch goes back to the fabric's.  EOPNOTSUPP on switching drop, EINVAL
 * for a switch the fabric has not, for drop, and for vct or saf where
 * vc-flits buffers hold less than a worm, EBUSY while worms are in the
 * fabric; the extack says which.  Its event (SWITCHING) gives SWITCH, its
 * NAME ("sw1.0") and SWITCHING, absent when it is the fabric's again;
 * SWITCH_GET gives a switch's SWITCHING when it has one of its own.  A
 * rebuild takes every switch back to the fabric's.
 *
 * Per pair: the PAIR_GET dump gives one message per (source, destination)
 * pair of the engine's pair table (the pairs that delivered since the
 * last STATS_RESET or rebuild, in the order of their first delivery, at
 * most STATS PAIRS_MAX of them): SRC, DST, NOW and a STATS nest
 * (RX_MSGS_CIRCUIT, RX_MSGS_WORMHOLE, RX_BYTES_CIRCUIT, RX_BYTES_WORMHOLE,
 * LAT_MEAN_CIRCUIT_NS, LAT_MEAN_WORMHOLE_NS).  The messages of pairs the
 * table had no room for are STATS_GET's PAIR_OVERFLOW_MSGS and _BYTES.
 * A SRC or DST in the request restricts the dump to that source or
 * destination.  A reset or rebuild during the dump sets NLM_F_DUMP_INTR.
 * ------------------------------------------------------------------------
 */
#define HYBRIDNET_GENL_NAME	"hybridnet"
#define HYBRIDNET_GENL_VERSION	1
#define HYBRIDNET_MCGRP_EVENTS	"events"

enum hybridnet_cmd {
	HYBRIDNET_CMD_UNSPEC,
	HYBRIDNET_CMD_CONFIG_GET,	/* reply: the configuration */
	HYBRIDNET_CMD_CONFIG_SET,	/* admin: change configuration values */
	HYBRIDNET_CMD_PRELOAD,		/* admin: install whole slot configs */
	HYBRIDNET_CMD_PREDICT,		/* admin: predicted requests -> grants */
	HYBRIDNET_CMD_RELEASE,		/* admin: one circuit, a slot or all */
	HYBRIDNET_CMD_CIRCUIT_GET,	/* dump: every circuit (slot, src, dst) */
	HYBRIDNET_CMD_STATS_GET,	/* do: global; dump: one per node */
	HYBRIDNET_CMD_STATS_RESET,	/* admin: clear statistics */
	HYBRIDNET_CMD_EVENT,		/* notification on the events group */
	HYBRIDNET_CMD_SCHED_RUN,	/* admin: run a scheduler on requests */
	HYBRIDNET_CMD_TRAFFIC_START,	/* admin: start the in-kernel generator */
	HYBRIDNET_CMD_TRAFFIC_STOP,	/* admin: stop it */
	HYBRIDNET_CMD_TRAFFIC_GET,	/* the generator's state and results */
	HYBRIDNET_CMD_FABRIC_GET,	/* do: a fabric; dump: the namespace's */
	HYBRIDNET_CMD_LINK_GET,		/* dump: one message per link */
	HYBRIDNET_CMD_SWITCH_GET,	/* dump: one message per switch */
	HYBRIDNET_CMD_NETDEV_DEL,	/* admin: remove an interface */
	HYBRIDNET_CMD_NETDEV_GET,	/* dump: every interface, by node */
	HYBRIDNET_CMD_CAPTURE_ON,	/* admin: make the capture interface */
	HYBRIDNET_CMD_CAPTURE_OFF,	/* admin: remove it */
	HYBRIDNET_CMD_CAPTURE_GET,	/* it and its counters, if any */
	HYBRIDNET_CMD_PAIR_GET,		/* dump: one message per pair */
	HYBRIDNET_CMD_FABRIC_NEW,	/* admin: make a fabric; reply: FABRIC */
	HYBRIDNET_CMD_FABRIC_DEL,	/* admin: delete the fabric FABRIC */
	HYBRIDNET_CMD_FAULT_SET,	/* admin: a link or switch down or up */
	HYBRIDNET_CMD_SWITCH_SET,	/* admin: a switch's own switching */

	__HYBRIDNET_CMD_MAX,
	HYBRIDNET_CMD_MAX = __HYBRIDNET_CMD_MAX - 1
};

enum hybridnet_attr {
	HYBRIDNET_ATTR_UNSPEC,
	HYBRIDNET_ATTR_PAD,		/* alignment of u64 attributes */

	/* configuration (CONFIG_GET reply, CONFIG_SET request, events) */
	HYBRIDNET_ATTR_NODES,		/* u32: N, 2..4096 */
	HYBRIDNET_ATTR_SLOTS,		/* u32: K predictive slots, 0..64 */
	HYBRIDNET_ATTR_POLICY,		/* u32: HYBRIDNET_POL_* flags */
	HYBRIDNET_ATTR_LINK_MBPS,	/* u32 */
	HYBRIDNET_ATTR_SLOT_P_NS,	/* u32: predictive slot, NUM_P */
	HYBRIDNET_ATTR_SLOT_W_NS,	/* u32: wormhole slot, NUM_W */
	HYBRIDNET_ATTR_GUARD_NS,	/* u32 */
	HYBRIDNET_ATTR_SCHED_NS,	/* u32 */
	HYBRIDNET_ATTR_SETUP_NS,	/* u32 */
	HYBRIDNET_ATTR_WH_FIRST_NS,	/* u32 */
	HYBRIDNET_ATTR_WH_FLIT_NS,	/* u32 */
	HYBRIDNET_ATTR_FLIT_BYTES,	/* u32 */
	HYBRIDNET_ATTR_WORM_BYTES,	/* u32 */
	HYBRIDNET_ATTR_WIRE_NS,		/* u32 */
	HYBRIDNET_ATTR_NIC_NS,		/* u32 */
	HYBRIDNET_ATTR_FABRIC_NS,	/* u32 */
	HYBRIDNET_ATTR_NIC_BUF_BYTES,	/* u32 */
	HYBRIDNET_ATTR_SW_BUF_BYTES,	/* u32 */
	HYBRIDNET_ATTR_RX_BUF_BYTES,	/* u32 */
	HYBRIDNET_ATTR_MAX_MSG_BYTES,	/* u32 */
	HYBRIDNET_ATTR_IDLE_TIMEOUT_NS,	/* u64: 0 = never */
	HYBRIDNET_ATTR_PIN_SLOTS,	/* u32: slots kept for preloads */
	HYBRIDNET_ATTR_PROFILE,		/* string: "ding4", "ding5" */
	HYBRIDNET_ATTR_CLOCK,		/* u32: enum hybridnet_clock */
	HYBRIDNET_ATTR_PACE_PPM,	/* u32: paced: virtual ns per wall ns, ppm */

	/* circuits */
	HYBRIDNET_ATTR_SLOT,		/* u32: 0..K-1 */
	HYBRIDNET_ATTR_SRC,		/* u32: node */
	HYBRIDNET_ATTR_DST,		/* u32: node */
	HYBRIDNET_ATTR_PAIR,		/* nest, repeated: SRC, DST */
	HYBRIDNET_ATTR_SLOT_CONFIG,	/* nest, repeated: SLOT, PAIR... */
	HYBRIDNET_ATTR_GRANT,		/* nest, repeated: SRC, DST, SLOT, RESULT */
	HYBRIDNET_ATTR_RESULT,		/* u32: enum hybridnet_grant */
	HYBRIDNET_ATTR_ALL,		/* flag: RELEASE every circuit */
	HYBRIDNET_ATTR_PHASE,		/* string: name of a preloaded phase */
	HYBRIDNET_ATTR_GENERATION,	/* u32: circuit table generation */

	/* statistics */
	HYBRIDNET_ATTR_NODE,		/* u32 */
	HYBRIDNET_ATTR_STATS,		/* nest: enum hybridnet_stat, u64 each */
	HYBRIDNET_ATTR_SLOT_STATS,	/* nest, repeated: SLOT, STATS */
	HYBRIDNET_ATTR_NOW,		/* u64: virtual time, ns */

	/* events */
	HYBRIDNET_ATTR_EVENT,		/* u32: enum hybridnet_event */

	/* the module's predictive scheduler (configuration) */
	HYBRIDNET_ATTR_PREDICT_ALGO,	/* u32: enum hybridnet_predict */
	HYBRIDNET_ATTR_PREDICT_KSTEP,	/* u32: K of the K-step matching */
	HYBRIDNET_ATTR_EVICT_ALGO,	/* u32: enum hybridnet_evict */
	HYBRIDNET_ATTR_EVICT_COUNT,	/* u32: the counter predictor's threshold */
	HYBRIDNET_ATTR_WH_OVERLAP,	/* u32: 1: arbitration overlaps worms */
	HYBRIDNET_ATTR_SERDES_NS,	/* u32: (de)serialiser, part of wire */

	/* SCHED_RUN: any scheduler on a request set */
	HYBRIDNET_ATTR_TOPOLOGY,	/* string: crossbar:N or fattree:L,W;
					 * configuration: crossbar or
					 * fattree:L,W */
	HYBRIDNET_ATTR_ALGO,		/* string: as hnsim sched --algo */
	HYBRIDNET_ATTR_KSTEP,		/* u32: K-step: longest path */
	HYBRIDNET_ATTR_SCHED_FLAGS,	/* u32: request-major 1, keep 2 */
	HYBRIDNET_ATTR_SEED,		/* u64 */
	HYBRIDNET_ATTR_LEVEL,		/* u32: fat tree: common level H */
	HYBRIDNET_ATTR_ROUTE,		/* binary: u8 up-ports, one per level */
	HYBRIDNET_ATTR_COUNT,		/* u32: requests granted */

	/* TRAFFIC_*: the in-kernel generator */
	HYBRIDNET_ATTR_PATTERN,		/* string: as hnsim run --pattern */
	HYBRIDNET_ATTR_LOAD_PPM,	/* u32: Bernoulli offered load */
	HYBRIDNET_ATTR_BATCH,		/* u32: batch messages per sender */
	HYBRIDNET_ATTR_SIZE,		/* u32: bytes */
	HYBRIDNET_ATTR_SIZE_MAX,	/* u32: bytes */
	HYBRIDNET_ATTR_SIZE_DIST,	/* string: fixed, uniform, bimodal, 8080 */
	HYBRIDNET_ATTR_PRED_PPM,	/* u32: mixed, phased: predictable ratio */
	HYBRIDNET_ATTR_ROOT,		/* u32: scatter's source */
	HYBRIDNET_ATTR_WARMUP_NS,	/* u64 */
	HYBRIDNET_ATTR_MEASURE_NS,	/* u64 */
	HYBRIDNET_ATTR_DRAIN_NS,	/* u64 */
	HYBRIDNET_ATTR_LIMIT_NS,	/* u64: batch: give up after */
	HYBRIDNET_ATTR_TRAFFIC_STATE,	/* u32: enum hybridnet_traffic */
	HYBRIDNET_ATTR_WHY,		/* string: how a run ended */
	HYBRIDNET_ATTR_PHASES,	/* string: phased: global, global-hint, per-node */

	/* what a command did besides what it was asked (replies) */
	HYBRIDNET_ATTR_CONFLICT,	/* nest, repeated: SLOT, PINNED, PAIR... */
	HYBRIDNET_ATTR_PINNED,		/* flag: the slot is below pin-slots */
	HYBRIDNET_ATTR_REBUILT,		/* flag: CONFIG_SET made a new fabric */
	HYBRIDNET_ATTR_RELEASED,	/* u32: circuits taken away */

	/* fat trees (Ch. 7) */
	HYBRIDNET_ATTR_PATH,		/* binary: a circuit's up-ports by level */

	/* the fabric (configuration) */
	HYBRIDNET_ATTR_SWITCHING,	/* u32: enum hybridnet_switching */
	HYBRIDNET_ATTR_UP_SELECT,	/* u32: enum hybridnet_up_select */
	HYBRIDNET_ATTR_FT_SCHED,	/* u32: enum hybridnet_ft_sched */

	/* the fabric's links and switches (FABRIC_GET, LINK_GET, SWITCH_GET) */
	HYBRIDNET_ATTR_LEVELS,		/* u32: fat tree l; crossbar 1 */
	HYBRIDNET_ATTR_WIDTH,		/* u32: fat tree w; crossbar N */
	HYBRIDNET_ATTR_SWITCHES,	/* u32 */
	HYBRIDNET_ATTR_RADIX,		/* u32: ports per switch */
	HYBRIDNET_ATTR_LINKS,		/* u32: each with two channels */
	HYBRIDNET_ATTR_MAX_HOPS,	/* u32: switches on the longest route */
	HYBRIDNET_ATTR_LINK,		/* u32: a link's number */
	HYBRIDNET_ATTR_SWITCH,		/* u32: a switch's number */
	HYBRIDNET_ATTR_PORT,		/* u32: a port of SWITCH */
	HYBRIDNET_ATTR_CHANNEL,		/* nest, twice: DIR, its sender, STATS */
	HYBRIDNET_ATTR_DIR,		/* u32: enum hybridnet_dir */
	/* network interfaces (NETDEV_*), with HYBRIDNET_ATTR_NODE */
	HYBRIDNET_ATTR_IFNAME,		/* string: in its network namespace */
	HYBRIDNET_ATTR_IFINDEX,		/* u32: in its network namespace */
	HYBRIDNET_ATTR_ADDRESS,		/* binary: the MAC, 6 bytes */
	HYBRIDNET_ATTR_NETNS_COOKIE,	/* u64: its namespace (SO_NETNS_COOKIE) */
	/* the capture interface (CAPTURE_*), with IFNAME, IFINDEX */
	HYBRIDNET_ATTR_SNAPLEN,		/* u32: payload bytes kept per message */
	HYBRIDNET_ATTR_RING,		/* u32: frames waiting for the stack */
	HYBRIDNET_ATTR_CAPTURED,	/* u64: messages kept */
	HYBRIDNET_ATTR_TRUNCATED,	/* u64: of them, cut at snaplen */
	HYBRIDNET_ATTR_RX_DROP_NO_MEM,	/* u64: not kept: no memory */
	HYBRIDNET_ATTR_RX_DROP_RING_FULL,	/* u64: not kept: the ring full */
	/* fabrics: every command's, every event's */
	HYBRIDNET_ATTR_FABRIC,		/* u32: a fabric's number */
	HYBRIDNET_ATTR_VC_FLITS,	/* u32 */
	HYBRIDNET_ATTR_DEADLOCK_NS,	/* u64 */
	HYBRIDNET_ATTR_VC_COUNT,	/* u32 */
	HYBRIDNET_ATTR_VOQ_ARBITER,	/* u32: enum hybridnet_voq_arbiter */
	HYBRIDNET_ATTR_VOQ_TIMEOUT_NS,	/* u64 */
	HYBRIDNET_ATTR_DEADLOCK,	/* nest: AT, SINCE, CHANNEL... */
	HYBRIDNET_ATTR_DEADLOCK_AT,	/* u64: found at, virtual ns */
	HYBRIDNET_ATTR_DEADLOCK_SINCE,	/* u64: no flit moved since */
	HYBRIDNET_ATTR_VC,		/* u32: a virtual channel of a link */
	HYBRIDNET_ATTR_DILATION,	/* u32 */
	/* links and switches down (FAULT_SET, LINK_GET, SWITCH_GET) */
	HYBRIDNET_ATTR_DOWN,		/* u8: 1 taken down, 0 up */
	HYBRIDNET_ATTR_DEAD,		/* u8: 1 down, or a switch at an end is */
	HYBRIDNET_ATTR_RANDOM,		/* u32: links between switches to take */
	HYBRIDNET_ATTR_LINKS_DOWN,	/* u32 (FABRIC_GET) */
	HYBRIDNET_ATTR_SWITCHES_DOWN,	/* u32 (FABRIC_GET) */
	HYBRIDNET_ATTR_NAME,		/* string: a link's or switch's name */
	HYBRIDNET_ATTR_IDEM_TIMEOUT_NS,	/* u64 */
	HYBRIDNET_ATTR_IDEM_RETRY_MAX,	/* u32 */
	HYBRIDNET_ATTR_LOSS_PPM,	/* u32 */
	HYBRIDNET_ATTR_FLIP_PPM,	/* u32 */
	HYBRIDNET_ATTR_FAULT_MTBF_NS,	/* u64 */
	HYBRIDNET_ATTR_FAULT_REPAIR_NS,	/* u64 */
	/* a dilated link's channels down alone (FAULT_SET, FABRIC_GET) */
	HYBRIDNET_ATTR_LINK_CHANNEL,	/* u32: channel J of the link named */
	HYBRIDNET_ATTR_RANDOM_CHANNELS,	/* u32: channels to take down */
	HYBRIDNET_ATTR_CHANNELS_DOWN,	/* u32 (FABRIC_GET) */
	HYBRIDNET_ATTR_LINK_CHANNELS_DOWN, /* u32 (LINK_GET): bit J, channel J */
	HYBRIDNET_ATTR_DILATION_LEVELS,	/* u32: 4 bits a fat tree's level */
	HYBRIDNET_ATTR_REROUTED,	/* u32: circuits routed again (FAULT) */

	__HYBRIDNET_ATTR_MAX,
	HYBRIDNET_ATTR_MAX = __HYBRIDNET_ATTR_MAX - 1
};

/* Cycle-controller policy flags (HYBRIDNET_ATTR_POLICY). */
#define HYBRIDNET_POL_SES		(1U << 0)	/* skip empty slots */
#define HYBRIDNET_POL_SLA		(1U << 1)	/* own wormhole slot length */
#define HYBRIDNET_POL_PREEMPT		(1U << 2)	/* gate by R_valid */
#define HYBRIDNET_POL_PREEMPT_SLOT	(1U << 3)	/* R_valid per slot */
#define HYBRIDNET_POL_NO_W		(1U << 4)	/* no wormhole slot */
#define HYBRIDNET_POL_DYNAMIC		(1U << 5)	/* Dynamic TDM (no-w) */

enum hybridnet_clock {
	HYBRIDNET_CLOCK_FREE,		/* as fast as the CPU allows */
	HYBRIDNET_CLOCK_PACED,		/* virtual time follows wall time */
};

/* HYBRIDNET_ATTR_RESULT of a predicted request. */
enum hybridnet_grant {
	HYBRIDNET_GRANT_GRANTED,	/* scheduled now, in SLOT */
	HYBRIDNET_GRANT_EXISTS,		/* already realised, in SLOT */
	HYBRIDNET_GRANT_REFUSED,	/* no slot had both ports free: CONFLICTs */
};

/* HYBRIDNET_ATTR_PREDICT_ALGO: how PREDICT places requests in slots. */
enum hybridnet_predict {
	HYBRIDNET_PREDICT_FIRST_FIT,	/* greedy, slot 0 first (Ch. 3) */
	HYBRIDNET_PREDICT_KSTEP,	/* per slot: greedy + K-step (Ch. 6) */
	HYBRIDNET_PREDICT_SECOND_LEVEL,	/* first fit + second-level set */
};

/* HYBRIDNET_ATTR_EVICT_ALGO: when a circuit leaves the working set. */
enum hybridnet_evict {
	HYBRIDNET_EVICT_TIMEOUT,	/* unused for IDLE_TIMEOUT_NS */
	HYBRIDNET_EVICT_COUNTER,	/* EVICT_COUNT uses of other circuits */
};

/*
 * HYBRIDNET_ATTR_SWITCHING: how a packet crosses a switch outside the
 * circuits (Duato, Sec. 2.3): its header goes on as soon as one flit
 * fits the next buffer (wormhole), once the whole packet fits it (virtual
 * cut-through), or once the whole packet is in this switch
 * (store-and-forward); or only where a channel is free, else it is
 * dropped and its source sends it again (drop on block).
 */
enum hybridnet_switching {
	HYBRIDNET_SWITCHING_WORMHOLE,
	HYBRIDNET_SWITCHING_VCT,
	HYBRIDNET_SWITCHING_SAF,
	HYBRIDNET_SWITCHING_DROP,	/* drop on block, the source retries */
};

/* HYBRIDNET_ATTR_FT_SCHED: the scheduler routing a fat tree's circuits. */
enum hybridnet_ft_sched {
	HYBRIDNET_FT_SCHED_LEVELWISE,	/* Ding Ch. 7, Sec. 7.4 */
	HYBRIDNET_FT_SCHED_LOCAL_GREEDY,	/* the lowest free up-port */
	HYBRIDNET_FT_SCHED_LOCAL_RANDOM,	/* a random free up-port */
	HYBRIDNET_FT_SCHED_OPTIMAL,	/* any permutation, rearranging */
};

/* HYBRIDNET_ATTR_UP_SELECT: a header's up-port in a multistage fabric. */
enum hybridnet_up_select {
	HYBRIDNET_UP_SELECT_DET,	/* by the destination's digits */
	HYBRIDNET_UP_SELECT_RANDOM,	/* uniformly among the allowed */
	HYBRIDNET_UP_SELECT_ADAPTIVE,	/* the least occupied */
};

/* HYBRIDNET_ATTR_VOQ_ARBITER: which VQ_W a node's idle input serves next. */
enum hybridnet_voq_arbiter {
	HYBRIDNET_VOQ_ARBITER_RR,	/* round-robin over destinations */
	HYBRIDNET_VOQ_ARBITER_LQF,	/* the most messages waiting */
	HYBRIDNET_VOQ_ARBITER_BYTES,	/* the most bytes waiting */
};

/*
 * HYBRIDNET_ATTR_DIR: a link's two channels.  UP is the one a route takes
 * first (from a node, or from a switch's up-port), DOWN the other.  A
 * CHANNEL nest names its sender, the link's end it leaves from: SWITCH
 * and PORT, or NODE when a node's NIC sends it (a node's own link, UP).
 */
enum hybridnet_dir {
	HYBRIDNET_DIR_UP,
	HYBRIDNET_DIR_DOWN,
};

/* HYBRIDNET_ATTR_TRAFFIC_STATE of the in-kernel generator. */
enum hybridnet_traffic {
	HYBRIDNET_TRAFFIC_IDLE,		/* never started */
	HYBRIDNET_TRAFFIC_RUNNING,
	HYBRIDNET_TRAFFIC_DONE,		/* everything delivered */
	HYBRIDNET_TRAFFIC_SATURATED,	/* stopped: past saturation (WHY) */
	HYBRIDNET_TRAFFIC_LIMIT,	/* batch not done by LIMIT_NS */
	HYBRIDNET_TRAFFIC_STOPPED,	/* TRAFFIC_STOP */
	HYBRIDNET_TRAFFIC_DEADLOCK,	/* the fabric deadlocked (WHY) */
};

/* HYBRIDNET_ATTR_EVENT: what a HYBRIDNET_CMD_EVENT announces. */
enum hybridnet_event {
	HYBRIDNET_EVENT_CONFIG,		/* configuration changed: its attrs */
	HYBRIDNET_EVENT_PRELOAD,	/* slots preloaded: SLOT_CONFIGs */
	HYBRIDNET_EVENT_GRANT,		/* requests granted: GRANTs */
	HYBRIDNET_EVENT_RELEASE,	/* released: PAIR, SLOT or ALL */
	HYBRIDNET_EVENT_PHASE,		/* a named phase installed: PHASE */
	HYBRIDNET_EVENT_STATS_RESET,	/* statistics cleared */
	HYBRIDNET_EVENT_TRAFFIC,	/* generator started or ended: STATE */
	HYBRIDNET_EVENT_FABRIC_NEW,	/* a fabric was made: as FABRIC_GET */
	HYBRIDNET_EVENT_FABRIC_DEL,	/* a fabric was deleted: FABRIC */
	HYBRIDNET_EVENT_FAULT,		/* FAULT_SET done: its request */
	HYBRIDNET_EVENT_SWITCHING,	/* SWITCH_SET done: SWITCH, NAME, SWITCHING */
};

/*
 * Statistics in a HYBRIDNET_ATTR_STATS nest, all u64.  Global (STATS_GET
 * do) and per node (STATS_GET dump, with HYBRIDNET_ATTR_NODE); per slot
 * in HYBRIDNET_ATTR_SLOT_STATS nests of the global reply.
 */
enum hybridnet_stat {
	HYBRIDNET_STAT_UNSPEC,
	HYBRIDNET_STAT_PAD,
	HYBRIDNET_STAT_TX_MSGS_CIRCUIT,		/* injected with tag 0 */
	HYBRIDNET_STAT_TX_MSGS_WORMHOLE,	/* injected with tag 1 */
	HYBRIDNET_STAT_TX_BYTES_CIRCUIT,
	HYBRIDNET_STAT_TX_BYTES_WORMHOLE,
	HYBRIDNET_STAT_RX_MSGS_CIRCUIT,		/* delivered by circuit */
	HYBRIDNET_STAT_RX_MSGS_WORMHOLE,	/* delivered by wormhole */
	HYBRIDNET_STAT_RX_BYTES_CIRCUIT,
	HYBRIDNET_STAT_RX_BYTES_WORMHOLE,
	HYBRIDNET_STAT_IN_FLIGHT_MSGS,
	HYBRIDNET_STAT_IN_FLIGHT_BYTES,
	HYBRIDNET_STAT_TX_FULL,			/* refused: NIC buffer full */
	HYBRIDNET_STAT_RETAGGED,
	HYBRIDNET_STAT_LAT_MIN_NS,
	HYBRIDNET_STAT_LAT_MEAN_NS,
	HYBRIDNET_STAT_LAT_MAX_NS,
	HYBRIDNET_STAT_LAT_P50_NS,		/* upper bound */
	HYBRIDNET_STAT_LAT_P99_NS,		/* upper bound */
	HYBRIDNET_STAT_UTIL_PPM,		/* Ding Ch. 1 */
	HYBRIDNET_STAT_CYCLES,
	HYBRIDNET_STAT_IDLE_NS,
	HYBRIDNET_STAT_GRANTS,
	HYBRIDNET_STAT_EXISTS,
	HYBRIDNET_STAT_REFUSALS,
	HYBRIDNET_STAT_RELEASES,
	HYBRIDNET_STAT_TIMEOUTS,
	HYBRIDNET_STAT_PRELOADS,
	HYBRIDNET_STAT_TX_DONE,			/* per node: sent and delivered */
	HYBRIDNET_STAT_RX_DROPPED,		/* to a node with no open file */
	HYBRIDNET_STAT_RUNS,			/* per slot */
	HYBRIDNET_STAT_TIME_NS,			/* per slot */
	HYBRIDNET_STAT_BYTES,			/* per slot */
	HYBRIDNET_STAT_CAP_BYTES,		/* per slot */
	HYBRIDNET_STAT_SKIPPED,			/* per slot */
	HYBRIDNET_STAT_PREEMPTED,		/* per slot */
	HYBRIDNET_STAT_GEN_MSGS,		/* generator: generated */
	HYBRIDNET_STAT_INJ_MSGS,		/* generator: taken by a NIC */
	HYBRIDNET_STAT_DONE_MSGS,		/* generator: delivered */
	HYBRIDNET_STAT_DONE_BYTES,
	HYBRIDNET_STAT_OFFERED_PPM,		/* generator: of capacity */
	HYBRIDNET_STAT_ACCEPTED_PPM,
	HYBRIDNET_STAT_QUEUE_MAX,		/* generator: largest source queue */
	HYBRIDNET_STAT_ROUNDS,			/* SCHED_RUN: K-step paths */
	HYBRIDNET_STAT_WARMUP_TAKEN_NS,		/* generator: warm-up to the window */
	HYBRIDNET_STAT_MEASURED_NS,		/* generator: the window, as lived */
	HYBRIDNET_STAT_LAT_MEAN_FIRST_NS,	/* generator: the window's 1st half */
	HYBRIDNET_STAT_LAT_MEAN_SECOND_NS,	/* and its second half */
	HYBRIDNET_STAT_LAT_TREND_UP,		/* generator: period pairs rising */
	HYBRIDNET_STAT_LAT_TREND_DOWN,		/* falling */
	HYBRIDNET_STAT_LAT_TREND_MIN,		/* up - down from which it rises */
	HYBRIDNET_STAT_WORMS,			/* channel, switch: worms through */
	HYBRIDNET_STAT_BUSY_NS,			/* channel: held by a worm */
	HYBRIDNET_STAT_CREDIT_STALLS,		/* headers short of credit */
	HYBRIDNET_STAT_BUF_PEAK,		/* most bytes an input buffer held */
	HYBRIDNET_STAT_BUF_BYTE_NS,		/* its bytes, integrated over time */
	HYBRIDNET_STAT_BLOCKED_NS,		/* switch: headers waited at inputs */
	HYBRIDNET_STAT_BUF_BYTES,		/* switch: its buffers hold now */
	HYBRIDNET_STAT_HELD,			/* switch: output ports held now */
	/* latency of the messages a circuit carried, and a worm */
	HYBRIDNET_STAT_LAT_MIN_CIRCUIT_NS,
	HYBRIDNET_STAT_LAT_MEAN_CIRCUIT_NS,	/* also per pair */
	HYBRIDNET_STAT_LAT_MAX_CIRCUIT_NS,
	HYBRIDNET_STAT_LAT_P50_CIRCUIT_NS,	/* global: upper bound */
	HYBRIDNET_STAT_LAT_P99_CIRCUIT_NS,	/* global: upper bound */
	HYBRIDNET_STAT_LAT_MIN_WORMHOLE_NS,
	HYBRIDNET_STAT_LAT_MEAN_WORMHOLE_NS,	/* also per pair */
	HYBRIDNET_STAT_LAT_MAX_WORMHOLE_NS,
	HYBRIDNET_STAT_LAT_P50_WORMHOLE_NS,	/* global: upper bound */
	HYBRIDNET_STAT_LAT_P99_WORMHOLE_NS,	/* global: upper bound */
	HYBRIDNET_STAT_PAIRS,			/* pairs in the pair table */
	HYBRIDNET_STAT_PAIRS_MAX,		/* pairs it can hold */
	HYBRIDNET_STAT_PAIR_OVERFLOW_MSGS,	/* delivered, pair not in it */
	HYBRIDNET_STAT_PAIR_OVERFLOW_BYTES,
	HYBRIDNET_STAT_MEM_MAX,			/* generator: most bytes it held */
	HYBRIDNET_STAT_CIRCUIT_BYTES,		/* channel, switch: circuits' */
	HYBRIDNET_STAT_ATTEMPTS,		/* switching drop: headers sent */
	HYBRIDNET_STAT_DROPS,			/* of them, dropped */
	HYBRIDNET_STAT_PREEMPTIONS,		/* of them, preempted */
	HYBRIDNET_STAT_STUB_FLITS,		/* preempted flits gone on */
	HYBRIDNET_STAT_UNREACH_MSGS,		/* generator: destination cut off */
	HYBRIDNET_STAT_UNREACH_WAITING_MSGS,	/* queued, destination cut off */
	/* exactly once (config idem_timeout_ns): the protocol's counters */
	HYBRIDNET_STAT_IDEM_MSG_TX,
	HYBRIDNET_STAT_IDEM_ACK_TX,
	HYBRIDNET_STAT_IDEM_ACK2_TX,
	HYBRIDNET_STAT_IDEM_MSG_RESENDS,
	HYBRIDNET_STAT_IDEM_ACK_RESENDS,
	HYBRIDNET_STAT_IDEM_DUPS_SUPPRESSED,
	HYBRIDNET_STAT_IDEM_MSG_LOST,
	HYBRIDNET_STAT_IDEM_ACK_LOST,
	HYBRIDNET_STAT_IDEM_ACK2_LOST,
	HYBRIDNET_STAT_IDEM_CRC_FAIL,
	HYBRIDNET_STAT_IDEM_RETRIES_EXHAUSTED,
	HYBRIDNET_STAT_IDEM_ACKS_EXHAUSTED,
	HYBRIDNET_STAT_IDEM_GAPS_PASSED,
	HYBRIDNET_STAT_IDEM_SEND_STATE_ENTRIES,
	HYBRIDNET_STAT_IDEM_RECV_STATE_ENTRIES,
	/* multicast writes and frames (HYBRIDNET_MSG_MULTICAST) */
	HYBRIDNET_STAT_MCAST_MSGS,		/* writes and frames */
	HYBRIDNET_STAT_MCAST_INJECTIONS,	/* their groups: injections */
	HYBRIDNET_STAT_MCAST_COPIES,		/* their members: copies */
	/* config fault_mtbf_ns: links failed over time, and repaired */
	HYBRIDNET_STAT_LINKS_FAILED,
	HYBRIDNET_STAT_LINKS_REPAIRED,
	/* switching drop: preemptions whose victim's header had arrived */
	HYBRIDNET_STAT_PREEMPTIONS_LATE,
	/*
	 * exactly once: the copies of each kind the fabric brought, and the
	 * headers they took under switching drop (p = arrived / attempts)
	 */
	HYBRIDNET_STAT_IDEM_MSG_ARRIVED,
	HYBRIDNET_STAT_IDEM_ACK_ARRIVED,
	HYBRIDNET_STAT_IDEM_ACK2_ARRIVED,
	HYBRIDNET_STAT_IDEM_MSG_ATTEMPTS,
	HYBRIDNET_STAT_IDEM_ACK_ATTEMPTS,
	HYBRIDNET_STAT_IDEM_ACK2_ATTEMPTS,
	HYBRIDNET_STAT_IDEM_MSG_SWITCHES,
	HYBRIDNET_STAT_CIRCUIT_REROUTES,

	__HYBRIDNET_STAT_MAX,
	HYBRIDNET_STAT_MAX = __HYBRIDNET_STAT_MAX - 1
};

/* Most pairs one PREDICT or one SLOT_CONFIG may carry. */
#define HYBRIDNET_MAX_PAIRS	HYBRIDNET_MAX_NODES

/* ---------------------- end of the netlink section ---------------------- */

#endif /* _UAPI_LINUX_HYBRIDNET_H */
