// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_netdev.c - "hnctl netdev": list the nodes' network interfaces, add
 * one for a node, delete one (HYBRIDNET_CMD_NETDEV_*).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hnctl.h"
#include "json.h"

static void netdev_print(const struct hn_ctl_netdev *d, size_t n, int json)
{
	char mac[18];
	size_t i;

	if (json) {
		j_obj(NULL);
		j_arr("netdevs");
	}
	for (i = 0; i < n; i++) {
		snprintf(mac, sizeof(mac), "%02x:%02x:%02x:%02x:%02x:%02x",
			 d[i].address[0], d[i].address[1], d[i].address[2],
			 d[i].address[3], d[i].address[4], d[i].address[5]);
		if (!json) {
			printf("%s node %u ifindex %u address %s netns %" PRIu64 "\n",
			       d[i].name, d[i].node, d[i].ifindex, mac,
			       d[i].netns_cookie);
			continue;
		}
		j_obj(NULL);
		j_str("name", d[i].name);
		j_u64("node", d[i].node);
		j_u64("ifindex", d[i].ifindex);
		j_str("address", mac);
		j_u64("netns", d[i].netns_cookie);
		j_obj_end();
	}
	if (json) {
		j_arr_end();
		j_obj_end();
		j_end();
	}
}

static int netdev_list(struct hnctl *o)
{
	struct hn_ctl_netdev *d;
	size_t n;
	int rc;

	if (o->dry_run) {
		printf(o->json ? "{\"request\":\"netdev-get\"}\n" :
		       "netdev\n");
		return 0;
	}
	rc = hnctl_connect(o);
	if (rc)
		return rc;
	rc = hn_ctl_netdevs(o->ctl, &d, &n);
	if (rc)
		return hnctl_refused(o, "netdev", rc);
	netdev_print(d, n, o->json);
	free(d);
	return 0;
}

int cmd_netdev(struct hnctl *o, int argc, char **argv)
{
	enum { LIST, ADD, DEL } what = LIST;
	const char *name = NULL;
	uint64_t node = UINT64_MAX;
	int i, rc;

	for (i = 0; i < argc; i++) {
		if (what == LIST && !strcmp(argv[i], "add")) {
			what = ADD;
		} else if (what == LIST && !strcmp(argv[i], "del")) {
			what = DEL;
		} else if (what != LIST && !strcmp(argv[i], "node")) {
			if (i + 1 == argc ||
			    hnctl_num(argv[i + 1], HYBRIDNET_MAX_NODES - 1,
				      &node))
				return hnctl_usage("netdev", "node needs a "
						   "node number, 0..%u",
						   HYBRIDNET_MAX_NODES - 1);
			i++;
		} else if (what != LIST && !name) {
			if (strlen(argv[i]) >= sizeof(((struct hn_ctl_netdev *)0)->name))
				return hnctl_usage("netdev", "'%s': a name has "
						   "at most 15 characters",
						   argv[i]);
			name = argv[i];
		} else {
			return hnctl_usage("netdev", "'%s': expected add NAME "
					   "node N, del NAME or del node N",
					   argv[i]);
		}
	}
	if (what == LIST)
		return netdev_list(o);
	if (what == ADD && node == UINT64_MAX)
		return hnctl_usage("netdev", "add: which node? node N");
	if (what == DEL && !name == (node == UINT64_MAX))
		return hnctl_usage("netdev", "del: NAME or node N, one of them");
	if (o->dry_run) {
		if (o->json) {
			j_obj(NULL);
			j_str("request", what == ADD ? "netdev-add" :
			      "netdev-del");
			if (name)
				j_str("name", name);
			if (node != UINT64_MAX)
				j_u64("node", node);
			j_obj_end();
			j_end();
		} else {
			printf("netdev %s", what == ADD ? "add" : "del");
			if (name)
				printf(" %s", name);
			if (node != UINT64_MAX)
				printf(" node %" PRIu64, node);
			putchar('\n');
		}
		return 0;
	}
	rc = hnctl_connect(o);
	if (rc)
		return rc;
	if (what == ADD)
		rc = hn_ctl_netdev_add(o->ctl, name, (uint32_t)node);
	else
		rc = hn_ctl_netdev_del(o->ctl, name, (uint32_t)node);
	return rc ? hnctl_refused(o, what == ADD ? "netdev add" :
				  "netdev del", rc) : 0;
}
