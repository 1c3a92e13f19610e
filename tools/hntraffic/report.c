// SPDX-License-Identifier: GPL-2.0
/*
 * report.c - latency histograms, the totals of a run, and its report for
 * people or as one JSON object.
 */
#include <string.h>
#include "hntraffic.h"
#include "topts.h"

#define U(x) ((unsigned long long)(x))

void hnt_hist_init(struct hnt_hist *h)
{
	memset(h, 0, sizeof(*h));
	h->min = HN_U64_MAX;
}

void hnt_hist_add(struct hnt_hist *h, u64 v)
{
	h->n++;
	h->sum += v;
	h->min = v < h->min ? v : h->min;
	h->max = v > h->max ? v : h->max;
	h->b[hn_hist_bucket(v)]++;
}

void hnt_hist_merge(struct hnt_hist *to, const struct hnt_hist *from)
{
	u32 i;

	to->n += from->n;
	to->sum += from->sum;
	to->min = from->min < to->min ? from->min : to->min;
	to->max = from->max > to->max ? from->max : to->max;
	for (i = 0; i < HN_HIST_BUCKETS; i++)
		to->b[i] += from->b[i];
}

u64 hnt_hist_pct(const struct hnt_hist *h, u32 permille)
{
	return hn_hist_percentile(h->b, h->min, h->max, permille);
}

const char *hnt_end_name(int end)
{
	switch (end) {
	case HNT_DONE:
		return "done";
	case HNT_SAT_QUEUE:
	case HNT_SAT_DRAIN:
	case HNT_SAT_RATE:
		return "saturated";
	case HNT_LIMIT:
		return "limit";
	case HNT_STALLED:
		return "stalled";
	case HNT_INTERRUPTED:
		return "interrupted";
	case HNT_ERROR:
		return "error";
	default:
		return "running";
	}
}

const char *hnt_nodes_str(const struct hnt_run *r, char *buf, size_t n)
{
	size_t off = 0;
	u32 i = 0, j;

	buf[0] = 0;
	while (i < r->m && off + 24 < n) {
		for (j = i; j + 1 < r->m && r->map[j + 1] == r->map[j] + 1; j++)
			;
		if (j == i)
			off += snprintf(buf + off, n - off, "%s%u",
					off ? "," : "", r->map[i]);
		else
			off += snprintf(buf + off, n - off, "%s%u-%u",
					off ? "," : "", r->map[i], r->map[j]);
		i = j + 1;
	}
	if (i < r->m)
		snprintf(buf + off, n - off, ",...");
	return buf;
}

/* The streams' ends: what was sent and never arrived. */
void hnt_count_lost(struct hnt_run *r)
{
	struct hnt_stream *s;
	u32 src, dst, sent;

	for (dst = 0; dst < r->m; dst++) {
		for (src = 0; src < r->m; src++) {
			s = &r->node[dst].from[src];
			sent = r->node[src].seq_to[dst];
			r->node[dst].lost += s->holes;
			if (sent > s->exp)
				r->node[dst].lost += sent - s->exp;
			else if (s->exp > sent)	/* numbers never sent */
				r->node[dst].corrupt += s->exp - sent;
			if (!r->node[dst].why[0] && (s->holes || sent != s->exp))
				snprintf(r->node[dst].why,
					 sizeof(r->node[dst].why),
					 "node %u: from node %u, %u messages sent, %u arrived in order, %u missing in between",
					 r->map[dst], r->map[src], sent, s->exp,
					 s->holes);
		}
	}
}

static u32 ppm_of(u64 bytes, u64 cap_bytes)
{
	u64 v;

	if (!cap_bytes)
		return 0;
	v = hn_mul_div(bytes, HN_PPM, cap_bytes);
	return v > 0xffffffffULL ? 0xffffffffU : (u32)v;
}

void hnt_total(struct hnt_run *r, struct hnt_total *t)
{
	struct hnt_node *n;
	u64 cap, span, w1;
	double win_s;
	u32 i;

	memset(t, 0, sizeof(*t));
	hnt_hist_init(&t->vlat);
	hnt_hist_init(&t->wlat);
	hnt_hist_init(&t->vlat_mode[0]);
	hnt_hist_init(&t->vlat_mode[1]);
	t->v_first = HN_U64_MAX;
	t->w_first_send = HN_U64_MAX;
	for (i = 0; i < r->m; i++) {
		n = &r->node[i];
		t->gen_msgs += n->gen_msgs;
		t->gen_bytes += n->gen_bytes;
		t->sent_msgs += n->sent_msgs;
		t->sent_bytes += n->sent_bytes;
		t->recv_msgs += n->recv_msgs;
		t->recv_bytes += n->recv_bytes;
		t->tagged_gen += n->live.tagged_gen;
		t->tagged_recv += n->live.tagged_recv;
		t->mode[0] += n->mode[0];
		t->mode[1] += n->mode[1];
		t->retagged += n->retagged;
		t->win_gen_bytes += n->win_gen_bytes;
		t->win_acc_bytes += n->win_acc_bytes;
		t->win_acc_msgs += n->win_acc_msgs;
		t->lost += n->lost;
		t->dup += n->dup;
		t->reordered += n->reordered;
		t->corrupt += n->corrupt;
		t->stray += n->stray;
		t->tx_again += n->tx_again;
		if (n->backlog_max > t->backlog_max)
			t->backlog_max = n->backlog_max;
		if (n->recv_msgs && n->v_first < t->v_first)
			t->v_first = n->v_first;
		if (n->v_last > t->v_last)
			t->v_last = n->v_last;
		if (n->sent_msgs && n->w_first_send < t->w_first_send)
			t->w_first_send = n->w_first_send;
		if (n->w_last_recv > t->w_last_recv)
			t->w_last_recv = n->w_last_recv;
		hnt_hist_merge(&t->vlat, &n->vlat);
		hnt_hist_merge(&t->wlat, &n->wlat);
		hnt_hist_merge(&t->vlat_mode[0], &n->vlat_mode[0]);
		hnt_hist_merge(&t->vlat_mode[1], &n->vlat_mode[1]);
	}
	t->verified = !t->lost && !t->dup && !t->reordered && !t->corrupt &&
		      !t->stray && t->recv_msgs == t->sent_msgs;
	t->wall_s = (r->w_end - r->t0) / 1e9;
	/* Ch. 1 over the device's virtual time: first injection, last delivery */
	if (t->recv_bytes && t->v_last > t->v_first && r->nactive) {
		span = t->v_last - t->v_first;
		cap = hn_mul_div(span, (u64)r->c.link_mbps * r->nactive, 8000);
		t->util_ppm = ppm_of(t->recv_bytes, cap);
	}
	if (r->t.inject == HN_INJ_BATCH) {
		if (t->recv_msgs && t->w_last_recv > r->t0) {
			win_s = (t->w_last_recv - r->t0) / 1e9;
			t->rate_msgs = t->recv_msgs / win_s;
			t->rate_bytes = t->recv_bytes / win_s;
		}
		return;
	}
	/* the part of the window the run lived through (all, unless cut) */
	w1 = r->w_stop && r->w_stop < r->w_win1 ? r->w_stop : r->w_win1;
	if (w1 <= r->w_win0)
		return;
	win_s = (w1 - r->w_win0) / 1e9;
	cap = hn_mul_div((u64)((w1 - r->w_win0) / r->scale),
			 (u64)r->c.link_mbps * r->nactive, 8000);
	t->offered_ppm = ppm_of(t->win_gen_bytes, cap);
	t->accepted_ppm = ppm_of(t->win_acc_bytes, cap);
	t->rate_msgs = t->win_acc_msgs / win_s;
	t->rate_bytes = t->win_acc_bytes / win_s;
}

static const char *why_of(const struct hnt_run *r)
{
	return r->end_why[0] ? r->end_why : hnt_end_name(r->end);
}

/* the first failure a node saw, for the report */
static const char *first_failure(const struct hnt_run *r)
{
	u32 i;

	for (i = 0; i < r->m; i++)
		if (r->node[i].why[0] && !r->node[i].err)
			return r->node[i].why;
	return "";
}

static void lat_line(FILE *f, const char *what, const struct hnt_hist *h,
		     double unit, const char *uname)
{
	int d = unit > 1;	/* decimals */

	if (!h->n) {
		fprintf(f, "            %s: no measured message\n", what);
		return;
	}
	fprintf(f, "            %s: min %.*f, mean %.*f, p50 <= %.*f, p99 <= %.*f, max %.*f %s (p50, p99: upper bounds)\n",
		what, d, h->min / unit, d, (double)h->sum / h->n / unit,
		d, hnt_hist_pct(h, 500) / unit, d, hnt_hist_pct(h, 990) / unit,
		d, h->max / unit, uname);
}

void hnt_print_human(FILE *f, const struct hnt_run *r,
		     const struct hnt_total *t)
{
	char nodes[256], sz[96], pol[64];

	fprintf(f, "run         %s, %u nodes (%u send): %s of %s's %u, seed %llu\n",
		hn_pattern_name(r->t.pattern), r->m, r->nactive,
		hnt_nodes_str(r, nodes, sizeof(nodes)), r->devpath, r->ndev,
		U(r->t.seed));
	fprintf(f, "device      slots %u, profile %s, policy %s, link %u Mb/s, clock %s; wall = %.6g x pattern time\n",
		r->k, r->profile, hn_ctl_policy_str(r->policy, pol, sizeof(pol)),
		r->c.link_mbps, r->clock, r->scale);
	if (r->t.inject == HN_INJ_BATCH)
		fprintf(f, "injection   batch of %u per sender, %s, generation %s%u Mb/s\n",
			r->t.batch, hn_topts_size_desc(&r->t, sz, sizeof(sz)),
			r->t.gen_mbps ? "" : "unlimited, ", r->t.gen_mbps);
	else
		fprintf(f, "injection   Bernoulli, offered %.4f of the link, %s; window [%llu, %llu) ns pattern time, %.3f s wall\n",
			r->t.load_ppm / 1e6,
			hn_topts_size_desc(&r->t, sz, sizeof(sz)),
			U(r->rc.warmup_ns),
			U(r->rc.warmup_ns + r->rc.measure_ns),
			(r->w_win1 - r->w_win0) / 1e9);
	fprintf(f, "ended       %s; %.3f s wall, %llu ns of device virtual time\n",
		why_of(r), t->wall_s, U(r->v1 - r->v0));
	fprintf(f, "messages    generated %llu, sent %llu (%llu B), received %llu (%llu B): circuit %llu, wormhole %llu, retagged %llu\n",
		U(t->gen_msgs), U(t->sent_msgs), U(t->sent_bytes),
		U(t->recv_msgs), U(t->recv_bytes), U(t->mode[0]),
		U(t->mode[1]), U(t->retagged));
	fprintf(f, "verified    %s: %llu lost, %llu duplicated, %llu out of order, %llu corrupt, %llu stray\n",
		t->verified ? "every message arrived once, in order, intact" :
		"FAILED", U(t->lost), U(t->dup), U(t->reordered),
		U(t->corrupt), U(t->stray));
	if (!t->verified && *first_failure(r))
		fprintf(f, "            first: %s\n", first_failure(r));
	fprintf(f, "throughput  %.0f msg/s, %.0f B/s (%s)\n", t->rate_msgs,
		t->rate_bytes, r->t.inject == HN_INJ_BATCH ?
		"wall, start to last message" : "wall, measurement window");
	if (r->t.inject == HN_INJ_BERNOULLI)
		fprintf(f, "load        offered %.4f, accepted %.4f of the senders' link capacity (window); measured %llu of %llu arrived\n",
			t->offered_ppm / 1e6, t->accepted_ppm / 1e6,
			U(t->tagged_recv), U(t->tagged_gen));
	fprintf(f, "latency     %llu measured messages\n", U(t->vlat.n));
	lat_line(f, "virtual, NIC injection to delivery (header)", &t->vlat,
		 1, "ns");
	if (t->vlat_mode[0].n)
		lat_line(f, "  of them by circuit", &t->vlat_mode[0], 1, "ns");
	if (t->vlat_mode[1].n)
		lat_line(f, "  of them by wormhole", &t->vlat_mode[1], 1, "ns");
	lat_line(f, "wall, write() to read()", &t->wlat, 1000, "us");
	fprintf(f, "utilisation %.2f %% of the senders' links over the device's virtual time (Ch. 1)\n",
		t->util_ppm / 1e4);
	fprintf(f, "senders     backlog max %llu messages; NIC full %llu times (EAGAIN)\n",
		U(t->backlog_max), U(t->tx_again));
}

/* @p_n@m, @p_min@m_ns, ...: @m "" or a mode, "_circuit" (the module's) */
static void json_lat(FILE *f, const char *p, const char *m,
		     const struct hnt_hist *h)
{
	fprintf(f, "\"%s_n%s\": %llu, \"%s_min%s_ns\": %llu, \"%s_mean%s_ns\": %llu, \"%s_p50%s_ns\": %llu, \"%s_p99%s_ns\": %llu, \"%s_max%s_ns\": %llu, ",
		p, m, U(h->n), p, m, U(h->n ? h->min : 0), p, m,
		U(h->n ? h->sum / h->n : 0), p, m, U(hnt_hist_pct(h, 500)),
		p, m, U(hnt_hist_pct(h, 990)), p, m, U(h->max));
}

/* @s as a JSON string body (the reasons hold no control characters) */
static void json_str(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fputc('\\', f);
		fputc(*s, f);
	}
}

void hnt_print_json(FILE *f, const struct hnt_run *r,
		    const struct hnt_total *t)
{
	char nodes[256], pol[64];
	int e = r->end;

	fprintf(f, "{\"tool\": \"hntraffic\", \"device\": \"%s\", \"pattern\": \"%s\", \"nodes\": %u, \"node_set\": \"%s\", \"device_nodes\": %u, \"active\": %u, \"seed\": %llu, ",
		r->devpath, hn_pattern_name(r->t.pattern), r->m,
		hnt_nodes_str(r, nodes, sizeof(nodes)), r->ndev, r->nactive,
		U(r->t.seed));
	fprintf(f, "\"slots\": %u, \"profile\": \"%s\", \"policy\": \"%s\", \"link_mbps\": %u, \"clock\": \"%s\", \"time_scale\": %.6g, ",
		r->k, r->profile, hn_ctl_policy_str(r->policy, pol, sizeof(pol)),
		r->c.link_mbps, r->clock, r->scale);
	fprintf(f, "\"inject\": \"%s\", \"load_ppm\": %u, \"batch\": %u, \"size\": %u, \"size_max\": %u, ",
		r->t.inject == HN_INJ_BATCH ? "batch" : "bernoulli",
		r->t.inject == HN_INJ_BATCH ? 0 : r->t.load_ppm,
		r->t.inject == HN_INJ_BATCH ? r->t.batch : 0, r->t.size,
		r->t.size_dist == HN_SIZE_FIXED ? r->t.size : r->t.size_max);
	fprintf(f, "\"end\": \"%s\", \"saturated\": %s, \"completed\": %s, \"why\": \"",
		hnt_end_name(e),
		e == HNT_SAT_QUEUE || e == HNT_SAT_DRAIN || e == HNT_SAT_RATE ?
		"true" : "false", e == HNT_DONE ? "true" : "false");
	json_str(f, why_of(r));
	fprintf(f, "\", \"verified\": %s, \"in_order\": %s, \"lost\": %llu, \"duplicated\": %llu, \"reordered\": %llu, \"corrupt\": %llu, \"stray\": %llu, \"first_failure\": \"",
		t->verified ? "true" : "false",
		!t->dup && !t->reordered ? "true" : "false", U(t->lost),
		U(t->dup), U(t->reordered), U(t->corrupt), U(t->stray));
	json_str(f, t->verified ? "" : first_failure(r));
	fprintf(f, "\", \"gen_msgs\": %llu, \"gen_bytes\": %llu, \"sent_msgs\": %llu, \"sent_bytes\": %llu, \"recv_msgs\": %llu, \"recv_bytes\": %llu, \"circuit_msgs\": %llu, \"wormhole_msgs\": %llu, \"retagged\": %llu, \"tagged\": %llu, \"tagged_done\": %llu, ",
		U(t->gen_msgs), U(t->gen_bytes), U(t->sent_msgs),
		U(t->sent_bytes), U(t->recv_msgs), U(t->recv_bytes),
		U(t->mode[0]), U(t->mode[1]), U(t->retagged),
		U(t->tagged_gen), U(t->tagged_recv));
	fprintf(f, "\"wall_s\": %.6f, \"msgs_per_s\": %.1f, \"bytes_per_s\": %.1f, \"virtual_ns\": %llu, \"offered_ppm\": %u, \"accepted_ppm\": %u, \"util_ppm\": %u, ",
		t->wall_s, t->rate_msgs, t->rate_bytes, U(r->v1 - r->v0),
		t->offered_ppm, t->accepted_ppm, t->util_ppm);
	json_lat(f, "lat", "", &t->vlat);
	json_lat(f, "lat", "_circuit", &t->vlat_mode[0]);
	json_lat(f, "lat", "_wormhole", &t->vlat_mode[1]);
	json_lat(f, "wall_lat", "", &t->wlat);
	fprintf(f, "\"backlog_max\": %llu, \"tx_again\": %llu}\n",
		U(t->backlog_max), U(t->tx_again));
}
