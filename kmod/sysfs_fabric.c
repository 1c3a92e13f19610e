// SPDX-License-Identifier: GPL-2.0
/*
 * sysfs_fabric.c - the fabric's shape and its statistics per level, one
 * value per file, next to sysfs.c's directories:
 *
 *   fabric/          levels, width, switches, radix, links, max_hops: the
 *                    shape of the fabric in force (as FABRIC_GET)
 *   fabric/deadlock  "none", or the cycle of channels a deadlock left
 *                    (hn_deadlock()): "at T since S:" and each channel as
 *                    SW.PORT/LINK, each held by a worm waiting for the next
 *   fabric/down      the switches, then the links, taken down (FAULT_SET),
 *                    then the channels of links down alone (LINK/cJ), a
 *                    name a line; links_down, switches_down and
 *                    channels_down count them
 *   fabric/levelN/   one directory per level, 0..levels-1 (a crossbar
 *                    has level 0 only): the sums over its switches and
 *                    over the links that join them to the level below
 *                    (level 0: the nodes' own links), hn_level_stats()
 *
 * The rows are HN_FINFO and HN_LSTAT of hn_lists.h.  fabric/levelN/ grows
 * and shrinks with a rebuild as nodes/ does (hn_sysfs_fabric_resize());
 * a file of a level the fabric no longer has reads ENODEV.  Every file is
 * read under hd->lock.
 */
#include <linux/device.h>
#include <linux/kernel.h>
#include <linux/kobject.h>
#include <linux/slab.h>
#include <linux/sysfs.h>

#include "hn_kmod.h"
#include "hn_sched.h"		/* enum hn_topology */
#include "fab_name.h"		/* HN_FAB_NAME_LEN */

struct hn_lkobj {
	struct kobject kobj;
	struct hn_dev *hd;
	u32 level;
};

/* the levels of the fabric @c makes: a fat tree's, or 1 */
static u32 hn_fabric_levels(const struct hn_config *c)
{
	return c->topology == HN_TOPO_FATTREE ? c->levels : 1;
}

/* ---- fabric/ ---------------------------------------------------------- */

static struct hn_dev *hn_fabric_dev(struct kobject *kobj)
{
	return dev_get_drvdata(kobj_to_dev(kobj->parent));
}

static ssize_t hn_finfo_show(struct kobject *kobj, char *buf,
			     u32 (*get)(const struct hn_fabric_info *fi))
{
	struct hn_dev *hd = hn_fabric_dev(kobj);
	struct hn_fabric_info fi;

	mutex_lock(&hd->lock);
	hn_fabric_info(hd->e, &fi);
	mutex_unlock(&hd->lock);
	return sysfs_emit(buf, "%u\n", get(&fi));
}

/* a getter and a show() for every row of HN_FINFO */
#define HN_FINFO(file, value)						\
	static u32 hn_f_##file##_get(const struct hn_fabric_info *fi)	\
	{								\
		return value;						\
	}								\
	static ssize_t hn_f_##file##_show(struct kobject *kobj,		\
					  struct kobj_attribute *a,	\
					  char *buf)			\
	{								\
		return hn_finfo_show(kobj, buf, hn_f_##file##_get);	\
	}
#include "hn_lists.h"
#undef HN_FINFO

enum {
#define HN_FINFO(file, value)	HN_FINFO_##file,
#include "hn_lists.h"
#undef HN_FINFO
	HN_FINFO_NR
};

static struct kobj_attribute hn_finfo_kattrs[HN_FINFO_NR] = {
#define HN_FINFO(file, value)						\
	[HN_FINFO_##file] = __ATTR(file, 0444, hn_f_##file##_show, NULL),
#include "hn_lists.h"
#undef HN_FINFO
};

static ssize_t hn_deadlock_show(struct kobject *kobj, struct kobj_attribute *a,
				char *buf)
{
	struct hn_dev *hd = hn_fabric_dev(kobj);
	struct hn_deadlock *d;
	ssize_t n;
	u32 i;
	int rc;

	d = kmalloc(sizeof(*d), GFP_KERNEL);
	if (!d)
		return -ENOMEM;
	mutex_lock(&hd->lock);
	rc = hn_deadlock(hd->e, d);
	mutex_unlock(&hd->lock);
	if (rc) {
		kfree(d);
		return sysfs_emit(buf, "none\n");
	}
	n = sysfs_emit(buf, "at %llu since %llu:", d->at, d->since);
	for (i = 0; i < d->n && i < HN_DL_MAX; i++) {
		n += sysfs_emit_at(buf, n, " %u.%u/%u", d->ch[i].sw,
				   d->ch[i].port, d->ch[i].link);
		if (d->ch[i].vc != HN_NONE)	/* the flit router's */
			n += sysfs_emit_at(buf, n, ":v%u", d->ch[i].vc);
	}
	n += sysfs_emit_at(buf, n, "\n");
	kfree(d);
	return n;
}

static struct kobj_attribute hn_deadlock_kattr =
	__ATTR(deadlock, 0444, hn_deadlock_show, NULL);

/* @name's line at *@n of @buf, its channel @chan's (HN_NONE: none), or more */
static void hn_down_line(char *buf, ssize_t *n, u32 *more, const char *name,
			 u32 chan)
{
	if (*n + strlen(name) + 24 >= PAGE_SIZE)
		(*more)++;
	else if (chan == HN_NONE)
		*n += sysfs_emit_at(buf, *n, "%s\n", name);
	else
		*n += sysfs_emit_at(buf, *n, "%s/c%u\n", name, chan);
}

/*
 * The names of what is down, switches first, then links, then the
 * channels of links down alone, a line each, as many as a page holds,
 * then "... N more"; nothing when all is up.
 */
static ssize_t hn_down_show(struct kobject *kobj, struct kobj_attribute *a,
			    char *buf)
{
	struct hn_dev *hd = hn_fabric_dev(kobj);
	char name[HN_FAB_NAME_LEN];
	struct hn_fabric_info fi;
	u32 i, j, k, more = 0;
	ssize_t n = 0;
	u8 bits;
	bool sw;

	mutex_lock(&hd->lock);
	hn_fabric_info(hd->e, &fi);
	for (k = 0; k < 2 && fi.links_down + fi.switches_down; k++) {
		sw = !k;
		for (i = 0; i < (sw ? fi.switches : fi.links); i++) {
			if (!(sw ? hn_switch_down(hd->e, i) :
			      hn_link_down(hd->e, i)) ||
			    hn_fault_name(hd->e, sw, i, name, sizeof(name)))
				continue;
			hn_down_line(buf, &n, &more, name, HN_NONE);
		}
	}
	for (i = 0; fi.channels_down && i < fi.links; i++) {
		bits = hn_link_chans_down(hd->e, i);
		if (!bits || hn_fault_name(hd->e, false, i, name, sizeof(name)))
			continue;
		for (j = 0; bits >> j; j++)
			if (bits & BIT(j))
				hn_down_line(buf, &n, &more, name, j);
	}
	mutex_unlock(&hd->lock);
	if (more)
		n += sysfs_emit_at(buf, n, "... %u more\n", more);
	return n;
}

static struct kobj_attribute hn_down_kattr =
	__ATTR(down, 0444, hn_down_show, NULL);

static struct attribute *hn_fabric_attrs[] = {
#define HN_FINFO(file, value)	(&hn_finfo_kattrs[HN_FINFO_##file].attr),
#include "hn_lists.h"
#undef HN_FINFO
	&hn_deadlock_kattr.attr,
	&hn_down_kattr.attr,
	NULL
};

static const struct attribute_group hn_fabric_group = {
	.attrs = hn_fabric_attrs,
};

/* ---- fabric/levelN/ --------------------------------------------------- */

static ssize_t hn_level_show(struct kobject *kobj, char *buf,
			     u64 (*get)(const struct hn_level_stats *lv))
{
	struct hn_lkobj *lk = container_of(kobj, struct hn_lkobj, kobj);
	struct hn_dev *hd = lk->hd;
	struct hn_level_stats lv;
	int rc;

	mutex_lock(&hd->lock);
	rc = hn_level_stats(hd->e, lk->level, &lv);
	mutex_unlock(&hd->lock);
	if (rc)			/* -EINVAL: the fabric lost that level */
		return -ENODEV;
	return sysfs_emit(buf, "%llu\n", get(&lv));
}

/* a getter and a show() for every row of HN_LSTAT */
#define HN_LSTAT(file, value)						\
	static u64 hn_l_##file##_get(const struct hn_level_stats *lv)	\
	{								\
		return value;						\
	}								\
	static ssize_t hn_l_##file##_show(struct kobject *kobj,		\
					  struct kobj_attribute *a,	\
					  char *buf)			\
	{								\
		return hn_level_show(kobj, buf, hn_l_##file##_get);	\
	}
#include "hn_lists.h"
#undef HN_LSTAT

enum {
#define HN_LSTAT(file, value)	HN_LSTAT_##file,
#include "hn_lists.h"
#undef HN_LSTAT
	HN_LSTAT_NR
};

static struct kobj_attribute hn_lstat_kattrs[HN_LSTAT_NR] = {
#define HN_LSTAT(file, value)						\
	[HN_LSTAT_##file] = __ATTR(file, 0444, hn_l_##file##_show, NULL),
#include "hn_lists.h"
#undef HN_LSTAT
};

static struct attribute *hn_level_attrs[] = {
#define HN_LSTAT(file, value)	(&hn_lstat_kattrs[HN_LSTAT_##file].attr),
#include "hn_lists.h"
#undef HN_LSTAT
	NULL
};
ATTRIBUTE_GROUPS(hn_level);

static void hn_level_release(struct kobject *kobj)
{
	kfree(container_of(kobj, struct hn_lkobj, kobj));
}

static const struct kobj_type hn_level_ktype = {
	.release = hn_level_release,
	.sysfs_ops = &kobj_sysfs_ops,
	.default_groups = hn_level_groups,
};

static int hn_level_add(struct hn_dev *hd, u32 level)
{
	struct hn_lkobj *lk;
	int rc;

	lk = kzalloc(sizeof(*lk), GFP_KERNEL);
	if (!lk)
		return -ENOMEM;
	lk->hd = hd;
	lk->level = level;
	rc = kobject_init_and_add(&lk->kobj, &hn_level_ktype, hd->fabric_kobj,
				  "level%u", level);
	if (rc) {
		kobject_put(&lk->kobj);
		return rc;
	}
	hd->lkobj[level] = lk;
	return 0;
}

static void hn_levels_trim(struct hn_dev *hd, u32 n)
{
	while (hd->lkobj_count > n) {
		hd->lkobj_count--;
		kobject_put(&hd->lkobj[hd->lkobj_count]->kobj);
		hd->lkobj[hd->lkobj_count] = NULL;
	}
}

/*
 * Make fabric/ hold level0 .. levelL-1 for the fabric @c makes: add the
 * missing ones, or remove those from L on.  Fails (adding) with fabric/
 * as it was.  Called without hd->lock, as hn_sysfs_nodes_resize(): grow
 * before the new fabric is in force, shrink after.
 */
int hn_sysfs_fabric_resize(struct hn_dev *hd, const struct hn_config *c)
{
	u32 n = hn_fabric_levels(c), have = hd->lkobj_count;
	int rc;

	if (WARN_ON_ONCE(n > ARRAY_SIZE(hd->lkobj)))
		return -EINVAL;
	if (n <= have) {
		hn_levels_trim(hd, n);
		return 0;
	}
	for (; hd->lkobj_count < n; hd->lkobj_count++) {
		rc = hn_level_add(hd, hd->lkobj_count);
		if (rc) {
			hn_levels_trim(hd, have);
			return rc;
		}
	}
	return 0;
}

/* Make fabric/ and its levels for hd->cfg. */
int hn_sysfs_fabric_add(struct hn_dev *hd)
{
	int rc;

	hd->fabric_kobj = kobject_create_and_add("fabric", &hd->dev->kobj);
	if (!hd->fabric_kobj)
		return -ENOMEM;
	rc = sysfs_create_group(hd->fabric_kobj, &hn_fabric_group);
	if (!rc)
		rc = hn_sysfs_fabric_resize(hd, &hd->cfg);
	if (rc)
		hn_sysfs_fabric_del(hd);
	return rc;
}

void hn_sysfs_fabric_del(struct hn_dev *hd)
{
	if (!hd->fabric_kobj)
		return;
	hn_levels_trim(hd, 0);
	kobject_put(hd->fabric_kobj);	/* and its files */
	hd->fabric_kobj = NULL;
}
