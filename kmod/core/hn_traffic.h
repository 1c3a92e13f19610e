/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hn_traffic.h - synthetic traffic for the hybridnet engine: destination
 * patterns, message sizes, injection processes, and a run driver with the
 * methodology of Duato and BookSim (warm-up, measurement window, drain,
 * saturation).  Portable like the rest of kmod/core/: the same code drives
 * hnsim in user space and the module's in-kernel generator, and the same
 * configuration and seed give the same messages in both.
 *
 * Ding's dissertation and Duato's textbook are cited by section.  The
 * destination formulas are
 * documented at each pattern in pattern.c and in docs/model.md.
 */
#ifndef HN_TRAFFIC_H
#define HN_TRAFFIC_H

#include "hn_core.h"

enum hn_pattern {
	/* BookSim names (src/traffic.cpp) */
	HN_PAT_UNIFORM,		/* uniform over the other N - 1 nodes */
	HN_PAT_TRANSPOSE,	/* N = n x n: (r, c) -> (c, r) */
	HN_PAT_BITCOMP,		/* N = 2^b: d = ~s */
	HN_PAT_BITREV,		/* N = 2^b: bits reversed */
	HN_PAT_SHUFFLE,		/* N = 2^b: bits rotated left by one */
	HN_PAT_TORNADO,		/* grid: x + ceil(w/2) - 1, y + ceil(h/2) - 1 */
	HN_PAT_NEIGHBOR,	/* grid: x + 1, y + 1 */
	HN_PAT_RANDPERM,	/* a random permutation drawn from the seed */
	HN_PAT_HOTSPOT,		/* hot set with a fraction, else uniform */
	/* Ding's */
	HN_PAT_SCATTER,		/* root -> every other node in turn (Sec. 5.5.2) */
	HN_PAT_ALLTOALL,	/* step i: s -> s + i (pairwise exchange) */
	HN_PAT_RAND2ALL,	/* Ch. 1 random-to-all (Sec. 1.1.3): as uniform */
	HN_PAT_OMESH,		/* ordered mesh: E, W, S, N in turn (Sec. 5.5.2) */
	HN_PAT_RMESH,		/* random mesh: a random neighbour (Sec. 5.5.2) */
	HN_PAT_TWOPHASE,	/* all-to-all, then 16 random-mesh (Sec. 5.5.2) */
	HN_PAT_MIXED,		/* ordered mesh w.p. pred, else uniform (Sec. 4.6.1) */
	HN_PAT_PHASED,		/* ordered-mesh then uniform phases (Sec. 4.6.2) */
	/* Woods-Corwin's */
	HN_PAT_LOCALIZED,	/* fat tree: common ancestor at level l w.p. 2^-l */
	HN_NPATTERNS
};

/*
 * How the phased pattern's phases run (struct hn_tcfg.phases).
 * GLOBAL (Sec. 4.6.2, Sec. 4.5): the whole machine goes through each phase
 * together: a node starts its next phase once every message of the current
 * phase, from every node, has arrived.  The NIC tags every message by its
 * table, as the text's NIC does (Sec. 3.4.1), so a random-phase message to
 * a neighbour whose circuit is set up goes by circuit.  GLOBAL_HINT: the
 * same phases, and the PE hints every random-phase message wormhole
 * (HN_HINT_WORMHOLE), past the table: our option, which reads "when the
 * phase is complete, the network revert[s] to wormhole switching" as the
 * PE knowing it.  PER_NODE: each node counts its own messages through the
 * phases, unsynchronised; the table tags every message.
 */
enum hn_phases {
	HN_PHASES_GLOBAL,
	HN_PHASES_PER_NODE,
	HN_PHASES_GLOBAL_HINT,
	HN_NPHASES
};

enum hn_size_dist {
	HN_SIZE_FIXED,		/* size */
	HN_SIZE_UNIFORM,	/* uniform on size..size_max */
	HN_SIZE_BIMODAL,	/* size_max w.p. large_ppm, else size */
};

enum hn_inject_proc {
	HN_INJ_BERNOULLI,	/* each cycle_ns, w.p. load x capacity / mean */
	HN_INJ_BATCH,		/* batch messages per sender, to completion */
};

#define HN_MAX_HOT	16
#define HN_PPM		1000000u

/* The 80/80 rule (Sec. 1.1.2): 8/9 of messages 256 B, 1/9 8192 B. */
#define HN_8080_SMALL	256u
#define HN_8080_LARGE	8192u
#define HN_8080_PPM	111111u

struct hn_tcfg {
	u32 pattern;		/* enum hn_pattern */
	u32 nodes;		/* N; must equal the engine's */
	u32 grid_w, grid_h;	/* 2-D grid of the mesh patterns; 0: auto */
	u32 root;		/* scatter's source */
	u32 nhot;		/* hotspot: hot set hot[0..nhot-1] */
	u32 hot[HN_MAX_HOT];
	u32 hot_ppm;		/* hotspot: fraction sent to the hot set */
	u32 pred_ppm;		/* mixed, phased: predictable ratio */
	u32 dirs;		/* mixed, phased: mesh directions used, 1..4 */
	u32 phase_msgs;		/* phased: messages per node per phase pair */
	u32 phases;		/* phased: enum hn_phases */
	u32 rmesh_msgs;		/* twophase: random-mesh messages per round */
	u32 size_dist;		/* enum hn_size_dist */
	u32 size;		/* bytes; the small mode when bimodal */
	u32 size_max;		/* uniform: top; bimodal: the large mode */
	u32 large_ppm;		/* bimodal: fraction of large messages */
	u32 inject;		/* enum hn_inject_proc */
	u32 load_ppm;		/* Bernoulli: offered load, of link capacity */
	u32 cycle_ns;		/* Bernoulli: one trial per node per cycle */
	u32 batch;		/* batch: messages per sending node */
	u32 gen_mbps;		/* batch: PE data generation rate; 0: none */
	u32 sw;			/* messages' own switching (hn_msg.sw); 0 */
	u64 seed;
};

/* How circuits come to exist during a run. */
enum hn_net {
	HN_NET_AS_IS,		/* the engine as configured (hybrid, Ch. 4) */
	HN_NET_WORMHOLE,	/* K = 0: wormhole only */
	HN_NET_CIRCUIT,		/* K = 1 circuit per message (Sec. 8.4.2) */
	HN_NET_DYNAMIC,		/* Dynamic TDM: greedy + time-out (Sec. 5.2.2) */
	HN_NET_PRELOAD,		/* pure TDM on the pattern's plan (Sec. 4.2.2) */
	HN_NNETS
};

struct hn_trun_cfg {
	u32 net;		/* enum hn_net */
	u32 preload_slots;	/* slots 0..P-1 get the pattern's plan */
	u32 max_queue;		/* source queue per node that means saturated */
	u64 max_mem;		/* bytes its messages may hold: stop; 0: any */
	u32 sat_tol_ppm;	/* accepted below offered x (1 - tol): saturated */
	u64 warmup_ns;		/* Bernoulli: statistics discarded, at least */
	u64 warmup_max_ns;	/* and at most; 0: warmup + 10 x measure */
	u64 measure_ns;		/* Bernoulli: messages generated are tagged */
	u64 drain_ns;		/* Bernoulli: tagged must arrive within this */
	u64 limit_ns;		/* batch: give up after this virtual time */
};

enum hn_trun_end {
	HN_END_RUNNING,
	HN_END_DONE,		/* batch delivered, or tagged all drained */
	HN_END_SAT_QUEUE,	/* source queue over max_queue: saturated */
	HN_END_SAT_DRAIN,	/* tagged not drained in drain_ns: saturated */
	HN_END_LIMIT,		/* batch not done by limit_ns */
	HN_END_SAT_RATE,	/* accepted < offered x (1 - sat_tol): saturated */
	HN_END_SAT_MEM,		/* its messages hold max_mem: saturated */
	HN_END_SAT_TREND,	/* latency rose through the window: saturated */
	HN_END_STOPPED,		/* hn_trun_stop(): stopped from outside */
	HN_END_DEADLOCK,	/* the fabric deadlocked (hn_deadlock()) */
};

/*
 * Convergence (Bernoulli): the measurement window is cut into
 * HN_TRUN_SAMPLES equal sample periods.  The mean latency of the measured
 * messages generated in each must show no rising trend: a Mann-Kendall
 * test over the periods (S = rising pairs - falling pairs) significant at
 * 0.1 %, one sided (10 % after a warm-up that never settled), means
 * saturated.  See traffic_run.c.
 */
#define HN_TRUN_SAMPLES	10

struct hn_tres {
	u32 end;		/* enum hn_trun_end */
	u32 active;		/* nodes that send */
	const char *why;	/* one line: how the run ended */
	u64 t_end;		/* virtual time at the end */
	u64 gen_msgs, gen_bytes;	/* generated, all phases */
	u64 inj_msgs;		/* accepted by a NIC */
	u64 unreach_msgs;	/* refused: a fault cut their route off */
	u64 done_msgs, done_bytes;	/* delivered */
	u64 tagged, tagged_done;	/* generated in the window */
	u64 win_gen_bytes;	/* generated in the window */
	u64 win_acc_bytes;	/* delivered in the window */
	u64 win_unreach_bytes;	/* of those, refused: not offered to the fabric */
	u64 warmup_taken_ns;	/* the warm-up the run took (window start) */
	u64 measured_ns;	/* the part of the window the run lived */
	u32 offered_ppm;	/* win_gen / (active x measured x link), or
				 * gen / the warm-up (it ended in it)
				 */
	u32 accepted_ppm;	/* win_acc / (active x measured x link) */
	u32 util_ppm;		/* Ch. 1 over the active senders' links */
	u32 util_all_ppm;	/* Ch. 1 over all N links (the engine's) */
	u64 lat_sum, lat_min, lat_max;	/* tagged (batch: every) message */
	u64 lat_n;
	u64 hist[HN_HIST_BUCKETS];
	/* the same by the mode that carried the message */
	u64 lat_n_mode[HN_NMODES];
	struct hn_lat lat_mode[HN_NMODES];
	u64 hist_mode[HN_NMODES][HN_HIST_BUCKETS];
	u64 t_first, t_last;	/* first generation, last delivery */
	u64 queue_max;		/* largest source queue seen, messages */
	/*
	 * The memory its messages hold, queued or in the engine: each
	 * struct hn_tmsg made (spares included) and, while the message
	 * lives, what the engine may take for it (hn_msg_mem()), all as
	 * the allocator rounds them.  Now, and the most it held.
	 */
	u64 mem_bytes, mem_max;
	u64 groups;		/* plan groups installed (preload) */
	/* convergence (Bernoulli): per sample period of the window */
	u64 smp_gen_bytes[HN_TRUN_SAMPLES];	/* generated in it */
	u64 smp_acc_bytes[HN_TRUN_SAMPLES];	/* delivered in it */
	u64 smp_lat_sum[HN_TRUN_SAMPLES];	/* measured, generated in it */
	u64 smp_lat_n[HN_TRUN_SAMPLES];
	u64 lat_first, lat_second;	/* mean, generated in each half */
	u32 trend_periods;	/* periods with a measured message, m */
	u32 trend_up, trend_down;	/* pairs of them, the later above, below */
	u32 trend_min;		/* S = up - down from which it rises */
	u32 rising;		/* S >= trend_min: not converged */
	u32 warmup_capped;	/* the warm-up ran to warmup_max_ns, rising */
};

/* patterns */
const char *hn_pattern_name(u32 p);	/* NULL past the last */
int hn_pattern_parse(const char *name);	/* index, or -EINVAL */
const char *hn_net_name(u32 net);
const char *hn_phases_name(u32 p);		/* NULL past the last */
int hn_phases_parse(const char *name);	/* index, or -EINVAL */
int hn_net_parse(const char *name);
void hn_tcfg_default(struct hn_tcfg *t, u32 nodes);
int hn_tcfg_check(const struct hn_tcfg *t, const struct hn_config *c,
		  struct hn_err *err);
u64 hn_tcfg_mean_x1e6(const struct hn_tcfg *t);	/* mean size x 10^6 */

struct hn_tgen;
struct hn_tgen *hn_tgen_create(const struct hn_tcfg *t,
			       const struct hn_config *c, int *errp);
void hn_tgen_destroy(struct hn_tgen *g);
bool hn_tgen_active(const struct hn_tgen *g, u32 src);
u32 hn_tgen_dest(struct hn_tgen *g, u32 src);	/* HN_NONE: silent */
u32 hn_tgen_size(struct hn_tgen *g, u32 src);
u64 hn_tgen_next_ns(struct hn_tgen *g, u32 src);	/* Bernoulli */
void hn_tgen_skip(struct hn_tgen *g, u32 src, u64 t);	/* no trial before t */
u32 hn_tgen_phase(const struct hn_tgen *g, u32 src, bool *random);
u64 hn_tgen_phase_msgs(const struct hn_tgen *g, u32 phase, u64 limit);
u32 hn_tgen_groups(const struct hn_tgen *g, u32 slots);
u32 hn_tgen_plan(const struct hn_tgen *g, u32 slots, u32 group, u32 j,
		 struct hn_pair *pairs);

/* the run driver */
int hn_net_apply(struct hn_config *c, const struct hn_trun_cfg *r,
		 struct hn_err *err);
int hn_trun_check(const struct hn_trun_cfg *r, const struct hn_tcfg *t,
		  const struct hn_config *c, struct hn_err *err);
void hn_trun_cfg_default(struct hn_trun_cfg *r);

struct hn_trun;
struct hn_trun *hn_trun_create(const struct hn_config *c,
			       const struct hn_tcfg *t,
			       const struct hn_trun_cfg *r, int *errp,
			       struct hn_err *err);
/*
 * As hn_trun_create(), with @prep(engine, @arg) called on the new engine
 * before the pattern's plan is preloaded (hnsim's links down): its
 * failure, -errno with *@err said, is the run's.
 */
struct hn_trun *hn_trun_create_prep(const struct hn_config *c,
				    const struct hn_tcfg *t,
				    const struct hn_trun_cfg *r,
				    int (*prep)(struct hn_engine *e, void *arg,
						struct hn_err *err),
				    void *arg, int *errp, struct hn_err *err);
/*
 * On an engine someone else owns (the module's): its ops->deliver must
 * hand the driver's messages to hn_trun_delivered(), ops->reclaim to
 * hn_trun_reclaimed(), and its ops->room must return hn_trun_room()
 * (without it a PE whose NIC was full waits until a slot ends).  The
 * driver's messages carry m->owner == HN_OWNER_TRUN (keep the owner's
 * own messages' field different, e.g. 0).  Destroy the engine, or let
 * it drain, before hn_trun_destroy().  The run starts at the engine's
 * time: its generation times, window, drain and limit_ns count from
 * there.
 */
#define HN_OWNER_TRUN	0x7e
struct hn_trun *hn_trun_attach(struct hn_engine *e, const struct hn_tcfg *t,
			       const struct hn_trun_cfg *r, int *errp,
			       struct hn_err *err);
void hn_trun_delivered(struct hn_trun *r, struct hn_msg *m);
void hn_trun_reclaimed(struct hn_trun *r, struct hn_msg *m);
bool hn_trun_room(struct hn_trun *r, u32 node, u64 t);	/* ops->room */
struct hn_engine *hn_trun_engine(struct hn_trun *r);
int hn_trun_step(struct hn_trun *r);	/* 0: more, 1: ended, < 0: error */
int hn_trun_run(struct hn_trun *r, u64 max_steps);
void hn_trun_stop(struct hn_trun *r);	/* ends it: HN_END_STOPPED */
const struct hn_tres *hn_trun_result(struct hn_trun *r);
void hn_trun_destroy(struct hn_trun *r);

#endif /* HN_TRAFFIC_H */
