#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# netdev-scale-vm.sh - 4096 interfaces, in the VM, as TAP: nodes=4096 and
# an interface per node made by rtnetlink (ipr -batch), all there, then
# the unload, which deletes them a batch per hold of the RTNL: no soft
# lockup or RCU stall on the debug kernel (the harness scans dmesg), and
# on a kernel without kmemleak, the slab it takes back (SUnreclaim, once
# unused dentries and inodes are evicted and SLUB has shrunk its caches)
# within 1 KiB per interface of what it was before the load (the debug
# kernel's KASAN quarantine keeps freed objects; kmemleak is the test
# there).  Loads and unloads the module (HN_KO).

KO=${HN_KO:-/lib/hn/hybridnet.ko}
N=4096
n=0
fails=0

# shellcheck disable=SC2034 # netns-lib.sh uses it
pids=

. "$(dirname "$0")/netns-lib.sh"

now() { cut -d' ' -f1 /proc/uptime; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }

# unreclaimable slab in KiB, once every cache has given back its free
# slabs (after evicting the dentries and inodes nobody uses, with "evict");
# each cache's bytes, in whole slabs, into FILE: slab FILE [evict]
slab() {
	[ "$2" = evict ] && echo 2 >/proc/sys/vm/drop_caches
	for s in /sys/kernel/slab/*/shrink; do
		echo 1 >"$s" 2>/dev/null
	done
	awk 'NR > 2 { print $1, $3 * $4 }' /proc/slabinfo | sort >"$1"
	awk '/^SUnreclaim:/ { print $2 }' /proc/meminfo
}

# the caches that grew by 64 KiB or more between two of slab()'s files
grown() {
	awk 'NR == FNR { was[$1] = $2; next }
	     $2 - was[$1] >= 65536 { printf "#   %s %d KiB more\n", $1, ($2 - was[$1]) / 1024 }' "$1" "$2"
}

kml=/sys/kernel/debug/kmemleak
s0=$(slab /tmp/scale.slab0 evict)
check "insmod nodes=$N" insmod "$KO" nodes=$N
i=0
while [ $i -lt $N ]; do
	echo "link add hn$i type hybridnet node $i"
	i=$((i + 1))
done >/tmp/scale.batch
t0=$(now)
check "$N interfaces by ipr -batch" ipr -batch /tmp/scale.batch
echo "# made in $(since "$t0") s; slab (SUnreclaim) $s0 KiB before the load, $(awk '/^SUnreclaim:/ { print $2 }' /proc/meminfo) KiB now"
check "all $N there, node $((N - 1)) the last" sh -c "
	[ \$(ls /sys/class/net | grep -c '^hn') -eq $N ] &&
	[ \"\$(cat /sys/class/net/hn$((N - 1))/address)\" = 02:68:6e:00:0f:ff ]"
t0=$(now)
check "rmmod with $N interfaces" rmmod hybridnet
echo "# unloaded in $(since "$t0") s"
check "none left" sh -c "! ls /sys/class/net | grep -q '^hn'"
if [ ! -e $kml ]; then
	# what stays until the dentries and inodes of the interfaces' sysfs
	# files that were looked at (busybox's ls stats each entry) are
	# evicted: they hold the removed kernfs nodes
	s1=$(slab /tmp/scale.slab1)
	echo "# slab after the unload: $s1 KiB; grown:"
	grown /tmp/scale.slab0 /tmp/scale.slab1
	s2=$(slab /tmp/scale.slab2 evict)
	echo "# and once unused dentries and inodes are evicted: $s2 KiB; grown:"
	grown /tmp/scale.slab0 /tmp/scale.slab2
	check "the slab taken back: $s2 KiB after, $s0 KiB before, within $N KiB" \
		[ "$s2" -le $((s0 + N)) ]
fi

echo "1..$n"
[ $fails -eq 0 ]
