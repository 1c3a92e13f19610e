// SPDX-License-Identifier: GPL-2.0
/*
 * sysfs.c - configuration and statistics, one value per file, on the
 * misc device (/sys/class/misc/hybridnet/):
 *
 *   config/   the configuration in force, read-only
 *   stats/    fabric-wide statistics of the engine, and of the device
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
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/sysfs.h>

#include "hn_fields.h"
#include "hn_kmod.h"

struct hn_nkobj {
	struct kobject kobj;
	struct hn_dev *hd;
	u32 id;
};

/* A device attribute that reads one field, selected by @off. */
struct hn_dattr {
	struct device_attribute attr;
	size_t off;
	bool is64;
};

#define to_hn_dattr(a) container_of(a, struct hn_dattr, attr)

static struct hn_dev *hn_dev_of(struct device *dev)
{
	struct miscdevice *misc = dev_get_drvdata(dev);

	return container_of(misc, struct hn_dev, misc);
}

/* ---- config/ ---------------------------------------------------------- */

static ssize_t hn_cfg_show(struct device *dev, struct device_attribute *a,
			   char *buf)
{
	struct hn_dev *hd = hn_dev_of(dev);
	const char *f;
	u64 v;

	mutex_lock(&hd->lock);
	f = (const char *)hn_cfg(hd->e) + to_hn_dattr(a)->off;
	v = to_hn_dattr(a)->is64 ? *(const u64 *)f : *(const u32 *)f;
	mutex_unlock(&hd->lock);
	return sysfs_emit(buf, "%llu\n", v);
}

/* config/<field> for every field of hn_fields.h */
#define HN_CFG_ATTR(f, A, ctl, nl, T, lo, hi, live, names, desc)	\
	static struct hn_dattr hn_cfg_##f = {				\
		.attr = __ATTR(f, 0444, hn_cfg_show, NULL),		\
		.off = offsetof(struct hn_config, f),			\
		.is64 = sizeof_field(struct hn_config, f) == 8,		\
	};
HN_CONFIG_FIELDS(HN_CFG_ATTR)
#undef HN_CFG_ATTR

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

static ssize_t preload_show(struct device *dev, struct device_attribute *a,
			    char *buf)
{
	return sysfs_emit(buf, "%s\n",
			  hn_dev_of(dev)->preload == HN_PRELOAD_SHIFT ?
			  "shift" : "none");
}
static DEVICE_ATTR_RO(preload);

#define HN_CFG_ATTR(f, A, ctl, nl, T, lo, hi, live, names, desc)	\
	&hn_cfg_##f.attr.attr,
static struct attribute *hn_config_attrs[] = {
	&dev_attr_profile.attr,
	HN_CONFIG_FIELDS(HN_CFG_ATTR)
	&dev_attr_clock.attr,
	&dev_attr_pace_ppm.attr,
	&dev_attr_tick_us.attr,
	&dev_attr_preload.attr,
	NULL
};
#undef HN_CFG_ATTR

static const struct attribute_group hn_config_group = {
	.name = "config",
	.attrs = hn_config_attrs,
};

/* ---- stats/ ----------------------------------------------------------- */

/* stats/<file> for every row of HN_GSTATS, each its own show() */
#define HN_GSTAT_ATTR(name, S, value)					\
	static ssize_t name##_show(struct device *dev,			\
				   struct device_attribute *a, char *buf) \
	{								\
		struct hn_dev *hd = hn_dev_of(dev);			\
		const struct hn_gstats *g;				\
		u64 v;							\
									\
		mutex_lock(&hd->lock);					\
		g = hn_dev_gstats(hd);					\
		v = (value);						\
		mutex_unlock(&hd->lock);				\
		return sysfs_emit(buf, "%llu\n", v);			\
	}								\
	static DEVICE_ATTR_RO(name);
HN_GSTATS(HN_GSTAT_ATTR)
HN_GSTAT_ATTR(now_ns, NOW, g->now)
HN_GSTAT_ATTR(lat_sum_ns, LAT_SUM, g->lat_sum)
#undef HN_GSTAT_ATTR

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

#define HN_GSTAT_ATTR(name, S, value)	&dev_attr_##name.attr,
static struct attribute *hn_stats_attrs[] = {
	&dev_attr_now_ns.attr,
	HN_GSTATS(HN_GSTAT_ATTR)
	&dev_attr_lat_sum_ns.attr,
	&dev_attr_tx_waits.attr,
	&dev_attr_rx_read.attr,
	&dev_attr_rx_queued.attr,
	NULL
};
#undef HN_GSTAT_ATTR

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
			  atomic64_read(&hd->err[to_hn_dattr(a)->off]));
}

#define HN_ERR_ATTR(kind, name)						\
	static struct hn_dattr hn_err_##name = {			\
		.attr = __ATTR(name, 0444, hn_err_show, NULL),		\
		.off = HN_E_##kind,					\
	};
HN_ERRORS(HN_ERR_ATTR)
#undef HN_ERR_ATTR

#define HN_ERR_ATTR(kind, name)	&hn_err_##name.attr.attr,
static struct attribute *hn_errors_attrs[] = {
	HN_ERRORS(HN_ERR_ATTR)
	NULL
};
#undef HN_ERR_ATTR

static const struct attribute_group hn_errors_group = {
	.name = "errors",
	.attrs = hn_errors_attrs,
};

/* ---- clock/ ----------------------------------------------------------- */

/* clock/<file>: a value of the clock's, read under hd->lock */
#define HN_CLOCK_ATTR(name, field)					\
	static ssize_t name##_show(struct device *dev,			\
				   struct device_attribute *a, char *buf) \
	{								\
		struct hn_dev *hd = hn_dev_of(dev);			\
		u64 v;							\
									\
		mutex_lock(&hd->lock);					\
		v = hd->field;						\
		mutex_unlock(&hd->lock);				\
		return sysfs_emit(buf, "%llu\n", v);			\
	}								\
	static DEVICE_ATTR_RO(name)

HN_CLOCK_ATTR(steps, steps);
HN_CLOCK_ATTR(stalls, stalls);
HN_CLOCK_ATTR(wakeups, wakeups);
/* the working values derived from the configuration */
HN_CLOCK_ATTR(budget, budget);
HN_CLOCK_ATTR(stall_ns, stall_ns);
HN_CLOCK_ATTR(step_bytes, step_bytes);
HN_CLOCK_ATTR(rx_batch, rx_batch);

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

#define HN_NODE_ATTR(name, S, value)					\
	static u64 hn_n_##name##_get(const struct hn_nstats *st,	\
				     const struct hn_port_stats *ps)	\
	{								\
		return (value);						\
	}								\
	static ssize_t hn_n_##name##_show(struct kobject *kobj,		\
					  struct kobj_attribute *a,	\
					  char *buf)			\
	{								\
		return hn_node_show(kobj, a, buf, hn_n_##name##_get);	\
	}								\
	static struct kobj_attribute hn_n_##name =			\
		__ATTR(name, 0444, hn_n_##name##_show, NULL);
HN_NSTATS(HN_NODE_ATTR)
HN_NODE_ATTR(lat_sum_ns, LAT_SUM, st->lat_sum)
HN_NODE_ATTR(rx_read, RX_READ, ps->rx_read)
HN_NODE_ATTR(rx_queued, RX_QUEUED, ps->rx_queued)
HN_NODE_ATTR(nic_room, NIC_ROOM, ps->nic_room)
HN_NODE_ATTR(bound, BOUND, ps->bound)
#undef HN_NODE_ATTR

#define HN_NODE_ATTR(name, S, value)	&hn_n_##name.attr,
static struct attribute *hn_node_attrs[] = {
	HN_NSTATS(HN_NODE_ATTR)
	&hn_n_lat_sum_ns.attr,
	&hn_n_rx_read.attr,
	&hn_n_rx_queued.attr,
	&hn_n_nic_room.attr,
	&hn_n_bound.attr,
	NULL
};
#undef HN_NODE_ATTR
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

/*
 * Make nodes/0 .. nodes/N-1 for hd->cfg.nodes.  Called without hd->lock
 * (a show() takes it); hn_sysfs_nodes_del() undoes it, for the number of
 * nodes it was made for.
 */
int hn_sysfs_nodes_add(struct hn_dev *hd)
{
	struct hn_nkobj *nk;
	int rc;
	u32 i;

	hd->nkobj = kvcalloc(hd->cfg.nodes, sizeof(*hd->nkobj), GFP_KERNEL);
	if (!hd->nkobj)
		return -ENOMEM;
	hd->nkobj_count = hd->cfg.nodes;
	hd->nodes_kobj = kobject_create_and_add("nodes",
						&hd->misc.this_device->kobj);
	if (!hd->nodes_kobj) {
		rc = -ENOMEM;
		goto err;
	}
	for (i = 0; i < hd->cfg.nodes; i++) {
		nk = kzalloc(sizeof(*nk), GFP_KERNEL);
		if (!nk) {
			rc = -ENOMEM;
			goto err;
		}
		nk->hd = hd;
		nk->id = i;
		rc = kobject_init_and_add(&nk->kobj, &hn_node_ktype,
					  hd->nodes_kobj, "%u", i);
		if (rc) {
			kobject_put(&nk->kobj);
			goto err;
		}
		hd->nkobj[i] = nk;
	}
	return 0;

err:
	hn_sysfs_nodes_del(hd);
	return rc;
}

void hn_sysfs_nodes_del(struct hn_dev *hd)
{
	u32 i;

	if (!hd->nkobj)
		return;
	for (i = 0; i < hd->nkobj_count; i++)
		if (hd->nkobj[i])
			kobject_put(&hd->nkobj[i]->kobj);
	kobject_put(hd->nodes_kobj);
	kvfree(hd->nkobj);
	hd->nkobj = NULL;
	hd->nodes_kobj = NULL;
}
