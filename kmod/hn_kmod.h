/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hn_kmod.h - state shared by the kernel glue of hybridnet (main.c,
 * clock.c, dev.c, sysfs.c, traffic.c).  The locking rules are in main.c.
 */
#ifndef HN_KMOD_H
#define HN_KMOD_H

#include <linux/atomic.h>
#include <linux/hrtimer.h>
#include <linux/kobject.h>
#include <linux/list.h>
#include <linux/miscdevice.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/wait.h>
#include <linux/hybridnet.h>

#include "hn_core.h"
#include "hn_traffic.h"

enum hn_clock_mode {
	HN_CLOCK_FREE,		/* as fast as the CPU allows while busy */
	HN_CLOCK_PACED,		/* virtual time follows wall time */
};

enum hn_preload_mode {
	HN_PRELOAD_NONE,
	HN_PRELOAD_SHIFT,	/* slot s: u -> u + s + 1 (mod N) */
};

/* Errors returned to user space, by kind (sysfs errors/). */
enum hn_err_kind {
	HN_E_WRITE_UNBOUND,	/* ENOTCONN */
	HN_E_WRITE_SHORT,	/* EINVAL: shorter than the header */
	HN_E_WRITE_FLAGS,	/* EINVAL: flags != 0 */
	HN_E_WRITE_LEN,		/* EINVAL: len != write size - header */
	HN_E_WRITE_EMPTY,	/* EINVAL: len == 0 */
	HN_E_WRITE_TOO_BIG,	/* EMSGSIZE: len > max_msg_bytes */
	HN_E_WRITE_DST,		/* EINVAL: dst >= nodes */
	HN_E_WRITE_UNREACH,	/* EHOSTUNREACH: no route (pure TDM) */
	HN_E_WRITE_FAULT,	/* EFAULT */
	HN_E_WRITE_NOMEM,	/* ENOMEM */
	HN_E_WRITE_AGAIN,	/* EAGAIN: NIC buffer full, O_NONBLOCK */
	HN_E_WRITE_INTR,	/* ERESTARTSYS: signal while waiting */
	HN_E_READ_UNBOUND,	/* ENOTCONN */
	HN_E_READ_TOO_SMALL,	/* EMSGSIZE: buffer shorter than message */
	HN_E_READ_FAULT,	/* EFAULT */
	HN_E_READ_AGAIN,	/* EAGAIN: nothing to read, O_NONBLOCK */
	HN_E_READ_INTR,		/* ERESTARTSYS */
	HN_E_BIND_RANGE,	/* EINVAL: node >= nodes */
	HN_E_BIND_BUSY,		/* EBUSY */
	HN_E_IOCTL_FAULT,	/* EFAULT */
	HN_E_IOCTL_UNKNOWN,	/* ENOTTY */
	HN_E_NR
};

/* A message: the engine's part first, the payload after it. */
struct hn_kmsg {
	struct hn_msg m;
	struct list_head list;		/* on hn_port.rxq once delivered */
	u8 data[];
};

struct hn_file;

/* One virtual node as the device sees it. */
struct hn_port {
	u32 id;
	struct hn_file *owner;		/* hd->lock; NULL: unbound */
	u32 room;			/* hd->lock: last hn_nic_room() seen */
	u64 rx_dropped;			/* hd->lock */
	spinlock_t lock;		/* protects the fields below */
	struct list_head rxq;		/* delivered, not yet read */
	u32 rx_count;
	u32 rx_unreturned;		/* read, space not yet consumed */
	u64 rx_read;			/* messages read by the owner */
	wait_queue_head_t wq;		/* readers, writers, poll */
};

struct hn_nkobj;
struct hn_gen;

struct hn_dev {
	/* the engine and everything marked hd->lock */
	struct mutex lock;
	struct hn_engine *e;
	const struct hn_ops *ops;	/* the engine's callbacks (main.c) */
	struct hn_config cfg;		/* the engine's, kept in step */
	bool frozen;			/* hd->lock: no binding (rebuild) */
	struct hn_port *ports;
	/* hd->lock: nodes with a writer or poller waiting for room */
	unsigned long *tx_wait;
	struct hn_gstats *gs;		/* hd->lock: scratch for sysfs */
	u64 delivered;			/* hd->lock: deliveries, never reset */
	u64 rx_dropped;			/* hd->lock */
	atomic_long_t live_msgs;	/* allocated and not yet freed */
	atomic64_t err[HN_E_NR];
	atomic64_t tx_waits;		/* writes that slept for NIC room */

	/* clock (clock.c) */
	enum hn_clock_mode clock;
	u32 pace_ppm;
	u32 tick_us;
	struct task_struct *clock_task;
	wait_queue_head_t clock_wq;
	atomic_t kicks;			/* something may have to run */
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
	atomic64_t overruns;

	struct hn_gen *gen;		/* hd->lock: generator (traffic.c) */

	/* configuration strings, for sysfs */
	const char *profile;
	enum hn_preload_mode preload;

	struct miscdevice misc;
	struct kobject *nodes_kobj;	/* nodes/ */
	struct hn_nkobj **nkobj;	/* nodes/<n>/ */
	u32 nkobj_count;
};

struct hn_file {
	struct hn_dev *hd;
	struct hn_port *port;		/* set once, under hd->lock */
	struct mutex rlock;		/* one reader at a time */
	u32 tx_want;			/* POLLOUT threshold, see dev.c */
};

static inline void hn_count_err(struct hn_dev *hd, enum hn_err_kind k)
{
	atomic64_inc(&hd->err[k]);
}

/* main.c */
void hn_kmsg_free(struct hn_dev *hd, struct hn_kmsg *km);
void hn_dev_reset_stats(struct hn_dev *hd);

/* clock.c */
int hn_clock_start(struct hn_dev *hd);
void hn_clock_stop(struct hn_dev *hd);
int hn_clock_restart(struct hn_dev *hd, enum hn_clock_mode mode,
		     u32 pace_ppm);
void hn_clock_configure(struct hn_dev *hd);
void hn_clock_kick(struct hn_dev *hd);
void hn_clock_sync(struct hn_dev *hd);
bool hn_clock_drive(struct hn_dev *hd, u32 budget);
u32 hn_clock_budget(struct hn_dev *hd, u32 len);
void hn_clock_reset_stats(struct hn_dev *hd);
void hn_wake_writers(struct hn_dev *hd);

/* traffic.c: what TRAFFIC_GET and the events report */
struct hn_traffic_state {
	u32 state;			/* enum hybridnet_traffic */
	const char *why;		/* how it ended; NULL before */
	const struct hn_tcfg *t;	/* the run's configuration */
	const struct hn_trun_cfg *rc;
	const char *dist;		/* size distribution, as given */
	u64 now;			/* the engine's time */
	u64 elapsed;			/* the run's virtual time */
};

bool hn_traffic_active(struct hn_dev *hd);
u32 hn_traffic_run(struct hn_dev *hd, u32 budget, u64 until);
void hn_traffic_delivered(struct hn_dev *hd, struct hn_msg *m);
void hn_traffic_reclaimed(struct hn_dev *hd, struct hn_msg *m);
int hn_traffic_start(struct hn_dev *hd, struct hn_tcfg *t,
		     const struct hn_trun_cfg *rc, const char *dist,
		     struct hn_err *err, const char **busy);
void hn_traffic_go(struct hn_dev *hd);
bool hn_traffic_stop(struct hn_dev *hd, const char *why);
const struct hn_tres *hn_traffic_state(struct hn_dev *hd,
				       struct hn_traffic_state *s);
void hn_traffic_exit(struct hn_dev *hd);
void hn_traffic_free(struct hn_dev *hd);

/* dev.c */
extern const struct file_operations hn_fops;

/* sysfs.c */
extern const struct attribute_group *hn_dev_groups[];
int hn_sysfs_nodes_add(struct hn_dev *hd);
void hn_sysfs_nodes_del(struct hn_dev *hd);

#endif /* HN_KMOD_H */
