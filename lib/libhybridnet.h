/* SPDX-License-Identifier: GPL-2.0 */
/*
 * libhybridnet.h - user-space access to /dev/hybridnet.
 *
 * Every function returns 0 (or a length) on success and a negative errno
 * on failure; errno itself is left as the system call set it.
 *
 *	struct hn_handle *h;
 *	struct hybridnet_msg_hdr hdr;
 *	char buf[256];
 *
 *	if (hn_open(&h, NULL, 0) || hn_bind(h, 3))
 *		...;
 *	hn_send(h, 7, "hello", 5);
 *	n = hn_recv(h, &hdr, buf, sizeof(buf));
 *	hn_close(h);
 *
 * hn_fd() gives the file descriptor for poll(): POLLIN means hn_recv()
 * will not block, POLLOUT that hn_send() of a message no longer than the
 * last refused one will not block.
 */
#ifndef LIBHYBRIDNET_H
#define LIBHYBRIDNET_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <linux/hybridnet.h>

#define HN_DEV_PATH	"/dev/" HYBRIDNET_DEV_NAME

/* hn_open() flags */
#define HN_NONBLOCK	0x1	/* hn_send/hn_recv give -EAGAIN, not wait */

struct hn_handle;

/* Open @path (NULL: /dev/hybridnet); *hp receives the handle. */
int hn_open(struct hn_handle **hp, const char *path, int flags);
void hn_close(struct hn_handle *h);
int hn_fd(const struct hn_handle *h);
int hn_set_nonblock(struct hn_handle *h, int on);

/* Bind to @node: -EINVAL out of range, -EBUSY taken or bound elsewhere. */
int hn_bind(struct hn_handle *h, uint32_t node);
int hn_info(struct hn_handle *h, struct hybridnet_info *info);

/* Send @len bytes to @dst: 0, or -EAGAIN, -EMSGSIZE, -EINVAL, -ENOTCONN... */
int hn_send(struct hn_handle *h, uint32_t dst, const void *buf, size_t len);

/*
 * Receive one message: its header in *hdr (may be NULL), its payload in
 * @buf.  Returns the payload length, or -EMSGSIZE when @cap is too small
 * (the message stays queued), -EAGAIN, -ENOTCONN...
 */
ssize_t hn_recv(struct hn_handle *h, struct hybridnet_msg_hdr *hdr,
		void *buf, size_t cap);

#endif /* LIBHYBRIDNET_H */
