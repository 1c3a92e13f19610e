/* SPDX-License-Identifier: GPL-2.0 */
/*
 * libhybridnet.h - user-space access to /dev/hybridnet.
 *
 * Every function returns 0 (or a length) on success and a negative errno
 * on failure; errno itself is left as the system call set it.
 * hn_strerror() says what the failure means and what to do next:
 *
 *	struct hn_handle *h;
 *	struct hybridnet_msg_hdr hdr;
 *	char buf[256];
 *	int rc;
 *
 *	if ((rc = hn_open(&h, NULL, 0)) != 0)
 *		errx(1, "%s", hn_strerror(NULL, rc));
 *	if ((rc = hn_bind(h, 3)) != 0)
 *		errx(1, "%s", hn_strerror(h, rc));
 *	hn_send(h, 7, "hello", 5);
 *	n = hn_recv(h, &hdr, buf, sizeof(buf));
 *	hn_close(h);
 *
 * hn_fd() gives the file descriptor for poll(): POLLIN means hn_recv()
 * will not block, POLLOUT that hn_send() of a message no longer than the
 * last refused one will not block.
 */
#ifndef LIBHYBRIDNET_H
#define LIBHYBRIDNET_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <linux/hybridnet.h>

#define HN_DEV_PATH	"/dev/" HYBRIDNET_DEV_NAME

/* hn_open() flags */
#define HN_NONBLOCK	0x1	/* hn_send/hn_recv give -EAGAIN, not wait */

struct hn_handle;

/* Open @path (NULL: /dev/hybridnet); *hp receives the handle. */
int hn_open(struct hn_handle **hp, const char *path, int flags);
void hn_close(struct hn_handle *h);
int hn_fd(const struct hn_handle *h);
int hn_set_nonblock(struct hn_handle *h, int on);

/*
 * Bind to @node of the first fabric of the caller's network namespace:
 * -EINVAL out of range, -EBUSY taken or bound elsewhere, -ENODEV no
 * fabric there.
 */
int hn_bind(struct hn_handle *h, uint32_t node);
/*
 * Bind to @node of fabric @fabric (HYBRIDNET_FABRIC_FIRST: the first) of
 * the caller's network namespace: -ENODEV when it has no such fabric,
 * else as hn_bind().  Once the fabric is deleted (its namespace ended),
 * every call on @h fails with -ENODEV.
 */
int hn_bind_fabric(struct hn_handle *h, uint32_t fabric, uint32_t node);
int hn_info(struct hn_handle *h, struct hybridnet_info *info);

/* Send @len bytes to @dst: 0, or -EAGAIN, -EMSGSIZE, -EINVAL, -ENOTCONN... */
int hn_send(struct hn_handle *h, uint32_t dst, const void *buf, size_t len);
/*
 * The same with the header's @flags: a priority (HYBRIDNET_MSG_PRIO) and
 * a switching of the message's own (HYBRIDNET_MSG_SWITCHING), hybridnet(4).
 */
int hn_send_flags(struct hn_handle *h, uint32_t dst, const void *buf,
		  size_t len, uint32_t flags);
/*
 * One message to many: the @n destination entries @ents
 * (HYBRIDNET_MCAST(group, bits), or HYBRIDNET_MCAST_ALL alone), each
 * member a copy, all or none (HYBRIDNET_MSG_MULTICAST, hybridnet(4));
 * @flags as hn_send_flags().
 */
int hn_send_mcast(struct hn_handle *h, const uint32_t *ents, uint32_t n,
		  const void *buf, size_t len, uint32_t flags);

/*
 * Receive one message: its header in *hdr (may be NULL), its payload in
 * @buf.  Returns the payload length, or -EMSGSIZE when @cap is too small
 * (the message stays queued), -EAGAIN, -ENOTCONN...
 */
ssize_t hn_recv(struct hn_handle *h, struct hybridnet_msg_hdr *hdr,
		void *buf, size_t cap);

/*
 * Zydallis's compact 128-bit messages (hn_zmsg.c): bits 127..64 in hi,
 * 63..0 (the data) in lo.  A format for programs that want his tiny
 * messages: fields packed into the 128 bits and back, as the decoder tree
 * reads them (CIMF, Table 5) and as a replica leaves for one destination
 * queue (DMF, Table 9).  The fields go in an array indexed by the enums;
 * a value wider than its field gives -EINVAL.
 */
struct hn_zmsg {
	uint64_t hi, lo;
};

enum hn_cimf_field {
	HN_CIMF_BC,	/* 127:122 broadcast, 63 (111111) for all */
	HN_CIMF_U,	/* 121:117 unused */
	HN_CIMF_C,	/* 116 DP a 4-bit code with CDP 10 */
	HN_CIMF_D,	/* 115 DMA: the data is at MA */
	HN_CIMF_CDP,	/* 114:113 how DP reads (Table 8) */
	HN_CIMF_DD0,	/* 112:107 destination card, dimension 0 */
	HN_CIMF_DD1,	/* 106:101 destination card, dimension 1 */
	HN_CIMF_DP,	/* 100:98 destination processor, or a code */
	HN_CIMF_XDD,	/* 97:96 the multicast bitmap's two low bits */
	HN_CIMF_CDD,	/* 95:94 unicast, multicast, broadcast (Table 6) */
	HN_CIMF_MA,	/* 93:64 word address */
	HN_CIMF_NR
};

enum hn_dmf_field {
	HN_DMF_SD0,	/* 127:122 source card, dimension 0 */
	HN_DMF_SD1,	/* 121:116 source card, dimension 1 */
	HN_DMF_SP,	/* 115:113 source processor */
	HN_DMF_DD0,	/* 112:107 the queue's card, dimension 0 */
	HN_DMF_DD1,	/* 106:101 and dimension 1 */
	HN_DMF_DP,	/* 100:98 as the CIMF's */
	HN_DMF_C,	/* 97 */
	HN_DMF_D,	/* 96 */
	HN_DMF_CDP,	/* 95:94 */
	HN_DMF_MA,	/* 93:64 */
	HN_DMF_NR
};

int hn_cimf_pack(const uint32_t *v, uint64_t data, struct hn_zmsg *m);
void hn_cimf_unpack(const struct hn_zmsg *m, uint32_t *v);
int hn_dmf_pack(const uint32_t *v, uint64_t data, struct hn_zmsg *m);
void hn_dmf_unpack(const struct hn_zmsg *m, uint32_t *v);
/* the DMF a decoder writes from CIMF @c for the card @dd0, @dd1 */
int hn_cimf_to_dmf(const struct hn_zmsg *c, uint32_t sd0, uint32_t sd1,
		   uint32_t sp, uint32_t dd0, uint32_t dd1, struct hn_zmsg *d);

/*
 * Why the last call on @h failed with @err (its return value), for a
 * user: the cause on this host and the next step, one line without a
 * newline.  "cannot open /dev/hybridnet: the hybridnet module is not
 * loaded: load it (sudo modprobe hybridnet), ..." where errno says "No
 * such file or directory"; who may open the device and how to join them
 * for -EACCES; what holds the node (the pid and name of the program that
 * bound it, or the network interface) for hn_bind()'s -EBUSY; the range
 * for a node out of it; max-msg-bytes for -EMSGSIZE.  @h is NULL after a
 * failed hn_open() (this thread's last).  The text stays until the next
 * hn_strerror() on @h (NULL: in this thread).  hybridnet(4), ERRORS.
 */
const char *hn_strerror(struct hn_handle *h, int err);

/*
 * ------------------------------------------------------------------------
 * Control plane: the generic netlink family "hybridnet" (hn_ctl*.c, on
 * libnl-genl-3; link with `pkg-config --libs libnl-genl-3.0`, or for a
 * static program -lnl-genl-3 -lnl-3 -lpthread -lm).
 *
 * One function per command.  Each returns 0 (or a count) on success and a
 * negative errno on failure.  When the kernel refuses a request, the text
 * of its extack message (which attribute, node, slot or pair is at fault)
 * is in hn_ctl_errmsg() until the next call on the handle:
 *
 *	struct hn_ctl *c;
 *	struct hn_ctl_pair p[] = { { 0, 1 }, { 1, 0 } };
 *	struct hn_ctl_slot_cfg s = { .slot = 0, .npairs = 2, .pairs = p };
 *
 *	if ((rc = hn_ctl_open(&c)) != 0)
 *		errx(1, "%s", hn_ctl_strerror(NULL, rc));
 *	rc = hn_ctl_preload(c, &s, 1, "exchange");
 *	if (rc)
 *		fprintf(stderr, "preload: %s\n", hn_ctl_strerror(c, rc));
 *	hn_ctl_close(c);
 *
 * A handle is not thread-safe; use one per thread.
 *
 * Fabrics: every call on a handle is on one fabric of the caller's
 * network namespace, the first (the one of the lowest number) unless
 * hn_ctl_set_fabric() chose another; hn_ctl_fabric_new(), _del() and
 * _list() make, delete and list them.
 * ------------------------------------------------------------------------
 */
struct hn_ctl;

int hn_ctl_open(struct hn_ctl **cp);
void hn_ctl_close(struct hn_ctl *c);

#define HN_CTL_FIRST_FABRIC	HYBRIDNET_FABRIC_FIRST

/*
 * Every call on @c from now on is on fabric @id (HN_CTL_FIRST_FABRIC:
 * the first of the namespace, the default).  -EINVAL when @id is past
 * HYBRIDNET_MAX_FABRICS; the kernel says -ENODEV at the next call when
 * the namespace has no such fabric ("no fabric 3 in this network
 * namespace", hn_ctl_errmsg()).
 */
int hn_ctl_set_fabric(struct hn_ctl *c, uint32_t id);
/*
 * Why the last call failed, as the kernel said it: its extack message,
 * followed by " (attribute NAME)" when the kernel pointed at an attribute
 * (NAME is the spec's name, e.g. "slot-config[1]/pair[0]/dst").  "" when
 * the kernel gave no reason (then strerror() of the return value is all).
 */
const char *hn_ctl_errmsg(const struct hn_ctl *c);
/*
 * What a failure with @err (a negative errno of a call on @c) means, for
 * a user: hn_ctl_errmsg() when the kernel gave a reason, else the cause
 * and the next step: a request that needs CAP_NET_ADMIN (-EPERM), a
 * module unloaded since (-ENOENT).  @c NULL: hn_ctl_open() failed in this
 * thread; its -ENOENT means the module is not loaded.  The text stays
 * until the next hn_ctl_strerror() on @c (NULL: in this thread).
 */
const char *hn_ctl_strerror(struct hn_ctl *c, int err);

/*
 * hn_ctl_config.mask has a bit per attribute number: whether the
 * attribute is given (CONFIG_SET) or was present (CONFIG_GET).
 */
#define HN_CTL_MASK_WORDS	(HYBRIDNET_ATTR_MAX / 64 + 1)
#define HN_CTL_HAS(cfg, attr)	((cfg)->mask[(attr) / 64] >> ((attr) % 64) & 1)
#define HN_CTL_MARK(cfg, attr)	((cfg)->mask[(attr) / 64] |= 1ULL << ((attr) % 64))
/* Bit of a TRAFFIC_* attribute (TOPOLOGY to LIMIT_NS) in hn_ctl_traffic.mask. */
#define HN_CTL_TBIT(attr)	(1ULL << ((attr) - HYBRIDNET_ATTR_TOPOLOGY))

/*
 * The configuration attributes (CONFIG_GET reply, CONFIG_SET request):
 * a member per field of the engine, named as its module parameter and
 * in the order of hn_fields.h (the table this header includes, which is
 * installed beside it), then the device's own.  A text field's member is
 * its text.
 */
#define HN_CTL_T_U32		uint32_t
#define HN_CTL_T_U64		uint64_t
#define HN_CTL_T_STRING		char
#define HN_CTL_N_U32
#define HN_CTL_N_U64
#define HN_CTL_N_STRING		[16]
struct hn_ctl_config {
	uint64_t mask[HN_CTL_MASK_WORDS];	/* HN_CTL_HAS(), HN_CTL_MARK() */
#define HN_FIELD(f, A, param, nl, help, T, lo, hi, live, words)	\
	HN_CTL_T_##T param HN_CTL_N_##T;
#include "hn_fields.h"
#undef HN_FIELD
	uint32_t clock;		/* enum hybridnet_clock */
	uint32_t pace_ppm;
	uint64_t now;		/* CONFIG_GET only: virtual time, ns */
	char profile[16];	/* "ding4", "ding5" */
};

/* How many attributes of @cfg are given or present */
unsigned int hn_ctl_config_count(const struct hn_ctl_config *cfg);

enum hn_ctl_type { HN_CTL_U32, HN_CTL_U64, HN_CTL_STRING };

/* Describes one field of struct hn_ctl_config. */
struct hn_ctl_field {
	const char *name;	/* the spec's name: "link-mbps" */
	uint16_t attr;		/* HYBRIDNET_ATTR_* */
	uint8_t type;		/* enum hn_ctl_type */
	uint8_t readonly;	/* reported by CONFIG_GET, never set */
	uint16_t off;		/* offsetof(struct hn_ctl_config, ...) */
	const char *const *enums; /* an enum's names by value, NULL-ended */
	uint64_t min, max;	/* the values the kernel takes (a string:
				   its length) */
	const char *help;	/* what it is, one line */
	const char *values;	/* what it takes: "2..4096", "det|random|..." */
	uint8_t live;		/* changes while traffic flows */
};

/* Every field in attribute order, ending with { .name = NULL }. */
extern const struct hn_ctl_field hn_ctl_config_fields[];
const struct hn_ctl_field *hn_ctl_config_field(const char *name);

/* Fill *cfg; cfg->mask says which attributes the kernel sent. */
int hn_ctl_config_get(struct hn_ctl *c, struct hn_ctl_config *cfg);
/* Send the fields marked in cfg->mask (at least one). */
int hn_ctl_config_set(struct hn_ctl *c, const struct hn_ctl_config *cfg);

/*
 * What a CONFIG_SET or a PRELOAD changed besides what it was asked, as
 * the kernel's reply says.
 */
struct hn_ctl_slot_change {
	uint32_t slot;
	uint32_t before;	/* circuits it held, all replaced */
	uint32_t after;		/* circuits it holds now */
};

struct hn_ctl_change {
	int rebuilt;		/* CONFIG_SET: a new fabric was built: every
				   circuit released, the statistics and the
				   virtual time reset */
	uint32_t released;	/* the circuits the rebuild released */
	size_t nslots;		/* PRELOAD: the slots installed */
	struct hn_ctl_slot_change slot[HYBRIDNET_MAX_SLOTS];
};

/* hn_ctl_config_set(), and what it changed into *@chg (may be NULL). */
int hn_ctl_config_set_change(struct hn_ctl *c, const struct hn_ctl_config *cfg,
			     struct hn_ctl_change *chg);

struct hn_ctl_pair {
	uint32_t src, dst;
};

/*
 * A circuit's path through a fat tree: the up-port it climbs by at each
 * level 0..len-1 (it comes down by the same numbers, Theorem 4 of Ch. 7).
 */
struct hn_ctl_path {
	uint32_t len;				/* at most HYBRIDNET_MAX_PATH */
	uint8_t port[HYBRIDNET_MAX_PATH];
};

/*
 * One slot configuration B^(slot); no pairs clears the slot.  On a fat
 * tree, @paths (NULL: the kernel routes them) has one path per pair.
 */
struct hn_ctl_slot_cfg {
	uint32_t slot;
	uint32_t npairs;
	const struct hn_ctl_pair *pairs;
	const struct hn_ctl_path *paths;
};

/*
 * Install @n whole slot configurations atomically (all or nothing);
 * @phase (may be NULL) names them, for the PHASE event.  -E2BIG: more
 * slots than K or more pairs than nodes; -EMSGSIZE: more than one netlink
 * message can carry.  A slot's pairs go in as many SLOT_CONFIG nests as
 * they need (an attribute is at most 64 KiB); the kernel joins them.
 */
int hn_ctl_preload(struct hn_ctl *c, const struct hn_ctl_slot_cfg *cfg,
		   size_t n, const char *phase);
/*
 * The same at @level: 1 the working set (hn_ctl_preload()), 2 the
 * second-level working set of Sec. 5.2.3, stored and swapped in by
 * predict-algo second-level (no event then).
 */
int hn_ctl_preload_level(struct hn_ctl *c, const struct hn_ctl_slot_cfg *cfg,
			 size_t n, const char *phase, uint32_t level);
/* hn_ctl_preload_level(), and what it replaced into *@chg (may be NULL). */
int hn_ctl_preload_change(struct hn_ctl *c, const struct hn_ctl_slot_cfg *cfg,
			  size_t n, const char *phase, uint32_t level,
			  struct hn_ctl_change *chg);

#define HN_CTL_NO_SLOT	UINT32_MAX

struct hn_ctl_grant {
	uint32_t src, dst;
	uint32_t slot;		/* HN_CTL_NO_SLOT when refused */
	uint32_t result;	/* enum hybridnet_grant */
};

/*
 * Submit @n predicted requests; @g (room for @n) receives one grant per
 * request, in order.  Returns the number of grants, @n.
 */
int hn_ctl_predict(struct hn_ctl *c, const struct hn_ctl_pair *req, size_t n,
		   struct hn_ctl_grant *g);

#define HN_CTL_NO_NODE	UINT32_MAX

/*
 * Why one slot could not take a refused request SRC:DST: the slot is
 * pinned (below pin-slots, kept for preloads), or the circuit
 * SRC -> src_to holds its source, or from_dst -> DST its destination
 * (HN_CTL_NO_NODE: that port was free in the slot).
 */
struct hn_ctl_conflict {
	uint32_t index;		/* of the request, in req[] */
	uint32_t slot;
	uint32_t pinned;
	uint32_t src_to;
	uint32_t from_dst;
};

struct hn_ctl_why {
	uint32_t slots;			/* K, the predictive slots */
	size_t n;			/* conflicts: by request, then slot */
	struct hn_ctl_conflict *c;	/* hn_ctl_why_free() */
};

/*
 * hn_ctl_predict(), and why each refused request was refused: one
 * conflict per predictive slot, into *@why.  A refusal with none, while
 * why->slots is not 0, is one the kernel had no room to explain (one
 * reply carries 64 KiB of conflicts).
 */
int hn_ctl_predict_why(struct hn_ctl *c, const struct hn_ctl_pair *req,
		       size_t n, struct hn_ctl_grant *g, struct hn_ctl_why *why);
void hn_ctl_why_free(struct hn_ctl_why *why);

int hn_ctl_release_pair(struct hn_ctl *c, uint32_t src, uint32_t dst);
int hn_ctl_release_slot(struct hn_ctl *c, uint32_t slot);
int hn_ctl_release_all(struct hn_ctl *c);

struct hn_ctl_circuit {
	uint32_t slot, src, dst;
	struct hn_ctl_path path;	/* fat tree: len = its level H */
};

struct hn_ctl_circuits {
	struct hn_ctl_circuit *c;	/* by slot, then source */
	size_t n;
	uint32_t generation;		/* of the table dumped; 0: unknown
					   (an empty table carries none) */
};

/*
 * Dump every circuit into *out (free it with hn_ctl_circuits_free()).
 * When the table changed while the dump was in progress (the kernel set
 * NLM_F_DUMP_INTR, or two parts carried different generations), the
 * partial result is discarded and -EAGAIN returned: call again.
 */
int hn_ctl_circuits(struct hn_ctl *c, struct hn_ctl_circuits *out);
void hn_ctl_circuits_free(struct hn_ctl_circuits *out);

/*
 * A HYBRIDNET_ATTR_STATS nest: v[i] is valid when bit i of mask is set
 * (hn_ctl_stat_has()).
 */
#define HN_CTL_STAT_WORDS	((HYBRIDNET_STAT_MAX + 64) / 64)

struct hn_ctl_stats {
	uint64_t mask[HN_CTL_STAT_WORDS];	/* bit HYBRIDNET_STAT_x */
	uint64_t v[HYBRIDNET_STAT_MAX + 1];
};

/* 1 when the nest carried statistic @stat (enum hybridnet_stat). */
int hn_ctl_stat_has(const struct hn_ctl_stats *st, unsigned int stat);

struct hn_ctl_slot_stats {
	uint32_t slot;			/* 0..K-1; K is the wormhole slot */
	struct hn_ctl_stats s;
};

struct hn_ctl_gstats {
	uint64_t now;			/* virtual time, ns */
	struct hn_ctl_stats g;		/* global */
	uint32_t nslots;
	struct hn_ctl_slot_stats slot[HYBRIDNET_MAX_SLOTS + 1];
};

struct hn_ctl_node_stats {
	uint32_t node;
	struct hn_ctl_stats s;
};

#define HN_CTL_ALL_NODES	UINT32_MAX

int hn_ctl_stats_get(struct hn_ctl *c, struct hn_ctl_gstats *gs);
/*
 * Per-node statistics of @node, or of every node (HN_CTL_ALL_NODES):
 * *out is an array of *n entries, to free().
 */
int hn_ctl_stats_dump(struct hn_ctl *c, uint32_t node,
		      struct hn_ctl_node_stats **out, size_t *n);
int hn_ctl_stats_reset(struct hn_ctl *c);

/*
 * One (source, destination) pair's delivered messages, by the mode that
 * carried them, [HYBRIDNET_MODE_CIRCUIT] and [HYBRIDNET_MODE_WORMHOLE]
 * (HYBRIDNET_CMD_PAIR_GET).
 */
struct hn_ctl_pair_stats {
	uint32_t src, dst;
	uint64_t now;			/* virtual time they were read at */
	uint64_t msgs[2];
	uint64_t bytes[2];
	uint64_t lat_mean_ns[2];	/* virtual ns; 0 without a message */
};

/*
 * The pair table (the pairs that delivered since the last reset, at most
 * STATS pairs-max; the others' messages are the STATS pair-overflow-msgs
 * and -bytes), or its pairs from @src and to @dst (HN_CTL_ALL: any):
 * *out, *n entries in the table's order, to free().  A reset or rebuild
 * during the dump: -EAGAIN, call again.
 */
int hn_ctl_pairs(struct hn_ctl *c, uint32_t src, uint32_t dst,
		 struct hn_ctl_pair_stats **out, size_t *n);

/* A node's network interface (HYBRIDNET_CMD_NETDEV_GET). */
struct hn_ctl_netdev {
	uint32_t node;
	char name[16];			/* in its network namespace */
	uint32_t ifindex;		/* in its network namespace */
	uint8_t address[6];		/* 02:68:6e:00:HH:LL, HHLL the node */
	uint64_t netns_cookie;		/* its namespace, as SO_NETNS_COOKIE */
};

/*
 * An interface for @node of the handle's fabric (hn_ctl_set_fabric();
 * the namespace's first by default) in the caller's network namespace,
 * named @name (NULL: hnN, N the node), by rtnetlink, as "ip link add NAME
 * type hybridnet [fabric F] node N".  Needs CAP_NET_ADMIN over the user
 * namespace that owns the fabric's network namespace.
 */
int hn_ctl_netdev_add(struct hn_ctl *c, const char *name, uint32_t node);
/* Remove the caller's namespace's interface @name, or @node's anywhere
 * (@name NULL).  Needs CAP_NET_ADMIN. */
int hn_ctl_netdev_del(struct hn_ctl *c, const char *name, uint32_t node);
/* Every interface, by node: *out is an array of *n entries, to free(). */
int hn_ctl_netdevs(struct hn_ctl *c, struct hn_ctl_netdev **out, size_t *n);

/*
 * The capture interface (CAPTURE_ON, _OFF, _GET; docs/netdev.md
 * "Capturing"): every message the fabric delivers, received on it as an
 * Ethernet frame with a struct hybridnet_capture_hdr (linux/hybridnet.h).
 */
struct hn_ctl_capture {
	int on;				/* 0: capture is off, nothing else set */
	char name[16];			/* in its network namespace */
	uint32_t ifindex;		/* in its network namespace */
	uint64_t netns_cookie;		/* its namespace, as SO_NETNS_COOKIE */
	uint32_t snaplen;		/* payload bytes kept per message */
	uint32_t ring;			/* frames that may wait for the stack */
	uint64_t captured;		/* messages shown on it */
	uint64_t truncated;		/* of them, cut at snaplen */
	uint64_t rx_drop_no_mem;	/* not shown: no memory */
	uint64_t rx_drop_ring_full;	/* not shown: the ring full */
};

#define HN_CTL_CAPTURE_DEFAULT	UINT32_MAX	/* snaplen, ring: the module's */

/*
 * The capture interface, named @name (NULL: hnmon0) in the caller's
 * network namespace, up, keeping @snaplen bytes of each payload
 * (0..65535) with a ring of @ring frames (1..65536); either may be
 * HN_CTL_CAPTURE_DEFAULT.  -EEXIST when there is one.  Needs CAP_NET_ADMIN.
 */
int hn_ctl_capture_on(struct hn_ctl *c, const char *name, uint32_t snaplen,
		      uint32_t ring);
/* Remove it, wherever it is: -ENODEV when there is none.  CAP_NET_ADMIN. */
int hn_ctl_capture_off(struct hn_ctl *c);
/* It and its counters; cap->on is 0 when there is none. */
int hn_ctl_capture_get(struct hn_ctl *c, struct hn_ctl_capture *cap);

/*
 * A channel of a deadlock's cycle: the output port (sw, port) driving
 * link, and the virtual channel waited for (the flit router's; else
 * UINT32_MAX).
 */
struct hn_ctl_dl_channel {
	uint32_t sw, port, link, vc;
};

/*
 * A fabric (FABRIC_GET, LINK_GET, SWITCH_GET; docs/model.md
 * "Statistics"): its number and shape, and per link and per switch the
 * counters of its packet-switched path since the last reset or rebuild,
 * each with the virtual time it was read at (utilisation: busy_ns / now;
 * mean occupancy: buf_byte_ns / now).  The crossbar is one switch,
 * switch 0, whose port p is node p's link.  A rebuild during a dump:
 * -EAGAIN, call again.
 */
struct hn_ctl_fabric {
	uint32_t id;			/* its number: sysfs fabricN */
	char topology[16];		/* "crossbar", "fattree:L,W" */
	uint32_t levels, width;		/* FT(levels, width); crossbar 1, N */
	uint32_t nodes, switches, radix, links, max_hops;
	uint32_t links_down, switches_down;	/* taken down (FAULT_SET) */
	uint32_t channels_down;		/* a link's taken down alone */
	uint32_t slots;			/* K, the predictive slots */
	uint64_t now;			/* virtual time, ns */
	/*
	 * dl_n > 0: the fabric has deadlocked (docs/model.md "Deadlock"),
	 * found at dl_at, no flit moving since dl_since; its cycle of
	 * waiting channels, in order, is dl[0..dl_n-1]
	 */
	uint32_t dl_n;
	uint64_t dl_at, dl_since;
	struct hn_ctl_dl_channel dl[HYBRIDNET_MAX_DEADLOCK];
};

/* The handle's fabric (hn_ctl_set_fabric()). */
int hn_ctl_fabric_get(struct hn_ctl *c, struct hn_ctl_fabric *f);
/*
 * Every fabric of the caller's network namespace, by number, whatever
 * the handle's: *out, *n entries, to free().
 */
int hn_ctl_fabric_list(struct hn_ctl *c, struct hn_ctl_fabric **out,
		       size_t *n);
/*
 * A new fabric in the caller's namespace, configured by the fields
 * marked in @cfg (NULL, or none marked: the ding4 profile's; a profile
 * given starts from that profile's values), as hn_ctl_config_set() would
 * configure one; *@f (may be NULL) describes it, its number in f->id.
 * Needs CAP_NET_ADMIN over the namespace.
 */
int hn_ctl_fabric_new(struct hn_ctl *c, const struct hn_ctl_config *cfg,
		      struct hn_ctl_fabric *f);
/*
 * Delete fabric @id of the caller's namespace, with its capture
 * interface and the generator's run: -EBUSY while a file or a network
 * interface holds one of its nodes (hn_ctl_errmsg() names it), -ENODEV
 * when there is no such fabric.  Needs CAP_NET_ADMIN.
 */
int hn_ctl_fabric_del(struct hn_ctl *c, uint32_t id);

#define HN_CTL_NODE_END	UINT32_MAX	/* hn_ctl_channel.sw: a node sends */

/* One channel of a link, [HYBRIDNET_DIR_UP] or [HYBRIDNET_DIR_DOWN]. */
struct hn_ctl_channel {
	uint32_t sw, port;		/* its sender: switch and port, or
					   sw HN_CTL_NODE_END, port the node */
	uint64_t bytes, worms;		/* that crossed it */
	uint64_t busy_ns;		/* held by a worm */
	uint64_t credit_stalls;		/* headers short of credit into it */
	uint64_t buf_peak;		/* the buffer it feeds: most bytes */
	uint64_t buf_byte_ns;		/* its bytes, integrated over time */
	uint64_t circuit_bytes;		/* circuits' payload that crossed it */
};

struct hn_ctl_link {
	uint32_t link;
	uint8_t down;			/* taken down */
	uint8_t dead;			/* down, or a switch at an end is */
	uint8_t chans_down;		/* bit J: channel J down alone */
	uint64_t now;			/* when its counters were read */
	struct hn_ctl_channel ch[2];
};

#define HN_CTL_SWITCHING_FABRIC	UINT32_MAX	/* none of its own */

struct hn_ctl_switch {
	uint32_t sw, level;
	uint8_t down;			/* taken down */
	uint32_t switching;		/* its own (hn_ctl_switch_set()):
					   enum hybridnet_switching, or
					   HN_CTL_SWITCHING_FABRIC */
	uint64_t now;
	uint64_t bytes, worms;		/* through it */
	uint64_t blocked_ns;		/* headers waited at its inputs */
	uint64_t credit_stalls;
	uint64_t buf_peak;		/* most bytes one input buffer held */
	uint64_t buf_byte_ns;
	uint64_t buf_bytes;		/* its input buffers hold now */
	uint64_t held;			/* its output ports held now */
	uint64_t circuit_bytes;		/* circuits' payload out of it */
};

#define HN_CTL_ALL	UINT32_MAX

/*
 * The name of port @port of switch @sw of fabric @f, as the module's
 * refusals and hnctl spell it (docs/names.md): "swL.I/upP" or
 * "swL.I/downP" (L the level, I the switch's index in it, P the port's
 * among the up- or down-ports); the switch itself, "swL.I", when @port
 * is HN_CTL_ALL; node @port, "nodeU", when @sw is HN_CTL_NODE_END.  A
 * link is called by the sender of its up channel.  In @buf of @len
 * bytes (40 hold any), or NULL when @f has no such switch, port or node.
 */
const char *hn_ctl_fabric_name(const struct hn_ctl_fabric *f, uint32_t sw,
			       uint32_t port, char *buf, size_t len);
/*
 * A name back into *@sw and *@port, as above: 0, or -EINVAL when @f has
 * no such switch, port or node; with @f NULL, only whether @name has one
 * of the forms (*@sw and *@port unchanged).
 */
int hn_ctl_fabric_parse(const struct hn_ctl_fabric *f, const char *name,
			uint32_t *sw, uint32_t *port);
/*
 * A channel's name, "LINK/cJ" (channel J of a dilated link,
 * docs/names.md), into its link's *@sw and *@port, as above, and J into
 * *@chan: 0, or -EINVAL; with @f NULL, only whether @name has the form.
 */
int hn_ctl_fabric_parse_chan(const struct hn_ctl_fabric *f, const char *name,
			     uint32_t *sw, uint32_t *port, uint32_t *chan);
/*
 * A link's channels down alone (struct hn_ctl_link.chans_down, bit J for
 * channel J) as hnctl links prints them, "0,2", or "-" for none; in @buf
 * of HN_CTL_CHANS_LEN bytes.
 */
#define HN_CTL_CHANS_LEN	16
const char *hn_ctl_chans_name(uint8_t bits, char *buf);

/*
 * FAULT_SET (docs/model.md "Faults"): take down (@down 1) or bring up
 * (0) switch @sw itself when @port is HN_CTL_ALL, else the link on its
 * port @port, node @port's link when @sw is HN_CTL_NODE_END: the numbers
 * hn_ctl_fabric_parse() gives for a name.  EOPNOTSUPP under pure TDM.
 */
int hn_ctl_fault_set(struct hn_ctl *c, uint32_t sw, uint32_t port, int down);
/* FAULT_SET: @count random links between switches down, chosen by @seed */
int hn_ctl_fault_random(struct hn_ctl *c, uint32_t count, uint64_t seed);
/*
 * FAULT_SET under switching drop with dilation 2 or more: channel @chan
 * of the link hn_ctl_fault_set() would name by @sw and @port, alone,
 * down (@down 1) or up (0), -EBUSY for the link's last channel up; and
 * @count random channels of links between switches down, chosen by
 * @seed, every link keeping one (docs/model.md "Faults")
 */
int hn_ctl_fault_chan_set(struct hn_ctl *c, uint32_t sw, uint32_t port,
			  uint32_t chan, int down);
int hn_ctl_fault_random_chans(struct hn_ctl *c, uint32_t count,
			      uint64_t seed);

/*
 * SWITCH_SET (docs/model.md "A switch's own switching"): switch @sw (a
 * number hn_ctl_fabric_parse() gives) switches worms by @switching,
 * HYBRIDNET_SWITCHING_WORMHOLE, _VCT or _SAF, instead of the fabric's;
 * HN_CTL_SWITCHING_FABRIC takes it back to the fabric's.  -EOPNOTSUPP on
 * switching drop, -EINVAL for a switch the fabric has not, for drop, and
 * for vct or saf where vc-flits buffers hold less than a worm, -EBUSY
 * while worms are in the fabric (hn_ctl_errmsg() says which).  Needs
 * CAP_NET_ADMIN.
 */
int hn_ctl_switch_set(struct hn_ctl *c, uint32_t sw, uint32_t switching);

/* Every link (@link HN_CTL_ALL) or one: *out, *n entries, to free(). */
int hn_ctl_links(struct hn_ctl *c, uint32_t link, struct hn_ctl_link **out,
		 size_t *n);
/* Every switch (@sw HN_CTL_ALL) or one: *out, *n entries, to free(). */
int hn_ctl_switches(struct hn_ctl *c, uint32_t sw,
		    struct hn_ctl_switch **out, size_t *n);

/*
 * SCHED_RUN: the kernel runs one of the engine's schedulers (the code of
 * hnsim sched) on a request set and answers with one route per request.
 * Nothing of the fabric is touched.  Needs CAP_NET_ADMIN.
 */
#define HN_CTL_SCHED_REQUEST_MAJOR	0x1	/* levelwise: request by request */
#define HN_CTL_SCHED_KEEP_ON_FAIL	0x2	/* a failed request keeps its links */

struct hn_ctl_sched {
	const char *topology;	/* "crossbar:N" or "fattree:L,W" */
	const char *algo;	/* greedy, kstep, hopcroft-karp (crossbar);
				   levelwise, local-greedy, local-random,
				   optimal (fat tree) */
	uint32_t kstep;		/* kstep's longest augmenting path; 0: not
				   sent (the kernel takes 9) */
	uint32_t flags;		/* HN_CTL_SCHED_*: fat trees; 0: not sent */
	uint64_t seed;		/* local-random's generator; 0: not sent */
};

#define HN_CTL_MAX_LEVELS	16	/* of a fat tree */
#define HN_CTL_NO_LEVEL		UINT32_MAX

struct hn_ctl_route {
	uint32_t src, dst;
	uint32_t result;	/* HYBRIDNET_GRANT_GRANTED or _REFUSED */
	uint32_t level;		/* fat tree, granted: the common ancestor
				   level H (0: one leaf switch); otherwise
				   HN_CTL_NO_LEVEL */
	uint32_t nports;	/* H, for a granted route in a fat tree */
	uint8_t port[HN_CTL_MAX_LEVELS]; /* up-port P_h at level h < H */
};

struct hn_ctl_sched_result {
	uint32_t granted;	/* requests granted */
	uint64_t rounds;	/* kstep: augmenting paths applied */
	struct hn_ctl_stats stats; /* the reply's STATS nest (rounds, ...) */
};

/*
 * Run scheduler @s on @n requests (at most HYBRIDNET_MAX_PAIRS); @out
 * (room for @n) receives the route of each request, in order.  Returns
 * @n, or a negative errno: the kernel refuses a topology, scheduler or
 * request set it cannot take (hn_ctl_errmsg() says why).
 */
int hn_ctl_sched_run(struct hn_ctl *c, const struct hn_ctl_sched *s,
		     const struct hn_ctl_pair *req, size_t n,
		     struct hn_ctl_route *out, struct hn_ctl_sched_result *res);

/*
 * The in-kernel traffic generator.  Start: the pattern (required) and the
 * fields whose HN_CTL_TBIT(HYBRIDNET_ATTR_x) is in mask (exactly one of
 * LOAD_PPM and BATCH; then SIZE, SIZE_MAX, PRED_PPM, ROOT, SEED,
 * WARMUP_NS, MEASURE_NS, DRAIN_NS or LIMIT_NS), size_dist when not ""
 * ("fixed", "uniform", "bimodal", "bimodal:PPM", "8080") and phases when
 * not "" (phased: "global", "global-hint" or "per-node").  Get: the
 * state, and, once a run was started, its configuration (mask says which
 * fields came), why it ended, and its statistics (gen-msgs, inj-msgs,
 * done-msgs, done-bytes, in-flight-msgs, queue-max, mem-max, offered-ppm,
 * accepted-ppm, util-ppm, lat-*-ns, time-ns: the run's virtual time).
 */
struct hn_ctl_traffic {
	uint64_t mask;			/* HN_CTL_TBIT(HYBRIDNET_ATTR_x) */
	char pattern[32];		/* "uniform", ... (as hnsim run) */
	char size_dist[32];
	char phases[16];	/* phased: "global", "global-hint", "per-node"; "" */
	uint32_t load_ppm, batch, size, size_max, pred_ppm, root;
	uint64_t seed, warmup_ns, measure_ns, drain_ns, limit_ns;
	/* get only */
	uint32_t state;			/* enum hybridnet_traffic */
	char why[160];			/* how the run ended; "" before */
	uint64_t now;			/* the engine's virtual time, ns */
	struct hn_ctl_stats stats;
};

int hn_ctl_traffic_start(struct hn_ctl *c, const struct hn_ctl_traffic *t);
/* Stop the run; 0 also when none runs. */
int hn_ctl_traffic_stop(struct hn_ctl *c);
int hn_ctl_traffic_get(struct hn_ctl *c, struct hn_ctl_traffic *t);

/*
 * Not events of the module but of the library, on the subscribed handle:
 * the module was unloaded (the family is gone; events stop), and it was
 * loaded again (the handle has found the new family and joined its events
 * group: events come again).
 */
#define HN_CTL_EVENT_UNLOADED	0x10000
#define HN_CTL_EVENT_LOADED	0x10001

/*
 * An event of the "events" multicast group: of a fabric of the
 * subscriber's network namespace, whatever the handle's fabric.
 */
struct hn_ctl_event {
	uint32_t kind;			/* enum hybridnet_event, or
					   HN_CTL_EVENT_UNLOADED, _LOADED */
	uint32_t fabric;		/* the fabric it is of; the library's
					   own: HN_CTL_FIRST_FABRIC */
	struct hn_ctl_config config;	/* CONFIG: config.mask says which */
	size_t nslots;			/* PRELOAD: slot configurations */
	struct hn_ctl_slot_cfg *slots;
	size_t ngrants;			/* GRANT: the granted requests */
	struct hn_ctl_grant *grants;
	int has_pair, has_slot, all;	/* RELEASE: what was released */
	struct hn_ctl_pair pair;
	uint32_t slot;
	char phase[64];			/* PHASE */
	int has_state;			/* TRAFFIC: the generator's state */
	uint32_t traffic_state;		/* enum hybridnet_traffic */
	char pattern[32];		/* TRAFFIC, when given */
	char why[128];			/* TRAFFIC: how a run ended */
	int has_fault;			/* FAULT: down, and of a switch */
	int down, fault_sw;		/* (else a link) called name, or */
	char name[40];			/* random links down by seed, */
	uint32_t random;		/* or channels (random_chans); */
	uint32_t random_chans;		/* name "LINK/cJ": a channel */
	uint64_t seed;
	uint32_t released;		/* FAULT: the circuits it released */
	uint32_t rerouted;		/* FAULT: and routed again */
	int has_switching;		/* SWITCHING: switch called name */
	uint32_t switching;		/* switches by this now, or
					   HN_CTL_SWITCHING_FABRIC */
	void *mem;			/* owned: hn_ctl_event_free() */
};

/*
 * Join the "events" group (a second socket of the handle), and the
 * generic netlink controller's, to follow the module's unloading and
 * loading: hn_ctl_event_recv() reports those and joins the new family's
 * group by itself.
 */
int hn_ctl_subscribe(struct hn_ctl *c);
/* Its file descriptor, for poll(): POLLIN means an event is waiting. */
int hn_ctl_event_fd(const struct hn_ctl *c);
/*
 * Wait up to @timeout_ms (-1: for ever, 0: not at all) for one event and
 * parse it into *ev; free it with hn_ctl_event_free().  -EAGAIN: none
 * came; -EINTR: a signal arrived; -ENOBUFS: events were lost (the socket
 * overflowed), the next call continues with the events that follow.
 */
int hn_ctl_event_recv(struct hn_ctl *c, struct hn_ctl_event *ev,
		      int timeout_ms);
void hn_ctl_event_free(struct hn_ctl_event *ev);

/* Names: the spec's, or NULL for an unknown value. */
const char *hn_ctl_attr_name(unsigned int attr);
const char *hn_ctl_stat_name(unsigned int stat);
const char *hn_ctl_event_name(unsigned int event);	/* "unloaded" too */
const char *hn_ctl_grant_name(unsigned int result);
const char *hn_ctl_clock_name(unsigned int clock);
const char *hn_ctl_predict_name(unsigned int algo);
const char *hn_ctl_traffic_name(unsigned int state);
/* "fixed", "ses", "sla", "preempt", "slot", "no-w", "dynamic", or numbers,
 * joined by ',' or '+': -EINVAL when unknown. */
int hn_ctl_policy_parse(const char *s, uint32_t *policy);
/* The name hn_ctl_policy_parse() reads back as @policy. */
const char *hn_ctl_policy_str(uint32_t policy, char *buf, size_t len);
/*
 * A number field the engine reads and prints as text, "policy" or
 * "dilation-levels" ("2,2,3,5"), as the engine does: @s into *@v, 0,
 * -EINVAL, or -ENOENT for a field of another kind (*@v unchanged); and @v
 * as that text into @buf, NULL for a field of another kind.
 */
int hn_ctl_field_parse(const struct hn_ctl_field *f, const char *s,
		       uint32_t *v);
const char *hn_ctl_field_str(const struct hn_ctl_field *f, uint32_t v,
			     char *buf, size_t len);

#endif /* LIBHYBRIDNET_H */
