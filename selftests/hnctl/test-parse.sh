#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# selftests/hnctl/test-parse.sh HNCTL - hnctl without the module: help,
# argument parsing (--dry-run prints the request it would send), phase
# files and their generators (--print), and the errors they give.  Every
# test asserts the exact output and exit status.  Prints TAP; exits 1 if a
# test failed.
set -u

HNCTL=${1:-build/hnctl}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
. "$(dirname "$0")/../tap.sh"	# report OK DESC [DETAILS FILE...]

# expect out|err DESC RC EXPECTED CMD...: the exit status, and exactly
# EXPECTED on stdout (out) or on stderr with nothing on stdout (err)
expect() {
	local on=$1 desc=$2 rc=$3 want=$4 got name other
	shift 4
	"$HNCTL" "$@" > "$T/out" 2> "$T/err"
	got=$?
	printf '%s\n' "$want" > "$T/want"
	if [ "$on" = out ]; then
		name=stdout other=err
	else
		name=stderr other=out
	fi
	if [ "$got" = "$rc" ] && cmp -s "$T/want" "$T/$on" &&
		{ [ "$on" = out ] || ! [ -s "$T/out" ]; }; then
		report 1 "$desc"
	else
		echo "exit $got (want $rc); $name, then the expected:" > "$T/why"
		diff "$T/$on" "$T/want" >> "$T/why"
		report 0 "$desc" "$T/why" "$T/$other"
	fi
}

out() { expect out "$@"; }	# out DESC RC EXPECTED_STDOUT CMD...
err() { expect err "$@"; }	# err DESC RC EXPECTED_STDERR CMD...

file() {	# file NAME: stdin into $T/NAME
	cat > "$T/$1"
}

# ---- help ---------------------------------------------------------------
for c in show set preload predict release circuits stats top links switches \
	monitor sched traffic netdev capture fabric; do
	"$HNCTL" "$c" --help > "$T/h1" 2> "$T/err"; r1=$?
	"$HNCTL" help "$c" > "$T/h2"; r2=$?
	"$HNCTL" "$c" help > "$T/h3"; r3=$?
	ok=0
	[ $r1 = 0 ] && [ $r2 = 0 ] && [ $r3 = 0 ] && cmp -s "$T/h1" "$T/h2" &&
		cmp -s "$T/h1" "$T/h3" && ! [ -s "$T/err" ] &&
		grep -q "^    hnctl $c - " "$T/h1" &&
		grep -q '^SYNOPSIS$' "$T/h1" && grep -q '^EXAMPLES$' "$T/h1" &&
		ok=1
	report $ok "$c --help, help $c and $c help: the same page" "$T/h1"
done
"$HNCTL" --help > "$T/h1"; r1=$?
ok=0
[ $r1 = 0 ] && grep -q '^EXIT STATUS$' "$T/h1" &&
	[ "$(grep -c '^    [a-z]*  *[a-z]' "$T/h1")" -ge 8 ] && ok=1
report $ok "--help lists the commands and the exit status" "$T/h1"
for a in --help -h help; do
	"$HNCTL" help $a > "$T/h2" 2>&1; r2=$?
	ok=0
	[ $r2 = 0 ] && cmp -s "$T/h1" "$T/h2" && ok=1
	report $ok "help $a: the main help, as --help" "$T/h2"
done

err "no command" 1 "hnctl: no command (show, set, preload, predict, release, circuits, stats, top, links, switches, monitor, traffic, sched, netdev, capture, fabric)
Try 'hnctl --help'."
err "unknown command" 1 "hnctl: unknown command 'frobnicate'
Try 'hnctl --help'." frobnicate
err "unknown global option" 1 "hnctl: unknown option '--frob'
Try 'hnctl --help'." --frob show
err "ambiguous prefix" 1 "hnctl: unknown command 's'
Try 'hnctl --help'." s
out "unique prefix: circ" 0 "circuit-get dump" -n circ

# ---- show and set -------------------------------------------------------
out "show -n" 0 "config-get" -n show
out "show -j -n" 0 '{"request":"config-get"}' -n -j show nodes
err "show: unknown key" 1 "hnctl show: unknown key 'bogus'
Try 'hnctl show --help'." show bogus
out "set -n: every kind of value" 0 \
	"config-set nodes 16 slots 4 policy ses,preempt,slot slot-p-ns 200 nic-buf-bytes 8192 idle-timeout-ns 10000 profile ding5 clock paced" \
	-n set nodes 16 slots 4 policy ses,preempt,slot slot_p_ns 200 \
	nic-buf-bytes 8K idle-timeout-ns 10us profile ding5 clock paced
out "set -j -n" 0 \
	'{"request":"config-set","nodes":16,"policy":"sla","max-msg-bytes":1048576,"idle-timeout-ns":0,"clock":"free"}' \
	-j -n set nodes 16 policy sla max-msg-bytes 1M idle-timeout-ns never clock free
for k in k nic-buf sw-buf rx-buf max-msg; do	# no deprecated names
	err "set: the earlier name $k is no key" 1 "hnctl set: unknown key '$k'
Try 'hnctl set --help'." -n set $k 2
done
out "set: options after the command" 0 "config-set nodes 4" set -n nodes 4
out "set: times in us, ms, s" 0 \
	"config-set slot-p-ns 1000 slot-w-ns 2000000 sched-ns 1000000000" \
	-n set slot-p-ns 1us slot-w-ns 2ms sched-ns 1s
out "set: enums by name or number" 0 \
	"config-set predict-algo kstep predict-kstep 3 clock paced" \
	-n set predict-algo kstep predict-kstep 3 clock 1
err "set: a bad enum" 1 "hnctl set: predict-algo: 'best' is not first-fit, kstep or second-level
Try 'hnctl set --help'." set predict-algo best
out "set: the eviction predictor by name" 0 \
	"config-set evict-algo counter evict-count 300" \
	-n set evict-algo counter evict-count 300
err "set: a bad eviction predictor" 1 "hnctl set: evict-algo: 'lru' is not timeout or counter
Try 'hnctl set --help'." set evict-algo lru
out "set: the topology" 0 "config-set topology fattree:3,4 nodes 64" \
	-n set topology fattree:3,4 nodes 64
out "set -j: the topology is a string" 0 \
	'{"request":"config-set","topology":"crossbar"}' -n -j set topology crossbar
err "set: a topology longer than any" 1 "hnctl set: topology: 'fattree:1000000,2' is not crossbar, fattree:L,W, mesh:KxK.., torus:KxK.. or gh:N,K
Try 'hnctl set --help'." set topology fattree:1000000,2
out "set: the switching technique and up-port choice, by word or number" 0 \
	"config-set switching saf up-select adaptive" \
	-n set switching 2 up_select adaptive
out "set -j: switching and up-select are words" 0 \
	'{"request":"config-set","switching":"vct","up-select":"random"}' \
	-n -j set switching vct up-select 1
err "set: a bad switching technique" 1 "hnctl set: switching: 'cut' is not wormhole, vct, saf or drop
Try 'hnctl set --help'." set switching cut
err "set: a bad up-port choice" 1 "hnctl set: up-select: 'least' is not det, random or adaptive
Try 'hnctl set --help'." set up-select least
out "set: hex" 0 "config-set link-mbps 6400" -n set link-mbps 0x1900
out "policy words" 0 "config-set policy dynamic" -n set policy dynamic
out "policy 'sla+no-w'" 0 "config-set policy sla,no-w" -n set policy sla+no-w
out "policy fixed" 0 "config-set policy fixed" -n set policy fixed
out "policy as a number, unnamed bits in hex" 0 \
	"config-set policy no-w,0x2" -n set policy 0x12
err "set: unknown key" 1 "hnctl set: unknown key 'speed'
Try 'hnctl set --help'." set speed 3
err "set: not a number" 1 "hnctl set: nodes: 'x' is not a number
Try 'hnctl set --help'." set nodes x
err "set: u32 overflow" 1 "hnctl set: nodes: '4294967296' is not a number
Try 'hnctl set --help'." set nodes 4294967296
err "set: a byte unit on a time" 1 "hnctl set: slot-p-ns: '2K' is not a time in ns (or with us, ms, s)
Try 'hnctl set --help'." set slot-p-ns 2K
err "set: a bad policy" 1 "hnctl set: policy: 'ses,fast' is not fixed, ses, sla, preempt[,slot][,no-w], dynamic, or a number
Try 'hnctl set --help'." set policy ses,fast
err "set: a bad clock" 1 "hnctl set: clock: 'slow' is not free or paced
Try 'hnctl set --help'." set clock slow
err "set: a key twice" 1 "hnctl set: nodes given twice
Try 'hnctl set --help'." set nodes 4 nodes 8
err "set: no value" 1 "hnctl set: slots needs a value (a number)
Try 'hnctl set --help'." set slots
err "set: now is read only" 1 "hnctl set: now cannot be set
Try 'hnctl set --help'." set now 5
err "set: nothing" 1 "hnctl set: nothing to set: give KEY VALUE...
Try 'hnctl set --help'." set

# ---- -p, --pretty: indented JSON (as ip -j -p) ---------------------------
out "-j -p: one member per line, two spaces a level" 0 '{
  "request": "config-set",
  "nodes": 16,
  "policy": "sla"
}' -j -p -n set nodes 16 policy sla
out "--json --pretty after the command, nested" 0 '{
  "request": "predict",
  "pairs": [
    {
      "src": 0,
      "dst": 1
    }
  ]
}' -n predict --pretty 0:1 --json
out "-p: an empty array stays []" 0 '{
  "nodes": 4,
  "phases": [
    {
      "slots": [
        {
          "slot": 0,
          "pairs": []
        }
      ]
    }
  ]
}' -j -p preload --nodes 4 --print slot 0
out "-p without -j changes nothing (as ip)" 0 "config-set nodes 16" -p -n set nodes 16
"$HNCTL" --help > "$T/h1"
ok=0
grep -q '^    -p, --pretty ' "$T/h1" &&
	grep -q '^    4  predict, sched: every request was refused' "$T/h1" && ok=1
report $ok "--help names -p and exit status 4" "$T/h1"

# hnsim --json --pretty indents as hnctl -j -p does, and says the same
HNSIM=$(dirname "$HNCTL")/hnsim
if [ -x "$HNSIM" ]; then
	run="run --pattern uniform --batch 2 -n 4 --seed 1 --json"
	"$HNSIM" $run > "$T/c" 2>&1
	"$HNSIM" $run --pretty > "$T/p" 2>&1
	ok=0
	python3 -c 'import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:])
a.pop("wall_s"); b.pop("wall_s")
sys.exit(a != b)' "$T/c" "$T/p" 2>> "$T/p" &&
		[ "$(sed -n 1,2p "$T/p")" = '{
  "pattern": "uniform",' ] &&
		grep -qx '  "why": "completed: every message delivered",' "$T/p" &&
		[ "$(tail -n 1 "$T/p")" = "}" ] && ok=1
	report $ok "hnsim run --json --pretty: the same object, indented" "$T/p"
	"$HNSIM" sched -t crossbar:4 -a greedy -n 1 --no-progress --json \
		--pretty > "$T/p" 2>&1
	ok=0
	grep -qx '  "flags": {' "$T/p" &&
		grep -qx '    "request_major": false,' "$T/p" &&
		grep -qx '  "points": \[' "$T/p" && ok=1
	report $ok "hnsim sched --json --pretty: nests indented two spaces a level" \
		"$T/p"
	# (docs/hnsim.md's trace example: make check-docs runs it)
	# one vocabulary: what the module takes, hnsim takes, and back
	printf '0 0 1 128\n' | "$HNSIM" -n 4 -k 2 -s preload=shift \
		--no-progress > "$T/p" 2>&1
	ok=0
	grep -q '^messages .*delivered 1 (circuit 1, wormhole 0)' "$T/p" &&
		grep -q ' 2 preloads$' "$T/p" && ok=1
	report $ok "hnsim -s preload=shift: the module's shift, by circuit" \
		"$T/p"
	# ft_sched: Fig. 7.4's conflict on FT(2,3): 0->3 and 6->4 both
	# reach leaf 1; local-greedy climbs both by up-port 0 and meets
	# the same down-link, level-wise takes port 1 for the second
	ok=1
	for a in levelwise:2 local-greedy:1 optimal:2; do
		printf '0 predict 0:3 6:4\n' | "$HNSIM" -t fattree:2,3 -k 1 \
			-s predict_algo=kstep -s ft_sched=${a%:*} \
			--no-progress > "$T/p" 2>&1
		grep -q "^scheduler   ${a#*:} grants" "$T/p" || ok=0
	done
	"$HNSIM" -s ft_sched=kstep -t fattree:2,3 < /dev/null > "$T/p" 2>&1 &&
		ok=0
	grep -q "ft_sched=kstep: neither levelwise, local-greedy" "$T/p" || ok=0
	report $ok "hnsim -s ft_sched: the scheduler routing a fat tree's circuits" \
		"$T/p"
	# hnctl -j show of a module loaded with profile=ding5 nodes=8
	# slots=4, then hnctl set policy sla pin-slots 1 predict-algo
	# kstep predict-kstep 3 evict-algo counter idle-timeout-ns 5us, its
	# members moved so that profile comes after fields it sets (the VM
	# test, hnctl-vm.sh, feeds hnsim the live output)
	cat > "$T/show.json" <<'EOF2'
{"topology":"crossbar","nodes":8,"slots":4,"policy":"sla","link-mbps":6400,"slot-p-ns":100,"slot-w-ns":100,"guard-ns":0,"sched-ns":80,"setup-ns":0,"wh-first-ns":80,"wh-flit-ns":10,"flit-bytes":8,"worm-bytes":128,"wire-ns":80,"nic-ns":10,"fabric-ns":0,"nic-buf-bytes":8192,"sw-buf-bytes":8192,"rx-buf-bytes":65536,"max-msg-bytes":8192,"idle-timeout-ns":5000,"pin-slots":1,"profile":"ding5","clock":"free","pace-ppm":1000,"now":123456,"predict-algo":"kstep","predict-kstep":3,"evict-algo":"counter","evict-count":512,"wh-overlap":0,"serdes-ns":30,"bound-nodes":[0,3],"open-files":2}
EOF2
	"$HNSIM" config -j -c "$T/show.json" > "$T/p" 2>&1
	printf '%s\n' '{"topology":"crossbar","nodes":8,"slots":4,"policy":"sla","link-mbps":6400,"slot-p-ns":100,"slot-w-ns":100,"guard-ns":0,"sched-ns":80,"setup-ns":0,"wh-first-ns":80,"wh-flit-ns":10,"flit-bytes":8,"worm-bytes":128,"wire-ns":80,"nic-ns":10,"fabric-ns":0,"nic-buf-bytes":8192,"sw-buf-bytes":8192,"rx-buf-bytes":65536,"max-msg-bytes":8192,"idle-timeout-ns":5000,"pin-slots":1,"predict-algo":"kstep","predict-kstep":3,"evict-algo":"counter","evict-count":512,"wh-overlap":0,"serdes-ns":30,"switching":"wormhole","up-select":"det","ft-sched":"levelwise"}' > "$T/want"
	# every member wanted, in its order (a field newer than the object
	# reads back as its default, after them)
	members() { sed 's/^{//; s/}$//; s/,"/\n"/g' "$1"; }
	same_members() {
		members "$T/want" > "$T/m1"
		members "$T/p" | grep -xF -f "$T/m1" | cmp -s - "$T/m1"
	}
	ok=0
	same_members && ok=1
	report $ok "hnsim config -j -c: hnctl show -j reads back, field for field" \
		"$T/p"
	"$HNSIM" config -c "$T/show.json" > "$T/kv" 2>&1
	"$HNSIM" config -j -c "$T/kv" > "$T/p" 2>&1
	ok=0
	same_members && ok=1
	report $ok "hnsim config: module parameters that -c reads back" "$T/p"
	printf '0 0 1 128\n' | "$HNSIM" -c "$T/show.json" --no-progress \
		> "$T/p" 2>&1
	ok=0
	grep -q '^fabric .*8 nodes, slots 4 predictive + wormhole slot 4w, policy sla' "$T/p" && ok=1
	report $ok "hnsim -c: a trace runs on hnctl show -j's configuration" \
		"$T/p"
	: > "$T/q1"
	for k in k nic_buf sw-buf rx_buf max_msg; do	# no deprecated names
		"$HNSIM" config -s $k=3 >> "$T/q1" 2>&1
	done
	cat > "$T/want1" <<'EOF2'
hnsim config: unknown key 'k' (see --help)
hnsim config: unknown key 'nic_buf' (see --help)
hnsim config: unknown key 'sw_buf' (see --help)
hnsim config: unknown key 'rx_buf' (see --help)
hnsim config: unknown key 'max_msg' (see --help)
EOF2
	ok=0
	diff "$T/want1" "$T/q1" > "$T/d1" && ok=1
	report $ok "hnsim: the earlier names k, nic_buf, ... are no keys" "$T/d1"
	# the topology, -t or -s topology=, as text both ways, printed first;
	# a fat tree has W^L nodes
	for t in "crossbar -n 16" "fattree:2,4 -P no-w"; do
		# shellcheck disable=SC2086 # $t: the topology, more options
		"$HNSIM" config -t $t > "$T/kv" 2>&1
		"$HNSIM" config -j -c "$T/kv" > "$T/p" 2>&1
		ok=0
		[ "$(head -n 2 "$T/kv" | tr '\n' ' ')" = "topology=${t%% *} nodes=16 " ] &&
			grep -q "^{\"topology\":\"${t%% *}\",\"nodes\":16," "$T/p" &&
			ok=1
		report $ok "hnsim config -t ${t%% *}: 16 nodes, the topology first, read back" \
			"$T/kv" "$T/p"
	done
	: > "$T/q4"
	for a in "-t ring:8" "--topology fattree:3,65" "-s topology=fattree:0,4" \
		"-s topology=fattree:4,16" "-t crossbar:16"; do
		# shellcheck disable=SC2086 # $a: an option and its value
		"$HNSIM" config $a >> "$T/q4" 2>&1
		echo "status $?" >> "$T/q4"
	done
	cat > "$T/want4" <<'EOF2'
hnsim config: topology=ring:8: topology must be crossbar, fattree:L,W, mesh:KxK, torus:KxK or gh:N,K
status 1
hnsim config: topology=fattree:3,65: topology fattree:L,W: W, the width, must be 2..64
status 1
hnsim config: topology=fattree:0,4: topology fattree:L,W: L, the levels, must be at least 1
status 1
hnsim config: topology=fattree:4,16: topology fattree:L,W: W^L, the nodes, must be at most 4096
status 1
hnsim config: topology=crossbar:16: topology must be crossbar, fattree:L,W, mesh:KxK, torus:KxK or gh:N,K
status 1
EOF2
	ok=0
	diff "$T/want4" "$T/q4" > "$T/d4" && ok=1
	report $ok "hnsim -t: text that is no topology, the reason" "$T/d4"
	# a fat tree: its node count held to W^L, and circuits on it
	"$HNSIM" config -t fattree:2,4 -n 32 -P no-w > "$T/p" 2>&1
	ok=0
	[ "$(cat "$T/p")" = "hnsim config: bad configuration: a fat tree FT(l, w) has w^l nodes: nodes must be width^levels" ] &&
		ok=1
	report $ok "hnsim config -t fattree:2,4 -n 32: not W^L, refused" "$T/p"
	printf '0 preload 0 0:5 5:0\n0 0 5 64\n10 5 0 64\n' |
		"$HNSIM" -t fattree:2,4 -k 1 -P no-w --no-progress > "$T/p" 2>&1
	ok=0
	grep -q '^messages .*delivered 2 (circuit 2, wormhole 0), in flight 0' \
		"$T/p" && ok=1
	report $ok "hnsim -t fattree:2,4: a trace's circuits cross the tree" "$T/p"
	# a fat tree carries worms: node 0's two messages, one to its own
	# leaf switch (Duato's wormhole latency over D = 2 links: 141 ns
	# under ding4), the other up three levels after it (D = 6: 305 ns,
	# and 100 ns behind the first at node 0's input)
	: > "$T/q5"
	printf '0 0 1 64\n0 0 63 64\n' |
		"$HNSIM" -t fattree:3,4 --no-progress > "$T/t5" 2>&1
	echo "status $?" >> "$T/t5"
	grep -E '^(latency|status)' "$T/t5" >> "$T/q5"
	"$HNSIM" run --topology fattree:3,4 --pattern uniform --batch 1 \
		> "$T/r5" 2>&1
	echo "status $?" >> "$T/r5"
	grep -E '^(ended|status)' "$T/r5" | sed 's/ (.*s wall)//' >> "$T/q5"
	"$HNSIM" config -s topology=fattree:3,4 -n 32 >> "$T/q5" 2>&1
	echo "status $?" >> "$T/q5"
	cat > "$T/want5" <<'EOF2'
latency     min 141, mean 273, p50 <= 143, p99 <= 405, max 405 ns
status 0
ended       completed: every message delivered, at 1000 ns virtual
status 0
hnsim config: bad configuration: a fat tree FT(l, w) has w^l nodes: nodes must be width^levels
status 1
EOF2
	ok=0
	diff "$T/want5" "$T/q5" > "$T/d5" && ok=1
	report $ok "hnsim -t fattree:3,4: trace and run cross the tree" \
		"$T/d5"
	# the switching technique and the up-port choice, words both ways
	"$HNSIM" config -s switching=wormhole -s up-select=random > "$T/kv" 2>&1
	"$HNSIM" config -j -c "$T/kv" > "$T/p" 2>&1
	ok=0
	grep -qx 'up_select=random' "$T/kv" && grep -qx 'switching=wormhole' "$T/kv" &&
		grep -q '"switching":"wormhole","up-select":"random",' "$T/p" &&
		ok=1
	report $ok "hnsim config: switching and up_select as words, read back" \
		"$T/kv" "$T/p"
	for u in det random adaptive; do
		"$HNSIM" config -j -s up_select=$u > "$T/p" 2>&1
		grep -q "\"up-select\":\"$u\"," "$T/p" || echo "$u" >> "$T/q2"
	done
	report "$( [ -s "$T/q2" ] && echo 0 || echo 1)" \
		"hnsim: every up-port choice is taken" "$T/q2"
	for a in levelwise local-greedy local-random optimal; do
		"$HNSIM" config -j -s ft_sched=$a > "$T/p" 2>&1
		grep -q "\"ft-sched\":\"$a\"[,}]" "$T/p" || echo "$a" >> "$T/q3"
	done
	report "$( [ -s "$T/q3" ] && echo 0 || echo 1)" \
		"hnsim: every fat-tree scheduler is taken, and printed as its word" "$T/q3"
	"$HNSIM" config -s switching=cut > "$T/p" 2>&1
	ok=0
	[ "$(cat "$T/p")" = "hnsim config: switching=cut: neither wormhole, vct, saf, drop nor a number" ] && ok=1
	report $ok "hnsim: a switching technique that is not one" "$T/p"
	# cut-through and store-and-forward: 64 B over the crossbar's two
	# links, Duato's base latency under ding4 (wormhole's is 141 ns)
	for s in vct:141 saf:221; do
		printf '0 0 1 64\n' | "$HNSIM" -n 4 -s switching=${s%:*} \
			--no-progress > "$T/p" 2>&1
		grep -qx "latency     min ${s#*:}, mean ${s#*:}, .*" "$T/p" ||
			cat "$T/p" >> "$T/q3"
	done
	report "$( [ -s "$T/q3" ] && echo 0 || echo 1)" \
		"hnsim -s switching=vct, saf: Duato's base latency" "$T/q3"
	"$HNSIM" config -s slots=65 > "$T/p" 2>&1
	ok=0
	[ "$(cat "$T/p")" = "hnsim config: slots=65: out of range 0..64" ] && ok=1
	report $ok "hnsim: a key out of the module's range" "$T/p"
	printf '{"nodes":8,"slots":4\n' > "$T/bad.json"
	"$HNSIM" config -c "$T/bad.json" > "$T/p" 2>&1
	ok=0
	grep -q "bad.json: byte 21: not JSON: want ',' or '}'" "$T/p" && ok=1
	report $ok "hnsim -c: JSON that does not end" "$T/p"
	# a run's latency has the names of the module's statistics
	# (stats/lat_*_ns, hn_lists.h, by mode too), in run and trace
	# reports alike
	want=$(sed -n 's/^HN_GSTAT(\(lat_[a-z0-9_]*_ns\),.*/\1/p' \
		"$(dirname "$0")/../../kmod/hn_lists.h" | sort | tr '\n' ' ')
	ok=0
	for mode in run trace; do
		if [ $mode = run ]; then
			"$HNSIM" run -n 8 --pattern uniform --batch 10 --json
		else
			printf '0 0 1 64\n10 1 0 64\n' | "$HNSIM" -n 2 --json -
		fi > "$T/p" 2>&1
		got=$(grep -o '"lat_[a-z0-9_]*_ns"' "$T/p" | tr -d '"' |
			grep -v lat_sum | sort -u | tr '\n' ' ')
		[ -n "$want" ] && [ "$got" = "$want" ] && ok=$((ok + 1))
		echo "$mode: want '$want', got '$got'" >> "$T/q"
	done
	[ $ok -eq 2 ] && ok=1 || ok=0
	report $ok "hnsim run and trace --json: latency keys are the module's stat names" \
		"$T/q"
	# by mode: a frame of ping (98 B) on a circuit, then by wormhole
	# once the circuit is released, at zero load (ding4): 164 ns (98 B
	# at 6.4 Gb/s from a byte boundary, 123 ns, and 41 ns of NICs, wires
	# and fabric) against Eq. 3.3's 191 (selftests/core/test_mode_stats.c)
	printf '0 preload 0 0:1\n1000 0 1 98\n2000 0 1 98\n3000 release all\n4000 0 1 98\n5000 0 1 98\n' |
		"$HNSIM" -n 4 --json - > "$T/p" 2>&1
	ok=0
	grep -q '"lat_min_circuit_ns": 164, "lat_mean_circuit_ns": 164, "lat_p50_circuit_ns": 164, "lat_p99_circuit_ns": 164, "lat_max_circuit_ns": 164, "lat_min_wormhole_ns": 191, "lat_mean_wormhole_ns": 191, "lat_p50_wormhole_ns": 191, "lat_p99_wormhole_ns": 191, "lat_max_wormhole_ns": 191, ' \
		"$T/p" && ok=1
	report $ok "hnsim trace --json: each mode's latency, the circuit's below the wormhole's" \
		"$T/p"
else
	report 1 "hnsim --pretty # SKIP no $HNSIM"
fi

# ---- predict, release, circuits, stats, monitor -------------------------
out "predict -n" 0 "predict 0:1 2:3 4095:0" -n predict 0:1 2:3 4095:0
out "predict -j -n" 0 \
	'{"request":"predict","pairs":[{"src":0,"dst":1},{"src":7,"dst":3}]}' \
	-j -n predict 0:1 7:3
err "predict: not a pair" 1 "hnctl predict: '0-1' is not SRC:DST
Try 'hnctl predict --help'." predict 0-1
err "predict: nothing" 1 "hnctl predict: no requests: give SRC:DST...
Try 'hnctl predict --help'." predict
out "release a pair" 0 "release 3:4" -n release 3:4
out "release a slot" 0 "release slot 2" -n release slot 2
out "release all" 0 "release all" -n release all
out "release -j: pair" 0 '{"request":"release","pair":{"src":3,"dst":4}}' \
	-n -j release 3:4
out "release -j: slot" 0 '{"request":"release","slot":2}' -n -j release slot 2
out "release -j: all" 0 '{"request":"release","all":true}' -n -j release all
out "link down: two names, a request each" 0 "fault-set down link sw0.1/up0
fault-set down link node3" -n link down sw0.1/up0 node3
out "link down random -j" 0 '{"request":"fault-set","down":true,"random":3,"seed":2}' \
	-n -j link down random 3 seed 2
out "link down: a link's channels, a request each" 0 "fault-set down link sw0.1/up0/c1
fault-set down link node3/c0
fault-set down link sw1.2/down3/c0" -n link down sw0.1/up0/c1 node3/c0 sw1.2/down3/c0
out "link down random-channels" 0 "fault-set down random-channels 3 seed 1" \
	-n link down random-channels 3
out "link down random-channels -j" 0 '{"request":"fault-set","down":true,"random-channels":3,"seed":2}' \
	-n -j link down random-channels 3 seed 2
out "switch up -j" 0 '{"request":"fault-set","down":false,"switches":["sw1.0"]}' \
	-n -j switch up sw1.0
out "switch switching: a switch-set request" 0 \
	"switch-set switch sw1.0 switching saf" -n switch switching sw1.0 saf
out "switch switching -j: back to the fabric's" 0 \
	'{"request":"switch-set","switch":"sw1.0","switching":"fabric"}' \
	-n -j switch switching sw1.0 fabric
err "switch switching: no name" 1 "hnctl switch: switching needs a switch's name and a switching: swL.I, then wormhole, vct, saf or fabric
Try 'hnctl switch --help'." switch switching
err "switch switching: not a switch's name" 1 "hnctl switch: 'node3': expected a switch's name: swL.I
Try 'hnctl switch --help'." switch switching node3 saf
err "switch switching drop: refused" 1 "hnctl switch: 'drop': a switch's switching is wormhole, vct, saf, or fabric (the fabric's)
Try 'hnctl switch --help'." switch switching sw1.0 drop
err "switch switching: junk after" 1 "hnctl switch: 'now': after switching NAME SWITCHING, nothing
Try 'hnctl switch --help'." switch switching sw1.0 saf now
err "link down: no name" 1 "hnctl link: link down what? a link's name
Try 'hnctl link --help'." link down
err "link up random: refused" 1 "hnctl link: random takes links down only: bring each up by its name
Try 'hnctl link --help'." link up random 3
err "link down random: no count" 1 "hnctl link: random needs a count of links
Try 'hnctl link --help'." link down random
err "link down random 0: refused" 1 "hnctl link: random 0 takes nothing down: a count of 1 or more
Try 'hnctl link --help'." link down random 0
err "link down random-channels 0: refused" 1 "hnctl link: random-channels 0 takes nothing down: a count of 1 or more
Try 'hnctl link --help'." link down random-channels 0
err "link down random: junk after" 1 "hnctl link: after random N: only seed S
Try 'hnctl link --help'." link down random 3 foo
err "link down: not a name" 1 "hnctl link: 'x7': expected a link's name: nodeU, swL.I/upP or swL.I/downP, or LINK/cJ its channel J
Try 'hnctl link --help'." link down x7
err "link down: a channel of no link" 1 "hnctl link: 'sw0.1/c1': expected a link's name: nodeU, swL.I/upP or swL.I/downP, or LINK/cJ its channel J
Try 'hnctl link --help'." link down sw0.1/c1
err "link up random-channels: refused" 1 "hnctl link: random-channels takes channels down only: bring each up by its name
Try 'hnctl link --help'." link up random-channels 3
err "link down random-channels: no count" 1 "hnctl link: random-channels needs a count of channels
Try 'hnctl link --help'." link down random-channels
err "release two things" 1 "hnctl release: release one thing: SRC:DST, slot N or all
Try 'hnctl release --help'." release 0:1 all
err "release: slot without a number" 1 "hnctl release: slot needs a slot number
Try 'hnctl release --help'." release slot x
err "release: nothing" 1 "hnctl release: what? SRC:DST, slot N or all
Try 'hnctl release --help'." release
out "circuits -j -n" 0 '{"request":"circuit-get","dump":true}' -j -n circuits
err "circuits: junk" 1 "hnctl circuits: 'x': expected slot N
Try 'hnctl circuits --help'." circuits x
out "stats -n" 0 "stats-get" -n stats
out "stats node -n" 0 "stats-get dump node 7" -n stats node 7
out "stats nodes -j -n" 0 '{"request":"stats-get","dump":true}' -n -j stats nodes
out "stats reset -n" 0 "stats-reset" -n stats reset
err "stats node without a number" 1 "hnctl stats: node needs a node number
Try 'hnctl stats --help'." stats node
err "stats: two words" 1 "hnctl stats: 'reset': one of node N, nodes or reset
Try 'hnctl stats --help'." stats nodes reset
out "top -n: the two requests" 0 "stats-get
pair-get dump" top -n --count 5 --sort wormhole -i 2 --iterations 3
out "top -j -n" 0 '{"requests":[{"request":"stats-get"},{"request":"pair-get","dump":true}]}' -j top -n
out "top -i takes a unit" 0 "stats-get
pair-get dump" -n top -i 500ms
err "top --sort: a key it knows" 1 "hnctl top: --sort 'slowest': one of msgs, bytes, circuit, wormhole, lat, pair
Try 'hnctl top --help'." -n top --sort slowest
err "top -i: at least 1 ms" 1 "hnctl top: -i '10us': seconds (1, 2, ...) or a time with a unit, at least 1ms (500ms)
Try 'hnctl top --help'." -n top -i 10us
err "top -i 0" 1 "hnctl top: -i '0': seconds (1, 2, ...) or a time with a unit, at least 1ms (500ms)
Try 'hnctl top --help'." -n top -i 0
err "top --count: a number" 1 "hnctl top: --count needs a number of pairs (0: all)
Try 'hnctl top --help'." -n top --count many
err "top --iterations 0" 1 "hnctl top: --iterations needs a number, at least 1
Try 'hnctl top --help'." -n top --iterations 0
err "top --sort without a key" 1 "hnctl top: --sort needs a value
Try 'hnctl top --help'." -n top --sort
err "top: a word it does not take" 1 "hnctl top: 'pairs': expected --count N, --sort KEY, -i SECONDS or --iterations N
Try 'hnctl top --help'." -n top pairs
# links and switches by name, as the module's refusals spell them
out "links -n" 0 "link-get dump" -n links
out "links link NAME -n: a switch's up-port's link" 0 \
	"link-get dump link sw0.1/up0" -n links link sw0.1/up0
out "links link NAME -n: a node's link" 0 "link-get dump link node12" \
	-n links link node12
out "switches switch NAME -j -n" 0 \
	'{"request":"switch-get","dump":true,"switch":"sw1.3"}' \
	-j -n switches switch sw1.3
for a in 20 sw1 sw1/p4 "SW(0,0)" sw0.0/p1 node sw0.0/up; do
	err "links link '$a': no link's name" 1 "hnctl links: link needs a name: nodeU or swL.I/upP
Try 'hnctl links --help'." links link "$a"
done
err "switches switch 7: no switch's name" 1 "hnctl switches: switch needs a name: swL.I
Try 'hnctl switches --help'." switches switch 7
err "switches: junk" 1 "hnctl switches: 'sw0.0': expected switch NAME
Try 'hnctl switches --help'." switches sw0.0
out "monitor -n" 0 "subscribe events" -n monitor --count 3
err "monitor --count 0" 1 "hnctl monitor: --count needs a positive number
Try 'hnctl monitor --help'." monitor --count 0
err "monitor: unknown option" 1 "hnctl monitor: unknown option '--fast'
Try 'hnctl monitor --help'." monitor --fast 1

# ---- sched ----------------------------------------------------------------
out "sched -n: crossbar, kstep K" 0 \
	"sched-run topology crossbar:4 algo kstep kstep 3 0:1 0:2 1:1" \
	-n sched crossbar:4 kstep kstep 3 0:1 0:2 1:1
out "sched -n: hnsim's kstep:K is kstep with K" 0 \
	"sched-run topology crossbar:4 algo kstep kstep 3 0:1 0:2 1:1" \
	sched -n crossbar:4 kstep:3 0:1 0:2 1:1
out "sched -j -n: fat-tree flags and seed" 0 \
	'{"request":"sched-run","topology":"fattree:2,2","algo":"levelwise","sched-flags":"request-major,keep-on-fail","seed":9,"pairs":[{"src":0,"dst":2},{"src":1,"dst":3}]}' \
	-j -n sched fattree:2,2 levelwise request-major keep seed 9 0:2 1:3
out "sched -n: keep-on-fail, hnsim's name of keep" 0 \
	"sched-run topology fattree:2,2 algo local-random sched-flags keep-on-fail 0:2" \
	-n sched fattree:2,2 local-random keep-on-fail 0:2
out "sched -n: the scheduler's name is the kernel's to judge" 0 \
	"sched-run topology crossbar:3 algo x 0:1" -n sched crossbar:3 x 0:1
# hnsim sched -t crossbar:4 -w perm -s 2: its first trial's permutation
out "sched --perm: crossbar, hnsim's first trial" 0 \
	"sched-run topology crossbar:4 algo greedy 0:0 1:2 2:1 3:3" \
	-n sched crossbar:4 greedy --perm 2
# a fat tree also takes that trial's local-random seed, unless seed S
out "sched --perm: fat tree, local-random's seed too" 0 \
	"sched-run topology fattree:2,2 algo local-random seed 6025100781707118659 0:2 1:0 2:1 3:3" \
	-n sched fattree:2,2 local-random --perm 1
out "sched --perm: seed S wins" 0 \
	"sched-run topology fattree:2,2 algo local-random seed 5 0:2 1:0 2:1 3:3" \
	-n sched fattree:2,2 local-random --perm 1 seed 5
out "sched --perm -j: every node once a source, once a destination" 0 \
	'{"request":"sched-run","topology":"fattree:1,4","algo":"optimal","seed":7493153601390135467,"pairs":[{"src":0,"dst":3},{"src":1,"dst":2},{"src":2,"dst":1},{"src":3,"dst":0}]}' \
	-j -n sched fattree:1,4 optimal --perm 1
"$HNCTL" -n sched fattree:2,64 levelwise --perm 42 | tr ' ' '\n' |
	grep : | grep -v '^fattree' > "$T/out"
ok=0
[ "$(wc -l < "$T/out")" = 4096 ] &&
	[ "$(cut -d: -f1 "$T/out" | sort -n | uniq | wc -l)" = 4096 ] &&
	[ "$(cut -d: -f2 "$T/out" | sort -n | uniq | wc -l)" = 4096 ] &&
	[ "$(cut -d: -f2 "$T/out" | sort -n | tail -1)" = 4095 ] && ok=1
report $ok "sched --perm on 4096 nodes: a permutation of them all"
err "sched: nothing" 1 "hnctl sched: what? give TOPOLOGY ALGO SRC:DST... or TOPOLOGY ALGO --perm SEED
Try 'hnctl sched --help'." sched
err "sched: no scheduler" 1 "hnctl sched: no scheduler after 'crossbar:4': give ALGO (greedy, kstep, hopcroft-karp, levelwise, local-greedy, local-random, optimal)
Try 'hnctl sched --help'." sched crossbar:4
err "sched: no requests" 1 "hnctl sched: no requests: give SRC:DST... or --perm SEED
Try 'hnctl sched --help'." sched crossbar:4 greedy
err "sched: pairs and --perm" 1 "hnctl sched: give SRC:DST pairs or --perm SEED, not both
Try 'hnctl sched --help'." sched crossbar:4 greedy 0:1 --perm 1
err "sched: kstep without K" 1 "hnctl sched: kstep needs a value (a number >= 1)
Try 'hnctl sched --help'." sched crossbar:4 kstep kstep
err "sched: kstep 0" 1 "hnctl sched: kstep: '0' is not a number >= 1
Try 'hnctl sched --help'." sched crossbar:4 kstep kstep 0 0:1
err "sched: kstep:0" 1 "hnctl sched: 'kstep:0': K of kstep:K is a number >= 1
Try 'hnctl sched --help'." sched crossbar:4 kstep:0 0:1
err "sched: K twice" 1 "hnctl sched: kstep given twice
Try 'hnctl sched --help'." sched crossbar:4 kstep:3 kstep 5 0:1
err "sched: a bad seed" 1 "hnctl sched: seed: 'x' is not a number
Try 'hnctl sched --help'." sched crossbar:4 greedy seed x 0:1
err "sched: --perm without a seed" 1 "hnctl sched: --perm needs a value (a seed)
Try 'hnctl sched --help'." sched crossbar:4 greedy --perm
err "sched: not a pair" 1 "hnctl sched: '0-1': expected SRC:DST, kstep K, seed S, request-major or keep
Try 'hnctl sched --help'." sched crossbar:4 greedy 0-1
err "sched: unknown option" 1 "hnctl sched: unknown option '--fast'
Try 'hnctl sched --help'." sched crossbar:4 greedy --fast 0:1
err "sched --perm: a topology hnctl cannot count" 1 "hnctl sched: --perm: topology 'ring:4': want crossbar:N or fattree:L,W
Try 'hnctl sched --help'." sched ring:4 greedy --perm 1
err "sched --perm: more nodes than a request carries" 1 "hnctl sched: --perm: fattree:4,16 has 65536 nodes; one request carries at most 4096 pairs
Try 'hnctl sched --help'." sched fattree:4,16 optimal --perm 1

# ---- preload on the command line ----------------------------------------
out "preload slots, pairs as given (the kernel checks them)" 0 \
"slot 0 0:1 1:0
slot 1 2:3 4:3
slot 2" -n preload slot 0 0:1 1:0 slot 1 2:3 4:3 slot 2
out "preload: a phase named like a generator" 0 \
"phase mesh
slot 0 0:1 1:0 2:3 3:2
slot 1
slot 2 0:2 1:3 2:0 3:1
slot 3" -n preload phase mesh mesh 2x2
out "mesh 4x4: exactly four slot configurations (E, W, S, N)" 0 \
"nodes 16
slot 0 0:1 1:2 2:3 3:0 4:5 5:6 6:7 7:4 8:9 9:10 10:11 11:8 12:13 13:14 14:15 15:12
slot 1 0:3 1:0 2:1 3:2 4:7 5:4 6:5 7:6 8:11 9:8 10:9 11:10 12:15 13:12 14:13 15:14
slot 2 0:4 1:5 2:6 3:7 4:8 5:9 6:10 7:11 8:12 9:13 10:14 11:15 12:0 13:1 14:2 15:3
slot 3 0:12 1:13 2:14 3:15 4:0 5:1 6:2 7:3 8:4 9:5 10:6 11:7 12:8 13:9 14:10 15:11" \
	preload --nodes 16 --print mesh 4x4
out "mesh without WxH: the grid for N nodes (4x2 for 8)" 0 \
"nodes 8
slot 0 0:1 1:2 2:3 3:0 4:5 5:6 6:7 7:4
slot 1 0:4 1:5 2:6 3:7 4:0 5:1 6:2 7:3" \
	preload --nodes 8 --print mesh dirs es
out "mesh 3x2 open" 0 \
"nodes 6
slot 0 0:1 1:2 3:4 4:5
slot 1 1:0 2:1 4:3 5:4
slot 2 0:3 1:4 2:5
slot 3 3:0 4:1 5:2" preload --nodes 6 --print mesh 3x2 open
out "mesh 2x2 dirs es as JSON" 0 \
'{"nodes":4,"phases":[{"slots":[{"slot":0,"pairs":[{"src":0,"dst":1},{"src":1,"dst":0},{"src":2,"dst":3},{"src":3,"dst":2}]},{"slot":1,"pairs":[{"src":0,"dst":2},{"src":1,"dst":3},{"src":2,"dst":0},{"src":3,"dst":1}]}]}]}' \
	-j preload --nodes 4 --print mesh 2x2 dirs es
"$HNCTL" preload --nodes 64 --print mesh 8x8 > "$T/out"
ok=0
[ "$(grep -c '^slot' "$T/out")" = 4 ] &&
	[ "$(awk '/^slot/ { print NF - 2 }' "$T/out" | sort -u)" = 64 ] &&
	[ "$(awk '/^slot 0/ { print $3, $10, $11 }' "$T/out")" = "0:1 7:0 8:9" ] &&
	ok=1
report $ok "mesh 8x8: 4 slots of 64 circuits, rows wrap" "$T/out"
out "shift 1 -1" 0 \
"nodes 4
slot 0 0:1 1:2 2:3 3:0
slot 1 0:3 1:0 2:1 3:2" preload --nodes 4 --print shift 1 -1
out "shift 1..2 skips what an earlier slot has (shift 2 = shift -2)" 0 \
"nodes 4
slot 0 0:2 1:3 2:0 3:1
slot 1" preload --nodes 4 --print shift 2 -2
out "scatter: the root to every other node" 0 \
"nodes 4
slot 0 0:1
slot 1 0:2
slot 2 0:3" preload --nodes 4 --print scatter 0
out "gather with a range" 0 \
"nodes 8
slot 0 4:5
slot 1 3:5" preload --nodes 8 --print gather 5 1..2
out "xor" 0 \
"nodes 6
slot 0 0:1 1:0 2:3 3:2 4:5 5:4
slot 1 0:4 1:5 4:0 5:1" preload --nodes 6 --print xor 1 4
out "perm, fixed points and '-' left out" 0 \
"nodes 5
slot 0 0:2 2:3 3:0" preload --nodes 5 --print perm 2 1 3 0 -
err "perm longer than N" 1 "hnctl preload: perm: 5 entries for 4 nodes
Try 'hnctl preload --help'." preload --nodes 4 --print perm 1 2 3 0 0
out "slot N then generators number on" 0 \
"nodes 4
slot 5 0:1
slot 6 0:2 1:3 2:0 3:1" preload --nodes 4 --print slot 5 0:1 shift 2
err "shift needs the node count" 1 "hnctl preload: 'shift' needs the node count: add 'nodes N' or give --nodes N
Try 'hnctl preload --help'." preload --print shift 1
err "scatter with too many destinations" 1 "hnctl preload: scatter 0: 99 destinations need more than 64 slots: give the distances (e.g. 'scatter 0 1..4')
Try 'hnctl preload --help'." preload --nodes 100 --print scatter 0
err "shift 0" 1 "hnctl preload: shift: distance 8 connects a node to itself (8 nodes)
Try 'hnctl preload --help'." preload --nodes 8 --print shift 8
err "mesh larger than the fabric" 1 "hnctl preload: mesh 8x8 needs 64 nodes, there are 16
Try 'hnctl preload --help'." preload --nodes 16 --print mesh 8x8
err "mesh: bad dirs" 1 "hnctl preload: mesh: dirs 'ee': give each of e, w, s, n at most once
Try 'hnctl preload --help'." preload --print mesh 4x4 dirs ee
err "a word that is no statement" 1 "hnctl preload: 'bogus': expected slot, phase or a generator (mesh, shift, xor, scatter, gather, perm)
Try 'hnctl preload --help'." preload --print bogus
err "preload: --file and statements" 1 "hnctl preload: give either --file or statements, not both
Try 'hnctl preload --help'." preload --file x slot 0
err "preload: --phase without --file" 1 "hnctl preload: --phase picks a phase of --file; on the command line, name it with 'phase NAME'
Try 'hnctl preload --help'." preload --phase a slot 0
err "preload: nothing names the generators" 1 "hnctl preload: nothing to preload: give slot N SRC:DST..., a generator (mesh, shift, xor, scatter, gather, perm) or --file FILE
Try 'hnctl preload --help'." preload
err "preload: bad --nodes" 1 "hnctl preload: --nodes: '1' is not 2..4096
Try 'hnctl preload --help'." preload --nodes 1 --print slot 0

# ---- phase files --------------------------------------------------------
file app.phases <<'EOF'
# an application's phases
nodes 16

phase halo            # nearest neighbours
    mesh 4x4

phase exchange at 4
    slot 0:8 1:9 2:10 3:11 \
         4:12 5:13 6:14 7:15
    shift 8           # skips 0:8..7:15, which the line above has
    xor 1

phase root
    slot 7 0:1
EOF
out "phase file: every phase, expanded" 0 \
"nodes 16
phase halo
slot 0 0:1 1:2 2:3 3:0 4:5 5:6 6:7 7:4 8:9 9:10 10:11 11:8 12:13 13:14 14:15 15:12
slot 1 0:3 1:0 2:1 3:2 4:7 5:4 6:5 7:6 8:11 9:8 10:9 11:10 12:15 13:12 14:13 15:14
slot 2 0:4 1:5 2:6 3:7 4:8 5:9 6:10 7:11 8:12 9:13 10:14 11:15 12:0 13:1 14:2 15:3
slot 3 0:12 1:13 2:14 3:15 4:0 5:1 6:2 7:3 8:4 9:5 10:6 11:7 12:8 13:9 14:10 15:11
phase exchange
slot 4 0:8 1:9 2:10 3:11 4:12 5:13 6:14 7:15
slot 5 8:0 9:1 10:2 11:3 12:4 13:5 14:6 15:7
slot 6 0:1 1:0 2:3 3:2 4:5 5:4 6:7 7:6 8:9 9:8 10:11 11:10 12:13 13:12 14:15 15:14
phase root
slot 7 0:1" preload --file "$T/app.phases" --print
out "phase file: --phase picks one" 0 \
"nodes 16
phase root
slot 7 0:1" preload --file "$T/app.phases" --phase root --print
out "phase file: --phase, JSON" 0 \
'{"nodes":16,"phases":[{"name":"root","slots":[{"slot":7,"pairs":[{"src":0,"dst":1}]}]}]}' \
	-j preload --file "$T/app.phases" --phase root --print
out "phase file: -n prints what would be loaded" 0 \
"nodes 16
phase root
slot 7 0:1" -n preload -f "$T/app.phases" --phase root
out "phase file from stdin" 0 \
"nodes 4
slot 0 0:1" preload --file - --print < <(printf 'nodes 4\nslot 0:1\n')
err "phase file: no such phase" 1 \
	"hnctl: $T/app.phases: no phase 'fft' (phases: halo, exchange, root)" \
	preload --file "$T/app.phases" --phase fft --print
err "phase file: --nodes disagrees with the file" 1 \
	"hnctl: $T/app.phases:2: the phases are for 16 nodes, --nodes has 64" \
	preload --file "$T/app.phases" --nodes 64 --print

file overlap.phases <<'EOF'
nodes 8
phase a
shift 1 2
phase b
slot 1 0:4
EOF
err "phase file: two phases in one slot, loaded together" 1 \
	"hnctl: $T/overlap.phases:5: slot 1 is in phase a (line 3) and in phase b: load one of them with --phase NAME" \
	-n preload --file "$T/overlap.phases"
file twice.phases <<'EOF'
nodes 8
phase a
shift 1
phase b at 2
xor 1
EOF
err "phase file: one connection in two phases, loaded together" 1 \
	"hnctl: $T/twice.phases:5: connection 0:1 is in phase a (slot 0, line 3) and in phase b (slot 2): load one of them with --phase NAME" \
	-n preload --file "$T/twice.phases"
out "phase file: ... one at a time is fine" 0 \
"nodes 8
phase b
slot 1 0:4" preload --file "$T/overlap.phases" --phase b --print

bad() {	# bad DESC "LINE: reason" FILE-CONTENT
	printf '%s\n' "$3" > "$T/bad.phases"
	err "phase file: $1" 1 "hnctl: $T/bad.phases:$2" \
		preload --file "$T/bad.phases" --print
}
out "phase file: a fat tree's paths print back as given" 0 \
"nodes 16
slot 0 0:4/1 1:5/0.2 2:3
slot 1 3:7" preload --nodes 16 --print slot 0 0:4/1 1:5/0.2 2:3 slot 3:7
out "phase file: paths in JSON, one per pair of the slot" 0 \
'{"nodes":16,"phases":[{"slots":[{"slot":0,"pairs":[{"src":0,"dst":4},{"src":2,"dst":3}],"paths":[[1,3],[]]}]}]}' \
	-j preload --nodes 16 --print slot 0 0:4/1.3 2:3
bad "a path with a bad port" \
	"1: slot 0: '0:4/1.x': a path is /P0.P1..., at most 11 up-ports of 0..254" \
"slot 0 0:4/1.x"
bad "a path with a port past 254" \
	"1: slot 0: '0:4/255': a path is /P0.P1..., at most 11 up-ports of 0..254" \
"slot 0 0:4/255"
bad "a path of 12 up-ports" \
	"1: slot 0: '0:4/0.0.0.0.0.0.0.0.0.0.0.0': a path is /P0.P1..., at most 11 up-ports of 0..254" \
"slot 0 0:4/0.0.0.0.0.0.0.0.0.0.0.0"
bad "a malformed pair" "3: slot 0: '1-2' is not a SRC:DST pair" \
"nodes 4
phase p
slot 0 0:1 1-2"
bad "two circuits to one output" \
	"2: two circuits to one output in slot 1: 2:3 and 4:3" \
"slot 0 0:1
slot 1 2:3 4:3"
bad "two circuits from one input" \
	"1: two circuits from one input in slot 0: 2:3 and 2:4" \
"slot 0 2:3 2:4"
bad "a node out of range" "2: pair 0:4: node 4 out of range (4 nodes)" \
"nodes 4
slot 0:4"
bad "a node beyond any fabric" \
	"1: pair 0:4096: node 4096 out of range (at most 4096 nodes)" \
"slot 0:4096"
bad "a connection in two slots" \
	"3: connection 0:1 is already in slot 0 (line 2)" \
"phase p
slot 0:1
slot 0:1"
bad "a slot configured twice" "3: slot 0 is already configured (line 2)" \
"phase p
slot 0 0:1
slot 0 1:0"
bad "a slot beyond 63" "3: slot 64 out of range (slots are 0..63)" \
"nodes 4
phase p at 63
shift 1 2"
bad "an unknown statement" \
	"2: unknown statement 'route' (nodes, phase, slot, mesh, shift, xor, scatter, gather, perm)" \
"phase p
route 0 1"
bad "nodes after a slot" "2: 'nodes' must come before the first phase or slot" \
"slot 0:1
nodes 4"
bad "a generator without the node count" \
	"2: 'xor' needs the node count: add a 'nodes N' line or give --nodes N" \
"phase p
xor 1"
bad "a phase defined twice" "5: phase p is already defined (line 1)" \
"phase p
slot 0:1
phase q
slot 1:0
phase p"
bad "an empty phase" "2: phase p (line 1) has no slot configuration" \
"phase p
phase q
slot 0:1"
bad "an empty phase at the end" "3: phase q has no slot configuration" \
"phase p
slot 0:1
phase q"
bad "a phase after slots of no phase" \
	"2: 'phase' after slots that belong to no phase: start the file with a phase line" \
"slot 0:1
phase p
slot 1:0"
bad "a bad phase name" \
	"1: phase name 'a/b': use 1 to 63 letters, digits, '_', '.' or '-'" \
"phase a/b"
bad "a bad range" "2: shift: '3..1' is not a range A..B with A <= B" \
"nodes 8
shift 3..1"
bad "a dangling continuation" "2: the last line ends with '\\'" \
"slot 0:1
slot 1:0 \\"
printf '' > "$T/empty.phases"
err "phase file: nothing in it" 1 "hnctl: $T/empty.phases: no slot configuration" \
	preload --file "$T/empty.phases" --print
err "phase file: missing" 1 "hnctl: $T/none.phases: No such file or directory" \
	preload --file "$T/none.phases" --print

# ---- traffic --------------------------------------------------------------
out "traffic start -n: hnsim run's words" 0 \
	"traffic-start pattern uniform batch 100 size 64 size-max 1024 seed 7 size-dist uniform" \
	-n traffic start --pattern uniform --batch 100 --size 64-1024 --seed 7
out "traffic start -j -n: Bernoulli, 80/80, times with units" 0 \
	'{"request":"traffic-start","pattern":"mixed","load-ppm":300000,"pred-ppm":800000,"warmup-ns":5000,"measure-ns":2000000,"size-dist":"8080"}' \
	-j -n traffic start --pattern=mixed --load 30% --pred 0.8 --size 80/80 --warmup 5us --measure 2ms
out "traffic start -n: bimodal:S,L,F" 0 \
	"traffic-start pattern uniform batch 10 size 256 size-max 8192 size-dist bimodal:250000" \
	-n traffic start --pattern uniform --batch 10 --size bimodal:256,8192,0.25
out "traffic stop -n" 0 "traffic-stop" -n traffic stop
out "traffic -j -n: status is the default" 0 '{"request":"traffic-get"}' \
	-j -n traffic
err "traffic: --phases, one of the engine's names" 1 "hnctl traffic: --phases 'lockstep': want one of global per-node global-hint
Try 'hnctl traffic --help'." traffic start --pattern phased --batch 4 --phases lockstep
out "traffic -j -n stop: the common options before the word too" 0 \
	'{"request":"traffic-stop"}' traffic -j -n stop
out "fabric del 3 -n -j: the common options anywhere" 0 \
	'{"request":"fabric-del","fabric":3}' fabric del 3 -n -j
err "traffic: a load out of range" 1 "hnctl traffic: --load '1.5': out of range: the offered load must be above 0 and at most 1 (the link rate)
Try 'hnctl traffic --help'." traffic start --pattern uniform --load 1.5
err "traffic: not a load" 1 "hnctl traffic: --load 'half': not a load: want a fraction of the link rate, 0 < L <= 1
Try 'hnctl traffic --help'." traffic start --pattern uniform --load half
err "traffic: neither --load nor --batch" 1 "hnctl traffic: start: give exactly one of --load L (Bernoulli) and --batch M
Try 'hnctl traffic --help'." traffic start --pattern uniform
err "traffic: no pattern" 1 "hnctl traffic: start: --pattern NAME is required
Try 'hnctl traffic --help'." traffic start --batch 1
err "traffic: an hnsim-only option" 1 "hnctl traffic: --net: not in the kernel's generator, which takes hnsim run's default (use hnsim run or hntraffic)
Try 'hnctl traffic --help'." traffic start --pattern uniform --batch 1 --net wormhole
err "traffic: a bad size" 1 "hnctl traffic: --size '1-': want B, A-B, bimodal:S,L,F or 80/80
Try 'hnctl traffic --help'." traffic start --pattern uniform --batch 1 --size 1-
err "traffic: an unknown word" 1 "hnctl traffic: 'go': expected start, stop or status
Try 'hnctl traffic --help'." traffic go

# ---- errors that say what to do ------------------------------------------
# the ranges are the kernel's (kmod/core/hn_fields.h), checked before sending
err "set: a node count out of range names the range" 1 "hnctl set: nodes: '100000' is out of range: 2..4096
Try 'hnctl set --help'." set nodes 100000
err "set: a time out of range, with its unit" 1 "hnctl set: slot-p-ns: '2s' is out of range: 1..1000000000 ns
Try 'hnctl set --help'." -n set slot-p-ns 2s
err "set: an enum's number out of range names the words" 1 "hnctl set: switching: '7' is out of range: wormhole, vct, saf or drop, or 0..3
Try 'hnctl set --help'." -n set switching 7
# a circuit from a node to itself carries nothing: refused, with why
err "predict: a node to itself" 1 "hnctl predict: '3:3': a circuit cannot connect a node to itself
Try 'hnctl predict --help'." -n predict 0:1 3:3
err "preload: a node to itself" 1 "hnctl preload: pair 3:3: a circuit cannot connect a node to itself
Try 'hnctl preload --help'." -n preload slot 0 0:1 3:3
file self.ph <<'EOF_'
slot 0 0:1
slot 1 2:2
EOF_
err "phase file: a node to itself, with its line" 1 \
	"hnctl: $T/self.ph:2: pair 2:2: a circuit cannot connect a node to itself" \
	preload --print --nodes 4 --file "$T/self.ph"
# -n -c FILE: the engine's checks against that configuration
err "-c without -n" 1 "hnctl: -c FILE is the fabric of a dry run: give -n too
Try 'hnctl --help'." -c "$T/none" show
printf '# as hnctl show prints it\nnodes 16\nslots 4\npolicy ses\npreload-at-load none\n' > "$T/x16.txt"
err "-n -c: shift 1..8 on 4 slots names the real problem" 1 \
	"hnctl: preload: 8 slot configurations (slots 0..7), but the fabric has 4 slots: give at most 4, or set more first (hnctl set slots 8)" \
	-n -c "$T/x16.txt" preload shift 1..8
err "-n -c: a slot past K" 1 \
	"hnctl: preload: slot 5, but the fabric has 4 slots (0..3): number the slots from 0, or set more first (hnctl set slots 6)" \
	-n -c "$T/x16.txt" preload slot 5 0:1
err "-n -c: two circuits to one output, in the kernel's words" 2 \
	"hnctl: preload refused: two circuits to one output in slot 0: 0:1 and 2:1" \
	-n -c "$T/x16.txt" preload slot 0 0:1 2:1
err "-n -c: one connection in two slots, in the kernel's words" 2 \
	"hnctl: preload refused: 0:1 for slot 1 is already in slot 0" \
	-n -c "$T/x16.txt" preload slot 0 0:1 slot 1 0:1
err "-n -c: a node past the fabric, in the kernel's words" 1 \
	"hnctl preload: pair 3:16: node 16 out of range (16 nodes)
Try 'hnctl preload --help'." -n -c "$T/x16.txt" preload slot 0 3:16
err "-n -c: predict past the fabric, in the kernel's words" 2 \
	"hnctl: predict refused: pair 3:16: node 16 out of range (16 nodes)" \
	-n -c "$T/x16.txt" predict 0:1 3:16
out "-n -c: a preload the engine takes is printed" 0 "nodes 16
slot 0 0:1 2:3
slot 1 1:0" -n -c "$T/x16.txt" preload slot 0 0:1 2:3 slot 1 1:0
printf 'nodes 16\nslots x\n' > "$T/bad.txt"
err "-n -c: a bad line of the file" 1 "hnctl: -c $T/bad.txt:2: slots: 'x' is not a number" \
	-n -c "$T/bad.txt" preload slot 0 0:1
if [ -x "$HNSIM" ]; then
	# hnsim config -j prints what hnctl -j show does
	"$HNSIM" config -j -t fattree:2,4 -k 4 > "$T/ft.json"
	err "-n -c JSON: two paths on one up-link of a fat tree" 2 \
		"hnctl: preload refused: slot 0, pair 1:5: path's up-link already taken: link sw0.0/up0 up, held by 0:4" \
		-n -c "$T/ft.json" preload slot 0 0:4/0 1:5/0
	err "-n -c JSON: a path that does not exist" 2 \
		"hnctl: preload refused: path names an up-port past the switch (slot 0, node 0)" \
		-n -c "$T/ft.json" preload slot 0 0:4/9
	# hnsim's trace refuses in the module's words too
	printf '0 preload 0 0:1\n0 preload 1 2:3 1:1\n' |
		"$HNSIM" -t crossbar -n 4 --no-progress > "$T/p" 2>&1
	ok=0
	[ "$(cat "$T/p")" = "hnsim: <stdin>:2: preload refused: a circuit cannot connect a node to itself (slot 1, node 1)" ] && ok=1
	report $ok "hnsim trace: a refusal in the module's words" "$T/p"
	out "-n -c JSON: the level-wise routes of a whole shift" 0 "nodes 16
slot 0 0:4 1:5 2:6 3:7 4:8 5:9 6:10 7:11 8:12 9:13 10:14 11:15 12:0 13:1 14:2 15:3" \
		-n -c "$T/ft.json" preload shift 4
else
	report 1 "-n -c JSON # SKIP no hnsim"
fi
# ---- capture ---------------------------------------------------------------
out "capture -n: show is the default" 0 "capture show" -n capture
out "capture on -n: a name, snaplen and ring" 0 \
	"capture on cap0 snaplen 128 ring 8192" -n capture on cap0 snaplen 128 ring 8192
out "capture on -j -n" 0 '{"request":"capture-on","snaplen":0,"ring":1}' \
	-j -n capture on snaplen 0 ring 1
out "capture off -n" 0 "capture off" -n capture off
err "capture: snaplen out of range" 1 "hnctl capture: snaplen needs a number, 0..65535
Try 'hnctl capture --help'." capture on snaplen 65536
err "capture: ring 0" 1 "hnctl capture: ring needs a number, 1..65536
Try 'hnctl capture --help'." capture on ring 0
err "capture: snaplen twice" 1 "hnctl capture: snaplen given twice
Try 'hnctl capture --help'." capture on snaplen 1 snaplen 2
err "capture: an unknown word" 1 "hnctl capture: 'start': expected on [NAME] [snaplen N] [ring N], off or show
Try 'hnctl capture --help'." capture start

# ---- fabric ----------------------------------------------------------------
out "fabric -n: the list is the default" 0 "fabric" -n fabric
out "fabric show -n" 0 "fabric" -n fabric show
out "fabric add -n: the keys of set" 0 "fabric-new topology fattree:2,4 slots 2" \
	-n fabric add topology fattree:2,4 slots 2
out "fabric add -j -n" 0 '{"request":"fabric-new","topology":"fattree:2,4","slots":2}' \
	-j -n fabric add topology fattree:2,4 slots 2
out "fabric del -n" 0 "fabric-del fabric 3" -n fabric del 3
out "fabric del -j -n" 0 '{"request":"fabric-del","fabric":3}' -j -n fabric del 3
err "fabric del: which" 1 "hnctl fabric: del: which fabric? (hnctl fabric lists them)
Try 'hnctl fabric --help'." fabric del
err "fabric del: out of range" 1 "hnctl fabric: del takes one fabric number, 0..255, not '256'
Try 'hnctl fabric --help'." fabric del 256
err "fabric del: two" 1 "hnctl fabric: del takes one fabric number, 0..255, not '2'
Try 'hnctl fabric --help'." fabric del 1 2
err "fabric add: a key without its value" 1 "hnctl fabric: add: slots needs a value (a number)
Try 'hnctl fabric --help'." fabric add slots
err "fabric add: an unknown key" 1 "hnctl fabric: add: unknown key 'frob'
Try 'hnctl fabric --help'." fabric add frob 2
err "fabric: an unknown word" 1 "hnctl fabric: unknown argument 'frob' (show, add, del)
Try 'hnctl fabric --help'." fabric frob
err "fabric show: no argument" 1 "hnctl fabric: show takes no argument: 'x'
Try 'hnctl fabric --help'." fabric show x
err "-f: out of range" 1 "hnctl: -f takes a fabric's number, 0..255
Try 'hnctl --help'." -f 256 show
err "--fabric: no number" 1 "hnctl: --fabric takes a fabric's number, 0..255
Try 'hnctl --help'." --fabric
out "-f N: any command takes it" 0 "config-get" -f 2 -n show

# ---- the kernel side, when it is not there -------------------------------
if [ -e /sys/module/hybridnet ]; then
	report 1 "no module: show says so # SKIP the module is loaded"
else
	err "no module: show says so, and how to load it, exit 2" 2 \
		"hnctl: no generic netlink family 'hybridnet': the hybridnet module is not loaded: load it (sudo modprobe hybridnet), or run the program in the VM of the source tree (make vm-run CMD='...')" \
		show
	out "no module: a dry run checks the syntax only" 0 "slot 0 0:1 2:1" \
		-n preload slot 0 0:1 2:1
fi

echo "1..$n"
[ "$failed" = 0 ]
