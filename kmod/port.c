// SPDX-License-Identifier: GPL-2.0
/*
 * port.c - the device's side of each virtual node: its port, the messages
 * written to it and delivered from it, the receive queue, the receive
 * credit given back to the fabric, the wake-ups of its owner when the
 * NIC's room changes, and its counters.  Nothing else touches a port's
 * fields.
 *
 * A message written to /dev/hybridnet or sent by an interface is a struct
 * hn_kmsg: the engine's struct hn_msg, then where the payload is (its own
 * buffer, or the interface's skb).  The engine hands it back through
 * hn_port_ops.  Delivered, it goes to a sink (struct hn_sink, the one way
 * messages leave the fabric): the owner of the destination's port, a
 * file (dev.c) or an interface (netdev.c), which queues it on the port's
 * receive queue and wakes its reader; or, a message of another owner
 * (the in-kernel generator's, m->owner != HN_OWNER_DEV), the sink that
 * owner registered with hn_port_set_sink().  One that reaches a port
 * nobody holds is counted in rx_dropped and freed.  Reclaimed when the
 * engine is destroyed, a message goes back to its owner: freed, or to the
 * generator's sink.  Every delivered message, whatever its owner, is
 * shown first to the capture interface when there is one (capture.c):
 * the one place that sees them all.
 *
 * Receive credit: the space of a message read returns to the fabric in
 * batches (hd->rx_batch bytes, set by the clock), and all of it once the
 * queue is empty, so a reader that keeps up costs the engine one update
 * per batch.
 *
 * The receive queue's lock is taken with bottom halves off: an
 * interface's reader is its NAPI poll.
 */
#include <linux/bitmap.h>
#include <linux/mm.h>
#include <linux/netdevice.h>
#include <linux/pid.h>
#include <linux/skbuff.h>
#include <linux/slab.h>

#include "hn_kmod.h"
#include "hn_nl.h"
#include "fab_name.h"

/* Ports for @c->nodes nodes, each unbound with an empty NIC buffer. */
struct hn_port *hn_ports_alloc(const struct hn_config *c)
{
	struct hn_port *ports, *p;
	u32 i;

	ports = kvcalloc(c->nodes, sizeof(*ports), GFP_KERNEL);
	if (!ports)
		return NULL;
	for (i = 0; i < c->nodes; i++) {
		p = &ports[i];
		p->id = i;
		WRITE_ONCE(p->room, c->nic_buf_bytes);
		spin_lock_init(&p->lock);
		INIT_LIST_HEAD(&p->rxq);
	}
	return ports;
}

/* Every NIC buffer is empty again (a new engine of the same size). */
void hn_ports_refill(struct hn_dev *hd)
{
	u32 i;

	lockdep_assert_held(&hd->lock);
	for (i = 0; i < hd->cfg.nodes; i++)
		WRITE_ONCE(hd->ports[i].room, hd->cfg.nic_buf_bytes);
}

/*
 * What a message of @len bytes takes from the memory the device's messages
 * may hold: its header and payload as the allocator rounds them.
 */
long hn_kmsg_size(u32 len)
{
	struct hn_kmsg *km;

	return kmalloc_size_roundup(struct_size(km, buf, len));
}

static void hn_msg_mem_uncharge(struct hn_dev *hd, long size)
{
	atomic_long_sub(size, &hd->msg_mem);
	if (wq_has_sleeper(&hd->mem_wq))
		wake_up(&hd->mem_wq);
}

/*
 * Charge @size if it fits.  A charge that does not fit changes nothing:
 * were it added and taken back, the taking back would have to wake every
 * waiter (one may have found no room because of it), and each waiter's
 * next try would wake the others again, a storm while the memory is full.
 */
static bool hn_msg_mem_charge(struct hn_dev *hd, long size)
{
	long cur = atomic_long_read(&hd->msg_mem);

	do {
		if (cur + size > hd->msg_mem_max)
			return false;
	} while (!atomic_long_try_cmpxchg(&hd->msg_mem, &cur, cur + size));
	return true;
}

/*
 * Up to @want bytes of the device's message memory for the in-kernel
 * generator's run, which counts its own use: what is free, if that is at
 * least @least, else nothing.  Returns the bytes reserved.
 */
long hn_msg_mem_reserve(struct hn_dev *hd, long want, long least)
{
	long cur = atomic_long_read(&hd->msg_mem), take;

	do {
		take = min(want, hd->msg_mem_max - cur);
		if (take < least)
			return 0;
	} while (!atomic_long_try_cmpxchg(&hd->msg_mem, &cur, cur + take));
	return take;
}

/* Give back @size bytes of a reservation: writers may use them again. */
void hn_msg_mem_release(struct hn_dev *hd, long size)
{
	if (size)
		hn_msg_mem_uncharge(hd, size);
}

/* For a sleeper: charge @size, or find the fabric deleted. */
static bool hn_msg_mem_charge_or_dead(struct hn_dev *hd, long size,
				      bool *charged)
{
	*charged = hn_msg_mem_charge(hd, size);
	return *charged || READ_ONCE(hd->dead);
}

/* Would a message of @len bytes fit in the device's message memory now? */
bool hn_msg_mem_room(struct hn_dev *hd, u32 len)
{
	return atomic_long_read(&hd->msg_mem) + hn_kmsg_size(len) <=
	       hd->msg_mem_max;
}

/*
 * @n messages of @len bytes each in @km[], once the device's messages
 * hold less than msg_mem_max_bytes with them all (charged at once, so
 * that two writers never each hold part of what they wait for): waits for
 * others to be read or dropped unless @nonblock.  @from (enum
 * hybridnet_capture_from) says who sends them.  Returns 0, or -EMSGSIZE
 * when they could never fit, -EAGAIN, -ERESTARTSYS, -ENOMEM, or -ENODEV
 * when the fabric was deleted meanwhile.
 */
int hn_kmsgs_alloc(struct hn_dev *hd, u32 len, u32 n, bool nonblock, u8 from,
		   struct hn_kmsg **km)
{
	long size = (long)n * hn_kmsg_size(len);
	bool charged;
	u32 i;

	if (size > hd->msg_mem_max)
		return -EMSGSIZE;
	if (!hn_msg_mem_charge(hd, size)) {
		if (nonblock)
			return -EAGAIN;
		atomic64_inc(&hd->mem_waits);
		if (wait_event_interruptible(hd->mem_wq,
					     hn_msg_mem_charge_or_dead(hd, size,
								       &charged)))
			return -ERESTARTSYS;
		if (!charged)
			return -ENODEV;
	}
	for (i = 0; i < n; i++) {
		km[i] = kvmalloc(struct_size(km[i], buf, len),
				 GFP_KERNEL_ACCOUNT);
		if (!km[i])
			goto nomem;
		memset(km[i], 0, sizeof(*km[i]));
		km[i]->m.owner = HN_OWNER_DEV;
		km[i]->m.len = len;
		km[i]->data = km[i]->buf;
		km[i]->from = from;
	}
	return 0;

nomem:
	while (i--)
		kvfree(km[i]);
	hn_msg_mem_uncharge(hd, size);
	return -ENOMEM;
}

/* One message of @len bytes, as hn_kmsgs_alloc() makes them. */
struct hn_kmsg *hn_kmsg_alloc(struct hn_dev *hd, u32 len, bool nonblock,
			      u8 from)
{
	struct hn_kmsg *km;
	int rc;

	rc = hn_kmsgs_alloc(hd, len, 1, nonblock, from, &km);
	return rc ? ERR_PTR(rc) : km;
}

/*
 * A message that carries @skb, an interface's linear frame, as its
 * payload: charged to the device's message memory as a message of its
 * length, never waiting.  Returns it, or ERR_PTR(-EAGAIN or -ENOMEM).
 */
struct hn_kmsg *hn_kmsg_wrap(struct hn_dev *hd, struct sk_buff *skb)
{
	long size = hn_kmsg_size(skb->len);
	struct hn_kmsg *km;

	if (!hn_msg_mem_charge(hd, size))
		return ERR_PTR(-EAGAIN);
	km = kzalloc(sizeof(*km), GFP_KERNEL);
	if (!km) {
		hn_msg_mem_uncharge(hd, size);
		return ERR_PTR(-ENOMEM);
	}
	km->m.owner = HN_OWNER_DEV;
	km->m.len = skb->len;
	km->skb = skb;
	km->data = skb->data;
	km->from = HYBRIDNET_CAPTURE_FROM_NETDEV;
	return km;
}

/* Free @km but keep the skb it carries, which is returned. */
struct sk_buff *hn_kmsg_unwrap(struct hn_dev *hd, struct hn_kmsg *km)
{
	struct sk_buff *skb = km->skb;

	km->skb = NULL;
	hn_kmsg_free(hd, km);
	return skb;
}

/* Any context: an interface's poll frees what it received. */
void hn_kmsg_free(struct hn_dev *hd, struct hn_kmsg *km)
{
	long size = hn_kmsg_size(km->m.len);

	consume_skb(km->skb);
	kvfree(km);
	hn_msg_mem_uncharge(hd, size);
}

/* @km is lost for @reason: its skb, if any, says so (drop monitor). */
void hn_kmsg_drop(struct hn_dev *hd, struct hn_kmsg *km,
		  enum skb_drop_reason reason)
{
	kfree_skb_reason(km->skb, reason);
	km->skb = NULL;
	hn_kmsg_free(hd, km);
}

/* Messages of another owner go to its sink (the generator's run). */
void hn_port_set_sink(struct hn_dev *hd, struct hn_sink *sink)
{
	lockdep_assert_held(&hd->lock);
	hd->sink = sink;
}

/*
 * @m has arrived (hd->lock held, from hn_step()): to its sink, or counted
 * and freed when nobody holds the destination.  Only hn_consume() may be
 * called back from here.
 */
static void hn_port_arrived(struct hn_dev *hd, struct hn_msg *m)
{
	struct hn_kmsg *km = container_of(m, struct hn_kmsg, m);
	struct hn_port *p = &hd->ports[m->dst];
	struct hn_sink *s;

	lockdep_assert_held(&hd->lock);
	hd->delivered++;
	if (unlikely(hd->cap))
		hn_cap_deliver(hd->cap, m, m->owner == HN_OWNER_DEV ? km : NULL);
	s = m->owner == HN_OWNER_DEV ? p->owner : hd->sink;
	if (likely(s)) {
		s->ops->deliver(s, m);
		return;
	}
	p->rx_dropped++;
	hd->rx_dropped++;
	hn_consume(hd->e, m->dst, hn_kmsg_rx_bytes(km));
	hn_kmsg_drop(hd, km, SKB_DROP_REASON_DEV_READY);
}

/* The engine delivered @m: a copy of the protocol's goes to it. */
static void hn_port_deliver(void *ctx, struct hn_msg *m)
{
	struct hn_dev *hd = ctx;

	if (m->owner == HN_OWNER_IDEM)
		hn_idem_arrived(hd->idem, m);
	else
		hn_port_arrived(hd, m);
}

/* hn_destroy() hands back what is still in flight, to its owner. */
static void hn_port_reclaim(void *ctx, struct hn_msg *m)
{
	struct hn_dev *hd = ctx;

	if (m->owner == HN_OWNER_IDEM)
		hn_idem_reclaimed(hd->idem, m);
	else if (m->owner != HN_OWNER_DEV && hd->sink->ops->reclaim)
		hd->sink->ops->reclaim(hd->sink, m);
	else
		hn_kmsg_free(hd, container_of(m, struct hn_kmsg, m));
}

/*
 * A NIC has more room at @t, inside a slot: the generator's PEs may take
 * it at once (its run stops the engine there).  The owners of the ports
 * hear of it after the step (hn_ports_wake_writers()).
 */
static bool hn_port_room(void *ctx, u32 node, u64 t)
{
	struct hn_dev *hd = ctx;

	lockdep_assert_held(&hd->lock);
	return hd->sink && hd->sink->ops->room &&
	       hd->sink->ops->room(hd->sink, node, t);
}

/*
 * The failures over time took @link down or brought it back: an event,
 * as "hnctl link down|up" sends, for monitors.
 */
static void hn_port_fault(void *ctx, u32 link, bool down, u32 released)
{
	struct hn_dev *hd = ctx;
	struct hn_nl_fault f = { .down = down, .id = link,
				 .released = released,
				 .rerouted = hn_fault_rerouted(hd->e) };
	char name[HN_FAB_NAME_LEN];

	lockdep_assert_held(&hd->lock);
	if (hn_fault_name(hd->e, false, link, name, sizeof(name)))
		name[0] = 0;
	hn_nl_fault_event(hd, &f, name);
}

static const struct hn_ops hn_port_ops = {
	.deliver = hn_port_deliver,
	.reclaim = hn_port_reclaim,
	.room = hn_port_room,
	.fault = hn_port_fault,
};

/*
 * Exactly once: the protocol hands over a file's message, once and in
 * its pair's order; its receive space went back as its copy arrived.
 */
static void hn_port_idem_deliver(void *ctx, struct hn_msg *m)
{
	container_of(m, struct hn_kmsg, m)->credited = 1;
	hn_port_arrived(ctx, m);
}

/* It gave @m up (NULL: it arrived, its ACK never came back). */
static void hn_port_idem_give_up(void *ctx, struct hn_msg *m, u32 src,
				 u32 dst, int err)
{
	struct hn_dev *hd = ctx;
	struct hn_sink *s = hd->ports[src].owner;

	lockdep_assert_held(&hd->lock);
	if (m)
		hn_kmsg_free(hd, container_of(m, struct hn_kmsg, m));
	if (s && s->ops->error)
		s->ops->error(s, err);
}

static void hn_port_idem_reclaim(void *ctx, struct hn_msg *m)
{
	hn_kmsg_free(ctx, container_of(m, struct hn_kmsg, m));
}

static const u8 *hn_port_idem_payload(void *ctx, const struct hn_msg *m)
{
	return container_of(m, struct hn_kmsg, m)->data;
}

static const struct hn_idem_ops hn_port_idem_ops = {
	.deliver = hn_port_idem_deliver,
	.give_up = hn_port_idem_give_up,
	.reclaim = hn_port_idem_reclaim,
	.payload = hn_port_idem_payload,
};

/*
 * A fabric's engine for @c and, when @c asks for exactly once
 * (idem_timeout_ns), the protocol over it for the files' messages.
 */
int hn_port_engine_new(struct hn_dev *hd, const struct hn_config *c,
		       struct hn_engine **e, struct hn_idem **x)
{
	struct hn_idem_cfg ic;
	int rc;

	*x = NULL;
	*e = hn_create(c, &hn_port_ops, hd, &rc);
	if (!*e || !c->idem_timeout_ns)
		return *e ? 0 : rc;
	hn_idem_cfg_of(c, &ic);
	*x = hn_idem_attach(*e, &ic, &hn_port_idem_ops, hd, HN_OWNER_IDEM,
			    &rc);
	if (!*x) {
		hn_destroy(*e);
		*e = NULL;
	}
	return rc;
}

/* The engine first: it hands the protocol back its copies in flight. */
void hn_port_engine_free(struct hn_engine *e, struct hn_idem *x)
{
	hn_destroy(e);
	hn_idem_destroy(x);
}

/* Work remains: a message in flight, or the protocol's records. */
bool hn_fabric_busy(struct hn_dev *hd)
{
	return hn_busy(hd->e) || (hd->idem && hn_idem_busy(hd->idem));
}

/* The protocol's counters, 0 without it (sysfs, netlink) */
const struct hn_idem_stats *hn_dev_idem(const struct hn_dev *hd)
{
	static const struct hn_idem_stats none;

	return hd->idem ? hn_idem_counters(hd->idem) : &none;
}

/*
 * Bind @p to @s, which then owns it: 0, or -EBUSY when another owner
 * holds it or the fabric is being rebuilt.
 */
int hn_port_bind(struct hn_dev *hd, struct hn_port *p, struct hn_sink *s)
{
	lockdep_assert_held(&hd->lock);
	if (p->owner || hd->frozen || hd->dead)
		return -EBUSY;
	p->owner = s;
	WRITE_ONCE(p->room, hn_nic_room(hd->e, p->id));
	/* for the owner's lockless readers (a file's system calls) */
	smp_store_release(&s->port, p);
	return 0;
}

/*
 * Free what @p's queue holds, as lost for @reason, and give its space
 * back, with what was read and not yet returned.  Returns how many
 * messages were freed; *@gave whether space went back.
 */
u32 hn_port_rx_flush(struct hn_dev *hd, struct hn_port *p,
		     enum skb_drop_reason reason, bool *gave)
{
	struct hn_kmsg *km, *tmp;
	LIST_HEAD(drop);
	u32 give, n = 0;

	lockdep_assert_held(&hd->lock);
	spin_lock_bh(&p->lock);
	list_splice_init(&p->rxq, &drop);
	p->rx_count = 0;
	give = p->rx_unreturned;
	p->rx_unreturned = 0;
	spin_unlock_bh(&p->lock);
	list_for_each_entry_safe(km, tmp, &drop, list) {
		give += hn_kmsg_rx_bytes(km);
		n++;
		hn_kmsg_drop(hd, km, reason);
	}
	hn_consume(hd->e, p->id, give);
	*gave = give;
	return n;
}

/*
 * The owner of @p lets go: free what is queued (rx_dropped) and give its
 * space back.  Returns true when space went back to the fabric, which
 * may let it go on.
 */
bool hn_port_unbind(struct hn_dev *hd, struct hn_port *p)
{
	bool gave;
	u32 n;

	lockdep_assert_held(&hd->lock);
	p->owner = NULL;
	__clear_bit(p->id, hd->tx_wait);
	n = hn_port_rx_flush(hd, p, SKB_DROP_REASON_DEV_READY, &gave);
	p->rx_dropped += n;
	hd->rx_dropped += n;
	return gave;
}

/* Queue @km, delivered, for @p's owner (its deliver op). */
void hn_port_rx_push(struct hn_port *p, struct hn_kmsg *km)
{
	spin_lock_bh(&p->lock);
	list_add_tail(&km->list, &p->rxq);
	p->rx_count++;
	spin_unlock_bh(&p->lock);
}

/*
 * The owner of @p does not take @km, delivered to it, for @reason: its
 * space goes back at once (its deliver op).
 */
void hn_port_refuse(struct hn_dev *hd, struct hn_port *p,
		    struct hn_kmsg *km, enum skb_drop_reason reason)
{
	lockdep_assert_held(&hd->lock);
	hn_consume(hd->e, p->id, hn_kmsg_rx_bytes(km));
	hn_kmsg_drop(hd, km, reason);
}

/*
 * The oldest delivered message, left on the queue; NULL when empty.  Only
 * the reader (file->rlock) may use it: only it takes messages off.
 */
struct hn_kmsg *hn_port_peek(struct hn_port *p)
{
	struct hn_kmsg *km;

	spin_lock_bh(&p->lock);
	km = list_first_entry_or_null(&p->rxq, struct hn_kmsg, list);
	spin_unlock_bh(&p->lock);
	return km;
}

bool hn_port_rx_ready(struct hn_port *p)
{
	return hn_port_peek(p);
}

/*
 * @n messages of @bytes, taken off @p's queue, have been read.  Returns
 * the receive space to give back now with hn_port_credit() (0: keep
 * batching).  Call with p->lock held.
 */
static u32 hn_port_read(struct hn_dev *hd, struct hn_port *p, u32 n,
			u32 bytes)
{
	u32 give = 0;

	lockdep_assert_held(&p->lock);
	p->rx_read += n;
	p->rx_unreturned += bytes;
	if (list_empty(&p->rxq) || p->rx_unreturned >= hd->rx_batch) {
		give = p->rx_unreturned;
		p->rx_unreturned = 0;
	}
	return give;
}

/*
 * Take @km, the message hn_port_peek() returned and the reader copied
 * out, off the queue and free it.  Returns the receive space to give
 * back now with hn_port_credit() (0: keep batching).
 */
u32 hn_port_pop(struct hn_dev *hd, struct hn_port *p, struct hn_kmsg *km)
{
	u32 give;

	spin_lock_bh(&p->lock);
	list_del(&km->list);
	p->rx_count--;
	give = hn_port_read(hd, p, 1, hn_kmsg_rx_bytes(km));
	spin_unlock_bh(&p->lock);
	hn_kmsg_free(hd, km);
	return give;
}

/*
 * Up to @max delivered messages, the oldest first, off @p's queue onto
 * @list, for the reader (an interface's poll), which frees them.
 * Returns how many.
 */
u32 hn_port_take(struct hn_port *p, struct list_head *list, u32 max)
{
	struct hn_kmsg *km, *tmp;
	u32 n = 0;

	spin_lock_bh(&p->lock);
	list_for_each_entry_safe(km, tmp, &p->rxq, list) {
		if (n == max)
			break;
		list_move_tail(&km->list, list);
		n++;
	}
	p->rx_count -= n;
	spin_unlock_bh(&p->lock);
	return n;
}

/*
 * The @n messages of @bytes hn_port_take() gave have been read: the
 * receive space to give back now (0: keep batching).
 */
u32 hn_port_taken(struct hn_dev *hd, struct hn_port *p, u32 n, u32 bytes)
{
	u32 give;

	spin_lock_bh(&p->lock);
	give = hn_port_read(hd, p, n, bytes);
	spin_unlock_bh(&p->lock);
	return give;
}

/* Give @bytes of @p's receive buffer back to the fabric. */
void hn_port_credit(struct hn_dev *hd, struct hn_port *p, u32 bytes)
{
	lockdep_assert_held(&hd->lock);
	hn_consume(hd->e, p->id, bytes);
}

/*
 * The owner of @p waits for NIC room: remember the room now, so that
 * hn_ports_wake_writers() tells it (its wake op) when that changes.
 */
void hn_port_want_room(struct hn_dev *hd, struct hn_port *p)
{
	lockdep_assert_held(&hd->lock);
	WRITE_ONCE(p->room, hn_nic_room(hd->e, p->id));
	__set_bit(p->id, hd->tx_wait);
}

/*
 * After the engine's steps: tell the owners waiting for NIC room how
 * much there is now.  A node leaves the bitmap once its NIC buffer is
 * empty: nothing it waits for can be bigger.
 */
void hn_ports_wake_writers(struct hn_dev *hd)
{
	struct hn_port *p;
	unsigned long n;
	u32 room;

	lockdep_assert_held(&hd->lock);
	for_each_set_bit(n, hd->tx_wait, hd->cfg.nodes) {
		p = &hd->ports[n];
		room = hn_nic_room(hd->e, n);
		if (room == p->room)
			continue;
		WRITE_ONCE(p->room, room);
		if (room == hd->cfg.nic_buf_bytes)
			__clear_bit(n, hd->tx_wait);
		if (p->owner && p->owner->ops->wake)
			p->owner->ops->wake(p->owner, room);
	}
}

/* Messages queued at @p, and the payload bytes of the next one. */
void hn_port_rx_queue(struct hn_port *p, u32 *queued, u32 *next_len)
{
	struct hn_kmsg *km;

	spin_lock_bh(&p->lock);
	*queued = p->rx_count;
	km = list_first_entry_or_null(&p->rxq, struct hn_kmsg, list);
	*next_len = km ? km->m.len : 0;
	spin_unlock_bh(&p->lock);
}

/* @p's counters and state. */
void hn_port_stats(struct hn_dev *hd, struct hn_port *p,
		   struct hn_port_stats *ps)
{
	lockdep_assert_held(&hd->lock);
	spin_lock_bh(&p->lock);
	ps->rx_read = p->rx_read;
	ps->rx_queued = p->rx_count;
	spin_unlock_bh(&p->lock);
	ps->rx_dropped = p->rx_dropped;
	ps->nic_room = hn_nic_room(hd->e, p->id);
	ps->bound = p->owner;
}

/*
 * What holds @p, in the words of refusals and of sysfs nodes/N/holder:
 * "a file of pid PID (COMM)", the process that bound it as the caller's
 * pid namespace sees it (0: not in it), "the interface NAME", or
 * "nothing".  Returns the length, as scnprintf().
 */
int hn_port_holder(struct hn_dev *hd, const struct hn_port *p, char *buf,
		   size_t len)
{
	const struct hn_sink *s = p->owner;

	lockdep_assert_held(&hd->lock);
	if (!s)
		return scnprintf(buf, len, "nothing");
	return s->ops->holder(s, buf, len);
}

/*
 * Why the ports cannot go away now, into @buf: a node has a network
 * interface or a file bound to it (the interfaces are named first).
 * Returns false when nothing holds them.
 */
bool hn_ports_busy(struct hn_dev *hd, char *buf, size_t len)
{
	const struct hn_port *file = NULL, *p;
	const char *name;
	int n;
	u32 i;

	lockdep_assert_held(&hd->lock);
	for (i = 0; i < hd->cfg.nodes; i++) {
		p = &hd->ports[i];
		if (!p->owner)
			continue;
		name = p->owner->ops->ifname ? p->owner->ops->ifname(p->owner) :
		       NULL;
		if (name) {
			scnprintf(buf, len,
				  "node %u has the interface %s: delete it first (hnctl netdev del %s)",
				  i, name, name);
			return true;
		}
		if (!file)
			file = p;
	}
	if (!file)
		return false;
	n = scnprintf(buf, len, "node %u is bound to ", file->id);
	n += hn_port_holder(hd, file, buf + n, len - n);
	scnprintf(buf + n, len - n, ": close it first");
	return true;
}

/* Clear the ports' counters and the device's error counters. */
void hn_ports_reset_stats(struct hn_dev *hd)
{
	struct hn_port *p;
	u32 i;

	lockdep_assert_held(&hd->lock);
	hd->rx_dropped = 0;
	for (i = 0; i < hd->cfg.nodes; i++) {
		p = &hd->ports[i];
		p->rx_dropped = 0;
		spin_lock_bh(&p->lock);
		p->rx_read = 0;
		spin_unlock_bh(&p->lock);
	}
	for (i = 0; i < HN_E_NR; i++)
		atomic64_set(&hd->err[i], 0);
	atomic64_set(&hd->tx_waits, 0);
	atomic64_set(&hd->mem_waits, 0);
}

/*
 * The fabric is deleted (hd->dead is set): wake every reader, writer and
 * poller of its ports and every writer waiting for message memory, to
 * find it so.
 */
void hn_ports_wake_all(struct hn_dev *hd)
{
	struct hn_sink *s;
	u32 i;

	mutex_lock(&hd->lock);
	for (i = 0; hd->ports && i < hd->cfg.nodes; i++) {
		s = hd->ports[i].owner;
		if (s && s->ops->gone)
			s->ops->gone(s);
	}
	mutex_unlock(&hd->lock);
	wake_up_all(&hd->mem_wq);
}
