// SPDX-License-Identifier: GPL-2.0
/*
 * circuit_slot.c - the data a predictive slot carries: in slot s every
 * NIC whose circuit is in B^(s) sends from that circuit's VQ_PCKT through
 * the fabric, configured for the whole slot (Sec. 3.4.1).  The wormhole
 * slot's counterpart is wormhole.c.
 */
#include "engine.h"

/*
 * A predictive slot [start, start + len): every NIC whose circuit is in
 * B^(s) sends from that circuit's VQ_PCKT (L616) after the guard band,
 * messages spanning slots as needed (L1046).  Only circuits with data
 * waiting are visited, so a slot costs O(active connections).
 */
void hn_circuit_slot(struct hn_engine *e, u32 s, u64 start, u64 len)
{
	const struct hn_config *c = &e->cfg;
	struct hn_slot *sl = &e->slot[s];
	u64 cap = hn_ns_bytes(c, len - c->guard_ns);
	u64 lat = 2ULL * c->nic_ns + 2ULL * c->wire_ns + c->fabric_ns;
	struct hn_stream *st;
	struct hn_msg *m;
	u64 left, x;
	u32 i, u;

	/* backwards: hn_slot_sleep() moves the last entry into this place */
	for (i = sl->nact; i-- > 0;) {
		u = sl->act[i];
		if (sl->valid_from[u] > start)
			continue;
		st = hn_stream_find(e, u, sl->out[u]);
		if (st->q_w_msgs || st->vq_w.count)
			continue;	/* older messages still on the wormhole */
		left = cap;
		while (left && (m = st->vq_pckt.head) && hn_rx_reserve(e, m)) {
			x = hn_min64(m->len - m->sent, left);
			m->sent += x;
			left -= x;
			if (m->sent < m->len)
				break;
			hn_q_pop(&st->vq_pckt);
			sl->pending--;
			e->pending--;
			e->node[u].buf_used -= m->len;
			hn_deliver(e, m, start + c->guard_ns +
				   hn_bytes_ns(c, cap - left) + lat,
				   HN_MODE_CIRCUIT, s);
		}
		if (left < cap) {
			hn_circuit_used(e, s, u, start);
			e->g.slot[s].bytes += cap - left;
		}
		if (!st->vq_pckt.count) {
			hn_slot_sleep(e, s, u);
			hn_stream_put(e, st);
		}
	}
	e->g.slot[s].cap_bytes += cap * c->nodes;
}
