// SPDX-License-Identifier: GPL-2.0
/*
 * hn_dev_err.c - libhybridnet: what a failure of the device's calls means
 * on this host, and what to do next (hn_strerror()).  The errno alone
 * says "No such file or directory" where the module is not loaded, and
 * "Device or resource busy" where another program holds the node; here
 * the handle's last call (hn_dev_int.h), the device's sysfs directory,
 * the device file's owner and /etc/group complete it.
 *
 * /etc/passwd and /etc/group are read as files: a static program has no
 * NSS, and the VM's initramfs has nothing else.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "hn_dev_int.h"

#define HN_SYSFS	"/sys/class/misc/" HYBRIDNET_DEV_NAME
/* fabric N's directory: HN_SYSFS_FABRIC "N" */
#define HN_SYSFS_FABRIC	"/sys/class/hybridnet/fabric"

/* ENODEV of a bound handle */
#define HN_ERR_DELETED	"the handle's fabric was deleted (its network "	\
			"namespace ended): close the handle"

/* hn_open()'s failures have no handle: this thread's last one's text */
static __thread char open_err[sizeof(((struct hn_handle *)0)->err)];

/* Field @i (0: the first) of a ':'-separated line, into @out. */
static int field(const char *line, int i, char *out, size_t len)
{
	const char *end;

	for (; i > 0; i--) {
		line = strchr(line, ':');
		if (!line)
			return -1;
		line++;
	}
	end = line + strcspn(line, ":\n");
	snprintf(out, len, "%.*s", (int)(end - line), line);
	return 0;
}

/* The line of @path whose field @key is @val, into @line. */
static int find_line(const char *path, int key, const char *val, char *line,
		     size_t len)
{
	char f[64];
	FILE *fp = fopen(path, "r");
	int rc = -1;

	if (!fp)
		return -1;
	while (rc && fgets(line, (int)len, fp))
		if (!field(line, key, f, sizeof(f)) && !strcmp(f, val))
			rc = 0;
	fclose(fp);
	return rc;
}

/* Is @user in the member list of the /etc/group @line? */
static int member(const char *line, const char *user)
{
	char list[1024], *tok, *save;

	if (field(line, 3, list, sizeof(list)))
		return 0;
	for (tok = strtok_r(list, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save))
		if (!strcmp(tok, user))
			return 1;
	return 0;
}

/* "crw-rw----" */
static void mode_str(mode_t m, char *s)
{
	static const char rwx[] = "rwxrwxrwx";
	int i;

	s[0] = S_ISCHR(m) ? 'c' : S_ISDIR(m) ? 'd' : '-';
	for (i = 0; i < 9; i++)
		s[i + 1] = m & (0400 >> i) ? rwx[i] : '-';
	s[10] = '\0';
}

/* Permission denied on @path: who may open it, and how to be one. */
static void denied(char *buf, size_t len, const char *path)
{
	char line[512], pw[512], gname[32], uname[32], num[16], mode[11];
	struct stat st;
	int listed = 0;

	if (stat(path, &st)) {
		snprintf(buf, len, "cannot open %s: permission denied", path);
		return;
	}
	mode_str(st.st_mode, mode);
	if (!st.st_gid || (st.st_mode & 060) != 060) {
		snprintf(buf, len, "cannot open %s: permission denied: only "
			 "root may open it (%s): install the udev rule that "
			 "gives it to the group hybridnet (make install; "
			 "hybridnet(4), FILES), or run the program as "
			 "root", path, mode);
		return;
	}
	snprintf(num, sizeof(num), "%u", (unsigned int)st.st_gid);
	if (find_line("/etc/group", 2, num, line, sizeof(line)) ||
	    field(line, 0, gname, sizeof(gname)))
		snprintf(gname, sizeof(gname), "%s", num);
	else {
		snprintf(num, sizeof(num), "%u", (unsigned int)geteuid());
		listed = !find_line("/etc/passwd", 2, num, pw, sizeof(pw)) &&
			 !field(pw, 0, uname, sizeof(uname)) &&
			 member(line, uname);
	}
	if (listed)
		snprintf(buf, len, "cannot open %s: permission denied: you "
			 "are in the group %s, which may open it (%s), but "
			 "this session started before you joined it: log in "
			 "again, or run 'newgrp %s'", path, gname, mode, gname);
	else
		snprintf(buf, len, "cannot open %s: permission denied: the "
			 "group %s may open it (%s) and you are not in it: "
			 "join it (sudo usermod -aG %s $USER, then log in "
			 "again), or run the program as root", path, gname,
			 mode, gname);
}

static void open_text(char *buf, size_t len, const char *path, int err)
{
	struct stat st;

	if (err == ENOENT && !strcmp(path, HN_DEV_PATH) &&
	    stat("/sys/module/hybridnet", &st))
		snprintf(buf, len, "cannot open %s: %s", path,
			 HN_ERR_NOT_LOADED);
	else if (err == ENOENT && !strcmp(path, HN_DEV_PATH))
		snprintf(buf, len, "cannot open %s: the module is loaded but "
			 "the device file is missing: mount devtmpfs on /dev, "
			 "or make it (mknod %s c $(tr : ' ' < %s/dev))", path,
			 path, HN_SYSFS);
	else if (err == EACCES || err == EPERM)
		denied(buf, len, path);
	else
		snprintf(buf, len, "cannot open %s: %s", path, strerror(err));
}

/*
 * The fabric the handle's last bind was of: the one it named, or the
 * first of the namespace (as the device tells an unbound file); ~0U when
 * the device cannot say.
 */
static uint32_t bind_fabric(struct hn_handle *h)
{
	struct hybridnet_info info;

	if (h->fabric != HYBRIDNET_FABRIC_FIRST)
		return h->fabric;
	return hn_info(h, &info) ? ~0U : info.fabric;
}

/* Line one of fabric @fabric's sysfs file @rel into @buf; "" if none. */
static void fabric_file(uint32_t fabric, const char *rel, char *buf,
			size_t len)
{
	char path[128];
	FILE *fp;

	buf[0] = '\0';
	snprintf(path, sizeof(path), HN_SYSFS_FABRIC "%u/%s", fabric, rel);
	fp = fopen(path, "r");
	if (!fp)
		return;
	if (!fgets(buf, (int)len, fp))
		buf[0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	fclose(fp);
}

/*
 * Has fabric @fabric links or switches down (sysfs fabric/links_down,
 * switches_down)?  Then EHOSTUNREACH is a destination cut off, else a
 * missing circuit under pure TDM.
 */
static int faults_down(uint32_t fabric)
{
	char l[16], s[16];

	fabric_file(fabric, "fabric/links_down", l, sizeof(l));
	fabric_file(fabric, "fabric/switches_down", s, sizeof(s));
	return strtoul(l, NULL, 10) || strtoul(s, NULL, 10);
}

/* What holds @node, as sysfs nodes/N/holder says; "" when unknown. */
static void holder(uint32_t fabric, uint32_t node, char *who, size_t len)
{
	char rel[48];

	snprintf(rel, sizeof(rel), "nodes/%u/holder", node);
	fabric_file(fabric, rel, who, len);
}

static void busy_text(struct hn_handle *h, char *buf, size_t len)
{
	struct hybridnet_info info;
	uint32_t node = h->arg;
	const char *ifname;
	char who[128];
	int pid;

	if (!hn_info(h, &info) && info.node != HYBRIDNET_UNBOUND) {
		snprintf(buf, len, "cannot bind node %u: this handle is bound "
			 "to node %u already: a handle binds one node; open "
			 "another (hn_open()) for node %u", node, info.node,
			 node);
		return;
	}
	holder(bind_fabric(h), node, who, sizeof(who));
	if (sscanf(who, "a file of pid %d", &pid) == 1 && pid == getpid())
		snprintf(buf, len, "cannot bind node %u: it is bound to %s, "
			 "another handle of this program: bind each node once",
			 node, who);
	else if (!strncmp(who, "a file", 6))
		snprintf(buf, len, "cannot bind node %u: it is bound to %s: "
			 "bind another node, or end that program (hnctl show "
			 "lists the nodes bound)", node, who);
	else if (!strncmp(who, "the interface ", 14)) {
		ifname = who + 14;
		snprintf(buf, len, "cannot bind node %u: it is bound to %s: "
			 "bind another node, or delete the interface (sudo "
			 "hnctl netdev del %s)", node, who, ifname);
	} else		/* "nothing": it let go since, or a rebuild */
		snprintf(buf, len, "cannot bind node %u: a file or an "
			 "interface held it, or the fabric was being rebuilt "
			 "(hnctl set): try again, or bind another node (hnctl "
			 "show lists the nodes bound)", node);
}

/* ": the fabric has N nodes (0..N-1)", or "" when it cannot be said */
static const char *nodes_text(uint32_t nodes, char *buf, size_t len)
{
	if (!nodes)
		return "";
	snprintf(buf, len, ": the fabric has %u nodes (0..%u)", nodes,
		 nodes - 1);
	return buf;
}

/* The nodes of the fabric @h bound to, or would bind to; 0: unknown. */
static uint32_t bind_nodes(struct hn_handle *h)
{
	char num[16];

	fabric_file(bind_fabric(h), "config/nodes", num, sizeof(num));
	return (uint32_t)strtoul(num, NULL, 10);
}

static void bind_text(struct hn_handle *h, char *buf, size_t len, int err)
{
	char nodes[64];

	if (err == EBUSY)
		busy_text(h, buf, len);
	else if (err == ENODEV && h->fabric == HYBRIDNET_FABRIC_FIRST)
		snprintf(buf, len, "cannot bind node %u: there is no fabric in "
			 "this network namespace: make one (sudo hnctl fabric "
			 "add), or load the module with its default fabric",
			 h->arg);
	else if (err == ENODEV)
		snprintf(buf, len, "cannot bind node %u of fabric %u: there is "
			 "no fabric %u in this network namespace (hnctl fabric "
			 "lists them)", h->arg, h->fabric, h->fabric);
	else if (err == EINVAL)
		snprintf(buf, len, "cannot bind node %u: no such node%s", h->arg,
			 nodes_text(bind_nodes(h), nodes, sizeof(nodes)));
	else if (err == ENOTTY)
		snprintf(buf, len, "cannot bind node %u: the file is not %s",
			 h->arg, HN_DEV_PATH);
	else
		snprintf(buf, len, "cannot bind node %u: %s", h->arg,
			 strerror(err));
}

/* A switching of the message's own that its fabric cannot carry. */
static void own_switching_text(struct hn_handle *h, uint32_t fabric,
			       char *buf, size_t len)
{
	char sw[16], vc[16];

	fabric_file(fabric, "config/switching", sw, sizeof(sw));
	fabric_file(fabric, "config/vc_flits", vc, sizeof(vc));
	snprintf(buf, len, "cannot send to node %u by a switching of its own "
		 "(HYBRIDNET_MSG_SWITCHING): the fabric's switching is %s and "
		 "its vc-flits %s: drop carries none, and cut-through and "
		 "store-and-forward need buffers that hold the message's worm: "
		 "send it by the fabric's switching (those flags 0)", h->arg,
		 sw, vc);
}

static void send_text(struct hn_handle *h, char *buf, size_t len, int err)
{
	struct hybridnet_info info;
	char nodes[64];
	int known = !hn_info(h, &info);

	if (err == ENOTCONN)
		snprintf(buf, len, "cannot send: the handle is bound to no "
			 "node: hn_bind() it first");
	else if (err == ENODEV)
		snprintf(buf, len, "cannot send: %s", HN_ERR_DELETED);
	else if (err == EMSGSIZE && known && h->len <= HYBRIDNET_MAX_MSG)
		snprintf(buf, len, "cannot send %zu bytes to node %u: more than "
			 "max-msg-bytes (%u): split the message, or raise the "
			 "limit (hnctl set max-msg-bytes %zu)", h->len, h->arg,
			 info.max_msg, h->len);
	else if (err == EMSGSIZE)
		snprintf(buf, len, "cannot send %zu bytes to node %u: more than "
			 "the largest message (%u bytes): split it", h->len,
			 h->arg, HYBRIDNET_MAX_MSG);
	else if (err == EINVAL && !h->len)
		snprintf(buf, len, "cannot send an empty message to node %u: "
			 "send at least one byte", h->arg);
	else if (err == EINVAL && known && h->arg >= info.nodes)
		snprintf(buf, len, "cannot send to node %u: no such node%s",
			 h->arg, nodes_text(info.nodes, nodes, sizeof(nodes)));
	else if (err == EINVAL && (h->flags & HYBRIDNET_MSG_SWITCHING) &&
		 known)
		own_switching_text(h, info.fabric, buf, len);
	else if (err == EHOSTUNREACH && known && faults_down(info.fabric))
		snprintf(buf, len, "cannot send to node %u: no live route from "
			 "node %u to it: links or switches on every route are "
			 "down (hnctl links; hnctl link up NAME)", h->arg,
			 info.node);
	else if (err == EHOSTUNREACH)
		snprintf(buf, len, "cannot send to node %u: no circuit from node "
			 "%u to it, and the policy has no wormhole slot (no-w): "
			 "preload one (hnctl preload slot 0 %u:%u) or choose a "
			 "policy with the wormhole slot (hnctl set policy ses)",
			 h->arg, known ? info.node : 0, known ? info.node : 0,
			 h->arg);
	else if (err == EAGAIN)
		snprintf(buf, len, "cannot send now: the node's NIC buffer or "
			 "the device's message memory is full and the handle "
			 "does not wait: poll() hn_fd() for POLLOUT, then send "
			 "again");
	else
		snprintf(buf, len, "cannot send to node %u: %s", h->arg,
			 strerror(err));
}

/* hn_send_mcast(): h->arg entries */
static void mcast_text(struct hn_handle *h, char *buf, size_t len, int err)
{
	if (err == EINVAL && h->len && h->len <= HYBRIDNET_MAX_MSG)
		snprintf(buf, len, "cannot multicast to %u entries: give 1 to "
			 "%u entries HYBRIDNET_MCAST(group, bits), each group "
			 "once, each with a member, every member a node of the "
			 "fabric, or HYBRIDNET_MCAST_ALL alone (hybridnet(4))",
			 h->arg, HYBRIDNET_MCAST_MAX);
	else if (err == EMSGSIZE && h->len <= HYBRIDNET_MAX_MSG)
		snprintf(buf, len, "cannot multicast %zu bytes: more than "
			 "max-msg-bytes, or its copies, one a member, need more "
			 "than the NIC buffer (nic-buf-bytes) or the device's "
			 "message memory (msg-mem-max-bytes) holds: send to "
			 "fewer members at once, or less", h->len);
	else if (err == EHOSTUNREACH)
		snprintf(buf, len, "cannot multicast: no live route, or no "
			 "circuit under the policy no-w, to one of its members "
			 "(hnctl links): nothing was sent");
	else if (err == ENOTCONN || err == ENODEV || err == EAGAIN)
		send_text(h, buf, len, err);
	else
		snprintf(buf, len, "cannot multicast to %u entries: %s", h->arg,
			 strerror(err));
}

static void recv_text(struct hn_handle *h, char *buf, size_t len, int err)
{
	struct hybridnet_info info;

	if (err == ENOTCONN)
		snprintf(buf, len, "cannot receive: the handle is bound to no "
			 "node: hn_bind() it first");
	else if (err == ENODEV)
		snprintf(buf, len, "cannot receive: %s", HN_ERR_DELETED);
	else if (err == EMSGSIZE && !hn_info(h, &info))
		snprintf(buf, len, "cannot receive: the next message has %u "
			 "bytes, more than the buffer's %zu: give a buffer of "
			 "max-msg-bytes (%u, hn_info())", info.rx_next_len,
			 h->len, info.max_msg);
	else if (err == EAGAIN)
		snprintf(buf, len, "nothing to receive, and the handle does not "
			 "wait: poll() hn_fd() for POLLIN, then receive again");
	else
		snprintf(buf, len, "cannot receive: %s", strerror(err));
}

const char *hn_strerror(struct hn_handle *h, int err)
{
	char text[sizeof(open_err)];
	enum hn_dev_op op = h ? h->op : HN_OP_OPEN;

	if (err < 0)
		err = -err;
	switch (op) {
	case HN_OP_OPEN:
		open_text(text, sizeof(text),
			  hn_open_path[0] ? hn_open_path : HN_DEV_PATH, err);
		break;
	case HN_OP_BIND:
		bind_text(h, text, sizeof(text), err);
		break;
	case HN_OP_SEND:
		send_text(h, text, sizeof(text), err);
		break;
	case HN_OP_MCAST:
		mcast_text(h, text, sizeof(text), err);
		break;
	case HN_OP_RECV:
		recv_text(h, text, sizeof(text), err);
		break;
	default:
		if (err == ENODEV && h && h->bound)
			snprintf(text, sizeof(text), "cannot read the device's "
				 "state: %s", HN_ERR_DELETED);
		else if (err == ENODEV)
			snprintf(text, sizeof(text), "cannot read the device's "
				 "state: there is no fabric in this network "
				 "namespace: make one (sudo hnctl fabric add)");
		else
			snprintf(text, sizeof(text), "cannot read the device's "
				 "state: %s", strerror(err));
		break;
	}
	if (!h)
		return memcpy(open_err, text, sizeof(text));
	h->op = op;	/* hn_info() above made itself the last call */
	return memcpy(h->err, text, sizeof(text));
}
