// SPDX-License-Identifier: GPL-2.0
/*
 * clock.c - the kthread that gives the engine's slots their time.
 *
 * free   While the engine is busy, run slots back to back, hd->budget
 *        steps per hold of hd->lock; sleep when it is idle.  Virtual time
 *        stands still while nothing is in flight.  The engine is also
 *        busy when every message waits for receive-buffer space that only
 *        a reader can free: when no byte has moved for hd->stall_ns of
 *        virtual time (longer than any delay inside the fabric), the
 *        thread counts a stall and sleeps until the next kick (a write,
 *        a read, a close).
 * paced  Virtual time follows wall time: v = v_base + (wall - w_base) *
 *        pace_ppm / 10^6.  An hrtimer wakes the thread every tick_us while
 *        the engine is busy; while it is idle, the timer is off and time
 *        is brought up to date when the next message is written, as far
 *        as one call's work goes (links failing over time are events),
 *        the rest slipping as an overrun's does.  A tick
 *        whose slots cannot be run before the next one is due counts as
 *        an overrun, and virtual time slips rather than racing to catch
 *        up (clock/slip_ns adds up how far).  Steps run more than two
 *        ticks after their virtual time was due in wall time (they
 *        missed their tick: a run catching up after a late wake-up runs
 *        them faster than real time) count as late (clock/late_steps):
 *        time is never compressed without a count.
 *
 * What a step is belongs to hd->stepper: by default the engine's slots
 * (hn_step_until(): the rest of a slot, or the next one, not past the
 * paced target, so a paced engine stops inside a slot and a message
 * written then takes part in it), each with a share of HN_BATCH_WORK of
 * the engine's events, so that a batch of steps is short whatever the
 * slot length and the traffic in flight; another stepper (the in-kernel
 * generator's run driver) may take their place with
 * hn_clock_set_stepper().  An exclusive stepper is run by this thread
 * alone (writers and readers leave the slots to it), keeps the thread
 * busy until it is taken away, and is never taken for stalled: it ends
 * by itself.
 *
 * The working values (batch, work, stall threshold, step bytes, receive
 * batch) derive from the configuration: hn_clock_configure() runs
 * whenever it changes.
 *
 * Service: a sink that cannot take hd->lock where it is (an interface's
 * transmit and NAPI poll run with bottom halves off) asks for its
 * service op with hn_sink_kick(), from any context; the kthread runs it
 * under hd->lock before its next batch, in either mode, and wakes for
 * it.
 */
#include <linux/hrtimer.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/poll.h>
#include <linux/sched.h>

#include "hn_kmod.h"

/*
 * The engine's events one batch of steps may handle: each step gets
 * HN_BATCH_WORK / hd->budget of them (hn_set_work()).  A slot of a second
 * with the queues of 4,096 nodes in flight is millions of events, and the
 * thread must drop hd->lock, yield and see kthread_stop() after every
 * batch.  A step cut short goes on in the next one with the same result.
 */
#define HN_BATCH_WORK	16384

/* Longer than any wait inside the fabric that is not a full receiver. */
static u64 hn_stall_ns(const struct hn_config *c)
{
	u64 slot = max(c->slot_p_ns, c->slot_w_ns);
	u64 usable = min(c->slot_p_ns, c->slot_w_ns) - c->guard_ns;
	u64 cycle = (u64)(c->k + 1) * slot;
	u64 worm, lat;

	worm = c->wh_first_ns +
	       (u64)DIV_ROUND_UP(c->worm_bytes, c->flit_bytes) * c->wh_flit_ns;
	lat = (u64)c->sched_ns + c->setup_ns + 2ULL * c->wire_ns +
	      2ULL * c->nic_ns + c->fabric_ns;
	return (div64_u64(worm, usable) + 3) * cycle + lat;
}

/* Bytes carried by all slots so far. */
static u64 hn_bytes_moved(struct hn_dev *hd)
{
	u64 sum = 0;
	u32 s;

	lockdep_assert_held(&hd->lock);
	hn_stats_global(hd->e, hd->gs);
	for (s = 0; s < hd->gs->nslots; s++)
		sum += hd->gs->slot[s].bytes;
	return sum;
}

/*
 * The default stepper: the engine's slots, and the exactly-once
 * protocol's timers after each (hn_idem_tick()).  When only its timers
 * are left, virtual time goes to the first of them.
 */
static u32 hn_engine_run(struct hn_dev *hd, u32 budget, u64 until,
			 bool *stuck)
{
	struct hn_engine *e = hd->e;
	struct hn_idem *x = hd->idem;
	u64 now, due;
	u32 i;

	*stuck = false;
	for (i = 0; i < budget && hn_fabric_busy(hd) && hn_now(e) < until;
	     i++) {
		now = hn_now(e);
		if (!hn_busy(e)) {
			due = hn_idem_due(x);
			if (due == U64_MAX) {
				hn_idem_tick(x);	/* copies for the NICs */
				break;
			}
			/* never back: a timer may be due already */
			if (due > now)
				hn_run_until(e, min(due, until));
		} else if (hn_step_until(e, until) == now && !hn_cut(e)) {
			/* no slot can run */
			*stuck = true;
			break;
		}
		if (x)
			hn_idem_tick(x);
	}
	return i;
}

static const struct hn_stepper hn_engine_stepper = {
	.run = hn_engine_run,
};

/* Run @st in place of the engine's slots; NULL gives them back. */
void hn_clock_set_stepper(struct hn_dev *hd, const struct hn_stepper *st)
{
	lockdep_assert_held(&hd->lock);
	hd->stepper = st ? st : &hn_engine_stepper;
}

/* Work remains: a message in flight, or an exclusive stepper. */
static bool hn_clock_busy(struct hn_dev *hd)
{
	return hd->stepper->exclusive || hn_fabric_busy(hd);
}

/* Something may have to run: a message was written or space freed. */
void hn_clock_kick(struct hn_dev *hd)
{
	atomic_inc(&hd->kicks);
	if (wq_has_sleeper(&hd->clock_wq))
		wake_up(&hd->clock_wq);
}

/*
 * Ask for @s's service op in the kthread, under hd->lock (any context,
 * bottom halves off too).  Asked again before it runs, it runs once.
 */
void hn_sink_kick(struct hn_sink *s)
{
	struct hn_dev *hd = s->hd;

	if (test_and_set_bit(0, &s->kicked))
		return;
	llist_add(&s->kick, &hd->kicked);
	hn_clock_kick(hd);
}

/*
 * Run the services asked for, in the order asked.  The kthread calls it
 * before each batch; a sink that goes away calls it once nothing can ask
 * for its service any more, so that the list holds it no longer.
 */
void hn_clock_service(struct hn_dev *hd)
{
	struct llist_node *l;
	struct hn_sink *s, *t;

	lockdep_assert_held(&hd->lock);
	l = llist_reverse_order(llist_del_all(&hd->kicked));
	llist_for_each_entry_safe(s, t, l, kick) {
		clear_bit(0, &s->kicked);
		/* a kick from now on comes again */
		smp_mb__after_atomic();
		s->ops->service(s);
	}
}

static u64 hn_paced_target(struct hn_dev *hd)
{
	u64 wall = ktime_get_ns();

	if (wall < hd->w_base)
		return hd->v_base;
	return hd->v_base + mul_u64_u32_div(wall - hd->w_base, hd->pace_ppm,
					    1000000);
}

/* paced mode cannot keep up: virtual time slips behind @target. */
static void hn_paced_slip(struct hn_dev *hd, u64 target)
{
	atomic64_inc(&hd->overruns);
	hd->slip_ns += target - hn_now(hd->e);
	hd->v_base = hn_now(hd->e);
	hd->w_base = ktime_get_ns();
}

/*
 * Bring an idle paced engine's time up to @target, as far as one call's
 * work goes (links failing over time are events too, however dense):
 * the rest slips.
 */
static void hn_paced_idle(struct hn_dev *hd, u64 target)
{
	hn_run_until(hd->e, target);
	if (hn_cut(hd->e))
		hn_paced_slip(hd, target);
}

/* Bring an idle paced engine's time up to date. */
void hn_clock_sync(struct hn_dev *hd)
{
	lockdep_assert_held(&hd->lock);
	if (hd->clock == HN_CLOCK_PACED && !hn_clock_busy(hd))
		hn_paced_idle(hd, hn_paced_target(hd));
}

/*
 * free mode: run up to @budget slots in the caller, as the kthread would,
 * so that a message written to an idle fabric is delivered without waking
 * the kthread (the context switches cost more than the slots of a short
 * message).  Returns true while the engine is still busy: the caller then
 * kicks the kthread, which finishes the work and detects stalls.  In paced
 * mode, or while an exclusive stepper runs, it does nothing and returns
 * true.
 */
bool hn_clock_drive(struct hn_dev *hd, u32 budget)
{
	bool stuck;
	u32 i;

	lockdep_assert_held(&hd->lock);
	if (hd->dead)		/* its kthread is stopped, or stops */
		return false;
	if (hd->clock != HN_CLOCK_FREE || hd->stepper->exclusive)
		return true;
	i = hd->stepper->run(hd, budget, U64_MAX, &stuck);
	hd->steps += i;
	if (i)
		hn_ports_wake_writers(hd);
	return hn_fabric_busy(hd);
}

/* Slots a writer may run itself for a message of @len bytes. */
u32 hn_clock_budget(struct hn_dev *hd, u32 len)
{
	return min_t(u32, 1024, hd->budget + 2 * DIV_ROUND_UP(len,
							      hd->step_bytes));
}

void hn_clock_reset_stats(struct hn_dev *hd)
{
	hd->steps = 0;
	hd->stalls = 0;
	hd->wakeups = 0;
	hd->late_steps = 0;
	hd->slip_ns = 0;
	atomic64_set(&hd->overruns, 0);
}

/*
 * free mode: one batch of steps.  Returns true when the thread may sleep
 * until the next kick: the engine is idle or stalled.
 */
static bool hn_free_batch(struct hn_dev *hd)
{
	struct hn_engine *e = hd->e;
	bool stuck;
	u64 now, bytes;

	lockdep_assert_held(&hd->lock);
	hd->steps += hd->stepper->run(hd, hd->budget, U64_MAX, &stuck);
	hn_ports_wake_writers(hd);
	now = hn_now(e);
	if (hd->stepper->exclusive) {	/* it ends by itself */
		hd->progress_at = now;
		return false;
	}
	if (!hn_busy(e)) {
		/* the protocol's timers alone: each step runs one */
		hd->progress_at = now;
		return !hd->idem || hn_idem_due(hd->idem) == U64_MAX;
	}
	if (!stuck && hd->delivered != hd->progress_msgs) {
		hd->progress_msgs = hd->delivered;
		hd->progress_at = now;
		return false;
	}
	bytes = hn_bytes_moved(hd);
	if (!stuck && bytes != hd->progress_bytes) {
		hd->progress_bytes = bytes;
		hd->progress_at = now;
		return false;
	}
	if (!stuck && now - hd->progress_at < hd->stall_ns)
		return false;
	hd->stalls++;
	return true;
}

static void hn_clock_free(struct hn_dev *hd)
{
	bool sleep = true;
	int seen = 0;

	while (!kthread_should_stop()) {
		if (sleep)
			wait_event_interruptible(hd->clock_wq,
						 kthread_should_stop() ||
						 atomic_read(&hd->kicks) != seen);
		seen = atomic_read(&hd->kicks);
		mutex_lock(&hd->lock);
		hn_clock_service(hd);
		if (sleep) {
			hd->progress_at = hn_now(hd->e);
			hd->wakeups++;
		}
		sleep = hn_free_batch(hd);
		hd->clock_active = !sleep;
		mutex_unlock(&hd->lock);
		cond_resched();
	}
}

/*
 * paced mode: has the engine's next step missed its tick?  A step due
 * at wall time d runs at the first tick after d, so up to a tick and the
 * timer's latency after d; it is late once it is more than two ticks
 * behind.  A batch of steps is judged by its first, the latest of them.
 */
static bool hn_paced_late(struct hn_dev *hd, u64 tick)
{
	u64 v = hn_now(hd->e);

	if (v < hd->v_base)
		return false;
	return ktime_get_ns() > hd->w_base + 2 * tick +
		mul_u64_u32_div(v - hd->v_base, 1000000, hd->pace_ppm);
}

/* paced mode: run the slots due by now.  Returns whether still busy. */
static bool hn_paced_run(struct hn_dev *hd)
{
	u64 t0 = ktime_get_ns(), tick = (u64)hd->tick_us * NSEC_PER_USEC;
	struct hn_engine *e = hd->e;
	bool busy, stuck, late;
	u64 target;
	u32 i;

	mutex_lock(&hd->lock);
	hn_clock_service(hd);
	target = hn_paced_target(hd);
	while (hn_now(e) < target) {
		if (!hn_clock_busy(hd)) {
			hn_paced_idle(hd, target);
			break;
		}
		late = hn_paced_late(hd, tick);
		i = hd->stepper->run(hd, hd->budget, target, &stuck);
		hd->steps += i;
		if (late)
			hd->late_steps += i;
		hn_ports_wake_writers(hd);
		if (ktime_get_ns() - t0 >= tick) {
			/* cannot keep up: let virtual time slip */
			hn_paced_slip(hd, target);
			break;
		}
		mutex_unlock(&hd->lock);
		cond_resched();
		mutex_lock(&hd->lock);
	}
	hn_ports_wake_writers(hd);
	busy = hn_clock_busy(hd);
	mutex_unlock(&hd->lock);
	return busy;
}

static enum hrtimer_restart hn_tick(struct hrtimer *t)
{
	struct hn_dev *hd = container_of(t, struct hn_dev, timer);
	u64 missed;

	if (atomic_xchg(&hd->ticks, 1))
		atomic64_inc(&hd->overruns);
	wake_up(&hd->clock_wq);
	missed = hrtimer_forward_now(t, ns_to_ktime((u64)hd->tick_us * NSEC_PER_USEC));
	if (missed > 1)
		atomic64_add(missed - 1, &hd->overruns);
	return HRTIMER_RESTART;
}

static void hn_clock_paced(struct hn_dev *hd)
{
	bool timer_on = false, busy;
	int seen = 0;

	while (!kthread_should_stop()) {
		wait_event_interruptible(hd->clock_wq,
					 kthread_should_stop() ||
					 atomic_read(&hd->ticks) ||
					 !llist_empty(&hd->kicked) ||
					 (!timer_on &&
					  atomic_read(&hd->kicks) != seen));
		seen = atomic_read(&hd->kicks);
		atomic_set(&hd->ticks, 0);
		busy = hn_paced_run(hd);
		if (!timer_on) {
			mutex_lock(&hd->lock);
			hd->wakeups++;
			mutex_unlock(&hd->lock);
		}
		if (busy && !timer_on) {
			hrtimer_start(&hd->timer, ns_to_ktime((u64)hd->tick_us * NSEC_PER_USEC),
				      HRTIMER_MODE_REL);
			timer_on = true;
		} else if (!busy && timer_on) {
			hrtimer_cancel(&hd->timer);
			atomic_set(&hd->ticks, 0);
			timer_on = false;
		}
	}
	hrtimer_cancel(&hd->timer);
}

static int hn_clock_fn(void *data)
{
	struct hn_dev *hd = data;

	if (hd->clock == HN_CLOCK_FREE)
		hn_clock_free(hd);
	else
		hn_clock_paced(hd);
	return 0;
}

/*
 * Derive the clock's working values from hd->cfg: whenever the
 * configuration changes, and before the kthread starts.
 */
void hn_clock_configure(struct hn_dev *hd)
{
	const struct hn_config *c = &hd->cfg;
	u64 slot_bytes = hn_ns_bytes(c, c->slot_p_ns - c->guard_ns);

	lockdep_assert_held(&hd->lock);
	hd->budget = clamp_t(u32, 16384 / c->nodes, 1, 64);
	hn_set_work(hd->e, HN_BATCH_WORK / hd->budget);
	hd->stall_ns = hn_stall_ns(c);
	hd->step_bytes = clamp_t(u64, slot_bytes, 1, c->worm_bytes);
	hd->rx_batch = max(1U, c->rx_buf_bytes / 4);
}

/* Start the kthread in mode @mode at pace @pace_ppm. */
int hn_clock_start(struct hn_dev *hd, enum hn_clock_mode mode, u32 pace_ppm)
{
	struct task_struct *t;

	mutex_lock(&hd->lock);
	hd->clock = mode;
	hd->pace_ppm = pace_ppm;
	if (!hd->stepper)
		hn_clock_set_stepper(hd, NULL);
	hn_clock_configure(hd);
	hd->v_base = hn_now(hd->e);
	hd->w_base = ktime_get_ns();
	mutex_unlock(&hd->lock);
	hrtimer_init(&hd->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
	hd->timer.function = hn_tick;
	t = kthread_run(hn_clock_fn, hd, "hybridnet/%u", hd->id);
	if (IS_ERR(t))
		return PTR_ERR(t);
	hd->clock_task = t;
	return 0;
}

void hn_clock_stop(struct hn_dev *hd)
{
	if (!hd->clock_task)	/* never started, or stopped */
		return;
	kthread_stop(hd->clock_task);
	hd->clock_task = NULL;
	hrtimer_cancel(&hd->timer);
}

/*
 * Switch the clock mode or pace: the kthread is stopped and started
 * again; traffic in flight carries on.  Not under hd->lock.
 */
int hn_clock_restart(struct hn_dev *hd, enum hn_clock_mode mode,
		     u32 pace_ppm)
{
	hn_clock_stop(hd);
	return hn_clock_start(hd, mode, pace_ppm);
}
