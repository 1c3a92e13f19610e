#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# sysfs-abi.sh [ABI_FILE] - inside the VM, with hybridnet loaded: every
# file under /sys/class/hybridnet/fabricF/, of every fabric, has its
# "What:" entry in Documentation/ABI/testing/sysfs-class-hybridnet
# (copied next to this script), and every entry there names a file that
# exists; fabricF/ is documented as fabric<F>/, nodes/N/ as nodes/<N>/,
# fabric/levelL/ as fabric/level<L>/.  The files every device has (dev,
# uevent, power/, subsystem) are the driver core's, documented with it;
# config/ prints a field's words where it has them.  Prints TAP.

ABI=${1:-$(dirname "$0")/sysfs-class-hybridnet}
CLASS=/sys/class/hybridnet
SYS=$CLASS/fabric0
DOC='/sys/class/hybridnet/fabric<F>'
n=0
fails=0

tap() {	# tap OK DESC [FILE]: one TAP line; FILE's lines as comments
	n=$((n + 1))
	if [ "$1" = 1 ]; then
		echo "ok $n sysfs ABI: $2"
	else
		fails=$((fails + 1))
		[ -n "$3" ] && sed 's/^/# /' "$3"
		echo "not ok $n sysfs ABI: $2"
	fi
}

[ -r "$ABI" ] || { echo "not ok 1 sysfs ABI: no $ABI"; exit 1; }
[ -d "$SYS" ] || { echo "not ok 1 sysfs ABI: no $SYS (module not loaded)"; exit 1; }

sed -n 's|^What:[[:space:]]*||p' "$ABI" | sort -u > /tmp/abi.doc
for f in $CLASS/fabric[0-9]*; do (cd "$f" && find . -type f); done |
	sed 's|^\./||' |
	grep -vxE 'dev|uevent|power/.*' |
	sed -E "s|^nodes/[0-9]+/|nodes/<N>/|; s|^fabric/level[0-9]+/|fabric/level<L>/|" |
	sed "s|^|$DOC/|" | sort -u > /tmp/abi.have
echo "# $(wc -l < /tmp/abi.have) kinds of file under $CLASS/fabric*/" \
	"($(ls -d $CLASS/fabric[0-9]* | wc -l) fabrics)," \
	"$(grep -c . /tmp/abi.doc) entries in $(basename "$ABI")"

# one line per directory, so a failure says where
for d in "" config/ stats/ errors/ clock/ "nodes/<N>/" fabric/ "fabric/level<L>/"; do
	grep -E "^$DOC/$d[^/]+\$" /tmp/abi.have | grep -vxF -f /tmp/abi.doc \
		> /tmp/abi.missing
	ok=1
	[ -s /tmp/abi.missing ] && ok=0
	tap $ok "every file of ${d:-the top level} is documented" /tmp/abi.missing
done

# no file in a directory the loop does not know
grep -vE "^$DOC/((config|stats|errors|clock|nodes/<N>|fabric|fabric/level<L>)/)?[^/]+\$" \
	/tmp/abi.have > /tmp/abi.other
ok=1
[ -s /tmp/abi.other ] && ok=0
tap $ok "no file outside config/ stats/ errors/ clock/ nodes/N/ fabric/" /tmp/abi.other

# and nothing documented that is not there (the directory's own entry
# aside)
grep -vxF "$DOC/" /tmp/abi.doc | grep -vxF -f /tmp/abi.have > /tmp/abi.stale
ok=1
[ -s /tmp/abi.stale ] && ok=0
tap $ok "every documented file exists" /tmp/abi.stale

# a field whose values are words reads as its words (the policy's joined
# by ','), as the module parameter takes it; the others as numbers, the
# topology as text
: > /tmp/abi.words
for f in policy predict_algo evict_algo switching up_select ft_sched \
	 voq_arbiter; do
	v=$(cat $SYS/config/$f)
	case $v in
	'' | *[!a-z,-]*) echo "config/$f: '$v' is not words" >> /tmp/abi.words ;;
	esac
done
for f in nodes slots link_mbps idle_timeout_ns wh_overlap voq_timeout_ns; do
	v=$(cat $SYS/config/$f)
	case $v in
	'' | *[!0-9]*) echo "config/$f: '$v' is not a number" >> /tmp/abi.words ;;
	esac
done
ok=1
[ -s /tmp/abi.words ] && ok=0
tap $ok "config/ prints words where a field has words, numbers elsewhere" \
	/tmp/abi.words

# nodes/ holds one directory per node
want=$(cat $SYS/config/nodes)
have=$(ls $SYS/nodes | wc -l)
echo "nodes/ has $have directories, config/nodes is $want" > /tmp/abi.nodes
ok=0
[ "$have" = "$want" ] && ok=1
tap $ok "nodes/ has config/nodes directories" /tmp/abi.nodes

# fabric/ holds one directory per level
want=$(cat $SYS/fabric/levels)
have=$(ls -d $SYS/fabric/level[0-9]* | wc -l)
echo "fabric/ has $have level directories, fabric/levels is $want" > /tmp/abi.levels
ok=0
[ "$have" = "$want" ] && ok=1
tap $ok "fabric/ has fabric/levels level directories" /tmp/abi.levels

[ $fails -eq 0 ]
