#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# faults.sh - the drop-on-block experiments of docs/results/faults.md,
# run with hnsim on Woods-Corwin's 256-node size: FT(4,4) with switching
# drop, calibrated as his simulation (a word a cycle, a router 2 cycles,
# no wire delay):
#  1. density: 10-word messages, the mean gap between a node's messages
#     from 5 to 60 cycles, localized traffic, dilation 2 (and 1);
#  2. traffic: localized against uniform at the same gaps;
#  3. length: 7-word against 21-word messages, at the same offered load
#     and at the same gap;
#  4. priority: the three messages of the idempotent protocol (hnsim
#     idem), ACK and ACK2 at priority 0 and then 5, at the load where
#     their successes are all near 0.77 without priority; and where
#     the MSGs' attempts go (dropped, preempted, preempted late), with
#     no warm-up so the fabric's counters count the measured ones;
#  5. 1 to 3 again with all three messages, as his figures count them;
#  6. faults: success against the number of links between switches down
#     (0 to 192, a quarter of them), chosen at random, localized and
#     uniform 10-word messages at a gap of 10 cycles, random up-ports;
#     then against the number of channels down (0 to 384 of the 1536,
#     a quarter), each link keeping one up; then both again with
#     adaptive up-ports;
#  7. faults under Ding's predictive circuits (no source text has it):
#     FT(3,4) with 4 circuit slots preloaded with the pattern's plan, then
#     0 to 16 links down, the circuits over them routed again where their
#     slot has a free path, else released;
#  8. exactly once: the three messages with 0.3 of every kind's copies
#     lost (C4.1), and with bits flipped at 10^-4 a flit (C4.5), over
#     10^5 MSGs.
#  9. livelock (C4.7): a receiver's table of one record, long MSGs, the
#     transactions completed in each window of 10^4 cycles over 10^6,
#     acknowledgements at priority 0 and 5.
# 10. all together (no source text has it): exactly once over FT(3,4)
#     with 4 circuit slots preloaded (preload=shift), cut-through
#     switching, uniform 64-byte MSGs, copies lost and 0 to 16 random
#     links down in the window's middle third.
# Each point's success is the share of attempts that got through,
# 1 - (drops + preemptions) / attempts.
#
# Usage: faults.sh HNSIM DATADIR
# Writes DATADIR/density.dat and three.dat (gnuplot columns) and
# DATADIR/tables.md.
# Sequential: one core.  Deterministic (seed 1).
set -eu

H=${1:?usage: faults.sh HNSIM DATADIR}
D=${2:?usage: faults.sh HNSIM DATADIR}
mkdir -p "$D"

# a cycle is wh_flit_ns (10 ns) and a word a flit of one byte: 800 Mb/s;
# a router is 2 cycles ([W:892]: 4 routers, 8 cycles); wires are free
W="-t fattree:4,4 -k 0 -s switching=drop -s flit_bytes=1 -s link_mbps=800
   -s wh_flit_ns=10 -s wh_first_ns=20 -s wire_ns=0 -s nic_ns=0
   -s fabric_ns=0 --warmup 20000 --measure 100000 --seed 1 --no-progress"

# run DILATION ARGS...: one CSV row per point of the sweep: pattern,
# dilation, size, load_ppm, end, attempts, lost, success
run() {
	d=$1
	shift
	# shellcheck disable=SC2086 # $W: options
	"$H" run $W -s dilation="$d" "$@" --csv | python3 -c '
import csv, sys
for r in csv.DictReader(sys.stdin):
	a = int(r["attempts"])
	lost = int(r["drops"]) + int(r["preemptions"])
	print(",".join([r["pattern"], sys.argv[1], r["size"], r["load_ppm"],
			r["end"], str(a), str(lost), "%.4f" % (1 - lost / a)]))' "$d"
}

# gap G cycles after a 10-word message: the offered load 10 / (10 + G)
GAPS="5 10 15 30 60"
loads=$(for g in $GAPS; do awk -v g="$g" 'BEGIN { printf "%.6f,", 10 / (10 + g) }'; done)
loads=${loads%,}

{
	run 2 --pattern localized,uniform --size 10 --load "$loads"
	run 1 --pattern localized --size 10 --load "$loads"
} > "$D/density.csv"
# density.dat: gap, then the success of localized d2, uniform d2, localized d1
python3 - "$D/density.csv" "$GAPS" > "$D/density.dat" <<'PY'
import sys
rows = [l.strip().split(",") for l in open(sys.argv[1])]
gaps = sys.argv[2].split()
p = {(r[0], r[1], round(10e6 / int(r[3]) - 10)): r[7] for r in rows}
print("# gap_cycles localized_d2 uniform_d2 localized_d1")
for g in gaps:
	g = int(g)
	print(g, p[("localized", "2", g)], p[("uniform", "2", g)],
	      p[("localized", "1", g)])
PY
# the same offered load, then the same gap (10 cycles) after each message
for words in 7 21; do
	run 2 --pattern localized --size "$words" --load 0.5
	run 2 --pattern localized --size "$words" \
		--load "$(awk -v l="$words" 'BEGIN { printf "%.6f", l / (l + 10) }')"
done > "$D/length.csv"

# idem PATTERN LOAD WORDS PRIO [WINDOW]: the three messages, a CSV row:
# pattern, load, words, priority, p of MSG, ACK, ACK2, of all three, mean
# switches, E, window (a node's MSGs awaiting their ACK; 0: any)
idem() {
	# shellcheck disable=SC2046,SC2086 # $W: options
	"$H" idem $(echo "$W" | sed 's/--no-progress//') -s dilation=2 \
		--pattern "$1" --load "$2" --size "$3" --ack-prio "$4" \
		--window "${5:-0}" --json |
		python3 -c '
import json, sys
d = json.load(sys.stdin)
k = ("msg", "ack", "ack2")
assert d["completed"] == d["transactions"], d
tot = sum(d[x]["messages"] for x in k) / sum(d[x]["attempts"] for x in k)
print(",".join(sys.argv[1:5] + ["%.4f" % d[x]["p"] for x in k] +
	       ["%.4f" % tot, "%.4f" % d["mean_switches"], "%.4f" % d["e"],
		sys.argv[5] if len(sys.argv) > 5 else "0"]))
' "$@"
}

# the three messages: each kind's p and E, without and with priority
# and with a node holding back its MSGs while two await their ACK (his
# processors' two out ports [W:886])
{
	for load in 0.5 0.3; do
		for prio in 0 5; do
			idem localized "$load" 10 "$prio"
		done
	done
	for prio in 0 5; do
		idem localized 0.5 10 "$prio" 2
	done
} > "$D/priority.csv"
# where.csv: where the MSGs' attempts go.  No warm-up, so the fabric's
# counters of the whole run (attempts, drops, preemptions and the late
# ones) count the measured transactions' attempts and nothing else: load,
# ACK priority, then messages and attempts of MSG, ACK, ACK2, the
# fabric's attempts, drops, preemptions, late ones, mean switches
for load in 0.5 0.3; do
	for prio in 0 5; do
		# shellcheck disable=SC2046,SC2086 # $W: options
		"$H" idem $(echo "$W" | sed 's/--no-progress//; s/--warmup [0-9]*/--warmup 0/') \
			-s dilation=2 --pattern localized --load "$load" \
			--size 10 --ack-prio "$prio" --json |
			python3 -c '
import json, sys
d = json.load(sys.stdin)
k = ("msg", "ack", "ack2")
assert d["completed"] == d["transactions"], d
assert d["attempts"] == sum(d[x]["attempts"] for x in k), d
print(",".join(sys.argv[1:3] + [str(d[x][y]) for x in k
				for y in ("messages", "attempts")] +
	       [str(d[x]) for x in ("attempts", "drops", "preemptions",
				    "preemptions_late")] +
	       ["%.4f" % d["mean_switches"]]))
' "$load" "$prio"
	done
done > "$D/where.csv"

# the sensitivities again, with all three kinds, as his figures count
{
	for pattern in localized uniform; do
		for g in $GAPS; do
			idem "$pattern" "$(awk -v g="$g" 'BEGIN { printf "%.6f", 10 / (10 + g) }')" 10 0
		done
	done
	for words in 7 21; do
		idem localized "$(awk -v l="$words" 'BEGIN { printf "%.6f", l / (l + 10) }')" "$words" 0
	done
} > "$D/three.csv"
# three.dat: gap, then the success of all three kinds, localized, uniform
python3 - "$D/three.csv" "$GAPS" > "$D/three.dat" <<'PY'
import sys
p = {}
for r in (l.strip().split(",") for l in open(sys.argv[1])):
	if r[2] == "10":
		p[(r[0], round(10 / float(r[1]) - 10))] = r[7]
print("# gap_cycles localized uniform")
for g in sys.argv[2].split():
	print(g, p[("localized", int(g))], p[("uniform", int(g))])
PY

# down_csv PATTERN OPTION LIST COLUMN [UP_SELECT]: a row per point of the
# sweep of OPTION over LIST, up-ports UP_SELECT (random): pattern, the
# count down (COLUMN), end, attempts, success, refused, made
down_csv() {
	# shellcheck disable=SC2086 # $W: options
	"$H" run $W -s dilation=2 -s up_select="${5:-random}" --pattern "$1" \
		--size 10 --load 0.5 "$2" "$3" --csv |
		python3 -c '
import csv, sys
for r in csv.DictReader(sys.stdin):
	a = int(r["attempts"])
	lost = int(r["drops"]) + int(r["preemptions"])
	print(",".join([r["pattern"], r[sys.argv[1]], r["end"], str(a),
			"%.4f" % (1 - lost / a), r["unreach_msgs"], r["gen_msgs"]]))' "$4"
}

# faults.csv: whole links down
for pattern in localized uniform; do
	down_csv "$pattern" --down-random 0,24,48,96,144,192 links_down
done > "$D/faults.csv"

# channels.csv: channels down, each link keeping one; uniform stops at
# 288, where it has saturated
down_csv localized --down-random-channels 0,96,192,288,384 channels_down \
	> "$D/channels.csv"
down_csv uniform --down-random-channels 0,96,192,288 channels_down \
	>> "$D/channels.csv"
# adaptive.csv: the same with adaptive up-ports, which count a dead
# channel busy; then whole links, localized, for the same physical links
{
	down_csv localized --down-random-channels 0,96,192,288,384 \
		channels_down adaptive
	down_csv uniform --down-random-channels 0,96,192,288 channels_down \
		adaptive
} | sed 's/^/channels,/' > "$D/adaptive.csv"
down_csv localized --down-random 0,48,96,192 links_down adaptive |
	sed 's/^/links,/' >> "$D/adaptive.csv"

# circuits.csv: pattern, links down, end, accepted, latency (mean, of the
# circuits', of the wormhole's), messages by circuit and by wormhole,
# circuits routed again and released;
# Ding's hybrid at its ding4 times, a link 6.4 Gb/s
for pattern in transpose tornado; do
	"$H" run -t fattree:3,4 -k 4 --net hybrid --preload-slots 4 \
		--pattern "$pattern" --load 0.3 --measure 50000 --seed 1 \
		--no-progress --down-random 0,4,8,16 --csv |
		python3 -c '
import csv, sys
for r in csv.DictReader(sys.stdin):
	print(",".join([r["pattern"], r["links_down"], r["end"],
			r["accepted_ppm"], r["lat_mean_ns"],
			r["lat_mean_circuit_ns"], r["lat_mean_wormhole_ns"],
			r["circuit_msgs"], r["wormhole_msgs"],
			r["circuit_reroutes"], r["releases"]]))'
done > "$D/circuits.csv"

# exactly.csv: loss, flip, then the idem object's sent, delivered, given_up,
# undelivered, out_of_order, msg_tx, msg_resends, ack_resends,
# dups_suppressed, msg_lost, ack_lost, ack2_lost, crc_fail,
# recv_state_entries
for lf in "0.3 0" "0 0.0001" "0.3 0.0001"; do
	# shellcheck disable=SC2086 # $lf: two words
	set -- $lf
	# shellcheck disable=SC2046,SC2086 # $W: options
	"$H" idem $(echo "$W" | sed 's/--no-progress//') -s dilation=2 \
		--pattern localized --load 0.3 --size 10 --warmup 0 \
		--measure 135000 --loss "$1" --flip "$2" --timeout 5000 --json |
		python3 -c '
import json, sys
x = json.load(sys.stdin)["idem"]
print(",".join(sys.argv[1:3] + [str(x[k]) for k in ("sent", "delivered",
	"given_up", "undelivered", "out_of_order", "msg_tx", "msg_resends",
	"ack_resends", "dups_suppressed", "msg_lost", "ack_lost", "ack2_lost",
	"crc_fail", "recv_state_entries")]))' "$1" "$2"
done > "$D/exactly.csv"

# table.csv (C4.7): load, ack priority, table, then transactions,
# completed, p of MSG, ACK, ACK2, MSGs sent, delivered, table_full,
# windows, windows_empty, window_completed_min, t_end_ns: 30-word MSGs,
# a receiver's table of one record, a node's window of 2, timeout 200
# cycles, 10^6 cycles measured (the table's fields empty without one)
for pt in "0.2 0 0" "0.2 0 1" "0.2 5 1" "0.5 0 1" "0.5 5 1"; do
	# shellcheck disable=SC2086 # $pt: three words
	set -- $pt
	# shellcheck disable=SC2046,SC2086 # $W: options
	"$H" idem $(echo "$W" | sed 's/--no-progress//; s/--measure [0-9]*//') \
		-s dilation=2 --pattern localized --load "$1" --size 30 \
		--ack-prio "$2" --timeout 2000 --window 2 --table "$3" \
		--measure 10000000 --json |
		python3 -c '
import json, sys
r = json.load(sys.stdin)
x = r["idem"]
print(",".join(sys.argv[1:4] + [str(r[k]) for k in ("transactions",
	"completed")] + ["%.4f" % r[k]["p"] for k in ("msg", "ack", "ack2")] +
	[str(x[k]) for k in ("sent", "delivered")] +
	[str(r.get(k, "")) for k in ("table_full", "windows", "windows_empty",
	"window_completed_min")] + [str(r["t_end_ns"])]))' "$1" "$2" "$3"
done > "$D/table.csv"

# together.csv: loss, links down, then the idem object's sent, delivered,
# given_up, undelivered, out_of_order, msg_tx, msg_resends, then
# circuit_reroutes, circuits_released, rx_msgs_circuit, rx_msgs_wormhole,
# t_end_ns
for ld in "0 0" "0 16" "0.3 0" "0.3 16"; do
	# shellcheck disable=SC2086 # $ld: two words
	set -- $ld
	"$H" idem -t fattree:3,4 -k 4 -s preload=shift -s switching=vct \
		--pattern uniform --load 0.1 --size 64 --warmup 0 \
		--measure 300000 --timeout 200000 --loss "$1" \
		--down-random "$2" --json |
		python3 -c '
import json, sys
r = json.load(sys.stdin)
x = r["idem"]
print(",".join(sys.argv[1:3] + [str(x[k]) for k in ("sent", "delivered",
	"given_up", "undelivered", "out_of_order", "msg_tx", "msg_resends")] +
	[str(r[k]) for k in ("circuit_reroutes", "circuits_released",
	"rx_msgs_circuit",
	"rx_msgs_wormhole", "t_end_ns")]))' "$1" "$2"
done > "$D/together.csv"

python3 - "$D" "$GAPS" > "$D/tables.md" <<'PY'
import sys
d, gaps = sys.argv[1], sys.argv[2].split()
rows = [l.strip().split(",") for l in open(d + "/density.csv")]
print("Success per attempt against the mean gap between a node's 10-word")
print("messages (offered load 10 / (10 + gap)), FT(4,4), switching drop:\n")
print("| gap, cycles | load | localized, d 2 | uniform, d 2 | localized, d 1 |")
print("|---|---|---|---|---|")
for g in gaps:
	g = int(g)
	cell = {}
	for r in rows:
		if round(10e6 / int(r[3]) - 10) == g:
			cell[(r[0], r[1])] = r[7] + ("" if r[4] == "done" else " (" + r[4] + ")")
	print("| %d | %.3f | %s | %s | %s |" % (g, 10 / (10 + g),
	      cell[("localized", "2")], cell[("uniform", "2")],
	      cell[("localized", "1")]))
print("\nSuccess per attempt by message length, localized, dilation 2, at")
print("offered load 0.5 and at a gap of 10 cycles after each message:\n")
print("| words | load | success | attempts | lost |")
print("|---|---|---|---|---|")
for r in (l.strip().split(",") for l in open(d + "/length.csv")):
	print("| %s | %.3f | %s | %s | %s |" % (r[2], int(r[3]) / 1e6, r[7],
					   r[5], r[6]))
print("\nThe three messages (hnsim idem), localized 10-word MSGs, replies of")
print("2 words, dilation 2; E = mean switches x the sum of 1/p:\n")
print("| load | window | ACK priority | p MSG | p ACK | p ACK2 | mean switches | E | E against priority 0 |")
print("|---|---|---|---|---|---|---|---|---|")
rows = [l.strip().split(",") for l in open(d + "/priority.csv")]
base = {(r[1], r[10]): float(r[9]) for r in rows if r[3] == "0"}
for r in rows:
	print("| %s | %s | %s | %s | %s | %s | %s | %s | %+.1f %% |" % (r[1],
	      r[10] if r[10] != "0" else "-", r[3], r[4], r[5], r[6], r[8],
	      r[9], 100 * (float(r[9]) / base[(r[1], r[10])] - 1)))
print("\nWhere the MSGs' attempts go: as above, no warm-up (the fabric's")
print("counters then count the measured transactions' attempts alone); at")
print("priority 5 every preempted header is a MSG's; p MSG drops only counts")
print("a preempted attempt as a success; E likewise:\n")
print("| load | ACK priority | MSG attempts | dropped | preempted | of them late | p MSG | p MSG, drops only | p ACK | p ACK2 | E | E, drops only |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|")
rows = [l.strip().split(",") for l in open(d + "/where.csv")]
for r in rows:
	m, a = [int(x) for x in r[2:8:2]], [int(x) for x in r[3:9:2]]
	pre, late = int(r[10]), int(r[11])
	dropped = a[0] - m[0] - pre
	assert pre == 0 or r[1] != "0"
	p = [m[i] / a[i] for i in range(3)]
	pd = [1 - dropped / a[0]] + p[1:]
	sw = float(r[12])
	print("| %s | %s | %d | %d | %d | %d | %.4f | %.4f | %.4f | %.4f | %.4f | %.4f |"
	      % (r[0], r[1], a[0], dropped, pre, late, p[0], pd[0], p[1], p[2],
		 sw * sum(1 / x for x in p), sw * sum(1 / x for x in pd)))
print("\nThe sensitivities with all three kinds (no priority): success of all")
print("attempts, each kind's, and E:\n")
print("| pattern | words | gap, cycles | load | all | MSG | ACK | ACK2 | E |")
print("|---|---|---|---|---|---|---|---|---|")
for r in (l.strip().split(",") for l in open(d + "/three.csv")):
	w = int(r[2])
	print("| %s | %d | %d | %.3f | %s | %s | %s | %s | %s |" % (r[0], w,
	      round(w / float(r[1]) - w), float(r[1]), r[7], r[4], r[5], r[6],
	      r[9]))
for f, what in (("faults", "links"), ("channels", "channels")):
	if f == "faults":
		print("\nSuccess per attempt against the links between switches down (of")
		print("768), chosen at random; 10-word messages at a gap of 10 cycles,")
		print("dilation 2, random up-ports; messages refused because no live route")
		print("reached their destination, of those made:\n")
	else:
		print("\nSuccess per attempt against the channels of links between switches")
		print("down (of 1536), chosen at random, each link keeping one up; as above:\n")
	print("| pattern | %s down | success | attempts | refused | made | end |" % what)
	print("|---|---|---|---|---|---|---|")
	for r in (l.strip().split(",") for l in open(d + "/" + f + ".csv")):
		print("| %s | %s | %s | %s | %s | %s | %s |" % (r[0], r[1], r[4],
		      r[3], r[5], r[6], r[2]))
print("\nThe same with adaptive up-ports (up_select adaptive: the port with")
print("the fewest busy channels, a dead one counted busy): channels")
print("down, then whole links down for the same physical links:\n")
print("| what | pattern | down | success | attempts | refused | made | end |")
print("|---|---|---|---|---|---|---|---|")
for r in (l.strip().split(",") for l in open(d + "/adaptive.csv")):
	print("| %s | %s | %s | %s | %s | %s | %s | %s |" % (r[0], r[1], r[2],
	      r[5], r[4], r[6], r[7], r[3]))
print("\nFaults under predictive circuits: FT(3,4), 4 slots preloaded with")
print("the pattern's plan, offered load 0.3, then links down (of 128):\n")
print("| pattern | links down | circuits routed again | released | end | accepted | latency, ns | by circuit | by wormhole | messages by circuit | by wormhole |")
print("|---|---|---|---|---|---|---|---|---|---|---|")
for r in (l.strip().split(",") for l in open(d + "/circuits.csv")):
	print("| %s | %s | %s | %s | %s | %.3f | %s | %s | %s | %s | %s |" % (
	      r[0], r[1], r[9], r[10], r[2], int(r[3]) / 1e6, r[4],
	      r[5] or "-", r[6] or "-", r[7], r[8]))
print("\nExactly once (hnsim idem): localized 10-word MSGs at load 0.3,")
print("dilation 2, timeout 500 cycles; copies lost as they arrive, bits")
print("flipped per flit:\n")
print("| lost | flipped | MSGs | delivered | given up | undelivered | out of order or twice | MSG copies | sent again: MSGs, ACKs | duplicates suppressed | lost: MSG, ACK, ACK2 | CRC failures | records left |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
for r in (l.strip().split(",") for l in open(d + "/exactly.csv")):
	print("| %s | %s | %s | %s | %s | %s | %s | %s | %s, %s | %s | %s, %s, %s | %s | %s |" % tuple(r))
print("\nA bounded receiver table (hnsim idem --table): localized 30-word")
print("MSGs, dilation 2, a node's window of 2, timeout 200 cycles, 10^6")
print("cycles measured, then up to 10^6 more to finish:\n")
print("| load | ACK priority | table | transactions | completed | p MSG | p ACK | p ACK2 | MSGs dropped on a full table | windows of 10^4 cycles | with none completed | fewest completed in one |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|")
for r in (l.strip().split(",") for l in open(d + "/table.csv")):
	print("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % tuple(
	      r[:8] + [x or "-" for x in r[10:14]]))
print("\nAll together (hnsim idem): FT(3,4), 4 circuit slots preloaded")
print("(preload=shift), cut-through, uniform 64-byte MSGs at load 0.1,")
print("timeout 200 us, MSGs made over 300 us; links down at random from 100")
print("to 200 us; copies of every kind lost as they arrive:\n")
print("| lost | links down | MSGs | delivered | given up | undelivered | out of order or twice | MSG copies | MSGs sent again | circuits routed again | released | copies by circuit | by wormhole | quiet at, us |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
for r in (l.strip().split(",") for l in open(d + "/together.csv")):
	print("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %d |" % tuple(r[:13] + [int(r[13]) // 1000]))
PY
cat "$D/tables.md"
