#!/bin/bash
# run.sh - boot an initramfs made by mkinitramfs.sh in a qemu (TCG) VM and
# collect/check the results of its /opt/hn/run.sh.
#
# Usage:
#   run.sh [-k KERNEL_IMAGE] [-t TIMEOUT_S] [-o OUTDIR] [--shell] [--host]
#          [--exit-status] INITRD
#
#   -k KERNEL   kernel image; default: newest /boot/vmlinuz-*-amd64 that has a
#               matching /usr/src/linux-headers-<ver> (modules must be built
#               against the booted kernel)
#   -t SECONDS  limit for the whole VM run (default 300), in CPU seconds
#               of qemu: a machine busy with other work makes the run slow,
#               never red; a guest that stops using the CPU meets the
#               wall-clock backstop, three times the limit
#   -o OUTDIR   where the logs go (created; default: a new /tmp/hn-vm.XXXXXX,
#               its path is printed on stderr)
#   --shell     interactive shell on this terminal (kernel arg hn.shell=1),
#               no timeout, no log checking. Leave with "exit" (powers the VM
#               off) or Ctrl-A x. With -o, what the VM writes to its second
#               serial port goes to OUTDIR/results.log.
#   --host      share the host's / read-only with the VM (virtio 9p, tag
#               "hnhost"; kernel arg hn.host=1): /init mounts it and makes
#               the tree hn-hostrun runs commands in (mkinitramfs.sh)
#   --exit-status  exit with /opt/hn/run.sh's status (HN-EXIT) rather
#               than 1 when it fails; 125 when the VM run itself failed
#               (timeout, crash, kernel warning)
#
# Environment:
#   HN_QEMU        qemu binary (default qemu-system-x86_64)
#   HN_QEMU_ARGS   extra qemu arguments (word-split), e.g. "-smp 4"
#   HN_APPEND      extra kernel command-line arguments
#   HN_BOOTS       boots at most, when the kernel logs a problem while it
#                  boots, before the run (default 3; below)
#   HN_DMESG_IGNORE  extended regex; matching log lines are exempt from the
#                    bad-pattern scan below (for known-benign messages)
#
# Normal mode: ttyS0 (kernel console) -> OUTDIR/console.log, ttyS1 (results
# channel) -> OUTDIR/results.log, which is split into OUTDIR/tap.log (output of
# /opt/hn/run.sh, everything before HN-DMESG-BEGIN) and OUTDIR/dmesg.log
# (between HN-DMESG-BEGIN and HN-DMESG-END). tap.log is printed on stdout.
# A kernel that logged such a problem while booting, before anything of the
# run's, is booted again (HN_BOOTS in all, default 3; the earlier boots'
# consoles kept as OUTDIR/boot-N.console.log); HN_DMESG_IGNORE does not
# apply to that look.
# Exit status 0 only if the VM finished in time, reported "HN-EXIT 0", and
# neither dmesg.log nor console.log contains a kernel warning/bug pattern
# (dmesg-scan.sh: warnings, BUGs, KASAN, UBSAN, lockdep, RCU stalls, lockups,
# hung tasks, the OOM killer, kmemleak); otherwise 1 with
# the reason (and offending lines) on stderr. Usage errors exit 2.
# The VM never uses KVM (-accel tcg); one boot takes roughly 5-7 s.
set -euo pipefail

prog=${0##*/}
die() { printf '%s: %s\n' "$prog" "$*" >&2; exit 1; }
usage() {
	sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0" >&2
	exit 2
}

kernel=""
tmo=300
outdir=""
shell=0
host=0
exitst=0
initrd=""
while [ $# -gt 0 ]; do
	case $1 in
	-k) [ $# -ge 2 ] || usage; kernel=$2; shift 2 ;;
	-t) [ $# -ge 2 ] || usage; tmo=$2; shift 2 ;;
	-o) [ $# -ge 2 ] || usage; outdir=$2; shift 2 ;;
	--shell) shell=1; shift ;;
	--host) host=1; shift ;;
	--exit-status) exitst=1; shift ;;
	-h | --help) usage ;;
	--) shift; break ;;
	-*) printf '%s: unknown option %s\n' "$prog" "$1" >&2; usage ;;
	*) [ -z "$initrd" ] || usage; initrd=$1; shift ;;
	esac
done
if [ $# -gt 0 ]; then
	if [ -n "$initrd" ] || [ $# -ne 1 ]; then usage; fi
	initrd=$1
fi
[ -n "$initrd" ] || { printf '%s: INITRD is required\n' "$prog" >&2; usage; }
[ -f "$initrd" ] || die "initrd not found: $initrd"
case $tmo in '' | *[!0-9]* | 0) die "bad timeout: $tmo" ;; esac

qemu=${HN_QEMU:-qemu-system-x86_64}
command -v "$qemu" >/dev/null || die "$qemu not found (install qemu-system-x86)"

# Newest installed kernel image that we also have headers for.
pick_kernel() {
	local img ver best=""
	while IFS= read -r img; do
		ver=${img#/boot/vmlinuz-}
		[ -d "/usr/src/linux-headers-$ver" ] && best=$img
	done < <(printf '%s\n' /boot/vmlinuz-*-amd64 | LC_ALL=C sort -V)
	[ -n "$best" ] && [ -e "$best" ] || return 1
	printf '%s\n' "$best"
}
if [ -z "$kernel" ]; then
	kernel=$(pick_kernel) ||
		die "no /boot/vmlinuz-*-amd64 with matching /usr/src/linux-headers-*; use -k"
fi
[ -r "$kernel" ] || die "kernel image not readable: $kernel"

# no_timer_check: a loaded host can starve TCG's guest through its
# timer-IRQ test at boot ("IO-APIC + timer doesn't work!", a panic)
append="console=ttyS0 panic=-1 quiet no_timer_check"
[ "$shell" = 0 ] || append+=" hn.shell=1"
[ "$host" = 0 ] || append+=" hn.host=1"
[ -z "${HN_APPEND:-}" ] || append+=" $HN_APPEND"

# shellcheck disable=SC2206 # word splitting of HN_QEMU_ARGS is intended
extra=(${HN_QEMU_ARGS:-})
qargs=(-accel tcg -cpu max -smp 2 -m 1024 -no-reboot
	-display none -nodefaults
	-kernel "$kernel" -initrd "$initrd" -append "$append")
# multidevs=remap: the host's / spans several file systems, whose inode
# numbers would otherwise collide in the VM
# shellcheck disable=SC2054 # the commas are qemu's
[ "$host" = 0 ] || qargs+=(-virtfs
	local,path=/,mount_tag=hnhost,security_model=none,readonly=on,multidevs=remap)

if [ "$shell" = 1 ]; then
	# Console (and qemu monitor, Ctrl-A c) on this terminal; no timeout;
	# the second serial port to OUTDIR/results.log with -o
	res=null
	[ -z "$outdir" ] || { mkdir -p "$outdir" && res=file:$outdir/results.log; }
	exec "$qemu" "${qargs[@]}" -serial mon:stdio -serial "$res" \
		${extra[@]+"${extra[@]}"}
fi

if [ -z "$outdir" ]; then
	outdir=$(mktemp -d "${TMPDIR:-/tmp}/hn-vm.XXXXXX")
	printf '%s: logs in %s\n' "$prog" "$outdir" >&2
fi
mkdir -p "$outdir"
console=$outdir/console.log
results=$outdir/results.log
tap=$outdir/tap.log
dmesg=$outdir/dmesg.log
rm -f "$console" "$results" "$tap" "$dmesg"

. "$(dirname "$0")/dmesg-scan.sh"

# A boot whose kernel logged a problem before anything of the run's
# (/init says HN-BOOT-REPORT and runs nothing) is the kernel's, not the
# run's: boot again, at most HN_BOOTS times (3) in all; the last one's logs
# decide, the others are kept as OUTDIR/boot-N.console.log.
boots=${HN_BOOTS:-3}
case $boots in '' | *[!0-9]* | 0) die "bad HN_BOOTS: $boots" ;; esac
# Stop qemu (@1) once it has used @2 CPU seconds, or after 3 x @2 s of
# wall clock (a guest stuck without using the CPU); its mark, @3, says so.
watchdog() {
	local pid=$1 lim=$2 mark=$3 tck cpu t0=$SECONDS

	tck=$(getconf CLK_TCK)
	while kill -0 "$pid" 2>/dev/null; do
		sleep 2
		# utime + stime, fields 14 and 15 (qemu's name has no space)
		cpu=$(awk -v t="$tck" '{ print int(($14 + $15) / t) }' \
			"/proc/$pid/stat" 2>/dev/null) || return 0
		if [ "${cpu:-0}" -ge "$lim" ] ||
		   [ $((SECONDS - t0)) -ge $((3 * lim)) ]; then
			: > "$mark"
			kill -TERM "$pid" 2>/dev/null
			sleep 10
			kill -KILL "$pid" 2>/dev/null
			return 0
		fi
	done
}

start=$(date +%s.%N)
for ((boot = 1; ; boot++)); do
	"$qemu" "${qargs[@]}" -monitor none \
		-serial "file:$console" -serial "file:$results" \
		${extra[@]+"${extra[@]}"} </dev/null &
	qpid=$!
	rm -f "$outdir/.timeout"
	watchdog "$qpid" "$tmo" "$outdir/.timeout" &
	wpid=$!
	trap 'kill -TERM "$qpid" "$wpid" 2>/dev/null; wait "$qpid" 2>/dev/null; exit 130' INT TERM
	qrc=0
	wait "$qpid" || qrc=$?
	kill "$wpid" 2>/dev/null || :
	wait "$wpid" 2>/dev/null || :
	if [ -e "$outdir/.timeout" ]; then
		qrc=124
	fi
	rm -f "$outdir/.timeout"
	trap - INT TERM
	touch "$console" "$results"
	if [ "$boot" -ge "$boots" ] ||
	   ! grep -aq '^HN-BOOT-REPORT' "$results"; then
		break
	fi
	printf '%s: the kernel logged a problem while booting, before the run (boot %s of at most %s); booting again:\n' \
		"$prog" "$boot" "$boots" >&2
	hn_dmesg_scan "$console" | head -n 5 | sed 's/^/  /' >&2
	mv "$console" "$outdir/boot-$boot.console.log"
	rm -f "$results"
done
elapsed=$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1f", e - s }')

# Split the results channel. Tolerate CRs and a marker that does not start a
# line (run.sh output without a trailing newline).
awk -v tap="$tap" -v dm="$dmesg" '
	BEGIN { state = 0; printf "" > tap; printf "" > dm }
	{ sub(/\r+$/, "") }
	state == 0 {
		i = index($0, "HN-DMESG-BEGIN")
		if (i) {
			if (i > 1) print substr($0, 1, i - 1) > tap
			state = 1
		} else {
			print > tap
		}
		next
	}
	state == 1 { if ($0 == "HN-DMESG-END") state = 2; else print > dm; next }
' "$results"
hn_exit=$(awk '
	{ sub(/\r+$/, "") }
	$0 == "HN-DMESG-END" { after = 1; next }
	after && /^HN-EXIT [0-9]+$/ { rc = $2 }
	END { print rc }
' "$results")

cat "$tap"

fail=0
if [ "$qrc" -eq 124 ] || [ "$qrc" -eq 137 ]; then
	printf '%s: FAIL: VM timed out after %s s (limit %s s of CPU, %s of wall clock); see %s\n' \
		"$prog" "$elapsed" "$tmo" $((3 * tmo)) "$console" >&2
	fail=1
elif [ "$qrc" -ne 0 ]; then
	printf '%s: FAIL: qemu exited with status %s; see %s\n' \
		"$prog" "$qrc" "$console" >&2
	fail=1
fi
if [ -z "$hn_exit" ]; then
	printf '%s: FAIL: no HN-EXIT line in %s (VM crashed or hung?)\n' \
		"$prog" "$results" >&2
	if [ -s "$console" ]; then
		{
			grep -m 5 -E 'Kernel panic|BUG:|Oops|WARNING:' "$console" || true
			echo '...'
			tail -n 10 "$console"
		} | sed 's/^/  console: /' >&2
	fi
	fail=1
elif [ "$hn_exit" -ne 0 ] && [ "$exitst" = 0 ]; then
	printf '%s: FAIL: test script exited with status %s\n' "$prog" "$hn_exit" >&2
	fail=1
fi

if grep -aq '^HN-BOOT-REPORT' "$results"; then
	printf '%s: FAIL: the kernel logged a problem while booting, before the run, in each of %s boots\n' \
		"$prog" "$boot" >&2
	fail=1
fi
for f in "$dmesg" "$console"; do
	hits=$(hn_dmesg_scan "$f")
	[ -n "$hits" ] || continue
	printf '%s: FAIL: kernel problems in %s:\n' "$prog" "$f" >&2
	printf '%s\n' "$hits" | head -n 50 | sed 's/^/  /' >&2
	fail=1
done

if [ "$fail" -ne 0 ]; then
	printf '%s: logs in %s\n' "$prog" "$outdir" >&2
	[ "$exitst" = 0 ] || exit 125
	exit 1
fi
if [ "$exitst" = 1 ]; then
	printf '%s: VM run OK in %s s, exit status %s\n' "$prog" "$elapsed" "$hn_exit" >&2
	exit "$hn_exit"
fi
printf '%s: VM run OK in %s s\n' "$prog" "$elapsed" >&2
