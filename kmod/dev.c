// SPDX-License-Identifier: GPL-2.0
/*
 * dev.c - /dev/hybridnet, one misc device for every fabric, one open file
 * per virtual node.
 *
 * ioctl(HYBRIDNET_IOC_BIND2, &bind) binds the file to a node of a fabric
 * of the caller's network namespace, once; ioctl(HYBRIDNET_IOC_BIND,
 * &node) to a node of the first fabric there.  ENODEV when the namespace
 * has no such fabric (or none), EINVAL when node >= nodes (or bind's
 * flags or __reserved are not 0), EBUSY when another file or an
 * interface holds the node (sysfs nodes/N/holder names it: the file keeps
 * the pid and name of the process that bound it), the fabric is being
 * rebuilt, or this file is bound to another node (binding again to the
 * same node succeeds).  The bound file holds a reference to its fabric
 * (fabrics.c): once the fabric is deleted, by the end of its namespace,
 * every call but close() fails with ENODEV, and sleepers wake to it.
 * ioctl(HYBRIDNET_IOC_INFO, &info) describes the fabric and the bound node;
 * an unbound file, the first fabric of the caller's namespace.
 *
 * The errors of sysfs errors/ are counted on the file's fabric, or, for
 * an unbound file, on the first fabric of the caller's namespace.
 *
 * write() sends one message: struct hybridnet_msg_hdr, then hdr.len bytes
 * (a multicast, HYBRIDNET_MSG_MULTICAST: hdr.dst entries between them,
 * each member a copy of the message, all or none: mcast.c).
 * Checks, in this order: unbound ENOTCONN; shorter than the header
 * EINVAL; header unreadable EFAULT; flags other than a priority
 * (HYBRIDNET_MSG_PRIO), a switching (HYBRIDNET_MSG_SWITCHING) and
 * multicast EINVAL; priority 15 without CAP_NET_ADMIN over the fabric's
 * network namespace EPERM; a multicast's entries not 1 to
 * HYBRIDNET_MCAST_MAX EINVAL; hdr.len != write size - header - entries
 * EINVAL; hdr.len == 0 EINVAL; hdr.len > max_msg_bytes EMSGSIZE; dst >=
 * nodes EINVAL; a switching the fabric cannot carry the message by EINVAL
 * (counted with the flags); entries unreadable EFAULT, or naming no
 * member, a node >= nodes or a group twice EINVAL; payload unreadable
 * EFAULT.  Each failure
 * counts in sysfs errors/ and changes nothing else.  A full NIC buffer
 * blocks the writer until the message fits (O_NONBLOCK: EAGAIN; a signal:
 * ERESTARTSYS); the engine counts each refusal in tx_full.  So does the
 * device's whole message memory (msg_mem_max_bytes, headers included:
 * sysfs stats/msg_mem_bytes), until messages are read or dropped; this
 * bounds what writers can pin however large the buffers are.  With the
 * pure TDM policy, a destination with no circuit gives EHOSTUNREACH.
 *
 * read() returns one delivered message: the header with every field
 * filled in, then the payload.  A buffer shorter than header + len gives
 * EMSGSIZE and the message stays queued (HYBRIDNET_IOC_INFO tells its
 * length; a buffer of header + max_msg_bytes always suffices); nothing is
 * ever truncated.  Unbound ENOTCONN; empty queue with O_NONBLOCK EAGAIN.
 * The space of messages read returns to the fabric's receive buffer in
 * batches of a quarter of it, and entirely whenever the queue empties,
 * so a reader that keeps up costs the fabric one update per message and
 * one that lags behind does not wake everything for every message.
 *
 * poll(): EPOLLIN when a message is queued; EPOLLOUT when the NIC buffer
 * and the message memory have room for a message as long as the last one
 * a write() was refused for (1 byte after a successful write); EPOLLERR
 * when unbound.
 *
 * close() unbinds: messages queued for the node, and those that reach it
 * later while nobody is bound, are freed and counted in rx_dropped.
 */
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/mm.h>
#include <linux/nsproxy.h>
#include <linux/pid.h>
#include <linux/poll.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/uio.h>
#include <net/net_namespace.h>

#include "hn_kmod.h"

static struct hn_port *hn_file_port(struct hn_file *f)
{
	/* pairs with smp_store_release() in hn_port_bind() */
	return smp_load_acquire(&f->sink.port);
}

/* The file's sink: a delivered message waits on the port for read(). */
static void hn_file_deliver(struct hn_sink *s, struct hn_msg *m)
{
	struct hn_file *f = container_of(s, struct hn_file, sink);

	hn_port_rx_push(s->port, container_of(m, struct hn_kmsg, m));
	wake_up_interruptible_poll(&f->wq, EPOLLIN | EPOLLRDNORM);
}

/* The NIC's room changed: writers and pollers waiting for it look. */
static void hn_file_wake(struct hn_sink *s, u32 room)
{
	struct hn_file *f = container_of(s, struct hn_file, sink);

	wake_up_interruptible_poll(&f->wq, EPOLLOUT | EPOLLWRNORM);
}

static int hn_file_holder(const struct hn_sink *s, char *buf, size_t len)
{
	const struct hn_file *f = container_of(s, struct hn_file, sink);

	return scnprintf(buf, len, "a file of pid %d (%s)", pid_vnr(f->pid),
			 f->comm);
}

/* The fabric is deleted: every sleeper looks, to find it so. */
static void hn_file_gone(struct hn_sink *s)
{
	struct hn_file *f = container_of(s, struct hn_file, sink);

	wake_up_interruptible_poll(&f->wq, EPOLLIN | EPOLLOUT | EPOLLERR |
				   EPOLLHUP);
}

/*
 * Exactly once gave up a message this file wrote: its next write() or
 * read() fails with @err (-ETIMEDOUT), once, and poll() says EPOLLERR.
 */
static void hn_file_error(struct hn_sink *s, int err)
{
	struct hn_file *f = container_of(s, struct hn_file, sink);

	WRITE_ONCE(f->err, err);
	wake_up_interruptible_poll(&f->wq, EPOLLERR);
}

/* The error the protocol left for the file, taken: 0 if none. */
static int hn_file_take_err(struct hn_file *f)
{
	int err = xchg(&f->err, 0);

	if (err)
		hn_count_err(f->sink.hd, HN_E_GIVEN_UP);
	return err;
}

static const struct hn_sink_ops hn_file_sink_ops = {
	.deliver = hn_file_deliver,
	.wake = hn_file_wake,
	.gone = hn_file_gone,
	.holder = hn_file_holder,
	.error = hn_file_error,
};

/* The caller's network namespace, where it finds its fabrics. */
static struct net *hn_dev_net(void)
{
	return current->nsproxy->net_ns;
}

/*
 * Count @k on @f's fabric; an unbound file's, on the first fabric of the
 * caller's namespace, if it has one.
 */
static void hn_file_err(struct hn_file *f, enum hn_err_kind k)
{
	struct hn_dev *hd;

	if (hn_file_port(f)) {
		hn_count_err(f->sink.hd, k);
		return;
	}
	hd = hn_fabric_get(hn_dev_net(), HN_FABRIC_FIRST);
	if (hd)
		hn_count_err(hd, k);
	hn_fabric_put(hd);
}

static int hn_dev_open(struct inode *inode, struct file *file)
{
	struct hn_file *f;

	f = kzalloc(sizeof(*f), GFP_KERNEL);
	if (!f)
		return -ENOMEM;
	f->sink.ops = &hn_file_sink_ops;
	f->tx_want = 1;
	init_waitqueue_head(&f->wq);
	mutex_init(&f->rlock);
	file->private_data = f;
	return stream_open(inode, file);
}

static int hn_dev_release(struct inode *inode, struct file *file)
{
	struct hn_file *f = file->private_data;
	struct hn_dev *hd = f->sink.hd;
	bool gave;

	if (f->sink.port) {
		mutex_lock(&hd->lock);
		gave = hn_port_unbind(hd, f->sink.port);
		mutex_unlock(&hd->lock);
		if (gave)	/* the space may unblock the fabric */
			hn_clock_kick(hd);
		hn_fabric_put(hd);
	}
	put_pid(f->pid);
	mutex_destroy(&f->rlock);
	kfree(f);
	return 0;
}

/* Bind @f to @node of fabric @id of the caller's namespace. */
static long hn_dev_bind(struct hn_file *f, u32 id, u32 node)
{
	bool bound = false;
	struct hn_dev *hd;
	long rc = 0;

	hd = hn_fabric_get(hn_dev_net(), id);
	if (!hd)
		return -ENODEV;
	mutex_lock(&f->rlock);		/* one bind of @f at a time */
	mutex_lock(&hd->lock);
	if (hd->dead) {
		rc = -ENODEV;
	} else if (node >= hd->cfg.nodes) {
		hn_count_err(hd, HN_E_BIND_RANGE);
		rc = -EINVAL;
	} else if (f->sink.port) {
		/* a node of another fabric is another port too */
		if (f->sink.port != &hd->ports[node])
			rc = -EBUSY;
	} else {
		/* who binds it, for hn_port_holder() */
		put_pid(f->pid);
		f->pid = get_pid(task_tgid(current));
		get_task_comm(f->comm, current);
		/* published with the port, which keeps the reference */
		f->sink.hd = hd;
		rc = hn_port_bind(hd, &hd->ports[node], &f->sink);
		bound = !rc;
	}
	if (rc == -EBUSY)
		hn_count_err(hd, HN_E_BIND_BUSY);
	mutex_unlock(&hd->lock);
	mutex_unlock(&f->rlock);
	if (!bound)
		hn_fabric_put(hd);
	return rc;
}

static long hn_dev_bind1(struct hn_file *f, u32 __user *arg)
{
	u32 node;

	if (get_user(node, arg)) {
		hn_file_err(f, HN_E_IOCTL_FAULT);
		return -EFAULT;
	}
	return hn_dev_bind(f, HN_FABRIC_FIRST, node);
}

static long hn_dev_bind2(struct hn_file *f, struct hybridnet_bind __user *arg)
{
	struct hybridnet_bind b;

	if (copy_from_user(&b, arg, sizeof(b))) {
		hn_file_err(f, HN_E_IOCTL_FAULT);
		return -EFAULT;
	}
	if (b.flags || memchr_inv(b.__reserved, 0, sizeof(b.__reserved))) {
		hn_file_err(f, HN_E_BIND_RANGE);
		return -EINVAL;
	}
	return hn_dev_bind(f, b.fabric, b.node);
}

static long hn_dev_info(struct hn_file *f,
			struct hybridnet_info __user *arg)
{
	struct hn_port *p = hn_file_port(f);
	struct hybridnet_info info = { };
	struct hn_dev *hd;
	long rc = 0;

	hd = p ? f->sink.hd : hn_fabric_get(hn_dev_net(), HN_FABRIC_FIRST);
	if (!hd)
		return -ENODEV;
	mutex_lock(&hd->lock);
	if (hd->dead) {
		rc = -ENODEV;
	} else {
		hn_clock_sync(hd);
		info.fabric = hd->id;
		info.nodes = hd->cfg.nodes;
		info.slots = hd->cfg.k;
		info.max_msg = hd->cfg.max_msg_bytes;
		info.node = p ? p->id : HYBRIDNET_UNBOUND;
		info.now = hn_now(hd->e);
		if (p) {
			info.nic_room = hn_nic_room(hd->e, p->id);
			hn_port_rx_queue(p, &info.rx_queued,
					 &info.rx_next_len);
		}
	}
	mutex_unlock(&hd->lock);
	if (!rc && copy_to_user(arg, &info, sizeof(info))) {
		hn_count_err(hd, HN_E_IOCTL_FAULT);
		rc = -EFAULT;
	}
	if (!p)
		hn_fabric_put(hd);
	return rc;
}

static long hn_dev_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct hn_file *f = file->private_data;

	switch (cmd) {
	case HYBRIDNET_IOC_BIND:
		return hn_dev_bind1(f, (u32 __user *)arg);
	case HYBRIDNET_IOC_BIND2:
		return hn_dev_bind2(f, (struct hybridnet_bind __user *)arg);
	case HYBRIDNET_IOC_INFO:
		return hn_dev_info(f, (struct hybridnet_info __user *)arg);
	default:
		hn_file_err(f, HN_E_IOCTL_UNKNOWN);
		return -ENOTTY;
	}
}

static bool hn_dev_nonblock(struct kiocb *iocb)
{
	return (iocb->ki_flags & IOCB_NOWAIT) ||
	       (iocb->ki_filp->f_flags & O_NONBLOCK);
}

/* A header's switching of its own (HYBRIDNET_MSG_SWITCHING): hn_msg.sw */
static u8 hn_dev_msg_sw(u32 flags)
{
	return (flags & HYBRIDNET_MSG_SWITCHING) >>
	       HYBRIDNET_MSG_SWITCHING_SHIFT;
}

/* Validate a message header; returns 0 or the errno to give back. */
static int hn_dev_check_hdr(struct hn_dev *hd,
			    const struct hybridnet_msg_hdr *h, size_t total)
{
	struct hn_msg m = { .len = h->len, .sw = hn_dev_msg_sw(h->flags) };
	bool mcast = h->flags & HYBRIDNET_MSG_MULTICAST;
	size_t ents = mcast ? (size_t)h->dst * sizeof(u32) : 0;

	if (h->flags & ~(HYBRIDNET_MSG_PRIO | HYBRIDNET_MSG_SWITCHING |
			 HYBRIDNET_MSG_MULTICAST)) {
		hn_count_err(hd, HN_E_WRITE_FLAGS);
		return -EINVAL;
	}
	if ((h->flags & HYBRIDNET_MSG_PRIO) == HYBRIDNET_PRIO_RESERVED &&
	    !ns_capable(hd->net->user_ns, CAP_NET_ADMIN)) {
		hn_count_err(hd, HN_E_WRITE_PRIO);
		return -EPERM;
	}
	if (mcast && (!h->dst || h->dst > HYBRIDNET_MCAST_MAX)) {
		hn_count_err(hd, HN_E_WRITE_MCAST);
		return -EINVAL;
	}
	if (total - sizeof(*h) < ents || h->len != total - sizeof(*h) - ents) {
		hn_count_err(hd, HN_E_WRITE_LEN);
		return -EINVAL;
	}
	if (!h->len) {
		hn_count_err(hd, HN_E_WRITE_EMPTY);
		return -EINVAL;
	}
	if (h->len > hd->cfg.max_msg_bytes) {
		hn_count_err(hd, HN_E_WRITE_TOO_BIG);
		return -EMSGSIZE;
	}
	if (!mcast && h->dst >= hd->cfg.nodes) {
		hn_count_err(hd, HN_E_WRITE_DST);
		return -EINVAL;
	}
	if (m.sw && hn_flow_bad(&hd->cfg, &m)) {
		hn_count_err(hd, HN_E_WRITE_FLAGS);
		return -EINVAL;
	}
	return 0;
}

/* The protocol of exactly once takes @n copies: how many it took. */
static u32 hn_dev_idem_send(struct hn_dev *hd, struct hn_msg **m, u32 n,
			    int *rc)
{
	u32 i;

	for (i = 0; i < n; i++) {
		*rc = hn_idem_send(hd->idem, m[i]);
		if (*rc)
			break;
	}
	if (i)
		hn_idem_tick(hd->idem);
	return i;
}

/*
 * Hand the NIC the @n copies @m of a message (@groups: a multicast's,
 * else 0), all or none, waiting for room unless @nonblock.  Returns 0 or
 * the errno, with the copies the NIC took in *@sent (only ENOMEM leaves
 * some taken and some not).
 */
static int hn_dev_send(struct hn_file *f, struct hn_port *p,
		       struct hn_msg **m, u32 n, u32 groups, bool nonblock,
		       u32 *sent)
{
	struct hn_dev *hd = f->sink.hd;
	u32 len = min_t(u64, (u64)m[0]->len * n, U32_MAX), i;
	bool busy = false, was_busy;
	int rc;

	for (;;) {
		mutex_lock(&hd->lock);
		if (hd->dead) {
			mutex_unlock(&hd->lock);
			return -ENODEV;
		}
		hn_clock_sync(hd);
		for (i = 0; i < n; i++)
			m[i]->t_inject = hn_now(hd->e);
		was_busy = hn_fabric_busy(hd);
		if (hd->idem) {
			/* exactly once: the protocol's queues take them */
			*sent = hn_dev_idem_send(hd, m, n, &rc);
			if (groups && *sent)
				hn_mcast_count(hd->e, *sent, groups);
		} else if (groups) {
			rc = hn_inject_mcast(hd->e, m, n, groups, sent, NULL);
		} else {
			rc = hn_inject(hd->e, m[0], NULL);
			*sent = !rc;
		}
		if (!rc) {
			/*
			 * An idle fabric: carry the message now, in this
			 * context.  A busy one: the kthread is at work and
			 * batches better than writers taking turns.
			 */
			busy = was_busy ||
			       hn_clock_drive(hd, hn_clock_budget(hd, len));
		} else if (rc == -EAGAIN) {
			/* hn_ports_wake_writers() tells when room changes */
			hn_port_want_room(hd, p);
		}
		mutex_unlock(&hd->lock);
		if (rc != -EAGAIN)
			break;
		WRITE_ONCE(f->tx_want, len);
		if (nonblock) {
			hn_count_err(hd, HN_E_WRITE_AGAIN);
			return -EAGAIN;
		}
		atomic64_inc(&hd->tx_waits);
		if (wait_event_interruptible(f->wq, READ_ONCE(p->room) >= len ||
					     READ_ONCE(hd->dead))) {
			hn_count_err(hd, HN_E_WRITE_INTR);
			return -ERESTARTSYS;
		}
	}
	if (rc == -EHOSTUNREACH) {
		hn_count_err(hd, HN_E_WRITE_UNREACH);
		return rc;
	}
	if (rc == -EDEADLK) {
		hn_count_err(hd, HN_E_WRITE_DEADLOCK);
		return rc;
	}
	if (rc == -EMSGSIZE) {
		hn_count_err(hd, HN_E_WRITE_TOO_BIG);
		return rc;
	}
	if (rc) {
		hn_count_err(hd, HN_E_WRITE_NOMEM);
		return rc;
	}
	WRITE_ONCE(f->tx_want, 1);
	if (busy)
		hn_clock_kick(hd);
	return 0;
}

/*
 * A multicast's members, from its @nent entries that follow the header
 * in @from, into @dst: how many, with the groups they fill in *@groups,
 * or the errno.
 */
static int hn_dev_members(struct hn_dev *hd, struct hn_port *p, u32 nent,
			  struct iov_iter *from, u32 *dst, u32 *groups)
{
	u32 *ent;
	int n;

	ent = kmalloc_array(nent, sizeof(*ent), GFP_KERNEL);
	if (!ent)
		n = -ENOMEM;
	else if (!copy_from_iter_full(ent, nent * sizeof(*ent), from))
		n = -EFAULT;
	else
		n = hn_mcast_members(ent, nent, p->id, hd->cfg.nodes, dst,
				     groups, NULL);
	kfree(ent);
	if (n < 0)
		hn_count_err(hd, n == -ENOMEM ? HN_E_WRITE_NOMEM :
			     n == -EFAULT ? HN_E_WRITE_FAULT :
			     HN_E_WRITE_MCAST);
	return n;
}

/* The errno of hn_kmsgs_alloc(), counted. */
static int hn_dev_alloc_err(struct hn_file *f, u32 want, int rc)
{
	struct hn_dev *hd = f->sink.hd;

	if (rc == -EAGAIN)
		WRITE_ONCE(f->tx_want, want);
	if (rc != -ENODEV)
		hn_count_err(hd, rc == -EAGAIN ? HN_E_WRITE_AGAIN :
			     rc == -ENOMEM ? HN_E_WRITE_NOMEM :
			     rc == -EMSGSIZE ? HN_E_WRITE_TOO_BIG :
			     HN_E_WRITE_INTR);
	return rc;
}

/*
 * Send the payload that is left in @from as the @n copies of a message
 * to the nodes @dst (@groups: a multicast's, else 0): the copies'
 * messages @m, their room @km.
 */
static int hn_dev_write_copies(struct kiocb *iocb, struct iov_iter *from,
			       const struct hybridnet_msg_hdr *h,
			       const u32 *dst, u32 n, u32 groups,
			       struct hn_kmsg **km, struct hn_msg **m)
{
	struct hn_file *f = iocb->ki_filp->private_data;
	bool nonblock = hn_dev_nonblock(iocb);
	struct hn_port *p = hn_file_port(f);
	struct hn_dev *hd = f->sink.hd;
	u32 i, sent = 0;
	int rc;

	rc = hn_kmsgs_alloc(hd, h->len, n, nonblock,
			    HYBRIDNET_CAPTURE_FROM_FILE, km);
	if (rc)
		return hn_dev_alloc_err(f, min_t(u64, (u64)h->len * n,
						 U32_MAX), rc);
	if (!copy_from_iter_full(km[0]->data, h->len, from)) {
		hn_count_err(hd, HN_E_WRITE_FAULT);
		rc = -EFAULT;
		goto out;
	}
	for (i = 0; i < n; i++) {
		if (i)
			memcpy(km[i]->data, km[0]->data, h->len);
		km[i]->m.src = p->id;
		km[i]->m.dst = dst[i];
		km[i]->m.prio = h->flags & HYBRIDNET_MSG_PRIO;
		km[i]->m.sw = hn_dev_msg_sw(h->flags);
		km[i]->mcast = !!groups;
		m[i] = &km[i]->m;
	}
	rc = hn_dev_send(f, p, m, n, groups, nonblock, &sent);
out:
	for (i = sent; i < n; i++)
		hn_kmsg_free(hd, km[i]);
	return rc;
}

/* A multicast write: its members and their copies. */
static int hn_dev_write_mcast(struct kiocb *iocb, struct iov_iter *from,
			      const struct hybridnet_msg_hdr *h)
{
	struct hn_file *f = iocb->ki_filp->private_data;
	struct hn_dev *hd = f->sink.hd;
	u32 *dst, groups;
	struct hn_kmsg **km;
	struct hn_msg **m;
	int n, rc = -ENOMEM;

	dst = kvmalloc_array(hd->cfg.nodes, sizeof(*dst), GFP_KERNEL);
	km = kvmalloc_array(hd->cfg.nodes, sizeof(*km), GFP_KERNEL);
	m = kvmalloc_array(hd->cfg.nodes, sizeof(*m), GFP_KERNEL);
	if (!dst || !km || !m) {
		hn_count_err(hd, HN_E_WRITE_NOMEM);
		goto out;
	}
	n = hn_dev_members(hd, hn_file_port(f), h->dst, from, dst, &groups);
	rc = n < 0 ? n : hn_dev_write_copies(iocb, from, h, dst, n, groups,
					     km, m);
out:
	kvfree(m);
	kvfree(km);
	kvfree(dst);
	return rc;
}

static ssize_t hn_dev_write_iter(struct kiocb *iocb, struct iov_iter *from)
{
	struct hn_file *f = iocb->ki_filp->private_data;
	struct hn_port *p = hn_file_port(f);
	size_t total = iov_iter_count(from);
	struct hybridnet_msg_hdr h;
	struct hn_kmsg *km;
	struct hn_msg *m;
	struct hn_dev *hd;
	int rc;

	if (!p) {
		hn_file_err(f, HN_E_WRITE_UNBOUND);
		return -ENOTCONN;
	}
	hd = f->sink.hd;
	if (READ_ONCE(hd->dead))
		return -ENODEV;
	rc = hn_file_take_err(f);
	if (rc)
		return rc;
	if (total < sizeof(h)) {
		hn_count_err(hd, HN_E_WRITE_SHORT);
		return -EINVAL;
	}
	if (!copy_from_iter_full(&h, sizeof(h), from)) {
		hn_count_err(hd, HN_E_WRITE_FAULT);
		return -EFAULT;
	}
	rc = hn_dev_check_hdr(hd, &h, total);
	if (!rc && (h.flags & HYBRIDNET_MSG_MULTICAST))
		rc = hn_dev_write_mcast(iocb, from, &h);
	else if (!rc)
		rc = hn_dev_write_copies(iocb, from, &h, &h.dst, 1, 0, &km,
					 &m);
	return rc ? rc : total;
}

/*
 * Copy the oldest delivered message out, then take it off the queue.
 * Returns its size, 0 when the queue is empty, or an errno.
 */
static ssize_t hn_dev_take(struct hn_file *f, struct hn_port *p,
			   struct iov_iter *to)
{
	struct hybridnet_msg_hdr h = { };
	struct hn_dev *hd = f->sink.hd;
	struct hn_kmsg *km;
	size_t size;
	bool busy;
	u32 give;

	km = hn_port_peek(p);
	if (!km)
		return 0;
	/* only this reader (rlock) takes messages off the queue */
	size = sizeof(h) + km->m.len;
	if (iov_iter_count(to) < size) {
		hn_count_err(hd, HN_E_READ_TOO_SMALL);
		return -EMSGSIZE;
	}
	h.src = km->m.src;
	h.dst = km->m.dst;
	h.len = km->m.len;
	h.flags = km->m.prio | km->m.sw << HYBRIDNET_MSG_SWITCHING_SHIFT |
		  (km->mcast ? HYBRIDNET_MSG_MULTICAST : 0);
	h.mode = km->m.mode;
	h.tag = km->m.tag;
	h.slot = km->m.slot;
	h.t_inject = km->m.t_inject;
	h.t_deliver = km->m.t_deliver;
	if (copy_to_iter(&h, sizeof(h), to) != sizeof(h) ||
	    copy_to_iter(km->data, h.len, to) != h.len) {
		hn_count_err(hd, HN_E_READ_FAULT);
		return -EFAULT;
	}
	give = hn_port_pop(hd, p, km);
	if (!give)
		return size;

	mutex_lock(&hd->lock);
	hn_port_credit(hd, p, give);
	/* the space may let the fabric go on: drive if the kthread rests */
	busy = hn_fabric_busy(hd) &&
	       (hd->clock_active || hn_clock_drive(hd, hd->budget));
	mutex_unlock(&hd->lock);
	if (busy)
		hn_clock_kick(hd);
	return size;
}

static ssize_t hn_dev_read_iter(struct kiocb *iocb, struct iov_iter *to)
{
	struct hn_file *f = iocb->ki_filp->private_data;
	struct hn_port *p = hn_file_port(f);
	struct hn_dev *hd;
	ssize_t rc;

	if (!p) {
		hn_file_err(f, HN_E_READ_UNBOUND);
		return -ENOTCONN;
	}
	hd = f->sink.hd;
	for (;;) {
		/* deleted: what was queued stays until the file closes */
		if (READ_ONCE(hd->dead))
			return -ENODEV;
		rc = hn_file_take_err(f);
		if (rc)
			return rc;
		if (hn_dev_nonblock(iocb)) {
			if (!mutex_trylock(&f->rlock)) {
				hn_count_err(hd, HN_E_READ_AGAIN);
				return -EAGAIN;
			}
		} else if (mutex_lock_interruptible(&f->rlock)) {
			hn_count_err(hd, HN_E_READ_INTR);
			return -ERESTARTSYS;
		}
		rc = hn_dev_take(f, p, to);
		mutex_unlock(&f->rlock);
		if (rc)
			return rc;
		if (hn_dev_nonblock(iocb)) {
			hn_count_err(hd, HN_E_READ_AGAIN);
			return -EAGAIN;
		}
		if (wait_event_interruptible(f->wq, hn_port_rx_ready(p) ||
					     READ_ONCE(f->err) ||
					     READ_ONCE(hd->dead))) {
			hn_count_err(hd, HN_E_READ_INTR);
			return -ERESTARTSYS;
		}
	}
}

static __poll_t hn_dev_poll(struct file *file, struct poll_table_struct *wait)
{
	struct hn_file *f = file->private_data;
	struct hn_port *p = hn_file_port(f);
	u32 want = READ_ONCE(f->tx_want);
	__poll_t mask = 0;
	struct hn_dev *hd;
	u32 room;

	if (!p)
		return EPOLLERR;
	hd = f->sink.hd;
	poll_wait(file, &f->wq, wait);
	poll_wait(file, &hd->mem_wq, wait);
	if (READ_ONCE(hd->dead))
		return EPOLLERR | EPOLLHUP;
	if (READ_ONCE(f->err))
		mask |= EPOLLERR;
	if (hn_port_rx_ready(p))
		mask |= EPOLLIN | EPOLLRDNORM;
	mutex_lock(&hd->lock);
	room = hn_nic_room(hd->e, p->id);
	if (room < want)
		hn_port_want_room(hd, p);
	mutex_unlock(&hd->lock);
	if (room >= want && hn_msg_mem_room(hd, want))
		mask |= EPOLLOUT | EPOLLWRNORM;
	return mask;
}

static const struct file_operations hn_fops = {
	.owner = THIS_MODULE,
	.open = hn_dev_open,
	.release = hn_dev_release,
	.read_iter = hn_dev_read_iter,
	.write_iter = hn_dev_write_iter,
	.poll = hn_dev_poll,
	.unlocked_ioctl = hn_dev_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
	.llseek = no_llseek,
};

static struct miscdevice hn_misc = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = HYBRIDNET_DEV_NAME,
	.fops = &hn_fops,
};

/* At load: /dev/hybridnet. */
int hn_dev_init(void)
{
	return misc_register(&hn_misc);
}

void hn_dev_exit(void)
{
	misc_deregister(&hn_misc);
}
