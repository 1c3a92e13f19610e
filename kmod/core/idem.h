/* SPDX-License-Identifier: GPL-2.0 */
/*
 * idem.h - Woods-Corwin's idempotent protocol, exactly-once delivery over
 * a fabric that loses and corrupts messages, in the NICs (docs/model.md
 * "Exactly once"): three messages (MSG, ACK, ACK2) with sequential tags
 * per (source, destination) pair, a timer on the MSG at its sender and on
 * the ACK at its receiver, a cap on resends, a CRC-32 checked by the
 * receiver, and injectors that lose or corrupt what arrives.
 *
 * hn_idem_create() makes an engine whose client (struct hn_ops) the layer
 * is; hn_idem_attach() puts the layer over an engine of the caller's,
 * whose ops hand the layer its copies (struct hn_msg.owner @owner) with
 * hn_idem_arrived() and hn_idem_reclaimed().  The layer's own client
 * hands it messages with hn_idem_send() and gets each back once, in its
 * pair's order, through struct hn_idem_ops.  hn_idem_tick() runs the
 * timers and offers the NICs what waits: call it after hn_run_until(),
 * and run the engine to hn_idem_due() while hn_idem_busy().
 */
#ifndef HN_IDEM_H
#define HN_IDEM_H

#include "hn_core.h"

enum hn_idem_kind {
	HN_IDEM_MSG,
	HN_IDEM_ACK,
	HN_IDEM_ACK2,
	HN_IDEM_KINDS
};

/* What became of a copy that arrived (struct hn_idem_ops.arrive) */
enum hn_idem_fate {
	HN_IDEM_TAKEN,		/* the protocol took it */
	HN_IDEM_DUP,		/* a copy of one taken already */
	HN_IDEM_LOST,		/* the loss injector took it */
	HN_IDEM_CORRUPT,	/* its CRC-32 failed */
	HN_IDEM_STALE,		/* a MSG its sender has given up */
	HN_IDEM_FULL,		/* a MSG its receiver's table had no room for */
	HN_IDEM_FATES
};

struct hn_idem_cfg {
	u64 timeout_ns;		/* MSG and ACK timers; 0: none, nothing is resent */
	u32 retry_max;		/* resends of one MSG or ACK, then it gives up */
	u32 window;		/* a node's MSGs awaiting their ACK; 0: no bound */
	u32 table;		/* a node's receiver records; 0: no bound */
	u32 reply_ppm;		/* ACK, ACK2 length: of the MSG's, >= 1 byte */
	u8 prio[HN_IDEM_KINDS];	/* struct hn_msg.prio of each kind */
	u32 loss_ppm[HN_IDEM_KINDS];	/* injector: lost, drawn on arrival */
	u32 flip_ppm;		/* injector: a bit flipped, per million flits */
	u64 seed;		/* the injectors' */
};

struct hn_idem_ops {
	/* @m arrived, accepted; once, in its pair's order */
	void (*deliver)(void *ctx, struct hn_msg *m);
	/*
	 * The protocol gave up on @m: -ETIMEDOUT after retry_max resends
	 * with no ACK, or hn_inject()'s refusal of a malformed message.
	 * @m is NULL when it was delivered but its ACK never came back.
	 */
	void (*give_up)(void *ctx, struct hn_msg *m, u32 src, u32 dst,
			int err);
	/* @m was still held when the layer was destroyed */
	void (*reclaim)(void *ctx, struct hn_msg *m);
	/* Optional: each copy that crossed the fabric, and its fate */
	void (*arrive)(void *ctx, const struct hn_msg *copy, u32 kind,
		       u8 owner, u32 fate);
	/* Optional: @m's len bytes, for its CRC-32; else a flip always shows */
	const u8 *(*payload)(void *ctx, const struct hn_msg *m);
};

struct hn_idem_stats {
	u64 tx[HN_IDEM_KINDS];		/* copies the NICs took: msg_tx, ... */
	u64 resends[2];			/* MSGs, ACKs sent again on a timer */
	u64 lost[HN_IDEM_KINDS];	/* taken by the loss injector */
	u64 crc_fail;			/* copies whose CRC-32 failed */
	u64 refused;			/* copies hn_inject() refused */
	u64 dups_suppressed;		/* MSG copies taken already */
	u64 stale;			/* MSG copies their sender gave up */
	u64 delivered;			/* MSGs handed to the client */
	u64 retries_exhausted;		/* MSGs given up: no ACK */
	u64 acks_exhausted;		/* ACKs given up: no ACK2 */
	u64 gaps_passed;		/* a MSG held past the cap for a gap */
	u64 send_state_entries;		/* now: MSGs awaiting their ACK */
	u64 recv_state_entries;		/* now: MSGs awaiting ACK2 or order */
	u64 waiting;			/* now: copies waiting for their NIC */
	u64 table_full;			/* MSG copies a full table dropped */
	/*
	 * Copies of each kind the fabric brought (whatever became of them
	 * then), and the headers they took (switching drop's attempts, 0
	 * otherwise): the success per attempt of each phase, arrived /
	 * attempts (Woods-Corwin's p_i)
	 */
	u64 arrived[HN_IDEM_KINDS];
	u64 attempts[HN_IDEM_KINDS];
	/*
	 * The switches on the routes of the MSG copies arrived, summed:
	 * msg_switches / arrived[MSG] is the mean path of Woods-Corwin's
	 * E = mean path x (1/p_msg + 1/p_ack + 1/p_ack2) [W:872, W:880]
	 */
	u64 msg_switches;
};

struct hn_idem;

void hn_idem_cfg_default(struct hn_idem_cfg *ic);
void hn_idem_cfg_of(const struct hn_config *c, struct hn_idem_cfg *ic);
int hn_idem_cfg_check(const struct hn_idem_cfg *ic, struct hn_err *err);
struct hn_idem *hn_idem_create(const struct hn_config *c,
			       const struct hn_idem_cfg *ic,
			       const struct hn_idem_ops *ops, void *ctx,
			       int *rc);
struct hn_idem *hn_idem_attach(struct hn_engine *e,
			       const struct hn_idem_cfg *ic,
			       const struct hn_idem_ops *ops, void *ctx,
			       u8 owner, int *rc);
/* attached: after hn_destroy() of the engine, which reclaims its copies */
void hn_idem_destroy(struct hn_idem *x);
void hn_idem_arrived(struct hn_idem *x, struct hn_msg *m);
void hn_idem_reclaimed(struct hn_idem *x, struct hn_msg *m);
/* records or copies waiting: the layer has work, if only its timers */
bool hn_idem_busy(const struct hn_idem *x);
/* the first timer's time, HN_U64_MAX when none runs */
u64 hn_idem_due(const struct hn_idem *x);
struct hn_engine *hn_idem_engine(const struct hn_idem *x);
int hn_idem_send(struct hn_idem *x, struct hn_msg *m);
void hn_idem_tick(struct hn_idem *x);
void hn_idem_stats(const struct hn_idem *x, struct hn_idem_stats *s);
const struct hn_idem_stats *hn_idem_counters(const struct hn_idem *x);
void hn_idem_stats_reset(struct hn_idem *x);

#endif /* HN_IDEM_H */
