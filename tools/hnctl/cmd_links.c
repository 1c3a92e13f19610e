// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_links.c - "hnctl links" and "hnctl switches": the statistics of
 * the fabric's links (one row per channel) and switches, with their
 * utilisation and mean buffer occupancy computed from the virtual time
 * each was read at.  Switches, ports and links are called as the
 * module's refusals call them, "swL.I", "swL.I/upP", "nodeU"
 * (hn_ctl_fabric_name()), in tables, JSON and the command line alike.
 * JSON carries the module's names and the raw counters (busy-ns,
 * buf-byte-ns, now), nothing derived.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hnctl.h"
#include "json.h"

static const char *const dir_name[2] = { "up", "down" };

/* @part of @whole, in percent; 0 before any time has passed */
static double pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

/* bytes integrated over @now ns, as the mean bytes held */
static double mean(uint64_t byte_ns, uint64_t now)
{
	return now ? (double)byte_ns / (double)now : 0.0;
}

#define NAME_LEN	40	/* a name of hn_ctl_fabric_name() */

/* a channel's sender, "sw0.1/up2" or "node3": a link's is its up one's */
static const char *end_str(const struct hn_ctl_fabric *f,
			   const struct hn_ctl_channel *ch, char *buf)
{
	return hn_ctl_fabric_name(f, ch->sw, ch->port, buf, NAME_LEN) ?: "?";
}

static void links_json(const struct hn_ctl_fabric *f,
		       const struct hn_ctl_link *l, size_t n)
{
	const struct hn_ctl_channel *ch;
	char a[NAME_LEN], b[NAME_LEN];
	size_t i, d;

	j_obj(NULL);
	j_str("topology", f->topology);
	j_arr("links");
	for (i = 0; i < n; i++) {
		j_obj(NULL);
		j_str("link", end_str(f, &l[i].ch[0], a));
		j_bool("down", l[i].down);
		j_bool("dead", l[i].dead);
		j_arr("channels-down");
		for (d = 0; d < 8; d++)
			if (l[i].chans_down & (1u << d))
				j_u64(NULL, d);
		j_arr_end();
		j_u64("now", l[i].now);
		j_arr("channels");
		for (d = 0; d < 2; d++) {
			ch = &l[i].ch[d];
			j_obj(NULL);
			j_str("dir", dir_name[d]);
			j_str("from", end_str(f, ch, a));
			j_str("to", end_str(f, &l[i].ch[!d], b));
			j_u64("bytes", ch->bytes);
			j_u64("worms", ch->worms);
			j_u64("busy-ns", ch->busy_ns);
			j_u64("credit-stalls", ch->credit_stalls);
			j_u64("buf-peak", ch->buf_peak);
			j_u64("buf-byte-ns", ch->buf_byte_ns);
			j_u64("circuit-bytes", ch->circuit_bytes);
			j_obj_end();
		}
		j_arr_end();
		j_obj_end();
	}
	j_arr_end();
	j_obj_end();
	j_end();
}

static void links_table(const struct hn_ctl_fabric *f,
			const struct hn_ctl_link *l, size_t n)
{
	char name[NAME_LEN], from[NAME_LEN], to[NAME_LEN];
	char chans[HN_CTL_CHANS_LEN];
	size_t i, d;

	printf("%s: %u link%s, %u switch%s\n", f->topology, f->links,
	       f->links == 1 ? "" : "s", f->switches,
	       f->switches == 1 ? "" : "es");
	printf("%-13s %-5s %-4s %-13s %-13s %12s %8s %7s %8s %8s %9s %12s %10s\n",
	       "link", "state", "dir", "from", "to", "bytes", "worms", "util%",
	       "stalls", "buf-peak", "buf-mean", "circuit", "chans-down");
	for (i = 0; i < n; i++)
		for (d = 0; d < 2; d++) {
			const struct hn_ctl_channel *ch = &l[i].ch[d];

			printf("%-13s %-5s %-4s %-13s %-13s %12" PRIu64 " %8"
			       PRIu64 " %7.2f %8" PRIu64 " %8" PRIu64
			       " %9.1f %12" PRIu64 " %10s\n",
			       end_str(f, &l[i].ch[0], name),
			       l[i].down ? "down" : l[i].dead ? "dead" : "up",
			       dir_name[d],
			       end_str(f, ch, from), end_str(f, &l[i].ch[!d], to),
			       ch->bytes, ch->worms,
			       pct(ch->busy_ns, l[i].now), ch->credit_stalls,
			       ch->buf_peak, mean(ch->buf_byte_ns, l[i].now),
			       ch->circuit_bytes,
			       hn_ctl_chans_name(l[i].chans_down, chans));
		}
}

/* a switch's switching: its word, "fabric" when none of its own */
static const char *sw_word(uint32_t v, char *num)
{
	const char *w = switching_word(v);

	if (w)
		return w;
	snprintf(num, 12, "%u", v);	/* a later kernel's */
	return num;
}

static void switches_json(const struct hn_ctl_fabric *f,
			  const struct hn_ctl_switch *s, size_t n)
{
	char name[NAME_LEN], num[12];
	size_t i;

	j_obj(NULL);
	j_str("topology", f->topology);
	j_arr("switches");
	for (i = 0; i < n; i++) {
		j_obj(NULL);
		j_str("switch", hn_ctl_fabric_name(f, s[i].sw, HN_CTL_ALL,
						   name, sizeof(name)) ?: "?");
		j_u64("level", s[i].level);
		j_bool("down", s[i].down);
		j_str("switching", sw_word(s[i].switching, num));
		j_u64("now", s[i].now);
		j_u64("bytes", s[i].bytes);
		j_u64("worms", s[i].worms);
		j_u64("blocked-ns", s[i].blocked_ns);
		j_u64("credit-stalls", s[i].credit_stalls);
		j_u64("buf-peak", s[i].buf_peak);
		j_u64("buf-byte-ns", s[i].buf_byte_ns);
		j_u64("buf-bytes", s[i].buf_bytes);
		j_u64("held", s[i].held);
		j_u64("circuit-bytes", s[i].circuit_bytes);
		j_obj_end();
	}
	j_arr_end();
	j_obj_end();
	j_end();
}

static void switches_table(const struct hn_ctl_fabric *f,
			   const struct hn_ctl_switch *s, size_t n)
{
	char name[NAME_LEN], num[12];
	size_t i;

	printf("%s: %u switch%s of %u ports, %u level%s\n", f->topology,
	       f->switches, f->switches == 1 ? "" : "es", f->radix, f->levels,
	       f->levels == 1 ? "" : "s");
	printf("%-10s %5s %-5s %-9s %12s %8s %12s %8s %8s %9s %9s %4s %12s\n",
	       "switch", "level", "state", "switching", "bytes", "worms",
	       "blocked-ns", "stalls", "buf-peak", "buf-mean", "buf-bytes",
	       "held", "circuit");
	for (i = 0; i < n; i++)
		printf("%-10s %5u %-5s %-9s %12" PRIu64 " %8" PRIu64 " %12"
		       PRIu64 " %8" PRIu64 " %8" PRIu64 " %9.1f %9" PRIu64
		       " %4" PRIu64 " %12" PRIu64 "\n",
		       hn_ctl_fabric_name(f, s[i].sw, HN_CTL_ALL, name,
					  sizeof(name)) ?: "?",
		       s[i].level, s[i].down ? "down" : "up",
		       sw_word(s[i].switching, num), s[i].bytes,
		       s[i].worms, s[i].blocked_ns, s[i].credit_stalls,
		       s[i].buf_peak, mean(s[i].buf_byte_ns, s[i].now),
		       s[i].buf_bytes, s[i].held, s[i].circuit_bytes);
}

/* "CMD [KEY NAME]": *@name is NAME, or NULL; 0 or a status */
static int parse(const char *cmd, const char *key, int argc,
		 char **argv, const char **name)
{
	uint32_t sw, port;
	int i;

	*name = NULL;
	for (i = 0; i < argc; i++) {
		if (*name || strcmp(argv[i], key))
			return hnctl_usage(cmd, "'%s': expected %s NAME",
					   argv[i], key);
		if (i + 1 == argc ||
		    hn_ctl_fabric_parse(NULL, argv[i + 1], &sw, &port))
			return hnctl_usage(cmd, "%s needs a name: %s", key,
					   strcmp(key, "link") ? "swL.I" :
					   "nodeU or swL.I/upP");
		*name = argv[++i];
	}
	return 0;
}

static void dry(const char *req, const char *name, const char *key, int json)
{
	if (json) {
		j_obj(NULL);
		j_str("request", req);
		j_bool("dump", 1);
		if (name)
			j_str(key, name);
		j_obj_end();
		j_end();
		return;
	}
	printf("%s dump", req);
	if (name)
		printf(" %s %s", key, name);
	putchar('\n');
}

/* what show_links() and show_switches() return for a name not there */
#define NO_SUCH		1

/*
 * Dump and print, the one link called @name (the sender of its up
 * channel) or every one; 0, the library's -errno, or NO_SUCH.
 */
static int show_links(struct hnctl *o, const char *name,
		      const struct hn_ctl_fabric *f)
{
	struct hn_ctl_link *l;
	uint32_t sw, port;
	size_t n, i;
	int rc;

	if (name && (hn_ctl_fabric_parse(f, name, &sw, &port) ||
		     port == HN_CTL_ALL ||
		     (sw != HN_CTL_NODE_END && port < f->width)))
		return NO_SUCH;
	rc = hn_ctl_links(o->ctl, HN_CTL_ALL, &l, &n);
	if (rc)
		return rc;
	for (i = 0; name && i < n; i++)
		if (l[i].ch[0].sw == sw && l[i].ch[0].port == port)
			break;
	if (name && i == n) {
		free(l);
		return NO_SUCH;
	}
	if (o->json)
		links_json(f, name ? &l[i] : l, name ? 1 : n);
	else
		links_table(f, name ? &l[i] : l, name ? 1 : n);
	free(l);
	return 0;
}

static int show_switches(struct hnctl *o, const char *name,
			 const struct hn_ctl_fabric *f)
{
	uint32_t sw = HN_CTL_ALL, port = HN_CTL_ALL;
	struct hn_ctl_switch *s;
	size_t n;
	int rc;

	if (name && (hn_ctl_fabric_parse(f, name, &sw, &port) ||
		     sw == HN_CTL_NODE_END || port != HN_CTL_ALL))
		return NO_SUCH;
	rc = hn_ctl_switches(o->ctl, sw, &s, &n);
	if (rc)
		return rc;
	if (o->json)
		switches_json(f, s, n);
	else
		switches_table(f, s, n);
	free(s);
	return 0;
}

/* What "links" and "switches" each are. */
struct fab_cmd {
	const char *name, *key, *req;
	int (*show)(struct hnctl *o, const char *name,
		    const struct hn_ctl_fabric *f);
};

static int run(struct hnctl *o, const struct fab_cmd *c, int argc,
	       char **argv)
{
	struct hn_ctl_fabric f;
	const char *name;
	int rc, tries = 0;

	rc = parse(c->name, c->key, argc, argv, &name);
	if (rc)
		return rc;
	if (o->dry_run) {
		dry(c->req, name, c->key, o->json);
		return 0;
	}
	rc = hnctl_connect(o);
	if (rc)
		return rc;
	for (;;) {
		rc = hn_ctl_fabric_get(o->ctl, &f);
		if (!rc)
			rc = c->show(o, name, &f);
		/* a rebuild during the dump: take both again */
		if (rc != -EAGAIN || ++tries == 5)
			break;
	}
	if (rc == NO_SUCH)
		return hnctl_usage(c->name, "%s has no %s %s", f.topology,
				   c->key, name);
	return rc ? hnctl_refused(o, c->name, rc) : 0;
}

/* "down" or "up": a fault, not a dump */
static int is_fault(int argc, char **argv)
{
	return argc && (!strcmp(argv[0], "down") || !strcmp(argv[0], "up"));
}

int cmd_links(struct hnctl *o, int argc, char **argv)
{
	static const struct fab_cmd c = {
		"links", "link", "link-get", show_links,
	};

	if (is_fault(argc, argv))
		return fault_cmd(o, 0, argc, argv);
	return run(o, &c, argc, argv);
}

int cmd_switches(struct hnctl *o, int argc, char **argv)
{
	static const struct fab_cmd c = {
		"switches", "switch", "switch-get", show_switches,
	};

	if (is_fault(argc, argv))
		return fault_cmd(o, 1, argc, argv);
	if (argc && !strcmp(argv[0], "switching"))
		return switching_cmd(o, argc, argv);
	return run(o, &c, argc, argv);
}
