#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# selftests/hnsim/test-run.sh BUILD - hnsim run's sweeps and outputs,
# without the module: lists and ranges (and the errors of those that are
# none), the cross product's order, a point's result independent of the
# sweep it is in (hnsim sched's too), the CSV against the JSON, null for
# what a point did not measure, --progress and --no-progress in every
# mode, hnplot's PNG, hntraffic refusing a list, --phases's names,
# --fields, --switch-switching and hnsim mrp.
# Prints TAP; exits 1 if a test failed.
set -u
cd "$(dirname "$0")/../.." || exit 1
O=${1:-build}
H=$O/hnsim
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
. selftests/tap.sh

# a quick point: 4 nodes, a short warm-up and window
Q="-n 4 --warmup 1000 --measure 10000 --no-progress"

# col FILE NAME...: those columns of a CSV, comma-separated, a row a line
col() {
	python3 -c 'import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
i = [rows[0].index(c) for c in sys.argv[2:]]
for r in rows[1:]:
	print(",".join(r[k] for k in i))' "$@"
}

# ---- lists and ranges ---------------------------------------------------
# values WANT ARGS...: the load_ppm (or -s key) column of the sweep ARGS
values() {
	local name=$1 want=$2
	shift 2
	# shellcheck disable=SC2086 # $Q: options
	"$H" run --pattern uniform $Q --csv "$@" > "$T/v.csv" 2> "$T/v.err"
	# shellcheck disable=SC2086 # $name: the columns
	col "$T/v.csv" $name | tr '\n' ' ' > "$T/v"
	echo "want: $want" >> "$T/v.err"
	[ "$(cat "$T/v")" = "$want " ]
}
check_values() {	# DESC COLUMN WANT ARGS...
	local desc=$1
	shift
	if values "$@"; then
		report 1 "$desc"
	else
		echo "got:  $(cat "$T/v")" >> "$T/v.err"
		report 0 "$desc" "$T/v.err"
	fi
}
check_values "--load 0.05:0.95:0.05: 19 loads, the last 0.95 exactly" \
	load_ppm "$(seq 50000 50000 950000 | tr '\n' ' ' | sed 's/ $//')" \
	--load 0.05:0.95:0.05
check_values "--load 5%:15%:5%: percentages" load_ppm \
	"50000 100000 150000" --load 5%:15%:5%
check_values "--load 0.1,0.3:0.5:0.2,1: values and ranges, in the order given" \
	load_ppm "100000 300000 500000 1000000" --load 0.1,0.3:0.5:0.2,1
check_values "--load 0.1:0.35:0.1: up to LAST, not past it" load_ppm \
	"100000 200000 300000" --load 0.1:0.35:0.1
check_values "--load 0.1:0.3:0.1: 0.3 too (three 0.1 in floating point pass it)" \
	load_ppm "100000 200000 300000" --load 0.1:0.3:0.1
check_values "-s slot_w_ns=100:300:100: a key's range" slot_w_ns \
	"100 200 300" --load 0.1 -s slot_w_ns=100:300:100
check_values "-s slot-w-ns=400,200: hnctl's spelling, a column as the key" \
	slot_w_ns "400 200" --load 0.1 -s slot-w-ns=400,200
check_values "--seed 3:7:2: seeds" seed "3 5 7" --load 0.1 --seed 3:7:2
check_values "-s nodes=4,16: in the nodes column, once" "nodes slots" \
	"4,4 16,4" --load 0.1 -s nodes=4,16
check_values "--net wormhole,hybrid: networks" net "wormhole hybrid" \
	--load 0.1 --net wormhole,hybrid
check_values "-s policy=ses,preempt: one policy (its commas are its own)" \
	policy "ses,preempt" --load 0.1 -s policy=ses,preempt
check_values "-s topology=fattree:2,2: one topology" nodes "4" \
	--load 0.1 -s topology=fattree:2,2

# bad lists: exit 1, the reason on stderr, nothing on stdout
: > "$T/bad"
while IFS='|' read -r args want; do
	case $args in
	*--pattern*) ;;
	*) args="--pattern uniform $args" ;;
	esac
	# shellcheck disable=SC2086 # $args: options
	"$H" run $Q $args > "$T/o" 2> "$T/e"
	rc=$?
	if [ $rc != 1 ] || [ -s "$T/o" ] || [ "$(cat "$T/e")" != "$want" ]; then
		{ echo "$args: exit $rc, stderr:"; cat "$T/e"; echo "want: $want"; } >> "$T/bad"
	fi
done <<'EOF'
--load 0.1,,0.2|hnsim run: --load '0.1,,0.2': an empty value in the list
--load 0.1,|hnsim run: --load '0.1,': an empty value in the list
--load 0.3:0.1:0.1|hnsim run: --load '0.3:0.1:0.1': a range's FIRST must be at most its LAST
--load 0.1:0.3:0|hnsim run: --load '0.1:0.3:0': the STEP of a range must be above 0
--load 0.1:0.3|hnsim run: --load '0.1:0.3': a range is FIRST:LAST:STEP
--load 0.1:0.2:0.1:0.1|hnsim run: --load '0.1:0.2:0.1:0.1': a range is FIRST:LAST:STEP
--load a:b:c|hnsim run: --load 'a:b:c': a range is FIRST:LAST:STEP of ratios (0.05 or 5%)
--load 0.000001:1:0.000001|hnsim run: --load '0.000001:1:0.000001': more than 10000 values
--load 0.1,1.5|hnsim run: --load '1.5': out of range: the offered load must be above 0 and at most 1 (the link rate)
--load 0:0.5:0.25|hnsim run: --load '0': out of range: the offered load must be above 0 and at most 1 (the link rate)
--load 0.1,0.2 --load 0.3|hnsim run: --load '0.1,0.2': a list, and the option again: give its values once
--load 0.1 --pattern uniform,nosuch|hnsim run: unknown pattern 'nosuch'; the patterns are: uniform transpose bitcomp bitrev shuffle tornado neighbor randperm hotspot scatter all-to-all random-to-all ordered-mesh random-mesh two-phase mixed phased localized
--load 0.1 --pattern a:b:c|hnsim run: --pattern 'a:b:c': a range FIRST:LAST:STEP is for numbers; list the values, comma-separated
--load 0.1 --net hybrid,torus|hnsim run: --net 'torus': unknown network: hybrid, wormhole, circuit, dynamic or preload
--load 0.1 -s switching=wormhole,cut|hnsim run: switching=cut: neither wormhole, vct, saf, drop nor a number
--load 0.1 -s switching=a:b:1|hnsim run: -s 'switching=a:b:1': a range is FIRST:LAST:STEP of whole numbers
--load 0.1 -s slot_w_ns=1,2 -s slot-w-ns=3|hnsim run: -s 'slot_w_ns=1,2': a list, and the option again: give its values once
--load 0.1 --seed 1:-3:1|hnsim run: --seed '1:-3:1': a range is FIRST:LAST:STEP of whole numbers
--load 0.1,0.2 --csv --json|hnsim run: --csv, or --json [--pretty]: one of them
--load 0.1 --csv --pretty|hnsim run: --csv, or --json [--pretty]: one of them
--load 0.1,0.2 --pattern transpose -n 8|hnsim run: --load 0.1: transpose needs a square node count (n x n)
EOF
report "$( [ -s "$T/bad" ] && echo 0 || echo 1)" \
	"lists and ranges that are none: refused with the reason, before any point runs" \
	"$T/bad"

# ---- the cross product's order ------------------------------------------
# shellcheck disable=SC2086
"$H" run $Q --load 0.1,0.2 -s switching=wormhole,vct --pattern uniform,transpose \
	--csv > "$T/x.csv" 2>&1
col "$T/x.csv" pattern switching load_ppm > "$T/x"
cat > "$T/want" <<'EOF'
uniform,wormhole,100000
uniform,wormhole,200000
uniform,vct,100000
uniform,vct,200000
transpose,wormhole,100000
transpose,wormhole,200000
transpose,vct,100000
transpose,vct,200000
EOF
diff "$T/want" "$T/x" > "$T/d" 2>&1
report "$( [ -s "$T/d" ] && echo 0 || echo 1)" \
	"a sweep is the cross product: --pattern slowest, then -s, --load fastest" \
	"$T/d"
head -n 1 "$T/x.csv" > "$T/h"
ok=0
grep -q '^pattern,nodes,active,net,slots,policy,seed,switching,inject,load_ppm,' "$T/h" &&
	grep -q ',offered_ppm,accepted_ppm,' "$T/h" &&
	grep -q ',lat_min_ns,lat_mean_ns,lat_p50_ns,lat_p99_ns,lat_max_ns,' "$T/h" &&
	ok=1
report $ok "--csv: a header naming every column, the swept key after seed" "$T/h"

# ---- a point is the same wherever it stands -----------------------------
# the point (uniform, 0.2) on 16 nodes: alone, and in four sweeps
P="-n 16 --warmup 5000 --measure 20000 --no-progress --json"
# shellcheck disable=SC2086
{
	"$H" run --pattern uniform --load 0.2 $P
	"$H" run --pattern uniform --load 0.1,0.2,0.3 $P | sed -n 2p
	"$H" run --pattern uniform --load 0.3,0.2 $P | sed -n 2p
	"$H" run --pattern uniform --load 0.05:0.2:0.05 $P | sed -n 4p
	"$H" run --pattern transpose,uniform --load 0.9,0.2 $P | sed -n 4p
} > "$T/pts" 2>&1
python3 -c 'import json, sys
pts = [json.loads(l) for l in open(sys.argv[1])]
for p in pts:
	p.pop("wall_s")
assert len(pts) == 5, len(pts)
assert pts[0]["load_ppm"] == 200000 and pts[0]["pattern"] == "uniform"
assert all(p == pts[0] for p in pts), [p for p in pts if p != pts[0]]' \
	"$T/pts" > "$T/d" 2>&1
report "$( [ -s "$T/d" ] && echo 0 || echo 1)" \
	"a point prints what its command line prints alone, wherever it stands in a sweep" \
	"$T/d"

# ---- the CSV is the JSON ------------------------------------------------
# shellcheck disable=SC2086
for f in csv json; do
	"$H" run --pattern uniform,hotspot --load 0.2,0.9 --no-progress \
		-s slot_w_ns=200,400 --$f > "$T/s.$f"
	echo "status $?" >> "$T/s.st"
done
"$H" run --pattern mixed --batch 4 -n 16 --no-progress --csv > "$T/b.csv"
"$H" run --pattern mixed --batch 4 -n 16 --no-progress --json > "$T/b.json"
python3 -c 'import csv, json, sys
# the same members in the same order; a batch has no Bernoulli columns in
# JSON, and empty ones in CSV
def same(c, j):
	rows = list(csv.DictReader(open(c)))
	objs = [json.loads(l) for l in open(j)]
	assert len(rows) == len(objs), (len(rows), len(objs))
	for r, o in zip(rows, objs):
		scalars = [k for k in o if not isinstance(o[k], list)]
		assert [k for k in r if k in o] == scalars, (list(r), scalars)
		for k in r:
			v = o.get(k)
			want = "" if v is None else str(v).lower() if isinstance(v, bool) else \
				"%.6f" % v if isinstance(v, float) else str(v)
			if k != "wall_s":
				assert r[k] == want, (k, r[k], want)
	return rows, objs
rows, objs = same(sys.argv[1], sys.argv[2])
assert len(rows) == 8 and rows[1]["slot_w_ns"] == "200", rows[1]
assert objs[2]["slot_w_ns"] == 400, objs[2]
rows, objs = same(sys.argv[3], sys.argv[4])
assert "measured_ns" in rows[0] and "measured_ns" not in objs[0]' "$T/s.csv" "$T/s.json" "$T/b.csv" "$T/b.json" \
	> "$T/d" 2>&1
report "$( [ -s "$T/d" ] && echo 0 || echo 1)" \
	"--csv: a row per point, a column per JSON member, the same values (Bernoulli and batch)" \
	"$T/d"

# ---- what a point did not measure ---------------------------------------
# hotspot at 0.9 saturates in its warm-up: no window, no latency, no
# accepted load; its offered load is the warm-up's (it was 0)
python3 -c 'import csv, json, sys
o = [json.loads(l) for l in open(sys.argv[1])][5]
assert o["pattern"] == "hotspot" and o["load_ppm"] == 900000, o
assert o["end"] == "saturated" and o["measured_ns"] == 0, o
for k in ("lat_min_ns", "lat_mean_ns", "lat_p50_ns", "lat_p99_ns",
	  "lat_max_ns", "accepted_ppm", "lat_mean_first", "lat_mean_second",
	  "converged"):
	assert o[k] is None, (k, o[k])
assert 850000 < o["offered_ppm"] < 950000, o["offered_ppm"]
r = list(csv.DictReader(open(sys.argv[2])))[5]
assert r["lat_mean_ns"] == "" and r["accepted_ppm"] == "", r
assert int(r["offered_ppm"]) == o["offered_ppm"]
b = json.loads(open(sys.argv[3]).readline())
assert b["offered_ppm"] is None and b["accepted_ppm"] is None, b
assert b["lat_mean_ns"] > 0, b' "$T/s.json" "$T/s.csv" "$T/b.json" > "$T/d" 2>&1
report "$( [ -s "$T/d" ] && echo 0 || echo 1)" \
	"a point saturated in its warm-up: null latency and accepted load, its offered load" \
	"$T/d"
ok=0
[ "$(cat "$T/s.st")" = "status 2
status 2" ] && ok=1
report $ok "a sweep with a saturated point: exit status 2" "$T/s.st"

# for people: each point says what it sets
# shellcheck disable=SC2086
"$H" run --pattern uniform $Q --load 0.1,0.2 > "$T/p" 2>&1
ok=0
[ "$(grep -c '^run ' "$T/p")" = 2 ] &&
	grep -qx 'point       1 of 2: --load 0.1' "$T/p" &&
	grep -qx 'point       2 of 2: --load 0.2' "$T/p" && ok=1
report $ok "a sweep for people: each point's report, headed by what it sets" "$T/p"
# shellcheck disable=SC2086
"$H" run --pattern uniform $Q --load 0.1 > "$T/p" 2>&1
ok=0
grep -q '^run ' "$T/p" && ! grep -q '^point' "$T/p" && ok=1
report $ok "a single run's report has no point line" "$T/p"

# ---- hnsim sched: trials and points independent ---------------------------
# the data lines of hnsim sched ARGS on a 16-node crossbar, 4 trials
sched_rows() {
	"$H" sched -t crossbar:16 -w random -a greedy -n 4 --no-progress "$@" |
		grep -v '^#'
}
: > "$T/q"
for s in 0 1 2 3; do
	sched_rows -l 1 -s $s >> "$T/q"
done
ok=0
[ "$(sort -u "$T/q" | wc -l)" = 4 ] && ok=1
report $ok "sched: seeds 0 to 3 draw four different sets of trials" "$T/q"
sched_rows -l 0.5 -s 1 > "$T/a"
sched_rows -l 0.25,0.5,0.75 -s 1 | grep '^ *16 *0\.5 ' > "$T/b"
ok=0
[ -s "$T/a" ] && diff "$T/a" "$T/b" > "$T/d" && ok=1
report $ok "sched: a crossbar point's result does not depend on the --load list it is in" "$T/d"

# ---- --phases: a bad name refused with the engine's names ------------------
"$H" run --pattern phased --phases lockstep > /dev/null 2> "$T/e"
ok=0
[ "$(cat "$T/e")" = "hnsim run: --phases 'lockstep': want one of global per-node global-hint" ] && ok=1
report $ok "--phases lockstep: refused, with every name the engine takes" "$T/e"

# ---- --progress and --no-progress, in every mode --------------------------
printf '0 0 1 64\n' > "$T/t.trace"
: > "$T/prog"
for m in "" "run" "run --pattern uniform --load 0.1,0.2 -n 4 --measure 10000" \
	"sched -t crossbar:4 -a greedy -n 2" "config"; do
	for p in --progress --no-progress; do
		case $m in
		"" | run) args="$m $p $T/t.trace" ;;
		*) args="$m $p" ;;
		esac
		# shellcheck disable=SC2086
		"$H" $args > /dev/null 2> "$T/e"
		rc=$?
		if [ $rc != 0 ]; then
			echo "hnsim $args: exit $rc: $(cat "$T/e")" >> "$T/prog"
		elif [ $p = --no-progress ] && [ -s "$T/e" ]; then
			echo "hnsim $args: stderr $(cat "$T/e")" >> "$T/prog"
		elif [ $p = --progress ] && [ "$m" != config ] &&
			! grep -q '^.*hnsim' "$T/e"; then
			echo "hnsim $args: no progress line" >> "$T/prog"
		fi
	done
done
"$H" run --pattern uniform --load 0.1,0.2 -n 4 --measure 10000 --progress \
	--csv 2>&1 >/dev/null | grep -c '^hnsim run: point [12] of 2, --load 0\.[12]: ' \
	> "$T/n"
[ "$(cat "$T/n")" = 2 ] || echo "run: a progress line per point, not $(cat "$T/n")" >> "$T/prog"
report "$( [ -s "$T/prog" ] && echo 0 || echo 1)" \
	"--progress and --no-progress: taken by trace, run, sched and config; a line per point" \
	"$T/prog"

# ---- hnplot ---------------------------------------------------------------
"$H" run --pattern uniform,transpose --load 0.1:0.5:0.2 -n 16 --warmup 5000 \
	--measure 20000 --no-progress --csv | dist/hnplot -o "$T/curve.png" \
	> "$T/p" 2>&1
ok=0
[ "$(head -c 8 "$T/curve.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] &&
	[ "$(wc -c < "$T/curve.png")" -gt 1000 ] && ok=1
report $ok "hnsim run --csv | hnplot -o curve.png: a PNG" "$T/p"
# shellcheck disable=SC2086
"$H" run --pattern uniform --load 0.1 $Q --csv | dist/hnplot > "$T/out.png" 2> "$T/e"
ok=0
[ "$(head -c 4 "$T/out.png" | od -An -c | tr -d ' \n')" = 211PNG ] && ok=1
report $ok "hnplot without -o: the PNG on standard output" "$T/out.png"
: > "$T/q"
printf 'a,b\n1,2\n' | dist/hnplot -o "$T/x.png" 2>> "$T/q" && echo "exit 0" >> "$T/q"
head -n 1 "$T/x.csv" | dist/hnplot -o "$T/x.png" 2>> "$T/q" && echo "exit 0" >> "$T/q"
dist/hnplot -y util_ppm -o "$T/x.png" "$T/x.csv" 2>> "$T/q" && echo "exit 0" >> "$T/q"
cat > "$T/want" <<'EOF'
hnplot: no column load_ppm in the CSV header (hnsim run --csv)
hnplot: no points in the CSV
hnplot: -y 'util_ppm': want lat_min_ns, lat_mean_ns, lat_p50_ns, lat_p99_ns or lat_max_ns
EOF
diff "$T/want" "$T/q" > "$T/d"
report "$( [ -s "$T/d" ] && echo 0 || echo 1)" \
	"hnplot: a CSV that is not hnsim run's, no point, a bad column: refused" "$T/d"

# ---- hntraffic runs once: a list is refused -------------------------------
if [ -x "$O/hntraffic" ]; then
	: > "$T/q"
	for a in "--load 0.1,0.2" "--load 0.1:0.5:0.1" "--seed 1,2 --batch 1" \
		"--pattern uniform,transpose --batch 1"; do
		# shellcheck disable=SC2086
		"$O/hntraffic" --pattern uniform $a > /dev/null 2>> "$T/q"
		echo "status $?" >> "$T/q"
	done
	cat > "$T/want" <<'EOF'
hntraffic: --load '0.1,0.2': one value here: lists and ranges (A,B and FIRST:LAST:STEP) are sweeps, which hnsim run runs
status 1
hntraffic: --load '0.1:0.5:0.1': one value here: lists and ranges (A,B and FIRST:LAST:STEP) are sweeps, which hnsim run runs
status 1
hntraffic: --seed '1,2': one value here: lists and ranges (A,B and FIRST:LAST:STEP) are sweeps, which hnsim run runs
status 1
hntraffic: --pattern 'uniform,transpose': one value here: lists and ranges (A,B and FIRST:LAST:STEP) are sweeps, which hnsim run runs
status 1
EOF
	diff "$T/want" "$T/q" > "$T/d"
	report "$( [ -s "$T/d" ] && echo 0 || echo 1)" \
		"hntraffic: a list or range of the shared options refused, with the reason" "$T/d"
else
	skip "hntraffic: a list refused" "no $O/hntraffic"
fi

# ---- --links: the links' and switches' figures, as hnctl's ---------------
# the run of docs/hnctl.md's example, on the engine: the same two rows
L="-t fattree:2,4 -k 0 --pattern uniform --batch 20 --size 64-512 --seed 5 --no-progress"
# shellcheck disable=SC2086 # $L: options
"$H" run $L --links > "$T/l.txt" 2>&1
grep -A4 '^    \$ hnctl links link sw0.1/up0' docs/hnctl.md | tail -2 |
	sed 's/^    //' > "$T/want"
grep '^sw0.1/up0 ' "$T/l.txt" > "$T/got"
diff "$T/want" "$T/got" > "$T/d"
report "$( [ -s "$T/d" ] || [ ! -s "$T/want" ] && echo 0 || echo 1)" \
	"--links: the rows of sw0.1/up0 are the module's in docs/hnctl.md's example" "$T/d"
# shellcheck disable=SC2086 # $L: options
"$H" run $L --links --json > "$T/l.json" 2>&1
python3 - "$T/l.json" > "$T/d" 2>&1 <<'PY'
import json, sys
d = json.loads(open(sys.argv[1]).readline())
links, sws = d["links"], d["switches"]
assert len(links) == 32 and len(sws) == 8, (len(links), len(sws))
nodes = [l for l in links if l["link"].startswith("node")]
assert len(nodes) == 16
for k in 0, 1:	# up: what the nodes sent; down: what they received
	b = sum(l["channels"][k]["bytes"] for l in nodes)
	assert b == d["done_bytes"], (k, b, d["done_bytes"])
assert sum(s["bytes"] for s in sws) >= d["done_bytes"]
assert all(s["held"] == 0 and s["buf_bytes"] == 0 for s in sws)
PY
report "$([ $? -eq 0 ] && echo 1 || echo 0)" \
	"--links --json: 32 links and 8 switches of FT(2,4), the nodes' channels carried every byte, nothing held at the end" "$T/d"
# the crossbar by wormhole: one switch, sw0.0, and a link a node, nodeU
# to sw0.0/downU, each up channel carrying what its node sent; the table
# says the same
# shellcheck disable=SC2086 # $L: options
"$H" run ${L/fattree:2,4/crossbar} -n 8 --links --json > "$T/lx.json" 2>&1 &&
	"$H" run ${L/fattree:2,4/crossbar} -n 8 --links > "$T/lx.txt" 2>&1
python3 - "$T/lx.json" "$T/lx.txt" > "$T/d" 2>&1 <<'PY'
import json, sys
d = json.loads(open(sys.argv[1]).readline())
links, sws = d["links"], d["switches"]
assert len(links) == 8 and len(sws) == 1, (len(links), len(sws))
s = sws[0]
assert (s["switch"], s["level"], s["switching"]) == ("sw0.0", 0, "fabric"), s
assert s["bytes"] == d["done_bytes"] > 0, (s["bytes"], d["done_bytes"])
assert s["held"] == 0 and s["buf_bytes"] == 0, s
for u, l in enumerate(links):
    up, down = l["channels"]
    assert (l["link"], up["from"], up["to"]) == ("node%d" % u, "node%d" % u, "sw0.0/down%d" % u), l
    assert (down["from"], down["to"]) == ("sw0.0/down%d" % u, "node%d" % u), l
    assert up["bytes"] > 0 and up["worms"] > 0 and up["busy_ns"] > 0, l
for k in 0, 1:
    b = sum(l["channels"][k]["bytes"] for l in links)
    assert b == d["done_bytes"], (k, b, d["done_bytes"])
t = open(sys.argv[2]).read().splitlines()
rows = {(r.split()[0], r.split()[2]): int(r.split()[5]) for r in t if r.startswith("node")}
assert rows == {(l["link"], c["dir"]): c["bytes"] for l in links for c in l["channels"]}, rows
sw = [r.split() for r in t if r.startswith("sw0.0 ")]
assert len(sw) == 1 and int(sw[0][4]) == s["bytes"], sw
PY
report "$([ $? -eq 0 ] && echo 1 || echo 0)" \
	"--links on the crossbar by wormhole: sw0.0 and a link a node, every byte counted, the table as the JSON" "$T/d"
"$H" run -n 4 -k 0 --pattern uniform --batch 2 --no-progress --links --csv \
	> /dev/null 2> "$T/e"
echo "status $?" >> "$T/e"
printf '%s\n' "hnsim run: --links: a row per link and switch, which no CSV column holds: a table, or --json" "status 1" > "$T/want"
diff "$T/want" "$T/e" > "$T/d"
report "$( [ -s "$T/d" ] && echo 0 || echo 1)" "--links --csv: refused, with the reason" "$T/d"

# ---- switching drop: its counts, and dilation's effect ----------------
"$H" run -t fattree:2,4 -k 0 --pattern uniform --load 0.5 --warmup 1000 \
	--measure 10000 --no-progress -s switching=drop -s dilation=1,2 --csv \
	> "$T/dr.csv" 2> "$T/dr.err"
col "$T/dr.csv" dilation attempts drops done_msgs > "$T/dr" 2>> "$T/dr.err"
python3 - "$T/dr" >> "$T/dr.err" 2>&1 <<'PY'
import sys
rows = [list(map(int, l.split(","))) for l in open(sys.argv[1])]
assert [r[0] for r in rows] == [1, 2], rows
for d, att, drops, done in rows:
	assert drops > 0 and att - drops >= done, (d, att, drops, done)
share = [(a - x) / a for _, a, x, _ in rows]
assert share[0] < share[1], share
PY
report "$([ $? -eq 0 ] && echo 1 || echo 0)" \
	"switching drop: attempts and drops in the CSV, every message through once at least, dilation 2 drops a smaller share" "$T/dr.err"
"$H" run -n 4 -k 0 --pattern uniform --batch 20 --no-progress \
	-s switching=drop > "$T/dh" 2>&1
grep -Eq '^drop        [0-9]+ attempts, [0-9]+ dropped, 0 preempted \(0 late, 0 stub flits\): [01][.][0-9]{4} of them through$' "$T/dh"
report "$([ $? -eq 0 ] && echo 1 || echo 0)" \
	"switching drop: the run's text says how many headers went and were dropped" "$T/dh"

# ---- hnsim idem: Woods-Corwin's three messages --------------------------
I="-t fattree:2,4 -k 0 -s switching=drop --size 64 --warmup 2000 --measure 20000"
# shellcheck disable=SC2086 # $I: options
"$H" idem $I --load 0.6 --json > "$T/i0" 2>&1 &&
	"$H" idem $I --load 0.6 --ack-prio 5 --json > "$T/i5" 2>&1
python3 - "$T/i0" "$T/i5" > "$T/ie" 2>&1 <<'PY'
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
for d in a, b:
	assert d["transactions"] > 1000 and d["completed"] == d["transactions"], d
	for k in "msg", "ack", "ack2":
		assert d[k]["messages"] == d["transactions"], (k, d)
		p = d[k]["messages"] / d[k]["attempts"]
		assert abs(p - d[k]["p"]) < 1e-5 and 0 < p <= 1, (k, d)
	e = d["mean_switches"] * sum(1 / d[k]["p"] for k in ("msg", "ack", "ack2"))
	assert abs(e - d["e"]) < 1e-3, (e, d["e"])
assert a["msg"]["p"] < 1 and a["ack"]["p"] < 1, a
for k in "ack", "ack2":	# priority: the replies preempt, and get through more
	assert b[k]["p"] > a[k]["p"], (k, a[k], b[k])
assert b["msg"]["p"] < a["msg"]["p"], (a["msg"], b["msg"])
PY
report "$([ $? -eq 0 ] && echo 1 || echo 0)" \
	"idem: every measured transaction completes, p and E as defined; replies at priority 5 get through more, MSGs less" "$T/ie"
# shellcheck disable=SC2046 # $I: options
"$H" idem $(echo "$I" | sed 's/--warmup 2000/--warmup 0/') --load 0.6 \
	--ack-prio 5 --json > "$T/iw" 2>&1
python3 - "$T/i0" "$T/i5" "$T/iw" > "$T/if" 2>&1 <<'PY'
import json, sys
a, b, w = (json.load(open(f)) for f in sys.argv[1:4])
k = ("msg", "ack", "ack2")
for d in a, b, w:
	assert d["drops"] + d["preemptions"] < d["attempts"], d
	assert 0 <= d["preemptions_late"] <= d["preemptions"], d
	assert d["attempts"] >= sum(d[x]["attempts"] for x in k), d
assert a["preemptions"] == 0 and b["preemptions"] > 0, (a, b)
# no warm-up: the whole run's headers are the measured transactions'
assert w["attempts"] == sum(w[x]["attempts"] for x in k), w
assert w["drops"] + w["preemptions"] == \
	sum(w[x]["attempts"] - w[x]["messages"] for x in k), w
PY
report "$([ $? -eq 0 ] && echo 1 || echo 0)" \
	"idem: the fabric's attempts, drops and preemptions (late ones among them) in the JSON; with no warm-up they are the measured transactions'" "$T/if"
# Woods-Corwin's sensitivities (C4.3) with all three kinds, on his 256
# nodes calibrated as docs/results/faults.sh does (shorter windows):
# success of all attempts and E by gap, pattern and length
C="-t fattree:4,4 -k 0 -s switching=drop -s flit_bytes=1 -s link_mbps=800
   -s wh_flit_ns=10 -s wh_first_ns=20 -s wire_ns=0 -s nic_ns=0
   -s fabric_ns=0 -s dilation=2 --warmup 10000 --measure 30000 --seed 1"
# load after W words at a gap of G cycles
gap() { awk -v w="$1" -v g="$2" 'BEGIN { printf "%.6f", w / (w + g) }'; }
{
	for g in 5 15 30 60; do
		# shellcheck disable=SC2086 # $C: options
		"$H" idem $C --pattern localized --size 10 --load "$(gap 10 "$g")" --json
	done
	# shellcheck disable=SC2086 # $C: options
	"$H" idem $C --pattern uniform --size 10 --load "$(gap 10 10)" --json
	for w in 10 7 21; do
		# shellcheck disable=SC2086 # $C: options
		"$H" idem $C --pattern localized --size "$w" --load "$(gap "$w" 10)" --json
	done
} > "$T/c43" 2>&1
python3 - "$T/c43" > "$T/c43e" 2>&1 <<'PY'
import json, sys
k = ("msg", "ack", "ack2")
r = [json.loads(l) for l in open(sys.argv[1])]
p = [sum(d[x]["messages"] for x in k) / sum(d[x]["attempts"] for x in k)
     for d in r]
e = [d["e"] for d in r]
g5, g15, g30, g60, uni, loc, w7, w21 = range(8)
assert p[g5] < p[g15] < p[g30] < p[g60], p
assert p[g60] - p[g30] < p[g30] - p[g15], p
assert p[uni] <= 0.5 * p[loc] and e[uni] >= 2.5 * e[loc], (p, e)
assert p[w7] - p[w21] >= 0.08, p
print("ok", p, e)
PY
report "$([ $? -eq 0 ] && echo 1 || echo 0)" \
	"idem: Woods-Corwin's sensitivities (C4.3), all three kinds on FT(4,4): success rises with the gap, less from 30 to 60 cycles than from 15 to 30; uniform at most half of localized, E at least 2.5 times; 7 words 8 points over 21" "$T/c43e"
"$H" idem -t fattree:2,4 --load 0.5 > "$T/ir" 2>&1
echo "status $?" >> "$T/ir"
printf '%s\n' "hnsim idem: the success per attempt is switching drop's: -s switching=drop" "status 1" > "$T/want"
diff "$T/want" "$T/ir" > "$T/d"
report "$( [ -s "$T/d" ] && echo 0 || echo 1)" "idem: refused without switching drop, with the reason" "$T/d"
"$H" idem -t fattree:2,4 -s switching=drop --load 0 > "$T/ir" 2>&1
echo "status $?" >> "$T/ir"
printf '%s\n' "hnsim idem: --load wants a fraction in (0, 1], not '0'" "status 1" > "$T/want"
diff "$T/want" "$T/ir" > "$T/d"
report "$( [ -s "$T/d" ] && echo 0 || echo 1)" "idem: a load of 0 refused, with the reason" "$T/d"

# exactly once (C4.1): 10^5 MSGs, a copy of each kind lost with
# probability 0.3 as it arrives; every MSG delivered once and in order
X="-t fattree:4,4 -k 0 -s switching=drop -s dilation=2 -s flit_bytes=1 -s link_mbps=800 -s wh_first_ns=20 -s wire_ns=0 -s nic_ns=0 -s fabric_ns=0 --size 10 --load 0.3 --warmup 0 --measure 135000"
# shellcheck disable=SC2086 # $X: options
"$H" idem $X --loss 0.3 --timeout 5000 --json > "$T/x1" 2>&1
echo "status $?" >> "$T/x1"
python3 - "$T/x1" > "$T/xe" 2>&1 <<'PY'
import json, sys
t = open(sys.argv[1]).read().splitlines()
assert t[-1] == "status 0", t[-1]
x = json.loads(t[0])["idem"]
assert x["sent"] >= 100000 and x["delivered"] == x["sent"], x
for k in "given_up", "undelivered", "out_of_order", "retries_exhausted", \
	 "acks_exhausted", "send_state_entries", "recv_state_entries":
	assert x[k] == 0, (k, x)
for k in "msg", "ack", "ack2":	# each kind lost at its rate
	f = x[k + "_lost"] / x[k + "_tx"]
	assert 0.29 < f < 0.31, (k, f, x)
assert x["msg_resends"] >= x["msg_lost"] and x["dups_suppressed"] > 0, x
PY
report "$([ $? -eq 0 ] && echo 1 || echo 0)" \
	"idem --loss 0.3: 10^5 MSGs each delivered once and in order, nothing given up, no record left; each kind lost at 0.3" "$T/xe"
# bits flipped at 10^-3 a flit: caught, sent again, every MSG delivered
# shellcheck disable=SC2086 # $X: options
"$H" idem $X --measure 20000 --flip 0.001 --timeout 5000 > "$T/x2" 2>&1
echo "status $?" >> "$T/x2"
grep -Eq '^injected     lost: 0 msg, 0 ack, 0 ack2; [1-9][0-9]* CRC failures; 0 refused by the fabric$' "$T/x2" &&
	grep -Eq '^exactly once ([0-9]+) MSGs: \1 delivered, 0 given up \(0 of them delivered\), 0 undelivered, 0 out of order or twice$' "$T/x2" &&
	grep -qx 'status 0' "$T/x2"
report "$([ $? -eq 0 ] && echo 1 || echo 0)" \
	"idem --flip: CRC failures counted, every MSG delivered once" "$T/x2"
# a MSG never acknowledged: given up after exactly --retry-max resends
# shellcheck disable=SC2086 # $X: options
"$H" idem $X --measure 2000 --loss ack=1 --timeout 3000 --retry-max 4 --json > "$T/x3" 2>&1
echo "status $?" >> "$T/x3"
python3 - "$T/x3" > "$T/xe" 2>&1 <<'PY'
import json, sys
t = open(sys.argv[1]).read().splitlines()
assert t[-1] == "status 2", t[-1]
x = json.loads(t[0])["idem"]
n = x["sent"]
assert n > 100 and x["delivered"] == n and x["given_up"] == n, x
assert x["given_up_delivered"] == n and x["retries_exhausted"] == n, x
assert x["acks_exhausted"] == n and x["msg_resends"] == 4 * n, x
assert x["recv_state_entries"] == 0 and x["undelivered"] == 0, x
PY
report "$([ $? -eq 0 ] && echo 1 || echo 0)" \
	"idem --loss ack=1: every MSG delivered once, given up after exactly 4 resends, exit 2" "$T/xe"
# a receiver's table of one record (C4.7): MSGs dropped on a full table,
# sent again; transactions complete in every window of 10^4 cycles, the
# replies at priority 15 freeing the tables sooner than at 0
for p in 0 15; do
	"$H" idem -t fattree:2,4 -k 0 -s switching=drop --size 64 --load 0.3 \
		--warmup 2000 --measure 1000000 --timeout 3000 --window 2 \
		--table 1 --ack-prio $p --json > "$T/tb$p" 2>&1
	echo "status $?" >> "$T/tb$p"
done
python3 - "$T/tb0" "$T/tb15" > "$T/xe" 2>&1 <<'PY'
import json, sys
r = []
for f in sys.argv[1:3]:
	t = open(f).read().splitlines()
	assert t[-1] == "status 0", t
	d = json.loads(t[0])
	x = d["idem"]
	assert x["delivered"] == x["sent"] > 10000, x
	assert x["given_up"] == x["out_of_order"] == x["recv_state_entries"] == 0, x
	assert d["table"] == 1 and d["table_full"] > 1000, d
	assert d["windows"] == 10 and d["window_completed_min"] > 0, d
	assert d["windows_empty"] == 0, d
	r.append(d)
assert r[1]["table_full"] < r[0]["table_full"], (r[0]["table_full"], r[1]["table_full"])
PY
report "$([ $? -eq 0 ] && echo 1 || echo 0)" \
	"idem --table 1: MSGs dropped on a full table and sent again, each delivered once; transactions in every window of 10^4 cycles; fewer drops with the replies at priority 15" "$T/xe"
"$H" idem -t fattree:2,4 -s switching=drop --load 0.5 --table 1 > "$T/xr" 2>&1
echo "status $?" >> "$T/xr"
printf '%s\n' "hnsim idem: a bounded table drops MSGs: they need a timeout to go again (--timeout NS)" "status 1" > "$T/want"
diff "$T/want" "$T/xr" > "$T/d"
report "$( [ -s "$T/d" ] && echo 0 || echo 1)" "idem --table without a timeout: refused, with the reason" "$T/d"
for a in "--loss 0.3" "--loss msg=2" "--loss ackx=0.1" "--flip 0.1"; do
	# shellcheck disable=SC2086 # $a: options
	"$H" idem -t fattree:2,4 -s switching=drop --load 0.5 $a 2>&1
	echo "status $?"
done > "$T/xr"
printf '%s\n' "hnsim idem: a fabric that loses messages needs a timeout to send them again (--timeout NS)" "status 1" \
	"hnsim idem: --loss wants a fraction in [0, 1], not '2'" "status 1" \
	"hnsim idem: --loss wants P or KIND=P,... with KIND msg, ack or ack2, not 'ackx=0.1'" "status 1" \
	"hnsim idem: a fabric that loses messages needs a timeout to send them again (--timeout NS)" "status 1" > "$T/want"
diff "$T/want" "$T/xr" > "$T/d"
report "$( [ -s "$T/d" ] && echo 0 || echo 1)" "idem: loss without a timeout, a bad loss refused, with the reason" "$T/d"
# the protocol's keys: hnsim idem takes them (-s), hnsim run refuses them
# shellcheck disable=SC2086 # $X: options
"$H" idem $X --measure 2000 -s idem_timeout_ns=3000 -s idem_retry_max=4 -s loss_ppm=1000000 --json > "$T/x4" 2>&1
python3 -c 'import json, sys
x = json.loads(open(sys.argv[1]).readline())["idem"]
assert x["delivered"] == 0 and x["retries_exhausted"] == x["sent"] > 0, x
assert x["msg_resends"] == 4 * x["sent"], x' "$T/x4" > "$T/xe" 2>&1
report "$([ $? -eq 0 ] && echo 1 || echo 0)" \
	"idem: -s idem_timeout_ns, idem_retry_max, loss_ppm are the protocol's (everything lost: each MSG given up after 4 resends)" "$T/xe"
{ "$H" run -n 4 --pattern uniform --load 0.1 -s idem_timeout_ns=5000; echo "status $?"
  "$H" config -s loss_ppm=5; echo "status $?"
} > "$T/xr" 2>&1
printf '%s\n' "hnsim run: idem_timeout_ns: the exactly-once protocol carries the device's messages and hnsim idem's; a traffic run's go once" "status 1" \
	"hnsim config: bad configuration: loss_ppm and flip_ppm need idem_timeout_ns: the exactly-once protocol sends what is lost again" "status 1" > "$T/want"
diff "$T/want" "$T/xr" > "$T/d"
report "$( [ -s "$T/d" ] && echo 0 || echo 1)" "run: the protocol's keys refused, with the reason; loss without a timeout refused" "$T/d"

# faults, circuits and exactly once together: cut-through, 4 slots of
# circuits, a third lost, 16 links down in the middle of the window
"$H" idem -t fattree:3,4 -k 4 -s preload=shift -s switching=vct --pattern uniform \
	--load 0.1 --size 64 --warmup 0 --measure 60000 --timeout 200000 --loss 0.3 \
	--down-random 16 --json > "$T/x5" 2>&1
echo "status $?" >> "$T/x5"
python3 - "$T/x5" > "$T/xe" 2>&1 <<'PY'
import json, sys
t = open(sys.argv[1]).read().splitlines()
assert t[-1] == "status 0", t[-1]
r = json.loads(t[0])
x = r["idem"]
assert x["sent"] > 4000 and x["delivered"] == x["sent"], x
assert x["out_of_order"] == x["given_up"] == x["undelivered"] == 0, x
assert x["msg_lost"] > 0 and x["msg_resends"] > 0, x
assert r["links_down"] == 16 and r["circuits_released"] > 0, r
assert r["circuit_reroutes"] > 0, r   # shift's slots leave paths free
assert r["rx_msgs_circuit"] > 0 and r["rx_msgs_wormhole"] > 0, r
assert r["msg"]["p"] is None and r["e"] is None, r   # drop's only
PY
report "$([ $? -eq 0 ] && echo 1 || echo 0)" \
	"idem on cut-through with circuits, loss 0.3 and 16 links down: every MSG once, circuits routed again or released, p and E null" "$T/xe"

# links failing over time: counted in the report, the run completes
"$H" run -t fattree:3,4 -k 0 --pattern uniform --load 0.3 --measure 20000 \
	-s fault_mtbf_ns=2000 -s fault_repair_ns=10000 --json --no-progress > "$T/fl" 2>&1
echo "status $?" >> "$T/fl"
"$H" run --pattern uniform --load 0.3 -s fault_mtbf_ns=2000 --no-progress >> "$T/fl" 2>&1
echo "status $?" >> "$T/fl"
python3 - "$T/fl" > "$T/fe" 2>&1 <<'PY'
import json, sys
t = open(sys.argv[1]).read().splitlines()
r = json.loads(t[0])
assert t[1] == "status 0" and r["end"] == "done", t
assert r["links_failed"] > 10 and 0 < r["links_repaired"] < r["links_failed"], r
assert r["links_failed"] - r["links_repaired"] == r["links_down"], r
assert t[2:] == ["hnsim run: fault_mtbf_ns needs a fabric of switches: the crossbar has no link between switches to fail", "status 1"], t[2:]
PY
report "$([ $? -eq 0 ] && echo 1 || echo 0)" \
	"-s fault_mtbf_ns, fault_repair_ns: links fail and come back during the run, counted; refused on the crossbar, with the reason" "$T/fe"

# ---- multicast in a trace (Zydallis, C5.2) -------------------------------
# three members of group 0, then group 0 and node 25 (group 3), a
# broadcast and Table 7's even code of group 1: copies and injections
printf '%s\n' "0 0 0/0x0e 64" "0 0 0/0x0e,3/0x02 100" "10 5 all 40" \
	"20 9 1/c1 64" > "$T/mc.trace"
"$H" -n 32 -k 0 --json "$T/mc.trace" > "$T/mc" 2>&1
python3 - "$T/mc" > "$T/me" 2>&1 <<'PY'
import json, sys
r = json.loads(open(sys.argv[1]).readline())
assert r["drained"] and r["rx_msgs"]["wormhole"] == 3 + 4 + 31 + 4, r
assert (r["mcast_msgs"], r["mcast_injections"], r["mcast_copies"]) == (4, 1 + 2 + 4 + 1, 42), r
PY
report "$([ $? -eq 0 ] && echo 1 || echo 0)" \
	"trace multicast: a group's members one injection, two groups two, a broadcast every other node, code c1 its four" "$T/me"
# all or none: the copies wait together for the NIC's room, or never fit
printf '%s\n' "0 0 all 600" "0 1 2 600" "1 0 0/0x06 600" > "$T/mc2.trace"
"$H" -n 16 -k 0 -s nic_buf_bytes=9000 -s max_msg_bytes=1000 "$T/mc2.trace" > "$T/m2" 2>&1
echo "status $?" >> "$T/m2"
"$H" -n 16 -k 0 -s nic_buf_bytes=8000 -s max_msg_bytes=1000 "$T/mc2.trace" >> "$T/m2" 2>&1
echo "status $?" >> "$T/m2"
for dst in 0/0 2/1 0/c9 0/1,0/2 0/1,all; do
	echo "0 0 $dst 64" | "$H" -n 16 -k 0 - 2>&1
	echo "status $?"
done >> "$T/m2"
grep -E '^(multicast|pushback|hnsim|status)' "$T/m2" > "$T/mg"
printf '%s\n' "pushback    1 injections refused (buffer full), 2 retried later, 0 never accepted, 0 retagged to wormhole" \
	"multicast   2 messages, 3 injections (groups), 17 copies" "status 0" \
	"hnsim: $T/mc2.trace:1: message refused: the copies of a multicast exceed nic_buf_bytes" "status 1" \
	"hnsim: <stdin>:1: multicast refused: a multicast entry with no member" "status 1" \
	"hnsim: <stdin>:1: multicast refused: a multicast entry names a node out of range" "status 1" \
	"hnsim: <stdin>:1: '0/c9': BITS is a number below 256 or c0 to c7" "status 1" \
	"hnsim: <stdin>:1: multicast refused: a group named by two multicast entries" "status 1" \
	"hnsim: <stdin>:1: '0/1,all' is not G/BITS[,G/BITS...]" "status 1" > "$T/want"
diff "$T/want" "$T/mg" > "$T/d"
report "$( [ -s "$T/d" ] && echo 0 || echo 1)" "trace multicast: copies wait for room together; never fitting and bad entries refused, with the reason" "$T/d"

# ---- --msg-switching -------------------------------------------------------
M="-t fattree:3,4 -k 0 --pattern uniform --load 0.3 --measure 20000 --json"
# shellcheck disable=SC2086 # $M: options
"$H" run $M --msg-switching saf > "$T/ma" 2>&1 &&
	"$H" run $M -s switching=saf > "$T/mb" 2>&1
python3 - "$T/ma" "$T/mb" > "$T/me" 2>&1 <<'PY'
import json, sys
a, b = (json.loads(open(f).readline()) for f in sys.argv[1:3])
assert a["msg_switching"] == "saf" and b["msg_switching"] == "fabric", (a, b)
for d in (a, b):
    for k in ("msg_switching", "switching", "wall_s"):
        d.pop(k, None)
assert a == b, [(k, a[k], b.get(k)) for k in a if a[k] != b.get(k)]
PY
report "$([ $? -eq 0 ] && echo 1 || echo 0)" \
	"--msg-switching saf on a wormhole fat tree: the run of switching saf, figure for figure" "$T/me"
"$H" run -t fattree:2,4 -k 0 -s switching=drop --pattern uniform --load 0.3 \
	--msg-switching saf > "$T/mr" 2>&1
echo "status $?" >> "$T/mr"
"$H" run -t fattree:2,4 -k 0 --pattern uniform --load 0.3 \
	--msg-switching drop >> "$T/mr" 2>&1
echo "status $?" >> "$T/mr"
printf '%s\n' "hnsim run: switching drop carries no message by a switching of its own" "status 1" \
	"hnsim run: --msg-switching 'drop': want wormhole, vct or saf" "status 1" > "$T/want"
diff "$T/want" "$T/mr" > "$T/d"
report "$( [ -s "$T/d" ] && echo 0 || echo 1)" "--msg-switching: refused on switching drop, and drop itself, with the reason" "$T/d"

# ---- --fields ---------------------------------------------------------------
F="-t fattree:2,2 -k 0 --pattern uniform --load 0.1,0.3 -s switching=wormhole,saf $Q"
# shellcheck disable=SC2086 # $F: options
"$H" run $F --csv > "$T/fa.csv" 2>&1 &&
	"$H" run $F --csv --fields lat_mean_ns,switching,load_ppm,end,lat_mean_ns > "$T/fb.csv" 2>&1
{ head -1 "$T/fb.csv"; col "$T/fa.csv" lat_mean_ns switching load_ppm end lat_mean_ns; } > "$T/want"
diff "$T/want" "$T/fb.csv" > "$T/d" 2>&1
report "$( [ -s "$T/d" ] || [ "$(head -1 "$T/fb.csv")" != lat_mean_ns,switching,load_ppm,end,lat_mean_ns ] &&
	echo 0 || echo 1)" "--fields with --csv: those columns, in that order, a swept -s key and a repeat too" "$T/d"
# shellcheck disable=SC2086 # $F: options
"$H" run $F --json > "$T/fa.json" 2>&1 &&
	"$H" run $F --json --fields sample_lat_mean,switching,accepted_ppm > "$T/fb.json" 2>&1
python3 - "$T/fa.json" "$T/fb.json" > "$T/fe" 2>&1 <<'PY'
import json, sys
a, b = ([json.loads(l) for l in open(f)] for f in sys.argv[1:3])
assert len(a) == len(b) == 4, (len(a), len(b))
for x, y in zip(a, b):
    assert list(y) == ["sample_lat_mean", "switching", "accepted_ppm"], list(y)
    assert all(x[k] == y[k] for k in y), (x, y)
PY
report "$([ $? -eq 0 ] && echo 1 || echo 0)" \
	"--fields with --json: those keys, in that order, each the full object's" "$T/fe"
G="-t fattree:2,2 -k 0 --pattern uniform --load 0.1 $Q"
# shellcheck disable=SC2086 # $G: options
{ "$H" run $G --csv --fields load_ppm,lat_p99; echo "status $?"
  "$H" run $G --csv --fields pattern,sample_lat_mean; echo "status $?"
  "$H" run $G --json --fields pattern,links; echo "status $?"
  "$H" run $G --fields pattern; echo "status $?"
  "$H" run $G --csv --fields pattern,,end; echo "status $?"
  "$H" run $G --csv --fields Pattern; echo "status $?"; } > "$T/fr" 2>&1
printf '%s\n' \
	"hnsim run: --fields: no column 'lat_p99' (the columns: the header of hnsim run --csv without --fields)" "status 1" \
	"hnsim run: --fields: no column 'sample_lat_mean' (the columns: the header of hnsim run --csv without --fields)" "status 1" \
	"hnsim run: --fields: no key 'links' (the keys: hnsim run --json without --fields)" "status 1" \
	"hnsim run: --fields: the keys of --json or the columns of --csv, with one of them" "status 1" \
	"hnsim run: --fields 'pattern,,end': want names of keys or columns, comma-separated" "status 1" \
	"hnsim run: --fields 'Pattern': want names of keys or columns, comma-separated" "status 1" > "$T/want"
diff "$T/want" "$T/fr" > "$T/d"
report "$( [ -s "$T/d" ] && echo 0 || echo 1)" \
	"--fields: a name the run has not (a JSON-only key in CSV, links without --links), no format, a bad list: refused before the run, with the reason" "$T/d"

# ---- hnsim mrp -----------------------------------------------------------------
"$H" mrp --levels 8 --up-x 000110 --data 12345678 0xc423 0xd7f3 > "$T/mh" 2>&1 &&
	"$H" mrp --levels 8 --up-x 000110 --data 12345678 --json 0xc423 0xd7f3 > "$T/mj" 2>&1 &&
	"$H" mrp --levels 8 --up-x 000110 --prio 9 --json 0xc423 0xd7f3 > "$T/mp" 2>&1
python3 - "$T/mh" "$T/mj" "$T/mp" > "$T/me" 2>&1 <<'PY'
import json, sys
h = open(sys.argv[1]).read().split("\n")
assert h[0].startswith("route       0xc423 -> 0xd7f3 on 8 levels: 6 up, across at level 6, 7 down: 14 routers"), h[0]
assert h[1].startswith("message     ab e1 d7 f3 12 34 56 78 "), h[1]
assert "payload     12 34 56 78" in h, h
j, p = (json.loads(open(f).read()) for f in sys.argv[2:4])
assert j["message"] == "abe1d7f312345678" and j["payload"] == "12345678", j
assert j["routers"] == 14 and j["up"] == 6 and j["prio"] is None, j
dirs = [x["dir"] for x in j["hops"]]
assert dirs == ["up"] * 6 + ["across"] + ["down"] * 7, dirs
assert [x["level"] for x in j["hops"] if x["swallow"]] == [3, 6, 4, 0], j["hops"]
assert len(p["words"]) == 2 * len(j["words"]) and p["prio"] == 9, p
assert all(int(p["words"][i:i + 2], 16) & 15 == 9 for i in range(0, len(p["words"]), 2)), p
PY
report "$([ $? -eq 0 ] && echo 1 || echo 0)" \
	"mrp: Woods-Corwin's worked example, 0xABE1D7F312345678, router by router and in JSON; a priority takes twice the words" "$T/me"
{ "$H" mrp 0 1; echo "status $?"
  "$H" mrp --levels 2 0 16; echo "status $?"
  "$H" mrp --levels 2 3 3; echo "status $?"
  "$H" mrp --levels 2 --up-x 012 0 1; echo "status $?"
  "$H" mrp --levels 2 --data 123 0 1; echo "status $?"; } > "$T/mr" 2>&1
printf '%s\n' \
	"hnsim mrp: --levels is needed ('hnsim mrp --help')" "status 1" \
	"hnsim mrp: DST '16': not a node of the tree" "status 1" \
	"hnsim mrp: DST '3': the source itself: no router is crossed" "status 1" \
	"hnsim mrp: --up-x '012': want 0s and 1s, level 0 first, at most 16" "status 1" \
	"hnsim mrp: --data '123': want bytes in hex, at most 256" "status 1" > "$T/want"
diff "$T/want" "$T/mr" > "$T/d"
report "$( [ -s "$T/d" ] && echo 0 || echo 1)" \
	"mrp: no --levels, a node not of the tree, itself, bad X bits, odd hex: refused with the reason" "$T/d"

# ---- --switch-switching ------------------------------------------------------
S="-t fattree:2,4 -k 0 --pattern uniform --load 0.3 --measure 20000 --json"
ALL=sw0.0=saf,sw0.1=saf,sw0.2=saf,sw0.3=saf,sw1.0=saf,sw1.1=saf,sw1.2=saf,sw1.3=saf
# shellcheck disable=SC2086 # $S: options
"$H" run $S --switch-switching $ALL > "$T/sa" 2>&1 &&
	"$H" run $S -s switching=saf > "$T/sb" 2>&1 &&
	"$H" run $S --switch-switching sw1.2=saf,sw0.1=vct > "$T/sc" 2>&1 &&
	"$H" run $S > "$T/sd" 2>&1
python3 - "$T/sa" "$T/sb" "$T/sc" "$T/sd" "$ALL" > "$T/se" 2>&1 <<'PY'
import json, sys
a, b, c, d = (json.loads(open(f).readline()) for f in sys.argv[1:5])
assert a["switch_switching"] == sys.argv[5], a["switch_switching"]
assert b["switch_switching"] == "fabric", b
assert c["switch_switching"] == "sw0.1=vct,sw1.2=saf", c["switch_switching"]
for x in (a, b):
    for k in ("switch_switching", "switching", "wall_s"):
        x.pop(k, None)
assert a == b, [(k, a[k], b.get(k)) for k in a if a[k] != b.get(k)]
assert c["lat_mean_ns"] > d["lat_mean_ns"], (c["lat_mean_ns"], d["lat_mean_ns"])
PY
report "$([ $? -eq 0 ] && echo 1 || echo 0)" \
	"--switch-switching: every switch saf on a wormhole fat tree is the run of switching saf, figure for figure; two of them, named in switch order, cost latency" "$T/se"
# the crossbar is one switch, sw0.0: by wormhole, sw0.0 storing and
# forwarding is the crossbar of switching saf, and slower than its own
X="-n 8 -k 0 --pattern uniform --load 0.3 --measure 20000 --json"
# shellcheck disable=SC2086 # $X: options
"$H" run $X --switch-switching sw0.0=saf > "$T/xa" 2>&1 &&
	"$H" run $X -s switching=saf > "$T/xb" 2>&1 &&
	"$H" run $X > "$T/xc" 2>&1
python3 - "$T/xa" "$T/xb" "$T/xc" > "$T/se" 2>&1 <<'PY'
import json, sys
a, b, c = (json.loads(open(f).readline()) for f in sys.argv[1:4])
assert a["switch_switching"] == "sw0.0=saf", a["switch_switching"]
assert b["switch_switching"] == c["switch_switching"] == "fabric", b
assert a["completed"] and c["completed"], (a["why"], c["why"])
assert a["lat_mean_ns"] > c["lat_mean_ns"], (a["lat_mean_ns"], c["lat_mean_ns"])
for x in (a, b):
    for k in ("switch_switching", "switching", "wall_s"):
        x.pop(k, None)
assert a == b, [(k, a[k], b.get(k)) for k in a if a[k] != b.get(k)]
PY
report "$([ $? -eq 0 ] && echo 1 || echo 0)" \
	"--switch-switching sw0.0=saf on the crossbar by wormhole: the run of switching saf, figure for figure, later than wormhole's" "$T/se"
# --links shows each switch's own, in hnctl switches' column (its header
# as docs/hnctl.md's example of the module shows it) and JSON key
# shellcheck disable=SC2086 # $S: options
"$H" run ${S% --json} --switch-switching sw1.2=saf,sw0.1=vct --links > "$T/sl" 2>&1 &&
	"$H" run $S --switch-switching sw1.2=saf,sw0.1=vct --links > "$T/sj" 2>&1
python3 - "$T/sl" "$T/sj" docs/hnctl.md > "$T/se" 2>&1 <<'PY'
import json, sys
t = open(sys.argv[1]).read().splitlines()
want = [l.strip() for l in open(sys.argv[3]) if l.strip().startswith("switch     level")]
i = [k for k, l in enumerate(t) if l.startswith("switch ")][0]
assert want and t[i] == want[0], (t[i], want)
col = {l.split()[0]: l.split()[3] for l in t[i + 1:i + 9]}
assert col == {"sw0.0": "fabric", "sw0.1": "vct", "sw0.2": "fabric", "sw0.3": "fabric",
	       "sw1.0": "fabric", "sw1.1": "fabric", "sw1.2": "saf", "sw1.3": "fabric"}, col
j = json.loads(open(sys.argv[2]).readline())
assert {s["switch"]: s["switching"] for s in j["switches"]} == col, j["switches"]
PY
report "$([ $? -eq 0 ] && echo 1 || echo 0)" \
	"--links: each switch's own switching, in hnctl switches' column and a JSON key (fabric without)" "$T/se"
SR="-k 0 --pattern uniform --load 0.3"
# shellcheck disable=SC2086 # $SR: options
{ "$H" run $SR -t fattree:2,4 --switch-switching sw9.0=saf; echo "status $?"
  "$H" run $SR -t fattree:2,4 --switch-switching node3=saf; echo "status $?"
  "$H" run $SR -t fattree:2,4 --switch-switching sw1.0=drop; echo "status $?"
  "$H" run $SR -t fattree:2,4 -s switching=drop --switch-switching sw1.0=saf; echo "status $?"
  "$H" run $SR -t fattree:2,4 -s vc_count=2 -s vc_flits=4 --switch-switching sw1.0=vct; echo "status $?"
} > "$T/sr" 2>&1
printf '%s\n' \
	"hnsim run: --switch-switching sw9.0=saf: no such switch (names: swL.I, as hnctl switches prints them)" "status 1" \
	"hnsim run: --switch-switching node3=saf: no such switch (names: swL.I, as hnctl switches prints them)" "status 1" \
	"hnsim run: --switch-switching sw1.0=drop: want NAME=SWITCHING, a switch's name and wormhole, vct or saf" "status 1" \
	"hnsim run: --switch-switching sw1.0=saf: switching drop is the whole fabric's: no switch has one of its own" "status 1" \
	"hnsim run: --switch-switching sw1.0=vct: cut-through and store-and-forward need buffers of a worm: vc_flits holds less" "status 1" > "$T/want"
diff "$T/want" "$T/sr" > "$T/d"
report "$( [ -s "$T/d" ] && echo 0 || echo 1)" \
	"--switch-switching: no such switch, a link, drop, a drop fabric, buffers smaller than a worm: refused with the reason" "$T/d"

# ---- faults: --down, --down-random ---------------------------------------
F="-t fattree:3,4 -k 0 --pattern uniform --load 0.3 --measure 20000 -s up_select=random"
# shellcheck disable=SC2086 # $F: options
"$H" run $F --down sw0.0/up1,sw1.3,node5 --links --json > "$T/f1" 2>&1
python3 - "$T/f1" > "$T/fe" 2>&1 <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["completed"], d
assert d["links_down"] == 2 and d["switches_down"] == 1, d
assert d["unreach_msgs"] > 0, d          # node5 is cut off
ch = {l["link"]: sum(c["bytes"] for c in l["channels"]) for l in d["links"]}
assert ch["sw0.0/up1"] == 0 and ch["node5"] == 0, ch
assert min(v for k, v in ch.items() if k.startswith("sw0.")) == 0, ch
PY
report "$([ $? -eq 0 ] && echo 1 || echo 0)" \
	"--down: links and a switch down, the run completes, nothing crosses them, node5's messages are refused and counted" "$T/fe"
# shellcheck disable=SC2086 # $F: options
"$H" run $F --down-random 0,8 --down-seed 3 --csv > "$T/f2" 2>&1
python3 - "$T/f2" > "$T/fe" 2>&1 <<'PY'
import csv, sys
r = list(csv.DictReader(open(sys.argv[1])))
assert [x["links_down"] for x in r] == ["0", "8"], r
assert all(x["end"] == "done" for x in r), r
PY
report "$([ $? -eq 0 ] && echo 1 || echo 0)" \
	"--down-random 0,8: a sweep over the count of links down" "$T/fe"
# shellcheck disable=SC2086 # $F: options
"$H" run $F --down node5,node6,node7,node8 --json > "$T/f3" 2>&1
echo "status $?" >> "$T/f3"
python3 - "$T/f3" > "$T/fe" 2>&1 <<'PY'
import json, sys
lines = open(sys.argv[1]).read().splitlines()
assert lines[-1] == "status 0", lines[-1]
d = json.loads(lines[0])
# about an eighth of the messages refused: far past --sat-tol, not saturation
assert d["unreach_msgs"] * 20 > d["gen_msgs"], d
assert d["end"] == "done" and not d["saturated"], d
PY
report "$([ $? -eq 0 ] && echo 1 || echo 0)" \
	"--down: four nodes cut off, an eighth of the messages refused, not taken for saturation" "$T/fe"
"$H" run -t fattree:2,4 -k 0 --pattern uniform --batch 20 --seed 5 \
	--down node3,sw1.0 > "$T/fb" 2>&1
echo "status $?" >> "$T/fb"
grep -Eq '^messages    generated 320, delivered ([0-9]+) .*not delivered 0;' "$T/fb" &&
	grep -q '^faults      1 links and 1 switches down; 37 messages refused' "$T/fb" &&
	grep -q '^status 0$' "$T/fb"
report "$([ $? -eq 0 ] && echo 1 || echo 0)" \
	"--down in a batch: node3's messages and those to it refused, the batch completes" "$T/fb"
# shellcheck disable=SC2086 # $F: options
"$H" run $F --down sw9.0 > "$T/fr" 2>&1
echo "status $?" >> "$T/fr"
printf '%s\n' "hnsim run: --down sw9.0: no such link, channel or switch (names: swL.I, swL.I/upP, swL.I/downP, nodeU, LINK/cJ)" "status 1" > "$T/want"
diff "$T/want" "$T/fr" > "$T/d"
report "$( [ -s "$T/d" ] && echo 0 || echo 1)" "--down: a name the fabric has not, refused with the reason" "$T/d"
# a dilated link's channels alone (Woods-Corwin's physical links)
D="-t fattree:3,4 -k 0 -s switching=drop -s dilation=2 --pattern uniform --load 0.3 --measure 20000 -s up_select=random"
# shellcheck disable=SC2086 # $D: options
{ "$H" run $D --down sw0.0/up1/c0,node5/c1 --json --links; echo "status $?"
  "$H" run $D --down-random-channels 0,64 --csv; echo "status $?"
  "$H" run $D --down node5/c0,node5/c1; echo "status $?"
  "$H" run $D --down node5/c2; echo "status $?"
  "$H" run $D --down-random-channels 129; echo "status $?"
  "$H" run $F --down node5/c0; echo "status $?"; } > "$T/fd" 2>&1
python3 - "$T/fd" > "$T/fe" 2>&1 <<'PY'
import csv, json, sys
l = open(sys.argv[1]).read().splitlines()
d = json.loads(l[0])
assert l[1] == "status 0", l[1]
assert d["completed"] and d["channels_down"] == 2, d
assert d["links_down"] == 0 and d["unreach_msgs"] == 0, d
cd = {x["link"]: x["channels_down"] for x in d["links"] if x["channels_down"]}
assert cd == {"sw0.0/up1": [0], "node5": [1]}, cd
r = list(csv.DictReader(l[2:5]))
assert l[5] == "status 0", l[5]
assert [x["channels_down"] for x in r] == ["0", "64"], r
assert all(x["end"] == "done" and x["unreach_msgs"] == "0" for x in r), r
assert int(r[1]["drops"]) > int(r[0]["drops"]), r
assert l[6:] == [
    "hnsim run: --down node5/c1: the link's last channel up: take the link down instead",
    "status 1",
    "hnsim run: --down node5/c2: no such channel: a link has dilation channels, 0 to dilation - 1",
    "status 1",
    "hnsim run: --down-random-channels 129: more channels to take down than may go: every link keeps one up",
    "status 1",
    "hnsim run: --down node5/c0: a channel fails alone only on a link of dilation 2 or more, under switching drop: take the link down",
    "status 1"], l[6:]
PY
report "$([ $? -eq 0 ] && echo 1 || echo 0)" \
	"--down LINK/cJ, --down-random-channels 0,64: a dilated link's channels down alone (--links says which), none refused, more drops; the last channel, one there is not, too many, dilation 1: refused with the reason" "$T/fe"
"$H" run -t fattree:3,4 -k 2 -P no-w --net preload --pattern uniform \
	--load 0.3 --down node1 > "$T/fr" 2>&1
echo "status $?" >> "$T/fr"
grep -q "^hnsim run: --down node1: links and switches fail only with a wormhole slot" "$T/fr" &&
	grep -q "^status 1$" "$T/fr"
report "$([ $? -eq 0 ] && echo 1 || echo 0)" "--down under pure TDM: refused with the reason" "$T/fr"
"$H" run -t fattree:3,4 -k 2 --pattern uniform --load 0.3 --measure 20000 \
	--down sw1.0,sw0.2/up1 > "$T/fc" 2>&1
echo "status $?" >> "$T/fc"
grep -q "^status 0$" "$T/fc" && grep -q "^faults      1 links and 1 switches down" "$T/fc"
report "$([ $? -eq 0 ] && echo 1 || echo 0)" "--down with circuit slots: the run completes" "$T/fc"
# a GH's direct link down: Zydallis's 2-hop detour (C2.5), values 1 and 2 by 3
G="-t gh:2,4 -k 0 --pattern uniform --load 0.3 --measure 20000"
# shellcheck disable=SC2086 # $G: options
{ "$H" run $G --down sw0.1/down2 --links --json; "$H" run $G --down sw0.2/down3 --json
} > "$T/g1" 2>&1
python3 - "$T/g1" > "$T/fe" 2>&1 <<'PY'
import json, sys
a, b = (json.loads(l) for l in open(sys.argv[1]).read().splitlines())
assert a["completed"] and a["links_down"] == 1 and a["unreach_msgs"] == 0, a
ch = {l["link"]: sum(c["bytes"] for c in l["channels"]) for l in a["links"]}
assert ch["sw0.1/down2"] == 0 and ch["sw0.1/down3"] > 0 and ch["sw0.2/down3"] > 0, ch
assert b["completed"] and b["unreach_msgs"] > 0, b  # 2-3: no value above 3
PY
report "$([ $? -eq 0 ] && echo 1 || echo 0)" \
	"--down on a GH: traffic goes around the link between values 1 and 2, none refused; the link between 2 and 3 has no detour, its pairs refused" "$T/fe"
P="-t fattree:3,4 -k 4 --net hybrid --preload-slots 4 --pattern transpose --load 0.3 --measure 20000"
# shellcheck disable=SC2086 # $P: options
"$H" run $P --down-random 0,8 --csv > "$T/fp" 2>&1
python3 - "$T/fp" > "$T/fe" 2>&1 <<'PY'
import csv, sys
a, b = list(csv.DictReader(open(sys.argv[1])))
assert a["wormhole_msgs"] == "0" and int(a["circuit_msgs"]) > 0, a
assert int(b["wormhole_msgs"]) > 0 and b["end"] == "done", b   # released
assert a["releases"] == a["circuit_reroutes"] == "0", a
assert int(b["releases"]) > 0 and int(b["circuit_reroutes"]) > 0, b
PY
report "$([ $? -eq 0 ] && echo 1 || echo 0)" \
	"--down after the plan: the circuits over dead links routed again where their slot has a path free, the others released, their pairs by wormhole" "$T/fe"
# shellcheck disable=SC2086 # $P: options
"$H" run $P --down-random 8 --down-before-plan > "$T/fr" 2>&1
echo "status $?" >> "$T/fr"
printf '%s\n' "hnsim run: the plan's preload, around the links down: no up-port free both ways at this level" "status 1" > "$T/want"
diff "$T/want" "$T/fr" > "$T/d"
report "$( [ -s "$T/d" ] && echo 0 || echo 1)" "--down-before-plan: a plan that no longer fits, refused with the reason" "$T/d"

finish
