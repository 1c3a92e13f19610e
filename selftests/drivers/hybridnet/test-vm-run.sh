#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# test-vm-run.sh O - make check-vm-run: "make vm-run" as a user calls it,
# in five boots (about a minute).  Prints TAP.
#  0. The C that docs/tutorial.md shows is samples/pingpong.c's and
#     samples/circuit.c's.
#  1. A file dropped into O/vm/bin/ makes the initramfs out of date, and
#     is in the VM (at /run/hn) at the next vm-run.
#  2. HN_PARAMS="nodes=16 slots=4 profile=ding5 preload=shift" and a command
#     line with quotes and a $: vm-run-guest.sh's checks, run in the VM
#     (the module's config/, the tutorial's pingpong linked against the
#     build tree, hnctl stats, sysfs, its circuit, Debian's ip with the
#     link kind's plugin, python3), each a TAP line here; then "exit 42",
#     which vm-run must hand back; what the command wrote is not on the
#     host.
#  3. HN_PARAMS the module refuses: status 125, and the kernel's reason;
#     a parameter the module does not have (the kernel would load it with
#     its defaults and only log "unknown parameter 'node' ignored"): the
#     same.
#  4. make vm-shell on a terminal: its banner names one directory of test
#     programs, a shell prompt shows, a command runs, "exit 3" is make
#     vm-shell's status; and a parameter the module does not have fails
#     it with the kernel's line, no shell.
set -u
cd "$(dirname "$0")/../../.." || exit 1
O=${1:-build}
T=$(mktemp -d)
probe=$O/vm/bin/hn-probe.sh
# a host file under /tmp, where a clone (CI's, say) may live
intmp=$(mktemp /tmp/hn-vm-run.XXXXXX)
trap 'rm -rf "$T"; rm -f "$probe" "$intmp"' EXIT
. selftests/tap.sh
MAKE=${MAKE:-make}
vmrun() { # vmrun OUTFILE make-arguments...: make's status
	local out=$1
	shift
	$MAKE -s --no-print-directory O="$O" vm-run "$@" \
		>"$out" 2>&1
}

# 0. the tutorial shows the program that runs below
python3 - docs/tutorial.md samples/pingpong.c samples/circuit.c >"$T/doc.out" 2>&1 <<'EOF'
import re, sys
doc = open(sys.argv[1]).read()
src = [open(f).read() for f in sys.argv[2:]]
blocks = re.findall(r"^```c\n(.*?)^```", doc, re.S | re.M)
bad = [b for b in blocks if not any(b in s for s in src)]
for b in bad:
    print("in no sample of " + " ".join(sys.argv[2:]) + ":\n" + b)
print(len(blocks), "blocks")
sys.exit(1 if bad or not blocks else 0)
EOF
report "$([ $? -eq 0 ] && echo 1 || echo 0)" \
	"docs/tutorial.md's C is samples/pingpong.c's and circuit.c's, verbatim ($(tail -n 1 "$T/doc.out"))" \
	"$T/doc.out"

# 1. the initramfs follows $O/vm/bin/
$MAKE -s --no-print-directory O="$O" vm-initrd >"$T/initrd.out" 2>&1
check "make vm-initrd" test -s "$O/vm/initrd.gz"
token=probe-$$-$(date +%s%N)
printf '#!/bin/sh\necho %s\n' "$token" >"$probe"
echo "$token in /tmp" >"$intmp"
chmod +x "$probe"
rc=0
$MAKE -q --no-print-directory O="$O" vm-initrd || rc=$?
report "$([ $rc -eq 1 ] && echo 1 || echo 0)" \
	"a file dropped into $O/vm/bin/ makes the initramfs out of date (make -q: $rc)"

# 2. one boot: the guest's checks, quoting, the exit status
rm -f "$O/vm-run-written"
rc=0
vmrun "$T/run.out" HN_PARAMS="nodes=16 slots=4 profile=ding5 preload=shift" \
	CMD="echo \"it's \$HOME\"; /run/hn/hn-probe.sh; cat $intmp; selftests/drivers/hybridnet/vm-run-guest.sh $O && exit 42" ||
	rc=$?
sed 's/^/# /' "$T/run.out"
awk '/^ok - / { print "1\t" substr($0, 6) } /^not ok - / { print "0\t" substr($0, 10) }' \
	"$T/run.out" >"$T/guest"
while IFS=$'\t' read -r ok desc; do
	report "$ok" "in the VM: $desc"
done <"$T/guest"
report "$([ "$(wc -l <"$T/guest")" -eq 11 ] && echo 1 || echo 0)" \
	"the VM ran all 11 checks of vm-run-guest.sh ($(wc -l <"$T/guest"))"
report "$(grep -qx "it's /root" "$T/run.out" && echo 1 || echo 0)" \
	"CMD reaches the VM's shell verbatim: quotes, and a \$ it expands there"
report "$(grep -qx "$token" "$T/run.out" && echo 1 || echo 0)" \
	"the file dropped into $O/vm/bin/ runs in the VM as /run/hn/${probe##*/}"
report "$(grep -qx "$token in /tmp" "$T/run.out" && echo 1 || echo 0)" \
	"the host's /tmp is the VM's: $intmp is there (a tree under /tmp runs)"
report "$([ $rc -ne 0 ] && grep -qx 'vm-run: exit status 42' "$T/run.out" &&
	grep -q 'vm-run\] Error 42$' "$T/run.out" && echo 1 || echo 0)" \
	"make vm-run prints the command's exit status (42) and fails with it"
report "$([ ! -e "$O/vm-run-written" ] && echo 1 || echo 0)" \
	"the host's tree is read-only to the VM: $O/vm-run-written is not on the host"

# 3. the module refuses its parameters: 125 and why
rc=0
vmrun "$T/bad.out" HN_PARAMS="nodes=1" CMD=true || rc=$?
sed 's/^/# /' "$T/bad.out"
report "$([ $rc -ne 0 ] && grep -q 'nodes=1: out of range' "$T/bad.out" &&
	grep -q 'vm-run\] Error 125$' "$T/bad.out" && echo 1 || echo 0)" \
	"HN_PARAMS=nodes=1: the kernel's reason, and status 125"
# run.sh's limit is qemu's CPU time (a loaded host makes a run slow, never
# red), with the wall clock's, three times it, for a guest that stops
# using the CPU: a busy loop meets the first, a sleep the second
rc=0
vmrun "$T/busy.out" HN_VM_TIMEOUT=20 CMD="while :; do :; done" || rc=$?
sed 's/^/# /' "$T/busy.out"
el=$(sed -n 's/.*VM timed out after \([0-9]*\).*/\1/p' "$T/busy.out")
report "$([ $rc -ne 0 ] && [ -n "$el" ] && [ "$el" -lt 60 ] &&
	grep -q 'limit 20 s of CPU, 60 of wall clock' "$T/busy.out" &&
	grep -q 'vm-run\] Error 125$' "$T/busy.out" && echo 1 || echo 0)" \
	"a busy loop meets HN_VM_TIMEOUT=20 s of qemu's CPU (after ${el:-?} s), status 125"
rc=0
vmrun "$T/idle.out" HN_VM_TIMEOUT=20 CMD="sleep 600" || rc=$?
sed 's/^/# /' "$T/idle.out"
el=$(sed -n 's/.*VM timed out after \([0-9]*\).*/\1/p' "$T/idle.out")
report "$([ $rc -ne 0 ] && [ -n "$el" ] && [ "$el" -ge 60 ] &&
	grep -q 'vm-run\] Error 125$' "$T/idle.out" && echo 1 || echo 0)" \
	"a guest asleep meets the wall clock's backstop, 3 x 20 s (after ${el:-?} s), status 125"

rc=0
vmrun "$T/unknown.out" HN_PARAMS="nodes=4 node=4" CMD=true || rc=$?
sed 's/^/# /' "$T/unknown.out"
report "$([ $rc -ne 0 ] && grep -q "^hybridnet: unknown parameter 'node' ignored" "$T/unknown.out" &&
	grep -q 'vm-run\] Error 125$' "$T/unknown.out" && echo 1 || echo 0)" \
	"HN_PARAMS=\"nodes=4 node=4\" (no such parameter): the kernel's line, and status 125"

# 4. make vm-shell on a terminal: TERM ON-PROMPT... types each ON-PROMPT
# line when a prompt ($ or # at the end of the output) shows; the
# transcript to stdout; make's status
vmshell() {
	python3 - "$MAKE" "$O" "$@" <<'EOF'
import os, pty, re, select, sys, time
make, o, params, lines = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
pid, fd = pty.fork()
if pid == 0:
    os.execvp(make, [make, "-s", "--no-print-directory", "O=" + o, "vm-shell",
                     "HN_PARAMS=" + params])
out, seen, end = b"", 0, time.time() + 240
while time.time() < end:
    if select.select([fd], [], [], 1)[0]:
        try:
            b = os.read(fd, 4096)
        except OSError:
            break
        if not b:
            break
        out += b
    if lines and re.search(rb"[#$] $", out[seen:]):
        seen = len(out)
        os.write(fd, lines.pop(0).encode() + b"\n")
# without the terminal's escapes (bracketed paste, colours)
os.write(1, re.sub(rb"\x1b\[[0-9;?]*[A-Za-z]|\r", b"", out))
_, st = os.waitpid(pid, 0)
sys.exit(os.waitstatus_to_exitcode(st))
EOF
}
rc=0
vmshell "nodes=4" "echo in-the-shell-\$((6 * 7)) \$PWD" "exit 3" >"$T/shell.out" 2>&1 || rc=$?
sed 's/^/# /' "$T/shell.out"
sed -n '/^hybridnet VM shell/,/[#$] $/p' "$T/shell.out" | head -n 20 >"$T/banner"
dirs=$(grep -oE '/(opt|run)/hn\b' "$T/banner" | sort -u | tr '\n' ' ')
report "$([ "$dirs" = "/run/hn " ] && echo 1 || echo 0)" \
	"make vm-shell: the banner names one directory of test programs, /run/hn (${dirs:-none})"
report "$(grep -qE '[#$] echo in-the-shell' "$T/shell.out" && echo 1 || echo 0)" \
	"make vm-shell: a shell prompt shows before the command"
report "$(grep -qx "in-the-shell-42 $PWD" "$T/shell.out" && echo 1 || echo 0)" \
	"make vm-shell: the command runs, in the host's tree"
report "$([ $rc -ne 0 ] && grep -q '^vm-shell: exit status 3' "$T/shell.out" &&
	grep -q 'vm-shell\] Error 3' "$T/shell.out" && echo 1 || echo 0)" \
	"make vm-shell: the shell's \"exit 3\" is its status"
rc=0
vmshell "node=4" "echo the-shell-ran" >"$T/shell-unknown.out" 2>&1 || rc=$?
sed 's/^/# /' "$T/shell-unknown.out"
report "$([ $rc -ne 0 ] && grep -q "^hybridnet: unknown parameter 'node' ignored" "$T/shell-unknown.out" &&
	! grep -q '^the-shell-ran' "$T/shell-unknown.out" &&
	grep -q 'vm-shell\] Error 125' "$T/shell-unknown.out" && echo 1 || echo 0)" \
	"make vm-shell HN_PARAMS=node=4 (no such parameter): the kernel's line, no shell, status 125"
finish
