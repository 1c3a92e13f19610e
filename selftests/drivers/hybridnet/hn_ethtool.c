// SPDX-License-Identifier: GPL-2.0
/*
 * hn_ethtool.c - hn_ethtool IFNAME [STAT]: an interface's ethtool -S
 * (ETHTOOL_GSSET_INFO, _GSTRINGS, _GSTATS), "name value" per line, or
 * only the value of STAT (exit 1 when the interface has none).  For
 * netdev-vm.sh: the VM has no ethtool.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>
#include <net/if.h>
#include <linux/ethtool.h>
#include <linux/sockios.h>

static int ethtool(int fd, const char *ifname, void *cmd)
{
	struct ifreq ifr;

	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	ifr.ifr_data = cmd;
	return ioctl(fd, SIOCETHTOOL, &ifr);
}

int main(int argc, char **argv)
{
	struct ethtool_sset_info *si;
	struct ethtool_gstrings *gs;
	struct ethtool_stats *st;
	int fd, found = 0;
	__u32 i, n;

	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: hn_ethtool IFNAME [STAT]\n");
		return 2;
	}
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	si = calloc(1, sizeof(*si) + sizeof(__u32));
	if (fd < 0 || !si)
		return 2;
	si->cmd = ETHTOOL_GSSET_INFO;
	si->sset_mask = 1ULL << ETH_SS_STATS;
	if (ethtool(fd, argv[1], si) || !si->sset_mask) {
		fprintf(stderr, "hn_ethtool: %s: no statistics: %s\n", argv[1],
			strerror(errno));
		return 2;
	}
	n = si->data[0];
	gs = calloc(1, sizeof(*gs) + n * ETH_GSTRING_LEN);
	st = calloc(1, sizeof(*st) + n * sizeof(__u64));
	if (!gs || !st)
		return 2;
	gs->cmd = ETHTOOL_GSTRINGS;
	gs->string_set = ETH_SS_STATS;
	gs->len = n;
	st->cmd = ETHTOOL_GSTATS;
	st->n_stats = n;
	if (ethtool(fd, argv[1], gs) || ethtool(fd, argv[1], st)) {
		fprintf(stderr, "hn_ethtool: %s: %s\n", argv[1],
			strerror(errno));
		return 2;
	}
	for (i = 0; i < n; i++) {
		const char *name = (const char *)gs->data + i * ETH_GSTRING_LEN;

		if (argc == 2) {
			printf("%.*s %llu\n", ETH_GSTRING_LEN, name,
			       (unsigned long long)st->data[i]);
		} else if (!strncmp(name, argv[2], ETH_GSTRING_LEN)) {
			printf("%llu\n", (unsigned long long)st->data[i]);
			found = 1;
		}
	}
	close(fd);
	return argc == 2 || found ? 0 : 1;
}
