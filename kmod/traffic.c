// SPDX-License-Identifier: GPL-2.0
/*
 * traffic.c - the in-kernel traffic generator, like pktgen: any pattern
 * of kmod/core/traffic.c on the module's virtual nodes, run by the core's
 * run driver (hn_trun_attach()) on the module's own engine, in virtual
 * time, beside the traffic of /dev/hybridnet.  Netlink starts, stops and
 * reads it (nl_traffic.c); hnctl traffic is the command.
 *
 * Time: while a run is active, the clock kthread (clock.c) calls
 * hn_traffic_run() in place of hn_step(): the run driver generates and
 * injects what is due, then gives the engine one slot, or, when nothing
 * is in flight, moves time on to the next generation.  Writers and
 * readers do not run slots themselves meanwhile, so every slot is preceded
 * by the driver's generation step, as in hnsim run, and a run on an idle
 * fabric gives exactly the result hnsim run gives on the same engine
 * configuration and seed.  Free clock: as fast as the CPU allows; paced
 * clock: no further than the paced target.
 *
 * Messages: the driver's own (m->owner == HN_OWNER_TRUN).  main.c's
 * deliver callback hands them here before any port sees them; the driver
 * frees their receive space at once, so they never reach a reader and
 * never hold a receiver's buffer.  The engine counts them like any other
 * message (conservation holds in the statistics).  A run that ends by
 * saturation, limit or TRAFFIC_STOP leaves messages in the fabric: they
 * drain as usual and are still counted here; the next run waits (up to a
 * second) for them before it starts.  Messages still in a source queue
 * were never injected and go with the run.
 *
 * Locking: hd->gen and everything in it is under hd->lock, but for the
 * work item.  START, STOP and GET are serialised by genl_mutex.  The end
 * of a run (found in the kthread, under hd->lock) is announced by a work
 * item, which builds the event under hd->lock and sends it after.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/delay.h>
#include <linux/slab.h>
#include <linux/workqueue.h>

#include "hn_nl.h"
#include "hn_traffic.h"

/* A run's state, and the last run after it ended (hd->lock). */
struct hn_gen {
	struct hn_trun *r;		/* the last run; NULL before the first */
	struct hn_engine *e;		/* the engine it was attached to */
	u32 state;			/* enum hybridnet_traffic */
	bool go;			/* the start event is out: run it */
	const char *why;		/* how it ended */
	struct hn_tcfg t;		/* its configuration */
	struct hn_trun_cfg rc;
	char dist[32];			/* size distribution, as given */
	u64 t0, t_end;			/* the engine's time */
	struct work_struct end_work;	/* HYBRIDNET_EVENT_TRAFFIC at the end */
	struct hn_dev *hd;
};

static void hn_gen_end_work(struct work_struct *w)
{
	struct hn_gen *g = container_of(w, struct hn_gen, end_work);

	hn_nl_traffic_event(g->hd);
}

/* A run is generating (the clock runs it); hd->lock held. */
bool hn_traffic_active(struct hn_dev *hd)
{
	struct hn_gen *g = hd->gen;

	return g && g->state == HYBRIDNET_TRAFFIC_RUNNING && g->go;
}

/* Every message the last run injected has been delivered; hd->lock. */
static bool hn_gen_drained(struct hn_gen *g)
{
	const struct hn_tres *res;

	if (!g->r)
		return true;
	res = hn_trun_result(g->r);
	return res->inj_msgs == res->done_msgs;
}

static void hn_gen_end(struct hn_dev *hd, u32 state, const char *why)
{
	struct hn_gen *g = hd->gen;

	g->state = state;
	g->why = why;
	g->t_end = hn_now(hd->e);
	schedule_work(&g->end_work);
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
 * Run up to @budget of the driver's steps while the engine's time is
 * below @until; returns the steps run.  The clock kthread calls this in
 * place of hn_step() while hn_traffic_active(); hd->lock held.
 */
u32 hn_traffic_run(struct hn_dev *hd, u32 budget, u64 until)
{
	struct hn_gen *g = hd->gen;
	const struct hn_tres *res;
	int rc = 0;
	u32 i;

	if (g->e != hd->e) {
		/* CONFIG_SET made a new engine while the fabric was idle */
		hn_gen_end(hd, HYBRIDNET_TRAFFIC_STOPPED,
			   "stopped: the fabric was rebuilt by a configuration change");
		return 0;
	}
	for (i = 0; i < budget && hn_now(hd->e) < until; i++) {
		rc = hn_trun_step(g->r);
		if (rc)
			break;
	}
	if (rc < 0) {
		hn_gen_end(hd, HYBRIDNET_TRAFFIC_STOPPED, hn_gen_errwhy(rc));
	} else if (rc) {
		res = hn_trun_result(g->r);
		hn_gen_end(hd, res->end == HN_END_DONE ? HYBRIDNET_TRAFFIC_DONE :
			   res->end == HN_END_LIMIT ? HYBRIDNET_TRAFFIC_LIMIT :
			   HYBRIDNET_TRAFFIC_SATURATED, res->why);
	}
	return i;
}

/* main.c's deliver callback: one of the driver's messages arrived. */
void hn_traffic_delivered(struct hn_dev *hd, struct hn_msg *m)
{
	if (WARN_ON_ONCE(!hd->gen || !hd->gen->r))
		return;
	hn_trun_delivered(hd->gen->r, m);
}

/* main.c's reclaim callback: the engine is going, with @m in it. */
void hn_traffic_reclaimed(struct hn_dev *hd, struct hn_msg *m)
{
	if (WARN_ON_ONCE(!hd->gen || !hd->gen->r))
		return;
	hn_trun_reclaimed(hd->gen->r, m);
}

/*
 * Start a run of @t, @rc on the module's engine.  Not under hd->lock;
 * genl_mutex held.  -EBUSY with *@busy saying why; a refusal of the core
 * fills @err.  The run is not stepped until hn_traffic_go(), so that the
 * start event goes out before the end event.
 */
int hn_traffic_start(struct hn_dev *hd, struct hn_tcfg *t,
		     const struct hn_trun_cfg *rc, const char *dist,
		     struct hn_err *err, const char **busy)
{
	struct hn_trun *r, *old;
	struct hn_gen *g;
	bool drained = false;
	int i, rv;

	if (!hd->gen) {
		g = kzalloc(sizeof(*g), GFP_KERNEL);
		if (!g)
			return -ENOMEM;
		g->hd = hd;
		INIT_WORK(&g->end_work, hn_gen_end_work);
		mutex_lock(&hd->lock);
		hd->gen = g;
		mutex_unlock(&hd->lock);
	}
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
		drained = hn_gen_drained(g);
		mutex_unlock(&hd->lock);
	}
	if (!drained) {
		*busy = "the last run's messages are still in the fabric: try again";
		return -EBUSY;
	}

	mutex_lock(&hd->lock);
	t->nodes = hd->cfg.nodes;
	r = hn_trun_attach(hd->e, t, rc, &rv, err);
	if (!r) {
		mutex_unlock(&hd->lock);
		return rv;
	}
	old = g->r;
	g->r = r;
	g->e = hd->e;
	g->state = HYBRIDNET_TRAFFIC_RUNNING;
	g->go = false;
	g->why = NULL;
	g->t = *t;
	g->rc = *rc;
	strscpy(g->dist, dist, sizeof(g->dist));
	g->t0 = hn_now(hd->e);
	g->t_end = g->t0;
	mutex_unlock(&hd->lock);
	hn_trun_destroy(old);	/* drained: nothing of it is in the engine */
	return 0;
}

/* Let the clock run the started run. */
void hn_traffic_go(struct hn_dev *hd)
{
	mutex_lock(&hd->lock);
	if (hd->gen)
		hd->gen->go = true;
	mutex_unlock(&hd->lock);
	hn_clock_kick(hd);
}

/*
 * Stop the run, if one runs; its messages in the fabric drain.  Returns
 * true when it stopped one.  Not under hd->lock.
 */
bool hn_traffic_stop(struct hn_dev *hd, const char *why)
{
	bool stopped = false;

	mutex_lock(&hd->lock);
	if (hd->gen && hd->gen->state == HYBRIDNET_TRAFFIC_RUNNING) {
		hd->gen->state = HYBRIDNET_TRAFFIC_STOPPED;
		hd->gen->why = why;
		hd->gen->t_end = hn_now(hd->e);
		stopped = true;
	}
	mutex_unlock(&hd->lock);
	return stopped;
}

/*
 * What GET and the events report, in one go under hd->lock: fills @s and
 * returns the run's result, or NULL before the first run.
 */
const struct hn_tres *hn_traffic_state(struct hn_dev *hd,
				       struct hn_traffic_state *s)
{
	struct hn_gen *g = hd->gen;

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

/* Module unload, before the netlink family goes: stop, no more events. */
void hn_traffic_exit(struct hn_dev *hd)
{
	if (!hd->gen)
		return;
	hn_traffic_stop(hd, "stopped: the module is unloading");
	cancel_work_sync(&hd->gen->end_work);
}

/* After the engine has handed back the run's messages (hn_destroy()). */
void hn_traffic_free(struct hn_dev *hd)
{
	if (!hd->gen)
		return;
	hn_trun_destroy(hd->gen->r);
	kfree(hd->gen);
	hd->gen = NULL;
}
