// SPDX-License-Identifier: GPL-2.0
/*
 * request.c - the requests of Dynamic TDM (Sec. 5.3, see dynamic.c): the
 * streams whose messages wait in VQ_PCKT for a circuit that does not exist
 * yet, a non-empty VQ_PCKT being the request R_u,v (Sec. 5.3.1), in the order
 * they made it.  A stream joins when its first message arrives
 * (engine.c) and leaves when its circuit is granted, by the scheduler or
 * by a preload: whoever places a circuit calls hn_req_granted().
 */
#include "engine.h"

/*
 * @st, which has no circuit, has its first message, handed over at @t: it
 * requests one (R_u,v rises at @t; the array sees it wire_ns later).
 */
void hn_req_add(struct hn_engine *e, struct hn_stream *st, u64 t)
{
	st->req = 1;
	st->req_t = t;
	st->req_next = NULL;
	st->req_prev = e->req_tail;
	if (e->req_tail)
		e->req_tail->req_next = st;
	else
		e->req_head = st;
	e->req_tail = st;
	e->nreq++;
}

static void req_del(struct hn_engine *e, struct hn_stream *st)
{
	if (st->req_prev)
		st->req_prev->req_next = st->req_next;
	else
		e->req_head = st->req_next;
	if (st->req_next)
		st->req_next->req_prev = st->req_prev;
	else
		e->req_tail = st->req_prev;
	st->req_next = NULL;
	st->req_prev = NULL;
	st->req = 0;
	e->nreq--;
}

/*
 * (u, v) has just been placed in slot @s (by the scheduler or a preload):
 * if its stream was waiting, its messages now wait for that circuit.
 */
void hn_req_granted(struct hn_engine *e, u32 s, u32 u, u32 v)
{
	struct hn_stream *st;

	if (!e->req_head)
		return;
	st = hn_stream_find(e, u, v);
	if (!st || !st->req)
		return;
	req_del(e, st);
	e->req_msgs -= st->vq_pckt.count;
	e->slot[s].pending += st->vq_pckt.count;
	e->pending += st->vq_pckt.count;
	hn_slot_wake(e, s, u);
	hn_circuit_arm(e, s, u);	/* a preload of the slot in progress */
}
