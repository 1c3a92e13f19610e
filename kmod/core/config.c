// SPDX-License-Identifier: GPL-2.0
/*
 * config.c - timing profiles and validation of struct hn_config.
 *
 * The dissertation is cited by chapter and section.
 */
#include "cfg_field.h"		/* hn_cfg_check_ranges() */
#include "topo.h"		/* enum hn_topology, HN_SW_MAX_RADIX */

/* Ch. 4 evaluation (Secs. 4.6, 4.6.1): 64 nodes, 6.4 Gb/s, 200 ns slots. */
static void profile_ding4(struct hn_config *c)
{
	c->nodes = 64;
	c->k = 4;			/* a 2-D mesh fits 4 slots (Sec. 4.2.2) */
	c->policy = HN_POL_SES;
	c->link_mbps = 6400;		/* Sec. 4.6 */
	c->slot_p_ns = 200;		/* Sec. 4.6: 160 B per slot */
	c->slot_w_ns = 200;
	c->guard_ns = 0;		/* not applied in Ch. 4-5 (note 8.15) */
	c->sched_ns = 20;		/* 50 MHz scheduler (Sec. 4.6) */
	c->setup_ns = 0;
	c->wh_first_ns = 30;		/* one scheduler cycle + one flit */
	c->wh_flit_ns = 10;		/* 8 B at 6.4 Gb/s */
	c->flit_bytes = 8;
	c->worm_bytes = 128;		/* 128 B messages (Sec. 4.6.1) */
	c->wire_ns = 10;		/* 10-ft cable as Ch. 8 models it (Sec. 8.5) */
	c->serdes_ns = 0;		/* not given in Ch. 4 */
	c->nic_ns = 10;			/* Sec. 5.5.2 */
	c->fabric_ns = 1;		/* LVDS switch (Sec. 3.1) */
	c->nic_buf_bytes = 8192;	/* the large buffer (Sec. 4.6.1) */
	c->sw_buf_bytes = 8192;
	c->rx_buf_bytes = 65536;
	c->max_msg_bytes = 8192;
	c->idle_timeout_ns = 0;
	c->predict_algo = HN_PREDICT_FIRST_FIT;
	c->predict_kstep = 9;		/* about 99 % of the maximum (Sec. 6.5.3) */
	c->evict_algo = HN_EVICT_TIMEOUT;	/* the one of the runs (Sec. 5.2.2) */
	c->evict_count = 64 * 4;	/* not given: a full working set, N K */
	c->wh_overlap = 0;		/* serial arbitration (docs/model.md) */
	c->ft_sched = HN_FT_LEVELWISE;	/* Ch. 7's, on a fat tree */
	c->deadlock_ns = 10000;		/* ours: far past any wait that moves */
	c->dilation = 1;		/* one channel a link, as Ding's */
	c->idem_retry_max = 20000;	/* "a few tens of thousands" [W:713] */
}

/* Ch. 5 evaluation (Secs. 5.5, 5.5.2): 128 nodes, 100 ns = 80 B slots. */
static void profile_ding5(struct hn_config *c)
{
	profile_ding4(c);
	c->nodes = 128;
	c->slot_p_ns = 100;		/* Sec. 5.5.2 */
	c->slot_w_ns = 100;
	c->sched_ns = 80;		/* ASIC estimate (Secs. 5.4, 5.5.2) */
	c->wh_first_ns = 80;		/* first flit 80 ns (Sec. 5.5.2) */
	c->wh_flit_ns = 10;		/* then 10 ns per 8 B flit */
	c->wire_ns = 80;		/* 30 + 20 + 30 ns per hop (Sec. 5.5.2) */
	c->serdes_ns = 30;		/* the 30s: circuits skip two (Sec. 5.5.2) */
	c->fabric_ns = 0;		/* LVDS, neglected (Sec. 5.5.2) */
	c->idle_timeout_ns = 0;
	c->evict_count = 128 * 4;
}

static const struct {
	const char *name;
	void (*fill)(struct hn_config *c);
} profiles[] = {
	{ "ding4", profile_ding4 },
	{ "ding5", profile_ding5 },
};

void hn_config_default(struct hn_config *c)
{
	memset(c, 0, sizeof(*c));
	profile_ding4(c);
}

const char *hn_profile_name(u32 i)
{
	return i < ARRAY_SIZE(profiles) ? profiles[i].name : NULL;
}

int hn_config_profile(struct hn_config *c, const char *name)
{
	u32 i;

	for (i = 0; hn_profile_name(i); i++) {
		if (!strcmp(profiles[i].name, name)) {
			memset(c, 0, sizeof(*c));
			profiles[i].fill(c);
			return 0;
		}
	}
	return -ENOENT;
}

u64 hn_bytes_ns(const struct hn_config *c, u64 bytes)
{
	return hn_div(bytes * 8000 + c->link_mbps - 1, c->link_mbps);
}

u64 hn_ns_bytes(const struct hn_config *c, u64 ns)
{
	return hn_div(ns * c->link_mbps, 8000);
}

static int bad(struct hn_err *err, const char *msg)
{
	return hn_fail(err, -EINVAL, msg, HN_NONE, HN_NONE, HN_NONE);
}

static bool in(u64 v, u64 lo, u64 hi)
{
	return v >= lo && v <= hi;
}

/*
 * FT(levels, width) of Ch. 7: width^levels nodes.  Its circuits are
 * routed (ftroute.c), its worms cross its switches (switch.c).
 */
static int fattree_check(const struct hn_config *c, struct hn_err *err)
{
	if (!in(c->width, 2, HN_FT_MAX_W))
		return bad(err, "fat tree width must be 2..64");
	if (!in(c->levels, 1, HN_FT_MAX_LEVELS))
		return bad(err, "fat tree levels must be 1..16");
	if (hn_shape_nodes(c->width, c->levels) != c->nodes)
		return bad(err, "a fat tree FT(l, w) has w^l nodes: nodes must be width^levels");
	return 0;
}

/* Ports of a mesh's, a torus's or a GH's switch: its node's, its links'. */
static u64 direct_radix(const struct hn_config *c)
{
	if (c->topology == HN_TOPO_GH)
		return c->levels * (c->width - 1ULL) + 1;
	return 2ULL * c->levels + 1;
}

/* Switch ports of the fabric, at most (the flit router's inputs). */
static u64 switch_ports(const struct hn_config *c)
{
	if (c->topology == HN_TOPO_FATTREE)	/* l w^(l-1) switches, 2w */
		return 2ULL * c->levels * c->nodes;
	return c->nodes * direct_radix(c);	/* a switch a node */
}

/* Every fabric whose switches feed switches (switch.c). */
static int switches_check(const struct hn_config *c, struct hn_err *err)
{
	if (2ULL * c->serdes_ns > c->wire_ns)
		return bad(err,
			   "multistage fabric: a link between switches has a serdes_ns at each end: 2 serdes_ns <= wire_ns");
	/* an event per input, and through the flit router per output too */
	if (switch_ports(c) * (c->vc_count ? 2 : 1) > HN_PORTS_MAX)
		return bad(err,
			   "multistage fabric: at most 131072 switch ports (65536 through the flit router, vc_count): a smaller fabric");
	/*
	 * A virtual channel of wormhole holds any number of flits; one of
	 * cut-through or store-and-forward the whole packet (Duato, Secs.
	 * 2.3.2, 2.3.3).
	 */
	if ((u64)c->vc_flits * c->flit_bytes > HN_MAX_BUF)
		return bad(err, "multistage fabric: vc_flits x flit_bytes must be at most 64 MiB");
	if (c->vc_count && !c->vc_flits)
		return bad(err,
			   "multistage fabric: the flit router (vc_count) needs vc_flits of at least 1");
	if ((u64)c->vc_count * c->vc_flits > HN_FLIT_IN_MAX)
		return bad(err,
			   "multistage fabric: the flit router holds at most 4096 flits an input: vc_count x vc_flits <= 4096");
	if (switch_ports(c) * c->vc_count * c->vc_flits * HN_FLIT_BYTES >
	    HN_FLIT_MEM_MAX)
		return bad(err,
			   "multistage fabric: the flit router's buffers would take more than 256 MiB: fewer vc_count x vc_flits, or a smaller fabric");
	if (c->vc_flits && c->switching != HN_SWITCH_WORMHOLE &&
	    (u64)c->vc_flits * c->flit_bytes < c->worm_bytes)
		return bad(err,
			   "multistage fabric: cut-through and store-and-forward hold a whole worm in a switch: vc_flits x flit_bytes >= worm_bytes");
	/* switch.c: a switch passes a flit per wh_flit_ns to the next link */
	if (hn_bytes_ns(c, c->flit_bytes) > c->wh_flit_ns)
		return bad(err,
			   "multistage fabric: a flit must cross a link within wh_flit_ns: raise link_mbps");
	return 0;
}

/*
 * The k-ary n-cube (mesh, torus) and GH(n, k): k^n nodes, their packets
 * through switch.c, their circuits on the topology's route (slot.c).
 */
static int direct_check(const struct hn_config *c, struct hn_err *err)
{
	if (!in(c->levels, 1, HN_CUBE_MAX_DIMS) || c->width < 2)
		return bad(err, "mesh, torus, gh: K at least 2 in 1..12 dimensions");
	if (hn_shape_nodes(c->width, c->levels) != c->nodes)
		return bad(err, "mesh, torus, gh: K^n nodes: nodes must be K to the dimensions");
	if (c->topology == HN_TOPO_GH && direct_radix(c) > HN_SW_MAX_RADIX)
		return bad(err, "gh:N,K: a switch has N (K - 1) + 1 ports, at most 128");
	return 0;
}

u32 hn_dil_at(const struct hn_config *c, u32 level)
{
	return c->dil_levels ? c->dil_levels >> (4 * level) & 15 :
	       c->dilation;
}

u32 hn_dil_max(const struct hn_config *c)
{
	u32 v = c->dil_levels, d = c->dilation;

	for (; v; v >>= 4)
		d = hn_max64(d, v & 15);
	return d;
}

/*
 * Woods-Corwin's variable dilation: one number 1..8 for each of a fat
 * tree's levels, none above, and dilation left at 1.
 */
static int dil_levels_check(const struct hn_config *c, struct hn_err *err)
{
	u32 l, d;

	if (!c->dil_levels)
		return 0;
	if (c->topology != HN_TOPO_FATTREE)
		return bad(err,
			   "dilation_levels needs a fat tree (its links' levels): other fabrics take dilation");
	if (c->dilation != 1)
		return bad(err,
			   "dilation_levels gives every level's channels: leave dilation at 1");
	for (l = 0; l < HN_DIL_LEVELS_MAX; l++) {
		d = c->dil_levels >> (4 * l) & 15;
		if (l < c->levels ? !d || d > HN_DILATION_MAX : !!d)
			return bad(err,
				   "dilation_levels: one number 1..8 for each of the fat tree's levels (at most 8), from the nodes' links up");
	}
	return 0;
}

int hn_config_check(const struct hn_config *c, struct hn_err *err)
{
	int rc;

	rc = hn_cfg_check_ranges(c, err);	/* each field's own */
	if (rc)
		return rc;
	if (!c->k && (c->policy & HN_POL_NO_W))
		return bad(err, "slots = 0 with no wormhole slot leaves no slot");
	if (c->guard_ns >= c->slot_p_ns || c->guard_ns >= c->slot_w_ns)
		return bad(err, "guard_ns must be shorter than every slot");
	if (hn_ns_bytes(c, c->slot_p_ns - c->guard_ns) < 1)
		return bad(err, "a predictive slot must carry at least one byte");
	if (c->serdes_ns > c->wire_ns)
		return bad(err, "serdes_ns is part of wire_ns: at most wire_ns");
	if (c->wh_first_ns < c->wh_flit_ns)
		return bad(err, "need wh_flit_ns <= wh_first_ns");
	if (c->worm_bytes < c->flit_bytes)
		return bad(err, "worm_bytes must be at least flit_bytes");
	if (c->max_msg_bytes > c->nic_buf_bytes ||
	    c->max_msg_bytes > c->sw_buf_bytes ||
	    c->max_msg_bytes > c->rx_buf_bytes)
		return bad(err, "every buffer must hold a max_msg_bytes message");
	if (c->predict_algo == HN_PREDICT_KSTEP &&
	    c->predict_kstep > 2 * c->nodes - 1)
		return bad(err, "predict_kstep must be 1..2N-1");
	if (c->pin_slots > c->k)
		return bad(err, "pin_slots must be at most slots");
	if ((c->loss_ppm || c->flip_ppm) && !c->idem_timeout_ns)
		return bad(err,
			   "loss_ppm and flip_ppm need idem_timeout_ns: the exactly-once protocol sends what is lost again");
	if (c->fault_mtbf_ns && c->topology == HN_TOPO_CROSSBAR)
		return bad(err,
			   "fault_mtbf_ns needs a fabric of switches: the crossbar has no link between switches to fail");
	if (c->fault_mtbf_ns && c->k && (c->policy & HN_POL_NO_W))
		return bad(err,
			   "fault_mtbf_ns needs the wormhole slot: under pure TDM a dead circuit's messages have nowhere to go");
	if (c->fault_repair_ns && !c->fault_mtbf_ns)
		return bad(err, "fault_repair_ns needs fault_mtbf_ns");
	if (hn_dil_max(c) > 1 && c->switching != HN_SWITCH_DROP)
		return bad(err,
			   "dilation above 1 needs switching drop: the other switchings' ports have one channel");
	rc = dil_levels_check(c, err);
	if (rc)
		return rc;
	if (c->switching == HN_SWITCH_DROP && (c->vc_count || c->vc_flits))
		return bad(err,
			   "switching drop buffers no flit in a switch: vc_count and vc_flits must be 0");
	if (c->predict_algo == HN_PREDICT_SECOND_LEVEL &&
	    c->topology != HN_TOPO_CROSSBAR)
		return hn_fail(err, -EOPNOTSUPP, HN_SECOND_XBAR, HN_NONE,
			       HN_NONE, HN_NONE);
	if (c->topology == HN_TOPO_FATTREE) {
		rc = fattree_check(c, err);
		if (!rc)
			rc = switches_check(c, err);
		if (rc)
			return rc;
	} else if (c->topology == HN_TOPO_MESH ||
		   c->topology == HN_TOPO_TORUS || c->topology == HN_TOPO_GH) {
		rc = direct_check(c, err);
		if (!rc)
			rc = switches_check(c, err);
		if (rc)
			return rc;
	} else if (c->topology != HN_TOPO_CROSSBAR) {
		return bad(err,
			   "topology must be 0 (crossbar), 1 (fat tree), 2 (mesh), 3 (torus) or 4 (gh)");
	} else if (c->vc_flits || c->vc_count) {
		return bad(err,
			   "crossbar: no switch feeds another, vc_flits and vc_count must be 0");
	}
	if (c->policy & HN_POL_DYNAMIC) {
		if (!(c->policy & HN_POL_NO_W))
			return bad(err,
				   "dynamic needs no-w: messages wait for circuits, not the wormhole slot");
		if (c->pin_slots >= c->k)
			return bad(err, "dynamic needs a slot not pinned (pin_slots < slots)");
		if (c->evict_algo == HN_EVICT_TIMEOUT && !c->idle_timeout_ns)
			return bad(err,
				   "dynamic needs an eviction predictor: the time-out with idle_timeout_ns > 0, or the counter");
	}
	return 0;
}
