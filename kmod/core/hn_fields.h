/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one table of the engine's configuration fields, as rows to expand:
 * define HN_FIELD, include this file, undefine HN_FIELD.  It has no
 * include guard on purpose, and includes nothing: the user has in scope
 * what its HN_FIELD needs.
 *
 * From it come the module parameters' ranges (kmod/main.c), the sysfs
 * config/ files (kmod/sysfs.c), the netlink policy, CONFIG_GET reply and
 * CONFIG_SET handler (kmod/fields.c, kmod/netlink.c, kmod/nl_config.c),
 * libhybridnet's field table (lib/hn_ctl_names.c), and the check that the
 * netlink spec agrees (selftests/netlink/spec-check.py).
 *
 * HN_FIELD(field, ATTR, param, "name", type, min, max, live, words)
 *   field  member of struct hn_config (the engine's own short name)
 *   ATTR   HYBRIDNET_ATTR_<ATTR>, the netlink attribute: param in capitals
 *   param  the field's name: the module parameter, the sysfs file
 *          config/<param>, the member of libhybridnet's struct
 *          hn_ctl_config and hnsim's key
 *   name   param with '-' for '_': the attribute's name in the netlink
 *          spec, hnctl's key and the JSON key (docs/names.md; make
 *          check-spec holds ATTR and name to param)
 *   type   U32 or U64, or STRING: text that HN_TEXT_<words> (two
 *          functions of cfg_text.h) reads into struct hn_config, where
 *          it may set several members, and prints from it; netlink,
 *          sysfs, hnctl and hnsim carry the text itself
 *   min, max  the range every interface accepts (the configuration as a
 *          whole is then checked by hn_config_check()); of a STRING,
 *          the length of its text
 *   live   1: CONFIG_SET changes it while traffic flows; 0: it needs a
 *          new engine
 *   words  HN_WORDS_<words>: the words of the values 0, 1, ... (NONE: a
 *          number only).  The module parameter, hnctl and hnsim take a
 *          word or its number; hnctl and hnsim print the word, netlink
 *          and sysfs carry the number.  The spec's enum of the attribute
 *          has these words as its entries (make check-spec).  A STRING
 *          has none.
 *
 * The topology comes first: the node count it implies is the default of
 * a nodes given with it, which every interface applies after it.
 */
#ifndef HN_NS_MAX
#define HN_NS_MAX	1000000000u		/* one second */
#define HN_TIMEOUT_MAX	1000000000000000ull	/* 10^6 s */

/* a NULL-ended list of words, for a static or automatic initializer */
#define HN_WORDS(...)		((const char *const []){ __VA_ARGS__, NULL })
#define HN_WORDS_NONE		NULL
#define HN_WORDS_PREDICT	HN_WORDS("first-fit", "kstep", "second-level")
#define HN_WORDS_EVICT		HN_WORDS("timeout", "counter")
#define HN_WORDS_SWITCHING	HN_WORDS("wormhole", "vct", "saf")
#define HN_WORDS_UP_SELECT	HN_WORDS("det", "random", "adaptive")
#define HN_WORDS_FT_SCHED	HN_WORDS("levelwise", "local-greedy", \
				 "local-random", "optimal")
#define HN_WORDS_TOPOLOGY	NULL

/* a STRING's text: its longest, and its functions { parse, print } */
#define HN_TEXT_MAX		15
#define HN_TEXT(type, words)	HN_TEXT_##type(words)
#define HN_TEXT_U32(words)	{ NULL, NULL }
#define HN_TEXT_U64(words)	{ NULL, NULL }
#define HN_TEXT_STRING(words)	{ HN_TEXT_##words }
#define HN_TEXT_TOPOLOGY	hn_topology_parse, hn_topology_print
#endif

HN_FIELD(topology, TOPOLOGY, topology, "topology", STRING,
	 0, HN_TEXT_MAX, 0, TOPOLOGY)

HN_FIELD(nodes, NODES, nodes, "nodes", U32, HN_MIN_NODES, HN_MAX_NODES, 0, NONE)
HN_FIELD(k, SLOTS, slots, "slots", U32, 0, HN_MAX_K, 0, NONE)
HN_FIELD(policy, POLICY, policy, "policy", U32, 0, HN_POL_ALL, 1, NONE)
HN_FIELD(link_mbps, LINK_MBPS, link_mbps, "link-mbps", U32, 1, 1000000, 0, NONE)
HN_FIELD(slot_p_ns, SLOT_P_NS, slot_p_ns, "slot-p-ns", U32,
	 1, HN_NS_MAX, 1, NONE)
HN_FIELD(slot_w_ns, SLOT_W_NS, slot_w_ns, "slot-w-ns", U32,
	 1, HN_NS_MAX, 1, NONE)
HN_FIELD(guard_ns, GUARD_NS, guard_ns, "guard-ns", U32,
	 0, HN_NS_MAX - 1, 0, NONE)
HN_FIELD(sched_ns, SCHED_NS, sched_ns, "sched-ns", U32, 0, HN_NS_MAX, 0, NONE)
HN_FIELD(setup_ns, SETUP_NS, setup_ns, "setup-ns", U32, 0, HN_NS_MAX, 0, NONE)
HN_FIELD(wh_first_ns, WH_FIRST_NS, wh_first_ns, "wh-first-ns", U32,
	 1, HN_NS_MAX, 0, NONE)
HN_FIELD(wh_flit_ns, WH_FLIT_NS, wh_flit_ns, "wh-flit-ns", U32,
	 1, HN_NS_MAX, 0, NONE)
HN_FIELD(flit_bytes, FLIT_BYTES, flit_bytes, "flit-bytes", U32,
	 1, 4096, 0, NONE)
HN_FIELD(worm_bytes, WORM_BYTES, worm_bytes, "worm-bytes", U32,
	 1, HN_MAX_MSG, 0, NONE)
HN_FIELD(wire_ns, WIRE_NS, wire_ns, "wire-ns", U32, 0, HN_NS_MAX, 0, NONE)
HN_FIELD(nic_ns, NIC_NS, nic_ns, "nic-ns", U32, 0, HN_NS_MAX, 0, NONE)
HN_FIELD(fabric_ns, FABRIC_NS, fabric_ns, "fabric-ns", U32,
	 0, HN_NS_MAX, 0, NONE)
HN_FIELD(nic_buf_bytes, NIC_BUF_BYTES, nic_buf_bytes, "nic-buf-bytes",
	 U32, 1, HN_MAX_BUF, 0, NONE)
HN_FIELD(sw_buf_bytes, SW_BUF_BYTES, sw_buf_bytes, "sw-buf-bytes",
	 U32, 1, HN_MAX_BUF, 0, NONE)
HN_FIELD(rx_buf_bytes, RX_BUF_BYTES, rx_buf_bytes, "rx-buf-bytes",
	 U32, 1, HN_MAX_BUF, 0, NONE)
HN_FIELD(max_msg_bytes, MAX_MSG_BYTES, max_msg_bytes, "max-msg-bytes", U32,
	 1, HN_MAX_MSG, 0, NONE)
HN_FIELD(idle_timeout_ns, IDLE_TIMEOUT_NS, idle_timeout_ns, "idle-timeout-ns", U64,
	 0, HN_TIMEOUT_MAX, 1, NONE)
HN_FIELD(pin_slots, PIN_SLOTS, pin_slots, "pin-slots", U32,
	 0, HN_MAX_K, 0, NONE)
HN_FIELD(predict_algo, PREDICT_ALGO, predict_algo, "predict-algo", U32,
	 0, HN_PREDICT_SECOND_LEVEL, 1, PREDICT)
HN_FIELD(predict_kstep, PREDICT_KSTEP, predict_kstep, "predict-kstep", U32,
	 1, 2 * HN_MAX_NODES - 1, 1, NONE)
HN_FIELD(evict_algo, EVICT_ALGO, evict_algo, "evict-algo", U32,
	 0, HN_EVICT_COUNTER, 1, EVICT)
HN_FIELD(evict_count, EVICT_COUNT, evict_count, "evict-count", U32,
	 1, 0x7fffffff, 1, NONE)
HN_FIELD(wh_overlap, WH_OVERLAP, wh_overlap, "wh-overlap", U32, 0, 1, 0, NONE)
HN_FIELD(serdes_ns, SERDES_NS, serdes_ns, "serdes-ns", U32,
	 0, HN_NS_MAX, 0, NONE)
HN_FIELD(switching, SWITCHING, switching, "switching", U32,
	 0, HN_SWITCH_SAF, 0, SWITCHING)
HN_FIELD(up_select, UP_SELECT, up_select, "up-select", U32,
	 0, 2, 0, UP_SELECT)	/* 2: HN_UPSEL_ADAPTIVE (topo.h) */
HN_FIELD(ft_sched, FT_SCHED, ft_sched, "ft-sched", U32,
	 0, HN_FT_OPTIMAL, 1, FT_SCHED)
