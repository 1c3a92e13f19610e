/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hn_dev_int.h - libhybridnet's device handle, shared by hn_dev.c (the
 * calls) and hn_dev_err.c (what their failures mean): each call records
 * what it was asked, so that hn_strerror() can say what went wrong.
 */
#ifndef HN_DEV_INT_H
#define HN_DEV_INT_H

#include "libhybridnet.h"

enum hn_dev_op {
	HN_OP_OPEN, HN_OP_BIND, HN_OP_INFO, HN_OP_SEND, HN_OP_MCAST, HN_OP_RECV
};

struct hn_handle {
	int fd;
	/* the last call: its operation, node (bind) or destination (send),
	   and length (send) or buffer size (receive) */
	enum hn_dev_op op;
	uint32_t arg;
	uint32_t fabric;		/* the last bind's (FIRST: the first) */
	int bound;			/* a bind succeeded */
	size_t len;
	uint32_t flags;			/* the last send's header flags */
	char err[1024];			/* hn_strerror() */
};

/* The path of this thread's last hn_open() that failed (hn_dev.c). */
extern __thread char hn_open_path[128];

/* What the control plane also says when the module is not there. */
#define HN_ERR_NOT_LOADED						\
	"the hybridnet module is not loaded: load it (sudo modprobe "	\
	"hybridnet), or run the program in the VM of the source tree "	\
	"(make vm-run CMD='...')"

#endif /* HN_DEV_INT_H */
