#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# dynbin.sh DIR NAME=PROGRAM... - make the host's dynamic PROGRAMs run in
# the busybox initramfs, which has no libc: each PROGRAM and every shared
# library ldd names for it go into DIR/dyn/, and DIR/NAME is a script
# that starts DIR/dyn/PROGRAM's basename through the dynamic loader
# copied there, with --library-path DIR/dyn.  The script finds dyn/ next
# to itself, so DIR may be mounted anywhere (/opt/hn in the initramfs,
# /run/hn under make vm-run).  The kernel only needs ELF and scripts:
# the same files run on Debian's kernel and on the debug one.
set -eu
[ $# -ge 2 ] || { echo "usage: dynbin.sh DIR NAME=PROGRAM..." >&2; exit 2; }
dir=$1
shift
mkdir -p "$dir/dyn"
for arg; do
	name=${arg%%=*}
	prog=$(command -v "${arg#*=}") ||
		{ echo "dynbin.sh: ${arg#*=} not found (selftests/deps.sh)" >&2; exit 1; }
	cp -L "$prog" "$dir/dyn/"
	# "lib => /path (addr)" and the loader's "/path (addr)"
	ldd "$prog" | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }' |
	while read -r lib; do
		cp -L "$lib" "$dir/dyn/"
	done
	ld=$(ldd "$prog" | awk '$1 ~ /^\/.*ld-linux/ { print $1 }')
	cat >"$dir/$name" <<EOS
#!/bin/sh
# made by selftests/vm/dynbin.sh: the host's $prog, with its libraries
d=\$(dirname "\$0")/dyn
exec "\$d/${ld##*/}" --library-path "\$d" "\$d/${prog##*/}" "\$@"
EOS
	chmod 0755 "$dir/$name"
done
