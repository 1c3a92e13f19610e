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

# run.sh boots again when the kernel logged a problem while booting, before
# the run (/init's HN-BOOT-REPORT): a stand-in qemu writes a boot report
# for its first HN_FAKE_BAD boots, then a clean run's results
d=$(mktemp -d)
trap 'rm -f "$t"; rm -rf "$d"' EXIT
cat >"$d/qemu" <<'QEMU'
#!/bin/bash
n=$(($(cat "$HN_FAKE/boots" 2>/dev/null || echo 0) + 1))
echo "$n" >"$HN_FAKE/boots"
files=()
for a in "$@"; do
	case $a in file:*) files+=("${a#file:}") ;; esac
done
if [ "$n" -le "$HN_FAKE_BAD" ]; then
	echo "[    1.0] BUG: KASAN: wild-memory-access in do_raw_spin_lock+0x12d/0x1dc" >"${files[0]}"
	printf 'HN-BOOT-REPORT\nHN-DMESG-BEGIN\nHN-DMESG-END\nHN-EXIT 125\n' >"${files[1]}"
else
	echo "[    1.0] clean" >"${files[0]}"
	printf 'ok 1 ran\nHN-DMESG-BEGIN\nHN-DMESG-END\nHN-EXIT 0\n' >"${files[1]}"
fi
QEMU
chmod +x "$d/qemu"
touch "$d/kernel" "$d/initrd"
boots() { # WANT-STATUS WANT-BOOTS BAD-BOOTS NAME [WANT-IN-STDERR]
	local rc=0
	n=$((n + 1))
	rm -rf "$d/boots" "$d/out"
	HN_QEMU=$d/qemu HN_FAKE=$d HN_FAKE_BAD=$3 \
		"$(dirname "$0")/run.sh" -k "$d/kernel" -t 10 -o "$d/out" \
		"$d/initrd" >"$d/stdout" 2>"$d/stderr" || rc=$?
	if [ "$rc" = "$1" ] && [ "$(cat "$d/boots")" = "$2" ] &&
	   grep -q -- "${5:-}" "$d/stderr"; then
		echo "ok $n $4"
	else
		echo "not ok $n $4 (status $rc, $(cat "$d/boots") boots)"
		sed 's/^/# /' "$d/stderr"
		bad=1
	fi
}
boots 0 1 0 "run.sh: a clean boot runs once"
boots 0 2 1 "run.sh: a boot whose kernel reported before the run boots again, saying so, and the run passes" \
	"wild-memory-access"
n=$((n + 1))
if [ -s "$d/out/boot-1.console.log" ]; then
	echo "ok $n run.sh: the first boot's console kept as boot-1.console.log"
else
	echo "not ok $n run.sh: the first boot's console kept as boot-1.console.log"
	bad=1
fi
boots 1 3 5 "run.sh: a kernel that reports at every boot fails after 3, saying so" \
	"in each of 3 boots"
echo "1..$n"
exit $bad
