// SPDX-License-Identifier: GPL-2.0
/*
 * nl_config.c - HYBRIDNET_CMD_CONFIG_GET and _SET.
 *
 * The policy, the slot lengths, the idle time-out, the predict scheduler
 * and the clock change live.  Anything else (nodes, slots, timing, buffers) needs a new engine:
 * that is allowed only while no file is bound to a node and nothing is in
 * flight, and is refused with EBUSY and the reason otherwise.  While the
 * engine is rebuilt, hd->frozen keeps files from binding, and the per-node
 * sysfs directories are removed and made again for the new node count.
 */
#include <linux/bitmap.h>
#include <linux/mm.h>
#include <linux/slab.h>

#include "hn_nl.h"

#define HN_CFG(f)	offsetof(struct hn_config, f)

/* u32 configuration attributes and their fields */
static const struct {
	u16 attr;
	u16 off;
	bool live;		/* may change while traffic flows */
} hn_cfg_u32[] = {
	{ HYBRIDNET_ATTR_NODES, HN_CFG(nodes), false },
	{ HYBRIDNET_ATTR_SLOTS, HN_CFG(k), false },
	{ HYBRIDNET_ATTR_POLICY, HN_CFG(policy), true },
	{ HYBRIDNET_ATTR_LINK_MBPS, HN_CFG(link_mbps), false },
	{ HYBRIDNET_ATTR_SLOT_P_NS, HN_CFG(slot_p_ns), true },
	{ HYBRIDNET_ATTR_SLOT_W_NS, HN_CFG(slot_w_ns), true },
	{ HYBRIDNET_ATTR_GUARD_NS, HN_CFG(guard_ns), false },
	{ HYBRIDNET_ATTR_SCHED_NS, HN_CFG(sched_ns), false },
	{ HYBRIDNET_ATTR_SETUP_NS, HN_CFG(setup_ns), false },
	{ HYBRIDNET_ATTR_WH_FIRST_NS, HN_CFG(wh_first_ns), false },
	{ HYBRIDNET_ATTR_WH_FLIT_NS, HN_CFG(wh_flit_ns), false },
	{ HYBRIDNET_ATTR_FLIT_BYTES, HN_CFG(flit_bytes), false },
	{ HYBRIDNET_ATTR_WORM_BYTES, HN_CFG(worm_bytes), false },
	{ HYBRIDNET_ATTR_WIRE_NS, HN_CFG(wire_ns), false },
	{ HYBRIDNET_ATTR_NIC_NS, HN_CFG(nic_ns), false },
	{ HYBRIDNET_ATTR_FABRIC_NS, HN_CFG(fabric_ns), false },
	{ HYBRIDNET_ATTR_NIC_BUF, HN_CFG(nic_buf_bytes), false },
	{ HYBRIDNET_ATTR_SW_BUF, HN_CFG(sw_buf_bytes), false },
	{ HYBRIDNET_ATTR_RX_BUF, HN_CFG(rx_buf_bytes), false },
	{ HYBRIDNET_ATTR_MAX_MSG, HN_CFG(max_msg_bytes), false },
	{ HYBRIDNET_ATTR_PIN_SLOTS, HN_CFG(pin_slots), false },
	{ HYBRIDNET_ATTR_PREDICT_ALGO, HN_CFG(predict_algo), true },
	{ HYBRIDNET_ATTR_PREDICT_KSTEP, HN_CFG(predict_kstep), true },
};

int hn_nl_put_config(struct sk_buff *skb, struct hn_dev *hd)
{
	const struct hn_config *c = hn_cfg(hd->e);
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(hn_cfg_u32); i++)
		if (nla_put_u32(skb, hn_cfg_u32[i].attr,
				*(const u32 *)((const char *)c +
					       hn_cfg_u32[i].off)))
			return -EMSGSIZE;
	if (nla_put_u64_64bit(skb, HYBRIDNET_ATTR_IDLE_TIMEOUT_NS,
			      c->idle_timeout_ns, HYBRIDNET_ATTR_PAD) ||
	    nla_put_string(skb, HYBRIDNET_ATTR_PROFILE, hd->profile) ||
	    nla_put_u32(skb, HYBRIDNET_ATTR_CLOCK, hd->clock) ||
	    nla_put_u32(skb, HYBRIDNET_ATTR_PACE_PPM, hd->pace_ppm) ||
	    nla_put_u64_64bit(skb, HYBRIDNET_ATTR_NOW, hn_now(hd->e),
			      HYBRIDNET_ATTR_PAD))
		return -EMSGSIZE;
	return 0;
}

static int hn_fill_config(struct sk_buff *msg, struct hn_dev *hd)
{
	int rc;

	mutex_lock(&hd->lock);
	rc = hn_nl_put_config(msg, hd);
	mutex_unlock(&hd->lock);
	return rc;
}

int hn_nl_config_get(struct sk_buff *skb, struct genl_info *info)
{
	return hn_nl_reply(info, HYBRIDNET_CMD_CONFIG_GET, NLMSG_GOODSIZE,
			   hn_fill_config);
}

/* Why the engine cannot be rebuilt now, or NULL.  Under hd->lock. */
static const char *hn_rebuild_busy(struct hn_dev *hd)
{
	u32 i;

	for (i = 0; i < hd->cfg.nodes; i++)
		if (hd->ports[i].owner)
			return "a file is bound to a node: close it first";
	if (hn_traffic_active(hd))
		return "the traffic generator is running: stop it first";
	if (hn_busy(hd->e))
		return "messages are in flight: let them drain first";
	return NULL;
}

static struct hn_port *hn_ports_alloc(const struct hn_config *c)
{
	struct hn_port *ports, *p;
	u32 i;

	ports = kvcalloc(c->nodes, sizeof(*ports), GFP_KERNEL);
	if (!ports)
		return NULL;
	for (i = 0; i < c->nodes; i++) {
		p = &ports[i];
		p->id = i;
		p->room = c->nic_buf_bytes;
		spin_lock_init(&p->lock);
		INIT_LIST_HEAD(&p->rxq);
		init_waitqueue_head(&p->wq);
	}
	return ports;
}

/* Replace the engine (and the ports, for a new node count). */
static int hn_rebuild(struct hn_dev *hd, const struct hn_config *c,
		      struct netlink_ext_ack *extack)
{
	bool renode = c->nodes != hd->cfg.nodes;
	struct hn_port *ports = NULL, *old_ports = NULL;
	unsigned long *tx_wait = NULL, *old_wait = NULL;
	struct hn_engine *e, *old;
	const char *why;
	int rc;

	e = hn_create(c, hd->ops, hd, &rc);
	if (!e) {
		NL_SET_ERR_MSG(extack, "cannot create an engine of that size");
		return rc;
	}
	if (renode) {
		ports = hn_ports_alloc(c);
		tx_wait = bitmap_zalloc(c->nodes, GFP_KERNEL);
		if (!ports || !tx_wait) {
			rc = -ENOMEM;
			goto out_free;
		}
	}
	mutex_lock(&hd->lock);
	why = hn_rebuild_busy(hd);
	if (why) {
		mutex_unlock(&hd->lock);
		hn_nl_errf(extack, NULL, "cannot change the fabric now: %s", why);
		rc = -EBUSY;
		goto out_free;
	}
	hd->frozen = true;
	mutex_unlock(&hd->lock);

	if (renode)
		hn_sysfs_nodes_del(hd);

	mutex_lock(&hd->lock);
	old = hd->e;
	hd->e = e;
	if (renode) {
		old_ports = hd->ports;
		old_wait = hd->tx_wait;
		hd->ports = ports;
		hd->tx_wait = tx_wait;
	} else {
		u32 i;

		for (i = 0; i < c->nodes; i++)
			hd->ports[i].room = c->nic_buf_bytes;
	}
	hd->cfg = *c;
	hd->frozen = false;
	hn_clock_reset_stats(hd);
	mutex_unlock(&hd->lock);

	hn_destroy(old);	/* idle: nothing to reclaim */
	kvfree(old_ports);
	bitmap_free(old_wait);
	if (renode) {
		rc = hn_sysfs_nodes_add(hd);
		if (rc)
			pr_warn("hybridnet: node directories not made: %d\n", rc);
	}
	return 0;

out_free:
	hn_destroy(e);
	kvfree(ports);
	bitmap_free(tx_wait);
	return rc;
}

static void hn_config_event(struct hn_dev *hd)
{
	struct sk_buff *skb;
	void *hdr;

	skb = hn_nl_event_new(HYBRIDNET_EVENT_CONFIG, 0, &hdr);
	if (!skb)
		return;
	mutex_lock(&hd->lock);
	if (hn_nl_put_config(skb, hd)) {
		mutex_unlock(&hd->lock);
		nlmsg_free(skb);
		return;
	}
	mutex_unlock(&hd->lock);
	hn_nl_event_send(skb, hdr);
}

int hn_nl_config_set(struct sk_buff *skb, struct genl_info *info)
{
	struct netlink_ext_ack *extack = info->extack;
	struct nlattr **tb = info->attrs;
	struct hn_dev *hd = hn_nl_hd;
	bool rebuild = false, clock = false;
	u32 clk = hd->clock, pace = hd->pace_ppm;
	const char *profile = NULL;
	struct hn_err err = { };
	struct hn_config c;
	unsigned int i;
	int rc;

	mutex_lock(&hd->lock);
	c = *hn_cfg(hd->e);
	mutex_unlock(&hd->lock);

	if (tb[HYBRIDNET_ATTR_PROFILE]) {
		struct hn_config p;

		for (i = 0; hn_profile_name(i); i++)
			if (!strcmp(hn_profile_name(i),
				    nla_data(tb[HYBRIDNET_ATTR_PROFILE])))
				profile = hn_profile_name(i);
		if (!profile) {
			NL_SET_ERR_MSG_ATTR(extack, tb[HYBRIDNET_ATTR_PROFILE],
					    "unknown profile (ding4 or ding5)");
			return -EINVAL;
		}
		hn_config_profile(&p, profile);
		rebuild = memcmp(&p, &c, sizeof(c));
		c = p;
	}
	for (i = 0; i < ARRAY_SIZE(hn_cfg_u32); i++) {
		const struct nlattr *a = tb[hn_cfg_u32[i].attr];
		u32 *f = (u32 *)((char *)&c + hn_cfg_u32[i].off);

		if (!a || nla_get_u32(a) == *f)
			continue;
		*f = nla_get_u32(a);
		rebuild |= !hn_cfg_u32[i].live;
	}
	if (tb[HYBRIDNET_ATTR_IDLE_TIMEOUT_NS])
		c.idle_timeout_ns = nla_get_u64(tb[HYBRIDNET_ATTR_IDLE_TIMEOUT_NS]);
	if (tb[HYBRIDNET_ATTR_CLOCK])
		clk = nla_get_u32(tb[HYBRIDNET_ATTR_CLOCK]);
	if (tb[HYBRIDNET_ATTR_PACE_PPM])
		pace = nla_get_u32(tb[HYBRIDNET_ATTR_PACE_PPM]);
	clock = clk != hd->clock || pace != hd->pace_ppm;

	rc = hn_config_check(&c, &err);
	if (rc)
		return hn_nl_core_err(extack, rc, &err, "configuration refused");

	if (rebuild) {
		rc = hn_rebuild(hd, &c, extack);
	} else {
		mutex_lock(&hd->lock);
		rc = hn_set_policy(hd->e, c.policy, c.slot_p_ns, c.slot_w_ns,
				   &err);
		if (!rc)
			rc = hn_set_timeout(hd->e, c.idle_timeout_ns);
		if (!rc)
			rc = hn_set_predict(hd->e, c.predict_algo,
					    c.predict_kstep, &err);
		if (!rc)
			hd->cfg = *hn_cfg(hd->e);
		mutex_unlock(&hd->lock);
		if (rc)
			return hn_nl_core_err(extack, rc, &err,
					      "configuration refused");
	}
	if (rc)
		return rc;
	if (profile)
		hd->profile = profile;
	if (clock) {
		hn_clock_stop(hd);
		hd->clock = clk;
		hd->pace_ppm = pace;
		rc = hn_clock_start(hd);
		if (rc) {
			NL_SET_ERR_MSG(extack, "cannot restart the clock");
			return rc;
		}
	}
	hn_clock_kick(hd);
	hn_config_event(hd);
	return 0;
}
