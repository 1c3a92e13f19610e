#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# style.sh O KSRC_TAR KDIR - the kernel code's style, as TAP: checkpatch
# --strict (from Debian's linux-source tarball) clean on kmod/, and the
# module built with W=1 and sparse (C=2) without a warning.  The build is
# of a copy of kmod/ and uapi/ under O, so kmod/ keeps its objects.
set -u
o=$1 tar=$2 kdir=$3
dir=$o/style
n=0 fails=0

report() {	# report OK NAME LOG
	n=$((n + 1))
	if [ "$1" = 1 ]; then
		echo "ok $n - $2"
	else
		fails=$((fails + 1))
		sed 's/^/# /' "$3"
		echo "not ok $n - $2"
	fi
}

mkdir -p "$dir"
# checkpatch and the two files it reads beside itself
if ! [ -x "$dir/scripts/checkpatch.pl" ]; then
	tar -xJf "$tar" -C "$dir" --strip-components=1 \
		linux-source-6.1/scripts/checkpatch.pl \
		linux-source-6.1/scripts/spelling.txt \
		linux-source-6.1/scripts/const_structs.checkpatch
fi
"$dir/scripts/checkpatch.pl" --strict --no-tree --terse --show-types \
	-f kmod/*.[ch] kmod/core/*.[ch] 2>&1 |
	grep -v '^total: \|hybridnet\.mod\.c' > "$dir/checkpatch.log"
ok=0
[ -f "$dir/scripts/checkpatch.pl" ] && ! [ -s "$dir/checkpatch.log" ] && ok=1
report $ok "checkpatch --strict: kmod/ is clean" "$dir/checkpatch.log"

rm -rf "$dir/src" && mkdir -p "$dir/src"
tar -cf - --exclude='*.o' --exclude='*.ko' --exclude='*.cmd' \
	--exclude='*.mod' --exclude='*.mod.c' --exclude='*.order' \
	--exclude='*.symvers' kmod uapi | tar -xf - -C "$dir/src"
make -C "$kdir" M="$(cd "$dir/src/kmod" && pwd)" O= CONFIG_HYBRIDNET=m \
	W=1 C=2 CHECK=sparse modules > "$dir/build.log" 2>&1
rc=$?
grep -E 'warning:|error:' "$dir/build.log" > "$dir/warnings.log"
ok=0
[ $rc = 0 ] && ! [ -s "$dir/warnings.log" ] && ok=1
[ $rc = 0 ] || tail -n 20 "$dir/build.log" >> "$dir/warnings.log"
report $ok "W=1 and sparse: the module builds without a warning" \
	"$dir/warnings.log"

echo "1..$n"
[ $fails = 0 ]
