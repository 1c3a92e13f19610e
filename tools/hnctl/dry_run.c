// SPDX-License-Identifier: GPL-2.0
/*
 * dry_run.c - the fabric a request is checked against before it reaches
 * the kernel, and -n's checks by the module's own engine, run here in
 * user space (build/libhncore.a, the code of kmod/core/).
 *
 * The fabric: with -c FILE (a dry run only) that file's configuration;
 * else the loaded module's, read with CONFIG_GET, and for a dry run its
 * circuits too (the dump); else nothing is known, and a dry run checks
 * the syntax only.  A dry run with a known configuration builds an
 * engine of it, installs those circuits, and applies the request to it:
 * what the engine refuses is refused here in the words the module's
 * extack would use (hn_err_text()), and nothing is sent.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hnctl.h"
#include "dry_run.h"
#include "cfg_field.h"

int dry_fabric(struct hnctl *o, struct dry *d)
{
	char why[320];
	int rc;

	memset(d, 0, sizeof(*d));
	if (o->config_file) {
		if (config_file(o->config_file, &d->cfg, why, sizeof(why))) {
			fprintf(stderr, "hnctl: %s\n", why);
			return EXIT_USAGE;
		}
		d->from = o->config_file;
		return 0;
	}
	if (!o->dry_run) {
		rc = hnctl_connect(o);
	} else if (!o->ctl) {
		/* a dry run without the module checks the syntax only */
		rc = hn_ctl_open(&o->ctl);
		if (rc == -ENOENT)
			return 0;
		if (rc) {
			fprintf(stderr, "hnctl: %s\n", hn_ctl_strerror(NULL, rc));
			rc = EXIT_KERNEL;
		}
	} else {
		rc = 0;
	}
	if (!rc && (rc = hn_ctl_config_get(o->ctl, &d->cfg)) != 0)
		rc = hnctl_refused(o, "show", rc);
	d->from = "the fabric";
	return rc;
}

static void no_msg(void *ctx, struct hn_msg *m)
{
	(void)ctx;
	(void)m;
}

static const struct hn_ops dry_ops = { .deliver = no_msg, .reclaim = no_msg };

/* each field's attribute and member of struct hn_ctl_config */
static const struct {
	uint16_t attr;
	size_t off;
} fields[HN_CFG_NR] = {
#define HN_FIELD(f, A, param, nl, help, T, lo, hi, live, words)	\
	[HN_CFG_##f] = { HYBRIDNET_ATTR_##A,			\
			 offsetof(struct hn_ctl_config, param) },
#include "hn_fields.h"
#undef HN_FIELD
};

/* The engine's configuration of @in: its fields over the defaults. */
static int engine_config(const struct hn_ctl_config *in, struct hn_config *c,
			 struct hn_err *err)
{
	const char *p;
	int rc = 0;
	u32 i;

	hn_config_default(c);
	if (HN_CTL_HAS(in, HYBRIDNET_ATTR_PROFILE) && in->profile[0] &&
	    hn_config_profile(c, in->profile))
		return hn_fail(err, -EINVAL, "unknown profile", HN_NONE,
			       HN_NONE, HN_NONE);
	for (i = 0; i < HN_CFG_NR && !rc; i++) {
		if (!HN_CTL_HAS(in, fields[i].attr))
			continue;
		p = (const char *)in + fields[i].off;
		if (hn_cfg_fields[i].type == HN_CFG_STRING)
			rc = hn_cfg_fields[i].text.parse(c, p, err);
		else
			hn_cfg_set(c, i, hn_cfg_fields[i].type == HN_CFG_U64 ?
				   *(const uint64_t *)p : *(const uint32_t *)p);
	}
	return rc ? rc : hn_config_check(c, err);
}

/* Up-ports of a circuit's path: levels - 1 on a fat tree, else none. */
static uint32_t path_len(const struct hn_config *c)
{
	return c->topology ? c->levels - 1 : 0;
}

/*
 * @n slot configurations as the engine takes them, into @out (n of them)
 * and @mem (to free()): a fat tree's paths as L up-ports per pair.
 */
static int engine_slots(const struct hn_config *c,
			const struct hn_ctl_slot_cfg *in, size_t n,
			struct hn_slot_cfg *out, void **mem)
{
	uint32_t L = path_len(c), p, i;
	size_t total = 0, at = 0;
	struct hn_pair *pairs;
	uint8_t *ports;

	for (i = 0; i < n; i++)
		total += in[i].npairs;
	*mem = calloc(total ? total : 1, sizeof(*pairs) + L);
	if (!*mem)
		return -ENOMEM;
	pairs = *mem;
	ports = (uint8_t *)(pairs + total);
	for (i = 0; i < n; i++) {
		out[i].slot = in[i].slot;
		out[i].npairs = in[i].npairs;
		out[i].pairs = pairs + at;
		out[i].ports = in[i].paths && L ? ports + at * L : NULL;
		for (p = 0; p < in[i].npairs; p++, at++) {
			pairs[at].src = in[i].pairs[p].src;
			pairs[at].dst = in[i].pairs[p].dst;
			if (!out[i].ports)
				continue;
			memset(ports + at * L, HN_PORT_NONE, L);
			memcpy(ports + at * L, in[i].paths[p].port,
			       in[i].paths[p].len < L ? in[i].paths[p].len : L);
		}
	}
	return 0;
}

/* The module's circuits, into the engine: each slot as one preload. */
static int live_circuits(struct hnctl *o, struct dry *d)
{
	struct hn_ctl_slot_cfg in[HYBRIDNET_MAX_SLOTS] = { { 0 } };
	struct hn_slot_cfg sc[HYBRIDNET_MAX_SLOTS];
	struct hn_ctl_circuits t;
	struct hn_ctl_pair *pairs;
	struct hn_ctl_path *paths;
	struct hn_err err = { 0 };
	size_t i, n = 0;
	void *mem = NULL;
	int rc;

	rc = hnctl_circuits(o, &t);
	if (rc)
		return rc;
	pairs = calloc(t.n + 1, sizeof(*pairs));
	paths = calloc(t.n + 1, sizeof(*paths));
	rc = -ENOMEM;
	if (!pairs || !paths)
		goto out;
	for (i = 0; i < t.n; i++) {	/* by slot */
		if (!n || in[n - 1].slot != t.c[i].slot) {
			in[n].slot = t.c[i].slot;
			in[n].npairs = 0;
			in[n].pairs = pairs + i;
			in[n].paths = paths + i;
			n++;
		}
		pairs[i].src = t.c[i].src;
		pairs[i].dst = t.c[i].dst;
		paths[i] = t.c[i].path;
		in[n - 1].npairs++;
	}
	rc = engine_slots(hn_cfg(d->e), in, n, sc, &mem);
	if (!rc && n)
		rc = hn_preload(d->e, sc, (uint32_t)n, &err);
out:
	if (rc) {
		char msg[256];

		hn_err_text(msg, sizeof(msg), rc, &err,
			    "the module's circuits do not load here");
		fprintf(stderr, "hnctl: %s\n", msg);
		rc = EXIT_KERNEL;
	}
	free(mem);
	free(pairs);
	free(paths);
	hn_ctl_circuits_free(&t);
	return rc;
}

int dry_engine(struct hnctl *o, struct dry *d)
{
	struct hn_err err = { 0 };
	struct hn_config c;
	char msg[256];
	int rc;

	if (!o->dry_run || !hn_ctl_config_count(&d->cfg))
		return 0;
	rc = engine_config(&d->cfg, &c, &err);
	if (!rc)
		d->e = hn_create(&c, &dry_ops, NULL, &rc);
	if (!d->e) {
		hn_err_text(msg, sizeof(msg), rc, &err, "configuration");
		fprintf(stderr, "hnctl: %s: %s\n", d->from, msg);
		return EXIT_USAGE;
	}
	return o->config_file ? 0 : live_circuits(o, d);
}

int dry_preload(struct dry *d, const struct hn_ctl_slot_cfg *cfg, size_t n,
		int second)
{
	struct hn_slot_cfg sc[HYBRIDNET_MAX_SLOTS];
	struct hn_err err = { 0 };
	void *mem = NULL;
	char msg[256];
	int rc;

	if (!d->e || n > HYBRIDNET_MAX_SLOTS)	/* (the caller checks K) */
		return 0;
	rc = engine_slots(hn_cfg(d->e), cfg, n, sc, &mem);
	if (!rc)
		rc = second ? hn_preload_second(d->e, sc, (uint32_t)n, &err) :
		     hn_preload(d->e, sc, (uint32_t)n, &err);
	free(mem);
	if (!rc)
		return 0;
	hn_err_text(msg, sizeof(msg), rc, &err, "preload refused");
	fprintf(stderr, "hnctl: %s\n", msg);
	return EXIT_KERNEL;
}

void dry_free(struct dry *d)
{
	if (d->e)
		hn_destroy(d->e);
	d->e = NULL;
}
