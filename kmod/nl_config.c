// SPDX-License-Identifier: GPL-2.0
/*
 * nl_config.c - HYBRIDNET_CMD_CONFIG_GET and _SET, and the parsing of a
 * configuration that CONFIG_SET and FABRIC_NEW (nl_fabric.c) share.
 *
 * The fields marked live in hn_fields.h (the policy, the slot lengths,
 * the idle time-out, the predict scheduler) and the clock change live.
 * Anything else (topology, nodes, slots, timing, buffers) needs a new
 * engine:
 * that is allowed only while no file is bound to a node and nothing is in
 * flight, and is refused with EBUSY and the reason otherwise.  While the
 * engine is rebuilt, hd->frozen keeps files from binding, and the per-node
 * sysfs directories are removed and made again for the new node count.
 * The reply says whether the fabric was rebuilt (every circuit released,
 * statistics and virtual time reset) and how many circuits that released;
 * it is allocated first, so a change is never made without its reply.
 */
#include <linux/bitmap.h>
#include <linux/mm.h>
#include <linux/slab.h>

#include "hn_nl.h"

/* each field's attribute (hn_fields.h) */
static const u16 hn_cfg_attr[HN_CFG_NR] = {
#define HN_FIELD(f, A, param, nl, help, T, lo, hi, live, words)	\
	[HN_CFG_##f] = HYBRIDNET_ATTR_##A,
#include "hn_fields.h"
#undef HN_FIELD
};

int hn_nl_put_config(struct sk_buff *skb, struct hn_dev *hd)
{
	const struct hn_config *c = hn_cfg(hd->e);
	unsigned int i;
	int rc;

	lockdep_assert_held(&hd->lock);
	for (i = 0; i < HN_CFG_NR; i++) {
		const struct hn_cfg_field *cf = &hn_cfg_fields[i];
		u64 v = hn_cfg_get(c, i);
		char text[HN_TEXT_MAX + 1];

		if (cf->type == HN_CFG_STRING)
			rc = nla_put_string(skb, hn_cfg_attr[i],
					    cf->text.print(c, text, sizeof(text)));
		else if (cf->type == HN_CFG_U64)
			rc = nla_put_u64_64bit(skb, hn_cfg_attr[i], v,
					       HYBRIDNET_ATTR_PAD);
		else
			rc = nla_put_u32(skb, hn_cfg_attr[i], v);
		if (rc)
			return -EMSGSIZE;
	}
	if (nla_put_string(skb, HYBRIDNET_ATTR_PROFILE, hd->profile) ||
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

/* Why the engine cannot be rebuilt now, into @why; false: it can. */
static bool hn_rebuild_busy(struct hn_dev *hd, char *why, size_t len)
{
	lockdep_assert_held(&hd->lock);
	if (hn_ports_busy(hd, why, len))
		return true;
	if (hn_gen_active(hd))
		strscpy(why, "the traffic generator is running: stop it first",
			len);
	else if (hn_fabric_busy(hd))
		strscpy(why, "messages are in flight: let them drain first",
			len);
	else
		return false;
	return true;
}

/*
 * Replace the engine (and the ports, for a new node count); *@released
 * gets the number of circuits the old engine had.
 */
static int hn_rebuild(struct hn_dev *hd, const struct hn_config *c,
		      struct genl_info *info, u32 *released)
{
	u32 old_nodes = hd->cfg.nodes;	/* nl_lock: hd->cfg stays */
	bool renode = c->nodes != old_nodes;
	struct hn_port *ports = NULL, *old_ports = NULL;
	unsigned long *tx_wait = NULL, *old_wait = NULL;
	struct hn_idem *x, *old_x;
	struct hn_engine *e, *old;
	char why[128];
	int rc;

	lockdep_assert_held(&hd->nl_lock);
	rc = hn_port_engine_new(hd, c, &e, &x);
	if (rc) {
		NL_SET_ERR_MSG(info->extack,
			       "cannot create an engine of that size");
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
	if (hn_rebuild_busy(hd, why, sizeof(why))) {
		mutex_unlock(&hd->lock);
		hn_nl_errf(info, NULL, "cannot change the fabric now: %s", why);
		rc = -EBUSY;
		goto out_free;
	}
	hd->frozen = true;
	mutex_unlock(&hd->lock);

	/* nodes/, fabric/ grow before the switch: a failure changes nothing */
	if (c->nodes > old_nodes) {
		rc = hn_sysfs_nodes_resize(hd, c->nodes);
		if (rc) {
			NL_SET_ERR_MSG(info->extack,
				       "cannot make the new nodes' sysfs directories");
			goto out_thaw;
		}
	}
	/* fewer levels: their levelN/ go now, as nothing below fails */
	rc = hn_sysfs_fabric_resize(hd, c);
	if (rc) {
		NL_SET_ERR_MSG(info->extack,
			       "cannot make the new levels' sysfs directories");
		if (c->nodes > old_nodes)
			hn_sysfs_nodes_resize(hd, old_nodes);
		goto out_thaw;
	}

	mutex_lock(&hd->lock);
	old = hd->e;
	old_x = hd->idem;
	*released = hn_dev_circuits(old);
	hd->e = e;
	hd->idem = x;
	if (renode) {
		old_ports = hd->ports;
		old_wait = hd->tx_wait;
		hd->ports = ports;
		hd->tx_wait = tx_wait;
	}
	hd->cfg = *c;
	hd->rebuilds++;		/* a dump across it is interrupted */
	if (!renode)
		hn_ports_refill(hd);
	hd->frozen = false;
	hn_clock_configure(hd);
	hn_clock_reset_stats(hd);
	mutex_unlock(&hd->lock);

	hn_port_engine_free(old, old_x);	/* idle: nothing to reclaim */
	kvfree(old_ports);
	bitmap_free(old_wait);
	if (c->nodes < old_nodes)
		hn_sysfs_nodes_resize(hd, c->nodes);	/* cannot fail */
	return 0;

out_thaw:
	mutex_lock(&hd->lock);
	hd->frozen = false;
	mutex_unlock(&hd->lock);
out_free:
	hn_port_engine_free(e, x);
	kvfree(ports);
	bitmap_free(tx_wait);
	return rc;
}

static void hn_config_event(struct hn_dev *hd)
{
	struct sk_buff *skb;
	void *hdr;

	skb = hn_nl_event_new(hd, HYBRIDNET_EVENT_CONFIG, 0, &hdr);
	if (!skb)
		return;
	mutex_lock(&hd->lock);
	if (hn_nl_put_config(skb, hd)) {
		mutex_unlock(&hd->lock);
		nlmsg_free(skb);
		return;
	}
	mutex_unlock(&hd->lock);
	hn_nl_event_send(hd, skb, hdr);
}

/*
 * The configuration a request asks for (CONFIG_SET, FABRIC_NEW): @fc's
 * configuration, profile, clock and pace, changed by the request's
 * PROFILE (which starts from that profile's values), fields and CLOCK
 * and PACE_PPM, then checked as a whole.  *@rebuild says whether a field
 * that needs a new engine changed.  0, or an errno with the extack said.
 */
int hn_nl_parse_config(struct genl_info *info, struct hn_fabric_cfg *fc,
		       bool *rebuild)
{
	struct nlattr **tb = info->attrs;
	struct hn_config *c = &fc->cfg;
	struct hn_err err = { };
	unsigned int i;
	int rc;

	*rebuild = false;
	if (tb[HYBRIDNET_ATTR_PROFILE]) {
		const char *profile = NULL;
		struct hn_config p;

		for (i = 0; hn_profile_name(i); i++)
			if (!strcmp(hn_profile_name(i),
				    nla_data(tb[HYBRIDNET_ATTR_PROFILE])))
				profile = hn_profile_name(i);
		if (!profile) {
			NL_SET_ERR_MSG_ATTR(info->extack,
					    tb[HYBRIDNET_ATTR_PROFILE],
					    "unknown profile (ding4 or ding5)");
			return -EINVAL;
		}
		hn_config_profile(&p, profile);
		*rebuild = memcmp(&p, c, sizeof(*c));
		*c = p;
		fc->profile = profile;
	}
	for (i = 0; i < HN_CFG_NR; i++) {	/* the topology first */
		const struct hn_cfg_field *cf = &hn_cfg_fields[i];
		const struct nlattr *a = tb[hn_cfg_attr[i]];
		struct hn_config before;
		u64 v;

		if (!a)
			continue;
		if (cf->type == HN_CFG_STRING) {
			before = *c;
			rc = cf->text.parse(c, nla_data(a), &err);
			if (rc) {
				hn_nl_errf(info, a, "configuration refused: %s",
					   err.msg);
				return rc;
			}
			*rebuild |= !cf->live && memcmp(&before, c, sizeof(*c));
			continue;
		}
		v = cf->type == HN_CFG_U64 ? nla_get_u64(a) : nla_get_u32(a);
		*rebuild |= v != hn_cfg_get(c, i) && !cf->live;
		hn_cfg_set(c, i, v);
	}
	if (tb[HYBRIDNET_ATTR_CLOCK])
		fc->clock = nla_get_u32(tb[HYBRIDNET_ATTR_CLOCK]);
	if (tb[HYBRIDNET_ATTR_PACE_PPM])
		fc->pace_ppm = nla_get_u32(tb[HYBRIDNET_ATTR_PACE_PPM]);
	rc = hn_config_check(c, &err);
	if (rc)
		return hn_nl_core_err(info, rc, &err, "configuration refused");
	return 0;
}

int hn_nl_config_set(struct sk_buff *skb, struct genl_info *info)
{
	struct netlink_ext_ack *extack = info->extack;
	struct hn_dev *hd = hn_nl_dev(info);
	struct hn_fabric_cfg fc = { };
	bool rebuild, clock;
	struct hn_config c;
	struct hn_err err = { };
	struct sk_buff *msg;
	u32 released = 0;
	void *hdr;
	int rc;

	mutex_lock(&hd->lock);
	fc.cfg = *hn_cfg(hd->e);
	mutex_unlock(&hd->lock);
	fc.profile = hd->profile;
	fc.clock = hd->clock;
	fc.pace_ppm = hd->pace_ppm;
	rc = hn_nl_parse_config(info, &fc, &rebuild);
	if (rc)
		return rc;
	c = fc.cfg;
	clock = fc.clock != hd->clock || fc.pace_ppm != hd->pace_ppm;

	msg = genlmsg_new(64, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	hdr = genlmsg_put_reply(msg, info, &hn_nl_family, 0,
				HYBRIDNET_CMD_CONFIG_SET);
	if (!hdr) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	if (rebuild) {
		rc = hn_rebuild(hd, &c, info, &released);
	} else {
		mutex_lock(&hd->lock);
		/* all at once: dynamic with its eviction predictor */
		rc = hn_set_live(hd->e, &c, &err);
		if (!rc) {
			hd->cfg = *hn_cfg(hd->e);
			hn_clock_configure(hd);
		}
		mutex_unlock(&hd->lock);
		if (rc)
			hn_nl_core_err(info, rc, &err, "configuration refused");
	}
	if (rc)
		goto fail;
	hd->profile = fc.profile;
	if (clock) {
		rc = hn_clock_restart(hd, fc.clock, fc.pace_ppm);
		if (rc) {
			NL_SET_ERR_MSG(extack, "cannot restart the clock");
			goto fail;
		}
	}
	hn_clock_kick(hd);
	hn_config_event(hd);
	if (rebuild) {	/* 64 bytes hold both */
		nla_put_flag(msg, HYBRIDNET_ATTR_REBUILT);
		nla_put_u32(msg, HYBRIDNET_ATTR_RELEASED, released);
	}
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);
fail:
	nlmsg_free(msg);
	return rc;
}
