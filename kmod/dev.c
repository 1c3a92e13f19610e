// SPDX-License-Identifier: GPL-2.0
/*
 * dev.c - /dev/hybridnet, one open file per virtual node.
 *
 * ioctl(HYBRIDNET_IOC_BIND, &node) binds the file to a node, once: EINVAL when
 * node >= nodes, EBUSY when another file or an interface holds the node
 * (sysfs nodes/N/holder names it: the file keeps the pid and name of the
 * process that bound it), the fabric is being rebuilt, or this file is
 * bound to another node (binding again to the same node succeeds).
 * ioctl(HYBRIDNET_IOC_INFO, &info) describes the fabric and the bound node.
 *
 * write() sends one message: struct hybridnet_msg_hdr, then hdr.len bytes.
 * Checks, in this order: unbound ENOTCONN; shorter than the header
 * EINVAL; header unreadable EFAULT; flags != 0 EINVAL; hdr.len != write
 * size - header EINVAL; hdr.len == 0 EINVAL; hdr.len > max_msg_bytes
 * EMSGSIZE; dst >= nodes EINVAL; payload unreadable EFAULT.  Each failure
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
#include <linux/mm.h>
#include <linux/pid.h>
#include <linux/poll.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/uio.h>

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

static const struct hn_sink_ops hn_file_sink_ops = {
	.deliver = hn_file_deliver,
	.wake = hn_file_wake,
	.holder = hn_file_holder,
};

static int hn_dev_open(struct inode *inode, struct file *file)
{
	struct miscdevice *misc = file->private_data;
	struct hn_file *f;

	f = kzalloc(sizeof(*f), GFP_KERNEL);
	if (!f)
		return -ENOMEM;
	f->sink.ops = &hn_file_sink_ops;
	f->sink.hd = container_of(misc, struct hn_dev, misc);
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
	}
	put_pid(f->pid);
	mutex_destroy(&f->rlock);
	kfree(f);
	return 0;
}

static long hn_dev_bind(struct hn_file *f, u32 __user *arg)
{
	struct hn_dev *hd = f->sink.hd;
	struct hn_port *p;
	long rc = 0;
	u32 node;

	if (get_user(node, arg)) {
		hn_count_err(hd, HN_E_IOCTL_FAULT);
		return -EFAULT;
	}
	mutex_lock(&hd->lock);
	if (node >= hd->cfg.nodes) {
		mutex_unlock(&hd->lock);
		hn_count_err(hd, HN_E_BIND_RANGE);
		return -EINVAL;
	}
	p = &hd->ports[node];
	if (f->sink.port) {
		if (f->sink.port != p)
			rc = -EBUSY;
	} else {
		/* who binds it, for hn_port_holder() */
		put_pid(f->pid);
		f->pid = get_pid(task_tgid(current));
		get_task_comm(f->comm, current);
		rc = hn_port_bind(hd, p, &f->sink);
	}
	mutex_unlock(&hd->lock);
	if (rc)
		hn_count_err(hd, HN_E_BIND_BUSY);
	return rc;
}

static long hn_dev_info(struct hn_file *f,
			struct hybridnet_info __user *arg)
{
	struct hn_port *p = hn_file_port(f);
	struct hn_dev *hd = f->sink.hd;
	struct hybridnet_info info = { };

	mutex_lock(&hd->lock);
	hn_clock_sync(hd);
	info.nodes = hd->cfg.nodes;
	info.slots = hd->cfg.k;
	info.max_msg = hd->cfg.max_msg_bytes;
	info.node = p ? p->id : HYBRIDNET_UNBOUND;
	info.now = hn_now(hd->e);
	if (p) {
		info.nic_room = hn_nic_room(hd->e, p->id);
		hn_port_rx_queue(p, &info.rx_queued, &info.rx_next_len);
	}
	mutex_unlock(&hd->lock);
	if (copy_to_user(arg, &info, sizeof(info))) {
		hn_count_err(hd, HN_E_IOCTL_FAULT);
		return -EFAULT;
	}
	return 0;
}

static long hn_dev_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct hn_file *f = file->private_data;

	switch (cmd) {
	case HYBRIDNET_IOC_BIND:
		return hn_dev_bind(f, (u32 __user *)arg);
	case HYBRIDNET_IOC_INFO:
		return hn_dev_info(f, (struct hybridnet_info __user *)arg);
	default:
		hn_count_err(f->sink.hd, HN_E_IOCTL_UNKNOWN);
		return -ENOTTY;
	}
}

static bool hn_dev_nonblock(struct kiocb *iocb)
{
	return (iocb->ki_flags & IOCB_NOWAIT) ||
	       (iocb->ki_filp->f_flags & O_NONBLOCK);
}

/* Validate a message header; returns 0 or the errno to give back. */
static int hn_dev_check_hdr(struct hn_dev *hd,
			    const struct hybridnet_msg_hdr *h, size_t total)
{
	if (h->flags) {
		hn_count_err(hd, HN_E_WRITE_FLAGS);
		return -EINVAL;
	}
	if (h->len != total - sizeof(*h)) {
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
	if (h->dst >= hd->cfg.nodes) {
		hn_count_err(hd, HN_E_WRITE_DST);
		return -EINVAL;
	}
	return 0;
}

/* Hand @km to the NIC, waiting for room unless @nonblock. */
static int hn_dev_send(struct hn_file *f, struct hn_port *p,
		       struct hn_kmsg *km, bool nonblock)
{
	struct hn_dev *hd = f->sink.hd;
	u32 len = km->m.len;
	bool busy = false, was_busy;
	int rc;

	for (;;) {
		mutex_lock(&hd->lock);
		hn_clock_sync(hd);
		km->m.t_inject = hn_now(hd->e);
		was_busy = hn_busy(hd->e);
		rc = hn_inject(hd->e, &km->m, NULL);
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
		if (wait_event_interruptible(f->wq, READ_ONCE(p->room) >= len)) {
			hn_count_err(hd, HN_E_WRITE_INTR);
			return -ERESTARTSYS;
		}
	}
	if (rc == -EHOSTUNREACH) {
		hn_count_err(hd, HN_E_WRITE_UNREACH);
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

static ssize_t hn_dev_write_iter(struct kiocb *iocb, struct iov_iter *from)
{
	struct hn_file *f = iocb->ki_filp->private_data;
	struct hn_port *p = hn_file_port(f);
	size_t total = iov_iter_count(from);
	struct hn_dev *hd = f->sink.hd;
	struct hybridnet_msg_hdr h;
	struct hn_kmsg *km;
	int rc;

	if (!p) {
		hn_count_err(hd, HN_E_WRITE_UNBOUND);
		return -ENOTCONN;
	}
	if (total < sizeof(h)) {
		hn_count_err(hd, HN_E_WRITE_SHORT);
		return -EINVAL;
	}
	if (!copy_from_iter_full(&h, sizeof(h), from)) {
		hn_count_err(hd, HN_E_WRITE_FAULT);
		return -EFAULT;
	}
	rc = hn_dev_check_hdr(hd, &h, total);
	if (rc)
		return rc;

	km = hn_kmsg_alloc(hd, h.len, hn_dev_nonblock(iocb),
			   HYBRIDNET_CAPTURE_FROM_FILE);
	if (IS_ERR(km)) {
		rc = PTR_ERR(km);
		if (rc == -EAGAIN)
			WRITE_ONCE(f->tx_want, h.len);
		hn_count_err(hd, rc == -EAGAIN ? HN_E_WRITE_AGAIN :
			     rc == -ENOMEM ? HN_E_WRITE_NOMEM :
			     HN_E_WRITE_INTR);
		return rc;
	}
	if (!copy_from_iter_full(km->data, h.len, from)) {
		hn_count_err(hd, HN_E_WRITE_FAULT);
		rc = -EFAULT;
		goto err_free;
	}
	km->m.src = p->id;
	km->m.dst = h.dst;
	rc = hn_dev_send(f, p, km, hn_dev_nonblock(iocb));
	if (rc)
		goto err_free;
	return total;

err_free:
	hn_kmsg_free(hd, km);
	return rc;
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
	busy = hn_busy(hd->e) &&
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
	struct hn_dev *hd = f->sink.hd;
	ssize_t rc;

	if (!p) {
		hn_count_err(hd, HN_E_READ_UNBOUND);
		return -ENOTCONN;
	}
	for (;;) {
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
		if (wait_event_interruptible(f->wq, hn_port_rx_ready(p))) {
			hn_count_err(hd, HN_E_READ_INTR);
			return -ERESTARTSYS;
		}
	}
}

static __poll_t hn_dev_poll(struct file *file, struct poll_table_struct *wait)
{
	struct hn_file *f = file->private_data;
	struct hn_port *p = hn_file_port(f);
	struct hn_dev *hd = f->sink.hd;
	u32 want = READ_ONCE(f->tx_want);
	__poll_t mask = 0;
	u32 room;

	if (!p)
		return EPOLLERR;
	poll_wait(file, &f->wq, wait);
	poll_wait(file, &hd->mem_wq, wait);
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

const struct file_operations hn_fops = {
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
