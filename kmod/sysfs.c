// SPDX-License-Identifier: GPL-2.0
/*
 * sysfs.c - configuration and statistics, one value per file, on each
 * fabric's device (/sys/class/hybridnet/fabricN/, fabrics.c makes it):
 *
 *   config/   the configuration in force, read-only, each value as the
 *             module parameter takes it: a word, text or a number (and
 *             preload_at_load, the circuits the module parameter
 *             installed at load)
 *   stats/    fabric-wide statistics of the engine, and of the device;
 *             circuits: how many the table holds now
 *   errors/   errors returned to user space, one counter per kind
 *   clock/    the clock kthread: steps, stalls, wakeups, overruns, and
 *             the values it derives from the configuration (budget,
 *             stall_ns, step_bytes, rx_batch)
 *   nodes/N/  one directory per node: its statistics and state
 *   reset     write 1: clear every statistic and counter above
 *
 * Latencies and times are virtual nanoseconds.  A minimum with no sample
 * reads 0.  Every file is read under hd->lock, so the values of one file
 * are consistent; reading several files is not atomic.
 */
#include <linux/device.h>
#include <linux/kernel.h>
#include <linux/kobject.h>
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/sysfs.h>

#include "hn_kmod.h"

struct hn_nkobj {
	struct kobject kobj;
	struct hn_dev *hd;
	u32 id;
};

/* A device attribute that reads one field, selected by @off. */
struct hn_dattr {
	struct device_attribute attr;
	unsigned int index;		/* of a field, an error */
};

#define to_hn_dattr(a) container_of(a, struct hn_dattr, attr)

static struct hn_dev *hn_dev_of(struct device *dev)
{
	return dev_get_drvdata(dev);
}

/* ---- config/ ---------------------------------------------------------- */

static ssize_t hn_cfg_show(struct device *dev, struct device_attribute *a,
			   char *buf)
{
	struct hn_dev *hd = hn_dev_of(dev);
	char text[HN_CFG_TEXT_LEN];

	mutex_lock(&hd->lock);
	hn_cfg_print(hn_cfg(hd->e), to_hn_dattr(a)->index, text, sizeof(text));
	mutex_unlock(&hd->lock);
	return sysfs_emit(buf, "%s\n", text);
}

/* config/<field> for every field of hn_fields.h */
static struct hn_dattr hn_cfg_dattrs[HN_CFG_NR] = {
#define HN_FIELD(f, A, ctl, nl, help, T, lo, hi, live, words)	\
	[HN_CFG_##f] = {						\
		.attr = __ATTR(ctl, 0444, hn_cfg_show, NULL),		\
		.index = HN_CFG_##f,					\
	},
#include "hn_fields.h"
#undef HN_FIELD
};

static ssize_t profile_show(struct device *dev, struct device_attribute *a,
			    char *buf)
{
	return sysfs_emit(buf, "%s\n", hn_dev_of(dev)->profile);
}
static DEVICE_ATTR_RO(profile);

static ssize_t clock_show(struct device *dev, struct device_attribute *a,
			  char *buf)
{
	return sysfs_emit(buf, "%s\n", hn_dev_of(dev)->clock == HN_CLOCK_FREE ?
			  "free" : "paced");
}
static DEVICE_ATTR_RO(clock);

static ssize_t pace_ppm_show(struct device *dev, struct device_attribute *a,
			     char *buf)
{
	return sysfs_emit(buf, "%u\n", hn_dev_of(dev)->pace_ppm);
}
static DEVICE_ATTR_RO(pace_ppm);

static ssize_t tick_us_show(struct device *dev, struct device_attribute *a,
			    char *buf)
{
	return sysfs_emit(buf, "%u\n", hn_dev_of(dev)->tick_us);
}
static DEVICE_ATTR_RO(tick_us);

/* the preload module parameter: what was installed at load, not now */
static ssize_t preload_at_load_show(struct device *dev,
				    struct device_attribute *a, char *buf)
{
	return sysfs_emit(buf, "%s\n",
			  hn_dev_of(dev)->preload == HN_PRELOAD_SHIFT ?
			  "shift" : "none");
}
static DEVICE_ATTR_RO(preload_at_load);

static struct attribute *hn_config_attrs[] = {
	&dev_attr_profile.attr,
#define HN_FIELD(f, A, ctl, nl, help, T, lo, hi, live, words)	\
	(&hn_cfg_dattrs[HN_CFG_##f].attr.attr),
#include "hn_fields.h"
#undef HN_FIELD
	&dev_attr_clock.attr,
	&dev_attr_pace_ppm.attr,
	&dev_attr_tick_us.attr,
	&dev_attr_preload_at_load.attr,
	NULL
};

static const struct attribute_group hn_config_group = {
	.name = "config",
	.attrs = hn_config_attrs,
};

/* ---- stats/ ----------------------------------------------------------- */

/* stats/: the engine's statistics now, or a device counter */
static ssize_t hn_gstat_show(struct device *dev, char *buf,
			     u64 (*get)(const struct hn_gstats *g,
					const struct hn_dev *hd))
{
	struct hn_dev *hd = hn_dev_of(dev);
	u64 v;

	mutex_lock(&hd->lock);
	v = get(hn_dev_gstats(hd), hd);
	mutex_unlock(&hd->lock);
	return sysfs_emit(buf, "%llu\n", v);
}

/* a getter and a show() for every row of HN_GSTAT in hn_lists.h */
#define HN_GSTAT(file, stat, value)					\
	static u64 file##_get(const struct hn_gstats *g,		\
			      const struct hn_dev *hd)			\
	{								\
		return value;						\
	}								\
	static ssize_t file##_show(struct device *dev,			\
				   struct device_attribute *a, char *buf) \
	{								\
		return hn_gstat_show(dev, buf, file##_get);		\
	}
#include "hn_lists.h"
HN_GSTAT(now_ns, NOW, g->now)
HN_GSTAT(lat_sum_ns, LAT_SUM, g->lat_sum)
#undef HN_GSTAT

static struct device_attribute hn_gstat_dattrs[HN_GS_NR] = {
#define HN_GSTAT(file, stat, value) \
	[HN_GS_##file] = __ATTR_RO(file),
#include "hn_lists.h"
#undef HN_GSTAT
};

static DEVICE_ATTR_RO(now_ns);
static DEVICE_ATTR_RO(lat_sum_ns);

/* Messages read by their owners, and still queued, over all nodes. */
static void hn_rx_totals(struct hn_dev *hd, u64 *read, u64 *queued)
{
	struct hn_port_stats ps;
	u32 i;

	*read = 0;
	*queued = 0;
	mutex_lock(&hd->lock);
	for (i = 0; i < hd->cfg.nodes; i++) {
		hn_port_stats(hd, &hd->ports[i], &ps);
		*read += ps.rx_read;
		*queued += ps.rx_queued;
	}
	mutex_unlock(&hd->lock);
}

static ssize_t rx_read_show(struct device *dev, struct device_attribute *a,
			    char *buf)
{
	u64 read, queued;

	hn_rx_totals(hn_dev_of(dev), &read, &queued);
	return sysfs_emit(buf, "%llu\n", read);
}
static DEVICE_ATTR_RO(rx_read);

static ssize_t rx_queued_show(struct device *dev, struct device_attribute *a,
			      char *buf)
{
	u64 read, queued;

	hn_rx_totals(hn_dev_of(dev), &read, &queued);
	return sysfs_emit(buf, "%llu\n", queued);
}
static DEVICE_ATTR_RO(rx_queued);

static ssize_t tx_waits_show(struct device *dev, struct device_attribute *a,
			     char *buf)
{
	return sysfs_emit(buf, "%lld\n",
			  atomic64_read(&hn_dev_of(dev)->tx_waits));
}
static DEVICE_ATTR_RO(tx_waits);

static ssize_t mem_waits_show(struct device *dev, struct device_attribute *a,
			      char *buf)
{
	return sysfs_emit(buf, "%lld\n",
			  atomic64_read(&hn_dev_of(dev)->mem_waits));
}
static DEVICE_ATTR_RO(mem_waits);

static ssize_t msg_mem_bytes_show(struct device *dev,
				  struct device_attribute *a, char *buf)
{
	return sysfs_emit(buf, "%ld\n",
			  atomic_long_read(&hn_dev_of(dev)->msg_mem));
}
static DEVICE_ATTR_RO(msg_mem_bytes);

/* the circuits in the table now, over every slot */
static ssize_t circuits_show(struct device *dev, struct device_attribute *a,
			     char *buf)
{
	struct hn_dev *hd = hn_dev_of(dev);
	u32 n;

	mutex_lock(&hd->lock);
	n = hn_dev_circuits(hd->e);
	mutex_unlock(&hd->lock);
	return sysfs_emit(buf, "%u\n", n);
}
static DEVICE_ATTR_RO(circuits);

static struct attribute *hn_stats_attrs[] = {
	&dev_attr_now_ns.attr,
#define HN_GSTAT(file, stat, value)	(&hn_gstat_dattrs[HN_GS_##file].attr),
#include "hn_lists.h"
#undef HN_GSTAT
	&dev_attr_lat_sum_ns.attr,
	&dev_attr_tx_waits.attr,
	&dev_attr_mem_waits.attr,
	&dev_attr_msg_mem_bytes.attr,
	&dev_attr_rx_read.attr,
	&dev_attr_rx_queued.attr,
	&dev_attr_circuits.attr,
	NULL
};

static const struct attribute_group hn_stats_group = {
	.name = "stats",
	.attrs = hn_stats_attrs,
};

/* ---- errors/ ---------------------------------------------------------- */

static ssize_t hn_err_show(struct device *dev, struct device_attribute *a,
			   char *buf)
{
	struct hn_dev *hd = hn_dev_of(dev);

	return sysfs_emit(buf, "%lld\n",
			  atomic64_read(&hd->err[to_hn_dattr(a)->index]));
}

static struct hn_dattr hn_err_dattrs[HN_E_NR] = {
#define HN_ERROR(kind, file)						\
	[HN_E_##kind] = {						\
		.attr = __ATTR(file, 0444, hn_err_show, NULL),		\
		.index = HN_E_##kind,					\
	},
#include "hn_lists.h"
#undef HN_ERROR
};

static struct attribute *hn_errors_attrs[] = {
#define HN_ERROR(kind, file)	(&hn_err_dattrs[HN_E_##kind].attr.attr),
#include "hn_lists.h"
#undef HN_ERROR
	NULL
};

static const struct attribute_group hn_errors_group = {
	.name = "errors",
	.attrs = hn_errors_attrs,
};

/* ---- clock/ ----------------------------------------------------------- */

/* clock/<file>: a value of the clock's, read under hd->lock */
#define HN_CLOCK_ATTR(name, value)					\
	static ssize_t name##_show(struct device *dev,			\
				   struct device_attribute *a, char *buf) \
	{								\
		struct hn_dev *hd = hn_dev_of(dev);			\
		u64 v;							\
									\
		mutex_lock(&hd->lock);					\
		v = (value);						\
		mutex_unlock(&hd->lock);				\
		return sysfs_emit(buf, "%llu\n", v);			\
	}								\
	static DEVICE_ATTR_RO(name)

HN_CLOCK_ATTR(steps, hd->steps);
HN_CLOCK_ATTR(stalls, hd->stalls);
HN_CLOCK_ATTR(wakeups, hd->wakeups);
HN_CLOCK_ATTR(late_steps, hd->late_steps);
HN_CLOCK_ATTR(slip_ns, hd->slip_ns);
/* the working values derived from the configuration */
HN_CLOCK_ATTR(budget, hd->budget);
HN_CLOCK_ATTR(stall_ns, hd->stall_ns);
HN_CLOCK_ATTR(step_bytes, hd->step_bytes);
HN_CLOCK_ATTR(rx_batch, hd->rx_batch);

static ssize_t overruns_show(struct device *dev, struct device_attribute *a,
			     char *buf)
{
	return sysfs_emit(buf, "%lld\n",
			  atomic64_read(&hn_dev_of(dev)->overruns));
}
static DEVICE_ATTR_RO(overruns);

static struct attribute *hn_clock_attrs[] = {
	&dev_attr_steps.attr,
	&dev_attr_stalls.attr,
	&dev_attr_wakeups.attr,
	&dev_attr_overruns.attr,
	&dev_attr_late_steps.attr,
	&dev_attr_slip_ns.attr,
	&dev_attr_budget.attr,
	&dev_attr_stall_ns.attr,
	&dev_attr_step_bytes.attr,
	&dev_attr_rx_batch.attr,
	NULL
};

static const struct attribute_group hn_clock_group = {
	.name = "clock",
	.attrs = hn_clock_attrs,
};

/* ---- reset ------------------------------------------------------------ */

static ssize_t reset_store(struct device *dev, struct device_attribute *a,
			   const char *buf, size_t count)
{
	struct hn_dev *hd = hn_dev_of(dev);
	bool v;

	if (kstrtobool(buf, &v) || !v)
		return -EINVAL;
	mutex_lock(&hd->lock);
	hn_dev_reset_stats(hd);
	mutex_unlock(&hd->lock);
	return count;
}
static DEVICE_ATTR_WO(reset);

static struct attribute *hn_top_attrs[] = {
	&dev_attr_reset.attr,
	NULL
};

static const struct attribute_group hn_top_group = {
	.attrs = hn_top_attrs,
};

const struct attribute_group *hn_dev_groups[] = {
	&hn_top_group,
	&hn_config_group,
	&hn_stats_group,
	&hn_errors_group,
	&hn_clock_group,
	NULL
};

/* ---- nodes/N/ --------------------------------------------------------- */

/* nodes/N/<file>: a row of HN_NSTATS or a port's state */
static ssize_t hn_node_show(struct kobject *kobj, struct kobj_attribute *a,
			    char *buf, u64 (*get)(const struct hn_nstats *st,
						  const struct hn_port_stats *ps))
{
	struct hn_nkobj *nk = container_of(kobj, struct hn_nkobj, kobj);
	struct hn_dev *hd = nk->hd;
	struct hn_port_stats ps;
	struct hn_nstats st;
	u64 v;

	mutex_lock(&hd->lock);
	if (nk->id >= hd->cfg.nodes) {	/* the fabric shrank */
		mutex_unlock(&hd->lock);
		return -ENODEV;
	}
	hn_stats_node(hd->e, nk->id, &st);
	hn_port_stats(hd, &hd->ports[nk->id], &ps);
	v = get(&st, &ps);
	mutex_unlock(&hd->lock);
	return sysfs_emit(buf, "%llu\n", v);
}

/* a getter and a show() for every row of HN_NSTAT and HN_NFILE */
#define HN_NFILE(file, value)						\
	static u64 hn_n_##file##_get(const struct hn_nstats *st,	\
				     const struct hn_port_stats *ps)	\
	{								\
		return value;						\
	}								\
	static ssize_t hn_n_##file##_show(struct kobject *kobj,		\
					  struct kobj_attribute *a,	\
					  char *buf)			\
	{								\
		return hn_node_show(kobj, a, buf, hn_n_##file##_get);	\
	}
#define HN_NSTAT(file, stat, value)	HN_NFILE(file, value)
#include "hn_lists.h"
#undef HN_NSTAT
#undef HN_NFILE

/* the sysfs-only files come after the shared statistics */
enum hn_nfile_index {
#define HN_NFILE(file, value)	HN_NS_##file,
	HN_NF_FIRST = HN_NS_NR - 1,
#include "hn_lists.h"
#undef HN_NFILE
	HN_NODE_NR
};

static struct kobj_attribute hn_node_kattrs[HN_NODE_NR] = {
#define HN_NFILE(file, value)						\
	[HN_NS_##file] = __ATTR(file, 0444, hn_n_##file##_show, NULL),
#define HN_NSTAT(file, stat, value)	HN_NFILE(file, value)
#include "hn_lists.h"
#undef HN_NSTAT
#undef HN_NFILE
};

/* nodes/N/holder: what holds the node, as a refusal names it */
static ssize_t holder_show(struct kobject *kobj, struct kobj_attribute *a,
			   char *buf)
{
	struct hn_nkobj *nk = container_of(kobj, struct hn_nkobj, kobj);
	struct hn_dev *hd = nk->hd;
	int n;

	mutex_lock(&hd->lock);
	if (nk->id >= hd->cfg.nodes) {	/* the fabric shrank */
		mutex_unlock(&hd->lock);
		return -ENODEV;
	}
	n = hn_port_holder(hd, &hd->ports[nk->id], buf, PAGE_SIZE - 1);
	mutex_unlock(&hd->lock);
	buf[n++] = '\n';
	return n;
}

static struct kobj_attribute hn_node_holder = __ATTR_RO(holder);

static struct attribute *hn_node_attrs[] = {
#define HN_NFILE(file, value)	(&hn_node_kattrs[HN_NS_##file].attr),
#define HN_NSTAT(file, stat, value)	HN_NFILE(file, value)
#include "hn_lists.h"
#undef HN_NSTAT
#undef HN_NFILE
	&hn_node_holder.attr,
	NULL
};
ATTRIBUTE_GROUPS(hn_node);

static void hn_node_release(struct kobject *kobj)
{
	kfree(container_of(kobj, struct hn_nkobj, kobj));
}

static const struct kobj_type hn_node_ktype = {
	.release = hn_node_release,
	.sysfs_ops = &kobj_sysfs_ops,
	.default_groups = hn_node_groups,
};

static int hn_node_add(struct hn_dev *hd, struct hn_nkobj **slot, u32 id)
{
	struct hn_nkobj *nk;
	int rc;

	nk = kzalloc(sizeof(*nk), GFP_KERNEL);
	if (!nk)
		return -ENOMEM;
	nk->hd = hd;
	nk->id = id;
	rc = kobject_init_and_add(&nk->kobj, &hn_node_ktype, hd->nodes_kobj,
				  "%u", id);
	if (rc) {
		kobject_put(&nk->kobj);
		return rc;
	}
	*slot = nk;
	return 0;
}

/*
 * Make nodes/ hold the directories of nodes 0 .. @n-1 and no others:
 * add the missing ones, or remove those from @n on.  Fails (adding) with
 * nodes/ as it was.  Called without hd->lock (a show() takes it, and
 * answers ENODEV for a node the fabric does not have).
 */
int hn_sysfs_nodes_resize(struct hn_dev *hd, u32 n)
{
	u32 i, have = hd->nkobj_count;
	struct hn_nkobj **nk;
	int rc = 0;

	if (n <= have) {
		for (i = n; i < have; i++) {
			kobject_put(&hd->nkobj[i]->kobj);
			hd->nkobj[i] = NULL;
			cond_resched();
		}
		hd->nkobj_count = n;
		return 0;
	}
	nk = kvcalloc(n, sizeof(*nk), GFP_KERNEL);
	if (!nk)
		return -ENOMEM;
	for (i = 0; i < have; i++)
		nk[i] = hd->nkobj[i];
	for (i = have; i < n && !rc; i++) {
		rc = hn_node_add(hd, &nk[i], i);
		cond_resched();		/* 4096 directories of 20 files */
	}
	if (rc) {
		for (i = have; i < n; i++) {
			if (nk[i])
				kobject_put(&nk[i]->kobj);
			cond_resched();
		}
		kvfree(nk);
		return rc;
	}
	kvfree(hd->nkobj);
	hd->nkobj = nk;
	hd->nkobj_count = n;
	return 0;
}

/* Make nodes/ and nodes/0 .. nodes/N-1 for hd->cfg.nodes. */
int hn_sysfs_nodes_add(struct hn_dev *hd)
{
	int rc;

	hd->nodes_kobj = kobject_create_and_add("nodes", &hd->dev->kobj);
	if (!hd->nodes_kobj)
		return -ENOMEM;
	rc = hn_sysfs_nodes_resize(hd, hd->cfg.nodes);
	if (rc)
		hn_sysfs_nodes_del(hd);
	return rc;
}

void hn_sysfs_nodes_del(struct hn_dev *hd)
{
	hn_sysfs_nodes_resize(hd, 0);
	kobject_put(hd->nodes_kobj);
	kvfree(hd->nkobj);
	hd->nkobj = NULL;
	hd->nodes_kobj = NULL;
}
