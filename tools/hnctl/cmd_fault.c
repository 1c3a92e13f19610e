// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_fault.c - "hnctl link down|up NAME...", "hnctl link down random N
 * [seed S]", "hnctl link down random-channels N [seed S]" and "hnctl
 * switch down|up NAME...": links, a dilated link's channels and switches
 * of the fabric taken down and brought back (FAULT_SET; docs/model.md
 * "Faults").  Names are hnctl links' (nodeU, swL.I/upP, swL.I/downP),
 * with /cJ a link's channel J, and hnctl switches' (swL.I); each is
 * checked against the fabric before any is sent, and they are sent in
 * order, the first refusal stopping the rest.  And "hnctl switch switching NAME SWITCHING": a switch's own
 * switching (SWITCH_SET; docs/model.md "A switch's own switching").
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "hnctl.h"
#include "json.h"

#define MAX_NAMES	64

struct fault_req {
	int sw, down, random;		/* random 2: channels */
	uint64_t count, seed;
	int n;
	const char *name[MAX_NAMES];
};

static int parse(const char *cmd, int argc, char **argv, struct fault_req *r)
{
	const char *what = r->sw ? "switch" : "link";
	uint32_t sw, port, chan;
	int i;

	if (!argc || (strcmp(argv[0], "down") && strcmp(argv[0], "up")))
		return hnctl_usage(cmd, "expected down or up, then a %s's name",
				   what);
	r->down = !strcmp(argv[0], "down");
	if (!r->sw && argc > 1 && (!strcmp(argv[1], "random") ||
				   !strcmp(argv[1], "random-channels"))) {
		r->random = strcmp(argv[1], "random") ? 2 : 1;
		if (!r->down)
			return hnctl_usage(cmd, "%s takes %s down only: bring each up by its name",
					   argv[1], r->random == 2 ? "channels" : "links");
		if (argc < 3 || hnctl_num(argv[2], UINT32_MAX, &r->count))
			return hnctl_usage(cmd, "%s needs a count of %s", argv[1],
					   r->random == 2 ? "channels" : "links");
		if (!r->count)
			return hnctl_usage(cmd, "%s 0 takes nothing down: a count of 1 or more",
					   argv[1]);
		r->seed = 1;
		if (argc == 5 && !strcmp(argv[3], "seed") &&
		    !hnctl_num(argv[4], UINT64_MAX, &r->seed))
			argc = 3;
		if (argc != 3)
			return hnctl_usage(cmd, "after %s N: only seed S", argv[1]);
		return 0;
	}
	for (i = 1; i < argc; i++) {
		if (hn_ctl_fabric_parse(NULL, argv[i], &sw, &port) &&
		    (r->sw || hn_ctl_fabric_parse_chan(NULL, argv[i], &sw, &port,
							&chan)))
			return hnctl_usage(cmd, "'%s': expected a %s's name: %s",
					   argv[i], what, r->sw ? "swL.I" :
					   "nodeU, swL.I/upP or swL.I/downP, or LINK/cJ its channel J");
		if (r->n == MAX_NAMES)
			return hnctl_usage(cmd, "at most %d names at once",
					   MAX_NAMES);
		r->name[r->n++] = argv[i];
	}
	if (!r->n)
		return hnctl_usage(cmd, "%s %s what? a %s's name", what,
				   argv[0], what);
	return 0;
}

static void dry(const struct fault_req *r, int json)
{
	const char *key = r->sw ? "switch" : "link";
	int i;

	if (json) {
		j_obj(NULL);
		j_str("request", "fault-set");
		j_bool("down", r->down);
		if (r->random) {
			j_u64(r->random == 2 ? "random-channels" : "random",
			      r->count);
			j_u64("seed", r->seed);
		} else {
			j_arr(r->sw ? "switches" : "links");
			for (i = 0; i < r->n; i++)
				j_str(NULL, r->name[i]);
			j_arr_end();
		}
		j_obj_end();
		j_end();
		return;
	}
	if (r->random) {
		printf("fault-set down %s %llu seed %llu\n",
		       r->random == 2 ? "random-channels" : "random",
		       (unsigned long long)r->count,
		       (unsigned long long)r->seed);
		return;
	}
	for (i = 0; i < r->n; i++)
		printf("fault-set %s %s %s\n", r->down ? "down" : "up", key,
		       r->name[i]);
}

/* Each name: 0, or the refusal said. */
static int send_names(struct hnctl *o, const char *cmd,
		      const struct fault_req *r)
{
	const char *what = r->sw ? "switch" : "link";
	uint32_t sw[MAX_NAMES], port[MAX_NAMES], chan[MAX_NAMES];
	struct hn_ctl_fabric f;
	char req[80];
	int i, rc;

	rc = hn_ctl_fabric_get(o->ctl, &f);
	if (rc)
		return hnctl_refused(o, cmd, rc);
	for (i = 0; i < r->n; i++) {	/* every name, before any is sent */
		chan[i] = HN_CTL_ALL;
		if ((hn_ctl_fabric_parse(&f, r->name[i], &sw[i], &port[i]) &&
		     (r->sw || hn_ctl_fabric_parse_chan(&f, r->name[i], &sw[i],
							&port[i], &chan[i]))) ||
		    r->sw != (port[i] == HN_CTL_ALL && sw[i] != HN_CTL_NODE_END))
			return hnctl_usage(cmd, "%s has no %s %s", f.topology,
					   what, r->name[i]);
	}
	for (i = 0; i < r->n; i++) {
		rc = chan[i] == HN_CTL_ALL ?
		     hn_ctl_fault_set(o->ctl, sw[i], port[i], r->down) :
		     hn_ctl_fault_chan_set(o->ctl, sw[i], port[i], chan[i],
					   r->down);
		if (rc) {
			snprintf(req, sizeof(req), "%s %s %s", what,
				 r->down ? "down" : "up", r->name[i]);
			return hnctl_refused(o, req, rc);
		}
	}
	return 0;
}

int fault_cmd(struct hnctl *o, int sw, int argc, char **argv)
{
	const char *cmd = sw ? "switch" : "link";
	struct fault_req r = { .sw = sw };
	int rc;

	rc = parse(cmd, argc, argv, &r);
	if (rc)
		return rc;
	if (o->dry_run) {
		dry(&r, o->json);
		return 0;
	}
	rc = hnctl_connect(o);
	if (rc)
		return rc;
	if (!r.random)
		return send_names(o, cmd, &r);
	if (r.random == 2)
		rc = hn_ctl_fault_random_chans(o->ctl, (uint32_t)r.count,
					       r.seed);
	else
		rc = hn_ctl_fault_random(o->ctl, (uint32_t)r.count, r.seed);
	return rc ? hnctl_refused(o, r.random == 2 ?
				  "link down random-channels" :
				  "link down random", rc) : 0;
}

/* "switching NAME SWITCHING": the name checked against the fabric */
int switching_cmd(struct hnctl *o, int argc, char **argv)
{
	const char *cmd = "switch";
	struct hn_ctl_fabric f;
	uint32_t sw, port, v;
	char req[80];
	int rc;

	if (argc < 3)
		return hnctl_usage(cmd, "switching needs a switch's name and a switching: swL.I, then wormhole, vct, saf or fabric");
	/* of the forms, a switch's is swL.I: no port, no node */
	if (hn_ctl_fabric_parse(NULL, argv[1], &sw, &port) ||
	    strncmp(argv[1], "sw", 2) || strchr(argv[1], '/'))
		return hnctl_usage(cmd, "'%s': expected a switch's name: swL.I",
				   argv[1]);
	if (switching_parse(argv[2], &v))
		return hnctl_usage(cmd, "'%s': a switch's switching is wormhole, vct, saf, or fabric (the fabric's)",
				   argv[2]);
	if (argc > 3)
		return hnctl_usage(cmd, "'%s': after switching NAME SWITCHING, nothing",
				   argv[3]);
	if (o->dry_run && o->json) {
		j_obj(NULL);
		j_str("request", "switch-set");
		j_str("switch", argv[1]);
		j_str("switching", argv[2]);
		j_obj_end();
		j_end();
		return 0;
	}
	if (o->dry_run) {
		printf("switch-set switch %s switching %s\n", argv[1], argv[2]);
		return 0;
	}
	rc = hnctl_connect(o);
	if (rc)
		return rc;
	rc = hn_ctl_fabric_get(o->ctl, &f);
	if (rc)
		return hnctl_refused(o, cmd, rc);
	if (hn_ctl_fabric_parse(&f, argv[1], &sw, &port) ||
	    sw == HN_CTL_NODE_END || port != HN_CTL_ALL)
		return hnctl_usage(cmd, "%s has no switch %s", f.topology,
				   argv[1]);
	rc = hn_ctl_switch_set(o->ctl, sw, v);
	if (!rc)
		return 0;
	snprintf(req, sizeof(req), "switch switching %s %s", argv[1], argv[2]);
	return hnctl_refused(o, req, rc);
}
