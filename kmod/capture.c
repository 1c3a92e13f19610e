// SPDX-License-Identifier: GPL-2.0
/*
 * capture.c - the capture interface (hnmon0), as mac80211_hwsim's
 * hwsim0: every message the fabric delivers, whoever sent it (a file, a
 * network interface, the generator), is received on it as an Ethernet
 * frame for tcpdump and Wireshark: the destination and source nodes' MACs,
 * EtherType HYBRIDNET_CAPTURE_ETHERTYPE, a struct hybridnet_capture_hdr
 * (uapi/linux/hybridnet.h), then the first snaplen bytes of the payload.
 *
 * A fabric has at most one; the frames' header names the fabric
 * (hybridnet_capture_hdr.fabric).  It is made by HYBRIDNET_CMD_CAPTURE_ON
 * (nl_capture.c, hnctl capture on) or by rtnetlink ("ip link add hnmon0
 * type hybridnet-capture": of the first fabric of the caller's network
 * namespace, with CAP_NET_ADMIN over the user namespace that owns the
 * fabric's), holds a reference to its fabric, and goes with "ip link
 * del", CAPTURE_OFF, the end of its network namespace, the deletion of
 * its fabric or the unload.
 *
 * Cost: the port's deliver callback (port.c) tests hd->cap, a pointer
 * that is NULL when no capture interface exists, and calls
 * hn_cap_deliver() otherwise.  Nothing here holds a message back or
 * drops one: the frame is a copy, made with GFP_ATOMIC; a frame that
 * cannot be made (no memory) or kept (its ring full) is counted, in
 * rx_dropped and by reason in ethtool -S, and the message goes on.
 *
 * Receive: frames wait on the interface's ring (at most ring_max, ethtool
 * -G rx) for its NAPI poll, threaded by default (a kthread "napi/hnmon0-N",
 * so the stack's work is not done in the engine's context), which hands
 * them to netif_receive_skb(): packet sockets see them there; then the
 * interface's rx_handler consumes them, since no protocol takes them.
 *
 * Transmit: none.  Its MTU is 68, the least, so IPv6 does not configure
 * it, and IFF_NOARP; a frame the stack sends anyway is dropped and
 * counted in tx_dropped.
 *
 * Locking: hd->cap is written with the RTNL and hd->lock both held (in
 * ndo_init and ndo_uninit), so either reads it; hn_cap_deliver() runs
 * under hd->lock, so once ndo_uninit has cleared hd->cap under it no
 * delivery touches the interface.  The deliver side's counters are under
 * hd->lock, the poll's in the poll; each has its u64_stats_sync, updated
 * with bottom halves off.  The ring's own lock is taken with bottom
 * halves off.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/etherdevice.h>
#include <linux/ethtool.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <linux/skbuff.h>
#include <linux/u64_stats_sync.h>
#include <net/net_namespace.h>
#include <net/rtnetlink.h>

#include "hn_kmod.h"

/* payloads up to this many bytes go in the skb's head, longer in pages */
#define HN_CAP_LINEAR		1024

#define HN_CAP_HLEN	(ETH_HLEN + sizeof(struct hybridnet_capture_hdr))

struct hn_cap {
	struct hn_dev *hd;		/* its fabric, held from ndo_init */
	struct net_device *ndev;
	struct napi_struct napi;
	struct sk_buff_head ring;	/* frames waiting for the poll */
	u32 ring_max;			/* READ_ONCE: ethtool -G rx */
	u32 snaplen;			/* set before registration */
	u32 seq;			/* hd->lock: messages offered */
	/* the deliver side's, hd->lock */
	struct u64_stats_sync syncp;
	u64_stats_t cnt[HN_CAP_CNT_NR];
	/* the poll's */
	struct u64_stats_sync rx_syncp;
	u64_stats_t rx_packets, rx_bytes;
};

static struct rtnl_link_ops hn_cap_link_ops;

/* ethtool -S, by enum hn_cap_cnt */
static const char hn_cap_cnt_names[HN_CAP_CNT_NR][ETH_GSTRING_LEN] = {
	[HN_CAP_CAPTURED] = "captured",
	[HN_CAP_TRUNCATED] = "truncated",
	[HN_CAP_DROP_NO_MEM] = "rx_drop_no_mem",
	[HN_CAP_DROP_RING_FULL] = "rx_drop_ring_full",
};

static const char *const hn_cap_why_text[] = {
	[HN_CAP_WHY_EXISTS] = "a capture interface exists already",
	[HN_CAP_WHY_NAME] = "the name is taken in this network namespace",
	[HN_CAP_WHY_REGISTER] = "the kernel refused to register the interface",
	[HN_CAP_WHY_UP] = "the interface could not be brought up",
};

const char *hn_cap_why(enum hn_cap_why why)
{
	return hn_cap_why_text[why];
}

/* Count @c, bottom halves off (u64_stats on 32-bit). */
static void hn_cap_count(struct hn_cap *cap, enum hn_cap_cnt c)
{
	u64_stats_update_begin(&cap->syncp);
	u64_stats_inc(&cap->cnt[c]);
	u64_stats_update_end(&cap->syncp);
}

/* The frame of @m, @caplen bytes of its payload @data kept; or NULL. */
static struct sk_buff *hn_cap_skb(struct hn_cap *cap, const struct hn_msg *m,
				  u8 from, const void *data, u32 caplen)
{
	u32 linear = caplen <= HN_CAP_LINEAR ? caplen : 0;
	struct hybridnet_capture_hdr *h;
	struct sk_buff *skb;
	struct ethhdr *eth;
	int err;

	skb = alloc_skb_with_frags(NET_SKB_PAD + HN_CAP_HLEN + linear,
				   caplen - linear, 0, &err,
				   GFP_ATOMIC | __GFP_NOWARN);
	if (!skb)
		return NULL;
	skb_reserve(skb, NET_SKB_PAD);
	eth = skb_put(skb, ETH_HLEN);
	hn_node_mac(eth->h_dest, m->dst);
	hn_node_mac(eth->h_source, m->src);
	eth->h_proto = htons(HYBRIDNET_CAPTURE_ETHERTYPE);
	h = skb_put_zero(skb, sizeof(*h));
	h->magic = htons(HYBRIDNET_CAPTURE_MAGIC);
	h->version = HYBRIDNET_CAPTURE_VERSION;
	h->hdr_len = sizeof(*h);
	h->from = from;
	h->mode = m->mode;
	h->tag = m->tag;
	h->slot = htons(m->slot);
	h->fabric = htons(cap->hd->id);
	h->seq = htonl(cap->seq);
	h->src = htonl(m->src);
	h->dst = htonl(m->dst);
	h->len = htonl(m->len);
	h->caplen = htonl(caplen);
	h->t_inject = cpu_to_be64(m->t_inject);
	h->t_deliver = cpu_to_be64(m->t_deliver);
	skb_put(skb, linear);
	skb->data_len = caplen - linear;
	skb->len += caplen - linear;
	if (caplen)
		skb_store_bits(skb, HN_CAP_HLEN, data, caplen);
	skb->protocol = eth_type_trans(skb, cap->ndev);
	return skb;
}

/*
 * The fabric delivered @m (hd->lock, from the port's deliver callback):
 * a frame of it for the capture interface, if it is up.  @km is the
 * message of a file or an interface, NULL for the generator's (which has
 * no payload).
 */
void hn_cap_deliver(struct hn_cap *cap, const struct hn_msg *m,
		    const struct hn_kmsg *km)
{
	struct sk_buff *skb;
	u32 caplen;

	lockdep_assert_held(&cap->hd->lock);
	if (!netif_running(cap->ndev))
		return;
	cap->seq++;
	local_bh_disable();
	if (skb_queue_len_lockless(&cap->ring) >= READ_ONCE(cap->ring_max)) {
		hn_cap_count(cap, HN_CAP_DROP_RING_FULL);
		goto out;
	}
	caplen = km ? min(m->len, cap->snaplen) : 0;
	skb = hn_cap_skb(cap, m, km ? km->from : HYBRIDNET_CAPTURE_FROM_GENERATOR,
			 km ? km->data : NULL, caplen);
	if (!skb) {
		hn_cap_count(cap, HN_CAP_DROP_NO_MEM);
		goto out;
	}
	spin_lock(&cap->ring.lock);
	__skb_queue_tail(&cap->ring, skb);
	spin_unlock(&cap->ring.lock);
	napi_schedule(&cap->napi);
	hn_cap_count(cap, HN_CAP_CAPTURED);
	if (km && caplen < m->len)
		hn_cap_count(cap, HN_CAP_TRUNCATED);
out:
	local_bh_enable();	/* runs the poll, unless it is threaded */
}

static int hn_cap_poll(struct napi_struct *napi, int budget)
{
	struct hn_cap *cap = container_of(napi, struct hn_cap, napi);
	struct sk_buff_head q;
	struct sk_buff *skb;
	u64 bytes = 0;
	int done = 0;

	__skb_queue_head_init(&q);
	spin_lock(&cap->ring.lock);
	while (done < budget && (skb = __skb_dequeue(&cap->ring))) {
		__skb_queue_tail(&q, skb);
		done++;
	}
	spin_unlock(&cap->ring.lock);
	while ((skb = __skb_dequeue(&q))) {
		bytes += skb->len + ETH_HLEN;
		netif_receive_skb(skb);
	}
	u64_stats_update_begin(&cap->rx_syncp);
	u64_stats_add(&cap->rx_packets, done);
	u64_stats_add(&cap->rx_bytes, bytes);
	u64_stats_update_end(&cap->rx_syncp);
	if (done < budget)
		napi_complete_done(napi, done);
	return done;
}

/* After the packet sockets: no protocol wants the frames. */
static rx_handler_result_t hn_cap_rx_handler(struct sk_buff **pskb)
{
	consume_skb(*pskb);
	return RX_HANDLER_CONSUMED;
}

/* Frames the stack never saw: the interface went down, or away. */
static void hn_cap_purge(struct hn_cap *cap)
{
	struct sk_buff *skb;

	while ((skb = skb_dequeue(&cap->ring))) {
		dev_core_stats_rx_dropped_inc(cap->ndev);
		kfree_skb_reason(skb, SKB_DROP_REASON_DEV_READY);
	}
}

/*
 * Claim the fabric's capture (RTNL): refused when another interface has
 * it or the fabric is being deleted; register_netdevice() has found the
 * name free.  Holds the fabric until ndo_uninit.
 */
static int hn_cap_init_dev(struct net_device *ndev)
{
	struct hn_cap *cap = netdev_priv(ndev);
	struct hn_dev *hd = cap->hd;
	int rc;

	ASSERT_RTNL();
	if (hd->cap)
		return -EEXIST;
	rc = netdev_rx_handler_register(ndev, hn_cap_rx_handler, NULL);
	if (rc)
		return rc;
	netif_napi_add(ndev, &cap->napi, hn_cap_poll);
	/* in softirq context, should a kthread not be had */
	dev_set_threaded(ndev, true);
	mutex_lock(&hd->lock);
	if (hd->dead) {
		mutex_unlock(&hd->lock);
		netif_napi_del(&cap->napi);
		netdev_rx_handler_unregister(ndev);
		return -ENODEV;
	}
	hd->cap = cap;
	mutex_unlock(&hd->lock);
	hn_fabric_hold(hd);
	return 0;
}

/* Give the capture back: no delivery sees the interface after this. */
static void hn_cap_uninit(struct net_device *ndev)
{
	struct hn_cap *cap = netdev_priv(ndev);
	struct hn_dev *hd = cap->hd;

	ASSERT_RTNL();
	mutex_lock(&hd->lock);
	hd->cap = NULL;
	mutex_unlock(&hd->lock);
	netif_napi_del(&cap->napi);
	netdev_rx_handler_unregister(ndev);
	hn_cap_purge(cap);
	hn_fabric_put(hd);
}

static int hn_cap_open(struct net_device *ndev)
{
	struct hn_cap *cap = netdev_priv(ndev);

	napi_enable(&cap->napi);
	netif_carrier_on(ndev);
	/* a frame queued as it came up, before napi_enable() */
	local_bh_disable();
	napi_schedule(&cap->napi);
	local_bh_enable();
	return 0;
}

/* The core has marked it down: deliveries leave it alone from now on. */
static int hn_cap_stop(struct net_device *ndev)
{
	struct hn_cap *cap = netdev_priv(ndev);

	netif_carrier_off(ndev);
	napi_disable(&cap->napi);
	/* a delivery that found it up has queued its frame */
	mutex_lock(&cap->hd->lock);
	mutex_unlock(&cap->hd->lock);
	hn_cap_purge(cap);
	return 0;
}

static netdev_tx_t hn_cap_xmit(struct sk_buff *skb, struct net_device *ndev)
{
	dev_core_stats_tx_dropped_inc(ndev);
	kfree_skb(skb);
	return NETDEV_TX_OK;
}

/* The deliver side's counters. */
static void hn_cap_read(struct hn_cap *cap, u64 *v)
{
	unsigned int start;
	int i;

	do {
		start = u64_stats_fetch_begin(&cap->syncp);
		for (i = 0; i < HN_CAP_CNT_NR; i++)
			v[i] = u64_stats_read(&cap->cnt[i]);
	} while (u64_stats_fetch_retry(&cap->syncp, start));
}

static void hn_cap_get_stats64(struct net_device *ndev,
			       struct rtnl_link_stats64 *s)
{
	struct hn_cap *cap = netdev_priv(ndev);
	u64 v[HN_CAP_CNT_NR];
	unsigned int start;

	do {
		start = u64_stats_fetch_begin(&cap->rx_syncp);
		s->rx_packets = u64_stats_read(&cap->rx_packets);
		s->rx_bytes = u64_stats_read(&cap->rx_bytes);
	} while (u64_stats_fetch_retry(&cap->rx_syncp, start));
	hn_cap_read(cap, v);
	/* the core adds its own: frames purged, frames sent */
	s->rx_dropped = v[HN_CAP_DROP_NO_MEM] + v[HN_CAP_DROP_RING_FULL];
}

static const struct net_device_ops hn_cap_ops = {
	.ndo_init = hn_cap_init_dev,
	.ndo_uninit = hn_cap_uninit,
	.ndo_open = hn_cap_open,
	.ndo_stop = hn_cap_stop,
	.ndo_start_xmit = hn_cap_xmit,
	.ndo_get_stats64 = hn_cap_get_stats64,
};

static void hn_cap_drvinfo(struct net_device *ndev,
			   struct ethtool_drvinfo *info)
{
	strscpy(info->driver, KBUILD_MODNAME, sizeof(info->driver));
	strscpy(info->bus_info, "capture", sizeof(info->bus_info));
}

static int hn_cap_sset_count(struct net_device *ndev, int sset)
{
	return sset == ETH_SS_STATS ? HN_CAP_CNT_NR : -EOPNOTSUPP;
}

static void hn_cap_get_strings(struct net_device *ndev, u32 sset, u8 *buf)
{
	if (sset == ETH_SS_STATS)
		memcpy(buf, hn_cap_cnt_names, sizeof(hn_cap_cnt_names));
}

static void hn_cap_ethtool_stats(struct net_device *ndev,
				 struct ethtool_stats *stats, u64 *data)
{
	hn_cap_read(netdev_priv(ndev), data);
}

static void hn_cap_get_ring(struct net_device *ndev,
			    struct ethtool_ringparam *ring,
			    struct kernel_ethtool_ringparam *kring,
			    struct netlink_ext_ack *extack)
{
	struct hn_cap *cap = netdev_priv(ndev);

	ring->rx_max_pending = HN_CAP_RING_MAX;
	ring->rx_pending = READ_ONCE(cap->ring_max);
}

static int hn_cap_set_ring(struct net_device *ndev,
			   struct ethtool_ringparam *ring,
			   struct kernel_ethtool_ringparam *kring,
			   struct netlink_ext_ack *extack)
{
	struct hn_cap *cap = netdev_priv(ndev);

	if (!ring->rx_pending) {
		NL_SET_ERR_MSG(extack, "the ring holds at least one frame");
		return -EINVAL;
	}
	if (ring->tx_pending || ring->rx_mini_pending ||
	    ring->rx_jumbo_pending) {
		NL_SET_ERR_MSG(extack, "the capture interface has an rx ring only");
		return -EINVAL;
	}
	WRITE_ONCE(cap->ring_max, ring->rx_pending);
	return 0;
}

static const struct ethtool_ops hn_cap_ethtool_ops = {
	.get_drvinfo = hn_cap_drvinfo,
	.get_link = ethtool_op_get_link,
	.get_sset_count = hn_cap_sset_count,
	.get_strings = hn_cap_get_strings,
	.get_ethtool_stats = hn_cap_ethtool_stats,
	.get_ringparam = hn_cap_get_ring,
	.set_ringparam = hn_cap_set_ring,
};

/* rtnl_link_ops.setup, and alloc_netdev()'s */
static void hn_cap_setup(struct net_device *ndev)
{
	static const u8 mac[ETH_ALEN] = { 0x02, 0x68, 0x6e, 0xff, 0, 0 };
	struct hn_cap *cap = netdev_priv(ndev);

	ether_setup(ndev);
	ndev->netdev_ops = &hn_cap_ops;
	ndev->ethtool_ops = &hn_cap_ethtool_ops;
	ndev->rtnl_link_ops = &hn_cap_link_ops;
	ndev->needs_free_netdev = true;
	ndev->priv_flags |= IFF_NO_QUEUE;
	ndev->flags |= IFF_NOARP;
	ndev->flags &= ~IFF_MULTICAST;
	ndev->features |= NETIF_F_NETNS_LOCAL;
	ndev->mtu = ETH_MIN_MTU;
	ndev->min_mtu = ETH_MIN_MTU;
	ndev->max_mtu = ETH_MIN_MTU;
	eth_hw_addr_set(ndev, mac);	/* no node's: byte 3 is 0xff */
	cap->ndev = ndev;
	cap->ring_max = HN_CAP_RING_DEFAULT;
	cap->snaplen = HYBRIDNET_CAPTURE_SNAPLEN_MAX;
	skb_queue_head_init(&cap->ring);
	u64_stats_init(&cap->syncp);
	u64_stats_init(&cap->rx_syncp);
	netif_carrier_off(ndev);
}

/*
 * Register @ndev (in its namespace already) as the capture interface.
 * RTNL.  A name left to the kernel becomes hnmon0, 1, ...
 */
static int hn_cap_register(struct net_device *ndev, enum hn_cap_why *why)
{
	struct hn_cap *cap = netdev_priv(ndev);
	int rc;

	ASSERT_RTNL();
	if (ndev->name_assign_type == NET_NAME_ENUM)
		strscpy(ndev->name, "hnmon%d", IFNAMSIZ);
	if (cap->hd->cap) {
		*why = HN_CAP_WHY_EXISTS;
		return -EEXIST;
	}
	if (__dev_get_by_name(dev_net(ndev), ndev->name)) {
		*why = HN_CAP_WHY_NAME;
		return -EEXIST;
	}
	rc = register_netdevice(ndev);
	if (rc)
		*why = HN_CAP_WHY_REGISTER;
	return rc;
}

/* "ip link add [NAME] type hybridnet-capture": the first fabric's */
static int hn_cap_newlink(struct net *src_net, struct net_device *ndev,
			  struct nlattr *tb[], struct nlattr *data[],
			  struct netlink_ext_ack *extack)
{
	struct hn_cap *cap = netdev_priv(ndev);
	enum hn_cap_why why;
	int rc;

	cap->hd = hn_fabric_get(src_net, HN_FABRIC_FIRST);
	if (!cap->hd) {
		NL_SET_ERR_MSG(extack,
			       "no fabric in this network namespace to capture");
		return -ENODEV;
	}
	/* rtnetlink asks the same of the caller's namespace: say it */
	if (!ns_capable(cap->hd->net->user_ns, CAP_NET_ADMIN)) {
		NL_SET_ERR_MSG(extack,
			       "capturing the fabric needs CAP_NET_ADMIN over its network namespace");
		rc = -EPERM;
		goto out;
	}
	rc = hn_cap_register(ndev, &why);
	if (rc && why == HN_CAP_WHY_EXISTS)
		NL_SET_ERR_MSG(extack, "a capture interface exists already");
	else if (rc && why == HN_CAP_WHY_NAME)
		NL_SET_ERR_MSG(extack, "the name is taken in this network namespace");
out:
	hn_fabric_put(cap->hd);	/* ndo_init took its own */
	return rc;
}

static struct rtnl_link_ops hn_cap_link_ops __read_mostly = {
	.kind = "hybridnet-capture",
	.priv_size = sizeof(struct hn_cap),
	.setup = hn_cap_setup,
	.newlink = hn_cap_newlink,
	.dellink = unregister_netdevice_queue,
};

/*
 * The capture interface @name (NULL: hnmon0) in @net, up, keeping
 * @snaplen bytes of each payload on a ring of @ring frames
 * (HYBRIDNET_CMD_CAPTURE_ON).  0, or an errno and *@why.
 */
int hn_cap_add(struct hn_dev *hd, struct net *net, const char *name,
	       u32 snaplen, u32 ring, enum hn_cap_why *why)
{
	struct net_device *ndev;
	struct hn_cap *cap;
	int rc;

	*why = HN_CAP_WHY_REGISTER;
	ndev = alloc_netdev(sizeof(*cap), name ?: "hnmon%d",
			    name ? NET_NAME_USER : NET_NAME_ENUM,
			    hn_cap_setup);
	if (!ndev)
		return -ENOMEM;
	cap = netdev_priv(ndev);
	cap->hd = hd;
	cap->snaplen = snaplen;
	cap->ring_max = ring;
	dev_net_set(ndev, net);
	rtnl_lock();
	rc = hn_cap_register(ndev, why);
	if (rc) {
		rtnl_unlock();
		free_netdev(ndev);
		return rc;
	}
	rc = dev_change_flags(ndev, ndev->flags | IFF_UP, NULL);
	if (rc) {
		*why = HN_CAP_WHY_UP;
		unregister_netdevice(ndev);	/* needs_free_netdev */
	}
	rtnl_unlock();
	return rc;
}

/* Remove @hd's capture interface, wherever it is: 0 or -ENODEV. */
int hn_cap_del(struct hn_dev *hd)
{
	struct hn_cap *cap;
	int rc = -ENODEV;

	rtnl_lock();
	cap = hd->cap;
	if (cap) {
		unregister_netdevice(cap->ndev);
		rc = 0;
	}
	rtnl_unlock();
	return rc;
}

/* @hd's capture interface and its counters: 0, or -ENODEV when none. */
int hn_cap_info(struct hn_dev *hd, struct hn_cap_info *ci)
{
	struct hn_cap *cap;
	int rc = -ENODEV;

	rtnl_lock();
	cap = hd->cap;
	if (cap) {
		strscpy(ci->name, cap->ndev->name, sizeof(ci->name));
		ci->ifindex = cap->ndev->ifindex;
		ci->netns_cookie = dev_net(cap->ndev)->net_cookie;
		ci->snaplen = cap->snaplen;
		ci->ring = READ_ONCE(cap->ring_max);
		hn_cap_read(cap, ci->cnt);
		rc = 0;
	}
	rtnl_unlock();
	return rc;
}

/* At load: the kind "hybridnet-capture". */
int hn_cap_init(void)
{
	return rtnl_link_register(&hn_cap_link_ops);
}

/* At unload (the fabrics have taken theirs): the kind. */
void hn_cap_exit(void)
{
	rtnl_link_unregister(&hn_cap_link_ops);
}

MODULE_ALIAS_RTNL_LINK("hybridnet-capture");
