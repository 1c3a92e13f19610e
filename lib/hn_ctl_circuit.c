// SPDX-License-Identifier: GPL-2.0
/*
 * hn_ctl_circuit.c - libhybridnet's control plane: preload, predict,
 * release and the circuit dump.
 *
 * Requests are passed to the kernel as they are: it is the kernel that
 * says what is wrong with them (hn_ctl_errmsg()).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hn_ctl_int.h"

/* bytes of one PAIR nest: header, SRC, DST */
#define PAIR_BYTES	(NLA_HDRLEN + 2 * nla_total_size(sizeof(uint32_t)))
/* bytes of a SLOT_CONFIG nest besides its pairs: header, SLOT */
#define NEST_BYTES	(NLA_HDRLEN + nla_total_size(sizeof(uint32_t)))

int hn_ctl_preload(struct hn_ctl *c, const struct hn_ctl_slot_cfg *cfg,
		   size_t n, const char *phase)
{
	return hn_ctl_preload_level(c, cfg, n, phase, 1);
}

int hn_ctl_preload_level(struct hn_ctl *c, const struct hn_ctl_slot_cfg *cfg,
			 size_t n, const char *phase, uint32_t level)
{
	return hn_ctl_preload_change(c, cfg, n, phase, level, NULL);
}

/* The reply: per slot installed, its circuits before and after. */
static int preload_reply(struct nlattr **tb, struct nlmsghdr *nlh, void *arg)
{
	struct genlmsghdr *gh = nlmsg_data(nlh);
	struct hn_ctl_change *chg = arg;
	struct nlattr *a, *t[HYBRIDNET_ATTR_MAX + 1];
	struct hn_ctl_slot_change *sc;
	int rem;

	(void)tb;
	nla_for_each_attr(a, genlmsg_attrdata(gh, 0), genlmsg_attrlen(gh, 0),
			  rem) {
		if (nla_type(a) != HYBRIDNET_ATTR_SLOT_CONFIG)
			continue;
		if (chg->nslots == HYBRIDNET_MAX_SLOTS ||
		    nla_parse_nested(t, HYBRIDNET_ATTR_MAX, a, hn_ctl_policy) ||
		    !t[HYBRIDNET_ATTR_SLOT] || !t[HYBRIDNET_ATTR_COUNT] ||
		    !t[HYBRIDNET_ATTR_RELEASED])
			return -EPROTO;
		sc = &chg->slot[chg->nslots++];
		sc->slot = nla_get_u32(t[HYBRIDNET_ATTR_SLOT]);
		sc->after = nla_get_u32(t[HYBRIDNET_ATTR_COUNT]);
		sc->before = nla_get_u32(t[HYBRIDNET_ATTR_RELEASED]);
	}
	return 0;
}

/* Bytes of one of @cfg's pairs, with its path, in a SLOT_CONFIG nest. */
static size_t pair_bytes(const struct hn_ctl_slot_cfg *cfg)
{
	return PAIR_BYTES +
	       (cfg->paths ? nla_total_size(HYBRIDNET_MAX_PATH) : 0);
}

/* Pairs of @cfg in one SLOT_CONFIG nest: an attribute is < 64 KiB. */
static size_t nest_pairs(const struct hn_ctl_slot_cfg *cfg)
{
	return (0xffff - NEST_BYTES) / pair_bytes(cfg);
}

static int put_pair(struct nl_msg *m, const struct hn_ctl_slot_cfg *cfg,
		    size_t p)
{
	const struct hn_ctl_path *path = cfg->paths ? &cfg->paths[p] : NULL;
	struct nlattr *nest = nla_nest_start(m, HYBRIDNET_ATTR_PAIR);

	if (path && path->len > HYBRIDNET_MAX_PATH)
		return -EINVAL;
	if (!nest || nla_put_u32(m, HYBRIDNET_ATTR_SRC, cfg->pairs[p].src) ||
	    nla_put_u32(m, HYBRIDNET_ATTR_DST, cfg->pairs[p].dst) ||
	    (path && nla_put(m, HYBRIDNET_ATTR_PATH, path->len, path->port)))
		return -EMSGSIZE;
	return nla_nest_end(m, nest) < 0 ? -EMSGSIZE : 0;
}

int hn_ctl_preload_change(struct hn_ctl *c, const struct hn_ctl_slot_cfg *cfg,
			  size_t n, const char *phase, uint32_t level,
			  struct hn_ctl_change *chg)
{
	size_t i, p, e, size = phase ? nla_total_size(strlen(phase) + 1) : 0;
	struct nlattr *nest;
	struct nl_msg *m;
	int rc = -EMSGSIZE;

	c->err[0] = '\0';
	if (n && !cfg)
		return -EINVAL;
	size += nla_total_size(sizeof(uint32_t));	/* LEVEL */
	for (i = 0; i < n; i++) {
		size += (size_t)cfg[i].npairs * pair_bytes(&cfg[i]) +
			(cfg[i].npairs / nest_pairs(&cfg[i]) + 1) * NEST_BYTES;
	}
	m = hn_ctl_msg(c, HYBRIDNET_CMD_PRELOAD, size, 0);
	if (!m)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		p = 0;
		do {	/* one nest at least: no pairs clears the slot */
			nest = nla_nest_start(m, HYBRIDNET_ATTR_SLOT_CONFIG);
			if (!nest ||
			    nla_put_u32(m, HYBRIDNET_ATTR_SLOT, cfg[i].slot))
				goto full;
			for (e = p + nest_pairs(&cfg[i]); p < cfg[i].npairs &&
			     p < e; p++) {
				rc = put_pair(m, &cfg[i], p);
				if (rc)
					goto fail;
			}
			if (nla_nest_end(m, nest) < 0)
				goto full;
		} while (p < cfg[i].npairs);
	}
	if (phase && nla_put_string(m, HYBRIDNET_ATTR_PHASE, phase))
		goto full;
	if (level != 1 && nla_put_u32(m, HYBRIDNET_ATTR_LEVEL, level))
		goto full;
	if (chg)
		memset(chg, 0, sizeof(*chg));
	return hn_ctl_run(c, m, chg ? preload_reply : NULL, chg);
full:
	rc = -EMSGSIZE;
fail:
	nlmsg_free(m);
	return rc;
}

struct predict_ctx {
	struct hn_ctl_grant *g;
	size_t cap, n;
	struct hn_ctl_why *why;		/* NULL: conflicts not wanted */
	size_t why_cap;
};

/* One CONFLICT nest of the grant of request @index. */
static int get_conflict(struct predict_ctx *x, struct nlattr *nest,
			uint32_t index)
{
	struct nlattr *tb[HYBRIDNET_ATTR_MAX + 1], *a;
	struct hn_ctl_why *w = x->why;
	struct hn_ctl_conflict *k;
	struct hn_ctl_pair p;
	int rem;

	if (nla_parse_nested(tb, HYBRIDNET_ATTR_MAX, nest, hn_ctl_policy) ||
	    !tb[HYBRIDNET_ATTR_SLOT])
		return -EPROTO;
	if (w->n == x->why_cap) {
		size_t cap = x->why_cap ? 2 * x->why_cap : 64;

		k = realloc(w->c, cap * sizeof(*k));
		if (!k)
			return -ENOMEM;
		w->c = k;
		x->why_cap = cap;
	}
	k = &w->c[w->n++];
	k->index = index;
	k->slot = nla_get_u32(tb[HYBRIDNET_ATTR_SLOT]);
	k->pinned = !!tb[HYBRIDNET_ATTR_PINNED];
	k->src_to = HN_CTL_NO_NODE;
	k->from_dst = HN_CTL_NO_NODE;
	nla_for_each_nested(a, nest, rem) {
		if (nla_type(a) != HYBRIDNET_ATTR_PAIR)
			continue;
		if (hn_ctl_get_pair(a, &p))
			return -EPROTO;
		if (p.src == x->g[index].src)
			k->src_to = p.dst;
		if (p.dst == x->g[index].dst)
			k->from_dst = p.src;
	}
	return 0;
}

static int predict_reply(struct nlattr **tb, struct nlmsghdr *nlh, void *arg)
{
	struct genlmsghdr *gh = nlmsg_data(nlh);
	struct predict_ctx *x = arg;
	struct nlattr *a, *k;
	int rem, krem, rc;

	if (x->why && tb[HYBRIDNET_ATTR_SLOTS])
		x->why->slots = nla_get_u32(tb[HYBRIDNET_ATTR_SLOTS]);
	nla_for_each_attr(a, genlmsg_attrdata(gh, 0), genlmsg_attrlen(gh, 0),
			  rem) {
		if (nla_type(a) != HYBRIDNET_ATTR_GRANT)
			continue;
		if (x->n == x->cap)
			return -EPROTO;		/* more grants than requests */
		if (hn_ctl_get_grant(a, &x->g[x->n]))
			return -EPROTO;
		nla_for_each_nested(k, a, krem) {
			if (!x->why || nla_type(k) != HYBRIDNET_ATTR_CONFLICT)
				continue;
			rc = get_conflict(x, k, (uint32_t)x->n);
			if (rc)
				return rc;
		}
		x->n++;
	}
	return 0;
}

int hn_ctl_predict(struct hn_ctl *c, const struct hn_ctl_pair *req, size_t n,
		   struct hn_ctl_grant *g)
{
	return hn_ctl_predict_why(c, req, n, g, NULL);
}

void hn_ctl_why_free(struct hn_ctl_why *why)
{
	if (!why)
		return;
	free(why->c);
	memset(why, 0, sizeof(*why));
}

int hn_ctl_predict_why(struct hn_ctl *c, const struct hn_ctl_pair *req,
		       size_t n, struct hn_ctl_grant *g, struct hn_ctl_why *why)
{
	struct predict_ctx x = { .g = g, .cap = n, .why = why };
	struct nl_msg *m;
	size_t i;
	int rc;

	if (why)
		memset(why, 0, sizeof(*why));
	c->err[0] = '\0';
	if (n && (!req || !g))
		return -EINVAL;
	m = hn_ctl_msg(c, HYBRIDNET_CMD_PREDICT, n * PAIR_BYTES, 0);
	if (!m)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		if (hn_ctl_put_pair(m, req[i].src, req[i].dst)) {
			nlmsg_free(m);
			return -EMSGSIZE;
		}
	}
	rc = hn_ctl_run(c, m, predict_reply, &x);
	if (rc)
		hn_ctl_why_free(why);
	return rc ? rc : (int)x.n;
}

int hn_ctl_release_pair(struct hn_ctl *c, uint32_t src, uint32_t dst)
{
	struct nl_msg *m = hn_ctl_msg(c, HYBRIDNET_CMD_RELEASE, PAIR_BYTES, 0);

	if (m && hn_ctl_put_pair(m, src, dst)) {
		nlmsg_free(m);
		return -EMSGSIZE;
	}
	return hn_ctl_run(c, m, NULL, NULL);
}

int hn_ctl_release_slot(struct hn_ctl *c, uint32_t slot)
{
	struct nl_msg *m = hn_ctl_msg(c, HYBRIDNET_CMD_RELEASE, 8, 0);

	if (m && nla_put_u32(m, HYBRIDNET_ATTR_SLOT, slot)) {
		nlmsg_free(m);
		return -EMSGSIZE;
	}
	return hn_ctl_run(c, m, NULL, NULL);
}

int hn_ctl_release_all(struct hn_ctl *c)
{
	struct nl_msg *m = hn_ctl_msg(c, HYBRIDNET_CMD_RELEASE, 4, 0);

	if (m && nla_put_flag(m, HYBRIDNET_ATTR_ALL)) {
		nlmsg_free(m);
		return -EMSGSIZE;
	}
	return hn_ctl_run(c, m, NULL, NULL);
}

struct dump_ctx {
	struct hn_ctl_circuits *out;
	size_t cap;
	int seen;			/* a generation was read */
	int changed;			/* and another one after it */
};

static int circuit_reply(struct nlattr **tb, struct nlmsghdr *nlh, void *arg)
{
	struct dump_ctx *x = arg;
	struct hn_ctl_circuits *o = x->out;
	struct hn_ctl_circuit *cc;

	(void)nlh;
	if (!tb[HYBRIDNET_ATTR_SLOT] || !tb[HYBRIDNET_ATTR_SRC] ||
	    !tb[HYBRIDNET_ATTR_DST])
		return -EPROTO;
	if (tb[HYBRIDNET_ATTR_GENERATION]) {
		uint32_t gen = nla_get_u32(tb[HYBRIDNET_ATTR_GENERATION]);

		if (x->seen && gen != o->generation)
			x->changed = 1;
		o->generation = gen;
		x->seen = 1;
	}
	if (o->n == x->cap) {
		size_t cap = x->cap ? 2 * x->cap : 256;

		cc = realloc(o->c, cap * sizeof(*cc));
		if (!cc)
			return -ENOMEM;
		o->c = cc;
		x->cap = cap;
	}
	cc = &o->c[o->n++];
	cc->slot = nla_get_u32(tb[HYBRIDNET_ATTR_SLOT]);
	cc->src = nla_get_u32(tb[HYBRIDNET_ATTR_SRC]);
	cc->dst = nla_get_u32(tb[HYBRIDNET_ATTR_DST]);
	cc->path.len = 0;
	if (tb[HYBRIDNET_ATTR_PATH]) {
		cc->path.len = nla_len(tb[HYBRIDNET_ATTR_PATH]);
		if (cc->path.len > HYBRIDNET_MAX_PATH)
			return -EPROTO;
		memcpy(cc->path.port, nla_data(tb[HYBRIDNET_ATTR_PATH]),
		       cc->path.len);
	}
	return 0;
}

int hn_ctl_circuits(struct hn_ctl *c, struct hn_ctl_circuits *out)
{
	struct dump_ctx x = { .out = out };
	int rc;

	memset(out, 0, sizeof(*out));
	rc = hn_ctl_run(c, hn_ctl_msg(c, HYBRIDNET_CMD_CIRCUIT_GET, 0,
				      NLM_F_DUMP), circuit_reply, &x);
	if (!rc && x.changed)
		rc = -EAGAIN;
	if (rc) {
		if (rc == -EAGAIN && !c->err[0])
			snprintf(c->err, sizeof(c->err),
				 "the circuit table changed during the dump");
		hn_ctl_circuits_free(out);
	}
	return rc;
}

void hn_ctl_circuits_free(struct hn_ctl_circuits *out)
{
	if (!out)
		return;
	free(out->c);
	out->c = NULL;
	out->n = 0;
}
