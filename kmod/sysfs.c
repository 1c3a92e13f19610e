// SPDX-License-Identifier: GPL-2.0
/*
 * sysfs.c - configuration and statistics, one value per file, on the
 * misc device (/sys/class/misc/hybridnet/):
 *
 *   config/   the configuration in force, read-only
 *   stats/    fabric-wide statistics of the engine, and of the device
 *   errors/   errors returned to user space, one counter per kind
 *   clock/    the clock kthread: steps, stalls, wakeups, overruns
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
};

#define to_hn_dattr(a) container_of(a, struct hn_dattr, attr)

static struct hn_dev *hn_dev_of(struct device *dev)
{
	struct miscdevice *misc = dev_get_drvdata(dev);

	return container_of(misc, struct hn_dev, misc);
}

static u64 hn_min_or_0(u64 v)
{
	return v == HN_U64_MAX ? 0 : v;
}

/* ---- config/ ---------------------------------------------------------- */

static ssize_t hn_cfg_u32_show(struct device *dev, struct device_attribute *a,
			       char *buf)
{
	struct hn_dev *hd = hn_dev_of(dev);
	u32 v;

	mutex_lock(&hd->lock);
	v = *(const u32 *)((const char *)hn_cfg(hd->e) + to_hn_dattr(a)->off);
	mutex_unlock(&hd->lock);
	return sysfs_emit(buf, "%u\n", v);
}

#define HN_CFG(_name, _field)						\
	static struct hn_dattr hn_cfg_##_name = {			\
		.attr = __ATTR(_name, 0444, hn_cfg_u32_show, NULL),	\
		.off = offsetof(struct hn_config, _field),		\
	}

HN_CFG(nodes, nodes);
HN_CFG(k, k);
HN_CFG(policy, policy);
HN_CFG(link_mbps, link_mbps);
HN_CFG(slot_p_ns, slot_p_ns);
HN_CFG(slot_w_ns, slot_w_ns);
HN_CFG(guard_ns, guard_ns);
HN_CFG(sched_ns, sched_ns);
HN_CFG(setup_ns, setup_ns);
HN_CFG(wh_first_ns, wh_first_ns);
HN_CFG(wh_flit_ns, wh_flit_ns);
HN_CFG(flit_bytes, flit_bytes);
HN_CFG(worm_bytes, worm_bytes);
HN_CFG(wire_ns, wire_ns);
HN_CFG(nic_ns, nic_ns);
HN_CFG(fabric_ns, fabric_ns);
HN_CFG(nic_buf_bytes, nic_buf_bytes);
HN_CFG(sw_buf_bytes, sw_buf_bytes);
HN_CFG(rx_buf_bytes, rx_buf_bytes);
HN_CFG(max_msg_bytes, max_msg_bytes);
HN_CFG(pin_slots, pin_slots);

static ssize_t idle_timeout_ns_show(struct device *dev,
				    struct device_attribute *a, char *buf)
{
	struct hn_dev *hd = hn_dev_of(dev);
	u64 v;

	mutex_lock(&hd->lock);
	v = hn_cfg(hd->e)->idle_timeout_ns;
	mutex_unlock(&hd->lock);
	return sysfs_emit(buf, "%llu\n", v);
}
static DEVICE_ATTR_RO(idle_timeout_ns);

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

static struct attribute *hn_config_attrs[] = {
	&dev_attr_profile.attr,
	&hn_cfg_nodes.attr.attr,
	&hn_cfg_k.attr.attr,
	&hn_cfg_policy.attr.attr,
	&hn_cfg_link_mbps.attr.attr,
	&hn_cfg_slot_p_ns.attr.attr,
	&hn_cfg_slot_w_ns.attr.attr,
	&hn_cfg_guard_ns.attr.attr,
	&hn_cfg_sched_ns.attr.attr,
	&hn_cfg_setup_ns.attr.attr,
	&hn_cfg_wh_first_ns.attr.attr,
	&hn_cfg_wh_flit_ns.attr.attr,
	&hn_cfg_flit_bytes.attr.attr,
	&hn_cfg_worm_bytes.attr.attr,
	&hn_cfg_wire_ns.attr.attr,
	&hn_cfg_nic_ns.attr.attr,
	&hn_cfg_fabric_ns.attr.attr,
	&hn_cfg_nic_buf_bytes.attr.attr,
	&hn_cfg_sw_buf_bytes.attr.attr,
	&hn_cfg_rx_buf_bytes.attr.attr,
	&hn_cfg_max_msg_bytes.attr.attr,
	&hn_cfg_pin_slots.attr.attr,
	&dev_attr_idle_timeout_ns.attr,
	&dev_attr_clock.attr,
	&dev_attr_pace_ppm.attr,
	&dev_attr_tick_us.attr,
	&dev_attr_preload.attr,
	NULL
};

static const struct attribute_group hn_config_group = {
	.name = "config",
	.attrs = hn_config_attrs,
};

/* ---- stats/ ----------------------------------------------------------- */

/* Fill hd->gs; hd->lock held. */
static struct hn_gstats *hn_gstats_get(struct hn_dev *hd)
{
	hn_clock_sync(hd);
	hn_stats_global(hd->e, hd->gs);
	return hd->gs;
}

static ssize_t hn_gstat_show(struct device *dev, struct device_attribute *a,
			     char *buf)
{
	struct hn_dev *hd = hn_dev_of(dev);
	u64 v;

	mutex_lock(&hd->lock);
	v = *(u64 *)((char *)hn_gstats_get(hd) + to_hn_dattr(a)->off);
	mutex_unlock(&hd->lock);
	return sysfs_emit(buf, "%llu\n", v);
}

#define HN_GSTAT(_name, _field)						\
	static struct hn_dattr hn_gs_##_name = {			\
		.attr = __ATTR(_name, 0444, hn_gstat_show, NULL),	\
		.off = offsetof(struct hn_gstats, _field),		\
	}

HN_GSTAT(now_ns, now);
HN_GSTAT(tx_msgs_circuit, tx_msgs[HN_MODE_CIRCUIT]);
HN_GSTAT(tx_msgs_wormhole, tx_msgs[HN_MODE_WORMHOLE]);
HN_GSTAT(tx_bytes_circuit, tx_bytes[HN_MODE_CIRCUIT]);
HN_GSTAT(tx_bytes_wormhole, tx_bytes[HN_MODE_WORMHOLE]);
HN_GSTAT(rx_msgs_circuit, rx_msgs[HN_MODE_CIRCUIT]);
HN_GSTAT(rx_msgs_wormhole, rx_msgs[HN_MODE_WORMHOLE]);
HN_GSTAT(rx_bytes_circuit, rx_bytes[HN_MODE_CIRCUIT]);
HN_GSTAT(rx_bytes_wormhole, rx_bytes[HN_MODE_WORMHOLE]);
HN_GSTAT(in_flight_msgs, in_flight_msgs);
HN_GSTAT(in_flight_bytes, in_flight_bytes);
HN_GSTAT(tx_full, tx_full);
HN_GSTAT(retagged, retagged);
HN_GSTAT(lat_sum_ns, lat_sum);
HN_GSTAT(lat_max_ns, lat_max);
HN_GSTAT(idle_ns, idle_ns);
HN_GSTAT(cycles, cycles);
HN_GSTAT(grants, grants);
HN_GSTAT(exists, exists);
HN_GSTAT(refusals, refusals);
HN_GSTAT(releases, releases);
HN_GSTAT(timeouts, timeouts);
HN_GSTAT(preloads, preloads);

static ssize_t lat_min_ns_show(struct device *dev, struct device_attribute *a,
			       char *buf)
{
	struct hn_dev *hd = hn_dev_of(dev);
	u64 v;

	mutex_lock(&hd->lock);
	v = hn_min_or_0(hn_gstats_get(hd)->lat_min);
	mutex_unlock(&hd->lock);
	return sysfs_emit(buf, "%llu\n", v);
}
static DEVICE_ATTR_RO(lat_min_ns);

static ssize_t hn_lat_pct_show(struct device *dev, char *buf, u32 permille)
{
	struct hn_dev *hd = hn_dev_of(dev);
	u64 v;

	mutex_lock(&hd->lock);
	v = hn_hist_percentile(hn_gstats_get(hd)->hist, permille);
	mutex_unlock(&hd->lock);
	return sysfs_emit(buf, "%llu\n", v);
}

static ssize_t lat_p50_ns_show(struct device *dev, struct device_attribute *a,
			       char *buf)
{
	return hn_lat_pct_show(dev, buf, 500);
}
static DEVICE_ATTR_RO(lat_p50_ns);

static ssize_t lat_p99_ns_show(struct device *dev, struct device_attribute *a,
			       char *buf)
{
	return hn_lat_pct_show(dev, buf, 990);
}
static DEVICE_ATTR_RO(lat_p99_ns);

static ssize_t util_ppm_show(struct device *dev, struct device_attribute *a,
			     char *buf)
{
	struct hn_dev *hd = hn_dev_of(dev);
	u32 v;

	mutex_lock(&hd->lock);
	v = hn_gstats_get(hd)->util_ppm;
	mutex_unlock(&hd->lock);
	return sysfs_emit(buf, "%u\n", v);
}
static DEVICE_ATTR_RO(util_ppm);

/* Messages read by their owners, and still queued, over all nodes. */
static void hn_rx_totals(struct hn_dev *hd, u64 *read, u64 *queued)
{
	struct hn_port *p;
	u32 i;

	*read = 0;
	*queued = 0;
	for (i = 0; i < hd->cfg.nodes; i++) {
		p = &hd->ports[i];
		spin_lock(&p->lock);
		*read += p->rx_read;
		*queued += p->rx_count;
		spin_unlock(&p->lock);
	}
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

static ssize_t rx_dropped_show(struct device *dev, struct device_attribute *a,
			       char *buf)
{
	struct hn_dev *hd = hn_dev_of(dev);
	u64 v;

	mutex_lock(&hd->lock);
	v = hd->rx_dropped;
	mutex_unlock(&hd->lock);
	return sysfs_emit(buf, "%llu\n", v);
}
static DEVICE_ATTR_RO(rx_dropped);

static ssize_t tx_waits_show(struct device *dev, struct device_attribute *a,
			     char *buf)
{
	return sysfs_emit(buf, "%lld\n",
			  atomic64_read(&hn_dev_of(dev)->tx_waits));
}
static DEVICE_ATTR_RO(tx_waits);

static struct attribute *hn_stats_attrs[] = {
	&hn_gs_now_ns.attr.attr,
	&hn_gs_tx_msgs_circuit.attr.attr,
	&hn_gs_tx_msgs_wormhole.attr.attr,
	&hn_gs_tx_bytes_circuit.attr.attr,
	&hn_gs_tx_bytes_wormhole.attr.attr,
	&hn_gs_rx_msgs_circuit.attr.attr,
	&hn_gs_rx_msgs_wormhole.attr.attr,
	&hn_gs_rx_bytes_circuit.attr.attr,
	&hn_gs_rx_bytes_wormhole.attr.attr,
	&hn_gs_in_flight_msgs.attr.attr,
	&hn_gs_in_flight_bytes.attr.attr,
	&hn_gs_tx_full.attr.attr,
	&dev_attr_tx_waits.attr,
	&hn_gs_retagged.attr.attr,
	&hn_gs_lat_sum_ns.attr.attr,
	&dev_attr_lat_min_ns.attr,
	&hn_gs_lat_max_ns.attr.attr,
	&dev_attr_lat_p50_ns.attr,
	&dev_attr_lat_p99_ns.attr,
	&dev_attr_util_ppm.attr,
	&hn_gs_idle_ns.attr.attr,
	&hn_gs_cycles.attr.attr,
	&hn_gs_grants.attr.attr,
	&hn_gs_exists.attr.attr,
	&hn_gs_refusals.attr.attr,
	&hn_gs_releases.attr.attr,
	&hn_gs_timeouts.attr.attr,
	&hn_gs_preloads.attr.attr,
	&dev_attr_rx_read.attr,
	&dev_attr_rx_queued.attr,
	&dev_attr_rx_dropped.attr,
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
			  atomic64_read(&hd->err[to_hn_dattr(a)->off]));
}

#define HN_ERR(_name, _kind)						\
	static struct hn_dattr hn_err_##_name = {			\
		.attr = __ATTR(_name, 0444, hn_err_show, NULL),		\
		.off = _kind,						\
	}

HN_ERR(write_unbound, HN_E_WRITE_UNBOUND);
HN_ERR(write_short, HN_E_WRITE_SHORT);
HN_ERR(write_flags, HN_E_WRITE_FLAGS);
HN_ERR(write_len, HN_E_WRITE_LEN);
HN_ERR(write_empty, HN_E_WRITE_EMPTY);
HN_ERR(write_too_big, HN_E_WRITE_TOO_BIG);
HN_ERR(write_bad_dst, HN_E_WRITE_DST);
HN_ERR(write_unreachable, HN_E_WRITE_UNREACH);
HN_ERR(write_fault, HN_E_WRITE_FAULT);
HN_ERR(write_nomem, HN_E_WRITE_NOMEM);
HN_ERR(write_again, HN_E_WRITE_AGAIN);
HN_ERR(write_intr, HN_E_WRITE_INTR);
HN_ERR(read_unbound, HN_E_READ_UNBOUND);
HN_ERR(read_too_small, HN_E_READ_TOO_SMALL);
HN_ERR(read_fault, HN_E_READ_FAULT);
HN_ERR(read_again, HN_E_READ_AGAIN);
HN_ERR(read_intr, HN_E_READ_INTR);
HN_ERR(bind_range, HN_E_BIND_RANGE);
HN_ERR(bind_busy, HN_E_BIND_BUSY);
HN_ERR(ioctl_fault, HN_E_IOCTL_FAULT);
HN_ERR(ioctl_unknown, HN_E_IOCTL_UNKNOWN);

static struct attribute *hn_errors_attrs[] = {
	&hn_err_write_unbound.attr.attr,
	&hn_err_write_short.attr.attr,
	&hn_err_write_flags.attr.attr,
	&hn_err_write_len.attr.attr,
	&hn_err_write_empty.attr.attr,
	&hn_err_write_too_big.attr.attr,
	&hn_err_write_bad_dst.attr.attr,
	&hn_err_write_unreachable.attr.attr,
	&hn_err_write_fault.attr.attr,
	&hn_err_write_nomem.attr.attr,
	&hn_err_write_again.attr.attr,
	&hn_err_write_intr.attr.attr,
	&hn_err_read_unbound.attr.attr,
	&hn_err_read_too_small.attr.attr,
	&hn_err_read_fault.attr.attr,
	&hn_err_read_again.attr.attr,
	&hn_err_read_intr.attr.attr,
	&hn_err_bind_range.attr.attr,
	&hn_err_bind_busy.attr.attr,
	&hn_err_ioctl_fault.attr.attr,
	&hn_err_ioctl_unknown.attr.attr,
	NULL
};

static const struct attribute_group hn_errors_group = {
	.name = "errors",
	.attrs = hn_errors_attrs,
};

/* ---- clock/ ----------------------------------------------------------- */

static ssize_t steps_show(struct device *dev, struct device_attribute *a,
			  char *buf)
{
	struct hn_dev *hd = hn_dev_of(dev);
	u64 v;

	mutex_lock(&hd->lock);
	v = hd->steps;
	mutex_unlock(&hd->lock);
	return sysfs_emit(buf, "%llu\n", v);
}
static DEVICE_ATTR_RO(steps);

static ssize_t stalls_show(struct device *dev, struct device_attribute *a,
			   char *buf)
{
	struct hn_dev *hd = hn_dev_of(dev);
	u64 v;

	mutex_lock(&hd->lock);
	v = hd->stalls;
	mutex_unlock(&hd->lock);
	return sysfs_emit(buf, "%llu\n", v);
}
static DEVICE_ATTR_RO(stalls);

static ssize_t wakeups_show(struct device *dev, struct device_attribute *a,
			    char *buf)
{
	struct hn_dev *hd = hn_dev_of(dev);
	u64 v;

	mutex_lock(&hd->lock);
	v = hd->wakeups;
	mutex_unlock(&hd->lock);
	return sysfs_emit(buf, "%llu\n", v);
}
static DEVICE_ATTR_RO(wakeups);

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

enum hn_nkind {
	HN_N_STAT,		/* u64 field of struct hn_nstats */
	HN_N_LAT_MIN,
	HN_N_RX_READ,
	HN_N_RX_QUEUED,
	HN_N_RX_DROPPED,
	HN_N_NIC_ROOM,
	HN_N_BOUND,
};

struct hn_nattr {
	struct kobj_attribute attr;
	enum hn_nkind kind;
	size_t off;
};

static ssize_t hn_node_show(struct kobject *kobj, struct kobj_attribute *a,
			    char *buf)
{
	struct hn_nattr *na = container_of(a, struct hn_nattr, attr);
	struct hn_nkobj *nk = container_of(kobj, struct hn_nkobj, kobj);
	struct hn_dev *hd = nk->hd;
	struct hn_nstats st;
	struct hn_port *p;
	u64 v = 0;

	mutex_lock(&hd->lock);
	if (nk->id >= hd->cfg.nodes) {	/* the fabric shrank */
		mutex_unlock(&hd->lock);
		return -ENODEV;
	}
	p = &hd->ports[nk->id];
	switch (na->kind) {
	case HN_N_STAT:
		hn_stats_node(hd->e, nk->id, &st);
		v = *(u64 *)((char *)&st + na->off);
		break;
	case HN_N_LAT_MIN:
		hn_stats_node(hd->e, nk->id, &st);
		v = hn_min_or_0(st.lat_min);
		break;
	case HN_N_RX_READ:
		spin_lock(&p->lock);
		v = p->rx_read;
		spin_unlock(&p->lock);
		break;
	case HN_N_RX_QUEUED:
		spin_lock(&p->lock);
		v = p->rx_count;
		spin_unlock(&p->lock);
		break;
	case HN_N_RX_DROPPED:
		v = p->rx_dropped;
		break;
	case HN_N_NIC_ROOM:
		v = hn_nic_room(hd->e, nk->id);
		break;
	case HN_N_BOUND:
		v = !!p->owner;
		break;
	}
	mutex_unlock(&hd->lock);
	return sysfs_emit(buf, "%llu\n", v);
}

#define HN_NATTR(_name, _kind, _off)					\
	static struct hn_nattr hn_n_##_name = {				\
		.attr = __ATTR(_name, 0444, hn_node_show, NULL),	\
		.kind = _kind,						\
		.off = _off,						\
	}
#define HN_NSTAT(_name, _field)						\
	HN_NATTR(_name, HN_N_STAT, offsetof(struct hn_nstats, _field))

HN_NSTAT(tx_msgs_circuit, tx_msgs[HN_MODE_CIRCUIT]);
HN_NSTAT(tx_msgs_wormhole, tx_msgs[HN_MODE_WORMHOLE]);
HN_NSTAT(tx_bytes_circuit, tx_bytes[HN_MODE_CIRCUIT]);
HN_NSTAT(tx_bytes_wormhole, tx_bytes[HN_MODE_WORMHOLE]);
HN_NSTAT(tx_done, tx_done);
HN_NSTAT(tx_full, tx_full);
HN_NSTAT(rx_msgs_circuit, rx_msgs[HN_MODE_CIRCUIT]);
HN_NSTAT(rx_msgs_wormhole, rx_msgs[HN_MODE_WORMHOLE]);
HN_NSTAT(rx_bytes_circuit, rx_bytes[HN_MODE_CIRCUIT]);
HN_NSTAT(rx_bytes_wormhole, rx_bytes[HN_MODE_WORMHOLE]);
HN_NSTAT(lat_sum_ns, lat_sum);
HN_NSTAT(lat_max_ns, lat_max);
HN_NATTR(lat_min_ns, HN_N_LAT_MIN, 0);
HN_NATTR(rx_read, HN_N_RX_READ, 0);
HN_NATTR(rx_queued, HN_N_RX_QUEUED, 0);
HN_NATTR(rx_dropped, HN_N_RX_DROPPED, 0);
HN_NATTR(nic_room, HN_N_NIC_ROOM, 0);
HN_NATTR(bound, HN_N_BOUND, 0);

static struct attribute *hn_node_attrs[] = {
	&hn_n_tx_msgs_circuit.attr.attr,
	&hn_n_tx_msgs_wormhole.attr.attr,
	&hn_n_tx_bytes_circuit.attr.attr,
	&hn_n_tx_bytes_wormhole.attr.attr,
	&hn_n_tx_done.attr.attr,
	&hn_n_tx_full.attr.attr,
	&hn_n_rx_msgs_circuit.attr.attr,
	&hn_n_rx_msgs_wormhole.attr.attr,
	&hn_n_rx_bytes_circuit.attr.attr,
	&hn_n_rx_bytes_wormhole.attr.attr,
	&hn_n_lat_sum_ns.attr.attr,
	&hn_n_lat_min_ns.attr.attr,
	&hn_n_lat_max_ns.attr.attr,
	&hn_n_rx_read.attr.attr,
	&hn_n_rx_queued.attr.attr,
	&hn_n_rx_dropped.attr.attr,
	&hn_n_nic_room.attr.attr,
	&hn_n_bound.attr.attr,
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
