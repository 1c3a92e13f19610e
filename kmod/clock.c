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
 *        is brought up to date when the next message is written.  A tick
 *        whose slots cannot be run before the next one is due counts as
 *        an overrun, and virtual time slips rather than racing to catch
 *        up.
 *
 * While the in-kernel generator runs (traffic.c), its run driver takes
 * the place of hn_step() (hn_traffic_run()): free, the thread does not
 * sleep until the run ends; paced, the run goes no further than the
 * paced target, and counts as busy.  Writers and readers then leave the
 * slots to the thread.
 */
#include <linux/hrtimer.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/poll.h>
#include <linux/sched.h>

#include "hn_kmod.h"

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

/* Bytes carried by all slots so far; hd->lock held. */
static u64 hn_bytes_moved(struct hn_dev *hd)
{
	u64 sum = 0;
	u32 s;

	hn_stats_global(hd->e, hd->gs);
	for (s = 0; s < hd->gs->nslots; s++)
		sum += hd->gs->slot[s].bytes;
	return sum;
}

/*
 * Tell writers and pollers waiting for NIC room how much there is now.
 * A node leaves the bitmap once its NIC buffer is empty: nothing it waits
 * for can be bigger.  hd->lock held.
 */
void hn_wake_writers(struct hn_dev *hd)
{
	struct hn_port *p;
	unsigned long n;
	u32 room;

	for_each_set_bit(n, hd->tx_wait, hd->cfg.nodes) {
		p = &hd->ports[n];
		room = hn_nic_room(hd->e, n);
		if (room == p->room)
			continue;
		WRITE_ONCE(p->room, room);
		if (room == hd->cfg.nic_buf_bytes)
			__clear_bit(n, hd->tx_wait);
		wake_up_interruptible_poll(&p->wq, EPOLLOUT | EPOLLWRNORM);
	}
}

/* Something may have to run: a message was written or space freed. */
void hn_clock_kick(struct hn_dev *hd)
{
	atomic_inc(&hd->kicks);
	if (wq_has_sleeper(&hd->clock_wq))
		wake_up(&hd->clock_wq);
}

static u64 hn_paced_target(struct hn_dev *hd)
{
	u64 wall = ktime_get_ns();

	if (wall < hd->w_base)
		return hd->v_base;
	return hd->v_base + mul_u64_u32_div(wall - hd->w_base, hd->pace_ppm,
					    1000000);
}

/* Bring an idle paced engine's time up to date; hd->lock held. */
void hn_clock_sync(struct hn_dev *hd)
{
	if (hd->clock == HN_CLOCK_PACED && !hn_busy(hd->e) &&
	    !hn_traffic_active(hd))
		hn_run_until(hd->e, hn_paced_target(hd));
}

/*
 * free mode: run up to @budget slots in the caller, as the kthread would,
 * so that a message written to an idle fabric is delivered without waking
 * the kthread (the context switches cost more than the slots of a short
 * message).  Returns true while the engine is still busy: the caller then
 * kicks the kthread, which finishes the work and detects stalls.  In paced
 * mode it does nothing and returns true.  hd->lock held.
 */
bool hn_clock_drive(struct hn_dev *hd, u32 budget)
{
	struct hn_engine *e = hd->e;
	u64 now;
	u32 i;

	if (hd->clock != HN_CLOCK_FREE || hn_traffic_active(hd))
		return true;
	for (i = 0; i < budget && hn_busy(e); i++) {
		now = hn_now(e);
		if (hn_step(e) == now)
			break;
	}
	hd->steps += i;
	if (i)
		hn_wake_writers(hd);
	return hn_busy(e);
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
	atomic64_set(&hd->overruns, 0);
}

/*
 * free mode: one batch of steps.  Returns true when the thread may sleep
 * until the next kick: the engine is idle or stalled.  hd->lock held.
 */
static bool hn_free_batch(struct hn_dev *hd)
{
	struct hn_engine *e = hd->e;
	bool stuck = false;
	u64 now, bytes;
	u32 i;

	if (hn_traffic_active(hd)) {
		hd->steps += hn_traffic_run(hd, hd->budget, U64_MAX);
		hn_wake_writers(hd);
		hd->progress_at = hn_now(e);
		return false;
	}
	for (i = 0; i < hd->budget && hn_busy(e); i++) {
		now = hn_now(e);
		if (hn_step(e) == now) {	/* no slot can run */
			stuck = true;
			break;
		}
	}
	hd->steps += i;
	hn_wake_writers(hd);
	if (!hn_busy(e))
		return true;
	now = hn_now(e);
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

/* paced mode: run the slots due by now.  Returns whether still busy. */
static bool hn_paced_run(struct hn_dev *hd)
{
	u64 t0 = ktime_get_ns(), tick = (u64)hd->tick_us * NSEC_PER_USEC;
	struct hn_engine *e = hd->e;
	bool busy;
	u64 target;
	u32 i;

	mutex_lock(&hd->lock);
	target = hn_paced_target(hd);
	while (hn_now(e) < target) {
		if (!hn_busy(e) && !hn_traffic_active(hd)) {
			hn_run_until(e, target);
			break;
		}
		if (hn_traffic_active(hd))
			i = hn_traffic_run(hd, hd->budget, target);
		else
			for (i = 0; i < hd->budget && hn_busy(e) &&
			     hn_now(e) < target; i++)
				hn_step(e);
		hd->steps += i;
		hn_wake_writers(hd);
		if (ktime_get_ns() - t0 >= tick) {
			/* cannot keep up: let virtual time slip */
			atomic64_inc(&hd->overruns);
			hd->v_base = hn_now(e);
			hd->w_base = ktime_get_ns();
			break;
		}
		mutex_unlock(&hd->lock);
		cond_resched();
		mutex_lock(&hd->lock);
	}
	hn_wake_writers(hd);
	busy = hn_busy(e) || hn_traffic_active(hd);
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
 * Derive the clock's working values from hd->cfg; again whenever the
 * configuration changes (hd->lock held, or before the kthread starts).
 */
void hn_clock_configure(struct hn_dev *hd)
{
	const struct hn_config *c = &hd->cfg;
	u64 slot_bytes = hn_ns_bytes(c, c->slot_p_ns - c->guard_ns);

	hd->budget = clamp_t(u32, 16384 / c->nodes, 1, 64);
	hd->stall_ns = hn_stall_ns(c);
	hd->step_bytes = clamp_t(u64, slot_bytes, 1, c->worm_bytes);
	hd->rx_batch = max(1U, c->rx_buf_bytes / 4);
}

int hn_clock_start(struct hn_dev *hd)
{
	struct task_struct *t;

	mutex_lock(&hd->lock);
	hn_clock_configure(hd);
	hd->v_base = hn_now(hd->e);
	hd->w_base = ktime_get_ns();
	mutex_unlock(&hd->lock);
	hrtimer_init(&hd->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
	hd->timer.function = hn_tick;
	t = kthread_run(hn_clock_fn, hd, "hybridnet");
	if (IS_ERR(t))
		return PTR_ERR(t);
	hd->clock_task = t;
	return 0;
}

void hn_clock_stop(struct hn_dev *hd)
{
	if (hd->clock_task)
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
	mutex_lock(&hd->lock);
	hd->clock = mode;
	hd->pace_ppm = pace_ppm;
	mutex_unlock(&hd->lock);
	return hn_clock_start(hd);
}
