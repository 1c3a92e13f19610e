// SPDX-License-Identifier: GPL-2.0
/*
 * hello.c - a program built against an installed libhybridnet by
 * test-install.sh, with pkg-config, dynamic and static.  On a host
 * without the module: the device is missing (-ENOENT), and so is the
 * generic netlink family (a negative errno), which makes it call into
 * libnl.
 */
#include <errno.h>
#include <stdio.h>
#include <libhybridnet.h>

int main(void)
{
	struct hn_handle *h;
	struct hn_ctl *c;
	int dev, ctl;

	dev = hn_open(&h, "/nonexistent/hybridnet", 0);
	ctl = hn_ctl_open(&c);
	if (!ctl)
		hn_ctl_close(c);
	printf("hn_open %s, hn_ctl_open %s, max nodes %d\n",
	       dev == -ENOENT ? "ENOENT" : "unexpected",
	       ctl <= 0 ? "answered" : "unexpected", HYBRIDNET_MAX_NODES);
	return dev != -ENOENT || ctl > 0;
}
