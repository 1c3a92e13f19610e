// SPDX-License-Identifier: GPL-2.0
/*
 * hybridnet - an emulated hybrid interconnect: N virtual nodes on a
 * crossbar whose time a TDM controller shares between predictive circuit
 * slots and a wormhole slot.  The engine (kmod/core/) does the networking
 * in virtual time; this file loads it with the module parameters and ties
 * the clock (clock.c), the device (dev.c) and sysfs (sysfs.c) to it.
 *
 * Locking
 * -------
 * hd->lock (a mutex) serialises every call into the engine, which is
 * single-threaded and allocates with GFP_KERNEL.  It also protects what
 * the engine's deliver callback touches outside the receive queues: each
 * port's owner, room and rx_dropped, the tx_wait bitmap, hd->delivered,
 * hd->rx_dropped, the sysfs scratch buffer and the clock's bookkeeping.
 * port->lock (a spinlock, never taken in interrupt context) protects one
 * node's receive queue and its read counter; it nests inside hd->lock.
 * file->rlock (a mutex) lets one reader at a time take a message from the
 * queue, so a message is copied out and only then removed.
 * hd->lock is never held while copying to or from user space.
 *
 * Who runs what
 * -------------
 * The clock kthread "hybridnet" runs the engine's slots under hd->lock in
 * batches of hd->budget steps, so nobody waits for more than one batch.
 * In paced mode an hrtimer wakes it every tick_us (the callback only
 * wakes it); in free mode writes and reads kick it.  With the free clock
 * a write that finds the fabric idle runs its own message's slots in the
 * writer's context (a bounded number, hn_clock_budget()), and a read that
 * returns receive space while the kthread rests does the same, so light
 * traffic needs no context switch; the kthread takes over whatever is
 * left and detects stalls.  Deliveries happen in whichever context runs
 * the slots: the deliver callback queues the message on the destination
 * port and wakes its readers.  System calls (dev.c) sleep on the port's
 * wait queue, never while holding a lock.  sysfs reads take hd->lock for
 * the duration of one copy of the statistics.
 *
 * The in-kernel generator (traffic.c) has no thread or lock of its own:
 * its state (hd->gen) is under hd->lock, and while a run is active the
 * clock kthread calls hn_traffic_run() in place of hn_step(), so the run
 * driver generates before every slot; writers and readers then leave the
 * slots to the kthread.  The deliver and reclaim callbacks hand the
 * generator's messages (m->owner == HN_OWNER_TRUN) to it; they never reach
 * a port.  Its netlink commands are serialised by genl_mutex like the
 * others; the event at the end of a run is sent from a work item, which
 * takes hd->lock to build it and sends it after.
 *
 * Lifetime: the misc device holds a module reference for every open file,
 * so the module cannot be unloaded while a file is open (delete_module
 * fails with EWOULDBLOCK).  On unload the netlink family goes first, then
 * the generator stops (no more events), then the device, the kthread,
 * and the engine, which hands back the messages still in flight, the
 * generator's to it; then the generator's last run is freed.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitmap.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/poll.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "hn_kmod.h"
#include "hn_nl.h"

#define NS_MAX		1000000000
#define UNSET		(-1)

/*
 * Engine parameters.  UNSET (-1) takes the value of the profile; any
 * other value must lie in the range given in its description.
 */
static char *profile = "ding4";
module_param(profile, charp, 0444);
MODULE_PARM_DESC(profile, "timing profile: ding4 (Ch. 4, default) or ding5 (Ch. 5)");

static int nodes = UNSET;
module_param(nodes, int, 0444);
MODULE_PARM_DESC(nodes, "virtual nodes, 2..4096 (default: profile)");

static int k = UNSET;
module_param(k, int, 0444);
MODULE_PARM_DESC(k, "predictive TDM slots, 0..64 (default: profile)");

static int policy = UNSET;
module_param(policy, int, 0444);
MODULE_PARM_DESC(policy, "cycle-controller flags (enum hn_policy): 1 SES, 2 SLA, 4 PREEMPT, 8 PREEMPT per slot, 16 no wormhole slot, 32 dynamic TDM (default: profile)");

static int link_mbps = UNSET;
module_param(link_mbps, int, 0444);
MODULE_PARM_DESC(link_mbps, "link rate in Mb/s, 1..1000000 (default: profile)");

static int slot_p_ns = UNSET;
module_param(slot_p_ns, int, 0444);
MODULE_PARM_DESC(slot_p_ns, "predictive slot length in ns, 1..1000000000 (default: profile)");

static int slot_w_ns = UNSET;
module_param(slot_w_ns, int, 0444);
MODULE_PARM_DESC(slot_w_ns, "wormhole slot length in ns with SLA, 1..1000000000 (default: profile)");

static int guard_ns = UNSET;
module_param(guard_ns, int, 0444);
MODULE_PARM_DESC(guard_ns, "guard band per slot in ns, 0..999999999, below every slot length (default: profile)");

static int sched_ns = UNSET;
module_param(sched_ns, int, 0444);
MODULE_PARM_DESC(sched_ns, "predictive scheduler latency in ns, 0..1000000000 (default: profile)");

static int setup_ns = UNSET;
module_param(setup_ns, int, 0444);
MODULE_PARM_DESC(setup_ns, "switch configuration delay in ns, 0..1000000000 (default: profile)");

static int wh_first_ns = UNSET;
module_param(wh_first_ns, int, 0444);
MODULE_PARM_DESC(wh_first_ns, "wormhole first flit in ns, wh_flit_ns..1000000000 (default: profile)");

static int wh_flit_ns = UNSET;
module_param(wh_flit_ns, int, 0444);
MODULE_PARM_DESC(wh_flit_ns, "wormhole further flit in ns, 1..1000000000 (default: profile)");

static int flit_bytes = UNSET;
module_param(flit_bytes, int, 0444);
MODULE_PARM_DESC(flit_bytes, "flit size in bytes, 1..4096 (default: profile)");

static int worm_bytes = UNSET;
module_param(worm_bytes, int, 0444);
MODULE_PARM_DESC(worm_bytes, "largest worm in bytes, flit_bytes..1048576 (default: profile)");

static int wire_ns = UNSET;
module_param(wire_ns, int, 0444);
MODULE_PARM_DESC(wire_ns, "NIC to switch wire delay in ns, 0..1000000000 (default: profile)");

static int nic_ns = UNSET;
module_param(nic_ns, int, 0444);
MODULE_PARM_DESC(nic_ns, "NIC send or receive delay in ns, 0..1000000000 (default: profile)");

static int fabric_ns = UNSET;
module_param(fabric_ns, int, 0444);
MODULE_PARM_DESC(fabric_ns, "fabric propagation delay in ns, 0..1000000000 (default: profile)");

static int nic_buf_bytes = UNSET;
module_param(nic_buf_bytes, int, 0444);
MODULE_PARM_DESC(nic_buf_bytes, "NIC buffer per node in bytes, 1..67108864 (default: profile)");

static int sw_buf_bytes = UNSET;
module_param(sw_buf_bytes, int, 0444);
MODULE_PARM_DESC(sw_buf_bytes, "switch buffer per input in bytes, 1..67108864 (default: profile)");

static int rx_buf_bytes = UNSET;
module_param(rx_buf_bytes, int, 0444);
MODULE_PARM_DESC(rx_buf_bytes, "receive buffer per node in bytes, 1..67108864 (default: profile)");

static int max_msg_bytes = UNSET;
module_param(max_msg_bytes, int, 0444);
MODULE_PARM_DESC(max_msg_bytes, "largest message in bytes, 1..1048576, at most every buffer (default: profile)");

static int pin_slots = UNSET;
module_param(pin_slots, int, 0444);
MODULE_PARM_DESC(pin_slots, "slots 0..pin_slots-1 are kept for preloaded circuits, 0..k (default: profile)");

static long idle_timeout_ns = UNSET;
module_param(idle_timeout_ns, long, 0444);
MODULE_PARM_DESC(idle_timeout_ns, "release circuits idle this long, ns, 0 (never)..1000000000000000 (default: profile)");

static char *clock = "free";
module_param(clock, charp, 0444);
MODULE_PARM_DESC(clock, "clock mode: free (as fast as possible while busy, default) or paced (virtual time follows wall time)");

static int pace_ppm = 1000;
module_param(pace_ppm, int, 0444);
MODULE_PARM_DESC(pace_ppm, "paced clock: virtual ns per million wall ns, 1..1000000000 (default 1000)");

static int tick_us = 1000;
module_param(tick_us, int, 0444);
MODULE_PARM_DESC(tick_us, "paced clock: timer period in us, 10..1000000 (default 1000)");

static char *preload = "none";
module_param(preload, charp, 0444);
MODULE_PARM_DESC(preload, "circuits installed at load: none (default) or shift (slot s connects u to u+s+1 mod N)");

#define HN_CFG_OFF(field) offsetof(struct hn_config, field)

static const struct hn_iparam {
	const char *name;
	const int *val;
	int min, max;
	size_t off;
} hn_iparams[] = {
	{ "nodes", &nodes, HN_MIN_NODES, HN_MAX_NODES, HN_CFG_OFF(nodes) },
	{ "k", &k, 0, HN_MAX_K, HN_CFG_OFF(k) },
	{ "policy", &policy, 0, HN_POL_ALL, HN_CFG_OFF(policy) },
	{ "link_mbps", &link_mbps, 1, 1000000, HN_CFG_OFF(link_mbps) },
	{ "slot_p_ns", &slot_p_ns, 1, NS_MAX, HN_CFG_OFF(slot_p_ns) },
	{ "slot_w_ns", &slot_w_ns, 1, NS_MAX, HN_CFG_OFF(slot_w_ns) },
	{ "guard_ns", &guard_ns, 0, NS_MAX - 1, HN_CFG_OFF(guard_ns) },
	{ "sched_ns", &sched_ns, 0, NS_MAX, HN_CFG_OFF(sched_ns) },
	{ "setup_ns", &setup_ns, 0, NS_MAX, HN_CFG_OFF(setup_ns) },
	{ "wh_first_ns", &wh_first_ns, 1, NS_MAX, HN_CFG_OFF(wh_first_ns) },
	{ "wh_flit_ns", &wh_flit_ns, 1, NS_MAX, HN_CFG_OFF(wh_flit_ns) },
	{ "flit_bytes", &flit_bytes, 1, 4096, HN_CFG_OFF(flit_bytes) },
	{ "worm_bytes", &worm_bytes, 1, HN_MAX_MSG, HN_CFG_OFF(worm_bytes) },
	{ "wire_ns", &wire_ns, 0, NS_MAX, HN_CFG_OFF(wire_ns) },
	{ "nic_ns", &nic_ns, 0, NS_MAX, HN_CFG_OFF(nic_ns) },
	{ "fabric_ns", &fabric_ns, 0, NS_MAX, HN_CFG_OFF(fabric_ns) },
	{ "nic_buf_bytes", &nic_buf_bytes, 1, HN_MAX_BUF, HN_CFG_OFF(nic_buf_bytes) },
	{ "sw_buf_bytes", &sw_buf_bytes, 1, HN_MAX_BUF, HN_CFG_OFF(sw_buf_bytes) },
	{ "rx_buf_bytes", &rx_buf_bytes, 1, HN_MAX_BUF, HN_CFG_OFF(rx_buf_bytes) },
	{ "max_msg_bytes", &max_msg_bytes, 1, HN_MAX_MSG, HN_CFG_OFF(max_msg_bytes) },
	{ "pin_slots", &pin_slots, 0, HN_MAX_K, HN_CFG_OFF(pin_slots) },
};

static struct hn_dev *hn_the_dev;

void hn_kmsg_free(struct hn_dev *hd, struct hn_kmsg *km)
{
	atomic_long_dec(&hd->live_msgs);
	kvfree(km);
}

/*
 * The engine delivered @m (called under hd->lock, from hn_step()).  Queue
 * it for the owner of the destination, or count and free it when nobody
 * is bound there.  Only hn_consume() may be called back from here.
 */
static void hn_deliver_cb(void *ctx, struct hn_msg *m)
{
	struct hn_kmsg *km = container_of(m, struct hn_kmsg, m);
	struct hn_dev *hd = ctx;
	struct hn_port *p = &hd->ports[m->dst];

	hd->delivered++;
	if (m->owner == HN_OWNER_TRUN) {	/* the generator's */
		hn_traffic_delivered(hd, m);
		return;
	}
	if (!p->owner) {
		p->rx_dropped++;
		hd->rx_dropped++;
		hn_consume(hd->e, m->dst, m->len);
		hn_kmsg_free(hd, km);
		return;
	}
	spin_lock(&p->lock);
	list_add_tail(&km->list, &p->rxq);
	p->rx_count++;
	spin_unlock(&p->lock);
	wake_up_interruptible_poll(&p->wq, EPOLLIN | EPOLLRDNORM);
}

/*
 * Clear every statistic: the engine's, the clock's and the device's
 * (sysfs reset, netlink STATS_RESET).  hd->lock held.
 */
void hn_dev_reset_stats(struct hn_dev *hd)
{
	struct hn_port *p;
	u32 i;

	hn_stats_reset(hd->e);
	hn_clock_reset_stats(hd);
	hd->rx_dropped = 0;
	for (i = 0; i < hd->cfg.nodes; i++) {
		p = &hd->ports[i];
		p->rx_dropped = 0;
		spin_lock(&p->lock);
		p->rx_read = 0;
		spin_unlock(&p->lock);
	}
	for (i = 0; i < HN_E_NR; i++)
		atomic64_set(&hd->err[i], 0);
	atomic64_set(&hd->tx_waits, 0);
}

/* hn_destroy() hands back what is still in flight. */
static void hn_reclaim_cb(void *ctx, struct hn_msg *m)
{
	if (m->owner == HN_OWNER_TRUN)
		hn_traffic_reclaimed(ctx, m);
	else
		hn_kmsg_free(ctx, container_of(m, struct hn_kmsg, m));
}

static const struct hn_ops hn_engine_ops = {
	.deliver = hn_deliver_cb,
	.reclaim = hn_reclaim_cb,
};

static int hn_parse_params(struct hn_dev *hd, struct hn_config *c)
{
	struct hn_err err = { };
	unsigned int i;
	u32 *field;
	int rc;

	rc = hn_config_profile(c, profile);
	if (rc) {
		pr_err("profile=%s: unknown profile (ding4 or ding5)\n",
		       profile);
		return -EINVAL;
	}
	hd->profile = profile;
	for (i = 0; i < ARRAY_SIZE(hn_iparams); i++) {
		const struct hn_iparam *ip = &hn_iparams[i];

		if (*ip->val == UNSET)
			continue;
		if (*ip->val < ip->min || *ip->val > ip->max) {
			pr_err("%s=%d: out of range %d..%d\n", ip->name,
			       *ip->val, ip->min, ip->max);
			return -EINVAL;
		}
		field = (u32 *)((char *)c + ip->off);
		*field = *ip->val;
	}
	if (idle_timeout_ns != UNSET) {
		if (idle_timeout_ns < 0 ||
		    idle_timeout_ns > 1000000LL * NS_MAX) {
			pr_err("idle_timeout_ns=%ld: out of range 0..%lld\n",
			       idle_timeout_ns, 1000000LL * NS_MAX);
			return -EINVAL;
		}
		c->idle_timeout_ns = idle_timeout_ns;
	}
	rc = hn_config_check(c, &err);
	if (rc) {
		pr_err("inconsistent parameters: %s\n", err.msg);
		return -EINVAL;
	}

	if (!strcmp(clock, "free")) {
		hd->clock = HN_CLOCK_FREE;
	} else if (!strcmp(clock, "paced")) {
		hd->clock = HN_CLOCK_PACED;
	} else {
		pr_err("clock=%s: must be free or paced\n", clock);
		return -EINVAL;
	}
	if (pace_ppm < 1 || pace_ppm > NS_MAX) {
		pr_err("pace_ppm=%d: out of range 1..%d\n", pace_ppm, NS_MAX);
		return -EINVAL;
	}
	hd->pace_ppm = pace_ppm;
	if (tick_us < 10 || tick_us > 1000000) {
		pr_err("tick_us=%d: out of range 10..1000000\n", tick_us);
		return -EINVAL;
	}
	hd->tick_us = tick_us;

	if (!strcmp(preload, "none")) {
		hd->preload = HN_PRELOAD_NONE;
	} else if (!strcmp(preload, "shift")) {
		hd->preload = HN_PRELOAD_SHIFT;
	} else {
		pr_err("preload=%s: must be none or shift\n", preload);
		return -EINVAL;
	}
	if (hd->preload == HN_PRELOAD_SHIFT && !c->k) {
		pr_err("preload=shift: needs k >= 1 predictive slots\n");
		return -EINVAL;
	}
	return 0;
}

/* preload=shift: slot s connects every u to u + s + 1 (mod N). */
static int hn_preload_shift(struct hn_dev *hd)
{
	u32 n = hd->cfg.nodes, s, u;
	struct hn_slot_cfg sc;
	struct hn_pair *pairs;
	struct hn_err err = { };
	int rc = 0;

	pairs = kvcalloc(n, sizeof(*pairs), GFP_KERNEL);
	if (!pairs)
		return -ENOMEM;
	for (s = 0; s < hd->cfg.k && s + 1 < n && !rc; s++) {
		for (u = 0; u < n; u++) {
			pairs[u].src = u;
			pairs[u].dst = (u + s + 1) % n;
		}
		sc.slot = s;
		sc.npairs = n;
		sc.pairs = pairs;
		rc = hn_preload(hd->e, &sc, 1, &err);
		if (rc)
			pr_err("preload=shift: slot %u: %s\n", s, err.msg);
	}
	kvfree(pairs);
	return rc;
}

static void hn_dev_free(struct hn_dev *hd)
{
	hn_destroy(hd->e);
	hn_traffic_free(hd);
	WARN_ON(atomic_long_read(&hd->live_msgs));
	kvfree(hd->ports);
	bitmap_free(hd->tx_wait);
	kvfree(hd->gs);
	kfree(hd);
}

static struct hn_dev *hn_dev_alloc(void)
{
	struct hn_config cfg;
	struct hn_dev *hd;
	struct hn_port *p;
	int rc;
	u32 i;

	hd = kzalloc(sizeof(*hd), GFP_KERNEL);
	if (!hd)
		return ERR_PTR(-ENOMEM);
	rc = hn_parse_params(hd, &cfg);
	if (rc)
		goto err_free;
	hd->cfg = cfg;
	hd->ops = &hn_engine_ops;
	mutex_init(&hd->lock);
	init_waitqueue_head(&hd->clock_wq);
	rc = -ENOMEM;
	hd->ports = kvcalloc(cfg.nodes, sizeof(*hd->ports), GFP_KERNEL);
	hd->tx_wait = bitmap_zalloc(cfg.nodes, GFP_KERNEL);
	hd->gs = kvzalloc(sizeof(*hd->gs), GFP_KERNEL);
	if (!hd->ports || !hd->tx_wait || !hd->gs)
		goto err_free;
	for (i = 0; i < cfg.nodes; i++) {
		p = &hd->ports[i];
		p->id = i;
		WRITE_ONCE(p->room, cfg.nic_buf_bytes);
		spin_lock_init(&p->lock);
		INIT_LIST_HEAD(&p->rxq);
		init_waitqueue_head(&p->wq);
	}
	hd->e = hn_create(&cfg, hd->ops, hd, &rc);
	if (!hd->e) {
		pr_err("cannot create the engine: %d\n", rc);
		goto err_free;
	}
	if (hd->preload == HN_PRELOAD_SHIFT) {
		rc = hn_preload_shift(hd);
		if (rc)
			goto err_free;
	}
	return hd;

err_free:
	hn_dev_free(hd);
	return ERR_PTR(rc);
}

static int __init hn_init(void)
{
	struct hn_dev *hd;
	int rc;

	BUILD_BUG_ON(HYBRIDNET_MAX_NODES != HN_MAX_NODES);
	BUILD_BUG_ON(HYBRIDNET_MAX_SLOTS != HN_MAX_K);
	BUILD_BUG_ON(HYBRIDNET_MAX_MSG != HN_MAX_MSG);
	BUILD_BUG_ON((int)HYBRIDNET_MODE_CIRCUIT != (int)HN_MODE_CIRCUIT);
	BUILD_BUG_ON((int)HYBRIDNET_MODE_WORMHOLE != (int)HN_MODE_WORMHOLE);
	BUILD_BUG_ON(sizeof(struct hybridnet_msg_hdr) != 40);
	BUILD_BUG_ON(sizeof(struct hybridnet_info) != 40);

	hd = hn_dev_alloc();
	if (IS_ERR(hd))
		return PTR_ERR(hd);

	rc = hn_clock_start(hd);
	if (rc)
		goto err_free;

	hd->misc.minor = MISC_DYNAMIC_MINOR;
	hd->misc.name = HYBRIDNET_DEV_NAME;
	hd->misc.fops = &hn_fops;
	hd->misc.groups = hn_dev_groups;
	rc = misc_register(&hd->misc);
	if (rc) {
		pr_err("cannot register /dev/%s: %d\n", HYBRIDNET_DEV_NAME, rc);
		goto err_clock;
	}
	rc = hn_sysfs_nodes_add(hd);
	if (rc) {
		pr_err("cannot create the node directories in sysfs: %d\n", rc);
		goto err_misc;
	}
	rc = hn_nl_init(hd);
	if (rc) {
		pr_err("cannot register the generic netlink family: %d\n", rc);
		goto err_nodes;
	}
	hn_the_dev = hd;
	pr_info("%u nodes, %u predictive slots, profile %s, %s clock\n",
		hd->cfg.nodes, hd->cfg.k, hd->profile,
		hd->clock == HN_CLOCK_FREE ? "free" : "paced");
	return 0;

err_nodes:
	hn_sysfs_nodes_del(hd);
err_misc:
	misc_deregister(&hd->misc);
err_clock:
	hn_clock_stop(hd);
err_free:
	hn_dev_free(hd);
	return rc;
}

static void __exit hn_exit(void)
{
	struct hn_dev *hd = hn_the_dev;

	hn_nl_exit();
	hn_traffic_exit(hd);
	hn_sysfs_nodes_del(hd);
	misc_deregister(&hd->misc);
	hn_clock_stop(hd);
	hn_dev_free(hd);
}

module_init(hn_init);
module_exit(hn_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("hybridnet: emulated hybrid circuit/wormhole interconnect");
MODULE_AUTHOR("hybridnet developers");
