#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# dmesg-scan.sh - what in a kernel log fails a VM run: warnings, BUGs and
# Oopses, KASAN, UBSAN and lockdep reports, list and refcount corruption,
# RCU stalls, soft and hard lockups, hung tasks, the OOM killer,
# kmemleak's suspected leaks, and a parameter a module does not know.
# Sourced by run.sh; tested by test-dmesg-scan.sh.
#
#   hn_dmesg_scan FILE   the offending lines of FILE on stdout (none: clean)
#
# HN_DMESG_IGNORE, an extended regex, drops known-benign lines.

hn_dmesg_bad='WARNING:|BUG:|Oops|general protection fault|Call Trace|UBSAN:|KASAN:'
# lockdep
hn_dmesg_bad+='|possible circular locking|possible recursive locking'
hn_dmesg_bad+='|inconsistent lock state|suspicious RCU usage'
hn_dmesg_bad+='|kernel BUG|refcount_t:|list_add corruption|list_del corruption'
# stalls and lockups
hn_dmesg_bad+='|rcu: INFO: .* detected stall|self-detected stall'
hn_dmesg_bad+='|detected stalls on CPUs|soft lockup|hard LOCKUP'
hn_dmesg_bad+='|INFO: task .* blocked for more than'
# memory
hn_dmesg_bad+='|invoked oom-killer|Out of memory|oom-kill:'
hn_dmesg_bad+='|unreferenced object 0x|kmemleak: [0-9]+ new suspected'
hn_dmesg_bad+='|Kernel panic'
# a module loaded with a parameter it does not have (the kernel loads it
# anyway, with the default)
hn_dmesg_bad+="|unknown parameter '.*' ignored"

hn_dmesg_scan() {
	if [ -n "${HN_DMESG_IGNORE:-}" ]; then
		grep -aE -- "$hn_dmesg_bad" "$1" |
			grep -aEv -- "$HN_DMESG_IGNORE" || true
	else
		grep -aE -- "$hn_dmesg_bad" "$1" || true
	fi
}
