#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# test-dmesg-scan.sh - the VM's log scan catches every kind of kernel
# report a module test must fail on, and passes a clean boot.  TAP.
set -uo pipefail
. "$(dirname "$0")/dmesg-scan.sh"

n=0 bad=0
t=$(mktemp)
trap 'rm -f "$t"' EXIT
check() { # WANT(0 clean, 1 caught) NAME LINE
	local hits
	n=$((n + 1))
	printf '%s\n' "$3" >"$t"
	hits=$(hn_dmesg_scan "$t")
	if { [ "$1" = 1 ] && [ -n "$hits" ]; } ||
	   { [ "$1" = 0 ] && [ -z "$hits" ]; }; then
		echo "ok $n $2"
	else
		echo "not ok $n $2"
		bad=1
	fi
}

check 1 "warning" "[   12.1] WARNING: CPU: 1 PID: 80 at kmod/clock.c:10 hn_clock_fn+0x1/0x2 [hybridnet]"
check 1 "KASAN" "[   12.1] BUG: KASAN: slab-use-after-free in hn_port_pop+0x20/0x80"
check 1 "UBSAN" "[   12.1] UBSAN: shift-out-of-bounds in kmod/core/stats.c:40:9"
check 1 "lockdep" "[   12.1] WARNING: possible circular locking dependency detected"
check 1 "RCU stall" "[   30.0] rcu: INFO: rcu_preempt self-detected stall on CPU"
check 1 "RCU stall, other CPUs" "[   30.0] rcu: INFO: rcu_sched detected stalls on CPUs/tasks:"
check 1 "soft lockup" "[   30.0] watchdog: BUG: soft lockup - CPU#0 stuck for 22s! [hybridnet:80]"
check 1 "hard lockup" "[   30.0] NMI watchdog: Watchdog detected hard LOCKUP on cpu 1"
check 1 "hung task" "[  150.0] INFO: task hnctl:99 blocked for more than 120 seconds."
check 1 "OOM killer" "[   40.0] hybridnet invoked oom-killer: gfp_mask=0xcc0(GFP_KERNEL), order=0"
check 1 "OOM kill" "[   40.0] Out of memory: Killed process 57 (init) total-vm:2248kB"
check 1 "kmemleak" "[   60.0] kmemleak: 3 new suspected memory leaks (see /sys/kernel/debug/kmemleak)"
check 1 "kmemleak report" "unreferenced object 0xffff888003a4c000 (size 64):"
check 1 "panic" "[   40.1] Kernel panic - not syncing: System is deadlocked on memory"
check 1 "unknown module parameter" "[    5.2] hybridnet: unknown parameter 'node' ignored"
check 0 "a clean load" "[    5.2] hybridnet: 16 nodes, 4 predictive slots, profile ding4, free clock"
echo "1..$n"
exit $bad
