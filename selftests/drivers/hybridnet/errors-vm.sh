#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# errors-vm.sh - errors that say what to do, inside the VM; prints TAP.
# Expects the module (at $HN_KO) not loaded; loads it with nodes=8
# slots=4 and unloads it at the end.  hnctl, hntraffic, demo, hn_hold,
# hn_asuser and errors (errors.c) on PATH.  Each check compares the exact
# words a user reads: the cause, and what to do next.

n=0
fails=0
SYS=/sys/class/hybridnet/fabric0
NOT_LOADED="the hybridnet module is not loaded: load it (sudo modprobe hybridnet), or run the program in the VM of the source tree (make vm-run CMD='...')"

. "$(dirname "$0")/netns-lib.sh"	# check NAME CMD...

# says STATUS WANT CMD...: CMD exits with STATUS and prints exactly WANT
# (stdout and stderr)
says() {
	want_rc=$1
	want=$2
	shift 2
	got=$("$@" 2>&1)
	rc=$?
	[ $rc -eq "$want_rc" ] && [ "$got" = "$want" ] && return 0
	echo "want: $want (status $want_rc)"
	echo "got:  $got (status $rc)"
	return 1
}

# wait until node N has a holder
holder() {
	i=0
	while [ "$(cat $SYS/nodes/$1/holder)" = nothing ] && [ $i -lt 500 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	[ "$(cat $SYS/nodes/$1/holder)" != nothing ]
}

# ---- no module -----------------------------------------------------------
check "hnctl show without the module: how to load it" says 2 \
	"hnctl: no generic netlink family 'hybridnet': $NOT_LOADED" hnctl show
check "a sample without the module: how to load it" says 1 \
	"demo: cannot open /dev/hybridnet: $NOT_LOADED" demo
check "hntraffic without the module: how to load it" says 1 \
	"hntraffic: cannot open /dev/hybridnet: $NOT_LOADED" \
	hntraffic --pattern uniform --batch 1
check "hnctl -n without the module: the syntax only" says 0 \
	"slot 0 0:1 2:1" hnctl -n preload slot 0 0:1 2:1
check "insmod nodes=8 slots=4" insmod "$HN_KO" nodes=8 slots=4

# ---- the library, word for word (errors.c) ------------------------------
check "the library's messages (errors.c)" errors

# ---- a user who may not open the device ----------------------------------
echo 'nobody:x:65534:65534::/:/bin/sh' >>/etc/passwd
check "the device is root's alone: install the udev rule or be root" says 1 \
	"demo: cannot open /dev/hybridnet: permission denied: only root may open it (crw-------): install the udev rule that gives it to the group hybridnet (make install; hybridnet(4), FILES), or run the program as root" \
	hn_asuser 65534 65534 demo
# as the udev rule makes it (dist/60-hybridnet.rules)
echo 'hybridnet:x:123:' >>/etc/group
chgrp 123 /dev/hybridnet
chmod 660 /dev/hybridnet
check "not in the group: join it" says 1 \
	"demo: cannot open /dev/hybridnet: permission denied: the group hybridnet may open it (crw-rw----) and you are not in it: join it (sudo usermod -aG hybridnet \$USER, then log in again), or run the program as root" \
	hn_asuser 65534 65534 demo
sed -i 's/^hybridnet:x:123:$/hybridnet:x:123:nobody/' /etc/group
check "in the group, but not this session: log in again" says 1 \
	"demo: cannot open /dev/hybridnet: permission denied: you are in the group hybridnet, which may open it (crw-rw----), but this session started before you joined it: log in again, or run 'newgrp hybridnet'" \
	hn_asuser 65534 65534 demo
check "in the group: the device opens" \
	hn_asuser 65534 65534,123 hntraffic --pattern all-to-all --batch 1 --nodes 0,1
check "a change without CAP_NET_ADMIN: run it as root" says 2 \
	"hnctl: set refused: Operation not permitted: this needs CAP_NET_ADMIN: run it as root (sudo)" \
	hn_asuser 65534 65534,123 hnctl set policy ses
chmod 600 /dev/hybridnet
chgrp 0 /dev/hybridnet

# ---- who holds a node ----------------------------------------------------
hn_hold 3 >/dev/null 2>&1 &
H=$!
check "hn_hold holds node 3" holder 3
check "sysfs nodes/3/holder: the program that bound it" says 0 \
	"a file of pid $H (hn_hold)" cat $SYS/nodes/3/holder
check "sysfs nodes/4/holder: nothing" says 0 "nothing" cat $SYS/nodes/4/holder
check "a bind of a held node names the holder" says 1 \
	"hn_hold: cannot bind node 3: it is bound to a file of pid $H (hn_hold): bind another node, or end that program (hnctl show lists the nodes bound)" \
	hn_hold 3
check "hntraffic names it too, and its --nodes" says 1 \
	"hntraffic: cannot bind node 3: it is bound to a file of pid $H (hn_hold): bind another node, or end that program (hnctl show lists the nodes bound); hntraffic takes the nodes --nodes names" \
	hntraffic --pattern all-to-all --batch 1 --nodes 2,3
check "a rebuild refused, naming the node and its holder" says 2 \
	"hnctl: set refused: cannot change the fabric now: node 3 is bound to a file of pid $H (hn_hold): close it first" \
	hnctl set nodes 16
kill $H
wait $H 2>/dev/null

# ---- ranges, slots, a node to itself -------------------------------------
check "set: a node count out of range names the range" says 1 \
	"hnctl set: nodes: '100000' is out of range: 2..4096
Try 'hnctl set --help'." hnctl set nodes 100000
check "16 nodes" sh -c 'hnctl set nodes 16 >/dev/null'
check "preload shift 1..8 on 4 slots: 8 configurations for 4 slots" says 1 \
	"hnctl: preload: 8 slot configurations (slots 0..7), but the fabric has 4 slots: give at most 4, or set more first (hnctl set slots 8)" \
	hnctl preload shift 1..8
check "preload a node to itself: refused, with why" says 1 \
	"hnctl preload: pair 3:3: a circuit cannot connect a node to itself
Try 'hnctl preload --help'." hnctl preload slot 0 0:1 3:3
check "predict a node to itself: refused, with why" says 1 \
	"hnctl predict: '3:3': a circuit cannot connect a node to itself
Try 'hnctl predict --help'." hnctl predict 3:3
check "nothing was preloaded" says 0 "" hnctl circuits

# ---- a dry run: the engine's checks against the live fabric --------------
# the same words from the dry run and from the kernel, and the dry run
# changes nothing
same_refusal() {
	dry=$(hnctl -n "$@" 2>&1)
	drc=$?
	before=$(hnctl circuits)
	real=$(hnctl "$@" 2>&1)
	rrc=$?
	echo "dry run (status $drc): $dry"
	echo "kernel (status $rrc):  $real"
	[ $drc -eq 2 ] && [ $rrc -eq 2 ] && [ "$dry" = "$real" ] &&
		[ "$(hnctl circuits)" = "$before" ]
}
check "preload slot 0 0:1 1:2" sh -c 'hnctl preload slot 0 0:1 1:2 >/dev/null'
check "dry run: a connection the live fabric has in another slot" says 2 \
	"hnctl: preload refused: 0:1 for slot 1 is already in slot 0" \
	hnctl -n preload slot 1 0:1
check "dry run and kernel: one connection in two slots, in the same words" \
	same_refusal preload slot 1 0:1
check "dry run and kernel: two circuits to one output, in the same words" \
	same_refusal preload slot 1 2:3 4:3
check "dry run: a preload the live fabric takes is printed, not sent" says 0 \
	"nodes 16
slot 1 2:3 4:5" sh -c 'hnctl -n preload slot 1 2:3 4:5 && hnctl circuits slot 1'
check "a fat tree" sh -c 'hnctl set topology fattree:2,4 >/dev/null'
check "dry run and kernel: two paths on one up-link, in the same words" \
	same_refusal preload slot 0 0:4/0 1:5/0
check "dry run and kernel: a path that does not exist, in the same words" \
	same_refusal preload slot 0 0:4/9
check "back to the crossbar, 8 nodes" sh -c \
	'hnctl set topology crossbar nodes 8 >/dev/null'

check "rmmod" rmmod hybridnet
echo "1..$n"
[ "$fails" -eq 0 ]
