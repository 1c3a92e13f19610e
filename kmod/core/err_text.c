// SPDX-License-Identifier: GPL-2.0
/*
 * err_text.c - an engine refusal (struct hn_err) as the one line of text
 * that the module's netlink extack gives and hnctl -n prints before
 * anything reaches the kernel: the same words wherever it is checked.
 */
#include "hn_core.h"

int hn_err_text(char *buf, size_t len, int rc, const struct hn_err *err,
		const char *what)
{
	const char *msg = err->msg ? err->msg : "refused";

	if (err->link && err->port != HN_NONE)
		return snprintf(buf, len,
				"%s: slot %u, pair %u:%u: %s: level %u, switch SW(%u,%u) up-port %u%s, held by %u:%u",
				what, err->slot, err->a.src, err->a.dst, msg,
				err->level, err->level, err->sw, err->port,
				err->down ? " coming down" : "",
				err->owner.src, err->owner.dst);
	if (err->link)
		return snprintf(buf, len,
				"%s: slot %u, pair %u:%u: %s: level %u, from switch SW(%u,%u)",
				what, err->slot, err->a.src, err->a.dst, msg,
				err->level, err->level, err->sw);
	if (rc == -EEXIST && err->slot != HN_NONE)
		return snprintf(buf, len,
				"%s: %u:%u for slot %u is already in slot %u",
				what, err->a.src, err->a.dst, err->slot,
				err->other);
	if (err->pairs)
		return snprintf(buf, len, "%s: %s in slot %u: %u:%u and %u:%u",
				what, msg, err->slot, err->a.src, err->a.dst,
				err->b.src, err->b.dst);
	if (err->slot != HN_NONE && err->node != HN_NONE)
		return snprintf(buf, len, "%s: %s (slot %u, node %u)", what,
				msg, err->slot, err->node);
	if (err->slot != HN_NONE)
		return snprintf(buf, len, "%s: %s (slot %u)", what, msg,
				err->slot);
	if (err->node != HN_NONE)
		return snprintf(buf, len, "%s: %s (node %u)", what, msg,
				err->node);
	return snprintf(buf, len, "%s: %s", what, msg);
}
