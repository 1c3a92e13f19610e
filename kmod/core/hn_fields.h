/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one table of the engine's configuration fields, as rows to expand:
 * define HN_FIELD, include this file, undefine HN_FIELD.  It has no
 * include guard on purpose, and includes nothing: the user has in scope
 * what its HN_FIELD needs.
 *
 * Every interface is made from it, nothing lists the fields by hand:
 * the engine's range checks, parser and printer of a field's value
 * (cfg_field.c); the module
 * parameters with their descriptions (kmod/main.c), the sysfs config/
 * files (kmod/sysfs.c), the netlink policy, CONFIG_GET reply and
 * CONFIG_SET handler (kmod/netlink.c, kmod/nl_config.c); libhybridnet's
 * struct hn_ctl_config, its names, policy and field table
 * (lib/libhybridnet.h, lib/hn_ctl_names.c, lib/hn_ctl_attr.c); hnctl's and
 * hnsim's keys and help, bash completion (which asks hnctl), and the field
 * lists of the man pages (made at build time, man/man-fields.c).  The
 * tests hold the rest to it: the netlink spec (make check-spec), the sysfs
 * ABI file (make check-man, the VM test sysfs-abi.sh), and every list an
 * interface prints (make check-fields).
 *
 * So a new field is a commit of four files: its row here (and, if its
 * values are words, their four lines above), its HYBRIDNET_ATTR_ at the
 * end of the enum of uapi/linux/hybridnet.h, its attribute in
 * Documentation/netlink/specs/hybridnet.yaml (with its checks, and in
 * config-get, config-set and the event), and its paragraph in
 * Documentation/ABI/testing/sysfs-class-hybridnet.  What the engine
 * does with it is the engine's: its member of struct hn_config
 * (hn_core.h), the code that uses it, and its value in the profiles
 * (config.c) unless that is 0.  make check-next-field adds one in a copy
 * of the tree, to these five files only, and finds it everywhere.
 *
 * HN_FIELD(field, ATTR, param, "name", "help", type, min, max, live, words)
 *   field  member of struct hn_config (the engine's own short name)
 *   ATTR   HYBRIDNET_ATTR_<ATTR>, the netlink attribute: param in capitals
 *   param  the field's name: the module parameter, the sysfs file
 *          config/<param>, the member of libhybridnet's struct
 *          hn_ctl_config and hnsim's key
 *   name   param with '-' for '_': the attribute's name in the netlink
 *          spec, hnctl's key and the JSON key (docs/names.md; make
 *          check-spec holds ATTR and name to param)
 *   help   what it is, in one line: the module parameter's description,
 *          hnctl's and hnsim's help and the man pages, each followed by
 *          the values
 *   type   U32 or U64, or STRING: text that HN_TEXT_<words> (two
 *          functions of cfg_text.h) reads into struct hn_config, where
 *          it may set several members (a u32 there), and prints from it;
 *          netlink carries the text itself
 *   min, max  the range every interface accepts (the configuration as a
 *          whole is then checked by hn_config_check()); of a STRING,
 *          the length of its text.  Decimal numbers, or macros that are
 *          (they are printed as written: HN_STR)
 *   live   1: CONFIG_SET changes it while traffic flows (hn_set_live()
 *          takes every live field, which the engine must then read as
 *          it goes); 0: it needs a new engine
 *   words  what its values are called, <words> naming the macros
 *          HN_WL_<words>, the words ("a", "b", ...); HN_WORDS_<words>,
 *          an enum's words of its values 0, 1, ... as an array (NULL: a
 *          number, or text); HN_TEXT_<words>, its text functions
 *          { parse, print } ({ NULL, NULL }: none); and
 *          HN_VALUES_<words>(min, max), its values as help gives them
 *          ("a|b", or "min..max").  NONE: a number.  Every interface
 *          takes a word or its number and prints the word; netlink
 *          carries the number (of a STRING, the text).  The spec's enum
 *          of the attribute has an enum's words as its entries (make
 *          check-spec).
 *
 * The topology comes first: the node count it implies is the default of
 * a nodes given with it, which every interface applies after it.
 */
#ifndef HN_NS_MAX
#define HN_NS_MAX	1000000000		/* one second */
#define HN_TIMEOUT_MAX	1000000000000000	/* 10^6 s */

/* @x, macros expanded, as a string literal: HN_STR(lo..hi) is "0..63" */
#define HN_STR(x)		HN_STR_(x)
#define HN_STR_(x)		#x

/* words "a", "b", "c" as one string "a|b|c" (at most 8) ... */
#define HN_JOIN(...)		HN_NTH(__VA_ARGS__, HN_J8, HN_J7, HN_J6, HN_J5, \
				       HN_J4, HN_J3, HN_J2, HN_J1)(__VA_ARGS__)
#define HN_NTH(a, b, c, d, e, f, g, h, n, ...)	n
#define HN_J1(a)		"" a
#define HN_J2(a, ...)		"" a "|" HN_J1(__VA_ARGS__)
#define HN_J3(a, ...)		"" a "|" HN_J2(__VA_ARGS__)
#define HN_J4(a, ...)		"" a "|" HN_J3(__VA_ARGS__)
#define HN_J5(a, ...)		"" a "|" HN_J4(__VA_ARGS__)
#define HN_J6(a, ...)		"" a "|" HN_J5(__VA_ARGS__)
#define HN_J7(a, ...)		"" a "|" HN_J6(__VA_ARGS__)
#define HN_J8(a, ...)		"" a "|" HN_J7(__VA_ARGS__)
/* ... and as an array of them, NULL-ended */
#define HN_ENUM(...)		((const char *const []){ __VA_ARGS__, NULL })

#define HN_WORDS_NONE		NULL
#define HN_TEXT_NONE		{ NULL, NULL }
#define HN_VALUES_NONE(lo, hi)	HN_STR(lo..hi)

#define HN_WL_PREDICT		"first-fit", "kstep", "second-level"
#define HN_WORDS_PREDICT	HN_ENUM(HN_WL_PREDICT)
#define HN_TEXT_PREDICT		HN_TEXT_NONE
#define HN_VALUES_PREDICT(lo, hi)	HN_JOIN(HN_WL_PREDICT)

#define HN_WL_EVICT		"timeout", "counter"
#define HN_WORDS_EVICT		HN_ENUM(HN_WL_EVICT)
#define HN_TEXT_EVICT		HN_TEXT_NONE
#define HN_VALUES_EVICT(lo, hi)	HN_JOIN(HN_WL_EVICT)

#define HN_WL_SWITCHING		"wormhole", "vct", "saf", "drop"
#define HN_WORDS_SWITCHING	HN_ENUM(HN_WL_SWITCHING)
#define HN_TEXT_SWITCHING	HN_TEXT_NONE
#define HN_VALUES_SWITCHING(lo, hi)	HN_JOIN(HN_WL_SWITCHING)

#define HN_WL_UP_SELECT		"det", "random", "adaptive"
#define HN_WORDS_UP_SELECT	HN_ENUM(HN_WL_UP_SELECT)
#define HN_TEXT_UP_SELECT	HN_TEXT_NONE
#define HN_VALUES_UP_SELECT(lo, hi)	HN_JOIN(HN_WL_UP_SELECT)

#define HN_WL_FT_SCHED		"levelwise", "local-greedy", "local-random", \
				"optimal"
#define HN_WORDS_FT_SCHED	HN_ENUM(HN_WL_FT_SCHED)
#define HN_TEXT_FT_SCHED	HN_TEXT_NONE
#define HN_VALUES_FT_SCHED(lo, hi)	HN_JOIN(HN_WL_FT_SCHED)

#define HN_WL_VOQ_ARBITER	"rr", "lqf", "bytes"
#define HN_WORDS_VOQ_ARBITER	HN_ENUM(HN_WL_VOQ_ARBITER)
#define HN_TEXT_VOQ_ARBITER	HN_TEXT_NONE
#define HN_VALUES_VOQ_ARBITER(lo, hi)	HN_JOIN(HN_WL_VOQ_ARBITER)

/* flags: words joined by ',' (hn_policy_parse(), cfg_text.h) */
#define HN_WL_POLICY		"fixed", "ses", "sla", "preempt", "slot", \
				"no-w", "dynamic"
#define HN_WORDS_POLICY		NULL
#define HN_TEXT_POLICY		{ hn_policy_parse, hn_policy_print }
#define HN_VALUES_POLICY(lo, hi)	HN_JOIN(HN_WL_POLICY)

/* a fat tree's dilation level by level (hn_dil_levels_parse()) */
#define HN_WL_DIL_LEVELS	"0", "D,D,.."
#define HN_WORDS_DIL_LEVELS	NULL
#define HN_TEXT_DIL_LEVELS	{ hn_dil_levels_parse, hn_dil_levels_print }
#define HN_VALUES_DIL_LEVELS(lo, hi)	HN_JOIN(HN_WL_DIL_LEVELS)

/* text: a STRING's longest, and its functions */
#define HN_TEXT_MAX		15
#define HN_WL_TOPOLOGY		"crossbar", "fattree:L,W", "mesh:KxK..", \
				"torus:KxK..", "gh:N,K"
#define HN_WORDS_TOPOLOGY	NULL
#define HN_TEXT_TOPOLOGY	{ hn_topology_parse, hn_topology_print }
#define HN_VALUES_TOPOLOGY(lo, hi)	HN_JOIN(HN_WL_TOPOLOGY)
#endif

HN_FIELD(topology, TOPOLOGY, topology, "topology",
	 "the fabric: one crossbar; the fat tree of Ch. 7 with L levels of 2W-port switches and W^L nodes; a mesh or torus of n dimensions of K (K^n nodes); or the generalized hypercube GH(N,K) (K^N nodes), circuits on these taking the topology's route; which nodes is unless given",
	 STRING, 0, HN_TEXT_MAX, 0, TOPOLOGY)
HN_FIELD(nodes, NODES, nodes, "nodes",
	 "virtual nodes N",
	 U32, HN_MIN_NODES, HN_MAX_NODES, 0, NONE)
HN_FIELD(k, SLOTS, slots, "slots",
	 "predictive slots K; slot K is the wormhole slot",
	 U32, 0, HN_MAX_K, 0, NONE)
HN_FIELD(policy, POLICY, policy, "policy",
	 "the cycle controller (Ch. 4), its flags as words joined by ',' or their number 0..63: sla is ses+sla, dynamic is dynamic+no-w+ses",
	 U32, 0, 63, 1, POLICY)
HN_FIELD(link_mbps, LINK_MBPS, link_mbps, "link-mbps",
	 "link rate, Mb/s",
	 U32, 1, 1000000, 0, NONE)
HN_FIELD(slot_p_ns, SLOT_P_NS, slot_p_ns, "slot-p-ns",
	 "predictive slot length NUM_P, ns",
	 U32, 1, HN_NS_MAX, 1, NONE)
HN_FIELD(slot_w_ns, SLOT_W_NS, slot_w_ns, "slot-w-ns",
	 "wormhole slot length NUM_W (policy sla), ns",
	 U32, 1, HN_NS_MAX, 1, NONE)
HN_FIELD(guard_ns, GUARD_NS, guard_ns, "guard-ns",
	 "guard band at the start of each slot, shorter than every slot, ns",
	 U32, 0, 999999999, 0, NONE)
HN_FIELD(sched_ns, SCHED_NS, sched_ns, "sched-ns",
	 "predictive scheduler latency, ns",
	 U32, 0, HN_NS_MAX, 0, NONE)
HN_FIELD(setup_ns, SETUP_NS, setup_ns, "setup-ns",
	 "switch configuration delay, ns",
	 U32, 0, HN_NS_MAX, 0, NONE)
HN_FIELD(wh_first_ns, WH_FIRST_NS, wh_first_ns, "wh-first-ns",
	 "wormhole: a worm's first flit, arbitration included, at least wh_flit_ns, ns",
	 U32, 1, HN_NS_MAX, 0, NONE)
HN_FIELD(wh_flit_ns, WH_FLIT_NS, wh_flit_ns, "wh-flit-ns",
	 "wormhole: each further flit, ns",
	 U32, 1, HN_NS_MAX, 0, NONE)
HN_FIELD(flit_bytes, FLIT_BYTES, flit_bytes, "flit-bytes",
	 "flit size, bytes",
	 U32, 1, 4096, 0, NONE)
HN_FIELD(worm_bytes, WORM_BYTES, worm_bytes, "worm-bytes",
	 "largest worm, at least flit_bytes, bytes; longer messages are split",
	 U32, 1, HN_MAX_MSG, 0, NONE)
HN_FIELD(wire_ns, WIRE_NS, wire_ns, "wire-ns",
	 "NIC to switch wire, one way, ns",
	 U32, 0, HN_NS_MAX, 0, NONE)
HN_FIELD(nic_ns, NIC_NS, nic_ns, "nic-ns",
	 "NIC send or receive delay, ns",
	 U32, 0, HN_NS_MAX, 0, NONE)
HN_FIELD(fabric_ns, FABRIC_NS, fabric_ns, "fabric-ns",
	 "propagation through the fabric, ns",
	 U32, 0, HN_NS_MAX, 0, NONE)
HN_FIELD(nic_buf_bytes, NIC_BUF_BYTES, nic_buf_bytes, "nic-buf-bytes",
	 "NIC buffer per node (its wormhole FIFO and virtual output queues), bytes",
	 U32, 1, HN_MAX_BUF, 0, NONE)
HN_FIELD(sw_buf_bytes, SW_BUF_BYTES, sw_buf_bytes, "sw-buf-bytes",
	 "switch buffer per input, bytes",
	 U32, 1, HN_MAX_BUF, 0, NONE)
HN_FIELD(rx_buf_bytes, RX_BUF_BYTES, rx_buf_bytes, "rx-buf-bytes",
	 "receive buffer per node, bytes",
	 U32, 1, HN_MAX_BUF, 0, NONE)
HN_FIELD(max_msg_bytes, MAX_MSG_BYTES, max_msg_bytes, "max-msg-bytes",
	 "largest message, at most every buffer, bytes",
	 U32, 1, HN_MAX_MSG, 0, NONE)
HN_FIELD(idle_timeout_ns, IDLE_TIMEOUT_NS, idle_timeout_ns, "idle-timeout-ns",
	 "release circuits idle this long, ns (0: never)",
	 U64, 0, HN_TIMEOUT_MAX, 1, NONE)
HN_FIELD(pin_slots, PIN_SLOTS, pin_slots, "pin-slots",
	 "the first pin_slots slots keep their preloads (no time-out, no scheduling), at most slots",
	 U32, 0, HN_MAX_K, 0, NONE)
HN_FIELD(predict_algo, PREDICT_ALGO, predict_algo, "predict-algo",
	 "how predict places requests: first fit from slot 0 (Sec. 3.4.2), K-step matching per slot (Ch. 6), first fit with the second-level working set (Sec. 5.2.3)",
	 U32, 0, HN_PREDICT_SECOND_LEVEL, 1, PREDICT)
HN_FIELD(predict_kstep, PREDICT_KSTEP, predict_kstep, "predict-kstep",
	 "K of the K-step matching, at most 2N-1",
	 U32, 1, 8191, 1, NONE)
HN_FIELD(evict_algo, EVICT_ALGO, evict_algo, "evict-algo",
	 "when a circuit leaves (Sec. 5.2.2): unused for idle_timeout_ns, or after evict_count uses of other circuits",
	 U32, 0, HN_EVICT_COUNTER, 1, EVICT)
HN_FIELD(evict_count, EVICT_COUNT, evict_count, "evict-count",
	 "the counter predictor: uses of other circuits since a circuit's own last use that evict it",
	 U32, 1, 2147483647, 1, NONE)
HN_FIELD(wh_overlap, WH_OVERLAP, wh_overlap, "wh-overlap",
	 "wormhole arbitration: 0 serial, 1 overlapped with the previous worm",
	 U32, 0, 1, 0, NONE)
HN_FIELD(serdes_ns, SERDES_NS, serdes_ns, "serdes-ns",
	 "of wire_ns, one end's (de)serialiser, which a circuit passes only at its two ends, ns",
	 U32, 0, HN_NS_MAX, 0, NONE)
HN_FIELD(switching, SWITCHING, switching, "switching",
	 "how a packet crosses a switch outside the circuits: wormhole, virtual cut-through, store-and-forward (Duato Sec. 2.3), or drop on block, a header finding no free channel dropped and sent again by its source (Woods-Corwin's METRO routers)",
	 U32, 0, HN_SWITCH_DROP, 0, SWITCHING)
HN_FIELD(up_select, UP_SELECT, up_select, "up-select",
	 "a header's up-port in a multistage fabric: by the destination's digits, random, or the least occupied",
	 U32, 0, 2, 0, UP_SELECT) /* 2: HN_UPSEL_ADAPTIVE (topo.h) */
HN_FIELD(ft_sched, FT_SCHED, ft_sched, "ft-sched",
	 "the scheduler routing a fat tree's circuits in preload and predict (Ch. 7): level-wise (Sec. 7.4), lowest free up-port, a random one, optimal",
	 U32, 0, HN_FT_OPTIMAL, 1, FT_SCHED)
HN_FIELD(vc_flits, VC_FLITS, vc_flits, "vc-flits",
	 "multistage fabric: the buffer of a switch input fed by another switch, flits (0: sw_buf_bytes); wormhole takes any depth, cut-through and store-and-forward a whole worm",
	 U32, 0, HN_VC_FLITS_MAX, 0, NONE)
HN_FIELD(deadlock_ns, DEADLOCK_NS, deadlock_ns, "deadlock-ns",
	 "multistage fabric: worms in it and no flit moving for this long in the wormhole slot is a deadlock, reported with its cycle of channels; ns (0: never)",
	 U64, 0, HN_TIMEOUT_MAX, 0, NONE)
HN_FIELD(vc_count, VC_COUNT, vc_count, "vc-count",
	 "multistage fabric: virtual channels per switch input fed by another switch, each vc_flits deep, credit returned per flit, and the worms a node sends and takes at once (flit.c); 0: one buffer per input whose credit returns when a worm's tail leaves (switch.c)",
	 U32, 0, HN_VC_MAX, 0, NONE)
HN_FIELD(voq_arbiter, VOQ_ARBITER, voq_arbiter, "voq-arbiter",
	 "which virtual output queue VQ_W a node's idle input serves next: the next destination in round-robin order (Sec. 3.3.1), or the longest, by messages or by bytes waiting, ties to the highest destination (Zydallis's arbiter)",
	 U32, 0, HN_VOQ_BYTES, 1, VOQ_ARBITER)
HN_FIELD(voq_timeout_ns, VOQ_TIMEOUT_NS, voq_timeout_ns, "voq-timeout-ns",
	 "a VQ_W not served for this long while its first message waited at the switch is served before the others, the highest destination first (Zydallis's time-out against starvation); ns (0: never)",
	 U64, 0, HN_TIMEOUT_MAX, 1, NONE)
HN_FIELD(dilation, DILATION, dilation, "dilation",
	 "channels of every link, a header taking any free one (Woods-Corwin's dilated crossbars); more than 1 with switching drop only",
	 U32, 1, HN_DILATION_MAX, 0, NONE)
HN_FIELD(idem_timeout_ns, IDEM_TIMEOUT_NS, idem_timeout_ns, "idem-timeout-ns",
	 "exactly once for the device's messages (Woods-Corwin's three messages, MSG, ACK, ACK2): the MSG and ACK timers, ns (0: off, each message goes once)",
	 U64, 0, HN_TIMEOUT_MAX, 0, NONE)
HN_FIELD(idem_retry_max, IDEM_RETRY_MAX, idem_retry_max, "idem-retry-max",
	 "exactly once: resends of one MSG or ACK before it is given up (the writer's next write or read fails with ETIMEDOUT)",
	 U32, 0, 1000000000, 0, NONE)
HN_FIELD(loss_ppm, LOSS_PPM, loss_ppm, "loss-ppm",
	 "exactly once: a copy of any kind lost as it arrives, per million (an injector; needs idem_timeout_ns)",
	 U32, 0, 1000000, 0, NONE)
HN_FIELD(flip_ppm, FLIP_PPM, flip_ppm, "flip-ppm",
	 "exactly once: a copy's bit flipped, per million flits (an injector; the receiver's CRC-32 discards it; needs idem_timeout_ns)",
	 U32, 0, 1000000, 0, NONE)
HN_FIELD(fault_mtbf_ns, FAULT_MTBF_NS, fault_mtbf_ns, "fault-mtbf-ns",
	 "links between switches failing over time: the mean virtual time from one failure to the next, each taking a live link down at random (a fabric of switches); ns (0: none)",
	 U64, 0, HN_TIMEOUT_MAX, 1, NONE)
HN_FIELD(fault_repair_ns, FAULT_REPAIR_NS, fault_repair_ns, "fault-repair-ns",
	 "a link those failures took down comes back up this long after; ns (0: never)",
	 U64, 0, HN_TIMEOUT_MAX, 1, NONE)
HN_FIELD(dil_levels, DILATION_LEVELS, dilation_levels, "dilation-levels",
	 "a fat tree's channels per link level by level, one number 1..8 for each of its L levels (at most 8) from the nodes' links up, joined by ',': Woods-Corwin's variable dilation (DeHon's growth up the tree), switching drop; 0: every link has dilation channels",
	 U32, 0, 0x88888888, 0, DIL_LEVELS)
