#!/bin/bash
# selftest.sh - self-check of the VM test harness (mkinitramfs.sh + run.sh).
#
# Usage:
#   selftest.sh [-k KERNEL_IMAGE]
#
# Builds a throw-away initramfs whose test script emits TAP for two trivial
# checks (/proc/version readable, devtmpfs-populated /dev), boots it with
# run.sh and verifies that the VM finished, reported HN-EXIT 0, produced that
# TAP on the results channel and a dmesg section. Needs no kernel module.
#
# Prints exactly one TAP line on stdout:
#   ok 1 vm harness boots and reports
#   not ok 1 vm harness boots and reports        (details as "# ..." on stderr)
#   ok 1 vm harness boots and reports # SKIP ...  (qemu/busybox/kernel missing)
# Exit status: 0 for ok/SKIP, 1 for not ok, 2 for usage errors.
# Set HN_SELFTEST_KEEP=1 to keep the temp dir (its path goes to stderr).
# Takes about 7 s (one TCG boot).
set -euo pipefail

prog=${0##*/}
name="vm harness boots and reports"
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

kargs=()
while getopts ":k:h" opt; do
	case $opt in
	k) kargs=(-k "$OPTARG") ;;
	*)
		sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0" >&2
		exit 2
		;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 0 ] || { printf '%s: unexpected argument: %s\n' "$prog" "$1" >&2; exit 2; }

skip() { printf 'ok 1 %s # SKIP %s\n' "$name" "$*"; exit 0; }
command -v qemu-system-x86_64 >/dev/null || skip "qemu-system-x86_64 not installed"
[ -x "${BUSYBOX:-/bin/busybox}" ] || skip "static busybox not installed"
command -v cpio >/dev/null || skip "cpio not installed"
if [ ${#kargs[@]} -eq 0 ] && ! compgen -G '/boot/vmlinuz-*-amd64' >/dev/null; then
	skip "no /boot/vmlinuz-*-amd64"
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/hn-selftest.XXXXXX")
if [ "${HN_SELFTEST_KEEP:-0}" = 1 ]; then
	printf '# %s: keeping %s\n' "$prog" "$tmp" >&2
else
	trap 'rm -rf "$tmp"' EXIT
fi

reasons=()
fail() { reasons+=("$*"); }

cat >"$tmp/run.sh" <<'EOF'
#!/bin/sh
# In-VM part of selftests/vm/selftest.sh.
echo "1..2"
rc=0
if grep -q '^Linux version' /proc/version; then
	echo "ok 1 /proc/version readable"
else
	echo "not ok 1 /proc/version readable"; rc=1
fi
if grep -q ' /dev devtmpfs ' /proc/mounts && [ -c /dev/zero ] && [ -c /dev/ttyS0 ]; then
	echo "ok 2 /dev populated"
else
	echo "not ok 2 /dev populated"; rc=1
fi
exit $rc
EOF

if ! "$here/mkinitramfs.sh" -o "$tmp/initrd.gz" -s "$tmp/run.sh" \
	>"$tmp/mkinitramfs.out" 2>&1; then
	fail "mkinitramfs.sh failed"
else
	rrc=0
	"$here/run.sh" ${kargs[@]+"${kargs[@]}"} -t 120 -o "$tmp/out" "$tmp/initrd.gz" \
		>"$tmp/run.out" 2>"$tmp/run.err" || rrc=$?
	[ "$rrc" -eq 0 ] || fail "run.sh exited with status $rrc"
	expected=$'1..2\nok 1 /proc/version readable\nok 2 /dev populated'
	if [ ! -f "$tmp/out/tap.log" ]; then
		fail "no tap.log"
	elif [ "$(cat "$tmp/out/tap.log")" != "$expected" ]; then
		fail "tap.log differs from the expected TAP"
	elif ! cmp -s "$tmp/out/tap.log" "$tmp/run.out"; then
		fail "run.sh did not print tap.log on stdout"
	fi
	grep -q 'Linux version' "$tmp/out/dmesg.log" 2>/dev/null ||
		fail "dmesg.log missing or without the kernel banner"
	grep -qx 'HN-EXIT 0' "$tmp/out/results.log" 2>/dev/null ||
		fail "results.log has no 'HN-EXIT 0'"
fi

if [ ${#reasons[@]} -eq 0 ]; then
	printf 'ok 1 %s\n' "$name"
	exit 0
fi
printf 'not ok 1 %s\n' "$name"
{
	printf '%s\n' "${reasons[@]}"
	for f in mkinitramfs.out run.out run.err out/console.log; do
		[ -s "$tmp/$f" ] || continue
		printf -- '--- %s (last 20 lines)\n' "$f"
		tail -n 20 "$tmp/$f"
	done
} | sed 's/^/# /' >&2
exit 1
