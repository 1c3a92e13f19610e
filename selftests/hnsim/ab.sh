#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# ab.sh - do two builds of hnsim print the same results?  Runs each
# `hnsim run --json` of a matrix with both and compares what they print,
# the wall time aside.  For a change that should move no result (a speed-up,
# a refactoring): "results unchanged" is this script's last line.
#
#   selftests/hnsim/ab.sh [-v] OLD NEW [SET...]
#
# OLD and NEW are hnsim binaries (e.g. one built with make O=/tmp/old from
# the commit before).  SETs, all by default:
#   fabrics   FT(2,4), FT(3,4), the torus and mesh 4x4, GH(2,4) by each
#             switching, three patterns, loads 0.2 and 0.6, slots of 10, 13
#             and 200 ns (270 runs)
#   options   FT(3,4) and the torus with tight receivers, lqf, overlap, up-port
#             choice, flit buffers, faults over time, batch, SES, PREEMPT,
#             long messages (96 runs)
#   features  the same four fabrics and the crossbar with circuits, PREEMPT,
#             guard bands, Dynamic TDM, faults, deadlock timing, drop, a
#             message's own switching, the flit router (114 runs)
#   single    the crossbar (16, 64 nodes) and FT(1,8), one switch, by each
#             switching, with the options above (540 runs)
# -v prints each run that differs as a diff.  Exit status 1 if any differs.
set -u
verbose=0
[ "${1:-}" = -v ] && { verbose=1; shift; }
if [ $# -lt 2 ]; then
	echo "usage: $0 [-v] OLD-hnsim NEW-hnsim [fabrics|options|features|single]..." >&2
	exit 2
fi
A=$1 B=$2
shift 2
sets=${*:-fabrics options features single}
runs=0 differ=0

one() {
	local a b
	a=$("$A" run "$@" --json 2>&1 | sed 's/"wall_s": [0-9.e-]*//')
	b=$("$B" run "$@" --json 2>&1 | sed 's/"wall_s": [0-9.e-]*//')
	runs=$((runs + 1))
	case "$a" in
	"{"*) ;;
	*) echo "refused by OLD: hnsim run $*: $(echo "$a" | head -c 160)" ;;
	esac
	if [ "$a" != "$b" ]; then
		differ=$((differ + 1))
		echo "DIFFERS: hnsim run $*"
		[ $verbose = 1 ] && diff <(echo "$a" | tr ',' '\n') \
					 <(echo "$b" | tr ',' '\n') | head -20
	fi
}

fabrics() {
	local t s p l x
	for t in fattree:2,4 fattree:3,4 torus:4x4 mesh:4x4 gh:2,4; do
	for s in wormhole vct saf; do
	for p in uniform transpose hotspot; do
	for l in 0.2 0.6; do
	for x in 10 13 200; do
		one --pattern $p --load $l -t $t --net wormhole \
		    -s switching=$s -s slot_w_ns=$x -s slot_p_ns=$x
	done; done; done; done; done
}

OPTS=("-s rx_buf_bytes=1024 -s max_msg_bytes=1024 -s nic_buf_bytes=1024 -s sw_buf_bytes=1024"
      "-s voq_arbiter=lqf" "-s wh_overlap=1" "-s up_select=random"
      "-s up_select=adaptive" "-s vc_flits=4"
      "-s sw_buf_bytes=256 -s max_msg_bytes=256"
      "-s fault_mtbf_ns=20000 -s fault_repair_ns=5000" "--batch 50"
      "-k 4 -P ses" "-k 4 -P preempt"
      "-s max_msg_bytes=2048 --size 64-2048")

options() {
	local t x l o load
	for t in fattree:3,4 torus:4x4; do
	for o in "${OPTS[@]}"; do
	for x in 10 200; do
	for l in 0.3 0.8; do
		load="--load $l"
		[[ $o == --batch* ]] && load=
		# shellcheck disable=SC2086
		one --pattern uniform $load -t $t --net wormhole \
		    -s slot_w_ns=$x -s slot_p_ns=$x $o
	done; done; done; done
}

FEATS=("--net hybrid" "--net hybrid -P preempt" "--net hybrid -s guard_ns=20"
       "-k 4 -P dynamic -s idle_timeout_ns=2000"
       "--net hybrid -s fault_mtbf_ns=30000 -s fault_repair_ns=8000"
       "--net wormhole -s deadlock_ns=5000" "--net wormhole -s switching=drop"
       "--net wormhole --msg-switching saf" "--net hybrid -s switching=vct"
       "--net wormhole -s vc_count=2 -s vc_flits=8")

features() {
	local t f p fab
	for t in fattree:3,4 torus:4x4 gh:2,4 crossbar; do
	for f in "${FEATS[@]}"; do
	for p in transpose mixed phased; do
		fab="-t $t"
		if [ $t = crossbar ]; then
			# no link between switches to fail, no switch to feed
			[[ $f == *fault_mtbf* || $f == *vc_count* ]] && continue
			fab="-n 16"
		fi
		# shellcheck disable=SC2086
		one --pattern $p --load 0.4 $fab $f
	done; done; done
}

single() {
	local fab s o x l load
	for fab in "-n 16" "-n 64" "-t fattree:1,8"; do
	for s in wormhole vct saf; do
	for o in "" "-k 4 -P ses" "-k 4 -P preempt" "-s voq_arbiter=lqf" \
		 "-s wh_overlap=1" "${OPTS[0]}" "--batch 50" \
		 "--msg-switching saf" "${OPTS[11]}" "--net hybrid"; do
	for x in 10 13 200; do
	for l in 0.3 0.8; do
		load="--load $l"
		[[ $o == --batch* ]] && load=
		# shellcheck disable=SC2086
		one --pattern uniform $load $fab --net wormhole \
		    -s switching=$s -s slot_w_ns=$x -s slot_p_ns=$x $o
	done; done; done; done; done
}

for s in $sets; do
	case $s in
	fabrics | options | features | single) $s ;;
	*) echo "$0: no set $s (fabrics, options, features, single)" >&2
	   exit 2 ;;
	esac
done
echo "$runs runs, $differ differ"
[ $differ = 0 ]
