// SPDX-License-Identifier: GPL-2.0
/*
 * links_report.c - hnsim run --links: the statistics of the fabric's links
 * (a row per channel) and switches after a point, as hnctl links and
 * hnctl switches print the module's, with the same names (fab_name.h) and
 * columns; in JSON, arrays "links" and "switches" of the engine's
 * counters under hnsim's keys (underscores: docs/names.md) and the
 * virtual time "now" they were read at, nothing derived.
 */
#include <stdio.h>
#include "hnsim.h"
#include "fab_name.h"
#include "cfg_field.h"

#define U(x) ((unsigned long long)(x))

static const char *const dir_name[2] = { "up", "down" };

/* the name of the port @port of switch @sw (HN_NONE: node @port) */
static const char *name_of(const struct hn_fabric_info *fi, u32 sw, u32 port,
			   char *buf)
{
	struct hn_fab_name n;

	if (hn_fab_of(fi, sw, port, &n))
		return "?";
	return hn_fab_print(&n, buf, HN_FAB_NAME_LEN);
}

static double share(u64 part, u64 whole, double scale)
{
	return whole ? scale * (double)part / (double)whole : 0.0;
}

/* as hnctl links' column */
static const char *state(const struct hn_link_stats *ls)
{
	return ls->down ? "down" : ls->dead ? "dead" : "up";
}

/* as hnctl switches' column: its own switching, "fabric" when none */
static const char *switching(const struct hn_engine *e, u32 sw,
			     char *buf, size_t len)
{
	struct hn_config x;
	u32 flow = hn_switch_flow(e, sw);

	if (!flow)
		return "fabric";
	x.switching = flow - 1;
	return hn_cfg_print(&x, HN_CFG_switching, buf, len);
}

static void human(FILE *f, struct hn_engine *e,
		  const struct hn_fabric_info *fi, u64 now)
{
	char a[HN_FAB_NAME_LEN], b[HN_FAB_NAME_LEN], c[HN_FAB_NAME_LEN];
	char w[HN_CFG_TEXT_LEN], k[HN_FAB_CHANS_LEN];
	struct hn_switch_stats ss;
	struct hn_link_stats ls;
	const struct hn_chan_stats *ch;
	u32 l, d, sw;

	fprintf(f, "links       %u, a row per channel, at %llu ns virtual\n",
		fi->links, U(now));
	fprintf(f, "%-13s %-5s %-4s %-13s %-13s %12s %8s %7s %8s %8s %9s %12s %10s\n",
		"link", "state", "dir", "from", "to", "bytes", "worms", "util%",
		"stalls", "buf-peak", "buf-mean", "circuit", "chans-down");
	for (l = 0; l < fi->links && !hn_link_stats(e, l, &ls); l++) {
		for (d = HN_UP; d <= HN_DOWN; d++) {
			ch = &ls.ch[d];
			fprintf(f, "%-13s %-5s %-4s %-13s %-13s %12llu %8llu %7.2f %8llu %8llu %9.1f %12llu %10s\n",
				name_of(fi, ls.sw[HN_UP], ls.port[HN_UP], a),
				state(&ls), dir_name[d],
				name_of(fi, ls.sw[d], ls.port[d], b),
				name_of(fi, ls.sw[!d], ls.port[!d], c),
				U(ch->bytes), U(ch->worms),
				share(ch->busy_ns, now, 100.0),
				U(ch->credit_stalls), U(ch->buf_peak),
				share(ch->buf_byte_ns, now, 1.0),
				U(ch->circuit_bytes),
				hn_fab_chans_print(hn_link_chans_down(e, l),
						   k));
		}
	}
	fprintf(f, "switches    %u of %u ports\n", fi->switches, fi->radix);
	fprintf(f, "%-10s %5s %-5s %-9s %12s %8s %12s %8s %8s %9s %9s %4s %12s\n",
		"switch", "level", "state", "switching", "bytes", "worms",
		"blocked-ns", "stalls", "buf-peak", "buf-mean", "buf-bytes",
		"held", "circuit");
	for (sw = 0; sw < fi->switches && !hn_switch_stats(e, sw, &ss); sw++)
		fprintf(f, "%-10s %5u %-5s %-9s %12llu %8llu %12llu %8llu %8llu %9.1f %9llu %4u %12llu\n",
			name_of(fi, sw, HN_NONE, a), ss.level,
			ss.down ? "down" : "up",
			switching(e, sw, w, sizeof(w)), U(ss.bytes),
			U(ss.worms), U(ss.blocked_ns), U(ss.credit_stalls),
			U(ss.buf_peak), share(ss.buf_byte_ns, now, 1.0),
			U(ss.buf_bytes), ss.held, U(ss.circuit_bytes));
}

static void json(FILE *f, struct hn_engine *e,
		 const struct hn_fabric_info *fi, u64 now)
{
	char a[HN_FAB_NAME_LEN], b[HN_FAB_NAME_LEN], w[HN_CFG_TEXT_LEN];
	struct hn_switch_stats ss;
	struct hn_link_stats ls;
	const struct hn_chan_stats *ch;
	const char *sep;
	u32 l, d, sw;
	u8 bits;

	fputs("[", f);
	for (l = 0; l < fi->links && !hn_link_stats(e, l, &ls); l++) {
		fprintf(f, "%s{\"link\": \"%s\", \"down\": %s, \"dead\": %s, \"channels_down\": [",
			l ? ", " : "",
			name_of(fi, ls.sw[HN_UP], ls.port[HN_UP], a),
			ls.down ? "true" : "false", ls.dead ? "true" : "false");
		bits = hn_link_chans_down(e, l);
		for (d = 0, sep = ""; d < 8; d++)
			if (bits & (1u << d)) {
				fprintf(f, "%s%u", sep, d);
				sep = ", ";
			}
		fprintf(f, "], \"now\": %llu, \"channels\": [", U(now));
		for (d = HN_UP; d <= HN_DOWN; d++) {
			ch = &ls.ch[d];
			fprintf(f, "%s{\"dir\": \"%s\", \"from\": \"%s\", \"to\": \"%s\", \"bytes\": %llu, \"worms\": %llu, \"busy_ns\": %llu, \"credit_stalls\": %llu, \"buf_peak\": %llu, \"buf_byte_ns\": %llu, \"circuit_bytes\": %llu}",
				d ? ", " : "", dir_name[d],
				name_of(fi, ls.sw[d], ls.port[d], a),
				name_of(fi, ls.sw[!d], ls.port[!d], b),
				U(ch->bytes), U(ch->worms), U(ch->busy_ns),
				U(ch->credit_stalls), U(ch->buf_peak),
				U(ch->buf_byte_ns), U(ch->circuit_bytes));
		}
		fputs("]}", f);
	}
	fputs("], \"switches\": [", f);
	for (sw = 0; sw < fi->switches && !hn_switch_stats(e, sw, &ss); sw++)
		fprintf(f, "%s{\"switch\": \"%s\", \"level\": %u, \"down\": %s, \"switching\": \"%s\", \"now\": %llu, \"bytes\": %llu, \"worms\": %llu, \"blocked_ns\": %llu, \"credit_stalls\": %llu, \"buf_peak\": %llu, \"buf_byte_ns\": %llu, \"buf_bytes\": %llu, \"held\": %u, \"circuit_bytes\": %llu}",
			sw ? ", " : "", name_of(fi, sw, HN_NONE, a), ss.level,
			ss.down ? "true" : "false",
			switching(e, sw, w, sizeof(w)), U(now), U(ss.bytes),
			U(ss.worms), U(ss.blocked_ns),
			U(ss.credit_stalls), U(ss.buf_peak),
			U(ss.buf_byte_ns), U(ss.buf_bytes), ss.held,
			U(ss.circuit_bytes));
	fputs("]", f);
}

void links_report(FILE *f, int fmt, struct hn_engine *e)
{
	struct hn_fabric_info fi;

	hn_fabric_info(e, &fi);
	if (fmt == RUN_JSON)
		json(f, e, &fi, hn_now(e));
	else
		human(f, e, &fi, hn_now(e));
}
