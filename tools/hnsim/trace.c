// SPDX-License-Identifier: GPL-2.0
/*
 * trace.c - hnsim: read a trace and drive the engine with it.
 *
 * A message the NIC cannot take (buffer full) waits in its source's FIFO
 * and is offered again at the virtual time its NIC finds room (the
 * engine stops there, struct hn_ops.room), as a blocked PE would; its
 * latency still counts from the time the trace generated it.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/hybridnet.h>
#include "hnsim.h"

struct smsg {
	struct hn_msg m;
	struct smsg *next;		/* in its source's waiting FIFO */
	/* 1; a multicast's first copy: its copies (these next), groups */
	u32 copies, groups;
};

struct driver {
	struct hn_engine *e;
	struct sim_opts *o;
	struct sim_result *res;
	struct smsg **head, **tail;	/* per-source waiting FIFOs */
	u32 *waiting;			/* sources with a FIFO, as a list */
	u32 nwaiting;
	u64 *retry_at;			/* a waiting source's NIC has room */
	u32 *dst;			/* a line's members, nodes of them */
	struct hn_msg **copy;		/* a multicast's copies, as many */
	u64 blocked;
	const char *file;
	unsigned long line;
	double t0, last_progress;
};

static void deliver(void *ctx, struct hn_msg *m)
{
	struct driver *d = ctx;

	hn_consume(d->e, m->dst, m->len);
	free(m);
}

static void reclaim(void *ctx, struct hn_msg *m)
{
	(void)ctx;
	free(m);
}

/* A NIC has room at @t: its waiting source tries then (stop there). */
static bool room(void *ctx, u32 node, u64 t)
{
	struct driver *d = ctx;

	if (!d->head[node] || t >= d->retry_at[node])
		return false;
	d->retry_at[node] = t;
	return true;
}

/* The next time a waiting source's NIC has room, HN_U64_MAX: none known. */
static u64 next_retry(const struct driver *d)
{
	u64 t = HN_U64_MAX;
	u32 i;

	for (i = 0; i < d->nwaiting; i++)
		if (d->retry_at[d->waiting[i]] < t)
			t = d->retry_at[d->waiting[i]];
	return t;
}

static const struct hn_ops ops = {
	.deliver = deliver, .reclaim = reclaim, .room = room,
};

static double wall(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void progress(struct driver *d, int force)
{
	struct hn_gstats g;
	double t = wall();

	if (!d->o->progress || (!force && t - d->last_progress < 1.0))
		return;
	d->last_progress = t;
	hn_stats_global(d->e, &g);
	fprintf(stderr, "\rhnsim: %llu ns, line %lu, %llu delivered, "
		"%llu in flight, %llu waiting   %s",
		(unsigned long long)g.now, d->line,
		(unsigned long long)(g.rx_msgs[0] + g.rx_msgs[1]),
		(unsigned long long)g.in_flight_msgs,
		(unsigned long long)d->blocked, force ? "\n" : "");
}

static int die(struct driver *d, const char *fmt, const char *arg)
{
	fprintf(stderr, "hnsim: %s:%lu: ", d->file, d->line);
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	return -1;
}

/*
 * Hand the NIC @s, or a multicast's copies from @s on, all or none
 * (hn_inject_mcast(), as the module's write does).
 */
static int offer(struct driver *d, struct smsg *s, struct hn_err *err)
{
	u32 i, n = s->copies, groups = s->groups, sent;
	int rc;

	if (!groups)
		return hn_inject(d->e, &s->m, err);
	for (i = 0; i < n; i++, s = s->next)
		d->copy[i] = &s->m;
	rc = hn_inject_mcast(d->e, d->copy, n, groups, &sent, err);
	return sent && rc ? -ENOMEM : rc;	/* half sent: out of memory */
}

/* The bytes a waiting source's head needs in its NIC. */
static u32 head_bytes(const struct smsg *s)
{
	return s->m.len * s->copies;
}

/*
 * Offer the FIFO of each waiting source whose NIC has room by now to it,
 * oldest first; one refused again learns when it will have room.
 */
static int retry(struct driver *d)
{
	u32 i = 0, u, k;
	struct smsg *s;
	int rc;

	while (i < d->nwaiting) {
		u = d->waiting[i];
		if (d->retry_at[u] > hn_now(d->e)) {
			i++;
			continue;
		}
		d->retry_at[u] = HN_U64_MAX;
		while ((s = d->head[u])) {
			rc = offer(d, s, NULL);
			if (rc == -EAGAIN) {
				d->retry_at[u] = hn_nic_room_at(d->e, u,
								head_bytes(s));
				break;
			}
			if (rc)
				return rc;
			for (k = s->copies; k--; d->head[u] = s->next) {
				s = d->head[u];
				d->blocked--;
				d->res->retries++;
			}
		}
		if (d->head[u]) {
			i++;
		} else {
			d->tail[u] = NULL;
			d->waiting[i] = d->waiting[--d->nwaiting];
		}
	}
	return 0;
}

/*
 * Let virtual time reach @t, offering waiting messages at the times their
 * NICs have room.
 */
static int advance(struct driver *d, u64 t)
{
	u64 r;

	while (hn_now(d->e) < t) {
		r = d->blocked ? next_retry(d) : HN_U64_MAX;
		if (r > hn_now(d->e))
			hn_run_until(d->e, r < t ? r : t);
		if (d->blocked && retry(d))
			return -1;
		progress(d, 0);
	}
	return 0;
}

/*
 * @src sends @len bytes to the @n nodes @dst at @t: one message, or a
 * multicast's copies (@groups not 0), which go to the NIC together.
 */
static int send(struct driver *d, u64 t, u32 src, const u32 *dst, u32 n,
		u32 groups, u32 len)
{
	struct smsg *first = NULL, *last = NULL, *s;
	struct hn_err err = { 0 };
	u32 i;
	int rc;

	for (i = 0; i < n; i++) {
		s = calloc(1, sizeof(*s));
		if (!s) {
			for (; first; first = s) {
				s = first->next;
				free(first);
			}
			return die(d, "%s", strerror(ENOMEM));
		}
		s->m.src = src;
		s->m.dst = dst[i];
		s->m.len = len;
		s->m.t_inject = t;
		if (last)
			last->next = s;
		else
			first = s;
		last = s;
	}
	first->copies = n;
	first->groups = groups;
	rc = d->head[src] ? -EAGAIN : offer(d, first, &err);
	if (rc == -EAGAIN) {
		if (!d->head[src]) {
			d->waiting[d->nwaiting++] = src;
			d->retry_at[src] = hn_nic_room_at(d->e, src,
							  head_bytes(first));
			d->head[src] = first;
		} else {
			d->tail[src]->next = first;
		}
		d->tail[src] = last;
		d->blocked += n;
		if (d->blocked > d->res->max_blocked)
			d->res->max_blocked = d->blocked;
		return 0;
	}
	if (rc) {
		for (; first; first = s) {
			s = first->next;
			free(first);
		}
		return die(d, "message refused: %s", err.msg);
	}
	return 0;
}

/*
 * A message line's DST: a node, or a multicast: "all" (every node but
 * @src) or entries G/BITS[,G/BITS...], BITS a number or cC (Zydallis's
 * processor code C).  The members in d->dst: how many, or -1.
 */
static int dests(struct driver *d, char *tok, u32 src, u32 *groups)
{
	static u32 ent[HN_MCAST_MAX];
	unsigned long g, b;
	struct hn_err err = { 0 };
	char *p = tok, *end;
	u32 n = 0;
	int count;

	*groups = 0;
	if (!strcmp(tok, "all")) {
		ent[n++] = HN_MCAST_ALL;
	} else if (!strchr(tok, '/')) {
		errno = 0;
		g = strtoul(tok, &end, 10);
		if (errno || *end || !isdigit((unsigned char)*tok) ||
		    g > 0xffffffffUL)
			return die(d, "'%s' is not a number", tok);
		d->dst[0] = (u32)g;
		return 1;
	} else {
		for (;;) {
			g = strtoul(p, &end, 10);
			if (end == p || *end != '/' || g > 0xffffffUL ||
			    n == HN_MCAST_MAX)
				return die(d, "'%s' is not G/BITS[,G/BITS...]",
					   tok);
			p = end + 1;
			if (*p == 'c' && p[1] >= '0' && p[1] <= '7') {
				b = HYBRIDNET_MCAST_CODE(p[1] - '0');
				end = p + 2;
			} else {
				b = strtoul(p, &end, 0);
			}
			if (end == p || b > 0xff)
				return die(d, "'%s': BITS is a number below 256 or c0 to c7",
					   tok);
			ent[n++] = HYBRIDNET_MCAST(g, b);
			if (!*end)
				break;
			if (*end != ',')
				return die(d, "'%s' is not G/BITS[,G/BITS...]",
					   tok);
			p = end + 1;
		}
	}
	count = hn_mcast_members(ent, n, src, d->o->cfg.nodes, d->dst, groups,
				 &err);
	if (count < 0)
		return die(d, "multicast refused: %s", err.msg);
	return count;
}

static int pairs(struct driver *d, char **tok, int n, struct hn_pair *p)
{
	unsigned long a, b;
	char *end;
	int i;

	for (i = 0; i < n; i++) {
		a = strtoul(tok[i], &end, 10);
		if (*end != ':' || end == tok[i])
			return die(d, "'%s' is not SRC:DST", tok[i]);
		b = strtoul(end + 1, &end, 10);
		if (*end || a > HN_NONE - 1 || b > HN_NONE - 1)
			return die(d, "'%s' is not SRC:DST", tok[i]);
		p[i].src = (u32)a;
		p[i].dst = (u32)b;
	}
	return 0;
}

/* A refused directive, in the words of the module's refusals. */
static int refused(struct driver *d, const char *what, int rc,
		   const struct hn_err *err)
{
	char buf[256], verb[32];

	snprintf(verb, sizeof(verb), "%s refused", what);
	hn_err_text(buf, sizeof(buf), rc, err, verb);
	return die(d, "%s", buf);
}

static int control(struct driver *d, char **tok, int n)
{
	int (*load)(struct hn_engine *e, const struct hn_slot_cfg *cfg, u32 n,
		    struct hn_err *err);
	struct hn_err err = { 0 };
	struct hn_slot_cfg sc;
	struct hn_pair *p;
	struct hn_grant *g;
	char *end;
	int rc = 0, rv;

	p = calloc(n + 1, sizeof(*p));
	g = calloc(n + 1, sizeof(*g));
	if (!p || !g) {
		rc = die(d, "%s", strerror(ENOMEM));
	} else if ((!strcmp(tok[0], "preload") ||
		    !strcmp(tok[0], "second-level")) && n >= 2) {
		load = tok[0][0] == 'p' ? hn_preload : hn_preload_second;
		sc.slot = (u32)strtoul(tok[1], &end, 10);
		sc.npairs = n - 2;
		sc.pairs = p;
		if (*end)
			rc = die(d, "'%s' is not a slot", tok[1]);
		else if (!(rc = pairs(d, tok + 2, n - 2, p)) &&
			 (rv = load(d->e, &sc, 1, &err)))
			rc = refused(d, tok[0], rv, &err);
	} else if (!strcmp(tok[0], "swap") && n == 1) {
		if ((rv = hn_swap_second(d->e, &err)))
			rc = refused(d, "swap", rv, &err);
	} else if (!strcmp(tok[0], "predict") && n >= 2) {
		if (!(rc = pairs(d, tok + 1, n - 1, p)) &&
		    (rv = hn_predict(d->e, p, n - 1, g, &err)))
			rc = refused(d, "predict", rv, &err);
	} else if (!strcmp(tok[0], "release") && n == 2 &&
		   !strcmp(tok[1], "all")) {
		if ((rv = hn_release_all(d->e, &err)))
			rc = refused(d, "release", rv, &err);
	} else if (!strcmp(tok[0], "release") && n == 3 &&
		   !strcmp(tok[1], "slot")) {
		if ((rv = hn_release_slot(d->e, (u32)strtoul(tok[2], NULL, 10),
					  &err)))
			rc = refused(d, "release", rv, &err);
	} else if (!strcmp(tok[0], "release") && n == 2) {
		if (!(rc = pairs(d, tok + 1, 1, p)) &&
		    (rv = hn_release(d->e, p[0].src, p[0].dst, &err)))
			rc = refused(d, "release", rv, &err);
	} else {
		rc = die(d, "unknown or malformed directive '%s' (see --help)",
			 tok[0]);
	}
	free(p);
	free(g);
	return rc;
}

#define MAXTOK	(2 * HN_MAX_NODES + 8)

static int line(struct driver *d, char *s, u64 *last)
{
	static char *tok[MAXTOK];
	unsigned long long t, v[3];
	char *save, *end;
	int n = 0, i;
	u32 groups;

	if ((end = strchr(s, '#')))
		*end = 0;
	for (tok[n] = strtok_r(s, " \t\r\n", &save); tok[n];
	     tok[n] = strtok_r(NULL, " \t\r\n", &save))
		if (++n == MAXTOK)
			return die(d, "%s", "line too long");
	if (!n)
		return 0;
	errno = 0;
	t = strtoull(tok[0], &end, 10);
	if (errno || *end || !isdigit((unsigned char)tok[0][0]))
		return die(d, "'%s' is not a time in ns", tok[0]);
	if (t < *last)
		return die(d, "%s", "times must not decrease");
	*last = t;
	if (advance(d, t))
		return die(d, "%s", "engine refused a waiting message");
	d->res->events++;
	if (n >= 2 && isalpha((unsigned char)tok[1][0]))
		return control(d, tok + 1, n - 1);
	if (n != 4)
		return die(d, "%s", "want TIME SRC DST BYTES or a directive");
	for (i = 0; i < 3; i += 2) {
		errno = 0;
		v[i] = strtoull(tok[i + 1], &end, 10);
		if (errno || *end || !isdigit((unsigned char)tok[i + 1][0]) ||
		    v[i] > 0xffffffffULL)
			return die(d, "'%s' is not a number", tok[i + 1]);
	}
	i = dests(d, tok[2], (u32)v[0], &groups);
	if (i < 0)
		return -1;
	return send(d, t, (u32)v[0], d->dst, i, groups, (u32)v[2]);
}

/* -s preload=shift: the module's preload=shift, at time 0 */
static int preload_shift(struct driver *d)
{
	struct hn_err err = { 0 };
	u32 s;

	for (s = 0; s < d->o->cfg.k && s + 1 < d->o->cfg.nodes; s++)
		if (hn_preload_shift(d->e, s, &err)) {
			fprintf(stderr, "hnsim: preload=shift: slot %u: %s\n", s,
				err.msg);
			return -1;
		}
	return 0;
}

int trace_run(struct sim_opts *o, struct hn_engine **ep,
	      struct sim_result *res)
{
	struct driver d = { .o = o, .res = res };
	u64 last = 0, limit;
	char *buf = NULL;
	size_t cap = 0;
	FILE *f = stdin;
	int rc;

	d.file = o->trace && strcmp(o->trace, "-") ? o->trace : "<stdin>";
	if (f != stdin || (o->trace && strcmp(o->trace, "-"))) {
		f = fopen(o->trace, "r");
		if (!f) {
			fprintf(stderr, "hnsim: %s: %s\n", o->trace,
				strerror(errno));
			return -1;
		}
	}
	if (o->progress < 0)
		o->progress = isatty(2);
	if (o->cfg.idem_timeout_ns) {
		fprintf(stderr, "hnsim: idem_timeout_ns: the exactly-once protocol carries the device's messages and hnsim idem's; a trace's go once\n");
		rc = -1;
		goto out;
	}
	d.e = hn_create(&o->cfg, &ops, &d, &rc);
	d.head = calloc(o->cfg.nodes, sizeof(*d.head));
	d.tail = calloc(o->cfg.nodes, sizeof(*d.tail));
	d.waiting = calloc(o->cfg.nodes, sizeof(*d.waiting));
	d.retry_at = calloc(o->cfg.nodes, sizeof(*d.retry_at));
	d.dst = calloc(o->cfg.nodes, sizeof(*d.dst));
	d.copy = calloc(o->cfg.nodes, sizeof(*d.copy));
	if (!d.e || !d.head || !d.tail || !d.waiting || !d.retry_at ||
	    !d.dst || !d.copy) {
		fprintf(stderr, "hnsim: cannot create the engine: %s\n",
			strerror(-rc));
		rc = -1;
		goto out;
	}
	d.t0 = wall();
	rc = o->preload ? preload_shift(&d) : 0;
	while (!rc && getline(&buf, &cap, f) >= 0) {
		d.line++;
		rc = line(&d, buf, &last);
		progress(&d, 0);
	}
	/* drain: up to --until, or until nothing is left (1000 s virtual max) */
	limit = o->until ? o->until : hn_now(d.e) + 1000000000000ULL;
	while (!rc && (hn_busy(d.e) || d.blocked) && hn_now(d.e) < limit) {
		if (next_retry(&d) > hn_now(d.e))
			hn_step_until(d.e, next_retry(&d));
		rc = retry(&d);
		progress(&d, 0);
	}
	if (!rc && o->until && hn_now(d.e) < o->until)
		hn_run_until(d.e, o->until);
	res->drained = !hn_busy(d.e) && !d.blocked;
	res->waiting = d.blocked;
	res->wall_s = wall() - d.t0;
	progress(&d, 1);
out:
	while (d.head && d.nwaiting) {
		struct smsg *s = d.head[d.waiting[--d.nwaiting]];

		while (s) {
			struct smsg *n = s->next;

			free(s);
			s = n;
		}
	}
	free(d.head);
	free(d.tail);
	free(d.waiting);
	free(d.retry_at);
	free(d.dst);
	free(d.copy);
	free(buf);
	if (f != stdin)
		fclose(f);
	*ep = d.e;
	return rc;
}
