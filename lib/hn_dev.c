// SPDX-License-Identifier: GPL-2.0
/*
 * hn_dev.c - libhybridnet: open, bind, send and receive on /dev/hybridnet.
 * A message is one writev()/readv() of the header and the payload, so the
 * payload is never copied in user space.  Each call notes what it was
 * asked in the handle, for hn_strerror() (hn_dev_err.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/uio.h>

#include "hn_dev_int.h"

__thread char hn_open_path[128];

int hn_open(struct hn_handle **hp, const char *path, int flags)
{
	struct hn_handle *h;
	int oflags = O_RDWR | O_CLOEXEC;

	if (!hp || (flags & ~HN_NONBLOCK))
		return -EINVAL;
	if (flags & HN_NONBLOCK)
		oflags |= O_NONBLOCK;
	h = calloc(1, sizeof(*h));
	if (!h)
		return -ENOMEM;
	h->fabric = HYBRIDNET_FABRIC_FIRST;
	h->fd = open(path ? path : HN_DEV_PATH, oflags);
	if (h->fd < 0) {
		int rc = -errno;

		free(h);
		snprintf(hn_open_path, sizeof(hn_open_path), "%s",
			 path ? path : HN_DEV_PATH);
		errno = -rc;
		return rc;
	}
	*hp = h;
	return 0;
}

void hn_close(struct hn_handle *h)
{
	if (!h)
		return;
	close(h->fd);
	free(h);
}

int hn_fd(const struct hn_handle *h)
{
	return h ? h->fd : -EINVAL;
}

int hn_set_nonblock(struct hn_handle *h, int on)
{
	int fl = fcntl(h->fd, F_GETFL);

	if (fl < 0)
		return -errno;
	fl = on ? fl | O_NONBLOCK : fl & ~O_NONBLOCK;
	return fcntl(h->fd, F_SETFL, fl) < 0 ? -errno : 0;
}

/* the old ioctl: a node of the first fabric */
int hn_bind(struct hn_handle *h, uint32_t node)
{
	h->op = HN_OP_BIND;
	h->arg = node;
	h->fabric = HYBRIDNET_FABRIC_FIRST;
	if (ioctl(h->fd, HYBRIDNET_IOC_BIND, &node) < 0)
		return -errno;
	h->bound = 1;
	return 0;
}

int hn_bind_fabric(struct hn_handle *h, uint32_t fabric, uint32_t node)
{
	struct hybridnet_bind b = { .fabric = fabric, .node = node };

	h->op = HN_OP_BIND;
	h->arg = node;
	h->fabric = fabric;
	if (ioctl(h->fd, HYBRIDNET_IOC_BIND2, &b) < 0)
		return -errno;
	h->bound = 1;
	return 0;
}

int hn_info(struct hn_handle *h, struct hybridnet_info *info)
{
	h->op = HN_OP_INFO;
	return ioctl(h->fd, HYBRIDNET_IOC_INFO, info) < 0 ? -errno : 0;
}

int hn_send(struct hn_handle *h, uint32_t dst, const void *buf, size_t len)
{
	return hn_send_flags(h, dst, buf, len, 0);
}

int hn_send_flags(struct hn_handle *h, uint32_t dst, const void *buf,
		  size_t len, uint32_t flags)
{
	struct hybridnet_msg_hdr hdr;
	struct iovec iov[2];
	ssize_t n;

	h->op = HN_OP_SEND;
	h->arg = dst;
	h->len = len;
	h->flags = flags;
	if (len > HYBRIDNET_MAX_MSG)
		return -EMSGSIZE;
	memset(&hdr, 0, sizeof(hdr));
	hdr.dst = dst;
	hdr.len = (uint32_t)len;
	hdr.flags = flags;
	iov[0].iov_base = &hdr;
	iov[0].iov_len = sizeof(hdr);
	iov[1].iov_base = (void *)buf;
	iov[1].iov_len = len;
	n = writev(h->fd, iov, 2);
	if (n < 0)
		return -errno;
	return n == (ssize_t)(sizeof(hdr) + len) ? 0 : -EIO;
}

int hn_send_mcast(struct hn_handle *h, const uint32_t *ents, uint32_t n,
		  const void *buf, size_t len, uint32_t flags)
{
	struct hybridnet_msg_hdr hdr;
	struct iovec iov[3];
	size_t total;
	ssize_t r;

	h->op = HN_OP_MCAST;
	h->arg = n;
	h->len = len;
	h->flags = flags | HYBRIDNET_MSG_MULTICAST;
	if (len > HYBRIDNET_MAX_MSG)
		return -EMSGSIZE;
	if (!n || n > HYBRIDNET_MCAST_MAX)
		return -EINVAL;
	memset(&hdr, 0, sizeof(hdr));
	hdr.dst = n;
	hdr.len = (uint32_t)len;
	hdr.flags = h->flags;
	iov[0].iov_base = &hdr;
	iov[0].iov_len = sizeof(hdr);
	iov[1].iov_base = (void *)ents;
	iov[1].iov_len = n * sizeof(*ents);
	iov[2].iov_base = (void *)buf;
	iov[2].iov_len = len;
	total = sizeof(hdr) + iov[1].iov_len + len;
	r = writev(h->fd, iov, 3);
	if (r < 0)
		return -errno;
	return r == (ssize_t)total ? 0 : -EIO;
}

ssize_t hn_recv(struct hn_handle *h, struct hybridnet_msg_hdr *hdr,
		void *buf, size_t cap)
{
	struct hybridnet_msg_hdr tmp;
	struct iovec iov[2];
	ssize_t n;

	h->op = HN_OP_RECV;
	h->len = cap;
	if (!hdr)
		hdr = &tmp;
	iov[0].iov_base = hdr;
	iov[0].iov_len = sizeof(*hdr);
	iov[1].iov_base = buf;
	iov[1].iov_len = cap;
	n = readv(h->fd, iov, 2);
	if (n < 0)
		return -errno;
	if ((size_t)n < sizeof(*hdr) || (size_t)n != sizeof(*hdr) + hdr->len)
		return -EIO;
	return hdr->len;
}
