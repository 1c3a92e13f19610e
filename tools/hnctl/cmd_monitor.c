// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_monitor.c - "hnctl monitor": the events multicast group, one line
 * (or one JSON object) per event, until SIGINT/SIGTERM, --count events or
 * --timeout seconds.  A text line reads like the hnctl command that has
 * the same effect ("preload slot 0 0:1 1:0", "release slot 2").  The
 * events of the monitor's fabric (-f, or the namespace's first) come as
 * they are, those of the namespace's other fabrics after their number
 * ("fabric 1: release all"), a fabric made or deleted always so.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "hnctl.h"
#include "json.h"

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static void print_state(uint32_t state)
{
	const char *name = hn_ctl_traffic_name(state);

	if (name)
		printf(" %s", name);
	else
		printf(" state %u", state);
}

/* Is @ev another fabric's than @mine, or one made or deleted? */
static int other_fabric(const struct hn_ctl_event *ev, uint32_t mine)
{
	return ev->fabric != HN_CTL_FIRST_FABRIC &&
	       (ev->fabric != mine || ev->kind == HYBRIDNET_EVENT_FABRIC_NEW ||
		ev->kind == HYBRIDNET_EVENT_FABRIC_DEL);
}

static void event_text(const struct hn_ctl_event *ev, uint32_t mine)
{
	const char *kind = hn_ctl_event_name(ev->kind);
	size_t i;
	uint32_t p;

	if (other_fabric(ev, mine))
		printf("fabric %u: ", ev->fabric);
	if (kind)
		fputs(kind, stdout);
	else
		printf("event %u", ev->kind);
	if (hn_ctl_config_count(&ev->config)) {
		putchar(' ');
		config_print(&ev->config, 1);
	}
	for (i = 0; i < ev->nslots; i++) {
		printf(" slot %u", ev->slots[i].slot);
		for (p = 0; p < ev->slots[i].npairs; p++)
			printf(" %u:%u", ev->slots[i].pairs[p].src,
			       ev->slots[i].pairs[p].dst);
	}
	for (i = 0; i < ev->ngrants; i++) {
		printf(" %u:%u", ev->grants[i].src, ev->grants[i].dst);
		if (ev->grants[i].slot != HN_CTL_NO_SLOT)
			printf(" slot %u", ev->grants[i].slot);
	}
	if (ev->has_pair)
		printf(" %u:%u", ev->pair.src, ev->pair.dst);
	if (ev->has_slot)
		printf(" slot %u", ev->slot);
	if (ev->all)
		printf(" all");
	if (ev->phase[0])
		printf(" %s", ev->phase);
	if (ev->has_state)
		print_state(ev->traffic_state);
	if (ev->pattern[0])
		printf(" pattern %s", ev->pattern);
	if (ev->why[0])
		printf(" why \"%s\"", ev->why);
	if (ev->has_fault && (ev->random || ev->random_chans))
		printf(" link down %s %u seed %llu",
		       ev->random ? "random" : "random-channels",
		       ev->random ?: ev->random_chans,
		       (unsigned long long)ev->seed);
	else if (ev->has_fault)
		printf(" %s %s %s", ev->fault_sw ? "switch" : "link",
		       ev->down ? "down" : "up", ev->name);
	if (ev->has_fault && ev->released)
		printf(" released %u", ev->released);
	if (ev->has_fault && ev->rerouted)
		printf(" rerouted %u", ev->rerouted);
	if (ev->has_switching && switching_word(ev->switching))
		printf(" switch %s %s", ev->name, switching_word(ev->switching));
	else if (ev->has_switching)
		printf(" switch %s %u", ev->name, ev->switching);
	putchar('\n');
	fflush(stdout);
}

static void event_json(const struct hn_ctl_event *ev)
{
	const char *kind = hn_ctl_event_name(ev->kind);
	size_t i;

	j_obj(NULL);
	if (kind)
		j_str("event", kind);
	else
		j_u64("event", ev->kind);
	if (ev->fabric != HN_CTL_FIRST_FABRIC)
		j_u64("fabric", ev->fabric);
	config_json(&ev->config);
	if (ev->nslots) {
		j_arr("slots");
		for (i = 0; i < ev->nslots; i++) {
			j_obj(NULL);
			j_u64("slot", ev->slots[i].slot);
			j_pairs("pairs", ev->slots[i].pairs,
				ev->slots[i].npairs);
			j_obj_end();
		}
		j_arr_end();
	}
	if (ev->ngrants) {
		j_arr("grants");
		for (i = 0; i < ev->ngrants; i++) {
			j_obj(NULL);
			j_u64("src", ev->grants[i].src);
			j_u64("dst", ev->grants[i].dst);
			if (ev->grants[i].slot != HN_CTL_NO_SLOT)
				j_u64("slot", ev->grants[i].slot);
			j_obj_end();
		}
		j_arr_end();
	}
	if (ev->has_pair) {
		j_obj("pair");
		j_u64("src", ev->pair.src);
		j_u64("dst", ev->pair.dst);
		j_obj_end();
	}
	if (ev->has_slot)
		j_u64("slot", ev->slot);
	if (ev->all)
		j_bool("all", 1);
	if (ev->phase[0])
		j_str("phase", ev->phase);
	if (ev->has_state && hn_ctl_traffic_name(ev->traffic_state))
		j_str("traffic-state", hn_ctl_traffic_name(ev->traffic_state));
	else if (ev->has_state)
		j_u64("traffic-state", ev->traffic_state);
	if (ev->pattern[0])
		j_str("pattern", ev->pattern);
	if (ev->why[0])
		j_str("why", ev->why);
	if (ev->has_fault)
		j_bool("down", ev->down);
	if (ev->has_fault && (ev->random || ev->random_chans)) {
		j_u64(ev->random ? "random" : "random-channels",
		      ev->random ?: ev->random_chans);
		j_u64("seed", ev->seed);
	} else if (ev->has_fault) {
		j_str(ev->fault_sw ? "switch" : "link", ev->name);
	}
	if (ev->has_fault) {
		j_u64("released", ev->released);
		j_u64("rerouted", ev->rerouted);
	}
	if (ev->has_switching)
		j_str("switch", ev->name);
	if (ev->has_switching && switching_word(ev->switching))
		j_str("switching", switching_word(ev->switching));
	else if (ev->has_switching)
		j_u64("switching", ev->switching);
	j_obj_end();
	j_end();
}

static long long ms_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

/* The monitor's fabric: -f's, or the namespace's first now; FIRST: none */
static uint32_t my_fabric(struct hnctl *o)
{
	struct hn_ctl_fabric f;

	if (o->fabric != HN_CTL_FIRST_FABRIC)
		return o->fabric;
	return hn_ctl_fabric_get(o->ctl, &f) ? HN_CTL_FIRST_FABRIC : f.id;
}

int cmd_monitor(struct hnctl *o, int argc, char **argv)
{
	uint64_t count = 0, seen = 0, timeout = 0;
	const char *ready = NULL;
	struct sigaction sa;
	struct hn_ctl_event ev;
	long long end = 0;
	uint32_t mine;
	int i, rc;

	for (i = 0; i < argc; i++) {
		const char *a = argv[i];

		if (i + 1 == argc)
			return hnctl_usage("monitor", "'%s': unknown, or "
					   "without its value", a);
		if (!strcmp(a, "-c") || !strcmp(a, "--count")) {
			if (hnctl_num(argv[++i], UINT32_MAX, &count) || !count)
				return hnctl_usage("monitor", "--count needs a "
						   "positive number");
		} else if (!strcmp(a, "-t") || !strcmp(a, "--timeout")) {
			if (hnctl_num(argv[++i], 86400 * 365, &timeout) ||
			    !timeout)
				return hnctl_usage("monitor", "--timeout needs "
						   "seconds (> 0)");
		} else if (!strcmp(a, "--ready")) {
			ready = argv[++i];
		} else {
			return hnctl_usage("monitor", "unknown option '%s'", a);
		}
	}
	if (o->dry_run) {
		if (o->json) {
			j_obj(NULL);
			j_str("request", "subscribe");
			j_str("group", HYBRIDNET_MCGRP_EVENTS);
			j_obj_end();
			j_end();
		} else {
			printf("subscribe %s\n", HYBRIDNET_MCGRP_EVENTS);
		}
		return 0;
	}
	rc = hnctl_connect(o);
	if (rc)
		return rc;
	rc = hn_ctl_subscribe(o->ctl);
	if (rc) {
		fprintf(stderr, "hnctl: cannot join the %s group: %s\n",
			HYBRIDNET_MCGRP_EVENTS, hn_ctl_strerror(o->ctl, rc));
		return EXIT_KERNEL;
	}
	mine = my_fabric(o);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;	/* no SA_RESTART: poll() returns */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	if (ready) {
		FILE *f = fopen(ready, "w");

		if (!f) {
			fprintf(stderr, "hnctl: --ready %s: %s\n", ready,
				strerror(errno));
			return EXIT_USAGE;
		}
		fclose(f);
	}
	if (timeout)
		end = ms_now() + (long long)timeout * 1000;
	while (!stop && (!count || seen < count)) {
		int wait = -1;

		if (timeout) {
			long long left = end - ms_now();

			if (left <= 0)
				break;
			wait = left > 1000000000 ? 1000000000 : (int)left;
		}
		rc = hn_ctl_event_recv(o->ctl, &ev, wait);
		if (rc == -EINTR || rc == -EAGAIN)
			continue;
		if (rc == -ENOBUFS) {
			fprintf(stderr, "hnctl: events were lost (the socket "
				"overflowed)\n");
			continue;
		}
		if (rc) {
			fprintf(stderr, "hnctl: monitor: %s\n",
				hn_ctl_strerror(o->ctl, rc));
			return EXIT_KERNEL;
		}
		/* -f: that fabric's, and the module's own */
		if (o->fabric != HN_CTL_FIRST_FABRIC &&
		    ev.fabric != HN_CTL_FIRST_FABRIC && ev.fabric != o->fabric) {
			hn_ctl_event_free(&ev);
			continue;
		}
		if (ev.kind == HN_CTL_EVENT_LOADED)	/* its first, anew */
			mine = my_fabric(o);
		if (o->json)
			event_json(&ev);
		else
			event_text(&ev, mine);
		hn_ctl_event_free(&ev);
		seen++;
	}
	return count && seen < count && !stop ? EXIT_TIMEOUT : 0;
}
