#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# check-fresh.sh [-r REF] [-c CACHE] [-o DIR] - make check-fresh: the
# README's two commands, the first time, on a fresh Debian 12.  Prints TAP.
#
#   -r REF    the commit to clone (default HEAD: what is committed, not
#             the work tree), e.g. an old one to see it fail
#   -c CACHE  where the minimal root is kept (default /var/cache/hybridnet)
#   -o DIR    the scratch directory: DIR/root, the logs (default build/fresh)
#
# 1. A minimal Debian 12 root: debootstrap --variant=minbase with make,
#    git and ca-certificates, from the Debian mirror this machine's apt
#    uses (/etc/apt/sources.list, sources.list.d/), its Debian sources
#    (security and updates too) in the root's apt.  Made once, kept in
#    CACHE/fresh-KEY (KEY: a hash of the sources and the recipe), built
#    beside it and moved in whole.
# 2. A copy of it in DIR/root, every run, and there a git clone of this
#    repository at REF, in /root/hybridnet.
# 3. In the root (chroot, with /proc, /sys and /dev; the host's
#    /var/cache/apt/archives bound on the root's, so that packages are
#    downloaded once), as root, as a user would: "make demo", then
#    "make check CHECK_STEPS='check-unit check-vm'".  Each must exit 0,
#    the demo build quietly (no command of the build shown), show the
#    fabric's statistics and end with what to try next, and the check end
#    "N passed, 0 failed".
#
# Every mount goes away on every way out (a trap); the copy of the root
# too once all passed (HN_FRESH_KEEP=1 keeps it).  The times of each
# part are comments of the TAP.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
src=$PWD
ref=HEAD
cache=/var/cache/hybridnet
out=build/fresh
while getopts ":r:c:o:" opt; do
	case $opt in
	r) ref=$OPTARG ;;
	c) cache=$OPTARG ;;
	o) out=$OPTARG ;;
	*) sed -n '4,10s/^# \{0,1\}//p' "$0" >&2; exit 2 ;;
	esac
done
T=$(mktemp -d)
. selftests/tap.sh
SUITE=bookworm
INCLUDE=make,git,ca-certificates
PY=/usr/bin/python3
APT=/var/cache/apt/archives

mkdir -p "$out"
out=$(cd "$out" && pwd)
root=$out/root
mounts=()
unmount_all() {	# the mounts, last first; lazily when busy
	local i m
	for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do
		m=${mounts[i]}
		umount -R "$m" 2>/dev/null || umount -R -l "$m" 2>/dev/null ||
			echo "# check-fresh: cannot unmount $m"
	done
	mounts=()
}
trap 'unmount_all; rm -rf "$T"' EXIT
trap 'exit 130' INT TERM
mnt() {	# mnt DIR MOUNT-ARGS...: mount on DIR, remembered for unmount_all
	local d=$1
	shift
	mount "$@" "$d" || return 1
	mounts+=("$d")
}
secs() { echo $(($(date +%s) - $1)); }
# clear_root: remove the copy of the root, after whatever an earlier run
# killed outright left mounted there (rm -rf through a bind of /dev or
# of the apt archives would empty the host's)
clear_root() {
	local m
	awk -v r="$root/" 'index($2, r) == 1 { print $2 }' /proc/mounts |
		sort -r | while read -r m; do umount -l "$m"; done
	if awk -v r="$root/" 'index($2, r) == 1 { f = 1 } END { exit !f }' /proc/mounts; then
		echo "# check-fresh: mounts left under $root: not removed"
		return 1
	fi
	rm -rf --one-file-system "$root"
}
[ "$(id -u)" = 0 ] || { echo "not ok 1 check-fresh needs root (debootstrap, chroot, mount)"; exit 1; }

# The Debian entries of the host's apt sources, as one deb822 file; the
# first mirror that has the suite itself is debootstrap's
"$PY" - "$SUITE" >"$T/sources" 2>"$T/sources.err" <<'EOF'
import glob, re, sys
suite = sys.argv[1]
stanzas = []
for f in ["/etc/apt/sources.list"] + sorted(glob.glob("/etc/apt/sources.list.d/*.list")):
    try:
        text = open(f).read()
    except OSError:
        continue
    for line in text.splitlines():
        line = re.sub(r"\[[^]]*\]", "", line.split("#")[0]).split()
        if len(line) >= 4 and line[0] == "deb":
            stanzas.append({"URIs": line[1], "Suites": line[2],
                            "Components": " ".join(line[3:])})
for f in sorted(glob.glob("/etc/apt/sources.list.d/*.sources")):
    for para in re.split(r"\n\s*\n", open(f).read()):
        st = {}
        for line in para.splitlines():
            m = re.match(r"^([A-Za-z-]+):\s*(.*)$", line)
            if m:
                st[m.group(1)] = m.group(2).strip()
        if st.get("Enabled", "yes") != "no" and "deb" in st.get("Types", "").split():
            stanzas.append(st)
# Debian's own archives: their suites are the release's, and they are
# signed by Debian's keyring (or name none)
keep = [s for s in stanzas
        if all(x.startswith(suite) for x in s.get("Suites", "").split())
        and s.get("Suites")
        and "debian-archive-keyring" in s.get("Signed-By", "debian-archive-keyring")]
if not any(suite in s["Suites"].split() for s in keep):
    sys.exit("no Debian %s mirror in /etc/apt/sources.list*" % suite)
mirror = next(s["URIs"].split()[0] for s in keep if suite in s["Suites"].split())
print("# mirror " + mirror)
for s in keep:
    print("Types: deb\nURIs: %s\nSuites: %s\nComponents: %s" %
          (s["URIs"], s["Suites"], s.get("Components", "main")))
    print("Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg\n")
EOF
mirror=$(sed -n 's/^# mirror //p' "$T/sources")
report "$([ -n "$mirror" ] && echo 1 || echo 0)" \
	"the Debian mirror of this machine's apt: ${mirror:-none}" "$T/sources.err"
[ -n "$mirror" ] || { finish; exit 1; }

# 1. the minimal root, once
key=$({ echo "recipe 1 minbase $INCLUDE"; cat "$T/sources"; } | sha256sum | cut -c1-12)
base=$cache/fresh-$key
t0=$(date +%s)
if [ -d "$base" ]; then
	report 1 "the Debian 12 root (debootstrap --variant=minbase --include=$INCLUDE) is in $base"
else
	mkdir -p "$cache"
	new=$(mktemp -d "$base.new.XXXXXX")
	dbs=()
	[ -w "$APT" ] && dbs+=(--cache-dir="$APT")
	if debootstrap --variant=minbase --include="$INCLUDE" ${dbs[@]+"${dbs[@]}"} \
		"$SUITE" "$new" "$mirror" >"$out/debootstrap.log" 2>&1 &&
		rm -f "$new/etc/apt/sources.list" &&
		grep -v '^#' "$T/sources" >"$new/etc/apt/sources.list.d/debian.sources" &&
		chroot "$new" apt-get clean && { mv -T "$new" "$base" 2>/dev/null || [ -d "$base" ]; }; then
		report 1 "the Debian 12 root: debootstrap --variant=minbase --include=$INCLUDE from $mirror, into $base, in $(secs "$t0") s"
	else
		tail -n 20 "$out/debootstrap.log" >"$T/dbs"
		report 0 "the Debian 12 root: debootstrap --variant=minbase from $mirror" "$T/dbs"
		finish
		exit 1
	fi
	rm -rf "$new"
fi

# 2. a copy of it, and the clone
t0=$(date +%s)
clear_root || { finish; exit 1; }
cp -a "$base" "$root"
cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null
commit=$(git rev-parse --verify -q "$ref^{commit}")
check "a clean clone of $ref (${commit:0:12}) in the root's /root/hybridnet, in $(secs "$t0") s" \
	sh -c "git clone -q --no-checkout '$src' '$root/root/hybridnet' &&
	       git -C '$root/root/hybridnet' checkout -q --detach '$commit'"
[ -d "$root/root/hybridnet/.git" ] || { finish; exit 1; }

if mnt "$root/proc" -t proc proc &&
	mnt "$root/sys" --rbind /sys && mount --make-rslave "$root/sys" &&
	mnt "$root/dev" --rbind /dev && mount --make-rslave "$root/dev" &&
	mnt "$root/run" -t tmpfs tmpfs &&
	{ ! [ -w "$APT" ] || mnt "$root$APT" --bind "$APT"; }; then
	report 1 "/proc, /sys, /dev and the host's $APT in the root"
else
	report 0 "/proc, /sys, /dev and the host's $APT in the root"
	finish
	exit 1
fi

# in_root LOG CMD: CMD by bash in the clone, as root, a clean environment
in_root() {
	chroot "$root" /usr/bin/env -i HOME=/root TERM=dumb LANG=C.UTF-8 \
		PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
		/bin/bash -c "cd /root/hybridnet && $2" </dev/null >"$1" 2>&1
}

# 3. the README's two commands
t0=$(date +%s)
in_root "$out/demo.log" "make demo"
rc=$?
tail -n 25 "$out/demo.log" >"$T/demo.tail"
report "$([ $rc -eq 0 ] && echo 1 || echo 0)" \
	"make demo, the first command on a fresh Debian 12, exits 0 ($rc, $(secs "$t0") s; log $out/demo.log)" \
	"$T/demo.tail"
report "$(grep -q '^== What the fabric counted' "$out/demo.log" &&
	tail -n 12 "$out/demo.log" | grep -q '^== Try next' && echo 1 || echo 0)" \
	"make demo showed the fabric's statistics, and ends with what to try next"
# quiet: its own lines, the VM's, no command of the build (V=1 shows them)
grep -nE '^(cc|gcc|ar|tar|cp|selftests/|make\[)|  CC ' "$out/demo.log" | head -n 5 >"$T/loud"
report "$([ -s "$T/loud" ] && echo 0 || echo 1)" \
	"make demo built quietly: no command of the build in its output" "$T/loud"

t0=$(date +%s)
in_root "$out/check.log" 'make check CHECK_STEPS="check-unit check-vm"'
rc=$?
sed -n '/^---- summary/,$p' "$out/check.log" >"$T/summary"
[ -s "$T/summary" ] || tail -n 25 "$out/check.log" >"$T/summary"
last=$(tail -n 1 "$out/check.log")
report "$([ $rc -eq 0 ] && echo 1 || echo 0)" \
	"make check CHECK_STEPS=\"check-unit check-vm\" exits 0 ($rc, $(secs "$t0") s; log $out/check.log)" \
	"$T/summary"
report "$(echo "$last" | grep -qE '^[1-9][0-9]* passed, 0 failed' && echo 1 || echo 0)" \
	"and ends \"N passed, 0 failed\": $last"

unmount_all
grep -F " $root/" /proc/mounts >"$T/left"
report "$([ -s "$T/left" ] && echo 0 || echo 1)" "no mount left under $root" "$T/left"
[ "$failed" -ne 0 ] || [ "${HN_FRESH_KEEP:-0}" = 1 ] || clear_root
finish
