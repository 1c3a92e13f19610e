// SPDX-License-Identifier: GPL-2.0
/*
 * netdev.c - a network interface per virtual node: the owner of its
 * node's port as an open file of /dev/hybridnet would be, so a node held
 * by a file cannot get an interface and the other way round (EBUSY).
 * Interfaces are made at load (netdevs=1: hn0 .. hnN-1), by netlink
 * (HYBRIDNET_CMD_NETDEV_ADD, nl_netdev.c) and by rtnetlink ("ip link add
 * NAME type hybridnet": the rtnl_link_ops kind "hybridnet"); any of them
 * goes with "ip link del", HYBRIDNET_CMD_NETDEV_DEL or the unload.
 *
 * Which node "ip link add" takes: iproute2 passes kind-specific
 * attributes (IFLA_INFO_DATA) only through a plugin of its own
 * (link_hybridnet.so), so the node comes from the name: hnN takes node N,
 * any other name (or none, which becomes hnN) the lowest node that has no
 * owner.
 *
 * Addresses: node n has the locally administered unicast MAC
 * 02:68:6e:00:HH:LL ("hn", then n as a 16-bit big-endian number), so
 * 02:68:6e:00:00:03 is node 3 whatever the load order or the namespace.
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
 * changes; and by a second entry, on the device's message-memory wait
 * queue while the device's messages hold msg_mem_max_bytes, which the
 * next message freed wakes.  So a full NIC or a full message memory holds
 * frames back instead of losing them, and the stack's qdisc holds or
 * drops as it does for any device.
 *
 * Drops: a frame that cannot go is counted in the interface's standard
 * counters (ip -s link) and, by reason, in ethtool -S: a destination MAC
 * that names no node, no memory for the message (the kernel's, not
 * msg_mem_max_bytes), a destination the pure TDM policy cannot reach, a
 * frame longer than max_msg_bytes (a VLAN tag on a frame of the full
 * MTU); a message that reaches an interface that is down or cannot get an
 * skb, or that netif_rx() drops (counted in rx_dropped by the core, by
 * its reason here, and never in rx_packets).  ethtool -S also counts
 * the queue's stops by what the work item was waiting for (nothing: it
 * was behind; the NIC; message memory), a stopped queue whose cause
 * changes counting again for the new one, and gives the node's figures
 * of sysfs nodes/N/ (the HN_NSTAT list of hn_lists.h).
 *
 * Locking (main.c): hn_nds[] and nd->bound change with the RTNL and
 * hd->lock both held, so either lock reads them; an interface's port is
 * claimed under hd->lock, where files bind theirs, and a rebuild
 * (hd->frozen) refuses both.  The RTNL is taken before hd->lock, never
 * after it, and never inside hd->nl_lock's reverse.  ndo_uninit gives the
 * node back: it stops the work item for good before unbinding the port.
 *
 * Lifetime: every interface carries hn_link_ops, so the unload
 * (rtnl_link_unregister()) removes them from whatever network namespace
 * they are in; a namespace that ends gives them back to the initial one
 * (netns_refund), as a physical device.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/etherdevice.h>
#include <linux/ethtool.h>
#include <linux/mm.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <linux/skbuff.h>
#include <linux/slab.h>
#include <linux/workqueue.h>
#include <net/rtnetlink.h>

#include "hn_kmod.h"

/* frames waiting for the work item before the queue is stopped */
#define HN_ND_TXQ	64
/* messages taken off the receive queue per run of the work item */
#define HN_ND_RX_BUDGET	64

/* Counters of ethtool -S: drops by reason, then the queue's stops. */
enum hn_nd_cnt {
	HN_ND_TX_NO_NODE,	/* destination MAC names no node */
	HN_ND_TX_NO_MEM,	/* the kernel could not allocate the message */
	HN_ND_TX_UNREACH,	/* pure TDM: no circuit to the destination */
	HN_ND_TX_TOO_BIG,	/* longer than max_msg_bytes (a VLAN tag) */
	HN_ND_RX_DOWN,		/* delivered to an interface that is down */
	HN_ND_RX_SHORT,		/* a file sent less than an Ethernet header */
	HN_ND_RX_NO_MEM,	/* no skb for a delivered message */
	HN_ND_RX_BACKLOG,	/* netif_rx() dropped it (its backlog full) */
	HN_ND_DROP_NR,
	/* the queue stopped, as the work item left txq's head: */
	HN_ND_STOP_BACKLOG = HN_ND_DROP_NR,	/* sent, still behind */
	HN_ND_STOP_NIC,		/* waiting for the NIC buffer */
	HN_ND_STOP_MEM,		/* waiting for msg_mem_max_bytes */
	HN_ND_CNT_NR
};

static const char hn_nd_cnt_names[HN_ND_CNT_NR][ETH_GSTRING_LEN] = {
	"tx_drop_no_node",
	"tx_drop_no_mem",
	"tx_drop_unreach",
	"tx_drop_too_big",
	"rx_drop_down",
	"rx_drop_short",
	"rx_drop_no_mem",
	"rx_drop_backlog",
	"tx_stop_backlog",
	"tx_stop_nic_full",
	"tx_stop_msg_mem",
};

/* the node's figures, named as its files of sysfs nodes/N/ */
static const char hn_nd_nstat_names[HN_NS_NR][ETH_GSTRING_LEN] = {
#define HN_NSTAT(file, stat, value) \
	[HN_NS_##file] = #file,
#include "hn_lists.h"
#undef HN_NSTAT
};

struct hn_netdev {
	struct hn_file f;		/* the port's owner */
	struct hn_port *port;		/* while bound */
	struct net_device *ndev;
	u32 node;
	bool bound;			/* RTNL and hd->lock: holds the port */
	struct wait_queue_entry wait;	/* on port->wq: queues work */
	struct wait_queue_entry mem_wait; /* on hd->mem_wq while waiting */
	struct work_struct work;
	struct sk_buff_head txq;	/* waiting for the work item */
	u32 tx_next;			/* broadcast: next node of txq's head */
	u8 tx_why;			/* HN_ND_STOP_*: the last run's */
	atomic64_t tx_packets, tx_bytes, rx_packets, rx_bytes;
	atomic64_t cnt[HN_ND_CNT_NR];
};

/* each node's interface, or NULL (HN_MAX_NODES entries) */
static struct hn_netdev **hn_nds;
static struct hn_dev *hn_nd_hd;
static struct rtnl_link_ops hn_link_ops;

/* Why a node cannot get an interface (hn_nd_claim()). */
static const char *const hn_nd_why_text[] = {
	[HN_ND_WHY_RANGE] = "the node is out of range",
	[HN_ND_WHY_FILE] = "the node is bound to a file",
	[HN_ND_WHY_NETDEV] = "the node has an interface already",
	[HN_ND_WHY_REBUILD] = "the fabric is being rebuilt",
	[HN_ND_WHY_MTU] = "max_msg_bytes is below an Ethernet header and an MTU of 68",
	[HN_ND_WHY_FULL] = "every node has an interface or a file",
	[HN_ND_WHY_NAME] = "the name is taken in this network namespace",
	[HN_ND_WHY_REGISTER] = "the kernel refused to register the interface",
};

const char *hn_netdev_why(enum hn_nd_why why)
{
	return hn_nd_why_text[why];
}

/* The node @mac names, or -1. */
static int hn_nd_mac_node(struct hn_dev *hd, const u8 *mac)
{
	u32 node = (mac[4] << 8) | mac[5];
	u8 want[ETH_ALEN];

	lockdep_assert_held(&hd->lock);
	hn_node_mac(want, node);
	if (!ether_addr_equal(mac, want) || node >= hd->cfg.nodes)
		return -1;
	return node;
}

static void hn_nd_count(struct hn_netdev *nd, enum hn_nd_cnt c)
{
	atomic64_inc(&nd->cnt[c]);
}

static int hn_nd_wake(struct wait_queue_entry *wait, unsigned int mode,
		      int sync, void *key)
{
	struct hn_netdev *nd = container_of(wait, struct hn_netdev, wait);

	queue_work(system_wq, &nd->work);
	return 0;
}

/* Memory was freed: leave the wait queue (as autoremove does), send. */
static int hn_nd_mem_wake(struct wait_queue_entry *wait, unsigned int mode,
			  int sync, void *key)
{
	struct hn_netdev *nd = container_of(wait, struct hn_netdev, mem_wait);

	list_del_init(&wait->entry);
	queue_work(system_wq, &nd->work);
	return 0;
}

/* Wait for the device's message memory (only the work item calls it). */
static void hn_nd_mem_wait(struct hn_netdev *nd)
{
	wait_queue_head_t *wq = &nd->f.hd->mem_wq;
	unsigned long flags;

	spin_lock_irqsave(&wq->lock, flags);
	if (list_empty(&nd->mem_wait.entry))
		__add_wait_queue(wq, &nd->mem_wait);
	spin_unlock_irqrestore(&wq->lock, flags);
	/* pairs with wq_has_sleeper() in hn_msg_mem_uncharge() */
	smp_mb();
}

static void hn_nd_mem_unwait(struct hn_netdev *nd)
{
	wait_queue_head_t *wq = &nd->f.hd->mem_wq;
	unsigned long flags;

	spin_lock_irqsave(&wq->lock, flags);
	list_del_init(&nd->mem_wait.entry);
	spin_unlock_irqrestore(&wq->lock, flags);
}

/*
 * The next destination of @skb at or after nd->tx_next: the node its
 * MAC names (once), or each other node with an interface.  -1 when
 * there is none left.
 */
static int hn_nd_next_dst(struct hn_netdev *nd, struct sk_buff *skb)
{
	const u8 *dst = eth_hdr(skb)->h_dest;
	struct hn_dev *hd = nd->f.hd;
	u32 n;

	if (!is_multicast_ether_addr(dst))
		return nd->tx_next ? -1 : hn_nd_mac_node(hd, dst);
	for (n = nd->tx_next; n < hd->cfg.nodes; n++)
		if (hn_nds[n] && n != nd->node)
			return n;
	return -1;
}

/*
 * A message for the frame at the head of txq, or NULL when it must wait
 * for message memory (then the work item runs again once some is freed)
 * or the kernel has none (counted; the caller goes on).
 */
static struct hn_kmsg *hn_nd_kmsg(struct hn_netdev *nd, u32 len, bool *wait)
{
	struct hn_dev *hd = nd->f.hd;
	struct hn_kmsg *km;

	*wait = false;
	km = hn_kmsg_alloc(hd, len, true, HYBRIDNET_CAPTURE_FROM_NETDEV);
	if (!IS_ERR(km))
		return km;
	if (PTR_ERR(km) != -EAGAIN) {
		hn_nd_count(nd, HN_ND_TX_NO_MEM);
		return NULL;
	}
	hn_nd_mem_wait(nd);
	/* freed meanwhile? */
	km = hn_kmsg_alloc(hd, len, true, HYBRIDNET_CAPTURE_FROM_NETDEV);
	if (!IS_ERR(km)) {
		hn_nd_mem_unwait(nd);
		return km;
	}
	if (PTR_ERR(km) != -EAGAIN) {
		hn_nd_mem_unwait(nd);
		hn_nd_count(nd, HN_ND_TX_NO_MEM);
		return NULL;
	}
	*wait = true;
	return NULL;
}

/*
 * Send the frames waiting on nd->txq, each as one message per
 * destination, until the NIC or the message memory is full.  Returns true
 * when the engine has work left for the clock.
 */
static bool hn_nd_tx(struct hn_netdev *nd)
{
	struct hn_dev *hd = nd->f.hd;
	struct hn_port *p = nd->port;
	struct hn_kmsg *km;
	enum hn_nd_cnt why = HN_ND_STOP_BACKLOG;
	bool was_busy = false, wait;
	struct sk_buff *skb;
	u32 sent = 0;
	int dst, rc;

	lockdep_assert_held(&hd->lock);
	while ((skb = skb_peek(&nd->txq))) {
		dst = hn_nd_next_dst(nd, skb);
		if (dst < 0) {
			if (!nd->tx_next)
				hn_nd_count(nd, HN_ND_TX_NO_NODE);
			nd->tx_next = 0;
			skb_unlink(skb, &nd->txq);
			dev_kfree_skb(skb);
			continue;
		}
		if (hn_nic_room(hd->e, p->id) < skb->len) {
			/* hn_ports_wake_writers() tells when room changes */
			hn_port_want_room(hd, p);
			why = HN_ND_STOP_NIC;
			break;
		}
		km = hn_nd_kmsg(nd, skb->len, &wait);
		if (wait) {
			why = HN_ND_STOP_MEM;
			break;
		}
		if (!km) {
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
				why = HN_ND_STOP_NIC;
				break;
			}
			hn_nd_count(nd, rc == -EHOSTUNREACH ?
				    HN_ND_TX_UNREACH : HN_ND_TX_NO_MEM);
		} else {
			atomic64_inc(&nd->tx_packets);
			atomic64_add(skb->len, &nd->tx_bytes);
			sent += skb->len;
		}
		nd->tx_next = dst + 1;
	}
	/* why the frames wait, until the next run says otherwise */
	WRITE_ONCE(nd->tx_why, why);
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
		hn_nd_count(nd, HN_ND_RX_DOWN);
		return;
	}
	if (km->m.len < ETH_HLEN) {
		hn_nd_count(nd, HN_ND_RX_SHORT);
		return;
	}
	skb = netdev_alloc_skb_ip_align(ndev, km->m.len);
	if (!skb) {
		hn_nd_count(nd, HN_ND_RX_NO_MEM);
		return;
	}
	skb_put_data(skb, km->data, km->m.len);
	skb->protocol = eth_type_trans(skb, ndev);
	/* a drop there is in the core's rx_dropped already: count the why */
	if (netif_rx(skb) == NET_RX_DROP) {
		hn_nd_count(nd, HN_ND_RX_BACKLOG);
		return;
	}
	atomic64_inc(&nd->rx_packets);
	atomic64_add(km->m.len, &nd->rx_bytes);
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
	u8 why = nd->tx_why;
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
	if (netif_queue_stopped(nd->ndev)) {
		if (skb_queue_len(&nd->txq) < HN_ND_TXQ / 2)
			netif_wake_queue(nd->ndev);
		else if (nd->tx_why != why)	/* kept stopped, for another cause */
			hn_nd_count(nd, nd->tx_why);
	}
	if (more)
		queue_work(system_wq, &nd->work);
}

static netdev_tx_t hn_nd_xmit(struct sk_buff *skb, struct net_device *ndev)
{
	struct hn_netdev *nd = netdev_priv(ndev);

	if (skb->len > READ_ONCE(nd->f.hd->cfg.max_msg_bytes)) {
		hn_nd_count(nd, HN_ND_TX_TOO_BIG);
		dev_kfree_skb_any(skb);
		return NETDEV_TX_OK;
	}
	skb_queue_tail(&nd->txq, skb);
	if (skb_queue_len(&nd->txq) >= HN_ND_TXQ) {
		netif_stop_queue(ndev);
		hn_nd_count(nd, READ_ONCE(nd->tx_why));
	}
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
	int i;

	s->tx_packets = atomic64_read(&nd->tx_packets);
	s->tx_bytes = atomic64_read(&nd->tx_bytes);
	s->rx_packets = atomic64_read(&nd->rx_packets);
	s->rx_bytes = atomic64_read(&nd->rx_bytes);
	for (i = HN_ND_TX_NO_NODE; i <= HN_ND_TX_TOO_BIG; i++)
		s->tx_dropped += atomic64_read(&nd->cnt[i]);
	/* netif_rx()'s drops (HN_ND_RX_BACKLOG): the core adds them */
	for (i = HN_ND_RX_DOWN; i <= HN_ND_RX_NO_MEM; i++)
		s->rx_dropped += atomic64_read(&nd->cnt[i]);
}

/*
 * Give the node back (ndo_uninit, or a registration that failed): the
 * work item is stopped for good first, then the port unbound.  RTNL.
 */
static void hn_nd_release(struct hn_netdev *nd)
{
	struct hn_dev *hd = nd->f.hd;
	bool gave;

	ASSERT_RTNL();
	if (!nd->bound)
		return;
	remove_wait_queue(&nd->port->wq, &nd->wait);
	cancel_work_sync(&nd->work);
	/* the work item may have waited for memory again as it ended */
	hn_nd_mem_unwait(nd);
	cancel_work_sync(&nd->work);
	mutex_lock(&hd->lock);
	WRITE_ONCE(hn_nds[nd->node], NULL);
	nd->bound = false;
	gave = hn_port_unbind(hd, nd->port);
	mutex_unlock(&hd->lock);
	if (gave)
		hn_clock_kick(hd);
	skb_queue_purge(&nd->txq);
}

static void hn_nd_uninit(struct net_device *ndev)
{
	hn_nd_release(netdev_priv(ndev));
}

static const struct net_device_ops hn_nd_ops = {
	.ndo_uninit = hn_nd_uninit,
	.ndo_open = hn_nd_open,
	.ndo_stop = hn_nd_stop,
	.ndo_start_xmit = hn_nd_xmit,
	.ndo_get_stats64 = hn_nd_get_stats64,
	.ndo_validate_addr = eth_validate_addr,
};

static int hn_nd_sset_count(struct net_device *ndev, int sset)
{
	return sset == ETH_SS_STATS ? HN_ND_CNT_NR + HN_NS_NR : -EOPNOTSUPP;
}

static void hn_nd_get_strings(struct net_device *ndev, u32 sset, u8 *buf)
{
	if (sset != ETH_SS_STATS)
		return;
	memcpy(buf, hn_nd_cnt_names, sizeof(hn_nd_cnt_names));
	memcpy(buf + sizeof(hn_nd_cnt_names), hn_nd_nstat_names,
	       sizeof(hn_nd_nstat_names));
}

static void hn_nd_ethtool_stats(struct net_device *ndev,
				struct ethtool_stats *stats, u64 *data)
{
	struct hn_netdev *nd = netdev_priv(ndev);
	struct hn_dev *hd = nd->f.hd;
	int i;

	for (i = 0; i < HN_ND_CNT_NR; i++)
		data[i] = atomic64_read(&nd->cnt[i]);
	mutex_lock(&hd->lock);
	if (nd->bound)
		hn_dev_node_stats(hd, nd->node, data + HN_ND_CNT_NR);
	mutex_unlock(&hd->lock);
}

static const struct ethtool_ops hn_nd_ethtool_ops = {
	.get_link = ethtool_op_get_link,
	.get_sset_count = hn_nd_sset_count,
	.get_strings = hn_nd_get_strings,
	.get_ethtool_stats = hn_nd_ethtool_stats,
};

/* rtnl_link_ops.setup, and alloc_netdev()'s: an interface with no node */
static void hn_nd_setup(struct net_device *ndev)
{
	struct hn_netdev *nd = netdev_priv(ndev);

	ether_setup(ndev);
	ndev->netdev_ops = &hn_nd_ops;
	ndev->ethtool_ops = &hn_nd_ethtool_ops;
	ndev->rtnl_link_ops = &hn_link_ops;
	ndev->needs_free_netdev = true;
	ndev->min_mtu = ETH_MIN_MTU;
	ndev->tx_queue_len = 1000;
	nd->ndev = ndev;
	nd->f.hd = hn_nd_hd;
	nd->f.ndev = ndev;
	nd->tx_why = HN_ND_STOP_BACKLOG;
	skb_queue_head_init(&nd->txq);
	INIT_WORK(&nd->work, hn_nd_work);
	init_waitqueue_func_entry(&nd->wait, hn_nd_wake);
	init_waitqueue_func_entry(&nd->mem_wait, hn_nd_mem_wake);
	INIT_LIST_HEAD(&nd->mem_wait.entry);
}

/* The lowest node with no owner, or -1.  hd->lock. */
static int hn_nd_free_node(struct hn_dev *hd)
{
	u32 n;

	lockdep_assert_held(&hd->lock);
	for (n = 0; n < hd->cfg.nodes; n++)
		if (!hd->ports[n].owner)
			return n;
	return -1;
}

/*
 * Give node @node (or, when it is negative, the lowest free one) to
 * @nd: its port, its MTU, its MAC.  RTNL.  0, or an errno and *@why.
 */
static int hn_nd_claim(struct hn_netdev *nd, int node, enum hn_nd_why *why)
{
	struct hn_dev *hd = nd->f.hd;
	struct net_device *ndev = nd->ndev;
	u8 mac[ETH_ALEN];
	int rc = -EBUSY;

	ASSERT_RTNL();
	mutex_lock(&hd->lock);
	if (node < 0)
		node = hn_nd_free_node(hd);
	if (hd->frozen) {
		*why = HN_ND_WHY_REBUILD;
	} else if (node < 0) {
		*why = HN_ND_WHY_FULL;
	} else if (node >= hd->cfg.nodes) {
		*why = HN_ND_WHY_RANGE;
		rc = -EINVAL;
	} else if (hd->cfg.max_msg_bytes < ETH_HLEN + ETH_MIN_MTU) {
		*why = HN_ND_WHY_MTU;
		rc = -EINVAL;
	} else if (hn_nds[node]) {
		*why = HN_ND_WHY_NETDEV;
	} else if (hn_port_bind(hd, &hd->ports[node], &nd->f)) {
		*why = HN_ND_WHY_FILE;
	} else {
		nd->node = node;
		nd->port = &hd->ports[node];
		nd->bound = true;
		ndev->max_mtu = hd->cfg.max_msg_bytes - ETH_HLEN;
		ndev->mtu = ndev->max_mtu;
		hn_node_mac(mac, node);
		eth_hw_addr_set(ndev, mac);
		add_wait_queue(&nd->port->wq, &nd->wait);
		WRITE_ONCE(hn_nds[node], nd);
		rc = 0;
	}
	mutex_unlock(&hd->lock);
	return rc;
}

/*
 * Claim a node for @ndev (in its namespace already) and register it.
 * RTNL.  A name with a '%' becomes hnN.
 */
static int hn_nd_register(struct net_device *ndev, int node,
			  enum hn_nd_why *why)
{
	struct hn_netdev *nd = netdev_priv(ndev);
	int rc;

	rc = hn_nd_claim(nd, node, why);
	if (rc)
		return rc;
	if (strchr(ndev->name, '%'))
		snprintf(ndev->name, IFNAMSIZ, "hn%u", nd->node);
	if (__dev_get_by_name(dev_net(ndev), ndev->name)) {
		*why = HN_ND_WHY_NAME;
		rc = -EEXIST;
	} else {
		rc = register_netdevice(ndev);
		*why = HN_ND_WHY_REGISTER;
	}
	if (rc)
		hn_nd_release(nd);	/* if ndo_uninit has not */
	return rc;
}

/* "ip link add [NAME] type hybridnet": node N for hnN, else the lowest */
static int hn_nd_newlink(struct net *src_net, struct net_device *ndev,
			 struct nlattr *tb[], struct nlattr *data[],
			 struct netlink_ext_ack *extack)
{
	const char *name = ndev->name;
	enum hn_nd_why why;
	int node = -1;
	u32 n;
	int rc;

	if (!strncmp(name, "hn", 2) && !kstrtou32(name + 2, 10, &n) &&
	    n < HN_MAX_NODES)
		node = n;
	rc = hn_nd_register(ndev, node, &why);
	if (rc && extack)	/* static text, as NL_SET_ERR_MSG's */
		extack->_msg = hn_nd_why_text[why];
	return rc;
}

static struct rtnl_link_ops hn_link_ops __read_mostly = {
	.kind = "hybridnet",
	.priv_size = sizeof(struct hn_netdev),
	.setup = hn_nd_setup,
	.newlink = hn_nd_newlink,
	.dellink = unregister_netdevice_queue,
	.netns_refund = true,
};

/*
 * An interface @name (NULL: hnN) of @node in @net (HYBRIDNET_CMD_NETDEV_ADD
 * and netdevs=1).  0, or an errno and *@why.
 */
int hn_netdev_add(struct net *net, const char *name, u32 node,
		  enum hn_nd_why *why)
{
	struct net_device *ndev;
	int rc;

	*why = HN_ND_WHY_NAME;
	ndev = alloc_netdev(sizeof(struct hn_netdev), name ?: "hn%d",
			    name ? NET_NAME_USER : NET_NAME_PREDICTABLE,
			    hn_nd_setup);
	if (!ndev)
		return -ENOMEM;
	dev_net_set(ndev, net);
	rtnl_lock();
	rc = hn_nd_register(ndev, node, why);
	rtnl_unlock();
	if (rc)
		free_netdev(ndev);
	return rc;
}

/*
 * Remove the interface @name of @net, or of @node when @name is NULL.
 * -ENODEV when there is none, -EOPNOTSUPP when @name is not ours.
 */
int hn_netdev_del(struct net *net, const char *name, u32 node)
{
	struct net_device *ndev = NULL;
	struct hn_netdev *nd;
	int rc = 0;

	rtnl_lock();
	if (name) {
		ndev = __dev_get_by_name(net, name);
	} else if (node < HN_MAX_NODES) {
		nd = hn_nds[node];
		ndev = nd ? nd->ndev : NULL;
	}
	if (!ndev)
		rc = -ENODEV;
	else if (ndev->rtnl_link_ops != &hn_link_ops)
		rc = -EOPNOTSUPP;
	else
		unregister_netdevice(ndev);
	rtnl_unlock();
	return rc;
}

/* The interface of @node, or NULL.  RTNL. */
struct net_device *hn_netdev_get(u32 node)
{
	ASSERT_RTNL();
	return node < HN_MAX_NODES && hn_nds[node] ? hn_nds[node]->ndev :
						     NULL;
}

/*
 * At load: the kind "hybridnet" and, with netdevs=1, one interface per
 * node.  max_msg_bytes must leave room for an IPv4 packet of 68 bytes
 * after the Ethernet header.
 */
int hn_netdevs_init(struct hn_dev *hd, bool all)
{
	enum hn_nd_why why;
	u32 n;
	int rc;

	if (all && hd->cfg.max_msg_bytes < ETH_HLEN + ETH_MIN_MTU) {
		pr_err("netdevs=1: max_msg_bytes=%u is below %u, an Ethernet header and the least MTU\n",
		       hd->cfg.max_msg_bytes, ETH_HLEN + ETH_MIN_MTU);
		return -EINVAL;
	}
	hn_nds = kvcalloc(HN_MAX_NODES, sizeof(*hn_nds), GFP_KERNEL);
	if (!hn_nds)
		return -ENOMEM;
	hn_nd_hd = hd;
	rc = rtnl_link_register(&hn_link_ops);
	if (rc) {
		kvfree(hn_nds);
		return rc;
	}
	for (n = 0; all && n < hd->cfg.nodes; n++) {
		rc = hn_netdev_add(&init_net, NULL, n, &why);
		if (rc) {
			pr_err("cannot create interface hn%u: %s (%d)\n", n,
			       hn_nd_why_text[why], rc);
			hn_netdevs_exit(hd);
			return rc;
		}
		cond_resched();
	}
	return 0;
}

/* Remove every interface, in whatever network namespace it is. */
void hn_netdevs_exit(struct hn_dev *hd)
{
	rtnl_link_unregister(&hn_link_ops);
	kvfree(hn_nds);
	hn_nds = NULL;
}

MODULE_ALIAS_RTNL_LINK("hybridnet");
