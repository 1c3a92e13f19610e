// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_capture.c - "hnctl capture": the capture interface, on which every
 * message of the fabric is received for tcpdump and Wireshark; show it,
 * make it, remove it (HYBRIDNET_CMD_CAPTURE_*).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "hnctl.h"
#include "json.h"

static void capture_print(const struct hn_ctl_capture *cap, int json)
{
	if (json) {
		j_obj(NULL);
		j_bool("on", cap->on);
		if (cap->on) {
			j_str("name", cap->name);
			j_u64("ifindex", cap->ifindex);
			j_u64("netns", cap->netns_cookie);
			j_u64("snaplen", cap->snaplen);
			j_u64("ring", cap->ring);
			j_u64("captured", cap->captured);
			j_u64("truncated", cap->truncated);
			j_u64("rx-drop-no-mem", cap->rx_drop_no_mem);
			j_u64("rx-drop-ring-full", cap->rx_drop_ring_full);
		}
		j_obj_end();
		j_end();
		return;
	}
	if (!cap->on) {
		printf("capture off\n");
		return;
	}
	printf("%s ifindex %u netns %" PRIu64 " snaplen %u ring %u\n",
	       cap->name, cap->ifindex, cap->netns_cookie, cap->snaplen,
	       cap->ring);
	printf("captured %" PRIu64 " truncated %" PRIu64
	       " rx-drop-no-mem %" PRIu64 " rx-drop-ring-full %" PRIu64 "\n",
	       cap->captured, cap->truncated, cap->rx_drop_no_mem,
	       cap->rx_drop_ring_full);
}

/* -n: the request, as JSON (the spec's names) or as hnctl's words */
static void capture_dry_run(int json, int what, const char *name,
			    uint64_t snaplen, uint64_t ring)
{
	static const char *const req[] = { "capture-get", "capture-on",
					   "capture-off" };
	static const char *const word[] = { "show", "on", "off" };

	if (json) {
		j_obj(NULL);
		j_str("request", req[what]);
		if (name)
			j_str("name", name);
		if (snaplen != UINT64_MAX)
			j_u64("snaplen", snaplen);
		if (ring != UINT64_MAX)
			j_u64("ring", ring);
		j_obj_end();
		j_end();
		return;
	}
	printf("capture %s", word[what]);
	if (name)
		printf(" %s", name);
	if (snaplen != UINT64_MAX)
		printf(" snaplen %" PRIu64, snaplen);
	if (ring != UINT64_MAX)
		printf(" ring %" PRIu64, ring);
	putchar('\n');
}

/* "snaplen N" or "ring N" at argv[*i]: 0, or EXIT_USAGE */
static int capture_num(int argc, char **argv, int *i, uint64_t min,
		       uint64_t max, uint64_t *v)
{
	const char *key = argv[*i];

	if (*v != UINT64_MAX)
		return hnctl_usage("capture", "%s given twice", key);
	if (*i + 1 == argc || hnctl_num(argv[*i + 1], max, v) || *v < min) {
		*v = UINT64_MAX;
		return hnctl_usage("capture", "%s needs a number, %" PRIu64
				   "..%" PRIu64, key, min, max);
	}
	(*i)++;
	return 0;
}

int cmd_capture(struct hnctl *o, int argc, char **argv)
{
	enum { SHOW, ON, OFF } what = SHOW;
	uint64_t snaplen = UINT64_MAX, ring = UINT64_MAX;
	struct hn_ctl_capture cap;
	const char *name = NULL;
	int i, rc;

	for (i = 0; i < argc; i++) {
		if (what == SHOW && !strcmp(argv[i], "on")) {
			what = ON;
		} else if (what == SHOW && !strcmp(argv[i], "off")) {
			what = OFF;
		} else if (what == SHOW && !strcmp(argv[i], "show")) {
			continue;
		} else if (what == ON && !strcmp(argv[i], "snaplen")) {
			if (capture_num(argc, argv, &i, 0,
					HYBRIDNET_CAPTURE_SNAPLEN_MAX, &snaplen))
				return EXIT_USAGE;
		} else if (what == ON && !strcmp(argv[i], "ring")) {
			if (capture_num(argc, argv, &i, 1, 65536, &ring))
				return EXIT_USAGE;
		} else if (what == ON && !name) {
			if (strlen(argv[i]) >= sizeof(cap.name))
				return hnctl_usage("capture", "'%s': a name has "
						   "at most 15 characters",
						   argv[i]);
			name = argv[i];
		} else {
			return hnctl_usage("capture", "'%s': expected on [NAME] "
					   "[snaplen N] [ring N], off or show",
					   argv[i]);
		}
	}
	if (o->dry_run) {
		capture_dry_run(o->json, what, name, snaplen, ring);
		return 0;
	}
	rc = hnctl_connect(o);
	if (rc)
		return rc;
	if (what == ON)
		rc = hn_ctl_capture_on(o->ctl, name,
				       snaplen == UINT64_MAX ?
				       HN_CTL_CAPTURE_DEFAULT : (uint32_t)snaplen,
				       ring == UINT64_MAX ?
				       HN_CTL_CAPTURE_DEFAULT : (uint32_t)ring);
	else if (what == OFF)
		rc = hn_ctl_capture_off(o->ctl);
	else
		rc = hn_ctl_capture_get(o->ctl, &cap);
	if (rc)
		return hnctl_refused(o, what == ON ? "capture on" :
				     what == OFF ? "capture off" : "capture",
				     rc);
	if (what == SHOW)
		capture_print(&cap, o->json);
	return 0;
}
