// SPDX-License-Identifier: GPL-2.0
/*
 * idem.c - "hnsim idem": the three messages of Woods-Corwin's idempotent
 * protocol [W:393-397] as traffic on a fabric with switching drop.
 *
 * Each node makes messages (MSG) as a Bernoulli process (hn_tgen: the
 * pattern, length and load given).  A MSG's arrival makes its receiver
 * send an acknowledgement (ACK) back; the ACK's arrival makes the MSG's
 * sender send the acknowledgement of it (ACK2).  Each reply is a fraction
 * of the MSG's length [W:892] and has a priority of its own.  A node
 * offers its NIC the ACK2s waiting first, then the ACKs, then the MSGs
 * ("later stage messages are sent first", [W:759]).  Nothing is lost, so
 * nothing is sent twice but the drop's own retries.
 *
 * Of the transactions whose MSG was made in the window: per kind, the
 * messages, the attempts their headers took (struct hn_msg.tries) and so
 * the success per attempt p; and E = mean switches on a MSG's route x
 * (1/p_MSG + 1/p_ACK + 1/p_ACK2), Woods-Corwin's expected latency of a
 * transaction [W:872, W:880], in switches.
 */
#include <stdlib.h>
#include <string.h>
#include "hnsim.h"
#include "hn_traffic.h"
#include "idem.h"
#include "parse.h"

enum { MSG = HN_IDEM_MSG, ACK = HN_IDEM_ACK, ACK2 = HN_IDEM_ACK2,
       KINDS = HN_IDEM_KINDS };
static const char *const kind_name[KINDS] = { "msg", "ack", "ack2" };

/* A MSG; the layer makes the replies (struct hn_msg.owner: measured) */
struct imsg {
	struct hn_msg m;		/* first: the layer sees only this */
	u32 seq;			/* its pair's, in send order */
};

struct idem {
	struct hn_idem *x;
	struct hn_engine *e;
	u32 nodes;
	int check;			/* the protocol may lose: check it */
	u64 msgs[KINDS], tries[KINDS];	/* measured, arrived */
	u64 made, done;			/* measured transactions */
	u64 switches;			/* over the measured MSGs */
	/* exactly once, as the receivers see it (when check) */
	u32 *sent, *next;		/* per pair: MSGs sent, next expected */
	u64 all, delivered, disorder, given_up, unknown;
	int drop;			/* switching drop: p and E measured */
	/* --down-random: links down in the window's middle third */
	u32 down, released;
	u64 t_down, t_up;
	/* --table: transactions completed (ACK2 taken) per 10^4 cycles */
	u32 table;
	u64 acked2, win_at, win_last, win_min, wins, wins_empty;
};

static void delivered(void *ctx, struct hn_msg *m)
{
	struct idem *s = ctx;
	struct imsg *im = (struct imsg *)m;
	u64 pair = (u64)m->src * s->nodes + m->dst;

	s->delivered++;
	if (s->check) {
		if (im->seq < s->next[pair])
			s->disorder++;	/* again, or after a later one */
		s->next[pair] = im->seq + 1;
	}
	free(im);
}

static void given_up(void *ctx, struct hn_msg *m, u32 src, u32 dst, int err)
{
	struct idem *s = ctx;

	(void)src;
	(void)dst;
	(void)err;
	s->given_up++;
	s->unknown += !m;		/* delivered, its ACK never came */
	free(m);
}

static void reclaimed(void *ctx, struct hn_msg *m)
{
	(void)ctx;
	free(m);
}

/* Each copy that crossed the fabric: its kind's messages and attempts */
static void arrived(void *ctx, const struct hn_msg *copy, u32 kind, u8 owner,
		    u32 fate)
{
	struct idem *s = ctx;

	s->acked2 += kind == ACK2 && fate == HN_IDEM_TAKEN;
	if (!owner)
		return;
	s->msgs[kind]++;
	s->tries[kind] += copy->tries;
	s->done += kind == ACK2 && fate == HN_IDEM_TAKEN;
}

static const struct hn_idem_ops idem_ops = {
	.deliver = delivered,
	.give_up = given_up,
	.reclaim = reclaimed,
	.arrive = arrived,
};

static bool quiet(const struct idem *s)
{
	struct hn_idem_stats st;

	hn_idem_stats(s->x, &st);
	return !st.send_state_entries && !st.recv_state_entries &&
	       !st.waiting && !hn_busy(s->e);
}

static void usage(FILE *f)
{
	fprintf(f,
"NAME\n"
"    hnsim idem - Woods-Corwin's three-message protocol on switching drop:\n"
"    success per attempt of each kind, and exactly-once delivery\n"
"\n"
"SYNOPSIS\n"
"    hnsim idem [ENGINE OPTIONS] --load L [--size WORDS] [--pattern NAME]\n"
"               [--reply F] [--ack-prio P] [--warmup NS] [--measure NS]\n"
"               [--seed S] [--loss P|KIND=P,...] [--flip P] [--timeout NS]\n"
"               [--retry-max N] [--window W] [--table N] [--down-random N]\n"
"               [--json]\n"
"\n"
"DESCRIPTION\n"
"    Each node sends messages (MSG) at random times; a MSG's arrival makes\n"
"    its receiver send an ACK back, and the ACK's arrival makes the MSG's\n"
"    sender send an ACK2, each reply --reply of the MSG's length.  A node\n"
"    sends its ACK2s first, then ACKs, then MSGs.  For the transactions whose\n"
"    MSG was made in the window, it prints per kind the messages, the\n"
"    attempts their headers took and the success per attempt p, and\n"
"    E = mean switches of a MSG's route x (1/p_msg + 1/p_ack + 1/p_ack2).\n"
"    Without the protocol's options the fabric must have switching drop\n"
"    (-s switching=drop); with them any fabric runs it, p and E being\n"
"    drop's only (null in JSON otherwise).\n"
"\n"
"    The messages go by the protocol of kmod/core/idem.c: sequential tags\n"
"    per pair, a MSG sent again when no ACK comes within --timeout, an ACK\n"
"    sent again when no ACK2 comes, each at most --retry-max times, a CRC-32\n"
"    checked by the receiver, each pair's MSGs handed over once and in order.\n"
"    --loss and --flip make the fabric lose and corrupt copies; they need\n"
"    --timeout.  With any of the three, the run goes on after the window\n"
"    until every MSG is delivered or given up, and prints what the receivers\n"
"    got (delivered, given up, lost, out of order or twice) and the\n"
"    protocol's counters.\n"
"\n"
"    With -k K -s preload=shift, circuits carry the pairs of the K shifts\n"
"    from the start; --down-random N takes N links between switches down,\n"
"    at random (--seed), from a third to two thirds of the window: circuits\n"
"    over them are routed again in their slot where a path is free, else\n"
"    released, worms route around them, and the protocol makes up for what\n"
"    is lost.  It prints the links, the circuits released and routed again\n"
"    and the copies each mode carried.\n"
"\n"
"OPTIONS\n"
"  --load L       offered load of MSGs per node, fraction of the link (0..1]\n"
"  --size WORDS   MSG length, bytes (flits of one byte make them words) (10)\n"
"  --pattern NAME MSG destinations, as hnsim run's (localized)\n"
"  --reply F      a reply's length, fraction of its MSG's, at least 1 (0.2)\n"
"  --ack-prio P   the priority of ACKs and ACK2s, 0..15; MSGs have 0 (0)\n"
"  --warmup NS    not measured (20000)\n"
"  --measure NS   MSGs made in this window are measured (100000)\n"
"  --seed S       the traffic's seed and the injectors' (1)\n"
"  --loss P       a copy lost as it arrives, probability; msg=P,ack=P,ack2=P\n"
"                 for each kind (0; -s loss_ppm=PPM, all kinds)\n"
"  --flip P       a bit of a copy flipped, probability per flit (0; -s flip_ppm)\n"
"  --timeout NS   MSG and ACK timers; 0: none, nothing is sent again\n"
"                 (0; -s idem_timeout_ns)\n"
"  --retry-max N  a MSG's or ACK's resends before it is given up\n"
"                 (20000; -s idem_retry_max)\n"
"  --window W     a node's MSGs awaiting their ACK, at most; 0: any (0)\n"
"  --table N      a node's receiver records (MSGs awaiting ACK2 or their\n"
"                 turn), at most: a new MSG finding them full is dropped\n"
"                 unacknowledged and sent again on its timer, but for one\n"
"                 whose turn has come while later MSGs of its pair wait\n"
"                 in the table; it prints the drops and the fewest\n"
"                 transactions completed in a window of 10^4 cycles\n"
"                 (flit times) of --measure, the livelock test; needs\n"
"                 --timeout; 0: any (0)\n"
"  --down-random N  N random links down in the window's middle third (0)\n"
"  --json         one JSON object\n"
"  Engine options: -p, -t, -n, -k, -P, -s KEY=VALUE, -c FILE as 'hnsim run'.\n"
"\n"
"EXIT STATUS\n"
"    0 when every measured transaction completed (and, with --loss, --flip or\n"
"    --timeout, every MSG was delivered once and in order), 1 on a bad\n"
"    option, 2 when not, within 10 ms of virtual time after the window.\n");
}

/* --load and --reply: a fraction in ppm, (0, 1]; or -1 */
static long long frac(const char *opt, const char *s, int zero_ok)
{
	long long v = hn_parse_ppm(s);

	if (v < 0 || v > 1000000 || (!zero_ok && !v)) {
		fprintf(stderr, "hnsim idem: %s wants a fraction in %s, 1], not '%s'\n",
			opt, zero_ok ? "[0" : "(0", s);
		return -1;
	}
	return v;
}

static int num(const char *opt, const char *s, u64 max, u64 *v)
{
	char *end;

	*v = strtoull(s, &end, 0);
	if (!*s || *end || *v > max) {
		fprintf(stderr, "hnsim idem: %s wants a number up to %llu, not '%s'\n",
			opt, (unsigned long long)max, s);
		return -1;
	}
	return 0;
}

static double pk(const struct idem *s, u32 k)
{
	return s->tries[k] ? (double)s->msgs[k] / s->tries[k] : 0;
}

/* MSGs neither delivered nor given up: lost, or still on their way */
static u64 undelivered(const struct idem *s)
{
	return s->all - s->delivered - (s->given_up - s->unknown);
}

static void check_report(const struct idem *s, int json)
{
	struct hn_idem_stats st;

	hn_idem_stats(s->x, &st);
	if (json) {
		printf(", \"idem\": {\"sent\": %llu, \"delivered\": %llu, \"given_up\": %llu, \"given_up_delivered\": %llu, \"undelivered\": %llu, \"out_of_order\": %llu, ",
		       (unsigned long long)s->all,
		       (unsigned long long)s->delivered,
		       (unsigned long long)s->given_up,
		       (unsigned long long)s->unknown,
		       (unsigned long long)undelivered(s),
		       (unsigned long long)s->disorder);
		printf("\"msg_tx\": %llu, \"ack_tx\": %llu, \"ack2_tx\": %llu, \"msg_resends\": %llu, \"ack_resends\": %llu, \"dups_suppressed\": %llu, ",
		       (unsigned long long)st.tx[MSG],
		       (unsigned long long)st.tx[ACK],
		       (unsigned long long)st.tx[ACK2],
		       (unsigned long long)st.resends[0],
		       (unsigned long long)st.resends[1],
		       (unsigned long long)st.dups_suppressed);
		printf("\"msg_lost\": %llu, \"ack_lost\": %llu, \"ack2_lost\": %llu, \"crc_fail\": %llu, \"refused\": %llu, \"retries_exhausted\": %llu, \"acks_exhausted\": %llu, \"send_state_entries\": %llu, \"recv_state_entries\": %llu, \"gaps_passed\": %llu}",
		       (unsigned long long)st.lost[MSG],
		       (unsigned long long)st.lost[ACK],
		       (unsigned long long)st.lost[ACK2],
		       (unsigned long long)st.crc_fail,
		       (unsigned long long)st.refused,
		       (unsigned long long)st.retries_exhausted,
		       (unsigned long long)st.acks_exhausted,
		       (unsigned long long)st.send_state_entries,
		       (unsigned long long)st.recv_state_entries,
		       (unsigned long long)st.gaps_passed);
		return;
	}
	printf("exactly once %llu MSGs: %llu delivered, %llu given up (%llu of them delivered), %llu undelivered, %llu out of order or twice\n",
	       (unsigned long long)s->all, (unsigned long long)s->delivered,
	       (unsigned long long)s->given_up,
	       (unsigned long long)s->unknown,
	       (unsigned long long)undelivered(s),
	       (unsigned long long)s->disorder);
	printf("protocol     sent: %llu msg, %llu ack, %llu ack2; sent again: %llu MSGs, %llu ACKs; %llu duplicates suppressed\n",
	       (unsigned long long)st.tx[MSG], (unsigned long long)st.tx[ACK],
	       (unsigned long long)st.tx[ACK2],
	       (unsigned long long)st.resends[0],
	       (unsigned long long)st.resends[1],
	       (unsigned long long)st.dups_suppressed);
	printf("injected     lost: %llu msg, %llu ack, %llu ack2; %llu CRC failures; %llu refused by the fabric\n",
	       (unsigned long long)st.lost[MSG], (unsigned long long)st.lost[ACK],
	       (unsigned long long)st.lost[ACK2],
	       (unsigned long long)st.crc_fail,
	       (unsigned long long)st.refused);
	printf("at the end   %llu MSGs given up, %llu ACKs given up; %llu senders' and %llu receivers' records left\n",
	       (unsigned long long)st.retries_exhausted,
	       (unsigned long long)st.acks_exhausted,
	       (unsigned long long)st.send_state_entries,
	       (unsigned long long)st.recv_state_entries);
}

/*
 * The fabric's drop counters over the whole run, warm-up and drain
 * included: what became of every header (switching drop only).
 */
static void drop_report(const struct idem *s, int json)
{
	struct hn_gstats g;

	hn_stats_global(s->e, &g);
	if (json)
		printf(", \"attempts\": %llu, \"drops\": %llu, \"preemptions\": %llu, \"preemptions_late\": %llu",
		       (unsigned long long)g.attempts,
		       (unsigned long long)g.drops,
		       (unsigned long long)g.preemptions,
		       (unsigned long long)g.preemptions_late);
	else
		printf("fabric       %llu attempts in the whole run: %llu dropped, %llu preempted (%llu late, the header at its destination's link)\n",
		       (unsigned long long)g.attempts,
		       (unsigned long long)g.drops,
		       (unsigned long long)g.preemptions,
		       (unsigned long long)g.preemptions_late);
}

/*
 * --down-random's links and the circuits they released, and what carried
 * the copies (printed only with --down-random or circuits, JSON always)
 */
static void fault_report(const struct idem *s, int json)
{
	struct hn_gstats g;

	hn_stats_global(s->e, &g);
	if (json) {
		printf(", \"links_down\": %u, \"circuits_released\": %u, \"circuit_reroutes\": %llu, \"rx_msgs_circuit\": %llu, \"rx_msgs_wormhole\": %llu",
		       s->down, s->released,
		       (unsigned long long)g.circuit_reroutes,
		       (unsigned long long)g.rx_msgs[HN_MODE_CIRCUIT],
		       (unsigned long long)g.rx_msgs[HN_MODE_WORMHOLE]);
		return;
	}
	if (s->down)
		printf("faults       %u links down from %llu to %llu ns virtual; %u circuits released, %llu routed again\n",
		       s->down, (unsigned long long)s->t_down,
		       (unsigned long long)s->t_up, s->released,
		       (unsigned long long)g.circuit_reroutes);
	if (s->down || g.rx_msgs[HN_MODE_CIRCUIT])
		printf("carried      %llu copies by circuit, %llu by wormhole\n",
		       (unsigned long long)g.rx_msgs[HN_MODE_CIRCUIT],
		       (unsigned long long)g.rx_msgs[HN_MODE_WORMHOLE]);
}

/* Every link down, up again. */
static int all_up(struct hn_engine *e)
{
	struct hn_fabric_info fi;
	u32 l;

	hn_fabric_info(e, &fi);
	for (l = 0; l < fi.links; l++)
		if (hn_link_down(e, l) && hn_set_fault(e, false, l, false, NULL,
						       NULL))
			return -1;
	return 0;
}

/* -s preload=shift: circuits from the start, as the module's */
static int preload_shift(struct hn_engine *e, const struct hn_config *c)
{
	struct hn_err err = { 0 };
	u32 k;

	for (k = 0; k < c->k && k + 1 < c->nodes; k++)
		if (hn_preload_shift(e, k, &err)) {
			fprintf(stderr, "hnsim idem: preload=shift: slot %u: %s\n",
				k, err.msg);
			return -1;
		}
	return 0;
}

/* s->win_at has come: the measure begins there, or a window ends */
static void window_done(struct idem *s, u64 warmup, u64 len)
{
	if (s->win_at > warmup) {
		if (s->acked2 - s->win_last < s->win_min)
			s->win_min = s->acked2 - s->win_last;
		s->wins_empty += s->acked2 == s->win_last;
		s->wins++;
	}
	s->win_last = s->acked2;
	s->win_at += len;
}

/* --table's: the drops, and the fewest completed in a window (null: none) */
static void table_report(const struct idem *s, int json)
{
	struct hn_idem_stats st;

	hn_idem_stats(s->x, &st);
	if (json) {
		printf(", \"table\": %u, \"table_full\": %llu, \"windows\": %llu, \"windows_empty\": %llu, ",
		       s->table, (unsigned long long)st.table_full,
		       (unsigned long long)s->wins,
		       (unsigned long long)s->wins_empty);
		if (s->wins)
			printf("\"window_completed_min\": %llu",
			       (unsigned long long)s->win_min);
		else
			printf("\"window_completed_min\": null");
		return;
	}
	printf("table        %u records a receiver: %llu MSGs dropped on a full table; ",
	       s->table, (unsigned long long)st.table_full);
	if (s->wins)
		printf("at least %llu transactions completed in each of %llu windows of 10^4 cycles, none in %llu\n",
		       (unsigned long long)s->win_min,
		       (unsigned long long)s->wins,
		       (unsigned long long)s->wins_empty);
	else
		printf("no window of 10^4 cycles in --measure\n");
}

static void idem_report(const struct idem *s, int json, u64 t_end)
{
	double hops = s->made ? (double)s->switches / s->made : 0;
	double e = 0;
	u32 k;

	for (k = 0; k < KINDS; k++)
		e += pk(s, k) ? 1 / pk(s, k) : 0;
	e *= hops;
	if (json) {
		printf("{\"transactions\": %llu, \"completed\": %llu, \"t_end_ns\": %llu, \"mean_switches\": %.4f, ",
		       (unsigned long long)s->made, (unsigned long long)s->done,
		       (unsigned long long)t_end, hops);
		for (k = 0; k < KINDS; k++) {
			printf("\"%s\": {\"messages\": %llu, \"attempts\": %llu, \"p\": ",
			       kind_name[k], (unsigned long long)s->msgs[k],
			       (unsigned long long)s->tries[k]);
			printf(s->drop ? "%.6f}, " : "null}, ", pk(s, k));
		}
		printf(s->drop ? "\"e\": %.4f" : "\"e\": null", e);
		if (s->drop)
			drop_report(s, 1);
		if (s->check)
			check_report(s, 1);
		fault_report(s, 1);
		if (s->table)
			table_report(s, 1);
		printf("}\n");
		return;
	}
	printf("transactions %llu measured, %llu completed, at %llu ns virtual\n",
	       (unsigned long long)s->made, (unsigned long long)s->done,
	       (unsigned long long)t_end);
	for (k = 0; s->drop && k < KINDS; k++)
		printf("%-12s %llu messages, %llu attempts: p = %.4f\n",
		       kind_name[k], (unsigned long long)s->msgs[k],
		       (unsigned long long)s->tries[k], pk(s, k));
	if (s->drop) {
		printf("E            %.4f switches = %.4f mean switches x the sum of 1/p\n",
		       e, hops);
		drop_report(s, 0);
	} else
		printf("p, E         none: attempts are switching drop's\n");
	if (s->check)
		check_report(s, 0);
	fault_report(s, 0);
	if (s->table)
		table_report(s, 0);
}

/* --loss: P for every kind, or KIND=P,... */
static int loss_opt(const char *arg, u32 *ppm)
{
	char buf[128], *tok, *save, *eq;
	long long v;
	u32 k;

	if (!strchr(arg, '=')) {
		v = frac("--loss", arg, 1);
		for (k = 0; v >= 0 && k < KINDS; k++)
			ppm[k] = (u32)v;
		return v < 0 ? -1 : 0;
	}
	if (strlen(arg) >= sizeof(buf)) {
		fprintf(stderr, "hnsim idem: --loss: too long\n");
		return -1;
	}
	strcpy(buf, arg);
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		eq = strchr(tok, '=');
		for (k = 0; eq && k < KINDS; k++)
			if ((size_t)(eq - tok) == strlen(kind_name[k]) &&
			    !strncmp(tok, kind_name[k], eq - tok))
				break;
		if (!eq || k == KINDS) {
			fprintf(stderr, "hnsim idem: --loss wants P or KIND=P,... with KIND msg, ack or ack2, not '%s'\n",
				tok);
			return -1;
		}
		v = frac("--loss", eq + 1, 1);
		if (v < 0)
			return -1;
		ppm[k] = (u32)v;
	}
	return 0;
}

int idem_main(int argc, char **argv)
{
	static const struct option lo[] = {
		HNSIM_CFG_LONGOPTS,
		{ "load", required_argument, NULL, 'L' },
		{ "size", required_argument, NULL, 'S' },
		{ "pattern", required_argument, NULL, 'A' },
		{ "reply", required_argument, NULL, 'R' },
		{ "ack-prio", required_argument, NULL, 'Q' },
		{ "warmup", required_argument, NULL, 'W' },
		{ "measure", required_argument, NULL, 'M' },
		{ "seed", required_argument, NULL, 'D' },
		{ "loss", required_argument, NULL, 256 },
		{ "flip", required_argument, NULL, 257 },
		{ "timeout", required_argument, NULL, 258 },
		{ "retry-max", required_argument, NULL, 259 },
		{ "window", required_argument, NULL, 260 },
		{ "down-random", required_argument, NULL, 261 },
		{ "table", required_argument, NULL, 262 },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	u64 warmup = 20000, measure = 100000, seed = 1, v, t, end, *next;
	long long load = -1, reply = 200000;
	struct idem s = { 0 };
	struct hn_idem_cfg ic, o;
	struct hn_config c;
	struct hn_err err;
	struct hn_tcfg tc;
	struct hn_tgen *g;
	u32 size = 10, u, d, preload = 0;
	u8 prio = 0;
	int pattern = -1, json = 0, opt, rc, given = 0;
	struct imsg *im;

	hn_config_default(&c);
	/* the options over the configuration's idem_timeout_ns, ... */
	hn_idem_cfg_default(&o);
	optind = 1;
	while ((opt = getopt_long(argc, argv, HNSIM_CFG_SHORTOPTS "jh", lo,
				  NULL)) != -1) {
		rc = cfg_opt(&c, &preload, opt, optarg, "hnsim idem");
		if (rc > 0)
			return 1;
		if (!rc)
			continue;
		switch (opt) {
		case 'L':
			load = frac("--load", optarg, 0);
			if (load < 0)
				return 1;
			break;
		case 'R':
			reply = frac("--reply", optarg, 0);
			if (reply < 0)
				return 1;
			break;
		case 'S':
			if (num("--size", optarg, HN_MAX_MSG, &v) || !v)
				return 1;
			size = (u32)v;
			break;
		case 'A':
			pattern = hn_pattern_parse(optarg);
			if (pattern < 0) {
				fprintf(stderr, "hnsim idem: unknown pattern '%s'\n",
					optarg);
				return 1;
			}
			break;
		case 'Q':
			if (num("--ack-prio", optarg, 15, &v))
				return 1;
			prio = (u8)v;
			break;
		case 256:
			if (loss_opt(optarg, o.loss_ppm))
				return 1;
			given |= 1;
			break;
		case 257:
			rc = (int)frac("--flip", optarg, 1);
			if (rc < 0)
				return 1;
			o.flip_ppm = (u32)rc;
			given |= 2;
			break;
		case 258:
			if (num("--timeout", optarg, 1000000000000000ULL,
				&o.timeout_ns))
				return 1;
			given |= 4;
			break;
		case 259:
			if (num("--retry-max", optarg, ~0u, &v))
				return 1;
			o.retry_max = (u32)v;
			given |= 8;
			break;
		case 260:
			if (num("--window", optarg, ~0u, &v))
				return 1;
			o.window = (u32)v;
			break;
		case 261:
			if (num("--down-random", optarg, 1000000, &v))
				return 1;
			s.down = (u32)v;
			break;
		case 262:
			if (num("--table", optarg, ~0u, &v))
				return 1;
			o.table = (u32)v;
			break;
		case 'W':
			if (num("--warmup", optarg, 1000000000000000ULL, &warmup))
				return 1;
			break;
		case 'M':
			if (num("--measure", optarg, 1000000000000000ULL, &measure) ||
			    !measure)
				return 1;
			break;
		case 'D':
			if (num("--seed", optarg, ~0ULL, &seed))
				return 1;
			break;
		case 'j':
			json = 1;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 1;
		}
	}
	if (optind < argc || load < 0) {
		fprintf(stderr, "hnsim idem: %s ('hnsim idem --help')\n",
			optind < argc ? "no operand is taken" : "--load is needed");
		return 1;
	}
	s.drop = c.switching == HN_SWITCH_DROP;
	hn_tcfg_default(&tc, c.nodes);
	if (pattern >= 0)
		tc.pattern = (u32)pattern;
	else
		tc.pattern = (u32)hn_pattern_parse("localized");
	tc.size = size;
	tc.load_ppm = (u32)load;
	tc.seed = seed;
	rc = hn_tcfg_check(&tc, &c, NULL);
	if (rc) {
		fprintf(stderr, "hnsim idem: the traffic does not fit this fabric (%d)\n",
			rc);
		return 1;
	}
	hn_idem_cfg_of(&c, &ic);
	if (given & 1)
		memcpy(ic.loss_ppm, o.loss_ppm, sizeof(ic.loss_ppm));
	if (given & 2)
		ic.flip_ppm = o.flip_ppm;
	if (given & 4)
		ic.timeout_ns = o.timeout_ns;
	if (given & 8)
		ic.retry_max = o.retry_max;
	ic.window = o.window;
	ic.table = o.table;
	s.table = o.table;
	s.win_min = ~0ULL;
	s.win_at = warmup;
	ic.prio[ACK] = prio;
	ic.prio[ACK2] = prio;
	ic.seed = seed;
	ic.reply_ppm = (u32)reply;
	s.check = ic.timeout_ns || ic.flip_ppm || ic.loss_ppm[MSG] ||
		  ic.loss_ppm[ACK] || ic.loss_ppm[ACK2];
	if (hn_idem_cfg_check(&ic, &err)) {
		fprintf(stderr, "hnsim idem: %s%s\n", err.msg,
			ic.timeout_ns ? "" : " (--timeout NS)");
		return 1;
	}
	if (!s.drop && !s.check) {
		fprintf(stderr, "hnsim idem: the success per attempt is switching drop's: -s switching=drop\n");
		return 1;
	}
	g = hn_tgen_create(&tc, &c, &rc);
	s.x = g ? hn_idem_create(&c, &ic, &idem_ops, &s, &rc) : NULL;
	s.e = s.x ? hn_idem_engine(s.x) : NULL;
	s.nodes = c.nodes;
	if (s.check) {
		s.sent = calloc((size_t)c.nodes * c.nodes, sizeof(*s.sent));
		s.next = calloc((size_t)c.nodes * c.nodes, sizeof(*s.next));
	}
	next = calloc(c.nodes, sizeof(*next));
	if (!s.x || !next || (s.check && (!s.sent || !s.next))) {
		fprintf(stderr, "hnsim idem: cannot make the engine: %s\n",
			strerror(rc < 0 ? -rc : ENOMEM));
		return 1;
	}
	if (preload && preload_shift(s.e, &c))
		return 1;
	for (u = 0; u < c.nodes; u++)
		next[u] = hn_tgen_next_ns(g, u);
	end = warmup + measure;
	s.t_down = warmup + measure / 3;
	s.t_up = warmup + 2 * measure / 3;
	for (t = 0; t < end || ((s.done < s.made || (s.check && !quiet(&s))) &&
				t < end + 10000000);
	     t += c.wh_flit_ns) {
		hn_run_until(s.e, t);
		while (s.table && s.win_at <= t && s.win_at <= end)
			window_done(&s, warmup, 10000ULL * c.wh_flit_ns);
		if (s.down && t == s.t_down / c.wh_flit_ns * c.wh_flit_ns &&
		    hn_set_fault_random(s.e, s.down, seed, &s.released, &err)) {
			fprintf(stderr, "hnsim idem: --down-random %u: %s\n",
				s.down, err.msg);
			return 1;
		}
		if (s.down && t == s.t_up / c.wh_flit_ns * c.wh_flit_ns &&
		    all_up(s.e))
			return 1;
		for (u = 0; u < c.nodes && t < end; u++) {
			while (next[u] <= t) {
				next[u] = hn_tgen_next_ns(g, u);
				d = hn_tgen_dest(g, u);
				if (d == HN_NONE)
					continue;
				im = calloc(1, sizeof(*im));
				if (!im)
					return 1;
				im->m.src = u;
				im->m.dst = d;
				im->m.len = size;
				im->m.t_inject = t;
				im->m.owner = t >= warmup;
				if (s.check)
					im->seq = s.sent[(u64)u * c.nodes + d]++;
				if (im->m.owner) {
					s.made++;
					s.switches += (u32)hn_route_switches(s.e,
									     u, d);
				}
				if (hn_idem_send(s.x, &im->m))
					return 1;
				s.all++;
			}
		}
		hn_idem_tick(s.x);
	}
	idem_report(&s, json, hn_now(s.e));
	rc = s.done < s.made ? 2 : 0;
	if (s.check && (undelivered(&s) || s.disorder || s.given_up))
		rc = 2;
	hn_idem_destroy(s.x);	/* hands back what is still in it */
	free(s.sent);
	free(s.next);
	free(next);
	hn_tgen_destroy(g);
	return rc;
}
