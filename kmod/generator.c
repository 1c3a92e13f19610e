// SPDX-License-Identifier: GPL-2.0
/*
 * generator.c - the in-kernel traffic generator, like pktgen: any pattern
 * of kmod/core/pattern.c on the module's virtual nodes, run by the core's
 * run driver (hn_trun_attach()) on the module's own engine, in virtual
 * time, beside the traffic of /dev/hybridnet.  Netlink starts, stops and
 * reads it (nl_traffic.c); hnctl traffic is the command.
 *
 * Time: while a run is active, its stepper takes the place of the
 * engine's in the clock (hn_clock_set_stepper()): the run driver
 * generates and injects what is due, then runs the engine to the next
 * generation (at most the rest of one slot), stopping where a waiting
 * PE's NIC finds room (the sink's room callback).  The
 * stepper is exclusive: writers and readers do not run slots themselves
 * meanwhile, so every slot is preceded by the driver's generation step,
 * as in hnsim run, and a run on an idle fabric gives exactly the result
 * hnsim run gives on the same engine configuration and seed.
 *
 * Messages: the driver's own (m->owner == HN_OWNER_TRUN).  The ports hand
 * them to this file's sink before any port sees them; the driver frees
 * their receive space at once, so they never reach a reader and never
 * hold a receiver's buffer.  The engine counts them like any other
 * message (conservation holds in the statistics).  A run that ends by
 * saturation, limit or TRAFFIC_STOP leaves messages in the fabric: they
 * drain as usual and are still counted here; the next run waits (up to a
 * second) for them before it starts.  Messages still in a source queue
 * were never injected and go with the run.
 *
 * Memory: a run reserves HN_GEN_MEM_MAX of the device's message memory
 * (msg_mem_max_bytes; at most half of it, less if the device's messages
 * hold more) and gives the core that bound (max_mem), which counts what
 * the run's messages hold, the engine's part included, and ends the run
 * as saturated before it would hold more.  Once the run has ended, the
 * reservation shrinks to what its messages still hold, and when the last
 * has left the engine's spare worms and streams go too (hn_trim(); from a
 * work item when a delivery finds it, as the engine is busy then).
 *
 * Locking: hd->gen and everything in it is under hd->lock, but for the
 * work items.  Start, stop and exit are serialised by the caller
 * (netlink's hd->nl_lock).  The end of a run (found in the kthread, under
 * hd->lock) is reported from a work item, through the callback given to
 * hn_gen_start().
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/delay.h>
#include <linux/slab.h>
#include <linux/workqueue.h>

#include "hn_kmod.h"

/* A run's state, and the last run after it ended (hd->lock). */
struct hn_gen {
	struct hn_trun *r;		/* the last run; NULL before the first */
	struct hn_engine *e;		/* the engine it was attached to */
	u32 state;			/* enum hybridnet_traffic */
	bool dead;			/* the fabric is going: no new run */
	const char *why;		/* how it ended */
	struct hn_tcfg t;		/* its configuration */
	struct hn_trun_cfg rc;
	char dist[32];			/* size distribution, as given */
	u64 t0, t_end;			/* the engine's time */
	long reserved;			/* of msg_mem_max_bytes, for r */
	void (*ended)(struct hn_dev *hd);	/* from end_work */
	struct work_struct end_work;
	struct work_struct trim_work;	/* r's last message has left */
	struct hn_sink sink;		/* takes the driver's messages */
	struct hn_dev *hd;
};

static void hn_gen_end_work(struct work_struct *w)
{
	struct hn_gen *g = container_of(w, struct hn_gen, end_work);

	g->ended(g->hd);
}

/* The last run's messages have all left: the engine's spares go too. */
static void hn_gen_trim(struct hn_dev *hd)
{
	struct hn_gen *g = hd->gen;

	lockdep_assert_held(&hd->lock);
	if (g->state != HYBRIDNET_TRAFFIC_RUNNING && g->r && g->e == hd->e &&
	    !hn_trun_result(g->r)->mem_bytes)
		hn_trim(hd->e);		/* unless other messages are in it */
}

static void hn_gen_trim_work(struct work_struct *w)
{
	struct hn_gen *g = container_of(w, struct hn_gen, trim_work);

	mutex_lock(&g->hd->lock);
	hn_gen_trim(g->hd);
	mutex_unlock(&g->hd->lock);
}

/*
 * The run has ended: its reservation shrinks to what its messages still
 * hold, and once they hold nothing the engine's spares go, at once if
 * @now, else from a work item (from a deliver callback: the engine is
 * busy).
 */
static void hn_gen_unreserve(struct hn_dev *hd, bool now)
{
	struct hn_gen *g = hd->gen;
	long held;

	lockdep_assert_held(&hd->lock);
	if (g->state == HYBRIDNET_TRAFFIC_RUNNING || !g->r)
		return;
	held = hn_trun_result(g->r)->mem_bytes;
	if (g->reserved <= held)
		return;
	hn_msg_mem_release(hd, g->reserved - held);
	g->reserved = held;
	if (held || g->dead)
		return;
	if (now)
		hn_gen_trim(hd);
	else
		schedule_work(&g->trim_work);
}

/* Every message the last run injected has been delivered. */
static bool hn_gen_drained(struct hn_dev *hd)
{
	const struct hn_tres *res;

	lockdep_assert_held(&hd->lock);
	if (!hd->gen->r)
		return true;
	res = hn_trun_result(hd->gen->r);
	return res->inj_msgs == res->done_msgs;
}

/* The run is over: give the slots back to the engine, say so. */
static void hn_gen_end(struct hn_dev *hd, u32 state, const char *why)
{
	struct hn_gen *g = hd->gen;

	lockdep_assert_held(&hd->lock);
	g->state = state;
	g->why = why;
	g->t_end = hn_now(hd->e);
	hn_clock_set_stepper(hd, NULL);
	hn_gen_unreserve(hd, true);
}

static const char *hn_gen_errwhy(int rc)
{
	switch (rc) {
	case -ENOMEM:
		return "stopped: out of memory";
	case -EHOSTUNREACH:
		return "stopped: a message had no route (no wormhole slot, no circuit)";
	default:
		return "stopped: the run driver failed";
	}
}

/*
 * The stepper: up to @budget of the driver's steps while the engine's
 * time is below @until; returns the steps run.  An end found here is
 * reported from the work item.
 */
static u32 hn_gen_run(struct hn_dev *hd, u32 budget, u64 until, bool *stuck)
{
	struct hn_gen *g = hd->gen;
	const struct hn_tres *res;
	u32 i, state;
	int rc = 0;

	lockdep_assert_held(&hd->lock);
	*stuck = false;
	if (g->e != hd->e) {
		hn_gen_end(hd, HYBRIDNET_TRAFFIC_STOPPED,
			   "stopped: the fabric was rebuilt by a configuration change");
		schedule_work(&g->end_work);
		return 0;
	}
	for (i = 0; i < budget && hn_now(hd->e) < until; i++) {
		rc = hn_trun_step(g->r);
		if (rc)
			break;
	}
	if (rc < 0) {
		hn_gen_end(hd, HYBRIDNET_TRAFFIC_STOPPED, hn_gen_errwhy(rc));
		schedule_work(&g->end_work);
	} else if (rc) {
		res = hn_trun_result(g->r);
		state = res->end == HN_END_DONE ? HYBRIDNET_TRAFFIC_DONE :
			res->end == HN_END_LIMIT ? HYBRIDNET_TRAFFIC_LIMIT :
			res->end == HN_END_DEADLOCK ?
			HYBRIDNET_TRAFFIC_DEADLOCK : HYBRIDNET_TRAFFIC_SATURATED;
		hn_gen_end(hd, state, res->why);
		schedule_work(&g->end_work);
	}
	return i;
}

static const struct hn_stepper hn_gen_stepper = {
	.run = hn_gen_run,
	.exclusive = true,
};

/* The ports hand the driver's messages here. */
static void hn_gen_delivered(struct hn_sink *s, struct hn_msg *m)
{
	hn_trun_delivered(s->hd->gen->r, m);
	hn_gen_unreserve(s->hd, false);
}

/* The engine is going, with @m in it. */
static void hn_gen_reclaimed(struct hn_sink *s, struct hn_msg *m)
{
	hn_trun_reclaimed(s->hd->gen->r, m);
}

/* A NIC found room: the run's PE there may be waiting for it. */
static bool hn_gen_room(struct hn_sink *s, u32 node, u64 t)
{
	struct hn_gen *g = s->hd->gen;

	return g->r && g->e == s->hd->e && hn_trun_room(g->r, node, t);
}

static const struct hn_sink_ops hn_gen_sink_ops = {
	.deliver = hn_gen_delivered,
	.reclaim = hn_gen_reclaimed,
	.room = hn_gen_room,
};

/* hd->gen, made on the first start. */
static int hn_gen_get(struct hn_dev *hd, void (*ended)(struct hn_dev *hd))
{
	struct hn_gen *g;

	if (!hd->gen) {
		g = kzalloc(sizeof(*g), GFP_KERNEL);
		if (!g)
			return -ENOMEM;
		g->hd = hd;
		g->sink.ops = &hn_gen_sink_ops;
		g->sink.hd = hd;
		INIT_WORK(&g->end_work, hn_gen_end_work);
		INIT_WORK(&g->trim_work, hn_gen_trim_work);
		mutex_lock(&hd->lock);
		hd->gen = g;
		hn_port_set_sink(hd, &g->sink);
		mutex_unlock(&hd->lock);
	}
	hd->gen->ended = ended;
	return 0;
}

/*
 * Start a run of @t, @rc on the module's engine; @ended is called (from a
 * work item) when it ends by itself.  Not under hd->lock.  -EBUSY or
 * -ENOBUFS (no room in msg_mem_max_bytes) with *@busy saying why; a
 * refusal of the core fills @err.  The run is not stepped until
 * hn_gen_go(), so that the start can be announced first.
 */
int hn_gen_start(struct hn_dev *hd, struct hn_tcfg *t,
		 const struct hn_trun_cfg *rc, const char *dist,
		 void (*ended)(struct hn_dev *hd), struct hn_err *err,
		 const char **busy)
{
	struct hn_trun_cfg rcm = *rc;
	struct hn_trun *r, *old;
	long reserved, old_reserved;
	struct hn_gen *g;
	bool drained = false;
	int i, rv;

	rv = hn_gen_get(hd, ended);
	if (rv)
		return rv;
	g = hd->gen;

	mutex_lock(&hd->lock);
	rv = g->state == HYBRIDNET_TRAFFIC_RUNNING;
	mutex_unlock(&hd->lock);
	if (rv) {
		*busy = "the generator is running: stop it first";
		return -EBUSY;
	}
	/* only a running run schedules it, and none runs now */
	flush_work(&g->end_work);
	for (i = 0; i < 50 && !drained; i++) {
		if (i)
			msleep(20);
		mutex_lock(&hd->lock);
		drained = hn_gen_drained(hd);
		mutex_unlock(&hd->lock);
	}
	if (!drained) {
		*busy = "the last run's messages are still in the fabric: try again";
		return -EBUSY;
	}

	reserved = hn_msg_mem_reserve(hd, min(HN_GEN_MEM_MAX,
					      hd->msg_mem_max / 2),
				      HN_GEN_MEM_MIN);
	if (!reserved) {
		*busy =
			"the device's messages hold msg_mem_max_bytes: the generator needs 1 MiB";
		return -ENOBUFS;
	}
	rcm.max_mem = reserved;
	mutex_lock(&hd->lock);
	if (g->dead) {
		mutex_unlock(&hd->lock);
		hn_msg_mem_release(hd, reserved);
		return -ESHUTDOWN;
	}
	t->nodes = hd->cfg.nodes;
	r = hn_trun_attach(hd->e, t, &rcm, &rv, err);
	if (!r) {
		mutex_unlock(&hd->lock);
		hn_msg_mem_release(hd, reserved);
		return rv;
	}
	old = g->r;
	old_reserved = g->reserved;
	g->r = r;
	g->reserved = reserved;
	g->e = hd->e;
	g->state = HYBRIDNET_TRAFFIC_RUNNING;
	g->why = NULL;
	g->t = *t;
	g->rc = rcm;
	strscpy(g->dist, dist, sizeof(g->dist));
	g->t0 = hn_now(hd->e);
	g->t_end = g->t0;
	mutex_unlock(&hd->lock);
	hn_trun_destroy(old);	/* drained: nothing of it is in the engine */
	hn_msg_mem_release(hd, old_reserved);
	return 0;
}

/* Let the clock run the started run. */
void hn_gen_go(struct hn_dev *hd)
{
	mutex_lock(&hd->lock);
	if (hd->gen && hd->gen->state == HYBRIDNET_TRAFFIC_RUNNING)
		hn_clock_set_stepper(hd, &hn_gen_stepper);
	mutex_unlock(&hd->lock);
	hn_clock_kick(hd);
}

/* A run is generating (the clock runs it). */
bool hn_gen_active(struct hn_dev *hd)
{
	lockdep_assert_held(&hd->lock);
	return hd->stepper == &hn_gen_stepper;
}

/*
 * Stop the run, if one runs; its messages in the fabric drain.  Returns
 * true when it stopped one.  Not under hd->lock.
 */
bool hn_gen_stop(struct hn_dev *hd, const char *why)
{
	bool stopped = false;

	mutex_lock(&hd->lock);
	if (hd->gen && hd->gen->state == HYBRIDNET_TRAFFIC_RUNNING) {
		/* its figures as measured so far (the engine is the run's) */
		if (hd->gen->e == hd->e)
			hn_trun_stop(hd->gen->r);
		hn_gen_end(hd, HYBRIDNET_TRAFFIC_STOPPED, why);
		stopped = true;
	}
	mutex_unlock(&hd->lock);
	return stopped;
}

/*
 * What GET and the events report, in one go under hd->lock: fills @s and
 * returns the run's result, or NULL before the first run.
 */
const struct hn_tres *hn_gen_state(struct hn_dev *hd,
				   struct hn_gen_state *s)
{
	struct hn_gen *g = hd->gen;

	lockdep_assert_held(&hd->lock);
	memset(s, 0, sizeof(*s));
	s->state = HYBRIDNET_TRAFFIC_IDLE;
	s->now = hn_now(hd->e);
	if (!g || !g->r)
		return NULL;
	s->state = g->state;
	s->why = g->why;
	s->t = &g->t;
	s->rc = &g->rc;
	s->dist = g->dist;
	s->elapsed = (g->state == HYBRIDNET_TRAFFIC_RUNNING && g->e == hd->e ?
		      s->now : g->t_end) - g->t0;
	return hn_trun_result(g->r);
}

/*
 * The fabric is being deleted (fabrics.c), with hd->nl_lock held: stop
 * the run, refuse new ones, and wait for a pending end report (which
 * finds the fabric dead and sends nothing).
 */
void hn_gen_exit(struct hn_dev *hd)
{
	if (!hd->gen)
		return;
	mutex_lock(&hd->lock);
	hd->gen->dead = true;
	mutex_unlock(&hd->lock);
	hn_gen_stop(hd, "stopped: the fabric was deleted");
	cancel_work_sync(&hd->gen->end_work);
	cancel_work_sync(&hd->gen->trim_work);
}

/* After the engine has handed back the run's messages (hn_destroy()). */
void hn_gen_free(struct hn_dev *hd)
{
	if (!hd->gen)
		return;
	hn_trun_destroy(hd->gen->r);
	hn_msg_mem_release(hd, hd->gen->reserved);
	kfree(hd->gen);
	hd->gen = NULL;
}
