/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hntraffic.h - the parts of hntraffic: a run over /dev/hybridnet (run),
 * the node threads that send, receive and verify (node.c), the histograms
 * and the report (report.c), options and the main loop (hntraffic.c).
 */
#ifndef HNTRAFFIC_H
#define HNTRAFFIC_H

#include <pthread.h>
#include <stdio.h>
#include "hn_traffic.h"
#include "libhybridnet.h"

/*
 * The stamp at the head of every payload (native byte order: sender and
 * receiver are one process).  The rest of the payload is filled from the
 * stream's values; csum covers the stamp's other fields and every payload
 * byte, mixed with the run's nonce, so a message of another run or
 * another program fails it.
 */
struct hnt_stamp {
	u32 seq;		/* per (src, dst) stream, from 0 */
	u16 src, dst;		/* device nodes */
	u32 len_flags;		/* payload bytes | HNT_F_* */
	u32 csum;
	u64 t_send;		/* CLOCK_MONOTONIC ns, just before write() */
};

#define HNT_STAMP	24u	/* sizeof(struct hnt_stamp), the least size */
#define HNT_LEN_MASK	0x00ffffffu
#define HNT_F_TAGGED	0x01000000u	/* measured (the window, or batch) */

/*
 * Latency histogram: the engine's own buckets (hn_hist_bucket()), so
 * that the percentiles are those of hnctl stats, hnctl traffic and hnsim,
 * read by the same function (hn_hist_percentile()).
 */
struct hnt_hist {
	u64 n, sum, min, max;
	u64 b[HN_HIST_BUCKETS];
};

void hnt_hist_init(struct hnt_hist *h);
void hnt_hist_add(struct hnt_hist *h, u64 v);
void hnt_hist_merge(struct hnt_hist *to, const struct hnt_hist *from);
/* hn_hist_percentile(): an upper bound, within [min, max] */
u64 hnt_hist_pct(const struct hnt_hist *h, u32 permille);

enum hnt_end {
	HNT_RUNNING,
	HNT_DONE,		/* batch delivered / measured messages drained */
	HNT_SAT_QUEUE,		/* a sender's backlog grew past max_queue */
	HNT_SAT_DRAIN,		/* measured messages not in within the drain */
	HNT_SAT_RATE,		/* accepted < offered x (1 - sat_tol) */
	HNT_LIMIT,		/* batch: device virtual time past limit */
	HNT_STALLED,		/* nothing moved for --timeout seconds */
	HNT_INTERRUPTED,	/* SIGINT or SIGTERM */
	HNT_ERROR,		/* a write() or read() failed */
};

/* --fault: node 0's third message, to test the checker */
enum hnt_fault {
	HNT_FAULT_NONE,
	HNT_FAULT_LOSE,		/* its number is skipped */
	HNT_FAULT_DUP,		/* written twice */
	HNT_FAULT_SWAP,		/* numbers s + 1, then s */
	HNT_FAULT_CORRUPT,	/* a payload bit flipped after the checksum */
};

/* One message waiting at its sender (the PE's source queue). */
struct hnt_qent {
	u64 v_gen;		/* pattern ns of its generation */
	u32 dst;		/* logical node */
	u32 len;
	u32 tagged;
};

/* What the receiver knows of one (src, dst) stream. */
struct hnt_stream {
	u32 exp;		/* next sequence number expected */
	u32 holes;		/* skipped and not seen since */
};

/*
 * Counters a node thread publishes for the main thread (progress and the
 * end of the run): written by the thread only, with relaxed atomics.
 */
struct hnt_live {
	u64 gen, sent, recv;
	u64 tagged_gen, tagged_recv;
	u64 backlog;		/* now */
	u64 v_next;		/* Bernoulli: generated all before this */
	u32 sending_done;	/* will send no more */
	u32 errors;		/* verification failures so far */
} __attribute__((aligned(64)));

struct hnt_run;

struct hnt_node {
	struct hnt_run *run;
	u32 id;			/* logical node, 0..M-1 */
	u32 dev;		/* device node */
	struct hn_handle *h;
	pthread_t thread;
	int active;		/* sends */
	struct hnt_live live;

	/* sender */
	struct hnt_qent *q;	/* source queue, a ring of qcap */
	u32 qcap, qhead, qlen;
	u64 v_next;		/* Bernoulli: next generation, pattern ns */
	u64 w_next;		/* wall ns when the next is due (batch: ready) */
	struct hnt_qent next;	/* batch: drawn, not yet due */
	int have_next;
	int fault_done;
	u32 *seq_to;		/* per logical destination */
	u8 *tx;			/* payload being sent */
	u32 tx_built;		/* the head's payload is in tx */
	u64 tx_body;		/* its body hash */
	u64 gen_msgs, gen_bytes, sent_msgs, sent_bytes;
	u64 win_gen_bytes;	/* generated in the window */
	u64 tx_again;		/* write() found the NIC full */
	u64 backlog_max;
	u64 w_first_send;

	/* receiver */
	struct hnt_stream *from;	/* per logical source */
	u8 *rx;
	u32 rx_cap;
	u64 recv_msgs, recv_bytes;
	u64 mode[2], retagged;
	u64 win_acc_bytes, win_acc_msgs;
	u64 lost, dup, reordered, corrupt, stray;
	u64 v_first, v_last;	/* first t_inject, last t_deliver seen */
	u64 w_last_recv;
	struct hnt_hist vlat, wlat;	/* measured messages */
	struct hnt_hist vlat_mode[2];	/* vlat by the mode that carried them */

	int err;		/* a write/read failed: -errno */
	char why[512];		/* the first failure, for the report */
};

struct hnt_run {
	/* configuration */
	const char *devpath;
	u32 fabric;		/* --fabric, or the first's number */
	struct hn_tcfg t;
	struct hn_trun_cfg rc;
	struct hn_config c;	/* for the generator: nodes = M */
	struct hn_tgen *g;
	u32 ndev;		/* the device's N */
	u32 k, max_msg;
	u32 *map;		/* logical -> device node */
	u32 *rmap;		/* device -> logical node, HN_NONE outside */
	u32 m;			/* logical nodes */
	u32 nactive;
	double scale;		/* wall ns per pattern ns */
	u64 nonce;
	char clock[16], profile[16];
	u32 pace_ppm, policy;
	u64 timeout_ns;		/* stall and collect, wall */
	int fault;		/* enum hnt_fault */
	struct hnt_node *node;

	/* wall times, CLOCK_MONOTONIC ns */
	u64 t0;			/* start: pattern time 0 */
	u64 w_win0, w_win1;	/* measurement window */
	u64 w_stop;		/* the end was decided: generation stopped */
	u64 w_end;		/* the last thread stopped */
	u64 v0, v1;		/* device virtual time at start and end */
	pthread_barrier_t start;

	/* shared state: relaxed atomics */
	int stop;		/* no more generation or sending */
	int quit;		/* threads leave */
	int end;		/* enum hnt_end, set once */
	char end_why[560];
	pthread_mutex_t lock;	/* end_why */
};

u64 hnt_now(void);
void *hnt_node_main(void *arg);
/* the first caller sets the run's end and its reason */
void hnt_set_end(struct hnt_run *r, int end, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
const char *hnt_end_name(int end);

/* totals over the nodes, after the threads have stopped */
struct hnt_total {
	u64 gen_msgs, gen_bytes, sent_msgs, sent_bytes, recv_msgs, recv_bytes;
	u64 tagged_gen, tagged_recv;
	u64 mode[2], retagged;
	u64 win_gen_bytes, win_acc_bytes, win_acc_msgs;
	u64 lost, dup, reordered, corrupt, stray;
	u64 tx_again, backlog_max;
	u64 v_first, v_last, w_first_send, w_last_recv;
	struct hnt_hist vlat, wlat;
	struct hnt_hist vlat_mode[2];
	u32 offered_ppm, accepted_ppm, util_ppm;
	double wall_s, rate_msgs, rate_bytes;
	int verified;
};

void hnt_count_lost(struct hnt_run *r);
void hnt_total(struct hnt_run *r, struct hnt_total *tot);
void hnt_print_human(FILE *f, const struct hnt_run *r,
		     const struct hnt_total *tot);
void hnt_print_json(FILE *f, const struct hnt_run *r,
		    const struct hnt_total *tot);
/* "0-15,32" */
const char *hnt_nodes_str(const struct hnt_run *r, char *buf, size_t n);

#endif /* HNTRAFFIC_H */
