// SPDX-License-Identifier: GPL-2.0
/*
 * fabrics.c - the fabrics, each an instance of the emulated interconnect
 * with its engine, clock kthread, ports, network interfaces, capture
 * interface, generator, statistics and sysfs device
 * (/sys/class/hybridnet/fabricN): making one, finding one, deleting one.
 * The module parameters make fabric 0 at load (main.c), FABRIC_NEW any
 * other (nl_fabric.c); FABRIC_DEL, the end of the fabric's network
 * namespace and the unload delete them.
 *
 * Numbers: a fabric gets the lowest number free, 0 ..
 * HYBRIDNET_MAX_FABRICS - 1, unique over every namespace (it names the
 * sysfs directory and the clock kthread, "hybridnet/N"), free again once
 * the fabric is deleted.
 *
 * Namespaces: a fabric belongs to the network namespace it was made in
 * (hd->net).  Each namespace keeps its fabrics on a list of its own, by
 * number (pernet_operations); every lookup is of one namespace's list, so
 * a fabric cannot be named, bound or commanded from any other.  The end
 * of a namespace deletes its fabrics, whatever holds them.
 *
 * Lifetime: a fabric is counted (hd->ref).  Its namespace's list holds a
 * reference until the fabric is deleted; so do a lookup until its caller
 * lets go (hn_fabric_put()), a file bound to one of its nodes until it is
 * closed, a network interface until it is deleted, the capture interface
 * until it goes, and a netlink dump until it ends.  Deleting a fabric
 * marks it dead (hd->dead, under hd->nl_lock and hd->lock: commands,
 * binds and writes that come after see it and fail with ENODEV), takes it
 * off its list (no lookup finds it after), then stops everything that
 * runs on it, in this order: the generator's run and its end report, the
 * network interfaces and the capture interface (under the RTNL), the
 * sysfs device (which waits for the reads in progress), the clock
 * kthread; then it wakes every file that sleeps on it, to fail with
 * ENODEV, and gives its number back.  What is left, the engine with the
 * messages in flight, the ports with the messages queued there, is freed
 * with the last reference (hn_fabric_release()): a file bound to a
 * deleted fabric keeps that until it is closed.  The unload waits for the
 * last fabric to be freed.
 *
 * Locking: hn_fabrics_lock (a mutex) protects the lists and nothing else,
 * and is taken inside every other lock of the module (the RTNL, where
 * "ip link add" looks a fabric up; hd->nl_lock) and never held while
 * taking one.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitmap.h>
#include <linux/device.h>
#include <linux/idr.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/wait_bit.h>
#include <net/net_namespace.h>
#include <net/netns/generic.h>

#include "hn_kmod.h"

/* A network namespace's fabrics (net_generic()). */
struct hn_pernet {
	struct list_head fabrics;	/* hn_fabrics_lock: by number */
};

static DEFINE_MUTEX(hn_fabrics_lock);
static DEFINE_IDA(hn_fabric_ida);
static unsigned int hn_net_id;
static struct class *hn_class;
/* fabrics made and not yet freed: the unload waits for none */
static atomic_t hn_fabrics_alive = ATOMIC_INIT(0);

static struct list_head *hn_net_fabrics(struct net *net)
{
	struct hn_pernet *hn = net_generic(net, hn_net_id);

	return &hn->fabrics;
}

/* What FABRIC_NEW starts from: ding4, the free clock, the defaults. */
void hn_fabric_cfg_default(struct hn_fabric_cfg *fc)
{
	long ram = (long)totalram_pages() << PAGE_SHIFT;

	memset(fc, 0, sizeof(*fc));
	fc->profile = hn_profile_name(0);
	hn_config_profile(&fc->cfg, fc->profile);
	fc->clock = HN_CLOCK_FREE;
	fc->pace_ppm = 1000;
	fc->tick_us = 1000;
	fc->msg_mem_max = max(ram / 8, HN_MSG_MEM_MIN);
	fc->preload = HN_PRELOAD_NONE;
}

void hn_fabric_hold(struct hn_dev *hd)
{
	kref_get(&hd->ref);
}

/* The last reference is gone: nothing runs on @hd any more. */
static void hn_fabric_release(struct kref *ref)
{
	struct hn_dev *hd = container_of(ref, struct hn_dev, ref);

	/* hands back the messages in flight */
	hn_port_engine_free(hd->e, hd->idem);
	hn_gen_free(hd);
	WARN_ON(atomic_long_read(&hd->msg_mem));
	kvfree(hd->ports);
	bitmap_free(hd->tx_wait);
	kvfree(hd->gs);
	kfree(hd);
	if (atomic_dec_and_test(&hn_fabrics_alive))
		wake_up_var(&hn_fabrics_alive);
}

void hn_fabric_put(struct hn_dev *hd)
{
	if (hd)
		kref_put(&hd->ref, hn_fabric_release);
}

/* preload=shift: slot s connects every u to u + s + 1 (mod N). */
static int hn_fabric_preload(struct hn_dev *hd, const char **why)
{
	struct hn_err err = { };
	int rc = 0;
	u32 s;

	for (s = 0; s < hd->cfg.k && s + 1 < hd->cfg.nodes && !rc; s++) {
		rc = hn_preload_shift(hd->e, s, &err);
		cond_resched();
	}
	if (rc)
		*why = "preload shift refused by the engine";
	return rc;
}

/*
 * Stop everything that runs on @hd, as far as it was started (a fabric
 * being made, or a dead one): see above.  hd->nl_lock.
 */
static void hn_fabric_stop(struct hn_dev *hd)
{
	lockdep_assert_held(&hd->nl_lock);
	hn_gen_exit(hd);
	hn_netdevs_del_all(hd);
	hn_cap_del(hd);
	hn_sysfs_fabric_del(hd);
	hn_sysfs_nodes_del(hd);
	if (hd->dev)
		device_unregister(hd->dev);
	hd->dev = NULL;
	hn_clock_stop(hd);
	hn_ports_wake_all(hd);
	ida_free(&hn_fabric_ida, hd->id);
}

/* Mark @hd dead, off its list already, and stop it; drop the list's. */
static void hn_fabric_kill(struct hn_dev *hd)
{
	mutex_lock(&hd->nl_lock);
	mutex_lock(&hd->lock);
	hd->dead = true;
	mutex_unlock(&hd->lock);
	hn_fabric_stop(hd);
	mutex_unlock(&hd->nl_lock);
	hn_fabric_put(hd);
}

/* Everything of @hd before it runs: its engine, ports, clock, sysfs. */
static int hn_fabric_start(struct hn_dev *hd, const struct hn_fabric_cfg *fc,
			   const char **why)
{
	int rc;

	*why = "out of memory";
	hd->ports = hn_ports_alloc(&hd->cfg);
	hd->tx_wait = bitmap_zalloc(hd->cfg.nodes, GFP_KERNEL);
	hd->gs = kvzalloc(sizeof(*hd->gs), GFP_KERNEL);
	if (!hd->ports || !hd->tx_wait || !hd->gs)
		return -ENOMEM;
	rc = hn_port_engine_new(hd, &hd->cfg, &hd->e, &hd->idem);
	if (rc) {
		*why = "cannot create the engine";
		return rc;
	}
	if (hd->preload == HN_PRELOAD_SHIFT) {
		rc = hn_fabric_preload(hd, why);
		if (rc)
			return rc;
	}
	rc = hn_clock_start(hd, fc->clock, fc->pace_ppm);
	if (rc) {
		*why = "cannot start the clock kthread";
		return rc;
	}
	hd->dev = device_create_with_groups(hn_class, NULL, MKDEV(0, 0), hd,
					    hn_dev_groups, "fabric%u", hd->id);
	if (IS_ERR(hd->dev)) {
		rc = PTR_ERR(hd->dev);
		hd->dev = NULL;
		*why = "cannot make its sysfs device";
		return rc;
	}
	*why = "cannot make its sysfs directories";
	rc = hn_sysfs_nodes_add(hd);
	if (!rc)
		rc = hn_sysfs_fabric_add(hd);
	return rc;
}

/* Put @hd on its namespace's list, by number. */
static void hn_fabric_list(struct hn_dev *hd)
{
	struct list_head *head = hn_net_fabrics(hd->net), *pos;
	struct hn_dev *o;

	mutex_lock(&hn_fabrics_lock);
	list_for_each(pos, head) {
		o = list_entry(pos, struct hn_dev, list);
		if (o->id > hd->id)
			break;
	}
	list_add_tail(&hd->list, pos);
	mutex_unlock(&hn_fabrics_lock);
}

/*
 * A new fabric of @fc in @net, running and on its namespace's list, with
 * a reference for the caller; or an ERR_PTR, with *@why saying why.
 */
struct hn_dev *hn_fabric_new(struct net *net, const struct hn_fabric_cfg *fc,
			     const char **why)
{
	struct hn_dev *hd;
	int rc;

	*why = "out of memory";
	hd = kzalloc(sizeof(*hd), GFP_KERNEL);
	if (!hd)
		return ERR_PTR(-ENOMEM);
	rc = ida_alloc_max(&hn_fabric_ida, HYBRIDNET_MAX_FABRICS - 1,
			   GFP_KERNEL);
	if (rc < 0) {
		if (rc == -ENOSPC)
			*why = "there are " __stringify(HYBRIDNET_MAX_FABRICS)
			       " fabrics already, the most there may be";
		kfree(hd);
		return ERR_PTR(rc);
	}
	hd->id = rc;
	kref_init(&hd->ref);
	atomic_inc(&hn_fabrics_alive);
	hd->net = net;
	INIT_LIST_HEAD(&hd->list);
	INIT_LIST_HEAD(&hd->netdevs);
	hd->cfg = fc->cfg;
	hd->profile = fc->profile;
	hd->preload = fc->preload;
	hd->tick_us = fc->tick_us;
	hd->msg_mem_max = fc->msg_mem_max;
	mutex_init(&hd->lock);
	mutex_init(&hd->nl_lock);
	init_waitqueue_head(&hd->clock_wq);
	init_waitqueue_head(&hd->mem_wq);

	rc = hn_fabric_start(hd, fc, why);
	if (rc) {
		hn_fabric_kill(hd);
		return ERR_PTR(rc);
	}
	hn_fabric_hold(hd);	/* the caller's; the list has the first */
	hn_fabric_list(hd);
	return hd;
}

/*
 * Fabric @id of @net (HN_FABRIC_FIRST: its first), with a reference for
 * the caller; NULL when it has none such.
 */
struct hn_dev *hn_fabric_get(struct net *net, u32 id)
{
	struct hn_dev *hd, *found = NULL;

	mutex_lock(&hn_fabrics_lock);
	list_for_each_entry(hd, hn_net_fabrics(net), list) {
		if (id == HN_FABRIC_FIRST || hd->id == id) {
			hn_fabric_hold(hd);
			found = hd;
			break;
		}
	}
	mutex_unlock(&hn_fabrics_lock);
	return found;
}

/* The fabric of @net of the lowest number at or above @id, held; NULL. */
struct hn_dev *hn_fabric_next(struct net *net, u32 id)
{
	struct hn_dev *hd, *found = NULL;

	mutex_lock(&hn_fabrics_lock);
	list_for_each_entry(hd, hn_net_fabrics(net), list) {
		if (hd->id >= id) {
			hn_fabric_hold(hd);
			found = hd;
			break;
		}
	}
	mutex_unlock(&hn_fabrics_lock);
	return found;
}

/*
 * FABRIC_DEL: delete @hd, unless a file or an interface holds one of its
 * nodes (-EBUSY, *@why naming it); -ENODEV when it is dead already.
 * hd->nl_lock held; the caller keeps its reference.
 */
int hn_fabric_del(struct hn_dev *hd, char *why, size_t len)
{
	lockdep_assert_held(&hd->nl_lock);
	mutex_lock(&hd->lock);
	if (hd->dead) {
		mutex_unlock(&hd->lock);
		return -ENODEV;
	}
	if (hn_ports_busy(hd, why, len)) {
		mutex_unlock(&hd->lock);
		return -EBUSY;
	}
	hd->dead = true;
	mutex_unlock(&hd->lock);

	mutex_lock(&hn_fabrics_lock);
	list_del_init(&hd->list);
	mutex_unlock(&hn_fabrics_lock);
	hn_fabric_stop(hd);
	hn_fabric_put(hd);	/* the list's */
	return 0;
}

static __net_init int hn_fabrics_net_init(struct net *net)
{
	INIT_LIST_HEAD(hn_net_fabrics(net));
	return 0;
}

/* The namespace ends (or the module goes): every fabric of it goes. */
static void __net_exit hn_fabrics_net_exit(struct net *net)
{
	struct hn_dev *hd, *tmp;
	LIST_HEAD(gone);

	mutex_lock(&hn_fabrics_lock);
	list_splice_init(hn_net_fabrics(net), &gone);
	mutex_unlock(&hn_fabrics_lock);
	list_for_each_entry_safe(hd, tmp, &gone, list) {
		list_del_init(&hd->list);
		hn_fabric_kill(hd);
	}
}

static struct pernet_operations hn_fabrics_net_ops = {
	.init = hn_fabrics_net_init,
	.exit = hn_fabrics_net_exit,
	.id = &hn_net_id,
	.size = sizeof(struct hn_pernet),
};

/* At load: the class of the fabrics' devices, the namespaces' lists. */
int hn_fabrics_init(void)
{
	int rc;

	hn_class = class_create(THIS_MODULE, "hybridnet");
	if (IS_ERR(hn_class))
		return PTR_ERR(hn_class);
	rc = register_pernet_subsys(&hn_fabrics_net_ops);
	if (rc)
		class_destroy(hn_class);
	return rc;
}

/*
 * At unload, once nothing can make a fabric: delete every fabric, in
 * every namespace, and wait until the last is freed.
 */
void hn_fabrics_exit(void)
{
	unregister_pernet_subsys(&hn_fabrics_net_ops);
	wait_var_event(&hn_fabrics_alive, !atomic_read(&hn_fabrics_alive));
	class_destroy(hn_class);
	ida_destroy(&hn_fabric_ida);
}
