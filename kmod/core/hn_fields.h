/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hn_fields.h - the one table of the engine's configuration fields.
 *
 * Every interface that lists them is generated from HN_CONFIG_FIELDS: the
 * module parameters (kmod/main.c), the sysfs config/ files (kmod/sysfs.c),
 * the netlink policy, CONFIG_GET reply and CONFIG_SET handler
 * (kmod/netlink.c, kmod/nl_config.c), libhybridnet's field table
 * (lib/hn_ctl_names.c), and the check that the netlink spec agrees
 * (selftests/netlink/spec-check.py).
 *
 * X(field, ATTR, ctl, "name", type, min, max, live, names, "description")
 *   field  member of struct hn_config; also the module parameter and the
 *          sysfs file
 *   ATTR   HYBRIDNET_ATTR_<ATTR>, the netlink attribute
 *   ctl    member of libhybridnet's struct hn_ctl_config
 *   name   the attribute's name in the netlink spec, hnctl and JSON
 *   type   U32 or U64
 *   min, max  the range every interface accepts (the configuration as a
 *          whole is then checked by hn_config_check())
 *   live   1: CONFIG_SET changes it while traffic flows; 0: it needs a
 *          new engine
 *   names  the value's words in libhybridnet (NONE: a number)
 *   description  the module parameter's, with its range in words
 *
 * Only this file includes nothing: a user expands the table with the
 * definitions it needs in scope.
 */
#ifndef HN_FIELDS_H
#define HN_FIELDS_H

#define HN_NS_MAX	1000000000u		/* one second */
#define HN_TIMEOUT_MAX	1000000000000000ull	/* 10^6 s */

#define HN_CONFIG_FIELDS(X)						\
	X(nodes, NODES, nodes, "nodes", U32,				\
	  HN_MIN_NODES, HN_MAX_NODES, 0, NONE,				\
	  "virtual nodes, 2..4096")						\
	X(k, SLOTS, slots, "slots", U32, 0, HN_MAX_K, 0, NONE,		\
	  "predictive TDM slots, 0..64")					\
	X(policy, POLICY, policy, "policy", U32, 0, HN_POL_ALL, 1, NONE,	\
	  "cycle-controller flags (enum hn_policy): 1 SES, 2 SLA, 4 PREEMPT, 8 PREEMPT per slot, 16 no wormhole slot, 32 dynamic TDM") \
	X(link_mbps, LINK_MBPS, link_mbps, "link-mbps", U32, 1, 1000000,	\
	  0, NONE, "link rate in Mb/s, 1..1000000")					\
	X(slot_p_ns, SLOT_P_NS, slot_p_ns, "slot-p-ns", U32, 1, HN_NS_MAX, \
	  1, NONE, "predictive slot length in ns, 1..1000000000")			\
	X(slot_w_ns, SLOT_W_NS, slot_w_ns, "slot-w-ns", U32, 1, HN_NS_MAX, \
	  1, NONE, "wormhole slot length in ns with SLA, 1..1000000000")		\
	X(guard_ns, GUARD_NS, guard_ns, "guard-ns", U32, 0, HN_NS_MAX - 1, \
	  0, NONE, "guard band per slot in ns, 0..999999999, below every slot length") \
	X(sched_ns, SCHED_NS, sched_ns, "sched-ns", U32, 0, HN_NS_MAX, 0, \
	  NONE, "predictive scheduler latency in ns, 0..1000000000")			\
	X(setup_ns, SETUP_NS, setup_ns, "setup-ns", U32, 0, HN_NS_MAX, 0, \
	  NONE, "switch configuration delay in ns, 0..1000000000")			\
	X(wh_first_ns, WH_FIRST_NS, wh_first_ns, "wh-first-ns", U32, 1,	\
	  HN_NS_MAX, 0, NONE,						\
	  "wormhole first flit in ns, wh_flit_ns..1000000000")		\
	X(wh_flit_ns, WH_FLIT_NS, wh_flit_ns, "wh-flit-ns", U32, 1,	\
	  HN_NS_MAX, 0, NONE, "wormhole further flit in ns, 1..1000000000")		\
	X(flit_bytes, FLIT_BYTES, flit_bytes, "flit-bytes", U32, 1, 4096, \
	  0, NONE, "flit size in bytes, 1..4096")				\
	X(worm_bytes, WORM_BYTES, worm_bytes, "worm-bytes", U32, 1,	\
	  HN_MAX_MSG, 0, NONE, "largest worm in bytes, flit_bytes..1048576") \
	X(wire_ns, WIRE_NS, wire_ns, "wire-ns", U32, 0, HN_NS_MAX, 0,	\
	  NONE, "NIC to switch wire delay in ns, 0..1000000000")			\
	X(nic_ns, NIC_NS, nic_ns, "nic-ns", U32, 0, HN_NS_MAX, 0, NONE,	\
	  "NIC send or receive delay in ns, 0..1000000000")				\
	X(fabric_ns, FABRIC_NS, fabric_ns, "fabric-ns", U32, 0, HN_NS_MAX, \
	  0, NONE, "fabric propagation delay in ns, 0..1000000000")			\
	X(nic_buf_bytes, NIC_BUF, nic_buf, "nic-buf", U32, 1, HN_MAX_BUF, \
	  0, NONE, "NIC buffer per node in bytes, 1..67108864")			\
	X(sw_buf_bytes, SW_BUF, sw_buf, "sw-buf", U32, 1, HN_MAX_BUF, 0,	\
	  NONE, "switch buffer per input in bytes, 1..67108864")			\
	X(rx_buf_bytes, RX_BUF, rx_buf, "rx-buf", U32, 1, HN_MAX_BUF, 0,	\
	  NONE, "receive buffer per node in bytes, 1..67108864")			\
	X(max_msg_bytes, MAX_MSG, max_msg, "max-msg", U32, 1, HN_MAX_MSG,	\
	  0, NONE, "largest message in bytes, 1..1048576, at most every buffer")	\
	X(idle_timeout_ns, IDLE_TIMEOUT_NS, idle_timeout_ns,		\
	  "idle-timeout-ns", U64, 0, HN_TIMEOUT_MAX, 1, NONE,		\
	  "release circuits idle this long, ns, 0 (never)..1000000000000000")		\
	X(pin_slots, PIN_SLOTS, pin_slots, "pin-slots", U32, 0, HN_MAX_K,	\
	  0, NONE, "slots 0..pin_slots-1 are kept for preloaded circuits, 0..k") \
	X(predict_algo, PREDICT_ALGO, predict_algo, "predict-algo", U32,	\
	  0, HN_PREDICT_KSTEP, 1, PREDICT,				\
	  "how PREDICT places requests: 0 first fit, 1 K-step matching per slot") \
	X(predict_kstep, PREDICT_KSTEP, predict_kstep, "predict-kstep",	\
	  U32, 1, 2 * HN_MAX_NODES - 1, 1, NONE,			\
	  "K of the K-step matching, 1 (greedy)..2N-1 (maximum)")

#endif /* HN_FIELDS_H */
