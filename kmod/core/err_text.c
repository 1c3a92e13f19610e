// SPDX-License-Identifier: GPL-2.0
/*
 * err_text.c - an engine refusal (struct hn_err) as the one line of text
 * that the module's netlink extack gives and hnctl -n prints before
 * anything reaches the kernel: the same words wherever it is checked,
 * a link and a switch named as hnctl links names them (fab_name.h).
 */
#include "hn_core.h"
#include "fab_name.h"		/* a link, a switch by name */

int hn_err_text(char *buf, size_t len, int rc, const struct hn_err *err,
		const char *what)
{
	const char *msg = err->msg ? err->msg : "refused";
	/*
	 * The link's lower end, or the switch; a channel's sender, on one
	 * level whose ports are all down-ports.
	 */
	struct hn_fab_name fn = {
		.kind = err->chan ? HN_FAB_DOWN :
			err->port != HN_NONE ? HN_FAB_UP : HN_FAB_SWITCH,
		.level = err->chan ? 0 : err->level,
		.index = err->sw, .port = err->port,
	};
	char name[HN_FAB_NAME_LEN];

	if (err->link)
		hn_fab_print(&fn, name, sizeof(name));
	if (err->link && err->owner.src == HN_NONE && err->port != HN_NONE)
		return snprintf(buf, len,	/* a link down: fault.c */
				"%s: slot %u, pair %u:%u: %s: %s %s",
				what, err->slot, err->a.src, err->a.dst, msg,
				err->chan ? "channel" : "link", name);
	if (err->link && err->chan)
		return snprintf(buf, len,
				"%s: slot %u, pair %u:%u: %s: channel %s, held by %u:%u",
				what, err->slot, err->a.src, err->a.dst, msg,
				name, err->owner.src, err->owner.dst);
	if (err->link && err->port != HN_NONE)
		return snprintf(buf, len,
				"%s: slot %u, pair %u:%u: %s: link %s %s, held by %u:%u",
				what, err->slot, err->a.src, err->a.dst, msg,
				name, err->down ? "down" : "up",
				err->owner.src, err->owner.dst);
	if (err->link)
		return snprintf(buf, len,
				"%s: slot %u, pair %u:%u: %s: from switch %s",
				what, err->slot, err->a.src, err->a.dst, msg,
				name);
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
