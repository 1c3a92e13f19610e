// SPDX-License-Identifier: GPL-2.0
/*
 * hn_hold.c - hn_hold NODE...: open /dev/hybridnet once per NODE, bind
 * each file to its node, print "held", and keep them until a signal
 * ends it.  For hnctl-vm.sh: files that hold the device.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "libhybridnet.h"

int main(int argc, char **argv)
{
	struct hn_handle *h;
	int i;

	for (i = 1; i < argc; i++) {
		if (hn_open(&h, NULL, 0) || hn_bind(h, atoi(argv[i]))) {
			fprintf(stderr, "hn_hold: cannot bind node %s\n",
				argv[i]);
			return 1;
		}
	}
	printf("held\n");
	fflush(stdout);
	for (;;)
		pause();
}
