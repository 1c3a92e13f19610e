#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# vm-cmd.sh - make vm-run and make vm-shell: boot the VM with the host's
# tree shared read-only (selftests/vm/run.sh --host), load hybridnet.ko
# with the given parameters, then run a command of the host, or a shell,
# in that tree.
#
# Usage:
#   vm-cmd.sh -k KERNEL [-t SECONDS] [-o OUTDIR] [-p PARAMS] [-C DIR]
#             [-P DIR] INITRD CMD
#   vm-cmd.sh -k KERNEL [-p PARAMS] [-C DIR] [-P DIR] --shell INITRD
#
#   -k KERNEL   the kernel image the VM boots (the module's kernel)
#   -t SECONDS  the VM's wall-clock limit (default 300)
#   -o OUTDIR   where the logs go (default: a new /tmp/hn-vm.XXXXXX)
#   -p PARAMS   module parameters, e.g. "nodes=16 slots=4 profile=ding5"
#   -C DIR      the directory CMD runs in, a path on the host (default .)
#   -P DIR      put DIR first on the VM's PATH (the build tree's tools)
#   --shell     an interactive shell there instead of CMD
#
# CMD is a shell command line, run by the host's /bin/sh in the VM, in the
# host's tree: programs, libraries and files at their host paths (a RAM
# overlay on top, so what it writes stays in the VM).  Its output
# (stdout and stderr, one stream) is printed when the VM has stopped;
# vm-cmd.sh exits with CMD's status.  125 means the command did not run
# to its end: the module refused PARAMS (or the kernel ignored one it does
# not know: hn-load.sh), the VM timed out or crashed, or the kernel logged
# a warning (the reason is on stderr).  --shell exits with the shell's
# status, 125 when the module refused PARAMS.
set -euo pipefail

prog=${0##*/}
die() { printf '%s: %s\n' "$prog" "$*" >&2; exit 125; }
usage() {
	sed -n '3,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0" >&2
	exit 125
}
here=$(cd "$(dirname "$0")" && pwd)

kernel=""
tmo=300
outdir=""
params=""
cwd=$PWD
path=""
shell=0
while [ $# -gt 0 ]; do
	case $1 in
	-k) [ $# -ge 2 ] || usage; kernel=$2; shift 2 ;;
	-t) [ $# -ge 2 ] || usage; tmo=$2; shift 2 ;;
	-o) [ $# -ge 2 ] || usage; outdir=$2; shift 2 ;;
	-p) [ $# -ge 2 ] || usage; params=$2; shift 2 ;;
	-C) [ $# -ge 2 ] || usage; cwd=$(cd "$2" && pwd) || exit 125; shift 2 ;;
	-P) [ $# -ge 2 ] || usage; path=$2; shift 2 ;;
	--shell) shell=1; shift ;;
	-h | --help) usage ;;
	-*) printf '%s: unknown option %s\n' "$prog" "$1" >&2; usage ;;
	*) break ;;
	esac
done
[ $# -ge 1 ] || usage
initrd=$1
shift
if [ "$shell" = 1 ]; then
	[ $# -eq 0 ] || usage
	cmd=""
else
	[ $# -eq 1 ] && [ -n "$1" ] ||
		die "no command: make vm-run CMD='build/samples/pingpong'"
	cmd=$1
fi
[ -n "$kernel" ] || usage
[ -f "$initrd" ] || die "no initramfs $initrd"

# The job: /etc/hn-job, which the VM's run.sh (hn.run=cmd) or the
# shell's /etc/profile reads, in a cpio archive appended to the initramfs
# (the kernel unpacks one after the other).
sq() { printf "'%s'" "${1//\'/\'\\\'\'}"; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hn-vm-cmd.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/root/etc"
{
	echo "HN_PARAMS=$(sq "$params")"
	echo "HN_CWD=$(sq "$cwd")"
	echo "HN_CMD=$(sq "$cmd")"
	echo "HN_PATH=$(sq "$path")"
} >"$tmp/root/etc/hn-job"
if [ "$shell" = 1 ]; then
	# the shell's status, or 125 when the module refused PARAMS, goes
	# to the second serial port: run.sh -o writes it to results.log
	cat >"$tmp/root/etc/profile" <<'EOF'
. /etc/hn-job
if ! hn-load.sh $HN_PARAMS; then
	echo "vm-shell: insmod hybridnet.ko $HN_PARAMS failed: no shell"
	echo "HN-EXIT 125" >/dev/ttyS1
	poweroff -f
fi
echo "hybridnet loaded${HN_PARAMS:+ with $HN_PARAMS}: /dev/hybridnet, /sys/class/hybridnet/fabric0"
if [ -x /newroot/bin/sh ]; then
	echo "A shell in the host's tree, read-only under a RAM overlay (what you write"
	echo "is gone at exit); the VM's test programs are in /run/hn."
	echo "exit powers the VM off."
	export HN_PATH
	hn-hostrun "$HN_CWD" 'if command -v bash >/dev/null; then exec bash -i; fi; exec sh -i'
	echo "HN-EXIT $?" >/dev/ttyS1
	poweroff -f
fi
echo "No host tree (no 9p in this kernel?): the initramfs's busybox only;"
echo "the VM's test programs are in /opt/hn."
EOF
fi
(cd "$tmp/root" && find . -mindepth 1 | cpio -o -H newc -R 0:0 --quiet |
	gzip -n) >"$tmp/job.cpio.gz"
cat "$initrd" "$tmp/job.cpio.gz" >"$tmp/initrd.gz"

if [ "$shell" = 1 ]; then
	"$here/../../vm/run.sh" -k "$kernel" --host --shell -o "$tmp" \
		"$tmp/initrd.gz" || exit 125
	rc=$(tr -d '\r' <"$tmp/results.log" | sed -n 's/^HN-EXIT \([0-9]*\)$/\1/p' | tail -n 1)
	printf 'vm-shell: exit status %s\n' "${rc:=0}" >&2
	exit "$rc"
fi
rc=0
HN_APPEND="hn.run=cmd" "$here/../../vm/run.sh" -k "$kernel" -t "$tmo" \
	${outdir:+-o "$outdir"} --host --exit-status "$tmp/initrd.gz" || rc=$?
if [ "$rc" = 125 ]; then
	printf 'vm-run: the command did not run to its end (status 125)\n' >&2
else
	printf 'vm-run: exit status %s\n' "$rc" >&2
fi
exit "$rc"
