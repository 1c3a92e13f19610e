// SPDX-License-Identifier: GPL-2.0
/*
 * hybridnet - an emulated hybrid interconnect: N virtual nodes on a
 * crossbar or fat tree whose time a TDM controller shares between
 * predictive circuit slots and a wormhole slot.  The engine (kmod/core/)
 * does the networking in virtual time.  The module runs any number of
 * fabrics (fabrics.c), each an engine with its ports (port.c), clock
 * (clock.c), network interfaces (netdev.c), capture interface
 * (capture.c), generator (generator.c) and sysfs device (sysfs.c), in the
 * network namespace that made it; /dev/hybridnet (dev.c) and netlink
 * (netlink.c) name a fabric and reach it.  This file reads the module
 * parameters, which make fabric 0, and registers and unregisters what
 * every fabric shares.  "hd" (struct hn_dev) is one fabric throughout.
 *
 * Locking
 * -------
 * Every lock below is a fabric's own, but for hn_fabrics_lock (fabrics.c),
 * which protects the lists of fabrics only and is taken inside every
 * other lock.  hd->lock (a mutex) serialises every call into the engine, which is
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
 * The clock kthread "hybridnet/N" (N the fabric's number) runs the engine's slots under hd->lock in
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
 * The in-kernel generator (generator.c) has no thread of its own: its
 * state (hd->gen) is under hd->lock, and while a run is active its
 * stepper takes the place of the engine's slots in the clock kthread, so
 * the run driver generates before every slot; writers and readers then
 * leave the slots to the kthread.  The ports hand the generator's
 * messages (m->owner == HN_OWNER_TRUN) to its sink; they never reach a
 * port.  The end of a run is reported from a work item, which takes
 * hd->lock to build the event and sends it after.
 *
 * Netlink (netlink.c) is parallel_ops: genl_mutex is not held.  Commands
 * that change state take hd->nl_lock (a mutex, outside hd->lock) for
 * their whole duration, so they are serialised against each other and
 * may sleep (a rebuild, the generator's start waiting for the last run to
 * drain) without holding up other generic netlink families; SCHED_RUN
 * touches no state and takes neither lock.  Each reply's extack message
 * lives in its own request (see netlink.c).
 *
 * The network interfaces (netdev.c) own their ports as files do; every
 * owner of a port, and the generator, takes its deliveries through one
 * interface, struct hn_sink (port.c).  An interface's transmit runs with
 * bottom halves off and cannot take hd->lock: it puts the frame on a
 * lock-free list and asks for its service (hn_sink_kick()), which the
 * clock kthread runs under hd->lock before its next batch and which
 * hands the frames to the NIC; its NAPI poll takes delivered messages
 * off the port's queue (the only reader, as file->rlock makes a file's)
 * and gives their receive space back through the same service.  The
 * port's receive queue lock (port->lock) is taken with bottom halves
 * off for that.  Interfaces come and go under the RTNL (rtnl_lock),
 * which is taken before hd->lock and inside hd->nl_lock (NETDEV_DEL),
 * never the other way round: nothing that holds hd->lock waits for the
 * RTNL, and nothing under the RTNL takes hd->nl_lock.  The list of
 * interfaces changes with the RTNL and hd->lock both held.  An interface
 * binds its port under hd->lock, as a file does, so a bind and a rebuild
 * (hd->frozen) exclude each other; ndo_uninit runs the services asked
 * for before it unbinds.  An interface finds its fabric in the caller's
 * namespace (fabrics.c) under the RTNL, and holds it until ndo_uninit.
 *
 * The capture interface (capture.c) is hd->cap, set and cleared with the
 * RTNL and hd->lock both held.  The deliver callback, under hd->lock,
 * copies each delivered message into a frame (GFP_ATOMIC, bottom halves
 * off) and queues it for the interface's NAPI poll, which hands it to
 * the stack outside every lock of the module.
 *
 * Who holds what, and which functions need it: every function documented
 * as called with a lock held says so with lockdep_assert_held().
 *
 * Lifetime: a fabric is counted; what holds a reference, how a fabric
 * is deleted (by FABRIC_DEL, the end of its network namespace or the
 * unload) and what a deletion stops, in which order, is fabrics.c's.  In
 * short: a deleted fabric is dead at once (hd->dead: every command, bind
 * and system call on it fails with ENODEV), its generator, interfaces,
 * capture interface, sysfs device and kthread are stopped, and its engine
 * and ports are freed with the last reference, which a file bound to it
 * keeps until it is closed.
 *
 * The misc device holds a module reference for every open file, and a
 * netlink dump one while it runs, so the module cannot be unloaded while
 * either is (delete_module fails with EWOULDBLOCK).  On unload the
 * netlink family goes first (genl_unregister_family() waits for the
 * commands in progress, a FABRIC_NEW among them), so no fabric is made
 * after; then every fabric of every namespace is deleted as FABRIC_DEL
 * would, but whatever holds its nodes (its interfaces go a batch per
 * hold of the RTNL), and the unload waits until the last is freed; then
 * the link kinds (no interface is left), and the device.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/string.h>
#include <net/net_namespace.h>

#include "hn_kmod.h"
#include "hn_nl.h"

/* what a field's parameter holds when not given: its file reads "" */
static const char hn_unset[] = "";

/*
 * The engine's parameters, one per configuration field, made from the
 * rows of hn_fields.h with their descriptions: a word of the field's or
 * its number, its text, or a number in its range (hn_cfg_parse()), as
 * every other interface takes it.  Not given (hn_unset): the profile's
 * value, and /sys/module/hybridnet/parameters/PARAM reads an empty line.
 * Each row's expansion begins with the ';' that ends the declaration
 * before it, the first this array's.
 */
static char *hn_params[HN_CFG_NR] = { [0 ... HN_CFG_NR - 1] = (char *)hn_unset }
#define HN_FIELD(f, A, param, nl, help, T, lo, hi, live, words)		\
	; module_param_named(param, hn_params[HN_CFG_##f], charp, 0444)	\
	; __MODULE_INFO(parm, parm, #param ":" help " ("			\
			HN_VALUES_##words(lo, hi) "; default: profile)")
#include "hn_fields.h"
#undef HN_FIELD
;

static char *profile = "ding4";
module_param(profile, charp, 0444);
MODULE_PARM_DESC(profile, "timing profile: ding4 (Ch. 4, default) or ding5 (Ch. 5)");

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

/*
 * What the messages written to the device may hold at once, headers
 * included: writers wait past it (port.c).  0 takes an eighth of RAM;
 * after load the parameter shows the value in force.
 */
static long msg_mem_max_bytes;
module_param(msg_mem_max_bytes, long, 0444);
MODULE_PARM_DESC(msg_mem_max_bytes, "memory the device's messages may hold, bytes, 16 MiB..half of RAM (default 0: an eighth of RAM)");

/* the fabrics made at load (fabrics.c): fabric 0 of the parameters */
static int fabrics = 1;
module_param(fabrics, int, 0444);
MODULE_PARM_DESC(fabrics, "fabrics made at load: 1 (default), fabric 0 of these parameters in the initial network namespace, or 0 (none; hnctl fabric add makes them)");

/* Field @i's parameter into @c, when given; -EINVAL (said) when bad. */
static int hn_param_field(struct hn_config *c, enum hn_cfg_index i)
{
	char why[HN_CFG_WHY_LEN];

	if (hn_params[i] == hn_unset ||
	    !hn_cfg_parse(c, i, hn_params[i], why, sizeof(why)))
		return 0;
	pr_err("%s=%s: %s\n", hn_cfg_fields[i].name, hn_params[i], why);
	return -EINVAL;
}

/* The parameters as a fabric's configuration (fabric 0's). */
static int hn_parse_params(struct hn_fabric_cfg *fc)
{
	struct hn_config *c = &fc->cfg;
	struct hn_err err = { };
	unsigned int i;
	long ram;
	int rc;

	hn_fabric_cfg_default(fc);
	rc = hn_config_profile(c, profile);
	for (i = 0; hn_profile_name(i); i++)
		if (!strcmp(hn_profile_name(i), profile))
			fc->profile = hn_profile_name(i);
	if (rc) {
		pr_err("profile=%s: unknown profile (ding4 or ding5)\n",
		       profile);
		return -EINVAL;
	}
	for (i = 0; i < HN_CFG_NR; i++) {
		rc = hn_param_field(c, i);
		if (rc)
			return rc;
	}
	rc = hn_config_check(c, &err);
	if (rc) {
		pr_err("parameters refused: %s\n", err.msg);
		return rc;
	}

	if (!strcmp(clock, "free")) {
		fc->clock = HN_CLOCK_FREE;
	} else if (!strcmp(clock, "paced")) {
		fc->clock = HN_CLOCK_PACED;
	} else {
		pr_err("clock=%s: must be free or paced\n", clock);
		return -EINVAL;
	}
	if (pace_ppm < 1 || pace_ppm > HN_NS_MAX) {
		pr_err("pace_ppm=%d: out of range 1..%d\n", pace_ppm, HN_NS_MAX);
		return -EINVAL;
	}
	fc->pace_ppm = pace_ppm;
	if (tick_us < 10 || tick_us > 1000000) {
		pr_err("tick_us=%d: out of range 10..1000000\n", tick_us);
		return -EINVAL;
	}
	fc->tick_us = tick_us;

	ram = (long)totalram_pages() << PAGE_SHIFT;
	if (!msg_mem_max_bytes)
		msg_mem_max_bytes = fc->msg_mem_max;
	if (msg_mem_max_bytes < HN_MSG_MEM_MIN || msg_mem_max_bytes > ram / 2) {
		pr_err("msg_mem_max_bytes=%ld: out of range %ld..%ld (half of RAM)\n",
		       msg_mem_max_bytes, HN_MSG_MEM_MIN, ram / 2);
		return -EINVAL;
	}
	fc->msg_mem_max = msg_mem_max_bytes;

	if (!strcmp(preload, "none")) {
		fc->preload = HN_PRELOAD_NONE;
	} else if (!strcmp(preload, "shift")) {
		fc->preload = HN_PRELOAD_SHIFT;
	} else {
		pr_err("preload=%s: must be none or shift\n", preload);
		return -EINVAL;
	}
	if (fc->preload == HN_PRELOAD_SHIFT && !c->k) {
		pr_err("preload=shift: needs slots >= 1\n");
		return -EINVAL;
	}
	if (fabrics < 0 || fabrics > 1) {
		pr_err("fabrics=%d: must be 0 or 1\n", fabrics);
		return -EINVAL;
	}
	return 0;
}

/* Fabric 0, of the parameters, in the initial namespace. */
static int hn_fabric0(const struct hn_fabric_cfg *fc)
{
	struct hn_dev *hd;
	const char *why;

	hd = hn_fabric_new(&init_net, fc, &why);
	if (IS_ERR(hd)) {
		pr_err("cannot make fabric 0: %s (%ld)\n", why, PTR_ERR(hd));
		return PTR_ERR(hd);
	}
	pr_info("fabric %u: %u nodes, %u predictive slots, profile %s, %s clock\n",
		hd->id, hd->cfg.nodes, hd->cfg.k, hd->profile,
		hd->clock == HN_CLOCK_FREE ? "free" : "paced");
	hn_fabric_put(hd);
	return 0;
}

static int __init hn_init(void)
{
	struct hn_fabric_cfg fc;
	int rc;

	BUILD_BUG_ON(HYBRIDNET_MAX_NODES != HN_MAX_NODES);
	BUILD_BUG_ON(HYBRIDNET_MAX_SLOTS != HN_MAX_K);
	BUILD_BUG_ON(HYBRIDNET_MAX_MSG != HN_MAX_MSG);
	BUILD_BUG_ON(HYBRIDNET_MCAST_GROUP != HN_MCAST_GROUP);
	BUILD_BUG_ON(HYBRIDNET_MCAST_ALL != HN_MCAST_ALL);
	BUILD_BUG_ON(HYBRIDNET_PRIO_RESERVED != HN_PRIO_TOP);
	BUILD_BUG_ON(HYBRIDNET_MCAST_MAX != HN_MCAST_MAX);
	BUILD_BUG_ON((int)HYBRIDNET_MODE_CIRCUIT != (int)HN_MODE_CIRCUIT);
	BUILD_BUG_ON((int)HYBRIDNET_MODE_WORMHOLE != (int)HN_MODE_WORMHOLE);
	BUILD_BUG_ON(sizeof(struct hybridnet_msg_hdr) != 40);
	BUILD_BUG_ON(sizeof(struct hybridnet_info) != 40);
	BUILD_BUG_ON(sizeof(struct hybridnet_bind) != 32);
	BUILD_BUG_ON(sizeof(struct hybridnet_capture_hdr) != 48);
	BUILD_BUG_ON(HYBRIDNET_MAX_FABRICS > 65536);	/* capture's __be16 */

	rc = hn_parse_params(&fc);
	if (rc)
		return rc;
	rc = hn_fabrics_init();
	if (rc)
		return rc;
	rc = hn_dev_init();
	if (rc) {
		pr_err("cannot register /dev/%s: %d\n", HYBRIDNET_DEV_NAME, rc);
		goto err_fabrics;
	}
	rc = hn_netdev_kind_register();
	if (rc) {
		pr_err("cannot register the link kind hybridnet: %d\n", rc);
		goto err_dev;
	}
	rc = hn_cap_init();
	if (rc) {
		pr_err("cannot register the link kind hybridnet-capture: %d\n",
		       rc);
		goto err_kind;
	}
	/* fabric 0 first: whoever sees the family appear finds it there */
	if (fabrics) {
		rc = hn_fabric0(&fc);
		if (rc)
			goto err_cap;
	}
	rc = hn_nl_init();
	if (rc) {
		pr_err("cannot register the generic netlink family: %d\n", rc);
		goto err_cap;
	}
	return 0;

err_cap:
	hn_cap_exit();
err_kind:
	hn_netdev_kind_unregister();
err_dev:
	hn_dev_exit();
err_fabrics:
	hn_fabrics_exit();
	return rc;
}

static void __exit hn_exit(void)
{
	hn_nl_exit();
	hn_fabrics_exit();
	hn_cap_exit();
	hn_netdev_kind_unregister();
	hn_dev_exit();
}

module_init(hn_init);
module_exit(hn_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("hybridnet: emulated hybrid circuit/wormhole interconnect");
MODULE_AUTHOR("hybridnet developers");
