// SPDX-License-Identifier: GPL-2.0
/*
 * netdev.c - a network interface per virtual node: the link kind
 * "hybridnet" of rtnetlink.  An interface owns its node's port (it is the
 * port's sink, as an open file of /dev/hybridnet is), so a node held by a
 * file cannot get an interface and the other way round (EBUSY).
 *
 * Made by rtnetlink alone (RTM_NEWLINK of kind "hybridnet"; "ip link add
 * NAME type hybridnet [fabric F] [node N]" with iproute2's plugin of
 * dist/iproute2/, or "hnctl netdev add", which sends the same request).
 * Its attributes (IFLA_HYBRIDNET_*, uapi/linux/hybridnet.h) name the
 * fabric, one of the caller's network namespace (fabrics.c; without it,
 * the namespace's first), and the node; without a node it takes the
 * lowest one that has no owner.  A name left to the kernel becomes hnN.
 * Making one needs CAP_NET_ADMIN over the user namespace that owns the
 * fabric's network namespace, wherever the interface goes: rtnetlink
 * asks only for it over the caller's namespace, which the root of any
 * user namespace has.  It goes with "ip link del", NETDEV_DEL
 * (nl_netdev.c), the deletion of its fabric or the unload, which delete
 * interfaces a batch per hold of the RTNL.
 *
 * Addresses: node n has the locally administered unicast MAC
 * 02:68:6e:00:HH:LL ("hn", then n as a 16-bit big-endian number), so
 * 02:68:6e:00:00:03 is node 3 whatever the load order or the namespace.
 *
 * Frames: each frame the stack transmits is one message of the engine,
 * the whole Ethernet frame as its payload, sent from the interface's node
 * to the node its destination MAC names; a broadcast or multicast frame
 * is one message to every other node with an interface.  The message
 * carries the skb itself, not a copy: an interface that receives it hands
 * that skb to its stack; a file reads its bytes.  The MTU is at most
 * max_msg_bytes less the Ethernet header; max_msg_bytes cannot change
 * while interfaces exist, since a rebuild of the fabric is refused while
 * any port is bound (hn_ports_busy()).
 *
 * Transmit, as a NIC's ring: ndo_start_xmit runs with bottom halves off
 * and cannot take hd->lock, the engine's mutex.  It pushes each frame
 * (a broadcast as one clone per destination) onto a lock-free list and
 * asks for the interface's service (hn_sink_kick()); the clock kthread,
 * under hd->lock, takes the list and hands the frames to the NIC.  What
 * xmit may push: the NIC's room, as the kthread last saw it, less what
 * xmit pushed and the NIC has not taken yet, or nothing while the
 * device's message memory is full.  Once that is spent the queue stops
 * (xmit stops it, or the kthread does when frames wait for the fabric
 * and BQL kept xmit from running); the kthread wakes it when the room
 * has come back (a message left the NIC, or one was freed).  So the
 * NIC's buffer is the ring: frames wait in the qdisc while the fabric
 * cannot take them, and nothing is dropped inside hybridnet for a full
 * NIC or a full message memory.  BQL: the bytes pushed are reported
 * sent; the bytes of this interface the NIC holds are never more than
 * the NIC holds, so when the NIC's occupancy falls below what the
 * interface put in it, the difference has left the NIC and is reported
 * completed.
 *
 * Receive, through NAPI: the port's deliver op queues the message on
 * the port's receive queue and schedules the interface's NAPI, threaded
 * by default (a kthread "napi/hnN-I" per interface that is up, so that
 * the stack's work is not done in the engine's context;
 * /sys/class/net/hnN/threaded chooses), whose poll hands up to its
 * budget of frames to GRO (napi_gro_receive()) and gives their receive
 * space back through the kthread's service.  An interface that is down
 * takes nothing: a message for it is dropped at once.
 *
 * Counters (ip -s link, /proc/net/dev): tx_packets and tx_bytes count
 * messages handed to the NIC, so a broadcast counts once per destination
 * and the figures match the engine's (nodes/N/tx_msgs_*); rx_packets and
 * rx_bytes the frames handed to the stack.  Every frame lost is in
 * tx_dropped or rx_dropped, by reason in ethtool -S, and freed with
 * kfree_skb_reason() so that drop monitor sees it (hn_nd_cnt_reason[]).
 * Each context has its own counters (u64_stats): xmit's, those counted
 * under hd->lock, the poll's.  ethtool -S also counts the queue's stops
 * by what the frames were waiting for, and gives the node's figures of
 * sysfs nodes/N/ (the HN_NSTAT list of hn_lists.h).
 *
 * Locking (main.c): an interface binds its port under hd->lock, where
 * files bind theirs, and a rebuild (hd->frozen) refuses both; hd->netdevs
 * and hd->nd_nodes change with the RTNL and hd->lock both held.  The RTNL
 * is taken before hd->lock, never after it.  Fields of the clock's side
 * are under hd->lock; xmit's are under the TX queue's lock.  ndo_stop
 * takes the interface out of the deliveries and drops what waits, both
 * ways; ndo_uninit gives the node back once nothing can ask for its
 * service any more.
 *
 * Lifetime: an interface holds a reference to its fabric from
 * RTM_NEWLINK to ndo_uninit; a fabric that is deleted (fabrics.c) deletes
 * its interfaces, from whatever network namespace they are in.  A
 * namespace that ends gives the interfaces in it back to the initial one
 * (netns_refund), as a physical device, unless their fabric goes with it.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/etherdevice.h>
#include <linux/ethtool.h>
#include <linux/llist.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <linux/skbuff.h>
#include <linux/u64_stats_sync.h>
#include <net/rtnetlink.h>

#include "hn_kmod.h"

/* interfaces deleted per hold of the RTNL (hn_netdevs_del_all()) */
#define HN_ND_DEL_BATCH	32

/* Counters of ethtool -S: drops by reason, then the queue's stops. */
enum hn_nd_cnt {
	HN_ND_TX_NO_NODE,	/* destination MAC names no node */
	HN_ND_TX_NO_MEM,	/* no memory for the message or a clone */
	HN_ND_TX_UNREACH,	/* pure TDM: no circuit to the destination */
	HN_ND_TX_DEADLOCK,	/* the fabric deadlocked (hn_deadlock()) */
	HN_ND_TX_TOO_BIG,	/* longer than max_msg_bytes (a VLAN tag) */
	HN_ND_TX_DOWN,		/* still waiting when it went down */
	HN_ND_RX_DOWN,		/* delivered to an interface that is down */
	HN_ND_RX_SHORT,		/* a file sent less than an Ethernet header */
	HN_ND_RX_NO_MEM,	/* no skb for a delivered message */
	HN_ND_DROP_NR,
	/* the queue stopped, its frames waiting for: */
	HN_ND_STOP_BACKLOG = HN_ND_DROP_NR,	/* the kthread, behind */
	HN_ND_STOP_NIC,		/* the NIC buffer */
	HN_ND_STOP_MEM,		/* msg_mem_max_bytes */
	HN_ND_CNT_NR
};

static const char hn_nd_cnt_names[HN_ND_CNT_NR][ETH_GSTRING_LEN] = {
	"tx_drop_no_node",
	"tx_drop_no_mem",
	"tx_drop_unreach",
	"tx_drop_deadlock",
	"tx_drop_too_big",
	"tx_drop_down",
	"rx_drop_down",
	"rx_drop_short",
	"rx_drop_no_mem",
	"tx_stop_backlog",
	"tx_stop_nic_full",
	"tx_stop_msg_mem",
};

/*
 * The closest reason Linux 6.1 has for each drop, for drop monitor.
 * Messages from a file that are dropped (too short, no skb) have no skb:
 * they are counted alone.
 */
static const enum skb_drop_reason hn_nd_cnt_reason[HN_ND_DROP_NR] = {
	[HN_ND_TX_NO_NODE] = SKB_DROP_REASON_IP_OUTNOROUTES,
	[HN_ND_TX_NO_MEM] = SKB_DROP_REASON_NOMEM,
	[HN_ND_TX_UNREACH] = SKB_DROP_REASON_IP_OUTNOROUTES,
	[HN_ND_TX_DEADLOCK] = SKB_DROP_REASON_IP_OUTNOROUTES,
	[HN_ND_TX_TOO_BIG] = SKB_DROP_REASON_PKT_TOO_BIG,
	[HN_ND_TX_DOWN] = SKB_DROP_REASON_DEV_READY,
	[HN_ND_RX_DOWN] = SKB_DROP_REASON_DEV_READY,
	[HN_ND_RX_SHORT] = SKB_DROP_REASON_PKT_TOO_SMALL,
	[HN_ND_RX_NO_MEM] = SKB_DROP_REASON_NOMEM,
};

/* the node's figures, named as its files of sysfs nodes/N/ */
static const char hn_nd_nstat_names[HN_NS_NR][ETH_GSTRING_LEN] = {
#define HN_NSTAT(file, stat, value) \
	[HN_NS_##file] = #file,
#include "hn_lists.h"
#undef HN_NSTAT
};

/* Who counts: each context its own counters, one writer each. */
enum hn_nd_ctx {
	HN_ND_XMIT,		/* ndo_start_xmit: the TX queue's lock */
	HN_ND_LOCKED,		/* under hd->lock */
	HN_ND_POLL,		/* the NAPI poll */
	HN_ND_CTX_NR
};

/* the standard counters, after those of ethtool -S */
enum {
	HN_ND_TX_PACKETS = HN_ND_CNT_NR,
	HN_ND_TX_BYTES,
	HN_ND_RX_PACKETS,
	HN_ND_RX_BYTES,
	HN_ND_ALL_NR
};

struct hn_nd_stats {
	struct u64_stats_sync syncp;
	u64_stats_t v[HN_ND_ALL_NR];
};

struct hn_netdev {
	struct hn_sink sink;		/* the owner of the node's port */
	struct net_device *ndev;
	struct napi_struct napi;	/* while up */
	struct list_head list;		/* on hd->netdevs while bound */
	u32 fabric, node;
	u32 nodes, max_len, nic_buf;	/* the fabric's, as bound */
	bool bound;			/* RTNL and hd->lock: holds the port */
	bool up;			/* hd->lock: takes deliveries */
	/* xmit's end of the ring (the TX queue's lock) */
	struct llist_head ring;
	u32 tx_pushed;			/* bytes pushed, ever (wrapping) */
	/* the kthread's end (hd->lock) */
	u32 tx_limit;			/* xmit pushes while below it */
	u32 tx_taken;			/* bytes taken off the ring, ever */
	u32 in_nic;			/* bytes of ours the NIC may hold */
	u32 bql_done;			/* of them, left it: to report */
	struct sk_buff_head pend;	/* taken, not yet in the NIC */
	u8 tx_why;			/* HN_ND_STOP_*: what pend waits for */
	struct wait_queue_entry mem_wait;	/* on hd->mem_wq */
	atomic_t rx_give;		/* the poll's: space to give back */
	struct hn_nd_stats st[HN_ND_CTX_NR];
};

/*
 * a frame on the ring: its destination; a broadcast's or multicast's
 * copies are marked, the first with the copies and groups of all
 */
struct hn_nd_cb {
	u32 dst;
	u16 copies, groups;
	u8 mcast;
};

#define HN_ND_CB(skb)	((struct hn_nd_cb *)(skb)->cb)

static struct rtnl_link_ops hn_link_ops;

static void hn_nd_count(struct hn_netdev *nd, enum hn_nd_ctx ctx, int c,
			u64 n)
{
	struct hn_nd_stats *st = &nd->st[ctx];

	u64_stats_update_begin(&st->syncp);
	u64_stats_add(&st->v[c], n);
	u64_stats_update_end(&st->syncp);
}

/* hn_nd_count() from process context: bottom halves off, as elsewhere */
static void hn_nd_count_bh(struct hn_netdev *nd, enum hn_nd_ctx ctx, int c,
			   u64 n)
{
	local_bh_disable();
	hn_nd_count(nd, ctx, c, n);
	local_bh_enable();
}

/* Drop @skb for drop @c, counted in context @ctx (bottom halves off). */
static void hn_nd_drop(struct hn_netdev *nd, enum hn_nd_ctx ctx,
		       enum hn_nd_cnt c, struct sk_buff *skb)
{
	hn_nd_count(nd, ctx, c, 1);
	kfree_skb_reason(skb, hn_nd_cnt_reason[c]);
}

/* Every context's counters, summed: @v[HN_ND_ALL_NR]. */
static void hn_nd_read(struct hn_netdev *nd, u64 *v)
{
	u64 one[HN_ND_ALL_NR];
	struct hn_nd_stats *st;
	unsigned int start;
	int c, i;

	memset(v, 0, HN_ND_ALL_NR * sizeof(*v));
	for (c = 0; c < HN_ND_CTX_NR; c++) {
		st = &nd->st[c];
		do {
			start = u64_stats_fetch_begin(&st->syncp);
			for (i = 0; i < HN_ND_ALL_NR; i++)
				one[i] = u64_stats_read(&st->v[i]);
		} while (u64_stats_fetch_retry(&st->syncp, start));
		for (i = 0; i < HN_ND_ALL_NR; i++)
			v[i] += one[i];
	}
}

/* ------------------------------------------------------------------ */
/* transmit: xmit's end of the ring                                     */

/* The node @mac names, or -1. */
static int hn_nd_mac_node(const struct hn_netdev *nd, const u8 *mac)
{
	u32 node = (mac[4] << 8) | mac[5];
	u8 want[ETH_ALEN];

	hn_node_mac(want, node);
	if (!ether_addr_equal(mac, want) || node >= nd->nodes)
		return -1;
	return node;
}

/* Credit left to xmit: what it may still push (negative: overdrawn). */
static s32 hn_nd_credit(const struct hn_netdev *nd)
{
	return (s32)(READ_ONCE(nd->tx_limit) - READ_ONCE(nd->tx_pushed));
}

/* The credit the queue waits for once stopped: a full frame's, or less. */
static s32 hn_nd_wake_at(const struct hn_netdev *nd)
{
	return min(READ_ONCE(nd->ndev->mtu) + ETH_HLEN, nd->nic_buf / 2);
}

/*
 * The frames of one transmit, before they go on the ring together: the
 * newest first, as on the ring, which the kthread reads backwards.
 */
struct hn_nd_batch {
	struct llist_node *first, *last;
	u32 bytes;
};

static void hn_nd_batch_add(struct hn_nd_batch *b, struct sk_buff *skb,
			    u32 dst)
{
	HN_ND_CB(skb)->dst = dst;
	HN_ND_CB(skb)->copies = 0;
	HN_ND_CB(skb)->groups = 0;
	HN_ND_CB(skb)->mcast = 0;
	skb->ll_node.next = b->first;
	b->first = &skb->ll_node;
	if (!b->last)
		b->last = &skb->ll_node;
	b->bytes += skb->len;
}

/* The next node from @n on with another interface, or -1. */
static int hn_nd_next_peer(const struct hn_netdev *nd, u32 n)
{
	const unsigned long *map = nd->sink.hd->nd_nodes;

	for (n = find_next_bit(map, nd->nodes, n); n < nd->nodes;
	     n = find_next_bit(map, nd->nodes, n + 1))
		if (n != nd->node)
			return n;
	return -1;
}

/*
 * A broadcast or multicast: @skb for one other interface, a clone for
 * each of the rest, a multicast of the NIC (hn_mcast_count()) of the
 * copies made, in their members' groups.
 */
static void hn_nd_batch_all(struct hn_netdev *nd, struct hn_nd_batch *b,
			    struct sk_buff *skb)
{
	u32 copies = 0, groups = 0, last = U32_MAX;
	struct sk_buff *c, *first = NULL;
	int n, next;

	n = hn_nd_next_peer(nd, 0);
	if (n < 0) {
		hn_nd_drop(nd, HN_ND_XMIT, HN_ND_TX_NO_NODE, skb);
		return;
	}
	for (; n >= 0; n = next) {
		next = hn_nd_next_peer(nd, n + 1);
		c = next < 0 ? skb : skb_clone(skb, GFP_ATOMIC);
		if (!c) {
			hn_nd_count(nd, HN_ND_XMIT, HN_ND_TX_NO_MEM, 1);
			continue;
		}
		hn_nd_batch_add(b, c, n);
		HN_ND_CB(c)->mcast = 1;
		first = first ?: c;
		copies++;
		groups += n / HN_MCAST_GROUP != last;
		last = n / HN_MCAST_GROUP;
	}
	/* the last peer always has @skb itself: first is set */
	HN_ND_CB(first)->copies = copies;
	HN_ND_CB(first)->groups = groups;
}

/* The credit is spent: stop the queue, unless room came back meanwhile. */
static void hn_nd_stop_queue(struct hn_netdev *nd, struct netdev_queue *txq)
{
	netif_tx_stop_queue(txq);
	hn_nd_count(nd, HN_ND_XMIT, READ_ONCE(nd->tx_why), 1);
	/* pairs with the barrier in hn_nd_tx_room() */
	smp_mb();
	if (hn_nd_credit(nd) >= hn_nd_wake_at(nd))
		netif_tx_start_queue(txq);
}

static netdev_tx_t hn_nd_xmit(struct sk_buff *skb, struct net_device *ndev)
{
	struct hn_netdev *nd = netdev_priv(ndev);
	struct netdev_queue *txq = netdev_get_tx_queue(ndev, 0);
	struct hn_nd_batch b = { };
	bool kick;
	int dst;

	if (unlikely(skb->len > nd->max_len)) {
		hn_nd_drop(nd, HN_ND_XMIT, HN_ND_TX_TOO_BIG, skb);
		return NETDEV_TX_OK;
	}
	/* a message's payload is one piece (no NETIF_F_SG: already so) */
	if (unlikely(skb_linearize(skb))) {
		hn_nd_drop(nd, HN_ND_XMIT, HN_ND_TX_NO_MEM, skb);
		return NETDEV_TX_OK;
	}
	skb_tx_timestamp(skb);
	if (is_multicast_ether_addr(skb->data)) {
		hn_nd_batch_all(nd, &b, skb);
	} else {
		dst = hn_nd_mac_node(nd, skb->data);
		if (dst < 0)
			hn_nd_drop(nd, HN_ND_XMIT, HN_ND_TX_NO_NODE, skb);
		else
			hn_nd_batch_add(&b, skb, dst);
	}
	if (!b.bytes)
		return NETDEV_TX_OK;
	WRITE_ONCE(nd->tx_pushed, nd->tx_pushed + b.bytes);
	if (hn_nd_credit(nd) <= 0)
		hn_nd_stop_queue(nd, txq);
	/*
	 * Sent before the kthread can see the frames, which it may complete
	 * at once.  As a NIC's doorbell, the kick comes once for a burst.
	 */
	kick = __netdev_tx_sent_queue(txq, b.bytes, netdev_xmit_more());
	llist_add_batch(b.first, b.last, &nd->ring);
	if (kick)
		hn_sink_kick(&nd->sink);
	return NETDEV_TX_OK;
}

/* ------------------------------------------------------------------ */
/* transmit: the kthread's end (hd->lock)                               */

static int hn_nd_mem_wake(struct wait_queue_entry *wait, unsigned int mode,
			  int sync, void *key)
{
	struct hn_netdev *nd = container_of(wait, struct hn_netdev, mem_wait);

	/* leave the wait queue, as autoremove does */
	list_del_init(&wait->entry);
	hn_sink_kick(&nd->sink);
	return 0;
}

/* Wait for the device's message memory: the first message freed kicks. */
static void hn_nd_mem_wait(struct hn_netdev *nd)
{
	wait_queue_head_t *wq = &nd->sink.hd->mem_wq;
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
	wait_queue_head_t *wq = &nd->sink.hd->mem_wq;
	unsigned long flags;

	spin_lock_irqsave(&wq->lock, flags);
	list_del_init(&nd->mem_wait.entry);
	spin_unlock_irqrestore(&wq->lock, flags);
}

/*
 * A message carrying @skb, or NULL: the memory is full (then the first
 * message freed kicks the service) or the kernel has none (*@nomem).
 */
static struct hn_kmsg *hn_nd_wrap(struct hn_netdev *nd, struct sk_buff *skb,
				  bool *nomem)
{
	struct hn_dev *hd = nd->sink.hd;
	struct hn_kmsg *km;

	*nomem = false;
	km = hn_kmsg_wrap(hd, skb);
	if (PTR_ERR_OR_ZERO(km) == -EAGAIN) {
		hn_nd_mem_wait(nd);
		km = hn_kmsg_wrap(hd, skb);	/* freed meanwhile? */
		if (PTR_ERR_OR_ZERO(km) != -EAGAIN)
			hn_nd_mem_unwait(nd);
	}
	if (!IS_ERR(km))
		return km;
	*nomem = PTR_ERR(km) == -ENOMEM;
	return NULL;
}

/*
 * The room xmit may use, BQL's completions, the queue woken when there is
 * enough or stopped while frames wait: after the NIC took frames or its
 * room changed.
 */
static void hn_nd_tx_room(struct hn_netdev *nd)
{
	struct netdev_queue *txq = netdev_get_tx_queue(nd->ndev, 0);
	struct hn_dev *hd = nd->sink.hd;
	u32 room = hn_nic_room(hd->e, nd->node);
	u32 occ = nd->nic_buf - room;

	lockdep_assert_held(&hd->lock);
	if (nd->in_nic > occ) {
		nd->bql_done += nd->in_nic - occ;
		nd->in_nic = occ;
	}
	/* while the message memory is full, no more than what waits */
	if (nd->tx_why == HN_ND_STOP_MEM)
		room = 0;
	WRITE_ONCE(nd->tx_limit, nd->tx_taken + room);
	/* pairs with the barrier in hn_nd_stop_queue() */
	smp_mb();
	/* the qdisc's softirq runs as they end, here: frames for the ring */
	local_bh_disable();
	if (nd->bql_done) {
		netdev_tx_completed_queue(txq, 1, nd->bql_done);
		nd->bql_done = 0;
	}
	if (netif_tx_queue_stopped(txq)) {
		if (hn_nd_credit(nd) >= hn_nd_wake_at(nd))
			netif_tx_wake_queue(txq);
	} else if (nd->tx_why != HN_ND_STOP_BACKLOG) {
		/*
		 * Frames wait for the fabric, but BQL may have stopped the
		 * stack before xmit could spend the credit and stop: stop
		 * here, under xmit's lock, so that every such wait counts.
		 */
		__netif_tx_lock(txq, smp_processor_id());
		if (!netif_tx_queue_stopped(txq))
			hn_nd_stop_queue(nd, txq);
		__netif_tx_unlock(txq);
	}
	local_bh_enable();
}

/* A frame the NIC will not take: dropped, its bytes done with. */
static void hn_nd_tx_drop(struct hn_netdev *nd, struct sk_buff *skb,
			  enum hn_nd_cnt c)
{
	nd->tx_taken += skb->len;
	nd->bql_done += skb->len;
	local_bh_disable();
	hn_nd_drop(nd, HN_ND_LOCKED, c, skb);
	local_bh_enable();
}

/*
 * Take the ring, then hand the waiting frames to the NIC, oldest first,
 * each as a message, until the NIC or the message memory is full.
 */
static void hn_nd_tx(struct hn_netdev *nd)
{
	struct hn_dev *hd = nd->sink.hd;
	u8 why = HN_ND_STOP_BACKLOG;
	struct sk_buff *skb, *next;
	u64 packets = 0, bytes = 0;
	struct llist_node *l;
	struct hn_nd_cb cb;
	struct hn_kmsg *km;
	bool nomem;
	u32 len;
	int rc;

	lockdep_assert_held(&hd->lock);
	l = llist_reverse_order(llist_del_all(&nd->ring));
	llist_for_each_entry_safe(skb, next, l, ll_node)
		__skb_queue_tail(&nd->pend, skb);	/* next: over ll_node */
	while ((skb = skb_peek(&nd->pend))) {
		len = skb->len;
		if (hn_nic_room(hd->e, nd->node) < len) {
			why = HN_ND_STOP_NIC;
			break;
		}
		km = hn_nd_wrap(nd, skb, &nomem);
		if (!km && !nomem) {
			why = HN_ND_STOP_MEM;
			break;
		}
		__skb_unlink(skb, &nd->pend);
		if (!km) {
			hn_nd_tx_drop(nd, skb, HN_ND_TX_NO_MEM);
			continue;
		}
		cb = *HN_ND_CB(skb);
		/* the NIC has it now: no socket, route or device of the sender */
		skb_scrub_packet(skb, true);
		skb_orphan(skb);
		skb->dev = NULL;
		km->m.src = nd->node;
		km->m.dst = cb.dst;
		km->mcast = cb.mcast;
		/* its priority, but never the fabric's own */
		km->m.prio = min_t(u32, skb->priority,
				   HYBRIDNET_PRIO_RESERVED - 1);
		hn_clock_sync(hd);
		km->m.t_inject = hn_now(hd->e);
		rc = hn_inject(hd->e, &km->m, NULL);
		if (rc == -EAGAIN) {	/* another owner took the room */
			__skb_queue_head(&nd->pend, hn_kmsg_unwrap(hd, km));
			why = HN_ND_STOP_NIC;
			break;
		}
		if (rc) {
			hn_nd_tx_drop(nd, hn_kmsg_unwrap(hd, km),
				      rc == -EHOSTUNREACH ? HN_ND_TX_UNREACH :
				      rc == -EDEADLK ? HN_ND_TX_DEADLOCK :
				      HN_ND_TX_NO_MEM);
			continue;
		}
		if (cb.groups)
			hn_mcast_count(hd->e, cb.copies, cb.groups);
		nd->tx_taken += len;
		nd->in_nic += len;
		packets++;
		bytes += len;
	}
	WRITE_ONCE(nd->tx_why, why);
	if (packets) {
		hn_nd_count_bh(nd, HN_ND_LOCKED, HN_ND_TX_PACKETS, packets);
		hn_nd_count_bh(nd, HN_ND_LOCKED, HN_ND_TX_BYTES, bytes);
	}
	/* hear of every change of the NIC's room while it holds ours */
	if (nd->in_nic || why == HN_ND_STOP_NIC)
		hn_port_want_room(hd, nd->sink.port);
	hn_nd_tx_room(nd);
}

/* Everything waiting to be sent is lost: the interface went down. */
static void hn_nd_tx_purge(struct hn_netdev *nd)
{
	struct sk_buff *skb, *next;
	struct llist_node *l;
	u64 n = 0;

	l = llist_del_all(&nd->ring);
	llist_for_each_entry_safe(skb, next, l, ll_node) {
		kfree_skb_reason(skb, hn_nd_cnt_reason[HN_ND_TX_DOWN]);
		n++;
	}
	while ((skb = __skb_dequeue(&nd->pend))) {
		kfree_skb_reason(skb, hn_nd_cnt_reason[HN_ND_TX_DOWN]);
		n++;
	}
	hn_nd_count_bh(nd, HN_ND_LOCKED, HN_ND_TX_DOWN, n);
	WRITE_ONCE(nd->tx_pushed, 0);
	WRITE_ONCE(nd->tx_limit, 0);
	nd->tx_taken = 0;
	nd->in_nic = 0;
	nd->bql_done = 0;
	netdev_tx_reset_queue(netdev_get_tx_queue(nd->ndev, 0));
}

/* ------------------------------------------------------------------ */
/* the sink: deliveries, room, service                                  */

static void hn_nd_deliver(struct hn_sink *s, struct hn_msg *m)
{
	struct hn_netdev *nd = container_of(s, struct hn_netdev, sink);
	struct hn_kmsg *km = container_of(m, struct hn_kmsg, m);

	if (!nd->up) {
		hn_nd_count_bh(nd, HN_ND_LOCKED, HN_ND_RX_DOWN, 1);
		hn_port_refuse(s->hd, s->port, km, hn_nd_cnt_reason[HN_ND_RX_DOWN]);
		return;
	}
	hn_port_rx_push(s->port, km);
	/* threaded: wakes its kthread; else the poll runs as this ends */
	local_bh_disable();
	napi_schedule(&nd->napi);
	local_bh_enable();
}

/* The NIC's room changed (after the engine's steps): send, wake. */
static void hn_nd_wake(struct hn_sink *s, u32 room)
{
	struct hn_netdev *nd = container_of(s, struct hn_netdev, sink);

	if (nd->up)
		hn_nd_tx(nd);
}

/* Asked for by xmit, the poll, or the message memory freed. */
static void hn_nd_service(struct hn_sink *s)
{
	struct hn_netdev *nd = container_of(s, struct hn_netdev, sink);
	u32 give = atomic_xchg(&nd->rx_give, 0);

	if (give)
		hn_port_credit(s->hd, s->port, give);
	if (nd->up)
		hn_nd_tx(nd);
}

static int hn_nd_holder(const struct hn_sink *s, char *buf, size_t len)
{
	const struct hn_netdev *nd = container_of(s, struct hn_netdev, sink);

	return scnprintf(buf, len, "the interface %s", netdev_name(nd->ndev));
}

static const char *hn_nd_ifname(const struct hn_sink *s)
{
	return netdev_name(container_of(s, struct hn_netdev, sink)->ndev);
}

static const struct hn_sink_ops hn_nd_sink_ops = {
	.deliver = hn_nd_deliver,
	.wake = hn_nd_wake,
	.service = hn_nd_service,
	.holder = hn_nd_holder,
	.ifname = hn_nd_ifname,
};

/* ------------------------------------------------------------------ */
/* receive: the NAPI poll                                               */

/* The frame of @km for the stack, or NULL (counted). */
static struct sk_buff *hn_nd_rx_skb(struct hn_netdev *nd, struct hn_kmsg *km)
{
	u32 len = km->m.len;
	struct sk_buff *skb;

	if (unlikely(len < ETH_HLEN)) {
		hn_nd_count(nd, HN_ND_POLL, HN_ND_RX_SHORT, 1);
		return NULL;
	}
	if (km->skb) {
		skb = km->skb;
		km->skb = NULL;
	} else {
		skb = napi_alloc_skb(&nd->napi, len);
		if (unlikely(!skb)) {
			hn_nd_count(nd, HN_ND_POLL, HN_ND_RX_NO_MEM, 1);
			return NULL;
		}
		skb_put_data(skb, km->data, len);
	}
	skb->protocol = eth_type_trans(skb, nd->ndev);
	return skb;
}

static int hn_nd_poll(struct napi_struct *napi, int budget)
{
	struct hn_netdev *nd = container_of(napi, struct hn_netdev, napi);
	struct hn_port *p = nd->sink.port;
	struct hn_dev *hd = nd->sink.hd;
	u32 n, bytes = 0, give, len;
	u64 rx_packets = 0, rx_bytes = 0;
	struct hn_kmsg *km, *tmp;
	struct sk_buff *skb;
	LIST_HEAD(q);

	n = hn_port_take(p, &q, budget);
	list_for_each_entry_safe(km, tmp, &q, list) {
		len = km->m.len;
		bytes += hn_kmsg_rx_bytes(km);
		skb = hn_nd_rx_skb(nd, km);
		hn_kmsg_free(hd, km);
		if (!skb)
			continue;
		rx_packets++;
		rx_bytes += len;
		napi_gro_receive(napi, skb);
	}
	hn_nd_count(nd, HN_ND_POLL, HN_ND_RX_PACKETS, rx_packets);
	hn_nd_count(nd, HN_ND_POLL, HN_ND_RX_BYTES, rx_bytes);
	give = n ? hn_port_taken(hd, p, n, bytes) : 0;
	if (give) {
		atomic_add(give, &nd->rx_give);
		hn_sink_kick(&nd->sink);
	}
	if (n < budget)
		napi_complete_done(napi, n);
	return n;
}

/* ------------------------------------------------------------------ */
/* net_device_ops, ethtool_ops                                          */

static int hn_nd_open(struct net_device *ndev)
{
	struct hn_netdev *nd = netdev_priv(ndev);
	struct hn_dev *hd = nd->sink.hd;

	/* threaded (hn_nd_setup()): its kthread comes with it */
	netif_napi_add(ndev, &nd->napi, hn_nd_poll);
	napi_enable(&nd->napi);
	mutex_lock(&hd->lock);
	nd->tx_why = HN_ND_STOP_BACKLOG;
	WRITE_ONCE(nd->tx_limit, hn_nic_room(hd->e, nd->node));
	nd->up = true;
	mutex_unlock(&hd->lock);
	netif_start_queue(ndev);
	return 0;
}

/*
 * The core has stopped the transmit side: the interface takes no more
 * deliveries, and what waits either way is dropped.
 */
static int hn_nd_stop(struct net_device *ndev)
{
	struct hn_netdev *nd = netdev_priv(ndev);
	struct hn_dev *hd = nd->sink.hd;
	bool gave;
	u32 n;

	napi_disable(&nd->napi);
	mutex_lock(&hd->lock);
	nd->up = false;
	n = hn_port_rx_flush(hd, nd->sink.port,
			     hn_nd_cnt_reason[HN_ND_RX_DOWN], &gave);
	hn_nd_count_bh(nd, HN_ND_LOCKED, HN_ND_RX_DOWN, n);
	hn_port_credit(hd, nd->sink.port, atomic_xchg(&nd->rx_give, 0));
	hn_nd_tx_purge(nd);
	mutex_unlock(&hd->lock);
	hn_nd_mem_unwait(nd);
	netif_napi_del(&nd->napi);
	hn_clock_kick(hd);	/* the space given back may let it go on */
	return 0;
}

static void hn_nd_get_stats64(struct net_device *ndev,
			      struct rtnl_link_stats64 *s)
{
	u64 v[HN_ND_ALL_NR];
	int i;

	hn_nd_read(netdev_priv(ndev), v);
	s->tx_packets = v[HN_ND_TX_PACKETS];
	s->tx_bytes = v[HN_ND_TX_BYTES];
	s->rx_packets = v[HN_ND_RX_PACKETS];
	s->rx_bytes = v[HN_ND_RX_BYTES];
	for (i = HN_ND_TX_NO_NODE; i <= HN_ND_TX_DOWN; i++)
		s->tx_dropped += v[i];
	for (i = HN_ND_RX_DOWN; i <= HN_ND_RX_NO_MEM; i++)
		s->rx_dropped += v[i];
}

/*
 * Give the node back (ndo_uninit, or a registration that failed): the
 * interface is down, so nothing asks for its service any more but what
 * is on the kthread's list already, which runs first.  RTNL.
 */
static void hn_nd_release(struct hn_netdev *nd)
{
	struct hn_dev *hd = nd->sink.hd;

	ASSERT_RTNL();
	if (!nd->bound)
		return;
	hn_nd_mem_unwait(nd);
	mutex_lock(&hd->lock);
	hn_clock_service(hd);
	clear_bit(nd->node, hd->nd_nodes);
	list_del(&nd->list);
	nd->bound = false;
	hn_port_unbind(hd, nd->sink.port);
	mutex_unlock(&hd->lock);
	hn_clock_kick(hd);	/* for the services run, the space given back */
	hn_fabric_put(hd);	/* hn_nd_newlink()'s */
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

static void hn_nd_drvinfo(struct net_device *ndev,
			  struct ethtool_drvinfo *info)
{
	struct hn_netdev *nd = netdev_priv(ndev);

	strscpy(info->driver, KBUILD_MODNAME, sizeof(info->driver));
	snprintf(info->bus_info, sizeof(info->bus_info), "fabric%u-node%u",
		 nd->fabric, nd->node);
}

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
	struct hn_dev *hd = nd->sink.hd;
	u64 v[HN_ND_ALL_NR];

	hn_nd_read(nd, v);
	memcpy(data, v, HN_ND_CNT_NR * sizeof(*data));
	mutex_lock(&hd->lock);
	if (nd->bound)
		hn_dev_node_stats(hd, nd->node, data + HN_ND_CNT_NR);
	mutex_unlock(&hd->lock);
}

static const struct ethtool_ops hn_nd_ethtool_ops = {
	.get_drvinfo = hn_nd_drvinfo,
	.get_link = ethtool_op_get_link,
	.get_sset_count = hn_nd_sset_count,
	.get_strings = hn_nd_get_strings,
	.get_ethtool_stats = hn_nd_ethtool_stats,
	.get_ts_info = ethtool_op_get_ts_info,
};

/* ------------------------------------------------------------------ */
/* rtnetlink: the link kind                                             */

/* rtnl_link_ops.setup: an interface of no fabric, no node yet */
static void hn_nd_setup(struct net_device *ndev)
{
	struct hn_netdev *nd = netdev_priv(ndev);
	int i;

	ether_setup(ndev);
	ndev->netdev_ops = &hn_nd_ops;
	ndev->ethtool_ops = &hn_nd_ethtool_ops;
	ndev->rtnl_link_ops = &hn_link_ops;
	ndev->needs_free_netdev = true;
	ndev->min_mtu = ETH_MIN_MTU;
	/* the fabric's max_msg_bytes lowers it when the node is claimed */
	ndev->max_mtu = HYBRIDNET_MAX_MSG - ETH_HLEN;
	ndev->tx_queue_len = 1000;
	/* NAPI in a kthread of its own, made when the interface comes up */
	dev_set_threaded(ndev, true);
	nd->ndev = ndev;
	nd->sink.ops = &hn_nd_sink_ops;
	init_llist_head(&nd->ring);
	__skb_queue_head_init(&nd->pend);
	INIT_LIST_HEAD(&nd->list);
	init_waitqueue_func_entry(&nd->mem_wait, hn_nd_mem_wake);
	INIT_LIST_HEAD(&nd->mem_wait.entry);
	for (i = 0; i < HN_ND_CTX_NR; i++)
		u64_stats_init(&nd->st[i].syncp);
}

/* Why a node cannot get an interface (hn_nd_claim()). */
enum hn_nd_why {
	HN_ND_WHY_RANGE,	/* no such node */
	HN_ND_WHY_FILE,		/* a file holds it */
	HN_ND_WHY_NETDEV,	/* an interface holds it */
	HN_ND_WHY_REBUILD,	/* hd->frozen */
	HN_ND_WHY_MTU,		/* max_msg_bytes < 14 + 68 */
	HN_ND_WHY_BIG_MTU,	/* the MTU asked for is above the fabric's */
	HN_ND_WHY_FULL,		/* every node has an owner */
	HN_ND_WHY_NAME,		/* the name is taken */
	HN_ND_WHY_DEAD,		/* the fabric is being deleted */
};

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
 * Give node @node of @hd (or, when it is negative, the lowest free one)
 * to @nd: its port, its MTU (the largest, unless @mtu_set), its MAC.
 * RTNL.  0, or an errno and *@why.
 */
static int hn_nd_claim(struct hn_netdev *nd, struct hn_dev *hd, int node,
		       bool mtu_set, enum hn_nd_why *why)
{
	struct net_device *ndev = nd->ndev;
	u32 max_mtu = hd->cfg.max_msg_bytes - ETH_HLEN;
	u8 mac[ETH_ALEN];
	int rc = -EBUSY;

	ASSERT_RTNL();
	mutex_lock(&hd->lock);
	if (node < 0)
		node = hn_nd_free_node(hd);
	if (hd->dead) {
		*why = HN_ND_WHY_DEAD;
		rc = -ENODEV;
	} else if (hd->frozen) {
		*why = HN_ND_WHY_REBUILD;
	} else if (node < 0) {
		*why = HN_ND_WHY_FULL;
	} else if (node >= hd->cfg.nodes) {
		*why = HN_ND_WHY_RANGE;
		rc = -EINVAL;
	} else if (hd->cfg.max_msg_bytes < ETH_HLEN + ETH_MIN_MTU) {
		*why = HN_ND_WHY_MTU;
		rc = -EINVAL;
	} else if (mtu_set && ndev->mtu > max_mtu) {
		*why = HN_ND_WHY_BIG_MTU;
		rc = -EINVAL;
	} else if (test_bit(node, hd->nd_nodes)) {
		*why = HN_ND_WHY_NETDEV;
	} else if (hn_port_bind(hd, &hd->ports[node], &nd->sink)) {
		*why = HN_ND_WHY_FILE;
	} else {
		nd->node = node;
		nd->nodes = hd->cfg.nodes;
		nd->max_len = hd->cfg.max_msg_bytes;
		nd->nic_buf = hd->cfg.nic_buf_bytes;
		nd->bound = true;
		set_bit(node, hd->nd_nodes);
		list_add_tail(&nd->list, &hd->netdevs);
		ndev->max_mtu = max_mtu;
		if (!mtu_set)
			ndev->mtu = max_mtu;
		hn_node_mac(mac, node);
		eth_hw_addr_set(ndev, mac);
		rc = 0;
	}
	mutex_unlock(&hd->lock);
	return rc;
}

/* The refusal of hn_nd_claim() or of the name, said. */
static void hn_nd_why_say(struct netlink_ext_ack *extack,
			  const struct nlattr *node, const struct nlattr *mtu,
			  enum hn_nd_why why)
{
	switch (why) {
	case HN_ND_WHY_RANGE:
		NL_SET_ERR_MSG_ATTR(extack, node,
				    "the node is out of the fabric's range (hnctl show nodes)");
		break;
	case HN_ND_WHY_FILE:
		NL_SET_ERR_MSG_ATTR(extack, node,
				    "the node is bound to a file (sysfs nodes/N/holder names it)");
		break;
	case HN_ND_WHY_NETDEV:
		NL_SET_ERR_MSG_ATTR(extack, node,
				    "the node has an interface already");
		break;
	case HN_ND_WHY_REBUILD:
		NL_SET_ERR_MSG(extack, "the fabric is being rebuilt: try again");
		break;
	case HN_ND_WHY_MTU:
		NL_SET_ERR_MSG(extack,
			       "max_msg_bytes is below an Ethernet header and an MTU of 68");
		break;
	case HN_ND_WHY_BIG_MTU:
		NL_SET_ERR_MSG_ATTR(extack, mtu,
				    "the MTU is above the fabric's, max_msg_bytes less 14");
		break;
	case HN_ND_WHY_FULL:
		NL_SET_ERR_MSG(extack, "every node has an interface or a file");
		break;
	case HN_ND_WHY_NAME:
		NL_SET_ERR_MSG(extack,
			       "the name is taken in this network namespace");
		break;
	case HN_ND_WHY_DEAD:
		NL_SET_ERR_MSG(extack, "the fabric is being deleted");
		break;
	}
}

static const struct nla_policy hn_nd_policy[IFLA_HYBRIDNET_MAX + 1] = {
	[IFLA_HYBRIDNET_FABRIC] = NLA_POLICY_MAX(NLA_U32,
						 HYBRIDNET_MAX_FABRICS - 1),
	[IFLA_HYBRIDNET_NODE] = NLA_POLICY_MAX(NLA_U32, HYBRIDNET_MAX_NODES - 1),
};

static int hn_nd_validate(struct nlattr *tb[], struct nlattr *data[],
			  struct netlink_ext_ack *extack)
{
	if (tb[IFLA_ADDRESS]) {
		NL_SET_ERR_MSG_ATTR(extack, tb[IFLA_ADDRESS],
				    "an interface's MAC is its node's, 02:68:6e:00:HH:LL");
		return -EINVAL;
	}
	return 0;
}

/*
 * "ip link add [NAME] type hybridnet [fabric F] [node N]": the node, or
 * the lowest free one, of fabric F of the caller's network namespace (its
 * first), held until ndo_uninit.  A name left to the kernel becomes hnN.
 */
static int hn_nd_newlink(struct net *src_net, struct net_device *ndev,
			 struct nlattr *tb[], struct nlattr *data[],
			 struct netlink_ext_ack *extack)
{
	struct nlattr *na = data ? data[IFLA_HYBRIDNET_NODE] : NULL;
	struct nlattr *fa = data ? data[IFLA_HYBRIDNET_FABRIC] : NULL;
	struct hn_netdev *nd = netdev_priv(ndev);
	enum hn_nd_why why;
	struct hn_dev *hd;
	int rc;

	hd = hn_fabric_get(src_net, fa ? nla_get_u32(fa) : HN_FABRIC_FIRST);
	if (!hd && fa) {
		NL_SET_ERR_MSG_ATTR(extack, fa,
				    "no such fabric in this network namespace (hnctl fabric lists them)");
		return -ENODEV;
	}
	if (!hd) {
		NL_SET_ERR_MSG(extack,
			       "no fabric in this network namespace (hnctl fabric add makes one)");
		return -ENODEV;
	}
	if (!ns_capable(hd->net->user_ns, CAP_NET_ADMIN)) {
		NL_SET_ERR_MSG(extack,
			       "an interface of a fabric needs CAP_NET_ADMIN in the user namespace that owns the fabric's network namespace");
		hn_fabric_put(hd);
		return -EPERM;
	}
	nd->fabric = hd->id;
	nd->sink.hd = hd;
	rc = hn_nd_claim(nd, hd, na ? (int)nla_get_u32(na) : -1,
			 tb[IFLA_MTU], &why);
	if (rc) {
		hn_nd_why_say(extack, na, tb[IFLA_MTU], why);
		hn_fabric_put(hd);
		return rc;
	}
	if (ndev->name_assign_type == NET_NAME_ENUM) {
		snprintf(ndev->name, IFNAMSIZ, "hn%u", nd->node);
		ndev->name_assign_type = NET_NAME_PREDICTABLE;
	}
	if (__dev_get_by_name(dev_net(ndev), ndev->name)) {
		hn_nd_why_say(extack, na, NULL, HN_ND_WHY_NAME);
		rc = -EEXIST;
	} else {
		rc = register_netdevice(ndev);
	}
	if (rc)
		hn_nd_release(nd);	/* if ndo_uninit has not: the fabric too */
	return rc;
}

static size_t hn_nd_get_size(const struct net_device *ndev)
{
	return nla_total_size(sizeof(u32)) +	/* IFLA_HYBRIDNET_FABRIC */
	       nla_total_size(sizeof(u32));	/* IFLA_HYBRIDNET_NODE */
}

static int hn_nd_fill_info(struct sk_buff *skb, const struct net_device *ndev)
{
	const struct hn_netdev *nd = netdev_priv(ndev);

	if (nla_put_u32(skb, IFLA_HYBRIDNET_FABRIC, nd->fabric) ||
	    nla_put_u32(skb, IFLA_HYBRIDNET_NODE, nd->node))
		return -EMSGSIZE;
	return 0;
}

static struct rtnl_link_ops hn_link_ops __read_mostly = {
	.kind = "hybridnet",
	.priv_size = sizeof(struct hn_netdev),
	.setup = hn_nd_setup,
	.maxtype = IFLA_HYBRIDNET_MAX,
	.policy = hn_nd_policy,
	.validate = hn_nd_validate,
	.newlink = hn_nd_newlink,
	.dellink = unregister_netdevice_queue,
	.get_size = hn_nd_get_size,
	.fill_info = hn_nd_fill_info,
	.netns_refund = true,
};

/* ------------------------------------------------------------------ */
/* the fabric's interfaces                                              */

/*
 * Remove the interface @name of @net, or of @node of @hd when @name is
 * NULL (wherever it is).  -ENODEV when there is none, -EOPNOTSUPP when
 * @name is not hybridnet's, -EXDEV when it is another fabric's.
 */
int hn_netdev_del(struct hn_dev *hd, struct net *net, const char *name,
		  u32 node)
{
	struct net_device *ndev;
	int rc = 0;

	rtnl_lock();
	if (name) {
		ndev = __dev_get_by_name(net, name);
	} else {
		mutex_lock(&hd->lock);
		ndev = hn_netdev_get(hd, node);
		mutex_unlock(&hd->lock);
	}
	if (!ndev)
		rc = -ENODEV;
	else if (ndev->rtnl_link_ops != &hn_link_ops)
		rc = -EOPNOTSUPP;
	else if (((struct hn_netdev *)netdev_priv(ndev))->sink.hd != hd)
		rc = -EXDEV;
	else
		unregister_netdevice(ndev);
	rtnl_unlock();
	return rc;
}

/* The interface of @node, or NULL.  RTNL and hd->lock. */
struct net_device *hn_netdev_get(struct hn_dev *hd, u32 node)
{
	ASSERT_RTNL();
	lockdep_assert_held(&hd->lock);
	if (node >= hd->cfg.nodes || !test_bit(node, hd->nd_nodes))
		return NULL;
	return container_of(hd->ports[node].owner, struct hn_netdev,
			    sink)->ndev;
}

/*
 * Delete every interface of @hd, in whatever network namespace, a batch
 * per hold of the RTNL, so that others get it in between.  The fabric is
 * dead already (fabrics.c): none comes back.
 */
void hn_netdevs_del_all(struct hn_dev *hd)
{
	struct hn_netdev *nd;
	int n;

	do {
		LIST_HEAD(kill);	/* unregister_netdevice_many() ends it */

		n = 0;
		rtnl_lock();
		list_for_each_entry(nd, &hd->netdevs, list) {
			if (n == HN_ND_DEL_BATCH)
				break;
			unregister_netdevice_queue(nd->ndev, &kill);
			n++;
		}
		unregister_netdevice_many(&kill);
		rtnl_unlock();
		cond_resched();
	} while (n);
}

/* At load: the kind "hybridnet". */
int hn_netdev_kind_register(void)
{
	return rtnl_link_register(&hn_link_ops);
}

/* At unload, once the fabrics have deleted theirs: none is left. */
void hn_netdev_kind_unregister(void)
{
	rtnl_link_unregister(&hn_link_ops);
}

MODULE_ALIAS_RTNL_LINK("hybridnet");
