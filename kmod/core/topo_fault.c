// SPDX-License-Identifier: GPL-2.0
/*
 * topo_fault.c - links and switches taken down and brought back up
 * (Woods-Corwin's link and router failures, Zydallis's failed links;
 * docs/model.md "Faults").
 *
 * A link is dead when it is down or a switch at either end of it is.  A
 * switch @sw reaches node @dst when one of the ports the routing function
 * offers there (ops->alts, else ops->route's) crosses a live link to @dst
 * or to a switch that reaches it: the routing function's own routes.
 * When none does, a topology with ops->detour (the GH) may go around: a
 * detour port crossing a live link to a switch one of whose own ports
 * does lead on, two hops where the route took one.  Which switches
 * reach a destination is worked out the first time it is asked after a
 * change, a depth-first walk along the routes that visits each switch
 * once (a detour's second switch, on its own ports only, once per
 * detour), and kept until the next change.  With every link and switch
 * up, t->fault is NULL and nothing here runs.
 */
#include "topo.h"
#include "sched_int.h"		/* HN_WORDS(), hn_test_bit() */

struct hn_frame {
	u32 sw, n, i;			/* a switch, its ports, the next one */
	bool via;			/* came by a detour: its own ports only */
	bool around;			/* port[] holds its detour ports */
	u32 port[HN_TOPO_MAX_ALTS];
};

struct hn_topo_fault {
	u32 links, switches;		/* taken down */
	u32 words;			/* u64 words of nsw bits */
	u64 *down;			/* [link]: taken down */
	u64 *sw_down;			/* [switch] */
	u64 *known;			/* [dst]: its columns below are */
	u64 *seen;			/* [dst * words]: switches looked at */
	u64 *reach;			/* [dst * words]: switches reaching it */
	struct hn_frame *fr;		/* max_hops of them, the walk's */
};

static void fault_free(struct hn_topo_fault *f)
{
	if (!f)
		return;
	hn_free(f->down);
	hn_free(f->sw_down);
	hn_free(f->known);
	hn_free(f->seen);
	hn_free(f->reach);
	hn_free(f->fr);
	hn_free(f);
}

void hn_topo_fault_fini(struct hn_topo *t)
{
	fault_free(t->fault);
	t->fault = NULL;
}

static struct hn_topo_fault *fault_new(const struct hn_topo *t)
{
	struct hn_topo_fault *f = hn_zalloc(sizeof(*f));

	if (!f)
		return NULL;
	f->words = HN_WORDS(t->nsw);
	f->down = hn_zalloc(HN_WORDS(t->nlinks) * sizeof(u64));
	f->sw_down = hn_zalloc(f->words * sizeof(u64));
	f->known = hn_zalloc(HN_WORDS(t->nodes) * sizeof(u64));
	f->seen = hn_zalloc((u64)t->nodes * f->words * sizeof(u64));
	f->reach = hn_zalloc((u64)t->nodes * f->words * sizeof(u64));
	f->fr = hn_zalloc((t->max_hops + 1) * sizeof(*f->fr));
	if (!f->down || !f->sw_down || !f->known || !f->seen || !f->reach ||
	    !f->fr) {
		fault_free(f);
		return NULL;
	}
	return f;
}

/*
 * Take link @id (@sw false) or switch @id down (@down) or bring it up;
 * -EINVAL for one there is not, -ENOMEM.  Every link and switch up
 * again frees t->fault.
 */
int hn_topo_fault_set(struct hn_topo *t, bool sw, u32 id, bool down)
{
	struct hn_topo_fault *f = t->fault;
	u64 *b;

	if (id >= (sw ? t->nsw : t->nlinks))
		return -EINVAL;
	if (!f) {
		if (!down)
			return 0;
		f = fault_new(t);
		if (!f)
			return -ENOMEM;
		t->fault = f;
	}
	b = sw ? f->sw_down : f->down;
	if (hn_test_bit(b, id) != down) {
		if (down)
			hn_set_bit(b, id);
		else
			hn_clear_bit(b, id);
		if (sw)
			f->switches += down ? 1 : -1;
		else
			f->links += down ? 1 : -1;
		memset(f->known, 0, HN_WORDS(t->nodes) * sizeof(u64));
	}
	if (!f->links && !f->switches)
		hn_topo_fault_fini(t);
	return 0;
}

bool hn_topo_link_is_down(const struct hn_topo *t, u32 link)
{
	return t->fault && link < t->nlinks && hn_test_bit(t->fault->down, link);
}

bool hn_topo_switch_is_down(const struct hn_topo *t, u32 sw)
{
	return t->fault && sw < t->nsw && hn_test_bit(t->fault->sw_down, sw);
}

/* Whether the link on (@sw, @port) is dead: down, or an end's switch. */
static bool dead(const struct hn_topo *t, u32 sw, u32 port)
{
	const struct hn_topo_fault *f = t->fault;
	struct hn_tport q = t->ops->peer(t, sw, port);
	u32 l = t->ops->link(t, sw, port);

	return q.sw == HN_NONE || l == HN_NONE || hn_test_bit(f->sw_down, sw) ||
	       hn_test_bit(f->down, l) ||
	       (q.sw != HN_TOPO_NODE && hn_test_bit(f->sw_down, q.sw));
}

/* The ports at @sw its routes to @dst may take into @port: how many. */
static u32 ways(const struct hn_topo *t, u32 sw, u32 dst, u32 *port)
{
	u32 n = 0;

	if (t->ops->alts)
		n = t->ops->alts(t, sw, dst, port, HN_TOPO_MAX_ALTS);
	if (!n) {
		port[0] = t->ops->route(t, sw, dst);
		n = 1;
	}
	return n < HN_TOPO_MAX_ALTS ? n : HN_TOPO_MAX_ALTS;
}

/* Push switch @sw, with those ports; @via: it came by a detour. */
static void push(const struct hn_topo *t, struct hn_frame *fr, u32 sw,
		 u32 dst, bool via)
{
	fr->sw = sw;
	fr->n = ways(t, sw, dst, fr->port);
	fr->i = 0;
	fr->via = via;
	fr->around = false;
}

/* @fr's own ports tried in vain: its detour ports instead, if any. */
static bool around(const struct hn_topo *t, struct hn_frame *fr, u32 dst)
{
	u32 n;

	if (fr->around || fr->via || !t->ops->detour)
		return false;
	n = t->ops->detour(t, fr->sw, dst, HN_NONE, fr->port,
			   HN_TOPO_MAX_ALTS);
	fr->n = n < HN_TOPO_MAX_ALTS ? n : HN_TOPO_MAX_ALTS;
	fr->i = 0;
	fr->around = true;
	return n;
}

/*
 * Whether switch @sw reaches node @dst over live links: a walk along the
 * routes from @sw, each switch marked seen when first met and reaching
 * once a way from it is found.  Routes never loop (a detour too moves
 * on), so a switch seen is either done or on the walk's path, and once
 * done, known for good.  A detour's second switch is walked on its own
 * ports only, as a header that came by the detour takes them, and marked
 * only if it reaches.
 */
static bool reaches(const struct hn_topo *t, u32 sw, u32 dst)
{
	struct hn_topo_fault *f = t->fault;
	u64 *seen = &f->seen[(u64)dst * f->words];
	u64 *live = &f->reach[(u64)dst * f->words];
	struct hn_frame *fr = f->fr, *top;
	struct hn_tport q;
	u32 d = 0, p;

	if (!hn_test_bit(f->known, dst)) {	/* first asked since a change */
		memset(seen, 0, f->words * sizeof(u64));
		memset(live, 0, f->words * sizeof(u64));
		hn_set_bit(f->known, dst);
	}
	if (hn_test_bit(seen, sw))
		return hn_test_bit(live, sw);
	hn_set_bit(seen, sw);
	push(t, &fr[d++], sw, dst, false);
	while (d) {
		top = &fr[d - 1];
		if (top->i == top->n) {
			if (!around(t, top, dst))
				d--;		/* no way on: it does not */
			continue;
		}
		p = top->port[top->i++];
		if (dead(t, top->sw, p))
			continue;
		q = t->ops->peer(t, top->sw, p);
		if (q.sw == HN_TOPO_NODE) {
			if (q.port == dst)
				goto found;
			continue;
		}
		if (top->around) {		/* on by its own ports only */
			if (d <= t->max_hops)
				push(t, &fr[d++], q.sw, dst, true);
			continue;
		}
		if (hn_test_bit(live, q.sw))
			goto found;
		if (hn_test_bit(seen, q.sw) || d > t->max_hops)
			continue;
		hn_set_bit(seen, q.sw);
		push(t, &fr[d++], q.sw, dst, false);
	}
	return false;
found:
	while (d) {
		hn_set_bit(seen, fr[--d].sw);
		hn_set_bit(live, fr[d].sw);
	}
	return true;
}

bool hn_topo_port_live(const struct hn_topo *t, u32 sw, u32 port, u32 dst)
{
	struct hn_tport q;

	if (!t->fault)
		return true;
	if (dead(t, sw, port))
		return false;
	q = t->ops->peer(t, sw, port);
	return q.sw == HN_TOPO_NODE ? q.port == dst : reaches(t, q.sw, dst);
}

bool hn_topo_reach(const struct hn_topo *t, u32 src, u32 dst)
{
	const struct hn_topo_fault *f = t->fault;
	struct hn_tport a;

	if (!f)
		return true;
	if (src >= t->nodes || dst >= t->nodes || hn_test_bit(f->down, src))
		return false;
	a = t->ops->attach(t, src);
	return reaches(t, a.sw, dst);
}

void hn_topo_fault_count(const struct hn_topo *t, u32 *links, u32 *switches)
{
	*links = t->fault ? t->fault->links : 0;
	*switches = t->fault ? t->fault->switches : 0;
}

bool hn_topo_port_dead(const struct hn_topo *t, u32 sw, u32 port)
{
	return t->fault && dead(t, sw, port);
}

/* Whether one of @sw's own ports towards @dst leads on. */
static bool leads_on(const struct hn_topo *t, u32 sw, u32 dst)
{
	u32 port[HN_TOPO_MAX_ALTS], n = ways(t, sw, dst, port), i;

	for (i = 0; i < n; i++)
		if (hn_topo_port_live(t, sw, port[i], dst))
			return true;
	return false;
}

/*
 * The detour ports at @sw live for a header towards @dst that came in by
 * @in: across a live link to a switch one of whose own ports leads on,
 * which it then takes (no second detour); into @port, how many.
 */
static u32 live_detours(const struct hn_topo *t, u32 sw, u32 dst, u32 in,
			u32 *port)
{
	u32 n = t->ops->detour(t, sw, dst, in, port, HN_TOPO_MAX_ALTS), m = 0;
	struct hn_tport q;
	u32 i;

	n = n < HN_TOPO_MAX_ALTS ? n : HN_TOPO_MAX_ALTS;
	for (i = 0; i < n; i++) {
		if (dead(t, sw, port[i]))
			continue;
		q = t->ops->peer(t, sw, port[i]);
		if (q.sw == HN_TOPO_NODE ? q.port == dst : leads_on(t, q.sw, dst))
			port[m++] = port[i];
	}
	return m;
}

u32 hn_topo_live_ports(const struct hn_topo *t, u32 sw, u32 dst, u32 det,
		       const struct hn_upsel_arg *a, u32 *port)
{
	u32 n = 0, m = 0, i, p;

	if (t->ops->alts)
		n = t->ops->alts(t, sw, dst, port, HN_TOPO_MAX_ALTS);
	if (!n) {
		port[0] = det;
		n = 1;
	}
	n = n < HN_TOPO_MAX_ALTS ? n : HN_TOPO_MAX_ALTS;
	for (i = 0; i < n; i++) {
		p = port[i];
		if (!hn_topo_port_live(t, sw, p, dst))
			continue;
		port[m] = port[0];	/* @det to the front */
		port[p == det ? 0 : m] = p;
		m++;
	}
	if (!m && a->detour && t->ops->detour)
		m = live_detours(t, sw, dst, a->in, port);
	return m;
}
