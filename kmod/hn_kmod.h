/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hn_kmod.h - state shared by the kernel glue of hybridnet: main.c (load,
 * unload, parameters), fabrics.c (the fabrics: making, finding, deleting),
 * port.c (ports and messages), clock.c (the kthread), dev.c
 * (/dev/hybridnet), netdev.c (the interfaces), capture.c (the capture
 * interface), dev_stats.c, sysfs.c, generator.c and the netlink files
 * (hn_nl.h).  The locking and lifetime rules are in main.c.
 */
#ifndef HN_KMOD_H
#define HN_KMOD_H

#include <linux/atomic.h>
#include <linux/hrtimer.h>
#include <linux/kobject.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/llist.h>
#include <linux/math64.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/sizes.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/wait.h>
#include <linux/hybridnet.h>
#include <net/dropreason.h>

#include "hn_core.h"
#include "cfg_field.h"		/* the configuration's fields */
#include "hn_traffic.h"
#include "idem.h"

enum hn_clock_mode {
	HN_CLOCK_FREE,		/* as fast as the CPU allows while busy */
	HN_CLOCK_PACED,		/* virtual time follows wall time */
};

enum hn_preload_mode {
	HN_PRELOAD_NONE,
	HN_PRELOAD_SHIFT,	/* slot s: u -> u + s + 1 (mod N) */
};

/* Errors returned to user space, by kind (hn_lists.h, sysfs errors/). */
enum hn_err_kind {
#define HN_ERROR(kind, file)	HN_E_##kind,
#include "hn_lists.h"
#undef HN_ERROR
	HN_E_NR
};

/* The statistics sysfs and netlink share (hn_lists.h), by index. */
enum hn_gstat_index {
#define HN_GSTAT(file, stat, value)	HN_GS_##file,
#include "hn_lists.h"
#undef HN_GSTAT
	HN_GS_NR
};

enum hn_nstat_index {
#define HN_NSTAT(file, stat, value)	HN_NS_##file,
#include "hn_lists.h"
#undef HN_NSTAT
	HN_NS_NR
};

/* A minimum with no sample reads 0. */
static inline u64 hn_lat_min(u64 v)
{
	return v == HN_U64_MAX ? 0 : v;
}

static inline u64 hn_lat_mean(u64 sum, u64 n)
{
	return n ? div64_u64(sum, n) : 0;
}

/* The @permille-th latency of the messages @mode carried (upper bound). */
static inline u64 hn_mode_percentile(const struct hn_gstats *g, u32 mode,
				     u32 permille)
{
	return hn_hist_percentile(g->hist_mode[mode], g->lat_mode[mode].min,
				  g->lat_mode[mode].max, permille);
}

/* The owner of a message written to the device (m->owner). */
#define HN_OWNER_DEV	0
/* A copy of the exactly-once protocol's (idem.c): MSG, ACK or ACK2 */
#define HN_OWNER_IDEM	0xfe

/*
 * A message: the engine's part first, then where the payload is (port.c).
 * A file's message carries its payload in buf[]; an interface's carries
 * the frame's skb itself (no copy), and data points into it.
 */
struct hn_kmsg {
	struct hn_msg m;
	struct list_head list;		/* on hn_port.rxq once delivered */
	struct sk_buff *skb;		/* an interface's frame, or NULL */
	u8 *data;			/* the payload: buf, or skb->data */
	u8 from;			/* enum hybridnet_capture_from */
	/* exactly once: its receive space went back as its copy arrived */
	u8 credited;
	u8 mcast;			/* a copy of a multicast */
	u8 buf[];
};

/* The receive space a delivered message still holds in the fabric. */
static inline u32 hn_kmsg_rx_bytes(const struct hn_kmsg *km)
{
	return km->credited ? 0 : km->m.len;
}

/*
 * Node @node's MAC, its interface's and its capture frames':
 * 02:68:6e:00:HH:LL ("hn", then the node as a 16-bit big-endian number).
 */
static inline void hn_node_mac(u8 *mac, u32 node)
{
	mac[0] = 0x02;
	mac[1] = 0x68;
	mac[2] = 0x6e;
	mac[3] = 0;
	mac[4] = node >> 8;
	mac[5] = node & 0xff;
}

struct hn_sink;

/* One virtual node as the device sees it. */
struct hn_port {
	u32 id;
	struct hn_sink *owner;		/* hd->lock; NULL: unbound */
	u32 room;			/* hd->lock: last hn_nic_room() seen */
	u64 rx_dropped;			/* hd->lock */
	spinlock_t lock;		/* the fields below; bottom halves off */
	struct list_head rxq;		/* delivered, not yet read */
	u32 rx_count;
	u32 rx_unreturned;		/* read, space not yet consumed */
	u64 rx_read;			/* messages read by the owner */
};

struct device;
struct hn_nkobj;
struct hn_lkobj;
struct hn_cap;
struct hn_gen;
struct hn_dev;

/*
 * What the clock runs as one step: the engine's slots by default (clock.c),
 * or another stepper in their place (the generator's run driver).
 */
struct hn_stepper {
	/*
	 * Up to @budget steps while the engine's time is below @until;
	 * returns the steps run, *@stuck when none could run.  hd->lock.
	 */
	u32 (*run)(struct hn_dev *hd, u32 budget, u64 until, bool *stuck);
	/* only the clock kthread runs it; busy until it is taken away */
	bool exclusive;
};

/*
 * What takes delivered messages (port.c): the owner of a port, which is
 * a file of /dev/hybridnet (dev.c) or a network interface (netdev.c), and
 * the in-kernel generator (generator.c), whose messages (m->owner
 * HN_OWNER_TRUN) reach it whatever their node.  Every op but deliver is
 * optional.
 */
struct hn_sink_ops {
	/*
	 * @m has arrived: take it.  hd->lock, from the engine's step: only
	 * hn_consume() may be called into the engine from here.
	 */
	void (*deliver)(struct hn_sink *s, struct hn_msg *m);
	/* hn_destroy() hands back @m, still in flight (NULL: a hn_kmsg) */
	void (*reclaim)(struct hn_sink *s, struct hn_msg *m);
	/*
	 * In a step: @node's NIC has more room at @t (struct hn_ops.room);
	 * true stops the engine there.
	 */
	bool (*room)(struct hn_sink *s, u32 node, u64 t);
	/*
	 * After the steps: the NIC room of the owner's node changed since
	 * it asked with hn_port_want_room(), and is @room now.  hd->lock.
	 */
	void (*wake)(struct hn_sink *s, u32 room);
	/* The clock kthread's, asked for with hn_sink_kick().  hd->lock. */
	void (*service)(struct hn_sink *s);
	/*
	 * The fabric is deleted (hd->dead): whoever sleeps on the owner
	 * wakes, to find it so.  hd->lock.
	 */
	void (*gone)(struct hn_sink *s);
	/* Who it is, as hn_port_holder() says it. */
	int (*holder)(const struct hn_sink *s, char *buf, size_t len);
	/* An interface's name (hn_ports_busy() names those first), or NULL. */
	const char *(*ifname)(const struct hn_sink *s);
	/*
	 * Optional: the exactly-once protocol gave up a message the owner
	 * wrote, with @err (-ETIMEDOUT): the owner's next call says so.
	 * hd->lock.
	 */
	void (*error)(struct hn_sink *s, int err);
};

struct hn_sink {
	const struct hn_sink_ops *ops;
	struct hn_dev *hd;
	struct hn_port *port;		/* set once, when bound (release) */
	struct llist_node kick;		/* on hd->kicked while asked for */
	unsigned long kicked;		/* bit 0: on hd->kicked */
};

/*
 * One fabric (fabrics.c makes and deletes it): the engine and everything
 * around it.  The name is the device's of old; "hd" everywhere.
 */
struct hn_dev {
	/* the fabric as an object (fabrics.c) */
	u32 id;				/* fabricN, 0..HYBRIDNET_MAX_FABRICS-1 */
	/*
	 * its network namespace (not counted): the admin of that
	 * namespace's user namespace owns the fabric
	 */
	struct net *net;
	struct list_head list;		/* fabrics.c: its namespace's, by id */
	struct kref ref;		/* fabrics.c: hn_fabric_put() */
	bool dead;			/* nl_lock and hd->lock: deleted */
	struct device *dev;		/* /sys/class/hybridnet/fabricN */

	/* the engine and everything marked hd->lock */
	struct mutex lock;
	struct hn_engine *e;
	/* exactly once for the files' messages (port.c), or NULL: with e */
	struct hn_idem *idem;
	struct hn_config cfg;		/* the engine's, kept in step */
	struct hn_sink *sink;		/* hd->lock: other owners' messages */
	/* hd->lock and the RTNL: the capture interface, or NULL (capture.c) */
	struct hn_cap *cap;
	bool frozen;			/* hd->lock: no binding (rebuild) */
	struct hn_port *ports;
	/* hd->lock: nodes with a writer or poller waiting for room */
	unsigned long *tx_wait;
	struct hn_gstats *gs;		/* hd->lock: scratch for sysfs */
	u64 delivered;			/* hd->lock: deliveries, never reset */
	u64 rx_dropped;			/* hd->lock */
	/* port.c: the memory of messages written, allocated and not freed */
	atomic_long_t msg_mem;		/* bytes, headers and slab included */
	long msg_mem_max;		/* set at load, never changed */
	wait_queue_head_t mem_wq;	/* writers waiting for msg_mem */
	atomic64_t mem_waits;		/* writes that slept for msg_mem */
	atomic64_t err[HN_E_NR];
	atomic64_t tx_waits;		/* writes that slept for NIC room */

	/* clock (clock.c) */
	const struct hn_stepper *stepper;	/* hd->lock */
	enum hn_clock_mode clock;
	u32 pace_ppm;
	u32 tick_us;
	struct task_struct *clock_task;
	wait_queue_head_t clock_wq;
	atomic_t kicks;			/* something may have to run */
	struct llist_head kicked;	/* sinks waiting for their service */
	atomic_t ticks;			/* paced: hrtimer expired */
	struct hrtimer timer;
	u32 budget;			/* steps per batch under the lock */
	u32 step_bytes;			/* least a busy slot carries */
	u32 rx_batch;			/* bytes read before hn_consume() */
	u64 stall_ns;			/* no byte moved this long: stalled */
	u64 progress_at;		/* hd->lock: virtual time of progress */
	u64 progress_bytes;		/* hd->lock */
	u64 progress_msgs;		/* hd->lock */
	u64 v_base, w_base;		/* hd->lock: paced origin */
	bool clock_active;		/* hd->lock: kthread between kicks */
	u64 steps;			/* hd->lock */
	u64 stalls;			/* hd->lock */
	u64 wakeups;			/* hd->lock: kthread woken to work */
	u64 late_steps;			/* hd->lock: paced, run over a tick late */
	u64 slip_ns;			/* hd->lock: paced, virtual time slipped */
	atomic64_t overruns;

	u32 rebuilds;			/* hd->lock: fabrics replaced */
	u32 resets;			/* hd->lock: statistics cleared */
	/* netdev.c: the interfaces (RTNL and hd->lock), their nodes' bits */
	struct list_head netdevs;
	DECLARE_BITMAP(nd_nodes, HN_MAX_NODES);
	struct hn_gen *gen;		/* hd->lock: generator.c */
	struct mutex nl_lock;		/* netlink: one state change at a time */

	/* configuration strings, for sysfs */
	const char *profile;
	enum hn_preload_mode preload;

	struct kobject *nodes_kobj;	/* nodes/ */
	struct hn_nkobj **nkobj;	/* nl_lock: nodes/<n>/ */
	u32 nkobj_count;		/* nl_lock: nodes/ holds 0..count-1 */
	struct kobject *fabric_kobj;	/* fabric/ */
	struct hn_lkobj *lkobj[HYBRIDNET_MAX_PATH + 1];	/* nl_lock: levelN/ */
	u32 lkobj_count;		/* nl_lock: fabric/ holds 0..count-1 */
};

/* One port's counters and state, for sysfs and netlink. */
struct hn_port_stats {
	u64 rx_read;			/* messages read by the owner */
	u64 rx_queued;			/* delivered, not yet read */
	u64 rx_dropped;			/* delivered with nobody bound */
	u32 nic_room;			/* free bytes in the NIC buffer */
	bool bound;
};

/* An open file of /dev/hybridnet (dev.c). */
struct hn_file {
	struct hn_sink sink;		/* the owner of its port, once bound */
	wait_queue_head_t wq;		/* readers, writers, poll */
	struct mutex rlock;		/* one reader at a time */
	u32 tx_want;			/* POLLOUT threshold, see dev.c */
	int err;			/* a message given up: -ETIMEDOUT */
	/* who bound it, for hn_port_holder(): set with sink.port */
	struct pid *pid;
	char comm[TASK_COMM_LEN];
};

static inline void hn_count_err(struct hn_dev *hd, enum hn_err_kind k)
{
	atomic64_inc(&hd->err[k]);
}

/* What a fabric is made of: the module parameters', or FABRIC_NEW's. */
struct hn_fabric_cfg {
	struct hn_config cfg;		/* checked (hn_config_check()) */
	const char *profile;		/* hn_profile_name()'s */
	enum hn_clock_mode clock;
	u32 pace_ppm;			/* 1..HN_NS_MAX */
	u32 tick_us;			/* 10..1000000 */
	long msg_mem_max;		/* HN_MSG_MEM_MIN..half of RAM */
	enum hn_preload_mode preload;	/* shift needs cfg.k >= 1 */
};

/* fabrics.c: the fabrics, by number and by network namespace */
#define HN_FABRIC_FIRST	HYBRIDNET_FABRIC_FIRST	/* the namespace's first */
int hn_fabrics_init(void);
void hn_fabrics_exit(void);
void hn_fabric_cfg_default(struct hn_fabric_cfg *fc);
struct hn_dev *hn_fabric_new(struct net *net, const struct hn_fabric_cfg *fc,
			     const char **why);
struct hn_dev *hn_fabric_get(struct net *net, u32 id);
struct hn_dev *hn_fabric_next(struct net *net, u32 id);
void hn_fabric_hold(struct hn_dev *hd);
void hn_fabric_put(struct hn_dev *hd);
int hn_fabric_del(struct hn_dev *hd, char *why, size_t len);

/* port.c */
struct sk_buff;
int hn_port_engine_new(struct hn_dev *hd, const struct hn_config *c,
		       struct hn_engine **e, struct hn_idem **x);
void hn_port_engine_free(struct hn_engine *e, struct hn_idem *x);
bool hn_fabric_busy(struct hn_dev *hd);
const struct hn_idem_stats *hn_dev_idem(const struct hn_dev *hd);
struct hn_port *hn_ports_alloc(const struct hn_config *c);
void hn_ports_refill(struct hn_dev *hd);
long hn_kmsg_size(u32 len);
bool hn_msg_mem_room(struct hn_dev *hd, u32 len);
long hn_msg_mem_reserve(struct hn_dev *hd, long want, long least);
void hn_msg_mem_release(struct hn_dev *hd, long size);
struct hn_kmsg *hn_kmsg_alloc(struct hn_dev *hd, u32 len, bool nonblock,
			      u8 from);
int hn_kmsgs_alloc(struct hn_dev *hd, u32 len, u32 n, bool nonblock, u8 from,
		   struct hn_kmsg **km);
struct hn_kmsg *hn_kmsg_wrap(struct hn_dev *hd, struct sk_buff *skb);
struct sk_buff *hn_kmsg_unwrap(struct hn_dev *hd, struct hn_kmsg *km);
void hn_kmsg_free(struct hn_dev *hd, struct hn_kmsg *km);
void hn_kmsg_drop(struct hn_dev *hd, struct hn_kmsg *km,
		  enum skb_drop_reason reason);
void hn_port_set_sink(struct hn_dev *hd, struct hn_sink *sink);
int hn_port_bind(struct hn_dev *hd, struct hn_port *p, struct hn_sink *s);
bool hn_port_unbind(struct hn_dev *hd, struct hn_port *p);
void hn_port_rx_push(struct hn_port *p, struct hn_kmsg *km);
void hn_port_refuse(struct hn_dev *hd, struct hn_port *p,
		    struct hn_kmsg *km, enum skb_drop_reason reason);
u32 hn_port_rx_flush(struct hn_dev *hd, struct hn_port *p,
		     enum skb_drop_reason reason, bool *gave);
struct hn_kmsg *hn_port_peek(struct hn_port *p);
bool hn_port_rx_ready(struct hn_port *p);
u32 hn_port_pop(struct hn_dev *hd, struct hn_port *p, struct hn_kmsg *km);
u32 hn_port_take(struct hn_port *p, struct list_head *list, u32 max);
u32 hn_port_taken(struct hn_dev *hd, struct hn_port *p, u32 n, u32 bytes);
void hn_port_credit(struct hn_dev *hd, struct hn_port *p, u32 bytes);
void hn_port_want_room(struct hn_dev *hd, struct hn_port *p);
void hn_ports_wake_writers(struct hn_dev *hd);
void hn_port_rx_queue(struct hn_port *p, u32 *queued, u32 *next_len);
void hn_port_stats(struct hn_dev *hd, struct hn_port *p,
		   struct hn_port_stats *ps);
int hn_port_holder(struct hn_dev *hd, const struct hn_port *p, char *buf,
		   size_t len);
bool hn_ports_busy(struct hn_dev *hd, char *buf, size_t len);
void hn_ports_reset_stats(struct hn_dev *hd);
void hn_ports_wake_all(struct hn_dev *hd);

/* clock.c */
int hn_clock_start(struct hn_dev *hd, enum hn_clock_mode mode, u32 pace_ppm);
void hn_clock_stop(struct hn_dev *hd);
int hn_clock_restart(struct hn_dev *hd, enum hn_clock_mode mode,
		     u32 pace_ppm);
void hn_clock_configure(struct hn_dev *hd);
void hn_clock_set_stepper(struct hn_dev *hd, const struct hn_stepper *st);
void hn_clock_kick(struct hn_dev *hd);
void hn_sink_kick(struct hn_sink *s);
void hn_clock_service(struct hn_dev *hd);
void hn_clock_sync(struct hn_dev *hd);
bool hn_clock_drive(struct hn_dev *hd, u32 budget);
u32 hn_clock_budget(struct hn_dev *hd, u32 len);
void hn_clock_reset_stats(struct hn_dev *hd);

/* dev_stats.c: the device's statistics as a whole */
struct hn_gstats *hn_dev_gstats(struct hn_dev *hd);
u32 hn_dev_circuits(const struct hn_engine *e);
void hn_dev_reset_stats(struct hn_dev *hd);
void hn_dev_node_stats(struct hn_dev *hd, u32 u, u64 *v);

/*
 * The least msg_mem_max_bytes: eight of the largest messages, each of which
 * the allocator may round up to 2 MiB.
 */
#define HN_MSG_MEM_MIN		(16L << 20)

/*
 * The memory one run of the generator may hold, in its source queues and
 * in the fabric: its messages and what the engine takes for each
 * (hn_msg_mem(): on a fat tree mostly worms, 64 + 40 bytes a hop), as the
 * allocator rounds them.  A run reserves it from msg_mem_max_bytes when
 * it starts: HN_GEN_MEM_MAX, at most half of msg_mem_max_bytes, less if
 * the device's messages hold more, and START refuses with ENOBUFS below
 * HN_GEN_MEM_MIN.  A run that would hold more ends as saturated.
 */
#define HN_GEN_MEM_MAX		((long)SZ_64M)
#define HN_GEN_MEM_MIN		((long)SZ_1M)	/* "1 MiB" in generator.c */

/* generator.c: what TRAFFIC_GET and the events report */
struct hn_gen_state {
	u32 state;			/* enum hybridnet_traffic */
	const char *why;		/* how it ended; NULL before */
	const struct hn_tcfg *t;	/* the run's configuration */
	const struct hn_trun_cfg *rc;
	const char *dist;		/* size distribution, as given */
	u64 now;			/* the engine's time */
	u64 elapsed;			/* the run's virtual time */
};

int hn_gen_start(struct hn_dev *hd, struct hn_tcfg *t,
		 const struct hn_trun_cfg *rc, const char *dist,
		 void (*ended)(struct hn_dev *hd), struct hn_err *err,
		 const char **busy);
void hn_gen_go(struct hn_dev *hd);
bool hn_gen_active(struct hn_dev *hd);
bool hn_gen_stop(struct hn_dev *hd, const char *why);
const struct hn_tres *hn_gen_state(struct hn_dev *hd,
				   struct hn_gen_state *s);
void hn_gen_exit(struct hn_dev *hd);
void hn_gen_free(struct hn_dev *hd);

/* dev.c */
int hn_dev_init(void);
void hn_dev_exit(void);

/* netdev.c: network interfaces, each the owner of a node */
struct net;
struct net_device;
int hn_netdev_kind_register(void);
void hn_netdev_kind_unregister(void);
void hn_netdevs_del_all(struct hn_dev *hd);
int hn_netdev_del(struct hn_dev *hd, struct net *net, const char *name,
		  u32 node);
struct net_device *hn_netdev_get(struct hn_dev *hd, u32 node);

/* capture.c: the capture interface (hnmon0) */
enum hn_cap_cnt {		/* its counters, ethtool -S */
	HN_CAP_CAPTURED,	/* frames made and queued */
	HN_CAP_TRUNCATED,	/* of them, the payload cut at snaplen */
	HN_CAP_DROP_NO_MEM,	/* no frame: no memory */
	HN_CAP_DROP_RING_FULL,	/* no frame: the ring full */
	HN_CAP_CNT_NR
};

#define HN_CAP_RING_DEFAULT	1024	/* frames waiting for the stack */
#define HN_CAP_RING_MAX		65536

enum hn_cap_why {		/* why it cannot be made */
	HN_CAP_WHY_EXISTS,	/* another one exists */
	HN_CAP_WHY_NAME,	/* the name is taken */
	HN_CAP_WHY_REGISTER,	/* register_netdevice() failed */
	HN_CAP_WHY_UP,		/* it could not be brought up */
};

struct hn_cap_info {
	char name[16];		/* IFNAMSIZ */
	u32 ifindex;
	u64 netns_cookie;
	u32 snaplen, ring;
	u64 cnt[HN_CAP_CNT_NR];
};

void hn_cap_deliver(struct hn_cap *cap, const struct hn_msg *m,
		    const struct hn_kmsg *km);
int hn_cap_init(void);
void hn_cap_exit(void);
const char *hn_cap_why(enum hn_cap_why why);
int hn_cap_add(struct hn_dev *hd, struct net *net, const char *name,
	       u32 snaplen, u32 ring, enum hn_cap_why *why);
int hn_cap_del(struct hn_dev *hd);
int hn_cap_info(struct hn_dev *hd, struct hn_cap_info *ci);

/* sysfs.c */
extern const struct attribute_group *hn_dev_groups[];
int hn_sysfs_nodes_add(struct hn_dev *hd);
int hn_sysfs_nodes_resize(struct hn_dev *hd, u32 n);
void hn_sysfs_nodes_del(struct hn_dev *hd);
int hn_sysfs_fabric_add(struct hn_dev *hd);
int hn_sysfs_fabric_resize(struct hn_dev *hd, const struct hn_config *c);
void hn_sysfs_fabric_del(struct hn_dev *hd);

#endif /* HN_KMOD_H */
