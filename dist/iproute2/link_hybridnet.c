// SPDX-License-Identifier: GPL-2.0
/*
 * link_hybridnet.c - iproute2's plugin for the link kind "hybridnet":
 *
 *     ip link add [NAME] type hybridnet [fabric F] [node N]
 *     ip -d link show NAME          (... hybridnet fabric F node N ...)
 *     ip link help hybridnet
 *
 * ip looks for a kind it does not know in $IP_LIB_DIR/link_KIND.so, by
 * default LIBDIR/ip (Debian: /usr/lib/x86_64-linux-gnu/ip), and takes its
 * struct link_util KIND_link_util.  It exports the functions its own kinds
 * use (nm -D /sbin/ip), which this plugin calls.
 *
 * Debian ships no iproute2 headers, so what the plugin needs of them is
 * declared here, as iproute2 6.1 (Debian 12's 6.1.0) has it: struct
 * link_util of ip/ip_common.h, enum output_type and print_color_uint() of
 * include/json_print.h, enum color_attr of include/color.h, addattr32() of
 * include/libnetlink.h, get_u32(), matches(), invarg(), duparg() and
 * incomplete_command() of include/utils.h.  Another version of iproute2
 * may lay them out otherwise: make check-install runs Debian's ip with
 * this plugin (help, parsing, its refusals), and the VM's tests make
 * interfaces and read them back with it, so a layout that no longer
 * matches fails there.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/hybridnet.h>

/* ip/ip_common.h */
struct link_util {
	struct link_util *next;
	const char *id;
	int maxattr;
	int (*parse_opt)(struct link_util *lu, int argc, char **argv,
			 struct nlmsghdr *n);
	void (*print_opt)(struct link_util *lu, FILE *f, struct rtattr *tb[]);
	void (*print_xstats)(struct link_util *lu, FILE *f,
			     struct rtattr *xstats);
	void (*print_help)(struct link_util *lu, int argc, char **argv,
			   FILE *f);
	int (*parse_ifla_xstats)(struct link_util *lu, int argc, char **argv);
	int (*print_ifla_xstats)(struct nlmsghdr *n, void *arg);
};

/* include/json_print.h, include/color.h */
enum output_type {
	PRINT_FP = 1,
	PRINT_JSON = 2,
	PRINT_ANY = 4,
};

enum color_attr {
	COLOR_IFNAME,
	COLOR_MAC,
	COLOR_INET,
	COLOR_INET6,
	COLOR_OPERSTATE_UP,
	COLOR_OPERSTATE_DOWN,
	COLOR_NONE
};

int print_color_uint(enum output_type t, enum color_attr color,
		     const char *key, const char *fmt, unsigned int value);

/* include/libnetlink.h, include/utils.h */
int addattr32(struct nlmsghdr *n, int maxlen, int type, __u32 data);
int get_u32(__u32 *val, const char *arg, int base);
bool matches(const char *prefix, const char *string);
void invarg(const char *msg, const char *arg) __attribute__((noreturn));
void duparg(const char *key, const char *arg) __attribute__((noreturn));
void incomplete_command(void) __attribute__((noreturn));

/* what addattr32() may grow the request to, as ip's own kinds pass */
#define HN_REQ_MAX	1024

static void hybridnet_explain(FILE *f)
{
	fprintf(f,
		"Usage: ip link add [NAME] type hybridnet [ fabric F ] [ node N ]\n"
		"\n"
		"A network interface for node N of hybridnet's fabric F: the\n"
		"interface owns the node, and its MAC is 02:68:6e:00:HH:LL, N as\n"
		"HHLL.  Without fabric, the network namespace's first fabric;\n"
		"without node, the lowest node that has neither an interface nor\n"
		"a file of /dev/hybridnet; without NAME, hnN.\n"
		"\n"
		"Where:	F := 0..255, a fabric of this network namespace (hnctl fabric)\n"
		"	N := 0..nodes-1 (sysfs config/nodes, hnctl show nodes)\n");
}

static void hybridnet_print_help(struct link_util *lu, int argc, char **argv,
				 FILE *f)
{
	(void)lu;
	(void)argc;
	(void)argv;
	hybridnet_explain(f);
}

static int hybridnet_parse_opt(struct link_util *lu, int argc, char **argv,
			       struct nlmsghdr *n)
{
	bool have_fabric = false, have_node = false;
	__u32 v;

	(void)lu;
	for (; argc > 0; argc--, argv++) {
		if (!matches(*argv, "help")) {
			hybridnet_explain(stderr);
			return -1;
		}
		if (!strcmp(*argv, "fabric") || !strcmp(*argv, "node")) {
			bool node = !strcmp(*argv, "node");

			if (node ? have_node : have_fabric)
				duparg(*argv, argv[1] ? argv[1] : "");
			if (argc < 2)
				incomplete_command();
			if (get_u32(&v, argv[1], 0))
				invarg(node ? "node must be a number, 0..nodes-1" :
				       "fabric must be a number, 0..255", argv[1]);
			addattr32(n, HN_REQ_MAX, node ? IFLA_HYBRIDNET_NODE :
				  IFLA_HYBRIDNET_FABRIC, v);
			if (node)
				have_node = true;
			else
				have_fabric = true;
			argc--;
			argv++;
			continue;
		}
		fprintf(stderr, "hybridnet: unknown option \"%s\"\n", *argv);
		hybridnet_explain(stderr);
		return -1;
	}
	return 0;
}

static void hybridnet_print_opt(struct link_util *lu, FILE *f,
				struct rtattr *tb[])
{
	(void)lu;
	(void)f;
	if (!tb)
		return;
	if (tb[IFLA_HYBRIDNET_FABRIC])
		print_color_uint(PRINT_ANY, COLOR_NONE, "fabric", "fabric %u ",
				 *(__u32 *)RTA_DATA(tb[IFLA_HYBRIDNET_FABRIC]));
	if (tb[IFLA_HYBRIDNET_NODE])
		print_color_uint(PRINT_ANY, COLOR_NONE, "node", "node %u ",
				 *(__u32 *)RTA_DATA(tb[IFLA_HYBRIDNET_NODE]));
}

struct link_util hybridnet_link_util = {
	.id = "hybridnet",
	.maxattr = IFLA_HYBRIDNET_MAX,
	.parse_opt = hybridnet_parse_opt,
	.print_opt = hybridnet_print_opt,
	.print_help = hybridnet_print_help,
};
