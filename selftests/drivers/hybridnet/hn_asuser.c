// SPDX-License-Identifier: GPL-2.0
/*
 * hn_asuser.c - hn_asuser UID GID[,GID...] CMD [ARG...]: run CMD as user
 * UID, group the first GID and supplementary groups the others (none
 * with one GID).  For errors-vm.sh: the VM runs as root, and busybox's
 * setpriv changes no user.
 */
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	gid_t gid[16];
	char *tok, *save;
	int n = 0;

	if (argc < 4) {
		fprintf(stderr, "usage: hn_asuser UID GID[,GID...] CMD [ARG...]\n");
		return 125;
	}
	for (tok = strtok_r(argv[2], ",", &save); tok && n < 16;
	     tok = strtok_r(NULL, ",", &save))
		gid[n++] = (gid_t)strtoul(tok, NULL, 10);
	if (!n || setgroups(n - 1, gid + 1) || setgid(gid[0]) ||
	    setuid((uid_t)strtoul(argv[1], NULL, 10))) {
		perror("hn_asuser");
		return 125;
	}
	execvp(argv[3], argv + 3);
	perror(argv[3]);
	return 127;
}
