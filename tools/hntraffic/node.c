// SPDX-License-Identifier: GPL-2.0
/*
 * node.c - one thread per node: it generates the node's messages with the
 * core's pattern generator (hn_tgen_*), writes them to the node's file of
 * /dev/hybridnet, reads what arrives for the node and verifies it.
 *
 * The generator keeps a separate state per source node (traffic.c: "every
 * node draws from its own pseudo-random streams"), and hn_tgen_dest(),
 * hn_tgen_size() and hn_tgen_next_ns() for source s touch only that
 * state, so each thread calls them for its own node without a lock and
 * draws exactly the messages hnsim's run driver draws for that node: the
 * destination, then the size, per message, in order.
 *
 * The file is non-blocking and one ppoll() waits for a message to read,
 * NIC room (POLLOUT, after a write() was refused with EAGAIN) or the next
 * generation time, whichever comes first, so a node never stops reading
 * while its NIC is full.
 */
#define _GNU_SOURCE		/* ppoll() */
#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <string.h>
#include <time.h>
#include "hntraffic.h"

#define LOAD(p)		__atomic_load_n(p, __ATOMIC_RELAXED)
#define STORE(p, v)	__atomic_store_n(p, v, __ATOMIC_RELAXED)

#define SEND_BURST	32	/* writes, then reads */
#define RECV_BURST	64
#define MAX_WAIT_NS	20000000ULL	/* look at the run's flags this often */

u64 hnt_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000000ULL + (u64)ts.tv_nsec;
}

static inline u64 mix64(u64 z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static inline u64 rotl(u64 x, int k)
{
	return (x << k) | (x >> (64 - k));
}

/* A hash of every byte of @p, position-dependent. */
static u64 body_hash(u64 seed, const u8 *p, u32 n)
{
	u64 h = seed, w;
	u32 i;

	for (i = 0; i + 8 <= n; i += 8) {
		memcpy(&w, p + i, 8);
		h = rotl(h ^ w, 31) * 0x9e3779b97f4a7c15ULL;
	}
	if (i < n) {
		w = 0;
		memcpy(&w, p + i, n - i);
		h = rotl(h ^ w ^ ((u64)(n - i) << 56), 31) *
		    0x9e3779b97f4a7c15ULL;
	}
	return mix64(h ^ n);
}

static u32 stamp_csum(u64 nonce, const struct hnt_stamp *st, u64 body)
{
	u64 a = mix64(nonce ^ st->seq ^ ((u64)st->src << 32) ^
		      ((u64)st->dst << 48));
	u64 b = mix64(st->len_flags ^ (st->t_send * 0xd1b54a32d192ed03ULL));

	a = mix64(body ^ a ^ rotl(b, 17));
	return (u32)(a ^ (a >> 32));
}

/* The payload after the stamp, from the stream's values. */
static void fill_body(u8 *p, u32 len, u64 seed)
{
	u64 w;
	u32 i;

	for (i = HNT_STAMP; i < len; i += 8) {
		seed += 0x9e3779b97f4a7c15ULL;
		w = mix64(seed);
		memcpy(p + i, &w, len - i < 8 ? len - i : 8);
	}
}

static u64 body_seed(u64 nonce, u32 src, u32 dst, u32 seq)
{
	return nonce ^ ((u64)src << 48) ^ ((u64)dst << 32) ^ seq;
}

void hnt_set_end(struct hnt_run *r, int end, const char *fmt, ...)
{
	va_list ap;

	pthread_mutex_lock(&r->lock);
	if (!r->end) {
		va_start(ap, fmt);
		vsnprintf(r->end_why, sizeof(r->end_why), fmt, ap);
		va_end(ap);
		r->w_stop = hnt_now();
		STORE(&r->end, end);
	}
	pthread_mutex_unlock(&r->lock);
	STORE(&r->stop, 1);
}

/* The first verification failure of a node, for the report. */
static void failure(struct hnt_node *n, const char *fmt, ...)
{
	va_list ap;

	STORE(&n->live.errors, n->live.errors + 1);
	if (n->why[0])
		return;
	va_start(ap, fmt);
	vsnprintf(n->why, sizeof(n->why), fmt, ap);
	va_end(ap);
}

static u64 wall_of(const struct hnt_run *r, u64 v)
{
	return r->t0 + (u64)((double)v * r->scale);
}

static u64 gen_wall_ns(const struct hnt_run *r, u32 len)
{
	u64 rate = r->t.gen_mbps;

	if (!rate)
		return 0;
	return (u64)((double)(((u64)len * 8000 + rate - 1) / rate) * r->scale);
}

static struct hnt_qent *q_tail(struct hnt_node *n)
{
	struct hnt_qent *q;
	u32 cap, i;

	if (n->qlen == n->qcap) {
		cap = n->qcap ? 2 * n->qcap : 16;
		q = malloc((size_t)cap * sizeof(*q));
		if (!q)
			return NULL;
		for (i = 0; i < n->qlen; i++)
			q[i] = n->q[(n->qhead + i) % n->qcap];
		free(n->q);
		n->q = q;
		n->qcap = cap;
		n->qhead = 0;
	}
	return &n->q[(n->qhead + n->qlen) % n->qcap];
}

static int q_push(struct hnt_node *n, const struct hnt_qent *e)
{
	struct hnt_qent *t = q_tail(n);

	if (!t)
		return -ENOMEM;
	*t = *e;
	n->qlen++;
	n->gen_msgs++;
	n->gen_bytes += e->len;
	if (e->tagged) {
		n->win_gen_bytes += e->len;
		STORE(&n->live.tagged_gen, n->live.tagged_gen + 1);
	}
	if (n->qlen > n->backlog_max)
		n->backlog_max = n->qlen;
	return 0;
}

/* Batch: draw the next message; its PE has made it gen_ns later. */
static void batch_draw(struct hnt_node *n, u64 now)
{
	struct hnt_run *r = n->run;

	if (n->have_next || n->gen_msgs >= r->t.batch)
		return;
	n->next.v_gen = 0;
	n->next.dst = hn_tgen_dest(r->g, n->id);
	n->next.len = hn_tgen_size(r->g, n->id);
	n->next.tagged = 1;
	n->have_next = 1;
	n->w_next = now + gen_wall_ns(r, n->next.len);
}

/* Put what is due by @now in the source queue.  0, or -errno. */
static int generate(struct hnt_node *n, u64 now)
{
	struct hnt_run *r = n->run;
	u64 w0 = r->rc.warmup_ns, w1 = w0 + r->rc.measure_ns;
	struct hnt_qent e;
	int rc;

	if (r->t.inject == HN_INJ_BATCH) {
		if (n->have_next && !n->qlen && now >= n->w_next) {
			n->have_next = 0;
			return q_push(n, &n->next);
		}
		return 0;
	}
	while (wall_of(r, n->v_next) <= now) {
		e.v_gen = n->v_next;
		e.dst = hn_tgen_dest(r->g, n->id);
		e.len = hn_tgen_size(r->g, n->id);
		e.tagged = e.v_gen >= w0 && e.v_gen < w1;
		n->v_next = hn_tgen_next_ns(r->g, n->id);
		if (e.dst == HN_NONE)
			continue;
		rc = q_push(n, &e);
		if (rc)
			return rc;
		if (n->qlen > r->rc.max_queue) {
			hnt_set_end(r, HNT_SAT_QUEUE,
				    "saturated: node %u's source queue grew past %u messages (--max-queue): the device accepts less than is offered",
				    n->dev, r->rc.max_queue);
			return 0;
		}
	}
	return 0;
}

/* Write @len bytes of n->tx by the messages' switching (--msg-switching) */
static int send_flags(struct hnt_node *n, u32 dst, u32 len)
{
	return hn_send_flags(n->h, dst, n->tx, len,
			     n->run->t.sw << HYBRIDNET_MSG_SWITCHING_SHIFT);
}

/* Write @len bytes of n->tx, waiting for NIC room: 0 or -errno. */
static int send_wait(struct hnt_node *n, u32 dst, u32 len)
{
	struct pollfd pfd = { .fd = hn_fd(n->h), .events = POLLOUT };
	int rc, i;

	for (i = 0; i < 1000; i++) {
		rc = send_flags(n, dst, len);
		if (rc != -EAGAIN)
			return rc;
		poll(&pfd, 1, 10);
	}
	return -ETIMEDOUT;
}

/*
 * --fault: the checker's own test.  corrupt has flipped a bit after the
 * checksum was made; dup writes the message again; swap has sent number
 * s + 1 and now sends s, a copy of the same length.
 */
static void send_fault(struct hnt_node *n, int fault,
		       const struct hnt_stamp *sent, u32 dst, u32 len)
{
	struct hnt_stamp st = *sent;

	if (fault == HNT_FAULT_SWAP) {
		st.seq--;
		st.t_send = hnt_now();
		st.csum = stamp_csum(n->run->nonce, &st, n->tx_body);
		memcpy(n->tx, &st, sizeof(st));
		n->seq_to[n->q[n->qhead].dst]++;
	}
	if (fault != HNT_FAULT_CORRUPT && !send_wait(n, dst, len)) {
		n->sent_msgs++;
		n->sent_bytes += len;
	}
	n->fault_done = 1;
}

/* Write the head of the source queue: 1 sent, 0 NIC full, < 0 error. */
static int send_head(struct hnt_node *n)
{
	struct hnt_run *r = n->run;
	struct hnt_qent *e = &n->q[n->qhead];
	u32 dev_dst = r->map[e->dst];
	struct hnt_stamp st;
	int rc, fault;

	fault = n->id == 0 && !n->fault_done && n->sent_msgs == 2 ?
		r->fault : HNT_FAULT_NONE;
	if (fault == HNT_FAULT_LOSE) {	/* a number never sent */
		n->seq_to[e->dst]++;
		n->fault_done = 1;
	}
	st.seq = n->seq_to[e->dst] + (fault == HNT_FAULT_SWAP);
	st.src = (u16)n->dev;
	st.dst = (u16)dev_dst;
	st.len_flags = e->len | (e->tagged ? HNT_F_TAGGED : 0);
	if (!n->tx_built) {
		fill_body(n->tx, e->len,
			  body_seed(r->nonce, n->dev, dev_dst, st.seq));
		n->tx_body = body_hash(r->nonce, n->tx + HNT_STAMP,
				       e->len - HNT_STAMP);
		n->tx_built = 1;
	}
	st.t_send = hnt_now();
	st.csum = stamp_csum(r->nonce, &st, n->tx_body);
	memcpy(n->tx, &st, sizeof(st));
	if (fault == HNT_FAULT_CORRUPT)
		n->tx[e->len - 1] ^= 0x20;
	rc = send_flags(n, dev_dst, e->len);
	if (fault == HNT_FAULT_CORRUPT)
		n->tx[e->len - 1] ^= 0x20;
	if (rc == -EAGAIN) {
		n->tx_again++;
		return 0;
	}
	if (rc) {
		n->err = rc;
		snprintf(n->why, sizeof(n->why), "node %u: %s", n->dev,
			 hn_strerror(n->h, rc));
		return rc;
	}
	if (!n->sent_msgs)
		n->w_first_send = st.t_send;
	n->seq_to[e->dst]++;
	n->sent_msgs++;
	n->sent_bytes += e->len;
	if (fault && fault != HNT_FAULT_LOSE)
		send_fault(n, fault, &st, dev_dst, e->len);
	n->tx_built = 0;
	n->qhead = (n->qhead + 1) % n->qcap;
	n->qlen--;
	return 1;
}

/* Check one message that arrived; count it. */
static void check(struct hnt_node *n, const struct hybridnet_msg_hdr *h,
		  u32 len, u64 now)
{
	struct hnt_run *r = n->run;
	struct hnt_stream *s;
	struct hnt_stamp st;
	u32 src;
	u64 body;

	n->recv_msgs++;
	n->recv_bytes += len;
	if (h->mode < 2)
		n->mode[h->mode]++;
	if (h->tag != h->mode)
		n->retagged++;
	if (r->w_win0 <= now && now < r->w_win1) {
		n->win_acc_bytes += len;
		n->win_acc_msgs++;
	}
	src = h->src < r->ndev ? r->rmap[h->src] : HN_NONE;
	if (src == HN_NONE) {
		n->stray++;
		failure(n, "node %u: a message from node %u, which is not in the run",
			n->dev, h->src);
		return;
	}
	if (len < HNT_STAMP) {
		n->corrupt++;
		failure(n, "node %u: a message of %u bytes from node %u, shorter than any sent",
			n->dev, len, h->src);
		return;
	}
	memcpy(&st, n->rx, sizeof(st));
	body = body_hash(r->nonce, n->rx + HNT_STAMP, len - HNT_STAMP);
	if (st.src != h->src || st.dst != n->dev || h->dst != n->dev ||
	    (st.len_flags & HNT_LEN_MASK) != len ||
	    stamp_csum(r->nonce, &st, body) != st.csum) {
		n->corrupt++;
		failure(n, "node %u: message %u from node %u (%u bytes) is corrupt: stamp or checksum wrong",
			n->dev, st.seq, h->src, len);
		return;
	}
	s = &n->from[src];
	if (st.seq == s->exp) {
		s->exp++;
	} else if (st.seq > s->exp) {
		/* lost, or late: the end of the run tells (hnt_count_lost) */
		failure(n, "node %u: from node %u, message %u arrived when %u was expected",
			n->dev, h->src, st.seq, s->exp);
		s->holes += st.seq - s->exp;
		s->exp = st.seq + 1;
	} else if (s->holes) {
		failure(n, "node %u: from node %u, message %u arrived after %u (out of order)",
			n->dev, h->src, st.seq, s->exp - 1);
		n->reordered++;
		s->holes--;
	} else {
		failure(n, "node %u: from node %u, message %u arrived twice",
			n->dev, h->src, st.seq);
		n->dup++;
	}
	if (h->t_inject < n->v_first)
		n->v_first = h->t_inject;
	if (h->t_deliver > n->v_last)
		n->v_last = h->t_deliver;
	n->w_last_recv = now;
	if (st.len_flags & HNT_F_TAGGED) {
		STORE(&n->live.tagged_recv, n->live.tagged_recv + 1);
		hnt_hist_add(&n->vlat, h->t_deliver >= h->t_inject ?
			     h->t_deliver - h->t_inject : 0);
		hnt_hist_add(&n->vlat_mode[h->mode & 1],
			     h->t_deliver >= h->t_inject ?
			     h->t_deliver - h->t_inject : 0);
		hnt_hist_add(&n->wlat, now >= st.t_send ? now - st.t_send : 0);
	}
}

/* Read one message: 1 read, 0 none waiting, < 0 error. */
static int recv_one(struct hnt_node *n)
{
	struct hybridnet_msg_hdr h;
	struct hybridnet_info info;
	ssize_t len;
	u8 *p;

	len = hn_recv(n->h, &h, n->rx, n->rx_cap);
	if (len == -EMSGSIZE && !hn_info(n->h, &info) &&
	    info.rx_next_len > n->rx_cap) {
		/* longer than anything of ours: a stray, read it whole */
		p = realloc(n->rx, info.rx_next_len);
		if (!p)
			return -ENOMEM;
		n->rx = p;
		n->rx_cap = info.rx_next_len;
		len = hn_recv(n->h, &h, n->rx, n->rx_cap);
	}
	if (len == -EAGAIN)
		return 0;
	if (len < 0) {
		n->err = (int)len;
		snprintf(n->why, sizeof(n->why), "node %u: %s", n->dev,
			 hn_strerror(n->h, (int)len));
		return (int)len;
	}
	check(n, &h, (u32)len, hnt_now());
	return 1;
}

static void publish(struct hnt_node *n)
{
	STORE(&n->live.gen, n->gen_msgs);
	STORE(&n->live.sent, n->sent_msgs);
	STORE(&n->live.recv, n->recv_msgs);
	STORE(&n->live.backlog, (u64)n->qlen);
}

/* The thread's ppoll() timeout: until the next message is due. */
static u64 wait_ns(struct hnt_node *n, u64 now, int sending)
{
	struct hnt_run *r = n->run;
	u64 due = now + MAX_WAIT_NS;

	if (sending && !n->qlen) {
		if (r->t.inject == HN_INJ_BATCH) {
			if (n->have_next)
				due = n->w_next;
		} else {
			due = wall_of(r, n->v_next);
		}
	}
	if (due <= now)
		return 0;
	return due - now < MAX_WAIT_NS ? due - now : MAX_WAIT_NS;
}

void *hnt_node_main(void *arg)
{
	struct hnt_node *n = arg;
	struct hnt_run *r = n->run;
	int batch = r->t.inject == HN_INJ_BATCH;
	int sending = n->active, blocked = 0, busy, rc, i;
	struct pollfd pfd = { .fd = hn_fd(n->h) };
	struct timespec ts;
	u64 now, w;

	pthread_barrier_wait(&r->start);
	if (sending) {
		if (batch)
			batch_draw(n, r->t0);
		else
			n->v_next = hn_tgen_next_ns(r->g, n->id);
	}
	for (;;) {
		if (LOAD(&r->quit))
			break;
		busy = 0;
		if (sending && LOAD(&r->stop))
			sending = 0;
		if (sending) {
			now = hnt_now();
			rc = generate(n, now);
			for (i = 0; !rc && i < SEND_BURST && n->qlen; i++) {
				rc = send_head(n);
				if (rc <= 0)
					break;
				busy = 1;
				if (batch) {
					now = hnt_now();
					batch_draw(n, now);
					rc = generate(n, now);
				}
			}
			blocked = rc == 0 && n->qlen && i < SEND_BURST;
			if (rc < 0) {
				hnt_set_end(r, HNT_ERROR, "%s", n->why);
				sending = 0;
			}
			if (batch && n->sent_msgs >= r->t.batch)
				sending = 0;
			/* everything due before v_next is generated */
			if (!batch)
				__atomic_store_n(&n->live.v_next, n->v_next,
						 __ATOMIC_RELEASE);
		}
		for (i = 0; i < RECV_BURST; i++) {
			rc = recv_one(n);
			if (rc < 0)
				hnt_set_end(r, HNT_ERROR, "%s", n->why);
			if (rc <= 0)
				break;
			busy = 1;
		}
		publish(n);
		if (!sending && !LOAD(&n->live.sending_done))
			__atomic_store_n(&n->live.sending_done, 1,
					 __ATOMIC_RELEASE);
		if (busy)
			continue;
		now = hnt_now();
		w = wait_ns(n, now, sending);
		pfd.events = POLLIN | (sending && blocked ? POLLOUT : 0);
		ts.tv_sec = (time_t)(w / 1000000000ULL);
		ts.tv_nsec = (long)(w % 1000000000ULL);
		ppoll(&pfd, 1, &ts, NULL);
	}
	publish(n);
	return NULL;
}
