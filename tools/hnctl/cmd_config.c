// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_config.c - "hnctl show" and "hnctl set": the configuration
 * attributes, by their spec names, as text, JSON and command-line values
 * (the KEY VALUE... that fabric add takes too).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hnctl.h"
#include "json.h"

/* A number in a sysfs file, or -1. */
static long long sysfs_num(const char *path)
{
	long long v = -1;
	FILE *f = fopen(path, "r");

	if (f) {
		if (fscanf(f, "%lld", &v) != 1)
			v = -1;
		fclose(f);
	}
	return v;
}

/*
 * The module's parameters that netlink does not carry, read from sysfs
 * config/; show's mask of them has bit i for row i.
 */
static const struct {
	const char *key, *file;
	int number;
} sysfs_keys[] = {
	{ "preload-at-load", "preload_at_load", 0 },
	{ "tick-us", "tick_us", 1 },
};

static int sysfs_key(const char *key)
{
	char buf[32];
	size_t i;

	for (i = 0; key[i] && i + 1 < sizeof(buf); i++)
		buf[i] = key[i] == '_' ? '-' : key[i];
	buf[i] = '\0';
	if (!strcmp(buf, "preload"))	/* the module parameter's name */
		return 0;
	for (i = 0; i < sizeof(sysfs_keys) / sizeof(sysfs_keys[0]); i++)
		if (!strcmp(buf, sysfs_keys[i].key))
			return (int)i;
	return -1;
}

/* The sysfs-only keys of @mask, where the files of @dir can be read. */
static void show_sysfs(const char *dir, unsigned int mask, int json)
{
	char path[96], val[32];
	size_t i;
	FILE *f;

	for (i = 0; i < sizeof(sysfs_keys) / sizeof(sysfs_keys[0]); i++) {
		if (!(mask & 1u << i))
			continue;
		snprintf(path, sizeof(path), "%s/config/%s", dir,
			 sysfs_keys[i].file);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(val, sizeof(val), f)) {
			val[strcspn(val, "\n")] = '\0';
			if (!json)
				printf("%s %s\n", sysfs_keys[i].key, val);
			else if (sysfs_keys[i].number)
				j_u64(sysfs_keys[i].key, strtoull(val, NULL, 10));
			else
				j_str(sysfs_keys[i].key, val);
		}
		fclose(f);
	}
}

/*
 * Who holds the device: the nodes bound (sysfs nodes/N/bound), which
 * keep the fabric from being rebuilt, and the files open (the module's
 * reference count), which keep the module from being unloaded.
 */
static void show_holders(const char *dir, const struct hn_ctl_config *cfg,
			 int json)
{
	long long open = sysfs_num("/sys/module/hybridnet/refcnt");
	char path[128];
	uint32_t u, nb = 0;

	if (json)
		j_arr("bound-nodes");
	for (u = 0; u < cfg->nodes; u++) {
		snprintf(path, sizeof(path), "%s/nodes/%u/bound", dir, u);
		if (sysfs_num(path) != 1)
			continue;
		if (json)
			j_u64(NULL, u);
		else
			printf("%s %u", nb ? "," : "# nodes bound:", u);
		nb++;
	}
	if (json) {
		j_arr_end();
		if (open >= 0)
			j_u64("open-files", (uint64_t)open);
		return;
	}
	if (nb)
		printf(" (the fabric cannot be rebuilt while they are)\n");
	if (open > 0)
		printf("# %lld file%s of /dev/%s open: the module cannot be "
		       "unloaded until %s closed\n", open, open == 1 ? "" : "s",
		       HYBRIDNET_DEV_NAME, open == 1 ? "it is" : "they are");
}

int cmd_show(struct hnctl *o, int argc, char **argv)
{
	struct hn_ctl_config cfg, want = { 0 };
	unsigned int sys = 0, w;
	char dir[64];
	int i, rc;

	for (i = 0; i < argc; i++) {
		const struct hn_ctl_field *f;

		f = config_field(argv[i]);
		if (!f && sysfs_key(argv[i]) >= 0) {
			sys |= 1u << sysfs_key(argv[i]);
			continue;
		}
		if (!f)
			return hnctl_usage("show", "unknown key '%s'", argv[i]);
		HN_CTL_MARK(&want, f->attr);
	}
	if (o->dry_run) {
		if (o->json) {
			j_obj(NULL);
			j_str("request", "config-get");
			j_obj_end();
			j_end();
		} else {
			printf("config-get\n");
		}
		return 0;
	}
	rc = hnctl_connect(o);
	if (rc)
		return rc;
	rc = hn_ctl_config_get(o->ctl, &cfg);
	if (!rc)
		rc = hnctl_sysfs_dir(o, dir, sizeof(dir));
	if (rc)
		return hnctl_refused(o, "show", rc);
	if (hn_ctl_config_count(&want) || sys)
		for (w = 0; w < HN_CTL_MASK_WORDS; w++)
			cfg.mask[w] &= want.mask[w];
	if (!hn_ctl_config_count(&want) && !sys)
		sys = ~0u;
	if (o->json) {
		j_obj(NULL);
		config_json(&cfg);
		show_sysfs(dir, sys, 1);
		if (!hn_ctl_config_count(&want) && sys == ~0u)
			show_holders(dir, &cfg, 1);
		j_obj_end();
		j_end();
	} else {
		config_print(&cfg, 0);
		show_sysfs(dir, sys, 0);
		if (!hn_ctl_config_count(&want) && sys == ~0u)
			show_holders(dir, &cfg, 0);
	}
	return 0;
}


int config_args(const char *cmd, const char *sub, int argc, char **argv,
		struct hn_ctl_config *cfg)
{
	char why[256];
	int i;

	for (i = 0; i < argc; i++) {
		if (config_value(cfg, argv[i], i + 1 < argc ? argv[i + 1] :
				 NULL, why, sizeof(why)))
			return hnctl_usage(cmd, "%s%s", sub, why);
		i++;
	}
	return 0;
}

void config_dry(struct hnctl *o, const char *req,
		const struct hn_ctl_config *cfg)
{
	if (o->json) {
		j_obj(NULL);
		j_str("request", req);
		config_json(cfg);
		j_obj_end();
		j_end();
	} else {
		printf("%s ", req);
		config_print(cfg, 1);
		putchar('\n');
	}
}

int cmd_set(struct hnctl *o, int argc, char **argv)
{
	struct hn_ctl_change chg;
	struct hn_ctl_config cfg = { 0 };
	int rc;

	rc = config_args("set", "", argc, argv, &cfg);
	if (rc)
		return rc;
	if (!hn_ctl_config_count(&cfg))
		return hnctl_usage("set", "nothing to set: give KEY VALUE...");
	if (o->dry_run) {
		config_dry(o, "config-set", &cfg);
		return 0;
	}
	rc = hnctl_connect(o);
	if (rc)
		return rc;
	rc = hn_ctl_config_set_change(o->ctl, &cfg, &chg);
	if (rc)
		return hnctl_refused(o, "set", rc);
	if (o->json) {
		j_obj(NULL);
		j_bool("rebuilt", chg.rebuilt);
		if (chg.rebuilt)
			j_u64("released", chg.released);
		j_obj_end();
		j_end();
	} else if (chg.rebuilt) {
		printf("rebuilt the fabric: %u circuit%s released, statistics "
		       "and virtual time reset\n", chg.released,
		       chg.released == 1 ? "" : "s");
	}
	return 0;
}
