// SPDX-License-Identifier: GPL-2.0
/*
 * hn_ctl_config.c - libhybridnet's control plane: HYBRIDNET_CMD_CONFIG_GET
 * and HYBRIDNET_CMD_CONFIG_SET.
 */
#include <errno.h>
#include <string.h>

#include "hn_ctl_int.h"

static int config_reply(struct nlattr **tb, struct nlmsghdr *nlh, void *arg)
{
	struct hn_ctl_config *cfg = arg;

	(void)nlh;
	return hn_ctl_get_config(tb, cfg);
}

int hn_ctl_config_get(struct hn_ctl *c, struct hn_ctl_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	return hn_ctl_run(c, hn_ctl_msg(c, HYBRIDNET_CMD_CONFIG_GET, 0, 0),
			  config_reply, cfg);
}

/* The reply: whether the fabric was rebuilt, and what that released. */
static int set_reply(struct nlattr **tb, struct nlmsghdr *nlh, void *arg)
{
	struct hn_ctl_change *chg = arg;

	(void)nlh;
	chg->rebuilt = !!tb[HYBRIDNET_ATTR_REBUILT];
	if (tb[HYBRIDNET_ATTR_RELEASED])
		chg->released = nla_get_u32(tb[HYBRIDNET_ATTR_RELEASED]);
	return 0;
}

unsigned int hn_ctl_config_count(const struct hn_ctl_config *cfg)
{
	unsigned int a, n = 0;

	for (a = 0; a <= HYBRIDNET_ATTR_MAX; a++)
		n += HN_CTL_HAS(cfg, a);
	return n;
}

int hn_ctl_config_set(struct hn_ctl *c, const struct hn_ctl_config *cfg)
{
	return hn_ctl_config_set_change(c, cfg, NULL);
}

int hn_ctl_put_config(struct nl_msg *m, const struct hn_ctl_config *cfg)
{
	const struct hn_ctl_field *f;
	int rc = 0;

	for (f = hn_ctl_config_fields; f->name; f++)
		if (f->readonly && HN_CTL_HAS(cfg, f->attr))
			return -EINVAL;
	for (f = hn_ctl_config_fields; f->name && !rc; f++) {
		const char *p = (const char *)cfg + f->off;

		if (!HN_CTL_HAS(cfg, f->attr))
			continue;
		switch (f->type) {
		case HN_CTL_U32:
			rc = nla_put_u32(m, f->attr, *(const uint32_t *)p);
			break;
		case HN_CTL_U64:
			rc = nla_put_u64(m, f->attr, *(const uint64_t *)p);
			break;
		default:
			rc = nla_put_string(m, f->attr, p);
			break;
		}
	}
	return rc ? -EMSGSIZE : 0;
}

int hn_ctl_config_set_change(struct hn_ctl *c, const struct hn_ctl_config *cfg,
			     struct hn_ctl_change *chg)
{
	struct nl_msg *m;
	int rc;

	c->err[0] = '\0';
	if (!hn_ctl_config_count(cfg))
		return -EINVAL;
	m = hn_ctl_msg(c, HYBRIDNET_CMD_CONFIG_SET, 512, 0);
	if (!m)
		return -ENOMEM;
	rc = hn_ctl_put_config(m, cfg);
	if (rc) {
		nlmsg_free(m);
		return rc;
	}
	if (chg)
		memset(chg, 0, sizeof(*chg));
	return hn_ctl_run(c, m, chg ? set_reply : NULL, chg);
}
