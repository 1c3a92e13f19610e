#!/bin/bash
# mkinitramfs.sh - build a tiny busybox initramfs for hybridnet VM tests.
#
# Usage:
#   mkinitramfs.sh -o OUT.cpio.gz [-m MODULE.ko]... [-b FILE_OR_DIR]... [-s SCRIPT]
#                  [-K /lib/modules/KREL -M NAME...]
#
#   -o OUT     output file (gzip-compressed newc cpio archive); required
#   -m MOD.ko  kernel module to ship as /lib/hn/<name>.ko (repeatable). Modules
#              are NOT installed under /lib/modules; tests insmod them by path.
#              In-tree dependencies can be shipped the same way, e.g.
#              -m /lib/modules/<ver>/kernel/net/ipv4/udp_tunnel.ko
#   -b PATH    file or directory copied into /opt/hn/ (repeatable), symlinks
#              dereferenced, modes (exec bits) kept. "DIR" becomes /opt/hn/DIR,
#              "DIR/" (trailing slash) copies the contents of DIR into /opt/hn/.
#              Executables must be statically linked (the image has no libc);
#              dynamic ones run from the host's tree (hn.host=1, hn-hostrun).
#   -s SCRIPT  test script, installed as /opt/hn/run.sh (mode 0755)
#   -K DIR     the booted kernel's module tree (/lib/modules/KREL), for -M
#   -M NAME    an in-tree module of DIR (repeatable), shipped with every
#              module it depends on (DIR/modules.dep) in /lib/hn/kmod/ and
#              loaded in order by /init with "hn.host=1"; one built into
#              the kernel is skipped.  .ko.xz, .zst and .gz are unpacked
#              here (busybox insmod reads plain .ko).
#
# Environment: BUSYBOX (default /bin/busybox) must be a static busybox.
#
# The generated /init mounts proc, sysfs, devtmpfs, debugfs and a tmpfs on /tmp,
# then runs /opt/hn/run.sh (cwd /tmp, stdin /dev/null, PATH starting with
# /opt/hn) with stdout+stderr on the "results channel" /dev/ttyS1 (second
# serial port; falls back to /dev/console if ttyS1 is unusable). Afterwards it
# writes, on the same channel:
#     HN-BOOT-REPORT   (instead of running run.sh, when the kernel had
#                      already logged a problem of dmesg-scan.sh's while it
#                      booted, before anything of the run: run.sh boots
#                      again)
#     HN-DMESG-BEGIN
#     <full dmesg>
#     HN-DMESG-END
#     HN-EXIT <exit status of run.sh>
# and powers off. With "hn.shell=1" on the kernel command line, /init starts an
# interactive shell on the console instead and powers off when it exits.
#
# With "hn.host=1" (run.sh --host), /init first loads the -M modules and
# mounts the host's / (the virtio 9p share "hnhost") read-only at /host,
# then makes /newroot: an overlay of a tmpfs on /host, so that the host's
# programs and libraries run unchanged and what they write stays in the VM
# (a read-only bind of /host if overlayfs refuses, with a fresh tmpfs on
# /tmp), with the VM's /proc, /sys and /dev and a tmpfs on /run; /opt/hn is at
# /newroot/run/hn.  "hn-hostrun DIR CMD" runs the shell command CMD there
# (the host's /bin/sh), in DIR (a path on the host), with PATH the host's
# system directories then /run/hn, and $HN_PATH first when set.
# See run.sh in this directory for the matching qemu side.
set -euo pipefail

prog=${0##*/}
die() { printf '%s: %s\n' "$prog" "$*" >&2; exit 1; }
usage() {
	sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0" >&2
	exit 2
}

out=""
script=""
modules=()
extras=()
kdir=""
kmods=()
while getopts ":o:m:b:s:K:M:h" opt; do
	case $opt in
	o) out=$OPTARG ;;
	m) modules+=("$OPTARG") ;;
	b) extras+=("$OPTARG") ;;
	s) script=$OPTARG ;;
	K) kdir=$OPTARG ;;
	M) kmods+=("$OPTARG") ;;
	h) usage ;;
	:) printf '%s: option -%s needs an argument\n' "$prog" "$OPTARG" >&2; usage ;;
	*) printf '%s: unknown option -%s\n' "$prog" "$OPTARG" >&2; usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 0 ] || { printf '%s: unexpected argument: %s\n' "$prog" "$1" >&2; usage; }
[ -n "$out" ] || { printf '%s: -o OUT is required\n' "$prog" >&2; usage; }

busybox=${BUSYBOX:-/bin/busybox}
[ -x "$busybox" ] || die "busybox not found at $busybox (install busybox-static)"
if command -v readelf >/dev/null 2>&1 &&
	readelf -l "$busybox" 2>/dev/null | grep -q 'INTERP'; then
	die "$busybox is dynamically linked; a static busybox is required (busybox-static)"
fi
for m in ${modules[@]+"${modules[@]}"}; do
	[ -f "$m" ] || die "module not found: $m"
	case $m in *.ko) ;; *) die "not a .ko file: $m" ;; esac
done
for b in ${extras[@]+"${extras[@]}"}; do
	[ -e "$b" ] || die "not found: $b"
done
[ -z "$script" ] || [ -f "$script" ] || die "script not found: $script"
if [ ${#kmods[@]} -gt 0 ]; then
	[ -n "$kdir" ] || die "-M needs -K /lib/modules/KREL"
	[ -r "$kdir/modules.dep" ] ||
		die "no $kdir/modules.dep (is the kernel's image package installed?)"
fi
command -v cpio >/dev/null || die "cpio not installed"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/hn-initramfs.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
root=$tmp/root

mkdir -p "$root"/{bin,sbin,usr/bin,usr/sbin,etc,proc,sys,dev,tmp,root,run,mnt,lib/hn,opt/hn}
chmod 1777 "$root/tmp"
cp "$busybox" "$root/bin/busybox"
chmod 0755 "$root/bin/busybox"

# Applet symlinks, as "busybox --install -s" would create them at run time.
applets=$("$busybox" --list-full) || die "$busybox --list-full failed"
while IFS= read -r applet; do
	case $applet in '' | bin/busybox) continue ;; esac
	case $applet in */*) [ -d "$root/${applet%/*}" ] || mkdir -p "$root/${applet%/*}" ;; esac
	ln -sf /bin/busybox "$root/$applet"
done <<<"$applets"
[ -e "$root/bin/sh" ] || ln -s /bin/busybox "$root/bin/sh"

# The kernel opens /dev/console before running /init (devtmpfs is not yet
# mounted then); ship a static node when we can create one (needs root).
mknod -m 0600 "$root/dev/console" c 5 1 2>/dev/null || true
mknod -m 0666 "$root/dev/null" c 1 3 2>/dev/null || true

printf 'root:x:0:0:root:/root:/bin/sh\n' >"$root/etc/passwd"
printf 'root:x:0:\n' >"$root/etc/group"
printf 'hn-vm\n' >"$root/etc/hostname"

for m in ${modules[@]+"${modules[@]}"}; do
	cp -L "$m" "$root/lib/hn/"
	chmod 0644 "$root/lib/hn/${m##*/}"
done
for b in ${extras[@]+"${extras[@]}"}; do
	case $b in
	*/) cp -RL --preserve=mode,timestamps "$b/." "$root/opt/hn/" ;;
	*) cp -RL --preserve=mode,timestamps "$b" "$root/opt/hn/" ;;
	esac
done
if [ -n "$script" ]; then
	cp -L "$script" "$root/opt/hn/run.sh"
	chmod 0755 "$root/opt/hn/run.sh"
fi

# In-tree modules, each after those it depends on.  A line of modules.dep
# names a module's whole closure; load_order visits it depth first, so a
# dependency always comes before its users.
kmod_name() { # a module's name from its path: - and _ are one
	local b=${1##*/}
	b=${b%%.ko*}
	printf '%s\n' "${b//-/_}"
}
declare -A kpath=() kseen=()
korder=()
if [ ${#kmods[@]} -gt 0 ]; then
	while IFS=: read -r m _; do
		kpath[$(kmod_name "$m")]=$m
	done <"$kdir/modules.dep"
fi
load_order() { # PATH relative to $kdir
	local m=$1 d
	[ -z "${kseen[$m]:-}" ] || return 0
	kseen[$m]=1
	for d in $(awk -F: -v m="$m" '$1 == m { print $2; exit }' "$kdir/modules.dep"); do
		load_order "$d"
	done
	korder+=("$m")
}
for n in ${kmods[@]+"${kmods[@]}"}; do
	p=${kpath[${n//-/_}]:-}
	if [ -n "$p" ]; then
		load_order "$p"
	elif ! sed 's|.*/||; s|\.ko.*||; s|-|_|g' "$kdir/modules.builtin" 2>/dev/null |
		grep -qx "${n//-/_}"; then
		die "module $n is neither in $kdir/modules.dep nor built in"
	fi
done
for m in ${korder[@]+"${korder[@]}"}; do
	mkdir -p "$root/lib/hn/kmod"
	b=${m##*/}
	case $b in
	*.ko) cp -L "$kdir/$m" "$root/lib/hn/kmod/$b" ;;
	*.ko.xz) xz -dc "$kdir/$m" >"$root/lib/hn/kmod/${b%.xz}" ;;
	*.ko.zst) zstd -qdc "$kdir/$m" >"$root/lib/hn/kmod/${b%.zst}" ;;
	*.ko.gz) gzip -dc "$kdir/$m" >"$root/lib/hn/kmod/${b%.gz}" ;;
	*) die "unknown kind of module file: $m" ;;
	esac
	b=${b%%.ko*}.ko
	chmod 0644 "$root/lib/hn/kmod/$b"
	echo "$b" >>"$root/lib/hn/kmod/order"
done

cat >"$root/bin/hn-hostrun" <<'EOF'
#!/bin/sh
# hn-hostrun DIR CMD: the shell command CMD in the host's tree (/newroot,
# made by /init with hn.host=1), in the directory DIR
[ $# -eq 2 ] || { echo "usage: hn-hostrun DIR CMD" >&2; exit 2; }
if ! [ -x /newroot/bin/sh ]; then
	echo "hn-hostrun: the host's tree is not mounted (no hn.host=1 or no 9p share; see dmesg)" >&2
	exit 127
fi
# Debian's ip finds plugins of the initramfs's (link_KIND.so) in ip/
ipl=
[ ! -d /newroot/run/hn/ip ] || ipl=IP_LIB_DIR=/run/hn/ip
exec chroot /newroot /usr/bin/env -i HOME=/root TERM="${TERM:-linux}" $ipl \
	PATH="${HN_PATH:+$HN_PATH:}/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin:/run/hn" \
	/bin/sh -c 'cd "$1" && eval "$2"' hn-hostrun "$1" "$2"
EOF
chmod 0755 "$root/bin/hn-hostrun"

# what in the kernel's log fails a run (dmesg-scan.sh), for /init's look
# at the boot's
. "$(dirname "$0")/dmesg-scan.sh"
printf '%s\n' "$hn_dmesg_bad" >"$root/etc/hn-dmesg-bad"

cat >"$root/init" <<'EOF'
#!/bin/sh
# /init generated by selftests/vm/mkinitramfs.sh (hybridnet VM tests).
export PATH=/opt/hn:/bin:/sbin:/usr/bin:/usr/sbin
export HOME=/root TERM="${TERM:-linux}"

mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
exec </dev/console >/dev/console 2>&1
mkdir -p /dev/pts /dev/shm
mount -t devpts devpts /dev/pts 2>/dev/null
mount -t tmpfs tmpfs /tmp
mount -t tmpfs tmpfs /run
mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
mount -t tracefs tracefs /sys/kernel/tracing 2>/dev/null
hostname hn-vm
ip link set lo up 2>/dev/null

shell=0
host=0
read -r cmdline </proc/cmdline
for arg in $cmdline; do
	case $arg in
	hn.shell=1) shell=1 ;;
	hn.host=1) host=1 ;;
	esac
done

# The host's tree: 9p (read-only) at /host, an overlay with a tmpfs on
# top at /newroot, where hn-hostrun runs commands.
host_root() {
	if [ -r /lib/hn/kmod/order ]; then
		while read -r m; do
			insmod "/lib/hn/kmod/$m" || echo "hn-init: insmod $m failed"
		done </lib/hn/kmod/order
	fi
	mkdir -p /host /newroot /run/ovl/upper /run/ovl/work
	mount -t 9p -o trans=virtio,version=9p2000.L,ro,cache=loose,msize=512000 \
		hnhost /host || { echo "hn-init: cannot mount the 9p share hnhost"; return 1; }
	# the overlay keeps the host's /tmp (a clone may live there), its
	# writes in RAM; a read-only bind needs a tmpfs there to be written
	if ! mount -t overlay overlay \
		-o lowerdir=/host,upperdir=/run/ovl/upper,workdir=/run/ovl/work \
		/newroot; then
		mount -o bind,ro /host /newroot || return 1
		mount -t tmpfs tmpfs /newroot/tmp
	fi
	mount -t proc proc /newroot/proc
	mount -t sysfs sysfs /newroot/sys
	mount -o rbind /dev /newroot/dev
	mount -t tmpfs tmpfs /newroot/run
	mkdir -p /newroot/run/hn
	mount -o bind /opt/hn /newroot/run/hn
}
[ "$host" = 0 ] || host_root

if [ "$shell" = 1 ]; then
	echo "hybridnet VM shell: exit it to power off (or Ctrl-A x to kill qemu)."
	[ -r /etc/profile ] || echo "The module is /lib/hn/hybridnet.ko; the test programs are in /opt/hn."
	setsid cttyhack sh -l
	sync
	poweroff -f
	exit 0
fi

# Results channel: second serial port. Put it in raw mode, otherwise the tty
# layer turns every \n into \r\n (ONLCR); the setting sticks across opens.
# Every writer below opens and closes the port, and the last close waits until
# the UART has sent everything, so nothing is lost at poweroff.
res=/dev/ttyS1
if ! stty -F "$res" raw -echo 2>/dev/null; then
	echo "hn-init: $res unusable, sending results to the console" >&2
	res=/dev/console
fi

if dmesg | grep -qE -f /etc/hn-dmesg-bad; then
	# The kernel reported a problem while it booted, before anything of
	# the run's (under TCG, rarely: an early interrupt's KASAN report):
	# say so instead of running; run.sh boots again.
	echo "HN-BOOT-REPORT" >"$res"
	rc=125
elif [ -x /opt/hn/run.sh ]; then
	(cd /tmp && exec /opt/hn/run.sh) </dev/null >"$res" 2>&1
	rc=$?
else
	echo "# hn-init: no /opt/hn/run.sh in the initramfs" >"$res"
	rc=0
fi

# run.sh may have changed the line settings; dmesg must arrive verbatim too.
[ "$res" = /dev/console ] || stty -F "$res" raw -echo 2>/dev/null
{
	echo "HN-DMESG-BEGIN"
	dmesg
	echo "HN-DMESG-END"
	echo "HN-EXIT $rc"
} >"$res" 2>&1
sync
poweroff -f
EOF
chmod 0755 "$root/init"

outdir=$(dirname "$out")
mkdir -p "$outdir"
part=$(mktemp "$outdir/.${out##*/}.XXXXXX")
if ! (cd "$root" && find . -mindepth 1 -print0 | LC_ALL=C sort -z |
	cpio --null -o -H newc -R 0:0 --quiet | gzip -6n) >"$part"; then
	rm -f "$part"
	die "failed to create archive"
fi
chmod 0644 "$part"
mv -f "$part" "$out"
