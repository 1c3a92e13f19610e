// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_fabric.c - "hnctl fabric": list the fabrics of the caller's network
 * namespace, make one configured as "hnctl set" configures one, delete
 * one (HYBRIDNET_CMD_FABRIC_*).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hnctl.h"
#include "json.h"

/*
 * A deadlock's cycle, as sysfs fabric/deadlock gives it: "at T since S:"
 * and each channel SW.PORT/LINK, :vVC through the flit router.
 */
static void deadlock_print(const struct hn_ctl_fabric *f)
{
	uint32_t i;

	printf(" deadlock at %" PRIu64 " since %" PRIu64 ":", f->dl_at,
	       f->dl_since);
	for (i = 0; i < f->dl_n; i++) {
		printf(" %u.%u/%u", f->dl[i].sw, f->dl[i].port, f->dl[i].link);
		if (f->dl[i].vc != UINT32_MAX)
			printf(":v%u", f->dl[i].vc);
	}
}

static void deadlock_json(const struct hn_ctl_fabric *f)
{
	uint32_t i;

	j_obj("deadlock");
	j_u64("deadlock-at", f->dl_at);
	j_u64("deadlock-since", f->dl_since);
	j_arr("cycle");
	for (i = 0; i < f->dl_n; i++) {
		j_obj(NULL);
		j_u64("switch", f->dl[i].sw);
		j_u64("port", f->dl[i].port);
		j_u64("link", f->dl[i].link);
		if (f->dl[i].vc != UINT32_MAX)
			j_u64("vc", f->dl[i].vc);
		j_obj_end();
	}
	j_arr_end();
	j_obj_end();
}

/*
 * One fabric: a line, or a JSON object (its members as FABRIC_GET's);
 * a deadlocked fabric's cycle at its end.
 */
static void fabric_print(const struct hn_ctl_fabric *f, int json)
{
	if (!json) {
		printf("fabric %u %s nodes %u slots %u switches %u links %u "
		       "now %" PRIu64, f->id, f->topology, f->nodes,
		       f->slots, f->switches, f->links, f->now);
		if (f->links_down || f->switches_down)
			printf(" links-down %u switches-down %u", f->links_down,
			       f->switches_down);
		if (f->channels_down)
			printf(" channels-down %u", f->channels_down);
		if (f->dl_n)
			deadlock_print(f);
		printf("\n");
		return;
	}
	j_obj(NULL);
	j_u64("fabric", f->id);
	j_str("topology", f->topology);
	j_u64("nodes", f->nodes);
	j_u64("slots", f->slots);
	j_u64("levels", f->levels);
	j_u64("width", f->width);
	j_u64("switches", f->switches);
	j_u64("radix", f->radix);
	j_u64("links", f->links);
	j_u64("max-hops", f->max_hops);
	j_u64("links-down", f->links_down);
	j_u64("switches-down", f->switches_down);
	j_u64("channels-down", f->channels_down);
	j_u64("now", f->now);
	if (f->dl_n)
		deadlock_json(f);
	j_obj_end();
}

static int fabric_list(struct hnctl *o)
{
	struct hn_ctl_fabric *f;
	size_t i, n;
	int rc;

	if (o->dry_run) {
		printf(o->json ? "{\"request\":\"fabric-get\"}\n" : "fabric\n");
		return 0;
	}
	rc = hnctl_connect(o);
	if (rc)
		return rc;
	rc = hn_ctl_fabric_list(o->ctl, &f, &n);
	if (rc)
		return hnctl_refused(o, "fabric", rc);
	if (o->json) {
		j_obj(NULL);
		j_arr("fabrics");
	}
	for (i = 0; i < n; i++)
		fabric_print(&f[i], o->json);
	if (o->json) {
		j_arr_end();
		j_obj_end();
		j_end();
	}
	free(f);
	return 0;
}

static int fabric_add(struct hnctl *o, int argc, char **argv)
{
	struct hn_ctl_config cfg = { 0 };
	struct hn_ctl_fabric f;
	int rc;

	rc = config_args("fabric", "add: ", argc, argv, &cfg);
	if (rc)
		return rc;
	if (o->dry_run) {
		config_dry(o, "fabric-new", &cfg);
		return 0;
	}
	rc = hnctl_connect(o);
	if (rc)
		return rc;
	rc = hn_ctl_fabric_new(o->ctl, &cfg, &f);
	if (rc)
		return hnctl_refused(o, "fabric add", rc);
	if (o->json) {
		fabric_print(&f, 1);
		j_end();
	} else {
		printf("fabric %u\n", f.id);
	}
	return 0;
}

static int fabric_del(struct hnctl *o, int argc, char **argv)
{
	uint64_t id = UINT64_MAX;
	int i, rc;

	for (i = 0; i < argc; i++) {
		if (id != UINT64_MAX ||
		    hnctl_num(argv[i], HYBRIDNET_MAX_FABRICS - 1, &id))
			return hnctl_usage("fabric", "del takes one fabric "
					   "number, 0..%u, not '%s'",
					   HYBRIDNET_MAX_FABRICS - 1, argv[i]);
	}
	if (id == UINT64_MAX)
		return hnctl_usage("fabric", "del: which fabric? (hnctl fabric "
				   "lists them)");
	if (o->dry_run) {
		if (o->json)
			printf("{\"request\":\"fabric-del\",\"fabric\":%" PRIu64
			       "}\n", id);
		else
			printf("fabric-del fabric %" PRIu64 "\n", id);
		return 0;
	}
	rc = hnctl_connect(o);
	if (rc)
		return rc;
	rc = hn_ctl_fabric_del(o->ctl, (uint32_t)id);
	return rc ? hnctl_refused(o, "fabric del", rc) : 0;
}

int cmd_fabric(struct hnctl *o, int argc, char **argv)
{
	int i, show = 0;

	for (i = 0; i < argc; i++) {
		if (!show && !strcmp(argv[i], "show")) {
			show = 1;
			continue;
		}
		if (!show && !strcmp(argv[i], "add"))
			return fabric_add(o, argc - i - 1, argv + i + 1);
		if (!show && !strcmp(argv[i], "del"))
			return fabric_del(o, argc - i - 1, argv + i + 1);
		return hnctl_usage("fabric", show ? "show takes no argument: "
				   "'%s'" : "unknown argument '%s' (show, add, "
				   "del)", argv[i]);
	}
	return fabric_list(o);
}
