// SPDX-License-Identifier: GPL-2.0
/*
 * netdev.c - a network interface per virtual node (module parameter
 * netdevs=1): hn0 .. hnN-1, each the owner of its node's port as an open
 * file of /dev/hybridnet would be, so a node held by a file cannot get an
 * interface and the other way round (the bind fails with EBUSY).
 *
 * Addresses: node n has the locally administered unicast MAC
 * 02:68:6e:00:HH:LL ("hn", then n as a 16-bit big-endian number), so
 * 02:68:6e:00:00:03 is node 3 whatever the load order.
 *
 * Frames: each frame the stack transmits is one message of the engine,
 * the whole Ethernet frame as its payload, sent from the interface's node
 * to the node its destination MAC names; a broadcast or multicast frame
 * is one message to every other node with an interface.  The MTU is
 * max_msg_bytes less the Ethernet header; max_msg_bytes cannot change
 * while interfaces exist, since a rebuild of the fabric is refused while
 * any port is bound (hn_ports_busy()).
 *
 * Context: the engine is under hd->lock, a mutex, and ndo_start_xmit runs
 * with bottom halves off; so a transmitted frame waits on the interface's
 * own queue (HN_ND_TXQ frames) for a work item that sends it under
 * hd->lock.  When that queue is full the interface's queue is stopped;
 * the work item wakes it once it has room again.  The same work item
 * takes delivered messages off the port's receive queue, hands them to
 * the stack (netif_rx()) and returns their receive space.  It is queued
 * by a wait-queue entry on the port's wait queue, the one files' readers
 * and writers sleep on: the port wakes it on every delivery and, once the
 * NIC was found full (hn_port_want_room()), whenever the NIC's room
 * changes.  So a full NIC holds frames back instead of losing them, and
 * the stack's qdisc holds or drops as it does for any device.
 *
 * Drops: a frame that cannot go is counted in the interface's standard
 * counters (ip -s link) and, by reason, in ethtool -S: a destination MAC
 * that names no node, the device's message memory full, a destination
 * the pure TDM policy cannot reach, a frame longer than max_msg_bytes (a
 * VLAN tag on a frame of the full MTU); a message that reaches an interface
 * that is down or cannot get an skb.
 *
 * Lifetime: the interfaces are created at load, after the device, and
 * removed at unload before it, wherever their network namespace.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/etherdevice.h>
#include <linux/ethtool.h>
#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <linux/slab.h>
#include <linux/workqueue.h>

#include "hn_kmod.h"

/* frames waiting for the work item before the queue is stopped */
#define HN_ND_TXQ	64
/* messages taken off the receive queue per run of the work item */
#define HN_ND_RX_BUDGET	64

static const u8 hn_nd_oui[3] = { 0x02, 0x68, 0x6e };

/* Drop reasons, ethtool -S names. */
enum hn_nd_drop {
	HN_ND_TX_NO_NODE,	/* destination MAC names no node */
	HN_ND_TX_NO_MEM,	/* message memory full or allocation failed */
	HN_ND_TX_UNREACH,	/* pure TDM: no circuit to the destination */
	HN_ND_TX_TOO_BIG,	/* longer than max_msg_bytes (a VLAN tag) */
	HN_ND_RX_DOWN,		/* delivered to an interface that is down */
	HN_ND_RX_SHORT,		/* a file sent less than an Ethernet header */
	HN_ND_RX_NO_MEM,	/* no skb for a delivered message */
	HN_ND_DROP_NR
};

static const char hn_nd_drop_names[HN_ND_DROP_NR][ETH_GSTRING_LEN] = {
	"tx_drop_no_node",
	"tx_drop_no_mem",
	"tx_drop_unreach",
	"tx_drop_too_big",
	"rx_drop_down",
	"rx_drop_short",
	"rx_drop_no_mem",
};

struct hn_netdev {
	struct hn_file f;		/* the port's owner */
	struct hn_port *port;
	struct net_device *ndev;
	struct wait_queue_entry wait;	/* on port->wq: queues work */
	struct work_struct work;
	struct sk_buff_head txq;	/* waiting for the work item */
	u32 tx_next;			/* broadcast: next node of txq's head */
	atomic64_t tx_packets, tx_bytes, rx_packets, rx_bytes;
	atomic64_t drops[HN_ND_DROP_NR];
};

/* each node's interface, or NULL; set at load, cleared at unload */
static struct hn_netdev **hn_nds;
static u32 hn_nds_count;

static void hn_nd_mac(u8 *mac, u32 node)
{
	memcpy(mac, hn_nd_oui, sizeof(hn_nd_oui));
	mac[3] = 0;
	mac[4] = node >> 8;
	mac[5] = node & 0xff;
}

/* The node @mac names, or -1. */
static int hn_nd_mac_node(const u8 *mac)
{
	u32 node = (mac[4] << 8) | mac[5];

	if (memcmp(mac, hn_nd_oui, sizeof(hn_nd_oui)) || mac[3] ||
	    node >= hn_nds_count)
		return -1;
	return node;
}

static void hn_nd_drop(struct hn_netdev *nd, enum hn_nd_drop why)
{
	atomic64_inc(&nd->drops[why]);
}

static int hn_nd_wake(struct wait_queue_entry *wait, unsigned int mode,
		      int sync, void *key)
{
	struct hn_netdev *nd = container_of(wait, struct hn_netdev, wait);

	queue_work(system_wq, &nd->work);
	return 0;
}

/*
 * The next destination of @skb at or after nd->tx_next: the node its
 * MAC names (once), or each other node with an interface.  -1 when
 * there is none left.
 */
static int hn_nd_next_dst(struct hn_netdev *nd, struct sk_buff *skb)
{
	const u8 *dst = eth_hdr(skb)->h_dest;
	u32 n;

	if (!is_multicast_ether_addr(dst))
		return nd->tx_next ? -1 : hn_nd_mac_node(dst);
	for (n = nd->tx_next; n < hn_nds_count; n++)
		if (READ_ONCE(hn_nds[n]) && n != nd->port->id)
			return n;
	return -1;
}

/*
 * Send the frames waiting on nd->txq, each as one message per
 * destination, until the NIC is full.  Returns true when the engine has
 * work left for the clock.
 */
static bool hn_nd_tx(struct hn_netdev *nd)
{
	struct hn_dev *hd = nd->f.hd;
	struct hn_port *p = nd->port;
	struct hn_kmsg *km;
	bool was_busy = false;
	struct sk_buff *skb;
	u32 sent = 0;
	int dst, rc;

	lockdep_assert_held(&hd->lock);
	while ((skb = skb_peek(&nd->txq))) {
		dst = hn_nd_next_dst(nd, skb);
		if (dst < 0) {
			if (!nd->tx_next)
				hn_nd_drop(nd, HN_ND_TX_NO_NODE);
			nd->tx_next = 0;
			skb_unlink(skb, &nd->txq);
			dev_kfree_skb(skb);
			continue;
		}
		if (hn_nic_room(hd->e, p->id) < skb->len) {
			/* hn_ports_wake_writers() tells when room changes */
			hn_port_want_room(hd, p);
			break;
		}
		km = hn_kmsg_alloc(hd, skb->len, true);
		if (IS_ERR(km)) {
			hn_nd_drop(nd, HN_ND_TX_NO_MEM);
			nd->tx_next = dst + 1;
			continue;
		}
		skb_copy_bits(skb, 0, km->data, skb->len);
		km->m.src = p->id;
		km->m.dst = dst;
		hn_clock_sync(hd);
		km->m.t_inject = hn_now(hd->e);
		was_busy |= hn_busy(hd->e);
		rc = hn_inject(hd->e, &km->m, NULL);
		if (rc) {
			hn_kmsg_free(hd, km);
			if (rc == -EAGAIN) {
				hn_port_want_room(hd, p);
				break;
			}
			hn_nd_drop(nd, rc == -EHOSTUNREACH ?
				   HN_ND_TX_UNREACH : HN_ND_TX_NO_MEM);
		} else {
			atomic64_inc(&nd->tx_packets);
			atomic64_add(skb->len, &nd->tx_bytes);
			sent += skb->len;
		}
		nd->tx_next = dst + 1;
	}
	/* as a write: an idle fabric carries the frames in this context */
	return sent && (was_busy || hn_clock_drive(hd, hn_clock_budget(hd,
								      sent)));
}

/* Hand a delivered message to the stack as a frame, or count why not. */
static void hn_nd_rx_one(struct hn_netdev *nd, const struct hn_kmsg *km)
{
	struct net_device *ndev = nd->ndev;
	struct sk_buff *skb;

	if (!netif_running(ndev)) {
		hn_nd_drop(nd, HN_ND_RX_DOWN);
		return;
	}
	if (km->m.len < ETH_HLEN) {
		hn_nd_drop(nd, HN_ND_RX_SHORT);
		return;
	}
	skb = netdev_alloc_skb_ip_align(ndev, km->m.len);
	if (!skb) {
		hn_nd_drop(nd, HN_ND_RX_NO_MEM);
		return;
	}
	skb_put_data(skb, km->data, km->m.len);
	skb->protocol = eth_type_trans(skb, ndev);
	atomic64_inc(&nd->rx_packets);
	atomic64_add(km->m.len, &nd->rx_bytes);
	netif_rx(skb);
}

/*
 * Up to HN_ND_RX_BUDGET delivered messages to the stack; *@more when
 * others may wait.  Returns the receive space to give back.
 */
static u32 hn_nd_rx(struct hn_netdev *nd, bool *more)
{
	struct hn_kmsg *km;
	u32 give = 0, i;

	for (i = 0; i < HN_ND_RX_BUDGET; i++) {
		km = hn_port_peek(nd->port);
		if (!km)
			break;
		hn_nd_rx_one(nd, km);
		give += hn_port_pop(nd->f.hd, nd->port, km);
	}
	*more = i == HN_ND_RX_BUDGET;
	return give;
}

static void hn_nd_work(struct work_struct *work)
{
	struct hn_netdev *nd = container_of(work, struct hn_netdev, work);
	struct hn_dev *hd = nd->f.hd;
	bool more, busy;
	u32 give;

	give = hn_nd_rx(nd, &more);
	mutex_lock(&hd->lock);
	if (give)
		hn_port_credit(hd, nd->port, give);
	busy = hn_nd_tx(nd);
	/* as a read: the space given back may let a stalled fabric go on */
	busy |= give && hn_busy(hd->e);
	mutex_unlock(&hd->lock);
	if (busy)
		hn_clock_kick(hd);
	if (netif_queue_stopped(nd->ndev) &&
	    skb_queue_len(&nd->txq) < HN_ND_TXQ / 2)
		netif_wake_queue(nd->ndev);
	if (more)
		queue_work(system_wq, &nd->work);
}

static netdev_tx_t hn_nd_xmit(struct sk_buff *skb, struct net_device *ndev)
{
	struct hn_netdev *nd = netdev_priv(ndev);

	if (skb->len > nd->f.hd->cfg.max_msg_bytes) {
		hn_nd_drop(nd, HN_ND_TX_TOO_BIG);
		dev_kfree_skb_any(skb);
		return NETDEV_TX_OK;
	}
	skb_queue_tail(&nd->txq, skb);
	if (skb_queue_len(&nd->txq) >= HN_ND_TXQ)
		netif_stop_queue(ndev);
	queue_work(system_wq, &nd->work);
	return NETDEV_TX_OK;
}

static int hn_nd_open(struct net_device *ndev)
{
	netif_start_queue(ndev);
	return 0;
}

static int hn_nd_stop(struct net_device *ndev)
{
	netif_stop_queue(ndev);
	return 0;
}

static void hn_nd_get_stats64(struct net_device *ndev,
			      struct rtnl_link_stats64 *s)
{
	struct hn_netdev *nd = netdev_priv(ndev);

	s->tx_packets = atomic64_read(&nd->tx_packets);
	s->tx_bytes = atomic64_read(&nd->tx_bytes);
	s->rx_packets = atomic64_read(&nd->rx_packets);
	s->rx_bytes = atomic64_read(&nd->rx_bytes);
	s->tx_dropped = atomic64_read(&nd->drops[HN_ND_TX_NO_NODE]) +
			atomic64_read(&nd->drops[HN_ND_TX_NO_MEM]) +
			atomic64_read(&nd->drops[HN_ND_TX_UNREACH]) +
			atomic64_read(&nd->drops[HN_ND_TX_TOO_BIG]);
	s->rx_dropped = atomic64_read(&nd->drops[HN_ND_RX_DOWN]) +
			atomic64_read(&nd->drops[HN_ND_RX_SHORT]) +
			atomic64_read(&nd->drops[HN_ND_RX_NO_MEM]);
}

static const struct net_device_ops hn_nd_ops = {
	.ndo_open = hn_nd_open,
	.ndo_stop = hn_nd_stop,
	.ndo_start_xmit = hn_nd_xmit,
	.ndo_get_stats64 = hn_nd_get_stats64,
	.ndo_validate_addr = eth_validate_addr,
};

static int hn_nd_sset_count(struct net_device *ndev, int sset)
{
	return sset == ETH_SS_STATS ? HN_ND_DROP_NR : -EOPNOTSUPP;
}

static void hn_nd_get_strings(struct net_device *ndev, u32 sset, u8 *buf)
{
	if (sset == ETH_SS_STATS)
		memcpy(buf, hn_nd_drop_names, sizeof(hn_nd_drop_names));
}

static void hn_nd_ethtool_stats(struct net_device *ndev,
				struct ethtool_stats *stats, u64 *data)
{
	struct hn_netdev *nd = netdev_priv(ndev);
	int i;

	for (i = 0; i < HN_ND_DROP_NR; i++)
		data[i] = atomic64_read(&nd->drops[i]);
}

static const struct ethtool_ops hn_nd_ethtool_ops = {
	.get_link = ethtool_op_get_link,
	.get_sset_count = hn_nd_sset_count,
	.get_strings = hn_nd_get_strings,
	.get_ethtool_stats = hn_nd_ethtool_stats,
};

static void hn_nd_free(struct hn_netdev *nd)
{
	struct hn_dev *hd = nd->f.hd;
	bool gave;

	remove_wait_queue(&nd->port->wq, &nd->wait);
	cancel_work_sync(&nd->work);
	mutex_lock(&hd->lock);
	gave = hn_port_unbind(hd, nd->port);
	mutex_unlock(&hd->lock);
	if (gave)
		hn_clock_kick(hd);
	skb_queue_purge(&nd->txq);
	free_netdev(nd->ndev);
}

/* The interface of @node, bound to its port and registered. */
static int hn_nd_add(struct hn_dev *hd, u32 node)
{
	struct net_device *ndev;
	struct hn_netdev *nd;
	char name[IFNAMSIZ];
	u8 mac[ETH_ALEN];
	int rc;

	snprintf(name, sizeof(name), "hn%u", node);
	ndev = alloc_netdev(sizeof(*nd), name, NET_NAME_PREDICTABLE,
			    ether_setup);
	if (!ndev)
		return -ENOMEM;
	nd = netdev_priv(ndev);
	nd->ndev = ndev;
	nd->f.hd = hd;
	nd->port = &hd->ports[node];
	skb_queue_head_init(&nd->txq);
	INIT_WORK(&nd->work, hn_nd_work);
	init_waitqueue_func_entry(&nd->wait, hn_nd_wake);

	ndev->netdev_ops = &hn_nd_ops;
	ndev->ethtool_ops = &hn_nd_ethtool_ops;
	ndev->min_mtu = ETH_MIN_MTU;
	ndev->max_mtu = hd->cfg.max_msg_bytes - ETH_HLEN;
	ndev->mtu = ndev->max_mtu;
	ndev->tx_queue_len = 1000;
	hn_nd_mac(mac, node);
	eth_hw_addr_set(ndev, mac);

	mutex_lock(&hd->lock);
	rc = hn_port_bind(hd, nd->port, &nd->f);
	mutex_unlock(&hd->lock);
	if (rc) {
		free_netdev(ndev);
		return rc;
	}
	add_wait_queue(&nd->port->wq, &nd->wait);
	WRITE_ONCE(hn_nds[node], nd);
	rc = register_netdev(ndev);
	if (rc) {
		WRITE_ONCE(hn_nds[node], NULL);
		hn_nd_free(nd);
	}
	return rc;
}

/*
 * One interface per node (netdevs=1).  max_msg_bytes must leave room for
 * an IPv4 packet of 68 bytes after the Ethernet header.
 */
int hn_netdevs_add(struct hn_dev *hd)
{
	u32 n;
	int rc;

	if (hd->cfg.max_msg_bytes < ETH_HLEN + ETH_MIN_MTU) {
		pr_err("netdevs=1: max_msg_bytes=%u is below %u, an Ethernet header and the least MTU\n",
		       hd->cfg.max_msg_bytes, ETH_HLEN + ETH_MIN_MTU);
		return -EINVAL;
	}
	if (hd->cfg.nodes > 0x10000)
		return -EINVAL;
	hn_nds = kcalloc(hd->cfg.nodes, sizeof(*hn_nds), GFP_KERNEL);
	if (!hn_nds)
		return -ENOMEM;
	hn_nds_count = hd->cfg.nodes;
	for (n = 0; n < hd->cfg.nodes; n++) {
		rc = hn_nd_add(hd, n);
		if (rc) {
			pr_err("cannot create interface hn%u: %d\n",
			       n, rc);
			hn_netdevs_del(hd);
			return rc;
		}
	}
	return 0;
}

/* Remove every interface, in whatever network namespace it is. */
void hn_netdevs_del(struct hn_dev *hd)
{
	struct hn_netdev *nd;
	u32 n;

	for (n = 0; n < hn_nds_count; n++) {
		nd = hn_nds[n];
		if (!nd)
			continue;
		unregister_netdev(nd->ndev);
		WRITE_ONCE(hn_nds[n], NULL);
		hn_nd_free(nd);
	}
	kfree(hn_nds);
	hn_nds = NULL;
	hn_nds_count = 0;
}
