// SPDX-License-Identifier: GPL-2.0
/*
 * fault.c - links and switches of a running fabric taken down and brought
 * back up, one by one or a seeded random set of links at once
 * (docs/model.md "Faults").  Which links are dead and which destinations
 * a switch still reaches is the topology's (topo_fault.c); this file
 * makes the engine see a change: every node looks again at once, its
 * streams routed afresh.  A message whose destination no route reaches
 * any more waits at its source (the engines skip its stream) until one
 * does; hn_inject() refuses new ones with -EHOSTUNREACH.
 */
#include "engine.h"

static int fail(struct hn_err *err, int rc, const char *msg, u32 id)
{
	return hn_fail(err, rc, msg, HN_NONE, HN_NONE, id);
}

/* Every node routes its streams afresh and looks again now. */
static void look_again(struct hn_engine *e)
{
	struct hn_stream *st;
	u32 u;

	for (u = 0; u < e->cfg.nodes; u++) {
		st = e->node[u].ring;
		if (!st)
			continue;
		do {
			st->port = 0;
			st = st->rr_next;
		} while (st != e->node[u].ring);
		if (e->in_slot && e->cur == e->cfg.k)
			e->w_arm(e, u, e->now);
	}
}

static int check(const struct hn_engine *e, struct hn_err *err)
{
	if (e->cfg.k)
		return fail(err, -EOPNOTSUPP,
			    "links and switches fail only with no circuit slots (k 0): circuits do not avoid them yet",
			    HN_NONE);
	return 0;
}

int hn_set_fault(struct hn_engine *e, bool sw, u32 id, bool down,
		 struct hn_err *err)
{
	int rc = check(e, err);

	if (rc)
		return rc;
	rc = hn_topo_fault_set(&e->topo, sw, id, down);
	if (rc == -EINVAL)
		return fail(err, rc, sw ? "no such switch" : "no such link",
			    id);
	if (rc)
		return fail(err, rc, "no memory for the fault tables", id);
	look_again(e);
	return 0;
}

/*
 * Take down @count links between switches, chosen at random by @seed
 * among those still up.  -EINVAL when fewer are up; nothing changes on
 * an error.
 */
int hn_set_fault_random(struct hn_engine *e, u32 count, u64 seed,
			struct hn_err *err)
{
	struct hn_topo *t = &e->topo;
	u32 up = 0, l, k;
	int rc = check(e, err);

	if (rc)
		return rc;
	for (l = t->nodes; l < t->nlinks; l++)
		up += !hn_topo_link_is_down(t, l);
	if (count > up)
		return fail(err, -EINVAL,
			    "more links to take down than links between switches up",
			    up);
	for (; count; count--, up--) {
		k = hn_rand_below(&seed, up);
		for (l = t->nodes; l < t->nlinks; l++)
			if (!hn_topo_link_is_down(t, l) && !k--)
				break;
		rc = hn_topo_fault_set(t, false, l, true);
		if (rc)
			return fail(err, rc, "no memory for the fault tables",
				    l);
		hn_resched();
	}
	look_again(e);
	return 0;
}

u32 hn_link_at(const struct hn_engine *e, u32 sw, u32 port)
{
	const struct hn_topo *t = &e->topo;

	if (sw == HN_NONE)
		return port < t->nodes ? port : HN_NONE;
	if (sw >= t->nsw || port >= t->radix)
		return HN_NONE;
	return t->ops->link(t, sw, port);
}

bool hn_link_down(const struct hn_engine *e, u32 link)
{
	return hn_topo_link_is_down(&e->topo, link);
}

bool hn_switch_down(const struct hn_engine *e, u32 sw)
{
	return hn_topo_switch_is_down(&e->topo, sw);
}

void hn_faults(const struct hn_engine *e, u32 *links, u32 *switches)
{
	hn_topo_fault_count(&e->topo, links, switches);
}
