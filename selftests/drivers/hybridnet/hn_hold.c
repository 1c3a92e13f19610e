// SPDX-License-Identifier: GPL-2.0
/*
 * hn_hold.c - hn_hold NODE...: open /dev/hybridnet once per NODE, bind
 * each file to its node, print "held", and keep them until a signal
 * ends it; or say why not (hn_strerror()).  For hnctl-vm.sh: files that
 * hold the device.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "libhybridnet.h"

int main(int argc, char **argv)
{
	struct hn_handle *h;
	int i, rc;

	for (i = 1; i < argc; i++) {
		rc = hn_open(&h, NULL, 0);
		if (rc) {
			fprintf(stderr, "hn_hold: %s\n", hn_strerror(NULL, rc));
			return 1;
		}
		rc = hn_bind(h, atoi(argv[i]));
		if (rc) {
			fprintf(stderr, "hn_hold: %s\n", hn_strerror(h, rc));
			return 1;
		}
	}
	printf("held\n");
	fflush(stdout);
	for (;;)
		pause();
}
